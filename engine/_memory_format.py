"""torch.memory_format: contiguous_format, preserve_format, channels_last and channels_last_3d, and the layouts they
name. channels_last keeps a 4-d (N, C, H, W) tensor's elements in N, H, W, C order (strides (HWC, 1, WC, C));
channels_last_3d does the same for 5-d tensors."""
import numpy as np

from ._dtypes import c_type_format, CType, c_type


@c_type('torch.memory_format')
class memory_format(metaclass=CType):
    """One of torch's memory formats, shown by its name."""
    __slots__ = ('_name',)

    def __init__(self, name):
        self._name = name

    def __repr__(self):
        return 'torch.' + self._name


memory_format.__module__ = 'torch'
memory_format.__format__ = c_type_format
contiguous_format = memory_format('contiguous_format')
preserve_format = memory_format('preserve_format')
channels_last = memory_format('channels_last')
channels_last_3d = memory_format('channels_last_3d')
_RANKS = {channels_last: 4, channels_last_3d: 5}


def check(fmt, fn):
    """PyTorch's parser: a memory_format argument must be one."""
    if fmt is not None and not isinstance(fmt, memory_format):
        raise TypeError("%s(): argument 'memory_format' must be torch.memory_format, not %s" % (fn, type(fmt).__name__))


def _order(ndim):
    """The dims of a channels-last tensor from the outermost in memory: N, then the spatial dims, then C."""
    return (0,) + tuple(range(2, ndim)) + (1,)


def laid_out(arr, fmt):
    """A copy of arr in the layout fmt names (channels_last / _3d: checked against its rank)."""
    if fmt in _RANKS:
        if arr.ndim != _RANKS[fmt]:
            raise RuntimeError('required rank %d tensor to use %s format' % (_RANKS[fmt], fmt._name))
        order = _order(arr.ndim)
        out = np.empty([arr.shape[d] for d in order], arr.dtype)      # (a copy even where arr is laid out so: a
        out[...] = arr.transpose(order)                                # size-1 C takes stride 1, as PyTorch's)
        return out.transpose(np.argsort(order))
    return np.array(arr, copy=True, order='C')


def is_laid_out(arr, fmt):
    """Whether arr is already in the layout fmt names (PyTorch's is_contiguous(memory_format=...))."""
    if fmt in _RANKS:
        if arr.ndim != _RANKS[fmt]:
            return False
        return arr.transpose(_order(arr.ndim)).flags['C_CONTIGUOUS'] or arr.size <= 1
    return arr.flags['C_CONTIGUOUS'] or arr.size <= 1
