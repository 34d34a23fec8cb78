"""Differences found by a long run of the random-program generator (tests/differential/programs.py, 12,000 seeds
beyond the suite's), each shrunk to its rule and tried in its variants against real PyTorch. Printed text, warnings
and the final error must be the same."""
import pytest

T = pytest.importorskip("torch", reason="differential tests need real PyTorch (pip install torch==2.13.0)")
from .harness import SHOW, load_engine, run_both, same  # noqa: E402

E = load_engine()

SNIPPETS = {
    # An in-place op whose input covers exactly the written bytes overlaps it fully only with the same strides, size-1
    # dims' too (get_overlap_status): x[::2] of a one-element x (stride 2) is a partial overlap, x[:] is not; an
    # as_strided view over the same bytes with other strides neither; a view to another dtype with the same bytes is
    "overlap_of_one_element_views": (
        'x3 = torch.tensor([2.75], dtype=torch.float64)\n'
        'x4 = x3[::2]\n'
        'tries(lambda: x3.div_(x4), lambda: x3.add_(x3), lambda: x3.add_(x3[:]), lambda: x3.mul_(x3[0]),\n'
        '      lambda: x3.copy_(x4))\n'
        'y = torch.ones(2, 1)\n'
        'tries(lambda: y.add_(y[:, ::3]), lambda: y.add_(y.t().t()), lambda: y.add_(y.view(2, 1)),\n'
        '      lambda: y.add_(y.expand(2, 1)), lambda: y.add_(y.as_strided((2, 1), (1, 5))))\n'
        'z = torch.ones(3)\n'
        'tries(lambda: z.add_(z.view(1, 3)), lambda: z.view(1, 3).add_(z), lambda: z.add_(z.unsqueeze(1)[:, 0]))\n'
        'w = torch.ones(4)\n'
        'tries(lambda: w.view(torch.float64).add_(w.view(torch.float64)), lambda: w[::2].add_(w[::2]))'),
    # A pointwise op of two dtypes lays its result out by the operands' strides before the cast (TensorIterator):
    # an operand expanded from fewer dims keeps its stride-0 dims ambiguous, so the result is contiguous and views
    "mixed_dtype_expanded_operands_layout": (
        'x1 = torch.tensor([[-2.25, -0.75], [1.0, 3.0]], requires_grad=True)\n'
        'x2 = torch.tensor([[-0.5, -2.5], [3.0, 3.0]], dtype=torch.float64, requires_grad=True)\n'
        'x6, x7 = x1.expand(2, 2, 2), x1.t().expand(3, 2, 2)\n'
        'for f in [lambda: torch.pow(x2, x6), lambda: x2 + x6, lambda: x6 * x2, lambda: x2 / x7,\n'
        '          lambda: torch.maximum(x2, x6), lambda: torch.fmax(x2, x6), lambda: torch.atan2(x2, x6),\n'
        '          lambda: torch.clamp(x6, min=x2), lambda: torch.hypot(x2, x6), lambda: torch.remainder(x2, x7),\n'
        '          lambda: torch.nn.functional.mse_loss(x2.expand(2, 2, 2), x6, reduction="none"),\n'
        '          lambda: torch.addcmul(x2.double(), x6.double(), x7.double())]:\n'
        '    y = f()\n'
        '    print(y.stride(), y.grad_fn)\n'
        '    tries(lambda: y.view(-1).shape)'),
}


@pytest.mark.parametrize("name", SNIPPETS)
def test_snippet(name):
    code = SHOW + SNIPPETS[name]
    t, e = run_both(T, E, code)
    assert same(t, e), f"\n{code}\n--- torch\n{t.summary()}--- engine\n{e.summary()}"
