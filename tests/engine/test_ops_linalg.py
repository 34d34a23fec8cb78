"""det, logdet, slogdet, linalg.solve, linalg.solve_ex and matrix_power of `_ops_linalg.py`: values, dtypes, grad_fn
names, saved attributes, gradients (against finite differences, first and second order) and errors as PyTorch 2.13
has them (checked against it by tests/differential/test_ops_linalg_vs_torch.py). No LAPACK needed: the LU is the
engine's own, so singular matrices are found the same way under Pyodide."""
import math

import numpy as np
import pytest

import engine as torch
from numeric import finite_difference_tests


def _x(shape=(2, 3, 3), seed=0):
    """Well-conditioned float64 matrices (a random part plus 3 times the identity)."""
    x = np.random.default_rng(seed).standard_normal(shape) + 3 * np.eye(shape[-1])
    return torch.tensor(x, requires_grad=True)


_W = torch.tensor(np.random.default_rng(5).standard_normal((3, 2)))

FUNCTIONS = {
    "det": lambda x: torch.det(x),
    "det_transposed": lambda x: torch.linalg.det(x.mT) * x[0, 0, 0],
    "det_strided": lambda x: torch.det(x[:, ::2, ::2]),
    "slogdet": lambda x: torch.slogdet(x * torch.tensor([1., -1., 1.], dtype=torch.float64)).logabsdet,
    "logdet": lambda x: x.logdet() * x.sum(),
    "solve": lambda x: torch.linalg.solve(x, _W),
    "solve_vector": lambda x: torch.linalg.solve(x, x[:, 0]),
    "solve_right": lambda x: torch.linalg.solve(x, _W.mT[None], left=False) ** 2,
    "solve_broadcast": lambda x: torch.linalg.solve(x[0], x),
    "solve_ex": lambda x: torch.linalg.solve_ex(x.exp(), x[1]).result,
    "matrix_power": lambda x: torch.linalg.matrix_power(x / 3, 5),
    "matrix_power_negative": lambda x: x.matrix_power(-3),
    "matrix_power_zero": lambda x: torch.matrix_power(x, 0) * x,
}

test_gradients_match_finite_differences, test_second_order_gradients_match_finite_differences = \
    finite_difference_tests(FUNCTIONS, _x, torch.tensor(np.random.default_rng(1).standard_normal((2, 3, 3))))


def test_nodes_and_saved_attributes():
    a = torch.tensor([[1., 2., 0.], [3., 1., 4.], [0.5, 2., 1.]], requires_grad=True)
    y = torch.det(a)
    g = y.grad_fn
    assert g.name() == 'LinalgDetBackward0' and g._saved_A is a and g._saved_result.item() == -9.
    # PyTorch factors A.mT for a contiguous A (det(A^T) = det(A)), A itself otherwise
    assert g._saved_pivots.dtype == torch.int32 and g._saved_pivots.tolist() == [2, 3, 3]
    assert np.allclose(g._saved_LU.numpy(), [[2., 1., 2.], [0., 4., 1.], [.5, .625, -1.125]])
    assert g._saved_LU.stride() == (1, 3) and not g._saved_LU.requires_grad
    assert torch.det(a.mT).grad_fn._saved_LU.tolist() == g._saved_LU.tolist()
    r = torch.slogdet(a)
    assert r.sign.grad_fn is r.logabsdet.grad_fn and r.sign.grad_fn.name() == 'LinalgSlogdetBackward0'
    assert r.sign.grad_fn._saved_sign.item() == -1. and r.sign.grad_fn._saved_sign.grad_fn is r.sign.grad_fn
    y = torch.logdet(a)
    assert y.grad_fn.name() == 'WhereBackward0' and y.grad_fn.next_functions[0] == (None, 0)
    fn, nr = y.grad_fn.next_functions[1]
    assert fn.name() == 'LinalgSlogdetBackward0' and nr == 1            # the where takes logabsdet, output 1
    y = torch.linalg.solve(a, a[0])
    g = y.grad_fn
    assert g.name() == 'LinalgSolveExBackward0' and g._saved_left is True and g._saved_pivots.tolist() == [2, 3, 3]
    assert np.allclose(g._saved_LU.numpy(), [[3., 1., 4.], [1 / 6, 11 / 6, 1 / 3], [1 / 3, 10 / 11, -18 / 11]])
    assert g.next_functions[1][0].name() == 'SelectBackward0'
    assert torch.linalg.solve(a, a).stride() == (1, 3) and torch.linalg.solve(a, a, left=False).stride() == (3, 1)
    assert type(torch.linalg.matrix_power(a, 0).grad_fn).__name__ == 'CopyBackwards'
    assert torch.linalg.matrix_power(a, 1).grad_fn.name() == 'CloneBackward0'
    assert torch.linalg.matrix_power(a, -1).grad_fn.name() == 'LinalgInvExBackward0'
    y = torch.linalg.matrix_power(a, 5)                  # a @ ((a @ a) @ (a @ a)): the bits of 5
    assert y.grad_fn.name() == 'MmBackward0' and y.grad_fn.next_functions[1][0].name() == 'MmBackward0'


def test_double_backward_graphs():
    a = torch.tensor([[2., 1.], [1., 3.]], requires_grad=True)
    (g,) = torch.autograd.grad(torch.det(a), a, create_graph=True)
    names = [g.grad_fn.name()] + [f.name() for f, _ in g.grad_fn.next_functions]
    assert names == ['LinalgSolveExBackward0', 'TransposeBackward0', 'TransposeBackward0']
    assert g.tolist() == [[3., -1.], [-1., 2.]]
    # a singular matrix: the cofactors, through the SVD (whose own derivative the engine lacks)
    s = torch.tensor([[1., 2.], [2., 4.]], requires_grad=True)
    (g,) = torch.autograd.grad(torch.det(s), s, create_graph=True)
    assert g.grad_fn.name() == 'MmBackward0' and np.allclose(g.detach().numpy(), [[4., -2.], [-2., 1.]], atol=1e-5)
    (g,) = torch.autograd.grad(torch.det(s), s)
    assert g.tolist() == [[0., 0.], [0., 0.]]            # PyTorch's first-order gradient there is zero
    v = torch.tensor([1., 2.], requires_grad=True)
    ga, gv = torch.autograd.grad(torch.linalg.solve(a, v).sum(), (a, v), create_graph=True)
    assert ga.grad_fn.name() == 'NegBackward0' and gv.grad_fn.name() == 'SqueezeBackward1'
    assert np.allclose(gv.detach().numpy(), [.4, .2]) and np.allclose(ga.detach().numpy(), [[-.08, -.24], [-.04, -.12]])


def test_values_and_dtypes():
    a = torch.tensor([[2., 1.], [1., 3.]])
    assert torch.det(a).item() == 5. and torch.det(a).dtype == torch.float32
    assert torch.det(a.double()).dtype == torch.float64
    assert torch.det(torch.stack([a, 2 * a, torch.zeros(2, 2)])).tolist() == [5., 20., 0.]
    assert torch.det(torch.ones(0, 0)).item() == 1. and torch.det(torch.ones(3, 0, 0)).tolist() == [1., 1., 1.]
    assert torch.det(torch.tensor([[0., 1.], [1., 0.]])).item() == -1.
    r = torch.slogdet(torch.tensor([[-1., 0.], [0., 2.]]))
    assert r.sign.item() == -1. and math.isclose(r.logabsdet.item(), math.log(2), rel_tol=1e-6)
    assert repr(r).startswith('torch.return_types.slogdet(\nsign=tensor(-1.),\nlogabsdet=tensor(0.6931))')
    assert type(torch.linalg.slogdet(a)).__name__ == 'linalg_slogdet'
    r = torch.slogdet(torch.zeros(2, 2))
    assert r.sign.item() == 0. and r.logabsdet.item() == -math.inf
    assert math.isnan(torch.logdet(torch.tensor([[-1., 0.], [0., 1.]])).item())
    assert torch.logdet(torch.zeros(2, 2)).item() == -math.inf
    x = torch.linalg.solve(a, torch.tensor([[1., 2.], [3., 4.]]))
    assert np.allclose(x.numpy(), [[0., .4], [1., 1.2]]) and x.dtype == torch.float32
    assert np.allclose(torch.linalg.solve(a, torch.tensor([1., 2.])).numpy(), [.2, .6])
    assert torch.linalg.solve(a.expand(3, 2, 2), torch.ones(3, 2)).shape == (3, 2)      # a batch of vectors
    assert torch.linalg.solve(a.expand(3, 2, 2), torch.ones(5, 1, 2, 4)).shape == (5, 3, 2, 4)
    r = torch.linalg.solve_ex(torch.stack([torch.eye(2), torch.zeros(2, 2)]), torch.ones(2, 2))
    assert r.info.dtype == torch.int32 and r.info.tolist() == [0, 1] and r.result[0].tolist() == [1., 1.]
    i = torch.tensor([[1, 2], [3, 4]])
    assert torch.linalg.matrix_power(i, 3).tolist() == [[37, 54], [81, 118]]
    assert i.matrix_power(0).tolist() == [[1, 0], [0, 1]]
    assert torch.linalg.matrix_power(i.int(), 6).dtype == torch.int32
    assert np.allclose(torch.linalg.matrix_power(a, -2).numpy(), np.linalg.matrix_power(a.numpy(), -2))
    assert np.allclose(torch.matrix_power(a, 11).numpy(), np.linalg.matrix_power(a.numpy().astype(np.float64), 11))


def test_singular_gradients():
    s = torch.tensor([[1., 2.], [2., 4.]], requires_grad=True)
    torch.slogdet(s).logabsdet.backward()
    assert s.grad.tolist() == [[-math.inf, math.inf], [math.inf, -math.inf]]
    s.grad = None
    torch.slogdet(s).sign.backward()                      # the sign has no gradient
    assert s.grad is None


_SINGULAR = 'The solver failed because the input matrix is singular.'


@pytest.mark.parametrize("call, error, text", [
    (lambda: torch.det(torch.ones(2, 3)), RuntimeError,
     "linalg.det: A must be batches of square matrices, but they are 2 by 3 matrices"),
    (lambda: torch.det(torch.ones(3, dtype=torch.int64)), RuntimeError,
     "linalg.det: The input tensor A must have at least 2 dimensions."),
    (lambda: torch.det(torch.ones(2, 2, dtype=torch.int64)), RuntimeError,
     "linalg.det: Expected a floating point or complex tensor as input. Got Long"),
    (lambda: torch.det(torch.ones(2, 2, dtype=torch.float16)), NotImplementedError,
     "\"lu_cpu\" not implemented for 'Half'"),
    (lambda: torch.logdet(torch.ones(2, 2, dtype=torch.int32)), RuntimeError,
     "logdet: Expected a floating point or complex tensor as input. Got Int"),
    (lambda: torch.logdet(torch.ones(2, 2, dtype=torch.float16)), RuntimeError,
     "logdet: Low precision dtypes not supported. Got Half"),
    (lambda: torch.slogdet(torch.ones(3)), RuntimeError,
     "linalg.slogdet: The input tensor A must have at least 2 dimensions."),
    (lambda: torch.linalg.solve(torch.tensor([[1., 2.], [2., 4.]]), torch.ones(2)), torch.linalg.LinAlgError,
     "torch.linalg.solve: " + _SINGULAR),
    (lambda: torch.linalg.solve(torch.stack([torch.eye(2), torch.zeros(2, 2)]), torch.ones(2)),
     torch.linalg.LinAlgError, "torch.linalg.solve: (Batch element 1): " + _SINGULAR),
    (lambda: torch.linalg.solve_ex(torch.zeros(2, 2), torch.ones(2), check_errors=True), torch.linalg.LinAlgError,
     "torch.linalg.solve_ex: " + _SINGULAR),
    (lambda: torch.linalg.solve(torch.eye(2), torch.ones(3)), RuntimeError,
     "linalg.solve: Incompatible shapes of A and B for the equation AX = B (2x2 and 3x1)"),
    (lambda: torch.linalg.solve(torch.eye(2), torch.ones(2, 3), left=False), RuntimeError,
     "linalg.solve: Incompatible shapes of A and B for the equation XA = B (2x2 and 2x3)"),
    (lambda: torch.linalg.solve(torch.eye(2), torch.ones(2, dtype=torch.float64)), RuntimeError,
     "linalg.solve: Expected A and B to have the same dtype, but found A of type Float and B of type Double instead"),
    (lambda: torch.linalg.solve(torch.eye(2), torch.tensor(1.)), RuntimeError,
     "linalg.solve: The input tensor B must have at least 2 dimensions."),
    (lambda: torch.linalg.solve(torch.ones(3, 2, 2), torch.ones(4, 2, 2)), RuntimeError,
     "The size of tensor a (4) must match the size of tensor b (3) at non-singleton dimension 0"),
    (lambda: torch.linalg.matrix_power(torch.ones(2, 3), 2), RuntimeError,
     "linalg.matrix_power: A must be batches of square matrices, but they are 2 by 3 matrices"),
    (lambda: torch.linalg.matrix_power(torch.eye(2), 2.), TypeError,
     "linalg_matrix_power(): argument 'n' (position 2) must be int, not float"),
    (lambda: torch.eye(2).matrix_power(2.), TypeError,
     "matrix_power(): argument 'n' (position 1) must be int, not float"),
])
def test_errors(call, error, text):
    with pytest.raises(error) as info:
        call()
    assert str(info.value) == text
