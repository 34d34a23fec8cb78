"""Gamma, Chi2, Beta, Dirichlet, StudentT, Laplace, Cauchy, Gumbel, Geometric, LogNormal and TransformedDistribution
in the engine alone (these run inside Pyodide too): samples after torch.manual_seed and reparameterized gradients,
compared exactly (as Python floats) with what real PyTorch 2.13 gives for the same code (written in below; the
differential tests in tests/differential/test_s46_distributions_vs_torch.py compare the two live)."""
import pytest

import engine as torch

D = torch.distributions


def gamma_case():
    torch.manual_seed(0)
    c = torch.tensor([0.3, 1.0, 2.5, 40.0], requires_grad=True)
    x = D.Gamma(c, 2.).rsample((2,))
    x.sum().backward()
    return x.tolist(), c.grad.tolist(), torch.randn(2).tolist()


def gamma64_case():
    torch.manual_seed(1)
    c = torch.tensor([0.05, 0.9, 7.0, 15.0], dtype=torch.float64, requires_grad=True)
    x = D.Gamma(c, 1.).rsample()
    x.sum().backward()
    return x.tolist(), c.grad.tolist()


def beta_case():
    torch.manual_seed(2)
    a = torch.tensor([0.5, 2.0, 8.0], requires_grad=True)
    b = torch.tensor([1.5, 0.2, 9.0], requires_grad=True)
    x = D.Beta(a, b).rsample((2,))
    x.sum().backward()
    return x.tolist(), a.grad.tolist(), b.grad.tolist()


def dirichlet_case():
    torch.manual_seed(3)
    c = torch.tensor([[0.7, 2.0, 5.0], [1.0, 1.0, 1.0]], dtype=torch.float64, requires_grad=True)
    x = D.Dirichlet(c).rsample()
    (x[..., 0] * 2 + x[..., 1]).sum().backward()
    return x.tolist(), c.grad.tolist()


def tanh_policy_case():
    torch.manual_seed(4)
    mu = torch.tensor([0.5, -1.0], requires_grad=True)
    d = D.TransformedDistribution(D.Normal(mu, 0.7), [D.transforms.TanhTransform(cache_size=1)])
    a = d.rsample()
    lp = d.log_prob(a)
    lp.sum().backward()
    return a.tolist(), lp.tolist(), mu.grad.tolist()


def others_case():
    torch.manual_seed(5)
    return (D.Laplace(0., 1.).sample((3,)).tolist(), D.LogNormal(0., 1.).sample((3,)).tolist(),
            D.Gumbel(0., 1.).sample((3,)).tolist(), D.StudentT(3.).sample((3,)).tolist(),
            D.Geometric(0.3).sample((3,)).tolist(), D.Cauchy(0., 1.).sample((3,)).tolist())


RANDN_AFTER = [-1.0845223665237427, -1.3985954523086548]
GAMMA_32_64 = ([3.748167037963867, 2.2156264781951904], [0.3435715945080347, 0.9727449186006975])

CASES = [
    (gamma_case,
     ([[2.9534758141380735e-06, 0.059491850435733795, 1.20570969581604, 17.984214782714844],
       [0.07899285852909088, 0.41330909729003906, 0.4707377552986145, 20.222244262695312]],
      [0.526366114616394, 0.6948640942573547, 0.838860034942627, 0.9807521104812622],
      [-0.8919953107833862, -1.5091077089309692])),
    (gamma64_case,
     ([0.23253064866786824, 1.0765506572257384, 3.4571861528351855, 16.177503334464706],
      [6.745628008136044, 1.3047638458135737, 0.7046350552907842, 1.0498162976195258])),
    (beta_case,
     ([[0.008825316093862057, 0.9980325698852539, 0.518896758556366],
       [0.0025365289766341448, 0.9997795224189758, 0.40541595220565796]],
      [0.10532210022211075, 0.001327970647253096, 0.06467349827289581],
      [-0.008743444457650185, -0.06156324967741966, -0.05644398182630539])),
    (dirichlet_case,
     ([[0.09628617226115142, 0.5188970639306228, 0.3848167638082257],
       [0.26814561674470044, 0.5397061811764053, 0.1921482020788943]],
      [[0.22388047098575042, 0.05940461833340911, -0.0754939959969543],
       [0.3579636461408051, -0.04262162086383231, -0.34438909197114564]])),
    (tanh_policy_case,
     ([-0.5536943674087524, -0.6843550801277161],
      [-1.4846038818359375, 0.042466044425964355],
      [-1.1073887348175049, -1.368709921836853])),
    (others_case,
     ([1.0802923440933228, -1.3774458169937134, 1.6870718002319336],
      [0.11464386433362961, 0.4281094968318939, 7.646170616149902],
      [0.5591605305671692, -0.9652259349822998, 0.8758265376091003],
      [-2.6126503944396973, -0.3642673194408417, -2.0681889057159424],
      [8.0, 2.0, 0.0],
      [5.782559871673584, -0.040897104889154434, 2.906468629837036])),
]


@pytest.mark.parametrize("case, expected", CASES, ids=[c.__name__ for c, _ in CASES])
def test_matches_pytorch(case, expected):
    if case is tanh_policy_case:        # (tanh: PyTorch's MKL kernel may round an ulp away from numpy's)
        got = case()
        assert all(g == pytest.approx(e, rel=1e-6) for gs, es in zip(got, expected) for g, e in zip(gs, es))
    else:
        assert case() == expected


def test_gamma_draws_leave_the_generators_normal_number():
    """A draw leaves the second number of its last normal pair in the generator, as PyTorch's does: randn after
    Gamma draws continues from it (and float64 draws are the same numbers unrounded)."""
    torch.manual_seed(0)
    D.Gamma(torch.tensor([1.5, 3.0]), 1.).sample()
    assert torch.randn(2).tolist() == RANDN_AFTER
    torch.manual_seed(0)
    x = D.Gamma(torch.tensor([1.5, 3.0]), 1.).sample().tolist()
    y = D.Gamma(torch.tensor([1.5, 3.0], dtype=torch.float64), 1.).sample().tolist()
    assert (x, y) == GAMMA_32_64
