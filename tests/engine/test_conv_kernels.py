"""conv2d / conv1d give PyTorch's bits (engine/_conv_kernels.py: oneDNN's kernels, their orders of fused
multiply-adds, and how they share the weight's and bias's gradients between 2 threads). The digests are of the
bytes real PyTorch 2.13 gave (AVX-512, torch.set_num_threads(2)); this runs without PyTorch, and inside Pyodide."""
import hashlib

import numpy as np
import pytest

import engine as torch

# (input shape, weight shape, stride, padding): digests of output, input's, weight's and bias's gradients; None where
# the engine does not model PyTorch's order (a 1x1 kernel's weight gradient)
CASES = [
    ((2, 1, 12, 12), (4, 1, 5, 5), 1, 0, 'af55c1566532f706', 'fe675badf07fc765', '78621970b415b7d6', '17cb53ca8e811d9d'),
    ((2, 3, 8, 8), (8, 3, 3, 3), 1, 1, '2fc72163df00aec0', 'e82329b3cc1f7af4', '7c23c8da91b68d12', '0d6f03b83311bb95'),
    ((3, 6, 9, 9), (16, 6, 3, 3), 2, 1, 'e3ce9bd1dd93c6f2', '777b0e39ee57ef7a', '176a6f7e8639f970', '35927e0299a87fd6'),
    ((2, 2, 10), (3, 2, 3), 2, 0, '3fad2adaeca549c8', '5192693a0dc80f42', 'd08ea1b0585830f1', 'c3ab3acfc466c8c6'),
    ((2, 4, 5, 5), (6, 4, 1, 1), 1, 0, '6cd4498e21b8aac7', '4dbaf95deb458458', None, 'a050880b5084e7f4'),
    ((2, 4, 5, 5), (6, 4, 1, 1), 1, 1, 'fb977cca34a0da67', 'c4ab699e0ef99452', None, '4c91a5baf5d330f1'),
    ((2, 16, 14, 14), (4, 16, 3, 3), 1, 0, '7a8236b4bf676971', '85dc2d8620e9dbcc', 'df3886b88b6883cb',
     '6562662d5afe55a6'),
    ((1, 1, 10, 10), (2, 1, 5, 5), 1, 2, '6bb74236a84f0f2b', 'ab71672f0a171120', '817a03c4089ebaef', '7ab4c9d967bfe85c'),
]


def data(n, k):
    i = np.arange(n)
    return ((((i * 7919 + k * 104729) % 1000 - 500) / 97.) * (1 + (i % 3) * 1e-3)).astype(np.float32)


def digest(t):
    return hashlib.sha1(np.ascontiguousarray(t.detach().numpy()).tobytes()).hexdigest()[:16]


@pytest.fixture
def two_threads():
    old = torch.get_num_threads()
    torch.set_num_threads(2)
    yield
    torch.set_num_threads(old)


@pytest.mark.parametrize('case', CASES)
def test_convolution_bits(two_threads, case):
    xs, ws, stride, padding, *digests = case
    x = torch.from_numpy(data(int(np.prod(xs)), 1).reshape(xs)).requires_grad_()
    w = torch.from_numpy(data(int(np.prod(ws)), 2).reshape(ws)).requires_grad_()
    b = torch.from_numpy(data(ws[0], 3)).requires_grad_()
    conv = torch.nn.functional.conv1d if len(xs) == 3 else torch.nn.functional.conv2d
    y = conv(x, w, b, stride=stride, padding=padding)
    y.backward(torch.from_numpy(data(y.numel(), 4).reshape(tuple(y.shape))))
    got = [digest(t) for t in (y, x.grad, w.grad, b.grad)]
    assert [g if d else None for g, d in zip(got, digests)] == digests
