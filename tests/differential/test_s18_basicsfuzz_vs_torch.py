"""The basics a learner tries first, as generated snippets found them apart from PyTorch: the argument checks of
size / stride / reductions, keepdim without a dim, comparisons given a number first, indexing and index assignment
corner cases, activations of integer, bool and half tensors, a half times a number, linspace's and unflatten's
argument errors. Printed text, warnings and the final error must be the same."""
import pytest

T = pytest.importorskip("torch", reason="differential tests need real PyTorch (pip install torch==2.13.0)")
from . import harness  # noqa: E402
from .harness import TRIES, load_engine, run_both, same  # noqa: E402

E = load_engine()

SNIPPETS = {
    "size_and_stride_take_an_int_dim": TRIES + (
        't = torch.zeros(2, 3)\n'
        'tries(lambda: t.size(1.0), lambda: t.stride(1.5), lambda: t.size("a"), lambda: t.size(True),\n'
        '      lambda: t.stride((0,)), lambda: t.size([0]), lambda: t.size(torch.tensor(1)), lambda: t.size(-1),\n'
        '      lambda: torch.tensor(1.).size(0.5))'),
    "setitem_returns_none_and_plus_of_bool": TRIES + (
        'c = torch.zeros(3)\n'
        'print(c.__setitem__(0, 1.0), c)\n'
        't = torch.tensor([1., 2.], requires_grad=True)\n'
        'print((+t) is t, +t)\n'
        'tries(lambda: +torch.tensor([True]), lambda: torch.positive(torch.tensor([True])))'),
    "reduction_dims_that_are_not_ints": TRIES + (
        't = torch.tensor([[1., 2.], [3., 4.]])\n'
        'tries(lambda: t.sum(0.5), lambda: torch.sum(t, 0.5), lambda: t.mean(0.5), lambda: t.sum((0, 0.5)),\n'
        '      lambda: t.sum(True), lambda: t.mean((0, True)), lambda: t.sum(torch.tensor(1)),\n'
        '      lambda: t.amax(0.5), lambda: torch.amax(t, "a"), lambda: t.amax(dim=1.0), lambda: t.amax(None),\n'
        '      lambda: t.amin(dim=None, keepdim=True), lambda: t.amax(dtype=torch.int64), lambda: t.nansum(0.5),\n'
        '      lambda: torch.tensor(-1.).amax(0.5), lambda: t.amax((0, True)), lambda: torch.tensor(-1.).amin((0, 0.5)),\n'
        '      lambda: torch.nansum(t, "a"), lambda: t.nanmean(dim=1.0), lambda: t.median(keepdim=True),\n'
        '      lambda: torch.median(t, dtype=torch.int64), lambda: torch.std(t, "a"), lambda: t.var("a"))'),
    "keepdim_without_a_dim": TRIES + (
        't = torch.tensor([[1., float("nan")], [3., 4.]])\n'
        'tries(lambda: t.nansum(keepdim=True), lambda: torch.nansum(t, keepdim=True), lambda: t.nanmean(keepdim=True),\n'
        '      lambda: (t > 0).all(keepdim=True), lambda: torch.any(t > 0, keepdim=True),\n'
        '      lambda: torch.tensor(True).all(keepdim=True))'),
    "empty_reductions_check_order": TRIES + (
        'tries(lambda: torch.tensor([]).amax((0, -1)), lambda: torch.tensor([]).amax((0, 1)),\n'
        '      lambda: torch.zeros(2, 0).amax(-1), lambda: torch.zeros(2, 0).amin((0, 0)),\n'
        '      lambda: torch.zeros(2, 3).amax((0, -2)))\n'
        't = torch.tensor([[], []])\n'
        'print(t.var(0, keepdim=True), t.std(0), t.var(1))'),
    "comparison_functions_given_a_number_first": TRIES + (
        'b = torch.tensor([1, 2])\n'
        'tries(lambda: torch.le(0, b), lambda: torch.ne(2.5, b), lambda: torch.eq(1, b), lambda: torch.greater(2, b),\n'
        '      lambda: torch.not_equal(b, "a"), lambda: torch.less_equal(b, 1), lambda: torch.floor_divide(3, b),\n'
        '      lambda: torch.fmod(2, b))'),
    "slices_of_a_0d_tensor_and_str_indices": TRIES + (
        't = torch.tensor(7.0)\n'
        'tries(lambda: t[::-1], lambda: t[::0], lambda: t[1:], lambda: t["a"], lambda: t.clone().__setitem__("a", 1))'),
    "index_assignment_of_list_of_tuples_and_error_order": TRIES + (
        'c = torch.arange(6).view(3, 2)\n'
        'c[[(0, 1)]] = -1.5\n'
        'print(c)\n'
        'f = torch.zeros(3, 2)\n'
        'f[[(0, 1), (1, 0)]] = 5\n'
        'print(f)\n'
        'tries(lambda: torch.zeros(2, 3).__setitem__([-1], torch.tensor([9, 8])),\n'
        '      lambda: torch.zeros(2, 3, dtype=torch.bool).__setitem__(torch.tensor([False, False]), torch.tensor([9, 8])),\n'
        '      lambda: torch.zeros(2, 3).__setitem__([0, 1], torch.tensor([9, 8, 7])),\n'
        '      lambda: torch.zeros(0, 2).__setitem__([0, 0, 1], torch.tensor([9, 8])),\n'
        '      lambda: torch.zeros(2, 3, 4).__setitem__(([0, 2], [1, 0]), torch.tensor([9, 8])),\n'
        '      lambda: torch.zeros(2, 3, 4).__setitem__(([0, 5], [1, 0]), torch.tensor([9, 8, 7, 6])))'),
    "activations_of_bool_and_unsigned_tensors": TRIES + (
        'import torch.nn.functional as F\n'
        'x = torch.tensor([[1, 0], [1, 1]], dtype=torch.bool)\n'
        'u = torch.tensor([[1, 0], [1, 1]], dtype=torch.uint8)\n'
        'tries(lambda: F.hardtanh(x), lambda: F.relu6(x), lambda: torch.nn.Threshold(0.1, 20)(x),\n'
        '      lambda: F.threshold(x, 0.5, 2), lambda: F.hardtanh(u), lambda: F.relu6(u), lambda: torch.nn.Hardtanh()(u))'),
    "gelu_and_logsigmoid_signed_zeros_and_tails": (
        'import torch.nn.functional as F\n'
        'x = torch.tensor([-0.0, 0.0, -1e-30, -6.0, -5.6, -8.0, -3.0, 2.0, 100.0])\n'
        'print(F.gelu(x), F.gelu(x).tolist())\n'
        'print(F.gelu(x.half()), F.gelu(x.double()), F.gelu(x, approximate="tanh"))\n'
        'print([F.gelu(torch.tensor(v)).item() for v in [-0.0, -3.0, -6.0, 0.7, 2.5, -1e-8]], F.gelu(torch.tensor([-0.0])))\n'
        'y = torch.tensor([[float("nan"), 123456.789, 1e10], [float("inf"), 2.0, 0.5], [-1.0, -0.0, 0.0]])\n'
        'print(F.logsigmoid(y), F.logsigmoid(y.double()), F.logsigmoid(y.half()))'),
    "linspace_errors_list_the_keywords": TRIES + (
        'tries(lambda: torch.linspace((2, 3), dtype=int), lambda: torch.linspace(None, requires_grad=True),\n'
        '      lambda: torch.linspace(0, 1, dtype=torch.float64, device="cpu"),\n'
        '      lambda: torch.linspace(0, 1, steps=3, foo=2, dtype=torch.float32),\n'
        '      lambda: torch.logspace(0, 1, dtype=torch.float64), lambda: torch.linspace(0, 1, 3, dtype=torch.float64))'),
    "unflatten_argument_errors": TRIES + (
        't = torch.zeros(2, 6)\n'
        'tries(lambda: t.unflatten(1, 2, 3), lambda: t.unflatten(1, (2, 3), 5), lambda: t.unflatten(1),\n'
        '      lambda: torch.unflatten(t, 1, 2, 3), lambda: t.unflatten(1, (2, 3)).shape)'),
    "a_half_times_a_number": (
        'b = torch.tensor([2.0, 0.5, 3.0, -1.5, 65504., 1e-4, 0.0999], dtype=torch.float16)\n'
        'for s in [70000, 0.1, 1.0 / 3, -0.7, 3, 1e-5, True, 1e10]:\n'
        '    print(b * s, s * b, b.mul(s), torch.mul(b, s), b + s, b - s)\n'
        'x = torch.tensor([1., 3.], dtype=torch.float16, requires_grad=True)\n'
        'y = x * 0.1 + 0.3\n'
        'y.sum().backward()\n'
        'print(y, x.grad)'),
    "dist_gradients_summed_to_each_input": (
        'a = torch.tensor(1.5, requires_grad=True)\n'
        'b = torch.tensor([0.25, -2.0, 1.0], requires_grad=True)\n'
        'd = torch.dist(a, b)\n'
        'd.backward()\n'
        'print(d, a.grad, b.grad)\n'
        'c = torch.tensor([[1.0], [2.0]], dtype=torch.float64, requires_grad=True)\n'
        'e = torch.dist(c, b.double(), p=1)\n'
        'e.backward()\n'
        'print(e, c.grad, b.grad)'),
    "maximum_and_amax_of_signed_zeros": (
        'for n in [1, 5, 16, 17, 40]:\n'
        '    z, p = torch.full((n,), -0.0), torch.zeros(n)\n'
        '    print(torch.maximum(z, p), torch.maximum(p, z), torch.minimum(z, p), torch.max(z, p))\n'
        'x = torch.tensor([[-0.0, 1.0, 0.0], [0.0, -0.0, -2.0]])\n'
        'print(torch.maximum(x, torch.zeros(3)), torch.maximum(x, torch.zeros_like(x)), torch.minimum(x, -x))\n'
        'for v in [[-0.0, 0.0], [0.0, -0.0], [-1.0, -0.0, 0.0], [0.0] * 17 + [-0.0]]:\n'
        '    t = torch.tensor(v)\n'
        '    print(t.amax(), t.amin(), t.amax(0), t.view(1, -1).amax(1), t.view(-1, 1).amin(0), t.double().amax())\n'
        'a = torch.tensor([-0.5, 4.0, 3.0], requires_grad=True)\n'
        'b = torch.tensor([[0.0], [3.0]])\n'
        'print((b * a).amax(-1))'),
    "clamp_of_bool_tensors": TRIES + (
        'b = torch.tensor([True, False])\n'
        'tries(lambda: b.clamp(True), lambda: b.clamp(max=True), lambda: b.clamp(False, True), lambda: b.clamp(0, 1),\n'
        '      lambda: b.clamp(0.5), lambda: b.clamp_min(True), lambda: b.clamp_max(False), lambda: b.clamp(b, b),\n'
        '      lambda: b.clamp(min=torch.tensor(True)), lambda: b.clone().clamp_(True), lambda: b.clip(max=True), lambda: b)'),
    "one_half_filled_unchecked": TRIES + (
        'tries(lambda: torch.full((), 1e40, dtype=torch.float16), lambda: torch.full((1,), -1e10, dtype=torch.float16),\n'
        '      lambda: torch.full((2,), 1e40, dtype=torch.float16), lambda: torch.full((), 1e300, dtype=torch.float32),\n'
        '      lambda: torch.zeros(1, dtype=torch.float16).new_full((1,), 1e40),\n'
        '      lambda: torch.zeros(1, dtype=torch.float16).fill_(1e40),\n'
        '      lambda: torch.zeros((), dtype=torch.float16).fill_(-1e40),\n'
        '      lambda: torch.zeros(2, dtype=torch.float16).fill_(1e40),\n'
        '      lambda: torch.zeros(1, dtype=torch.float16).fill_(2 ** 70))'),
    "index_assignment_with_false_and_str": TRIES + (
        'c = torch.tensor([1., 2., 3.], requires_grad=True).clone()\n'
        'c[False] = torch.tensor([9., 8.])\n'
        'c[False] = 5\n'
        'print(c, c._version)\n'
        'i = torch.tensor([1, 2, 3])\n'
        'tries(lambda: i.__setitem__("a", float("nan")), lambda: i.__setitem__("a", 1e30), lambda: i.__setitem__("a", 1),\n'
        '      lambda: i.__setitem__(False, "x"), lambda: i)'),
    "logsumexp_of_empty_over_all_dims": TRIES + (
        'x = torch.zeros(2, 0, requires_grad=True)\n'
        'y = x.logsumexp([])\n'
        'y.backward()\n'
        'print(y, x.grad)\n'
        'tries(lambda: torch.tensor([], dtype=torch.float16).logsumexp([]), lambda: torch.ones(2, 2).logsumexp([]),\n'
        '      lambda: torch.ones(2, 2).logsumexp((), keepdim=True))'),
    "integer_scalars_cast_as_c_casts_them": TRIES + (
        'a = torch.tensor([100, -3, 0, 7], dtype=torch.int8)\n'
        'u = torch.tensor([200, 3, 0, 7], dtype=torch.uint8)\n'
        'tries(lambda: a & 300, lambda: a | 300, lambda: 300 ^ a, lambda: torch.bitwise_and(a, -129), lambda: u | 256,\n'
        '      lambda: u >> u, lambda: u >> 9, lambda: u << 9, lambda: a >> 9, lambda: a ** 300, lambda: 300 ** a,\n'
        '      lambda: (-1) ** u, lambda: torch.pow(-1, u), lambda: u ** 256, lambda: a.pow(2))\n'
        'for op in ["&=", "|=", "**=", "//=", "%="]:\n'
        '    for c, v in [(a.clone(), 300), (torch.tensor([True, False]), 0), (torch.tensor([5, 0]), 0)]:\n'
        '        try:\n'
        '            exec("c %s v" % op)\n'
        '            print(c)\n'
        '        except Exception as e:\n'
        '            print(op, type(e).__name__, e)'),
    "half_tensor_floor_divided_by_half_tensor": (
        'a = torch.tensor([65000., 1.5, -2.25, 7.7, 100.3, -0.1, 0., -0., 5., 3.], dtype=torch.float16)\n'
        'b = torch.tensor([7., 3, 5, 0.3, -3.3, 0.07, 2., 2., 0., -0.], dtype=torch.float16)\n'
        'print(a // b, b // a, a // 7, torch.floor_divide(a, b), a.float() // b.float())'),
    "in_place_shape_then_cast_checks": (
        'a = torch.tensor([[[-3, 1, 1]], [[7, 1, 1]]])\n'
        'for c0, op in [(torch.tensor([True, False, False]), "%="), (torch.tensor(-128), "//="),\n'
        '               (torch.tensor([1, 2, 3]), "&="), (torch.tensor([True, False, True]), "//="),\n'
        '               (torch.tensor([1, 2, 3]), ">>=")]:\n'
        '    for v in [a, torch.tensor([0.5]), torch.tensor([1, 2]), 1.5, 0]:\n'
        '        c = c0.clone()\n'
        '        try:\n'
        '            exec("c %s v" % op)\n'
        '            print(c)\n'
        '        except Exception as e:\n'
        '            print(op, type(e).__name__, e)\n'
        'c = torch.arange(4)\n'
        'for v in [float("nan"), "x", torch.tensor([1, 2]), 5]:\n'
        '    try:\n'
        '        c[False] = v\n'
        '        print(c, c._version)\n'
        '    except Exception as e:\n'
        '        print(type(e).__name__, e)'),
    "medians_of_bool_tensors": TRIES + (
        'tries(lambda: torch.tensor(True).median(0), lambda: torch.tensor(True).kthvalue(1),\n'
        '      lambda: torch.tensor(True).nanmedian(0), lambda: torch.tensor([True, False]).nanmedian(),\n'
        '      lambda: torch.tensor([True]).nanmedian(0), lambda: torch.tensor([True, False]).median(0),\n'
        '      lambda: torch.tensor([1, 3, 2]).nanmedian(0))\n'
        'for d in [torch.int64, torch.int32, torch.int16, torch.int8, torch.uint8, torch.bool, torch.float16]:\n'
        '    e = torch.zeros(0, dtype=d)\n'
        '    print(e.median(), e.nanmedian())'),
    "power_by_a_tensor_half": (
        'b = torch.tensor([-0.0, 4.0, -1.0, -float("inf")], dtype=torch.float64)\n'
        'print(b ** 0.5, b ** torch.tensor(0.5, dtype=torch.float64), b.float() ** torch.tensor(0.5), b.float() ** 0.5,\n'
        '      torch.tensor(-0.) ** torch.tensor(0.5), (-0.0) ** torch.tensor([0.5, 0.5]), b.half() ** torch.tensor(0.5))\n'
        'x = torch.tensor([-0.0, 4.0], requires_grad=True)\n'
        'y = x ** torch.tensor(0.5)\n'
        'y.sum().backward()\n'
        'print(y, x.grad)'),
    "bool_tensor_from_tensor_elements": TRIES + (
        'tries(lambda: torch.tensor([torch.tensor(1.0), torch.tensor(2.0)], dtype=torch.bool),\n'
        '      lambda: torch.tensor([torch.tensor([1, 2])], dtype=torch.bool),\n'
        '      lambda: torch.tensor([torch.tensor(1)], dtype=torch.bool),\n'
        '      lambda: torch.tensor([torch.tensor(True), 0], dtype=torch.bool),\n'
        '      lambda: torch.tensor([torch.tensor(1.5)], dtype=torch.int64))'),
    "no_grad_view_keeps_requiring_grad_through_its_base": (
        'x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)\n'
        'with torch.no_grad():\n'
        '    y = x.view(-1)\n'
        'y.requires_grad = False\n'
        'print(y.requires_grad, x.requires_grad, x, y)\n'
        'y.requires_grad_(False)\n'
        'x.requires_grad_(False)\n'
        'print(y.requires_grad, x.requires_grad)\n'
        'x2 = torch.tensor([0.5, -1.5], requires_grad=True)\n'
        'with torch.no_grad():\n'
        '    y2 = x2.view(-1)\n'
        '    x2.add_(1)\n'
        'y2.requires_grad = False\n'
        'print(y2.requires_grad, y2.is_leaf)\n'
        'v = torch.tensor([1.0, 2.0]).detach()[0:1]\n'
        'v.requires_grad_()\n'
        'v.requires_grad_(False)\n'
        'print(v.requires_grad)'),
}


# Signs of zero and tails that PyTorch's own gelu gives differently on CPUs other than the engine's (see harness)
KERNEL_SIGNS = {"gelu_and_logsigmoid_signed_zeros_and_tails"}


@pytest.mark.parametrize("name", SNIPPETS)
def test_snippet(name):
    if name in KERNEL_SIGNS:
        harness.skip_unless_engine_cpu("gelu's signs of zero")
    code = SNIPPETS[name]
    t, e = run_both(T, E, code)
    assert same(t, e), f"\n{code}\n--- torch\n{t.summary()}--- engine\n{e.summary()}"
