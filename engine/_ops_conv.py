"""The op table, part 3: convolution and pooling (LeNet, d2l's conv chapter).

Same rules as `_ops.py`: a numpy forward beside its backward node, named and saving what PyTorch 2.13's nodes save.
Everything is computed on 4-d arrays (N, C, H, W): a 1-d op is its 2-d op with H = 1 (as PyTorch's 1-d pools are,
which it records as unsqueeze -> 2-d pool -> squeeze). A float32 convolution takes PyTorch's own kernels' orders of
additions where _conv_kernels models them; elsewhere it is im2col (a strided view of every window) and one matmul
per group, and so is its backward. When autograd records it (create_graph=True), the gradients are
outputs of PyTorch's double-backward node, whose own gradients come from the same convolution written as unfold and
a matmul (ConvolutionBackwardBackward0), or, for pools, from the pool's linear map again (_LinearInGrad).
"""
import builtins
import functools
import itertools
import operator
import warnings

import numpy as np

from . import _argparse
from . import _conv_kernels
from . import _autograd as ag
from . import _dtypes as dt
from ._autograd import Node, SavedTensor
from ._ops import _attach, _given, _in_suggested_format, _out, _preserved_copy, _signed, _sizes
from ._factories import _is_index
from ._ops_nn import _SecondOrder, _second_order
from ._tensor import Tensor, make, parser_type

_sliding = np.lib.stride_tricks.sliding_window_view


class _LinearInGrad(Node):
    """The node of a pool's gradient when autograd records it (create_graph=True): a map linear in the incoming
    gradient that does not depend on the input's values, so its own gradient is the forward map again (`_again`,
    applied to the gradient's gradient), and zeros for the input (PyTorch's zeros_like(self)). Gradients of
    gradients through pools work so."""

    def apply(self, gg):
        if self._saved:
            self._unpack_all()              # (freed: PyTorch's error, as its formula reads them)
        return (self._again(gg),) + tuple(make(np.zeros(*like)) if self.needs(i) else None
                                          for i, like in enumerate(self._like, 1))


def _linear_in_grad(gx, cls, inputs, again, saved=None):
    """gx, the numpy backward's result, recorded as the output of a `cls` node over `inputs` (the incoming gradient
    first) when autograd records; the node shows `saved` as PyTorch's saves it (its formula uses `again`)."""
    out = _attach(gx, cls, inputs, saved)
    if out._grad_fn is not None:
        out._grad_fn._again = again
        out._grad_fn._like = [(t._data.shape, t._data.dtype) for t in inputs[1:]]
    return out


def _gather_planes(gg, idx, nd=2):
    """The elements of gg at idx, per plane (idx counts in each H * W plane, or D * H * W volume for nd = 3, as
    pools' indices do)."""
    planes = int(np.prod(idx._data.shape[:-nd], dtype=np.int64))
    return gg.reshape(planes, int(np.prod(gg.shape[-nd:]))).gather(
        1, idx.reshape(planes, int(np.prod(idx._data.shape[-nd:])))).reshape(idx._data.shape)


def _scatter_planes(g, x, idx, nd, cls):
    """The gradient of a pool that picked x's elements at idx (per plane, as _gather_planes reads them): g added into
    zeros of x's shape at idx, recorded as a `cls` node whose own backward gathers again."""
    shape = x._data.shape
    planes, n = int(np.prod(shape[:-nd])), int(np.prod(g._data.shape[-nd:]))
    gx = np.zeros((planes, int(np.prod(shape[-nd:]))), g._data.dtype)
    np.add.at(gx, (np.arange(planes)[:, None], idx._data.reshape(planes, n)), g._data.reshape(planes, n))
    return _linear_in_grad(make(gx.reshape(shape)), cls, (g, x), lambda gg: _gather_planes(gg, idx, nd),
                           {'indices': SavedTensor(idx)})


class MaxPool2DWithIndicesBackwardBackward0(_LinearInGrad):
    pass


class AvgPool2DBackwardBackward0(_LinearInGrad):
    pass


class AdaptiveAvgPool2DBackwardBackward0(_LinearInGrad):
    pass


class AdaptiveMaxPool2DBackwardBackward0(_LinearInGrad):
    pass


def _windows(xp, kernel, stride, dilation, out_hw):
    """Every window of the padded array xp (N, C, *spatial) as a view (N, C, *out, *kernel): (N, C, Ho, Wo, kh, kw)
    for 2-d."""
    eff = tuple(d * (k - 1) + 1 for k, d in zip(kernel, dilation))
    v = _sliding(xp, eff, axis=tuple(range(2, 2 + len(kernel))))
    v = v[(slice(None),) * 2 + tuple(slice(None, None, s) for s in stride) +
          tuple(slice(None, None, d) for d in dilation)]
    return v[(slice(None),) * 2 + tuple(slice(o) for o in out_hw)]


# ================================================================================================ convolution

def _conv_param(name, value, nd, wdim):
    """A stride / padding / dilation as PyTorch's parser takes it (an int is repeated nd times) and as
    expand_param_if_needed expands it to the weight's number of spatial dims."""
    given = (value,) * nd if isinstance(value, int) else tuple(value)
    if len(given) == 1:
        return given, given * wdim
    if len(given) != wdim:
        raise RuntimeError('expected %s to be a single integer value or a list of %d values to match the convolution '
                           'dimensions, but got %s=%s' % (name, wdim, name, _sizes(given)))
    return given, given


def _pad_right(x, extra):
    """x zero-padded after its last dims by `extra` (one per trailing dim), as F.pad records it."""
    pad = ()
    for e in reversed(extra):
        pad += (0, e)
    data = np.pad(x._data, [(0, 0)] * (x._data.ndim - len(extra)) + [(0, e) for e in extra])
    return _attach(make(data), ConstantPadNdBackward0, (x,), {'pad': pad})


def constant_pad(input, pad, value=0):
    """F.pad's constant mode (constant_pad_nd): pad[2i] and pad[2i + 1] numbers of `value` before and after the
    i-th dim from the end (a negative count cuts that many off)."""
    pad = tuple(pad)
    if len(pad) % 2:
        raise RuntimeError('Padding length must be divisible by 2')
    if len(pad) // 2 > input._data.ndim:
        raise RuntimeError('Padding length should be less than or equal to two times the input dimension but got '
                           'padding length %d and input of dimension %d' % (len(pad), input._data.ndim))
    x = input._data
    cut, widths = [slice(None)] * x.ndim, [(0, 0)] * x.ndim
    for i in range(len(pad) // 2):
        d, before, after = x.ndim - 1 - i, pad[2 * i], pad[2 * i + 1]
        if x.shape[d] + min(before, 0) < 0 or x.shape[d] + min(before, 0) + min(after, 0) < 0:
            raise RuntimeError('narrow(): length must be non-negative.')     # (PyTorch cuts with narrow)
        cut[d] = slice(max(-before, 0), x.shape[d] - max(-after, 0))
        widths[d] = (max(before, 0), max(after, 0))
    x = x[tuple(cut)]
    # (laid out as PyTorch makes it: a clone of the cut input when nothing is added, else a new tensor in the input's
    # suggested memory format, not numpy's input order)
    if all(p <= 0 for p in pad):
        out = _preserved_copy(x)
    else:
        out = _in_suggested_format(np.pad(x, widths, constant_values=value), input._data)
    # (a negative count saved as PyTorch shows it, read as unsigned 64-bit)
    return _attach(make(out), ConstantPadNdBackward0, (input,), {'pad': _given(pad)})


class ConstantPadNdBackward0(Node):
    def apply(self, g):                             # (the padding taken off again: the negated pad)
        return (constant_pad(g, [-_signed(p) for p in self._saved['pad']]),)


_CONV_SIGNATURES = (
    '(Tensor input, Tensor weight, Tensor bias = None, tuple of ints stride = 1, tuple of ints padding = 0, tuple '
    'of ints dilation = 1, int groups = 1)',
    '(Tensor input, Tensor weight, Tensor bias = None, tuple of ints stride = 1, str padding = "valid", tuple of '
    'ints dilation = 1, int groups = 1)')


def _read_ints(v):
    """An int or int-list argument as PyTorch's parser reads it: an int tensor of one element (or a numpy int)
    stands for its int (`kernel_size=n` with n = torch.tensor(2))."""
    if isinstance(v, (tuple, list)):
        return type(v)(_read_ints(e) for e in v)
    return operator.index(v) if _is_index(v) else v


def _parsed(fn):
    """conv1d / conv2d with PyTorch's argument parser's TypeError for arguments of the wrong types."""
    def call(*args, **kwargs):
        names = ('input', 'weight', 'bias', 'stride', 'padding', 'dilation', 'groups')
        args = args[:3] + tuple(map(_read_ints, args[3:]))
        kwargs = {k: _read_ints(v) if k in names[3:] else v for k, v in kwargs.items()}
        given = dict(zip(names, args), **kwargs)
        ok = len(args) <= len(names) and set(given) <= set(names)
        for k, v in given.items():
            # (an int list fits if its first element is an int: a bool is none, a later one reads as 0 or 1)
            ok = ok and (isinstance(v, Tensor) if k in ('input', 'weight') else v is None or isinstance(v, Tensor)
                         if k == 'bias' else _argparse.is_int(v) if k == 'groups' else
                         _argparse._is_int_list(v, 1) or k == 'padding' and isinstance(v, str))
        if not ok:
            raise _argparse.invalid_combination(fn.__name__, _CONV_SIGNATURES, args, kwargs)
        for k in names[:2:-1]:          # (then each list's elements are read, the last argument's first)
            v = given.get(k)
            for i, e in enumerate(v if isinstance(v, (tuple, list)) else ()):
                if not isinstance(e, int):
                    raise TypeError('%s(): argument \'%s\' failed to unpack the object at pos %d with error "type must '
                                    'be tuple of ints,but got %s"' % (fn.__name__, k, i + 1, parser_type(e)))
        return fn(*args, **kwargs)
    call.__name__, call.__qualname__, call.__doc__ = fn.__name__, fn.__qualname__, fn.__doc__
    call.__wrapped__ = fn
    return call


_warned = []


def _warn_once_same():
    """PyTorch warns of this once per process (TORCH_WARN_ONCE)."""
    if not _warned:
        _warned.append(True)
        warnings.warn("Using padding='same' with even kernel lengths and odd dilation may require a zero-padded copy "
                      "of the input be created", UserWarning, stacklevel=5)


def _convolution(name, nd, input, weight, bias, stride, padding, dilation, groups):
    if bias is not None and bias._data.dtype != input._data.dtype and not isinstance(padding, str):
        # (PyTorch's first check, before the dims; a padding string's path checks no bias dtype: it is added as is)
        raise RuntimeError('Input type (%s) and bias type (%s) should be the same'
                           % (dt.C_NAMES[input._data.dtype.name], dt.C_NAMES[bias._data.dtype.name]))
    if input._data.ndim not in (nd + 1, nd + 2):
        raise RuntimeError('Expected %dD (unbatched) or %dD (batched) input to %s, but got input of size: %s'
                           % (nd + 1, nd + 2, name, _sizes(input._data.shape)))
    if input._data.ndim == nd + 1:                  # unbatched: PyTorch unsqueezes, convolves, squeezes
        return _convolution(name, nd, input.unsqueeze(0), weight, bias, stride, padding, dilation,
                            groups).squeeze(0)
    wshape, wdim = weight._data.shape, weight._data.ndim - 2
    mode = padding if isinstance(padding, str) else None
    if mode is not None and mode not in ('same', 'valid'):
        raise RuntimeError("Invalid padding string: '%s'" % mode)
    if wdim <= 0:
        raise RuntimeError('weight should have at least three dimensions')
    if groups <= 0:
        raise RuntimeError('non-positive groups is not supported')
    if mode == 'same':                      # (PyTorch's _convolution_same checks these first, in its words)
        if input._data.ndim != weight._data.ndim:
            raise RuntimeError('Expected %d-dimensional input for %d-dimensional weight%s, but got %d-dimensional '
                               'input of size %s instead' % (wdim + 2, wdim + 2, _sizes(wshape), input._data.ndim,
                                                             _sizes(input._data.shape)))
        for name, v in (('stride', stride), ('dilation', dilation)):
            if not isinstance(v, int) and len(v) not in (1, wdim):
                raise RuntimeError('%s cannot broadcast to %d dimensions' % (name, wdim))
    saved_stride, stride = _conv_param('stride', stride, nd, wdim)
    if mode == 'valid':
        saved_padding, padding, output_padding = (0,), (0,) * wdim, (0,)
    else:
        saved_padding, padding = _conv_param('padding', 0 if mode else padding, nd, wdim)
        output_padding = (0,) * nd
    saved_dilation, dilation = _conv_param('dilation', dilation, nd, wdim)
    if mode == 'same' and input._data.ndim == weight._data.ndim:
        # (PyTorch's _convolution_mode: the stride checked, the input padded, before convolution's own checks)
        if any(s != 1 for s in stride):
            raise RuntimeError("padding='same' is not supported for strided convolutions")
        total = [d * (k - 1) for d, k in zip(dilation, wshape[2:])]
        padding = saved_padding = tuple(t // 2 for t in total)
        if any(t % 2 for t in total):
            _warn_once_same()
            input = _pad_right(input, [t % 2 for t in total])
        mode = None
    if any(p < 0 for p in padding):
        raise RuntimeError('negative padding is not supported')
    if any(s <= 0 for s in stride):
        raise RuntimeError('non-positive stride is not supported')
    if any(d <= 0 for d in dilation):
        raise RuntimeError('dilation should be greater than zero, but got %s' % _sizes(dilation))
    _check_weight(input, wshape, wdim, groups)
    if input._data.shape[1] != wshape[1] * groups:
        raise RuntimeError('Given groups=%d, weight of size %s, expected input%s to have %d channels, but got %d '
                           'channels instead' % (groups, _sizes(wshape), _sizes(input._data.shape),
                                                 wshape[1] * groups, input._data.shape[1]))
    if bias is not None and (bias._data.ndim != 1 or bias._data.shape[0] != wshape[0]):
        raise RuntimeError('Given weight of size %s, expected bias to be 1-dimensional with %d elements, but got bias '
                           'of size %s instead' % (_sizes(wshape), wshape[0], _sizes(bias._data.shape)))
    if mode == 'same':
        if any(s != 1 for s in stride):
            raise RuntimeError("padding='same' is not supported for strided convolutions")
        total = [d * (k - 1) for d, k in zip(dilation, wshape[2:])]
        padding = tuple(t // 2 for t in total)
        saved_padding = padding
        if any(t % 2 for t in total):
            _warn_once_same()
            input = _pad_right(input, [t % 2 for t in total])
    size = input._data.shape[2:]
    kernel = [d * (k - 1) + 1 for d, k in zip(dilation, wshape[2:])]
    if any(s + 2 * p < k for s, p, k in zip(size, padding, kernel)):
        padded = ' x '.join(str(s + 2 * p) for s, p in zip(size, padding))
        raise RuntimeError('Calculated padded input size per channel: (%s). Kernel size: (%s). Kernel size can\'t be '
                           'greater than actual input size' % (padded, ' x '.join(map(str, kernel))))
    if weight._data.dtype != input._data.dtype:
        raise RuntimeError('expected scalar type %s but found %s' % (input.dtype.legacy, weight.dtype.legacy))
    x, w = _as_2d(input._data, nd), _as_2d(weight._data, nd)
    geo = _Geometry(x.shape, w.shape, _hw(stride, nd, 1), _hw(padding, nd, 0), _hw(dilation, nd, 1), groups)
    out = _conv_kernels.forward(x, w, None if bias is None else bias._data, geo)
    if out is None:
        out = geo.forward(x, w)
        if bias is not None:
            out += bias._data.reshape((-1,) + (1,) * (out.ndim - 2))
    out = _out(out.reshape(out.shape[:2] + out.shape[-nd:]), input.dtype)
    return _attach(out, ConvolutionBackward0, (input, weight, bias), {
        'bias_sym_sizes_opt': (0,) if bias is None else bias._data.shape, 'dilation': saved_dilation,
        'groups': groups, 'input': SavedTensor(input), 'output_padding': output_padding, 'padding': saved_padding,
        'stride': saved_stride, 'transposed': False, 'weight': SavedTensor(weight)})


def _as_2d(a, nd):
    """A 1-d convolution's (N, C, L) array as (N, C, 1, L)."""
    return a[:, :, None] if nd == 1 else a


def _expand(v, nd):
    """A saved stride / padding / dilation (one value or one per dim) as one value per dim."""
    return tuple(v) * nd if len(v) == 1 else tuple(v)


def _hw(v, nd, first):
    """A 1-d convolution's stride / padding / dilation for its (1, L) form."""
    return (first,) + tuple(v) if nd == 1 else tuple(v)


class _Geometry:
    """The shapes of one convolution over 2 (or 3) spatial dims and the im2col / col2im steps of its forward and
    backward (shown for 2-d: (H, W) windows of (kh, kw) taps, (Ho, Wo) of them). `out`: the windows' count when
    it is not all that fit (a transposed convolution's input, whose output_padding may leave room for more)."""

    def __init__(self, xshape, wshape, stride, padding, dilation, groups, out=None):
        (self.n, self.c), self.size = xshape[:2], tuple(xshape[2:])
        (self.o, self.cg), self.kernel = wshape[:2], tuple(wshape[2:])
        self.stride, self.padding, self.dilation, self.groups = stride, padding, dilation, groups
        self.og = self.o // groups
        self.out_hw = out or tuple((s + 2 * p - d * (k - 1) - 1) // st + 1 for s, p, d, k, st in
                                   zip(self.size, padding, dilation, self.kernel, stride))
        nd = self.nd = len(self.size)
        self.out_dims, self.tap_dims = tuple(range(3, 3 + nd)), tuple(range(3 + nd, 3 + 2 * nd))

    def cols(self, x):
        """(G, N*Ho*Wo, Cg*kh*kw): every window of x, grouped."""
        xp = np.pad(x, ((0, 0), (0, 0)) + tuple((p, p) for p in self.padding)) if any(self.padding) else x
        v = _windows(xp, self.kernel, self.stride, self.dilation, self.out_hw)
        v = v.reshape((self.n, self.groups, self.cg) + self.out_hw + self.kernel)
        v = v.transpose((1, 0) + self.out_dims + (2,) + self.tap_dims)
        return v.reshape(self.groups, self.n * int(np.prod(self.out_hw)), self.cg * int(np.prod(self.kernel)))

    def grouped(self, w):
        """The weight as (G, Cg*kh*kw, Og)."""
        return w.reshape(self.groups, self.og, -1).transpose(0, 2, 1)

    def forward(self, x, w):
        y = np.matmul(self.cols(x), self.grouped(w))                       # (G, N*Ho*Wo, Og)
        y = y.reshape((self.groups, self.n) + self.out_hw + (self.og,))
        return np.ascontiguousarray(y.transpose((1, 0, 2 + self.nd) + tuple(range(2, 2 + self.nd)))
                                    .reshape((self.n, self.o) + self.out_hw))

    def grad_output(self, g):
        """The output gradient as (G, N*Ho*Wo, Og)."""
        g = g.reshape((self.n, self.groups, self.og) + self.out_hw)
        return g.transpose((1, 0) + self.out_dims + (2,)).reshape(self.groups, -1, self.og)

    def grad_weight(self, x, g):
        gw = np.matmul(self.grad_output(g).transpose(0, 2, 1), self.cols(x))   # (G, Og, Cg*kh*kw)
        return gw.reshape((self.o, self.cg) + self.kernel)

    def grad_input(self, w, g):
        nd, out = self.nd, self.out_hw
        gc = np.matmul(self.grad_output(g), self.grouped(w).transpose(0, 2, 1))  # (G, N*Ho*Wo, Cg*kh*kw)
        gc = gc.reshape((self.groups, self.n) + out + (self.cg,) + self.kernel)
        gc = gc.transpose((1, 0, 2 + nd) + self.tap_dims + tuple(range(2, 2 + nd)))
        gc = gc.reshape((self.n, self.c) + self.kernel + out)
        gx = np.zeros((self.n, self.c) + tuple(s + 2 * p for s, p in zip(self.size, self.padding)), g.dtype)
        for tap in np.ndindex(*self.kernel):                                  # col2im: add each kernel tap back
            gx[(slice(None),) * 2 + tuple(slice(t * d, t * d + s * (o - 1) + 1, s) for t, d, s, o in
                                          zip(tap, self.dilation, self.stride, out))] += gc[(slice(None),) * 2 + tap]
        return gx[(slice(None),) * 2 + tuple(slice(p, p + s) for p, s in zip(self.padding, self.size))]


class ConvolutionBackward0(Node):
    """A convolution's node; of a transposed one (conv_transpose, which runs a convolution's input gradient forward)
    the input's gradient is a convolution of the output's gradient."""

    def apply(self, g):
        x, w = self.saved('input'), self.saved('weight')
        nd = x._data.ndim - 2
        stride, padding, dilation = (_hw(_expand(self._saved[k], nd), nd, first) for k, first in
                                     (('stride', 1), ('padding', 0), ('dilation', 1)))
        xd, wd, gd = _as_2d(x._data, nd), _as_2d(w._data, nd), _as_2d(g._data, nd)
        if self._saved['transposed']:
            geo = _Geometry(gd.shape, wd.shape, stride, padding, dilation, self._saved['groups'], xd.shape[2:])
            gx = make(geo.forward(gd, wd).reshape(x._data.shape)) if self.needs(0) else None
            gw = make(geo.grad_weight(gd, xd).reshape(w._data.shape)) if self.needs(1) else None
            gb = None
        else:
            geo = _Geometry(xd.shape, wd.shape, stride, padding, dilation, self._saved['groups'])
            gx = gw = gb = None
            if self.needs(0):
                gx = _conv_kernels.grad_input(wd, gd, geo)
                gx = make(np.ascontiguousarray((geo.grad_input(wd, gd) if gx is None else gx).reshape(x._data.shape)))
            if self.needs(1):
                gw = _conv_kernels.grad_weight(xd, gd, geo)
                gw = make((geo.grad_weight(xd, gd) if gw is None else gw).reshape(w._data.shape))
            if len(self._fns) > 2 and self.needs(2):
                gb = _conv_kernels.grad_bias(gd, geo)
        if len(self._fns) > 2 and self.needs(2):
            gb = make(gd.sum((0,) + tuple(range(2, gd.ndim))) if gb is None else gb)
        if not ag.grad_enabled:
            return gx, gw, gb
        s = self._saved

        def formula(g, x, w):
            """The gradients of the convolution written as unfold (im2col) and a matmul, differentiable (a transposed
            one: the gradient of such a convolution w.r.t. its input, at x)."""
            bias = make(np.zeros(g._data.shape[1], w._data.dtype)).requires_grad_() if gb is not None else None
            req = [t for t in (x, w, bias) if t is not None and t._requires_grad]
            if s['transposed']:
                z = make(np.zeros(g._data.shape, g._data.dtype)).requires_grad_()
                y = _conv_by_unfold(z, w, None, nd, stride, padding, dilation, s['groups'])
                if y.shape != x.shape:          # (the windows output_padding left room for, beyond the input's)
                    y = y[(Ellipsis,) + tuple(slice(n) for n in x.shape[-nd:])]
                y, = grad(y, z, x, create_graph=True)
                y = y if bias is None else y + bias.reshape((-1,) + (1,) * nd)
            else:
                y = _conv_by_unfold(x, w, bias, nd, stride, padding, dilation, s['groups'])
            grads = iter(grad(y, req, g, create_graph=True, allow_unused=True))
            return tuple(next(grads) if t is not None and t._requires_grad else None for t in (x, w, bias))
        from .autograd import grad
        return _second_order(ConvolutionBackwardBackward0, (g, x, w), (gx, gw, gb), formula,
                             {'dilation': s['dilation'], 'grad_output': g, 'groups': s['groups'], 'input': x,
                              'output_padding': s['output_padding'], 'padding': s['padding'], 'stride': s['stride'],
                              'transposed': s['transposed'], 'weight': w})


class ConvolutionBackwardBackward0(_SecondOrder):
    def apply(self, *grads):
        if self._ins[1]._data.size:
            return super().apply(*grads)
        # an empty input: PyTorch's double backward gives a gradient only for grad_output, only from the bias's
        out = super().apply(*grads) if len(grads) > 2 and grads[2] is not None else (None,)
        return (out[0],) + (None,) * (len(self._ins) - 1)


def _conv_by_unfold(x, w, bias, nd, stride, padding, dilation, groups):
    """A 1-d or 2-d convolution in differentiable ops: the windows (F.unfold) times the weight, per group."""
    from ._ops_vision import unfold
    if nd == 3:
        return _conv_by_taps(x, w, bias, stride, padding, dilation, groups)
    batched = x.dim() == nd + 2
    x4 = (x if batched else x.unsqueeze(0)).reshape((-1, x.shape[-nd - 1]) + (1,) * (2 - nd) + x.shape[-nd:])
    w4 = w.reshape(w.shape[:2] + (1,) * (2 - nd) + w.shape[2:])
    n, (o, cg, kh, kw) = x4.shape[0], w4.shape
    cols = unfold(x4, (kh, kw), dilation, padding, stride)
    out = w4.reshape(1, groups, o // groups, cg * kh * kw).matmul(cols.reshape(n, groups, cg * kh * kw,
                                                                               cols.shape[-1]))
    hw = [(size + 2 * p - d * (k - 1) - 1) // st + 1 for size, k, st, p, d in
          zip(x4.shape[2:], (kh, kw), stride, padding, dilation)]
    out = out.reshape((n, o) + tuple(hw[2 - nd:]))
    if bias is not None:
        out = out + bias.reshape((o,) + (1,) * nd)
    return out if batched else out.squeeze(0)



def _conv_by_taps(x, w, bias, stride, padding, dilation, groups):
    """A 3-d convolution in differentiable ops (F.unfold takes 2-d inputs only): the padded input's strided slice at
    each kernel tap times that tap's weights, per group, summed."""
    batched = x.dim() == 5
    x5 = x if batched else x.unsqueeze(0)
    (n, c), (o, cg), kernel = x5.shape[:2], w.shape[:2], tuple(w.shape[2:])
    xp = constant_pad(x5, [p for p in reversed(padding) for _ in (0, 1)])
    out = tuple((size + 2 * p - d * (k - 1) - 1) // st + 1 for size, k, st, p, d in
                zip(x5.shape[2:], kernel, stride, padding, dilation))
    total = None
    for tap in np.ndindex(*kernel):
        cut = xp[(slice(None),) * 2 + tuple(slice(t * d, t * d + st * (m - 1) + 1, st) for t, d, st, m in
                                            zip(tap, dilation, stride, out))]
        term = w[(slice(None),) * 2 + tap].reshape(groups, o // groups, cg).matmul(
            cut.reshape(n, groups, cg, int(np.prod(out))))
        total = term if total is None else total + term
    total = total.reshape((n, o) + out)
    if bias is not None:
        total = total + bias.reshape((o, 1, 1, 1))
    return total if batched else total.squeeze(0)


def _check_weight(input, wshape, wdim, groups):
    """PyTorch's checks of a convolution's (or transposed one's) input dims and weight against groups."""
    if input._data.ndim != wdim + 2:
        raise RuntimeError('Expected %d-dimensional input for %d-dimensional weight %s, but got %d-dimensional input '
                           'of size %s instead' % (wdim + 2, wdim + 2, _sizes(wshape), input._data.ndim,
                                                   _sizes(input._data.shape)))
    if wshape[0] < groups:
        raise RuntimeError('Given groups=%d, expected weight to be at least %d at dimension 0, but got weight of size '
                           '%s instead' % (groups, groups, _sizes(wshape)))
    if wshape[0] % groups:
        raise RuntimeError('Given groups=%d, expected weight to be divisible by %d at dimension 0, but got weight of '
                           'size [%s] instead' % (groups, groups, _sizes(wshape)))


@_parsed
def conv2d(input, weight, bias=None, stride=1, padding=0, dilation=1, groups=1):
    """2-d cross-correlation of a (N, C, H, W) or (C, H, W) input with a (O, C / groups, kh, kw) weight."""
    return _convolution('conv2d', 2, input, weight, bias, stride, padding, dilation, groups)


@_parsed
def conv3d(input, weight, bias=None, stride=1, padding=0, dilation=1, groups=1):
    """3-d cross-correlation of a (N, C, D, H, W) or (C, D, H, W) input with a (O, C / groups, kd, kh, kw) weight."""
    return _convolution('conv3d', 3, input, weight, bias, stride, padding, dilation, groups)


@_parsed
def conv1d(input, weight, bias=None, stride=1, padding=0, dilation=1, groups=1):
    """1-d cross-correlation of a (N, C, L) or (C, L) input with a (O, C / groups, k) weight."""
    return _convolution('conv1d', 1, input, weight, bias, stride, padding, dilation, groups)


# ================================================================================================ pooling

def _pool_arg(value, nd=2):
    return (value,) * nd if isinstance(value, int) else tuple(value)


def _pool_signature(name):
    """The parser's signature of a pool op (PyTorch's torch.max_pool2d, torch._C._nn.avg_pool2d...)."""
    n = 1 if '1d' in name else 3 if '3d' in name else 2
    rest = ('bool ceil_mode=False, bool count_include_pad=True' + (', int64_t? divisor_override=None' if n > 1 else '')
            if name.startswith('avg') else 'IntArrayRef[%d] dilation=1, bool ceil_mode=False' % n)
    return ('%s(Tensor input, IntArrayRef[%d] kernel_size, IntArrayRef[%d] stride=[], IntArrayRef[%d] padding=0, %s)'
            % (name, n, n, n, rest))


def _pool_input(name, input, kernel_size, stride, *sizes):
    """The argument parser's TypeErrors for the usual mistakes: a list for the input, a float kernel size or stride
    (`kernel_size=k / 2`), a bool; `sizes` are padding (and dilation). A stride of None is none given ([])."""
    sizes = (kernel_size, [] if stride is None else stride) + sizes
    if isinstance(input, Tensor) and all(type(v) is int or type(v) in (tuple, list) and all(type(e) is int for e in v)
                                         for v in sizes):
        return
    _argparse.signature_parser(_pool_signature(name)).check((input,) + sizes, {})


def _pool_sizes(name, kernel_size, stride, padding, dilation=None, nd=2):
    """PyTorch's checks of a 2-d (nd = 3: 3-d) pool's arguments; (given, per dim) of each, as its nodes save them as
    given (an int as one per dim)."""
    either, n = ('either ' if nd == 2 or name.startswith('max') else '', 'two' if nd == 2 else 'three')
    kernel = _pool_arg(kernel_size, nd)
    if len(kernel) not in (1, nd):
        raise RuntimeError('%s: kernel_size must %sbe a single int, or a tuple of %s ints' % (name, either, n))
    given_stride = () if stride is None else _pool_arg(stride, nd)
    if len(given_stride) not in (0, 1, nd):
        raise RuntimeError('%s: stride must %sbe omitted, a single int, or a tuple of %s ints' % (name, either, n))
    pad = _pool_arg(padding, nd)
    if len(pad) not in (1, nd):
        raise RuntimeError('%s: padding must %sbe a single int, or a tuple of %s ints' % (name, either, n))
    dil = _pool_arg(1 if dilation is None else dilation, nd)
    if len(dil) not in (1, nd):
        raise RuntimeError('%s: dilation must be either a single int, or a tuple of %s ints' % (name, n))
    per_dim = [k * nd if len(k) == 1 else k for k in (kernel, given_stride or kernel, pad, dil)]
    return (kernel, given_stride, pad, dil), per_dim


def _output_size(size, k, pad, stride, dilation, ceil_mode):
    """PyTorch's pooling_output_shape."""
    if stride == 0:
        raise RuntimeError('stride should not be zero')
    if pad < 0:
        raise RuntimeError('pad must be non-negative, but got pad: %d' % pad)
    if pad > int(((k - 1) * dilation + 1) / 2):            # (C's division, to zero: a kernel of -1 passes)
        raise RuntimeError('pad should be at most half of effective kernel size, but got pad=%d, kernel_size=%d and '
                           'dilation=%d' % (pad, k, dilation))
    out = (size + 2 * pad - dilation * (k - 1) - 1 + (stride - 1 if ceil_mode else 0)) // stride + 1
    if ceil_mode and (out - 1) * stride >= size + pad:
        out -= 1
    return out


def _pool_geometry(input, kernel, stride, pad, dil, ceil_mode):
    """The output size (Ho, Wo) of a 2-d pool after PyTorch's shape checks (pool2d_shape_check)."""
    shape = input._data.shape
    planes, h, w = shape[-3:]
    out = (_output_size(h, kernel[0], pad[0], stride[0], dil[0], ceil_mode),
           _output_size(w, kernel[1], pad[1], stride[1], dil[1], ceil_mode))
    if min(kernel) <= 0:
        raise RuntimeError('kernel size should be greater than zero, but got kH: %d kW: %d' % tuple(kernel))
    if min(stride) <= 0:
        raise RuntimeError('stride should be greater than zero, but got dH: %d dW: %d' % tuple(stride))
    if min(dil) <= 0:
        raise RuntimeError('dilation should be greater than zero, but got dilationH: %d dilationW: %d' % tuple(dil))
    if input._data.ndim not in (3, 4) or 0 in shape[1:]:
        raise RuntimeError('Expected 3D or 4D (batch mode) tensor with optional 0 dim batch size for input, but got:'
                           + _sizes(shape))
    if kernel[1] // 2 < pad[1] or kernel[0] // 2 < pad[0]:
        raise RuntimeError('pad should be smaller than or equal to half of kernel size, but got padW = %d, padH = %d, '
                           'kW = %d, kH = %d' % (pad[1], pad[0], kernel[1], kernel[0]))
    if min(out) < 1:
        raise RuntimeError('Given input size: (%dx%dx%d). Calculated output size: (%dx%dx%d). Output size is too small'
                           % (planes, h, w, planes, out[0], out[1]))
    return out


def _pool3d_geometry(name, input, kernel, stride, pad, dil, ceil_mode, check_input_size):
    """The output size (To, Ho, Wo) of a 3-d pool of a 4-d or 5-d input after PyTorch's shape checks
    (pool3d_shape_check; check_input_size: avg_pool3d's, that each dim is at least its kernel)."""
    shape = input._data.shape
    planes, size = shape[-4], shape[-3:]
    out = tuple(_output_size(n, k, p, s, d, ceil_mode) for n, k, p, s, d in zip(size, kernel, pad, stride, dil))
    if min(kernel) <= 0:
        raise RuntimeError('kernel size should be greater than zero, but got kT: %d kH: %d kW: %d' % tuple(kernel))
    if min(stride) <= 0:
        raise RuntimeError('stride should be greater than zero, but got dT: %d dH: %d dW: %d' % tuple(stride))
    if min(dil) <= 0:
        raise RuntimeError('dilation should be greater than zero, but got dilationT: %d dilationH: %d dilationW: %d'
                           % tuple(dil))
    if 0 in shape[len(shape) - 4:]:
        raise RuntimeError("%s: Expected input's non-batch dimensions to have positive length, but input has a shape "
                           "of %s and non-batch dimension 0 has length zero!" % (name, _sizes(shape)))
    if check_input_size and any(n < k for n, k in zip(size, kernel)):
        raise RuntimeError('input image (T: %d H: %d W: %d) smaller than kernel size (kT: %d kH: %d kW: %d)'
                           % (size + tuple(kernel)))
    if any(k // 2 < p for k, p in zip(kernel, pad)):
        raise RuntimeError('pad should be smaller than or equal to half of kernel size, but got kT: %d kW: %d kH: %d '
                           'padT: %d padW: %d padH: %d' % (kernel[0], kernel[2], kernel[1], pad[0], pad[2], pad[1]))
    if min(out) < 1:
        raise RuntimeError('Given input size: (%dx%dx%dx%d). Calculated output size: (%dx%dx%dx%d). Output size is '
                           'too small' % ((planes,) + size + (planes,) + out))
    return out


def _padded(x, kernel, stride, pad, dil, out, fill):
    """x (N, C, H, W) padded with `fill`: `pad` on each side, and on the right as far as the last window reaches
    (ceil_mode); and, per dim, which taps of each window fall inside x (out, k)."""
    extra, inside = [], []
    for size, k, s, p, d, o in zip(x.shape[2:], kernel, stride, pad, dil, out):
        extra.append(max(0, (o - 1) * s + d * (k - 1) + 1 - size - 2 * p))
        at = np.arange(o)[:, None] * s - p + np.arange(k)[None] * d
        inside.append((at >= 0) & (at < size))
    widths = ((0, 0), (0, 0)) + tuple((p, p + e) for p, e in zip(pad, extra))
    return np.pad(x, widths, constant_values=fill), inside


def _as_4d(a):
    return a[None] if a.ndim == 3 else a


def max_pool2d_with_indices(input, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False):
    """(values, indices) of the largest element of each window; an index counts in the unpadded H * W plane."""
    return _max_pool(2, 'max_pool2d_with_indices', input, kernel_size, stride, padding, dilation, ceil_mode)


def max_pool3d_with_indices(input, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False,
                            return_indices=False):
    """(values, indices) of the largest element of each 3-d window; an index counts in the unpadded D * H * W
    volume."""
    return _max_pool(3, 'max_pool3d_with_indices', input, kernel_size, stride, padding, dilation, ceil_mode)


def _max_pool(nd, name, input, kernel_size, stride, padding, dilation, ceil_mode):
    """max_pool2d (nd = 2) or max_pool3d (nd = 3) with indices, with each one's checks and node."""
    kernel_size, stride, padding, dilation = map(_read_ints, (kernel_size, stride, padding, dilation))
    _pool_input(name, input, kernel_size, stride, padding, dilation)
    if type(ceil_mode) is not bool:
        _argparse.signature_parser(_pool_signature(name)).check(
            (input, kernel_size, [] if stride is None else stride, padding, dilation, ceil_mode), {})
    given, (kernel, stride2, pad, dil) = _pool_sizes('max_pool%dd' % nd, kernel_size, stride, padding, dilation, nd)
    if input._data.ndim not in (nd + 1, nd + 2):
        raise RuntimeError('non-empty %dD or %dD (batch mode) tensor expected for input' % (nd + 1, nd + 2))
    if nd == 2:
        out_hw = _pool_geometry(input, kernel, stride2, pad, dil, ceil_mode)
    else:
        out_hw = _pool3d_geometry('max_pool3d_with_indices_out_cpu_template()', input, kernel, stride2, pad, dil,
                                  ceil_mode, False)
        if input._data.dtype == np.bool_:
            raise NotImplementedError('"max_pool3d" not implemented for \'Bool\'')
    x = input._data[None] if input._data.ndim == nd + 1 else input._data
    kind = x.dtype.kind
    fill = -np.inf if kind == 'f' else np.iinfo(x.dtype).min if kind in 'iu' else False
    xp, inside = _padded(x, kernel, stride2, pad, dil, out_hw, fill)
    v = _windows(xp, kernel, stride2, dil, out_hw)
    v = v.reshape(v.shape[:2 + nd] + (int(np.prod(kernel)),))
    at = np.argmax(v, axis=-1)
    values = np.take_along_axis(v, at[..., None], -1)[..., 0]
    # PyTorch's kernel starts from the first tap inside the input and takes a tap only if it is larger (or NaN):
    # a window of nothing but the lowest value keeps its first tap inside the input, and NaN's last one wins.
    first = sum(np.argmax(inside[d], 1).reshape((-1,) + (1,) * (nd - 1 - d)) * int(np.prod(kernel[d + 1:]))
                for d in range(nd))
    at = np.where(values == fill, first, at)
    if kind == 'f':
        nan = np.isnan(v)
        if nan.any():
            at = np.where(nan.any(-1), v.shape[-1] - 1 - np.argmax(nan[..., ::-1], -1), at)
    taps = np.unravel_index(at, kernel)
    flat = sum((np.arange(out_hw[d]).reshape((-1,) + (1,) * (nd - 1 - d)) * stride2[d] - pad[d] + taps[d] * dil[d])
               * int(np.prod(x.shape[3 + d:])) for d in range(nd))
    shape = input._data.shape[:-nd] + out_hw
    indices = make(flat.astype(np.int64).reshape(shape))
    out = _out(values.reshape(shape), input.dtype)
    _attach(out, MaxPool2DWithIndicesBackward0 if nd == 2 else MaxPool3DWithIndicesBackward0, (input,), {
        'ceil_mode': ceil_mode, 'dilation': given[3], 'kernel_size': given[0], 'padding': given[2],
        'result1': SavedTensor(indices), 'self': SavedTensor(input), 'stride': given[1]})
    return out, indices


class MaxPool2DWithIndicesBackward0(Node):
    _nd = 2

    def apply(self, g):
        x, idx = self.saved('self'), self.saved('result1')
        nd = self._nd
        shape = (x._data[None] if x._data.ndim == nd + 1 else x._data).shape
        gx = np.zeros((shape[0] * shape[1], int(np.prod(shape[2:]))), g._data.dtype)
        planes, per = np.arange(gx.shape[0])[:, None], int(np.prod(idx._data.shape[-nd:]))
        np.add.at(gx, (planes, idx._data.reshape(gx.shape[0], per)), g._data.reshape(gx.shape[0], per))
        return (_linear_in_grad(make(gx.reshape(x._data.shape)), MaxPool2DWithIndicesBackwardBackward0 if nd == 2
                                else MaxPool3DWithIndicesBackwardBackward0, (g, x),
                                lambda gg: _gather_planes(gg, idx, nd), {'indices': SavedTensor(idx)}),)


class MaxPool3DWithIndicesBackward0(MaxPool2DWithIndicesBackward0):
    _nd = 3


class MaxPool3DWithIndicesBackwardBackward0(_LinearInGrad):
    pass


def max_pool2d(input, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False, return_indices=False):
    """The largest element of each kernel_size window (stride defaults to kernel_size); with return_indices, where
    each was too."""
    out, indices = _max_pool(2, 'max_pool2d_with_indices' if return_indices else 'max_pool2d', input, kernel_size,
                             stride, padding, dilation, ceil_mode)
    return (out, indices) if return_indices else out


def max_pool3d(input, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False, return_indices=False):
    """The largest element of each 3-d kernel_size window (stride defaults to kernel_size); with return_indices,
    where each was too."""
    out, indices = _max_pool(3, 'max_pool3d_with_indices' if return_indices else 'max_pool3d', input, kernel_size,
                             stride, padding, dilation, ceil_mode)
    return (out, indices) if return_indices else out


def avg_pool2d(input, kernel_size, stride=None, padding=0, ceil_mode=False, count_include_pad=True,
               divisor_override=None):
    """The mean of each kernel_size window (stride defaults to kernel_size)."""
    return _avg_pool(2, input, kernel_size, stride, padding, ceil_mode, count_include_pad, divisor_override)


def avg_pool3d(input, kernel_size, stride=None, padding=0, ceil_mode=False, count_include_pad=True,
               divisor_override=None):
    """The mean of each kernel_size window of the last three dims (stride defaults to kernel_size)."""
    return _avg_pool(3, input, kernel_size, stride, padding, ceil_mode, count_include_pad, divisor_override)


def _avg_pool(nd, input, kernel_size, stride, padding, ceil_mode, count_include_pad, divisor_override):
    """avg_pool2d (nd = 2) or avg_pool3d (nd = 3), with each one's checks, dtypes and node."""
    name = 'avg_pool%dd' % nd
    kernel_size, stride, padding = map(_read_ints, (kernel_size, stride, padding))
    _pool_input(name, input, kernel_size, stride, padding)
    if not (type(ceil_mode) is bool and type(count_include_pad) is bool and
            (divisor_override is None or type(divisor_override) is int)):
        _argparse.signature_parser(_pool_signature(name)).check(
            (input, kernel_size, [] if stride is None else stride, padding, ceil_mode, count_include_pad,
             divisor_override), {})
    given, (kernel, stride2, pad, _) = _pool_sizes(name, kernel_size, stride, padding, nd=nd)
    if nd == 3 and input._data.ndim not in (4, 5):
        raise RuntimeError('non-empty 4D or 5D (batch mode) tensor expected for input')
    if divisor_override is not None and divisor_override == 0:
        raise RuntimeError('divisor must be not zero')
    if nd == 2:
        input.size(-3)
        out_hw = _pool_geometry(input, kernel, stride2, pad, (1, 1), ceil_mode)
    else:
        out_hw = _pool3d_geometry('avg_pool3d()', input, kernel, stride2, pad, (1, 1, 1), ceil_mode, True)
    # (the kernels' dtypes: floats (3-d: no half) and long)
    if not input.is_floating_point() and input.dtype is not dt.int64 or nd == 3 and input.dtype is dt.float16:
        raise NotImplementedError('"%s" not implemented for \'%s\'' % ('avg_pool3d_out_frame' if nd == 3 else name,
                                                                        input.dtype.legacy))
    x = input._data[None] if input._data.ndim == nd + 1 else input._data
    divisor = _divisors(x.shape, kernel, stride2, pad, out_hw, count_include_pad, divisor_override)
    xp, _ = _padded(x, kernel, stride2, pad, (1,) * nd, out_hw, 0)
    v = _windows(xp, kernel, stride2, (1,) * nd, out_hw)
    total = v[(Ellipsis,) + (0,) * nd].copy()
    for tap in list(np.ndindex(*kernel))[1:]:       # in PyTorch's order: row by row
        total += v[(Ellipsis,) + tap]
    if x.dtype.kind == 'f':
        values = total / divisor.astype(x.dtype)
    else:
        values = np.trunc(total / divisor).astype(x.dtype)
    out = _out(values.reshape(input._data.shape[:-nd] + out_hw), input.dtype)
    return _attach(out, AvgPool2DBackward0 if nd == 2 else AvgPool3DBackward0, (input,), {
        'ceil_mode': ceil_mode, 'count_include_pad': count_include_pad,
        'divisor_override': None if divisor_override is None else _given(divisor_override),
        'kernel_size': given[0], 'padding': given[2], 'self': SavedTensor(input), 'stride': given[1]})


def _divisors(shape, kernel, stride, pad, out_hw, count_include_pad, divisor_override):
    """What PyTorch divides each window's sum by: divisor_override, or the window's size within the padded input
    (count_include_pad), or within the input."""
    if divisor_override is not None:
        return np.full(out_hw, divisor_override)
    sizes = []
    for size, k, s, p, o in zip(shape[2:], kernel, stride, pad, out_hw):
        start = np.arange(o) * s - p
        end = np.minimum(start + k, size + p)
        if count_include_pad:
            sizes.append(end - start)
        else:
            sizes.append(np.minimum(end, size) - np.maximum(start, 0))
    return functools.reduce(np.multiply.outer, sizes)


class AvgPool2DBackward0(Node):
    _nd = 2

    def apply(self, g):
        x = self.saved('self')
        s, nd = self._saved, self._nd
        _, (kernel, stride, pad, _) = _pool_sizes('', s['kernel_size'], s['stride'] or None, s['padding'], nd=nd)
        shape = (x._data[None] if x._data.ndim == nd + 1 else x._data).shape
        out_hw = g._data.shape[-nd:]
        override = None if s['divisor_override'] is None else _signed(s['divisor_override'])
        divisor = _divisors(shape, kernel, stride, pad, out_hw, s['count_include_pad'], override)
        gd = g._data.reshape(shape[:2] + out_hw) / divisor.astype(g._data.dtype)
        gp, _ = _padded(np.zeros(shape, g._data.dtype), kernel, stride, pad, (1,) * nd, out_hw, 0)
        for tap in reversed(builtins.list(np.ndindex(*kernel))):   # (PyTorch's kernel goes through the outputs
            gp[(slice(None),) * 2 + tuple(slice(t, t + st * (o - 1) + 1, st)     # in order: an input receives from
                                          for t, st, o in zip(tap, stride, out_hw))] += gd  # its last tap first)
        gx = gp[(slice(None),) * 2 + tuple(slice(p, p + n) for p, n in zip(pad, shape[2:]))]
        return (_linear_in_grad(make(np.ascontiguousarray(gx).reshape(x._data.shape)),
                                AvgPool2DBackwardBackward0 if nd == 2 else AvgPool3DBackwardBackward0,
                                (g, x), lambda gg: _avg_pool(nd, gg, s['kernel_size'], s['stride'] or None,
                                                             s['padding'], s['ceil_mode'], s['count_include_pad'],
                                                             override),
                                {k: v for k, v in s.items() if k != 'self'}),)


class AvgPool3DBackward0(AvgPool2DBackward0):
    _nd = 3


class AvgPool3DBackwardBackward0(_LinearInGrad):
    pass


def _check_dims_1d(name, input):
    if input._data.ndim not in (2, 3):
        raise RuntimeError("Expected 2 to 3 dimensions, but got %d-dimensional tensor for argument #1 'self' (while "
                           "checking arguments for %s)" % (input._data.ndim, name))


def _one(name, arg, value):
    value = (value,) if isinstance(value, int) else tuple(value)
    if len(value) != 1:
        raise RuntimeError("%s() argument '%s' should contain one int (got %d)" % (name, arg, len(value)))
    return value[0]


def max_pool1d_with_indices(input, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False):
    """max_pool1d's values and indices: a 2-d max pool of input.unsqueeze(-2), squeezed back, as in PyTorch."""
    stride = kernel_size if stride is None or stride == () or stride == [] else stride
    _check_dims_1d('max_pool1d', input)
    k, s, p, d = (_one('max_pool1d', name, v) for name, v in (('kernel_size', kernel_size), ('stride', stride),
                                                              ('padding', padding), ('dilation', dilation)))
    out, indices = max_pool2d_with_indices(input.unsqueeze(-2), (1, k), (1, s), (0, p), (1, d), ceil_mode)
    return out.squeeze(-2), indices.squeeze(-2)


def max_pool1d(input, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False, return_indices=False):
    """The largest element of each window along the last dim."""
    kernel_size, stride, padding, dilation = map(_read_ints, (kernel_size, stride, padding, dilation))
    _pool_input('max_pool1d_with_indices' if return_indices else 'max_pool1d', input, kernel_size, stride, padding,
                dilation)
    if return_indices:
        return max_pool1d_with_indices(input, kernel_size, stride, padding, dilation, ceil_mode)
    shape = input._data.shape
    if not (input._data.ndim == 2 and all(shape) or input._data.ndim == 3 and all(shape[1:])):
        raise RuntimeError('max_pool1d: Expected 2D or 3D (batch mode) tensor with optional 0 dim batch size for '
                           'input, but got:' + _sizes(shape))
    k, s, p, d = _check_max_pool1d(kernel_size, stride, padding, dilation)
    size = _output_size(shape[-1], k, p, s, d, ceil_mode)
    if size <= 0:
        raise RuntimeError('max_pool1d() Invalid computed output size: %d' % size)
    if input._data.dtype.kind != 'f':
        raise NotImplementedError('"max_pool1d_impl" not implemented for \'%s\'' % input.dtype.legacy)
    if ag.grad_enabled and input._requires_grad:
        return max_pool1d_with_indices(input, kernel_size, stride, padding, dilation, ceil_mode)[0]
    with ag.no_grad():
        return max_pool2d_with_indices(input.unsqueeze(-2), (1, k), (1, s), (0, p), (1, d), ceil_mode)[0].squeeze(-2)


def _check_max_pool1d(kernel_size, stride, padding, dilation):
    """PyTorch's check_max_pool1d: (kernel, stride, padding, dilation) as ints."""
    sizes = [(value,) if isinstance(value, int) else tuple(value)
             for value in (kernel_size, () if stride is None else stride, padding, dilation)]
    for (name, what), value in zip((('kernel_size', 'an int, list of ints or tuple of ints'),
                                    ('stride', 'None, an int, list of ints, or tuple of ints'),
                                    ('padding', 'an int, list of ints, or tuple of ints'),
                                    ('dilation', 'an int, list of ints or tuple of ints')), sizes):
        if len(value) != 1 and not (name == 'stride' and not value):
            raise RuntimeError('max_pool1d() %s must be %s of size 1 but got size %d' % (name, what, len(value)))
    k, s, p, d = (v[0] if v else sizes[0][0] for v in sizes)
    for name, value, ok, text in (('kernel_size', k, k > 0, 'be greater than zero'),
                                  ('stride', s, s > 0, 'be greater than zero'),
                                  ('padding', p, p >= 0, 'be non-negative')):
        if not ok:
            raise RuntimeError('max_pool1d() %s must %s, but got %d' % (name, text, value))
    if p > k // 2:
        raise RuntimeError('max_pool1d() padding should be at most half of kernel size, but got padding=%d and '
                           'kernel_size=%d' % (p, k))
    if d <= 0:
        raise RuntimeError('max_pool1d() dilation must be greater than zero, but got %d' % d)
    return k, s, p, d


def avg_pool1d(input, kernel_size, stride=None, padding=0, ceil_mode=False, count_include_pad=True):
    """The mean of each window along the last dim: a 2-d average pool of input.unsqueeze(-2), as in PyTorch."""
    kernel_size, stride, padding = map(_read_ints, (kernel_size, stride, padding))
    _pool_input('avg_pool1d', input, kernel_size, stride, padding)
    stride = kernel_size if stride is None or stride == () or stride == [] else stride
    _check_dims_1d('avg_pool1d', input)
    k, s, p = (_one('avg_pool1d', name, v) for name, v in (('kernel_size', kernel_size), ('stride', stride),
                                                           ('padding', padding)))
    return avg_pool2d(input.unsqueeze(-2), (1, k), (1, s), (0, p), ceil_mode, count_include_pad).squeeze(-2)


# ================================================================================================ adaptive pooling

def _adaptive_output_size(name, input, output_size, n):
    """output_size as an int or a tuple of ints, after the TypeErrors of PyTorch's parser for an `IntArrayRef[n]`
    (a float, a bool); for n = 2, F's _list_with_default first fills in a None from the input's sizes (len() of
    anything but an int: "object of type 'float' has no len()"); so too for n = 3, reading input.size() first."""
    if n > 1 and not isinstance(input, Tensor):
        raise AttributeError("'%s' object has no attribute 'size'" % type(input).__name__)
    if n > 1 and not isinstance(output_size, int):
        k = len(output_size)
        if input.dim() <= k:
            raise ValueError('Input dimension should be at least %d' % (k + 1))
        output_size = [d if v is None else v for v, d in zip(output_size, input.shape[-k:])]
    if type(output_size) is int:
        return output_size
    if type(output_size) in (tuple, list) and all(type(e) is int for e in output_size):
        return tuple(output_size)
    _argparse.signature_parser('%s(Tensor input, IntArrayRef[%d] output_size)' % (name, n)).check(
        (input, output_size), {})
    if isinstance(output_size, (tuple, list)):
        return tuple(map(operator.index, output_size))
    return operator.index(output_size)


def adaptive_avg_pool1d(input, output_size):
    """The mean of each of output_size windows tiling the last dim: a 2-d adaptive pool of input.unsqueeze(-2),
    squeezed back, as PyTorch computes it."""
    output_size = _adaptive_output_size('adaptive_avg_pool1d', input, output_size, 1)
    sizes = (output_size,) if isinstance(output_size, int) else tuple(output_size)
    if len(sizes) != 1:
        raise RuntimeError("adaptive_avg_pool1d() argument 'output_size' should contain one int (got %d)"
                           % len(sizes))
    if input.dim() not in (2, 3):
        raise RuntimeError("Expected 2 to 3 dimensions, but got %d-dimensional tensor for argument #1 'self' (while "
                           "checking arguments for adaptive_avg_pool1d)" % input.dim())
    return adaptive_avg_pool2d(input.unsqueeze(-2), (1,) + sizes).squeeze(-2)


def adaptive_avg_pool2d(input, output_size):
    """The mean of each of oh x ow windows that tile the last two dims (window i spans rows i * H // oh up to
    ceil((i + 1) * H / oh)); None keeps that dim's size. A 1 x 1 output is the mean over the last two dims, as
    PyTorch computes it (MeanBackward1); otherwise each window is summed in order from 0, then / kh / kw."""
    return _adaptive_avg_pool(2, input, output_size)


def adaptive_avg_pool3d(input, output_size):
    """adaptive_avg_pool2d over the last three dims (od x oh x ow windows)."""
    return _adaptive_avg_pool(3, input, output_size)


def _adaptive_avg_pool(nd, input, output_size):
    name = 'adaptive_avg_pool%dd' % nd
    output_size = _adaptive_output_size(name, input, output_size, nd)
    sizes = output_size if isinstance(output_size, tuple) else (output_size,) * nd
    if len(sizes) != nd:
        raise RuntimeError('%s: output_size must be %d' % (name, nd))
    if nd < 3 and any(s is not None and s < 0 for s in sizes):      # (the 1-d pool is the 2-d one over (1, L))
        raise RuntimeError('adaptive_avg_pool2d: elements of output_size must be greater than or equal to 0 but '
                           'received {%s, %s}' % ((1,) * (2 - nd) + tuple(sizes)))
    if nd == 3 and any(s is not None and s < 0 for s in sizes):
        raise RuntimeError('adaptive_avg_pool3d: elements of output_size must be greater than or equal to 0 but '
                           'received {%s, %s,%s}' % sizes)
    means = tuple(range(-1, -nd - 1, -1))
    if sizes == (1,) * nd:         # (PyTorch's shortcut comes before the dims are checked: any input takes it)
        return input.mean(means, keepdim=True)
    shape = input._data.shape
    if len(shape) not in (nd + 1, nd + 2):
        raise RuntimeError('%s(): Expected %dD or %dD tensor, but got %s' % (name, nd + 1, nd + 2, _sizes(shape)))
    out_size = tuple(n if s is None else s for s, n in zip(sizes, shape[-nd:]))
    if out_size == (1,) * nd:
        return input.mean(means, keepdim=True)
    if nd == 3 and 0 in shape[len(shape) - 4:]:
        raise RuntimeError('adaptive_avg_pool3d(): Expected input to have non-zero size for non-batch dimensions, but '
                           'input has sizes %s with dimension %d being empty'
                           % (_sizes(shape), shape.index(0, len(shape) - 4)))
    x = input._data
    if x.dtype.kind != 'f':
        raise NotImplementedError('"%s" not implemented for \'%s\'' % (name if nd == 2 else name + '_cpu',
                                                                        input.dtype.legacy))
    out = np.empty(x.shape[:-nd] + out_size, x.dtype)
    for at, spans in _adaptive_windows(shape[-nd:], out_size):
        total = np.zeros(x.shape[:-nd], x.dtype)
        for tap in itertools.product(*spans):
            total = total + x[(Ellipsis,) + tap]
        for span in spans:
            total = total / x.dtype.type(len(span))
        out[(Ellipsis,) + at] = total
    return _attach(make(out), AdaptiveAvgPool2DBackward0 if nd == 2 else AdaptiveAvgPool3DBackward0, (input,),
                   {'self': SavedTensor(input)})


def _adaptive_windows(size, out_size):
    """(position, spans) of each output position: per dim, the input rows (columns...) its window covers."""
    spans = [[range(k * n // m, -(-(k + 1) * n // m)) for k in range(m)] for n, m in zip(size, out_size)]
    return [(at, tuple(spans[d][i] for d, i in enumerate(at))) for at in itertools.product(*map(range, out_size))]


class AdaptiveAvgPool2DBackward0(Node):
    _nd = 2

    def apply(self, g):
        x = self.saved('self')
        gd, nd = g._data, self._nd
        for i in range(1, gd.ndim):             # (an empty output, as area interpolation of one row by 0.5 makes)
            if not gd.shape[i]:
                raise RuntimeError('adaptive_avg_pool%dd_backward(): Expected grad_output to have non-zero size for '
                                   'non-batch dimensions, but grad_output has sizes %s with dimension %d being '
                                   'empty' % (nd, _sizes(gd.shape), i))
        out = np.zeros(x._data.shape, gd.dtype)
        for at, spans in _adaptive_windows(x._data.shape[-nd:], gd.shape[-nd:]):
            share = gd[(Ellipsis,) + at]
            for span in spans:
                share = share / gd.dtype.type(len(span))
            out[(Ellipsis,) + tuple(slice(span.start, span.stop) for span in spans)] += share[(...,) + (None,) * nd]
        return (_linear_in_grad(make(out), AdaptiveAvgPool2DBackwardBackward0 if nd == 2 else
                                AdaptiveAvgPool3DBackwardBackward0, (g, x),
                                lambda gg: _adaptive_avg_pool(nd, gg, gd.shape[-nd:]),
                                {'grad_output_sym_argsize_minus_%d' % (d + 1): gd.shape[-d - 1] for d in range(nd)}),)


class AdaptiveAvgPool3DBackward0(AdaptiveAvgPool2DBackward0):
    _nd = 3


class AdaptiveAvgPool3DBackwardBackward0(_LinearInGrad):
    pass
