"""Sums and means add their numbers in PyTorch's order (its CPU kernel's), so that they agree to the last bit.

The expected digests are of the bytes real PyTorch 2.13 gave for the same arrays; this runs without PyTorch (and
inside Pyodide), so the order of additions is checked where numpy's own reductions could differ.
"""
import hashlib

import numpy as np
import pytest

import engine as torch


def data(n, dt):
    """Numbers whose sum depends on the order of additions in the last bits (the same on every numpy)."""
    return (((np.arange(n) * 7919) % 1000 - 500).astype(dt) / dt(7)) * (1 + (np.arange(n) % 3) * dt(1e-3))


CASES = [
    ('float32', (5,), None, '1187ed824153a4f6'),
    ('float32', (6,), None, '5cf357f9457263e6'),
    ('float32', (7,), None, '7235109cf90bc8dd'),
    ('float32', (9,), None, '276e9163debb987f'),
    ('float32', (17,), None, 'f26f273a654ae704'),
    ('float32', (100,), None, '49963e5f115fdefa'),
    ('float32', (640,), None, 'bae751cf70432081'),
    ('float32', (5000,), None, '61c9579bd425638d'),
    ('float32', (32768,), None, 'a955c1a82a0ef50e'),
    ('float32', (64, 10), 1, '67eb5be25d4b5278'),
    ('float32', (6, 7), 1, '03a023a55fcf4dcf'),
    ('float32', (5, 13), 1, '00acf8c85ad6f6f0'),
    ('float32', (5, 5), 0, 'adc670d59157559d'),
    ('float32', (20, 40), 0, '3d670f630d39ab16'),
    ('float32', (3, 33, 2), 0, 'dc1bcbcf76a8eaeb'),
    ('float32', (7, 300), -1, 'ee079dcd2a8d27d3'),
    ('float32', (4, 1, 9), (1, 2), '82a2a523945a0432'),
    ('float32', (12,), 'mean', 'dba2fe172f90e243'),
    # (a bias's gradient and the whole sums of an MLP step: the first-axis forms of the plans)
    ('float32', (64, 128), 0, 'c7c092aed6bcb360'),
    ('float32', (40, 32), 0, '5cf46cfb37f21f8a'),
    ('float32', (18, 64), 0, 'aac87a1f16e56f4b'),
    ('float32', (7, 32), 0, 'f62fa9e178e42cf2'),
    ('float32', (64, 10), 0, 'abd688dc90e6d201'),
    ('float32', (20, 12), 0, '8ce4570b77fee397'),
    ('float32', (200, 9), 0, 'abba0dccbf9d26fa'),
    ('float32', (1024,), None, '933b87e521f3e966'),
    ('float32', (96,), None, '66fdb1f41252c60e'),
    ('float32', (8160,), None, '74d09f3199051ec0'),
    ('float64', (64, 16), 0, '147cf59a4e74e57b'),
    ('float64', (64, 5), 0, '0784b67af2cdfa26'),
    ('float64', (400,), None, 'acb76b6abec865af'),
    ('float64', (36, 4), 0, '7d275981eafa3a0b'),
    ('float64', (5,), None, '423ee3ff94591b4b'),
    ('float64', (6,), None, '88997eec464d44ee'),
    ('float64', (7,), None, '4642122bb77827c9'),
    ('float64', (9,), None, '026585095336b155'),
    ('float64', (17,), None, 'cd5e5d95edea811e'),
    ('float64', (100,), None, '675cb49d12173007'),
    ('float64', (640,), None, '458069bd4146aa54'),
    ('float64', (5000,), None, '84433e51813a7280'),
    ('float64', (32768,), None, 'b53e60f6f3d92967'),
    ('float64', (64, 10), 1, '8374e7bcac56f219'),
    ('float64', (6, 6), 1, 'c75cb1653fd7fb3e'),
    ('float64', (9, 3), -1, '3d8a3c578011cc3a'),
    ('float64', (5, 5), 0, '8b09769606956e0b'),
    ('float64', (20, 40), 0, '1cb34b36a961fb1c'),
    ('float64', (3, 33, 2), 0, 'aac6051ac5259287'),
    ('float64', (7, 300), -1, 'af4b108aaa549727'),
    ('float64', (4, 1, 9), (1, 2), 'f97eb4faf9391211'),
    ('float64', (12,), 'mean', '4423590b953a1ac5'),
]


@pytest.mark.parametrize('dtype, shape, dim, digest', CASES)
def test_sum_bits_as_pytorch(dtype, shape, dim, digest):
    x = torch.from_numpy(data(int(np.prod(shape)), np.dtype(dtype).type).reshape(shape))
    out = x.mean() if dim == 'mean' else x.sum() if dim is None else x.sum(dim)
    assert hashlib.sha1(out.numpy().tobytes()).hexdigest()[:16] == digest


def test_sum_of_negative_zeros_is_positive_zero():
    assert str(torch.tensor([-0.0, -0.0]).sum()) == 'tensor(0.)'
    assert np.signbit(torch.tensor([[-0.0], [-0.0]]).sum(0).numpy()).tolist() == [False]
    for x, dim in ((torch.tensor([[-0.0, -0.0]] * 3), 1), (torch.tensor([[-0.0] * 9] * 2), 1),
                   (torch.tensor([[-0.0]]), 1), (torch.zeros(3, 1, 2).neg(), 1), (torch.zeros(20, 3).neg(), 0),
                   (torch.zeros(8, 8).neg(), 0), (torch.zeros(64, 10).neg(), 0), (torch.zeros(64).neg(), None)):
        assert not np.signbit((x.sum() if dim is None else x.sum(dim)).numpy()).any()


def test_numpy_order_where_pytorch_order_is_not_modelled():
    x = torch.from_numpy(data(40000, np.float32))          # (shared between threads by PyTorch)
    assert abs(x.sum().item() - data(40000, np.float64).sum()) < 1e-1


def test_sums_of_laid_out_tensors_follow_the_kernels_way_through_them():
    """A permuted, sliced or expanded tensor is summed as PyTorch's sum kernel goes through it (TensorIterator's
    order of dims, then contiguous or strided rows or columns), not in numpy's order: these sums of 1e8, 1, -1e8,
    1, 1 come out as PyTorch's (values of real PyTorch 2.13)."""
    b = torch.tensor([1e8, 1.0, -1e8, 1.0, 1.0])
    assert b.expand(2, 5).sum(1).tolist() == [1.0, 1.0]
    x = torch.tensor([[1e8, 0, 1, 0, -1e8, 0, 1, 0, 1, 0]] * 2)[:, ::2]
    assert x.sum(1).tolist() == [1.0, 1.0] and x.sum().item() == 0.0
    p = torch.tensor([[[1e8, 1.0, -1e8, 1.0, 1.0]] * 2] * 2).permute(0, 2, 1)
    assert p.sum(1).tolist() == [[1.0, 1.0], [1.0, 1.0]] and p.sum((0, 1)).tolist() == [2.0, 2.0]
    assert p.mean(1).stride() == (2, 1)
    # a reduction's dims come first in TensorIterator's order (the result's stride 0 there), the memory-outermost too
    torch.manual_seed(0)
    assert torch.randn(8, 5, 4).transpose(1, 2).mean(0)[1].tolist() == [
        -0.7069801092147827, 0.5360826849937439, 0.6459866166114807, -0.42113587260246277, -0.038055092096328735]
    torch.manual_seed(0)
    assert torch.randn(8, 17, 12).permute(0, 2, 1).sum(0)[3, :4].tolist() == [
        0.026082634925842285, -1.1249289512634277, -2.5136992931365967, 0.4186720848083496]
