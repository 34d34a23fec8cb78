"""The op table, part 14: F.pad's non-constant modes, as PyTorch 2.13 runs them.

reflect and replicate are the reflection_pad{1,2,3}d / replication_pad{1,2,3}d ops: each output reads one input
element (a numpy gather), their backward adds each output's gradient back into the element it read, outputs in
order (ReflectionPad1DBackward0, ...), and that backward's own backward pads again (...BackwardBackward0), so
gradients of gradients work. circular is PyTorch's _pad_circular: composite, slices of a new tensor copied in
place from slices of the input and of itself, so it records CopySlices over SliceBackward0 nodes.
"""
import numpy as np

from ._autograd import Node, SavedTensor
from ._ops import _attach, _in_suggested_format, _signed, _slice, _sizes, _zeros_like
from ._ops_conv import constant_pad
from ._tensor import make

_MODES = {'constant', 'reflect', 'replicate', 'circular'}
_NAMES = {'reflect': 'Reflection', 'replicate': 'Replication'}


def pad(input, pad, mode='constant', value=None):
    """torch._C._nn.pad: numbers around the last dims, pad = (before, after) for the last dim, then the one before
    it, ...; constant mode pads with `value`, the others pad 1, 2 or 3 dims of a (batched or not) input."""
    if mode not in _MODES:
        raise NotImplementedError('Unrecognised padding mode %s' % mode)
    pad = tuple(pad)
    if len(pad) % 2:
        raise RuntimeError('Padding length must be divisible by 2')
    ndim = input.dim()
    if len(pad) > 2 * ndim:
        raise RuntimeError('Padding length should be less than or equal to two times the input dimension but got '
                           'padding length %d and input of dimension %d' % (len(pad), ndim))
    if mode == 'constant':
        return constant_pad(input, pad, 0 if value is None else value)
    if value is not None and value != 0:
        raise RuntimeError('Padding mode "%s" doesn\'t take in value argument' % mode)
    n = len(pad) // 2
    if n not in (1, 2, 3) or ndim not in (n + 1, n + 2):
        raise NotImplementedError(
            'Padding size %d is not supported for %dD input tensor.\nSupported combinations for non-constant '
            'padding:\n  - 2D or 3D input: padding size = 2 (pads last dimension)\n  - 3D or 4D input: padding size '
            '= 4 (pads last 2 dimensions)\n  - 4D or 5D input: padding size = 6 (pads last 3 dimensions)'
            % (len(pad), ndim))
    if mode == 'circular':
        return _circular(input, pad)
    return _pad_nd(mode, input, pad)


def _sources(mode, shape, pad):
    """For each padded dim (first to last), the input index each output position reads."""
    n = len(pad) // 2
    taps = []
    for i, size in enumerate(shape[-n:]):
        before, after = pad[2 * (n - 1 - i)], pad[2 * (n - 1 - i) + 1]
        o = np.arange(-before, size + after, dtype=np.int64)
        if mode == 'reflect':
            o = np.abs(o)
            taps.append(np.where(o >= size, 2 * (size - 1) - o, o))
        else:
            taps.append(np.clip(o, 0, size - 1))
    return taps


def _check(mode, shape, pad):
    """reflection_pad / replication_pad's checks of the input and the padding, in their order and words."""
    n = len(pad) // 2
    if not all(shape[1 if len(shape) == n + 2 else 0:]):
        raise RuntimeError('Expected %dD or %dD (batch mode) tensor with possibly 0 batch size and other non-zero '
                           'dimensions for input, but got: %s' % (n + 1, n + 2, _sizes(shape)))
    if mode == 'reflect':
        for i in range(n):
            before, after = pad[2 * i], pad[2 * i + 1]
            dim = len(shape) - 1 - i
            if before >= shape[dim] or after >= shape[dim]:
                raise RuntimeError('Argument #%d: Padding size should be less than the corresponding input dimension, '
                                   'but got: padding (%d, %d) at dimension %d of input %s'
                                   % (4 + 2 * i, before, after, dim, _sizes(shape)))
    out = [shape[len(shape) - 1 - i] + pad[2 * i] + pad[2 * i + 1] for i in range(n)]
    if n == 1 and out[0] < 1:
        raise RuntimeError('input (W: %d) is too small. Calculated output W: %d' % (shape[-1], out[0]))
    if n == 2 and out[0] < 1 and out[1] < 1:
        raise RuntimeError('input (H: %d, W: %d%s) is too small. Calculated output H: %d W: %d'
                           % (shape[-2], shape[-1], ' ' if mode == 'replicate' else '', out[1], out[0]))
    full = list(shape[:-n]) + out[::-1]
    for s in full:
        if s < 0:
            raise RuntimeError('Trying to create tensor with negative dimension %d: %s' % (s, _sizes(full)))


def _pad_nd(mode, input, pad):
    """reflection_pad{n}d / replication_pad{n}d: each output the input element its index reflects or clamps to."""
    shape = input._data.shape
    _check(mode, shape, pad)
    # (numpy's fancy indexing leaves the result in a layout of its own, not the kernel's)
    out = _in_suggested_format(input._data[(Ellipsis,) + np.ix_(*_sources(mode, shape, pad))], input._data)
    node = _PAD_NODES['%sPad%dDBackward0' % (_NAMES[mode], len(pad) // 2)]
    return _attach(make(out), node, (input,), {'padding': _as_saved(pad), 'self': SavedTensor(input)})


def _pad_backward(mode, grad, shape, pad, self=None):
    """reflection_pad{n}d_backward / replication_...: each output's gradient added into the input element it read,
    outputs in order (the kernel's order)."""
    n = len(pad) // 2
    spatial = shape[-n:]
    flat = np.ravel_multi_index(np.ix_(*_sources(mode, shape, pad)), spatial).reshape(-1)
    g = grad._data.reshape(-1, flat.size)
    gx = np.zeros((g.shape[0], int(np.prod(spatial, dtype=np.int64))), g.dtype)
    np.add.at(gx, (slice(None), flat), g)
    out = make(gx.reshape(shape))
    node = _PAD_NODES['%sPad%dDBackwardBackward0' % (_NAMES[mode], n)]
    return _attach(out, node, (grad, self), {'padding': _as_saved(pad)})


def _as_saved(pad):
    """The padding as PyTorch's node keeps it (unsigned: -1 is 18446744073709551615)."""
    return tuple(p % 2 ** 64 for p in pad)


class _PadBackward(Node):
    mode = None

    def apply(self, g):
        x = self.saved('self')
        return (_pad_backward(self.mode, g, x._data.shape, tuple(map(_signed, self._saved['padding'])), x),)


class _PadBackwardBackward(Node):
    """The gradient of a pad's backward: the pad of the incoming gradient (and zero for the input)."""
    mode = None

    def apply(self, gg):
        return (_pad_nd(self.mode, gg, tuple(map(_signed, self._saved['padding']))) if self.needs(0) else None,
                _zeros_like(gg) if self.needs(1) else None)


_PAD_NODES = {}
for _mode, _name in _NAMES.items():
    for _n in (1, 2, 3):
        for _suffix, _base in (('Backward0', _PadBackward), ('BackwardBackward0', _PadBackwardBackward)):
            _node = '%sPad%dD%s' % (_name, _n, _suffix)
            _PAD_NODES[_node] = type(_node, (_base,), {'mode': _mode})


def _circular(input, pad):
    """_pad_circular: the input copied into the middle of a new tensor, then each padded dim's ends copied from
    its other end (corners written more than once), all through slices, as PyTorch does it."""
    shape = input.shape
    n = len(pad) // 2
    lead = input.dim() - n
    out_shape = list(shape)
    for i in range(n):
        d = lead + i
        after, before = pad[-(2 * i + 1)], pad[-(2 * i + 2)]
        if after > shape[d] or before > shape[d]:
            raise RuntimeError('Padding value causes wrapping around more than once.')
        out_shape[d] = shape[d] + before + after
        if out_shape[d] < 0:
            raise RuntimeError('Negative padding value is resulting in an empty dimension')
    out = input.new_empty(out_shape)
    out_slice, in_slice = out, input
    for i in range(n):
        d, before, after = input.dim() - 1 - i, pad[2 * i], pad[2 * i + 1]
        out_slice = _slice(out_slice, d, slice(max(before, 0), out_shape[d] - max(after, 0)), True)
        in_slice = _slice(in_slice, d, slice(max(-before, 0), shape[d] - max(-after, 0)), True)
    out_slice.copy_(in_slice)
    for i in range(n):
        d, before, after = input.dim() - 1 - i, pad[2 * i], pad[2 * i + 1]
        if before > 0:
            end = out_shape[d] - max(after, 0)
            _slice(out, d, slice(0, before), True).copy_(_slice(out, d, slice(end - before, end), True))
        if after > 0:
            start = max(before, 0)
            _slice(out, d, slice(out_shape[d] - after, out_shape[d]), True).copy_(
                _slice(out, d, slice(start, start + after), True))
    return out
