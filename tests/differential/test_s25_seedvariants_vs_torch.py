"""Variations on the playground's seed experiments (autograd walls learners hit), as a learner tries them next: the
range factories (torch.range / arange / linspace / logspace) and the other factories writing into out= (kept in out's
shape when the number of elements fits, into a view's memory, refused for a leaf requiring grad, out's requires_grad
set, empty's and randn's resizes counted), legacy constructors of numpy arrays (sharing their memory) and of sizes,
lists and tensors; in-place ops of every kind on leaves and their views; detach() / .data followed by an in-place op
on the result of ops that save their result against ops that save their input (the exact version-counter error
texts); _version through chains of views, detach and .data; requires_grad on integer tensors; typos; .data
assignment; autograd.grad against backward with weights. Printed text, warnings and the final error must be the
same."""
import pytest

T = pytest.importorskip("torch", reason="differential tests need real PyTorch (pip install torch==2.13.0)")
from .harness import TRIES, load_engine, run_both, same  # noqa: E402

E = load_engine()

SNIPPETS = {
    # the range factories write into an out= whose number of elements fits in out's own shape (a 2x2 out stays
    # 2x2, a transposed one is filled in its order), and into a view's memory: the base shows the numbers
    "range_factories_into_out_of_another_shape": (
        'o = torch.empty(2, 2)\n'
        'print(torch.arange(4, out=o), torch.range(0, 3, out=torch.empty(2, 2)), torch.linspace(0, 1, 4, out=o))\n'
        'print(torch.logspace(0, 3, 4, out=torch.empty(4, 1)), torch.arange(6., out=torch.empty(3, 2).t()))\n'
        'b = torch.zeros(2, 2); r = torch.range(0, 3, out=b.t()); print(b, r, r.stride(), b._version)\n'
        'b = torch.zeros(2, 3); torch.arange(3., out=b[0]); torch.linspace(0, 1, 2, out=b[1, 1:])\n'
        'print(b, b._version)\n'
        'r = torch.zeros(4); torch.range(1, 4, out=r.view(2, 2)); print(r)\n'
        'print(torch.arange(5, out=o))'),
    # zeros / ones / full / eye given a view of another tensor as out= write into that tensor's memory
    "factories_write_into_a_view_given_as_out": (
        'b = torch.zeros(2, 3)\n'
        'torch.ones(3, out=b[0]); torch.full((2,), 7., out=b[:, 2]); print(b, b._version)\n'
        'b = torch.zeros(3, 3); torch.eye(2, out=b[1:, 1:]); print(b)\n'
        'b = torch.zeros(2, 3, dtype=torch.long); torch.full((3,), 5, out=b[1]); torch.zeros(2, out=b[1, :2])\n'
        'print(b)\n'
        'b = torch.zeros(2, 2); torch.eye(2, out=b.t()); print(b)'),
    # a leaf requiring grad (or a view of one) as a factory's out= in grad mode: PyTorch's autograd fallback refuses
    # it, naming the op aten::f (before the factory's own checks, after out's dtype); randn's and empty's out= forms
    # resize out first, which autograd refuses even under no_grad
    "factory_out_requiring_grad": (
        'x = torch.zeros(3, requires_grad=True)\n'
        'tries(lambda: torch.arange(3., out=x), lambda: torch.range(0, 2, out=x),\n'
        '      lambda: torch.linspace(0, 1, 3, out=x), lambda: torch.logspace(0, 1, 3, out=x),\n'
        '      lambda: torch.zeros(3, out=x), lambda: torch.ones(3, out=x[:]),\n'
        '      lambda: torch.full((3,), 2., out=x.view(3)), lambda: torch.eye(3, out=x),\n'
        '      lambda: torch.rand(3, out=x), lambda: torch.randint(3, (3,), out=x), lambda: torch.randperm(3, out=x),\n'
        '      lambda: torch.normal(0., 1., (3,), out=x), lambda: torch.normal(torch.zeros(3), 1., out=x),\n'
        '      lambda: torch.randn(3, out=x), lambda: torch.empty(3, out=x), lambda: torch.arange(0, 3, 0, out=x),\n'
        '      lambda: torch.zeros(-1, out=x), lambda: torch.zeros(3, dtype=torch.long, out=x),\n'
        '      lambda: torch.add(torch.ones(3), 1, out=x), lambda: x, lambda: x._version)\n'
        'with torch.no_grad():\n'
        '    tries(lambda: torch.randn(3, out=x), lambda: torch.empty(3, out=x), lambda: torch.arange(3., out=x[:]),\n'
        '          lambda: x.requires_grad, lambda: torch.arange(3., out=x), lambda: x.requires_grad,\n'
        '          lambda: x._version)\n'
        'y = torch.zeros(2)\n'
        'print(torch.ones(2, out=y, requires_grad=True), y.requires_grad, y.is_leaf)'),
    # torch.empty given out= writes nothing: same shape, out keeps its numbers and its version; another shape, out is
    # resized (a version); randn resizes out first too, then draws into it (two versions then)
    "empty_and_randn_into_out_count_their_resizes": (
        'e = torch.ones(3); print(torch.empty(3, out=e), e._version)\n'
        'print(torch.empty(2, out=e), e._version); print(torch.empty(2, 2, out=e).shape, e._version)\n'
        'v = torch.ones(3, 2)[:, 0]; torch.empty(3, out=v); print(v, v.stride(), v._version)\n'
        'for o in (torch.zeros(3), torch.zeros(0), torch.zeros(2), torch.zeros(3, dtype=torch.float64)):\n'
        '    torch.randn(3, out=o); torch.zeros(3, out=o); print(o.shape, o.dtype, o._version)'),
    # randperm and normal given out=: out's dtype or an error for another one given; the numbers drawn as without out
    "randperm_and_normal_into_out": (
        'torch.manual_seed(0); print(torch.randperm(4))\n'
        'torch.manual_seed(0); print(torch.randperm(4, out=torch.empty(4)), torch.randperm(3, out=torch.empty(2, 2)))\n'
        'tries(lambda: torch.randperm(3, dtype=torch.long, out=torch.empty(3)),\n'
        '      lambda: torch.normal(0., 1., (2,), dtype=torch.float64, out=torch.empty(2)),\n'
        '      lambda: torch.normal(0., 1., (2,), out=torch.zeros(2, dtype=torch.long)),\n'
        '      lambda: torch.normal(torch.zeros(2, requires_grad=True), 1., out=torch.empty(2)))\n'
        'torch.manual_seed(0); print(torch.normal(2., 3., (3,), out=torch.empty(3)), torch.rand(1))'),
    # an op's out= of another dtype than its result: structured kernels (mm, softmax, gather, argmax...) refuse it in
    # one sentence, other ops in their own words (matmul: dot's, mv's or mm's); pointwise ops and reductions cast into
    # it. tensordot's out= form copies the product in (autograd sees a copy_)
    "ops_into_an_out_of_another_dtype": (
        'b = torch.arange(3.); m = torch.ones(3, 3); D = torch.float64\n'
        'tries(lambda: torch.mm(m, m, out=torch.zeros(3, 3, dtype=D)),\n'
        '      lambda: torch.bmm(m[None], m[None], out=torch.zeros(1, 3, 3, dtype=D)),\n'
        '      lambda: torch.addmm(m, m, m, out=torch.zeros(3, 3, dtype=D)),\n'
        '      lambda: torch.softmax(b, 0, out=torch.zeros(3, dtype=D)),\n'
        '      lambda: torch.log_softmax(b, 0, out=torch.zeros(3, dtype=D)),\n'
        '      lambda: torch.softmax(b, 0, dtype=D, out=torch.zeros(3, dtype=D)),\n'
        '      lambda: torch.gather(b, 0, torch.tensor([1, 0, 2]), out=torch.zeros(3, dtype=D)),\n'
        '      lambda: torch.argmax(m, 0, out=torch.zeros(3)),\n'
        '      lambda: torch.argmax(m, 0, out=torch.zeros(3, dtype=torch.int32)),\n'
        '      lambda: torch.tril(m, out=torch.zeros(3, 3, dtype=D)),\n'
        '      lambda: torch.where(b > 0, b, b, out=torch.zeros(3, dtype=D)),\n'
        '      lambda: torch.dot(b, b, out=torch.zeros((), dtype=D)),\n'
        '      lambda: torch.index_select(b, 0, torch.tensor([0, 1, 2]), out=torch.zeros(3, dtype=D)),\n'
        '      lambda: torch.masked_select(b, b >= 0, out=torch.zeros(3, dtype=D)),\n'
        '      lambda: torch.take(b, torch.tensor([0]), out=torch.zeros(1, dtype=D)),\n'
        '      lambda: torch.amax(m, 0, out=torch.zeros(3, dtype=D)),\n'
        '      lambda: torch.nan_to_num(b, out=torch.zeros(3, dtype=D)),\n'
        '      lambda: torch.scatter(b, 0, torch.tensor([0]), 1., out=torch.zeros(3, dtype=D)),\n'
        '      lambda: torch.exp(b, out=torch.zeros(3, dtype=D)),\n'
        '      lambda: torch.sum(m, 0, out=torch.zeros(3, dtype=D)),\n'
        '      lambda: torch.cumsum(b, 0, out=torch.zeros(3, dtype=D)),\n'
        '      lambda: torch.cat([b], out=torch.zeros(3, dtype=D)),\n'
        '      lambda: torch.tensordot(m, m, 1, out=torch.zeros(3, 3, dtype=D)),\n'
        '      lambda: torch.matmul(b, b, out=torch.zeros((), dtype=D)),\n'
        '      lambda: torch.matmul(m, b, out=torch.zeros(3, dtype=D)),\n'
        '      lambda: torch.matmul(b, m, out=torch.zeros(3, dtype=D)),\n'
        '      lambda: torch.matmul(m[None], m, out=torch.zeros(1, 3, 3, dtype=D)),\n'
        '      lambda: torch.mv(m, b, out=torch.zeros(3, dtype=D)),\n'
        '      lambda: torch.matmul(m, m, out=torch.zeros(3, 3, dtype=torch.long)))\n'
        'o = torch.zeros(3, 3); r = torch.tensordot(m, m, 1, out=o); print(r is o, o, o._version)\n'
        'o = torch.zeros(2); torch.tensordot(m, m, 1, out=o); print(o.shape, o._version)\n'
        'w = m.clone().requires_grad_(); o = torch.zeros(3, 3); torch.tensordot(w, m, 1, out=o); print(o.grad_fn)\n'
        'tries(lambda: torch.tensordot(m, m, 1, out=torch.zeros(3, 3, requires_grad=True)))'),
    # a legacy constructor reads a numpy array as from_numpy: of its dtype, the tensor shares the array's memory
    # (strides too); of another dtype, a converted copy; negative strides and read-only arrays as from_numpy says
    "legacy_constructors_of_numpy_arrays": (
        'import numpy as np\n'
        'n = np.array([1., 2.], dtype=np.float32)\n'
        'for ctor in (torch.FloatTensor, torch.Tensor, torch.DoubleTensor, torch.tensor([0.]).new):\n'
        '    c = ctor(n); c[0] = 7; print(n, c, c.dtype); n[0] = 1\n'
        'i = np.array([1, 2]); l = torch.LongTensor(i); l[1] = 5; print(i, torch.IntTensor(i).dtype)\n'
        'm = np.zeros((2, 2), dtype=np.float32); t = torch.FloatTensor(m); m[1, 1] = 3; print(t, t._version)\n'
        'print(torch.FloatTensor(np.arange(4., dtype=np.float32)[::2]).stride())\n'
        'tries(lambda: torch.FloatTensor(np.arange(3., dtype=np.float32)[::-1]),\n'
        '      lambda: torch.BoolTensor(np.array([True])), lambda: torch.FloatTensor(np.float32(2.)),\n'
        '      lambda: torch.FloatTensor(np.array(3., dtype=np.float32)),\n'
        '      lambda: torch.LongTensor(np.array([1.5, 2.5])))'),
    # legacy constructors of sizes, lists and tensors, and their errors
    "legacy_constructors_of_sizes_lists_and_tensors": (
        'import numpy as np\n'
        'tries(lambda: torch.FloatTensor(2, 3).shape, lambda: torch.LongTensor([1.5, -2.7]),\n'
        '      lambda: torch.BoolTensor([2, 0]), lambda: torch.IntTensor([2**40]),\n'
        '      lambda: torch.ByteTensor([-1, 300]), lambda: torch.FloatTensor(torch.tensor([1, 2])),\n'
        '      lambda: torch.FloatTensor(torch.tensor([1., 2.])), lambda: torch.FloatTensor([]),\n'
        '      lambda: torch.FloatTensor(3.5), lambda: torch.FloatTensor(-1), lambda: torch.FloatTensor((2, 3)),\n'
        '      lambda: torch.FloatTensor(2, 3, requires_grad=True),\n'
        '      lambda: torch.FloatTensor([1, 2], dtype=torch.float64), lambda: torch.LongTensor("abc"),\n'
        '      lambda: torch.FloatTensor(2.0, 3), lambda: torch.FloatTensor([[1, 2], [3]]),\n'
        '      lambda: torch.IntTensor(np.int64(3)).shape, lambda: torch.FloatTensor(2, -3),\n'
        '      lambda: torch.DoubleTensor(torch.ones(2)),\n'
        '      lambda: torch.FloatTensor([torch.tensor(1.), torch.tensor(2.)]))\n'
        'x = torch.tensor([1., 2.], requires_grad=True)\n'
        'a = torch.FloatTensor(x); print(a, a.grad_fn, a.is_leaf, a._base is x)\n'
        'tries(lambda: a.add_(1), lambda: torch.Tensor(x * 2).mul_(3), lambda: x._version)'),
    # every kind of in-place op on a leaf requiring grad, and on views of it; rebinding `a = a + 2` instead
    "inplace_on_a_leaf_and_its_views": (
        'x = torch.tensor([[1., 2.], [3., 4.]], requires_grad=True)\n'
        'tries(lambda: x.add_(1), lambda: x.clamp_(0, 1), lambda: x.zero_(), lambda: x.fill_(3),\n'
        '      lambda: x.copy_(torch.ones(2, 2)), lambda: x.T.add_(1), lambda: x[0].mul_(2),\n'
        '      lambda: x.view(4).zero_(), lambda: x.diagonal().copy_(torch.zeros(2)), lambda: x.unbind()[0].add_(1),\n'
        '      lambda: x.split(1)[0].add_(1), lambda: x.detach().T.add_(1), lambda: x.t_(), lambda: x.resize_(4),\n'
        '      lambda: x._version)\n'
        'def setitem():\n'
        '    x[0] = 1\n'
        'def pluseq():\n'
        '    global x\n'
        '    x += 1\n'
        'tries(setitem, pluseq)\n'
        'x.data[0, 0] = 10; x.detach()[1, 1] = 20; print(x, x._version)\n'
        'a = x\n'
        'a = a + 2; a += 2; print(a, a.grad_fn, a._version, a.is_leaf)\n'
        'a.sum().backward(); print(x.grad)'),
    # detach() / .data / detach_() followed by an in-place op on the result of ops that save their result (an error
    # naming the result) against ops that save their input (silently fine)
    "detach_then_inplace_saved_result_or_input": (
        'import torch.nn.functional as F\n'
        'for name, f in [("sigmoid", torch.sigmoid), ("tanh", torch.tanh), ("exp", torch.exp), ("relu", torch.relu),\n'
        '                ("softmax", lambda t: t.softmax(-1)), ("sqrt", torch.sqrt),\n'
        '                ("pow_t", lambda t: torch.pow(2., t)), ("div", lambda t: 1 / t), ("elu", F.elu),\n'
        '                ("square", lambda t: t ** 2), ("mul", lambda t: t * t), ("sin", torch.sin),\n'
        '                ("log", torch.log)]:\n'
        '    for how in ("detach", "data", "detach_"):\n'
        '        x = torch.tensor([[1., 2., 3.], [4., 5., 6.]], requires_grad=True)\n'
        '        y = f(x)\n'
        '        try:\n'
        '            if how == "detach": y.detach().zero_()\n'
        '            elif how == "data": y.data.mul_(2)\n'
        '            else: y.detach_(); y.add_(1)\n'
        '            y.sum().backward(); print(name, how, x.grad[0])\n'
        '        except Exception as e: print(name, how, type(e).__name__, e)'),
    # the version counter error's text for 0-d and other dtypes ([torch.DoubleTensor []], [torch.HalfTensor [1, 1]])
    # and for index tensors and masks an op saved
    "version_error_texts_of_dtypes_and_indices": (
        'for dt in (torch.float16, torch.float64):\n'
        '    x = torch.tensor(2., dtype=dt, requires_grad=True)\n'
        '    y = x.exp(); y.data.zero_(); y.detach().add_(1)\n'
        '    z = torch.tensor([[1.]], dtype=dt, requires_grad=True).sigmoid(); z.detach().zero_()\n'
        '    tries(lambda: y.backward(), lambda: z.sum().backward())\n'
        'x = torch.tensor([[1., 2., 3.], [4., 5., 6.]], requires_grad=True)\n'
        'i = torch.tensor([[0, 2], [1, 0]]); y = x.gather(1, i); i.add_(0)\n'
        'm = torch.tensor([2, 0], dtype=torch.int32); v = x.index_select(1, m); m.mul_(1)\n'
        'c = torch.tensor([True, False, True]); w = torch.where(c, x, 0.); c.logical_not_()\n'
        'b = torch.tensor([3., 4.], dtype=torch.float64); u = x[0, :2] * b; b += 1\n'
        'tries(lambda: y.sum().backward(), lambda: v.sum().backward(), lambda: w.sum().backward(),\n'
        '      lambda: u.sum().backward())'),
    # _version through chains of views, detach and .data (detach shares the counter, .data has its own)
    "versions_through_views_detach_and_data": (
        'x = torch.tensor([[1., 2., 3.], [4., 5., 6.]], requires_grad=True)\n'
        'y = x * 2\n'
        'v = y.view(3, 2); t = v.t(); s = t[0]; d = s.detach(); dd = y.data; u = d.unsqueeze(0)\n'
        'def versions(): return [z._version for z in (y, v, t, s, d, dd, u)]\n'
        'print(versions()); u.add_(1); print(versions()); dd.mul_(2); print(versions())\n'
        's.zero_(); print(versions(), s.grad_fn, t.grad_fn, y.grad_fn, v.grad_fn)\n'
        'y.data = torch.ones(2, 3); print(versions(), y)\n'
        'tries(lambda: v._base is y, lambda: s._base is y, lambda: d._base, lambda: u._base is d, lambda: dd._base,\n'
        '      lambda: t.is_leaf)\n'
        'a = torch.arange(6.); w = a.view(2, 3); a[0] = 5; w.T[1] += 1; print(a._version, w._version, a)'),
    # torch.range against torch.arange: the deprecation warning, dtypes, float and negative steps, the end included
    "range_against_arange": (
        'tries(lambda: torch.range(0, 5), lambda: torch.range(1, 4, 0.5), lambda: torch.range(5, 0, -1),\n'
        '      lambda: torch.range(0, 1, 0.3), lambda: torch.range(0, 5, dtype=torch.long),\n'
        '      lambda: torch.arange(0, 5), lambda: torch.arange(5, 0, -1), lambda: torch.arange(0, 1, 0.3),\n'
        '      lambda: torch.range(5), lambda: torch.range(0, 5, 0), lambda: torch.arange(5, 0),\n'
        '      lambda: torch.range(0, 5, -1), lambda: torch.range(0, 3, requires_grad=True),\n'
        '      lambda: torch.arange(0, 3, requires_grad=True), lambda: torch.range(1.5, 3.5),\n'
        '      lambda: torch.range(-1, -3, -0.5, dtype=torch.float64), lambda: torch.range(0., 1., 0.1).shape,\n'
        '      lambda: torch.arange(0., 1., 0.1).shape, lambda: torch.range(0, 5, dtype=torch.bool),\n'
        '      lambda: torch.range(0, 10, 3, dtype=torch.int8),\n'
        '      lambda: torch.range(0.5, 3, 0.5, dtype=torch.float16),\n'
        '      lambda: torch.arange(-1, 1, 0.25, dtype=torch.int32))'),
    # a tensor as a range's number: arange takes only a 0-d one that needs no grad (else the parser's TypeError);
    # linspace / logspace have tensor overloads, for 0-d tensors only. Python ints beyond int64 (a uint64 Scalar,
    # an overflow as int64; beyond uint64, the parser's OverflowError), and sizes too large
    "range_factories_given_tensors_and_huge_numbers": (
        'g = torch.tensor(2., requires_grad=True)\n'
        'tries(lambda: torch.arange(torch.tensor(3)), lambda: torch.arange(torch.tensor([3])),\n'
        '      lambda: torch.arange(torch.tensor([[3]])), lambda: torch.arange(g),\n'
        '      lambda: torch.arange(0, 4, torch.tensor(0.5)),\n'
        '      lambda: torch.arange(torch.tensor(1), torch.tensor([4])),\n'
        '      lambda: torch.linspace(torch.tensor([0.]), 1, 3),\n'
        '      lambda: torch.linspace(torch.tensor([0.]), torch.tensor([[1.]]), 3),\n'
        '      lambda: torch.logspace(0, torch.tensor([1.]), 3, base=2), lambda: torch.linspace(g, 1, 3),\n'
        '      lambda: torch.linspace(torch.tensor([0.]), 1, -1),\n'
        '      lambda: torch.linspace(0, 1, -1, out=torch.zeros(3, requires_grad=True)),\n'
        '      lambda: torch.arange(0, 2**63), lambda: torch.arange(2**64), lambda: torch.arange(-2**63 - 1, 0),\n'
        '      lambda: torch.range(0, 2**63, dtype=torch.long), lambda: torch.arange(1e20),\n'
        '      lambda: torch.arange(9.2e18), lambda: torch.arange(0, 1e20, dtype=torch.long),\n'
        '      lambda: torch.arange(2**62, 2**63 - 1, 2**61))'),
    # requires_grad on integer and bool tensors: each way of asking, and its words
    "requires_grad_on_integer_tensors": (
        'tries(lambda: torch.tensor([1, 2], requires_grad=True),\n'
        '      lambda: torch.tensor([1, 2], dtype=torch.long, requires_grad=True),\n'
        '      lambda: torch.tensor([True], requires_grad=True), lambda: torch.tensor([1, 2]).requires_grad_(),\n'
        '      lambda: torch.tensor([1, 2]).requires_grad_(False),\n'
        '      lambda: torch.ones(2, dtype=torch.int, requires_grad=True),\n'
        '      lambda: torch.arange(3, requires_grad=True), lambda: torch.LongTensor([1, 2]).requires_grad_(),\n'
        '      lambda: torch.full((2,), 3, requires_grad=True),\n'
        '      lambda: torch.randint(0, 3, (2,), requires_grad=True))\n'
        'x = torch.tensor([1, 2])\n'
        'def set_attr(v):\n'
        '    def f():\n'
        '        x.requires_grad = v\n'
        '        return x.requires_grad\n'
        '    return f\n'
        'tries(set_attr(True), set_attr(False), set_attr(1), set_attr(None))'),
    # typos in attribute names and Python names: AttributeError / NameError texts with Python's "Did you mean"
    "typos_in_autograd_names": (
        'x = torch.tensor([1., 2.], requires_grad=True)\n'
        'y = x * 2\n'
        'tries(lambda: y.grad_fun, lambda: x.detatch(), lambda: x.requires_grad_(Flase), lambda: x.requries_grad,\n'
        '      lambda: y.backwards(), lambda: x.grads, lambda: x.zero_grad(), lambda: x.is_leaf(),\n'
        '      lambda: x.retain_grads(), lambda: y.grad_fn.next_function, lambda: torch.no_grads(),\n'
        '      lambda: torch.autograd.grads(y, x), lambda: x.datas, lambda: torch.Tensor.detatch,\n'
        '      lambda: x.requires_grad_("False"), lambda: torch.tensors([1]), lambda: x._versions,\n'
        '      lambda: torch.tensor([1.], requires_grad=ture), lambda: torch.FloatTensr, lambda: torch.arrange(3))'),
    # .data assigned another shape or dtype: the leaf takes it; an earlier graph then meets the other shape
    "data_assigned_other_shapes_and_dtypes": (
        'x = torch.tensor([1., 2., 3.], requires_grad=True)\n'
        'def assign(v):\n'
        '    def g():\n'
        '        x.data = v\n'
        '        return (x, x.shape, x.dtype, x._version, x.requires_grad, x.is_leaf)\n'
        '    return g\n'
        'tries(assign(torch.zeros(2, 2)), assign(torch.tensor([1, 2])),\n'
        '      assign(torch.tensor(5., dtype=torch.float64)), assign([1., 2.]),\n'
        '      assign(torch.ones(3, requires_grad=True)))\n'
        'y = torch.tensor([1., 2.], requires_grad=True); z = y * 2\n'
        'y.data = torch.tensor([5., 6., 7.])\n'
        'tries(lambda: z.sum().backward(), lambda: y.grad)\n'
        'm = torch.tensor([1., 2.], requires_grad=True); p = m.exp(); p.data = torch.zeros(2)\n'
        'tries(lambda: p.sum().backward(), lambda: m.grad, lambda: p._version)'),
    # torch.autograd.grad against .backward with weights (grad_outputs / gradient), through views
    "autograd_grad_against_backward_with_weights": (
        'x = torch.tensor([1., 2., 3.], requires_grad=True)\n'
        'y = x ** 2\n'
        'w = torch.tensor([1., 0.1, 0.01])\n'
        'tries(lambda: torch.autograd.grad(y, x, w, retain_graph=True),\n'
        '      lambda: torch.autograd.grad(y, x, retain_graph=True),\n'
        '      lambda: torch.autograd.grad(y, x, torch.ones(2), retain_graph=True),\n'
        '      lambda: torch.autograd.grad([y], [x], [w], retain_graph=True))\n'
        'y.backward(w); print(x.grad)\n'
        'tries(lambda: y.backward(w), lambda: y.backward(gradient=w.double()),\n'
        '      lambda: (x * 3).backward([1., 1., 1.]), lambda: (x * 3).sum().backward(torch.tensor([2.])),\n'
        '      lambda: torch.autograd.grad((x * 3).sum(), x, torch.tensor([2.])))\n'
        'a = torch.arange(6., requires_grad=True)\n'
        'a.view(2, 3).t().backward(torch.tensor([[1., 0.], [0., 1.], [1., 1.]])); print(a.grad)\n'
        'print(torch.autograd.grad(a[::2] * 2, a, torch.tensor([1., 10., 100.])))'),
}


@pytest.mark.parametrize("name", SNIPPETS)
def test_snippet(name):
    code = TRIES + SNIPPETS[name]
    t, e = run_both(T, E, code)
    assert same(t, e), f"\n{code}\n--- torch\n{t.summary()}--- engine\n{e.summary()}"
