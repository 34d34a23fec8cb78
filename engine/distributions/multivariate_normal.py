"""MultivariateNormal(loc, covariance_matrix= | precision_matrix= | scale_tril=): everything goes through the lower
Cholesky factor L of the covariance (kept unbroadcast): samples are loc + L @ eps, densities use the Mahalanobis
distance |L^-1 (x - loc)|^2 from a triangular solve and log det L from L's diagonal."""
import math

from . import constraints
from .distribution import Distribution
from .utils import _standard_normal, lazy_property, torch


def _batch_mv(bmat, bvec):
    """Matrix times vector over broadcast batch dims."""
    return torch.matmul(bmat, bvec.unsqueeze(-1)).squeeze(-1)


def _batch_mahalanobis(bL, bx):
    """|L^-1 x|^2 for each vector x of bx, L broadcast over bx's batch dims."""
    batch = torch.broadcast_shapes(bL.shape[:-2], bx.shape[:-1])
    n = bx.size(-1)
    solved = torch.linalg.solve_triangular(bL.expand(batch + (n, n)), bx.expand(batch + (n,)).unsqueeze(-1),
                                           upper=False)
    return solved.squeeze(-1).pow(2).sum(-1)


def _half_log_det(L):
    return L.diagonal(dim1=-2, dim2=-1).log().sum(-1)


def _precision_to_scale_tril(P):
    """The lower Cholesky factor of P's inverse, without inverting P: from the factor of P with rows and columns
    reversed."""
    Lf = torch.linalg.cholesky(torch.flip(P, (-2, -1)))
    L_inv = torch.transpose(torch.flip(Lf, (-2, -1)), -2, -1)
    Id = torch.eye(P.shape[-1], dtype=P.dtype, device=P.device)
    return torch.linalg.solve_triangular(L_inv, Id, upper=False)


class MultivariateNormal(Distribution):
    """The Gaussian over vectors with mean `loc` and one of covariance, precision or the covariance's Cholesky
    factor."""
    arg_constraints = {'loc': constraints.real_vector, 'covariance_matrix': constraints.positive_definite,
                       'precision_matrix': constraints.positive_definite, 'scale_tril': constraints.lower_cholesky}
    support = constraints.real_vector
    has_rsample = True

    def __init__(self, loc, covariance_matrix=None, precision_matrix=None, scale_tril=None, validate_args=None):
        if loc.dim() < 1:
            raise ValueError('loc must be at least one-dimensional.')
        given = [(name, m) for name, m in (('covariance_matrix', covariance_matrix),
                                           ('precision_matrix', precision_matrix), ('scale_tril', scale_tril))
                 if m is not None]
        if len(given) != 1:
            raise ValueError('Exactly one of covariance_matrix or precision_matrix or scale_tril may be specified.')
        name, matrix = given[0]
        if matrix.dim() < 2:
            raise ValueError('%s must be at least two-dimensional, with optional leading batch dimensions'
                             % ('scale_tril matrix' if name == 'scale_tril' else name))
        batch_shape = torch.broadcast_shapes(matrix.shape[:-2], loc.shape[:-1])
        setattr(self, name, matrix.expand(batch_shape + (-1, -1)))
        self.loc = loc.expand(batch_shape + (-1,))
        super().__init__(batch_shape, self.loc.shape[-1:], validate_args=validate_args)
        if name == 'scale_tril':
            self._unbroadcasted_scale_tril = matrix
        elif name == 'covariance_matrix':
            self._unbroadcasted_scale_tril = torch.linalg.cholesky(matrix)
        else:
            self._unbroadcasted_scale_tril = _precision_to_scale_tril(matrix)

    def expand(self, batch_shape, _instance=None):
        new = self.__new__(type(self)) if _instance is None else _instance
        batch_shape = torch.Size(batch_shape)
        loc_shape = batch_shape + self.event_shape
        cov_shape = batch_shape + self.event_shape + self.event_shape
        new.loc = self.loc.expand(loc_shape)
        new._unbroadcasted_scale_tril = self._unbroadcasted_scale_tril
        for name in ('covariance_matrix', 'scale_tril', 'precision_matrix'):
            if name in self.__dict__:
                new.__dict__[name] = self.__dict__[name].expand(cov_shape)
        Distribution.__init__(new, batch_shape, self.event_shape, validate_args=False)
        new._validate_args = self._validate_args
        return new

    @lazy_property
    def scale_tril(self):
        return self._unbroadcasted_scale_tril.expand(self._batch_shape + self._event_shape + self._event_shape)

    @lazy_property
    def covariance_matrix(self):
        L = self._unbroadcasted_scale_tril
        return torch.matmul(L, L.mT).expand(self._batch_shape + self._event_shape + self._event_shape)

    @lazy_property
    def precision_matrix(self):
        return torch.cholesky_inverse(self._unbroadcasted_scale_tril).expand(
            self._batch_shape + self._event_shape + self._event_shape)

    @property
    def mean(self):
        return self.loc

    @property
    def mode(self):
        return self.loc

    @property
    def variance(self):
        return self._unbroadcasted_scale_tril.pow(2).sum(-1).expand(self._batch_shape + self._event_shape)

    def rsample(self, sample_shape=torch.Size()):
        eps = _standard_normal(self._extended_shape(sample_shape), dtype=self.loc.dtype)
        return self.loc + _batch_mv(self._unbroadcasted_scale_tril, eps)

    def log_prob(self, value):
        if self._validate_args:
            self._validate_sample(value)
        M = _batch_mahalanobis(self._unbroadcasted_scale_tril, value - self.loc)
        return -0.5 * (self._event_shape[0] * math.log(2 * math.pi) + M) - _half_log_det(
            self._unbroadcasted_scale_tril)

    def entropy(self):
        H = 0.5 * self._event_shape[0] * (1.0 + math.log(2 * math.pi)) + _half_log_det(
            self._unbroadcasted_scale_tril)
        return H if len(self._batch_shape) == 0 else H.expand(self._batch_shape)
