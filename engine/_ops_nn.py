"""The op table, part 2: the ops neural networks use (reductions, softmax, losses, activations, addmm).

Same rules as `_ops.py`: numpy forward beside a backward written with tensor ops (so double backward works), node
names and saved attributes exactly as PyTorch 2.13 has them. Losses take `reduction` as PyTorch's enum
(0 none, 1 mean, 2 sum), which is what their nodes save.
"""
import builtins
import math
import operator
import warnings

import numpy as np

from . import _argparse
from . import _autograd as ag
from . import _random
from . import _reduce_order
from . import _selection
from . import _dtypes as dt
from . import _misc
from ._autograd import Node, SavedTensor
from ._ops import (_cast, _number, _add_reduce, _add_scalar, _attach, _check_broadcast, _dims, _edge, _div_scalar, _F16, _F32, _float_dtype, _half,
                   _exp, _fma32, _fma_in_k_order, _glibc_expf, _log_rounded as _log, _mkl_gemm, _mm_values,
                   _mul_scalar, _out, _recording, _RESULT, _rounded, _scalar, _scalar_sub, _sub_scalar, _sigmoid,
                   _vec_exp, _vec_log, _vec_loop, _versioned, _zeros_like, div, mm_mat1_backward, mm_mat2_backward,
                   pow as _pow, sigmoid_backward, put, _along, _given, _signed, _sizes, _not_broadcast_to,
                   masked_fill, ScatterBackward0, _not_for_bool, _Number, _iter_laid_out, _zero_ties,
                   _not_implemented, _nan_in_vectors, _in_suggested_format)
from ._tensor import Tensor, make, user_stacklevel, _wrap_dim, warn_once, parser_type
from ._factories import _fma64

_F64 = np.float64
_REDUCTIONS = {'none': 0, 'mean': 1, 'sum': 2}


def _missing(name, arg):
    """The TypeError PyTorch's argument parser gives for a missing required argument."""
    return TypeError('%s() missing 1 required positional arguments: "%s"' % (name, arg))


def _raw(dim):
    """A dim as PyTorch saves it: as given, negatives read as unsigned 64-bit (-1 -> 18446744073709551615)."""
    if dim is None:
        return None
    if isinstance(dim, (tuple, list)):
        return tuple(_raw(d) for d in dim)
    return operator.index(dim) % 2 ** 64          # (a numpy int or an int tensor: PyTorch's parser makes an int)


def _saved_dims(raw, ndim):
    """The dims a node saved (see _raw), back as sorted dims in [0, ndim)."""
    if raw is None:
        return None
    return tuple(sorted(_wrap_dim(d - 2 ** 64 if d >= 2 ** 63 else d, ndim)
                        for d in (raw if isinstance(raw, tuple) else (raw,))))


def _reduced_dims(raw, ndim):
    """_saved_dims for a reduction's backward: a 0-d input's dim 0 or -1 reduced nothing (no dim to put back)."""
    return _saved_dims(raw, ndim) if ndim else (None if raw is None else ())


def _unsq(g, dims, keepdim, raw=None):
    """A reduced gradient with its reduced dims put back (size 1), so it broadcasts against the input. With the
    dims as the node saved them (raw), one dim is put back as given (PyTorch's unsqueeze_multiple: unsqueeze(-1))."""
    if raw is not None and not keepdim and (type(raw) is not tuple or len(raw) == 1):
        d = raw[0] if type(raw) is tuple else raw
        return g.unsqueeze(_signed(d))
    if not keepdim and dims is not None:
        for d in dims:
            g = g.unsqueeze(d)
    return g


def _tuple(dim):
    return None if dim is None else tuple(dim) if isinstance(dim, (tuple, list)) else (dim,)


class _Field:
    """A read-only field of a return type (a structseq's member: assigning to it is refused)."""
    def __init__(self, i):
        self.i = i

    def __get__(self, obj, cls=None):
        return self if obj is None else tuple.__getitem__(obj, self.i)

    def __set__(self, obj, value):
        raise AttributeError('readonly attribute')


def _return_type(name, fields=('values', 'indices')):
    """A torch.return_types type: a tuple with named fields, as PyTorch's structseq (not a namedtuple: no _fields
    or _asdict; built from one sequence; n_fields), that prints as PyTorch prints it. The engine builds it from its
    fields, one argument each."""
    full = 'torch.return_types.' + name
    n = len(fields)

    def __new__(cls, *args):
        if len(args) == n and not (n == 2 and isinstance(args[1], dict)):
            return tuple.__new__(cls, args)
        if not args:
            raise TypeError("structseq() missing required argument 'sequence' (pos 1)")
        if len(args) > 2 or len(args) == 2 and not isinstance(args[1], dict) or not hasattr(args[0], '__len__'):
            raise TypeError('constructor requires a sequence')
        items = tuple(args[0])
        if len(items) != n:
            raise TypeError('%s() takes a %d-sequence (%d-sequence given)' % (full, n, len(items)))
        return tuple.__new__(cls, items)

    def __getattr__(self, attr):
        raise AttributeError("'%s' object has no attribute '%s'" % (full, attr))

    def __setattr__(self, attr, value):
        if attr in fields:
            raise AttributeError('readonly attribute')
        raise AttributeError("'%s' object has no attribute '%s'" % (full, attr))

    namespace = {'__slots__': (), '__new__': __new__, '__getattr__': __getattr__, '__setattr__': __setattr__,
                 '__module__': 'torch.return_types', '__doc__': None, '__match_args__': tuple(fields),
                 'n_fields': n, 'n_sequence_fields': n, 'n_unnamed_fields': 0,
                 '__reduce__': lambda self: (type(self), (tuple(self), {})),
                 '__repr__': lambda self: '%s(\n%s)' % (full, ',\n'.join('%s=%r' % (f, v) for f, v in zip(fields, self)))}
    namespace.update((f, _Field(i)) for i, f in enumerate(fields))
    namespace['__qualname__'] = name
    return _StructSeqType(full, (tuple,), namespace)


class _StructSeqType(type):
    """The type of a return type. Python's own messages name a type by its C name ("unsupported operand type(s)
    for -: 'Tensor' and 'torch.return_types.max'"), which PyTorch's structseqs have in full; their __name__ is the
    last part of it."""
    @property
    def __name__(cls):
        return cls.__qualname__


class return_types:
    """torch.return_types: the named tuples that reductions over a dim return."""
    max = _return_type('max')
    min = _return_type('min')
    sort = _return_type('sort')
    topk = _return_type('topk')
    median = _return_type('median')
    kthvalue = _return_type('kthvalue')
    linalg_svd = _return_type('linalg_svd', ('U', 'S', 'Vh'))


# ================================================================================================ where, max, min

_NO_VALUES = object()       # where's input and other when not given (None given is a wrong argument)


def where(condition, input=_NO_VALUES, other=_NO_VALUES):
    """torch.where(cond, x, y): x where cond, else y (numbers allowed); torch.where(cond) is cond.nonzero()."""
    if input is _NO_VALUES and other is _NO_VALUES:
        return tuple(make(i.astype(np.int64)) for i in np.nonzero(np.atleast_1d(condition._data)))
    if not (isinstance(input, (Tensor,) + _Number) and isinstance(other, (Tensor,) + _Number)):
        raise TypeError('where')        # (torch.where's argument parser says which; see _argparse)
    cond = condition._data
    if cond.dtype == np.uint8:                      # (a ByteTensor mask, as written before PyTorch had bool)
        warn_once('where received a uint8 condition tensor. This behavior is deprecated and will be removed in a '
                  'future version of PyTorch. Use a boolean condition instead.',
                  'aten/src/ATen/native/TensorCompare.cpp:621')
        cond = cond != 0
    elif cond.dtype.kind != 'b':
        raise RuntimeError('where expected condition to be a boolean tensor, but got a tensor with dtype '
                           + condition.dtype.legacy)
    shape = condition._data.shape                   # (PyTorch's broadcast check, operand by operand, and its error)
    for t in (input, other):
        if isinstance(t, Tensor):
            _check_broadcast(shape, t._data.shape)
            shape = np.broadcast_shapes(shape, t._data.shape)
    d = dt.result_type(*(_scalar(v) for v in (input, other)))
    if d is not dt.float16:                 # (a number must fit the result's dtype; PyTorch lets a half's overflow)
        for v in (input, other):
            if not isinstance(v, Tensor):
                dt.check_scalar(_scalar(v), d)
    x = input._data if isinstance(input, Tensor) else _scalar(input)
    y = other._data if isinstance(other, Tensor) else _scalar(other)
    r = np.where(cond, x, y)
    for v in (condition._data, x, y):
        if type(v) is np.ndarray and not v.flags.c_contiguous:
            r = _iter_laid_out(r, condition._data, x, y)        # (not all contiguous: PyTorch's layout, not C)
            break
    out = _out(r, d)
    return _attach(out, WhereBackward0, (input, other), {'condition': SavedTensor(condition)})


class WhereBackward0(Node):
    def apply(self, g):
        c = self.saved('condition')
        gb = where(c, 0., g) if self.needs(1) else None     # (other's first: see MulBackward0)
        return (where(c, g, 0.) if self.needs(0) else None), gb


def _evenly_distribute(g, x, value):
    """Gradient of a full max/min: split equally among the elements equal to the result (NaNs count)."""
    xd, v = x._data, value._data
    mask = make((xd == v) | (np.isnan(xd) & np.isnan(v)))
    return _versioned(masked_fill(_zeros_like(x), mask, g / builtins.int(mask._data.sum())), 1)  # (masked_fill_)


def _select_backward(g, dim, indices, sizes, keepdim):
    """Gradient of a max/min over `dim`: g lands at the selected indices, zero elsewhere."""
    g = _unsq(g, (dim,), keepdim) if sizes else g
    idx = indices._data if keepdim or not sizes else np.expand_dims(indices._data, dim)
    flat = _scatter_positions(idx, dim, sizes)
    out = put(g, flat, sizes, ScatterBackward0, {'dim': dim, 'index': SavedTensor(make(idx))})  # (into zeros)
    out._data.reshape(-1)[flat.reshape(-1)] = g._data.reshape(-1)     # (copied there, as scatter: -0. stays -0.)
    return _versioned(out, 2)


def _scatter_positions(idx, dim, sizes):
    """The flat positions a value-selecting op's gradient is scattered to. A 0-d input's too: PyTorch's formula
    scatters g into a 0-d zero tensor all the same (a ScatterBackward0 under create_graph)."""
    return _along(idx.astype(np.intp), dim, sizes) if sizes else np.zeros((), np.intp)


def _extremum(name, np_fn, arg_fn, full_node, dim_node, pair):
    def op(a, dim=None, keepdim=None):
        if isinstance(dim, Tensor):
            if keepdim is not None:     # (max(other, 1): no signature has both; the parser says which argument)
                raise TypeError(name)
            return pair(a, dim)
        if keepdim is None:
            keepdim = False
        if dim is None:
            if a._data.size == 0:
                raise RuntimeError('%s(): Expected reduction dim to be specified for input.numel() == 0. Specify the '
                                   'reduction dim with the \'dim\' argument.' % name)
            return _attach(make(np.asarray(np_fn(a._data))), full_node, (a,),
                           {'result': _RESULT, 'self': SavedTensor(a)})
        if isinstance(dim, builtins.float):
            raise TypeError('%s() received an invalid combination of arguments - got (Tensor, float), but expected '
                            'one of:\n * (Tensor input, *, Tensor out = None)\n * (Tensor input, Tensor other, *, '
                            'Tensor out = None)\n * (Tensor input, int dim, bool keepdim = False, *, tuple of Tensors '
                            'out = None)\n' % name)
        d = _wrap_dim(dim, a._data.ndim)
        x = a._data if a._data.ndim else a._data.reshape(1)
        if not x.shape[d]:
            raise IndexError('%s(): Expected reduction dim %d to have non-zero size.' % (name, d))
        idx = np.expand_dims(arg_fn(x, axis=d).astype(np.int64), d)
        values = np.take_along_axis(x, idx, d)
        if not keepdim:
            values, idx = np.squeeze(values, d), np.squeeze(idx, d)
        indices = make(idx.reshape(np.shape(idx) if a._data.ndim else ()))
        out = make(values.reshape(indices._data.shape))
        _attach(out, dim_node, (a,), {'dim': _raw(dim), 'indices': SavedTensor(indices), 'keepdim': keepdim,
                                      'self_sym_sizes': a._data.shape})
        return getattr(return_types, name)(out, indices)
    op.__name__ = op.__qualname__ = name
    op.__doc__ = 'torch.%s: over everything (a tensor), over a dim ((values, indices)), or against a tensor.' % name
    return op


class MaxBackward1(Node):
    def apply(self, g):
        return (_evenly_distribute(g, self.saved('self'), self.saved('result')),)


class MinBackward1(MaxBackward1):
    pass


class MaxBackward0(Node):
    def apply(self, g):
        s = self._saved
        sizes = s['self_sym_sizes']
        d = _saved_dims(s['dim'], len(sizes))[0]
        return (_select_backward(g, d, self.saved('indices'), sizes, s['keepdim']),)


class MinBackward0(MaxBackward0):
    pass


def _elementwise_extremum(np_fn, node_cls):
    def op(a, other):
        if not isinstance(other, Tensor):
            raise TypeError('%s(): argument \'other\' (position 2) must be Tensor, not %s'
                            % (np_fn.__name__, parser_type(other)))
        d = dt.result_type(a, other)
        if a._data.shape != other._data.shape:
            _check_broadcast(a._data.shape, other._data.shape)
        x, y = _cast(a._data, d.np), _cast(other._data, d.np)
        r = np_fn(x, y)
        if r.dtype.kind == 'f' and r.size:
            r = _zero_ties(r, x, y)
        r = _iter_laid_out(r, x, y)                          # (mixed layouts: PyTorch's, not numpy's)
        out = _out(r, d)
        return _attach(out, node_cls, (a, other), {'other': SavedTensor(other), 'self': SavedTensor(a)})
    op.__name__ = np_fn.__name__
    op.__doc__ = 'Elementwise %s of two tensors (NaN wins, as in PyTorch).' % np_fn.__name__
    return op


def _extremum_grad(g, a, b, lose):
    """PyTorch's formula for one input of maximum / minimum: where(self == other, grad / 2, grad), then
    masked_fill_ with 0 where the input lost (`lose`): under create_graph a MaskedFillBackward0 over a where."""
    return where(make(a == b), _div_scalar(g, 2), g).masked_fill_(make(lose), 0)


class MaximumBackward0(Node):
    def apply(self, g):
        a, b = self.saved('self')._data, self.saved('other')._data
        gb = _extremum_grad(g, a, b, a > b) if self.needs(1) else None     # (other's first: see MulBackward0)
        return (_extremum_grad(g, a, b, a < b) if self.needs(0) else None), gb


class MinimumBackward0(Node):
    def apply(self, g):
        a, b = self.saved('self')._data, self.saved('other')._data
        gb = _extremum_grad(g, a, b, a < b) if self.needs(1) else None
        return (_extremum_grad(g, a, b, a > b) if self.needs(0) else None), gb


maximum = _elementwise_extremum(np.maximum, MaximumBackward0)
minimum = _elementwise_extremum(np.minimum, MinimumBackward0)
max = _extremum('max', np.max, np.argmax, MaxBackward1, MaxBackward0, maximum)
min = _extremum('min', np.min, np.argmin, MinBackward1, MinBackward0, minimum)


# ================================================================================================ sort, topk, median

def _sort_indices(x, d, descending):
    """Where each element of x sorted along dim d comes from: a stable sort with NaN the largest, as PyTorch's."""
    if x.dtype.kind == 'b':
        x = x.view(np.uint8)
    if not descending:
        return np.argsort(x, axis=d, kind='stable')           # (numpy's sort puts NaN last too)
    if x.dtype.kind != 'f':
        return np.argsort(~x, axis=d, kind='stable')          # ~x reverses the order of integers, without overflow
    return np.lexsort((-x, ~np.isnan(x)), axis=d)             # NaN first, then the largest; stable


def _picked(a, dim, order, cls, name, keep=True, **saved):
    """The named tuple (values, indices) of the elements of `a` at positions `order` (numpy indices of the 1-d
    form of `a` when it is 0-d) along dim, recorded as a `cls` node that scatters the gradient back."""
    d = _wrap_dim(dim, a._data.ndim)
    x = a._data if a._data.ndim else a._data.reshape(1)
    values = np.take_along_axis(x, order, d)
    if not keep:
        values, order = np.squeeze(values, d), np.squeeze(order, d)
    shape = values.shape if a._data.ndim else ()
    indices = make(order.astype(np.int64).reshape(shape))
    out = make(values.reshape(shape))
    _attach(out, cls, (a,), dict(saved, dim=_raw(dim), indices=SavedTensor(indices), self_sym_sizes=a._data.shape))
    return getattr(return_types, name)(out, indices)


def sort(a, dim=-1, descending=False, *, stable=None):
    """(values, indices) sorted along dim (SortBackward1 when `stable` is given, as PyTorch's overloads)."""
    x = a._data if a._data.ndim else a._data.reshape(1)
    d = _wrap_dim(dim, a._data.ndim)
    order = _sort_indices(x, d, descending)
    # (unless stable: std::sort, but fbgemm's radix sort (stable) for 1-d int64 ascending of 32768 or more, and no
    # sort at all along a dim of stride 0)
    if not stable and x.strides[d] and not (x.ndim == 1 and not descending and x.dtype == np.int64
                                            and x.size >= 32768):
        order = _selection.sort_order(x, d, descending, order)
    res = _picked(a, dim, order, SortBackward0 if stable is None else SortBackward1, 'sort')
    from ._ops import _preserved_empty, _row_major_sized_one
    if x.ndim > 1 and not (x.flags.c_contiguous and _row_major_sized_one(x)):  # (laid out as empty_like(input))
        for t in res:
            laid = _preserved_empty(x, t._data.dtype)
            laid[...] = t._data
            t._data = laid
    return res


def argsort(a, dim=-1, descending=False, stable=False):
    return sort(a, dim, descending, stable=stable).indices


def msort(a):
    return sort(a, 0).values


def topk(a, k, dim=-1, largest=True, sorted=True):
    """The k largest (smallest) elements along dim and where they are, largest (smallest) first."""
    d = _wrap_dim(dim, a._data.ndim)
    x = a._data if a._data.ndim else a._data.reshape(1)
    if not 0 <= k <= x.shape[d]:         # (checked before the dtype)
        raise RuntimeError('selected index k out of range')
    _not_for_bool(a, 'topk', RuntimeError, '%s does not support bool dtypes on CPU')
    order = _sort_indices(x, d, largest)
    if a._data.ndim:
        order = _selection.topk_order(x, d, k, largest, sorted, order)
    return _picked(a, dim, order, TopkBackward0, 'topk')


def _kth(a, dim, k, keepdim, cls, name, nan_first):
    """The k-th smallest element along dim (0-based) and its index; with nan_first a NaN wins (median)."""
    d = _wrap_dim(dim, a._data.ndim)
    x = a._data if a._data.ndim else a._data.reshape(1)
    if not x.shape[d]:
        raise IndexError('%s(): Expected reduction dim %d to have non-zero size.' % (name, d))
    if not 0 <= k < x.shape[d]:
        raise RuntimeError('kthvalue(): selected number k out of range for dimension %d' % d)
    if a._data.ndim or name != 'kthvalue':     # (a 0-d tensor's kthvalue is returned before the kernel's dtype check)
        _not_for_bool(a, 'kthvalue_cpu' if name == 'kthvalue' else 'median_out')
    order = _sort_indices(x, d, False)
    at = np.take(order, [k], axis=d)
    if name == 'kthvalue':
        at = _selection.kthvalue_order(x, d, k, order, at)   # (which of equal values: its quickselect's)
    if nan_first and x.dtype.kind == 'f':
        nan = np.isnan(x)
        at = np.where(nan.any(axis=d, keepdims=True), np.argmax(nan, axis=d, keepdims=True), at)
    return _picked(a, dim, at, cls, name, keepdim, keepdim=keepdim)


def _nan_of(dtype):
    """The median of nothing, NaN, as a value of dtype: as PyTorch's (x86) cast makes it, the lowest int32 or int64
    (8 and 16 bits: the low bits of int32's, 0), True for bool."""
    if dtype.kind in 'fb':
        return np.array(np.nan if dtype.kind == 'f' else True, dtype)
    return np.array(np.iinfo(dtype).min if dtype.kind == 'i' and dtype.itemsize >= 4 else 0, dtype)


def median(a, dim=None, keepdim=False):
    """The lower median of all elements (a tensor), or (values, indices) along dim."""
    if dim is not None:
        x = a._data if a._data.ndim else a._data.reshape(1)
        n = x.shape[_wrap_dim(dim, a._data.ndim)]
        return _kth(a, dim, (n - 1) // 2, keepdim, MedianBackward1, 'median', True)
    x = a._data.reshape(-1)
    if not x.size:
        out = _nan_of(x.dtype)
    elif x.dtype.kind == 'f' and np.isnan(x).any():
        out = np.array(np.nan, x.dtype)
    else:
        _not_for_bool(a, 'median_cpu')
        out = np.sort(x)[(x.size - 1) // 2]
    return _attach(make(np.asarray(out)), MedianBackward0, (a,), {'result': _RESULT, 'self': SavedTensor(a)})


def kthvalue(a, k, dim=-1, keepdim=False):
    """The k-th smallest element along dim (k from 1) and its index."""
    return _kth(a, dim, operator.index(k) - 1, keepdim, KthvalueBackward0, 'kthvalue', False)


class SortBackward0(Node):
    """The gradient of values picked by index along a dim: scattered back to where they came from."""
    def apply(self, g):
        s = self._saved
        sizes = s['self_sym_sizes']
        d = _saved_dims(s['dim'], len(sizes))[0]
        idx = self.saved('indices')._data
        if sizes and not s.get('keepdim', True):
            g, idx = g.unsqueeze(d), np.expand_dims(idx, d)
        return (_versioned(put(g, _scatter_positions(idx, d, sizes), sizes, ScatterBackward0,   # (scattered:
                                    {'dim': s['dim'], 'index': SavedTensor(make(idx))}, unique=True), 2),)  # -0. stays)


class SortBackward1(SortBackward0):
    pass


class TopkBackward0(SortBackward0):
    pass


class MedianBackward1(SortBackward0):
    pass


class KthvalueBackward0(SortBackward0):
    pass


class MedianBackward0(MaxBackward1):
    pass


def cross(a, other, dim=None):
    """torch.cross: linalg_cross along dim, or (deprecated) along the first dim of size 3 of a."""
    if dim is None:
        warn_once('Using torch.cross without specifying the dim arg is deprecated.\nPlease either pass the dim '
                  'explicitly or simply use torch.linalg.cross.\nThe default value of dim will change to agree with '
                  'that of linalg.cross in a future release.', 'aten/src/ATen/native/Cross.cpp:63')
        if 3 not in a.shape:
            raise RuntimeError('no dimension of size 3 in input')
        dim = a.shape.index(3)
    return linalg_cross(a, other, dim=dim)


def linalg_cross(a, other, *, dim=-1):
    """The cross product of 3-vectors along dim (LinalgCrossBackward0)."""
    x, y = a._data, other._data
    if x.ndim != y.ndim:
        raise RuntimeError('linalg.cross: inputs must have the same number of dimensions.')
    d = _wrap_dim(dim, x.ndim, scalar=False)          # (PyTorch reads input.size(dim) first)
    if x.shape[d] != 3 or y.shape[d] != 3:
        raise RuntimeError('linalg.cross: inputs dimension %d must have length 3. Got %d and %d'
                           % (dim, x.shape[d], y.shape[d]))
    _check_broadcast(x.shape, y.shape)
    if x.dtype == bool:                         # (the kernel's, which reads other as of a's dtype)
        raise NotImplementedError('"cross" not implemented for \'Bool\'')
    if x.dtype != y.dtype:
        raise RuntimeError('expected scalar type %s but found %s' % (a.dtype.legacy, other.dtype.legacy))
    return _attach(make(_cross_values(x, y, d)), LinalgCrossBackward0, (a, other),
                   {'dim': _raw(dim), 'other': SavedTensor(other) if _edge(a) else None,
                    'self': SavedTensor(a) if _edge(other) else None})


def _cross_values(x, y, d):
    """x × y along dim d as PyTorch's kernel computes floats: each component one fused multiply-add less a rounded
    product, fma(x1, y2, -(x2 * y1)) and so on (a float32 cross product of decimals is not exactly 0 where the
    products cancel)."""
    if x.dtype not in (_F32, np.float64):
        return np.cross(x, y, axis=d)
    x, y = np.broadcast_arrays(x, y)
    a, b = [np.take(x, i, axis=d) for i in range(3)], [np.take(y, i, axis=d) for i in range(3)]
    fma = _random.fma32 if x.dtype == _F32 else _fma64
    return np.stack([np.asarray(fma(a[j], b[k], -(a[k] * b[j])), x.dtype) for j, k in ((1, 2), (2, 0), (0, 1))],
                    axis=d)


class LinalgCrossBackward0(Node):
    def apply(self, g):
        dim = self._saved['dim']
        dim = dim - 2 ** 64 if dim >= 2 ** 63 else dim
        gb = linalg_cross(g, self.saved('self'), dim=dim) if self.needs(1) else None    # (other's first: see
        return (linalg_cross(self.saved('other'), g, dim=dim) if self.needs(0) else None), gb   # MulBackward0)


def linalg_svd(a, full_matrices=True, *, driver=None):
    """U, S, Vh with a = U diag(S) Vh, by LAPACK's gesdd as PyTorch's CPU kernel (signs as it gives them)."""
    if a._data.ndim < 2:
        raise RuntimeError('linalg.svd: The input tensor A must have at least 2 dimensions.')
    if not a.is_floating_point():
        raise RuntimeError('linalg.svd: Expected a floating point or complex tensor as input. Got ' + a.dtype.legacy)
    from ._ops_linalg import _check_lu_dtype_as
    _check_lu_dtype_as('linalg_svd_cpu', a)
    u, s, vh = np.linalg.svd(a._data, full_matrices=full_matrices)
    out = [make(x.astype(a._data.dtype, copy=False)) for x in (u, s, vh)]
    if ag.grad_enabled and a._requires_grad:
        # (every name PyTorch saves given at record, the outputs filled in after: record describes the class then)
        node = ag.record(None, LinalgSvdBackward0, (a,), {'S': None, 'S_sym_argsize_minus_1': s.shape[-1], 'U': None,
                                                          'Vh': None, 'full_matrices': full_matrices})
        node.num_outputs = 3
        for i, t in enumerate(out):
            t._grad_fn, t._requires_grad, t._output_nr = node, True, i
        node._saved.update((k, SavedTensor(t, is_output=True)) for k, t in zip(('U', 'S', 'Vh'), out))
        ag.pack_outputs(node._saved)
        ag.fw_outputs(node, (a,), out)
    return return_types.linalg_svd(*out)


class LinalgSvdBackward0(Node):
    def apply(self, gU, gS, gVh):
        U, S, Vh = self.saved('U'), self.saved('S'), self.saved('Vh')
        k = S.shape[-1]
        if self._saved['full_matrices']:        # (only the first k singular vectors have a gradient)
            U, Vh = U[..., :k], Vh[..., :k, :]
            gU = None if gU is None else gU[..., :k]
            gVh = None if gVh is None else gVh[..., :k, :]
        return (svd_backward(gU, gS, gVh, U, S, Vh),)


def svd_backward(gU, gS, gVh, U, S, Vh):
    """PyTorch's svd_backward for real matrices (distinct singular values assumed), None gradients left out: with
    E_jk = S_k^2 - S_j^2 (1 on the diagonal), the skew parts of U^T gU and Vh gVh^T over E, scaled by S, plus
    diag(gS), taken back by U and Vh, with the parts of gU or gVh outside U's or V's span for a tall or wide A."""
    m, n = U.shape[-2], Vh.shape[-1]
    if gU is None and gVh is None:              # (svdvals: U diag(gS) Vh)
        return U @ (gS.unsqueeze(-1) * Vh) if m >= n else (U * gS.unsqueeze(-2)) @ Vh
    UhgU = None if gU is None else _skew(U.mT @ gU)
    VhgV = None if gVh is None else _skew(Vh @ gVh.mT)
    S2 = S * S
    E = S2.unsqueeze(-2) - S2.unsqueeze(-1)
    E.diagonal(0, -2, -1).fill_(1)
    if gU is not None and gVh is not None:
        gA = (UhgU * S.unsqueeze(-2) + S.unsqueeze(-1) * VhgV) / E
    elif gU is not None:
        gA = UhgU * (S.unsqueeze(-2) / E)
    else:
        gA = S.unsqueeze(-1) * (VhgV / E)
    if gS is not None:
        gA = gA + gS.diag_embed()
    if m > n and gU is not None:                # U gA Vh + (I - U U^T) gU S^-1 Vh
        gA = U @ gA
        gUSinv = gU / S.unsqueeze(-2)
        return (gA + gUSinv - U @ (U.mT @ gUSinv)) @ Vh
    if m < n and gVh is not None:               # U (gA Vh + S^-1 gVh (I - V Vh))
        gA = gA @ Vh
        SinvgVh = gVh / S.unsqueeze(-1)
        return U @ (gA + SinvgVh - (SinvgVh @ Vh.mT) @ Vh)
    return U @ (gA @ Vh) if m >= n else (U @ gA) @ Vh


def _skew(A):
    return A - A.mT


def unique(a, sorted=True, return_inverse=False, return_counts=False, dim=None):
    """The distinct values (always sorted, as PyTorch's CPU kernel gives them), or distinct slices along dim; with
    where each element went (inverse) and how often each value occurs (counts). No derivative."""
    if not isinstance(a, Tensor):               # (torch.unique([1, 2]): the kernel's parser refuses it)
        raise TypeError("%s(): argument 'input' (position 1) must be Tensor, not %s"
                        % ('_unique2' if dim is None else 'unique_dim', parser_type(a)))
    for name, flag in (('sorted', sorted), ('return_inverse', return_inverse), ('return_counts', return_counts)):
        if type(flag) is not builtins.bool:     # (torch.unique's call of _unique2 / unique_dim: bools only)
            raise TypeError("%s(): argument '%s' must be bool, not %s"
                            % ('_unique2' if dim is None else 'unique_dim', name, parser_type(flag)))
    x = a._data
    if dim is None:
        flat = x.reshape(-1)
        _, first, inverse, counts = np.unique(flat, return_index=True, return_inverse=True, return_counts=True,
                                              equal_nan=False)              # (each NaN its own value)
        values = flat[first]            # (each value as it first occurs: PyTorch's of 0. and -0. is the first one)
        if flat.dtype.kind == 'f' and flat.size <= 2 ** 14 and (np.isnan(values).any() or (values == 0).any() and
                np.signbit(flat[flat == 0]).any() != np.signbit(flat[flat == 0]).all()):  # (which copy: std::sort's)
            values, inverse, counts = _selection.unique_runs(flat)
        inverse = inverse.reshape(x.shape)
        cls = Unique2Backward0
    else:
        if not _argparse.is_int(dim):           # (torch.unique calls unique_dim(input, dim, ...))
            raise TypeError("unique_dim(): argument 'dim' (position 2) must be int, not %s" % parser_type(dim))
        d = _wrap_dim(dim, x.ndim, scalar=False)
        if not x.size:
            _check_unique_empty(x.shape, d)
            return _unique_empty(a, UniqueDimBackward0, return_inverse, return_counts)
        values, inverse, counts = np.unique(x, return_inverse=True, return_counts=True, axis=d)
        inverse = inverse.reshape(-1)
        cls = UniqueDimBackward0
    out = _attach(make(values), cls, (a,))
    extra = [make(r.astype(np.int64)) for r, wanted in ((inverse, return_inverse), (counts, return_counts)) if wanted]
    return tuple([out] + extra) if extra else out


def _check_unique_empty(shape, d):
    """PyTorch's unique along dim d of a tensor of nothing: only the dim itself may be 0."""
    if shape.count(0) != 1:
        raise RuntimeError('Number of zero sized dimensions is more than one, so unique cannot be applied ')
    if shape[d]:
        raise RuntimeError("There are 0 sized dimensions, and they aren't selected, so unique cannot be applied")


def _unique_empty(a, cls, return_inverse, return_counts):
    """unique / unique_consecutive along a dim of size 0: the input's shape, no inverse, no counts."""
    out = _attach(make(a._data.copy()), cls, (a,))
    extra = [make(np.zeros(0, np.int64)) for wanted in (return_inverse, return_counts) if wanted]
    return tuple([out] + extra) if extra else out


class Unique2Backward0(Node):
    op = '_unique2'

    def apply(self, g):
        raise NotImplementedError("the derivative for '%s' is not implemented." % self.op)


class UniqueDimBackward0(Unique2Backward0):
    op = 'unique_dim'


def dist(a, other, p=2):
    """The p-norm of a - other (DistBackward0)."""
    if not isinstance(other, Tensor):
        raise TypeError("dist(): argument 'other' (position 2) must be Tensor, not %s" % parser_type(other))
    with ag.no_grad():
        diff = a - other
    if not diff.is_floating_point():
        raise RuntimeError('norm(): input dtype should be either floating point or complex. Got %s instead.'
                           % diff.dtype.legacy)
    out = make(norm(diff, p)._data)
    return _attach(out, DistBackward0, (a, other), {'other': SavedTensor(other), 'p': p, 'result': _RESULT,
                                                    'self': SavedTensor(a)})


class DistBackward0(Node):
    def apply(self, g):
        x, y, r = self.saved('self'), self.saved('other'), self.saved('result')
        gx = _norm_backward(g, x - y, r, self._saved['p'], None, False)
        if gx is None:
            return (None, None)
        # (gx has the broadcast shape: summed to each input's, which the engine does not do where an input has the
        # output's shape, as a 0-d one)
        return (gx.sum_to_size(x.shape) if self.needs(0) else None,
                (-gx).sum_to_size(y.shape) if self.needs(1) else None)


def square(a):
    """a ** 2 (PyTorch records it as PowBackward0 with exponent 2)."""
    return _pow(a, 2)


# ================================================================================================ softmax family

def _softmax_np(x, d):
    if x.size and d != x.ndim - 1 and x.dtype.kind == 'f':
        return _softmax_other_dim(x, d)
    if x.dtype is _F16:
        return _half(_softmax_np, x, d)
    if x.size and d == x.ndim - 1 and x.dtype.kind == 'f' and x.itemsize >= 4:    # PyTorch's kernel for the last dim
        rows = x.reshape(-1, x.shape[-1])
        e = _vec_exp(rows - np.max(rows, axis=1, keepdims=True))
        return (e * (x.dtype.type(1) / _vec_sum(e))[:, None]).reshape(x.shape)
    e = _exp(x - np.max(x, axis=d, keepdims=True)) if x.size else x
    return e / np.sum(e, axis=d, keepdims=True)


def _softmax_other_dim(x, d):
    """Softmax over a dim that is not the last, as PyTorch's kernel (_vec_softmax) computes it (see _exps_along):
    its threads share the (outer, inner) positions in equal blocks, and a position takes the vectorized exp only
    in a whole vector of its row that lies within its thread's block; then each exp is divided by the sum."""
    inner = math.prod(x.shape[d + 1:])
    vectors = None
    if x.dtype is _F32:
        vectors = _vector_positions(x.size // builtins.max(x.shape[d], 1) // builtins.max(inner, 1), inner,
                                    _misc.settings['num_threads'])
    _, e, total = _exps_along(x, d, vectors)
    return (e / total).astype(x.dtype, copy=False).reshape(x.shape)


def _vector_positions(outer, inner, threads, lanes=16):
    """Which of the (outer, inner) positions _vec_softmax takes in whole vectors: at::parallel_for gives each of
    `threads` threads a block of ceil(n / threads) positions in order; a thread takes a vector where 16 positions
    are left both in the row and in its block, else the positions up to the nearer of the two ends one by one."""
    n = outer * inner
    mask = np.zeros(n, bool)
    block = -(-n // threads) if n > 1 and threads > 1 else builtins.max(n, 1)
    for begin in range(0, n, block):
        end, i = builtins.min(n, begin + block), begin
        while i < end:
            if i % inner + lanes <= inner and i + lanes <= end:
                mask[i:i + lanes] = True
                i += lanes
            else:
                i = end if i + lanes > end else i + inner - i % inner
    return mask.reshape(outer, inner)


def _exps_along(x, d, vectors=None):
    """What PyTorch's softmax and log_softmax kernels over a dim that is not the last (_vec_softmax,
    _vec_log_softmax) compute first: x taken as (outer, dim, inner), less its max along the dim; the inner
    positions in whole vectors (64 bytes of x's dtype; or where the mask `vectors` (outer, inner) says) take the
    vectorized exp (_vec_exp), the others the scalar one (glibc's expf for floats); along the dim the exps are added
    in order. Halves are computed in float, the positions left over storing each exp as a half first (the sum adds
    the exps in float); PyTorch's whole vectors of 32 halves differ from that (not modelled). Returns (x - max, the
    exps, their sums)."""
    n = x.shape[d]
    inner = math.prod(x.shape[d + 1:])
    lanes = 64 // x.itemsize
    v = x.reshape(-1, n, inner)
    if x.dtype is _F16:
        v = v.astype(_F32)
    shifted = v - np.max(v, axis=1, keepdims=True)
    whole = inner - inner % lanes
    e = _kernel_exps(shifted, whole, vectors)
    total = _in_order_along(e)
    if x.dtype is _F16:
        e[..., whole:] = e[..., whole:].astype(_F16)
    return shifted, e, total


def _kernel_exps(v, whole, vectors=None):
    """The exps of a (outer, dim, inner) array as a softmax kernel takes them: Sleef's vectorized exp for the inner
    positions below `whole` (or where the mask `vectors` (outer, inner) says), the scalar one (glibc's expf for
    floats) for the rest."""
    scalar_exp = _glibc_expf if v.dtype == _F32 else _exp
    if vectors is not None:
        return np.where(vectors[:, None, :], _vec_exp(v), scalar_exp(v)).astype(v.dtype, copy=False)
    return np.concatenate([_vec_exp(v[..., :whole]), scalar_exp(v[..., whole:])], axis=2)


def _in_order_along(a):
    """The sums along axis 1 of a (outer, n, inner) array, keepdims, each added in order (as the softmax kernels
    add along their dim; numpy adds an axis of unit stride in pairs: an inner size of 1 goes through accumulate)."""
    if a.shape[2] == 1 and a.shape[1] > 2:
        return np.add.accumulate(a, axis=1)[:, -1:]
    return np.add.reduce(a, axis=1, keepdims=True)


def _log_softmax_np(x, d):
    if x.dtype is _F16 and d != x.ndim - 1:     # (PyTorch's other dims: in float)
        return _half(_log_softmax_np, x, d)
    if not x.size:
        return x
    if x.dtype is _F16:                         # (its last-dim kernel for halves: in float, the sum of the exps and
        rows = x.reshape(-1, x.shape[-1]).astype(_F32)          # its log each stored as a half first)
        shifted = rows - np.max(rows, axis=1, keepdims=True)
        total = _vec_sum(_vec_exp(shifted)).astype(_F16).astype(_F32)
        return (shifted - _log(total).astype(_F16).astype(_F32)[:, None]).astype(_F16).reshape(x.shape)
    if d == x.ndim - 1 and x.dtype.kind == 'f' and x.itemsize >= 4:       # PyTorch's kernel for the last dim
        rows = x.reshape(-1, x.shape[-1])
        shifted = rows - np.max(rows, axis=1, keepdims=True)
        return (shifted - _vec_log(_vec_sum(_vec_exp(shifted)))[:, None]).reshape(x.shape)
    if x.dtype.kind == 'f' and x.itemsize >= 4:  # (the other dims: Sleef's log of the sums, every position)
        shifted, _, total = _exps_along(x, d)
        return (shifted - _vec_log(total)).reshape(x.shape)
    shifted = x - np.max(x, axis=d, keepdims=True)
    return shifted - np.log(np.sum(np.exp(shifted), axis=d, keepdims=True))


_log1p = _rounded(np.log1p)


def _vec_sum(rows, vector_bytes=64, fused_tail=None):
    """Each row of a 2-d array summed as PyTorch's vectorized reduce_all (AVX-512: 16 floats or 8 doubles a vector;
    vector_bytes=32: AVX2's 8 or 4): a row shorter than a vector in order; else the vectors added in turn into the
    first, the numbers left over into its first lanes; then its lanes, floats halving (lane i + lane i + 8, then
    i + 4, ...), doubles in order. rows = a * b with fused_tail = (a, b) (map2_reduce_all of a product): the numbers
    left over go in as fused multiply-adds, the one expression of the loop GCC contracts (measured)."""
    n = rows.shape[1]
    lanes = vector_bytes // rows.itemsize
    if n < lanes:
        return np.add.accumulate(rows, axis=1)[:, -1] if n else np.zeros(rows.shape[0], rows.dtype)
    whole = n // lanes * lanes
    acc = np.add.reduce(rows[:, :whole].reshape(-1, whole // lanes, lanes), axis=1)   # (not innermost: in order)
    if whole < n and fused_tail is not None:
        a, b = (np.broadcast_to(f, rows.shape)[:, whole:] for f in fused_tail)
        acc[:, :n - whole] = (_random.fma32 if rows.dtype == _F32 else _fma64)(a, b, acc[:, :n - whole])
    elif whole < n:
        acc[:, :n - whole] += rows[:, whole:]
    if rows.dtype != np.float32:
        return np.add.accumulate(acc, axis=1)[:, -1]
    while lanes > 1:
        lanes //= 2
        acc = acc[:, :lanes] + acc[:, lanes:2 * lanes]
    return acc[:, 0]


def _softmax_op(name, np_fn, node_cls):
    def op(a, dim=None, dtype=None):
        if dim is None:
            raise _missing(name, 'dim')
        if dtype is not None:
            a = a.to(dtype)
        d = _wrap_dim(dim, a._data.ndim)
        if not a._data.size:                    # (PyTorch returns an empty input's copy before its dtype check)
            return _attach(make(a._data.copy()), node_cls, (a,), {'dim': _raw(dim), 'result': _RESULT})
        if not a.is_floating_point():
            kernel = '_lastdim' if d >= a._data.ndim - 1 else ''
            raise NotImplementedError('"%s%s_kernel_impl" not implemented for \'%s\'' % (name, kernel, a.dtype.legacy))
        x = np.ascontiguousarray(a._data) if a._data.ndim else a._data.reshape(1)     # (PyTorch: input.contiguous())
        out = make(np_fn(x, d).reshape(a._data.shape))
        return _attach(out, node_cls, (a,), {'dim': _raw(dim), 'result': _RESULT})
    op.__name__ = name
    return op


def _lastdim_rows(g, y, d):
    """The gradient g and output y as rows of the last dim, when PyTorch's last-dim kernel computes the backward
    in float; else None."""
    if y.ndim and d != y.ndim - 1 or y._data.dtype.kind != 'f' or g._data.dtype != y._data.dtype or not y._data.size:
        return None
    n = y._data.shape[-1] if y.ndim else 1      # (a 0-d one: a row of 1, as the kernel takes it)
    return g._data.reshape(-1, n), y._data.reshape(-1, n)


def _no_grad_value(fn, *args):
    """fn(*args) computed with autograd off: the value of a backward formula whose node is recorded apart."""
    with ag.no_grad():
        return fn(*args)


def _in_float(fn, g, x, *args):
    """fn(g, x, *args) with autograd off; for halves as PyTorch's CPU kernels compute the gradients of softplus, elu,
    gelu and log_softmax: in float, rounded to half once."""
    with ag.no_grad():
        if g._data.dtype is _F16 and x._data.dtype is _F16:
            return make(fn(make(g._data.astype(_F32)), make(x._data.astype(_F32)), *args)._data.astype(_F16))
        return fn(g, x, *args)


class SoftmaxBackward0(Node):
    def apply(self, g):
        y = self.saved('result')
        return (softmax_backward_data(g, y, self._saved['dim']),)


def softmax_backward_data(g, y, dim):
    """PyTorch's _softmax_backward_data: y * (g - sum(g * y)), an op of its own (SoftmaxBackwardDataBackward0) for
    double backward. dim as the softmax node saved it."""
    d = _saved_dims(dim, y.ndim)[0]
    rows = _lastdim_rows(g, y, d)
    if rows is not None:                       # (g - sum(g * y)) * y, the sum as the kernel adds
        gr, yr = rows
        if gr.dtype is _F16:                   # (halves: in float, rounded once)
            gr, yr = gr.astype(_F32), yr.astype(_F32)
        out = make(((gr - _vec_sum(gr * yr)[:, None]) * yr).astype(y._data.dtype, copy=False).reshape(y._data.shape))
    elif y._data.dtype in (_F32, _F64) and g._data.dtype == y._data.dtype and y._data.ndim and \
            g._data.shape == y._data.shape:
        # over another dim the kernel adds g * y along it in order, each step a fused multiply-add (doubles too)
        gd, yd = g._data, y._data
        fma = _fma32 if yd.dtype == _F32 else _fma64
        acc = np.zeros(yd.shape[:d] + (1,) + yd.shape[d + 1:], yd.dtype)
        for i in range(yd.shape[d]):
            acc = fma(gd[(slice(None),) * d + (slice(i, i + 1),)], yd[(slice(None),) * d + (slice(i, i + 1),)], acc)
        out = make(np.asarray((gd - acc) * yd))
    else:                                       # (halves: in float, rounded once)
        out = _in_float(lambda gg, yy: yy * (gg - (gg * yy).sum(d, keepdim=True)), g, y)
    if _recording(g, y):
        _attach(out, SoftmaxBackwardDataBackward0, (g, y),
                {'dim': dim, 'grad_output': SavedTensor(g), 'output': SavedTensor(y)})
    return out


class SoftmaxBackwardDataBackward0(Node):
    def apply(self, gg):
        s = self._saved
        go, y = self.saved('grad_output'), self.saved('output')
        d = _saved_dims(s['dim'], y.ndim)[0]
        ggo = softmax_backward_data(gg, y, s['dim']) if self.needs(0) else None
        gy = (go * gg - (y * go).sum(d, keepdim=True) * gg - go * (y * gg).sum(d, keepdim=True)
              if self.needs(1) else None)           # softmax_double_backward
        return ggo, gy


class LogSoftmaxBackward0(Node):
    def apply(self, g):
        y = self.saved('result')
        return (log_softmax_backward_data(g, y, self._saved['dim']),)


def log_softmax_backward_data(g, y, dim):
    """PyTorch's _log_softmax_backward_data: g - exp(y) * sum(g), an op of its own
    (LogSoftmaxBackwardDataBackward0) for double backward."""
    out = _in_float(_log_softmax_grad, g, y, _saved_dims(dim, y.ndim)[0])
    if _recording(g, y):
        _attach(out, LogSoftmaxBackwardDataBackward0, (g, y),
                {'dim': dim, 'grad_output': SavedTensor(g), 'output': SavedTensor(y)})
    return out


def _log_softmax_grad(g, y, d):
    rows = _lastdim_rows(g, y, d)
    if rows is not None:                       # g - exp(y) * sum(g), fused, the sum as the kernel adds
        gr, yr = rows
        e, total = _vec_exp(yr), _vec_sum(gr)[:, None]
        # (float: exact in double, rounded once; double: the compiled kernel's fused multiply-add too)
        out = (gr - e.astype(_F64) * total).astype(gr.dtype) if gr.dtype == _F32 else _fma64(-e, total, gr)
        return make(out.reshape(y._data.shape))
    if g._data.dtype in (_F32, _F64) and g._data.dtype == y._data.dtype and g._data.shape == y._data.shape:
        # over another dim too the kernel fuses the multiply-add (the sum taken along the dim in order; the exps of
        # the inner positions in whole vectors vectorized, as in the forward: see _exps_along)
        yd, inner = y._data, math.prod(y._data.shape[d + 1:])
        whole = inner - inner % (64 // yd.itemsize)
        rows = (math.prod(yd.shape[:d]), yd.shape[d], inner)
        v, gv = yd.reshape(rows), g._data.reshape(rows)
        e = _kernel_exps(v, whole)
        total = _in_order_along(gv)
        return make(np.asarray(_fma32(-e, total, gv) if e.dtype == _F32 else _fma64(-e, total, gv)).reshape(yd.shape))
    return g - y.exp() * g.sum(d, keepdim=True)


class LogSoftmaxBackwardDataBackward0(Node):
    def apply(self, gg):
        s = self._saved
        go, y = self.saved('grad_output'), self.saved('output')
        d = _saved_dims(s['dim'], y.ndim)[0]
        ggo = gg - (gg * y.exp()).sum(d, keepdim=True) if self.needs(0) else None
        gy = -go.sum(d, keepdim=True) * y.exp() * gg if self.needs(1) else None
        return ggo, gy


softmax = _softmax_op('softmax', _softmax_np, SoftmaxBackward0)
log_softmax = _softmax_op('log_softmax', _log_softmax_np, LogSoftmaxBackward0)
softmax.__doc__ = 'exp(x) / exp(x).sum(dim): a probability distribution along dim (dim is required).'
log_softmax.__doc__ = 'log(softmax(x, dim)), computed stably (dim is required).'


def logsumexp(a, dim=None, keepdim=False):
    """log(exp(a).sum(dim)), without overflow."""
    if dim is None:
        raise _missing('logsumexp', 'dim')
    dims = _dims(dim, a._data.ndim)
    if not dims and a._data.ndim:              # dim=(): all dims (PyTorch's add_ of the kept max fails without keepdim;
        if not keepdim and a._data.size:      # an empty input is only summed: -inf)
            raise _not_broadcast_to((), (1,) * a._data.ndim)
        dims = None
    fd = _float_dtype(a)
    x = a._data.astype(fd.np, copy=False)
    m = np.max(x, axis=dims, keepdims=True) if x.size else np.zeros([1] * x.ndim, fd.np)
    m = np.where(np.isinf(m), fd.np.type(0), m)
    # PyTorch's composition: amax, then log(sum(exp(x - max))) + max with its exp, sum and log
    r = _log(_add_reduce(_exp(x - m), dims, True)) + m
    out = _out(np.asarray(r if keepdim else np.squeeze(r, dims), order='C'), fd)     # (reductions: row-major)
    return _attach(out, LogsumexpBackward0, (a,), {'dim': _raw(_tuple(dim)), 'keepdim': keepdim, 'result': _RESULT,
                                                   'self': SavedTensor(a)})


class LogsumexpBackward0(Node):
    def apply(self, g):
        s = self._saved
        x = self.saved('self')
        dims = _reduced_dims(s['dim'], x.ndim)
        raw = s['dim'] if x.ndim else None
        return (_unsq(g, dims, s['keepdim'], raw) * (x - _unsq(self.saved('result'), dims, s['keepdim'], raw)).exp(),)


# ================================================================================================ statistics

_NOT_GIVEN = object()      # var / std's dim and correction when not passed: PyTorch's overload depends on it


def _correction(dim, unbiased, correction):
    """(dim, correction as PyTorch saves it), as its overloads choose: a `correction` keyword (even None) is saved
    as given; else a dim (even None) or `unbiased` saves 1, or 0 for unbiased=False; var() alone saves None."""
    if isinstance(dim, builtins.bool):          # the old var(unbiased) overload
        dim, unbiased = _NOT_GIVEN, dim
    if correction is not _NOT_GIVEN:
        return None if dim is _NOT_GIVEN else dim, _number(correction)
    if dim is _NOT_GIVEN and unbiased is None:
        return None, None
    return None if dim is _NOT_GIVEN else dim, 0 if unbiased is False else 1


def _var_np(x, dims, c, keepdim, name=None):
    """(variance, count, Welford's mean or None). PyTorch accumulates a float32 variance in float64 (its result is
    the float64 one, rounded once; std is the float64 square root, rounded once): so here too. With the op's name, PyTorch's warning
    when no degrees of freedom are left, and its error for integer and bool tensors."""
    if name and x.dtype.kind != 'f':
        raise RuntimeError('%s only support floating point and complex dtypes'
                           % ('std and var' if name in ('std', 'var') else name))
    n = x.size if dims is None else builtins.int(np.prod([x.shape[d] for d in dims]))
    if name and (n if x.size else 0) - (1 if c is None else c) <= 0:   # (PyTorch: input numel / output numel)
        warnings.warn('%s(): degrees of freedom is <= 0. Correction should be strictly less than the reduction factor '
                      '(input numel divided by output numel). (Triggered internally at '
                      '/__w/pytorch/pytorch/aten/src/ATen/native/ReduceOps.cpp:1861.)' % name, UserWarning,
                      stacklevel=user_stacklevel())
    divisor = builtins.max(n - (1 if c is None else c), 0)
    if x.dtype.kind == 'f' and x.itemsize >= 4 and x.size:
        whole = dims is None or all(d in dims for d, size in enumerate(x.shape) if size != 1)
        with np.errstate(divide='ignore', invalid='ignore'):
            if whole and name in ('var', 'std'):
                return _var_two_pass(x, dims, keepdim) / divisor, n, None
            if n <= _WELFORD_LIMIT:
                mean, m2 = _welford(x, tuple(range(x.ndim)) if dims is None else dims, keepdim)
                return m2 / divisor, n, mean
    if x.dtype == np.float32 or x.dtype is _F16:       # (PyTorch computes halves as floats: see var)
        x = x.astype(np.float64)
    if not x.size:                               # (numpy's mean of nothing warns: PyTorch's is nan, silently)
        with warnings.catch_warnings():
            warnings.simplefilter('ignore', RuntimeWarning)
            dev = x - x.mean(axis=dims, keepdims=True)
    else:
        dev = x - x.mean(axis=dims, keepdims=True)
    return np.sum(dev * dev, axis=dims, keepdims=keepdim) / divisor, n, None


_WELFORD_LIMIT = 4096       # numbers a result: past this _var_np's Welford loop would be slow (numpy's two passes)


def _var_two_pass(x, dims, keepdim):
    """The sum of squared deviations PyTorch's var and std take over a whole float tensor (std_var_all_cpu): from the
    tensor's own mean (in its dtype), each deviation squared in double and added in memory order."""
    from ._ops import mean
    m = builtins.float(mean(make(x))._data)
    flat = x.T.ravel() if x.flags.f_contiguous and not x.flags.c_contiguous else x.ravel()
    dev = flat.astype(np.float64) - m
    shared = _reduce_order.thread_blocks(dev.size)      # (32,768 numbers or more: the threads' blocks, in turn)
    blocks = [(0, dev.size)] if shared is None else shared[1]
    total = 0.0
    for start, stop in blocks:
        total += np.add.accumulate(dev[start:stop] * dev[start:stop])[-1]
    shape = (1,) * x.ndim if keepdim else tuple(size for d, size in enumerate(x.shape) if dims is not None and
                                                 d not in dims)
    return np.full(shape, total)


def _welford(x, dims, keepdim):
    """(mean, sum of squared deviations) over dims, in double, as PyTorch's WelfordOps reduces each result's numbers
    in memory order: for each number, delta = x - mean; mean += delta / n; m2 += delta * (x - mean)."""
    rows = np.moveaxis(x, dims, tuple(range(-len(dims), 0)))
    kept = rows.shape[:rows.ndim - len(dims)]
    rows = rows.reshape(kept + (-1,))
    mean = np.zeros(kept)
    m2 = np.zeros(kept)
    for k in range(rows.shape[-1]):
        v = rows[..., k].astype(np.float64)
        delta = v - mean
        mean = mean + delta / (k + 1)
        m2 = m2 + delta * (v - mean)
    if keepdim:
        shape = tuple(1 if d in dims else size for d, size in enumerate(x.shape))
        mean, m2 = mean.reshape(shape), m2.reshape(shape)
    return mean, m2


def _var_np_dtype(a, name):
    """PyTorch checks the dtype before the dims."""
    if a._data.dtype.kind != 'f':
        raise RuntimeError('%s only support floating point and complex dtypes'
                           % ('std and var' if name in ('std', 'var') else name))


def var(a, dim=_NOT_GIVEN, unbiased=None, keepdim=False, *, correction=_NOT_GIVEN):
    """Variance over dim (Bessel-corrected unless unbiased=False or correction=0)."""
    dim, c = _correction(dim, unbiased, correction)
    _var_np_dtype(a, 'var')
    dims = _dims(dim, a._data.ndim) or None           # (dim=(): all dims, as in PyTorch)
    r, _, _ = _var_np(a._data, dims, c, keepdim, 'var')
    r = np.asarray(r, order='C')                      # (reductions give row-major results)
    # (a half's variance is its float copy's, rounded to half: double -> float -> half, as dt.convert rounds)
    return _input_dtype_kept(_attach(_out(dt.convert(np.asarray(r), a.dtype), a.dtype), VarBackward0, (a,), {'correction': c, 'dim': _raw(_tuple(dim)), 'keepdim': keepdim,
                                                           'self': SavedTensor(a)}), a)


def _input_dtype_kept(out, *inputs):
    """out, its node told every input's shape and dtype, for a formula whose gradient may come in another dtype than
    the output's even for an input of the output's dtype (var's without degrees of freedom: the default dtype; a
    half's addcmul by a bool: float): PyTorch's engine casts each gradient to its input's dtype (ToCopyBackward0)."""
    node = out._grad_fn
    if node is not None:
        meta = node._meta or [None] * len(inputs)
        node._meta = [m or (t._data.shape, t._data.dtype) for m, t in zip(meta, inputs)]
    return out


def std(a, dim=_NOT_GIVEN, unbiased=None, keepdim=False, *, correction=_NOT_GIVEN):
    """Standard deviation over dim: sqrt(var)."""
    dim, c = _correction(dim, unbiased, correction)
    _var_np_dtype(a, 'std')
    dims = _dims(dim, a._data.ndim) or None
    r, _, _ = _var_np(a._data, dims, c, keepdim, 'std')
    r = np.asarray(r, order='C')
    return _input_dtype_kept(_attach(_out(dt.convert(np.sqrt(np.asarray(r)), a.dtype), a.dtype), StdBackward0, (a,), {'correction': c, 'dim': _raw(_tuple(dim)),
                                                                    'keepdim': keepdim, 'result': _RESULT,
                                                                    'self': SavedTensor(a)}), a)


def _var_backward(g, x, dims, c, keepdim, raw=None):
    """var_backward: 2 / (n - c) * g * (x - x.mean(dim, keepdim=True)), the mean over the dims as the op was given
    them (raw: as saved), so its MeanBackward1 saves them so too."""
    n = x._data.size if dims is None else builtins.int(np.prod([x._data.shape[d] for d in dims]))
    c = 1 if c is None else c
    if n <= c and (dims is None or not x._data.ndim):
        # No degrees of freedom over all of x: PyTorch's grad * where(x == x.mean(), nan, inf), a constant factor
        # (not 2 / 0 * (x - mean), whose signs and zeros would show) of the default dtype (where of two numbers)
        v = x._data
        mean = v.mean(dtype=v.dtype) if v.size else np.nan      # (numpy warns of an empty mean; PyTorch's is nan)
        return g * make(np.where(v == mean, np.nan, np.inf).astype(dt.default_float.np))
    given = dims if x._data.ndim else None          # (a 0-d x: over all of it, x.mean(): MeanBackward0)
    if raw is not None and x._data.ndim:
        given = tuple(map(_signed, raw if isinstance(raw, tuple) else (raw,)))
    centered = x - (x.mean(given, keepdim=True) if given is not None else x.mean())
    if x._data.ndim > 1:                # (a 1-d x: g, reduced to 0-d, broadcasts as it is)
        g = _unsq(g, dims, keepdim, raw)
    return _mul_scalar(g, 2.0 / (n - c) if n != c else math.inf) * centered  # (2.0 / 0: inf)


class VarBackward0(Node):
    def apply(self, g):
        s = self._saved
        x = self.saved('self')
        return (_var_backward(g, x, _reduced_dims(s['dim'], x.ndim), s['correction'], s['keepdim'], s['dim']),)


class StdBackward0(Node):
    def apply(self, g):
        s = self._saved
        r = self.saved('result')
        g = (g / _mul_scalar(r, 2)).masked_fill(make(r._data == 0), 0)
        x = self.saved('self')
        return (_var_backward(g, x, _reduced_dims(s['dim'], x.ndim), s['correction'], s['keepdim'], s['dim']),)


def _check_norm_dtype(name, a, dtype):
    """PyTorch's check_linalg_norm_dtype: a floating dtype that a's dtype converts to without narrowing."""
    if dtype is None:
        return
    if not (dtype.is_floating_point or dtype.is_complex):
        raise RuntimeError('%s: dtype should be floating point or complex, but got %s' % (name, dtype.legacy))
    if dt.promote_types(a.dtype, dtype) != dtype:
        raise RuntimeError('%s: the dtype of the input (%s) should be convertible without narrowing to the specified '
                           'dtype (%s)' % (name, a.dtype.legacy, dtype.legacy))


def norm(a, p='fro', dim=None, keepdim=False, dtype=None):
    """The vector p-norm over dim (everything by default): LinalgVectorNormBackward0, as torch.norm records it.
    Other string orders ('nuc', or 'fro' over more than 2 dims) are linalg.matrix_norm's, over all dims by default."""
    from ._methods import as_number
    if isinstance(p, Tensor):
        p = as_number(p) if as_number(p) is not None else p      # (a 0-d tensor without grad: a Number, its value)
    if not (p is None or isinstance(p, (str, builtins.int, builtins.float, np.number))):     # (`x.norm((0,))`)
        raise TypeError("linalg_vector_norm(): argument 'ord' (position 2) must be Number, not %s" % parser_type(p))
    for i, d in enumerate(dim if isinstance(dim, (tuple, list)) else () if dim is None else (dim,)):
        if isinstance(d, builtins.bool):
            raise TypeError("linalg_vector_norm(): argument 'dim' (position 3) must be tuple of ints, but found "
                            "element of type bool at pos %d" % i)
    # (p 'fro' over at most 2 dims is the vector norm: dim='a' has length 1, so vector_norm's parser refuses it)
    matrix = isinstance(p, str) and (p != 'fro' or not (dim is None or isinstance(dim, builtins.int) or len(dim) <= 2))
    if not (matrix or dim is None or isinstance(dim, (builtins.int, np.integer, tuple, list)) or
            isinstance(dim, Tensor) and dim._data.size == 1 and dim._data.dtype.kind in 'iub'):
        raise TypeError("linalg_vector_norm(): argument 'dim' (position 3) must be tuple of ints, not %s"
                        % parser_type(dim))
    if not matrix and type(keepdim) is not builtins.bool:
        raise TypeError("linalg_vector_norm(): argument 'keepdim' (position 4) must be bool, not %s"
                        % parser_type(keepdim))
    if matrix:
        from .linalg import matrix_norm
        return matrix_norm(a, p, list(range(a.ndim)) if dim is None else dim, keepdim, dtype=dtype)
    if not a.is_floating_point():
        raise RuntimeError('linalg.vector_norm: Expected a floating point or complex tensor as input. Got '
                           + a.dtype.legacy)
    _check_norm_dtype('linalg.vector_norm', a, dtype)
    d = a.dtype if dtype is None else dtype             # (computed in dtype, recorded against a: no ToCopy node)
    ord = 2 if p in ('fro', None) else p
    dims = _dims(dim, a._data.ndim) or None            # (dim=(): all dims)
    if not a._data.size and (ord < 0 or ord == math.inf):      # (max / min reductions: no identity)
        given = _tuple(dim) if dim is not None else ()
        if not given:
            raise RuntimeError('linalg.vector_norm cannot compute the %g norm on an empty tensor because the '
                               'operation does not have an identity' % ord)
        for k in given:
            if not a._data.shape[_wrap_dim(k, a._data.ndim)]:
                raise RuntimeError('linalg.vector_norm cannot compute the %g norm on the dimension %d' 'because this '
                                   'dimension is empty and the operation does not have an identity' % (ord, k))
    x = np.abs(a._data.astype(d.np, copy=False))
    if x.dtype.kind == 'f' and x.itemsize >= 4 and ord not in (0, math.inf, -math.inf):
        r = _reduce_order.norm(a._data.astype(d.np, copy=False), dims, keepdim, ord)   # (the kernel's order)
    elif x.dtype is _F16 and ord not in (0, math.inf, -math.inf):
        # (PyTorch's norm of halves accumulates in float, one by one)
        r = _reduce_order.norm(x.astype(_F32), dims, keepdim, ord, in_order=True)
    elif ord == 2:
        r = np.sqrt(np.sum(x * x, axis=dims, keepdims=keepdim))
    elif ord == 1:
        r = np.sum(x, axis=dims, keepdims=keepdim)
    elif ord == math.inf:
        r = np.max(x, axis=dims, keepdims=keepdim)
    elif ord == -math.inf:
        r = np.min(x, axis=dims, keepdims=keepdim)
    elif ord == 0:
        r = np.sum(x != 0, axis=dims, keepdims=keepdim)
    else:
        r = np.sum(x ** ord, axis=dims, keepdims=keepdim) ** (1.0 / ord)
    return _attach(_out(r, d), LinalgVectorNormBackward0, (a,), {
        'dim': _raw(_tuple(dim)), 'keepdim': keepdim, 'ord': ord, 'result': _RESULT, 'self': SavedTensor(a)})


class LinalgVectorNormBackward0(Node):
    def apply(self, g):
        s = self._saved
        x, r = self.saved('self'), self.saved('result')
        return (_norm_backward(g, x, r, s['ord'], _reduced_dims(s['dim'], x.ndim), s['keepdim'],
                               s['dim'] if x.ndim else None),)


def _norm_backward(g, x, r, ord, dims, keepdim, raw=None):
    """The gradient of r, the ord-norm of x over dims; None for ord 0 (PyTorch gives no gradient there)."""
    if ord == 0:
        return None
    g, r = _unsq(g, dims, keepdim, raw), _unsq(r, dims, keepdim, raw)
    if ord == 1:
        return x.sgn() * g
    if ord in (math.inf, -math.inf):
        a = np.abs(x._data)
        mask = make((a == r._data) | np.isnan(a))
        count = mask.sum(dims, keepdim=True) if dims is not None else mask.sum()
        scale = g / count * mask
        return x.sgn() * scale
    # PyTorch's norm_backward, with its masked_fill. Its C++ `a * b` makes b's nodes before a's (so they run after
    # them in a double backward, where sgn's ZeroTensor then comes first): here too
    zero = make(r._data == 0)
    ord = float(ord)                    # (a C++ double there: x.abs().pow(1.0) for ord 3)
    if ord == 2:
        return g * (x / r).masked_fill(zero, 0)
    if ord < 1:
        scaled = x.abs().pow(ord - 1).masked_fill(make(x._data == 0), 0)
        scaled = x.sgn() * scaled
        scale = r.pow(1 - ord)
        return scaled * g * scale
    if ord < 2:
        scaled = x.abs().pow(ord - 1)
        scaled = x.sgn() * scaled
    else:
        scaled = x * x.abs().pow(ord - 2)
    return scaled * (g / r.pow(ord - 1)).masked_fill(zero, 0)


# ================================================================================================ activations

def _check_float(a, kernel, kinds='f'):
    """PyTorch's error for a kernel that has no integer (or complex: kinds) version."""
    if a._data.dtype.kind not in kinds:
        raise NotImplementedError('"%s" not implemented for \'%s\'' % (kernel, a.dtype.legacy))


def leaky_relu(a, negative_slope=0.01, inplace=False):
    """x where x > 0, else negative_slope * x. inplace: the node of leaky_relu_, which saves the result."""
    _check_float(a, 'leaky_relu_cpu')
    negative_slope = _number(negative_slope)
    x = a._data
    if x.dtype is _F16:                 # (PyTorch multiplies a half by the slope in float, then rounds)
        out = make(np.where(x > 0, x, (x.astype(_F32) * _F32.type(negative_slope)).astype(_F16)))
    else:
        out = make(np.where(x > 0, x, x * x.dtype.type(negative_slope)))
    if inplace:
        return _attach(out, LeakyReluBackward1, (a,), {'negative_slope': negative_slope, 'result': _RESULT})
    return _attach(out, LeakyReluBackward0, (a,), {'negative_slope': negative_slope, 'self': SavedTensor(a)})


class LeakyReluBackward0(Node):
    def apply(self, g):
        return (leaky_relu_backward(g, self.saved('self'), self._saved['negative_slope']),)


def leaky_relu_backward(g, x, negative_slope):
    """g where x > 0, else g * negative_slope: an op of its own for double backward (x may be the result)."""
    d = g._data
    if d.dtype is _F16:                 # (halves: times the slope in float, rounded once)
        out = make(np.where(x._data > 0, d, (d.astype(_F32) * _F32.type(negative_slope)).astype(_F16)))
    else:
        out = make(np.where(x._data > 0, d, d * d.dtype.type(negative_slope)))
    saved = {'negative_slope': negative_slope, 'self': SavedTensor(x)}
    return _attach(out, LeakyReluBackwardBackward0, (g, x), saved)


class LeakyReluBackwardBackward0(Node):
    def apply(self, gg):
        return (leaky_relu_backward(gg, self.saved('self'), self._saved['negative_slope']),
                _zeros_like(gg) if self.needs(1) else None)


class LeakyReluBackward1(Node):
    def apply(self, g):
        slope = self._saved['negative_slope']
        if slope < 0:                              # the result's sign no longer tells where x was positive
            raise RuntimeError(
                'In-place leakyReLu backward calculation is triggered with a negative slope which is not supported. '
                'This is caused by calling in-place forward function with a negative slope, please call out-of-place '
                'version instead. File an issue at https://github.com/pytorch/pytorch if you do require supporting '
                'in-place leakRelu backward calculation with negative slope')
        return (leaky_relu_backward(g, self.saved('result'), slope),)


def rrelu(a, lower=0.125, upper=1.0 / 3, training=False, generator=None, inplace=False):
    """Randomized leaky ReLU (aten's rrelu_with_noise). Training: each x <= 0 times a slope of its own drawn from
    U(lower, upper) (one draw per such element, in order), kept as `noise` (1 elsewhere); else leaky_relu with slope
    (lower + upper) / 2 (the noise then is never written: PyTorch's is uninitialised). inplace: the node of
    rrelu_with_noise_, which saves the result."""
    if lower > upper:
        raise RuntimeError('Lower bound should be less than or equal to the upper bound')
    x = a._data
    if training:
        if x.dtype.kind != 'f' or x.dtype is _F16:
            raise NotImplementedError('"rrelu_with_noise_out_cpu" not implemented for \'%s\'' % a.dtype.legacy)
        from . import _random
        neg = x <= 0
        noise = np.ones_like(x)
        # (a double for each: 53 random bits scaled as x * (upper - lower) + lower, not fused, the bounds in the
        # input's dtype first, as aten's uniform_real_distribution<double> in rrelu's loop)
        lo, hi = (np.float64(x.dtype.type(b)) for b in (lower, upper))
        u = _random.doubles(generator or _random.default_generator, int(neg.sum()))
        noise[neg] = (u * (hi - lo) + lo).astype(x.dtype)
        out = make(np.where(neg, x * noise, x))
    else:
        with ag.no_grad():                  # (its values only: the node is rrelu's)
            out = leaky_relu(a, (lower + upper) / 2)
        noise = np.zeros_like(x)
    saved = {'lower': lower, 'noise': SavedTensor(make(noise)), 'training': training, 'upper': upper}
    if inplace:
        return _attach(out, RreluWithNoiseBackward1, (a,), dict(saved, result=_RESULT))
    return _attach(out, RreluWithNoiseBackward0, (a,), dict(saved, self=SavedTensor(a)))


class RreluWithNoiseBackward0(Node):
    _input = 'self'           # (what the node saved of the input: rrelu_'s node, the result)

    def apply(self, g):
        s = self._saved
        return (rrelu_with_noise_backward(g, self.saved(self._input), self.saved('noise'), s['lower'], s['upper'],
                                          s['training']),)


class RreluWithNoiseBackward1(RreluWithNoiseBackward0):
    _input = 'result'


def rrelu_with_noise_backward(g, x, noise, lower, upper, training):
    """g * noise when the slopes were drawn (and not all the same), else leaky_relu's backward with the mean
    slope; an op of its own for double backward (x may be the result: its sign is the input's)."""
    d = g._data
    if training and upper - lower > 1e-6:
        out = make(d * noise._data)
    else:
        out = make(np.where(x._data > 0, d, d * d.dtype.type((lower + upper) / 2)))
    saved = {'lower': lower, 'noise': SavedTensor(noise), 'self': SavedTensor(x), 'training': training,
             'upper': upper}
    return _attach(out, RreluWithNoiseBackwardBackward0, (g, x), saved)


class RreluWithNoiseBackwardBackward0(Node):
    def apply(self, gg):
        s = self._saved
        return (rrelu_with_noise_backward(gg, self.saved('self'), self.saved('noise'), s['lower'], s['upper'],
                                          s['training']),
                _zeros_like(gg) if self.needs(1) else None)


def hardtanh(a, min_val=-1.0, max_val=1.0):
    """x clipped to [min_val, max_val] (relu6 is hardtanh(x, 0, 6))."""
    min_val, max_val = _number(min_val), _number(max_val)
    x = a._data
    if x.dtype.kind in 'bu':
        if x.dtype.kind == 'b':
            raise RuntimeError('Bool inputs not supported for hardtanh')
        if min_val < 0:
            raise RuntimeError('cannot do hardtanh on an unsigned type with negative limits')
    out = make(np.clip(x, min_val, max_val).astype(x.dtype, copy=False))
    return _attach(out, HardtanhBackward0, (a,), {'max_val': max_val, 'min_val': min_val, 'self': SavedTensor(a)})


class HardtanhBackward0(Node):
    def apply(self, g):
        return (hardtanh_backward(g, self.saved('self'), self._saved['min_val'], self._saved['max_val']),)


def hardtanh_backward(g, x, min_val, max_val):
    """g, zeroed at and beyond the bounds (NaN inputs pass it in PyTorch's scalar loop, which tests x <= min,
    x >= max; its vector loop, one vector at a time, keeps g where min < x < max: not at NaN); an op of its own for
    double backward."""
    d = g._data
    outside = (x._data <= min_val) | (x._data >= max_val)
    if x._data.dtype.kind == 'f':
        outside |= _nan_in_vectors(x._data, 1)
    out = make(np.where(outside, d.dtype.type(0), d))
    saved = {'max_val': max_val, 'min_val': min_val, 'self': SavedTensor(x)}
    return _attach(out, HardtanhBackwardBackward0, (g, x), saved)


class HardtanhBackwardBackward0(Node):
    def apply(self, gg):
        return (hardtanh_backward(gg, self.saved('self'), self._saved['min_val'], self._saved['max_val']),
                _zeros_like(gg) if self.needs(1) else None)


def softplus(a, beta=1, threshold=20):
    """log(1 + exp(beta * x)) / beta, and x itself where beta * x > threshold."""
    _check_float(a, 'softplus_cpu')
    beta, threshold = _number(beta), _number(threshold)
    x = a._data
    bx = x * x.dtype.type(beta)
    if x.dtype is _F32:               # PyTorch's kernel: log1p(exp(beta * x)) / beta, its exp, the quotient in float
        soft = _vec_loop(bx, lambda v: np.log1p(_vec_exp(v), dtype=np.float64).astype(_F32) / np.float32(beta),
                         lambda v: _log1pf(_exp(v)) / np.float32(beta))     # (the scalar loop: the C library's)
    else:
        soft = (np.log1p(np.exp(bx, dtype=np.float64)) / beta).astype(x.dtype)
    out = make(np.where(bx > threshold, x, soft))
    return _attach(out, SoftplusBackward0, (a,), {'beta': beta, 'self': SavedTensor(a), 'threshold': threshold})


class SoftplusBackward0(Node):
    def apply(self, g):
        return (softplus_backward(g, self.saved('self'), self._saved['beta'], self._saved['threshold']),)


def logsigmoid(a):
    """log(sigmoid(x)), as PyTorch's kernel computes it: min(x, 0) - log1p(exp(-|x|)), with its exp (0., not -0.,
    for large x); the node saves exp(-|x|) as `buffer`."""
    if not a.is_floating_point():
        raise NotImplementedError('"log_sigmoid_cpu" not implemented for \'%s\'' % a.dtype.legacy)
    x = a._data
    f = x.astype(_F32) if x.dtype is _F16 else x         # (halves: computed in float, rounded once)
    z = np.asarray(_vec_exp(-np.abs(f)), f.dtype)
    out = make(np.asarray(np.minimum(f, f.dtype.type(0)) - _log1p(z), x.dtype, order='C'))   # (contiguous)
    z = z.astype(x.dtype, copy=False)
    return _attach(out, LogSigmoidBackward0, (a,), {'buffer': SavedTensor(make(z)), 'self': SavedTensor(a)})


class LogSigmoidBackward0(Node):
    def apply(self, g):
        return (log_sigmoid_backward(g, self.saved('self'), self.saved('buffer')),)


def log_sigmoid_backward(g, x, buffer):
    """(max_deriv - sign * z / (1 + z)) * g, z = exp(-|x|) (max_deriv 1 and sign 1 where x < 0, else 0 and -1), as
    PyTorch's kernel: an op of its own for double backward."""
    z, one = buffer._data, buffer._data.dtype.type(1)
    neg = x._data < 0
    if z.dtype is _F16 and g._data.dtype is _F16:      # (halves: in float, rounded once)
        zf, onef = z.astype(_F32), _F32.type(1)
        out = make(((np.where(neg, onef, 0 * onef) - np.where(neg, onef, -onef) * (zf / (onef + zf)))
                    * g._data.astype(_F32)).astype(_F16))
    else:
        out = make((np.where(neg, one, 0 * one) - np.where(neg, one, -one) * (z / (one + z))) * g._data)
    if _recording(g, x):
        _attach(out, LogSigmoidBackwardBackward0, (g, x), {'buffer': SavedTensor(buffer), 'grad_output': SavedTensor(g),
                                                           'self': SavedTensor(x)})
    return out


class LogSigmoidBackwardBackward0(Node):
    def apply(self, gg):
        x, go = self.saved('self'), self.saved('grad_output')
        ggo = log_sigmoid_backward(gg, x, self.saved('buffer')) if self.needs(0) else None
        if not self.needs(1):                      # PyTorch's log_sigmoid_double_backward(gg * go, x):
            return ggo, None                       # grad * (z - 1) * z
        t = gg * go
        s = x.sigmoid()
        return ggo, t * _sub_scalar(s, 1) * s


def _softplus_grad(g, x, beta, threshold):
    bx = x._data * x._data.dtype.type(beta)
    if bx.dtype is _F32 and g._data.dtype is _F32:        # (PyTorch's kernel: its exp)
        z = _vec_exp(bx)
        return make(np.where(bx > threshold, g._data, g._data * z / (z + np.float32(1))))
    z = (x * beta).exp()
    return where(make(bx > threshold), g, g * z / (z + 1))


def softplus_backward(g, x, beta, threshold):
    """g * sigmoid(beta * x) (g where beta * x > threshold): an op of its own for double backward."""
    out = _in_float(_softplus_grad, g, x, beta, threshold)
    if _recording(g, x):
        _attach(out, SoftplusBackwardBackward0, (g, x), {'beta': beta, 'grad_output': SavedTensor(g),
                                                         'self': SavedTensor(x), 'threshold': threshold})
    return out


class SoftplusBackwardBackward0(Node):
    def apply(self, gg):
        s = self._saved
        go, x, beta = self.saved('grad_output'), self.saved('self'), s['beta']
        ggo = softplus_backward(gg, x, beta, s['threshold']) if self.needs(0) else None
        gx = None
        if self.needs(1):                          # softplus_double_backward(grad * grad_output, ...)
            bx = _mul_scalar(x, beta)
            below = make((bx._data < s['threshold']).astype(gg._data.dtype))
            gx = _mul_scalar(sigmoid_backward(gg * go, bx.sigmoid()) * below, beta)
        return ggo, gx


def elu(a, alpha=1.0, inplace=False):
    """x where x > 0, else alpha * (exp(x) - 1). inplace: the node of elu_, which saves the result."""
    _check_float(a, 'elu_cpu')
    alpha = _number(alpha)
    out = make(_elu_np(a._data, alpha, 1, 1))
    if inplace:
        return _attach(out, EluBackward1, (a,), {'alpha': alpha, 'input_scale': 1, 'result': _RESULT, 'scale': 1})
    return _attach(out, EluBackward0, (a,), {'alpha': alpha, 'input_scale': 1, 'scale': 1, 'self': SavedTensor(a)})


_expm1 = _rounded(np.expm1)


def _elu_np(x, alpha, scale, input_scale):
    """PyTorch's elu kernel: x * scale where x >= 0 (so elu(+-0) is +-0 whatever alpha's sign), else
    expm1(x * input_scale) * (alpha * scale), in x's dtype."""
    t = x.dtype.type
    negcoef, poscoef, negiptcoef = t(alpha) * t(scale), t(scale), t(input_scale)
    return np.where(x >= 0, x * poscoef, _expm1(x * negiptcoef) * negcoef).astype(x.dtype)


def _elu_grad(g, alpha, scale, input_scale, is_result, x, vector_nan):
    """PyTorch's elu_backward kernel (x is the output when is_result; vector_nan: where it is NaN in the vector
    loop's part)."""
    xd, gd = x._data, g._data
    t = xd.dtype.type
    negcoef, poscoef, negiptcoef = t(alpha) * t(scale), t(scale), t(input_scale)
    if is_result:
        if negcoef < 0:                     # (the output no longer tells which side x was on)
            raise RuntimeError('In-place elu backward calculation is triggered with a negative slope which is not '
                               'supported. This is caused by calling in-place forward function with a negative '
                               'slope, please call out-of-place version instead.')
        neg = gd * negiptcoef * (xd + negcoef)
    else:
        e = _vec_exp(xd * negiptcoef) if xd.dtype == _F32 else np.exp(xd * negiptcoef)
        neg = gd * negiptcoef * negcoef * e
    # NaN: the scalar loop's x <= 0 is false (grad * scale); the vector loop blends the negative side's NaN in
    return make(np.where((xd <= 0) | vector_nan, neg, gd * poscoef).astype(xd.dtype))


def elu_backward(g, alpha, scale, input_scale, is_result, x):
    """The gradient of elu (any scale, input_scale) from its input or (is_result) its output x: an op of its own
    (EluBackwardBackward0) for double backward."""
    vector_nan = _nan_in_vectors(x._data, 2)        # (two vectors at a time, of x's dtype: halves too)
    out = _in_float(lambda g, x: _elu_grad(g, alpha, scale, input_scale, is_result, x, vector_nan), g, x)
    if _recording(g, x):
        _attach(out, EluBackwardBackward0, (g, x), {
            'alpha': alpha, 'grad_output': SavedTensor(g), 'input_scale': input_scale, 'is_result': is_result,
            'scale': scale, 'self_or_result': SavedTensor(x)})
    return out


class EluBackwardBackward0(Node):
    """PyTorch's elu_double_backward for the input; elu_backward again for the incoming gradient."""

    def apply(self, gg):
        s = self._saved
        go, x = self.saved('grad_output'), self.saved('self_or_result')
        args = s['alpha'], s['scale'], s['input_scale']
        ggo = elu_backward(gg, *args, s['is_result'], x) if self.needs(0) else None
        gx = None
        if self.needs(1):
            scaled = _mul_scalar(gg * go, s['input_scale'])
            if not s['is_result']:
                scaled = elu_backward(scaled, *args, False, x)
            gx = scaled * make((x._data < 0).astype(gg._data.dtype))
        return ggo, gx


class EluBackward0(Node):
    def apply(self, g):
        s = self._saved
        return (elu_backward(g, s['alpha'], s['scale'], s['input_scale'], False, self.saved('self')),)


class EluBackward1(Node):
    def apply(self, g):
        s = self._saved
        return (elu_backward(g, s['alpha'], s['scale'], s['input_scale'], True, self.saved('result')),)


def silu(a):
    """x * sigmoid(x), as PyTorch's kernel computes it: x / (1 + exp(-x))."""
    _check_float(a, 'silu_cpu', 'fc')
    x = a._data
    if x.dtype is _F16:                             # (computed in float, rounded to half)
        out = _half(lambda f: f / (f.dtype.type(1) + _vec_exp(-f)), x)
    elif x.dtype is _F32:                           # (Sleef's exp over whole vectors, the C library's for the rest)
        one = np.float32(1)
        out = _vec_loop(x, lambda f: f / (one + _vec_exp(-f)), lambda f: f / (one + _exp(-f)))
    else:
        out = x / (x.dtype.type(1) + _vec_exp(-x)) if x.dtype.kind == 'f' else x * _sigmoid(x)
    return _attach(make(out), SiluBackward0, (a,), {'self': SavedTensor(a)})


class SiluBackward0(Node):
    def apply(self, g):
        x = self.saved('self')
        s = x.sigmoid()
        if _recording(g, x):               # PyTorch's grad * s * (1.0 + x * (1.0 - s)), C++ scalars
            return (g * s * _add_scalar(x * _scalar_sub(1.0, s), 1.0),)
        if x._data.dtype is _F32 and g._data.dtype is _F32:    # (its kernel: 1 + x * (1 - s) fused)
            sd = s._data
            return (make(g._data * sd * _fma32(x._data, 1 - sd, 1)),)
        if x._data.dtype is _F16 and g._data.dtype is _F16:    # (halves: the same in float, rounded once)
            xf, sf = x._data.astype(_F32), _sigmoid(x._data.astype(_F32))
            return (make((g._data.astype(_F32) * sf * _fma32(xf, 1 - sf, 1)).astype(_F16)),)
        if x._data.dtype == _F64 and g._data.dtype == _F64:    # (doubles: fused as well)
            sd = s._data
            return (make(g._data * sd * _fma64(x._data, 1 - sd, 1.0)),)
        return (g * s * (1 + x * (1 - s)),)


def _erf_np(x):
    """erf to within 1.2e-7 (Numerical Recipes' erfc, vectorised: numpy has no erf)."""
    z = np.abs(x, dtype=np.float64)
    t = 1.0 / (1.0 + 0.5 * z)
    poly = -z * z - 1.26551223 + t * (1.00002368 + t * (0.37409196 + t * (0.09678418 + t * (
        -0.18628806 + t * (0.27886807 + t * (-1.13520398 + t * (1.48851587 + t * (-0.82215223 + t * 0.17087277))))))))
    return np.sign(x) * (1.0 - t * np.exp(poly))


_erf64 = np.frompyfunc(math.erf, 1, 1)


def _erf_vec32(x):
    """erf of a float32 array as PyTorch's vectorised kernels compute it (Vectorized<float>::erf): Abramowitz and
    Stegun's 7.1.26 in fused multiply-adds with Sleef's expf, within 1.5e-7 (not rounded correctly: what GELU uses)."""
    one = np.float32(1)
    t = one / _fma32(np.float32(0.3275911), np.abs(x), one)
    r = _fma32(np.float32(1.061405429), t, np.float32(-1.453152027))
    for c in (1.421413741, -0.284496736, 0.254829592):
        r = _fma32(r, t, np.float32(c))
    e = _fma32(-_vec_exp(-(x * x)) * t, r, one)
    return np.where(np.signbit(x), -e, e)


def erf(a):
    """The error function (what exact GELU is made of): math.erf in float64, rounded once for float32, which agrees
    with PyTorch's (MKL's) float32 erf on ~99% of inputs (a rational approximation of it: ~84%)."""
    d = _float_dtype(a)
    if a._data.dtype == np.float16:     # (halves go through Vectorized<float>::erf, tails too: erf of 6e-8 is 0)
        return _attach(_out(_erf_vec32(a._data.astype(np.float32)), d), ErfBackward0, (a,), {'self': SavedTensor(a)})
    x = a._data.astype(np.float64)
    r = _erf64(x).astype(np.float64) if x.ndim else np.float64(math.erf(x))
    return _attach(_out(r, d), ErfBackward0, (a,), {'self': SavedTensor(a)})


class ErfBackward0(Node):
    def apply(self, g):
        x = self.saved('self')
        return (_mul_scalar((-(x ** 2)).exp(), 2 / math.sqrt(math.pi)) * g,)     # 2 / sqrt(pi) * exp(-x^2) * grad


_TANH_K = math.sqrt(2 / math.pi)


def gelu(a, *, approximate='none'):
    """x * Phi(x) (Phi: the standard normal CDF), or its tanh approximation."""
    if approximate not in ('none', 'tanh'):
        raise RuntimeError('approximate argument must be either none or tanh.')
    _check_float(a, 'GeluKernelImpl')
    x = np.positive(a._data, dtype=np.float64)        # (laid out as PyTorch's result: see _ops._rounded)
    if approximate == 'tanh':
        r = 0.5 * x * (1 + np.tanh(_TANH_K * (x + 0.044715 * x ** 3)))
    elif a._data.dtype == np.float64:               # (PyTorch's double erf is all but exact: math.erf)
        r = x * 0.5 * (1 + np.asarray(_erf64(x * _SQRT1_2), dtype=np.float64))
    elif a._data.dtype != np.float32:
        r = 0.5 * x * (1 + _erf_np(x / math.sqrt(2)))
    elif a._data.size == 1:     # one float: the kernel's scalar loop, in float with erff (-0. for -0., as x * 0.5 * ...)
        f = a._data
        e = np.asarray(_erf64((f * np.float32(_SQRT1_2)).astype(np.float64)), dtype=np.float64).astype(np.float32)
        r = (f * np.float32(0.5)) * (np.float32(1) + e)
    else:   # PyTorch's vectorised float kernel: x/2 + x/2 * erf(x * sqrt(1/2)) in one multiply-add, with its erf
        h = a._data * np.float32(0.5)
        r = _fma32(h, _erf_vec32(a._data * np.float32(_SQRT1_2)), h)
        # (a zero takes the sign of x, as oneDNN's (x * (1 + erf)) * 0.5, which PyTorch runs for contiguous floats,
        # gives it: gelu(-0.) is -0., and so is gelu(-20.), where erf is -1)
        np.copysign(r, a._data, out=r, where=r == 0)
    return _attach(_out(r, a.dtype), GeluBackward0, (a,), {'approximate': approximate, 'self': SavedTensor(a)})


class GeluBackward0(Node):
    def apply(self, g):
        return (gelu_backward(g, self.saved('self'), self._saved['approximate']),)


def _gelu_grad(g, x, approximate):
    if approximate == 'tanh':
        inner = _TANH_K * (x + 0.044715 * x * x * x)
        t = inner.tanh()
        return g * (0.5 * (1 + t) + 0.5 * x * (1 - t * t) * _TANH_K * (1 + 3 * 0.044715 * x * x))
    cdf = 0.5 * (1 + erf(x * _SQRT1_2))              # (M_SQRT1_2: 1 / math.sqrt(2) is a double below it)
    pdf = (-0.5 * x * x).exp() * (1 / math.sqrt(2 * math.pi))
    if x._data.dtype == _F64:                          # (doubles: cdf + x * pdf in one fused multiply-add)
        return g * make(_fma64(x._data, pdf._data, cdf._data))
    return g * (cdf + x * pdf)


def gelu_backward(g, x, approximate):
    """The gradient of gelu: an op of its own for double backward."""
    out = _in_float(_gelu_grad, g, x, approximate)
    if _recording(g, x):
        _attach(out, GeluBackwardBackward0, (g, x), {'approximate': approximate, 'grad_output': SavedTensor(g),
                                                     'self': SavedTensor(x)})
    return out


_SQRT1_2 = math.sqrt(0.5)
_2_SQRTPI = 2 / math.sqrt(math.pi)


def _gelu_double_backward(ggi, go, x, approximate):
    """PyTorch's gelu_double_backward, op for op."""
    if approximate == 'tanh':
        beta, kappa = math.sqrt(2) * _2_SQRTPI * 0.5, 0.044715
        inner = _mul_scalar(x + _mul_scalar(x ** 3, kappa), beta)
        tanh_inner = inner.tanh()
        sech_inner = div(make(np.ones_like(x._data)), inner.cosh())
        f = _mul_scalar(x, 0.5)
        g = _scalar_sub(1, tanh_inner * tanh_inner)
        h = _mul_scalar(_add_scalar(_mul_scalar(x, 3 * kappa) * x, 1), beta)
        f_prime_gh = _mul_scalar(g, 0.5) * h
        g_prime = _mul_scalar(sech_inner, 2) * (-sech_inner * tanh_inner) * h
        g_prime_fh = f * h * g_prime
        h_prime_fg = f * g * _mul_scalar(_mul_scalar(x, 6 * kappa), beta)
        return ggi * go * (_mul_scalar(f_prime_gh, 2) + g_prime_fh + h_prime_fg)
    input_sq = x * x
    pdf = _mul_scalar(_mul_scalar(input_sq, -0.5).exp(), _2_SQRTPI * _SQRT1_2 * 0.5)
    return ggi * go * (_mul_scalar(pdf, 2) - input_sq * pdf)


class GeluBackwardBackward0(Node):
    def apply(self, gg):
        go, x, approximate = self.saved('grad_output'), self.saved('self'), self._saved['approximate']
        return (gelu_backward(gg, x, approximate) if self.needs(0) else None,
                _gelu_double_backward(gg, go, x, approximate) if self.needs(1) else None)


# ================================================================================================ linear algebra

def addmm(input, mat1, mat2, *, beta=1, alpha=1):
    """beta * input + alpha * (mat1 @ mat2): what nn.Linear computes for a batch (input is the bias)."""
    beta, alpha = _number(beta), _number(alpha)
    for name, m in (('self', input), ('mat1', mat1)):            # (PyTorch checks dtypes before shapes)
        if m._data.dtype is not mat2._data.dtype:
            raise RuntimeError('%s and mat2 must have the same dtype, but got %s and %s'
                               % (name, m.dtype.legacy, mat2.dtype.legacy))
    for name, m in (('mat1', mat1), ('mat2', mat2)):
        if m._data.ndim != 2:
            raise RuntimeError('%s must be a matrix, got %d-D tensor' % (name, m._data.ndim))
    if mat1._data.shape[1] != mat2._data.shape[0]:
        raise RuntimeError('mat1 and mat2 shapes cannot be multiplied (%dx%d and %dx%d)'
                           % (mat1._data.shape + mat2._data.shape))
    rows, cols = mat1._data.shape[0], mat2._data.shape[1]
    if input._data.ndim > 2 or any(b not in (1, n) for b, n in zip(input._data.shape[::-1], (cols, rows))):
        input.expand(rows, cols)                        # (a bias that cannot expand: expand's error)
    x, y, bias = mat1._data, mat2._data, input._data
    if x.dtype.kind in 'iu':                            # (an integer kernel takes beta and alpha as ints)
        beta, alpha = int(beta), int(alpha)
    fused = None
    if (beta == 1 and alpha == 1 and x.dtype == np.float32 and bias.dtype == np.float32 and all(x.shape) and y.shape[1]
            and bias.ndim <= 2 and all(d in (1, t) for d, t in zip(bias.shape[::-1], (y.shape[1], x.shape[0])))):
        fused = _mkl_gemm(x, y, bias)                   # MKL's order of additions, bias included
    if fused is not None:
        prod = fused
        out = _out(fused, mat1.dtype)
    else:
        half = x.dtype is _F16                          # (halves: in float, the sum with the bias rounded once)
        if half:
            x, y, bias = x.astype(_F32), y.astype(_F32), bias.astype(_F32)
        # (MKL's product where modelled, the bias added after it: for small shapes PyTorch's addmm gives what
        # mm and then + bias give, bit for bit)
        prod = _mm_values(x, y) if x.dtype == np.float32 and y.dtype == np.float32 and x.size and y.size else x @ y
        if alpha != 1:
            prod = prod * alpha
        # (beta 0: input ignored, its nan and inf too)
        prod = prod if beta == 0 else prod + (bias if beta == 1 else bias * beta)
        out = _out(prod.astype(_F16) if half else prod, mat1.dtype)
    if ag.grad_enabled and (input._requires_grad or mat1._requires_grad or mat2._requires_grad):
        item = mat1._data.itemsize
        _attach(out, AddmmBackward0, (input, mat1, mat2), {
            'alpha': alpha, 'beta': beta,
            'mat1': SavedTensor(mat1) if _edge(mat2) else None, 'mat1_sym_sizes': mat1._data.shape,
            'mat1_sym_strides': tuple(s // item for s in mat1._data.strides) if mat1._requires_grad else (),
            'mat2': SavedTensor(mat2) if _edge(mat1) else None, 'mat2_sym_sizes': mat2._data.shape,
            'mat2_sym_strides': tuple(s // item for s in mat2._data.strides) if mat2._requires_grad else ()})
    return out


class AddmmBackward0(Node):
    def apply(self, g):
        saved = self._saved
        alpha, beta = saved['alpha'], saved['beta']
        mat1, mat2 = self.saved_pair('mat1', 'mat2')
        ga = mm_mat1_backward(g, mat2, saved['mat1_sym_sizes'], saved['mat1_sym_strides']) if self.needs(1) else None
        if alpha != 1 and ga is not None:   # (PyTorch's maybe_multiply: times a C++ number, MulBackward1; each
            ga = _mul_scalar(ga, alpha)     # gradient in turn, in the order of the inputs' names: mat1, mat2, self)
        gb = mm_mat2_backward(g, mat1, saved['mat2_sym_sizes'], saved['mat2_sym_strides']) if self.needs(2) else None
        if alpha != 1 and gb is not None:
            gb = _mul_scalar(gb, alpha)
        return (g if beta == 1 else _mul_scalar(g, beta)) if self.needs(0) else None, ga, gb


def linear(input, weight, bias=None):
    """input @ weight.T + bias, recorded as PyTorch records it: AddmmBackward0 for a batch of rows (other inputs
    flattened to rows, then viewed back) when the bias is one row; else matmul, then the bias added in place."""
    for pos, (name, t) in enumerate((('input', input), ('weight', weight), ('bias', bias)), 1):
        if not isinstance(t, Tensor) and (t is not None or pos < 3):
            raise TypeError("linear(): argument '%s' (position %d) must be Tensor, not %s"
                            % (name, pos, parser_type(t)))
    if input._data.ndim == 0 or weight._data.ndim == 0:
        raise RuntimeError('both arguments to linear need to be at least 1D, but they are %dD and %dD'
                           % (input._data.ndim, weight._data.ndim))
    if bias is None:
        return input.matmul(weight.t())
    if input._data.ndim == 2:
        return addmm(bias, input, weight.t())
    b = bias._data
    # (PyTorch flattens only a contiguous input: a transposed one, as MultiheadAttention's, goes through matmul)
    if b.ndim and b.size == b.shape[-1] and input.is_contiguous():     # (a 1-d weight: addmm's error)
        rows = input.reshape(-1, input._data.shape[-1])
        return addmm(bias, rows, weight.t()).view(input._data.shape[:-1] + (weight._data.shape[0],))
    return input.matmul(weight.t()).add_(bias)


# ================================================================================================ losses

def reduction_enum(reduction):
    if reduction not in _REDUCTIONS:
        if reduction == 'elementwise_mean':     # (the old name of 'mean', still accepted)
            warnings.warn("reduction='elementwise_mean' is deprecated. Please use reduction='mean' instead.",
                          stacklevel=3)
            return 1
        raise ValueError('%s is not a valid value for reduction' % reduction)
    return _REDUCTIONS[reduction]


def _reduce(x, reduction):
    """A loss's elements (array x) reduced: none, mean or sum, adding in PyTorch's order (see _ops._add_reduce)."""
    if reduction == 0:
        return x
    if x.dtype is _F16:                 # (PyTorch sums halves in float, then rounds: no overflow past 65504)
        return _half(_reduce, x, reduction)
    s = np.asarray(_add_reduce(x), x.dtype)
    return s if reduction == 2 else np.asarray(s / x.dtype.type(x.size) if x.size else np.nan, x.dtype)


def mse_loss(input, target, size_average=None, reduce=None, reduction='mean', weight=None):
    """Mean (or sum) of squared differences (each times its weight, if given)."""
    size = input.size() if weight is not None else None
    input, target = _broadcast_loss_args(input, target, 3)       # (its warning comes before the legacy flags')
    reduction = _legacy_reduction(size_average, reduce, reduction)
    if weight is not None:
        return _weighted_loss(lambda: (input - target).pow(2), weight, size, reduction, True)
    r = reduction_enum(reduction)
    d = _loss_dtype(input, target, 'mse')
    x, t = _cast(input._data, d.np), _cast(target._data, d.np)   # (the kernel's dtype)
    diff = _iter_laid_out(x - t, x, t)
    out = _out(_reduce(diff * diff, r), d)
    return _attach(out, MseLossBackward0, (input, target), {'reduction': r, 'self': SavedTensor(input),
                                                            'target': SavedTensor(target)})


class MseLossBackward0(Node):
    def apply(self, g):
        x, t = self.saved('self'), self.saved('target')
        r = self._saved['reduction']
        if _recording(g, x, t):                    # each gradient its own op, as in PyTorch
            return (mse_loss_backward(g, x, t, r) if self.needs(0) else None,
                    mse_loss_backward(g, t, x, r) if self.needs(1) else None)
        return (_mse_grad(g, x, t, r) if self.needs(0) else None, _mse_grad(g, t, x, r) if self.needs(1) else None)


def _bool_as(t, x):
    """A bool target as x's dtype: the loss kernels' TensorIterator casts it (where `x - t` would be refused)."""
    return make(t._data.astype(x._data.dtype)) if t._data.dtype.kind == 'b' else t


def _mse_grad(g, x, t, r):
    t = _bool_as(t, x)
    norm = 2.0 / _count(x) if r == 1 else 2.0
    if x.dtype is dt.float16:               # (PyTorch's half kernel holds the factor as a half)
        norm = float(np.float16(norm))
    return _contiguous_grad(norm * (x - t) * g)


def _contiguous_grad(t):
    """A loss's input gradient laid out contiguously, as its kernel's output is (empty_like(input, contiguous)),
    whatever the input's layout (a transposed input's gradient then sums as PyTorch's further back)."""
    return t if t._data.flags.c_contiguous else make(np.ascontiguousarray(t._data))


def _count(x):
    """The element count a mean divides by; inf for none, as C++'s 1. / 0 (the gradient is empty then)."""
    return x._data.size or math.inf


def mse_loss_backward(g, x, t, r):
    """2 (x - t) g (divided by the count for mean): an op of its own (MseLossBackwardBackward0) for double
    backward."""
    out = _no_grad_value(_mse_grad, g, x, t, r)
    if _recording(g, x, t):
        _attach(out, MseLossBackwardBackward0, (g, x, t), {'grad_output': SavedTensor(g), 'reduction': r,
                                                           'self': SavedTensor(x), 'target': SavedTensor(t)})
    return out


class MseLossBackwardBackward0(Node):
    def apply(self, gg):
        go, x, t = self.saved('grad_output'), self.saved('self'), self.saved('target')
        r = self._saved['reduction']
        ggo = mse_loss_backward(gg, x, t, r) if self.needs(0) else None
        gx = None
        if self.needs(1) or self.needs(2):         # mse_loss_double_backward(grad * grad_output, ...)
            gx = _mul_scalar(gg * go, 2)
            if r == 1:
                gx = _div_scalar(gx, x._data.size)
        return ggo, gx if self.needs(1) else None, -gx if self.needs(2) else None


def _loss_dtype(input, target, kernel):
    """The dtype a loss kernel computes in; PyTorch has no integer kernels."""
    d = dt.result_type(input, target)
    if not d.is_floating_point:
        raise NotImplementedError('"%s_cpu" not implemented for \'%s\'' % (kernel, d.legacy))
    return d


def _weighted_loss(loss, weight, size, reduction, by_weight):
    """PyTorch's weighted mse, l1 and huber losses, composed of ordinary ops: loss() (no reduction) times the
    weight, which must have the input's `size`; the mean divides the sum by the weights' sum (by_weight) or by the
    count (huber)."""
    if weight.size() != size:
        raise ValueError('Weights and input must have the same size.')
    out = loss() * weight
    if reduction == 'none':
        return out
    if reduction == 'sum':
        return out.sum()
    if reduction == 'mean':
        return out.sum() / weight.sum() if by_weight else out.mean()
    raise ValueError("Invalid reduction mode: %s. Expected one of 'none', 'mean', 'sum'." % reduction)


def _broadcast_loss_args(input, target, stacklevel):
    """PyTorch's warning when target and input sizes differ; both expanded to the common shape (its error when there
    is none). As in PyTorch, a target or input that is no tensor fails on reading its size()."""
    if target.size() != input.size():
        warnings.warn('Using a target size (%r) that is different to the input size (%r). This will likely lead to '
                      'incorrect results due to broadcasting. Please ensure they have the same size.'
                      % (target.shape, input.shape), UserWarning, stacklevel=stacklevel)
        _check_broadcast(input._data.shape, target._data.shape)
        shape = np.broadcast_shapes(input._data.shape, target._data.shape)
        # (torch.broadcast_tensors: one already of that shape is passed on as it is, with no ExpandBackward0)
        input, target = (t if t._data.shape == shape else t.expand(shape) for t in (input, target))
    return input, target


def smooth_l1_loss(input, target, size_average=None, reduce=None, reduction='mean', beta=1.0):
    """0.5 d**2 / beta where |d| < beta, else |d| - 0.5 beta (d = input - target); beta 0 is the l1 loss."""
    if beta == 0:
        from .nn.functional import l1_loss
        return l1_loss(input, target, size_average, reduce, reduction)
    # PyTorch's order: the size warning, the legacy flags' warning, then the kernel's check of beta
    input, target = _broadcast_loss_args(input, target, 3)
    reduction = _legacy_reduction(size_average, reduce, reduction)
    if beta < 0:
        raise RuntimeError('smooth_l1_loss does not support negative values for beta.')
    return _huber(input, target, reduction, beta, SmoothL1LossBackward0)


def huber_loss(input, target, reduction='mean', delta=1.0, weight=None):
    """0.5 d**2 where |d| < delta, else delta (|d| - 0.5 delta) (d = input - target), each times its weight if
    given."""
    size = input.size() if weight is not None else None
    input, target = _broadcast_loss_args(input, target, 3)      # (its warning comes before the check of delta)

    def loss(reduction):
        if delta <= 0:
            raise RuntimeError('huber_loss does not support non-positive values for delta.')
        return _huber(input, target, reduction, delta, HuberLossBackward0)
    return loss(reduction) if weight is None else _weighted_loss(lambda: loss('none'), weight, size, reduction, False)


def _huber(input, target, reduction, k, cls):
    """The smooth l1 (cls SmoothL1LossBackward0, k = beta) or Huber (k = delta) loss, as PyTorch's kernels compute
    them in the input's dtype."""
    r = reduction_enum(reduction)
    input, target = _broadcast_loss_args(input, target, 4)
    d = _loss_dtype(input, target, 'smooth_l1' if cls is SmoothL1LossBackward0 else 'huber')
    z = np.abs(input._data.astype(d.np, copy=False) - target._data.astype(d.np, copy=False))
    kk, half = d.np.type(k), d.np.type(0.5)
    if cls is SmoothL1LossBackward0:
        loss = np.where(z < kk, half * z * z / kk, z - half * kk)
    else:
        loss = np.where(z < kk, half * z * z, kk * (z - half * kk))
    name = 'beta' if cls is SmoothL1LossBackward0 else 'delta'
    if cls is HuberLossBackward0:                  # (huber_loss writes into empty_like(input): the input's dtype)
        if not dt.can_cast(d, input.dtype):
            raise RuntimeError("result type %s can't be cast to the desired output type %s"
                               % (d.legacy, input.dtype.legacy))
        d = input.dtype
    return _attach(_out(_reduce(loss.astype(d.np, copy=False), r), d), cls, (input, target),
                   {name: float(k), 'reduction': r, 'self': SavedTensor(input), 'target': SavedTensor(target)})


class SmoothL1LossBackward0(Node):
    def apply(self, g):
        x, t = self.saved('self'), self.saved('target')
        smooth = type(self) is SmoothL1LossBackward0
        if not smooth and t._data.dtype != x._data.dtype:    # (huber_loss_backward's TensorIterator: one dtype)
            raise RuntimeError('Found dtype %s but expected %s' % (t.dtype.legacy, x.dtype.legacy))
        k = self._saved['beta'] if smooth else self._saved['delta']
        r = self._saved['reduction']
        if _recording(g, x, t):                    # each gradient its own op, as in PyTorch
            return (_huber_backward(g, x, t, r, k, smooth) if self.needs(0) else None,
                    _huber_backward(g, t, x, r, k, smooth) if self.needs(1) else None)
        return (_huber_grad(g, x, t, r, k, smooth) if self.needs(0) else None,
                _huber_grad(g, t, x, r, k, smooth) if self.needs(1) else None)


class HuberLossBackward0(SmoothL1LossBackward0):
    pass


def _huber_grad(g, x, t, r, k, smooth):
    t = _bool_as(t, x)
    kernel = _huber_grad_kernel(g._data, x._data, t._data, r, k, smooth)
    if kernel is not None:
        return make(kernel)
    norm = 1.0 / _count(x) if r == 1 else 1.0
    diff = x - t
    outer = g * norm if smooth else g * norm * k
    inner = diff * norm * g / k if smooth else diff * norm * g
    return _contiguous_grad(where(diff <= -k, -outer, where(diff >= k, outer, inner)))


def _huber_grad_kernel(g, x, t, r, k, smooth):
    """smooth_l1 / huber backward as PyTorch's CPU kernel computes it for contiguous float operands of one shape (the
    gradient one value or of that shape too); None elsewhere. Whole vectors (64 bytes) take the vector lambda: the
    ratio x / beta (or x, or +-delta) in the dtype, times norm, times the gradient; the numbers after them the scalar
    one, whose beta / delta stays a double: norm * x * g / beta, -norm * g * delta."""
    dtype = x.dtype
    if (dtype.kind != 'f' or dtype.itemsize < 4 or t.dtype is not dtype or g.dtype is not dtype or t.shape != x.shape
            or not (x.flags.c_contiguous and t.flags.c_contiguous) or g.size != 1 and (
                g.shape != x.shape or not g.flags.c_contiguous)):
        return None
    one = dtype.type(1)
    norm = dtype.type(1.0 / x.size if r == 1 and x.size else 1.0)
    d = x - t
    kk = dtype.type(k)
    gv = g.reshape(()) if g.size == 1 else g
    with np.errstate(divide='ignore', invalid='ignore'):
        sign = np.where(d > 0, one, -one)
        if smooth:
            vec = norm * np.where(np.abs(d) >= kk, sign, d / kk) * gv
            inner = ((norm * d * gv).astype(np.float64) / k).astype(dtype)
            edge = norm * gv
        else:
            vec = norm * np.where(np.abs(d) >= kk, sign * kk, d) * gv
            inner = norm * d * gv
            edge = ((norm * gv).astype(np.float64) * k).astype(dtype)
        scalar = np.where(d <= -k, -edge, np.where(d >= k, edge, inner))
    out = vec.reshape(-1)
    whole = x.size - x.size % (64 // dtype.itemsize)
    out[whole:] = np.broadcast_to(scalar, x.shape).reshape(-1)[whole:]
    return out.reshape(x.shape)


def _huber_backward(g, x, t, r, k, smooth):
    """smooth_l1_loss_backward (smooth) or huber_loss_backward: an op of its own for double backward."""
    out = _no_grad_value(_huber_grad, g, x, t, r, k, smooth)
    if _recording(g, x, t):
        _attach(out, SmoothL1LossBackwardBackward0 if smooth else HuberLossBackwardBackward0, (g, x, t),
                {'beta' if smooth else 'delta': k, 'grad_output': SavedTensor(g), 'reduction': r,
                 'self': SavedTensor(x), 'target': SavedTensor(t)})
    return out


class SmoothL1LossBackwardBackward0(Node):
    def apply(self, gg):
        go, x, t = self.saved('grad_output'), self.saved('self'), self.saved('target')
        smooth = type(self) is SmoothL1LossBackwardBackward0
        r = self._saved['reduction']
        k = self._saved['beta' if smooth else 'delta']
        ggo = gx = None
        if self.needs(0):
            if smooth or r == 0:
                ggo = _huber_backward(gg, x, t, r, k, smooth)
            else:                                  # huber_loss_double_backward_grad_output
                ggo = (_huber_backward(make(np.ones_like(go._data)), x, t, r, k, smooth) * gg).sum()
        if self.needs(1) or self.needs(2):         # (smooth_l1 / huber)_loss_double_backward(grad * grad_output)
            inside = np.abs(x._data - t._data) < x._data.dtype.type(k)
            if smooth:
                gx = (_zeros_like(gg) if k == 0 else
                      _div_scalar(gg * go * make(inside.astype(gg._data.dtype)), k))
            else:
                gx = gg * go * make(inside)
            if r == 1:
                gx = _div_scalar(gx, x._data.size)
        return ggo, gx if self.needs(1) else None, -gx if self.needs(2) else None


class HuberLossBackwardBackward0(SmoothL1LossBackwardBackward0):
    pass


def _legacy_reduction(size_average, reduce, reduction):
    """PyTorch's mapping of the deprecated size_average / reduce flags onto reduction."""
    if size_average is None and reduce is None:
        return reduction
    size_average, reduce = size_average is None or size_average, reduce is None or reduce    # (truth values)
    ret = 'mean' if size_average and reduce else 'sum' if reduce else 'none'
    warnings.warn("size_average and reduce args will be deprecated, please use reduction='%s' instead." % ret,
                  UserWarning, stacklevel=user_stacklevel())     # (at the user's line, from a loss module or not)
    return ret


def _tensor_arguments(kernel, input, target, *rest):
    """PyTorch's TypeError when a loss's input or target is not a tensor (`kernel`: the C++ function parsing them);
    rest: the kernel's other arguments, read by its signature in _argparse (`ignore_index=1.5`)."""
    for pos, (name, t) in enumerate((('input', input), ('target', target)), 1):
        if not isinstance(t, Tensor):
            raise TypeError("%s(): argument '%s' (position %d) must be Tensor, not %s"
                            % (kernel, name, pos, parser_type(t)))
    if rest:
        _argparse.parser(kernel, True).check((input, target) + rest, {})


def _check_no_requires_grad(t, arg, fn):
    """PyTorch's error for a tensor argument that its derivative formulas do not differentiate (a loss's class weights,
    batch norm's running statistics) and that requires grad, in grad mode (checked before the kernel's checks)."""
    if t is not None and t._requires_grad and ag.grad_enabled and not t._fw_only:
        raise RuntimeError("The function '%s' is not differentiable with respect to argument '%s'. This input cannot "
                           "have requires_grad True." % (fn, arg))


def nll_loss(input, target, weight=None, size_average=None, ignore_index=-100, reduce=None, reduction='mean'):
    """The negative log-likelihood of the target classes, given log-probabilities (class dim 1)."""
    r = reduction_enum(_legacy_reduction(size_average, reduce, reduction))
    _tensor_arguments('nll_loss_nd', input, target, weight, r, ignore_index)
    ignore_index = builtins.int(ignore_index)        # (read by the parser as an int: np.int64(1), tensor(1))
    nd = input._data.ndim
    if nd < 1:
        raise ValueError('Expected 1 or more dimensions (got %d)' % nd)
    batch = target._data.shape[0] if target._data.ndim else 0      # (PyTorch reads a 0-d target's batch as 0)
    if nd >= 2 and input._data.shape[0] != batch:
        raise ValueError('Expected input batch_size (%d) to match target batch_size (%d).'
                         % (input._data.shape[0], batch))
    if nd <= 2:
        _check_no_requires_grad(weight, 'weight', 'nll_loss_forward')
    if nd <= 2 and target._data.ndim > 1:
        raise RuntimeError('0D or 1D target tensor expected, multi-target not supported')
    shape, tshape = input._data.shape, target._data.shape
    if (nd == 3 or nd > 4) and tshape[1:] != shape[2:]:
        raise RuntimeError('Expected target size %s, got %s' % (_sizes(shape[:1] + shape[2:]), _sizes(tshape)))
    if nd > 2:
        _check_no_requires_grad(weight, 'weight', 'nll_loss2d_forward')
    if nd == 4 and len(tshape) != 3:
        raise RuntimeError('only batches of spatial targets supported (3D tensors) but got targets of dimension: %d'
                           % len(tshape))
    if target._data.dtype.type not in (np.int64, np.uint8):      # (before the target's size and the weight)
        raise RuntimeError('expected target dtype to be Long or Byte, but got ' + target.dtype.legacy)
    if nd == 2 and not target._data.ndim:            # (an empty batch and a 0-d target: its size(0) fails)
        raise IndexError('Dimension specified as 0 but tensor has no dimensions')
    if nd == 1 and target._data.ndim == 1 and target._data.shape[0] != 1:
        raise ValueError('For 1D input, 1D target must have size 1, but got target size: %d' % target._data.shape[0])
    classes = shape[1 if nd >= 2 else 0]
    if weight is not None and (weight._data.size != classes or nd < 3 and weight._data.ndim != 1):
        raise RuntimeError('weight tensor should be defined either for all or no classes' if nd >= 3 else
                           'weight tensor should be defined either for all %d classes or no classes but got weight '
                           'tensor of shape: %s' % (classes, _sizes(weight._data.shape)))
    if nd == 4 and tshape != shape[:1] + shape[2:]:
        raise RuntimeError('size mismatch (got input: %s , target: %s' % (_sizes(shape), _sizes(tshape)))
    if not input.is_floating_point():                  # (the kernel's dispatch: floats only)
        raise NotImplementedError('"%s" not implemented for \'%s\'' % (
            'nll_loss_out_frame' if nd <= 2 else 'nll_loss2d_forward_out_frame', input.dtype.legacy))
    if weight is not None and weight.dtype != input.dtype:     # (the kernel reads the weights as the input's type)
        raise RuntimeError('expected scalar type %s but found %s' % (input.dtype.legacy, weight.dtype.legacy))
    if nd == 4 and target._data.dtype.type is np.uint8:       # (the spatial kernel reads its targets as int64 only)
        raise RuntimeError('expected scalar type Long but found Byte')
    if nd == 3 or nd > 4:                # PyTorch views these as 4-D (N, C, 1, rest) and uses the 2-D loss
        n, c = shape[:2]                 # (empty: (N, C, 0, 0) and (N, 0, 0))
        out = nll_loss(input.reshape((n, c) + ((1, -1) if input._data.size else (0, 0))),
                       target.reshape((n,) + ((1, -1) if target._data.size else (0, 0))), weight, None, ignore_index,
                       None, reduction)
        return out if r else out.view(target.shape)
    logp = np.moveaxis(input._data, 1, -1).reshape(-1, classes) if nd >= 2 else input._data.reshape(1, classes)
    t = target._data.reshape(-1).astype(np.int64)
    keep = t != ignore_index
    bad = t[keep & ((t < 0) | (t >= classes))]
    if bad.size:
        raise IndexError('Target %d is out of bounds.' % bad[0])
    safe = np.where(keep, t, 0)
    picked = logp[np.arange(t.size), safe]
    w = weight._data.reshape(-1)[safe] if weight is not None else None  # (a spatial loss takes any shape)
    if r == 0:                                     # (-x) * w, and 0 where ignored
        res = np.where(keep, -picked if w is None else -picked * w, 0).reshape(target._data.shape if nd > 1 else ())
        # (one sample goes through the kernel's reducing loop all the same: its total weight is the target's)
        total = np.asarray(0 if nd > 1 or not keep[0] else 1 if w is None else w[0], logp.dtype)
    else:
        at = np.flatnonzero(keep)
        loss = -_nll_sum(picked[at] if w is None else picked[at] * w[at], at) + logp.dtype.type(0)
        total = np.asarray(at.size if w is None else _nll_sum(w[at], at), logp.dtype)
        with np.errstate(divide='ignore', invalid='ignore'):            # (0 / 0 is nan, as in C)
            res = loss if r == 2 else loss / total
    node = NllLossBackward0 if nd <= 2 else NllLoss2DBackward0
    saved = {'ignore_index': ignore_index % 2 ** 64, 'reduction': r, 'self': SavedTensor(input),
             'target': SavedTensor(target), 'total_weight': SavedTensor(make(total)),
             'weight': SavedTensor(weight) if weight is not None else None}
    return _attach(_out(res, input.dtype), node, (input,), saved)


def _nll_sum(vals, at):
    """The sum of vals (a 1-d array) in the order PyTorch's CPU nll_loss adds its batch: from 0, in turn into a
    level-0 accumulator, which after each number at a position (`at`, ignored targets left out) that is a multiple
    of 16 goes into level 1 (and level 1 into level 2 at multiples of 256, ...: 8 levels); then the levels in
    order, from 0."""
    t = vals.dtype.type
    if not vals.size:
        return t(0)
    flush = at % 16 == 0
    group = np.cumsum(flush) - flush                 # the group of each number: groups end at a flush
    ends = np.flatnonzero(flush)
    starts = np.concatenate([[0], ends + 1])
    pos = np.arange(vals.size) - starts[group]
    cols = np.zeros((pos.max() + 1, group[-1] + 1), vals.dtype)    # a group per column, padded with zeros
    cols[pos, group] = vals
    sums = np.add.reduce(cols, axis=0) if cols.shape[1] > 1 else np.add.accumulate(cols[:, 0])[-1:]
    levels = [t(0)] * 8
    for k, total in enumerate(sums):                 # (a reduction over a dim that is not the innermost: in order)
        levels[0] = total
        if k < ends.size:
            b, j = builtins.int(at[ends[k]]), 0
            while True:
                levels[j + 1], levels[j] = levels[j + 1] + levels[j], t(0)
                j += 1
                if j == 7 or b & (15 << 4 * j):
                    break
    out = t(0)
    for level in levels:
        out = out + level
    return out


class NllLossBackward0(Node):
    def apply(self, g):
        s = self._saved
        weight = self.saved('weight') if s['weight'] is not None else None
        return (nll_loss_backward(g, self.saved('self'), self.saved('target'), weight, s['reduction'],
                                  s['ignore_index'], self.saved('total_weight'), type(self) is NllLoss2DBackward0),)


def nll_loss_backward(g, x, target, weight, r, ignore_index, total_weight, two_d=False):
    """PyTorch's nll_loss_backward (ignore_index as saved: unsigned): -w * g at each target class (divided by the
    total weight for mean), zero elsewhere; an op of its own (NllLossBackwardBackward0) for double backward."""
    t = target._data.reshape(-1).astype(np.int64)
    nd, shape = x._data.ndim, x._data.shape
    if nd == 1 and target._data.ndim == 1 and shape[0] != t.size:
        # (the forward takes a 1-d input's target of size 1; PyTorch's backward still compares it with the classes)
        raise RuntimeError('size mismatch (got input: %s, target: %s)' % (_sizes(shape), _sizes(target._data.shape)))
    classes = shape[1 if nd >= 2 else 0]
    keep = t != (ignore_index - 2 ** 64 if ignore_index >= 2 ** 63 else ignore_index)
    safe = np.where(keep, t, 0)
    w = weight._data.reshape(-1)[safe] if weight is not None else np.ones(t.shape, x._data.dtype)
    if r:                      # PyTorch's kernel: grad = -(g / total_weight) (mean) or -g; w * grad at the target
        go = g._data[()]
        grad = -(go / total_weight._data[()]) if r == 1 else -go
        vals = grad if weight is None else w * grad
    else:                      # -w * g, each
        vals = -w * g._data.reshape(-1)
    coef = np.zeros((t.size, classes), x._data.dtype)       # zero elsewhere, and where ignored
    coef[np.arange(t.size)[keep], safe[keep]] = vals[keep] if np.ndim(vals) else vals
    if nd >= 2:
        # (laid out as the input is in memory, row-major: PyTorch's kernel fills zeros_like(contiguous input))
        coef = np.ascontiguousarray(np.moveaxis(coef.reshape((shape[0],) + shape[2:] + (classes,)), -1, 1))
    else:
        coef = coef.reshape(shape)
    out = make(coef)
    if _recording(g, x):
        _attach(out, NllLoss2DBackwardBackward0 if two_d else NllLossBackwardBackward0, (g, x),
                {'ignore_index': ignore_index, 'reduction': r, 'target': SavedTensor(target),
                 'weight': SavedTensor(weight) if weight is not None else None})
    return out


class NllLossBackwardBackward0(Node):
    def apply(self, gg):
        s = self._saved
        weight = self.saved('weight') if s['weight'] is not None else None
        ignore = s['ignore_index']
        ggo = None
        if self.needs(0):
            ggo = nll_loss(gg, self.saved('target'), weight, ignore_index=ignore - 2 ** 64 if ignore >= 2 ** 63
                           else ignore, reduction=('none', 'mean', 'sum')[s['reduction']])
        else:
            self._unpack_all()
        return ggo, (_zeros_like(gg) if self.needs(1) else None)


class NllLoss2DBackwardBackward0(NllLossBackwardBackward0):
    pass


class NllLoss2DBackward0(NllLossBackward0):
    pass


def cross_entropy(input, target, weight=None, size_average=None, ignore_index=-100, reduce=None, reduction='mean',
                  label_smoothing=0.0):
    """nll_loss(log_softmax(input, class dim), target); float targets are class probabilities."""
    r = reduction_enum(_legacy_reduction(size_average, reduce, reduction))
    _tensor_arguments('cross_entropy_loss', input, target, weight, r, ignore_index, label_smoothing)
    ignore_index = builtins.int(ignore_index)        # (read by the parser as an int: np.int64(1), tensor(1))
    cdim = 0 if input._data.ndim == 1 else 1          # (a 0-d input's class dim is 1: out of range)
    probabilities = target._data.shape == input._data.shape
    if probabilities and not target.is_floating_point():          # (checked before log_softmax runs)
        raise RuntimeError('Expected floating point type for target with class probabilities, got '
                           + target.dtype.legacy)
    if probabilities and ignore_index >= 0:
        raise RuntimeError('ignore_index is not supported for floating point target')
    if label_smoothing > 1:
        raise RuntimeError('label_smoothing must be between 0.0 and 1.0. Got: %g' % label_smoothing)
    if probabilities:
        classes = input.size(cdim)
        if weight is not None and (weight._data.ndim != 1 or weight._data.size != classes):
            raise RuntimeError('cross_entropy: weight tensor should be defined either for all %d classes or no '
                               'classes but got weight tensor of shape: %s' % (classes, _sizes(weight._data.shape)))
    logp = log_softmax(input, cdim)
    classes = input._data.shape[cdim]
    wshape = [1] * input._data.ndim
    if weight is not None:                  # (PyTorch views the weight as its size(0) along the class dim)
        wshape[cdim] = weight.size(0)
    if probabilities:
        if label_smoothing > 0:                  # (C++ numbers: MulBackward1 and AddBackward1, as in PyTorch)
            target = _add_scalar(_mul_scalar(target, 1 - label_smoothing),       # (no classes: C++'s x / 0)
                                 label_smoothing / classes if classes else math.inf)
        prod = logp * target if weight is None else logp * target * weight.view(wshape)
        if r == 0:
            return -prod.sum(cdim)
        if r == 2:
            return -prod.sum()
        if not input._data.size:                 # (PyTorch's mean of nothing: the sum filled with NaN in place)
            return -prod.sum().fill_(math.nan)
        return _div_scalar(-prod.sum(), input._data.size // classes)
    loss = nll_loss(logp, target, weight, None, ignore_index, None, ('none', 'mean', 'sum')[r])
    if label_smoothing <= 0:
        return loss
    smooth = -(logp if weight is None else logp * weight.view(wshape)).sum(cdim)
    keep = make(target._data != ignore_index)
    smooth = smooth.masked_fill_(make(~keep._data), 0.)   # (in place: a 1-d input's [1] target does not fit)
    if r == 2:
        smooth = smooth.sum()
    elif r == 1:                                 # (divided by a tensor: the count, or the weights' sum)
        smooth = smooth.sum() / make(np.asarray(keep._data.sum(), np.int64) if weight is None else      # (the
                                     _add_reduce(weight._data[target._data[keep._data]]))   # weights summed as PyTorch)
    return _mul_scalar(loss, 1 - label_smoothing) + _mul_scalar(smooth, label_smoothing / classes)


def _check_bce(input, target, weight):
    """PyTorch's checks, in its order: the sizes, the weight expanded to the target's (its Python, reading
    weight.size()), then the kernel's dtypes. The weight as expanded (a shape beyond the input's is refused by the
    loss's mul_, after the kernel's check of the values: see binary_cross_entropy)."""
    if target.size() != input.size():
        raise ValueError('Using a target size (%r) that is different to the input size (%r) is deprecated. Please '
                         'ensure they have the same size.' % (target.shape, input.shape))
    if weight is not None and not isinstance(weight, Tensor):
        raise AttributeError("'%s' object has no attribute 'size'" % type(weight).__name__)
    if weight is not None and weight._data.shape != input._data.shape:
        from ._ops_index import broadcast_shapes
        weight = weight.expand(broadcast_shapes(target.shape, weight.shape))
    if target._data.dtype != input._data.dtype:
        raise RuntimeError('Found dtype %s but expected %s' % (target.dtype.legacy, input.dtype.legacy))
    return weight


def _log1pf(x):
    """log1p of a float32 array as the C library's log1pf computes it (glibc's, fdlibm's algorithm: 1 + x =
    2**k (1 + f), 1 + f normalised into [sqrt(2)/2, sqrt(2)), then log(1 + f) = f - (f*f/2 - s (f*f/2 + R(s*s)))
    with s = f / (2 + f), a degree-7 polynomial R, all in float). Not correctly rounded: 7% of log1pf(-x) for x
    in (0, 1) are an ulp off, and PyTorch's scalar kernels (binary_cross_entropy's) print those."""
    f32, one = np.float32, np.float32(1)
    hx = x.view(np.int32)
    with np.errstate(all='ignore'):
        u = one + x
        hu = u.view(np.int32)
        k = (hu >> 23) - 127
        c = np.where(k > 0, one - (u - x), x - (u - one)) / u           # (the rounding error of 1 + x)
        big = hx >= 0x5a000000                                          # (1 + x is x: no correction)
        hu, k, c = np.where(big, hx, hu) & 0x007fffff, np.where(big, (hx >> 23) - 127, k), np.where(big, f32(0), c)
        up = hu >= 0x3504f7
        k = np.where(up, k + 1, k)
        f = (hu | np.where(up, 0x3f000000, 0x3f800000)).astype(np.int32).view(np.float32) - one
        hu = np.where(up, (0x00800000 - hu) >> 2, hu)
        near = (hx < 0x3ed413d7) & ((hx > 0) | (hx <= np.int32(-1097468385)))    # -0.2929 < x < 0.41422: k = 0
        f, k, c, hu = np.where(near, x, f), np.where(near, 0, k), np.where(near, f32(0), c), np.where(near, 1, hu)
        kf = k.astype(np.float32)
        hi, lo = kf * f32(6.9313812256e-01), kf * f32(9.0580006145e-06)            # k ln 2 in two parts
        hfsq = f32(0.5) * f * f
        s = f / (f32(2) + f)
        z = s * s
        R = z * (f32(6.6666668653e-01) + z * (f32(4.0000000596e-01) + z * (f32(2.8571429849e-01) + z * (
            f32(2.2222198546e-01) + z * (f32(1.8183572590e-01) + z * (f32(1.5313838422e-01) + z * f32(1.4798198640e-01)))))))
        r = np.where(k == 0, f - (hfsq - s * (hfsq + R)), hi - ((hfsq - (s * (hfsq + R) + (lo + c))) - f))
        R = hfsq * (one - f32(0.66666666666666666) * f)                 # |f| < 2**-20: a shorter series
        r2 = np.where(k == 0, f - R, hi - ((R - (lo + c)) - f))
        r2 = np.where(f == 0, np.where(k == 0, f32(0), hi + (c + lo)), r2)
        r = np.where(hu == 0, r2, r)
        ax = hx & 0x7fffffff
        tiny = (hx < 0x3ed413d7) & (ax < 0x31000000)                    # |x| < 2**-29
        r = np.where(tiny, np.where(ax < 0x24800000, x, x - x * x * f32(0.5)), r)
        r = np.where(x == -1, f32(-np.inf), np.where(x < -1, (x - x) / (x - x), r))
        return np.where(hx >= 0x7f800000, x + x, r).astype(np.float32)


def binary_cross_entropy(input, target, weight=None, size_average=None, reduce=None, reduction='mean'):
    """-(t log x + (1 - t) log(1 - x)) for probabilities x (the logs are clamped at -100, as in PyTorch)."""
    r = reduction_enum(_legacy_reduction(size_average, reduce, reduction))
    weight = _check_bce(input, target, weight)
    _check_no_requires_grad(weight, 'weight', 'binary_cross_entropy')
    x, t = input._data, target._data
    if x.dtype.kind not in 'fc':                   # (probabilities of an integer or bool dtype: no kernel)
        raise NotImplementedError('"binary_cross_entropy" not implemented for \'%s\'' % input.dtype.legacy)
    bad_x, bad_t = ~((x >= 0) & (x <= 1)), ~((t >= 0) & (t <= 1))       # (NaN too; the first bad element decides)
    if (bad_x | bad_t).any():
        raise RuntimeError('all elements of %s should be between 0 and 1'
                           % ('input' if bad_x.flat[np.argmax((bad_x | bad_t).ravel())] else 'target'))
    # PyTorch's kernel: (t - 1) * max(log1p(-x), -100) - t * max(log(x), -100), the C library's logs one element
    # at a time (float32: glibc's log1pf; its logf is taken as correctly rounded, which it is but for 0.7%)
    one, low = x.dtype.type(1), x.dtype.type(-100)
    l1p = _log1pf(-x) if x.dtype is _F32 else _log1p(-x)
    losses = (t - one) * np.maximum(l1p, low) - t * np.maximum(_log(x), low)
    if weight is not None:
        if weight._data.shape != x.shape:                       # (the losses' mul_ of a wider weight)
            raise _not_broadcast_to(x.shape, weight._data.shape)
        losses = losses * weight._data
    return _attach(_out(_reduce(losses, r), input.dtype), BinaryCrossEntropyBackward0, (input, target),
                   {'reduction': r, 'self': SavedTensor(input), 'target': SavedTensor(target),
                    'weight': SavedTensor(weight) if weight is not None else None})


class BinaryCrossEntropyBackward0(Node):
    def apply(self, g):
        x, t = self.saved('self'), self.saved('target')
        gi = None
        if self.needs(0):
            w = self.saved('weight') if self._saved['weight'] is not None else None
            gi = binary_cross_entropy_backward(g, x, t, w, self._saved['reduction'])
        gt = None
        if self.needs(1):       # PyTorch's binary_cross_entropy_target_backward, in its order: -logit(self) * grad,
            from ._ops_math import logit                    # times the weight, divided by the count for 'mean'
            gt = logit(x).neg() * g
            if self._saved['weight'] is not None:
                gt = gt * self.saved('weight')
            if self._saved['reduction'] == 1:
                gt = _div_scalar(gt, x._data.size)
        return gi, gt


def _bce_grad(g, x, t, w, r):
    """PyTorch's kernel, in its order: g (x - t) / max((1 - x) x, 1e-12), then times the weight, then divided by
    the count for 'mean'."""
    out = g * (x - t) / ((1 - x) * x).clamp(min=1e-12)
    if w is not None:
        out = out * w
    return out / x._data.size if r == 1 else out


def binary_cross_entropy_backward(g, x, t, w, r):
    """g (x - t) / max((1 - x) x, 1e-12), times the weight, divided by the count for mean: an op of its own
    (BinaryCrossEntropyBackwardBackward0) for double backward."""
    out = _no_grad_value(_bce_grad, g, x, t, w, r)
    if _recording(g, x, t):
        _attach(out, BinaryCrossEntropyBackwardBackward0, (g, x, t), {
            'grad_output': SavedTensor(g), 'reduction': r, 'self': SavedTensor(x), 'target': SavedTensor(t),
            'weight': SavedTensor(w) if w is not None else None})
    return out


class BinaryCrossEntropyBackwardBackward0(Node):
    def apply(self, gg):
        s = self._saved
        go, x, t = self.saved('grad_output'), self.saved('self'), self.saved('target')
        w = self.saved('weight') if s['weight'] is not None else None
        r, n, eps = s['reduction'], x._data.size, 1e-12
        ggo = gx = gt = None
        if self.needs(0):                          # binary_cross_entropy_double_backward_grad_output
            ggo = (x - t) / (_add_scalar(x, eps) * _add_scalar(_scalar_sub(1, x), eps)) * gg
            if w is not None:
                ggo = ggo * w
            if r == 1:
                ggo = _div_scalar(ggo, n)
        if self.needs(1):                          # binary_cross_entropy_double_backward
            gx = ((x * x - _mul_scalar(x, 2) * t + t)
                  / (_add_scalar(x, eps) ** 2 * _add_scalar(_scalar_sub(1, x), eps) ** 2)) * (gg * go)
            if w is not None:
                gx = gx * w
            if r == 1:
                gx = _div_scalar(gx, n)
        if self.needs(2):                          # binary_cross_entropy_double_backward_target
            gt = -gg * go
            if w is not None:
                gt = gt * w
            denom = _scalar_sub(1, x) * x
            denom._data = np.maximum(denom._data, denom._data.dtype.type(eps))      # (clamped without a graph)
            gt = gt / denom
            if r == 1:
                gt = _div_scalar(gt, n)
        return ggo, gx, gt


def multi_margin_loss(input, target, p, margin, weight, r):
    """The multi-class hinge loss: per sample, the sum over the other classes j of max(0, margin - x[y] + x[j]) (its
    square for p 2; times weight[y]) divided by the class count; reduced (r: the reduction's enum). As ATen's CPU
    kernel: each sample's sum in the input's dtype, the sum over samples in double."""
    if ag.grad_enabled and weight is not None and weight.requires_grad:
        raise RuntimeError("The function 'multi_margin_loss' is not differentiable with respect to argument 'weight'. "
                           "This input cannot have requires_grad True.")
    x = input._data
    if not ((x.ndim <= 1 and x.size != 0) or (x.ndim == 2 and x.shape[1] != 0)):
        raise RuntimeError('Expected non-empty vector or matrix with optional 0-dim batch size, but got: %s'
                           % list(x.shape))
    nframe = x.shape[0] if x.ndim == 2 else 1
    if not (target._data.ndim <= 1 and target._data.size == nframe):
        raise RuntimeError('multi_margin_loss: target tensor should be 1-D with size equal to the number of input '
                           'samples (batch size). Expected target size [%d], but got %s. Input has shape %s.'
                           % (nframe, list(target._data.shape), list(x.shape)))
    dim = x.shape[-1] if x.ndim else 1
    if weight is not None and (weight._data.ndim != 1 or weight._data.size != dim):
        raise RuntimeError('inconsistent weight size, expected %d but got %s' % (dim, list(weight._data.shape)))
    if x.dtype.kind != 'f':
        raise NotImplementedError('"multi_margin_loss_cpu_kernel" not implemented for \'%s\'' % input.dtype.legacy)
    if target._data.dtype != np.int64:
        raise RuntimeError('expected scalar type Long but found %s' % target.dtype.legacy)
    if weight is not None and weight._data.dtype != x.dtype:
        raise RuntimeError('expected scalar type %s but found %s' % (input.dtype.legacy, weight.dtype.legacy))
    y = target._data.reshape(-1)
    if ((y < 0) | (y >= dim)).any():
        raise RuntimeError('target out of range')
    t = x.dtype.type
    rows = x.reshape(nframe, dim)
    losses = np.zeros(nframe, x.dtype)
    for i in range(nframe):
        z = t(margin) - rows[i, y[i]] + rows[i]
        h = z if p == 1 else z * z
        if weight is not None:
            h = h * weight._data[y[i]]
        keep = (z > 0) & (np.arange(dim) != y[i])
        acc = t(0)
        for v in h[keep]:                               # (one by one, in the input's dtype)
            acc = t(acc + v)
        losses[i] = t(acc / t(dim))
    if r == 0 and target._data.ndim > 0:
        out = losses
    else:
        total = sum(float(v) for v in losses)          # (accumulated in double)
        out = np.asarray(total / nframe if r == 1 and nframe else total).astype(x.dtype)
    return _attach(make(out), MultiMarginLossBackward0, (input,),
                   {'margin': float(margin), 'p': p, 'reduction': r, 'self': SavedTensor(input),
                    'target': SavedTensor(target), 'weight': None if weight is None else SavedTensor(weight)})


class MultiMarginLossBackward0(Node):
    """multi_margin_loss_backward: g = 1 / dim (1 / (nframe dim) for mean), each class over the margin gets g (2 g z
    for p 2, times weight[y]), the target class minus their sum; then times the incoming gradient. No derivative of
    its own (PyTorch's NotImplemented node)."""

    def apply(self, go):
        s = self._saved
        inp, y = self.saved('self'), self.saved('target')._data.reshape(-1)
        w = None if s['weight'] is None else self.saved('weight')._data
        x = inp._data
        dim = x.shape[-1] if x.ndim else 1
        nframe = x.shape[0] if x.ndim == 2 else 1
        t = x.dtype.type
        g = t(1. / (nframe * dim)) if s['reduction'] == 1 else t(1. / dim)
        rows = x.reshape(nframe, dim)
        gi = np.zeros((nframe, dim), x.dtype)
        for i in range(nframe):
            z = t(s['margin']) - rows[i, y[i]] + rows[i]
            h = np.full(dim, g, x.dtype) if s['p'] == 1 else t(2) * g * z
            if w is not None:
                h = h * w[y[i]]
            keep = (z > 0) & (np.arange(dim) != y[i])
            gi[i] = np.where(keep, h, t(0))
            acc = t(0)
            for v in h[keep]:
                acc = t(acc - v)
            gi[i, y[i]] = acc
        gd = go._data
        gi = gi * (gd.reshape(-1)[0] if gd.ndim == 0 or s['reduction'] != 0 else gd.reshape(nframe, 1))
        out = make(gi.reshape(x.shape).astype(x.dtype, copy=False))
        return (_not_implemented(out, (go, inp) + (() if w is None else (self.saved('weight'),)),
                                 'aten::multi_margin_loss_backward'),)


def multilabel_margin_loss(input, target, r):
    """The multi-label hinge loss: per sample, with the target classes those listed in target up to the first -1,
    the sum over target classes k and other classes j of max(0, 1 - (x[k] - x[j])), divided by the class count;
    reduced (r: the reduction's enum). As ATen's CPU kernel: each sample's sum in double, rounded, the sum over
    samples in double."""
    x = input._data
    if not ((x.ndim <= 1 and x.size != 0) or (x.ndim == 2 and x.shape[1] != 0)):
        raise RuntimeError('Expected non-empty vector or matrix with optional 0-dim batch size, but got: %s'
                           % list(x.shape))
    nframe, dim = (x.shape[0], x.shape[1]) if x.ndim == 2 else (1, x.shape[0] if x.ndim else 1)
    y = target._data
    if (x.ndim <= 1 and not (y.ndim <= 1 and y.size == dim)) or (x.ndim == 2 and y.shape != x.shape):
        raise RuntimeError('inconsistent target size: %s for input of size: %s' % (list(y.shape), list(x.shape)))
    if x.dtype.kind != 'f':
        raise NotImplementedError('"multilabel_margin_loss_forward_out_frame" not implemented for \'%s\''
                                  % input.dtype.legacy)
    if y.dtype != np.int64:
        raise RuntimeError('expected scalar type Long but found %s' % target.dtype.legacy)
    if y.size and (y.min() < -1 or y.max() >= dim):
        raise RuntimeError("argument #2 'target' is out of range")
    t = x.dtype.type
    rows, ys = x.reshape(nframe, dim), y.reshape(nframe, dim)
    is_target = np.zeros((nframe, dim), x.dtype)
    sums = []
    for i in range(nframe):
        listed = _listed_targets(ys[i])
        is_target[i, listed] = 1
        acc = 0.0
        for k in listed:
            for j in range(dim):
                if not is_target[i, j]:
                    z = t(t(1) - rows[i, k]) + rows[i, j]
                    if z > 0:
                        acc += float(z)
        sums.append(t(acc))
    if r == 0 and x.ndim == 2:
        out = np.array([v / t(dim) for v in sums], x.dtype)
    else:
        total = sum(float(v) for v in sums) / dim
        out = np.asarray(total / nframe if r == 1 and nframe else total).astype(x.dtype)
    return _attach(make(out), MultilabelMarginLossBackward0, (input,),
                   {'is_target': SavedTensor(make(is_target.reshape(x.shape))), 'reduction': r,
                    'self': SavedTensor(input), 'target': SavedTensor(target)})


def _listed_targets(y):
    """The target classes of one sample: its target entries up to the first -1."""
    stop = np.flatnonzero(y < 0)
    return y[:stop[0] if stop.size else y.size].tolist()


class MultilabelMarginLossBackward0(Node):
    """multilabel_margin_loss_backward: g = 1 / dim (1 / (nframe dim) for mean) taken from the target class and
    given to the other class of each pair over the margin; times the incoming gradient. No derivative of its own."""

    def apply(self, go):
        inp, y = self.saved('self'), self.saved('target')._data
        x = inp._data
        nframe, dim = (x.shape[0], x.shape[1]) if x.ndim == 2 else (1, x.shape[0] if x.ndim else 1)
        t = x.dtype.type
        g = t(1. / (nframe * dim)) if self._saved['reduction'] == 1 else t(1. / dim)
        rows, ys = x.reshape(nframe, dim), y.reshape(nframe, dim)
        gi = np.zeros((nframe, dim), x.dtype)
        for i in range(nframe):
            listed = _listed_targets(ys[i])
            for k in listed:
                for j in range(dim):
                    if j not in listed and t(t(1) - rows[i, k]) + rows[i, j] > 0:
                        gi[i, k] -= g
                        gi[i, j] += g
        gd = go._data
        gi = gi * (gd.reshape(-1)[0] if gd.ndim == 0 or self._saved['reduction'] != 0 else gd.reshape(nframe, 1))
        out = make(gi.reshape(x.shape).astype(x.dtype, copy=False))
        return (_not_implemented(out, (go, inp), 'aten::multilabel_margin_loss_backward'),)


def soft_margin_loss(input, target, r):
    """log1p(exp(-target * input)) pointwise, reduced (r: the reduction's enum); ATen's in-place chain
    neg_out(input).mul_(target).exp_().log1p_(), so the target broadcasts to the input's shape only."""
    if ag.grad_enabled and target.requires_grad:
        raise RuntimeError("The function 'soft_margin_loss' is not differentiable with respect to argument 'target'. "
                           "This input cannot have requires_grad True.")
    from ._ops import neg
    z = neg(input.detach())._data                   # (a bool input: neg's error)
    if target._data.shape != z.shape:
        _check_broadcast(z.shape, target._data.shape)
        shape = np.broadcast_shapes(z.shape, target._data.shape)
        if shape != z.shape:
            raise _not_broadcast_to(z.shape, shape)
    if z.dtype.kind != 'f':             # (an integer buffer: mul_ by a float target, or else exp_, cannot write it)
        rt = dt.result_type(input, target)
        raise RuntimeError("result type %s can't be cast to the desired output type %s"
                           % ((rt if rt.is_floating_point else dt.default_float).legacy, input.dtype.legacy))
    losses = _log1p(_exp((z * target._data).astype(z.dtype, copy=False)))
    return _attach(_out(_reduce(losses, r), input.dtype), SoftMarginLossBackward0, (input,),
                   {'reduction': r, 'self': SavedTensor(input), 'target': SavedTensor(target)})


class SoftMarginLossBackward0(Node):
    """One edge, for the input: the target is never differentiable (refused above when it requires grad)."""

    def apply(self, g):
        x, t = self.saved('self'), self.saved('target')
        return (soft_margin_loss_backward(g, x, t, self._saved['reduction']),)


def soft_margin_loss_backward(g, x, t, r):
    """-norm * target * z / (1 + z) * grad, z = exp(-target * input), in ATen's order; an op of its own
    (SoftMarginLossBackwardBackward0) for double backward."""
    d = x._data.dtype.type
    z = _exp((-x._data * t._data).astype(x._data.dtype, copy=False))
    gx = t._data * z * d(-(1.0 / _count(x) if r == 1 else 1.0))  # mul_out(target, z).mul_(-norm)
    gx /= z + d(1)
    gx *= g._data
    out = make(gx.astype(x._data.dtype, copy=False))
    if _recording(g, x):                # (two edges, as PyTorch's: the target is not differentiable)
        _attach(out, SoftMarginLossBackwardBackward0, (g, x), {'grad_output': SavedTensor(g), 'reduction': r,
                                                               'self': SavedTensor(x), 'target': SavedTensor(t)})
    return out


class SoftMarginLossBackwardBackward0(Node):
    def apply(self, gg):
        go, x, t = self.saved('grad_output'), self.saved('self'), self.saved('target')
        r = self._saved['reduction']
        ggo = gx = None
        if self.needs(0):                  # soft_margin_loss_double_backward_grad_output
            ggo = (soft_margin_loss_backward(gg, x, t, r) if r == 0 else
                   (soft_margin_loss_backward(_factories_ones_like(go), x, t, r) * gg).sum())
        if self.needs(1):                  # soft_margin_loss_double_backward(gg * grad_output, ...), in its order
            z = (x * -t).exp()
            zplus1 = _add_scalar(z, 1)
            gx = (gg * go) * (t * t) * z / (zplus1 * zplus1)
            if r == 1:
                gx = _div_scalar(gx, x.numel())
        return ggo, gx


def _factories_ones_like(t):
    return make(np.ones_like(t._data))


def binary_cross_entropy_with_logits(input, target, weight=None, size_average=None, reduce=None, reduction='mean',
                                     pos_weight=None):
    """binary_cross_entropy(sigmoid(input), target), computed stably from the logits."""
    r = reduction_enum(_legacy_reduction(size_average, reduce, reduction))
    if target.size() != input.size():                   # (PyTorch's Python asks target.size() first)
        raise ValueError('Target size (%r) must be the same as input size (%r)' % (target.shape, input.shape))
    for name, pos, t in (('weight', 3, weight), ('pos_weight', 4, pos_weight)):
        if t is not None and not isinstance(t, Tensor):        # (its parser's)
            raise TypeError("binary_cross_entropy_with_logits(): argument '%s' (position %d) must be Tensor, not %s"
                            % (name, pos, parser_type(t)))
    _check_no_requires_grad(weight, 'weight', 'binary_cross_entropy_with_logits')
    _check_no_requires_grad(pos_weight, 'pos_weight', 'binary_cross_entropy_with_logits')
    # PyTorch's kernel starts with (1 - target).mul_(input): the loss takes the target's dtype
    d = target.dtype
    if not input.dtype.is_floating_point:
        raise NotImplementedError('"log_sigmoid_cpu" not implemented for \'%s\'' % input.dtype.legacy)
    if pos_weight is not None and pos_weight._data.shape != target._data.shape:   # (pos_weight - 1).mul(target),
        _check_broadcast(pos_weight._data.shape, target._data.shape)              # then log_sigmoid(x).mul_(that)
        shape = np.broadcast_shapes(pos_weight._data.shape, target._data.shape)
        if shape != input._data.shape:
            raise _not_broadcast_to(input._data.shape, shape)
    if d is dt.bool_:                               # (then (1 - target).mul_(input): 1 filled into a bool tensor)
        raise RuntimeError('Subtraction, the `-` operator, with two bool tensors is not supported. Use the `^` or '
                           '`logical_xor()` operator instead.')
    if not d.is_floating_point:
        raise RuntimeError("result type %s can't be cast to the desired output type %s"
                           % (input.dtype.legacy, d.legacy))
    if weight is not None and weight._data.shape != input._data.shape:      # (PyTorch: the losses, then mul_)
        _check_broadcast(input._data.shape, weight._data.shape)
        shape = np.broadcast_shapes(input._data.shape, weight._data.shape)
        if shape != input._data.shape:
            raise _not_broadcast_to(input._data.shape, shape)     # (the weight is saved as given: it broadcasts)
    x, t = input._data, target._data
    # PyTorch's: log_sigmoid(x) in x's dtype (its kernel -(max(-x, 0) + log1p(exp(-|x|))) with its exp; halves in
    # float), times (pos_weight - 1) * t + 1 in place; then (1 - t).mul_(x).sub_(that) in t's dtype, .mul_(weight)
    xf = x.astype(_F32) if x.dtype is _F16 else x
    if xf.dtype is _F32:
        log_sigmoid = -(np.maximum(-xf, np.float32(0)) + _log1p(_vec_exp(-np.abs(xf))))
    else:
        log_sigmoid = -(np.maximum(-xf, 0) + np.log1p(np.exp(-np.abs(xf))))
    log_sigmoid = log_sigmoid.astype(x.dtype, copy=False)
    if pos_weight is not None:
        log_sigmoid = (log_sigmoid * ((pos_weight._data - 1) * t + 1)).astype(x.dtype, copy=False)
    losses = ((1 - t) * x.astype(d.np, copy=False)).astype(d.np, copy=False) - log_sigmoid.astype(d.np, copy=False)
    if weight is not None:
        losses = (losses * weight._data).astype(d.np, copy=False)
    return _attach(_out(_reduce(losses.astype(d.np, copy=False), r), d), BinaryCrossEntropyWithLogitsBackward0,
                   (input, target),
                   {'pos_weight': SavedTensor(pos_weight) if pos_weight is not None else None, 'reduction': r,
                    'self': SavedTensor(input), 'target': SavedTensor(target),
                    'weight': SavedTensor(weight) if weight is not None else None})


class BinaryCrossEntropyWithLogitsBackward0(Node):
    def apply(self, g):
        """PyTorch's binary_cross_entropy_with_logits_backward and _target_backward, op for op and in their order
        (the weight and the count of 'mean' come last): the same last bits, and its nodes under create_graph."""
        x, t = self.saved('self'), self.saved('target')
        pw = self.saved('pos_weight') if self._saved['pos_weight'] is not None else None
        gi = gt = None
        if self.needs(0):
            gi = x.sigmoid() - t if pw is None else (_add_scalar(pw * t, 1) - t) * x.sigmoid() - pw * t
            gi = self._weighted_mean(gi * g, x)
        if self.needs(1):
            gt = -x * g if pw is None else (logsigmoid(-x) - logsigmoid(x) * pw) * g
            gt = self._weighted_mean(gt, x)
        return gi, gt

    def _weighted_mean(self, v, x):
        if self._saved['weight'] is not None:
            v = v * self.saved('weight')
        return _div_scalar(v, x._data.size) if self._saved['reduction'] == 1 else v


# ================================================================================================ normalization

def _update_stat(t, values):
    """A running statistic updated by batch_norm's kernel: written straight into its memory, its version not
    moved (PyTorch's kernel writes it without an in-place op)."""
    t._data[...] = values


def batch_norm(input, running_mean, running_var, weight=None, bias=None, training=False, momentum=0.1, eps=1e-5):
    """(x - mean) / sqrt(var + eps) * weight + bias per channel (dim 1): the batch's statistics while training
    (which also move the running ones: the variance unbiased; momentum None is the cumulative average), the running
    ones in eval. PyTorch's CPU kernel: statistics accumulated in double, then x * alpha + beta in the input dtype;
    for float32 (N, C) rows (its channels-last kernel, measured) _channels_last_stats, running statistics in float32,
    beta = b - mean * alpha and x * alpha + beta fused, 1 / sqrt(var + eps) in float32 in eval."""
    x = input._data
    if training:
        size = input.shape
        if size[0] * math.prod(size[2:]) == 1:
            raise ValueError('Expected more than 1 value per channel when training, got input size %s' % (size,))
    if momentum is None:            # (torch.batch_norm's parser; nn.BatchNorm's momentum=None passes a number)
        raise TypeError("batch_norm(): argument 'momentum' (position 7) must be float, not NoneType")
    if training:
        if eps <= 0.0:
            raise ValueError('batch_norm eps must be positive during training, but got %s' % eps)
    elif eps < 0.0:
        raise ValueError('batch_norm eps must be non-negative, but got %s' % eps)
    if not x.size:      # (an empty batch: PyTorch's shortcut, before any check; no statistics, none moved)
        out = input.clone()
        if weight is not None:
            out = out * weight[0]
        return out if bias is None else out + bias[0]
    _check_no_requires_grad(running_mean, 'running_mean', 'native_batch_norm')
    _check_no_requires_grad(running_var, 'running_var', 'native_batch_norm')
    features = x.shape[1] if x.ndim > 1 else 0          # (PyTorch reads a 1-d input's size 1 unchecked: 0)
    for name, t in (('running_mean', running_mean), ('running_var', running_var), ('weight', weight),
                    ('bias', bias)):
        if t is not None and t._data.size != features:
            raise RuntimeError('%s should contain %d elements not %d' % (name, features, t._data.size))
    if not training:
        for name, t in (('running_mean', running_mean), ('running_var', running_var)):
            if t is None:
                raise RuntimeError('%s must be defined in evaluation mode' % name)
    if x.ndim < 2:
        input.size(1)                                   # (its kernel's error)
    _check_float(input, 'batch_norm')
    _check_mixed(input, weight, bias, running_mean, running_var)
    axes = (0,) + tuple(range(2, x.ndim))
    shape = (1, -1) + (1,) * (x.ndim - 2)
    d = input.dtype
    rows = x.dtype == np.float32 and x.flags.c_contiguous and x.size == x.shape[0] * x.shape[1]   # (N, C): channels last
    # (neither contiguous nor channels last: PyTorch's templates for other layouts)
    laid_out = not x.flags.c_contiguous and not (x.ndim in (4, 5) and np.moveaxis(x, 1, -1).flags.c_contiguous)
    if training and rows and x.size:
        n = x.shape[0]
        mean, var_sum = _channels_last_stats(x.reshape(n, -1))
        invstd = 1 / np.sqrt((var_sum / np.float32(n)).astype(_F64) + eps)     # (a float32 / n, then in double)
        if not eps:
            invstd[var_sum == 0] = 0
        mom = np.float32(momentum)                  # (momentum in float32: mean * m + rest, var fused: measured)
        if running_mean is not None:
            _update_stat(running_mean, mom * mean + (np.float32(1) - mom) * running_mean._data.astype(np.float32))
        if running_var is not None:
            unbiased = var_sum / np.float32(n - 1)
            _update_stat(running_var, _fma32(mom, unbiased, (np.float32(1) - mom) * running_var._data))
        save_mean, save_invstd = make(mean), make(invstd.astype(x.dtype))
        mean, invstd = save_mean._data, save_invstd._data
    elif training and x.dtype.kind == 'f' and x.dtype.itemsize >= 4 and x.size and laid_out:
        # (PyTorch's update_stats for a laid-out input: at::mean in x's dtype, then per channel the squared
        # deviations from it added one by one in double, and the running statistics updated in double)
        n = x.size // x.shape[1]
        mean = _add_reduce(x, axes) / x.dtype.type(n)
        dev = np.moveaxis(x, 1, 0).reshape(x.shape[1], -1).astype(_F64) - mean.astype(_F64)[:, None]
        var_sum = np.add.accumulate(dev * dev, axis=1)[:, -1]
        invstd = 1 / np.sqrt(var_sum / n + eps)
        if running_mean is not None:
            _update_stat(running_mean, momentum * mean.astype(_F64) + (1 - momentum) * running_mean._data.astype(_F64))
        if running_var is not None:
            _update_stat(running_var, momentum * (var_sum / (n - 1)) + (1 - momentum) * running_var._data.astype(_F64))
        save_mean, save_invstd = make(mean), make(invstd.astype(x.dtype))
        mean, invstd = save_mean._data, save_invstd._data
    elif training:
        mean = x.mean(axes, dtype=_F64)
        var_sum = ((x - mean.reshape(shape).astype(x.dtype)).astype(_F64) ** 2).sum(axes)
        n = x.size // x.shape[1]
        invstd = 1 / np.sqrt(var_sum / n + eps)
        unbiased = var_sum / (n - 1)
        if x.dtype == np.float32 and x.flags.c_contiguous and x.size:
            # (the contiguous kernel: float32 squared deviations added in double, the sum and mean rounded to
            # float32, divided by n (n - 1) in float32; measured)
            mean = mean.astype(np.float32).astype(_F64)
            dev = x - mean.reshape(shape).astype(np.float32)
            var_sum = (dev * dev).astype(_F64).sum(axes).astype(np.float32)
            invstd = 1 / np.sqrt((var_sum / np.float32(n)).astype(_F64) + eps)
            unbiased = (var_sum / np.float32(n - 1)).astype(_F64)
        if x.dtype == np.float32 and x.flags.c_contiguous and x.size:  # (the update the (N, C) kernel shares)
            mom = np.float32(momentum)
            if running_mean is not None:
                _update_stat(running_mean, mom * mean.astype(np.float32)
                             + (np.float32(1) - mom) * running_mean._data.astype(np.float32))
            if running_var is not None:
                _update_stat(running_var, _fma32(mom, unbiased.astype(np.float32),
                                                 (np.float32(1) - mom) * running_var._data))
        else:
            if running_mean is not None:
                _update_stat(running_mean, (momentum * mean + (1 - momentum) * running_mean._data).astype(x.dtype))
            if running_var is not None:
                _update_stat(running_var, (momentum * unbiased + (1 - momentum) * running_var._data).astype(x.dtype))
        save_mean, save_invstd = make(mean.astype(x.dtype)), make(invstd.astype(x.dtype))
        mean, invstd = save_mean._data, save_invstd._data
    else:
        mean = running_mean._data
        if rows or x.dtype == np.float32:           # (the kernel's 1 / sqrt(var + eps) in float32: measured)
            invstd = np.float32(1) / np.sqrt(running_var._data.astype(np.float32) + np.float32(eps))
        else:
            invstd = (1 / np.sqrt(running_var._data.astype(_F64) + eps)).astype(x.dtype)
        save_mean, save_invstd = make(np.zeros(0, x.dtype)), make(np.zeros(0, x.dtype))
    alpha = invstd if weight is None else invstd * weight._data
    if x.dtype == np.float32 and laid_out:      # (other layouts: ((x - mean) * invstd) * w + b, measured: while
        out = (x - mean.reshape(shape)) * invstd.reshape(shape)          # training exactly, in eval mostly)
        out = out if weight is None else out * weight._data.reshape(shape)
        out = out if bias is None else out + bias._data.reshape(shape)
    elif x.dtype == np.float32 and mean.dtype == np.float32:    # (beta = b - mean * alpha, x * alpha + beta, fused)
        beta = _fma32(-mean, alpha, 0 if bias is None else bias._data)
        out = _fma32(x, alpha.reshape(shape), beta.reshape(shape))
    else:
        beta = -mean * alpha if bias is None else bias._data - mean * alpha
        out = x * alpha.reshape(shape) + beta.reshape(shape)
    out = _out(_in_suggested_format(out, x), d)         # (numpy's result takes x's layout, the kernel's does not)
    saved = {'eps': float(eps), 'input': SavedTensor(input), 'result1': SavedTensor(save_mean),
             'result2': SavedTensor(save_invstd), 'training': bool(training)}
    for name, t in (('running_mean', running_mean), ('running_var', running_var), ('weight', weight)):
        saved[name] = None if t is None else SavedTensor(t)
    return _attach(out, NativeBatchNormBackward0, (input, weight, bias), saved)


def _channels_last_grad_sums(x, dy, mean):
    """The sums of a float32 (n, c) batch norm's backward (batch_norm_cpu_backward_channels_last, 2 threads):
    per half of the rows, sum(dy) added row by row and sum((x - mean) * dy) as fused multiply-adds, in float32;
    the halves added in double, rounded (measured)."""
    n, c = x.shape
    half = -(-n // 2)
    total, dotp = np.zeros(c), np.zeros(c)
    for a, b in ((0, half), (half, n)) if n > 1 else ((0, n),):
        s, d = np.zeros(c, np.float32), np.zeros(c, np.float32)
        for r in range(a, b):
            s = s + dy[r]
            d = _fma32(x[r] - mean, dy[r], d)
        total += s
        dotp += d
    return total.astype(np.float32), dotp.astype(np.float32)


def _contiguous_grad_sums(x, dy, mean):
    """The sums of a float32 contiguous (N, C, *) batch norm's backward (batch_norm_cpu_backward_contiguous_impl,
    which runs its AVX2 build: 8 lanes), measured: per plane (sample, channel), sum(dy) as reduce_all and
    sum((x - mean) * dy) as map2_reduce_all (whole vectors of products added, the part vector left over fused),
    then the planes of a channel added in double."""
    n, c = x.shape[:2]
    a = (x.reshape(n, c, -1) - mean[:, None]).reshape(n * c, -1)
    b = dy.reshape(n * c, -1)
    size, whole = a.shape[1], a.shape[1] // 8 * 8
    if size < 8:
        dots = np.add.accumulate(a * b, axis=1)[:, -1]
    else:
        acc = a[:, :8] * b[:, :8]
        for d in range(8, whole, 8):
            acc = acc + a[:, d:d + 8] * b[:, d:d + 8]
        if whole < size:
            acc[:, :size - whole] = _fma32(a[:, whole:], b[:, whole:], acc[:, :size - whole])
        for lanes in (4, 2, 1):                     # (its vec_reduce_all: halves)
            acc = acc[:, :lanes] + acc[:, lanes:2 * lanes]
        dots = acc[:, 0]
    total = np.add.reduce(_vec_sum(b, 32).reshape(n, c).astype(_F64), axis=0)     # (axis 0: in order)
    return total, np.add.reduce(dots.reshape(n, c).astype(_F64), axis=0)


def _channels_last_stats(x):
    """A float32 (n, c) batch's mean and sum of squared deviations per column as PyTorch 2.13's CPU kernel
    (batch_norm_cpu_collect_stats_channels_last, 2 threads) computes them (measured): the rows in two halves (one
    part when n <= 2), each half added row by row into a float32 buffer, the buffers added in double, / n, rounded;
    then each half's (x - mean) ** 2 accumulated as float32 fused multiply-adds, the buffers added in double (two
    rows of at most 16 columns: one part, the second row's square fused onto the first's)."""
    n, c = x.shape
    bounds = ((0, -(-n // 2)), (-(-n // 2), n)) if n > 2 else ((0, n),)
    var_bounds = ((0, 1), (1, 2)) if n == 2 and c > 16 else bounds
    total = np.zeros(c)
    for a, b in bounds:
        if c == 1 and b > a:            # (one column: numpy's reduce would add it pairwise; accumulate goes in order)
            total += np.add.accumulate(x[a:b, 0])[-1]
        else:
            total += np.add.reduce(x[a:b], axis=0, initial=np.float32(0))    # (axis 0: row by row, in order)
    mean = (total / n).astype(np.float32)
    dev = (x - mean).astype(np.float64)
    total = np.zeros(c)
    for a, b in var_bounds:
        total += _fma_in_k_order(lambda i, j, a=a: np.square(dev[a + i:a + j]), b - a, np.zeros(c, np.float32))
    return mean, total.astype(np.float32)


class NativeBatchNormBackward0(Node):
    def apply(self, g):
        x, w = self.saved('input'), self.saved('weight')
        xd, gd = x._data, g._data
        axes = (0,) + tuple(range(2, xd.ndim))
        shape = (1, -1) + (1,) * (xd.ndim - 2)
        training = self._saved['training']
        if training:
            mean, invstd = self.saved('result1')._data, self.saved('result2')._data
        else:
            mean = self.saved('running_mean')._data
            var = self.saved('running_var')._data.astype(_F64)
            invstd = (1 / np.sqrt(var + self._saved['eps'])).astype(xd.dtype)
        centred = xd - mean.reshape(shape)
        all32 = xd.dtype == np.float32 and gd.dtype == np.float32 and mean.dtype == np.float32
        # (PyTorch's kernels take float32 input and gradient both contiguous: (N, C) its channels-last one, (N, C, *)
        # its contiguous one; others (an expanded gradient of y.sum()) its generic loops, template32)
        kernel = all32 and xd.flags.c_contiguous and gd.flags.c_contiguous
        rows = kernel and xd.size == xd.shape[0] * xd.shape[1]
        contiguous32 = kernel and not rows and xd.size
        template32 = all32 and not kernel
        if rows and xd.size:                        # ((N, C) float32: the channels-last kernel's sums)
            x2, g2 = xd.reshape(xd.shape[0], -1), gd.reshape(xd.shape[0], -1)
            total, dotp = _channels_last_grad_sums(x2, g2, mean)
        elif contiguous32:
            total, dotp = _contiguous_grad_sums(xd, gd, mean)
        elif template32:                            # (at::sum of the gradient; float products added in double)
            dotp = (centred * gd).astype(_F64).sum(axes)
            total = _add_reduce(gd, axes).astype(_F64)
        else:
            dotp = (centred.astype(_F64) * gd).sum(axes)
            total = gd.sum(axes, dtype=_F64)
        scale = invstd if w is None else invstd * w._data
        gx = None
        if self.needs(0) and rows and xd.size:       # (its grad_input: every product rounded, invstd before w)
            f, n = np.float32, xd.shape[0]
            ws = f(1) if w is None else w._data
            if training:
                k = (dotp * invstd).astype(f) * invstd / f(n)
                # (dy - sum / n) - (x - mean) * k: fused for the columns in whole blocks of 8, the last c % 8
                # columns rounded twice (measured)
                dy = g2 - total / f(n)
                fused = x2.shape[1] - x2.shape[1] % 8
                gx = dy - (x2 - mean) * k
                gx[:, :fused] = _fma32(mean[:fused] - x2[:, :fused], k[:fused], dy[:, :fused])
                gx = gx * invstd * ws
            else:
                gx = g2 * invstd.astype(f) * ws
            gx = make(gx.astype(xd.dtype).reshape(xd.shape))
        elif self.needs(0) and (contiguous32 or template32):
            # (k in float32; the contiguous kernel: sum / n in double, (x - mean) * k fused (measured); the generic
            # loops: every step rounded)
            f, ws = np.float32, np.float32(1) if w is None else w._data.reshape(shape)
            if training:
                n = xd.size // xd.shape[1]
                k = (dotp.astype(f) * invstd * invstd / f(n)).reshape(shape)
                if contiguous32:
                    gx = _fma32(-centred, k, gd - (total / n).astype(f).reshape(shape))
                else:
                    gx = gd - (total.astype(f) / f(n)).reshape(shape) - centred * k
                gx = gx * invstd.reshape(shape) * ws
            else:
                gx = gd * invstd.reshape(shape) * ws
            gx = make(gx)
        elif self.needs(0):
            if training:
                n = xd.size // xd.shape[1]
                k = (dotp * invstd * invstd / n).astype(xd.dtype)
                gx = (gd - centred * k.reshape(shape) - (total / n).astype(xd.dtype).reshape(shape)) * \
                    scale.reshape(shape)
            else:
                gx = gd * scale.reshape(shape)
            gx = make(gx.astype(xd.dtype))
        gw = make((dotp * invstd).astype(xd.dtype)) if self.needs(1) else None
        gb = make(total.astype(xd.dtype)) if len(self._fns) > 2 and self.needs(2) else None
        eps, mean = self._saved['eps'], None if training else make(mean.reshape(shape))

        def formula(g, x, w, save_mean, save_invstd):
            if training:
                return _norm_grads(g, x, w, axes, axes, x - x.mean(axes, keepdim=True), eps, shape)
            scale = make(invstd.reshape(shape))
            return (g * (scale if w is None else scale * w.reshape(shape)),
                    None if w is None else (g * (x - mean) * scale).sum(axes), g.sum(axes))
        # (the inputs of PyTorch's node: grad_out, input, weight, save_mean, save_invstd)
        s = self._saved
        return _second_order(NativeBatchNormBackwardBackward0, (g, x, w, None, None), (gx, gw, gb), formula,
                             {'eps': s['eps'], 'grad_out': g, 'input': x,
                              'running_mean': s['running_mean'], 'running_var': s['running_var'],  # (as saved)
                              'save_invstd': self.saved('result2'), 'save_mean': self.saved('result1'),
                              'train': s['training'], 'weight': w})


# ================================================================================================ Tensor methods

for _name in ['max', 'min', 'maximum', 'minimum', 'square', 'softmax', 'log_softmax', 'logsumexp', 'var', 'std',
              'norm', 'erf', 'addmm', 'sort', 'argsort', 'msort', 'topk', 'median', 'kthvalue', 'dist', 'unique',
              'cross']:
    setattr(Tensor, _name, globals()[_name])


def _tensor_where(self, condition, other):
    """x.where(cond, y) is torch.where(cond, x, y)."""
    return where(condition, self, other)


Tensor.where = _tensor_where
Tensor.square_ = lambda self: self.pow_(2)


# ================================================================================================ embedding

def embedding(weight, indices, padding_idx=-1, scale_grad_by_freq=False, sparse=False):
    """Rows of `weight` picked by the integer `indices` (a copy, shaped indices.shape + (dim,)). Gradients add up
    per row, in the order of the indices; the padding row gets none."""
    if weight._data.ndim != 2:
        raise RuntimeError("'weight' must be 2-D")
    idx = indices._data
    if idx.dtype.kind not in 'iu' or idx.dtype.itemsize not in (4, 8):
        raise RuntimeError("Expected tensor for argument #1 'indices' to have one of the following scalar types: "
                           "Long, Int; but got %s instead (while checking arguments for embedding)"
                           % ag.type_string(indices))
    n = weight._data.shape[0]
    if idx.size and (idx.min() < 0 or idx.max() >= n):
        from ._ops import index_select           # (PyTorch's embedding is weight.index_select(0, ...): its error)
        index_select(weight.detach(), 0, indices.reshape(-1))
    out = make(weight._data[idx.astype(np.int64)])
    return _attach(out, EmbeddingBackward0, (weight,), {
        'indices': SavedTensor(indices), 'padding_idx': _given(padding_idx),
        'scale_grad_by_freq': scale_grad_by_freq, 'sparse': sparse, 'weight_sym_argsize_0': n})


def _check_dense_gradient(node, op):
    """sparse=True asks for a sparse_coo gradient of the weight, made by the backward: the clear error there."""
    if node._saved['sparse']:
        dt.check_layout(dt.sparse_coo, ' (the gradient %s(sparse=True) gives its weight: use sparse=False)' % op)


class EmbeddingBackward0(Node):
    def apply(self, g):
        _check_dense_gradient(self, 'embedding')
        idx = self.saved('indices')._data.reshape(-1).astype(np.int64)
        gd = g._data.reshape(idx.size, g._data.shape[-1])
        pad = _signed(self._saved['padding_idx'])
        keep = idx != pad
        rows = gd[keep]
        if self._saved['scale_grad_by_freq']:
            counts = np.bincount(idx.astype(np.intp), minlength=self._saved['weight_sym_argsize_0'])
            rows = rows / counts[idx[keep]][:, None].astype(gd.dtype)
        out = np.zeros((self._saved['weight_sym_argsize_0'], gd.shape[1]), gd.dtype)
        np.add.at(out, idx[keep], rows)                    # (row by row, in the order of the indices)
        return (_attach(make(out), EmbeddingDenseBackwardBackward0, (g,),       # (create_graph: differentiable)
                        {'indices': self._saved['indices'], 'padding_idx': self._saved['padding_idx']}),)


class EmbeddingDenseBackwardBackward0(Node):
    """PyTorch's embedding_dense_double_backward: the rows of the gradient at the indices, zero at padding_idx
    (not scaled by frequency: PyTorch leaves that out here)."""
    def apply(self, gg):
        indices = self.saved('indices')
        idx = indices._data.reshape(-1).astype(np.int64)
        r = gg.index_select(0, make(idx))
        pad = _signed(self._saved['padding_idx'])
        if pad >= 0:
            r = r.masked_fill(make((idx == pad)[:, None]), 0)
        return (r.view(indices._data.shape + (-1,)),)


# ================================================================================================ embedding bag

def _same_type_error(a, ta, b, tb):
    return ("Expected tensor for argument #1 '%s' to have the same type as tensor for argument #1 '%s'; but type %s "
            "does not equal %s (while checking arguments for embedding_bag)"
            % (a, b, ag.type_string(ta), ag.type_string(tb)))


def embedding_bag(weight, indices, offsets, scale_grad_by_freq, mode, sparse, per_sample_weights,
                  include_last_offset, padding_idx):
    """torch.embedding_bag (mode 0 sum, 1 mean, 2 max): per bag of indices (bag b: positions offsets[b] to the next
    offset) the sum (weighted by per_sample_weights), mean or elementwise max of the weight rows picked; an empty
    bag gives zeros, padding_idx rows count for nothing. Returns (output, offset2bag, bag_size, max_indices) as
    PyTorch's CPU kernel makes them (those three are what its backward reads)."""
    for t in (indices, offsets):
        if t._data.dtype.kind not in 'iu' or t._data.dtype.itemsize not in (4, 8):
            raise RuntimeError("Expected tensor for argument #1 'indices' to have one of the following scalar types: "
                               "Long, Int; but got %s instead (while checking arguments for embedding_bag)"
                               % ag.type_string(t))
    if weight._data.dtype.kind != 'f':
        raise RuntimeError("Expected tensor for argument #1 'weight' to have one of the following scalar types: Half, "
                           "BFloat16, Float, Double; but got %s instead (while checking arguments for embedding_bag)"
                           % ag.type_string(weight))
    idx = indices._data.astype(np.int64)
    off = offsets._data.astype(np.int64).tolist()
    n = idx.size
    if off and off[0] != 0:
        raise RuntimeError('offsets[0] has to be 0, i.e., the first sequence in the mini-batch has to start from '
                           'position 0. However, got %d\n[ %s{} ]' % (off[0], offsets.type()))
    if off and off[-1] > n:
        raise RuntimeError("offsets[-1] can not be greater than input's length %d but got offsets[-1] of %d"
                           % (n, off[-1]))
    if per_sample_weights is not None and per_sample_weights._data.dtype != weight._data.dtype:
        raise RuntimeError(_same_type_error('weight', weight, 'per_sample_weights', per_sample_weights))
    rows = weight._data.shape[0]
    bags = len(off) - 1 if include_last_offset else len(off)
    ends = off[1:] + ([] if include_last_offset else [n])
    bag_of = np.zeros(n, np.int64)                      # (offset2bag: the bag of each position)
    for b in range(bags):
        bag_of[off[b]:ends[b]] = b
    bad = np.flatnonzero((idx < 0) | (idx >= rows))
    if bad.size:                                        # (sum and mean count the position from the bag's start)
        i = int(bad[0])
        if mode == 2:
            raise RuntimeError('embedding_bag: Expected idx >= 0 && idx < num_embeddings but found idx to be %d'
                               % idx[i])
        raise RuntimeError('Index %d of input takes value %d which is not in the valid range [0, %d)'
                           % (i - off[bag_of[i]], idx[i], rows))
    w = weight._data
    keep = idx != padding_idx
    fast_sum = mode == 0 and padding_idx < 0 and w.dtype != np.float64     # (fbgemm's path: no offset2bag)
    if bags and not fast_sum:                           # (after the last offset, with include_last_offset: the last
        bag_of[ends[-1]:] = bags - 1                    # bag's, but on fbgemm's path, no bag's)
    else:
        keep[ends[-1] if bags else 0:] = False
    count = np.bincount(bag_of[keep].astype(np.intp), minlength=bags)[:bags]
    added = keep
    if mode == 1 and padding_idx < 0 and w.dtype != np.float64 and bags:
        added = keep.copy()                             # (fbgemm's sum for the mean stops at the last offset, the
        added[ends[-1]:] = False                        # bag's size does not)
    out = np.zeros((bags, w.shape[1]), w.dtype)
    max_indices = np.zeros((bags, w.shape[1]), np.int64)
    psw = None if per_sample_weights is None else per_sample_weights._data
    seen = np.zeros(bags, bool)
    for i in np.flatnonzero(added).tolist():            # (each bag added up in the order of its indices)
        b, row = bag_of[i], w[idx[i]]
        if mode != 2:                                   # (weighted: fused multiply-adds, as fbgemm's kernel)
            out[b] = out[b] + row if psw is None else _fused(row, psw[i], out[b])
        elif not seen[b]:
            out[b], max_indices[b], seen[b] = row, idx[i], True
        else:                                           # (the first of equal maxima stays)
            up = row > out[b]
            out[b][up], max_indices[b][up] = row[up], idx[i]
    if mode == 1:
        out = np.where(count[:, None] > 0, out / np.maximum(count, 1)[:, None].astype(w.dtype), out).astype(w.dtype)
    empty = np.zeros(0, np.int64)
    offset2bag = make(empty if fast_sum else bag_of)
    bag_size = make(count.astype(np.int64) if mode else np.zeros(bags, np.int64))
    result3 = make(max_indices if mode == 2 else bag_size._data.copy())
    output = make(out)
    inputs = (weight, per_sample_weights)
    if ag.grad_enabled and any(t is not None and t._requires_grad for t in inputs):
        keep_weight = per_sample_weights is not None and per_sample_weights._requires_grad
        ag.record(output, EmbeddingBagBackward0, inputs, {
            'indices': SavedTensor(indices), 'mode': mode, 'offsets': SavedTensor(offsets),
            'padding_idx': _given(padding_idx),
            'per_sample_weights': None if per_sample_weights is None else SavedTensor(per_sample_weights),
            'result1': SavedTensor(offset2bag), 'result2': SavedTensor(bag_size), 'result3': SavedTensor(result3),
            'scale_grad_by_freq': scale_grad_by_freq, 'sparse': sparse,
            'weight': SavedTensor(weight) if keep_weight else None, 'weight_sym_argsize_0': rows})
        output._grad_fn._bag_of = bag_of                # (offset2bag, which sum mode does not save)
    return output, offset2bag, bag_size, result3


class EmbeddingBagBackwardBackward0(Node):
    def apply(self, *grads):
        raise NotImplementedError("the derivative for '_embedding_bag_backward' is not implemented.")


class EmbeddingBagBackward0(Node):
    def apply(self, g):
        _check_dense_gradient(self, 'embedding_bag')
        s = self._saved
        idx = self.saved('indices')._data.reshape(-1).astype(np.int64)
        bag_of, mode, pad = self._bag_of, s['mode'], _signed(s['padding_idx'])
        psw = None if s['per_sample_weights'] is None else self.saved('per_sample_weights')._data
        gd = g._data
        gw = gpsw = None
        if self.needs(0):
            out = np.zeros((s['weight_sym_argsize_0'], gd.shape[1]), gd.dtype)
            if mode == 2:                               # (the gradient goes to the rows that were the max)
                mx, size = self.saved('result3')._data, self.saved('result2')._data
                for b in np.flatnonzero(size).tolist():
                    np.add.at(out, (mx[b], np.arange(gd.shape[1])), gd[b])
            else:                                       # (each row's scale in double, then one axpy per index)
                freq = None
                if s['scale_grad_by_freq']:
                    # (PyTorch's kernel divides the k-th distinct index's rows by the count of the k-th smallest
                    # index, not its own: reproduced)
                    counts = np.bincount(idx.astype(np.intp), minlength=out.shape[0])
                    ordered = np.sort(idx, kind='stable')
                    freq = {v: counts[ordered[k]] for k, v in enumerate(np.unique(idx).tolist())}
                size = self.saved('result2')._data
                for i in np.flatnonzero(idx != pad).tolist():
                    scale = 1.0 if psw is None else float(psw[i])
                    if freq is not None:
                        scale /= freq[idx[i]]
                    if mode == 1:
                        scale /= size[bag_of[i]]
                    out[idx[i]] += gd[bag_of[i]] * gd.dtype.type(scale)
            gw = _attach(make(out), EmbeddingBagBackwardBackward0,      # (create_graph: a node without derivative)
                         (g, None if s['per_sample_weights'] is None else self.saved('per_sample_weights')))
        if self.needs(1):                               # (_embedding_bag_per_sample_weights_backward)
            w = self.saved('weight')._data
            gpsw = np.zeros(idx.size, gd.dtype)
            for i in np.flatnonzero(idx != pad).tolist():
                gpsw[i] = np.dot(gd[bag_of[i]], w[idx[i]])
            from ._ops import _not_implemented
            gpsw = _not_implemented(make(gpsw), (g, self.saved('weight')),
                                    'aten::_embedding_bag_per_sample_weights_backward')
        return gw, gpsw


# ================================================================================================ layer norm

def _fused(a, b, c):
    """a * b + c rounded once (float32: the float64 product is exact), as GCC compiles PyTorch's kernels."""
    if np.asarray(a).dtype == _F64:
        return _fma64(a, b, c)
    if np.asarray(a).dtype != np.float32:
        return a * b + c
    return (np.asarray(a, _F64) * b + c).astype(np.float32)


def _add_moments(count_add, m1_add, m2_add, acc, fused):
    """Merge moments (count, mean, sum of squared deviations) into acc = [count, m1, m2] (AddMoments; the vector
    version is compiled without fused multiply-adds, the scalar one with: measured)."""
    t = m1_add.dtype.type
    n = acc[0] + count_add
    c = t(0) if n == 0 else t(count_add) / t(n)
    delta = m1_add - acc[1]
    acc[1] = _fused(c, delta, acc[1]) if fused else acc[1] + c * delta
    tail = delta * delta * c
    acc[2] = acc[2] + _fused(tail, t(acc[0]), m2_add) if fused else (acc[2] + m2_add) + tail * t(acc[0])
    acc[0] = n


def _rowwise_moments(x):
    """Each row's mean and biased variance as PyTorch's CPU kernel computes them (RowwiseMoments, AVX2: 8 floats or
    4 doubles a vector): Welford's updates lane by lane over chunks of 16 vectors, the chunks merged as a binary
    counter (cascade), then the numbers after the last whole vector one by one, then each lane merged in. Measured
    bit for bit on float32 rows up to 128 numbers (one chunk); ~98% of the variances longer."""
    rows, n = x.shape
    t = x.dtype.type
    lanes = 32 // x.itemsize
    nv = n // lanes
    chunks = -(-nv // 16)
    depth = 1 if chunks <= 2 else (chunks - 1).bit_length()
    zero = np.zeros((rows, lanes), x.dtype)
    stack = [[0, zero, zero] for _ in range(depth)]
    v = x[:, :nv * lanes].reshape(rows, nv, lanes)
    for i in range(chunks):
        m1 = m2 = zero
        count = builtins.min(16, nv - i * 16)
        for j in range(count):                            # (fused multiply-adds here)
            xv = v[:, i * 16 + j]
            delta = xv - m1
            m1 = _fused(delta, t(1) / t(j + 1), m1)
            m2 = _fused(delta, xv - m1, m2)
        _add_moments(count, m1, m2, stack[0], False)
        mask, j = i + 1, 1
        while j < depth and mask & 1 == 0:
            _add_moments(*stack[j - 1], stack[j], False)
            stack[j - 1] = [0, zero, zero]
            mask, j = mask >> 1, j + 1
    for j in range(1, depth):
        _add_moments(*stack[j], stack[0], False)
    acc = [0, np.zeros(rows, x.dtype), np.zeros(rows, x.dtype)]
    for i in range(nv * lanes, n):                        # (no fused multiply-adds here)
        delta = x[:, i] - acc[1]
        acc[0] += 1
        acc[1] = acc[1] + delta / t(acc[0])
        acc[2] = acc[2] + delta * (x[:, i] - acc[1])
    for lane in range(lanes):
        _add_moments(nv, stack[0][1][:, lane], stack[0][2][:, lane], acc, True)
    return acc[1], acc[2] / t(n)


def _check_layer_norm(input, normalized_shape, weight, bias, expected='[*, %s]', fn='layer_norm', mixed=False):
    """PyTorch's checks of layer_norm's arguments (and rms_norm's: `expected` is how its message shows the input
    shape wanted); the normalized shape as a tuple of ints, read as PyTorch's parser reads it (int tensors too).
    mixed: the dtypes checked too, after the parser and before the shapes (layer_norm's kernel)."""
    from ._factories import _int_list            # (_factories imports this module's neighbours)
    shape = _int_list((normalized_shape,), fn, False, 'normalized_shape', 2)
    if mixed:
        _check_mixed(input, weight, bias)
    show = lambda s: '[%s]' % ', '.join(str(d) for d in s)
    if not shape:
        raise RuntimeError('Expected normalized_shape to be at least 1-dimensional, i.e., containing at least one '
                           'element, but got normalized_shape = []')
    for name, t in (('weight', weight), ('bias', bias)):
        if t is not None and tuple(t.shape) != shape:
            raise RuntimeError('Expected %s to be of same shape as normalized_shape, but got %s of shape %s and '
                               'normalized_shape = %s' % (name, name, show(t.shape), show(shape)))
    size = tuple(input.shape)
    if fn == 'rms_norm' and not size:
        raise ValueError('Input tensor must have at least 1 dimensions, but got 0')
    if len(size) < len(shape) or size[len(size) - len(shape):] != shape:
        raise RuntimeError('Given normalized_shape=%s, expected input with shape %s, but got input of size%s'
                           % (show(shape), expected % ', '.join(str(d) for d in shape), show(size)))
    return shape


def _check_mixed(input, *params):
    """PyTorch's CPU norm kernels' dtype checks: parameters of the input's dtype when the first given one has it;
    else float32 ones only (mixed dtype), and then only for a float16 input."""
    dtypes = [t.dtype for t in params if t is not None]
    if dtypes and dtypes[0] is input.dtype:         # (then every other parameter must have it too)
        for d in dtypes[1:]:
            if d is not input.dtype:
                raise RuntimeError('expected scalar type %s but found %s' % (input.dtype.legacy, d.legacy))
    elif dtypes:
        if any(d is not dt.float32 for d in dtypes):
            raise RuntimeError('mixed dtype (CPU): expect parameter to have scalar type of Float')
        if input.dtype is not dt.float16:
            raise RuntimeError('mixed dtype (CPU): all inputs must share same datatype.')


def layer_norm(input, normalized_shape, weight=None, bias=None, eps=1e-5):
    """(x - mean) * rstd * weight + bias over the last len(normalized_shape) dims, each row's mean and
    rstd = 1 / sqrt(var + eps) (biased variance) as PyTorch's CPU kernel computes them; the node saves them
    (result1, result2, shaped like the input with 1 for each normalized dim)."""
    shape = _check_layer_norm(input, normalized_shape, weight, bias, mixed=True)
    _check_float(input, 'LayerNormKernelImpl')
    x = input._data
    n = math.prod(shape)
    rows = np.ascontiguousarray(x).reshape(math.prod(x.shape[:x.ndim - len(shape)]), n)
    wd, bd = (None if p is None else p._data.reshape(-1) for p in (weight, bias))
    if x.dtype is _F16:             # (halves: computed in float; the output and the saved mean and rstd rounded)
        rows, wd, bd = (None if v is None else v.astype(_F32) for v in (rows, wd, bd))
    t = rows.dtype.type
    if rows.size:
        mean, var = _rowwise_moments(rows)
        rstd = t(1) / np.sqrt(var + t(eps))
    else:                           # (rows of nothing: mean 0, rstd 1 / sqrt(0 / 0))
        mean, rstd = np.zeros(rows.shape[0], rows.dtype), np.full(rows.shape[0], np.nan, rows.dtype)
    centred = (rows - mean[:, None]) * rstd[:, None]
    if weight is not None and bias is not None:           # (the vectorized path: a fused multiply-add)
        out = _fused(centred, wd, bd)
    else:
        out = centred * (1 if weight is None else wd) + (0 if bias is None else bd)
    stat_shape = x.shape[:x.ndim - len(shape)] + (1,) * len(shape)
    save_mean, save_rstd = (make(v.astype(x.dtype, copy=False).reshape(stat_shape)) for v in (mean, rstd))
    out = _attach(make(out.astype(x.dtype).reshape(x.shape)), NativeLayerNormBackward0, (input, weight, bias), {
        'bias': None if bias is None else SavedTensor(bias), 'input': SavedTensor(input),
        'normalized_shape': shape, 'result1': SavedTensor(save_mean), 'result2': SavedTensor(save_rstd),
        'weight': None if weight is None else SavedTensor(weight)})
    if out._grad_fn is not None and eps != 1e-5:
        out._grad_fn._eps = eps                   # (not a saved name in PyTorch; for gradients of gradients)
    return out


class NativeLayerNormBackward0(Node):
    """PyTorch's layer norm backward kernel, row by row: with ds = sum(dy * x * w), db = sum(dy * w),
    dx = rstd * dy * w + b * x + c, b = (db * mean - ds) * rstd^3 / n, c = -b * mean - db * rstd / n;
    dw = sum over rows of dy * (x - mean) * rstd, dbias = sum over rows of dy."""

    def apply(self, g):
        x, w = self.saved('input'), self.saved('weight')
        n = math.prod(self._saved['normalized_shape'])
        m = math.prod(x._data.shape[:x._data.ndim - len(self._saved['normalized_shape'])])
        xd = np.ascontiguousarray(x._data).reshape(m, n)
        gd = np.ascontiguousarray(g._data).reshape(m, n).astype(xd.dtype)
        mean = self.saved('result1')._data.reshape(-1)[:, None]
        rstd = self.saved('result2')._data.reshape(-1)[:, None]
        out_dtype = xd.dtype
        if out_dtype is _F16:           # (halves: the kernel computes in float; the gradients rounded to half)
            xd, gd, mean, rstd = (v.astype(_F32) for v in (xd, gd, mean, rstd))
        t = xd.dtype.type
        gx = gw = gb = None
        if self.needs(0):
            wd = None if w is None else w._data.reshape(-1).astype(xd.dtype, copy=False)
            gx_ = gd * xd                   # (map2 / map3_reduce_all: the products left over fused into the sum)
            ds = (_vec_sum(gx_, 32, (gd, xd)) if wd is None else _vec_sum(gx_ * wd, 32, (gx_, wd)))[:, None]
            db = (_vec_sum(gd, 32) if wd is None else _vec_sum(gd * wd, 32, (gd, wd)))[:, None]
            scale = t(1) / t(n) if n else t(0)      # (rows of nothing: no gradient to scale)
            b = _fused(db, mean, -ds) * rstd * rstd * rstd * scale          # (fused multiply-adds: measured)
            c = _fused(-b, mean, -(db * rstd * scale))
            gx = make((_fused(b, xd, rstd * gd if wd is None else rstd * gd * wd) + c).astype(out_dtype, copy=False)
                      .reshape(x._data.shape))
        if w is not None and self.needs(1) or len(self._fns) > 2 and self.needs(2):
            half = -(-xd.shape[0] // 2)                   # (PyTorch's two threads each sum half the rows, then adds)
            if self.needs(1):                             # (buffer += dy * (rstd * x - rstd * mean), fused)
                terms = _fused(rstd, xd, -rstd * mean)
                gw = make((_fused_rows(gd[:half], terms[:half]) + _fused_rows(gd[half:], terms[half:]))
                          .astype(out_dtype, copy=False).reshape(w._data.shape))
            if len(self._fns) > 2 and self.needs(2):
                gb = make((_in_order_rows(gd[:half]) + _in_order_rows(gd[half:])).astype(out_dtype, copy=False)
                          .reshape(w._data.shape
                                                                                       if w is not None else
                                                                                       self._saved['normalized_shape']))
        k, eps = len(self._saved['normalized_shape']), self.__dict__.get('_eps', 1e-5)

        def formula(g, x, mean, rstd, w, bias):
            dims = tuple(range(x.dim() - k, x.dim()))
            return _norm_grads(g, x, w, dims, tuple(range(x.dim() - k)), x - x.mean(dims, keepdim=True), eps)
        # (the inputs of PyTorch's node: grad_out, input, mean, rstd, weight, bias)
        return _second_order(NativeLayerNormBackwardBackward0, (g, x, None, None, w, self.saved('bias')),
                             (gx, gw, gb), formula,
                             {'grad_out': g, 'input': x, 'mean': self.saved('result1'),
                              'normalized_shape': self._saved['normalized_shape'], 'rstd': self.saved('result2'),
                              'weight': w})


def _norm_grads(g, x, w, dims, outer, centred, eps, w_shape=None):
    """The gradients of a normalization (x - mean) * rstd * w + b over `dims` (the mean already subtracted:
    `centred`), in differentiable ops: for the second derivatives (see _second_order)."""
    rstd = (centred.pow(2).mean(dims, keepdim=True) + eps).rsqrt()
    xhat = centred * rstd
    gh = g if w is None else g * (w if w_shape is None else w.reshape(w_shape))
    gx = rstd * (gh - gh.mean(dims, keepdim=True) - xhat * (gh * xhat).mean(dims, keepdim=True))
    return gx, None if w is None else (g * xhat).sum(outer).reshape(w.shape), g.sum(outer)


class _SecondOrder(Node):
    """The node of the first-order gradients that an exact numpy kernel computed (a norm's backward), named as
    PyTorch's: its own backward is the vector-Jacobian product of `_formula`, the same gradients written in
    differentiable ops, at its inputs `_ins` (gradients of gradients through layer, batch and group norm)."""

    def apply(self, *grads):
        from .autograd import grad
        if self._saved:
            self._unpack_all()              # (freed, or modified in place: PyTorch's errors, as its formula reads them)
        elif self._freed:                   # (PyTorch's composite formula saves tensors: freed all the same)
            raise ag._freed_error(self, None)
        ins, create = self._ins, ag.grad_enabled
        want = [i for i, t in enumerate(ins) if t is not None and self.needs(i)]
        with ag.enable_grad():
            # each input through a node of its own: the partial derivatives, not through one input to another
            srcs = [None if t is None else t.view_as(t) if create else t.detach().requires_grad_(i in want)
                    for i, t in enumerate(ins)]
            pairs = [(o, gg) for o, gg in zip(self._formula(*srcs), grads)
                     if o is not None and gg is not None and o._requires_grad]
            res = grad([o for o, _ in pairs], [srcs[i] for i in want], [gg for _, gg in pairs],
                       create_graph=create, allow_unused=True) if pairs and want else ()
        out = [None] * len(ins)
        for i, r in zip(want, res):
            out[i] = r
        return tuple(out)


class NativeLayerNormBackwardBackward0(_SecondOrder):
    pass


class NativeBatchNormBackwardBackward0(_SecondOrder):
    pass


def _second_order(cls, ins, outs, formula, saved=None):
    """`outs`, the first-order gradients a kernel computed from `ins`, made outputs of one `cls` node when autograd
    records them (create_graph=True); the node shows what PyTorch's saves (`saved`: tensors, None or values)."""
    if not ag.grad_enabled or not any(t is not None and t._requires_grad for t in ins):
        return outs
    if saved:
        saved = {k: SavedTensor(v) if isinstance(v, Tensor) else v for k, v in saved.items()}
    node = ag.record(None, cls, ins, saved)
    node.num_outputs = len(outs)
    node._ins, node._formula = ins, formula
    for i, t in enumerate(outs):
        if t is not None:
            t._grad_fn, t._requires_grad, t._output_nr = node, True, i
    ag.fw_outputs(node, ins, [t for t in outs if t is not None])
    return outs


def _in_order_rows(a):
    """The rows of a 2-d array added in order from +0 (a buffer accumulating row by row)."""
    return np.add.reduce(a, axis=0, initial=0) if a.shape[0] else np.zeros(a.shape[1], a.dtype)


def _fused_rows(a, b):
    """The products of the rows of a and b added in order from +0, each product and addition rounded once."""
    acc = np.zeros(a.shape[1], a.dtype)
    for i in range(a.shape[0]):
        acc = _fused(a[i], b[i], acc)
    return acc
