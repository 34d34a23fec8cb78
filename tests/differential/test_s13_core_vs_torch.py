"""The thirteenth session's autograd corners against real PyTorch: @no_grad without parentheses, grad mode inside
inference mode, in-place changes of a second output, an optimizer step or init between two backwards (the saved
weight.t() then reads as AsStrided), AccumulateGrad node hooks, autograd.grad capture order with hooks, grad-mode
decorators on generators, iteration as unbind, requires_grad on non-leaves, and item assignment with a basic index
before a tensor index (CopySlices). Printed text, warnings and the final error must be identical."""
import pytest

T = pytest.importorskip("torch", reason="differential tests need real PyTorch (pip install torch==2.13.0)")
from .harness import SHOW, load_engine, run_both, same  # noqa: E402

E = load_engine()

SNIPPETS = {
    "decorators_without_parentheses": (
        '@torch.no_grad\n'
        'def f(x): return x * 2\n'
        'print(f(torch.ones(2, requires_grad=True)).requires_grad)\n'
        '@torch.enable_grad\n'
        'def g(x): return x * 2\n'
        'with torch.no_grad():\n'
        '    print(g(torch.ones(2, requires_grad=True)).requires_grad)\n'
        '@torch.inference_mode\n'
        'def h(x): return x * 2\n'
        'print(h(torch.ones(2, requires_grad=True)))\n'
        'print(torch.no_grad, torch.no_grad())'),
    "inplace_on_second_output_std_mean": (
        'x = torch.tensor([1., 2., 4.], requires_grad=True)\n'
        's, m = torch.std_mean(x); m.mul_(2); m.backward(); print(x.grad)'),
    "inplace_on_first_output_var_mean": (
        'x = torch.tensor([1., 2., 4.], requires_grad=True)\n'
        's, m = torch.var_mean(x); s.mul_(2); s.backward(); print(x.grad, s.grad_fn, s._version)'),
    "optimizer_step_then_backward_again": (
        'lin = torch.nn.Linear(2, 1)\n'
        'opt = torch.optim.SGD(lin.parameters(), lr=0.1)\n'
        'out = lin(torch.ones(3, 2)).sum()\n'
        'out.backward(retain_graph=True)\n'
        'opt.step()\n'
        'out.backward()'),
    "init_zeros_then_backward": (
        'lin = torch.nn.Linear(2, 1)\n'
        'out = lin(torch.ones(3, 2)).sum()\n'
        'torch.nn.init.zeros_(lin.weight)\n'
        'out.backward()'),
    "enable_grad_inside_inference_mode": (
        'with torch.inference_mode():\n'
        '    x = torch.ones(2, requires_grad=True)\n'
        '    with torch.enable_grad():\n'
        '        y = x * 2\n'
        '        print(torch.is_grad_enabled(), y.requires_grad, y.is_inference(), y.grad_fn)\n'
        '    print(torch.is_grad_enabled())\n'
        'print(torch.is_grad_enabled())'),
    "set_grad_enabled_inside_inference_mode": (
        'with torch.inference_mode():\n'
        '    with torch.set_grad_enabled(True):\n'
        '        x = torch.ones(2, requires_grad=True)\n'
        '        print((x * 2).requires_grad, torch.is_grad_enabled())'),
    "accumulate_grad_node_hooks_order": (
        'x = torch.ones(2, requires_grad=True)\n'
        'y = x * 3\n'
        'acc = y.grad_fn.next_functions[0][0]\n'
        "acc.register_hook(lambda gi, go: print('post', gi, go))\n"
        "acc.register_prehook(lambda go: print('pre', go))\n"
        "x.register_hook(lambda g: print('tensor hook', g))\n"
        'y.sum().backward()\n'
        'y = x * 3\n'
        'y.sum().backward()\n'
        'print(x.grad)'),
    "accumulate_grad_prehook_every_backward": (
        'x = torch.ones(2, requires_grad=True)\n'
        'y = x * 3\n'
        'acc = y.grad_fn.next_functions[0][0]\n'
        'acc.register_prehook(lambda go: (go[0] * 0,))\n'
        'y.sum().backward(retain_graph=True)\n'
        'y.sum().backward()\n'
        'print(x.grad)'),
    "no_grad_on_a_generator": (
        '@torch.no_grad()\n'
        'def gen(x):\n'
        '    for i in range(2):\n'
        '        yield (x * i).requires_grad\n'
        'print(list(gen(torch.ones(2, requires_grad=True))))'),
    "inplace_on_a_view_given_requires_grad": (
        'a = torch.ones(3); v = a[:2]; v.requires_grad_(); v.add_(1)'),
    "requires_grad_set_on_a_non_leaf": (
        'y = torch.ones(2, requires_grad=True) * 2\n'
        'y.requires_grad = True\n'
        'print(y.requires_grad)\n'
        'y.requires_grad = False'),
    "grad_set_on_a_non_leaf_then_read": (
        'y = torch.ones(2, requires_grad=True) * 2\n'
        'y.grad = torch.ones(2)\n'
        'print(y.grad)'),
    "iterating_a_tensor_unbinds": (
        'x = torch.ones(2, 3, requires_grad=True)\n'
        'y = x * 2\n'
        'a, b = y\n'
        'print(a.grad_fn, b.grad_fn is a.grad_fn)\n'
        'for row in y:\n'
        '    row *= 2'),
    "iterating_and_adding_in_place": (
        'x = torch.ones(2, 3)\n'
        'w = torch.ones(3, requires_grad=True)\n'
        'for row in x:\n'
        '    row.add_(w)'),
    "autograd_grad_capture_and_hooks": (
        'x = torch.ones(2, requires_grad=True)\n'
        'y = x * 2\n'
        'y.register_hook(lambda g: g * 3)\n'
        'out = (y * y).sum()\n'
        'print(torch.autograd.grad(out, [x, y]))\n'
        'y2 = x * 2\n'
        'y2.register_hook(lambda g: g * 3)\n'
        'print(torch.autograd.grad((y2 * y2).sum(), [y2]))\n'
        'x.register_hook(lambda g: g + 100)\n'
        'print(torch.autograd.grad((x * x).sum(), [x]))\n'
        'z = x * 1\n'
        'z.retain_grad()\n'
        'print(torch.autograd.grad((z * z).sum(), [z]), z.grad)'),
    "setitem_slice_and_index_is_copyslices": (
        'x = torch.arange(24.).view(2, 3, 4).requires_grad_()\n'
        'y = x.clone()\n'
        'y[0, :, [1, 3]] = torch.tensor([[7., 8.], [9., 10.], [11., 12.]])\n'
        'print(y, y.grad_fn.next_functions)\n'
        'y[:, 1, [0, 1]] = -1.\n'
        'print(y)\n'
        'y[..., torch.tensor([True, False, True, False])] = 0.\n'
        'print(y, y._version)\n'
        'y.sum().backward(); print(x.grad)'),
    "setitem_shape_mismatch": (
        'x = torch.zeros(3, 4)\n'
        'x[1:, [0, 2]] = torch.tensor([1., 2., 3.])'),
    "setitem_view_of_leaf": (
        'x = torch.zeros(3, 4, requires_grad=True)\n'
        'x[1:, [0, 2]] = 1.'),
    "setitem_index_on_leaf": (
        'x = torch.zeros(3, 4, requires_grad=True)\n'
        'x[[0, 2]] = 1.'),
    "setitem_mixed_indices": (
        'x = torch.zeros(3, 4)\n'
        'x[0, [0, 2], None] = torch.tensor([[1.], [2.]])\n'
        'print(x)\n'
        'x[True, 1] = 5.\n'
        'print(x)\n'
        'x[[1, 2], 1:3] = torch.tensor([4., 6.])\n'
        'print(x)\n'
        'x[1:, [0, 2], ] = torch.ones(2, 2, 1)'),
    "setitem_index_tensor_then_slice": (
        'x = torch.zeros(3, 4)\n'
        'idx = torch.tensor([[0, 1], [1, 2]])\n'
        'x[idx, 1:] = 3.\n'
        'print(x)\n'
        'x[2, idx] = torch.arange(4.).view(2, 2)\n'
        'print(x)'),
    "aminmax_saves_its_outputs": (
        'x = torch.tensor([1., 2., 4.], requires_grad=True)\n'
        'mn, mx = torch.aminmax(x)\n'
        'print(mn.grad_fn, mx.grad_fn, mx._version, mx.grad_fn._saved_max)\n'
        'mx.mul_(2)\n'
        'print(mx.grad_fn)\n'
        '(mn + mx).backward()'),
}


@pytest.mark.parametrize("name", SNIPPETS)
def test_snippet(name):
    """Printed text, warnings and the final error are identical (addresses and C++ locations blanked)."""
    code = SHOW + SNIPPETS[name]
    t, e = run_both(T, E, code)
    assert same(t, e), f"\n{code}\n--- torch\n{t.summary()}--- engine\n{e.summary()}"
