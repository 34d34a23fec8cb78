"""torch.linalg: the functions PyTorch's tutorials call (matmul, cross, svd, inv, det, slogdet, solve, matrix_power,
vector_norm, norm of a vector)."""
from . import matmul  # noqa: F401
from ._ops_reduce import inverse as inv, _LinAlgError as LinAlgError  # noqa: F401
from ._ops_nn import linalg_cross as cross, linalg_svd as svd, norm as _norm
from ._ops_linalg import (linalg_det as det, linalg_slogdet as slogdet, linalg_solve as solve,
                          linalg_solve_ex as solve_ex,  # noqa: F401
                          linalg_matrix_power as matrix_power)


def vector_norm(x, ord=2, dim=None, keepdim=False, *, dtype=None):
    return _norm(x, ord, dim, keepdim, dtype)
