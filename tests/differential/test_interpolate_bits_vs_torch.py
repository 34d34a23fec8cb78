"""F.interpolate against real PyTorch, to the last bit, forward and backward (engine/_ops_vision.py).

PyTorch's CPU kernels (UpSampleKernel.cpp, compiled with fused multiply-adds) compute the source index
s * (o + 0.5) - 0.5 rounded once, floor it as a float32 (doubles too), add the taps as fma(t0, w0, t1 * w1) then
fma(t2, w2, .) ... per dim (linear, bicubic), bicubic's weights with A = -0.75 and only their first multiply-adds
fused; bilinear takes its channels-last kernel (the four corners at once, vectors of 8 floats / 4 doubles in one
order, the channels after them in another) for small outputs (H + W <= 128), channels-last inputs of more than 3
channels, or 3 channels on one thread. Bicubic's backward (UpSampleBicubic2d.cpp) fuses nothing: x taps outside,
y taps inside, += g * wy * wx; nearest's forward outside that vectorized condition has no shortcut for a copy."""
import numpy as np
import pytest

T = pytest.importorskip("torch", reason="differential tests need real PyTorch (pip install torch==2.13.0)")
from .harness import SHOW, load_engine, run_both, same  # noqa: E402

E = load_engine()

if T.backends.cpu.get_cpu_capability() not in ("AVX2", "AVX512"):
    pytest.skip("PyTorch's upsampling kernels fuse multiply-adds only in their AVX2 / AVX-512 builds",
                allow_module_level=True)


def _run(lib, x, kw, g, channels_last=False, threads=None):
    old = lib.get_num_threads()
    if threads is not None:
        lib.set_num_threads(threads)
    try:
        xt = lib.from_numpy(x.copy())
        if channels_last:
            xt = xt.contiguous(memory_format=lib.channels_last)
        xt.requires_grad_()
        y = lib.nn.functional.interpolate(xt, **kw)
        gx, = lib.autograd.grad(y, xt, lib.from_numpy(g.reshape(tuple(y.shape)).copy()))
    finally:
        lib.set_num_threads(old)
    return y.detach().numpy(), gx.numpy()


def _check(x, kw, channels_last=False, threads=None, seed=0):
    out_shape = T.nn.functional.interpolate(T.from_numpy(x.copy()), **kw).shape
    g = np.random.default_rng(seed).standard_normal(tuple(out_shape)).astype(x.dtype)
    (ty, tg), (ey, eg) = (_run(lib, x, kw, g, channels_last, threads) for lib in (T, E))
    assert ty.shape == ey.shape and ty.tobytes() == ey.tobytes(), ("forward", x.shape, x.dtype, kw, channels_last)
    assert tg.tobytes() == eg.tobytes(), ("backward", x.shape, x.dtype, kw, channels_last)


def test_bicubic_arange_case():
    """The reported case: 2.1102504730 (the engine printed 2.1102488041), and its gradient."""
    x = np.arange(4, dtype=np.float32).reshape(1, 1, 2, 2)
    for ac in (False, True):
        _check(x, dict(size=(3, 5), mode="bicubic", align_corners=ac))
    y = E.nn.functional.interpolate(E.arange(4.).view(1, 1, 2, 2), size=(3, 5), mode="bicubic")
    assert y[0, 0, 1, 4].item() == T.nn.functional.interpolate(
        T.arange(4.).view(1, 1, 2, 2), size=(3, 5), mode="bicubic")[0, 0, 1, 4].item()


def test_bilinear_align_corners_arange_case():
    """The reported case: 0.6380953193 (the engine gave 0.6380952597)."""
    x = np.arange(12, dtype=np.float32).reshape(1, 1, 3, 4) / np.float32(7)
    _check(x, dict(size=(4, 6), mode="bilinear", align_corners=True))
    _check(x, dict(size=(5, 7), mode="bilinear", align_corners=False))


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("mode", ["bicubic", "bilinear", "linear", "nearest", "nearest-exact"])
def test_random_shapes(mode, dtype):
    """Random shapes, sizes and scale factors: small and large outputs, 1 to 17 channels (whole vectors of 8
    floats / 4 doubles and the channels after them), channels-last inputs."""
    rng = np.random.default_rng(["bicubic", "bilinear", "linear", "nearest", "nearest-exact"].index(mode) * 2
                                + (dtype == np.float64))
    nd = 1 if mode == "linear" else 2
    for i in range(40):
        channels = int(rng.choice([1, 2, 3, 4, 5, 8, 9, 17]))
        x = rng.standard_normal([int(rng.integers(1, 3)), channels]
                                + [int(v) for v in rng.integers(1, 10, nd)]).astype(dtype)
        kw = dict(mode=mode)
        if mode in ("linear", "bilinear", "bicubic"):
            kw["align_corners"] = bool(i % 2)
        if i % 3 == 0:
            kw["scale_factor"] = tuple(float(rng.choice([0.5, 0.7, 1.3, 1.5, 2.0, 2.5, 1 / 3])) for _ in range(nd))
        else:
            kw["size"] = tuple(int(v) for v in rng.integers(1, 90 if i % 4 == 1 else 30, nd))
        if min(int(n * f) for n, f in zip(x.shape[2:], kw.get("scale_factor", (1,) * nd))) < 1:
            continue                                # (an empty output: an error)
        _check(x, kw, channels_last=nd == 2 and i % 5 == 4, seed=i)


def test_bilinear_paths():
    """The separable kernel (outputs with H + W > 128), the channels-last one (vectors and the rest), three channels
    on one thread, a copy when a size is kept with another scale factor."""
    rng = np.random.default_rng(7)
    for dtype in (np.float32, np.float64):
        for channels in (1, 3, 4, 8, 12):
            x = rng.standard_normal((2, channels, 5, 6)).astype(dtype)
            for ac in (False, True):
                _check(x, dict(size=(70, 75), mode="bilinear", align_corners=ac))
                _check(x, dict(size=(9, 14), mode="bilinear", align_corners=ac))
                _check(x, dict(size=(70, 75), mode="bilinear", align_corners=ac), channels_last=True)
                _check(x, dict(size=(70, 75), mode="bilinear", align_corners=ac), threads=1)
        x = rng.standard_normal((1, 2, 3, 5)).astype(dtype)
        _check(x, dict(scale_factor=(1.2, 2.3), mode="bilinear"))


def test_nearest_generic_kernel_has_no_copy_shortcut():
    """1-d nearest with a scale factor that keeps the size: PyTorch's forward samples at o / 1.3 (no copy); its
    backward keeps the shortcut."""
    for dtype in (np.float32, np.float64):
        x = np.arange(3, dtype=dtype).reshape(1, 1, 3) + 1
        _check(x, dict(scale_factor=1.3, mode="nearest"))
        _check(np.arange(12, dtype=dtype).reshape(1, 1, 2, 6), dict(scale_factor=(1.3, 2.1), mode="nearest"))


SNIPPETS = {
    "bicubic_print": ("import torch.nn.functional as F\n"
                      "torch.set_printoptions(precision=10)\n"
                      "x = torch.arange(4.).view(1, 1, 2, 2).requires_grad_()\n"
                      "y = F.interpolate(x, size=(3, 5), mode='bicubic'); print(y)\n"
                      "y.backward(torch.arange(15.).view(1, 1, 3, 5) / 3); print(x.grad)\n"
                      "print(F.interpolate(x.double(), scale_factor=2.5, mode='bicubic', align_corners=True))"),
    "bilinear_print": ("import torch.nn.functional as F\n"
                       "torch.set_printoptions(precision=10)\n"
                       "x = (torch.arange(12.).view(1, 1, 3, 4) / 7).requires_grad_()\n"
                       "y = F.interpolate(x, size=(4, 6), mode='bilinear', align_corners=True); print(y)\n"
                       "g, = torch.autograd.grad(y, x, torch.arange(24.).view(1, 1, 4, 6) / 9, create_graph=True)\n"
                       "print(g, g.grad_fn)\n"
                       "z = torch.arange(5.).view(1, 1, 5) / 3\n"
                       "print(F.interpolate(z, size=8, mode='linear', align_corners=True))"),
}


@pytest.mark.parametrize("name", SNIPPETS)
def test_snippet(name):
    code = SHOW + SNIPPETS[name]
    t, e = run_both(T, E, code)
    assert same(t, e), f"\n{code}\n--- torch\n{t.summary()}--- engine\n{e.summary()}"
