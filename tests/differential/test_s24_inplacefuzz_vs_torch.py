"""Random programs mixing views, in-place ops, detach/.data, no_grad blocks and backward, as a fuzzer wrote them,
reduced to one snippet per cause it found, against real PyTorch: the order in which in-place index ops check their
arguments and the overlap of self with them (index_add_, scatter_, put_), in-place ops that read a tensor sharing
self's memory (index_fill_, masked_fill_, masked_scatter_), out= and in-place writes that partly overlap an input,
random fills of transposed views (in memory order), and the pieces of unbind/split once their base changed in place
(retain_grad, hooks, requires_grad_); then a few of the fuzzer's programs whole. Printed text, warnings and the final
error must be the same."""
import pytest

T = pytest.importorskip("torch", reason="differential tests need real PyTorch (pip install torch==2.13.0)")
from .harness import TRIES, load_engine, run_both, same  # noqa: E402

E = load_engine()

SNIPPETS = {
    # index_add_ checks its arguments as PyTorch's meta function does (dtypes, the dim against source's, the number
    # of indices, the slice shapes, a 0-d tensor's whole shape) before the overlap of self with source, and the
    # index values after that
    "index_add_checks_before_the_overlap": (
        'x = torch.ones(3, 2); z = torch.tensor(2.)\n'
        'tries(lambda: x.index_add_(0, torch.tensor([1, 0]), x), lambda: x.index_add_(0, torch.tensor([5, 0, 1]), x[:, :1]),\n'
        '      lambda: x.index_add_(0, torch.tensor([5, 0]), z), lambda: x.index_add_(1, torch.tensor([0]), torch.ones(3)),\n'
        '      lambda: x.index_add_(0, torch.tensor([5, 0, 1]), x.double()), lambda: x.index_add_(0, torch.tensor([5, 0, 1]), x),\n'
        '      lambda: z.index_add_(0, torch.tensor([0]), torch.ones(1)), lambda: z.index_add_(0, torch.tensor([1, 0]), z),\n'
        '      lambda: z.index_add_(0, torch.tensor([0]), z), lambda: x.index_add_(0, torch.tensor([5, 0, 1]), torch.ones(3, 2)),\n'
        '      lambda: z.index_add(0, torch.tensor([1, 0]), z))'),
    # scatter_, scatter_add_, scatter_reduce_: index's dtype (not for an empty index), src's dtype and index's shape
    # first; then the overlap (the very same tensor always, even a strided one); then the reduce argument and the
    # index values. reduce= with a tensor src warns before all of them
    "scatter_checks_before_the_overlap": (
        'x = torch.ones(3, 2); v = torch.ones(2, 2)[:, 1:].unsqueeze(0)\n'
        'tries(lambda: x.scatter_(0, torch.tensor([[0.]]), x.double()), lambda: x.scatter(0, torch.zeros(0), x),\n'
        '      lambda: x.scatter_(0, torch.tensor([0]), x), lambda: x.scatter_add_(0, torch.tensor([[1, 0, 0]]), x),\n'
        '      lambda: x.scatter_(0, torch.tensor([[1, 0, 0]]), x, reduce="add"),\n'
        '      lambda: x.scatter_(0, torch.tensor([[0]]), x, reduce="foo"),\n'
        '      lambda: x.scatter_reduce_(0, torch.tensor([[1, 0, 0]]), x, "sum"),\n'
        '      lambda: x.scatter_reduce_(0, torch.tensor([[5]]), x, "foo"),\n'
        '      lambda: x.scatter_(0, torch.zeros(0, dtype=torch.long), x[0]),\n'
        '      lambda: v.scatter_(-1, torch.zeros_like(v, dtype=torch.long), v), lambda: v.index_add_(0, torch.tensor([0]), v))'),
    # put_: index's dtype, the dtypes, the number of elements and an empty self before the overlap; index_fill_ of a
    # value tensor of 1 or more dims refused before all else; index_copy_ compares the slice shapes of a 0-d side too
    "put_index_fill_and_index_copy_check_order": (
        'x = torch.ones(3, 2); z = torch.tensor(2.)\n'
        'tries(lambda: z.index_copy_(0, torch.tensor([0]), torch.ones(1, 2, 3)),\n'
        '      lambda: z.index_copy_(0, torch.tensor([0]), torch.ones(1)),\n'
        '      lambda: torch.ones(3, 2).index_copy_(0, torch.tensor([0]), torch.tensor(5.)),\n'
        '      lambda: torch.ones(3).index_copy_(0, torch.tensor([0]), torch.tensor(5.)))\n'
        'tries(lambda: x.put_(torch.tensor([50]), x), lambda: x.put_(torch.tensor([5]), x.double()),\n'
        '      lambda: torch.ones(0).put_(torch.tensor([0]), torch.ones(1)), lambda: x.put_(torch.tensor([50]), x[0, :1]),\n'
        '      lambda: x.index_fill_(0, torch.tensor([10]), x[0]), lambda: x.index_fill_(9, torch.tensor([0]), x[0]))'),
    # index_fill_ and masked_fill_ read a 0-d value tensor as a number before writing: it may share self's memory
    "fill_with_a_value_tensor_sharing_memory": (
        'y = torch.arange(8.)\n'
        'tries(lambda: y[:6].masked_fill_(y[:6] > 2, y[1]), lambda: y[:6].index_fill_(0, torch.tensor([0, 5]), y[3]),\n'
        '      lambda: y[:6].index_fill_(0, torch.tensor([10]), y[1]), lambda: y._version)'),
    # masked_scatter_ writes one masked element at a time, reading source as it goes: a (contiguous) source sharing
    # self's memory reads what was just written; a strided one is read as a copy first; a source too short leaves
    # the elements before the error written, unrecorded (no new version, no history)
    "masked_scatter_reads_source_as_it_writes": (
        'x = torch.arange(8.)\n'
        'tries(lambda: x[1:].masked_scatter_(x[1:] > 2, x[:-1]), lambda: x._version)\n'
        'y = torch.arange(12.).view(3, 4)\n'
        'tries(lambda: y[:, 1:].masked_scatter_(y[:, 1:] > 2, y.t()), lambda: y)\n'
        'w = torch.arange(6., requires_grad=True) * 1\n'
        'tries(lambda: w.masked_scatter_(w > 1, torch.ones(2)), lambda: (w, w._version, w.grad_fn))\n'
        'q = torch.arange(6.).requires_grad_(); h = q * 1; h2 = h[1:4]\n'
        'h2.masked_scatter_(h2 > 1, h[:3]); print(h, h.grad_fn); h.sum().backward(); print(q.grad)'),
    # random in-place fills walk a tensor's memory, as TensorIterator does: a transposed or permuted view gets its
    # numbers column by column, also when the op is recorded (the view of a tensor that requires grad)
    "random_fills_of_transposed_views_follow_memory": (
        'for op in ["uniform_()", "normal_()", "random_(10)", "exponential_()", "bernoulli_(0.5)", "cauchy_()",\n'
        '           "log_normal_()", "geometric_(0.3)", "normal_(2., 3.)"]:\n'
        '    torch.manual_seed(0); x = torch.zeros(3, 4); eval("x.t()." + op); print(op, x)\n'
        '    torch.manual_seed(0); y = torch.zeros(2, 3, 4); eval("y.permute(2, 0, 1)." + op); print(y[1])\n'
        'torch.manual_seed(0); z = torch.zeros(5, 6); z.t().normal_(); print(z[:, :3])\n'
        'torch.manual_seed(0); h = torch.zeros(2, 3, requires_grad=True) * 1; v = h.t(); v.uniform_(); print(h, v.grad_fn)\n'
        'torch.manual_seed(0); g = torch.zeros(2, 3) * 1\n'
        'with torch.no_grad():\n'
        '    g.t().normal_()\n'
        'print(g)'),
    # a piece of unbind/split/chunk of a tensor that did not require grad, made to require grad: modifying it in
    # place raises PyTorch's error about views made in no_grad mode (not the one about views of leaves)
    "piece_of_split_made_to_require_grad_then_modified": (
        'b = torch.tensor([[1.0, -0.5], [-1.0, 1.0]]); c = torch.tensor([[1.5, 0.75], [1.0, 2.0]], requires_grad=True)\n'
        'v1, w1 = b.unbind(); v1.requires_grad_(); r1, r2 = torch.ones(4).chunk(2); r1.requires_grad_()\n'
        'print(v1.grad_fn, v1.is_leaf, v1._base is b)\n'
        'tries(lambda: v1.clamp_(max=c[0]), lambda: v1.mul_(2), lambda: r1.mul_(2), lambda: r2.mul_(c[0, 0]), lambda: v1)'),
    # a piece of unbind whose base changed in place (through .detach()): retain_grad, register_hook and the
    # post-accumulate hook read its grad_fn, which raises (retain_grad of one already retaining does nothing);
    # requires_grad_(False) refuses it as a non-leaf; its .grad warns
    "unbind_piece_after_its_base_changed": (
        'a = torch.tensor([[2.0, 2.0, 0.25], [-1.0, 0.75, -1.5]], requires_grad=True)\n'
        'v, w = a.unbind(); v.retain_grad()\n'
        'a.detach()[0] = 1\n'
        'tries(lambda: w.retain_grad(), lambda: v.retain_grad(), lambda: w.register_hook(print), lambda: w.grad,\n'
        '      lambda: w.retains_grad, lambda: w.register_post_accumulate_grad_hook(print), lambda: w.requires_grad_(False))\n'
        'h = a * 1\n'
        'with torch.no_grad():\n'
        '    u = h[1]\n'
        'h.mul_(2)\n'
        'tries(lambda: u.retain_grad(), lambda: u.retains_grad, lambda: u.requires_grad_(False), lambda: u.requires_grad)'),
    # an op on such a piece reads its grad_fn before it checks its arguments (transpose, permute, diagonal, cat,
    # sum...), but a composite op checks first (reshape, flatten, narrow, movedim), and indexing too
    "ops_on_an_unbind_piece_after_its_base_changed": (
        'a = torch.tensor([[-1.5, 3.0, 0.75], [-0.5, 1.5, 2.0]], requires_grad=True)\n'
        'v = a.unbind(1)[0]\n'
        'with torch.no_grad():\n'
        '    a.zero_()\n'
        'tries(lambda: v.transpose(0, 1), lambda: v.permute(1, 0), lambda: v.swapaxes(0, 1), lambda: v.diagonal(),\n'
        '      lambda: torch.cat([v, v], 3), lambda: v.sum(5), lambda: v.softmax(3), lambda: v.view(7), lambda: v.unsqueeze(5),\n'
        '      lambda: v.index_select(0, torch.tensor([9])), lambda: v.reshape(7), lambda: v.flatten(3), lambda: v.narrow(0, 5, 1),\n'
        '      lambda: v.movedim(0, 3), lambda: v[9], lambda: v.exp())\n'
        'with torch.no_grad():\n'
        '    tries(lambda: v.transpose(0, 1), lambda: v.sum(5), lambda: v.exp())'),
    # in-place ops refuse a tensor argument that partly overlaps self before they look at shapes: clamp_'s min/max
    # given by keyword too, and the ops that check their cast first
    "in_place_overlap_before_shapes": (
        'c = torch.tensor([[0.25, 0.5], [1.5, 1.5], [-1.0, 2.0]]); v = c[0]\n'
        'tries(lambda: v.clamp_(max=c), lambda: v.clamp_(min=c), lambda: v.floor_divide_(c), lambda: v.remainder_(c),\n'
        '      lambda: v.fmod_(c), lambda: v.hypot_(c), lambda: v.bitwise_and_(c), lambda: v.clamp_(max=c[:, 0]), lambda: c)'),
    # out= that partly overlaps an input is refused before out is resized, for TensorIterator's ops, cat, stack,
    # cumsum, index_select, gather, outer, addmm; the very memory of an input is fine
    "out_partly_overlapping_an_input": (
        'def run(f):\n'
        '    global c\n'
        '    c = torch.tensor([[0.25, 0.5], [1.5, 1.5], [-1.0, 2.0]])\n'
        '    tries(f, lambda: c)\n'
        'F = lambda: c.view(-1)\n'
        'for f in [lambda: torch.add(c, 1, out=c[0]), lambda: torch.exp(F()[1:3], out=c[0]),\n'
        '          lambda: torch.cat([c[1], c[2]], out=F()[1:5]), lambda: torch.stack([c[1], c[2]], out=c[1:]),\n'
        '          lambda: torch.cumsum(c[0], 0, out=F()[1:3]), lambda: torch.clamp(F()[1:3], 0, 1, out=c[0]),\n'
        '          lambda: torch.index_select(c, 0, torch.tensor([1]), out=c[:1]), lambda: torch.outer(c[0], c[1], out=c[1:]),\n'
        '          lambda: torch.addmm(c[:2], c[:2], c[:2], out=c[1:]), lambda: torch.lerp(F()[1:3], c[0], 0.5, out=c[0]),\n'
        '          lambda: torch.add(c[1], c[0], out=c[0]), lambda: torch.mul(F()[1:3], F()[1:3], out=F()[1:3])]:\n'
        '    run(f)'),
    # the fuzzer's programs whole (each found one of the causes above)
    "program_index_add_into_itself_under_no_grad": (
        'a = torch.tensor([[1.5, -0.5], [2.0, 1.0], [-1.0, 0.5]], requires_grad=True); b = a.detach().clone()\n'
        'y = a.sum(); v = b[0]\n'
        'with torch.no_grad():\n'
        '    tries(lambda: b.index_add_(0, torch.tensor([1, 0]), b), lambda: y.index_add_(0, torch.tensor([1, 0]), y))\n'
        '    tries(lambda: b.scatter_(0, torch.zeros_like(b, dtype=torch.long), b),\n'
        '          lambda: v.index_add_(0, torch.tensor([1]), b[1]))\n'
        'y.backward(); print(a.grad, b, b._version, v._version, y._version)'),
    "program_normal_on_a_transposed_view_of_a_clone": (
        'a = torch.tensor([[1.0, -1.5], [1.5, 0.75]], requires_grad=True); h = a.clone()\n'
        'v1 = h.t()\n'
        'with torch.no_grad():\n'
        '    v1.normal_()\n'
        'y2 = h.cumsum(0)\n'
        'with torch.no_grad():\n'
        '    y2.add_(v1, alpha=2)\n'
        'y2.sum().backward()\n'
        'print(h, v1, y2, a.grad, v1.grad_fn, h._version, y2._version)'),
    "program_masked_scatter_of_a_too_short_detached_view": (
        'a = torch.tensor([[-1.5, -1.0], [0.75, 1.5], [2.0, 2.0]], requires_grad=True)\n'
        'b = torch.tensor([[0.5, 0.25], [-2.0, 1.0], [1.5, 3.0]], requires_grad=True)\n'
        'y1 = a.prod(); v2 = y1.view(-1); d3 = v2.detach()\n'
        'tries(lambda: b.masked_scatter_(b > 0, d3))\n'
        'with torch.no_grad():\n'
        '    b2 = b * 1\n'
        'tries(lambda: b2.masked_scatter_(b2 > 0, d3), lambda: b2._version)\n'
        'y4 = b2.mul(y1); y4.sum().backward(); print(b2, y4, a.grad, b.grad)'),
    "program_retain_grad_of_an_unbind_piece_after_detach_write": (
        'a = torch.tensor([[2.0, 2.0, 0.25], [-1.0, 0.75, -1.5]], requires_grad=True)\n'
        'h = a.clone(); h.masked_fill_(h > 0, 0.)\n'
        'd1 = a.detach(); v2, w2 = a.unbind()\n'
        'd1[0] = d1[0]\n'
        'tries(lambda: w2.retain_grad(), lambda: w2.softmax(-1), lambda: h.sum().backward(), lambda: a.grad, lambda: w2._version)'),
}


@pytest.mark.parametrize("name", SNIPPETS)
def test_snippet(name):
    code = TRIES + SNIPPETS[name]
    t, e = run_both(T, E, code)
    assert same(t, e), f"\n{code}\n--- torch\n{t.summary()}--- engine\n{e.summary()}"
