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
}


@pytest.mark.parametrize("name", SNIPPETS)
def test_snippet(name):
    code = SHOW + SNIPPETS[name]
    t, e = run_both(T, E, code)
    assert same(t, e), f"\n{code}\n--- torch\n{t.summary()}--- engine\n{e.summary()}"
