"""Graphs that mix dtypes (float32 / float64 leaves, integer and bool operands, casts in the middle of a graph,
reductions and scans with dtype=) against real PyTorch: printed text, warnings and the final error must be the same."""
import pytest

T = pytest.importorskip("torch", reason="differential tests need real PyTorch (pip install torch==2.13.0)")
from .harness import TRIES, load_engine, run_both, same  # noqa: E402

E = load_engine()

SNIPPETS = {
    # cumsum / cumprod with dtype=torch.bool: no bool scan kernel (NotImplementedError, before autograd's dtype
    # check) for a non-empty tensor with dims; a 0-d or empty one is copied
    "bool_scan_dtype": (
        TRIES +
        'x = torch.tensor([1., 2.5], requires_grad=True)\n'
        'b = torch.ones(2, dtype=torch.bool)\n'
        'tries(lambda: x.cumsum(0, dtype=torch.bool), lambda: torch.cumprod(x, 0, dtype=torch.bool),\n'
        '      lambda: b.cumsum(0, dtype=torch.bool), lambda: b.cumsum(0), lambda: b.cumprod(0, dtype=torch.bool),\n'
        '      lambda: torch.ones(()).cumsum(0, dtype=torch.bool), lambda: torch.ones(2, 0).cumprod(0, dtype=torch.bool),\n'
        '      lambda: torch.ones((), requires_grad=True).cumsum(0, dtype=torch.bool),\n'
        '      lambda: x.cumsum(0, dtype=torch.int32))'),
    # cdist of mixed float dtypes: the dtype mismatch errors (C++ type names on the matrix-product path) come before
    # the missing float16 kernel, and that path (over 25 rows) takes float16 inputs
    "cdist_mixed_float_dtypes": (
        TRIES +
        'a = (torch.arange(6.).view(3, 2) / 7).half().requires_grad_()\n'
        'big = (torch.arange(60.).view(30, 2) / 7).half().requires_grad_()\n'
        'mm = "use_mm_for_euclid_dist"\n'
        'tries(lambda: torch.cdist(a, a.float()), lambda: torch.cdist(a.float(), a), lambda: torch.cdist(a.double(), a),\n'
        '      lambda: torch.cdist(a, a.double(), compute_mode=mm), lambda: torch.cdist(a.float(), a, compute_mode=mm),\n'
        '      lambda: torch.cdist(a, a), lambda: torch.cdist(a.long(), a), lambda: torch.cdist(a, a.long()),\n'
        '      lambda: torch.cdist(big, big.float()), lambda: torch.cdist(big, big).shape)\n'
        'y = torch.cdist(a, a, compute_mode=mm)\n'
        'print(y, y.dtype)\n'
        'y.sum().backward()\n'
        'print(a.grad)'),
    # trace of a bool matrix: no bool kernel (checked before the matrix check); other integer dtypes sum in int64
    "trace_of_bool": (
        TRIES +
        'b = torch.tensor([[True, False], [True, True]])\n'
        'tries(lambda: b.trace(), lambda: torch.trace(torch.ones(3, dtype=torch.bool)), lambda: b.to(torch.uint8).trace(),\n'
        '      lambda: torch.ones(0, 0, dtype=torch.bool).trace(), lambda: b.half().requires_grad_().trace())'),
    # randperm's kernel checks its dtype before requires_grad is: no bool kernel, n - 1 must fit an integer dtype,
    # float16 holds integers exactly only up to 2049
    "randperm_dtype_checks": (
        TRIES +
        'tries(lambda: torch.randperm(3, dtype=torch.bool, requires_grad=True), lambda: torch.randperm(0, dtype=torch.bool),\n'
        '      lambda: torch.randperm(300, dtype=torch.int8, requires_grad=True), lambda: torch.randperm(256, dtype=torch.uint8).shape,\n'
        '      lambda: torch.randperm(257, dtype=torch.uint8), lambda: torch.randperm(0, dtype=torch.uint8),\n'
        '      lambda: torch.randperm(2049, dtype=torch.float16).shape, lambda: torch.randperm(2050, dtype=torch.float16),\n'
        '      lambda: torch.randperm(3, dtype=torch.int32, requires_grad=True),\n'
        '      lambda: torch.randperm(3, dtype=torch.float64, requires_grad=True).shape)'),
    # logical_not_ / logical_and_ ... are never recorded: PyTorch writes them even into a leaf requiring grad, a view
    # of one, a no_grad view or a split piece (those views' grad_fn then Invalid), keeping the tensor's history
    "logical_inplace_on_tracked_tensors": (
        TRIES +
        'x = torch.tensor([1.5, 2.5, 0.], requires_grad=True)\n'
        'with torch.no_grad():\n'
        '    v = x[:]\n'
        's = x.split(1)\n'
        'tries(lambda: x.logical_not_(), lambda: (x.is_leaf, x._version), lambda: v.logical_and_(torch.ones(3)),\n'
        '      lambda: s[0].logical_or_(torch.zeros(1)), lambda: x[1:].logical_xor_(torch.ones(2)), lambda: x._version)\n'
        'a = torch.tensor([1.5, 0.], requires_grad=True)\n'
        'b = a * 1\n'
        'c = b[:]\n'
        'print(c.logical_not_(), b, b._version)\n'
        'b.sum().backward()\n'
        'print(a.grad)'),
    # a Python number given to where (converted to the result's dtype; not checked for a half result), to lerp as
    # its weight (a float, but for float64) and to a half's pow as its exponent must fit that dtype
    "number_operands_must_fit_dtype": (
        TRIES +
        'c = torch.tensor([True, False])\n'
        'x = torch.tensor([1.5, 2.], requires_grad=True)\n'
        'h = torch.tensor([1.5, 2.], dtype=torch.float16, requires_grad=True)\n'
        'u = torch.tensor([1, 2], dtype=torch.uint8)\n'
        'tries(lambda: torch.where(c, x, 1e300), lambda: torch.where(c, 3.5e38, x.double()), lambda: torch.where(c, h, 1e300),\n'
        '      lambda: torch.where(c, 1e300, 2.), lambda: torch.where(c, u, 300), lambda: torch.where(c, u, -1),\n'
        '      lambda: torch.where(c, torch.tensor([1, 2]), 1e300), lambda: torch.lerp(x, x, 1e300),\n'
        '      lambda: torch.lerp(h, h, -1e39), lambda: torch.lerp(x.double(), x.double(), 1e300), lambda: h ** 70000.,\n'
        '      lambda: h ** -70000, lambda: torch.pow(h, 1e39), lambda: h.detach().pow_(1e10), lambda: h ** float("inf"),\n'
        '      lambda: x ** 1e300, lambda: 1e300 ** h)'),
    # index dtypes: take_along_dim without dim is gather (int32 taken; others gather's error), with dim it checks the
    # dims before the dtype; index_add takes int32 / int64 only
    "index_dtypes_take_along_dim_index_add": (
        TRIES +
        'x = torch.tensor([1.5, -2., 0.5], requires_grad=True)\n'
        'for d in [torch.int32, torch.int16, torch.uint8, torch.float32]:\n'
        '    i = torch.tensor([0, 2, 1]).to(d)\n'
        '    tries(lambda: torch.take_along_dim(x, i), lambda: torch.take_along_dim(x.view(1, 3), i.view(1, 3), 1),\n'
        '          lambda: torch.take_along_dim(x.view(1, 3), i, 1), lambda: x.index_add(0, i, x),\n'
        '          lambda: x.detach().clone().index_add_(0, i, x.detach()))\n'
        'torch.take_along_dim(x, torch.tensor([2, 2], dtype=torch.int32)).sum().backward()\n'
        'print(x.grad)'),
    # embedding's index dtype error names a bool tensor's type as CPUBoolType (its toString)
    "embedding_bool_indices_type_name": (
        TRIES +
        'w = torch.ones(3, 2, requires_grad=True)\n'
        'tries(lambda: torch.nn.functional.embedding(torch.tensor([True, False]), w),\n'
        '      lambda: torch.nn.functional.embedding(torch.tensor([1., 0.]), w),\n'
        '      lambda: torch.nn.functional.embedding(torch.tensor([1, 0], dtype=torch.int32), w))'),
    # soft_margin_loss: one edge (the target is not differentiable), its double backward two, ending as PyTorch's
    # soft_margin_loss_double_backward (a division by the count for 'mean')
    "soft_margin_loss_edges": (
        'F = torch.nn.functional\n'
        'x = torch.tensor([1.5, -2., 0.5], requires_grad=True)\n'
        'for r in ["mean", "sum", "none"]:\n'
        '    y = F.soft_margin_loss(x, torch.tensor([1, -1, 1]), reduction=r)\n'
        '    g, = torch.autograd.grad(y.sum(), x, create_graph=True)\n'
        '    gg, = torch.autograd.grad(g.sum(), x, create_graph=True)\n'
        '    print(y.grad_fn.next_functions, g.grad_fn.next_functions, gg.grad_fn)'),
    # index_put with a uint8 index: a mask (deprecated, warned for each), after the mask's shape check; alone with a
    # single value (not accumulating) it goes to masked_fill_, which refuses a uint8 mask
    "index_put_uint8_index_is_a_mask": (
        TRIES +
        'x = torch.tensor([1.5, -2., 0.5], requires_grad=True)\n'
        'm = torch.tensor([[1.5, -2.], [0.5, 3.]], requires_grad=True)\n'
        'i = torch.tensor([1, 0, 1], dtype=torch.uint8)\n'
        'j = torch.tensor([1, 0], dtype=torch.uint8)\n'
        'tries(lambda: x.index_put((i,), torch.tensor(5.)), lambda: x.index_put((i,), torch.tensor([5.])),\n'
        '      lambda: x.index_put((i,), torch.tensor([5., 6.])), lambda: x.detach().clone().index_put_((i,), torch.tensor([5., 6.])),\n'
        '      lambda: torch.index_put(x, (i,), torch.tensor(1.), True), lambda: m.index_put((j, j), torch.tensor(5.)),\n'
        '      lambda: m.index_put((torch.tensor([0, 1]), j), torch.tensor(5.)), lambda: m.index_put((j.view(1, 2),), torch.tensor(5.)),\n'
        '      lambda: m.index_put((torch.tensor([[1, 0], [0, 1]], dtype=torch.uint8),), torch.tensor([7., 8.])))'),
}


@pytest.mark.parametrize("name", SNIPPETS)
def test_snippet(name):
    code = SNIPPETS[name]
    t, e = run_both(T, E, code)
    assert same(t, e), f"\n{code}\n--- torch\n{t.summary()}--- engine\n{e.summary()}"
