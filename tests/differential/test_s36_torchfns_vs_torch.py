"""torch.* functions and Tensor methods PyTorch 2.13 has that the engine lacked before session 36, against real
PyTorch: the functional forms at top level (torch.batch_norm, torch.dropout, torch.kl_div, torch.convolution, the
RNN cells, the native_* forms returning their statistics, channel_shuffle), math (gcd, lcm, frexp, gradient,
cumulative_trapezoid, vander, combinations, renorm, mvlgamma, igamma, matrix_exp, histogram, lu, lu_unpack,
lu_solve, index_reduce), the windows, the *_copy views and the small ones (fill, nonzero_static, empty_permuted,
binomial, poisson, set_flush_denormal). Printed values, grad_fn names, saved attributes, gradients and errors must
be the same."""
import pytest

T = pytest.importorskip("torch", reason="differential tests need real PyTorch (pip install torch==2.13.0)")
from .harness import SHOW, load_engine, run_both, same  # noqa: E402

E = load_engine()

# each result (a tuple's items too) shown with its grad_fn and saved attributes
SH = ('def sh(r):\n'
      '    for y in (r if isinstance(r, tuple) else [r]):\n'
      '        show(y) if isinstance(y, torch.Tensor) else print(y)\n'
      '    print(type(r).__name__)\n'
      '    return ""\n')

SNIPPETS = {
    # torch.batch_norm / layer_norm / group_norm / instance_norm / rms_norm take the C++ op's arguments (batch_norm's
    # nine all required, cudnn_enabled included), checked by the argument parser; the same nodes as F's
    "norms_at_top_level": (
        SH +
        'torch.manual_seed(0)\n'
        'x = torch.randn(4, 3, requires_grad=True)\n'
        'w, b = torch.ones(3, requires_grad=True), torch.zeros(3, requires_grad=True)\n'
        'rm, rv = torch.zeros(3), torch.ones(3)\n'
        'tries(lambda: sh(torch.batch_norm(x, w, b, rm, rv, True, 0.1, 1e-5, False)), lambda: rm,\n'
        '      lambda: sh(torch.batch_norm(x, w, b, rm, rv, False, 0.1, 1e-5, True)),\n'
        '      lambda: torch.batch_norm(x, w, b, None, None, 1, 0.1, 1e-5, False),\n'
        '      lambda: torch.batch_norm(x, w, b, None, None, True, 0.1, 1e-5), lambda: torch.batch_norm(x),\n'
        '      lambda: sh(torch.layer_norm(x, (3,), w, b, 1e-3, False)), lambda: torch.layer_norm(x, "a"),\n'
        '      lambda: sh(torch.group_norm(x.view(2, 6, 1), 3)), lambda: torch.group_norm(x, 1.5),\n'
        '      lambda: sh(torch.instance_norm(x.view(2, 2, 3), None, None, None, None, True, 0.1, 1e-5, False)),\n'
        '      lambda: torch.instance_norm(x.view(2, 2, 3), None, None, None, None, 1, 0.1, 1e-5, False),\n'
        '      lambda: sh(torch.rms_norm(x, [3], w, 1e-3)), lambda: torch.rms_norm(x, 3, None, "a"))\n'
        'torch.batch_norm(x, w, b, None, None, True, 0.1, 1e-5, False).pow(2).sum().backward()\n'
        'print(x.grad, w.grad, b.grad)'),
    # native_layer_norm / native_batch_norm give (output, mean, rstd): the statistics without grad_fn, but
    # native_group_norm's, outputs 1 and 2 of its node; native_batch_norm in eval gives empty statistics
    "native_norms_return_statistics": (
        SH +
        'torch.manual_seed(0)\n'
        'x = torch.randn(4, 3, requires_grad=True)\n'
        'w = torch.ones(3, requires_grad=True)\n'
        'tries(lambda: sh(torch.native_layer_norm(x, [3], w, None, 1e-5)),\n'
        '      lambda: sh(torch.native_layer_norm(x.detach(), [3], None, None, 1e-5)),\n'
        '      lambda: torch.native_layer_norm(x, [3]),\n'
        '      lambda: sh(torch.native_batch_norm(x, w, None, torch.zeros(3), torch.ones(3), True, 0.1, 1e-5)),\n'
        '      lambda: sh(torch.native_batch_norm(x, w, None, torch.zeros(3), torch.ones(3), False, 0.1, 1e-5)),\n'
        '      lambda: sh(torch.native_batch_norm(x.detach(), None, None, None, None, True, 0.1, 1e-5)),\n'
        '      lambda: sh(torch.native_group_norm(x.view(2, 6, 1), None, None, 2, 6, 1, 3, 1e-5)),\n'
        '      lambda: [t.output_nr for t in torch.native_group_norm(x.view(2, 6, 1), None, None, 2, 6, 1, 3, 1e-5)],\n'
        '      lambda: torch.native_group_norm(x.view(2, 6, 1), None, None, 2, 6, 2, 3, 1e-5))'),
    # torch.dropout and co. take (input, p, train), all required; p out of [0, 1] is a RuntimeError (F's is a
    # ValueError); native_dropout returns (output, bool mask), one NativeDropoutBackward0 saving the mask and p, a
    # copy and a mask of ones when not training; its p out of range is bernoulli_'s error; halves are scaled by the
    # mask's 1 / (1 - p) computed in float
    "dropouts_at_top_level": (
        SH +
        'torch.manual_seed(0)\n'
        'x = torch.randn(4, 3, requires_grad=True)\n'
        'tries(lambda: sh(torch.native_dropout(x, 0.5, True)), lambda: sh(torch.native_dropout(x, 0.5, False)),\n'
        '      lambda: sh(torch.native_dropout(x, 1.0, True)), lambda: torch.native_dropout(x, 1.5, True),\n'
        '      lambda: torch.native_dropout(torch.ones(3, dtype=torch.long), 0.5, True),\n'
        '      lambda: torch.dropout(x, 0.5, False) is x, lambda: torch.dropout(x, 1.5, True),\n'
        '      lambda: torch.dropout(x, 0.5, 1), lambda: torch.dropout(x, 0.5),\n'
        '      lambda: sh(torch.alpha_dropout(x, 0.5, True)), lambda: torch.alpha_dropout(x, -0.1, True),\n'
        '      lambda: sh(torch.feature_dropout(x.view(2, 2, 3), 0.5, True)),\n'
        '      lambda: torch.feature_dropout(x.view(12), 0.5, True),\n'
        '      lambda: torch.feature_alpha_dropout_(x.detach().clone().view(2, 2, 3), 0.5, True),\n'
        '      lambda: torch.dropout_(x, 0.5, True), lambda: torch.dropout((x * 3).half(), 0.3, True))\n'
        'y, m = torch.native_dropout(x, 0.25, True)\n'
        'y.sum().backward()\n'
        'print(x.grad)\n'
        'g, = torch.autograd.grad(torch.native_dropout(x, 0.25, True)[0].pow(2).sum(), x, create_graph=True)\n'
        'print(g, g.grad_fn, torch.autograd.grad(g.sum(), x))'),
    # the torch.* losses take reductions as ints, whose default (Mean in the schema) the parser reads as 0: no
    # reduction; no Python checks of F's (margin_ranking_loss broadcasts, bce_with_logits's shapes are its kernel's
    # error); kl_div without F's warning or 'batchmean'
    "losses_at_top_level": (
        SH +
        'torch.manual_seed(0)\n'
        'x = torch.randn(4, 3, requires_grad=True)\n'
        't = torch.rand(4, 3)\n'
        'tries(lambda: sh(torch.kl_div(x, t)), lambda: sh(torch.kl_div(x, t, 1, log_target=True)),\n'
        '      lambda: torch.kl_div(x, t, "mean"), lambda: torch.kl_div(x, t.long()),\n'
        '      lambda: sh(torch.binary_cross_entropy_with_logits(x, t)),\n'
        '      lambda: sh(torch.binary_cross_entropy_with_logits(x, t, torch.ones(3), torch.ones(3), 2)),\n'
        '      lambda: torch.binary_cross_entropy_with_logits(x, t[0]), lambda: torch.binary_cross_entropy_with_logits(x, t, 1),\n'
        '      lambda: sh(torch.margin_ranking_loss(x, x[1], torch.ones(3))),\n'
        '      lambda: torch.margin_ranking_loss(torch.tensor([1, 2]), torch.tensor([2, 0]), torch.tensor([1, -1]), 0.1, 1),\n'
        '      lambda: torch.margin_ranking_loss(x.bool(), x.bool(), x.bool()),\n'
        '      lambda: sh(torch.hinge_embedding_loss(x, -torch.ones(4, 3), 0.5, 2)),\n'
        '      lambda: sh(torch.cosine_embedding_loss(x, x * 2, torch.tensor([1., -1, 1, -1]), 0.5, 1)),\n'
        '      lambda: sh(torch.poisson_nll_loss(x.exp(), t * 3, False, True, 1e-8, 0)), lambda: torch.poisson_nll_loss(x, t),\n'
        '      lambda: sh(torch.triplet_margin_loss(x, x + 1, x * 2, 1.0, 1, 1e-6, True, 1)),\n'
        '      lambda: torch.triplet_margin_loss(x, x, x, "a"))'),
    # constant_pad_nd's own messages (not F.pad's); convolution takes lists only, batched inputs only, saves a None
    # bias as None; the RNN cells as _VF's; channel_shuffle's node saves groups, native_channel_shuffle's has no
    # derivative
    "pad_convolution_cells_shuffle": (
        SH +
        'torch.manual_seed(0)\n'
        'x = torch.randn(4, 3, requires_grad=True)\n'
        'tries(lambda: sh(torch.constant_pad_nd(x, (1, 2, 0, 1), 3)), lambda: torch.constant_pad_nd(x, [1]),\n'
        '      lambda: torch.constant_pad_nd(x, [1, 1, 1, 1, 1, 1]), lambda: torch.constant_pad_nd(x, "a"),\n'
        '      lambda: sh(torch.convolution(torch.ones(1, 1, 3, requires_grad=True), torch.ones(1, 1, 2), None, [1], [0],\n'
        '                                   [1], False, [0], 1)),\n'
        '      lambda: sh(torch.convolution(torch.ones(1, 1, 3, requires_grad=True), torch.ones(1, 1, 2), torch.ones(1),\n'
        '                                   [1], [1], [1], True, [0], 1)),\n'
        '      lambda: torch.convolution(torch.ones(1, 1, 3), torch.ones(1, 1, 2), None, 1, 0, 1, False, 0, 1),\n'
        '      lambda: torch.convolution(torch.ones(1, 3), torch.ones(1, 1, 2), None, [1], [0], [1], False, [0], 1),\n'
        '      lambda: sh(torch.lstm_cell(x[:2], (torch.ones(2, 4), torch.ones(2, 4)), torch.ones(16, 3) / 8,\n'
        '                                 torch.ones(16, 4) / 8)),\n'
        '      lambda: sh(torch.gru_cell(x[:2], torch.ones(2, 4), torch.ones(12, 3) / 8, torch.ones(12, 4) / 8)),\n'
        '      lambda: torch.lstm_cell(x[:2], torch.ones(2, 4), torch.ones(16, 3), torch.ones(16, 4)),\n'
        '      lambda: torch.rnn_tanh_cell(x[:2], torch.ones(2, 4), torch.ones(4, 3), torch.ones(4, 4), 1),\n'
        '      lambda: sh(torch.channel_shuffle(torch.arange(8.).view(1, 4, 2).requires_grad_(), 2)),\n'
        '      lambda: torch.channel_shuffle(torch.arange(8.).view(1, 4, 2), 3),\n'
        '      lambda: torch.channel_shuffle(torch.arange(8.).view(4, 2), 2),\n'
        '      lambda: torch.channel_shuffle(torch.arange(8.).view(1, 4, 2), 0),\n'
        '      lambda: torch.native_channel_shuffle(torch.arange(8.).view(1, 4, 2).requires_grad_(), 2).sum().backward())\n'
        'm = torch.nn.LSTM(3, 4, num_layers=2, bidirectional=True)\n'
        'g = torch.nn.GRU(3, 4, batch_first=True)\n'
        's = torch.randn(5, 2, 3, requires_grad=True)\n'
        'h = torch.zeros(4, 2, 4)\n'
        'tries(lambda: [t.grad_fn for t in torch.lstm(s, (h, h), m._flat_weights, True, 2, 0.0, True, True, False)],\n'
        '      lambda: torch.gru(s, torch.zeros(1, 5, 4), g._flat_weights, True, 1, 0.0, True, False, True),\n'
        '      lambda: torch.rnn_tanh(s, h[:1], g._flat_weights[:2], False, 1.5, 0.0, False, False, False),\n'
        '      lambda: torch.lstm(s, h, m._flat_weights, True, 2, 0.0, True, True, False))'),
    # gcd / lcm: integer tensors only (other a tensor), lcm's overflow wraps as C's does; frexp's namedtuple, its
    # int32 exponent saved by FrexpBackward0; torch.ldexp_
    "gcd_lcm_frexp": (
        SH +
        'a, b = torch.tensor([12, -18, 0, 7]), torch.tensor([8, 12, 0, -21])\n'
        'v = torch.tensor([1., 0.5, 3., -7.], requires_grad=True)\n'
        'tries(lambda: torch.gcd(a, b), lambda: torch.lcm(a, b), lambda: torch.gcd(a, 4), lambda: a.gcd(4),\n'
        '      lambda: torch.gcd(a.float(), b.float()), lambda: torch.lcm(a.bool(), b.bool()),\n'
        '      lambda: torch.gcd(a.to(torch.uint8), b.to(torch.int8)), lambda: a.clone().gcd_(b), lambda: torch.lcm_(a.clone(), b),\n'
        '      lambda: a.int().lcm_(b.float()), lambda: torch.lcm(torch.tensor([2**40]), torch.tensor([3**20])),\n'
        '      lambda: torch.gcd(a, b.view(4, 1)), lambda: torch.gcd(a, b, out=torch.empty(4, dtype=torch.long)),\n'
        '      lambda: sh(torch.frexp(v)), lambda: torch.frexp(torch.tensor([0., float("inf"), float("nan"), -0.])),\n'
        '      lambda: torch.frexp(torch.tensor([1, 2])), lambda: v.frexp(1), lambda: torch.frexp(v.half()),\n'
        '      lambda: torch.ldexp_(torch.tensor([1., 2.]), torch.tensor([2, 3])),\n'
        '      lambda: torch.ldexp_(torch.tensor([1, 2]), torch.tensor([2, 3])))\n'
        'torch.frexp(v).mantissa.sum().backward()\n'
        'print(v.grad)'),
    # torch.gradient composes slices, divisions by the spacing (DivBackward1 for a number, tensor ops for
    # coordinates) and a cat; its checks; spacing given by position is the parser's error
    "gradient": (
        SH +
        'x = torch.tensor([[1., 2., 4.], [3., 5., 9.]], requires_grad=True)\n'
        'tries(lambda: sh(torch.gradient(x)), lambda: sh(torch.gradient(x, spacing=2.0, dim=1, edge_order=2)),\n'
        '      lambda: sh(torch.gradient(x, spacing=[torch.tensor([0., 1.]), torch.tensor([0., 1., 3.])])),\n'
        '      lambda: sh(torch.gradient(x, spacing=[torch.tensor([0., 1., 3.])], dim=1, edge_order=2)),\n'
        '      lambda: torch.gradient(torch.tensor([1, 2, 4])), lambda: torch.gradient(torch.tensor([True, False])),\n'
        '      lambda: torch.gradient(torch.tensor([1., 2.]), edge_order=2), lambda: torch.gradient(x, spacing=[1., 2., 3.]),\n'
        '      lambda: torch.gradient(x, spacing=[1.], dim=(0, 1)), lambda: torch.gradient(x, edge_order=3),\n'
        '      lambda: torch.gradient(x, dim=(1, 1)), lambda: torch.gradient(x, 2.0),\n'
        '      lambda: torch.gradient(torch.tensor([1, 2], dtype=torch.uint8)))\n'
        'torch.gradient(x, edge_order=2)[1].pow(2).sum().backward()\n'
        'print(x.grad)'),
    # cumulative_trapezoid as ATen composes it (MulBackward1 and a cumsum saving the dim as given; with coordinates
    # DivBackward1 last); vander: ones, copies into slices (CopySlices), a cumprod, a flip; combinations: meshgrid,
    # masked_select, stack
    "trapezoid_vander_combinations": (
        SH +
        'x = torch.tensor([[1., 2., 4.], [3., 5., 9.]], requires_grad=True)\n'
        'v = torch.tensor([1., 2., 3.], requires_grad=True)\n'
        'tries(lambda: sh(torch.cumulative_trapezoid(x)), lambda: sh(torch.cumulative_trapezoid(x, dx=2., dim=0)),\n'
        '      lambda: sh(torch.cumulative_trapezoid(x, torch.tensor([0., 1., 3.]))),\n'
        '      lambda: torch.cumulative_trapezoid(torch.tensor([1, 2, 4])), lambda: torch.cumulative_trapezoid(x, 2),\n'
        '      lambda: torch.cumulative_trapezoid(torch.tensor(1.)), lambda: torch.cumulative_trapezoid(x, torch.tensor([0., 1.])),\n'
        '      lambda: torch.cumulative_trapezoid(torch.tensor([True, False])),\n'
        '      lambda: sh(torch.vander(v, 3, True)), lambda: sh(torch.vander(v)), lambda: torch.vander(torch.tensor([1, 2, 3])),\n'
        '      lambda: torch.vander(torch.tensor([True, False])), lambda: torch.vander(v, -1), lambda: torch.vander(x),\n'
        '      lambda: torch.vander(v, 4).sum().backward(),\n'
        '      lambda: sh(torch.combinations(v, 2)), lambda: sh(torch.combinations(v, 3, True)),\n'
        '      lambda: torch.combinations(torch.tensor([1, 2, 3]), 0), lambda: torch.combinations(torch.tensor([1, 2, 3]), 4),\n'
        '      lambda: torch.combinations(x), lambda: torch.combinations(v, -1))\n'
        'torch.combinations(v, 2, True).prod(1).sum().backward()\n'
        'print(v.grad)'),
    # renorm (RenormBackward0 saving dim as given, p and maxnorm as given; the norm in float for halves), mvlgamma
    # (no check of the elements), igamma / igammac (no derivative for input: saved tensors only when other needs
    # its gradient)
    "renorm_mvlgamma_igamma": (
        SH +
        'x = torch.tensor([[1., 2., 4.], [3., 5., 9.]], requires_grad=True)\n'
        'tries(lambda: sh(torch.renorm(x, 2, -1, 5.)), lambda: sh(x.renorm(1, 1, 5)),\n'
        '      lambda: x.detach().renorm_(float("inf"), 0, 3.), lambda: torch.renorm(x, -1, 0, 1.),\n'
        '      lambda: torch.renorm(x, 2, 0, -1.), lambda: torch.renorm(x.long(), 2, 0, 1), lambda: torch.renorm(torch.ones(3), 2, 0, 1.),\n'
        '      lambda: torch.renorm(x, 2, 2, 1.), lambda: torch.renorm(x.half() * 3, 2, 0, 1.),\n'
        '      lambda: sh(torch.mvlgamma(x, 3)), lambda: torch.mvlgamma(x.long() + 3, 1), lambda: (x.detach() + 3).mvlgamma_(3),\n'
        '      lambda: torch.mvlgamma(x + 3, 0), lambda: x.mvlgamma(),\n'
        '      lambda: sh(torch.igamma(x, x.detach() + 1)), lambda: sh(torch.igammac(x.detach(), x + 1)),\n'
        '      lambda: torch.igamma(x.long(), x.long()), lambda: torch.igamma(x.detach(), 2),\n'
        '      lambda: x.detach().igamma_(x.detach()), lambda: x.detach().long().igamma_(x.detach()),\n'
        '      lambda: torch.igamma(x, x.detach()).sum().backward(),\n'
        '      lambda: torch.igamma(torch.tensor([0., 1., -1., 2., float("inf"), 3.]), torch.tensor([1., 0., 1., float("inf"), 2., 100.])))\n'
        'for f in (lambda t: torch.renorm(t, 2, 0, 5.), lambda t: torch.renorm(t, 3, 1, 2.), lambda t: torch.mvlgamma(t, 2),\n'
        '          lambda t: torch.igammac(x.detach() + 0.5, t)):\n'
        '    t = x.detach().double().requires_grad_()\n'
        '    g, = torch.autograd.grad(f(t).sum(), t, create_graph=True)\n'
        '    print(g, torch.autograd.grad(g.pow(2).sum(), t)[0])'),
    # matrix_exp: LinalgMatrixExpBackward0 (torch.matrix_exp, Tensor.matrix_exp and torch.linalg.matrix_exp), its
    # gradient the exponential of a block matrix (differentiable again); its checks
    "matrix_exp": (
        SH +
        'a = torch.tensor([[0., 1.], [-1., 0.]], requires_grad=True)\n'
        'tries(lambda: sh(torch.matrix_exp(a)), lambda: sh(torch.linalg.matrix_exp(a * 2)),\n'
        '      lambda: torch.matrix_exp(torch.ones(2, 3)), lambda: torch.matrix_exp(torch.ones(2, 2).long()),\n'
        '      lambda: torch.matrix_exp(torch.tensor([[1., 2.], [3., 4.]]).double()), lambda: torch.matrix_exp(torch.zeros(3, 2, 2)),\n'
        '      lambda: torch.matrix_exp(torch.tensor(2.)), lambda: a.matrix_exp(1), lambda: torch.matrix_exp(torch.ones(0, 0)))\n'
        't = torch.tensor([[0.3, -1.2, 0.5], [2.0, 0.1, -0.7], [0.4, 0.9, -0.2]], dtype=torch.float64, requires_grad=True)\n'
        'g, = torch.autograd.grad(torch.matrix_exp(t).sum(), t, create_graph=True)\n'
        'print(g, g.grad_fn, torch.autograd.grad(g.pow(2).sum(), t)[0])'),
    # histogram / histogramdd: float32 and float64 only, their namedtuples, NotImplemented nodes for an input that
    # requires grad, the edges of an empty or constant input, the checks and the parser's overloads
    "histograms": (
        'x = torch.tensor([1., 2, 1, 4])\n'
        'tries(lambda: torch.histogram(x, 4), lambda: torch.histogram(x, torch.tensor([0., 1, 2.5, 5]), weight=torch.ones(4), density=True),\n'
        '      lambda: torch.histogram(x, 3, range=(0., 3.)), lambda: torch.histogram(torch.tensor([1, 2]), 3),\n'
        '      lambda: torch.histogram(x.half(), 3), lambda: torch.histogram(x.requires_grad_(), 2),\n'
        '      lambda: torch.histogram(torch.tensor([5., 5.]), 2), lambda: torch.histogram(torch.tensor([]), 2),\n'
        '      lambda: torch.histogram(x, -1), lambda: torch.histogram(x, 2, range=(3., 1.)), lambda: torch.histogram(x, "a"),\n'
        '      lambda: torch.histogram(torch.tensor([1., float("nan")]), 2), lambda: torch.histogram(x, 2, weight=torch.ones(3)),\n'
        '      lambda: torch.histogramdd(torch.tensor([[0., 1.], [1., 0.], [2., 0.], [2., 2.]]), bins=[3, 3], weight=torch.tensor([1., 2., 4., 8.])),\n'
        '      lambda: torch.histogramdd(torch.tensor([[0., 0.], [1., 1.], [2., 2.]]), [torch.tensor([0., 1, 3]), torch.tensor([0., 2, 3])]),\n'
        '      lambda: torch.histogramdd(torch.tensor([[0., 0.], [1., 1.], [2., 2.]], requires_grad=True), 2),\n'
        '      lambda: torch.histogramdd(x.view(2, 2), [2, 2, 2]), lambda: torch.histogramdd(x.view(2, 2), 2.5),\n'
        '      lambda: torch.histogram(x.requires_grad_(), 2).hist.sum().backward())'),
    # torch.lu (Python, deprecated: its warning once), Tensor.lu's plain tuples, lu_unpack's LuUnpackBackward0
    # (empty parts not unpacked), lu_solve (deprecated, linalg.lu_solve's node)
    "lu_family": (
        SH +
        'A = torch.tensor([[1., 2.], [3., 4.]], requires_grad=True)\n'
        'R = torch.tensor([[1., 2., 3.], [4., 5., 6.]], requires_grad=True)\n'
        'tries(lambda: sh(torch.lu(A)), lambda: sh(torch.lu(A, get_infos=True)), lambda: sh(A.lu(get_infos=True)),\n'
        '      lambda: torch.lu(A, pivot=False), lambda: torch.lu(torch.zeros(2, 2)), lambda: torch.lu(torch.ones(3)),\n'
        '      lambda: sh(torch.lu_unpack(*torch.lu(A))), lambda: sh(torch.lu_unpack(*torch.lu(A), False, False)),\n'
        '      lambda: torch.lu_unpack(torch.lu(A)[0], torch.lu(A)[1].long()),\n'
        '      lambda: sh(torch.lu_solve(torch.ones(2, 1), *torch.lu(A))), lambda: torch.lu_solve(torch.ones(2), *torch.lu(A)))\n'
        'for M in (A, R, R.t()):\n'
        '    P, L, U = torch.lu_unpack(*torch.linalg.lu_factor(M))\n'
        '    (L.pow(2).sum() + U.pow(3).sum()).backward()\n'
        'print(A.grad, R.grad)'),
    # index_reduce (a beta warning, once): prod / mean / amax / amin with or without self, its checks, integer
    # means floored, and IndexReduceBackward0's gradients
    "index_reduce": (
        SH +
        'x = torch.tensor([[1.5, -2., 3.], [0.5, 1., 2.], [4.5, 5.5, -6.]], requires_grad=True)\n'
        'src = torch.tensor([[1., 2., 3.5], [4., -5., 6.], [7.5, 8., 9.], [0.25, 1.5, -2.]], requires_grad=True)\n'
        'idx = torch.tensor([0, 2, 0, 1])\n'
        'for red in ["prod", "mean", "amax", "amin"]:\n'
        '    for inc in [True, False]:\n'
        '        y = x.index_reduce(0, idx, src, red, include_self=inc)\n'
        '        sh(y)\n'
        '        print(torch.autograd.grad(y.pow(2).sum(), (x, src)))\n'
        'tries(lambda: x.index_reduce(0, idx, src, "sum"), lambda: x.index_reduce(0, idx.float(), src, "mean"),\n'
        '      lambda: x.index_reduce(0, idx, src[:, :2], "mean"), lambda: x.index_reduce(0, torch.tensor([0, 9, 1, 1]), src, "amax"),\n'
        '      lambda: x.index_reduce_(0, idx, src, "mean"), lambda: x.index_reduce(0, idx, src, "mean", True),\n'
        '      lambda: torch.ones(5, dtype=torch.long).index_reduce(0, torch.tensor([0, 0, 1]), torch.tensor([3, 4, 5]), "mean"),\n'
        '      lambda: torch.ones(3, dtype=torch.bool).index_reduce(0, torch.tensor([0]), torch.tensor([False]), "amax", include_self=False))'),
    # windows (float32 steps as ATen's; periodic ones computed one longer), the *_copy ops (a contiguous copy whose
    # node is the view's, renamed <View>_copy; slice_copy saves an omitted start / end as None; detach_copy has no
    # derivative), fill, nonzero_static, empty_permuted, new_empty_strided, binomial / poisson (dtypes, shapes,
    # errors, nodes), set_flush_denormal, set_warn_always
    "windows_copies_and_small_ones": (
        SH +
        'x = torch.arange(6.).view(2, 3).requires_grad_()\n'
        'tries(lambda: torch.hann_window(5), lambda: torch.hann_window(5, False), lambda: torch.hann_window(4)._base is None,\n'
        '      lambda: torch.hann_window(4, dtype=torch.long), lambda: torch.hann_window(-1), lambda: torch.hann_window(2.5),\n'
        '      lambda: torch.kaiser_window(6, False, 5.0), lambda: torch.bartlett_window(7), lambda: torch.blackman_window(8),\n'
        '      lambda: torch.hamming_window(5, False, 0.5, 0.3), lambda: torch.hann_window(4, dtype=torch.float64, requires_grad=True),\n'
        '      lambda: sh(torch.view_copy(x, (3, 2))), lambda: torch.view_copy(x, 6), lambda: sh(torch.t_copy(x)),\n'
        '      lambda: sh(torch.slice_copy(x)), lambda: sh(torch.slice_copy(x, 1, None, None, 2)),\n'
        '      lambda: sh(torch.select_copy(x, 0, 1)), lambda: sh(torch.select_copy(x[0], 0, 1)),\n'
        '      lambda: torch.histogram(x.detach(), 2, out=(torch.empty(0), torch.empty(0))),\n'
        '      lambda: sh(torch.split_copy(x, 1)), lambda: sh(torch.unbind_copy(x, 1)), lambda: sh(torch.detach_copy(x)),\n'
        '      lambda: sh(torch.alias_copy(x)), lambda: sh(torch.expand_copy(x, (2, 2, 3))), lambda: sh(torch.diagonal_copy(x, 1)),\n'
        '      lambda: torch.permute_copy(x, (1, 0)).stride(), lambda: torch.detach_copy(x).sum().backward(),\n'
        '      lambda: sh(torch.fill(x, 2)), lambda: sh(torch.fill(x, torch.tensor(3., requires_grad=True))),\n'
        '      lambda: torch.fill(x, torch.ones(2)), lambda: torch.fill(torch.ones(2, dtype=torch.long), 2.7),\n'
        '      lambda: torch.nonzero_static(torch.tensor([0, 1, 0, 2]), size=3), lambda: torch.nonzero_static(torch.tensor([0, 1]), 3),\n'
        '      lambda: torch.tensor([1, 0]).nonzero_static(size=1, fill_value=-5), lambda: torch.empty_permuted((2, 3, 4), (0, 2, 1)).stride(),\n'
        '      lambda: torch.empty_permuted((2, 3), (0, 0)), lambda: torch.ones(2, 3).new_empty_strided((2, 2), (1, 2)).stride(),\n'
        '      lambda: torch.ones(2).new_empty_strided((2, 2), (1,)), lambda: torch.get_device(x), lambda: torch.get_device(3),\n'
        '      lambda: torch.binomial(torch.tensor([10., 20.]), torch.tensor([0., 1.])), lambda: torch.binomial(torch.tensor([10, 20]), torch.tensor([0.5, 0.1])),\n'
        '      lambda: torch.binomial(torch.tensor([3.]), torch.tensor([0.5]).double()), lambda: torch.binomial(torch.ones(2, 1) * 4, torch.tensor([0., 1.])),\n'
        '      lambda: torch.binomial(x, x / 10).grad_fn, lambda: torch.poisson(x).grad_fn, lambda: torch.poisson(torch.tensor([0., 0.])),\n'
        '      lambda: torch.poisson(torch.tensor([1, 2])), lambda: torch.poisson(torch.tensor([-1.])), lambda: torch.poisson(x).shape,\n'
        '      lambda: torch.set_flush_denormal(False), lambda: torch.set_flush_denormal(1), lambda: torch.set_flush_denormal(),\n'
        '      lambda: torch.set_warn_always(1), lambda: torch.is_warn_always_enabled())\n'
        'torch.t_copy(x).mul(torch.arange(6.).view(3, 2)).sum().backward()\n'
        'torch.slice_copy(x, 1, 1).sum().backward()\n'
        'print(x.grad)'),
    # angle of real tensors (AngleBackward0: a zero gradient), the in-place functions torch.negative_ / i0_ /
    # conj_physical_ / addmv_ / as_strided_ / resize_as_, is_distributed, Tensor.dim_order (Python); the deprecated
    # frobenius_norm (NormBackward1) and nuclear_norm (linalg.matrix_norm's graph; one int dim is both dims);
    # as_strided_scatter (contiguous inputs only when they need grad; its self gradient is grad's slice, zeros
    # elsewhere, as PyTorch's formula gives it)
    "angle_norms_scatter_inplace_functions": (
        'x = torch.tensor([[1., -2., 0.5], [3., float("nan"), 2.]], requires_grad=True)\n'
        'tries(lambda: show(torch.angle(x)), lambda: torch.angle(torch.tensor([-3, 0, 2])), lambda: torch.angle(torch.tensor([True])),\n'
        '      lambda: torch.angle(torch.tensor([1., -1.]).half()), lambda: torch.angle(3), lambda: x.angle(1),\n'
        '      lambda: torch.negative_(x), lambda: torch.negative_(x.detach().clone()), lambda: torch.i0_(torch.tensor([1, 2])),\n'
        '      lambda: torch.conj_physical_(x), lambda: torch.addmv_(torch.zeros(2), x, torch.ones(3)),\n'
        '      lambda: torch.as_strided_(torch.zeros(4), (2,), (2,)), lambda: torch.resize_as_(torch.zeros(3), x).shape,\n'
        '      lambda: torch.is_distributed(x), lambda: torch.is_distributed(3), lambda: x.t().dim_order(),\n'
        '      lambda: torch.ones(2, 3, 4).permute(2, 0, 1).dim_order(), lambda: torch.Tensor.dim_order)\n'
        'y = torch.tensor([[1., -2., 0.5], [3., 0., 2.]], requires_grad=True)\n'
        's = torch.tensor([5., 6.], requires_grad=True)\n'
        'tries(lambda: show(torch.frobenius_norm(y, (0, 1), True)), lambda: torch.frobenius_norm(y),\n'
        '      lambda: torch.frobenius_norm(y, (0, 1, 1)), lambda: show(torch.nuclear_norm(y, True)),\n'
        '      lambda: torch.nuclear_norm(y[0]), lambda: torch.nuclear_norm(y, 1), lambda: torch.nuclear_norm(torch.ones(2, 2, 2)),\n'
        '      lambda: show(torch.as_strided_scatter(y, s, (2,), (1,))), lambda: y.as_strided_scatter(torch.ones(2), (2,), (3,), 1),\n'
        '      lambda: torch.as_strided_scatter(y.t(), s, (2,), (2,)), lambda: torch.as_strided_scatter(y, s, (2, 1), (1, 1)))\n'
        'torch.angle(x).sum().backward()\n'
        'torch.nuclear_norm(y).backward()\n'
        'torch.frobenius_norm(y, [0]).sum().backward()\n'
        'z = torch.as_strided_scatter(y * 2, s * 3, (2,), (2,), 1)\n'
        '(z * torch.arange(6.).view(2, 3)).sum().backward()\n'
        'print(x.grad, y.grad, s.grad)'),
    # channel_shuffle saves groups as an int (a 0-d tensor given too); its backward is a channel_shuffle into C / groups
    # groups, so a create_graph gradient has a ChannelShuffleBackward0 node, and with no channels backward fails on 0
    # groups; native_channel_shuffle records NotImplemented
    'channel_shuffle_backward': (
        'import torch.nn.functional as F\n'
        'x = torch.arange(24.).reshape(1, 6, 4).requires_grad_()\n'
        'y = F.channel_shuffle(x, torch.tensor(2))\n'
        'print(y.grad_fn, y.grad_fn._saved_groups)\n'
        'g, = torch.autograd.grad(y, x, torch.arange(24.).reshape(1, 6, 4).requires_grad_(), create_graph=True)\n'
        'print(g.grad_fn, g.grad_fn._saved_groups, g[0, :, 0])\n'
        'try:\n'
        '    F.channel_shuffle(x[:, :0], 2).sum().backward()\n'
        'except RuntimeError as e:\n'
        '    print(e)\n'
        'print(torch.channel_shuffle(x, 3)[0, :, 0], torch.native_channel_shuffle(x, 2).grad_fn)\n'),
}


@pytest.mark.parametrize("name", SNIPPETS)
def test_snippet(name):
    code = SHOW + SNIPPETS[name]
    t, e = run_both(T, E, code)
    assert same(t, e), f"\n{code}\n--- torch\n{t.summary()}--- engine\n{e.summary()}"
