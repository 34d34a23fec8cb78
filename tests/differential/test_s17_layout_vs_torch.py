"""Memory layout of pointwise results against real PyTorch: operands of different layouts (transposed, permuted,
broadcast, expanded) order the result's dims as TensorIterator does (the first operand deciding, later ones
breaking ties), and what learners see of it (.stride(), .is_contiguous(), .view's error); reductions make their
result contiguous; a dense leaf's .grad takes the leaf's strides. Printed text and the final error must be the
same."""
import pytest

T = pytest.importorskip("torch", reason="differential tests need real PyTorch (pip install torch==2.13.0)")
from .harness import load_engine, run_both, same  # noqa: E402

E = load_engine()

SNIPPETS = {
    "binary_first_operand_decides": (
        'x = torch.arange(6.).reshape(2, 3); y = torch.ones(3, 2); s = torch.arange(9.).reshape(3, 3)\n'
        'print((x.t() + y).stride(), (y + x.t()).stride(), (s.t() + s).stride(), (s + s.t()).stride())\n'
        'print((x.t() - y).stride(), (x.t() * y).stride(), (x.t() / y).stride(), (y / x.t()).stride())\n'
        'print(torch.add(x.t(), y, alpha=2).stride(), torch.sub(x.t(), y, alpha=2).stride())\n'
        'print((x.t() // y).stride(), (x.t() % y).stride(), (x.t() ** y).stride(), (y ** x.t()).stride())\n'
        'z = x.t() + y; print(z.is_contiguous(), z.t().view(6))\n'
        'try:\n'
        '    z.view(6)\n'
        'except RuntimeError as e:\n'
        '    print(e)'),
    "permuted_and_broadcast_operands": (
        'x = torch.arange(24.).reshape(2, 3, 4); y = torch.ones(4, 2, 3)\n'
        'print((x.permute(2, 0, 1) + y).stride(), (y + x.permute(2, 0, 1)).stride())\n'
        'a = torch.arange(6.).reshape(2, 3)\n'
        'print((torch.ones(2) + a.t()).stride(), (torch.ones(3, 1) + a.t()).stride())\n'
        'e = torch.ones(3, 1).expand(3, 2); print((e + a.t()).stride(), (a.t() + e).stride())'),
    "comparisons_where_extrema": (
        'x = torch.arange(6.).reshape(2, 3); y = torch.ones(3, 2)\n'
        'print((x.t() > y).stride(), (x.t() == y).stride(), (y < x.t()).stride())\n'
        'print(torch.maximum(x.t(), y).stride(), torch.minimum(y, x.t()).stride(), torch.atan2(x.t(), y).stride())\n'
        'print(torch.where(x.t() > 2, y, x.t()).stride(), torch.where(y > 0, y, x.t()).stride())\n'
        'print(torch.logical_and(x.t() > 1, y > 0).stride(), torch.clamp(x.t(), min=torch.zeros(3, 2)).stride())'),
    "other_pointwise_ops_of_mixed_layouts": (
        'x = torch.arange(6.).reshape(2, 3); y = torch.ones(3, 2)\n'
        'print(torch.addcmul(x.t(), y, y).stride(), torch.addcdiv(y, x.t(), y).stride(), torch.lerp(x.t(), y, 0.3).stride())\n'
        'print(torch.fmax(x.t(), y).stride(), torch.heaviside(x.t(), y).stride(), torch.copysign(x.t(), y).stride())\n'
        'print(torch.xlogy(x.t(), y).stride(), torch.isclose(x.t(), y).stride(), (x.t() % y).stride())\n'
        'print(torch.nn.functional.mse_loss(x.t(), y, reduction="none").stride())\n'
        'i = torch.arange(6).reshape(2, 3); j = torch.ones(3, 2, dtype=torch.long)\n'
        'print((i.t() & j).stride(), (i.t() | j).stride(), (i.t() << j).stride())'),
    "reductions_of_permuted_are_contiguous": (
        'x = torch.arange(24.).reshape(2, 3, 4); p = x.permute(2, 0, 1)\n'
        'print(p.sum(1).stride(), p.sum(1, keepdim=True).stride(), p.mean(1).stride(), p.sum((1, 2), keepdim=True).stride())\n'
        'print(p.long().sum(1).stride())\n'
        't = torch.arange(6.).reshape(2, 3).t()\n'
        'print(t.sum(0, keepdim=True).stride(), t.sum(1, keepdim=True).stride(), t.mean(1, keepdim=True).stride())\n'
        'print(t.amax(0, keepdim=True).stride(), t.all(0, keepdim=True).stride(), t.any(0, keepdim=True).stride())'),
    "dense_leaf_grad_takes_its_strides": (
        'x = torch.arange(6.).reshape(2, 3).t().contiguous().t().requires_grad_()\n'
        '(x * 2).sum().backward(); print(x.stride(), x.grad.stride())\n'
        'x.grad = None; x.exp().sum().backward(); print(x.grad.stride())\n'
        'a = torch.ones(4, 4)[:, ::2].requires_grad_(); (a * 3).sum().backward(); print(a.grad.stride())'),
    "retained_grad_contiguous_and_graph_grad_as_leaf": (
        'x = torch.arange(6.).reshape(2, 3).t().requires_grad_()\n'
        'y = x * torch.ones(3, 2); y.retain_grad(); (y * y).sum().backward(); print(y.stride(), y.grad.stride())\n'
        'x = torch.arange(6.).reshape(2, 3).requires_grad_()\n'
        'x.backward(torch.ones(3, 2).t(), create_graph=True); print(x.grad.stride(), x.grad.grad_fn.name())'),
}


@pytest.mark.parametrize("name", SNIPPETS)
def test_snippet(name):
    code = SNIPPETS[name]
    t, e = run_both(T, E, code)
    assert same(t, e), f"\n{code}\n--- torch\n{t.summary()}--- engine\n{e.summary()}"
