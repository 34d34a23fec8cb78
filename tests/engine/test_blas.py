"""engine._blas: a big `w -= t` / `w += t` under no_grad runs on numpy's OpenBLAS threads, with numpy's values."""
import numpy as np
import pytest

import engine as torch
from engine import _blas

needs_openblas = pytest.mark.skipif(_blas._AXPY is None, reason="numpy here ships no scipy-openblas (Pyodide, "
                                                                "other BLAS builds): numpy does the op")


def _special(n, dtype, seed):
    """Random numbers with zeros of both signs, infinities, nans, tiny and huge ones mixed in."""
    rng = np.random.default_rng(seed)
    x = rng.standard_normal(n).astype(dtype)
    specials = np.array([0.0, -0.0, np.inf, -np.inf, np.nan, 1e-40, -1e-40, 3e38, -3e38], dtype)
    at = rng.integers(0, n, n // 10)
    x[at] = specials[rng.integers(0, len(specials), len(at))]
    return x


@needs_openblas
@pytest.mark.parametrize('dtype', [np.float32, np.float64])
@pytest.mark.parametrize('op', ['sub', 'add'])
def test_big_inplace_add_and_sub_are_numpys_bit_for_bit(dtype, op):
    n = 5 * (_blas.SMALLEST // 5 + 7)
    a, b = _special(n, dtype, 1), _special(n, dtype, 2)
    expected = a - b if op == 'sub' else a + b
    w, t = torch.from_numpy(a.copy().reshape(-1, 5)), torch.from_numpy(b.reshape(-1, 5))
    calls = []
    real = _blas._AXPY[np.dtype(dtype)]
    _blas._AXPY[np.dtype(dtype)] = lambda *args: (calls.append(args[1]), real(*args))
    try:
        with torch.no_grad():
            if op == 'sub':
                w -= t
            else:
                w += t
    finally:
        _blas._AXPY[np.dtype(dtype)] = real
    assert calls == [-1.0 if op == 'sub' else 1.0]
    got = w.numpy().reshape(-1)
    bits = np.int32 if dtype == np.float32 else np.int64
    nan = np.isnan(expected)
    assert (np.isnan(got) == nan).all()
    assert np.array_equal(got[~nan].view(bits), expected[~nan].view(bits))
    assert w._version == 1


@needs_openblas
def test_what_axpy_leaves_to_numpy():
    big = np.ones(_blas.SMALLEST, np.float32)
    assert _blas.axpy(big.copy(), -1.0, big)
    assert not _blas.axpy(big[:-1].copy(), -1.0, big[:-1][::-1])                  # not contiguous
    assert not _blas.axpy(big[:-1].copy(), -1.0, big[:-1])                        # small
    assert not _blas.axpy(big.copy(), -1.0, big.astype(np.float64))               # another dtype
    assert not _blas.axpy(big.copy().reshape(2, -1), -1.0, big[:big.size // 2])   # broadcast
    assert not _blas.axpy(big.astype(np.float16), -1.0, big.astype(np.float16))   # no half axpy
    shared = big.copy()
    assert not _blas.axpy(shared, -1.0, shared)                                   # the same memory


def test_an_optimizer_step_on_a_big_weight():
    """Whatever does the arithmetic, `w -= lr * w.grad` gives PyTorch's values and version, and a view of w sees it."""
    torch.manual_seed(0)
    w = torch.randn(300, 200, requires_grad=True)
    (w * w).sum().backward()
    row = w[3]
    expected = w.detach().numpy() - np.float32(0.01) * w.grad.numpy()
    with torch.no_grad():
        w -= 0.01 * w.grad
    assert np.array_equal(w.detach().numpy(), expected)
    assert w._version == 1 and row._version == 1
    assert np.array_equal(row.detach().numpy(), expected[3])
    assert w.is_leaf and w.requires_grad and w.grad_fn is None
