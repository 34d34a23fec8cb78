"""Tensor printing: golden strings (run anywhere, also in Pyodide) and byte-for-byte comparison with real PyTorch."""
import numpy as np
import pytest

from engine._printing import get_printoptions, set_printoptions, tensor_body, tensor_repr

DEFAULTS = dict(precision=4, threshold=1000, edgeitems=3, linewidth=80, sci_mode=None)


@pytest.fixture(autouse=True)
def default_printoptions():
    """Every test starts and ends with PyTorch's default print options."""
    set_printoptions(profile="default")
    yield
    set_printoptions(profile="default")


def f32(*values):
    """A float32 array, the engine's default dtype."""
    return np.array(values, dtype=np.float32)


# ---------------------------------------------------------------- golden strings (no torch needed)

GOLDEN = [
    (np.array(2.5, np.float32), "float32", "tensor(2.5000)"),
    (np.array(3, np.int64), "int64", "tensor(3)"),
    (np.array(True), "bool", "tensor(True)"),
    (np.array(7, np.int32), "int32", "tensor(7, dtype=torch.int32)"),
    (f32(1, 2, 3), "float32", "tensor([1., 2., 3.])"),
    (f32(1.5, -2, 3), "float32", "tensor([ 1.5000, -2.0000,  3.0000])"),
    (f32(1e-5, 1), "float32", "tensor([1.0000e-05, 1.0000e+00])"),
    (f32(1e10, 1), "float32", "tensor([1.0000e+10, 1.0000e+00])"),
    (f32(np.nan, 1, -np.inf, np.inf), "float32", "tensor([nan, 1., -inf, inf])"),
    (f32(np.nan, 1.5), "float32", "tensor([   nan, 1.5000])"),
    (f32(-0.0, 0.0), "float32", "tensor([-0., 0.])"),
    (np.array([0.1, 0.25], np.float64), "float64", "tensor([0.1000, 0.2500], dtype=torch.float64)"),
    (np.array([1, -20, 300], np.int64), "int64", "tensor([  1, -20, 300])"),
    (np.array([True, False]), "bool", "tensor([ True, False])"),
    (np.array([[1, 2], [3, 4]], np.uint8), "uint8", "tensor([[1, 2],\n        [3, 4]], dtype=torch.uint8)"),
    (np.arange(8, dtype=np.float32).reshape(2, 2, 2), "float32",
     "tensor([[[0., 1.],\n         [2., 3.]],\n\n        [[4., 5.],\n         [6., 7.]]])"),
    (np.zeros(0, np.float32), "float32", "tensor([])"),
    (np.zeros(0, np.int64), "int64", "tensor([], dtype=torch.int64)"),
    (np.zeros((2, 0), np.float32), "float32", "tensor([], size=(2, 0))"),
    (np.zeros((0, 3), np.bool_), "bool", "tensor([], size=(0, 3), dtype=torch.bool)"),
    (np.arange(20, dtype=np.float32) / 3, "float32",
     "tensor([0.0000, 0.3333, 0.6667, 1.0000, 1.3333, 1.6667, 2.0000, 2.3333, 2.6667,\n"
     "        3.0000, 3.3333, 3.6667, 4.0000, 4.3333, 4.6667, 5.0000, 5.3333, 5.6667,\n"
     "        6.0000, 6.3333])"),
    (np.arange(1001, dtype=np.int64), "int64", "tensor([   0,    1,    2,  ...,  998,  999, 1000])"),
    (np.arange(100, 2100, dtype=np.float32).reshape(40, 50), "float32",
     "tensor([[ 100.,  101.,  102.,  ...,  147.,  148.,  149.],\n"
     "        [ 150.,  151.,  152.,  ...,  197.,  198.,  199.],\n"
     "        [ 200.,  201.,  202.,  ...,  247.,  248.,  249.],\n"
     "        ...,\n"
     "        [1950., 1951., 1952.,  ..., 1997., 1998., 1999.],\n"
     "        [2000., 2001., 2002.,  ..., 2047., 2048., 2049.],\n"
     "        [2050., 2051., 2052.,  ..., 2097., 2098., 2099.]])"),
]


@pytest.mark.parametrize("data, dtype_name, expected", GOLDEN, ids=range(len(GOLDEN)))
def test_golden(data, dtype_name, expected):
    assert tensor_repr(data, dtype_name) == expected


def test_suffixes_follow_dtype_and_wrap_at_linewidth():
    assert tensor_repr(f32(1, 2), "float32", ["requires_grad=True"]) == "tensor([1., 2.], requires_grad=True)"
    assert (tensor_repr(np.array([1.5], np.float64), "float64", ["grad_fn=<MulBackward0>"])
            == "tensor([1.5000], dtype=torch.float64, grad_fn=<MulBackward0>)")
    row = np.arange(9, dtype=np.float32) / 3
    assert (tensor_repr(row, "float32", ["grad_fn=<MulBackward0>"])
            == "tensor([0.0000, 0.3333, 0.6667, 1.0000, 1.3333, 1.6667, 2.0000, 2.3333, 2.6667],\n"
               "       grad_fn=<MulBackward0>)")


def test_dtype_shown_depends_on_the_default_dtype():
    assert tensor_repr(f32(1), "float32", default_dtype="float64") == "tensor([1.], dtype=torch.float32)"
    assert tensor_repr(np.array([1.0]), "float64", default_dtype="float64") == "tensor([1.])"
    assert tensor_repr(np.zeros(0), "float64", default_dtype="float64") == "tensor([])"


def test_body_is_the_text_inside_the_tensor_prefix():
    data = np.arange(6, dtype=np.float32).reshape(2, 3) / 2
    assert tensor_body(data, "float32") == "[[0.0000, 0.5000, 1.0000],\n        [1.5000, 2.0000, 2.5000]]"
    assert tensor_repr(data, "float32") == "tensor(" + tensor_body(data, "float32") + ")"
    assert tensor_body(np.zeros((0, 2), np.float32), "float32") == "[]"


def test_printoptions_defaults_and_profiles():
    assert get_printoptions() == DEFAULTS
    set_printoptions(profile="short")
    assert get_printoptions() == dict(DEFAULTS, precision=2, edgeitems=2)
    set_printoptions(profile="full", precision=6)
    assert get_printoptions() == dict(DEFAULTS, precision=6, threshold=float("inf"))
    set_printoptions(sci_mode=True)
    assert get_printoptions()["sci_mode"] is True
    set_printoptions(precision=3)  # like PyTorch, omitting sci_mode resets it to automatic
    assert get_printoptions() == dict(DEFAULTS, precision=3, threshold=float("inf"))


def test_printoptions_change_the_output():
    set_printoptions(precision=2)
    assert tensor_repr(f32(1.12345), "float32") == "tensor([1.12])"
    set_printoptions(threshold=5)
    assert tensor_repr(np.arange(10, dtype=np.int64), "int64") == "tensor([0, 1, 2,  ..., 7, 8, 9])"
    set_printoptions(sci_mode=False)
    assert tensor_repr(f32(1e-5, 1), "float32") == "tensor([0.00, 1.00])"
    set_printoptions(profile="default", sci_mode=True)
    assert tensor_repr(f32(1, 2), "float32") == "tensor([1.0000e+00, 2.0000e+00])"
    set_printoptions(profile="default", edgeitems=0, threshold=3)
    assert tensor_repr(f32(1, 2, 3, 4), "float32") == "tensor([...], size=(4,))"
    set_printoptions(profile="default", linewidth=30)
    assert tensor_repr(np.arange(10, dtype=np.int64), "int64") == (
        "tensor([0, 1, 2, 3, 4, 5, 6,\n        7, 8, 9])")
    set_printoptions(profile="default")
    assert tensor_repr(f32(1.12345), "float32") == "tensor([1.1235])"


# ---------------------------------------------------------------- differential: real PyTorch is the oracle

def _cases():
    """A table of arrays covering PyTorch's printing rules: (id, array)."""
    rng = np.random.default_rng(0)
    c = {}
    for dt in ("float32", "float64", "float16", "int64", "int32", "int16", "int8", "uint8", "bool"):
        c[f"scalar-{dt}"] = np.array(3, dt)
        for shape in [(0,), (0, 3), (3, 0), (2, 0, 4), (1, 0, 1, 2)]:
            c[f"empty-{dt}-{shape}"] = np.zeros(shape, dt)
    for v in [2.5, -0.0, 0.0, 1e-8, 1e9, 123456.789, np.nan, np.inf, -np.inf, -3.0]:
        c[f"scalar-f32-{v}"] = np.array(v, np.float32)
        c[f"scalar-f64-{v}"] = np.array(v, np.float64)
    c["normal"] = rng.standard_normal(7).astype(np.float32)
    c["normal-f64"] = rng.standard_normal(7)
    c["normal-f16"] = rng.standard_normal(7).astype(np.float16)
    c["uniform-small"] = rng.uniform(0, 1e-3, 6).astype(np.float32)
    c["tiny"] = f32(1e-30, 3e-38, 1e-45)
    c["huge"] = f32(1e30, -3e38, 1e9)
    c["huge-f64"] = np.array([1e300, 1e-300, -5.0])
    c["mixed-magnitudes"] = f32(1e-3, 1, 999.5, -12345.678)
    c["ratio-exactly-1000"] = f32(1, 1000)
    c["ratio-over-1000"] = f32(1, 1000.5)
    c["at-1e8"] = f32(1e8, 1)
    c["int-valued"] = f32(1, -2, 30, 400)
    c["int-valued-huge"] = f32(1e10, 2e10)
    c["int-valued-1e8"] = np.array([1e8 + 2, 3], np.float64)
    c["zeros"] = np.zeros(4, np.float32)
    c["neg-zero-mix"] = f32(-0.0, 1.5, 0.0)
    c["neg-zero-int-mode"] = f32(-0.0, 2, 0.0)
    c["all-nan"] = f32(np.nan, np.nan)
    c["nonfinite"] = f32(np.inf, -np.inf, np.nan)
    c["nan-int-mode"] = f32(np.nan, 1, 2)
    c["nan-fixed"] = f32(np.nan, 0.5)
    c["nan-sci"] = f32(np.nan, 1e-7, 1)
    c["inf-sci"] = f32(-np.inf, 1e-7, 1)
    c["f16-range"] = np.array([65504, -0.000061, 0.1, 1], np.float16)
    c["f16-int"] = np.array([1, 2048, -7], np.float16)
    c["int64-big"] = np.array([2**62, -(2**63), 5], np.int64)
    c["int32"] = rng.integers(-1000, 1000, 9).astype(np.int32)
    c["int16"] = np.array([-32768, 32767, 0], np.int16)
    c["int8"] = np.array([-128, 127, 3], np.int8)
    c["uint8"] = rng.integers(0, 256, 12).astype(np.uint8)
    c["bool"] = rng.random(10) > 0.5
    c["bool-true"] = np.ones(3, bool)
    c["2d"] = rng.standard_normal((3, 4)).astype(np.float32)
    c["3d"] = rng.standard_normal((2, 3, 4)).astype(np.float32)
    c["4d"] = rng.integers(-9, 9, (2, 2, 2, 3)).astype(np.int64)
    c["4d-float"] = (rng.standard_normal((2, 3, 2, 2)) * 100).astype(np.float32)
    c["ones-1x1x1"] = np.ones((1, 1, 1), np.float32)
    c["transposed"] = rng.standard_normal((4, 3)).astype(np.float32).T
    c["long-row"] = np.arange(100, dtype=np.float32) * 1.5
    c["long-row-int"] = np.arange(200, dtype=np.int64) * 997
    c["long-row-f64"] = rng.standard_normal(30) * 1e5
    c["long-row-sci"] = rng.standard_normal(25).astype(np.float32) * 1e-6
    c["wide-2d"] = rng.standard_normal((5, 30)).astype(np.float32)
    c["wide-3d-bool"] = rng.random((2, 3, 40)) > 0.3
    c["big-1d"] = np.arange(1001, dtype=np.float32)
    c["threshold-exactly"] = np.arange(1000, dtype=np.float32) / 7
    c["big-2d"] = rng.standard_normal((40, 40)).astype(np.float32)
    c["big-3d"] = rng.standard_normal((12, 12, 12)).astype(np.float64)
    c["big-4d"] = rng.integers(0, 100, (6, 7, 8, 9)).astype(np.int32)
    c["big-bool"] = rng.random(2000) > 0.5
    c["big-int"] = rng.integers(-10**12, 10**12, 5000)
    c["big-narrow-rows"] = rng.standard_normal((500, 3)).astype(np.float32)
    c["big-one-wide-row"] = rng.standard_normal((1, 2000)).astype(np.float32)
    hidden = np.ones(3000, np.float32)
    hidden[1500] = 1e20  # summarised away, so it must not switch the format to scientific
    c["big-hidden-outlier"] = hidden
    c["big-f16"] = rng.standard_normal(1200).astype(np.float16)
    return c


CASES = _cases()
OPTIONS = [
    dict(precision=2), dict(precision=8), dict(precision=0), dict(threshold=5), dict(threshold=0),
    dict(edgeitems=1), dict(edgeitems=0, threshold=10), dict(edgeitems=10), dict(linewidth=40),
    dict(linewidth=120), dict(linewidth=5), dict(sci_mode=True), dict(sci_mode=False),
    dict(profile="short"), dict(profile="full"), dict(profile="short", precision=6, linewidth=60),
]
SUFFIXES = ["requires_grad=True", "grad_fn=<MulBackward0>", "grad_fn=<CloneBackward0>"]


@pytest.fixture
def torch():
    """Real PyTorch, the oracle, with its default print options restored after the test."""
    torch = pytest.importorskip("torch", reason="real PyTorch is the oracle for the differential printing tests")
    yield torch
    torch.set_printoptions(profile="default")
    torch.set_default_dtype(torch.float32)


def _torch_repr(torch, data, suffix=None):
    """PyTorch's repr of `data`, as a leaf that requires grad or the output of a Mul / Clone when `suffix` asks."""
    t = torch.from_numpy(data.copy())
    if suffix:
        t = t.requires_grad_()
        if "Mul" in suffix:
            t = t * 1
        elif "Clone" in suffix:
            t = t.clone()
    return repr(t), [suffix] if suffix else []


@pytest.mark.parametrize("name", list(CASES))
def test_matches_pytorch(torch, name):
    data = CASES[name]
    expected, _ = _torch_repr(torch, data)
    assert tensor_repr(data, str(data.dtype)) == expected


@pytest.mark.parametrize("options", OPTIONS, ids=[repr(o) for o in OPTIONS])
def test_matches_pytorch_with_printoptions(torch, options):
    torch.set_printoptions(**options)
    set_printoptions(**options)
    assert get_printoptions() == torch._tensor_str.get_printoptions()
    for name, data in CASES.items():
        assert tensor_repr(data, str(data.dtype)) == repr(torch.from_numpy(data.copy())), name


@pytest.mark.parametrize("suffix", SUFFIXES)
def test_matches_pytorch_with_autograd_suffixes(torch, suffix):
    for name, data in CASES.items():
        if data.dtype.kind != "f":
            continue
        expected, suffixes = _torch_repr(torch, data, suffix)
        assert tensor_repr(data, str(data.dtype), suffixes) == expected, name


def test_linewidth_moves_suffixes_like_pytorch(torch):
    for width in range(1, 40):
        data = np.arange(width, dtype=np.float64) / 3
        for suffix in ("requires_grad=True", "grad_fn=<MulBackward0>"):
            expected, suffixes = _torch_repr(torch, data, suffix)
            assert tensor_repr(data, "float64", suffixes) == expected, width


def test_default_dtype_decides_which_dtypes_are_shown(torch):
    torch.set_default_dtype(torch.float64)
    for name, data in CASES.items():
        expected = repr(torch.from_numpy(data.copy()))
        assert tensor_repr(data, str(data.dtype), default_dtype="float64") == expected, name


def test_random_arrays_match_pytorch(torch):
    hypothesis = pytest.importorskip("hypothesis")
    hnp = pytest.importorskip("hypothesis.extra.numpy")
    st = hypothesis.strategies
    dtypes = st.sampled_from(["float32", "float64", "float16", "int64", "int32", "int16", "int8", "uint8", "bool"])
    arrays = dtypes.flatmap(lambda dt: hnp.arrays(dt, hnp.array_shapes(min_dims=0, max_dims=4, min_side=0,
                                                                         max_side=6)))

    @hypothesis.settings(max_examples=300, deadline=None, database=None)
    @hypothesis.given(arrays)
    def check(data):
        assert tensor_repr(data, str(data.dtype)) == repr(torch.from_numpy(data))

    check()
