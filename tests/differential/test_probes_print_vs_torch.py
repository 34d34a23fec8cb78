"""Learners' snippets about making tensors, their shapes, conversions and the errors of getting them wrong, against
real PyTorch: torch.tensor's dtype inference (tensors, numpy values, ranges inside lists), the size and argument
errors of the factories, the legacy constructors, type names, strides, scalar conversions, .to / .type arguments."""
import pytest

T = pytest.importorskip("torch", reason="differential tests need real PyTorch (pip install torch==2.13.0)")
from .harness import TRIES, load_engine, run_both, same  # noqa: E402

E = load_engine()


SNIPPETS = {
    # ---- torch.tensor: what a list holds decides the dtype; tensors inside are numbers, not sequences
    "tensor_of_tensors": (
        "a, b = torch.ones(2), torch.zeros(2)\n"
        "tries(lambda: torch.tensor([a, b]), lambda: torch.tensor([torch.ones(2, 2)]),\n"
        "      lambda: torch.tensor([torch.tensor([1.]), torch.tensor([2.])]),\n"
        "      lambda: torch.tensor([1, torch.tensor([2])]),\n"
        "      lambda: torch.tensor([torch.tensor(1., dtype=torch.float64), 2]),\n"
        "      lambda: torch.tensor([torch.tensor(1, dtype=torch.int8), torch.tensor(1, dtype=torch.uint8)]),\n"
        "      lambda: torch.tensor([torch.tensor(1., dtype=torch.float16), 2]),\n"
        "      lambda: torch.tensor([torch.tensor(1.5)], dtype=torch.long),\n"
        "      lambda: torch.tensor([torch.tensor([1.5, 2.]), [1, 2]]),\n"
        "      lambda: torch.tensor([torch.tensor([True, False]), [1, 2]]),\n"
        "      lambda: torch.tensor([[1, 2], torch.tensor([3, 4])]))"),
    "tensor_numpy_values": (
        "import numpy as np\n"
        "print(torch.tensor(np.float64(1.5)), torch.tensor([np.float64(1.5), 2.]))\n"
        "print(torch.tensor([np.float32(1), 2.]), torch.tensor([np.int32(1), 2]))\n"
        "print(torch.tensor(np.mean(np.array([1., 2.]))))\n"
        "print(torch.tensor([np.array([1, 2], dtype=np.int32), np.array([3, 4], dtype=np.int32)]))\n"
        "print(torch.tensor([np.array([1., 2.]), [3, 4]]))\n"
        "tries(lambda: torch.tensor([np.array(1.), 2]))"),
    "tensor_ranges": (
        "print(torch.tensor(range(3)), torch.tensor([range(2), range(2, 4)]))\n"
        "print(torch.Tensor(range(3)), torch.LongTensor(range(2)))"),
    "tensor_overflow": (
        "tries(lambda: torch.tensor([300], dtype=torch.uint8),\n"
        "      lambda: torch.tensor([-1], dtype=torch.uint8),\n"
        "      lambda: torch.tensor([-1.], dtype=torch.uint8),\n"
        "      lambda: torch.tensor([2**31], dtype=torch.int32),\n"
        "      lambda: torch.tensor(float('nan'), dtype=torch.long), lambda: torch.LongTensor([1e20]),\n"
        "      lambda: torch.tensor([float('inf')], dtype=torch.int32), lambda: torch.tensor([1e300]),\n"
        "      lambda: torch.tensor([128], dtype=torch.int8),\n"
        "      lambda: torch.tensor([2, 0], dtype=torch.bool))"),
    # ---- sizes: PyTorch's argument parser's messages
    "size_argument_errors": (
        "tries(lambda: torch.ones(2.5), lambda: torch.ones(2, 2.5), lambda: torch.ones((2, 2.5)),\n"
        "      lambda: torch.zeros('a'), lambda: torch.zeros(2, 'a'), lambda: torch.randn(2.),\n"
        "      lambda: torch.rand(2, 3.), lambda: torch.empty(1.), lambda: torch.ones([2., 3]),\n"
        "      lambda: torch.ones(None), lambda: torch.zeros(2, None),\n"
        "      lambda: torch.ones(torch.tensor(3.)),\n"
        "      lambda: torch.ones(True), lambda: torch.ones(2, True).shape,\n"
        "      lambda: torch.ones((2,), (3,)),\n"
        "      lambda: torch.zeros(2, torch.long), lambda: torch.ones((2, 2), torch.float64),\n"
        "      lambda: torch.ones(torch.tensor(3)).shape, lambda: torch.full(2, 3.),\n"
        "      lambda: torch.full([2, 2.], 1.))"),
    "negative_sizes": (
        "tries(lambda: torch.ones(-1), lambda: torch.zeros(-1), lambda: torch.zeros(2, -3),\n"
        "      lambda: torch.ones(2, -3), lambda: torch.zeros((2, -3)), lambda: torch.empty(2, -1),\n"
        "      lambda: torch.randn(2, -1), lambda: torch.full((2, -1), 2.), lambda: torch.ones(-2, -1),\n"
        "      lambda: torch.randperm(-1), lambda: torch.eye(-1), lambda: torch.eye(2, -1))"),
    "randint_forms": (
        "print(torch.randint(5, (2, 2)).shape, torch.randint(3, 10, (3,)).dtype,\n"
        "      torch.randint(high=10, size=(2,)).shape, torch.randint(0, 10, size=(2,)).shape,\n"
        "      torch.randint(0, 10, (2,), dtype=torch.float32).dtype)\n"
        "tries(lambda: torch.randint(0, 10, 3), lambda: torch.randint(10, 3),\n"
        "      lambda: torch.randint(0, 10),\n"
        "      lambda: torch.randint(5, 2, (2,)), lambda: torch.randint(0, 10.5, (2,)),\n"
        "      lambda: (torch.randint(4, 5, (3,)) == 4).all())"),
    "random_dtypes": (
        "tries(lambda: torch.rand(2, dtype=torch.long), lambda: torch.randn(2, dtype=torch.int32),\n"
        "      lambda: torch.rand(2, dtype=torch.bool),\n"
        "      lambda: torch.rand_like(torch.ones(2, dtype=torch.long)),\n"
        "      lambda: torch.randn_like(torch.tensor([1, 2])),\n"
        "      lambda: torch.randn(2, dtype=torch.float64).dtype,\n"
        "      lambda: torch.randperm(2.5), lambda: torch.randperm(3, dtype=torch.float32).dtype)"),
    "range_factory_errors": (
        "tries(lambda: torch.arange(10, 0), lambda: torch.arange(0, 10, -1),\n"
        "      lambda: torch.arange(0, 10, 0),\n"
        "      lambda: torch.arange(0, float('inf')), lambda: torch.arange(float('nan')),\n"
        "      lambda: torch.arange(5, dtype=torch.bool), lambda: torch.linspace(0, 1, -1),\n"
        "      lambda: torch.linspace(0, 1, 0), lambda: torch.eye(2.5), lambda: torch.eye(0, 2))"),
    # ---- torch.FloatTensor and friends
    "legacy_constructor_errors": (
        "import numpy as np\n"
        "tries(lambda: torch.FloatTensor([1, 2], dtype=torch.long),\n"
        "      lambda: torch.FloatTensor([1], requires_grad=True),\n"
        "      lambda: torch.FloatTensor(2, dtype=torch.float64),\n"
        "      lambda: torch.LongTensor(torch.tensor([1.5])),\n"
        "      lambda: torch.FloatTensor(torch.tensor([1])),\n"
        "      lambda: torch.IntTensor(torch.ones(1)), lambda: torch.ByteTensor(torch.ones(1)),\n"
        "      lambda: torch.HalfTensor(torch.ones(1)), lambda: torch.BoolTensor(torch.ones(1)),\n"
        "      lambda: torch.DoubleTensor(torch.tensor([True])),\n"
        "      lambda: torch.Tensor(torch.tensor([1, 2])),\n"
        "      lambda: torch.FloatTensor(torch.ones(2)), lambda: torch.FloatTensor(2.5),\n"
        "      lambda: torch.LongTensor('abc'), lambda: torch.Tensor(None), lambda: torch.Tensor(2, 'a'),\n"
        "      lambda: torch.Tensor(np.float64(2.)), lambda: torch.Tensor(2, -1),\n"
        "      lambda: torch.FloatTensor([torch.ones(2), torch.ones(2)]))"),
    # ---- printing under another default dtype, type names
    "default_dtype_repr": (
        "torch.set_default_dtype(torch.float64)\n"
        "try:\n"
        "    print(torch.tensor([1.5]), torch.ones(2), torch.arange(3.), torch.tensor([]))\n"
        "    print(torch.tensor([1.5], dtype=torch.float32), torch.zeros(0, dtype=torch.float32))\n"
        "    print(torch.ones(2, requires_grad=True) * 2, torch.tensor([1, 2]))\n"
        "finally:\n"
        "    torch.set_default_dtype(torch.float32)\n"
        "print(torch.tensor([1.5], dtype=torch.float64))"),
    "type_names": (
        "x = torch.ones(2, 3)\n"
        "print(type(x.shape), type(x.dtype), type(torch.float64), type(x.size()))\n"
        "print(type(x) is torch.Tensor, isinstance(x.shape, tuple))"),
    # ---- shapes and strides
    "zero_dim_size_and_stride": (
        "x = torch.tensor(5.)\n"
        "tries(lambda: x.size(0), lambda: x.size(-1), lambda: x.stride(0), lambda: x.size(1),\n"
        "      lambda: x.size(), lambda: x.stride(), lambda: x.shape, lambda: x.sum(0), lambda: x.dim())"),
    "empty_strides": (
        "for t in (torch.empty(0, 3), torch.zeros(2, 0, 3), torch.tensor([]), torch.ones(3, 4)[:, :0],\n"
        "          torch.zeros(0, 3, dtype=torch.long)):\n"
        "    print(t.shape, t.stride(), t.is_contiguous(), t.stride(-1))"),
    # ---- conversions to Python numbers, comparisons, slices
    "scalar_conversion_errors": (
        "tries(lambda: float(torch.ones(2)), lambda: int(torch.ones(2)), lambda: int(torch.ones(0)),\n"
        "      lambda: float(torch.tensor([])), lambda: complex(torch.ones(2)),\n"
        "      lambda: torch.ones(2).item(), lambda: bool(torch.ones(2)),\n"
        "      lambda: int(torch.tensor([2.7])),\n"
        "      lambda: float(torch.tensor([[3]])), lambda: [1, 2, 3][torch.tensor(1.)])"),
    "compare_broadcast_errors": (
        "a, b = torch.ones(2), torch.ones(3)\n"
        "tries(lambda: a == b, lambda: a < b, lambda: torch.eq(a, b), lambda: a.ne(b),\n"
        "      lambda: torch.ones(2, 3) >= torch.ones(3, 2), lambda: torch.ones(2, 1) == torch.ones(3),\n"
        "      lambda: torch.ones(4, 3) <= torch.ones(5, 1, 2))"),
    "slice_steps": (
        "x = torch.arange(6)\n"
        "tries(lambda: x[::0], lambda: x[::-1], lambda: x[1::0], lambda: x[::2],\n"
        "      lambda: x.view(2, 3)[:, ::0])"),
    # ---- .to / .type arguments
    "to_and_type_arguments": (
        "x = torch.ones(2)\n"
        "tries(lambda: x.to('float32'), lambda: x.to('cpu').dtype, lambda: x.to(None) is x,\n"
        "      lambda: x.type(torch.FloatTensor) is x, lambda: x.type(torch.LongTensor),\n"
        "      lambda: x.type(torch.DoubleTensor), lambda: x.type(int), lambda: x.type(float),\n"
        "      lambda: x.to(float), lambda: x.type('torch.LongTensor'), lambda: x.to('gpu'))"),
    "from_numpy_unsupported": (
        "import numpy as np\n"
        "tries(lambda: torch.from_numpy(np.array(['a'])), lambda: torch.from_numpy(np.array([None])),\n"
        "      lambda: torch.from_numpy(np.array([1, 2], dtype=np.int8)))"),
    # attributes that cannot be set, requires_grad's checks, methods printed by mistake, once-per-run warnings
    "read_only_attributes_and_methods": (
        "x = torch.ones(2, requires_grad=True)\ny = x * 2\n"
        "for s in ['x.is_leaf = True', 'y.grad_fn = None', 'x.grad_fn = y.grad_fn', 'x.requires_grad = 1',\n"
        "          'y.requires_grad = False', 'x.shape = (2, 1)',\n"
        "          'x.dtype = torch.float64', 'x.T = 1', 'x.ndim = 2', 'x.name = \"w\"', 'x.size[0]',\n"
        "          '100 * x.detach', 'print(x.name, x.sum, torch.Tensor.sum, x.requires_grad_, x.backward)',\n"
        "          'print(x.item)', 'x.grad.zero_']:\n"
        "    try:\n        exec(s)\n        print(s, 'ok')\n"
        "    except Exception as e:\n        print(s, type(e).__name__, e)\n"
        "s = torch.tensor(2.5, requires_grad=True)\nprint(complex(s), y.grad, torch.ones(3).T)\n"
        "try:\n    float(x)\nexcept ValueError as e:\n    print(e)"),
    # which slices in a multi-part index PyTorch records: the start as written, the stop clamped
    "slices_that_record": ("x = torch.zeros(3, 2, requires_grad=True)\ne = torch.zeros(0, 2, requires_grad=True)\n"
                           "for k in ['x[None, 0:5]', 'x[None, :]', 'x[None, -3:]', 'x[None, -5:]', 'x[None, :-0]',\n"
                           "          'x[None, 0:-1]', 'e[None, 1:2]', 'e[None, 0:2]', 'e[None, 1:]', 'x[:, -2:]',\n"
                           "          'x[:, :10]', 'x[..., 0:2]', 'x[0:3]', 'e[1:]']:\n"
                           "    print(k, eval(k).grad_fn.name())"),
}


@pytest.mark.parametrize("name", SNIPPETS)
def test_snippet(name):
    """Printed text, warnings and the final error are identical (addresses and C++ locations blanked)."""
    code = TRIES + SNIPPETS[name]
    t, e = run_both(T, E, code)
    assert same(t, e), f"\n{code}\n--- torch\n{t.summary()}--- engine\n{e.summary()}"
