"""Printing fuzzed tensors against real PyTorch: repr/str/tolist of 0-d to 4-d tensors of every common dtype with
mixed magnitudes, negative zero, nan and inf, summarised big tensors, grad_fn and requires_grad suffixes, a
non-default default dtype, and torch.set_printoptions variations (precision, sci_mode, linewidth, threshold,
edgeitems, profiles). Printed text, warnings and the final error must be the same."""
import pytest

T = pytest.importorskip("torch", reason="differential tests need real PyTorch (pip install torch==2.13.0)")
from .harness import TRIES, load_engine, run_both, same  # noqa: E402

E = load_engine()

_RESET = '\ntorch.set_printoptions(profile="default"); torch.set_printoptions(sci_mode=None)\n'

SNIPPETS = {
    # magnitudes from 1e-8 to 1e12 with nan, inf and -0.0: scientific notation chosen by the ratio of the finite ones
    "mixed_magnitudes_nan_inf_negative_zero": (
        'for v in ([1e-8, 1e12, -0.0, float("nan")], [0.5, float("inf"), -float("inf"), -0.0], [1e-5, 1e-4, 1.0],\n'
        '          [123.456, 1e8, 0.1], [-0.0, 0.0], [1e16, 7.0]):\n'
        '    for dt in (torch.float32, torch.float64, torch.float16):\n'
        '        t = torch.tensor(v, dtype=dt); print(repr(t)); print(t.tolist())' + _RESET),
    # precision 0..10 and every sci_mode on the same values, 2-d
    "precision_and_sci_mode_sweep": (
        't = torch.tensor([[1/3, -2/3, 99999.], [1e-4, 0.001, 2.5e-7]])\n'
        'for p in (0, 1, 4, 10):\n'
        '    for s in (True, False, None):\n'
        '        torch.set_printoptions(precision=p, sci_mode=s); print(t); print(t.double())' + _RESET),
    # narrow and wide linewidth wrapping of 1-d and 3-d tensors, integers and floats
    "linewidth_wrapping": (
        'for w in (20, 37, 80, 200):\n'
        '    torch.set_printoptions(linewidth=w)\n'
        '    print(torch.arange(30, dtype=torch.int64) * 1001)\n'
        '    print(torch.linspace(-1e3, 1e3, 24).reshape(2, 3, 4))' + _RESET),
    # big tensors summarised with threshold/edgeitems, and the profiles
    "summarised_big_tensors_and_profiles": (
        'torch.manual_seed(0)\n'
        'a = torch.randn(1001) * 1e6; b = torch.randint(-50, 50, (40, 40, 2)).to(torch.int8)\n'
        'print(a); print(b)\n'
        'torch.set_printoptions(threshold=10, edgeitems=1); print(a); print(b[:3])\n'
        'torch.set_printoptions(profile="short"); print(a); print(b.bool())\n'
        'torch.set_printoptions(profile="full", linewidth=60); print(a[:40]); print(torch.zeros(3, 0, 2))' + _RESET),
    # empty dims and 0-d tensors of each dtype, with their dtype suffixes
    "empty_and_zero_dim_of_each_dtype": (
        'for dt in (torch.float32, torch.float64, torch.float16, torch.int64, torch.int32, torch.int8, torch.uint8,\n'
        '           torch.bool):\n'
        '    print(torch.zeros(0, dtype=dt), torch.zeros(2, 0, 3, dtype=dt), torch.tensor(1, dtype=dt))\n'
        '    print(repr(torch.ones(1, 1, 1, 1, dtype=dt)))'),
    # grad_fn and requires_grad suffixes after ops, with sci mode and precision set
    "grad_fn_suffixes_under_printoptions": (
        'torch.set_printoptions(precision=2, sci_mode=True)\n'
        'x = torch.tensor([[1e-8, 1e12], [-0.0, 3.0]], dtype=torch.float64, requires_grad=True)\n'
        'print(x); print(x * 2); print(x.sum()); print(x.t()); print(x.view(-1)); print(-x); print(x.mean())\n'
        'print(x[..., :1]); print(x.detach().half().requires_grad_())' + _RESET),
    # float64 as the default dtype: float32 then gets the suffix, float64 loses it
    "default_dtype_float64_suffixes": (
        'torch.set_default_dtype(torch.float64)\n'
        'print(torch.tensor([1e-5, 1e-8]), torch.tensor([1e-5, 1e-8], dtype=torch.float32))\n'
        'print(torch.tensor(2.5, dtype=torch.float32, requires_grad=True) * 2, torch.zeros(2, 0))\n'
        'torch.set_default_dtype(torch.float32)'),
    # integers stored as floats, strided views, and tensors inside lists, tuples and f-strings
    "integral_floats_views_and_containers": (
        't = torch.tensor([[1., -3., 100., 1234567.], [65504., 0., 7., -0.]])\n'
        'print(t, t[:, ::2], t.half(), t.T.contiguous())\n'
        'print([t[0], t[1, :2]]); print((torch.tensor(3.),)); print(f"{torch.tensor(2.5)}")\n'
        'tries(lambda: f"{torch.tensor(1/3):.3f}", lambda: format(torch.tensor(12345.6), "e"),\n'
        '      lambda: "%.2f" % torch.tensor(2.0), lambda: f"{t:.2f}")'),
}


@pytest.mark.parametrize("name", SNIPPETS)
def test_snippet(name):
    code = TRIES + SNIPPETS[name]
    t, e = run_both(T, E, code)
    assert same(t, e), f"\n{code}\n--- torch\n{t.summary()}--- engine\n{e.summary()}"
