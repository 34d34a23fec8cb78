"""torch.nn.utils.parametrizations: weight_norm and spectral_norm as parametrizations (see parametrize.py): the
module's weight is made from its originals at each read, in the graph of them."""
from ... import _autograd as ag
from ..._ops_nn2 import norm_except_dim, weight_norm as _weight_norm
from .. import Module, functional as F
from . import parametrize


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
