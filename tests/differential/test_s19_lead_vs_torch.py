"""The version counter of a first .grad against real PyTorch. AccumulateGrad takes a gradient that nothing else
holds and that is laid out as the leaf (its layout contract) as .grad itself (its version: 0, or more if a hook
changed it in place); otherwise it copies it into a new tensor with the leaf's strides (copy_: version 1), or
clones it for a leaf that is not dense (version 0). Two gradients reaching one input are added in place into the
first when nothing else holds it (InputBuffer::accumulate: version + 1). And the version error of a saved input
names it output 0 of its node, whichever output it is (PyTorch keeps the number of saved outputs only). Printed
text must be the same."""
import pytest

T = pytest.importorskip("torch", reason="differential tests need real PyTorch (pip install torch==2.13.0)")
from .harness import load_engine, run_both, same  # noqa: E402

E = load_engine()

SNIPPETS = {
    "taken_or_copied": (
        'x = torch.ones(2, 3, requires_grad=True)\n'
        'x.sum().backward(); print(x.grad._version)\n'          # an expanded gradient: copied
        'x.sum().backward(); print(x.grad._version)\n'
        'x = torch.ones(2, 3, requires_grad=True)\n'
        '(x * 2).sum().backward(); print(x.grad._version)\n'    # a fresh one: taken
        'x = torch.ones(4, 4)[:, ::2].requires_grad_()\n'
        'x.sum().backward(); print(x.grad._version, x.grad.stride())\n'     # not dense: cloned
        'x = torch.ones(2, 3).t().requires_grad_()\n'
        '(x * 2).sum().backward(); print(x.grad._version, x.grad.stride())\n'   # laid out otherwise: copied
        'w = torch.ones(2, 3, requires_grad=True)\n'
        '(torch.ones(4, 3) @ w.t()).sum().backward(); print(w.grad._version, w.grad.stride())\n'
        'x = torch.ones(2, 2, requires_grad=True)\n'
        'x.mean().backward(); x.view(4).sum().backward(); print(x.grad._version)'),
    "root_gradients": (
        'x = torch.ones(2, 3, requires_grad=True)\n'
        '(x * 2).backward(torch.ones(2, 3)); print(x.grad._version)\n'
        'x = torch.tensor(2., requires_grad=True)\n'
        'x.backward(); print(x.grad._version)\n'
        'y = torch.tensor(2., requires_grad=True)\n'
        '(y * 3).backward(); print(y.grad._version)\n'
        'g = torch.ones(2, 3); z = torch.ones(2, 3, requires_grad=True)\n'
        'z.backward(g); print(z.grad._version, z.grad is g)'),
    "hooks": (
        'x = torch.ones(3, requires_grad=True)\n'
        'x.register_hook(lambda g: g * 2)\n'
        '(x * 2).sum().backward(); print(x.grad._version)\n'
        'x = torch.ones(3, requires_grad=True)\n'
        'x.register_hook(lambda g: print("hook"))\n'
        '(x * 2).sum().backward(); print(x.grad._version)\n'
        'x = torch.ones(3, requires_grad=True)\n'
        'x.register_hook(lambda g: g.mul_(2))\n'
        '(x * 1).sum().backward(); print(x.grad._version, x.grad)\n'
        'x = torch.ones(3, requires_grad=True)\n'
        'keep = []\n'
        'y = x * x\n'
        'y.grad_fn.register_hook(lambda gi, go: keep.append(gi))\n'
        'y.sum().backward(); print(x.grad._version, [t._version for t in keep[0]], x.grad)'),
    "create_graph": (
        'x = torch.ones(3, requires_grad=True)\n'
        '(x * x).sum().backward(create_graph=True); print(x.grad._version, x.grad.grad_fn)\n'
        'y = torch.tensor(2., requires_grad=True)\n'
        '(y * 3).backward(create_graph=True); print(y.grad._version, y.grad.grad_fn)'),
    "two_gradients_added": (
        'x = torch.ones(3, requires_grad=True)\n'
        '(x * x).sum().backward(); print(x.grad._version, x.grad)\n'
        'x = torch.ones(3, requires_grad=True)\n'
        '(x + x).sum().backward(); print(x.grad._version, x.grad)\n'
        'x = torch.ones(3, requires_grad=True)\n'
        '(x.exp() + x.sin() + x * 2).sum().backward(); print(x.grad._version, x.grad)\n'
        'x = torch.ones(2, 3, requires_grad=True)\n'
        'y = x * 2; y.retain_grad(); (y * y).sum().backward(); print(x.grad._version, y.grad._version)\n'
        'x = torch.ones(4, requires_grad=True)\n'
        'torch.stack([x, x, x]).sum().backward(); print(x.grad._version, x.grad)'),
    "version_error_names_output_0_of_a_saved_input": (
        'x = torch.tensor([1., 2., 3.], requires_grad=True)\n'
        'v, m = torch.var_mean(x)\n'
        'y = m * x\n'
        'with torch.no_grad():\n'
        '    m.add_(1)\n'
        'try:\n'
        '    y.sum().backward()\n'
        'except RuntimeError as e:\n'
        '    print(e)\n'
        'mn, mx = torch.aminmax(x.detach().requires_grad_())\n'
        'z = mx.exp() * mx\n'
        'with torch.no_grad():\n'
        '    mx.mul_(2)\n'
        'try:\n'
        '    z.backward()\n'
        'except RuntimeError as e:\n'
        '    print(e)'),
}


@pytest.mark.parametrize("name", SNIPPETS)
def test_snippet(name):
    code = SNIPPETS[name]
    t, e = run_both(T, E, code)
    assert same(t, e), f"\n{code}\n--- torch\n{t.summary()}--- engine\n{e.summary()}"
