"""conv2d / conv1d against real PyTorch, to the last bit: output, input's, weight's and bias's gradients
(engine/_conv_kernels.py: which oneDNN kernel PyTorch runs and in what order it adds)."""
import numpy as np
import pytest

T = pytest.importorskip("torch", reason="differential tests need real PyTorch (pip install torch==2.13.0)")
from .harness import load_engine  # noqa: E402

E = load_engine()

if T.backends.cpu.get_cpu_capability() != "AVX512":
    pytest.skip("the orders measured are those of oneDNN's AVX-512 kernels", allow_module_level=True)

from engine._conv_kernels import LIMIT, POSITIONS, _kernels  # noqa: E402
from engine._ops_conv import _Geometry  # noqa: E402


def _grads(lib, x, w, b, g, one_d, stride, padding, threads):
    old = lib.get_num_threads()
    lib.set_num_threads(threads)
    try:
        xt, wt, bt = (lib.from_numpy(a.copy()).requires_grad_() for a in (x, w, b))
        conv = lib.nn.functional.conv1d if one_d else lib.nn.functional.conv2d
        y = conv(xt, wt, bt, stride=stride, padding=padding)
        y.backward(lib.from_numpy(g.reshape(tuple(y.shape)).copy()))
    finally:
        lib.set_num_threads(old)
    return [y.detach().numpy(), xt.grad.numpy(), wt.grad.numpy(), bt.grad.numpy()]


def _shapes(seed, count):
    rng = np.random.default_rng(seed)
    for _ in range(count):
        one_d = rng.random() < 0.25
        n, c = int(rng.choice([1, 2, 3, 4, 8])), int(rng.choice([1, 2, 3, 6, 16, 32]))
        o, k = int(rng.choice([1, 2, 3, 4, 6, 8, 16, 32])), int(rng.choice([1, 2, 3, 5]))
        h = 1 if one_d else int(rng.integers(max(k, 4), 16))
        yield (rng, one_d, n, c, o, k, h, int(rng.integers(max(k, 4), 20)), int(rng.choice([1, 1, 2])),
               int(rng.choice([0, 0, 1])))


@pytest.mark.parametrize("seed", [0, 1, 2])
@pytest.mark.parametrize("threads", [2, 1])
def test_conv_bit_for_bit(seed, threads):
    """Random shapes of the kinds tutorials use; every modelled value the same bytes as PyTorch's. (Not modelled:
    the 1x1 kernels' weight gradient, and everything but the bias's gradient of PyTorch's own path for one small
    image; numpy's order there.)"""
    checked = 0
    for rng, one_d, n, c, o, k, h, w, stride, padding in _shapes(seed, 40):
        x = rng.standard_normal((n, c, w) if one_d else (n, c, h, w)).astype(np.float32)
        wt = rng.standard_normal((o, c, k) if one_d else (o, c, k, k)).astype(np.float32)
        b = rng.standard_normal(o).astype(np.float32)
        g = rng.standard_normal(4096).astype(np.float32)
        out = T.nn.functional.conv1d if one_d else T.nn.functional.conv2d
        size = out(T.from_numpy(x), T.from_numpy(wt), stride=stride, padding=padding).numel()
        g = g[:size] if size <= g.size else rng.standard_normal(size).astype(np.float32)
        t = _grads(T, x, wt, b, g, one_d, stride, padding, threads)
        e = _grads(E, x, wt, b, g, one_d, stride, padding, threads)
        old = E.get_num_threads()
        E.set_num_threads(threads)
        try:
            geo = _Geometry((n, c, h, w), (o, c, 1 if one_d else k, k), (1 if one_d else stride, stride),
                            (0 if one_d else padding, padding), (1, 1), 1)
            kernels = _kernels(geo)
        finally:
            E.set_num_threads(old)
        positions = n * int(np.prod(geo.out_hw))
        small = positions * o * c * (1 if one_d else k) * k <= LIMIT          # (beyond: numpy's order, by design)
        names = ['output', 'input grad', 'weight grad', 'bias grad']
        short = kernels is not None and kernels[1] == 'brgconv_strided' and (w + 2 * padding - k) % stride and k > 3
        modelled = [kernels is not None and small, kernels is not None and small and not short] + [
            kernels is not None and small and positions <= POSITIONS and kernels[2] in ('jit', 'jit_avx2'), True]
        for name, ta, ea, yes in zip(names, t, e, modelled):
            if yes:
                assert ta.tobytes() == ea.tobytes(), (name, one_d, n, c, o, k, h, w, stride, padding, kernels, threads)
                checked += 1
    assert checked > 100
