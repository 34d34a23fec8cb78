"""Differences found by about 4,400 new learner-style probes (tensors, autograd mechanics, training code) against
real PyTorch, each kept here with its variants: random streams (Poisson, binomial, randint's wide ranges, half
randn, the Poisson and Binomial distributions over them), dtypes of composite ops, argument checks, modules' extra
state, imports of torch's submodules. Printed text, warnings and the final error must be the same."""
import pytest

T = pytest.importorskip("torch", reason="differential tests need real PyTorch (pip install torch==2.13.0)")
from .harness import SHOW, load_engine, run_both, same  # noqa: E402

E = load_engine()

SNIPPETS = {
    # torch.poisson draws from PyTorch's generator: products of uniforms below a rate of 10, PTRS from 10 (and so
    # leaves the stream where PyTorch leaves it)
    "poisson_stream": (
        'print(torch.poisson(torch.tensor([1., 5.])), torch.rand(1))\n'
        'print(torch.poisson(torch.tensor([[0., 0.5, 9.99], [10., 25., 1000.]])), torch.randn(2))\n'
        'g = torch.Generator().manual_seed(7)\n'
        'print(torch.poisson(torch.rand(3, 4, generator=g) * 30, generator=g))\n'
        'print(torch.poisson(torch.tensor([100., 12.5], dtype=torch.float64)), torch.poisson(torch.ones(2, 3).t()))\n'
        'x = torch.rand(2, requires_grad=True) * 4\n'
        'y = torch.poisson(x); print(y, y.grad_fn); y.sum().backward()'),
    # torch.binomial: inversion below count * p = 10, BTRS from there, with p the smaller of prob and 1 - prob;
    # out-of-range counts and probabilities give 0 or the count, a NaN probability NaN
    "binomial_stream": (
        'print(torch.binomial(torch.tensor([10., 5.]), torch.tensor([0.5, 0.2])), torch.rand(1))\n'
        'print(torch.binomial(torch.tensor([10., -1., 5., 5., 3.]), torch.tensor([1.5, 0.5, -0.2, float("nan"), 1.])))\n'
        'print(torch.binomial(torch.full((8,), 100.), torch.full((8,), 0.3)), torch.rand(1))\n'
        'print(torch.binomial(torch.tensor([1000., 50., 20., 7.], dtype=torch.float64),\n'
        '                     torch.tensor([0.9, 0.7, 0.55, 0.99], dtype=torch.float64)))\n'
        'c = torch.randint(0, 200, (40,)).float(); p = torch.rand(40); print(torch.binomial(c, p).tolist())'),
    # randint and random_ take 64-bit draws for ranges of 2**28 or more (not only from 2**32)
    "randint_wide_ranges": (
        'for span in (2**28 - 1, 2**28, 10**9, 2**31, 2**32 - 1, 2**32, 2**40):\n'
        '    torch.manual_seed(0)\n'
        '    print(torch.randint(0, span, (3,)).tolist(), torch.randint(-2**30, span - 2**30, (2,), dtype=torch.float64),\n'
        '          torch.empty(2, dtype=torch.int64).random_(span).tolist(), torch.rand(1))'),
    # randn in half draws each block of 16 uniform numbers for itself (in float32), the last 16 redrawn
    "half_randn_blocks": (
        'for n in (16, 17, 20, 33, 100):\n'
        '    torch.manual_seed(0); print(n, torch.randn(n, dtype=torch.float16).tolist()[-3:], torch.rand(1))\n'
        'print(torch.empty(5, 5, dtype=torch.half).normal_(2, 3)[-1], torch.randn_like(torch.ones(3, 7).half())[2])'),
    # block_diag promotes as PyTorch's result_type (0-d tensors rank lower); of no tensors, a 1 x 0 matrix
    "block_diag_dtypes": (
        'tries(lambda: torch.block_diag(torch.ones(1, 2), torch.tensor([[3]])),\n'
        '      lambda: torch.block_diag(torch.tensor(2.5), torch.tensor([[3]], dtype=torch.int8)),\n'
        '      lambda: torch.block_diag(torch.ones(2, dtype=torch.float16), torch.tensor([[3]])),\n'
        '      lambda: torch.block_diag(torch.tensor([True]), torch.tensor([[3]], dtype=torch.int8)),\n'
        '      lambda: torch.block_diag())\n'
        'a = torch.ones(2, requires_grad=True)\n'
        'b = torch.block_diag(a, torch.tensor([[2.]], dtype=torch.float64)); show(b); b.sum().backward(); print(a.grad)'),
    # trapezoid of integers divides by 2. as a float (7.5, not 7); the graph as PyTorch composes it
    "trapezoid_integers": (
        'tries(lambda: torch.trapezoid(torch.tensor([1, 2, 4]), torch.tensor([0, 1, 3])),\n'
        '      lambda: torch.trapz(torch.tensor([[1, 2, 4]]), torch.tensor([0, 1, 3])),\n'
        '      lambda: torch.trapezoid(torch.tensor([1, 2, 4])), lambda: torch.trapezoid(torch.tensor([1, 2, 4]), dx=2))\n'
        'y = torch.tensor([1., 2., 4.], requires_grad=True); x = torch.tensor([0., 1., 3.], requires_grad=True)\n'
        'r = torch.trapezoid(y, x); show(r); print(r.grad_fn.next_functions[0][0].next_functions)\n'
        'r.backward(); print(y.grad, x.grad)'),
    # isin refuses bools on either side; tril_indices / triu_indices only make int32 and int64; a legacy tensor type
    # as a dtype is named torch.tensortype
    "argument_checks": (
        'tries(lambda: torch.isin(torch.tensor([True, False]), torch.tensor([True])),\n'
        '      lambda: torch.isin(1, torch.tensor([True])), lambda: torch.isin(torch.tensor([1, 2]), 2),\n'
        '      lambda: torch.tril_indices(2, 2, dtype=torch.float64), lambda: torch.triu_indices(2, 3, dtype=torch.bool),\n'
        '      lambda: torch.tril_indices(2, 2, dtype=float), lambda: torch.triu_indices(3, 2, 1, dtype=torch.int32),\n'
        '      lambda: torch.tensor([1], dtype=torch.FloatTensor), lambda: torch.as_tensor([1], dtype=torch.LongTensor))'),
    # a module's get_extra_state / set_extra_state: saved as `_extra_state`, given back on load, missing or
    # unexpected as PyTorch counts them
    "module_extra_state": (
        'import torch.nn as nn\n'
        'class M(nn.Module):\n'
        '    def __init__(self):\n'
        '        super().__init__(); self.step = 0; self.lin = nn.Linear(1, 1)\n'
        '    def get_extra_state(self): return {"step": self.step}\n'
        '    def set_extra_state(self, s): print("set", s); self.step = s["step"]\n'
        'm = M(); m.step = 5; sd = m.state_dict(); print(sd)\n'
        'm2 = M(); print(m2.load_state_dict(sd), m2.step)\n'
        'tries(lambda: m2.load_state_dict({"lin.weight": torch.ones(1, 1), "lin.bias": torch.ones(1)}))\n'
        'print(m2.load_state_dict({"lin.weight": torch.ones(1, 1), "lin.bias": torch.ones(1)}, strict=False))\n'
        'print(list(nn.Sequential(M(), nn.ReLU()).state_dict().keys()))\n'
        'sd = {"weight": torch.ones(1, 1), "bias": torch.ones(1), "_extra_state": 3}\n'
        'tries(lambda: nn.Linear(1, 1).load_state_dict(sd), lambda: nn.Linear(1, 1).load_state_dict(sd, strict=False),\n'
        '      lambda: nn.Linear(1, 1).get_extra_state(), lambda: nn.Linear(1, 1).set_extra_state(1))'),
    # torch's module-like objects import as modules (seeding boilerplate: `import torch.backends.cudnn as cudnn`);
    # DataLoader's helpers import from where PyTorch defines them
    "submodule_imports": (
        'import torch.backends.cudnn as cudnn\n'
        'cudnn.benchmark = True; cudnn.deterministic = True\n'
        'print(torch.backends.cudnn.deterministic, torch.backends.cudnn.benchmark, cudnn.is_available())\n'
        'from torch.backends import cudnn as c2\n'
        'print(c2 is cudnn, torch.backends.mps.is_available())\n'
        'try:\n'
        '    import torch.backends.foo\n'
        'except ImportError as e:\n'
        '    print(type(e).__name__, e)\n'
        'from torch.utils.data import get_worker_info\n'
        'from torch.utils.data.dataloader import default_collate\n'
        'print(get_worker_info(), default_collate([torch.tensor([1., 2.]), torch.tensor([3., 4.])]))\n'
        'print(torch.nn.init.xavier_uniform_.__qualname__, torch.nn.init.normal.__name__)'),
    # torch.distributions' Poisson and Binomial, over the exact samplers: samples, log_prob (its graph and
    # gradient), moments, support checks, enumerate_support / entropy, expand, their KL divergences
    "distributions_poisson_binomial": (
        'from torch.distributions import Poisson, Binomial, kl_divergence\n'
        'd = Poisson(torch.tensor([1., 4.5]))\n'
        'print(d, d.mean, d.mode, d.variance, d.batch_shape, d.support, d.sample(), d.sample((3,)))\n'
        'rate = torch.tensor([2., 0.5], requires_grad=True)\n'
        'lp = Poisson(rate).log_prob(torch.tensor([3., 0.])); show(lp); lp.sum().backward(); print(rate.grad)\n'
        'print(Poisson(3.).log_prob(torch.arange(4.)), Poisson(3.).sample((2,)), d.expand((3, 2)).sample())\n'
        'b = Binomial(10, torch.tensor([0.2, 0.8]))\n'
        'print(b, b.mean, b.mode, b.variance, b.support, b.logits, b.sample(), b.sample((3,)))\n'
        'print(b.log_prob(torch.tensor([2., 8.])), b.entropy(), b.enumerate_support(False).shape, b.expand((2, 2)).sample())\n'
        'pr = torch.tensor([0.3, 0.6], requires_grad=True)\n'
        'lp = Binomial(torch.tensor([5., 5.]), probs=pr).log_prob(torch.tensor([1., 4.])); show(lp); lp.sum().backward()\n'
        'print(pr.grad, Binomial(4, logits=torch.tensor([0.5, -1.])).sample())\n'
        'tries(lambda: Poisson(torch.tensor([-1.])), lambda: Poisson(torch.tensor([1.])).log_prob(torch.tensor([0.5])),\n'
        '      lambda: Poisson(torch.tensor([2.])).entropy(), lambda: Binomial(10),\n'
        '      lambda: Binomial(2.5, torch.tensor([0.5])), lambda: b.log_prob(torch.tensor([11., 1.])),\n'
        '      lambda: Binomial(torch.tensor([3., 4.]), torch.tensor([0.5, 0.5])).entropy(),\n'
        '      lambda: kl_divergence(Poisson(torch.tensor([1.])), Poisson(torch.tensor([2.]))),\n'
        '      lambda: kl_divergence(Binomial(5, torch.tensor([0.3])), Binomial(5, torch.tensor([0.6]))),\n'
        '      lambda: kl_divergence(Binomial(torch.tensor([6., 5.]), torch.tensor([0.3, 0.3])), Binomial(5, torch.tensor([0.6]))),\n'
        '      lambda: kl_divergence(Binomial(5, torch.tensor([0.3])), Binomial(6, torch.tensor([0.6]))))'),
}


@pytest.mark.parametrize("name", SNIPPETS)
def test_snippet(name):
    code = SHOW + SNIPPETS[name]
    t, e = run_both(T, E, code)
    assert same(t, e), f"\n{code}\n--- torch\n{t.summary()}--- engine\n{e.summary()}"
