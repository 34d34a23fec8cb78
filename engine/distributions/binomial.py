"""Binomial(total_count, probs= | logits=): samples are torch.binomial's (PyTorch's sampler); log_prob is written
with the logits, as PyTorch writes it (stable for probabilities near 0 and 1)."""
from . import constraints
from .bernoulli import Bernoulli
from .distribution import Distribution
from .utils import _probs_or_logits, broadcast_all, torch


def _clamp_by_zero(x):
    """max(x, 0), written so that its gradient at 0 is 1/2."""
    return (x.clamp(min=0) + x - x.clamp(max=0)) / 2


class Binomial(Distribution):
    """How many of `total_count` independent trials succeed, each with probability `probs` (or sigmoid(`logits`))."""
    arg_constraints = {'total_count': constraints.nonnegative_integer, 'probs': constraints.unit_interval,
                       'logits': constraints.real}
    has_enumerate_support = True

    def __init__(self, total_count=1, probs=None, logits=None, validate_args=None):
        given, name = _probs_or_logits(probs, logits)
        self.total_count, param = broadcast_all(total_count, given)
        setattr(self, name, param)
        self.total_count = self.total_count.type_as(param)
        self._param = param
        super().__init__(self._param.size(), validate_args=validate_args)

    @constraints.dependent_property(is_discrete=True, event_dim=0)
    def support(self):
        return constraints.integer_interval(0, self.total_count)

    # (Bernoulli's pair of parameters, each computed from the other when first read)
    logits, probs, param_shape = Bernoulli.logits, Bernoulli.probs, Bernoulli.param_shape

    @property
    def mean(self):
        return self.total_count * self.probs

    @property
    def mode(self):
        return ((self.total_count + 1) * self.probs).floor().clamp(max=self.total_count)

    @property
    def variance(self):
        return self.total_count * self.probs * (1 - self.probs)

    def sample(self, sample_shape=torch.Size()):
        shape = self._extended_shape(sample_shape)
        with torch.no_grad():
            return torch.binomial(self.total_count.expand(shape), self.probs.expand(shape))

    def log_prob(self, value):
        """log C(n, k) + k logit - n log(1 + e^logit), the last term as max(logit, 0) + log1p(e^-|logit|)."""
        if self._validate_args:
            self._validate_sample(value)
        log_factorial_n = torch.lgamma(self.total_count + 1)
        log_factorial_k = torch.lgamma(value + 1)
        log_factorial_nmk = torch.lgamma(self.total_count - value + 1)
        normalize_term = (self.total_count * _clamp_by_zero(self.logits)
                          + self.total_count * torch.log1p(torch.exp(-torch.abs(self.logits))) - log_factorial_n)
        return value * self.logits - log_factorial_k - log_factorial_nmk - normalize_term

    def _homogeneous_count(self, what):
        n = int(self.total_count.max())
        if not self.total_count.min() == n:
            raise NotImplementedError('Inhomogeneous total count not supported by `%s`.' % what)
        return n

    def entropy(self):
        self._homogeneous_count('entropy')
        log_prob = self.log_prob(self.enumerate_support(False))
        return -(torch.exp(log_prob) * log_prob).sum(0)

    def enumerate_support(self, expand=True):
        n = self._homogeneous_count('enumerate_support')
        values = torch.arange(1 + n, dtype=self._param.dtype).view((-1,) + (1,) * len(self._batch_shape))
        return values.expand((-1,) + self._batch_shape) if expand else values
