"""nn modules as learners write them (subclasses, reprs, parameter listings, state_dict save and load, hooks, init,
losses), against real PyTorch. Printed text, warnings and the final error must be the same."""
import pytest

T = pytest.importorskip("torch", reason="differential tests need real PyTorch (pip install torch==2.13.0)")
from .harness import TRIES, load_engine, run_both, same  # noqa: E402

E = load_engine()

SNIPPETS = {
    # forward hooks and pre-hooks take prepend= and with_kwargs= (the hook sees the forward's kwargs; a kwargs pre-hook
    # returns None or (args, kwargs), anything else is PyTorch's RuntimeError)
    "forward_hooks_prepend_and_with_kwargs": (
        TRIES +
        'import torch.nn as nn\n'
        'm = nn.Linear(2, 1)\n'
        'nn.init.constant_(m.weight, 0.5); nn.init.zeros_(m.bias)\n'
        'm.register_forward_hook(lambda *a: print("A"))\n'
        'm.register_forward_hook(lambda *a: print("B"), prepend=True)\n'
        'm.register_forward_pre_hook(lambda mod, a, k: print("pre", a, k), with_kwargs=True)\n'
        'm.register_forward_pre_hook(lambda mod, a: print("first"), prepend=True)\n'
        'm.register_forward_hook(lambda mod, a, k, out: print("kw", a, k, out), with_kwargs=True)\n'
        'print(m(input=torch.ones(1, 2)))\n'
        'm2 = nn.Linear(2, 1)\n'
        'nn.init.ones_(m2.weight); nn.init.zeros_(m2.bias)\n'
        'h = m2.register_forward_pre_hook(lambda mod, a, k: ((a[0] * 2,), k), with_kwargs=True)\n'
        'print(m2(torch.ones(1, 2)))\n'
        'h.remove()\n'
        'm2.register_forward_pre_hook(lambda mod, a, k: 5, with_kwargs=True)\n'
        'tries(lambda: m2(torch.ones(1, 2)))'),
    # state_dict() carries _metadata (each module's version; BatchNorm's is 2); loading a state_dict without it and
    # without num_batches_tracked keeps the module's own, with it (version 2) the key is missing
    "state_dict_metadata_and_num_batches_tracked": (
        TRIES +
        'import torch.nn as nn\n'
        'm = nn.Sequential(nn.Linear(1, 1), nn.BatchNorm1d(2))\n'
        'sd = m.state_dict(prefix="net.")\n'
        'print(sd._metadata)\n'
        'sd = m.state_dict()\n'
        'del sd["1.num_batches_tracked"]\n'
        'tries(lambda: m.load_state_dict(sd))\n'
        'sd2 = dict(sd)\n'
        'm[1].num_batches_tracked.fill_(3)\n'
        'print(m.load_state_dict(sd2), m[1].num_batches_tracked, list(sd2))\n'
        'b = nn.BatchNorm1d(2)\n'
        'print(b.load_state_dict({"weight": torch.ones(2), "bias": torch.ones(2), "running_mean": torch.ones(2),\n'
        '                         "running_var": torch.ones(2)}), b.num_batches_tracked)'),
    # load_state_dict(assign=True) makes the checkpoint's tensors the module's (no copy), parameters as Parameters
    "load_state_dict_assign": (
        'import torch.nn as nn\n'
        'm = nn.Sequential(nn.Linear(2, 1), nn.BatchNorm1d(1))\n'
        'sd = {"0.weight": torch.tensor([[1., 2.]], dtype=torch.float64), "0.bias": torch.tensor([3.]),\n'
        '      "1.weight": nn.Parameter(torch.ones(1)), "1.bias": torch.zeros(1), "1.running_mean": torch.ones(1),\n'
        '      "1.running_var": torch.ones(1), "1.num_batches_tracked": torch.tensor(7)}\n'
        'm[0].bias.requires_grad_(False)\n'
        'print(m.load_state_dict(sd, assign=True))\n'
        'sd["0.weight"][0, 0] = 9\n'
        'print(m[0].weight, m[0].bias, m[1].weight is sd["1.weight"], m[1].running_mean is sd["1.running_mean"])\n'
        'print(type(m[0].bias).__name__, m[1].num_batches_tracked, [n for n, _ in m.named_parameters()])'),
    # a model whose __init__ forgets super().__init__() (and so assigns nothing) fails when called, saved or loaded,
    # with PyTorch's AttributeError naming the attribute of Module's its method reads first
    "forgotten_super_init_fails_on_use": (
        TRIES +
        'import torch.nn as nn\n'
        'class Net(nn.Module):\n'
        '    def __init__(self):\n'
        '        pass\n'
        '    def forward(self, x):\n'
        '        return x * 2\n'
        'net = Net()\n'
        'tries(lambda: net(torch.ones(2)), lambda: net.state_dict(), lambda: net.load_state_dict({}),\n'
        '      lambda: net.double(), lambda: net.cpu(), lambda: net.add_module("fc", nn.Linear(1, 1)),\n'
        '      lambda: net.register_full_backward_hook(print), lambda: net.forward(torch.ones(2)))'),
    # BCELoss on integer or bool probabilities has no kernel: PyTorch's NotImplementedError, not a number
    "bce_loss_integer_input_not_implemented": (
        TRIES +
        'import torch.nn as nn\n'
        'tries(lambda: nn.BCELoss()(torch.tensor([1, 0]), torch.tensor([1, 0])),\n'
        '      lambda: nn.BCELoss()(torch.tensor([True]), torch.tensor([True])),\n'
        '      lambda: nn.BCELoss(reduction="sum")(torch.tensor([1], dtype=torch.int32), torch.tensor([1], dtype=torch.int32)),\n'
        '      lambda: nn.BCELoss()(torch.tensor([1]), torch.tensor([1.])),\n'
        '      lambda: nn.BCELoss()(torch.tensor([0.25]), torch.tensor([1.])))'),
    # a 4-d input to a recurrent layer: PyTorch's texts (GRU's has no "tensor"; a subclass is still called RNN or GRU)
    "rnn_gru_wrong_input_dims": (
        TRIES +
        'import torch.nn as nn\n'
        'class MyGRU(nn.GRU):\n'
        '    pass\n'
        'tries(lambda: nn.GRU(3, 4)(torch.ones(1, 1, 1, 3)), lambda: nn.RNN(3, 4)(torch.ones(1, 1, 1, 3)),\n'
        '      lambda: MyGRU(3, 4)(torch.ones(3)), lambda: nn.LSTM(3, 4)(torch.ones(1, 1, 1, 3)))'),
    # a full backward (pre-)hook returning a gradient of the wrong size or dtype: PyTorch's error names its internal
    # node hook 'hook'
    "full_backward_hook_bad_gradient_names_hook": (
        'import torch.nn as nn\n'
        'for reg, ret in [("register_full_backward_hook", "lambda m, gi, go: gi[0]"),\n'
        '                 ("register_full_backward_hook", "lambda m, gi, go: (gi[0].double(),)"),\n'
        '                 ("register_full_backward_pre_hook", "lambda m, go: (torch.ones(2, 2),)")]:\n'
        '    l = nn.Linear(2, 1)\n'
        '    getattr(l, reg)(eval(ret))\n'
        '    x = torch.tensor([[1., 2.]], requires_grad=True)\n'
        '    try:\n'
        '        l(x).sum().backward()\n'
        '    except RuntimeError as e:\n'
        '        print(reg, e)'),
    # forward hooks registered with always_call=True run even when forward (or an earlier hook) raised, with output
    # None; an error of theirs then is only a warning
    "forward_hook_always_call": (
        TRIES +
        'import torch.nn as nn\n'
        'class Boom(nn.Module):\n'
        '    def forward(self, x):\n'
        '        if x.sum() > 0:\n'
        '            raise ValueError("boom")\n'
        '        return x\n'
        'm = Boom()\n'
        'm.register_forward_hook(lambda mod, a, o: print("plain", o))\n'
        'm.register_forward_hook(lambda mod, a, o: print("always", a, o), always_call=True)\n'
        'm.register_forward_hook(lambda mod, a, k, o: print("always kw", k, o), always_call=True, with_kwargs=True)\n'
        'def bad(mod, a, o):\n'
        '    raise KeyError("inner")\n'
        'm.register_forward_hook(bad, always_call=True)\n'
        'tries(lambda: m(torch.ones(1)))\n'
        'm2 = nn.Identity()\n'
        'm2.register_forward_hook(lambda mod, a, o: print("A", o), always_call=True)\n'
        'def raiser(mod, a, o):\n'
        '    raise RuntimeError("hook failed")\n'
        'm2.register_forward_hook(raiser)\n'
        'm2.register_forward_hook(lambda mod, a, o: print("C", o), always_call=True)\n'
        'tries(lambda: m2(torch.ones(1)))'),
    # a ModuleList prints its None entries as `None` (folded into runs like any other child)
    "module_list_repr_shows_none": (
        'import torch.nn as nn\n'
        'print(nn.ModuleList([None]), nn.ModuleList([None, None, nn.ReLU(), None]))\n'
        'class M(nn.Module):\n'
        '    def __init__(self):\n'
        '        super().__init__()\n'
        '        self.blocks = nn.ModuleList([nn.Linear(2, 2), nn.Linear(2, 2), None])\n'
        'print(M())'),
}


@pytest.mark.parametrize("name", sorted(SNIPPETS))
def test_snippet(name):
    t, e = run_both(T, E, SNIPPETS[name])
    assert same(t, e), f"\n--- torch ---\n{t.summary()}\n--- engine ---\n{e.summary()}"
