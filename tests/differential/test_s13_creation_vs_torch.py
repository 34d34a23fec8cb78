"""The thirteenth session's creation / dtype corners against real PyTorch: randint(high, size=...), unknown keywords
of the factories and of .to(), Tensor.random_ and the other in-place draws, numpy ufuncs on tensors
(__array_wrap__), as_tensor of a tensor, Python's errors naming torch.Size and torch.dtype, std / var of integers,
from_numpy's checks, numbers that do not fit a dtype, bool() of an empty tensor, the default dtype (float16 too),
arange of an integer dtype with fractional bounds, new_tensor's warning, the parser's wording, shifts, allclose's
dtype check, x.new(...) and torch.cuda.FloatTensor. Printed text, warnings and the final error must be identical."""
import pytest

T = pytest.importorskip("torch", reason="differential tests need real PyTorch (pip install torch==2.13.0)")
from .harness import SHOW, load_engine, run_both  # noqa: E402

E = load_engine()

SNIPPETS = {
    "randint_high_and_size_keyword": (
        "torch.manual_seed(0)\n"
        "print(torch.randint(10, size=(3,)), torch.randint(high=5, size=(2,)), torch.randint(3, 10, size=(3,)))\n"
        "print(torch.randint(10, size=(2,), dtype=torch.float32), torch.randint(low=2, high=5, size=(3,)))\n"
        "tries(lambda: torch.randint(10), lambda: torch.randint(10, (2,), dtype=torch.int8).dtype)"),
    "unknown_keywords": (
        "torch.manual_seed(0)\n"
        "tries(lambda: torch.zeros(3, require_grad=True), lambda: torch.ones(3, foo=1), lambda: torch.empty(3, a=1, b=2),\n"
        "      lambda: torch.zeros(size=(2,), foo=1), lambda: torch.zeros(3, names=None),\n"
        "      lambda: torch.rand(3, requires_grads=True), lambda: torch.randn((3,), requires_grads=True),\n"
        "      lambda: torch.randn(size=(3,), a=1, b=2.0, c=None), lambda: torch.rand(2, 3, foo=1, requires_grad=True),\n"
        "      lambda: torch.randn(3, generator=None, foo=1), lambda: torch.rand(), lambda: torch.randn(dtype=torch.float64),\n"
        "      lambda: torch.ones(2).to(torch.float64, require_grad=True), lambda: torch.ones(2).to('cpu', foo=1),\n"
        "      lambda: torch.ones(2).to(foo=1), lambda: torch.ones(2).to(dtype=torch.int64, foo=1),\n"
        "      lambda: torch.ones(2).to(torch.float64, non_blocking=True, copy=True),\n"
        "      lambda: torch.randn(2, requires_grad=True, dtype=torch.float64))"),
    "random_and_other_draws_in_place": (
        "torch.manual_seed(0)\n"
        "x = torch.zeros(3, dtype=torch.long)\n"
        "print(torch.empty(3, dtype=torch.long).random_(5).shape, x.random_(5), x.random_(2, 7), x.random_())\n"
        "print(torch.zeros(4).random_(), torch.zeros(3).random_(5, None), torch.zeros(2, dtype=torch.float64).random_(2**40))\n"
        "print(torch.zeros(3, dtype=torch.float16).random_(), torch.zeros(3, dtype=torch.bool).random_(),\n"
        "      torch.zeros(3, dtype=torch.int8).random_(-5, 5), torch.zeros(3, dtype=torch.uint8).random_(),\n"
        "      torch.zeros(2, dtype=torch.int64).random_(-2**40, None), torch.zeros(3).random_(to=3))\n"
        "tries(lambda: torch.zeros(3).random_(0.5, 3), lambda: torch.zeros(3).random_(0.5), lambda: torch.zeros(3).random_(5, 5),\n"
        "      lambda: torch.zeros(3).random_(1, 2, 3), lambda: torch.zeros(3, dtype=torch.uint8).random_(300),\n"
        "      lambda: torch.zeros(3, dtype=torch.int8).random_(-1000, 3), lambda: torch.zeros(3).random_(2**30, None),\n"
        "      lambda: torch.zeros(3).random_(2, generator=5), lambda: torch.zeros(3, requires_grad=True).random_(3))\n"
        "y = torch.zeros(3, requires_grad=True) * 1\n"
        "for f in [lambda t: t.random_(), lambda t: t.random_(3), lambda t: t.random_(1, 3), lambda t: t.exponential_(),\n"
        "          lambda t: t.geometric_(0.5), lambda t: t.cauchy_(), lambda t: t.log_normal_()]:\n"
        "    show(f(y * 1))\n"
        "print(torch.empty(5, dtype=torch.float64).exponential_(3.0), torch.empty(5).exponential_(lambd=2.),\n"
        "      torch.empty(5).geometric_(0.3), torch.empty(5, dtype=torch.long).geometric_(p=0.2),\n"
        "      torch.empty(5).cauchy_(1., 2.), torch.empty(5, dtype=torch.float64).log_normal_(1., 2.),\n"
        "      torch.empty(20).log_normal_(mean=0.5, std=0.3))\n"
        "g = torch.Generator().manual_seed(3)\n"
        "print(torch.empty(4).exponential_(generator=g), torch.empty(4, dtype=torch.int32).random_(9, generator=g))\n"
        "tries(lambda: torch.empty(2, dtype=torch.long).exponential_(), lambda: torch.empty(2).exponential_(-1),\n"
        "      lambda: torch.empty(2).geometric_(0), lambda: torch.empty(2).geometric_(1.5),\n"
        "      lambda: torch.empty(2, dtype=torch.long).cauchy_(), lambda: torch.empty(2).log_normal_(0, -1),\n"
        "      lambda: torch.empty(2, dtype=torch.long).log_normal_(), lambda: torch.empty(2).cauchy_(0, -1))"),
    "numpy_ufuncs_give_tensors": (
        "import numpy as np\n"
        "t = torch.tensor([1., 4.])\n"
        "print(np.sqrt(t), t * np.array([2., 3.]), np.isnan(t), np.argmax(t), t @ np.array([1., 2.]))\n"
        "m = torch.tensor([[1., 4.], [2, 3]])\n"
        "print(np.maximum(m, 2.), np.exp(m[0]), np.array([1., 2.]) + t, np.float64(2.) * t)\n"
        "print(np.asarray(t), t.numpy(), type(np.asarray(t)), np.asarray(t).dtype)"),
    "as_tensor_of_a_tensor": (
        "x = torch.tensor([1., 2.], requires_grad=True)\n"
        "show(torch.as_tensor(x, dtype=torch.float64))\n"
        "y = torch.tensor([1., 2.])\n"
        "print(torch.as_tensor(y, dtype=torch.int64), torch.as_tensor(y) is y, torch.as_tensor(y, dtype=torch.float32) is y,\n"
        "      torch.as_tensor(y, dtype=float), torch.as_tensor([1, 2], dtype=torch.float32))"),
    "python_errors_name_torch_types": (
        "x = torch.zeros(2, 3)\n"
        "def assign():\n"
        "    x.shape[0] = 5\n"
        "tries(lambda: x.shape(), assign, lambda: f'{x.shape:>20}', lambda: f'{x.shape}', lambda: x.dtype(),\n"
        "      lambda: x.device(), lambda: type(x.shape).__name__, lambda: type(x.dtype).__name__, lambda: type(x.shape),\n"
        "      lambda: torch.add(x, x.shape), lambda: torch.zeros(2).add(torch.float32))"),
    "std_var_of_integers": (
        "tries(lambda: torch.tensor([1, 2, 3]).std(), lambda: torch.tensor([1, 2, 3]).var(), lambda: torch.tensor([True]).std(),\n"
        "      lambda: torch.std_mean(torch.tensor([1, 2])), lambda: torch.var_mean(torch.tensor([1, 2])),\n"
        "      lambda: torch.var(torch.tensor([1, 2]), 0), lambda: torch.tensor([1., 2.]).std())"),
    "from_numpy_checks": (
        "import numpy as np\n"
        "tries(lambda: torch.from_numpy(np.arange(6).reshape(2, 3)[:, ::-1]), lambda: torch.from_numpy(np.float64(1.5)),\n"
        "      lambda: torch.from_numpy([1, 2]), lambda: torch.as_tensor(np.arange(3)[::-1]),\n"
        "      lambda: torch.tensor(np.arange(3)[::-1]), lambda: torch.from_numpy(np.arange(6).reshape(2, 3)[:, ::2]))"),
    "numbers_that_do_not_fit": (
        "def s(t, i, v):\n"
        "    t[i] = v\n"
        "    return t\n"
        "x, xl = torch.zeros(3, dtype=torch.int8), torch.zeros(3, dtype=torch.int64)\n"
        "xu, xf, xh = torch.zeros(3, dtype=torch.uint8), torch.zeros(3), torch.zeros(3, dtype=torch.float16)\n"
        "tries(lambda: torch.tensor([2**64]), lambda: torch.tensor([1, 2**70]), lambda: torch.tensor(2**63),\n"
        "      lambda: torch.tensor(-2**63 - 1), lambda: torch.tensor([2**63], dtype=torch.float32), lambda: torch.tensor([2**64, 1.5]),\n"
        "      lambda: torch.tensor([2**63], dtype=torch.uint8), lambda: torch.tensor(2**63 - 1), lambda: torch.tensor([[1, 2], [3, 2**64]]),\n"
        "      lambda: torch.tensor([2**64], dtype=torch.bool), lambda: torch.tensor([300], dtype=torch.uint8),\n"
        "      lambda: torch.tensor([True, 2**64]))\n"
        "tries(lambda: torch.full((2,), 300, dtype=torch.uint8), lambda: torch.full((2,), -1, dtype=torch.uint8),\n"
        "      lambda: torch.full((2,), 2**31, dtype=torch.int32), lambda: torch.full((2,), 40000, dtype=torch.int16),\n"
        "      lambda: torch.full((2,), 2**63), lambda: torch.full((2,), 300, dtype=torch.bool), lambda: torch.full((2,), 1e10, dtype=torch.float16),\n"
        "      lambda: torch.full((2,), 1e300, dtype=torch.float32), lambda: torch.full((2,), float('nan'), dtype=torch.int64),\n"
        "      lambda: torch.full((2,), float('inf'), dtype=torch.int32), lambda: torch.full((2,), 2.5, dtype=torch.int8),\n"
        "      lambda: torch.full((2,), 300.0, dtype=torch.uint8), lambda: torch.full((2,), -1.0, dtype=torch.uint8),\n"
        "      lambda: torch.full((2,), float('inf'), dtype=torch.float16), lambda: torch.full((2,), True, dtype=torch.uint8),\n"
        "      lambda: torch.zeros(2, dtype=torch.int8).fill_(300), lambda: torch.zeros(2).fill_(1e300),\n"
        "      lambda: torch.zeros(2, dtype=torch.int64).fill_(2**63), lambda: torch.zeros(2, dtype=torch.int64).fill_(float('nan')),\n"
        "      lambda: torch.zeros(2, dtype=torch.uint8).fill_(-1), lambda: torch.zeros(2, dtype=torch.int8).new_full((2,), 300),\n"
        "      lambda: torch.full_like(torch.zeros(2, dtype=torch.int8), 300), lambda: torch.zeros(2, dtype=torch.uint8).new_ones(2) * 1)\n"
        "tries(lambda: s(x, 0, 1000), lambda: s(x, 0, -129), lambda: s(x, 0, 127), lambda: s(xl, 0, float('nan')),\n"
        "      lambda: s(xl, 0, 2**63), lambda: s(xu, 0, -1), lambda: s(xu, 0, 256), lambda: s(xf, 0, 1e300), lambda: s(xh, 0, 1e10),\n"
        "      lambda: s(x, 0, 1000.), lambda: s(x, slice(None), 1000), lambda: s(x, torch.tensor([0, 1]), 1000),\n"
        "      lambda: s(x, torch.tensor([True, False, True]), 1000), lambda: s(x, 0, torch.tensor(1000)),\n"
        "      lambda: s(xl, 0, -2**63 - 1), lambda: s(x, 0, True), lambda: s(x, ..., 300), lambda: s(xf, 0, 2**64))"),
    "bool_of_an_empty_tensor": (
        "tries(lambda: bool(torch.tensor([])), lambda: torch.is_nonzero(torch.tensor([])), lambda: torch.zeros(0, 3).is_nonzero(),\n"
        "      lambda: bool(torch.zeros(2)), lambda: bool(torch.ones(1, 1)), lambda: 1 if torch.tensor([]) else 0)"),
    "default_dtype": (
        "torch.set_default_dtype(torch.float64)\n"
        "print(torch.Tensor([1]).dtype, torch.Tensor().dtype, torch.Tensor(2).dtype, torch.FloatTensor([1]).dtype)\n"
        "torch.set_default_dtype(torch.float16)\n"
        "print(torch.tensor([1.5]), torch.zeros(1).dtype, torch.get_default_dtype(), torch.tensor(1.5) + 1, torch.arange(2.))\n"
        "torch.set_default_dtype(torch.float32)\n"
        "tries(lambda: torch.set_default_dtype(torch.int64), lambda: torch.set_default_dtype('float64'),\n"
        "      lambda: torch.set_default_dtype(float), lambda: torch.set_default_tensor_type(torch.LongTensor),\n"
        "      lambda: torch.set_default_tensor_type('torch.Foo'), lambda: torch.set_default_tensor_type(torch.float64),\n"
        "      lambda: torch.set_default_tensor_type(5))\n"
        "print(torch.get_default_dtype())"),
    "arange_of_an_integer_dtype": (
        "tries(lambda: torch.arange(0, 10, 2.5, dtype=torch.int64), lambda: torch.arange(1.5, 10, 2.5, dtype=torch.int64),\n"
        "      lambda: torch.arange(-2.5, 2, 1, dtype=torch.int32), lambda: torch.arange(10, 0, -2.5, dtype=torch.int64),\n"
        "      lambda: torch.arange(0, 1, 0.3, dtype=torch.int64), lambda: torch.arange(0, 3, 0.5, dtype=torch.uint8),\n"
        "      lambda: torch.arange(0.5, 7.9, 1.7, dtype=torch.int16), lambda: torch.arange(7.9, dtype=torch.int64),\n"
        "      lambda: torch.arange(5, -3.5, -1.2, dtype=torch.int64), lambda: torch.arange(5, -3.5, -1.2, dtype=torch.int32),\n"
        "      lambda: torch.arange(10), lambda: torch.arange(1, 10, 3), lambda: torch.arange(0, 10, 2.5),\n"
        "      lambda: torch.arange(2.7, dtype=torch.int64), lambda: torch.arange(-7, 7, 3, dtype=torch.int8))"),
    "new_tensor_warning_and_legacy_new": (
        "x = torch.tensor([1., 2.])\n"
        "print(x.new_tensor(x), torch.tensor(x))\n"
        "tries(lambda: x.new(2, 3).shape, lambda: x.new([1, 2]), lambda: x.new(), lambda: x.new(torch.tensor([1, 2])),\n"
        "      lambda: x.new(torch.tensor([1., 2.])), lambda: torch.tensor([1]).new([1.5]), lambda: x.new(2, dtype=torch.int64),\n"
        "      lambda: x.new((2, 3)).shape, lambda: x.new(torch.Size([2])).shape, lambda: x.new(3.5),\n"
        "      lambda: torch.cuda.FloatTensor([1]), lambda: torch.cuda.LongTensor(2))"),
    "parser_wording": (
        "import numpy as np\n"
        "tries(lambda: torch.full((2, 3)), lambda: torch.tensor(), lambda: torch.linspace(0, 1), lambda: torch.linspace(0, 1, 2.5),\n"
        "      lambda: torch.linspace(0, 1, 3), lambda: torch.zeros(2, requires_grad='yes'), lambda: torch.zeros(2, requires_grad=1),\n"
        "      lambda: torch.ones(2, requires_grad=None), lambda: torch.rand(2, requires_grad='yes'),\n"
        "      lambda: torch.full((2,), 1., requires_grad='yes'), lambda: torch.tensor([1.], requires_grad='yes'),\n"
        "      lambda: torch.tensor([1.], requires_grad=1), lambda: torch.arange(3., requires_grad='yes'),\n"
        "      lambda: torch.zeros(2, requires_grad=np.bool_(True)), lambda: torch.randn((2, 3), 4), lambda: torch.eye(2, 3, 4),\n"
        "      lambda: torch.arange('5'), lambda: torch.arange(0, '5'), lambda: torch.arange(0, 5, '1'), lambda: torch.arange(None),\n"
        "      lambda: torch.tensor([1, 2], dtype='int'), lambda: torch.full((2,), 1, dtype='int'),\n"
        "      lambda: torch.add(torch.tensor([1.]), np.array([1.])), lambda: torch.tensor([1.]).add(np.float32(1)) * 0,\n"
        "      lambda: torch.tensor([1.]).mul(np.array([1.])), lambda: torch.eq(torch.tensor([1.]), np.array([1.])),\n"
        "      lambda: torch.zeros((2, 3), dtype=torch.int32).shape, lambda: torch.zeros(np.array([2]), 3))"),
    "shifts_and_allclose": (
        "t = torch.tensor([5, -5])\n"
        "tries(lambda: t >> 1, lambda: t << 2, lambda: 1 << t.abs(), lambda: torch.tensor([5.]) >> 1, lambda: t >> 1.5,\n"
        "      lambda: t >> torch.tensor([1, 2]), lambda: torch.tensor([True]) << 1, lambda: torch.tensor([5], dtype=torch.int8) << 1,\n"
        "      lambda: torch.tensor([5], dtype=torch.uint8) >> torch.tensor([1]), lambda: t.bitwise_left_shift(1),\n"
        "      lambda: t.bitwise_right_shift(1), lambda: t >> 70, lambda: t << 64, lambda: t >> -1, lambda: torch.tensor([1.]) << 1.,\n"
        "      lambda: torch.tensor([1], dtype=torch.int8) << 200)\n"
        "x = torch.tensor([1, 2])\n"
        "x <<= 1\n"
        "print(x)\n"
        "x >>= 1\n"
        "print(x, x.bitwise_left_shift_(2), x)\n"
        "tries(lambda: torch.allclose(torch.tensor([1, 2]), torch.tensor([1., 2.])),\n"
        "      lambda: torch.allclose(torch.tensor([1., 2.]), torch.tensor([1., 2.], dtype=torch.float64)),\n"
        "      lambda: torch.allclose(torch.tensor([1, 2]), torch.tensor([1, 2])), lambda: torch.tensor([1, 2]).allclose(torch.tensor([True, False])),\n"
        "      lambda: torch.allclose(torch.tensor([1, 2], dtype=torch.int32), torch.tensor([1, 2])),\n"
        "      lambda: torch.allclose(torch.tensor([1., 2.]), torch.tensor([1., 2.0001])))"),
}


@pytest.mark.parametrize("name", SNIPPETS)
def test_snippet(name):
    """Printed text, warnings and the final error are identical (addresses and C++ locations blanked)."""
    code = SHOW + SNIPPETS[name]
    t, e = run_both(T, E, code)
    assert e.summary() == t.summary(), f"\n{code}\n--- torch\n{t.summary()}--- engine\n{e.summary()}"
