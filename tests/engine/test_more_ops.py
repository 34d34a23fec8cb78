"""split / chunk / unbind (views sharing one multi-output node), cumsum, prod, amax / amin, masked_fill, gather,
index_select, repeat, flip, tril / triu, outer, trace, diag, roll, movedim, broadcast_to, and the torch.* comparison,
logical and remainder functions: values, grad_fn names, saved attributes, gradients and errors as PyTorch 2.13 has
them (checked against it by tests/differential/test_more_ops_vs_torch.py)."""
import pytest

import engine as torch


def _leaf(values):
    return torch.tensor(values, requires_grad=True)


def test_split_gives_views_of_one_node_with_output_numbers():
    x = torch.arange(10., requires_grad=True)
    y = x * 1
    a, b, c = y.split(4)
    assert [t.tolist() for t in (a, b, c)] == [[0, 1, 2, 3], [4, 5, 6, 7], [8, 9]]
    assert type(b.grad_fn).__name__ == 'SplitBackward0' and a.grad_fn is b.grad_fn is c.grad_fn
    assert (a.output_nr, b.output_nr, c.output_nr) == (0, 1, 2)
    assert b._base is y and b.grad_fn.next_functions == ((y.grad_fn, 0),)
    assert (b.grad_fn._saved_dim, b.grad_fn._saved_split_size, b.grad_fn._saved_self_sym_sizes) == (0, 4, (10,))
    (b * 2).sum().backward()                     # the unused outputs count as zeros
    assert x.grad.tolist() == [0, 0, 0, 0, 2, 2, 2, 2, 0, 0]


def test_split_with_sizes_chunk_and_unbind():
    x = torch.arange(12.).view(3, 4).requires_grad_()
    p = x.split([1, 3], -1)
    assert type(p[1].grad_fn).__name__ == 'SplitWithSizesBackward0'
    assert (p[1].grad_fn._saved_split_sizes, p[1].grad_fn._saved_dim) == ((1, 3), 2 ** 64 - 1)
    assert [t.shape[0] for t in torch.arange(10.).chunk(4)] == [3, 3, 3, 1]
    u = torch.unbind(x, 1)
    assert len(u) == 4 and type(u[2].grad_fn).__name__ == 'UnbindBackward0' and u[2].output_nr == 2
    assert u[2].tolist() == [2, 6, 10] and u[2].grad_fn._saved_dim == 1
    (u[0] * 3 + u[2]).sum().backward()
    assert x.grad.tolist() == [[3, 0, 1, 0]] * 3


def test_multi_output_views_cannot_be_modified_in_place():
    y = torch.ones(4, requires_grad=True) * 2
    with pytest.raises(RuntimeError, match=r'^Output 1 of Split is a view and is being modified inplace\. This view '
                                           r'is the output of a function that returns multiple views\. Such functions '
                                           r'do not allow the output views to be modified inplace\. You should '
                                           r'replace the inplace operation by an out-of-place one\.$'):
        y.split(2)[1].add_(1)
    with pytest.raises(RuntimeError, match='^Output 0 of Unbind is a view'):
        torch.ones(2, requires_grad=True).unbind()[0].mul_(2)
    b = torch.ones(4).split(2)                   # nothing requires grad: allowed
    b[1].add_(1)
    assert b[1].tolist() == [2, 2] and b[0]._version == 1


def test_split_errors():
    x = torch.ones(2, 3)
    with pytest.raises(RuntimeError, match='^split expects split_size be non-negative, but got split_size=-1$'):
        x.split(-1)
    with pytest.raises(RuntimeError, match=r"^split_with_sizes expects split_sizes to sum exactly to 2 \(input "
                                           r"tensor's size at dimension 0\), but got split_sizes=\[1, 2\]$"):
        x.split([1, 2])
    with pytest.raises(RuntimeError, match='^chunk expects `chunks` to be greater than 0, got: 0$'):
        x.chunk(0)
    with pytest.raises(IndexError, match='^Dimension specified as 0 but tensor has no dimensions$'):
        torch.tensor(1.).unbind()


def test_split_double_backward():
    x = _leaf([1., 2., 3., 4.])
    _, b = x.split(2)
    g, = torch.autograd.grad((b ** 3).sum(), x, create_graph=True)
    assert g.tolist() == [0, 0, 27, 48] and type(g.grad_fn).__name__ == 'CatBackward0'
    g.sum().backward()
    assert x.grad.tolist() == [0, 0, 18, 24]


def test_cumsum_and_its_dtypes():
    x = _leaf([[1., 0., 3.], [2., 2., -1.]])
    y = x.cumsum(1)
    assert y.tolist() == [[1, 1, 4], [2, 4, 3]] and type(y.grad_fn).__name__ == 'CumsumBackward0'
    assert torch.cumsum(x, -1).grad_fn._saved_dim == 2 ** 64 - 1
    (y * torch.tensor([1., 2., 3.])).sum().backward()
    assert x.grad.tolist() == [[6, 5, 3], [6, 5, 3]]
    assert torch.tensor([True, True]).cumsum(0).dtype == torch.int64
    assert x.cumsum(0, dtype=torch.float64).dtype == torch.float64


def test_prod_gradient_with_and_without_zeros():
    x = _leaf([2., 0., 3., 4.])
    y = x.prod()
    assert type(y.grad_fn).__name__ == 'ProdBackward0' and y.grad_fn._saved_result.item() == 0
    y.backward()
    assert x.grad.tolist() == [0, 24, 0, 0]          # only the zero gets the product of the others
    z = _leaf([[1., 2.], [3., 4.]])
    w = z.prod(1)
    assert type(w.grad_fn).__name__ == 'ProdBackward1' and w.grad_fn._saved_keepdim is False
    w.sum().backward()
    assert z.grad.tolist() == [[2, 1], [4, 3]]
    two = _leaf([0., 5., 0.])
    two.prod().backward()
    assert two.grad.tolist() == [0, 0, 0]
    assert torch.tensor([1, 2, 3]).prod().dtype == torch.int64


def test_amax_amin_split_the_gradient_among_ties():
    x = _leaf([[5., 5., 1.], [5., 2., 5.]])
    y = x.amax()
    assert type(y.grad_fn).__name__ == 'AmaxBackward0' and y.grad_fn._saved_dim == ()
    y.backward()
    assert x.grad.tolist() == [[0.25, 0.25, 0], [0.25, 0, 0.25]]
    x.grad = None
    m = x.amin(-1, keepdim=True)
    assert type(m.grad_fn).__name__ == 'AminBackward0' and m.grad_fn._saved_dim == (2 ** 64 - 1,)
    m.sum().backward()
    assert m.tolist() == [[1], [2]] and x.grad.tolist() == [[0, 0, 1], [0, 1, 0]]
    with pytest.raises(RuntimeError, match=r"^amax\(\): Expected reduction dim to be specified for input\.numel\(\) "
                                           r"== 0\."):
        torch.ones(0).amax()


def test_masked_fill_scalar_tensor_and_in_place():
    x = _leaf([1., 2., 3.])
    m = torch.tensor([False, True, True])
    y = x.masked_fill(m, 0.)
    assert y.tolist() == [1, 0, 0] and type(y.grad_fn).__name__ == 'MaskedFillBackward0'
    assert y.grad_fn._saved_mask.tolist() == [False, True, True]
    v = torch.tensor(5., requires_grad=True)
    z = torch.masked_fill(x, m, v)
    assert type(z.grad_fn).__name__ == 'MaskedFillBackward1'
    (z * 2).sum().backward()
    assert x.grad.tolist() == [2, 0, 0] and v.grad.item() == 4
    w = x * 1
    w.masked_fill_(m, -1.)
    assert w.tolist() == [1, -1, -1] and w._version == 1 and type(w.grad_fn).__name__ == 'MaskedFillBackward0'
    with pytest.raises(RuntimeError, match='^masked_fill_ only supports boolean masks, but got mask with dtype float$'):
        x.masked_fill(torch.ones(3), 0)


def test_gather_and_index_select():
    x = _leaf([[1., 0., 3.], [2., 2., -1.]])
    y = x.gather(1, torch.tensor([[0, 0], [1, 2]]))
    assert y.tolist() == [[1, 1], [2, -1]] and type(y.grad_fn).__name__ == 'GatherBackward0'
    assert y.grad_fn._saved_sparse_grad is False and y.grad_fn._saved_index.tolist() == [[0, 0], [1, 2]]
    y.sum().backward()
    assert x.grad.tolist() == [[2, 0, 0], [0, 1, 1]]
    x.grad = None
    s = x.index_select(1, torch.tensor([2, 0, 2]))
    assert s.tolist() == [[3, 1, 3], [-1, 2, -1]] and type(s.grad_fn).__name__ == 'IndexSelectBackward0'
    s.sum().backward()
    assert x.grad.tolist() == [[1, 0, 2], [1, 0, 2]]
    with pytest.raises(RuntimeError, match='^index 5 is out of bounds for dimension 1 with size 3$'):
        x.gather(1, torch.tensor([[0, 5]]))
    with pytest.raises(RuntimeError, match='^INDICES element is out of DATA bounds, id=3 axis_dim=3$'):
        x.index_select(1, torch.tensor([3]))


def test_repeat_flip_roll():
    x = _leaf([[1., 2., 3.], [4., 5., 6.]])
    r = x.repeat(2, 1, 2)
    assert r.shape == (2, 2, 6) and type(r.grad_fn).__name__ == 'RepeatBackward0'
    assert r.grad_fn._saved_repeats == (2, 1, 2)
    r.sum().backward()
    assert x.grad.tolist() == [[4, 4, 4], [4, 4, 4]]
    f = x.flip(0, 1)
    assert f.tolist() == [[6, 5, 4], [3, 2, 1]] and f._base is None and f.grad_fn._saved_dims == (0, 1)
    o = x.roll(1, 1)
    assert o.tolist() == [[3, 1, 2], [6, 4, 5]] and type(o.grad_fn).__name__ == 'RollBackward0'
    assert torch.roll(x, 2).tolist() == [[5, 6, 1], [2, 3, 4]]
    x.grad = None
    (o * torch.tensor([1., 2., 3.])).sum().backward()
    assert x.grad.tolist() == [[2, 3, 1], [2, 3, 1]]
    with pytest.raises(RuntimeError, match='^Number of dimensions of repeat dims can not be smaller than number of '
                                           'dimensions of tensor$'):
        x.repeat(2)


def test_tril_triu_diag_trace_outer():
    x = torch.arange(1., 7.).view(2, 3).requires_grad_()
    lo = x.tril()
    assert lo.tolist() == [[1, 0, 0], [4, 5, 0]] and type(lo.grad_fn).__name__ == 'TrilBackward0'
    assert x.triu(1).tolist() == [[0, 2, 3], [0, 0, 6]] and x.triu(1).grad_fn._saved_diagonal == 1
    d = x.diag()
    assert d.tolist() == [1, 5] and type(d.grad_fn).__name__ == 'DiagonalBackward0_copy'
    t = x.trace()
    assert t.item() == 6 and type(t.grad_fn).__name__ == 'TraceBackward0'
    t.backward()
    assert x.grad.tolist() == [[1, 0, 0], [0, 1, 0]]
    v = _leaf([1., 2.])
    m = v.diag(1)
    assert m.tolist() == [[0, 1, 0], [0, 0, 2], [0, 0, 0]] and type(m.grad_fn).__name__ == 'DiagEmbedBackward0'
    o = torch.outer(v, torch.tensor([3., 4.]))
    assert o.tolist() == [[3, 4], [6, 8]] and type(o.grad_fn).__name__ == 'MulBackward0'
    o.sum().backward()
    assert v.grad.tolist() == [7, 7]
    with pytest.raises(RuntimeError, match='^trace: expected a matrix, but got tensor with dim 1$'):
        v.trace()


def test_movedim_and_broadcast_to_are_views():
    x = torch.ones(2, 3, 4, requires_grad=True)
    y = torch.movedim(x, (0, 1), (2, 0))
    assert y.shape == (3, 4, 2) and y._base is x and type(y.grad_fn).__name__ == 'PermuteBackward0'
    assert y.grad_fn._saved_dims == (1, 2, 0) and x.moveaxis(-1, 0).shape == (4, 2, 3)
    b = torch.tensor([[1.], [2.]], requires_grad=True).broadcast_to(3, 2, 4)
    assert b.shape == (3, 2, 4) and type(b.grad_fn).__name__ == 'ExpandBackward0'


def test_torch_comparison_logical_and_remainder_functions():
    x = _leaf([[1., 0., 3.], [2., 2., -1.]])
    assert torch.eq(x, 2).tolist() == [[False, False, False], [True, True, False]]
    assert torch.ge(x, 2).grad_fn is None and torch.ge(x, 2).dtype == torch.bool
    assert torch.all(x > -5).item() is True and torch.any(x > 2, 0).tolist() == [False, False, True]
    nan = torch.tensor([1., float('nan'), float('inf')])
    assert torch.isnan(nan).tolist() == [False, True, False] and torch.isfinite(nan).tolist() == [True, False, False]
    assert torch.logical_and(x, torch.tensor([1, 0, 1])).tolist() == [[True, False, True], [True, False, True]]
    with pytest.raises(TypeError, match="^logical_and\\(\\): argument 'other' \\(position 2\\) must be Tensor, "
                                        "not int$"):
        torch.logical_and(x, 1)
    a, b = _leaf([5.5, -5.5]), _leaf([2., 3.])
    r = torch.remainder(a, b)
    assert r.tolist() == [1.5, 0.5] and type(r.grad_fn).__name__ == 'RemainderBackward1'
    r.sum().backward()
    assert a.grad.tolist() == [1, 1] and b.grad.tolist() == [-2, 2]
    assert type(torch.fmod(a, 2.).grad_fn).__name__ == 'FmodBackward0' and torch.fmod(a, 2.).tolist() == [1.5, -1.5]
    q = a // 2
    assert q.tolist() == [2, -3] and q.grad_fn.name() == 'torch::autograd::NotImplemented'
    with pytest.raises(RuntimeError, match='^derivative for aten::floor_divide is not implemented$'):
        q.sum().backward()
    with pytest.raises(RuntimeError, match='^ZeroDivisionError$'):
        torch.tensor([5]) % 0


def test_repeat_and_copy_as_pytorch_lays_them_out():
    y = torch.zeros(2, 3).t()
    assert y.repeat(1, 1).stride() == (2, 1) and y.repeat(1, 1).is_contiguous()       # a new tensor, row-major
    assert torch.tile(y, (1, 1)).stride() == (2, 1) and y.repeat(1, 1, 1).stride() == (6, 2, 1)
    x = torch.zeros(3)
    x.copy_(torch.ones(3, requires_grad=True) * 2)
    assert type(x.grad_fn).__name__ == 'CopyBackwards'
    assert [n for n in dir(x.grad_fn) if n.startswith('_saved')] == []          # (PyTorch's C++ node shows none)


def test_clamp_with_tensor_bounds_sends_gradients_to_the_bounds():
    a = torch.tensor([1., 2., 3., 4.], requires_grad=True)
    lo = torch.tensor([2., 2., 0., 5.], requires_grad=True)
    hi = torch.tensor([3., 1.5, 2.5, 6.], requires_grad=True)
    y = a.clamp(min=lo, max=hi)
    assert y.tolist() == [2., 1.5, 2.5, 5.] and type(y.grad_fn).__name__ == 'ClampBackward0'
    assert len(y.grad_fn.next_functions) == 3 and y.grad_fn._saved_max is not None
    y.backward(torch.tensor([1., 10., 100., 1000.]))
    assert a.grad.tolist() == [0, 0, 0, 0]
    assert lo.grad.tolist() == [1, 0, 0, 1000] and hi.grad.tolist() == [0, 10, 100, 0]
    only = torch.clamp(a.detach(), lo)                 # (only the bound needs a gradient: still recorded)
    assert type(only.grad_fn).__name__ == 'ClampBackward0' and only.grad_fn.next_functions[0][0] is None
    mixed = torch.clamp(torch.tensor([1, 5, 9]), torch.tensor([2., 2., 2.]), torch.tensor([4, 4, 4]))
    assert mixed.tolist() == [2., 4., 4.] and mixed.dtype == torch.float32


def test_warnings_point_at_the_line_that_called_the_engine():
    import warnings
    z = torch.tensor(3., requires_grad=True)
    torch._tensor._warned.clear()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter('always')
        z.std(0)                                            # (a method behind the numpy-names wrapper)
        torch.std_mean(z, 0)
        z.mT
    assert [w.filename for w in caught] == [__file__] * 3, [(w.filename, str(w.message)[:40]) for w in caught]
    assert 'Tensor.mT is deprecated on 0-D tensors' in str(caught[2].message)


def test_reductions_of_a_0d_tensor_over_dim_0():
    z = torch.tensor(3., requires_grad=True)
    for f in (lambda t: t.logsumexp(0), lambda t: t.var(0, correction=0), lambda t: t.norm(dim=0), lambda t: t.mean(-1),
              lambda t: t.transpose(0, -1)):
        y = f(z)
        assert y.shape == () and torch.autograd.grad(y, z)[0].shape == ()
    assert z.mean(0).grad_fn._saved_self_sym_numel == 1
    with pytest.raises(IndexError, match='^select\\(\\) cannot be applied to a 0-dim tensor.$'):
        z.select(0, 0)


def test_uint8_index_tensors_are_masks_as_in_pytorch():
    import warnings
    x = torch.tensor([10., 20., 30.])
    m = torch.tensor([1, 0, 1], dtype=torch.uint8)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter('always')
        assert x[m].tolist() == [10., 30.]
    assert 'indexing with dtype torch.uint8 is now deprecated' in str(caught[0].message)
    with pytest.raises(RuntimeError, match='^masked_fill_ only supports boolean masks, but got mask with dtype '
                                           'unsigned char$'):
        x[m] = 0.


def test_clamp_min_and_clamp_max_are_ops_of_their_own():
    x = torch.tensor([-1., 0.5, 2.], requires_grad=True)
    m = torch.tensor([0., 1., 1.], requires_grad=True)
    assert type(x.clamp_min(0).grad_fn).__name__ == 'ClampMinBackward0' and x.clamp_min(0).grad_fn._saved_min == 0
    assert type(x.clamp_max(1).grad_fn).__name__ == 'ClampMaxBackward0'
    y = x.clamp_min(m)
    assert type(y.grad_fn).__name__ == 'ClampMinBackward1' and y.tolist() == [0., 1., 2.]
    y.backward(torch.ones(3))
    assert x.grad.tolist() == [0., 0., 1.] and m.grad.tolist() == [1., 1., 0.]
