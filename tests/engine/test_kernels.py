"""softmax, log_softmax (and their gradients) over the last dim and cross_entropy give PyTorch's bits: its
vectorized kernel's exp (Sleef's expf_u10), its order of additions in vector lanes, and nll_loss's own cascade
over the batch. The digests are of the bytes real PyTorch 2.13 gave; this runs without PyTorch, and inside Pyodide.
"""
import hashlib
import math

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


RANGES = [
    ('torch.linspace(-math.pi, math.pi, 2000)', '2fa2ad108ce38e18'),
    ('torch.linspace(0, 1, 100)', '6794926299cce22c'),
    ('torch.linspace(3, -2, 77, dtype=torch.float64)', 'bfcd1f2d6bc09d1b'),
    ('torch.linspace(-7.3, 12.9, 1001, dtype=torch.int64)', 'b88b3e402a381c13'),
    ('torch.arange(-8.0, 8.0, 0.1)', '5670840593148836'),
    ('torch.arange(1, 2, 0.01, dtype=torch.float64)', '922fc3ae9ec6fa9b'),
    ('torch.arange(0.5, 100.5, 0.7)', '9459aed76c02454e'),
    ('torch.range(-8, 8, 0.1)', 'cb493a731236fbf6'),
]


@pytest.mark.filterwarnings('ignore:torch.range is deprecated')
@pytest.mark.parametrize('code, expected', RANGES)
def test_ranges_as_pytorch(code, expected):
    """linspace and arange as PyTorch's kernels compute them (fused multiply-adds; linspace's two halves, arange's
    vectors), so a tutorial's `x = torch.linspace(-math.pi, math.pi, 2000)` holds PyTorch's numbers."""
    assert digest(eval(code, {'torch': torch, 'math': math})) == expected


@pytest.mark.parametrize('layout', ['contiguous', 'transposed', 'large'])
def test_relu_keeps_signed_zeros_and_nan(layout):
    """relu is clamp_min(x, 0), which keeps x itself on ties: -0 stays -0, nan stays nan (a small C-contiguous
    input is compared with an array of zeros, a transposed or large one with the number 0: both ways)."""
    values = np.array([-0.0, 0.0, -1.5, np.nan, 2.0, -np.inf, np.inf, -np.nan] * 16, np.float32)
    if layout == 'large':
        values = np.tile(values, 1000)
    x = torch.from_numpy(values.reshape(-1, 8))
    if layout == 'transposed':
        x = torch.from_numpy(values.reshape(8, -1).copy()).t()
    y = torch.relu(x).numpy()
    expected = np.where(np.isnan(x.numpy()) | (x.numpy() >= 0), x.numpy(), np.float32(0))
    assert np.array_equal(y, expected, equal_nan=True)
    assert np.array_equal(np.signbit(y), np.signbit(expected))


@pytest.mark.parametrize('lo, hi, x, expected', [
    (-0., 0., [-0.4, -0., 0., 0.4, 2.], [-0., -0., 0., 0., 0.]),     # max(-0.4, -0.) is -0.; min(-0., 0.) keeps it
    (0., -0., [-0.4, -0., 0., 0.4, 2.], [0., -0., 0., -0., -0.]),
    (-0., -0., [-0.4, 0.], [-0., 0.]),
    (None, 0., [-0.], [-0.]),
])
def test_clamp_keeps_the_first_operand_on_zero_ties(lo, hi, x, expected):
    """PyTorch's clamp is min(max(x, lo), hi), each keeping its first operand where it ties the other in zeros of
    either sign (measured: torch.tensor([-0.4]).clamp(-0., 0.) is tensor([-0.]))."""
    for dtype in (torch.float32, torch.float64):
        y = torch.tensor(x, dtype=dtype).clamp(lo, hi).numpy()
        assert np.array_equal(y, expected) and np.array_equal(np.signbit(y), np.signbit(expected)), (dtype, y)


def test_gelu_zeros_take_the_sign_of_x():
    """gelu of -0. and of numbers far below zero (erf is -1 there) is -0., as oneDNN's (x * (1 + erf)) * 0.5 gives
    it, whatever the length (one number goes through ATen's scalar loop)."""
    for values in ([-0.], [-0., 0.], [-20., -0., 0., 3.] * 10):
        y = torch.nn.functional.gelu(torch.tensor(values)).numpy()
        x = np.array(values, np.float32)
        zero = y == 0
        assert np.array_equal(np.signbit(y[zero]), np.signbit(x[zero])), (values, y)


def test_orders_of_small_kernels_measured_against_pytorch():
    """Values real PyTorch 2.13 gives (its RNG reproduced): avg_pool's backward with overlapping windows goes through
    the outputs in order (an input receives from its last tap first); PReLU's weight gradient is summed as autograd's
    sum_to sums; addmm of a small batch is MKL's mm and then + bias."""
    torch.manual_seed(0)
    x = torch.randn(1, 1, 6, 6, requires_grad=True)
    F.avg_pool2d(x, 2, stride=1).backward(torch.randn(1, 1, 5, 5))
    assert x.grad[0, 0, 1:3].tolist() == [
        [-0.17016631364822388, -0.41137418150901794, -0.24422378838062286, -0.48460137844085693, -0.509453535079956,
         -0.027868106961250305],
        [-0.3856995105743408, -0.5502673983573914, -0.32674452662467957, -0.3732101619243622, -0.4998618960380554,
         -0.28882837295532227]]
    x = torch.tensor([-1.1, -2.3, -0.7, -3.9, -0.31, -5.5, -1.7, -2.9, -0.13], requires_grad=True)
    w = torch.tensor([0.25], requires_grad=True)
    F.prelu(x, w).backward(torch.tensor([0.3, 1.7, -2.2, 0.9, 1.1, -0.4, 2.6, 0.8, -1.9]))
    assert w.grad.item() == -10.843999862670898
    torch.manual_seed(0)
    fc = torch.nn.Linear(8, 4)
    assert fc(torch.randn(16, 8))[1].tolist() == [0.8976038098335266, 0.05208900570869446, 1.1762168407440186,
                                                  -0.3360711932182312]


def test_batch_norm_of_a_transposed_input_as_pytorchs_template():
    """bn(x.transpose(1, 2)) (a Conv1d's or a sequence model's input): PyTorch's statistics for an input neither
    contiguous nor channels last are at::mean in float32, then the squared deviations added one by one in double,
    the running statistics updated in double; the output ((x - mean) * invstd) * w + b (its 2.13 values)."""
    torch.manual_seed(0)
    bn = torch.nn.BatchNorm1d(3)
    y = bn(torch.randn(4, 6, 3).transpose(1, 2))
    assert y[0, 0].tolist() == [-1.1726900339126587, -0.45341238379478455, -0.330893337726593, -1.3156129121780396,
                                0.122167207300663, -0.25944527983665466]
    assert bn.running_mean.tolist() == [0.00023139516997616738, -0.00444255443289876, 0.028955748304724693]
    assert bn.running_var.tolist() == [0.9965714812278748, 0.9895401000976562, 1.0104849338531494]


def test_loss_gradients_are_contiguous_whatever_the_inputs_layout():
    """mse_loss's and smooth_l1_loss's input gradients come out contiguous (their kernels' outputs), so a bias's
    gradient further back sums them as PyTorch does (its 2.13 values)."""
    torch.manual_seed(0)
    x, y = torch.randn(6, 17), torch.randn(17, 6)
    for loss, expected in ((F.mse_loss, [-0.09776502847671509, 0.11559236794710159]),
                           (F.smooth_l1_loss, [-0.02088872343301773, 0.023927241563796997])):
        b = torch.zeros(1, 6, requires_grad=True)
        out = x.t() + b
        strides = []
        out.register_hook(lambda g: strides.append(g.stride()))
        loss(out, y).backward()
        assert strides == [(6, 1)] and b.grad.tolist()[0][:2] == expected
