"""Small programs mixing dtypes (float16 / float32 / float64, int64 ... int8, uint8, bool; 0-d and n-d; Python numbers)
through binary, unary, reduction and cast ops with gradients, as a seeded generator of random programs found them
differing from real PyTorch: halves computed in float32 and rounded once (pow by a number, erf, rad2deg, digamma, sums
over a first dim), isclose's version counter and tolerances for integers, int tensors clamped by float bounds, out=
giving a reduction its dtype, cat's cast error, and a few backward details (True ** x, copysign's saved result, a 0-d
softmax, std of one half). Printed text, warnings and the final error must be the same."""
import pytest

T = pytest.importorskip("torch", reason="differential tests need real PyTorch (pip install torch==2.13.0)")
from .harness import TRIES, load_engine, run_both, same  # noqa: E402

E = load_engine()

SNIPPETS = {
    # a half to the power of a number: PyTorch's half kernel singles out no exponent (no x * x, no 1 / (x * x), no
    # sqrt): pow in float32 rounded once, so 1000.5 ** -2 is a subnormal, not 0, and (-0.) ** 0.5 is 0.
    "half_to_the_power_of_numbers": (
        'x = torch.tensor([1000.5, 300.0, 0.1, 3.3, -0.0, float("-inf"), 7.7], dtype=torch.float16)\n'
        'for e in [2, 3, -2, -1, 0.5, -0.5, 1/3]:\n'
        '    print(e, x ** e)\n'
        'h = torch.tensor([30.5, 3.3], dtype=torch.float16, requires_grad=True)\n'
        '(h ** -2).sum().backward(); print(h.grad)'),
    # isclose ors into `a == other` in place (its result's version counts the steps: 0, 1 or 2); integers and bools
    # are compared in the default float dtype (16777217 is close to 16777216 with atol 0.5; True to False with atol 1)
    # and halves' tolerances in float32
    "isclose_versions_and_integer_tolerances": (
        'a = torch.tensor([1., float("nan"), 3.]); b = torch.tensor([1., float("nan"), 3.0001])\n'
        'for kw in [{}, {"equal_nan": True}, {"rtol": 0, "atol": 0}, {"rtol": 0, "atol": 0, "equal_nan": True}]:\n'
        '    c = torch.isclose(a, b, **kw); print(c, c._version)\n'
        'i = torch.tensor([16777217, 2**62, -2**63]); j = torch.tensor([16777216, 2**62 + 1, 2**63 - 1])\n'
        'print(torch.isclose(i, j, rtol=0, atol=0.5), torch.isclose(i, j, rtol=0, atol=0), torch.isclose(i, j)._version)\n'
        'u = torch.tensor([0, 255], dtype=torch.uint8); v = torch.tensor([1, 0], dtype=torch.uint8)\n'
        'print(torch.isclose(u, v, atol=1), torch.isclose(torch.tensor([True]), torch.tensor([False]), atol=1))\n'
        'h = torch.tensor([1000., 0.1], dtype=torch.float16); g = torch.tensor([1000.5, 0.1001], dtype=torch.float16)\n'
        'print(torch.isclose(h, g, rtol=1e-3), torch.allclose(torch.tensor([1, 2]), torch.tensor([1, 3]), atol=1))'),
    # True ** x records PowBackward2 with a bool base, which PyTorch's formula cannot read back: its internal assert
    "bool_base_to_a_tensor_power_backward": (
        'x = torch.tensor([0.5, 2.], requires_grad=True)\n'
        'for base in [2, True, False]:\n'
        '    y = base ** x\n'
        '    try:\n'
        '        y.sum().backward(); print(base, y, x.grad); x.grad = None\n'
        '    except Exception as e:\n'
        '        print(base, y, y.grad_fn._saved_self, type(e).__name__, e)'),
    # an int tensor clamped with a float bound is clamped as float (the int bound then need not fit the int dtype);
    # clamp_min / clamp_max with a tensor bound check its shape (PyTorch's broadcast error) and cast it first
    "int_tensors_clamped_by_float_bounds": (
        'i = torch.tensor([-300, 2, 32767], dtype=torch.int16); u = torch.tensor([0, 200], dtype=torch.uint8)\n'
        'x = torch.tensor([[0.5, 4.0], [3.25, 1000.5], [1.0, 1.0]], requires_grad=True)\n'
        'tries(lambda: torch.clamp(i, 65504, 1e10), lambda: u.clamp(-1, 300.), lambda: torch.clamp(i, 65504),\n'
        '      lambda: torch.clamp_max(i, 65504.), lambda: torch.clamp_min(u, -1.5), lambda: torch.clamp_min(u, -1),\n'
        '      lambda: x.clamp_max(torch.tensor([True, True, False])), lambda: x.clone().clamp_max_(torch.tensor([1, 2, 3])),\n'
        '      lambda: torch.clamp_max(torch.tensor([1, 2], dtype=torch.int8), torch.tensor(300)))'),
    # halves through special functions: erf by Vectorized<float>::erf (every element, so erf of 6e-8 is 0), rad2deg
    # times the factor in float32, digamma / polygamma in float32; and a float64 lgamma beyond float64 is inf
    "half_special_functions_in_float": (
        'x = torch.tensor([6e-8, 1e-5, 0.5, -3.5, 11., 1.5], dtype=torch.float16)\n'
        'print(torch.erf(x), torch.erf(x[:1]), torch.rad2deg(x), x.clone().rad2deg_(), torch.digamma(x))\n'
        'print(torch.polygamma(1, x), torch.lgamma(torch.tensor([1e308, 1e-310, -1e308], dtype=torch.float64)))\n'
        'h = x.clone().requires_grad_(); torch.erf(h).sum().backward(); print(h.grad)'),
    # a half summed over its first dim accumulates in float32 (numpy would add row by row in half); logsumexp and
    # mean over dim 0 go through that sum
    "half_sums_over_the_first_dim": (
        'e = torch.tensor([[0.9048, 0.1, 0.3], [0.0743, 0.3, 0.7], [1.0, 0.2, 0.1]], dtype=torch.float16)\n'
        'print(e.sum(0), e.t().sum(1), e.mean(0), e.sum(0, keepdim=True).log())\n'
        'x = torch.tensor([[0.0, -0.0, 1.5], [-2.5, 7.0, 65504.], [0.1, 60000., -1e-3]], dtype=torch.float16)\n'
        'print(x.logsumexp(0), torch.full((3000,), 0.1, dtype=torch.float16).view(100, 30).sum(0)[:3])'),
    # out= of another dtype gives sum, prod, cumsum, cumprod and nansum their dtype (the input cast to it, 0.5 to 0);
    # a dtype= that differs from out's is refused; mean still refuses a float result in a long out
    "reduction_out_gives_its_dtype": (
        'f = torch.tensor([0.5, 1.5, 2.5]); i = torch.tensor([1, 2, 3])\n'
        'tries(lambda: torch.sum(f, 0, out=torch.zeros((), dtype=torch.long)),\n'
        '      lambda: torch.sum(f, 0, dtype=torch.float64, out=torch.zeros((), dtype=torch.long)),\n'
        '      lambda: torch.sum(f, 0, out=torch.zeros((), dtype=torch.bool)),\n'
        '      lambda: torch.cumsum(f, 0, out=torch.zeros(3, dtype=torch.uint8)),\n'
        '      lambda: torch.prod(f, 0, out=torch.zeros((), dtype=torch.long)),\n'
        '      lambda: torch.cumprod(f, 0, out=torch.zeros(3, dtype=torch.long)),\n'
        '      lambda: torch.mean(f, 0, out=torch.zeros((), dtype=torch.long)),\n'
        '      lambda: torch.sum(i, 0, keepdim=True, out=torch.zeros(1)))'),
    # cat (and the stacks built on it) words its out= cast check as a TypeError of its own, before the resize
    "cat_out_that_cannot_take_the_inputs": (
        'a = torch.tensor([1, 2], dtype=torch.int8); b = torch.tensor([0.5, 1.5], dtype=torch.float16)\n'
        'tries(lambda: torch.cat([a, b], out=torch.zeros(3, dtype=torch.int64)),\n'
        '      lambda: torch.stack([a, b], out=torch.zeros(2, 2, dtype=torch.int64)),\n'
        '      lambda: torch.cat([a, a], out=torch.zeros(4, dtype=torch.bool)),\n'
        '      lambda: torch.cat([a, b], out=torch.zeros(4, dtype=torch.float64)))'),
    # trapezoid refuses bool samples (after checking dim); logcumsumexp starts from -inf, so a leading -0. becomes
    # 0. (a 0-d one is copied); unique keeps each value as it first occurs (0. or -0.)
    "bool_trapezoid_signed_zeros_of_scans_and_unique": (
        'b = torch.tensor([True, False, True]); f = torch.tensor([1., 2., 3.])\n'
        'tries(lambda: torch.trapezoid(b), lambda: torch.trapezoid(f, b), lambda: torch.trapz(b),\n'
        '      lambda: torch.trapezoid(b, dim=5), lambda: torch.trapezoid(torch.tensor([1, 2, 4])))\n'
        'x = torch.tensor([-0.0, -0.0, float("-inf"), 2.0])\n'
        'print(x.logcumsumexp(0), x.half().logcumsumexp(0), torch.tensor(-0.0).logcumsumexp(0))\n'
        'for v in [[-0.0, 0.0], [1., 0.0, -0.0, 2.], [-0.0, 1., 0.0]]:\n'
        '    print(torch.tensor(v).unique(), torch.tensor(v).unique(return_counts=True, return_inverse=True))'),
    # std / var of a single half: no degrees of freedom, a nan gradient, cast back to the half's dtype
    "std_of_one_half_gradient_dtype": (
        'h = torch.tensor(2.5, dtype=torch.float16, requires_grad=True)\n'
        'for f in [lambda: h.std(), lambda: h.var(), lambda: h.view(1).std(), lambda: h.double().std()]:\n'
        '    h.grad = None; y = f(); y.backward(); print(y, h.grad, h.grad.dtype)'),
    # copysign(int tensor, float tensor requiring grad) saves its result even though only `other` needs a
    # gradient: modified in place, the backward fails as PyTorch's does
    "copysign_result_modified_in_place": (
        'x0 = torch.tensor([-3, -128, 1], dtype=torch.int8)\n'
        'x2 = torch.tensor([[-2.0, 0.1, 1e-3]], requires_grad=True)\n'
        'y = torch.copysign(x0, x2); print(y, y.grad_fn)\n'
        'y.div_(y - y)\n'
        'tries(lambda: y.sum().backward())\n'
        'z = torch.copysign(x0, x2); z.sum().backward(); print(x2.grad)'),
    # addcmul of a half by a bool: the formula's gradient for the half is float (bool * 0.5), cast back to half by
    # PyTorch's engine (ToCopyBackward0 with create_graph); addcdiv by an int tensor2: its `value / tensor2` divides
    # an int tensor in place, refused in backward
    "addcmul_addcdiv_gradients_of_mixed_dtypes": (
        'x0 = torch.tensor([[False, True, False], [False, True, True]]); i = torch.tensor([[1, 2, 3], [4, 5, 6]])\n'
        'h = torch.tensor([[-0.75, 1.0, 0.3333], [0.3333, 3.25, 1e-3]], dtype=torch.float16, requires_grad=True)\n'
        'for fn in [lambda: torch.addcmul(h, x0, h, value=0.5), lambda: torch.addcmul(h, i, h, value=2),\n'
        '           lambda: torch.float_power(torch.addcmul(h, x0, h, value=0.5), h), lambda: torch.addcdiv(h, h, i)]:\n'
        '    h.grad = None\n'
        '    try:\n'
        '        g, = torch.autograd.grad(fn().float().sum(), h, create_graph=True)\n'
        '        print(g, g.grad_fn, g.grad_fn and g.grad_fn.next_functions)\n'
        '        if g.requires_grad:\n'
        '            g.float().sum().backward(); print(h.grad)\n'
        '    except Exception as e:\n'
        '        print(type(e).__name__, e)'),
    # the backward of a 0-d softmax / log_softmax is the kernel's for a row of 1: a -0. gradient comes out 0.
    "softmax_of_a_0d_tensor_backward_signed_zero": (
        'for dt in [torch.float16, torch.float32, torch.float64]:\n'
        '    for shape in [(), (1,), (2, 1)]:\n'
        '        x = torch.full(shape, 0.5, dtype=dt, requires_grad=True)\n'
        '        g = torch.full(shape, -0.0, dtype=dt)\n'
        '        gi, = torch.autograd.grad(torch.softmax(x, 0), x, g)\n'
        '        gl, = torch.autograd.grad(torch.log_softmax(x, 0), x, g)\n'
        '        print(dt, shape, gi, gl)'),
    # cumsum with a dtype: its backward casts the gradient to the input's dtype before the reversed sums (1000.5 +
    # 0.1 in float64, not in half); x ** False is not x ** 0 for pow's backward (c10's False does not equal 0.): the
    # formula's graph, its -0. gradients and a second derivative
    "cumsum_dtype_backward_and_pow_by_false": (
        'x = torch.tensor([1., 2., 3.], dtype=torch.float64, requires_grad=True)\n'
        'g = torch.tensor([0.1, 1000.7, 3.3], dtype=torch.float16)\n'
        'for f in [lambda: torch.cumsum(x, 0, dtype=torch.float16), lambda: torch.cumsum(x.float(), 0, dtype=torch.float16)]:\n'
        '    y = f(); r, = torch.autograd.grad(y, x, g, create_graph=True); print(r, r.grad_fn)\n'
        'w = torch.tensor([[0.5, 2.0, 1e-3], [0.5, 0.3333, -1.5]], requires_grad=True)\n'
        'for e in [False, 0]:\n'
        '    y = 100 / torch.square(w ** e); gw, = torch.autograd.grad(y.sum(), w, create_graph=True); print(e, gw, gw.grad_fn)\n'
        '    if gw.requires_grad:\n'
        '        gw.sum().backward(); print(w.grad)'),
    # a half softmax's backward over another dim than the last: in float, rounded to half once (in half, the
    # gradient through a softmax saturated at 1 was all 0)
    "half_softmax_backward_over_the_first_dim": (
        'x = torch.zeros(2, 3, dtype=torch.float16, requires_grad=True)\n'
        'g = torch.tensor([[256., 1000.5, 0.1], [255.875, 1001., -0.3]], dtype=torch.float16)\n'
        'for f in [torch.softmax, torch.log_softmax]:\n'
        '    y = f(x, 0); gi, = torch.autograd.grad(y, x, g); print(y, gi)\n'
        'x0 = torch.tensor([[-7.7, 0.3333, 3.25], [1000.5, 2.5, 1000.5]], dtype=torch.float16, requires_grad=True)\n'
        'w = torch.tensor([[256., 256, 256], [256, 229.75, 256]], dtype=torch.float64)\n'
        'y = torch.softmax(x0, 0) * w; y.sum().backward(); print(y, x0.grad)'),
    # a generated program: a uint8 tensor compared with 2 ** 31 (the number wraps into uint8: 0), a half clone
    # with an int clamp, and grads of a half leaf through where and pow
    "generated_mixed_program_with_half_grads": (
        'x0 = torch.tensor([2, 3, 0], dtype=torch.uint8)\n'
        'x1 = torch.tensor([[0.1, 4.0, 1.0], [100.0, -7.7, 1000.5]], dtype=torch.float16, requires_grad=True)\n'
        'x2 = torch.tensor(0.3333, dtype=torch.float16, requires_grad=True)\n'
        'y0 = x0 < 2**31\n'
        'y1 = torch.where(x1 > 0.5, x1 ** -2, x2 ** 0.5)\n'
        'y2 = y1.clone().clamp_(min=torch.tensor(0, dtype=torch.int64))\n'
        'for v in (y0, y1, y2):\n'
        '    print(v, v.dtype, v._version, v.grad_fn)\n'
        'y2.float().sum().backward(); print(x1.grad, x2.grad, x1.grad.dtype)'),
    # a generated program: in-place ops whose result type cannot be cast back, integer overflow, division by zero
    "generated_inplace_casts_overflow_and_zero_division": (
        'x0 = torch.tensor([127, -128, 100], dtype=torch.int8)\n'
        'x1 = torch.tensor([0.5, -1.5, 2.0], requires_grad=True)\n'
        'y = x0.clone()\n'
        'tries(lambda: y.add_(x1), lambda: y.mul_(2), lambda: y.pow_(2), lambda: y.floor_divide_(torch.tensor([1, 0, 3])),\n'
        '      lambda: y, lambda: y.div_(2), lambda: y.sum(), lambda: y.cumsum(0, dtype=torch.int8), lambda: -y,\n'
        '      lambda: y // 0, lambda: y / 0, lambda: y.float() % 0, lambda: y.clamp_(min=0.5))\n'
        'z = x1 * 1; z *= torch.tensor([1, 2, 3], dtype=torch.int8); z /= x0; print(z, z.grad_fn)\n'
        'z.sum().backward(); print(x1.grad)'),
}


@pytest.mark.parametrize("name", SNIPPETS)
def test_snippet(name):
    code = TRIES + SNIPPETS[name]
    t, e = run_both(T, E, code)
    assert same(t, e), f"\n{code}\n--- torch\n{t.summary()}--- engine\n{e.summary()}"
