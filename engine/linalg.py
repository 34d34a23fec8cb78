"""torch.linalg: the functions PyTorch's tutorials call (matmul, cross, svd, svdvals, inv, det, slogdet, solve,
matrix_power, pinv, matrix_rank, lstsq, cholesky, cholesky_ex, eigh, eigvalsh, qr,
solve_triangular, and the norms: vector_norm, matrix_norm, norm)."""
import functools
import math

from . import matmul  # noqa: F401
from . import _dtypes as dt
from ._ops_reduce import _LinAlgError as LinAlgError  # noqa: F401
from ._ops_nn import linalg_cross as cross, linalg_svd as svd, norm as _norm, _check_norm_dtype as _check_dtype
from ._ops_linalg import (inverse as inv, linalg_det as det, linalg_slogdet as slogdet, linalg_solve as solve,
                          linalg_solve_ex as solve_ex,  # noqa: F401
                          linalg_matrix_power as matrix_power, linalg_pinv as pinv,
                          linalg_matrix_rank as matrix_rank, linalg_lstsq as lstsq,
                          linalg_cholesky as cholesky, linalg_cholesky_ex as cholesky_ex, linalg_eigh as eigh,
                          linalg_eigvalsh as eigvalsh, linalg_qr as qr, linalg_solve_triangular as solve_triangular,
                          linalg_diagonal as diagonal, linalg_vecdot as vecdot, linalg_vander as vander,
                          linalg_inv_ex as inv_ex, linalg_tensorinv as tensorinv, linalg_tensorsolve as tensorsolve,
                          linalg_lu_factor as lu_factor, linalg_lu_factor_ex as lu_factor_ex, linalg_lu as lu,
                          linalg_lu_solve as lu_solve, linalg_householder_product as householder_product)
from ._ops_torchfns import matrix_exp  # noqa: F401,E402
from ._tensor import Tensor, _wrap_dim, warn_once
from ._methods import _out_grad_check, _warn_resized, _write_out


def _check_float(name, a, low_precision=True):
    """PyTorch's checkFloatingOrComplex."""
    if not (a.dtype.is_floating_point or a.dtype.is_complex):
        raise RuntimeError('%s: Expected a floating point or complex tensor as input. Got %s' % (name, a.dtype.legacy))
    if not low_precision and a.dtype is dt.float16:
        raise RuntimeError('%s: Low precision dtypes not supported. Got %s' % (name, a.dtype.legacy))


def vector_norm(x, *args, **kwargs):
    """The ord-norm of x as a vector (over dim, or all of it): LinalgVectorNormBackward0."""
    position = ' (position 2)' if args else ''       # (how the parser's error names an ord given by position)

    def vector_norm(x, ord=2, dim=None, keepdim=False, *, out=None, dtype=None):     # (its TypeErrors' name)
        if not isinstance(ord, (int, float, complex)) and not (isinstance(ord, Tensor) and not ord.ndim):
            from ._tensor import parser_type   # (a Number: 'fro' and 'nuc' are matrix_norm's, None is norm's)
            raise TypeError("linalg_vector_norm(): argument 'ord'%s must be Number, not %s"
                            % (position, parser_type(ord)))
        if isinstance(ord, complex):
            raise RuntimeError('linalg.vector_norm: Expected a non-complex scalar as the order of norm.')
        _check_float('linalg.vector_norm', x)
        _check_dtype('linalg.vector_norm', x, dtype)
        result = _norm(x, ord, dim, keepdim, dtype)
        return result if out is None else _write_out('linalg_vector_norm', result, out, (x,))
    return vector_norm(x, *args, **kwargs)


def svdvals(A, *, driver=None):
    """The singular values, in descending order: linalg.svd's S (output 1 of LinalgSvdBackward0)."""
    return svd(A, full_matrices=False).S


def _over_last_two(A, dim, keepdim, reduce):
    """reduce(singular values of the matrices in dims dim), as PyTorch computes the 2-norms and the nuclear norm:
    those dims moved to the end, and moved back when keepdim."""
    perm = [d for d in range(A.ndim) if d not in dim] + list(dim)
    result = reduce(svdvals(A.permute(perm)))
    if keepdim:
        reverse = sorted(range(A.ndim), key=perm.__getitem__)
        result = result.unsqueeze(-1).permute(reverse)
    return result


def matrix_norm(A, ord='fro', dim=(-2, -1), keepdim=False, *, dtype=None):
    """The ord-norm of the matrices in dims dim: 'fro' (a vector 2-norm), 'nuc' (sum of singular values), 2 / -2
    (largest / smallest singular value), 1 / -1 (max / min column sum of |A|), inf / -inf (the same over rows)."""
    name = 'linalg.matrix_norm'
    if isinstance(ord, str):
        if ord not in ('fro', 'nuc'):
            raise RuntimeError('%s: Order %s not supported.' % (name, ord))
    else:
        ord = float(ord)
        if abs(ord) not in (1., 2., math.inf):
            raise RuntimeError('%s: Order %g not supported.' % (name, ord))
    if A.ndim < 2:
        raise RuntimeError('%s: The input tensor A must have at least 2 dimensions.' % name)
    _check_float(name, A, ord not in ('nuc', 2., -2.))
    dim = list(dim) if isinstance(dim, (tuple, list)) else [dim]
    if len(dim) != 2:
        raise RuntimeError('%s: dim must be a 2-tuple. Got %s' % (name, ' '.join(map(str, dim))))
    dim = [_wrap_dim(d, A.ndim) for d in dim]
    if dim[0] == dim[1]:
        raise RuntimeError('%s: dims must be different. Got (%d, %d)' % (name, dim[0], dim[1]))
    _check_dtype(name, A, dtype)
    if ord == 'fro':
        return _norm(A, 2, dim, keepdim, dtype)
    A_ = A if dtype is None else A.to(dtype)
    if ord == 'nuc':
        return _over_last_two(A_, dim, keepdim, lambda s: s.sum(-1, keepdim))
    extreme = (lambda t, d: t.amax(d, keepdim)) if ord > 0 else (lambda t, d: t.amin(d, keepdim))
    if abs(ord) == 2:
        return _over_last_two(A_, dim, keepdim, lambda s: extreme(s, -1))
    if abs(ord) == math.inf:                # the 1-norm of the transposed matrix
        dim.reverse()
    if not keepdim and dim[0] < dim[1]:
        dim[1] -= 1
    return extreme(_norm(A, 1., dim[0], keepdim, dtype), dim[1])


def norm(A, ord=None, dim=None, keepdim=False, *, dtype=None):
    """A matrix norm when ord is given and there are two dims (dim, or those of a 2-D A), otherwise a vector norm
    (2 when ord is None), as PyTorch's linalg.norm decides."""
    if not isinstance(A, Tensor):
        raise TypeError("linalg_norm(): argument 'input' (position 1) must be Tensor, not %s" % type(A).__name__)
    if dim is not None:
        dims = list(dim) if isinstance(dim, (tuple, list)) else [dim]
        if len(dims) not in (1, 2):
            raise RuntimeError('linalg.norm: If dim is specified, it must be of length 1 or 2. Got [%s]'
                               % ', '.join(map(str, dims)))
    elif ord is not None and A.ndim not in (1, 2):
        raise RuntimeError('linalg.norm: If dim is not specified but ord is, the input must be 1D or 2D. Got %dD.'
                           % A.ndim)
    if isinstance(ord, str) or ord is not None and (dim is None and A.ndim == 2 or dim is not None and len(dims) == 2):
        return matrix_norm(A, ord, (0, 1) if dim is None else dim, keepdim, dtype=dtype)
    return vector_norm(A, 2.0 if ord is None else ord, dim, keepdim, dtype=dtype)   # (None: the Scalar 2.0)


def multi_dot(tensors):
    """The product of a chain of matrices (the first may be a row vector, the last a column vector), multiplied in
    the order that takes the fewest multiplications, as PyTorch's multi_dot chooses it; its result is a view
    (ViewBackward0) in the shape the vectors leave."""
    n = len(tensors)
    if n < 2:
        raise RuntimeError('multi_dot(): expected at least 2 tensors but got %d' % n)
    for i, t in enumerate(tensors):
        ends = 'the first tensor' if i == 0 else 'the last tensor' if i == n - 1 else None
        if (t.ndim not in (1, 2)) if ends else t.ndim != 2:
            raise RuntimeError('multi_dot(): %s must be %s but got %dD' % (ends or 'tensor %d' % i,
                                                                           '1D or 2D' if ends else '2D', t.ndim))
    for i, t in enumerate(tensors[1:], 1):
        if t.dtype != tensors[0].dtype:
            raise RuntimeError('multi_dot(): all tensors must have be the same dtype but tensor 0 is %s and tensor '
                               '%d %s' % (dt.C_NAMES[tensors[0].dtype.name], i, dt.C_NAMES[t.dtype.name]))
    first, last = tensors[0], tensors[-1]
    mats = [first.unsqueeze(0) if first.ndim == 1 else first, *tensors[1:-1],
            last.unsqueeze(-1) if last.ndim == 1 else last]
    for i in range(n - 1):
        if mats[i].shape[1] != mats[i + 1].shape[0]:
            raise RuntimeError('multi_dot(): tensors %d and %d with shapes %s and %s cannot be multiplied'
                               % (i, i + 1, list(tensors[i].shape), list(tensors[i + 1].shape)))  # (as given)
    out_shape = mats[0].shape[:first.ndim - 1] + mats[-1].shape[1:last.ndim]
    dims = [m.shape[0] for m in mats] + [mats[-1].shape[1]]
    # the cheapest order: cost[i][j] multiplications for mats[i..j], split[i][j] where its last product splits it
    cost = [[0] * n for _ in range(n)]
    split = [[0] * n for _ in range(n)]
    for length in range(1, n):
        for i in range(n - length):
            j = i + length
            cost[i][j] = None
            for k in range(i, j):
                c = cost[i][k] + cost[k + 1][j] + dims[i] * dims[k + 1] * dims[j + 1]
                if cost[i][j] is None or c < cost[i][j]:
                    cost[i][j], split[i][j] = c, k

    if n == 3:                          # (three: (AB)C unless A(BC) is strictly cheaper)
        split[0][2] = 1 if cost[0][2] == dims[0] * dims[2] * (dims[1] + dims[3]) else 0

    def chain(i, j):
        if i == j:
            return mats[i]
        k = split[i][j]
        return chain(i, k).mm(chain(k + 1, j))
    return chain(0, n - 1).view(out_shape)


def _chain_matmul(*matrices):
    """torch.chain_matmul(A, B, C), deprecated (warned once per process): multi_dot of two or more matrices, a copy
    (CloneBackward0) of one."""
    warn_once('torch.chain_matmul is deprecated and will be removed in a future PyTorch release. Use '
              'torch.linalg.multi_dot instead, which accepts a list of two or more tensors rather than multiple '
              'parameters.', 'aten/src/ATen/native/LinearAlgebra.cpp:1102')
    for m in matrices:
        if m.ndim != 2:
            raise RuntimeError('Tensor dimension is %d, expected 2 instead.' % m.ndim)
    if not matrices:
        raise RuntimeError('chain_matmul(): Expected one or more matrices')
    return matrices[0].clone() if len(matrices) == 1 else multi_dot(matrices)


def _out_form(fn, name, composite=False):
    """fn with PyTorch's out=: the result written into out (see _write_out: resized with a warning, a tuple of them
    for a torch.return_types result), refused by autograd when a tensor requires grad (the op it names:
    _methods._OUT_OP_CALLED; those composed of another op's out= form resize out before that refusal); a composite
    op's (`composite`) copied into out by a recorded copy_ instead."""
    @functools.wraps(fn)
    def f(*args, out=None, **kwargs):
        if out is None:
            return fn(*args, **kwargs)
        inputs = args + tuple(kwargs.values())
        if composite or name in _RESIZED_FIRST:
            result = fn(*args, **kwargs)
            _warn_resized(out, result.shape)
            if out.shape != result.shape:
                out.resize_(result.shape)
            return out.copy_(result) if composite else _write_out(name, result, out, inputs)
        _out_grad_check(name, out, inputs)
        return _write_out(name, fn(*args, **kwargs), out, inputs)
    return f


_RESIZED_FIRST = frozenset(('linalg_multi_dot', 'linalg_vecdot', 'linalg_matrix_power'))


inv, inv_ex, det, slogdet, solve, eigh, eigvalsh, svd, svdvals, qr, cholesky, cholesky_ex, pinv, multi_dot, vecdot, \
    cross, solve_triangular, matrix_power, lu_factor, lu_factor_ex, lu, lu_solve, householder_product = (
        _out_form(f, 'linalg_' + f.__name__.split('linalg_')[-1].replace('inverse', 'inv')) for f in (
            inv, inv_ex, det, slogdet, solve, eigh, eigvalsh, svd, svdvals, qr, cholesky, cholesky_ex, pinv,
            multi_dot, vecdot, cross, solve_triangular, matrix_power, lu_factor, lu_factor_ex, lu, lu_solve,
            householder_product))
matrix_norm, norm, matrix_rank, tensorinv, tensorsolve = (
    _out_form(f, f.__name__, composite=True) for f in (matrix_norm, norm, matrix_rank, tensorinv, tensorsolve))
