"""What printing tensors of every dtype showed, against real PyTorch (session 17, generated printing snippets):
halves computed as PyTorch's CPU kernels compute them (in float32, rounded to half once; reductions accumulated in
float, so no overflow past 65504), linspace / arange of halves, and the numbers clamp and linspace take as values
of the tensor's dtype (c10's checked conversion). Printed text and the final error must be the same."""
import pytest

T = pytest.importorskip("torch", reason="differential tests need real PyTorch (pip install torch==2.13.0)")
from .harness import TRIES, load_engine, run_both, same  # noqa: E402

E = load_engine()

_HALVES = 'x = torch.tensor([-3.5, -1.25, -0.3, 0.1, 0.7, 1.9, 2.6, 4.1], dtype=torch.half)\n'

SNIPPETS = {
    # sigmoid, silu, logsigmoid, leaky_relu, round(decimals), softmax (and log_softmax but over the last dim) of
    # halves: computed in float
    "half_pointwise_in_float": _HALVES + (
        'print(x.sigmoid(), torch.nn.functional.silu(x), torch.nn.functional.logsigmoid(x))\n'
        'print(torch.nn.functional.leaky_relu(x, 0.1), torch.round(x * 3, decimals=2))\n'
        'print(x.softmax(0), (x * 3).reshape(2, 4).softmax(-1), (x * 3).reshape(4, 2).log_softmax(0))\n'
        'w = x.clone().requires_grad_(); print(torch.nn.functional.logsigmoid(w).grad_fn._saved_buffer)\n'
        'y = x.flip(0)\n'
        'print(torch.lerp(x, y, 0.3), torch.lerp(x, y, 0.8), torch.lerp(x, y, x.sigmoid()), x.lerp(y, -0.3))\n'
        'print(torch.addcmul(x, x, y, value=0.3), torch.addcdiv(x, x, y, value=0.3), torch.addcdiv(x, y, x))'),
    # var, std, norm, mse_loss, cumsum, cumprod, logcumsumexp, prod of halves: accumulated in float, then rounded
    "half_reductions_accumulate_in_float": _HALVES + (
        'y = x * 100\n'
        'print(y.var(), y.std(), y.norm(), y.reshape(2, 4).std(0), y.reshape(2, 4).var(1, unbiased=False))\n'
        'print(torch.nn.functional.mse_loss(y, -y), torch.nn.functional.mse_loss(y, -y, reduction="sum"))\n'
        'print(x.cumsum(0), (x / 4).exp().cumprod(0), x.logcumsumexp(0), (x / 4).exp().prod(),\n'
        '      (x / 4).exp().reshape(2, 4).prod(1))'),
    # their gradients too: silu, logsigmoid, softmax (over the last dim), leaky_relu
    "half_gradients_in_float": (
        'F = torch.nn.functional\n'
        'for f in [F.silu, F.logsigmoid, lambda t: t.softmax(-1), lambda t: F.leaky_relu(t, 0.1)]:\n'
        '    x = torch.tensor([-3.5, -1.25, -0.3, 0.1, 0.7, 1.9, 2.6, 4.1], dtype=torch.half, requires_grad=True)\n'
        '    f(x).backward(torch.tensor([0.7, -1.3, 0.2, 0.9, -0.4, 1.1, 0.3, -0.8], dtype=torch.half))\n'
        '    print(x.grad)'),
    # layer_norm of halves: mean, rstd, output and the input's gradient in float; the saved mean and rstd halves
    "half_layer_norm": (
        'x = torch.tensor([[-3.5, -1.25, -0.3, 0.1], [0.7, 1.9, 2.6, 4.1]], dtype=torch.half, requires_grad=True)\n'
        'w = torch.tensor([1.5, 0.5, -1., 2.], dtype=torch.half); b = torch.tensor([0.1, 0.2, 0.3, 0.4], dtype=torch.half)\n'
        'y = torch.nn.functional.layer_norm(x, (4,), w, b)\n'
        'print(y, torch.nn.functional.layer_norm(x, (4,)), y.grad_fn._saved_result1, y.grad_fn._saved_result2)\n'
        'y.backward(torch.tensor([[0.7, -1.3, 0.2, 0.9], [-0.4, 1.1, 0.3, -0.8]], dtype=torch.half)); print(x.grad)'),
    "half_linspace_and_arange": (
        'print(torch.linspace(-3, 3, 11, dtype=torch.half), torch.linspace(0.1, 0.7, 13, dtype=torch.float16))\n'
        'print(torch.arange(0, 5, 0.1, dtype=torch.half))\n'
        'print(torch.arange(1, 2, 0.03, dtype=torch.float16))'),
    # a number bound is a value of the tensor's dtype: uint8 takes -1 as 255, int8 refuses 200, a half 1e10;
    # a tensor bound is cast to the result's dtype first
    "clamp_number_bounds_in_the_dtype": TRIES + (
        'u = torch.tensor([0, 1, 5, 200], dtype=torch.uint8)\n'
        'i = torch.tensor([-100, 0, 100], dtype=torch.int8)\n'
        'tries(lambda: u.clamp(-1, 1), lambda: u.clamp(min=-1), lambda: u.clamp(0, 300), lambda: u.clamp(min=-256),\n'
        '      lambda: u.clamp(max=2 ** 70), lambda: i.clamp(-200, 200), lambda: i.clamp(min=torch.tensor(300)),\n'
        '      lambda: torch.ones(2, dtype=torch.half).clamp(max=1e10), lambda: torch.ones(2).clamp(min=1e300),\n'
        '      lambda: i.clamp(min=2.5), lambda: u.clamp_(max=-1), lambda: u)'),
    # a Python int outside int64 / uint64 is refused as PyTorch parses a Scalar, before any dtype's range check
    "scalars_beyond_64_bits": TRIES + (
        'tries(lambda: torch.zeros(2, dtype=torch.int8).fill_(2 ** 70), lambda: torch.full((2,), -2 ** 70, dtype=torch.int8),\n'
        '      lambda: torch.zeros(2).masked_fill(torch.tensor([True, False]), 2 ** 70), lambda: torch.zeros(2).clamp(min=2 ** 70),\n'
        '      lambda: torch.zeros(2).clamp(max=-2 ** 64), lambda: torch.linspace(0, 2 ** 70, 3),\n'
        '      lambda: torch.zeros(2, dtype=torch.uint8).fill_(2 ** 64 - 1), lambda: torch.zeros(2).clamp(max=1e39))'),
    "linspace_start_and_end_in_the_dtype": TRIES + (
        'tries(lambda: torch.linspace(0, 1e300, 3), lambda: torch.linspace(0, 300, 3, dtype=torch.int8),\n'
        '      lambda: torch.linspace(-1, 3, 3, dtype=torch.uint8), lambda: torch.linspace(0, 1e5, 3, dtype=torch.half),\n'
        '      lambda: torch.linspace(1e300, 0, 1), lambda: torch.linspace(0, 1e300, 1),\n'
        '      lambda: torch.linspace(0, 2.5, 3, dtype=torch.bool), lambda: torch.linspace(1e300, 0, 1, dtype=torch.bool),\n'
        '      lambda: torch.linspace(-5, 5, 5, dtype=torch.uint8))'),
    # bmm refuses a bool first operand before comparing dtypes; mv refuses bools after; small batched products of
    # halves add as floats
    "bool_and_half_batched_products": TRIES + (
        'b = torch.tensor([[True, False], [True, True]]); v = torch.tensor([True, False])\n'
        'i = torch.tensor([[1, 2], [3, 4]], dtype=torch.int8)\n'
        'tries(lambda: b[None] @ b[None], lambda: b[None] @ i[None], lambda: i[None] @ b[None], lambda: b @ v,\n'
        '      lambda: torch.mv(b, v), lambda: torch.bmm(b[None], i[None]), lambda: b[None] @ v)\n'
        'x = torch.tensor([0., 1., 4., 8., 1., 5., 9., 2.], dtype=torch.half).reshape(2, 2, 2)\n'
        'y = torch.linspace(-3, 3, 8).reshape(2, 2, 2).half()\n'
        'print(x @ y.mT, torch.bmm(x, y))'),
    "histc_of_bools": TRIES + (
        'tries(lambda: torch.tensor([True, False]).histc(4), lambda: torch.tensor([1, 2]).histc(4),\n'
        '      lambda: torch.tensor([1., 0., 1.], dtype=torch.half).histc(4))'),
    # div with a rounding mode takes the number as a value of the tensor's integer type (-3 is 253 in uint8)
    "int_div_rounding_mode_wraps_the_number": (
        'x = torch.tensor([10, 200, 255, 0], dtype=torch.uint8)\n'
        'print(torch.div(x, -3, rounding_mode="trunc"), torch.div(x, -3, rounding_mode="floor"))\n'
        'y = torch.tensor([10, -7, 100], dtype=torch.int8)\n'
        'print(torch.div(y, 300, rounding_mode="trunc"), torch.div(y, -2, rounding_mode="floor"))'),
}


@pytest.mark.parametrize("name", SNIPPETS)
def test_snippet(name):
    code = SNIPPETS[name]
    t, e = run_both(T, E, code)
    assert same(t, e), f"\n{code}\n--- torch\n{t.summary()}--- engine\n{e.summary()}"
