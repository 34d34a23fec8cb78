"""Probes of the functions added in session 36 (index_reduce, igamma, mvlgamma, cumulative_trapezoid, the *_copy
functions, the rnn cells, binomial, histogram, native norms, lu_unpack / lu_solve, cholesky, inv, grid_sample,
ctc_loss) where learners meet autograd's rules: in-place variants, version counters of results, saved tensors
modified in place, integer / bool / 0-d / float16 inputs, the nodes' edges and the order of the argument checks,
against real PyTorch. Printed text, warnings and the final error must be the same."""
import pytest

T = pytest.importorskip("torch", reason="differential tests need real PyTorch (pip install torch==2.13.0)")
from .harness import SHOW, load_engine, run_both, same  # noqa: E402

E = load_engine()

SNIPPETS = {
    # index_reduce runs index_add's meta checks (index_func_meta_impl) named index_reduce_: source of self's dtype,
    # a vector index, as many indices as source has slices, dim within source; the reduce name is checked first
    "index_reduce_checks": (
        'import warnings\n'
        'warnings.simplefilter("ignore")\n'
        'for x in [torch.ones(3, 2, dtype=torch.float64), torch.ones(3, 2, requires_grad=True) * 1,\n'
        '          torch.ones(3, 2, dtype=torch.float16)]:\n'
        '    s = torch.ones(1, 2)\n'
        '    tries(lambda: x.index_reduce(0, torch.tensor([0]), s, "prod"),\n'
        '          lambda: x.index_reduce_(0, torch.tensor([0]), s.long(), "amax"),\n'
        '          lambda: torch.index_reduce(x, 0, torch.tensor([[0]]), s.to(x.dtype), "prod"),\n'
        '          lambda: x.index_reduce(0, torch.tensor([0, 1]), s.to(x.dtype), "mean"),\n'
        '          lambda: x.index_reduce(1, torch.tensor([0]), torch.ones(3, dtype=x.dtype), "amin"),\n'
        '          lambda: x.index_reduce(0, torch.tensor(0), torch.ones(2, dtype=x.dtype), "prod"),\n'
        '          lambda: x.index_reduce(0, torch.tensor([0]), s, "sum"),\n'
        '          lambda: x.index_reduce(0, torch.tensor([0.]), s, "prod"))\n'
        '    print(x._version, x.grad_fn)'),
    # igamma / igammac / poisson of 0-d tensors are 0-d tensors (igamma's node has an edge to self even though its
    # gradient is not implemented); mvlgamma refuses bool inputs before p, and its in-place form an integer self
    "zero_dim_gamma_poisson_mvlgamma": (
        'a = torch.tensor(2., requires_grad=True)\n'
        'for f in [lambda: torch.igamma(a, torch.tensor(3.)), lambda: torch.igammac(torch.tensor(3.), a),\n'
        '          lambda: torch.igamma(a.double(), torch.tensor(3.)), lambda: torch.poisson(a * 0),\n'
        '          lambda: torch.igammac(torch.tensor(2.), torch.tensor([3., 1.], requires_grad=True))]:\n'
        '    y = f()\n'
        '    show(y)\n'
        '    tries(lambda: torch.autograd.grad(y.sum(), a, allow_unused=True))\n'
        'for x in [torch.tensor([True, False]), torch.tensor([1, 2]), torch.tensor(3, dtype=torch.int8)]:\n'
        '    tries(lambda: torch.mvlgamma(x, 1), lambda: torch.mvlgamma(x, 0), lambda: x.mvlgamma_(1),\n'
        '          lambda: x.mvlgamma_(p=2), lambda: x.mvlgamma(2))\n'
        '    print(x._version)'),
    # cumulative_trapezoid with coordinates divides by 2. after the running sum: integers give floats
    "cumulative_trapezoid_integer_coordinates": (
        'for y in [torch.tensor([1, 2, 3]), torch.tensor([[1, 2, 3], [4, 5, 6]], dtype=torch.int8),\n'
        '          torch.tensor([1., 2., 3.], requires_grad=True)]:\n'
        '    for x in [torch.tensor([2, 1, 4]), torch.tensor([0, 1, 3], dtype=torch.int32),\n'
        '              torch.tensor([0., 1., 3.], dtype=torch.float64)]:\n'
        '        r = torch.cumulative_trapezoid(y, x)\n'
        '        show(r)\n'
        '        if r.requires_grad:\n'
        '            print(torch.autograd.grad(r.sum(), y))'),
    # slice_copy of a 0-d tensor: slice's own error
    "slice_copy_zero_dim": (
        'for t in [torch.tensor(2., requires_grad=True), torch.tensor(3)]:\n'
        '    tries(lambda: torch.slice_copy(t), lambda: torch.slice_copy(t, 0, 0, 1), lambda: t[None].slice_copy(0),\n'
        '          lambda: torch.slice_copy(t.reshape(1), 0, 0, 1))'),
    # torch.linalg.cholesky_ex checks as linalg.cholesky; the deprecated torch.cholesky checks as cholesky and leaves
    # the dtype to its kernel (NotImplementedError "cholesky_cpu"); inv / inv_ex refuse float16 by name
    "cholesky_and_inv_checks": (
        'import warnings\n'
        'warnings.simplefilter("ignore")\n'
        'a = torch.tensor([[4., 1.], [1., 3.]])\n'
        'for f in [torch.linalg.cholesky, torch.linalg.cholesky_ex, torch.cholesky, torch.linalg.inv,\n'
        '          torch.linalg.inv_ex, torch.inverse]:\n'
        '    tries(lambda: f(a[0]), lambda: f(a[:, :1]), lambda: f(a.long()), lambda: f(a.bool()),\n'
        '          lambda: f(a.half()), lambda: f(a.half()[:1]), lambda: f(a.long()[0]),\n'
        '          lambda: f(torch.empty(0, 0, dtype=torch.float16)), lambda: f(-a))'),
    # the cells run ATen's in-place steps: lstm_cell's c' is at version 1, gru_cell's h' at 2 (rnn cells' results at
    # 0); the results modified in place then fail or not as in PyTorch
    "rnn_cell_result_versions": (
        'torch.manual_seed(0)\n'
        'x = torch.randn(2, 3, requires_grad=True)\n'
        'h = torch.randn(2, 4, requires_grad=True)\n'
        'c = torch.randn(2, 4)\n'
        'wi, wh = torch.randn(16, 3), torch.randn(16, 4)\n'
        'for f in [lambda: torch.lstm_cell(x, (h, c), wi, wh), lambda: torch.gru_cell(x, h, wi[:12], wh[:12]),\n'
        '          lambda: torch.rnn_tanh_cell(x, h, wi[:4], wh[:4]),\n'
        '          lambda: torch.rnn_relu_cell(x, h, wi[:4], wh[:4], torch.ones(4), None),\n'
        '          lambda: torch.nn.GRUCell(3, 4)(x, h), lambda: torch.nn.LSTMCell(3, 4)(x[0]),\n'
        '          lambda: torch.nn.RNNCell(3, 4)(x)]:\n'
        '    r = f()\n'
        '    rs = r if isinstance(r, tuple) else (r,)\n'
        '    print([(t._version, t.grad_fn) for t in rs])\n'
        '    tries(lambda: rs[-1].mul_(2), lambda: sum(t.sum() for t in rs).backward(), lambda: x.grad.sum())\n'
        '    x.grad = None'),
    # the cells' argument checks in ATen's order (which differs by cell): lstm_cell wants two hidden states; the
    # weights' first dims are checked before the input size for rnn cells, after it for lstm, after hidden for gru
    "rnn_cell_argument_checks": (
        'x, h, c = torch.randn(2, 3), torch.randn(2, 4), torch.randn(2, 4)\n'
        'wi, wh = torch.randn(16, 3), torch.randn(16, 4)\n'
        'tries(lambda: torch.lstm_cell(x, (h,), wi, wh), lambda: torch.lstm_cell(x, (h, c, c), wi, wh),\n'
        '      lambda: torch.lstm_cell(x[:, :2], [h], wi, wh), lambda: torch.lstm_cell(x, (h, c), wi[:15], wh),\n'
        '      lambda: torch.lstm_cell(x, (h, c), wi, wh[:15]), lambda: torch.lstm_cell(x, (h, c), wi[:15], wh[:, :3]),\n'
        '      lambda: torch.lstm_cell(x[:, :2], (h, c), wi[:15], wh), lambda: torch.lstm_cell(x, (h[:1], c), wi[:15], wh),\n'
        '      lambda: torch.lstm_cell(x, (h, c[:1]), wi, wh[:15]),\n'
        '      lambda: torch.gru_cell(x, h, wi[:11], wh[:12]), lambda: torch.gru_cell(x, h, wi[:12], wh[:11]),\n'
        '      lambda: torch.gru_cell(x, h[:1], wi[:11], wh[:12]), lambda: torch.gru_cell(x[:, :2], h, wi[:11], wh[:12]),\n'
        '      lambda: torch.rnn_tanh_cell(x, h, wi[:5], wh[:4]), lambda: torch.rnn_relu_cell(x, h, wi[:4], wh[:5]),\n'
        '      lambda: torch.rnn_tanh_cell(x, h[:1], wi[:5], wh[:4]), lambda: torch.rnn_tanh_cell(x[:, :2], h, wi[:0], wh[:4]))'),
    # grid_sample's kernel dispatch refuses a non-float input before comparing the dtypes (3-d: grid_sampler3d_cpu);
    # ctc_loss's dispatch refuses float16 and integer log_probs before its shape and length checks
    "grid_sample_and_ctc_dtype_dispatch": (
        'F = torch.nn.functional\n'
        'inp, grid = torch.arange(16.).reshape(1, 1, 4, 4), torch.rand(1, 3, 3, 2)\n'
        'tries(lambda: F.grid_sample(inp.long(), grid, align_corners=False),\n'
        '      lambda: F.grid_sample(inp.int(), grid.int(), align_corners=False),\n'
        '      lambda: F.grid_sample(inp.bool(), grid.bool(), align_corners=False),\n'
        '      lambda: F.grid_sample(inp.long(), grid[..., :1], align_corners=False),\n'
        '      lambda: F.grid_sample(inp, grid.double(), align_corners=False),\n'
        '      lambda: F.grid_sample(inp.long().reshape(1, 1, 1, 4, 4), torch.zeros(1, 1, 3, 3, 3).long(),\n'
        '                            align_corners=False))\n'
        'lp = torch.randn(5, 2, 4).log_softmax(2)\n'
        'tg = torch.tensor([[1, 2], [3, 3]])\n'
        'for l in [lp.half(), lp.long(), lp.half().requires_grad_()]:\n'
        '    tries(lambda: F.ctc_loss(l, tg, [5, 5], [2, 2]), lambda: F.ctc_loss(l, tg, [5, 6], [2, 2]),\n'
        '          lambda: F.ctc_loss(l, tg, [5, 5], [2, 3]), lambda: F.ctc_loss(l[0], tg, [5, 5], [2, 2]),\n'
        '          lambda: F.ctc_loss(l, tg, [5, 5], [2, 2], blank=7), lambda: F.ctc_loss(l, tg.float(), [5, 5], [2, 2]),\n'
        '          lambda: F.ctc_loss(l, tg, torch.tensor([5., 5.]), torch.tensor([2, 2])))'),
    # a node PyTorch writes no derivative for (NotImplemented) has edges to the inputs that require grad only:
    # binomial's count or prob, histogram's input, bins tensor and weight (a weight alone is enough for a node)
    "not_implemented_nodes_edges": (
        'import itertools\n'
        'for xr, wr, br in itertools.product([False, True], repeat=3):\n'
        '    x = torch.tensor([1., 2., 3.], requires_grad=xr)\n'
        '    w = torch.ones(3, requires_grad=wr)\n'
        '    b = torch.tensor([0., 2., 4.], requires_grad=br)\n'
        '    for r in [torch.histogram(x, b, weight=w), torch.histogram(x, 2, weight=w), torch.histogram(x, b)]:\n'
        '        print(xr, wr, br, [(o.grad_fn, o.grad_fn and o.grad_fn.next_functions, o.requires_grad) for o in r])\n'
        '    if xr or br:\n'
        '        y = torch.binomial(x, b / 4)\n'
        '        print(y.grad_fn, y.grad_fn.next_functions)\n'
        '        tries(lambda: y.sum().backward())'),
    # lu_unpack checks the pivots' values (only when it unpacks them), lu_solve its own way (not for an empty B);
    # lu_factor's backward unpacks its pivots, so pivots modified through .data fail there; LuUnpackBackward0 of a
    # square LU computes U's part (triu) before L's
    "lu_pivots_checks_and_unpack_backward": (
        'import warnings\n'
        'warnings.simplefilter("ignore")\n'
        'LU, p = torch.linalg.lu_factor(torch.tensor([[4., 1.], [1., 3.]]))\n'
        'for q in ([0, 3], [2, 3], [0, 1], [2, 2]):\n'
        '    q = torch.tensor(q, dtype=torch.int32)\n'
        '    tries(lambda: torch.lu_unpack(LU, q, unpack_pivots=False), lambda: torch.lu_unpack(LU, q)[0],\n'
        '          lambda: torch.lu_unpack(LU, q, unpack_data=False).P, lambda: torch.linalg.lu_solve(LU, q, torch.ones(2, 1)),\n'
        '          lambda: torch.lu_solve(torch.ones(2, 1), LU, q), lambda: torch.linalg.lu_solve(LU, q, torch.ones(2, 0)))\n'
        'for k in range(2):\n'
        '    a = torch.tensor([[4., 1.], [1., 3.]], requires_grad=True)\n'
        '    LU, p = torch.linalg.lu_factor_ex(a)[:2] if k else torch.linalg.lu_factor(a)\n'
        '    p.data.add_(1)\n'
        '    tries(lambda: LU.sum().backward(), lambda: a.grad)\n'
        'a = torch.tensor([[3., 1.], [1., 2.]], requires_grad=True)\n'
        'P, L, U = torch.lu_unpack(*torch.linalg.lu_factor(a), unpack_data=False)\n'
        'show(L)\n'
        'tries(lambda: (L.sum() + U.sum()).backward(), lambda: L.sum().backward(), lambda: a.grad)'),
    # native_layer_norm / native_batch_norm return the very mean and rstd their node saved: modified in place, the
    # backward's version check fails (no "output of" in the message: they have no grad_fn); through .data not
    "native_norm_statistics_are_saved": (
        'for f in [lambda a: torch.native_layer_norm(a, [2], None, None, 1e-5),\n'
        '          lambda a: torch.native_batch_norm(a, None, None, None, None, True, 0.1, 1e-5)]:\n'
        '    for k in (1, 2):\n'
        '        for how in ["add_", "data", "none"]:\n'
        '            a0 = torch.tensor([[4., 1.], [1., 3.]], dtype=torch.float64, requires_grad=True)\n'
        '            r = f(a0 * 1)\n'
        '            print([(t._version, t.requires_grad, t.grad_fn) for t in r])\n'
        '            if how == "add_":\n'
        '                r[k].add_(1)\n'
        '            elif how == "data":\n'
        '                r[k].data.mul_(1)\n'
        '            print(r[k]._version)\n'
        '            tries(lambda: r[0].pow(2).sum().backward(), lambda: a0.grad)'),
    # out= forms: histogram checks its outs' dtypes first (hist, then bin_edges), then the bins' dtype; its outs are
    # written once each (bin_edges resized first) and both recorded as output 0 of one NotImplemented node whose edges
    # reach the outs' own history; frexp words its outs' dtype errors its own way; renorm is a structured op
    "out_forms_histogram_frexp_renorm": (
        'x = torch.tensor([[1., 2.], [3., 4.]], requires_grad=True)\n'
        'o = (torch.empty(0), torch.ones(1))\n'
        'for b in [2, torch.tensor([0., 2., 5.])]:\n'
        '    r = torch.histogram(x, b, out=o)\n'
        '    print(r, r[0] is o[0], [(t._version, t.output_nr, len(t.grad_fn.next_functions)) for t in o])\n'
        '    print(o[0].grad_fn is o[1].grad_fn)\n'
        'x = x.detach()\n'
        'e, f64 = torch.empty(0), torch.empty(0, dtype=torch.float64)\n'
        'tries(lambda: torch.histogram(x.long(), 2, out=(e, e)), lambda: torch.histogram(x, 2, out=(e, f64)),\n'
        '      lambda: torch.histogram(x, 2, out=(f64, e)), lambda: torch.histogram(x, 2, out=(e, e, e)),\n'
        '      lambda: torch.histogram(x.half(), 2, out=(e.half(), e.half())),\n'
        '      lambda: torch.histogram(x, torch.tensor([0., 2., 5.]).double(), out=(e, e)),\n'
        '      lambda: torch.histogram(x, torch.tensor([0., 2., 5.]).double()),\n'
        '      lambda: torch.frexp(x.half(), out=(torch.empty(2, 2), torch.empty(2, 2, dtype=torch.int32))),\n'
        '      lambda: torch.frexp(x, out=(torch.empty(2, 2), torch.empty(2, 2, dtype=torch.long))),\n'
        '      lambda: torch.frexp(x.long(), out=(torch.empty(2, 2), torch.empty(2, 2))),\n'
        '      lambda: torch.renorm(x.double(), 2, 0, 1., out=torch.empty(2, 2)),\n'
        '      lambda: torch.renorm(x.half(), 2, 0, 1., out=torch.empty(2, 2)),\n'
        '      lambda: torch.renorm(x, -1, 0, 1., out=torch.empty(2, 2).long()),\n'
        '      lambda: torch.renorm(x, 2, 0, 1., out=torch.empty(2, 2)))'),
    # create_graph through the new ops' backward: affine_grid's is ATen's base^T bmm grad, transposed (a
    # non-contiguous gradient, reshaped as an alias by the view's backward); embedding_bag's weight gradient is
    # recorded as EmbeddingBagBackwardBackward0 and its per_sample_weights' one as NotImplemented, neither
    # differentiable again
    "double_backward_affine_grid_embedding_bag": (
        'x = torch.tensor([[0.9, 0.2, 0.3], [0.1, 0.8, 0.4]], dtype=torch.float64, requires_grad=True)\n'
        'for size in [(1, 1, 2, 2), (1, 2, 1, 3, 2)]:\n'
        '    th = x.reshape(1, 2, 3) if len(size) == 4 else torch.cat([x, x[:1]]).repeat(1, 2)[:, :4].reshape(1, 3, 4)\n'
        '    y = torch.nn.functional.affine_grid(th, size, align_corners=False)\n'
        '    g, = torch.autograd.grad((y ** 2).sum(), x, create_graph=True)\n'
        '    show(g)\n'
        '    print(g.stride(), g.grad_fn.next_functions[0][0].next_functions)\n'
        '    print(torch.autograd.grad(g.sum(), x))\n'
        'for mode in ("max", "sum", "mean"):\n'
        '    for psw in [None, torch.tensor([1., 2.], dtype=torch.float64, requires_grad=True)]:\n'
        '        if psw is not None and mode != "sum":\n'
        '            continue\n'
        '        y = torch.nn.functional.embedding_bag(torch.tensor([0, 1]), x, torch.tensor([0]), mode=mode,\n'
        '                                              per_sample_weights=psw)\n'
        '        for g in torch.autograd.grad((y ** 2).sum(), [x] + ([psw] if psw is not None else []), create_graph=True):\n'
        '            show(g)\n'
        '            tries(lambda: torch.autograd.grad(g.sum(), x, allow_unused=True))'),
}


@pytest.mark.parametrize("name", SNIPPETS)
def test_snippet(name):
    code = SHOW + SNIPPETS[name]
    t, e = run_both(T, E, code)
    assert same(t, e), f"\n{code}\n--- torch\n{t.summary()}--- engine\n{e.summary()}"
