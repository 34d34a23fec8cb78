"""Learners' mistakes in notebook-style code against real PyTorch, and what PyTorch says or does back: .numpy() and
np.array() of a tensor requiring grad (refused only in grad mode: under no_grad, in a custom Function's forward, they
work), Python's types as a reduction's dtype (`x.sum(dtype=float)`), an int where PyTorch's parser takes only a bool
(`x.max(1, 1)`, `x.sum(0, 1)`) or more arguments than any signature takes, x.cuda() / x.cpu() / x.size() / x.byte()
and torch.normal given wrong arguments, F.gelu's approximation by position, the old Variable(...) mistyped, how
many names a tensor's dir() lists (Python's "Did you mean" depends on it), and the warnings of a learner's loop with
their counts (each time, not once per process). Printed text, warnings and the final error must be the same."""
import pytest

T = pytest.importorskip("torch", reason="differential tests need real PyTorch (pip install torch==2.13.0)")
from .harness import TRIES, load_engine, run_both, same  # noqa: E402

E = load_engine()

SNIPPETS = {
    # x.numpy() / np.array(x) of a tensor requiring grad: PyTorch refuses them only in grad mode, so plotting code
    # under no_grad (or inference_mode) gets the numbers; outside, the error as before
    "numpy_of_a_tensor_requiring_grad_under_no_grad": (
        'import numpy as np\n'
        'x = torch.tensor([1., 2.], requires_grad=True); s = torch.tensor(2., requires_grad=True)\n'
        'with torch.no_grad():\n'
        '    tries(lambda: x.numpy(), lambda: np.array(x), lambda: np.asarray(x * 2), lambda: np.float32(s),\n'
        '          lambda: s.numpy(), lambda: (x * 2).numpy())\n'
        'with torch.inference_mode():\n'
        '    tries(lambda: x.numpy())\n'
        'with torch.set_grad_enabled(False):\n'
        '    tries(lambda: np.array(x))\n'
        'tries(lambda: x.numpy(), lambda: np.array(x), lambda: np.float32(s), lambda: x.numpy(force=True))'),
    # a custom Function's forward runs without grad mode: its input's numpy() works there
    "numpy_inside_a_custom_functions_forward": (
        'import numpy as np\n'
        'class NpExp(torch.autograd.Function):\n'
        '    @staticmethod\n'
        '    def forward(ctx, x):\n'
        '        y = torch.from_numpy(np.exp(x.numpy()))\n'
        '        ctx.save_for_backward(y)\n'
        '        return y\n'
        '    @staticmethod\n'
        '    def backward(ctx, g):\n'
        '        y, = ctx.saved_tensors\n'
        '        return g * y\n'
        'x = torch.tensor([0., 1.], requires_grad=True)\n'
        'y = NpExp.apply(x); print(y, y.grad_fn.__class__.__name__)\n'
        'y.sum().backward(); print(x.grad)'),
    # Python's float / int / bool name a dtype wherever PyTorch's parser takes one: the reductions' dtype= too, and
    # a module's .to()
    "python_types_as_the_dtype_of_reductions": (
        'x = torch.tensor([[1., 2.], [3., 4.]])\n'
        'tries(lambda: x.sum(dtype=float), lambda: x.mean(1, dtype=float), lambda: x.cumsum(0, dtype=int),\n'
        '      lambda: x.prod(dtype=int), lambda: x.nansum(dtype=bool), lambda: torch.sum(x, 0, dtype=float),\n'
        '      lambda: torch.mean(x, dtype=int), lambda: x.cumprod(dim=1, dtype=float), lambda: x.sum(dtype=str),\n'
        '      lambda: x.type(dtype=float), lambda: x.softmax(1, dtype=float), lambda: x.mean(dtype="float64"))\n'
        'm = torch.nn.Linear(2, 1)\n'
        'tries(lambda: m.to(dtype=float).weight.dtype, lambda: m.to(int), lambda: m.to(dtype=bool),\n'
        '      lambda: m.to("cpu", float).bias.dtype, lambda: m.to(str))'),
    # an int where every signature takes a bool (keepdim, descending, largest...): PyTorch's parser refuses it, as
    # it refuses more positional arguments than any signature takes
    "an_int_where_only_a_bool_goes": (
        'x = torch.arange(6.).view(2, 3)\n'
        'tries(lambda: x.max(1, 2), lambda: x.min(1, 1), lambda: x.sum(1, 1), lambda: x.mean(1, 0),\n'
        '      lambda: x.sort(0, 1), lambda: x.topk(1, 1, 1), lambda: x.argmax(1, 1), lambda: x.all(1, 1),\n'
        '      lambda: x.std(1, 1), lambda: x.median(1, 1), lambda: x.logsumexp(1, 1), lambda: x.amax(1, 1),\n'
        '      lambda: x.kthvalue(1, 1, 1), lambda: x.select(0, 1, 1), lambda: x.max(1, keepdim=1),\n'
        '      lambda: torch.max(x, 1, 1), lambda: x.max(1, True), lambda: x.sum(0, False))'),
    # x.cuda(...) reads its device before it looks for CUDA; x.cpu() takes no positional argument
    "cuda_and_cpu_given_wrong_arguments": (
        'x = torch.ones(2)\n'
        'tries(lambda: x.cuda("x"), lambda: x.cuda("cpu"), lambda: x.cuda("cuda:1"),\n'
        '      lambda: x.cuda(torch.device("cpu")),\n'
        '      lambda: x.cuda(1.5), lambda: x.cuda(-1), lambda: x.cuda(None), lambda: x.cuda(0, True),\n'
        '      lambda: x.cuda(0, 1), lambda: x.cuda(0, True, 1), lambda: x.cuda(device=2), lambda: x.cuda("mps"),\n'
        '      lambda: x.cuda(non_blocking=True), lambda: x.cpu(1), lambda: x.cpu(memory_format=1),\n'
        '      lambda: x.cpu(memory_format=torch.contiguous_format))'),
    # size, stride, the casts PyTorch's parser checks: its words for too many or wrong arguments
    "size_stride_and_casts_given_wrong_arguments": (
        'x = torch.ones(2, 3)\n'
        'tries(lambda: x.size(0, 1), lambda: x.size(d=0), lambda: x.size(dim=1), lambda: x.size(None),\n'
        '      lambda: x.size(0.),\n'
        '      lambda: x.stride(0, 1), lambda: x.stride(dim=0), lambda: x.byte(1), lambda: x.char(1.0),\n'
        '      lambda: x.short(True), lambda: x.byte(memory_format=1), lambda: x.logical_and(1, 1),\n'
        '      lambda: x.logical_or(x, x), lambda: x.vdot(1.0), lambda: x.broadcast_to(2, 2, 3).shape,\n'
        '      lambda: x.broadcast_to(size=(2, 2, 3)).shape, lambda: torch.broadcast_to(x, 2, 3),\n'
        '      lambda: torch.broadcast_to(x, 1.0))'),
    # torch.normal called as numpy's (a size by keyword, an int size, no size): PyTorch's parser error naming the
    # keywords given; a 0-d tensor is a number beside a size
    "normal_given_numpys_arguments": (
        'm = torch.zeros(2); s = torch.ones(2)\n'
        'tries(lambda: torch.normal(0, 1, size=3), lambda: torch.normal(0, 1), lambda: torch.normal(0., 1., 3),\n'
        '      lambda: torch.normal(m, s, size=(2,)), lambda: torch.normal(0., 1., size=(2,), foo=1),\n'
        '      lambda: torch.normal(torch.tensor(0.), 1., (2,)),\n'
        '      lambda: torch.normal(0., torch.tensor(2.), size=(2,)),\n'
        '      lambda: torch.normal(mean=0., std=1., size=(3,)), lambda: torch.normal(m, 2.), lambda: torch.normal(),\n'
        '      lambda: torch.normal("a", 1.), lambda: torch.normal(0., -1., (2,)))'),
    # F.gelu's approximate is keyword-only: F.gelu(x, "tanh") is refused
    "gelu_given_its_approximation_by_position": (
        'import torch.nn.functional as F\n'
        'x = torch.tensor([-1., 0.5, 2.])\n'
        'tries(lambda: F.gelu(x, "tanh"), lambda: F.gelu(x, "none"), lambda: F.gelu(x, approximate="tanh"),\n'
        '      lambda: torch.nn.GELU("tanh")(x), lambda: F.gelu(x, approximate=True))'),
    # the pre-0.4 Variable(...) as old tutorials call it, mistyped: Python's words for its keyword arguments, as
    # PyTorch's legacy constructor parses them
    "variable_given_wrong_keywords": (
        'from torch.autograd import Variable\n'
        'x = torch.ones(2)\n'
        'tries(lambda: Variable(x, requires_grads=True), lambda: Variable(x, foo=1, bar=2),\n'
        '      lambda: Variable(x, False, False, None, None, 1), lambda: Variable(x, data=x),\n'
        '      lambda: Variable(x, True),\n'
        '      lambda: Variable(x, volatile=True), lambda: Variable(x, requires_grad=True, volatile=True),\n'
        '      lambda: Variable(data=x, requires_grad=True), lambda: Variable())'),
    # a mistyped tensor attribute gets Python's "Did you mean" only while dir() lists fewer than 750 names: PyTorch's
    # tensors list 749 (and __slotnames__ once copy.copy has cached it on the class, which ends the suggestions), so
    # the engine's dir() must list PyTorch's names and none of its own
    "tensors_list_as_many_names_as_pytorchs": (
        'x = torch.ones(2, requires_grad=True); y = x * 2; p = torch.nn.Parameter(torch.ones(1))\n'
        'print([len([n for n in dir(t) if n != "__slotnames__"]) for t in (x, y, p, y.detach(), x[0])])'),
    # the warnings of a learner's loop: reading a non-leaf's .grad, torch.tensor(t) and softmax without a dim warn
    # each time, as many times as they run
    "warnings_of_a_loop_each_time": (
        'import torch.nn.functional as F\n'
        'w = torch.tensor([1., 2.], requires_grad=True)\n'
        'for i in range(2):\n'
        '    h = w * 2\n'
        '    loss = F.softmax(h).sum() + h.sum()\n'
        '    loss.backward()\n'
        '    print(h.grad, w.grad, torch.tensor(w), torch.tensor([w[0], w[1]]))'),
    # the learners' classic slips in one notebook cell: grad of None, .grad.zero_() before any backward, `with
    # torch.no_grad:` without the call, backward twice, comparisons with None and lists
    "classic_slips_in_one_cell": (
        'x = torch.tensor([1., 2.], requires_grad=True)\n'
        'tries(lambda: x.grad.zero_(), lambda: x == None, lambda: x == [1., 2.], lambda: x < [3, 0])\n'
        'try:\n'
        '    with torch.no_grad:\n'
        '        pass\n'
        'except Exception as e:\n'
        '    print(type(e).__name__, e)\n'
        'y = (x * x).sum(); y.backward()\n'
        'tries(lambda: y.backward(), lambda: (x * 2).backward(), lambda: len(y), lambda: [v for v in y],\n'
        '      lambda: bool(x), lambda: torch.arange(3).requires_grad_(), lambda: torch.tensor(2, 3))'),
}


@pytest.mark.parametrize("name", SNIPPETS)
def test_snippet(name):
    code = TRIES + SNIPPETS[name]
    t, e = run_both(T, E, code)
    assert same(t, e), f"\n{code}\n--- torch\n{t.summary()}--- engine\n{e.summary()}"
