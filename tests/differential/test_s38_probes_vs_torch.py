"""Differences found by about 4,400 new learner-style probes (tensors, autograd mechanics, training code) against
real PyTorch, each kept here with its variants: random streams (Poisson, binomial, randint's wide ranges, half
randn, the Poisson and Binomial distributions over them), dtypes of composite ops, argument checks, modules' extra
state, imports of torch's submodules. Printed text, warnings and the final error must be the same."""
import pytest

T = pytest.importorskip("torch", reason="differential tests need real PyTorch (pip install torch==2.13.0)")
from .harness import SHOW, load_engine, preload_compilers, run_both, same  # noqa: E402

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
    # index_put_ (and `y[idx] = v`) saves the index tensors themselves: one changed in place fails backward, before
    # any gradient reaches the values
    "index_put_saves_its_indices": (
        'x = torch.zeros(4, requires_grad=True); v = torch.tensor([1., 2.], requires_grad=True)\n'
        'idx, m = torch.tensor([0, 1]), torch.tensor([True, False, True, False])\n'
        'y = x * 1; y[idx] = v; print(y.grad_fn._saved_indices[0] is idx); idx[1] = 3\n'
        'tries(lambda: y.sum().backward(), lambda: y.grad_fn._saved_indices); print(v.grad)\n'
        'idx = torch.tensor([0, 1]); y = x * 1; y.index_put_((idx,), v, accumulate=True); idx.add_(1)\n'
        'tries(lambda: y.sum().backward())\n'
        'idx = torch.tensor([0, 1]); z = (x * 1).index_put((idx,), v); idx[0] = 2; tries(lambda: z.sum().backward())\n'
        'y = x * 1; y[m] = 5.; m[3] = True; tries(lambda: y.sum().backward())\n'
        'idx = torch.tensor([0, 1]); y = x * 1; y[idx] += v; idx[1] = 3; tries(lambda: y.sum().backward()); print(v.grad)\n'
        'i, j = torch.tensor([0, 2]), torch.tensor([1, 1]); w = torch.zeros(3, 3, requires_grad=True) * 1\n'
        'w[i, j] = v; j[0] = 0; tries(lambda: w.sum().backward())\n'
        'idx = torch.tensor([0, 1]); y = x * 1; y[idx] = v; y.sum().backward(); print(v.grad, x.grad)'),
    # an in-place op's saved output keeps the sizes it had when saved, though later in-place ops reshape the tensor
    # (exp_, then add_, then t_: the version error names exp_'s result as [2, 3])
    "saved_output_keeps_its_sizes": (
        'for first in ("exp_", "sigmoid_"):\n'
        '    for last in ("t_()", "unsqueeze_(0)", "transpose_(0, 1)"):\n'
        '        b = torch.ones(2, 3, requires_grad=True) * 1\n'
        '        getattr(b, first)(); b.add_(1); exec("b." + last)\n'
        '        tries(lambda: b.sum().backward())\n'
        'b = torch.ones(1, 3, requires_grad=True) * 1; b.tanh_(); b[0] = 5; b.squeeze_(); tries(lambda: b.sum().backward())\n'
        'b = torch.ones(2, 3, requires_grad=True) * 1; b.exp_(); b.t_(); b.add_(1); tries(lambda: b.sum().backward())'),
    # logit's eps bounds: x < eps first, then x > 1 - eps (with eps above 1/2 they cross); NaN keeps its NaN slope in
    # the kernel, and the create_graph formula is where(eps <= x <= 1 - eps, ...); vector_norm's ord is a Number
    "logit_eps_and_vector_norm_ord": (
        'x = torch.tensor([0., 0.5, 1., 0.3, 0.45, float("nan")], requires_grad=True)\n'
        'for eps in (0.6, 0.1, None):\n'
        '    y = torch.logit(x, eps); y.sum().backward(); print(y, x.grad); x.grad = None\n'
        'x = torch.tensor([0.2, 0.7, 0., 1.], dtype=torch.float64, requires_grad=True)\n'
        'g, = torch.autograd.grad(torch.logit(x, 0.1).sum(), x, create_graph=True); show(g)\n'
        'print(torch.autograd.grad(g.sum(), x), torch.special.logit(torch.tensor([0.7]), eps=0.9))\n'
        'v = torch.tensor([1., -2.])\n'
        'tries(*(lambda o=o: torch.linalg.vector_norm(v, ord=o) for o in ("fro", None, True, torch.tensor(2.), 3j, "nuc")),\n'
        '      lambda: torch.linalg.vector_norm(v, torch.tensor([2.])), lambda: torch.linalg.vector_norm(v, [2]))'),
    # out= in grad mode: autograd's refusal names the op an alias's out= form calls (square: pow, vstack: cat, ...)
    "out_refusal_names_the_op_called": (
        'a, b = torch.ones(2, 3, requires_grad=True), torch.ones(3, requires_grad=True)\n'
        'o = torch.empty(0)      # (never resized: each refusal comes first)\n'
        'tries(lambda: torch.square(a, out=o), lambda: torch.outer(b, b, out=o), lambda: torch.multiply(a, a, out=o),\n'
        '      lambda: torch.divide(a, a, out=o), lambda: torch.subtract(a, a, out=o),\n'
        '      lambda: torch.diff(a, out=o), lambda: torch.clip(a, 0, 1, out=o), lambda: torch.absolute(a, out=o),\n'
        '      lambda: torch.negative(a, out=o), lambda: torch.arccos(a, out=o), lambda: torch.arctan2(a, a, out=o),\n'
        '      lambda: torch.fix(a, out=o), lambda: torch.nanmean(a, out=o), lambda: torch.vstack([a, a], out=o),\n'
        '      lambda: torch.concatenate([a, a], out=o), lambda: torch.msort(a, out=o),\n'
        '      lambda: torch.float_power(a, 2, out=o.double()), lambda: torch.mul(a, a, out=o),\n'
        '      lambda: torch.matrix_power(torch.ones(2, 2, requires_grad=True), 2, out=o))'),
    # the first torch.compile turns distributions' validation off for good (PyTorch's compiler does, when imported:
    # see test_snippet; tests/engine/test_distributions.py sees the first time in a process of its own); the next
    # compilations leave it as it is
    "compile_after_the_first": (
        'import torch.distributions as D\n'
        'D.Distribution.set_default_validate_args(True)\n'
        'f = torch.compile(lambda x: x * 2)\n'
        'print(f(torch.ones(2)))\n'
        'tries(lambda: D.Normal(0., -1.), lambda: D.Bernoulli(torch.tensor(2.)).probs)'),
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
        'from torch.distributions import Poisson, Binomial, kl_divergence, Distribution\n'
        'Distribution.set_default_validate_args(True)     # (torch.compile, in another test, turns it off for good)\n'
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
    if name.startswith("compile"):
        preload_compilers(T, E)
    code = SHOW + SNIPPETS[name]
    t, e = run_both(T, E, code)
    assert same(t, e), f"\n{code}\n--- torch\n{t.summary()}--- engine\n{e.summary()}"
