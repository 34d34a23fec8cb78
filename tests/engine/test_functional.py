"""torch.autograd.functional in the engine: values, shapes, and whether results stay connected to a graph."""
import pytest

import engine as torch
from engine.autograd.functional import hessian, hvp, jacobian, jvp, vhp, vjp


def test_jacobian_and_hessian_values_and_shapes():
    x = torch.tensor([1., 2.])
    assert jacobian(lambda a: a ** 2, x).tolist() == [[2., 0.], [0., 4.]]
    ja, jb = jacobian(lambda a, b: a * b, (x, torch.tensor([3., 4.])))
    assert ja.tolist() == [[3., 0.], [0., 4.]] and jb.tolist() == [[1., 0.], [0., 2.]]
    assert hessian(lambda a: (a ** 3).sum(), x).tolist() == [[6., 0.], [0., 12.]]
    assert tuple(hessian(lambda a: (a ** 2).sum(), torch.ones(2, 2)).shape) == (2, 2, 2, 2)
    assert jacobian(lambda a: torch.ones(2), x).tolist() == [[0., 0.], [0., 0.]]     # independent: zeros


def test_products():
    x = torch.tensor([1., 2.])
    out, g = vjp(lambda a: a ** 2, x, torch.ones(2))
    assert out.tolist() == [1., 4.] and g.tolist() == [2., 4.]
    assert jvp(lambda a: a ** 2, x, torch.ones(2))[1].tolist() == [2., 4.]
    assert hvp(lambda a: (a ** 3).sum(), x, torch.ones(2))[1].tolist() == [6., 12.]
    assert vhp(lambda a: (a ** 3).sum(), x, torch.ones(2))[1].tolist() == [6., 12.]


def test_results_are_detached_unless_create_graph():
    w = torch.tensor([1., 2.], requires_grad=True)
    assert jacobian(lambda a: a * a, w).grad_fn is None
    j = jacobian(lambda a: a * a, w, create_graph=True)
    assert j.requires_grad and j.grad_fn is not None
    j.sum().backward()
    assert w.grad.tolist() == [2., 2.]


def test_errors():
    x = torch.tensor([1., 2.])
    with pytest.raises(TypeError, match='must be either a Tensor or a tuple of Tensors'):
        jacobian(lambda a: a, [x])
    with pytest.raises(RuntimeError, match='should contain a single element'):
        hessian(lambda a: a ** 2, x)
    with pytest.raises(RuntimeError, match='The vector v can only be None'):
        vjp(lambda a: a ** 2, x)
