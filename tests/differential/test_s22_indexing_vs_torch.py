"""Indexing, slicing and shape manipulation as learners use them (reads, writes, their gradients and errors), against
real PyTorch. Printed text, warnings and the final error must be the same."""
import pytest

T = pytest.importorskip("torch", reason="differential tests need real PyTorch (pip install torch==2.13.0)")
from .harness import SHOW, TRIES, load_engine, run_both, same  # noqa: E402

E = load_engine()

SNIPPETS = {
    # t[advanced] = value drops the value's leading size-1 dims through a view (ViewBackward0), so its gradient has
    # the value's shape; a mask's value of 2 dims or more that does not broadcast is PyTorch's shape mismatch
    "setitem_advanced_value_leading_ones": (
        TRIES +
        'w = torch.zeros(3, 4, requires_grad=True)\n'
        'v = torch.ones(1, 1, 4, requires_grad=True)\n'
        'x = w.clone()\n'
        'x[[0, 1]] = v\n'
        'print(x.grad_fn, x.grad_fn.next_functions[1][0])\n'
        'x.sum().backward()\n'
        'print(v.grad, w.grad)\n'
        'x = torch.arange(12.).reshape(3, 4)\n'
        'def put(i, value):\n'
        '    x[i] = value\n'
        '    return x\n'
        'tries(lambda: put(x > 5, torch.ones(3, 1)), lambda: put(x > 100, torch.ones(2, 2, 2)),\n'
        '      lambda: put(x > 5, torch.ones(1, 4)), lambda: put([0, 1], torch.ones(1, 3, 4)),\n'
        '      lambda: put(x > 8, torch.ones(1, 1, 3)))'),
    # split with sizes and unbind of a 0-d tensor: PyTorch's errors (split's name; the dim checked first)
    "split_and_unbind_of_0d": (
        TRIES +
        'x = torch.tensor(3.)\n'
        'tries(lambda: x.split([1, 1]), lambda: torch.split(x, [1]), lambda: x.split_with_sizes([1]),\n'
        '      lambda: x.unbind(), lambda: x.unbind(-1), lambda: x.unbind(1), lambda: torch.unbind(x, -2))'),
    # an int index beyond int64 (alone, in a list, or to select): the parser's "Overflow when unpacking long long"
    "index_beyond_int64": (
        TRIES +
        'x = torch.arange(5)\n'
        'def put(i):\n'
        '    x[i] = 1\n'
        'tries(lambda: x[2 ** 63], lambda: x[-2 ** 63 - 1], lambda: x[[2 ** 64]], lambda: x[[1, 2 ** 63]],\n'
        '      lambda: x[[[2 ** 63]]], lambda: x.select(0, 2 ** 63), lambda: x[[2 ** 63 - 1]], lambda: put(2 ** 63),\n'
        '      lambda: put([2 ** 63]))'),
    # index_add checks the dtypes before the number of indices and the shapes
    "index_add_dtype_checked_first": (
        TRIES +
        'x = torch.arange(12).reshape(3, 4)\n'
        'tries(lambda: x.index_add(0, torch.tensor([0, 0]), torch.ones(2, 3)),\n'
        '      lambda: x.index_add(0, torch.tensor([0, 0, 0]), torch.ones(2, 4)),\n'
        '      lambda: x.index_add(0, torch.tensor([0, 0]), torch.ones(2, 4, dtype=torch.long)))'),
    # uint8 masks: one warning per mask where the kernel reads it (backward too: saved as given), none for a 0-d one
    # (a bool); one value through one uint8 mask is masked_fill_'s error (after autograd's checks and the mask's shape)
    "uint8_masks": (
        TRIES +
        'm = torch.tensor([1, 0], dtype=torch.uint8)\n'
        'm3 = torch.tensor([0, 1, 1], dtype=torch.uint8)\n'
        'one = torch.tensor(1, dtype=torch.uint8)\n'
        'x = torch.zeros(2, 3)\n'
        'def put(x, i, v):\n'
        '    x[i] = v\n'
        '    return x\n'
        'tries(lambda: put(x, m, 1), lambda: put(x, (m, 1), torch.tensor([3.])), lambda: put(x, (Ellipsis, m3), 2),\n'
        '      lambda: put(x, (m, m3), 4.), lambda: put(x, m, torch.ones(3)), lambda: put(x, m3, torch.ones(3)),\n'
        '      lambda: put(x, one, 5), lambda: put(torch.tensor(5.), one, 6), lambda: put(x, m3, 1),\n'
        '      lambda: put(torch.zeros(2, 3, requires_grad=True), m, 1), lambda: torch.tensor(5.)[m],\n'
        '      lambda: x[one].shape, lambda: torch.tensor(5.)[one], lambda: x[m, m3])\n'
        'w = torch.zeros(2, 3, requires_grad=True)\n'
        'y = w[m]\n'
        'print(y.grad_fn._saved_indices)\n'
        'y.sum().backward()\n'
        'print(w.grad)'),
    # a complex number written into a real tensor: its real part when it has no imaginary one, a bool takes any;
    # else checked_convert's error (before the index is read)
    "setitem_complex_number": (
        TRIES +
        'def put(d, i, v):\n'
        '    x = torch.zeros(3, dtype=d)\n'
        '    x[i] = v\n'
        '    return x\n'
        'tries(lambda: put(torch.float32, 0, 1 + 2j), lambda: put(torch.float32, 5, 1 + 2j),\n'
        '      lambda: put(torch.float64, [0, 1], 2 + 0j), lambda: put(torch.int32, 0, 1j),\n'
        '      lambda: put(torch.half, 0, 1j), lambda: put(torch.bool, slice(None), 1j), lambda: put(torch.bool, 5, 1j),\n'
        '      lambda: put(torch.int64, 1, complex("nan+0j")), lambda: put(torch.uint8, 0, 3 + 0j))'),
    # a Python float written into a float64 tensor keeps all its digits (the value is made a tensor of its dtype)
    "setitem_number_in_tensor_dtype": (
        'x = torch.zeros(4, dtype=torch.float64)\n'
        'x[0] = 0.1\n'
        'x[1:2] = 1 / 3\n'
        'x[[2]] = 1e300\n'
        'x[x == 0] = 0.7\n'
        'print(x.tolist())\n'
        'w = torch.zeros(3, dtype=torch.float64, requires_grad=True)\n'
        'y = w.clone()\n'
        'y[0] = 0.1\n'
        'y[[1]] = 0.2\n'
        'print(y.tolist(), y.grad_fn)'),
    # an empty tuple inside an index is an empty index tensor (int64), as an empty list
    "empty_tuple_inside_index": (
        TRIES +
        'x = torch.arange(6.).view(2, 3)\n'
        'def put():\n'
        '    x[(),] = 5\n'
        '    return x\n'
        'tries(lambda: x[(),], lambda: x[(), 1], lambda: x[:, ()], lambda: x[[(), ()]], put)'),
    # t[index] = value refuses an index tensor that is the written memory; one value through one bool mask is
    # masked_fill_ of its number, which may be an element of the tensor written to
    "setitem_overlap_of_index_and_value": (
        TRIES +
        'def put(s):\n'
        '    x = torch.arange(9).view(3, 3)\n'
        '    exec(s)\n'
        '    return x\n'
        'tries(lambda: put("x[x] = 1"), lambda: put("x[x.long()] = 1"), lambda: put("x[x > 3] = x[0, 0]"),\n'
        '      lambda: put("x[x > 3] = x[1, :1]"), lambda: put("x[[0, 1]] = x[1, 1]"), lambda: put("x[x > 3] = x[2:]"),\n'
        '      lambda: put("x.index_put_((x > 3,), x[0, 0])"),\n'
        '      lambda: put("x.index_put_((x > 3,), x[0, 0], accumulate=True)"))'),
    # a numpy array index is a sequence (bools kept, floats truncated to int64, strings refused as torch.tensor
    # does); a numpy scalar that is no integer is refused by its C type's name
    "numpy_array_and_scalar_indices": (
        TRIES +
        'import numpy as np\n'
        'x = torch.arange(9.).view(3, 3)\n'
        'tries(lambda: x[np.array([1.5])], lambda: x[np.array(["a"])], lambda: x[np.array([None])],\n'
        '      lambda: x[np.array([1], dtype=np.uint64)], lambda: x[np.array(1.5)], lambda: x[np.float64(1)],\n'
        '      lambda: x[np.bool_(True)], lambda: x[np.float32(0), 1], lambda: x[np.int8(1)])'),
    # a 0-d tensor indexed by a slice: Python's errors for the slice's items come first
    "slice_of_0d_bad_items": (
        TRIES +
        'x = torch.tensor(2.)\n'
        'tries(lambda: x[1.5:2], lambda: x["a":], lambda: x[torch.tensor(1.):], lambda: x[::0], lambda: x[::-1],\n'
        '      lambda: x[1:], lambda: x[:])'),
    # select_scatter / slice_scatter / diagonal_scatter / narrow_copy: values, errors, nodes and saved attributes,
    # gradients for the input and the src
    "scatter_into_views_and_narrow_copy": (
        SHOW +
        'x = torch.arange(12.).reshape(3, 4).requires_grad_()\n'
        's = torch.arange(4.).requires_grad_()\n'
        'for y in [torch.select_scatter(x, s * 10, 0, -1), x.slice_scatter(torch.ones(3, 2), -1, -2),\n'
        '          torch.slice_scatter(x, torch.ones(1, 4), start=2), torch.diagonal_scatter(x, s[:3], 0, 1, 0),\n'
        '          torch.narrow_copy(x, 1, 1, 2)]:\n'
        '    show(y)\n'
        '    (y * torch.arange(y.numel()).view(y.shape)).sum().backward()\n'
        '    print(x.grad, s.grad)\n'
        'i = torch.arange(12).reshape(3, 4)\n'
        'tries(lambda: torch.select_scatter(x, torch.ones(3), 0, 0), lambda: torch.select_scatter(x, s, 0, 5),\n'
        '      lambda: torch.select_scatter(i, torch.ones(4).long(), 0, 0), lambda: torch.select_scatter(i, s, 0, 0),\n'
        '      lambda: torch.slice_scatter(x, torch.ones(3, 2), 1, 0, 4, 0), lambda: torch.diagonal_scatter(x, s),\n'
        '      lambda: torch.diagonal_scatter(x, s, 0, 0, 0), lambda: torch.narrow_copy(i, 0, 2, 5),\n'
        '      lambda: x.narrow_copy(-1, -2, 2).sum().backward())'),
    # a value written into an expanded tensor (index_put_, masked fill: deprecated, warned) gets its gradient when
    # the expanded base needs none; a base that needs one refuses it (copy_ into elements sharing memory)
    "setitem_into_expanded_gradient_of_value": (
        TRIES +
        'def run(s, base_grad):\n'
        '    w = torch.arange(3.).requires_grad_(base_grad)\n'
        '    v = torch.tensor([1., 2., 3.], requires_grad=True)\n'
        '    x = (w * 1).expand(3, 3)\n'
        '    exec(s)\n'
        '    x.sum().backward()\n'
        '    return v.grad, w.grad, x.grad_fn\n'
        'tries(lambda: run("x[[0, 2]] = v", False), lambda: run("x[[0, 2]] = v[0]", False),\n'
        '      lambda: run("x[x > 1] = v[:1]", False), lambda: run("x[[0, 2]] = v", True))'),
    # indexing an empty tensor reads no index (none is out of range) but those into an empty dim; its gradient too
    "index_into_empty_tensor": (
        TRIES +
        'def run(shape, f):\n'
        '    x = torch.zeros(*shape, requires_grad=True)\n'
        '    y = f(x)\n'
        '    y.sum().backward()\n'
        '    return y, y.grad_fn, x.grad.shape\n'
        'tries(lambda: run((0, 3), lambda x: x[:, [5]]), lambda: run((0, 3), lambda x: x[[5]]),\n'
        '      lambda: run((2, 0), lambda x: x[[5]]), lambda: run((3, 0, 2), lambda x: x[[1, 7]]),\n'
        '      lambda: run((3, 0, 2), lambda x: x[:, :, [5]]), lambda: run((0, 3), lambda x: x[..., [0, 3]]))'),
}


@pytest.mark.parametrize("name", SNIPPETS)
def test_snippet(name):
    code = SNIPPETS[name]
    t, e = run_both(T, E, code)
    assert same(t, e), f"\n{code}\n--- torch\n{t.summary()}--- engine\n{e.summary()}"
