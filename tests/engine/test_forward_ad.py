"""torch.autograd.forward_ad on the engine alone (these tests also run inside Pyodide): tangents against the
closed-form derivatives and against torch.func.jvp, what a dual tensor that needs no gradient shows, and what leaving
the level undoes."""
import numpy as np
import pytest

import engine as torch
import engine.autograd.forward_ad as fwAD
import engine.nn.functional as F
from engine._gradcheck import GradcheckError


def _jvp(f, x, v):
    with fwAD.dual_level():
        out = f(fwAD.make_dual(x, v))
        return fwAD.unpack_dual(out)


def test_tangents_are_the_closed_form_derivatives():
    x = torch.tensor([0.5, -1.0, 2.0], dtype=torch.float64)
    v = torch.tensor([1.0, 2.0, -0.5], dtype=torch.float64)
    p, t = _jvp(lambda d: d.sin() * d.exp() + d ** 3, x, v)
    xs, vs = x.numpy(), v.numpy()
    expected = (np.cos(xs) * np.exp(xs) + np.sin(xs) * np.exp(xs) + 3 * xs ** 2) * vs
    assert np.allclose(t.numpy(), expected, rtol=1e-14)
    assert np.allclose(p.numpy(), np.sin(xs) * np.exp(xs) + xs ** 3)


@pytest.mark.parametrize("f", [
    lambda d: F.softmax(d, dim=1).log().sum(1) + d.pow(3).mean(1) * d.norm(dim=1),
    lambda d: torch.cat([d[:, :2].t(), d.sigmoid()[:, 1:].T]).relu().cumsum(0),
    lambda d: torch.stack(d.unbind(1)).tanh() @ d,
    lambda d: d.max(dim=1).values + d.var(dim=1) + torch.std_mean(d, dim=1)[0],
])
def test_tangents_agree_with_func_jvp(f):
    torch.manual_seed(0)
    x, v = torch.randn(4, 4, dtype=torch.float64), torch.randn(4, 4, dtype=torch.float64)
    _, t = _jvp(f, x, v)
    _, expected = torch.func.jvp(f, (x,), (v,))
    assert np.allclose(t.numpy(), expected.numpy(), rtol=1e-12, atol=1e-12)


def test_a_dual_that_needs_no_gradient_hides_that_it_records():
    with fwAD.dual_level():
        d = fwAD.make_dual(torch.ones(3), torch.ones(3))
        y = (d * 2).exp()
        assert (d.requires_grad, d.grad_fn, d.is_leaf) == (False, None, True)
        assert (y.requires_grad, y.grad_fn, y.is_leaf) == (False, None, True)
        assert 'requires_grad' not in repr(y) and 'tangent=tensor([14.7781' in repr(y)
        y.numpy()
        with pytest.raises(RuntimeError, match='element 0 of tensors does not require grad'):
            y.sum().backward()
        w = torch.ones(3, requires_grad=True)
        z = (y * w).sum()
        assert z.grad_fn.next_functions[0][0].next_functions[0][0] is None      # (no edge into y's tangent-only ops)
        z.backward()
        assert d.grad is None and np.allclose(w.grad.numpy(), np.exp(2))
    assert 'tangent' not in repr(y) and not y.requires_grad and fwAD.unpack_dual(y).tangent is None


def test_leaving_the_level_forgets_the_tangents():
    with fwAD.dual_level():
        d = fwAD.make_dual(torch.ones(2), torch.ones(2))
        y = d * 3
    assert fwAD.unpack_dual(y).tangent is None and fwAD.unpack_dual(d).tangent is None
    assert (y * 2).grad_fn is None
    with pytest.raises(RuntimeError, match='no level exists'):
        fwAD.make_dual(torch.ones(2), torch.ones(2))
    with fwAD.dual_level():          # (a new level starts from nothing)
        assert fwAD.unpack_dual(y).tangent is None


def test_inplace_op_writes_the_tangent_in_place():
    with fwAD.dual_level():
        x = fwAD.make_dual(torch.tensor([1., 2.]), torch.tensor([1., 1.]))
        t = fwAD.unpack_dual(x).tangent
        x.mul_(x)                     # d(x*x) = 2 x dx
        assert fwAD.unpack_dual(x).tangent is t and t.tolist() == [2., 4.] and t._version == 1


def test_a_custom_function_without_jvp_is_refused():
    class Double(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x * 2

        @staticmethod
        def backward(ctx, g):
            return g * 2

    with fwAD.dual_level():
        with pytest.raises(NotImplementedError, match='You must implement the jvp function'):
            Double.apply(fwAD.make_dual(torch.ones(2), torch.ones(2)))
        assert Double.apply(torch.ones(2)).tolist() == [2., 2.]


def test_gradcheck_checks_forward_mode_against_finite_differences():
    class WrongJvp(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x ** 2

        @staticmethod
        def backward(ctx, g):
            return g * 2

        @staticmethod
        def jvp(ctx, t):
            return t * 3

    x = torch.tensor([0.5, -1.5], dtype=torch.float64, requires_grad=True)
    assert torch.autograd.gradcheck(lambda a: a.sin() * a.exp(), (x,), check_forward_ad=True)
    with pytest.raises(GradcheckError, match='Jacobian computed with forward mode mismatch for output 0'):
        torch.autograd.gradcheck(WrongJvp.apply, (x,), check_forward_ad=True, check_backward_ad=False)
