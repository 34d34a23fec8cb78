"""Autograd mechanics against real PyTorch: autograd.grad / autograd.backward with several roots (one below
another, with `inputs`), the count of gradients against tensors, the order of their argument checks, the deprecated
`grad_variables` and `only_inputs`, dict `inputs` to backward, higher derivatives and hooks. Printed text, warnings
and the final error must be the same."""
import pytest

T = pytest.importorskip("torch", reason="differential tests need real PyTorch (pip install torch==2.13.0)")
from .harness import load_engine, run_both, same  # noqa: E402

E = load_engine()

SNIPPETS = {
    "grad_with_one_root_below_another": (
        'x = torch.tensor([1., 2.], requires_grad=True)\n'
        'y = x * 2\n'
        'print(torch.autograd.grad([y, y.sum()], x, grad_outputs=[torch.ones(2), None], retain_graph=True))\n'
        'print(torch.autograd.grad([y.sum(), y], x, grad_outputs=[None, torch.ones(2)], retain_graph=True))\n'
        'w = torch.tensor([3., 4.], requires_grad=True); z = y * w\n'
        'torch.autograd.backward([z, z.sum(), y.sum()], [torch.ones(2), None, None], inputs=[x]); print(x.grad, w.grad)'),
    "gradient_count_and_check_order": (
        'x = torch.tensor([1., 2.], requires_grad=True)\n'
        'y = x * 2\n'
        'for f in [lambda: torch.autograd.backward([y.sum(), y.sum()], [None]),\n'
        '          lambda: torch.autograd.grad([y.sum(), y.sum()], x, [None]),\n'
        '          lambda: torch.autograd.grad([y], [x], [torch.ones(2), torch.ones(2)]),\n'
        '          lambda: torch.autograd.grad(y, []), lambda: torch.autograd.backward(y, inputs=[]),\n'
        "          lambda: torch.autograd.backward((x * 2).sum(), inputs={'a': x}), lambda: x.grad]:\n"
        '    try:\n'
        '        print(f())\n'
        '    except Exception as e:\n'
        '        print(type(e).__name__, e)'),
    "deprecated_grad_variables_and_only_inputs": (
        'x = torch.tensor([1., 2.], requires_grad=True)\n'
        'y = x * 2\n'
        'torch.autograd.backward(y, grad_variables=torch.ones(2), retain_graph=True); print(x.grad)\n'
        'print(torch.autograd.grad(y.sum(), x, only_inputs=False))\n'
        'torch.autograd.backward(y, grad_tensors=torch.ones(2), grad_variables=torch.ones(2))'),
    "higher_derivatives_and_their_grad_fns": (
        'x = torch.tensor(0.5, requires_grad=True)\n'
        'for f in [lambda t: t ** 3, torch.sin, torch.exp, torch.tanh, torch.sigmoid, torch.log, lambda t: t * t.exp()]:\n'
        '    g1, = torch.autograd.grad(f(x), x, create_graph=True)\n'
        '    g2, = torch.autograd.grad(g1, x, create_graph=True)\n'
        '    g3, = torch.autograd.grad(g2, x, create_graph=True)\n'
        '    print(g1, g2, g3)\n'
        'w = torch.tensor([1.5, 2.], requires_grad=True)\n'
        'gx, gw = torch.autograd.grad((x * w * x).sum(), [x, w], create_graph=True)\n'
        'print(gx, gw, gx.grad_fn.next_functions, torch.autograd.grad(gx, [x, w], materialize_grads=True))'),
    "hooks_retain_grad_and_in_place": (
        'x = torch.tensor([1., 2., 3.], requires_grad=True)\n'
        'y = x * 2\n'
        'y.register_hook(lambda g: print("h1", g)); y.register_hook(lambda g: g * 10)\n'
        'y.retain_grad(); x.register_hook(lambda g: print("xh", g))\n'
        'v = y[1:]; v.retain_grad(); v.register_hook(lambda g: print("v", g))\n'
        'v.mul_(3); print(y.grad_fn, v.grad_fn)\n'
        '(y * y).sum().backward(); print(y.grad, v.grad, x.grad)\n'
        'with torch.no_grad():\n'
        '    x.add_(1); x[0] = 5.\n'
        'print(x, x._version, x.is_leaf); x.grad.data.zero_(); print(x.grad); x.grad = None; print(x.grad)'),
}


@pytest.mark.parametrize("name", SNIPPETS)
def test_snippet(name):
    code = SNIPPETS[name]
    t, e = run_both(T, E, code)
    assert same(t, e), f"\n{code}\n--- torch\n{t.summary()}--- engine\n{e.summary()}"
