"""How learners' code mixes numpy and tensors, against real PyTorch: numpy arrays and 0-d arrays as indices (a uint8
array is a deprecated mask, a 0-d int array selects), numpy arrays where a tensor argument is expected (view_as,
broadcast_tensors, einsum), numbers and numpy scalars given to .to(), lists of numpy arrays read by torch.tensor with
a dtype (their numpy numbers stored one by one), and the behaviour that already matched: numpy scalars on either side
of an operator, numpy() and np.asarray of tensors requiring grad, numpy ufuncs on tensors, memory shared with numpy.
Printed text, warnings and the final error must be the same."""
import pytest

T = pytest.importorskip("torch", reason="differential tests need real PyTorch (pip install torch==2.13.0)")
from .harness import SHOW, load_engine, run_both, same  # noqa: E402

E = load_engine()

SNIPPETS = {
    # a numpy array in an index is made a tensor first (indexing_tensor_from_data): a uint8 one keeps its dtype and is
    # a mask (warned as deprecated; a mask of the wrong length is refused), bool ones are masks, other numbers int64
    "numpy_uint8_array_index_is_a_mask": (
        'import numpy as np\n'
        't = torch.arange(9.).reshape(3, 3)\n'
        'for i in [np.array([1, 0, 1], dtype=np.uint8), np.array([1, 0], dtype=np.uint8), np.array([True, False, True]),\n'
        '          np.array([0, 2], dtype=np.int8), np.array([0., 2.]), np.array([[0, 1], [1, 2]]), np.array([], dtype=np.int64)]:\n'
        '    u = t.clone().requires_grad_()\n'
        '    def get():\n'
        '        w = u[i]\n'
        '        show(w)\n'
        '        w.sum().backward()\n'
        '        return u.grad\n'
        '    def put():\n'
        '        v = t.clone()\n'
        '        v[i] = -1\n'
        '        return v\n'
        '    def put_grad():\n'
        '        v = u * 1\n'
        '        v[i] = torch.tensor(5.)\n'
        '        return v\n'
        '    tries(get, put, put_grad, lambda: t[1:, i] if i.ndim == 1 and i.size == 3 else None)'),
    # a 0-d numpy array indexes as the 0-d tensor made of it: an int one selects (SelectBackward0, a view; writing
    # through it is CopySlices), a bool or uint8 one adds a dim of size 1 (True) or 0 (False)
    "numpy_0d_array_index": (
        'import numpy as np\n'
        'for i in [np.array(1), np.array(-1, dtype=np.int32), np.array(True), np.array(False), np.array(1, dtype=np.uint8),\n'
        '          np.array(0, dtype=np.int16)]:\n'
        '    x = torch.arange(6.).reshape(2, 3).requires_grad_()\n'
        '    y = x[i]\n'
        '    show(y)\n'
        '    print(y._base is x, y.shape)\n'
        '    z = x * 1\n'
        '    z[i] = 0\n'
        '    show(z)\n'
        '    z.sum().backward()\n'
        '    print(x.grad, x[0, i], x[:, i].shape)\n'
        '    tries(lambda: x.detach()[i, 0], lambda: x.detach()[None, i], lambda: x.detach()[i, 1])'),
    # a numpy array index PyTorch cannot read: negative strides (a flipped array), an unsupported dtype
    "numpy_index_arrays_refused": (
        'import numpy as np\n'
        't = torch.arange(9.).reshape(3, 3)\n'
        'for i in [np.arange(3)[::-1], np.array([[0, 1], [1, 2]])[:, ::-1], np.array(["a"]), np.array([1.5, None])]:\n'
        '    tries(lambda: t[i], lambda: t[0, i], lambda: t.__setitem__(i, 0), lambda: t.__setitem__((slice(None), i), 1))\n'
        'print(t)'),
    # view_as, reshape_as and expand_as take a tensor: a numpy array (which has a shape too) is refused as a list is
    "view_as_reshape_as_expand_as_refuse_numpy": (
        'import numpy as np\n'
        'x = torch.ones(2, requires_grad=True)\n'
        'for o in [np.ones(2), np.ones((2, 1)), [1, 2], 3, None, torch.ones(1, 2)]:\n'
        '    tries(lambda: x.view_as(o), lambda: x.reshape_as(o), lambda: x.expand_as(o), lambda: torch.Tensor.view_as(x, o),\n'
        '          lambda: x.type_as(o))'),
    # .to(x) with a number: PyTorch's parser lets it stand for the `Tensor other` of to(other): a float (or numpy's
    # floats and bool) is a double, True a bool; an int is a device index (none here), unless flags follow it
    "to_a_number_stands_for_a_tensor": (
        'import numpy as np\n'
        'x = torch.tensor([3., 4.], requires_grad=True)\n'
        'for a in [2.0, True, False, np.float64(2.), np.float32(3), np.float16(1), np.bool_(False), 0, np.int64(0),\n'
        '          np.int32(1), np.uint8(0), np.array(2.), "cpu"]:\n'
        '    for f in [lambda: x.to(a), lambda: x.to(a, copy=True), lambda: x.to(a, True), lambda: x.to(a, True, True),\n'
        '              lambda: x.to(a, torch.float64), lambda: x.to(a, non_blocking=True)]:\n'
        '        try:\n'
        '            r = f()\n'
        '            print(repr(a), r.dtype, r.grad_fn, r is x)\n'
        '        except Exception as e:\n'
        '            print(repr(a), type(e).__name__, e)\n'
        'tries(lambda: torch.ones(2, device=np.int64(0)), lambda: torch.zeros(1).to(device=np.int32(0)))'),
    # .to() given the same parameter by position and by keyword fits none of its signatures
    "to_given_twice": (
        'x = torch.ones(2, requires_grad=True)\n'
        'tries(lambda: x.to(torch.float64, dtype=torch.float64), lambda: x.to(torch.int32, device="cpu"),\n'
        '      lambda: x.to("cpu", device="cpu"), lambda: x.to(0, device="cpu"), lambda: x.to(None, device="cpu"),\n'
        '      lambda: x.to(2.0, dtype=torch.float64), lambda: x.to(torch.ones(1, dtype=torch.int8), dtype=torch.float16),\n'
        '      lambda: x.to(float, device="cpu"), lambda: x.to("cpu", dtype=torch.float64).dtype,\n'
        '      lambda: x.to(None, dtype=torch.float64).dtype, lambda: x.to(torch.float16, copy=True).dtype)'),
    # torch.tensor / torch.Tensor of a list holding numpy arrays, with the dtype known: PyTorch stores the arrays'
    # numpy numbers one by one (a float32 one is no int: refused for an integer or bool dtype; float64 is a Python
    # float, truncated), reads an object array's Python numbers, a big-endian or a longdouble array's numbers
    "tensor_of_a_list_of_numpy_arrays_with_a_dtype": (
        'import numpy as np\n'
        'def d(r):\n'
        '    return (r.dtype, tuple(r.shape), r.tolist())\n'
        'for a in [np.array([1.5]), np.array([1.5], dtype=np.float16), np.array([1., 2.], dtype=np.float32), np.array([2, 3]),\n'
        '          np.array([True]), np.array([[1.5, 2.]], dtype=np.float32), np.array([1, "a"], dtype=object),\n'
        '          np.array([1.5, 2], dtype=object), np.array([1, 2], dtype=">i4"), np.ones(2, dtype=np.longdouble)]:\n'
        '    tries(lambda: d(torch.tensor([a], dtype=torch.int64)), lambda: d(torch.tensor([a], dtype=torch.bool)),\n'
        '          lambda: d(torch.tensor([a], dtype=torch.uint8)), lambda: d(torch.LongTensor([a])),\n'
        '          lambda: d(torch.tensor([a, a], dtype=torch.float32)), lambda: d(torch.Tensor([a])), lambda: d(torch.tensor([a])),\n'
        '          lambda: d(torch.as_tensor([a])), lambda: d(torch.tensor([[a]], dtype=torch.float64)),\n'
        '          lambda: d(torch.tensor([1, a], dtype=torch.float32)), lambda: d(torch.IntTensor([a])),\n'
        '          lambda: d(torch.ones(2).new_tensor([a])))'),
    # a list of empty numpy arrays is sized as sequences are: no dims after an empty one; a numpy array of strs in a
    # list is "too many dimensions" as a list of strs is
    "tensor_of_a_list_of_empty_or_str_arrays": (
        'import numpy as np\n'
        'for a in [np.zeros((0, 3)), np.zeros((2, 0)), np.zeros((0,), dtype=np.int64)]:\n'
        '    for f in [lambda: torch.tensor([a, a]), lambda: torch.tensor([a]), lambda: torch.Tensor([a]),\n'
        '              lambda: torch.tensor([a], dtype=torch.int64), lambda: torch.FloatTensor([[a]])]:\n'
        '        r = f()\n'
        '        print(r.shape, r.dtype, r)\n'
        's = np.array(["a", "b"])\n'
        'tries(lambda: torch.tensor([s]), lambda: torch.tensor([s], dtype=torch.float32), lambda: torch.Tensor([s]),\n'
        '      lambda: torch.LongTensor([s]), lambda: torch.tensor([np.array([1, 2]), s]), lambda: torch.tensor([np.array([""])]),\n'
        '      lambda: torch.tensor(s), lambda: torch.tensor([[np.str_("a")]], dtype=torch.int64))'),
    # numpy's uint16, uint32 and uint64 arrays (a 16-bit image) read with a dtype given: PyTorch reads them (it has
    # those dtypes) and converts them (uint64 wrapping into int64 as a C cast does); as indices they are int64; a
    # numpy datetime64 is refused by its dtype's name
    "wide_unsigned_numpy_arrays_with_a_dtype": (
        'import numpy as np\n'
        'for a in [np.array([1, 2], dtype=np.uint16), np.array([[70000, 2]], dtype=np.uint32).T,\n'
        '          np.array([2 ** 64 - 1, 5], dtype=np.uint64), np.arange(3, dtype=np.uint16)[::-1]]:\n'
        '    tries(lambda: torch.tensor(a, dtype=torch.float32), lambda: torch.as_tensor(a, dtype=torch.int64),\n'
        '          lambda: torch.Tensor(a), lambda: torch.FloatTensor(a), lambda: torch.LongTensor(a),\n'
        '          lambda: torch.tensor(a, dtype=torch.uint8), lambda: torch.tensor(a, dtype=torch.bool),\n'
        '          lambda: torch.tensor(a, dtype=torch.half, requires_grad=True), lambda: torch.IntTensor(a),\n'
        '          lambda: torch.tensor(a, dtype=torch.float64).stride(), lambda: torch.arange(4.)[a % 4])\n'
        'd = np.datetime64("2020-01-01")\n'
        'tries(lambda: torch.tensor(d), lambda: torch.tensor([d]), lambda: torch.as_tensor(d), lambda: torch.tensor(d, dtype=torch.int64),\n'
        '      lambda: torch.tensor(np.timedelta64(3)))'),
    # a read-only numpy array (np.asarray of an image, a flag set): from_numpy / as_tensor / asarray warn and share its
    # memory all the same, writeable (in-place ops write through to the array; numpy() hands it out writeable);
    # a broadcast one's shared elements are refused as an expanded tensor's are
    "read_only_numpy_arrays_are_written_anyway": (
        'import numpy as np\n'
        'def frozen(a):\n'
        '    a.setflags(write=False)\n'
        '    return a\n'
        'for make in [lambda: frozen(np.arange(3.)), lambda: frozen(np.arange(6.).reshape(2, 3))[:, ::2],\n'
        '             lambda: frozen(np.arange(6, dtype=np.float32)).reshape(2, 3).T, lambda: np.broadcast_to(np.arange(3.), (2, 3)),\n'
        '             lambda: np.broadcast_to(frozen(np.arange(3.)), (2, 3))[0]]:\n'
        '    for f in [torch.from_numpy, torch.as_tensor, torch.asarray]:\n'
        '        a = make()\n'
        '        t = f(a)\n'
        '        tries(lambda: t.add_(1), lambda: t.mul_(2)[0], lambda: t.zero_().sum(), lambda: t.numpy().flags.writeable,\n'
        '              lambda: np.shares_memory(t.numpy(), a), lambda: (t.stride(), t._version))\n'
        '        print(a, a.flags.writeable)'),
    # torch.asarray reads a 0-d numpy array as the numpy scalar it holds: a copy, even with copy=False (unless its
    # dtype must change); a numpy scalar cannot be aliased
    "asarray_of_0d_arrays_and_numpy_scalars": (
        'import numpy as np\n'
        'for a in [np.array(5.), np.array(5, dtype=np.int32), np.array(True), np.array(2., dtype=np.float16), np.float32(3),\n'
        '          np.array([5.]), 5.0, [1.], np.bool_(True)]:\n'
        '    for f in [lambda: torch.asarray(a), lambda: torch.asarray(a, copy=False), lambda: torch.asarray(a, dtype=torch.float64),\n'
        '              lambda: torch.asarray(a, requires_grad=True), lambda: torch.asarray(a, dtype=torch.int64, copy=False)]:\n'
        '        try:\n'
        '            t = f()\n'
        '            if t.dtype != torch.bool:\n'
        '                t.detach().add_(1)\n'
        '            print(repr(t), a)\n'
        '        except Exception as e:\n'
        '            print(type(e).__name__, e)'),
    # functions taking a list of tensors name a numpy array in it by its C type (numpy.ndarray); broadcast_tensors
    # takes no numbers either
    "tensor_list_arguments_name_numpy_arrays": (
        'import numpy as np\n'
        't = torch.ones(2)\n'
        'a = np.ones(2)\n'
        'tries(lambda: torch.broadcast_tensors(t, a), lambda: torch.broadcast_tensors(a), lambda: torch.broadcast_tensors(t, 1),\n'
        '      lambda: torch.broadcast_tensors(t, 2.5), lambda: torch.broadcast_tensors(t, [1]), lambda: torch.einsum("i,i", t, a),\n'
        '      lambda: torch.einsum("i,i", t, [1, 2]), lambda: torch.clamp(t, a), lambda: torch.clamp(t, None, a),\n'
        '      lambda: torch.block_diag(t, a), lambda: torch.meshgrid(t, a), lambda: torch.cartesian_prod(t, a),\n'
        '      lambda: torch.broadcast_tensors(t, torch.ones(3, 1))[1].shape)'),
    # (matched already) numpy scalars and arrays on either side of an operator: a numpy scalar is a wrapped number
    # (it does not raise the tensor's dtype; np.bool_ is read as a float), a numpy array is an operand of its own
    # dtype whose operator defers to the tensor (__array_priority__): the result is a tensor either way
    "numpy_scalars_and_arrays_on_either_side": (
        'import numpy as np\n'
        'for a in [np.float64(2), np.float32(2), np.float16(2), np.int64(3), np.int8(3), np.uint8(3), np.bool_(True),\n'
        '          np.array(2.), np.array([1., 2.], dtype=np.float32), np.array([1, 2]), np.array([True, False])]:\n'
        '    for t in [torch.tensor([1., 2.]), torch.tensor([1, 2]), torch.tensor([1., 2.], dtype=torch.half),\n'
        '              torch.tensor([True, False]), torch.tensor([1., 2.], requires_grad=True)]:\n'
        '        out = []\n'
        '        for f in [lambda: a * t, lambda: t * a, lambda: a - t, lambda: t / a, lambda: a ** t, lambda: t // a,\n'
        '                  lambda: a == t, lambda: t < a]:\n'
        '            try:\n'
        '                r = f()\n'
        '                out.append("%s %s %s" % (type(r).__name__, r.dtype, r.grad_fn and r.grad_fn.name()))\n'
        '            except Exception as e:\n'
        '                out.append("%s: %s" % (type(e).__name__, e))\n'
        '        print(type(a).__name__, t.dtype, out)'),
    # (matched already) numpy() / np.asarray / np.array / ufuncs on a tensor requiring grad are refused (not under
    # no_grad, not with force=True); item() / tolist() give Python numbers; float(), int(), bool() of one element
    "numpy_conversions_of_tensors": (
        'import numpy as np, math\n'
        'for t in [torch.tensor([1., 2.], requires_grad=True), torch.tensor(2.5, requires_grad=True) * 2,\n'
        '          torch.tensor([3], dtype=torch.int16), torch.tensor(True), torch.tensor([[1.5]], dtype=torch.half), torch.zeros(0)]:\n'
        '    tries(lambda: t.numpy(), lambda: np.asarray(t), lambda: np.array(t), lambda: np.exp(t), lambda: np.sum(t),\n'
        '          lambda: t.numpy(force=True), lambda: (t.tolist(), type(t.tolist())), lambda: (t.item(), type(t.item())),\n'
        '          lambda: float(t), lambda: int(t), lambda: bool(t), lambda: complex(t), lambda: math.floor(t),\n'
        '          lambda: np.float32(t), lambda: "%.2f" % t, lambda: np.array([t, t]))\n'
        '    with torch.no_grad():\n'
        '        tries(lambda: t.numpy(), lambda: np.exp(t), lambda: float(t))'),
    # (matched already) memory shared with numpy: from_numpy / as_tensor / numpy() / np.asarray share it, torch.tensor
    # and np.array copy; writing through numpy is not seen by the version counter, in-place ops on the tensor are
    "memory_shared_with_numpy": (
        'import numpy as np\n'
        'a = np.zeros(3, dtype=np.float32)\n'
        'for t in [torch.from_numpy(a), torch.as_tensor(a), torch.tensor(a), torch.asarray(a), torch.as_tensor(a, dtype=torch.float64)]:\n'
        '    a[0] += 1\n'
        '    print(t, t._version)\n'
        '    t.add_(1)\n'
        '    print(a, t._version)\n'
        't = torch.arange(6.).reshape(2, 3)\n'
        'v = t.t()\n'
        'for n in [t.numpy(), np.asarray(t), v.numpy(), np.array(t), t[:, 1].numpy()]:\n'
        '    n[0] = -1\n'
        '    print(t, t._version, n.flags.writeable, n.flags.c_contiguous, n.strides)\n'
        'tries(lambda: torch.from_numpy(np.arange(4.)[::-1]), lambda: torch.from_numpy(np.arange(4.)[::2]).stride(),\n'
        '      lambda: torch.from_numpy(np.arange(6.).reshape(2, 3).T).stride(), lambda: torch.from_numpy(np.float64(1.)))'),
}


@pytest.mark.parametrize("name", SNIPPETS)
def test_snippet(name):
    code = SHOW + SNIPPETS[name]
    t, e = run_both(T, E, code)
    assert same(t, e), f"\n{code}\n--- torch\n{t.summary()}--- engine\n{e.summary()}"
