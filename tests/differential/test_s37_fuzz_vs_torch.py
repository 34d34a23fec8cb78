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
}


@pytest.mark.parametrize("name", SNIPPETS)
def test_snippet(name):
    code = SHOW + SNIPPETS[name]
    t, e = run_both(T, E, code)
    assert same(t, e), f"\n{code}\n--- torch\n{t.summary()}--- engine\n{e.summary()}"
