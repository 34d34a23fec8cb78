"""torch.distributions.constraints: the regions parameters and values must lie in, with PyTorch's reprs (they
appear in validation errors)."""
from .utils import torch


class Constraint:
    """A region: `check(value)` is a bool tensor, one entry per event."""
    is_discrete = False
    event_dim = 0

    def check(self, value):
        raise NotImplementedError

    def __repr__(self):
        return type(self).__name__[1:] + '()'


class _Dependent(Constraint):
    """A region that depends on other parameters: never checked."""

    def __init__(self, *, is_discrete=NotImplemented, event_dim=NotImplemented):
        self._is_discrete, self._event_dim = is_discrete, event_dim

    @property
    def is_discrete(self):
        if self._is_discrete is NotImplemented:
            raise NotImplementedError('.is_discrete cannot be determined statically')
        return self._is_discrete

    @property
    def event_dim(self):
        if self._event_dim is NotImplemented:
            raise NotImplementedError('.event_dim cannot be determined statically')
        return self._event_dim

    def __call__(self, *, is_discrete=NotImplemented, event_dim=NotImplemented):
        return _Dependent(is_discrete=self._is_discrete if is_discrete is NotImplemented else is_discrete,
                          event_dim=self._event_dim if event_dim is NotImplemented else event_dim)

    def check(self, x):
        raise ValueError('Cannot determine validity of dependent constraint')


def is_dependent(constraint):
    return isinstance(constraint, _Dependent)


class _DependentProperty(property, _Dependent):
    """A property on instances (Uniform's support: interval(low, high)), a dependent constraint on the class."""

    def __init__(self, fn=None, *, is_discrete=NotImplemented, event_dim=NotImplemented):
        property.__init__(self, fn)
        self._is_discrete, self._event_dim = is_discrete, event_dim

    def __call__(self, fn):
        return _DependentProperty(fn, is_discrete=self._is_discrete, event_dim=self._event_dim)


class _IndependentConstraint(Constraint):
    """A constraint over `reinterpreted_batch_ndims` more rightmost dims: an event is valid when all entries are."""

    def __init__(self, base_constraint, reinterpreted_batch_ndims):
        self.base_constraint, self.reinterpreted_batch_ndims = base_constraint, reinterpreted_batch_ndims

    @property
    def is_discrete(self):
        return self.base_constraint.is_discrete

    @property
    def event_dim(self):
        return self.base_constraint.event_dim + self.reinterpreted_batch_ndims

    def check(self, value):
        result = self.base_constraint.check(value)
        if result.dim() < self.reinterpreted_batch_ndims:
            raise ValueError(f'Expected value.dim() >= {self.event_dim} but got {value.dim()}')
        return result.reshape(result.shape[:result.dim() - self.reinterpreted_batch_ndims] + (-1,)).all(-1)

    def __repr__(self):
        return f'{type(self).__name__[1:]}({self.base_constraint!r}, {self.reinterpreted_batch_ndims})'


class MixtureSameFamilyConstraint(Constraint):
    """MixtureSameFamily's support: the component distribution's, checked with the component dim put back."""

    def __init__(self, base_constraint):
        if not isinstance(base_constraint, Constraint):
            raise AssertionError(f'base_constraint must be a Constraint, got {type(base_constraint).__name__}')
        self.base_constraint = base_constraint
        super().__init__()

    @property
    def is_discrete(self):
        return self.base_constraint.is_discrete

    @property
    def event_dim(self):
        return self.base_constraint.event_dim

    def check(self, value):
        result = self.base_constraint.check(value.unsqueeze(-1 - self.event_dim))
        if value.dim() < self.event_dim:
            raise ValueError(f'Expected value.dim() >= {self.event_dim} but got {value.dim()}')
        num_dim_to_keep = value.dim() - self.event_dim
        return result.reshape(result.shape[:num_dim_to_keep] + (-1,)).all(-1)

    def __repr__(self):
        return f'{self.__class__.__name__}({self.base_constraint!r})'


class _Bounded(Constraint):
    """A constraint with bounds, shown in its repr as PyTorch shows them."""
    _bounds = ()

    def __init__(self, *bounds):
        for name, bound in zip(self._bounds, bounds):
            setattr(self, name, bound)

    def __repr__(self):
        return type(self).__name__[1:] + '(' + ', '.join(f'{n}={getattr(self, n)}' for n in self._bounds) + ')'


class _Boolean(Constraint):
    is_discrete = True

    def check(self, value):
        return (value == 0) | (value == 1)


class _OneHot(Constraint):
    is_discrete, event_dim = True, 1

    def check(self, value):
        return ((value == 0) | (value == 1)).all(-1) & value.sum(-1).eq(1)


class _IntegerInterval(_Bounded):
    is_discrete, _bounds = True, ('lower_bound', 'upper_bound')

    def check(self, value):
        return (value % 1 == 0) & (self.lower_bound <= value) & (value <= self.upper_bound)


class _IntegerGreaterThan(_Bounded):
    is_discrete, _bounds = True, ('lower_bound',)

    def check(self, value):
        return (value % 1 == 0) & (value >= self.lower_bound)


class _Real(Constraint):
    def check(self, value):
        return value == value                   # (False for NaN)


class _GreaterThan(_Bounded):
    _bounds = ('lower_bound',)

    def check(self, value):
        return self.lower_bound < value


class _GreaterThanEq(_Bounded):
    _bounds = ('lower_bound',)

    def check(self, value):
        return self.lower_bound <= value


class _LessThan(_Bounded):
    _bounds = ('upper_bound',)

    def check(self, value):
        return value < self.upper_bound


class _Interval(_Bounded):
    _bounds = ('lower_bound', 'upper_bound')

    def check(self, value):
        return (self.lower_bound <= value) & (value <= self.upper_bound)


class _HalfOpenInterval(_Interval):
    def check(self, value):
        return (self.lower_bound <= value) & (value < self.upper_bound)


class _Simplex(Constraint):
    event_dim = 1

    def check(self, value):
        return torch.all(value >= 0, dim=-1) & ((value.sum(-1) - 1).abs() < 1e-6)


class _Multinomial(Constraint):
    """Counts of at most upper_bound draws: nonnegative, summing to no more than it."""
    is_discrete = True
    event_dim = 1

    def __init__(self, upper_bound):
        self.upper_bound = upper_bound

    def check(self, x):
        return (x >= 0).all(dim=-1) & (x.sum(dim=-1) <= self.upper_bound)


class _LowerTriangular(Constraint):
    """Square matrices with zeros above the diagonal."""
    event_dim = 2

    def check(self, value):
        return (value.tril() == value).view(value.shape[:-2] + (-1,)).min(-1)[0]


class _LowerCholesky(_LowerTriangular):
    """Lower triangular matrices with a positive diagonal: Cholesky factors."""
    def check(self, value):
        return super().check(value) & (value.diagonal(dim1=-2, dim2=-1) > 0).min(-1)[0]


class _Square(Constraint):
    event_dim = 2

    def check(self, value):
        return torch.full(value.shape[:-2], value.shape[-2] == value.shape[-1], dtype=torch.bool)


class _Symmetric(_Square):
    def check(self, value):
        square = super().check(value)
        if not square.all():
            return square
        return torch.isclose(value, value.mT, atol=1e-6).all(-2).all(-1)


class _PositiveDefinite(_Symmetric):
    """Symmetric matrices with a Cholesky factor."""
    def check(self, value):
        symmetric = super().check(value)
        if not symmetric.all():
            return symmetric
        return torch.linalg.cholesky_ex(value).info.eq(0)


dependent = _Dependent()
dependent_property = _DependentProperty
independent = _IndependentConstraint
boolean = _Boolean()
one_hot = _OneHot()
nonnegative_integer = _IntegerGreaterThan(0)
positive_integer = _IntegerGreaterThan(1)
integer_interval = _IntegerInterval
real = _Real()
real_vector = independent(real, 1)
positive = _GreaterThan(0.0)
nonnegative = _GreaterThanEq(0.0)
greater_than = _GreaterThan
greater_than_eq = _GreaterThanEq
less_than = _LessThan
unit_interval = _Interval(0.0, 1.0)
interval = _Interval
half_open_interval = _HalfOpenInterval
simplex = _Simplex()
lower_triangular = _LowerTriangular()
lower_cholesky = _LowerCholesky()
square = _Square()
symmetric = _Symmetric()
positive_definite = _PositiveDefinite()
multinomial = _Multinomial

for _cls in [v for v in list(globals().values()) if isinstance(v, type) and issubclass(v, Constraint)]:
    _cls.__module__ = 'torch.distributions.constraints'    # (as type(constraints.positive) shows it)
