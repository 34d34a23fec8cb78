"""Session 46: the distributions after Normal (Gamma, Chi2, Beta, Dirichlet, StudentT, Laplace, Cauchy, Gumbel,
Geometric, LogNormal, HalfNormal), TransformedDistribution with torch.distributions.transforms, and their
kl_divergence pairs, against real PyTorch: printed values (samples after manual_seed included), graphs, gradients,
reprs, warnings and errors must be the same."""
import pytest

T = pytest.importorskip("torch", reason="differential tests need real PyTorch (pip install torch==2.13.0)")
from .harness import SHOW, load_engine, run_both, same  # noqa: E402

E = load_engine()

SNIPPETS = {
    # Gamma: reprs, moments, samples after manual_seed (ATen's Marsaglia-Tsang sampler, the generator's kept normal
    # number included), log_prob, entropy
    'gamma_basics': (
        'from torch.distributions import Gamma, Chi2\n'
        'torch.manual_seed(0)\n'
        'g = Gamma(torch.tensor([2.0, 0.5, 7.0]), torch.tensor([1.0, 3.0, 0.5]))\n'
        'print(g, g.batch_shape, g.event_shape, g.mean, g.variance, g.mode, g.stddev)\n'
        'print(g.sample(), g.sample((2,)), g.entropy(), g.log_prob(torch.tensor([1., 2., 3.])))\n'
        'print(Gamma(2., 3.), Gamma(2., 3.).sample(), Gamma(2., 3.).sample((3,)).dtype, torch.randn(2))'),
    # Gamma.rsample's graph (StandardGammaBackward0 under DivBackward0) and its reparameterized gradient
    # (_standard_gamma_grad's three regimes)
    'gamma_rsample_grads': (
        'from torch.distributions import Gamma\n'
        'c = torch.tensor([2.0, 0.5, 7.0, 12.0, 0.05], requires_grad=True)\n'
        'r = torch.tensor(1.5, requires_grad=True)\n'
        'torch.manual_seed(3)\n'
        'g = Gamma(c, r)\n'
        'x = g.rsample((4,))\n'
        'show(x)\n'
        'x.sum().backward()\n'
        'print(c.grad, r.grad)'),
    'gamma_log_prob_entropy_graph': (
        'from torch.distributions import Gamma\n'
        'c = torch.tensor([2.0, 0.5], requires_grad=True)\n'
        'g = Gamma(c, 2.)\n'
        'lp = g.log_prob(torch.tensor([0.5, 1.5]))\n'
        'show(lp); lp.sum().backward(); print(c.grad)\n'
        'e = g.entropy(); show(e)'),
    'gamma_chi2_argument_errors': (
        'from torch.distributions import Gamma, Chi2\n'
        'tries(lambda: Gamma(torch.tensor([-1., 2.]), 1.), lambda: Gamma(1., 0.), lambda: Gamma(1., 1.).log_prob(torc'
        'h.tensor(-1.)),\n'
        '      lambda: Gamma(torch.ones(2), 1.).log_prob(torch.ones(3)), lambda: Chi2(-1.), lambda: Chi2(torch.tensor'
        '([1., 0.])))'),
    'chi2_basics_expand': (
        'from torch.distributions import Chi2\n'
        'torch.manual_seed(1)\n'
        'd = Chi2(torch.tensor([1., 3., 10.]))\n'
        'print(d, d.df, d.mean, d.variance, d.sample(), d.sample((2,)), d.log_prob(torch.tensor([.5, 1., 2.])), d.ent'
        'ropy())\n'
        'e = d.expand((2, 3)); print(e, e.batch_shape, e.df, type(e).__name__, e.sample())'),
    'gamma_rsample_small_and_large_concentrations': (
        'torch.manual_seed(0)\n'
        'a = torch.tensor([0.3, 1.0, 2.5, 40.0], requires_grad=True)\n'
        'y = torch.distributions.Gamma(a, 1.).rsample((5,))\n'
        'print(y)\n'
        'g, = torch.autograd.grad(y.sum(), a)\n'
        'print(g)'),
    'gamma_float64_samples': (
        'torch.manual_seed(0)\n'
        'y = torch.distributions.Gamma(torch.tensor([1.5, 3.], dtype=torch.float64), 2.).rsample((3,))\n'
        'print(y, y.dtype)'),
    'gamma_expand_and_cdf': (
        'from torch.distributions import Gamma\n'
        'g = Gamma(torch.tensor([2.0, 3.0]), torch.tensor([1.0, 2.0]))\n'
        'e = g.expand((3, 2)); print(e, e.batch_shape, e.concentration)\n'
        'torch.manual_seed(0); print(e.sample(), e.rsample((1,)).shape)\n'
        'print(Gamma(2., 1.).cdf(torch.tensor(1.5)))'),
    # Beta: the first coordinate of a two-dim Dirichlet, samples from _sample_dirichlet
    'beta_basics': (
        'from torch.distributions import Beta\n'
        'torch.manual_seed(0)\n'
        'b = Beta(torch.tensor([2.0, 0.5, 7.0]), torch.tensor([1.0, 3.0, 0.5]))\n'
        'print(b, b.batch_shape, b.event_shape, b.mean, b.variance, b.mode, b.concentration1, b.concentration0)\n'
        'print(b.sample(), b.sample((2,)), b.entropy(), b.log_prob(torch.tensor([0.1, 0.5, 0.9])))\n'
        'print(Beta(2., 3.), Beta(2., 3.).sample(), Beta(2., 3.).concentration1, Beta(0.5, 0.5).rsample((4,)), torch.'
        'randn(2))'),
    # Beta.rsample's graph and gradients (_dirichlet_grad's series, saddle-point and rational branches)
    'beta_rsample_grads': (
        'from torch.distributions import Beta\n'
        'a = torch.tensor([2.0, 0.5, 7.0, 12.0, 0.05], requires_grad=True)\n'
        'c = torch.tensor([1.0, 3.0, 0.5, 9.0, 0.3], requires_grad=True)\n'
        'torch.manual_seed(3)\n'
        'x = Beta(a, c).rsample((4,))\n'
        'show(x)\n'
        'x.sum().backward()\n'
        'print(a.grad, c.grad)'),
    'beta_log_prob_entropy_graph': (
        'from torch.distributions import Beta\n'
        'a = torch.tensor([2.0, 0.5], requires_grad=True)\n'
        'b = Beta(a, 2.)\n'
        'lp = b.log_prob(torch.tensor([0.5, 0.25]))\n'
        'show(lp); lp.sum().backward(); print(a.grad)\n'
        'e = b.entropy(); show(e)'),
    'beta_dirichlet_argument_errors': (
        'from torch.distributions import Beta, Dirichlet\n'
        'tries(lambda: Beta(torch.tensor([-1., 2.]), 1.), lambda: Beta(1., 0.), lambda: Beta(1., 1.).log_prob(torch.t'
        'ensor(1.5)),\n'
        '      lambda: Dirichlet(torch.tensor(1.)), lambda: Dirichlet(torch.tensor([1., -1.])),\n'
        '      lambda: Dirichlet(torch.tensor([1., 1.])).log_prob(torch.tensor([0.5, 0.6])),\n'
        '      lambda: Dirichlet(torch.tensor([1., 1.])).log_prob(torch.tensor([0.5, 0.5, 0.])))'),
    'dirichlet_basics': (
        'from torch.distributions import Dirichlet\n'
        'torch.manual_seed(1)\n'
        'd = Dirichlet(torch.tensor([[1., 3., 10.], [0.2, 0.3, 0.5]]))\n'
        'print(d, d.batch_shape, d.event_shape, d.mean, d.variance, d.mode, d.sample(), d.sample((2,)))\n'
        'print(d.log_prob(torch.tensor([.2, .3, .5])), d.entropy())\n'
        'e = d.expand((4, 2)); print(e, e.batch_shape, e.sample().shape)'),
    # Dirichlet.rsample: the _Dirichlet custom Function's node and its gradient
    'dirichlet_rsample_grads': (
        'from torch.distributions import Dirichlet\n'
        'torch.manual_seed(2)\n'
        'c = torch.tensor([[1., 3., 10.], [0.2, 0.3, 0.5], [7., 8., 9.]], requires_grad=True)\n'
        'x = Dirichlet(c).rsample((3,))\n'
        'show(x)\n'
        '(x * torch.arange(3.)).sum().backward()\n'
        'print(c.grad)'),
    'dirichlet_float64_grads': (
        'from torch.distributions import Dirichlet\n'
        'torch.manual_seed(2)\n'
        'c = torch.tensor([0.7, 2.0, 5.], dtype=torch.float64, requires_grad=True)\n'
        'x = Dirichlet(c).rsample((4,))\n'
        'print(x)\n'
        '(x[:, 0] ** 2).sum().backward(); print(c.grad)'),
    'kl_beta_dirichlet_gamma': (
        'from torch.distributions import Beta, Dirichlet, kl_divergence\n'
        'p, q = Beta(torch.tensor([2., 3.]), torch.tensor([4., 1.])), Beta(torch.tensor([1., 3.]), torch.tensor([1., '
        '2.]))\n'
        'print(kl_divergence(p, q))\n'
        'p, q = Dirichlet(torch.tensor([2., 3., 1.])), Dirichlet(torch.tensor([1., 3., 4.]))\n'
        'print(kl_divergence(p, q))\n'
        'from torch.distributions import Gamma\n'
        'print(kl_divergence(Gamma(torch.tensor([2., 3.]), 1.5), Gamma(torch.tensor([1., 3.]), 2.)))'),
    'beta_many_samples': (
        'from torch.distributions import Beta\n'
        'torch.manual_seed(0)\n'
        'b = Beta(torch.full((1000,), 0.8), torch.full((1000,), 1.3))\n'
        'x = b.sample()\n'
        'print(x.mean(), x.std(), x.min(), x.max(), x[:5], x[-5:])'),
    # the SAC policy: Normal through TanhTransform(cache_size=1), rsample and log_prob with gradients
    'tanh_squashed_gaussian_policy': (
        'from torch.distributions import Normal, TransformedDistribution\n'
        'from torch.distributions.transforms import TanhTransform, AffineTransform, ExpTransform, SigmoidTransform\n'
        'mu = torch.tensor([0.5, -1.0], requires_grad=True)\n'
        'std = torch.tensor([0.3, 1.2], requires_grad=True)\n'
        'torch.manual_seed(0)\n'
        'd = TransformedDistribution(Normal(mu, std), [TanhTransform(cache_size=1)])\n'
        'print(d, d.batch_shape, d.event_shape, d.support, d.has_rsample)\n'
        'a = d.rsample()\n'
        'lp = d.log_prob(a)\n'
        'show(a); show(lp)\n'
        '(lp.sum() + a.sum()).backward()\n'
        'print(mu.grad, std.grad)'),
    'transformed_independent_tanh_affine': (
        'from torch.distributions import Normal, TransformedDistribution, Independent\n'
        'from torch.distributions.transforms import TanhTransform, AffineTransform\n'
        'torch.manual_seed(0)\n'
        'base = Independent(Normal(torch.zeros(3), torch.ones(3)), 1)\n'
        'd = TransformedDistribution(base, [TanhTransform(), AffineTransform(torch.tensor([1., 2., 3.]), 2.)])\n'
        'x = d.sample((2,))\n'
        'print(x, d.log_prob(x), d.support, d.event_shape)\n'
        'print(d.transforms)'),
    # each transform: its repr, inverse, log_abs_det_jacobian, domain and codomain
    'transforms_forward_inverse_logdet': (
        'from torch.distributions.transforms import *\n'
        'ts = [ExpTransform(), SigmoidTransform(), TanhTransform(), AffineTransform(1., 2.), PowerTransform(torch.ten'
        'sor(2.)),\n'
        '      SoftplusTransform(), AbsTransform(), ComposeTransform([ExpTransform(), AffineTransform(0., 3.)])]\n'
        'x = torch.tensor([0.2, 0.7, 1.5])\n'
        'for t in ts:\n'
        '    y = t(x)\n'
        "    print(t, t.inv, y, t.inv(y), t.log_abs_det_jacobian(x, y) if not isinstance(t, AbsTransform) else '', t."
        "domain, t.codomain, t.bijective)"),
    'transforms_equality_inverse_cache_errors': (
        'from torch.distributions.transforms import *\n'
        'print(ExpTransform() == ExpTransform(), ExpTransform().inv == ExpTransform().inv, ExpTransform().inv.inv, Ta'
        'nhTransform().sign,\n'
        '      AffineTransform(0., -2.).sign, ExpTransform().event_dim, identity_transform, ComposeTransform([ExpTran'
        'sform(), TanhTransform()]).inv)\n'
        'tries(lambda: ExpTransform(cache_size=2), lambda: AffineTransform(0., 1.).with_cache(), lambda: ExpTransform'
        '().with_cache(1)._cache_size,\n'
        '      lambda: SoftmaxTransform().event_dim, lambda: SoftmaxTransform().inv.domain, lambda: Transform().sign,\n'
        '      lambda: StickBreakingTransform()(torch.tensor([0.1, -0.3])), lambda: StickBreakingTransform().inv(torc'
        'h.tensor([0.2, 0.3, 0.5])))'),
    'softmax_stickbreaking_transforms': (
        'from torch.distributions.transforms import SoftmaxTransform, StickBreakingTransform\n'
        'x = torch.tensor([[0.1, 0.5, -1.], [2., 0., 1.]], requires_grad=True)\n'
        'y = SoftmaxTransform()(x); show(y)\n'
        's = StickBreakingTransform()\n'
        'z = s(x); show(z); l = s.log_abs_det_jacobian(x, z); show(l)\n'
        'print(s.inv(z))'),
    'tanh_transform_cache': (
        'from torch.distributions.transforms import TanhTransform\n'
        't = TanhTransform(cache_size=1)\n'
        'x = torch.tensor([5., 10., 20.])\n'
        'y = t(x)\n'
        'print(y, t.inv(y), t.inv(y) is x, TanhTransform().inv(y))'),
    'lognormal_halfnormal_basics': (
        'from torch.distributions import LogNormal, HalfNormal\n'
        'torch.manual_seed(0)\n'
        'd = LogNormal(torch.tensor([0., 1.]), torch.tensor([1., 0.5]))\n'
        'print(d, d.batch_shape, d.loc, d.scale, d.mean, d.variance, d.mode, d.entropy(), d.support)\n'
        'x = d.sample((3,)); print(x, d.log_prob(x), d.cdf(x), d.icdf(torch.tensor([0.3, 0.9])))\n'
        'h = HalfNormal(torch.tensor([1., 2.]))\n'
        'print(h, h.scale, h.mean, h.variance, h.mode, h.entropy(), h.sample((2,)), h.log_prob(torch.tensor([0.5, -1.'
        '])), h.cdf(torch.tensor([0.5, 1.])), h.icdf(torch.tensor([0.5, 0.9])))\n'
        'print(LogNormal(0., 1.), HalfNormal(1.), LogNormal(0., 1.).sample())'),
    'lognormal_halfnormal_grads_errors': (
        'from torch.distributions import LogNormal, HalfNormal\n'
        'mu = torch.tensor([0., 1.], requires_grad=True)\n'
        'torch.manual_seed(0)\n'
        'x = LogNormal(mu, 0.5).rsample()\n'
        'show(x)\n'
        'lp = LogNormal(mu, 0.5).log_prob(torch.tensor([1., 2.]))\n'
        'show(lp)\n'
        'tries(lambda: LogNormal(0., -1.), lambda: LogNormal(0., 1.).log_prob(torch.tensor(-1.)), lambda: HalfNormal('
        '-1.),\n'
        '      lambda: HalfNormal(1.).log_prob(torch.tensor(-1.)), lambda: LogNormal(0., 1.).expand((2,)).sample().sh'
        'ape,\n'
        '      lambda: HalfNormal(torch.ones(2)).expand((3, 2)))'),
    'kl_lognormal_halfnormal': (
        'from torch.distributions import LogNormal, HalfNormal, kl_divergence\n'
        'print(kl_divergence(LogNormal(torch.tensor([0., 1.]), 1.), LogNormal(torch.tensor([1., 1.]), 2.)))\n'
        'print(kl_divergence(HalfNormal(torch.tensor([1., 2.])), HalfNormal(torch.tensor([2., 2.]))))'),
    'laplace': (
        'from torch.distributions import Laplace\n'
        'torch.manual_seed(0)\n'
        'loc = torch.tensor([0., 1.], requires_grad=True)\n'
        'd = Laplace(loc, torch.tensor([1., 0.5]))\n'
        'print(d, d.mean, d.variance, d.stddev, d.mode, d.entropy(), d.support)\n'
        'x = d.rsample((3,)); show(x)\n'
        'lp = d.log_prob(torch.tensor([0.3, 2.])); show(lp)\n'
        'print(d.cdf(torch.tensor([0.3, 2.])), d.icdf(torch.tensor([0.3, 0.9])), Laplace(0., 1.).sample((4,)), torch.'
        'rand(2))\n'
        'tries(lambda: Laplace(0., 0.), lambda: Laplace(0., 1.).expand((2,)), lambda: Laplace(0., 1.).log_prob(1.))'),
    'cauchy': (
        'from torch.distributions import Cauchy\n'
        'torch.manual_seed(0)\n'
        'd = Cauchy(torch.tensor([0., 1.]), torch.tensor([1., 0.5]))\n'
        'print(d, d.mean, d.variance, d.mode, d.entropy())\n'
        'print(d.sample((3,)), d.log_prob(torch.tensor([0.3, 2.])), d.cdf(torch.tensor([0.3, 2.])), d.icdf(torch.tens'
        'or([0.3, 0.9])))\n'
        'tries(lambda: d.stddev, lambda: Cauchy(0., -1.))'),
    'gumbel': (
        'from torch.distributions import Gumbel\n'
        'torch.manual_seed(0)\n'
        'd = Gumbel(torch.tensor([0., 1.]), torch.tensor([1., 0.5]))\n'
        'print(d, d.batch_shape, d.mean, d.variance, d.stddev, d.mode, d.entropy(), d.support)\n'
        'x = d.sample((3,)); print(x, d.log_prob(x), d.cdf(x))\n'
        'print(Gumbel(0., 1.), Gumbel(0., 1.).sample((3,)), Gumbel(0., 1.).expand((2,)).sample())\n'
        'tries(lambda: Gumbel(0., 0.), lambda: d.rsample(), lambda: d.icdf(torch.tensor([0.3, 0.5])))'),
    'geometric': (
        'from torch.distributions import Geometric\n'
        'torch.manual_seed(0)\n'
        'd = Geometric(torch.tensor([0.2, 0.7]))\n'
        'print(d, d.mean, d.variance, d.mode, d.entropy(), d.logits, d.sample((3,)), d.log_prob(torch.tensor([0., 3.]'
        ')))\n'
        'd2 = Geometric(logits=torch.tensor([0.5, -1.]))\n'
        'print(d2, d2.probs, d2.sample(), d2.expand((2, 2)))\n'
        'tries(lambda: Geometric(torch.tensor([0., 0.5])), lambda: Geometric(1.5), lambda: Geometric(), lambda: Geome'
        'tric(0.5, 0.2),\n'
        '      lambda: Geometric(0.5).log_prob(torch.tensor(0.5)), lambda: Geometric(torch.tensor(1.)).log_prob(torch'
        '.tensor([0., 1.])))'),
    'studentt': (
        'from torch.distributions import StudentT\n'
        'torch.manual_seed(0)\n'
        'df = torch.tensor([1., 2.5, 10.], requires_grad=True)\n'
        'd = StudentT(df, torch.tensor(1.), 2.)\n'
        'print(d, d.batch_shape, d.mean, d.variance, d.mode, d.entropy())\n'
        'x = d.rsample((2,)); show(x)\n'
        'x.sum().backward(); print(df.grad)\n'
        'print(d.log_prob(torch.tensor([0., 1., 2.])), StudentT(3.).sample((3,)), StudentT(3.))\n'
        'tries(lambda: StudentT(0.), lambda: StudentT(1., 0., -1.), lambda: d.expand((2, 3)).sample().shape)'),
    # kl_divergence between every pair of the continuous distributions: a formula, inf, or NotImplementedError
    'kl_pairs_table': (
        'from torch.distributions import *\n'
        'ps = [Normal(torch.tensor([0.3, 1.]), torch.tensor([1., 2.])), Laplace(torch.tensor([0.3, 1.]), torch.tensor'
        '([1., 2.])),\n'
        '      Gumbel(torch.tensor([0.3, 1.]), torch.tensor([1., 2.])), Gamma(torch.tensor([2., 3.]), torch.tensor([1'
        '., 2.])),\n'
        '      Beta(torch.tensor([2., 3.]), torch.tensor([1., 2.])), Exponential(torch.tensor([0.5, 2.])),\n'
        '      Uniform(torch.tensor([0.1, 0.2]), torch.tensor([0.5, 0.9])), Cauchy(torch.tensor([0.3, 1.]), torch.ten'
        'sor([1., 2.])),\n'
        '      Geometric(torch.tensor([0.3, 0.6]))]\n'
        'for p in ps:\n'
        '    for q in ps:\n'
        '        try:\n'
        '            print(type(p).__name__, type(q).__name__, kl_divergence(p, q))\n'
        '        except NotImplementedError as e:\n'
        "            print(type(p).__name__, type(q).__name__, 'NotImplementedError', e)"),
    'kl_chi2': (
        'from torch.distributions import Chi2, Gamma, kl_divergence, Exponential\n'
        'print(kl_divergence(Chi2(torch.tensor([2., 3.])), Chi2(torch.tensor([4., 3.]))), kl_divergence(Chi2(2.), Exp'
        'onential(1.)))\n'
        'print(kl_divergence(Gamma(2., 1.), Gamma(torch.tensor([3.]), 1.)))'),
    'dirichlet_wide_rows': (
        'from torch.distributions import Dirichlet\n'
        'torch.manual_seed(5)\n'
        'c = torch.rand(3, 40) * 3 + 0.05\n'
        'x = Dirichlet(c).sample((2,))\n'
        'print(x.sum(-1), x[0, :, :6], x[1, 2, -6:])'),
    'gamma_beta_noncontiguous_broadcast': (
        'from torch.distributions import Gamma, Beta\n'
        'torch.manual_seed(5)\n'
        'c = torch.rand(4, 3).t()\n'
        'print(Gamma(c, 1.).sample(), Beta(c, c.t().t()).sample((2,)))\n'
        'a = torch.tensor([[0.5], [2.]], requires_grad=True)\n'
        'y = Gamma(a, torch.ones(3)).rsample(); show(y); y.sum().backward(); print(a.grad)'),
    'beta_gamma_float64_grads': (
        'from torch.distributions import Beta, Gamma\n'
        'torch.manual_seed(5)\n'
        'a = torch.tensor([0.5, 2., 30.], dtype=torch.float64, requires_grad=True)\n'
        'y = Beta(a, 3.).rsample((2,)); print(y); y.sum().backward(); print(a.grad)\n'
        'a.grad = None\n'
        'y = Gamma(a, 3.).rsample((2,)); print(y); y.sum().backward(); print(a.grad)'),
    'transformed_cdf_icdf_decreasing': (
        'from torch.distributions import TransformedDistribution, Normal, Uniform\n'
        'from torch.distributions.transforms import AffineTransform, SigmoidTransform, PowerTransform, ExpTransform\n'
        'torch.manual_seed(0)\n'
        'd = TransformedDistribution(Normal(0., 1.), [AffineTransform(1., -2.)])\n'
        'x = torch.tensor([0.5, 1., 3.])\n'
        'print(d.cdf(x), d.icdf(torch.tensor([0.2, 0.7])), d.log_prob(x), d.sample((2,)))\n'
        'd2 = TransformedDistribution(Uniform(torch.zeros(2), torch.ones(2)), [SigmoidTransform().inv])\n'
        'print(d2, d2.batch_shape, d2.support, d2.sample(), d2.log_prob(torch.tensor([0., 1.])))\n'
        'p = torch.tensor(2., requires_grad=True)\n'
        'd3 = TransformedDistribution(Normal(0., 1.), [ExpTransform(), PowerTransform(p)])\n'
        'y = d3.rsample((3,)); lp = d3.log_prob(y); show(lp); lp.sum().backward(); print(p.grad)'),
    'transformed_shapes_expand_errors': (
        'from torch.distributions import TransformedDistribution, Normal\n'
        'from torch.distributions.transforms import AffineTransform\n'
        'base = Normal(torch.zeros(3), torch.ones(3))\n'
        'd = TransformedDistribution(base, AffineTransform(torch.zeros(2, 3), 1.))\n'
        'print(d.batch_shape, d.event_shape, d.base_dist.batch_shape)\n'
        'e = d.expand((4, 2, 3)); print(e.batch_shape, e.base_dist.batch_shape, type(e).__name__)\n'
        'tries(lambda: TransformedDistribution(base, 3), lambda: TransformedDistribution(base, [3]),\n'
        '      lambda: TransformedDistribution(Normal(0., 1.), AffineTransform(0., 1., event_dim=1)))'),
    'class_attributes_and_names': (
        'import torch.distributions as D\n'
        'print([n for n in D.__all__ if n in dir(D)] == D.__all__)\n'
        'print(D.Gamma.arg_constraints, D.Beta.support, D.Dirichlet.arg_constraints, D.LogNormal.arg_constraints, D.G'
        'umbel.has_rsample,\n'
        '      D.Laplace.has_rsample, D.StudentT.support, D.Geometric.support, D.Chi2.arg_constraints, D.HalfNormal.s'
        'upport)\n'
        'print(type(D.Gamma(1., 1.)), D.transforms.TanhTransform, type(D.LogNormal(0., 1.)).__mro__)'),
    'expand_beta_dirichlet_lognormal_custom_init': (
        'from torch.distributions import Beta, Dirichlet, Gamma, LogNormal\n'
        'b = Beta(torch.tensor([2., 3.]), torch.tensor([1., 2.]))\n'
        'e = b.expand((3, 2)); print(e, e.batch_shape, e.concentration1, e._dirichlet.concentration.shape)\n'
        'print(Dirichlet(torch.ones(3)).expand((2,)), LogNormal(0., 1.).expand((2,)), LogNormal(0., 1.).expand((2,)).'
        'loc)\n'
        'class MyGamma(Gamma):\n'
        '    def __init__(self, a):\n'
        '        super().__init__(a, 1.)\n'
        'tries(lambda: MyGamma(torch.ones(2)).expand((3, 2)))'),
    # Gamma.cdf through torch.special.gammainc: values, IgammaBackward0, its refused
    # derivative in the concentration
    'gamma_cdf_gammainc': (
        'a = torch.tensor([2., 0.5], requires_grad=True); r = torch.tensor([1.,2.], requires_grad=True)\n'
        'c = torch.distributions.Gamma(a, r).cdf(torch.tensor([1.5, 0.3]))\n'
        'print(c, c.grad_fn, c.grad_fn.next_functions)\n'
        'tries(lambda: c.sum().backward())\n'
        'c = torch.distributions.Gamma(a.detach(), r).cdf(torch.tensor([1.5, 0.3])); c.sum().backward(); print(r.grad'
        ')\n'
        'for dt in [torch.float32, torch.float64]:\n'
        '    a = torch.tensor([1e-3, 0.5, 3, 50, 200., 1., 7., 0.2, 12.], dtype=dt); x = torch.tensor([1e-3, 0.7, 2.5'
        ', 45, 250, 30., 0.01, 5., 11.], dtype=dt)\n'
        '    print(torch.distributions.Gamma(a, 1.).cdf(x).tolist())'),
    'int_and_half_concentrations': (
        'from torch.distributions import *\n'
        'torch.manual_seed(0)\n'
        'print(Gamma(2, 3), Gamma(2, 3).sample(), Beta(2, 3).sample([2]), Beta(torch.tensor(2.), 3.), Beta(torch.tens'
        'or(2.), 3.).sample())\n'
        'tries(lambda: Gamma(torch.tensor([2]), 1).sample(), lambda: Dirichlet(torch.tensor([1, 2])).sample(),\n'
        '      lambda: Gamma(torch.tensor([2.], dtype=torch.float16), 1.).sample(), lambda: Beta(torch.tensor([2]), 1'
        ').sample())'),
    'dirichlet_sample_no_grad_mode': (
        'from torch.distributions import *\n'
        'torch.manual_seed(0)\n'
        'c = torch.tensor([0.5, 0.3, 0.9], requires_grad=True)\n'
        'd = Dirichlet(c)\n'
        's = d.sample(); print(s, s.requires_grad, d.mode, Dirichlet(torch.tensor([[0.5, 0.3], [2., 3.]])).mode)\n'
        "print(d.sample_n(2) if hasattr(d, 'sample_n') else None)\n"
        'with torch.no_grad():\n'
        '    print(d.rsample().requires_grad, Gamma(c, 1.).rsample().requires_grad)'),
    'validate_args_false': (
        'from torch.distributions import *\n'
        'torch.manual_seed(0)\n'
        'b = Beta(torch.tensor([2., -1.]), 1., validate_args=False)\n'
        'print(b.sample(), b.log_prob(torch.tensor([0.5, 1.5])))\n'
        'g = Gamma(torch.tensor([2., 0.]), 1., validate_args=False)\n'
        'print(g.sample(), g.log_prob(torch.tensor([-1., 0.])))'),
    'gamma_rate_gradient': (
        'from torch.distributions import Gamma\n'
        'r = torch.tensor([1., 2.], requires_grad=True)\n'
        'torch.manual_seed(0)\n'
        'x = Gamma(torch.tensor([2., 3.]), r).rsample()\n'
        'show(x); x.sum().backward(); print(r.grad)'),
    'gamma_double_backward_refused': (
        'from torch.distributions import Gamma\n'
        'a = torch.tensor([1.5, 3.0], requires_grad=True)\n'
        'torch.manual_seed(0)\n'
        'y = torch.distributions.Gamma(a, 1.).rsample()\n'
        'g, = torch.autograd.grad(y.sum(), a, create_graph=True); show(g)\n'
        'tries(lambda: g.sum().backward())'),
    'deepcopy_beta_and_transforms': (
        'from torch.distributions import Beta\n'
        'import pickle, copy\n'
        'b = Beta(torch.tensor([2.]), torch.tensor([3.]))\n'
        'b2 = copy.deepcopy(b); print(b2, b2.concentration1)\n'
        'from torch.distributions.transforms import TanhTransform, ComposeTransform, ExpTransform\n'
        't = copy.deepcopy(ComposeTransform([TanhTransform(), ExpTransform().inv])); print(t)'),
    # biject_to / transform_to: each constraint's transform (positive's is Exp then Affine, as greater_than's
    # registration overrides it)
    'biject_to_transform_to': (
        'from torch.distributions import biject_to, transform_to, constraints\n'
        'for c in [constraints.real, constraints.positive, constraints.nonnegative, constraints.unit_interval, constr'
        'aints.interval(-1., 3.),\n'
        '          constraints.greater_than(2.), constraints.less_than(1.), constraints.simplex, constraints.real_vec'
        'tor,\n'
        '          constraints.independent(constraints.positive, 2), constraints.lower_cholesky, constraints.positive'
        '_definite]:\n'
        '    for reg in (biject_to, transform_to):\n'
        '        try:\n'
        '            t = reg(c); print(c, t, t.domain, t.codomain)\n'
        '        except NotImplementedError as e:\n'
        "            print('NotImplementedError', e)\n"
        'x = torch.tensor([0.3, -1.2, 2.])\n'
        'print(biject_to(constraints.positive)(x), biject_to(constraints.simplex)(x), transform_to(constraints.interv'
        'al(-1., 3.))(x))\n'
        'tries(lambda: biject_to.register(3), lambda: biject_to(constraints.boolean))'),
    'biject_to_fit_loop': (
        'from torch.distributions import biject_to, Gamma\n'
        'from torch.distributions import constraints\n'
        'raw = torch.zeros(2, requires_grad=True)\n'
        "t = biject_to(Gamma.arg_constraints['concentration'])\n"
        'for _ in range(3):\n'
        '    conc = t(raw)\n'
        '    loss = -Gamma(conc, 1.).log_prob(torch.tensor([0.5, 2.])).sum()\n'
        '    loss.backward()\n'
        '    with torch.no_grad():\n'
        '        raw -= 0.1 * raw.grad\n'
        '        raw.grad.zero_()\n'
        '    print(conc, loss)'),
}


@pytest.mark.parametrize("name", SNIPPETS)
def test_snippet(name):
    code = SHOW + SNIPPETS[name]
    t, e = run_both(T, E, code)
    assert same(t, e), f"\n{code}\n--- torch\n{t.summary()}--- engine\n{e.summary()}"
