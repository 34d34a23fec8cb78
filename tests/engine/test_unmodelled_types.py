"""What PyTorch has and the engine does not model (bfloat16 and complex tensors, sparse layouts): the names exist, so
that code naming them runs (nanoGPT's table of dtypes), and making such a tensor is a clear error."""
import numpy as np
import pytest

import engine as torch

BF16 = 'bfloat16 tensors are not supported in Autograd Playground'
COMPLEX = 'complex tensors are not supported in Autograd Playground'


def test_the_dtypes_exist_and_print_as_pytorchs():
    ptdtype = {'float32': torch.float32, 'bfloat16': torch.bfloat16, 'float16': torch.float16}['float32']
    assert ptdtype is torch.float32
    assert [str(d) for d in (torch.bfloat16, torch.cfloat, torch.cdouble, torch.chalf)] == [
        'torch.bfloat16', 'torch.complex64', 'torch.complex128', 'torch.complex32']
    assert str(type(torch.bfloat16)) == "<class 'torch.dtype'>" and isinstance(torch.complex64, torch.dtype)
    assert torch.bfloat16.is_floating_point and torch.bfloat16.itemsize == 2 and not torch.bfloat16.is_complex
    assert torch.complex64.is_complex and not torch.complex64.is_floating_point and torch.complex128.itemsize == 16
    assert torch.tensor([1.]).dtype != torch.bfloat16
    assert torch.finfo(torch.bfloat16).eps == 0.0078125 and torch.finfo(torch.bfloat16).bits == 16


@pytest.mark.parametrize("a, b, expected", [
    ('bfloat16', 'float16', 'float32'), ('float16', 'bfloat16', 'float32'), ('bfloat16', 'int64', 'bfloat16'),
    ('bool', 'bfloat16', 'bfloat16'), ('bfloat16', 'float64', 'float64'), ('complex32', 'bfloat16', 'complex64'),
    ('complex32', 'float16', 'complex32'), ('float64', 'complex64', 'complex128'), ('complex64', 'int32', 'complex64'),
    ('complex128', 'complex32', 'complex128'),
])
def test_promotion_with_them(a, b, expected):
    assert torch.promote_types(getattr(torch, a), getattr(torch, b)) is getattr(torch, expected)


@pytest.mark.parametrize("make, message", [
    (lambda x: x.bfloat16(), BF16), (lambda x: x.to(torch.bfloat16), BF16),
    (lambda x: torch.zeros(2, dtype=torch.bfloat16), BF16), (lambda x: torch.tensor([1.], dtype=torch.bfloat16), BF16),
    (lambda x: x.sum(dtype=torch.bfloat16), BF16), (lambda x: torch.randn(2, dtype=torch.bfloat16), BF16),
    (lambda x: torch.nn.Linear(2, 2).to(torch.bfloat16), BF16), (lambda x: x.view(torch.bfloat16), BF16),
    (lambda x: torch.nn.Sequential(torch.nn.Linear(2, 2)).bfloat16(), BF16),
    (lambda x: x.cfloat(), COMPLEX), (lambda x: torch.ones(2, dtype=torch.complex64), COMPLEX),
    (lambda x: x.type(torch.cdouble), COMPLEX), (lambda x: torch.tensor([1 + 2j]), COMPLEX),
    (lambda x: torch.tensor([1 + 1j, 2.], dtype=torch.cdouble), COMPLEX),
    (lambda x: torch.randn(2, dtype=torch.complex64), COMPLEX), (lambda x: torch.rand(2, dtype=torch.cdouble), COMPLEX),
])
def test_making_such_a_tensor_is_a_clear_error(make, message):
    with pytest.raises(TypeError) as e:
        make(torch.tensor([1.5, 2.5]))
    assert str(e.value) == message


def test_a_sparse_gradient_is_a_clear_error_where_it_would_be_made():
    emb = torch.nn.Embedding(4, 2, sparse=True)
    y = emb(torch.tensor([1, 1, 3]))            # (the forward is dense in PyTorch too)
    assert y.grad_fn.name() == 'EmbeddingBackward0'
    with pytest.raises(NotImplementedError, match=r'supports only dense tensors .*embedding\(sparse=True\)'):
        y.sum().backward()
    bag = torch.nn.EmbeddingBag(4, 2, mode='sum', sparse=True)
    with pytest.raises(NotImplementedError, match=r'embedding_bag\(sparse=True\)'):
        bag(torch.tensor([[1, 2]])).sum().backward()
    with pytest.raises(NotImplementedError, match='layout=torch.sparse_coo exists in PyTorch'):
        torch.zeros(2, layout=torch.sparse_coo)
    w = torch.nn.Embedding(4, 2)
    w(torch.tensor([1, 1])).sum().backward()
    assert np.array_equal(w.weight.grad.numpy()[1], [2., 2.])
