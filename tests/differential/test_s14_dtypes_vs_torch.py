"""dtypes as beginners meet them, against real PyTorch: promotion of int, bool, float32 / float64 tensors and Python
numbers in arithmetic and comparisons (an int wraps into the tensor's dtype, a float compares in float32), integer
division and its errors, bitwise ops and their in-place forms, in-place ops that cannot cast, reductions and index
dtypes, conversions, the default dtype, huge ints, float16's mean, finfo / iinfo, can_cast / promote_types. Printed
text, warnings and the final error must be the same."""
import pytest

T = pytest.importorskip("torch", reason="differential tests need real PyTorch (pip install torch==2.13.0)")
from .harness import load_engine, run_both, same  # noqa: E402

E = load_engine()

_OPS_LOOP = (
    "for x in operands:\n"
    "    for y in operands + [1, 2.5, True, -3]:\n"
    "        for op in ['+', '-', '*', '/', '//', '%', '**', '<', '==']:\n"
    "            try:\n"
    "                r = eval('x %s y' % op); print(op, r, r.dtype)\n"
    "            except Exception as e:\n"
    "                print(op, type(e).__name__, e)\n")

_EXPRESSIONS = (
    "for code in codes:\n"
    "    try:\n"
    "        r = eval(code); print(code, r, getattr(r, 'dtype', None))\n"
    "    except Exception as e:\n"
    "        print(code, type(e).__name__, e)\n")

SNIPPETS = {
    "promotion_table": (
        "operands = [torch.tensor([1, -2, 3]), torch.tensor([1.5, -2.5, 3.]), torch.tensor([True, False, True]),\n"
        "            torch.tensor([1., 2., 3.], dtype=torch.float64), torch.tensor([1, 2, 3], dtype=torch.int32),\n"
        "            torch.tensor([250, 3, 7], dtype=torch.uint8), torch.tensor(2), torch.tensor(0.5, dtype=torch.float64)]\n"
        + _OPS_LOOP),
    "number_first_operands": (
        "for t in [torch.tensor([1, 2, 3]), torch.tensor([1.5, -2.5, 3.]), torch.tensor([True, False, True])]:\n"
        "    for x in [1, 2.5, True]:\n"
        "        for op in ['+', '-', '*', '/', '//', '%', '**', '<', '==']:\n"
        "            try:\n"
        "                r = eval('x %s t' % op); print(op, r, r.dtype)\n"
        "            except Exception as e:\n"
        "                print(op, type(e).__name__, e)\n"),
    "bool_division_errors": (
        "b = torch.tensor([True, False, True])\n"
        "codes = ['b // b', 'b % b', 'b // True', 'b % True', 'True // b', 'torch.fmod(b, b)', 'torch.fmod(b, True)',\n"
        "         \"torch.div(b, b, rounding_mode='floor')\", \"torch.div(b, True, rounding_mode='trunc')\",\n"
        "         'torch.remainder(True, b)', 'b // 2', 'b % 2.0', 'torch.fmod(b, 2.)', 'b / b']\n" + _EXPRESSIONS),
    "integer_division_negatives_and_zero": (
        "a = torch.tensor([-7, 7, -7, 7, 0]); c = torch.tensor([2, -2, -2, 2, 3])\n"
        "print(a // c, a % c, torch.fmod(a, c), torch.div(a, c, rounding_mode='trunc'), a / c)\n"
        "af, cf = a.float(), c.float(); print(af // cf, af % cf, torch.fmod(af, cf), af / 0, af // 0, af % 0)\n"
        "print(a // 2.5, a % 2.5, torch.fmod(a, -2.5), a % -3, a // -3, -7 // c, 7.5 % c)\n"
        "codes = ['a // 0', 'a % 0', 'torch.fmod(a, 0)', \"torch.div(a, 0, rounding_mode='trunc')\", 'a / 0',\n"
        "         '5 // torch.tensor([0, 1])', 'a // torch.tensor(0.)']\n" + _EXPRESSIONS),
    "int_pow_negative_exponents": (
        "print(torch.tensor([0, 1, -1, 2, -1, 0]) ** torch.tensor([-1, -5, -3, -1, -4, 0]), 2 ** torch.tensor([-1, 2]))\n"
        "print((-1) ** torch.tensor([-3, -2]), torch.tensor([2], dtype=torch.int8) ** torch.tensor(-1))\n"
        "print(torch.tensor([3]) ** torch.tensor(-2.), torch.tensor([2, 3]) ** 2)\n"
        "torch.tensor([2]) ** -1"),
    "comparisons_in_result_dtype": (
        "x = torch.tensor([1, 2]); y = torch.tensor([16777217, 3]); z = torch.tensor([1, 2], dtype=torch.int32)\n"
        "u = torch.tensor([1, 255], dtype=torch.uint8); f = torch.tensor([0.1, 1.0])\n"
        "codes = ['x < 2**63', 'x == 2**63', 'x < 2**64', 'x > -2**63 - 1', 'y == 16777216.0', 'z == 2**32 + 1',\n"
        "         'u == -1', 'u < 256', 'u > -1', 'f == 0.1', 'f.double() == 0.1', 'torch.tensor(0.1, dtype=torch.float64) == f',\n"
        "         'torch.tensor([2], dtype=torch.int8) < 200', 'x.lt(2**64)', 'torch.tensor([True, False]) == 2',\n"
        "         'torch.tensor([True, False]) < 0.5', 'x == 1.0', 'x < 1.5', 'x.eq(torch.tensor([1., 2.5]))']\n"
        + _EXPRESSIONS),
    "bitwise": (
        "i = torch.tensor([1, 2, 3]); f = torch.tensor([1.5, 2.5]); b = torch.tensor([True, False])\n"
        "codes = ['i & 3', 'i | b', 'b ^ b', '~i', '~b', 'i << 2', '-i >> 1', 'b & True', 'b | 1', '3 & i', '~f', 'f & 1',\n"
        "         'i & 1.5', 'b << 1', 'b << b', 'b >> b', 'i << 64', 'i >> 70', 'torch.bitwise_xor(i, f[:1])',\n"
        "         'torch.bitwise_left_shift(2, i)', 'torch.bitwise_right_shift(i, 1)', 'torch.logical_or(i, f)',\n"
        "         'torch.tensor([1, 2], dtype=torch.int8) << 7']\n" + _EXPRESSIONS),
    "inplace_that_cannot_cast": (
        "for code in ['i += 1.5', 'i *= 0.5', 'i /= 2', 'i //= 2.0', 'b += 1', 'b *= 2', 'b += True', 'b -= True',\n"
        "             'i += torch.tensor(1.5)', 'i &= 1.5', 'i |= torch.tensor([1.5])', 'i <<= 1.5', 'b &= 1.5', 'b |= 2',\n"
        "             'f &= 1', 'f //= 2', 'f += i[:2]', 'i.add_(1, alpha=0.5)', 'i.clamp_(0.5, 2)', 'i.clamp_min_(0.5)',\n"
        "             'i.int().clip_(0.5)', 'i.byte().clamp_max_(1.5)', 'b.clamp_(0.5)', 'i.clamp_(max=torch.tensor(0.5))',\n"
        "             'i.clamp_(0, 2)', 'i.fill_(2.7)', 'i.copy_(torch.tensor([1.9, -1.9, 2.5]))', 'i.logical_not_()',\n"
        "             'f.logical_and_(torch.tensor([1, 0]))', 'b.bitwise_not_()', 'i.bitwise_not_()', 'f.bitwise_not_()',\n"
        "             'i.logical_and_(1)']:\n"
        "    i = torch.tensor([1, 2, 3]); f = torch.tensor([1.5, 2.5]); b = torch.tensor([True, False])\n"
        "    try:\n"
        "        exec(code); print(code, i, f, b)\n"
        "    except Exception as e:\n"
        "        print(code, type(e).__name__, e)\n"),
    "reductions_and_index_dtypes": (
        "i = torch.tensor([[1, 2], [3, 4]]); b = torch.tensor([True, False, True])\n"
        "i32 = torch.tensor([1, 2], dtype=torch.int32); u8 = torch.tensor([200, 100], dtype=torch.uint8)\n"
        "codes = ['i.sum()', 'b.sum()', 'i32.sum()', 'u8.sum()', 'u8.prod()', 'b.cumsum(0)', 'i32.cumsum(0)', 'i.mean()',\n"
        "         'b.mean()', 'i.mean(dtype=torch.float64)', 'i.argmax()', 'i.max(0)', 'b.max()', 'b.sort()', 'u8.argsort()',\n"
        "         'i32.sort(descending=True)', 'i.softmax(0)', 'i.softmax(1)', 'i.log_softmax(0)', 'i.std()',\n"
        "         'torch.ones(2, 3, 1, dtype=torch.int32).softmax(1)']\n" + _EXPRESSIONS),
    "half_mean_sums_as_float": (
        "h = torch.tensor([[60000., 60000.], [0.1, 0.2]], dtype=torch.float16)\n"
        "print(h.mean(), h.mean(0), h.mean(1, keepdim=True), h.float().mean(dtype=torch.float16), h.sum(1))\n"
        "x = torch.tensor([0.1, 0.7, 0.3], dtype=torch.float16, requires_grad=True); m = x.mean(); print(m, m.grad_fn)\n"
        "m.backward(); print(x.grad)"),
    "conversions_and_type_strings": (
        "x = torch.tensor([1.7, -2.3, 0.5]); i = torch.tensor([1, -2, 300])\n"
        "codes = ['x.long()', 'x.int()', 'x.half()', 'x.bool()', 'x.byte()', 'x.char()', 'x.short()', 'i.byte()',\n"
        "         'x.to(torch.int32)', 'x.type(torch.IntTensor)', 'x.type()', 'i.int().type()', \"x.type('torch.DoubleTensor')\",\n"
        "         'x.dtype == torch.float', 'torch.float is torch.float32', 'x.float() is x', 'torch.LongTensor([1.7, 2])',\n"
        "         'isinstance(i, torch.LongTensor)', 'torch.tensor([1], dtype=float)', 'torch.tensor([1.5]).to(int)',\n"
        "         'torch.tensor([1.5, 2.5, -1.5, -2.5]).long()', 'torch.tensor([16777217]).float().long()']\n"
        + _EXPRESSIONS),
    "default_dtype_float64": (
        "torch.set_default_dtype(torch.float64)\n"
        "try:\n"
        "    print(torch.get_default_dtype(), torch.tensor([1.5]), torch.tensor([1, 2.5]), torch.arange(0, 1, 0.25))\n"
        "    print(torch.linspace(0, 1, 3), torch.zeros(2), torch.tensor([1, 2]) / 2, torch.tensor([1.5], dtype=torch.float32))\n"
        "    print(torch.tensor([1.5]).type(), torch.tensor([True]) + 0.5, torch.finfo().eps)\n"
        "finally:\n"
        "    torch.set_default_dtype(torch.float32)\n"
        "print(torch.tensor([1.5]))\n"
        "torch.set_default_dtype(torch.int64)"),
    "inference_and_truncation": (
        "codes = ['torch.tensor([1, 2.5])', 'torch.tensor([True, 2])', 'torch.tensor(3.7, dtype=torch.int64)',\n"
        "         'torch.tensor([3.7, -0.5], dtype=torch.long)', 'torch.tensor([1/3, 1000.7, 70000], dtype=torch.half)',\n"
        "         'torch.tensor([1, 2], dtype=torch.int32)', 'torch.tensor([], dtype=torch.int32)', 'torch.tensor(-1, dtype=torch.uint8)',\n"
        "         'torch.tensor([250, 3], dtype=torch.uint8) + 10', 'torch.tensor([1, 2], dtype=torch.int8) + 200']\n"
        + _EXPRESSIONS),
    "huge_ints": (
        "codes = ['torch.tensor([2**63])', 'torch.tensor([1, 2**63])', 'torch.tensor([[1], [2**63]])',\n"
        "         'torch.tensor([1.5, 2**63])', 'torch.tensor([1, 2**63], dtype=torch.float32)', 'torch.tensor([1, 2**63], dtype=torch.bool)',\n"
        "         'torch.tensor([1.5, 2**63], dtype=torch.int64)', 'torch.tensor([-2**63 - 1, 1], dtype=torch.uint8)',\n"
        "         'torch.tensor([1, 2]) + 2**63', 'torch.tensor([1, 2]) * 2**64', 'torch.full((2,), 2**63)',\n"
        "         'torch.zeros(2, dtype=torch.int32).fill_(2**40)']\n" + _EXPRESSIONS),
    "index_dtypes": (
        "z = torch.zeros(3); s = torch.tensor([1., 2.])\n"
        "codes = ['z[torch.tensor(1.)]', 'z[torch.tensor([1.])]', 'z[torch.tensor(1, dtype=torch.int32)]', 'z[torch.tensor(True)]',\n"
        "         'torch.zeros(2, 3)[0, torch.tensor(1.)]', 'z.scatter(0, torch.tensor([0., 1.]), s)',\n"
        "         'z.scatter_add(0, torch.tensor([0, 1], dtype=torch.int16), s)', 'z.scatter(0, torch.tensor([0, 1], dtype=torch.int32), s)',\n"
        "         \"z.scatter_reduce(0, torch.tensor([0, 1], dtype=torch.uint8), s, 'amax')\", 'z.gather(0, torch.tensor([0], dtype=torch.int8))',\n"
        "         'z.gather(0, torch.tensor([0], dtype=torch.int32))', 'torch.zeros(3, dtype=torch.int64).scatter(0, torch.tensor([0, 1]), 2.5)']\n"
        + _EXPRESSIONS),
    "index_float_0d_setitem": (
        "z = torch.zeros(3); z[torch.tensor(1.)] = 1"),
    "items_and_numbers": (
        "for t in [torch.tensor(3), torch.tensor(3.5), torch.tensor(True), torch.tensor(2, dtype=torch.int32),\n"
        "          torch.tensor(2.5, dtype=torch.float16), torch.tensor(0.1, dtype=torch.float64), torch.tensor(200, dtype=torch.uint8)]:\n"
        "    print(t.item(), type(t.item()).__name__, int(t), float(t), bool(t), t.tolist(), [1, 2, 3, 4][t] if not t.is_floating_point() else '')\n"
        "print(torch.finfo(torch.float16), torch.iinfo(torch.int32), torch.finfo(torch.float32).eps, torch.iinfo(torch.uint8).max)"),
    "can_cast_promote_types_result_type": (
        "print(torch.can_cast(torch.float32, torch.int32), torch.can_cast(torch.int32, torch.float32), torch.can_cast(torch.bool, torch.uint8))\n"
        "print(torch.promote_types(torch.uint8, torch.int8), torch.promote_types(torch.int64, torch.float16))\n"
        "print(torch.result_type(torch.tensor([1], dtype=torch.int32), 5), torch.result_type(torch.tensor([1], dtype=torch.float16), torch.tensor(5.)))\n"
        "print(torch.result_type(2, 3.0), torch.result_type(torch.tensor([True]), 3), torch.is_floating_point(torch.tensor([1])))\n"
        "for f in [lambda: torch.can_cast(1, torch.int32), lambda: torch.promote_types(torch.int32, 1),\n"
        "          lambda: torch.can_cast(torch.float32, 'float')]:\n"
        "    try:\n"
        "        f()\n"
        "    except TypeError as e:\n"
        "        print(e)"),
    "products_of_mixed_dtypes": (
        "i = torch.tensor([[1, 2], [3, 4]]); f = i.float()\n"
        "codes = ['torch.addmm(i, i, i, beta=0.5)', 'torch.addmm(i, i, i, beta=1.7, alpha=2.9)', 'torch.addmm(f, f, f, alpha=0.5)',\n"
        "         'torch.addmv(i[0], i, i[0], alpha=0.5)', 'torch.addr(i, i[0], i[0], alpha=0.5)', 'torch.addr(i, i[0], i[0], beta=0.5)',\n"
        "         'torch.inner(i, f)', 'torch.inner(i[0], f[0])', 'torch.tensordot(i, f, 1)', 'torch.tensordot(f, i, 2)',\n"
        "         'f @ i', 'torch.mm(f, f.double())', 'torch.dot(i[0], f[0])', 'torch.cat([i.int(), i.half()])', 'torch.stack([f, f.double()])',\n"
        "         'torch.where(i > 2, i, 0.5)', 'torch.where(i > 2, i.int(), torch.tensor(5))', 'i.masked_fill(i > 2, torch.tensor(1.5))',\n"
        "         'i.masked_fill(i > 2, 1e20)']\n" + _EXPRESSIONS),
    "grads_mixing_int_and_float": (
        "x = torch.tensor([1., 2.], requires_grad=True); i = torch.tensor([3, 4])\n"
        "y = x * i; print(y, y.grad_fn); y.sum().backward(); print(x.grad)\n"
        "x.grad = None; y = i ** x; print(y, y.grad_fn); y.sum().backward(); print(x.grad)\n"
        "x.grad = None; y = x + i.double(); print(y, y.grad_fn); y.sum().backward(); print(x.grad, x.grad.dtype)\n"
        "print(x.long(), x.long().requires_grad)\n"
        "torch.tensor([1, 2], requires_grad=True)"),
}


@pytest.mark.parametrize("name", SNIPPETS)
def test_snippet(name):
    code = SNIPPETS[name]
    t, e = run_both(T, E, code)
    assert same(t, e), f"\n{code}\n--- torch\n{t.summary()}--- engine\n{e.summary()}"
