"""The op table, part 4: more pointwise math (exp2, atan2, hypot, logaddexp, lerp, ...), as PyTorch 2.13 has it.

Same rules as `_ops.py`: numpy forward beside a backward written with tensor ops (so double backward works),
node names and saved attributes exactly as PyTorch 2.13 has them. `__all__` names the torch.* functions; the
Tensor methods are set here.
"""
import builtins
import math

import numpy as np

from . import _autograd as ag
from . import _dtypes as dt
from . import _methods
from ._autograd import Node, SavedTensor, RESULT as _RESULT, bump as _bump
from ._ops import (_cast, _number, _attach, _edge, _unary, _rounded, _out, _float_dtype, _check_broadcast, _scalar, _F16, _F32,
                   _mul_scalar, _add_scalar, _div_scalar, _sub_scalar, _scalar_sub, _vec_exp, _zeros_like, _not_implemented,
                   _C10_TYPE, pow as _pow, _iter_laid_out, _Number, _half, _in_vector_loop)
from ._ops_nn import where, erf as _erf, _input_dtype_kept
from ._tensor import Tensor, make, parser_type
from ._random import fma32 as _fma32
from ._factories import _fma64

__all__ = ['exp2', 'acosh', 'asinh', 'atanh', 'arccosh', 'arcsinh', 'arctanh', 'atan2', 'arctan2', 'hypot',
           'logaddexp', 'logaddexp2', 'xlogy', 'copysign', 'sgn', 'erfc', 'lgamma', 'digamma', 'polygamma',
           'lerp', 'addcmul', 'addcdiv', 'float_power', 'deg2rad', 'rad2deg', 'sinc', 'logit', 'nan_to_num',
           'heaviside', 'fmax', 'fmin',
           'isclose', 'isneginf', 'isposinf', 'isreal', 'positive', 'greater', 'greater_equal', 'less', 'less_equal',
           'not_equal', 'arcsin', 'arccos', 'arctan', 'fix', 'i0', 'nextafter', 'ldexp']


def _scaled(t, c):
    """t * c for a C++ double c, as PyTorch's formulas write it (mul.Scalar: MulBackward1 when recorded)."""
    return _mul_scalar(t, c)


def _type_name(x):
    return _C10_TYPE.get(x._data.dtype.name, x.dtype.legacy)


# ================================================================================================ unary

class Exp2Backward0(Node):
    def apply(self, g):                     # grad * result * M_LN2
        return (_scaled(g * self.saved('result'), math.log(2)),)


class AcoshBackward0(Node):
    def apply(self, g):                     # grad * (self * self - 1).rsqrt()
        x = self.saved('self')
        return (g * _sub_scalar(x * x, 1).rsqrt(),)


class AsinhBackward0(Node):
    def apply(self, g):                     # grad * (self.pow(2) + 1).rsqrt()
        x = self.saved('self')
        return (g * _add_scalar(x ** 2, 1).rsqrt(),)


class AtanhBackward0(Node):
    def apply(self, g):                     # grad * 1 / (1 - self.pow(2))
        x = self.saved('self')
        return (_mul_scalar(g, 1) / _scalar_sub(1, x ** 2),)


def _math_vec(fn):
    """A `math` function over an array, in float64 (float32 results then rounded once, as _rounded)."""
    vec = np.frompyfunc(fn, 1, 1)

    def f(x):
        r = np.asarray(vec(x.astype(np.float64)), dtype=np.float64)
        return r.astype(np.float32) if x.dtype is _F32 else r
    return f


def _erfc64(x):
    return math.erfc(x)


def _lgamma64(x):
    if math.isinf(x):
        return math.inf
    if x <= 0 and x == math.floor(x):
        return math.inf                      # a pole (math.lgamma raises)
    try:
        return math.lgamma(x)
    except OverflowError:                    # (lgamma(1e308) is beyond float64: PyTorch's is inf)
        return math.inf


class ErfcBackward0(Node):
    def apply(self, g):                     # -2.0 / sqrt(M_PI) * exp(-(self.pow(2))) * grad
        x = self.saved('self')
        return (_scaled((-(x ** 2)).exp(), -2.0 / math.sqrt(math.pi)) * g,)


class LgammaBackward0(Node):
    def apply(self, g):                     # grad * digamma(self)
        return (g * digamma(self.saved('self')),)


_PSI_A = (8.33333333333333333333E-2, -2.10927960927960927961E-2, 7.57575757575757575758E-3,
          -4.16666666666666666667E-3, 3.96825396825396825397E-3, -8.33333333333333333333E-3, 8.33333333333333333333E-2)


def _digamma_np(x):
    """PyTorch's calc_digamma in x's dtype: reflection below 0, recurrence up to 10, then the asymptotic series."""
    t = x.dtype.type
    x = np.array(x, copy=True)
    neg = x < 0
    r = x - np.trunc(x)
    reflect = np.where(neg, (math.pi / np.tan(math.pi * r.astype(np.float64))).astype(x.dtype), t(0))
    v = np.where(neg, t(1) - x, x)
    result = np.zeros_like(v)
    for _ in range(10):                      # (v < 10 at most 10 times after reflection: v >= 0 here)
        low = v < 10
        if not low.any():
            break
        result = np.where(low, result - t(1) / v, result)
        v = np.where(low, v + t(1), v)
    low = v < 10                             # (v in (0, 1) e.g. from tiny x: keep going)
    while low.any():
        result = np.where(low, result - t(1) / v, result)
        v = np.where(low, v + t(1), v)
        low = v < 10
    z = t(1) / (v * v)
    p = np.full_like(v, t(_PSI_A[0]))
    for c in _PSI_A[1:]:
        p = p * z + t(c)
    y = np.where(v < t(1e17), z * p, t(0))
    log = _rounded(np.log)(v)
    out = np.where(v == 10, result + t(2.25175258906672110764), result + log - (t(0.5) / v) - y)
    out = np.where(neg, out - reflect, out)
    out = np.where(x == 0, np.copysign(t(np.inf), -x), out)
    return np.where(neg & (x == np.trunc(x)) | np.isnan(x), t(np.nan), out)


def _trigamma_np(x):
    """PyTorch's calc_trigamma in x's dtype (polygamma(1, x))."""
    t = x.dtype.type
    small = x < t(0.5)
    pi = t(math.pi)
    s = _rounded(np.sin)(pi * x)
    result = np.where(small, -(pi * pi) / (s * s), t(0))
    v = np.where(small, t(1) - x, x)
    for _ in range(6):
        result = result + t(1) / (v * v)
        v = v + t(1)
    ixx = t(1) / (v * v)
    result = result + (t(1) + t(1) / (t(2) * v) + ixx * (t(1 / 6) - ixx * (t(1 / 30) - ixx * t(1 / 42)))) / v
    return np.where(small, -result, result)


def digamma(a):
    d = _float_dtype(a)
    x = a._data.astype(d.np, copy=False)
    with np.errstate(all='ignore'):
        out = _out(_half(_digamma_np, x) if x.dtype is _F16 else _digamma_np(x), d)   # (halves in float32)
    return _attach(out, DigammaBackward0, (a,), {'self': SavedTensor(a)}, a._data.dtype is d.np)


class DigammaBackward0(Node):
    def apply(self, g):                     # grad * polygamma(1, self)
        return (g * _polygamma1(self.saved('self')),)


def _polygamma1(a):
    """polygamma(1, a), trigamma, as a differentiable op (PolygammaBackward0, saving n and self, as PyTorch)."""
    return polygamma(1, a)


def polygamma(n, input):
    """The n-th derivative of digamma (PolygammaBackward0, saving n and self, whose gradient is polygamma(n + 1))."""
    if n < 0:
        raise RuntimeError('polygamma(n, x) does not support negative n.')
    d = _float_dtype(input)
    x = input._data.astype(d.np, copy=False)
    f = x.astype(_F32) if x.dtype is _F16 else x        # (halves computed in float32, rounded once)
    with np.errstate(all='ignore'):
        y = _digamma_np(f) if n == 0 else _trigamma_np(f) if n == 1 else _polygamma_np(n, f)
    return _attach(_out(y, d), PolygammaBackward0, (input,), {'n': n, 'self': SavedTensor(input)},
                   input._data.dtype is d.np)


class PolygammaBackward0(Node):
    def apply(self, g):                     # grad * polygamma(n + 1, self)
        return (g * polygamma(self._saved['n'] + 1, self.saved('self')),)


_BERNOULLI = (1 / 6, -1 / 30, 1 / 42, -1 / 30, 5 / 66, -691 / 2730, 7 / 6, -3617 / 510)    # B_2, B_4, ... B_16


def _polygamma_np(n, x):
    """polygamma(n, x), n >= 2: (-1)^(n+1) n! zeta(n + 1, x), the Hurwitz zeta summed term by term in float64 until
    x + k >= n + 10, then its Euler-Maclaurin tail; rounded to x's dtype (close to PyTorch's, not bit for bit)."""
    s = n + 1
    v = x.astype(np.float64)
    total = np.zeros_like(v)
    pole = (x <= 0) & (x == np.trunc(x))             # (-inf and the huge negatives among them)
    low = (v < n + 10) & ~pole
    while low.any():
        total = np.where(low, total + v ** -s, total)
        v = np.where(low, v + 1, v)
        low &= v < n + 10
    total = total + v ** (1 - s) / (s - 1) + v ** -s / 2
    rising, factorial = float(s), 2.0            # s (s + 1) ... (s + 2k - 2) and (2k)!
    for k, b in enumerate(_BERNOULLI, 1):
        total = total + b / factorial * rising * v ** (1 - s - 2 * k)
        rising *= (s + 2 * k - 1) * (s + 2 * k)
        factorial *= (2 * k + 1) * (2 * k + 2)
    out = (-1) ** (n + 1) * math.factorial(n) * total
    out = np.where(x == np.inf, np.nan, out)         # (the series' 0 * inf, as in PyTorch's zeta)
    return np.where(pole, (-1) ** (n + 1) * np.inf, out).astype(x.dtype)


def _sleef_exp2f(d):
    """Sleef's exp2f_u10 (PyTorch's vectorised float32 exp2): 2 ** round(d) times a degree-6 polynomial in the rest,
    in fused multiply-adds."""
    u = np.rint(d)
    q = u.astype(np.int32)
    s = d - u
    p = np.full_like(d, np.float32(0.1535920892e-3))
    for c in (0.1339262701e-2, 0.9618384764e-2, 0.5550347269e-1, 0.2402264476e+0, 0.6931471825e+0, 1.0):
        p = _fma32(p, s, np.float32(c))
    half = q >> 1
    with np.errstate(all='ignore'):
        p = p * ((half + 127) << 23).view(_F32) * ((q - half + 127) << 23).view(_F32)
    p = np.where(d >= 128, np.float32(np.inf), p)
    return np.where(d < -150, np.float32(0), p)


def _exp2(x):
    """exp2 as PyTorch's CPU kernel computes it: for float32, Sleef's by vectors of 16 numbers, glibc's (correctly
    rounded) for the last few; other dtypes correctly rounded."""
    r = _rounded(np.exp2)(x)
    if x.dtype is _F32 and x.size >= 16:
        flat = np.ascontiguousarray(x).reshape(-1)
        m = flat.size // 16 * 16
        r = np.array(r, copy=True).reshape(-1)
        r[:m] = _sleef_exp2f(flat[:m])
        r = r.reshape(x.shape)
    return r


exp2 = _unary(_exp2, Exp2Backward0, 'result')
acosh = _unary(_rounded(np.arccosh), AcoshBackward0, 'self')
asinh = _unary(_rounded(np.arcsinh), AsinhBackward0, 'self')
atanh = _unary(_rounded(np.arctanh), AtanhBackward0, 'self')
erfc = _unary(_math_vec(_erfc64), ErfcBackward0, 'self')
lgamma = _unary(_math_vec(_lgamma64), LgammaBackward0, 'self')
arccosh, arcsinh, arctanh = acosh, asinh, atanh


class Deg2RadBackward0(Node):
    def apply(self, g):
        return (_scaled(g, math.pi / 180),)


class Rad2DegBackward0(Node):
    def apply(self, g):
        return (_scaled(g, 180 / math.pi),)


def _scale_op(factor, cls, name):
    """deg2rad / rad2deg: x * factor in x's dtype (int inputs give float32); nothing saved."""
    def op(a):
        d = _float_dtype(a)
        x = a._data.astype(d.np, copy=False)
        f = np.float32 if d is dt.float16 else d.np.type     # (a half times the factor in float32, rounded once)
        return _attach(_out(x * f(factor), d), cls, (a,), None, a._data.dtype is d.np)
    op.__name__ = name
    return op


deg2rad = _scale_op(math.pi / 180, Deg2RadBackward0, 'deg2rad')
rad2deg = _scale_op(180 / math.pi, Rad2DegBackward0, 'rad2deg')


def _sinc_np(x):
    """sin(pi * x) / (pi * x) in x's dtype (pi of that dtype; a half's in float32, rounded once), 1 at 0, as
    PyTorch's kernel."""
    if x.dtype is _F16:
        return _sinc_np(x.astype(_F32)).astype(_F16)
    product = x * x.dtype.type(math.pi)
    r = _rounded(np.sin)(product) / product
    return np.where(x == 0, x.dtype.type(1), r)


class SincBackward0(Node):
    def apply(self, g):
        x = self.saved('self')                # PyTorch's sinc_backward
        xpi = _scaled(x, math.pi)
        xsqpi = _scaled(x * x, math.pi)
        sin = xpi.sin()                       # (made first, as the C++ compiler evaluates the operands: the
        out = g * ((xpi * xpi.cos() - sin) / xsqpi)    # order its gradients add up in under create_graph)
        return (where(xsqpi == 0.0, make(np.zeros((), g._data.dtype)), out),)


sinc = _unary(_sinc_np, SincBackward0, 'self')


def sgn(a):
    return a.sgn()


def positive(a):
    if a._data.dtype.kind == 'b':
        raise RuntimeError('The `+` operator, on a bool tensor is not supported.')
    return a


def logit(a, eps=None):
    d = _float_dtype(a)
    x = a._data.astype(d.np, copy=False)
    if eps is not None:         # (x < eps first: with eps above 1/2 the bounds cross, and 0.3 becomes eps)
        lo, hi = d.np.type(eps), d.np.type(1 - eps)
        x = np.where(x < lo, lo, np.where(x > hi, hi, x))
    one = d.np.type(1)
    out = _out(np.log(x / (one - x), dtype=np.float64) if d.np is _F32 else np.log(x / (one - x)), d)
    return _attach(out, LogitBackward0, (a,), {'eps': eps, 'self': SavedTensor(a)}, a._data.dtype is d.np)


class LogitBackward0(Node):
    def apply(self, g):                       # infinitely_differentiable_logit_backward under create_graph
        x, eps = self.saved('self'), self._saved['eps']
        lo, hi = (0, 1) if eps is None else (eps, 1 - eps)
        fill = make(np.array(np.nan if eps is None else 0, g._data.dtype))
        slope = g / (x * _scalar_sub(1, x))
        if not ag.grad_enabled:               # logit_backward's kernel: the division in its vector loop, grad * inf
            zero = x._data == 0               # at 0 and 1 in its scalar tail (at -0. the sign differs)
            if zero.any():
                tail = ~_in_vector_loop(slope._data, 2)
                slope = where(make(zero & tail), g * make(np.array(np.inf, g._data.dtype)), slope)
        if not ag.grad_enabled:               # (the kernel asks x < lo || x > hi: NaN is inside, its slope NaN)
            return (where((x < lo).logical_or(x > hi), fill, slope),)
        return (where((x >= lo).logical_and(x <= hi), slope, fill),)


def nan_to_num(a, nan=0.0, posinf=None, neginf=None):
    x = a._data
    if x.dtype.kind != 'f':
        return _attach(make(x.copy()), NanToNumBackward0, (a,), {'self': SavedTensor(a)}, True)
    info = np.finfo(x.dtype)
    out = np.where(np.isnan(x), x.dtype.type(nan), x)
    out = np.where(x == np.inf, x.dtype.type(info.max if posinf is None else posinf), out)
    out = np.where(x == -np.inf, x.dtype.type(info.min if neginf is None else neginf), out)
    return _attach(make(np.asarray(out, x.dtype)), NanToNumBackward0, (a,), {'self': SavedTensor(a)}, True)


class NanToNumBackward0(Node):
    def apply(self, g):                       # grad * at::isfinite(self)
        return (g * self.saved('self').isfinite(),)


# ================================================================================================ binary

def _need_tensor(name, other, position=2, arg='other'):
    if not isinstance(other, Tensor):
        raise TypeError("%s(): argument '%s' (position %d) must be Tensor, not %s"
                        % (name, arg, position, parser_type(other)))


def _float_pair(a, b, name=None, integers=True):
    """Both operands as arrays of their (floating) result dtype: integers and bools go to the default float,
    unless the kernel has no integer version (`name` then names it in PyTorch's error)."""
    if not isinstance(b, Tensor) and not isinstance(b, _Number):
        raise TypeError('a tensor or a number')       # (a list, an array: the argument parser's error replaces it)
    d = dt.result_type(a, b)
    if not d.is_floating_point:
        if not integers:
            raise NotImplementedError('"%s_cpu" not implemented for \'%s\''
                                      % (name, _C10_TYPE[np.dtype(d.np).name]))
        d = dt.default_float
    x = _cast(a._data, d.np)
    y = _cast(b._data, d.np) if isinstance(b, Tensor) else d.np.type(_scalar(b))
    if isinstance(b, Tensor) and x.shape != y.shape:
        _check_broadcast(x.shape, y.shape)
    return x, y, d


def _rounded2(np_fn):
    """A binary np_fn computed in float64 for float32 arrays, rounded once (see _ops._rounded)."""
    def fn(x, y):
        return np_fn(x, y, dtype=np.float64).astype(np.float32) if x.dtype is _F32 else np_fn(x, y)
    return fn


def _pointwise2(name, np_fn, cls, saved, integers=True, doc=None):
    """A binary float op of two tensors (PyTorch's `other` must be a tensor); `saved` names what the node keeps."""
    def op(a, other):
        _need_tensor(name, other)
        x, y, d = _float_pair(a, other, name, integers)
        r = np_fn(x, y)
        r = _iter_laid_out(r, x, y)                          # (mixed layouts: PyTorch's, not numpy's)
        out = _out(r, d)
        s = {'self': SavedTensor(a) if _edge(a) else None, 'other': SavedTensor(other) if _edge(other) else None,
             'result': _RESULT}
        if len(saved) == 2:                     # (both formulas use both operands)
            s['self'], s['other'] = SavedTensor(a), SavedTensor(other)
        return _attach(out, cls, (a, other), {k: s[k] for k in saved})
    op.__name__ = name
    op.__doc__ = doc
    return op


class Atan2Backward0(Node):
    def apply(self, g):                       # atan2_backward: 1 / (self^2 + other^2), 0 where that is 1 / 0
        x, y = self.saved('self'), self.saved('other')
        denom = x * x + y * y
        recip = denom.reciprocal().masked_fill(make(denom._data == 0), 0)
        return (g * y * recip if self.needs(0) else None, g * -x * recip if self.needs(1) else None)


class HypotBackward0(Node):
    def apply(self, g):                       # grad * self / result, grad * other / result
        r = self.saved('result')
        gb = g * self.saved('other') / r if self.needs(1) else None     # (other's first: see MulBackward0)
        return (g * self.saved('self') / r if self.needs(0) else None), gb


def _logaddexp_np(x, y):
    """max + log1p(exp(-|x - y|)), with equal infinities kept, as PyTorch's kernel."""
    m = np.maximum(x, y)
    r = m + _rounded(np.log1p)(_vec_exp(-np.abs(x - y)))
    return np.where(np.isinf(x) & (x == y), x, r)


def _logaddexp2_np(x, y):
    m = np.maximum(x, y)
    r = m + _rounded(np.log1p)(_exp2(-np.abs(x - y))) * x.dtype.type(1 / math.log(2))
    return np.where(np.isinf(x) & (x == y), x, r)


class LogaddexpBackward0(Node):
    def apply(self, g):                       # grad / (1 + exp(other - self)), grad / (1 + exp(self - other))
        x, y = self.saved('self'), self.saved('other')
        gb = g / _add_scalar((x - y).exp(), 1) if self.needs(1) else None       # (other's first: see MulBackward0)
        return (g / _add_scalar((y - x).exp(), 1) if self.needs(0) else None), gb


class Logaddexp2Backward0(Node):
    def apply(self, g):                       # grad / (1 + pow(2, other - self)), and the other way round
        x, y = self.saved('self'), self.saved('other')
        return (g / _add_scalar(_pow(2, y - x), 1) if self.needs(0) else None,
                g / _add_scalar(_pow(2, x - y), 1) if self.needs(1) else None)


class FmaxBackward0(Node):
    def apply(self, g):                       # grad masked where the other operand was picked
        x, y = self.saved('self'), self.saved('other')
        keep = (x >= y).logical_or(y.isnan())
        gb = g.masked_fill(keep, 0) if self.needs(1) else None       # (other's first: see MulBackward0)
        return (g.masked_fill(keep.logical_not(), 0) if self.needs(0) else None), gb


class FminBackward0(Node):
    def apply(self, g):
        x, y = self.saved('self'), self.saved('other')
        keep = (x <= y).logical_or(y.isnan())
        gb = g.masked_fill(keep, 0) if self.needs(1) else None       # (other's first: see MulBackward0)
        return (g.masked_fill(keep.logical_not(), 0) if self.needs(0) else None), gb


atan2 = _pointwise2('atan2', _rounded2(np.arctan2), Atan2Backward0, ('other', 'self'))
hypot = _pointwise2('hypot', _rounded2(np.hypot), HypotBackward0, ('other', 'result', 'self'), integers=False)
logaddexp = _pointwise2('logaddexp', _logaddexp_np, LogaddexpBackward0, ('other', 'self'), integers=False)
logaddexp2 = _pointwise2('logaddexp2', _logaddexp2_np, Logaddexp2Backward0, ('other', 'self'), integers=False)
arctan2 = atan2


def _fextremum(name, np_fn, cls):
    """fmax / fmin: like maximum / minimum but a nan loses to a number; integers stay integers."""
    def op(a, other):
        _need_tensor(name, other)
        d = dt.result_type(a, other)
        x, y = _cast(a._data, d.np), _cast(other._data, d.np)
        if x.shape != y.shape:
            _check_broadcast(x.shape, y.shape)
        r = np.where(x == y, x, np_fn(x, y))          # (ties keep self: fmax(-0., 0.) is -0.; numpy's vary by build)
        return _attach(_out(_iter_laid_out(r, x, y), d), cls, (a, other),
                       {'other': SavedTensor(other), 'self': SavedTensor(a)})
    op.__name__ = name
    return op


fmax = _fextremum('fmax', np.fmax, FmaxBackward0)
fmin = _fextremum('fmin', np.fmin, FminBackward0)


def _xlogy_np(x, y, log=np.log):
    with np.errstate(all='ignore'):
        r = np.where(x == 0, x.dtype.type(0), x * _rounded(log)(np.asarray(y, x.dtype)))
    return np.where(np.isnan(y), y, r)


_XLOGY_TYPES = (' * (Tensor input, Tensor other, *, Tensor out = None)\n'
                ' * (Number self, Tensor other, *, Tensor out = None)\n'
                ' * (Tensor input, Number other, *, Tensor out = None)\n')


def xlogy(a, other):
    """x * log(y), 0 where x is 0 (unless y is nan). XlogyBackward0 (tensors), 1 (number x), 2 (number y)."""
    if not isinstance(a, Tensor):
        if not isinstance(other, Tensor):
            raise TypeError('xlogy() received an invalid combination of arguments - got (%s, %s), but expected one '
                            'of:\n%s' % (parser_type(a), parser_type(other), _XLOGY_TYPES))
    return _xlog(a, other, np.log, (XlogyBackward0, XlogyBackward1, XlogyBackward2))


def _xlog(a, other, log, nodes):
    """x * log(y) (xlogy) or x * log1p(y) (special.xlog1py), 0 where x is 0: nodes for two tensors, a number x, a
    number y."""
    if not isinstance(a, Tensor):
        y, x, d = _float_pair(other, a)
        out = _out(_xlogy_np(np.asarray(x), y, log), d)
        return _attach(out, nodes[1], (other,), {'other': SavedTensor(other), 'self': _scalar(a)})
    x, y, d = _float_pair(a, other)
    out = _out(_iter_laid_out(_xlogy_np(x, y, log), x, y), d)
    if isinstance(other, Tensor):
        return _attach(out, nodes[0], (a, other), {'other': SavedTensor(other), 'self': SavedTensor(a)})
    return _attach(out, nodes[2], (a,), {'other': _scalar(other), 'self': SavedTensor(a)})


class XlogyBackward0(Node):
    def apply(self, g):          # xlogy(grad, other).masked_fill((self == 0.) & (other <= 0.), 0.), grad * self / other
        x, y = self.saved('self'), self.saved('other')
        gb = g * x / y if self.needs(1) else None                   # (other's first: see MulBackward0)
        return (xlogy(g, y).masked_fill((x == 0.).logical_and(y <= 0.), 0.) if self.needs(0) else None), gb


class XlogyBackward1(Node):
    def apply(self, g):                       # grad * self / other, self a number
        return (g * self._saved['self'] / self.saved('other'),)


class XlogyBackward2(Node):
    def apply(self, g):                       # xlogy(grad, other), masked where self == 0 unless other > 0
        y, x = self._saved['other'], self.saved('self')     # (unpacked even when unused: its version is checked)
        gx = xlogy(g, y)
        return (gx if y > 0 else gx.masked_fill(x == 0., 0.),)


def xlog1py(a, other):
    """torch.special.xlog1py: x * log1p(y), 0 where x is 0 (unless y is nan)."""
    return _xlog(a, other, np.log1p, (SpecialXlog1PyBackward0, SpecialXlog1PyBackward1, SpecialXlog1PyBackward2))


class SpecialXlog1PyBackward0(Node):
    # xlog1py(grad, other).masked_fill((self == 0.) & (other <= -1.), 0.), grad * self / (other + 1)
    def apply(self, g):
        x, y = self.saved('self'), self.saved('other')
        gy = g * x / _add_scalar(y, 1) if self.needs(1) else None    # (other first: see _ops.MulBackward0)
        return (xlog1py(g, y).masked_fill((x == 0.).logical_and(y <= -1.), 0.) if self.needs(0) else None), gy


class SpecialXlog1PyBackward1(Node):
    def apply(self, g):                       # grad * self / (other + 1), self a number
        y1 = _add_scalar(self.saved('other'), 1)    # (C++'s operands right to left: `other + 1` first)
        return (_mul_scalar(g, self._saved['self']) / y1,)


class SpecialXlog1PyBackward2(Node):
    def apply(self, g):                       # xlog1py(grad, other), masked where self == 0 unless other > -1
        y, x = self._saved['other'], self.saved('self')
        gx = xlog1py(g, y)
        return (gx if y > -1 else gx.masked_fill(x == 0., 0.),)


def copysign(a, other):
    x, y, d = _float_pair(a, other)
    out = _out(_iter_laid_out(np.copysign(x, y), x, y), d)
    cls = CopysignBackward0 if isinstance(other, Tensor) else CopysignBackward1
    return _attach(out, cls, (a, other) if isinstance(other, Tensor) else (a,),     # (by a number: self kept always)
                   {'result': _RESULT, 'self': SavedTensor(a) if _edge(a) or cls is CopysignBackward1 else None})


def _copysign_self_backward(node, g):
    """PyTorch's copysign_tensor_self_backward: grad * (result / self), 0 where self is 0."""
    x = node.saved('self')
    return g * (node.saved('result') / x).masked_fill_(x == 0, 0)


class CopysignBackward0(Node):
    def apply(self, g):
        if not self.needs(0):
            self._unpack_all()              # (PyTorch checks the saved result all the same)
        return (_copysign_self_backward(self, g) if self.needs(0) else None,
                _zeros_like(g) if self.needs(1) else None)


class CopysignBackward1(Node):
    def apply(self, g):
        return (_copysign_self_backward(self, g),)


def heaviside(a, values):
    """0 where a < 0, values where a == 0, 1 where a > 0; PyTorch has no derivative (a NotImplemented node)."""
    _need_tensor('heaviside', values, 2, 'values')
    if a.dtype is not values.dtype:
        raise RuntimeError('heaviside is not yet implemented for tensors with different dtypes.')
    x, v = a._data, values._data
    if x.shape != v.shape:
        _check_broadcast(x.shape, v.shape)
    out = _out(_iter_laid_out(np.where(x == 0, v, (x > 0).astype(x.dtype)), x, v), a.dtype)
    return _not_implemented(out, tuple(t for t in (a, values) if t.requires_grad) or (a,), 'aten::heaviside')


# ================================================================================================ lerp, addc*

def _fma(a, b, c):
    """a * b + c rounded once (PyTorch's vectorised kernels use fused multiply-adds), in c's float dtype."""
    if c.dtype == _F32:
        return _fma32(a, b, c)
    return _fma64(a, b, c).astype(c.dtype)


def _lerp_np(x, y, w):
    """PyTorch's lerp kernel: fma(weight, end - self, self) for |weight| < 0.5, else fma(weight - 1, end - self,
    end). Halves in float, rounded once."""
    if x.dtype is _F16:
        return _lerp_np(x.astype(_F32), y.astype(_F32), np.asarray(w, _F32)).astype(_F16)
    one = x.dtype.type(1)
    small = np.abs(w) < 0.5
    return _fma(np.where(small, w, w - one), y - x, np.where(small, x, y))


def lerp(a, end, weight):
    if not isinstance(end, Tensor) or not isinstance(weight, (Tensor,) + _Number):    # (a 0-d array is no Scalar)
        raise TypeError('lerp() received an invalid combination of arguments - got (%s), but expected one of:\n'
                        ' * (Tensor input, Tensor end, Tensor weight, *, Tensor out = None)\n'
                        ' * (Tensor input, Tensor end, Number weight, *, Tensor out = None)\n'
                        % ', '.join(parser_type(v) for v in (a, end, weight)))
    if a.dtype is not end.dtype:
        raise RuntimeError('expected dtype %s for `end` but got dtype %s'
                           % (dt.C_NAMES[a._data.dtype.name], dt.C_NAMES[end._data.dtype.name]))
    if isinstance(weight, Tensor) and not weight.ndim:
        common = dt.result_type(a, end, weight)         # (a 0-d weight takes part in the type promotion)
        if common is not a.dtype:
            if common.np.kind != 'f':
                raise NotImplementedError('"lerp_kernel_tensor" not implemented for \'%s\'' % common.legacy)
            a, end = a.to(common), end.to(common)
    x, y = a._data, end._data
    if isinstance(weight, Tensor) and weight.dtype is not a.dtype and weight.ndim:     # (then the shapes, then the
        raise RuntimeError('expected dtype %s for `weight` but got dtype %s'           # kernel's dtypes)
                           % (dt.C_NAMES[x.dtype.name], dt.C_NAMES[weight._data.dtype.name]))
    if x.shape != y.shape:
        _check_broadcast(x.shape, y.shape)
    if isinstance(weight, Tensor) and weight._data.shape != x.shape:
        _check_broadcast(np.broadcast_shapes(x.shape, y.shape), weight._data.shape)
    if x.dtype.kind != 'f':
        kernel = 'lerp_kernel_tensor' if isinstance(weight, Tensor) else 'lerp_kernel_scalar'
        raise NotImplementedError('"%s" not implemented for \'%s\'' % (kernel, _type_name(a)))
    if isinstance(weight, Tensor):
        w = weight._data.astype(x.dtype, copy=False)
        out = _out(_iter_laid_out(_lerp_np(x, y, w), x, y, w), a.dtype)
        # (PyTorch's codegen saves an input only if the one formula using it is needed: two formulas use weight,
        # so it is saved whatever requires grad)
        return _attach(out, LerpBackward1, (a, end, weight),
                       {'end': SavedTensor(end) if _edge(weight) else None,
                        'self': SavedTensor(a) if _edge(weight) else None, 'weight': SavedTensor(weight)})
    if a.dtype is not dt.float64:                           # (a half's weight: a float, that must fit one)
        dt.check_scalar(_scalar(weight), dt.float32)
    w = (_F32 if x.dtype is _F16 else x.dtype).type(_scalar(weight))
    out = _out(_iter_laid_out(_lerp_np(x, y, w), x, y), a.dtype)
    return _attach(out, LerpBackward0, (a, end), {'weight': _scalar(weight)})


class LerpBackward0(Node):
    def apply(self, g):                       # grad * (1 - weight), grad * weight (weight a C++ double)
        w = builtins.float(self._saved['weight'])
        ge = _scaled(g, w) if self.needs(1) else None               # (end's first: see MulBackward0)
        return (_scaled(g, 1 - w) if self.needs(0) else None), ge


class LerpBackward1(Node):
    def apply(self, g):                       # grad * (1 - weight), grad * weight, grad * (end - self)
        w = self.saved('weight') if self.needs(0) or self.needs(1) else None
        ge = g * w if self.needs(1) else None                       # (end, self, weight: see MulBackward0)
        return (g * _scalar_sub(1, w) if self.needs(0) else None), ge, (
            g * (self.saved('end') - self.saved('self')) if self.needs(2) else None)


def _addc_operands(a, t1, t2, value, name):
    for i, t in enumerate((t1, t2)):                # (the parser's errors, in the order of the arguments)
        _need_tensor(name, t, i + 2, 'tensor%d' % (i + 1))
    value = _number(value)
    if not isinstance(value, (int, float, complex)):
        raise TypeError("%s(): argument 'value' must be Number, not %s" % (name, parser_type(value)))
    if name == 'addcdiv' and not (t1.is_floating_point() or t2.is_floating_point()):
        raise RuntimeError(
            'Integer division with addcdiv is no longer supported, and in a future  release addcdiv will perform a '
            'true division of tensor1 and tensor2. The historic addcdiv behavior can be implemented as (input + value '
            '* torch.trunc(tensor1 / tensor2)).to(input.dtype) for integer inputs and as (input + value * tensor1 / '
            'tensor2) for float inputs. The future addcdiv behavior is just the latter implementation: (input + '
            'value * tensor1 / tensor2), for all dtypes.')
    d = dt.result_type(a, t1, t2)
    x, y, z = (_cast(t._data, d.np) for t in (a, t1, t2))
    if x.shape != y.shape:
        _check_broadcast(x.shape, y.shape)
    shape = np.broadcast_shapes(x.shape, y.shape)
    if shape != z.shape:
        _check_broadcast(shape, z.shape)
    return x, y, z, d, value


def addcmul(a, tensor1, tensor2, *, value=1):
    """a + value * tensor1 * tensor2."""
    x, y, z, d, value = _addc_operands(a, tensor1, tensor2, value, 'addcmul')
    if d is dt.bool_:
        raise NotImplementedError('"addcmul_cpu_out" not implemented for \'Bool\'')
    v = d.np.type(value if d.is_floating_point else builtins.int(value))
    if d is dt.float16:                         # (halves: in float, rounded once)
        v, x, y, z = _F32.type(value), x.astype(_F32), y.astype(_F32), z.astype(_F32)
    out = _out(_iter_laid_out(_fma(v * y, z, x) if d.is_floating_point else x + v * y * z, x, y, z), d)
    return _input_dtype_kept(_attach(out, AddcmulBackward0, (a, tensor1, tensor2),
                                     {'tensor1': SavedTensor(tensor1) if _edge(tensor2) else None,
                                      'tensor2': SavedTensor(tensor2) if _edge(tensor1) else None, 'value': value}),
                             a, tensor1, tensor2)


class AddcmulBackward0(Node):
    def apply(self, g):                       # grad, grad * (tensor2 * value), grad * (tensor1 * value)
        v = self._saved['value']
        return (g if self.needs(0) else None,
                g * _mul_scalar(self.saved('tensor2'), v) if self.needs(1) else None,    # (value: a C++ number)
                g * _mul_scalar(self.saved('tensor1'), v) if self.needs(2) else None)


def addcdiv(a, tensor1, tensor2, *, value=1):
    """a + value * tensor1 / tensor2."""
    x, y, z, d, value = _addc_operands(a, tensor1, tensor2, value, 'addcdiv')
    if d is dt.float16:                         # (halves: in float, rounded once)
        out = _out(_iter_laid_out(x.astype(_F32) + _F32.type(value) * y.astype(_F32) / z.astype(_F32), x, y, z), d)
    else:
        out = _out(_iter_laid_out(x + d.np.type(value) * y / z, x, y, z), d)
    return _input_dtype_kept(_attach(out, AddcdivBackward0, (a, tensor1, tensor2),
                                     {'tensor1': SavedTensor(tensor1) if _edge(tensor2) else None,
                                      'tensor2': SavedTensor(tensor2), 'value': value}),   # (tensor2 saved always)
                             a, tensor1, tensor2)


class AddcdivBackward0(Node):
    def apply(self, g):                       # grad, grad * (value / tensor2), -grad * (value * tensor1 / tensor2^2)
        v = self._saved['value']
        t2 = self.saved('tensor2')
        return (g if self.needs(0) else None,
                g * _scalar_div(v, t2) if self.needs(1) else None,
                -g * (_mul_scalar(self.saved('tensor1'), v) / (t2 * t2)) if self.needs(2) else None)


def _scalar_div(s, t):
    """s / t as PyTorch's C++ `Scalar / Tensor` computes it: a tensor full of s, divided by t (DivBackward0) in place,
    which an integer t refuses (the quotient is a float)."""
    if not t.dtype.is_floating_point:
        raise RuntimeError("result type %s can't be cast to the desired output type %s"
                           % (dt.default_float.legacy, t.dtype.legacy))
    return make(np.full_like(t._data, s)) / t


def float_power(a, exponent):
    """a ** exponent in float64 (PyTorch casts both to double, then pow)."""
    if isinstance(a, Tensor):
        base = a.to(dt.float64)
        if not isinstance(exponent, Tensor) and not isinstance(exponent, _Number):
            raise TypeError('a tensor or a number')   # (the argument parser's error replaces it)
        e = exponent.to(dt.float64) if isinstance(exponent, Tensor) else builtins.float(_scalar(exponent))
        return _pow(base, e)
    if not isinstance(a, _Number):
        raise TypeError('a tensor or a number')       # (the argument parser's error replaces it)
    return _pow(builtins.float(_scalar(a)), exponent.to(dt.float64))


def float_power_(a, exponent):
    if a.dtype is not dt.float64:
        raise RuntimeError("the base given to float_power_ has dtype %s but the operation's result requires dtype "
                           "Double" % a.dtype.legacy)
    return _methods._inplace_of(float_power)(a, exponent)


# ================================================================================================ predicates

def isclose(a, other, rtol=1e-05, atol=1e-08, equal_nan=False):
    """|a - other| <= atol + rtol * |other| elementwise (they broadcast); equal infinities are close."""
    _need_tensor('isclose', other)
    if a.dtype is not other.dtype:
        raise RuntimeError('%s did not match %s' % (a.dtype.legacy, other.dtype.legacy))
    for name, tol in (('rtol', rtol), ('atol', atol)):
        if tol < 0:
            raise RuntimeError('%s must be greater than or equal to zero, but got %g' % (name, tol))
    x, y = a._data, other._data
    _check_broadcast(x.shape, y.shape)
    # PyTorch's steps: a == other, then ors into it in place (so the result's version counts them) the nans
    # (equal_nan, floats) and, unless both tolerances are 0, |a - other| <= atol + |rtol * other| where that is finite,
    # computed in the default float dtype for integers and bools, in float32 rounded to half for halves
    close = x == y
    bumps = 0
    if equal_nan and x.dtype.kind == 'f':
        close = close | (np.isnan(x) & np.isnan(y))
        bumps += 1
    if rtol != 0 or atol != 0:
        d = x.dtype if x.dtype.kind == 'f' else dt.default_float.np
        xf, yf = x.astype(d), y.astype(d)
        w = np.float32 if d is _F16 else d.type
        with np.errstate(all='ignore'):
            allowed = (w(atol) + np.abs((w(rtol) * yf).astype(d))).astype(d)
            actual = np.abs(xf - yf)
            close = close | (np.isfinite(actual) & (actual <= allowed))
        bumps += 1
    out = make(_iter_laid_out(np.asarray(close), x, y))
    for _ in range(bumps):
        _bump(out)
    return out


def isneginf(a):
    x = a._data
    return make(np.asarray(x == -np.inf) if x.dtype.kind == 'f' else np.zeros(x.shape, bool))


def isposinf(a):
    x = a._data
    return make(np.asarray(x == np.inf) if x.dtype.kind == 'f' else np.zeros(x.shape, bool))


def isreal(a):
    return make(np.ones(a._data.shape, bool))


greater, greater_equal, less, less_equal, not_equal = (
    _methods._function_of(n, _methods._TENSOR_OR_NUMBER, alias) for n, alias in (
        ('gt', 'greater'), ('ge', 'greater_equal'), ('lt', 'less'), ('le', 'less_equal'), ('ne', 'not_equal')))


def arcsin(a):
    return a.asin()


def arccos(a):
    return a.acos()


def arctan(a):
    return a.atan()


def fix(a):
    return a.trunc()


# ================================================================================================ methods

# ================================================================================================ Bessel, erfcx, ndtri

def _bessel_i(nu, x, scaled):
    """I_nu(x) for nu 0 or 1 (times exp(-|x|) if scaled), in float64: the power series (all its terms positive, so
    nothing cancels) below |x| = 30, the asymptotic series above it; rounded once to x's dtype."""
    v = np.abs(x.astype(np.float64))
    small = v <= 30
    s = np.where(small, v, 0.0)
    h2 = (s / 2) ** 2
    term = np.ones_like(s) if nu == 0 else s / 2
    total = term.copy()
    for k in range(1, 200):
        term = term * h2 / (k * (k + nu))
        total = total + term
    if scaled:
        total = total * np.exp(-s)
    # sum_k (-1)^k a_k / x^k, a_k = (4 nu^2 - 1) (4 nu^2 - 9) ... (4 nu^2 - (2k - 1)^2) / (k! 8^k)
    big = np.where(small, 1.0, v)
    term = np.ones_like(big)
    tail = term.copy()
    for k in range(1, 40):
        term = term * -(4 * nu * nu - (2 * k - 1) ** 2) / (k * 8 * big)
        tail = tail + term
    with np.errstate(over='ignore', invalid='ignore'):
        tail = tail / np.sqrt(2 * np.pi * big)
        if not scaled:                                 # (PyTorch's kernels: exp(x) times the rest, so inf where exp
            tail = tail * np.exp(big)                  # overflows in x's dtype, float32's for halves too)
            big = np.where(v > np.log(np.finfo(np.float64 if x.dtype == np.float64 else np.float32).max), np.inf, big)
            tail = np.where(np.isinf(x), np.nan, np.where(big == np.inf, np.inf, tail))     # (inf: its nan)
        out = np.where(small, total, tail)
        if nu == 1:
            out = np.where(x < 0, -out, out)
        return np.where(np.isnan(x), np.nan, out).astype(x.dtype)


def _erfcx64(v):
    """exp(x^2) erfc(x) in float64: directly up to 25, then its asymptotic series (erfc would underflow)."""
    small = v < 25
    s = np.where(small, v, 0.0)
    with np.errstate(over='ignore', invalid='ignore'):
        direct = np.exp(s * s) * np.asarray(_erfc_vec(s), dtype=np.float64)
    b = np.where(small, 25.0, v)
    term = np.ones_like(b)
    tail = term.copy()
    for k in range(1, 30):                              # 1 - 1/(2x^2) + 3/(2x^2)^2 - 15/(2x^2)^3 ...
        term = term * -(2 * k - 1) / (2 * b * b)
        tail = tail + term
    with np.errstate(divide='ignore'):
        tail = tail / (b * math.sqrt(math.pi))
    return np.where(small, direct, np.where(v == np.inf, 0.0, tail))


_erfc_vec = np.frompyfunc(math.erfc, 1, 1)


def _erfcx(x):
    with np.errstate(over='ignore'):
        return np.where(np.isnan(x), np.nan, _erfcx64(x.astype(np.float64))).astype(x.dtype)


def _log_ndtr(x):
    """log(ndtr(x)) in float64: from erfcx below -1 (ndtr underflows there), log1p of the upper tail above."""
    v = x.astype(np.float64)
    low = np.minimum(v, -1.0)
    with np.errstate(divide='ignore', invalid='ignore'):
        lower = np.log(_erfcx64(-low / math.sqrt(2)) / 2) - low * low / 2
        upper = np.log1p(-np.asarray(_erfc_vec(np.maximum(v, -1.0) / math.sqrt(2)), dtype=np.float64) / 2)
    return np.where(v < -1, lower, upper).astype(x.dtype)


def _ndtri(x):
    """The inverse of ndtr in float64: Abramowitz and Stegun's 26.2.23 for the lower tail q = min(p, 1 - p), then
    Newton's steps on log(ndtr(z)) - log(q); negated for p above 1/2."""
    p = x.astype(np.float64)
    q = np.clip(np.minimum(p, 1 - p), 1e-300, 0.5)
    t = np.sqrt(-2 * np.log(q))
    z = -(t - (2.515517 + 0.802853 * t + 0.010328 * t * t) / (1 + 1.432788 * t + 0.189269 * t * t + 0.001308 * t ** 3))
    for _ in range(8):
        lz = _log_ndtr(z)
        # d/dz log(ndtr(z)) = pdf / ndtr = sqrt(2 / pi) / erfcx(-z / sqrt(2))
        z = z - (lz - np.log(q)) * _erfcx64(-z / math.sqrt(2)) / math.sqrt(2 / math.pi)
    z = np.where(p > 0.5, -z, np.where(p == 0.5, 0.0, z))
    z = np.where(p == 0, -np.inf, np.where(p == 1, np.inf, z))
    return np.where((p < 0) | (p > 1) | np.isnan(p), np.nan, z).astype(x.dtype)


def _special_unary(name, np_fn, cls, saved, half=True):
    """A pointwise float op (integers and bools made the default float) whose node saves `saved`; half=False: its
    kernel has no float16 version."""
    def op(input):
        d = _float_dtype(input)
        if d is dt.float16 and not half:
            raise NotImplementedError('"%s_cpu" not implemented for \'Half\'' % name.replace('special_', ''))
        x = input._data.astype(d.np, copy=False)
        with np.errstate(all='ignore'):
            out = _out(np_fn(x), d)
        return _attach(out, cls, (input,), {k: SavedTensor(input) if k == 'self' else _RESULT for k in saved},
                       input._data.dtype is d.np)
    op.__name__ = op.__qualname__ = name
    return op


def _tiny_safe(x, name):
    """i1_backward's and i1e_backward's guard: where |self| is at most the dtype's epsilon, the formula is replaced
    (it would divide by 0): the mask and self with eps there. (They have no float16 version.)"""
    if x._data.dtype == np.float16:
        raise NotImplementedError('"%s" not implemented for \'Half\'' % name)
    eps = make(np.array(np.finfo(x._data.dtype).eps, dtype=x._data.dtype))
    big = x.abs() > eps
    return big, where(big, x, eps)


class I0Backward0(Node):
    def apply(self, g):                     # grad * at::special_i1(self)
        return (g * special_i1(self.saved('self')),)


class SpecialI0EBackward0(Node):
    def apply(self, g):                     # grad * (at::special_i1e(self) - self.sgn() * result)
        x = self.saved('self')
        return (g * (special_i1e(x) - x.sgn() * self.saved('result')),)


class SpecialI1Backward0(Node):
    def apply(self, g):                     # i1_backward: (i0 - result / self), 0.5 where self is tiny
        big, safe = _tiny_safe(self.saved('self'), 'i1_backward')
        gradx = safe.i0() - self.saved('result') * safe.reciprocal()
        return (g * where(big, gradx, make(np.array(0.5, dtype=safe._data.dtype))),)


class SpecialI1EBackward0(Node):
    def apply(self, g):                     # i1e_backward: (i0e - result * (sgn + 1 / self)), 0.5 where self is tiny
        big, safe = _tiny_safe(self.saved('self'), 'i1e_backward')
        gradx = special_i0e(safe) - self.saved('result') * (safe.sgn() + safe.reciprocal())
        return (g * where(big, gradx, make(np.array(0.5, dtype=safe._data.dtype))),)


class SpecialErfcxBackward0(Node):
    def apply(self, g):                     # (2.0 * self * result - 2.0 / sqrt(M_PI)) * grad
        x = self.saved('self')
        return (_sub_scalar(_mul_scalar(x, 2.0) * self.saved('result'), 2.0 / math.sqrt(math.pi)) * g,)


class SpecialNdtriBackward0(Node):
    def apply(self, g):                     # grad * std::sqrt(2 * M_PI) * (result.square() / 2).exp()
        e = _div_scalar(self.saved('result').square(), 2).exp()          # (C++'s operands right to left)
        return (_mul_scalar(g, math.sqrt(2 * math.pi)) * e,)


class SpecialLogNdtrBackward0(Node):
    def apply(self, g):                     # grad / std::sqrt(2 * M_PI) * (result + self.pow(2) / 2).neg().exp()
        x = self.saved('self')
        e = (self.saved('result') + _div_scalar(x.pow(2), 2)).neg().exp()  # (C++'s operands right to left)
        return (_div_scalar(g, math.sqrt(2 * math.pi)) * e,)


i0 = _special_unary('i0', lambda x: _bessel_i(0, x, False), I0Backward0, ('self',))
special_i0e = _special_unary('special_i0e', lambda x: _bessel_i(0, x, True), SpecialI0EBackward0, ('result', 'self'))
special_i1 = _special_unary('special_i1', lambda x: _bessel_i(1, x, False), SpecialI1Backward0, ('result', 'self'))
special_i1e = _special_unary('special_i1e', lambda x: _bessel_i(1, x, True), SpecialI1EBackward0, ('result', 'self'))
special_erfcx = _special_unary('special_erfcx', _erfcx, SpecialErfcxBackward0, ('result', 'self'), half=False)
special_ndtri = _special_unary('special_ndtri', _ndtri, SpecialNdtriBackward0, ('result',), half=False)
special_log_ndtr = _special_unary('special_log_ndtr', _log_ndtr, SpecialLogNdtrBackward0, ('result', 'self'),
                                  half=False)


class NextafterBackward0(Node):
    def apply(self, g):                     # at::where(self != other, grad, 0), zeros_like(other)
        x, y = self.saved('self'), self.saved('other')
        return (where(x != y, g, make(np.array(0, dtype=g._data.dtype))) if self.needs(0) else None,
                _zeros_like(y) if self.needs(1) else None)


class LdexpBackward0(Node):
    def apply(self, g):                     # grad * at::pow(2.0, other), grad * result * M_LN2
        return (g * _pow(2.0, self.saved('other')) if self.needs(0) else None,
                _mul_scalar(g * self.saved('result'), math.log(2)) if self.needs(1) else None)


def _ldexp_np(x, y):
    """self * pow(2, other), as PyTorch writes it (so 2 ** other is inf beyond the dtype's range)."""
    with np.errstate(over='ignore'):
        return x * np.exp2(y)


nextafter = _pointwise2('nextafter', np.nextafter, NextafterBackward0, ('other', 'self'), integers=False)
_ldexp = _pointwise2('ldexp', _ldexp_np, LdexpBackward0, ('other', 'result'))


def ldexp(input, other):
    """input * 2 ** other (LdexpBackward0); the kernel for a float input has no bool exponents."""
    if isinstance(other, Tensor) and other._data.dtype == np.bool_ and input.is_floating_point():
        raise NotImplementedError('"ldexp_cpu_exp" not implemented for \'Bool\'')
    return _ldexp(input, other)


def _ldexp_(self, other):
    """ldexp_ is ldexp written into self (ldexp_out): a float result cannot go into an integer tensor."""
    if isinstance(other, Tensor) and not self.is_floating_point() and not (other._data.dtype == np.bool_):
        raise RuntimeError("ldexp can't be cast to the desired output type %s" % self.dtype.legacy)
    return _methods._inplace_of(ldexp)(self, other)


def _tensor_input(fn):
    """fn with PyTorch's TypeError for an input that is not a tensor (`torch.exp2(2.)`)."""
    def f(input, *args, **kwargs):
        if not isinstance(input, Tensor):
            raise TypeError("%s(): argument 'input' (position 1) must be Tensor, not %s"
                            % (fn.__name__, parser_type(input)))
        return fn(input, *args, **kwargs)
    f.__name__ = f.__qualname__ = fn.__name__
    f.__doc__ = fn.__doc__
    f.__wrapped__ = fn
    return f


for _name in ['exp2', 'acosh', 'asinh', 'atanh', 'erfc', 'lgamma', 'digamma', 'deg2rad', 'rad2deg', 'sinc', 'logit',
              'nan_to_num', 'sgn', 'positive', 'isneginf', 'isposinf', 'isreal', 'arcsin', 'arccos', 'arctan', 'fix',
              'nextafter', 'ldexp', 'i0', 'special_i0e', 'special_i1', 'special_i1e', 'special_erfcx', 'special_ndtri',
              'special_log_ndtr']:
    globals()[_name] = _tensor_input(globals()[_name])
arccosh, arcsinh, arctanh = acosh, asinh, atanh


def _method(fn, name, arg):
    """fn as a method: its tensor-only operand `arg` is argument 1 there (PyTorch's TypeError says so)."""
    def m(self, *args, **kwargs):
        if not args and arg in kwargs:          # (the operand by its name: x.heaviside(values=y))
            args = (kwargs.pop(arg),)
        if not args:
            raise TypeError("%s() missing 1 required positional argument: '%s'" % (name, arg))
        _need_tensor(name, args[0], 1, arg)
        return fn(self, *args, **kwargs)
    m.__name__ = name
    return m


_TENSOR_ONLY = {'atan2': 'other', 'arctan2': 'other', 'hypot': 'other', 'logaddexp': 'other',
                'logaddexp2': 'other', 'fmax': 'other', 'fmin': 'other', 'heaviside': 'values', 'isclose': 'other',
                'nextafter': 'other', 'ldexp': 'other'}
for _name in ['exp2', 'acosh', 'asinh', 'atanh', 'arccosh', 'arcsinh', 'arctanh', 'atan2', 'arctan2', 'hypot',
              'logaddexp', 'logaddexp2', 'xlogy', 'copysign', 'erfc', 'lgamma', 'digamma', 'lerp', 'addcmul',
              'addcdiv', 'float_power', 'deg2rad', 'rad2deg', 'sinc', 'logit', 'nan_to_num', 'heaviside', 'fmax',
              'fmin', 'isclose', 'isneginf', 'isposinf', 'isreal', 'positive', 'greater', 'greater_equal', 'less',
              'less_equal', 'not_equal', 'i0', 'nextafter', 'ldexp']:
    _fn = globals()[_name]
    setattr(Tensor, _name, _method(_fn, _name, _TENSOR_ONLY[_name]) if _name in _TENSOR_ONLY else _fn)
for _name in ['exp2', 'acosh', 'asinh', 'atanh', 'atan2', 'hypot', 'xlogy', 'copysign', 'erfc', 'lgamma', 'digamma',
              'lerp', 'addcmul', 'addcdiv', 'deg2rad', 'rad2deg', 'sinc', 'logit', 'nan_to_num', 'heaviside', 'i0',
              'nextafter', 'ldexp']:
    _fn = _ldexp_ if _name == 'ldexp' else _methods._inplace_of(globals()[_name])
    if _name == 'hypot':                  # (no integer kernel: the cast check comes first, `bool_t.hypot_(int_t)`)
        _fn = _methods._cast_checked(_fn)
    setattr(Tensor, _name + '_', _method(_fn, _name + '_', _TENSOR_ONLY[_name]) if _name in _TENSOR_ONLY else _fn)


class AcoshBackward1(Node):
    """acosh_, asinh_, atanh_: PyTorch computes them in place but has no derivative there (the input the formula
    needs is overwritten): their node (AcoshBackward1, ...) saves nothing and raises when backward reaches it."""
    what = 'acosh'

    def apply(self, g):
        raise NotImplementedError("the derivative for 'inplace version of %s' is not implemented." % self.what)


class AsinhBackward1(AcoshBackward1):
    what = 'asinh'


class AtanhBackward1(AcoshBackward1):
    what = 'atanh'


def _without_derivative_in_place(fn, cls):
    def op(a):
        from . import _autograd as ag
        with ag.no_grad():
            out = fn(a)
        return _attach(out, cls, (a,))
    op.__name__ = fn.__name__
    return _methods._inplace_of(op)


Tensor.acosh_, Tensor.asinh_, Tensor.atanh_ = (_without_derivative_in_place(fn, cls) for fn, cls in (
    (acosh, AcoshBackward1), (asinh, AsinhBackward1), (atanh, AtanhBackward1)))
Tensor.arccosh_, Tensor.arcsinh_, Tensor.arctanh_, Tensor.arctan2_ = (Tensor.acosh_, Tensor.asinh_, Tensor.atanh_,
                                                                      Tensor.atan2_)
Tensor.multiply_, Tensor.subtract_ = Tensor.mul_, Tensor.sub_
Tensor.divide_ = Tensor.true_divide_ = Tensor.div_
Tensor.negative_, Tensor.absolute_ = Tensor.neg_, Tensor.abs_
Tensor.arcsin_, Tensor.arccos_, Tensor.arctan_ = Tensor.asin_, Tensor.acos_, Tensor.atan_
Tensor.fix_ = Tensor.trunc_
Tensor.float_power_ = float_power_
Tensor.sgn_ = _methods._inplace_of(Tensor.sgn)
Tensor.erf_ = _methods._inplace_of(_erf)


def _polygamma_method(self, n):
    """x.polygamma(n): polygamma(n, x)."""
    return polygamma(n, self)


class PolygammaBackward1(PolygammaBackward0):
    """polygamma_'s node: the same formula, on the value before."""


def _polygamma_in_place(self, n):
    out = polygamma(n, self)
    if out._grad_fn is not None:
        from . import _autograd as ag
        ag.retype(out._grad_fn, PolygammaBackward1)
    return out


_polygamma_method.__name__ = _polygamma_in_place.__name__ = 'polygamma'
Tensor.polygamma = _polygamma_method
Tensor.polygamma_ = _methods._inplace_of(_polygamma_in_place)


def _value_first(fn, function, name=None):
    """addcmul / addcdiv also taking the value first, deprecated (old optimizers: `addcmul_(1 - beta2, g, g)`):
    see _methods.number_first. function: torch.addcmul (its warning names `input`), else the method `name`, whose
    errors count the tensors from 1."""
    name = name or fn.__name__

    def f(input, *args, **kwargs):
        if len(args) == 3:
            given = _methods.number_first(name, args, kwargs, function)
            if given is not None:
                args, kwargs = given
        if not function:
            for i, t in enumerate(args[:2]):
                _need_tensor(name, t, i + 1, 'tensor%d' % (i + 1))
        return fn(input, *args, **kwargs)
    f.__name__, f.__doc__ = name, fn.__doc__
    return f


Tensor.maximum = _method(Tensor.maximum, 'maximum', 'other')
Tensor.minimum = _method(Tensor.minimum, 'minimum', 'other')
Tensor.addcmul, Tensor.addcdiv = _value_first(addcmul, False), _value_first(addcdiv, False)
Tensor.addcmul_ = _value_first(Tensor.addcmul_, False, 'addcmul_')
Tensor.addcdiv_ = _value_first(Tensor.addcdiv_, False, 'addcdiv_')
addcmul, addcdiv = _value_first(addcmul, True), _value_first(addcdiv, True)

# torch.exp2_(x) and the like: the in-place methods PyTorch also has as functions
_INPLACE_FUNCTIONS = ['exp2_', 'acosh_', 'asinh_', 'atanh_', 'arccosh_', 'arcsinh_', 'arctanh_', 'xlogy_', 'erfc_',
                      'deg2rad_', 'rad2deg_', 'sinc_', 'logit_', 'nan_to_num_', 'arcsin_', 'arccos_', 'arctan_', 'fix_',
                      'erf_']
for _name in _INPLACE_FUNCTIONS:
    globals()[_name] = getattr(Tensor, _name)
__all__ += _INPLACE_FUNCTIONS
