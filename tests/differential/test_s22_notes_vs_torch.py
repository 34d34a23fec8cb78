"""Variations on learners' study notes about autograd (in-place changes through .data, .detach(), views and set_;
views made in no_grad mode; the .grad warning of non-leaves; .data given another shape) against real PyTorch:
printed text, warnings and the final error must be the same."""
import pytest

T = pytest.importorskip("torch", reason="differential tests need real PyTorch (pip install torch==2.13.0)")
from .harness import TRIES, load_engine, run_both, same  # noqa: E402

E = load_engine()

SNIPPETS = {
    # split / unbind / chunk of a view made in no_grad mode: the pieces are multi-output views (their creation meta
    # replaces no_grad's), except of a view made in inference mode, which stays one
    "pieces_of_a_no_grad_view": (
        'w = torch.tensor([[1.5, 0.75], [-0.5, 1.25]], requires_grad=True)\n'
        'with torch.no_grad():\n'
        '    t0 = w.diagonal()\n'
        'p = t0.split(1); q = t0.unbind()\n'
        'tries(lambda: p[0].mul_(2), lambda: q[1].view(1).mul_(2), lambda: t0[0].mul_(2))\n'
        'with torch.no_grad():\n'
        '    w.add_(1)\n'
        'tries(lambda: p[0].grad_fn, lambda: q[0].grad_fn, lambda: t0.grad_fn)\n'
        'with torch.inference_mode():\n'
        '    t1 = w.diagonal()\n'
        'tries(lambda: t1.split(1)[0].mul_(2), lambda: t1.chunk(2)[1][0].mul_(2))'),
    # .grad of a view made in no_grad mode whose base changed in place since: PyTorch stored no grad_fn for it (its
    # grad_fn is an error when read), so .grad does not warn as for a non-leaf
    "grad_of_a_no_grad_view_after_its_base_changed": (
        'w = torch.tensor([[1.5, 0.75], [-0.5, 1.25]], requires_grad=True)\n'
        'h = w * 1\n'
        'with torch.no_grad():\n'
        '    a = w.narrow(-1, 0, 1); b = h[0]\n'
        '    w.sigmoid_(); h.mul_(2)\n'
        'c = h[1]\n'
        'with torch.no_grad():\n'
        '    h.add_(1)\n'
        'tries(lambda: a.grad, lambda: b.grad, lambda: c.grad, lambda: a.is_leaf, lambda: b.grad_fn)'),
    # .data given another shape or dtype while a graph holds the tensor's node: backward checks each gradient
    # against the tensor as it was when the node was made (shape), .grad is a copy into the new shape when the
    # gradient is not taken as it is, and keeps the dtype the formula gives it
    "data_of_another_shape_while_a_graph_holds_the_node": (
        'w = torch.tensor([[1.5, 0.75], [-0.5, 1.25]], requires_grad=True)\n'
        'y = w * 2\n'
        'w.data = torch.ones(2)\n'
        'tries(lambda: w.backward(torch.ones(2)), lambda: (w * 3).sum().backward(), lambda: y.sum().backward())\n'
        'print(w.grad)\n'
        'x = torch.tensor([1., 2.], requires_grad=True)\n'
        'h = x * 2\n'
        'h.data = torch.ones(2, 2)\n'
        'tries(lambda: h.backward(torch.ones(2, 2), retain_graph=True), lambda: (h * 3).sum().backward())\n'
        'print(x.grad)\n'
        'v = torch.tensor([1., 2.], requires_grad=True)\n'
        'z = v.exp()\n'
        'v.data = torch.ones(2, 2)\n'
        'tries(lambda: (v * 3).sum().backward()); print(v.grad)\n'
        'm = torch.nn.Linear(2, 1)\n'
        'out = m(torch.ones(1, 2))\n'
        'm.weight.data = torch.ones(1, 3)\n'
        'tries(lambda: out.sum().backward(), lambda: m(torch.ones(1, 3)).sum().backward())\n'
        'print(m.weight.grad)\n'
        'd = torch.tensor([1.5, 0.75], requires_grad=True)\n'
        'e = d.double(); f = d * 0.1\n'
        'd.data = torch.ones(2, dtype=torch.float64)\n'
        'e.sum().backward(); print(d.grad, d.grad._version)\n'
        'd.grad = None; (d * 0.1).sum().backward(); print(d.grad.tolist())\n'
        'f.sum().backward(); print(d.grad.tolist())'),
    # set_ and the in-place view ops under no_grad change a tensor's shape without recording it: its node still
    # expects the old shape (a gradient that broadcasts to it is summed to it); set_ gives a leaf a new
    # AccumulateGrad for the graphs made after it, as .data of another dtype does
    "shape_changed_in_place_without_recording": (
        'x = torch.tensor([[0.5, -1.5], [2., 0.25]], requires_grad=True)\n'
        's = x.sum()\n'
        'with torch.no_grad():\n'
        '    s.set_(torch.ones(2))\n'
        's.mean().backward(retain_graph=True); print(x.grad)\n'
        'c = torch.cat([x, x])\n'
        'with torch.no_grad():\n'
        '    c.unsqueeze_(0)\n'
        'c.backward(torch.ones_like(c), retain_graph=True); print(x.grad)\n'
        'with torch.no_grad():\n'
        '    c.squeeze_(); c.t_()\n'
        'tries(lambda: c.backward(torch.ones_like(c)))\n'
        'y = torch.tensor([0.5, -1.5], requires_grad=True)\n'
        'z = y * 2\n'
        'with torch.no_grad():\n'
        '    y.set_(torch.ones(1))\n'
        'tries(lambda: (y * 1).sum().backward(), lambda: z.sum().backward()); print(y.grad)\n'
        'v = torch.tensor([0.5, -1.5], requires_grad=True)\n'
        'z = v * 2\n'
        'v.data = torch.ones(3, dtype=torch.float64)\n'
        'tries(lambda: (v * 1).sum().backward(), lambda: z.sum().backward()); print(v.grad)\n'
        'u = torch.tensor([0.5, -1.5], requires_grad=True)\n'
        'z = u * 2\n'
        'with torch.no_grad():\n'
        '    u.unsqueeze_(1)\n'
        'tries(lambda: (u * torch.ones(2, 3)).sum().backward(), lambda: z.sum().backward()); print(u.grad)'),
    # set_ on a view: as any in-place op on a view, its base's history becomes CopySlices and the view's
    # AsStridedBackward0 where the view now is; views of a tensor that set_ moves stay where they were
    "set_on_a_view_and_on_a_base": (
        'x = torch.tensor([[0.5, -1.5], [2., 0.25]], requires_grad=True)\n'
        's = x.sigmoid(); t = s[0]\n'
        't.set_(t.detach().clone())\n'
        'print(t, s, s.grad_fn.next_functions, t._version, s._version)\n'
        'tries(lambda: t.sum().backward(retain_graph=True), lambda: s.sum().backward())\n'
        'h = x * 1; v = h[:, 1]\n'
        'v.set_(torch.arange(6.).untyped_storage(), 2, (2,), (2,))\n'
        'print(v, v.grad_fn._saved_size, v.grad_fn._saved_stride, v.grad_fn._saved_storage_offset)\n'
        'tries(lambda: v.sum().backward())\n'
        'k = x * 1; u = k[0]\n'
        'with torch.no_grad():\n'
        '    u.set_(torch.ones(2))\n'
        'print(u, k, u.grad_fn)\n'
        'u.sum().backward(); print(x.grad)\n'
        'g = x * 1; r = g[0]\n'
        'g.set_(torch.ones(3))\n'
        'print(r.grad_fn, g.grad_fn); tries(lambda: r.sum().backward())'),
    # a view made in no_grad mode of a tensor that comes to require grad through an in-place op requires grad
    # too (PyTorch reads the flag through its base), so modifying it in place with grad mode on is refused
    "no_grad_view_of_a_base_that_comes_to_require_grad": (
        'x = torch.tensor([[0.5, -1.5], [2., 0.25]], requires_grad=True)\n'
        'w = torch.tensor([[1.5, 0.75], [-0.5, 1.25]])\n'
        'with torch.no_grad():\n'
        '    t = w.expand(2, -1, -1)[0]\n'
        'print(t.requires_grad)\n'
        'w.lerp_(x, 0.5)\n'
        'tries(lambda: t.requires_grad, lambda: t.grad_fn, lambda: t.exp_(), lambda: t * 2)\n'
        'with torch.no_grad():\n'
        '    tries(lambda: t.exp_())\n'
        'print(w)'),
    # backward from (or autograd.grad with respect to) a view whose history PyTorch cannot rebuild, here pieces
    # 1 of split / unbind changed under no_grad: its grad_fn's error, as reading its grad_fn gives
    "backward_from_a_changed_piece_of_split": (
        'x = torch.tensor([[0.5, -1.5], [2., 0.25]], requires_grad=True)\n'
        'for op in [lambda t: t.squeeze_(), lambda t: t.mul_(2), lambda t: t.unsqueeze_(0)]:\n'
        '    p = (x * 1).split(1)[1]; q = (x * 1).unbind()[1]\n'
        '    with torch.no_grad():\n'
        '        op(p); op(q)\n'
        '    tries(lambda: p.backward(torch.ones_like(p)), lambda: torch.autograd.grad(p.sum(), x),\n'
        '          lambda: torch.autograd.grad((x * 2).sum(), p), lambda: (x * 1).sum().backward(inputs=[q]))'),
    # a piece of split of a tensor that did not require grad, whose base then comes to require grad through an
    # in-place op: PyTorch cannot rebuild its history (no_grad's message with the multiple views' one)
    "piece_of_split_whose_base_comes_to_require_grad": (
        'x = torch.tensor([[0.5, -1.5], [2., 0.25]], requires_grad=True)\n'
        'w = torch.tensor([[1.5, 0.75], [-0.5, 1.25]])\n'
        't = w.exp().t(); p = t.unbind()[0]\n'
        't.lerp_(x.min(-1)[0], 0.5)\n'
        'tries(lambda: p.requires_grad, lambda: p.grad_fn, lambda: p.grad, lambda: p.mul_(2), lambda: p * 2)\n'
        'print(p, t._version)'),
}


@pytest.mark.parametrize("name", SNIPPETS)
def test_snippet(name):
    code = TRIES + SNIPPETS[name]
    t, e = run_both(T, E, code)
    assert same(t, e), f"\n{code}\n--- torch\n{t.summary()}--- engine\n{e.summary()}"
