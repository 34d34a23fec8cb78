"""Distribution, the base of every distribution: shapes, argument validation (PyTorch's ValueError texts), sample
through rsample under no_grad, and the repr `Normal(loc: torch.Size([2]), scale: torch.Size([2]))`."""
import warnings

from . import constraints
from .utils import lazy_property, torch


class Distribution:
    """A batch of distributions of events of one shape."""
    has_rsample = False
    has_enumerate_support = False
    _validate_args = __debug__

    @staticmethod
    def set_default_validate_args(value):
        if value not in [True, False]:
            raise ValueError
        Distribution._validate_args = value

    def __init__(self, batch_shape=torch.Size(), event_shape=torch.Size(), validate_args=None):
        self._batch_shape, self._event_shape = batch_shape, event_shape
        if validate_args is not None:
            self._validate_args = validate_args
        if not self._validate_args:
            return
        try:
            arg_constraints = self.arg_constraints
        except NotImplementedError:
            arg_constraints = {}
            warnings.warn(f'{self.__class__} does not define `arg_constraints`. Please set `arg_constraints = {{}}` '
                          'or initialize the distribution with `validate_args=False` to turn off validation.',
                          stacklevel=2)
        for param, constraint in arg_constraints.items():
            if constraints.is_dependent(constraint):
                continue
            if param not in self.__dict__ and isinstance(getattr(type(self), param), lazy_property):
                continue                            # (the other parameterisation, not computed yet)
            value = getattr(self, param)
            if not constraint.check(value).all():
                raise ValueError(f'Expected parameter {param} ({type(value).__name__} of shape '
                                 f'{tuple(value.shape)}) of distribution {self!r} to satisfy the constraint '
                                 f'{constraint!r}, but found invalid values:\n{value}')

    def expand(self, batch_shape, _instance=None):
        """The same distribution over a larger batch: each parameter expanded (a view, no copy), not revalidated."""
        new = self.__new__(type(self)) if _instance is None else _instance
        batch_shape = torch.Size(batch_shape)
        new.__dict__.update(self.__dict__)
        for name in self.arg_constraints:
            if name in self.__dict__:
                value = self.__dict__[name]
                new.__dict__[name] = value.expand(batch_shape + value.shape[len(self._batch_shape):])
                if self.__dict__.get('_param') is value:
                    new._param = new.__dict__[name]
        new._batch_shape = batch_shape
        return new

    def _get_checked_instance(self, cls, _instance=None):
        """The instance an expand() fills: _instance, or a bare one of type(self), which a subclass with its own
        __init__ must not get from its base's expand()."""
        if _instance is None and type(self).__init__ != cls.__init__:
            raise NotImplementedError(f'Subclass {self.__class__.__name__} of {cls.__name__} that defines a custom '
                                      '__init__ method must also define a custom .expand() method.')
        return self.__new__(type(self)) if _instance is None else _instance

    @property
    def batch_shape(self):
        return self._batch_shape

    @property
    def event_shape(self):
        return self._event_shape

    @property
    def arg_constraints(self):
        raise NotImplementedError

    @property
    def support(self):
        raise NotImplementedError

    @property
    def mean(self):
        raise NotImplementedError

    @property
    def mode(self):
        raise NotImplementedError(f'{self.__class__} does not implement mode')

    @property
    def variance(self):
        raise NotImplementedError

    @property
    def stddev(self):
        return self.variance.sqrt()

    def sample(self, sample_shape=torch.Size()):
        """A sample without gradient: rsample under no_grad."""
        with torch.no_grad():
            return self.rsample(sample_shape)

    def rsample(self, sample_shape=torch.Size()):
        raise NotImplementedError

    def sample_n(self, n):
        warnings.warn('`sample_n(n)` will be deprecated. Use `sample((n,))` instead.', FutureWarning, stacklevel=2)
        return self.sample(torch.Size((n,)))

    def log_prob(self, value):
        raise NotImplementedError

    def cdf(self, value):
        raise NotImplementedError

    def icdf(self, value):
        raise NotImplementedError

    def enumerate_support(self, expand=True):
        raise NotImplementedError

    def entropy(self):
        raise NotImplementedError

    def perplexity(self):
        return torch.exp(self.entropy())

    def _extended_shape(self, sample_shape=torch.Size()):
        """sample_shape + batch_shape + event_shape."""
        if not isinstance(sample_shape, torch.Size):
            sample_shape = torch.Size(sample_shape)
        return torch.Size(sample_shape + self._batch_shape + self._event_shape)

    def _validate_sample(self, value):
        """PyTorch's checks of a value to score: a tensor, of a broadcastable shape, inside the support."""
        if not isinstance(value, torch.Tensor):
            raise ValueError('The value argument to log_prob must be a Tensor')
        event_dim_start = len(value.size()) - len(self._event_shape)
        if value.size()[event_dim_start:] != self._event_shape:
            raise ValueError(f'The right-most size of value must match event_shape: {value.size()} vs '
                             f'{self._event_shape}.')
        actual, expected = value.size(), self._batch_shape + self._event_shape
        for i, j in zip(reversed(actual), reversed(expected)):
            if i != 1 and j != 1 and i != j:
                raise ValueError(f'Value is not broadcastable with batch_shape+event_shape: {actual} vs {expected}.')
        try:
            support = self.support
        except NotImplementedError:
            warnings.warn(f'{self.__class__} does not define `support` to enable sample validation. Please '
                          'initialize the distribution with `validate_args=False` to turn off validation.',
                          stacklevel=2)
            return
        if not support.check(value).all():
            raise ValueError(f'Expected value argument ({type(value).__name__} of shape {tuple(value.shape)}) to be '
                             f'within the support ({support!r}) of the distribution {self!r}, but found invalid '
                             f'values:\n{value}')

    def __repr__(self):
        args = ', '.join(f'{p}: {v if v.numel() == 1 else v.size()}'
                         for p, v in ((p, self.__dict__[p]) for p in self.arg_constraints if p in self.__dict__))
        return f'{self.__class__.__name__}({args})'

