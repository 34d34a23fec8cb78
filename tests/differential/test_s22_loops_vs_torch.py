"""Gradients across training steps as learners write their first loops (accumulating and resetting .grad, manual
and torch.optim updates, losses printed per epoch), against real PyTorch. Printed text, warnings and the final error
must be the same."""
import pytest

T = pytest.importorskip("torch", reason="differential tests need real PyTorch (pip install torch==2.13.0)")
from .harness import TRIES, load_engine, run_both, same  # noqa: E402

E = load_engine()

SNIPPETS = {
    # a tensor learning rate (0-d or 1-element, any float dtype) in every optimizer: PyTorch computes the step
    # sizes from it in tensor arithmetic and reads them as numbers
    "tensor_lr_in_every_optimizer": (
        'for name in ["SGD", "Adam", "AdamW", "RMSprop", "Adagrad", "Adadelta", "Adamax", "NAdam", "RAdam",\n'
        '             "ASGD", "Rprop"]:\n'
        '    for lr in [torch.tensor(0.03), torch.tensor([0.03]), torch.tensor(0.03, dtype=torch.float64)]:\n'
        '        w = torch.tensor([1., -2.], requires_grad=True)\n'
        '        opt = getattr(torch.optim, name)([w], lr=lr, **({} if name == "Rprop" else {"weight_decay": 0.1}))\n'
        '        for i in range(2):\n'
        '            opt.zero_grad(); (w ** 2 * torch.tensor([1., 3.])).sum().backward(); opt.step()\n'
        '        print(name, w, opt.state_dict()["state"])'),
    # a float16 tanh's gradient as PyTorch's half kernel computes it: in float, rounded to half once
    "half_tanh_backward_in_float": (
        'w = torch.linspace(-3, 3, 25).half().requires_grad_()\n'
        'for step in range(2):\n'
        '    loss = (w.tanh() * torch.linspace(0.1, 2, 25).half()).sum()\n'
        '    loss.backward()\n'
        '    print(step, loss, w.grad)\n'
        '    w.grad = None'),
    # a float16 mse_loss's gradient: PyTorch's half kernel holds the mean's factor 2 / n as a half
    "half_mse_backward_factor_as_half": (
        'w = torch.linspace(-3, 3, 37).half().requires_grad_()\n'
        'y = torch.linspace(-1, 1, 37).half()\n'
        'for step in range(2):\n'
        '    loss = torch.nn.functional.mse_loss(w, y)\n'
        '    loss.backward()\n'
        '    print(step, loss, w.grad)\n'
        '    with torch.no_grad():\n'
        '        w -= 0.5 * w.grad\n'
        '    w.grad.zero_()'),
    # float16 softplus, elu, gelu and log_softmax gradients as PyTorch's half kernels compute them: in float,
    # rounded once
    "half_activation_backward_in_float": (
        'F = torch.nn.functional\n'
        'w = torch.linspace(-3, 3, 25).half().requires_grad_()\n'
        'for f in [F.softplus, F.elu, F.selu, F.gelu, lambda x: F.gelu(x, approximate="tanh"),\n'
        '          lambda x: F.log_softmax(x, 0), lambda x: F.cross_entropy(x.view(1, 25), torch.tensor([3]))]:\n'
        '    loss = (f(w) * torch.linspace(0.1, 1.5, 25).half()).sum()\n'
        '    loss.backward()\n'
        '    print(loss, w.grad)\n'
        '    w.grad.zero_()'),
    # fused=True (SGD, Adam, AdamW, Adagrad): PyTorch's fused kernels update the parameter and its state in place
    # without bumping their versions (the step count's still goes up)
    "fused_step_bumps_no_versions": (
        'for name, kw in [("SGD", {}), ("SGD", {"momentum": 0.9}), ("Adam", {"amsgrad": True}), ("AdamW", {}),\n'
        '                 ("Adagrad", {}), ("Adam", {"foreach": True})]:\n'
        '    w = torch.tensor([1., -2.], requires_grad=True)\n'
        '    opt = getattr(torch.optim, name)([w], lr=0.1, fused="foreach" not in kw, **kw)\n'
        '    for i in range(2):\n'
        '        opt.zero_grad(); (w ** 2).sum().backward(); opt.step()\n'
        '        print(name, i, w, w._version, {k: v._version for k, v in opt.state[w].items()})'),
    # Adam's argument checks: betas kept as a tuple when given as a list, both floats, one beta only an IndexError;
    # a tensor lr refused with foreach=True
    "adam_arguments_checked_betas_kept_as_tuple": (
        TRIES +
        'w = torch.tensor([1., -2.], requires_grad=True)\n'
        'opt = torch.optim.Adam([w], lr=0.1, betas=[0.8, 0.9])\n'
        '(w ** 2).sum().backward(); opt.step()\n'
        'print(w, opt.param_groups[0]["betas"], opt.state_dict()["param_groups"][0]["betas"])\n'
        'tries(lambda: torch.optim.Adam([w], betas=(0.9,)), lambda: torch.optim.AdamW([w], betas=(0, 0.9)),\n'
        '      lambda: torch.optim.NAdam([w], betas=(0.9,)), lambda: torch.optim.Adam([w], betas=(0.9, 1)),\n'
        '      lambda: torch.optim.Adam([w], lr=torch.tensor(0.1), foreach=True),\n'
        '      lambda: torch.optim.AdamW([w], lr=torch.tensor(0.1), foreach=True, capturable=True).defaults["lr"])'),
    # Adagrad makes the state of a parameter added by add_param_group at its first step (sum filled with the
    # optimizer's default initial_accumulator_value, not the group's)
    "adagrad_state_of_added_param_group": (
        'w = torch.tensor([1., 2.], requires_grad=True)\n'
        'b = torch.tensor([0.5], requires_grad=True)\n'
        'opt = torch.optim.Adagrad([w], lr=0.1, initial_accumulator_value=0.5)\n'
        'opt.add_param_group({"params": [b], "lr": 0.2, "initial_accumulator_value": 2.0})\n'
        'print(opt.state_dict())\n'
        'for i in range(2):\n'
        '    opt.zero_grad(); (w.sum() + 3 * b.sum()).backward(); opt.step()\n'
        '    print(i, w, b, opt.state_dict()["state"])'),
}


@pytest.mark.parametrize("name", SNIPPETS)
def test_snippet(name):
    code = SNIPPETS[name]
    t, e = run_both(T, E, code)
    assert same(t, e), f"\n{code}\n--- torch\n{t.summary()}--- engine\n{e.summary()}"
