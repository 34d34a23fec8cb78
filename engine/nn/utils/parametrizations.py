"""torch.nn.utils.parametrizations: orthogonal, weight_norm and spectral_norm as parametrizations (see
parametrize.py): the module's weight is made from its originals at each read, in the graph of them."""
from enum import Enum, auto

from ... import _autograd as ag
from ..._ops_nn2 import norm_except_dim, weight_norm as _weight_norm
from .. import Module, functional as F
from . import parametrize


def _is_orthogonal(Q, eps=None):
    from ... import eye, finfo, allclose
    n, k = Q.size(-2), Q.size(-1)
    return allclose(Q.mH @ Q, eye(k, dtype=Q.dtype), atol=10.0 * n * finfo(Q.dtype).eps)


def _make_orthogonal(A):
    """Q of A = QR (A tall) with R's diagonal made non-negative."""
    from ... import geqrf, linalg
    X, tau = geqrf(A)
    Q = linalg.householder_product(X, tau)
    Q *= X.diagonal(dim1=-2, dim2=-1).sgn().unsqueeze(-2)
    return Q


class _OrthMaps(Enum):
    matrix_exp = auto()
    cayley = auto()
    householder = auto()


_OrthMaps.__module__ = 'torch.nn.utils.parametrizations'


class _Orthogonal(Module):
    """A matrix (or batch) with orthonormal columns (or rows, when wide) made from an unconstrained one: the matrix
    exponential or the Cayley map of its skew-symmetric part, or the product of Householder reflections of its
    strictly lower part; with use_trivialization, times the buffer `base`, the orthogonal matrix last written."""
    __module__ = 'torch.nn.utils.parametrizations'

    def __init__(self, weight, orthogonal_map, *, use_trivialization=True):
        super().__init__()
        self.shape = weight.shape
        self.orthogonal_map = orthogonal_map
        if use_trivialization:
            self.register_buffer('base', None)

    def forward(self, X):
        from ... import cat, eye, matrix_exp, add, linalg
        n, k = X.size(-2), X.size(-1)
        transposed = n < k
        if transposed:
            X = X.mT
            n, k = k, n
        if self.orthogonal_map in (_OrthMaps.matrix_exp, _OrthMaps.cayley):
            X = X.tril()
            if n != k:
                X = cat([X, X.new_zeros(n, n - k).expand(*X.shape[:-2], -1, -1)], dim=-1)
            A = X - X.mH
            if self.orthogonal_map == _OrthMaps.matrix_exp:
                Q = matrix_exp(A)
            else:
                Id = eye(n, dtype=A.dtype)
                Q = linalg.solve(add(Id, A, alpha=-0.5), add(Id, A, alpha=0.5))
            if n != k:
                Q = Q[..., :k]
        else:
            A = X.tril(diagonal=-1)
            tau = 2.0 / (1.0 + (A * A).sum(dim=-2))
            Q = linalg.householder_product(A, tau)
            Q = Q * X.diagonal(dim1=-2, dim2=-1).int().unsqueeze(-2)
        if hasattr(self, 'base'):
            Q = self.base @ Q
        return Q.mT if transposed else Q

    def right_inverse(self, Q):
        from ... import cat, geqrf, randn, zeros_like
        with ag.no_grad():
            if Q.shape != self.shape:
                raise ValueError('Expected a matrix or batch of matrices of shape %s. Got a tensor of shape %s.'
                                 % (self.shape, Q.shape))
            Q_init = Q
            n, k = Q.size(-2), Q.size(-1)
            transpose = n < k
            if transpose:
                Q = Q.mT
                n, k = k, n
            if not hasattr(self, 'base'):
                if self.orthogonal_map in (_OrthMaps.cayley, _OrthMaps.matrix_exp):
                    raise NotImplementedError('It is not possible to assign to the matrix exponential or the Cayley '
                                              'parametrizations when use_trivialization=False.')
                A, tau = geqrf(Q)
                A.diagonal(dim1=-2, dim2=-1).sign_()
                A.diagonal(dim1=-2, dim2=-1)[tau == 0.0] *= -1
                return A.mT if transpose else A
            if n == k:
                Q = _make_orthogonal(Q) if not _is_orthogonal(Q) else Q.clone()
            else:
                N = randn(*(Q.size()[:-2] + (n, n - k)), dtype=Q.dtype)
                Q = _make_orthogonal(cat([Q, N], dim=-1))
            self.base = Q
            neg_Id = zeros_like(Q_init)
            neg_Id.diagonal(dim1=-2, dim2=-1).fill_(-1.0)
            return neg_Id


def orthogonal(module, name='weight', orthogonal_map=None, *, use_trivialization=True):
    """module.`name` (a matrix or a batch of them) kept orthogonal: Q^T Q = I (Q Q^T = I when wide), by
    orthogonal_map 'matrix_exp' (square, the default there), 'cayley' or 'householder' (the default otherwise)."""
    from ..._tensor import Tensor
    weight = getattr(module, name, None)
    if not isinstance(weight, Tensor):
        raise ValueError("Module '%s' has no parameter or buffer with name '%s'" % (module, name))
    if weight.ndim < 2:
        raise ValueError('Expected a matrix or batch of matrices. Got a tensor of %d dimensions.' % weight.ndim)
    if orthogonal_map is None:
        orthogonal_map = 'matrix_exp' if weight.size(-2) == weight.size(-1) else 'householder'
    orth_enum = getattr(_OrthMaps, orthogonal_map, None)
    if orth_enum is None:
        raise ValueError('orthogonal_map has to be one of "matrix_exp", "cayley", "householder". Got: %s'
                         % orthogonal_map)
    orth = _Orthogonal(weight, orth_enum, use_trivialization=use_trivialization)
    parametrize.register_parametrization(module, name, orth, unsafe=True)
    return module


class _WeightNorm(Module):
    """weight = g * v / ||v|| (the norm over every dim but dim): original0 is g, original1 is v."""
    __module__ = 'torch.nn.utils.parametrizations'

    def __init__(self, dim=0):
        super().__init__()
        self.dim = -1 if dim is None else dim

    def forward(self, weight_g, weight_v):
        return _weight_norm(weight_v, weight_g, self.dim)

    def right_inverse(self, weight):
        return norm_except_dim(weight, 2, self.dim), weight


def weight_norm(module, name='weight', dim=0):
    """module.`name` made from a magnitude g (original0) and a direction v (original1), both trained."""
    parametrize.register_parametrization(module, name, _WeightNorm(dim), unsafe=True)
    return module


class _SpectralNorm(Module):
    """weight / sigma, sigma its largest singular value as estimated by power iteration: the vectors _u and _v
    (buffers) take n_power_iterations steps at each read in training mode, without a graph."""
    __module__ = 'torch.nn.utils.parametrizations'

    def __init__(self, weight, n_power_iterations=1, dim=0, eps=1e-12):
        super().__init__()
        ndim = weight.ndim
        if dim >= ndim or dim < -ndim:
            raise IndexError('Dimension out of range (expected to be in range of [-%d, %d] but got %d)'
                             % (ndim, ndim - 1, dim))
        if n_power_iterations <= 0:
            raise ValueError('Expected n_power_iterations to be positive, but got n_power_iterations=%s'
                             % n_power_iterations)
        self.dim = dim if dim >= 0 else dim + ndim
        self.eps = eps
        if ndim > 1:
            self.n_power_iterations = n_power_iterations
            weight_mat = self._reshape_weight_to_matrix(weight)
            h, w = weight_mat.size()
            u = weight_mat.new_empty(h).normal_(0, 1)
            v = weight_mat.new_empty(w).normal_(0, 1)
            self.register_buffer('_u', F.normalize(u, dim=0, eps=self.eps))
            self.register_buffer('_v', F.normalize(v, dim=0, eps=self.eps))
            self._power_method(weight_mat, 15)      # (a good start for u and v)

    def _reshape_weight_to_matrix(self, weight):
        if self.dim != 0:
            weight = weight.permute(self.dim, *(d for d in range(weight.dim()) if d != self.dim))
        return weight.flatten(1)

    def _power_method(self, weight_mat, n_power_iterations):
        from ... import mv
        with ag.no_grad():
            for _ in range(n_power_iterations):
                self._u = F.normalize(mv(weight_mat, self._v), dim=0, eps=self.eps, out=self._u)
                self._v = F.normalize(mv(weight_mat.H, self._u), dim=0, eps=self.eps, out=self._v)

    def forward(self, weight):
        from ... import mv, vdot, contiguous_format
        if weight.ndim == 1:
            return F.normalize(weight, dim=0, eps=self.eps)
        weight_mat = self._reshape_weight_to_matrix(weight)
        if self.training:
            self._power_method(weight_mat, self.n_power_iterations)
        u = self._u.clone(memory_format=contiguous_format)
        v = self._v.clone(memory_format=contiguous_format)
        return weight / vdot(u, mv(weight_mat, v))

    def right_inverse(self, value):
        return value


def _transposed_conv_dim(module, dim):
    """spectral_norm's default dim: 1 for a transposed convolution (its weight is in x out), else 0."""
    from .. import ConvTranspose1d, ConvTranspose2d, ConvTranspose3d
    if dim is not None:
        return dim
    return 1 if isinstance(module, (ConvTranspose1d, ConvTranspose2d, ConvTranspose3d)) else 0


def spectral_norm(module, name='weight', n_power_iterations=1, eps=1e-12, dim=None):
    """module.`name` divided by its spectral norm (estimated by power iteration): a 1-Lipschitz layer, as GAN
    discriminators use."""
    from ..._tensor import Tensor
    weight = getattr(module, name, None)
    if not isinstance(weight, Tensor):
        raise ValueError("Module '%s' has no parameter or buffer with name '%s'" % (module, name))
    parametrize.register_parametrization(
        module, name, _SpectralNorm(weight, n_power_iterations, _transposed_conv_dim(module, dim), eps))
    return module
