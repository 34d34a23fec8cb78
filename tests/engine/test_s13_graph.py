"""The thirteenth session's graph corners on the engine alone: the in-place error on a view a custom Function
returns beside another differentiable output, the Scalar forms of double backward's inner nodes, the svdvals
gradient (U diag(gS) Vh) and the matrix norms built on it, autograd.functional's strict mode."""
import numpy as np
import pytest

import engine as torch


class Two(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x.view(-1), x * 2

    @staticmethod
    def backward(ctx, g1, g2):
        return g1.view(2, 2) + 2 * g2


def test_a_view_beside_another_differentiable_output_gets_the_multi_view_error():
    a, b = Two.apply(torch.ones(2, 2, requires_grad=True) * 1)
    with pytest.raises(RuntimeError, match='Output 0 of Two is a view .* returns multiple views'):
        a.mul_(2)


def test_double_backward_records_the_scalar_overloads():
    x = torch.tensor([0.3, 0.6], requires_grad=True)
    g, = torch.autograd.grad(x.sqrt().sum(), x, create_graph=True)
    inner = g.grad_fn.next_functions[1][0]
    assert inner.name() == 'MulBackward1' and len(inner.next_functions) == 1
    g, = torch.autograd.grad(x.norm(), x, create_graph=True)
    assert g.grad_fn.next_functions[1][0].name() == 'MaskedFillBackward0'
    g, = torch.autograd.grad((x.mean() ** 2).sum(), x, create_graph=True)
    assert g.grad_fn.name() == 'DivBackward1'


def test_svdvals_gradient_and_matrix_norms():
    a = np.array([[1., -2., 3.], [4., 5., -6.]])
    A = torch.tensor(a, requires_grad=True)
    s = torch.linalg.svdvals(A)
    g, = torch.autograd.grad((s * torch.tensor([1., 3.], dtype=torch.float64)).sum(), A)
    u, sv, vh = np.linalg.svd(a, full_matrices=False)
    np.testing.assert_allclose(g.numpy(), u @ np.diag([1., 3.]) @ vh, atol=1e-12)
    assert torch.linalg.norm(A, 2).item() == pytest.approx(sv[0])
    assert torch.linalg.matrix_norm(A, 'nuc').item() == pytest.approx(sv.sum())
    assert torch.linalg.norm(A, 1).item() == 9 and torch.linalg.norm(A, float('inf')).item() == 15
    assert torch.linalg.norm(A).item() == pytest.approx(np.sqrt((a * a).sum()))


def test_functional_strict_mode():
    jac = torch.autograd.functional.jacobian
    assert jac(lambda x: x * 2, torch.ones(2), strict=True).tolist() == [[2., 0.], [0., 2.]]
    with pytest.raises(RuntimeError, match='Output 0 of the user-provided function does not require gradients'):
        jac(lambda x: x.detach() * 2, torch.ones(2), strict=True)
    with pytest.raises(AssertionError, match='Expected strategy'):
        jac(lambda x: x, torch.ones(2), strategy='backward')
