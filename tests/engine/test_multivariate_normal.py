"""MultivariateNormal on the engine alone (these tests also run inside Pyodide): its densities against the closed
form, its samples' shapes and statistics, KL of a distribution with itself."""
import math

import numpy as np
import pytest

import engine as torch
from engine.distributions import MultivariateNormal, kl_divergence

COV = np.array([[2., .5], [.5, 1.]])


@pytest.mark.parametrize("which", ["covariance_matrix", "precision_matrix", "scale_tril"])
def test_log_prob_is_the_gaussian_density(which):
    given = {'covariance_matrix': COV, 'precision_matrix': np.linalg.inv(COV), 'scale_tril': np.linalg.cholesky(COV)}
    d = MultivariateNormal(torch.tensor([1., -1.], dtype=torch.float64),
                           **{which: torch.tensor(given[which], dtype=torch.float64)})
    x = np.array([0.5, 0.25])
    diff = x - np.array([1., -1.])
    expected = -0.5 * (2 * math.log(2 * math.pi) + math.log(np.linalg.det(COV)) + diff @ np.linalg.solve(COV, diff))
    assert d.log_prob(torch.tensor(x)).item() == pytest.approx(expected, rel=1e-12)
    assert np.allclose(d.covariance_matrix.numpy(), COV)
    assert d.entropy().item() == pytest.approx(0.5 * (2 * (1 + math.log(2 * math.pi)) + math.log(np.linalg.det(COV))))


def test_samples_have_the_covariance_and_gradients_flow_through_rsample():
    torch.manual_seed(0)
    loc = torch.zeros(2, requires_grad=True)
    d = MultivariateNormal(loc, covariance_matrix=torch.tensor(COV, dtype=torch.float32))
    x = d.rsample((20000,))
    assert x.shape == (20000, 2) and d.batch_shape == torch.Size([]) and d.event_shape == torch.Size([2])
    assert np.allclose(np.cov(x.detach().numpy().T), COV, atol=0.08)
    x.sum().backward()
    assert loc.grad.tolist() == [20000., 20000.]
    assert d.sample().grad_fn is None
    assert abs(kl_divergence(d, d).item()) < 1e-6
    with pytest.raises(ValueError, match='Exactly one of covariance_matrix or precision_matrix or scale_tril'):
        MultivariateNormal(torch.zeros(2))
