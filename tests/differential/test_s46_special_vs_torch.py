"""torch.special.gammainc / gammaincc and torch.igamma / igammac with PyTorch's CPU kernel (values bit for bit in
float64), and ATen's gamma kernels at torch level (torch._standard_gamma, _sample_dirichlet, _standard_gamma_grad,
_dirichlet_grad), against real PyTorch. Printed text, warnings and the final error must be the same."""
import pytest

T = pytest.importorskip("torch", reason="differential tests need real PyTorch (pip install torch==2.13.0)")
from .harness import SHOW, load_engine, run_both, same  # noqa: E402

E = load_engine()

SNIPPETS = {
    # torch.special.gammainc / gammaincc: torch.igamma / igammac under PyTorch's special_* builtins (their parser's
    # names in errors), IgammaBackward0 / IgammacBackward0, the derivative in `other` only
    "special_gammainc_and_gammaincc": (
        'a = torch.tensor([0.5, 2., 3.], requires_grad=True); x = torch.tensor([1., 2., 0.5], requires_grad=True)\n'
        'y = torch.special.gammainc(a, x); z = torch.special.gammaincc(a.detach(), x)\n'
        'print(y, z, y.grad_fn.name(), z.grad_fn.name(), torch.special.gammainc, torch.special.gammaincc)\n'
        'tries(lambda: y.sum().backward())\n'
        'z.sum().backward(); print(x.grad)\n'
        'tries(lambda: torch.special.gammainc(torch.ones(2), 2.), lambda: torch.special.gammaincc(torch.tensor([1, 2]'
        '), torch.tensor([1, 2])),\n'
        '      lambda: torch.special.gammainc(input=torch.ones(2), other=torch.ones(2)),\n'
        '      lambda: torch.special.gammainc(torch.ones(2), torch.ones(2), out=torch.empty(2, dtype=torch.float64)),\n'
        '      lambda: torch.special.gammainc(torch.ones(2, requires_grad=True), torch.ones(2), out=torch.empty(2)),\n'
        '      lambda: torch.special.gammainc(torch.tensor([1.], dtype=torch.float16), torch.tensor([1.])).dtype)'),
    # (values printed in hexadecimal: bit for bit)
    # float64 values as PyTorch's kernel gives them, bit for bit, in each of its regimes (series, continued fraction,
    # the small-x series of igammac, the asymptotic series for large a, the Lanczos prefactor) and at the edges
    "igamma_float64_bits": (
        'a = torch.tensor([1e-3, 0.5, 3., 50., 200., 1., 7., 0.2, 12., 25., 300., 1500., 0.05, 2.4116588666753414,\n'
        '                  3.172039866608653, 0., 0., 1., float("inf"), 2., -1., float("nan"), 1.], dtype=torch.float'
        '64)\n'
        'x = torch.tensor([1e-3, 0.7, 2.5, 45., 250., 30., 0.01, 5., 11., 27., 310., 1450., 0.0765, 2.464529750077691'
        '7,\n'
        '                  3.6476395125341297, 1., 0., 0., 3., float("inf"), 1., 1., float("nan")], dtype=torch.float'
        '64)\n'
        'print([v.hex() for v in torch.igamma(a, x).tolist()]); print([v.hex() for v in torch.igammac(a, x).tolist()]'
        ')\n'
        'print(a.igamma(x)[:5].tolist(), torch.special.gammaincc(a, x)[5:9].tolist())'),
    # float32 values (the kernel's float arithmetic, glibc's lgammaf)
    "igamma_float32_bits": (
        'a = torch.tensor([0.33, 5.25, 0.11, 1.59, 2.3, 17.75, 0.12, 1.56, 30.27, 1.14])\n'
        'x = torch.tensor([0.36, 4.15, 0.09, 0.99, 4.54, 13.88, 0.06, 1.97, 39.98, 1.06])\n'
        'print([v.hex() for v in torch.igamma(a, x).tolist()]); print([v.hex() for v in torch.igammac(a, x).tolist()]'
        ')'),
    # Gamma.cdf is torch.special.gammainc: its values bit for bit
    "gamma_cdf_bits": (
        'd = torch.distributions.Gamma(torch.tensor([0.33, 30.27, 5.25, 1.59], dtype=torch.float64), 1.)\n'
        'print([v.hex() for v in d.cdf(torch.tensor([0.36, 39.98, 4.15, 0.99], dtype=torch.float64)).tolist()])\n'
        'd = torch.distributions.Gamma(torch.tensor([0.11, 17.75]), torch.tensor([1., 1.]))\n'
        'print([v.hex() for v in d.cdf(torch.tensor([0.09, 13.88])).tolist()])'),
    # torch._standard_gamma, _sample_dirichlet, _standard_gamma_grad, _dirichlet_grad: ATen's kernels at torch level,
    # builtins with PyTorch's argument checks
    "gamma_kernels_at_torch_level": (
        'print(torch._standard_gamma, torch._sample_dirichlet, torch._standard_gamma_grad, torch._dirichlet_grad)\n'
        'torch.manual_seed(0)\n'
        'a = torch.tensor([0.5, 2., 3.], requires_grad=True)\n'
        'y = torch._standard_gamma(a); print(y); y.sum().backward(); print(a.grad)\n'
        'g = torch.Generator().manual_seed(3)\n'
        'print(torch._standard_gamma(torch.tensor([1., 2.], dtype=torch.float64), generator=g), torch._sample_dirichl'
        'et(torch.tensor([[1., 2., 3.]]), g))\n'
        'print(torch._standard_gamma_grad(torch.tensor([1., 2.]), torch.tensor([0.5, 3.])),\n'
        '      torch._dirichlet_grad(torch.tensor([0.2, 0.5]), torch.tensor([1., 2.]), torch.tensor([3., 4.])))\n'
        'tries(lambda: torch._standard_gamma(torch.tensor([1, 2])), lambda: torch._standard_gamma(1.),\n'
        '      lambda: torch._sample_dirichlet(torch.tensor([1, 2])), lambda: torch._standard_gamma_grad(torch.tensor'
        '([1.]), 2.),\n'
        '      lambda: torch._dirichlet_grad(torch.tensor([1.]), torch.tensor([1.])), lambda: torch._standard_gamma(t'
        'orch.tensor([1.]), 3),\n'
        '      lambda: torch._sample_dirichlet(torch.tensor([1., 2.], requires_grad=True)).grad_fn,\n'
        '      lambda: torch._standard_gamma_grad(torch.tensor([1.], requires_grad=True), torch.tensor([0.5])).sum().'
        'backward(),\n'
        '      lambda: torch._standard_gamma_grad(torch.tensor([1.]), torch.tensor([0.5], dtype=torch.float64)),\n'
        '      lambda: torch._dirichlet_grad(torch.tensor([0.2, 0.3]), torch.tensor([1.]), torch.tensor([3., 4., 5.])'
        '))'),
    # dir() of torch.special lists gammainc and gammaincc; the new names are found
    "special_names_listed": (
        "print([n for n in ('gammainc', 'gammaincc', 'xlog1py') if n in dir(torch.special)],\n"
        "      [hasattr(torch, n) for n in ('_standard_gamma', '_sample_dirichlet', '_standard_gamma_grad', '_dirichl"
        "et_grad', 'igamma')])"),
}


@pytest.mark.parametrize("name", SNIPPETS)
def test_snippet(name):
    code = SHOW + SNIPPETS[name]
    t, e = run_both(T, E, code)
    assert same(t, e), f"\n{code}\n--- torch\n{t.summary()}--- engine\n{e.summary()}"
