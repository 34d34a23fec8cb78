"""Gradients by central differences, to check the engine's formulas against (float64 inputs)."""
import numpy as np

import engine as torch


def numeric_grads(f, inputs, eps=1e-6):
    """d sum(f(*inputs)) / d input, by central differences, for every input (float64 tensors)."""
    grads = []
    for k, t in enumerate(inputs):
        base = t.detach().numpy().astype(np.float64)
        g = np.zeros_like(base)
        for idx in np.ndindex(base.shape):
            vals = []
            for step in (eps, -eps):
                moved = base.copy()
                moved[idx] += step
                args = [torch.tensor(moved) if j == k else s.detach() for j, s in enumerate(inputs)]
                vals.append(f(*args).sum().item())
            g[idx] = (vals[0] - vals[1]) / (2 * eps)
        grads.append(g)
    return grads


def numeric_grad(f, t, eps=1e-6):
    """d sum(f(t)) / d t, by central differences."""
    return numeric_grads(f, [t], eps)[0]


def check_first_order(f, x, atol=1e-5):
    """The gradient of sum(f(x)) by backward against finite differences."""
    f(x).sum().backward()
    assert np.allclose(x.grad.numpy(), numeric_grad(f, x), atol=atol)


def finite_difference_tests(functions, make_x, w):
    """The two tests of a table of functions of one float64 tensor (test modules bind them to test_ names): each
    function's gradient, and the gradient of (its gradient . w), against finite differences."""
    import pytest

    @pytest.mark.parametrize("name", sorted(functions))
    def first_order(name):
        check_first_order(functions[name], make_x())

    @pytest.mark.parametrize("name", sorted(functions))
    def second_order(name):
        check_second_order(functions[name], make_x(), w)
    return first_order, second_order


def check_second_order(f, x, w, atol=1e-4):
    """The gradient of (grad of sum(f(x))) . w, taken through a graph made with create_graph=True, against finite
    differences of that dot product."""
    def grad_dot(t):
        (g,) = torch.autograd.grad(f(t).sum(), t, create_graph=True)
        return (g * w).sum()
    grad_dot(x).backward()
    assert np.allclose(x.grad.numpy(), numeric_grad(lambda t: grad_dot(t.requires_grad_()).detach(), x), atol=atol)
