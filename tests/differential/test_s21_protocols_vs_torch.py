"""Python's protocols on tensors as learners use them (hash, reversed, the Python 2 names, pow with a modulus,
copy.copy / copy.deepcopy, numpy arrays, storages after set_ / resize_), and torch.device, torch.dtype and torch.Size
as Python objects, against real PyTorch. Printed text, warnings and the final error must be the same."""
import pytest

T = pytest.importorskip("torch", reason="differential tests need real PyTorch (pip install torch==2.13.0)")
from .harness import TRIES, load_engine, run_both, same  # noqa: E402

E = load_engine()

SNIPPETS = {
    # hash(t) is id(t), as PyTorch's Tensor.__hash__
    "hash_is_id": (
        'ts = [torch.tensor(1.), torch.ones(2, requires_grad=True), torch.nn.Parameter(torch.ones(1))]\n'
        'print([hash(t) == id(t) for t in ts], [t.__hash__() == id(t) for t in ts])\n'
        'd = {ts[0]: "a"}\n'
        'print(d[ts[0]], torch.tensor(1.) in d, len({ts[0], ts[0]}))'),
    # reversed(t) is t.flip(0) (a 0-d tensor itself); __nonzero__ and __long__ exist; pow(t, x, mod) is Python's
    # "unsupported operand"
    "reversed_nonzero_long_ternary_pow": (
        TRIES +
        'x = torch.tensor([1., 2., 3.], requires_grad=True)\n'
        's = torch.tensor(4)\n'
        'tries(lambda: reversed(x), lambda: list(reversed(x)), lambda: reversed(s), lambda: list(reversed(s)),\n'
        '      lambda: reversed(torch.arange(4).view(2, 2)), lambda: s.__nonzero__(), lambda: s.__long__(),\n'
        '      lambda: torch.tensor(2.7).__long__(), lambda: x.__nonzero__(), lambda: x.__long__(),\n'
        '      lambda: torch.zeros(0).__nonzero__(), lambda: pow(s, 2, 5), lambda: pow(x, 2, None),\n'
        '      lambda: s.__pow__(2, 5), lambda: s.__rpow__(2, 5), lambda: s ** 2)\n'
        'print(reversed(x).grad_fn)'),
    # copy.deepcopy of a leaf as PyTorch's: a new leaf set_ (version 1) on a copy of its memory at the same offset and
    # strides; one copy per memory in a deepcopy (copied views still share it); .grad deep-copied; attributes copied
    "deepcopy_keeps_layout_shared_memory_and_attributes": (
        'import copy\n'
        'a = torch.tensor([1., 2.], requires_grad=True)\n'
        '(a * 2).sum().backward()\n'
        'a.label = "w"; a.meta = {"k": [1]}\n'
        'b = copy.deepcopy(a)\n'
        'b.meta["k"].append(2)\n'
        'print(b, b._version, b.grad, b.grad._version, b.grad is a.grad, b.label, a.meta, b.meta)\n'
        'x = torch.arange(6.).reshape(2, 3)\n'
        'for v in [x.t(), x[1:], x[:, 1], torch.arange(6.)[::2]]:\n'
        '    c = copy.deepcopy(v)\n'
        '    print(c, c.stride(), c.storage_offset(), c.is_contiguous(), c._base, c._version,\n'
        '          c.untyped_storage().nbytes())\n'
        'y = torch.ones(4)\n'
        'l = copy.deepcopy([y, y[1:], y.view(2, 2), y])\n'
        'l[0][1] = 5\n'
        'print(l, l[0] is l[3], l[1].data_ptr() - l[0].data_ptr(), l[2]._base is None)\n'
        'print(copy.deepcopy(torch.zeros(2, 0)).stride(), copy.deepcopy(torch.tensor(5))._version)'),
    # copy.copy shares the memory and copies the attributes set on the tensor (a Parameter's too); a Parameter's
    # deepcopy is a new Parameter of a clone of its data (version 0), without its .grad or attributes
    "copy_attributes_and_parameter_deepcopy": (
        'import copy\n'
        'x = torch.ones(2)\n'
        'x.tag = [1]\n'
        'c = copy.copy(x)\n'
        'print(c.tag is x.tag, c._version)\n'
        'p = torch.nn.Parameter(torch.ones(2))\n'
        'p.grad = torch.ones(2); p.tag = 1\n'
        'q, r = copy.deepcopy(p), copy.copy(p)\n'
        'print(q, q.grad, getattr(q, "tag", None), q._version, r.grad, getattr(r, "tag", None), r._version)\n'
        'm = torch.nn.Linear(2, 1)\n'
        'm.weight.grad = torch.ones(1, 2)\n'
        'm2 = copy.deepcopy(m)\n'
        'print(m2.weight.grad, m2.weight._version, [type(t).__name__ for t in m2.parameters()])'),
    # copy.copy in inference mode makes an inference tensor, as any new tensor there
    "copy_in_inference_mode": (
        'import copy\n'
        'x = torch.ones(2, requires_grad=True)\n'
        'with torch.inference_mode():\n'
        '    z, y = copy.copy(x), copy.deepcopy(x)\n'
        'for t in (z, y):\n'
        '    try:\n'
        '        print(t.is_inference(), t.requires_grad, t._version)\n'
        '    except RuntimeError as e:\n'
        '        print(e)\n'
        'print(z * 2, y * 2)'),
    # t.numpy() and np.asarray(t) give a new array on the tensor's memory at each call
    "numpy_gives_a_new_array_each_call": (
        'import numpy as np\n'
        't = torch.ones(2)\n'
        'a = t.numpy()\n'
        'print(a is t.numpy(), np.asarray(t) is np.asarray(t), np.shares_memory(a, np.asarray(t)))\n'
        'a[0] = 5\n'
        'print(t, t._version)'),
    # torch.tensor(array or tensor) copies in the order of the strides (a broadcast one, with stride 0: row-major)
    "tensor_of_array_keeps_stride_order": (
        'import numpy as np\n'
        'for a in [np.broadcast_to(np.ones(3), (2, 3)), np.ones((3, 2)).T, np.ones((2, 3))[:, ::2],\n'
        '          np.asfortranarray(np.ones((2, 3))), np.ones((4, 6))[::2, 1::2].T, np.ones((3, 1, 2))[:, :, ::2]]:\n'
        '    t = torch.tensor(a)\n'
        '    print(t.stride(), t.is_contiguous(), torch.tensor(torch.from_numpy(a)).stride())\n'
        'print(torch.tensor(torch.ones(3).expand(2, 3)).stride(),\n'
        '      torch.tensor(torch.ones(3, 1).expand(3, 2).t()).stride())'),
    # ndarray / t: PyTorch's __rtruediv__ is t.reciprocal() * ndarray, which numpy then multiplies (a float64 tensor,
    # through __array_wrap__, which numpy 2 warns about); other operands stay unsupported
    "ndarray_divided_by_tensor": (
        'import numpy as np\n'
        'a = torch.tensor([1., 2.])\n'
        'for other in [np.array([1., 2.]), np.array(2.), np.array([1, 2], dtype=np.int32), "s", [1, 2], None]:\n'
        '    try:\n'
        '        r = other / a\n'
        '        print(type(r).__name__, r)\n'
        '    except Exception as e:\n'
        '        print(type(e).__name__, e)\n'
        'try:\n'
        '    np.array([1., 2.]) / torch.ones(2, requires_grad=True)\n'
        'except Exception as e:\n'
        '    print(type(e).__name__, e)'),
    # storage() / untyped_storage() are all the memory a tensor keeps since a set_ or resize_ (its detach() and .data
    # too), not just its elements
    "storage_after_set_and_resize": (
        'x = torch.arange(6.)\n'
        'y = torch.empty(0)\n'
        'y.set_(x.untyped_storage(), 2, (2,), (2,))\n'
        'print(y, y.untyped_storage().nbytes(), y.storage_offset(), len(y.untyped_storage()))\n'
        'z = torch.empty(0)\n'
        'z.set_(x[2:])\n'
        'print(z, z.untyped_storage().nbytes(), z.storage_offset(), z.storage().size())\n'
        'w = torch.ones(4)\n'
        'w.resize_(2)\n'
        'd = w.detach()\n'
        'print(w.untyped_storage().nbytes(), d.untyped_storage().nbytes(), w.data.untyped_storage().nbytes())\n'
        'd.resize_(4)\n'
        'print(d, w)'),
    # the storage of a tensor on a strided numpy array spans its first to its last element (those skipped too):
    # storages and deep copies see all of it
    "storage_of_a_strided_numpy_array": (
        'import copy\n'
        'import numpy as np\n'
        'for a in [np.arange(6.)[::2], np.arange(6.).reshape(2, 3).T, np.arange(12.).reshape(3, 4)[1:, ::2]]:\n'
        '    t = torch.from_numpy(a)\n'
        '    c = copy.deepcopy(t)\n'
        '    print(c, c.stride(), c.untyped_storage().nbytes(), t.untyped_storage().nbytes(),\n'
        '          len(t.detach().untyped_storage()))'),
    # torch.device: index checks in PyTorch's order, read-only fields, pickling by type and index
    "device_index_checks_and_fields": (
        TRIES +
        'import pickle\n'
        'd = torch.device("cpu")\n'
        'tries(lambda: torch.device("cpu", -1), lambda: torch.device("cuda", -2), lambda: torch.device(-1),\n'
        '      lambda: torch.device("cpu:0", 1), lambda: torch.device("cpu:0", 0), lambda: torch.device("gpu:0", 1),\n'
        '      lambda: torch.device("cpu:x", 1), lambda: torch.device("cpu", True),\n'
        '      lambda: torch.device("cpu", index=3), lambda: torch.device(type="cuda", index=-1),\n'
        '      lambda: d.__reduce__(), lambda: torch.device("cuda:1").__reduce__(),\n'
        '      lambda: pickle.loads(pickle.dumps(torch.device("cpu", 1))), lambda: setattr(d, "type", "cuda"),\n'
        '      lambda: setattr(d, "index", 1), lambda: setattr(d, "foo", 1), lambda: delattr(d, "type"), lambda: d)'),
    # `with torch.device(...)`: the default device in the block (a CUDA one fails); <, <=, >, >= between devices are
    # PyTorch's error
    "device_context_and_ordering": (
        TRIES +
        'with torch.device("cpu") as d:\n'
        '    x = torch.ones(2)\n'
        'print(d, x.device, torch.get_default_device())\n'
        'try:\n'
        '    with torch.device("cuda"):\n'
        '        torch.ones(2)\n'
        'except AssertionError as e:\n'
        '    print(e)\n'
        'c = torch.device("cpu")\n'
        'tries(lambda: c < c, lambda: c >= torch.device("cuda", 0), lambda: c < 1, lambda: "a" > c, lambda: c != c,\n'
        '      lambda: c.__lt__(c), lambda: torch.ones(1).device)'),
    # torch.Size times a non-int: Python's error naming the type by its C name; a sequence times a Size, the
    # sequence's error naming torch.Size
    "size_repeat_errors": (
        TRIES +
        's = torch.Size([2, 3])\n'
        'tries(lambda: s * s, lambda: s * torch.float32, lambda: s * torch.device("cpu"), lambda: "ab" * s,\n'
        '      lambda: (1,) * s, lambda: [1] * s, lambda: 2.0 * s, lambda: s * 2.0, lambda: s * (1,), lambda: 2 * s,\n'
        '      lambda: s * torch.tensor(2), lambda: True * s)'),
    # torch.dtype cannot be instantiated; torch.Size has no __setitem__ / __delitem__ (Python's tuple errors)
    "dtype_and_size_as_python_objects": (
        TRIES +
        's = torch.Size([2, 3])\n'
        'def delete():\n'
        '    del s[0]\n'
        'def assign():\n'
        '    s[0] = 1\n'
        'tries(lambda: torch.dtype(), lambda: torch.dtype("float32"), lambda: type(torch.float32)(), delete, assign,\n'
        '      lambda: s.__delitem__(0), lambda: s.__setitem__(0, 1), lambda: s, lambda: torch.float32)'),
}


@pytest.mark.parametrize("name", SNIPPETS)
def test_snippet(name):
    code = SNIPPETS[name]
    t, e = run_both(T, E, code)
    assert same(t, e), f"\n{code}\n--- torch\n{t.summary()}--- engine\n{e.summary()}"
