"""The op table, part 12: the vision ops of CNN / U-Net / autoencoder tutorials: interpolate (upsampling),
unfold / fold (im2col / col2im), transposed convolution, adaptive max pooling, pixel shuffle.

Same rules as `_ops_conv.py`: a numpy forward beside its backward node, named and saving what PyTorch 2.13's nodes
save. Upsampling computes its source indices and weights as PyTorch's CPU kernels do (nearest: exact; linear /
bilinear / bicubic: the same weights, products added in the kernel's order with its fused multiply-adds, bilinear
through the channels-last kernel where PyTorch takes it). Unfold, fold and pixel
shuffle backward through each other (so gradients of gradients work); upsampling, transposed convolution and
adaptive max pooling backward in numpy, with gradients of gradients as the convolutions and pools have them.
"""
import math
import operator

import numpy as np

from . import _argparse
from ._argparse import is_int
from ._autograd import Node, SavedTensor
from ._ops import _attach, _in_suggested_format, _out
from ._random import fma32
from ._factories import _fma64
from . import _memory_format as _mf
from ._ops_conv import (ConvolutionBackward0, _adaptive_output_size, _as_2d, _check_dims_1d, _check_weight,
                        _conv_param, _Geometry, _one, _read_ints, _sizes, _linear_in_grad, _scatter_planes,
                        _LinearInGrad, AdaptiveMaxPool2DBackwardBackward0, _adaptive_windows)
from ._tensor import Tensor, make, parser_type

_F32 = np.float32


def _fma(a, b, c):
    """a * b + c as PyTorch's compiled kernels compute it: fused (rounded once), in float32 or float64."""
    if np.result_type(a, b, c) == _F32:
        return fma32(a, b, c)
    return _fma64(a, b, c)


def _trunc_div(a, b):
    """C++ integer division (rounds toward zero)."""
    q = abs(a) // abs(b)
    return q if (a >= 0) == (b >= 0) else -q


# ================================================================================================ interpolate

_MODES = 'nearest | linear | bilinear | bicubic | trilinear | lanczos | area | nearest-exact'


def interpolate(input, size=None, scale_factor=None, mode='nearest', align_corners=None, recompute_scale_factor=None,
                antialias=False):
    """Resize the trailing 1 or 2 dims to `size` (or by `scale_factor`): F.interpolate's checks, then PyTorch's
    upsample_<mode><n>d op."""
    if mode in ('nearest', 'area', 'nearest-exact'):
        if align_corners is not None:
            raise ValueError('align_corners option can only be set with the interpolating modes: linear | bilinear | '
                             'bicubic | trilinear')
    elif align_corners is None:
        align_corners = False
    dim = input.dim() - 2
    if size is not None and scale_factor is not None:
        raise ValueError('only one of size or scale_factor should be defined')
    if size is not None:
        scales = None
        if isinstance(size, (list, tuple)):
            if len(size) != dim:
                raise ValueError('Input and output must have the same number of spatial dimensions, but got input with '
                                 'spatial dimensions of %s and output size of %s. Please provide input tensor in '
                                 '(N, C, d1, d2, ...,dK) format and output size in (o1, o2, ...,oK) format.'
                                 % (list(input.shape[2:]), size))
            if not all(isinstance(s, (int, np.integer)) or isinstance(s, Tensor) and not s.is_floating_point()
                       for s in size):
                raise TypeError('expected size to be one of int or Tuple[int] or Tuple[int, int] or Tuple[int, int, '
                                'int], but got size with types %s' % [type(s) for s in size])
            output_size = size
        else:
            output_size = [size] * dim
    elif scale_factor is not None:
        output_size = None
        if isinstance(scale_factor, (list, tuple)):
            if len(scale_factor) != dim:
                raise ValueError('Input and scale_factor must have the same number of spatial dimensions, but got '
                                 'input with spatial dimensions of %s and scale_factor of shape %s. Please provide '
                                 'input tensor in (N, C, d1, d2, ...,dK) format and scale_factor in (s1, s2, ...,sK) format.'
                                 % (list(input.shape[2:]), scale_factor))
            scales = scale_factor
        else:
            scales = [scale_factor] * dim
    else:
        raise ValueError('either size or scale_factor should be defined')
    if recompute_scale_factor and size is not None:
        raise ValueError('recompute_scale_factor is not meaningful with an explicit size.')
    if mode == 'area' and output_size is None:
        recompute_scale_factor = True
    if recompute_scale_factor:
        output_size = [int(input.shape[i + 2] * scales[i]) for i in range(dim)]     # (sym_int: int())
        scales = None
    if antialias and not (mode in ('bilinear', 'bicubic', 'lanczos') and input.dim() == 4):
        raise ValueError('Anti-alias option is restricted to bilinear, bicubic, and lanczos modes and requires a 4-D '
                         'tensor as input')
    if not (output_size is None or all(type(s) is int for s in output_size)) or not (
            scales is None or all(type(s) is float or type(s) is int for s in scales)):
        _check_upsample_args(input, mode, antialias, output_size, scales, align_corners)
    if antialias:
        raise NotImplementedError('antialias=True is not supported by Autograd Playground')
    kind = {(1, 'nearest'): 'nearest', (2, 'nearest'): 'nearest', (1, 'nearest-exact'): 'nearest-exact',
            (2, 'nearest-exact'): 'nearest-exact', (1, 'linear'): 'linear', (2, 'bilinear'): 'linear',
            (2, 'bicubic'): 'cubic'}.get((dim, mode))
    if kind is not None:
        return _upsample(input, kind, output_size, scales, align_corners)
    if mode == 'area' and dim in (1, 2):
        from ._ops_conv import adaptive_avg_pool1d, adaptive_avg_pool2d
        return (adaptive_avg_pool2d if dim == 2 else adaptive_avg_pool1d)(input, output_size)
    if dim in (1, 2, 3):
        for d, m in ((3, 'bilinear'), (3, 'trilinear'), (4, 'linear'), (4, 'trilinear'), (5, 'linear'),
                     (5, 'bilinear')):
            if input.dim() == d and mode == m:
                need = {'linear': 3, 'bilinear': 4, 'trilinear': 5}[m]
                raise NotImplementedError('Got %dD input, but %s mode needs %dD input' % (d, m, need))
        if dim == 3 and mode in ('nearest', 'nearest-exact', 'trilinear', 'area'):
            raise NotImplementedError('3-d (5-D input) interpolation is not supported by Autograd Playground')
    raise NotImplementedError('Input Error: Only 3D, 4D and 5D input Tensors supported (got %dD) for the modes: %s '
                              '(got %s)' % (input.dim(), _MODES, mode))


_UPSAMPLE_OPS = {'nearest': 'upsample_nearest%dd', 'nearest-exact': '_upsample_nearest_exact%dd',
                 'linear': 'upsample_linear1d', 'bilinear': 'upsample_bilinear2d', 'bicubic': 'upsample_bicubic2d',
                 'trilinear': 'upsample_trilinear3d'}


def _check_upsample_args(input, mode, antialias, output_size, scales, align_corners):
    """The argument parser of the op F.interpolate calls (upsample_nearest2d...), given sizes or scale factors
    that are not all ints or floats (size=3.0 is a list of floats there: its TypeError; a later bool is read as an
    int). Area mode's adaptive pooling reads its output size itself."""
    nd = input.dim() - 2
    name = _UPSAMPLE_OPS.get(mode)
    if name is None or nd not in (1, 2, 3) or mode in ('linear', 'bilinear', 'bicubic', 'trilinear') and \
            name[-2] != str(nd):
        return
    name = name % nd if '%' in name else name
    if antialias:
        name = '_%s_aa' % name
    corners = '' if '%' in _UPSAMPLE_OPS[mode] else 'bool align_corners, '
    scale_names = ('scales_d', 'scales_h', 'scales_w')[3 - nd:] if nd > 1 else ('scales',)
    parser = _argparse.signature_parser(
        '%s(Tensor input, SymIntArrayRef? output_size, %sArrayRef<double>? scale_factors)' % (name, corners),
        '%s(Tensor input, SymIntArrayRef[%d] output_size, %s%s, *, Tensor out=None)'
        % (name, nd, corners, ', '.join('double? %s=None' % n for n in scale_names)))
    args = (input, output_size) + (() if '%' in _UPSAMPLE_OPS[mode] else (align_corners,)) + (scales,)
    parser.check(args, {})


_NAMES = {'nearest': 'Nearest', 'nearest-exact': 'NearestExact', 'linear': 'Linear', 'cubic': 'Bicubic'}
_KERNELS = {'nearest': 'nearest', 'nearest-exact': 'nearest', 'linear': 'linear', 'cubic': 'cubic'}


def _source_scale(scale, in_size, out_size, align_corners, opmath):
    """PyTorch's area_pixel_compute_scale: the step in the input per output step."""
    if align_corners:
        return opmath(in_size - 1) / opmath(out_size - 1) if out_size > 1 else opmath(0)
    if scale is not None and scale > 0:
        return opmath(1.0 / scale)
    return opmath(in_size) / opmath(out_size)


def _real_index(s, o, align_corners, opmath, fused):
    """area_pixel_compute_source_index: where each output lands in the input (the kernels of UpSampleKernel.cpp,
    compiled with fused multiply-adds, round s * (o + 0.5) - 0.5 once; the bicubic backward rounds twice)."""
    if align_corners:
        return s * o.astype(opmath)
    half = o.astype(opmath) + opmath(0.5)
    return _fma(s, half, opmath(-0.5)) if fused else s * half - opmath(0.5)


def _guard(real, in_size, opmath):
    """guard_index_and_lambda: the index floorf() gives (of the index as a float32, doubles too), the rest in [0, 1]."""
    index = np.minimum(np.floor(real.astype(_F32)).astype(np.int64), in_size - 1)
    return index, np.minimum(np.maximum(real - index.astype(opmath), opmath(0)), opmath(1))


def _cubic_weights(t, opmath, fused):
    """get_cubic_upsample_coefficients (A = -0.75): the forward kernel's build fuses the first multiply-adds of each
    polynomial (not the last ones); the backward's (UpSampleBicubic2d.cpp) fuses none."""
    a = opmath(-0.75)
    if fused:
        def near(x):                               # |x| <= 1
            return _fma(a + opmath(2), x, -(a + opmath(3))) * x * x + opmath(1)

        def far(x):                                # 1 < |x| < 2
            return _fma(_fma(a, x, -(opmath(5) * a)), x, opmath(8) * a) * x - opmath(4) * a
    else:
        def near(x):
            return ((a + opmath(2)) * x - (a + opmath(3))) * x * x + opmath(1)

        def far(x):
            return ((a * x - opmath(5) * a) * x + opmath(8) * a) * x - opmath(4) * a
    rest = opmath(1) - t
    return np.stack([far(t + opmath(1)), near(t), near(rest), far(rest + opmath(1))], 1)


def _taps(kind, in_size, out_size, scale, align_corners, opmath, backward=False, generic=False):
    """(indices, weights), each (out_size, taps): where each output reads the input along one dim, and how much
    (weights None for the nearest modes), in PyTorch's arithmetic (float32 indices; opmath weights). `backward`:
    the backward kernels' arithmetic; `generic`: nearest's forward through upsample_generic_Nd_kernel_impl (no
    shortcuts for a copy or a doubling there; its scale in opmath)."""
    o = np.arange(out_size)
    if kind in ('nearest', 'nearest-exact'):
        if kind == 'nearest' and not generic and out_size == in_size:
            return o[:, None], None
        if kind == 'nearest' and not generic and out_size == 2 * in_size:
            return (o >> 1)[:, None], None
        if kind == 'nearest':
            s = _source_scale(scale, in_size, out_size, False, opmath if generic else _F32)
            src = np.floor((o.astype(s.dtype) * s).astype(_F32))
        else:
            s = _source_scale(scale, in_size, out_size, False, _F32)
            src = np.floor(((o + 0.5) * np.float64(s)).astype(_F32))
        return np.minimum(src.astype(np.int64), in_size - 1)[:, None], None
    s = _source_scale(scale, in_size, out_size, align_corners, opmath)
    if kind == 'linear':
        if out_size == in_size:                    # compute_source_index_and_lambda: a copy
            return np.stack([o, o], 1), np.stack([np.ones(out_size, opmath), np.zeros(out_size, opmath)], 1)
        real = _real_index(s, o, align_corners, opmath, True)
        if not align_corners:
            real = np.maximum(real, opmath(0))
        index, lam = _guard(real, in_size, opmath)
        return np.stack([index, index + (index < in_size - 1)], 1), np.stack([opmath(1) - lam, lam], 1)
    index, lam = _guard(_real_index(s, o, align_corners, opmath, not backward), in_size, opmath)
    return np.clip(index[:, None] + np.arange(-1, 3), 0, in_size - 1), _cubic_weights(lam, opmath, not backward)


def _plan(kind, in_shape, output_size, scales, align_corners, opmath, backward=False, generic=False):
    return [_taps(kind, n, m, s, align_corners, opmath, backward, generic)
            for n, m, s in zip(in_shape, output_size, scales)]


def _upsample(input, kind, output_size, scales, align_corners):
    """PyTorch's upsample_{nearest,_nearest_exact,linear,bilinear,bicubic}{1,2}d over the trailing dims."""
    nd = input.dim() - 2
    shape = input._data.shape
    scales = [None] * nd if scales is None else [float(s) for s in scales]
    if output_size is None:
        output_size = [int(math.floor(n * s)) for n, s in zip(shape[2:], scales)]
    output_size = tuple(int(s) for s in output_size)
    if min(shape[2:] + output_size) <= 0:
        names = ('H', 'W')[-nd:]
        given = ', '.join('%s: %d' % (k, v) for k, v in zip(names, shape[2:]))
        wanted = ', '.join('%s: %d' % (k, v) for k, v in zip(names, output_size))
        raise RuntimeError('Input and output sizes should be greater than 0, but got input (%s)%s output (%s)'
                           % (given, ' and' if nd == 1 else '', wanted))
    if input._data.size == 0 and shape[0] != 0 or shape[1] == 0:
        raise RuntimeError('Non-empty %dD data tensor expected but got a tensor with sizes %s'
                           % (nd + 2, _sizes(shape)))
    if input._data.dtype.kind != 'f':
        name = ('upsample_%s2d_channels_last' % ('bilinear' if kind == 'linear' else 'nearest')
                if nd == 2 and kind != 'cubic' else 'compute_indices_weights_' + _KERNELS[kind])
        raise NotImplementedError('"%s" not implemented for \'%s\'' % (name, input.dtype.legacy))
    x = input._data
    vectorized = nd == 2 and _vectorized_kernel(x, output_size)
    plan = _plan(kind, shape[2:], output_size, scales, align_corners, x.dtype.type, generic=not vectorized)
    if kind == 'linear' and nd == 2 and not vectorized:
        from . import _misc
        vectorized = _misc.settings['num_threads'] == 1 and shape[1] == 3
    out = _in_suggested_format(_gather(x, plan, kind == 'linear' and vectorized),
                               x)                  # (its fancy indexing leaves a layout of its own)
    node = 'Upsample%s%dDBackward0' % ('Bilinear' if kind == 'linear' and nd == 2 else _NAMES[kind], nd)
    saved = {'output_size': output_size, 'self_sym_sizes': shape}
    if kind in ('linear', 'cubic'):
        saved['align_corners'] = align_corners
    if nd == 1:
        saved['scales'] = scales[0]
    else:
        saved['scales_h'], saved['scales_w'] = scales
    return _attach(_out(out, input.dtype), _UPSAMPLE_NODES[node], (input,), saved)


def _vectorized_kernel(x, output_size):
    """_use_vectorized_kernel_cond_2d: whether upsample_nearest2d / bilinear2d run their channels-last kernels
    (bilinear's weighs the four corners at once, C innermost) rather than upsample_generic_Nd_kernel_impl:
    channels-last input with more than 3 channels, or small outputs (H + W <= 128). (Bilinear also takes it for 3
    channels on one thread.)"""
    return _mf.is_laid_out(x, _mf.channels_last) and x.shape[1] > 3 or sum(output_size) <= 128


def _weighted(ts, ws):
    """t0 * w0 + t1 * w1 (+ t2 * w2 + t3 * w3) as the kernel's compiled loop adds the taps: the second product
    first, the first fused onto it, then each next one fused onto the sum."""
    out = _fma(ts[0], ws[0], ts[1] * ws[1])
    for t, w in zip(ts[2:], ws[2:]):
        out = _fma(t, w, out)
    return out


def _gather(x, plan, channels_last=False):
    """The forward: each output the weighted taps of the last dim, then of the dim before (the kernel's order);
    bilinear's channels-last kernel weighs the four corners at once (h * w weights), vectors of channels in one
    order and the channels left after whole vectors in another."""
    (iw, ww) = plan[-1]
    if channels_last:
        (ih, wh) = plan[0]
        corner = [x[..., ih[:, a, None], iw[None, :, b]] for a in (0, 1) for b in (0, 1)]
        w = [wh[:, a, None] * ww[None, :, b] for a in (0, 1) for b in (0, 1)]
        channels = x.shape[1]
        whole = channels - channels % (8 if x.dtype == _F32 else 4)       # (vectors of 256 bits)
        parts = []
        if whole:                                  # i00*w00 + (i01*w01 + (i10*w10 + i11*w11)), fused
            c = [t[:, :whole] for t in corner]
            parts.append(_fma(c[0], w[0], _fma(c[1], w[1], _fma(c[3], w[3], c[2] * w[2]))))
        if whole < channels:                       # ((i00*w00 + i01*w01) + i10*w10) + i11*w11, fused
            c = [t[:, whole:] for t in corner]
            parts.append(_weighted(c, w))
        return parts[0] if len(parts) == 1 else np.concatenate(parts, 1)
    if ww is None:
        row = x[..., iw[:, 0]]
    else:
        row = _weighted([x[..., iw[:, t]] for t in range(iw.shape[1])], [ww[:, t] for t in range(iw.shape[1])])
    if len(plan) == 1:
        return row
    ih, wh = plan[0]
    if wh is None:
        return row[..., ih[:, 0], :]
    return _weighted([row[..., ih[:, t], :] for t in range(ih.shape[1])], [wh[:, t, None] for t in range(ih.shape[1])])


class _UpsampleBackward(Node):
    """Each output's gradient added into the inputs it read, with the forward's weights, outputs in order."""
    kind = None

    def apply(self, g):
        s = self._saved
        shape, output_size = s['self_sym_sizes'], s['output_size']
        scales = [s['scales']] if 'scales' in s else [s['scales_h'], s['scales_w']]
        gd = g._data
        plan = _plan(self.kind, shape[2:], output_size, scales, s.get('align_corners'), gd.dtype.type, True)
        planes = int(np.prod(shape[:2]))
        flat = gd.reshape(planes, int(np.prod(output_size)))
        gx = np.zeros((planes, int(np.prod(shape[2:]))), gd.dtype)
        if self.kind == 'cubic':
            if tuple(shape[2:]) == tuple(output_size):             # the backward kernel copies then
                gx = flat.astype(gd.dtype, copy=True)
            else:                                   # each output: x taps, then y taps within, += g * wy * wx
                (ih, wh), (iw, ww) = plan
                index = (ih[:, None, None, :] * shape[-1] + iw[None, :, :, None]).reshape(1, -1)
                values = (flat.reshape(planes, output_size[0], output_size[1], 1, 1) * wh[:, None, None, :]) \
                    * ww[None, :, :, None]
                np.add.at(gx, (np.arange(planes)[:, None], index), values.reshape(planes, -1))
        else:
            if len(plan) == 1:
                (iw, ww), = plan
                index, weight = iw, ww
            else:
                (ih, wh), (iw, ww) = plan
                index = (ih[:, None, :, None] * shape[-1] + iw[None, :, None, :]).reshape(-1, ih.shape[1] * iw.shape[1])
                weight = None if wh is None else (wh[:, None, :, None] * ww[None, :, None, :]).reshape(index.shape)
            if weight is None:
                np.add.at(gx, (np.arange(planes)[:, None], index.reshape(1, -1)), np.repeat(flat, index.shape[1], 1))
            else:
                _scatter_fused(gx, index.reshape(-1), weight.reshape(-1), np.repeat(flat, index.shape[1], 1))
        return (_linear_in_grad(make(gx.reshape(shape)), _UPSAMPLE_NODES[self.name()[:-1] + 'Backward0'], (g,),
                                lambda gg: _upsample(gg, self.kind, output_size, None if scales[0] is None else scales,
                                                     s.get('align_corners')),
                                {k: v for k, v in s.items() if k != 'self_sym_sizes'}),)


def _scatter_fused(gx, target, weight, values):
    """gx[:, target[k]] = fma(weight[k], values[:, k], gx[:, target[k]]) for k in order, as the backward kernels
    add each output's share into its taps (outputs in order): in rounds that touch each target at most once."""
    order = np.argsort(target, kind='stable')
    sorted_target = target[order]
    first = np.searchsorted(sorted_target, sorted_target)
    rank = np.empty_like(target)
    rank[order] = np.arange(target.size) - first
    for r in range(int(rank.max()) + 1 if target.size else 0):
        k = np.nonzero(rank == r)[0]
        gx[:, target[k]] = _fma(weight[k], values[:, k], gx[:, target[k]])


_UPSAMPLE_NODES = {}
for _kind, _name in _NAMES.items():
    for _nd in (1, 2):
        _node = 'Upsample%s%dDBackward0' % ('Bilinear' if _kind == 'linear' and _nd == 2 else _name, _nd)
        _UPSAMPLE_NODES[_node] = type(_node, (_UpsampleBackward,), {'kind': _kind})
        _node = _node[:-1] + 'Backward0'         # (its gradient's node: the upsampling again, see _linear_in_grad)
        _UPSAMPLE_NODES[_node] = type(_node, (_LinearInGrad,), {})


def _deprecated(name):
    """F.upsample / upsample_nearest / upsample_bilinear: interpolate behind a deprecation warning."""
    import warnings

    def fn(input, size=None, scale_factor=None, mode='nearest', align_corners=None):
        warnings.warn('`nn.functional.%s` is deprecated. Use `nn.functional.interpolate` instead.' % name,
                      stacklevel=2)
        if name == 'upsample_nearest':
            return interpolate(input, size, scale_factor, mode='nearest')
        if name == 'upsample_bilinear':
            return interpolate(input, size, scale_factor, mode='bilinear', align_corners=True)
        return interpolate(input, size, scale_factor, mode, align_corners)
    fn.__name__ = fn.__qualname__ = name
    return fn


# ================================================================================================ unfold / fold

def _pair(name, value):
    """A kernel_size / dilation / padding / stride as two ints, with im2col's check of its length."""
    value = (value, value) if isinstance(value, int) else tuple(value)
    if len(value) != 2:
        raise RuntimeError('It is expected %s equals to 2, but got size %d' % (name, len(value)))
    return value


def _check_blocks(kernel, dilation, padding, stride, order):
    """im2col / col2im's checks of their sizes, in the order each makes them."""
    checks = {'kernel': ('kernel size should be greater than zero, but got kernel_height: %d kernel_width: %d',
                         kernel, min(kernel) > 0),
              'dilation': ('dilation should be greater than zero, but got dilation_height: %d dilation_width: %d',
                           dilation, min(dilation) > 0),
              'padding': ('padding should be non-negative, but got pad_height: %d pad_width: %d', padding,
                          min(padding) >= 0),
              'stride': ('stride should be greater than zero, but got stride_height: %d stride_width: %d', stride,
                         min(stride) > 0)}
    for name in order:
        text, value, ok = checks[name]
        if not ok:
            raise RuntimeError(text % tuple(value))


def _blocks(size, kernel, dilation, padding, stride):
    """The number of sliding blocks along each dim (PyTorch rounds toward -inf)."""
    return tuple((n + 2 * p - d * (k - 1) - 1) // s + 1 for n, k, d, p, s in zip(size, kernel, dilation, padding,
                                                                                  stride))


def unfold(input, kernel_size, dilation=1, padding=0, stride=1):
    """im2col: every kernel_size block of a (N, C, H, W) or (C, H, W) input as a column of
    (N, C * kh * kw, L) (Im2ColBackward0)."""
    kernel, dilation, padding, stride = (_pair(n, v) for n, v in (('kernel_size', kernel_size),
                                                                  ('dilation', dilation), ('padding', padding),
                                                                  ('stride', stride)))
    _check_blocks(kernel, dilation, padding, stride, ('kernel', 'dilation', 'padding', 'stride'))
    shape = input.shape
    input.size(1), input.size(2)
    if not (len(shape) == 3 and shape[0] and shape[1] and shape[2] or len(shape) == 4 and all(shape[1:])):
        raise RuntimeError('Expected 3D or 4D (batch mode) tensor with possibly 0 batch size and other non-zero '
                           'dimensions for input, but got: %s' % _sizes(shape))
    size = tuple(shape[-2:])
    blocks = _blocks(size, kernel, dilation, padding, stride)
    if min(blocks) < 1:
        raise RuntimeError('Given input with spatial size (%d, %d), kernel_size=(%d, %d), dilation=(%d, %d), '
                           'padding=(%d, %d), calculated shape of the array of sliding blocks as (%d, %d), but its '
                           'components must be at least one.' % (size + kernel + dilation + padding + blocks))
    if input._data.dtype.kind not in 'fc':
        raise NotImplementedError('"im2col_out_cpu" not implemented for \'%s\'' % input.dtype.legacy)
    x = input._data if len(shape) == 4 else input._data[None]
    (ph, pw), (kh, kw) = padding, kernel
    xp = np.pad(x, ((0, 0), (0, 0), (ph, ph), (pw, pw)))
    cols = np.empty((x.shape[0], x.shape[1], kh, kw) + blocks, x.dtype)
    for i in range(kh):
        for j in range(kw):
            r, c = i * dilation[0], j * dilation[1]
            cols[:, :, i, j] = xp[:, :, r:r + stride[0] * (blocks[0] - 1) + 1:stride[0],
                                  c:c + stride[1] * (blocks[1] - 1) + 1:stride[1]]
    cols = cols.reshape(x.shape[0], x.shape[1] * kh * kw, blocks[0] * blocks[1])
    out = _out(cols if len(shape) == 4 else cols[0], input.dtype)
    return _attach(out, Im2ColBackward0, (input,), {
        'dilation': dilation, 'kernel_size': kernel, 'padding': padding, 'self_sym_argsize_minus_1': size[1],
        'self_sym_argsize_minus_2': size[0], 'stride': stride})


class Im2ColBackward0(Node):
    def apply(self, g):
        s = self._saved
        return (fold(g, (s['self_sym_argsize_minus_2'], s['self_sym_argsize_minus_1']), s['kernel_size'],
                     s['dilation'], s['padding'], s['stride']),)


def fold(input, output_size, kernel_size, dilation=1, padding=0, stride=1):
    """col2im: the columns of a (N, C * kh * kw, L) input added back into a (N, C, *output_size) image, each block
    where unfold took it from (Col2ImBackward0)."""
    size, kernel, dilation, padding, stride = (_pair(n, v) for n, v in (
        ('output_size', output_size), ('kernel_size', kernel_size), ('dilation', dilation), ('padding', padding),
        ('stride', stride)))
    _check_blocks(kernel, dilation, padding, stride, ('kernel', 'stride', 'dilation', 'padding'))
    shape = input.shape
    if not (len(shape) == 2 and shape[0] and shape[1] or len(shape) == 3 and all(shape[1:])):
        raise RuntimeError('Expected 2D or 3D (batch mode) tensor for input with possibly 0 batch size and non-zero '
                           'dimensions for input, but got: %s' % _sizes(shape))
    planes, length = shape[-2:]
    if planes % (kernel[0] * kernel[1]):
        raise RuntimeError("Expected size of input's dimension 1 to be divisible by the product of kernel_size, but "
                           "got input.size(1)=%d and kernel_size=(%d, %d)." % ((planes,) + kernel))
    blocks = _blocks(size, kernel, dilation, padding, stride)
    geometry = ('Given output_size=(%d, %d), kernel_size=(%d, %d), dilation=(%d, %d), padding=(%d, %d), '
                'stride=(%d, %d)' % (size + kernel + dilation + padding + stride))
    if length != blocks[0] * blocks[1]:
        raise RuntimeError("%s, expected size of input's dimension 2 to match the calculated number of sliding blocks "
                           "%d * %d = %d, but got input.size(2)=%d." % (geometry, blocks[0], blocks[1],
                                                                        blocks[0] * blocks[1], length))
    if min(blocks) < 1:
        raise RuntimeError('%s, calculated shape of the array of sliding blocks as (%d, %d), which is invalid.'
                           % ((geometry,) + blocks))
    if input._data.dtype.kind not in 'fc':
        raise NotImplementedError('"col2im_out_cpu" not implemented for \'%s\'' % input.dtype.legacy)
    cols = input._data if len(shape) == 3 else input._data[None]
    (ph, pw), (kh, kw) = padding, kernel
    cols = cols.reshape(cols.shape[0], planes // (kh * kw), kh, kw, blocks[0], blocks[1])
    out = np.zeros(cols.shape[:2] + (size[0] + 2 * ph, size[1] + 2 * pw), cols.dtype)
    for i in range(kh):                             # taps in order, as PyTorch's col2im adds them
        for j in range(kw):
            r, c = i * dilation[0], j * dilation[1]
            out[:, :, r:r + stride[0] * (blocks[0] - 1) + 1:stride[0],
                c:c + stride[1] * (blocks[1] - 1) + 1:stride[1]] += cols[:, :, i, j]
    out = np.ascontiguousarray(out[:, :, ph:ph + size[0], pw:pw + size[1]])
    out = _out(out if len(shape) == 3 else out[0], input.dtype)
    return _attach(out, Col2ImBackward0, (input,), {'dilation': dilation, 'kernel_size': kernel, 'padding': padding,
                                                    'stride': stride})


class Col2ImBackward0(Node):
    def apply(self, g):
        s = self._saved
        return (unfold(g, s['kernel_size'], s['dilation'], s['padding'], s['stride']),)


# ========================================================================================= transposed convolution

def _conv_transpose(name, nd, input, weight, bias, stride, padding, output_padding, groups, dilation):
    """The gradient of a convolution with respect to its input, as an op: each input element scatters
    weight * itself into the output (ConvolutionBackward0 with transposed=True)."""
    if not isinstance(input, Tensor):
        raise TypeError("%s(): argument 'input' (position 1) must be Tensor, not %s" % (name, type(input).__name__))
    if isinstance(padding, str):
        raise TypeError("%s(): argument 'padding' must be tuple of ints, not str" % name)
    if input._data.ndim not in (nd + 1, nd + 2):
        raise RuntimeError('Expected %dD (unbatched) or %dD (batched) input to %s, but got input of size: %s'
                           % (nd + 1, nd + 2, name, _sizes(input._data.shape)))
    if input._data.ndim == nd + 1:                  # unbatched: unsqueeze, convolve, squeeze
        return _conv_transpose(name, nd, input.unsqueeze(0), weight, bias, stride, padding, output_padding, groups,
                               dilation).squeeze(0)
    wshape, wdim = weight._data.shape, weight._data.ndim - 2
    if wdim <= 0:
        raise RuntimeError('weight should have at least three dimensions')
    if groups <= 0:
        raise RuntimeError('non-positive groups is not supported')
    saved_stride, stride = _conv_param('stride', stride, nd, wdim)
    saved_padding, padding = _conv_param('padding', padding, nd, wdim)
    saved_dilation, dilation = _conv_param('dilation', dilation, nd, wdim)
    saved_out_pad, out_pad = _conv_param('output_padding', output_padding, nd, wdim)
    if any(p < 0 for p in padding):
        raise RuntimeError('negative padding is not supported')
    if any(p < 0 for p in out_pad):
        raise RuntimeError('negative output_padding is not supported')
    if any(s <= 0 for s in stride):
        raise RuntimeError('non-positive stride is not supported')
    empty = not input._data.shape[0]        # (an empty batch skips the kernel's checks of dilation, output_padding)
    if any(d <= 0 for d in dilation) and not empty:
        raise RuntimeError('dilation should be greater than zero, but got %s'
                           % ', '.join('dilation_%s: %d' % (k, d) for k, d in
                                       zip(('depth', 'height', 'width')[-wdim:], dilation)))
    _check_weight(input, wshape, wdim, groups)
    if input._data.shape[1] != wshape[0]:
        raise RuntimeError('Given transposed=1, weight of size %s, expected input%s to have %d channels, but got %d '
                           'channels instead' % (_sizes(wshape), _sizes(input._data.shape), wshape[0],
                                                 input._data.shape[1]))
    cout = wshape[1] * groups
    if bias is not None and (bias._data.ndim != 1 or bias._data.shape[0] != cout):
        raise RuntimeError('Given transposed=1, weight of size %s, expected bias to be 1-dimensional with %d elements, '
                           'but got bias of size %s instead' % (_sizes(wshape), cout, _sizes(bias._data.shape)))
    if nd == 1:
        stride, padding, dilation, out_pad = ((1,) + stride, (0,) + padding, (1,) + dilation, (0,) + out_pad)
    if any(o >= s and o >= d for o, s, d in zip(out_pad, stride, dilation)) and not empty:
        dims = ('depth', 'height', 'width')[-len(out_pad):]
        raise RuntimeError('output padding must be smaller than either stride or dilation, but got ' + ' '.join(
            '%s_%s: %d' % (what, k, v) for what, values in (('output_padding', out_pad), ('stride', stride),
                                                            ('dilation', dilation)) for k, v in zip(dims, values)))
    x, w = _as_2d(input._data, nd), _as_2d(weight._data, nd)
    out_hw = tuple((n - 1) * s - 2 * p + d * (k - 1) + o + 1 for n, s, p, d, k, o in
                   zip(x.shape[2:], stride, padding, dilation, w.shape[2:], out_pad))
    if not x.shape[0] and min(out_hw) < 0:         # (an empty batch is not checked: its empty output has no such size)
        shape = (0, cout) + out_hw
        at = next(i for i, n in enumerate(shape) if n < 0)
        raise RuntimeError('invalid shape dimension %d at index %d of shape %s' % (shape[at], at, _sizes(shape)))
    if min(out_hw) < 1 and x.shape[0]:
        raise RuntimeError('Given input size per channel: (%s). Calculated output size per channel: (%s). Output size '
                           'is too small' % (' x '.join(map(str, x.shape[2:])), ' x '.join(map(str, out_hw))))
    if weight._data.dtype != input._data.dtype:
        raise RuntimeError('expected scalar type %s but found %s' % (input.dtype.legacy, weight.dtype.legacy))
    geo = _Geometry((x.shape[0], cout) + out_hw, w.shape, stride, padding, dilation, groups, x.shape[2:])
    out = geo.grad_input(w, x)
    if bias is not None:
        out = out + bias._data.astype(out.dtype).reshape((-1,) + (1,) * (out.ndim - 2))
    out = _out(np.ascontiguousarray(out).reshape(out.shape[:2] + out.shape[-nd:]), input.dtype)
    return _attach(out, ConvolutionBackward0, (input, weight, bias), {
        'bias_sym_sizes_opt': (0,) if bias is None else bias._data.shape, 'dilation': saved_dilation,
        'groups': groups, 'input': SavedTensor(input), 'output_padding': saved_out_pad, 'padding': saved_padding,
        'stride': saved_stride, 'transposed': True, 'weight': SavedTensor(weight)})


def _transpose_parsed(name, nd):
    """conv_transpose1d / 2d / 3d with PyTorch's argument order (input, weight, bias, stride, padding, output_padding,
    groups, dilation)."""
    signature = ('%s(Tensor input, Tensor weight, Tensor? bias=None, SymIntArrayRef[%d] stride=1, SymIntArrayRef[%d] '
                 'padding=0, SymIntArrayRef[%d] output_padding=0, SymInt groups=1, SymIntArrayRef[%d] dilation=1)'
                 % ((name,) + (nd,) * 4))

    def bound(input, weight, bias=None, stride=1, padding=0, output_padding=0, groups=1, dilation=1):
        return input, weight, bias, stride, padding, output_padding, groups, dilation

    def fn(*args, **kwargs):
        try:
            values = bound(*args, **kwargs)
        except TypeError:
            values = None
        if values is None or not all(type(v) is int or type(v) in (tuple, list) and all(type(e) is int for e in v)
                                     for v in values[3:]) or not isinstance(values[1], Tensor) or not (
                                         values[2] is None or isinstance(values[2], Tensor)):
            # (the parser's TypeErrors, naming the argument's position if it was given by position: a float
            # stride, a bool, padding='same', a missing weight)
            _argparse.signature_parser(signature).check(args, kwargs)
            if values is None:
                bound(*args, **kwargs)
            values = values[:3] + tuple(map(_read_ints, values[3:]))
            values = values[:3] + tuple(type(v)(int(e) for e in v) if isinstance(v, (tuple, list)) else v
                                        for v in values[3:])        # (a later bool read as 0 or 1)
        return _conv_transpose(name, nd, *values)
    fn.__name__ = fn.__qualname__ = name
    fn.__doc__ = 'Transposed %d-d convolution: the gradient of conv%dd with respect to its input, as an op.' % (nd, nd)
    return fn


conv_transpose1d = _transpose_parsed('conv_transpose1d', 1)
conv_transpose2d = _transpose_parsed('conv_transpose2d', 2)
conv_transpose3d = _transpose_parsed('conv_transpose3d', 3)


# ================================================================================================ adaptive max pooling

def adaptive_max_pool2d_with_indices(input, output_size):
    """(values, indices) of the largest element of each of oh x ow windows tiling the last two dims (window i spans
    i * H // oh up to ceil((i + 1) * H / oh)); an index counts in the H * W plane (AdaptiveMaxPool2DBackward0)."""
    return _adaptive_max_pool(2, input, output_size)


def adaptive_max_pool3d_with_indices(input, output_size, return_indices=False):
    """adaptive_max_pool2d_with_indices over the last three dims: an index counts in the D * H * W volume
    (AdaptiveMaxPool3DBackward0)."""
    return _adaptive_max_pool(3, input, output_size)


def _adaptive_max_pool(nd, input, output_size):
    name = 'adaptive_max_pool%dd' % nd
    output_size = _adaptive_output_size(name, input, output_size, nd)
    sizes = tuple(output_size) if isinstance(output_size, tuple) else (output_size,) * nd
    shape = input._data.shape
    if len(sizes) != nd and nd == 2:            # (3-d: after the input's checks)
        raise RuntimeError('%s(): internal error: output_size.size() must be %d' % (name, nd))
    if len(shape) not in (nd + 1, nd + 2):
        raise RuntimeError('%s(): Expected %dD or %dD tensor, but got: %s' % (name, nd + 1, nd + 2, _sizes(shape)))
    for d in range(len(shape) - nd - 1, len(shape)):
        if shape[d] == 0:
            raise RuntimeError('%s(): Expected input to have non-zero size for non-batch dimensions, but input has '
                               'sizes %s with dimension %d being empty' % (name, _sizes(shape), d))
    if len(sizes) != nd:
        raise RuntimeError('%s(): internal error: output_size.size() must be %d' % (name, nd))
    if min(sizes) < 0:
        bad = [d for d in shape[:-nd] + sizes if d < 0][0]
        raise RuntimeError('Trying to create tensor with negative dimension %d: %s'
                           % (bad, _sizes(shape[:-nd] + sizes)))
    if input._data.dtype.kind != 'f':
        raise NotImplementedError('"%s" not implemented for \'%s\'' % (name if nd == 2 else name + '_cpu',
                                                                        input.dtype.legacy))
    x = input._data
    values = np.empty(shape[:-nd] + sizes, x.dtype)
    indices = np.empty(values.shape, np.int64)
    for at, spans in _adaptive_windows(shape[-nd:], sizes):
        win = x[(Ellipsis,) + tuple(slice(s.start, s.stop) for s in spans)]
        win = win.reshape(shape[:-nd] + (int(np.prod([len(s) for s in spans])),))
        tap = np.argmax(win, -1)                # the first of the largest
        nan = np.isnan(win)                     # PyTorch's kernel: the last NaN wins
        tap = np.where(nan.any(-1), win.shape[-1] - 1 - np.argmax(nan[..., ::-1], -1), tap)
        values[(Ellipsis,) + at] = np.take_along_axis(win, tap[..., None], -1)[..., 0]
        taps = np.unravel_index(tap, [len(s) for s in spans])
        indices[(Ellipsis,) + at] = sum((t + s.start) * int(np.prod(shape[len(shape) - nd + d + 1:]))
                                        for d, (t, s) in enumerate(zip(taps, spans)))
    out, idx = _out(values, input.dtype), make(indices)
    _attach(out, AdaptiveMaxPool2DBackward0 if nd == 2 else AdaptiveMaxPool3DBackward0, (input,),
            {'result1': SavedTensor(idx), 'self': SavedTensor(input)})
    return out, idx


class AdaptiveMaxPool2DBackward0(Node):
    _nd = 2

    def apply(self, g):
        x, idx = self.saved('self'), self.saved('result1')
        nd = self._nd
        for i in range(1, g._data.ndim):         # (an output of size 0)
            if not g._data.shape[i]:
                raise RuntimeError('adaptive_max_pool%dd_backward(): Expected grad_output to have non-zero size for '
                                   'non-batch dimensions, but grad_output has sizes %s with dimension %d being empty'
                                   % (nd, _sizes(g._data.shape), i))
        return (_scatter_planes(g, x, idx, nd, AdaptiveMaxPool2DBackwardBackward0 if nd == 2 else
                                AdaptiveMaxPool3DBackwardBackward0),)


class AdaptiveMaxPool3DBackward0(AdaptiveMaxPool2DBackward0):
    _nd = 3


class AdaptiveMaxPool3DBackwardBackward0(_LinearInGrad):
    pass


def adaptive_max_pool2d(input, output_size, return_indices=False):
    """The largest element of each of output_size windows tiling the last two dims; with return_indices, where."""
    out, indices = adaptive_max_pool2d_with_indices(input, output_size)
    return (out, indices) if return_indices else out


def adaptive_max_pool3d(input, output_size, return_indices=False):
    """The largest element of each of output_size windows tiling the last three dims; with return_indices, where."""
    out, indices = _adaptive_max_pool(3, input, output_size)
    return (out, indices) if return_indices else out


def adaptive_max_pool1d_with_indices(input, output_size):
    """adaptive_max_pool1d's values and indices: a 2-d one of input.unsqueeze(-2), squeezed back, as in PyTorch."""
    output_size = _adaptive_output_size('adaptive_max_pool1d', input, output_size, 1)
    _check_dims_1d('adaptive_max_pool1d', input)
    size = _one('adaptive_max_pool1d', 'output_size', output_size)
    shape = input._data.shape
    for d in range(len(shape) - 2, len(shape)):
        if shape[d] == 0:
            raise RuntimeError('adaptive_max_pool1d(): Expected input to have non-zero size for non-batch dimensions, '
                               'but input has sizes %s with dimension %d being empty' % (_sizes(shape), d))
    out, indices = adaptive_max_pool2d_with_indices(input.unsqueeze(-2), (1, size))
    return out.squeeze(-2), indices.squeeze(-2)


def adaptive_max_pool1d(input, output_size, return_indices=False):
    """The largest element of each of output_size windows tiling the last dim; with return_indices, where."""
    out, indices = adaptive_max_pool1d_with_indices(input, output_size)
    return (out, indices) if return_indices else out


# ================================================================================================ pixel shuffle

def _shuffle_check(name, input, factor, what):
    """PyTorch's checks of the factor (an int to its parser: a numpy int or a 0-d int tensor too); it as an int."""
    if not is_int(factor):
        raise TypeError("%s(): argument '%s' (position 2) must be int, not %s" % (name, what, parser_type(factor)))
    factor = operator.index(factor)
    if input.dim() < 3:
        raise RuntimeError('%s expects input to have at least 3 dimensions, but got input with %d dimension(s)'
                           % (name, input.dim()))
    if factor <= 0:
        raise RuntimeError('%s expects a positive %s, but got %d' % (name, what, factor))
    return factor


def pixel_shuffle(input, upscale_factor):
    """(*, C * r * r, H, W) -> (*, C, H * r, W * r): each group of r * r channels spread over an r x r block
    (PyTorch's sub-pixel convolution upsampling; PixelShuffleBackward0)."""
    r, shape = _shuffle_check('pixel_shuffle', input, upscale_factor, 'upscale_factor'), input._data.shape
    c, h, w = shape[-3:]
    if c % (r * r):
        raise RuntimeError("pixel_shuffle expects its input's 'channel' dimension to be divisible by the square of "
                           "upscale_factor, but input.size(-3)=%d is not divisible by %d" % (c, r * r))
    x = input._data.reshape(shape[:-3] + (c // (r * r), r, r, h, w))
    n = x.ndim
    x = x.transpose(tuple(range(n - 5)) + (n - 5, n - 2, n - 4, n - 1, n - 3))
    out = _out(np.ascontiguousarray(x).reshape(shape[:-3] + (c // (r * r), h * r, w * r)), input.dtype)
    return _attach(out, PixelShuffleBackward0, (input,), {'upscale_factor': r})


class PixelShuffleBackward0(Node):
    def apply(self, g):
        return (pixel_unshuffle(g, self._saved['upscale_factor']),)


def pixel_unshuffle(input, downscale_factor):
    """pixel_shuffle's inverse: (*, C, H * r, W * r) -> (*, C * r * r, H, W) (PixelUnshuffleBackward0)."""
    r, shape = _shuffle_check('pixel_unshuffle', input, downscale_factor, 'downscale_factor'), input._data.shape
    c, h, w = shape[-3:]
    for name, size, d in (('height', h, -2), ('width', w, -1)):
        if size % r:
            raise RuntimeError('pixel_unshuffle expects %s to be divisible by downscale_factor, but input.size(%d)=%d '
                               'is not divisible by %d' % (name, d, size, r))
    x = input._data.reshape(shape[:-3] + (c, h // r, r, w // r, r))
    n = x.ndim
    x = x.transpose(tuple(range(n - 5)) + (n - 5, n - 3, n - 1, n - 4, n - 2))
    out = _out(np.ascontiguousarray(x).reshape(shape[:-3] + (c * r * r, h // r, w // r)), input.dtype)
    return _attach(out, PixelUnshuffleBackward0, (input,), {'downscale_factor': r})


class PixelUnshuffleBackward0(Node):
    def apply(self, g):
        return (pixel_shuffle(g, self._saved['downscale_factor']),)


upsample, upsample_nearest, upsample_bilinear = (_deprecated(n) for n in ('upsample', 'upsample_nearest',
                                                                        'upsample_bilinear'))
