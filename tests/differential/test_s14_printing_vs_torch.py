"""Printing corners against real PyTorch: set_printoptions (precision, threshold, edgeitems, linewidth, sci_mode,
profiles) on float / int / bool tensors, magnitudes that switch to scientific notation, nan / inf / -0.0, int64
extremes, empty shapes, summarised tensors with grad_fn suffixes, format() / f-strings / %-formatting of tensors,
dtypes, devices and sizes, and torch._tensor_str (PRINT_OPTS, get_printoptions, printoptions). Printed text and the
final error must be the same."""
import pytest

T = pytest.importorskip("torch", reason="differential tests need real PyTorch (pip install torch==2.13.0)")
from .harness import load_engine, run_both, same  # noqa: E402

E = load_engine()

SNIPPETS = {
    "magnitudes_nan_inf_negzero_int_extremes_empty": (
        "print(torch.tensor([1e-5, 1., 2.]), torch.tensor([1e8, 1.]), torch.tensor([0., 1e-5]), torch.tensor([123456789., 1.]))\n"
        "print(torch.tensor([0., float('nan'), float('inf'), float('-inf'), -0.0]), torch.tensor(-0.0), torch.tensor([-0., 1e-7]))\n"
        "print(torch.tensor([1e-20, 1e20], dtype=torch.float64), torch.tensor([[1e-5, 2.], [3., 4e9]]), torch.tensor([0.5, 1e8]))\n"
        "print(torch.tensor([9223372036854775807, -9223372036854775808]), torch.tensor([True, False]), torch.tensor([1., 2.], dtype=torch.float16))\n"
        "print(torch.zeros(0), torch.zeros(2, 0, 3), torch.zeros(0, dtype=torch.int64), torch.zeros(2, 0, 3, dtype=torch.int32))\n"
        "print(torch.zeros(0, 3, requires_grad=True), torch.zeros(0, requires_grad=True) * 1, torch.zeros(0, dtype=torch.bool))\n"
        "x = torch.ones(1001); x[500] = 1e10; print(x)\n"
        "print(torch.tensor([[float('nan'), 1.5], [1e-5, -0.]], dtype=torch.float64, requires_grad=True))"),
    "summarised_with_grad_fn": (
        "t = torch.arange(1001.).requires_grad_(); print(t, t * 2)\n"
        "z = torch.arange(2002.).reshape(2, 7, 143).requires_grad_(); print(z * 1)\n"
        "print(torch.arange(1200).reshape(10, 10, 12), torch.arange(1200.).reshape(2, 3, 10, 20).requires_grad_().sum(0))\n"
        "print(torch.nn.Parameter(torch.arange(2000.)), torch.arange(1001.).requires_grad_().sum())"),
    "set_printoptions_precision_threshold_edgeitems_linewidth": (
        "torch.set_printoptions(precision=2)\n"
        "print(torch.tensor([1.2345, 2.3456]), torch.tensor([1.2345], dtype=torch.float64), torch.tensor([1e-5, 1.]), torch.tensor(3.14159))\n"
        "torch.set_printoptions(precision=0); print(torch.tensor([1.5, 2.5, 3.]))\n"
        "torch.set_printoptions(profile='default')\n"
        "torch.set_printoptions(threshold=5, edgeitems=1); print(torch.arange(10), torch.arange(24).reshape(2, 3, 4))\n"
        "torch.set_printoptions(threshold=10, edgeitems=2)\n"
        "print(torch.tensor([True, False] * 10), torch.arange(40.).reshape(2, 2, 2, 5), torch.arange(60.).reshape(5, 12).requires_grad_())\n"
        "torch.set_printoptions(profile='default')\n"
        "torch.set_printoptions(linewidth=30)\n"
        "print(torch.arange(24.).reshape(2, 12).requires_grad_(), torch.arange(5.).double().requires_grad_() * 1)\n"
        "torch.set_printoptions(precision=2, threshold=20, edgeitems=2, linewidth=40)\n"
        "print(torch.linspace(-1, 1, 30).reshape(3, 10).requires_grad_() * 1, torch.arange(60).reshape(3, 4, 5) * 1000)\n"
        "torch.set_printoptions(profile='default')"),
    "sci_mode_and_profiles": (
        "torch.set_printoptions(sci_mode=True)\n"
        "print(torch.tensor([1., 2.]), torch.tensor([0., 1e-5, -0.]), torch.tensor([float('nan'), float('-inf'), 2.]), torch.tensor([100, 2]))\n"
        "torch.set_printoptions(sci_mode=False); print(torch.tensor([1e-5, 1e8]), torch.tensor([1e-20, 1.]), torch.tensor(1e20))\n"
        "torch.set_printoptions(precision=3, sci_mode=True); print(torch.tensor([[1e-5, 2.], [3., 4e9]], dtype=torch.float64))\n"
        "torch.set_printoptions(profile='short'); print(torch.tensor([1.23456, 2.]), torch.arange(1001.))\n"
        "torch.set_printoptions(profile='full'); print(len(str(torch.arange(1100.))), torch.tensor([1.23456789]))\n"
        "torch.set_printoptions(precision=3, profile='short'); print(torch.arange(10) / 3)\n"
        "torch.set_printoptions(profile='default'); print(torch.tensor([1.234567]))"),
    "tensor_str_module": (
        "from torch._tensor_str import PRINT_OPTS\n"
        "print(PRINT_OPTS, PRINT_OPTS.precision, PRINT_OPTS.sci_mode, type(PRINT_OPTS), torch._tensor_str.get_printoptions())\n"
        "with torch._tensor_str.printoptions(precision=2, sci_mode=True):\n"
        "    print(torch.tensor([1.2345]), torch._tensor_str.get_printoptions())\n"
        "print(torch.tensor([1.2345]))\n"
        "PRINT_OPTS.precision = 1; print(torch.tensor([1.2345]), PRINT_OPTS)\n"
        "torch.set_printoptions(profile='default'); print(torch.tensor([1.2345]))"),
    "format_fstring_percent": (
        "t = torch.tensor(3.14159)\n"
        "print(f'{t}', format(t, '.3f'), f'{t:.2f}', f'{t:>10}', '%s' % t, '%r' % t, '%.2f' % t)\n"
        "i = torch.tensor(5); print(format(i, 'd'), f'{i:05d}', f'{i:.2f}', '%d' % i, '%x' % i, f'{torch.tensor(True):d}')\n"
        "print('%.2f' % torch.tensor([[1.]]), f'{torch.tensor(2.5, requires_grad=True):.3f}', f'{torch.tensor([1.5])}')\n"
        "x = torch.tensor([1., 2.], requires_grad=True); print(x.grad); (x * x).sum().backward(); print(x.grad, f'{x.grad}')\n"
        "s = torch.zeros(2, 3, 4).shape; print(str(s), repr(torch.float64), f'{s}', f'{torch.int32}', s + (1,), s * 2, s[1:], 2 * s)\n"
        "for o in [torch.float32, torch.device('cpu'), torch.strided, torch.contiguous_format, torch.Size([1]),\n"
        "          torch.finfo(torch.float32), torch.iinfo(torch.int32)]:\n"
        "    try:\n"
        "        print(format(o, ''), format(o, '>5'))\n"
        "    except TypeError as e:\n"
        "        print(e)\n"
        "try:\n"
        "    print('%.2f' % torch.tensor([1., 2.]))\n"
        "except ValueError as e:\n"
        "    print(e)\n"
        "print(f'{torch.tensor([1.5]):.2f}')"),
}


@pytest.mark.parametrize("name", SNIPPETS)
def test_snippet(name):
    code = SNIPPETS[name]
    t, e = run_both(T, E, code)
    assert same(t, e), f"\n{code}\n--- torch\n{t.summary()}--- engine\n{e.summary()}"
