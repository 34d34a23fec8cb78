"""torch.einsum: PyTorch's graph (aligned by permute, contracted by bmm), its values and gradients (checked here
against numpy's einsum and the gradient formulas), and PyTorch's errors for bad equations."""
import numpy as np
import pytest

import engine as torch


def nodes(t):
    """The grad_fn nodes from t down its first edges."""
    found, fn = [], t.grad_fn
    while fn is not None:
        found.append(fn)
        fn = fn.next_functions[0][0] if fn.next_functions else None
    return found


def chain(t):
    return [type(fn).__name__ for fn in nodes(t)]


def data(*shape, k=1):
    n = int(np.prod(shape))
    return torch.tensor((((np.arange(n) * 7919 * k) % 1000 - 500) / 173.).reshape(shape), dtype=torch.float64)


@pytest.mark.parametrize('equation, shapes', [
    ('ij,jk->ik', [(2, 3), (3, 4)]), ('ij,jk->ki', [(2, 3), (3, 4)]), ('ij->ji', [(2, 3)]), ('ij->', [(2, 3)]),
    ('ij->j', [(2, 3)]), ('i,i->', [(3,), (3,)]), ('i,j->ij', [(3,), (4,)]), ('bid,bjd->bij', [(2, 5, 3), (2, 6, 3)]),
    ('ii->i', [(3, 3)]), ('ii', [(3, 3)]), ('ij,j->i', [(2, 3), (3,)]), ('...ij->...ji', [(2, 5, 3)]),
    ('b...d,b...d->b...', [(2, 5, 3), (2, 5, 3)]), ('ij,jk,kl->il', [(2, 3), (3, 4), (4, 2)]),
    ('ik,kj->', [(2, 3), (3, 4)]), ('bn,anm,bm->ba', [(2, 3), (4, 3, 5), (2, 5)]),
    ('i j , j k -> i k', [(2, 3), (3, 4)]),
])
def test_values_and_gradients_as_numpy_computes_them(equation, shapes):
    ops = [data(*s, k=2 * i + 1).requires_grad_() for i, s in enumerate(shapes)]
    out = torch.einsum(equation, *ops)
    arrays = [o.detach().numpy() for o in ops]
    np.testing.assert_allclose(out.detach().numpy(), np.einsum(equation.replace(' ', ''), *arrays), rtol=1e-12)
    seed = np.linspace(-1, 1, out.numel()).reshape(out.shape)
    out.backward(torch.tensor(seed))
    for i, o in enumerate(ops):            # d/d op_i of sum(seed * out): einsum of the seed and the other operands
        eps = 1e-6
        probe = np.zeros(o.shape)
        probe.flat[o.numel() // 2] = eps
        moved = [a + probe if j == i else a for j, a in enumerate(arrays)]
        numeric = ((np.einsum(equation.replace(' ', ''), *moved) - np.einsum(equation.replace(' ', ''), *arrays))
                   * seed).sum() / eps
        assert o.grad.view(-1)[o.numel() // 2].item() == pytest.approx(numeric, rel=1e-5, abs=1e-8)


def test_the_graph_is_pytorchs():
    a, b = torch.ones(2, 3, requires_grad=True), torch.ones(3, 4, requires_grad=True)
    assert chain(torch.einsum('ij,jk->ik', a, b)) == ['ViewBackward0', 'PermuteBackward0', 'ViewBackward0',
                                                     'BmmBackward0', 'ViewBackward0', 'PermuteBackward0',
                                                     'PermuteBackward0', 'UnsqueezeBackward0', 'AccumulateGrad']
    # the right operand's dims first in the output: bmm takes the operands the other way round
    assert chain(torch.einsum('ij,jk->ki', a, b))[3:] == ['BmmBackward0', 'ReshapeAliasBackward0', 'PermuteBackward0',
                                                         'PermuteBackward0', 'UnsqueezeBackward0', 'AccumulateGrad']
    assert nodes(torch.einsum('ij,jk->ki', a, b))[-1].variable is b
    assert chain(torch.einsum('ij->ji', a)) == ['PermuteBackward0', 'AccumulateGrad']
    assert chain(torch.einsum('ij->j', a)) == ['SumBackward1', 'PermuteBackward0', 'AccumulateGrad']
    assert chain(torch.einsum('i,j->ij', a[0], b[0])) == ['MulBackward0', 'PermuteBackward0', 'UnsqueezeBackward0',
                                                         'SelectBackward0', 'AccumulateGrad']
    assert chain(torch.einsum('ii->i', torch.ones(3, 3, requires_grad=True))) == [
        'PermuteBackward0', 'PermuteBackward0', 'DiagonalBackward0', 'AccumulateGrad']


def test_list_and_sublist_forms():
    a, b = data(2, 3), data(3, 4, k=3)
    expected = torch.einsum('ij,jk->ik', a, b)
    for out in (torch.einsum('ij,jk->ik', [a, b]), torch.einsum(a, [0, 1], b, [1, 2], [0, 2]),
                torch.einsum(a, [0, 1], b, [1, 2])):
        assert torch.equal(out, expected)
    assert torch.einsum(data(2, 5, 3), [Ellipsis, 1], [Ellipsis]).shape == (2, 5)


@pytest.mark.parametrize('call, error, message', [
    (lambda a, b: torch.einsum('ij,jk->ik', a), RuntimeError,
     'einsum(): fewer operands were provided than specified in the equation'),
    (lambda a, b: torch.einsum('ij', a, b), RuntimeError,
     'einsum(): more operands were provided than specified in the equation'),
    (lambda a, b: torch.einsum('ij->ik', a), RuntimeError,
     'einsum(): output subscript k does not appear in the equation for any input operand'),
    (lambda a, b: torch.einsum('ij->ii', a), RuntimeError, 'einsum(): output subscript i appears more than once in '
                                                           'the output'),
    (lambda a, b: torch.einsum('ijk->ij', a), RuntimeError, 'einsum(): the number of subscripts in the equation (3) '
     'does not match the number of dimensions (2) for operand 0 and no ellipsis was given'),
    (lambda a, b: torch.einsum('i2->i', a), RuntimeError, 'einsum(): invalid subscript given at index 1 in the '
                                                          'equation string, subscripts must be in [a-zA-Z]'),
    (lambda a, b: torch.einsum('..i->i', a[0]), RuntimeError, "einsum(): found '.' for operand 0 that is not part "
                                                              "of any ellipsis"),
    (lambda a, b: torch.einsum('ii->i', a), RuntimeError, "einsum(): subscript i is repeated for operand 0 but the "
                                                          "sizes don't match, 3 != 2"),
    (lambda a, b: torch.einsum('i,i->i', a[0], b[0]), RuntimeError, 'einsum(): subscript i has size 4 for operand 1 '
                                                                     'which does not broadcast with previously seen '
                                                                     'size 3'),
    (lambda a, b: torch.einsum('ij'), ValueError, 'einsum(): must specify the equation string and at least one '
                                                  'operand, or at least one operand and its subscripts list'),
    (lambda a, b: torch.einsum(a, [0, 60]), ValueError, 'einsum(): subscript in subscript list is not within the '
                                                        'valid range [0, 52)'),
    (lambda a, b: torch.einsum('ij->i', 5), TypeError, 'expected Tensor as element 0 in argument 1, but got int'),
])
def test_pytorchs_errors(call, error, message):
    with pytest.raises(error) as err:
        call(torch.ones(2, 3), torch.ones(3, 4))
    assert str(err.value) == message
