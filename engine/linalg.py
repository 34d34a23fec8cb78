"""torch.linalg: the few functions PyTorch's tutorials call (matmul, cross, svd, inv, vector_norm, norm of a vector)."""
from . import matmul  # noqa: F401
from ._ops_reduce import inverse as inv, _LinAlgError as LinAlgError  # noqa: F401
from ._ops_nn import linalg_cross as cross, linalg_svd as svd, norm as _norm


def vector_norm(x, ord=2, dim=None, keepdim=False, *, dtype=None):
    return _norm(x, ord, dim, keepdim, dtype)
