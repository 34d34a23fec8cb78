"""Differences found by session 45's probes against real PyTorch. Printed text, warnings and the final error must be
the same."""
import pytest

T = pytest.importorskip("torch", reason="differential tests need real PyTorch (pip install torch==2.13.0)")
from .harness import SHOW, load_engine, run_both, same  # noqa: E402

E = load_engine()

SNIPPETS = {
    # the dtypes the engine names without modelling their tensors: printed, compared, promoted and described as
    # PyTorch's (nanoGPT picks one from a table of them)
    "unmodelled_dtypes_named": (
        'ptdtype = {"float32": torch.float32, "bfloat16": torch.bfloat16, "float16": torch.float16}["float32"]\n'
        'print(ptdtype, torch.bfloat16, torch.cfloat, torch.cdouble, torch.chalf, type(torch.bfloat16))\n'
        'print(torch.bfloat16.is_floating_point, torch.bfloat16.itemsize, torch.cfloat.is_complex,\n'
        '      torch.complex64.is_floating_point, torch.bfloat16 == torch.float16, torch.cfloat is torch.complex64)\n'
        'print(torch.finfo(torch.bfloat16), torch.finfo(torch.bfloat16).max)\n'
        'ds = [torch.bool, torch.uint8, torch.int32, torch.int64, torch.float16, torch.bfloat16, torch.float32,\n'
        '      torch.float64, torch.complex32, torch.complex64, torch.complex128]\n'
        'for a in ds:\n'
        '    print([str(torch.promote_types(a, b))[6:] for b in ds])'),
    # bernoulli's checks: p outside [0, 1]; probabilities of an integer or bool type
    "bernoulli_checks": (
        'torch.manual_seed(0)\n'
        'tries(lambda: torch.bernoulli(torch.tensor([0.5]), 2.), lambda: torch.bernoulli(torch.tensor([0.5]), -1.),\n'
        '      lambda: torch.bernoulli(torch.tensor([0.5]), 1.), lambda: torch.bernoulli(torch.tensor([1, 0])),\n'
        '      lambda: torch.bernoulli(torch.tensor([True])), lambda: torch.bernoulli(torch.tensor([1], dtype=torch.uint8)),\n'
        '      lambda: torch.bernoulli(torch.tensor([0.25, 1.])))'),
    # F.linear with a 1-d weight and a bias of one row goes to addmm, as a batch: its error
    "linear_of_a_one_dim_weight": (
        'import torch.nn.functional as F\n'
        'tries(lambda: F.linear(torch.ones(3), torch.ones(3), torch.ones(2)),\n'
        '      lambda: F.linear(torch.ones(3), torch.ones(3), torch.ones(1)),\n'
        '      lambda: F.linear(torch.ones(3), torch.ones(3), torch.ones(())),\n'
        '      lambda: F.linear(torch.ones(6)[::2], torch.ones(3), torch.ones(2)),\n'
        '      lambda: F.linear(torch.ones(3), torch.ones(3, 3)[:, 0], torch.ones(1)),\n'
        '      lambda: F.linear(torch.ones(3), torch.ones(2, 3, requires_grad=True), torch.ones(2)).grad_fn)'),
    # an LSTM's proj_size is checked before the engine says it does not model it
    "lstm_proj_size_checked": (
        'tries(lambda: torch.nn.LSTM(2, 3, proj_size=3), lambda: torch.nn.LSTM(2, 3, proj_size=-1),\n'
        '      lambda: torch.nn.LSTM(2, 3, proj_size=4))'),
    # vmap checks its chunk_size (after randomness)
    "vmap_chunk_size_checked": (
        'from torch.func import vmap\n'
        'tries(lambda: vmap(lambda x: x * 2, chunk_size=0)(torch.ones(3)), lambda: vmap(lambda x: x * 2, chunk_size=-2),\n'
        '      lambda: vmap(lambda x: x * 2, chunk_size=2)(torch.ones(3)),\n'
        '      lambda: vmap(lambda x: x, randomness="x", chunk_size=0))'),
    # printed inside the function of torch.func.grad / vjp / jacrev: PyTorch's GradTrackingTensor wrappers, one per
    # level, around the value as seen outside (its graph there if it has one)
    "printed_inside_func_transforms": (
        'from torch.func import grad, vjp, jacrev\n'
        'def f(x):\n'
        '    y = x ** 2\n'
        '    print(x, y, y.requires_grad, y.grad_fn, f"{x:.2f}", str(x) == repr(x))\n'
        '    return y.sum()\n'
        'grad(f)(torch.tensor(3.))\n'
        'grad(grad(f))(torch.tensor(3.))\n'
        'w = torch.tensor(2., requires_grad=True)\n'
        'grad(lambda x: f(x * w))(torch.tensor(3.))\n'
        'grad(f)(w)\n'
        'def g(x):\n'
        '    print(x, [x * 2], w)\n'
        '    return (x * x).sum()\n'
        'vjp(g, torch.tensor([1., 2.])); jacrev(g)(torch.tensor([1., 2.]))\n'
        'print(grad(g)(torch.tensor([1., 2.])), grad(f)(torch.tensor(1.)))'),
    # the layouts PyTorch names besides strided and sparse_coo (the engine names them too, and refuses them)
    "other_layouts_named": (
        'print(torch.sparse_csr, torch.sparse_csc, torch.sparse_bsr, torch.sparse_bsc, torch._mkldnn, torch.jagged,\n'
        '      type(torch.jagged), torch.sparse_csr == torch.sparse_csr, torch.zeros(2).layout == torch.sparse_csr)\n'
        'print(repr(torch.sparse_bsr), str(torch.sparse_bsr), f"{torch.sparse_bsr}")'),
    # backward() inside any torch.func transform is refused first, whatever it is called on (autograd.grad is not)
    "backward_inside_func_transforms": (
        'from torch.func import grad, jvp, vmap, jacfwd\n'
        'def f(x):\n'
        '    torch.ones(2).sum().backward()\n'
        '    return x.sum()\n'
        'def f2(x):\n'
        '    (x * 2).backward()\n'
        '    return x.sum()\n'
        'def f3(x):\n'
        '    (x * 2).sum().backward(inputs=[])\n'
        '    return x.sum()\n'
        'def f4(x):\n'
        '    w = torch.ones(2, requires_grad=True)\n'
        '    (w * 2).sum().backward()\n'
        '    return (x * w).sum()\n'
        'tries(lambda: grad(f)(torch.ones(2)), lambda: grad(f2)(torch.ones(2)), lambda: grad(f3)(torch.ones(2)),\n'
        '      lambda: jvp(f4, (torch.ones(2),), (torch.ones(2),)), lambda: vmap(f4)(torch.ones(3, 2)),\n'
        '      lambda: jacfwd(f4)(torch.ones(2)))'),
    # the constraints' classes print under torch.distributions.constraints
    "constraint_classes_named_as_torchs": (
        'from torch.distributions import constraints as c\n'
        'print(c.Constraint, type(c.positive), type(c.real), type(c.simplex), c._Dependent, c._DependentProperty, type(c.independent(c.real, 1)))\n'
        'print(type(c.unit_interval), type(c.nonnegative_integer), c.positive, c.independent(c.real, 1), type(c.dependent))'),
    # a generator's clone_state: a new generator in the same state
    "generator_clone_state": (
        'g = torch.Generator().manual_seed(0)\n'
        'torch.rand(3, generator=g)\n'
        'h = g.clone_state()\n'
        'print(type(h), h.initial_seed(), torch.rand(2, generator=g), torch.rand(2, generator=h), torch.randn(3, generator=g).tolist() == torch.randn(3, generator=h).tolist())'),
}


@pytest.mark.parametrize("name", SNIPPETS)
def test_snippet(name):
    code = SHOW + SNIPPETS[name]
    t, e = run_both(T, E, code)
    assert same(t, e), f"\n{code}\n--- torch\n{t.summary()}--- engine\n{e.summary()}"
