"""Anomaly detection against real PyTorch: what a learner sees after following the hint of the in-place error
("enable anomaly detection to find the operation that failed to compute its gradient"). The warnings naming the
failing node with the traceback of its forward call, the changed hint, the nan check and its errors, the switches
and their nesting, and grad_fn.metadata. Printed text, warnings (forward tracebacks included) and the final error
must be identical. Each snippet switches anomaly detection off again, as it found it."""
import pytest

T = pytest.importorskip("torch", reason="differential tests need real PyTorch (pip install torch==2.13.0)")
from .harness import SHOW, load_engine, run_both, same  # noqa: E402

E = load_engine()

SNIPPETS = {
    "the_hint_followed": (
        "x = torch.tensor([1., 2.], requires_grad=True)\n"
        "def forward(x):\n"
        "    return x.sigmoid()\n"
        "with torch.autograd.set_detect_anomaly(True):\n"
        "    y = forward(x)\n"
        "    z = y * 2.0 + 1.0\n"
        "    y.detach().zero_()\n"
        "    tries(lambda: z.sum().backward())\n"
        "print(torch.is_anomaly_enabled(), x.grad)"),
    "set_detect_anomaly_called_then_switched_off": (
        "torch.autograd.set_detect_anomaly(True)\n"
        "try:\n"
        "    a = torch.tensor([3.], requires_grad=True)\n"
        "    b = a.exp()\n"
        "    b += 1\n"
        "    tries(lambda: b.backward(), lambda: torch.is_anomaly_enabled(),\n"
        "          lambda: torch.is_anomaly_check_nan_enabled())\n"
        "finally:\n"
        "    torch.autograd.set_detect_anomaly(False)\n"
        "print(torch.is_anomaly_enabled())"),
    "only_backward_in_anomaly_mode": (
        "x = torch.tensor([1.], requires_grad=True)\n"
        "y = x.tanh()\n"
        "y.mul_(3)\n"
        "with torch.autograd.set_detect_anomaly(True):\n"
        "    tries(lambda: y.backward())\n"
        "    z = x / 0 * 0\n"
        "tries(lambda: z.backward())\n"
        "with torch.autograd.set_detect_anomaly(True):\n"
        "    tries(lambda: z.backward())"),
    "nan_check": (
        "x = torch.tensor([0., 1.], requires_grad=True)\n"
        "with torch.autograd.detect_anomaly():\n"
        "    y = x / x\n"
        "    tries(lambda: y.sum().backward())\n"
        "    w = torch.tensor([1., 2.], requires_grad=True)\n"
        "    tries(lambda: (w * 2).backward(torch.tensor([1., float('nan')])),\n"
        "          lambda: torch.autograd.grad((w * float('nan')).sum(), w))\n"
        "    e = w.exp()\n"
        "    e.register_hook(lambda g: g * float('nan'))\n"
        "    tries(lambda: e.sum().backward())\n"
        "print(x.grad, w.grad)\n"
        "with torch.autograd.detect_anomaly(check_nan=False):\n"
        "    y = x / x\n"
        "    y.sum().backward()\n"
        "    print(x.grad, torch.is_anomaly_check_nan_enabled())\n"
        "print(torch.is_anomaly_check_nan_enabled())"),
    "switches_nest": (
        "print(torch.is_anomaly_enabled(), torch.is_anomaly_check_nan_enabled())\n"
        "d = torch.autograd.detect_anomaly(check_nan=False)\n"
        "print(torch.is_anomaly_enabled())\n"
        "with d:\n"
        "    print(torch.is_anomaly_enabled(), torch.is_anomaly_check_nan_enabled())\n"
        "    with torch.autograd.set_detect_anomaly(False):\n"
        "        print(torch.is_anomaly_enabled(), torch.is_anomaly_check_nan_enabled())\n"
        "    with torch.autograd.set_detect_anomaly(True, check_nan=True):\n"
        "        print(torch.is_anomaly_enabled(), torch.is_anomaly_check_nan_enabled())\n"
        "    print(torch.is_anomaly_enabled(), torch.is_anomaly_check_nan_enabled())\n"
        "print(torch.is_anomaly_enabled(), torch.is_anomaly_check_nan_enabled())\n"
        "print(type(d).__name__, type(torch.autograd.set_detect_anomaly(False)))\n"
        "tries(lambda: torch.autograd.set_detect_anomaly(True, False, 3))\n"
        "torch.set_anomaly_enabled(True, check_nan=False)\n"
        "print(torch.is_anomaly_enabled(), torch.is_anomaly_check_nan_enabled())\n"
        "torch.set_anomaly_enabled(False)\n"
        "print(torch.is_anomaly_enabled(), torch.is_anomaly_check_nan_enabled())"),
    "metadata": (
        "x = torch.tensor([1., 2.], requires_grad=True)\n"
        "print((x * 2).grad_fn.metadata, (x * x).grad_fn.metadata)\n"
        "with torch.autograd.set_detect_anomaly(True):\n"
        "    ys = [x * 2.0, x + 1.0, x * x, x.exp(), x @ x, x.sum(), x[0], x.view(2, 1), x.relu()]\n"
        "    for y in ys:\n"
        "        m = y.grad_fn.metadata\n"
        "        print(type(y.grad_fn).__name__, sorted(m), m['traceback_'][-1])\n"
        "    m = ys[0].grad_fn.metadata\n"
        "    m['mine'] = 1\n"
        "    print(sorted(ys[0].grad_fn.metadata), ys[0].grad_fn.next_functions[0][0].metadata)\n"
        "print(torch.is_anomaly_enabled())"),
}


@pytest.mark.parametrize("name", SNIPPETS)
def test_snippet(name):
    """Printed text, warnings and the final error are identical (addresses and C++ locations blanked)."""
    code = SHOW + SNIPPETS[name]
    t, e = run_both(T, E, code)
    assert same(t, e), f"\n{code}\n--- torch\n{t.summary()}--- engine\n{e.summary()}"
