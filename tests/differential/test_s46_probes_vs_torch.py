"""Differences found by session 46's probes against real PyTorch. Printed text, warnings and the final error must be
the same."""
import pytest

T = pytest.importorskip("torch", reason="differential tests need real PyTorch (pip install torch==2.13.0)")
from .harness import SHOW, load_engine, run_both, same  # noqa: E402

E = load_engine()

SNIPPETS = {
    # randn_like of a slice of columns (or of an expanded tensor): PyTorch's empty_like makes a new row-major tensor,
    # which randn fills by its vectorised kernel, as randn(shape) does; a transposed one is filled number by number
    "randn_like_of_a_non_dense_tensor": (
        'b = torch.zeros(4, 20)\n'
        'for y in (b[:, :5], b[:, ::2], b[0].expand(3, 20), b[:, :5].t(), b.t(), b[:, :5].unsqueeze(1)):\n'
        '    torch.manual_seed(0)\n'
        '    print(torch.randn_like(y).flatten()[:3], torch.rand_like(y).flatten()[:2], torch.randn_like(y).stride())'),
    # a reduction's dim given as a 0-d tensor, on a tensor whose sum takes the engine's planned order
    "sum_over_a_dim_given_as_a_tensor": (
        'x = torch.arange(12.).view(3, 4).t()[::2]\n'
        'print(x.sum(dim=torch.tensor(0)), x.sum(torch.tensor(1)), x.mean(dim=torch.tensor(0)),\n'
        '      x.sum(dim=(torch.tensor(0),)), x.sum((torch.tensor(1), 0)))'),
    # SVD of a half tensor: LAPACK's kernel is not dispatched for it
    "svd_of_half": (
        'x = torch.rand(3, 3, dtype=torch.float16)\n'
        'tries(lambda: torch.linalg.svdvals(x), lambda: torch.linalg.svd(x), lambda: torch.svd(x))'),
}


@pytest.mark.parametrize("name", SNIPPETS)
def test_snippet(name):
    code = SHOW + SNIPPETS[name]
    t, e = run_both(T, E, code)
    assert same(t, e), f"\n{code}\n--- torch\n{t.summary()}--- engine\n{e.summary()}"
