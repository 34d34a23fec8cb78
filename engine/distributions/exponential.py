"""Exponential(rate): rsample is an Exp(1) draw (PyTorch's exponential_ numbers) divided by rate."""
from numbers import Number

from . import constraints
from .exp_family import ExponentialFamily
from .utils import broadcast_all, torch
from .. import _random
from .._tensor import make


def _standard_exponential(shape, dtype):
    """Exp(1) numbers as `torch.empty(shape).exponential_()` draws them (the engine has no exponential_ yet)."""
    n = torch.Size(shape).numel()
    return make(_random.exponential(_random.default_generator, n).astype(dtype.np).reshape(shape))


class Exponential(ExponentialFamily):
    """The waiting time of a Poisson process of rate `rate`."""
    arg_constraints = {'rate': constraints.positive}
    support = constraints.nonnegative
    has_rsample = True

    def __init__(self, rate, validate_args=None):
        (self.rate,) = broadcast_all(rate)
        super().__init__(torch.Size() if isinstance(rate, Number) else self.rate.size(), validate_args=validate_args)

    @property
    def mean(self):
        return self.rate.reciprocal()

    @property
    def mode(self):
        return torch.zeros_like(self.rate)

    @property
    def stddev(self):
        return self.rate.reciprocal()

    @property
    def variance(self):
        return self.rate.pow(-2)

    def rsample(self, sample_shape=torch.Size()):
        return _standard_exponential(self._extended_shape(sample_shape), self.rate.dtype) / self.rate

    def log_prob(self, value):
        if self._validate_args:
            self._validate_sample(value)
        return self.rate.log() - self.rate * value

    def cdf(self, value):
        if self._validate_args:
            self._validate_sample(value)
        return 1 - torch.exp(-self.rate * value)

    def icdf(self, value):
        return -torch.log1p(-value) / self.rate

    def entropy(self):
        return 1.0 - torch.log(self.rate)
