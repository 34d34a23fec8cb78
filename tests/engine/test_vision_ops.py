"""Vision ops (interpolate, unfold / fold, transposed convolution, adaptive max pooling, pixel shuffle): values and
nodes written in from PyTorch 2.13, gradients against finite differences (float64). Engine only: runs in Pyodide."""
import numpy as np
import pytest

import engine as torch
from engine import nn
from engine.nn import functional as F

from numeric import numeric_grads

F32 = np.float32


def data(*shape, k=1, dtype=torch.float64):
    n = int(np.prod(shape))
    return (((torch.arange(n, dtype=torch.int64) * 7919 * k) % 1000 - 500) / 173.).view(*shape).to(dtype)


def check_grads(f, *inputs, atol=1e-6):
    """The engine's gradients of sum(f(*inputs) * w) against central differences (w breaks symmetries)."""
    ts = [t.detach().requires_grad_() for t in inputs]
    w = data(*f(*ts).shape, k=13)
    (f(*ts) * w).sum().backward()
    for t, expected in zip(ts, numeric_grads(lambda *a: f(*a) * w, inputs)):
        assert np.allclose(t.grad.numpy(), expected, atol=atol), (t.grad.numpy(), expected)


def bits(t, expected):
    """Bit-for-bit float32 equality with PyTorch's values (written as Python floats)."""
    return np.array_equal(t.detach().numpy(), np.array(expected, dtype=F32))


def test_nearest_values_grad_and_node():
    x = torch.tensor([[[[1., 2.], [3., 4.]]]], requires_grad=True)
    y = F.interpolate(x, size=(3, 5))
    y.backward(torch.arange(15.).view(1, 1, 3, 5))
    assert y.tolist() == [[[[1.0, 1.0, 1.0, 2.0, 2.0], [1.0, 1.0, 1.0, 2.0, 2.0], [3.0, 3.0, 3.0, 4.0, 4.0]]]]
    assert x.grad.tolist() == [[[[21.0, 24.0], [33.0, 27.0]]]]
    g = y.grad_fn
    assert g.name() == 'UpsampleNearest2DBackward0'
    assert (g._saved_output_size, g._saved_scales_h, g._saved_scales_w, g._saved_self_sym_sizes) == \
        ((3, 5), None, None, (1, 1, 2, 2))
    g = F.interpolate(x, scale_factor=2).grad_fn
    assert (g._saved_scales_h, g._saved_scales_w, g._saved_output_size) == (2.0, 2.0, (4, 4))


def test_nearest_1d_scale_and_exact():
    x = torch.tensor([[[0.1, -1.3, 2.7, 0.4, 5.5]]])
    assert bits(F.interpolate(x, scale_factor=1.7), [[[0.1, 0.1, -1.3, -1.3, 2.7, 2.7, 0.4, 5.5]]])
    assert bits(F.interpolate(x, scale_factor=1.7, mode='nearest-exact'), [[[0.1, 0.1, -1.3, 2.7, 2.7, 0.4, 0.4, 5.5]]])
    y = F.interpolate(x.requires_grad_(), 7, mode='nearest-exact')
    assert y.grad_fn.name() == 'UpsampleNearestExact1DBackward0'


def test_linear_bits_and_grad_bits():
    x = torch.tensor([[[0.1, -1.3, 2.7, 0.4, 5.5]]], requires_grad=True)
    y = F.interpolate(x, size=12, mode='linear')
    y.backward(torch.arange(12.).view(1, 1, 12) / 7)
    assert bits(y, [[[0.10000000149011612, -0.07499998062849045, -0.6583332419395447, -1.241666555404663,
                      0.2000000774860382, 1.8666666746139526, 2.2208335399627686, 1.2625000476837158,
                      0.6124991774559021, 2.737499713897705, 4.862500190734863, 5.5]]])
    assert bits(x.grad, [[[0.273809552192688, 1.0892857313156128, 1.8333333730697632, 2.7738099098205566,
                           3.4583330154418945]]])
    g = y.grad_fn
    assert g.name() == 'UpsampleLinear1DBackward0' and g._saved_align_corners is False and g._saved_scales is None


def test_bilinear_and_bicubic_values():
    x = torch.tensor([[[[1., 2.], [3., 4.]]]], requires_grad=True)
    y = nn.UpsamplingBilinear2d(scale_factor=2)(x)
    expected = [[[[1.0, 1.3333332538604736, 1.6666667461395264, 2.0],
                  [1.6666666269302368, 2.0, 2.3333334922790527, 2.6666665077209473],
                  [2.3333334922790527, 2.6666665077209473, 3.0, 3.3333334922790527],
                  [3.0, 3.3333332538604736, 3.6666667461395264, 4.0]]]]
    assert np.allclose(y.detach().numpy(), expected, rtol=0, atol=3e-7)
    assert y.grad_fn.name() == 'UpsampleBilinear2DBackward0' and y.grad_fn._saved_align_corners is True
    assert F.interpolate(x, size=(3, 3), mode='bilinear').tolist() == [[[[1.0, 1.5, 2.0], [2.0, 2.5, 3.0],
                                                                          [3.0, 3.5, 4.0]]]]
    y = F.interpolate(x, size=(3, 5), mode='bicubic')
    expected = [[[[0.7161394357681274, 0.9083894491195679, 1.3263890743255615, 1.7443891763687134, 1.9366397857666016],
                  [1.889750599861145, 2.082000494003296, 2.5, 2.9179999828338623, 3.11025071144104],
                  [3.0633621215820312, 3.2556118965148926, 3.6736111640930176, 4.091611385345459, 4.283862113952637]]]]
    assert np.allclose(y.detach().numpy(), expected, rtol=0, atol=5e-6)        # (a few float32 ulps)
    assert y.grad_fn.name() == 'UpsampleBicubic2DBackward0'


@pytest.mark.parametrize('kw', [dict(scale_factor=2, mode='bilinear'),
                                dict(size=(5, 4), mode='bilinear', align_corners=True), dict(size=(3, 7), mode='bicubic'),
                                dict(scale_factor=1.5, mode='nearest'),
                                dict(size=(4, 6), mode='nearest-exact')])
def test_interpolate_2d_gradients(kw):
    check_grads(lambda t: F.interpolate(t, **kw), data(1, 2, 3, 4))


@pytest.mark.parametrize('kw', [dict(scale_factor=2.5, mode='linear'), dict(size=4, mode='linear', align_corners=True),
                                dict(size=7)])
def test_interpolate_1d_gradients(kw):
    check_grads(lambda t: F.interpolate(t, **kw), data(2, 1, 5, k=3))


def test_interpolate_errors():
    x = torch.ones(1, 2, 2, 2)
    cases = [(lambda: F.interpolate(x, scale_factor=2, align_corners=True), ValueError,
              'align_corners option can only be set with the interpolating modes: linear | bilinear | bicubic | '
              'trilinear'),
             (lambda: F.interpolate(x), ValueError, 'either size or scale_factor should be defined'),
             (lambda: F.interpolate(x, 3, mode='linear'), NotImplementedError,
              'Got 4D input, but linear mode needs 3D input'),
             (lambda: F.interpolate(x, 0), RuntimeError,
              'Input and output sizes should be greater than 0, but got input (H: 2, W: 2) output (H: 0, W: 0)'),
             (lambda: F.interpolate(torch.ones(1, 1, 3), scale_factor=0.1), RuntimeError,
              'Input and output sizes should be greater than 0, but got input (W: 3) and output (W: 0)'),
             (lambda: F.interpolate(x.long(), 3), NotImplementedError,
              '"upsample_nearest2d_channels_last" not implemented for \'Long\'')]
    for f, kind, text in cases:
        with pytest.raises(kind) as e:
            f()
        assert str(e.value) == text


def test_upsample_module_reprs():
    assert repr(nn.Upsample(scale_factor=2)) == "Upsample(scale_factor=2.0, mode='nearest')"
    assert repr(nn.Upsample(size=3, mode='bilinear')) == "Upsample(size=3, mode='bilinear')"
    assert repr(nn.UpsamplingNearest2d(scale_factor=2)) == "UpsamplingNearest2d(scale_factor=2.0, mode='nearest')"
    assert repr(nn.UpsamplingBilinear2d(size=(2, 3))) == "UpsamplingBilinear2d(size=(2, 3), mode='bilinear')"


def test_unfold_fold_values_nodes_and_grads():
    u = F.unfold(torch.arange(12.).view(1, 1, 3, 4).requires_grad_(), 2, stride=(1, 2))
    assert u.tolist() == [[[0.0, 2.0, 4.0, 6.0], [1.0, 3.0, 5.0, 7.0], [4.0, 6.0, 8.0, 10.0], [5.0, 7.0, 9.0, 11.0]]]
    g = u.grad_fn
    assert g.name() == 'Im2ColBackward0'
    assert (g._saved_kernel_size, g._saved_stride, g._saved_self_sym_argsize_minus_1,
            g._saved_self_sym_argsize_minus_2) == ((2, 2), (1, 2), 4, 3)
    f = F.fold(torch.arange(16.).view(1, 4, 4).requires_grad_(), 3, 2)
    assert f.tolist() == [[[[0.0, 5.0, 5.0], [10.0, 30.0, 20.0], [10.0, 25.0, 15.0]]]]
    assert f.grad_fn.name() == 'Col2ImBackward0'
    check_grads(lambda t: F.unfold(t, (2, 3), dilation=(1, 2), padding=1, stride=(2, 1)), data(2, 2, 4, 5))
    check_grads(lambda t: F.fold(t, (4, 5), 3, padding=1, stride=(2, 1)), data(1, 18, 10, k=3))


def test_unfold_fold_errors_and_reprs():
    with pytest.raises(RuntimeError, match=r'^Given input with spatial size \(2, 2\), kernel_size=\(3, 3\), '
                       r'dilation=\(1, 1\), padding=\(0, 0\), calculated shape of the array of sliding blocks as '
                       r'\(0, 0\), but its components must be at least one\.$'):
        F.unfold(torch.ones(1, 1, 2, 2), 3)
    with pytest.raises(RuntimeError, match=r"^Expected size of input's dimension 1 to be divisible by the product of "
                       r"kernel_size, but got input.size\(1\)=5 and kernel_size=\(2, 2\)\.$"):
        F.fold(torch.ones(1, 5, 4), 3, 2)
    assert repr(nn.Unfold((2, 3), 2, 1, 3)) == 'Unfold(kernel_size=(2, 3), dilation=2, padding=1, stride=3)'
    assert repr(nn.Fold(3, 2)) == 'Fold(output_size=3, kernel_size=2, dilation=1, padding=0, stride=1)'


def test_conv_transpose_values_node_and_grads():
    y = F.conv_transpose1d(torch.tensor([[[1., 2., 3.]]]), torch.tensor([[[1., -1.]]]), stride=2, padding=1,
                           output_padding=1)
    assert y.tolist() == [[[-1.0, 2.0, -2.0, 3.0, -3.0]]]
    x, w = data(1, 2, 2, 2).requires_grad_(), torch.ones(2, 3, 2, 2, dtype=torch.float64, requires_grad=True)
    g = F.conv_transpose2d(x, w, stride=2).grad_fn
    assert g.name() == 'ConvolutionBackward0' and g._saved_transposed is True and g._saved_stride == (2, 2)
    assert g._saved_weight is w
    check_grads(lambda a, b, c: F.conv_transpose2d(a, b, c, stride=2, padding=1, output_padding=1),
                data(2, 3, 3, 4), data(3, 2, 3, 3, k=7), data(2, k=11))
    check_grads(lambda a, b: F.conv_transpose2d(a, b, None, (1, 2), 0, 0, 3, 2), data(1, 3, 3, 4),
                data(3, 2, 2, 3, k=7))
    check_grads(lambda a, b: F.conv_transpose1d(a, b, stride=3, padding=2), data(2, 3, 5, k=3), data(3, 4, 3, k=5))


def test_conv_transpose_module():
    m = nn.ConvTranspose2d(2, 3, (2, 3), stride=(2, 1), padding=1, dilation=2)
    assert repr(m) == 'ConvTranspose2d(2, 3, kernel_size=(2, 3), stride=(2, 1), padding=(1, 1), dilation=(2, 2))'
    assert m.weight.shape == (2, 3, 2, 3) and m.bias.shape == (3,)
    m = nn.ConvTranspose2d(2, 3, 2, stride=2)
    assert m(torch.ones(1, 2, 2, 2), output_size=(5, 5)).shape == (1, 3, 5, 5)
    with pytest.raises(ValueError, match=r'^requested an output size of \(7, 5\), but valid sizes range from \[4, 4\] '
                       r'to \[5, 5\] \(for an input of torch.Size\(\[2, 2\]\)\)$'):
        m(torch.ones(1, 2, 2, 2), output_size=(7, 5))
    assert repr(nn.ConvTranspose1d(2, 4, 3, padding=1, output_padding=1, groups=2, bias=False)) == \
        'ConvTranspose1d(2, 4, kernel_size=(3,), stride=(1,), padding=(1,), output_padding=(1,), groups=2, bias=False)'


def test_adaptive_max_pool():
    out, idx = F.adaptive_max_pool2d(torch.tensor([[[3., 1., 4.], [1., 5., 9.], [2., 6., 5.]]]), 2, return_indices=True)
    assert out.tolist() == [[[5., 9.], [6., 9.]]] and idx.tolist() == [[[4, 5], [7, 5]]] and idx.dtype == torch.int64
    x = data(1, 2, 3, 4).requires_grad_()
    y = F.adaptive_max_pool2d(x, (2, 3))
    assert y.grad_fn.name() == 'AdaptiveMaxPool2DBackward0' and y.grad_fn._saved_self is x
    assert F.adaptive_max_pool1d(data(1, 2, 5).requires_grad_(), 2).grad_fn.name() == 'SqueezeBackward1'
    check_grads(lambda t: F.adaptive_max_pool2d(t, (2, 3)), data(1, 2, 3, 4))
    check_grads(lambda t: F.adaptive_max_pool1d(t, 3), data(2, 2, 7, k=3))
    assert repr(nn.AdaptiveMaxPool2d((None, 2))) == 'AdaptiveMaxPool2d(output_size=(None, 2))'


def test_pixel_shuffle():
    y = F.pixel_shuffle(torch.arange(8.).view(1, 4, 1, 2).requires_grad_(), 2)
    assert y.tolist() == [[[[0.0, 2.0, 1.0, 3.0], [4.0, 6.0, 5.0, 7.0]]]]
    assert y.grad_fn.name() == 'PixelShuffleBackward0' and y.grad_fn._saved_upscale_factor == 2
    assert torch.equal(F.pixel_unshuffle(y, 2), torch.arange(8.).view(1, 4, 1, 2))
    check_grads(lambda t: F.pixel_shuffle(t, 2), data(2, 8, 2, 3))
    assert repr(nn.PixelShuffle(2)) == 'PixelShuffle(upscale_factor=2)'
