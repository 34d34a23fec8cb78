"""The fourteenth session's op-by-op graph survey against real PyTorch: which `_saved_*` / `_raw_saved_*` names a
node lists (an optional number saved as None has no `_raw_saved_`, whichever node of the class came first), what
it saves when only some inputs need grad (scatter_add, index_add, index_copy, put, copysign, addcdiv), the Scalar
linalg.norm saves for ord=None, matmul's squeeze of a 3-D batch of one that requires grad, fill_ with a 0-d tensor
(FillBackward3), zero_'s empty ZeroBackward0, elu_'s int alpha, dim=() reductions (all dims) and mixed tensor /
number clamp bounds; plus a sample of graphs that already matched. Printed text, warnings and the final error must
be identical."""
import pytest

T = pytest.importorskip("torch", reason="differential tests need real PyTorch (pip install torch==2.13.0)")
from .harness import SHOW, load_engine, run_both, same  # noqa: E402

E = load_engine()

# names(y): the saved names dir() lists on y's node, the type of each raw saved value, then show(y)
NAMES = ("def names(y):\n"
         "    g = y.grad_fn\n"
         "    print(g.name(), [n for n in dir(g) if n.startswith('_saved') or n.startswith('_raw_saved')])\n"
         "    for n in dir(g):\n"
         "        if n.startswith('_raw_saved'):\n"
         "            print(' ', n, type(getattr(g, n)).__name__)\n"
         "    show(y)\n") + SHOW

SNIPPETS = {
    "optional_numbers_have_no_raw_saved": NAMES + (
        'x = torch.tensor([[1., 5, 3], [4, 2, 6]], requires_grad=True)\n'
        'names(x.var()); names(x.var(1)); names(x.std()); names(torch.var_mean(x)[0]); names(x.norm())\n'
        'names(x.clamp(2)); names(x.clamp(-1, 1)); names(x.clamp(max=3))\n'
        'names(torch.div(x, 2, rounding_mode=None)); names(torch.logit(x / 7)); names(x.nansum())\n'
        'names(torch.nn.functional.avg_pool2d(x[None], 1)); names(torch.aminmax(x)[0])'),
    "raw_saved_list_is_a_tuple": NAMES + (
        'x = torch.arange(24.).reshape(2, 3, 4).requires_grad_()\n'
        'y = x[torch.tensor([0, 1]), torch.tensor([1, 2])]; names(y); print(type(y.grad_fn._saved_indices))\n'
        'z = x.index_put((torch.tensor([0]),), torch.tensor(1.)); names(z)'),
    "linalg_norm_ord_none_saves_the_float_2": (
        'x = torch.tensor([[1., 5, 3], [4, 2, 6]], requires_grad=True); v = x[0]\n'
        'for y in [torch.linalg.norm(x), torch.linalg.norm(v), torch.linalg.norm(v, 2), torch.linalg.norm(x, dim=1),\n'
        '          torch.linalg.norm(x, "fro"), torch.norm(x), torch.linalg.vector_norm(x), torch.norm(x, 2.)]:\n'
        '    print(y, y.grad_fn._saved_ord, y.grad_fn._saved_dim)'),
    "saved_only_for_inputs_that_need_grad": (
        'I = torch.tensor([[0, 1, 2, 0]]); J = torch.tensor([2, 0])\n'
        'fs = [lambda a, b: a.scatter_add(0, I, b[:1]), lambda a, b: a.index_add(0, J, b[:2], alpha=2),\n'
        '      lambda a, b: a.index_copy(0, J, b[:2]), lambda a, b: a.put(J, b[0, :2]),\n'
        '      lambda a, b: a.put(J, b[0, :2], accumulate=True), lambda a, b: torch.copysign(a, b - 6),\n'
        '      lambda a, b: torch.addcdiv(a, b, b + 1), lambda a, b: torch.addcdiv(a, b.detach(), b.detach() + 1),\n'
        '      lambda a, b: torch.addcmul(a, b, b)]\n'
        'for f in fs:\n'
        '    for ra, rb in [(1, 0), (0, 1), (1, 1)]:\n'
        '        a = torch.arange(12.).reshape(3, 4).requires_grad_(bool(ra))\n'
        '        b = torch.arange(12., 0, -1).reshape(3, 4).requires_grad_(bool(rb))\n'
        '        y = f(a, b); g = y.grad_fn\n'
        '        if g is None:\n'
        '            print(y); continue\n'
        '        print(g.name(), [(n, getattr(g, n) is None) for n in dir(g) if n.startswith("_saved")])\n'
        '        (y * torch.arange(12.).reshape(3, 4)).sum().backward(); print(a.grad, b.grad)'),
    "matmul_squeezes_a_batch_of_one_that_requires_grad": (
        'def walk(n, d=0):\n'
        '    print("  " * d + (n.name() if n else "None"))\n'
        '    for f, _ in (n.next_functions if n else ()):\n'
        '        if f is None or "AccumulateGrad" not in f.name():\n'
        '            walk(f, d + 1)\n'
        'for sa, sb in [((1, 2, 3), (2, 3, 4)), ((2, 3, 4), (1, 4, 2)), ((1, 2, 3), (1, 3, 4)),\n'
        '               ((1, 1, 2, 3), (2, 3, 4))]:\n'
        '    for ra, rb in [(1, 1), (1, 0), (0, 1)]:\n'
        '        a = torch.arange(float(torch.Size(sa).numel())).reshape(sa).requires_grad_(bool(ra))\n'
        '        b = torch.arange(float(torch.Size(sb).numel())).reshape(sb).requires_grad_(bool(rb))\n'
        '        y = a @ b; print(sa, sb, ra, rb, y); walk(y.grad_fn)\n'
        '        (y * y).sum().backward(); print(a.grad, b.grad)\n'
        'print(torch.ones(1, 2, 3, requires_grad=True) @ torch.ones(2, 4, 4))'),
    "fill_with_a_tensor_and_zero": (
        'x = torch.ones(3, requires_grad=True)\n'
        'for v in [torch.tensor(2.), torch.tensor(2., requires_grad=True), 2,\n'
        '          torch.tensor(2.7, dtype=torch.float64)]:\n'
        '    y = x * 1; y.fill_(v); print(y, y.grad_fn, y.grad_fn.next_functions, y._version)\n'
        '    y.sum().backward(); print(x.grad, v.grad if isinstance(v, torch.Tensor) else None)\n'
        'z = torch.zeros(3, dtype=torch.int64); z.fill_(torch.tensor(2.7)); print(z)\n'
        'y = x * 1; y.zero_(); g = y.grad_fn; print(g, [n for n in dir(g) if "saved" in n], g.next_functions)\n'
        'torch.zeros(3).fill_(torch.ones(2))'),
    "inplace_activations_and_erf_": (
        'import torch.nn.functional as F\n'
        'x = torch.linspace(-2, 2, 5).requires_grad_()\n'
        'y = x * 1; F.elu_(y); print(y, y.grad_fn, y.grad_fn._saved_alpha, y._version)\n'
        'y = x * 1; F.elu(y, inplace=True); print(y.grad_fn._saved_alpha)\n'
        'y = x * 1; F.celu_(y); print(y.grad_fn, y.grad_fn._saved_alpha)\n'
        'y = x * 1; F.leaky_relu_(y); print(y.grad_fn, y.grad_fn._saved_negative_slope)\n'
        'y = x * 1 + 3; z = y.erf_(); print(z is y, y._version, y, y.grad_fn._saved_self)\n'
        'y = x * 1; torch.erf_(y); y.sum().backward(); print(x.grad)'),
    "reductions_over_no_dims_reduce_all": (
        'x = torch.arange(6.).reshape(2, 3).requires_grad_()\n'
        'fs = [lambda: x.sum(()), lambda: x.sum([], keepdim=True), lambda: x.mean(()),\n'
        '      lambda: x.mean([], keepdim=True),\n'
        '      lambda: x.sum(dim=(), dtype=torch.float64), lambda: x.var(()), lambda: x.std([]),\n'
        '      lambda: x.norm(dim=()), lambda: x.norm(p=float("inf"), dim=()), lambda: torch.var_mean(x, ()),\n'
        '      lambda: torch.std_mean(x, [], keepdim=True), lambda: torch.logsumexp(x, (), keepdim=True),\n'
        '      lambda: torch.tensor(3., requires_grad=True).mean([], keepdim=True)]\n'
        'for f in fs:\n'
        '    y = f(); x.grad = None\n'
        '    print(y)\n'
        '    y = y[0] * 2 + y[1] * 3 if isinstance(y, tuple) else y\n'
        '    g = y.grad_fn\n'
        '    print(g.name(), [(n, getattr(g, n)) for n in dir(g) if n.startswith("_saved") and "self" not in n\n'
        '                     and "result" not in n])\n'
        '    y.sum().backward(); print(x.grad)\n'
        'torch.logsumexp(x[0], ())'),
    "clamp_with_a_tensor_and_a_number": NAMES + (
        'x = torch.arange(12.).reshape(3, 4).requires_grad_()\n'
        'names(torch.clamp(x, max=torch.tensor(5.), min=1)); names(torch.clamp(x, torch.tensor(1), 2.5))\n'
        'names(x.clamp(min=torch.tensor(2.))); names(x.clamp(torch.zeros(4), torch.ones(4)))\n'
        'y = x * 1; y.clamp_(torch.tensor(2.), 9); names(y); y.sum().backward(); print(x.grad)'),
    "sample_arithmetic_and_pointwise": NAMES + (
        'x = torch.arange(1., 5.).requires_grad_(); w = torch.tensor([2., -1., 0.5, 3.], requires_grad=True)\n'
        'for y in [x + w, 2 - x, x / 2, 2 / x, x.sub(w, alpha=3), x ** 2, x ** 2.5, x ** w, 2 ** x, x.rsqrt(),\n'
        '          x.sigmoid(), torch.where(x > 2, x, 0.), torch.maximum(x, w), x.clamp_min(2)]:\n'
        '    names(y)\n'
        'e = x.exp(); print(e.grad_fn._saved_result is e, e.grad_fn._saved_result.equal(e))\n'
        'm = x * w; print(m.grad_fn._saved_self is x, m.grad_fn._saved_other is w)'),
    "sample_reductions_and_shapes": NAMES + (
        'x = torch.tensor([[1., 5, 3], [4, 2, 6]], requires_grad=True)\n'
        'v, i = x.max(1); names(v); print(v.grad_fn._saved_indices is i)\n'
        'for y in [x.mean(1), x.prod(1, keepdim=True), x.logsumexp(1), x.log_softmax(-1), x.cumprod(1),\n'
        '          x.t(), x.unsqueeze(0).expand(2, 2, 3), x[:, ::2], x[x > 2], x[[1, 0]], x.repeat(2, 1),\n'
        '          x.narrow(1, 1, 2), torch.cat([x, x], 1), x.unbind(1)[2], x.split([1, 2], 1)[1]]:\n'
        '    names(y)'),
    "sample_inplace_on_views": (
        'x = torch.arange(6.).reshape(2, 3).requires_grad_(); y = x * 1\n'
        'v = y[0]; u = y[:, 1:]; y.add_(1)\n'
        'print(v.grad_fn, u.grad_fn, y.grad_fn, y._version, v._version)\n'
        'v.mul_(2); print(v.grad_fn, y.grad_fn, y.grad_fn.next_functions, y._version)\n'
        'y[1, 2] = 7.; print(y.grad_fn, u.grad_fn, y._version)\n'
        'y.sum().backward(); print(x.grad)'),
}


@pytest.mark.parametrize("name", SNIPPETS)
def test_snippet(name):
    code = SNIPPETS[name]
    t, e = run_both(T, E, code)
    assert same(t, e), f"\n{code}\n--- torch\n{t.summary()}--- engine\n{e.summary()}"
