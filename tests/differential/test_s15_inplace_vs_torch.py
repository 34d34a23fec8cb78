"""In-place operations against real PyTorch: set_ (its signatures, errors, shared memory, own version counter,
storage offset and the NotImplemented node), bernoulli_ as a recorded in-place op, saved tensors checked when
unused, .grad accumulation after .data changed shape, the deprecated number-first overloads of old optimizers
(`p.data.add_(-lr, grad)`), argument errors of the arithmetic methods and of requires_grad_, copies of inference
tensors, apply_ / map_, as_strided_ and the in-place addmv_ / addr_ / baddbmm_, broadcast errors of in-place ops,
views made in inference mode, saved tensors detached in place, item assignment through a list of sequences. Printed text, warnings and the final
error must be the same."""
import pytest

T = pytest.importorskip("torch", reason="differential tests need real PyTorch (pip install torch==2.13.0)")
from .harness import TRIES, load_engine, run_both, same  # noqa: E402

E = load_engine()

SNIPPETS = {
    "set_shares_memory_with_its_own_version_counter": (
        'x = torch.ones(3)\n'
        's = torch.tensor([1., 2.])\n'
        'print(x.set_(s) is x, x, x._version, s._version)\n'
        's.add_(1); print(x, x._version, s._version)\n'
        'x = torch.ones(2); s = torch.arange(6.)\n'
        'x.set_(s[2:]); print(x, x.storage_offset()); x[0] = 100; print(s)\n'
        'x.resize_(3); print(x, x.storage_offset())\n'
        'x.set_(s, 1, (2, 2)); print(x, x._version, x.stride())\n'
        'x.set_(s, 1, (2, 2), (1, 2)); print(x, x.stride(), x.storage_offset(), x.is_contiguous())\n'
        'x.set_(source=torch.zeros(3)); print(x)\n'
        'x.set_(); print(x, x.shape)\n'
        'v = torch.ones(4)[:2]; v.set_(torch.zeros(3)); print(v, v._base is not None, v._version)'),
    "set_autograd": (
        TRIES +
        'x = torch.ones(3, requires_grad=True)\n'
        'tries(lambda: x.set_(torch.zeros(2)))\n'
        'with torch.no_grad():\n'
        '    x.set_(torch.zeros(2))\n'
        'print(x, x._version, x.is_leaf)\n'
        'y = x * 2\n'
        'y.set_(torch.zeros(2)); print(y, y._version, y.grad_fn.next_functions)\n'
        'z = torch.ones(3); w = torch.zeros(2, requires_grad=True)\n'
        'z.set_(w); print(z, z.requires_grad, z.grad_fn.next_functions)\n'
        'y.sum().backward()'),
    "set_errors": (
        TRIES +
        'x = torch.ones(2); s = torch.zeros(3)\n'
        'tries(lambda: x.set_(torch.tensor([1, 2])), lambda: x.set_(5), lambda: x.set_(s, 1),\n'
        '      lambda: x.set_(s, 1.5, (2,)), lambda: x.set_(s, 1, 2), lambda: x.set_(s, 1, (2,), 1),\n'
        '      lambda: x.set_([1., 2.]), lambda: x.set_(None), lambda: x.set_(s, 1, (2, 1.5), (1,)),\n'
        '      lambda: x.set_(s, 0, (2,), (1, 1)), lambda: x.set_(s, -1, (2,)), lambda: x.set_(s, 0, (-1,)),\n'
        '      lambda: x.set_(s, 1.5, (2,), (1,)), lambda: x.set_(s, 1, 2, 1),\n'
        '      lambda: torch.ones(2, dtype=torch.float64).set_(torch.zeros(3, dtype=torch.int32)),\n'
        '      lambda: torch.ones(2, dtype=torch.bool).set_(torch.zeros(3, dtype=torch.float16)),\n'
        '      lambda: torch.ones(2, dtype=torch.int8).set_(torch.zeros(3, dtype=torch.uint8)))'),
    "set_from_a_storage": (
        'x = torch.ones(2); s = torch.arange(6.)\n'
        'x.set_(s.storage(), 2, (2,)); print(x, x.storage_offset())\n'
        'x[0] = 10; print(s)\n'
        'x.set_(s.storage()); print(x)\n'
        'x.set_(s.untyped_storage(), 1, (2, 2), (1, 2)); print(x)\n'
        'y = torch.ones(2); z = torch.zeros(3); y.set_(z)\n'
        'print(y.untyped_storage().data_ptr() == z.untyped_storage().data_ptr())\n'
        'torch.ones(2, dtype=torch.int64).set_(torch.zeros(3, dtype=torch.float64).storage())'),
    "bernoulli_in_place_is_recorded": (
        'torch.manual_seed(0)\n'
        'x = torch.ones(2, 3, requires_grad=True)\n'
        'y = x * 1\n'
        'y.bernoulli_(); print(y, y.grad_fn.next_functions)\n'
        'y.bernoulli_(0.3); print(y)\n'
        'y.bernoulli_(torch.full((2, 3), 0.3)); print(y)\n'
        'p = torch.rand(3, requires_grad=True)\n'
        'y.bernoulli_(p); print(y, y.grad_fn.next_functions)\n'
        'y.sum().backward(); print(x.grad, p.grad)\n'
        'print(torch.zeros(3, dtype=torch.int64).bernoulli_(torch.tensor([0.2, 0.5, 0.9])))\n'
        'print(torch.zeros(4, 5, dtype=torch.float64).bernoulli_(torch.rand(4, 5)))\n'
        'torch.zeros(3).bernoulli_(torch.tensor([0.5, 2., 0.1]))'),
    "bernoulli_p_tensor_must_expand": (
        'torch.zeros(3).bernoulli_(torch.rand(4))'),
    "xlogy_with_a_number_checks_its_saved_self": (
        'x = torch.tensor([[0.5, 1., 1.5], [0.3, 0.7, 2.]], requires_grad=True)\n'
        'y = x * 1\n'
        'z = y.xlogy(2.)\n'
        'y.add_(1)\n'
        'z.sum().backward()'),
    "accumulating_into_a_grad_whose_leaf_changed_shape": (
        TRIES +
        'def run(before, after):\n'
        '    x = torch.ones(*before, requires_grad=True)\n'
        '    (x * 2).sum().backward()\n'
        '    x.data = torch.zeros(*after)\n'
        '    (x * 2).sum().backward()\n'
        '    return x.grad\n'
        'tries(lambda: run((2, 2), (3,)), lambda: run((2,), (2, 2)), lambda: run((), (2,)))'),
    "deprecated_number_first_overloads": (
        'x = torch.ones(3); g = torch.tensor([1., 2., 3.])\n'
        'print(x.add_(-0.1, g), x.sub_(2, g), x.add(2, g), torch.add(x, 2, g), torch.sub(x, 2, g), x.add_(2, 3))\n'
        'v = torch.ones(3)\n'
        'print(v.addcmul_(0.5, g, g), v.addcdiv_(-0.5, g, g), v.addcmul(2, g, g), torch.addcdiv(v, 2, g, g))\n'
        'w = torch.ones(3, requires_grad=True)\n'
        'y = w * 1\n'
        'y.add_(2, g); print(y)\n'
        'y.sum().backward(); print(w.grad)'),
    "binary_method_argument_errors": (
        TRIES +
        'x = torch.ones(3); g = torch.ones(3)\n'
        'tries(lambda: x.add_(g, 2), lambda: x.add_(g, 2, 3), lambda: x.add_(2, g, alpha=3), lambda: x.mul_(g, 2),\n'
        '      lambda: x.add(g, 2), lambda: torch.add(x, g, 2), lambda: x.div_(g, 2), lambda: torch.div(x, g, 2),\n'
        '      lambda: x.pow(2, 3), lambda: x.sub(g, 3, 3), lambda: x.add_(g, g, g), lambda: x.addcmul_(2, g, g, value=3),\n'
        '      lambda: x.sub_(), lambda: x.mul_(), lambda: x.div(), lambda: torch.sub(x), lambda: torch.pow(x),\n'
        '      lambda: x.add_(alpha=2), lambda: x.matmul(), lambda: x.zero_(1), lambda: x.copy_([1, 2, 3]),\n'
        '      lambda: x.mul_(other=g * 2), lambda: x.pow_(exponent=2), lambda: x.pow(exponent=2), lambda: x)'),
    "requires_grad_takes_only_a_bool": (
        TRIES +
        'tries(lambda: torch.tensor([1., 2.]).requires_grad_(1), lambda: torch.ones(2).requires_grad_(None),\n'
        '      lambda: torch.ones(2).requires_grad_(torch.tensor(True)), lambda: torch.ones(2).requires_grad_(True),\n'
        '      lambda: torch.nn.Parameter(torch.ones(2), requires_grad=1),\n'
        '      lambda: torch.nn.Parameter(torch.ones(2), requires_grad=False))'),
    "copies_of_an_inference_tensor_outside_inference_mode": (
        'with torch.inference_mode():\n'
        '    x = torch.zeros(2, 3)\n'
        'for y in [x.clone(), x.t().clone(), torch.clone(x), x.to(torch.float64), x.double(), x.t().contiguous(),\n'
        '          torch.zeros(3).clone(), x.reshape(6), (x * 2), torch.tensor(x)]:\n'
        '    print(y.is_inference(), y._version)\n'
        'y = x.clone(); y += 1; print(y, y._version)'),
    "apply_and_map_": (
        TRIES +
        'x = torch.tensor([1., 2., 3.])\n'
        'print(x.apply_(lambda v: v * 2), x._version)\n'
        'print(x.map_(torch.tensor([1., 1., 1.]), lambda a, b: a + b), x._version)\n'
        'print(x.map_(torch.tensor(1.), lambda a, b: a + b))\n'
        'print(torch.tensor([1, 2, 3]).apply_(lambda v: v / 2), torch.tensor([True, False]).apply_(lambda v: not v))\n'
        'print(torch.ones(2, 2).t().apply_(lambda v: 3.), x.apply_(lambda v: True))\n'
        'w = torch.ones(2, requires_grad=True)\n'
        'tries(lambda: w.apply_(lambda v: v), lambda: (w * 1).apply_(lambda v: v), lambda: x.apply_(lambda v: "a"),\n'
        '      lambda: x.apply_(5), lambda: x.map_(torch.ones(2), lambda a, b: a), lambda: x.apply_(lambda v: None),\n'
        '      lambda: x.map_(w, lambda a, b: a))'),
    "addmv_addr_baddbmm_in_place": (
        'a = torch.ones(2, 3, requires_grad=True)\n'
        'y = a[:, 0] * 1\n'
        'y.addmv_(torch.ones(2, 4), torch.ones(4)); print(y)\n'
        'q = a * 1\n'
        'q.addr_(torch.ones(2), torch.ones(3), alpha=2); print(q)\n'
        'b = (a * 1).unsqueeze(0)\n'
        'b.baddbmm_(torch.ones(1, 2, 2), torch.ones(1, 2, 3)); print(b)\n'
        '(y.sum() + q.sum() + b.sum()).backward(); print(a.grad)'),
    "modified_bool_mask_is_named_as_pytorch_names_it": (
        TRIES +
        'def masked(f):\n'
        '    x = torch.ones(4, requires_grad=True)\n'
        '    m = torch.tensor([True, False, True, False])\n'
        '    y = f(x, m)\n'
        '    m.logical_not_()\n'
        '    y.sum().backward()\n'
        '    return x.grad\n'
        'tries(lambda: masked(lambda x, m: x[m]), lambda: masked(lambda x, m: torch.where(m, x, 0.)),\n'
        '      lambda: masked(lambda x, m: x.masked_fill(m, 0.)))\n'
        'y = torch.ones(2, requires_grad=True) * 2\n'
        'y.register_hook(lambda g: g.bool())\n'
        'y.sum().backward()'),
    "in_place_ops_without_derivative_name_the_in_place_op": (
        TRIES +
        'x = torch.ones(3, requires_grad=True)\n'
        'def back(y):\n'
        '    print(y.grad_fn)\n'
        '    y.sum().backward()\n'
        'tries(lambda: back((x * 1).floor_divide_(2)), lambda: back((x * 1).__ifloordiv__(2)), lambda: back(x // 2),\n'
        '      lambda: back((x * 1).heaviside_(torch.ones(3))),\n'
        '      lambda: back((x * 1).scatter_(0, torch.tensor([0, 1]), 2., reduce="add")),\n'
        '      lambda: back(x.scatter(0, torch.tensor([0, 1]), 2., reduce="add")))'),
    "scatter_source_larger_than_index": (
        TRIES +
        'x = torch.zeros(3, 2, requires_grad=True)\n'
        'src = torch.ones(3, 2, requires_grad=True)\n'
        'i = torch.tensor([[2, 2]])\n'
        'def back(y):\n'
        '    y.sum().backward()\n'
        '    return x.grad, src.grad\n'
        'tries(lambda: back(x.scatter_add(0, i, src)), lambda: back(x.scatter(0, i, src)),\n'
        '      lambda: back(x.scatter_reduce(0, i, src, "sum")), lambda: back((x * 1).scatter_add_(0, i, src)),\n'
        '      lambda: back(x.scatter_add(0, torch.tensor([[2, 2], [0, 1], [1, 1]]), src)),\n'
        '      lambda: back(x.scatter_add(0, i, torch.ones(3, 2))))'),
    "deleting_data": (
        'x = torch.ones(2, 3, requires_grad=True)\n'
        'del x.data'),
    "views_made_in_inference_mode_then_modified": (
        TRIES +
        'x = torch.ones(4, requires_grad=True)\n'
        'with torch.inference_mode():\n'
        '    v = x[:2]\n'
        'print(v.requires_grad, v.is_inference())\n'
        'tries(lambda: v.mul_(2))\n'
        'y = x * 2\n'
        'with torch.inference_mode():\n'
        '    u = y[:2]\n'
        'y.mul_(2)\n'
        'tries(lambda: u.grad_fn, lambda: u[:1].add_(1))\n'
        'with torch.no_grad():\n'
        '    w = v[:1]\n'
        'w.add_(1)'),
    "addcmul_and_maximum_method_errors": (
        TRIES +
        'b = torch.tensor([True, False]); x = torch.ones(2)\n'
        'tries(lambda: b.addcmul(b, b), lambda: torch.addcmul(b, b, b), lambda: b.addcmul_(b, b),\n'
        '      lambda: torch.tensor([1, 2]).addcmul(b, b), lambda: x.addcmul(2, 3), lambda: x.addcmul_(x, 3),\n'
        '      lambda: torch.addcmul(x, x, 3), lambda: x.addcdiv_(x, 3), lambda: x.addcmul_(x, x, value=2),\n'
        '      lambda: x.maximum(2), lambda: torch.maximum(x, 2), lambda: x.minimum(2.), lambda: x.hypot_(1))'),
    "broadcast_errors_of_masked_fill_lerp_maximum": (
        TRIES +
        'x = torch.ones(3)\n'
        'tries(lambda: x.masked_fill(torch.ones(4) > 0, 1.), lambda: x.masked_fill_(torch.ones(4) > 0, 1.),\n'
        '      lambda: x.masked_fill(torch.ones(2, 1) > 0, 1.).shape, lambda: x.masked_fill_(torch.ones(2, 1) > 0, 1.),\n'
        '      lambda: torch.ones(2, 1).masked_fill_(torch.ones(3) > 0, 1.),\n'
        '      lambda: x.masked_fill_(mask=torch.ones(3) > 0, value=2.),\n'
        '      lambda: torch.ones(3).lerp(torch.ones(3), torch.ones(4)), lambda: torch.ones(3).maximum(torch.ones(4)),\n'
        '      lambda: torch.ones(3).lerp(torch.ones(2, 3), torch.ones(4, 1, 1)).shape,\n'
        '      lambda: torch.minimum(torch.ones(2, 3), torch.ones(2)),\n'
        '      lambda: torch.ones(3).lerp_(torch.ones(3), torch.ones(2, 3)))'),
    "unary_in_place_methods_take_no_arguments": (
        TRIES +
        'x = torch.ones(3)\n'
        'tries(lambda: x.sigmoid_(x), lambda: x.exp_(2), lambda: x.neg_(1, 2), lambda: x.sqrt_(x), lambda: x.abs_())'),
    "saved_input_detached_in_place_then_modified": (
        TRIES +
        'x = torch.ones(3, requires_grad=True)\n'
        'def back(f):\n'
        '    y = x * 2\n'
        '    z = f(y)\n'
        '    y.detach_()\n'
        '    y.add_(1)\n'
        '    z.sum().backward()\n'
        '    return x.grad\n'
        'tries(lambda: back(lambda y: y * y), lambda: back(torch.exp), lambda: back(lambda y: y.pow(3)))'),
    "assigning_through_a_list_of_sequences": (
        'x = torch.zeros(3, 4)\n'
        'x[[[0, 1], [1, 2]]] = 5.; print(x, x._version)\n'
        'x[[0, [1, 2]]] = torch.tensor([7., 8.]); print(x)\n'
        'w = torch.ones(3, requires_grad=True)\n'
        'y = torch.zeros(3, 4) + 0 * w.sum()\n'
        'y[[slice(None), 1]] = w; print(y, y.grad_fn)\n'
        'y.sum().backward(); print(w.grad)'),
    "as_strided_in_place": (
        TRIES +
        'x = torch.arange(6., requires_grad=True)\n'
        'y = x * 1\n'
        'y.as_strided_((2, 2), (1, 2)); print(y, y._version, y._base)\n'
        'y.sum().backward(); print(x.grad)\n'
        'z = torch.arange(6.)\n'
        'print(z.as_strided_((2,), (2,), 1) is z, z, z._version, z.storage_offset())\n'
        'tries(lambda: x.as_strided_((2,), (1,)))\n'
        'v = torch.arange(6.)[1:]\n'
        'v.as_strided_((2,), (1,)); print(v, v.storage_offset(), v._base)'),
    "negative_zero_gradients_through_in_place_ops_on_views": (
        'def grad(f):\n'
        '    x = torch.arange(1., 5.).requires_grad_()\n'
        '    y = x * 1\n'
        '    f(y).sum().backward()\n'
        '    return x.grad\n'
        'def neg_all(y):\n'
        '    y.view(4).neg_()\n'
        '    return y[:2]\n'
        'def neg_tail(y):\n'
        '    y[1:].neg_()\n'
        '    return y[:1]\n'
        'def zero_view(y):\n'
        '    v = y[:2]\n'
        '    y.view(4).neg_()\n'
        '    return v * 0\n'
        'print(grad(neg_all), grad(neg_tail), grad(zero_view))'),
}


@pytest.mark.parametrize("name", SNIPPETS)
def test_snippet(name):
    code = SNIPPETS[name]
    t, e = run_both(T, E, code)
    assert same(t, e), f"\n{code}\n--- torch\n{t.summary()}--- engine\n{e.summary()}"
