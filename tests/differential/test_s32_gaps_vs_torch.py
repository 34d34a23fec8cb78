"""Gaps earlier probing left alone, closed against real PyTorch: numpy arrays counted as one dim where an Ellipsis
spreads, atleast_Nd's parser errors, numpy bools and uint64 numbers read by arange and torch.tensor, a bool tensor
given as a size, copy_'s argument errors; torch.i0 and torch.special.i0 / i0e / i1 / i1e / erfcx / ndtri / log_ndtr
with their nodes, saved tensors and double backward; torch.nextafter, torch.ldexp, torch.frombuffer and
nn.Module.share_memory. Printed text, warnings and the final error must be the same."""
import pytest

T = pytest.importorskip("torch", reason="differential tests need real PyTorch (pip install torch==2.13.0)")
from .harness import SHOW, load_engine, run_both, same  # noqa: E402

E = load_engine()

SNIPPETS = {
    # PyTorch counts every numpy array in an index (a 0-d bool one too, a mask of any rank) as one dim where it
    # checks for too many indices and spreads an Ellipsis (count_specified_dimensions); a tensor counts as it is
    # used (a bool one its ndim), a Python or numpy bool none. Reading and writing alike.
    "numpy_array_index_counts_one_dim_at_an_ellipsis": (
        'import numpy as np\n'
        'x = torch.arange(24.).reshape(2, 3, 4)\n'
        'for i in [np.array(True), np.array(False), np.bool_(True), np.array(1, dtype=np.uint8), np.ones((3, 4), bool),\n'
        '          np.ones((2, 3), bool), np.array([True, False, True]), np.array(2), torch.tensor(True), True]:\n'
        '    tries(lambda: x[..., i].shape, lambda: x[i, ...].shape, lambda: x[0, ..., i].shape,\n'
        '          lambda: x[None, ..., i].shape, lambda: x[..., i, :].shape)\n'
        '    v = torch.zeros(2, 3, 4)\n'
        '    tries(lambda: v.__setitem__((..., i, slice(None)), 1), lambda: v.sum())\n'
        'u = x.clone().requires_grad_()\n'
        'y = u[..., np.array(True), :]\n'
        'show(y)\n'
        'y.sum().backward()\n'
        'print(u.grad.sum(), torch.arange(6.).reshape(2, 3)[..., np.array(True)].shape)\n'
        'tries(lambda: x[np.array(True), ..., 0].shape, lambda: x[np.array(0, dtype=np.uint8), ..., 1:].shape,\n'
        '      lambda: x[None, np.array(True), ..., 0].shape, lambda: x[..., np.ones((3, 4), bool), 1:].shape)'),
    # atleast_1d / 2d / 3d take a tensor or a tuple of tensors (or tensors as separate arguments): anything else is
    # the parser's "invalid combination" error, a non-tensor in the tuple its "expected Tensor as element" error
    "atleast_nd_refuses_non_tensors": (
        'import numpy as np\n'
        'for f in [torch.atleast_1d, torch.atleast_2d, torch.atleast_3d]:\n'
        '    tries(lambda: f(np.ones(2)), lambda: f(3), lambda: f([1]), lambda: f((torch.ones(1), np.ones(2))),\n'
        '          lambda: f(torch.ones(1), np.ones(2)), lambda: f(torch.ones(1), 2.5), lambda: f(),\n'
        '          lambda: [t.shape for t in f(torch.ones(()), torch.ones(2))], lambda: f([torch.ones(2)]),\n'
        '          lambda: f(input=torch.ones(2)), lambda: f(tensors=torch.ones(2)))'),
    # a numpy bool is a Number to arange's parser, read as a double: arange(np.bool_(True)) is tensor([0.])
    "arange_of_numpy_bools": (
        'import numpy as np\n'
        'tries(lambda: torch.arange(np.bool_(True)), lambda: torch.arange(np.bool_(False)), lambda: torch.arange(True),\n'
        '      lambda: torch.arange(0, np.bool_(True)), lambda: torch.arange(np.bool_(False), 3),\n'
        '      lambda: torch.arange(0, 3, np.bool_(True)), lambda: torch.arange(np.bool_(True), dtype=torch.int64),\n'
        '      lambda: torch.arange(np.int64(3)), lambda: torch.arange(np.float32(2.5)), lambda: torch.arange(np.str_("a")))'),
    # torch.tensor infers UInt64 for a numpy uint64 number, then cannot store it ("an integer is required"); with a
    # dtype given it is read; mixed with int64 numbers it is refused by type promotion, with floats it is a float
    "tensor_of_numpy_uint64_numbers": (
        'import numpy as np\n'
        'tries(lambda: torch.tensor(np.uint64(3)), lambda: torch.tensor([np.uint64(3)]), lambda: torch.as_tensor(np.uint64(3)),\n'
        '      lambda: torch.tensor(np.uint64(2 ** 63 + 5)), lambda: torch.tensor(np.uint64(3), dtype=torch.float32),\n'
        '      lambda: torch.tensor([1, np.uint64(3)]), lambda: torch.tensor([1.5, np.uint64(3)]),\n'
        '      lambda: torch.tensor([[np.uint64(1)], [np.uint64(1), np.uint64(2)]]), lambda: torch.tensor([np.int64(3)]),\n'
        '      lambda: torch.tensor(np.uint64(1), dtype=torch.int64), lambda: torch.tensor([True, np.uint64(2)], dtype=torch.int64),\n'
        '      lambda: torch.tensor([np.uint64(2 ** 63 + 1)], dtype=torch.int64), lambda: torch.tensor([2 ** 63 + 1]))'),
    # a bool tensor given as a size passes the parser (it has __index__) but its item is no integer: PyTorch's
    # internal assert "Expected scalar.isIntegral( false)"; a float tensor is refused by the parser
    "bool_tensor_as_a_size": (
        'b = torch.tensor(True)\n'
        'tries(lambda: torch.zeros(b, 2), lambda: torch.zeros((2, torch.tensor(False))), lambda: torch.ones(b),\n'
        '      lambda: torch.empty(b, 2), lambda: torch.full((b,), 1.), lambda: torch.randn(b, 2),\n'
        '      lambda: torch.arange(6).reshape(b, 6), lambda: torch.arange(6).view(b, 6), lambda: torch.ones(2).expand(b, 2),\n'
        '      lambda: torch.ones(3).new_zeros(b), lambda: torch.zeros(torch.tensor(2.), 2), lambda: torch.zeros(torch.tensor(3), 2))'),
    # copy_'s parser has a hidden deprecated overload (bool async), so a call that fits no signature by its count
    # is "received an invalid combination of arguments", while one that fits by count gets the signature's error
    "copy_argument_errors": (
        'x = torch.zeros(3)\n'
        'p = torch.ones(3)\n'
        'tries(lambda: x.copy_(), lambda: x.copy_(src=p), lambda: x.copy_(p, "a"), lambda: x.copy_(p, True),\n'
        '      lambda: x.copy_(p, non_blocking=1), lambda: x.copy_(p, True, 1), lambda: x.copy_(other=p),\n'
        '      lambda: x.copy_(other=p, non_blocking=True), lambda: x.copy_(3), lambda: x.copy_("a"), lambda: x.copy_(p, 1),\n'
        '      lambda: torch.Tensor.copy_(x, p * 2), lambda: x._version)'),
    # torch.i0 (also Tensor.i0, i0_ and torch.special.i0): I0Backward0 saves self, its gradient is special_i1(self)
    # (SpecialI1Backward0 in the double backward); integer inputs give floats; i0_ of an int tensor cannot cast
    "i0_nodes_and_double_backward": (
        'x = torch.tensor([-2.5, -0.3, 0., 0.7, 3.], requires_grad=True)\n'
        'for f in [torch.i0, torch.special.i0, lambda t: t.i0()]:\n'
        '    y = f(x)\n'
        '    show(y)\n'
        '    g, = torch.autograd.grad(y.sum(), x, create_graph=True)\n'
        '    show(g)\n'
        '    g2, = torch.autograd.grad(g.sum(), x)\n'
        '    print(g2)\n'
        'z = x * 1\n'
        'show(z.i0_())\n'
        'tries(lambda: x.i0_(), lambda: torch.i0(torch.arange(3)), lambda: torch.special.i0(torch.arange(3)),\n'
        '      lambda: torch.arange(3).i0_(), lambda: torch.i0(2.), lambda: torch.special.i0(2),\n'
        '      lambda: torch.i0(torch.tensor([1., 2.], dtype=torch.float64)), lambda: torch.i0(torch.tensor([1.], dtype=torch.float16)),\n'
        '      lambda: torch.i0(x, out=torch.zeros(5)), lambda: torch.special.i0(x.detach(), out=torch.zeros(5)))'),
    # special.i0e saves self and result (gradient i1e(self) - sgn(self) * result); i1 and i1e save self and result
    # and guard |x| <= eps with where (gradient 0.5 there)
    "i0e_i1_i1e_nodes": (
        'x = torch.tensor([-2.5, -0.3, 0., 1e-20, 0.7, 3.], requires_grad=True)\n'
        'for f in [torch.special.i0e, torch.special.i1, torch.special.i1e]:\n'
        '    y = f(x)\n'
        '    show(y)\n'
        '    g, = torch.autograd.grad(y.sum(), x, create_graph=True)\n'
        '    show(g)\n'
        '    print(torch.autograd.grad(g.sum(), x)[0])\n'
        '    tries(lambda: f(torch.arange(3)), lambda: f(2.), lambda: f(x.detach(), out=torch.zeros(6)),\n'
        '          lambda: f(x, out=torch.zeros(6)), lambda: f(x.double().detach()))'),
    # erfcx saves self and result ((2 self result - 2 / sqrt(pi)) * grad); ndtri saves result (grad sqrt(2 pi)
    # exp(result^2 / 2)); log_ndtr saves self and result (grad / sqrt(2 pi) * exp(-(result + self^2 / 2)))
    "erfcx_ndtri_log_ndtr_nodes": (
        'x = torch.tensor([-2.5, -0.3, 0., 0.7, 3.], requires_grad=True)\n'
        'p = torch.tensor([0.1, 0.5, 0.9], requires_grad=True)\n'
        'for f, t in [(torch.special.erfcx, x), (torch.special.ndtri, p), (torch.special.log_ndtr, x)]:\n'
        '    y = f(t)\n'
        '    show(y)\n'
        '    g, = torch.autograd.grad(y.sum(), t, create_graph=True)\n'
        '    show(g)\n'
        '    print(torch.autograd.grad(g.sum(), t)[0])\n'
        '    tries(lambda: f(torch.arange(3)), lambda: f(1), lambda: f(t.detach(), out=torch.zeros(t.shape)),\n'
        '          lambda: f(t.detach().double()), lambda: f(t.detach().half()))\n'
        'h = torch.tensor([0.5, 2.], dtype=torch.float16, requires_grad=True)\n'
        'for f in [torch.special.i1, torch.special.i1e]:\n'
        '    tries(lambda: f(h).sum().backward())'),
    # values over wide ranges: overflow to inf where exp overflows in the dtype (float32 at 88.7), the asymptotic
    # ranges, nan and infinities; ndtri's tails, 0, 1 and nan outside [0, 1]
    "special_values_over_wide_ranges": (
        'torch.set_printoptions(precision=6)\n'
        'for d in [torch.float32, torch.float64]:\n'
        '    x = torch.tensor([-800., -720., -100., -88.8, -45., -30.5, -29.5, -12., -1e-3, 0., 1e-8, 0.5, 2., 8., 26.,\n'
        '                      40., 88.5, 89., 700., 710., 1e4, 1e30, float("inf"), -float("inf"), float("nan")], dtype=d)\n'
        '    for f in [torch.i0, torch.special.i0e, torch.special.i1, torch.special.i1e, torch.special.erfcx,\n'
        '              torch.special.log_ndtr]:\n'
        '        print(f(x))\n'
        '    p = torch.tensor([0., 1e-300, 1e-30, 1e-7, 0.02, 0.3, 0.5, 0.7, 0.999, 1 - 1e-7, 1., -0.5, 1.5, float("nan")],\n'
        '                     dtype=d)\n'
        '    print(torch.special.ndtri(p))'),
    # nextafter: NextafterBackward0 saves both; self's gradient is where(self != other, grad, 0), other's zeros;
    # no integer kernel; `other` must be a tensor
    "nextafter": (
        'a = torch.tensor([1., 2., 0.], requires_grad=True)\n'
        'b = torch.tensor([2., 2., -1.], requires_grad=True)\n'
        'y = torch.nextafter(a, b)\n'
        'show(y)\n'
        'ga, gb = torch.autograd.grad(y, (a, b), torch.tensor([3., 5., 7.], requires_grad=True), create_graph=True)\n'
        'show(ga)\n'
        'print(gb)\n'
        'show(a.nextafter(b.detach()))\n'
        'tries(lambda: torch.nextafter(torch.tensor([1., 0.], dtype=torch.float64), torch.tensor([2., -1.], dtype=torch.float64)),\n'
        '      lambda: torch.nextafter(torch.tensor([1, 0]), torch.tensor([2, 1])), lambda: torch.nextafter(torch.tensor([1.]), 2.),\n'
        '      lambda: a.detach().clone().nextafter_(b.detach()), lambda: torch.nextafter(torch.ones(2), torch.ones(3)),\n'
        '      lambda: torch.nextafter(torch.tensor([1.]), torch.tensor(2)), lambda: a.nextafter_(b),\n'
        '      lambda: torch.nextafter(a, other=2), lambda: a.nextafter(other=2.5), lambda: torch.ldexp(a, other=1),\n'
        '      lambda: torch.nextafter(input=a, other=b), lambda: torch.nextafter(2, a))'),
    # ldexp: LdexpBackward0 saves other and result; self's gradient grad * pow(2.0, other) (PowBackward2), other's
    # grad * result * ln 2; integers give the default float; 2 ** other beyond the dtype's range is inf
    "ldexp": (
        'a = torch.tensor([1., 2.], requires_grad=True)\n'
        'b = torch.tensor([2., 1.], requires_grad=True)\n'
        'for e in [torch.tensor([1, 2]), b]:\n'
        '    y = torch.ldexp(a, e)\n'
        '    show(y)\n'
        '    gs = torch.autograd.grad(y.sum(), [t for t in (a, e) if t.requires_grad], create_graph=True)\n'
        '    for g in gs:\n'
        '        show(g)\n'
        'tries(lambda: torch.ldexp(torch.tensor([1, 2]), torch.tensor([1, 2])), lambda: torch.ldexp(torch.tensor([1.]), 2),\n'
        '      lambda: a.detach().clone().ldexp_(torch.tensor([1, 2])), lambda: a.ldexp(torch.tensor([3])),\n'
        '      lambda: torch.ldexp(torch.tensor([1., 2.], dtype=torch.float64), torch.tensor([1, 2])),\n'
        '      lambda: torch.ldexp(torch.tensor([1.]), torch.tensor([200])), lambda: torch.ldexp(torch.tensor([3.]), torch.tensor([-140])),\n'
        '      lambda: torch.ldexp(torch.tensor([1, 2], dtype=torch.int32), torch.tensor([1, 2])).dtype,\n'
        '      lambda: torch.ldexp(torch.ones(2), torch.ones(3)), lambda: a.ldexp_(torch.tensor([1, 2])),\n'
        '      lambda: torch.ldexp(torch.tensor([1., 2.]), torch.tensor([True, False])),\n'
        '      lambda: torch.ldexp(torch.tensor([1, 2]), torch.tensor([True, False])),\n'
        '      lambda: torch.ones(2, dtype=torch.long).ldexp_(torch.ones(2)), lambda: torch.ldexp(2, a))'),
    # frombuffer: a 1-d tensor sharing the buffer's memory (dtype keyword-only and required), PyTorch's ValueErrors
    # for empty buffers, offsets and counts; a read-only buffer is warned about once
    "frombuffer": (
        'import array\n'
        'b = bytearray(8)\n'
        'tries(lambda: torch.frombuffer(bytearray(8), dtype=torch.float32),\n'
        '      lambda: torch.frombuffer(bytearray(b"\\x01\\x02\\x03\\x04"), dtype=torch.uint8, count=2, offset=1),\n'
        '      lambda: torch.frombuffer(b"abcd", dtype=torch.int8), lambda: torch.frombuffer(bytearray(7), dtype=torch.float32),\n'
        '      lambda: torch.frombuffer(array.array("f", [1., 2.]), dtype=torch.float32), lambda: torch.frombuffer(bytearray(0), dtype=torch.float32),\n'
        '      lambda: torch.frombuffer([1, 2], dtype=torch.float32), lambda: torch.frombuffer(bytearray(8)),\n'
        '      lambda: torch.frombuffer(b, dtype=torch.float32, offset=8), lambda: torch.frombuffer(b, dtype=torch.float32, offset=-1),\n'
        '      lambda: torch.frombuffer(b, dtype=torch.float32, count=3), lambda: torch.frombuffer(b, dtype=torch.float32, count=0),\n'
        '      lambda: torch.frombuffer(b, dtype=torch.float32, count=1, offset=6), lambda: torch.frombuffer(b, dtype=torch.float32, requires_grad=True),\n'
        '      lambda: torch.frombuffer(b, dtype=torch.int64, requires_grad=True), lambda: torch.frombuffer(b, torch.float32),\n'
        '      lambda: torch.frombuffer(b, dtype=torch.float32, count=-2), lambda: torch.frombuffer(memoryview(b)[::2], dtype=torch.uint8),\n'
        '      lambda: torch.frombuffer(b, dtype=torch.float32, offset=1))\n'
        't = torch.frombuffer(b, dtype=torch.uint8)\n'
        'b[0] = 7\n'
        'print(t[:2], t._version, t.is_leaf, t.requires_grad, t.shape)\n'
        't[1] = 9\n'
        'print(b[:2], t._version)'),
    # Module.share_memory moves every parameter, grad and buffer to shared memory in place and returns the module:
    # the same tensors, their versions unchanged
    "module_share_memory": (
        'import torch.nn as nn\n'
        'm = nn.Sequential(nn.Linear(2, 3), nn.BatchNorm1d(3))\n'
        'w = m[0].weight\n'
        'print([p._version for p in m.parameters()], [b._version for b in m.buffers()], w.is_shared())\n'
        'r = m.share_memory()\n'
        'print(r is m, m[0].weight is w, [p._version for p in m.parameters()], [b._version for b in m.buffers()])\n'
        'print(w.is_shared(), m[1].running_mean.is_shared(), w.is_leaf, w.requires_grad, type(w).__name__, w.grad)\n'
        'm(torch.ones(4, 2)).sum().backward()\n'
        'print(w.grad.is_shared())\n'
        'm.share_memory()\n'
        'print([p._version for p in m.parameters()], w.grad.is_shared(), w.grad._version)'),
}


@pytest.mark.parametrize("name", SNIPPETS)
def test_snippet(name):
    code = SHOW + SNIPPETS[name]
    t, e = run_both(T, E, code)
    assert same(t, e), f"\n{code}\n--- torch\n{t.summary()}--- engine\n{e.summary()}"
