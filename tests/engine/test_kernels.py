"""softmax, log_softmax (and their gradients) over the last dim and cross_entropy give PyTorch's bits: its
vectorized kernel's exp (Sleef's expf_u10), its order of additions in vector lanes, and nll_loss's own cascade
over the batch. The digests are of the bytes real PyTorch 2.13 gave; this runs without PyTorch, and inside Pyodide.
"""
import hashlib

import numpy as np
import pytest

import engine as torch
from engine.nn import functional as F


def data(n):
    return ((((np.arange(n) * 7919) % 1000 - 500) / 7.) * (1 + (np.arange(n) % 3) * 1e-3)).astype(np.float32)


def digest(t):
    return hashlib.sha1(t.detach().numpy().tobytes()).hexdigest()[:16]


CASES = [
    ((4, 3), 'f32d0d72c934efb0', '0f250ca1671624ba', '534437008c3ed1ad', '11efba69ac79e3a8'),
    ((6, 10), '25e847c3b49a4ec0', '466dbf9ba3104363', 'd9247e187174330e', 'f5db90217495e69e'),
    ((3, 17), '91cfcc390d86f352', 'b6ece2970fb45ac4', 'fbd5bce6603f57fb', '5a39f141ea1efb9d'),
    ((2, 100), '1ecd9cf750227300', 'aac3892fef40bdd6', '8a2aa83e9059753c', '4a9644c0ee3776e2'),
]


@pytest.mark.parametrize('shape, log_softmax, grad, softmax, cross_entropy', CASES)
def test_softmax_family_bits_as_pytorch(shape, log_softmax, grad, softmax, cross_entropy):
    n = int(np.prod(shape))
    x = torch.from_numpy(data(n).reshape(shape) / np.float32(50)).requires_grad_()
    y = F.log_softmax(x, -1)
    y.backward(torch.from_numpy(data(n).reshape(shape)[::-1].copy() / np.float32(100)))
    assert (digest(y), digest(x.grad)) == (log_softmax, grad)
    assert digest(F.softmax(x.detach(), -1)) == softmax
    assert digest(F.cross_entropy(x.detach(), torch.arange(shape[0]) % shape[1])) == cross_entropy


def test_exp_over_its_range_as_pytorch():
    """Sleef's exp from underflow to overflow (a softmax of one long row)."""
    x = torch.from_numpy(np.linspace(-120, 100, 2001).astype(np.float32))
    assert digest(torch.softmax(x.view(1, -1), -1)) == 'eab67c7911dc876d'
