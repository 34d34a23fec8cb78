"""Random autograd programs (session 17's generator) against real PyTorch: what they found, one snippet per cause.
torch.return_types named in Python's own errors, the order of PyTorch's checks (cat, dot, mv, leaves before
shapes), copying a gradient into an expanded view, fused multiply-adds at infinities and zeros, other views after
an in-place view op, contiguous number ** tensor, softmax over a dim other than the last."""
import pytest

T = pytest.importorskip("torch", reason="differential tests need real PyTorch (pip install torch==2.13.0)")
from .harness import load_engine, run_both, same, TRIES  # noqa: E402

E = load_engine()

SNIPPETS = {
    "return_types_in_type_errors": TRIES + (
        'x = torch.tensor([[1., 2.], [3., 0.5]], requires_grad=True)\n'
        'r = x.max(dim=1, keepdim=True)\n'
        'print(type(r), type(r).__name__, type(r).__qualname__, type(r).__module__)\n'
        'tries(lambda: x - r, lambda: r / 2, lambda: -r, lambda: torch.exp(r), lambda: x.pow(r), lambda: r(),\n'
        '      lambda: torch.cat([r, x]), lambda: x.sub(r), lambda: x @ r, lambda: x.min(0) ** 2, lambda: r + r,\n'
        '      lambda: torch.zeros(2).copy_(r), lambda: torch.maximum(x, r), lambda: x.dist(r))'),
    "check_order_cat_dot_mv": TRIES + (
        'x = torch.tensor([[1., 2.]], requires_grad=True); s = torch.tensor(3.); e = torch.tensor([])\n'
        'a3 = torch.ones(3); a4 = torch.ones(4, dtype=torch.float64)\n'
        'tries(lambda: torch.cat([x, s]), lambda: torch.cat([x, x, s], dim=5), lambda: torch.cat([e, e], dim=1),\n'
        '      lambda: torch.cat([e, s]), lambda: torch.matmul(a3, a4), lambda: torch.dot(a4, a3),\n'
        '      lambda: torch.vdot(a3, a4), lambda: torch.mv(s, s), lambda: torch.mv(s, a3))\n'
        'y = torch.cat([e.requires_grad_(), e], dim=2); print(y, y.grad_fn._saved_dim); y.sum().backward(); print(e.grad)'),
    "leaf_checked_before_the_op": TRIES + (
        'x = torch.tensor([[[1., 2.]]], requires_grad=True)\n'
        'tries(lambda: x.t_(), lambda: x.masked_fill_(torch.ones(9) > 0, 1.), lambda: x.view(2).t_())'),
    "in_place_on_an_expanded_view_then_backward": TRIES + (
        'x = torch.tensor([1., -2., 3.], requires_grad=True)\n'
        'y = x * 1\n'
        'v = y.expand(2, 3)\n'
        'v.masked_fill_(v < 0, 0.)\n'
        'print(y, y._version)\n'
        'tries(lambda: y.sum().backward())\n'
        'y = x * 1; y.unsqueeze(0).expand(1, 3).mul_(2); y.sum().backward(); print(x.grad)\n'
        'y = x * 1; y.expand(2, 3).fill_(2.); tries(lambda: y.sum().backward())'),
    "fused_multiply_add_at_inf_and_signed_zeros": (
        'x = torch.tensor([-0., 0., 2., float("inf"), -1., float("-inf")], dtype=torch.float64, requires_grad=True)\n'
        'y = torch.tensor([-0., -0., float("inf"), 1., 2., float("-inf")], dtype=torch.float64)\n'
        'print(torch.lerp(x, y, 0.5), torch.lerp(x, y, 0.75), torch.lerp(x, y, 0.5).signbit())\n'
        'print(torch.addcmul(x, x, y, value=2), torch.addcmul(x, y, y))'),
    "other_views_after_an_in_place_view_op": (
        'x = torch.tensor([[1.], [2.], [3.]], requires_grad=True)\n'
        'b = x * 1\n'
        't = b.t()\n'
        'v = b.view(3)\n'
        'v.unsqueeze_(0)\n'
        'print(v.grad_fn, b.grad_fn, t.grad_fn, b._version)\n'
        '(t * 2).sum().backward(); print(x.grad)\n'
        'b = x.view(3, 1) * 1; t = b[0]; b.t_(); print(b.grad_fn, t.grad_fn)'),
    "number_to_the_power_of_a_transposed_tensor_is_contiguous": (
        'x = torch.tensor([[3., 0.], [-2., -1.]], requires_grad=True)\n'
        'y = 4 ** x.t()\n'
        'print(y.stride(), torch.pow(2, x.t()).stride(), (x.t() ** 2).stride())\n'
        'print(y.view(-1))'),
    "softmax_over_a_dim_other_than_the_last": (
        'x = torch.tensor([[[1.5, 0.5], [0.0, 0.5], [0.0, 2.0]], [[-1.0, -1.5], [-0.5, 1.5], [1.0, 1.0]]],\n'
        '                 requires_grad=True)\n'
        'for d in (0, 1):\n'
        '    y = x.softmax(d)\n'
        '    print(y.detach().numpy().tobytes().hex())     # (every bit: the harness forgives last bits on AVX2)\n'
        '    g, = torch.autograd.grad(y.sum(), x)\n'
        '    print(g, (g != 0).tolist())\n'
        'y = torch.softmax(x, 0); y.backward(torch.tensor([[[1., 2.], [3., 4.], [5., 6.]]] * 2)); print(x.grad)'),
    "prod_over_a_dim_has_its_own_dense_memory": (
        'x = torch.tensor([[0.5, -1.5, 2.], [3.0, 0.0, 1.]], requires_grad=True)\n'
        'print(x.prod(-1, keepdim=True).stride(), x.prod(1).stride(), x.t().prod(0, keepdim=True).stride())\n'
        't0 = x.prod(dim=-1, keepdim=True)\n'
        'print(t0.is_contiguous(), t0.view(2).stride())\n'
        't0[0].abs_()           # (the in-place change on a view of it: the gradient is copied into its memory)\n'
        'try:\n'
        '    t0.sum().backward()\n'
        'except RuntimeError as e:\n'
        '    print(e)'),
    "softmax_of_an_empty_tensor_of_any_dtype": (
        'for f in [torch.softmax, torch.log_softmax]:\n'
        '    for t in [torch.tensor([], dtype=torch.long), torch.zeros(2, 0, dtype=torch.int32), torch.zeros(0, dtype=torch.bool)]:\n'
        '        print(f(t, -1), f(t, 0).dtype)\n'
        'x = torch.zeros(0, 3, requires_grad=True)\n'
        'y = x.softmax(1); print(y, y.grad_fn); y.sum().backward(); print(x.grad)'),
    "negative_zero_through_max_over_a_dim_and_cumsum": (
        'x = torch.tensor([[1., 2.], [0.5, -1.], [3., 0.]], requires_grad=True)\n'
        'for f in [lambda t: t.max(0)[0], lambda t: t.min(1, keepdim=True).values, lambda t: t.cumsum(0)]:\n'
        '    x.grad = None\n'
        '    y = f(x)\n'
        '    y.backward(-torch.zeros_like(y))\n'
        '    print(x.grad, x.grad.signbit().tolist())     # (signbit: the harness forgives signs of zeros on AVX2)\n'
        'print(torch.tensor([-0., -0., 1., -1.]).cumsum(0).signbit(), torch.tensor(-0.).cumsum(0).signbit())'),
    "pow_to_a_bool_exponent_has_no_gradient_formula": TRIES + (
        'x = torch.tensor([1., 2., 0.5], requires_grad=True)\n'
        'y = x ** (x > 1); print(y, y.grad_fn)\n'
        'tries(lambda: y.sum().backward(), lambda: x.grad, lambda: torch.pow(x, (x > 1).int()).sum().backward(),\n'
        '      lambda: x.grad)'),
    "addcmul_with_a_bool_or_integer_factor": (
        'a = torch.tensor([[1.], [2.]], requires_grad=True)\n'
        'for other in [torch.tensor([[True, False, True]]), torch.tensor([[1, 0, 3]])]:\n'
        '    a.grad = None\n'
        '    y = torch.addcmul(a, a, other, value=2); y.sum().backward(); print(y, a.grad)\n'
        '    a.grad = None\n'
        '    y = torch.addcmul(a, other, a, value=2); y.sum().backward(); print(a.grad)'),
    "count_nonzero_and_aminmax_arguments": TRIES + (
        'x = torch.tensor([[1., 0., 3.], [0., 0., 2.]])\n'
        'tries(lambda: x.count_nonzero(0, keepdim=True), lambda: torch.count_nonzero(x, 0, True),\n'
        '      lambda: x.count_nonzero(\'a\'), lambda: x.count_nonzero((0, 1)), lambda: x.aminmax(0),\n'
        '      lambda: torch.aminmax(x, 0), lambda: torch.aminmax(x, dim=0, foo=2), lambda: x.aminmax(dim=1, keepdim=True))'),
    "nansum_over_the_dim_of_a_0d_tensor": (
        'x = torch.tensor(2., requires_grad=True)\n'
        'for f in [lambda t: t.nansum(0), lambda t: t.nansum(-1, keepdim=True), lambda t: t.nanmean(0)]:\n'
        '    x.grad = None\n'
        '    y = f(x); y.backward(); print(y, x.grad)'),
    "scatter_checks_in_pytorch_order_and_an_empty_index": TRIES + (
        'x = torch.zeros(2, 3); i = torch.zeros(2, 3, dtype=torch.long)\n'
        'tries(lambda: x.scatter(0, i, torch.ones(3)), lambda: x.scatter_add(0, i, torch.ones(3)),\n'
        '      lambda: x.scatter(0, i, torch.ones(2, 3, 1)), lambda: x.scatter(0, torch.zeros(1, 4, dtype=torch.long), torch.ones(5, 5)),\n'
        '      lambda: x.gather(0, torch.zeros(0, dtype=torch.long)), lambda: x.scatter(1, torch.zeros(2, 0, dtype=torch.long), torch.ones(3)),\n'
        '      lambda: x.scatter_reduce(0, torch.zeros(0, dtype=torch.long), torch.ones(3), \'amax\'))'),
    "missing_and_keyword_arguments_of_more_methods": TRIES + (
        'x = torch.tensor([[1., 2.], [3., -4.]], requires_grad=True); y = torch.tensor([[0.5, 1.], [1., -1.]])\n'
        'tries(lambda: x.cummax(), lambda: torch.cummax(x), lambda: x.logcumsumexp(), lambda: x.kthvalue(),\n'
        '      lambda: x.mm(), lambda: torch.outer(x[0]), lambda: x.dist(), lambda: x.atan2(), lambda: x.flip(),\n'
        '      lambda: torch.flip(x), lambda: x.tile(), lambda: x.tile(dims=(2,)), lambda: x.heaviside(values=y),\n'
        '      lambda: x.kthvalue(k=1, dim=1, keepdim=True), lambda: x.dist(y, p=1), lambda: x.cummax(dim=0).indices,\n'
        '      lambda: x.mm(mat2=y), lambda: x.cummax(1.5))'),
    "in_place_through_a_diagonal_of_an_expanded_view": (
        'x = torch.zeros(2, 3)\n'
        'e = x.unsqueeze(0).expand(4, 2, 3)\n'
        'e.diagonal(dim1=1, dim2=2).fill_(5.); print(x)\n'
        'e.diagonal(dim1=0, dim2=2).mul_(2); print(x)\n'
        'x2 = torch.tensor([[1., -0.5], [3., 4.]], requires_grad=True)\n'
        'v = x2.split(1)[0].expand(2, 1, 2).detach().diagonal(); v.div_(2); print(v, x2, x2._version)'),
    "cumulative_ops_give_contiguous_results": (
        'x = torch.tensor([[1., 2., 3.], [4., 5., 6.]], requires_grad=True).t()\n'
        'for f in [lambda t: t.cumsum(0), lambda t: t.cumprod(1), lambda t: t.cummax(0).values, lambda t: t.logcumsumexp(0),\n'
        '          lambda t: torch.nn.functional.logsigmoid(t), lambda t: t.masked_scatter(t > 2, torch.zeros(6))]:\n'
        '    y = f(x)\n'
        '    print(y.stride(), y.is_contiguous(), y.view(-1).grad_fn)'),
    "functional_activations_refuse_what_is_not_a_tensor": TRIES + (
        'F = torch.nn.functional\n'
        'r = torch.tensor([[1., 2.], [3., 4.]]).max(0)\n'
        'tries(lambda: F.gelu(r), lambda: F.relu(r), lambda: F.elu(r), lambda: F.silu([1.]), lambda: F.logsigmoid(r),\n'
        '      lambda: F.layer_norm(r, (2,)), lambda: F.gelu(input=[1.]), lambda: F.hardtanh(r), lambda: F.threshold(r, 1., 0.),\n'
        '      lambda: F.gelu(torch.tensor([1., -2.]), approximate=\'tanh\'), lambda: F.elu(input=torch.tensor([-1.])))'),
    "layout_of_flip_index_fill_and_index_put_results": (
        'x = torch.tensor([[1., 2., 3.], [4., 5., 6.]], requires_grad=True)\n'
        'for t in [x.t(), x.expand(2, 2, 3), x.unsqueeze(0).expand(2, 2, 3).transpose(0, 1)]:\n'
        '    i = torch.zeros_like(t, dtype=torch.long)\n'
        '    print([tuple(f().stride()) for f in [lambda: t.scatter(0, i, t), lambda: t.index_add(0, torch.tensor([0]), t[:1]),\n'
        '           lambda: t.index_fill(0, torch.tensor([0]), 1.), lambda: t.flip(0), lambda: t.flip(-1),\n'
        '           lambda: t.index_put((torch.tensor([0]),), torch.tensor(1.))]])\n'
        'print(x.expand(2, 2, 3).flip(0).view(-1).grad_fn)'),
    "clamp_refuses_what_is_not_a_tensor": TRIES + (
        'x = torch.tensor([[1., -2.], [3., 0.5]], requires_grad=True)\n'
        'r = x.min(0, keepdim=True)\n'
        'tries(lambda: torch.clamp(r, min=-0.5, max=1.5), lambda: torch.clamp(x, min=\'a\'), lambda: torch.clamp([1., 2.], 0),\n'
        '      lambda: torch.clamp(x, min=torch.tensor(0.)), lambda: torch.clamp(input=x, min=0.5), lambda: torch.clamp(x, 0, max=torch.ones(2)))'),
    "reductions_of_a_permuted_tensor_are_row_major": (
        'x = torch.arange(24.).view(2, 3, 4).permute(2, 0, 1).requires_grad_()\n'
        'for f in [lambda: x.std(-1), lambda: x.var(1), lambda: x.logsumexp(1), lambda: x.amax(1), lambda: x.nansum(1),\n'
        '          lambda: x.count_nonzero(1), lambda: x.aminmax(dim=1).min, lambda: torch.var_mean(x, 1)[0],\n'
        '          lambda: x.std(1, keepdim=True), lambda: x.logsumexp(1, keepdim=True), lambda: x.all(1), lambda: (x > 3).any(1)]:\n'
        '    y = f()\n'
        '    print(y.stride(), y.contiguous() is y)'),
    "var_checks_the_dtype_before_the_dims": TRIES + (
        'x = torch.tensor([[1, 2], [3, 4]])\n'
        'tries(lambda: x.var(1), lambda: x.var(5), lambda: x.std(dim=7), lambda: torch.var_mean(x, 3), lambda: torch.std_mean(x, 3),\n'
        '      lambda: x.float().var(5))'),
    "scatter_and_index_add_refuse_a_source_sharing_memory": TRIES + (
        'x = torch.tensor([[1., 2.], [3., 4.]])\n'
        'i = torch.zeros(2, 2, dtype=torch.long)\n'
        'tries(lambda: x.scatter_(0, i, x), lambda: x.scatter_add_(0, i, x), lambda: x.index_add_(0, torch.tensor([0]), x[:1]),\n'
        '      lambda: x.index_copy_(0, torch.tensor([0]), x[1:]), lambda: x.put_(torch.tensor([0]), x[0, :1]),\n'
        '      lambda: x.index_add_(0, torch.tensor([0]), x.t()[:1]), lambda: x.scatter_(0, i, src=x.clone()), lambda: x)\n'
        'w = torch.tensor([[1., 2.], [3., 4.]], requires_grad=True)\n'
        'tries(lambda: w.scatter_(0, i, w), lambda: (w * 1).index_add_(0, torch.tensor([0]), w).grad_fn)'),
    "sort_results_take_a_dense_inputs_layout": (
        'x = torch.tensor([[3., 1., 2.], [0., 5., 4.]], requires_grad=True)\n'
        'for t in [x, x.t(), x.expand(2, 2, 3), x.unsqueeze(0).expand(2, 2, 3).transpose(0, 1), x[:, ::2]]:\n'
        '    v, i = t.sort(0)\n'
        '    print(v.stride(), i.stride(), t.argsort(-1).stride(), t.sort(descending=True)[0].stride())\n'
        '    v.sum().backward(); print(x.grad); x.grad = None'),
    "copy_of_an_expanded_tensor_into_itself": TRIES + (
        'x1 = torch.tensor([[1, 2, 3]])\n'
        'v0 = x1.expand(2, *x1.shape)\n'
        'tries(lambda: v0.copy_(v0), lambda: v0._version, lambda: v0.copy_(v0.clone()), lambda: x1.copy_(x1))\n'
        'w = torch.tensor([1., 2.], requires_grad=True)\n'
        'y = w * 2\n'
        'e = y.expand(3, 2)\n'
        'tries(lambda: e.copy_(e), lambda: (y.grad_fn, y._version), lambda: y.sum().backward(), lambda: w.grad)'),
}


@pytest.mark.parametrize("name", SNIPPETS)
def test_snippet(name):
    code = SNIPPETS[name]
    t, e = run_both(T, E, code)
    assert same(t, e), f"\n{code}\n--- torch\n{t.summary()}--- engine\n{e.summary()}"
