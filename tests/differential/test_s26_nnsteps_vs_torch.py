"""Small training loops as tutorials write them, against real PyTorch: deterministic weights (nn.init or copy_ under
no_grad, or manual_seed where the engine draws PyTorch's numbers), a few optimizer steps printing parameters and
optimizer.state_dict() (which shares each parameter's state dict), losses with their options and warnings (in
PyTorch's order), weighted F.mse_loss / l1_loss / huber_loss, add_param_group keeping the caller's dict, the
optimizer's step and state_dict hooks (its own and the global ones, on a custom optimizer too), what a deepcopy of an
optimizer keeps, capturable=True and tensor betas on the CPU, convolutions with padding modes other than zeros.
Printed text, warnings and the final error must be the same.

(Not here: a Linear before a BatchNorm trained with Adam. The Linear's bias gets a gradient of rounding noise, which
Adam turns into full steps, so the loss soon depends on last bits of float32 square roots that MKL takes differently
on AMD CPUs.)"""
import pytest

T = pytest.importorskip("torch", reason="differential tests need real PyTorch (pip install torch==2.13.0)")
from .harness import TRIES, load_engine, run_both, same  # noqa: E402

E = load_engine()

SNIPPETS = {
    # a seeded MLP, SGD with nesterov momentum and weight decay for three steps: losses, parameters, the state
    "seeded_mlp_sgd_nesterov_three_steps": (
        'torch.manual_seed(0)\n'
        'm = torch.nn.Sequential(torch.nn.Linear(3, 4), torch.nn.ReLU(), torch.nn.Linear(4, 1))\n'
        'opt = torch.optim.SGD(m.parameters(), lr=0.1, momentum=0.9, nesterov=True, weight_decay=1e-2)\n'
        'x = torch.randn(5, 3); y = torch.randn(5, 1)\n'
        'for i in range(3):\n'
        '    opt.zero_grad()\n'
        '    loss = torch.nn.MSELoss()(m(x), y)\n'
        '    loss.backward()\n'
        '    opt.step()\n'
        '    print(i, loss.item(), loss)\n'
        'print(list(m.parameters()))\n'
        'print(opt.state_dict())\n'
        'print(opt)'),
    # cross entropy with class indices and with probabilities, label smoothing, class weights, ignore_index
    "cross_entropy_options_and_grads": (
        'import torch.nn as nn\n'
        'x = torch.tensor([[1., 2., 0.5], [0.1, -1., 2.], [0.3, 0.3, 0.3]], requires_grad=True)\n'
        't = torch.tensor([0, 2, 1])\n'
        'p = torch.tensor([[0.2, 0.5, 0.3], [0., 0., 1.], [1/3, 1/3, 1/3]])\n'
        'w = torch.tensor([1., 2., 0.5])\n'
        'for kw in [{}, dict(label_smoothing=0.1), dict(weight=w, label_smoothing=0.2), dict(ignore_index=2),\n'
        '           dict(ignore_index=1, weight=w, label_smoothing=0.3), dict(reduction="none", label_smoothing=0.1)]:\n'
        '    l = nn.CrossEntropyLoss(**kw)(x, t); print(l)\n'
        '    x.grad = None; l.sum().backward(); print(x.grad)\n'
        'for kw in [{}, dict(label_smoothing=0.1), dict(weight=w, label_smoothing=0.2, reduction="sum")]:\n'
        '    l = nn.CrossEntropyLoss(**kw)(x, p); print(l)\n'
        '    x.grad = None; l.sum().backward(); print(x.grad)'),
    # F.mse_loss / l1_loss / huber_loss take a weight: PyTorch composes them of ordinary ops (the mean of mse and l1
    # divides by the weights' sum, huber's by the count), with errors of their own. (Under a default device, as an
    # earlier test's set_default_device leaves, PyTorch's l1_loss drops its weight: that mode is cleared first.)
    "weighted_regression_losses": (
        'torch.set_default_device(None)\n'
        'import torch.nn.functional as F\n'
        'a = torch.tensor([0.5, 2., -1., 3.5], requires_grad=True); b = torch.tensor([0., 0., 0., 1.])\n'
        'w = torch.tensor([1., 2., 0., 0.5])\n'
        'for f in [F.mse_loss, F.l1_loss, F.huber_loss]:\n'
        '    for r in ["mean", "sum", "none"]:\n'
        '        l = f(a, b, reduction=r, weight=w); print(f.__name__, r, l)\n'
        '        a.grad = None; l.sum().backward(); print(a.grad)\n'
        'tries(lambda: F.mse_loss(a, b, weight=torch.ones(2)), lambda: F.l1_loss(a, b, weight=w, reduction="avg"),\n'
        '      lambda: F.huber_loss(a, b, weight=w, reduction="x"), lambda: F.huber_loss(a, b, delta=0.5, weight=w[:, None]),\n'
        '      lambda: F.mse_loss(a, b, reduction="bad"), lambda: F.mse_loss(a, b, weight=w, size_average=False))'),
    # a target size unlike the input's: that warning comes first, then the legacy flags' one, then the kernel's
    # check of beta / delta
    "loss_warnings_in_pytorchs_order": (
        'import torch.nn as nn, torch.nn.functional as F\n'
        'a = torch.ones(3, 1); b = torch.zeros(3)\n'
        'tries(lambda: F.mse_loss(a, b, size_average=True), lambda: F.l1_loss(a, b, size_average=False),\n'
        '      lambda: F.smooth_l1_loss(a, b, reduce=True, size_average=False), lambda: F.smooth_l1_loss(a, b, beta=-1.),\n'
        '      lambda: F.huber_loss(a, b, delta=0.), lambda: F.smooth_l1_loss(a, b, beta=0., reduce=False),\n'
        '      lambda: F.smooth_l1_loss(a, b, beta=-1., size_average=True), lambda: nn.HuberLoss(delta=-1.)(a, b))'),
    # the deprecated flags, KLDivLoss's 'mean', BCE's size error: which loss warns what
    "loss_reduction_warnings": (
        'import torch.nn as nn, torch.nn.functional as F\n'
        'a = torch.ones(4, 1, requires_grad=True); b = torch.zeros(4)\n'
        'for L in [nn.MSELoss(), nn.L1Loss(), nn.SmoothL1Loss(), nn.HuberLoss()]:\n'
        '    print(L(a, b))\n'
        'tries(lambda: nn.BCELoss()(torch.full((4, 1), 0.5), b), lambda: nn.BCEWithLogitsLoss()(a, b),\n'
        '      lambda: nn.MSELoss(size_average=False)(a, a), lambda: nn.CrossEntropyLoss(reduce=False)(torch.ones(2, 3), torch.tensor([0, 1])),\n'
        '      lambda: F.kl_div(torch.zeros(2), torch.ones(2), reduction="mean"), lambda: nn.L1Loss(reduction="batchmean")(a, a))'),
    # add_param_group: the caller's dict becomes the group ('params' a list, the defaults added), a list is refused,
    # and a differentiable optimizer takes non-leaf tensors
    "add_param_group_keeps_the_callers_dict": (
        'm = torch.nn.Linear(2, 1)\n'
        'g1 = {"params": m.weight}; g2 = {"params": (p for p in [m.bias]), "lr": 0.5}\n'
        'opt = torch.optim.SGD([g1, g2], lr=0.1, momentum=0.5)\n'
        'print(g1, g2, opt.param_groups[0] is g1)\n'
        'g3 = {"params": torch.nn.Parameter(torch.ones(1)), "weight_decay": 0.1}; opt.add_param_group(g3); print(g3)\n'
        'tries(lambda: opt.add_param_group({"params": m.weight}), lambda: opt.add_param_group([m.weight]),\n'
        '      lambda: opt.add_param_group({"params": [torch.ones(1)]}))\n'
        'x = torch.ones(2, 2, requires_grad=True) * 2\n'
        'print(torch.optim.SGD([x], lr=0.1, differentiable=True))\n'
        'tries(lambda: torch.optim.SGD([x], lr=0.1))'),
    # the optimizer's hooks: step pre-hooks (which may replace the step's arguments) and post-hooks, state_dict and
    # load_state_dict hooks (prepend=True runs first; a post-hook's dict replaces the result)
    "optimizer_step_and_state_dict_hooks": (
        'w = torch.nn.Parameter(torch.tensor([1.0]))\n'
        'o = torch.optim.SGD([w], lr=0.1)\n'
        'h1 = o.register_step_pre_hook(lambda opt, args, kwargs: print("pre", len(args), args[0] is opt, kwargs))\n'
        'h2 = o.register_step_post_hook(lambda opt, args, kwargs: print("post"))\n'
        'w.grad = torch.tensor([1.]); o.step(); h1.remove(); o.step(); print(w)\n'
        'o.register_state_dict_pre_hook(lambda opt: print("sd pre"))\n'
        'o.register_state_dict_post_hook(lambda opt, sd: dict(sd, extra=1))\n'
        'o.register_state_dict_pre_hook(lambda opt: print("sd pre first"), prepend=True)\n'
        'sd = o.state_dict(); print(sd)\n'
        'o.register_load_state_dict_pre_hook(lambda opt, sd: print("load pre", sorted(sd)))\n'
        'o.register_load_state_dict_post_hook(lambda opt: print("load post", opt.param_groups[0]["lr"]))\n'
        'sd["param_groups"][0]["lr"] = 0.5; o.load_state_dict(sd); print(sorted(sd))\n'
        'o.register_step_pre_hook(lambda opt, args, kwargs: (args, {"closure": lambda: torch.tensor(7.)}))\n'
        'print(o.step())\n'
        'o.register_step_pre_hook(lambda opt, args, kwargs: 3)\n'
        'tries(lambda: o.step())\n'
        'print(type(h1))'),
    # torch.optim.optimizer's global step hooks run for every optimizer, around its own; a custom optimizer's step
    # gets them too
    "global_optimizer_hooks_and_a_custom_optimizer": (
        'from torch.optim.optimizer import register_optimizer_step_pre_hook, register_optimizer_step_post_hook\n'
        'w = torch.nn.Parameter(torch.tensor([1.0])); w.grad = torch.tensor([2.])\n'
        'o = torch.optim.Adam([w], lr=0.1)\n'
        'o.register_step_post_hook(lambda opt, a, k: print("own post"))\n'
        'h = register_optimizer_step_pre_hook(lambda opt, a, k: print("global pre", type(opt).__name__))\n'
        'h2 = register_optimizer_step_post_hook(lambda opt, a, k: print("global post"))\n'
        'try:\n'
        '    o.step(); torch.optim.SGD([w], lr=0.1).step()\n'
        'finally:\n'
        '    h.remove(); h2.remove()\n'
        'o.step(); print(w)\n'
        'class MyOpt(torch.optim.Optimizer):\n'
        '    def __init__(self, params): super().__init__(params, dict(lr=0.5))\n'
        '    def step(self, closure=None):\n'
        '        for g in self.param_groups:\n'
        '            for p in g["params"]: p.data.add_(p.grad, alpha=-g["lr"])\n'
        '        return "done"\n'
        'm = MyOpt([w]); m.register_step_post_hook(lambda *a: print("custom post"))\n'
        'print(m.step(), w, m.step.__name__, m)'),
    # a deepcopy (or pickle) of an optimizer keeps its defaults, state and groups, not its hooks
    "deepcopy_of_an_optimizer_drops_its_hooks": (
        'import copy, io\n'
        'w = torch.nn.Parameter(torch.tensor([1., 2.]))\n'
        'o = torch.optim.SGD([w], lr=0.1, momentum=0.9)\n'
        'w.grad = torch.ones(2); o.step()\n'
        'o.register_step_post_hook(lambda *a: print("hook"))\n'
        'o2 = copy.deepcopy(o); print(o2.state_dict(), len(o2._optimizer_step_post_hooks)); o2.step()\n'
        'print(sorted(o.__getstate__()))\n'
        'buf = io.BytesIO(); torch.save(o, buf); buf.seek(0)\n'
        'o3 = torch.load(buf, weights_only=False); print(type(o3).__name__, o3.state_dict()["state"])\n'
        'l2 = copy.deepcopy(torch.optim.LBFGS([w]))\n'
        'tries(lambda: l2.step(lambda: w.sum()))'),
    # optimizer.state_dict()'s state holds each parameter's own state dict (a key added shows in the optimizer),
    # and a state key that is no tensor is kept as it is
    "state_dict_shares_the_state_dicts": (
        'w = torch.nn.Parameter(torch.tensor([1., 2.])); w.grad = torch.ones(2)\n'
        'o = torch.optim.SGD([w], lr=0.1, momentum=0.9); o.step()\n'
        'sd = o.state_dict(); print(sd["state"][0] is o.state[w], sd["param_groups"][0] is o.param_groups[0])\n'
        'sd["state"][0]["note"] = 1; print(o.state[w])\n'
        'o.state["extra"] = {"x": 1}\n'
        'print(o.state_dict()["state"])'),
    # capturable=True on the CPU (code copied from GPU training): PyTorch's step asserts the parameters are on an
    # accelerator (a message of each optimizer's own), and only when some parameter has a gradient
    "capturable_optimizers_on_the_cpu": (
        'for n in ["Adam", "AdamW", "RMSprop", "Adamax", "NAdam", "RAdam", "ASGD", "Adadelta", "Rprop"]:\n'
        '    w = torch.nn.Parameter(torch.tensor([1.0, -2.0]))\n'
        '    o = getattr(torch.optim, n)([w], lr=0.1, capturable=True)\n'
        '    o.step(); print(n, "no grad: fine")\n'
        '    w.grad = torch.ones(2)\n'
        '    tries(lambda: o.step())\n'
        '    print(w)'),
    # Adam's betas as tensors: the update does their arithmetic as float32 tensors (with a tensor lr, amsgrad, a
    # 1-element beta, AdamW's decay)
    "adam_with_tensor_betas": (
        'torch.set_printoptions(precision=8)\n'
        'for kw in [dict(), dict(amsgrad=True), dict(lr=torch.tensor(0.01)), dict(weight_decay=0.1),\n'
        '           dict(betas=(torch.tensor([0.8]), torch.tensor(0.9)))]:\n'
        '    for cls in [torch.optim.Adam, torch.optim.AdamW]:\n'
        '        w = torch.nn.Parameter(torch.tensor([1.0, -2.0, 0.3, 5.0]))\n'
        '        o = cls([w], **dict(dict(betas=(torch.tensor(0.9), torch.tensor(0.99))), **kw))\n'
        '        for i in range(4):\n'
        '            w.grad = torch.tensor([0.5, -1.0, 0.01, 3.0]) * (i + 1); o.step()\n'
        '        print(cls.__name__, w, o.state_dict()["state"])\n'
        'torch.set_printoptions(profile="default")'),
    # Conv1d / Conv2d with padding_mode reflect, circular, replicate: F.pad in that mode, then a convolution with
    # no padding ('same' split as PyTorch splits it); values, gradients, graph and the pad's errors
    "conv_padding_modes": (
        'torch.manual_seed(0)\n'
        'x = torch.randn(2, 2, 7, requires_grad=True)\n'
        'for kw in [dict(padding=2, padding_mode="reflect"), dict(padding=1, padding_mode="circular"),\n'
        '           dict(padding="same", padding_mode="replicate", dilation=2), dict(padding="valid", padding_mode="reflect")]:\n'
        '    c = torch.nn.Conv1d(2, 3, 4 if kw["padding"] == "same" else 3, **kw)\n'
        '    y = c(x); x.grad = None; (y * y).sum().backward()\n'
        '    print(y.shape, y.sum(), x.grad.sum(), c.weight.grad.sum(), y.grad_fn.next_functions[0][0], c)\n'
        'x2 = torch.randn(1, 2, 5, 6, requires_grad=True)\n'
        'c = torch.nn.Conv2d(2, 3, (3, 4), padding="same", padding_mode="circular", dilation=(1, 2))\n'
        'y = c(x2); y.sum().backward(); print(y.shape, y.sum(), x2.grad.sum(), c.weight.grad.sum())\n'
        'tries(lambda: torch.nn.Conv1d(1, 1, 3, padding=5, padding_mode="reflect")(torch.ones(1, 1, 4)),\n'
        '      lambda: torch.nn.Conv2d(1, 1, 3, padding=1, padding_mode="circular")(torch.ones(1, 3, 3)),\n'
        '      lambda: torch.nn.Conv2d(1, 1, 3, padding=(1, 2), stride=2, padding_mode="replicate")(torch.ones(1, 1, 4, 4)).shape)'),
    # scheduler.step() before optimizer.step(): the warning once; StepLR's lrs and state
    "scheduler_before_optimizer_warns": (
        'w = torch.nn.Parameter(torch.ones(2))\n'
        'opt = torch.optim.SGD([w], lr=0.1)\n'
        's = torch.optim.lr_scheduler.StepLR(opt, step_size=2, gamma=0.5)\n'
        'for e in range(5):\n'
        '    s.step()\n'
        '    opt.zero_grad(); w.sum().backward(); opt.step()\n'
        '    print(e, s.get_last_lr(), opt.param_groups[0]["lr"])\n'
        'print(s.state_dict())'),
    # ReduceLROnPlateau: patience, threshold, cooldown and min_lr over a list of validation losses
    "reduce_lr_on_plateau_counters": (
        'w = torch.nn.Parameter(torch.ones(1))\n'
        'o = torch.optim.SGD([w], lr=1.0)\n'
        's = torch.optim.lr_scheduler.ReduceLROnPlateau(o, mode="min", factor=0.5, patience=1, threshold=0.1,\n'
        '                                               cooldown=1, min_lr=0.1)\n'
        'for i, v in enumerate([1.0, 0.95, 0.96, 0.97, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5]):\n'
        '    o.step(); s.step(v)\n'
        '    print(i, o.param_groups[0]["lr"], s.num_bad_epochs, s.cooldown_counter, s.best, s.get_last_lr())\n'
        'print(s.state_dict())'),
    # clip_grad_norm_ / clip_grad_value_: the norms returned (2, inf, 1), the grads after, nan with and without
    # error_if_nonfinite
    "gradient_clipping_returns": (
        'm = torch.nn.Linear(3, 2)\n'
        'with torch.no_grad():\n'
        '    m.weight.copy_(torch.tensor([[1., 2., 3.], [-1., 0., 1.]])); m.bias.zero_()\n'
        'm(torch.tensor([[1., 2., 3.], [4., 5., 6.]])).pow(2).sum().backward()\n'
        'print(torch.nn.utils.clip_grad_norm_(m.parameters(), max_norm=1.0), m.weight.grad, m.bias.grad)\n'
        'print(torch.nn.utils.clip_grad_norm_(m.parameters(), 0.5, norm_type="inf"))\n'
        'print(torch.nn.utils.clip_grad_norm_(m.parameters(), 0.5, norm_type=1))\n'
        'print(torch.nn.utils.clip_grad_value_(m.parameters(), 0.1), m.weight.grad)\n'
        'm.weight.grad[0, 0] = float("nan")\n'
        'tries(lambda: torch.nn.utils.clip_grad_norm_(m.parameters(), 1.0, error_if_nonfinite=True),\n'
        '      lambda: torch.nn.utils.clip_grad_norm_(m.parameters(), 1.0))'),
    # BatchNorm1d in train and eval: the running statistics and the counter, momentum=None's cumulative average
    "batchnorm_running_stats": (
        'bn = torch.nn.BatchNorm1d(3)\n'
        'x = torch.tensor([[1., 2., 3.], [4., 5., 6.], [0., -1., 2.], [2., 2., 2.]])\n'
        'y = bn(x); print(y, bn.running_mean, bn.running_var, bn.num_batches_tracked)\n'
        'y.pow(2).sum().backward(); print(bn.weight.grad, bn.bias.grad)\n'
        'bn.eval(); print(bn(x), bn.training)\n'
        'bn2 = torch.nn.BatchNorm1d(3, momentum=None); bn2(x); bn2(x * 2); print(bn2.running_mean, bn2.running_var)\n'
        'bn.train(); tries(lambda: bn(x[:1]), lambda: bn(torch.ones(2, 4)))\n'
        'print(bn.state_dict())'),
}


@pytest.mark.parametrize("name", SNIPPETS)
def test_snippet(name):
    code = TRIES + SNIPPETS[name]
    t, e = run_both(T, E, code)
    assert same(t, e), f"\n{code}\n--- torch\n{t.summary()}--- engine\n{e.summary()}"
