"""Session 46, part 2: Pareto, Weibull, HalfCauchy, InverseGamma, Kumaraswamy, ContinuousBernoulli, NegativeBinomial,
FisherSnedecor, RelaxedBernoulli / LogitRelaxedBernoulli, RelaxedOneHotCategorical / ExpRelaxedCategorical,
LowRankMultivariateNormal, MixtureSameFamily, LogisticNormal, VonMises and GeneralizedPareto, with their kl_divergence
pairs, against real PyTorch: printed values (samples after manual_seed included), graphs, gradients, reprs and
errors must be the same."""
import pytest

T = pytest.importorskip("torch", reason="differential tests need real PyTorch (pip install torch==2.13.0)")
from .harness import SHOW, load_engine, run_both, same  # noqa: E402

E = load_engine()

SNIPPETS = {
    'pareto_basics': (
        'from torch.distributions import Pareto\n'
        'torch.manual_seed(0)\n'
        'd = Pareto(torch.tensor([1.0, 2.0, 0.5]), torch.tensor([3.0, 1.5, 0.7]))\n'
        'print(d, type(d), d.batch_shape, d.event_shape, d.mean, d.variance, d.mode, d.support, d.has_rsample)\n'
        'print(d.sample(), d.sample((2,)), d.entropy(), d.log_prob(torch.tensor([1.5, 2.5, 3.])), d.cdf(torch.tensor('
        '[1.5, 2.5, 3.])), d.icdf(torch.tensor([.1, .5, .9])))\n'
        'print(Pareto(1., 2.), Pareto(1., 2.).sample((3,)), Pareto(1., 2.).rsample())\n'
        'e = d.expand((2, 3)); print(e, e.batch_shape, e.sample())'),
    'pareto_rsample_graph_errors': (
        'from torch.distributions import Pareto\n'
        's = torch.tensor([1.0, 2.0], requires_grad=True); a = torch.tensor([3.0, 1.5], requires_grad=True)\n'
        'torch.manual_seed(1)\n'
        'x = Pareto(s, a).rsample((2,)); show(x); x.sum().backward(); print(s.grad, a.grad)\n'
        'lp = Pareto(s, a).log_prob(torch.tensor([2.5, 3.])); show(lp)\n'
        'tries(lambda: Pareto(-1., 1.), lambda: Pareto(1., 0.), lambda: Pareto(2., 1.).log_prob(torch.tensor(1.)), la'
        'mbda: Pareto(torch.ones(2), torch.ones(3)))'),
    'weibull_basics': (
        'from torch.distributions import Weibull\n'
        'torch.manual_seed(0)\n'
        'd = Weibull(torch.tensor([1.0, 2.0, 0.5]), torch.tensor([3.0, 1.5, 0.7]))\n'
        'print(d, d.batch_shape, d.mean, d.variance, d.mode, d.support, d.concentration_reciprocal)\n'
        'print(d.sample(), d.sample((2,)), d.entropy(), d.log_prob(torch.tensor([1.5, 2.5, 3.])), d.cdf(torch.tensor('
        '[1.5, 2.5, 3.])), d.icdf(torch.tensor([.1, .5, .9])))\n'
        'e = d.expand((2, 3)); print(e, e.batch_shape, e.sample(), e.transforms)\n'
        'print(Weibull(1., 2.), Weibull(1., 2.).sample((3,)))\n'
        'tries(lambda: Weibull(-1., 1.), lambda: Weibull(1., 1.).log_prob(torch.tensor(-1.)))'),
    'weibull_rsample_graph': (
        'from torch.distributions import Weibull\n'
        's = torch.tensor([1.0, 2.0], requires_grad=True); c = torch.tensor([3.0, 0.5], requires_grad=True)\n'
        'torch.manual_seed(1)\n'
        'x = Weibull(s, c).rsample((2,)); show(x); x.sum().backward(); print(s.grad, c.grad)\n'
        'lp = Weibull(s, c).log_prob(torch.tensor([2.5, 3.])); show(lp)'),
    'half_cauchy_basics': (
        'from torch.distributions import HalfCauchy\n'
        'torch.manual_seed(0)\n'
        'd = HalfCauchy(torch.tensor([1.0, 2.0, 0.5]))\n'
        'print(d, d.batch_shape, d.mean, d.variance, d.mode, d.support, d.scale)\n'
        'print(d.sample(), d.rsample((2,)), d.entropy(), d.log_prob(torch.tensor([1.5, 2.5, -3.])), d.cdf(torch.tenso'
        'r([1.5, 2.5, 3.])), d.icdf(torch.tensor([.1, .5, .9])))\n'
        'e = d.expand((2, 3)); print(e, e.batch_shape, e.sample(), type(e))\n'
        'print(HalfCauchy(1.), HalfCauchy(1.).sample((3,)))\n'
        'tries(lambda: HalfCauchy(-1.), lambda: HalfCauchy(1.).log_prob(torch.tensor(-1.)), lambda: HalfCauchy(1., va'
        'lidate_args=False).log_prob(-1.))'),
    'inverse_gamma_basics': (
        'from torch.distributions import InverseGamma\n'
        'torch.manual_seed(0)\n'
        'd = InverseGamma(torch.tensor([1.0, 2.5, 3.5]), torch.tensor([3.0, 1.5, 0.7]))\n'
        'print(d, d.batch_shape, d.mean, d.variance, d.mode, d.support, d.concentration, d.rate)\n'
        'print(d.sample(), d.rsample((2,)), d.entropy(), d.log_prob(torch.tensor([1.5, 2.5, 3.])), d.cdf(torch.tensor'
        '([1.5, 2.5, 3.])))\n'
        'e = d.expand((2, 3)); print(e, e.batch_shape, e.sample(), e.transforms)\n'
        'print(InverseGamma(2., 1.), InverseGamma(2., 1.).sample((3,)))\n'
        'c = torch.tensor([2.0, 0.5], requires_grad=True)\n'
        'torch.manual_seed(2); x = InverseGamma(c, 1.).rsample(); show(x); x.sum().backward(); print(c.grad)\n'
        'tries(lambda: InverseGamma(-1., 1.), lambda: InverseGamma(1., 1.).log_prob(torch.tensor(-1.)))'),
    'kumaraswamy_basics': (
        'from torch.distributions import Kumaraswamy\n'
        'torch.manual_seed(0)\n'
        'd = Kumaraswamy(torch.tensor([1.0, 2.5, 0.5]), torch.tensor([3.0, 1.5, 0.7]))\n'
        'print(d, d.batch_shape, d.mean, d.variance, d.mode, d.support)\n'
        'print(d.sample(), d.rsample((2,)), d.entropy(), d.log_prob(torch.tensor([.15, .25, .3])))\n'
        'e = d.expand((2, 3)); print(e, e.batch_shape, e.sample())\n'
        'print(Kumaraswamy(2., 1.), Kumaraswamy(2., 1.).sample((3,)), Kumaraswamy(torch.tensor([0.5, 2.]), torch.tens'
        'or([2., 0.5])).mode)\n'
        'c = torch.tensor([2.0, 0.5], requires_grad=True)\n'
        'torch.manual_seed(2); x = Kumaraswamy(c, 2.).rsample(); show(x); x.sum().backward(); print(c.grad)\n'
        'tries(lambda: Kumaraswamy(-1., 1.), lambda: Kumaraswamy(1., 1.).log_prob(torch.tensor(2.)))'),
    'continuous_bernoulli_basics': (
        'from torch.distributions import ContinuousBernoulli\n'
        'torch.manual_seed(0)\n'
        'd = ContinuousBernoulli(torch.tensor([0.2, 0.5, 0.4995, 0.9]))\n'
        'print(d, d.batch_shape, d.mean, d.variance, d.stddev, d.support, d.probs, d.logits, d.param_shape)\n'
        'v = torch.tensor([0.1, 0.5, 0.7, 0.0])\n'
        'print(d.sample(), d.rsample((2,)), d.entropy(), d.log_prob(v), d.cdf(v), d.icdf(v))\n'
        'e = d.expand((2, 4)); print(e, e.batch_shape, e.sample())\n'
        'print(ContinuousBernoulli(0.3), ContinuousBernoulli(logits=0.3), ContinuousBernoulli(logits=torch.tensor([0.'
        '3, -2.])).mean)\n'
        'print(d._natural_params, d._log_normalizer(torch.tensor([0.1, 0.0005, -2.0, 0.001])))\n'
        'tries(lambda: ContinuousBernoulli(1.5), lambda: ContinuousBernoulli(1.5, validate_args=True), lambda: Contin'
        'uousBernoulli(1.5, validate_args=False).probs,\n'
        '      lambda: ContinuousBernoulli(), lambda: ContinuousBernoulli(0.3, 0.2), lambda: ContinuousBernoulli(0.3)'
        '.log_prob(torch.tensor(2.)))'),
    'continuous_bernoulli_graphs': (
        'from torch.distributions import ContinuousBernoulli\n'
        'p = torch.tensor([0.2, 0.5, 0.9], requires_grad=True)\n'
        'torch.manual_seed(1)\n'
        'x = ContinuousBernoulli(p).rsample((2,)); show(x); x.sum().backward(); print(p.grad)\n'
        'lp = ContinuousBernoulli(p).log_prob(torch.tensor([0.3, 0.4, 0.5])); show(lp)\n'
        'en = ContinuousBernoulli(logits=p).entropy(); show(en)'),
    'negative_binomial_basics': (
        'from torch.distributions import NegativeBinomial\n'
        'torch.manual_seed(0)\n'
        'd = NegativeBinomial(torch.tensor([3., 10., 0.5]), torch.tensor([0.2, 0.5, 0.9]))\n'
        'print(d, d.batch_shape, d.mean, d.variance, d.mode, d.support, d.logits, d.param_shape)\n'
        'print(d.sample(), d.sample((2,)), d.log_prob(torch.tensor([0., 4., 7.])))\n'
        'e = d.expand((2, 3)); print(e, e.batch_shape, e.sample())\n'
        'd2 = NegativeBinomial(5, logits=torch.tensor([0.3, -1.])); print(d2, d2.probs, d2.sample((3,)), d2.mean)\n'
        'print(NegativeBinomial(0., 0.3).log_prob(torch.tensor(0.)), NegativeBinomial(torch.tensor(2.), 0.3))\n'
        'tries(lambda: NegativeBinomial(-1., 0.5), lambda: NegativeBinomial(1., 1.), lambda: NegativeBinomial(1.), la'
        'mbda: NegativeBinomial(2., 0.5).log_prob(torch.tensor(0.5)),\n'
        '      lambda: NegativeBinomial(2., 0.5).rsample(), lambda: NegativeBinomial(2., 0.5).entropy())'),
    'negative_binomial_log_prob_graph': (
        'from torch.distributions import NegativeBinomial\n'
        'p = torch.tensor([0.2, 0.6], requires_grad=True); n = torch.tensor([3., 4.], requires_grad=True)\n'
        'lp = NegativeBinomial(n, p).log_prob(torch.tensor([2., 5.])); show(lp); lp.sum().backward(); print(p.grad, n'
        '.grad)'),
    'fisher_snedecor_basics': (
        'from torch.distributions import FisherSnedecor\n'
        'torch.manual_seed(0)\n'
        'd = FisherSnedecor(torch.tensor([1., 3., 10.]), torch.tensor([2., 5., 8.]))\n'
        'print(d, d.batch_shape, d.mean, d.variance, d.mode, d.support)\n'
        'print(d.sample(), d.sample((2,)), d.log_prob(torch.tensor([0.5, 1., 2.])))\n'
        'e = d.expand((2, 3)); print(e, e.batch_shape, e.sample())\n'
        'print(FisherSnedecor(3., 5.), FisherSnedecor(3., 5.).rsample((2,)))\n'
        'a = torch.tensor([2., 7.], requires_grad=True)\n'
        'torch.manual_seed(3); x = FisherSnedecor(a, 6.).rsample(); show(x); x.sum().backward(); print(a.grad)\n'
        'tries(lambda: FisherSnedecor(-1., 1.), lambda: FisherSnedecor(1., 1.).log_prob(torch.tensor(-1.)), lambda: F'
        'isherSnedecor(1., 1.).entropy())'),
    'relaxed_bernoulli_basics': (
        'from torch.distributions import RelaxedBernoulli\n'
        'from torch.distributions.relaxed_bernoulli import LogitRelaxedBernoulli\n'
        'torch.manual_seed(0)\n'
        't = torch.tensor(0.5)\n'
        'd = RelaxedBernoulli(t, probs=torch.tensor([0.2, 0.5, 0.9]))\n'
        'print(d, type(d), d.batch_shape, d.support, d.temperature, d.probs, d.logits, d.base_dist)\n'
        'print(d.sample(), d.rsample((2,)), d.log_prob(torch.tensor([0.1, 0.5, 0.7])))\n'
        'e = d.expand((2, 3)); print(e, e.batch_shape, e.sample(), type(e.base_dist))\n'
        'l = LogitRelaxedBernoulli(t, logits=torch.tensor([0.3, -1.])); print(l, type(l), l.rsample(), l.log_prob(tor'
        'ch.tensor([0.2, 3.])), l.param_shape, l.support)\n'
        'print(RelaxedBernoulli(torch.tensor(2.), 0.3), RelaxedBernoulli(torch.tensor(2.), 0.3).sample((3,)))\n'
        'tries(lambda: RelaxedBernoulli(t), lambda: RelaxedBernoulli(t, probs=1.5), lambda: RelaxedBernoulli(t, 0.5).'
        'log_prob(torch.tensor(2.)), lambda: RelaxedBernoulli(t, 0.5).mean,\n'
        '      lambda: LogitRelaxedBernoulli(t, 0.3).sample(), lambda: RelaxedBernoulli(t, 0.5).entropy())'),
    'relaxed_bernoulli_graphs': (
        'from torch.distributions import RelaxedBernoulli\n'
        'p = torch.tensor([0.2, 0.6], requires_grad=True)\n'
        'torch.manual_seed(1)\n'
        'x = RelaxedBernoulli(torch.tensor(0.3), p).rsample((2,)); show(x); x.sum().backward(); print(p.grad)\n'
        'lp = RelaxedBernoulli(torch.tensor(0.3), logits=p).log_prob(torch.tensor([0.3, 0.4])); show(lp)'),
    'relaxed_one_hot_categorical_basics': (
        'from torch.distributions import RelaxedOneHotCategorical\n'
        'from torch.distributions.relaxed_categorical import ExpRelaxedCategorical\n'
        'torch.manual_seed(0)\n'
        't = torch.tensor(0.5)\n'
        'd = RelaxedOneHotCategorical(t, probs=torch.tensor([[0.2, 0.3, 0.5], [0.1, 0.1, 0.8]]))\n'
        'print(d, type(d), d.batch_shape, d.event_shape, d.support, d.temperature, d.probs, d.logits, d.base_dist)\n'
        'x = d.sample(); print(x, d.rsample((2,)), d.log_prob(x))\n'
        'e = d.expand((3, 2)); print(e, e.batch_shape, e.sample().shape, type(e.base_dist))\n'
        'l = ExpRelaxedCategorical(t, logits=torch.tensor([0.3, -1., 2.])); y = l.rsample(); print(l, type(l), y, l.l'
        'og_prob(y), l.param_shape, l.support)\n'
        'tries(lambda: RelaxedOneHotCategorical(t), lambda: RelaxedOneHotCategorical(t, probs=torch.tensor([0.5, -0.2'
        '])), lambda: d.log_prob(torch.tensor([0.2, 0.2, 0.2])), lambda: d.mean,\n'
        '      lambda: RelaxedOneHotCategorical(t, torch.tensor(0.5)))'),
    'relaxed_one_hot_categorical_graphs': (
        'from torch.distributions import RelaxedOneHotCategorical\n'
        'lg = torch.tensor([0.2, 0.6, -1.], requires_grad=True)\n'
        'torch.manual_seed(1)\n'
        'x = RelaxedOneHotCategorical(torch.tensor(0.3), logits=lg).rsample((2,)); show(x); x.sum().backward(); print'
        '(lg.grad)\n'
        'lp = RelaxedOneHotCategorical(torch.tensor(0.3), logits=lg).log_prob(torch.tensor([0.3, 0.4, 0.3])); show(lp'
        ')'),
    'lowrank_mvn_basics': (
        'from torch.distributions import LowRankMultivariateNormal\n'
        'torch.manual_seed(0)\n'
        'loc = torch.tensor([[0., 1., 2.], [1., -1., 0.5]], dtype=torch.float64)\n'
        'W = torch.tensor([[1., 0.5], [0.2, -0.3], [0.4, 1.]], dtype=torch.float64)\n'
        'D = torch.tensor([1., 2., 0.5], dtype=torch.float64)\n'
        'd = LowRankMultivariateNormal(loc, W, D)\n'
        'print(d, d.batch_shape, d.event_shape, d.mean, d.mode, d.variance, d.support)\n'
        'print(d.covariance_matrix, d.scale_tril, d.precision_matrix, d._capacitance_tril)\n'
        'x = d.sample(); print(x, d.rsample((2,)), d.log_prob(x), d.entropy())\n'
        'e = d.expand((4, 2)); print(e, e.batch_shape, e.sample().shape, e.cov_factor.shape)\n'
        'print(LowRankMultivariateNormal(torch.zeros(2), torch.ones(2, 1), torch.ones(2)))\n'
        'tries(lambda: LowRankMultivariateNormal(torch.tensor(1.), W, D), lambda: LowRankMultivariateNormal(loc, D, D'
        '), lambda: LowRankMultivariateNormal(loc, W.T, D),\n'
        '      lambda: LowRankMultivariateNormal(loc, W, D[:2]), lambda: LowRankMultivariateNormal(loc, torch.ones(3,'
        ' 3, 2), D), lambda: LowRankMultivariateNormal(loc, W, -D),\n'
        '      lambda: d.log_prob(torch.ones(2)), lambda: d.cdf(x))'),
    'lowrank_mvn_graphs': (
        'from torch.distributions import LowRankMultivariateNormal\n'
        'loc = torch.tensor([0., 1., 2.], requires_grad=True)\n'
        'W = torch.tensor([[1., 0.5], [0.2, -0.3], [0.4, 1.]], requires_grad=True)\n'
        'D = torch.tensor([1., 2., 0.5], requires_grad=True)\n'
        'torch.manual_seed(1)\n'
        'd = LowRankMultivariateNormal(loc, W, D)\n'
        'x = d.rsample(); show(x)\n'
        'show(d._capacitance_tril)\n'
        'lp = d.log_prob(torch.tensor([0.5, 0.5, 0.5])); print(round(lp.item(), 4), lp.grad_fn.name()); lp.backward()\n'
        'print([[round(v, 3) for v in g.flatten().tolist()] for g in (loc.grad, W.grad, D.grad)])\n'
        'en = d.entropy(); print(round(en.item(), 4), en.grad_fn.name())'),
    'mixture_same_family_basics': (
        'from torch.distributions import MixtureSameFamily, Categorical, Normal, Independent, MultivariateNormal\n'
        'torch.manual_seed(0)\n'
        'mix = Categorical(torch.tensor([0.3, 0.5, 0.2]))\n'
        'comp = Normal(torch.tensor([-1., 0., 2.]), torch.tensor([0.5, 1., 0.3]))\n'
        'g = MixtureSameFamily(mix, comp)\n'
        'print(g, g.batch_shape, g.event_shape, g.mean, g.variance, g.support, g.mixture_distribution, g.component_di'
        'stribution)\n'
        'x = g.sample((4,)); print(x, g.log_prob(x), g.cdf(x))\n'
        'e = g.expand((2,)); print(e, e.batch_shape, e.sample(), e.log_prob(torch.tensor([0., 1.])))\n'
        'comp2 = Independent(Normal(torch.randn(2, 3, 2), torch.rand(2, 3, 2) + 0.5), 1)\n'
        'g2 = MixtureSameFamily(Categorical(logits=torch.randn(2, 3)), comp2)\n'
        'print(g2, g2.batch_shape, g2.event_shape, g2.mean, g2.variance, g2.support)\n'
        'y = g2.sample((2,)); print(y, g2.log_prob(y))\n'
        'tries(lambda: MixtureSameFamily(comp, comp), lambda: MixtureSameFamily(mix, 3), lambda: MixtureSameFamily(Ca'
        'tegorical(torch.ones(2)), comp),\n'
        '      lambda: MixtureSameFamily(Categorical(torch.ones(4, 3)), Normal(torch.zeros(2, 3), 1.)), lambda: g.rsa'
        'mple(), lambda: g.entropy(), lambda: g.mode,\n'
        "      lambda: g.log_prob(torch.tensor(float('nan'))), lambda: MixtureSameFamily(mix, comp, validate_args=Tru"
        "e).log_prob(torch.tensor([1.])))"),
    'mixture_same_family_graphs_constraint': (
        'from torch.distributions import MixtureSameFamily, Categorical, Normal, constraints\n'
        'lg = torch.tensor([0.3, -0.5, 0.2], requires_grad=True); mu = torch.tensor([-1., 0., 2.], requires_grad=True'
        ')\n'
        'g = MixtureSameFamily(Categorical(logits=lg), Normal(mu, 1.))\n'
        'lp = g.log_prob(torch.tensor([0.5, 1.5])); show(lp); lp.sum().backward(); print(lg.grad, mu.grad)\n'
        'm = g.mean; show(m)\n'
        "c = constraints.MixtureSameFamilyConstraint(constraints.real); print(c, c.is_discrete, c.event_dim, c.check("
        "torch.tensor([1., float('nan')])))\n"
        'tries(lambda: constraints.MixtureSameFamilyConstraint(3))'),
    'logistic_normal_basics': (
        'from torch.distributions import LogisticNormal\n'
        'torch.manual_seed(0)\n'
        'd = LogisticNormal(torch.tensor([0., 1., -1.]), torch.tensor([1., 0.5, 2.]))\n'
        'print(d, d.batch_shape, d.event_shape, d.support, d.loc, d.scale, d.base_dist)\n'
        'x = d.sample(); print(x, d.rsample((2,)), d.log_prob(x))\n'
        'e = d.expand((2,)); print(e, e.batch_shape, e.sample())\n'
        'd1 = LogisticNormal(0., 1.); print(d1, d1.batch_shape, d1.event_shape, d1.sample((2,)))\n'
        'loc = torch.tensor([[0.3, 0.1], [0., -1.]], requires_grad=True)\n'
        'torch.manual_seed(2); y = LogisticNormal(loc, 1.).rsample(); show(y); y.sum().backward(); print(loc.grad)\n'
        'tries(lambda: LogisticNormal(0., -1.), lambda: d.log_prob(torch.tensor([0.3, 0.3, 0.3, 0.3])), lambda: d.mea'
        'n, lambda: d.entropy())'),
    'von_mises_basics': (
        'from torch.distributions import VonMises\n'
        'torch.manual_seed(0)\n'
        'd = VonMises(torch.tensor([0., 1., -2.]), torch.tensor([1., 0.5, 20.]))\n'
        'print(d, d.batch_shape, d.event_shape, d.mean, d.mode, d.variance, d.support, d.has_rsample)\n'
        'x = d.sample(); print(x, d.sample((2,)), d.log_prob(x), torch.rand(1))\n'
        'e = d.expand((2, 3)); print(e, e.batch_shape, e.sample(), type(e))\n'
        'print(VonMises(0., 1.), VonMises(0., 1.).sample((4,)), VonMises(torch.tensor(1., dtype=torch.float64), 1e-6)'
        '.sample((3,)))\n'
        'c = torch.tensor([0.5, 5.], requires_grad=True)\n'
        'lp = VonMises(torch.zeros(2), c).log_prob(torch.tensor([0.3, -0.2])); show(lp); lp.sum().backward(); print(c'
        '.grad)\n'
        'tries(lambda: VonMises(0., -1.), lambda: d.rsample(), lambda: d.entropy(), lambda: d.cdf(x), lambda: VonMise'
        's(0., 1., validate_args=False).expand((2,)).sample())'),
    'kl_pareto_continuous_bernoulli_pairs': (
        'from torch.distributions import *\n'
        'from torch.distributions import kl_divergence as kl\n'
        'P = Pareto(torch.tensor([1., 2.]), torch.tensor([3., 1.5])); P2 = Pareto(torch.tensor([0.5, 3.]), torch.tens'
        'or([2., 2.5]))\n'
        'CB = ContinuousBernoulli(torch.tensor([0.2, 0.7])); CB2 = ContinuousBernoulli(logits=torch.tensor([0.5, -1.]'
        '))\n'
        'others = [Beta(torch.tensor([2., 0.5]), torch.tensor([1., 3.])), Exponential(torch.tensor([1., 2.])), Gamma('
        'torch.tensor([2., 3.]), torch.tensor([1., 0.5])),\n'
        '          Gumbel(torch.tensor([0., 1.]), torch.tensor([1., 2.])), Laplace(torch.tensor([0., 1.]), torch.tens'
        'or([1., 2.])), Normal(torch.tensor([0., 1.]), torch.tensor([1., 2.])),\n'
        '          Uniform(torch.tensor([0.1, 1.5]), torch.tensor([0.9, 3.])), Uniform(torch.tensor([-0.5, 0.2]), tor'
        'ch.tensor([0.9, 0.3]))]\n'
        'for p, q in [(P, P2), (P2, P), (CB, CB2), (CB2, CB)] + [(o, P) for o in others] + [(P, o) for o in others] +'
        ' [(o, CB) for o in others] + [(CB, o) for o in others]:\n'
        '    try:\n'
        '        r = kl(p, q); print(type(p).__name__, type(q).__name__, r, r.grad_fn)\n'
        '    except NotImplementedError as e:\n'
        "        print(type(p).__name__, type(q).__name__, 'NotImplementedError', e)"),
    'kl_transformed_and_infinite_pairs': (
        'from torch.distributions import *\n'
        'from torch.distributions import kl_divergence as kl\n'
        'print(kl(Poisson(torch.tensor([1., 2.])), Bernoulli(torch.tensor([0.3, 0.5]))), kl(Poisson(torch.tensor([1.,'
        ' 2.])), Binomial(3, torch.tensor([0.3, 0.5]))))\n'
        'print(kl(HalfCauchy(torch.tensor([1., 2.])), HalfCauchy(torch.tensor([0.5, 2.]))))\n'
        'print(kl(LogisticNormal(torch.tensor([0., 1.]), torch.tensor([1., 2.])), LogisticNormal(torch.tensor([0.5, 1'
        '.]), torch.tensor([1., 0.2]))))\n'
        'print(kl(InverseGamma(torch.tensor([2., 3.]), torch.tensor([1., 0.5])), InverseGamma(torch.tensor([1., 3.]),'
        ' torch.tensor([1., 2.]))))\n'
        'w = Weibull(torch.tensor([1., 2.]), torch.tensor([3., 1.5]))\n'
        'print(kl(w, w))\n'
        'tries(lambda: kl(w, Weibull(torch.tensor([1., 2.]), torch.tensor([3., 1.]))), lambda: kl(Kumaraswamy(2., 3.)'
        ', Kumaraswamy(2., 3.)),\n'
        '      lambda: kl(RelaxedBernoulli(torch.tensor(1.), 0.3), RelaxedBernoulli(torch.tensor(1.), 0.3)), lambda: '
        'kl(FisherSnedecor(1., 2.), FisherSnedecor(1., 2.)),\n'
        '      lambda: kl(NegativeBinomial(2., 0.3), NegativeBinomial(2., 0.3)), lambda: kl(VonMises(0., 1.), VonMise'
        's(0., 1.)),\n'
        '      lambda: kl(ContinuousBernoulli(0.3), Bernoulli(0.3)), lambda: kl(Bernoulli(0.3), ContinuousBernoulli(0'
        '.3)))'),
    'kl_lowrank_mvn_pairs': (
        'from torch.distributions import *\n'
        'from torch.distributions import kl_divergence as kl\n'
        'torch.manual_seed(0)\n'
        'L = torch.tensor([[1., 0., 0.], [0.5, 1.2, 0.], [-0.3, 0.2, 0.8]], dtype=torch.float64)\n'
        'm = MultivariateNormal(torch.randn(2, 3, dtype=torch.float64), scale_tril=L)\n'
        'l = LowRankMultivariateNormal(torch.randn(3, dtype=torch.float64), torch.randn(2, 3, 2, dtype=torch.float64)'
        ', torch.rand(3, dtype=torch.float64) + 0.5)\n'
        'l2 = LowRankMultivariateNormal(torch.randn(3, dtype=torch.float64), torch.randn(3, 1, dtype=torch.float64), '
        'torch.rand(3, dtype=torch.float64) + 0.5)\n'
        'for p, q in [(m, m), (l, l2), (l2, l), (m, l), (l, m), (l2, m), (m, l2)]:\n'
        '    r = kl(p, q); print(type(p).__name__, type(q).__name__, r, r.shape)\n'
        'm3 = MultivariateNormal(torch.zeros(2), torch.eye(2)); l3 = LowRankMultivariateNormal(torch.zeros(3), torch.'
        'ones(3, 1), torch.ones(3))\n'
        'tries(lambda: kl(m3, l3), lambda: kl(l3, m3), lambda: kl(l3, LowRankMultivariateNormal(torch.zeros(2), torch'
        '.ones(2, 1), torch.ones(2))))'),
    'kl_lowrank_graphs': (
        'from torch.distributions import *\n'
        'from torch.distributions import kl_divergence as kl\n'
        'loc = torch.tensor([0., 1., 2.], requires_grad=True)\n'
        'W = torch.tensor([[1., 0.5], [0.2, -0.3], [0.4, 1.]], requires_grad=True)\n'
        'l = LowRankMultivariateNormal(loc, W, torch.tensor([1., 2., 0.5]))\n'
        'q = MultivariateNormal(torch.zeros(3), torch.eye(3) * 2)\n'
        'r = kl(l, q); print(round(r.item(), 4), r.grad_fn.name()); r.backward(); print([round(v, 3) for v in W.grad.'
        'flatten().tolist()])\n'
        'r = kl(q, l); print(round(r.item(), 4), r.grad_fn.name())\n'
        'r = kl(l, l); print(round(r.item(), 4), r.grad_fn.name())'),
    'float64_deepcopy_pickle': (
        'from torch.distributions import *\n'
        'import copy, pickle\n'
        'torch.manual_seed(0)\n'
        'ds = [Pareto(torch.tensor([1., 2.], dtype=torch.float64), 3.), Weibull(torch.tensor([1., 2.], dtype=torch.fl'
        'oat64), 0.5), HalfCauchy(torch.tensor([1., 2.], dtype=torch.float64)),\n'
        '      InverseGamma(torch.tensor([1., 2.], dtype=torch.float64), 2.), Kumaraswamy(torch.tensor([1., 2.], dtyp'
        'e=torch.float64), 0.5),\n'
        '      ContinuousBernoulli(torch.tensor([0.3, 0.6], dtype=torch.float64)), NegativeBinomial(torch.tensor([3.,'
        ' 20.], dtype=torch.float64), 0.4),\n'
        '      FisherSnedecor(torch.tensor([3., 20.], dtype=torch.float64), 5.), RelaxedBernoulli(torch.tensor(0.7, d'
        'type=torch.float64), torch.tensor([0.3, 0.6], dtype=torch.float64)),\n'
        '      VonMises(torch.tensor([1., 2.], dtype=torch.float64), 3.), LogisticNormal(torch.tensor([1., 2.], dtype'
        '=torch.float64), 3.)]\n'
        'for d in ds:\n'
        "    s = d.sample((2,)); print(type(d).__name__, s, s.dtype, d.log_prob(s).dtype, d.perplexity() if type(d)._"
        "_name__ not in ('NegativeBinomial', 'FisherSnedecor', 'RelaxedBernoulli', 'VonMises', 'LogisticNormal') else"
        " '')\n"
        '    d2 = copy.deepcopy(d); print(d2, d2.batch_shape, type(pickle.loads(pickle.dumps(d))).__name__)'),
    'supports_biject_to_class_attributes': (
        'from torch.distributions import *\n'
        'print(biject_to(Pareto(torch.tensor([1., 2.]), 3.).support), transform_to(Pareto(2., 3.).support)(torch.tens'
        'or([0., 1.])))\n'
        'print(biject_to(Kumaraswamy(2., 3.).support), biject_to(HalfCauchy(1.).support), biject_to(LogisticNormal(to'
        'rch.zeros(2), 1.).support))\n'
        'tries(lambda: biject_to(MixtureSameFamily(Categorical(torch.ones(2)), Normal(torch.zeros(2), 1.)).support), '
        'lambda: biject_to(NegativeBinomial(2., 0.3).support))\n'
        'print(Pareto.support, Pareto.arg_constraints, Weibull.support, MixtureSameFamily.support, VonMises.arg_const'
        'raints, NegativeBinomial.arg_constraints)\n'
        'print(LowRankMultivariateNormal.arg_constraints, ContinuousBernoulli.arg_constraints, RelaxedOneHotCategoric'
        'al.arg_constraints, FisherSnedecor.has_rsample, NegativeBinomial.has_rsample)\n'
        'for c in [Pareto, Weibull, HalfCauchy, InverseGamma, Kumaraswamy, ContinuousBernoulli, NegativeBinomial, Fis'
        'herSnedecor, RelaxedBernoulli, RelaxedOneHotCategorical, LowRankMultivariateNormal, MixtureSameFamily, Logis'
        'ticNormal, VonMises]:\n'
        "    print(c, c.__mro__[1], c.has_rsample, c.has_enumerate_support, isinstance(c.__dict__.get('support'), pro"
        "perty))"),
    'mixture_of_multivariate_normals': (
        'from torch.distributions import *\n'
        'torch.manual_seed(5)\n'
        'comp = MultivariateNormal(torch.randn(4, 3, 2), torch.eye(2) * 0.5)\n'
        'g = MixtureSameFamily(Categorical(logits=torch.randn(3)), comp)\n'
        'print(g, g.batch_shape, g.event_shape)\n'
        'y = g.sample((2,)); print(y, g.log_prob(y), g.mean, g.variance)\n'
        'e = g.expand((2, 4)); print(e.batch_shape, e.sample().shape, e._mixture_distribution.batch_shape)\n'
        "print(g.cdf if False else '', MixtureSameFamily(Categorical(torch.ones(2)), Normal(torch.zeros(2), 1.)).cdf("
        "torch.tensor([0., 1.])))"),
    'von_mises_rejection_rounds': (
        'from torch.distributions import *\n'
        'torch.manual_seed(0)\n'
        'd = VonMises(torch.zeros(50), torch.full((50,), 0.05))\n'
        'x = d.sample((3,)); print(x.sum(), x[0, :5], torch.rand(1))\n'
        'd = VonMises(torch.tensor([3.]), torch.tensor([1e-7])); print(d.sample((5,)), d._proposal_r)\n'
        'd = VonMises(torch.tensor([0., 1.]), torch.tensor([100., 3.])); print(d.variance, d.log_prob(torch.tensor([0'
        '.1, -3.])))'),
    'negative_binomial_lowrank_relaxed_batches': (
        'from torch.distributions import *\n'
        'torch.manual_seed(0)\n'
        'd = NegativeBinomial(torch.tensor([1., 50., 0.2]), logits=torch.tensor([3., 0.5, -2.]))\n'
        'print(d.sample((4,)), d.mode, d.variance, d.log_prob(torch.tensor([10., 30., 0.])))\n'
        'l = LowRankMultivariateNormal(torch.zeros(2, 3), torch.randn(3, 2), torch.ones(3))\n'
        'print(l.batch_shape, l.cov_factor.shape, l._unbroadcasted_cov_factor.shape, l.sample().shape, round(l.entrop'
        'y()[0].item(), 4))\n'
        'r = RelaxedOneHotCategorical(torch.tensor([[0.5], [2.]]), logits=torch.randn(2, 3)); x = r.rsample(); print('
        'x, r.log_prob(x))'),
    'generalized_pareto_basics': (
        'from torch.distributions import GeneralizedPareto\n'
        'torch.manual_seed(0)\n'
        'd = GeneralizedPareto(torch.tensor([0., 1., -1.]), torch.tensor([1., 0.5, 2.]), torch.tensor([0.3, 0., -0.4]'
        '))\n'
        'print(d, type(d), d.batch_shape, d.mean, d.variance, d.mode, d.support, d.entropy())\n'
        'v = torch.tensor([0.5, 1.5, 2.])\n'
        'print(d.sample(), d.rsample((2,)), d.log_prob(v), d.cdf(v), d.log_cdf(v), d.log_survival_function(v), d.icdf'
        '(torch.tensor([.1, .5, .9])))\n'
        'e = d.expand((2, 3)); print(e, e.batch_shape, e.sample())\n'
        'print(GeneralizedPareto(0., 1., 0.5), GeneralizedPareto(0., 1., 0.5).sample((3,)), GeneralizedPareto(0., 1.,'
        ' 0.5).entropy(), GeneralizedPareto(0., 1., 1.5).mean)\n'
        'c = torch.tensor([0.2, -0.1], requires_grad=True)\n'
        'torch.manual_seed(2); x = GeneralizedPareto(0., 1., c).rsample(); show(x); x.sum().backward(); print(c.grad)\n'
        'tries(lambda: GeneralizedPareto(0., -1., 0.), lambda: d.log_prob(torch.tensor([-1., 0., 0.])))'),
}


@pytest.mark.parametrize("name", SNIPPETS)
def test_snippet(name):
    code = SHOW + SNIPPETS[name]
    t, e = run_both(T, E, code)
    assert same(t, e), f"\n{code}\n--- torch\n{t.summary()}--- engine\n{e.summary()}"
