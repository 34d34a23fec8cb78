"""tensordot, inner, kron, vdot, count_nonzero, nansum, nanmean, diff, logcumsumexp, cummax, cummin, aminmax,
var_mean, std_mean and inverse of `_ops_reduce.py`: values, dtypes, grad_fn names, saved attributes, gradients
(against finite differences, first and second order) and errors as PyTorch 2.13 has them (checked against it by
tests/differential/test_ops_reduce_vs_torch.py)."""
import math

import numpy as np
import pytest

import engine as torch
from numeric import check_first_order, check_second_order

nan = math.nan


def _x(shape=(2, 3, 4), seed=0):
    return torch.tensor(np.random.default_rng(seed).standard_normal(shape), requires_grad=True)


FUNCTIONS = {
    "tensordot_1": lambda x: torch.tensordot(x, x.transpose(0, 2), 1),
    "tensordot_lists": lambda x: torch.tensordot(x, x, ([1, 2], [1, 2])),
    "tensordot_all": lambda x: torch.tensordot(x, x * x, 3),
    "inner": lambda x: torch.inner(x, x.sin()),
    "kron": lambda x: torch.kron(x, x[0].cos()),
    "vdot": lambda x: torch.vdot(x.reshape(-1), x.reshape(-1).exp()),
    "nansum": lambda x: x.nansum(1) * x.sum(1),
    "nanmean": lambda x: torch.nanmean(x * x, (0, 2), keepdim=True),
    "diff": lambda x: torch.diff(x * x, n=2, dim=1, prepend=x),
    "logcumsumexp": lambda x: torch.logcumsumexp(x * 2, -1) * x,
    "cummax": lambda x: torch.cummax(x, 2).values * x,
    "cummin": lambda x: x.cummin(0)[0] ** 2,
    "var_mean": lambda x: (lambda r: r[0] * r[1])(torch.var_mean(x, (0, 2))),
    "std_mean": lambda x: (lambda r: r[0] * r[1].exp())(torch.std_mean(x, -1, correction=0, keepdim=True)),
    "inverse": lambda x: torch.inverse(x[..., :3] + 3 * torch.eye(3, dtype=torch.float64)),
    "aminmax": lambda x: (lambda r: r.min * r.max.sum())(x.aminmax(dim=1)),
}


@pytest.mark.parametrize("name", sorted(FUNCTIONS))
def test_gradients_match_finite_differences(name):
    check_first_order(FUNCTIONS[name], _x())


@pytest.mark.parametrize("name", ["tensordot_1", "inner", "kron", "nansum", "logcumsumexp", "cummax", "aminmax", "diff",
                                  "var_mean", "std_mean", "inverse"])
def test_second_order_gradients_match_finite_differences(name):
    f, x = FUNCTIONS[name], _x()
    check_second_order(f, x, _x(seed=1).detach())


def test_nodes_and_saved_attributes():
    a = torch.ones(2, 3, requires_grad=True)
    y = torch.tensordot(a, torch.ones(3, 4), 1)
    assert y.grad_fn.name() == 'ViewBackward0' and y.grad_fn.next_functions[0][0].name() == 'MmBackward0'
    assert torch.inner(a[0], a[1]).grad_fn.next_functions[0][0].name() == 'DotBackward0'
    y = a.nansum(-1)
    assert y.grad_fn.name() == 'NansumBackward0' and y.grad_fn._saved_dim == (2 ** 64 - 1,)
    assert y.grad_fn._saved_keepdim is False and a.nansum().grad_fn._saved_dim is None
    y = a.nanmean(0)
    assert y.grad_fn.name() == 'DivBackward0' and y.grad_fn._saved_other.dtype == torch.int64
    r = torch.cummax(a, -1)
    assert r.values.grad_fn.name() == 'CummaxBackward0' and r.values.grad_fn._saved_dim == 2 ** 64 - 1
    assert r.indices.dtype == torch.int64 and torch.cummin(a, 0).values.grad_fn.name() == 'CumminBackward0'
    r = torch.aminmax(a, dim=0)
    assert r.min.grad_fn is r.max.grad_fn and r.min.grad_fn.name() == 'AminmaxBackward0'
    assert torch.aminmax(a).min.grad_fn._saved_dim is None
    y = torch.logcumsumexp(a, 1)
    assert y.grad_fn.name() == 'LogcumsumexpBackward0' and y.grad_fn._saved_result is not None
    assert torch.diff(a).grad_fn.name() == 'SubBackward0'
    assert torch.vdot(a[0], a[1]).grad_fn.name() == 'VdotBackward0'
    r = torch.std_mean(a, 1)
    assert r[0].grad_fn is r[1].grad_fn and r[0].grad_fn.name() == 'StdMeanBackward0'
    assert r[0].grad_fn._saved_result0 is not None and r[0].grad_fn._saved_correction == 1
    r = torch.var_mean(a)
    assert r[1].grad_fn.name() == 'VarMeanBackward0' and r[1].grad_fn._saved_correction is None
    assert r[1].item() == 1. and r[0].item() == 0.


def test_values_and_dtypes():
    x = torch.tensor([[1., nan, 2.], [3., 4., nan]])
    assert x.nansum().item() == 10. and x.nansum(0).tolist() == [4., 4., 2.]
    assert torch.nanmean(x, 1).tolist() == [1.5, 3.5]
    i = torch.tensor([[0, 1], [2, 0]])
    assert torch.count_nonzero(i).item() == 2 and torch.count_nonzero(i, dim=0).tolist() == [1, 1]
    assert torch.count_nonzero(i).dtype == torch.int64 and torch.nansum(i.int()).dtype == torch.int64
    assert torch.diff(torch.tensor([1, 4, 9, 16]), n=2).tolist() == [2, 2]
    assert torch.diff(torch.tensor([True, False, False])).tolist() == [True, False]
    r = torch.cummax(torch.tensor([[1., 3., 2.], [3., 1., 3.]]), 1)
    assert r.values.tolist() == [[1., 3., 3.], [3., 3., 3.]] and r.indices.tolist() == [[0, 1, 1], [0, 0, 2]]
    r = torch.cummax(torch.tensor([1., nan, 2., nan]), 0)
    assert r.indices.tolist() == [0, 1, 1, 3] and math.isnan(r.values[2].item())
    assert torch.cummin(torch.tensor([3, 1, 1, 2]), 0).indices.tolist() == [0, 1, 2, 2]
    r = torch.aminmax(torch.tensor([[4, -2], [0, 7]]), dim=0)
    assert r.min.tolist() == [0, -2] and r.max.tolist() == [4, 7]
    y = torch.logcumsumexp(torch.tensor([0., 0., 0.]), 0)
    assert np.allclose(y.numpy(), np.log([1., 2., 3.]))
    assert torch.vdot(torch.tensor([1, 2]), torch.tensor([3, 4])).item() == 11
    assert torch.kron(torch.tensor([1, 2]), torch.tensor([[1, 2]])).tolist() == [[1, 2, 2, 4]]
    assert torch.kron(torch.ones(2, 3), torch.ones(3, 4)).shape == (6, 12)
    assert torch.inner(torch.ones(2, 3), torch.ones(4, 3)).shape == (2, 4)


def test_tie_gradients_are_shared():
    x = torch.tensor([[1., 3., 3.]], requires_grad=True)
    torch.aminmax(x).max.backward()
    assert x.grad.tolist() == [[0., .5, .5]]


@pytest.mark.parametrize("call, error, text", [
    (lambda: torch.diff(torch.tensor(1.)), RuntimeError, "diff expects input to be at least one-dimensional"),
    (lambda: torch.diff(torch.ones(3), n=-1), RuntimeError, "order must be non-negative but got -1"),
    (lambda: torch.inner(torch.ones(2, 3), torch.ones(3, 4)), RuntimeError,
     "inner() the last dimension must match on both input tensors but got shapes [2, 3] and [3, 4]"),
    (lambda: torch.vdot(torch.ones(1, 3), torch.ones(1, 3)), RuntimeError,
     "1D tensors expected, but got 2D and 2D tensors"),
    (lambda: torch.tensordot(torch.ones(2, 3), torch.ones(3, 4), ([0], [0])), RuntimeError,
     "contracted dimensions need to match, but first has size 2 in dim 0 and second has size 3 in dim 0"),
    (lambda: torch.logcumsumexp(torch.tensor([1, 2]), 0), NotImplementedError,
     "\"logcumsumexp_out_cpu\" not implemented for 'Long'"),
    (lambda: torch.inverse(torch.zeros(2, 2)), torch.linalg.LinAlgError, "linalg.inv: The diagonal element 1 is zero, "
     "the inversion could not be completed because the input matrix is singular."),
    (lambda: torch.nanmean(torch.tensor([1, 2])), RuntimeError,
     "nanmean(): expected input to have floating point or complex dtype but got Long"),
])
def test_errors(call, error, text):
    with pytest.raises(error) as info:
        call()
    assert str(info.value) == text


def test_inverse_is_column_major_and_its_gradient_is_pytorchs_composition():
    a = torch.tensor([[2., 1.], [1., 3.]], requires_grad=True)
    i = torch.linalg.inv(a)
    assert i.stride() == (1, 2) and not i.is_contiguous()              # (as LAPACK leaves it)
    assert torch.linalg.inv(torch.eye(3).expand(2, 3, 3)).stride() == (9, 1, 3)
    g, = torch.autograd.grad(i.sum(), a, create_graph=True)            # -inv^T @ (g @ inv^T)
    top = g.grad_fn.next_functions[0][0]
    assert [type(n).__name__ for n, _ in top.next_functions] == ['TransposeBackward0', 'MmBackward0']
    assert np.allclose(g.detach().numpy(), [[-0.16, -0.08], [-0.08, -0.04]])


def test_norm_of_another_p_takes_c_pow_correctly_rounded():
    """PyTorch's norm kernel for p other than 1, 2, inf: |x| ** p with powf (correctly rounded), summed in float32,
    then ** (1 / p); numpy's float32 power is an ulp off there (measured: PyTorch gives exactly 3.0 below)."""
    assert torch.tensor([0., 3.]).norm(p=3).item() == 3.0
    assert torch.linalg.vector_norm(torch.tensor([3., 0.]), 0.5).item() == 3.0
    x = torch.linspace(-2, 3, 37)
    assert x.norm(p=3).item() == 5.774515151977539          # (PyTorch 2.13's value)
    assert x.norm(p=1.5).item() == 16.208471298217773


def test_cdist_adds_as_its_own_kernel():
    """cdist's kernel (PyTorch 2.13's values): the features in order from 0, for p = 2 the last M % 4 squares as
    fused multiply-adds, C's pow for another p with the root's exponent 1 / p in double."""
    a = torch.linspace(-1.3, 2.1, 21).reshape(3, 7)
    b = torch.linspace(0.7, -1.9, 28).reshape(4, 7)
    assert torch.cdist(a, b)[1].tolist() == [1.409414291381836, 2.249938488006592, 3.8077893257141113,
                                             5.504321575164795]
    assert torch.cdist(a, b, p=1.)[1].tolist() == [3.206666946411133, 4.912592887878418, 9.359258651733398,
                                                   14.077777862548828]
    assert torch.cdist(a, b, p=3.)[1].tolist() == [1.108159065246582, 1.8164972066879272, 2.9121034145355225,
                                                   4.099944591522217]
    torch.manual_seed(0)
    a, b = torch.randn(3, 3), torch.randn(4, 3)
    assert torch.cdist(a, b)[0].tolist() == [3.0734164714813232, 2.9864587783813477, 2.9322757720947266,
                                             3.7276875972747803]
