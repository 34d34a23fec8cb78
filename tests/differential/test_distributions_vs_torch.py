"""torch.distributions against real PyTorch: Normal (rsample, the reparameterization trick), Categorical (REINFORCE),
Bernoulli, Uniform, Exponential, Independent, OneHotCategorical, kl_divergence, validation errors, reprs and
constraints. Graphs node by node with their saved values, values, gradients, samples after torch.manual_seed,
printed text, warnings and errors must be identical."""
import pytest

T = pytest.importorskip("torch", reason="differential tests need real PyTorch (pip install torch==2.13.0)")
from .harness import SHOW, load_engine, run_both, same  # noqa: E402

E = load_engine()

# walk(g): the graph below g, one node a line, with every saved attribute (tensors printed); names(g): node names
# only, for graphs with IndexPutBackward0, whose `_saved_accumulate` the engine does not show yet.
HELPERS = ("D = torch.distributions\n"
           "def walk(g, depth=0):\n"
           "    if g is None:\n"
           "        return\n"
           "    print('  ' * depth + type(g).__name__, [(n, getattr(g, n)) for n in sorted(dir(g)) if n.startswith('_saved_')])\n"
           "    for f, _ in g.next_functions:\n"
           "        walk(f, depth + 1)\n"
           "def names(g, depth=0):\n"
           "    if g is not None:\n"
           "        print('  ' * depth + type(g).__name__)\n"
           "        for f, _ in g.next_functions:\n"
           "            names(f, depth + 1)\n")

SNIPPETS = {
    "normal_rsample_log_prob_entropy_kl": (
        'torch.manual_seed(0)\n'
        'loc = torch.tensor([0.5, -1.], requires_grad=True)\n'
        'scale = torch.tensor([1.5, 0.3], requires_grad=True)\n'
        'n = D.Normal(loc, scale)\n'
        'print(n, n.batch_shape, n.event_shape, n.mean, n.stddev, n.variance, n.mode, n.has_rsample, n.support)\n'
        'z = n.rsample((3,))\n'
        'walk(z.grad_fn)\n'
        'lp = n.log_prob(z)\n'
        'walk(lp.grad_fn)\n'
        'lp.sum().backward()\n'
        'print(loc.grad, scale.grad)\n'
        'e = n.entropy()\n'
        'walk(e.grad_fn)\n'
        'print(n.sample(), n.sample((2,)), n.cdf(torch.tensor(0.3)), n.icdf(torch.tensor([0.2, 0.9])), n.perplexity())\n'
        'k = D.kl_divergence(n, D.Normal(torch.zeros(2), torch.ones(2)))\n'
        'walk(k.grad_fn)\n'
        'print(D.Normal(0., 1.), D.Normal(torch.tensor([0.]), 2.), D.Normal(torch.tensor(1.), torch.tensor([[1., 2.]])))\n'
        'print(D.Normal(torch.zeros(40), torch.ones(40)).sample().sum(), D.Normal(torch.zeros(5, 8), 2.).rsample().sum(),\n'
        '      D.Normal(torch.zeros(3, dtype=torch.float64), 1.).sample((7,)).sum(), D.Normal(0., 1.).sample((3,)))\n'
    ),
    "categorical_logits_and_probs": (
        'torch.manual_seed(0)\n'
        'logits = torch.tensor([[1., 2., 0.5], [0.1, -1., 3.]], requires_grad=True)\n'
        'c = D.Categorical(logits=logits)\n'
        'print(c, c.probs, c.logits, c.batch_shape, c.param_shape, c.mean, c.variance, c.mode, c.support)\n'
        'a = c.sample()\n'
        'print(a, c.sample((4,)))\n'
        'lp = c.log_prob(a)\n'
        'walk(lp.grad_fn)\n'
        'en = c.entropy()\n'
        'walk(en.grad_fn)\n'
        '(-lp * torch.tensor([1., -2.]) - en).sum().backward()\n'
        'print(logits.grad)\n'
        'tries(lambda: c.entropy())\n'
        'c2 = D.Categorical(probs=torch.tensor([0.2, 0.3, 0.5]) * 2)\n'
        'print(c2, c2.probs, c2.logits, c2.sample((5,)), c2.entropy(), c2.enumerate_support(), c2.enumerate_support(False))\n'
        'g = torch.tensor([0.3, 0.7], requires_grad=True)\n'
        'lp = D.Categorical(probs=g).log_prob(torch.tensor([1, 0]))\n'
        'walk(lp.grad_fn)\n'
        'lp.sum().backward()\n'
        'print(g.grad, D.Categorical(torch.ones(3, 5)).sample((4, 2)), D.Categorical(logits=torch.zeros(2, 3)).enumerate_support())\n'
        'print(D.Categorical(logits=torch.tensor([[1., 2.]])).log_prob(torch.tensor([[0, 1]])))\n'
    ),
    "reinforce_with_categorical": (
        'torch.manual_seed(0)\n'
        'policy = torch.nn.Linear(4, 3)\n'
        'opt = torch.optim.Adam(policy.parameters(), lr=0.01)\n'
        'for episode in range(3):\n'
        '    state = torch.randn(5, 4)\n'
        '    m = D.Categorical(logits=policy(state))\n'
        '    action = m.sample()\n'
        '    reward = (action == 1).float() - 0.5\n'
        '    loss = -(m.log_prob(action) * reward).sum()\n'
        '    opt.zero_grad()\n'
        '    loss.backward()\n'
        '    opt.step()\n'
        '    print(episode, action, loss, policy.bias.grad)\n'
        'm = D.Categorical(torch.nn.functional.softmax(policy(state), dim=-1))\n'
        'print(m.sample((2,)), m.log_prob(torch.tensor(2)), m.entropy())\n'
    ),
    "vae_reparameterization_and_kl": (
        'torch.manual_seed(0)\n'
        'enc = torch.nn.Linear(6, 4)\n'
        'dec = torch.nn.Linear(2, 6)\n'
        'x = torch.rand(3, 6)\n'
        'h = enc(x)\n'
        'mu, logvar = h[:, :2], h[:, 2:]\n'
        'q = D.Normal(mu, torch.exp(0.5 * logvar))\n'
        'z = q.rsample()\n'
        'recon = torch.sigmoid(dec(z))\n'
        'rec = -D.Bernoulli(probs=recon).log_prob((x > 0.5).float()).sum()\n'
        'kl = D.kl_divergence(q, D.Normal(torch.zeros_like(mu), torch.ones_like(mu))).sum()\n'
        'walk(kl.grad_fn)\n'
        'walk(rec.grad_fn)\n'
        '(rec + kl).backward()\n'
        'print(z, rec, kl, enc.weight.grad, dec.bias.grad)\n'
    ),
    "bernoulli_probs_and_logits": (
        'torch.manual_seed(0)\n'
        'p = torch.tensor([0.2, 0.9, 0.5], requires_grad=True)\n'
        'b = D.Bernoulli(p)\n'
        'print(b, b.logits, b.mean, b.variance, b.mode, b.sample(), b.sample((2,)), b.enumerate_support())\n'
        'lp = b.log_prob(torch.tensor([1., 0., 1.]))\n'
        'walk(lp.grad_fn)\n'
        'en = b.entropy()\n'
        'walk(en.grad_fn)\n'
        '(lp.sum() + en.sum()).backward()\n'
        'print(p.grad)\n'
        'print(D.Bernoulli(logits=torch.tensor(0.3)), D.Bernoulli(0.3).probs, D.Bernoulli(logits=2.).probs)\n'
        'print(D.Bernoulli(torch.full((20,), 0.5, dtype=torch.float64)).sample(), D.Bernoulli(logits=torch.zeros(2, 3)).sample((2,)))\n'
        'with torch.no_grad():\n'
        '    b = D.Bernoulli(logits=torch.tensor([0.2], requires_grad=True))\n'
        '    print(b.probs)\n'
        'print(D.Bernoulli(torch.tensor([0., 1.])).entropy(), D.Bernoulli(0.3).stddev)\n'
    ),
    "uniform_and_exponential": (
        'torch.manual_seed(1)\n'
        'lo = torch.tensor([0., -1.], requires_grad=True)\n'
        'hi = torch.tensor([2., 3.], requires_grad=True)\n'
        'u = D.Uniform(lo, hi)\n'
        'print(u, u.mean, u.stddev, u.variance, u.mode, u.support, u.arg_constraints, u.has_rsample)\n'
        'x = u.rsample((2,))\n'
        'walk(x.grad_fn)\n'
        'lp = u.log_prob(torch.tensor([1., 2.5]))\n'
        'walk(lp.grad_fn)\n'
        'print(u.entropy(), u.cdf(torch.tensor([0.5, 0.])), u.icdf(torch.tensor([0.5, 0.25])), u.sample())\n'
        'print(D.Uniform(0., 1.), D.Uniform(0., 1.).sample((3,)), D.Uniform(torch.zeros(2, dtype=torch.float64), 1.).sample((3,)))\n'
        'r = torch.tensor([0.5, 2.], requires_grad=True)\n'
        'ex = D.Exponential(r)\n'
        'print(ex, ex.mean, ex.stddev, ex.variance, ex.mode, ex.support)\n'
        's = ex.rsample((3,))\n'
        'walk(s.grad_fn)\n'
        'lp = ex.log_prob(s)\n'
        'walk(lp.grad_fn)\n'
        'lp.sum().backward()\n'
        'print(r.grad)\n'
        'print(ex.entropy(), ex.cdf(torch.tensor(1.)), ex.icdf(torch.tensor(0.5)), ex.sample(), D.Exponential(2.).sample((2,)))\n'
        'print(D.Exponential(torch.tensor([1., 2.], dtype=torch.float64)).sample((2,)))\n'
    ),
    "independent_and_one_hot_categorical": (
        'torch.manual_seed(2)\n'
        'ind = D.Independent(D.Normal(torch.zeros(3, 2), torch.ones(3, 2)), 1)\n'
        'print(ind, ind.batch_shape, ind.event_shape, ind.support, ind.has_rsample, ind.has_enumerate_support)\n'
        'print(ind.log_prob(torch.ones(3, 2)), ind.entropy(), ind.rsample(), ind.mean.shape, ind.variance.shape)\n'
        'print(ind.expand((4, 3)).batch_shape, ind.expand((4, 3)).base_dist)\n'
        'oh = D.OneHotCategorical(probs=torch.tensor([0.1, 0.6, 0.3]))\n'
        'print(oh, oh.probs, oh.logits, oh.mean, oh.variance, oh.mode, oh.sample(), oh.sample((2,)), oh.batch_shape, oh.event_shape)\n'
        'print(oh.log_prob(torch.tensor([0., 1., 0.])), oh.entropy(), oh.enumerate_support(), oh.support)\n'
        'st = D.OneHotCategoricalStraightThrough(logits=torch.tensor([0., 1., 2.], requires_grad=True))\n'
        'y = st.rsample()\n'
        'walk(y.grad_fn)\n'
    ),
    "kl_divergence_pairs": (
        'p = torch.tensor([0.2, 0.9, 0.5], requires_grad=True)\n'
        'b = D.Bernoulli(p)\n'
        'kb = D.kl_divergence(b, D.Bernoulli(logits=torch.tensor([0., 1., -2.])))\n'
        'names(kb.grad_fn)\n'
        'kb.sum().backward()\n'
        'print(kb, p.grad)\n'
        'logits = torch.tensor([[1., 2., 0.5], [0.1, -1., 3.]], requires_grad=True)\n'
        'kc = D.kl_divergence(D.Categorical(logits=logits), D.Categorical(probs=torch.tensor([0.2, 0.3, 0.5])))\n'
        'names(kc.grad_fn)\n'
        'kc.sum().backward()\n'
        'print(kc, logits.grad)\n'
        'ex = D.Exponential(torch.tensor([0.5, 2.]))\n'
        'u = D.Uniform(torch.tensor([0., -1.]), torch.tensor([2., 3.]))\n'
        'print(D.kl_divergence(ex, D.Exponential(torch.tensor([1., 1.]))), D.kl_divergence(ex, D.Normal(0., 1.)),\n'
        '      D.kl_divergence(ex, D.Uniform(0., 1.)), D.kl_divergence(D.Normal(0., 1.), ex), D.kl_divergence(D.Normal(0., 1.), u),\n'
        '      D.kl_divergence(u, D.Normal(0., 2.)), D.kl_divergence(u, ex), D.kl_divergence(u, D.Uniform(-1., 4.)))\n'
        'ind = D.Independent(D.Normal(torch.zeros(3, 2), torch.ones(3, 2)), 1)\n'
        'print(D.kl_divergence(ind, D.Independent(D.Normal(torch.ones(3, 2), 2 * torch.ones(3, 2)), 1)))\n'
        'oh = D.OneHotCategorical(probs=torch.tensor([0.1, 0.6, 0.3]))\n'
        'print(D.kl_divergence(oh, D.OneHotCategorical(logits=torch.tensor([0., 1., 2.]))))\n'
        'tries(lambda: D.kl_divergence(D.Bernoulli(torch.tensor([0., 1., 0.5])), D.Bernoulli(torch.tensor([1., 0., 0.]))),\n'
        '      lambda: D.kl_divergence(D.Categorical(torch.tensor([0., 1.])), D.Categorical(torch.tensor([1., 0.]))),\n'
        '      lambda: D.kl_divergence(D.Normal(0., 1.), D.Bernoulli(0.5)),\n'
        '      lambda: D.kl_divergence(D.Categorical(torch.ones(2)), D.Normal(0., 1.)),\n'
        '      lambda: D.kl_divergence(D.Independent(D.Normal(torch.zeros(2, 2), 1.), 1), D.Independent(D.Normal(torch.zeros(2, 2), 1.), 2)))\n'
        'kl_divergence, register_kl, Normal = D.kl.kl_divergence, D.kl.register_kl, D.normal.Normal\n'
        'print(kl_divergence is D.kl_divergence, Normal is D.Normal)\n'
        'class MyNormal(D.Normal):\n'
        '    pass\n'
        '@register_kl(MyNormal, D.Normal)\n'
        'def _kl(p, q):\n'
        '    return p.loc * 0\n'
        'print(D.kl_divergence(MyNormal(1., 1.), D.Normal(0., 1.)), D.kl_divergence(D.Normal(1., 1.), MyNormal(0., 1.)))\n'
    ),
    "validation_errors": (
        'torch.manual_seed(0)\n'           # (it samples: without a seed, PyTorch's first numbers are random)
        'tries(lambda: D.Normal(torch.tensor([0., 1.]), torch.tensor([1., -1.])),\n'
        '      lambda: D.Normal(0., 0.),\n'
        '      lambda: D.Normal(torch.tensor(0.), torch.tensor([1., 2.])).log_prob(torch.ones(3)),\n'
        '      lambda: D.Normal(0., 1.).log_prob(1.),\n'
        "      lambda: D.Normal(torch.tensor([float('nan')]), 1.),\n"
        '      lambda: D.Bernoulli(torch.tensor([0.5, 1.5])),\n'
        '      lambda: D.Bernoulli(),\n'
        '      lambda: D.Bernoulli(0.5, logits=0.),\n'
        '      lambda: D.Bernoulli(0.3).log_prob(torch.tensor(2.)),\n'
        '      lambda: D.Categorical(torch.tensor([0.5, 0.6])),\n'
        '      lambda: D.Categorical(torch.tensor([0.5, -0.6])),\n'
        '      lambda: D.Categorical(torch.tensor(1.)),\n'
        '      lambda: D.Categorical(logits=torch.tensor(1.)),\n'
        '      lambda: D.Categorical(logits=torch.tensor([1., 2.])).log_prob(torch.tensor(2)),\n'
        '      lambda: D.Categorical(logits=torch.tensor([[1., 2.], [3., 4.]])).log_prob(torch.tensor([0, 1, 1])),\n'
        '      lambda: D.Uniform(1., 0.),\n'
        '      lambda: D.Uniform(torch.zeros(2), torch.tensor([1., 0.])),\n'
        '      lambda: D.Uniform(0., 1.).log_prob(torch.tensor(1.5)),\n'
        '      lambda: D.Exponential(-1.),\n'
        '      lambda: D.Exponential(1.).log_prob(torch.tensor(-1.)),\n'
        '      lambda: D.Normal(torch.tensor([0., 1.]), torch.tensor([1., -1.]), validate_args=False).scale,\n'
        "      lambda: D.Normal(0., 1., validate_args=False).log_prob(torch.tensor(float('nan'))),\n"
        '      lambda: D.Independent(D.Normal(0., 1.), 1),\n'
        '      lambda: D.Normal(0., 1.).mode, lambda: D.Categorical(torch.ones(2)).rsample(),\n'
        '      lambda: D.Normal([0.], 1.),\n'
        '      lambda: D.OneHotCategorical(torch.ones(3)).log_prob(torch.tensor([1., 1., 0.])),\n'
        '      lambda: D.Normal(torch.zeros(2), 1.).expand((3, 2)),\n'
        '      lambda: D.Categorical(logits=torch.zeros(2)).expand((3,)).sample(),\n'
        '      lambda: D.Bernoulli(torch.tensor([0.3])).expand((2, 1)).logits)\n'
        'D.Distribution.set_default_validate_args(False)\n'
        'print(D.Normal(0., -1.).scale, D.Bernoulli(torch.tensor(2.)).probs)\n'
        'D.Distribution.set_default_validate_args(True)\n'
        'tries(lambda: D.Normal(0., -1.), lambda: D.Normal(0., 1.).sample_n(2).shape)\n'
    ),
    "constraints_reprs_and_types": (
        'C = D.constraints\n'
        'print(C.real, C.positive, C.simplex, C.unit_interval, C.real_vector, C.boolean, C.interval(0, 1), C.integer_interval(0, 3),\n'
        '      C.nonnegative, C.greater_than(2), C.less_than(1.5), C.one_hot, C.dependent, C.nonnegative_integer, C.positive_integer,\n'
        '      C.half_open_interval(0., 1.), C.independent(C.positive, 2), C.greater_than_eq(1))\n'
        'print(C.simplex.event_dim, C.real_vector.event_dim, C.boolean.is_discrete, C.is_dependent(D.Categorical.support))\n'
        'print(C.positive.check(torch.tensor([0., 1.])), C.simplex.check(torch.tensor([[0.5, 0.5], [0.2, 0.9]])),\n'
        "      C.real_vector.check(torch.tensor([[1., float('nan')], [1., 2.]])), C.integer_interval(0, 2).check(torch.tensor([0., 1.5, 2., 3.])))\n"
        'print(type(D.Categorical(torch.ones(2))), isinstance(D.Normal(0., 1.), D.ExponentialFamily), D.Distribution.has_rsample,\n'
        '      D.Normal.arg_constraints, D.Categorical.support, D.Bernoulli.has_enumerate_support, D.Uniform.has_rsample)\n'
        'print(D.Normal(torch.tensor([[0.]]), torch.tensor([[1.]])), D.Normal(torch.zeros(2, dtype=torch.float64), 1.).rsample().dtype)\n'
        'class Coin(D.Distribution):\n'
        "    arg_constraints = {'p': C.unit_interval}\n"
        '    def __init__(self, p, validate_args=None):\n'
        '        self.p = p\n'
        '        super().__init__(p.shape, validate_args=validate_args)\n'
        '    def log_prob(self, value):\n'
        '        self._validate_sample(value)\n'
        '        return value * self.p.log()\n'
        'class Bare(D.Distribution):\n'
        '    def __init__(self, p):\n'
        '        self.p = p\n'
        '        super().__init__(p.shape)\n'
        'print(Bare(torch.tensor([0.5])).batch_shape, Coin(torch.tensor([0.5])).log_prob(torch.ones(1)), Coin(torch.tensor([0.5, 0.2])))\n'
        'tries(lambda: Coin(torch.tensor([1.5])), lambda: Coin(torch.tensor([0.5])).mean, lambda: Coin(torch.tensor([0.5])).mode,\n'
        '      lambda: Coin(torch.tensor([0.5])).entropy(), lambda: Coin(torch.tensor([0.5])).sample())\n'
    ),
}


@pytest.mark.parametrize("name", SNIPPETS)
def test_snippet(name):
    """Printed text, warnings and the final error are identical (addresses blanked)."""
    code = SHOW + HELPERS + SNIPPETS[name]
    t, e = run_both(T, E, code)
    assert same(t, e), f"\n{code}\n--- torch\n{t.summary()}--- engine\n{e.summary()}"
