"""linalg.cholesky / cholesky_ex, linalg.eigh / eigvalsh, linalg.qr, linalg.solve_triangular, torch.cholesky_solve /
cholesky_inverse / triangular_solve, linalg.lu / lu_factor / lu_factor_ex / lu_solve, linalg.vecdot / vander / inv_ex /
tensorinv / tensorsolve of `_ops_linalg.py`: values, grad_fn names, saved attributes, gradients (against finite
differences, first and second order) and errors as PyTorch 2.13 has them (checked against it by
tests/differential/test_s35_linalg_vs_torch.py). numpy.linalg only (no scipy), so these run under Pyodide too.

Symmetric inputs are made from x as x @ x^T + 3 I (or x + x^T): PyTorch's gradients of cholesky and eigh assume a
symmetric change of A, which a finite difference of one entry of A is not. Losses of eigenvectors are ones that do
not depend on their signs (V diag V^T, V * V), the only ones that have a gradient."""
import warnings

import numpy as np
import pytest

import engine as torch
from numeric import finite_difference_tests, numeric_grad


def _x(shape=(2, 3, 3), seed=0):
    x = np.random.default_rng(seed).standard_normal(shape) + 3 * np.eye(*shape[-2:])
    return torch.tensor(x, requires_grad=True)


def _spd(x):
    return x @ x.mT + 3 * torch.eye(x.shape[-1], dtype=x.dtype)


def _square4(x):
    return x.reshape(18)[:16].reshape(4, 4) + 3 * torch.eye(4, dtype=x.dtype)


def _lu_solve_all(A, B):
    """lu_solve's four systems from A's LU, summed (B square enough for each)."""
    LU, piv = torch.linalg.lu_factor(A)
    total = 0
    for left in (True, False):
        for adjoint in (False, True):
            X = torch.linalg.lu_solve(LU, piv, B if left else B.mT, left=left, adjoint=adjoint)
            total = total + (X * X).sum()
    return total


_D = torch.tensor([1., 2., 3.], dtype=torch.float64)
_W = torch.tensor(np.random.default_rng(5).standard_normal((3, 2)))

FUNCTIONS = {
    "cholesky": lambda x: torch.linalg.cholesky(_spd(x)) * _D,
    "cholesky_upper": lambda x: torch.linalg.cholesky(_spd(x), upper=True) ** 2,
    "cholesky_ex": lambda x: torch.linalg.cholesky_ex(_spd(x.mT)).L.exp(),
    "eigvalsh": lambda x: torch.linalg.eigvalsh(x + x.mT) ** 2,
    "eigh_values": lambda x: torch.linalg.eigh(x + x.mT, UPLO='U').eigenvalues.exp(),
    "eigh_vectors_squared": lambda x: torch.linalg.eigh(x + x.mT).eigenvectors ** 2 * _D,
    "eigh_projection": lambda x: (lambda r: (r.eigenvectors * _D) @ r.eigenvectors.mT)(torch.linalg.eigh(x + x.mT)),
    "qr_R": lambda x: torch.linalg.qr(x).R ** 2,
    "qr_Q_R": lambda x: (lambda r: r.Q @ r.R.exp())(torch.linalg.qr(x)),
    "qr_tall": lambda x: (lambda r: r.Q * r.Q.sum(-2, keepdim=True) + r.R.sum())(torch.linalg.qr(x[..., :2])),
    "qr_wide": lambda x: (lambda r: (r.Q @ r.R) * x[..., :2, :] + r.R ** 2)(torch.linalg.qr(x[..., :2, :])),
    "qr_complete_wide": lambda x: torch.linalg.qr(x[..., :2, :], mode='complete').R ** 2,
    "solve_triangular": lambda x: torch.linalg.solve_triangular(x, _W, upper=False),
    "solve_triangular_right": lambda x: torch.linalg.solve_triangular(x, x[..., :2, :], upper=True, left=False),
    "solve_triangular_unit": lambda x: torch.linalg.solve_triangular(x, x.exp(), upper=True, unitriangular=True),
    "cholesky_solve": lambda x: torch.cholesky_solve(x[..., :2], torch.linalg.cholesky(_spd(x))) ** 2,
    "cholesky_solve_upper": lambda x: torch.cholesky_solve(_W, torch.linalg.cholesky(_spd(x), upper=True), True),
    "cholesky_inverse": lambda x: torch.cholesky_inverse(torch.linalg.cholesky(_spd(x))) ** 2,
    "cholesky_inverse_upper": lambda x: torch.cholesky_inverse(x.triu(), upper=True),
    "vecdot": lambda x: torch.linalg.vecdot(x, x.exp(), dim=-2),
    "vander": lambda x: torch.linalg.vander(x[0, 0], N=4),
    "inv_ex": lambda x: torch.linalg.inv_ex(x).inverse,
    "tensorinv": lambda x: torch.linalg.tensorinv(_square4(x).reshape(2, 2, 2, 2), ind=2),
    "lu": lambda x: (lambda r: r.L ** 2 + r.U * 2)(torch.linalg.lu(x)),
    "lu_tall": lambda x: (lambda r: r.L.sum(-1, keepdim=True) * r.U.sum())(torch.linalg.lu(x[..., :2])),
    "lu_wide": lambda x: (lambda r: r.L.sum() + r.U.exp().sum(-2))(torch.linalg.lu(x[..., :2, :])),
    "lu_factor": lambda x: torch.linalg.lu_factor(x).LU ** 2,
    "lu_factor_ex_wide": lambda x: torch.linalg.lu_factor_ex(x[..., :2, :]).LU.exp(),
    "lu_solve_LU": lambda x: _lu_solve_all(x, _W),
    "lu_solve_B": lambda x: _lu_solve_all(_x((3, 3), 3).detach(), x[0, :, :2]),
    "lu_solve_both": lambda x: _lu_solve_all(x, x[..., 1:]),
    "tensorsolve": lambda x: torch.linalg.tensorsolve(_square4(x).reshape(2, 2, 4), _W.reshape(2, 3)[:, :2]),
    "householder_product": lambda x: torch.linalg.householder_product(x, x[..., 0, :2].sigmoid()),
    "householder_product_tall": lambda x: torch.orgqr(x.reshape(3, 6).mT, x[0, :, 0]),
}

test_gradients_match_finite_differences, test_second_order_gradients_match_finite_differences = \
    finite_difference_tests(FUNCTIONS, _x, torch.tensor(np.random.default_rng(1).standard_normal((2, 3, 3))))


def test_triangular_solve_gradients():
    b = torch.tensor(np.random.default_rng(2).standard_normal((2, 3, 2)), requires_grad=True)
    for upper, transpose, unit in [(True, False, False), (False, True, False), (False, False, True)]:
        def f(a, b):
            with warnings.catch_warnings():
                warnings.simplefilter('ignore')
                r = torch.triangular_solve(b, a, upper, transpose, unit)
            return r.solution.sum() + (r.cloned_coefficient ** 2).sum()
        a = _x()
        a.grad = b.grad = None
        f(a, b).backward()
        assert np.allclose(a.grad.numpy(), numeric_grad(lambda t: f(t, b.detach()), a), atol=1e-5)
        assert np.allclose(b.grad.numpy(), numeric_grad(lambda t: f(a.detach(), t), b), atol=1e-5)


def test_values():
    a = _spd(_x()).detach()
    L = torch.linalg.cholesky(a)
    assert np.allclose((L @ L.mT).numpy(), a.numpy()) and np.allclose(L.numpy(), np.linalg.cholesky(a.numpy()))
    U = torch.linalg.cholesky(a, upper=True)
    assert np.allclose(U.numpy(), L.mT.numpy()) and L.stride() == U.stride() == (9, 1, 3)
    w, V = torch.linalg.eigh(a)
    assert np.allclose(w.numpy(), np.linalg.eigvalsh(a.numpy())) and V.stride() == (9, 1, 3)
    assert np.allclose(((V * w.unsqueeze(-2)) @ V.mT).numpy(), a.numpy())
    x = _x((2, 4, 3)).detach()
    for mode, qs, rs in [('reduced', (2, 4, 3), (2, 3, 3)), ('complete', (2, 4, 4), (2, 4, 3)), ('r', (0,), (2, 3, 3))]:
        Q, R = torch.linalg.qr(x, mode)
        assert tuple(Q.shape) == qs and tuple(R.shape) == rs and np.allclose(R.numpy(), np.triu(R.numpy()))
        if mode != 'r':
            assert np.allclose((Q @ R).numpy(), x.numpy())
    assert torch.linalg.qr(x).R.stride() == (9, 1, 3)
    X = torch.linalg.solve_triangular(L, a, upper=False)
    assert np.allclose((L @ X).numpy(), a.numpy()) and X.stride() == (9, 1, 3)
    assert np.allclose(torch.cholesky_solve(a, L).numpy(), np.eye(3)[None].repeat(2, 0))
    assert np.allclose(torch.cholesky_inverse(L).numpy(), np.linalg.inv(a.numpy()))
    # float32 stays float32; float16 has no kernel
    f = torch.linalg.cholesky(torch.eye(2) * 4)
    assert f.dtype == torch.float32 and f.tolist() == [[2., 0.], [0., 2.]]


def test_nodes_and_saved_attributes():
    a = torch.tensor([[4., 2.], [2., 3.]], requires_grad=True)
    L = torch.linalg.cholesky(a)
    g = L.grad_fn
    assert g.name() == 'LinalgCholeskyExBackward0' and g._saved_L.equal(L) and g._saved_upper is False
    r = torch.linalg.cholesky_ex(a, upper=True)
    assert r.L.grad_fn._saved_upper is True and r.info.dtype == torch.int32 and not r.info.requires_grad
    w, V = torch.linalg.eigh(a)
    g = w.grad_fn
    assert g is V.grad_fn and g.name() == 'LinalgEighBackward0' and V.output_nr == 1
    assert g._saved_eigenvalues.equal(w) and g._saved_eigenvectors.equal(V)       # (outputs: new tensors)
    w = torch.linalg.eigvalsh(a)                # (eigh's node, with the eigenvectors saved)
    assert w.grad_fn.name() == 'LinalgEighBackward0' and w.grad_fn._saved_eigenvectors.shape == (2, 2)
    Q, R = torch.linalg.qr(a)
    assert Q.grad_fn is R.grad_fn and Q.grad_fn.name() == 'LinalgQrBackward0' and Q.grad_fn._saved_mode == 'reduced'
    assert Q.grad_fn._saved_Q.equal(Q) and Q.grad_fn._saved_R.equal(R)
    Q, R = torch.linalg.qr(a, mode='r')
    assert Q.shape == (0,) and Q.grad_fn is R.grad_fn
    X = torch.linalg.solve_triangular(a, a, upper=True, left=False)
    g = X.grad_fn
    assert g.name() == 'LinalgSolveTriangularBackward0' and g._saved_self is a and g._saved_result.equal(X)
    assert (g._saved_upper, g._saved_left, g._saved_unitriangular) == (True, False, False)
    Y = torch.cholesky_solve(a, L)
    assert Y.grad_fn.name() == 'CholeskySolveBackward0' and Y.grad_fn._saved_input2 is L
    assert Y.grad_fn._saved_self is a and Y.grad_fn._saved_upper is False
    Y = torch.cholesky_inverse(L, upper=False)
    assert Y.grad_fn.name() == 'CholeskyInverseBackward0' and Y.grad_fn._saved_self is L
    with warnings.catch_warnings():
        warnings.simplefilter('ignore')
        assert torch.cholesky(a).grad_fn.name() == 'CholeskyBackward0'
        r = torch.triangular_solve(a, L, upper=False)
        assert type(r).__name__ == 'triangular_solve' and r.solution.grad_fn is r.cloned_coefficient.grad_fn
        assert r.solution.grad_fn.name() == 'TriangularSolveBackward0'
        assert type(torch.qr(a)).__name__ == 'qr'
    # the double-backward graph ends in the ops PyTorch's formulas use
    (g,) = torch.autograd.grad(torch.linalg.cholesky(a).sum(), a, create_graph=True)
    assert g.grad_fn.name() == 'LinalgSolveTriangularBackward0'
    w, V = torch.linalg.eigh(a)
    (g,) = torch.autograd.grad((V * V).sum() + w.sum(), a, create_graph=True)
    assert g.grad_fn.name() == 'MmBackward0'


def test_errors():
    def error(f, kind=RuntimeError):
        with pytest.raises(kind) as e:
            f()
        return str(e.value)
    npd = torch.tensor([[1., 2.], [2., 1.]])
    assert error(lambda: torch.linalg.cholesky(npd), torch.linalg.LinAlgError) == (
        'linalg.cholesky: The factorization could not be completed because the input is not positive-definite (the '
        'leading minor of order 2 is not positive-definite).')
    assert '(Batch element 1): ' in error(lambda: torch.linalg.cholesky(torch.stack([torch.eye(2), npd])))
    r = torch.linalg.cholesky_ex(npd)
    assert r.info.item() == 2 and r.L.tolist() == [[1., 0.], [2., -3.]]     # (potrf stops there)
    assert error(lambda: torch.linalg.cholesky(torch.ones(2, 3))) == (
        'linalg.cholesky: A must be batches of square matrices, but they are 2 by 3 matrices')
    assert error(lambda: torch.linalg.eigh(torch.eye(2), 'X')) == "Expected UPLO argument to be 'L' or 'U', but got X"
    assert error(lambda: torch.linalg.eigh(torch.eye(2, dtype=torch.int64)), NotImplementedError) == (
        '"linalg_eigh_cpu" not implemented for \'Long\'')
    assert error(lambda: torch.linalg.qr(torch.eye(2), 'x')) == (
        "qr received unrecognized mode 'x' but expected one of 'reduced' (default), 'r', or 'complete'")
    a = torch.randn(3, 2, requires_grad=True)
    assert error(lambda: torch.linalg.qr(a, mode='r').R.sum().backward()).startswith(
        "The derivative of linalg.qr depends on Q, which is not computed when mode='r'.")
    assert error(lambda: torch.linalg.qr(a, mode='complete').R.sum().backward()) == (
        "The QR decomposition is not differentiable when mode='complete' and nrows > ncols.")
    assert error(lambda: torch.linalg.solve_triangular(torch.eye(2), torch.eye(2)), TypeError) == (
        'linalg_solve_triangular() missing 1 required positional arguments: "upper"')
    assert error(lambda: torch.cholesky_inverse(torch.zeros(2, 2)), torch.linalg.LinAlgError) == (
        'cholesky_inverse: The diagonal element 1 is zero, the inversion could not be completed because the input '
        'matrix is singular.')
    # empty matrices are fine
    assert torch.linalg.cholesky(torch.empty(2, 0, 0)).shape == (2, 0, 0)
    assert torch.linalg.eigh(torch.empty(0, 0)).eigenvalues.shape == (0,)
    assert torch.linalg.qr(torch.empty(3, 0), 'complete').Q.tolist() == np.eye(3).tolist()


def test_geqrf_and_householder_product_give_qr_and_geqrf_has_no_derivative():
    A = torch.tensor(np.random.default_rng(3).standard_normal((2, 5, 3)), requires_grad=True)
    a, tau = torch.geqrf(A)
    Q = torch.linalg.householder_product(a, tau)
    R = a.triu()[..., :3, :]
    assert np.allclose((Q @ R).detach().numpy(), A.detach().numpy())
    assert np.allclose((Q.mT @ Q).detach().numpy(), np.eye(3))
    assert a.stride() == (15, 1, 5) and type(a.grad_fn).__name__ == 'GeqrfBackward0'
    with pytest.raises(NotImplementedError, match="^the derivative for 'geqrf' is not implemented.$"):
        a.sum().backward()
    for args, message in [((torch.ones(3), torch.ones(1)), 'input must have at least 2 dimensions.'),
                          ((torch.ones(2, 3), torch.ones(1)), 'input.shape[-2] must be greater than or equal to'),
                          ((torch.ones(3, 2), torch.ones(1, 1)), 'Expected tau to have one dimension less than input'),
                          ((torch.ones(3, 2), torch.ones(1, dtype=torch.float64)), 'tau dtype Double does not match')]:
        with pytest.raises(RuntimeError) as info:
            torch.linalg.householder_product(*args)
        assert message in str(info.value)
