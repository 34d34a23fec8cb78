"""Programs spliced from learners' snippets (leaf tensors, in-place ops, views, .data vs .detach(), saved tensors,
weighted backward) with in-place ops, grad modes, backward calls and prints of autograd state put between their
statements, shrunk to what differed from real PyTorch: printed text, warnings and the final error must be the same."""
import pytest

T = pytest.importorskip("torch", reason="differential tests need real PyTorch (pip install torch==2.13.0)")
from .harness import TRIES, load_engine, run_both, same  # noqa: E402

E = load_engine()

SNIPPETS = {
    # a grad_fn called alone runs its formula: ToCopyBackward0's casts the gradient back to the input's dtype
    "to_copy_node_called_alone": (
        'a = torch.ones(2, 2, requires_grad=True)\n'
        'y = a.double()\n'
        'print(y.grad_fn(torch.ones_like(y)))\n'
        'y = a.half()\n'
        'print(y.grad_fn(torch.ones_like(y)))'),
    # .data = on a view: the view shows the new memory at its offset there (storage_offset), and once its base changes
    # in place its history reads the base through AsStridedBackward0 there, elements past the base's end dropping
    # out of the gradient; views of a base given new .data stay where they were in the old memory
    "data_of_a_view_then_its_base_changes": (
        'x = torch.tensor([1., 2., 3., 4.], requires_grad=True)\n'
        'h = x * 1\n'
        'v = h[1:3]\n'
        'v.data = torch.arange(5.)[2:]\n'
        'print(v.storage_offset(), v)\n'
        'v.detach().add_(1)\n'
        'print(v.grad_fn, v)\n'
        'tries(lambda: v.sum().backward())\n'
        'print(x.grad)\n'
        'b = x.exp(); u = b[1:]\n'
        'b.data = torch.arange(6.)[1:]\n'
        'print(u.storage_offset(), b.storage_offset())\n'
        'u.detach().mul_(2)\n'
        'tries(lambda: u.sum().backward())'),
    # what a view given other memory by .data = shows, and its views, its .data and detach() too: storage_offset
    # counts from the new memory, resize_ works in it
    "memory_of_a_view_given_other_data": (
        'b = torch.zeros(2, 3)\n'
        't = b.expand(2, 2, 3)\n'
        't.data = torch.ones(2, 2, 3)\n'
        'd = t.data\n'
        'print(t.storage_offset(), d.storage_offset(), d.resize_(1))\n'
        'v = b[1]\n'
        'v.data = torch.arange(6.)[1:4]\n'
        'u = v[1:]; w = v.detach()\n'
        'print(v.storage_offset(), u.storage_offset(), w.storage_offset(), len(u.untyped_storage()))\n'
        'print(v.resize_(2), v.storage_offset(), b)'),
    # retain_grad before an in-place view op (t_, unsqueeze_, squeeze_, transpose_, as_strided_): PyTorch leaves it
    # on the old node (.grad has the old shape), where any other in-place op moves it to the new one
    "retain_grad_before_an_in_place_view_op": (
        'w = torch.arange(6.).view(3, 2)\n'
        'for op in ["t_()", "unsqueeze_(0)", "transpose_(0, 1)", "as_strided_((3, 2), (1, 3))", "mul_(2)"]:\n'
        '    a = torch.ones(2, 3, requires_grad=True)\n'
        '    m = a + 1\n'
        '    m.retain_grad()\n'
        '    eval("m." + op)\n'
        '    (m * w.view_as(m)).sum().backward()\n'
        '    print(op, m.grad, m.grad_fn)'),
    # a backward pass that fails on the way (here adding into a .grad of the old shape after .data = changed it)
    # has already released the saved tensors of the nodes it ran: backward through them again is the second-time error
    "failed_backward_frees_the_nodes_it_ran": (
        'x = torch.tensor([1.0, 2.0], requires_grad=True)\n'
        '(x * 3).sum().backward()\n'
        'x.data = torch.zeros(3)\n'
        'y = x ** 2\n'
        'tries(lambda: (y * 3).sum().backward(), lambda: (y * y).sum().backward())'),
    # the gradient of an in-place op on a view of a base whose .data is expanded: PyTorch copies it into memory laid
    # out as the base, which copy_ refuses
    "in_place_on_a_view_of_a_base_given_expanded_data": (
        'x = torch.tensor([1.0, 2.0], requires_grad=True) * 2\n'
        'x.data = torch.ones(1).expand(2, 1)\n'
        'x.view(-1)[0] = 7\n'
        'print(x, x.grad_fn)\n'
        'tries(lambda: (x * 5).sum().backward())'),
    # a view of a tensor that did not require grad, whose base then comes to through an in-place op on another view:
    # until something reads the view's grad_fn (an op taking it, printing it, .grad_fn, .is_leaf), PyTorch takes it
    # for a leaf that requires grad (in-place ops refused, retain_grad does nothing, .grad does not warn)
    "view_whose_base_came_to_require_grad_read_late": (
        'w = torch.tensor([1.0, 2.0], requires_grad=True)\n'
        'out = torch.zeros(3)\n'
        'first = out[:2]\n'
        'out[2:] = w[:1] * 2\n'
        'tries(lambda: first.requires_grad, lambda: first.retain_grad(), lambda: first.grad, lambda: first.add_(1))\n'
        'print(first.is_leaf, first.grad_fn)\n'
        'first.add_(1)\n'
        'out = torch.zeros(3)\n'
        'first = out[0]\n'
        'out.copy_(torch.cat([w, w[:1]]))\n'
        'y = first * 2\n'
        'print(first.mul_(2), out)'),
    # copying a tensor's elements onto themselves through another view of the same window (x[:1] = x[:1]): PyTorch's
    # copy_ returns at once, so an expanded tensor has no overlap to refuse, and the version still moves on
    "copy_onto_the_same_elements_of_an_expanded_tensor": (
        'w = torch.tensor([1.0, 2.0], requires_grad=True)\n'
        'y = w.floor().expand(2, 2).t()\n'
        'y[:1] = y[:1]\n'
        'print(y._version, y.grad_fn)\n'
        'tries(lambda: y[1:].copy_(y[1:]), lambda: y[1:].copy_(y[:1]), lambda: y._version)'),
    # a leaf whose requires_grad was switched off after a graph took it, then given a history by an in-place op with
    # a tensor that requires grad: backward reaching its old node refuses to accumulate into it
    "leaf_moved_into_the_graph_interior": (
        'm = torch.ones(1, requires_grad=True)\n'
        'n = m * 2\n'
        'm.requires_grad_(False)\n'
        'm.sub_(n)\n'
        'print(m.is_leaf, m.grad_fn, m.requires_grad)\n'
        'tries(lambda: n.backward(retain_graph=True), lambda: m.grad)'),
    # SelectBackward0 / SliceBackward0 called alone with a gradient of another shape (a view given other .data): the
    # gradient is copied into its place in zeros, with copy_'s broadcasting and errors
    "select_and_slice_nodes_called_with_another_shape": (
        'g = torch.tensor([1., 2, 3, 4, 5, 6], requires_grad=True)\n'
        'v = g[0]\n'
        'v.data = torch.tensor([3.0, 4.0])\n'
        'tries(lambda: v.grad_fn(torch.ones_like(v)), lambda: v.grad_fn(torch.tensor(2.)))\n'
        'for v in [g[1:3], g.view(2, 3)[1]]:\n'
        '    tries(lambda: v.grad_fn(torch.ones(3)), lambda: v.grad_fn(torch.ones(1, 2)), lambda: v.grad_fn(torch.ones(1)))'),
    # .data of another shape given to a matrix a product saved: backward runs mm's checks, and a gradient of the
    # other leaf that the formula gives another shape is PyTorch's invalid-gradient error
    "data_of_another_shape_under_a_matrix_product": (
        'A = torch.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)\n'
        'B = torch.tensor([[5.0, 6.0], [7.0, 8.0]], requires_grad=True)\n'
        'C = A @ B; D = A @ B; E = A @ B\n'
        'B.data = torch.ones(3)\n'
        'tries(lambda: C.sum().backward())\n'
        'B.data = torch.ones(1, 2)\n'
        'tries(lambda: D.sum().backward(), lambda: D.sum().backward())\n'
        'A.data = torch.ones(3, 3)\n'
        'tries(lambda: E.sum().backward(), lambda: (A.grad, B.grad))'),
}


@pytest.mark.parametrize("name", SNIPPETS)
def test_snippet(name):
    code = TRIES + SNIPPETS[name]
    t, e = run_both(T, E, code)
    assert same(t, e), f"\n{code}\n--- torch\n{t.summary()}--- engine\n{e.summary()}"
