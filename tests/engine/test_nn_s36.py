"""The spatial transformer's grid_sample / affine_grid, max unpooling, power-average pooling, fractional max pooling,
feature alpha dropout and the lazy transposed convolutions: values, grad_fn names, saved attributes, gradients
against finite differences, and PyTorch's errors (engine only)."""
import warnings

import numpy as np
import pytest

import engine as torch
import engine.nn as nn
import engine.nn.functional as F

from numeric import check_first_order, check_second_order, numeric_grads


def _grid(shape, scale=1.3):
    return torch.tensor(np.sin(np.arange(int(np.prod(shape))) * 0.37).reshape(shape) * scale)


# ---------------------------------------------------------------------------------------------------- grid_sample

def test_grid_sample_at_pixel_centres_reads_the_pixels():
    x = torch.arange(12.).reshape(1, 1, 3, 4)
    # align_corners=True: -1 and 1 are the corner pixels' centres
    g = torch.tensor([[[[-1., -1.], [1., 1.], [1. / 3, 0.]]]])
    for mode in ('bilinear', 'nearest', 'bicubic'):
        y = F.grid_sample(x, g, mode=mode, align_corners=True)
        assert y.tolist() == [[[[0., 11., 6.]]]]
    # align_corners=False: -1 is the corner pixel's outer edge; half of it is outside (zeros padding)
    y = F.grid_sample(x, torch.tensor([[[[-1., -1.]]]]), align_corners=False)
    assert y.item() == 0.0
    y = F.grid_sample(x, torch.tensor([[[[-1., -1.]]]]), padding_mode='border', align_corners=False)
    assert y.item() == 0.0 and y.dtype == torch.float32


@pytest.mark.parametrize('mode', ['bilinear', 'nearest', 'bicubic'])
@pytest.mark.parametrize('padding_mode', ['zeros', 'border', 'reflection'])
@pytest.mark.parametrize('align_corners', [False, True])
def test_grid_sample_2d_gradients(mode, padding_mode, align_corners):
    x = torch.tensor(np.cos(np.arange(24.) * 0.7).reshape(1, 2, 3, 4), requires_grad=True)
    g = (_grid((1, 2, 3, 2), 1.6) + 0.013).requires_grad_()
    y = F.grid_sample(x, g, mode=mode, padding_mode=padding_mode, align_corners=align_corners)
    assert type(y.grad_fn).__name__ == 'GridSampler2DBackward0'
    assert y.grad_fn._saved_interpolation_mode == ('bilinear', 'nearest', 'bicubic').index(mode)
    assert y.grad_fn._saved_padding_mode == ('zeros', 'border', 'reflection').index(padding_mode)
    assert y.grad_fn._saved_align_corners is align_corners
    w = torch.tensor(np.arange(y.numel(), dtype=np.float64).reshape(y.shape))

    def f(a, b):
        return F.grid_sample(a, b, mode=mode, padding_mode=padding_mode, align_corners=align_corners) * w
    (y * w).sum().backward()
    gx, gg = numeric_grads(f, [x, g])
    assert np.allclose(x.grad.numpy(), gx, atol=1e-5)
    if mode == 'nearest':
        assert not g.grad.numpy().any()
    else:
        assert np.allclose(g.grad.numpy(), gg, atol=1e-4)


@pytest.mark.parametrize('mode', ['bilinear', 'nearest'])
@pytest.mark.parametrize('padding_mode', ['zeros', 'border', 'reflection'])
def test_grid_sample_3d_gradients(mode, padding_mode):
    x = torch.tensor(np.cos(np.arange(48.) * 0.7).reshape(1, 2, 2, 3, 4), requires_grad=True)
    g = (_grid((1, 2, 1, 2, 3), 1.4) + 0.011).requires_grad_()
    y = F.grid_sample(x, g, mode=mode, padding_mode=padding_mode, align_corners=False)
    assert type(y.grad_fn).__name__ == 'GridSampler3DBackward0' and y.shape == (1, 2, 2, 1, 2)

    def f(a, b):
        return F.grid_sample(a, b, mode=mode, padding_mode=padding_mode, align_corners=False)
    y.sum().backward()
    gx, gg = numeric_grads(f, [x, g])
    assert np.allclose(x.grad.numpy(), gx, atol=1e-5)
    assert np.allclose(g.grad.numpy(), gg if mode == 'bilinear' else 0 * gg, atol=1e-4)


@pytest.mark.parametrize('mode', ['bilinear', 'nearest', 'bicubic'])
def test_grid_sample_second_derivatives(mode):
    x = torch.tensor(np.cos(np.arange(24.) * 0.7).reshape(1, 2, 3, 4))
    g = _grid((1, 2, 3, 2), 0.9) + 0.013
    w = _grid((1, 2, 3, 2), 0.5) + 0.2
    check_second_order(lambda t: F.grid_sample(x, t, mode=mode, padding_mode='reflection', align_corners=False) ** 2,
                        g.clone().requires_grad_(), w)
    check_second_order(lambda t: F.grid_sample(t, g, mode=mode, align_corners=True) ** 3, x.clone().requires_grad_(),
                       torch.tensor(np.sin(np.arange(24.)).reshape(1, 2, 3, 4)))
    y = F.grid_sample(x.requires_grad_(), g.requires_grad_(), mode=mode, align_corners=False)
    gx, gg = torch.autograd.grad(y.pow(2).sum(), (x, g), create_graph=True)
    assert type(gx.grad_fn).__name__ == 'GridSampler2DBackwardBackward0' and gx.grad_fn is gg.grad_fn
    assert gx.grad_fn._saved_grad_output.shape == y.shape


def test_grid_sample_warns_and_checks():
    x, g = torch.ones(1, 2, 3, 4), torch.zeros(1, 2, 2, 2)
    with pytest.warns(UserWarning, match='Default grid_sample and affine_grid behavior has changed'):
        F.grid_sample(x, g)
    errors = [(lambda: F.grid_sample(x, g, mode='linear'), ValueError, "expected mode to be 'bilinear', 'nearest' or "
               "'bicubic', but got: 'linear'"),
              (lambda: F.grid_sample(x, g, padding_mode='zero'), ValueError, "expected padding_mode to be 'zeros', "
               "'border', or 'reflection', but got: 'zero'"),
              (lambda: F.grid_sample(x, g.double(), align_corners=False), RuntimeError,
               'expected scalar type Float but found Double'),
              (lambda: F.grid_sample(x[0], g, align_corners=False), RuntimeError,
               r'expected grid and input to have same batch size, but got input with sizes \[2, 3, 4\]'),
              (lambda: F.grid_sample(x, g[..., :1], align_corners=False), RuntimeError,
               'expected grid to have size 2 in last dimension'),
              (lambda: F.grid_sample(x[None], torch.zeros(1, 1, 2, 2, 3), mode='bicubic', align_corners=False),
               RuntimeError, 'bicubic interpolation only supports 4D input'),
              (lambda: F.grid_sample(x.long(), g.long(), align_corners=False), NotImplementedError,
               '"grid_sampler_2d_cpu_kernel_impl" not implemented for \'Long\''),
              (lambda: F.grid_sample(x, g, align_corners=1), TypeError,
               r"grid_sampler\(\): argument 'align_corners' \(position 5\) must be bool, not int")]
    for call, kind, message in errors:
        with pytest.raises(kind, match=message):
            call()


# ---------------------------------------------------------------------------------------------------- affine_grid

def test_affine_grid_identity_and_gradient():
    eye = torch.tensor([[[1., 0., 0.], [0., 1., 0.]]])
    g = F.affine_grid(eye, (1, 1, 2, 3), align_corners=True)
    assert g.shape == (1, 2, 3, 2)
    assert g[0, :, :, 0].tolist() == [[-1., 0., 1.]] * 2 and g[0, :, :, 1].tolist() == [[-1.] * 3, [1.] * 3]
    g = F.affine_grid(eye, (1, 1, 2, 2), align_corners=False)
    assert g[0, 0].tolist() == [[-0.5, -0.5], [0.5, -0.5]]
    theta = torch.tensor(np.sin(np.arange(6.)).reshape(1, 2, 3), requires_grad=True)
    y = F.affine_grid(theta, [1, 3, 3, 4], align_corners=False)
    assert type(y.grad_fn).__name__ == 'AffineGridGeneratorBackward0'
    assert y.grad_fn._saved_size == (1, 3, 3, 4) and y.grad_fn._saved_align_corners is False
    check_first_order(lambda t: F.affine_grid(t, [1, 3, 3, 4], align_corners=False) ** 2, theta)
    theta3 = torch.tensor(np.sin(np.arange(24.)).reshape(2, 3, 4), requires_grad=True)
    check_first_order(lambda t: F.affine_grid(t, [2, 1, 2, 3, 2], align_corners=True) ** 2, theta3)


def test_affine_grid_checks():
    theta = torch.zeros(1, 2, 3)
    with pytest.raises(ValueError, match='Expected theta to have floating point type, but got torch.int64'):
        F.affine_grid(theta.long(), (1, 1, 2, 2), align_corners=False)
    with pytest.raises(ValueError, match=r'Expected a batch of 3D affine matrices of shape Nx3x4 for size '
                                         r'\(1, 1, 2, 2, 2\). Got torch.Size\(\[1, 2, 3\]\).'):
        F.affine_grid(theta, (1, 1, 2, 2, 2), align_corners=False)
    with pytest.raises(NotImplementedError, match='affine_grid only supports 4D and 5D sizes'):
        F.affine_grid(theta, (1, 1, 2), align_corners=False)
    with pytest.raises(ValueError, match=r'Expected non-zero, positive output size. Got \(1, 1, 0, 2\)'):
        F.affine_grid(theta, (1, 1, 0, 2), align_corners=False)
    with pytest.warns(UserWarning, match='affine_grid behavior has changed for unit-size grids'):
        F.affine_grid(theta, (1, 1, 1, 2), align_corners=True)


def test_spatial_transformer_step():
    """The tutorial's localisation output theta warps the input; both get gradients."""
    x = torch.tensor(np.cos(np.arange(2 * 1 * 5 * 5.)).reshape(2, 1, 5, 5), requires_grad=True)
    theta = torch.tensor([[[0.9, 0.1, 0.05], [-0.1, 1.1, 0.]], [[1., 0., 0.], [0., 1., 0.]]], dtype=torch.float64,
                         requires_grad=True)
    moved = theta.detach() + torch.tensor([[[0.013, -0.02, 0.021]], [[0.01, 0.02, 0.03]]], dtype=torch.float64)
    with warnings.catch_warnings():
        warnings.simplefilter('error')
        grid = F.affine_grid(theta, x.size(), align_corners=False)
        y = F.grid_sample(x, grid, align_corners=False)
    assert y.shape == x.shape and np.allclose(y[1].detach().numpy(), x[1].detach().numpy())
    check_first_order(lambda t: F.grid_sample(x.detach(), F.affine_grid(t, x.size(), align_corners=False),
                                              align_corners=False) ** 2, moved.requires_grad_())


# ---------------------------------------------------------------------------------------------------- max unpooling

@pytest.mark.parametrize('nd', [1, 2, 3])
def test_max_unpool_inverts_max_pool(nd):
    shape = {1: (2, 3, 6), 2: (2, 3, 4, 6), 3: (1, 2, 4, 4, 6)}[nd]
    x = torch.tensor(np.sin(np.arange(int(np.prod(shape))) * 0.7).reshape(shape), requires_grad=True)
    pool = getattr(F, 'max_pool%dd' % nd)
    p, i = pool(x, 2, return_indices=True)
    y = getattr(F, 'max_unpool%dd' % nd)(p, i, 2)
    assert y.shape == x.shape
    kept = y.detach().numpy() != 0
    assert np.array_equal(y.detach().numpy()[kept], x.detach().numpy()[kept])
    assert int(kept.sum()) == p.numel()
    name = {1: 'SqueezeBackward1', 2: 'MaxUnpool2DBackward0', 3: 'MaxUnpool3DBackward0'}[nd]
    assert type(y.grad_fn).__name__ == name
    m = getattr(nn, 'MaxUnpool%dd' % nd)(2)
    assert repr(m) == 'MaxUnpool%dd(kernel_size=%s, stride=%s, padding=%s)' % (
        nd, (2,) * nd, (2,) * nd, (0,) * nd)
    q = p.detach().requires_grad_()
    check_first_order(lambda t: m(t, i) ** 2, q)
    check_second_order(lambda t: m(t, i) ** 3, p.detach().requires_grad_(),
                       torch.tensor(np.cos(np.arange(q.numel())).reshape(q.shape)))


def test_max_unpool_output_size_and_errors():
    x = torch.arange(16.).reshape(1, 1, 4, 4)
    p, i = F.max_pool2d(x, 2, return_indices=True)
    assert F.max_unpool2d(p, i, 2, output_size=(5, 5)).shape == (1, 1, 5, 5)
    assert F.max_unpool2d(p, i, 2, output_size=[1, 1, 5, 5]).shape == (1, 1, 5, 5)
    with pytest.raises(ValueError, match=r'invalid output_size "\(6, 5\)" \(dim 0 must be between 2 and 6\)'):
        F.max_unpool2d(p, i, 2, output_size=(6, 5))
    with pytest.raises(ValueError, match="output_size should be a sequence containing 2 or 4 elements, but it has a "
                                         "length of '3'"):
        F.max_unpool2d(p, i, 2, output_size=(1, 5, 5))
    with pytest.raises(RuntimeError, match=r'Found an invalid max index: 15 \(output volumes are of size 1x1'):
        F.max_unpool2d(p, torch.tensor([[[[0, 0], [0, 15]]]]), 2, 1, 1)
    with pytest.raises(RuntimeError, match='elements in indices should be type int64 but got: Int'):
        F.max_unpool2d(p, i.int(), 2)
    with pytest.raises(RuntimeError, match=r'Expected shape of indices to be same as that of the input tensor '
                                           r'\(\[1, 1, 2, 2\]\) but got indices tensor with shape: \[1, 2, 2\]'):
        F.max_unpool2d(p, i[0], 2)
    with pytest.raises(NotImplementedError, match='"max_unpool2d" not implemented for \'Long\''):
        F.max_unpool2d(p.long(), i, 2)
    with pytest.raises(RuntimeError, match=r'strides should be greater than zero, but got stride: \[0, 0, 0\]'):
        F.max_unpool3d(p[None], i[None], 2, 0)


# ---------------------------------------------------------------------------------------------------- lp pooling

@pytest.mark.parametrize('nd', [1, 2, 3])
def test_lp_pool_is_the_windows_p_norm(nd):
    shape = {1: (2, 2, 6), 2: (1, 2, 4, 4), 3: (1, 1, 2, 4, 4)}[nd]
    x = torch.tensor(np.sin(np.arange(int(np.prod(shape))) * 0.7).reshape(shape) + 1.5, requires_grad=True)
    fn = getattr(F, 'lp_pool%dd' % nd)
    y = fn(x, 3, 2)
    assert type(y.grad_fn).__name__ == 'PowBackward0'
    assert type(y.grad_fn.next_functions[0][0]).__name__ == 'MulBackward0'
    windows = getattr(F, 'avg_pool%dd' % nd)(x.detach() ** 3, 2) * 2 ** nd
    assert np.allclose(y.detach().numpy(), windows.numpy() ** (1 / 3))
    ymax = fn(x, float('inf'), 2)
    assert type(ymax.grad_fn).__name__ == 'MaxPool%dDWithIndicesBackward0' % max(nd, 2) or nd == 1
    check_first_order(lambda t: fn(t, 2, 2), x)
    m = getattr(nn, 'LPPool%dd' % nd)(2, 2)
    assert repr(m) == 'LPPool%dd(norm_type=2, kernel_size=2, stride=None, ceil_mode=False)' % nd
    with pytest.raises(ValueError, match='too many values to unpack'):
        F.lp_pool2d(x, 2, (2, 1, 1))


# ---------------------------------------------------------------------------------------------------- fractional max pool

def test_fractional_max_pool_windows_and_gradients():
    x = torch.tensor(np.sin(np.arange(50.) * 0.7).reshape(1, 2, 5, 5), requires_grad=True)
    s = torch.full((1, 2, 2), 0.5, dtype=torch.float64)
    y, i = F.fractional_max_pool2d(x, 2, 3, return_indices=True, _random_samples=s)
    assert y.shape == (1, 2, 3, 3) and i.dtype == torch.int64
    # alpha = (5 - 2) / (3 - 1) = 1.5: windows start at int(0.75) - int(0.75) = 0, int(2.25) - 0 = 2, and 5 - 2 = 3
    plane = x.detach().numpy()[0, 0]
    for a, r in enumerate((0, 2, 3)):
        for b, c in enumerate((0, 2, 3)):
            assert y[0, 0, a, b].item() == plane[r:r + 2, c:c + 2].max()
    assert type(y.grad_fn).__name__ == 'FractionalMaxPool2DBackward0'
    assert y.grad_fn._saved_kernel_size == (2, 2) and y.grad_fn._saved_output_size == (3, 3)
    f = lambda t: F.fractional_max_pool2d(t, 2, 3, _random_samples=s) ** 2  # noqa: E731
    check_first_order(f, x)
    g, = torch.autograd.grad(f(x).sum(), x, create_graph=True)
    assert type(g.grad_fn).__name__ == 'FractionalMaxPool2DBackwardBackward0'
    x3 = torch.tensor(np.sin(np.arange(2 * 5 * 5 * 5.)).reshape(1, 2, 5, 5, 5), requires_grad=True)
    s3 = torch.full((1, 2, 3), 0.3, dtype=torch.float64)
    y3 = F.fractional_max_pool3d(x3, 2, 3, _random_samples=s3)
    assert y3.shape == (1, 2, 3, 3, 3) and type(y3.grad_fn).__name__ == 'FractionalMaxPool3DBackward0'
    check_first_order(lambda t: F.fractional_max_pool3d(t, 2, 3, _random_samples=s3) ** 2, x3)
    assert F.fractional_max_pool2d(x, 2, output_ratio=(0.5, 0.5)).shape == (1, 2, 2, 2)
    with pytest.raises(TypeError, match="object of type 'float' has no len()"):     # (as PyTorch's Python)
        F.fractional_max_pool2d(x, 2, output_ratio=0.5)


def test_fractional_max_pool_checks_and_modules():
    x = torch.zeros(1, 2, 5, 5)
    s = torch.full((1, 2, 2), 0.5)
    for call, kind, message in [
            (lambda: F.fractional_max_pool2d(x, 2), ValueError,
             'fractional_max_pool2d requires specifying either an output_size or an output_ratio'),
            (lambda: F.fractional_max_pool2d(x, 2, 5, _random_samples=s), RuntimeError,
             r'fractional_max_pool2d\(\): pool height 2 too large relative to input height 5'),
            (lambda: F.fractional_max_pool2d(x, 2, 3, _random_samples=s.double()), RuntimeError,
             'Expect _random_samples to have the same dtype as input'),
            (lambda: F.fractional_max_pool2d(x, 2, 3, _random_samples=s[:, :1]), RuntimeError,
             r'Expect _random_samples.size\(1\) equals to input channel size.'),
            (lambda: F.fractional_max_pool3d(torch.zeros(1, 1, 5, 5, 5), 1, (5, 2, 2),
                                             _random_samples=torch.zeros(1, 1, 3)),
             RuntimeError, r'fractional_max_pool3d_out\(\): pool time 1 too large relative to input time 5'),
            (lambda: nn.FractionalMaxPool2d(2), ValueError,
             'FractionalMaxPool2d requires specifying either an output size, or a pooling ratio'),
            (lambda: nn.FractionalMaxPool2d(2, output_ratio=1.5), ValueError,
             r'output_ratio must be between 0 and 1 \(got 1.5\)'),
            (lambda: nn.FractionalMaxPool3d(0, 3), ValueError, 'kernel_size must be greater than 0, but got 0')]:
        with pytest.raises(kind, match=message):
            call()
    m = nn.FractionalMaxPool2d(2, 3, _random_samples=s)
    assert repr(m) == 'FractionalMaxPool2d()' and list(m.state_dict()) == ['_random_samples']
    assert m(x).shape == (1, 2, 3, 3)


# ---------------------------------------------------------------------------------------------------- the rest

def test_feature_alpha_dropout():
    torch.manual_seed(0)
    x = torch.ones(4, 6, 3, 5)
    assert F.feature_alpha_dropout(x, 0.5) is x                      # (training=False by default)
    y = F.feature_alpha_dropout(x, 0.5, True)
    values = y.numpy()
    assert (values == values[:, :, :1, :1]).all() and len(set(values.ravel().tolist())) == 2
    m = nn.FeatureAlphaDropout(0.2)
    assert repr(m) == 'FeatureAlphaDropout(p=0.2, inplace=False)' and m.eval()(x) is x
    with pytest.raises(RuntimeError, match='Feature dropout requires at least 2 dimensions in the input'):
        F.feature_alpha_dropout(torch.ones(3), 0.5, True)
    with pytest.raises(RuntimeError, match="result type Float can't be cast to the desired output type Long"):
        F.feature_alpha_dropout(x.long(), 0.5, True)
    with pytest.raises(ValueError, match='dropout probability has to be between 0 and 1, but got 1.5'):
        F.feature_alpha_dropout(x, 1.5, True)


def test_channel_shuffle_module():
    x = torch.arange(8.).reshape(1, 4, 1, 2)
    m = nn.ChannelShuffle(2)
    assert repr(m) == 'ChannelShuffle(groups=2)'
    assert m(x)[0, :, 0, 0].tolist() == [0., 4., 2., 6.]
    assert F.channel_shuffle is torch.channel_shuffle


@pytest.mark.parametrize('nd', [1, 2, 3])
def test_lazy_conv_transpose(nd):
    m = getattr(nn, 'LazyConvTranspose%dd' % nd)(4, 3, stride=2)
    assert m.has_uninitialized_params()
    x = torch.ones((2, 6) + (3,) * nd)
    y = m(x)
    assert type(m).__name__ == 'ConvTranspose%dd' % nd and m.in_channels == 6
    assert m.weight.shape == (6, 4) + (3,) * nd and m.bias.shape == (4,) and y.shape == (2, 4) + (7,) * nd
    m = getattr(nn, 'LazyConvTranspose%dd' % nd)(4, 3, stride=2, groups=2, bias=False)
    assert m(x[0], output_size=[8] * nd).shape == (4,) + (8,) * nd and m.weight.shape == (6, 2) + (3,) * nd
    with pytest.raises(RuntimeError, match='Expected %dD \\(unbatched\\) or %dD \\(batched\\) input to '
                                           'LazyConvTranspose%dd' % (nd + 1, nd + 2, nd)):
        getattr(nn, 'LazyConvTranspose%dd' % nd)(4, 3)(torch.ones(3))
    with pytest.raises(ValueError, match='Only "zeros" padding mode is supported for LazyConvTranspose'):
        getattr(nn, 'LazyConvTranspose%dd' % nd)(4, 3, padding_mode='reflect')


# ---------------------------------------------------------------------------------------------------- CTC loss

def test_ctc_loss_values_nodes_and_gradients():
    # one step, one label: the loss is -log p(label)
    lp = torch.tensor([[[-0.5, -1.5, -2.0]]], dtype=torch.float64)
    assert np.isclose(F.ctc_loss(lp, torch.tensor([[1]]), [1], [1], reduction='none').item(), 1.5)
    # two steps, one label: paths "1 1", "- 1", "1 -"
    p = np.array([[0.5, 0.3, 0.2], [0.6, 0.1, 0.3]])
    lp = torch.tensor(np.log(p)[:, None, :], requires_grad=True)
    loss = F.ctc_loss(lp, torch.tensor([[1]]), [2], [1], reduction='sum')
    assert np.isclose(loss.item(), -np.log(p[0, 1] * p[1, 1] + p[0, 0] * p[1, 1] + p[0, 1] * p[1, 0]))
    assert type(loss.grad_fn).__name__ == 'SumBackward0'
    node = loss.grad_fn.next_functions[0][0]
    assert type(node).__name__ == 'CtcLossBackward0'
    assert node._saved_input_lengths == (2,) and node._saved_target_lengths == (1,) and node._saved_blank == 0
    assert node._saved_result1.shape == (1, 2, 3)
    mean = F.ctc_loss(lp, torch.tensor([[1]]), [2], [1])
    assert type(mean.grad_fn).__name__ == 'MeanBackward0'
    x = torch.tensor(np.sin(np.arange(6 * 3 * 5.)).reshape(6, 3, 5), requires_grad=True)
    targets = torch.tensor([[1, 2, 2], [3, 3, 1], [4, 1, 2]])
    for reduction in ('mean', 'sum', 'none'):
        x.grad = None
        check_first_order(lambda t: F.ctc_loss(t.log_softmax(2), targets, [6, 5, 3], [3, 2, 1],
                                               reduction=reduction), x)
    # an impossible alignment: infinite loss, zeroed with zero_infinity (and its gradient too)
    lp = torch.zeros(2, 1, 3, requires_grad=True)
    assert F.ctc_loss(lp, torch.tensor([[1, 1]]), [2], [2], reduction='none').item() == float('inf')
    y = F.ctc_loss(lp, torch.tensor([[1, 1]]), [2], [2], reduction='sum', zero_infinity=True)
    y.backward()
    assert y.item() == 0 and not lp.grad.numpy().any()
    m = nn.CTCLoss(blank=2, zero_infinity=True)
    assert repr(m) == 'CTCLoss()' and (m.blank, m.zero_infinity, m.reduction) == (2, True, 'mean')


def test_ctc_loss_checks():
    lp = torch.zeros(5, 2, 4)
    t = torch.tensor([[1, 2], [1, 1]])
    for call, message in [(lambda: F.ctc_loss(lp, t, [5, 5], [2, 2], blank=4), 'blank must be in label range'),
                          (lambda: F.ctc_loss(lp, t, [5], [2, 2]), 'input_lengths must be of size batch_size'),
                          (lambda: F.ctc_loss(lp, t, [5, 6], [2, 2]),
                           'Expected input_lengths to have value at most 5, but got value 6'),
                          (lambda: F.ctc_loss(lp, t, [5, 5], [2, 3]),
                           "Expected tensor to have size at least 3 at dimension 1, but got size 2 for argument #2 "
                           "'targets'"),
                          (lambda: F.ctc_loss(lp, t.flatten(), [5, 5], [2, 1]),
                           "Expected tensor to have size 3 at dimension 0, but got size 4"),
                          (lambda: F.ctc_loss(lp, t, torch.tensor([5., 5]), torch.tensor([2, 2])),
                           'input_lengths must be integral')]:
        with pytest.raises(RuntimeError, match=message):
            call()
    with pytest.raises(ValueError, match='avg is not a valid value for reduction'):
        F.ctc_loss(lp, t, [5, 5], [2, 2], reduction='avg')
    with pytest.raises(TypeError, match=r'ctc_loss\(\) received an invalid combination of arguments'):
        F.ctc_loss(lp, t, 5, 2)


# ---------------------------------------------------------------------------------------------------- adaptive softmax

def test_adaptive_log_softmax_with_loss():
    torch.manual_seed(0)
    m = nn.AdaptiveLogSoftmaxWithLoss(8, 10, [3, 6], div_value=2., dtype=torch.float64)
    assert [p.shape for p in m.parameters()] == [(5, 8), (4, 8), (3, 4), (2, 8), (4, 2)]
    x = torch.tensor(np.sin(np.arange(40.)).reshape(5, 8), requires_grad=True)
    t = torch.tensor([0, 4, 9, 2, 7])
    out = m(x, t)
    assert type(out).__name__ == '_ASMoutput' and out._fields == ('output', 'loss')
    full = m.log_prob(x)
    assert np.allclose(full.exp().sum(1).detach().numpy(), 1)
    assert np.allclose(out.output.detach().numpy(), full.detach().numpy()[np.arange(5), t.numpy()])
    assert np.isclose(out.loss.item(), -out.output.mean().item())
    assert type(out.output.grad_fn).__name__ == 'AddBackward0' and type(out.loss.grad_fn).__name__ == 'MeanBackward0'
    assert m.predict(x).tolist() == full.argmax(1).tolist()
    check_first_order(lambda a: m(a, t).output, x)
    assert m(x[0], t[0]).output.shape == ()
    for call, kind, message in [
            (lambda: m(x, t[:3]), RuntimeError, 'Input and target should have the same size in the batch dimension.'),
            (lambda: m(x, t[None]), RuntimeError, '0D or 1D target tensor expected, multi-target not supported'),
            (lambda: m(x, torch.tensor([0, 1, 2, 3, 10])), RuntimeError,
             r'Target values should be in \[0, 9\], but values in range \[0, 10\] were found. '),
            (lambda: nn.AdaptiveLogSoftmaxWithLoss(8, 10, []), ValueError,
             'cutoffs should be a sequence of length larger than 0'),
            (lambda: nn.AdaptiveLogSoftmaxWithLoss(8, 10, [6, 3]), ValueError,
             'cutoffs should be a sequence of unique, positive integers sorted in an increasing order')]:
        with pytest.raises(kind, match=message):
            call()
