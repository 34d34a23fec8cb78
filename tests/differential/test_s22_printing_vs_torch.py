"""What print shows, against real PyTorch: torch.finfo / torch.iinfo as objects (dir, copying), subclasses of Tensor
(made from data, as_subclass, their own __repr__ under str), grad_fn chains printed through next_functions
(trapezoid's inner nodes), values of halves, and argument errors met on the way. Printed text, warnings and the final
error must be the same."""
import pytest

T = pytest.importorskip("torch", reason="differential tests need real PyTorch (pip install torch==2.13.0)")
from .harness import TRIES, load_engine, run_both, same  # noqa: E402

E = load_engine()

SNIPPETS = {
    # dir() of torch.finfo / torch.iinfo lists PyTorch's names only (no engine helpers, no __module__ / __slots__)
    "finfo_iinfo_dir": (
        'print(dir(torch.finfo(torch.float32)))\n'
        'print(dir(torch.iinfo(torch.int8)))\n'
        'print(torch.finfo(torch.float16), torch.iinfo(torch.uint8))'),
    # torch.finfo / torch.iinfo cannot be pickled or copied: PyTorch's TypeError, not a complaint about read-only fields
    "finfo_iinfo_copy_refused": (
        TRIES +
        'import copy, pickle\n'
        'for o in (torch.finfo(torch.float16), torch.iinfo(torch.int32)):\n'
        '    tries(lambda: copy.copy(o), lambda: copy.deepcopy([o]), lambda: pickle.dumps(o), lambda: o.__reduce__())'),
    # a subclass of torch.Tensor made from data (the legacy constructor's arguments) prints under its class name
    "tensor_subclass_made_from_data": (
        TRIES +
        'class My(torch.Tensor):\n'
        '    pass\n'
        'x = My([1., 2.])\n'
        'tries(lambda: x, lambda: My(), lambda: My([[1, 2]]), lambda: My(torch.ones(2)), lambda: My(2, 3).shape,\n'
        '      lambda: x.requires_grad_(), lambda: [x], lambda: My([1.5], dtype=torch.float64), lambda: x.tolist())'),
    # t.as_subclass(cls): an alias of t (AliasBackward0, same memory) printed under cls's name; PyTorch's errors
    "as_subclass": (
        TRIES +
        'class My(torch.Tensor):\n'
        '    pass\n'
        'x = torch.ones(2, requires_grad=True)\n'
        'y = x.as_subclass(My)\n'
        'tries(lambda: y, lambda: y._base is x, lambda: y.grad_fn.next_functions, lambda: torch.arange(3).as_subclass(My),\n'
        '      lambda: x.as_subclass(torch.Tensor), lambda: x.as_subclass(int), lambda: x.as_subclass(5),\n'
        '      lambda: x.as_subclass())\n'
        'with torch.no_grad():\n'
        '    w = x.as_subclass(My)\n'
        'print(w, w._base is x)'),
    # str() and print() of a subclass (of Tensor or Parameter) with its own __repr__ show that __repr__
    "subclass_repr_used_by_str": (
        TRIES +
        'class P(torch.nn.Parameter):\n'
        '    def __repr__(self):\n'
        '        return "P!" + super().__repr__()\n'
        'p = P(torch.ones(1))\n'
        'tries(lambda: p, lambda: str(p), lambda: f"{p}", lambda: "%s" % p, lambda: torch.nn.Parameter.__str__ is object.__str__,\n'
        '      lambda: torch.Tensor.__str__ is object.__str__, lambda: str(torch.ones(1)))'),
    # an uninitialized parameter or buffer prints as <UninitializedParameter>, but format() / f-strings of it are
    # PyTorch's ValueError naming its class (as its methods' errors do)
    "uninitialized_format_refused": (
        TRIES +
        'p = torch.nn.UninitializedParameter(); b = torch.nn.UninitializedBuffer()\n'
        'tries(lambda: p, lambda: str(b), lambda: f"{p}", lambda: f"{b}", lambda: format(p, ".2f"), lambda: "%s" % b,\n'
        '      lambda: b.numel(), lambda: p.dim())'),
    # trapezoid's (y[0] + y[-1]) * 0.5 is a Scalar product in PyTorch: MulBackward1 among its next_functions
    "trapezoid_inner_nodes": (
        'y = torch.tensor([1., 2., 4.], requires_grad=True)\n'
        't = torch.trapz(y)\n'
        'print(t, t.grad_fn.next_functions[0][0].next_functions)'),
    # a half times a number through a Scalar product (trapezoid's dx): the number taken as a float, not a half
    "half_scalar_product": (
        'y = torch.tensor([[1., 2., 4.], [3., 5., 9.]], dtype=torch.float16, requires_grad=True)\n'
        't = torch.trapezoid(y, dx=0.3)\n'
        'print(t)\n'
        't.sum().backward()\n'
        'print(y.grad)'),
    # trapz / trapezoid take x as a tensor and dx (a number) by keyword only; None, bools and 0-d inputs refused
    "trapezoid_arguments": (
        TRIES +
        'y = torch.tensor([1., 2., 4.]); x = torch.tensor([0., 1., 3.])\n'
        'for fn in (torch.trapz, torch.trapezoid):\n'
        '    tries(lambda: fn(y, dx=None), lambda: fn(y, 0.5), lambda: fn(y, x=None), lambda: fn(y, dim=None),\n'
        '          lambda: fn(y, x, dx=1), lambda: fn(y, x, x=x), lambda: fn(y, dx=True), lambda: fn(torch.tensor(1.)),\n'
        '          lambda: fn(y, dim=1), lambda: fn(y, x, dim=0), lambda: fn(y, dim=0, dx=0.5))'),
    # trapezoid with 1-d sample points x integrates along dim (x laid along it, broadcast over y's other dims)
    "trapezoid_1d_x_along_dim": (
        TRIES +
        'y = torch.tensor([[1., 2.], [3., 5.], [4., 7.]], requires_grad=True)\n'
        'tries(lambda: torch.trapezoid(y, torch.tensor([1., 3., 4.]), dim=0),\n'
        '      lambda: torch.trapezoid(y, torch.tensor([1., 3.]), dim=-2), lambda: torch.trapezoid(y, torch.tensor([1., 3.])))'),
}


@pytest.mark.parametrize("name", SNIPPETS)
def test_snippet(name):
    code = SNIPPETS[name]
    t, e = run_both(T, E, code)
    assert same(t, e), f"\n{code}\n--- torch\n{t.summary()}--- engine\n{e.summary()}"
