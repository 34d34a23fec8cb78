"""Common ops called wrongly, as learners do, against real PyTorch: wrong argument types and counts, unknown keywords,
keywords by the method's name given to the torch.* function. Most of all the functions PyTorch writes in Python
(torch.split, torch.norm, torch.unique, torch.unravel_index, torch.meshgrid, F.pad, F.cross_entropy) take other
parameter names than the tensor methods and hand their arguments to a C++ parser by position; the errors (type and
text) and the results must be the same."""
import pytest

T = pytest.importorskip("torch", reason="differential tests need real PyTorch (pip install torch==2.13.0)")
from .harness import TRIES, load_engine, run_both, same  # noqa: E402

E = load_engine()

_DATA = ('F = torch.nn.functional\n'
         'x = torch.arange(6.).reshape(2, 3)\n'
         'v = torch.tensor([1., 2., 3.])\n'
         'i = torch.tensor([0, 1])\n')

SNIPPETS = {
    # x.matmul with a non-tensor and a numpy keyword: the parser reads `other` before it looks at unknown keywords
    "matmul_method_wrong_other_and_keyword": (
        'tries(lambda: x.matmul((1, 2), axis=1), lambda: x.matmul(2), lambda: x.matmul(),\n'
        '      lambda: x.matmul(x.t(), x), lambda: x.matmul(x.t(), foo=1), lambda: x.matmul(other=x.t()))'),
    # torch.split is Python with (tensor, split_size_or_sections, dim): split_size= is the method's name only
    "torch_split_takes_its_own_keyword_names": (
        'tries(lambda: torch.split(x, split_size=1), lambda: x.split(split_size=1),\n'
        '      lambda: torch.split(tensor=x, split_size_or_sections=1, dim=1), lambda: torch.split(x, 1, axis=1),\n'
        '      lambda: x.split(split_size_or_sections=1), lambda: torch.split(2, 1), lambda: torch.split(x, "a"))'),
    # torch.norm is Python too: input= and out= (x.norm takes neither), a sixth positional argument (dtype)
    "torch_norm_input_out_and_six_arguments": (
        'tries(lambda: torch.norm(input=x), lambda: torch.norm(x, 2, 1, False, None, torch.float64),\n'
        '      lambda: torch.norm(x, out=torch.empty(2)), lambda: x.norm(input=x),\n'
        '      lambda: torch.norm(x, dim=1, out=torch.empty(2, dtype=torch.float64)),\n'
        '      lambda: torch.linalg.vector_norm(x, out=torch.empty(())))'),
    # torch.norm of a list fails at input.layout; dim='a' with p 'fro' is the vector norm's (len('a') <= 2), and so
    # is a keepdim that is not a bool (given to linalg_vector_norm by position)
    "torch_norm_of_a_list_a_string_dim_an_int_keepdim": (
        'tries(lambda: torch.norm([1., 2.]), lambda: torch.norm(x, dim="a"), lambda: x.norm(p=2, dim="a"),\n'
        '      lambda: x.norm(dim=1.5), lambda: x.norm(2, 1, keepdim="yes"),\n'
        '      lambda: torch.norm(x, p=2, dim=(0, 1), keepdim=1), lambda: x.norm("fro", (0, 1), 1))'),
    # F.normalize's fifth parameter, out (PyTorch divides into it with torch.div's out=)
    "normalize_out_by_position_and_keyword": (
        'tries(lambda: F.normalize(x, 2, 1, 1e-12, torch.empty(2, 3)),\n'
        '      lambda: F.normalize(x, out=torch.empty(2, 3)),\n'
        '      lambda: F.normalize(x, out=torch.empty(2, 3, dtype=torch.long)),\n'
        '      lambda: F.normalize(x.requires_grad_(), out=torch.empty(2, 3)))'),
    # F.cross_entropy / F.nll_loss hand weight, reduction, ignore_index, label_smoothing to the C++ loss by position
    "cross_entropy_wrong_weight_ignore_index_smoothing": (
        'tries(lambda: F.cross_entropy(x, i, "mean"), lambda: F.cross_entropy(x, i, ignore_index=1.5),\n'
        '      lambda: F.nll_loss(x, i, ignore_index=1.5), lambda: F.cross_entropy(x, i, label_smoothing="a"),\n'
        '      lambda: F.cross_entropy(x, i, [1., 2., 3.]), lambda: F.nll_loss(x, i, "sum"))'),
    # an ignore_index given as a numpy int or a 0-d tensor is read as its int
    "cross_entropy_ignore_index_numpy_int_or_tensor": (
        'import numpy as np\n'
        'tries(lambda: F.cross_entropy(x, i, ignore_index=torch.tensor(1)),\n'
        '      lambda: F.cross_entropy(x, i, ignore_index=np.int64(1)),\n'
        '      lambda: F.nll_loss(x.log_softmax(1), i, ignore_index=np.int32(0)))'),
    # F.pad is Python calling torch._C._nn.pad by position: a wrong value names position 4; unknown keywords and
    # too many arguments are Python's own errors about pad()
    "pad_value_by_keyword_and_extra_arguments": (
        'tries(lambda: F.pad(x, (1, 1), value="a"), lambda: F.pad(x, (1, 1), "constant", "a"),\n'
        '      lambda: F.pad(x, pad=[1, 1], foo=1), lambda: F.pad(x, (1, 1), "constant", 0, 5),\n'
        '      lambda: F.pad(input=x, pad=(1, 1), value=-1.), lambda: F.pad([1.], (1, 1)))\n'
        'print(F.pad)'),
    # torch.unique's input is named input (the method's is self) and a non-tensor is its kernel parser's error
    "unique_input_keyword_and_a_list": (
        'tries(lambda: torch.unique(input=x), lambda: torch.unique([1, 2]), lambda: torch.unique([1, 2], dim=0),\n'
        '      lambda: x.unique(input=x), lambda: torch.unique(x, return_counts=True))'),
    # torch.unravel_index wraps any index (PyTorch's floor divisions check no bounds); a non-tensor fails at
    # indices.is_complex()
    "unravel_index_out_of_range_and_not_a_tensor": (
        'tries(lambda: torch.unravel_index(torch.tensor(7), (2, 3)),\n'
        '      lambda: torch.unravel_index(torch.tensor([7, -1, 100, -100]), (2, 3)),\n'
        '      lambda: torch.unravel_index(1.5, (2, 3)), lambda: torch.unravel_index([1], (2, 3)))'),
    # a list among meshgrid's, block_diag's, cartesian_prod's tensors: the TensorList parser's error
    "tensor_lists_with_a_list_in_them": (
        'tries(lambda: torch.meshgrid(v, [1, 2]), lambda: torch.meshgrid([v, 2], indexing="ij"),\n'
        '      lambda: torch.block_diag(x, [1]), lambda: torch.block_diag(1, x), lambda: torch.cartesian_prod(v, [1]))'),
    # linspace / logspace given numpy's or a string dtype: no signature fits (the parser's listing)
    "linspace_logspace_numpy_dtype": (
        'import numpy as np\n'
        'tries(lambda: torch.linspace(0, 1, 3, dtype=np.float32), lambda: torch.linspace(0, 1, 3, dtype="float"),\n'
        '      lambda: torch.logspace(0, 1, 3, dtype=np.float32), lambda: torch.linspace(0, 1, 3, dtype=float))'),
    # pinned: the factories given wrong types and counts (the parser's listings of their signatures)
    "factories_wrong_types_pinned": (
        'tries(lambda: torch.ones((2, 3), (4,)), lambda: torch.full(2, 3), lambda: torch.full((2, 3), [1, 2]),\n'
        '      lambda: torch.eye(2, 3, 4), lambda: torch.linspace(0, 1, 5.0), lambda: torch.arange(0, 1, 0.1, 2),\n'
        '      lambda: torch.randn(2, 3, seed=0), lambda: torch.tensor([1, 2], torch.float32))'),
    # pinned: shape methods given wrong dims and sizes
    "shape_methods_wrong_arguments_pinned": (
        'tries(lambda: x.view(torch.int64, 2), lambda: x.permute([1, 0], 2), lambda: x.expand((2, 3), 1),\n'
        '      lambda: x.repeat((2, 1), 1), lambda: x.transpose(dim0=1), lambda: x.squeeze(0, 1),\n'
        '      lambda: torch.transpose(x, dim0=0, dim1=1, dim2=2), lambda: x.topk(1, 1, 1, 1, 1))'),
}


@pytest.mark.parametrize("name", SNIPPETS)
def test_snippet(name):
    code = TRIES + _DATA + SNIPPETS[name]
    t, e = run_both(T, E, code)
    assert same(t, e), f"\n{code}\n--- torch\n{t.summary()}--- engine\n{e.summary()}"
