"""Formulas that compute in numpy at once when backward records nothing (mm, div, the expand of a sum's gradient,
relu against the kept zeros, an optimizer's `w -= lr * g`) give the same bits as the recorded tensor ops that
create_graph runs, and keep PyTorch's errors and version counts."""
import numpy as np
import pytest

import engine as torch
from engine import _ops


def _both_ways(make_inputs, fn):
    """The gradients of fn's sum w.r.t. the inputs: from .backward() (nothing recorded) and from
    autograd.grad(create_graph=True) (the same formulas run as recorded tensor ops)."""
    plain = make_inputs()
    fn(*plain).sum().backward()
    recorded = make_inputs()
    grads = torch.autograd.grad(fn(*recorded).sum(), [t for t in recorded if t.requires_grad], create_graph=True)
    return [t.grad for t in plain if t.requires_grad], grads


def _same_bits(a, b):
    assert a.dtype == b.dtype and a.shape == b.shape
    assert a.detach().numpy().tobytes() == b.detach().numpy().tobytes()


@pytest.mark.parametrize('m, k, n', [(3, 3, 3), (1, 5, 1), (4, 1, 7), (5, 3, 1), (2, 12, 16), (16, 64, 12),
                                     (64, 128, 10), (40, 300, 30)])
@pytest.mark.parametrize('dtype', [torch.float32, torch.float64])
def test_mm_backward_in_numpy_matches_the_recorded_formula(m, k, n, dtype):
    rng = np.random.default_rng(m * 1000 + k * 10 + n)
    x, y = (rng.standard_normal(s) for s in ((m, k), (k, n)))
    plain, recorded = _both_ways(
        lambda: [torch.tensor(x, dtype=dtype, requires_grad=True), torch.tensor(y, dtype=dtype, requires_grad=True)],
        lambda a, b: (a @ b).exp())
    for p, r in zip(plain, recorded):
        _same_bits(p, r)


@pytest.mark.parametrize('shapes', [((64, 10), (64, 1)), ((3,), ()), ((), ()), ((2, 3), (3,)), ((5, 1), (1, 4))])
@pytest.mark.parametrize('dtype', [torch.float32, torch.float64])
def test_div_backward_in_numpy_matches_the_recorded_formula(shapes, dtype):
    rng = np.random.default_rng(len(shapes[0]) * 7 + len(shapes[1]))
    x, y = rng.standard_normal(shapes[0]), rng.uniform(0.5, 2.0, shapes[1])
    plain, recorded = _both_ways(
        lambda: [torch.tensor(x, dtype=dtype, requires_grad=True), torch.tensor(y, dtype=dtype, requires_grad=True)],
        lambda a, b: (a / b) ** 2)
    for p, r in zip(plain, recorded):
        _same_bits(p, r)


def test_div_backward_with_other_operand_kinds_takes_the_tensor_ops():
    """A number divisor, an integer dividend or a divisor of another dtype go through the tensor ops (promotion)."""
    a = torch.tensor([1., 2., 3.], requires_grad=True)
    (a / 3).sum().backward()
    assert a.grad.tolist() == pytest.approx([1 / 3] * 3)
    b = torch.tensor([2., 4.], requires_grad=True)
    (torch.tensor([1, 2]) / b).sum().backward()
    assert b.grad.dtype == torch.float32 and b.grad.tolist() == [-0.25, -0.125]
    c = torch.tensor([2., 4.], dtype=torch.float64, requires_grad=True)
    d = torch.tensor([1., 2.], requires_grad=True)
    (d / c).sum().backward()
    assert d.grad.dtype == torch.float32 and c.grad.dtype == torch.float64


def test_a_sums_gradient_is_an_expanded_view_of_the_incoming_one():
    """As in PyTorch 2.13: the strides a hook sees (0 where expanded; mean divides into a new tensor)."""
    x = torch.ones(2, 3, requires_grad=True)
    seen = []
    y = x * 2
    y.register_hook(lambda g: seen.append((g.shape, g.stride(), g._version)))
    y.sum().backward()
    z = x * 2
    z.register_hook(lambda g: seen.append((g.shape, g.stride())))
    (z.sum(1, keepdim=True) * torch.tensor([[1.], [2.]])).sum().backward()
    w = x * 2
    w.register_hook(lambda g: seen.append((g.shape, g.stride())))
    (w.mean(0) * torch.tensor([1., 2., 3.])).sum().backward()
    assert seen == [(torch.Size([2, 3]), (0, 0), 0), (torch.Size([2, 3]), (1, 0)), (torch.Size([2, 3]), (3, 1))]
    assert x.grad.tolist() == [[2 + 2 + 2 / 2, 2 + 2 + 4 / 2, 2 + 2 + 6 / 2], [2 + 4 + 2 / 2, 2 + 4 + 4 / 2, 2 + 4 + 6 / 2]]


@pytest.mark.parametrize('keeps_second', [True, False])
def test_relu_keeps_negative_zero_and_nan_either_way(monkeypatch, keeps_second):
    monkeypatch.setattr(_ops, '_MAX_KEEPS_SECOND', keeps_second and _ops._MAX_KEEPS_SECOND)
    for dtype in (torch.float32, torch.float64):
        x = torch.tensor([-0.0, 0.0, -1.5, 2.0, float('nan'), -float('inf'), float('inf')] * 40, dtype=dtype)
        r = x.relu()._data
        expected = np.where(x._data < 0, 0, x._data).astype(x._data.dtype)
        assert r.tobytes() == expected.tobytes()
        assert np.signbit(r[0]) and not np.signbit(r[2])


def test_inplace_update_under_no_grad_keeps_versions_views_and_errors():
    w = torch.arange(6.).requires_grad_()
    v = w[1:3]
    with torch.no_grad():
        w -= 0.5 * torch.ones(6)
        w -= 1.0
        assert w._version == 2 and v._version == 2
        assert w.tolist() == [-1.5, -0.5, 0.5, 1.5, 2.5, 3.5] and v.tolist() == [-0.5, 0.5]
        with pytest.raises(RuntimeError, match='some elements of the input tensor and the written-to tensor refer '
                                               'to a single memory location'):
            w[1:] -= w[:-1]
        with pytest.raises(RuntimeError, match="output with shape \\[6\\] doesn't match the broadcast shape"):
            w -= torch.ones(2, 6)
    with torch.inference_mode():
        t = torch.ones(3)
    with torch.no_grad():
        with pytest.raises(RuntimeError, match='Inplace update to inference tensor outside InferenceMode'):
            t -= 1.0


def test_mm_saves_each_inputs_strides_and_transposes_a_column_major_inputs_gradient():
    a = torch.arange(6.).view(2, 3).t().requires_grad_()          # column-major 3 x 2
    b = (torch.arange(8.).view(4, 2) / 3).t()                      # column-major 2 x 4, no grad
    y = a.mm(b)
    assert y.grad_fn._saved_self_sym_strides == (1, 3) and y.grad_fn._saved_mat2_sym_strides == ()
    g, = torch.autograd.grad(y.sum(), a)
    assert g.stride() == (1, 3)                                    # (b @ grad^T)^T, as PyTorch computes it
    b.requires_grad_()
    ga, gb = torch.autograd.grad(a.mm(b).sum(), [a, b], create_graph=True)
    assert type(ga.grad_fn).__name__ == 'TBackward0' and type(gb.grad_fn).__name__ == 'TBackward0'
    assert ga.tolist() == g.tolist() and gb.stride() == (1, 2)
