"""The op table, part 9: statistics and counting (cdist, bincount, histc, searchsorted, bucketize, quantile, mode,
cov, corrcoef, erfinv, ...).

Same rules as `_ops.py`: numpy forward beside a backward written with tensor ops (so double backward works), node
names and saved attributes exactly as PyTorch 2.13 has them. `__all__` names the torch.* functions; the Tensor
methods are set here. Where PyTorch composes an op of others (quantile, cov, corrcoef), it is composed here of the
same tensor ops, so that its graph is PyTorch's.
"""
import builtins
import math
import operator
import warnings

import numpy as np

from . import _argparse
from . import _dtypes as dt
from . import _methods
from . import _reduce_order
from ._autograd import Node, SavedTensor, RESULT as _RESULT
from ._ops import _attach, _check_broadcast, _mul_scalar, _not_implemented, _out
from ._ops_index import broadcast_tensors
from ._ops_nn import _nan_of, _vec_sum
from ._ops_nn import MedianBackward0, SortBackward0, Unique2Backward0, _picked, _return_type, return_types
from ._ops_nn import _check_unique_empty, _unique_empty
from ._random import fma32, fma64
from ._selection import _nth_element, _sort
from ._tensor import Tensor, make, user_stacklevel, _wrap_dim

__all__ = ['cdist', 'pdist', 'bincount', 'histc', 'searchsorted', 'bucketize', 'quantile', 'nanquantile', 'mode',
           'cov', 'corrcoef', 'erfinv', 'nanmedian', 'unique_consecutive']

for _name in ('mode', 'nanmedian'):
    if not hasattr(return_types, _name):
        setattr(return_types, _name, _return_type(_name))


def _num(x):
    """A C++ double as PyTorch's messages print it (std::ostream: 6 significant digits, 2.0 as 2)."""
    return '%g' % x


# ================================================================================================ cdist

_CDIST_MODES = {'use_mm_for_euclid_dist_if_necessary': 0, 'use_mm_for_euclid_dist': 1,
                'donot_use_mm_for_euclid_dist': 2}


_CPP_NAMES = {'float32': 'float', 'float64': 'double', 'float16': 'c10::Half'}


def cdist(x1, x2, p=2.0, compute_mode='use_mm_for_euclid_dist_if_necessary'):
    """The p-norm distance between each row of x1 and each row of x2 (batched over leading dims, broadcast).

    As PyTorch: one CdistBackward0 node, except for p=2 with matrix products (compute_mode 'use_mm_for_euclid_dist',
    or more than 25 rows by default), computed as |a|^2 + |b|^2 - 2 a.b by _euclidean_dist (EuclideanDistBackward0)
    and viewed to the output's shape."""
    if compute_mode not in _CDIST_MODES:
        raise ValueError('%s is not a valid value for compute_mode' % compute_mode)
    mode = _CDIST_MODES[compute_mode]
    for name, x in (('X1', x1), ('X2', x2)):
        if x.ndim < 2:
            raise RuntimeError('cdist only supports at least 2D tensors, %s got: %dD' % (name, x.ndim))
    if x1.shape[-1] != x2.shape[-1]:
        raise RuntimeError('X1 and X2 must have the same number of columns. X1: %d X2: %d'
                           % (x1.shape[-1], x2.shape[-1]))
    for name, x in (('X1', x1), ('X2', x2)):
        if x._data.dtype.kind != 'f':
            raise RuntimeError('cdist only supports floating-point dtypes, %s got: %s' % (name, x.dtype.legacy))
    if not p >= 0:
        raise RuntimeError('cdist only supports non-negative p values')
    batch1, batch2 = tuple(x1.shape[:-2]), tuple(x2.shape[:-2])
    _check_broadcast(batch1, batch2)
    batch = tuple(np.broadcast_shapes(batch1, batch2))
    r1, r2, c = x1.shape[-2], x2.shape[-2], x1.shape[-1]
    n = math.prod(batch)
    mm = x1.numel() and x2.numel() and p == 2 and (mode == 1 or (mode == 0 and (r1 > 25 or r2 > 25)))
    # (the checks of the kernel PyTorch picks: its matrix-product path takes float16 too, its own only float32 / 64)
    if mm and x1.dtype is not x2.dtype:
        raise RuntimeError('expected m1 and m2 to have the same dtype, but got: %s != %s'
                           % (_CPP_NAMES[x1.dtype.name], _CPP_NAMES[x2.dtype.name]))
    if not mm and x1._data.dtype == np.float16:
        raise NotImplementedError('"cdist" not implemented for \'Half\'')
    if x1.dtype is not x2.dtype:
        raise RuntimeError('expected scalar type %s but found %s' % (x1.dtype.legacy, x2.dtype.legacy))
    if mm:
        if n == 1:
            dist = _euclidean_dist(x1, x2)
        else:
            dist = _euclidean_dist(x1.expand(batch + (r1, c)).contiguous().view(n, r1, c),
                                   x2.expand(batch + (r2, c)).contiguous().view(n, r2, c))
        return dist.view(batch + (r1, r2))
    a = np.broadcast_to(x1._data, batch + (r1, c))
    b = np.broadcast_to(x2._data, batch + (r2, c))
    out = make(_pnorm(a[..., :, None, :] - b[..., None, :, :], p).astype(x1._data.dtype, copy=False))
    return _attach(out, CdistBackward0, (x1, x2), {'p': float(p), 'result': _RESULT, 'x1': SavedTensor(x1),
                                                  'x2': SavedTensor(x2)})


def _pnorm(diff, p):
    """The p-norm of diff over its last dim (p = 0 counts the non-zero differences), as cdist's own kernel adds:
    the features in order from 0 (for p = 2, GCC's loop squares the numbers in fours and fuses the multiply-adds
    of the last three or fewer), C's pow correctly rounded for another p, the root taken with 1 / p in double."""
    d = np.abs(diff)
    if p == 0:
        return (d != 0).sum(-1).astype(diff.dtype)
    if p == math.inf:
        return d.max(-1, initial=0)
    if p == 2:
        m = d.shape[-1] // 4 * 4
        r = _in_order(d[..., :m] * d[..., :m])
        fma = fma32 if d.dtype == np.float32 else fma64
        for i in range(m, d.shape[-1]):
            r = np.asarray(fma(d[..., i], d[..., i], r), d.dtype)
        return np.sqrt(r)
    if p == 1:
        return _in_order(d)
    t = diff.dtype.type                  # (the root's exponent is 1.0 / p in double: C++'s pow(float, double))
    return _reduce_order.c_pow(_in_order(_reduce_order.c_pow(d, t(p))), 1.0 / float(t(p)))


def _in_order(a):
    """The numbers along the last dim added in order, from +0."""
    rows = a.reshape(math.prod(a.shape[:-1]), a.shape[-1])
    return _reduce_order._one_by_one(np.add, rows, 0).reshape(a.shape[:-1])


def _cdist_grad(g, x1, x2, p, dist):
    """The gradient of cdist(x1, x2) for x1 (PyTorch's _cdist_backward, batch dims broadcast): numpy arrays."""
    batch = np.broadcast_shapes(x1.shape[:-2], x2.shape[:-2])
    a = np.broadcast_to(x1, batch + x1.shape[-2:])
    b = np.broadcast_to(x2, batch + x2.shape[-2:])
    diff = a[..., :, None, :] - b[..., None, :, :]
    if p == 0 or not diff.size:
        return np.zeros(a.shape, a.dtype)
    return _pnorm_grad(diff, g[..., None], dist[..., None], p).sum(-2).astype(a.dtype, copy=False)


def _pnorm_grad(diff, g, dist, p):
    """Each difference's share of the gradient g of its p-norm dist (p > 0; dist and g broadcast against diff)."""
    zero = diff.dtype.type(0)
    if p == 1:
        part = g * np.sign(diff)
    elif p == 2:
        part = np.where(dist == 0, zero, diff * g / dist)
    elif p == math.inf:
        part = g * np.sign(diff) * (np.abs(diff) == dist)
    elif p < 2:
        part = np.sign(diff) * np.abs(diff) ** diff.dtype.type(p - 1) * g / dist ** diff.dtype.type(p - 1)
        part = np.where((dist == 0) | ((diff == 0) & (p < 1)), zero, part)
    else:
        part = diff * np.abs(diff) ** diff.dtype.type(p - 2) * g / dist ** diff.dtype.type(p - 1)
        part = np.where(dist == 0, zero, part)
    return part


class CdistBackward0(Node):
    def apply(self, g):                 # x2's gradient: x1's formula with the roles swapped, on transposed grad
        x1, x2, r = self.saved('x1'), self.saved('x2'), self.saved('result')
        p = self._saved['p']
        return (_cdist_backward(g.contiguous(), x1, x2, p, r) if self.needs(0) else None,
                _cdist_backward(g.mT.contiguous(), x2, x1, p, r.mT.contiguous()) if self.needs(1) else None)


def _cdist_backward(g, x1, x2, p, dist):
    """PyTorch's _cdist_backward, as a CdistBackwardBackward0 node: a gradient without a derivative of its own."""
    grad = make(_cdist_grad(g._data, x1._data, x2._data, p, dist._data))
    return _attach(grad, CdistBackwardBackward0, (g, x1, x2, dist))


class CdistBackwardBackward0(Node):
    def apply(self, g):
        raise NotImplementedError("the derivative for '_cdist_backward' is not implemented.")


def pdist(input, p=2):
    """The p-norm distance between each pair of rows i < j of a 2-d tensor, in that order (a 1-d tensor)."""
    if input.ndim != 2:
        raise RuntimeError('pdist only supports 2D tensors, got: %dD' % input.ndim)
    if input._data.dtype.kind != 'f':
        raise RuntimeError('pdist only supports floating-point dtypes')
    if not p >= 0:
        raise RuntimeError('pdist only supports non-negative p values')
    if input._data.dtype == np.float16:
        raise NotImplementedError('"pdist" not implemented for \'Half\'')
    x = input._data
    i, j = np.triu_indices(x.shape[0], 1)
    d = np.abs(x[i] - x[j])
    if p == 0:
        out = (d != 0).sum(-1).astype(x.dtype)
    elif p == math.inf:
        out = d.max(-1, initial=0)
    elif not d.size:
        out = d.sum(-1)
    elif p == 1:
        out = _pdist_sum(d)
    elif p == 2:
        out = np.sqrt(_pdist_sum(d * d))
    else:
        out = _pdist_sum(d ** x.dtype.type(p)) ** x.dtype.type(1 / p)
    out = make(out.astype(x.dtype, copy=False))
    return _attach(out, PdistBackward0, (input,), {'p': float(p), 'result': _RESULT, 'self': SavedTensor(input)})


def _pdist_sum(rows):
    """Each row summed as PyTorch's pdist kernel does: a row shorter than a vector (AVX-512: 16 floats, 8 doubles)
    one number after another, as measured; wider rows whole vectors as reduce_all, then the rest one by one (their
    last bits may differ from PyTorch's)."""
    whole = rows.shape[1] // (64 // rows.itemsize) * (64 // rows.itemsize)
    total = _vec_sum(rows[:, :whole]) if whole else np.zeros(rows.shape[0], rows.dtype)
    for c in range(whole, rows.shape[1]):
        total = total + rows[:, c]
    return total


class PdistBackward0(Node):
    def apply(self, g):     # _pdist_backward: each pair's share, added to its first row and taken from its second
        x, r = self.saved('self'), self.saved('result')
        a, p = x._data, self._saved['p']
        grad = np.zeros(a.shape, a.dtype)
        if p != 0 and a.size:
            i, j = np.triu_indices(a.shape[0], 1)
            shares = _pnorm_grad(a[i] - a[j], g._data[:, None], r._data[:, None], p)
            # (in the kernel's order, pair after pair: a row's pairs as the second row (i < it) all come before its
            # pairs as the first, and ufunc.at adds in index order)
            np.subtract.at(grad, j, shares)
            np.add.at(grad, i, shares)
        return (_attach(make(grad), PdistBackwardBackward0, (g, x, r)),)


class PdistBackwardBackward0(Node):
    def apply(self, g):
        raise NotImplementedError("the derivative for '_pdist_backward' is not implemented.")


def _euclidean_dist(x1, x2):
    """sqrt(max(|a|^2 - 2 a.b + |b|^2, 0)) by one matrix product, as PyTorch's _euclidean_dist computes it."""
    a, b = x1._data, x2._data
    one = a.dtype.type(1)
    ea = np.concatenate([a * a.dtype.type(-2), (a * a).sum(-1, keepdims=True), np.full(a.shape[:-1] + (1,), one)], -1)
    eb = np.concatenate([b, np.full(b.shape[:-1] + (1,), one), (b * b).sum(-1, keepdims=True)], -1)
    r = np.sqrt(np.maximum(np.matmul(ea, np.swapaxes(eb, -1, -2)), 0))
    return _attach(make(r.astype(a.dtype, copy=False)), EuclideanDistBackward0, (x1, x2),
                   {'result': _RESULT, 'x1': SavedTensor(x1), 'x2': SavedTensor(x2)})


class EuclideanDistBackward0(Node):
    def apply(self, g):
        x1, x2, r = self.saved('x1'), self.saved('x2'), self.saved('result')
        ratio = (g / r).masked_fill(r == 0, 0)
        return (x1 * ratio.sum(-1, True) - ratio.matmul(x2) if self.needs(0) else None,
                x2 * ratio.sum(-2, False).unsqueeze(-1) - ratio.mT.matmul(x1) if self.needs(1) else None)


# ================================================================================================ counting

def bincount(input, weights=None, minlength=0):
    """How often each value 0, 1, ... occurs in a 1-d tensor of non-negative ints (int64), or the sum of the weights
    at each value (float32 weights stay float32, others give float64). Not differentiable (a NotImplemented node)."""
    x = input._data
    if x.dtype.kind not in 'iu':
        raise NotImplementedError('"bincount_cpu" not implemented for \'%s\'' % input.dtype.legacy)
    if minlength < 0:
        raise RuntimeError('minlength should be >= 0')
    if x.ndim == 1 and x.size == 0:
        return make(np.zeros(minlength, np.int64))
    if x.ndim != 1 or x.min() < 0:
        raise RuntimeError('bincount only supports 1-d non-negative integral inputs.')
    if weights is None:
        return make(np.bincount(x.astype(np.intp), minlength=minlength).astype(np.int64))
    w = weights._data
    if w.ndim != 1 or w.shape[0] != x.shape[0]:
        raise RuntimeError('weights should be 1-d and have the same length as input')
    d = np.float32 if w.dtype == np.float32 else np.float64
    out = np.zeros(builtins.max(minlength, int(x.max()) + 1), d)
    np.add.at(out, x, w.astype(d))
    return _not_implemented(make(out), (weights,), 'aten::bincount')


def histc(input, bins=100, min=0, max=0):
    """A histogram of the elements in `bins` equal bins between min and max (the data's own range when both are
    equal), in the input's float dtype: elements outside are left out, max falls in the last bin. No gradient."""
    x = input._data
    if bins <= 0:
        raise RuntimeError('torch.histogram(): bins must be > 0, but got %d for dimension 0' % bins)
    if x.dtype.kind != 'f':          # (PyTorch's bool input first fails making the bin edges)
        raise NotImplementedError('"%s" not implemented for \'%s\'' % (
            'linspace_cpu' if x.dtype.kind == 'b' else 'histogram_cpu', input.dtype.legacy))
    lo, hi = float(min), float(max)
    if lo == hi and x.size:
        lo, hi = float(x.min()), float(x.max())
    if lo == hi:
        lo, hi = lo - 1, hi + 1
    if not (math.isfinite(lo) and math.isfinite(hi)):
        raise RuntimeError('torch.histc: range of [%s, %s] is not finite' % (_num(lo), _num(hi)))
    if not lo < hi:
        raise RuntimeError('torch.histc: max must be larger than min')
    t = x.dtype.type
    edges = np.linspace(lo, hi, bins + 1).astype(x.dtype)
    left, right = edges[0], edges[-1]
    v = x.reshape(-1)
    v = v[(v >= left) & (v <= right)]
    pos = ((v - left) * t(bins) / (right - left)).astype(np.int64)     # (in the input's dtype, as PyTorch)
    pos[pos == bins] = bins - 1
    return make(np.bincount(pos.astype(np.intp), minlength=bins).astype(x.dtype))


# ================================================================================================ searchsorted

def _bound(boundaries, values, right):
    """Binary search of each row of `values` in the same row of `boundaries` (both 2-d, rows matched; a boundary row
    of 1 shared): PyTorch's lower / upper bound, comparisons and all (a NaN value lands at the end)."""
    n = boundaries.shape[-1]
    start = np.zeros(values.shape, np.int64)
    end = np.full(values.shape, n, np.int64)
    rows = np.arange(boundaries.shape[0])[:, None] if boundaries.shape[0] > 1 else np.zeros((1, 1), np.int64)
    while True:
        todo = start < end
        if not todo.any():
            return start
        mid = start + ((end - start) >> 1)
        m = boundaries[rows, np.minimum(mid, n - 1)]
        go_right = ~(m > values) if right else ~(m >= values)
        start = np.where(todo & go_right, mid + 1, start)
        end = np.where(todo & ~go_right, mid, end)


def searchsorted(sorted_sequence, input, *, out_int32=False, right=False, side=None, sorter=None):
    """The indices at which `input`'s values would go into the sorted innermost rows of `sorted_sequence` to keep
    them sorted (the first such place, or the last with right=True / side='right'). int64, or int32."""
    if side is not None and side not in ('left', 'right'):
        raise RuntimeError("torch.searchsorted(): side can only be 'left' or 'right' but got %s" % side)
    if side == 'left' and right:
        raise RuntimeError("torch.searchsorted(): side and right can't be set to opposites, got side of left while "
                           "right was True")
    right = right or side == 'right'
    b = sorted_sequence
    scalar = not isinstance(input, Tensor)
    if scalar and not isinstance(input, (int, float, np.number)):
        raise TypeError('searchsorted(): input must be a Tensor or a number')    # (the parser words it)
    v = make(np.array(input)) if scalar else input
    if sorter is not None:
        if sorter._data.dtype != np.int64:
            raise RuntimeError('torch.searchsorted(): sorter must be a tensor of long dtype but got dtype '
                               + sorter.dtype.legacy)
        if sorter.shape != b.shape:
            raise RuntimeError('torch.searchsorted(): boundary and sorter must have the same size, but got boundary '
                               'tensor %sand got sorter tensor %s' % (_dims_text(b), _dims_text(sorter)))
        s = sorter._data
        if s.size and not s.ndim:               # (its range check reads the last of no sizes)
            raise RuntimeError('ArrayRef: attempted to access back() of empty list')
        if s.size and (s.min() < 0 or s.max() >= b.shape[-1]):
            raise RuntimeError('torch.searchsorted(): sorter index out of range')
    if not v.ndim and b.ndim != 1:              # (a number or a 0-d tensor; checked before boundaries' dims)
        raise RuntimeError("torch.searchsorted(): input value can be a scalar only when boundaries tensor dimension "
                           "is 1, but we got boundaries tensor dim(%d) and input value's dim(%d) numel(%d)"
                           % (b.ndim, v.ndim, v.numel()))
    if b.ndim == 0:
        raise RuntimeError('torch.searchsorted(): boundaries tensor should have positive dimension, but got 0 '
                           'dimension')
    if b.ndim != 1 and (b.ndim != v.ndim or b.shape[:-1] != v.shape[:-1]):
        raise RuntimeError('torch.searchsorted(): boundaries tensor should be 1 dimension or the first N-1 dimensions '
                           'of boundaries tensor and input value tensor must match, but we got boundaries tensor %s '
                           'and input value tensor %s' % (_dims_text(b), _dims_text(v)))
    common = dt.result_type(b, v) if not scalar else dt.result_type(b, input)
    if common is dt.bool_:
        raise NotImplementedError('"searchsorted_out_cpu" not implemented for \'Bool\'')
    bd = b._data.astype(common.np)
    if sorter is not None:
        bd = np.take_along_axis(bd, sorter._data, -1)
    vd = np.asarray(input if scalar else v._data).astype(common.np)
    if not bd.shape[-1] or not vd.size:
        idx = np.zeros(vd.shape, np.int64)
    elif b.ndim == 1:
        idx = _bound(bd.reshape(1, -1), vd.reshape(1, -1), right).reshape(vd.shape)
    else:
        idx = _bound(bd.reshape(-1, bd.shape[-1]), vd.reshape(-1, vd.shape[-1] if vd.ndim else 1),
                     right).reshape(vd.shape)
    return make(idx.astype(np.int32 if out_int32 else np.int64))


def _dims_text(t):
    return '[%s]' % ', '.join(map(str, t.shape))


def bucketize(input, boundaries, *, out_int32=False, right=False):
    """The bucket of each element of input among the 1-d sorted `boundaries`: searchsorted(boundaries, input)."""
    if boundaries.ndim != 1:
        raise RuntimeError('boundaries tensor must be 1 dimension, but got dim(%d)' % boundaries.ndim)
    return searchsorted(boundaries, input, out_int32=out_int32, right=right)


# ================================================================================================ quantile

_INTERPOLATIONS = ('linear', 'lower', 'higher', 'midpoint', 'nearest')


def _quantile(a, q, dim, keepdim, interpolation, ignore_nan):
    """PyTorch's quantile: sort (the reduced dim moved last, or everything flattened), view as (q, rest..., n),
    gather the values below and above each rank and lerp_ between them; then squeeze_ (or move q's dim first)."""
    if not isinstance(q, Tensor):
        if not 0 <= q <= 1:
            raise RuntimeError('quantile() q must be in the range [0, 1] but got %s' % _num(q))
        q = make(np.array(q, dtype=a._data.dtype if a._data.dtype.kind == 'f' else np.float32))
    if not a.numel():
        raise RuntimeError('quantile() input tensor must be non-empty')
    if q.ndim > 1:
        raise RuntimeError('quantile() q must be a scalar or 1D tensor')
    if a._data.dtype not in (np.float32, np.float64):
        raise RuntimeError('quantile() input tensor must be either float or double dtype')
    if q.dtype is not a.dtype:
        raise RuntimeError('quantile() q tensor must be same dtype as the input tensor')
    if interpolation not in _INTERPOLATIONS:
        raise RuntimeError('quantile() interpolation must be one of linear, lower, higher, midpoint or nearest, but '
                           'got ' + interpolation)
    qd = q._data
    if not ((qd >= 0) & (qd <= 1)).all():
        raise RuntimeError('quantile() q values must be in the range [0, 1]')
    d = None if dim is None else _wrap_dim(dim, a.ndim)
    # the input's shape without the reduced dim (kept as 1 with keepdim): sorted values are viewed as this, n
    if d is not None and a.ndim:
        rest = list(a.shape)
        if keepdim:
            rest[d] = 1
        else:
            del rest[d]
    else:
        rest = [1] * a.ndim if keepdim else []
    if d is None:
        s = a.flatten().sort()[0]
    elif d == a.ndim - 1:
        s = a.sort()[0]
    else:
        s = a.unsqueeze(-1).transpose(d, -1).sort()[0]
    s = s.view(rest + [s.shape[-1]])
    # ranks in [0, n - 1] (computed from q, so that a q requiring grad gets its gradient through the lerp weight)
    nan = s.detach().isnan()
    if ignore_nan:                         # among the values that are not NaN (all NaN: rank 0, a NaN)
        ranks = q * (nan.logical_not().sum(-1, True) - 1)
        ranks = ranks.masked_fill_(ranks.detach() < 0, 0)
    else:                                  # a NaN in the row: the last rank, a NaN
        last = s.shape[-1] - 1
        ranks, has_nan = broadcast_tensors(_mul_scalar(q, last), nan.any(-1, True))
        ranks = ranks.masked_fill(has_nan, last)
    if interpolation in ('lower', 'higher', 'nearest'):
        ranks = {'lower': np.floor, 'higher': np.ceil, 'nearest': np.round}[interpolation](ranks._data)
        ranks = make(ranks)
    below = make(ranks._data.astype(np.int64))
    values = s.gather(-1, below)
    if interpolation in ('linear', 'midpoint'):
        weights = make(np.full(ranks.shape, 0.5, ranks._data.dtype)) if interpolation == 'midpoint' else ranks - below
        values.lerp_(s.gather(-1, make(np.ceil(ranks._data).astype(np.int64))), weights)
    if q.ndim == 0:
        return values.squeeze_(-1)
    return values.unsqueeze_(0).transpose_(0, -1).squeeze_(-1)


def quantile(input, q, dim=None, keepdim=False, *, interpolation='linear'):
    """The q-th quantiles of input (flattened, or along dim): q a number or a 1-d tensor of them (its dim first in
    the result). interpolation: between the two nearest values, 'linear', 'lower', 'higher', 'midpoint' or
    'nearest'. A NaN in a row makes its quantiles NaN."""
    _check_q(q, 'quantile')
    return _quantile(input, q, dim, keepdim, interpolation, False)


def nanquantile(input, q, dim=None, keepdim=False, *, interpolation='linear'):
    """quantile ignoring NaNs (a row of them only gives NaN)."""
    _check_q(q, 'nanquantile')
    return _quantile(input, q, dim, keepdim, interpolation, True)


def _check_q(q, name):
    """PyTorch's error for a q that is neither a tensor nor a number."""
    if not isinstance(q, (Tensor, float, int)) or isinstance(q, bool):
        raise TypeError('%s() received an invalid combination of arguments - got (Tensor, %s), but expected one of:\n'
                        ' * (Tensor input, Tensor q, int dim = None, bool keepdim = False, *, str interpolation = '
                        '"linear", Tensor out = None)\n * (Tensor input, float q, int dim = None, bool keepdim = '
                        'False, *, str interpolation = "linear", Tensor out = None)\n' % (name, type(q).__name__))


# ================================================================================================ mode

def _mode_of(row):
    """(value, index) of the most frequent value of a 1-d array, the smallest of equally frequent ones, found as
    PyTorch's CPU kernel finds it: in the runs of equal values of the std::sort-ed (value, index) pairs."""
    pairs = list(zip(row.tolist(), range(len(row))))
    _sort(pairs, 0, len(pairs), operator.lt)
    best, count, run = None, 0, 0
    for i, (v, j) in enumerate(pairs):
        run += 1
        if i == len(pairs) - 1 or v != pairs[i + 1][0]:
            if run > count:
                best, count = (v, j), run
            run = 0
    return best


def mode(input, dim=-1, keepdim=False):
    """(values, indices): the most frequent value along dim (the smallest of equally frequent ones) and an index of
    it. ModeBackward0 puts the gradient at that index."""
    x = input._data
    d = _wrap_dim(dim, x.ndim)
    v = x if x.ndim else x.reshape(1)
    if not v.shape[d]:
        raise IndexError('mode(): Expected reduction dim %d to have non-zero size.' % d)
    rows = np.moveaxis(v, d, -1)
    order = np.zeros(rows.shape[:-1] + (1,), np.int64)
    for at in np.ndindex(rows.shape[:-1]):
        order[at + (0,)] = _mode_of(rows[at])[1]
    return _picked(input, dim, np.moveaxis(order, -1, d), ModeBackward0, 'mode', keepdim, keepdim=keepdim)


class ModeBackward0(SortBackward0):
    pass


# ================================================================================================ nanmedian

def nanmedian(input, dim=None, keepdim=False):
    """The lower median of the non-NaN elements (NaN where all are NaN): of all of them (a tensor), or along dim
    ((values, indices)). PyTorch's kernel picks it with std::nth_element ordering by (value, index), NaN last: the
    index of an all-NaN row is where nth_element leaves the first of equal elements."""
    x = input._data
    nan = np.isnan(x) if x.dtype.kind == 'f' else np.zeros(x.shape, bool)
    if dim is None:
        if x.dtype.kind == 'b' and x.size:
            raise NotImplementedError('"median_cpu" not implemented for \'Bool\'')
        kept = np.sort(x[~nan])
        out = kept[(kept.size - 1) // 2] if kept.size else _nan_of(x.dtype)
        return _attach(make(np.asarray(out)), NanmedianBackward0, (input,), {'result': _RESULT,
                                                                            'self': SavedTensor(input)})
    d = _wrap_dim(dim, x.ndim)
    v, nan = (x, nan) if x.ndim else (x.reshape(1), nan.reshape(1))
    n = v.shape[d]
    if not n:
        raise IndexError('median(): Expected reduction dim %d to have non-zero size.' % d)
    if x.dtype.kind == 'b':
        raise NotImplementedError('"median_out" not implemented for \'Bool\'')
    m = n - np.count_nonzero(nan, axis=d, keepdims=True)
    at = np.take_along_axis(np.argsort(v, axis=d, kind='stable'), builtins.abs(m - 1) // 2, d)
    if not m.all():
        pairs = [(0, i) for i in range(n)]
        _nth_element(pairs, 0, operator.lt)
        at = np.where(m == 0, pairs[0][1], at)
    return _picked(input, dim, at, NanmedianBackward1, 'nanmedian', keepdim, keepdim=keepdim)


class NanmedianBackward0(MedianBackward0):
    pass


class NanmedianBackward1(SortBackward0):
    pass


# ================================================================================================ unique_consecutive

def unique_consecutive(input, return_inverse=False, return_counts=False, dim=None):
    """The first of each run of equal consecutive elements (or slices along dim; NaNs are never equal), with where
    each element went (inverse) and the lengths of the runs (counts). No derivative."""
    x = input._data
    if dim is None:
        rows, shape = x.reshape(-1, 1), x.shape
    else:
        if not _argparse.is_int(dim):           # (torch.unique_consecutive gives it by keyword to its builtin)
            raise TypeError("unique_consecutive(): argument 'dim' must be int, not %s" % _argparse.parser_type(dim))
        d = _wrap_dim(dim, x.ndim, scalar=False)
        if not x.size:
            _check_unique_empty(x.shape, d)
            return _unique_empty(input, UniqueConsecutiveBackward0, return_inverse, return_counts)
        rows = np.moveaxis(x, d, 0).reshape(x.shape[d], -1)
        shape = rows.shape[:1]
    new = np.ones(len(rows), bool)
    new[1:] = (rows[1:] != rows[:-1]).any(axis=1)
    starts = np.flatnonzero(new)
    out = _attach(make(x.reshape(-1)[starts] if dim is None else np.take(x, starts, axis=d)),
                  UniqueConsecutiveBackward0, (input,))
    extra = [make(np.asarray(r, np.int64)) for r, wanted in (
        ((np.cumsum(new) - 1).reshape(shape), return_inverse), (np.diff(np.append(starts, len(rows))), return_counts))
        if wanted]
    return tuple([out] + extra) if extra else out


class UniqueConsecutiveBackward0(Unique2Backward0):
    op = 'unique_consecutive'


# ================================================================================================ cov, corrcoef

def cov(input, *, correction=1, fweights=None, aweights=None):
    """The covariance matrix of the variables in input's rows (observations in its columns), as PyTorch composes
    it: (x - mean) mm (x - mean).t() / (observations - correction), weighted by fweights / aweights if given."""
    if input.ndim > 2:
        raise RuntimeError('cov(): expected input to have two or fewer dimensions but got an input with %d dimensions'
                           % input.ndim)
    if input.dtype is dt.bool_:
        raise RuntimeError('cov(): bool dtype is not supported for input')
    x = input.view(1, -1) if input.ndim < 2 else input
    n = x.shape[1]
    w = None
    if fweights is not None:
        w = fweights
        if w.ndim > 1:
            raise RuntimeError('cov(): expected fweights to have one or fewer dimensions but got fweights with %d '
                               'dimensions' % w.ndim)
        if w._data.dtype.kind not in 'iu':
            raise RuntimeError('cov(): expected fweights to have integral dtype but got fweights with %s dtype'
                               % w.dtype.legacy)
        if w.numel() != n:
            raise RuntimeError('cov(): expected fweights to have the same numel as there are observations in the '
                               'input but got %d != %d' % (w.numel(), n))
        if n and w._data.min() < 0:
            raise RuntimeError('cov(): fweights cannot be negative')
    if aweights is not None:
        aw = aweights
        if aw.ndim > 1:
            raise RuntimeError('cov(): expected aweights to have one or fewer dimensions but got aweights with %d '
                               'dimensions' % aw.ndim)
        if aw._data.dtype.kind != 'f':
            raise RuntimeError('cov(): expected aweights to have floating point dtype but got aweights with %s dtype'
                               % aw.dtype.legacy)
        if aw.numel() != n:
            raise RuntimeError('cov(): expected aweights to have the same numel as there are observations in the '
                               'input but got %d != %d' % (aw.numel(), n))
        if n and aw._data.min() < 0:
            raise RuntimeError('cov(): aweights cannot be negative')
        w = aw if w is None else w * aw
    w_sum = w.sum() if w is not None else make(np.array(n, np.int64))
    if w is not None and not w_sum._data != 0:
        raise RuntimeError("cov(): weights sum to zero, can't be normalized")
    avg = (x * w if w is not None else x).sum(1) / w_sum
    if w is not None and correction != 0 and aweights is not None:
        norm = w_sum - correction * (w * aweights).sum() / w_sum
    else:
        norm = w_sum - correction
    if norm._data <= 0:
        warnings.warn('cov(): degrees of freedom is <= 0. Correction should be strictly less than the number of '
                      'observations.', UserWarning, stacklevel=user_stacklevel())
        norm = norm.detach() * 0
    x = x - avg.unsqueeze(1)
    return x.mm((x * w if w is not None else x).t()).true_divide(norm).squeeze()


def corrcoef(input):
    """The Pearson correlation coefficients of input's rows: cov(input) over the outer product of the standard
    deviations, clipped to [-1, 1]."""
    if input.ndim > 2:
        raise RuntimeError('corrcoef(): expected input to have two or fewer dimensions but got an input with %d '
                           'dimensions' % input.ndim)
    c = cov(input)
    if c.ndim == 0:
        return c / c
    std = c.diagonal().sqrt()
    c = c / std.view(-1, 1)
    c = c / std.view(1, -1)
    return c.clip(-1, 1)


# ================================================================================================ erfinv

def _erfinv64(y):
    """erfinv in float64: a first guess from the logarithmic approximation, then Newton steps on math.erf."""
    if not -1 < y < 1:
        return math.copysign(math.inf, y) if abs(y) == 1 else math.nan
    if y == 0:
        return y
    a = 0.147
    ln = math.log(1 - y * y)
    t = 2 / (math.pi * a) + ln / 2
    x = math.copysign(math.sqrt(math.sqrt(t * t - ln / a) - t), y)
    for _ in range(4):
        x -= (math.erf(x) - y) / (2 / math.sqrt(math.pi) * math.exp(-x * x))
    return x


_erfinv_vec = np.frompyfunc(_erfinv64, 1, 1)


def erfinv(input):
    """The inverse of the error function (float: -1 and 1 give -inf and inf, beyond them NaN). ErfinvBackward0."""
    d = input.dtype if input.dtype.is_floating_point else dt.default_float
    r = np.asarray(_erfinv_vec(input._data.astype(np.float64)), dtype=np.float64)
    return _attach(_out(r.astype(d.np), d), ErfinvBackward0, (input,), {'self': SavedTensor(input)},
                   input.dtype is d)


class ErfinvBackward0(Node):
    def apply(self, g):                     # 0.5 * sqrt(M_PI) * exp(self.erfinv().pow(2)) * grad
        from ._ops_math import _scaled
        x = self.saved('self')
        return (_scaled(erfinv(x).pow(2).exp(), 0.5 * math.sqrt(math.pi)) * g,)


for _name in ['bincount', 'histc', 'quantile', 'nanquantile', 'mode', 'cov', 'corrcoef', 'erfinv', 'nanmedian',
              'unique_consecutive']:
    setattr(Tensor, _name, globals()[_name])
Tensor.erfinv_ = _methods._inplace_of(erfinv)
