"""The op table, part 8: linear algebra of square matrices (det, slogdet, solve, matrix_power, ...).

Same rules as `_ops.py`: numpy forward beside a backward written with tensor ops (so double backward works), node
names and saved attributes exactly as PyTorch 2.13 has them. `__all__` names the torch.* functions; torch.linalg's
names are re-exported by `engine/linalg.py`.

PyTorch computes these from LAPACK's LU factorization (getrf) and saves it in the node (`_saved_LU`, `_saved_pivots`):
`_lu` makes the same factorization in numpy, `_lu_solve` solves with it as getrs does.
"""
import numpy as np

from . import _autograd as ag
from . import _methods
from ._autograd import Node, SavedTensor, RESULT as _RESULT
from ._factories import eye
from ._ops import _attach, _edge, _number, _sizes, _check_broadcast, _mul_scalar, cat, clone, matmul, mv, outer
from ._ops_index import diag_embed
from ._ops_nn import _return_type, addmm, linalg_svd, return_types, where
from ._ops_reduce import _LinAlgError, vdot
from ._argparse import is_int
from ._tensor import Tensor, make, parser_type, warn_once

__all__ = ['det', 'logdet', 'slogdet', 'matrix_power', 'addmv', 'addr', 'adjoint', 'svd', 'pinverse',
           'inverse']

for _name, _fields in (('slogdet', ('sign', 'logabsdet')), ('linalg_slogdet', ('sign', 'logabsdet')),
                       ('linalg_solve_ex', ('result', 'info'))):
    if not hasattr(return_types, _name):
        setattr(return_types, _name, _return_type(_name, _fields))


# ================================================================================================ checks

def _type_name(a):
    return a.dtype.legacy.replace('Tensor', '').replace('torch.', '')


def _check_square(a, name):
    """PyTorch's squareCheckInputs: at least 2 dims, square matrices."""
    shape = a._data.shape
    if len(shape) < 2:
        raise RuntimeError('%s: The input tensor A must have at least 2 dimensions.' % name)
    if shape[-1] != shape[-2]:
        raise RuntimeError('%s: A must be batches of square matrices, but they are %d by %d matrices'
                           % (name, shape[-2], shape[-1]))


def _check_float(a, name, low_precision=True):
    """PyTorch's checkFloatingOrComplex; float16 passes only where the op allows it (to fail in the LU's kernel:
    _check_lu_dtype)."""
    if not a.dtype.is_floating_point:
        raise RuntimeError('%s: Expected a floating point or complex tensor as input. Got %s' % (name, _type_name(a)))
    if a._data.dtype == np.float16 and not low_precision:
        raise RuntimeError('%s: Low precision dtypes not supported. Got Half' % name)


def _check_lu_dtype(a):
    if a._data.dtype == np.float16:
        raise NotImplementedError('"lu_cpu" not implemented for \'Half\'')


def _check_int_arg(n, fname, position):
    """n as an int, or the parser's TypeError: an `int` argument takes a numpy int or a 0-d integer tensor too."""
    if not is_int(n):
        raise TypeError("%s(): argument 'n' (position %d) must be int, not %s" % (fname, position, parser_type(n)))
    return int(n)


# ================================================================================================ LU in numpy

def _lu(x):
    """LAPACK's getrf on a batch of matrices x (..., m, n): (LU, pivots, info) with A = P L U, L's unit diagonal
    left out, pivots min(m, n) 1-based int32 row swaps, info the 1-based place of the first zero pivot (or 0).
    A column is scaled by the reciprocal of its pivot, except the last two columns of a square matrix of up to 4
    rows, which are divided by it (MKL's, measured bit for bit: a float32 [[.1, .2], [.3, .6]] is singular)."""
    batch, (m, n) = x.shape[:-2], x.shape[-2:]
    lu = np.array(x, dtype=x.dtype).reshape((int(np.prod(batch)), m, n))
    piv = np.zeros((lu.shape[0], min(m, n)), np.int32)
    info = np.zeros(lu.shape[0], np.int32)
    b = np.arange(lu.shape[0])
    for k in range(min(m, n)):
        col = np.abs(lu[:, k:, k])                   # idamax: the first largest, NaNs passed over unless first
        p = k + np.where(np.isnan(col[:, 0]), 0, np.argmax(np.where(np.isnan(col), -1, col), axis=1))
        piv[:, k] = p + 1
        row = lu[b, k].copy()
        lu[b, k] = lu[b, p]
        lu[b, p] = row
        pivot = lu[:, k, k]
        zero = pivot == 0
        info[(info == 0) & zero] = k + 1
        # the column below a zero pivot is zero: getrf leaves it unscaled
        one = lu.dtype.type(1)
        if m == n <= 4 and k >= n - 2:
            lu[:, k + 1:, k] /= np.where(zero, one, pivot)[:, None]
        else:
            lu[:, k + 1:, k] *= (one / np.where(zero, one, pivot))[:, None]
        lu[:, k + 1:, k + 1:] -= lu[:, k + 1:, k:k + 1] * lu[:, k:k + 1, k + 1:]
    return _column_major(lu.reshape(x.shape)), piv.reshape(batch + (min(m, n),)), info.reshape(batch)


def _column_major(x):
    """x with its matrices (last two dims) stored by columns, as LAPACK leaves its results (strides show it)."""
    if x.ndim < 2:
        return x
    out = np.empty(x.shape[:-2] + (x.shape[-1], x.shape[-2]), x.dtype)     # (a new array: a dim of size 1 too
    out[...] = np.swapaxes(x, -1, -2)                                      # gets PyTorch's stride)
    return np.swapaxes(out, -1, -2)


def _row_major(x):
    """x as a new C-contiguous array (numpy keeps the strides of a dim of size 1 as they were; PyTorch's are
    contiguous ones)."""
    out = np.empty(x.shape, x.dtype)
    out[...] = x
    return out


def _swap_rows(x, piv, reverse=False):
    """Apply getrf's row swaps (pivots, 1-based) to the rows of x (..., n, k), in order or in reverse."""
    x = x.copy()
    rows = range(piv.shape[-1] - 1, -1, -1) if reverse else range(piv.shape[-1])
    for i in rows:
        p = np.broadcast_to(piv[..., i] - 1, x.shape[:-2])
        row = x[..., i, :].copy()
        x[..., i, :] = np.take_along_axis(x, p[..., None, None], axis=-2)[..., 0, :]
        np.put_along_axis(x, p[..., None, None], row[..., None, :], axis=-2)
    return x


def _lu_solve(lu, piv, rhs, transpose=False):
    """X with A X = rhs (A^T X = rhs with transpose), A = P L U given by _lu: getrs's substitutions, batched
    (lu's and rhs's batch dims broadcast). No check for zero pivots: they give inf / nan as in LAPACK."""
    n = lu.shape[-1]
    shape = np.broadcast_shapes(lu.shape[:-2], rhs.shape[:-2]) + rhs.shape[-2:]
    x = np.array(np.broadcast_to(rhs, shape), dtype=lu.dtype)
    lu = lu[..., None, :, :]                                            # (rows of x are x[..., i, :])
    one = lu.dtype.type(1)
    with np.errstate(divide='ignore', invalid='ignore'):
        if not transpose:                      # L y = P^T rhs, then U x = y
            x = _swap_rows(x, piv)
            for i in range(n):
                x[..., i, :] -= np.einsum('...j,...jk->...k', lu[..., 0, i, :i], x[..., :i, :])
            for i in range(n - 1, -1, -1):
                x[..., i, :] -= np.einsum('...j,...jk->...k', lu[..., 0, i, i + 1:], x[..., i + 1:, :])
                x[..., i, :] *= one / lu[..., 0, i, i][..., None]     # (the pivot's reciprocal, as MKL's trsm)
        else:                                  # U^T y = rhs, L^T z = y, then x = P z
            for i in range(n):
                x[..., i, :] -= np.einsum('...j,...jk->...k', lu[..., 0, :i, i], x[..., :i, :])
                x[..., i, :] *= one / lu[..., 0, i, i][..., None]
            for i in range(n - 1, -1, -1):
                x[..., i, :] -= np.einsum('...j,...jk->...k', lu[..., 0, i + 1:, i], x[..., i + 1:, :])
            x = _swap_rows(x, piv, reverse=True)
    return x


def inverse(a):
    """The inverse of a square matrix (or a batch), as torch.linalg.inv: LinalgInvExBackward0, saving it. PyTorch
    solves A X = I: getrf (a zero pivot is the error, numbered as LAPACK numbers it) then getrs, in a's dtype."""
    x = a._data
    if x.ndim < 2:
        raise RuntimeError('linalg.inv: The input tensor A must have at least 2 dimensions.')
    if x.shape[-1] != x.shape[-2]:
        raise RuntimeError('linalg.inv: A must be batches of square matrices, but they are %d by %d matrices'
                           % (x.shape[-2], x.shape[-1]))
    if x.dtype.kind != 'f':
        raise RuntimeError('linalg.inv: Expected a floating point or complex tensor as input. Got ' + a.dtype.legacy)
    if x.dtype == np.float16:
        raise RuntimeError('linalg.inv: Low precision dtypes not supported. Got Half')
    lu, piv, info = _lu(x)
    _check_invertible('linalg.inv', info)
    return _inverse_from_lu(a, lu, piv)


def _check_invertible(api, info):
    """The error of an inversion whose LU met a zero pivot (info: LAPACK's, per matrix)."""
    bad = np.flatnonzero(info.reshape(-1))
    if bad.size:
        raise _LinAlgError('%s: %sThe diagonal element %d is zero, the inversion could not be completed because the '
                           'input matrix is singular.'
                           % (api, '(Batch element %d): ' % bad[0] if info.ndim else '', info.reshape(-1)[bad[0]]))


def _inverse_from_lu(a, lu, piv):
    """a's inverse from its LU (_lu's), the substitutions run on the identity (what a singular matrix gives them
    too: inf / nan), column-major as LAPACK leaves it; LinalgInvExBackward0 saving it."""
    n = lu.shape[-1]
    out = make(_column_major(_lu_solve(lu, piv, np.broadcast_to(np.eye(n, dtype=lu.dtype), lu.shape))))
    saved = {'inverse': None}
    if _attach(out, LinalgInvExBackward0, (a,), saved).grad_fn is not None:
        saved['inverse'] = SavedTensor(out, is_output=True)
        ag.pack_outputs(saved)
    return out


class LinalgInvExBackward0(Node):
    def apply(self, g):
        inv_h = self.saved('inverse').transpose(-2, -1)        # PyTorch's -inv^H (g inv^H)
        return (-inv_h.matmul(g.matmul(inv_h)),)


Tensor.inverse = inverse


def _eye_times(c, n):
    """A batch of c * identity (c of shape batch), as numpy."""
    return c[..., None, None] * np.eye(n, dtype=c.dtype)


def _inverse_transposed_times(node, c):
    """c * A^{-T} from the LU saved by `node` (det, slogdet) without recording (PyTorch's lu_solve outside
    create_graph). The LU is of A^T when A was contiguous (PyTorch factors A.mT then: det(A^T) = det(A))."""
    A, LU, piv = node.saved('A'), node.saved('LU'), node.saved('pivots')
    return _column_major(_lu_solve(LU._data, piv._data, _eye_times(c, A.shape[-1]), transpose=not A.is_contiguous()))


def _factor_for_det(a):
    """det's and slogdet's LU: of A.mT when A is contiguous, as PyTorch (the factor it saves shows it)."""
    x = a._data
    return _lu(np.swapaxes(x, -1, -2) if a.is_contiguous() else x)


def _perm_sign(piv):
    """The determinant of P: -1 per row swap."""
    swaps = np.count_nonzero(piv != np.arange(1, piv.shape[-1] + 1, dtype=np.int32), axis=-1)
    return np.where(swaps % 2 == 0, 1, -1)


# ================================================================================================ det

def det(a):
    """The determinant of a square matrix (or a batch): sign of the LU's row swaps times the product of U's
    diagonal. LinalgDetBackward0, saving A, the LU, its pivots and the result."""
    _check_square(a, 'linalg.det')
    _check_float(a, 'linalg.det')
    _check_lu_dtype(a)
    x = a._data
    lu, piv, _ = _factor_for_det(a)
    diag = np.diagonal(lu, axis1=-2, axis2=-1)
    y = (_perm_sign(piv).astype(x.dtype) * np.prod(diag, axis=-1)).astype(x.dtype)
    return _attach(make(np.asarray(y)), LinalgDetBackward0, (a,), {
        'A': SavedTensor(a), 'LU': SavedTensor(make(lu)), 'pivots': SavedTensor(make(piv)), 'result': _RESULT})


def linalg_det(A):
    """torch.linalg.det (torch.det is its alias)."""
    return det(A)


class LinalgDetBackward0(Node):
    """grad * det * A^{-T}. With create_graph, as PyTorch: a linalg.solve with A^T (recorded), or for a singular
    A (|det| < 100 eps) the derivative through A's SVD, which has no zero to divide by."""

    def apply(self, g):
        A, d = self.saved('A'), self.saved('result')
        if not ag.grad_enabled:
            c = (g._data * d._data).astype(d._data.dtype)
            x = _inverse_transposed_times(self, c)
            # (PyTorch's gradient at an exactly singular A, det = 0, is zero rather than the cofactors)
            return (make(np.where((c == 0)[..., None, None], x.dtype.type(0), x)),)
        eps = np.finfo(d._data.dtype).eps
        if not (np.abs(d._data) < 100 * eps).any():
            n = self.saved('pivots').shape
            return (linalg_solve(A.mT, diag_embed((g * d).unsqueeze(-1).expand(n)).mT),)
        U, S, Vh = linalg_svd(A)
        D = _prod_safe_zeros_backward((g * (det(U) * det(Vh))).unsqueeze(-1), S, S.ndim - 1)
        return ((U * D.unsqueeze(-2)).matmul(Vh),)


def _prod_safe_zeros_backward(g, x, dim):
    """g times the product of the other elements of x along dim, for each element (zeros allowed): exclusive
    cumulative products from both ends, as PyTorch composes them."""
    n = x.shape[dim]
    ones = make(np.ones(x.shape[:dim] + (1,) + x.shape[dim + 1:], x._data.dtype))
    before = cat([ones, x.narrow(dim, 0, n - 1)], dim).cumprod(dim)
    after = cat([ones, x.narrow(dim, 1, n - 1).flip(dim)], dim).cumprod(dim).flip(dim)
    return g * (before * after)


# ================================================================================================ slogdet, logdet

def _slogdet(a, name, kind):
    """(sign, log|det|) from the LU: one LinalgSlogdetBackward0 node for both, saving A, the LU, its pivots and
    the sign (a singular matrix: sign 0, log|det| -inf)."""
    _check_square(a, name)
    _check_float(a, name, low_precision=False)
    x = a._data
    lu, piv, _ = _factor_for_det(a)
    diag = np.diagonal(lu, axis1=-2, axis2=-1)
    signs = np.nan_to_num(np.sign(diag))                 # (PyTorch's sgn of NaN is 0)
    sign = make(np.asarray(np.prod(signs, axis=-1) * _perm_sign(piv).astype(x.dtype), dtype=x.dtype))
    with np.errstate(divide='ignore'):
        logabsdet = make(np.asarray(np.sum(np.log(np.abs(diag)), axis=-1), dtype=x.dtype))
    if ag.grad_enabled and a._requires_grad:
        saved = {'A': SavedTensor(a), 'LU': SavedTensor(make(lu)), 'pivots': SavedTensor(make(piv)), 'sign': None}
        node = ag.record(None, LinalgSlogdetBackward0, (a,), saved)
        node.num_outputs = 2
        for i, t in enumerate((sign, logabsdet)):
            t._grad_fn, t._requires_grad, t._output_nr = node, True, i
        saved['sign'] = SavedTensor(sign, is_output=True)
        ag.pack_outputs(saved)
        ag.fw_outputs(node, (a,), (sign, logabsdet))
    return getattr(return_types, kind)(sign, logabsdet)


def slogdet(a):
    """torch.slogdet: the sign and the log of the absolute value of the determinant (return_types.slogdet)."""
    return _slogdet(a, 'linalg.slogdet', 'slogdet')


def linalg_slogdet(A):
    """torch.linalg.slogdet: as torch.slogdet, returned as return_types.linalg_slogdet."""
    return _slogdet(A, 'linalg.slogdet', 'linalg_slogdet')


class LinalgSlogdetBackward0(Node):
    """The sign is piecewise constant: only log|det| has a gradient, grad * A^{-T} (with create_graph, as PyTorch:
    a recorded linalg.solve with A^T)."""

    def apply(self, g_sign, g_logabsdet):
        A = self.saved('A')
        if g_logabsdet is None:
            return (None,)
        if not ag.grad_enabled:
            return (make(_inverse_transposed_times(self, g_logabsdet._data)),)
        n = self.saved('pivots').shape
        return (linalg_solve(A.mT, diag_embed(g_logabsdet.unsqueeze(-1).expand(n)).mT),)


def logdet(a):
    """log(det(a)): log|det| where the sign is not -1, NaN where it is (composed as PyTorch: a where over slogdet)."""
    _check_square(a, 'logdet')
    _check_float(a, 'logdet', low_precision=False)
    sign, logabsdet = _slogdet(a, 'linalg.slogdet', 'slogdet')
    return where(sign == -1, float('nan'), logabsdet)


# ================================================================================================ solve

def _is_vector_rhs(A, B):
    """B is a vector right-hand side (or a batch of them): 1-D, or A's shape without its last dim."""
    return B.ndim == 1 or (B.ndim == A.ndim - 1 and tuple(B.shape) == tuple(A.shape[:-1]))


def _check_errors(info, api, batched):
    """torch.linalg.LinAlgError for the first matrix whose LU met a zero pivot."""
    bad = np.flatnonzero(info.reshape(-1))
    if bad.size:
        where_ = '(Batch element %d): ' % bad[0] if batched else ''
        raise _LinAlgError('%s: %sThe solver failed because the input matrix is singular.' % (api, where_))


def _solve(A, B, left, check_errors, api):
    """(X, info) with A X = B (X A = B when not left), B a matrix or a vector (or batches of them, broadcast
    against A's): LinalgSolveExBackward0, saving A, its LU and pivots, left and the result."""
    _check_float(A, 'linalg.solve')
    if A.dtype is not B.dtype:
        raise RuntimeError('linalg.solve: Expected A and B to have the same dtype, but found A of type %s and B of '
                           'type %s instead' % (_type_name(A), _type_name(B)))
    vector = _is_vector_rhs(A, B)
    shape = tuple(B.shape) + (1,) if vector else tuple(B.shape)
    _check_square(A, 'linalg.solve')
    if len(shape) < 2:
        raise RuntimeError('linalg.solve: The input tensor B must have at least 2 dimensions.')
    n = A.shape[-1]
    if (shape[-2] if left else shape[-1]) != n:
        raise RuntimeError('linalg.solve: Incompatible shapes of A and B for the equation %s (%dx%d and %dx%d)'
                           % ('AX = B' if left else 'XA = B', n, n, shape[-2], shape[-1]))
    _check_broadcast(shape[:-2], tuple(A.shape[:-2]))
    _check_lu_dtype(A)
    lu, piv, info = _lu(A._data)
    b = B._data.reshape(shape)
    if left:
        x = _column_major(_lu_solve(lu, piv, b)[..., 0] if vector else _lu_solve(lu, piv, b))
    else:                                      # X A = B: A^T X^T = B^T
        x = _row_major(np.swapaxes(_lu_solve(lu, piv, np.swapaxes(b, -1, -2), transpose=True), -1, -2))
    if check_errors:
        _check_errors(info, api, A.ndim > 2)
    out = make(x[..., 0] if vector and not left else x)
    _attach(out, LinalgSolveExBackward0, (A, B), {'A': SavedTensor(A), 'LU': SavedTensor(make(lu)), 'left': left,
                                                  'pivots': SavedTensor(make(piv)), 'result': _RESULT})
    return out, make(info)


def linalg_solve(A, B, *, left=True):
    """torch.linalg.solve: X with A X = B (X A = B with left=False); a singular A is an error."""
    return _solve(A, B, left, True, 'torch.linalg.solve')[0]


def linalg_solve_ex(A, B, *, left=True, check_errors=False):
    """torch.linalg.solve_ex: solve's result and LAPACK's info (int32, 0 where A was invertible) instead of the
    error (unless check_errors)."""
    return return_types.linalg_solve_ex(*_solve(A, B, left, check_errors, 'torch.linalg.solve_ex'))


class LinalgSolveExBackward0(Node):
    """gB = A^{-T} gX (gX A^{-T} on the right), gA = -gB X^T (-X^T gB): with create_graph a recorded linalg.solve
    with A^T, else numpy on the saved LU, as PyTorch."""

    def apply(self, g):
        A, X = self.saved_pair('A', 'result')
        left = self._saved['left']
        vector = _is_vector_rhs(A, g)
        gX = g.unsqueeze(-1) if vector else g
        if ag.grad_enabled:
            gB = linalg_solve(A.mT, gX, left=left)
        else:
            LU, piv = self.saved('LU')._data, self.saved('pivots')._data
            if left:
                gB = make(_column_major(_lu_solve(LU, piv, gX._data, transpose=True)))
            else:
                gB = _lu_solve(LU, piv, np.swapaxes(gX._data, -1, -2))
                gB = make(np.ascontiguousarray(np.swapaxes(gB, -1, -2)))
        gA = None
        if self.needs(0):
            X = X.unsqueeze(-1) if vector else X
            gA = -gB.matmul(X.mT) if left else -X.mT.matmul(gB)
        if not self.needs(1):
            return (gA, None)
        return (gA, gB.squeeze(-1) if vector else gB)


# ================================================================================================ matrix_power

def _matrix_power(a, n):
    """a multiplied by itself n times, composed as PyTorch composes it: a contiguous clone (overwritten by the
    identity for n = 0), the inverse for n = -1, else matmuls over the binary digits of |n| (of the inverse for
    n < 0)."""
    _check_square(a, 'linalg.matrix_power')
    if n == 0:
        return clone(a).copy_(eye(a.shape[-1], dtype=a.dtype))
    if n == 1:
        return clone(a)
    if n == -1:
        return inverse(a)
    if n < 0:
        a, n = inverse(a), -n
    if n == 2:
        return matmul(a, a)
    if n == 3:
        return matmul(matmul(a, a), a)
    z = result = None
    while n > 0:
        bit, n = n % 2, n // 2
        z = a if z is None else matmul(z, z)
        if bit:
            result = z if result is None else matmul(result, z)
    return result


def matrix_power(a, n):
    """torch.matrix_power: a to the integer power n (see torch.linalg.matrix_power)."""
    n = _check_int_arg(n, 'matrix_power', 2)
    return _matrix_power(a, n)


def linalg_matrix_power(A, n):
    """torch.linalg.matrix_power: A to the integer power n (negative: of the inverse)."""
    n = _check_int_arg(n, 'linalg_matrix_power', 2)
    return _matrix_power(A, n)


def _tensor_matrix_power(self, n):
    n = _check_int_arg(n, 'matrix_power', 1)
    return _matrix_power(self, n)


# ================================================================================================ addmv, addr


def _times(t, s):
    """PyTorch's maybe_multiply: t * s as a Scalar product (MulBackward1), t itself when s is 1."""
    return t if s == 1 else _mul_scalar(t, s)


def _add_product(name, input, prod, a, b, beta, alpha, node, saved):
    """beta * input + alpha * prod (input broadcast to prod's shape; ignored when beta is 0), recorded as `node`
    over (input, a, b) saving a and b only where the other one needs a gradient."""
    if not input._data.dtype is a._data.dtype is b._data.dtype:
        raise RuntimeError('%s input tensors must have the same dtype, but got %s, %s, and %s' % (
            name, input.dtype.legacy, a.dtype.legacy, b.dtype.legacy))
    x = np.broadcast_to(input._data, prod.shape)
    out = prod * prod.dtype.type(alpha) if alpha != 1 else prod
    if beta != 0:
        out = out + (x if beta == 1 else x * x.dtype.type(beta))
    out = make(np.ascontiguousarray(out, dtype=prod.dtype))
    names = tuple(saved)
    return _attach(out, node, (input, a, b), {'alpha': alpha, 'beta': beta,
                                               names[0]: SavedTensor(a) if _edge(b) else None,
                                               names[1]: SavedTensor(b) if _edge(a) else None})


def addmv(input, mat, vec, *, beta=1, alpha=1):
    """beta * input + alpha * (mat @ vec), input broadcast to the result (ignored when beta is 0)."""
    beta, alpha = _number(beta), _number(alpha)
    if mat._data.ndim != 2 or vec._data.ndim != 1 or input._data.ndim > 1:
        raise RuntimeError('vector + matrix @ vector expected, got %d, %d, %d'
                           % (input._data.ndim, mat._data.ndim, vec._data.ndim))
    if mat._data.shape[1] != vec._data.shape[0] or input._data.shape not in ((), (1,), mat._data.shape[:1]):
        raise RuntimeError('size mismatch, got input (%s), mat (%s), vec (%s)' % (
            'x'.join(map(str, input._data.shape)), 'x'.join(map(str, mat._data.shape)), vec._data.shape[0]))
    return _add_product('addmv', input, mat._data @ vec._data, mat, vec, beta, alpha, AddmvBackward0, ('mat', 'vec'))


class AddmvBackward0(Node):
    def apply(self, g):
        alpha, beta = self._saved['alpha'], self._saved['beta']
        mat, vec = self.saved_pair('mat', 'vec')
        return (_times(g, beta) if self.needs(0) else None,
                _times(outer(g, vec), alpha) if self.needs(1) else None,
                _times(mv(mat.t(), g), alpha) if self.needs(2) else None)


def addr(input, vec1, vec2, *, beta=1, alpha=1):
    """beta * input + alpha * outer(vec1, vec2), input broadcast to the result (ignored when beta is 0)."""
    beta, alpha = _number(beta), _number(alpha)
    for name, v in (('vec1', vec1), ('vec2', vec2)):
        if v._data.ndim != 1:
            raise RuntimeError('addr: Expected 1-D argument %s, but got %d-D' % (name, v._data.ndim))
    shape = (vec1._data.shape[0], vec2._data.shape[0])
    if input._data.ndim > 2 or any(n not in (1, m) for n, m in zip(input._data.shape[::-1], shape[::-1])):
        input.expand(shape)                             # (an input that cannot expand: expand's error)
    prod = np.multiply.outer(vec1._data, vec2._data)
    for name, v in (('beta', beta), ('alpha', alpha)):
        if isinstance(v, bool) and prod.dtype.kind != 'b':
            raise RuntimeError('Boolean %s only supported for Boolean results.' % name)
        if isinstance(v, float) and prod.dtype.kind != 'f':
            raise RuntimeError('For integral input tensors, argument %s must not be a floating point number.' % name)
    return _add_product('addr', input, prod, vec1, vec2, beta, alpha, AddrBackward0, ('vec1', 'vec2'))


class AddrBackward0(Node):
    def apply(self, g):
        alpha, beta = self._saved['alpha'], self._saved['beta']
        vec1, vec2 = self.saved_pair('vec1', 'vec2')
        return (_times(g, beta) if self.needs(0) else None,
                _times(mv(g, vec2), alpha) if self.needs(1) else None,
                _times(mv(g.t(), vec1), alpha) if self.needs(2) else None)


def adjoint(a):
    """The conjugate transpose of the last two dims (a view: TransposeBackward0)."""
    if a._data.ndim < 2:
        raise RuntimeError('tensor.adjoint() is only supported on matrices or batches of matrices. Got %d-D tensor.'
                           % a._data.ndim)
    return a.transpose(-2, -1)


_tensor_matrix_power.__name__ = 'matrix_power'
for _name in ('det', 'logdet', 'slogdet', 'addmv', 'addr', 'adjoint'):
    setattr(Tensor, _name, globals()[_name])
Tensor.addmv_, Tensor.addr_ = _methods._inplace_of(addmv), _methods._inplace_of(addr)
Tensor.matrix_power = _tensor_matrix_power
return_types.svd = _return_type('svd', ('U', 'S', 'V'))


def svd(input, some=True, compute_uv=True):
    """The deprecated torch.svd: linalg.svd's U and S, and V = Vh transposed (TransposeBackward0); reduced unless
    some=False."""
    if not compute_uv:
        raise NotImplementedError('torch.svd(compute_uv=False) is not supported by Autograd Playground')
    U, S, Vh = linalg_svd(input, full_matrices=not some)
    return return_types.svd(U, S, Vh.transpose(-2, -1))


_addmm_inplace = _methods._inplace_of(addmm)


def _number_first(name, args, beta, alpha):
    """addmm_ / baddbmm_ given (beta, tensor, tensor) or (beta, alpha, tensor, tensor): the tensors, beta and alpha,
    PyTorch's warning given (else the parser's error, see _methods._parsed)."""
    kwargs = {} if beta == 1 and alpha == 1 else {'beta': beta, 'alpha': alpha}
    beta_given = _methods.as_number(args[0]) if args else None
    if len(args) == 4 and beta_given is not None and _methods.as_number(args[1]) is not None and not kwargs:
        _methods.deprecated_overload(name, False, 4)    # (beta, alpha, tensor, tensor): its warning, not (beta, t, t)'s
        given = _methods.number_first(name, args[1:], {})
        if given is not None:
            return given[0], beta_given, given[1]['beta']
    given = _methods.number_first(name, args, kwargs)
    if given is None:
        raise TypeError(name)
    return given[0], given[1]['beta'], alpha


def addmm_(self, mat1, mat2, *more, beta=1, alpha=1):
    """addmm in place: self must already have the product's shape (it is not broadcast). PyTorch's order of checks:
    autograd's (a leaf requiring grad), then the dtypes, the matrices, and last the shape of self."""
    from ._ops import _check_inplace
    if more:                            # addmm_(beta, mat1, mat2): PyTorch's deprecated overload (warned)
        (mat1, mat2), beta, alpha = _number_first('addmm_', (mat1, mat2) + more, beta, alpha)
    _check_inplace(self, (mat1, mat2))
    if (isinstance(mat1, Tensor) and isinstance(mat2, Tensor) and mat1.dim() == 2 and mat2.dim() == 2
            and self.dtype is mat1.dtype is mat2.dtype and mat1.shape[1] == mat2.shape[0]
            and tuple(self.shape) != (mat1.shape[0], mat2.shape[1])):
        raise RuntimeError('Bad in-place call: input tensor size %s and output tensor size %s should match'
                           % (_sizes(self.shape), _sizes((mat1.shape[0], mat2.shape[1]))))
    return _addmm_inplace(self, mat1, mat2, beta=beta, alpha=alpha)


Tensor.addmm_ = _methods.method_descriptor(_methods.native(addmm_, 'addmm_'), 'addmm_')   # (the parser's errors)
Tensor.svd = svd


# ======================================================================================= pinv, matrix_rank, lstsq

if not hasattr(return_types, 'linalg_lstsq'):
    return_types.linalg_lstsq = _return_type('linalg_lstsq', ('solution', 'residuals', 'rank', 'singular_values'))


def _tolerances(atol, rtol, shape, dtype):
    """atol and rtol as PyTorch completes them: rtol eps * max(m, n) when neither is given, 0 when only atol is."""
    if rtol is None:
        rtol = float(np.finfo(dtype).eps) * max(shape[-2:]) if atol is None or atol <= 0 else 0.0
    return 0.0 if atol is None else atol, rtol


def _pinv_np(A, atol, rtol, hermitian):
    """The pseudo-inverse as PyTorch composes it: from the SVD (eigh when hermitian), singular values up to
    max(atol, rtol * largest) treated as zero."""
    t = A.dtype.type
    if hermitian:
        L, V = np.linalg.eigh(A)
        S = np.abs(L)
        big = S.max(-1, keepdims=True) if S.shape[-1] else S
        inv = np.where(S > np.maximum(t(atol), t(rtol) * big), 1 / L, t(0))
        return (V * inv[..., None, :]) @ np.swapaxes(V, -1, -2)
    U, S, Vh = np.linalg.svd(A, full_matrices=False)
    big = S[..., :1]
    inv = np.where(S > np.maximum(t(atol), t(rtol) * big), 1 / S, t(0))
    return (np.swapaxes(Vh, -1, -2) * inv[..., None, :]) @ np.swapaxes(U, -1, -2)


def linalg_pinv(A, rcond=None, hermitian=False, *, atol=None, rtol=None):
    """torch.linalg.pinv (rcond: the old name of rtol, positional): LinalgPinvBackward0."""
    if rcond is not None:
        rtol = rcond
    if A._data.ndim < 2 or A._data.dtype.kind != 'f' or A._data.dtype == np.float16:
        raise RuntimeError('linalg.pinv(%s{%s}): expected a tensor with 2 or more dimensions of float, double, cfloat '
                           'or cdouble types' % (_type_name(A), list(A._data.shape)))
    atol, rtol = _tolerances(atol, rtol, A._data.shape, A._data.dtype)
    out = make(_pinv_np(A._data, atol, rtol, hermitian).astype(A._data.dtype, copy=False))
    return _attach(out, LinalgPinvBackward0, (A,), {'result': _RESULT, 'self': SavedTensor(A)})


def pinverse(input, rcond=1e-15):
    """torch.pinverse: linalg.pinv with rtol rcond."""
    return linalg_pinv(input, rcond)


def _mH(t):
    return t.transpose(-2, -1)


def _pinv_backward(g, pinvA, A):
    """PyTorch's pinv_backward (the smaller products first)."""
    m, n = A.shape[-2], A.shape[-1]
    pinvAh, gh = _mH(pinvA), _mH(g)
    if m <= n:
        K = gh.matmul(pinvA)
        KpinvAh = K.matmul(pinvAh)
        return (-_mH(pinvA.matmul(K)) + KpinvAh - A.matmul(pinvA).matmul(KpinvAh)
                + pinvAh.matmul(pinvA).matmul(gh - K.matmul(A)))
    K = pinvA.matmul(gh)
    pinvAhK = pinvAh.matmul(K)
    return (-_mH(K.matmul(pinvA)) + (gh - A.matmul(K)).matmul(pinvA).matmul(pinvAh) + pinvAhK
            - pinvAhK.matmul(pinvA).matmul(A))


class LinalgPinvBackward0(Node):
    def apply(self, g):
        return (_pinv_backward(g, self.saved('result'), self.saved('self')),)


def linalg_matrix_rank(A, tol=None, hermitian=False, *, atol=None, rtol=None):
    """The number of singular values (eigenvalue magnitudes when hermitian) above max(atol, rtol * largest); tol:
    the old name of atol (then rtol 0). int64, no gradient."""
    if A._data.ndim < 2:
        raise RuntimeError('torch.linalg.matrix_rank: The input tensor input must have at least 2 dimensions.')
    if A._data.dtype.kind != 'f' or A._data.dtype == np.float16:
        raise RuntimeError("This function doesn't handle types other than float and double")
    if tol is not None:
        atol, rtol = tol, 0.0
    atol, rtol = _tolerances(atol, rtol, A._data.shape, A._data.dtype)
    x = A._data
    S = np.abs(np.linalg.eigvalsh(x)) if hermitian else np.linalg.svd(x, compute_uv=False)
    big = S.max(-1, keepdims=True) if S.shape[-1] else S
    t = x.dtype.type
    return make(np.asarray((S > np.maximum(t(atol), t(rtol) * big)).sum(-1), np.int64))


_DRIVERS = ('gels', 'gelsy', 'gelsd', 'gelss')


def _lstsq_one(A, B, driver, rcond):
    """One least-squares problem as LAPACK's driver solves it: (solution n x k, rank or None, singular values or
    None). gels and gelsy go through A's QR (gelsy without column pivoting, as PyTorch's results show: the rank
    from the conditioning of its leading triangles, then the minimum norm solution); gelsd and gelss through its
    SVD."""
    m, n = A.shape
    t = A.dtype.type
    if driver in ('gelsd', 'gelss'):
        U, S, Vh = np.linalg.svd(A, full_matrices=False)
        r = int((S > t(rcond) * S[0]).sum()) if S.size else 0
        X = (Vh[:r].T / S[:r]) @ (U[:, :r].T @ B)
        return X.astype(A.dtype), r, S
    Q, R = np.linalg.qr(A)
    c = Q.T @ B
    r = min(m, n)
    if driver == 'gelsy':
        r = 0
        for k in range(1, min(m, n) + 1):
            s = np.linalg.svd(R[:k, :k], compute_uv=False)
            if s[-1] == 0 or s[0] * t(rcond) > s[-1]:
                break
            r = k
    if r == n:
        X = np.linalg.solve(R[:n, :n], c[:n])
    else:                                           # (the minimum norm solution of R[:r] x = c[:r])
        Rr = R[:r]
        X = Rr.T @ np.linalg.solve(Rr @ Rr.T, c[:r]) if r else np.zeros((n, B.shape[1]), A.dtype)
    return X.astype(A.dtype), (r if driver == 'gelsy' else None), None


def linalg_lstsq(A, B, rcond=None, *, driver=None):
    """torch.linalg.lstsq: the least-squares solution of A X = B (B a vector when it has one dim fewer), with the
    residuals (sum of squared errors, for a full-rank tall A and a driver other than gelsy), the rank (not gels)
    and the singular values (gelsd, gelss). Solution and residuals are outputs of LinalgLstsqBackward0."""
    name = 'torch.linalg.lstsq'
    if A._data.ndim < 2:
        raise RuntimeError('%s: input must have at least 2 dimensions.' % name)
    if not (A._data.ndim >= B._data.ndim and A._data.ndim - B._data.ndim <= 1):
        raise RuntimeError('%s: input.dim() must be greater or equal to other.dim() and (input.dim() - other.dim()) '
                           '<= 1' % name)
    if A._data.dtype.kind != 'f' or A._data.dtype == np.float16 or B._data.dtype.kind != 'f':
        if A._data.dtype != B._data.dtype:
            raise RuntimeError("%s: Expected input and other to have the same dtype, but got input's dtype %s and "
                               "other's dtype %s" % (name, _type_name(A), _type_name(B)))
        raise RuntimeError("This function doesn't handle types other than float and double")
    if A._data.dtype != B._data.dtype:
        raise RuntimeError("%s: Expected input and other to have the same dtype, but got input's dtype %s and "
                           "other's dtype %s" % (name, _type_name(A), _type_name(B)))
    vector = B._data.ndim == A._data.ndim - 1
    b = B._data[..., None] if vector else B._data
    if b.shape[-2] != A._data.shape[-2]:
        raise RuntimeError('%s: input.size(-2) should match other.size(-2)' % name)
    if driver is None:
        driver = 'gelsy'
    if driver not in _DRIVERS:
        raise RuntimeError('%s: parameter `driver` should be one of (gels, gelsy, gelsd, gelss)' % name)
    m, n = A._data.shape[-2:]
    dtype = A._data.dtype
    if rcond is None:
        rcond = float(np.finfo(dtype).eps) * max(m, n)
    batch = np.broadcast_shapes(A._data.shape[:-2], b.shape[:-2])
    a = np.broadcast_to(A._data, batch + (m, n))
    b = np.broadcast_to(b, batch + b.shape[-2:])
    X = np.zeros(batch + (n, b.shape[-1]), dtype)
    ranks = np.zeros(batch, np.int64)
    svals = np.zeros(batch + (min(m, n),), dtype)
    for i in np.ndindex(*batch):
        X[i], r, s = _lstsq_one(a[i], b[i], driver, rcond)
        ranks[i] = r or 0
        if s is not None:
            svals[i] = s
    full = driver != 'gelsy' and m > n and (driver == 'gels' or (ranks == n).all())
    residuals = np.square(np.matmul(a, X) - b).sum(-2).astype(dtype) if full else np.zeros(0, dtype)
    if vector:
        X = X[..., 0]
        residuals = residuals[..., 0] if full else residuals
    rank = make(ranks if driver != 'gels' else np.zeros(0, np.int64))
    singular = make(svals if driver in ('gelsd', 'gelss') else np.zeros(0, dtype))
    out = [make(X), make(residuals)]
    if ag.grad_enabled and (A._requires_grad or B._requires_grad):
        node = ag.record(None, LinalgLstsqBackward0, (A, B), {'b': SavedTensor(B), 'self': SavedTensor(A),
                                                                'solution': None})
        node.num_outputs = 4
        for k, t in enumerate(out):
            t._grad_fn, t._requires_grad, t._output_nr = node, True, k
        node._saved['solution'] = SavedTensor(out[0], is_output=True)
        ag.pack_outputs(node._saved)
        ag.fw_outputs(node, (A, B), out)
    return return_types.linalg_lstsq(out[0], out[1], rank, singular)


class LinalgLstsqBackward0(Node):
    """linalg_lstsq_backward: the solution's gradient through pinv(A) (PyTorch's formula), the residuals' (sums of
    squared errors) as those of |A X - B|^2 with X held (at the optimum X's own change does not count)."""

    def apply(self, gX, gR, *unused):
        A, B, X = self.saved('self'), self.saved('b'), self.saved('solution')
        vector = B.dim() == A.dim() - 1
        Bm = B.unsqueeze(-1) if vector else B
        Xm = X.unsqueeze(-1) if vector else X
        gA = gB = None
        if gX is not None:
            gXm = gX.unsqueeze(-1) if vector else gX
            pinvA = linalg_pinv(A)
            if self.needs(0):
                gA = _pinv_backward(gXm.matmul(_mH(Bm)), pinvA, A)
            if self.needs(1):
                gB = _mH(pinvA).matmul(gXm)
        if gR is not None and gR.numel():
            gRm = gR.unsqueeze(-1) if vector else gR
            err = _mul_scalar(A.matmul(Xm) - Bm, 2) * gRm.unsqueeze(-2)
            if self.needs(0):
                gA = err.matmul(_mH(Xm)) if gA is None else gA + err.matmul(_mH(Xm))
            if self.needs(1):
                gB = -err if gB is None else gB - err
        if vector and gB is not None:
            gB = gB.squeeze(-1)
        return (gA if self.needs(0) else None), (gB if self.needs(1) else None)


Tensor.pinverse = pinverse


# ======================================================================== triangular solves, cholesky, eigh, qr

for _name, _fields in (('linalg_cholesky_ex', ('L', 'info')), ('linalg_eigh', ('eigenvalues', 'eigenvectors')),
                       ('linalg_qr', ('Q', 'R')), ('qr', ('Q', 'R')),
                       ('triangular_solve', ('solution', 'cloned_coefficient'))):
    if not hasattr(return_types, _name):
        setattr(return_types, _name, _return_type(_name, _fields))


def _check_tensor(fname, name, value, position):
    """The parser's TypeError for a Tensor argument given something else."""
    if not isinstance(value, Tensor):
        raise TypeError("%s(): argument '%s' (position %d) must be Tensor, not %s"
                        % (fname, name, position, parser_type(value)))


def _check_arg(fname, name, value, kind):
    """The parser's TypeError for an argument that is not of its kind (bool or str)."""
    if type(value) is not kind:
        raise TypeError("%s(): argument '%s' must be %s, not %s" % (fname, name, kind.__name__, parser_type(value)))


def _triangular_solve_np(a, b, upper, unitriangular):
    """X with A X = B, A (..., n, n) triangular (only its triangle read; its diagonal taken as ones when
    unitriangular), B (..., n, k), batch dims broadcast: trsm's substitutions (a zero on the diagonal gives inf /
    nan, as LAPACK)."""
    n = a.shape[-1]
    shape = np.broadcast_shapes(a.shape[:-2], b.shape[:-2]) + b.shape[-2:]
    x = np.array(np.broadcast_to(b, shape), dtype=a.dtype)
    a = a[..., None, :, :]
    with np.errstate(divide='ignore', invalid='ignore', over='ignore'):
        for i in (range(n - 1, -1, -1) if upper else range(n)):
            done = slice(i + 1, n) if upper else slice(0, i)
            x[..., i, :] -= np.einsum('...j,...jk->...k', a[..., 0, i, done], x[..., done, :])
            if not unitriangular:
                x[..., i, :] /= a[..., 0, i, i][..., None]
    return x


def _check_kernel_dtype(name, A):
    """The error of a LAPACK kernel (named `name`) dispatched for a dtype it lacks: not a float, or float16."""
    if not A.dtype.is_floating_point:
        raise NotImplementedError('"%s" not implemented for \'%s\'' % (name, _type_name(A)))
    _check_lu_dtype_as(name, A)


def _check_lu_dtype_as(name, A):
    if A._data.dtype == np.float16:
        raise NotImplementedError('"%s" not implemented for \'Half\'' % name)


def linalg_solve_triangular(input, B, *more, upper=None, left=True, unitriangular=False):
    """torch.linalg.solve_triangular: X with A X = B (X A = B when not left), A upper or lower triangular (its other
    triangle not read), B a matrix (or a batch, broadcast against A's). LinalgSolveTriangularBackward0."""
    A = input
    if more:                                    # (the parser's words)
        raise TypeError('linalg_solve_triangular() takes from 3 to 2 positional arguments but %d were given'
                        % (2 + len(more)))
    _check_tensor('linalg_solve_triangular', 'input', A, 1)
    _check_tensor('linalg_solve_triangular', 'B', B, 2)
    if upper is None:
        raise TypeError('linalg_solve_triangular() missing 1 required positional arguments: "upper"')
    for arg, value in (('upper', upper), ('left', left), ('unitriangular', unitriangular)):
        _check_arg('linalg_solve_triangular', arg, value, bool)
    name = 'linalg.solve_triangular'
    for t, which in ((A, 'A'), (B, 'B')):
        if t.ndim < 2:
            raise RuntimeError('%s: The input tensor %s must have at least 2 dimensions.' % (name, which))
    _check_square(A, name)
    n = A.shape[-1]
    if (B.shape[-2] if left else B.shape[-1]) != n:
        raise RuntimeError('%s: Incompatible shapes of A and B for the equation %s (%dx%d and %dx%d)'
                           % (name, 'AX = B' if left else 'XA = B', n, n, B.shape[-2], B.shape[-1]))
    _check_broadcast(tuple(B.shape[:-2]), tuple(A.shape[:-2]))
    _check_kernel_dtype('triangular_solve_cpu', A)
    a, b = A._data, B._data.astype(A._data.dtype, copy=False)
    if left:
        x = _column_major(_triangular_solve_np(a, b, upper, unitriangular))
    else:                                       # X A = B: A^T X^T = B^T
        x = _triangular_solve_np(np.swapaxes(a, -1, -2), np.swapaxes(b, -1, -2), not upper, unitriangular)
        x = _column_major(np.swapaxes(x, -1, -2))
    return _attach(make(x), LinalgSolveTriangularBackward0, (A, B), {
        'left': left, 'result': _RESULT, 'self': SavedTensor(A), 'unitriangular': unitriangular, 'upper': upper})


def _triangle(t, upper, unitriangular):
    """t's upper (lower) triangle, without the diagonal when unitriangular."""
    return t.triu(int(unitriangular)) if upper else t.tril(-int(unitriangular))


class LinalgSolveTriangularBackward0(Node):
    """gB = A^{-H} gX (a triangular solve with A^H), gA = -gB X^H (-X^H gB on the right) in A's triangle."""

    def apply(self, g):
        A, X = self.saved_pair('self', 'result')
        upper, left, unit = self._saved['upper'], self._saved['left'], self._saved['unitriangular']
        gB = linalg_solve_triangular(A.mT, g, upper=not upper, left=left, unitriangular=unit)
        gA = None
        if self.needs(0):
            gA = _triangle(-gB.matmul(X.mT) if left else -X.mT.matmul(gB), upper, unit)
        return gA, (gB if self.needs(1) else None)


def triangular_solve(b, A, upper=True, transpose=False, unitriangular=False):
    """The deprecated torch.triangular_solve (warned once): X with A X = b (A^T X = b when transpose), and a copy of
    A; both outputs of TriangularSolveBackward0."""
    warn_once('torch.triangular_solve is deprecated in favor of torch.linalg.solve_triangularand will be removed in '
              'a future PyTorch release.\ntorch.linalg.solve_triangular has its arguments reversed and does not '
              'return a copy of one of the inputs.\nX = torch.triangular_solve(B, A).solution\nshould be replaced '
              'with\nX = torch.linalg.solve_triangular(A, B).', 'aten/src/ATen/native/BatchLinearAlgebra.cpp:2273')
    for t, which in ((b, 'b'), (A, 'A')):
        if t.ndim < 2:
            raise RuntimeError('torch.triangular_solve: Expected %s to have at least 2 dimensions, but it has %d '
                               'dimensions instead' % (which, t.ndim))
    if A.dtype is not b.dtype:
        raise RuntimeError('Expected b and A to have the same dtype, but found b of type %s and A of type %s '
                           'instead.' % (_type_name(b), _type_name(A)))
    if A.shape[-1] != A.shape[-2]:
        raise RuntimeError('A must be batches of square matrices, but they are %d by %d matrices' % A.shape[-2:])
    if A.shape[-1] != b.shape[-2]:
        raise RuntimeError('Incompatible matrix sizes for triangular_solve: each A matrix is %d by %d but each b '
                           'matrix is %d by %d' % (A.shape[-2], A.shape[-1], b.shape[-2], b.shape[-1]))
    _check_kernel_dtype('triangular_solve_cpu', A)
    a = np.swapaxes(A._data, -1, -2) if transpose else A._data
    x = _column_major(_triangular_solve_np(a, b._data.astype(a.dtype, copy=False), upper != transpose,
                                           unitriangular))
    out = [make(x), make(_column_major(np.array(np.broadcast_to(A._data, x.shape[:-2] + A._data.shape[-2:]))))]
    if ag.grad_enabled and (A._requires_grad or b._requires_grad):
        saved = {'A': SavedTensor(A), 'self': SavedTensor(b), 'solution': None, 'transpose': transpose,
                 'unitriangular': unitriangular, 'upper': upper}
        node = ag.record(None, TriangularSolveBackward0, (b, A), saved)
        node.num_outputs = 2
        for i, t in enumerate(out):
            t._grad_fn, t._requires_grad, t._output_nr = node, True, i
        saved['solution'] = SavedTensor(out[0], is_output=True)
        ag.pack_outputs(saved)
        ag.fw_outputs(node, (b, A), out)
    return return_types.triangular_solve(*out)


class TriangularSolveBackward0(Node):
    def apply(self, gX, gM):
        A, X = self.saved_pair('A', 'solution')
        upper, transpose, unit = self._saved['upper'], self._saved['transpose'], self._saved['unitriangular']
        gb = gA = None
        if gX is not None:
            gb = linalg_solve_triangular(A if transpose else A.mT, gX, upper=upper == transpose,
                                         unitriangular=unit)
            if self.needs(1):
                gA = _triangle(-X.matmul(gb.mT) if transpose else -gb.matmul(X.mT), upper, unit)
        if gM is not None and self.needs(1):
            gA = gM if gA is None else gA + gM
        return (gb if self.needs(0) else None), gA


def _cholesky_np(x):
    """LAPACK's potrf (lower, column by column) on a batch: (L, info), the other triangle zeroed; where a leading
    minor is not positive-definite info is its order and L is left as the factorization stopped (the failing
    diagonal element unrooted, the columns after it as given)."""
    n = x.shape[-1]
    L = np.tril(x).reshape((int(np.prod(x.shape[:-2])), n, n)).copy()
    info = np.zeros(L.shape[0], np.int32)
    with np.errstate(invalid='ignore', divide='ignore'):
        for j in range(n):
            going = info == 0
            row = L[going, j, :j]
            d = L[going, j, j] - np.einsum('bk,bk->b', row, row)
            bad = ~(d > 0)
            idx = np.flatnonzero(going)
            info[idx[bad]] = j + 1
            L[idx[bad], j, j] = d[bad]
            ok = idx[~bad]
            root = np.sqrt(d[~bad])
            L[ok, j, j] = root
            L[ok, j + 1:, j] = (L[ok, j + 1:, j] - np.einsum('bik,bk->bi', L[ok, j + 1:, :j], L[ok, j, :j])) \
                / root[:, None]
    return L.reshape(x.shape), info.reshape(x.shape[:-2])


def _cholesky(A, upper, name, check_errors, cls=None):
    checks = 'linalg.cholesky' if name == 'linalg.cholesky_ex' else name     # (cholesky_ex checks as cholesky)
    _check_square(A, checks)
    if cls is None:                             # (the deprecated torch.cholesky leaves the dtype to its kernel)
        _check_float(A, checks)
    if A.numel():                               # (empty: no kernel runs, an empty result of any dtype)
        if not A.dtype.is_floating_point:
            raise NotImplementedError('"cholesky_cpu" not implemented for \'%s\'' % _type_name(A))
        _check_lu_dtype_as('cholesky_cpu', A)
    x = A._data
    L, info = _cholesky_np(np.swapaxes(x, -1, -2) if upper else x)
    if upper:
        L = np.swapaxes(L, -1, -2)
    if check_errors:
        bad = np.flatnonzero(info.reshape(-1))
        if bad.size:
            where_ = '(Batch element %d): ' % bad[0] if A.ndim > 2 else ''
            raise _LinAlgError('%s: %sThe factorization could not be completed because the input is not '
                               'positive-definite (the leading minor of order %d is not positive-definite).'
                               % (name, where_, info.reshape(-1)[bad[0]]))
    out = make(_column_major(L))
    if cls is None:
        saved = {'L': None, 'upper': upper}
        if _attach(out, LinalgCholeskyExBackward0, (A,), saved).grad_fn is not None:
            saved['L'] = SavedTensor(out, is_output=True)
            ag.pack_outputs(saved)
    else:
        _attach(out, cls, (A,), {'result': _RESULT, 'upper': upper})
    return out, make(info)


def linalg_cholesky(input, *, upper=False):
    """torch.linalg.cholesky: L lower triangular with A = L L^T (U = L^T with A = U^T U when upper, from A's upper
    triangle); an error for a matrix that is not positive-definite. LinalgCholeskyExBackward0."""
    _check_tensor('linalg_cholesky', 'input', input, 1)
    _check_arg('linalg_cholesky', 'upper', upper, bool)
    return _cholesky(input, upper, 'linalg.cholesky', True)[0]


def linalg_cholesky_ex(input, *, upper=False, check_errors=False):
    """torch.linalg.cholesky_ex: the factor and LAPACK's info (int32: 0, or the order of the first leading minor
    that is not positive-definite) instead of the error (unless check_errors)."""
    _check_tensor('linalg_cholesky_ex', 'input', input, 1)
    _check_arg('linalg_cholesky_ex', 'upper', upper, bool)
    _check_arg('linalg_cholesky_ex', 'check_errors', check_errors, bool)
    return return_types.linalg_cholesky_ex(*_cholesky(input, upper, 'linalg.cholesky_ex', check_errors))


def cholesky(input, upper=False):
    """The deprecated torch.cholesky (warned once): linalg.cholesky, recorded as CholeskyBackward0."""
    warn_once('torch.cholesky is deprecated in favor of torch.linalg.cholesky and will be removed in a future '
              'PyTorch release.\nL = torch.cholesky(A)\nshould be replaced with\nL = torch.linalg.cholesky(A)\nand\n'
              'U = torch.cholesky(A, upper=True)\nshould be replaced with\nU = torch.linalg.cholesky(A).mH\nThis '
              'transform will produce equivalent results for all valid (symmetric positive definite) inputs.',
              'aten/src/ATen/native/BatchLinearAlgebra.cpp:1765')
    return _cholesky(input, upper, 'cholesky', True, CholeskyBackward0)[0]


def _cholesky_backward(gL, L, upper):
    """PyTorch's cholesky_backward: gA = L^{-H} Phi(L^H gL) L^{-1}, Phi taking the lower triangle with half its
    diagonal, made symmetric (two triangular solves)."""
    if upper:
        L, gL = L.mT, gL.mT
    gA = L.mT.matmul(gL).tril()
    gA = _mul_scalar(gA + gA.tril(-1).mT, 0.5)
    gA = linalg_solve_triangular(L.mT, gA, upper=True, left=True)
    return linalg_solve_triangular(L, gA, upper=False, left=False)


class LinalgCholeskyExBackward0(Node):
    def apply(self, gL, *unused):
        return (_cholesky_backward(gL, self.saved('L'), self._saved['upper']),)


class CholeskyBackward0(Node):
    def apply(self, gL):
        return (_cholesky_backward(gL, self.saved('result'), self._saved['upper']),)


def cholesky_solve(input, input2, upper=False):
    """torch.cholesky_solve(B, L): X with A X = B for A = L L^T (U^T U when upper), batches broadcast.
    CholeskySolveBackward0."""
    if input.ndim < 2:
        raise RuntimeError('b should have at least 2 dimensions, but has %d dimensions instead' % input.ndim)
    if input2.ndim < 2:
        raise RuntimeError('u should have at least 2 dimensions, but has %d dimensions instead' % input2.ndim)
    if input.dtype is not input2.dtype:
        raise RuntimeError('Expected b and A to have the same dtype, but found b of type %s and A of type %s '
                           'instead.' % (_type_name(input), _type_name(input2)))
    shape = input2._data.shape
    if shape[-1] != shape[-2]:
        raise RuntimeError('A must be batches of square matrices, but they are %d by %d matrices' % shape[-2:])
    if input.shape[-2] != shape[-1]:
        raise RuntimeError('Incompatible matrix sizes for cholesky_solve: each A matrix is %d by %d but each b '
                           'matrix is %d by %d' % (shape[-2], shape[-1], input.shape[-2], input.shape[-1]))
    _check_kernel_dtype('cholesky_solve_cpu', input2)
    u = input2._data
    Lt = np.swapaxes(u, -1, -2)
    if upper:                                   # U^T y = b, then U x = y
        y = _triangular_solve_np(Lt, input._data, False, False)
        x = _triangular_solve_np(u, y, True, False)
    else:                                       # L y = b, then L^T x = y
        y = _triangular_solve_np(u, input._data, False, False)
        x = _triangular_solve_np(Lt, y, True, False)
    return _attach(make(_column_major(x)), CholeskySolveBackward0, (input, input2), {
        'input2': SavedTensor(input2), 'result': _RESULT, 'self': SavedTensor(input), 'upper': upper})


class CholeskySolveBackward0(Node):
    def apply(self, g):
        L, X = self.saved_pair('input2', 'result')
        upper = self._saved['upper']
        gB = cholesky_solve(g, L, upper)
        gL = None
        if self.needs(1):
            common = gB.matmul(X.mT)
            common = common + common.mT
            gL = -L.matmul(common) if upper else -common.matmul(L)
        return (gB if self.needs(0) else None), gL


def cholesky_inverse(input, upper=False):
    """torch.cholesky_inverse(L): the inverse of A = L L^T (U^T U when upper). CholeskyInverseBackward0."""
    _check_square(input, 'cholesky_inverse')
    _check_kernel_dtype('cholesky_inverse_out_cpu', input)
    u = input._data
    n = u.shape[-1]
    zero = np.diagonal(u, axis1=-2, axis2=-1).reshape(int(np.prod(u.shape[:-2])), n) == 0
    if zero.any():
        b, i = np.argwhere(zero)[0]
        raise _LinAlgError('cholesky_inverse: %sThe diagonal element %d is zero, the inversion could not be completed '
                           'because the input matrix is singular.' % ('(Batch element %d): ' % b if u.ndim > 2 else '',
                                                                     i + 1))
    eye_ = np.broadcast_to(np.eye(n, dtype=u.dtype), u.shape)
    Lt = np.swapaxes(u, -1, -2)
    first, second = (Lt, u) if upper else (u, Lt)
    x = _triangular_solve_np(second, _triangular_solve_np(first, eye_, False, False), True, False)
    return _attach(make(_column_major(x)), CholeskyInverseBackward0, (input,), {
        'result': _RESULT, 'self': SavedTensor(input), 'upper': upper})


class CholeskyInverseBackward0(Node):
    def apply(self, g):
        L, inv = self.saved_pair('self', 'result')
        common = inv.matmul((g + g.mT).matmul(inv))
        return (-L.matmul(common) if self._saved['upper'] else -common.matmul(L),)


def _record_outputs(cls, inputs, out, saved, names):
    """One node of `cls` for several outputs (those listed in `names` saved as outputs)."""
    node = ag.record(None, cls, inputs, saved)
    node.num_outputs = len(out)
    for i, t in enumerate(out):
        t._grad_fn, t._requires_grad, t._output_nr = node, True, i
    for name, t in names.items():
        saved[name] = SavedTensor(t, is_output=True)
    ag.pack_outputs(saved)
    ag.fw_outputs(node, inputs, out)


def _eigh(A, UPLO, name, vectors):
    _check_tensor('linalg_eigh' if vectors else 'linalg_eigvalsh', 'input', A, 1)
    _check_arg('linalg_eigh' if vectors else 'linalg_eigvalsh', 'UPLO', UPLO, str)
    if len(UPLO) != 1 or UPLO.upper() not in 'LU':
        raise RuntimeError("Expected UPLO argument to be 'L' or 'U', but got %s" % UPLO)
    _check_square(A, name)
    if not A.dtype.is_floating_point or A._data.dtype == np.float16:
        raise NotImplementedError('"linalg_eigh_cpu" not implemented for \'%s\'' % _type_name(A))
    x = A._data
    if x.size and not vectors and not (ag.grad_enabled and A._requires_grad):     # (syevd without vectors)
        return make(np.linalg.eigvalsh(x, UPLO=UPLO.upper()).astype(x.dtype, copy=False)), None
    if x.size:
        w, v = np.linalg.eigh(x, UPLO=UPLO.upper())
    else:
        w, v = np.zeros(x.shape[:-1], x.dtype), np.zeros(x.shape, x.dtype)
    w, v = make(w.astype(x.dtype, copy=False)), make(_column_major(v.astype(x.dtype, copy=False)))
    if ag.grad_enabled and A._requires_grad:
        saved = {'eigenvalues': None, 'eigenvectors': None}
        _record_outputs(LinalgEighBackward0, (A,), [w, v], saved, {'eigenvalues': w, 'eigenvectors': v})
    return w, v


def linalg_eigh(input, UPLO='L'):
    """torch.linalg.eigh: the eigenvalues (ascending) and eigenvectors (columns) of a symmetric matrix, read from
    its lower (UPLO='L') or upper triangle. Signs of eigenvectors as LAPACK's syevd gives them."""
    return return_types.linalg_eigh(*_eigh(input, UPLO, 'linalg.eigh', True))


def linalg_eigvalsh(input, UPLO='L'):
    """torch.linalg.eigvalsh: the eigenvalues of linalg.eigh (its node, saving the eigenvectors too)."""
    return _eigh(input, UPLO, 'linalg.eigh', False)[0]


class LinalgEighBackward0(Node):
    """PyTorch's linalg_eig_backward for a Hermitian A: V (skew(V^H gV) / (L_j - L_i) + diag(gL)) V^H, or
    V diag(gL) V^H for the eigenvalues alone."""

    def apply(self, gL, gV=None):
        L, V = self.saved_pair('eigenvalues', 'eigenvectors')
        if gV is None:
            if gL is None:
                return (None,)
            return ((V * gL.unsqueeze(-2)).matmul(V.mT),)
        VhgV = V.mT.matmul(gV)
        VhgV = _mul_scalar(VhgV - VhgV.mT, 0.5)
        E = L.unsqueeze(-2) - L.unsqueeze(-1)
        n = L.shape[-1]
        E = where(make(np.eye(n, dtype=bool)), 1., E)
        ret = VhgV / E
        if gL is not None:
            ret = ret + diag_embed(gL)
        return (V.matmul(ret.matmul(V.mT)),)


_QR_MODES = {'reduced': (True, True), 'complete': (True, False), 'r': (False, True)}


def _qr(A, mode, kind):
    if kind == 'linalg_qr':
        _check_tensor(kind, 'A', A, 1)
        _check_arg(kind, 'mode', mode, str)
    if mode not in _QR_MODES:
        raise RuntimeError("qr received unrecognized mode '%s' but expected one of 'reduced' (default), 'r', or "
                           "'complete'" % mode)
    if A.ndim < 2:
        raise RuntimeError('linalg.qr: The input tensor A must have at least 2 dimensions.')
    _check_float(A, 'linalg.qr')
    _check_lu_dtype_as('geqrf_cpu', A)
    x = A._data
    m, n = x.shape[-2:]
    compute_q, reduced = _QR_MODES[mode]
    k = min(m, n) if reduced else m
    if x.size:
        q, r = np.linalg.qr(x, mode='complete' if not reduced else 'reduced')
    else:
        q = np.broadcast_to(np.eye(m, k, dtype=x.dtype), x.shape[:-2] + (m, k))
        r = np.zeros(x.shape[:-2] + (k, n), x.dtype)
    q = make(_column_major(q.astype(x.dtype, copy=False)) if compute_q else np.zeros(0, x.dtype))
    r = make(_column_major(r.astype(x.dtype, copy=False)))
    if ag.grad_enabled and A._requires_grad:
        _record_outputs(LinalgQrBackward0, (A,), [q, r], {'Q': None, 'R': None, 'mode': mode}, {'Q': q, 'R': r})
    return getattr(return_types, kind)(q, r)


def linalg_qr(A, mode='reduced'):
    """torch.linalg.qr: Q with orthonormal columns and R upper triangular, A = Q R, by Householder reflections
    (LAPACK's geqrf and orgqr: R's diagonal signs as they give them). mode 'complete': Q square; 'r': R only (Q
    empty)."""
    return _qr(A, mode, 'linalg_qr')


def qr(input, some=True):
    """The deprecated torch.qr (warned once): linalg.qr, reduced unless some=False (return_types.qr)."""
    warn_once("torch.qr is deprecated in favor of torch.linalg.qr and will be removed in a future PyTorch release.\n"
              "The boolean parameter 'some' has been replaced with a string parameter 'mode'.\nQ, R = torch.qr(A, "
              "some)\nshould be replaced with\nQ, R = torch.linalg.qr(A, 'reduced' if some else 'complete')",
              'aten/src/ATen/native/BatchLinearAlgebra.cpp:2505')
    return _qr(input, 'reduced' if some else 'complete', 'qr')


class LinalgQrBackward0(Node):
    """PyTorch's linalg_qr_backward: with M = gR R^H - Q^H gQ, gA = (gQ + Q syminvadj(triu(M))) R^{-H} for m >= n;
    for m < n, Q trilImInvAdjSkew(-M) R_1^{-H} padded with zeros, plus Q gR."""

    def apply(self, gQ, gR):
        Q, R = self.saved_pair('Q', 'R')
        mode = self._saved['mode']
        m, n = Q.shape[-2] if Q.ndim >= 2 else 0, R.shape[-1]
        compute_q, reduced = _QR_MODES[mode]
        if not compute_q:
            raise RuntimeError("The derivative of linalg.qr depends on Q, which is not computed when mode='r'. "
                               "Please use linalg.qr(A, mode='reduced') if you are going to differentiate through "
                               "linalg.qr.")
        if not reduced and m > n:
            raise RuntimeError('The QR decomposition is not differentiable when mode=\'complete\' and nrows > ncols.')
        if gQ is None and gR is None:
            return (None,)
        if gQ is not None:
            gA = -Q.mT.matmul(gQ) if gR is None else gR.matmul(R.mT) - Q.mT.matmul(gQ)
        else:
            gA = gR.matmul(R.mT)
        if m >= n:
            gA = gA.triu()
            gA = gA + gA.mT
            gA = gA - _mul_scalar(diag_embed(gA.diagonal(0, -2, -1)), 0.5)
            gA = Q.matmul(gA)
            if gQ is not None:
                gA = gA + gQ
            return (linalg_solve_triangular(R.mT, gA, upper=False, left=False),)
        gA = -gA
        gA = Q.matmul((gA - gA.mT).tril())
        gA = linalg_solve_triangular(R.narrow(-1, 0, m).mT, gA, upper=False, left=False)
        gA = cat([gA, make(np.zeros(tuple(R.shape[:-1]) + (n - m,), R._data.dtype))], -1)
        if gR is not None:
            gA = gA + Q.matmul(gR)
        return (gA,)


def linalg_diagonal(A, *, offset=0, dim1=-2, dim2=-1):
    """torch.linalg.diagonal: torch.diagonal with the last two dims as default (a view: DiagonalBackward0)."""
    return A.diagonal(offset, dim1, dim2)


def linalg_vecdot(x, y, *, dim=-1):
    """The dot products of x and y along dim (x conjugated: real here), as PyTorch composes it: vdot for two vectors,
    else a product summed over dim (broadcast)."""
    _check_tensor('linalg_vecdot', 'x', x, 1)
    _check_tensor('linalg_vecdot', 'y', y, 2)
    _check_float(x, 'linalg.vecdot')
    if x.dtype is not y.dtype:
        raise RuntimeError('linalg.vecdot: Expected x and y to have the same dtype, but found x of type %s and y of '
                           'type %s instead' % (x.dtype.legacy, y.dtype.legacy))
    if x.ndim == 1 and y.ndim == 1 and dim in (0, -1):
        return vdot(x, y)
    return (x * y).sum(dim)


def linalg_vander(x, *, N=None):
    """The Vandermonde matrix of x's last dim: its powers 0 to N - 1 (as PyTorch composes it: a row of ones, no
    gradient, catted to the cumulative products of x repeated)."""
    if x._data.dtype.kind not in 'fiuc':
        raise RuntimeError('linalg.vander supports floating point, complex, and integer tensors, but got %s'
                           % x.dtype.legacy)
    x_ = x.unsqueeze(-1) if x.ndim == 0 else x
    n = x_.shape[-1] if N is None else N
    if n <= 1:
        raise RuntimeError('N must be greater than 1.')
    powers = x_.unsqueeze(-1).expand(tuple(x_.shape) + (n - 1,)).cumprod(-1)
    return cat([powers.new_ones(tuple(x_.shape) + (1,)), powers], -1)


def linalg_inv_ex(A, *, check_errors=False):
    """torch.linalg.inv_ex: the inverse and LAPACK's info (int32: the order of the first zero pivot, or 0); a
    singular matrix gives what the substitutions give (inf / nan), an error only with check_errors."""
    if A.ndim >= 2 and A.shape[-1] == A.shape[-2] and A.dtype.is_floating_point and A.numel() \
            and A._data.dtype != np.float16:        # (float16: inverse's error)
        lu, piv, info = _lu(A._data)
        if check_errors:
            _check_invertible('linalg.inv_ex', info)
        return _inv_ex_result(_inverse_from_lu(A, lu, piv), make(info))
    result = inverse(A)                         # (inv's errors for what is not a batch of square float matrices)
    return _inv_ex_result(result, make(np.zeros(A.shape[:-2], np.int32)))


def _inv_ex_result(inv, info):
    if not hasattr(return_types, 'linalg_inv_ex'):
        return_types.linalg_inv_ex = _return_type('linalg_inv_ex', ('inverse', 'info'))
    return return_types.linalg_inv_ex(inv, info)


def linalg_tensorinv(A, ind=2):
    """The inverse of A seen as a matrix of its first ind dims by the others, in the shape of those others then the
    first ones (PyTorch's composition: inv_ex of A reshaped, then reshaped)."""
    if ind <= 0:
        raise RuntimeError("Expected a strictly positive integer for 'ind', but got %d" % ind)
    start, end = tuple(A.shape[:ind]), tuple(A.shape[ind:])
    p_start, p_end = int(np.prod(start)), int(np.prod(end))
    if p_start != p_end:
        raise RuntimeError('Expected self to satisfy the requirement prod(self.shape[ind:]) == prod(self.shape[:ind]), '
                           'but got %d != %d' % (p_end, p_start))
    result, info = linalg_inv_ex(A.reshape(p_start, p_end))
    if info.item():
        raise _LinAlgError('inv: The diagonal element %d is zero, the inversion could not be completed because the '
                           'input matrix is singular.' % info.item())
    return result.reshape(end + start)


def linalg_tensorsolve(A, B, dims=None):
    """X with tensordot(A, X, X.ndim) = B: A's dims in `dims` moved last, A reshaped to a square matrix, solved for
    B flattened, the result reshaped to A's last dims (PyTorch's composition)."""
    if dims is not None:
        dims = list(dims)
        A = A.movedim(dims, list(range(A.ndim - len(dims), A.ndim)))
    shape = tuple(A.shape[B.ndim:])
    p, q = int(np.prod(shape)), B.numel()
    if p != q:
        raise RuntimeError('Expected self to satisfy the requirement prod(self.shape[other.ndim:]) == '
                           'prod(self.shape[:other.ndim]), but got %d != %d' % (p, q))
    return linalg_solve(A.reshape(p, p), B.flatten()).reshape(shape)


# ================================================================================================ lu

for _name, _fields in (('linalg_lu_factor', ('LU', 'pivots')), ('linalg_lu_factor_ex', ('LU', 'pivots', 'info')),
                       ('linalg_lu', ('P', 'L', 'U'))):
    if not hasattr(return_types, _name):
        setattr(return_types, _name, _return_type(_name, _fields))


def _lu_checks(A, name, pivot):
    if A.ndim < 2:
        raise RuntimeError('%s: Expected tensor with 2 or more dimensions. Got size: %s instead'
                           % (name, list(A.shape)))
    _check_kernel_dtype('lu_cpu', A)
    if not pivot:
        raise RuntimeError('linalg.lu_factor: LU without pivoting is not implemented on the CPU')


def _lu_unpack_np(lu, piv, pivots=True):
    """(P, L, U) of getrf's result, as lu_unpack gives them (row-major): A = P L U. pivots=False: P not asked for
    (None), the pivots then neither read nor checked."""
    m, n = lu.shape[-2:]
    k = min(m, n)
    if pivots and piv.size and (piv.min() < 1 or piv.max() > m):
        raise RuntimeError('pivots passed to lu_unpack must be between 1 and LU.size(-2) inclusive.Did you properly '
                           'pass the result of lu_factor?')
    L = np.tril(lu[..., :, :k], -1) + np.eye(m, k, dtype=lu.dtype)
    U = np.triu(lu[..., :k, :])
    if not pivots:
        return None, _row_major(L), _row_major(U)
    perm = np.broadcast_to(np.arange(m), piv.shape[:-1] + (m,)).copy()
    for i in range(k):                          # (each row swap applied to the rows' order)
        j = piv[..., i:i + 1].astype(np.int64) - 1
        a, c = perm[..., i:i + 1].copy(), np.take_along_axis(perm, j, -1)
        perm[..., i:i + 1] = c
        np.put_along_axis(perm, j, a, -1)
    P = np.zeros(piv.shape[:-1] + (m, m), lu.dtype)
    np.put_along_axis(P, perm[..., :, None], 1, -1)      # (P[perm[i], i] = 1, transposed below)
    return np.ascontiguousarray(np.swapaxes(P, -1, -2)), _row_major(L), _row_major(U)


def _lu_factor(A, pivot, name, check_errors):
    """getrf's (LU, pivots, info), recorded as LinalgLuFactorExBackward0; check_errors: the api named in the error
    for a zero pivot (or False)."""
    _lu_checks(A, name, pivot)
    lu, piv, info = _lu(A._data)
    if check_errors:
        bad = np.flatnonzero(info.reshape(-1))
        if bad.size:
            i = info.reshape(-1)[bad[0]]
            raise RuntimeError('torch.%s: %sU[%d,%d] is zero and using it on lu_solve would result in a '
                               'division by zero. If you still want to perform the factorization, consider calling '
                               'linalg.lu(A, pivot) or linalg.lu_factor_ex(A, pivot)'
                               % (check_errors, '(Batch element %d): ' % bad[0] if A.ndim > 2 else '', i, i))
    out = [make(lu), make(piv), make(info)]
    if ag.grad_enabled and A._requires_grad:
        node = ag.record(None, LinalgLuFactorExBackward0, (A,), {'LU': None, 'pivot': pivot, 'pivots': None})
        node.num_outputs = 3
        out[0]._grad_fn, out[0]._requires_grad, out[0]._output_nr = node, True, 0
        node._saved['LU'] = SavedTensor(out[0], is_output=True)
        node._saved['pivots'] = SavedTensor(out[1])
        ag.pack_outputs(node._saved)
        ag.fw_outputs(node, (A,), out)
    return out


def linalg_lu_factor(A, *, pivot=True):
    """torch.linalg.lu_factor: getrf's compact LU (column-major) and pivots; a zero pivot is an error."""
    return return_types.linalg_lu_factor(*_lu_factor(A, pivot, 'torch.lu_factor', 'linalg.lu_factor')[:2])


def linalg_lu_factor_ex(A, *, pivot=True, check_errors=False):
    """torch.linalg.lu_factor_ex: lu_factor's LU and pivots, and getrf's info instead of the error."""
    return return_types.linalg_lu_factor_ex(*_lu_factor(A, pivot, 'torch.lu_factor',
                                                        check_errors and 'linalg.lu_factor_ex'))


def linalg_lu(A, *, pivot=True):
    """torch.linalg.lu: P (no gradient), L unit lower triangular and U upper triangular with A = P L U, the outputs of
    LinalgLuBackward0 (saving L, P, U and pivot)."""
    _lu_checks(A, 'linalg.lu', pivot)
    lu, piv, _ = _lu(A._data)
    P, L, U = (make(t) for t in _lu_unpack_np(lu, piv))
    if ag.grad_enabled and A._requires_grad:
        saved = {'L': None, 'P': SavedTensor(P), 'U': None, 'pivot': pivot}
        node = ag.record(None, LinalgLuBackward0, (A,), saved)
        node.num_outputs = 2
        for i, t in ((0, L), (1, U)):
            t._grad_fn, t._requires_grad, t._output_nr = node, True, i
        saved['L'], saved['U'] = SavedTensor(L, is_output=True), SavedTensor(U, is_output=True)
        ag.pack_outputs(saved)
        ag.fw_outputs(node, (A,), (L, U))
    return return_types.linalg_lu(P, L, U)


def _lu_backward(gL, gU, P, L, U):
    """PyTorch's linalg_lu_backward: A = P L U with L (m, k), U (k, n), k = min(m, n)."""
    m, n = L.shape[-2], U.shape[-1]
    k = min(m, n)
    if m == n:
        gA = L.mT.matmul(gL).tril(-1) if gL is not None else None
        if gU is not None:
            gA = gU.matmul(U.mT).triu() if gA is None else gA + gU.matmul(U.mT).triu()
        gA = linalg_solve_triangular(U.mT, gA, upper=False, left=False)
        gA = linalg_solve_triangular(L.mT, gA, upper=True, left=True, unitriangular=True)
        return P.matmul(gA)
    if m < n:
        U1 = U.narrow(-1, 0, k)
        gA = L.mT.matmul(gL) if gL is not None else None
        if gU is not None:
            gA = -gU.triu().matmul(U.mT) if gA is None else gA - gU.triu().matmul(U.mT)
        gA = linalg_solve_triangular(U1.mT, gA.tril(-1), upper=False, left=False)
        if gU is not None:
            gA = cat([gA + gU.narrow(-1, 0, k).triu(), gU.narrow(-1, k, n - k)], -1)
        gA = linalg_solve_triangular(L.mT, gA, upper=True, left=True, unitriangular=True)
        if gU is None:
            gA = cat([gA, make(np.zeros(tuple(U.shape[:-1]) + (n - k,), U._data.dtype))], -1)
        return P.matmul(gA)
    L1 = L.narrow(-2, 0, k)
    gA = gU.matmul(U.mT) if gU is not None else None
    if gL is not None:
        gA = -L.mT.matmul(gL.tril(-1)) if gA is None else gA - L.mT.matmul(gL.tril(-1))
    gA = linalg_solve_triangular(L1.mT, gA.triu(), upper=True, left=True, unitriangular=True)
    if gL is not None:
        gA = cat([gA + gL.narrow(-2, 0, k).tril(-1), gL.narrow(-2, k, m - k)], -2)
    gA = linalg_solve_triangular(U.mT, gA, upper=False, left=False)
    if gL is None:
        gA = cat([gA, make(np.zeros(tuple(L.shape[:-2]) + (m - k, k), L._data.dtype))], -2)
    return P.matmul(gA)


class LinalgLuBackward0(Node):
    def apply(self, gL, gU):
        if gL is None and gU is None:
            return (None,)
        return (_lu_backward(gL, gU, self.saved('P'), self.saved('L'), self.saved('U')),)


class LinalgLuFactorExBackward0(Node):
    """lu_factor_ex_backward: the gradient of LU split into L's (strictly lower) and U's parts, through
    linalg_lu_backward with LU unpacked."""

    def apply(self, g, *unused):
        LU, piv = self.saved_pair('LU', 'pivots')
        m, n = LU.shape[-2:]
        k = min(m, n)
        P, L, U = (make(t) for t in _lu_unpack_np(LU._data, piv._data))
        if ag.grad_enabled and LU._requires_grad:          # (create_graph: L and U as functions of LU)
            L = LU.narrow(-1, 0, k).tril(-1) + make(np.eye(m, k, dtype=LU._data.dtype))
            U = LU.narrow(-2, 0, k).triu()
        return (_lu_backward(g.narrow(-1, 0, k), g.narrow(-2, 0, k), P, L, U),)



def linalg_lu_solve(LU, pivots, B, *, left=True, adjoint=False):
    """torch.linalg.lu_solve: X with A X = B from lu_factor's LU and pivots (A^H X = B when adjoint, X A = B when not
    left), B's batch broadcast against LU's; column-major results for left, row-major otherwise.
    LinalgLuSolveBackward0."""
    api = 'linalg.lu_solve'
    _check_float(LU, 'torch.' + api)
    if LU.dtype is not B.dtype:
        raise RuntimeError('%s: Expected LU and B to have the same dtype, but found LU of type %s and B of type %s '
                           'instead' % (api, _type_name(LU), _type_name(B)))
    if pivots.dtype.name != 'int32':
        raise RuntimeError('%s: pivots should be a Tensor of scalar type torch.int32' % api)
    _check_square(LU, 'torch.' + api)
    if B.ndim < 2:
        raise RuntimeError('%s: The input tensor B must have at least 2 dimensions.' % api)
    n = LU.shape[-1]
    if (B.shape[-2] if left else B.shape[-1]) != n:
        raise RuntimeError('%s: Incompatible shapes of A and B for the equation %s (%dx%d and %dx%d)'
                           % (api, 'AX = B' if left else 'XA = B', n, n, B.shape[-2], B.shape[-1]))
    if pivots.ndim == 0 or pivots.shape[-1] != n:
        raise RuntimeError('%s: Number of pivots per batch should be same as the dimension of the matrix' % api)
    if tuple(pivots.shape) != tuple(LU.shape[:-1]):
        raise RuntimeError('%s: Expected LU.shape[:-1] and pivots.shape to be the same, but got pivots with shape %s '
                           'instead' % (api, list(pivots.shape)))
    _check_broadcast(tuple(B.shape[:-2]), tuple(LU.shape[:-2]))
    lu, piv, b = LU._data, pivots._data, B._data
    if b.size and piv.size:                     # (the kernel's checks of the pivots' values)
        if piv.min() < 1:
            raise RuntimeError('Pivots given to lu_solve must all be greater or equal to 1. Did you properly pass the '
                               'result of lu_factor?')
        if piv.max() > lu.shape[-2]:
            raise RuntimeError('Pivots given to lu_solve must all be smaller or equal to LU.size(-2). Did you properly '
                               'pass the result of lu_factor?')
    if left:
        x = _column_major(_lu_solve(lu, piv, b, transpose=adjoint))
    else:                                       # X A = B: A^T X^T = B^T (X A^H = B: A X^T = B^T)
        x = _row_major(np.swapaxes(_lu_solve(lu, piv, np.swapaxes(b, -1, -2), transpose=not adjoint), -1, -2))
    return _attach(make(x), LinalgLuSolveBackward0, (LU, B), {
        'LU': SavedTensor(LU), 'adjoint': adjoint, 'left': left, 'pivots': SavedTensor(pivots), 'result': _RESULT})


def _unpacked(LU, piv):
    """(P, L, U) of LU for a formula: L and U as functions of LU when it is differentiable (create_graph)."""
    P, L, U = (make(t) for t in _lu_unpack_np(LU._data, piv._data))
    if ag.grad_enabled and LU._requires_grad:
        n = LU.shape[-1]
        L = LU.tril(-1) + make(np.eye(n, dtype=LU._data.dtype))
        U = LU.triu()
    return P, L, U


class LinalgLuSolveBackward0(Node):
    """gB: lu_solve with the adjoint system; gLU: PyTorch's linalg_lu_solve_LU (the gradients of L and U packed in
    one matrix)."""

    def apply(self, gX):
        LU, piv = self.saved_pair('LU', 'pivots')
        X = self.saved('result')
        left, adjoint = self._saved['left'], self._saved['adjoint']
        gLU = gB = None
        if self.needs(0):
            P, L, U = _unpacked(LU, piv)
            if left != adjoint:
                gR = linalg_solve_triangular(U.mT, -(gX if left else gX.mT).matmul(X.mT if left else X), upper=False)
                gL = linalg_solve_triangular(L.mT, gR.matmul(U.mT), upper=True, left=True,
                                             unitriangular=True).tril(-1)
                gLU = gL + gR.triu()
            else:
                gR = -P.mT.matmul(X if left else X.mT).matmul(gX.mT if left else gX).matmul(P)
                gR = linalg_solve_triangular(L.mT, gR, upper=True, left=False, unitriangular=True)
                gU = linalg_solve_triangular(U.mT, L.mT.matmul(gR), upper=False, left=False).triu()
                gLU = gR.tril(-1) + gU
        if self.needs(1):
            gB = linalg_lu_solve(LU, piv, gX, left=left, adjoint=not adjoint)
        return gLU, gB


__all__ += ['cholesky', 'cholesky_solve', 'cholesky_inverse', 'triangular_solve', 'qr']
for _name in ('cholesky', 'cholesky_solve', 'cholesky_inverse', 'triangular_solve', 'qr'):
    setattr(Tensor, _name, globals()[_name])


# ================================================================================ geqrf, householder_product (orgqr)

def _lapack_kernel_dtype(name, A):
    """The error of a LAPACK kernel given a tensor it has no version for (integers, bool, half)."""
    if A._data.dtype.kind != 'f' or A._data.dtype == np.float16:
        raise NotImplementedError('"%s" not implemented for \'%s\'' % (name, A.dtype.legacy))


def geqrf(input):
    """torch.geqrf: LAPACK's QR in Householder form: `a` holds R on and above its diagonal and below it the vectors
    of the reflections (each with an implicit 1 on the diagonal), `tau` their scales; householder_product(a, tau) is
    Q. (numpy's 'raw' QR is geqrf's own output, stored by columns.) No derivative: backward through it fails."""
    _check_tensor('geqrf', 'input', input, 1)
    if input.ndim < 2:
        raise RuntimeError('torch.geqrf: input must have at least 2 dimensions.')
    _lapack_kernel_dtype('geqrf_cpu', input)
    x = input._data
    m, n = x.shape[-2:]
    if x.size:
        h, tau = np.linalg.qr(x, mode='raw')
        a = np.swapaxes(h, -1, -2).astype(x.dtype)
    else:
        a, tau = x.copy(), np.zeros(x.shape[:-2] + (min(m, n),), x.dtype)
    a, tau = make(_column_major(a)), make(np.ascontiguousarray(tau, x.dtype))
    if ag.grad_enabled and input._requires_grad:
        _record_outputs(GeqrfBackward0, (input,), [a, tau], {}, {})
    return return_types.geqrf(a, tau)


class GeqrfBackward0(Node):
    def apply(self, *grads):
        raise NotImplementedError("the derivative for 'geqrf' is not implemented.")


def _householder_product_checks(A, tau):
    name = 'torch.linalg.householder_product'
    if A.ndim < 2:
        raise RuntimeError(name + ': input must have at least 2 dimensions.')
    if A.shape[-2] < A.shape[-1]:
        raise RuntimeError(name + ': input.shape[-2] must be greater than or equal to input.shape[-1]')
    if tau.ndim and A.shape[-1] < tau.shape[-1]:
        raise RuntimeError(name + ': input.shape[-1] must be greater than or equal to tau.shape[-1]')
    if A.ndim - tau.ndim != 1:
        raise RuntimeError(name + ': Expected tau to have one dimension less than input, but got tau.ndim equal to %d '
                           'and input.ndim is equal to %d' % (tau.ndim, A.ndim))
    if A.ndim > 2 and tuple(tau.shape[:-1]) != tuple(A.shape[:-2]):
        raise RuntimeError(name + ': Expected batch dimensions of tau to be equal to input.shape[:-2], but got %s'
                           % list(tau.shape[:-1]))
    if tau.dtype is not A.dtype:
        raise RuntimeError(name + ': tau dtype %s does not match input dtype %s' % (tau.dtype.legacy, A.dtype.legacy))
    _lapack_kernel_dtype('orgqr_cpu', A)


def _reflection_vector(a, i, m):
    """The i-th reflection's vector from geqrf's `a` (numpy or tensor): 0 above row i, 1 at it, a's column below."""
    below = (np.arange(m) > i).astype(a.dtype if isinstance(a, np.ndarray) else a._data.dtype)
    unit = (np.arange(m) == i).astype(below.dtype)
    column = a[..., :, i]
    return column * below + unit if isinstance(a, np.ndarray) else column * make(below) + make(unit)


def _householder_formula(A, tau):
    """Q = H_1 H_2 ... H_k (H_i = I - tau_i v_i v_i^T), its first n columns, in differentiable ops (the backward)."""
    m, n = A.shape[-2:]
    Q = eye(m, dtype=A.dtype).expand(tuple(A.shape[:-2]) + (m, m))
    for i in range(tau.shape[-1]):
        v = _reflection_vector(A, i, m)
        Q = Q - matmul(Q, v.unsqueeze(-1)) * tau[..., i, None, None] * v.unsqueeze(-2)
    return Q.narrow(-1, 0, n)


def linalg_householder_product(input, tau):
    """torch.linalg.householder_product (torch.orgqr): the first n columns of the product of the Householder
    reflections geqrf describes, Q of the QR decomposition when given geqrf's output."""
    _check_tensor('linalg_householder_product', 'input', input, 1)
    _check_tensor('linalg_householder_product', 'tau', tau, 2)
    _householder_product_checks(input, tau)
    a, t = input._data, tau._data
    m, n = a.shape[-2:]
    q = np.broadcast_to(np.eye(m, dtype=a.dtype), a.shape[:-2] + (m, m)).copy()
    for i in range(t.shape[-1]):
        v = _reflection_vector(a, i, m)
        q -= (q @ v[..., :, None]) * t[..., i, None, None] * v[..., None, :]
    Q = make(_column_major(q[..., :n]))
    if ag.grad_enabled and (input._requires_grad or tau._requires_grad):
        _record_outputs(LinalgHouseholderProductBackward0, (input, tau), [Q],
                        {'input': SavedTensor(input), 'tau': SavedTensor(tau), 'result': None}, {'result': Q})
    return Q


class LinalgHouseholderProductBackward0(Node):
    """The vector-Jacobian product of the reflections' product written in differentiable ops (so that it has a
    derivative itself)."""

    def apply(self, g):
        from .autograd import grad
        ins, create = self.saved_pair('input', 'tau'), ag.grad_enabled
        want = [i for i in (0, 1) if self.needs(i)]
        with ag.enable_grad():
            srcs = [t.view_as(t) if create else t.detach().requires_grad_(i in want) for i, t in enumerate(ins)]
            found = grad([_householder_formula(*srcs)], [srcs[i] for i in want], [g], create_graph=create,
                         allow_unused=True)
        out = [None, None]
        for i, r in zip(want, found):
            out[i] = r
        return tuple(out)


return_types.geqrf = _return_type('geqrf', ('a', 'tau'))
orgqr = linalg_householder_product
__all__ += ['geqrf', 'orgqr']
Tensor.geqrf = geqrf
Tensor.orgqr = linalg_householder_product
