"""Engine-only checks of the special functions added in session 32 (torch.i0, torch.special.i0e / i1 / i1e / erfcx /
ndtri / log_ndtr, torch.nextafter, torch.ldexp): their gradients and second derivatives by finite differences in
float64 (gradcheck / gradgradcheck), and their values against identities that hold over wide ranges."""
import math

import numpy as np
import pytest

import engine as torch

S = torch.special
# points away from the ones where a formula switches (|x| = 30 for the Bessel functions, 25 for erfcx)
XS = [-45.0, -12.5, -3.2, -0.9, -0.2, 0.3, 1.1, 4.7, 17.0, 42.0]


@pytest.mark.parametrize("fn", [torch.i0, S.i0, S.i0e, S.i1, S.i1e, S.erfcx, S.log_ndtr], ids=lambda f: f.__name__)
def test_gradients_by_finite_differences(fn):
    xs = [x for x in XS if fn is not S.erfcx or x > -20]          # (erfcx(-45) is beyond float64)
    if fn in (torch.i0, S.i0, S.i1):
        xs = [x for x in xs if abs(x) < 20]                       # (finite differences of e^45 lose their digits)
    x = torch.tensor(xs, dtype=torch.float64, requires_grad=True)
    assert torch.autograd.gradcheck(fn, (x,))
    assert torch.autograd.gradgradcheck(fn, (x,))


def test_ndtri_gradients():
    p = torch.tensor([1e-4, 0.003, 0.2, 0.5, 0.77, 0.999], dtype=torch.float64, requires_grad=True)
    assert torch.autograd.gradcheck(S.ndtri, (p,), eps=1e-8)
    q = torch.tensor([0.1, 0.3, 0.5, 0.8], dtype=torch.float64, requires_grad=True)
    assert torch.autograd.gradgradcheck(S.ndtri, (q,))


def test_i1_gradient_at_zero_is_one_half():
    """i1_backward: where |x| is at most epsilon the formula (which divides by x) gives way to 0.5."""
    for d in (torch.float32, torch.float64):
        x = torch.tensor([0.0, -0.0, 1e-30], dtype=d, requires_grad=True)
        S.i1(x).sum().backward()
        assert x.grad.tolist() == [0.5, 0.5, 0.5]
        x.grad = None
        S.i1e(x).sum().backward()
        assert x.grad.tolist() == [0.5, 0.5, 0.5]


def test_nextafter_and_ldexp_gradients():
    a = torch.tensor([1.0, -2.0, 3.0], dtype=torch.float64, requires_grad=True)
    b = torch.tensor([2.0, -2.0, 1.0], dtype=torch.float64, requires_grad=True)
    ga, gb = torch.autograd.grad(torch.nextafter(a, b).sum(), (a, b))
    assert ga.tolist() == [1.0, 0.0, 1.0] and gb.tolist() == [0.0, 0.0, 0.0]
    assert torch.autograd.gradcheck(torch.ldexp, (a, b))
    assert torch.autograd.gradgradcheck(torch.ldexp, (a, b))


def test_bessel_values():
    x = np.concatenate([np.linspace(-700, 700, 2801), np.linspace(-35, 35, 1401)])
    t = torch.tensor(x, dtype=torch.float64)
    i0 = torch.i0(t).numpy()
    assert np.allclose(i0, np.i0(x), rtol=1e-13)
    scale = np.exp(-np.abs(x))
    assert np.allclose(S.i0e(t).numpy(), np.i0(x) * scale, rtol=1e-13)
    i1 = S.i1(t).numpy()
    assert np.allclose(S.i1e(t).numpy(), i1 * scale, rtol=1e-12)
    # the Wronskian-like recurrence I0'(x) = I1(x), checked by central differences
    h = 1e-5
    small = torch.tensor(np.linspace(-20, 20, 81), dtype=torch.float64)
    diff = (torch.i0(small + h) - torch.i0(small - h)).numpy() / (2 * h)
    assert np.allclose(diff, S.i1(small).numpy(), rtol=1e-8, atol=1e-8)
    assert S.i1(-t).numpy().tolist() == (-S.i1(t)).numpy().tolist()             # odd
    assert math.isinf(torch.i0(torch.tensor([720.0], dtype=torch.float64)).item())
    assert math.isinf(torch.i0(torch.tensor([89.0])).item())                  # (exp overflows float32 first)
    assert S.i0e(torch.tensor([1e6], dtype=torch.float64)).item() == pytest.approx(1 / math.sqrt(2e6 * math.pi),
                                                                                   rel=1e-6)


def test_erfcx_log_ndtr_ndtri_values():
    x = np.linspace(-25, 25, 2001)
    t = torch.tensor(x, dtype=torch.float64)
    direct = np.exp(x * x) * np.array([math.erfc(v) for v in x])
    assert np.allclose(S.erfcx(t).numpy(), direct, rtol=1e-12)
    big = torch.tensor([30.0, 1e3, 1e10], dtype=torch.float64)
    assert np.allclose(S.erfcx(big).numpy(), 1 / (big.numpy() * math.sqrt(math.pi)), rtol=1e-3)
    ndtr = np.array([0.5 * math.erfc(-v / math.sqrt(2)) for v in x])
    keep = ndtr > 0
    assert np.allclose(S.log_ndtr(t).numpy()[keep], np.log(ndtr[keep]), rtol=1e-12)
    assert S.log_ndtr(torch.tensor([-1e3], dtype=torch.float64)).item() == pytest.approx(-500007.8266948122, rel=1e-12)
    z = np.linspace(-37, 3, 801)             # (above, p rounds to 1 in float64)
    p = torch.tensor([0.5 * math.erfc(-v / math.sqrt(2)) for v in z], dtype=torch.float64)
    assert np.allclose(S.ndtri(p).numpy(), z, rtol=1e-9, atol=1e-12)
    edges = S.ndtri(torch.tensor([0.0, 1.0, 0.5, -0.1, 1.1], dtype=torch.float64)).tolist()
    assert edges[:3] == [-math.inf, math.inf, 0.0] and all(math.isnan(v) for v in edges[3:])


def test_integer_inputs_give_floats_and_nodes_are_named():
    assert torch.i0(torch.arange(3)).dtype == torch.float32
    assert S.ndtri(torch.arange(3)).dtype == torch.float32
    x = torch.tensor([0.5], requires_grad=True)
    names = [type(f(x).grad_fn).__name__ for f in (torch.i0, S.i0, S.i0e, S.i1, S.i1e, S.erfcx, S.ndtri, S.log_ndtr)]
    assert names == ['I0Backward0', 'I0Backward0', 'SpecialI0EBackward0', 'SpecialI1Backward0', 'SpecialI1EBackward0',
                     'SpecialErfcxBackward0', 'SpecialNdtriBackward0', 'SpecialLogNdtrBackward0']
    assert torch.ldexp(torch.tensor([3]), torch.tensor([2])).tolist() == [12.0]
