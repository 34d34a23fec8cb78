"""torch.nn.functional: the stateless building blocks nn's modules call (activations, linear, convolution, pooling,
dropout, losses, normalization, distances)."""
import math
import operator
import warnings

import numpy as np

from .. import _argparse
from .. import _dtypes
from .. import _autograd
from .. import _random
from .. import _ops
from .. import _ops_conv
from .. import _factories
from .. import _ops_nn
from .. import _ops_nn2
from .. import _ops_ctc
from .._ops_nn import (linear, leaky_relu as _leaky_relu, gelu, mse_loss, smooth_l1_loss, huber_loss,  # noqa: F401
                       nll_loss, cross_entropy, binary_cross_entropy, binary_cross_entropy_with_logits, logsumexp,
                       batch_norm, layer_norm)
from .._ops_conv import (conv1d, conv2d, conv3d, max_pool1d, max_pool2d, avg_pool1d, avg_pool2d,  # noqa: F401
                         avg_pool3d, max_pool3d, max_pool3d_with_indices, adaptive_avg_pool1d,
                         adaptive_avg_pool2d, adaptive_avg_pool3d)
from .._ops_pad import pad  # noqa: F401
from .._ops_nn2 import bilinear  # noqa: F401
from .._ops_stats import pdist  # noqa: F401
from .._ops_attention import (scaled_dot_product_attention, multi_head_attention_forward,  # noqa: F401
                              _canonical_mask, _none_or_dtype)
from .._ops_vision import (interpolate, unfold, fold, conv_transpose1d, conv_transpose2d,  # noqa: F401
                           conv_transpose3d,
                           adaptive_max_pool1d, adaptive_max_pool2d, adaptive_max_pool1d_with_indices,
                           adaptive_max_pool2d_with_indices, adaptive_max_pool3d, adaptive_max_pool3d_with_indices,
                           pixel_shuffle, pixel_unshuffle, upsample,
                           upsample_nearest, upsample_bilinear)
from .._ops_vision2 import (grid_sample, affine_grid, max_unpool1d, max_unpool2d, max_unpool3d,  # noqa: F401
                            lp_pool1d, lp_pool2d, lp_pool3d, fractional_max_pool2d, fractional_max_pool3d,
                            fractional_max_pool2d_with_indices, fractional_max_pool3d_with_indices)
from .._tensor import Tensor, make, parser_type as _parser_type


def max_pool1d_with_indices(input, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False,
                            return_indices=False):
    """(values, indices) of max_pool1d (PyTorch's Python function behind F.max_pool1d's return_indices)."""
    return max_pool1d(input, kernel_size, stride, padding, dilation, ceil_mode, True)


def max_pool2d_with_indices(input, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False,
                            return_indices=False):
    """(values, indices) of max_pool2d (PyTorch's Python function behind F.max_pool2d's return_indices)."""
    return max_pool2d(input, kernel_size, stride, padding, dilation, ceil_mode, True)


def relu(input, inplace=False):
    """max(x, 0) (torch.relu's TypeError for anything but a tensor, as PyTorch's F.relu calls it)."""
    if not isinstance(input, Tensor):
        raise TypeError("relu%s(): argument 'input' (position 1) must be Tensor, not %s"
                        % ('_' if inplace else '', _parser_type(input)))
    return input.relu_() if inplace else _ops.relu(input)


def relu_(input):
    """relu in place (PyTorch's F.relu_ is torch.relu_)."""
    return relu(input, inplace=True)


def sigmoid(input):
    """1 / (1 + exp(-x)) (PyTorch's F.sigmoid is input.sigmoid())."""
    return input.sigmoid()


def tanh(input):
    """The hyperbolic tangent (input.tanh(), as PyTorch's F.tanh)."""
    return input.tanh()


def logsigmoid(input):
    """log(sigmoid(x)), computed stably."""
    return _ops_nn.logsigmoid(input)


logsigmoid.__name__ = logsigmoid.__qualname__ = 'log_sigmoid'      # (PyTorch's is its C++ log_sigmoid)


def softplus(input, beta=1, threshold=20):
    """log(1 + exp(beta * x)) / beta (x itself above the threshold)."""
    if not (type(beta) in (float, int) and type(threshold) in (float, int)):    # (a 0-d tensor stands for a number)
        _parse('softplus(Tensor input, Scalar beta=1, Scalar threshold=20)', input, beta, threshold)
    return _ops_nn.softplus(input, beta, threshold)


def elu(input, alpha=1.0, inplace=False):
    """x where x > 0, else alpha * (exp(x) - 1)."""
    if type(alpha) not in (float, int):
        _parse('elu%s(Tensor input, Scalar alpha=1)' % ('_' if inplace else ''), input, alpha)
    return _ops._inplace(input, _ops_nn.elu, alpha, True) if inplace else _ops_nn.elu(input, alpha)


def elu_(input, alpha=1):
    return elu(input, alpha, True)          # (aten's elu_ defaults alpha to the int 1: the node saves 1, not 1.0)


def silu(input, inplace=False):
    """x * sigmoid(x) (swish)."""
    return _ops._inplace(input, _ops_nn.silu) if inplace else _ops_nn.silu(input)


def _parse(signature, *args):
    """PyTorch's argument parser on the arguments F passes on to a C++ function of that signature (F.dropout's
    torch._VF.dropout(input, p, train)): its TypeError if they do not fit it."""
    _argparse.signature_parser(signature).check(args, {})


def leaky_relu(input, negative_slope=0.01, inplace=False):
    """x where x > 0, else negative_slope * x."""
    if type(negative_slope) not in (float, int) or not isinstance(input, Tensor):
        _parse('leaky_relu%s(Tensor input, Scalar negative_slope=0.01)' % ('_' if inplace else ''),
               input, negative_slope)
    return _ops._inplace(input, _leaky_relu, negative_slope, True) if inplace else _leaky_relu(input, negative_slope)


def leaky_relu_(input, negative_slope=0.01):
    return leaky_relu(input, negative_slope, True)


_RRELU_SIGNATURE = ('rrelu%s(Tensor input, Scalar lower=0.125, Scalar upper=0.3333333333333333, bool training=False, '
                    'Generator? generator=None)')


def _rrelu_args(name, input, lower, upper, training):
    """PyTorch's argument parser for torch.rrelu / rrelu_: its TypeError for arguments of the wrong types; then
    rrelu's own check of the bounds (before autograd's of an in-place op)."""
    if (not isinstance(input, Tensor) or type(lower) not in (float, int) or type(upper) not in (float, int)
            or type(training) is not bool):
        _parse(_RRELU_SIGNATURE % name, input, lower, upper, training)
    if lower > upper:
        raise RuntimeError('Lower bound should be less than or equal to the upper bound')


def rrelu(input, lower=1.0 / 8, upper=1.0 / 3, training=False, inplace=False):
    """Randomized leaky ReLU: while training each x <= 0 times a slope of its own drawn from U(lower, upper), else
    leaky_relu with slope (lower + upper) / 2."""
    _rrelu_args('_' if inplace else '', input, lower, upper, training)
    if inplace:
        return _ops._inplace(input, _ops_nn.rrelu, lower, upper, training, None, True)
    return _ops_nn.rrelu(input, lower, upper, training)


def _rrelu_call(name, args, kwargs):
    """PyTorch's argument parser on a call of torch.rrelu / rrelu_ (its TypeErrors); the arguments, bound."""
    signature = _RRELU_SIGNATURE % name
    _argparse.signature_parser(signature).check(args, kwargs)
    input, lower, upper, training, generator = bound = _rrelu_bound(*args, **kwargs)
    if lower > upper:
        raise RuntimeError('Lower bound should be less than or equal to the upper bound')
    return bound


def _rrelu_bound(input, lower=1.0 / 8, upper=1.0 / 3, training=False, generator=None):
    return input, lower, upper, training, generator


def rrelu_(*args, **kwargs):
    """torch.rrelu_(input, lower=1/8, upper=1/3, training=False, generator=None): rrelu in place (its node saves
    the result)."""
    input, lower, upper, training, generator = _rrelu_call('_', args, kwargs)
    return _ops._inplace(input, _ops_nn.rrelu, lower, upper, training, generator, True)


def _torch_rrelu(*args, **kwargs):
    """torch.rrelu(input, lower=1/8, upper=1/3, training=False, generator=None) (F.rrelu's inplace is not one of
    its arguments)."""
    input, lower, upper, training, generator = _rrelu_call('', args, kwargs)
    return _ops_nn.rrelu(input, lower, upper, training, generator)


def hardtanh(input, min_val=-1.0, max_val=1.0, inplace=False):
    """x clipped to [min_val, max_val]."""
    if min_val > max_val:
        raise ValueError('min_val cannot be greater than max_val')
    if not (type(min_val) in (float, int) and type(max_val) in (float, int)):
        _parse('hardtanh%s(Tensor input, Scalar min_val=-1, Scalar max_val=1)' % ('_' if inplace else ''),
               input, min_val, max_val)
    if inplace:
        return _ops._inplace(input, _ops_nn.hardtanh, min_val, max_val)
    return _ops_nn.hardtanh(input, min_val, max_val)


def hardtanh_(input, min_val=-1, max_val=1):
    """(PyTorch's F.hardtanh_ is its C function, whose bounds default to the ints -1 and 1: what its node saves)"""
    return hardtanh(input, min_val, max_val, True)


def relu6(input, inplace=False):
    """min(max(x, 0), 6): PyTorch's hardtanh(x, 0, 6)."""
    return hardtanh(input, 0, 6, inplace)


def _implicit_dim(name, ndim, stacklevel):
    """PyTorch's old guess of the softmax dim (0 for 0-D, 1-D and 3-D inputs, else 1), with its warning."""
    warnings.warn('Implicit dimension choice for %s has been deprecated. Change the call to include dim=X as an '
                  'argument.' % name, UserWarning, stacklevel=stacklevel)
    return 0 if ndim in (0, 1, 3) else 1


def softmax(input, dim=None, _stacklevel=3, dtype=None):
    """exp(x) / exp(x).sum(dim); without dim, PyTorch's deprecated guess (with a warning)."""
    if dim is None:
        dim = _implicit_dim('softmax', input.dim(), _stacklevel)
    # (PyTorch's F.softmax calls input.softmax: its AttributeError for a non-tensor, its TypeError for a bad dim)
    return input.softmax(dim) if dtype is None else input.softmax(dim, dtype=dtype)


def log_softmax(input, dim=None, _stacklevel=3, dtype=None):
    """log(softmax(x, dim)), computed stably."""
    if dim is None:
        dim = _implicit_dim('log_softmax', input.ndim, _stacklevel)
    return input.log_softmax(dim) if dtype is None else input.log_softmax(dim, dtype=dtype)


def embedding(input, weight, padding_idx=None, max_norm=None, norm_type=2.0, scale_grad_by_freq=False,
              sparse=False):
    """The rows of `weight` at the indices in `input` (rows of norm above max_norm first scaled down in place)."""
    if padding_idx is None:
        padding_idx = -1
    elif not -weight.shape[0] <= padding_idx < weight.shape[0]:
        raise AssertionError('Padding_idx must be within num_embeddings')
    elif padding_idx < 0:
        padding_idx += weight.shape[0]
    if max_norm is not None:
        input = input.contiguous()      # (as PyTorch's: a list fails here)
        _renorm_rows(weight, input, max_norm, norm_type)
    for i, (name, t) in enumerate((('weight', weight), ('indices', input))):     # (torch.embedding's parser)
        if not isinstance(t, Tensor):
            raise TypeError("embedding(): argument '%s' (position %d) must be Tensor, not %s"
                            % (name, i + 1, _parser_type(t)))
    return _ops_nn.embedding(weight, input, padding_idx, scale_grad_by_freq, sparse)


def embedding_bag(input, weight, offsets=None, max_norm=None, norm_type=2, scale_grad_by_freq=False, mode='mean',
                  sparse=False, per_sample_weights=None, include_last_offset=False, padding_idx=None):
    """Sums, means or maxima of bags of embedding rows: a 1-d input cut into bags at `offsets`, or a 2-d input of
    one bag per row (PyTorch's checks, then torch.embedding_bag)."""
    if weight.dtype == _dtypes.int64 and input.is_floating_point():
        warnings.warn('Argument order of nn.functional.embedding_bag was changed. Usage `embedding_bag(weight, '
                      'input, ...)` is deprecated, and should now be `embedding_bag(input, weight, ...)`.',
                      stacklevel=2)
        weight, input = input, weight
    if per_sample_weights is not None and input.size() != per_sample_weights.size():
        raise ValueError('embedding_bag: If per_sample_weights (%s) is not None, then it must have the same shape as '
                         'the input (%s)' % (per_sample_weights.shape, input.shape))
    if not weight.dim() == 2:
        raise ValueError('weight has to be a 2D Tensor, but got Tensor of dimension %d' % weight.dim())
    if input.dim() == 2:
        if offsets is not None:
            raise ValueError('if input is 2D, then offsets has to be None, as input is treated is a mini-batch of '
                             'fixed length sequences. However, found offsets of type %s' % _type_str(offsets))
        offsets = _factories.arange(0, input.numel(), input.size(1), dtype=input.dtype)
        include_last_offset = False
        input = input.reshape(-1)
        if per_sample_weights is not None:
            per_sample_weights = per_sample_weights.reshape(-1)
    elif input.dim() == 1:
        if offsets is None:
            raise ValueError('offsets has to be a 1D Tensor but got None')
        if offsets.dim() != 1:
            raise ValueError('offsets has to be a 1D Tensor')
    else:
        raise ValueError('input has to be 1D or 2D Tensor, but got Tensor of dimension %d' % input.dim())
    modes = {'sum': 0, 'mean': 1, 'max': 2}
    if mode not in modes:
        raise ValueError('mode has to be one of sum, mean or max')
    if mode == 'max':
        if scale_grad_by_freq:
            raise ValueError('max mode does not support scaling the gradient by the frequency')
        if sparse:
            raise ValueError('max mode does not support sparse weights')
    if max_norm is not None:
        _renorm_rows(weight, input, max_norm, norm_type)
    if per_sample_weights is not None and mode != 'sum':
        raise NotImplementedError("embedding_bag: per_sample_weights was not None. per_sample_weights is only "
                                  "supported for mode='sum' (got mode='%s'). Please open a feature request on GitHub."
                                  % mode)
    if padding_idx is None:
        padding_idx = -1
    else:
        rows = weight.shape[0]
        if not -rows <= padding_idx < rows:
            raise RuntimeError('padding_idx must be within the number of embeddings, -%d through %d, but got %d'
                               % (rows, rows - 1, padding_idx))
        if padding_idx < 0:
            padding_idx += rows
    return _ops_nn.embedding_bag(weight, input, offsets, scale_grad_by_freq, modes[mode], sparse, per_sample_weights,
                                 include_last_offset, padding_idx)[0]


def _type_str(x):
    return "<class 'torch.Tensor'>" if isinstance(x, Tensor) else str(type(x))


def _renorm_rows(weight, indices, max_norm, norm_type):
    """embedding_renorm_: each row the indices pick whose norm exceeds max_norm, scaled to max_norm (in place, not
    recorded)."""
    w, idx = weight._data, indices._data
    checking = ' (while checking arguments for embedding_renorm_)'
    if w.ndim != 2:
        raise RuntimeError("Expected 2-dimensional tensor, but got %d-dimensional tensor for argument #1 'self'%s"
                           % (w.ndim, checking))
    if idx.dtype.kind not in 'iu' or idx.dtype.itemsize not in (4, 8):
        raise RuntimeError("Expected tensor for argument #2 'indices' to have one of the following scalar types: Long, "
                           "Int; but got %s instead%s" % (_autograd.type_string(indices), checking))
    rows = np.unique(idx.reshape(-1))       # (the kernel takes each row once, in sorted order: row = self[i])
    n = w.shape[0]
    bad = rows[(rows < -n) | (rows >= n)]
    if rows.size and w.dtype.kind not in 'fc' and not (bad.size and bad[0] == rows[0]):     # (the first row's norm)
        raise RuntimeError('norm(): input dtype should be either floating point or complex. Got %s instead.'
                           % weight.dtype.legacy)
    good = np.unique((rows[rows < bad[0]] if bad.size else rows) % max(n, 1))     # (the rows before a bad one)
    norms = np.linalg.norm(w[good].astype(np.float64), ord=norm_type, axis=1)
    over = norms > max_norm
    w[good[over]] *= (max_norm / (norms[over] + 1e-7)).astype(w.dtype)[:, None]
    if bad.size:
        raise IndexError('select(): index %d out of range for tensor of size [%s] at dimension 0'
                         % (bad[0], ', '.join(map(str, w.shape))))
    if not weight._inference:       # (PyTorch renorms weight.detach(): an inference tensor's has a counter of its own)
        _autograd.bump(weight)      # (an in-place op for PyTorch: the weight's version moves, rows changed or not)
    _ops._views_changed(weight)


def dropout(input, p=0.5, training=True, inplace=False):
    """Zero each element with probability p and scale the rest by 1 / (1 - p) (only while training)."""
    if p < 0.0 or p > 1.0:
        raise ValueError(f'dropout probability has to be between 0 and 1, but got {p}')
    if type(training) is not bool or not isinstance(input, Tensor) or type(p) not in (float, int):
        _parse('dropout%s(Tensor input, double p, bool train)' % ('_' if inplace else ''), input, p, training)
        p = float(p)                # (a 0-d tensor or a numpy float is a double to the parser)
    if not training or p == 0 or input.numel() == 0:     # (ATen's _dropout_impl hands back the input itself)
        return input
    mask = _dropout_mask(input, input.shape, p)
    return input.mul_(mask) if inplace else input * mask


def _dropout_mask(input, shape, p):
    """PyTorch's noise.bernoulli_(1 - p).div_(1 - p) in the input's dtype (which must be floating), of `shape`;
    zeros when p is 1 (no numbers drawn)."""
    d = input._data.dtype
    if p == 1:
        return _written(np.zeros((), d), 1)             # (at::zeros: empty then zero_)
    if d.kind == 'c':
        raise NotImplementedError('"bernoulli_scalar_cpu_" not implemented for \'%s\'' % input.dtype.legacy)
    keep = _kept(input, shape, p)
    if d.kind != 'f':
        raise RuntimeError("result type Float can't be cast to the desired output type " + input.dtype.legacy)
    if d == np.float16:                 # (div_(1 - p) in float, the double 1 - p not rounded to half first)
        return _written((keep.astype(np.float32) / np.float32(1 - p)).astype(d), 2)
    return _written(keep / d.type(1 - p), 2)


def _kept(input, shape, p):
    """noise.bernoulli_(1 - p) in the input's dtype, the noise of `shape`: PyTorch makes it by empty_like(input)
    when that is the input's shape, so a transposed input gets a transposed mask, its numbers drawn in memory order
    (else, feature dropout's (N, C, 1, ...) noise, a new row-major tensor)."""
    def draw(size, row_major):
        return _random.bernoulli(_random.default_generator, size, 1 - p)
    x = input._data
    keep = _factories._laid_out_like(x, None, draw) if tuple(shape) == x.shape else draw(tuple(shape), True)
    return keep.astype(x.dtype)


def _written(data, writes):
    """A tensor PyTorch fills by `writes` in-place ops (bernoulli_ then div_): its version counts them, as the
    saved mask of a dropout's node shows."""
    t = make(data)
    _autograd.counter(t).value = writes
    return t


def _feature_dropout(input, p, training, inplace):
    """ATen's feature_dropout: one draw per (sample, channel), noise of shape (N, C, 1, ...) broadcast over the rest
    (noise.bernoulli_(1 - p).div_(1 - p), as dropout draws it)."""
    if type(p) not in (float, int):        # (a 0-d tensor or a numpy float is a double to the parser)
        _parse('feature_dropout%s(Tensor input, double p, bool train)' % ('_' if inplace else ''), input, p, training)
        p = float(p)
    if p == 0 or not training or input.numel() == 0:
        return input
    if input.dim() < 2:
        raise RuntimeError('Feature dropout requires at least 2 dimensions in the input')
    mask = _dropout_mask(input, tuple(input.shape[:2]) + (1,) * (input.dim() - 2), p)
    return input.mul_(mask) if inplace else input * mask


def _warn_feature_dropout_dims(spatial, inp_dim):
    """PyTorch's deprecation warning for dropout2d / dropout3d given an input of another rank (it still runs)."""
    if inp_dim not in (spatial + 1, spatial + 2):
        warnings.warn('dropout%dd: Received a %d-D input to dropout%dd, which is deprecated and will result in an '
                      'error in a future release. To retain the behavior and silence this warning, please use dropout '
                      'instead. Note that dropout%dd exists to provide channel-wise dropout on inputs with %d spatial '
                      'dimensions, a channel dimension, and an optional batch dimension (i.e. %dD or %dD inputs).'
                      % (spatial, inp_dim, spatial, spatial, spatial, spatial + 1, spatial + 2), stacklevel=3)


def dropout2d(input, p=0.5, training=True, inplace=False):
    """Zero whole channels (dim 1) with probability p and scale the rest by 1 / (1 - p) (only while training)."""
    if p < 0.0 or p > 1.0:
        raise ValueError(f'dropout probability has to be between 0 and 1, but got {p}')
    inp_dim = input.dim()
    _warn_feature_dropout_dims(2, inp_dim)
    if inp_dim == 3:
        warnings.warn('dropout2d: Received a 3D input to dropout2d and assuming that channel-wise 1D dropout behavior '
                      'is desired - input is interpreted as shape (N, C, L), where C is the channel dim. This behavior '
                      'will change in a future release to interpret the input as one without a batch dimension, i.e. '
                      'shape (C, H, W). To maintain the 1D channel-wise dropout behavior, please switch to using '
                      'dropout1d instead.', stacklevel=2)
    return _feature_dropout(input, p, training, inplace)



def _alpha_dropout(input, p, training, inplace, shape, name='alpha_dropout'):
    """ATen's alpha dropout: the kept elements scaled by a, the dropped ones set to -alpha * a + b-offset, so that
    SELU activations keep zero mean and unit variance; `shape` is the noise's ((N, C, 1, ...) for feature alpha
    dropout). The noise is drawn as dropout draws it."""
    if p < 0.0 or p > 1.0:
        raise ValueError(f'dropout probability has to be between 0 and 1, but got {p}')
    if type(p) not in (float, int):
        _parse('%s%s(Tensor input, double p, bool train)' % (name, '_' if inplace else ''), input, p, training)
        p = float(p)
    if p == 0 or not training or input.numel() == 0:
        return input
    d = input._data.dtype
    if p == 1:
        zero = _written(np.zeros((), d), 1)
        return input.mul_(zero) if inplace else input * zero
    if shape is None:
        raise RuntimeError('Feature dropout requires at least 2 dimensions in the input')
    keep = _kept(input, shape, p)
    if d.kind != 'f':                                   # (noise.add(-1).mul_(alpha * a): a bool's noise is Long)
        raise RuntimeError("result type Float can't be cast to the desired output type "
                           + ('Long' if d.kind == 'b' else input.dtype.legacy))
    alpha = 1.7580993408473766
    a = 1. / float(np.sqrt((alpha * alpha * p + 1) * (1 - p)))
    b = make((keep - d.type(1)) * d.type(alpha * a) + d.type(alpha * a * p))
    noise = _written(keep * d.type(a), 2)               # (bernoulli_ then mul_)
    return (input.mul_(noise) if inplace else input * noise).add_(b)


def alpha_dropout(input, p=0.5, training=False, inplace=False):
    """Dropout for SELU networks (keeps the mean and variance): see _alpha_dropout. Off unless training=True."""
    return _alpha_dropout(input, p, training, inplace, tuple(input.shape))


def ctc_loss(log_probs, targets, input_lengths, target_lengths, blank=0, reduction='mean', zero_infinity=False):
    """The connectionist temporal classification loss: torch.ctc_loss with the reduction's enum."""
    return _ops_ctc.ctc_loss(log_probs, targets, input_lengths, target_lengths, blank,
                             _ops_nn.reduction_enum(reduction), zero_infinity)


def feature_alpha_dropout(input, p=0.5, training=False, inplace=False):
    """Alpha dropout of whole channels: one draw per (sample, channel) (noise of shape (N, C, 1, ...))."""
    shape = tuple(input.shape[:2]) + (1,) * (input.dim() - 2) if input.dim() >= 2 else None
    return _alpha_dropout(input, p, training, inplace, shape, 'feature_alpha_dropout')

def _unbatched_feature_dropout(input, p, training, inplace, batched):
    """dropout1d / dropout3d: feature dropout, over an input given a batch dim of 1 first when it has none (so its
    graph shows Unsqueeze and Squeeze nodes around the dropout's, even in eval())."""
    if batched:
        return _feature_dropout(input, p, training, inplace)
    input = input.unsqueeze_(0) if inplace else input.unsqueeze(0)
    result = _feature_dropout(input, p, training, inplace)
    return result.squeeze_(0) if inplace else result.squeeze(0)


def dropout1d(input, p=0.5, training=True, inplace=False):
    """Zero whole channels of (N, C, L) or (C, L) inputs with probability p and scale the rest by 1 / (1 - p)."""
    if p < 0.0 or p > 1.0:
        raise ValueError(f'dropout probability has to be between 0 and 1, but got {p}')
    inp_dim = input.dim()
    if inp_dim not in (2, 3):
        raise RuntimeError('dropout1d: Expected 2D or 3D input, but received a %dD input. Note that dropout1d exists '
                           'to provide channel-wise dropout on inputs with 1 spatial dimension, a channel dimension, '
                           'and an optional batch dimension (i.e. 2D or 3D inputs).' % inp_dim)
    return _unbatched_feature_dropout(input, p, training, inplace, inp_dim == 3)


def dropout3d(input, p=0.5, training=True, inplace=False):
    """Zero whole channels of (N, C, D, H, W) or (C, D, H, W) inputs with probability p, scaling the rest."""
    if p < 0.0 or p > 1.0:
        raise ValueError(f'dropout probability has to be between 0 and 1, but got {p}')
    inp_dim = input.dim()
    _warn_feature_dropout_dims(3, inp_dim)
    return _unbatched_feature_dropout(input, p, training, inplace, inp_dim == 5)

def l1_loss(input, target, size_average=None, reduce=None, reduction='mean', weight=None):
    """Mean (or sum) of absolute differences (each times its weight, if given)."""
    size = input.size() if weight is not None else None
    input, target = _ops_nn._broadcast_loss_args(input, target, 3)   # (its warning comes before the legacy flags')
    reduction = _ops_nn._legacy_reduction(size_average, reduce, reduction)
    if weight is not None:
        return _ops_nn._weighted_loss(lambda: (input - target).abs(), weight, size, reduction, True)
    r = _ops_nn.reduction_enum(reduction)
    d = (input - target).abs()
    return d if r == 0 else d.sum() if r == 2 else d.mean()


def one_hot(tensor, num_classes=-1):
    """A long tensor with a trailing dim of size num_classes: 1 at each class index, 0 elsewhere."""
    if tensor.dtype.name != 'int64':
        raise RuntimeError('one_hot is only applicable to index tensor of type LongTensor.')
    num_classes = operator.index(num_classes)
    x = tensor._data
    if num_classes <= 0 and not x.size:
        raise RuntimeError('Can not infer total number of classes from empty tensor.')
    if x.size and x.min() < 0:
        raise RuntimeError('Class values must be non-negative.')
    n = int(x.max()) + 1 if num_classes == -1 else num_classes
    if x.size and x.max() >= n:
        raise RuntimeError('Class values must be smaller than num_classes.')
    return make(np.ascontiguousarray(tensor._data[..., None] == np.arange(n), dtype=np.int64))   # (zeros, then
    # scatter_: row-major whatever the input's layout)


def normalize(input, p=2.0, dim=1, eps=1e-12, out=None):
    """x / max(||x||_p over dim, eps) (written into out when given, as torch.div's out=)."""
    denom = input.norm(p, dim, keepdim=True).clamp_min(eps).expand_as(input)
    if out is None:
        return input / denom
    from .. import div          # (torch.div, taking out=)
    return div(input, denom, out=out)


# ================================================================================================ more activations

def mish(input, inplace=False):
    """x * tanh(softplus(x))."""
    return _ops._inplace(input, _ops_nn2.mish) if inplace else _ops_nn2.mish(input)


def hardswish(input, inplace=False):
    """x * relu6(x + 3) / 6."""
    return _ops._inplace(input, _ops_nn2.hardswish) if inplace else _ops_nn2.hardswish(input)


def hardsigmoid(input, inplace=False):
    """relu6(x + 3) / 6."""
    return _ops._inplace(input, _ops_nn2.hardsigmoid) if inplace else _ops_nn2.hardsigmoid(input)


def celu(input, alpha=1.0, inplace=False):
    """max(0, x) + min(0, alpha * (exp(x / alpha) - 1))."""
    if type(alpha) not in (float, int):
        _parse('celu%s(Tensor input, Scalar alpha=1.0)' % ('_' if inplace else ''), input, alpha)
    return _ops._inplace(input, _ops_nn2.celu, alpha, True) if inplace else _ops_nn2.celu(input, alpha)


def celu_(input, alpha=1.0):
    return celu(input, alpha, True)


def selu(input, inplace=False):
    """scale * elu(x, alpha), with SELU's alpha and scale."""
    return _ops._inplace(input, _ops_nn2.selu, True) if inplace else _ops_nn2.selu(input)


def selu_(input):
    return selu(input, True)


def _threshold(input, threshold, value, inplace=False):
    """x where x > threshold, else value."""
    if not (type(threshold) in (float, int) and type(value) in (float, int)):
        _parse('threshold%s(Tensor input, Scalar threshold, Scalar value)' % ('_' if inplace else ''),
               input, threshold, value)
    if inplace:
        return _ops._inplace(input, _ops_nn2.threshold, threshold, value, True)
    return _ops_nn2.threshold(input, threshold, value)


threshold = _threshold      # (PyTorch's name for it too: its argument `threshold` hides the function inside it)


def threshold_(input, threshold, value):
    return _ops._inplace(input, _ops_nn2.threshold, threshold, value, True)


def softshrink(input, lambd=0.5):
    """x - lambd above lambd, x + lambd below -lambd, else 0."""
    return _ops_nn2.softshrink(input, lambd)


def hardshrink(input, lambd=0.5):
    """x, or 0 where |x| <= lambd."""
    return _ops_nn2.hardshrink(input, lambd)


def tanhshrink(input):
    """x - tanh(x)."""
    return input - input.tanh()


def softsign(input):
    """x / (1 + |x|)."""
    return input / (input.abs() + 1)


def softmin(input, dim=None, _stacklevel=3, dtype=None):
    """softmax(-x, dim)."""
    if dim is None:
        dim = _implicit_dim('softmin', input.ndim, _stacklevel)
    return (-input).softmax(dim) if dtype is None else (-input).softmax(dim, dtype=dtype)


def gumbel_softmax(logits, tau=1, hard=False, eps=1e-10, dim=-1):
    """A sample of the Gumbel-softmax distribution: softmax((logits + g) / tau) along dim, g standard Gumbel noise
    (minus the log of exponential draws, drawn as PyTorch draws them). hard: the one-hot of its largest entry, which
    passes the soft sample's gradient back (straight-through)."""
    if eps != 1e-10:
        warnings.warn('`eps` parameter is deprecated and has no effect.', stacklevel=2)
    if not isinstance(logits, Tensor):      # (PyTorch's error: from the empty_like that draws the noise)
        raise TypeError("empty_like(): argument 'input' (position 1) must be Tensor, not %s" % _parser_type(logits))
    noise = -_factories.empty_like(logits).exponential_().log()
    soft = ((logits + noise) / tau).softmax(dim)
    if not hard:
        return soft
    one_hot = _factories.zeros_like(logits).scatter_(dim, soft.max(dim, keepdim=True)[1], 1.0)
    return one_hot - soft.detach() + soft


def glu(input, dim=-1):
    """a * sigmoid(b), with a and b the halves of the input along dim."""
    return _ops_nn2.glu(input, dim)


def prelu(input, weight):
    """x where x > 0, else weight * x (weight: one number, or one per channel, dim 1)."""
    if not isinstance(weight, Tensor):
        raise TypeError("prelu(): argument 'weight' (position 2) must be Tensor, not %s" % _parser_type(weight))
    return _ops_nn2.prelu(input, weight)


# ================================================================================================ distances

def cosine_similarity(x1, x2, dim=1, eps=1e-8):
    """<x1, x2> / (max(||x1||, eps) * max(||x2||, eps)) along dim, as PyTorch composes it: each input divided by its
    norm (cloned, then clamped in place without recording), multiplied, summed."""
    from .. import _dtypes
    common = _dtypes.result_type(x1, x2)
    if not common.is_floating_point:
        raise RuntimeError('expected common dtype to be floating point, yet common dtype is ' + common.legacy)
    if not x1.is_floating_point():
        x1 = x1.to(common)
    if not x2.is_floating_point():
        x2 = x2.to(common)
    if x1.shape != x2.shape:
        _ops._check_broadcast(x1._data.shape, x2._data.shape)
        shape = np.broadcast_shapes(x1._data.shape, x2._data.shape)
        x1, x2 = x1.expand(shape), x2.expand(shape)
    norms = []
    for x in (x1, x2):
        n = _ops_nn.norm(x, 2, (dim,) if isinstance(dim, int) else dim, keepdim=True).clone()
        np.maximum(n._data, n._data.dtype.type(eps), out=n._data)      # (clamp_min_ under no_grad)
        _ops.bump(n)
        norms.append(n)
    second = x2 / norms[1]                   # (made first, as PyTorch's C++ does: the order backward runs them in)
    return ((x1 / norms[0]) * second).sum(dim)


def pairwise_distance(x1, x2, p=2.0, eps=1e-6, keepdim=False):
    """The p-norm of x1 - x2 + eps along the last dim (of the larger input)."""
    return _ops_nn2.pairwise_distance(x1, x2, p, eps, keepdim)


# ================================================================================================ normalization

def group_norm(input, num_groups, weight=None, bias=None, eps=1e-5):
    """Normalize each sample's groups of channels (dim 1 split in num_groups) by their mean and variance, then
    weight and bias per channel."""
    if input.dim() < 2:
        raise RuntimeError('Expected at least 2 dimensions for input tensor but received %d' % input.dim())
    _verify_batch_size([input.size(0) * input.size(1) // num_groups, num_groups] + list(input.size()[2:]))
    return _ops_nn2.group_norm(input, num_groups, weight, bias, eps)



def rms_norm(input, normalized_shape, weight=None, eps=None):
    """input / sqrt(mean(input^2 over the last len(normalized_shape) dims) + eps) * weight, composed of ops as
    PyTorch's CPU kernel composes it (its graph shows Pow, Mean, Add, Rsqrt and Mul nodes): in float32 for a
    float16 input (then cast back), eps by default the machine epsilon of that computing dtype."""
    from .. import _dtypes
    from .._tensor import _warned, warn_once
    shape = _ops_nn._check_layer_norm(input, normalized_shape, weight, None, '[*%s]', 'rms_norm')
    if weight is not None and weight.dtype is not input.dtype and 'rms_norm' not in _warned:
        _warned.add('rms_norm')                 # (once per process, whatever the dtypes: TORCH_WARN_ONCE)
        warn_once('Mismatch dtype between input and weight: input dtype = %s, weight dtype = %s, Cannot dispatch to '
                  'fused implementation.' % (_dtypes.C_NAMES[input.dtype.name], _dtypes.C_NAMES[weight.dtype.name]),
                  'aten/src/ATen/native/layer_norm.cpp:346')
    _ops_nn._check_float(input, 'rms_norm')
    x = input.float() if input.dtype is _dtypes.float16 else input
    if eps is None:
        eps = float(np.finfo(x.dtype.np).eps)
    dims = tuple(range(input.dim() - 1, input.dim() - 1 - len(shape), -1))
    out = x.mul(_ops._add_scalar(x.pow(2).mean(dims, keepdim=True), eps).rsqrt())     # (add.Scalar: AddBackward1)
    if weight is not None:
        out = out.mul(weight)
    # (made contiguous in the input's suggested format: a transposed input's result is copied, CloneBackward0)
    return out.contiguous(memory_format=_ops._suggested(input._data)).type_as(input)

def _verify_batch_size(size):
    if np.prod(size[:1] + size[2:]) == 1:
        raise ValueError('Expected more than 1 value per channel when training, got input size %s' % size)


def instance_norm(input, running_mean=None, running_var=None, weight=None, bias=None, use_input_stats=True,
                  momentum=0.1, eps=1e-5):
    """Normalize each sample's channels by their own mean and variance: PyTorch's batch_norm of the input viewed as
    (1, N * C, ...), with weight, bias and running statistics repeated N times (the running ones then averaged
    back)."""
    if use_input_stats and int(np.prod(input.shape[2:])) == 1:
        raise ValueError('Expected more than 1 spatial element when training, got input size %s' % (input.size(),))
    b, c = input.shape[0], input.shape[1]
    repeated = [None if t is None else t.repeat(b) for t in (weight, bias, running_mean, running_var)]
    if input.dtype is not _ops.dt.float16 and weight is None and bias is None:
        # (without weight and bias, running statistics of another dtype give no mixed dtype error)
        repeated[2:] = [None if t is None else t.to(input.dtype) for t in repeated[2:]]
    flat = input.contiguous().view((1, b * c) + tuple(input.shape[2:]))
    out = batch_norm(flat, repeated[2], repeated[3], repeated[0], repeated[1], use_input_stats, momentum, eps)
    from .. import _autograd
    with _autograd.no_grad():
        for t, r in ((running_mean, repeated[2]), (running_var, repeated[3])):
            if t is not None:
                t.copy_(r.view(b, c).mean(0))
    return out.view(input.shape)


def local_response_norm(input, size, alpha=1e-4, beta=0.75, k=1.0):
    """Each element divided by (k + alpha * mean of the squares of its `size` neighbouring channels) ** beta,
    composed of ops as PyTorch's Python function is (pad and avg_pool2d / avg_pool3d across the channels)."""
    dim = input.dim()
    if dim < 3:
        raise ValueError('Expected 3D or higher dimensionality                          input (got %d dimensions)'
                         % dim)
    if input.numel() == 0:
        return input
    div = input.mul(input)
    if dim == 3:
        div = div.unsqueeze(1)
        div = pad(div, (0, 0, size // 2, (size - 1) // 2))
        div = avg_pool2d(div, (size, 1), stride=1).squeeze(1)
    else:
        sizes = input.size()
        div = div.view(sizes[0], 1, sizes[1], sizes[2], -1)
        div = pad(div, (0, 0, 0, 0, size // 2, (size - 1) // 2))
        div = avg_pool3d(div, (size, 1, 1), stride=1).squeeze(1)
        div = div.view(sizes)
    div = div.mul(alpha).add(k).pow(beta)
    return input / div


# ================================================================================================ more losses

def _loss_reduction(size_average, reduce, reduction):
    """PyTorch's _Reduction: legacy_get_enum (warning) when size_average or reduce is given, else get_enum."""
    if size_average is not None or reduce is not None:
        return _ops_nn.reduction_enum(_ops_nn._legacy_reduction(size_average, reduce, 'mean'))
    return _ops_nn.reduction_enum(reduction)


def _apply_loss_reduction(output, r):
    """ATen's apply_loss_reduction: output.mean() / output.sum() / output."""
    return output.mean() if r == 1 else output.sum() if r == 2 else output


def kl_div(input, target, size_average=None, reduce=None, reduction='mean', log_target=False):
    """target * (log(target) - input) pointwise (exp(target) * (target - input) with log_target), reduced; composed
    as PyTorch 2.13 composes it (xlogy(t, t) - t * x), 'batchmean' the sum divided by the batch size."""
    if size_average is not None or reduce is not None:
        r = _ops_nn.reduction_enum(_ops_nn._legacy_reduction(size_average, reduce, 'mean'))
    else:
        if reduction == 'mean':
            warnings.warn("reduction: 'mean' divides the total loss by both the batch size and the support size."
                          "'batchmean' divides only by the batch size, and aligns with the KL div math definition."
                          "'mean' will be changed to behave the same as 'batchmean' in the next major release.",
                          stacklevel=2)
        r = _ops_nn.reduction_enum('sum' if reduction == 'batchmean' else reduction)
    from .._ops_torchfns import kl_div as aten_kl_div
    _tensors('kl_div', input=input, target=target)
    reduced = aten_kl_div(input, target, r, log_target=log_target)
    if reduction == 'batchmean' and input.dim() != 0:
        reduced = reduced / input.size()[0]
    return reduced


def margin_ranking_loss(input1, input2, target, margin=0, size_average=None, reduce=None, reduction='mean'):
    """max(0, -target * (input1 - input2) + margin), reduced (composed: mul, add.Scalar, clamp_min_)."""
    r = _loss_reduction(size_average, reduce, reduction)
    if input1.dim() != input2.dim() or input1.dim() != target.dim():
        raise RuntimeError('margin_ranking_loss : All input tensors should have same dimension but got sizes: '
                           'input1: %s, input2: %s, target: %s ' % (input1.size(), input2.size(), target.size()))
    unclamped = _ops._add_scalar(-target * (input1 - input2), margin)
    return _apply_loss_reduction(unclamped.clamp_min_(0), r)


def cosine_embedding_loss(input1, input2, target, margin=0, size_average=None, reduce=None, reduction='mean'):
    """1 - cos(x1, x2) where target is 1, max(0, cos(x1, x2) - margin) where it is -1 (rows of 2-d inputs, or two
    vectors with a 0-d target), reduced; composed as ATen composes it (cos from sums of products, eps 1e-12)."""
    r = _loss_reduction(size_average, reduce, reduction)
    _tensors('cosine_embedding_loss', input1=input1, input2=input2, target=target)
    d = target.dim()
    if d not in (0, 1):
        raise RuntimeError('0D or 1D target tensor expected, multi-target not supported')
    if input1.dim() != d + 1:
        raise RuntimeError('%dD target tensor expects %dD input tensors, but found inputs with sizes %s and %s.'
                           % (d, d + 1, _ops._sizes(input1.shape), _ops._sizes(input2.shape)))
    prod_sum = (input1 * input2).sum(d)
    mag_square1 = _ops._add_eps((input1 * input1).sum(d), 1e-12)
    mag_square2 = _ops._add_eps((input2 * input2).sum(d), 1e-12)
    cos = prod_sum / (mag_square1 * mag_square2).sqrt_()
    zeros = _factories.zeros_like(cos)
    pos = _ops._scalar_sub(1, cos)
    neg = _ops._sub_scalar(cos, margin).clamp_min_(0)
    output = _ops_nn.where(target == 1, pos, zeros) + _ops_nn.where(target == -1, neg, zeros)
    return _apply_loss_reduction(output, r)


def triplet_margin_loss(anchor, positive, negative, margin=1.0, p=2, eps=1e-6, swap=False, size_average=None,
                        reduce=None, reduction='mean'):
    """max(0, margin + d(anchor, positive) - d(anchor, negative)) with pairwise distances (swap: the smaller of
    d(anchor, negative) and d(positive, negative)), reduced; composed as ATen composes it."""
    r = _loss_reduction(size_average, reduce, reduction)
    if margin <= 0:
        raise ValueError(f"margin must be greater than 0, got {margin}")
    _tensors('triplet_margin_loss', anchor=anchor, positive=positive, negative=negative)
    dist_pos, dist_neg = _triplet_distances(anchor, positive, negative, (anchor.dim(), positive.dim(), negative.dim()),
                                            margin, swap, lambda a, b: pairwise_distance(a, b, p, eps))
    return _apply_loss_reduction((_ops._add_scalar(dist_pos, margin) - dist_neg).clamp_min(0), r)


def _triplet_distances(anchor, positive, negative, dims, margin, swap, distance):
    """The triplet losses' checks of the margin and of the inputs' dims, then d(anchor, positive) and
    d(anchor, negative) (swap: the smaller of it and d(positive, negative))."""
    if margin <= 0:
        raise ValueError(f"margin must be greater than 0, got {margin}")
    if len(set(dims)) != 1:
        raise RuntimeError('The anchor, positive, and negative tensors are expected to have the same number of '
                           'dimensions, but got: anchor %dD, positive %dD, and negative %dD inputs' % dims)
    dist_pos, dist_neg = distance(anchor, positive), distance(anchor, negative)
    if swap:
        dist_neg = _ops_nn.minimum(dist_neg, distance(positive, negative))
    return dist_pos, dist_neg


def triplet_margin_with_distance_loss(anchor, positive, negative, *, distance_function=None, margin=1.0, swap=False,
                                      reduction='mean'):
    """max(0, margin + d(anchor, positive) - d(anchor, negative)) with a distance function d of one's choice
    (pairwise_distance by default; swap: the smaller of d(anchor, negative) and d(positive, negative)), reduced;
    composed as PyTorch's Python function composes it."""
    if reduction not in ('mean', 'sum', 'none'):
        raise ValueError(f'{reduction} is not a valid value for reduction')
    dist_pos, dist_neg = _triplet_distances(anchor, positive, negative, (anchor.ndim, positive.ndim, negative.ndim),
                                            margin, swap, distance_function or pairwise_distance)
    loss = (margin + dist_pos - dist_neg).clamp_min(0)
    return loss.sum() if reduction == 'sum' else loss.mean() if reduction == 'mean' else loss


def poisson_nll_loss(input, target, log_input=True, full=False, size_average=None, eps=1e-8, reduce=None,
                     reduction='mean'):
    """exp(input) - target * input (input - target * log(input + eps) when input is a rate, not its log), plus
    Stirling's approximation of log(target!) where target > 1 with `full`; reduced, composed as ATen composes it."""
    if size_average is not None or reduce is not None:
        reduction = _ops_nn._legacy_reduction(size_average, reduce, 'mean')
    if reduction not in ('none', 'mean', 'sum'):
        raise ValueError(reduction + ' is not a valid value for reduction')
    r = _ops_nn.reduction_enum(reduction)
    _tensors('poisson_nll_loss', input=input, target=target)
    if log_input:                      # (ATen's `at::exp(input) - target * input`: the compiler evaluates the
        product = target * input       # right operand first, so exp's node is the later one)
        loss = _ops.exp(input) - product
    else:
        loss = input - target * _ops.log(_ops._add_scalar(input, eps))
    if full:
        stirling = (target * _ops.log(target) - target
                    + _ops._mul_scalar(_ops.log(_ops._mul_scalar(target, 2 * math.pi)), 0.5))
        loss += stirling.masked_fill(target <= 1, 0)
    return _apply_loss_reduction(loss, r)


def gaussian_nll_loss(input, target, var, full=False, eps=1e-6, reduction='mean'):
    """0.5 * (log(var) + (input - target) ** 2 / var) (plus 0.5 * log(2 pi) with `full`), var clamped to eps
    (one var per sample broadcasts over the last dim), reduced (PyTorch's Python function, step by step)."""
    from .. import any as torch_any
    if isinstance(var, float):
        if var < 0:
            raise ValueError('var has negative entry/entries')
        var = var * _factories.ones_like(input)
    elif torch_any(var < 0):
        raise ValueError('var has negative entry/entries')
    if var.size() != input.size():
        if input.size()[:-1] == var.size():
            var = _ops.unsqueeze(var, -1)
        elif not (input.ndim == var.ndim and sum(y for x, y in zip(input.size(), var.size()) if x != y) == 1):
            raise ValueError('var is of incorrect size')
    if reduction not in ('none', 'mean', 'sum'):
        raise ValueError(reduction + ' is not valid')
    var = var.clone()
    with _autograd.no_grad():
        var.clamp_(min=eps)
    loss = 0.5 * (_ops.log(var) + (input - target) ** 2 / var)
    if full:
        loss += 0.5 * math.log(2 * math.pi)
    return loss.mean() if reduction == 'mean' else loss.sum() if reduction == 'sum' else loss


def multilabel_soft_margin_loss(input, target, weight=None, size_average=None, reduce=None, reduction='mean'):
    """The binary cross-entropy of each class's logit, averaged over the classes (last dim), then reduced over the
    samples (PyTorch's Python function, step by step)."""
    if size_average is not None or reduce is not None:
        reduction = _ops_nn._legacy_reduction(size_average, reduce, 'mean')
    loss = -(target * logsigmoid(input) + (1 - target) * logsigmoid(-input))
    if weight is not None:
        loss = loss * weight
    class_dim = input.dim() - 1
    loss = loss.sum(dim=class_dim) / input.size(class_dim)
    if reduction == 'none':
        return loss
    if reduction == 'mean':
        return loss.mean()
    if reduction == 'sum':
        return loss.sum()
    raise ValueError(reduction + ' is not valid')


def multi_margin_loss(input, target, p=1, margin=1.0, weight=None, size_average=None, reduce=None, reduction='mean'):
    """The multi-class hinge (SVM) loss (one MultiMarginLossBackward0 node)."""
    r = _loss_reduction(size_average, reduce, reduction)
    if p != 1 and p != 2:
        raise ValueError('only p == 1 and p == 2 supported')
    if weight is not None and weight.dim() != 1:
        raise ValueError('weight must be one-dimensional')
    if type(margin) not in (float, int) or not isinstance(input, Tensor) or not isinstance(target, Tensor):
        _parse('multi_margin_loss(Tensor input, Tensor target, Scalar p=1, Scalar margin=1, Tensor? weight=None, '
               'int64_t reduction=Mean)', input, target, p, margin, weight, r)
    return _ops_nn.multi_margin_loss(input, target, p, margin, weight, r)


def multilabel_margin_loss(input, target, size_average=None, reduce=None, reduction='mean'):
    """The multi-label hinge loss (one MultilabelMarginLossBackward0 node)."""
    _tensors('multilabel_margin_loss', input=input, target=target)
    return _ops_nn.multilabel_margin_loss(input, target, _loss_reduction(size_average, reduce, reduction))


def soft_margin_loss(input, target, size_average=None, reduce=None, reduction='mean'):
    """log(1 + exp(-target * input)), reduced (one SoftMarginLossBackward0 node)."""
    _tensors('soft_margin_loss', input=input, target=target)
    return _ops_nn.soft_margin_loss(input, target, _loss_reduction(size_average, reduce, reduction))


def hinge_embedding_loss(input, target, margin=1.0, size_average=None, reduce=None, reduction='mean'):
    """input where target is 1, max(0, margin - input) where target is -1 (both where it is neither), reduced;
    composed as ATen composes it (two where's added)."""
    r = _loss_reduction(size_average, reduce, reduction)
    _tensors('hinge_embedding_loss', input=input, target=target)
    zeros = _factories.zeros_like(input)
    margin_clamp = _ops._scalar_sub(margin, input).clamp_min_(0)
    output_margin = _ops_nn.where(target != 1, margin_clamp, zeros)
    output_self = _ops_nn.where(target != -1, input, zeros)
    return _apply_loss_reduction(output_margin + output_self, r)


def _tensors(name, **arguments):
    """The TypeError of PyTorch's argument parser for the first of the op's tensor arguments (given in the order
    of its signature) that is not one."""
    for position, (argument, value) in enumerate(arguments.items(), 1):
        if not isinstance(value, Tensor):
            raise TypeError("%s(): argument '%s' (position %d) must be Tensor, not %s"
                            % (name, argument, position, _parser_type(value)))


def _tensor_input(fn, name, builtin=False):
    """fn refusing an input that is not a tensor with the TypeError of PyTorch's argument parser (PyTorch's
    F.gelu, F.elu, ... call their C++ op straight away: a torch.return_types.max is not a tensor). With inplace
    set, the op is the in-place one (elu_). builtin: PyTorch's F.<name> is the C++ op itself, which names the
    position of an input given by position only; the others pass it on by position."""
    import functools
    names = fn.__code__.co_varnames[:fn.__code__.co_argcount]
    at = names.index('inplace') if 'inplace' in names else None

    @functools.wraps(fn)
    def f(*args, **kwargs):
        if args and not isinstance(args[0], Tensor) or not args and 'input' in kwargs \
                and not isinstance(kwargs['input'], Tensor):
            inplace = at is not None and (args[at] if len(args) > at else kwargs.get('inplace'))
            raise TypeError("%s%s(): argument 'input'%s must be Tensor, not %s"
                            % (name, '_' if inplace else '', ' (position 1)' if args or not builtin else '',
                               _parser_type(args[0] if args else kwargs['input'])))
        return fn(*args, **kwargs)
    return f


for _name in ('silu', 'elu', 'hardtanh', 'relu6', 'mish', 'selu', 'celu', 'hardswish', 'hardsigmoid', 'threshold',
              'layer_norm'):
    globals()[_name] = _tensor_input(globals()[_name], _name)
threshold_ = _tensor_input(threshold_, 'threshold_', builtin=True)
gelu = _tensor_input(gelu, 'gelu', builtin=True)
softplus = _tensor_input(softplus, 'softplus', builtin=True)
logsigmoid = _tensor_input(logsigmoid, 'log_sigmoid', builtin=True)
