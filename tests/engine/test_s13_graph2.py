"""Engine-only checks of the thirteenth session's second graph round: calling nodes, read-only node attributes,
gradcheck, addmv / addr and custom Functions inside torch.func transforms."""
import pytest

import engine as torch


def test_accumulate_grad_called_directly_accumulates_and_returns_empty_tuple():
    x = torch.tensor([1., 2.], requires_grad=True)
    acc = (x * 1).grad_fn.next_functions[0][0]
    assert acc(torch.ones(2)) == () and x.grad.tolist() == [1., 1.]
    assert acc(torch.ones(1)) == () and x.grad.tolist() == [2., 2.]
    with pytest.raises(TypeError, match='expected 1 arguments, got 2 instead'):
        acc(torch.ones(2), torch.ones(2))


def test_node_call_checks_arguments_and_passes_none_through():
    x = torch.tensor([1., 2.], requires_grad=True)
    node = (x * x).grad_fn
    assert node(None) == (None, None)
    with pytest.raises(TypeError, match='keyword arguments are not supported'):
        node(g=torch.ones(2))


def test_next_functions_is_read_only_but_in_place_on_a_view_still_rewires():
    x = torch.ones(2, 2, requires_grad=True)
    y = x * 1
    with pytest.raises(AttributeError, match="attribute 'next_functions' of 'MulBackward0' objects is not writable"):
        y.grad_fn.next_functions = ()
    y[0] *= 2                                    # CopySlices takes the edges of the in-place node
    assert type(y.grad_fn).__name__ == 'CopySlices'
    y.sum().backward()
    assert x.grad.tolist() == [[2., 2.], [1., 1.]]


def test_sequence_nr_orders_nodes():
    x = torch.ones(2, requires_grad=True)
    a = x * 2
    b = a * 2
    assert b.grad_fn._sequence_nr() > a.grad_fn._sequence_nr()
    assert a.grad_fn.next_functions[0][0]._sequence_nr() == 2 ** 64 - 1


def test_gradcheck_verdicts():
    x = torch.tensor([1., 2.], dtype=torch.float64, requires_grad=True)
    assert torch.autograd.gradcheck(lambda t: t.sin() * t, (x,))
    assert torch.autograd.gradgradcheck(lambda t: t.sin() * t, (x,))
    assert not torch.autograd.gradcheck(lambda t: t.detach() * t, (x,), raise_exception=False)
    with pytest.raises(RuntimeError, match='Jacobian mismatch for output 0 with respect to input 0'):
        torch.autograd.gradcheck(lambda t: t.detach() * t, (x,))
    assert x._version == 0 and x.tolist() == [1., 2.]


def test_addmv_addr_values_and_grads():
    m = torch.ones(2, requires_grad=True)
    a = torch.arange(6.).reshape(2, 3).requires_grad_()
    v = torch.ones(3, requires_grad=True)
    y = torch.addmv(m, a, v, beta=2, alpha=3)
    assert y.tolist() == [11., 38.] and y.grad_fn.name() == 'AddmvBackward0'
    y.sum().backward()
    assert v.grad.tolist() == [9., 15., 21.]
    assert torch.addr(torch.zeros(2, 2), torch.ones(2), torch.arange(2.)).tolist() == [[0., 1.], [0., 1.]]


def test_old_style_function_refused_inside_func_grad_only():
    class Sq(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x ** 2

        @staticmethod
        def backward(ctx, g):
            return g
    with pytest.raises(RuntimeError, match='must override the setup_context staticmethod'):
        torch.func.grad(lambda x: Sq.apply(x).sum())(torch.ones(2))
    assert Sq.apply(torch.ones(2, requires_grad=True)).grad_fn.name() == 'SqBackward'
