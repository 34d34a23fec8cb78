"""The op table, part 6: more reductions and products (tensordot, inner, kron, vdot, nansum, cummax, var_mean, ...).

Same rules as `_ops.py`: numpy forward beside a backward written with tensor ops (so double backward works),
node names and saved attributes exactly as PyTorch 2.13 has them. `__all__` names the torch.* functions; the
Tensor methods are set here.
"""
import builtins

import numpy as np

from . import _autograd as ag
from . import _dtypes as dt
from ._autograd import Node, SavedTensor, RESULT as _RESULT
from ._ops import (_versioned, _add_reduce, _attach, _check_autograd_dtype, _dims, _edge, _div_scalar, _first_zeros, _mul_scalar,
                   _out, scaled_by_count, sum_to, _dim_list as _checked_dims)
from ._ops_nn import (_NOT_GIVEN, _correction, _var_np_dtype, _raw, _reduced_dims, _return_type, _var_backward, _var_np,
                      _saved_dims, _unsq, return_types, where)
from ._tensor import Tensor, make, _wrap_dim

__all__ = ['count_nonzero', 'nansum', 'nanmean', 'diff', 'tensordot', 'inner', 'kron', 'vdot', 'logcumsumexp',
           'cummax', 'cummin', 'aminmax']

for _name, _fields in (('cummax', ('values', 'indices')), ('cummin', ('values', 'indices')),
                       ('aminmax', ('min', 'max'))):
    if not hasattr(return_types, _name):
        setattr(return_types, _name, _return_type(_name, _fields))


def _prod(sizes):
    n = 1
    for s in sizes:
        n *= s
    return n


# ================================================================================================ sums

def count_nonzero(a, dim=None, *more):
    """How many elements are not zero (over dim, or all: also for an empty list of dims): int64, no gradient.
    Dims may be given one by one, as `x.count_nonzero(0, 1)` (the parser's varargs int list)."""
    if more:
        dim = (dim,) + more
    dims = None if dim is None or isinstance(dim, (list, tuple)) and not dim else _checked_dims((dim,), a._data.ndim)[1]
    return make(np.asarray(np.count_nonzero(a._data, axis=dims if a._data.ndim else None), dtype=np.int64,
                           order='C'))


def nansum(a, dim=None, keepdim=False, *, dtype=None):
    """The sum with NaNs counted as zero (NansumBackward0: the gradient skips them)."""
    x = a._data
    d = dtype if dtype is not None else a.dtype if x.dtype.kind == 'f' else dt.int64
    if x.dtype.kind == 'f':                 # (NaNs counted as zero before any cast to dtype)
        x = np.where(np.isnan(x), x.dtype.type(0), x)
    x = x if x.dtype is d.np else x.astype(d.np)
    empty = dim is None or (isinstance(dim, (list, tuple)) and len(dim) == 0)
    if empty:                           # (all dims: kept as size 1 with keepdim)
        r = _add_reduce(x).reshape((1,) * x.ndim if keepdim else ())
    else:
        r = _add_reduce(x, _dims(dim, x.ndim), keepdim)
    out = _out(np.asarray(r, order='C'), d)
    _check_autograd_dtype(a, d)
    raw = None if dim is None else _raw(tuple(dim) if isinstance(dim, (tuple, list)) else (dim,))
    return _attach(out, NansumBackward0, (a,), {'dim': raw, 'keepdim': keepdim, 'self': SavedTensor(a)})


class NansumBackward0(Node):
    def apply(self, g):
        s, x = self._saved, self.saved('self')
        dims = _saved_dims(s['dim'], x.ndim) if s['dim'] and x.ndim else None     # (a 0-d input: g is its shape)
        g = _unsq(g, dims, s['keepdim']) if dims is not None else g
        # (PyTorch's nansum_backward multiplies by the mask: an inf or nan gradient gives nan at x's nans, -0 signs)
        return (g.expand(x.shape) * x.isnan().logical_not(),)


def nanmean(a, dim=None, keepdim=False, *, dtype=None):
    """nansum / the count of non-NaN elements, composed as PyTorch composes it (DivBackward0 over NansumBackward0)."""
    if not a.dtype.is_floating_point:
        raise RuntimeError('nanmean(): expected input to have floating point or complex dtype but got '
                           + a.dtype.legacy.replace('Tensor', '').replace('torch.', ''))
    if dtype is not None and not dtype.is_floating_point:
        raise RuntimeError('nanmean(): could not infer output dtype. Optional dtype must be either a floating point or '
                           'complex dtype. Got: ' + dtype.legacy)
    count = a.isnan().logical_not().sum(dim, keepdim) if dim is not None else a.isnan().logical_not().sum()
    return nansum(a, dim, keepdim, dtype=dtype).div(count)


# ================================================================================================ differences

def diff(a, n=1, dim=-1, prepend=None, append=None):
    """The n-th forward difference along dim (after cat of prepend / append): slices subtracted, as PyTorch does."""
    if a.ndim == 0:
        raise RuntimeError('diff expects input to be at least one-dimensional')
    if n < 0:
        raise RuntimeError('order must be non-negative but got %d' % n)
    if prepend is not None or append is not None:
        from ._ops import cat
        a = cat([t for t in (prepend, a, append) if t is not None], dim)
    if n == 0:
        return a.new_empty(a.shape).copy_(a)
    d = _wrap_dim(dim, a.ndim)
    for _ in range(n):
        m = a.shape[d]
        if m == 0:
            break
        hi, lo = a.narrow(dim, 1, m - 1), a.narrow(dim, 0, m - 1)
        a = hi.logical_xor(lo) if a.dtype is dt.bool_ else hi - lo
    return a


# ================================================================================================ products

def _dim_list(dims):
    return [dims] if isinstance(dims, int) else list(dims)


def tensordot(a, b, dims=2, out=None):
    """Contract dims of a with dims of b: both permuted and reshaped to matrices, one mm, reshaped back."""
    if isinstance(dims, Tensor):
        dims = dims.tolist()
    if isinstance(dims, int):
        if dims < 0:
            raise RuntimeError('tensordot expects dims >= 0, but got dims=%d' % dims)
        if dims > min(a.ndim, b.ndim):
            raise RuntimeError('tensordot expects dims < ndim_a or ndim_b, but got dims=%d' % dims)
        da, db = list(range(-dims, 0)), list(range(dims))
    else:
        da, db = _dim_list(dims[0]), _dim_list(dims[1])
    if len(da) != len(db):
        raise RuntimeError('both dimension lists should have same length')
    if a.dtype is not b.dtype:
        raise RuntimeError('both inputs should have same dtype')
    wa, wb = [_wrap_dim(d, a.ndim) for d in da], [_wrap_dim(d, b.ndim) for d in db]
    for i, j, gi, gj in zip(wa, wb, da, db):
        # a size-1 dim broadcasts against the other's: PyTorch sums the other tensor over it right away (keeping
        # the dim and the dtype), so both contract a dim of size 1
        if b.shape[j] == 1:
            a = a.sum(i, keepdim=True, dtype=a.dtype)
        elif a.shape[i] == 1:
            b = b.sum(j, keepdim=True, dtype=b.dtype)
        elif a.shape[i] != b.shape[j]:          # (the dims named as given: a's last is -1 for an int dims)
            raise RuntimeError('contracted dimensions need to match, but first has size %d in dim %d and second has '
                               'size %d in dim %d' % (a.shape[i], gi, b.shape[j], gj))
    fa = [i for i in range(a.ndim) if i not in wa]
    fb = [j for j in range(b.ndim) if j not in wb]
    size = _prod(a.shape[i] for i in wa)
    ta, tb = a.permute(fa + da), b.permute(db + fb)
    shape = [a.shape[i] for i in fa] + [b.shape[j] for j in fb]
    if not fa and not fb:                # (a vector is not reshaped: no ViewBackward0 under the DotBackward0)
        res = (ta if ta.ndim == 1 else ta.reshape(-1)).dot(tb if tb.ndim == 1 else tb.reshape(-1)).view(shape)
    else:
        res = ta.reshape(_prod(a.shape[i] for i in fa), size).mm(tb.reshape(size, _prod(b.shape[j] for j in fb))
                                                                 ).view(shape)
    if out is None:
        return res
    if out.shape == res.shape and out.dtype is res.dtype:
        return out.copy_(res)           # (PyTorch's out= form copies the product in: autograd sees a copy_)
    from ._methods import _write_out
    return _write_out('tensordot', res, out, (a, b))


def inner(a, b):
    """Sum over the last dims of both (a * b for a 0-d tensor): tensordot(a, b, ([-1], [-1]))."""
    if not isinstance(b, Tensor):          # (a number, a list: the argument parser's error replaces this one)
        raise TypeError("inner(): argument 'other' must be Tensor, not %s" % type(b).__name__)
    if a.ndim == 0 or b.ndim == 0:
        return a * b
    if a.shape[-1] != b.shape[-1]:
        raise RuntimeError('inner() the last dimension must match on both input tensors but got shapes %s and %s'
                           % (list(a.shape), list(b.shape)))
    return tensordot(a, b, ([-1], [-1]))


def kron(a, b):
    """The Kronecker product: a and b viewed with their dims interleaved, multiplied, viewed back (as PyTorch)."""
    from ._ops import _unsafe_view
    n = builtins.max(a.ndim, b.ndim)
    sa, sb = (1,) * (n - a.ndim) + tuple(a.shape), (1,) * (n - b.ndim) + tuple(b.shape)
    va = _unsafe_view(a, tuple(x for d in sa for x in (d, 1)))
    vb = _unsafe_view(b, tuple(x for d in sb for x in (1, d)))
    return _unsafe_view(va * vb, tuple(x * y for x, y in zip(sa, sb)))


def vdot(a, b):
    """The dot product of two 1-D tensors (conjugating the first: real tensors here). VdotBackward0."""
    if a.ndim != 1 or b.ndim != 1:
        raise RuntimeError('1D tensors expected, but got %dD and %dD tensors' % (a.ndim, b.ndim))
    if a.dtype != b.dtype:                      # (dot's checks, in dot's order)
        raise RuntimeError('dot : expected both vectors to have same dtype, but found %s and %s'
                           % (a.dtype.legacy, b.dtype.legacy))
    if a.shape[0] != b.shape[0]:
        raise RuntimeError('inconsistent tensor size, expected tensor [%d] and src [%d] to have the same number of '
                           'elements, but got %d and %d elements respectively'
                           % (a.shape[0], b.shape[0], a.shape[0], b.shape[0]))
    with ag.no_grad():
        y = a.dot(b)
    return _attach(make(y._data), VdotBackward0, (a, b), {'other': SavedTensor(b) if _edge(a) else None,
                                                           'self': SavedTensor(a) if _edge(b) else None})


class VdotBackward0(Node):
    def apply(self, g):
        gb = g * self.saved('self') if self.needs(1) else None     # (other's first: see MulBackward0)
        return (g * self.saved('other') if self.needs(0) else None), gb


# ================================================================================================ scans

def logcumsumexp(a, dim):
    """log(cumsum(exp(a))) along dim, accumulated stably in the tensor's dtype."""
    x = a._data
    d = _wrap_dim(dim, x.ndim)                  # (the dim is checked before the dtype)
    if not a.dtype.is_floating_point:
        raise NotImplementedError('"logcumsumexp_out_cpu" not implemented for \'%s\'' % _scalar_name(a))
    # (as PyTorch accumulates: float32 in float64, float16 in float32, then rounded)
    w = x.astype(np.float64) if x.dtype == np.float32 else x.astype(np.float32) if x.dtype == np.float16 else x
    y = np.logaddexp.accumulate(w.reshape(-1) if x.ndim == 0 else w, axis=d if x.ndim else 0).reshape(x.shape)
    if x.ndim:
        y = y + 0.  # (PyTorch's scan starts from -inf: its first logaddexp(-inf, -0.) is 0.; a 0-d one is copied)
    return _attach(make(y.astype(x.dtype, order='C', copy=False)), LogcumsumexpBackward0, (a,),
                   {'dim': _raw(dim), 'result': _RESULT, 'self': SavedTensor(a)})


def _scalar_name(a):
    return {'int64': 'Long', 'int32': 'Int', 'int16': 'Short', 'int8': 'Char', 'uint8': 'Byte',
            'bool': 'Bool'}[a._data.dtype.name]


class LogcumsumexpBackward0(Node):
    def apply(self, g):
        x, r = self.saved('self'), self.saved('result')
        if x.ndim == 0:
            return (g,)
        d = _saved_dims(self._saved['dim'], x.ndim)[0]
        # PyTorch's formula: d x_i = exp(x_i) * sum_{j >= i} g_j exp(-r_j), the positive and negative parts of g
        # each summed in log space (a reversed logcumsumexp), then subtracted
        lowest = make(np.array(np.finfo(g._data.dtype).min, g._data.dtype))
        log_abs = g.abs().log()
        parts = [(logcumsumexp(where(sign, log_abs, lowest).sub(r).flip(d), d).flip(d) + x).exp()
                 for sign in (g > 0, g < 0)]
        return (parts[0] - parts[1],)


def _cumulative(name, better, node):
    def op(a, dim):
        x = a._data
        if not x.ndim and dim not in (0, -1):
            raise IndexError('%s(): Expected reduction dim -1 or 0 for scalar but got %d' % (name, dim))
        d = _wrap_dim(dim, x.ndim)
        v = x.reshape(1) if x.ndim == 0 else x.copy()
        v = np.moveaxis(v, d if x.ndim else 0, -1).copy()
        idx = np.zeros(v.shape, np.int64)
        for i in range(1, v.shape[-1]):
            prev, cur = v[..., i - 1], v[..., i]
            take = better(cur, prev) | (np.isnan(cur) if v.dtype.kind == 'f' else False)
            v[..., i] = np.where(take, cur, prev)
            idx[..., i] = np.where(take, i, idx[..., i - 1])
        v = np.ascontiguousarray(np.moveaxis(v, -1, d if x.ndim else 0)).reshape(x.shape)    # (contiguous, as
        indices = make(np.ascontiguousarray(np.moveaxis(idx, -1, d if x.ndim else 0)).reshape(x.shape))  # PyTorch's)
        out = _attach(make(v), node, (a,), {'dim': _raw(dim), 'indices': SavedTensor(indices),
                                            'self': SavedTensor(a)})
        return getattr(return_types, name)(out, indices)
    op.__name__ = name
    op.__doc__ = 'torch.%s: the running extremum along dim and where it was found (the later of equal ones).' % name
    return op


class CummaxBackward0(Node):
    def apply(self, g):
        x, idx = self.saved('self'), self.saved('indices')
        if not x._data.size:                    # (PyTorch's cummaxmin_backward hands back the input itself)
            return (x,)
        d = _saved_dims(self._saved['dim'], x.ndim)[0]      # (a 0-d x's too: PyTorch scatters into a 0-d zero)
        return (_versioned(x.new_zeros(x.shape).scatter_add(d, idx, g), 2),)


class CumminBackward0(CummaxBackward0):
    pass


cummax = _cumulative('cummax', lambda c, p: c >= p, CummaxBackward0)
cummin = _cumulative('cummin', lambda c, p: c <= p, CumminBackward0)


# ================================================================================================ aminmax

def aminmax(a, *, dim=None, keepdim=False):
    """(min, max) over dim or everything: one AminmaxBackward0 node for both (ties share the gradient)."""
    x = a._data
    if x.size == 0 and dim is None:
        raise RuntimeError('aminmax(): cannot compute aminmax over an empty dimension as the operation has no '
                           'identity.')
    dims = _dims(dim, x.ndim) if x.ndim else None
    if dim is not None and not x.ndim:
        _wrap_dim(dim, 0)                   # (a 0-d tensor's dim: 0 or -1)
    if dims and x.size == 0:
        for k in dims:
            if not x.shape[k]:
                raise IndexError('aminmax: Expected reduction dim %d to have non-zero size.' % k)
    lo, hi = (np.asarray(f(x, axis=dims, keepdims=keepdim and dims is not None), order='C') for f in (np.min, np.max))
    if dims and x.dtype.kind == 'f' and x.size:     # (over a dim PyTorch's loop keeps the first of tied zeros)
        lo, hi = (_first_zeros(r, x, dims, keepdim) for r in (lo, hi))
    lo, hi = make(lo), make(hi)
    if keepdim and dim is None and x.ndim:
        lo, hi = (make(t._data.reshape((1,) * x.ndim)) for t in (lo, hi))
    if ag.grad_enabled and a._requires_grad and x.dtype.kind == 'f':
        node = ag.record(None, AminmaxBackward0, (a,), {'dim': _raw(dim), 'keepdim': keepdim, 'max': None,
                                                        'min': None, 'self': SavedTensor(a)})
        node.num_outputs = 2
        for i, t in enumerate((lo, hi)):
            t._grad_fn, t._requires_grad, t._output_nr = node, True, i
        node._saved.update(max=SavedTensor(hi, is_output=True), min=SavedTensor(lo, is_output=True))   # (outputs)
        ag.pack_outputs(node._saved)
        ag.fw_outputs(node, (a,), (lo, hi))
    return return_types.aminmax(lo, hi)


class AminmaxBackward0(Node):
    def apply(self, g_min, g_max):
        s, x = self._saved, self.saved('self')
        given = None if s['dim'] is None else (s['dim'],)
        out = None
        for g, name in ((g_min, 'min'), (g_max, 'max')):
            if g is not None:
                part = scaled_by_count(g, x, self.saved(name), given, s['keepdim'])    # (as amax's, amin's)
                out = part if out is None else out + part
        return (None if out is None else sum_to(out, x._data.shape),)


for _name in ['count_nonzero', 'nansum', 'nanmean', 'diff', 'inner', 'kron', 'vdot', 'logcumsumexp', 'cummax',
              'cummin', 'aminmax']:
    setattr(Tensor, _name, globals()[_name])


# ================================================================================================ inverse

class _LinAlgError(RuntimeError):
    """torch.linalg.LinAlgError: a RuntimeError from a failed factorization."""


_LinAlgError.__module__ = 'torch._C'


# ================================================================================================ var_mean, std_mean

def _moments(r, a, dim, c, dims, keepdim, welford_mean=None):
    """The mean (Welford's running one where _var_np computed it; else float32 accumulated in float64, rounded once,
    as PyTorch) and what the node saves."""
    x = a._data
    w = x.astype(np.float64) if x.dtype == np.float32 else x
    m = welford_mean if welford_mean is not None else (
        np.mean(w, axis=dims, keepdims=keepdim) if x.size else np.full(np.shape(r), np.nan))
    if welford_mean is None and x.size and x.dtype.kind == 'f' and np.isinf(x).any():
        # PyTorch's mean here is Welford's running one: past an infinite number, the next one makes it nan
        axes = tuple(range(x.ndim)) if dims is None else tuple(dims)
        rows = np.moveaxis(x, axes, tuple(range(-len(axes), 0))).reshape(np.shape(np.mean(x, axis=dims)) + (-1,))
        m = np.where(np.isinf(rows[..., :-1]).any(-1).reshape(np.shape(m)), np.nan, m)
    saved = {'correction': c, 'dim': _raw(None if dim is None else tuple(dim) if isinstance(dim, (tuple, list))
                                          else (dim,)), 'keepdim': keepdim}
    return m, saved


def _two_outputs(a, cls, first, second, saved):
    outs = (make(np.asarray(first).astype(a._data.dtype)), make(np.asarray(second).astype(a._data.dtype)))
    if ag.grad_enabled and a._requires_grad:
        node = ag.record(None, cls, (a,), saved)
        node.num_outputs = 2
        for i, t in enumerate(outs):
            t._grad_fn, t._requires_grad, t._output_nr = node, True, i
        if 'result0' in saved:
            saved['result0'] = SavedTensor(outs[0], is_output=True)
            ag.pack_outputs(saved)
        ag.fw_outputs(node, (a,), outs)
    return outs


def var_mean(a, dim=_NOT_GIVEN, unbiased=None, keepdim=False, *, correction=_NOT_GIVEN):
    """(var, mean) over dim, one VarMeanBackward0 node for both."""
    dim, c = _correction(dim, unbiased, correction)
    _var_np_dtype(a, 'var_mean')
    dims = _dims(dim, a._data.ndim) or None           # (dim=(): all dims)
    r, _, welford_mean = _var_np(a._data, dims, c, keepdim, 'var_mean')    # (which warns as PyTorch, at the caller)
    r = np.asarray(r, order='C')                      # (reductions give row-major results)
    m, saved = _moments(r, a, dim, c, dims, keepdim, welford_mean)
    saved['self'] = SavedTensor(a)
    return _two_outputs(a, VarMeanBackward0, r, m, saved)


def std_mean(a, dim=_NOT_GIVEN, unbiased=None, keepdim=False, *, correction=_NOT_GIVEN):
    """(std, mean) over dim, one StdMeanBackward0 node for both (it saves the std as result0)."""
    dim, c = _correction(dim, unbiased, correction)
    _var_np_dtype(a, 'std_mean')
    dims = _dims(dim, a._data.ndim) or None           # (dim=(): all dims)
    r, _, welford_mean = _var_np(a._data, dims, c, keepdim, 'std_mean')    # (which warns as PyTorch, at the caller)
    r = np.asarray(r, order='C')                      # (reductions give row-major results)
    m, saved = _moments(r, a, dim, c, dims, keepdim, welford_mean)
    saved.update({'result0': _RESULT, 'self': SavedTensor(a)})
    return _two_outputs(a, StdMeanBackward0, np.sqrt(r), m, saved)


def _moments_backward(node, g_spread, g_mean):
    s, x = node._saved, node.saved('self')
    dims = _reduced_dims(s['dim'], x.ndim)           # (a 0-d input's dim 0 reduced nothing)
    out = None
    if g_spread is not None:
        out = _var_backward(g_spread, x, dims, s['correction'], s['keepdim'], s['dim'])
    if g_mean is not None:
        n = x.numel() if not dims else _prod(x.shape[d] for d in dims)       # (dim=(): all of x)
        part = _div_scalar(_unsq(g_mean, dims, s['keepdim']).expand(x.shape), n)     # (mean_backward: DivBackward1)
        out = part if out is None else out + part
    return (out,)


class VarMeanBackward0(Node):
    def apply(self, g_var, g_mean):
        return _moments_backward(self, g_var, g_mean)


class StdMeanBackward0(Node):
    def apply(self, g_std, g_mean):
        if g_std is not None:
            r = self.saved('result0')
            g_std = (g_std / _mul_scalar(r, 2)).masked_fill(make(r._data == 0), 0)     # (std_backward, as StdBackward0)
        return _moments_backward(self, g_std, g_mean)


__all__ += ['var_mean', 'std_mean']
