"""nn modules and functions PyTorch has that the engine lacked, against real PyTorch: nn.Bilinear / F.bilinear
(_trilinear's TrilinearBackward0 and what it saves), nn.LocalResponseNorm (PyTorch's composite of pad and 2-d or 3-d
average pooling), the 3-d family (Conv3d, MaxPool3d with indices, AvgPool3d, AdaptiveAvgPool3d, BatchNorm3d,
InstanceNorm3d, ConvTranspose3d and their functional forms), TripletMarginWithDistanceLoss and CrossMapLRN2d (an
autograd Function); and what building them showed of the 1-d and 2-d ones: zeros (not None) for the input from a
pool's double-backward node, the argument parser's errors of avg_pool2d's flags, a negative divisor_override saved
as unsigned, padding='same' checks in PyTorch's order, an empty batch through pools and transposed convolutions.
Reprs, parameters and their shapes, state_dict keys, grad_fn names, saved values and error messages must be the
same."""
import pytest

T = pytest.importorskip("torch", reason="differential tests need real PyTorch (pip install torch==2.13.0)")
from .harness import SHOW, load_engine, run_both, same  # noqa: E402

E = load_engine()

SNIPPETS = {
    # F.bilinear (torch.bilinear) flattens both inputs to rows (reshape), runs _trilinear (TrilinearBackward0, which
    # saves each input only where another one needs a gradient, and its expand / sumdim lists), reshapes the result
    # back (ViewBackward0) and adds the bias (AddBackward0); each input's gradient is a _trilinear again
    "bilinear_graph": (
        'torch.manual_seed(0)\n'
        'for s1, s2, rg in [((2, 3), (2, 4), (1, 1, 1)), ((3,), (4,), (1, 0, 0)), ((2, 2, 3), (2, 2, 4), (0, 1, 1)),\n'
        '                   ((0, 3), (0, 4), (1, 0, 1))]:\n'
        '    x1 = torch.randn(s1, dtype=torch.float64, requires_grad=bool(rg[0]))\n'
        '    x2 = torch.randn(s2, dtype=torch.float64, requires_grad=bool(rg[1]))\n'
        '    w = torch.randn(5, 3, 4, dtype=torch.float64, requires_grad=bool(rg[2]))\n'
        '    for b in [None, torch.randn(5, dtype=torch.float64)]:\n'
        '        y = torch.nn.functional.bilinear(x1, x2, w, b)\n'
        '        show(y)\n'
        '        v = y.grad_fn if b is None else y.grad_fn.next_functions[0][0]\n'
        '        t = v.next_functions[0][0]\n'
        '        print(t, t.next_functions, t._saved_expand1, t._saved_expand2, t._saved_expand3, t._saved_sumdim)\n'
        '        print(t._saved_i1, t._saved_i2 is None, t._saved_i3)\n'
        '        gs = torch.autograd.grad(y.pow(2).sum(), [u for u in (x1, x2, w) if u.requires_grad],\n'
        '                                 create_graph=True)\n'
        '        for g in gs:\n'
        '            show(g)\n'
        '        sum(g.sum() for g in gs).backward()\n'
        '        print(x1.grad, x2.grad, w.grad)\n'
        'print(torch.bilinear(torch.ones(2, 3, dtype=torch.long), torch.ones(2, 4, dtype=torch.long),\n'
        '                     torch.ones(5, 3, 4, dtype=torch.long)))\n'
        'x = torch.randn(3, 3).t().requires_grad_()\n'
        'show(torch.nn.functional.bilinear(x * 1, torch.randn(3, 4), torch.randn(2, 3, 4)).grad_fn._saved_alpha\n'
        '     if False else torch.nn.functional.bilinear(x * 1, torch.randn(3, 4), torch.randn(2, 3, 4)))'),
    # bilinear's checks in at::bilinear's order and words (dtypes, dims, batch dims, sizes against the weight, the
    # bias), the parser's for a non-tensor; nn.Bilinear's weight (out, in1, in2) and bias drawn from
    # U(-1/sqrt(in1), 1/sqrt(in1)), its repr, state_dict and reset_parameters' error for in1_features=0
    "bilinear_errors_and_module": (
        'F = torch.nn.functional\n'
        'x1, x2, w, b = torch.ones(2, 3), torch.ones(2, 4), torch.ones(5, 3, 4), torch.ones(5)\n'
        'tries(lambda: F.bilinear(x1, x2, w.double(), b), lambda: F.bilinear(x1, x2[0], w, b),\n'
        '      lambda: F.bilinear(x1, x2[:1], w, b), lambda: F.bilinear(x1, x1, w, b), lambda: F.bilinear(x2, x2, w, b),\n'
        '      lambda: F.bilinear(x1, x2, w, b[:2]), lambda: F.bilinear(x1, x2, w[0], b), lambda: F.bilinear(x1, x2, w, 3),\n'
        '      lambda: F.bilinear(x1, x2, w, b.double()), lambda: F.bilinear(x1.tolist(), x2, w),\n'
        '      lambda: F.bilinear(x1.bool(), x2.bool(), w.bool()), lambda: F.bilinear(x1, x2),\n'
        '      lambda: torch.bilinear(input1=x1, input2=x2, weight=w).shape, lambda: F.bilinear(x1, x2, w, b=None))\n'
        'torch.manual_seed(0)\n'
        'for args in [(3, 4, 5), (3, 4, 5, False), (2, 0, 3), (2, 3, 0), (0, 2, 3)]:\n'
        '    try:\n'
        '        m = torch.nn.Bilinear(*args)\n'
        '        print(m, m.weight, m.bias, list(m.state_dict()), type(m))\n'
        '    except Exception as e:\n'
        '        print(type(e).__name__, e)\n'
        'm = torch.nn.Bilinear(3, 4, 2, dtype=torch.float64)\n'
        'show(m(torch.ones(2, 3, dtype=torch.float64), torch.ones(2, 4, dtype=torch.float64)))\n'
        'print(F.bilinear, torch.bilinear)'),
    # F.local_response_norm is Python in PyTorch: a 3-d input squared, unsqueezed, padded and 2-d average pooled
    # (AvgPool2DBackward0 in its graph), a larger one viewed as 5-d and 3-d average pooled (AvgPool3DBackward0),
    # then mul / add / pow / div; an empty input is returned as it is; its ValueError keeps PyTorch's spaces
    "local_response_norm": (
        'torch.manual_seed(0)\n'
        'for shape in [(2, 5, 4), (2, 5, 3, 3), (1, 4, 2, 3, 2), (0, 3, 4)]:\n'
        '    for size in [1, 2, 3, 6]:\n'
        '        x = torch.randn(shape, dtype=torch.float64, requires_grad=True)\n'
        '        y = torch.nn.LocalResponseNorm(size, alpha=0.5, beta=0.75, k=1.5)(x)\n'
        '        show(y)\n'
        '        v = y.grad_fn\n'
        '        while v is not None:\n'
        '            print(type(v).__name__, [(n, getattr(v, n)) for n in sorted(dir(v)) if n.startswith("_saved_")\n'
        '                                     and not isinstance(getattr(v, n), torch.Tensor)])\n'
        '            v = v.next_functions[0][0] if v.next_functions else None\n'
        '        if y.requires_grad:\n'
        '            y.pow(2).sum().backward()\n'
        '            print(x.grad)\n'
        'F = torch.nn.functional\n'
        'tries(lambda: F.local_response_norm(torch.ones(2, 3), 2), lambda: F.local_response_norm(torch.ones(5), 2),\n'
        '      lambda: F.local_response_norm(torch.ones(2, 3, 4).long(), 2),\n'
        '      lambda: F.local_response_norm(torch.ones(2, 3, 4), 0))\n'
        'm = torch.nn.LocalResponseNorm(3, 1, 2, 3)\n'
        'print(m, torch.nn.LocalResponseNorm(2), list(m.state_dict()), type(m))'),
    # avg_pool3d (torch._C._nn's builtin): AvgPool3DBackward0 saving its arguments as given (an int as three, a
    # stride not given as ()), AvgPool3DBackwardBackward0 with create_graph (zeros for the input); its checks in
    # PyTorch's order and words (pooling_output_shape's, then pool3d_shape_check's, "input image ... smaller than
    # kernel size"), its dtypes ("avg_pool3d_out_frame": long, not int, half or bool); nn.AvgPool3d
    "avg_pool3d": (
        'torch.manual_seed(0)\n'
        'F = torch.nn.functional\n'
        'x = torch.randn(2, 3, 4, 5, 6, dtype=torch.float64, requires_grad=True)\n'
        'for args in [(2,), ((2, 1, 3),), (3, 2, 1), ((3, 1, 2), (2, 1, 1), (1, 0, 1)), (2, 1, 1, True),\n'
        '             (3, 2, 1, True, False), (2, 1, 0, False, True, 3), (2, 1, 0, False, True, -2)]:\n'
        '    y = F.avg_pool3d(x, *args)\n'
        '    show(y)\n'
        '    g, = torch.autograd.grad((y * torch.arange(y.numel(), dtype=y.dtype).reshape(y.shape)).sum(), x,\n'
        '                             create_graph=True)\n'
        '    show(g)\n'
        '    x.grad = None\n'
        '    (g * g).sum().backward()\n'
        '    print(x.grad.abs().sum(), torch.nn.AvgPool3d(*args))\n'
        'print(F.avg_pool3d(x[0].long(), 2), F.avg_pool3d(x[:0], 2), F.avg_pool3d(x[0], (1, 2, 3)).shape)\n'
        'tries(lambda: F.avg_pool3d(x, (2, 2)), lambda: F.avg_pool3d(x, 2, (1, 1)), lambda: F.avg_pool3d(x, 2, 1, (1, 1)),\n'
        '      lambda: F.avg_pool3d(x[0, 0, 0], 2), lambda: F.avg_pool3d(x, 2, divisor_override=0),\n'
        '      lambda: F.avg_pool3d(x, 0), lambda: F.avg_pool3d(x, 2, 1, 2), lambda: F.avg_pool3d(x, 2, 1, -1),\n'
        '      lambda: F.avg_pool3d(x, 5), lambda: F.avg_pool3d(x, (5, 1, 1), padding=(1, 0, 0)),\n'
        '      lambda: F.avg_pool3d(x[:, :0], 2), lambda: F.avg_pool3d(x.int(), 2), lambda: F.avg_pool3d(x.half(), 2),\n'
        '      lambda: F.avg_pool3d(x, (-1, 2, 2)), lambda: F.avg_pool3d(x, 2, (-1, 1, 1)),\n'
        '      lambda: F.avg_pool3d(x, 2.0), lambda: F.avg_pool3d(x.tolist(), 2))\n'
        'print(F.avg_pool3d, torch.nn.AvgPool3d((1, 2, 3), divisor_override=2), type(torch.nn.AvgPool3d(2)).__mro__)'),
    # the parser's TypeErrors of avg_pool2d / avg_pool3d's flags, naming the argument's position only when given by
    # position (stride=None is no stride); a negative divisor_override saved as unsigned 64-bit; a kernel size of
    # -1 passes pooling_output_shape's padding check (C's division) to fail as "kernel size should be greater than
    # zero"; max_pool2d's ceil_mode through the parser too; F.max_pool1d_with_indices / max_pool2d_with_indices
    "pool_flags_parsed": (
        'F = torch.nn.functional\n'
        'x = torch.ones(1, 1, 4, 4, 4, requires_grad=True)\n'
        'for f in (F.avg_pool2d, F.avg_pool3d):\n'
        '    tries(lambda: f(x[0], 2, None).shape, lambda: f(x[0], 2, stride=None).shape, lambda: f(x, 2, "a"),\n'
        '          lambda: f(x, 2, stride="a"), lambda: f(x, 2, padding=None), lambda: f(x, 2, 2, 0, 1),\n'
        '          lambda: f(x, 2, 2, 0, False, None), lambda: f(x, 2, ceil_mode=None),\n'
        '          lambda: f(x, 2, divisor_override=True), lambda: f(x, 2, 2, 0, False, True, 2.0),\n'
        '          lambda: f(x, kernel_size=2, stride=(2, 2.5)), lambda: f(x, 2, count_include_pad=3))\n'
        '    print(f(x[0], 2, divisor_override=-2).grad_fn._saved_divisor_override)\n'
        'y = torch.ones(1, 1, 4, 4)\n'
        'for k in [(-1, 2), (2, -1), (0, 2), (-2, 2), (-3, 2)]:\n'
        '    tries(lambda: F.avg_pool2d(y, k), lambda: F.max_pool2d(y, k))\n'
        'tries(lambda: F.max_pool3d(x, 2, ceil_mode=None), lambda: F.max_pool3d(x, 2, 1, 0, 1, 1),\n'
        '      lambda: F.max_pool2d(y, 2, ceil_mode=None), lambda: F.max_pool2d(y, 2, 2, 0, 1, 1, True),\n'
        '      lambda: F.max_pool2d_with_indices(y, 3, 1, 1, 1, True), lambda: F.max_pool1d_with_indices(y[0], 3, 2, 1),\n'
        '      lambda: F.max_pool2d_with_indices(y, 2, ceil_mode=None), lambda: F.max_pool1d_with_indices(y[0], (2, 2)),\n'
        '      lambda: F.max_pool2d_with_indices(y.tolist(), 2), lambda: F.max_pool1d_with_indices(y, 2))'),
    # the gradient of a pool's backward node (create_graph=True) with respect to the pool's input is zeros
    # (PyTorch's zeros_like(self)), not None: x.grad is a tensor of zeros
    "pool_double_backward_input_zeros": (
        'F = torch.nn.functional\n'
        'for f in [lambda x: F.max_pool2d(x, 2), lambda x: F.avg_pool2d(x, 2), lambda x: F.adaptive_avg_pool2d(x, 2),\n'
        '          lambda x: F.adaptive_max_pool2d(x, 1), lambda x: F.max_pool1d(x[0], 2),\n'
        '          lambda x: F.avg_pool1d(x[0], 2), lambda x: F.avg_pool3d(x[None], 2), lambda x: F.max_pool3d(x[None], 2),\n'
        '          lambda x: F.adaptive_avg_pool3d(x[None], 2)]:\n'
        '    x = torch.arange(32.).reshape(2, 4, 4).requires_grad_()\n'
        '    y = f(x)\n'
        '    g, = torch.autograd.grad((y * 2).sum(), x, create_graph=True)\n'
        '    print(g.grad_fn, g.grad_fn.next_functions)\n'
        '    (g * g).sum().backward()\n'
        '    print(x.grad)'),
    # max_pool3d: MaxPool3DWithIndicesBackward0 (also without return_indices) saving result1, indices counting in
    # each D * H * W volume (ties: the first; NaN: the last; -inf windows: their first tap inside the input),
    # MaxPool3DWithIndicesBackwardBackward0 saving the indices; an empty batch; its checks ("either" as the 2-d
    # ones; "max_pool3d_with_indices_out_cpu_template()"; bool not implemented); nn.MaxPool3d
    "max_pool3d_indices": (
        'F = torch.nn.functional\n'
        'torch.manual_seed(0)\n'
        'x = torch.randn(1, 2, 3, 4, 4, dtype=torch.float64)\n'
        'x[..., 3] = x[..., 2]\n'
        'x[0, 0, 0, 0, 0] = float("nan")\n'
        'x[0, 1, 1] = -float("inf")\n'
        'x.requires_grad_()\n'
        'for args in [(2,), (3, 1, 1), (3, 2, 1, 2, True), ((2, 1, 3), None, (1, 0, 1)), ((2, 2, 2), 1, 0, (1, 2, 1))]:\n'
        '    y, i = F.max_pool3d(x, *args, return_indices=True)\n'
        '    show(y)\n'
        '    print(i, F.max_pool3d(x, *args).grad_fn, torch.nn.MaxPool3d(*args))\n'
        '    g, = torch.autograd.grad((y * torch.arange(y.numel(), dtype=y.dtype).reshape(y.shape)).sum(), x,\n'
        '                             create_graph=True)\n'
        '    show(g)\n'
        'print(F.max_pool3d(torch.zeros(0, 2, 3, 3, 3, requires_grad=True), 2, return_indices=True))\n'
        'print(F.max_pool3d(x[0].int(), 2), F.max_pool3d_with_indices(x, 2)[1].shape, torch.max_pool3d(x, 2).shape)\n'
        'tries(lambda: F.max_pool3d(x, (2, 2)), lambda: F.max_pool3d(x, 2, (1, 1)), lambda: F.max_pool3d(x, 2, 1, (1, 1)),\n'
        '      lambda: F.max_pool3d(x, 2, 1, 0, (1, 1)), lambda: F.max_pool3d(x[0, 0, 0], 2), lambda: F.max_pool3d(x, 0),\n'
        '      lambda: F.max_pool3d(x, 2, 1, 2), lambda: F.max_pool3d(x, 5), lambda: F.max_pool3d(x, (4, 1, 1)),\n'
        '      lambda: F.max_pool3d(x[:, :0], 2), lambda: F.max_pool3d(x, 2, dilation=0),\n'
        '      lambda: F.max_pool3d(x, 2, 1, 1, dilation=3), lambda: F.max_pool3d(x.bool(), 2),\n'
        '      lambda: F.max_pool3d(x, 2.0), lambda: F.max_pool3d(x.tolist(), 2))\n'
        'print(torch.nn.MaxPool3d((1, 2, 3), 1, 0, 2, True, True), F.max_pool3d_with_indices, torch.max_pool3d)'),
    # conv3d (torch.conv3d): ConvolutionBackward0 saving its arguments, its gradients, ConvolutionBackwardBackward0
    # with create_graph and the gradients through it; nn.Conv3d's parameters, init, repr and padding modes;
    # LazyConv3d becoming a Conv3d
    "conv3d": (
        'torch.manual_seed(0)\n'
        'F = torch.nn.functional\n'
        'x = torch.randn(2, 4, 5, 4, 5, dtype=torch.float64, requires_grad=True)\n'
        'w = torch.randn(6, 2, 2, 3, 2, dtype=torch.float64, requires_grad=True)\n'
        'b = torch.randn(6, dtype=torch.float64, requires_grad=True)\n'
        'for kw in [{}, {"stride": 2}, {"padding": 1, "groups": 2}, {"padding": "same"}, {"dilation": (1, 2, 1)},\n'
        '           {"stride": (1, 2, 1), "padding": (1, 0, 2), "groups": 2}]:\n'
        '    kw.setdefault("groups", 2)\n'
        '    y = F.conv3d(x, w, b, **kw)\n'
        '    show(y)\n'
        '    gx, gw, gb = torch.autograd.grad(y.pow(2).sum(), (x, w, b), create_graph=True)\n'
        '    show(gx)\n'
        '    print(gw.grad_fn, gb.grad_fn)\n'
        '    x.grad = w.grad = None\n'
        '    (gx.pow(2).sum() + gw.sum()).backward()\n'
        '    print(x.grad.sum(), w.grad.sum())\n'
        'print(F.conv3d(x[0], w, groups=2).shape, F.conv3d(x[:0], w, groups=2).shape)\n'
        'for args in [(4, 6, 3), (4, 6, (1, 2, 3), 2, 0, 1, 1, False), (4, 6, 2, 1, 1, 2, 2),\n'
        '             (4, 6, 3, 1, 1, 1, 1, True, "circular"), (4, 6, 3, 1, (1, 0, 1), 1, 1, True, "replicate")]:\n'
        '    m = torch.nn.Conv3d(*args)\n'
        '    print(m, [(n, p.shape) for n, p in m.named_parameters()], list(m.state_dict()), m.weight.flatten()[:4])\n'
        '    print(m(torch.randn(1, 4, 4, 4, 3)).shape)\n'
        'm = torch.nn.LazyConv3d(6, 3)\n'
        'print(m, m(torch.randn(1, 4, 3, 3, 3)).shape, m, type(m))\n'
        'tries(lambda: F.conv3d(x, w.float()), lambda: F.conv3d(x, w, torch.ones(3)), lambda: F.conv3d(x[0, 0], w),\n'
        '      lambda: F.conv3d(x, w, stride=(1, 1)), lambda: F.conv3d(x, w, None, 1.5), lambda: F.conv3d(x, w, groups=3),\n'
        '      lambda: F.conv3d(x.tolist(), w))'),
    # F.conv*d with a padding string: an unknown one is refused first, then (PyTorch's _convolution_same) the
    # weight's dims, then stride / dilation that cannot broadcast; 'valid' goes through convolution's own checks
    "conv_padding_string_checks": (
        'F = torch.nn.functional\n'
        'for f in [F.conv1d, F.conv2d, F.conv3d]:\n'
        '    for xd, wd in [(3, 3), (4, 3), (3, 4), (5, 4), (4, 5), (5, 5), (4, 2)]:\n'
        '        x, w = torch.ones((1, 2, 3, 3, 3)[:xd]), torch.ones((2, 2, 2, 2, 2)[:wd])\n'
        '        for pad in ["valid", "same", "foo"]:\n'
        '            for kw in [{}, {"stride": (1, 1)}, {"stride": 2}, {"dilation": (1, 1)}, {"groups": 0}]:\n'
        '                tries(lambda: f(x, w, torch.ones(2), padding=pad, **kw).shape)'),
    # conv_transpose3d (torch.conv_transpose3d): ConvolutionBackward0 with transposed=True; its errors name depth,
    # height and width; an empty batch is not checked for its output size (torch.empty's error when one is negative,
    # in 1-d and 2-d too); an output_padding of at least the stride (below the dilation) makes room for no more input
    # windows (1-d, 2-d, 3-d, and their gradients of gradients); an empty batch skips the checks of dilation and
    # output_padding, and its gradients of gradients are none but grad_output's from the bias's (then zeros);
    # nn.ConvTranspose3d and its output_size
    "conv_transpose3d": (
        'F = torch.nn.functional\n'
        'for f, w in [(F.conv2d, torch.randn(3, 2, 2, 2)), (F.conv_transpose2d, torch.randn(2, 3, 2, 2)),\n'
        '             (F.conv3d, torch.randn(3, 2, 1, 2, 2)), (F.conv_transpose1d, torch.randn(2, 3, 2))]:\n'
        '    for use in ["x", "w", "b", "xw", "wb"]:\n'
        '        x = torch.randn((0, 2) + (3,) * (w.dim() - 2), requires_grad=True)\n'
        '        w.requires_grad_()\n'
        '        w.grad = None\n'
        '        b = torch.randn(3, requires_grad=True)\n'
        '        gx, gw, gb = torch.autograd.grad(f(x, w, b).pow(2).sum(), (x, w, b), create_graph=True)\n'
        '        sum({"x": gx, "w": gw, "b": gb}[c].sum() for c in use).backward()\n'
        '        print(use, x.grad, w.grad, b.grad)\n'
        'x, w = torch.randn(0, 4, 2, 2), torch.randn(4, 1, 1, 1)\n'
        'tries(lambda: F.conv_transpose2d(x, w, output_padding=1).shape, lambda: F.conv_transpose2d(x, w, dilation=0).shape,\n'
        '      lambda: F.conv_transpose3d(x[None], w[None], output_padding=1).shape,\n'
        '      lambda: F.conv_transpose2d(x, w, output_padding=-1).shape)\n'
        'for f, nd in [(torch.nn.functional.conv_transpose1d, 1), (torch.nn.functional.conv_transpose2d, 2),\n'
        '              (torch.nn.functional.conv_transpose3d, 3)]:\n'
        '    x = torch.randn((1, 2) + (3,) * nd, dtype=torch.float64, requires_grad=True)\n'
        '    w = torch.randn((2, 3) + (2,) * nd, dtype=torch.float64, requires_grad=True)\n'
        '    y = f(x, w, stride=1, dilation=3, output_padding=2)\n'
        '    gx, gw = torch.autograd.grad(y.pow(2).sum(), (x, w), create_graph=True)\n'
        '    (gx.sum() + gw.pow(2).sum()).backward()\n'
        '    print(y.shape, y.sum(), gx.sum(), gw.sum(), x.grad.sum(), w.grad.sum())\n'
        'torch.manual_seed(0)\n'
        'F = torch.nn.functional\n'
        'x = torch.randn(2, 4, 3, 2, 3, dtype=torch.float64, requires_grad=True)\n'
        'w = torch.randn(4, 3, 2, 3, 2, dtype=torch.float64, requires_grad=True)\n'
        'for kw in [{}, {"stride": 2, "output_padding": 1}, {"padding": 1, "groups": 2},\n'
        '           {"stride": 2, "dilation": (1, 2, 3), "output_padding": (1, 1, 2)}]:\n'
        '    y = F.conv_transpose3d(x, w, torch.ones(3 * kw.get("groups", 1), dtype=torch.float64), **kw)\n'
        '    show(y)\n'
        '    gx, gw = torch.autograd.grad(y.pow(2).sum(), (x, w), create_graph=True)\n'
        '    print(gx.grad_fn, gx.sum(), gw.sum())\n'
        'tries(lambda: F.conv_transpose3d(x, w, dilation=(1, 0, 1)), lambda: F.conv_transpose3d(x, w, output_padding=1),\n'
        '      lambda: F.conv_transpose3d(x, w, stride=2, output_padding=(0, 2, 0)),\n'
        '      lambda: F.conv_transpose3d(x, w, padding=5), lambda: F.conv_transpose3d(x[0, 0], w),\n'
        '      lambda: F.conv_transpose3d(x, w, padding="same"), lambda: F.conv_transpose3d(x, w, None, 1.5),\n'
        '      lambda: F.conv_transpose3d(x[:0], w, padding=3),\n'
        '      lambda: F.conv_transpose2d(torch.ones(0, 2, 2, 2), torch.ones(2, 3, 2, 2), padding=(3, 0)),\n'
        '      lambda: F.conv_transpose1d(torch.ones(0, 2, 2), torch.ones(2, 3, 2), padding=3),\n'
        '      lambda: F.conv_transpose2d(torch.ones(0, 2, 2, 2), torch.ones(2, 3, 2, 2), padding=(1, 0)).shape)\n'
        'm = torch.nn.ConvTranspose3d(4, 6, 3, stride=2)\n'
        'print(m, [(n, p.shape) for n, p in m.named_parameters()], m.weight.flatten()[:4], m.bias)\n'
        'for size in [None, (7, 7, 5), [2, 6, 7, 7, 5], (1, 2), (20, 20, 20)]:\n'
        '    tries(lambda: m(torch.randn(2, 4, 3, 3, 2), size).shape)\n'
        'print(torch.nn.ConvTranspose3d(2, 4, (1, 2, 3), 2, 1, 1, 2, False, 2), F.conv_transpose3d)'),
    # adaptive_avg_pool3d: AdaptiveAvgPool3DBackward0, its double-backward node saving the gradient's last three
    # sizes; a (1, 1, 1) output is the mean over the last three dims (MeanBackward1); None keeps a dim; its checks
    # (negative sizes, dims, empty non-batch dims, "adaptive_avg_pool3d_cpu" dtypes) and F's _list_with_default
    # reading input.size() first (a list input: AttributeError, in 2-d too)
    "adaptive_avg_pool3d": (
        'torch.manual_seed(0)\n'
        'F = torch.nn.functional\n'
        'x = torch.randn(1, 2, 3, 4, 5, dtype=torch.float64, requires_grad=True)\n'
        'for o in [2, (2, 1, 3), 1, (1, 1, 1), (None, 2, 2), 0, 7, (1, 1, 2)]:\n'
        '    y = F.adaptive_avg_pool3d(x, o)\n'
        '    show(y)\n'
        '    if y.numel():\n'
        '        g, = torch.autograd.grad(y.pow(2).sum(), x, create_graph=True)\n'
        '        show(g)\n'
        '        print(torch.nn.AdaptiveAvgPool3d(o), torch.nn.AdaptiveAvgPool3d(o)(x[0]).shape)\n'
        'print(F.adaptive_avg_pool3d(x[:0], 2), F.adaptive_avg_pool3d(x[0, 0], 1).shape)\n'
        'tries(lambda: F.adaptive_avg_pool3d(x, (2, 2)), lambda: F.adaptive_avg_pool3d(x[0, 0], 2),\n'
        '      lambda: F.adaptive_avg_pool3d(x, -1), lambda: F.adaptive_avg_pool3d(x[:, :0], 2),\n'
        '      lambda: F.adaptive_avg_pool3d(x.long(), 2), lambda: F.adaptive_avg_pool3d(x, 2.0),\n'
        '      lambda: F.adaptive_avg_pool3d(x.tolist(), 2), lambda: F.adaptive_avg_pool3d(x[0, 0, 0], (1, 1, 1)),\n'
        '      lambda: F.adaptive_avg_pool3d(x, [2, 2, 2, 2]), lambda: F.adaptive_avg_pool2d([1.], 2),\n'
        '      lambda: F.adaptive_avg_pool2d(None, (2, 2)), lambda: F.adaptive_max_pool2d([1.], 2))'),
    # adaptive_max_pool3d: AdaptiveMaxPool3DBackward0 saving result1 (indices in each D * H * W volume, the last NaN
    # of a window winning), its double-backward node; its checks (the input's before output_size's length, unlike
    # 2-d), an output of size 0 refused by the backward (in 2-d too); nn.AdaptiveMaxPool3d
    "adaptive_max_pool3d": (
        'torch.manual_seed(0)\n'
        'F = torch.nn.functional\n'
        'x = torch.randn(1, 2, 3, 4, 5, dtype=torch.float64, requires_grad=True)\n'
        'for o in [2, (2, 1, 3), 1, (None, 2, 2), 7]:\n'
        '    y, i = F.adaptive_max_pool3d(x, o, return_indices=True)\n'
        '    show(y)\n'
        '    g, = torch.autograd.grad(y.pow(2).sum(), x, create_graph=True)\n'
        '    show(g)\n'
        '    print(i, torch.nn.AdaptiveMaxPool3d(o, True)(x[0])[1].shape, torch.nn.AdaptiveMaxPool3d(o))\n'
        'n = torch.tensor([[[[[1., float("nan"), 3.], [3., 2., float("nan")]]]]])\n'
        'print(F.adaptive_max_pool3d(n, (1, 1, 2), True), F.adaptive_max_pool3d(x[:0], 2))\n'
        'tries(lambda: F.adaptive_max_pool3d(x, (2, 2)), lambda: F.adaptive_max_pool3d(x[0, 0], (2, 2)),\n'
        '      lambda: F.adaptive_max_pool3d(x[:, :0], (2, 2)), lambda: F.adaptive_max_pool3d(x, (2, -1, 2)),\n'
        '      lambda: F.adaptive_max_pool3d(x.long(), 2), lambda: F.adaptive_max_pool3d(x.tolist(), 2),\n'
        '      lambda: F.adaptive_max_pool3d_with_indices(x, 2)[1].shape, lambda: F.adaptive_max_pool3d(x, 0).sum().backward(),\n'
        '      lambda: F.adaptive_max_pool2d(x[0, 0], (0, 2)).sum().backward(),\n'
        '      lambda: F.adaptive_max_pool2d(torch.ones(1, 2, 2), (2, 2, 2)))'),
    # BatchNorm3d (5-d inputs), InstanceNorm3d (4-d or 5-d), LazyBatchNorm3d, LazyInstanceNorm1d / 2d / 3d: their
    # reprs, buffers, checks, graphs; a lazy norm becomes its norm at its first forward even with nothing to
    # initialize (affine=False, track_running_stats=False)
    "norm3d_modules": (
        'for name, shape in [("LazyInstanceNorm1d", (2, 3, 4)), ("LazyInstanceNorm2d", (2, 3, 4, 4)),\n'
        '                    ("LazyInstanceNorm3d", (2, 3, 2, 2, 2)), ("LazyInstanceNorm1d", (3, 4)),\n'
        '                    ("LazyBatchNorm1d", (2, 3))]:\n'
        '    for kw in [{}, {"affine": False}, {"affine": False, "track_running_stats": False}]:\n'
        '        m = getattr(torch.nn, name)(**kw)\n'
        '        print(m, list(m.state_dict()), [(n, type(b).__name__) for n, b in m.named_buffers()])\n'
        '        x = torch.randn(shape, dtype=torch.float64, requires_grad=True)\n'
        '        y = m(x)\n'
        '        print(type(m), m, y.grad_fn, [(n, b) for n, b in m.named_buffers()])\n'
        '        m.eval()\n'
        '        print(m(x).sum())\n'
        'torch.manual_seed(0)\n'
        'for make in [lambda: torch.nn.BatchNorm3d(3), lambda: torch.nn.BatchNorm3d(3, affine=False, momentum=None),\n'
        '             lambda: torch.nn.InstanceNorm3d(3), lambda: torch.nn.InstanceNorm3d(3, affine=True,\n'
        '                                                                                 track_running_stats=True),\n'
        '             lambda: torch.nn.LazyBatchNorm3d()]:\n'
        '    m = make()\n'
        '    print(m, list(m.state_dict()), [(n, p.shape) for n, p in m.named_parameters()])\n'
        '    for shape in [(2, 3, 2, 2, 2), (3, 2, 2, 2), (2, 3, 4)]:\n'
        '        x = torch.randn(shape, dtype=torch.float64, requires_grad=True)\n'
        '        for train in [True, False]:\n'
        '            m.train(train)\n'
        '            try:\n'
        '                y = m(x)\n'
        '                show(y)\n'
        '                y.pow(2).sum().backward()\n'
        '                print(x.grad.sum(), [(n, b) for n, b in m.named_buffers()], type(m))\n'
        '            except Exception as e:\n'
        '                print(type(e).__name__, e)'),
    # F.triplet_margin_with_distance_loss (Python in PyTorch): pairwise_distance or the given function, swap with
    # minimum, margin + d_pos - d_neg clamped at 0 (AddBackward1, SubBackward0, ClampMinBackward0), reduced;
    # nn.TripletMarginWithDistanceLoss (a PairwiseDistance by default); multi_margin_loss's margin through the parser
    "triplet_margin_with_distance_loss": (
        'torch.manual_seed(0)\n'
        'F = torch.nn.functional\n'
        'for d in [None, torch.nn.PairwiseDistance(p=1), lambda a, b: 1 - F.cosine_similarity(a, b)]:\n'
        '    for swap in [False, True]:\n'
        '        for red in ["mean", "sum", "none"]:\n'
        '            a = torch.randn(3, 4, requires_grad=True)\n'
        '            p, n = torch.randn(3, 4), torch.randn(3, 4, requires_grad=True)\n'
        '            y = F.triplet_margin_with_distance_loss(a, p, n, distance_function=d, margin=0.5, swap=swap,\n'
        '                                                    reduction=red)\n'
        '            show(y)\n'
        '            y.sum().backward()\n'
        '            print(a.grad, n.grad)\n'
        '            m = torch.nn.TripletMarginWithDistanceLoss(distance_function=d, swap=swap, reduction=red)\n'
        '            print(m, list(m.state_dict()), m.margin, m.swap, m.reduction, m(a, p, n))\n'
        'a = torch.randn(3, 4)\n'
        'tries(lambda: F.triplet_margin_with_distance_loss(a, a, a, margin=0),\n'
        '      lambda: F.triplet_margin_with_distance_loss(a, a, a, reduction="foo"),\n'
        '      lambda: F.triplet_margin_with_distance_loss(a, a, a[0]), lambda: F.triplet_margin_with_distance_loss(a, a, a, 1.),\n'
        '      lambda: torch.nn.TripletMarginWithDistanceLoss(margin=-1), lambda: torch.nn.TripletMarginWithDistanceLoss(None),\n'
        '      lambda: torch.nn.TripletMarginWithDistanceLoss().distance_function, lambda: type(torch.nn.TripletMarginWithDistanceLoss()),\n'
        '      lambda: F.multi_margin_loss(a, torch.tensor([1, 0, 3]), margin="a"),\n'
        '      lambda: F.multi_margin_loss(a, torch.tensor([1, 0, 3]), margin=None),\n'
        '      lambda: F.multi_margin_loss(a, torch.tensor([1, 0, 3]), margin=[1.]))'),
    # nn.CrossMapLRN2d runs PyTorch's autograd Function torch.nn.modules._functions.CrossMapLRN2d: its node is
    # CrossMapLRN2dBackward; 4-d inputs only; its backward's narrow fails for size 1; its k defaults to the int 1
    "cross_map_lrn2d": (
        'torch.manual_seed(0)\n'
        'for size in [1, 2, 3, 5]:\n'
        '    for shape in [(2, 4, 3, 3), (1, 6, 2, 1), (2, 1, 2, 2), (3, 4, 2)]:\n'
        '        m = torch.nn.CrossMapLRN2d(size, alpha=0.5, beta=0.75, k=2)\n'
        '        x = torch.randn(shape, dtype=torch.float64, requires_grad=True)\n'
        '        try:\n'
        '            y = m(x)\n'
        '            show(y)\n'
        '            print(type(y.grad_fn).__name__, list(m.state_dict()))\n'
        '            y.pow(2).sum().backward()\n'
        '            print(x.grad)\n'
        '        except Exception as e:\n'
        '            print(type(e).__name__, e)\n'
        'print(torch.nn.CrossMapLRN2d(3), torch.nn.CrossMapLRN2d(2, 1, 2, 3), type(torch.nn.CrossMapLRN2d(3)).__mro__)\n'
        'tries(lambda: torch.nn.CrossMapLRN2d(), lambda: torch.nn.CrossMapLRN2d(3)(torch.ones(2, 2, 2, 2), 1))'),
}


@pytest.mark.parametrize("name", SNIPPETS)
def test_snippet(name):
    code = SHOW + SNIPPETS[name]
    t, e = run_both(T, E, code)
    assert same(t, e), f"\n{code}\n--- torch\n{t.summary()}--- engine\n{e.summary()}"
