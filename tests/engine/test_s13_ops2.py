"""F.pad's reflect / replicate / circular modes, masked_scatter, as_strided, resize_, put_ and memory formats on the
engine alone (also run in Pyodide, where numpy's default int is int32). Expected values are PyTorch 2.13's."""
import numpy as np
import pytest

import engine as torch

F = torch.nn.functional


def x3():
    return torch.arange(6.).reshape(1, 2, 3).requires_grad_()


@pytest.mark.parametrize('mode, values, grad', [
    ('reflect', [2, 1, 0, 1, 2, 1], [2, 9, 4]),
    ('replicate', [0, 0, 0, 1, 2, 2], [3, 3, 9]),
    ('circular', [1, 2, 0, 1, 2, 0], [7, 3, 5]),
])
def test_pad_modes(mode, values, grad):
    x = x3()
    y = F.pad(x, (2, 1), mode=mode)
    assert y[0, 0].tolist() == values
    (y * torch.arange(12.).reshape(1, 2, 6)).sum().backward()
    assert x.grad[0, 0].tolist() == grad


def test_pad_double_backward_pads_again():
    x = x3()
    g, = torch.autograd.grad(F.pad(x, (2, 1), mode='reflect'), x, torch.ones(1, 2, 6, requires_grad=True),
                             create_graph=True)
    assert type(g.grad_fn).__name__ == 'ReflectionPad1DBackwardBackward0'
    assert g[0, 0].tolist() == [1., 3., 2.]


def test_pad_errors():
    with pytest.raises(RuntimeError, match=r'Argument #4: Padding size should be less'):
        F.pad(x3(), (3, 1), mode='reflect')
    with pytest.raises(NotImplementedError, match='Padding size 2 is not supported for 4D input tensor'):
        F.pad(torch.ones(1, 1, 2, 2), (1, 1), mode='replicate')
    with pytest.raises(ValueError, match=r'expected 2D or 3D input \(got 1D input\)'):
        torch.nn.CircularPad1d(1)(torch.ones(3))


def test_adaptive_avg_pool1d():
    y = F.adaptive_avg_pool1d(torch.arange(6.).reshape(1, 1, 6).requires_grad_(), 4)
    assert y.tolist() == [[[0.5, 1.5, 3.5, 4.5]]] and type(y.grad_fn).__name__ == 'SqueezeBackward1'


def test_masked_scatter_and_put():
    x = torch.arange(4.).requires_grad_()
    s = torch.tensor([9., 8, 7, 6], requires_grad=True)
    y = x.masked_scatter(torch.tensor([True, False, True, False]), s)
    assert y.tolist() == [9., 1., 8., 3.]
    y.backward(torch.tensor([1., 2, 3, 4]))
    assert x.grad.tolist() == [0., 2., 0., 4.] and s.grad.tolist() == [1., 3., 0., 0.]
    z = torch.zeros(5)
    z.put_(torch.tensor([1, 1]), torch.tensor([1., 2.]), accumulate=True)
    assert z.tolist() == [0., 3., 0., 0., 0.] and z._version == 1


def test_as_strided_reads_memory():
    x = torch.arange(6.).requires_grad_()
    y = torch.as_strided(x, (3, 2), (1, 1), 1)
    assert y.tolist() == [[1., 2.], [2., 3.], [3., 4.]] and y._base is x
    y.sum().backward()
    assert x.grad.tolist() == [0., 1., 2., 2., 1., 0.]


def test_resize_keeps_memory():
    x = torch.arange(6.)
    x.resize_(2, 2)
    assert x.tolist() == [[0., 1.], [2., 3.]] and x._version == 1
    assert x.resize_(3, 2).tolist() == [[0., 1.], [2., 3.], [4., 5.]]
    with pytest.raises(RuntimeError, match='cannot resize variables that require grad'):
        torch.ones(2, requires_grad=True).resize_(2)


def test_channels_last():
    x = torch.arange(24.).reshape(1, 2, 3, 4)
    y = x.contiguous(memory_format=torch.channels_last)
    assert y.stride() == (24, 1, 8, 2) and y.is_contiguous(memory_format=torch.channels_last)
    assert not y.is_contiguous() and y.clone().stride() == (24, 1, 8, 2)
    assert y.contiguous().stride() == (24, 12, 4, 1) and np.array_equal(y.numpy(), x.numpy())
    assert repr(torch.channels_last) == 'torch.channels_last'
