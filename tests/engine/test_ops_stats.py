"""cdist, bincount, histc, searchsorted, bucketize, quantile, nanquantile, mode, cov, corrcoef and erfinv of
`_ops_stats.py`: values, dtypes, grad_fn names, saved attributes, gradients (against finite differences, first and
second order) and errors as PyTorch 2.13 has them (checked against it by
tests/differential/test_ops_stats_vs_torch.py)."""
import math

import numpy as np
import pytest

import engine as torch
from numeric import check_first_order, check_second_order

nan = math.nan


def _x(shape=(3, 4), seed=0):
    return torch.tensor(np.random.default_rng(seed).standard_normal(shape), requires_grad=True)


_B = torch.tensor(np.random.default_rng(5).standard_normal((5, 4)))
_Q = torch.tensor([0.1, 0.5, 0.85], dtype=torch.float64)

FUNCTIONS = {
    "cdist_p2": lambda x: torch.cdist(x, _B),
    "cdist_p1": lambda x: torch.cdist(x, _B, p=1) * x.sum(),
    "cdist_p3": lambda x: torch.cdist(x, x.flip(0) * 2, p=3),
    "cdist_p_half": lambda x: torch.cdist(x, _B, p=0.5),
    "cdist_inf": lambda x: torch.cdist(x, _B, p=math.inf),
    "cdist_mm": lambda x: torch.cdist(x, _B, compute_mode='use_mm_for_euclid_dist'),
    "cdist_mm_batched": lambda x: torch.cdist(x.view(3, 1, 4), x[:2] * 3, compute_mode='use_mm_for_euclid_dist'),
    "quantile": lambda x: torch.quantile(x, 0.3),
    "quantile_dim": lambda x: torch.quantile(x, _Q, dim=1, keepdim=True) * x.sum(1, True),
    "quantile_midpoint": lambda x: torch.quantile(x, 0.4, dim=0, interpolation='midpoint'),
    "nanquantile": lambda x: torch.nanquantile(x, _Q, dim=0),
    "mode": lambda x: torch.mode(x.round(), 1).values * x[:, 0],
    "cov": lambda x: torch.cov(x),
    "cov_weights": lambda x: torch.cov(x, fweights=torch.tensor([1, 2, 1, 3]),
                                       aweights=torch.tensor([0.5, 1., 2., 1.], dtype=torch.float64)),
    "corrcoef": lambda x: torch.corrcoef(x) * torch.arange(9.).view(3, 3),
    "erfinv": lambda x: torch.erfinv(x.tanh() * 0.9),
}


@pytest.mark.parametrize("name", sorted(FUNCTIONS))
def test_gradients_match_finite_differences(name):
    check_first_order(FUNCTIONS[name], _x())


@pytest.mark.parametrize("name", ["cdist_mm", "quantile_dim", "cov", "corrcoef", "erfinv"])
def test_second_order_gradients_match_finite_differences(name):
    f, x = FUNCTIONS[name], _x()
    check_second_order(f, x, _x(seed=1).detach())


def test_cdist_nodes():
    a, b = torch.ones(3, 2, requires_grad=True), torch.zeros(4, 2, requires_grad=True)
    y = torch.cdist(a, b, p=3)
    assert y.grad_fn.name() == 'CdistBackward0' and y.grad_fn._saved_p == 3.0
    assert y.grad_fn._saved_x1 is not None and y.grad_fn._saved_result.grad_fn is y.grad_fn
    assert np.allclose(y.detach().numpy(), 2 ** (1 / 3))
    y = torch.cdist(torch.ones(30, 2, requires_grad=True), b)      # more than 25 rows: by a matrix product
    assert y.grad_fn.name() == 'ViewBackward0'
    assert y.grad_fn.next_functions[0][0].name() == 'EuclideanDistBackward0'
    assert torch.cdist(torch.ones(30, 2, requires_grad=True), b, compute_mode='donot_use_mm_for_euclid_dist'
                       ).grad_fn.name() == 'CdistBackward0'
    (g,) = torch.autograd.grad(torch.cdist(a, b).sum(), a, create_graph=True)
    assert g.grad_fn.name() == 'CdistBackwardBackward0'
    with pytest.raises(NotImplementedError, match="the derivative for '_cdist_backward' is not implemented."):
        g.sum().backward()
    assert torch.cdist(a, b, p=0).tolist() == [[2.] * 4] * 3


def test_counting_values_and_dtypes():
    x = torch.tensor([0, 1, 1, 3, 5, 1])
    c = torch.bincount(x)
    assert c.tolist() == [1, 3, 0, 1, 0, 1] and c.dtype == torch.int64
    assert torch.bincount(x, minlength=8).tolist() == [1, 3, 0, 1, 0, 1, 0, 0]
    w = torch.tensor([0.5, 1., 2., -1., 3., 0.25])
    assert torch.bincount(x, w).dtype == torch.float32 and torch.bincount(x, w).tolist()[1] == 3.25
    assert torch.bincount(x, torch.arange(6)).dtype == torch.float64
    assert torch.bincount(torch.tensor([], dtype=torch.int64), w[:0], 2).dtype == torch.int64
    y = torch.bincount(x, w.requires_grad_())
    assert y.grad_fn.name() == 'torch::autograd::NotImplemented'
    h = torch.tensor([1., 2., 1., 2.5, 4., -1.])
    assert torch.histc(h, 4).tolist() == [1., 2., 2., 1.] and torch.histc(h.double(), 3).dtype == torch.float64
    assert torch.histc(h, 4, 0, 3).tolist() == [0., 2., 1., 1.]
    assert torch.histc(torch.tensor([2., 2.]), 4).tolist() == [0., 0., 2., 0.]
    s = torch.tensor([1., 3., 5., 7., 9.])
    v = torch.tensor([[3., 6., 9.], [nan, 0., 10.]])
    i = torch.searchsorted(s, v)
    assert i.tolist() == [[1, 3, 4], [5, 0, 5]] and i.dtype == torch.int64
    assert torch.searchsorted(s, v, side='right').tolist() == [[2, 3, 5], [5, 0, 5]]
    assert torch.bucketize(v, s, out_int32=True).dtype == torch.int32
    assert torch.bucketize(v, s, right=True).tolist() == [[2, 3, 5], [5, 0, 5]]
    assert torch.searchsorted(s, 5.).item() == 2 and torch.searchsorted(s, 5.).ndim == 0
    rows = torch.tensor([[1, 3, 5], [2, 4, 6]])
    assert torch.searchsorted(rows, torch.tensor([[3], [3]])).tolist() == [[1], [1]]
    assert torch.searchsorted(torch.tensor([3., 1., 2.]), torch.tensor([2.5]),
                              sorter=torch.tensor([1, 2, 0])).tolist() == [2]


def test_quantile_mode_cov_erfinv_values():
    x = torch.tensor([[1., 5., 2., 8.], [3., 0., 4., 6.]], requires_grad=True)
    y = torch.quantile(x, 0.3)
    assert abs(y.item() - 2.1) < 1e-6 and y.grad_fn.name() == 'SqueezeBackward4'
    assert y.grad_fn.next_functions[0][0].name() == 'LerpBackward1'
    y = torch.quantile(x, torch.tensor([0.25, 0.5]), dim=1, keepdim=True)
    assert y.shape == (2, 2, 1) and np.allclose(y.detach().numpy().ravel(), [1.75, 2.25, 3.5, 3.5])
    assert torch.quantile(x, 0.3, 0, interpolation='lower').tolist() == [1., 0., 2., 6.]
    assert torch.quantile(x, 0.3, 0, interpolation='higher').tolist() == [3., 5., 4., 8.]
    assert torch.quantile(torch.arange(10.), 0.35, interpolation='nearest').item() == 3.
    xn = torch.tensor([[1., nan, 3.], [nan, nan, nan]])
    assert math.isnan(torch.quantile(xn, 0.5, 1)[0].item())
    r = torch.nanquantile(xn, 0.5, 1).tolist()
    assert r[0] == 2. and math.isnan(r[1])
    r = torch.mode(torch.tensor([[1., 5., 1., 8., 5.], [3., 0., 3., 0., 6.]]))
    assert r.values.tolist() == [1., 0.] and r.indices.tolist() == [2, 3] and r.indices.dtype == torch.int64
    assert type(r).__name__ == 'mode'
    r = torch.mode(x, 0, keepdim=True)
    assert r.values.grad_fn.name() == 'ModeBackward0' and r.values.grad_fn._saved_keepdim is True
    assert r.values.grad_fn._saved_self_sym_sizes == (2, 4)
    # ties beyond 16 elements: the index std::sort (introsort, not stable) leaves last in the run, as PyTorch
    assert torch.mode(torch.arange(40) % 2).indices.item() == 2
    assert torch.mode(torch.zeros(300)).indices.item() == 95
    c = torch.cov(x)
    assert c.grad_fn.name() == 'SqueezeBackward0'
    assert np.allclose(c.detach().numpy(), [[10., 2.3333333], [2.3333333, 6.25]])
    assert torch.cov(torch.tensor([[1, 2, 4], [0, 3, 3]])).dtype == torch.float32
    r = torch.corrcoef(x)
    assert r.grad_fn.name() == 'ClampBackward1' and r.grad_fn._saved_min == -1
    y = torch.erfinv(torch.tensor([-1., -0.5, 0., 0.3, 1., 1.5], requires_grad=True))
    assert y.grad_fn.name() == 'ErfinvBackward0'
    v = y.tolist()
    assert v[0] == -math.inf and v[4] == math.inf and math.isnan(v[5]) and v[2] == 0.
    assert abs(v[1] + 0.4769362762) < 1e-6 and abs(v[3] - 0.2724627147) < 1e-6
    e = torch.erfinv(torch.tensor([0.1, -0.999999], dtype=torch.float64))
    assert np.allclose(np.array([math.erf(t) for t in e.tolist()]), [0.1, -0.999999], rtol=0, atol=1e-15)
    assert torch.erfinv(torch.tensor([0, 1])).dtype == torch.float32


def test_cov_warns_without_degrees_of_freedom():
    with pytest.warns(UserWarning, match=r"cov\(\): degrees of freedom is <= 0"):
        c = torch.cov(torch.tensor([[1.], [2.]]))
    assert all(math.isnan(v) for v in c.flatten().tolist())


@pytest.mark.parametrize("call, error, text", [
    (lambda: torch.cdist(torch.ones(3, 2), torch.ones(2, 2), p=-1), RuntimeError,
     "cdist only supports non-negative p values"),
    (lambda: torch.cdist(torch.ones(3, 2), torch.ones(2, 3)), RuntimeError,
     "X1 and X2 must have the same number of columns. X1: 2 X2: 3"),
    (lambda: torch.cdist(torch.ones(2), torch.ones(2, 2)), RuntimeError,
     "cdist only supports at least 2D tensors, X1 got: 1D"),
    (lambda: torch.cdist(torch.ones(2, 2), torch.ones(2, 2, dtype=torch.int64)), RuntimeError,
     "cdist only supports floating-point dtypes, X2 got: Long"),
    (lambda: torch.cdist(torch.ones(2, 2), torch.ones(2, 2), compute_mode='x'), ValueError,
     "x is not a valid value for compute_mode"),
    (lambda: torch.bincount(torch.tensor([-1, 2])), RuntimeError,
     "bincount only supports 1-d non-negative integral inputs."),
    (lambda: torch.bincount(torch.tensor([1., 2.])), NotImplementedError,
     "\"bincount_cpu\" not implemented for 'Float'"),
    (lambda: torch.bincount(torch.tensor([1, 2]), torch.ones(3)), RuntimeError,
     "weights should be 1-d and have the same length as input"),
    (lambda: torch.histc(torch.tensor([1, 2]), 3), NotImplementedError,
     "\"histogram_cpu\" not implemented for 'Long'"),
    (lambda: torch.histc(torch.ones(2), 3, 2, 1), RuntimeError, "torch.histc: max must be larger than min"),
    (lambda: torch.histc(torch.tensor([1., math.inf]), 3), RuntimeError,
     "torch.histc: range of [1, inf] is not finite"),
    (lambda: torch.searchsorted(torch.ones(3), torch.ones(2), side='left', right=True), RuntimeError,
     "torch.searchsorted(): side and right can't be set to opposites, got side of left while right was True"),
    (lambda: torch.searchsorted(torch.ones(2, 5), torch.ones(1, 3)), RuntimeError,
     "torch.searchsorted(): boundaries tensor should be 1 dimension or the first N-1 dimensions of boundaries tensor "
     "and input value tensor must match, but we got boundaries tensor [2, 5] and input value tensor [1, 3]"),
    (lambda: torch.bucketize(torch.ones(2), torch.ones(2, 2)), RuntimeError,
     "boundaries tensor must be 1 dimension, but got dim(2)"),
    (lambda: torch.quantile(torch.ones(3), 1.5), RuntimeError, "quantile() q must be in the range [0, 1] but got 1.5"),
    (lambda: torch.nanquantile(torch.ones(3), torch.tensor([0.5, 2.])), RuntimeError,
     "quantile() q values must be in the range [0, 1]"),
    (lambda: torch.quantile(torch.tensor([1, 2]), 0.5), RuntimeError,
     "quantile() input tensor must be either float or double dtype"),
    (lambda: torch.quantile(torch.ones(3), 0.5, interpolation='foo'), RuntimeError,
     "quantile() interpolation must be one of linear, lower, higher, midpoint or nearest, but got foo"),
    (lambda: torch.mode(torch.zeros(2, 0), 1), IndexError, "mode(): Expected reduction dim 1 to have non-zero size."),
    (lambda: torch.cov(torch.ones(2, 2, 2)), RuntimeError,
     "cov(): expected input to have two or fewer dimensions but got an input with 3 dimensions"),
    (lambda: torch.cov(torch.ones(2, 3), fweights=torch.ones(3)), RuntimeError,
     "cov(): expected fweights to have integral dtype but got fweights with Float dtype"),
    (lambda: torch.cov(torch.ones(2, 3), aweights=-torch.ones(3)), RuntimeError, "cov(): aweights cannot be negative"),
])
def test_errors(call, error, text):
    with pytest.raises(error) as info:
        call()
    assert str(info.value) == text
