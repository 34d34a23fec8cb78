"""The memory layout of results (what .stride(), .is_contiguous() and view-or-copy reshapes show) for inputs that
are broadcast, transposed or sliced, against real PyTorch: an elementwise result is laid out row-major over broadcast
dims and follows a transposed input; softmax and masked_fill results are contiguous."""
import pytest

T = pytest.importorskip("torch", reason="differential tests need real PyTorch (pip install torch==2.13.0)")
from .harness import run_both, load_engine, same  # noqa: E402

E = load_engine()

CODE = """
F = torch.nn.functional
base = torch.tensor([[0.5, -1.5, 2.0, 0.25], [1.0, -0.75, 0.3, -2.0], [0.1, 0.2, -0.3, 0.4]])
inputs = [base[0].expand(3, 4), base[:, :1].expand(3, 4), base.t(), base[:, ::2], base[0].expand(2, 3, 4)]
ops = [torch.exp, torch.log, torch.sin, torch.tanh, torch.sigmoid, torch.relu, torch.sqrt, torch.expm1,
       lambda x: x ** 2, lambda x: x ** 3.5, lambda x: x * 3, lambda x: 1 / x, F.gelu, F.elu, F.softplus, F.silu,
       lambda x: x.clamp(-1, 1), lambda x: torch.softmax(x, -1), lambda x: torch.log_softmax(x, -1),
       lambda x: x.masked_fill(x > 0, 1.)]
for i, f in enumerate(ops):
    print(i, [f(x).stride() for x in inputs])
x = torch.tensor([0.25, -2.75], requires_grad=True)
y = (x + x).expand(2, 2)
print([(f(y).reshape(4).grad_fn.name(), f(y).is_contiguous()) for f in (torch.exp, torch.sin, lambda t: t ** 1e-3)])
"""


def test_layout_of_results():
    t, e = run_both(T, E, CODE)
    assert same(t, e), f"\n--- torch\n{t.summary()}--- engine\n{e.summary()}"
