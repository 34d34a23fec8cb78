"""The thirteenth session's tensor-manipulation round: index_select's two out-of-range errors and a 0-d input,
masked_fill's overflow check, scatter_reduce's legacy 'max' / 'min', torch.where(cond) of a 0-d tensor, unique
keeping each NaN, unique_consecutive, nanmedian (with the index of an all-NaN row), round(decimals) on integers,
argmax / argmin errors and keepdim, max over an empty dim, count_nonzero's dims, norm's string orders, isclose /
allclose checks, meshgrid / cartesian_prod / baddbmm errors. Printed text, warnings and the final error must be
the same (see harness.same)."""
import pytest

T = pytest.importorskip("torch", reason="differential tests need real PyTorch (pip install torch==2.13.0)")
from .harness import load_engine, run_both, same  # noqa: E402

E = load_engine()

SNIPPETS = {
    'index_select_0': '''\
x = torch.arange(6.).reshape(2, 3)
s = torch.tensor(5.)
tries(lambda: x.index_select(0, torch.tensor([3])), lambda: x.index_select(1, torch.tensor([3])),
      lambda: x.index_select(0, torch.tensor([-1])), lambda: x.t().index_select(1, torch.tensor([5])),
      lambda: torch.arange(24.).reshape(2, 3, 4).index_select(2, torch.tensor([4])),
      lambda: s.index_select(0, torch.tensor([0, 0])), lambda: s.index_select(0, torch.tensor([], dtype=torch.long)),
      lambda: s.index_select(0, torch.tensor([1])), lambda: s.index_select(0, torch.tensor(0)))
''',
    'masked_fill_0': '''\
x = torch.tensor([[1, -2], [3, -4]])
tries(lambda: x.masked_fill(x < 0, 0.5), lambda: x.masked_fill(x < 0, float('inf')),
      lambda: x.masked_fill(x < 0, 2**63), lambda: x.masked_fill(x < 0, True),
      lambda: torch.tensor([1, 2], dtype=torch.uint8).masked_fill(x[0] > 0, 300),
      lambda: torch.tensor([1., 2.]).masked_fill(torch.tensor([True, False]), 1e300))
''',
    'scatter_reduce_legacy': '''\
x = torch.tensor([1., 2., 3., 4.], requires_grad=True)
y = x.scatter_reduce(0, torch.tensor([0, 1]), torch.ones(2) * 7, reduce='max')
print(y, y.grad_fn._saved_reduce, x.scatter_reduce(0, torch.tensor([0, 1]), torch.ones(2) * 7, reduce='min'))
tries(lambda: y.sum().backward(), lambda: x.scatter_reduce(0, torch.tensor([0]), torch.ones(1), reduce='add'))
''',
    'where_unique_0': '''\
x = torch.tensor([1., 2., 2., float('nan'), float('nan'), 0., float('nan')])
print(torch.unique(x, return_inverse=True, return_counts=True), torch.unique(x, sorted=False))
print(torch.where(torch.tensor(3.)), torch.where(torch.tensor(0)), torch.where(torch.tensor([[1, 0], [0, 1]])))
''',
    'unique_consecutive_0': '''\
x = torch.tensor([1, 1, 2, 2, 3, 1, 1, 2])
print(torch.unique_consecutive(x), torch.unique_consecutive(x, return_counts=True, return_inverse=True))
y = torch.tensor([[1, 2], [1, 2], [3, 4], [1, 2]])
print(torch.unique_consecutive(y, dim=0, return_inverse=True, return_counts=True), y.unique_consecutive(dim=1))
print(torch.unique_consecutive(y, return_inverse=True))
print(torch.unique_consecutive(torch.tensor([1., float('nan'), float('nan')]), return_counts=True))
print(torch.unique_consecutive(torch.tensor(3), return_inverse=True))
print(torch.unique_consecutive(torch.tensor([]), return_counts=True))
u = torch.unique_consecutive(torch.tensor([1., 1.], requires_grad=True))
print(u, u.grad_fn)
tries(lambda: u.sum().backward(), lambda: torch.unique_consecutive(y, dim=2))
''',
    'nanmedian_0': '''\
x = torch.tensor([[1., float('nan'), 3., 2.], [float('nan')] * 4, [4., 3., 2., 1.]], requires_grad=True)
m = x.nanmedian(); show(m)
m.backward(); print(x.grad)
r = x.nanmedian(1); print(r); show(r.values)
r.values.sum().backward(); print(x.grad)
print(x.nanmedian(0, keepdim=True), torch.nanmedian(x, -1, True), torch.nanmedian(torch.tensor(5.), 0))
print(torch.nanmedian(torch.tensor([])), torch.nanmedian(torch.tensor([float('nan')] * 2)))
print(torch.nanmedian(torch.tensor([3, 1, 2, 4])))
print(torch.nanmedian(torch.tensor([2., 1, 1, 2, float('nan')]), 0))
print([torch.nanmedian(torch.full((n,), float('nan')), 0).indices.item() for n in range(1, 40, 3)])
tries(lambda: torch.nanmedian(torch.zeros(0, 2), 0))
''',
    'round_decimals_0': '''\
x = torch.tensor([1.25, 2.5], requires_grad=True)
print(torch.round(x, decimals=0).grad_fn, torch.round(x).grad_fn, torch.round(x, decimals=1))
print(torch.round(torch.tensor([15, 25])))
tries(lambda: torch.round(torch.tensor([15, 25]), decimals=0),
      lambda: torch.round(torch.tensor([15]), decimals=-1),
      lambda: torch.round(torch.tensor([True]), decimals=1), lambda: torch.round(torch.tensor([True])))
''',
    'argmax_0': '''\
tries(lambda: torch.argmax(torch.tensor([True, False])), lambda: torch.argmin(torch.tensor([True, False]), 0),
      lambda: torch.argmax(torch.tensor([])), lambda: torch.argmax(torch.zeros(2, 0), 1),
      lambda: torch.argmax(torch.zeros(2, 0), 0, keepdim=True), lambda: torch.argmax(torch.ones(2, 3), keepdim=True),
      lambda: torch.argmin(torch.tensor([1., float('nan'), float('nan')])),
      lambda: torch.argmax(torch.tensor(3.), keepdim=True))
''',
    'max_empty_dim': '''\
tries(lambda: torch.max(torch.zeros(2, 0), 1), lambda: torch.min(torch.zeros(2, 0), -1),
      lambda: torch.max(torch.zeros(2, 0), 0), lambda: torch.max(torch.ones(2), 1.))
''',
    'count_nonzero_0': '''\
x = torch.tensor([[0, 1, 2], [0, 0, 3]])
print(torch.count_nonzero(x, dim=[]), x.count_nonzero(dim=(0, -1)), torch.count_nonzero(torch.tensor(3), dim=0))
tries(lambda: torch.count_nonzero(x, dim=(0, 0)), lambda: torch.count_nonzero(x, dim=(1, -1)),
      lambda: torch.count_nonzero(x, 2))
''',
    'norm_strings': '''\
x = torch.tensor([[3., 4.], [0., -1.]], requires_grad=True)
n = torch.norm(x, 'nuc'); print(n, n.grad_fn, torch.norm(torch.ones(2, 2, 2), 'fro'), torch.norm(x, 'fro', 0))
tries(lambda: torch.norm(x, 'foo'), lambda: torch.norm(x, 'nuc', 0), lambda: torch.norm(torch.ones(3), 'nuc'),
      lambda: torch.norm(torch.ones(2, 2, 2), 'fro', (0, 1, 2)))
''',
    'isclose_checks': '''\
a = torch.tensor([1., 2.])
nan = torch.tensor([float('nan')])
tries(lambda: torch.isclose(a, a, rtol=-1), lambda: torch.isclose(a, a, atol=-0.5),
      lambda: torch.allclose(a, torch.ones(3)), lambda: torch.allclose(a, torch.ones(2, 1) * 2, atol=1.5),
      lambda: torch.isclose(a, torch.ones(3)), lambda: torch.allclose(a, a.double()),
      lambda: torch.allclose(nan, nan, equal_nan=True))
''',
    'meshgrid_cartesian': '''\
tries(lambda: torch.meshgrid(torch.ones(2, 2), torch.tensor([1, 2]), indexing='ij'),
      lambda: torch.meshgrid(indexing='foo'), lambda: torch.meshgrid([], indexing='ij'),
      lambda: torch.cartesian_prod(torch.ones(2, 2)), lambda: torch.cartesian_prod(torch.tensor(2.)),
      lambda: torch.cartesian_prod(torch.ones(2), torch.ones(2).int()),
      lambda: torch.cartesian_prod(torch.tensor([1, 2]), torch.tensor([3])))
''',
    'baddbmm_expand': '''\
a, b = torch.ones(2, 3, 4), torch.ones(2, 4, 5)
tries(lambda: torch.baddbmm(torch.ones(2, 3), a, b),
      lambda: torch.baddbmm(torch.ones(3, 5), torch.ones(3, 4), torch.ones(4, 5)),
      lambda: torch.baddbmm(torch.ones(3, 5), torch.ones(3, 4), torch.ones(3, 4, 5)),
      lambda: torch.baddbmm(torch.ones(1, 5), a, b).shape)
''',
}


@pytest.mark.parametrize("name", SNIPPETS)
def test_snippet(name):
    """Printed text, warnings and the final error are the same (addresses and C++ locations blanked)."""
    code = SNIPPETS[name]
    t, e = run_both(T, E, code)
    assert same(t, e), f"\n{code}\n--- torch\n{t.summary()}--- engine\n{e.summary()}"
