"""PyTorch's argument parser on arguments given where an op takes an int (dims, sizes, offsets, split sizes, counts):
a bool, a float, a float tensor or a tensor of more than 0 dims is refused (an int64_t takes a 0-d integer tensor and
a numpy int; a SymInt or an int list's single int, a one-element integer tensor too), by position as by keyword,
against real PyTorch. Printed text, warnings and the final error must be the same."""
import pytest

T = pytest.importorskip("torch", reason="differential tests need real PyTorch (pip install torch==2.13.0)")
from .harness import TRIES, load_engine, run_both, same  # noqa: E402

E = load_engine()

_SETUP = (TRIES +
          'import numpy as np\n'
          'x = torch.arange(24.).reshape(2, 3, 4)\n'
          'm = torch.arange(9.).reshape(3, 3)\n'
          'i = torch.zeros(2, 3, 4, dtype=torch.long)\n'
          'v = torch.arange(4.)\n')

SNIPPETS = {
    # the ops the parser knows, given positionally what it refuses where they take an int or a bool (checked before
    # the op runs when an argument is not an int), and what it takes there
    "positional_non_ints_refused": (
        _SETUP +
        'tries(lambda: x.tril(1.0), lambda: x.triu(True), lambda: x.transpose(True, 1), lambda: x.transpose(0, 1.0),\n'
        '      lambda: x.softmax(torch.tensor([1])), lambda: x.cumsum(torch.tensor([1])), lambda: x.sum(1, 1.0),\n'
        '      lambda: x.sum(1, np.int64(1)), lambda: torch.cat([x, x], torch.tensor([1])), lambda: x.view(2, 3.0, 4),\n'
        '      lambda: x.unsqueeze(np.float64(1.0)), lambda: x.select(0, True), lambda: x.chunk(2, 1.0),\n'
        '      lambda: x.flatten(0, True), lambda: x.argmax(1.0), lambda: x.topk(True), lambda: x.gather(1.0, i),\n'
        '      lambda: torch.transpose(x, 0, True), lambda: torch.softmax(x, torch.tensor([1])))\n'
        'tries(lambda: x.sum(np.int64(1)), lambda: x.transpose(torch.tensor(0), 1), lambda: x.sum(dim=torch.tensor([1])),\n'
        '      lambda: x.sum(torch.tensor([1])), lambda: x.tril(torch.tensor([1])), lambda: x.topk(torch.tensor([1])),\n'
        '      lambda: x.sum(1, True), lambda: x.view(np.int64(2), 12))'),
    # ops that had no signatures for the parser (diagonal, rot90, tensor_split, in-place forms, torch.* forms...)
    "more_ops_signatures": (
        _SETUP +
        'tries(lambda: x.diagonal(True), lambda: x.diagonal(0, 1.0), lambda: x.rot90(1.0),\n'
        '      lambda: x.rot90(1, (1.0, 1)), lambda: x.tensor_split(2, True), lambda: x.tensor_split(1.0),\n'
        '      lambda: x.cumsum_(1.0), lambda: x.squeeze_(1.0), lambda: x.unsqueeze_(True), lambda: x.transpose_(0, 1.0),\n'
        '      lambda: x.tril_(1.0), lambda: x.hsplit(1.0), lambda: x.diag_embed(True), lambda: x.take_along_dim(i, 1.0),\n'
        '      lambda: x.as_strided((2, 2), (1, 1), 1.0), lambda: x.quantile(0.5, True), lambda: x.size(1.0),\n'
        '      lambda: x.fill_diagonal_(1., 1.0), lambda: x.resize_(2, 1.0),\n'
        '      lambda: torch.narrow(x, 0, 0, True), lambda: torch.movedim(x, 0, 1.0), lambda: torch.swapaxes(x, 0, True),\n'
        '      lambda: torch.diff(x, True), lambda: torch.histc(x, 1.0), lambda: torch.scatter(x, True, i, 1.),\n'
        '      lambda: torch.diagonal(x, 1.0), lambda: torch.tril_indices(3, 3, 1.0), lambda: torch.argsort(x, 1.0),\n'
        '      lambda: torch.repeat_interleave(x, True), lambda: torch.tensor_split(x, 2, 1.0),\n'
        '      lambda: torch.matrix_power(m, 1.0), lambda: torch.index_copy(x, True, i[0, 0, :1], x[:1]))\n'
        'tries(lambda: x.tril_(torch.tensor([1])), lambda: x.resize_(torch.tensor(1), 2),\n'
        '      lambda: torch.take_along_dim(x, i, np.int64(1)))'),
    # Tensor.split is Python in PyTorch: an int (a bool too) or a one-element tensor goes to split's parser, anything
    # else to split_with_sizes's
    "split_as_pytorch_tensor_split": (
        _SETUP +
        'tries(lambda: x.split(True), lambda: x.split(1, True), lambda: torch.split(x, 1, 1.0), lambda: x.split(1, dim=1.0),\n'
        '      lambda: x.split([1, 1], 1.0), lambda: x.split(np.int64(1)), lambda: x.split(np.float64(1.0)),\n'
        '      lambda: x.split(1, torch.tensor([1])))\n'
        'tries(lambda: x.split(torch.tensor(1.)), lambda: x.split(torch.tensor([1])), lambda: x.split(1, np.int64(1)),\n'
        '      lambda: x.chunk(np.int64(1)), lambda: torch.chunk(x, np.int64(2), 1))'),
    # addmm / addmv / addr / baddbmm: beta and alpha are Numbers (a 0-d tensor not needing grad stands for one)
    "addmm_family_scalars": (
        TRIES +
        'a = torch.ones(2, 2)\n'
        'b = torch.ones(1, 2, 2)\n'
        'tries(lambda: torch.addmm(a, a, a, beta=torch.tensor([2.])), lambda: torch.addmv(a[0], a, a[0], beta=torch.tensor([2.])),\n'
        '      lambda: torch.addr(a, a[0], a[0], alpha=torch.tensor([2.])), lambda: torch.baddbmm(b, b, b, beta=torch.tensor([2.])),\n'
        '      lambda: a.addmv(a, a[0], beta=torch.tensor([2.])), lambda: a.addr(a[0], a[0], alpha=torch.tensor([2.])),\n'
        '      lambda: torch.addmm(a, a, a, beta="x"), lambda: torch.addmm(a, a, a, beta=torch.tensor(2.)))'),
    # what the parser takes, the ops take too: numpy ints, 0-d integer tensors (one-element ones for a SymInt), and
    # their own errors for tensors of the wrong kind
    "ops_take_what_the_parser_takes": (
        _SETUP +
        'tries(lambda: x.narrow(0, np.int64(1), 1), lambda: x.narrow(0, 0, np.int64(1)), lambda: x.narrow(0, torch.tensor(1.), 1),\n'
        '      lambda: x.narrow(0, torch.tensor([1]), 1), lambda: x.count_nonzero(np.int64(1)), lambda: v.diag(torch.tensor(1)),\n'
        '      lambda: x.kthvalue(torch.tensor([1])), lambda: x.roll(torch.tensor([1]), 0), lambda: m.matrix_power(np.int64(2)),\n'
        '      lambda: m.matrix_power(torch.tensor(2)), lambda: torch.matrix_power(m, torch.tensor(2)),\n'
        '      lambda: x.tensor_split(torch.tensor(1.)), lambda: x.repeat_interleave(torch.tensor(1.)),\n'
        '      lambda: torch.repeat_interleave(torch.tensor([1., 2.])), lambda: torch.multinomial(v, torch.tensor([1])),\n'
        '      lambda: torch.nn.functional.one_hot(i, torch.tensor(3)).shape, lambda: torch.argsort(x, torch.tensor([1])))'),
    # ops PyTorch writes in Python, passing the int on to a builtin: its parser's errors
    "python_ops_pass_ints_to_builtins": (
        _SETUP +
        'tries(lambda: x.unflatten(1.0, (3, 1)), lambda: x.unflatten(torch.tensor([1]), (3, 1)),\n'
        '      lambda: torch.unflatten(x, True, (3, 1)), lambda: x.unique(dim=1.0), lambda: x.unique(dim=True),\n'
        '      lambda: torch.unique_consecutive(x, dim=torch.tensor([1])), lambda: x.norm(2, 1.0),\n'
        '      lambda: torch.norm(x, 2, np.float64(1.0)), lambda: torch.nn.functional.normalize(x, 2., torch.tensor(1.)))\n'
        'tries(lambda: x.unflatten(np.int64(1), (3, 1)), lambda: x.unique(dim=np.int64(1)), lambda: x.norm(2, np.int64(1)),\n'
        '      lambda: x.norm(2, torch.tensor([1])))'),
}


@pytest.mark.parametrize("name", SNIPPETS)
def test_snippet(name):
    code = SNIPPETS[name]
    t, e = run_both(T, E, code)
    assert same(t, e), f"\n{code}\n--- torch\n{t.summary()}--- engine\n{e.summary()}"
