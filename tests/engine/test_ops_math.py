"""exp2, acosh / asinh / atanh, atan2, hypot, logaddexp(2), xlogy, copysign, sgn, erfc, lgamma, lerp, addcmul,
addcdiv, float_power, deg2rad / rad2deg, sinc, logit, nan_to_num, heaviside, fmax / fmin and the predicates and
aliases of `_ops_math.py`: values, dtypes, grad_fn names, saved attributes, gradients (against finite differences,
first and second order) and errors as PyTorch 2.13 has them (checked against it by
tests/differential/test_ops_math_vs_torch.py)."""
import math

import numpy as np
import pytest

import engine as torch
from numeric import numeric_grads

inf, nan = math.inf, math.nan


def _d(values):
    return torch.tensor(values, dtype=torch.float64, requires_grad=True)


def _check_grads(f, *inputs, double=True):
    """f's gradients against finite differences; with double, those of sum(grad ** 2) too (create_graph=True)."""
    y = f(*inputs)
    gs = torch.autograd.grad(y.sum(), inputs, create_graph=double)
    for g, n in zip(gs, numeric_grads(f, inputs)):
        np.testing.assert_allclose(g.detach().numpy(), n, rtol=1e-5, atol=1e-6)
    total = sum((g * g).sum() for g in gs)
    if double and total.requires_grad:
        def first(*args):
            args = [a.detach().requires_grad_() for a in args]
            return sum((g * g).sum() for g in torch.autograd.grad(f(*args).sum(), args, allow_unused=True)
                       if g is not None)
        second = torch.autograd.grad(total, inputs, allow_unused=True)
        for g, n in zip(second, numeric_grads(first, inputs)):
            np.testing.assert_allclose(0 if g is None else g.detach().numpy(), n, rtol=1e-4, atol=1e-5)
    return y


def _saved(y):
    return sorted(a for a in dir(y.grad_fn) if a.startswith('_saved_'))


@pytest.mark.parametrize('name, fn, values, node, saved', [
    ('exp2', 'exp2', [0.5, -1.5, 2.0], 'Exp2Backward0', ['_saved_result']),
    ('acosh', 'acosh', [1.5, 2.5, 3.0], 'AcoshBackward0', ['_saved_self']),
    ('asinh', 'asinh', [0.5, -1.5, 2.0], 'AsinhBackward0', ['_saved_self']),
    ('atanh', 'atanh', [0.1, -0.6, 0.9], 'AtanhBackward0', ['_saved_self']),
    ('erfc', 'erfc', [0.5, -1.5, 2.0], 'ErfcBackward0', ['_saved_self']),
    ('sinc', 'sinc', [0.5, -1.5, 2.25], 'SincBackward0', ['_saved_self']),
    ('deg2rad', 'deg2rad', [0.5, -1.5, 2.0], 'Deg2RadBackward0', []),
    ('rad2deg', 'rad2deg', [0.5, -1.5, 2.0], 'Rad2DegBackward0', []),
    ('logit', 'logit', [0.1, 0.6, 0.9], 'LogitBackward0', ['_saved_eps', '_saved_self']),
    ('nan_to_num', 'nan_to_num', [0.5, -1.5, 2.0], 'NanToNumBackward0', ['_saved_self']),
])
def test_unary_values_nodes_and_gradients(name, fn, values, node, saved):
    x = _d(values)
    y = _check_grads(getattr(torch, fn), x)
    assert type(y.grad_fn).__name__ == node and _saved(y) == saved
    ref = {'exp2': np.exp2, 'acosh': np.arccosh, 'asinh': np.arcsinh, 'atanh': np.arctanh, 'deg2rad': np.deg2rad,
           'rad2deg': np.rad2deg, 'sinc': np.sinc, 'logit': lambda v: np.log(v / (1 - v)), 'nan_to_num': np.asarray,
           'erfc': np.vectorize(math.erfc)}[name]
    np.testing.assert_allclose(y.detach().numpy(), ref(np.array(values)), rtol=1e-14)
    assert getattr(x, fn)().tolist() == y.tolist()                  # the method
    z = x.detach().clone()
    assert getattr(z, fn + '_')() is z and z.tolist() == y.tolist()  # the in-place form
    i = getattr(torch, fn)(torch.tensor([1, 2]))                # integers give the default float (nan_to_num: kept)
    assert i.dtype == (torch.int64 if fn == 'nan_to_num' else torch.float32)


def test_exp2_and_friends_float32_are_rounded_from_double():
    x = torch.tensor([0.1, 1.0, 3.3, -2.7])
    assert torch.exp2(x).tolist() == np.exp2(np.float64(x.numpy())).astype(np.float32).tolist()
    assert torch.exp2(torch.tensor([True, False])).tolist() == [2.0, 1.0]
    assert torch.exp2(x.double()).dtype == torch.float64
    assert torch.arccosh(x.abs() + 1).tolist() == torch.acosh(x.abs() + 1).tolist()
    assert torch.arcsinh(x).tolist() == x.asinh().tolist() and torch.arctanh(x / 4).tolist() == (x / 4).atanh().tolist()
    assert math.isnan(torch.acosh(torch.tensor(0.5)).item())
    assert torch.atanh(torch.tensor([1., -1.])).tolist() == [inf, -inf]
    with pytest.raises(TypeError, match=r"^exp2\(\): argument 'input' \(position 1\) must be Tensor, not float$"):
        torch.exp2(2.)


def test_atan2_and_hypot():
    x, y = _d([0.5, -1.5, 2.0]), _d([1.0, -2.0, 0.25])
    a = _check_grads(torch.atan2, x, y)
    assert type(a.grad_fn).__name__ == 'Atan2Backward0' and _saved(a) == ['_saved_other', '_saved_self']
    np.testing.assert_allclose(a.detach().numpy(), np.arctan2(x.detach().numpy(), y.detach().numpy()), rtol=1e-15)
    h = _check_grads(torch.hypot, x, y)
    assert type(h.grad_fn).__name__ == 'HypotBackward0'
    assert _saved(h) == ['_saved_other', '_saved_result', '_saved_self']
    assert torch.hypot(x, torch.tensor(2., dtype=torch.float64)).grad_fn._saved_other is None  # (not needed)
    assert torch.atan2(torch.tensor([1, 2]), torch.tensor([1, 1])).dtype == torch.float32
    assert torch.arctan2(x, y).tolist() == x.arctan2(y).tolist() == a.tolist()
    assert torch.atan2(x, torch.tensor([[1.], [2.]], dtype=torch.float64)).shape == (2, 3)
    with pytest.raises(TypeError, match=r"^atan2\(\): argument 'other' \(position 2\) must be Tensor, not float$"):
        torch.atan2(x, 2.)
    with pytest.raises(TypeError, match=r"^atan2\(\): argument 'other' \(position 1\) must be Tensor, not float$"):
        x.atan2(2.)
    with pytest.raises(NotImplementedError, match='^"hypot_cpu" not implemented for \'Long\'$'):
        torch.hypot(torch.tensor([1]), torch.tensor([1]))
    with pytest.raises(RuntimeError, match='must match the size of tensor b'):
        torch.hypot(x, torch.ones(2))


def test_logaddexp_and_logaddexp2():
    x, y = _d([0.5, -1.5, 2.0, 30.]), _d([1.0, -2.0, 0.25, -30.])
    for f, ref in ((torch.logaddexp, np.logaddexp), (torch.logaddexp2, np.logaddexp2)):
        r = _check_grads(f, x, y)
        np.testing.assert_allclose(r.detach().numpy(), ref(x.detach().numpy(), y.detach().numpy()), rtol=1e-15)
        assert _saved(r) == ['_saved_other', '_saved_self']
    assert type(torch.logaddexp2(x, y).grad_fn).__name__ == 'Logaddexp2Backward0'
    e = torch.logaddexp(torch.tensor([inf, -inf, 1.]), torch.tensor([inf, -inf, inf]))
    assert e.tolist() == [inf, -inf, inf]
    with pytest.raises(NotImplementedError, match='"logaddexp_cpu" not implemented for \'Long\''):
        torch.logaddexp(torch.tensor([1]), torch.tensor([1]))


def test_xlogy_three_overloads():
    x, y = _d([0.5, -1.5, 2.0, 0.0]), _d([1.5, 2.5, 3.0, 1.25])
    r = _check_grads(torch.xlogy, x, y)
    assert type(r.grad_fn).__name__ == 'XlogyBackward0'
    assert torch.xlogy(torch.tensor([0., 0., 1.]), torch.tensor([nan, 0., 0.])).tolist()[1:] == [0., -inf]
    assert math.isnan(torch.xlogy(torch.tensor(0.), torch.tensor(nan)).item())
    s = _check_grads(lambda a: torch.xlogy(a, 2.), x)
    assert type(s.grad_fn).__name__ == 'XlogyBackward2' and s.grad_fn._saved_other == 2.0
    n = _check_grads(lambda b: torch.xlogy(2., b), y)
    assert type(n.grad_fn).__name__ == 'XlogyBackward1' and n.grad_fn._saved_self == 2.0
    g, = torch.autograd.grad(torch.xlogy(x, y).sum(), x)     # at x == 0 the gradient is log(y) (y > 0)
    assert g[3].item() == pytest.approx(math.log(1.25))
    with pytest.raises(TypeError, match=r'^xlogy\(\) received an invalid combination of arguments - got \(int, int\)'):
        torch.xlogy(2, 3)


def test_copysign_sgn_and_their_nodes():
    x, y = _d([0.5, -1.5, 2.0, 0.0]), _d([1.0, -2.0, -0.25, -3.0])
    c = torch.copysign(x, y)
    assert c.tolist() == [0.5, -1.5, -2.0, -0.0] and math.copysign(1, c[3].item()) == -1
    assert type(c.grad_fn).__name__ == 'CopysignBackward0' and _saved(c) == ['_saved_result', '_saved_self']
    gx, gy = torch.autograd.grad(c.sum(), (x, y))
    assert gx.tolist() == [1, 1, -1, 0] and gy.tolist() == [0, 0, 0, 0]
    s = torch.copysign(x, -1.)
    assert type(s.grad_fn).__name__ == 'CopysignBackward1' and len(s.grad_fn.next_functions) == 1
    assert torch.copysign(torch.tensor([1, 2]), -1).tolist() == [-1., -2.]
    g = torch.sgn(x)
    assert type(g.grad_fn).__name__ == 'SgnBackward0' and g.tolist() == [1, -1, 1, 0]
    z = x.detach().clone()
    assert z.sgn_() is z and z.tolist() == [1, -1, 1, 0]


def test_erfc_and_lgamma_values():
    v = [-inf, -3., 0., 0.5, 5., 30.]
    assert torch.erfc(torch.tensor(v, dtype=torch.float64)).tolist() == [math.erfc(a) for a in v]
    lg = torch.lgamma(torch.tensor([0., -1., -0.5, 1., 2., 0.5, inf, -inf]))
    assert lg.tolist()[:2] == [inf, inf] and lg.tolist()[-2:] == [inf, inf]
    assert lg[2].item() == pytest.approx(math.lgamma(-0.5)) and lg[3].item() == 0 and lg[4].item() == 0
    p = _d([1.5, 2.5, 3.0, 0.25, -0.5])
    r = _check_grads(torch.lgamma, p)
    assert type(r.grad_fn).__name__ == 'LgammaBackward0'


def test_digamma_values_and_gradients():
    euler = 0.5772156649015329
    d = torch.digamma(torch.tensor([1., 0.5, 10., 0., -0., -2., 2.5, -0.5], dtype=torch.float64)).tolist()
    assert d[0] == pytest.approx(-euler, rel=1e-15) and d[1] == pytest.approx(-euler - 2 * math.log(2), rel=1e-15)
    assert d[2] == pytest.approx(sum(1 / k for k in range(1, 10)) - euler, rel=1e-15)
    assert d[3:5] == [-inf, inf] and math.isnan(d[5])
    assert d[6] == pytest.approx(-euler - 2 * math.log(2) + 2 + 2 / 3, rel=1e-14)
    assert d[7] == pytest.approx(-euler - 2 * math.log(2) + 2, rel=1e-14)       # psi(1/2) + 1 / (-1/2) ... reflected
    p = _d([1.5, 2.5, 0.25, 12.5, -0.5])
    r = _check_grads(torch.digamma, p)                    # (second order: polygamma(2), a series in the engine)
    assert type(r.grad_fn).__name__ == 'DigammaBackward0' and _saved(r) == ['_saved_self']
    g, = torch.autograd.grad(r.sum(), p, create_graph=True)
    node = g.grad_fn.next_functions[1][0]
    assert type(node).__name__ == 'PolygammaBackward0' and node._saved_n == 1
    assert torch.digamma(torch.tensor([1, 2])).dtype == torch.float32 and torch.tensor([1.]).digamma_().item() == \
        pytest.approx(-euler)


def test_lerp_scalar_and_tensor_weight():
    x, y, w = _d([0.5, -1.5, 2.0]), _d([1.0, -2.0, 0.25]), _d([0.1, 0.6, 0.9])
    r = _check_grads(lambda a, b: torch.lerp(a, b, 0.3), x, y)
    assert type(r.grad_fn).__name__ == 'LerpBackward0' and r.grad_fn._saved_weight == 0.3
    t = _check_grads(torch.lerp, x, y, w)
    assert type(t.grad_fn).__name__ == 'LerpBackward1'
    assert _saved(t) == ['_saved_end', '_saved_self', '_saved_weight']
    np.testing.assert_allclose(t.detach().numpy(), (x + w * (y - x)).detach().numpy(), rtol=1e-15)
    # PyTorch's kernel: a fused multiply-add, from the end for weights of 0.5 and more
    a, b = torch.tensor([0.1, 3.7]), torch.tensor([1.3, -2.9])
    f32 = np.float32
    want = [np.float64(f32(0.7) - f32(1)) * np.float64(f32(b[i].item()) - f32(a[i].item())) + b[i].item()
            for i in range(2)]
    assert torch.lerp(a, b, 0.7).tolist() == [float(f32(v)) for v in want]
    with pytest.raises(NotImplementedError, match='"lerp_kernel_scalar" not implemented for \'Long\''):
        torch.lerp(torch.tensor([1]), torch.tensor([1]), 0.5)
    with pytest.raises(RuntimeError, match='^expected dtype float for `end` but got dtype long int$'):
        torch.lerp(torch.ones(2), torch.tensor([1, 2]), 0.5)


def test_addcmul_addcdiv():
    x, y, u = _d([0.5, -1.5, 2.0]), _d([1.0, -2.0, 0.25]), _d([1.5, 2.5, 3.0])
    m = _check_grads(lambda a, b, c: torch.addcmul(a, b, c, value=0.5), x, y, u)
    assert type(m.grad_fn).__name__ == 'AddcmulBackward0'
    assert (m.grad_fn._saved_value, _saved(m)) == (0.5, ['_saved_tensor1', '_saved_tensor2', '_saved_value'])
    np.testing.assert_allclose(m.detach().numpy(), (x + 0.5 * y * u).detach().numpy(), rtol=1e-15)
    d = _check_grads(lambda a, b, c: torch.addcdiv(a, b, c, value=2), x, y, u)
    assert type(d.grad_fn).__name__ == 'AddcdivBackward0'
    np.testing.assert_allclose(d.detach().numpy(), (x + 2 * y / u).detach().numpy(), rtol=1e-15)
    i = torch.tensor([1, 2, 3])
    r = torch.addcmul(i, i, i, value=2)
    assert r.tolist() == [3, 10, 21] and r.dtype == torch.int64
    with pytest.raises(RuntimeError, match='^Integer division with addcdiv is no longer supported'):
        torch.addcdiv(i, i, i)


def test_float_power_is_pow_in_double():
    x, y = torch.tensor([1.5, 2.5], requires_grad=True), torch.tensor([2., -1.], requires_grad=True)
    r = torch.float_power(x, y)
    assert r.dtype == torch.float64 and type(r.grad_fn).__name__ == 'PowBackward1'
    assert type(r.grad_fn.next_functions[0][0]).__name__ == 'ToCopyBackward0'
    assert torch.float_power(x, 2).grad_fn._saved_exponent == 2.0
    assert type(torch.float_power(2, x).grad_fn).__name__ == 'PowBackward2'
    assert torch.float_power(torch.tensor([1, 2]), 2).tolist() == [1., 4.]
    _check_grads(torch.float_power, _d([1.5, 2.5]), _d([2., -1.]))
    with pytest.raises(RuntimeError, match="^the base given to float_power_ has dtype Float but the operation's result "
                                           "requires dtype Double$"):
        torch.ones(2).float_power_(2)
    z = torch.ones(2, dtype=torch.float64) * 3
    assert z.float_power_(2) is z and z.tolist() == [9., 9.]


def test_logit_eps_and_nan_to_num():
    u = torch.tensor([0., 1., 2., -1., 0.5])
    r = torch.logit(u)
    assert r.tolist()[:2] == [-inf, inf] and all(math.isnan(v) for v in r.tolist()[2:4]) and r[4].item() == 0
    assert torch.logit(u, eps=0.25).tolist()[:2] == pytest.approx([math.log(1 / 3), math.log(3)])
    _check_grads(lambda a: torch.logit(a, eps=0.2), _d([0.1, 0.6, 0.9]))
    assert torch.logit(_d([0.5]), 0.1).grad_fn._saved_eps == 0.1
    v = torch.tensor([nan, inf, -inf, 1.])
    assert torch.nan_to_num(v).tolist() == [0., np.finfo(np.float32).max, np.finfo(np.float32).min, 1.]
    assert torch.nan_to_num(v, nan=2., posinf=3., neginf=-4.).tolist() == [2., 3., -4., 1.]
    w = v.clone().requires_grad_()
    torch.nan_to_num(w).sum().backward()
    assert w.grad.tolist() == [0, 0, 0, 1]


def test_heaviside_fmax_fmin():
    x = torch.tensor([-1., 0., 2.], requires_grad=True)
    h = torch.heaviside(x, torch.tensor([0.5]))
    assert h.tolist() == [0., 0.5, 1.] and type(h.grad_fn).__name__ == 'NotImplemented'
    assert len(h.grad_fn.next_functions) == 1
    with pytest.raises(RuntimeError, match='^derivative for aten::heaviside is not implemented$'):
        h.sum().backward()
    with pytest.raises(RuntimeError, match='^heaviside is not yet implemented for tensors with different dtypes.$'):
        torch.heaviside(torch.tensor([1]), torch.tensor([1.]))
    a, b = torch.tensor([nan, 1., nan, 3.]), torch.tensor([2., nan, nan, 1.])
    assert torch.fmax(a, b).tolist()[:2] == [2., 1.] and torch.fmax(a, b)[3].item() == 3.
    assert torch.fmin(a, b).tolist()[:2] == [2., 1.] and torch.fmin(a, b)[3].item() == 1.
    assert torch.fmax(torch.tensor([1, 5]), torch.tensor([3, 2])).dtype == torch.int64
    p, q = _d([0.5, -1.5, 2.0]), _d([1.0, -2.0, 0.25])
    for f in (torch.fmax, torch.fmin):
        r = _check_grads(f, p, q)
        assert _saved(r) == ['_saved_other', '_saved_self']
    with pytest.raises(TypeError, match=r"^fmax\(\): argument 'other' \(position 2\) must be Tensor, not float$"):
        torch.fmax(p, 2.)


def test_predicates_and_aliases():
    x, y = torch.tensor([0.5, -1.5, 2.0]), torch.tensor([0.5, -2.0, 2.0 + 1e-6])
    assert torch.isclose(x, y).tolist() == [True, False, True]
    v = torch.tensor([nan, inf, -inf, 1.])
    assert torch.isclose(v, v).tolist() == [False, True, True, True]
    assert torch.isclose(v, v, equal_nan=True).tolist() == [True] * 4
    assert torch.isclose(torch.tensor([1, 2]), torch.tensor([2, 2]), atol=1).tolist() == [True, True]
    with pytest.raises(RuntimeError, match='^Float did not match Long$'):
        torch.isclose(x, torch.tensor([1, 2, 3]))
    assert torch.isposinf(v).tolist() == [False, True, False, False]
    assert v.isneginf().tolist() == [False, False, True, False]
    assert torch.isreal(x).tolist() == [True] * 3 and torch.isposinf(torch.tensor([1])).tolist() == [False]
    assert torch.positive(x) is x and x.positive() is x
    with pytest.raises(RuntimeError, match='^The `\\+` operator, on a bool tensor is not supported.$'):
        torch.positive(torch.tensor([True]))
    for alias, name in (('greater', 'gt'), ('greater_equal', 'ge'), ('less', 'lt'), ('less_equal', 'le'),
                        ('not_equal', 'ne')):
        assert getattr(torch, alias)(x, y).tolist() == getattr(x, name)(y).tolist()
        assert getattr(x, alias)(0.5).tolist() == getattr(x, name)(0.5).tolist()
    z = torch.tensor([0.5, -1.5])
    assert z.multiply_(2) is z and z.subtract_(1).divide_(2).true_divide_(2).tolist() == [0., -1.]
    assert z.negative_().absolute_().tolist() == [0., 1.] and z.arcsin_().tolist() == [0., pytest.approx(math.pi / 2)]
    assert torch.tensor([-1.7, 2.5]).fix_().tolist() == [-1., 2.] and torch.fix(torch.tensor(-1.5)).item() == -1
    u = torch.tensor([0.25])
    assert u.clone().arccos_().item() == torch.acos(u).item() and u.clone().arctan_().item() == torch.arctan(u).item()
    assert torch.arcsin(u).item() == u.asin().item()


def test_out_and_version_of_in_place_forms():
    x, y = torch.tensor([0.5, -1.5]), torch.tensor([1.0, 2.0])
    out = torch.empty(2)
    assert torch.atan2(x, y, out=out) is out and out.tolist() == torch.atan2(x, y).tolist()
    leaf = torch.tensor([0.5], requires_grad=True)
    with pytest.raises(RuntimeError, match='a leaf Variable that requires grad is being used in an in-place operation'):
        leaf.exp2_()
    z = leaf * 1
    v = z._version
    z.hypot_(torch.tensor([1.]))
    assert z._version == v + 1 and type(z.grad_fn).__name__ == 'HypotBackward0'
