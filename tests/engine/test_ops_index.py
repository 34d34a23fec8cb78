"""scatter / scatter_add, index_add / fill / copy, nonzero, masked_select, take, take_along_dim, repeat_interleave,
tile, the *stack and *split functions, ravel, rot90, diagonal, diag_embed, unfold, meshgrid, broadcasting and triangle
indices (engine/_ops_index.py): values, grad_fn names, saved attributes, gradients, views and errors as PyTorch 2.13
has them (checked against it by tests/differential/test_ops_index_vs_torch.py)."""
import warnings

import pytest

import engine as torch
from engine import _tensor

U64 = 2 ** 64


def _x():
    return torch.arange(12.).reshape(3, 4).detach().requires_grad_()


IDX = [[0, 1, 2, 0], [2, 0, 0, 1]]


def test_scatter_with_src_and_value():
    x, idx = _x(), torch.tensor(IDX)
    src = torch.arange(8.).reshape(2, 4).requires_grad_()
    y = torch.scatter(x, 0, idx, src)
    assert y.tolist() == [[0, 5, 6, 3], [4, 1, 6, 7], [4, 9, 2, 11]]
    assert type(y.grad_fn).__name__ == 'ScatterBackward0'
    assert y.grad_fn._saved_dim == 0 and y.grad_fn._saved_index.tolist() == IDX
    assert sorted(a for a in dir(y.grad_fn) if a.startswith('_saved_')) == ['_saved_dim', '_saved_index']
    (y * torch.arange(12.).reshape(3, 4)).sum().backward()
    assert x.grad.tolist() == [[0, 0, 0, 0], [4, 0, 6, 0], [0, 9, 0, 11]]
    assert src.grad.tolist() == [[0, 5, 10, 3], [8, 1, 2, 7]]
    z = x.scatter(-1, idx[:, :2], 2.5)
    assert type(z.grad_fn).__name__ == 'ScatterBackward1' and z.grad_fn._saved_dim == U64 - 1
    assert z.tolist()[0] == [2.5, 2.5, 2, 3]


def test_scatter_add_and_in_place_forms():
    x, idx = _x(), torch.tensor(IDX)
    src = torch.ones(2, 4, requires_grad=True)
    y = x.scatter_add(0, idx, src)
    assert type(y.grad_fn).__name__ == 'ScatterAddBackward0'
    assert y.tolist() == [[1, 2, 3, 4], [4, 6, 6, 8], [9, 9, 11, 11]]
    y.sum().backward()
    assert x.grad.tolist() == [[1] * 4] * 3 and src.grad.tolist() == [[1] * 4] * 2
    assert torch.zeros(4).scatter_add(0, torch.tensor([0, 0, 3, 0]), torch.ones(4)).tolist() == [3, 0, 0, 1]
    z = x * 1
    assert z.scatter_(0, idx, src) is z and z._version == 1
    z.scatter_add_(0, idx, src)
    assert type(z.grad_fn).__name__ == 'ScatterAddBackward0'
    assert z.tolist() == [[2, 2, 2, 2], [4, 2, 6, 2], [2, 9, 2, 11]]


def test_scatter_errors():
    x, idx = _x(), torch.tensor(IDX)
    src = torch.ones(2, 4)
    with pytest.raises(RuntimeError, match='^index 3 is out of bounds for dimension 0 with size 3$'):
        x.scatter(0, idx + 3, src)
    with pytest.raises(RuntimeError, match='^Index tensor must have the same number of dimensions as self tensor$'):
        x.scatter(0, idx[0], src)
    with pytest.raises(RuntimeError, match=r'^scatter\(\): Expected self.dtype to be equal to src.dtype$'):
        x.scatter(0, idx, src.double())
    with pytest.raises(RuntimeError, match=r'and to be no larger size than src \[1, 4\]$'):
        x.scatter(0, idx, src[:1])


def test_index_add_saves_alpha_and_source():
    x = _x()
    src = torch.ones(2, 4, requires_grad=True)
    y = x.index_add(0, torch.tensor([0, 2]), src, alpha=2)
    assert y.tolist() == [[2, 3, 4, 5], [4, 5, 6, 7], [10, 11, 12, 13]]
    n = y.grad_fn
    assert type(n).__name__ == 'IndexAddBackward0'
    assert (n._saved_alpha, n._saved_dim, n._saved_source_dim) == (2, 0, 2) and n._saved_source.shape == (2, 4)
    (y * torch.arange(12.).reshape(3, 4)).sum().backward()
    assert src.grad.tolist() == [[0, 2, 4, 6], [16, 18, 20, 22]]
    assert torch.zeros(3).index_add(0, torch.tensor([1, 1]), torch.ones(2)).tolist() == [0, 2, 0]
    z = torch.zeros(2, 3)
    assert z.index_add_(1, torch.tensor([0, 0]), torch.ones(2, 2)) is z and z.tolist() == [[2, 0, 0]] * 2
    with pytest.raises(RuntimeError, match=r'^index_add_\(\): Number of indices \(3\) should be equal to '
                                           r'source.size\(dim\): \(2\), for dim: 0$'):
        x.index_add(0, torch.tensor([0, 1, 2]), src)
    with pytest.raises(RuntimeError, match=r'Expected dtype int32/int64 for index but got: Float$'):
        x.index_add(0, torch.tensor([0., 1.]), src)


def test_index_fill_and_index_copy():
    x = _x()
    v = torch.tensor(-1.5, requires_grad=True)
    y = x.index_fill(1, torch.tensor([0, 2]), v)
    assert type(y.grad_fn).__name__ == 'IndexFillBackward1' and y.tolist()[0] == [-1.5, 1, -1.5, 3]
    y.sum().backward()
    assert v.grad.item() == 6 and x.grad.tolist() == [[0, 1, 0, 1]] * 3
    assert type(x.index_fill(0, torch.tensor([-1]), 7).grad_fn).__name__ == 'IndexFillBackward0'
    src = torch.ones(2, 4, requires_grad=True)
    c = x.index_copy(0, torch.tensor([2, 0]), src * 5)
    assert type(c.grad_fn).__name__ == 'IndexCopyBackward0' and c.grad_fn._saved_source_dim == 2
    assert c.tolist() == [[5] * 4, [4, 5, 6, 7], [5] * 4]
    x.grad = None
    c.sum().backward()
    assert x.grad.tolist() == [[0] * 4, [1] * 4, [0] * 4] and src.grad.tolist() == [[5] * 4] * 2
    with pytest.raises(IndexError, match=r'^index_fill_\(\): Expected dtype int64 for index.$'):
        x.index_fill(0, torch.tensor([0.]), 1.)
    with pytest.raises(IndexError, match=r'^index_copy_\(\): index 5 is out of bounds for dimension 0 with size 3$'):
        x.index_copy(0, torch.tensor([5, 0]), src)
    z = torch.zeros(3)
    z.index_fill_(0, torch.tensor([1]), 2.)
    z.index_copy_(0, torch.tensor([0]), torch.ones(1))
    assert z.tolist() == [1, 2, 0] and z._version == 2


def test_nonzero_argwhere_are_int64():
    a = torch.tensor([[0., 1.5, 0.], [2., 0., -1.]])
    assert a.nonzero().tolist() == [[0, 1], [1, 0], [1, 2]] and a.nonzero().dtype == torch.int64
    assert torch.argwhere(a).tolist() == [[0, 1], [1, 0], [1, 2]]
    r, c = torch.nonzero(a, as_tuple=True)
    assert (r.tolist(), c.tolist(), r.dtype) == ([0, 1, 1], [1, 0, 2], torch.int64)
    assert torch.nonzero(torch.tensor(3.)).shape == (1, 0)
    assert [t.tolist() for t in torch.nonzero(torch.tensor(3.), as_tuple=True)] == [[0]]


def test_masked_select_take_and_take_along_dim():
    x = _x()
    m = torch.tensor([True, False, True, True])
    y = torch.masked_select(x, m)
    assert y.tolist() == [0, 2, 3, 4, 6, 7, 8, 10, 11] and type(y.grad_fn).__name__ == 'MaskedSelectBackward0'
    y.sum().backward()
    assert x.grad.tolist() == [[1, 0, 1, 1]] * 3
    with pytest.raises(RuntimeError, match='^masked_select: expected BoolTensor for mask$'):
        x.masked_select(x.long())
    t = torch.take(x, torch.tensor([[0, 5], [11, -1]]))
    assert t.tolist() == [[0, 5], [11, 11]] and type(t.grad_fn).__name__ == 'TakeBackward0'
    assert t.grad_fn._saved_self.shape == (3, 4)
    x.grad = None
    t.sum().backward()
    assert x.grad.tolist()[2] == [0, 0, 0, 2]
    with pytest.raises(IndexError, match='^out of range: tried to access index 12 on a tensor of 12 elements.$'):
        x.take(torch.tensor([12]))
    g = torch.take_along_dim(x, torch.tensor([[1], [2], [0]]), 1)
    assert g.tolist() == [[1], [6], [8]] and type(g.grad_fn).__name__ == 'GatherBackward0'
    assert type(g.grad_fn.next_functions[0][0]).__name__ == 'ExpandBackward0'
    assert torch.take_along_dim(x, torch.tensor([3, 0])).tolist() == [3, 0]
    with pytest.raises(RuntimeError, match='dtype of indices should be Long but got Int$'):
        torch.take_along_dim(x, torch.tensor([[1]]).int(), 1)


def test_repeat_interleave_int_and_tensor_repeats():
    x = _x()
    y = x.repeat_interleave(2, dim=1)
    assert y.tolist()[0] == [0, 0, 1, 1, 2, 2, 3, 3] and type(y.grad_fn).__name__ == 'ViewBackward0'
    assert type(y.grad_fn.next_functions[0][0]).__name__ == 'CloneBackward0'
    assert torch.repeat_interleave(x, 2).shape == (24,)
    z = torch.repeat_interleave(x, torch.tensor([1, 0, 2]), dim=0)
    assert type(z.grad_fn).__name__ == 'IndexSelectBackward0' and z[:, 0].tolist() == [0, 8, 8]
    z.sum().backward()
    assert x.grad.tolist() == [[1] * 4, [0] * 4, [2] * 4]
    assert torch.repeat_interleave(torch.tensor([2, 0, 3])).tolist() == [0, 0, 2, 2, 2]
    with pytest.raises(RuntimeError, match='^Repeats must be non-negative$'):
        x.repeat_interleave(-1)
    with pytest.raises(RuntimeError, match=r'^repeats must have the same size as input along dim, but got '
                                           r'repeats.size\(0\) = 2 and input.size\(0\) = 3$'):
        x.repeat_interleave(torch.tensor([1, 2]), dim=0)


def test_tile_stacks_and_atleast():
    x = _x()
    w = torch.arange(3.).requires_grad_()
    assert type(x.tile(2).grad_fn).__name__ == 'RepeatBackward0' and x.tile(2).grad_fn._saved_repeats == (1, 2)
    assert torch.tile(x, (2, 1, 1)).shape == (2, 3, 4)
    h = torch.hstack([w, w])
    assert type(h.grad_fn).__name__ == 'CatBackward0' and h.grad_fn._saved_dim == 0
    assert torch.hstack([x, x]).shape == (3, 8) and torch.vstack([w, w]).shape == (2, 3)
    assert torch.dstack([w, w]).shape == (1, 3, 2) and torch.column_stack([w, w]).tolist()[1] == [1, 1]
    assert torch.row_stack([x, x]).shape == (6, 4)
    a1 = torch.atleast_1d(torch.tensor(2.))
    assert a1.shape == (1,) and torch.atleast_3d(w).shape == (1, 3, 1) and torch.atleast_2d(w, w)[1].shape == (1, 3)
    assert type(torch.atleast_3d(x).grad_fn).__name__ == 'UnsqueezeBackward0'
    with pytest.raises(RuntimeError, match='^hstack expects a non-empty TensorList$'):
        torch.hstack([])


def test_splits_are_slices():
    x = _x()
    a, b = torch.tensor_split(x, 2, dim=1)
    assert type(a.grad_fn).__name__ == 'SliceBackward0' and a._base is x and b.tolist()[0] == [2, 3]
    assert [p.shape[1] for p in x.tensor_split(3, 1)] == [2, 1, 1]
    assert [p.shape[1] for p in x.tensor_split([1, 3], 1)] == [1, 2, 1]
    assert [p.shape[0] for p in torch.vsplit(x, 3)] == [1, 1, 1] and len(torch.hsplit(x, [1])) == 2
    with pytest.raises(RuntimeError, match='^torch.hsplit attempted to split along dimension 1, but the size of the '
                                           'dimension 4 is not divisible by the split_size 3!$'):
        torch.hsplit(x, 3)
    with pytest.raises(RuntimeError, match='^torch.dsplit requires a tensor with at least 3 dimension, but got a '
                                           'tensor with 2 dimensions!$'):
        torch.dsplit(x, 1)


def test_ravel_flips_and_rot90():
    x = _x()
    r = x.ravel()
    assert r._base is x and type(r.grad_fn).__name__ == 'ViewBackward0'
    rt = x.t().ravel()
    assert rt.tolist()[:3] == [0, 4, 8] and type(rt.grad_fn.next_functions[0][0]).__name__ == 'CloneBackward0'
    assert x.fliplr().tolist()[0] == [3, 2, 1, 0] and x.flipud().tolist()[0] == [8, 9, 10, 11]
    y = torch.rot90(x)
    assert y.tolist() == [[3, 7, 11], [2, 6, 10], [1, 5, 9], [0, 4, 8]] and y.stride() == (1, 4)
    assert type(y.grad_fn).__name__ == 'Rot90Backward0' and (y.grad_fn._saved_k, y.grad_fn._saved_dims) == (1, (0, 1))
    (y * torch.arange(12.).reshape(4, 3)).sum().backward()
    assert x.grad.tolist()[0] == [9, 6, 3, 0]
    assert torch.rot90(x, -1).grad_fn._saved_k == U64 - 1 and x.rot90(2).is_contiguous()
    with pytest.raises(RuntimeError, match='^expected total rotation dims == 2, but got dims = 1$'):
        torch.rot90(x, 1, [0])


def test_diagonal_is_a_writable_view():
    x = _x()
    d = x.diagonal(1)
    assert d.tolist() == [1, 6, 11] and d._base is x and d.stride() == (5,)
    n = d.grad_fn
    assert type(n).__name__ == 'DiagonalBackward0'
    assert (n._saved_offset, n._saved_dim1, n._saved_dim2, n._saved_self_sym_sizes) == (1, 0, 1, (3, 4))
    (d * 2).sum().backward()
    assert x.grad.tolist() == [[0, 2, 0, 0], [0, 0, 2, 0], [0, 0, 0, 2]]
    assert torch.diagonal(x, -1, 1, 0).tolist() == [1, 6, 11] and x.diagonal(5).shape == (0,)
    z = torch.zeros(3, 3)
    dz = z.diagonal()
    dz += 1
    assert z.tolist() == [[1, 0, 0], [0, 1, 0], [0, 0, 1]] and z._version == 1
    with pytest.raises(RuntimeError, match='^diagonal dimensions cannot be identical 0, 0$'):
        x.diagonal(0, 0, 0)


def test_diag_embed_diagflat_and_unfold():
    w = torch.tensor([1., 2.], requires_grad=True)
    e = torch.diag_embed(w, 1)
    assert e.tolist() == [[0, 1, 0], [0, 0, 2], [0, 0, 0]] and type(e.grad_fn).__name__ == 'DiagEmbedBackward0'
    assert (e.grad_fn._saved_dim1, e.grad_fn._saved_dim2, e.grad_fn._saved_offset) == (U64 - 2, U64 - 1, 1)
    (e * torch.arange(9.).reshape(3, 3)).sum().backward()
    assert w.grad.tolist() == [1, 5]
    assert torch.diagflat(torch.ones(2, 2)).shape == (4, 4)
    x = _x()
    u = x.unfold(1, 2, 1)
    assert u.shape == (3, 3, 2) and u._base is x and u.stride() == (4, 1, 1) and u.tolist()[0][1] == [1, 2]
    assert type(u.grad_fn).__name__ == 'UnfoldBackward0' and u.grad_fn._saved_size == 2
    u.sum().backward()
    assert x.grad.tolist()[0] == [1, 2, 2, 1]                # overlapping windows add up
    with pytest.raises(RuntimeError, match='^maximum size for tensor at dimension 1 is 4 but size is 5$'):
        x.unfold(1, 5, 1)
    y = x * 1
    assert y.swapaxes_(0, 1) is y and y.shape == (4, 3) and type(y.grad_fn).__name__ == 'TransposeBackward1'


def test_meshgrid_broadcast_and_indices():
    a, b = torch.arange(3.), torch.arange(2.)
    i, j = torch.meshgrid(a, b, indexing='ij')
    assert i.shape == (3, 2) and i.stride() == (1, 0) and j.tolist() == [[0, 1]] * 3
    p, q = torch.meshgrid([a, b], indexing='xy')
    assert p.shape == (2, 3) and p.tolist() == [[0, 1, 2]] * 2
    _tensor._warned.discard('torch.meshgrid: in an upcoming release, it will be required to pass the indexing '
                            'argument.')
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter('always')
        torch.meshgrid(a, b)
    assert len(caught) == 1 and 'it will be required to pass the indexing argument' in str(caught[0].message)
    _tensor._warned.discard('torch.meshgrid: in an upcoming release, it will be required to pass the indexing '
                            'argument.')
    s, t = torch.broadcast_tensors(a.view(3, 1), b)
    assert s.shape == t.shape == (3, 2) and type(t.grad_fn).__name__ == 'NoneType' and t._base is b
    assert torch.broadcast_shapes((2, 1), (3,), 1) == torch.Size([2, 3])
    with pytest.raises(RuntimeError, match='^Attempting to broadcast a dimension of length 3 at -1!'):
        torch.broadcast_shapes((2,), (3,))
    c = torch.cartesian_prod(a, b)
    assert c.shape == (6, 2) and c.tolist()[:3] == [[0, 0], [0, 1], [1, 0]]
    assert torch.tril_indices(3, 3).tolist() == [[0, 1, 1, 2, 2, 2], [0, 0, 1, 0, 1, 2]]
    assert torch.triu_indices(3, 4, 1).tolist() == [[0, 0, 0, 1, 1, 2], [1, 2, 3, 2, 3, 3]]
    assert torch.tril_indices(2, 2).dtype == torch.int64


def test_scatter_reduce_values_and_gradients():
    x = torch.tensor([[1., 2., 3.], [4., 5., 6.]], requires_grad=True)
    src = torch.tensor([[2., -1., 0.5, 3.], [1., 1., 2., -2.]], requires_grad=True)
    idx = torch.tensor([[0, 1, 0, 2], [2, 2, 1, 1]])
    w = torch.arange(6.).reshape(2, 3)
    expected = {('sum', True): [[3.5, 1, 6], [4, 5, 8]], ('prod', True): [[1, -2, 9], [4, -20, 6]],
                ('amax', False): [[2, -1, 3], [4, 2, 1]], ('mean', False): [[1.25, -1, 3], [4, 0, 1]]}
    grads = {('sum', True): ([[0, 1, 2], [3, 4, 5]], [[0, 1, 0, 2], [5, 5, 4, 4]]),
             ('prod', True): ([[0, -1, 6], [3, -16, 5]], [[0, 2, 0, 6], [30, 30, -40, 40]]),
             ('amax', False): ([[0, 0, 0], [3, 0, 0]], [[0, 1, 0, 1], [2.5, 2.5, 4, 0]]),
             ('mean', False): ([[0, 0, 0], [3, 0, 0]], [[0, 1, 0, 2], [2.5, 2.5, 2, 2]])}
    for (red, inc), values in expected.items():
        y = x.scatter_reduce(1, idx, src, red, include_self=inc)
        assert y.tolist() == values
        n = y.grad_fn
        assert type(n).__name__ == 'ScatterReduceBackward0' and (n._saved_reduce, n._saved_include_self) == (red, inc)
        assert sorted(a for a in dir(n) if a.startswith('_saved_')) == [
            '_saved_dim', '_saved_include_self', '_saved_index', '_saved_reduce', '_saved_result', '_saved_self',
            '_saved_src']
        x.grad = src.grad = None
        (y * w).sum().backward()
        assert (x.grad.tolist(), src.grad.tolist()) == grads[red, inc]
    ints = torch.tensor([1, 2, 3]).scatter_reduce(0, torch.tensor([0, 0]), torch.tensor([5, 7]), 'mean')
    assert ints.tolist() == [4, 2, 3] and ints.dtype == torch.int64
    with pytest.raises(RuntimeError, match='^reduce argument must be either sum, prod, mean, amax or amin, got foo$'):
        x.scatter_reduce(1, idx, src, 'foo')
    message = ('The reduce argument of torch.scatter with Tensor src is deprecated and will be removed in a future '
               'PyTorch release. Use torch.scatter_reduce instead for more reduction options.')
    _tensor._warned.discard(message)                  # (a warning PyTorch gives once per process)
    with pytest.warns(UserWarning, match='^The reduce argument of torch.scatter with Tensor src is deprecated'):
        y = x.scatter(1, idx, src, reduce='add')
    _tensor._warned.discard(message)
    assert y.tolist() == [[3.5, 1, 6], [4, 5, 8]] and type(y.grad_fn).__name__ == 'NotImplemented'
    with pytest.raises(RuntimeError, match='^derivative for aten::scatter is not implemented$'):
        y.sum().backward()
