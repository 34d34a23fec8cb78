"""Helpers the distributions share, as torch.distributions.utils has them: broadcasting parameters, probabilities
to logits and back, lazily computed parameters."""
import sys
from numbers import Number

torch = sys.modules[__name__.rsplit('.', 2)[0]]     # the engine itself, named as the code these files mirror

euler_constant = 0.57721566490153286060


def broadcast_all(*values):
    """The values as tensors of one shape: numbers become tensors of the first tensor's dtype (or the default)."""
    if not all(isinstance(v, (torch.Tensor, Number)) for v in values):
        raise ValueError('Input arguments must all be instances of Number, torch.Tensor or objects implementing '
                         '__torch_function__.')
    if not all(isinstance(v, torch.Tensor) for v in values):
        dtype = next((v.dtype for v in values if isinstance(v, torch.Tensor)), torch.get_default_dtype())
        values = [v if isinstance(v, torch.Tensor) else torch.tensor(v, dtype=dtype) for v in values]
    return torch.broadcast_tensors(*values)


def _probs_or_logits(probs, logits):
    """The one parameter given (probs or logits) and its name; the other is computed when first read."""
    if (probs is None) == (logits is None):
        raise ValueError('Either `probs` or `logits` must be specified, but not both.')
    given = probs if probs is not None else logits
    return given, 'probs' if probs is not None else 'logits'


def _standard_normal(shape, dtype, device=None):
    """N(0, 1) numbers drawn by normal_ into a fresh tensor (so samples follow torch.manual_seed)."""
    return torch.empty(shape, dtype=dtype).normal_()


def _sum_rightmost(value, dim):
    """Sum out the `dim` rightmost dims."""
    return value if dim == 0 else value.reshape(value.shape[:-dim] + (-1,)).sum(-1)


def logits_to_probs(logits, is_binary=False):
    """sigmoid of log-odds, or softmax of unnormalised log-probabilities over the last dim."""
    return torch.sigmoid(logits) if is_binary else torch.nn.functional.softmax(logits, dim=-1)


def clamp_probs(probs):
    """Probabilities clamped into [eps, 1 - eps], so their logs stay finite."""
    eps = torch.finfo(probs.dtype).eps
    return probs.clamp(min=eps, max=1 - eps)


def probs_to_logits(probs, is_binary=False):
    """log-odds (binary) or log-probabilities of clamped probabilities."""
    ps_clamped = clamp_probs(probs)
    if is_binary:
        return torch.log(ps_clamped) - torch.log1p(-ps_clamped)
    return torch.log(ps_clamped)


class lazy_property:
    """A parameter computed from the other one on first use (with grad on, as PyTorch does), then cached in the
    instance; on the class it stays itself, which tells validation to skip a parameter not made yet."""

    def __init__(self, wrapped):
        self.wrapped = wrapped
        self.__doc__ = wrapped.__doc__
        self.__name__ = wrapped.__name__

    def __get__(self, instance, owner=None):
        if instance is None:
            return self
        with torch.enable_grad():
            value = self.wrapped(instance)
        setattr(instance, self.wrapped.__name__, value)
        return value
