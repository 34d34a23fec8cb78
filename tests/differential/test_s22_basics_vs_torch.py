"""The basics a learner tries first, in many variations, as generated probes found them apart from PyTorch: how
torch.tensor reads nested data of the dtype asked for, reductions given dim=None or an integer dtype, norms and
aminmax of empty and 0-d tensors, count_nonzero's dims, division and in-place comparisons of integer tensors with
numbers, out= of another dtype, the parser's errors for a number given first. Printed text, warnings and the final
error must be the same."""
import pytest

T = pytest.importorskip("torch", reason="differential tests need real PyTorch (pip install torch==2.13.0)")
from .harness import TRIES, load_engine, run_both, same  # noqa: E402

E = load_engine()

SNIPPETS = {
    # torch.tensor stores a value that is not a Python number as a float (__float__, "must be real number, not list"
    # when the inferred dtype is a float one) or by __index__ (numpy's float32 and bool refused for an integer dtype);
    # a 0-d array stands for a number where numbers are; str / bytes anywhere are refused before any shape error
    "tensor_reads_values_as_the_dtype_stores_them": TRIES + (
        'import numpy as np\n'
        'tries(lambda: torch.tensor([1.5, [2]]), lambda: torch.tensor([torch.tensor(1.5), [2]]),\n'
        '      lambda: torch.tensor([1, (2,)], dtype=torch.float32), lambda: torch.FloatTensor([1, [2]]),\n'
        '      lambda: torch.tensor(np.float32(2.5), dtype=torch.int64), lambda: torch.LongTensor([np.float32(2.5)]),\n'
        '      lambda: torch.tensor([1, np.bool_(True)], dtype=torch.uint8),\n'
        '      lambda: torch.tensor([1, np.bool_(True)], dtype=torch.bool),\n'
        '      lambda: torch.tensor([1, np.array(2)]), lambda: torch.tensor([1, np.array(2.5, dtype=np.float32)]),\n'
        '      lambda: torch.tensor([1, np.array(2.5)], dtype=torch.int64),\n'
        '      lambda: torch.tensor([1, np.array([2])], dtype=torch.float32), lambda: torch.tensor([[1, 2], np.array(2)]),\n'
        '      lambda: torch.tensor("abc", dtype=torch.float32), lambda: torch.tensor(b"ab"),\n'
        '      lambda: torch.tensor([[1], "a"]), lambda: torch.tensor([[1], None]),\n'
        '      lambda: torch.tensor(bytearray(b"ab"), dtype=torch.float32), lambda: torch.tensor([bytearray(b"ab")]))'),
    # logspace has no bool kernel (past one step)
    "logspace_of_bool": TRIES + (
        'tries(lambda: torch.logspace(0, 1, 1, dtype=torch.bool), lambda: torch.logspace(0, 1, 3, dtype=torch.bool))'),
    # a Python int beyond int64 and uint64 is refused as a Scalar before sub's bool check, and as a number shifted
    "bool_minus_a_huge_int": TRIES + (
        'b = torch.tensor([True, False])\n'
        'tries(lambda: b - 10**20, lambda: b - 2**64, lambda: b - 2**63, lambda: 10**20 - b,\n'
        '      lambda: 10**20 << torch.tensor([1]), lambda: -10**20 >> torch.tensor([1]))'),
    # sum / mean given dim=None are the dim overload: SumBackward1 / MeanBackward1 saving dim None, keepdim kept
    "sum_and_mean_with_dim_none": (
        'x = torch.tensor([[1., 2., 3.], [4., 5., 6.]], requires_grad=True)\n'
        'for y in [x.sum(), x.sum(dim=None), torch.sum(x, None, True), x.mean(dim=None), x.mean(None, keepdim=True)]:\n'
        '    print(y, y.grad_fn._saved_dim if hasattr(y.grad_fn, "_saved_dim") else "-")\n'
        '    y.backward(torch.ones_like(y))\n'
        'print(x.grad)'),
    # sum / prod / cumsum / cumprod / nansum with an integer dtype of an input that requires grad: autograd's error;
    # nansum counts NaNs as zero before the cast; nanmean refuses an integer dtype
    "reductions_to_integer_dtypes": TRIES + (
        'x = torch.tensor([[1., 5., 3.], [4., 2., 6.]], requires_grad=True)\n'
        'n = torch.tensor([[1., float("nan"), 3.], [4., 2., 6.]])\n'
        'tries(lambda: x.sum(dtype=torch.int64), lambda: torch.sum(x, 0, dtype=torch.int32), lambda: x.prod(dtype=torch.bool),\n'
        '      lambda: x.cumsum(0, dtype=torch.int64), lambda: x.cumprod(1, dtype=torch.int64),\n'
        '      lambda: x.nansum(dtype=torch.int64), lambda: x.detach().sum(dtype=torch.int64),\n'
        '      lambda: n.nansum(dtype=torch.int64), lambda: n.nansum(1, dtype=torch.int32),\n'
        '      lambda: n.nanmean(dtype=torch.int64), lambda: n.nanmean(dtype=torch.bool))'),
    # norm: linalg.vector_norm's dtype checks, its errors for ord < 0 or inf over empty dims, halves' 0 / inf norms
    "norm_dtypes_and_empty_inputs": TRIES + (
        'x = torch.tensor([[1., 5., 3.], [4., 0., 6.]])\n'
        'e = torch.zeros(0, 3)\n'
        'tries(lambda: x.norm(dtype=torch.int64), lambda: x.double().norm(0, dtype=torch.float32),\n'
        '      lambda: x.norm(2, 0, dtype=torch.float16), lambda: e.norm(-1), lambda: e.norm(float("inf")),\n'
        '      lambda: e.norm(-0.5, dim=1), lambda: e.norm(-1, dim=-2), lambda: torch.zeros(3, 0).norm(-1, dim=(0, 1)),\n'
        '      lambda: e.norm(0), lambda: x.half().norm(0), lambda: x.half().norm(float("inf")),\n'
        '      lambda: x.half().norm(float("-inf"), dim=1))'),
    # x.count_nonzero(0, 1) takes dims one by one (torch.count_nonzero does not)
    "count_nonzero_dims_one_by_one": TRIES + (
        'x = torch.tensor([[1., 0., 3.], [4., 2., 0.]])\n'
        'tries(lambda: x.count_nonzero(0, 1), lambda: x.count_nonzero(0, True), lambda: x.count_nonzero(0, 0),\n'
        '      lambda: torch.tensor(3.).count_nonzero(0, True), lambda: torch.count_nonzero(x, 0, 1))'),
    # aminmax checks a 0-d tensor's dim and refuses an empty reduced dim
    "aminmax_dim_checks": TRIES + (
        'tries(lambda: torch.tensor(3.).aminmax(dim=1), lambda: torch.tensor(3.).aminmax(dim=-1),\n'
        '      lambda: torch.zeros(0, 3).aminmax(dim=-2), lambda: torch.zeros(3, 0).aminmax(dim=0),\n'
        '      lambda: torch.zeros(0, 3).aminmax())'),
    # x.type(cls) names a class of C's by its full name in the error
    "type_of_a_numpy_class": TRIES + (
        'import numpy as np\n'
        'x = torch.ones(2)\n'
        'tries(lambda: x.type(np.float32), lambda: x.type(np.int64), lambda: x.type(float), lambda: x.type(torch.DoubleTensor))'),
    # true division casts each operand from its own dtype: a number or 0-d tensor is not wrapped into uint8 first
    "true_division_of_integers_by_position": TRIES + (
        'a = torch.tensor([3, 250, 0], dtype=torch.uint8)\n'
        'i8 = torch.tensor([3, -7, 0], dtype=torch.int8)\n'
        'tries(lambda: torch.div(-1, a), lambda: torch.true_divide(-1, a), lambda: torch.div(300, i8),\n'
        '      lambda: torch.tensor(-1) / a, lambda: torch.tensor(True) / a, lambda: a / torch.tensor(300), lambda: -1 / a)'),
    # in-place comparisons compare in the operands' result dtype, as out of place (uint8.lt_(-1) compares with 255)
    "inplace_comparisons_in_the_result_dtype": TRIES + (
        'a = torch.tensor([3, 250, 0], dtype=torch.uint8)\n'
        'i = torch.tensor([1, 2])\n'
        'tries(lambda: a.clone().lt_(-1), lambda: a.clone().ge_(-2), lambda: a.clone().le_(256), lambda: a < -1,\n'
        '      lambda: a.clone().lt_(torch.tensor(-1)), lambda: a.clone().lt_(torch.tensor([-1])),\n'
        '      lambda: i.int().lt_(2**40), lambda: i.int().eq_(2**32 + 1), lambda: i.clone().lt_(1.5),\n'
        '      lambda: torch.tensor([True, False]).lt_(2))'),
    # out= of another dtype: a pointwise op resizes it with two warnings; neg / abs / floor ... want out's dtype
    "out_of_another_dtype": TRIES + (
        'tries(lambda: torch.add(torch.tensor(4), 2, out=torch.empty(3)),\n'
        '      lambda: torch.eq(torch.tensor([4]), 2, out=torch.empty(3)),\n'
        '      lambda: torch.exp(torch.tensor([1.]), out=torch.empty(3, dtype=torch.float64)),\n'
        '      lambda: torch.add(torch.tensor(4.), 2, out=torch.empty(3)),\n'
        '      lambda: torch.sum(torch.ones(3), 0, out=torch.empty(3, dtype=torch.float64)),\n'
        '      lambda: torch.neg(torch.tensor([1]), out=torch.empty(3)),\n'
        '      lambda: torch.abs(torch.tensor([1.]), out=torch.empty(1, dtype=torch.float64)),\n'
        '      lambda: torch.floor(torch.tensor([1.]), out=torch.empty(3, dtype=torch.float64)))'),
    # the parser refuses a number where copysign's and lerp's input is
    "copysign_and_lerp_given_a_number_first": TRIES + (
        'f = torch.ones(3)\n'
        'tries(lambda: torch.copysign(True, f), lambda: torch.copysign(2.0, f), lambda: torch.copysign(f, 2),\n'
        '      lambda: torch.lerp(True, f), lambda: torch.lerp(2, f, 0.5), lambda: torch.lerp(f, f, 0.5))'),
    # cross of bools: no kernel (after the shape checks; a mismatched other's dtype is the kernel's error)
    "cross_of_bools": TRIES + (
        'b = torch.tensor([True, False, True])\n'
        'f = torch.ones(3)\n'
        'tries(lambda: torch.cross(b, f, dim=0), lambda: torch.cross(f, b, dim=0), lambda: torch.linalg.cross(b, b),\n'
        '      lambda: torch.cross(torch.ones(2, dtype=torch.bool), torch.ones(2, dtype=torch.bool), dim=0))'),
    # x.new_tensor takes data alone by position (or as data=), its options by keyword only
    "new_tensor_arguments": TRIES + (
        'b = torch.tensor([1, 2])\n'
        'tries(lambda: b.new_tensor(), lambda: b.new_tensor(2, 3), lambda: b.new_tensor((2,), 1.5),\n'
        '      lambda: b.new_tensor(data=[1]), lambda: b.new_tensor([1.5], device="cpu"),\n'
        '      lambda: b.new_tensor([1.], pin_memory=False), lambda: b.new_tensor([1], foo=1))'),
    # x.unique(0) is sorted=0, which _unique2 / unique_dim refuse (bools only); nanmedian(keepdim=True) wants a dim
    "unique_flags_and_nanmedian_without_dim": TRIES + (
        'a = torch.tensor([3, 1, 3])\n'
        'tries(lambda: a.unique(0), lambda: a.unique(True, 1), lambda: a.unique(dim=0, sorted=1),\n'
        '      lambda: torch.unique(a, 0), lambda: a.unique(True, True, True, 0), lambda: a.nanmedian(keepdim=True),\n'
        '      lambda: torch.nanmedian(a, keepdim=True), lambda: a.float().nanmedian(dtype=torch.float64))'),
    # tensordot with an int dims: at most either tensor's dims; contracted dims named as given (a's last is -1)
    "tensordot_int_dims_errors": TRIES + (
        'a = torch.ones(2, 3)\n'
        'tries(lambda: torch.tensordot(a, a, 1), lambda: torch.tensordot(a, a, ([-1], [-2])),\n'
        '      lambda: torch.tensordot(a, torch.tensor(2.), 1), lambda: torch.tensordot(a.long(), torch.tensor(2.), 1),\n'
        '      lambda: torch.tensordot(a, a, 3), lambda: torch.tensordot(a, a.t(), 1))'),
    # expand's error names a bool tensor CPUBoolType, as PyTorch's toString()
    "expand_error_of_a_bool_tensor": TRIES + (
        'tries(lambda: torch.ones(3, dtype=torch.bool).expand(()), lambda: torch.ones(3).expand_as(torch.tensor(2.)),\n'
        '      lambda: torch.ones(3, dtype=torch.bool).expand_as(torch.tensor(2.)))'),
    # index_select of a 0-d tensor: the index's size is checked before its dtype
    "index_select_of_a_0d_tensor": TRIES + (
        'a = torch.tensor(2.)\n'
        'tries(lambda: a.index_select(0, torch.ones(3)), lambda: a.index_select(0, torch.ones(1)),\n'
        '      lambda: a.index_select(0, torch.ones(3, dtype=torch.bool)), lambda: a.index_select(0, torch.tensor([0])))'),
    # a numpy bool given where an op takes a number is read as a float (1.0), so it promotes ints and bools and is
    # no bool for sub's check; bool_tensor - ndarray is left to numpy (a tensor by __array_wrap__)
    "numpy_bool_as_a_number": TRIES + (
        'import numpy as np\n'
        't = torch.tensor([3, -7])\n'
        'b = torch.tensor([True, False])\n'
        'nb = np.bool_(True)\n'
        'tries(lambda: t + nb, lambda: nb * t, lambda: t - nb, lambda: b.add(nb), lambda: b - nb, lambda: b & nb,\n'
        '      lambda: t.add(1, alpha=nb), lambda: t.clamp(min=nb), lambda: torch.where(b, nb, 0), lambda: t.pow(nb),\n'
        '      lambda: torch.mul(nb, t), lambda: torch.mul(np.float32(2), t), lambda: t.clone().mul_(nb),\n'
        '      lambda: t.masked_fill(t > 0, nb), lambda: t == nb, lambda: b - np.array([1, 2]),\n'
        '      lambda: b - np.array(2.0))'),
    # torch.Size takes any one-element integer tensor as a size (not only a 0-d one); numpy's classes are named
    # with their module in its error
    "size_of_one_element_tensors": TRIES + (
        'import numpy as np\n'
        'tries(lambda: torch.Size([torch.tensor([2])]), lambda: torch.Size([torch.tensor([[2]]), 3]),\n'
        '      lambda: torch.Size([torch.tensor([2.])]), lambda: torch.Size([torch.tensor([2, 3])]),\n'
        '      lambda: torch.Size([torch.tensor(True)]), lambda: torch.Size([np.array([2])]),\n'
        '      lambda: torch.Size([np.array(2)]), lambda: torch.Size([np.float32(2)]))'),
    # the random in-place ops: autograd's leaf check first, then the numbers (printed as C++ prints a double), then
    # the dtype (uniform_: the dtype before the numbers); geometric_ has no bool kernel
    "random_inplace_check_order": TRIES + (
        'for base in ["torch.tensor([1.5, -2.0], requires_grad=True)", "torch.tensor([1, 2])", "torch.tensor([True])"]:\n'
        '    for op in ["exponential_(-1)", "geometric_(1.0)", "geometric_(0.5)", "cauchy_(0, 0)", "log_normal_(0, 0)",\n'
        '               "uniform_(2, 1)", "normal_(0, -1)", "bernoulli_(2.0)", "random_(5, 1)"]:\n'
        '        x = eval(base)\n'
        '        tries(lambda: eval("x." + op).shape)'),
    # view(dtype) of larger elements: the last dim's stride is checked before the other dims'
    "view_as_a_larger_dtype_check_order": TRIES + (
        'x = torch.arange(12.).reshape(3, 4)\n'
        'tries(lambda: torch.arange(6.).reshape(2, 3).t().view(torch.float64), lambda: x[:, ::2].view(torch.float64),\n'
        '      lambda: x[:, 1::2].view(torch.float64), lambda: x[:, :3].view(torch.int64),\n'
        '      lambda: torch.arange(12.).reshape(4, 3)[:, :2].view(torch.float64), lambda: x[::3].view(torch.float64))'),
}


@pytest.mark.parametrize("name", SNIPPETS)
def test_snippet(name):
    code = SNIPPETS[name]
    t, e = run_both(T, E, code)
    assert same(t, e), f"\n{code}\n--- torch\n{t.summary()}--- engine\n{e.summary()}"
