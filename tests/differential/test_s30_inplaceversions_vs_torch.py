"""In-place ops and version counters against real PyTorch, from random programs mixing add_ / mul_ / zero_ / copy_ /
item assignment / x.data / x.detach() / no_grad updates on leaves, non-leaves and views (slices, t(), expand,
unbind and split outputs, diagonal, views made in no_grad mode) with ops that save their input, their result, both
or nothing, then backward: _version, is_leaf, grad_fn names, saved tensors, leaf grads and error texts must be the
same. A view made in no_grad mode of a tensor requiring grad requires grad but has no gradient edge, so the ops
using it save only what the other inputs' gradients need (PyTorch's needs_input_grad)."""
import pytest

T = pytest.importorskip("torch", reason="differential tests need real PyTorch (pip install torch==2.13.0)")
from .harness import SHOW, load_engine, run_both, same  # noqa: E402

E = load_engine()

SNIPPETS = {
    # `v * 2`, `v * c`, `c * v` with v a no_grad view of a leaf: the output requires grad, v has no edge, and
    # MulBackward0 saves neither the number nor c for it (was: saved as if v needed a gradient)
    "mul_of_a_view_made_in_no_grad_saves_nothing_for_it": (
        'b = torch.tensor([[1.5, 0.5], [-0.5, 3.]], requires_grad=True)\n'
        'c = torch.tensor([[1., 2.], [3., 4.]], requires_grad=True)\n'
        'with torch.no_grad():\n'
        '    v = b[0]\n'
        'print(v.requires_grad, v.is_leaf, v.grad_fn, v._base is b)\n'
        'show(v * 2)\n'
        'show(v * c)\n'
        'show(c * v)\n'
        'show(v * 2.5)\n'
        'y = (c * v).sum(); y.backward(); print(c.grad, b.grad)'),
    # the same for the matrix products: mm, matmul of vectors (dot, mv), addmm and F.linear
    "matrix_products_of_a_view_made_in_no_grad": (
        'import torch.nn.functional as F\n'
        'b = torch.tensor([[1.5, 0.5], [-0.5, 3.]], requires_grad=True)\n'
        'c = torch.tensor([[1., 2.], [3., 4.]], requires_grad=True)\n'
        'with torch.no_grad():\n'
        '    v = b[0]\n'
        '    m = b.t()\n'
        'for y in (m @ c, c @ m, m.mm(c), v @ v, c @ v, v.dot(v), torch.mv(c, v), torch.addmm(c, m, c),\n'
        '          F.linear(c, m), F.linear(m, c, c[0])):\n'
        '    show(y)'),
    # division keeps saving the divisor whatever needs a gradient; the dividend only when the divisor has an edge
    "div_by_and_of_a_view_made_in_no_grad": (
        'b = torch.tensor([[1.5, 0.5], [-0.5, 3.]], requires_grad=True)\n'
        'c = torch.tensor([[1., 2.], [3., 4.]], requires_grad=True)\n'
        'w = torch.tensor([[0.2, 0.3], [0.4, -0.6]])\n'
        'with torch.no_grad():\n'
        '    v = b[0]\n'
        'for y in (v / 2, v / c, c / v, w / v, v / w, 2 / v):\n'
        '    show(y)'),
    # pointwise ops of several tensors with such a view: lerp's weight, addcmul / addcdiv's factors, hypot, fmod,
    # remainder, copysign save only what the inputs with an edge need (copysign by a number keeps self always)
    "pointwise_ops_of_a_view_made_in_no_grad": (
        'b = torch.tensor([[1.5, 0.5], [-0.5, 3.]], requires_grad=True)\n'
        'c = torch.tensor([[1., 2.], [3., 4.]], requires_grad=True)\n'
        'with torch.no_grad():\n'
        '    v = b[0:2]\n'
        'for y in (torch.lerp(c, c, v), torch.lerp(v, c, c), v.addcmul(c, v), v.addcmul(v, c), c.addcdiv(c, v),\n'
        '          v.hypot(c), c.hypot(v), c.fmod(v), c.remainder(v), v.copysign(c), v.copysign(2.), c.copysign(v),\n'
        '          c.scatter_add(0, torch.tensor([[0, 1]]), v)):\n'
        '        show(y)\n'
        'p = torch.tensor([[1., 2., 3.]], requires_grad=True); q = torch.tensor([[0.5, -1., 2.]], requires_grad=True)\n'
        'with torch.no_grad():\n'
        '    u = p[0:1]\n'
        'show(torch.cross(u, q, dim=1)); show(torch.linalg.cross(q, u))'),
    # the no_grad view then modified in place with grad mode on: PyTorch's error, then the view is unchanged
    "no_grad_view_modified_in_grad_mode_then_used": (
        'b = torch.tensor([[1.5, 0.5], [-0.5, 3.]], requires_grad=True)\n'
        'with torch.no_grad():\n'
        '    v0 = b.view(2, 2)\n'
        'tries(lambda: v0.clamp_(-1, 1), lambda: v0.mul_(2), lambda: v0.t_())\n'
        'print(v0._version, b._version, v0.requires_grad, v0.grad_fn)\n'
        'v4 = v0 * 2\n'
        'show(v4)\n'
        'tries(lambda: v4.sum().backward(), lambda: b.grad)'),
    # scatter_ into an expanded tensor with a number: the index's dtype, dims and the dim are checked before the
    # write into shared memory is refused (was: the overlap error first)
    "scatter_into_an_expanded_tensor_checks_the_index_first": (
        'w = torch.tensor([[0.2, 0.3], [0.4, -0.6]])\n'
        'e = lambda: w.expand(2, 2, 2)\n'
        'i2, i3 = torch.tensor([[0, 1]]), torch.tensor([[[0, 1]]])\n'
        'tries(lambda: e().scatter_(0, i2, 1.), lambda: e().scatter_(0, i3, 1.), lambda: e().scatter_(5, i3, 1.),\n'
        '      lambda: e().scatter_(0, i3.float(), 1.), lambda: e().scatter_(0, i3, value=2.),\n'
        '      lambda: e().scatter_add_(0, i2, w), lambda: e().scatter_(0, torch.tensor([[[0, 5]]]), 1.),\n'
        '      lambda: e().index_fill_(0, torch.tensor([[1]]), -1.))\n'
        'a = torch.tensor([[0.5, -1.], [2., 0.25]], requires_grad=True)\n'
        'tries(lambda: a.expand(2, 2, 2).scatter_(0, torch.tensor([[0, 1]]), 1.),\n'
        '      lambda: (a * 1).expand(2, 2, 2).scatter_(0, torch.tensor([[0, 1]]), 1.))'),
    # fill_diagonal_ of an expanded tensor writes through an as_strided view of the diagonal: no index_put_
    # deprecation warning (was: warned), the shared memory written; of an expanded view of a non-leaf: CopySlices
    "fill_diagonal_of_expanded_tensors": (
        'w = torch.tensor([[0.2, 0.3], [0.4, -0.6]])\n'
        'tries(lambda: w.expand(2, 2, 2).fill_diagonal_(0.), lambda: w[0].expand(2, 2).fill_diagonal_(1.),\n'
        '      lambda: w[0].expand(3, 2).fill_diagonal_(2.), lambda: w[:, :1].expand(2, 3).fill_diagonal_(3.),\n'
        '      lambda: torch.zeros(1, 1).expand(3, 3).fill_diagonal_(4.), lambda: w, lambda: w._version)\n'
        'a = torch.tensor([[0.2, 0.3], [0.4, -0.6]], requires_grad=True)\n'
        'h = a * 1; e = h[:1].expand(3, 2)\n'
        'tries(lambda: e.fill_diagonal_(1.), lambda: h, lambda: e, lambda: (h._version, e._version))\n'
        'h.sum().backward(); print(a.grad)'),
    # results saved (sigmoid, tanh, exp, relu) and inputs saved (pow, mul, sin, log) modified in place: versions,
    # the saved tensors' reads and backward's error name the node and the versions
    "saved_results_and_inputs_modified_in_place": (
        'x = torch.tensor([0.5, -1., 2.], requires_grad=True)\n'
        'for op in ("sigmoid", "tanh", "exp", "relu", "sin", "log"):\n'
        '    h = x * 1\n'
        '    y = getattr(h, op)()\n'
        '    y.add_(1) if op in ("sigmoid", "tanh", "exp", "relu") else h.mul_(2)\n'
        '    print(op, h._version, y._version, y.grad_fn)\n'
        '    tries(lambda: y.sum().backward(), lambda: show(y))\n'
        'h = x * 1; y = h.pow(2) * h.sum(); h.zero_()\n'
        'tries(lambda: y.sum().backward())\n'
        'h = x * 1; y = h.sum(); h.zero_(); y.backward(); print(x.grad)'),
    # a slice assigned in place: the base's grad_fn becomes CopySlices, the view's AsStridedBackward0, versions
    # shared; backward through both
    "slice_assignment_copyslices_and_views": (
        'a = torch.tensor([[0.5, -1.], [2., 0.25]], requires_grad=True)\n'
        'h = a * 2\n'
        'v = h[:, 1:]\n'
        'd = h.diagonal()\n'
        'h[0] = 5.\n'
        'print(h.grad_fn, v.grad_fn, d.grad_fn, h._version, v._version, d._version)\n'
        'v *= 3\n'
        'print(h.grad_fn.next_functions, v.grad_fn, d.grad_fn, h._version)\n'
        'd.sum().backward(retain_graph=True); print(a.grad)\n'
        'h.sum().backward(); print(a.grad)'),
    # outputs of unbind / split / chunk modified in place, an expanded view written, a leaf's view: error texts
    "multi_output_views_and_expand_written": (
        'a = torch.tensor([[0.5, -1.], [2., 0.25]], requires_grad=True)\n'
        'h = a * 1\n'
        'tries(lambda: h.unbind(0)[1].add_(1), lambda: h.split(1)[0].zero_(), lambda: h.chunk(2, 1)[0].fill_(3.),\n'
        '      lambda: h.expand(2, 2, 2).mul_(2), lambda: h[0].expand(3, 2).copy_(torch.ones(3, 2)),\n'
        '      lambda: a[0].add_(1), lambda: a.t().zero_(), lambda: a.diagonal().fill_(0.))\n'
        'print(h._version, a._version)\n'
        'with torch.no_grad():\n'
        '    u = h.unbind(0)[0]\n'
        'tries(lambda: u.add_(1), lambda: u.grad_fn)'),
    # x.data.add_() does not bump x's version; x.detach().zero_() does, and backward then complains
    "data_and_detach_updates_and_versions": (
        'x = torch.tensor([0.5, -1., 2.], requires_grad=True)\n'
        'y = x.exp()\n'
        'y.data.add_(1); print(y._version, y)\n'
        'y.sum().backward(retain_graph=True); print(x.grad)\n'
        'y.detach().zero_(); print(y._version, y)\n'
        'tries(lambda: y.sum().backward())\n'
        'z = x.sigmoid(); x.data.mul_(2); print(x._version, z._version)\n'
        'z.sum().backward(); print(x.grad)\n'
        'w = x * x; x.detach().add_(1); print(x._version)\n'
        'tries(lambda: w.sum().backward())'),
    # an optimiser-style update of a leaf under no_grad between forward and backward, and after backward
    "no_grad_leaf_updates_between_forward_and_backward": (
        'w = torch.tensor([[0.2, 0.3], [0.4, -0.6]], requires_grad=True)\n'
        'x = torch.tensor([1., 2.])\n'
        'y = (w @ x).tanh().sum()\n'
        'with torch.no_grad():\n'
        '    w -= 0.1\n'
        'print(w._version, w.is_leaf, w.grad_fn, w.requires_grad)\n'
        'tries(lambda: y.backward())\n'
        'y = (w @ x).relu().sum(); y.backward()\n'
        'with torch.no_grad():\n'
        '    w -= 0.1 * w.grad\n'
        '    w[0, 0] = 9.\n'
        'print(w._version, w, w.grad)\n'
        'w.grad.zero_(); print(w.grad._version)\n'
        'tries(lambda: w.add_(1), lambda: w.data.add_(1), lambda: w[0].mul_(2))\n'
        'print(w._version, w)'),
}


@pytest.mark.parametrize("name", SNIPPETS)
def test_snippet(name):
    code = SHOW + SNIPPETS[name]
    t, e = run_both(T, E, code)
    assert same(t, e), f"\n{code}\n--- torch\n{t.summary()}--- engine\n{e.summary()}"
