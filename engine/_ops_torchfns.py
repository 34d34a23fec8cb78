"""The op table, part 15: torch.* functions PyTorch exposes at top level beside nn.functional's (torch.batch_norm,
torch.dropout, torch.kl_div, torch.convolution, the RNN cells, the native_* forms returning their statistics), and
more math (gcd, lcm, frexp, vander, combinations, renorm, mvlgamma, gradient, ...), as PyTorch 2.13 has them.

The torch.* forms take the C++ op's arguments (reductions as ints, whose default, `Mean` in PyTorch's schema, the
parser reads as 0: no reduction; every argument of batch_norm required), checked by PyTorch's argument parser
(see _argparse: the signatures below). They compose the engine's nn.functional ops, so the grad_fn names are
those PyTorch shows.
"""
import builtins
import math

import operator

import numpy as np

from . import _argparse
from . import _autograd as ag
from . import _dtypes as dt
from . import _ops
from . import _ops_nn
from . import _ops_nn2
from ._autograd import Node, SavedTensor
from ._tensor import Tensor, make, _wrap_dim

__all__ = ['batch_norm', 'layer_norm', 'group_norm', 'instance_norm', 'rms_norm', 'dropout', 'dropout_',
           'alpha_dropout', 'alpha_dropout_', 'feature_dropout', 'feature_dropout_', 'feature_alpha_dropout',
           'feature_alpha_dropout_', 'binary_cross_entropy_with_logits', 'cosine_embedding_loss',
           'hinge_embedding_loss', 'kl_div', 'margin_ranking_loss', 'poisson_nll_loss', 'triplet_margin_loss',
           'constant_pad_nd', 'convolution', 'rnn_tanh_cell', 'rnn_relu_cell', 'lstm_cell', 'gru_cell',
           'native_layer_norm', 'native_batch_norm', 'native_group_norm', 'native_dropout', 'channel_shuffle',
           'native_channel_shuffle']

_REDUCTION_NAMES = {0: 'none', 1: 'mean', 2: 'sum'}

FUNCTIONS = {
    'batch_norm': ['batch_norm(Tensor input, Tensor? weight, Tensor? bias, Tensor? running_mean, Tensor? running_var, '
                   'bool training, double momentum, double eps, bool cudnn_enabled)'],
    'instance_norm': ['instance_norm(Tensor input, Tensor? weight, Tensor? bias, Tensor? running_mean, '
                      'Tensor? running_var, bool use_input_stats, double momentum, double eps, bool cudnn_enabled)'],
    'layer_norm': ['layer_norm(Tensor input, SymIntArrayRef normalized_shape, Tensor? weight=None, Tensor? bias=None, '
                   'double eps=1e-05, bool cudnn_enable=True)'],
    'group_norm': ['group_norm(Tensor input, int64_t num_groups, Tensor? weight=None, Tensor? bias=None, '
                   'double eps=1e-05, bool cudnn_enabled=True)'],
    'rms_norm': ['rms_norm(Tensor input, SymIntArrayRef normalized_shape, Tensor? weight=None, double? eps=None)'],
    'native_layer_norm': ['native_layer_norm(Tensor input, SymIntArrayRef normalized_shape, Tensor? weight, '
                          'Tensor? bias, double eps)'],
    'native_batch_norm': ['native_batch_norm(Tensor input, Tensor? weight, Tensor? bias, Tensor? running_mean, '
                          'Tensor? running_var, bool training, double momentum, double eps, *, TensorList[3]? '
                          'out=None)'],
    'native_group_norm': ['native_group_norm(Tensor input, Tensor? weight, Tensor? bias, SymInt N, SymInt C, '
                          'SymInt HxW, int64_t group, double eps)'],
    'native_dropout': ['native_dropout(Tensor input, double p, bool? train)'],
    **{name: ['%s(Tensor input, double p, bool train)' % name]
       for name in ('dropout', 'dropout_', 'alpha_dropout', 'alpha_dropout_', 'feature_dropout', 'feature_dropout_',
                    'feature_alpha_dropout', 'feature_alpha_dropout_')},
    'binary_cross_entropy_with_logits': ['binary_cross_entropy_with_logits(Tensor input, Tensor target, '
                                         'Tensor? weight=None, Tensor? pos_weight=None, int64_t reduction=Mean)'],
    'cosine_embedding_loss': ['cosine_embedding_loss(Tensor input1, Tensor input2, Tensor target, double margin=0.0, '
                              'int64_t reduction=Mean)'],
    'hinge_embedding_loss': ['hinge_embedding_loss(Tensor input, Tensor target, double margin=1.0, '
                             'int64_t reduction=Mean)'],
    'kl_div': ['kl_div(Tensor input, Tensor target, int64_t reduction=Mean, *, bool log_target=False)'],
    'margin_ranking_loss': ['margin_ranking_loss(Tensor input1, Tensor input2, Tensor target, double margin=0.0, '
                            'int64_t reduction=Mean)'],
    'poisson_nll_loss': ['poisson_nll_loss(Tensor input, Tensor target, bool log_input, bool full, double eps, '
                         'int64_t reduction)'],
    'triplet_margin_loss': ['triplet_margin_loss(Tensor anchor, Tensor positive, Tensor negative, double margin=1.0, '
                            'double p=2, double eps=1e-06, bool swap=False, int64_t reduction=Mean)'],
    'constant_pad_nd': ['constant_pad_nd(Tensor input, SymIntArrayRef pad, Scalar value=0)'],
    'convolution': ['convolution(Tensor input, Tensor weight, Tensor? bias, SymIntArrayRef stride, '
                    'SymIntArrayRef padding, SymIntArrayRef dilation, bool transposed, SymIntArrayRef output_padding, '
                    'SymInt groups)'],
    **{name: ['%s(Tensor input, Tensor hx, Tensor w_ih, Tensor w_hh, Tensor? b_ih=None, Tensor? b_hh=None)' % name]
       for name in ('rnn_tanh_cell', 'rnn_relu_cell', 'gru_cell')},
    'lstm_cell': ['lstm_cell(Tensor input, TensorList hx, Tensor w_ih, Tensor w_hh, Tensor? b_ih=None, '
                  'Tensor? b_hh=None)'],
    'channel_shuffle': ['channel_shuffle(Tensor input, SymInt groups)'],
    'native_channel_shuffle': ['native_channel_shuffle(Tensor input, SymInt groups)'],
}


def _functional():
    from .nn import functional
    return functional


def _reduction(r):
    return _REDUCTION_NAMES.get(r, 'none')


def _check_p(p):
    if p < 0 or p > 1:
        raise RuntimeError('dropout probability has to be between 0 and 1, but got %s' % p)


# ================================================================================================ normalization

def batch_norm(input, weight, bias, running_mean, running_var, training, momentum, eps, cudnn_enabled):
    return _ops_nn.batch_norm(input, running_mean, running_var, weight, bias, training, momentum, eps)


def instance_norm(input, weight, bias, running_mean, running_var, use_input_stats, momentum, eps, cudnn_enabled):
    return _functional().instance_norm(input, running_mean, running_var, weight, bias, use_input_stats, momentum,
                                       eps)


def layer_norm(input, normalized_shape, weight=None, bias=None, eps=1e-05, cudnn_enable=True):
    return _ops_nn.layer_norm(input, normalized_shape, weight, bias, eps)


def group_norm(input, num_groups, weight=None, bias=None, eps=1e-05, cudnn_enabled=True):
    return _functional().group_norm(input, num_groups, weight, bias, eps)


def rms_norm(input, normalized_shape, weight=None, eps=None):
    return _functional().rms_norm(input, normalized_shape, weight, eps)


def _saved_object(fn, name):
    """The very tensor fn saved as `name` (PyTorch returns the statistics it saves: one modified in place fails the
    backward's version check), or a copy of it when a saved_tensors_hooks pack took it."""
    v = fn._saved[name]
    if v.tensor is not None and v.unpack_hook is None:
        return v.tensor
    return make(fn.saved(name)._data.copy())


def _statistics(out, node_cls, fallback):
    """The mean and rstd (invstd) a norm op's node saved: the native_* ops' second and third results; fallback()
    computes them when nothing was recorded."""
    fn = out._grad_fn
    if type(fn) is node_cls:
        return _saved_object(fn, 'result1'), _saved_object(fn, 'result2')
    with ag.enable_grad():
        probe = fallback()
    stats = probe._grad_fn.saved('result1'), probe._grad_fn.saved('result2')
    return tuple(make(s._data.copy()) for s in stats)


def native_layer_norm(input, normalized_shape, weight, bias, eps):
    out = _ops_nn.layer_norm(input, normalized_shape, weight, bias, eps)
    detached = input.detach()
    mean, rstd = _statistics(out, _ops_nn.NativeLayerNormBackward0, lambda: _ops_nn.layer_norm(
        detached.requires_grad_() if detached.is_floating_point() else detached, normalized_shape, None, None, eps))
    return out, mean, rstd


def native_batch_norm(input, weight, bias, running_mean, running_var, training, momentum, eps, out=None):
    result = _ops_nn.batch_norm(input, running_mean, running_var, weight, bias, training, momentum, eps)
    fn = result._grad_fn
    if type(fn) is _ops_nn.NativeBatchNormBackward0:
        mean, invstd = _saved_object(fn, 'result1'), _saved_object(fn, 'result2')
    elif not training:                  # (eval: empty statistics)
        mean, invstd = make(np.zeros(0, input._data.dtype)), make(np.zeros(0, input._data.dtype))
    else:                       # (the statistics again, without moving the running ones)
        with ag.enable_grad():
            probe = _ops_nn.batch_norm(input.detach().requires_grad_(), None, None, None, None, True, momentum, eps)
        mean, invstd = (make(probe._grad_fn.saved(n)._data) for n in ('result1', 'result2'))
    if out is not None:                 # (the out= form: written into out's tensors, resized)
        for o, r in zip(out, (result, mean, invstd)):
            o.resize_(r.shape).copy_(r)
        return tuple(out)
    return result, mean, invstd


def native_group_norm(input, weight, bias, N, C, HxW, group, eps):
    if input.numel() != N * C * HxW:
        raise RuntimeError('Expected X.numel() == N * C * HxW to be true, but got false.  (Could this error message '
                           'be improved?  If so, please report an enhancement request to PyTorch.)')
    out = _ops_nn2.group_norm(input, group, weight, bias, eps)
    fn = out._grad_fn
    if type(fn) is _ops_nn2.NativeGroupNormBackward0:
        stats = [fn.saved('result1'), fn.saved('result2')]
        stats = [make(s._data) for s in stats]
        for i, s in enumerate(stats):
            s._grad_fn, s._requires_grad, s._output_nr = fn, True, i + 1
        return (out,) + tuple(stats)
    with ag.enable_grad():
        probe = _ops_nn2.group_norm(input.detach().requires_grad_(), group, None, None, eps)
    return (out,) + tuple(make(probe._grad_fn.saved(n)._data) for n in ('result1', 'result2'))


# ================================================================================================ dropout

def dropout(input, p, train):
    _check_p(p)
    return _functional().dropout(input, p, train)


def dropout_(input, p, train):
    _check_p(p)
    return _functional().dropout(input, p, train, True)


def alpha_dropout(input, p, train):
    _check_p(p)
    return _functional()._alpha_dropout(input, p, train, False, tuple(input.shape))


def alpha_dropout_(input, p, train):
    _check_p(p)
    return _functional()._alpha_dropout(input, p, train, True, tuple(input.shape))


def _feature_noise_shape(input):
    if input.dim() < 2:
        raise RuntimeError('Feature dropout requires at least 2 dimensions in the input')
    return tuple(input.shape[:2]) + (1,) * (input.dim() - 2)


def feature_dropout(input, p, train):
    _check_p(p)
    return _functional()._feature_dropout(input, p, train, False)


def feature_dropout_(input, p, train):
    _check_p(p)
    return _functional()._feature_dropout(input, p, train, True)


def feature_alpha_dropout(input, p, train):
    _check_p(p)
    if p == 0 or not train or input.numel() == 0:
        return input
    return _functional()._alpha_dropout(input, p, train, False, _feature_noise_shape(input))


def feature_alpha_dropout_(input, p, train):
    _check_p(p)
    if p == 0 or not train or input.numel() == 0:
        return input
    return _functional()._alpha_dropout(input, p, train, True, _feature_noise_shape(input))


class NativeDropoutBackward0(Node):
    def apply(self, g):                     # grad * (mask.type_as(grad) * scale): MulBackward0 under create_graph
        p = self._saved['p']
        mask = self.saved('result1')
        scale = 0.0 if p == 1 else 1.0 / (1.0 - p)
        if not getattr(self, '_train', True):
            scale = 1.0
        d = g._data.dtype
        return (g * make(mask._data.astype(d) * d.type(scale)),)


def native_dropout(input, p, train):
    """(input * mask / (1 - p), mask): the mask a bool tensor; not training (train False), a copy of the input and a
    mask of ones. One NativeDropoutBackward0 node saving the mask (result1) and p."""
    x = input._data
    if train is None or train:
        if p < 0 or p > 1:
            raise RuntimeError('bernoulli_ expects p to be in [0, 1], but got p=%s' % (1 - p))
        from . import _random
        from ._factories import _laid_out_like
        keep = _laid_out_like(x, None, lambda size, row_major: _random.bernoulli(_random.default_generator, size,
                                                                                   1 - p)).astype(bool)
        if x.dtype.kind != 'f':
            raise RuntimeError("result type Float can't be cast to the desired output type " + input.dtype.legacy)
        scale = 0.0 if p == 1 else 1.0 / (1.0 - p)
        out = (x * keep * x.dtype.type(scale)).astype(x.dtype)
    else:
        keep = np.ones(x.shape, bool)
        out = x.copy()
    mask = make(keep)
    result = _ops._attach(make(out), NativeDropoutBackward0, (input,), {'p': float(p), 'result1': SavedTensor(mask)})
    if result._grad_fn is not None and not (train is None or train):
        result._grad_fn._train = False
    return result, mask


# ================================================================================================ losses

def binary_cross_entropy_with_logits(input, target, weight=None, pos_weight=None, reduction=0):
    if input.shape != target.shape:         # (ATen's kernel writes into the target's shape: no ValueError)
        shape = np.broadcast_shapes(tuple(input.shape), tuple(target.shape))
        if shape != tuple(target.shape):
            raise RuntimeError("output with shape %s doesn't match the broadcast shape %s"
                               % (_ops._sizes(target.shape), _ops._sizes(shape)))
    return _ops_nn.binary_cross_entropy_with_logits(input, target, weight, reduction=_reduction(reduction),
                                                    pos_weight=pos_weight)


def cosine_embedding_loss(input1, input2, target, margin=0.0, reduction=0):
    return _functional().cosine_embedding_loss(input1, input2, target, margin, reduction=_reduction(reduction))


def hinge_embedding_loss(input, target, margin=1.0, reduction=0):
    return _functional().hinge_embedding_loss(input, target, margin, reduction=_reduction(reduction))


def margin_ranking_loss(input1, input2, target, margin=0.0, reduction=0):
    """ATen's: the inputs broadcast (the dims check is the functional's)."""
    diff = input1 - input2                  # (first: C++ evaluates the right operand of * first)
    product = -target * diff
    if not product.is_floating_point() and isinstance(margin, float) and margin != int(margin):
        product = product.to(dt.default_float)      # (add.Scalar of an integer tensor and a double promotes)
    unclamped = _ops._add_scalar(product, margin)
    return _functional()._apply_loss_reduction(unclamped.clamp_min_(0), reduction)


def triplet_margin_loss(anchor, positive, negative, margin=1.0, p=2, eps=1e-06, swap=False, reduction=0):
    return _functional().triplet_margin_loss(anchor, positive, negative, margin, p, eps, swap,
                                             reduction=_reduction(reduction))


def poisson_nll_loss(input, target, log_input, full, eps, reduction):
    return _functional().poisson_nll_loss(input, target, log_input, full, eps=eps, reduction=_reduction(reduction))


def kl_div(input, target, reduction=0, *, log_target=False):
    """ATen's kl_div (no 'batchmean', no warning: the functional's Python adds those)."""
    F = _functional()
    if input.is_complex() or target.is_complex():
        raise RuntimeError('kl_div: Complex inputs not supported.')
    if not input.is_floating_point() or not target.is_floating_point():
        raise RuntimeError('kl_div: Integral inputs not supported.')
    if log_target:
        output = _ops.exp(target) * (target - input)
    else:
        from ._ops_math import xlogy
        product = target * input        # (made first, as PyTorch's C++ does: the xlogy's node runs first in backward)
        output = xlogy(target, target) - product
    return F._apply_loss_reduction(output, reduction)


# ================================================================================================ the rest

def constant_pad_nd(input, pad, value=0):
    from ._ops_conv import constant_pad
    pad = tuple(pad)
    if len(pad) % 2:
        raise RuntimeError('Length of pad must be even but instead it equals %d' % len(pad))
    if len(pad) // 2 > input.dim():
        raise RuntimeError('Length of pad should be no more than twice the number of dimensions of the input. Pad '
                           'length is %dwhile the input has %ddimensions.' % (len(pad), input.dim()))
    return constant_pad(input, pad, value)


def convolution(input, weight, bias, stride, padding, dilation, transposed, output_padding, groups):
    """at::convolution: batched inputs only (conv1d's unbatched ones are the functional's); a bias of None saved
    as None."""
    if not all(isinstance(a, (list, tuple)) for a in (stride, padding, dilation, output_padding)):
        _argparse.signature_parser(*FUNCTIONS['convolution']).check(
            (input, weight, bias, stride, padding, dilation, transposed, output_padding, groups), {})
    nd = weight.dim() - 2
    if input.dim() != weight.dim():
        raise RuntimeError('Expected %d-dimensional input for %d-dimensional weight %s, but got %d-dimensional input '
                           'of size %s instead' % (weight.dim(), weight.dim(), _ops._sizes(weight.shape), input.dim(),
                                                   _ops._sizes(input.shape)))
    out = _convolved(input, weight, bias, stride, padding, dilation, transposed, output_padding, groups, nd)
    if bias is None and out._grad_fn is not None and 'bias_sym_sizes_opt' in out._grad_fn._saved:
        out._grad_fn._saved['bias_sym_sizes_opt'] = None
    return out


def _convolved(input, weight, bias, stride, padding, dilation, transposed, output_padding, groups, nd):
    if transposed:
        from . import _ops_vision
        return getattr(_ops_vision, 'conv_transpose%dd' % nd)(input, weight, bias, stride, padding, output_padding,
                                                              groups, dilation)
    from . import _ops_conv
    return getattr(_ops_conv, 'conv%dd' % nd)(input, weight, bias, stride, padding, dilation, groups)


def _cell(mode):
    def f(input, hx, w_ih, w_hh, b_ih=None, b_hh=None):
        from ._ops_rnn import cell
        return cell(mode, input, hx, w_ih, w_hh, b_ih, b_hh)
    f.__name__ = f.__qualname__ = mode.lower() + '_cell'
    return f


rnn_tanh_cell, rnn_relu_cell, lstm_cell, gru_cell = (_cell(m) for m in ('RNN_TANH', 'RNN_RELU', 'LSTM', 'GRU'))


class ChannelShuffleBackward0(Node):
    def apply(self, g):
        """The shuffle undone: a shuffle into C / groups groups (differentiable: its own node again)."""
        return (channel_shuffle(g, g.shape[1] // self._saved['groups']),)


def _check_shuffle(input, groups):
    if input.dim() <= 2:
        raise RuntimeError('channel_shuffle expects input with > 2 dims, but got input with sizes %s'
                           % _ops._sizes(input.shape))
    c = input.shape[1]
    if groups <= 0:
        raise RuntimeError('Number of groups to divide channels in must be positive. Value of groups:%d' % groups)
    if c % groups:
        raise RuntimeError('Number of channels must be divisible by groups. Got %d channels and %d groups.'
                           % (c, groups))


def _shuffled(input, groups):
    x = input._data
    n, c = x.shape[0], x.shape[1]
    return np.ascontiguousarray(x.reshape((n, groups, c // groups) + x.shape[2:]).swapaxes(1, 2)).reshape(x.shape)


def channel_shuffle(input, groups):
    """(N, C, *) with its channels split in `groups` and interleaved (one ChannelShuffleBackward0 node)."""
    groups = operator.index(groups)             # (a 0-d integer tensor too, as a SymInt)
    _check_shuffle(input, groups)
    return _ops._attach(make(_shuffled(input, groups)), ChannelShuffleBackward0, (input,), {'groups': groups})


def native_channel_shuffle(input, groups):
    groups = operator.index(groups)
    _check_shuffle(input, groups)
    return _ops._not_implemented(make(_shuffled(input, groups)), input, 'aten::native_channel_shuffle')


_argparse.FUNCTIONS.update(FUNCTIONS)


# ================================================================================================ math

__all__ += ['gcd', 'gcd_', 'lcm', 'lcm_', 'frexp', 'ldexp_', 'gradient', 'cumulative_trapezoid', 'vander',
            'combinations', 'renorm', 'mvlgamma', 'igamma', 'igammac', 'matrix_exp', 'histogram', 'histogramdd']
_ops_nn.return_types.frexp = _ops_nn._return_type('frexp', ('mantissa', 'exponent'))
_ops_nn.return_types.histogram = _ops_nn._return_type('histogram', ('hist', 'bin_edges'))
_ops_nn.return_types.histogram_out = _ops_nn._return_type('histogram_out', ('hist', 'bin_edges'))
_ops_nn.return_types.histogramdd = _ops_nn._return_type('histogramdd', ('hist', 'bin_edges'))


def _gcd_op(np_fn, name):
    def f(input, other):
        if not isinstance(other, Tensor):
            raise TypeError(name)
        a, b, d, _ = _ops._operands(input, other)
        if d.is_floating_point or d is dt.bool_:
            raise NotImplementedError('"%s_cpu" not implemented for \'%s\'' % (name, d.legacy))
        with np.errstate(all='ignore'):
            return _ops._out(_ops._iter_laid_out(np_fn(a, b), a, b), d)
    f.__name__ = f.__qualname__ = name
    return f


def _lcm(a, b):
    """PyTorch's kernel: abs(a / gcd * b), wrapping around as C does (0 where the gcd is 0)."""
    g = np.gcd(a, b)
    safe = np.where(g == 0, 1, g)
    return np.where(g == 0, 0, np.abs(a // safe * b))


gcd, lcm = _gcd_op(np.gcd, 'gcd'), _gcd_op(_lcm, 'lcm')


def _gcd_inplace(name):
    from . import _methods
    inplace = _methods._cast_checked(_methods._inplace_of(globals()[name]))

    def f(input, other):
        if not isinstance(other, Tensor):
            raise TypeError('%s_' % name)
        return inplace(input, other)
    f.__name__ = f.__qualname__ = name + '_'
    return f


gcd_, lcm_ = _gcd_inplace('gcd'), _gcd_inplace('lcm')


class FrexpBackward0(Node):
    def apply(self, g):                     # grad / exponent.exp2()
        return (g / self.saved('exponent').exp2(),)


def frexp(input):
    x = input._data
    if x.dtype.kind != 'f':
        raise RuntimeError('torch.frexp() only supports floating-point dtypes')
    mantissa, exponent = np.frexp(x)
    exponent = make(np.asarray(exponent, np.int32))
    out = _ops._attach(make(np.asarray(mantissa, x.dtype)), FrexpBackward0, (input,),
                       {'exponent': SavedTensor(exponent)})
    return _ops_nn.return_types.frexp(out, exponent)


def ldexp_(input, other):
    return input.ldexp_(other)


# ------------------------------------------------------------------------------------------------ gradient

def _gradient_checks(input, spacing_size, dims, edge_order):
    if input.dtype is dt.uint8:
        raise RuntimeError('torch.gradient does not support uint8 input.')
    if spacing_size is not None and dims is None and spacing_size != input.dim():
        raise RuntimeError("torch.gradient expected spacing to be unspecified, a scalar, or a list of length equal "
                           "to 'self.dim() = %d', since dim argument was not given, but got a list of length %d"
                           % (input.dim(), spacing_size))
    if spacing_size is not None and dims is not None and spacing_size != len(dims):
        raise RuntimeError("torch.gradient expected spacing to be unspecified, a scalar or it's spacing and dim "
                           "arguments to have the same length, but got a spacing argument of length %d and a dim "
                           "argument of length %d." % (spacing_size, len(dims)))
    if edge_order not in (1, 2):
        raise RuntimeError('torch.gradient only supports edge_order=1 and edge_order=2.')
    if dims is not None:
        seen = set()
        for d in dims:
            w = _wrap_dim(d, input.dim())
            if w in seen:
                raise RuntimeError('dim %d appears multiple times in the list of dims' % w)
            seen.add(w)
    for d in (range(input.dim()) if dims is None else dims):
        if input.shape[d] < edge_order + 1:
            raise RuntimeError('torch.gradient expected each dimension size to be at least edge_order+1')


def _sl(t, d, start, end=None):
    return t[(slice(None),) * d + (slice(start, end),)]


def _scaled_gradient(x, d, h, edge_order):
    """gradient_helper_float: spacing h (a number) along dim d."""
    div, mul = _ops._div_scalar, _ops._mul_scalar       # (C++'s tensor / double: div.Scalar, DivBackward1)
    if not x.is_floating_point() and x.dtype is not dt.bool_:    # (integers divided by a double: float)
        x = x.to(dt.default_float)
    center = div(_sl(x, d, 2) - _sl(x, d, 0, -2), h)
    if edge_order == 1:
        prepend = div(_sl(x, d, 1, 2) - _sl(x, d, 0, 1), h)
        append = div(_sl(x, d, -1) - _sl(x, d, -2, -1), h)
    else:
        prepend = div(mul(_sl(x, d, 0, 1), -1.5) + mul(_sl(x, d, 1, 2), 2) - mul(_sl(x, d, 2, 3), 0.5), h)
        append = div(mul(_sl(x, d, -3, -2), 0.5) + mul(_sl(x, d, -2, -1), -2) + mul(_sl(x, d, -1), 1.5), h)
    return _ops.cat([prepend, div(center, 2), append], d)


def _coordinate_gradient(x, d, coords, edge_order):
    """gradient_helper: coordinates (a 1-d tensor) along dim d."""
    if coords.dim() != 1:
        raise RuntimeError('torch.gradient expected each element of spacing to have one dimension, but got an element '
                           'with %d dimensions!' % coords.dim())
    shape = [1] * x.dim()
    shape[d] = -1
    ax_dx = coords.diff(1, 0)
    dx1, dx2 = _sl(ax_dx, 0, 0, -1), _sl(ax_dx, 0, 1)
    a = (-dx2 / (dx1 * (dx1 + dx2))).reshape(shape)
    b = ((dx2 - dx1) / (dx1 * dx2)).reshape(shape)
    c = (dx1 / (dx2 * (dx1 + dx2))).reshape(shape)
    center = a * _sl(x, d, 0, -2) + b * _sl(x, d, 1, -1) + c * _sl(x, d, 2)
    if edge_order == 1:
        prepend = (_sl(x, d, 1, 2) - _sl(x, d, 0, 1)) / ax_dx[0]
        append = (_sl(x, d, -1) - _sl(x, d, -2, -1)) / ax_dx[-1]
    else:
        h0, h1 = ax_dx[0], ax_dx[1]
        a = -(_ops._mul_scalar(h0, 2.0) + h1) / (h0 * (h0 + h1))
        b = (h0 + h1) / (h0 * h1)
        c = (-h0) / (h1 * (h0 + h1))
        prepend = a * _sl(x, d, 0, 1) + b * _sl(x, d, 1, 2) + c * _sl(x, d, 2, 3)
        h0, h1 = ax_dx[-1], ax_dx[-2]
        a = h0 / (h1 * (h0 + h1))
        b = -(h0 + h1) / (h0 * h1)
        c = (_ops._mul_scalar(h0, 2) + h1) / (h0 * (h0 + h1))
        append = a * _sl(x, d, -3, -2) + b * _sl(x, d, -2, -1) + c * _sl(x, d, -1)
    return _ops.cat([prepend, center, append], d)


def gradient(input, *, spacing=None, dim=None, edge_order=1):
    """torch.gradient: the second-order central differences of input along each dim (one-sided at the edges, of
    first or second order), a tuple of one tensor per dim; spacing a number, numbers (one per dim) or coordinates
    (1-d tensors, one per dim)."""
    dims = None if dim is None else [dim] if isinstance(dim, (int, np.integer)) else list(dim)
    if spacing is None or isinstance(spacing, (int, float, np.number)) and not isinstance(spacing, bool):
        h = 1.0 if spacing is None else spacing
        n = input.dim() if dims is None else len(dims)
        spacing, size = [h] * n, None
    else:
        spacing = list(spacing)
        size = len(spacing)
    _gradient_checks(input, size, dims, edge_order)
    dims = list(range(input.dim())) if dims is None else [d % input.dim() for d in dims]
    out = []
    for d, h in zip(dims, spacing):
        if isinstance(h, Tensor):
            out.append(_coordinate_gradient(input, d, h, edge_order))
        else:
            out.append(_scaled_gradient(input, d, h, edge_order))
    return tuple(out)


def cumulative_trapezoid(y, x=None, *, dx=None, dim=-1):
    """The running trapezoid rule, composed as ATen composes it: with coordinates x, ((left + right) * dx).cumsum /
    2 (dx their differences); with a spacing dx, (dx / 2 * (left + right)).cumsum."""
    if x is not None and not isinstance(x, Tensor):
        _argparse.parser('cumulative_trapezoid', True).check((y, x), {'dim': dim} if dx is None else
                                                             {'dx': dx, 'dim': dim})
    if y.dim() == 0:
        raise IndexError('slice() cannot be applied to a 0-dim tensor.')
    d = _wrap_dim(dim, y.dim())
    if isinstance(x, Tensor):
        if y.dtype is dt.bool_ or x.dtype is dt.bool_:
            raise RuntimeError('cumulative_trapezoid: received a bool input for `x` or `y`, but bool is not supported')
        if x.dim() == 1:
            if x.shape[0] != y.shape[d]:
                raise RuntimeError('cumulative_trapezoid: There must be one `x` value for each sample point')
            sizes = [1] * y.dim()
            sizes[d] = x.shape[0]
            x = x.view(sizes)
        elif x.dim() < y.dim():
            x = x.view((1,) * (y.dim() - x.dim()) + tuple(x.shape))
        spacing = _sl(x, d, 1) - _sl(x, d, 0, -1)
        summed = ((_sl(y, d, 0, -1) + _sl(y, d, 1)) * spacing).cumsum(dim)
        return _ops._div_scalar(summed if summed.is_floating_point() else summed.to(dt.default_float), 2.)
    dx = 1 if dx is None else dx
    if y.dtype is dt.bool_:
        raise RuntimeError('cumulative_trapezoid: received a bool input for `y`, but bool is not supported')
    if isinstance(dx, (bool, complex)):
        raise RuntimeError('cumulative_trapezoid: Currently, we only support dx as a real number.')
    return _ops._mul_scalar(_sl(y, d, 0, -1) + _sl(y, d, 1), dx / 2.).cumsum(dim)


def vander(x, N=None, increasing=False):
    """Powers of x in columns (x^(N-1) ... x^0, or from x^0 with increasing), composed as ATen composes it: ones,
    x copied into the other columns, their cumprod copied back (CopySlices), flipped unless increasing."""
    if x.dim() != 1:
        raise RuntimeError('x must be a one-dimensional tensor.')
    n = x.shape[0] if N is None else N
    if n < 0:
        raise RuntimeError('N must be non-negative.')
    from ._factories import empty
    result = empty((x.shape[0], n), dtype=dt.promote_types(x.dtype, dt.int64))
    if n > 0:
        result.select(1, 0).fill_(1)
        if n > 1:
            result[:, 1:].copy_(x.unsqueeze(1))
            result[:, 1:].copy_(_ops.cumprod(result[:, 1:], 1))
    return _ops.flip(result, (1,)) if not increasing else result


def combinations(input, r=2, with_replacement=False):
    """Each r-element combination of a 1-d input's elements (with repeats when with_replacement), as rows:
    meshgrid of r copies, each masked by the index order, stacked (ATen's composition)."""
    if input.dim() != 1:
        raise RuntimeError('Expect a 1D vector, but got shape %s' % _ops._sizes(input.shape))
    if r < 0:
        raise RuntimeError('Expect a non-negative number, but got %d' % r)
    if r == 0:
        from ._factories import empty
        return empty((0,), dtype=input.dtype)
    from ._ops_index import meshgrid, masked_select
    n = input.shape[0]
    grids = meshgrid(*([input] * r), indexing='ij')
    idx = np.indices((n,) * r) if r else None
    mask = np.ones((n,) * r, bool)
    for i in range(r - 1):
        mask &= idx[i] <= idx[i + 1] if with_replacement else idx[i] < idx[i + 1]
    mask = make(mask)
    return _ops.stack([masked_select(g, mask) for g in grids], 1)


# ------------------------------------------------------------------------------------------------ renorm

class RenormBackward0(Node):
    def apply(self, g):
        x = self.saved('self')
        p, dim, maxnorm = self._saved['p'], _ops._signed(self._saved['dim']), self._saved['maxnorm']
        return (_renorm_backward(g, x, p, dim, maxnorm),)


def _reduce_dims(x, dim):
    return [i for i in range(x.dim()) if i != dim % x.dim()]


def _renorm_backward(g, x, p, dim, maxnorm):
    """PyTorch's renorm_backward, op for op."""
    from .linalg import vector_norm
    dims = _reduce_dims(x, dim)
    norm = vector_norm(x, p, dims, True)
    grad_output = (x * g).sum(dims, keepdim=True)
    nb = _norm_backward(grad_output, x, p, norm)
    invnorm = _ops._add_scalar(norm, 1e-7).reciprocal()
    factor = _ops._mul_scalar(invnorm, maxnorm)
    return _ops_nn.where(norm > maxnorm, factor * g - _ops._mul_scalar(invnorm * invnorm, maxnorm) * nb, g)


def _norm_backward(g, x, p, norm):
    p = float(p)
    if p == 0:
        return _ops._zeros_like(x)
    if p == 1:
        return x.sgn() * g
    if p == 2:
        return x * (g / norm).masked_fill_(norm == 0, 0)
    if math.isinf(p):                       # (the gradient shared by the elements at the norm)
        mask = (x.abs() == norm).to(x.dtype)
        dims = [i for i in range(x.dim()) if norm.shape[i] == 1]
        return x.sgn() * (g / mask.sum(dims, keepdim=True)) * mask
    scale = x.abs().pow(p - 2) if p >= 2 else x.abs().pow(p - 2).masked_fill_(x == 0, 0)
    return (x * scale * g / norm.pow(p - 1)).masked_fill_(norm == 0, 0)


def _renorm_checks(input, p, dim, maxnorm):
    if isinstance(p, complex) or p <= 0:
        raise RuntimeError('renorm: non-positive-norm not supported')
    if maxnorm < 0:
        raise RuntimeError('renorm: expected maxnorm to be >= 0 but got %s' % _fmt(_ops._number(maxnorm)))
    if input.dim() <= 1:
        raise RuntimeError('renorm: input needs at least 2 dimensions, got %d dimensions' % input.dim())
    _wrap_dim(dim, input.dim())


def renorm(input, p, dim, maxnorm):
    """Each slice along dim (its other dims' elements) with a p-norm above maxnorm scaled down to maxnorm (by
    maxnorm / (norm + 1e-7)). One RenormBackward0 node."""
    _renorm_checks(input, p, dim, maxnorm)
    from .linalg import vector_norm
    d = _wrap_dim(dim, input.dim())
    with ag.no_grad():
        acc = dt.float32 if input.dtype is dt.float16 else None        # (the norm in float for halves)
        norm = vector_norm(input, p, _reduce_dims(input, d), True, dtype=acc)
        x = input._data
        n = norm._data
        factor = np.where(n > maxnorm, (maxnorm / (n.astype(np.float64) + 1e-7)), 1.0).astype(x.dtype)
        out = x * factor
    return _ops._attach(make(np.asarray(out, x.dtype)), RenormBackward0, (input,),
                        {'dim': _ops._given(dim), 'maxnorm': _ops._number(maxnorm), 'p': _ops._number(p),
                         'self': SavedTensor(input)})


# ------------------------------------------------------------------------------------------------ gamma functions

class MvlgammaBackward0(Node):
    def apply(self, g):                     # grad * (arange(-p/2 + 0.5, 0.5, 0.5) + self[..., None]).digamma().sum(-1)
        x, p = self.saved('self'), self._saved['p']
        args = make(np.arange(-p / 2. + 0.5, 0.5, 0.5).astype(x._data.dtype)) + x.unsqueeze(-1)
        return (g * args.digamma().sum(-1),)


def mvlgamma(input, p):
    """The multivariate log-gamma of dimension p: sum of lgamma(x - i / 2) for i < p, plus p (p - 1) / 4 log(pi)."""
    if input.dtype is dt.bool_:
        raise RuntimeError('The input tensor may not be a boolean tensor.')
    if p < 1:
        raise RuntimeError('p has to be greater than or equal to 1')
    x = input if input.is_floating_point() else input.to(dt.default_float)
    with ag.no_grad():
        args = make(np.arange(-p / 2. + 0.5, 0.5, 0.5).astype(x._data.dtype)) + x.unsqueeze(-1)
        out = _ops._add_scalar(args.lgamma().sum(-1), p * (p - 1) * math.log(math.pi) * 0.25)
    return _ops._attach(make(out._data), MvlgammaBackward0, (input,), {'p': p, 'self': SavedTensor(input)})


def _igamma_scalar(a, x, upper):
    """The regularized lower (upper) incomplete gamma function P(a, x) (Q(a, x)) of two floats."""
    if math.isnan(a) or math.isnan(x):
        return math.nan
    if a < 0 or x < 0:
        return math.nan
    if a == 0:
        if x > 0:
            return 0.0 if upper else 1.0
        return math.nan
    if x == 0:
        return 1.0 if upper else 0.0
    if math.isinf(a):
        if math.isinf(x):
            return math.nan
        return 1.0 if upper else 0.0
    if math.isinf(x):
        return 0.0 if upper else 1.0
    log_front = a * math.log(x) - x - math.lgamma(a)
    if x < a + 1:                           # the series of P
        term = total = 1.0 / a
        ap = a
        for _ in range(10000):
            ap += 1
            term *= x / ap
            total += term
            if abs(term) < abs(total) * 1e-17:
                break
        lower = total * math.exp(log_front)
        return 1.0 - lower if upper else lower
    b = x + 1 - a                           # the continued fraction of Q (Lentz)
    c = 1.0 / 1e-300
    d = 1.0 / b
    h = d
    for i in range(1, 10000):
        an = -i * (i - a)
        b += 2
        d = an * d + b
        d = 1e-300 if abs(d) < 1e-300 else d
        c = b + an / c
        c = 1e-300 if abs(c) < 1e-300 else c
        d = 1.0 / d
        delta = d * c
        h *= delta
        if abs(delta - 1) < 1e-16:
            break
    q = math.exp(log_front) * h
    return q if upper else 1.0 - q


def _igamma_values(a, x, upper):
    f = np.frompyfunc(lambda u, v: _igamma_scalar(float(u), float(v), upper), 2, 1)
    return np.asarray(f(a.astype(np.float64), x.astype(np.float64)), np.float64)     # (a 0-d one gives a float)


class IgammaBackward0(Node):
    _name = 'igamma'

    def apply(self, g):
        if self.needs(0):
            raise NotImplementedError("the derivative for '%s: input' is not implemented." % self._name)
        a, x = self.saved('self'), self.saved('other')
        # grad * exp((self - 1) * log(other) - other - lgamma(self)) (negated for igammac)
        d = (_ops._sub_scalar(a, 1) * x.log() - x - a.lgamma()).exp()
        d = g * d if self._name == 'igamma' else -g * d
        return None, d


class IgammacBackward0(IgammaBackward0):
    _name = 'igammac'


def _igamma(name, cls, upper):
    def f(input, other):
        if not isinstance(other, Tensor):
            raise TypeError(name)
        a, b, d, _ = _ops._operands(input, other)
        if not d.is_floating_point:
            raise NotImplementedError('"%s_cpu" not implemented for \'%s\'' % (name, d.legacy))
        shape = np.broadcast_shapes(np.shape(a), np.shape(b))
        out = _igamma_values(np.broadcast_to(a, shape), np.broadcast_to(b, shape), upper).astype(d.np)
        saved = {'other': None, 'self': None}
        if other.requires_grad:
            saved = {'other': SavedTensor(other), 'self': SavedTensor(input)}
        return _ops._attach(make(np.asarray(out)), cls, (input, other), saved)
    f.__name__ = f.__qualname__ = name
    return f


igamma = _igamma('igamma', IgammaBackward0, False)
igammac = _igamma('igammac', IgammacBackward0, True)


# ------------------------------------------------------------------------------------------------ matrix_exp

def _expm(a):
    """exp of each square matrix of a (numpy, float32 or float64): scaling and squaring with the [13/13] Pade
    approximant (Higham 2005)."""
    dtype = a.dtype
    a = a.astype(np.float64)
    n = a.shape[-1]
    out = np.empty_like(a)
    if not a.size:
        return out.astype(dtype)
    b = (64764752532480000., 32382376266240000., 7771770303897600., 1187353796428800., 129060195264000.,
         10559470521600., 670442572800., 33522128640., 1323241920., 40840800., 960960., 16380., 182., 1.)
    eye = np.eye(n)
    flat, res = a.reshape(-1, n, n), out.reshape(-1, n, n)
    for k in range(flat.shape[0]):
        m = flat[k]
        norm = np.abs(m).sum(0).max() if n else 0.0
        s = max(0, int(math.ceil(math.log2(norm / 5.371920351148152)))) if norm > 5.371920351148152 else 0
        m = m / (2 ** s)
        m2 = m @ m
        m4 = m2 @ m2
        m6 = m4 @ m2
        u = m @ (m6 @ (b[13] * m6 + b[11] * m4 + b[9] * m2) + b[7] * m6 + b[5] * m4 + b[3] * m2 + b[1] * eye)
        v = m6 @ (b[12] * m6 + b[10] * m4 + b[8] * m2) + b[6] * m6 + b[4] * m4 + b[2] * m2 + b[0] * eye
        r = np.linalg.solve(v - u, v + u) if n else v
        for _ in range(s):
            r = r @ r
        res[k] = r
    return out.astype(dtype)


class LinalgMatrixExpBackward0(Node):
    def apply(self, g):
        """PyTorch's differential_analytic_matrix_function: exp of [[A^H, G], [0, A^H]], its upper right block."""
        a = self.saved('self')
        n = a.shape[-1]
        at = a.mT
        zeros = _ops._zeros_like(at)
        top = _ops.cat([at, g], -1)
        bottom = _ops.cat([zeros, at], -1)
        big = matrix_exp(_ops.cat([top, bottom], -2))
        return (big[..., :n, n:],)


def matrix_exp(input):
    """exp(A) of each square matrix (LinalgMatrixExpBackward0)."""
    name = 'linalg.matrix_exp'
    if input.dim() < 2:
        raise RuntimeError('%s: The input tensor A must have at least 2 dimensions.' % name)
    if input.shape[-1] != input.shape[-2]:
        raise RuntimeError('%s: A must be batches of square matrices, but they are %d by %d matrices'
                           % (name, input.shape[-2], input.shape[-1]))
    if not input.is_floating_point():
        raise RuntimeError('%s: Expected a floating point or complex tensor as input. Got %s'
                           % (name, input.dtype.legacy))
    x = input._data
    if x.dtype == np.float16:
        raise RuntimeError('"linalg_matrix_exp" not implemented for \'Half\'')
    out = _expm(x)
    return _ops._attach(make(out), LinalgMatrixExpBackward0, (input,), {'self': SavedTensor(input)})


# ------------------------------------------------------------------------------------------------ histograms

def _edges_of(col, nbins, rng, dim, dtype):
    if nbins <= 0:
        raise RuntimeError('torch.histogram(): bins must be > 0, but got %d for dimension %d' % (nbins, dim))
    if rng is not None:
        lo, hi = rng
    elif col.size:
        lo, hi = float(col.min()), float(col.max())
    else:
        lo, hi = 0.0, 1.0
    if lo > hi:
        raise RuntimeError('torch.histogramdd: min should not exceed max, but got min %s max %s for dimension %d'
                           % (_fmt(lo), _fmt(hi), dim))
    if not (math.isfinite(lo) and math.isfinite(hi)):
        raise RuntimeError("torch.histogramdd: dimension %d's range [%s, %s] is not finite" % (dim, _fmt(lo), _fmt(hi)))
    if lo == hi:
        lo -= 0.5
        hi += 0.5
    from ._factories import linspace
    return linspace(lo, hi, nbins + 1, dtype=dtype)._data


def _fmt(v):
    """A double as C++'s stream prints it (-1, 0.5, inf, nan)."""
    v = float(v)
    if math.isnan(v) or math.isinf(v):
        return str(v)
    return str(int(v)) if v.is_integer() else '%g' % v


def _check_weight(pts, weight):
    if weight is not None and tuple(weight.shape) != pts.shape[:-1]:
        raise RuntimeError('torch.histogramdd: if weight tensor is provided it should have the same shape as the input '
                           'tensor excluding its innermost dimension, but got input with shape %s and weight with '
                           'shape %s' % (_ops._sizes(pts.shape), _ops._sizes(weight.shape)))


def _histogramdd(x, edges, weight, density):
    """The counts (weighted) of the rows of x (N, D) in the bins of edges (one array per dim): a value in
    [e[i], e[i+1]) goes in bin i, the last bin also takes its right edge; values outside are left out."""
    n, dims = x.shape
    keep = np.ones(n, bool)
    idx = []
    for d in range(dims):
        e = edges[d]
        col = x[:, d]
        pos = np.searchsorted(e, col, side='right') - 1
        pos = np.where(col == e[-1], len(e) - 2, pos)
        keep &= (col >= e[0]) & (col <= e[-1]) & (pos >= 0) & (pos < len(e) - 1)
        idx.append(pos)
    shape = tuple(len(e) - 1 for e in edges)
    hist = np.zeros(shape, np.float64)
    w = np.ones(n) if weight is None else weight.astype(np.float64)
    if n:
        np.add.at(hist, tuple(i[keep] for i in idx), w[keep])
    if density:
        total = hist.sum()
        widths = np.ones(shape)
        for d, e in enumerate(edges):
            wd = np.diff(e.astype(np.float64))
            widths = widths * wd.reshape((1,) * d + (-1,) + (1,) * (dims - d - 1))
        hist = hist / total / widths
    return hist


def _not_implemented(op, inputs, outs):
    """outs recorded as outputs of a node PyTorch writes no derivative for (NotImplemented, naming aten::op); its
    edges go to the inputs that require grad only."""
    inputs = tuple(t for t in inputs if isinstance(t, Tensor) and t.requires_grad)
    if ag.grad_enabled and inputs:
        node = ag.record(None, _ops.NotImplementedBackward, inputs, {})
        node.op, node.num_outputs = 'aten::' + op, len(outs)
        for i, t in enumerate(outs):
            t._grad_fn, t._requires_grad, t._output_nr = node, True, i
    return outs


def _histogram_dtype(input):
    if input.dtype not in (dt.float32, dt.float64):
        raise NotImplementedError('"histogramdd" not implemented for \'%s\'' % input.dtype.legacy)


def histogramdd(input, bins, range=None, weight=None, density=False):
    """torch.histogramdd: the last dim of input holds each point's coordinates; bins an int, ints (one per dim) or
    tensors of edges; range the (min, max) pairs flattened."""
    _histogram_dtype(input)
    x = input._data
    dims = x.shape[-1] if x.ndim else 1
    pts = x.reshape(-1, dims)
    if weight is not None and tuple(weight.shape) != x.shape[:-1]:
        _check_weight(x, weight)
    if isinstance(bins, (list, tuple)) and len(bins) != dims:
        raise RuntimeError('histogramdd: The size of bins must be equal to the innermost dimension of the input.')
    if isinstance(bins, (list, tuple)) and bins and isinstance(bins[0], Tensor):
        edges = [b._data.astype(x.dtype) for b in bins]
    else:
        counts = [bins] * dims if isinstance(bins, (int, np.integer)) else list(bins)
        rngs = [None] * dims if range is None else [tuple(range[2 * i:2 * i + 2]) for i in builtins.range(dims)]
        edges = [_edges_of(pts[:, d], counts[d], rngs[d], d, input.dtype) for d in builtins.range(dims)]
    hist = _histogramdd(pts, edges, None if weight is None else weight._data.reshape(-1), density)
    hist, edges = make(hist.astype(x.dtype)), [make(e) for e in edges]
    if ag.grad_enabled and input._requires_grad:
        flat = input.reshape(-1, dims)
        tensor_bins = isinstance(bins, (list, tuple)) and bins and isinstance(bins[0], Tensor)
        if not tensor_bins:
            _not_implemented('_histogramdd_bin_edges', (flat,), edges)
        _not_implemented('_histogramdd_from_bin_tensors' if tensor_bins else '_histogramdd_from_bin_cts',
                         (flat,), [hist])
    return _ops_nn.return_types.histogramdd(hist, tuple(edges))


def histogram(input, bins=100, *, range=None, weight=None, density=False, out=None):
    """torch.histogram of the flattened input: (hist, bin_edges), bins a count (edges over range, or the data's min
    to max) or a 1-d tensor of edges."""
    if out is not None:                         # (out='s dtypes: checked first)
        if len(out) != 2:
            raise TypeError('expected tuple of 2 elements but got %d' % len(out))
        for o, what, more in ((out[0], 'hist', ''), (out[1], 'bin_edges', ' for dimension 0')):
            if isinstance(o, Tensor) and o.dtype is not input.dtype:
                raise RuntimeError('torch.histogram: input tensor and %s tensor should have the same dtype, but got '
                                   'input %s and %s %s%s' % (what, dt.C_NAMES[input.dtype.name], what,
                                                             dt.C_NAMES[o.dtype.name], more))
    _histogram_dtype(input)
    if isinstance(bins, Tensor) and bins.dtype is not input.dtype:
        raise RuntimeError('torch.histogramdd: input tensor and bins tensors should have the same dtype, but got input '
                           'with dtype %s and bins for dimension 0 with dtype %s'
                           % (dt.C_NAMES[input.dtype.name], dt.C_NAMES[bins.dtype.name]))
    x = input._data
    flat = x.reshape(-1, 1)
    _check_weight(flat, None if weight is None else weight.reshape(-1) if weight.shape == input.shape else weight)
    if isinstance(bins, Tensor):
        edges = [bins._data.astype(x.dtype)]
    else:
        edges = [_edges_of(flat[:, 0], bins, None if range is None else tuple(range), 0, input.dtype)]
    hist = _histogramdd(flat, edges, None if weight is None else weight._data.reshape(-1), density)
    outs = [make(hist.astype(x.dtype)), make(edges[0])]
    if out is not None:                 # (written into out's tensors, resized: histogram_out's namedtuple)
        from ._methods import _warn_resized
        inputs = (input, bins, weight) + tuple(out)
        for o, r in reversed(tuple(zip(out, outs))):        # (bin_edges resized first)
            _warn_resized(o, r.shape)
            o._data = r._data.astype(o._data.dtype)
            ag.bump(o)
        _not_implemented('histogram', inputs, list(out))      # (with edges to the out tensors' history too)
        for o in out:
            if o._grad_fn is not None:
                o._output_nr = 0                # (as PyTorch records an out=: each as the node's output 0)
        return _ops_nn.return_types.histogram_out(*out)
    _not_implemented('histogram', (input, bins, weight), outs)
    return _ops_nn.return_types.histogram(*outs)


FUNCTIONS2 = {
    'gcd': ['gcd(Tensor input, Tensor other, *, Tensor out=None)'],
    'lcm': ['lcm(Tensor input, Tensor other, *, Tensor out=None)'],
    'gcd_': ['gcd_(Tensor input, Tensor other)'], 'lcm_': ['lcm_(Tensor input, Tensor other)'],
    'igamma': ['igamma(Tensor input, Tensor other, *, Tensor out=None)'],
    'igammac': ['igammac(Tensor input, Tensor other, *, Tensor out=None)'],
    'frexp': ['frexp(Tensor input, *, TensorList[2] out=None)'],
    'ldexp_': ['ldexp_(Tensor input, Tensor other)'],
    'vander': ['vander(Tensor x, SymInt? N=None, bool increasing=False)'],
    'combinations': ['combinations(Tensor input, int64_t r=2, bool with_replacement=False)'],
    'renorm': ['renorm(Tensor input, Scalar p, int64_t dim, Scalar maxnorm, *, Tensor out=None)'],
    'mvlgamma': ['mvlgamma(Tensor input, int64_t p, *, Tensor out=None)'],
    'matrix_exp': ['matrix_exp(Tensor input)'],
    'gradient': ['gradient(Tensor input, *, IntArrayRef dim, int64_t edge_order=1)',
                 'gradient(Tensor input, *, Scalar spacing, IntArrayRef dim, int64_t edge_order=1)',
                 'gradient(Tensor input, *, Scalar? spacing=None, int64_t? dim=None, int64_t edge_order=1)',
                 'gradient(Tensor input, *, ScalarList spacing, int64_t? dim=None, int64_t edge_order=1)',
                 'gradient(Tensor input, *, ScalarList spacing, IntArrayRef dim, int64_t edge_order=1)',
                 'gradient(Tensor input, *, TensorList spacing, int64_t? dim=None, int64_t edge_order=1)',
                 'gradient(Tensor input, *, TensorList spacing, IntArrayRef dim, int64_t edge_order=1)'],
    'cumulative_trapezoid': ['cumulative_trapezoid(Tensor y, Tensor x, *, int64_t dim=-1)',
                             'cumulative_trapezoid(Tensor y, *, Scalar dx=1, int64_t dim=-1)'],
}
METHODS2 = {
    'gcd': ['gcd(Tensor other)'], 'lcm': ['lcm(Tensor other)'], 'gcd_': ['gcd_(Tensor other)'],
    'lcm_': ['lcm_(Tensor other)'], 'igamma': ['igamma(Tensor other)'], 'igammac': ['igammac(Tensor other)'],
    'igamma_': ['igamma_(Tensor other)'], 'igammac_': ['igammac_(Tensor other)'],
    'renorm': ['renorm(Scalar p, int64_t dim, Scalar maxnorm)'],
    'renorm_': ['renorm_(Scalar p, int64_t dim, Scalar maxnorm)'],
    'mvlgamma': ['mvlgamma(int64_t p)'], 'mvlgamma_': ['mvlgamma_(int64_t p)'],
}
_HISTOGRAM = ['histogram(Tensor input, Tensor bins, *, Tensor? weight=None, bool density=False, TensorList[2] '
              'out=None)',
              'histogram(Tensor input, int64_t bins=100, *, ArrayRef<double>? range=None, Tensor? weight=None, '
              'bool density=False, TensorList[2] out=None)']
FUNCTIONS2['histogram'] = _HISTOGRAM
FUNCTIONS2['histogramdd'] = [
    'histogramdd(Tensor input, int64_t bins, ArrayRef<double>? range=None, Tensor? weight=None, bool density=False)',
    'histogramdd(Tensor input, IntArrayRef bins, ArrayRef<double>? range=None, Tensor? weight=None, '
    'bool density=False)',
    'histogramdd(Tensor input, TensorList bins, ArrayRef<double>? range=None, Tensor? weight=None, '
    'bool density=False)']
METHODS2['histogram'] = [sig.replace('Tensor input, ', '') for sig in _HISTOGRAM]
_argparse.FUNCTIONS.update(FUNCTIONS2)
_argparse.NO_ARGUMENTS = _argparse.NO_ARGUMENTS | {'frexp', 'matrix_exp'}
_argparse.METHODS.update(METHODS2)


def _install_methods():
    from . import _methods
    for name in ('gcd', 'lcm', 'igamma', 'igammac', 'renorm', 'mvlgamma'):
        fn = globals()[name]
        setattr(Tensor, name, fn)
        setattr(Tensor, name + '_', _methods._cast_checked(_methods._inplace_of(fn))
                if name in ('gcd', 'lcm', 'igamma', 'igammac') else _methods._inplace_of(fn))
    mvlgamma_ = Tensor.mvlgamma_

    def mvlgamma_inplace(self, p):
        if self.dtype is not dt.bool_ and not self.is_floating_point():      # (its float result can't go in)
            raise RuntimeError("mvlgamma: result type %s can't be cast to the desired output type %s"
                               % (self.dtype.legacy, dt.default_float.legacy))
        return mvlgamma_(self, p)
    mvlgamma_inplace.__name__ = mvlgamma_inplace.__qualname__ = 'mvlgamma_'
    Tensor.mvlgamma_ = mvlgamma_inplace
    Tensor.frexp = frexp
    Tensor.matrix_exp = matrix_exp
    Tensor.histogram = histogram


_install_methods()


# ================================================================================================ index_reduce

_INDEX_REDUCTIONS = ('prod', 'mean', 'amax', 'amin')


class IndexReduceBackward0(Node):
    def apply(self, g):
        s = self._saved
        x, source, index, result = (self.saved(n) for n in ('self', 'source', 'index', 'result'))
        gs, gsrc = _index_reduce_backward(g, x, _ops._signed(s['dim']), index, source, s['reduce'],
                                          s['include_self'], result)
        return (gs if self.needs(0) else None, gsrc if self.needs(1) else None)


def _index_reduce_backward(grad, x, dim, index, source, reduce, include_self, result):
    """PyTorch's index_reduce_backward, op for op."""
    from ._factories import zeros_like, ones_like
    if reduce == 'prod':
        masked_self = x.masked_fill(x == 0, 1)
        masked_self_result = index_reduce(masked_self, dim, index, source, reduce, include_self=include_self)
        grad_self = grad * masked_self_result / masked_self
        src_zero = source == 0
        src_num_zeros = zeros_like(x).index_add(dim, index, src_zero.to(x.dtype)).index_select(dim, index)
        src_single_zero = src_zero & (src_num_zeros == 1)
        masked_src = source.masked_fill(src_single_zero, 1)
        masked_src_result = index_reduce(x, dim, index, masked_src, reduce, include_self=include_self)
        grad_src = _ops_nn.where(src_single_zero, (grad * masked_src_result).index_select(dim, index),
                                 (grad * result).index_select(dim, index) / source.masked_fill(src_zero, 1))
    elif reduce == 'mean':
        n = ones_like(grad) if include_self else zeros_like(grad)
        n = n.index_add(dim, index, ones_like(source))
        n.masked_fill_(n == 0, 1)
        grad_self = grad / n
        grad_src = grad.index_select(dim, index) / n.index_select(dim, index)
    else:
        value = result.index_select(dim, index)
        self_is_result = (x == result).to(x.dtype)
        source_is_result = (source == value).to(x.dtype)
        distributed = grad / self_is_result.index_add(dim, index, source_is_result)
        grad_self = self_is_result * distributed
        grad_src = source_is_result * distributed.index_select(dim, index)
    if not include_self:
        grad_self = grad_self.index_fill(dim, index, 0)
    return grad_self, grad_src


def index_reduce(input, dim, index, source, reduce, *, include_self=True):
    """input with source's slices reduced into the slices index along dim (prod, mean, amax or amin), input's own
    values taking part unless include_self is False. One IndexReduceBackward0 node."""
    from ._tensor import warn_once
    from ._ops_index import _index_func_meta, _shape, _slot, reduce_identity
    warn_once('index_reduce() is in beta and the API may change at any time.',
              'aten/src/ATen/native/TensorAdvancedIndexing.cpp:1523')
    if reduce not in _INDEX_REDUCTIONS:
        raise RuntimeError('index_reduce(): Expected reduce to be one of prod, mean, amax or amin but got %s.'
                           % reduce)
    d = _index_func_meta(input, dim, index, source, 'index_reduce_')
    if input.dtype is dt.bool_ and not include_self:
        raise NotImplementedError('"index_reduce_func_exclude_input_init" not implemented for \'Bool\'')
    idx = index._data.reshape(-1)
    size = _shape(input)[d]
    if idx.size and (idx.min() < 0 or idx.max() >= size):
        raise IndexError('index out of range in self')
    idx = idx.astype(np.intp)
    x = input._data.reshape(_shape(input))
    src = source._data.reshape(_shape(source)).astype(x.dtype)
    out = x.copy()
    key = _slot(out.shape, d, idx)
    if not include_self:
        out[_slot(out.shape, d, np.unique(idx))] = reduce_identity(reduce, out.dtype)
    if reduce == 'prod':
        np.multiply.at(out, key, src)
    elif reduce in ('amax', 'amin') and out.dtype.kind == 'f' and (src == 0).any():
        # (zeros of both signs: PyTorch's kernel keeps what the slot holds on a tie, a NaN taking over)
        ufunc = np.greater if reduce == 'amax' else np.less
        for j, p in enumerate(idx.tolist()):
            slot, v = out[_slot(out.shape, d, slice(p, p + 1))], src[_slot(src.shape, d, slice(j, j + 1))]
            take = (v != v) | ufunc(v, slot)
            slot[take] = v[take]
    elif reduce == 'amax':
        np.maximum.at(out, key, src)
    elif reduce == 'amin':
        np.minimum.at(out, key, src)
    else:
        counts = np.zeros(out.shape[d], np.int64)
        np.add.at(counts, idx, 1)
        if include_self:
            counts += 1
        np.add.at(out, key, src)
        shape = [1] * out.ndim
        shape[d] = -1
        counts = np.maximum(counts, 1).reshape(shape)
        out = out // counts.astype(out.dtype) if out.dtype.kind in 'iub' else (out / counts).astype(out.dtype)
    result = make(np.ascontiguousarray(out).reshape(input._data.shape))
    return _ops._attach(result, IndexReduceBackward0, (input, source), {
        'dim': _ops._given(dim), 'include_self': bool(include_self), 'index': SavedTensor(index), 'reduce': reduce,
        'result': ag.RESULT, 'self': SavedTensor(input),
        'source': SavedTensor(source)})


# ================================================================================================ lu (deprecated forms)

__all__ += ['index_reduce', 'lu', 'lu_unpack', 'lu_solve']
_ops_nn.return_types._lu_with_info = _ops_nn._return_type('_lu_with_info', ('LU', 'pivots', 'info'))
_ops_nn.return_types.lu_unpack = _ops_nn._return_type('lu_unpack', ('P', 'L', 'U'))


def _lu_warning():
    from ._tensor import warn_once
    warn_once('torch.lu is deprecated in favor of torch.linalg.lu_factor / torch.linalg.lu_factor_ex and will be '
              'removed in a future PyTorch release.\nLU, pivots = torch.lu(A, compute_pivots)\nshould be replaced '
              'with\nLU, pivots = torch.linalg.lu_factor(A, compute_pivots)\nand\nLU, pivots, info = torch.lu(A, '
              'compute_pivots, get_infos=True)\nshould be replaced with\nLU, pivots, info = '
              'torch.linalg.lu_factor_ex(A, compute_pivots)', 'aten/src/ATen/native/BatchLinearAlgebra.cpp:2073')


def lu(A, pivot=True, get_infos=False, out=None):
    """torch.lu (Python in PyTorch): torch._lu_with_info's LU and pivots (and info with get_infos), deprecated for
    torch.linalg.lu_factor."""
    from ._ops_linalg import _lu_factor
    _lu_warning()
    LU, pivots, info = _lu_factor(A, pivot, 'torch.lu_factor', False)
    result = _ops_nn.return_types._lu_with_info(LU, pivots, info) if get_infos else (LU, pivots)
    if out is not None:
        for o, r in zip(out, result):
            o.resize_(r.shape).copy_(r)
        return out
    return result


lu.__module__, lu.__qualname__ = 'torch.functional', 'boolean_dispatch.<locals>.fn'   # (as PyTorch's shows)


class LuUnpackBackward0(Node):
    def apply(self, gL, gU):                    # (P is no output of the node: not differentiable)
        s = self._saved
        m, n = s['LU_data_sym_argsize_minus_2'], s['LU_data_sym_argsize_minus_1']
        if gL is None and gU is None:
            return (None,)
        k = min(m, n)
        if m == n:
            if gL is not None and gU is not None:
                u = gU.triu()                   # (first, as ATen's compiled `L.tril(-1) + U.triu()` runs them)
                return (gL.tril(-1) + u,)
            return (gL.tril(-1) if gL is not None else gU.triu(),)
        if m < n:
            a = gU.triu() if gU is not None else None
            lpart = gL.narrow(-1, 0, k).tril(-1) if gL is not None else None
            if a is None:
                from ._factories import zeros
                a = zeros(tuple(gL.shape[:-2]) + (m, n), dtype=gL.dtype)
            if lpart is not None:
                a = _ops.cat([a.narrow(-1, 0, k) + lpart, a.narrow(-1, k, n - k)], -1)
            return (a,)
        a = gL.tril(-1) if gL is not None else None
        upart = gU.narrow(-2, 0, k).triu() if gU is not None else None
        if a is None:
            from ._factories import zeros
            a = zeros(tuple(gU.shape[:-2]) + (m, n), dtype=gU.dtype)
        if upart is not None:
            a = _ops.cat([a.narrow(-2, 0, k) + upart, a.narrow(-2, k, m - k)], -2)
        return (a,)


def lu_unpack(LU_data, LU_pivots, unpack_data=True, unpack_pivots=True):
    """(P, L, U) of a compact LU and its pivots (torch.linalg.lu_factor's): empty tensors for the parts not
    unpacked; L and U outputs of LuUnpackBackward0."""
    from ._ops_linalg import _lu_unpack_np
    if LU_pivots._data.dtype != np.int32:
        raise RuntimeError('torch.lu_unpack: LU_pivots is expected to be a contiguous tensor of torch.int32 dtype.\n'
                           'Note: this function is intended to be used with the output produced by '
                           'torch.linalg.lu_factor')
    if LU_data.dim() < 2:
        raise RuntimeError('torch.lu_unpack: Expected tensor with 2 or more dimensions. Got size: %s instead'
                           % list(LU_data.shape))
    P, L, U = _lu_unpack_np(LU_data._data, LU_pivots._data, unpack_pivots)
    empty = np.zeros(0, LU_data._data.dtype)
    P = make(P if unpack_pivots else empty)
    L, U = (make(L), make(U)) if unpack_data else (make(empty), make(empty.copy()))
    if ag.grad_enabled and LU_data._requires_grad:
        node = ag.record(None, LuUnpackBackward0, (LU_data,), {
            'LU_data_sym_argsize_minus_1': LU_data.shape[-1], 'LU_data_sym_argsize_minus_2': LU_data.shape[-2]})
        node.num_outputs = 2
        for i, t in ((0, L), (1, U)):
            t._grad_fn, t._requires_grad, t._output_nr = node, True, i
    return _ops_nn.return_types.lu_unpack(P, L, U)


def lu_solve(input, LU_data, LU_pivots):
    """torch.lu_solve(B, LU, pivots), deprecated: torch.linalg.lu_solve(LU, pivots, B)."""
    from ._tensor import warn_once
    from ._ops_linalg import linalg_lu_solve
    warn_once('torch.lu_solve is deprecated in favor of torch.linalg.lu_solveand will be removed in a future PyTorch '
              'release.\nNote that torch.linalg.lu_solve has its arguments reversed.\nX = torch.lu_solve(B, LU, '
              'pivots)\nshould be replaced with\nX = torch.linalg.lu_solve(LU, pivots, B)',
              'aten/src/ATen/native/BatchLinearAlgebra.cpp:2230')
    return linalg_lu_solve(LU_data, LU_pivots, input)


def _tensor_lu(self, pivot=True, get_infos=False):
    """Tensor.lu (Python in PyTorch)."""
    from ._ops_linalg import _lu_factor
    _lu_warning()
    LU, pivots, info = _lu_factor(self, pivot, 'torch.lu_factor', False)
    return (LU, pivots, info) if get_infos else (LU, pivots)


_tensor_lu.__name__ = 'lu'
Tensor.lu = _tensor_lu
Tensor.lu_solve = lu_solve
Tensor.index_reduce = index_reduce


def index_reduce_(input, dim, index, source, reduce, *, include_self=True):
    return _ops._inplace(input, index_reduce, dim, index, source, reduce, include_self=include_self)


Tensor.index_reduce_ = index_reduce_
_argparse.FUNCTIONS.update({
    'index_reduce': ['index_reduce(Tensor input, int64_t dim, Tensor index, Tensor source, c10::string_view reduce, '
                     '*, bool include_self=True, Tensor out=None)'],
    'lu_unpack': ['lu_unpack(Tensor LU_data, Tensor LU_pivots, bool unpack_data=True, bool unpack_pivots=True, *, '
                  'TensorList[3] out=None)'],
    'lu_solve': ['lu_solve(Tensor input, Tensor LU_data, Tensor LU_pivots, *, Tensor out=None)'],
})
_argparse.METHODS.update({
    'index_reduce': ['index_reduce(int64_t dim, Tensor index, Tensor source, c10::string_view reduce, *, '
                     'bool include_self=True)'],
    'index_reduce_': ['index_reduce_(int64_t dim, Tensor index, Tensor source, c10::string_view reduce, *, '
                      'bool include_self=True)'],
    'lu_solve': ['lu_solve(Tensor LU_data, Tensor LU_pivots)'],
})


# ================================================================================================ windows

__all__ += ['hann_window', 'hamming_window', 'blackman_window', 'bartlett_window', 'kaiser_window']
_WINDOW_OPTIONS = ', *, ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=False, ' \
                  'bool? requires_grad=False)'


def _window(name, compute):
    """A window function: float32 (the default dtype) steps as ATen's kernels take them; periodic windows computed
    one longer and cut."""
    def f(window_length, periodic=True, *extra, dtype=None, layout=None, device=None, pin_memory=False,
          requires_grad=False):
        from ._factories import _finish
        dt.check_options(device, pin_memory)
        d = dt.default_float if dtype is None else dt.to_dtype(dtype)
        if not d.is_floating_point:
            raise RuntimeError('%s expects floating point dtypes, got: TensorOptions(dtype=%s, device=cpu, '
                               'layout=Strided (default), requires_grad=false (default), pinned_memory=false, '
                               'memory_format=(nullopt))' % (name, dt.C_NAMES[d.name]))
        if window_length < 0:
            raise RuntimeError('%s requires non-negative window_length, got window_length=%d'
                               % (name, window_length))
        if window_length <= 1:
            data = np.ones(window_length, d.np)
            return _finish(data, requires_grad, device, layout)
        n = window_length + 1 if periodic else window_length
        data = np.asarray(compute(np.arange(n, dtype=d.np), n, *extra), d.np)
        return _finish(np.ascontiguousarray(data[:window_length]), requires_grad, device, layout)
    f.__name__ = f.__qualname__ = name
    return f


def _hamming(w, n, alpha=0.54, beta=0.46):
    t = w.dtype.type
    return np.cos(w * t(2. * math.pi / (n - 1))) * t(-beta) + t(alpha)


def _blackman(w, n):
    t = w.dtype.type
    w = w * t(math.pi / (n - 1))
    return np.cos(w * t(4)) * t(0.08) - np.cos(w * t(2)) * t(0.5) + t(0.42)


def _bartlett(w, n):
    t = w.dtype.type
    w = w * t(2. / (n - 1))
    half = ((n - 1) >> 1) + 1
    w[half:] = w[half:] * t(-1) + t(2)
    return w


def _kaiser(w, n, beta=12.0):
    alpha = (n - 1) / 2.0
    x = w.astype(np.float64)
    return np.i0(beta * np.sqrt(np.abs(1 - ((x - alpha) / alpha) ** 2))) / np.i0(beta)


hann_window = _window('hann_window', lambda w, n: _hamming(w, n, 0.5, 0.5))
hamming_window = _window('hamming_window', _hamming)
blackman_window = _window('blackman_window', _blackman)
bartlett_window = _window('bartlett_window', _bartlett)
kaiser_window = _window('kaiser_window', _kaiser)
_argparse.FUNCTIONS.update({
    **{name: ['%s(int64_t window_length%s' % (name, _WINDOW_OPTIONS),
              '%s(int64_t window_length, bool periodic%s' % (name, _WINDOW_OPTIONS)]
       for name in ('hann_window', 'blackman_window', 'bartlett_window')},
    'hamming_window': ['hamming_window(int64_t window_length%s' % _WINDOW_OPTIONS,
                       'hamming_window(int64_t window_length, bool periodic%s' % _WINDOW_OPTIONS,
                       'hamming_window(int64_t window_length, bool periodic, double alpha%s' % _WINDOW_OPTIONS,
                       'hamming_window(int64_t window_length, bool periodic, double alpha, double beta%s'
                       % _WINDOW_OPTIONS],
    'kaiser_window': ['kaiser_window(int64_t window_length%s' % _WINDOW_OPTIONS,
                      'kaiser_window(int64_t window_length, bool periodic%s' % _WINDOW_OPTIONS,
                      'kaiser_window(int64_t window_length, bool periodic, double beta%s' % _WINDOW_OPTIONS],
})


# ================================================================================================ *_copy

_COPY_NODES = {}


def _copy_node_class(cls):
    """cls's *_copy twin ('ViewBackward0_copy'), the node PyTorch's view_copy and co. record."""
    twin = _COPY_NODES.get(cls)
    if twin is None:
        twin = _COPY_NODES[cls] = type(cls.__name__ + '_copy', (cls,), {})
        twin.__qualname__ = twin.__name__
    return twin


def _copied(view):
    """A view's values in a new contiguous tensor that takes over the view's node (renamed its _copy twin)."""
    out = make(np.array(view._data, order='C'))
    fn = view._grad_fn
    if fn is not None:
        if type(fn).__name__[-5:] != '_copy':
            fn.__class__ = _copy_node_class(type(fn))
        out._grad_fn, out._requires_grad, out._output_nr = fn, True, view._output_nr
    return out


def _copy_function(name, view):
    def f(input, *args, **kwargs):
        result = view(input, *args, **kwargs)
        if isinstance(result, (tuple, list)):
            return tuple(_copied(t) for t in result)
        return _copied(result)
    f.__name__ = f.__qualname__ = name
    return f


class SliceBackward0_copy(_ops.SliceBackward0):
    """slice_copy's node: start and end saved as given (None when not), read as slice's defaults."""

    def apply(self, g):
        saved = self._saved
        self._saved = dict(saved, start=0 if saved['start'] is None else saved['start'],
                           end=9223372036854775807 if saved['end'] is None else saved['end'])
        try:
            return super().apply(g)
        finally:
            self._saved = saved


_COPY_NODES[_ops.SliceBackward0] = SliceBackward0_copy


def _slice_view(input, dim=0, start=None, end=None, step=1):
    if input.dim() == 0:
        raise IndexError('slice() cannot be applied to a 0-dim tensor.')
    view = _ops._slice(input, _wrap_dim(dim, input.dim()), slice(start, end, step), keep_full=True, given_dim=dim)
    if view._grad_fn is not None:               # (slice_copy's optional start and end: None saved as None)
        saved = view._grad_fn._saved
        saved['start'] = None if start is None else _ops._given(start)
        saved['end'] = None if end is None else _ops._given(end)
    return view


def _view(x, size):
    if not isinstance(size, (tuple, list, dt.dtype)):
        _argparse.parser('view_copy', True).check((x, size), {})
    return x.view(size)


view_copy = _copy_function('view_copy', _view)
t_copy = _copy_function('t_copy', lambda x: x.t())
expand_copy = _copy_function('expand_copy', lambda x, size, *, implicit=False: x.expand(size))
permute_copy = _copy_function('permute_copy', lambda x, dims: x.permute(dims))
transpose_copy = _copy_function('transpose_copy', lambda x, dim0, dim1: x.transpose(dim0, dim1))
squeeze_copy = _copy_function('squeeze_copy', lambda x, dim=None: x.squeeze() if dim is None else x.squeeze(dim))
unsqueeze_copy = _copy_function('unsqueeze_copy', lambda x, dim: x.unsqueeze(dim))
select_copy = _copy_function('select_copy', lambda x, dim, index: x.select(dim, index))
slice_copy = _copy_function('slice_copy', _slice_view)
diagonal_copy = _copy_function('diagonal_copy', lambda x, offset=0, dim1=0, dim2=1: x.diagonal(offset, dim1, dim2))
as_strided_copy = _copy_function('as_strided_copy', lambda x, size, stride, storage_offset=None:
                                 x.as_strided(size, stride, storage_offset))
unfold_copy = _copy_function('unfold_copy', lambda x, dimension, size, step: x.unfold(dimension, size, step))
split_copy = _copy_function('split_copy', lambda x, split_size, dim=0: x.split(split_size, dim))
split_with_sizes_copy = _copy_function('split_with_sizes_copy',
                                       lambda x, split_sizes, dim=0: x.split_with_sizes(split_sizes, dim))
unbind_copy = _copy_function('unbind_copy', lambda x, dim=0: x.unbind(dim))


class AliasBackward0_copy(Node):
    def apply(self, g):
        return (g,)


def alias_copy(input):
    return _ops._attach(make(input._data.copy()), AliasBackward0_copy, (input,))


def detach_copy(input):
    return _ops._not_implemented(make(input._data.copy()), input, 'aten::detach_copy')


__all__ += ['view_copy', 't_copy', 'expand_copy', 'permute_copy', 'transpose_copy', 'squeeze_copy',
            'unsqueeze_copy', 'select_copy', 'slice_copy', 'diagonal_copy', 'as_strided_copy', 'unfold_copy',
            'split_copy', 'split_with_sizes_copy', 'unbind_copy', 'alias_copy', 'detach_copy']
_argparse.FUNCTIONS.update({
    'view_copy': ['view_copy(Tensor input, ScalarType dtype, *, Tensor out=None)',
                  'view_copy(Tensor input, SymIntArrayRef size, *, Tensor out=None)'],
    't_copy': ['t_copy(Tensor input, *, Tensor out=None)'],
    'expand_copy': ['expand_copy(Tensor input, SymIntArrayRef size, *, bool implicit=False, Tensor out=None)'],
    'permute_copy': ['permute_copy(Tensor input, IntArrayRef dims, *, Tensor out=None)'],
    'transpose_copy': ['transpose_copy(Tensor input, int64_t dim0, int64_t dim1, *, Tensor out=None)'],
    'squeeze_copy': ['squeeze_copy(Tensor input, *, Tensor out=None)',
                     'squeeze_copy(Tensor input, int64_t dim, *, Tensor out=None)',
                     'squeeze_copy(Tensor input, IntArrayRef dim, *, Tensor out=None)'],
    'unsqueeze_copy': ['unsqueeze_copy(Tensor input, int64_t dim, *, Tensor out=None)'],
    'select_copy': ['select_copy(Tensor input, int64_t dim, SymInt index, *, Tensor out=None)'],
    'slice_copy': ['slice_copy(Tensor input, int64_t dim=0, SymInt? start=None, SymInt? end=None, SymInt step=1, *, '
                   'Tensor out=None)'],
    'diagonal_copy': ['diagonal_copy(Tensor input, int64_t offset=0, int64_t dim1=0, int64_t dim2=1, *, '
                      'Tensor out=None)'],
    'as_strided_copy': ['as_strided_copy(Tensor input, SymIntArrayRef size, SymIntArrayRef stride, '
                        'SymInt? storage_offset=None, *, Tensor out=None)'],
    'unfold_copy': ['unfold_copy(Tensor input, int64_t dimension, int64_t size, int64_t step, *, Tensor out=None)'],
    'split_copy': ['split_copy(Tensor input, SymInt split_size, int64_t dim=0, *, TensorList out=None)'],
    'split_with_sizes_copy': ['split_with_sizes_copy(Tensor input, SymIntArrayRef split_sizes, int64_t dim=0, *, '
                              'TensorList out=None)'],
    'unbind_copy': ['unbind_copy(Tensor input, int64_t dim=0, *, TensorList out=None)'],
    'alias_copy': ['alias_copy(Tensor input, *, Tensor out=None)'],
    'detach_copy': ['detach_copy(Tensor input, *, Tensor out=None)'],
})


# ================================================================================================ small ones

__all__ += ['fill', 'set_warn_always', 'is_warn_always_enabled', 'get_device', 'empty_permuted', 'nonzero_static',
            'binomial', 'poisson', 'set_flush_denormal']


class FillBackward0(Node):
    def apply(self, g):
        return (_ops._zeros_like(g),)


class FillBackward1(Node):
    def apply(self, g):
        return (_ops._zeros_like(g) if self.needs(0) else None), (g.sum() if self.needs(1) else None)


def fill(input, value):
    """A new tensor like input, every element value (FillBackward0; FillBackward1 for a 0-d tensor value, which gets
    the gradient's sum)."""
    if isinstance(value, Tensor):
        if value.dim():
            raise RuntimeError('fill_ only supports 0-dimension value tensor but got tensor with %d dimensions.'
                               % value.dim())
        return _ops._attach(make(np.full_like(input._data, value._data)), FillBackward1, (input, value))
    with ag.no_grad():
        out = input.clone().fill_(value)
    return _ops._attach(make(out._data), FillBackward0, (input,))


_WARN_ALWAYS = [False]


def set_warn_always(b):
    """torch.set_warn_always: PyTorch's once-only warnings then warn every time (kept as a flag here)."""
    if type(b) is not bool:
        raise RuntimeError('setWarnOnlyOnce expects a bool, but got ' + type(b).__name__)
    _WARN_ALWAYS[0] = b


def is_warn_always_enabled():
    return _WARN_ALWAYS[0]


def get_device(input):
    if not isinstance(input, Tensor):
        _argparse.parser('get_device', True).check((input,), {})
    return -1


def empty_permuted(size, physical_layout, *, dtype=None, layout=None, device=None, requires_grad=False,
                   pin_memory=False):
    """An uninitialized tensor of `size` whose memory holds its dims in the order physical_layout (outermost
    first)."""
    from ._factories import empty
    size, order = tuple(size), tuple(physical_layout)
    if len(size) != len(order):
        raise RuntimeError('Number of dimensions in size does not match the length of the physical_layout; i.e. '
                           'len(size) = %d is not equal to len(physical_layout) = %d' % (len(size), len(order)))
    seen = set()
    for d in order:
        if d in seen:
            raise RuntimeError('Duplicate dim not allowed')
        seen.add(d)
    physical = empty(tuple(size[d] for d in order), dtype=dtype, layout=layout, device=device,
                     requires_grad=requires_grad, pin_memory=pin_memory)
    inverse = [order.index(i) for i in range(len(order))]
    with ag.no_grad():
        out = physical.permute(inverse)
    result = make(out._data)
    result._requires_grad = physical._requires_grad
    return result


def nonzero_static(input, *, size, fill_value=-1):
    """nonzero's indices, cut or padded with fill_value to `size` rows."""
    if size < 0:
        raise RuntimeError("nonzero_static: 'size' must be an non-negative integer")
    idx = np.argwhere(input._data).astype(np.int64)
    out = np.full((size, input.dim()), fill_value, np.int64)
    n = min(size, len(idx))
    out[:n] = idx[:n]
    return make(out)


class PoissonBackward0(Node):
    def apply(self, g):
        return (_ops._zeros_like(g),)


def poisson(input, generator=None):
    """Draws from Poisson distributions of the input's rates (PoissonBackward0: a zero gradient)."""
    x = input._data
    if x.dtype.kind != 'f':
        raise NotImplementedError('"poisson_cpu" not implemented for \'%s\'' % input.dtype.legacy)
    if (x < 0).any():
        raise RuntimeError('invalid Poisson rate, expected rate to be non-negative')
    from . import _random
    out = _random.poisson(generator or _random.default_generator, x.astype(np.float64)).astype(x.dtype)
    return _ops._attach(make(out), PoissonBackward0, (input,))


def binomial(count, prob, generator=None):
    """Draws from binomial distributions of count trials each of success probability prob (no derivative)."""
    c, p = count._data, prob._data
    if c.dtype.kind != 'f':
        raise ValueError('binomial only supports floating-point dtypes for count, got: %s' % count.dtype.legacy)
    if c.dtype == np.float16:
        raise NotImplementedError('"binomial_cpu" not implemented for \'Half\'')
    if p.dtype != c.dtype:
        raise RuntimeError('Found dtype %s but expected %s' % (prob.dtype.legacy, count.dtype.legacy))
    shape = np.broadcast_shapes(c.shape, p.shape)
    if shape != c.shape and c.size:             # (its kernel writes into a tensor of count's shape, resized)
        import warnings
        from . import _methods
        from ._tensor import user_stacklevel
        warnings.warn(_methods._RESIZED % (', '.join(map(str, c.shape)), ', '.join(map(str, shape))),
                      stacklevel=user_stacklevel())
    from . import _random
    draws = _random.binomial(generator or _random.default_generator, np.broadcast_to(c, shape),
                             np.broadcast_to(p, shape))
    return _ops._not_implemented(make(np.asarray(draws, c.dtype)), (count, prob), 'aten::binomial')


def set_flush_denormal(*args):
    """torch.set_flush_denormal(mode): whether the CPU may flush denormal floats to zero (supported: True)."""
    if len(args) != 1:
        raise TypeError('torch.set_flush_denormal() takes exactly one argument (%d given)' % len(args))
    mode = args[0]
    if type(mode) is not bool:
        raise RuntimeError('flush_denormal expects a bool, but got ' + type(mode).__name__)
    return True             # (numpy keeps denormals whatever is asked: the engine's ops do not flush them)


def _new_empty_strided(self, size, stride, *, dtype=None, layout=None, device=None, requires_grad=False,
                       pin_memory=False):
    """Tensor.new_empty_strided: empty_strided with self's dtype unless dtype says."""
    from ._factories import empty_strided
    if len(size) != len(stride):
        raise RuntimeError('dimensionality of sizes (%d) must match dimensionality of strides (%d)'
                           % (len(size), len(stride)))
    return empty_strided(size, stride, dtype=self.dtype if dtype is None else dtype, layout=layout, device=device,
                         requires_grad=requires_grad, pin_memory=pin_memory)


_new_empty_strided.__name__ = 'new_empty_strided'
Tensor.new_empty_strided = _new_empty_strided
Tensor.nonzero_static = nonzero_static
_argparse.FUNCTIONS.update({
    'fill': ['fill(Tensor input, Tensor value)', 'fill(Tensor input, Scalar value)'],
    'get_device': ['get_device(Tensor input)'],
    'empty_permuted': ['empty_permuted(SymIntArrayRef size, IntArrayRef physical_layout, *, ScalarType? dtype=None, '
                       'Layout? layout=None, Device? device=None, bool? pin_memory=False, bool? requires_grad=False)'],
    'nonzero_static': ['nonzero_static(Tensor input, *, SymInt size, int64_t fill_value=-1, Tensor out=None)'],
    'poisson': ['poisson(Tensor input, Generator? generator=None)'],
    'binomial': ['binomial(Tensor count, Tensor prob, Generator? generator=None)'],
})
_argparse.METHODS.update({
    'nonzero_static': ['nonzero_static(*, SymInt size, int64_t fill_value=-1)'],
    'new_empty_strided': ['new_empty_strided(SymIntArrayRef size, SymIntArrayRef stride, *, ScalarType? dtype=None, '
                          'Layout? layout=None, Device? device=None, bool? pin_memory=False, '
                          'bool? requires_grad=False)'],
})


# ================================================================================================ a few more

__all__ += ['angle', 'negative_', 'i0_', 'conj_physical_', 'addmv_', 'as_strided_', 'resize_as_', 'is_distributed']


class AngleBackward0(Node):
    def apply(self, g):                     # a real input's angle is constant: zeros like self
        return (_ops._zeros_like(self.saved('self')),)


def angle(input):
    """The argument of each element: pi for a negative real number, 0 otherwise (nan kept); integers and bools give
    the default float dtype."""
    x = input._data
    d = input.dtype if input.is_floating_point() else dt.default_float
    t = d.np.type
    out = np.where(np.isnan(x), x, np.where(x < 0, t(math.pi), t(0))).astype(d.np) if x.dtype.kind == 'f' else \
        np.where(x < 0, t(math.pi), t(0)).astype(d.np)
    return _ops._attach(make(np.asarray(out)), AngleBackward0, (input,), {'self': SavedTensor(input)})


def negative_(input):
    return input.neg_()


def i0_(input):
    return input.i0_()


def conj_physical_(input):
    """The conjugate in place: a real tensor unchanged (its version moved, as by any in-place op)."""
    _ops._check_inplace(input)
    ag.bump(input)
    return input


def addmv_(input, mat, vec, *, beta=1, alpha=1):
    return input.addmv_(mat, vec, beta=beta, alpha=alpha)


def as_strided_(input, size, stride, storage_offset=None):
    return input.as_strided_(size, stride, storage_offset)


def resize_as_(input, the_template, *, memory_format=None):
    return input.resize_as_(the_template) if memory_format is None else \
        input.resize_as_(the_template, memory_format=memory_format)


def is_distributed(input):
    if not isinstance(input, Tensor):
        _argparse.parser('is_distributed', True).check((input,), {})
    return False


def _dim_order(self, *, ambiguity_check=False):
    """Tensor.dim_order: the dims from outermost to innermost in memory (by stride, ties in dim order)."""
    strides = self.stride()
    return tuple(sorted(range(self.dim()), key=lambda i: -strides[i]))


_dim_order.__name__ = 'dim_order'
from . import _methods as _methods_module  # noqa: E402
_methods_module._PYTHON_METHODS.add('dim_order')       # (Python in PyTorch: torch/_tensor.py)
Tensor.angle = angle
Tensor.conj_physical_ = conj_physical_
Tensor.is_distributed = lambda self: False
Tensor.dim_order = _dim_order
_argparse.FUNCTIONS.update({
    'angle': ['angle(Tensor input, *, Tensor out=None)'],
    'is_distributed': ['is_distributed(Tensor input)'],
    'negative_': ['negative_(Tensor input)'], 'i0_': ['i0_(Tensor input)'],
    'conj_physical_': ['conj_physical_(Tensor input)'],
})
_argparse.NO_ARGUMENTS = _argparse.NO_ARGUMENTS | {'angle', 'conj_physical_', 'is_distributed'}


# ================================================================================================ deprecated norms

__all__ += ['frobenius_norm', 'nuclear_norm', 'as_strided_scatter']


def frobenius_norm(input, dim, keepdim=False):
    """at::frobenius_norm, kept for TorchScript: norm(input, 2., dim, keepdim), deprecated (warned once)."""
    from ._tensor import warn_once
    warn_once('at::frobenius_norm is deprecated and it is just left for JIT compatibility. It will be removed in a '
              'future PyTorch release. Please use `linalg.vector_norm(A, 2., dim, keepdim)` instead',
              'aten/src/ATen/native/LinearAlgebra.cpp:3175')
    dims = [dim] if isinstance(dim, (int, np.integer)) else list(dim)
    if len(dims) > 2:
        raise RuntimeError('Expected at most 2 dimensions, but got %d dimensions instead.' % len(dims))
    with ag.no_grad():
        r = _ops_nn.norm(input, 2., dims, keepdim)
    return _ops._attach(make(r._data), _ops_nn2.NormBackward1, (input,), {    # (at::norm(self, 2., dim, keepdim))
        'dim': tuple(dims), 'keepdim': keepdim, 'p': 2.0, 'result': ag.RESULT, 'self': SavedTensor(input)})


def nuclear_norm(input, dim=None, keepdim=False):
    """at::nuclear_norm, kept for TorchScript: linalg.matrix_norm(input, 'nuc', dim, keepdim), deprecated; without
    dim, of a 2-d input."""
    from ._tensor import warn_once
    from .linalg import matrix_norm
    if dim is None or isinstance(dim, bool):
        keepdim = keepdim if dim is None else dim
        dim = (-2, -1)
    elif isinstance(dim, (int, np.integer)):    # (IntArrayRef[2]: one int stands for both)
        dim = (dim, dim)
    warn_once("at::nuclear_norm is deprecated and it is just left for JIT compatibility. It will be removed in a "
              "future PyTorch release. Please use `linalg.matrix_norm(A, 'nuc', dim, keepdim)` instead",
              'aten/src/ATen/native/LinearAlgebra.cpp:3229')
    return matrix_norm(input, 'nuc', tuple(dim), keepdim)


class AsStridedScatterBackward0(Node):
    def apply(self, g):
        s = self._saved
        size, stride, offset = s['size'], s['stride'], s['storage_offset']
        flat = g.contiguous()
        gs = gsrc = None
        if self.needs(0):               # (PyTorch's as_strided_scatter_backward: grad's slice, zeros elsewhere)
            from ._factories import zeros
            gs = zeros(self._self_sizes, dtype=g.dtype)
            gs.as_strided(size, stride, offset).copy_(flat.as_strided(size, stride, offset))
        if len(self._fns) > 1 and self.needs(1):
            gsrc = flat.as_strided(size, stride, offset).clone()
        return gs, gsrc


def as_strided_scatter(input, src, size, stride, storage_offset=None):
    """A copy of input (laid out contiguously) with src written into its as_strided(size, stride, offset) view."""
    if ag.grad_enabled and input._requires_grad and not input.is_contiguous():
        raise RuntimeError('!self.requires_grad() || self.is_contiguous() INTERNAL ASSERT FAILED at '
                           '"/__w/pytorch/pytorch/aten/src/ATen/native/TensorShape.cpp":4754, please report a bug to '
                           'PyTorch. as_strided_scatter is currently only supported for contiguous inputs')
    with ag.no_grad():
        out = input.clone()
        view = out.as_strided(size, stride, storage_offset)
        if tuple(view.shape) != tuple(src.shape):
            raise RuntimeError('expected src to have a size equal to the slice of self. src size = %s, slice size = %s'
                               % (_ops._sizes(src.shape), _ops._sizes(view.shape)))
        view.copy_(src)
    out = _ops._attach(make(out._data), AsStridedScatterBackward0, (input, src), {
        'size': tuple(size), 'storage_offset': storage_offset, 'stride': tuple(stride)})
    if out._grad_fn is not None:
        out._grad_fn._self_sizes = tuple(input.shape)       # (input geometry, not a saved attribute)
    return out


Tensor.as_strided_scatter = as_strided_scatter
_argparse.FUNCTIONS.update({
    'frobenius_norm': ['frobenius_norm(Tensor input, IntArrayRef[1] dim, bool keepdim=False, *, Tensor out=None)'],
    'nuclear_norm': ['nuclear_norm(Tensor input, bool keepdim=False, *, Tensor out=None)',
                     'nuclear_norm(Tensor input, IntArrayRef[2] dim, bool keepdim=False, *, Tensor out=None)'],
    'as_strided_scatter': ['as_strided_scatter(Tensor input, Tensor src, SymIntArrayRef size, SymIntArrayRef stride, '
                           'SymInt? storage_offset=None, *, Tensor out=None)'],
})
_argparse.METHODS['as_strided_scatter'] = ['as_strided_scatter(Tensor src, SymIntArrayRef size, SymIntArrayRef stride, '
                                           'SymInt? storage_offset=None)']


# ================================================================================================ _VF's recurrences

__all__ += ['rnn_tanh', 'rnn_relu', 'lstm', 'gru']


def _recurrence(mode):
    def f(input, hx, params, has_biases, num_layers, dropout, train, bidirectional, batch_first):
        """torch.<mode>(input, hx, params, ...): what nn.RNN / LSTM / GRU run (_VF), its output and final states."""
        from ._ops_rnn import rnn
        return rnn(mode, input, hx, list(params), has_biases, num_layers, dropout, train, bidirectional,
                   batch_first)
    f.__name__ = f.__qualname__ = mode.lower()
    return f


rnn_tanh, rnn_relu, lstm, gru = (_recurrence(m) for m in ('RNN_TANH', 'RNN_RELU', 'LSTM', 'GRU'))
_FLAGS = 'TensorList params, bool has_biases, int64_t num_layers, double dropout, bool train, bool bidirectional'
_argparse.FUNCTIONS.update({
    name: ['%s(Tensor data, Tensor batch_sizes, %s, %s)' % (name, hx, _FLAGS),
           '%s(Tensor input, %s, %s, bool batch_first)' % (name, hx, _FLAGS)]
    for name, hx in (('rnn_tanh', 'Tensor hx'), ('rnn_relu', 'Tensor hx'), ('gru', 'Tensor hx'),
                     ('lstm', 'TensorList hx'))})
