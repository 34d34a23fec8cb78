"""Tutorial code of the fourteenth session on the engine alone (also run in Pyodide): the legacy Variable wrapper and
nn.Module backward hooks. Expected values are PyTorch 2.13's."""
import warnings

import pytest

import engine as torch
from engine import nn
from engine.autograd import Variable


def test_variable_is_a_detached_alias():
    t = torch.tensor([1., 2.])
    v = Variable(t, requires_grad=True)
    assert v is not t and not t.requires_grad and v.requires_grad and v.is_leaf
    with torch.no_grad():
        v[1] = 7
    assert t.tolist() == [1., 7.] and t._version == v._version == 1
    assert isinstance(t, Variable) and not isinstance(3, Variable) and type(v) is torch.Tensor
    y = torch.tensor([1., 2.], requires_grad=True) * 2
    assert Variable(y).grad_fn is None and not Variable(y).requires_grad
    assert Variable().shape == (0,)
    with pytest.raises(TypeError, match='^Variable data has to be a tensor, but got list$'):
        Variable([1.])
    with pytest.raises(RuntimeError, match='^Only Tensors of floating point and complex dtype can require'):
        Variable(torch.tensor([1]), requires_grad=True)


def test_full_backward_hook():
    m = nn.Linear(2, 1)
    with torch.no_grad():
        m.weight.copy_(torch.tensor([[1., -2.]]))
    seen = []
    m.register_full_backward_hook(lambda mod, gi, go: seen.append((gi, go)) or (gi[0] * 10,))
    x = torch.ones(1, 2, requires_grad=True)
    out = m(x)
    assert out.grad_fn.name() == 'BackwardHookFunctionBackward'
    out.sum().backward()
    (gi,), (go,) = seen[0]
    assert gi.tolist() == [[1., -2.]] and go.tolist() == [[1.]] and x.grad.tolist() == [[10., -20.]]
    with pytest.raises(RuntimeError, match='^Cannot use both regular backward hooks and full backward hooks'):
        m.register_backward_hook(lambda *a: None)


def test_full_backward_hook_no_input_requires_grad():
    m = nn.Linear(2, 1)
    seen = []
    m.register_full_backward_hook(lambda mod, gi, go: seen.append(gi))
    with warnings.catch_warnings(record=True) as ws:
        warnings.simplefilter('always')
        m(torch.ones(3, 2)).sum().backward()
    assert seen == [(None,)] and str(ws[0].message).startswith('Full backward hook is firing when gradients')


def test_legacy_backward_hook_sees_the_node_gradients():
    m = nn.Linear(2, 1)
    shapes = []
    m.register_backward_hook(lambda mod, gi, go: shapes.append([None if g is None else tuple(g.shape) for g in gi]))
    with warnings.catch_warnings(record=True) as ws:
        warnings.simplefilter('always')
        m(torch.ones(3, 2)).sum().backward()
    assert shapes == [[(1,), None, (2, 1)]]                 # the bias gradient summed to the bias's shape
    assert ws[0].category is FutureWarning
