"""The op table, part 5: more indexing and shape ops (scatter, index_add, nonzero, tile, hstack, ...).

Same rules as `_ops.py`: numpy forward beside a backward written with tensor ops (so double backward works),
node names and saved attributes exactly as PyTorch 2.13 has them. `__all__` names the torch.* functions; the
Tensor methods are set here.
"""
import builtins
import operator
import warnings

import numpy as np

from . import _methods
from . import _ops as ops
from . import _dtypes as dt
from ._autograd import Node, SavedTensor
from ._ops_nn import where as _where
from ._ops import (_attach, _sizes, _given, _signed, _along, _check_broadcast, _preserved_copy, _scalar,
                   put as _put_at)
from ._tensor import Tensor, make, _wrap_dim, warn_once, user_stacklevel, parser_type

__all__ = ['scatter', 'scatter_add', 'index_add', 'index_fill', 'index_copy', 'nonzero', 'argwhere', 'masked_select',
           'masked_scatter', 'take', 'put', 'take_along_dim', 'repeat_interleave',
           'tile', 'atleast_1d', 'atleast_2d', 'atleast_3d', 'hstack', 'vstack', 'row_stack', 'dstack',
           'column_stack', 'tensor_split', 'hsplit', 'vsplit', 'dsplit', 'ravel', 'fliplr', 'flipud', 'rot90',
           'diagonal', 'diag_embed', 'diagflat', 'as_strided',
           'meshgrid', 'broadcast_tensors', 'broadcast_shapes', 'cartesian_prod', 'tril_indices', 'triu_indices',
           'scatter_reduce', 'select_scatter', 'slice_scatter', 'diagonal_scatter', 'narrow_copy']

_LEGACY = {'float32': 'Float', 'float64': 'Double', 'float16': 'Half', 'int64': 'Long', 'int32': 'Int',
           'int16': 'Short', 'int8': 'Char', 'uint8': 'Byte', 'bool': 'Bool'}


def _shape(t):
    return t._data.shape if t._data.ndim else (1,)


def _scatter_meta(a, dim, index, src=None, *args, **kwargs):
    """PyTorch's scatter meta checks (scatter, scatter_add, scatter_reduce), in its order: index's dtype, src's, then
    index's shape against self's and src's (none for an empty index). Its in-place forms assert that self overlaps
    no input only after these, and check the reduce argument and index's values later still. Returns dim wrapped."""
    d = _wrap_dim(dim, a._data.ndim)
    idx = index._data
    if idx.size and idx.dtype.name not in ('int32', 'int64'):
        raise RuntimeError('scatter(): Expected dtype int32/int64 for index')  # (scatter_add's too)
    src = src if isinstance(src, Tensor) else None      # (scatter's value may come third)
    if src is not None and src._data.dtype != a._data.dtype:
        raise RuntimeError('scatter(): Expected self.dtype to be equal to src.dtype')
    if idx.size:
        if builtins.max(idx.ndim, 1) != builtins.max(a._data.ndim, 1):
            raise RuntimeError('Index tensor must have the same number of dimensions as self tensor')
        _check_sizes(a, d, index, src)
    return d


def _positions(a, d, index, src=None):
    """Flat positions in `a` (0-d read as 1-d) that scatter `index` addresses along d (checked by _scatter_meta),
    each in bounds (src: the values' array, if any)."""
    idx = index._data
    if not idx.size:
        return np.zeros(idx.shape, np.intp)
    shape, ishape = _shape(a), idx.shape or (1,)
    ops._check_scatter_gather_index(idx.reshape(ishape), d, shape[d], (a._data,) if src is None else (a._data, src))
    return _along(idx.reshape(ishape).astype(np.intp), d, shape)


def _check_sizes(a, d, index, src):
    """PyTorch's scatter_shape_check, in its order: index's sizes against self's, then against src's (reading a
    size src does not have is an IndexError), then src's number of dims, then the sizes' verdict."""
    ishape, shape = _shape(index), _shape(a)
    sshape = _shape(src) if src is not None else None
    wrong = builtins.any(i != d and n > shape[i] for i, n in enumerate(ishape))
    if not wrong and sshape is not None:
        for i, n in enumerate(ishape):
            if i >= len(sshape) and src._data.ndim:       # (a 0-d src reads as size 1 in every dim)
                raise IndexError('Dimension out of range (expected to be in range of [%d, %d], but got %d)'
                                 % (-len(sshape), len(sshape) - 1, i))
            if n > (sshape[i] if src._data.ndim else 1):
                wrong = True
                break
    if src is not None and len(sshape) != len(ishape):
        raise RuntimeError('Index tensor must have the same number of dimensions as src tensor')
    if wrong and sshape is None:
        raise RuntimeError('Expected index [%s] to be no larger than self [%s] apart from dimension %d'
                           % (_join(index._data.shape), _join(a._data.shape), d))
    if wrong:
        raise RuntimeError('Expected index [%s] to be no larger than self [%s] apart from dimension %d and to be '
                           'no larger size than src [%s]' % (_join(index._data.shape), _join(a._data.shape), d,
                                                             _join(src._data.shape)))


def _clone(arr):
    """A copy laid out as PyTorch's clone (preserve format)."""
    return ops._preserved_copy(arr)


def _join(shape):
    return ', '.join(map(str, shape))


def _src_meta(out, src, index):
    """The scatter ops read only index's corner of src, so src's gradient (gathered) has index's shape: PyTorch's
    engine then refuses it ("returned an invalid gradient at index 1") when src is larger. The node keeps src's
    shape for that check (it keeps only the shapes that differ from the output's)."""
    node = out._grad_fn
    if node is not None and src._requires_grad and src._data.shape != index._data.shape:
        meta = list(node._meta or [None] * len(node._fns))
        meta[1] = (src._data.shape, src._data.dtype)
        node._meta = meta
    return out


def _region(src, index):
    """The part of src that scatter reads: its leading corner of index's shape."""
    data = src._data.reshape(_shape(src))
    if not index._data.size:                    # (an empty index reads nothing, whatever src's dims)
        return data.reshape(-1)[:0]
    return data[tuple(slice(0, n) for n in _shape(index))]


# ================================================================================================ scatter

def scatter(a, dim, index, src=None, value=None, *, reduce=None):
    """A copy of `a` with src's values (or `value`) written at index along dim: out[index[i][j]][j] = src[i][j]."""
    if src is None and value is None:
        raise TypeError("scatter() missing required argument 'src' or 'value'")
    v = src if src is not None else value
    d = _scatter_checks(a, dim, index, src, value, reduce=reduce)
    if reduce is not None:
        return _scatter_reduce_legacy(a, dim, index, v, reduce)
    is_src = isinstance(v, Tensor)
    flat = _positions(a, d, index, v._data if is_src else None)
    out = a._data.copy()
    vals = _region(v, index).reshape(-1) if is_src else np.asarray(_scalar(v))
    out.reshape(-1)[flat.reshape(-1)] = vals.astype(out.dtype)
    saved = {'dim': _given(dim), 'index': SavedTensor(index)}
    if is_src:
        return _src_meta(_attach(make(out), ScatterBackward0, (a, v), saved), v, index)
    return _attach(make(out), ScatterBackward1, (a,), saved)


class ScatterBackward0(Node):
    def apply(self, g):
        dim, index = _signed(self._saved['dim']), self.saved('index')
        return (g.scatter(dim, index, 0) if self.needs(0) else None,
                g.gather(dim, index) if self.needs(1) else None)


class ScatterBackward1(Node):
    def apply(self, g):
        return (g.scatter(_signed(self._saved['dim']), self.saved('index'), 0),)


_LEGACY_WARNING = ('The reduce argument of torch.scatter with Tensor src is deprecated and will be removed in a future '
                   'PyTorch release. Use torch.scatter_reduce instead for more reduction options.')


def _scatter_checks(a, dim, index, src=None, value=None, *, reduce=None):
    """scatter's checks before its in-place form asserts no overlap: reduce with a Tensor src is deprecated (warned
    before all else), then _scatter_meta's."""
    v = src if src is not None else value
    if reduce is not None and isinstance(v, Tensor):
        warn_once(_LEGACY_WARNING, 'aten/src/ATen/native/TensorAdvancedIndexing.cpp:225')     # (at the user's line)
    return _scatter_meta(a, dim, index, v)


def _scatter_reduce_legacy(a, dim, index, v, reduce):
    """scatter(..., reduce='add' / 'multiply'): no derivative (PyTorch's NotImplemented node)."""
    if reduce not in ('add', 'multiply'):
        raise RuntimeError('reduce argument must be either add or multiply.')
    d = _wrap_dim(dim, a._data.ndim)
    is_src = isinstance(v, Tensor)
    flat = _positions(a, d, index)
    vals = _region(v, index).reshape(-1) if is_src else np.full(flat.size, _scalar(v))
    out = make(_reduced(a._data, flat.reshape(-1), vals, 'sum' if reduce == 'add' else 'prod', True))
    return ops._not_implemented(out, (a, v) if is_src else (a,), 'aten::scatter')


def scatter_add(a, dim, index, src):
    """A copy of `a` with src's values added at index along dim: out[index[i][j]][j] += src[i][j]."""
    d = _scatter_meta(a, dim, index, src)
    flat = _positions(a, d, index, src._data)
    out = a._data.copy()
    np.add.at(out.reshape(-1), flat.reshape(-1), _region(src, index).reshape(-1))
    return _src_meta(_attach(make(out), ScatterAddBackward0, (a, src),
                             {'dim': _given(dim), 'index': SavedTensor(index) if ops._edge(src) else None}),
                     src, index)


class ScatterAddBackward0(Node):
    def apply(self, g):
        return (g if self.needs(0) else None,
                g.gather(_signed(self._saved['dim']), self.saved('index')) if self.needs(1) else None)


_REDUCE = {'sum': (np.add, 0), 'mean': (np.add, 0), 'prod': (np.multiply, 1), 'amax': (np.maximum, -np.inf),
           'amin': (np.minimum, np.inf)}
_REDUCE.update(max=_REDUCE['amax'], min=_REDUCE['amin'])     # (legacy names: forward only)


def reduce_identity(reduce, dtype):
    """What a position left out of its own reduction (include_self=False) starts from: 0, 1, or the lowest (amax)
    or highest (amin) value of the numpy dtype, as PyTorch's kernels start."""
    if reduce not in ('amax', 'amin', 'max', 'min'):
        return _REDUCE[reduce][1]
    high = reduce in ('amin', 'min')
    if dtype.kind == 'f':
        return np.inf if high else -np.inf
    if dtype.kind == 'b':
        return high
    info = np.iinfo(dtype)
    return info.max if high else info.min


def _reduced(x, flat, vals, reduce, include_self):
    """x with vals reduced into the flat positions (numpy, x copied)."""
    ufunc = _REDUCE[reduce][0]
    out = x.copy()
    o = out.reshape(-1)
    if not include_self:
        o[flat] = reduce_identity(reduce, x.dtype)
    vals = vals.astype(x.dtype)
    if ufunc in (np.maximum, np.minimum) and x.dtype.kind == 'f' and (vals == 0).any():
        # (zeros of both signs: PyTorch's kernel keeps what the position holds on a tie, a NaN taking over)
        better = operator.gt if ufunc is np.maximum else operator.lt
        for p, v in zip(flat.tolist(), vals.tolist()):
            if v != v or better(v, o[p]):
                o[p] = v
    else:
        ufunc.at(o, flat, vals)
    if reduce == 'mean':
        n = np.full(o.shape, 1 if include_self else 0, np.int64)
        np.add.at(n, flat, 1)
        n[n == 0] = 1
        o[...] = o // n if x.dtype.kind in 'iub' else (o / n).astype(x.dtype)
    return out


def scatter_reduce(a, dim, index, src, reduce, *, include_self=True):
    """A copy of `a` with src's values reduced (sum, prod, mean, amax, amin) into the positions index along dim,
    `a`'s own values taking part unless include_self=False."""
    d = _scatter_meta(a, dim, index, src)
    if reduce not in _REDUCE:
        raise RuntimeError('reduce argument must be either sum, prod, mean, amax or amin, got %s' % reduce)
    if reduce == 'mean' and a._data.dtype.kind == 'b':
        raise NotImplementedError('"scatter_gather_tensor_cpu_reduce_mean" not implemented for \'Bool\'')
    flat = _positions(a, d, index, src._data)
    out = make(_reduced(a._data, flat.reshape(-1), _region(src, index).reshape(-1), reduce, include_self))
    return _src_meta(_attach(out, ScatterReduceBackward0, (a, src), {
        'dim': _given(dim), 'include_self': include_self, 'index': SavedTensor(index), 'reduce': reduce,
        'result': ops._RESULT, 'self': SavedTensor(a), 'src': SavedTensor(src)}), src, index)


class ScatterReduceBackward0(Node):
    """PyTorch's scatter_reduce_backward: each input's share of every reduced position."""
    def apply(self, g):
        s = self._saved
        dim, reduce, include_self = _signed(s['dim']), s['reduce'], s['include_self']
        index, x, src, result = self.saved('index'), self.saved('self'), self.saved('src'), self.saved('result')
        if reduce == 'sum':
            gx, gs = g, g.gather(dim, index)
        elif reduce == 'mean':
            n = (ops._zeros_like(g) + (1. if include_self else 0.)).scatter_add(dim, index, ops._zeros_like(src) + 1.)
            n = n.masked_fill(n == 0, 1)
            gx = g / n
            gs = gx.gather(dim, index)
        elif reduce == 'prod':
            masked_self = x.masked_fill(x == 0, 1)
            gx = g * masked_self.scatter_reduce(dim, index, src, reduce, include_self=include_self) / masked_self
            src_zero = src == 0
            zeros = ops._zeros_like(x).scatter_add(dim, index, src_zero.to(x.dtype)).gather(dim, index)
            single = src_zero.logical_and(zeros == 1)
            masked_src_result = x.scatter_reduce(dim, index, src.masked_fill(single, 1), reduce,
                                                 include_self=include_self)
            gs = _where(single, (g * masked_src_result).gather(dim, index),
                        (g * result).gather(dim, index) / src.masked_fill(src_zero, 1))
        elif reduce in ('max', 'min'):
            raise RuntimeError("Expected 'reduce' to be one of 'sum', 'prod', 'mean', 'amax', 'amin' but got %s."
                               % reduce)
        else:                                       # amax, amin: shared equally among the values that won
            value = result.gather(dim, index)
            self_won, src_won = x == result, src == value
            n = self_won.to(x.dtype).scatter_add(dim, index, src_won.to(x.dtype))
            share = g / n
            gx = self_won * share
            gs = src_won * share.gather(dim, index)
        if not include_self:
            gx = gx.scatter(dim, index, 0)
        return (gx if self.needs(0) else None, gs if self.needs(1) else None)


# ================================================================================================ index_*

def _index_vector(a, d, index, name, error=RuntimeError, dtypes='int32/int64', alpha=1):
    idx = _index_kind(index, name, dtypes)
    size = _shape(a)[d]
    idx = idx.reshape(-1)
    bad = idx[(idx < -size) | (idx >= size)] if name == 'index_fill_' else idx[(idx < 0) | (idx >= size)]
    if bad.size and name == 'index_add_' and (a._data.ndim <= 1 or d not in (0, a._data.ndim - 1) or alpha != 1):
        raise IndexError('index out of range in self')      # (scatter_add's check is the other's: its own kernel)
    if bad.size:
        raise error('%sindex %d is out of bounds for dimension %d with size %d'
                    % ('index_copy_(): ' if name == 'index_copy_' else '', bad[0], d, size))
    return (idx % builtins.max(size, 1)).astype(np.intp)


def _index_kind(index, name, dtypes='int32/int64'):
    """index's array, checked to be a vector (or a number) of an integer dtype PyTorch takes."""
    idx = index._data
    if idx.ndim > 1:
        if name == 'index_fill_':
            raise RuntimeError('Index has to be a vector/scalar')
        if name == 'index_copy_':
            raise IndexError('index_copy_(): Index should have dimension 1 or 0 (got %d)' % idx.ndim)
        raise IndexError('%s(): Index is supposed to be a vector, but got dim: %d with type: %s and size: [%s]'
                         % (name, idx.ndim, _LEGACY.get(idx.dtype.name, idx.dtype.name), _join(idx.shape)))
    if idx.dtype.kind not in 'iu' or idx.dtype != np.int64 and (dtypes == 'int64' or idx.dtype != np.int32):
        if name == 'index_copy_':
            raise RuntimeError('index_copy_(): Expected a long tensor for index, but got '
                               + _LEGACY.get(idx.dtype.name, idx.dtype.name))
        if dtypes == 'int64':
            raise IndexError('%s(): Expected dtype int64 for index.' % name)
        raise RuntimeError('%s(): Expected dtype %s for index but got: %s'
                           % (name, dtypes, _LEGACY.get(idx.dtype.name, idx.dtype.name)))
    return idx


def _slot(shape, d, idx):
    """A numpy key selecting the slices idx along d of an array of `shape`."""
    return (slice(None),) * d + (idx,)


def _same_slices(shape, other, d):
    return len(shape) == len(other) and all(n == m for i, (n, m) in enumerate(zip(shape, other)) if i != d)


def _index_add_meta(a, dim, index, source, *args, **kwargs):
    """PyTorch's index_add meta checks (index_func_meta_impl), in its order; index_add_ asserts that self overlaps no
    input only after these, and checks index's values after that. Returns dim wrapped."""
    return _index_func_meta(a, dim, index, source, 'index_add_')


def _index_func_meta(a, dim, index, source, name):
    """index_func_meta_impl, shared by index_add_ and index_reduce_ (`name` in its messages)."""
    d = _wrap_dim(dim, a._data.ndim)
    n = _index_kind(index, name).size
    if source._data.dtype != a._data.dtype:
        raise RuntimeError('%s(): self (%s) and source (%s) must have the same scalar type'
                           % (name, _LEGACY[a._data.dtype.name], _LEGACY[source._data.dtype.name]))
    sa, ss = a._data.shape, source._data.shape
    if d and d >= len(ss):
        raise RuntimeError('%s(): Indexing dim %d is out of bounds of the source tensor with dim %d'
                           % (name, d, len(ss)))
    if n != (ss[d] if ss else 1):
        if not ss:      # (PyTorch's message reads source.size(dim), which a 0-d source refuses)
            raise IndexError('Dimension specified as 0 but tensor has no dimensions')
        raise RuntimeError('%s(): Number of indices (%d) should be equal to source.size(dim): (%d), for dim: '
                           '%d' % (name, n, ss[d], d))
    if not (_same_slices(sa, ss, d) if sa and ss else sa == ss):       # (a 0-d one compared whole)
        raise RuntimeError('source tensor shape must match self tensor shape, excluding the specified dimension. Got '
                           'self.shape = [%s] source.shape = [%s]' % (_join(sa), _join(ss)))
    return d


def index_add(a, dim, index, source, *, alpha=1):
    """A copy of `a` with alpha * source's slices added at the positions index along dim."""
    d = _index_add_meta(a, dim, index, source)
    if isinstance(alpha, Tensor):               # (a 0-d tensor the parser took as a Scalar)
        alpha = alpha.item()
    idx = _index_vector(a, d, index, 'index_add_', alpha=alpha)
    out = a._data.copy().reshape(_shape(a))
    np.add.at(out, _slot(out.shape, d, idx), (source._data * alpha if alpha != 1 else source._data).astype(
        out.dtype).reshape(_shape(source)))
    out = make(out.reshape(a._data.shape))
    return _attach(out, IndexAddBackward0, (a, source), {
        'alpha': alpha, 'dim': _given(dim), 'index': SavedTensor(index) if source._requires_grad else None,
        'source': SavedTensor(source) if source._requires_grad else None, 'source_dim': source._data.ndim})


class IndexAddBackward0(Node):
    def apply(self, g):
        s = self._saved
        gs = None
        if self.needs(1):
            dim, source = _signed(s['dim']), self.saved('source')
            gs = g.index_select(dim, self.saved('index'))
            if s['source_dim'] == 0:
                gs = gs.reshape(())
            gs = gs.expand_as(source)
            if s['alpha'] != 1:
                gs = gs * s['alpha']
        return (g if self.needs(0) else None, gs)


def _filled(number, a):
    """index_fill's number as a value of a's dtype, by c10's checked conversion (uint8 takes -1 as 255, int8 refuses
    200, a half 1e5)."""
    if not isinstance(number, ops._Number):      # (a 0-d array is no Scalar: the argument parser's error replaces this)
        raise TypeError('index_fill: a tensor or a number value')
    return ops.dt.check_scalar(_scalar(number), a.dtype)


def _check_fill_args(index, value):
    """index_fill_'s first checks, before its dim's and its overlap warning: a value tensor's dims (PyTorch then
    reads it as a number), the index's dtype."""
    if isinstance(value, Tensor) and value._data.ndim:
        raise RuntimeError('index_fill_ only supports a 0-dimensional value tensor, but got tensor with %d '
                           'dimension(s).' % value._data.ndim)
    if index._data.dtype != np.int64:
        raise IndexError('index_fill_(): Expected dtype int64 for index.')


def index_fill(a, dim, index, value):
    """A copy of `a` with `value` (a number or a 0-d tensor) in the slices index along dim."""
    _check_fill_args(index, value)
    d = _wrap_dim(dim, a._data.ndim)
    idx = _index_vector(a, d, index, 'index_fill_', IndexError, 'int64')
    out = _clone(a._data).reshape(_shape(a))          # (a's layout kept, as PyTorch's clone)
    out[_slot(out.shape, d, idx)] = value._data if isinstance(value, Tensor) else _filled(value, a)
    out = make(out.reshape(a._data.shape))
    saved = {'dim': _given(dim), 'index': SavedTensor(index)}
    if isinstance(value, Tensor):
        return _attach(out, IndexFillBackward1, (a, value), saved)
    return _attach(out, IndexFillBackward0, (a,), saved)


def _index_fill_direct(a, dim, index, value):
    """index_fill_ into a tensor whose elements share memory: deprecated (warned), written straight in."""
    _check_fill_args(index, value)
    ops._overlap_warning('index_fill_', 'tensor[mask] = scalar', 1913)
    d = _wrap_dim(dim, a._data.ndim)
    idx = _index_vector(a, d, index, 'index_fill_', IndexError, 'int64')
    v = value._data if isinstance(value, Tensor) else _filled(value, a)

    def write(t):
        t[_slot(t.shape, d, idx)] = v
    return write


ops._OVERLAP_WARNED[index_fill] = _index_fill_direct
ops._OVERLAP_READ.add(index_fill)       # (PyTorch reads the 0-d value tensor as a number before writing)


class IndexFillBackward0(Node):
    def apply(self, g):
        return (g.index_fill(_signed(self._saved['dim']), self.saved('index'), 0),)


class IndexFillBackward1(Node):
    def apply(self, g):
        dim, index = _signed(self._saved['dim']), self.saved('index')
        return (g.index_fill(dim, index, 0) if self.needs(0) else None,
                g.index_select(dim, index).sum() if self.needs(1) else None)


def index_copy(a, dim, index, source):
    """A copy of `a` with source's slices written at the positions index along dim."""
    d = _wrap_dim(dim, a._data.ndim)
    nd, snd = a._data.ndim, source._data.ndim
    if index._data.ndim < 2 and not snd and index._data.size != 1:
        raise IndexError('index_copy_(): When source is scalar, index should have one element (got %d)'
                         % index._data.size)
    if index._data.ndim < 2 and snd != nd and snd and nd:
        raise IndexError('index_copy_(): When source and destination are not scalars, their dimensionality must '
                         'match. Source dimensionality (%d), destination dimensionality (%d)' % (snd, nd))
    _index_kind(index, 'index_copy_', 'int64')
    if source._data.dtype != a._data.dtype:
        raise RuntimeError('index_copy_(): self and source expected to have the same dtype, but got (self) %s and '
                           '(source) %s' % (_LEGACY[a._data.dtype.name], _LEGACY[source._data.dtype.name]))
    cut = lambda shape: ' '.join(str(m) for i, m in enumerate(shape) if i != d)   # noqa: E731
    if cut(a._data.shape) != cut(source._data.shape):        # (each without dim d, a 0-d one as it is)
        raise RuntimeError('index_copy_(): Source/destination tensor must have same slice shapes. Destination slice '
                           'shape: %s at dimension %d and source slice shape: %s at dimension 0.'
                           % (cut(a._data.shape), d, cut(source._data.shape)))
    n = _shape(source)[d] if source._data.ndim else 1
    if index._data.size != n:
        raise IndexError('index_copy_(): Number of indices (%d) should be equal to source.size(dim) (%d)'
                         % (index._data.size, n))
    idx = _index_vector(a, d, index, 'index_copy_', IndexError, 'int64')     # (its values: the kernel's check)
    out = a._data.copy().reshape(_shape(a))
    out[_slot(out.shape, d, idx)] = source._data.astype(out.dtype).reshape(_shape(source))
    out = make(out.reshape(a._data.shape))
    return _attach(out, IndexCopyBackward0, (a, source), {
        'dim': _given(dim), 'index': SavedTensor(index),
        'source': SavedTensor(source) if source._requires_grad else None, 'source_dim': source._data.ndim})


class IndexCopyBackward0(Node):
    def apply(self, g):
        s = self._saved
        dim, index = _signed(s['dim']), self.saved('index')
        gs = None
        if self.needs(1):
            gs = g.index_select(dim, index)
            if s['source_dim'] == 0:
                gs = gs.reshape(())
        return (g.index_fill(dim, index, 0) if self.needs(0) else None, gs)


# ================================================================================================ selecting

def nonzero(a, *, as_tuple=False):
    """The indices of the nonzero elements: one row per element (int64), or one index tensor per dim."""
    if as_tuple:
        return tuple(make(i.astype(np.int64)) for i in np.nonzero(np.atleast_1d(a._data)))
    rows = np.argwhere(a._data)
    out = np.empty(rows.shape[::-1], np.int64).T        # (laid out as PyTorch's: column-major, strides (1, n))
    out[...] = rows
    if not rows.size:                                   # (numpy gives an empty array strides of 0: PyTorch's too)
        out = np.lib.stride_tricks.as_strided(out, strides=(out.itemsize, out.itemsize * rows.shape[0]))
    return make(out)


def argwhere(a):
    """nonzero(a): one row of indices per nonzero element."""
    return nonzero(a)


def masked_select(a, mask):
    """The elements of `a` where the bool `mask` is True (they broadcast), as a 1-d tensor."""
    if mask._data.dtype.kind != 'b':
        raise RuntimeError('masked_select: expected BoolTensor for mask')
    _check_broadcast(mask._data.shape, a._data.shape)
    shape = np.broadcast_shapes(a._data.shape, mask._data.shape)
    m = np.broadcast_to(mask._data, shape)
    out = make(np.array(np.broadcast_to(a._data, shape)[m]))
    return _attach(out, MaskedSelectBackward0, (a,), {'mask': SavedTensor(mask), 'self': SavedTensor(a)})


class MaskedSelectBackward0(Node):
    def apply(self, g):
        mask, x = self.saved('mask'), self.saved('self')
        shape = np.broadcast_shapes(x._data.shape, mask._data.shape)
        flat = np.flatnonzero(np.broadcast_to(mask._data, shape))
        return (ops._versioned(_put_at(g, flat, shape, ops.MaskedScatterBackward0,     # (the engine sums it to
                        {'mask': SavedTensor(mask), 'source_sym_sizes': g._data.shape}, unique=True), 1),)  # self's shape)


def masked_scatter(a, mask, source):
    """A copy of `a` (broadcast with mask) whose elements where mask is True are source's first ones, in order."""
    _check_broadcast(mask._data.shape, a._data.shape)
    if a._data.dtype != source._data.dtype:
        raise RuntimeError('masked_scatter: expected self and source to have same dtypes but got%s and %s'
                           % (_LEGACY[a._data.dtype.name], _LEGACY[source._data.dtype.name]))
    if mask._data.dtype == np.uint8:            # (warned every time, then refused as other masks not bool)
        warnings.warn('masked_scatter_ received a mask with dtype torch.uint8, this behavior is now deprecated,'
                      'please use a mask with dtype torch.bool instead. (Triggered internally at '
                      '/__w/pytorch/pytorch/aten/src/ATen/native/TensorAdvancedIndexing.cpp:3130.)', UserWarning,
                      stacklevel=user_stacklevel())
    if mask._data.dtype.kind != 'b':
        raise RuntimeError('masked_scatter_ only supports boolean masks, but got mask with dtype '
                           + _LEGACY.get(mask._data.dtype.name, mask._data.dtype.name))
    shape = np.broadcast_shapes(a._data.shape, mask._data.shape)
    m = np.broadcast_to(mask._data, shape)
    count = int(np.count_nonzero(m))
    if source._data.size < count:
        raise RuntimeError(_SHORT_SOURCE)
    out = np.array(np.broadcast_to(a._data, shape), order='C')          # (contiguous, as PyTorch's)
    out[m] = source._data.reshape(-1)[:count]
    return _attach(make(out), MaskedScatterBackward0, (a, source), {
        'mask': SavedTensor(mask), 'source_sym_sizes': source._data.shape})


class MaskedScatterBackward0(Node):
    def apply(self, g):
        mask, sizes = self.saved('mask'), self._saved['source_sym_sizes']
        return (g.masked_fill(mask, 0) if self.needs(0) else None,
                _masked_scatter_backward(g, mask, sizes) if self.needs(1) else None)


def _masked_scatter_backward(g, mask, sizes):
    """The source's gradient: g's elements where mask is True, in order, zero-filled to the source's sizes."""
    picked = np.broadcast_to(g._data, np.broadcast_shapes(g._data.shape, mask._data.shape))[
        np.broadcast_to(mask._data, np.broadcast_shapes(g._data.shape, mask._data.shape))]
    out = np.zeros(int(np.prod(sizes, dtype=np.int64)), g._data.dtype)
    out[:builtins.min(picked.size, out.size)] = picked[:out.size]
    out = _attach(make(out.reshape(sizes)), MaskedScatterBackwardBackward0, (g,), {'mask': SavedTensor(mask)})
    if out._grad_fn is not None:
        out._grad_fn.grad_shape = g._data.shape
    return out


class MaskedScatterBackwardBackward0(Node):
    def apply(self, gg):
        zeros = make(np.zeros(self.grad_shape, gg._data.dtype))
        return (zeros.masked_scatter(self.saved('mask'), gg),)


_SHORT_SOURCE = 'Number of elements of source < number of ones in mask'


def masked_scatter_(a, mask, source):
    """masked_scatter in place: the mask must expand to a's shape. PyTorch's kernel writes a's masked elements one by
    one, in order, reading source as it goes: a source sharing a's memory reads what the kernel wrote there already,
    and a source too short leaves the elements before the error written."""
    if isinstance(source, Tensor) and a._data.dtype != source._data.dtype:    # (checked first, then the mask
        raise RuntimeError('masked_scatter: expected self and source to have same dtypes but got%s and %s'  # expands)
                           % (_LEGACY[a._data.dtype.name], _LEGACY[source._data.dtype.name]))
    mask.expand(a.shape)                        # (expand_inplace's errors, whatever the mask's dtype)
    if not (isinstance(source, Tensor) and mask._data.dtype.kind == 'b'):
        return ops._inplace(a, masked_scatter, mask, source)        # (its errors)
    try:
        if not np.may_share_memory(a._data, source._data):
            return ops._inplace(a, masked_scatter, mask, source)
        return ops._inplace(a, _masked_scatter_read, mask, source, _masked_scatter_reads(a, mask, source)[1])
    except RuntimeError as e:
        if str(e) != _SHORT_SOURCE:
            raise
        where, values = _masked_scatter_reads(a, mask, source)
        ops._writeable(where[0])[where[1:]] = values        # (written before the kernel ran out: not recorded)
        raise


def _masked_scatter_reads(a, mask, source):
    """The positions of a's masked elements that masked_scatter_'s kernel writes, as (a's array, index arrays...),
    and the values it writes there: source's first ones, each read just before it is written (a source that is not
    contiguous is a copy)."""
    arr = a._data.reshape(_shape(a))                   # (a 0-d tensor as 1-d: a view)
    where = np.nonzero(np.broadcast_to(mask._data, a._data.shape).reshape(arr.shape))
    n = builtins.min(where[0].size, source._data.size)
    where = tuple(i[:n] for i in where)
    values = source._data.reshape(-1)[:n].copy()
    if n and source._data.flags.c_contiguous and np.may_share_memory(arr, source._data):
        to = arr.__array_interface__['data'][0] + builtins.sum(     # (int64 addresses: intp is 32 bits in Pyodide)
            i.astype(np.int64) * s for i, s in zip(where, arr.strides))
        start = source._data.__array_interface__['data'][0]
        written = {}
        for k in range(n):
            values[k] = written.get(start + k * source._data.itemsize, values[k])
            written[int(to[k])] = values[k]
    return (arr,) + where, values


def _masked_scatter_read(a, mask, source, values):
    """masked_scatter with the values masked_scatter_'s kernel reads from a source sharing a's memory."""
    out = masked_scatter(a, mask, source)
    out._data[np.broadcast_to(mask._data, out._data.shape)] = values
    return out


ops._OVERLAP_READ.update((masked_scatter, _masked_scatter_read))    # (PyTorch's masked_scatter_ lets them overlap)


def take(a, index):
    """The elements of `a` at the flat positions `index`, shaped like index."""
    idx = index._data
    if idx.dtype != np.int64:
        raise RuntimeError('take(): Expected a long tensor for index, but got '
                           + _LEGACY.get(idx.dtype.name, idx.dtype.name))
    n = a._data.size
    bad = idx[(idx < -n) | (idx >= n)]
    if bad.size:
        if not n:
            raise IndexError('take(): tried to take from an empty tensor')
        raise IndexError('out of range: tried to access index %d on a tensor of %d elements.' % (bad.flat[0], n))
    flat = (idx % builtins.max(n, 1)).astype(np.intp)
    out = make(np.array(a._data.reshape(-1)[flat], order='C'))         # (shaped as index, 0-d too)
    return _attach(out, TakeBackward0, (a,), {'index': SavedTensor(index), 'self': SavedTensor(a)})


class TakeBackward0(Node):
    def apply(self, g):
        x, index = self.saved('self'), self.saved('index')
        n = builtins.max(x._data.size, 1)
        return (ops._versioned(_put_at(g, (index._data % n).astype(np.intp), x._data.shape), 1),)


def _put_meta(a, index, source, *args, **kwargs):
    """put_'s checks before it asserts that self overlaps no input (and checks index's values after that)."""
    idx = index._data
    if idx.dtype != np.int64:
        raise RuntimeError('put_(): Expected a long tensor for index, but got '
                           + _LEGACY.get(idx.dtype.name, idx.dtype.name))
    if a._data.dtype != source._data.dtype:
        raise RuntimeError('put_(): self and source expected to have the same dtype, but got self.dtype = %s and '
                           'source.dtype = %s' % (_LEGACY[a._data.dtype.name], _LEGACY[source._data.dtype.name]))
    if source._data.size != idx.size:
        raise IndexError('put_(): Expected source and index to have the same number of elements, but got '
                         'source.numel() = %d, index.numel() = %d' % (source._data.size, idx.size))
    if not a._data.size and idx.size:
        raise IndexError('put_(): Tried to put elements into an empty tensor')


def put(a, index, source, accumulate=False):
    """A copy of `a` with source's elements written (or added, accumulate=True) at the flat positions index."""
    _put_meta(a, index, source)
    idx = index._data
    n = a._data.size
    bad = idx[(idx < -n) | (idx >= n)]
    if bad.size:
        raise IndexError('out of range: tried to access index %d on a tensor of %d elements.' % (bad.flat[0], n))
    out = np.array(a._data, order='C', copy=True)        # (the positions count in row-major order)
    flat, values = (idx.reshape(-1) % builtins.max(n, 1)).astype(np.intp), source._data.reshape(-1)
    if accumulate:
        np.add.at(out.reshape(-1), flat, values)
    else:
        out.reshape(-1)[flat] = values
    if not (a._data.flags.c_contiguous and ops._row_major_sized_one(a._data)):  # (laid out as PyTorch's clone)
        laid = ops._preserved_empty(a._data)
        laid[...] = out
        out = laid
    return _attach(make(out), PutBackward0, (a, source), {
        'accumulate': accumulate, 'index': SavedTensor(index),
        'source': SavedTensor(source) if source._requires_grad else None})


class PutBackward0(Node):
    def apply(self, g):
        index = self.saved('index')
        gx = None
        if self.needs(0):
            gx = g if self._saved['accumulate'] else g.put(index, make(np.zeros(index._data.shape, g._data.dtype)),
                                                           False)
        return gx, g.take(index).reshape_as(self.saved('source')) if self.needs(1) else None


def take_along_dim(a, indices, dim=None):
    """gather along dim with `a` and `indices` broadcast against each other but at dim (of the flattened `a` and
    indices without dim)."""
    if dim is None:                     # (gather's index check only: int32 indices are taken)
        return a.view(-1).gather(0, indices.view(-1))
    if a._data.ndim != indices._data.ndim:
        raise RuntimeError('torch.take_along_dim(): input and indices should have the same number of dimensions, but '
                           'got %d dimensions for input, and %d dimensions for indices'
                           % (a._data.ndim, indices._data.ndim))
    if indices._data.dtype != np.int64:
        raise RuntimeError('torch.take_along_dim(): dtype of indices should be Long but got '
                           + _LEGACY.get(indices._data.dtype.name, indices._data.dtype.name))
    d = _wrap_dim(dim, a._data.ndim)
    if not a._data.ndim:                # (indices.size(dim) of a 0-d tensor)
        raise IndexError('Dimension specified as %d but tensor has no dimensions' % d)
    sizes = list(a._data.shape)
    sizes[d] = indices._data.shape[d]
    ops._check_broadcast(tuple(sizes), indices._data.shape)        # (infer_size's words)
    # (PyTorch gathers with a copy of the broadcast indices, laid out as clone() lays them out: dense)
    # (and wrapped into the dim's range, as 2.13's helper does: -1 and 3 of a size 3 are 2 and 0)
    copied = _preserved_copy(indices.broadcast_to(broadcast_shapes(sizes, indices._data.shape))._data)
    if a._data.shape[d]:
        np.remainder(copied, a._data.shape[d], out=copied)
    indices = make(copied)
    sizes = list(indices._data.shape)
    sizes[d] = a._data.shape[d]
    ops._check_broadcast(tuple(sizes), a._data.shape)
    return a.broadcast_to(broadcast_shapes(sizes, a._data.shape)).gather(d, indices)


def repeat_interleave(a, repeats=None, dim=None, *, output_size=None):
    """Each element (or slice along dim) repeated `repeats` times in place; repeat_interleave(r) alone repeats
    each position i r[i] times (an index)."""
    if repeats is None:                                          # torch.repeat_interleave(repeats)
        r = a._data
        if r.ndim > 1:
            raise RuntimeError('repeat_interleave only accept 1D vector as repeat')
        if r.dtype not in (np.int32, np.int64):
            raise NotImplementedError('"repeat_interleave_cpu" not implemented for \'%s\'' % a.dtype.legacy)
        if (r < 0).any():
            raise RuntimeError('repeats can not be negative')
        if output_size is not None and output_size != builtins.int(r.sum()):
            raise RuntimeError('allocated size does not match required size')
        return make(np.repeat(np.arange(r.size, dtype=r.dtype), r.reshape(-1).astype(np.intp)))
    x = a
    if dim is None:
        x, dim = a.flatten(), 0
    d = _wrap_dim(dim, x._data.ndim)
    if isinstance(repeats, Tensor) and repeats._data.dtype not in (np.int32, np.int64):
        repeat_interleave(repeats)                                   # (its error)
    if isinstance(repeats, Tensor) and repeats._data.ndim == 0:
        repeats = make(np.full(_shape(x)[d], builtins.int(repeats._data), np.int64))    # (index_select, as PyTorch)
    if isinstance(repeats, Tensor):
        if repeats._data.ndim > 1:
            raise RuntimeError('repeats must be 0-dim or 1-dim tensor')
        r = repeats._data.reshape(-1)
        if r.size == 1:
            r = np.full(_shape(x)[d], r[0], r.dtype)
        if r.size != _shape(x)[d]:
            raise RuntimeError('repeats must have the same size as input along dim, but got repeats.size(0) = %d and '
                               'input.size(%d) = %d' % (r.size, d, _shape(x)[d]))
        return x.index_select(dim, repeat_interleave(make(r), output_size=output_size))   # (dim as given)
    if repeats < 0:
        raise RuntimeError('Repeats must be non-negative')
    if output_size is not None and output_size != repeats * _shape(x)[d]:
        raise RuntimeError('repeat_interleave: Invalid output_size, expected %d but got %d'
                           % (repeats * _shape(x)[d], output_size))
    sizes = list(x._data.shape)
    sizes.insert(d + 1, repeats)
    # (a row-major copy, as PyTorch's: the flatten is then a view, even of a transposed input)
    return x.unsqueeze(d + 1).expand(sizes).clone(memory_format=ops._mf.contiguous_format).flatten(d, d + 1)


# ================================================================================================ shapes (composed)

def tile(a, *dims, **kwargs):
    """repeat with dims padded by leading 1s to a's number of dims (RepeatBackward0)."""
    if not dims and 'dims' in kwargs:           # (by keyword: x.tile(dims=(2,)))
        dims = (kwargs.pop('dims'),)
    if kwargs:
        raise TypeError("tile() got an unexpected keyword argument '%s'" % next(iter(kwargs)))
    if not dims:
        raise TypeError('tile() missing 1 required positional arguments: "dims"')
    dims = tuple(dims[0]) if len(dims) == 1 and isinstance(dims[0], (tuple, list)) else dims
    return a.repeat((1,) * (a._data.ndim - len(dims)) + dims)


def atleast_1d(*tensors):
    """The tensor(s) with dims added to have at least 1 (a tuple for several)."""
    return _atleast(1, tensors)


def atleast_2d(*tensors):
    """The tensor(s) with dims added to have at least 2 (a tuple for several)."""
    return _atleast(2, tensors)


def atleast_3d(*tensors):
    """The tensor(s) with dims added to have at least 3 (a tuple for several)."""
    return _atleast(3, tensors)


def _atleast(n, tensors):
    one = len(tensors) == 1 and isinstance(tensors[0], Tensor)
    ts = tensors[0] if len(tensors) == 1 and isinstance(tensors[0], (tuple, list)) else tensors
    if not one and not all(isinstance(t, Tensor) for t in ts):      # (the error of the parser of PyTorch's
        from . import _argparse                                     # _VF.atleast_Nd, which its Python one calls)
        name = 'atleast_%dd' % n
        _argparse.signature_parser('%s(Tensor input)' % name, '%s(TensorList tensors)' % name).check(tensors, {})
    out = tuple(_lifted(n, t) if t._data.ndim < n else t for t in ts)
    return out[0] if one else out


def _lifted(n, t):
    """t (of fewer than n dims) with dims added as atleast_Nd adds them: in front, and for 3 also at the end."""
    if t._data.ndim == 0:
        return t.reshape((1,) * n)
    if n == 3:
        return t.unsqueeze(0).unsqueeze(-1) if t._data.ndim == 1 else t.unsqueeze(-1)
    return t.unsqueeze(0)


def _stack_list(name, tensors):
    tensors = ops._tensor_list(name, tensors)
    if not tensors:
        raise RuntimeError('%s expects a non-empty TensorList' % name)
    return tensors


def hstack(tensors):
    """cat of the atleast_1d tensors along dim 1 (dim 0 for 1-d ones)."""
    ts = atleast_1d(_stack_list('hstack', tensors))
    return ops.cat(ts, 0 if ts[0]._data.ndim == 1 else 1)


def vstack(tensors):
    """cat of the atleast_2d tensors along dim 0."""
    return ops.cat(atleast_2d(_stack_list('vstack', tensors)), 0)


row_stack = vstack


def dstack(tensors):
    """cat of the atleast_3d tensors along dim 2."""
    return ops.cat(atleast_3d(_stack_list('dstack', tensors)), 2)


def column_stack(tensors):
    """cat along dim 1 with 0-d and 1-d tensors made columns."""
    ts = _stack_list('column_stack', tensors)
    return ops.cat([t.reshape(t._data.size, 1) if t._data.ndim <= 1 else t for t in ts], 1)


def tensor_split(a, indices_or_sections, dim=0):
    """Views of `a` split along dim into n near-equal sections (the first size % n one longer), or at indices."""
    if a._data.ndim == 0:
        raise RuntimeError('tensor_split expected at least a 1-dimensional tensor, but got a tensor with 0 dims')
    d = _wrap_dim(dim, a._data.ndim)
    ios = indices_or_sections
    if isinstance(ios, Tensor):
        if ios._data.ndim > 1:
            raise RuntimeError('tensor_split expected tensor_indices_or_sections to be a zero-dimensional or '
                               'one-dimensional tensor, but got a tensor with %d dims' % ios._data.ndim)
        if ios._data.dtype != np.int64:
            raise RuntimeError('tensor_split expected tensor_indices_or_sections to have dtype of long, but got %s'
                               % ios.dtype.legacy)
        ios = builtins.int(ios._data) if ios._data.ndim == 0 else [builtins.int(i) for i in ios._data]
    size = a._data.shape[d]
    if isinstance(ios, (tuple, list)):
        bounds = [0] + [builtins.int(i) for i in ios] + [size]
    else:
        if ios <= 0:
            raise RuntimeError('number of sections must be larger than 0, got %d' % ios)
        q, r = divmod(size, ios)
        bounds = [0]
        for i in range(ios):
            bounds.append(bounds[-1] + q + (i < r))
    out = []
    for start, stop in zip(bounds, bounds[1:]):
        out.append(ops._slice(a, d, slice(start, stop), keep_full=True))
    return tuple(out)


def _split_by(name, dim, need):
    def f(a, indices_or_sections):
        if a._data.ndim < need:
            raise RuntimeError('torch.%s requires a tensor with at least %d dimension, but got a tensor with %d '
                               'dimensions!' % (name, need, a._data.ndim))
        d = 0 if name == 'hsplit' and a._data.ndim == 1 else dim
        if isinstance(indices_or_sections, builtins.int):
            size = a._data.shape[d]
            if indices_or_sections == 0 or size % indices_or_sections:
                raise RuntimeError('torch.%s attempted to split along dimension %d, but the size of the dimension %d '
                                   'is not divisible by the split_size %d!' % (name, d, size, indices_or_sections))
        return tensor_split(a, indices_or_sections, d)
    f.__name__ = name
    f.__doc__ = 'tensor_split along dim %d (equal sections only, for a number).' % dim
    return f


hsplit, vsplit, dsplit = _split_by('hsplit', 1, 1), _split_by('vsplit', 0, 2), _split_by('dsplit', 2, 3)


def ravel(a):
    """contiguous().view(-1): a view of `a` when it is contiguous."""
    return a.contiguous().view(-1)


def fliplr(a):
    """flip along dim 1."""
    if a._data.ndim < 2:
        raise RuntimeError('Input must be >= 2-d.')
    return a.flip(1)


def flipud(a):
    """flip along dim 0."""
    if a._data.ndim < 1:
        raise RuntimeError('Input must be >= 1-d.')
    return a.flip(0)


def rot90(a, k=1, dims=(0, 1)):
    """`a` rotated k quarter turns in the plane of dims, from the first axis towards the second."""
    dims = tuple(dims)
    if len(dims) != 2:
        raise RuntimeError('expected total rotation dims == 2, but got dims = %d' % len(dims))
    nd = a._data.ndim
    if nd < 2:
        raise RuntimeError('expected total dims >= 2, but got total dims = %d' % nd)
    d0, d1 = _wrap_dim(dims[0], nd), _wrap_dim(dims[1], nd)
    if d0 == d1:
        raise RuntimeError('expected rotation dims to be different, but got dim0 = %d and dim1 = %d' % dims)
    turns = k % 4
    x = a._data
    copy = lambda y: np.array(y, copy=True)       # noqa: E731  (keeping x's layout, as PyTorch's flip and clone)
    if turns == 0:
        data = x.copy()                           # (a contiguous clone)
    elif turns == 2:
        data = copy(np.flip(x, (d0, d1)))
    else:                        # PyTorch's flip(...).transpose_(d0, d1): a transposed copy
        data = np.swapaxes(copy(np.flip(x, d1 if turns == 1 else d0)), d0, d1)
    return _attach(make(data), Rot90Backward0, (a,), {'dims': _given(dims), 'k': _given(k)})


class Rot90Backward0(Node):
    def apply(self, g):
        return (g.rot90(-_signed(self._saved['k']), [_signed(d) for d in self._saved['dims']]),)


def _diagonal_data(x, offset, d1, d2):
    """numpy's diagonal of x as a writeable view (numpy's own is read-only)."""
    key = [slice(None)] * x.ndim
    n1, n2 = x.shape[d1], x.shape[d2]
    if offset >= 0:
        key[d2] = slice(builtins.min(offset, n2), None)
    else:
        key[d1] = slice(builtins.min(-offset, n1), None)
    part = x[tuple(key)]
    diag = np.diagonal(part, 0, d1, d2)
    return np.lib.stride_tricks.as_strided(part, diag.shape, diag.strides, writeable=part.flags.writeable)


def diagonal(a, offset=0, dim1=0, dim2=1):
    """The diagonal number `offset` of the planes (dim1, dim2), as a view whose last dim runs along it."""
    nd = a._data.ndim
    d1, d2 = _wrap_dim(dim1, nd), _wrap_dim(dim2, nd)
    if d1 == d2:
        raise RuntimeError('diagonal dimensions cannot be identical %d, %d' % (dim1, dim2))
    return ops._view_result(a, _diagonal_data(a._data, offset, d1, d2), DiagonalBackward0, {
        'dim1': _given(dim1), 'dim2': _given(dim2), 'offset': _given(offset), 'self_sym_sizes': a._data.shape})


class DiagonalBackward0(Node):
    def apply(self, g):
        s = self._saved
        shape = s['self_sym_sizes']
        d1, d2 = _signed(s['dim1']) % len(shape), _signed(s['dim2']) % len(shape)
        where = _diagonal_data(ops._flat_index(shape), _signed(s['offset']), d1, d2)
        return (_put_at(g, where, shape, ops.DiagonalBackwardBackward0,   # zeros with g on the diagonal
                        {'dim1': s['dim1'], 'dim2': s['dim2'], 'offset': s['offset']}, unique=True),)


def _scatter_into(a, src, where, cls, saved):
    """A copy of `a` with src written at the flat positions `where` (the elements of one of a's views), recorded as
    cls (select_scatter, slice_scatter, diagonal_scatter)."""
    if src._data.shape != where.shape:
        raise RuntimeError('expected src to have a size equal to the slice of self. src size = %s, slice size = %s'
                           % (_sizes(src._data.shape), _sizes(where.shape)))
    ops._check_autograd_dtype(src, a.dtype)                 # (an integer result of a src that requires grad)
    out = np.array(a._data, order='C')
    out.reshape(-1)[where.reshape(-1)] = src._data.reshape(-1)
    out = _attach(make(out), cls, (a, src), saved)
    if out._grad_fn is not None:
        out._grad_fn.where = where
    return out


class _ScatterIntoNode(Node):
    """The gradient of a view scattered into a copy: g without the view's elements for the input, g's elements
    there for src."""
    def apply(self, g):
        where = self.where
        ga = gs = None
        if self.needs(0):       # (PyTorch's formula: the same op writing zeros into g; -0.s elsewhere stay)
            ga = _scatter_into(g, make(np.zeros(where.shape, g._data.dtype)), where, type(self), dict(self._saved))
        if self.needs(1):
            gs = self.view_of(g, {k: None if v is None else _signed(v) for k, v in self._saved.items()})
        return ga, gs


class SelectScatterBackward0(_ScatterIntoNode):
    def view_of(self, g, s):            # (src's gradient: grad.select(dim, index), a view as in PyTorch)
        return ops.select(g, s['dim'], s['index'])


class SliceScatterBackward0(_ScatterIntoNode):
    def view_of(self, g, s):
        return ops._slice(g, s['dim'] % g.ndim, slice(s['start'], s['end'], s['step']), True, s['dim'])


class DiagonalScatterBackward0(_ScatterIntoNode):
    def view_of(self, g, s):
        return diagonal(g, s['offset'], s['dim1'], s['dim2'])


def select_scatter(a, src, dim, index):
    """A copy of `a` with src as its slice a.select(dim, index)."""
    where = ops.select(make(ops._flat_index(a._data.shape)), dim, index)._data
    return _scatter_into(a, src, where, SelectScatterBackward0, {'dim': _given(dim), 'index': _given(index)})


def slice_scatter(a, src, dim=0, start=None, end=None, step=1):
    """A copy of `a` with src as its slice a[start:end:step] along dim."""
    if step <= 0:
        raise RuntimeError('slice step must be positive')
    d = _wrap_dim(dim, a._data.ndim)
    where = ops._flat_index(a._data.shape)[(slice(None),) * d + (slice(start, end, step),)]
    return _scatter_into(a, src, where, SliceScatterBackward0,
                         {'dim': _given(dim), 'end': None if end is None else _given(end),
                          'start': None if start is None else _given(start), 'step': _given(step)})


def diagonal_scatter(a, src, offset=0, dim1=0, dim2=1):
    """A copy of `a` with src as its diagonal a.diagonal(offset, dim1, dim2)."""
    where = diagonal(make(ops._flat_index(a._data.shape)), offset, dim1, dim2)._data
    return _scatter_into(a, src, where, DiagonalScatterBackward0,
                         {'dim1': _given(dim1), 'dim2': _given(dim2), 'offset': _given(offset)})


def narrow_copy(a, dim, start, length):
    """narrow's slice as a new tensor (NarrowCopyBackward0)."""
    view = ops.narrow(a.detach(), dim, start, length)
    return _attach(make(np.array(view._data, order='C')), NarrowCopyBackward0, (a,), {
        'dim': _given(dim), 'length': _given(length), 'self_sym_sizes': a._data.shape, 'start': _given(start)})


class NarrowCopyBackward0(Node):
    def apply(self, g):
        s = self._saved
        shape = s['self_sym_sizes']
        d, start = _signed(s['dim']) % len(shape), _signed(s['start'])
        where = ops._flat_index(shape)[(slice(None),) * d + (slice(start, start + s['length']),)]
        if where.shape != g._data.shape:            # (PyTorch's formula slices from a negative start as it is)
            raise RuntimeError('The size of tensor a (%d) must match the size of tensor b (%d) at non-singleton '
                               'dimension %d' % (where.shape[d], g._data.shape[d], d))
        # (PyTorch's slice_backward: copied into zeros, -0. stays; SliceBackwardBackward0 under create_graph)
        saved = {'dim': s['dim'], 'end': _given(start + s['length']), 'start': s['start'], 'step': 1}
        return (_put_at(g, where, shape, ops.SliceBackwardBackward0, saved, unique=True),)


def diag_embed(a, offset=0, dim1=-2, dim2=-1):
    """Zeros with a's last dim on diagonal number `offset` of the planes (dim1, dim2) of a result one dim larger."""
    nd = a._data.ndim + 1
    d1, d2 = _wrap_dim(dim1, nd), _wrap_dim(dim2, nd)
    if d1 == d2:
        raise RuntimeError('diagonal dimensions cannot be identical %d, %d' % (dim1, dim2))
    n = (a._data.shape[-1] if a._data.ndim else 1) + builtins.abs(offset)
    rest = list(a._data.shape[:-1])
    shape = []
    for i in range(nd):
        shape.append(n if i in (d1, d2) else rest.pop(0))
    out = np.zeros(shape, a._data.dtype)
    _diagonal_data(out, offset, d1, d2)[...] = a._data
    return _attach(make(out), DiagEmbedBackward0, (a,), {'dim1': _given(dim1), 'dim2': _given(dim2),
                                                         'offset': _given(offset)})


class DiagEmbedBackward0(Node):
    def apply(self, g):
        s = self._saved
        return (g.diagonal(_signed(s['offset']), _signed(s['dim1']), _signed(s['dim2'])),)


def diagflat(a, offset=0):
    """The flattened `a` on diagonal number `offset` of a square matrix."""
    return diag_embed(a.contiguous().view(-1), offset)


def unfold(a, dimension, size, step):
    """The windows of `size` elements every `step` along dimension, as a new last dim of a view."""
    x = a._data
    nd = x.ndim
    d = _wrap_dim(dimension, nd)
    n = x.shape[d] if nd else 1
    if size > n:
        raise RuntimeError('maximum size for tensor at dimension %d is %d but size is %d' % (d, n, size))
    if size < 0:
        raise RuntimeError('size is %d but must be >= 0' % size)
    if step <= 0:
        raise RuntimeError('step is %d but must be > 0' % step)
    return ops._view_result(a, _windows(x, d, size, step), UnfoldBackward0, {
        'dimension': _given(dimension), 'self_sym_sizes': x.shape, 'size': size, 'step': step})


def _windows(x, d, size, step):
    if not x.ndim:
        return x.reshape(1)
    shape = x.shape[:d] + ((x.shape[d] - size) // step + 1,) + x.shape[d + 1:] + (size,)
    strides = x.strides[:d] + (x.strides[d] * step,) + x.strides[d + 1:] + (x.strides[d],)
    return np.lib.stride_tricks.as_strided(x, shape, strides, writeable=x.flags.writeable)


class UnfoldBackward0(Node):
    def apply(self, g):
        s = self._saved
        shape = s['self_sym_sizes']
        d = _signed(s['dimension']) % builtins.max(len(shape), 1)
        where = _windows(ops._flat_index(shape), d, s['size'], s['step'])
        # overlapping windows add up; windows apart (step >= size) are copied into the zeros (PyTorch's kernel: -0.
        # stays)
        return (_put_at(g, where, shape, ops.UnfoldBackwardBackward0,
                        {'dim': s['dimension'], 'size': s['size'], 'step': s['step']}, unique=s['step'] >= s['size']),)


# ================================================================================================ broadcasting, grids

def as_strided(a, size, stride, storage_offset=None):
    """A view of a's memory (its base's) with the given sizes, element strides and offset (a's own by default)."""
    size, stride = tuple(size), tuple(stride)
    if len(size) != len(stride):
        raise RuntimeError('mismatch in length of strides and shape')
    if any(s < 0 for s in stride):
        raise RuntimeError('as_strided: Negative strides are not supported at the moment, got strides: %s'
                           % _sizes(stride))
    if any(n < 0 for n in size):
        raise RuntimeError('Storage size calculation overflowed with sizes=%s and strides=%s'
                           % (_sizes(size), _sizes(stride)))
    off = a.storage_offset() if storage_offset is None else storage_offset
    if off < 0:
        raise RuntimeError('Tensor: invalid storage offset %d' % off)
    flat = a._memory()         # (flat: its base's, or all of it that a detached view or .data shows: its storage)
    item = flat.itemsize
    need = 0 if 0 in size else off + 1 + builtins.sum((n - 1) * s for n, s in zip(size, stride))
    if need > flat.size:
        raise RuntimeError('setStorage: sizes %s, strides %s, storage offset %d, and itemsize %d requiring a storage '
                           'size of %d are out of bounds for storage of size %d'
                           % (_sizes(size), _sizes(stride), off, item, need * item, flat.size * item))
    # (elements sharing memory, as an expanded view's: read-only, so that writes get expand's refusals and warnings)
    shared = 0 not in size and builtins.any(s == 0 and n > 1 for n, s in zip(size, stride))
    data = np.lib.stride_tricks.as_strided(flat[off:], size, tuple(s * item for s in stride),
                                           writeable=flat.flags.writeable and not shared)
    start = a.storage_offset()
    out = ops._view_result(a, data, ops.AsStridedBackward0, {'size': size, 'stride': stride,
                                                             'storage_offset': storage_offset})
    if out._grad_fn is not None:                 # (where the view's elements sit among a's: see _region_index)
        out._grad_fn.geometry = (a._data.shape, off - start, stride, ops._strides(a._data))
    return out


class AsStridedBackward1(ops.AsStridedBackward0):
    pass


ops._IN_PLACE_NODE[ops.AsStridedBackward0] = AsStridedBackward1
_as_strided_in_place = ops._inplace_view(as_strided)


def as_strided_(a, size, stride, storage_offset=None):
    """In place: a now shows as_strided(a, size, stride, storage_offset) of its memory; its version moves on (the
    other views of the memory see it) and a recorded history goes on through AsStridedBackward1."""
    ops._check_inplace(a)
    if a._base is None and '_storage' not in a.__dict__:        # (its memory, for storage_offset)
        a._storage = a._memory()
    return _as_strided_in_place(a, size, stride, storage_offset)


def resize_(a, *size, memory_format=None):
    """a now of `size`, contiguous over its memory from its offset (grown, with zeros, when it needs more); a tensor
    that requires grad cannot be resized."""
    if len(size) == 1 and isinstance(size[0], (tuple, list)):
        size = tuple(size[0])
    size = tuple(map(operator.index, size))        # (their types checked by PyTorch's parser: see _methods.native)
    if a._requires_grad:
        raise RuntimeError('cannot resize variables that require grad')
    if any(s < 0 for s in size):
        raise RuntimeError('numel: integer multiplication overflow')
    if tuple(size) == a._data.shape:
        return a                                # (PyTorch: same sizes, nothing done: strides kept, version not bumped)
    root = a._owner()
    off = a.storage_offset() if a._data.size and (a._base is not None or '_storage' in a.__dict__) else 0
    n = int(np.prod(size, dtype=np.int64))
    flat = root.__dict__.get('_storage')        # (a resized base keeps all its memory, as PyTorch's storage)
    if flat is None:
        memory = root._data
        flat = np.lib.stride_tricks.as_strided(memory, (memory.size,), (memory.itemsize,),
                                               writeable=memory.flags.writeable)
    if off + n > flat.size:                     # (PyTorch grows the storage: here the tensor gets new memory)
        if '_numpy_memory' in root.__dict__:
            raise RuntimeError('Trying to resize storage that is not resizable')
        flat = np.concatenate([flat, np.zeros(off + n - flat.size, flat.dtype)])
    if root is a:
        a._storage = flat
    a._data = flat[off:off + n].reshape(size)
    ops.bump(a)
    return a


def resize_as_(a, other, *, memory_format=None):
    """resize_ to other's sizes."""
    return resize_(a, other.shape)


_SET_SIGNATURES = (' * ()\n', ' * (torch.Storage source)\n',
                   ' * (torch.Storage source, int storage_offset, tuple of ints size, tuple of ints stride = None)\n',
                   ' * (Tensor source)\n',
                   ' * (Tensor source, int storage_offset, tuple of ints size, tuple of ints stride = None)\n')


def set_(a, *args, **kwargs):
    """a now shows other memory: source's (a tensor or a storage), or from storage_offset with size and stride
    (contiguous by default), or none (size [0]). Its version counter stays its own (bumped once). PyTorch has no
    derivative for it: recorded, its node is NotImplemented."""
    from ._tensor import TypedStorage, UntypedStorage, invalid_arguments
    from ._factories import _arg_desc
    names = ('source', 'storage_offset', 'size', 'stride')
    given = dict(zip(names, args), **kwargs)
    source, offset, size, stride = (given.get(n) for n in names)
    kinds = (Tensor, TypedStorage)
    if (len(args) > 4 or set(kwargs) - set(names) or (given and not isinstance(source, kinds))
            or len(given) not in (0, 1, 3, 4) or len(given) >= 3 and not (
                isinstance(offset, (int, np.integer)) and isinstance(size, (tuple, list, ops.Size))
                and (stride is None or isinstance(stride, (tuple, list, ops.Size))))):
        n = len(args) + len(kwargs)      # (the parser explains only the signatures taking as many arguments)

        def why(i):
            if n == 1 and i in (0, 1, 3):
                return ("      didn't match because some of the arguments have invalid types: (!%s!)\n"
                        % _arg_desc(source))
            if n == 4 and i in (2, 4):
                marks = [_arg_desc(x) if ok else '!%s!' % _arg_desc(x) for x, ok in zip(
                    (source, offset, size, stride),
                    (isinstance(source, kinds[i == 2]), isinstance(offset, int), False, False))]  # (as PyTorch marks)
                return "      didn't match because some of the arguments have invalid types: (%s)\n" % ', '.join(marks)
            return ''
        raise invalid_arguments('set_', args, kwargs, ''.join(s + why(i) for i, s in enumerate(_SET_SIGNATURES)))
    from ._dtypes import C_NAMES
    if isinstance(source, UntypedStorage):            # (bytes: seen as a's dtype)
        source = TypedStorage(source._data.view(a._data.dtype), a.dtype)
    if source is not None and source._data.dtype != a._data.dtype:
        if isinstance(source, TypedStorage):
            raise RuntimeError("Expected a Storage of type %s or an UntypedStorage, but got type %s for argument 1 "
                               "'storage'" % (C_NAMES[a.dtype.name], source.dtype.legacy))
        raise RuntimeError('Could not set tensor of type %s to a tensor of type %s'
                           % (C_NAMES[source.dtype.name], C_NAMES[a.dtype.name]))
    ops._check_inplace(a, (source,) if isinstance(source, Tensor) else ())
    flat = None                                 # the memory a now shows, as a flat array (for storage_offset)
    if isinstance(source, TypedStorage):
        flat = source._data
    elif source is not None:
        root = source._owner()
        flat = root.__dict__.get('_storage')
        if flat is None:
            flat = np.lib.stride_tricks.as_strided(root._data, (root._data.size,), (root._data.itemsize,),
                                                   writeable=root._data.flags.writeable)
    if source is None:
        data = np.zeros((0,), a._data.dtype)
    elif size is None:
        data = source._data
    else:
        bad = [s for s in size if not isinstance(s, (int, np.integer))]
        if bad:
            raise TypeError("set_(): argument 'size' failed to unpack the object at pos 2 with error \"type must be "
                            "tuple of ints,but got %s\"" % type(bad[0]).__name__)
        size = tuple(size)
        if stride is not None and len(stride) != len(size):
            raise RuntimeError('unequal size length (%d) and stride length (%d)' % (len(size), len(stride)))
        if offset < 0:
            raise RuntimeError('Tensor: invalid storage offset %d' % offset)
        if any(s < 0 for s in size):
            raise RuntimeError('numel: integer multiplication overflow')
        if stride is None:
            stride, n = [], 1
            for s in reversed(size):
                stride.insert(0, n)
                n *= s
        need = 0 if 0 in size else offset + 1 + builtins.sum((n - 1) * s for n, s in zip(size, stride))
        if need > flat.size:                     # (PyTorch grows the storage: here the tensor gets new memory)
            flat = np.concatenate([flat, np.zeros(need - flat.size, flat.dtype)])
        item = flat.itemsize
        data = np.lib.stride_tricks.as_strided(flat[offset:], size, tuple(s * item for s in stride),
                                               writeable=flat.flags.writeable)
    recorded = ops.ag.grad_enabled and data.dtype.kind == 'f' and (
        a._requires_grad or isinstance(source, Tensor) and source._requires_grad)
    if not recorded and a._requires_grad and (data.shape != a._data.shape or data.dtype != a._data.dtype):
        a._stale_meta(a._data, new_accumulator=True)    # (its node still expects the old shape)
    if a._base is None:
        a._keep_views_where_they_are()
    a._data = data
    a.__dict__.pop('_storage', None)
    if flat is not None or a._base is not None:     # (a view keeps the memory it now shows as its own)
        a._storage = data if flat is None else flat
    ops.bump(a)
    inputs = (a, source) if isinstance(source, Tensor) else (a,)
    base = a._base
    if recorded:
        node = ops.ag.record(None, ops.NotImplementedBackward, tuple(t if t._requires_grad else None for t in inputs))
        node.op = 'set_'
        if base is None:
            ops._new_history(a, node)
        else:   # (a view: as for any in-place op, its base's history becomes CopySlices, the view where it now is)
            ops._rebase_view(a, base, node)
        ops._views_changed(a, base if base is not None else a)
    else:
        ops._views_changed(a)
    return a


def broadcast_shapes(*shapes):
    """The shape that tensors of these shapes broadcast to (a shape may be an int)."""
    out = []
    for i, shape in enumerate(shapes):
        shape = (shape,) if isinstance(shape, (builtins.int, np.integer)) else shape if isinstance(shape, tuple) \
            else tuple(shape)                            # (a torch.Size stays one: the error shows it)
        if len(shape) > len(out):
            out = [1] * (len(shape) - len(out)) + out
        for j in range(1, len(shape) + 1):
            n = shape[-j]
            if n != 1 and out[-j] not in (1, n):
                raise RuntimeError('Attempting to broadcast a dimension of length %d at %d! Mismatching argument at '
                                   'index %d had %s; but expected shape should be broadcastable to [%s]'
                                   % (n, -j, i, shape, _join(out)))
            if n != 1:
                out[-j] = n
    return ops.Size(out)


def _not_tensor(i, t):
    raise TypeError('expected Tensor as element %d in argument 0, but got %s' % (i, parser_type(t)))


def tensor_list(tensors):
    """A TensorList argument as PyTorch's parser reads it (torch.meshgrid(v, [1, 2])): its first element that is
    not a tensor refused."""
    for i, t in enumerate(tensors):
        if not isinstance(t, Tensor):
            _not_tensor(i, t)
    return tensors


def broadcast_tensors(*tensors):
    """The tensors expanded to their common shape (views)."""
    ts = [t if isinstance(t, Tensor) else _not_tensor(i, t) for i, t in enumerate(tensors)]     # (numbers too)
    shape = ts[0]._data.shape if ts else ()
    for t in ts[1:]:
        _check_broadcast(shape, t._data.shape)
        shape = np.broadcast_shapes(shape, t._data.shape)
    return tuple(t if t._data.shape == shape else t.expand(shape) for t in ts)      # (as PyTorch: no node then)


_MESHGRID_WARNING = 'torch.meshgrid: in an upcoming release, it will be required to pass the indexing argument.'


def meshgrid(*tensors, indexing=None):
    """Grids of coordinates: the i-th 0-d/1-d tensor viewed along dim i and expanded ('xy' swaps the first two)."""
    ts = tensor_list(tuple(tensors[0]) if len(tensors) == 1 and isinstance(tensors[0], (tuple, list)) else tensors)
    if indexing is None:
        warn_once(_MESHGRID_WARNING, 'aten/src/ATen/native/TensorShape.cpp:4215', 3)
        indexing = 'ij'
    if not ts:
        raise RuntimeError('meshgrid expects a non-empty TensorList')
    if indexing not in ('ij', 'xy'):
        raise RuntimeError('torch.meshgrid: indexing must be one of "xy" or "ij", but received: %s' % indexing)
    if any(t._data.dtype != ts[0]._data.dtype for t in ts):
        raise RuntimeError('meshgrid expects all tensors to have the same dtype')
    for t in ts:
        if t._data.ndim > 1:
            raise RuntimeError('torch.meshgrid: Expected 0D or 1D tensor in the tensor list but got: ' + str(t))
    order = list(range(len(ts)))
    if indexing == 'xy' and len(ts) >= 2:
        order[0], order[1] = 1, 0
    shape = [0] * len(ts)
    for i, t in enumerate(ts):
        shape[order[i]] = t._data.size
    out = []
    for i, t in enumerate(ts):
        view = [1] * len(ts)
        view[order[i]] = -1
        out.append(t.view(view).expand(shape))
    return tuple(out)


def cartesian_prod(*tensors):
    """Every combination of one element from each 1-d tensor, as the rows of a matrix."""
    for t in tensor_list(tensors):
        if t._data.ndim != 1:
            raise RuntimeError('Expect a 1D vector, but got shape [%s]' % ', '.join(map(str, t._data.shape)))
    if len(tensors) == 1:
        return tensors[0]
    return ops.stack([g.flatten() for g in meshgrid(*tensors, indexing='ij')], 1)


def _triangle_indices(keep):
    def f(row, col, offset=0, *, dtype=None, device=None, layout=None, pin_memory=None):
        dt.check_options(device, pin_memory)
        dtype = None if dtype is None else dt.to_dtype(dtype, f.__name__)
        if dtype is not None and dtype.np not in (np.int64, np.int32):
            raise NotImplementedError('"%s" not implemented for \'%s\'' % (f.__name__, _LEGACY[dtype.name]))
        i, j = keep(row, offset, col)
        npd = np.int64 if dtype is None else dtype.np
        return make(np.stack([i, j]).astype(npd).reshape(2, -1))
    return f


tril_indices = _triangle_indices(np.tril_indices)
tril_indices.__name__ = 'tril_indices'
tril_indices.__doc__ = 'The coordinates of the lower triangle of a row x col matrix (a 2 x N tensor).'
triu_indices = _triangle_indices(np.triu_indices)
triu_indices.__name__ = 'triu_indices'
triu_indices.__doc__ = 'The coordinates of the upper triangle of a row x col matrix (a 2 x N tensor).'


# ================================================================================================ methods

_TORCH_ONLY = {'broadcast_tensors', 'broadcast_shapes', 'meshgrid', 'cartesian_prod', 'tril_indices', 'triu_indices',
               'atleast_1d', 'atleast_2d', 'atleast_3d', 'hstack', 'vstack', 'row_stack', 'dstack', 'column_stack',
               'rot90_'}


def _no_overlap(inplace, pos, key, meta=None):
    """inplace with PyTorch's assert_no_overlap(self, source) before its kernel (scatter_, index_add_, put_, ...):
    the same tensor is refused (even an empty or a strided one), and dense tensors whose memory ranges meet; others
    are too hard to judge (allowed). Autograd's checks come first, then meta: the op's checks of dtypes and shapes
    that PyTorch makes before the overlap's (its meta function), if any: also before the write into an expanded
    self is refused when the source is a number (scatter_(0, index, 1.))."""
    def f(self, *args, **kwargs):
        src = args[pos] if len(args) > pos else kwargs.get(key)
        if isinstance(self, Tensor) and (isinstance(src, Tensor) or meta is not None):
            ops._check_inplace(self, args + tuple(kwargs.values()))     # (autograd's checks come first: source too)
            if meta is not None:
                meta(self, *args, **kwargs)
        if isinstance(src, Tensor) and isinstance(self, Tensor):
            x, y = self._data, src._data
            if self is src or x.size and y.size and ops._dense(x) and ops._dense(y) and np.may_share_memory(x, y):
                ops._partial_overlap_error()
        return inplace(self, *args, **kwargs)
    f.__name__ = f.__qualname__ = inplace.__name__
    return f


_SOURCE = {'scatter': (2, 'src', _scatter_checks), 'scatter_add': (2, 'src', _scatter_meta),
           'scatter_reduce': (2, 'src', _scatter_meta), 'index_add': (2, 'source', _index_add_meta),
           'index_copy': (2, 'source'), 'put': (1, 'source', _put_meta)}


def _install():
    g = globals()
    for name in __all__:
        if name not in _TORCH_ONLY:
            setattr(Tensor, name, g[name])
    for name in ('scatter', 'scatter_add', 'index_add', 'index_fill', 'index_copy', 'scatter_reduce', 'put'):
        if name in g:
            inplace = _methods._inplace_of(g[name])
            setattr(Tensor, name + '_', _no_overlap(inplace, *_SOURCE[name]) if name in _SOURCE else inplace)


_install()
Tensor.masked_scatter_, Tensor.resize_, Tensor.resize_as_ = masked_scatter_, resize_, resize_as_
Tensor.set_, Tensor.as_strided_ = set_, as_strided_
Tensor.swapaxes_ = Tensor.swapdims_ = ops.transpose_
Tensor.unfold = unfold
