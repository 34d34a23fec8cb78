"""The op table, part 12b: the spatial transformer's ops and the rarer pools of torch.nn: grid sampling (bilinear,
nearest, bicubic; zeros / border / reflection padding) and the affine grids it samples at, max unpooling (a max pool's
indices scattered back) and power-average pooling.

Same rules as `_ops_vision.py`: a numpy forward beside its backward node, named and saving what PyTorch 2.13's nodes
save; PyTorch's composite ops (lp_pool, affine_grid's gradient) composed of the engine's ops as PyTorch composes them.
"""
import itertools
import operator
import warnings
from collections.abc import Iterable

import numpy as np

from . import _argparse
from . import _autograd as ag
from ._autograd import Node, SavedTensor
from ._ops import _attach, _out, _sizes
from ._ops_conv import _LinearInGrad, _gather_planes, _scatter_planes
from ._tensor import Tensor, make

# ================================================================================================ grid sampling

_GRID_SAMPLER = ('grid_sampler(Tensor input, Tensor grid, int64_t interpolation_mode, int64_t padding_mode, '
                 'bool align_corners)')


def grid_sample(input, grid, mode='bilinear', padding_mode='zeros', align_corners=None):
    """The input sampled at the grid's points (N, *out, nd), each coordinate in [-1, 1] across its dim (x first:
    the last dim): F.grid_sample's checks, then torch.grid_sampler."""
    if mode not in ('bilinear', 'nearest', 'bicubic'):
        raise ValueError("nn.functional.grid_sample(): expected mode to be 'bilinear', 'nearest' or 'bicubic', but "
                         "got: '%s'" % (mode,))
    if padding_mode not in ('zeros', 'border', 'reflection'):
        raise ValueError("nn.functional.grid_sample(): expected padding_mode to be 'zeros', 'border', or "
                         "'reflection', but got: '%s'" % (padding_mode,))
    if align_corners is None:
        warnings.warn('Default grid_sample and affine_grid behavior has changed to align_corners=False since 1.3.0. '
                      'Please specify align_corners=True if the old behavior is desired. See the documentation of '
                      'grid_sample for details.', stacklevel=2)
        align_corners = False
    return grid_sampler(input, grid, ('bilinear', 'nearest', 'bicubic').index(mode),
                        ('zeros', 'border', 'reflection').index(padding_mode), align_corners)


def grid_sampler(input, grid, interpolation_mode, padding_mode, align_corners):
    """torch.grid_sampler: grid_sampler_2d for a 4-d input, grid_sampler_3d otherwise (GridSampler2DBackward0 /
    GridSampler3DBackward0)."""
    _argparse.signature_parser(_GRID_SAMPLER).check((input, grid, interpolation_mode, padding_mode, align_corners),
                                                    {})
    shape, gshape = input._data.shape, grid._data.shape
    if not shape or not gshape or shape[0] != gshape[0]:
        raise RuntimeError('grid_sampler(): expected grid and input to have same batch size, but got input with sizes '
                           '%s and grid with sizes %s' % (_sizes(shape), _sizes(gshape)))
    if gshape[-1] != len(shape) - 2:
        raise RuntimeError('grid_sampler(): expected grid to have size %d in last dimension, but got grid with sizes '
                           '%s' % (len(shape) - 2, _sizes(gshape)))
    for d in range(2, len(shape)):
        if not shape[d]:
            raise RuntimeError('grid_sampler(): expected input to have non-empty spatial dimensions, but input has '
                               'sizes %s with dimension %d being empty' % (_sizes(shape), d))
    nd = len(shape) - 2
    if nd not in (2, 3) or len(gshape) != len(shape):
        raise RuntimeError('grid_sampler(): expected %dD input and grid with same number of dimensions, but got input '
                           'with sizes %s and grid with sizes %s' % (4 if nd < 3 else 5, _sizes(shape), _sizes(gshape)))
    if nd == 3 and interpolation_mode == 2:
        raise RuntimeError('grid_sampler(): bicubic interpolation only supports 4D input')
    if input._data.dtype.kind != 'f':           # (the kernel's dtype dispatch comes before the dtypes' match)
        raise NotImplementedError('"grid_sampler%s" not implemented for \'%s\''
                                  % ('_2d_cpu_kernel_impl' if nd == 2 else '3d_cpu', input.dtype.legacy))
    if input.dtype is not grid.dtype:
        raise RuntimeError('expected scalar type %s but found %s' % (input.dtype.legacy, grid.dtype.legacy))
    values = _sample(input._data, grid._data, interpolation_mode, padding_mode, align_corners)[0]
    out = _out(values.astype(input._data.dtype, copy=False), input.dtype)
    return _attach(out, GridSampler2DBackward0 if nd == 2 else GridSampler3DBackward0, (input, grid),
                   {'align_corners': bool(align_corners), 'grid': SavedTensor(grid), 'input': SavedTensor(input),
                    'interpolation_mode': interpolation_mode, 'padding_mode': padding_mode})


def _opmath(a):
    """The array the kernel computes in: its own dtype (PyTorch's CPU grid sampler rounds each step of a float16
    input to float16)."""
    return a


def _clip(src, size):
    """Border padding: src clipped to [0, size - 1], and its derivative (0 at and beyond the borders)."""
    return np.clip(src, 0, size - 1), ((src > 0) & (src < size - 1)).astype(src.dtype)


def _reflect(src, size, align_corners):
    """Reflection padding: src reflected at the borders (the corner pixels' centres, or their outer edges) until it
    lies inside, and its derivative (+-1)."""
    low, high = (0, 2 * (size - 1)) if align_corners else (-1, 2 * size - 1)
    if low == high:
        return np.zeros_like(src), np.zeros_like(src)
    least, span = low / 2, (high - low) / 2
    x = src - src.dtype.type(least)
    sign = np.where(x < 0, -1, 1).astype(src.dtype)
    x = np.abs(x)
    extra, flips = np.fmod(x, src.dtype.type(span)), np.floor(x / src.dtype.type(span))
    even = flips % 2 == 0
    return (np.where(even, extra + src.dtype.type(least), src.dtype.type(span) - extra + src.dtype.type(least)),
            np.where(even, sign, -sign))


def _unnormalize(coord, size, align_corners):
    """A grid coordinate in [-1, 1] as a position in pixels, and its derivative."""
    if align_corners:
        scale = coord.dtype.type((size - 1) / 2)
        return (coord + 1) * scale, scale
    scale = coord.dtype.type(size / 2)
    return (coord + 1) * scale - coord.dtype.type(0.5), scale


def _padded(src, size, padding_mode, align_corners, scale=1, nd=2):
    """The position padding_mode reads for src, and its derivative times scale (-0 where PyTorch's 3-d kernel gets
    it: its scale times the reflection's sign times the clip's 0; its 2-d kernel masks the sign: +0)."""
    if padding_mode == 1:
        src, d = _clip(src, size)
        return src, d * scale
    if padding_mode == 2:
        src, d1 = _reflect(src, size, align_corners)
        src, d2 = _clip(src, size)
        return src, (scale * d1 * d2 if nd == 3 else np.where(d2 != 0, d1, 0).astype(src.dtype) * scale)
    return src, np.full_like(src, scale)


def _cubic(t):
    """The 4 weights of cubic convolution (A = -0.75) at fraction t, and their first and second derivatives in t."""
    a = -0.75

    def near(x):
        return ((a + 2) * x - (a + 3)) * x * x + 1

    def far(x):
        return ((a * x - 5 * a) * x + 8 * a) * x - 4 * a

    def dnear(x):
        return (3 * (a + 2) * x - 2 * (a + 3)) * x

    def dfar(x):
        return (3 * a * x - 10 * a) * x + 8 * a

    def ddnear(x):
        return 6 * (a + 2) * x - 2 * (a + 3)

    def ddfar(x):
        return 6 * a * x - 10 * a

    return ([far(t + 1), near(t), near(1 - t), far(2 - t)],
            [dfar(t + 1), dnear(t), -dnear(1 - t), -dfar(2 - t)],
            [ddfar(t + 1), ddnear(t), ddnear(1 - t), ddfar(2 - t)])


class _Taps:
    """Where each output point of grid_sampler reads its input and with what weights: per tap, the (batch, *in)
    index, whether it lies inside, its weight W and the weight's first (dW[d]) and second (ddW[d][e]) derivatives
    in the point's position along spatial dim d; `scale[d]` is the position's derivative in its grid coordinate
    (the unnormalizing scale times padding's clip / reflection factor)."""

    def __init__(self, x_shape, grid, mode, padding_mode, align_corners):
        n, spatial = x_shape[0], x_shape[2:]
        nd = self.nd = len(spatial)
        self.out_shape = out_shape = grid.shape[:-1]
        batch = np.arange(n).reshape((n,) + (1,) * (grid.ndim - 2))
        self.taps = []
        if mode == 2:                                                # bicubic: padding applies to each tap
            pos, self.scale = zip(*(_unnormalize(grid[..., nd - 1 - d], spatial[d], align_corners) for d in range(nd)))
            base = [np.floor(p) for p in pos]
            weights = [_cubic(p - b) for p, b in zip(pos, base)]
            choices = range(4)
        else:
            pos, self.scale = [], []
            for d in range(nd):
                p, s = _unnormalize(grid[..., nd - 1 - d], spatial[d], align_corners)
                p, dp = _padded(p, spatial[d], padding_mode, align_corners, s, nd)
                pos.append(np.where(np.isfinite(p), p, -100).astype(p.dtype))
                self.scale.append(dp)
            if mode == 1:                                            # nearest: round half to even
                base = [np.rint(p) for p in pos]
                choices = (0,)
            else:
                base = [np.floor(p) for p in pos]
                fracs = [(lo + 1 - p, p - lo) for p, lo in zip(pos, base)]   # (the low tap's weight, the high's)
                one = np.ones(out_shape, grid.dtype)
                weights = [((f0, f1), (-one, one), (0 * one, 0 * one)) for f0, f1 in fracs]
                choices = (0, 1)
        for taps in itertools.product(choices, repeat=nd):
            where, inside = [], np.ones(out_shape, bool)
            for d, t in enumerate(taps):
                if mode == 2:
                    p = _padded(base[d] + (t - 1), spatial[d], padding_mode, align_corners)[0]
                    p = np.where(np.isfinite(p), p, -100).astype(np.int64)
                else:
                    p = base[d].astype(np.int64) + t
                inside &= (p >= 0) & (p < spatial[d])
                where.append(p)
            at = (batch,) + tuple(np.where(inside, w, 0) for w in where)
            if mode == 1:
                self.taps.append((at, inside, np.ones(out_shape, grid.dtype), None, None))
                continue
            k = taps
            w = np.ones(out_shape, grid.dtype)
            for d in reversed(range(nd)):                            # (x's weight first, as PyTorch multiplies)
                w = w * weights[d][0][k[d]]

            def product(orders):
                r = np.ones(out_shape, grid.dtype)
                for e in reversed(range(nd)):
                    r = r * weights[e][orders[e]][k[e]]
                return r
            dw = [product([int(e == d) for e in range(nd)]) for d in range(nd)]
            ddw = [[product([(d == e) + (f == e) for e in range(nd)]) for f in range(nd)] for d in range(nd)]
            self.taps.append((at, inside, w, dw, ddw))


def _sample(x, grid, mode, padding_mode, align_corners, g=None, ggx=None, ggrid=None):
    """grid_sampler_{2,3}d in numpy: the output (g None); the gradients (input's, grid's) for incoming g; with ggx /
    ggrid (the gradients' gradients) too, the gradients of those: (gradient's, input's, grid's)."""
    dtype = x.dtype
    x, grid = _opmath(x), _opmath(grid)
    nd = x.ndim - 2
    plan = _Taps(x.shape, grid, mode, padding_mode, align_corners)
    xt = np.moveaxis(x, 1, -1)                                   # (N, *in, C)
    if g is None:
        if mode == 1:
            at, inside = plan.taps[0][:2]
            out = np.where(inside[..., None], xt[at], 0)
        else:
            out = np.zeros(plan.out_shape + (xt.shape[-1],), xt.dtype)
            for at, inside, w, _, _ in plan.taps:
                out += xt[at] * inside[..., None] * w[..., None]
        return np.moveaxis(out, -1, 1).astype(dtype, copy=False), None
    gt = np.moveaxis(_opmath(g), 1, -1)                          # (N, *out, C)
    if ggx is None and ggrid is None:
        gx = np.zeros(xt.shape, xt.dtype)
        dpos = [np.zeros(plan.out_shape, xt.dtype) for _ in range(nd)]
        for at, inside, w, dw, _ in plan.taps:
            np.add.at(gx, at, gt * (w * inside)[..., None])
            if dw is None:
                continue
            dot = (xt[at] * inside[..., None] * gt).sum(-1)
            for d in range(nd):
                dpos[d] += dot * dw[d]
        gg = np.zeros(grid.shape, grid.dtype)
        if mode != 1:
            for d in range(nd):
                gg[..., nd - 1 - d] = dpos[d] * plan.scale[d]
        return np.moveaxis(gx, -1, 1).astype(dtype, copy=False), gg.astype(dtype, copy=False)
    # double backward: ggx (input-shaped) and ggrid (grid-shaped), either may be None
    ggxt = None if ggx is None else np.moveaxis(_opmath(ggx), 1, -1)
    along = [None] * nd if ggrid is None else [_opmath(ggrid)[..., nd - 1 - d] * plan.scale[d] for d in range(nd)]
    g_out = np.zeros(gt.shape, gt.dtype)
    g_in = np.zeros(xt.shape, xt.dtype)
    g_pos = [np.zeros(plan.out_shape, gt.dtype) for _ in range(nd)]
    for at, inside, w, dw, ddw in plan.taps:
        vals = xt[at] * inside[..., None]
        if ggxt is not None:
            gvals = ggxt[at] * inside[..., None]
            g_out += gvals * w[..., None]
            if dw is not None:
                dot = (gvals * gt).sum(-1)
                for d in range(nd):
                    g_pos[d] += dot * dw[d]
        if ggrid is not None and dw is not None:
            slope = sum(along[d] * dw[d] for d in range(nd))
            g_out += vals * slope[..., None]
            np.add.at(g_in, at, gt * (slope * inside)[..., None])
            dot = (vals * gt).sum(-1)
            for e in range(nd):
                g_pos[e] += dot * sum(along[d] * ddw[d][e] for d in range(nd))
    g_grid = np.zeros(grid.shape, grid.dtype)
    if mode != 1:
        for d in range(nd):
            g_grid[..., nd - 1 - d] = g_pos[d] * plan.scale[d]
    return (np.moveaxis(g_out, -1, 1).astype(dtype, copy=False), np.moveaxis(g_in, -1, 1).astype(dtype, copy=False),
            g_grid.astype(dtype, copy=False))


class GridSampler2DBackward0(Node):
    op = 'grid_sampler_2d_backward'

    def apply(self, g):
        x, grid = self.saved('input'), self.saved('grid')
        mode, padding, corners = (self._saved['interpolation_mode'], self._saved['padding_mode'],
                                  self._saved['align_corners'])
        gx, ggrid = _sample(x._data, grid._data, mode, padding, corners, g._data)
        gx, ggrid = make(gx) if self.needs(0) else None, make(ggrid) if self.needs(1) else None
        if ag.grad_enabled and (g._requires_grad or x._requires_grad or grid._requires_grad):   # (create_graph)
            node = ag.record(None, GridSampler2DBackwardBackward0 if x.dim() == 4 else GridSampler3DBackwardBackward0,
                             (g, x, grid), {'align_corners': corners, 'grad_output': SavedTensor(g),
                                            'grid': SavedTensor(grid), 'input': SavedTensor(x),
                                            'interpolation_mode': mode, 'padding_mode': padding})
            node.num_outputs = 2
            for k, t in enumerate((gx, ggrid)):
                if t is not None:
                    t._grad_fn, t._requires_grad, t._output_nr = node, True, k
        return (gx, ggrid)


class GridSampler3DBackward0(GridSampler2DBackward0):
    op = 'grid_sampler_3d_backward'


class GridSampler2DBackwardBackward0(Node):
    def apply(self, ggx, ggrid):
        g, x, grid = self.saved('grad_output'), self.saved('input'), self.saved('grid')
        g_out, g_in, g_grid = _sample(x._data, grid._data, self._saved['interpolation_mode'],
                                      self._saved['padding_mode'], self._saved['align_corners'], g._data,
                                      None if ggx is None else ggx._data, None if ggrid is None else ggrid._data)
        return tuple(make(t) if self.needs(i) else None for i, t in enumerate((g_out, g_in, g_grid)))


class GridSampler3DBackwardBackward0(GridSampler2DBackwardBackward0):
    pass


# ================================================================================================ affine grids

def affine_grid(theta, size, align_corners=None):
    """The (N, *size[2:], nd) grid of points an affine map theta (N, nd, nd + 1) takes the output's pixels to:
    F.affine_grid's checks, then torch.affine_grid_generator."""
    if align_corners is None:
        warnings.warn('Default grid_sample and affine_grid behavior has changed to align_corners=False since 1.3.0. '
                      'Please specify align_corners=True if the old behavior is desired. See the documentation of '
                      'grid_sample for details.', stacklevel=2)
        align_corners = False
    if not theta.is_floating_point():
        raise ValueError('Expected theta to have floating point type, but got %s' % (theta.dtype,))
    if len(size) in (4, 5):
        nd = len(size) - 2
        if theta.dim() != 3 or theta.shape[-2] != nd or theta.shape[-1] != nd + 1:
            raise ValueError('Expected a batch of %dD affine matrices of shape Nx%dx%d for size %s. Got %s.'
                             % (nd, nd, nd + 1, size, theta.shape))
    else:
        raise NotImplementedError('affine_grid only supports 4D and 5D sizes, for 2D and 3D affine transforms, '
                                  'respectively. Got size %s.' % (size,))
    if align_corners and min(size[2:]) == 1:
        warnings.warn('Since version 1.3.0, affine_grid behavior has changed for unit-size grids when '
                      'align_corners=True. This is not an intended use case of affine_grid. See the documentation of '
                      'affine_grid for details.', stacklevel=2)
    elif min(size) <= 0:
        raise ValueError('Expected non-zero, positive output size. Got %s' % (size,))
    return affine_grid_generator(theta, size, align_corners)


def _base_grid(dtype, size, align_corners):
    """(prod(size[2:]), nd + 1): each output pixel's normalized (x, y[, z], 1), x fastest."""
    from ._factories import linspace
    spatial = [int(s) for s in size[2:]]
    axes = []
    for s in reversed(spatial):
        if s <= 1:                                              # (PyTorch's tensor(0), broadcast)
            axes.append(np.zeros(1, dtype.np))
            continue
        r = linspace(-1, 1, s, dtype=dtype)._data
        if not align_corners:
            r = r * dtype.np.type(s - 1) / dtype.np.type(s)
        axes.append(r)
    mesh = np.meshgrid(*axes[::-1], indexing='ij')              # (z, y, x) order of the spatial dims
    cols = [m.reshape(-1) for m in reversed(mesh)] + [np.ones(int(np.prod(spatial)), dtype.np)]
    return np.stack(cols, -1)


def affine_grid_generator(theta, size, align_corners):
    """torch.affine_grid_generator (AffineGridGeneratorBackward0): the base grid times theta transposed."""
    _argparse.signature_parser('affine_grid_generator(Tensor theta, SymIntArrayRef size, bool align_corners)').check(
        (theta, size, align_corners), {})
    size = tuple(int(s) for s in size)
    n, nd = size[0], len(size) - 2
    if theta._data.shape[0] != n:
        raise RuntimeError('Expected size for first two dimensions of batch2 tensor to be: [%d, %d] but got: [%d, %d].'
                           % (n, nd + 1, theta._data.shape[0], nd + 1))
    base = _base_grid(theta.dtype, size, align_corners)
    values = np.matmul(base, np.swapaxes(theta._data, 1, 2)).reshape((n,) + size[2:] + (nd,))
    out = _out(values, theta.dtype)
    return _attach(out, AffineGridGeneratorBackward0, (theta,), {'align_corners': bool(align_corners),
                                                                 'size': size})


class AffineGridGeneratorBackward0(Node):
    def apply(self, g):
        size, n = self._saved['size'], self._saved['size'][0]
        nd = len(size) - 2
        base = _base_grid(g.dtype, size, self._saved['align_corners'])
        base = make(np.ascontiguousarray(np.broadcast_to(base, (n,) + base.shape)))
        # (ATen's composition: base^T bmm grad, transposed, so a double backward records its nodes)
        return (base.transpose(1, 2).bmm(g.reshape(n, -1, nd)).transpose(1, 2),)


# ================================================================================================ max unpooling

def _unpool_output_size(input, kernel_size, stride, padding, output_size):
    """F._unpool_output_size: the size a max pool of this geometry came from, or output_size checked against it."""
    input_size = input.size()
    default_size = [(input_size[-len(kernel_size) + d] - 1) * stride[d] + kernel_size[d] - 2 * padding[d]
                    for d in range(len(kernel_size))]
    if output_size is None:
        ret = default_size
    else:
        if len(output_size) == len(kernel_size) + 2:
            output_size = output_size[2:]
        if len(output_size) != len(kernel_size):
            raise ValueError('output_size should be a sequence containing %d or %d elements, but it has a length of '
                             "'%d'" % (len(kernel_size), len(kernel_size) + 2, len(output_size)))
        for d in range(len(kernel_size)):
            min_size, max_size = default_size[d] - stride[d], default_size[d] + stride[d]
            if not (min_size < output_size[d] < max_size):
                raise ValueError('invalid output_size "%s" (dim %d must be between %d and %d)'
                                 % (output_size, d, min_size, max_size))
        ret = output_size
    for d in range(len(kernel_size)):
        if not ret[d] >= 0:
            raise ValueError('max_unpooling: output_size must contain non-negative spatial dimensions, but got '
                             'output_size[%d]=%s' % (d, ret[d]))
    return ret


def _tuple(value, n):
    return tuple(value) if isinstance(value, Iterable) else (value,) * n


def max_unpool1d(input, indices, kernel_size, stride=None, padding=0, output_size=None):
    """max_pool1d's inverse (its maxima put back where its indices say, zeros elsewhere): max_unpool2d over the
    input unsqueezed at the end, squeezed back, as PyTorch writes it."""
    kernel_size = _tuple(kernel_size, 1)
    stride = _tuple(stride, 1) if stride is not None else kernel_size
    padding = _tuple(padding, 1)
    output_size = _unpool_output_size(input, kernel_size, stride, padding, output_size)
    output_size = output_size + ([1] if isinstance(output_size, list) else (1,))
    return _max_unpool(2, input.unsqueeze(-1), indices.unsqueeze(-1), output_size).squeeze(-1)


def max_unpool2d(input, indices, kernel_size, stride=None, padding=0, output_size=None):
    """max_pool2d's inverse: each value put at its index in an output_size plane of zeros (MaxUnpool2DBackward0)."""
    kernel_size = _tuple(kernel_size, 2)
    stride = _tuple(stride, 2) if stride is not None else kernel_size
    padding = _tuple(padding, 2)
    output_size = _unpool_output_size(input, kernel_size, stride, padding, output_size)
    return _max_unpool(2, input, indices, output_size)


def max_unpool3d(input, indices, kernel_size, stride=None, padding=0, output_size=None):
    """max_pool3d's inverse: each value put at its index in an output_size volume of zeros (MaxUnpool3DBackward0)."""
    kernel_size = _tuple(kernel_size, 3)
    stride = _tuple(stride, 3) if stride is not None else kernel_size
    padding = _tuple(padding, 3)
    output_size = _unpool_output_size(input, kernel_size, stride, padding, output_size)
    return _max_unpool(3, input, indices, output_size, stride, padding)


def _max_unpool(nd, input, indices, output_size, stride=None, padding=None):
    """torch._C._nn.max_unpool2d / max_unpool3d with their checks."""
    name = 'max_unpool%dd' % nd
    if nd == 2:
        _argparse.signature_parser('max_unpool2d(Tensor input, Tensor indices, SymIntArrayRef[2] output_size, *, '
                                   'Tensor out=None)').check((input, indices, output_size), {})
    else:
        _argparse.signature_parser('max_unpool3d(Tensor input, Tensor indices, SymIntArrayRef[3] output_size, '
                                   'IntArrayRef[3] stride, IntArrayRef[3] padding, *, Tensor out=None)').check(
            (input, indices, output_size, stride, padding), {})
    output_size = tuple(operator.index(s) for s in output_size)
    shape, ishape = input._data.shape, indices._data.shape
    if nd == 2:
        if indices._data.dtype != np.int64:
            raise RuntimeError('elements in indices should be type int64 but got: %s' % indices.dtype.legacy)
        if len(output_size) != 2:
            raise RuntimeError('There should be exactly two elements (height, width) in output_size, but got %d '
                               'elements.' % len(output_size))
        if len(shape) not in (3, 4):
            raise RuntimeError('Input to max_unpooling2d should be a 3d or 4d Tensor, but got a tensor with %d '
                               'dimensions.' % len(shape))
    else:
        if indices._data.dtype != np.int64:
            raise RuntimeError('elements in indices should be type int64')
        if len(shape) not in (4, 5):
            raise RuntimeError('Input to max_unpooling3d should be a 4d or 5d Tensor, but got a tensor with %d '
                               'dimensions.' % len(shape))
        stride, padding = tuple(stride), tuple(padding)
    if shape != ishape:
        raise RuntimeError('Expected shape of indices to be same as that of the input tensor (%s) but got indices '
                           'tensor with shape: %s' % (_sizes(shape), _sizes(ishape)))
    for d in range(1, len(shape)):
        if not shape[d]:
            raise RuntimeError('max_unpooling%dd_forward_out_cpu(): Expected input to have non-zero size for non-batch '
                               'dimensions, but got %s with dimension %d being empty.' % (nd, _sizes(shape), d))
    if nd == 3 and min(stride) <= 0:
        raise RuntimeError('strides should be greater than zero, but got stride: %s' % _sizes(stride))
    if min(output_size) < 0:
        raise RuntimeError('max_unpooling%dd(): output_size must contain non-negative spatial dimensions, but got '
                           'output_size=(%s)' % (nd, ', '.join(map(str, output_size))))
    if input._data.dtype.kind not in 'f':
        raise NotImplementedError('"%s" not implemented for \'%s\'' % (name, input.dtype.legacy))
    lead = shape[:-nd]
    plane = int(np.prod(output_size))
    values = np.zeros(lead + output_size, input._data.dtype)
    if values.size:
        planes = int(np.prod(lead))
        idx = indices._data.reshape(planes, -1)
        bad = (idx < 0) | (idx >= plane)
        if bad.any():
            raise RuntimeError('Found an invalid max index: %d (output volumes are of size %s)'
                               % (idx[bad][-1], 'x'.join(map(str, output_size))))
        flat = values.reshape(planes, plane)
        flat[np.arange(planes)[:, None], idx] = input._data.reshape(planes, -1)
    out = _out(values, input.dtype)
    return _attach(out, MaxUnpool2DBackward0 if nd == 2 else MaxUnpool3DBackward0, (input,),
                   {'indices': SavedTensor(indices)})


class MaxUnpool2DBackward0(Node):
    _nd = 2

    def apply(self, g):
        return (_gather_planes(g, self.saved('indices'), self._nd),)


class MaxUnpool3DBackward0(MaxUnpool2DBackward0):
    _nd = 3


# ================================================================================================ power-average pooling

def _lp_pool(nd, input, norm_type, kernel_size, stride, ceil_mode):
    """F.lp_pool{1,2,3}d as PyTorch composes it: (sum over each window of x ** p) ** (1 / p), as avg_pool of
    input.pow(p) times the window's size; p = +-inf: max_pool of abs (of -abs, negated)."""
    from .nn import functional as F
    max_pool = (F.max_pool1d, F.max_pool2d, F.max_pool3d)[nd - 1]
    avg_pool = (F.avg_pool1d, F.avg_pool2d, F.avg_pool3d)[nd - 1]
    if nd == 1:
        window = kernel_size
    else:                                       # (kw, kh = _pair(kernel_size): its ValueError for another length)
        sizes = _tuple(kernel_size, nd)
        if len(sizes) != nd:
            raise ValueError('too many values to unpack (expected %d)' % nd if len(sizes) > nd else
                             'not enough values to unpack (expected %d, got %d)' % (nd, len(sizes)))
        window = int(np.prod(sizes))
    if isinstance(norm_type, (int, float)):
        if norm_type == float('inf'):
            return max_pool(input.abs(), kernel_size, stride, 0, 1, ceil_mode)
        if norm_type == -float('inf'):
            return -max_pool(-input.abs(), kernel_size, stride, 0, 1, ceil_mode)
    if stride is not None:
        out = avg_pool(input.pow(norm_type), kernel_size, stride, 0, ceil_mode)
    else:
        out = avg_pool(input.pow(norm_type), kernel_size, padding=0, ceil_mode=ceil_mode)
    from . import sign
    return (sign(out) * F.relu(out.abs())).mul(window).pow(1.0 / norm_type)


def lp_pool1d(input, norm_type, kernel_size, stride=None, ceil_mode=False):
    """The p-norm of each window along the last dim."""
    return _lp_pool(1, input, norm_type, kernel_size, stride, ceil_mode)


def lp_pool2d(input, norm_type, kernel_size, stride=None, ceil_mode=False):
    """The p-norm of each 2-d window."""
    return _lp_pool(2, input, norm_type, kernel_size, stride, ceil_mode)


def lp_pool3d(input, norm_type, kernel_size, stride=None, ceil_mode=False):
    """The p-norm of each 3-d window."""
    return _lp_pool(3, input, norm_type, kernel_size, stride, ceil_mode)



# ================================================================================================ fractional max pooling

def _fractional_args(nd, input, kernel_size, output_size, output_ratio, _random_samples):
    """F.fractional_max_pool{2,3}d's Python part: the output size (from output_ratio when not given) and the random
    samples (drawn as torch.rand(N, C, nd) in the input's dtype when not given)."""
    name = 'fractional_max_pool%dd' % nd
    if output_size is None and output_ratio is None:
        raise ValueError('%s requires specifying either an output_size or an output_ratio' % name)
    if output_size is None:
        if nd == 2 and len(output_ratio) > 2:
            raise ValueError('fractional_max_pool2d requires output_ratio to either be a single Int or tuple of Ints.')
        ratio = _tuple(output_ratio, nd)
        output_size = [int(input.size(d - nd) * ratio[d]) for d in range(nd)]
    if _random_samples is None:
        from ._factories import rand
        n_batch = 1 if input.dim() == nd + 1 else input.size(0)
        _random_samples = rand(n_batch, input.size(-nd - 1), nd, dtype=input.dtype)
    return output_size, _random_samples


def fractional_max_pool2d_with_indices(input, kernel_size, output_size=None, output_ratio=None, return_indices=False,
                                       _random_samples=None):
    """(values, indices) of the largest element of each of output_size pseudo-random windows of kernel_size (their
    starts spread by the random samples, one pair per (sample, channel)): FractionalMaxPool2DBackward0."""
    output_size, samples = _fractional_args(2, input, kernel_size, output_size, output_ratio, _random_samples)
    return _fractional_max_pool(2, input, kernel_size, output_size, samples)


def fractional_max_pool3d_with_indices(input, kernel_size, output_size=None, output_ratio=None, return_indices=False,
                                       _random_samples=None):
    """fractional_max_pool2d_with_indices over the last three dims (FractionalMaxPool3DBackward0)."""
    output_size, samples = _fractional_args(3, input, kernel_size, output_size, output_ratio, _random_samples)
    return _fractional_max_pool(3, input, kernel_size, output_size, samples)


def fractional_max_pool2d(input, kernel_size, output_size=None, output_ratio=None, return_indices=False,
                          _random_samples=None):
    """The largest element of each of output_size pseudo-random 2-d windows; with return_indices, where."""
    out = fractional_max_pool2d_with_indices(input, kernel_size, output_size, output_ratio, return_indices,
                                             _random_samples)
    return out if return_indices else out[0]


def fractional_max_pool3d(input, kernel_size, output_size=None, output_ratio=None, return_indices=False,
                          _random_samples=None):
    """The largest element of each of output_size pseudo-random 3-d windows; with return_indices, where."""
    out = fractional_max_pool3d_with_indices(input, kernel_size, output_size, output_ratio, return_indices,
                                             _random_samples)
    return out if return_indices else out[0]


def _intervals(sample, in_size, out_size, pool):
    """The starts of out_size windows of `pool` over in_size (PyTorch's generate_intervals, in the samples' dtype):
    (i + sample) * alpha truncated, less sample * alpha truncated; the last window ends at the end."""
    seq = np.zeros(max(out_size, 0), np.int64)
    if out_size > 1:
        t = sample.dtype.type
        alpha = t(in_size - pool) / t(out_size - 1)
        i = np.arange(out_size - 1).astype(sample.dtype)
        seq[:-1] = ((i + sample) * alpha).astype(np.int64) - np.int64(np.trunc(sample * alpha))
    if out_size > 0:
        seq[-1] = in_size - pool
    return seq


def _fractional_max_pool(nd, input, kernel_size, output_size, samples):
    """torch._C._nn.fractional_max_pool{2,3}d with its checks."""
    name = 'fractional_max_pool%dd' % nd
    _argparse.signature_parser('%s(Tensor input, IntArrayRef[%d] kernel_size, IntArrayRef[%d] output_size, Tensor '
                               'random_samples, *, TensorList[2] out=None)' % (name, nd, nd)).check(
        (input, kernel_size, output_size, samples), {})
    kernel = _tuple(kernel_size, nd) if not _argparse.is_int(kernel_size) else (kernel_size,) * nd
    sizes = _tuple(output_size, nd) if not _argparse.is_int(output_size) else (output_size,) * nd
    kernel, sizes = tuple(operator.index(k) for k in kernel), tuple(operator.index(s) for s in sizes)
    what = 'Ints' if nd == 2 else 'three Ints'
    if len(kernel) != nd:
        raise RuntimeError('%s: kernel_size must either be a single Int or tuple of %s' % (name, what))
    if len(sizes) != nd:
        raise RuntimeError('%s: output_size must either be a single Int or tuple of %s' % (name, what))
    where = name + ('()' if nd == 2 else '_out()')
    shape = input._data.shape
    if len(shape) not in (nd + 1, nd + 2):
        raise RuntimeError('%s: Expected %dD or %dD tensor, but got: %s' % (where, nd + 1, nd + 2, _sizes(shape)))
    for d in range(1, len(shape)):
        if not shape[d]:
            raise RuntimeError('%s: Expected input to have non-zero size for non-batch dimensions, but got%s with '
                               'dimension %d being empty.' % (where, _sizes(shape), d))
    for d in ((0, 1) if nd == 2 else (0, 2, 1)):               # (3-d: time, width, height, each strictly less)
        dim = ('time', 'height', 'width')[d + 3 - nd]
        if sizes[d] + kernel[d] - 1 > shape[d - nd] - (nd == 3):
            raise RuntimeError('%s: pool %s %d too large relative to input %s %d'
                               % (where, dim, kernel[d], dim, shape[d - nd]))
    lead = shape[:-nd]
    if min(sizes) < 0:
        raise RuntimeError('Trying to create tensor with negative dimension %d: %s'
                           % (min(sizes), _sizes(lead + sizes)))
    r = samples._data
    if r.ndim != 3:
        raise RuntimeError('Expect _random_samples to have 3 dimensions, got %d' % r.ndim)
    if samples.dtype is not input.dtype:
        raise RuntimeError('Expect _random_samples to have the same dtype as input')
    if r.shape[1] != shape[-nd - 1]:
        raise RuntimeError('Expect _random_samples.size(1) equals to input channel size.')
    if r.shape[2] != nd:
        raise RuntimeError('Expect _random_samples.size(2) equals to %d; got %d.' % (nd, r.shape[2]))
    if input._data.dtype.kind != 'f':
        raise NotImplementedError('"%s_out_frame" not implemented for \'%s\'' % (name, input.dtype.legacy))
    x = input._data.reshape((-1,) + shape[-nd - 1:])           # (N, C, *spatial)
    values = np.empty(x.shape[:2] + sizes, x.dtype)
    indices = np.empty(values.shape, np.int64)
    spatial = shape[-nd:]
    strides = [int(np.prod(spatial[d + 1:])) for d in range(nd)]
    order = (1, 0) if nd == 2 else (0, 1, 2)                   # (2-d: the first sample for W, 3-d: for T)
    if values.size:
        for b in range(x.shape[0]):
            for c in range(x.shape[1]):
                starts = [_intervals(r[b, c, order[d]], spatial[d], sizes[d], kernel[d]) for d in range(nd)]
                pos = [s[:, None] + np.arange(k) for s, k in zip(starts, kernel)]      # (out_d, k_d)
                flat = sum(np.reshape(p, (1,) * d + (sizes[d],) + (1,) * (nd - 1 - d) + (1,) * d + (kernel[d],)
                                      + (1,) * (nd - 1 - d)) * strides[d] for d, p in enumerate(pos))
                flat = np.broadcast_to(flat, sizes + kernel).reshape(sizes + (-1,))
                first = sum(np.reshape(s, (1,) * d + (sizes[d],) + (1,) * (nd - 1 - d)) * strides[d]
                            for d, s in enumerate(starts))
                if flat.shape[-1] == 0:                                              # (an empty window: -inf)
                    values[b, c], indices[b, c] = -np.inf, first
                    continue
                win = x[b, c].reshape(-1)[flat]
                tap = np.argmax(win, -1)                 # (the first of the largest; the last NaN)
                nan = np.isnan(win)
                tap = np.where(nan.any(-1), win.shape[-1] - 1 - np.argmax(nan[..., ::-1], -1), tap)
                values[b, c] = np.take_along_axis(win, tap[..., None], -1)[..., 0]
                indices[b, c] = np.take_along_axis(flat, tap[..., None], -1)[..., 0]
    out, idx = _out(values.reshape(lead + sizes), input.dtype), make(indices.reshape(lead + sizes))
    _attach(out, FractionalMaxPool2DBackward0 if nd == 2 else FractionalMaxPool3DBackward0, (input,),
            {'kernel_size': kernel, 'output_size': sizes, 'result1': SavedTensor(idx), 'self': SavedTensor(input)})
    return out, idx


class FractionalMaxPool2DBackward0(Node):
    _nd = 2

    def apply(self, g):
        nd = self._nd
        return (_scatter_planes(g, self.saved('self'), self.saved('result1'), nd, FractionalMaxPool2DBackwardBackward0
                                if nd == 2 else FractionalMaxPool3DBackwardBackward0),)


class FractionalMaxPool3DBackward0(FractionalMaxPool2DBackward0):
    _nd = 3


class FractionalMaxPool2DBackwardBackward0(_LinearInGrad):
    pass


class FractionalMaxPool3DBackwardBackward0(_LinearInGrad):
    pass
