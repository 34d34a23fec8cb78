"""The pointwise math of `_ops_math.py` (exp2, atan2, hypot, logaddexp, xlogy, lerp, addcmul, float_power, logit,
isclose, ...) against real PyTorch: values for float32, float64, integer and bool inputs and Python-number operands,
broadcasting, grad_fn names and saved attributes, gradients and double backward, and error texts."""
import pytest

T = pytest.importorskip("torch", reason="differential tests need real PyTorch (pip install torch==2.13.0)")
from .harness import SHOW, load_engine, run_both, same  # noqa: E402

E = load_engine()

# check(f, *inputs): f's result and node (show), first gradients with create_graph=True, then second ones
CHECK = (
    "inf, nan = float('inf'), float('nan')\n"
    "def check(f, *inputs, double=True):\n"
    "    y = f(*inputs)\n"
    "    show(y)\n"
    "    leaves = [t for t in inputs if isinstance(t, torch.Tensor) and t.requires_grad]\n"
    "    gs = torch.autograd.grad(y.sum(), leaves, create_graph=double)\n"
    "    print('grads', gs)\n"
    "    s = [(g * g).sum() for g in gs if g.requires_grad]\n"
    "    if double and s:\n"
    "        print('double', torch.autograd.grad(sum(s), leaves, allow_unused=True))\n"
    "x = torch.tensor([0.5, -1.5, 2.0, 0.0], requires_grad=True)\n"
    "y = torch.tensor([1.0, -2.0, 0.25, 3.0], requires_grad=True)\n"
    "u = torch.tensor([0.1, 0.6, 0.9, 0.5], requires_grad=True)\n"
    "p = torch.tensor([1.5, 2.5, 3.0, 1.25], requires_grad=True)\n"
    "xd = x.detach().double().requires_grad_()\n"
    "i = torch.tensor([1, 2, 3])\n"
    "i4 = torch.tensor([1, -2, 3, 0])\n"
    "b = torch.tensor([True, False])\n")

SNIPPETS = {
    "unary_inverse_hyperbolic_exp2": (
        "check(torch.exp2, x); check(torch.exp2, xd); check(torch.acosh, p); check(torch.asinh, x)\n"
        "check(torch.atanh, u); check(torch.arcsinh, xd)\n"
        "print(torch.exp2(i), torch.exp2(b), torch.acosh(i), torch.asinh(i.double()), torch.arccosh(p),"
        " torch.arctanh(u))\n"
        "print(x.exp2(), p.acosh(), x.asinh(), u.atanh(), x.arcsinh(), u.arctanh())\n"
        "torch.manual_seed(0)\n"
        "a = torch.randn(200) * 10\n"
        "print(torch.exp2(a).tolist(), torch.exp2(a[:7]).tolist(), torch.exp2(a[:40]).tolist())\n"
        "print(torch.acosh(torch.tensor([0.5, 1.])), torch.atanh(torch.tensor([1., -1., 2.])))\n"
        "z = x.detach().clone(); print(z.exp2_(), z.asinh_(), z.arcsinh_(), z)\n"
        "tries(lambda: x.exp2_(), lambda: i.clone().exp2_(), lambda: torch.exp2(2.))\n"),
    "atan2_hypot": (
        "check(torch.atan2, x, y); check(torch.hypot, x, y); check(torch.arctan2, xd, y.double())\n"
        "check(torch.atan2, x, torch.tensor([[1.], [2.]], requires_grad=True))\n"
        "check(lambda a: a.hypot(torch.tensor(2.)), x)\n"
        "print(torch.atan2(i, i), torch.atan2(b, b), torch.hypot(x.double(), x), x.atan2(y), x.arctan2(y))\n"
        "print(torch.atan2(torch.tensor([0., -0., 0., -0.]), torch.tensor([0., 0., -0., -1.])))\n"
        "z = x.detach().clone(); print(z.atan2_(y), z.hypot_(y), z.arctan2_(y))\n"
        "tries(lambda: torch.hypot(i, i), lambda: torch.atan2(x, 2.), lambda: x.atan2(2.), lambda: x.hypot(2),\n"
        "      lambda: torch.atan2(x, torch.ones(3)), lambda: x.detach().atan2_(1.))\n"),
    "logaddexp": (
        "check(torch.logaddexp, x, y); check(torch.logaddexp2, x, y); check(torch.logaddexp, xd, y.double())\n"
        "check(torch.logaddexp, x, torch.tensor(1., requires_grad=True))\n"
        "inf = float('inf')\n"
        "print(torch.logaddexp(torch.tensor([inf, -inf, 1., -inf]), torch.tensor([inf, -inf, inf, 3.])))\n"
        "print(torch.logaddexp2(torch.tensor([inf, -inf, 1.]), torch.tensor([inf, -inf, 100.])))\n"
        "print(torch.logaddexp(torch.tensor([1e30, -1e30]), torch.tensor([1e30, 0.])), x.logaddexp(y),"
        " x.logaddexp2(y))\n"
        "torch.manual_seed(0)\n"
        "a, c = torch.randn(300) * 3, torch.randn(300) * 3\n"
        "print(torch.logaddexp(a, c).tolist(), torch.logaddexp(a.double(), c.double())[:150].tolist())\n"
        "tries(lambda: torch.logaddexp(i, i), lambda: torch.logaddexp2(b, b), lambda: torch.logaddexp(x, 2.),\n"
        "      lambda: x.logaddexp(1))\n"),
    "xlogy": (
        "check(torch.xlogy, x, p); check(lambda a: torch.xlogy(a, 2.), x); check(lambda a: torch.xlogy(2., a), p)\n"
        "check(lambda a: torch.xlogy(a, -1.), x); check(torch.xlogy, x, torch.tensor([[1.], [0.]],"
        " requires_grad=True))\n"
        "nan = float('nan')\n"
        "print(torch.xlogy(torch.tensor([0., 0., 1., 2., 0.]), torch.tensor([nan, 0., 0., -1., 5.])))\n"
        "print(torch.xlogy(i, i), torch.xlogy(i, 2), torch.xlogy(3, i), torch.xlogy(x, 0), torch.xlogy(0, x),"
        " x.xlogy(p))\n"
        "z = x.detach().clone(); print(z.xlogy_(p), z)\n"
        "tries(lambda: torch.xlogy(2, 3), lambda: torch.xlogy(x, torch.ones(3)))\n"),
    "copysign_sgn": (
        "check(torch.copysign, x, y); check(lambda a: torch.copysign(a, -1.), x); check(torch.sgn, x)\n"
        "check(lambda a: torch.copysign(a, torch.tensor(-0.)), x)\n"
        "print(torch.copysign(i, -1), torch.copysign(x, -0.), torch.copysign(i, i), x.copysign(2), torch.sgn(i))\n"
        "z = x.detach().clone(); print(z.copysign_(y), z.sgn_(), z)\n"),
    "erfc_lgamma_digamma": (
        "check(torch.erfc, x); check(torch.erfc, xd); check(torch.lgamma, p); check(torch.digamma, p)\n"
        "check(torch.digamma, torch.tensor([-0.5, 0.25, 12.5, 1e-3], dtype=torch.float64, requires_grad=True))\n"
        "print(torch.digamma(torch.tensor([0., -0., -1., -2.5, 1e20, inf, -inf, nan, 10., 1., 0.5, 1e-30])))\n"
        "torch.manual_seed(0)\n"
        "a = torch.cat([torch.rand(100) * 30, torch.randn(100) * 5])\n"
        "print(torch.digamma(a)[:150].tolist(), torch.digamma(i), x.digamma(), x.detach().clone().digamma_())\n"
        "print(torch.erfc(torch.tensor([-inf, 0., 30., 5., -3.])), torch.erfc(i), x.erfc())\n"
        "print(torch.lgamma(torch.tensor([0., -1., -0.5, 1e30, inf, -inf, 1., 2., 0.5])), torch.lgamma(i),"
        " p.lgamma())\n"
        "z = x.detach().clone(); print(z.erfc_(), z.lgamma_())\n"),
    "lerp": (
        "check(lambda a, b: torch.lerp(a, b, 0.3), x, y); check(torch.lerp, x, y, u)\n"
        "check(lambda a, b: a.lerp(b, 0.75), xd, y.double()); check(lambda a, b: torch.lerp(a, b, 2), x, y)\n"
        "check(torch.lerp, x, torch.tensor([[1.], [2.]], requires_grad=True), u)\n"
        "torch.manual_seed(0)\n"
        "a, c, w = torch.randn(40), torch.randn(40), torch.rand(40)\n"
        "print(torch.lerp(a, c, 0.3).tolist(), torch.lerp(a, c, 0.7).tolist(), torch.lerp(a, c, w).tolist())\n"
        "print(torch.lerp(a.double(), c.double(), 0.3).tolist())\n"
        "print(torch.lerp(x, y, torch.tensor(0.5)), torch.lerp(x, y, torch.tensor(0.5).double()))\n"
        "z = x.detach().clone(); print(z.lerp_(y, 0.5), z.lerp_(y, u), z)\n"
        "tries(lambda: torch.lerp(i, i, 0.5), lambda: torch.lerp(x, i, 0.5), lambda: torch.lerp(x, y.double(), 0.5),\n"
        "      lambda: torch.lerp(i, i, i), lambda: torch.lerp(x, 1., 0.5), lambda: torch.lerp(x, torch.ones(3),"
        " 0.5))\n"),
    "addcmul_addcdiv": (
        "check(lambda a, b, c: torch.addcmul(a, b, c, value=0.5), x, y, u); check(torch.addcmul, x, y, u)\n"
        "check(lambda a, b, c: torch.addcdiv(a, b, c, value=2), x, y, p); check(torch.addcdiv, xd, y.double(),"
        " p.double())\n"
        "check(lambda a, b: torch.addcmul(a, b, torch.tensor([[1.], [2.]]), value=-1), x, y)\n"
        "torch.manual_seed(0)\n"
        "a, c, w = torch.randn(40), torch.randn(40), torch.rand(40) + 0.5\n"
        "print(torch.addcmul(a, c, w, value=0.3).tolist(), torch.addcdiv(a, c, w, value=0.3).tolist())\n"
        "print(torch.addcmul(i, i, i, value=2), torch.addcmul(i, i, i, value=0.5), torch.addcmul(i4, i4, x),\n"
        "      torch.addcmul(x, i4, i4, value=2), torch.addcdiv(x, i4, p), x.addcmul(y, u), x.addcdiv(y, p, value=3))\n"
        "z = x.detach().clone(); print(z.addcmul_(y, u), z.addcdiv_(y, p, value=-1), z)\n"
        "tries(lambda: torch.addcdiv(i, i, i), lambda: torch.addcmul(x, i, i),\n"
        "      lambda: torch.addcmul(x, x, torch.ones(2)), lambda: torch.addcmul(x, x, 2.))\n"),
    "float_power": (
        "check(torch.float_power, p, y); check(lambda a: torch.float_power(a, 2), x)\n"
        "check(lambda a: torch.float_power(2, a), x); check(lambda a: a.float_power(0.5), p)\n"
        "print(torch.float_power(i, 2), torch.float_power(i, 2.5), torch.float_power(i, i), torch.float_power(b, 2))\n"
        "z = xd.detach().clone(); print(z.float_power_(2), z)\n"
        "tries(lambda: x.detach().float_power_(2), lambda: i.float_power_(2), lambda: torch.float_power(x,"
        " torch.ones(3)))\n"),
    "deg2rad_rad2deg_sinc": (
        "check(torch.deg2rad, x); check(torch.rad2deg, x); check(torch.sinc, x); check(torch.sinc, xd)\n"
        "print(torch.deg2rad(i), torch.rad2deg(i), torch.deg2rad(b), torch.sinc(i), torch.sinc(torch.tensor([0.,"
        " -0., 1., 0.5])))\n"
        "torch.manual_seed(0)\n"
        "a = torch.randn(40) * 100\n"
        "print(torch.deg2rad(a).tolist(), torch.rad2deg(a).tolist(), torch.rad2deg(a.double()).tolist())\n"
        "z = x.detach().clone(); print(z.deg2rad_(), z.rad2deg_(), z.sinc_(), x.deg2rad(), x.rad2deg(), x.sinc())\n"
        "tries(lambda: i.clone().deg2rad_())\n"),
    "logit_nan_to_num": (
        "check(torch.logit, u); check(lambda a: torch.logit(a, eps=0.2), u); check(lambda a: a.logit(0.05), xd)\n"
        "check(torch.nan_to_num, x)\n"
        "print(torch.logit(torch.tensor([0., 1., 2., -1.])), torch.logit(torch.tensor([0., 1., 2.]), 0.25),"
        " torch.logit(i))\n"
        "inf, nan = float('inf'), float('nan')\n"
        "v = torch.tensor([nan, inf, -inf, 1.])\n"
        "print(torch.nan_to_num(v), torch.nan_to_num(v, nan=2., posinf=3.), torch.nan_to_num(v.double(), neginf=-7))\n"
        "print(torch.nan_to_num(i), v.nan_to_num(0.5), v.clone().nan_to_num_(1., 2., 3.),"
        " u.detach().clone().logit_())\n"
        "w = v.clone().requires_grad_(); check(torch.nan_to_num, w)\n"),
    "heaviside_fmax_fmin": (
        "check(torch.fmax, x, y); check(torch.fmin, x, y); check(torch.fmax, xd, torch.tensor(0.5,"
        " dtype=torch.float64))\n"
        "nan = float('nan')\n"
        "print(torch.fmax(torch.tensor([nan, 1., nan]), torch.tensor([2., nan, nan])), torch.fmin(i4, x),"
        " torch.fmax(i, i))\n"
        "print(x.fmax(y), x.fmin(y), torch.fmin(torch.tensor([nan, 1.]),"
        " torch.tensor([-1., nan])))\n"
        "h = torch.heaviside(x, torch.tensor([0.5])); print(h, h.grad_fn.next_functions)\n"
        "h = torch.heaviside(x, torch.tensor([0.5], requires_grad=True)); print(h, h.grad_fn.next_functions)\n"
        "print(torch.heaviside(torch.tensor([-1., 0., 2.]), torch.tensor([0.5])), torch.heaviside(i,"
        " torch.tensor([7])))\n"
        "print(x.heaviside(torch.tensor(2.)), x.detach().clone().heaviside_(torch.tensor(3.)))\n"
        "tries(lambda: torch.heaviside(i, i.double()), lambda: torch.heaviside(x, 1.), lambda: x.heaviside(1.),\n"
        "      lambda: torch.fmax(x, 2.), lambda: x.fmax(2.), lambda: h.sum().backward(), lambda: x.fmax_(y))\n"),
    "predicates_and_aliases": (
        "inf, nan = float('inf'), float('nan')\n"
        "print(torch.isclose(x, y), torch.isclose(i, i), torch.isclose(x, x + 1e-6), torch.isclose(x, x + 1e-3,"
        " atol=1e-2))\n"
        "v = torch.tensor([nan, inf, -inf, 1.])\n"
        "print(torch.isclose(v, v), torch.isclose(v, v, equal_nan=True), v.isclose(v), torch.isclose(b, b))\n"
        "print(torch.isclose(x, torch.tensor([0.5, -1.5, 2.1, 0.]), rtol=0.1), torch.isclose(i, i + 1, atol=1))\n"
        "print(torch.isposinf(v), torch.isneginf(v), v.isposinf(), v.isneginf(), torch.isposinf(i),"
        " torch.isreal(x), i.isreal())\n"
        "print(torch.positive(x) is x, x.positive() is x, torch.positive(i))\n"
        "print(x.greater(y), torch.greater_equal(x, 0.5), torch.not_equal(x, y), x.less(1), torch.less_equal(x, y),\n"
        "      torch.greater(i, 2), x.greater_equal(y), x.not_equal(0.5), torch.less(x, y), x.less_equal(0))\n"
        "z = x.detach().clone()\n"
        "print(z.multiply_(2), z.subtract_(1), z.divide_(4), z.true_divide_(2), z.negative_(), z.absolute_())\n"
        "print(u.detach().clone().arcsin_(), u.detach().clone().arccos_(), z.arctan_(), x.detach().clone().fix_())\n"
        "print(torch.arcsin(u), torch.arccos(u), torch.arctan(x), torch.fix(x))\n"
        "tries(lambda: torch.isclose(x, i), lambda: torch.positive(b), lambda: torch.isclose(x, 1.),\n"
        "      lambda: x.multiply_(2), lambda: torch.greater(x, torch.ones(3)))\n"),
}


@pytest.mark.parametrize("name", sorted(SNIPPETS))
def test_snippet_as_pytorch(name):
    t, e = run_both(T, E, SHOW + CHECK + SNIPPETS[name])
    assert t.error is None, f"the snippet stops early in PyTorch: {t.error}"     # (its rest would go unchecked)
    assert same(t, e), f"\n--- torch\n{t.summary()}--- engine\n{e.summary()}"
