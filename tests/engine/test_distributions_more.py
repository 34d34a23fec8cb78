"""Pareto, Weibull, HalfCauchy, InverseGamma, Kumaraswamy, ContinuousBernoulli, NegativeBinomial, FisherSnedecor,
RelaxedBernoulli, RelaxedOneHotCategorical, LowRankMultivariateNormal, MixtureSameFamily, LogisticNormal, VonMises,
GeneralizedPareto and their kl_divergence pairs in the engine alone (these run inside Pyodide too): samples after
torch.manual_seed, reparameterized gradients, densities and KL values, compared (to 1e-5 relative, as libm's last
bits may differ) with what real PyTorch 2.13 gives for the same code (written in below; the differential tests in
tests/differential/test_s46_more_distributions_vs_torch.py compare the two live), and their reprs and errors."""
import math

import pytest

import engine as torch

D = torch.distributions
nan, inf = math.nan, math.inf


def pareto_weibull_case():
    torch.manual_seed(0)
    s = torch.tensor([1.0, 2.0], requires_grad=True)
    a = torch.tensor([3.0, 0.7], requires_grad=True)
    x = D.Pareto(s, a).rsample((2,))
    y = D.Weibull(s, a).rsample()
    (x.sum() + y.sum()).backward()
    v = torch.tensor([2.5, 3.0])
    return (x.tolist(), y.tolist(), s.grad.tolist(), a.grad.tolist(), D.Pareto(s, a).log_prob(v).tolist(),
            D.Weibull(s, a).log_prob(v).tolist(), D.Pareto(s, a).entropy().tolist(), D.Weibull(s, a).entropy().tolist())


def half_cauchy_inverse_gamma_kumaraswamy_case():
    torch.manual_seed(1)
    c = torch.tensor([2.0, 0.5], requires_grad=True)
    x = D.HalfCauchy(c).rsample()
    y = D.InverseGamma(c, 1.5).rsample()
    z = D.Kumaraswamy(c, 2.0).rsample()
    (x + y + z).sum().backward()
    v = torch.tensor([0.25, 0.5])
    return (x.tolist(), y.tolist(), z.tolist(), c.grad.tolist(), D.HalfCauchy(c).log_prob(v).tolist(),
            D.InverseGamma(c, 1.5).log_prob(v).tolist(), D.Kumaraswamy(c, 2.0).log_prob(v).tolist(),
            D.Kumaraswamy(c, 2.0).mean.tolist(), D.InverseGamma(c, 1.5).entropy().tolist())


def continuous_bernoulli_case():
    torch.manual_seed(2)
    p = torch.tensor([0.2, 0.5, 0.9], requires_grad=True)
    d = D.ContinuousBernoulli(p)
    x = d.rsample((2,))
    x.sum().backward()
    v = torch.tensor([0.3, 0.4, 0.5])
    return (x.tolist(), p.grad.tolist(), d.log_prob(v).tolist(), d.mean.tolist(), d.variance.tolist(),
            d.entropy().tolist(), d.cdf(v).tolist(), d.icdf(v).tolist())


def negative_binomial_fisher_case():
    torch.manual_seed(3)
    nb = D.NegativeBinomial(torch.tensor([3., 10., 0.5]), torch.tensor([0.2, 0.5, 0.9]))
    f = D.FisherSnedecor(torch.tensor([1., 3., 10.]), torch.tensor([2., 5., 8.]))
    return (nb.sample((2,)).tolist(), nb.log_prob(torch.tensor([0., 4., 7.])).tolist(), f.sample().tolist(),
            f.log_prob(torch.tensor([0.5, 1., 2.])).tolist(), nb.mean.tolist(), f.mean.tolist())


def relaxed_case():
    torch.manual_seed(4)
    lg = torch.tensor([0.2, 0.6, -1.], requires_grad=True)
    x = D.RelaxedBernoulli(torch.tensor(0.3), logits=lg).rsample()
    y = D.RelaxedOneHotCategorical(torch.tensor(0.5), logits=lg).rsample()
    (x.sum() + (y * torch.tensor([1., 2., 3.])).sum()).backward()
    return (x.tolist(), y.tolist(), lg.grad.tolist(),
            D.RelaxedBernoulli(torch.tensor(0.3), logits=lg).log_prob(torch.tensor([0.3, 0.4, 0.9])).tolist(),
            D.RelaxedOneHotCategorical(torch.tensor(0.5), logits=lg).log_prob(torch.tensor([0.3, 0.4, 0.3])).item())


def lowrank_case():
    torch.manual_seed(5)
    loc = torch.tensor([0., 1., 2.], dtype=torch.float64, requires_grad=True)
    W = torch.tensor([[1., 0.5], [0.2, -0.3], [0.4, 1.]], dtype=torch.float64, requires_grad=True)
    d = D.LowRankMultivariateNormal(loc, W, torch.tensor([1., 2., 0.5], dtype=torch.float64))
    x = d.rsample((2,))
    lp = d.log_prob(torch.tensor([0.5, 0.5, 0.5], dtype=torch.float64))
    (x.sum() + lp).backward()
    q = D.MultivariateNormal(torch.zeros(3, dtype=torch.float64), torch.eye(3, dtype=torch.float64) * 2)
    return (x.tolist(), lp.item(), loc.grad.tolist(), W.grad.tolist(), d.entropy().item(),
            D.kl_divergence(d, q).item(), D.kl_divergence(q, d).item(), d.covariance_matrix.tolist())


def mixture_logistic_normal_case():
    torch.manual_seed(6)
    g = D.MixtureSameFamily(D.Categorical(torch.tensor([0.3, 0.5, 0.2])),
                            D.Normal(torch.tensor([-1., 0., 2.]), torch.tensor([0.5, 1., 0.3])))
    x = g.sample((4,))
    ln = D.LogisticNormal(torch.tensor([0., 1.]), torch.tensor([1., 0.5]))
    y = ln.sample()
    return (x.tolist(), g.log_prob(x).tolist(), g.mean.item(), g.variance.item(), y.tolist(), ln.log_prob(y).item())


def von_mises_generalized_pareto_case():
    torch.manual_seed(7)
    vm = D.VonMises(torch.tensor([0., 1., -2.]), torch.tensor([1., 0.5, 20.]))
    x = vm.sample((2,))
    gp = D.GeneralizedPareto(torch.tensor([0., 1.]), torch.tensor([1., 0.5]), torch.tensor([0.3, 0.]))
    y = gp.sample()
    return (x.tolist(), vm.log_prob(torch.tensor([0.3, 1., -2.5])).tolist(), vm.variance.tolist(),
            torch.rand(1).tolist(), y.tolist(), gp.log_prob(torch.tensor([0.5, 1.5])).tolist())


def kl_case():
    P = D.Pareto(torch.tensor([1., 2.]), torch.tensor([3., 1.5]))
    P2 = D.Pareto(torch.tensor([0.5, 3.]), torch.tensor([2., 2.5]))
    CB = D.ContinuousBernoulli(torch.tensor([0.2, 0.7]))
    N = D.Normal(torch.tensor([0., 1.]), torch.tensor([1., 2.]))
    G = D.Gamma(torch.tensor([2., 3.]), torch.tensor([1., 0.5]))
    CB2 = D.ContinuousBernoulli(logits=torch.tensor([0.5, -1.]))
    pairs = [(P, P2), (P2, P), (CB, CB2), (P, N), (P, G), (CB, N), (D.Beta(2., 3.), CB), (D.Uniform(0.2, 0.6), CB),
             (D.Uniform(1.5, 2.5), P2), (D.Poisson(2.), D.Bernoulli(0.3))]
    return [D.kl_divergence(p, q).tolist() for p, q in pairs]


CASES = [
    (pareto_weibull_case,
     ([[3.2201955318450928, 11.5980806350708], [1.2275431156158447, 74.79456329345703]],
      [1.0117628574371338, 3.7962515354156494], [5.459501266479492, 45.09444808959961],
      [-1.3431094884872437, -419.5636901855469], [-2.5665507316589355, -1.7391128540039062],
      [-12.693805694580078, -2.4996628761291504], [0.23472106456756592, 3.4783935546875],
      [0.28619813919067383, 1.8024439811706543])),
    (half_cauchy_inverse_gamma_kumaraswamy_case,
     ([10.29909896850586, 0.5870866179466248], [0.8583365678787231, 0.9577990174293518],
      [0.5649408102035522, 0.10593283921480179], [4.812711238861084, 0.25559818744659424],
      [-1.1602340936660767, -0.451582670211792], [-1.030186653137207, -2.329911708831787],
      [-0.06453859806060791, -0.8813735246658325], [0.5333333015441895, 0.1666666567325592],
      [1.1371124982833862, 4.423096179962158])),
    (continuous_bernoulli_case,
     ([[0.4458499848842621, 0.38101285696029663, 0.8227574229240417],
       [0.3172610104084015, 0.7135938405990601, 0.811831533908844]],
      [1.3247978687286377, 0.0, 1.2232022285461426], [0.19842803478240967, 0.0, -0.19363415241241455],
      [0.38801419734954834, 0.5, 0.6698803901672363], [0.07589778304100037, 0.0833333358168602, 0.06650885939598083],
      [-0.07641448080539703, 0.0, -0.17963123321533203],
      [0.4536614716053009, 0.4000000059604645, 0.25000008940696716],
      [0.18386587500572205, 0.4000000059604645, 0.7324867248535156])),
    (negative_binomial_fisher_case,
     ([[1.0, 6.0, 1.0], [1.0, 3.0, 1.0]], [-0.6694306135177612, -3.131776809692383, -3.4519786834716797],
      [0.28613921999931335, 0.39464396238327026, 1.3879835605621338],
      [-1.027862548828125, -1.0183939933776855, -1.75177001953125], [0.75, 10.0, 4.499999046325684],
      [nan, 1.6666666269302368, 1.3333333730697632])),
    (relaxed_case,
     ([0.8123955726623535, 0.9422200918197632, 1.6927015167311765e-05],
      [0.8041168451309204, 0.17901214957237244, 0.016870904713869095],
      [0.16587203741073608, 0.4633243680000305, 0.06036130338907242],
      [-1.080754280090332, -1.2906110286712646, -0.8036010265350342], -1.1713743209838867)),
    (lowrank_case,
     ([[-0.9861066378884342, 3.8313011472279124, 0.21031311352200843],
       [-0.9868912160849262, 1.5807940244893945, 1.808501238324721]],
      -4.99107614571281, [2.783317479581461, 1.6042575523993834, 0.619247548135271],
      [[-1.3621676322901246, -0.6016736540043858], [-1.1902598507062696, 0.4865395243265892],
       [-1.2703135234107945, 0.6645577111979843]],
      5.1607468250187445, 1.395789545435191, 2.1895950447179877,
      [[2.25, 0.05000000000000002, 0.9], [0.05000000000000002, 2.13, -0.21999999999999997],
       [0.9, -0.21999999999999997, 1.6600000000000001]])),
    (mixture_logistic_normal_case,
     ([0.1777002215385437, 1.6579535007476807, 2.328385353088379, -1.0701773166656494],
      [-1.5545408725738525, -1.6643602848052979, -1.8366013765335083, -1.0511720180511475], 0.09999999403953552,
      1.683000087738037, [0.4926966726779938, 0.3857800364494324, 0.12152330577373505], 2.3547160625457764)),
    (von_mises_generalized_pareto_case,
     ([[0.6400454640388489, 1.6338863372802734, -1.9020276069641113],
       [-0.629218339920044, 1.8777602910995483, -1.8555306196212769]],
      [-1.1184548139572144, -1.3994266986846924, -1.8758373260498047],
      [0.5536100268363953, 0.7575003504753113, 0.025329411029815674], [0.5857489109039307],
      [2.3256113529205322, 1.565040946006775], [-0.6056351065635681, -0.3068528175354004])),
    (kl_case,
     [[1.4584262371063232, inf], [inf, 0.7190232276916504], [0.14280235767364502, 0.140488862991333],
      [2.1842174530029297, inf], [0.9319455623626709, 1.0986120700836182], [1.108579397201538, 1.6746615171432495],
      [0.17510759830474854, 0.3493720293045044], [0.8564920425415039, 1.0307564735412598], [2.740734815597534, inf],
      inf]),
]


def _close(got, expected):
    """Nested lists of numbers equal to 1e-5 relative (1e-7 absolute), NaN and inf included."""
    if isinstance(expected, (list, tuple)):
        return len(got) == len(expected) and all(_close(g, e) for g, e in zip(got, expected))
    if isinstance(expected, float) and math.isnan(expected):
        return math.isnan(got)
    return got == pytest.approx(expected, rel=1e-5, abs=1e-7)


@pytest.mark.parametrize("case, expected", CASES, ids=[c.__name__ for c, _ in CASES])
def test_matches_pytorch(case, expected):
    assert _close(case(), expected)


def test_reprs_and_shapes():
    assert repr(D.Pareto(1., 2.)) == 'Pareto(alpha: 2.0, scale: 1.0)'
    assert repr(D.Weibull(torch.ones(3), 2.)) == 'Weibull(scale: torch.Size([3]), concentration: torch.Size([3]))'
    assert repr(D.RelaxedBernoulli(torch.tensor(1.), 0.3)) == 'RelaxedBernoulli()'
    g = D.MixtureSameFamily(D.Categorical(torch.ones(2)), D.Normal(torch.zeros(2), 1.))
    assert repr(g) == ('MixtureSameFamily(\n  Categorical(probs: torch.Size([2]), logits: torch.Size([2])),\n'
                       '  Normal(loc: torch.Size([2]), scale: torch.Size([2])))')
    assert repr(g.support) == 'MixtureSameFamilyConstraint(Real())'
    assert str(type(D.VonMises(0., 1.))) == "<class 'torch.distributions.von_mises.VonMises'>"
    assert str(type(D.RelaxedOneHotCategorical(torch.tensor(1.), torch.ones(3)).base_dist)) == (
        "<class 'torch.distributions.relaxed_categorical.ExpRelaxedCategorical'>")
    ln = D.LogisticNormal(torch.zeros(2, 3), 1.)
    assert (ln.batch_shape, ln.event_shape, ln.sample((5,)).shape) == ((2,), (4,), (5, 2, 4))
    lr = D.LowRankMultivariateNormal(torch.zeros(2, 3), torch.ones(3, 1), torch.ones(3)).expand((4, 2))
    assert (lr.batch_shape, lr.event_shape, lr.cov_factor.shape) == ((4, 2), (3,), (4, 2, 3, 1))
    assert D.VonMises(torch.zeros(3), 1.).expand((2, 3)).sample().shape == (2, 3)


def test_errors():
    with pytest.raises(ValueError, match=r'^The parameter probs has invalid values$'):
        D.ContinuousBernoulli(1.5, validate_args=True)
    with pytest.raises(ValueError, match=r'^ The Mixture distribution needs to be an  instance of torch'):
        D.MixtureSameFamily(D.Normal(0., 1.), D.Normal(torch.zeros(2), 1.))
    with pytest.raises(ValueError, match=r'^cov_factor must be a batch of matrices with shape 3 x m$'):
        D.LowRankMultivariateNormal(torch.zeros(3), torch.ones(2, 3), torch.ones(3))
    with pytest.raises(ValueError, match=r'^Either `probs` or `logits` must be specified, but not both.$'):
        D.NegativeBinomial(2.)
    with pytest.raises(NotImplementedError, match=r'^No KL\(p \|\| q\) is implemented for p type VonMises'):
        D.kl_divergence(D.VonMises(0., 1.), D.VonMises(0., 1.))
    # (Pareto's base Exponential(alpha) checks its rate first)
    with pytest.raises(ValueError, match=r'^Expected parameter rate .* of distribution Exponential'):
        D.Pareto(1., -2.)
