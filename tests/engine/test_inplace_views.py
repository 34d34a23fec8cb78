"""In-place changes of views made in no_grad mode: PyTorch's error names the view's own op when the view was taken
of such a view with grad mode on ("Output 0 of Slice is a view of a view which ..."), also after its base changed."""
import pytest

import engine as torch

TAIL = (' no_grad mode and is being modified inplace with grad mode enabled. Given that this use case is ambiguous '
        'and error-prone, it is forbidden. You can clarify your code by moving both the view and the inplace either '
        'both inside the no_grad block (if you don\'t want the inplace to be tracked) or both outside (if you want the '
        'inplace to be tracked).')
DIRECT = 'A view was created in' + TAIL


def of_a_view(op):
    return 'Output 0 of %s is a view of a view which was created in' % op + TAIL


def views():
    leaf = torch.ones(4, requires_grad=True)
    with torch.no_grad():
        v = leaf[:3]
    return leaf, v, v[:2]


@pytest.mark.parametrize('change, message', [
    (lambda v, v2: v.mul_(2), DIRECT),
    (lambda v, v2: v2.mul_(2), of_a_view('Slice')),
    (lambda v, v2: v2.t_(), of_a_view('Slice')),
    (lambda v, v2: v[0].add_(1), of_a_view('Select')),
    (lambda v, v2: v.view(3).zero_(), of_a_view('View')),
    (lambda v, v2: v2.__setitem__(0, 3.), of_a_view('Select')),
    (lambda v, v2: v2.__setitem__(slice(0, 1), 3.), of_a_view('Slice')),
])
def test_the_error_names_the_op_of_a_view_of_a_no_grad_view(change, message):
    leaf, v, v2 = views()
    with pytest.raises(RuntimeError) as err:
        change(v, v2)
    assert str(err.value) == message


def test_after_its_memory_changed_the_view_keeps_its_op_in_the_error():
    leaf, v, v2 = views()
    v2.detach().add_(1)                   # (its history can no longer be rebuilt: reading grad_fn is an error too)
    with pytest.raises(RuntimeError, match='^Output 0 of Slice is a view of a view .* its base or another view'):
        v2.grad_fn
    with pytest.raises(RuntimeError) as err:
        v2.mul_(2)
    assert str(err.value) == of_a_view('Slice')
    with pytest.raises(RuntimeError) as err:
        v.mul_(2)
    assert str(err.value) == DIRECT


def test_a_view_made_in_no_grad_mode_of_a_no_grad_view_is_a_direct_one():
    leaf = torch.ones(4, requires_grad=True)
    with torch.no_grad():
        n = leaf[1:][:2]
    assert n.grad_fn is None and n.requires_grad
    with pytest.raises(RuntimeError) as err:
        n.add_(1)
    assert str(err.value) == DIRECT


@pytest.mark.parametrize('code, expected', [
    # PyTorch judges overlap between dense tensors only: here its kernel runs in memory order and reads what it wrote
    ('x = torch.tensor([[1., 2., 3.], [4., 5., 6.]]); x -= x[:, :1]', [[0., 2., 3.], [0., 5., 6.]]),
    ('x = torch.arange(1., 10.).view(3, 3); x *= x[:, 1:2]', [[2., 4., 12.], [20., 25., 150.], [56., 64., 576.]]),
    ('x = torch.arange(6.).reshape(2, 3); x[:, 1:] = x[:, :2]', [[0., 0., 0.], [3., 3., 3.]]),
    ('x = torch.arange(9.).reshape(3, 3); x[:, 1:] -= x[:, :-1]', [[0., 1., 1.], [3., 1., 4.], [6., 1., 7.]]),
    ('x = torch.arange(1., 7.).reshape(2, 3); xt = x.t(); xt -= xt[:1]', [[0., 2., 3.], [0., 5., 6.]]),
    # rows of 40: pairs of 16-float vectors (a broadcast column read once for them), then one number at a time
    ('x = torch.arange(80.).reshape(2, 40); x[:, 1:] = x[:, :-1]; x = x[:1, 14:20]', [[13., 14., 15., 15., 17., 18.]]),
    ('x = torch.arange(1., 81.).view(2, 40); x -= x[:, :1]; x = x[:1, 30:34]', [[30., 31., 33., 34.]]),
])
def test_inplace_op_reading_an_alias_of_what_it_writes(code, expected):
    namespace = {'torch': torch}
    exec(code, namespace)
    assert namespace['x'].tolist() == expected


def test_writing_a_tensor_into_itself_through_advanced_indices_is_refused():
    x = torch.arange(6.).reshape(3, 2)
    for write in (lambda: x.__setitem__(torch.tensor([2, 0, 1]), x), lambda: x.__setitem__((slice(None), [1, 0]), x),
                  lambda: x.index_put_((torch.tensor([2, 0, 1]),), x)):
        with pytest.raises(RuntimeError, match='some elements of the input tensor and the written-to tensor refer'):
            write()
    assert x.tolist() == [[0., 1.], [2., 3.], [4., 5.]]
    x[x > 3] = x[0, 0]                      # (one value through one mask: masked_fill_, which reads it first)
    assert x.tolist() == [[0., 1.], [2., 3.], [0., 0.]]
