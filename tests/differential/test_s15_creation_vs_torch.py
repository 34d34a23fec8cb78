"""The fifteenth session's creation and shaping corners against real PyTorch: the legacy constructors given sizes
and data together, view/reshape's size checks in PyTorch's order, view(dtype), arange / linspace / logspace by
keyword and their parser errors, a tensor as full's fill value, Tensor.type() with torch.Tensor, CUDA types and bad
arguments, cat / stack of non-tensors, unsqueeze / cat / split given non-ints, unflatten's errors, float lists as
indices, fill_() of a non-number, new_* names in errors, .to() with two dtypes or positional bools, factories with
out= (its dtype, arange's own warning) and size= given twice or as an int. Printed text, warnings and the final
error must be identical."""
import pytest

T = pytest.importorskip("torch", reason="differential tests need real PyTorch (pip install torch==2.13.0)")
from .harness import TRIES, load_engine, run_both, same  # noqa: E402

E = load_engine()

SNIPPETS = {
    "legacy_constructor_sizes_and_data": TRIES + (
        'tries(lambda: torch.FloatTensor([1, 2], [3]), lambda: torch.Tensor([1, 2], [3, 4]),\n'
        '      lambda: torch.FloatTensor(2.5, 3), lambda: torch.LongTensor((1,), 2), lambda: torch.IntTensor(None, 2),\n'
        '      lambda: torch.FloatTensor(2, 3).shape, lambda: torch.FloatTensor.dtype, lambda: torch.LongTensor.is_cuda,\n'
        '      lambda: type(torch.ones(2).type))'),
    "view_and_reshape_size_checks": TRIES + (
        'x = torch.arange(12)\n'
        'tries(lambda: x.view(0, -1), lambda: x.reshape(-1, 0), lambda: x.view(-2, 6), lambda: x.reshape(6, -3),\n'
        '      lambda: x.view(3, -1, -5), lambda: x.view(-1, -1, -2), lambda: torch.arange(0).view(2, 0, -1),\n'
        '      lambda: x.view(5, -1), lambda: x.view([2, -1]).shape, lambda: torch.zeros(0, 3).view(-1, 0))'),
    "view_as_another_dtype": TRIES + (
        'x = torch.tensor([1., 2.], requires_grad=True)\n'
        'y = x.view(torch.int32); print(y, y.requires_grad, y.is_leaf, y._base is x, y.grad_fn)\n'
        'z = torch.arange(6.).view(2, 3); w = z.view(torch.int16); w[0, 1] = 16256; print(z, z._version, w.stride())\n'
        'tries(lambda: z.view(torch.float64), lambda: z[:, :2].view(torch.float64), lambda: torch.tensor(1.).view(torch.int64),\n'
        '      lambda: torch.arange(8.).view(2, 4)[:, 1:3].view(torch.float64), lambda: z.t().view(torch.int8),\n'
        '      lambda: torch.tensor([1, 0], dtype=torch.uint8).view(torch.bool), lambda: torch.tensor([1., 2.]).view(torch.float32))'),
    "arange_by_keyword_and_its_errors": TRIES + (
        'tries(lambda: torch.arange(start=1, end=5), lambda: torch.arange(end=3), lambda: torch.arange(1, end=5),\n'
        '      lambda: torch.arange(0, 5, step=2), lambda: torch.arange(start=1., end=3), lambda: torch.arange(start=1),\n'
        '      lambda: torch.arange(step=2), lambda: torch.arange(), lambda: torch.arange(1, 2, 3, 4),\n'
        '      lambda: torch.arange(end=5, step=2), lambda: torch.arange(5, start=1), lambda: torch.arange(5, foo=1),\n'
        "      lambda: torch.arange('5'), lambda: torch.arange(None), lambda: torch.arange(1, None))"),
    "linspace_and_logspace_arguments": TRIES + (
        'tries(lambda: torch.logspace(0, 1), lambda: torch.logspace(0, 1, 2.5), lambda: torch.logspace(0, 1, 3, 2, 5),\n'
        "      lambda: torch.logspace(0, 1, 3, 'a'), lambda: torch.logspace(0, 1, steps=3, base=2),\n"
        '      lambda: torch.logspace(end=3, steps=2, start=1, base=2.), lambda: torch.linspace(0, 1, None),\n'
        '      lambda: torch.linspace(0, 1, 3, 4), lambda: torch.linspace(0, 1, 3, foo=1), lambda: torch.linspace(0),\n'
        '      lambda: torch.linspace(start=0, end=1, steps=3), lambda: torch.linspace(end=3, steps=2))'),
    "tensor_as_fill_value": TRIES + (
        'tries(lambda: torch.full((2,), torch.tensor(2.)), lambda: torch.full((2,), torch.tensor([2.])),\n'
        '      lambda: torch.full((2,), torch.tensor(2., requires_grad=True)), lambda: torch.full((2,), torch.tensor(3)),\n'
        '      lambda: torch.full_like(torch.ones(2), torch.tensor(2.)), lambda: torch.full_like(torch.ones(2), [1]),\n'
        '      lambda: torch.full_like(torch.ones(2), 7))'),
    "type_with_torch_tensor_cuda_and_bad_arguments": TRIES + (
        'x = torch.tensor([1, 2])\n'
        "tries(lambda: x.type(torch.Tensor), lambda: x.type('torch.Tensor'), lambda: x.type(torch.cuda.FloatTensor),\n"
        "      lambda: x.type('torch.cuda.LongTensor'), lambda: x.type(3), lambda: x.type(torch.float64, non_blocking=True))"),
    "cat_and_stack_of_non_tensors": TRIES + (
        'import numpy as np\n'
        'tries(lambda: torch.stack([1, 2]), lambda: torch.cat([1, 2]), lambda: torch.stack([torch.ones(1), 1.5]),\n'
        '      lambda: torch.cat([torch.ones(1), None]), lambda: torch.cat([torch.ones(1), np.ones(1)]),\n'
        '      lambda: torch.hstack([torch.ones(1), 2]), lambda: torch.cat([torch.ones(1)], 1.0),\n'
        '      lambda: torch.stack([torch.ones(1)], 1.0), lambda: torch.cat([torch.tensor(1.), torch.tensor(2.)]))'),
    "non_int_dims_and_split_sizes": TRIES + (
        'x = torch.arange(10)\n'
        "tries(lambda: x.unsqueeze((0, 1)), lambda: x.unsqueeze(1.5), lambda: x.unsqueeze(None), lambda: x.split([5, 5.0]),\n"
        '      lambda: x.split([5.0, 5]), lambda: torch.split(x, [5, None]), lambda: x.split((5, True, 4)),\n'
        '      lambda: x.split([]))'),
    "unflatten_errors": TRIES + (
        'x = torch.arange(12).view(2, 6)\n'
        'tries(lambda: x.unflatten(1, ()), lambda: x.unflatten(-1, (4, -1)), lambda: x.unflatten(1, (-1, 4)),\n'
        '      lambda: x.unflatten(1, (0, -1)), lambda: x.unflatten(-1, (-1, 2)).shape, lambda: x.unflatten(1, [2, 3]).shape)'),
    "float_lists_as_indices": (
        'x = torch.arange(12).view(3, 4)\n'
        'print(x[[0.5]], x[[1.7, 0]], x[[1, 2.5]], x[[-0.5]])\n'
        'y = torch.zeros(4); y[[1.5, 2.2]] = 1; print(y)'),
    "fill_of_a_non_number": TRIES + (
        'x = torch.zeros(3)\n'
        "tries(lambda: x.fill_(None), lambda: x.fill_([1.]), lambda: x.fill_((1,)), lambda: x.fill_('a'), lambda: x.fill_(True))"),
    "new_factories_name_themselves": TRIES + (
        'x = torch.ones(2, 3)\n'
        'tries(lambda: x.new_full(2, 7), lambda: x.new_zeros(), lambda: x.new_ones(), lambda: x.new_empty(),\n'
        '      lambda: x.new_full((2,), 7))'),
    "to_with_two_dtypes_or_positional_bools": TRIES + (
        'x = torch.tensor([1, 2])\n'
        "tries(lambda: x.to(torch.float32, torch.int64), lambda: x.to(torch.ones(1), torch.float64),\n"
        "      lambda: x.to(torch.float64, True), lambda: x.to('cpu', torch.float64, True, True),\n"
        "      lambda: x.to(torch.int64, False, True) is x, lambda: x.to(torch.int64, True) is x,\n"
        "      lambda: x.to('cpu', torch.int64, False, True) is x, lambda: x.to(x, False, True) is x,\n"
        "      lambda: x.to('cpu', True), lambda: x.to(torch.float32, True, True, True), lambda: x.to(None, True),\n"
        "      lambda: x.to(float, False, True), lambda: x.to('cpu', None, False, True) is x)"),
    "factories_with_out": TRIES + (
        'tries(lambda: torch.zeros(2, out=torch.empty(0, dtype=torch.int64)), lambda: torch.ones(2, 3, out=torch.empty(6)),\n'
        '      lambda: torch.full((2,), 1.5, out=torch.empty(0, dtype=torch.int64)),\n'
        '      lambda: torch.eye(2, out=torch.empty(0, dtype=torch.int64)), lambda: torch.rand(2, 3, out=torch.empty(6)).shape,\n'
        '      lambda: torch.linspace(0, 1, 3, out=torch.empty(0, dtype=torch.int64)),\n'
        '      lambda: torch.ones(2, dtype=torch.float64, out=torch.empty(2)),\n'
        '      lambda: torch.arange(3, dtype=torch.float64, out=torch.empty(0, dtype=torch.int64)),\n'
        '      lambda: torch.rand(3, dtype=torch.float64, out=torch.empty(0)),\n'
        '      lambda: torch.randint(3, (2,), out=torch.empty(0)).dtype, lambda: torch.arange(5, out=torch.empty(2)),\n'
        '      lambda: torch.arange(6, out=torch.empty(0, dtype=torch.int32)), lambda: torch.zeros(3, out=torch.empty(0), requires_grad=True))\n'
        'x = torch.empty(3); torch.zeros(3, out=x); print(x._version, torch.ones(2, out=x) is x, x._version)'),
    "size_keyword_twice_or_an_int": TRIES + (
        'tries(lambda: torch.zeros(size=2), lambda: torch.ones(2, size=3), lambda: torch.empty(size=(2,)).shape,\n'
        "      lambda: torch.rand(size=2), lambda: torch.randn(2, size=3), lambda: torch.rand(2, dtype='float32'),\n"
        '      lambda: torch.zeros(size=[1, 2]))'),
    "asarray": TRIES + (
        'import numpy as np\n'
        'x = torch.tensor([1., 2.]); xr = torch.tensor([1., 2.], requires_grad=True)\n'
        'y = torch.asarray(x); y[0] = 9; print(y is x, x, x._version, torch.asarray(x, copy=True) is x)\n'
        'print(torch.asarray(xr) is xr, torch.asarray(xr * 2).grad_fn, torch.asarray(xr, dtype=torch.float64),\n'
        '      torch.asarray(xr, copy=True), torch.asarray(xr * 2, requires_grad=False))\n'
        'a = np.array([1., 2.]); t = torch.asarray(a); u = torch.asarray(a, dtype=torch.float32); a[0] = 5; print(t, u)\n'
        'tries(lambda: torch.asarray(x, dtype=torch.float64, copy=False), lambda: torch.asarray([1, 2], copy=False),\n'
        '      lambda: torch.asarray(np.ones(2), dtype=torch.float32, copy=False), lambda: torch.asarray([1., 2.], requires_grad=True),\n'
        '      lambda: torch.asarray(torch.ones(2, dtype=torch.int64), requires_grad=True), lambda: torch.asarray(3.5),\n'
        "      lambda: torch.asarray('a'), lambda: torch.asarray(np.float32(2)), lambda: torch.asarray([[1, 2], [3]]),\n"
        '      lambda: torch.asarray(range(3)), lambda: torch.asarray(np.ones(2), requires_grad=True))\n'
        't = torch.asarray(xr, requires_grad=False); print(t is xr, xr.requires_grad)'),
    "tensor_types_cuda_ones_included": TRIES + (
        'x = torch.ones(2)\n'
        'print(isinstance(x, torch.cuda.FloatTensor), isinstance(x, torch.FloatTensor), torch.cuda.FloatTensor,\n'
        '      type(torch.cuda.LongTensor), type(torch.FloatTensor), torch.cuda.FloatTensor.__name__)\n'
        'tries(lambda: torch.cuda.FloatTensor([1]), lambda: x.to([1]),\n'
        '      lambda: x.to(torch.float32, 3.5), lambda: x.to(dtype=3), lambda: x.to(float))'),
    "legacy_constructor_device": TRIES + (
        "tries(lambda: torch.FloatTensor(2, device='cuda'), lambda: torch.FloatTensor(device='cuda'),\n"
        "      lambda: torch.FloatTensor(torch.tensor([1.]), device='cuda'), lambda: torch.Tensor([1], device='cuda:1'),\n"
        "      lambda: torch.Tensor(torch.tensor([1.]), device=None), lambda: torch.Tensor([1], device=torch.device('cpu')),\n"
        "      lambda: torch.Tensor([1], device='meta'))"),
    "reshape_permute_tile_functions_take_one_sequence": TRIES + (
        'x = torch.arange(6.)\n'
        'tries(lambda: torch.reshape(x, 3, 2), lambda: torch.reshape(x, 6), lambda: torch.reshape(x),\n'
        '      lambda: torch.reshape(x, shape=6), lambda: torch.reshape(x, shape=(3, 2)), lambda: torch.reshape(x, (2, -1)),\n'
        '      lambda: torch.permute(x.view(2, 3), 1, 0), lambda: torch.permute(x, 0), lambda: torch.permute(x.view(2, 3), dims=[1, 0]),\n'
        '      lambda: torch.tile(x, 2, 2), lambda: torch.tile(x, (2,)))'),
    "range_needs_both_bounds_and_checks_them": TRIES + (
        "tries(lambda: torch.range(5), lambda: torch.range(end=5), lambda: torch.range(1, 0), lambda: torch.range(0, 5, 0),\n"
        "      lambda: torch.range(0, float('inf')), lambda: torch.range(0, 'a'), lambda: torch.range(0, 5, 1, 2),\n"
        '      lambda: torch.range(1, 1), lambda: torch.range(start=0, end=2, step=0.5), lambda: torch.range(3, 0, -1))'),
    "like_factories_keep_a_dense_layout": (
        'x = torch.arange(6.).view(2, 3).t()\n'
        'print(torch.zeros_like(x).stride(), torch.empty_like(x).stride(), torch.full_like(x, 2).stride(),\n'
        '      torch.ones_like(x, memory_format=torch.contiguous_format).stride(), torch.rand_like(x).stride())\n'
        'torch.manual_seed(0); print(torch.rand_like(x), torch.randn_like(x), torch.randint_like(x, 10))\n'
        'y = torch.ones(2, 3, 4, 5); z = y.permute(0, 2, 3, 1)\n'
        'torch.manual_seed(0); r = torch.rand_like(y, memory_format=torch.channels_last); print(r.stride(), r[0, :, 0, 0])\n'
        'torch.manual_seed(0); r = torch.randn_like(z); print(r.stride(), r[0, 0, 0])\n'
        'print(torch.zeros_like(z).stride(), torch.ones_like(y[:, :, ::2]).stride(), torch.ones_like(y.expand(2, 3, 4, 5)).stride(),\n'
        '      torch.zeros_like(torch.ones(1, 3).t()).stride(), torch.empty_like(torch.ones(2, 1, 3).permute(2, 1, 0)).stride())'),
    "like_factories_arguments": TRIES + (
        'g = torch.Generator().manual_seed(3); x = torch.ones(3)\n'
        'print(torch.rand_like(x, generator=g), torch.randn_like(x, generator=g), torch.randint_like(x, 10, generator=g))\n'
        'tries(lambda: torch.zeros_like(), lambda: torch.ones_like(), lambda: torch.full_like(), lambda: torch.full_like(x),\n'
        '      lambda: torch.rand_like(), lambda: torch.randn_like(), lambda: torch.randint_like(x),\n'
        '      lambda: torch.zeros_like(torch.ones(2), memory_format=torch.channels_last))'),
    "eye_randperm_full_scalar_tensor_arguments": TRIES + (
        "tries(lambda: torch.eye(), lambda: torch.eye(2, 3.0), lambda: torch.eye(2, m=None), lambda: torch.eye(2, None),\n"
        "      lambda: torch.eye(n=2, m=3), lambda: torch.eye(2, 3, 4), lambda: torch.randperm(), lambda: torch.randperm(3, 4),\n"
        "      lambda: torch.randperm(n=0), lambda: torch.full((2,), 1, 2), lambda: torch.scalar_tensor([1]),\n"
        "      lambda: torch.scalar_tensor(None), lambda: torch.scalar_tensor(), lambda: torch.scalar_tensor(torch.tensor(2.)),\n"
        "      lambda: torch.scalar_tensor(True))"),
    "empty_in_channels_last": TRIES + (
        "tries(lambda: torch.empty(2, 3, 4, 5, memory_format=torch.channels_last).stride(),\n"
        "      lambda: torch.empty(2, memory_format=torch.channels_last), lambda: torch.empty(2, memory_format=1),\n"
        "      lambda: torch.empty(2, memory_format=torch.contiguous_format).shape)"),
    "generator_seeds": TRIES + (
        'g = torch.Generator()\n'
        "tries(lambda: g.manual_seed(2 ** 64), lambda: g.manual_seed(-2 ** 63 - 1), lambda: g.manual_seed(1.5),\n"
        "      lambda: g.manual_seed('3'), lambda: g.manual_seed(True), lambda: g.manual_seed(-1).initial_seed(),\n"
        "      lambda: g.manual_seed(2 ** 63).initial_seed(), lambda: torch.manual_seed(2 ** 64),\n"
        "      lambda: torch.manual_seed(1.5).initial_seed())"),
    "numpy_arrays_of_the_other_byte_order": TRIES + (
        'import numpy as np\n'
        "a = np.array([1, 2], dtype='>f4')\n"
        'tries(lambda: torch.from_numpy(a), lambda: torch.tensor(a), lambda: torch.as_tensor(a),\n'
        "      lambda: torch.from_numpy(np.array([1], dtype='<f4')))"),
    "deprecated_resize_and_resize_as": TRIES + (
        'x = torch.arange(6.).requires_grad_()\n'
        'y = x.resize(2, 3); print(y, y.grad_fn, y._base is x); y.sum().backward(); print(x.grad)\n'
        'z = x.resize_as(torch.ones(3, 2)); print(z.grad_fn, z.shape, x.resize, x.unflatten)\n'
        'w = torch.arange(6.).view(2, 3).t().resize(6); print(w, w.grad_fn)\n'
        'tries(lambda: x.resize(4), lambda: torch.arange(6.).resize((3, 2)))'),
    "memory_shared_with_numpy_cannot_grow": TRIES + (
        'import numpy as np\n'
        'a = np.ones(4, dtype=np.float32); t = torch.from_numpy(a); t.resize_(2, 2); print(t); t.resize_(3); print(t, a)\n'
        'x = torch.ones(4); n = x[1:].numpy(); y = torch.ones(4); m = y.numpy(); y.resize_(2)\n'
        'tries(lambda: t[1:].resize_(4), lambda: torch.as_tensor(a).resize_(2, 3),\n'
        '      lambda: x.resize_(6), lambda: y.view(2).resize_(8), lambda: torch.ones(2).resize_(3).shape)'),
}


@pytest.mark.parametrize("name", SNIPPETS)
def test_snippet(name):
    code = SNIPPETS[name]
    t, e = run_both(T, E, code)
    assert same(t, e), f"\n{code}\n--- torch\n{t.summary()}--- engine\n{e.summary()}"
