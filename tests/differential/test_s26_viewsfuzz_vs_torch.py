"""Random programs chaining view ops (view, t, select, unfold, split, as_strided...) from a leaf, then writing in
place into a view or its base (in grad mode, under no_grad, through .data and detach()), reading _version, _base,
is_leaf and grad_fn, and running backward, as a fuzzer wrote them, against real PyTorch, reduced to one snippet per
cause it found: as_strided of a tensor requiring grad reading outside it or of an expanded one (its gradient divided
among the elements sharing memory), as_strided of a detached view (all the storage), as_strided_ making the other
views stale, empty views written in place, a view's grad_fn made when read (after its base's detach_()), a leaf view
requiring grad rebuilt when its base comes to require grad, the order of put_'s checks for a view made in no_grad,
the gradient's history through AsStridedBackward0 under create_graph (zeros for an empty view), in-place ops
into overlapping windows (applied once per element), index_copy_'s order of checks and out= refused before the op's
own checks; then a few of the fuzzer's programs whole. Printed text, warnings and the final error must be the same."""
import pytest

T = pytest.importorskip("torch", reason="differential tests need real PyTorch (pip install torch==2.13.0)")
from .harness import TRIES, load_engine, run_both, same  # noqa: E402

E = load_engine()

# The fuzzer's helpers: step runs a statement and prints its error; info prints a tensor, its version, whether its
# _base is x or b, _is_view(), is_leaf, requires_grad, grad_fn and the next nodes, then its sizes, strides, offset.
STEP = (
    'def step(src):\n'
    '    try:\n'
    '        exec(src, globals())\n'
    '    except Exception as e:\n'
    '        print(type(e).__name__ + ":", e)\n'
    'def info(name):\n'
    '    t = globals().get(name)\n'
    '    g = t.grad_fn\n'
    '    print(name, t, t._version, t._base is x, t._base is b, t._is_view(), t.is_leaf, t.requires_grad,\n'
    '          type(g).__name__ if g else None, g and [type(n).__name__ if n else None for n, _ in g.next_functions])\n'
    '    print(" ", t.shape, t.numel() and t.stride(), t.numel() and t.storage_offset(), t.is_contiguous())\n')

SNIPPETS = {
    # as_strided of a view requiring grad may read memory outside it (before a split piece, past a slice): those
    # elements get no gradient; of an expanded tensor, each memory slot's gradient is divided among the elements
    # showing it (PyTorch's as_strided_backward)
    "as_strided_outside_its_input_and_of_an_expanded_one": (
        'x = torch.arange(4., requires_grad=True)\n'
        'p = x.split(2)[1]\n'
        'a = p.as_strided((3,), (1,), 1); print(a, a.grad_fn)\n'
        '(a * torch.tensor([1., 2., 3.])).sum().backward(); print(x.grad)\n'
        'x.grad = None\n'
        'e = x[:3].expand(2, 3)\n'
        'y = e.as_strided((2, 2), (1, 1), 0); print(y)\n'
        '(y * torch.tensor([[1., 2.], [3., 4.]])).sum().backward(); print(x.grad)\n'
        'x.grad = None\n'
        'z = x[::2].as_strided((3,), (1,), 0)\n'
        'z.pow(2).sum().backward(); print(x.grad)'),
    # a detached view (or .data of one) shows all its base's storage: as_strided reaches the whole of it
    "as_strided_of_a_detached_view_sees_all_the_storage": (
        'x = torch.arange(12.).view(3, 4)\n'
        'd = x[1].detach()\n'
        'tries(lambda: d.storage_offset(), lambda: d.as_strided((2,), (1,), 10), lambda: d.as_strided((3,), (4,), 0),\n'
        '      lambda: x[2].data.as_strided((2, 2), (1, 4)), lambda: d.as_strided((5,), (2,), 4))\n'
        'd.as_strided_((1,), (1,)); print(d, d._version, x._version)'),
    # as_strided_ bumps the version like any in-place op: the other views of the memory then read their base
    # through AsStridedBackward0 (through a detached alias too)
    "as_strided_in_place_makes_the_other_views_stale": (
        'x = torch.arange(6., requires_grad=True)\n'
        'b = x.view(2, 3) * 1\n'
        'v = b[0]; s = b.t(); u = b.view(6)[1:]\n'
        'u.as_strided_((2,), (1,))\n'
        'print(u, v.grad_fn, s.grad_fn, u.grad_fn, b._version)\n'
        'd = b.detach(); d.as_strided_((1,), (1,), 2)\n'
        'print(u.grad_fn, u.grad_fn.next_functions, b._version, d)\n'
        's.sum().backward(); print(x.grad)'),
    # in-place writes into empty views, expanded or transposed: no element shares memory, so no error, and
    # backward through the CopySlices of an empty base works
    "in_place_into_empty_views_and_backward": (
        'x = torch.zeros(0, 3, 2, requires_grad=True)\n'
        'b = x * 1\n'
        'v = b.movedim(1, 0).mT\n'
        'tries(lambda: v.relu_(), lambda: b.expand(2, 0, 3, 2).add_(1),\n'
        '      lambda: torch.zeros(1, 0).expand(3, 0).mul_(2))\n'
        'print(b.grad_fn, v.grad_fn, b._version)\n'
        '(v.sum() + b.sum()).backward(); print(x.grad)'),
    # PyTorch makes the grad_fn of a view whose base changed in place only when it is read: after the base's
    # detach_(), from the detached base (no next node, no gradient); a view modified itself got its grad_fn at once
    "grad_fn_of_a_view_read_after_its_base_detached": (
        'x = torch.arange(3., requires_grad=True)\n'
        'b = x.clone()\n'
        'v0 = b.clone(); v1 = v0[1:]; v2 = v0[:2]\n'
        'v1.mul_(2)\n'
        'v0.detach_()\n'
        'print(v2.grad_fn, v2.grad_fn.next_functions, v2.requires_grad, v2.is_leaf)\n'
        'print(v1.grad_fn.next_functions)\n'
        'tries(lambda: v2.sum().backward(), lambda: x.grad)\n'
        'v1.sum().backward(); print(x.grad)\n'
        'v0 = b.clone(); v1 = v0.transpose(0, -1)\n'
        'v1[-1] *= 2\n'
        'v0.detach_()\n'
        'print(v1.grad_fn.next_functions, v1._version)'),
    # a view made to require grad itself (its base did not) is a leaf; once the memory changed in place and the
    # base comes to require grad, PyTorch rebuilds its history from the base too
    "leaf_view_requiring_grad_rebuilt_from_its_base": (
        'x = torch.arange(4.)\n'
        'v = x[1:]; u = x[:2]\n'
        'v.requires_grad_()\n'
        'u.add_(1)\n'
        'print(v.grad_fn, v.is_leaf)\n'
        'x.requires_grad_()\n'
        'print(v.grad_fn, v.grad_fn.next_functions, v.is_leaf, v.requires_grad)\n'
        '(v * v).sum().backward(); print(x.grad)\n'
        'y = torch.arange(4.)\n'
        'v = y[1:]; v.requires_grad_()\n'
        'y.requires_grad_()\n'
        'print(v.grad_fn, v.is_leaf)'),
    # put_, index_add_ and the like into a view made in no_grad mode, with a source requiring grad: autograd's
    # error comes before their checks of dtypes (the source makes the op recorded, not self)
    "put_into_a_no_grad_view_with_a_source_requiring_grad": (
        'x = torch.arange(6., dtype=torch.float64).view(2, 3).requires_grad_()\n'
        'w = torch.tensor(1.5, requires_grad=True)\n'
        'f = torch.tensor([8.]) * w\n'
        'with torch.no_grad():\n'
        '    v = x[:, 1]\n'
        '    c = x[:].t().select(0, -2).reshape(2).chunk(2)[1]\n'
        'tries(lambda: v.put_(torch.tensor([0]), f), lambda: c.put_(torch.tensor([0]), f),\n'
        '      lambda: v.index_add_(0, torch.tensor([0]), f), lambda: v.scatter_(0, torch.tensor([0]), f),\n'
        '      lambda: v.index_copy_(0, torch.tensor([0]), f), lambda: v.put_(torch.tensor([0]), torch.tensor([1.])),\n'
        '      lambda: c.add_(1))'),
    # in-place ops into a view whose elements share memory (unfold's overlapping windows, as_strided): PyTorch's
    # kernel writes one element after another, so a slot that n elements show gets the op n times (a copy_, the
    # last element's value); in grad mode too
    "in_place_into_overlapping_windows": (
        'x = torch.arange(5.)\n'
        'v = x.unfold(0, 3, 1)\n'
        'with torch.no_grad():\n'
        '    v.add_(1); print(x)\n'
        '    v.mul_(2.); print(x)\n'
        '    v.neg_(); print(x)\n'
        '    v.sigmoid_(); print(x)\n'
        '    v.clamp_(0.6, 0.9); print(x)\n'
        '    v.add_(torch.arange(3.)); print(x)\n'
        '    v.copy_(torch.arange(9.).view(3, 3)); print(x)\n'
        '    v.masked_fill_(v > 4, -1.); print(x)\n'
        '    x.as_strided((3, 2), (1, 1)).exp_(); print(x)\n'
        'y = torch.arange(4., requires_grad=True)\n'
        'b = y * 1\n'
        'u = b.unfold(0, 2, 1)\n'
        'u.mul_(2); print(b, u.grad_fn, b.grad_fn)\n'
        'b.sum().backward(); print(y.grad)'),
    # an empty view of a modified base: its gradient under create_graph is zeros without history, as PyTorch's
    # as_strided_backward gives them
    "create_graph_through_an_empty_view_of_a_modified_base": (
        'x = torch.arange(4., dtype=torch.float64).view(2, 1, 2).requires_grad_()\n'
        'b = x * 1\n'
        's = b.narrow(1, 0, 0)\n'
        'b.add_(1)\n'
        'print(s.grad_fn)\n'
        'gx, = torch.autograd.grad((s ** 2).sum(), x, create_graph=True); print(gx, gx.grad_fn)\n'
        'tries(lambda: torch.autograd.grad(gx.sum(), x, allow_unused=True))'),
    # index_copy_ checks the number of indices against source's size before the indices' values (its kernel's
    # check): into an empty view too
    "index_copy_checks_the_count_before_the_values": (
        'x = torch.zeros(3, 2)\n'
        'tries(lambda: x.index_copy_(0, torch.tensor([5]), torch.ones(2, 2)),\n'
        '      lambda: x.index_copy_(0, torch.tensor([5, 6]), torch.ones(1, 2)),\n'
        '      lambda: x[:0].index_copy_(0, torch.tensor([0]), x[:0] * 3),\n'
        '      lambda: x.index_copy_(0, torch.tensor([5.]), torch.ones(1, 3)),\n'
        '      lambda: x.index_copy_(0, torch.tensor([5]), torch.ones(1, 3)),\n'
        '      lambda: x.index_copy_(0, torch.tensor([5]), torch.ones(1, 2)))'),
    # out= with an input requiring grad is refused by autograd before the op checks its arguments (shapes, dims),
    # and before it reads a grad_fn it could not rebuild (a view of a no_grad view whose base changed)
    "out_refused_before_the_ops_own_checks": (
        'a = torch.ones(2, requires_grad=True)\n'
        'tries(lambda: torch.mul(a, torch.ones(3), out=torch.empty(2)), lambda: torch.sum(a, 3, out=torch.empty(())),\n'
        '      lambda: torch.matmul(a, torch.ones(3), out=torch.empty(())))\n'
        'x = torch.ones(1, 1, 1, requires_grad=True)\n'
        'b = x * 1\n'
        'w = torch.tensor(1.5, requires_grad=True)\n'
        'with torch.no_grad():\n'
        '    v = b[0]\n'
        'u = v[..., None]\n'
        'b.detach().sigmoid_()\n'
        'tries(lambda: torch.mul(u, w, out=u), lambda: torch.mul(u, 2, out=u), lambda: u.requires_grad,\n'
        '      lambda: u.is_leaf)'),
    # under create_graph the gradient through AsStridedBackward0 has PyTorch's history: size-1 dims squeezed out,
    # copied into zeros (CopySlices), read back with the input's strides (AsStridedBackward0)
    "create_graph_through_a_view_of_a_modified_base": (
        'def chain(fn, depth=0):\n'
        '    if fn is not None and depth < 6:\n'
        '        print("  " * depth + type(fn).__name__)\n'
        '        for n, _ in fn.next_functions:\n'
        '            chain(n, depth + 1)\n'
        'x = torch.arange(3., requires_grad=True)\n'
        'b = x + 0\n'
        'v = b[None].t()\n'
        'b.mul_(2)\n'
        'gx, = torch.autograd.grad((v ** 2).sum(), x, create_graph=True); print(gx); chain(gx.grad_fn)\n'
        'y = torch.arange(6., requires_grad=True)\n'
        'b = y.view(2, 3) * 1\n'
        'v = b[:, 1:]\n'
        'b.add_(1)\n'
        'gy, = torch.autograd.grad((v ** 2).sum(), y, create_graph=True); print(gy)\n'
        '(gy * gy).sum().backward(); print(y.grad)\n'
        'z = torch.arange(4., requires_grad=True)\n'
        'a = z.as_strided((2, 2), (1, 2), 0)\n'
        'gz, = torch.autograd.grad((a ** 2).sum(), z, create_graph=True); print(gz, gz.grad_fn.next_functions)'),
    # as_strided_ of a detached column of a transposed view of a leaf made in no_grad, sigmoid_ of the column, then a
    # double backward
    "program_as_strided_of_a_detached_view_then_create_graph": STEP + (
        'x = torch.arange(12., dtype=torch.float32).sub(6).div(3).view(3, 4)\n'
        'x.requires_grad_()\n'
        'w = torch.tensor(1.5, requires_grad=True)\n'
        'b = x\n'
        'with torch.no_grad():\n'
        "    step('v0 = b.transpose(0, 1)')\n"
        "step('v1 = v0.select(1, -2)')\n"
        "step('v2 = v1.as_strided((2, 2), (1, 2), 4)')\n"
        "step('s0 = b.transpose(1, 0)')\n"
        "step('_d = v1.detach(); _d.as_strided_((1,), (1,))')\n"
        "step('v1.sigmoid_()')\n"
        "info('x')\n"
        "info('b')\n"
        "info('v0')\n"
        "info('v1')\n"
        "info('v2')\n"
        "info('s0')\n"
        "step('gx, = torch.autograd.grad(s0.sum() + b.sum(), x, create_graph=True); print(gx, gx.grad_fn)')\n"
        "step('(gx * gx).sum().backward(); print(x.grad)')\n"
        'print(x.grad, w.grad)\n'
        "step('print(v0.grad)')\n"
        "step('print(v2.grad)')"),
    # as_strided_ of a view of a view: every other view reads its base through AsStridedBackward0, whose gradient
    # has PyTorch's history under create_graph
    "program_as_strided_in_place_of_an_unflattened_view": STEP + (
        'x = torch.arange(3., dtype=torch.float32).sub(1.5).div(3).view(3)\n'
        'x.requires_grad_()\n'
        'w = torch.tensor(1.5, requires_grad=True)\n'
        'b = x + 0\n'
        "step('v0 = b[..., None]')\n"
        "step('v1 = v0.mT')\n"
        "step('v2 = v1.unflatten(1, (1, 3))')\n"
        "step('v3 = v2.unflatten(1, (1, 1))')\n"
        "step('s0 = b.t()')\n"
        "step('v2.as_strided_((1,), (1,))')\n"
        "info('x')\n"
        "info('b')\n"
        "info('v0')\n"
        "info('v1')\n"
        "info('v2')\n"
        "info('v3')\n"
        "info('s0')\n"
        "step('gx, = torch.autograd.grad((v3 ** 2).sum(), x, create_graph=True); print(gx, gx.grad_fn)')\n"
        "step('(gx * gx).sum().backward(); print(x.grad)')\n"
        'print(x.grad, w.grad)\n'
        "step('((v3 ** 2).sum()).backward()')\n"
        'print(x.grad)'),
    # a leaf view requiring grad of a detached base, an index_add_ into an unfold of it, then the base made to
    # require grad
    "program_leaf_view_of_a_detached_base_made_to_require_grad": STEP + (
        'x = torch.arange(4., dtype=torch.float32).sub(2).div(3).view(1, 4)\n'
        'x.requires_grad_()\n'
        'w = torch.tensor(1.5, requires_grad=False)\n'
        'b = x.detach()\n'
        "step('v0 = b.view_as(torch.empty(1, 4))')\n"
        "step('u0 = v0 * v0')\n"
        "step('print(u0)')\n"
        "step('v1 = v0.select(0, 0)')\n"
        "step('v2 = v1.unfold(0, 2, 2)')\n"
        "step('s0 = b[..., None]')\n"
        "step('v1.requires_grad_()')\n"
        "info('b')\n"
        "step('v2.index_add_(0, torch.tensor([0]), torch.ones((1,) + v2.shape[1:]) * w)')\n"
        "step('b.requires_grad_()')\n"
        "info('v2')\n"
        "info('x')\n"
        "info('b')\n"
        "info('v0')\n"
        "info('v1')\n"
        "info('v2')\n"
        "info('s0')\n"
        "step('print(u0, u0.grad_fn)')\n"
        "step('gx, = torch.autograd.grad((b * w).mean(), x, create_graph=True); print(gx, gx.grad_fn)')\n"
        "step('gx.sum().backward(); print(x.grad)')\n"
        'print(x.grad, w.grad)'),
    # neg_ through a detached unfold of a no_grad view of an unfold: the windows overlap
    "program_neg_of_a_detached_view_of_overlapping_windows": STEP + (
        'x = torch.arange(24., dtype=torch.float32).sub(12).div(3).view(2, 3, 4)\n'
        'x.requires_grad_()\n'
        'w = torch.tensor(1.5, requires_grad=True)\n'
        'b = x + 0\n'
        "step('v0 = b.unfold(1, 2, 1)')\n"
        "step('u0 = v0.exp()')\n"
        "step('print(u0)')\n"
        'with torch.no_grad():\n'
        "    step('v1 = v0.squeeze()')\n"
        "step('v2 = v1.unfold(1, 2, 2)')\n"
        "step('u2 = v2.relu()')\n"
        "step('print(u2)')\n"
        "step('s0 = b.view_as(torch.empty(2, 3, 4))')\n"
        "step('_d = v2.detach(); _d.neg_()')\n"
        "step('_d = x.detach(); _d.retain_grad()')\n"
        "info('x')\n"
        "info('b')\n"
        "info('v0')\n"
        "info('v1')\n"
        "info('v2')\n"
        "info('s0')\n"
        "step('print(u0, u0.grad_fn)')\n"
        "step('print(u2, u2.grad_fn)')\n"
        "step('((v0 * w).mean()).backward()')\n"
        'print(x.grad, w.grad)\n'
        "step('print(v0.grad)')\n"
        "step('print(s0.grad)')\n"),
}


@pytest.mark.parametrize("name", SNIPPETS)
def test_snippet(name):
    code = TRIES + SNIPPETS[name]
    t, e = run_both(T, E, code)
    assert same(t, e), f"\n{code}\n--- torch\n{t.summary()}--- engine\n{e.summary()}"
