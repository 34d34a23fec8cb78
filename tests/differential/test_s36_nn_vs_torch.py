"""torch.nn's spatial transformer pieces and rarer pools against real PyTorch: F.grid_sample (bilinear / nearest /
bicubic, zeros / border / reflection, align_corners, 4-d and 5-d) and F.affine_grid with their nodes, saved
attributes, gradients and warnings; max unpooling; LP pooling as PyTorch composes it; fractional max pooling with
given random samples; feature alpha dropout; EmbeddingBag's saved offset2bag; the lazy transposed convolutions.
Printed text, warnings and errors must be the same."""
import pytest

T = pytest.importorskip("torch", reason="differential tests need real PyTorch (pip install torch==2.13.0)")
from .harness import SHOW, load_engine, run_both, same  # noqa: E402

E = load_engine()

HEAD = 'import torch.nn.functional as F\nimport warnings\nwarnings.simplefilter("always")\n'

SNIPPETS = {
    # grid_sampler_2d (GridSampler2DBackward0, saving input, grid, the mode and padding enums and align_corners): a
    # point's four (bilinear) / one (nearest, half to even) / sixteen (bicubic, A = -0.75) taps, padded per mode;
    # the grid's gradient is 0 for nearest, and +0 / -0 where border or reflection clip (the 2-d kernel masks it)
    "grid_sample_2d_modes_and_paddings": (
        'x = torch.arange(24.).reshape(2, 1, 3, 4).sin().requires_grad_()\n'
        'g = ((torch.arange(24.).reshape(2, 3, 2, 2) * 0.37).sin() * 1.6).requires_grad_()\n'
        'edges = torch.tensor([[[[-1., -1.], [1., 1.], [0., 0.], [-1.5, 1.], [0.5, -0.25], [-3., -3.]]]])\n'
        'for mode in ["bilinear", "nearest", "bicubic"]:\n'
        '    for pad in ["zeros", "border", "reflection"]:\n'
        '        for ac in [False, True]:\n'
        '            x.grad = g.grad = None\n'
        '            y = F.grid_sample(x, g, mode=mode, padding_mode=pad, align_corners=ac)\n'
        '            (y * torch.arange(12.).reshape(y.shape).cos()).sum().backward()\n'
        '            r = (lambda t: t) if mode != "bicubic" else (lambda t: (t * 1e4).round() / 1e4 + 0.)\n'
        '            print(mode, pad, ac, y, x.grad, r(g.grad))\n'
        '            e = edges.clone().requires_grad_()\n'
        '            z = F.grid_sample(x[:1].detach(), e, mode=mode, padding_mode=pad, align_corners=ac)\n'
        '            z.sum().backward()\n'
        '            print(z, r(e.grad))\n'
        'show(y)'),
    # grid_sampler_3d (GridSampler3DBackward0): trilinear and nearest; an out-of-range nearest point reads +0;
    # padding's derivative is scale * reflection sign * clip (so -0 where reflection flips and clips); a float16
    # input is sampled in float16 steps; the backward is differentiable (GridSampler2DBackwardBackward0 /
    # GridSampler3DBackwardBackward0, saving grad_output, input, grid and the options), second derivatives of the
    # weights included
    "grid_sample_3d_half_and_double_backward": (
        'x = torch.arange(48.).reshape(1, 2, 3, 2, 4).sin().requires_grad_()\n'
        'g = ((torch.arange(36.).reshape(1, 2, 2, 3, 3) * 0.37).sin() * 1.7).requires_grad_()\n'
        'for mode in ["bilinear", "nearest"]:\n'
        '    for pad in ["zeros", "border", "reflection"]:\n'
        '        for ac in [False, True]:\n'
        '            x.grad = g.grad = None\n'
        '            y = F.grid_sample(x, g, mode=mode, padding_mode=pad, align_corners=ac)\n'
        '            (y * torch.arange(y.numel(), dtype=y.dtype).reshape(y.shape).cos()).sum().backward()\n'
        '            print(mode, pad, ac, y, x.grad, g.grad)\n'
        'show(y)\n'
        'print(F.grid_sample(x.detach().half(), g.detach().half(), align_corners=False))\n'
        'for x, g, modes in [(x, g, ["bilinear", "nearest"]),\n'
        '                    (torch.arange(24.).reshape(2, 1, 3, 4).cos().double().requires_grad_(),\n'
        '                     ((torch.arange(16.).reshape(2, 2, 2, 2) * 0.41).sin() * 1.2).double().requires_grad_(),\n'
        '                     ["bilinear", "nearest", "bicubic"])]:\n'
        '    for mode in modes:\n'
        '        for pad in ["zeros", "reflection"]:\n'
        '            x.grad = g.grad = None\n'
        '            y = F.grid_sample(x, g, mode=mode, padding_mode=pad, align_corners=False)\n'
        '            gx, gg = torch.autograd.grad(y.pow(2).sum(), (x, g), create_graph=True)\n'
        '            (gx.pow(2).sum() + (gg * gg.detach().cos()).sum()).backward()\n'
        '            print(mode, pad, gx.grad_fn, gx.grad_fn.next_functions, x.grad, g.grad)\n'
        'show(gx)'),
    # F.grid_sample's ValueErrors and its warning when align_corners is not given; then grid_sampler's checks, in
    # its order, with its words (a dtype mismatch is "expected scalar type"), its parser's TypeErrors, empty batches
    "grid_sample_checks": (
        'x = torch.arange(24.).reshape(1, 2, 3, 4)\n'
        'g = (torch.arange(8.).reshape(1, 2, 2, 2) * 0.4).sin()\n'
        'tries(lambda: F.grid_sample(x, g), lambda: F.grid_sample(x, g.double(), align_corners=False),\n'
        '      lambda: F.grid_sample(x.long(), g.long(), align_corners=False),\n'
        '      lambda: F.grid_sample(x.double(), g.double(), align_corners=False),\n'
        '      lambda: F.grid_sample(x[0], g, align_corners=False), lambda: F.grid_sample(x, g[0], align_corners=False),\n'
        '      lambda: F.grid_sample(x, g.repeat(2, 1, 1, 1), align_corners=False),\n'
        '      lambda: F.grid_sample(x, g[..., :1], align_corners=False),\n'
        '      lambda: F.grid_sample(x[:, :, :0], g, align_corners=False),\n'
        '      lambda: F.grid_sample(x[None], g[None], align_corners=False),\n'
        '      lambda: F.grid_sample(x[None], torch.rand(1, 1, 2, 2, 3), mode="bicubic", align_corners=False),\n'
        '      lambda: F.grid_sample(x, g, mode="linear"), lambda: F.grid_sample(x, g, padding_mode="zero"),\n'
        '      lambda: F.grid_sample([1], g, align_corners=False), lambda: F.grid_sample(x, g, align_corners=1),\n'
        '      lambda: F.grid_sample(x[:0], g[:0], align_corners=False),\n'
        '      lambda: F.grid_sample(x[:, :0], g, align_corners=False),\n'
        '      lambda: F.grid_sample(x, g[:, :0], align_corners=False),\n'
        '      lambda: F.grid_sample(x[:, :, :, :, None, None], g, align_corners=False),\n'
        '      lambda: torch.grid_sampler(x, g, 1, 2, True))'),
    # affine_grid_generator (AffineGridGeneratorBackward0, saving size and align_corners): the base grid of
    # linspace(-1, 1) (scaled by (n - 1) / n without align_corners, 0 for a size of 1) times theta transposed; the
    # Python checks (floating theta, Nx2x3 / Nx3x4, 4 or 5 sizes, the unit-size warning, positive sizes)
    "affine_grid": (
        'th = torch.tensor([[[1., 0.2, 0.1], [-0.3, 0.9, 0.5]], [[0.5, 0., 0.], [0., 2., -1.]]], requires_grad=True)\n'
        'th3 = torch.arange(24.).reshape(2, 3, 4).div(10).requires_grad_()\n'
        'for ac in [False, True, None]:\n'
        '    for t, size in [(th, (2, 1, 3, 4)), (th, [2, 3, 1, 2]), (th, torch.Size([2, 1, 2, 3])),\n'
        '                    (th3, (2, 1, 2, 3, 2)), (th3, (2, 1, 1, 1, 3))]:\n'
        '        t.grad = None\n'
        '        y = F.affine_grid(t, size, align_corners=ac)\n'
        '        (y * torch.arange(y.numel(), dtype=y.dtype).reshape(y.shape)).sum().backward()\n'
        '        print(y, t.grad)\n'
        'show(y)\n'
        'tries(lambda: F.affine_grid(th.long(), (2, 1, 2, 2), align_corners=False),\n'
        '      lambda: F.affine_grid(th, (2, 1, 2, 2, 2), align_corners=False),\n'
        '      lambda: F.affine_grid(th3, (2, 1, 2, 2), align_corners=False),\n'
        '      lambda: F.affine_grid(th, (2, 1, 2), align_corners=False),\n'
        '      lambda: F.affine_grid(th, (2, 1, 0, 2), align_corners=True),\n'
        '      lambda: F.affine_grid(th, (1, 1, 2, 2), align_corners=True),\n'
        '      lambda: F.affine_grid(th, (2, 1, 2.0, 2), align_corners=False),\n'
        '      lambda: F.affine_grid(th, (2, 1, 2, 2), align_corners=1),\n'
        '      lambda: torch.affine_grid_generator(th, [2, 1, 2, 2], False))'),
    # the spatial transformer tutorial's step: a localisation net's theta -> affine_grid -> grid_sample; the loss
    # reaches the input and theta through GridSampler2DBackward0 and AffineGridGeneratorBackward0
    "spatial_transformer_step": (
        'torch.manual_seed(0)\n'
        'x = torch.randn(2, 1, 6, 6, requires_grad=True)\n'
        'loc = torch.nn.Linear(36, 6)\n'
        'with torch.no_grad():\n'
        '    loc.weight.mul_(0.01)\n'
        '    loc.bias.copy_(torch.tensor([1., 0., 0., 0., 1., 0.]))\n'
        'theta = loc(x.flatten(1)).view(-1, 2, 3)\n'
        'grid = F.affine_grid(theta, x.size(), align_corners=False)\n'
        'y = F.grid_sample(x, grid, align_corners=False)\n'
        'loss = y.pow(2).mean()\n'
        'loss.backward()\n'
        'show(y)\n'
        'print(loss, x.grad, loc.weight.grad.sum(), loc.bias.grad)'),
    # max_unpool2d / 3d (MaxUnpool2DBackward0 / MaxUnpool3DBackward0 saving the indices; 1-d: unsqueeze, the 2-d op,
    # squeeze): the pool's values put back at its indices; the gradient gathers at them (so double backward works);
    # output_size given whole or spatial; MaxUnpool modules' reprs
    "max_unpool": (
        'for nd, shape, k, s, p, extra in [(1, (2, 3, 7), 2, None, 0, {}), (1, (2, 3, 7), 3, 2, 1, {}),\n'
        '                                  (2, (2, 3, 6, 7), 2, None, 0, {"output_size": (6, 7)}),\n'
        '                                  (2, (2, 3, 6, 7), (2, 3), (1, 2), (1, 1), {}),\n'
        '                                  (2, (1, 1, 4, 4), 2, None, 0, {"output_size": [1, 1, 5, 5]}),\n'
        '                                  (3, (1, 2, 4, 4, 6), 2, None, 0, {}), (3, (1, 2, 4, 5, 6), (1, 2, 2), 1, 0, {})]:\n'
        '    x = torch.arange(torch.Size(shape).numel(), dtype=torch.float).reshape(shape).mul(0.7).sin().requires_grad_()\n'
        '    pool = getattr(F, "max_pool%dd" % nd)\n'
        '    pv, i = pool(x, k, s, p, return_indices=True)\n'
        '    y = getattr(F, "max_unpool%dd" % nd)(pv, i, k, s, p, **extra)\n'
        '    show(y)\n'
        '    (y * torch.arange(y.numel(), dtype=y.dtype).reshape(y.shape)).sum().backward()\n'
        '    print(x.grad)\n'
        '    m = getattr(torch.nn, "MaxUnpool%dd" % nd)(k, s, p)\n'
        '    q = pv.detach().requires_grad_()\n'
        '    g, = torch.autograd.grad(m(q, i, **extra).pow(2).sum(), q, create_graph=True)\n'
        '    print(m, g, g.grad_fn)\n'
        '    tries(lambda: getattr(F, "max_unpool%dd" % nd)(pv[0], i[0], k, s, p, **extra).shape)'),
    # the unpooling checks: F's output_size range and length, then max_unpool2d / 3d's (int64 indices, ranks, equal
    # shapes, empty non-batch dims, positive 3-d strides, an index outside the output plane)
    "max_unpool_checks": (
        'x = torch.arange(16.).reshape(1, 1, 4, 4)\n'
        'p, i = F.max_pool2d(x, 2, return_indices=True)\n'
        'one_bad = torch.tensor([[[[5, 7], [13, 20]]]])\n'
        'tries(lambda: F.max_unpool2d(p, i, 2, output_size=(6, 5)), lambda: F.max_unpool2d(p, i, 2, output_size=(1, 5, 5)),\n'
        '      lambda: F.max_unpool2d(p, i.int(), 2), lambda: F.max_unpool2d(p[0, 0], i[0, 0], 2),\n'
        '      lambda: F.max_unpool2d(p, i[0], 2), lambda: F.max_unpool2d(p[:, :, :0], i[:, :, :0], 2),\n'
        '      lambda: F.max_unpool2d(p[:0], i[:0], 2), lambda: F.max_unpool2d(p, one_bad, 2),\n'
        '      lambda: F.max_unpool2d(p.long(), i, 2), lambda: F.max_unpool2d(p.half(), i, 2).dtype,\n'
        '      lambda: F.max_unpool2d(p, i, 2, output_size=(4, 4.)), lambda: F.max_unpool3d(p[None], i[None], 2, 0),\n'
        '      lambda: F.max_unpool3d(p[None], one_bad[None], 2), lambda: F.max_unpool3d(p, i, 2),\n'
        '      lambda: F.max_unpool1d(p[0], torch.tensor([[[0, 1], [2, 9]]]), 2, output_size=[5]),\n'
        '      lambda: F.max_unpool2d(p, [1], 2),\n'
        '      lambda: torch.nn.MaxUnpool2d(2)(p, i, [5, 5]), lambda: torch.nn.MaxUnpool2d(2, stride=(1, 2)),\n'
        '      lambda: torch.nn.MaxUnpool3d((1, 2, 3), padding=1), lambda: torch.nn.MaxUnpool2d(2)(p))'),
    # lp_pool: PyTorch's Python composition, (sign(out) * relu(abs(out))).mul(window).pow(1 / p) of
    # out = avg_pool(x.pow(p)) (PowBackward0 <- MulBackward0 ...); p = +-inf: max_pool of abs / of -abs, negated
    "lp_pool": (
        'for nd, shape in [(1, (2, 3, 7)), (2, (1, 2, 5, 6)), (3, (1, 2, 4, 5, 4))]:\n'
        '    x = (torch.arange(torch.Size(shape).numel(), dtype=torch.double).reshape(shape).mul(0.7).sin() + 0.3)\n'
        '    x.requires_grad_()\n'
        '    fn = getattr(F, "lp_pool%dd" % nd)\n'
        '    for p in [2, 1, 3., 0.5, float("inf"), -float("inf"), torch.tensor(2.)]:\n'
        '        for k, s, cm in [(2, None, False), (3, 2, True)]:\n'
        '            x.grad = None\n'
        '            y = fn(x, p, k, s, cm)\n'
        '            y.sum().backward()\n'
        '            print(p, k, y, x.grad)\n'
        '    show(y)\n'
        '    m = getattr(torch.nn, "LPPool%dd" % nd)(2, 2, ceil_mode=True)\n'
        '    print(m, m(x.float().detach()))\n'
        'tries(lambda: F.lp_pool2d(x, 2, (2, 1, 1)), lambda: F.lp_pool2d(x.long(), 2, 2))'),
    # fractional_max_pool2d / 3d with given samples: window starts int((i + u) * alpha) - int(u * alpha) in the
    # input's dtype (2-d: the first sample for W; 3-d: for T), the last window at the end; the first of equal maxima
    # (a NaN wins); FractionalMaxPool2DBackward0 / 3D saving kernel_size, output_size, result1 and self; the
    # gradient's node FractionalMaxPool2DBackwardBackward0
    "fractional_max_pool": (
        'for nd, shape, cases in [(2, (2, 3, 7, 6), [(2, 3), (3, (4, 2)), ((1, 2), (5, 4)), (2, 1), (1, 5)]),\n'
        '                         (3, (1, 2, 5, 6, 7), [(2, 3), (3, (2, 3, 4)), ((1, 2, 3), (3, 3, 4)), (1, (4, 5, 6))])]:\n'
        '    for dt in [torch.float, torch.double]:\n'
        '        x = torch.arange(torch.Size(shape).numel(), dtype=dt).reshape(shape).mul(0.7).sin().requires_grad_()\n'
        '        n = shape[0] if nd == 2 else 1\n'
        '        for u in [torch.full((n, shape[1], nd), 0., dtype=dt), torch.full((n, shape[1], nd), 0.999, dtype=dt),\n'
        '                  torch.arange(n * shape[1] * nd, dtype=dt).reshape(n, shape[1], nd).mul(0.37).sin().abs()]:\n'
        '            for k, o in cases:\n'
        '                x.grad = None\n'
        '                y, i = getattr(F, "fractional_max_pool%dd" % nd)(x, k, o, return_indices=True, _random_samples=u)\n'
        '                g, = torch.autograd.grad((y * y).sum(), x, create_graph=True)\n'
        '                g.sum().backward()\n'
        '                print(k, o, y, i, x.grad)\n'
        '    show(y)\n'
        '    show(g)\n'
        'x = torch.arange(42.).reshape(1, 1, 7, 6).sin()\n'
        'x[0, 0, 1] = float("nan")\n'
        'x[0, 0, 4] = float("-inf")\n'
        'print(F.fractional_max_pool2d(x, 2, output_ratio=(0.5, 0.5), return_indices=True,\n'
        '                              _random_samples=torch.full((1, 1, 2), 0.5)))'),
    # the Python checks (output_size or output_ratio, output_ratio's length via len()), then the op's: kernel and
    # output lengths, ranks, empty dims, the pool fitting (3-d: strictly, time then width then height), the samples'
    # rank, dtype, channels and last size; the modules' checks, their empty repr and _random_samples buffer
    "fractional_max_pool_checks": (
        'x = torch.arange(50.).reshape(1, 2, 5, 5).sin()\n'
        's = torch.full((1, 2, 2), 0.5)\n'
        'x3 = torch.arange(250.).reshape(1, 2, 5, 5, 5).sin()\n'
        's3 = torch.full((1, 2, 3), 0.5)\n'
        'f2, f3 = F.fractional_max_pool2d, F.fractional_max_pool3d\n'
        'tries(lambda: f2(x, 2), lambda: f2(x, 2, output_ratio=0.5, _random_samples=s),\n'
        '      lambda: f2(x, 2, output_ratio=(0.5, 0.5, 0.5), _random_samples=s), lambda: f2(x, 2, 5, _random_samples=s),\n'
        '      lambda: f2(x, (2, 6), (3, 1), _random_samples=s), lambda: f2(x, (2, 2, 2), 3, _random_samples=s),\n'
        '      lambda: f2(x, 2, (3, 3, 3), _random_samples=s), lambda: f2(x[0, 0], 2, 3, _random_samples=s),\n'
        '      lambda: f2(x[:, :, :0], 2, 3, _random_samples=s), lambda: f2(x[:0], 2, 3, _random_samples=s[:0]),\n'
        '      lambda: f2(x, 2, 3, _random_samples=s.double()), lambda: f2(x, 2, 3, _random_samples=s[:, :1]),\n'
        '      lambda: f2(x, 2, 3, _random_samples=s[0]), lambda: f2(x, 2, 3, _random_samples=s3),\n'
        '      lambda: f2(x.long(), 2, 3, _random_samples=s.long()), lambda: f2(x, 0, 3, _random_samples=s),\n'
        '      lambda: f2(x, 2, 0, _random_samples=s), lambda: f2(x, 2, -1, _random_samples=s),\n'
        '      lambda: f2(x, 2.0, 3, _random_samples=s), lambda: f2(x[0], 2, 3, _random_samples=s),\n'
        '      lambda: f2(x, 2, 3, _random_samples=[0.5]), lambda: f3(x3, 2, 5, _random_samples=s3),\n'
        '      lambda: f3(x3, (2, 2, 6), (3, 3, 1), _random_samples=s3), lambda: f3(x3, 1, (4, 6, 6), _random_samples=s3),\n'
        '      lambda: f3(x3, 1, (4, 6, 7), _random_samples=s3), lambda: f3(x3, 2, output_ratio=0.5, _random_samples=s3),\n'
        '      lambda: f3(x3, 2, output_ratio=(0.5, 0.5), _random_samples=s3), lambda: f3(x3[0, 0], 2, 3, _random_samples=s3),\n'
        '      lambda: f3(x3, 2, 3, _random_samples=s), lambda: f3(x3, (2, 2), 3, _random_samples=s3),\n'
        '      lambda: torch.nn.FractionalMaxPool2d(2), lambda: torch.nn.FractionalMaxPool2d(2, 3, 0.5),\n'
        '      lambda: torch.nn.FractionalMaxPool2d(2, output_ratio=1.5), lambda: torch.nn.FractionalMaxPool3d(0, 3),\n'
        '      lambda: torch.nn.FractionalMaxPool3d((1, 0, 1), 3),\n'
        '      lambda: torch.nn.FractionalMaxPool3d(2, output_ratio=(0.5, 0.5, 1)),\n'
        '      lambda: torch.nn.FractionalMaxPool2d(2, 3, return_indices=True, _random_samples=s)(x),\n'
        '      lambda: torch.nn.FractionalMaxPool2d(2, 3, _random_samples=s).state_dict(),\n'
        '      lambda: torch.nn.FractionalMaxPool3d(2, output_ratio=0.5).output_ratio)'),
    # embedding_bag: the CPU kernel skips offset2bag (an empty result1) only on fbgemm's sum path (float32 weights,
    # no padding_idx), so a float64 table saves it; padding_idx must lie in [-num_embeddings, num_embeddings)
    "embedding_bag_saved_offset2bag_and_padding_range": (
        'for dt in [torch.float, torch.double]:\n'
        '    w = torch.arange(30., dtype=dt).reshape(10, 3).sin().requires_grad_()\n'
        '    for mode in ["sum", "mean", "max"]:\n'
        '        for kw in [{}, {"padding_idx": 4}, {"include_last_offset": True}]:\n'
        '            y = F.embedding_bag(torch.tensor([1, 2, 4, 5, 4, 3, 2, 9]), w, torch.tensor([0, 2, 2, 7]), mode=mode, **kw)\n'
        '            show(y)\n'
        'w = torch.randn(10, 3)\n'
        'tries(*[lambda p=p: F.embedding_bag(torch.tensor([1, 2]), w, torch.tensor([0]), padding_idx=p).shape\n'
        '        for p in [10, -11, -10, 9, -1, 11]])'),
    # F.feature_alpha_dropout: off unless training; one draw per (sample, channel); the p checks; fewer than 2 dims
    # is an error only when noise is drawn; integer inputs fail where the noise is scaled; nn.FeatureAlphaDropout
    "feature_alpha_dropout": (
        'x = torch.arange(48.).reshape(2, 4, 3, 2).requires_grad_()\n'
        'torch.manual_seed(0)\n'
        'y = F.feature_alpha_dropout(torch.ones(4, 6, 3, 5), 0.5, True)\n'
        'print(y.shape, y.dtype, ((y - y[:, :, :1, :1]) == 0).all(), len(set(y.flatten().tolist())))\n'
        'tries(lambda: F.feature_alpha_dropout(x, 0.5) is x, lambda: F.feature_alpha_dropout(x, 1., True),\n'
        '      lambda: F.feature_alpha_dropout(x, 0., True) is x, lambda: F.feature_alpha_dropout(x, 1.5, True),\n'
        '      lambda: F.feature_alpha_dropout(x[0, 0, 0], 0.5, True), lambda: F.feature_alpha_dropout(x[0, 0, 0], 1., True),\n'
        '      lambda: F.feature_alpha_dropout(x.long(), 0.5, True), lambda: F.feature_alpha_dropout(x.bool(), 0.5, True),\n'
        '      lambda: F.feature_alpha_dropout(x.double(), 0.5, True).dtype,\n'
        '      lambda: F.feature_alpha_dropout(x, 0.5, True, True), lambda: torch.nn.FeatureAlphaDropout(0.2),\n'
        '      lambda: torch.nn.FeatureAlphaDropout(0.2).eval()(x) is x, lambda: torch.nn.FeatureAlphaDropout(1.)(x),\n'
        '      lambda: torch.nn.FeatureAlphaDropout(2.), lambda: F.feature_alpha_dropout(x, "a", True))'),
    # LazyConvTranspose1d/2d/3d: uninitialised until the first input, which gives in_channels (the weight is
    # (in, out / groups, *kernel)); it then becomes ConvTranspose, taking output_size; the input's rank is checked
    # first; zeros padding only
    "lazy_conv_transpose": (
        'torch.manual_seed(0)\n'
        'for nd in [1, 2, 3]:\n'
        '    cls = getattr(torch.nn, "LazyConvTranspose%dd" % nd)\n'
        '    m = cls(4, 3, stride=2, output_padding=1)\n'
        '    print(m, m.weight, m.has_uninitialized_params())\n'
        '    y = m(torch.randn((1, 6) + (3,) * nd))\n'
        '    print(type(m).__name__, m, m.weight.shape, m.weight.sum(), m.bias, y.shape, y.grad_fn)\n'
        '    m = cls(4, 3, stride=2, groups=2, bias=False)\n'
        '    print(m(torch.randn((6,) + (3,) * nd), [8] * nd).shape, m, m.bias)\n'
        '    tries(lambda: cls(4, 3)(torch.ones(3)), lambda: cls(4, 3, groups=4)(torch.ones((1, 6) + (3,) * nd)),\n'
        '          lambda: cls(4, 3, groups=0), lambda: cls(4, 3, padding_mode="reflect"))'),
    # ctc_loss is composite: _ctc_loss (CtcLossBackward0, saving blank, the lengths as tuples, log_probs, targets as
    # int64, its loss result0 and log_alpha result1, zero_infinity), torch.where for zero_infinity, then the mean of
    # the losses over the clamped target lengths (MeanBackward0 <- DivBackward0) or their sum; the kernel's gradient
    # exp(log_probs) - posterior (an impossible target: inf, and inf / nan gradients unless zeroed); padded or
    # concatenated targets, another blank, unbatched (T, C) input, lengths as tensors; nn.CTCLoss; double backward
    # ends at a NotImplemented node
    "ctc_loss": (
        'cases = [((6, 3, 5), [[1, 2, 2], [3, 3, 1], [4, 1, 2]], [6, 5, 3], [3, 2, 1], 0),\n'
        '         ((6, 3, 5), [1, 2, 2, 3, 3, 4], [6, 6, 4], [3, 2, 1], 0),\n'
        '         ((6, 3, 5), [[1, 2, 2], [3, 3, 1], [4, 1, 2]], [6, 2, 0], [3, 2, 0], 0),\n'
        '         ((6, 3, 5), [[0, 1, 1], [2, 2, 3], [1, 0, 0]], [6, 5, 4], [3, 3, 1], 4),\n'
        '         ((7, 4), [1, 2, 3], [7], [3], 0),\n'
        '         ((5, 2, 6), [[5, 4, 3, 2], [1, 1, 0, 0]], torch.tensor([5, 3]), torch.tensor([4, 2]), 0)]\n'
        'for shape, tg, il, tl, blank in cases:\n'
        '    for red in ["mean", "sum", "none"]:\n'
        '        for zi in [False, True]:\n'
        '            torch.manual_seed(0)\n'
        '            lp = torch.randn(shape).log_softmax(-1).detach().requires_grad_()\n'
        '            y = F.ctc_loss(lp, torch.tensor(tg), il, tl, blank=blank, reduction=red, zero_infinity=zi)\n'
        '            y.sum().backward()\n'
        '            print(red, zi, y, y.grad_fn, y.grad_fn.next_functions, lp.grad)\n'
        'torch.manual_seed(0)\n'
        'lp = torch.randn(5, 2, 4).log_softmax(2).detach().requires_grad_()\n'
        'y = F.ctc_loss(lp, torch.tensor([[1, 2], [1, 1]]), [5, 5], [2, 2], reduction="none")\n'
        'show(y)\n'
        'w = torch.ones(2, requires_grad=True)\n'
        'g, = torch.autograd.grad((y * w).sum(), lp, create_graph=True)\n'
        'print(g.grad_fn, g.grad_fn.next_functions)\n'
        'tries(lambda: g.sum().backward())\n'
        'x = torch.randn(5, 2, 4, requires_grad=True)\n'
        'm = torch.nn.CTCLoss(blank=3, reduction="sum")\n'
        'loss = m(x.log_softmax(2), torch.tensor([[1, 2], [1, 1]]), [5, 4], [2, 1])\n'
        'loss.backward()\n'
        'print(m, loss, x.grad)'),
    # the checks, in ctc_loss_allocate_outputs' order and words; the parser's TypeError for int lengths
    "ctc_loss_checks": (
        'lp = torch.zeros(5, 2, 4)\n'
        't = torch.tensor([[1, 2], [1, 1]])\n'
        'tries(lambda: F.ctc_loss(lp, t, [5, 5], [2, 2], blank=4), lambda: F.ctc_loss(lp, t, [5, 5], [2, 2], blank=-1),\n'
        '      lambda: F.ctc_loss(lp, t, [5], [2, 2]), lambda: F.ctc_loss(lp, t, [5, 5], [2]),\n'
        '      lambda: F.ctc_loss(lp, t, [5, 6], [2, 2]), lambda: F.ctc_loss(lp, t, [5, -1], [2, 2]),\n'
        '      lambda: F.ctc_loss(lp, t, [5, 5], [2, 3]), lambda: F.ctc_loss(lp, t, [5, 5], [2, -1]),\n'
        '      lambda: F.ctc_loss(lp, t[:1], [5, 5], [2, 2]), lambda: F.ctc_loss(lp, t.flatten(), [5, 5], [2, 1]),\n'
        '      lambda: F.ctc_loss(lp, t.flatten(), [5, 5], [3, 2]), lambda: F.ctc_loss(lp, t.float(), [5, 5], [2, 2]),\n'
        '      lambda: F.ctc_loss(lp.long(), t, [5, 5], [2, 2]), lambda: F.ctc_loss(lp[0], t, [5, 5], [2, 2]),\n'
        '      lambda: F.ctc_loss(lp[:, 0], t[0], 5, 2), lambda: F.ctc_loss(lp[None], t, [5, 5], [2, 2]),\n'
        '      lambda: F.ctc_loss(lp, t, [5, 5], [2, 2], reduction="avg"), lambda: F.ctc_loss(lp, t, [0, 5], [0, 2], "none"),\n'
        '      lambda: F.ctc_loss(lp, t, torch.tensor([5., 5]), torch.tensor([2, 2])),\n'
        '      lambda: F.ctc_loss(lp, t, [5, 5], torch.tensor([2, 2])), lambda: F.ctc_loss(lp, t, [5.0, 5], [2, 2]),\n'
        '      lambda: F.ctc_loss(lp, [[1, 2]], [5, 5], [2, 2]), lambda: F.ctc_loss(lp, t[None], [5, 5], [2, 2]))'),
    # nn.AdaptiveLogSoftmaxWithLoss: a head Linear (cutoffs[0] classes + one per cluster) and per cluster a
    # Sequential of two bias-free Linears (in // div_value ** (i + 1) hidden), initialised in that order; forward's
    # output gathers each target's log-probability with index_copy_ / index_fill_ (AddBackward0 <- IndexCopyBackward0),
    # loss = (-output).mean(), as an _ASMoutput; log_prob, predict; the checks of targets and cutoffs
    "adaptive_log_softmax_with_loss": (
        'm = torch.nn.AdaptiveLogSoftmaxWithLoss(8, 10, [3, 6], div_value=2.)\n'
        'print(m)\n'
        'x = torch.randn(5, 8, requires_grad=True)\n'
        't = torch.tensor([0, 4, 9, 2, 7])\n'
        'out = m(x, t)\n'
        'print(out)\n'
        'show(out.output)\n'
        'show(out.loss)\n'
        'out.loss.backward()\n'
        'print(x.grad, m.head.weight.grad, m.tail[0][0].weight.grad, m.tail[1][1].weight.grad)\n'
        'print(m.log_prob(x), m.predict(x))\n'
        'print(m(x[0], t[0]), m(x[:1], t[:1]), m(x[:2], torch.tensor([1, 2])))\n'
        'tries(lambda: m(x, t[:3]), lambda: m(x[None], t), lambda: m(x[0], t[:1]), lambda: m(x, t[None]),\n'
        '      lambda: m(x, torch.tensor([0, 1, 2, 3, 10])), lambda: m(x, torch.tensor([0, 1, 2, 3, -1])),\n'
        '      lambda: torch.nn.AdaptiveLogSoftmaxWithLoss(8, 10, []),\n'
        '      lambda: torch.nn.AdaptiveLogSoftmaxWithLoss(8, 10, [6, 3]),\n'
        '      lambda: torch.nn.AdaptiveLogSoftmaxWithLoss(8, 10, [3, 10]),\n'
        '      lambda: torch.nn.AdaptiveLogSoftmaxWithLoss(8, 10, [3.5]),\n'
        '      lambda: torch.nn.AdaptiveLogSoftmaxWithLoss(8, 10, [3.0]).cutoffs,\n'
        '      lambda: torch.nn.AdaptiveLogSoftmaxWithLoss(8, 10, (2,), head_bias=True),\n'
        '      lambda: [(k, v.shape) for k, v in torch.nn.AdaptiveLogSoftmaxWithLoss(16, 32, [4, 8, 12]).state_dict().items()])\n'
        'm2 = torch.nn.AdaptiveLogSoftmaxWithLoss(4, 6, [2], head_bias=True)\n'
        'for bias in [[5., 5., -5.], [-5., -5., 5.], [0., 0., 0.]]:\n'
        '    with torch.no_grad():\n'
        '        m2.head.bias.copy_(torch.tensor(bias))\n'
        '    print(m2.predict(torch.randn(6, 4)))'),
    # nn.ChannelShuffle runs F.channel_shuffle (torch.channel_shuffle itself): ChannelShuffleBackward0 saving groups
    "channel_shuffle_module": (
        'x = torch.arange(48.).reshape(2, 4, 3, 2).requires_grad_()\n'
        'm = torch.nn.ChannelShuffle(2)\n'
        'y = m(x)\n'
        'show(y)\n'
        'print(m, F.channel_shuffle is torch.channel_shuffle)\n'
        'tries(lambda: F.channel_shuffle(x, 3), lambda: F.channel_shuffle(x, 0), lambda: F.channel_shuffle(x[0, 0], 2),\n'
        '      lambda: F.channel_shuffle(x, 2.), lambda: torch.nn.ChannelShuffle(3)(x))'),
}


@pytest.mark.parametrize("name", SNIPPETS)
def test_snippet(name):
    code = SHOW + HEAD + SNIPPETS[name]
    t, e = run_both(T, E, code)
    assert same(t, e), f"\n{code}\n--- torch\n{t.summary()}--- engine\n{e.summary()}"
