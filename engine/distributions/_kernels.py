"""ATen's CPU kernels behind Gamma, Beta and Dirichlet: torch._standard_gamma (Marsaglia and Tsang's sampler),
torch._sample_dirichlet (normalised Gamma draws), and the reparameterized gradients torch._standard_gamma_grad and
torch._dirichlet_grad (series, saddle-point and rational approximations), which _ops_torchfns exposes at torch level
with PyTorch's argument checks. They draw from the engine's generator exactly as ATen's kernels draw from PyTorch's (element by element in memory
order: 53-bit uniform numbers, normal numbers in pairs, the second kept), and compute in ATen's precisions, so
samples and gradients are PyTorch's bit for bit (float32 gradients of Beta and Dirichlet but for ~0.1%, an ulp off,
where glibc's logf and powf are not correctly rounded)."""
import math

import numpy as np

from .. import _random
from .._autograd import Node, RESULT
from .._ops import _attach, _save
from .._ops_torchfns import _SQRT as _sqrt, _f32, _log, _pow, _same     # (the scalar libm helpers: C's inf / nan)
from .._tensor import make


def _check_dtype(t, name):
    if t.dtype.np not in (np.float32, np.float64):
        raise NotImplementedError('"%s" not implemented for \'%s\'' % (name, t.dtype.legacy))


# ---------------------------------------------------------------------------------------------------- sampling
def _std_normal(gen):
    """One N(0, 1) number as at::normal_distribution<double> draws it: Box-Muller over two 53-bit uniforms, the
    second number of the pair kept in the generator for the next draw."""
    if gen._next_normal is not None:
        z, gen._next_normal = gen._next_normal, None
        return z
    u1, u2 = _random._uniform53(gen), _random._uniform53(gen)
    r = math.sqrt(-2.0 * math.log1p(-u2))
    theta = 2.0 * math.pi * u1
    gen._next_normal = r * math.sin(theta)
    return r * math.cos(theta)


_THIRD, _C331 = _f32(1 / 3), _f32(0.0331)       # (the kernel's float constants)


def _sample_gamma(gen, alpha, single):
    """A Gamma(alpha, 1) draw: Marsaglia and Tsang's rejection sampler in double, alpha boosted by one (and the
    draw scaled by u ** (1 / alpha)) below 1. `single`: alpha is a float32, and so are alpha + 1 and alpha - 1/3."""
    r = _f32 if single else _same
    scale = 1.0
    if alpha < 1.0:
        if alpha == 0:
            return 0.0
        scale *= _pow(1 - _random._uniform53(gen), r(1.0 / alpha))
        alpha = r(alpha + 1.0)
    d = r(alpha - _THIRD)
    c = 1.0 / _sqrt(9.0 * d)
    while True:
        while True:
            x = _std_normal(gen)
            y = 1.0 + c * x
            if not y <= 0:
                break
        v = y * y * y
        u = 1 - _random._uniform53(gen)
        xx = x * x
        if u < 1.0 - _C331 * xx * xx:
            return scale * d * v
        if math.log(u) < 0.5 * xx + d * (1.0 - v + _log(v)):
            return scale * d * v


def _cmax(a, b):
    """std::max(a, b): b only when a < b (so a NaN b gives a)."""
    return np.where(a < b, b, a)


def standard_gamma(alpha, generator=None):
    """torch._standard_gamma: Gamma(alpha, 1) draws (at least the dtype's smallest normal number)."""
    _check_dtype(alpha, 'gamma_cpu')
    gen = generator or _random.default_generator
    npd = alpha.dtype.np.type
    a = alpha._data
    draws = np.array([_sample_gamma(gen, v, npd == np.float32) for v in a.ravel().tolist()], np.float64)
    out = _cmax(npd(np.finfo(npd).tiny), draws.astype(npd)).reshape(a.shape)
    return _attach(make(out), StandardGammaBackward0, (alpha,), {'self': _save(alpha), 'result': RESULT})


def sample_dirichlet(alpha, generator=None):
    """torch._sample_dirichlet: Gamma draws in double (at least double's smallest normal number), each divided by
    the sum of its row, then clamped into [the dtype's smallest normal number, the float just below 1]."""
    _check_dtype(alpha, 'dirichlet')
    gen = generator or _random.default_generator
    npd = alpha.dtype.np.type
    a = alpha._data
    g = np.array([_sample_gamma(gen, v, False) for v in a.ravel().tolist()], np.float64).reshape(a.shape)
    g = _cmax(np.finfo(np.float64).tiny, g)
    total = make(g).sum(-1, True)._data               # (the engine's sum: PyTorch's order of additions)
    with np.errstate(all='ignore'):
        r = _cmax(npd(np.finfo(npd).tiny), (g / total).astype(npd))
    top = np.nextafter(npd(1), npd(0))
    return make(np.where(r < top, r, top).astype(npd))


class StandardGammaBackward0(Node):
    def apply(self, g):
        return (g * standard_gamma_grad(self.saved('self'), self.saved('result')),)


class StandardGammaGradBackward0(Node):
    def apply(self, g):
        raise NotImplementedError("the derivative for '_standard_gamma_grad' is not implemented.")


# ---------------------------------------------------------------------------------------------------- gradients
_PSI_10 = 2.25175258906672110764
_DIGAMMA_A = (8.33333333333333333333E-2, -2.10927960927960927961E-2, 7.57575757575757575758E-3,
              -4.16666666666666666667E-3, 3.96825396825396825397E-3, -8.33333333333333333333E-3,
              8.33333333333333333333E-2)


def _digamma(x, single=False):
    """The kernels' own digamma (Cephes'): x pushed up to 10 or more, then the asymptotic series. `single`: x is a
    float32, stepped and divided in float32, its log logf, the result rounded to float32."""
    r = _f32 if single else _same
    if x == 0:
        return math.inf
    extra = 0.0
    if x < 0:
        if x == math.floor(x):
            return math.inf
        pi = r(math.pi)
        extra = -pi / r(math.tan(r(pi * x)))
        x = r(1 - x)
    result = 0.0
    while x < 10:
        result -= r(1 / x)
        x = r(x + 1)
    if x == 10:
        return r(result + _PSI_10 + extra)
    y = 0.0
    if x < 1e17:
        z = 1.0 / r(x * x)
        p = 0.0
        for a in _DIGAMMA_A:
            p = p * z + a
        y = z * p
    return r(result + r(math.log(x)) - r(0.5 / x) - y + extra)


_GAMMA_UV = ((0.16009398, -0.094634809, 0.025146376, -0.0030648343, 1, 0.32668115, 0.10406089, 0.0014179084),
             (0.53487893, 0.1298071, 0.065735949, -0.0015649758, 0.16639465, 0.020070113, -0.0035938915,
              -0.00058392623),
             (0.040121004, -0.0065914022, -0.0026286047, -0.0013441777, 0.017050642, -0.0021309326, 0.00085092367,
              -1.5247877e-07))


def _gamma_grad_one(alpha, x):
    """-(d/dalpha cdf(x; alpha)) / pdf(x; alpha) for x ~ Gamma(alpha), in double: a Taylor series for x < 0.8, Rice's
    saddle-point expansion for alpha > 8, else a bivariate rational approximation."""
    if x < _f32(0.8):
        numer, denom = 1.0, alpha
        series1, series2 = numer / denom, numer / (denom * denom)
        for i in range(1, 6):
            numer *= -x / i
            denom += 1
            series1 += numer / denom
            series2 += numer / (denom * denom)
        with np.errstate(all='ignore'):
            pow_x_alpha = _pow(x, alpha)
            pdf = np.float64(_pow(x, alpha - 1)) * math.exp(-x)
            cdf_alpha = np.float64(_log(x) - _digamma(alpha)) * (pow_x_alpha * series1) - pow_x_alpha * series2
            result = -cdf_alpha / pdf
        return 0.0 if math.isnan(result) else float(result)
    if alpha > 8.0:
        if _f32(0.9) * alpha <= x <= _f32(1.1) * alpha:
            numer_1 = 1 + 24 * alpha * (1 + 12 * alpha)
            numer_2 = 1440 * (alpha * alpha) + 6 * x * (53 - 120 * x) - 65 * x * x / alpha + alpha * (107 + 3600 * x)
            return numer_1 * numer_2 / (1244160 * (alpha * alpha) * (alpha * alpha))
        denom = math.sqrt(8 * alpha)
        term2 = denom / (alpha - x)
        term3 = _pow(x - alpha - alpha * math.log(x / alpha), -1.5)
        term23 = term2 - term3 if x < alpha else term2 + term3
        term1 = math.log(x / alpha) * term23 - math.sqrt(2 / alpha) * (alpha + x) / ((alpha - x) * (alpha - x))
        stirling = 1 + 1 / (12 * alpha) * (1 + 1 / (24 * alpha))
        return -stirling * (x * term1) / denom
    u, v = _log(x / alpha), _log(alpha)
    c = [_GAMMA_UV[0][i] + u * (_GAMMA_UV[1][i] + u * _GAMMA_UV[2][i]) for i in range(8)]
    p = c[0] + v * (c[1] + v * (c[2] + v * c[3]))
    q = c[4] + v * (c[5] + v * (c[6] + v * c[7]))
    return math.exp(p / q)


def _pointwise(fn, dtype, *arrays):
    """fn over the broadcast elements (as Python floats), in dtype."""
    def one(*vs):
        try:
            return fn(*vs)
        except (ZeroDivisionError, OverflowError, ValueError):        # (where C's arithmetic gives inf or NaN)
            return math.nan
    arrays = np.broadcast_arrays(*arrays)
    out = [one(*vs) for vs in zip(*(a.ravel().tolist() for a in arrays))]
    return np.array(out, np.float64).astype(dtype).reshape(arrays[0].shape)


def standard_gamma_grad(alpha, x):
    """torch._standard_gamma_grad(alpha, x): the reparameterized derivative of Gamma(alpha, 1) draws x."""
    out = make(_pointwise(_gamma_grad_one, alpha.dtype.np, alpha._data, x._data))
    return _attach(out, StandardGammaGradBackward0, (alpha,))


def _beta_grad_alpha_small(x, alpha, beta, r):
    """d/dalpha of Beta(alpha, beta) draws x near 0: a Taylor series (in the operands' precision)."""
    factor = r(r(_digamma(alpha, r is _f32) - _digamma(r(alpha + beta), r is _f32)) - r(_log(x)))
    numer = 1.0
    series = r(r(numer / alpha) * r(factor + r(1 / alpha)))
    for i in range(1, 11):
        numer = r(numer * r(r(r(i - beta) * x) / i))
        denom = r(alpha + i)
        series = r(series + r(r(numer / denom) * r(factor + r(1 / denom))))
    with np.errstate(all='ignore'):
        result = r(r(x * r(_pow(r(1 - x), -beta))) * np.float64(series))
    return 0.0 if math.isnan(result) else float(result)


def _beta_grad_beta_small(x, alpha, beta, r):
    """d/dbeta of Beta(alpha, beta) draws x near 0: a Taylor series (in the operands' precision)."""
    factor = r(_digamma(r(alpha + beta), r is _f32) - _digamma(beta, r is _f32))
    numer, betas, dbetas, series = 1.0, 1.0, 0.0, r(factor / alpha)
    for i in range(1, 9):
        numer = r(numer * r(-x / i))
        dbetas = r(r(dbetas * r(beta - i)) + betas)
        betas = r(betas * r(beta - i))
        series = r(series + r(r(numer / r(alpha + i)) * r(dbetas + r(factor * betas))))
    with np.errstate(all='ignore'):
        result = r(-r(r(_pow(r(1 - x), r(1 - beta))) * np.float64(series)))
    return 0.0 if math.isnan(result) else float(result)


def _beta_grad_alpha_mid(x, alpha, beta):
    """d/dalpha of Beta(alpha, beta) draws x when alpha and beta are both large: Rice's saddle-point expansion."""
    total = alpha + beta
    mean = alpha / total
    std = math.sqrt(alpha * beta / (total + 1)) / total
    if mean - 0.1 * std <= x <= mean + 0.1 * std:         # (the singularity at the mean avoided)
        bb = beta * beta
        poly = 47 * x * bb * bb + alpha * (
            (43 + 20 * (16 + 27 * beta) * x) * bb * beta + alpha * (
                3 * (59 + 180 * beta - 90 * x) * bb + alpha * (
                    (453 + 1620 * beta * (1 - x) - 455 * x) * beta + alpha * (8 * (1 - x) * (135 * beta - 11)))))
        prefactor_num = (1 + 12 * alpha) * (1 + 12 * beta) / (total * total)
        prefactor_den = 12960 * alpha * alpha * alpha * beta * beta * (1 + 12 * total)
        return prefactor_num / (1 - x) * poly / prefactor_den
    prefactor = -x / math.sqrt(2 * alpha * beta / total)
    stirling = ((1 + 1 / (12 * alpha) + 1 / (288 * alpha * alpha)) * (1 + 1 / (12 * beta) + 1 / (288 * beta * beta))
                / (1 + 1 / (12 * total) + 1 / (288 * total * total)))
    term1_num = 2 * (alpha * alpha) * (x - 1) + alpha * beta * (x - 1) - x * (beta * beta)
    axbx = alpha * (x - 1) + beta * x
    term1 = term1_num / (math.sqrt(2 * alpha / beta) * _pow(total, 1.5) * axbx * axbx)
    term2 = 0.5 * _log(alpha / (total * x))
    term3 = math.sqrt(8 * alpha * beta / total) / (beta * x + alpha * (x - 1))
    term4 = _pow(beta * _log(beta / (total * (1 - x))) + alpha * _log(alpha / (total * x)), -1.5)
    return stirling * prefactor * (term1 + term2 * (term3 + (term4 if x < mean else -term4)))


_DIRICHLET_C = (
    (((1.003668233, -0.01061107488, -0.0657888334, 0.01201642863),
      (0.6336835991, -0.3557432599, 0.05486251648, -0.001465281033),
      (-0.03276231906, 0.004474107445, 0.002429354597, -0.0001557569013)),
     ((0.221950385, -0.3187676331, 0.01799915743, 0.01074823814),
      (-0.2951249643, 0.06219954479, 0.01535556598, 0.001550077057),
      (0.02155310298, 0.004170831599, 0.001292462449, 6.976601077e-05)),
     ((-0.05980841433, 0.008441916499, 0.01085618172, 0.002319392565),
      (0.02911413504, 0.01400243777, -0.002721828457, 0.000751041181),
      (0.005900514878, -0.001936558688, -9.495446725e-06, 5.385558597e-05))),
    (((1, -0.02924021934, -0.04438342661, 0.007285809825),
      (0.6357567472, -0.3473456711, 0.05454656494, -0.002407477521),
      (-0.03301322327, 0.004845219414, 0.00231480583, -0.0002307248149)),
     ((0.5925320577, -0.1757678135, 0.01505928619, 0.000564515273),
      (0.1014815858, -0.06589186703, 0.01272886114, -0.0007316646956),
      (-0.007258481865, 0.001096195486, 0.0003934994223, -4.12701925e-05)),
     ((0.06469649321, -0.0236701437, 0.002902096474, -5.896963079e-05),
      (0.001925008108, -0.002869809258, 0.0008000589141, -6.063713228e-05),
      (-0.0003477407336, 6.959756487e-05, 1.097287507e-05, -1.650964693e-06))))


def _dirichlet_grad_one(x, alpha, total, single):
    """-(d/dalpha cdf(x; alpha, total - alpha)) / pdf(x; ...) / (1 - x) for a Beta draw x: series near 0 and 1,
    the saddle point when both concentrations pass 6, else a rational correction of an analytic approximation.
    `single`: float32 operands, which the series and branch tests compute in."""
    r = _f32 if single else _same
    beta = r(total - alpha)
    boundary = r(r(total * x) * r(1 - x))
    if x <= 0.5 and boundary < 2.5:
        return _beta_grad_alpha_small(x, alpha, beta, r)
    if x >= 0.5 and boundary < 0.75:
        return -_beta_grad_beta_small(r(1 - x), beta, alpha, r)
    if alpha > 6 and beta > 6:
        return _beta_grad_alpha_mid(x, alpha, total - alpha)
    u = _log(x)
    a = _log(alpha) - u
    b = _log(total) - a
    pow_u, pow_a = (1, u, u * u), (1, a, a * a)
    p = q = 0.0
    for i in range(3):
        for j in range(3):
            ua = pow_u[i] * pow_a[j]
            cp, cq = _DIRICHLET_C[0][i][j], _DIRICHLET_C[1][i][j]
            p += ua * (cp[0] + b * (cp[1] + b * (cp[2] + b * cp[3])))
            q += ua * (cq[0] + b * (cq[1] + b * (cq[2] + b * cq[3])))
    approx = x * r(_digamma(total, single) - _digamma(alpha, single)) / (total - alpha)
    return p / q * approx


def dirichlet_grad(x, alpha, total):
    """torch._dirichlet_grad(x, alpha, total): the reparameterized derivative of Dirichlet draws x."""
    single = x.dtype.np == np.float32
    return make(_pointwise(lambda a, b, c: _dirichlet_grad_one(a, b, c, single), x.dtype.np,
                           x._data, alpha._data, total._data))
