"""Operators and functions given every kind of operand learners pass (Python ints beyond int64, numbers that do not
fit the dtype, lists, tuples, None, strings and numpy arrays where a tensor or a number belongs, tensors requiring
grad as keyword operands of in-place ops) against real PyTorch: printed text, warnings and the final error must be
the same."""
import pytest

T = pytest.importorskip("torch", reason="differential tests need real PyTorch (pip install torch==2.13.0)")
from .harness import TRIES, load_engine, run_both, same  # noqa: E402

E = load_engine()

SNIPPETS = {
    # a Python int of 2**63 or more takes part in promotion as uint64, which PyTorch does not promote with bool or
    # another integer type (an integer tensor keeps its dtype; a float one takes it as a float)
    "ints_beyond_int64_promote_as_uint64": (
        'b = torch.tensor([True, False]); i = torch.tensor([1, 2], dtype=torch.int16)\n'
        'tries(lambda: b + 2**63, lambda: 2**63 * b, lambda: b == 2**63, lambda: b & 2**63, lambda: b.add_(2**63),\n'
        '      lambda: torch.where(b, 2**63, 1), lambda: torch.where(b, 1, 2**63),\n'
        '      lambda: torch.where(b, 2**63, 1.5),\n'
        '      lambda: torch.result_type(b, 2**63), lambda: torch.result_type(2**63, 2), lambda: b.clamp(max=2**63),\n'
        '      lambda: i + 2**63, lambda: i.float() * 2**63, lambda: 2**63 - b, lambda: torch.rsub(b, 2**63))'),
    # pow of an integer (or bool) base reads a number exponent as an int64 first, to refuse negative ones
    "int_base_to_an_exponent_beyond_int64": (
        'for d in (torch.bool, torch.uint8, torch.int32, torch.int64, torch.float16):\n'
        '    x = torch.tensor([1, 2], dtype=d)\n'
        '    tries(lambda: x ** 2**63, lambda: x.pow(2**62), lambda: x ** 2**64, lambda: x ** -1)'),
    # add / sub's alpha: a Scalar (ints in int64 or uint64's range), converted to the result's dtype with a check
    # (sub converts -alpha), an int wrapping into an unsigned dtype
    "alpha_converted_to_the_result_dtype": (
        'h = torch.tensor([1., 2.], dtype=torch.half); u = torch.tensor([1, 2], dtype=torch.uint8)\n'
        'i = torch.tensor([1, 2]); f = torch.tensor([1., 2.])\n'
        'tries(lambda: h.add(1, alpha=1e6), lambda: h.sub(h, alpha=70000), lambda: f.add(1, alpha=1e40),\n'
        '      lambda: f.add(1, alpha=2**200), lambda: f.add(1, alpha=2**63), lambda: f.sub(f, alpha=2**64),\n'
        '      lambda: u.add(1, alpha=-1), lambda: u.sub(1, alpha=255), lambda: u.sub(1, alpha=300),\n'
        '      lambda: i.add(1, alpha=2**63), lambda: i.sub(1, alpha=2**63), lambda: i.add(2**63 - 1, alpha=3),\n'
        '      lambda: i.add_(1, alpha=-2**64), lambda: i.int().add(1, alpha=2**40),\n'
        '      lambda: torch.rsub(u, 1, alpha=300),\n'
        '      lambda: torch.tensor([True]).add(True, alpha=2), lambda: torch.add(i.short(), 3, alpha=2**20))'),
    # a list, tuple, None, string or numpy array where a tensor or a number belongs: the argument parser's error,
    # listing the op's signatures (aliases and in-place forms by their own names; a list by its elements' types)
    "binary_methods_given_what_is_not_a_tensor_or_a_number": (
        'import numpy as np\n'
        'a = torch.tensor([1.5, -2.0, 4.0])\n'
        'for b in ([1, 2, 0], (2,), None, "x", np.array([1, 2, 0])):\n'
        '    tries(lambda: a.div_(b, rounding_mode="floor"), lambda: a.true_divide_(b), lambda: a.remainder_(b),\n'
        '          lambda: a.fmod_(b), lambda: a.floor_divide_(b), lambda: a.pow_(b), lambda: a.multiply(b),\n'
        '          lambda: a.subtract_(b), lambda: a.divide(b, rounding_mode="trunc"), lambda: a.greater_(b),\n'
        '          lambda: a.bitwise_and(b), lambda: torch.bitwise_xor(b, a), lambda: torch.bitwise_left_shift(a, b),\n'
        '          lambda: torch.multiply(b, a), lambda: torch.divide(a, b), lambda: torch.subtract(b, a))\n'
        '    print(a)'),
    # ops that took a list or an array as if it were a tensor: PyTorch's parser refuses it
    "ops_that_took_a_list_as_a_tensor": (
        'import numpy as np\n'
        'a = torch.tensor([1.5, -2.0, 4.0])\n'
        'for b in ([1, 2, 0], np.array(2.0), None):\n'
        '    tries(lambda: a.clamp_min(b), lambda: a.clamp_max_(b), lambda: torch.clamp_min(b, a),\n'
        '          lambda: a.xlogy(b), lambda: torch.xlogy(b, a), lambda: a.copysign_(b), lambda: a.float_power(b),\n'
        '          lambda: torch.float_power(b, a))\n'
        '    print(a)\n'
        'tries(lambda: torch.rsub(2, a), lambda: torch.rsub(np.float32(2), a))'),
    # clamp_min / clamp_max's number bound converted to the tensor's dtype as clamp's is (uint8 takes -1 as 255)
    "clamp_min_max_number_bounds_in_the_dtype": (
        'u = torch.tensor([7, 2, 0], dtype=torch.uint8)\n'
        'tries(lambda: u.clamp_min(-1), lambda: u.clamp_max(300), lambda: u.clamp_max_(-2),\n'
        '      lambda: torch.tensor([1, 2], dtype=torch.int8).clamp_min(200),\n'
        '      lambda: torch.tensor([1.]).clamp_max(1e300),\n'
        '      lambda: torch.tensor([1.], dtype=torch.half).clamp_min(7e4),\n'
        '      lambda: torch.tensor([1, 2]).clamp_min(2**63))\n'
        'print(u)'),
    # in-place ops whose cast check comes before the kernel: autograd's leaf check first, then shapes, then the
    # cast; a rounding div_ or hypot_ checks the cast before dividing by zero or refusing integers
    "inplace_checks_in_order": (
        'w = torch.tensor([1.5, -2.0, 4.0], requires_grad=True)\n'
        'b = torch.tensor([True, False])\n'
        'tries(lambda: w.__ifloordiv__(torch.ones(2, 3)), lambda: w.__imod__(torch.ones(2, 3)),\n'
        '      lambda: w.fmod_(torch.ones(2, 3)), lambda: b.div_(0, rounding_mode="floor"),\n'
        '      lambda: b.div_(torch.tensor([1, 0]), rounding_mode="trunc"),\n'
        '      lambda: b.div_(True, rounding_mode="floor"),\n'
        '      lambda: b.hypot_(torch.tensor([1, 2])), lambda: torch.tensor([1, 2]).hypot_(torch.tensor([1, 2])),\n'
        '      lambda: torch.tensor([4, 2]).div_(0, rounding_mode="floor"))\n'
        'print(w, b)'),
    # an in-place op given a tensor that requires grad by keyword (clamp_'s bounds): recorded as by position
    "inplace_keyword_operand_requiring_grad": (
        'lo = torch.tensor([1., 2., 3.], requires_grad=True)\n'
        'for x in (torch.tensor([1.5, -2.0, 4.0]), torch.tensor([[1.5, -2.0, 4.0], [0.5, 1., 2.]]).t()[:, 0]):\n'
        '    y = x.clamp_(min=lo)\n'
        '    print(y, y.grad_fn, x._version)\n'
        '    y.sum().backward(); print(lo.grad); lo.grad = None\n'
        'x = torch.tensor([1.5, -2.0, 4.0])\n'
        'x.clamp_(max=lo * 2).mul(3).sum().backward(); print(x, lo.grad)'),
    # fmax / fmin keep self on ties (signed zeros), as PyTorch's kernel does at every width
    "fmax_fmin_ties_keep_self": (
        'a = torch.tensor([0., -0., 0., -0.] * 5); b = torch.tensor([-0., 0., 0., -0.] * 5)\n'
        'u = torch.tensor([0, 3], dtype=torch.uint8)\n'
        'for r in (torch.fmax(a, b), torch.fmin(a, b), torch.fmax(torch.tensor(-0.), u), a.double().fmax(b),\n'
        '          torch.fmin(b.half(), a)):\n'
        '    print(r, r.signbit())'),
    # torch.* binary functions called with keywords: hypot / fmax / logaddexp / arctan2 take input= (and heaviside's
    # values=), comparisons and logical ops refuse a wrong operand with the keyword in PyTorch's text
    "binary_functions_by_keyword": (
        'import numpy as np\n'
        't = torch.tensor([1.5, -2.0, 0.5]); u = torch.tensor([1., 2., 3.])\n'
        'for f in (torch.hypot, torch.fmax, torch.fmin, torch.logaddexp, torch.logaddexp2, torch.arctan2):\n'
        '    tries(lambda: f(input=t, other=u), lambda: f(t, other=u))\n'
        'tries(lambda: torch.heaviside(input=t, values=u), lambda: torch.heaviside(input=t, other=u))\n'
        'for x in (2, np.array([1., 2.]), None):\n'
        '    tries(lambda: torch.eq(x, other=t), lambda: torch.greater(input=t, other=x),\n'
        '          lambda: torch.lt(t, other=x),\n'
        '          lambda: torch.logical_and(t, other=x), lambda: torch.fmax(input=t, other=x))'),
    # clamp with both bounds tensors: its backward makes each mask in place, so a bound that broadcasts x further
    # than the first comparison's shape fails there (only for the gradients wanted)
    "clamp_backward_with_bounds_broadcasting_further": (
        'x = torch.tensor([1.5, -2., 0.5], requires_grad=True)\n'
        'col = torch.tensor([[0.], [1.]]); half = torch.tensor(0.5, requires_grad=True)\n'
        'for lo, hi in ((torch.tensor(0.5), col), (col, half), (col, torch.tensor([[2.], [3.]])), (half, col)):\n'
        '    r = torch.clamp(x, lo, hi)\n'
        '    tries(lambda: r.sum().backward(), lambda: x.grad, lambda: half.grad)\n'
        'r = torch.clamp(torch.tensor([3, -2, 1]), col, half)\n'
        'tries(lambda: r.sum().backward(), lambda: half.grad)'),
    # torch.inner / Tensor.inner take tensors alone (a number is refused, a 0-d tensor multiplies)
    "inner_takes_tensors_alone": (
        'import numpy as np\n'
        'a = torch.ones(2)\n'
        'tries(lambda: torch.inner(a, 2), lambda: a.inner(2.5), lambda: torch.inner(2, a), lambda: a.inner([1, 2]),\n'
        '      lambda: torch.inner(a, np.float64(2)), lambda: torch.inner(a, torch.tensor(2.)), lambda: a.inner(a))'),
    # `t[i] = value` takes tensors and Python numbers (numpy's ints, float64 and complex128 among them), not numpy's
    # float32 / float16 / bool scalars or arrays
    "assign_numpy_scalars": (
        'import numpy as np\n'
        't = torch.zeros(3); i = torch.zeros(3, dtype=torch.long); b = torch.zeros(3, dtype=torch.bool)\n'
        'for v in (np.float32(1.5), np.float16(2.5), np.bool_(True), np.float64(1.5), np.int32(3), np.uint8(7),\n'
        '          np.complex64(1), np.complex128(2), np.array(1.5), np.array([1.5])):\n'
        '    for x in (t, i, b):\n'
        '        for key in (0, slice(0, 2), torch.tensor([True, False, True])):\n'
        '            def f():\n'
        '                x[key] = v\n'
        '                return x\n'
        '            tries(f)'),
    # torch functions that take a number as their tensor input, given two numbers: computed in the numbers' result
    # type (a float one the default float32), bools refused by sub first
    "torch_functions_given_two_numbers": (
        'import numpy as np\n'
        'for a, b in ((2.5, 2), (2, 3), (np.float32(2), 2), (True, 2), (True, False),\n'
        '             (np.float64(1.5), np.int64(2))):\n'
        '    for f in (torch.add, torch.sub, torch.mul, torch.div, torch.true_divide, torch.multiply, torch.subtract,\n'
        '              torch.floor_divide, torch.remainder):\n'
        '        tries(lambda: f(a, b))\n'
        '    tries(lambda: torch.add(a, b, alpha=2), lambda: torch.div(a, b, rounding_mode="floor"),\n'
        '          lambda: torch.div(a, b, rounding_mode="trunc"), lambda: torch.mul(a, b).dtype)'),
    # a half tensor times or divided by a number or a 0-d tensor (its second operand): PyTorch's kernels take that
    # value as a float, not rounded to half first, out of place and in place alike
    "half_times_or_over_a_number": (
        'a = torch.tensor([1., 0., 3., 1e-4, 65504.], dtype=torch.half)\n'
        'for b in (70000., 1e10, 3.3333333, 1e-8, 70000, torch.tensor(70000.),\n'
        '          torch.tensor(1e10, dtype=torch.float64), torch.tensor(7, dtype=torch.int64)):\n'
        '    c = a.clone(); c *= b; d = a.clone(); d /= b\n'
        '    print(a * b, a / b, b * a, torch.div(a, b), c, d)\n'
        '    with torch.no_grad():\n'
        '        c = a.clone(); c *= b; d = a.clone(); d.div_(b); print(c, d)\n'
        'w = torch.tensor([1e-4, 0., 3.], dtype=torch.half, requires_grad=True)\n'
        '(w * 70000.).sum().backward(); print(w.grad)\n'
        'w.grad = None; (w / 1e-8).sum().backward(); print(w.grad)'),
    # numbers written into a dtype by c10's checked conversion: index_fill's value, clamp's bound into an integer
    # tensor's float result, any int into a bool (nonzero), ints beyond uint64 refused as Scalars first
    "numbers_converted_with_checks": (
        'i8 = torch.tensor([1, 0, 3], dtype=torch.int8); u8 = i8.byte(); h = i8.half(); b = i8.bool()\n'
        'k = torch.tensor([0])\n'
        'tries(lambda: i8.index_fill(0, k, 128), lambda: u8.index_fill(0, k, -1),\n'
        '      lambda: h.index_fill(0, k, 2**31),\n'
        '      lambda: i8.index_fill(0, k, 2**64), lambda: i8.index_fill(0, k, 2.5),\n'
        '      lambda: u8.index_fill_(0, k, 256),\n'
        '      lambda: i8.clamp(max=1e40), lambda: i8.clamp(min=-1e308), lambda: u8.clamp(max=1e300),\n'
        '      lambda: torch.full((2,), 2**64 - 1, dtype=torch.bool), lambda: b.new_full((2,), 2**64 - 1),\n'
        '      lambda: b.clone().fill_(2**64 - 1), lambda: torch.where(b, b, 2**64), lambda: h.clamp(max=2**64),\n'
        '      lambda: torch.where(b, h, 2**64 - 1), lambda: u8.clamp(max=2**64 - 1))'),
    # other objects where a tensor or a number belongs: named by their C type's full name (decimal.Decimal) or a
    # Python class's name (numpy's matrix); a 0-d array is no Scalar for masked_fill / index_fill / lerp; == takes
    # any numpy array subclass's values
    "odd_operands_named_and_refused": (
        'import numpy as np, decimal, collections\n'
        't = torch.tensor([1.5, -2., 0.5])\n'
        'for o in (decimal.Decimal("1.5"), np.matrix([[1., 2., 3.]]), collections.OrderedDict(), np.array(2.0)):\n'
        '    tries(lambda: torch.add(t, o), lambda: t.mul_(o), lambda: t.clamp(min=o),\n'
        '          lambda: torch.where(t > 0, t, o), lambda: t.masked_fill(t > 0, o),\n'
        '          lambda: t.index_fill(0, torch.tensor([0]), o), lambda: t.lerp(t, o),\n'
        '          lambda: torch.full((2,), o), lambda: torch.tensor(o), lambda: t == o)\n'
        'tries(lambda: torch.tensor([decimal.Decimal(1)]), lambda: torch.tensor(np.str_("a")),\n'
        '      lambda: t.fill_(np.array(3.)))'),
    # masked_fill's checks in PyTorch's order: out of place the mask broadcasts first (both are expanded before
    # masked_fill_ runs on a clone), then the value's dims, then the mask's dtype; in place autograd's, the value's,
    # the mask's, then the broadcast (self named first)
    "masked_fill_check_order": (
        'z = torch.zeros(2); m3 = torch.tensor([True, False, True]); u3 = m3.byte(); u2 = torch.tensor([1, 0]).byte()\n'
        'w = torch.zeros(2, requires_grad=True)\n'
        'for f in (z.masked_fill, z.masked_fill_):\n'
        '    tries(lambda: f(m3, 1.), lambda: f(u3, 1.), lambda: f(u3, torch.ones(2)), lambda: f(u2, torch.ones(2)),\n'
        '          lambda: f(m3, torch.ones(2)), lambda: f(u2, 1.), lambda: f(u2, torch.tensor(1.)))\n'
        'tries(lambda: w.masked_fill_(u3, torch.ones(2)), lambda: w.masked_fill(u3, torch.ones(2)))'),
    # clamp by tensor bounds is maximum / minimum with them: where x ties a bound in a zero of the other sign,
    # PyTorch's vector loop gives the bound and its scalar tail x (number bounds keep x)
    "clamp_by_tensors_on_signed_zero_ties": (
        'a = torch.tensor([-0., 0.] * 10); b = torch.tensor([0., -0.] * 10)\n'
        'for r in (torch.clamp(a, min=b), torch.clamp(a, max=b), torch.clamp_min(a, b), torch.clamp_max(a, b),\n'
        '          torch.clamp(a, b, b), torch.clamp(a, min=b[:1]), a.clamp(min=0.), a.clone().clamp_(min=b),\n'
        '          torch.clamp(a.double(), min=b.double()), torch.clamp(a.half(), max=b.half())):\n'
        '    print(r.signbit().int().tolist())'),
    # a half tensor floor- or trunc-divided by a number or a 0-d tensor: in float, by the number's own value (not
    # rounded to half first), as PyTorch's div_floor / div_trunc kernels take a scalar divisor
    "half_floor_and_trunc_division_by_a_number": (
        'a = torch.tensor([1., -7., 3., 1e-4, 65504., 0.3333], dtype=torch.half)\n'
        'for n in (1e-5, 0.1, 1e-8, -2.7, torch.tensor(0.1), torch.tensor(0.37, dtype=torch.half)):\n'
        '    c = a.clone(); c //= n\n'
        '    print(a // n, torch.div(a, n, rounding_mode="floor"), torch.div(a, n, rounding_mode="trunc"), c,\n'
        '          a.clone().div_(n, rounding_mode="trunc"))'),
    # an integer tensor divided in place by a tensor holding a zero: PyTorch's kernel has written the elements before
    # the zero (in self's memory order) when it raises ZeroDivisionError, without a new version (none when it
    # computes in another dtype, int32 by int64)
    "integer_division_in_place_stops_at_a_zero": (
        'for op in ("remainder_", "fmod_", "__ifloordiv__", "__imod__"):\n'
        '    a = torch.arange(5, 10); b = torch.arange(10, 50).reshape(4, 10); c = b.clone().reshape(10, 4).t()\n'
        '    for x, d in ((a, torch.tensor([2, 3, 0, 1, 0])), (b, torch.tensor([1, 2, 3, 0, 5, 6, 7, 8, 9, 1])),\n'
        '                 (c, torch.tensor([1, 2, 3, 0, 5, 6, 7, 8, 9, 1])), (a.clone(), torch.tensor(0)),\n'
        '                 (a.int(), torch.tensor([2, 3, 0, 1, 0]))):\n'
        '        tries(lambda: getattr(x, op)(d))\n'
        '        print(x, x._version)\n'
        'a = torch.tensor([[-7, 8], [9, -10]]).t()\n'
        'tries(lambda: a.div_(torch.tensor([[2, 3], [0, 1]]), rounding_mode="floor")); print(a)'),
}


@pytest.mark.parametrize("name", SNIPPETS)
def test_snippet(name):
    code = TRIES + SNIPPETS[name]
    t, e = run_both(T, E, code)
    assert same(t, e), f"\n{code}\n--- torch\n{t.summary()}--- engine\n{e.summary()}"
