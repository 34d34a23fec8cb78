"""Variants of learners' study notes (Chinese tutorials on autograd basics) against real PyTorch: the same mistakes
made with other dtypes, shapes and ops (in-place ops on leaves and on their views, detach()/.data aliases modified
before backward, integer tensors asked to require grad, a non-scalar backward given wrongly shaped weights), with the
attributes a probe prints (_version, is_leaf, grad_fn and next_functions, _saved_*, .grad after repeated backward),
and out= given to the ops that return a torch.return_types tuple. Printed text, warnings and the final error must be
the same."""
import pytest

T = pytest.importorskip("torch", reason="differential tests need real PyTorch (pip install torch==2.13.0)")
from .harness import SHOW, load_engine, run_both, same  # noqa: E402

E = load_engine()

SNIPPETS = {
    # torch.sort / max / min / topk / kthvalue / median / mode / cummax / aminmax with out=(values, indices): the
    # results written into the given tensors (resized with PyTorch's warning), returned as
    # torch.return_types.<op>_out; a wrong dtype, a wrong count, an out= under grad mode refused with PyTorch's messages
    "tuple_out_of_ops_returning_values_and_indices": (
        'x = torch.tensor([[3., 1., 2.], [0., 5., 4.]], dtype=torch.float64)\n'
        'v, i = torch.empty(0, dtype=torch.float64), torch.empty(0, dtype=torch.long)\n'
        'for f in [lambda: torch.sort(x, out=(v, i)), lambda: torch.sort(x, 0, True, out=[v, i]),\n'
        '          lambda: torch.max(x, 1, out=(v, i)), lambda: torch.min(x, 0, keepdim=True, out=(v, i)),\n'
        '          lambda: torch.topk(x, 2, out=(v, i)), lambda: torch.kthvalue(x, 2, 1, True, out=(v, i)),\n'
        '          lambda: torch.median(x, 1, out=(v, i)), lambda: torch.mode(x, 1, out=(v, i)),\n'
        '          lambda: torch.cummax(x, 1, out=(v, i)),\n'
        '          lambda: torch.aminmax(x, out=(v, v.clone())),\n'
        '          lambda: torch.sort(x, out=(torch.empty(2, 3), i)),\n'
        '          lambda: torch.sort(x, out=(v, torch.empty(2, 3, dtype=torch.int32))),\n'
        '          lambda: torch.sort(x, out=(v, i, i)), lambda: torch.sort(x, out=(v,))]:\n'
        '    try:\n'
        '        r = f()\n'
        '        print(r, type(r).__name__, r[0] is v, v._version, i._version, v.shape)\n'
        '    except Exception as e:\n'
        '        print(type(e).__name__, e)\n'
        'x.requires_grad_()\n'
        'tries(lambda: torch.max(x, 1, out=(v, i)), lambda: torch.sort(x, out=(v, i)),\n'
        '      lambda: torch.mode(x, 1, out=v), lambda: x.mode(1, out=(v, i)))\n'
        'with torch.no_grad():\n'
        '    print(torch.max(x, 1, out=(v, i)), torch.return_types.max_out)'),
    # every in-place op on a float64 leaf requiring grad is refused (views of it too, with the view's message);
    # no_grad and .data let it through, bumping _version except through .data
    "inplace_ops_on_a_leaf_and_its_views": (
        'a = torch.ones(2, 2, dtype=torch.float64, requires_grad=True)\n'
        'tries(lambda: a.__iadd__(2), lambda: a.mul_(2), lambda: a.zero_(), lambda: a.clamp_(0, 1),\n'
        '      lambda: a.copy_(torch.ones(2, 2)), lambda: a.sigmoid_(), lambda: a.t_(), lambda: a.resize_(4),\n'
        '      lambda: a.__setitem__(0, 5.), lambda: a[0].add_(1), lambda: a.view(4).mul_(2),\n'
        '      lambda: a.diagonal().fill_(0), lambda: a.unsqueeze(0).squeeze_(0))\n'
        'print(a, a._version, a.is_leaf, a.grad_fn)\n'
        'with torch.no_grad():\n'
        '    a += 2\n'
        'print(a, a._version, a.grad_fn, a.is_leaf)\n'
        'a.data += 1\n'
        'print(a, a._version)\n'
        'v = a.view(4)\n'
        'with torch.no_grad():\n'
        '    v.mul_(2)\n'
        'print(a, v, a._version, v._version, v.grad_fn)\n'
        'tries(lambda: (v * 2).sum().backward())\n'
        'print(a.grad)'),
    # after a = a * 2 the name is a non-leaf: each augmented assignment makes a new grad_fn over the previous one
    "augmented_assignments_on_a_non_leaf": (
        'a = torch.ones(2, 2, requires_grad=True)\n'
        'a = a * 2\n'
        'for op in ["a += 2", "a -= 1", "a *= a", "a /= 2", "a **= 2"]:\n'
        '    exec(op)\n'
        '    print(op, a._version, a.grad_fn, a.grad_fn.next_functions)\n'
        'show(a)\n'
        'b = torch.ones(3, requires_grad=True)\n'
        'c = b + 0\n'
        'c[0] = 5\n'
        'show(c)\n'
        'c[1:] *= 3\n'
        'show(c)\n'
        'c.sum().backward()\n'
        'print(b.grad)'),
    # integer, bool and uint8 tensors refuse requires_grad (lower-case message; factories' capitalised one);
    # requires_grad_(False) is allowed; conversions to float make a leaf that can
    "integer_tensors_asked_to_require_grad": (
        'for t in [torch.arange(4), torch.tensor([True]), torch.ones(2, dtype=torch.int32),\n'
        '          torch.arange(4).view(2, 2) * 3, torch.zeros(2, dtype=torch.uint8)]:\n'
        '    tries(lambda: t.requires_grad_(True), lambda: setattr(t, "requires_grad", True),\n'
        '          lambda: t.requires_grad_(False), lambda: t.requires_grad)\n'
        'tries(lambda: torch.tensor([1, 2], requires_grad=True),\n'
        '      lambda: torch.ones(2, dtype=torch.int16, requires_grad=True),\n'
        '      lambda: torch.tensor([1., 2.], dtype=torch.long, requires_grad=True),\n'
        '      lambda: torch.arange(1, 5, requires_grad=True))\n'
        'e = torch.arange(1, 5).view(2, 2).double().requires_grad_()\n'
        'print(e, e.is_leaf, e.grad_fn)\n'
        'x = torch.tensor([1., 2.], requires_grad=True)\n'
        'tries(lambda: x.long().requires_grad, lambda: (x.int() * x).grad_fn,\n'
        '      lambda: x.round().long().requires_grad_())'),
    # .data / .detach() aliases: writes through them change the tensor without autograd noticing (.data does not
    # bump the version the graph sees; detach() does), assigning .data swaps shape and values
    "data_and_detach_aliases_written_through": (
        'm = torch.ones(2, requires_grad=True)\n'
        'm.data = m.data * 100\n'
        'print(m, m._version, m.data.grad_fn, m.data.requires_grad, m.data.is_leaf)\n'
        'm.data = torch.arange(3.)\n'
        'print(m, m.shape, m.requires_grad)\n'
        'tries(lambda: setattr(m, "data", [1., 2.]), lambda: setattr(m, "data", torch.arange(3)))\n'
        'print(m, m.dtype)\n'
        'd = m.data; d[0] = 7.; print(m, m._version, d._version)\n'
        'e = m.detach(); e[1] = 9.; print(m, m._version, e._version)\n'
        'y = m * 2\n'
        'y.data.mul_(10); print(y, y._version, y.grad_fn)\n'
        'y.detach().mul_(10); print(y, y._version)\n'
        'n = (m ** 2).sum()\n'
        'm.detach().add_(1)\n'
        'tries(lambda: n.backward())\n'
        'print(m.grad)'),
    # which ops save their output (modified through detach(): an error at backward) and which their input (no
    # error, a wrong gradient)
    "outputs_modified_through_detach_before_backward": (
        'import torch.nn.functional as F\n'
        'x = torch.tensor([0.5, 0.25], requires_grad=True)\n'
        'for name, f in [("sigmoid", torch.sigmoid), ("exp", torch.exp), ("tanh", torch.tanh), ("sqrt", torch.sqrt),\n'
        '                ("relu", torch.relu), ("log", torch.log), ("x*x", lambda x: x * x),\n'
        '                ("x**3", lambda x: x ** 3),\n'
        '                ("2**x", lambda x: 2 ** x), ("1/x", lambda x: 1 / x), ("softmax", lambda x: x.softmax(0)),\n'
        '                ("prod", lambda x: x.prod()), ("norm", lambda x: x.norm()), ("rsqrt", torch.rsqrt),\n'
        '                ("silu", F.silu), ("elu", F.elu), ("cumsum", lambda x: x.cumsum(0))]:\n'
        '    x.grad = None\n'
        '    y = f(x)\n'
        '    y.detach().zero_()\n'
        '    try:\n'
        '        y.sum().backward()\n'
        '        print(name, "ok", x.grad)\n'
        '    except RuntimeError as e:\n'
        '        print(name, type(e).__name__ + ": " + str(e))'),
    # the saved tensors are the very inputs / outputs (is), inaccessible once backward freed them
    "saved_tensors_identity_and_after_backward": (
        'x = torch.tensor([1., 2.], requires_grad=True)\n'
        'w = torch.tensor([3., 4.], requires_grad=True)\n'
        'y = x * w\n'
        'print(y.grad_fn._saved_self is x, y.grad_fn._saved_other is w)\n'
        's = x.sigmoid(); print(s.grad_fn._saved_result is s, s.grad_fn._saved_result.grad_fn)\n'
        'p = x ** 2; print(p.grad_fn._saved_self is x, p.grad_fn._saved_exponent, type(p.grad_fn._saved_exponent))\n'
        'for r in [x / 2, x.mean(), x.sum(), x.view(2, 1), x.pow(torch.tensor(2.))]:\n'
        '    show(r)\n'
        'y.sum().backward()\n'
        'tries(lambda: y.grad_fn._saved_self, lambda: s.grad_fn._saved_result, lambda: p.grad_fn._saved_exponent)\n'
        'print(y.grad_fn.name(), y.grad_fn.metadata, y.grad_fn.next_functions[0][0].variable is x)'),
    # a non-scalar backward given weights of other shapes, dtypes and kinds
    "non_scalar_backward_with_other_weights": (
        'x = torch.tensor([1.0, 2.0, 3.0, 4.0], requires_grad=True)\n'
        'z = (2 * x).view(2, 2)\n'
        'z.backward(torch.tensor([[1.0, 0.1], [0.01, 0.001]]), retain_graph=True)\n'
        'print(x.grad)\n'
        'z.backward(torch.ones(2, 2, dtype=torch.float64), retain_graph=True)\n'
        'print(x.grad)\n'
        'tries(lambda: z.backward(torch.ones(4)), lambda: z.backward(torch.ones(2, 1)), lambda: z.backward(2.),\n'
        '      lambda: z.backward(torch.tensor(1.)), lambda: z.backward(), lambda: z.backward([1., 1.]),\n'
        '      lambda: z.backward(torch.ones(2, 2, dtype=torch.int64)), lambda: z.backward(torch.ones[2, 2]))\n'
        'print(x.grad)\n'
        'print(torch.autograd.grad(z, x, torch.ones(2, 2), retain_graph=True))\n'
        'tries(lambda: torch.autograd.grad(z, x), lambda: torch.autograd.grad(z.sum(), [x, z]))'),
    # .grad accumulates over repeated backward (the same tensor, written in place), create_graph makes it a
    # non-leaf with a grad_fn, and a second backward of a freed graph fails
    "grad_over_repeated_backward": (
        'x = torch.tensor([1.0, 2.0], dtype=torch.float64, requires_grad=True)\n'
        'for i in range(3):\n'
        '    (x * x * (i + 1)).sum().backward()\n'
        '    print(x.grad, x.grad._version, x.grad.requires_grad, x.grad.is_leaf, x.grad.grad_fn)\n'
        'g = x.grad\n'
        '(x * 3).sum().backward(create_graph=True); print(x.grad, x.grad.grad_fn, g is x.grad)\n'
        'x.grad = None\n'
        'y = x.exp()\n'
        'z = (y * y).sum()\n'
        'z.backward(retain_graph=True); z.backward(); print(x.grad)\n'
        'tries(lambda: z.backward(), lambda: y.sum().backward(), lambda: y.grad_fn._saved_result)'),
    # is_leaf / requires_grad / grad_fn of what learners derive from a leaf
    "leafness_of_derived_tensors": (
        'a = torch.tensor([1.0, 2.0], requires_grad=True)\n'
        'for t in [a.detach(), a.view(2), a[0], a.clone(), a.data, a.float(), a.double(), a.contiguous(),\n'
        '          a.requires_grad_(), a.new_ones(2), torch.zeros_like(a), torch.ones_like(a, requires_grad=True),\n'
        '          a.cpu(), a.expand(2, 2), a.type(torch.float64), a.to("cpu"), a.detach().requires_grad_(),\n'
        '          a.clone().detach(), torch.tensor(a.tolist())]:\n'
        '    print(t.is_leaf, t.requires_grad, t.grad_fn, t is a, t._version)'),
    # in place on a slice of a clone: CopySlices over the clone, the slice's AsStridedBackward
    "inplace_on_a_slice_of_a_clone": (
        'b = torch.ones(4, requires_grad=True)\n'
        'c = b.clone()\n'
        'w = c[1:]\n'
        'w.mul_(3)\n'
        'print(c, c.grad_fn, w.grad_fn, c._version, w._version)\n'
        'show(c); show(w)\n'
        'c.sum().backward(); print(b.grad)\n'
        'a = torch.ones(4, requires_grad=True)\n'
        'with torch.no_grad():\n'
        '    a[:2].zero_()\n'
        'print(a, a._version)\n'
        '(a * 2).sum().backward(); print(a.grad)'),
}


@pytest.mark.parametrize("name", SNIPPETS)
def test_snippet(name):
    code = SHOW + SNIPPETS[name]
    t, e = run_both(T, E, code)
    assert same(t, e), f"\n{code}\n--- torch\n{t.summary()}--- engine\n{e.summary()}"
