"""Creation functions: values, dtype, shape, flags and errors match PyTorch."""
import pytest

T = pytest.importorskip("torch", reason="differential tests need real PyTorch (pip install torch==2.13.0)")
from .harness import load_engine, run_both, same

E = load_engine()

FILLED = [
    "torch.tensor(3)", "torch.tensor(3.5)", "torch.tensor(True)", "torch.tensor([1, 2, 3])",
    "torch.tensor([1., 2., 3.])", "torch.tensor([1, 2.5])", "torch.tensor([True, False])",
    "torch.tensor([True, 2])", "torch.tensor([[1, 2], [3, 4]])", "torch.tensor([])",
    "torch.tensor([[]])", "torch.tensor([1, 2], dtype=torch.float64)", "torch.tensor([1.7, -2.7], dtype=torch.int64)",
    "torch.tensor([0, 3], dtype=torch.bool)", "torch.tensor([1., 2.], requires_grad=True)",
    "torch.tensor(2., dtype=torch.float64, requires_grad=True)", "torch.tensor((1, 2))",
    "torch.tensor([1e-5, 1e5])", "torch.tensor([123456789.])", "torch.tensor([0.1, 0.25])",
    "torch.tensor([1, 2], dtype=torch.float)", "torch.tensor([1, 2], dtype=torch.double)",
    "torch.tensor([1, 2], dtype=torch.long)", "torch.tensor([1, 2], dtype=torch.int)",
    "torch.tensor(float('nan'))", "torch.tensor([float('inf'), -float('inf'), 1.])",
    "torch.ones(2, 3)", "torch.ones((2, 3))", "torch.ones([2])", "torch.ones(())", "torch.ones(0)",
    "torch.ones(2, dtype=torch.int64)", "torch.ones(2, requires_grad=True)", "torch.ones(1, 1, 2)",
    "torch.zeros(3)", "torch.zeros(2, 2, dtype=torch.float64)", "torch.zeros(2, dtype=torch.bool)",
    "torch.zeros(size=(1, 2))", "torch.full((2, 2), 7)", "torch.full((2,), 1.5)", "torch.full((2,), True)",
    "torch.full((2,), 3, dtype=torch.float32)", "torch.full([3], -1.0, requires_grad=True)",
    "torch.arange(5)", "torch.arange(1, 4)", "torch.arange(0, 10, 3)", "torch.arange(5.)",
    "torch.arange(0, 1, 0.25)", "torch.arange(1.5, 4)", "torch.arange(5, 0, -2)", "torch.arange(0)",
    "torch.arange(4, dtype=torch.float64)", "torch.arange(3, requires_grad=True, dtype=torch.float32)",
    "torch.range(0, 3)", "torch.range(1, 4, 0.5)", "torch.range(0, 3, dtype=torch.int64)",
    "torch.ones_like(torch.tensor([1, 2]))", "torch.zeros_like(torch.ones(2, 2, dtype=torch.float64))",
    "torch.full_like(torch.ones(3), 4)", "torch.full_like(torch.arange(3), 2.7)",
    "torch.ones_like(torch.ones(2), requires_grad=True)", "torch.zeros_like(torch.ones(2), dtype=torch.int32)",
    "torch.ones_like(torch.ones(2, requires_grad=True))",
    "torch.FloatTensor([2])", "torch.FloatTensor([[1, 2], [3, 4]])", "torch.LongTensor([1, 2])",
    "torch.LongTensor([1.7])", "torch.DoubleTensor([1, 2])", "torch.FloatTensor([])",
    "torch.from_numpy(__import__('numpy').array([1., 2.]))",
    "torch.from_numpy(__import__('numpy').array([1, 2]))",
    "torch.from_numpy(__import__('numpy').array([1, 2], dtype='float32'))",
]

SHAPE_ONLY = [
    "torch.empty(2, 3)", "torch.empty((2,), dtype=torch.int64)", "torch.FloatTensor(2)", "torch.FloatTensor(2, 3)",
    "torch.LongTensor(3)", "torch.DoubleTensor(1)", "torch.empty_like(torch.ones(2, dtype=torch.float64))",
    "torch.randn(2, 3)", "torch.rand(4)", "torch.randn(2, requires_grad=True)", "torch.rand_like(torch.ones(3))",
    "torch.randn_like(torch.ones(2, dtype=torch.float64))", "torch.randn(())",
]

ERRORS = [
    "torch.tensor([[1, 2], [3]])", "torch.tensor([1, 2], requires_grad=True)",
    "torch.ones(2, dtype=torch.int64, requires_grad=True)", "torch.tensor('a')", "torch.arange(0, 1, 0)",
    "torch.ones(-1)", "torch.tensor([1, [2]])", "torch.full((2,), 1, requires_grad=True)",
    "torch.zeros(2, device='cuda')", "torch.ones(2).cuda()",
    "torch.tensor(True, requires_grad=True)", "torch.arange(3).requires_grad_()",
]


def check(code):
    t, e = run_both(T, E, code)
    assert same(t, e), f"\n{code}\n--- torch\n{t.summary()}--- engine\n{e.summary()}"


@pytest.mark.parametrize("expr", FILLED)
def test_filled(expr):
    """repr and every attribute of a created tensor."""
    check(f"x = {expr}\nprint(x)\nprint(x.dtype, x.shape, x.size(), x.dim(), x.numel(), x.requires_grad, "
          f"x.is_leaf, x.grad_fn, x.layout, x.device, x._version)\nprint(x.tolist())")


@pytest.mark.parametrize("expr", SHAPE_ONLY)
def test_uninitialised_or_random(expr):
    """Tensors whose values are not PyTorch's to match: metadata only."""
    check(f"x = {expr}\nprint(x.dtype, x.shape, x.requires_grad, x.is_leaf, x.grad_fn, x.layout, x.device)")


@pytest.mark.parametrize("expr", ERRORS)
def test_creation_errors(expr):
    """The same exception type and message."""
    check(f"x = {expr}\nprint(x)")


def test_item_and_tolist():
    """Python values out of tensors."""
    check("print(torch.tensor(2.5).item(), torch.tensor(3).item(), torch.tensor(True).item())\n"
          "print(type(torch.tensor([1.5]).item()), torch.tensor([[1, 2]]).tolist(), torch.tensor(1.5).tolist())\n"
          "print(torch.ones(2).item())")


def test_numpy_shares_memory():
    """from_numpy and .numpy() alias the same buffer both ways."""
    check("import numpy as np\na = np.zeros(3, dtype='float32')\nt = torch.from_numpy(a)\na[0] = 5\n"
          "t[1] = 7\nprint(t, a)\nn = t.numpy()\nn[2] = 9\nprint(t)\n"
          "print(torch.ones(2, requires_grad=True).numpy())")


def test_range_warns():
    """torch.range is deprecated (UserWarning) and end-inclusive."""
    check("print(torch.range(0, 2), torch.range(0, 2).dtype)")


def test_dtype_and_size_objects():
    """dtype and Size objects print and compare as in PyTorch."""
    check("print(torch.float32, torch.float, torch.float64, torch.double, torch.int64, torch.long, torch.int32, "
          "torch.bool)\nprint(torch.float == torch.float32, torch.ones(2, 3).shape == (2, 3))\n"
          "s = torch.ones(2, 3).size()\nprint(s, s[0], len(s), s.numel(), list(s), type(s).__name__)\n"
          "print(torch.ones(2, 3).size(1), torch.ones(2, 3).size(-1), torch.ones(2).shape[0])\n"
          "print(torch.float32.is_floating_point, torch.int64.is_floating_point)\n"
          "print(torch.get_default_dtype())")
