"""Random short autograd programs over scans (cumsum, cumprod, logcumsumexp, cummax), value-selecting ops (sort, topk,
kthvalue, max/min/median/mode over a dim), reductions (prod, norms, var/std, amax/aminmax, logsumexp, nansum),
indexing (gather, index_select, take, diag, narrow, the *_scatter ops) and fused ops, against real PyTorch: what they
found, one snippet per cause. The signs of zero gradients that PyTorch's formulas copy into zeros (or leave alone,
as its ZeroTensors do: sgn's gradient), the order norm_backward makes its nodes in, 0-d inputs going through the same
formulas as others (so the same nodes under create_graph=True), and the exact steps of cumprod's, nansum's and
softmax's gradients. Signs of zero are printed with signbit() where they matter, as the harness compares numbers
with a tolerance on hosts whose kernels differ from the reference ones. Printed text, warnings and the final error
must be the same."""
import pytest

T = pytest.importorskip("torch", reason="differential tests need real PyTorch (pip install torch==2.13.0)")
from .harness import SHOW, load_engine, run_both, same  # noqa: E402

E = load_engine()

SNIPPETS = {
    # var_mean / std_mean of a 0-d tensor over dim 0: their backward reduced nothing (it failed with an IndexError);
    # without degrees of freedom the gradient is PyTorch's nan / inf constant
    "var_mean_of_a_0d_tensor_over_dim_0": (
        'a = torch.tensor(0.5, requires_grad=True)\n'
        'v, m = torch.var_mean(a, 0)\n'
        'show(v)\n'
        'tries(lambda: torch.autograd.grad(v + m, a, create_graph=True),\n'
        '      lambda: torch.autograd.grad(torch.std_mean(a, 0, correction=0)[0], a, create_graph=True),\n'
        '      lambda: torch.autograd.grad(torch.var_mean(a, -1, keepdim=True)[1], a))\n'
        'x = torch.ones(0, requires_grad=True)\n'
        'print(torch.autograd.grad(x.std(), x), torch.autograd.grad(torch.var_mean(x)[0], x))'),
    # nansum's gradient is the expanded gradient times ~isnan(x) (PyTorch's nansum_backward): an inf or nan gradient
    # gives nan at x's nans, -0. where it is negative, and a MulBackward0 under create_graph
    "nansum_gradient_multiplies_by_the_mask": (
        'x = torch.tensor([[float("nan"), 1.], [2., -0.]], requires_grad=True)\n'
        'print(torch.autograd.grad(x.nansum(), x, torch.tensor(float("inf"))))\n'
        'g, = torch.autograd.grad(x.nansum(1), x, torch.tensor([-2., 3.])); print(g, g.signbit())\n'
        'g, = torch.autograd.grad(x.nanmean(0), x, torch.tensor([-1., 2.], requires_grad=True), create_graph=True)\n'
        'print(g, g.grad_fn, g.grad_fn.next_functions)'),
    # cumprod's gradient past a zero: PyTorch's steps in float32 (its scans accumulating in float64), each part
    # scattered into zeros, so the last bits and the signs of zero gradients are its
    "cumprod_gradient_with_zeros": (
        'x = torch.tensor([1.1, 0.3, 0., 1.7, 2.9, 0., 1.3], requires_grad=True)\n'
        'g, = torch.autograd.grad(x.cumprod(0), x, torch.tensor([0.7, -1.3, 0.1, 2.3, 0.9, 1.1, 4.1]))\n'
        'print([v.item() for v in g])\n'
        'a = torch.tensor([[0., 1.5, -2.], [1., -0.5, 1.], [1.5, 3., 2.]], dtype=torch.float64, requires_grad=True)\n'
        'gy = torch.tensor([[0., 0., -0.], [0., -0., -0.], [0., 0., -0.]], dtype=torch.float64)\n'
        'print(torch.autograd.grad(a.cumprod(0), a, gy)[0].signbit(), torch.autograd.grad(a.cumprod(1), a, -gy))\n'
        'y = a.cumprod(-2); n = y.norm(float("-inf")) + y.sum()\n'
        'n.backward(); print(a.grad, a.grad.signbit())'),
    # sort / topk / kthvalue / median / mode / max over a dim of a 0-d tensor: PyTorch scatters the gradient into a
    # 0-d zero all the same (ScatterBackward0 under create_graph; cummax / cummin: ScatterAddBackward0)
    "value_selecting_ops_of_a_0d_tensor_scatter": (
        'a = torch.tensor(2.0, requires_grad=True)\n'
        'for y in [a.sort()[0], a.topk(1)[0], a.kthvalue(1)[0], a.median(0)[0], a.mode(-1, True)[0], a.max(0)[0],\n'
        '          a.min(0, keepdim=True).values, a.cummax(0)[0], a.cummin(-1).values, a.msort()]:\n'
        '    g, = torch.autograd.grad(y * y, a, create_graph=True)\n'
        '    print(y.grad_fn.name(), g, g.grad_fn, g.grad_fn.next_functions, torch.autograd.grad(g, a))'),
    # amax / amin / aminmax's gradient restores the reduced dims with a reshape (ViewBackward0, also for aminmax over
    # everything); over a dim of a 0-d tensor that gives shape (1,), summed back (SumBackward0)
    "amax_and_aminmax_restore_the_reduced_dims": (
        'a = torch.tensor(2.0, requires_grad=True)\n'
        'm = torch.tensor([[2., -1.], [0., 3.]], requires_grad=True)\n'
        'for x, y in [(a, a.amax(0)), (a, a.amin((0,))), (a, a.amax()), (a, a.aminmax(dim=0)[1]),\n'
        '             (a, a.aminmax()[0]),\n'
        '             (m, m.aminmax()[1]), (m, m.aminmax(dim=1)[0]), (m, m.aminmax(dim=-1, keepdim=True)[1])]:\n'
        '    g, = torch.autograd.grad(y, x, torch.ones_like(y).requires_grad_(), create_graph=True)\n'
        '    print(g, g.grad_fn, g.grad_fn.next_functions, g.grad_fn.next_functions[0][0].next_functions)\n'
        'lo, hi = m.aminmax(dim=0)\n'
        'print(torch.autograd.grad((lo, hi), m, (torch.ones(2).requires_grad_(), torch.ones(2)), create_graph=True))'),
    # the gradients PyTorch copies into zeros keep their -0.s: diag of a matrix, select and slicing under
    # create_graph, narrow_copy, unfold with windows apart (overlapping ones add up: +0.), trace (index_fill_)
    "negative_zero_gradients_copied_into_zeros": (
        'b = torch.ones(3, 3, requires_grad=True)\n'
        'g = torch.tensor([-0., 2., -0.], requires_grad=True)\n'
        'for f in [lambda: b.diag(), lambda: b[0], lambda: b[:, 1], lambda: b.select(1, 2), lambda: b.diagonal()]:\n'
        '    r, = torch.autograd.grad(f(), b, g, create_graph=True)\n'
        '    print(r.signbit().view(-1).tolist(), r.grad_fn)\n'
        'v = torch.ones(5, requires_grad=True)\n'
        'for size, step in [(1, 1), (2, 2), (2, 3), (2, 1), (3, 2)]:\n'
        '    y = v.unfold(0, size, step)\n'
        '    gy = -torch.zeros(y.shape); gy.view(-1)[::2] = 1.\n'
        '    print(size, step, torch.autograd.grad(y, v, gy)[0].signbit().tolist())\n'
        'print(torch.autograd.grad(torch.narrow_copy(b, 0, 1, 1), b, -torch.ones(1, 3) * 0)[0].signbit())\n'
        'print(torch.autograd.grad(b[:1].trace(), b, torch.tensor(-0.))[0].signbit())'),
    # narrow_copy's gradient is slice_backward's: SliceBackwardBackward0 under create_graph, its dim as given
    "narrow_copy_double_backward": (
        'c = torch.tensor([[0.25, -2.0, 1.5], [-1.0, -1.0, -1.0]], requires_grad=True)\n'
        'for args in [(-1, 0, 1), (0, 1, 1), (1, 1, 2)]:\n'
        '    y = torch.narrow_copy(c, *args)\n'
        '    g, = torch.autograd.grad(y, c, -torch.ones_like(y).requires_grad_(), create_graph=True)\n'
        '    show(g)'),
    # select_scatter / slice_scatter / diagonal_scatter: the input's gradient is the same op writing zeros into it
    # (-0.s elsewhere stay; its node under create_graph), src's is a view of it (SelectBackward0, SliceBackward0 with
    # the dim as given, DiagonalBackward0)
    "scatter_ops_gradients": (
        'b = torch.zeros(2, 4, 3, requires_grad=True)\n'
        'g = -torch.zeros(2, 4, 3); g[0, 1, 1] = 2.; g.requires_grad_()\n'
        'for s, f in [(torch.ones(2, 3, requires_grad=True), lambda x, s: x.select_scatter(s, 1, -1)),\n'
        '             (torch.ones(2, 2, 3, requires_grad=True), lambda x, s: x.slice_scatter(s, -2, 1, 10, 2)),\n'
        '             (torch.ones(2, 2, requires_grad=True), lambda x, s: x.diagonal_scatter(s, 1, 1, 2))]:\n'
        '    gb, gs = torch.autograd.grad(f(b, s), (b, s), g, create_graph=True)\n'
        '    print(gb[0], gb[0].signbit(), gs)\n'
        '    show(gb); show(gs)'),
    # sgn's gradient of a real input is a ZeroTensor: added to another gradient it gives that one's values (-0.s
    # stay, here in the inf-norm's double backward) unless that one is added to in place
    "inf_norm_double_backward_keeps_negative_zeros": (
        'a = torch.tensor([[[1.0, 0.25], [-2.0, 0.25]], [[1.0, -1.0], [-1.0, 0.0]]], dtype=torch.float64,\n'
        '                 requires_grad=True)\n'
        't = a.norm(float("inf"), 1).topk(2, largest=False).values.diagonal(1)\n'
        'gs = torch.autograd.grad((t * t.detach().sign()).sum() + t.pow(2).sum(), [a], create_graph=True)\n'
        'print(gs, torch.autograd.grad(sum((g * g).sum() for g in gs), [a])[0].signbit())\n'
        'b = torch.tensor([[0.0, 1.0, -0.5], [0.5, -1.0, -1.0]], requires_grad=True)\n'
        'n = b.norm(float("-inf"))\n'
        'g, = torch.autograd.grad(n.exp(), b, create_graph=True)\n'
        'print(g, torch.autograd.grad(g.sum(), b)[0].signbit())\n'
        'x = torch.tensor([1.0, -1.0, 0.], dtype=torch.float64, requires_grad=True)\n'
        'z = torch.tensor([-0., -0., -0.], dtype=torch.float64)\n'
        'print(torch.autograd.grad(x.sgn() + x, x, z)[0].signbit(),\n'
        '      torch.autograd.grad(x.sgn() * x, x, z)[0].signbit(),\n'
        '      torch.autograd.grad(x.sign() + x, x, z)[0].signbit())'),
    # a ZeroTensor taken as a leaf's .grad cannot be added to: a second backward without zeroing the gradients
    # fails in PyTorch (an abs penalty's gradient, differentiated again)
    "zero_tensor_grad_is_immutable": (
        'x = torch.tensor([1., -2.], requires_grad=True)\n'
        'for i in range(2):\n'
        '    g, = torch.autograd.grad(x.abs().sum(), x, create_graph=True)\n'
        '    tries(lambda: g.pow(2).sum().backward())\n'
        '    print(x.grad)\n'
        'x.grad = None\n'
        'for i in range(2):\n'
        '    g, = torch.autograd.grad(x.abs().sum(), x, create_graph=True)\n'
        '    (g.pow(2).sum() + x.sum()).backward()\n'
        '    print(x.grad)\n'
        'w = torch.tensor([0.5, -1.5], requires_grad=True)\n'
        'opt = torch.optim.SGD([w], lr=0.1)\n'
        'for i in range(2):\n'
        '    opt.zero_grad()\n'
        '    g, = torch.autograd.grad(w.abs().sum(), w, create_graph=True)\n'
        '    g.norm().backward()\n'
        '    opt.step()\n'
        '    print(w.grad, w)'),
    # PyTorch's C++ `a * b` in norm_backward makes b's nodes first, so in a double backward sgn's ZeroTensor arrives
    # before the other gradients (and their -0.s stay): the p < 1, 1 < p < 2 and inf norms
    "p_norm_double_backward_in_pytorchs_node_order": (
        'a = torch.tensor([[2.0, -1.0], [-2.0, -0.5], [3.0, 0.25]], requires_grad=True)\n'
        'for p in [0.5, 1.5, 3, float("inf")]:\n'
        '    g, = torch.autograd.grad(a.norm(p=p, dim=-2), a, torch.tensor([1., 0.], requires_grad=True),\n'
        '                             create_graph=True)\n'
        '    print(p, g, torch.autograd.grad(g.sum(), a)[0].signbit())\n'
        'y = a.norm(p=0.5, dim=-2).max()\n'
        'y.backward(create_graph=True); a.grad.sum().backward(); print(a.grad, a.grad.signbit())'),
    # aminmax over a dim keeps the first of tied zeros (-0. or 0.), as PyTorch's loop over the dim does; over
    # everything, its vectorized kernel's
    "aminmax_over_a_dim_keeps_the_first_tied_zero": (
        'x = torch.tensor([[0., -0.], [-0., 0.], [0., 0.]], requires_grad=True)\n'
        'print(x.aminmax(dim=0), x.aminmax(dim=1, keepdim=True), x.aminmax())\n'
        'y = torch.tensor([-0., 0., -0., 0.])\n'
        'print(y.aminmax(), y.aminmax(dim=0), y.aminmax(dim=0).min.signbit(), torch.tensor(-0.).aminmax(dim=0))'),
    # softmax's gradient over a dim other than the last adds g * y along it with fused multiply-adds, for doubles as
    # for floats (softmax(..., dtype=torch.float64) too): equal inputs then give exact zeros
    "softmax_gradient_over_another_dim_in_doubles": (
        'a = torch.tensor([[-0.0, 1.5, 0.5], [2.0, 1.5, 0.0], [0.25, 1.5, 3.0]], requires_grad=True)\n'
        'y = torch.softmax(a, 0, dtype=torch.float64)\n'
        'loss = (y.max() * y).pow(2).sum()\n'
        'g, = torch.autograd.grad(loss, a, create_graph=True)\n'
        'print(g, g.grad_fn, [v.item() for v in g[:, 1]], (g[:, 1] == 0).tolist())\n'
        'b = a.detach().double().requires_grad_()\n'
        'w = torch.tensor([[1.0448797856077419, 1.4038642372731098, 0.9967064987390298],\n'
        '                  [2.0759949285739, 1.4038642372731098, 0.9521600937366503],\n'
        '                  [1.090717997637688, 1.4038642372731098, 8.324739103148602]], dtype=torch.float64)\n'
        'r, = torch.autograd.grad(torch.softmax(b, 0), b, w); print(r.tolist(), (r[:, 1] == 0).tolist())'),
    # index_select of a 0-d tensor: PyTorch index_adds the gradient into a 0-d zero (IndexAddBackward0)
    "index_select_of_a_0d_tensor_double_backward": (
        'a = torch.tensor(-0.5, dtype=torch.float64, requires_grad=True)\n'
        'for idx in [torch.tensor([0]), torch.tensor(0)]:\n'
        '    y = a.index_select(0, idx)\n'
        '    g, = torch.autograd.grad(y, a, torch.full_like(y, 2.).requires_grad_(), create_graph=True)\n'
        '    show(g)\n'
        '    print(torch.autograd.grad(a.index_select(0, idx), a, torch.full_like(y, -0.)))\n'
        'tries(lambda: a.index_select(0, torch.tensor([0, 0])))'),
    # gather of a 0-d tensor: the gradient of its ScatterAddBackward0 is 0-d again (it was (1,), which a later
    # select's gradient refused)
    "gather_of_a_0d_tensor_double_backward": (
        'b = torch.tensor(0.5, requires_grad=True)\n'
        't = b.gather(0, b.argsort(0))\n'
        'y = torch.stack([t, t]).median(0).values * 2\n'
        'g, = torch.autograd.grad(y.pow(2), b, create_graph=True)\n'
        'print(g, g.grad_fn, torch.autograd.grad(g * g, b))'),
    # var_mean / std_mean's mean is Welford's running one: an infinite number followed by any other makes it nan
    # (only a last one gives inf), unlike mean()'s
    "var_mean_mean_past_an_infinite_number": (
        'a = torch.tensor([[2.0, -0.5, -1.0], [-1.5, 1.5, 0.5], [-0.0, 0.5, 0.25]], requires_grad=True)\n'
        'x = a.lerp(a, a).masked_fill(a == 0, float("-inf"))\n'
        'v, m = torch.var_mean(x)\n'
        'print(v, m, x.mean(), torch.std_mean(x, 0), torch.var_mean(x, 1, keepdim=True)[1])\n'
        't = torch.atan2(torch.ones_like(m), m)\n'
        'show(t)\n'
        't.backward(); print(a.grad)'),
    # torch.diag of a vector: its gradient is a view of g's diagonal (DiagonalBackward0 under create_graph, over dims
    # -2 and -1), not a copy
    "diag_of_a_vector_double_backward": (
        'a = torch.tensor([0.5, -1.5, -0.5], requires_grad=True)\n'
        'for k in [0, 1, -2]:\n'
        '    y = torch.diag(a, k).roll(1)\n'
        '    g, = torch.autograd.grad(y.pow(2).sum(), a, create_graph=True)\n'
        '    show(g)\n'
        '    print(torch.autograd.grad(g.sum(), a))'),
    # a learner's program over the pool (pinned): sort values and indices, gather by argsort, logcumsumexp,
    # clamp with tensor bounds, lerp / addcdiv, atan2 / hypot, and a second derivative
    "scans_selections_and_fused_ops_together": (
        'a = torch.tensor([[2.0, 0.5, 0.5], [-1.0, -2.0, 2.0]], dtype=torch.float64, requires_grad=True)\n'
        'b = torch.tensor([[0.5, -1.5, 0.0], [-2.0, -2.0, 3.0]], dtype=torch.float64, requires_grad=True)\n'
        'v, i = a.sort(1, descending=True)\n'
        'print(v, i, b.gather(1, a.argsort(1)))\n'
        'y = torch.clamp(v.logcumsumexp(1), b, b + 1).lerp(b, 0.25) + torch.addcdiv(a, b, b.exp(), value=3)\n'
        'z = torch.atan2(y, b.hypot(a)).kthvalue(2, 1).values\n'
        'show(z)\n'
        'g = torch.autograd.grad(z.pow(2).sum(), [a, b], create_graph=True)\n'
        'print(g, [t.grad_fn for t in g])\n'
        'print(torch.autograd.grad(sum((t * t).sum() for t in g), [a, b]))'),
}


@pytest.mark.parametrize("name", SNIPPETS)
def test_snippet(name):
    code = SHOW + SNIPPETS[name]
    t, e = run_both(T, E, code)
    assert same(t, e), f"\n{code}\n--- torch\n{t.summary()}--- engine\n{e.summary()}"
