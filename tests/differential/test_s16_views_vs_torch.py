"""Indexing and views against real PyTorch: the strides of expand / unsqueeze (dims of size 1), the memory layout
of an advanced-indexing result, index tensor dtypes, in-place index ops on expanded tensors (deprecated: warned and
written), the value checked before the index in `x[i] = v`, chunk's argument order, `.real` / `.imag` and one
storage object per memory. Printed text, warnings and the final error must be the same."""
import pytest

T = pytest.importorskip("torch", reason="differential tests need real PyTorch (pip install torch==2.13.0)")
from .harness import TRIES, load_engine, run_both, same  # noqa: E402

E = load_engine()

SNIPPETS = {
    "expand_and_unsqueeze_strides_of_size_one_dims": (
        'x = torch.zeros(2, 3)\n'
        'print(x.expand(1, 2, 3).stride(), x.expand(4, 1, 2, 3).stride(), x.t().expand(1, 3, 2).stride())\n'
        'print(x[:, :1].expand(1, 2, 1).stride(), x[:, :1].expand(1, 2, 5).stride(), torch.tensor(5.).expand(1, 1).stride())\n'
        'print(x[:, :1][:, :, None].stride(), x[1:2, :1].unsqueeze(0).stride(), x.t()[None].stride())\n'
        'y = x.expand(1, 2, 3); y.add_(1); print(x, y.is_contiguous())'),
    "advanced_index_result_layout": (
        'x = torch.arange(24.).reshape(2, 3, 4)\n'
        'for k in [(slice(None), [0, 2]), (slice(None), slice(None), [1]), ([0, 1], slice(None), [1, 2]), (slice(None), [[0, 1], [1, 2]])]:\n'
        '    r = x[k]; print(r.shape, r.stride(), r.is_contiguous())\n'
        'xt = x.transpose(0, 2)\n'
        'for k in [([0, 1],), (slice(None), [0, 1]), (slice(None), slice(None), [0, 1]), ([1, 0], slice(None), [0, 1])]:\n'
        '    r = xt[k]; print(r.shape, r.stride())\n'
        'print(x[:, [0]].stride(), x.permute(1, 2, 0)[:, [0, 2]].stride(), x[x > 3].stride())'),
    "index_tensor_dtypes": (
        TRIES +
        'x = torch.arange(6)\n'
        'tries(lambda: x[torch.tensor([0], dtype=torch.int16)], lambda: x[torch.tensor([1], dtype=torch.int8)],\n'
        '      lambda: x[torch.tensor([2], dtype=torch.int32)], lambda: x[torch.tensor(3, dtype=torch.int16)],\n'
        '      lambda: x.index_put_((torch.tensor([0], dtype=torch.int16),), torch.tensor(1)))'),
    "in_place_index_ops_on_expanded_tensors": (
        'x = torch.zeros(3); e = x.expand(2, 3)\n'
        'm = torch.tensor([[True, False, True], [False, True, False]])\n'
        'e.index_put_((torch.tensor([1, 0]),), torch.tensor([[1., 1, 1], [2, 2, 2]])); print(x)\n'
        'e.index_put_((torch.tensor([1, 0]),), torch.tensor([[1., 1, 1], [2, 2, 2]]), accumulate=True); print(x)\n'
        'e[m] = 5.; print(x)\n'
        'e[m] = torch.tensor([6., 7., 8.]); print(x)\n'
        'e.masked_fill_(m, 9); print(x)\n'
        'e.index_fill_(1, torch.tensor([0]), -1); print(x)\n'
        'e.add_(1)'),
    "assigned_value_checked_before_the_index": (
        TRIES +
        'x = torch.zeros(2, 2)\n'
        "tries(lambda: x.__setitem__([0], [3., 4.]), lambda: x.__setitem__(x > 0, 'a'),\n"
        "      lambda: x.__setitem__((torch.tensor([0]), [1]), None), lambda: x.__setitem__('a', [1]))"),
    "chunk_checks_chunks_before_dim": (
        TRIES +
        'x = torch.arange(24.).reshape(2, 3, 4)\n'
        'tries(lambda: x.chunk(0, 3), lambda: x.chunk(2, 3), lambda: torch.tensor(1.).chunk(0), lambda: x.chunk(-1))'),
    "real_and_imag_of_real_tensors": (
        TRIES +
        'x = torch.tensor([1., 2.], requires_grad=True)\n'
        'print(x.real is x, torch.real(x) is x, x.real.grad_fn)\n'
        'tries(lambda: x.imag, lambda: torch.imag(x))\n'
        'y = torch.zeros(2); y.real = torch.ones(2); print(y)'),
    "one_storage_object_per_memory": (
        'x = torch.arange(4.)\n'
        'v = x[1:]\n'
        'print(x.untyped_storage() is x.untyped_storage(), x.untyped_storage() is v.untyped_storage())\n'
        'print(x.clone().untyped_storage() is x.untyped_storage())'),
    "narrow_of_a_whole_dim_is_a_view": (
        'x = torch.ones(3, 2, requires_grad=True)\n'
        'n = x.narrow(0, 0, 3); m = torch.narrow(x * 1, -1, 0, 2)\n'
        'print(n.grad_fn, n._is_view(), n._base is x, n.grad_fn._saved_start, n.grad_fn._saved_end, m.grad_fn)'),
    "view_strides_of_size_one_dims": (
        'x = torch.arange(24.).reshape(2, 3, 4)\n'
        'print(x[:, :1].view(2, 1, 1, 4).stride(), x[:1].view(3, 4, 1).stride(), x[:, :1, :1].view(2, 1).stride())\n'
        'print(x.transpose(0, 2).reshape(4, 3, 2, 1).stride(), x.expand(2, 2, 3, 4)[:, :1].reshape(2, 1, 1, 3, 4).stride())\n'
        'c = x[0, :, 1:2]\n'
        'print(c.view(1, 3, 1).stride(), c.reshape(3, 1).stride(), x.flatten().unfold(0, 6, 2).unflatten(0, (-1, 1)).stride())\n'
        'v = x.view(-1)[:4].view(4, 1); v[1] = -1; print(x[0, 0])'),
    "mask_and_index_shapes_must_broadcast": (
        TRIES +
        'x = torch.arange(24.).reshape(2, 3, 4)\n'
        'tries(lambda: x[torch.tensor([True, False]), torch.tensor([0, 1, 2])],\n'
        '      lambda: x[torch.tensor([[True, False, True], [False, False, True]]), torch.tensor([0, 1])],\n'
        '      lambda: x[torch.tensor([True, True]), [1, 2]])'),
    "setitem_after_an_ellipsis_writes_the_last_dims": (
        'x = torch.arange(12.).reshape(1, 3, 4).requires_grad_()\n'
        'y = x * 1\n'
        'y[..., 0:1] *= -1\n'
        'y[..., 1:3, :] += 10\n'
        'print(y, y.grad_fn)\n'
        'y.sum().backward(); print(x.grad)\n'
        'z = torch.zeros(1, 2); z[..., 1:] = 5; z[0, ...] += 1; print(z)'),
    "unflatten_unfold_as_strided_argument_errors": (
        TRIES +
        'x = torch.arange(6.).reshape(2, 3)\n'
        'tries(lambda: x.unflatten(0, 4), lambda: x.unflatten(0, [2.5]), lambda: torch.unflatten(x, 0, 2),\n'
        '      lambda: x.unflatten(0, 0), lambda: x.unflatten(0, [2, True]).shape, lambda: x.unfold(0, -1, 1),\n'
        '      lambda: x.as_strided((-1,), (1,)), lambda: x.as_strided((2, -3), (1, 1)))'),
    "put_into_a_non_contiguous_tensor": (
        'x = torch.arange(6.).reshape(2, 3).t().clone()\n'
        'x.put_(torch.tensor([1, 2]), torch.tensor([-1., -2.])); print(x, x.stride())\n'
        'z = torch.zeros(3, 2).t(); z.put_(torch.tensor([1, 4]), torch.tensor([5., 6.]), accumulate=True); print(z)\n'
        'y = torch.arange(6.).reshape(2, 3).t().requires_grad_()\n'
        'p = y.put(torch.tensor([1, 2]), torch.tensor([-1., -2.])); print(p, p.stride())\n'
        'p.backward(torch.arange(6.).reshape(3, 2)); print(y.grad)'),
    "index_put_argument_checks": (
        TRIES +
        'x = torch.zeros(2, 3)\n'
        'tries(lambda: x.index_put_(([0],), torch.tensor(1.)), lambda: x.index_put_((torch.tensor([0]), None), torch.tensor(1.)),\n'
        '      lambda: x.index_put((torch.tensor([0]),), 2), lambda: torch.index_put(x, (torch.tensor([0]),), 2.),\n'
        '      lambda: torch.index_put_(x, (torch.tensor([0]),), 1.),\n'
        '      lambda: x.index_put((torch.tensor([0]),) * 3, torch.tensor(1.)),\n'
        '      lambda: x.index_put_((torch.tensor([[True]]),) * 2, torch.tensor(1.)),\n'
        '      lambda: x.index_put_((torch.tensor(1),), torch.tensor(4.)))'),
    "storage_slices_and_is_set_to": (
        TRIES +
        'x = torch.arange(4.)\n'
        's = x.untyped_storage(); x[0] = 100\n'
        'print(s[0:4], s[4:8].nbytes(), s[-1])\n'
        'tries(lambda: x.storage()[1:3], lambda: x.storage()[-1])\n'
        'print(x.is_set_to(x.detach()), x.is_set_to(x.clone()), x[1:].is_set_to(x[1:]), x.view(2, 2).t().is_set_to(x.view(2, 2)))\n'
        'print(torch.zeros(0).is_set_to(torch.zeros(0)), x.view(4).is_set_to(x), x[:].is_set_to(x), x[1:].is_set_to(x))'),
}


@pytest.mark.parametrize("name", SNIPPETS)
def test_snippet(name):
    code = SNIPPETS[name]
    t, e = run_both(T, E, code)
    assert same(t, e), f"\n{code}\n--- torch\n{t.summary()}--- engine\n{e.summary()}"
