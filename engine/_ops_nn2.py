"""The op table, part 10: more activations (mish, hardswish, hardsigmoid, celu, selu, threshold, softshrink,
hardshrink, glu) and group norm, with their nodes.

Same rules as `_ops.py` and `_ops_nn.py`: a numpy forward beside a backward written with tensor ops (so double
backward works), node names and saved attributes exactly as PyTorch 2.13 has them. Each gradient PyTorch computes
with an op of its own (hardswish_backward, ...) is such an op here too, recording its own node for double backward.
Float32 values follow PyTorch's CPU kernels (their exp: _vec_exp; other transcendental functions correctly rounded).
"""
import math

import numpy as np

from . import _autograd as ag
from . import _dtypes as dt
from . import _memory_format as _mf
from ._autograd import Node, SavedTensor
from ._ops import (_number, _attach, _not_implemented, _recording, _RESULT, _rounded, _scalar_sub, _sigmoid, _vec_exp,
                   _sizes, _zeros_like, threshold_backward, cat, narrow, _nan_in_vectors, _suggested, contiguous)
from ._ops_nn import (_check_float, _check_mixed, _div_scalar, _elu_np, _raw, _rowwise_moments, _fused,  # noqa: F401
                      _vec_sum, _saved_dims, where, _second_order, _SecondOrder,
                      EluBackward0, EluBackward1, EluBackwardBackward0, elu_backward)
from ._ops import _add_reduce, _edge
from ._random import fma32 as _fma32
from ._tensor import Tensor, make, parser_type, _wrap_dim

_F32 = np.dtype(np.float32)
_log1p, _tanh = _rounded(np.log1p), _rounded(np.tanh)


def _tanh_softplus(x):
    """tanh(log1p(exp(x))), as PyTorch's mish kernels compute it (float32: its exp)."""
    return _tanh(_log1p(_vec_exp(x)))


# ================================================================================================ mish

def mish(a):
    """x * tanh(softplus(x)) (MishBackward0, saving the input)."""
    _check_float(a, 'mish_cpu')
    x = a._data
    return _attach(make(x * _tanh_softplus(x)), MishBackward0, (a,), {'self': SavedTensor(a)})


class MishBackward0(Node):
    def apply(self, g):
        x = self.saved('self')
        if _recording(g, x):               # PyTorch's infinitely_differentiable_mish_backward, op for op
            s = x.sigmoid()
            t = x.exp().log1p().tanh()
            return (g * (t + x * s * _scalar_sub(1.0, t * t)),)
        xd, one = x._data, x._data.dtype.type(1)
        t = _tanh_softplus(xd)             # (the kernel: dy * (t + x * sigmoid * (1 - t * t)))
        return (make(g._data * (t + xd * _sigmoid(xd) * (one - t * t))),)


# =============================================================================================== hardswish, hardsigmoid

def _relu6_of_x_plus_3(x):
    t = x.dtype.type
    return np.minimum(np.maximum(x + t(3), t(0)), t(6))


def hardswish(a):
    """x * relu6(x + 3) / 6 (HardswishBackward0, saving the input)."""
    _check_float(a, 'hardswish_cpu')
    x = a._data
    return _attach(make(x * _relu6_of_x_plus_3(x) / x.dtype.type(6)), HardswishBackward0, (a,),
                   {'self': SavedTensor(a)})


class HardswishBackward0(Node):
    def apply(self, g):
        return (hardswish_backward(g, self.saved('self')),)


def hardswish_backward(g, x):
    """0 where x <= -3, g where x >= 3, else g * (x / 3 + 0.5), as PyTorch's kernel (at NaN: g in its scalar loop,
    NaN in its vector loop, two vectors at a time): an op of its own (HardswishBackwardBackward0) for double
    backward."""
    xd, gd = x._data, g._data
    t = xd.dtype.type
    middle = (xd > t(-3)) & (xd < t(3)) | _nan_in_vectors(xd, 2)
    out = make(np.where(xd <= t(-3), t(0), np.where(middle, gd * (xd / t(3) + t(0.5)), gd)).astype(xd.dtype))
    if _recording(g, x):
        _attach(out, HardswishBackwardBackward0, (g, x), {'grad_output': SavedTensor(g), 'self': SavedTensor(x)})
    return out


class HardswishBackwardBackward0(Node):
    def apply(self, gg):
        go, x = self.saved('grad_output'), self.saved('self')
        ggo = hardswish_backward(gg, x) if self.needs(0) else None
        gx = None
        if self.needs(1):                  # where(-3 < x < 3, grad * grad_output / 3, 0)
            inside = make((x._data > -3) & (x._data < 3))
            gx = where(inside, _div_scalar(gg * go, 3.0), make(np.zeros((), x._data.dtype)))
        return ggo, gx


def hardsigmoid(a):
    """relu6(x + 3) / 6 (HardsigmoidBackward0, saving the input)."""
    _check_float(a, 'hardsigmoid_cpu')
    x = a._data
    return _attach(make(_relu6_of_x_plus_3(x) / x.dtype.type(6)), HardsigmoidBackward0, (a,),
                   {'self': SavedTensor(a)})


class HardsigmoidBackward0(Node):
    def apply(self, g):
        x = self.saved('self')
        xd = x._data
        # g / 6 where -3 < x < 3, else 0; the kernel's 1/6 is a float constant, for doubles too
        sixth = xd.dtype.type(np.float32(1) / np.float32(6))
        out = make(np.where((xd > -3) & (xd < 3), g._data * sixth, xd.dtype.type(0)).astype(xd.dtype))
        # PyTorch defines no derivative of hardsigmoid_backward
        return (_not_implemented(out, tuple(t for t in (g, x) if t._requires_grad) or (x,),
                                 'aten::hardsigmoid_backward'),)


# ================================================================================================ elu family

_SELU_ALPHA = 1.6732632423543772848170429916717
_SELU_SCALE = 1.0507009873554804934193349852946


def selu(a, inplace=False):
    """scale * elu(x, alpha) with SELU's constants: PyTorch's elu(x, alpha, scale) (EluBackward0; inplace: the
    node of elu_, EluBackward1, saving the result)."""
    _check_float(a, 'elu_cpu')
    out = make(_elu_np(a._data, _SELU_ALPHA, _SELU_SCALE, 1))
    if inplace:
        return _attach(out, EluBackward1, (a,), {'alpha': _SELU_ALPHA, 'input_scale': 1, 'result': _RESULT,
                                                 'scale': _SELU_SCALE})
    return _attach(out, EluBackward0, (a,), {'alpha': _SELU_ALPHA, 'input_scale': 1, 'scale': _SELU_SCALE,
                                             'self': SavedTensor(a)})


def celu(a, alpha=1.0, inplace=False):
    """max(0, x) + min(0, alpha * (exp(x / alpha) - 1)): PyTorch's elu(x, alpha, 1, 1 / alpha) (CeluBackward0;
    inplace: CeluBackward1, saving the result)."""
    if alpha == 0:
        raise RuntimeError('ZeroDivisionError: alpha cannot be 0 for CELU')
    _check_float(a, 'elu_cpu')
    out = make(_elu_np(a._data, alpha, 1, 1.0 / float(alpha)))
    if inplace:
        return _attach(out, CeluBackward1, (a,), {'alpha': alpha, 'result': _RESULT})
    return _attach(out, CeluBackward0, (a,), {'alpha': alpha, 'self': SavedTensor(a)})


def _celu_input_scale(alpha):
    """derivatives.yaml's 1.0 / alpha.toFloat(): alpha rounded to float first (the forward divides in double),
    checked as c10 converts it."""
    return 1.0 / float(np.float32(dt.check_scalar(alpha, dt.float32)))


class CeluBackward0(Node):
    def apply(self, g):
        alpha = self._saved['alpha']
        return (elu_backward(g, alpha, 1, _celu_input_scale(alpha), False, self.saved('self')),)


class CeluBackward1(Node):
    def apply(self, g):
        alpha = self._saved['alpha']
        return (elu_backward(g, alpha, 1, _celu_input_scale(alpha), True, self.saved('result')),)


# ================================================================================================ threshold, shrinks

def threshold(a, threshold, value, inplace=False):
    """x where x > threshold, else value (ThresholdBackward0; inplace: ThresholdBackward1). Both save the input."""
    threshold, value = _number(threshold), _number(value)
    x = a._data
    if x.dtype.kind == 'b':
        raise NotImplementedError('"threshold_cpu" not implemented for \'Bool\'')
    out = make(np.where(x <= threshold, x.dtype.type(value), x).astype(x.dtype))
    return _attach(out, ThresholdBackward1 if inplace else ThresholdBackward0, (a,),
                   {'self': SavedTensor(a), 'threshold': threshold})


class ThresholdBackward0(Node):
    def apply(self, g):
        return (threshold_backward(g, self.saved('self'), self._saved['threshold']),)


class ThresholdBackward1(ThresholdBackward0):
    pass


def _check_lambd(a, lambd):
    """softshrink's check of lambda against the largest number of the input's dtype (printed as C++ prints)."""
    big = float(np.finfo(a._data.dtype).max)
    if not 0 <= lambd <= big:
        raise RuntimeError('lambda must be in range [0, %s] for input dtype %s, but found %s'
                           % ('%g' % big, a.dtype.legacy, '%g' % lambd))


def softshrink(a, lambd=0.5):
    """x - lambd where x > lambd, x + lambd where x < -lambd, else 0 (x * 0: -0 for negative x)."""
    _check_float(a, 'softshrink_check')
    _check_lambd(a, lambd)
    x = a._data
    t = x.dtype.type
    lam = t(lambd)
    # inside [-lambd, lambd]: PyTorch's vectorized loop gives +0 (over whole vectors of 64 bytes of the input,
    # in memory order), its scalar loop for the rest x * 0 (-0 for negative x)
    zero = (x * t(0)).reshape(-1)
    zero[:zero.size // (64 // x.itemsize) * (64 // x.itemsize)] = 0
    zero = zero.reshape(x.shape)
    out = np.where(x > lam, x - lam, np.where(x < -lam, x + lam, zero))
    out = make(np.where(np.isnan(x), x, out).astype(x.dtype))      # (NaN stays NaN in both loops)
    return _attach(out, SoftshrinkBackward0, (a,), {'lambd': lambd, 'self': SavedTensor(a)})


def hardshrink(a, lambd=0.5):
    """x, or 0 where -lambd <= x <= lambd."""
    _check_float(a, 'hardshrink_cpu')
    x = a._data
    lam = x.dtype.type(lambd)
    out = make(np.where((x >= -lam) & (x <= lam), x.dtype.type(0), x).astype(x.dtype))
    return _attach(out, HardshrinkBackward0, (a,), {'lambd': lambd, 'self': SavedTensor(a)})


def _shrink_backward(cls):
    def backward(g, x, lambd):
        """g, zeroed where -lambd <= x <= lambd (and at NaN in PyTorch's vector loop, one vector at a time, which
        keeps g where x < -lambd or x > lambd): an op of its own for double backward."""
        xd = x._data
        lam = xd.dtype.type(lambd)
        inside = (xd >= -lam) & (xd <= lam) | _nan_in_vectors(xd, 1)
        out = make(np.where(inside, g._data.dtype.type(0), g._data).astype(g._data.dtype))
        if _recording(g, x):
            _attach(out, cls, (g, x), {'lambd': lambd, 'self': SavedTensor(x)})
        return out
    return backward


class SoftshrinkBackwardBackward0(Node):
    def apply(self, gg):
        return (type(self).backward(gg, self.saved('self'), self._saved['lambd']),
                _zeros_like(gg) if self.needs(1) else None)


class HardshrinkBackwardBackward0(SoftshrinkBackwardBackward0):
    pass


softshrink_backward = _shrink_backward(SoftshrinkBackwardBackward0)
hardshrink_backward = _shrink_backward(HardshrinkBackwardBackward0)
SoftshrinkBackwardBackward0.backward = staticmethod(softshrink_backward)
HardshrinkBackwardBackward0.backward = staticmethod(hardshrink_backward)


class SoftshrinkBackward0(Node):
    def apply(self, g):
        return (softshrink_backward(g, self.saved('self'), self._saved['lambd']),)


class HardshrinkBackward0(Node):
    def apply(self, g):
        return (hardshrink_backward(g, self.saved('self'), self._saved['lambd']),)


# ================================================================================================ glu

def _halves(x, d):
    n = x.shape[d] // 2
    return np.take(x, range(n), axis=d), np.take(x, range(n, 2 * n), axis=d)


def glu(a, dim=-1):
    """a * sigmoid(b), a and b the halves of the input along dim (GluBackward0)."""
    if not a._data.ndim:
        raise RuntimeError('glu does not support scalars because halving size must be even')
    d = _wrap_dim(dim, a._data.ndim)
    if a._data.shape[d] % 2:
        raise RuntimeError('Halving dimension must be even, but dimension %d is size %d' % (d, a._data.shape[d]))
    _check_float(a, 'glu_cpu')
    first, second = _halves(a._data, d)
    return _attach(make(first * _sigmoid(second)), GluBackward0, (a,), {'dim': _raw(dim), 'self': SavedTensor(a)})


class GluBackward0(Node):
    def apply(self, g):
        return (glu_backward(g, self.saved('self'), self._saved['dim']),)


def glu_backward(g, x, dim):
    """sigmoid(b) * g for the first half, (1 - sigmoid(b)) * sigmoid(b) * a * g for the second, as PyTorch's
    kernel: an op of its own (GluBackwardBackward0) for double backward. dim as the glu node saved it."""
    d = _saved_dims(dim, x.ndim)[0]
    first, second = _halves(x._data, d)
    gd = g._data
    s = _sigmoid(second)
    one = s.dtype.type(1)
    out = make(np.concatenate([s * gd, (one - s) * s * first * gd], axis=d))
    if _recording(g, x):
        _attach(out, GluBackwardBackward0, (g, x), {'dim': dim, 'grad_output': SavedTensor(g),
                                                   'self': SavedTensor(x)})
    return out


class GluBackwardBackward0(Node):
    """PyTorch's glu_double_backward_grad_output and glu_double_backward, op for op."""

    def apply(self, gg):
        dim = self._saved['dim']
        go, x = self.saved('grad_output'), self.saved('self')
        d = _saved_dims(dim, x.ndim)[0]
        n = x.shape[d] // 2
        ggo = gx = None
        if self.needs(0):
            sizes = list(x.shape)
            sizes[d] = n
            tmp = gg * glu_backward(make(np.ones(sizes, x._data.dtype)), x, dim)
            ggo = narrow(tmp, d, 0, n) + narrow(tmp, d, n, n)
        if self.needs(1):
            first, second = narrow(x, d, 0, n), narrow(x, d, n, n)
            sig = second.sigmoid()
            one_sub = _scalar_sub(1, sig)
            sig_one_sub = sig * one_sub
            gg_first, gg_second = narrow(gg, d, 0, n), narrow(gg, d, n, n)
            gi_first = gg_second * go * sig_one_sub
            second_order = sig_one_sub * one_sub - sig * sig_one_sub
            gi_second = gg_second * first * go * second_order + gg_first * go * sig_one_sub
            gx = cat([gi_first, gi_second], d)
        return ggo, gx


# ================================================================================================ group norm

def group_norm(input, num_groups, weight=None, bias=None, eps=1e-5):
    """(x - mean) * rstd per sample and group of channels (dim 1 split in num_groups), then weight and bias per
    channel (NativeGroupNormBackward0, saving each group's mean and rstd = 1 / sqrt(var + eps), shaped (N, G))."""
    shape = tuple(input.shape)
    n, c = shape[0], shape[1]
    if c % num_groups:
        raise RuntimeError('Expected number of channels in input to be divisible by num_groups, but got input of '
                           'shape %s and num_groups=%d' % (_sizes(shape), num_groups))
    for name, t in (('weight', weight), ('bias', bias)):
        if t is not None and (t.ndim != 1 or t.shape[0] != c):    # (PyTorch shows the weight's shape for both)
            raise RuntimeError('Expected %s to be a vector of size equal to the number of channels in input, but got '
                               '%s of shape %s and input of shape %s'
                               % (name, name, _sizes((0,) if weight is None else weight.shape), _sizes(shape)))
    _check_mixed(input, weight, bias)
    _check_float(input, 'GroupNormKernelImpl')
    # (PyTorch normalizes input.contiguous(its suggested format): a copy (CloneBackward0) of another layout, which
    # the node saves; the result is laid out so too)
    layout = _suggested(input._data)
    input = contiguous(input, memory_format=layout)
    x = np.ascontiguousarray(input._data)
    hxw = math.prod(shape[2:])
    d = c // num_groups
    rows = x.reshape(n * num_groups, d * hxw)
    t = x.dtype.type
    if rows.size:
        mean, var = _rowwise_moments(rows)
        rstd = (1 / np.sqrt(np.maximum(var, t(0)).astype(np.float64) + eps)).astype(x.dtype)   # (eps a double)
    else:
        mean = rstd = np.zeros(rows.shape[0], x.dtype)
    if weight is None and bias is None:
        out = (rows - mean[:, None]) * rstd[:, None]
    else:                                  # per channel: scale * x + (-scale * mean + beta), as the kernel
        gamma = np.ones(c, x.dtype) if weight is None else weight._data
        beta = np.zeros(c, x.dtype) if bias is None else bias._data
        scale = rstd.reshape(n, num_groups, 1) * gamma.reshape(1, num_groups, d)
        shift = _fused(-scale, mean.reshape(n, num_groups, 1), beta.reshape(1, num_groups, d))
        out = _fused(scale.reshape(n, c, 1), x.reshape(n, c, hxw), shift.reshape(n, c, 1))
    save_mean, save_rstd = make(mean.reshape(n, num_groups)), make(rstd.reshape(n, num_groups))
    save_mean._output_nr, save_rstd._output_nr = 1, 2
    out = np.asarray(out, x.dtype).reshape(shape)
    if layout is not _mf.contiguous_format:
        out = _mf.laid_out(out, layout)
    out = _attach(make(out), NativeGroupNormBackward0, (input, weight, bias), {
        'C': c, 'HxW': hxw, 'N': n, 'eps': float(eps), 'group': num_groups, 'input': SavedTensor(input),
        'result1': SavedTensor(save_mean, True), 'result2': SavedTensor(save_rstd, True),     # (outputs 1 and 2)
        'weight': None if weight is None else SavedTensor(weight)})
    if out._grad_fn is not None:
        out._grad_fn.num_outputs = 3
    return out


def _group_norm_input_grad(gd, xd, ds, db, mean, rstd, gamma):
    """dx of group norm for float32, as PyTorch's kernel (GroupNormInputBackward) computes it, GCC's fused
    multiply-adds included (measured), from ds = sum(dy * x), db = sum(dy) per channel over its positions, each
    (n, groups, d) (vec::reduce_all in vectors of 8: the rest in the first lanes, the lanes halving; fewer than 8 in
    order: the caller's sums); per sample and group,
    ds_val and db_val the channels' ds * gamma and db * gamma in fused multiply-adds, 8 channels at a time in the lanes
    of a vector (its lanes then added in order), the channels left over one by one;
    c2 = fma(db_val, mean, -ds_val) * rstd * rstd * rstd * s, c3 = fma(db_val * rstd, -s, -c2 * mean);
    dx = fma(rstd * gamma, dy, c2 * x) + c3 (s = 1 / (D * HxW)). (Measured: 2% of random shapes with more than 8
    channels a group still differ in last bits, and a single sample with a weight and groups of 4 channels or
    more: how was not found.)"""
    n, c, hxw = xd.shape
    groups, d = ds.shape[1:]
    f32 = np.float32
    gam = gamma.reshape(groups, d).astype(f32, copy=False)
    whole = d - d % 8
    ds_val = np.zeros((n, groups), f32)
    db_val = np.zeros((n, groups), f32)
    if whole:
        ds_lanes = np.zeros((n, groups, 8), f32)
        db_lanes = np.zeros((n, groups, 8), f32)
        for j in range(0, whole, 8):
            ds_lanes = _fma32(ds[:, :, j:j + 8], gam[:, j:j + 8], ds_lanes)
            db_lanes = _fma32(db[:, :, j:j + 8], gam[:, j:j + 8], db_lanes)
        for lane in range(8):
            ds_val, db_val = ds_val + ds_lanes[:, :, lane], db_val + db_lanes[:, :, lane]
    for j in range(whole, d):
        ds_val = _fma32(ds[:, :, j], gam[:, j], ds_val)
        db_val = _fma32(db[:, :, j], gam[:, j], db_val)
    m, r = mean.reshape(n, groups).astype(f32), rstd.reshape(n, groups).astype(f32)
    s = f32(1) / f32(d * hxw)
    c2 = _fma32(db_val, m, -ds_val) * r * r * r * s
    c3 = _fma32(db_val * r, -s, -c2 * m)
    c1 = (r[:, :, None] * gam).reshape(n, c, 1)
    c2 = np.repeat(c2, d, axis=1)[:, :, None]
    c3 = np.repeat(c3, d, axis=1)[:, :, None]
    return _fma32(c1, gd, c2 * xd) + c3


class NativeGroupNormBackward0(Node):
    """PyTorch's group norm backward kernel: with ds, db the sums over each channel's elements of dy * x and dy,
    per sample and group: c1 = rstd * gamma, c2 = (sum(db * gamma) * mean - sum(ds * gamma)) * rstd^3 / (D * HxW),
    c3 = -c2 * mean - sum(db * gamma) * rstd / (D * HxW), dx = c1 * dy + c2 * x + c3;
    dgamma = sum over samples of (ds - db * mean) * rstd, dbeta = sum over samples of db."""

    def apply(self, g, *stats_grads):       # (gradients reaching the mean and rstd outputs are not modelled)
        s = self._saved
        x, w = self.saved('input'), self.saved('weight')
        if g is None:
            g = _zeros_like(x)
        n, c, hxw, groups = s['N'], s['C'], s['HxW'], s['group']
        d = c // groups
        xd = np.ascontiguousarray(x._data).reshape(n, c, hxw)
        gd = np.ascontiguousarray(g._data).reshape(n, c, hxw).astype(xd.dtype)
        mean = self.saved('result1')._data.reshape(n, groups, 1)
        rstd = self.saved('result2')._data.reshape(n, groups, 1)
        t = xd.dtype.type
        if xd.dtype == np.float32:                  # (the kernel's sums: see _group_norm_input_grad)
            ds = _vec_sum((gd * xd).reshape(-1, hxw), 32).reshape(n, groups, d)
            db = _vec_sum(gd.reshape(-1, hxw), 32).reshape(n, groups, d)
        else:
            ds = (gd * xd).sum(2).reshape(n, groups, d)
            db = gd.sum(2).reshape(n, groups, d)
        gamma = np.ones((1, groups, d), xd.dtype) if w is None else w._data.reshape(1, groups, d)
        gx = gw = gb = None
        if self.needs(0) and xd.dtype == np.float32:
            gx = make(_group_norm_input_grad(gd, xd, ds, db, mean, rstd, gamma).reshape(x._data.shape))
        elif self.needs(0):
            scale = t(1) / t(d * hxw)
            ds_g = (ds * gamma).sum(2, keepdims=True)
            db_g = (db * gamma).sum(2, keepdims=True)
            c2 = (db_g * mean - ds_g) * rstd * rstd * rstd * scale
            c3 = -c2 * mean - db_g * rstd * scale
            c1 = (rstd * gamma).reshape(n, c, 1)
            c2 = np.repeat(c2, d, axis=1)
            c3 = np.repeat(c3, d, axis=1)
            gx = make((c1 * gd + c2 * xd + c3).astype(xd.dtype).reshape(x._data.shape))
        if w is not None and self.needs(1):
            if xd.dtype == np.float32:          # (GammaBackward: fused as GCC compiles it, samples in order)
                acc = np.zeros(ds.shape[1:], ds.dtype)
                for i in range(n):
                    acc = _fma32(_fma32(-db[i], mean[i], ds[i]), rstd[i], acc)
            else:
                acc = ((ds - db * mean) * rstd).sum(0)
            gw = make(acc.reshape(c).astype(xd.dtype))
        if len(self._fns) > 2 and self.needs(2):
            gb = make(db.sum(0).reshape(c).astype(xd.dtype))
        eps = s['eps']

        def formula(g, x, w):
            rows = x.reshape(n, groups, -1)
            centred = (rows - rows.mean(2, keepdim=True)).reshape(x.shape)      # (per sample and group)
            grouped = (n, groups, -1)
            rstd = (centred.reshape(grouped).pow(2).mean(2, keepdim=True) + eps).rsqrt()
            xhat = (centred.reshape(grouped) * rstd).reshape(x.shape)
            gh = (g if w is None else g * w.reshape((1, c) + (1,) * (x.dim() - 2))).reshape(grouped)
            xh = xhat.reshape(grouped)
            gx = (rstd * (gh - gh.mean(2, keepdim=True) - xh * (gh * xh).mean(2, keepdim=True))).reshape(x.shape)
            outer = (0,) + tuple(range(2, x.dim()))
            return gx, None if w is None else (g * xhat).sum(outer), g.sum(outer)
        return _second_order(NativeGroupNormBackwardBackward0, (g, x, w), (gx, gw, gb), formula)


class NativeGroupNormBackwardBackward0(_SecondOrder):
    pass


# ================================================================================================ distances, prelu

def pairwise_distance(x1, x2, p=2.0, eps=1e-6, keepdim=False):
    """The p-norm of x1 - x2 + eps along the last dim, as PyTorch's at::norm(x, p, dim, keepdim) records it
    (NormBackward1)."""
    from ._ops import _add_eps
    from ._ops_nn import norm
    diff = _add_eps(x1 - x2, eps)
    dim = max(x1.ndim, x2.ndim) - 1
    with ag.no_grad():
        r = norm(diff, p, (dim,), keepdim)
    return _attach(make(r._data), NormBackward1, (diff,), {'dim': (dim,), 'keepdim': keepdim, 'p': float(p),
                                                           'result': _RESULT, 'self': SavedTensor(diff)})


class NormBackward1(Node):
    def apply(self, g):
        from ._ops_nn import _norm_backward
        s = self._saved
        x = self.saved('self')
        dims = _saved_dims(s['dim'], x.ndim)
        return (_norm_backward(g, x, self.saved('result'), s['p'], dims, s['keepdim']),)


def prelu(a, weight):
    """x where x > 0, else weight * x: PyTorch's prelu, the weight reshaped to broadcast over dim 1 (a view),
    then _prelu_kernel (PreluKernelBackward0, saving both)."""
    for name, position, t in (('input', 1, a), ('weight', 2, weight)):
        if not isinstance(t, Tensor):
            raise TypeError("prelu(): argument '%s' (position %d) must be Tensor, not %s" % (name, position,
                                                                                          parser_type(t)))
    if a.dtype != weight.dtype:
        raise RuntimeError('prelu: Type promoting not supported. Got %s and %s' % (a.dtype.legacy,
                                                                                  weight.dtype.legacy))
    if weight.numel() != 1:
        if not a.ndim:
            raise RuntimeError('Not allow zero-dim input tensor.')
        channels = a.shape[1] if a.ndim > 1 else 1
        if channels != weight.numel():
            raise RuntimeError('Mismatch of parameter numbers and input channel size. Found parameter numbers = %d '
                               'and channel size = %d.' % (weight.numel(), channels))
    if weight.ndim > 1:
        raise RuntimeError('prelu: Expected `weight` to be a scalar or 1D tensor, but got: ndim = %d' % weight.ndim)
    w = weight
    if a.ndim != weight.ndim:
        shape = [1] * a.ndim
        if a.ndim > 1:
            shape[1] = weight.numel()
        w = weight.reshape(shape)
    x, wd = a._data, w._data
    out = make(np.where(x > 0, x, wd * x).astype(x.dtype))
    return _attach(out, PreluKernelBackward0, (a, w), {'self': SavedTensor(a), 'weight': SavedTensor(w)})


class PreluKernelBackward0(Node):
    """g where x > 0, else weight * g for the input; x * g where x <= 0, summed to the weight's shape, for it."""

    def apply(self, g):
        x, w = self.saved('self'), self.saved('weight')
        xd, wd, gd = x._data, w._data, g._data
        pos = xd > 0
        gx = make(np.where(pos, gd, wd * gd).astype(xd.dtype)) if self.needs(0) else None
        gw = None
        if self.needs(1):
            full = np.where(pos, xd.dtype.type(0), xd * gd)
            axes = tuple(i for i in range(full.ndim) if wd.ndim == 0 or wd.shape[i] == 1)
            summed = _add_reduce(full, axes, wd.ndim > 0) if axes else full      # (autograd's sum_to: a sum)
            gw = make(np.asarray(summed).reshape(wd.shape).astype(xd.dtype))

        def formula(g, x, w):                     # (the same, differentiable)
            pos = make(x._data > 0)
            full = where(pos, 0., x * g)
            axes = tuple(i for i in range(full.dim()) if w.dim() == 0 or w.shape[i] == 1)
            return where(pos, g, w * g), full.sum(axes, keepdim=w.dim() > 0).reshape(w.shape)
        return _second_order(PreluKernelBackwardBackward0, (g, x, w), (gx, gw), formula,
                             {'grad_output': g, 'self': x, 'weight': w})


class PreluKernelBackwardBackward0(_SecondOrder):
    def apply(self, *grads):
        # (PyTorch's formulas give the input and the weight zeros_like(self) where the other gradient is undefined;
        # for the weight autograd then sums those zeros to its shape)
        out = list(super().apply(*grads))
        x = self._ins[1]
        for i in (1, 2):
            if out[i] is None and self.needs(i):
                out[i] = make(np.zeros(x._data.shape if i == 1 else self._ins[2]._data.shape, x._data.dtype))
        return tuple(out)


# ================================================================================================ weight norm

def _aten_norm(x, p, dim=None):
    """at::norm(x, p) (NormBackward0) or at::norm(x, p, dim) (NormBackward1), as PyTorch's C++ composites call it
    (Python's x.norm records LinalgVectorNormBackward0)."""
    from ._ops_nn import norm
    with ag.no_grad():
        r = norm(x, p, dim)
    saved = {'p': p, 'result': _RESULT, 'self': SavedTensor(x)}
    if dim is None:
        return _attach(make(r._data), NormBackward0, (x,), saved)
    return _attach(make(r._data), NormBackward1, (x,), dict(saved, dim=(dim,), keepdim=False))


class NormBackward0(Node):
    def apply(self, g):
        from ._ops_nn import _norm_backward
        return (_norm_backward(g, self.saved('self'), self.saved('result'), self._saved['p'], None, False),)


def norm_except_dim(v, pow=2, dim=0):
    """The pow-norm of v over every dim but `dim`, shaped as v with 1s elsewhere (dim -1: of all of v), composed of
    views and at::norm as PyTorch composes it."""
    if dim == -1:
        return _aten_norm(v, pow)
    if dim == 0:
        return _aten_norm(v.contiguous().view(v.shape[0], -1), pow, 1).view((v.shape[0],) + (1,) * (v.ndim - 1))
    if dim == v.ndim - 1:
        return _aten_norm(v.contiguous().view(-1, v.shape[dim]), pow, 0).view((1,) * dim + (v.shape[dim],))
    return norm_except_dim(v.transpose(0, dim), pow, 0).transpose(0, dim)


def weight_norm(v, g, dim=0):
    """torch._weight_norm: v * (g / norm_except_dim(v, 2, dim)). Over the first or the last dim PyTorch runs its
    fused kernel, one node (WeightNormInterfaceBackward0) saving v, g and the norms (result1); else the ops above."""
    if dim not in (0, v.ndim - 1):
        return v * (g / norm_except_dim(v, 2, dim))
    v, g = v.contiguous(), g.contiguous()
    with ag.no_grad():
        norms = norm_except_dim(v, 2, dim)
        w = v * (g / norms)
    return _attach(make(w._data), WeightNormInterfaceBackward0, (v, g),
                   {'dim': dim, 'g': SavedTensor(g), 'result1': SavedTensor(norms), 'v': SavedTensor(v)})


class WeightNormInterfaceBackward0(Node):
    def apply(self, gw):
        v, g, norms, dim = self.saved('v'), self.saved('g'), self.saved('result1'), self._saved['dim']
        dims = tuple(d for d in range(v.ndim) if d != dim)
        proj = (gw * v).sum(dims, keepdim=True) / norms         # (the gradient along v's direction, per slice)
        return ((g / norms) * (gw - v * (proj / norms)) if self.needs(0) else None,
                proj if self.needs(1) else None)


# ================================================================================================ bilinear

def bilinear(input1, input2, weight, bias=None):
    """y[..., o] = input1[..., i] weight[o, i, j] input2[..., j] + bias[o], as PyTorch's at::bilinear records it:
    both inputs flattened to rows (reshape), _trilinear (TrilinearBackward0), the result reshaped back, bias added."""
    names = 'input1: %s, input2: %s, weight: %s' + (', bias: %s' if bias is not None else '')
    ts = (input1, input2, weight) + ((bias,) if bias is not None else ())
    if len({t.dtype for t in ts}) > 1:
        raise RuntimeError('All tensors must have the same dtype, got ' + names % tuple(
            dt.C_NAMES[t._data.dtype.name] for t in ts))
    if input1.dim() != input2.dim():
        raise RuntimeError('bilinear(): input dimensions do not match: got %d and %d' % (input1.dim(), input2.dim()))
    for i in range(input1.dim() - 1):
        if input1.size(i) != input2.size(i):
            raise RuntimeError('bilinear(): input batch dimensions do not match at dim %d: got %d and %d'
                               % (i, input1.size(i), input2.size(i)))
    for k, t in ((1, input1), (2, input2)):
        if t.size(-1) != weight.size(k):
            raise RuntimeError('bilinear(): input%d size does not match weight size: got %d but expected %d'
                               % (k, t.size(-1), weight.size(k)))
    if bias is not None and bias.size(0) != weight.size(0):
        raise RuntimeError('bilinear(): bias size does not match weight size: got %d but expected %d'
                           % (bias.size(0), weight.size(0)))
    _check_float(input1, 'bmm', 'fciu')
    shape = tuple(input1.shape[:-1]) + (weight.size(0),)
    out = _trilinear(input1.reshape(-1, input1.size(-1)), weight, input2.reshape(-1, input2.size(-1)),
                     (1, 3), (0,), (1, 2), (2, 3)).reshape(shape)
    return out if bias is None else out + bias


def _trilinear(i1, i2, i3, expand1, expand2, expand3, sumdim):
    """PyTorch's _trilinear: the three inputs unsqueezed at their `expand` dims to one rank, multiplied, and summed
    over `sumdim` (TrilinearBackward0; each input's gradient is a _trilinear of the other two and the gradient)."""
    rank = i1.dim() + len(expand1)
    letters = [''.join(chr(97 + d) for d in range(rank) if d not in e) for e in (expand1, expand2, expand3)]
    spec = '%s,%s,%s->%s' % tuple(letters + [''.join(chr(97 + d) for d in range(rank) if d not in sumdim)])
    out = make(np.ascontiguousarray(np.einsum(spec, i1._data, i2._data, i3._data)))
    e = [_edge(t) for t in (i1, i2, i3)]        # (each input saved only for the others' gradients)
    return _attach(out, TrilinearBackward0, (i1, i2, i3), {
        'expand1': tuple(expand1), 'expand2': tuple(expand2), 'expand3': tuple(expand3),
        'i1': SavedTensor(i1) if e[1] or e[2] else None, 'i2': SavedTensor(i2) if e[0] or e[2] else None,
        'i3': SavedTensor(i3) if e[0] or e[1] else None, 'sumdim': tuple(sumdim)})


class TrilinearBackward0(Node):
    def apply(self, g):
        s = self._saved
        i1, i2, i3 = self.saved('i1'), self.saved('i2'), self.saved('i3')
        e1, e2, e3, sd = s['expand1'], s['expand2'], s['expand3'], s['sumdim']
        return (_trilinear(g, i2, i3, sd, e2, e3, e1) if self.needs(0) else None,
                _trilinear(i1, g, i3, e1, sd, e3, e2) if self.needs(1) else None,
                _trilinear(i1, i2, g, e1, e2, sd, e3) if self.needs(2) else None)
