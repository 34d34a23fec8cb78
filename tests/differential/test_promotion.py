"""Type promotion table: every pair of dtypes, 0-d against n-d, Python scalars, for + - * / ** and in place."""
import itertools

import pytest

T = pytest.importorskip("torch", reason="differential tests need real PyTorch (pip install torch==2.13.0)")
from .harness import load_engine, run_both, same

E = load_engine()

DTYPES = ["float32", "float64", "int64", "int32", "bool"]
VALUES = {"float32": "[1.5, 2.0]", "float64": "[0.5, 3.0]", "int64": "[1, 2]", "int32": "[3, 1]",
          "bool": "[True, False]"}
SCALAR_VALUES = {"float32": "2.5", "float64": "0.5", "int64": "2", "int32": "3", "bool": "True"}

TENSORS = [f"torch.tensor({VALUES[d]}, dtype=torch.{d})" for d in DTYPES] + \
          [f"torch.tensor({SCALAR_VALUES[d]}, dtype=torch.{d})" for d in DTYPES]
PYTHON_SCALARS = ["2", "2.5", "True"]
OPS = ["+", "-", "*", "/", "**"]

PAIRS = [(a, b) for a, b in itertools.product(TENSORS + PYTHON_SCALARS, repeat=2)
         if not (a in PYTHON_SCALARS and b in PYTHON_SCALARS)]

INPLACE = list(itertools.product(TENSORS[:5], TENSORS + PYTHON_SCALARS))


def short(code):
    """Test id for an operand: `f32[2]`, `i64[]`, or the Python scalar itself."""
    if not code.startswith("torch."):
        return code
    d = code.split("torch.")[-1].rstrip(")")
    d = d.replace("float", "f").replace("int", "i").replace("bool", "b")
    return d + ("[2]" if "[" in code else "[]")


def check(code):
    t, e = run_both(T, E, code)
    assert same(t, e), f"\n{code}\n--- torch\n{t.summary()}--- engine\n{e.summary()}"


@pytest.mark.parametrize("op", OPS)
@pytest.mark.parametrize("a,b", PAIRS, ids=[f"{short(a)},{short(b)}" for a, b in PAIRS])
def test_binary_promotion(a, b, op):
    """Result dtype, values (printed) and errors of `a op b` match PyTorch."""
    check(f"r = {a} {op} {b}\nprint(r.dtype, r.shape)\nprint(r)")


@pytest.mark.parametrize("method", ["add_", "sub_", "mul_", "div_", "pow_"])
@pytest.mark.parametrize("a,b", INPLACE, ids=[f"{short(a)},{short(b)}" for a, b in INPLACE])
def test_inplace_promotion(a, b, method):
    """In-place ops keep the left dtype, or refuse a result that cannot be cast back."""
    check(f"r = {a}\nr.{method}({b})\nprint(r.dtype, r._version)\nprint(r)")


@pytest.mark.parametrize("fn", ["torch.cat", "torch.stack"])
@pytest.mark.parametrize("da,db", list(itertools.product(DTYPES, repeat=2)))
def test_join_promotion(fn, da, db):
    """cat/stack promote their inputs like binary ops."""
    check(f"r = {fn}([torch.tensor({VALUES[da]}, dtype=torch.{da}), "
          f"torch.tensor({VALUES[db]}, dtype=torch.{db})])\nprint(r.dtype)\nprint(r)")


@pytest.mark.parametrize("d", DTYPES)
def test_reduction_dtypes(d):
    """sum of ints/bools gives int64; mean of ints is an error; float reductions keep their dtype."""
    check(f"x = torch.tensor({VALUES[d]}, dtype=torch.{d})\nprint(x.sum(), x.sum().dtype)\n"
          f"print(torch.sum(x, 0, keepdim=True))\nprint(x.mean())")


@pytest.mark.parametrize("d", DTYPES)
def test_matmul_dtypes(d):
    """matmul keeps the dtype of same-typed operands (bool is refused)."""
    check(f"x = torch.tensor([{VALUES[d]}, {VALUES[d]}], dtype=torch.{d})\nprint(x @ x)\nprint(x.mm(x).dtype)")


@pytest.mark.parametrize("d", DTYPES)
def test_unary_dtypes(d):
    """Unary float ops promote integers to float32; abs/neg keep them."""
    lines = [f"x = torch.tensor({VALUES[d]}, dtype=torch.{d})"]
    for f in ["x.exp()", "x.sigmoid()", "x.tanh()", "x.sqrt()", "x.log()", "x.abs()", "-x", "x.relu()",
              "x.clamp(min=1)", "x.clamp(min=0.5)"]:
        lines.append(f"try:\n    print({f!r}, {f})\nexcept Exception as e:\n    print(type(e).__name__, e)")
    check("\n".join(lines))
