"""torch.nn.utils.parametrize, parametrizations.weight_norm / spectral_norm and the older nn.utils.spectral_norm:
where the originals live, what reading and writing a parametrized tensor do, gradients reaching the originals, and
the errors (checked against PyTorch by tests/differential/test_s36_parametrize_vs_torch.py)."""
import copy

import numpy as np
import pytest

import engine as torch
import engine.nn as nn
from engine.nn.utils import parametrizations, parametrize


class Symmetric(nn.Module):
    def forward(self, X):
        return X.triu() + X.triu(1).transpose(-1, -2)


class Halves(nn.Module):
    """Two originals: the weight is their sum; writing it splits it in two halves."""
    def forward(self, a, b):
        return a + b

    def right_inverse(self, X):
        return X / 2, X / 2


def symmetric_linear():
    torch.manual_seed(0)
    m = nn.Linear(3, 3)
    original = m.weight
    parametrize.register_parametrization(m, 'weight', Symmetric())
    return m, original


def test_the_module_gets_a_class_of_its_own_and_the_original_moves_under_parametrizations():
    m, original = symmetric_linear()
    assert type(m).__name__ == 'ParametrizedLinear' and type(m).__bases__ == (nn.Linear,)
    assert type(m).__module__ == 'torch.nn.utils.parametrize'
    assert m.parametrizations.weight.original is original and original._version == 2   # (set_: one up)
    assert [n for n, _ in m.named_parameters()] == ['bias', 'parametrizations.weight.original']
    assert list(m.state_dict()) == ['bias', 'parametrizations.weight.original']
    assert 'ParametrizationList(\n      (0): Symmetric()\n    )' in repr(m)
    assert parametrize.is_parametrized(m) and parametrize.is_parametrized(m, 'weight')
    assert not parametrize.is_parametrized(m, 'bias') and not parametrize.is_parametrized(nn.Linear(1, 1))
    assert parametrize.type_before_parametrizations(m) is nn.Linear
    assert type(nn.Linear(1, 1)) is nn.Linear          # (other Linears keep their class)


def test_each_read_runs_the_parametrization_and_gradients_reach_the_original():
    m, original = symmetric_linear()
    w = m.weight
    assert np.array_equal(w.detach().numpy(), w.detach().numpy().T)
    assert type(w.grad_fn).__name__ == 'AddBackward0' and m.weight is not w
    m(torch.ones(2, 3)).sum().backward()
    g = np.full((3, 3), 2.0)                           # d sum(x W^T) / dW for x of ones, batch 2
    assert original.grad.tolist() == (np.triu(g) + np.triu(g.T, 1)).tolist() == [[2, 4, 4], [0, 2, 4], [0, 0, 2]]
    with parametrize.cached():
        assert m.weight is m.weight
    assert m.weight is not m.weight


def test_writing_runs_right_inverse_into_the_originals():
    m = nn.Linear(2, 2)
    parametrize.register_parametrization(m, 'weight', Halves())
    pw = m.parametrizations.weight
    assert (pw.is_tensor, pw.ntensors) == (False, 2)
    m.weight = torch.ones(2, 2)
    assert pw.original0.tolist() == [[0.5, 0.5]] * 2 and pw.original1.tolist() == [[0.5, 0.5]] * 2
    assert m.weight.tolist() == [[1.0, 1.0]] * 2
    m2, _ = symmetric_linear()
    with pytest.raises(RuntimeError, match='^parametrization Symmetric does not implement right_inverse.$'):
        m2.weight = torch.zeros(3, 3)


def test_remove_leaves_the_parametrized_value_or_the_original():
    m, original = symmetric_linear()
    value = m.weight.detach().clone()
    parametrize.remove_parametrizations(m, 'weight')
    assert type(m) is nn.Linear and m.weight is original and torch.equal(m.weight, value)
    assert not hasattr(m, 'parametrizations')
    m, original = symmetric_linear()
    before = original.detach().clone()
    parametrize.remove_parametrizations(m, 'weight', leave_parametrized=False)
    assert torch.equal(m.weight, before)
    with pytest.raises(ValueError, match='does not have a parametrization on weight'):
        parametrize.remove_parametrizations(m, 'weight')


@pytest.mark.parametrize('make, message', [
    (lambda: (lambda X: X[0]), 'may not change the shape of the tensor, unless `unsafe` flag is enabled.\n'
                               'unparametrized shape: torch.Size([3, 3])\nparametrized shape: torch.Size([3])'),
    (lambda: (lambda X: X.double()), 'may not change the dtype'),
    (lambda: (lambda X: 3), 'A parametrization must return a tensor. Got int.'),
])
def test_a_parametrization_may_not_change_shape_or_dtype_unless_unsafe(make, message):
    class Wrap(nn.Module):
        def __init__(self, f):
            super().__init__()
            self.f = f

        def forward(self, X):
            return self.f(X)
    with pytest.raises(ValueError) as info:
        parametrize.register_parametrization(nn.Linear(3, 3), 'weight', Wrap(make()))
    assert message in str(info.value)
    with pytest.raises(ValueError, match="does not have a parameter, a buffer, or a parametrized element with name "
                                         "'nope'"):
        parametrize.register_parametrization(nn.Linear(3, 3), 'nope', Symmetric())


def test_a_copy_is_parametrized_alike_and_pickling_is_refused():
    m, _ = symmetric_linear()
    c = copy.deepcopy(m)
    assert type(c) is type(m) and torch.equal(c.weight, m.weight)
    assert c.parametrizations.weight.original is not m.parametrizations.weight.original
    import pickle
    with pytest.raises(RuntimeError, match='only supported through state_dict'):
        pickle.dumps(m)


def test_weight_norm_splits_magnitude_and_direction():
    torch.manual_seed(0)
    m = parametrizations.weight_norm(nn.Linear(4, 3).double())
    pw = m.parametrizations.weight
    g, v = pw.original0, pw.original1
    assert g.shape == (3, 1) and v.shape == (3, 4)
    assert np.allclose(g.detach().numpy(), np.linalg.norm(v.detach().numpy(), axis=1, keepdims=True))
    assert type(m.weight.grad_fn).__name__ == 'WeightNormInterfaceBackward0'
    assert np.allclose(m.weight.detach().numpy(), v.detach().numpy())


def test_spectral_norm_gives_a_weight_of_spectral_norm_one():
    torch.manual_seed(0)
    for m in [parametrizations.spectral_norm(nn.Linear(5, 4).double()),
              nn.utils.spectral_norm(nn.Linear(5, 4).double())]:
        for _ in range(20):                            # (power iteration: a step each forward in training mode)
            m(torch.ones(1, 5, dtype=torch.float64))
        assert abs(np.linalg.svd(m.weight.detach().numpy(), compute_uv=False)[0] - 1) < 1e-6
        assert type(m.weight.grad_fn).__name__ == 'DivBackward0'
    sn = parametrizations.spectral_norm(nn.ConvTranspose2d(3, 2, 2)).parametrizations.weight[0]
    assert sn.dim == 1 and sn._u.shape == (2,) and sn._v.shape == (12,)


def test_the_older_spectral_norm_and_its_removal():
    torch.manual_seed(0)
    m = nn.utils.spectral_norm(nn.Linear(5, 4))
    assert [n for n, _ in m.named_parameters()] == ['bias', 'weight_orig']
    assert sorted(dict(m.named_buffers())) == ['weight_u', 'weight_v']
    with pytest.raises(RuntimeError, match='^Cannot register two spectral_norm hooks on the same parameter weight$'):
        nn.utils.spectral_norm(m)
    nn.utils.remove_spectral_norm(m)
    assert [n for n, _ in m.named_parameters()] == ['bias', 'weight'] and not m._forward_pre_hooks
    with pytest.raises(ValueError, match="^spectral_norm of 'weight' not found in Linear"):
        nn.utils.remove_spectral_norm(m)
    with pytest.raises(ValueError, match='^Expected n_power_iterations to be positive, but got n_power_iterations=0$'):
        parametrizations.spectral_norm(nn.Linear(2, 2), n_power_iterations=0)


@pytest.mark.parametrize('shape, kwargs', [((3, 3), {}), ((5, 3), {}), ((3, 5), {}),
                                           ((4, 4), {'orthogonal_map': 'cayley'}),
                                           ((4, 4), {'orthogonal_map': 'householder'}),
                                           ((5, 3), {'use_trivialization': False})])
def test_orthogonal_keeps_the_weight_orthogonal_while_it_trains(shape, kwargs):
    torch.manual_seed(0)
    m = parametrizations.orthogonal(nn.Linear(shape[1], shape[0], bias=False).double(), **kwargs)
    opt = torch.optim.SGD(m.parameters(), lr=0.1)
    x = torch.randn(8, shape[1], dtype=torch.float64)
    for _ in range(3):
        opt.zero_grad()
        m(x).pow(3).sum().backward()
        opt.step()
        Q = m.weight.detach().numpy()
        gram = Q.T @ Q if shape[0] >= shape[1] else Q @ Q.T
        assert np.allclose(gram, np.eye(min(shape)))
    assert ('parametrizations.weight.0.base' in dict(m.named_buffers())) == kwargs.get('use_trivialization', True)


def test_orthogonal_errors():
    with pytest.raises(ValueError, match='^Expected a matrix or batch of matrices. Got a tensor of 1 dimensions.$'):
        parametrizations.orthogonal(nn.Linear(3, 3), name='bias')
    with pytest.raises(ValueError, match='^orthogonal_map has to be one of "matrix_exp", "cayley", "householder". '
                                         'Got: exp$'):
        parametrizations.orthogonal(nn.Linear(3, 3), orthogonal_map='exp')
    m = parametrizations.orthogonal(nn.Linear(3, 3), use_trivialization=False)
    with pytest.raises(NotImplementedError, match='when use_trivialization=False'):
        m.weight = torch.eye(3)
