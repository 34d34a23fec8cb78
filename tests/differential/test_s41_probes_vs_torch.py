"""Differences found by session 41's learner-style probes against real PyTorch, each kept here with its variants.
Printed text, warnings and the final error must be the same."""
import pytest

T = pytest.importorskip("torch", reason="differential tests need real PyTorch (pip install torch==2.13.0)")
from .harness import SHOW, load_engine, run_both, same  # noqa: E402

E = load_engine()

SNIPPETS = {
    # torch.optim.Adafactor: PyTorch's single-tensor update (factored second moment of a matrix, a vector's kept
    # whole), its state, versions, repr and errors
    "adafactor_steps": (
        'w = torch.tensor([[0.5, -1.5, 2.0], [1.0, 0.25, -0.75]], requires_grad=True)\n'
        'b = torch.tensor([0.1, -0.2], requires_grad=True)\n'
        'opt = torch.optim.Adafactor([w, b], lr=0.1)\n'
        'x = torch.tensor([[1., 2., 3.], [-1., 0.5, 2.], [0.3, -0.7, 1.1]])\n'
        'for i in range(5):\n'
        '    opt.zero_grad()\n'
        '    loss = ((x @ w.t() + b) ** 2).mean()\n'
        '    loss.backward()\n'
        '    opt.step()\n'
        '    print(i, loss.item(), w._version, opt.state[w]["row_var"]._version, opt.state[b]["variance"]._version)\n'
        'print(w.tolist(), b.tolist())\n'
        'print(opt.state[w], opt.state[b])\n'
        'print(opt, type(opt), torch.optim._adafactor.Adafactor is torch.optim.Adafactor)'),
    "adafactor_options": (
        'w = torch.tensor([[[1.0, -2.0], [0.5, 3.0]], [[0.25, -1.0], [2.0, 1.5]]], requires_grad=True)\n'
        'v = torch.tensor([1.0, 2.0, -3.0], requires_grad=True, dtype=torch.float64)\n'
        'opt = torch.optim.Adafactor([w, v], lr=0.05, weight_decay=0.1, maximize=True, d=2.0, eps=(1e-20, 1e-2),\n'
        '                            beta2_decay=-0.5)\n'
        'for i in range(3):\n'
        '    opt.zero_grad()\n'
        '    ((w * w.flip(0)).sum() + (v ** 3).sum()).backward()\n'
        '    opt.step()\n'
        'print(w.tolist(), v.tolist(), w._version)\n'
        'print(opt.state[w], opt.state[v])\n'
        'opt2 = torch.optim.Adafactor([w, v]); opt2.load_state_dict(opt.state_dict()); print(opt2)'),
    "adafactor_errors": (
        'w = torch.tensor([1.0], requires_grad=True)\n'
        'for kw in [dict(lr=-1), dict(beta2_decay=0.5), dict(eps=(-1, 1e-3)), dict(eps=(None, -1.)), dict(d=0.5),\n'
        '           dict(weight_decay=-1), dict(lr=torch.tensor([1., 2.]))]:\n'
        '    tries(lambda: torch.optim.Adafactor([w], **kw))'),
    # clamp keeps the first operand where max or min ties zeros of either sign: clamp(-0.4, -0., 0.) is -0.
    "clamp_zero_bounds_keep_sign": (
        'for lo, hi in [(-0., 0.), (0., -0.), (-0., None), (None, 0.), (0., 0.), (-0., -0.), (-1., 0.), (-0., 1.)]:\n'
        '    x = torch.tensor([-0.4, -0., 0., 0.4, 2.])\n'
        '    print(lo, hi, x.clamp(lo, hi), x.clip(lo, hi), torch.tensor([-0.4]).clamp_(lo, hi))\n'
        'x = torch.tensor([-0.4, 0.3, -0.], requires_grad=True)\n'
        'y = x.clamp(-0., 0.); print(y); y.sum().backward(); print(x.grad)\n'
        'print(torch.tensor([-0.4, 0.3], dtype=torch.float64).clamp(-0., 0.), torch.tensor([-0.4]).half().clamp(-0., 0.))'),
    # gelu of -0. and of large negative numbers is -0. (oneDNN's (x * (1 + erf)) * 0.5)
    "gelu_negative_zero": (
        'F = torch.nn.functional\n'
        'print(F.gelu(torch.tensor([-0.0, 0.0])), F.gelu(torch.tensor([-20., -6., -0., 0., -1e-45, 20.])))\n'
        'print(F.gelu(torch.tensor([-0.])), F.gelu(torch.tensor(-0.)), F.gelu(torch.tensor([-0., -20.]), approximate="tanh"))\n'
        'x = torch.tensor([-0., -30., 2.], requires_grad=True)\n'
        'y = torch.nn.GELU()(x); print(y); y.sum().backward(); print(x.grad)'),
}


@pytest.mark.parametrize("name", SNIPPETS)
def test_snippet(name):
    code = SHOW + SNIPPETS[name]
    t, e = run_both(T, E, code)
    assert same(t, e), f"\n{code}\n--- torch\n{t.summary()}--- engine\n{e.summary()}"
