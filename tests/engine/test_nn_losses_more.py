"""kl_div / KLDivLoss, margin_ranking_loss, hinge_embedding_loss, dropout2d and torch.nn.utils.rnn.pad_sequence:
values, grad_fn names, gradients (against finite differences), warnings and errors as PyTorch 2.13 has them (checked
against it by tests/differential/test_nn_losses_more_vs_torch.py)."""
import math
import warnings

import numpy as np
import pytest

import engine as torch
from numeric import numeric_grad, numeric_grads

F = torch.nn.functional


def _logp(seed=0, shape=(3, 4)):
    return torch.tensor(np.random.default_rng(seed).standard_normal(shape)).log_softmax(1).detach()


def _names(g):
    """The grad_fn graph's node names, depth first."""
    if g is None:
        return [None]
    out = [type(g).__name__]
    for n, _ in g.next_functions:
        out += _names(n)
    return out


@pytest.mark.parametrize("reduction", ["sum", "none", "batchmean"])
@pytest.mark.parametrize("log_target", [False, True])
def test_kl_div_values_and_gradients(reduction, log_target):
    x = _logp(0).requires_grad_()
    t = _logp(1) if log_target else _logp(1).exp()
    t.requires_grad_()
    y = F.kl_div(x, t, reduction=reduction, log_target=log_target)
    p = t._data if not log_target else np.exp(t._data)
    pointwise = p * (np.log(p) - x._data)
    want = {"sum": pointwise.sum(), "none": pointwise, "batchmean": pointwise.sum() / 3}[reduction]
    np.testing.assert_allclose(y.detach().numpy(), want, rtol=1e-12, atol=1e-12)
    y.sum().backward()
    gx, gt = numeric_grads(lambda a, b: F.kl_div(a, b, reduction=reduction, log_target=log_target), [x, t])
    np.testing.assert_allclose(x.grad.numpy(), gx, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(t.grad.numpy(), gt, rtol=1e-5, atol=1e-6)


def test_kl_div_graph_is_composed_as_pytorch():
    x, t = _logp(0).requires_grad_(), _logp(1).exp().requires_grad_()
    assert _names(F.kl_div(x, t, reduction='sum').grad_fn) == [
        'SumBackward0', 'SubBackward0', 'XlogyBackward0', 'AccumulateGrad', 'AccumulateGrad', 'MulBackward0',
        'AccumulateGrad', 'AccumulateGrad']
    assert _names(F.kl_div(x, t.log(), reduction='batchmean', log_target=True).grad_fn)[:5] == [
        'DivBackward0', 'SumBackward0', 'MulBackward0', 'ExpBackward0', 'LogBackward0']
    assert type(F.kl_div(x, t, reduction='none').grad_fn).__name__ == 'SubBackward0'


def test_kl_div_mean_warns_and_zero_target():
    x = _logp(0)
    t = torch.tensor([[0., 1., 0., 0.]] * 3)
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter('always')
        y = F.kl_div(x, t)
        F.kl_div(x, t, reduction='batchmean')
    assert [str(m.message)[:38] for m in w] == ["reduction: 'mean' divides the total lo"]
    assert math.isclose(y.item(), -x._data[:, 1].sum() / 12, rel_tol=1e-12)      # xlogy(0, 0) is 0
    assert F.kl_div(torch.tensor(-0.5), torch.tensor(0.25), reduction='batchmean').item() == \
        pytest.approx(0.25 * (math.log(0.25) + 0.5))                                   # 0-d: no division


def test_kl_div_errors_and_module():
    x = _logp(0)
    with pytest.raises(RuntimeError, match='^kl_div: Integral inputs not supported.$'):
        F.kl_div(torch.tensor([1, 2]), torch.tensor([1., 2.]), reduction='sum')
    with pytest.raises(ValueError, match='^foo is not a valid value for reduction$'):
        F.kl_div(x, x, reduction='foo')
    with pytest.warns(UserWarning, match="please use reduction='sum' instead"):
        m = torch.nn.KLDivLoss(size_average=False)
    assert (m.reduction, m.log_target, repr(m)) == ('sum', False, 'KLDivLoss()')
    m = torch.nn.KLDivLoss(reduction='batchmean', log_target=True)
    assert m(x, x).item() == 0.0


@pytest.mark.parametrize("reduction", ["mean", "sum", "none"])
def test_margin_ranking_loss(reduction):
    a = torch.tensor([1., -2., 3., 0.25], dtype=torch.float64, requires_grad=True)
    b = torch.tensor([0.5, 0., 3.5, 1.], dtype=torch.float64, requires_grad=True)
    t = torch.tensor([1., 1., -1., -1.], dtype=torch.float64)
    y = F.margin_ranking_loss(a, b, t, margin=0.3, reduction=reduction)
    pointwise = np.maximum(-t._data * (a._data - b._data) + 0.3, 0)
    want = {"mean": pointwise.mean(), "sum": pointwise.sum(), "none": pointwise}[reduction]
    np.testing.assert_allclose(y.detach().numpy(), want, rtol=1e-12)
    names = _names(y.grad_fn)
    assert names[-7:] == ['ClampMinBackward0', 'AddBackward1', 'MulBackward0', None, 'SubBackward0',
                          'AccumulateGrad', 'AccumulateGrad']
    y.sum().backward()
    ga, gb = numeric_grads(lambda p, q: F.margin_ranking_loss(p, q, t, margin=0.3, reduction=reduction), [a, b])
    np.testing.assert_allclose(a.grad.numpy(), ga, atol=1e-6)
    np.testing.assert_allclose(b.grad.numpy(), gb, atol=1e-6)
    assert y.grad_fn._saved_min == 0 if reduction == 'none' else True


def test_margin_ranking_loss_errors_and_module():
    a = torch.ones(3)
    with pytest.raises(RuntimeError, match=r'^margin_ranking_loss : All input tensors should have same dimension but '
                                           r'got sizes: input1: torch.Size\(\[3\]\), input2: torch.Size\(\[3\]\), '
                                           r'target: torch.Size\(\[1, 3\]\) $'):
        F.margin_ranking_loss(a, a, a[None])
    m = torch.nn.MarginRankingLoss(margin=0.5, reduction='sum')
    assert (repr(m), m.margin, m.reduction) == ('MarginRankingLoss()', 0.5, 'sum')
    assert m(a, a, a).item() == 1.5


@pytest.mark.parametrize("reduction", ["mean", "sum", "none"])
def test_hinge_embedding_loss(reduction):
    x = torch.tensor([0.3, -1.5, 2.0, 0.7, -0.2], dtype=torch.float64, requires_grad=True)
    t = torch.tensor([1., -1., -1., 1., 0.], dtype=torch.float64)
    y = F.hinge_embedding_loss(x, t, margin=1.5, reduction=reduction)
    xs, ts = x._data, t._data
    pointwise = np.where(ts != 1, np.maximum(1.5 - xs, 0), 0) + np.where(ts != -1, xs, 0)
    want = {"mean": pointwise.mean(), "sum": pointwise.sum(), "none": pointwise}[reduction]
    np.testing.assert_allclose(y.detach().numpy(), want, rtol=1e-12)
    names = _names(y.grad_fn)
    assert names[-10:] == ['AddBackward0', 'WhereBackward0', 'ClampMinBackward0', 'SubBackward0', None,
                           'AccumulateGrad', None, 'WhereBackward0', 'AccumulateGrad', None]
    y.sum().backward()
    np.testing.assert_allclose(x.grad.numpy(), numeric_grad(
        lambda v: F.hinge_embedding_loss(v, t, margin=1.5, reduction=reduction), x), atol=1e-6)


def test_hinge_embedding_loss_errors_and_module():
    x = torch.ones(5)
    with pytest.raises(RuntimeError, match=r'^The size of tensor a \(2\) must match the size of tensor b \(5\) at '
                                           r'non-singleton dimension 0$'):
        F.hinge_embedding_loss(x, torch.ones(2))
    m = torch.nn.HingeEmbeddingLoss()
    assert (repr(m), m.margin, m.reduction) == ('HingeEmbeddingLoss()', 1.0, 'mean')
    assert m(torch.tensor([2., 0.5]), torch.tensor([-1., -1.])).item() == 0.25


def test_dropout2d_zeroes_whole_channels():
    torch.manual_seed(0)
    x = torch.ones(4, 16, 3, 2, requires_grad=True)
    y = F.dropout2d(x, 0.25)
    assert type(y.grad_fn).__name__ == 'MulBackward0'
    v = y.detach().numpy()
    per_channel = v.reshape(4, 16, 6)
    assert (per_channel == per_channel[..., :1]).all()
    assert set(np.unique(v)) <= {0.0, np.float32(1 / 0.75)} and 0.0 in v
    y.sum().backward()
    np.testing.assert_array_equal(x.grad.numpy(), v)
    assert F.dropout2d(x, 0.5, training=False) is x and F.dropout2d(x, 0.) is x
    assert (F.dropout2d(x, 1.).detach().numpy() == 0).all()
    m = torch.nn.Dropout2d(0.3)
    assert repr(m) == 'Dropout2d(p=0.3, inplace=False)'
    m.eval()
    assert m(x) is x


def test_dropout2d_warnings_and_errors():
    with pytest.warns(UserWarning, match='dropout2d: Received a 3D input to dropout2d'):
        F.dropout2d(torch.ones(2, 3, 4), 0.5)
    with pytest.warns(UserWarning, match='dropout2d: Received a 2-D input to dropout2d, which is deprecated'):
        F.dropout2d(torch.ones(2, 3), 0.5)
    with pytest.raises(ValueError, match='^dropout probability has to be between 0 and 1, but got 1.5$'):
        F.dropout2d(torch.ones(2, 3, 4, 4), 1.5)
    with warnings.catch_warnings():
        warnings.simplefilter('ignore')
        with pytest.raises(RuntimeError, match='^Feature dropout requires at least 2 dimensions in the input$'):
            F.dropout2d(torch.ones(3), 0.5)


def test_pad_sequence():
    pad_sequence = torch.nn.utils.rnn.pad_sequence
    a, b, c = (torch.tensor(v, requires_grad=True) for v in ([1., 2., 3.], [4., 5.], [6.]))
    y = pad_sequence([a, b, c])
    np.testing.assert_array_equal(y.detach().numpy(), [[1, 4, 6], [2, 5, 0], [3, 0, 0]])
    assert _names(y.grad_fn) == ['CopySlices', 'CopySlices', 'CopySlices', None, 'AccumulateGrad',
                                 'AccumulateGrad', 'AccumulateGrad']
    (y * torch.arange(9.).view(3, 3)).sum().backward()
    assert (a.grad.tolist(), b.grad.tolist(), c.grad.tolist()) == ([0., 3., 6.], [1., 4.], [2.])
    y = pad_sequence([a, b, c], batch_first=True, padding_value=-1, padding_side='left')
    np.testing.assert_array_equal(y.detach().numpy(), [[1, 2, 3], [-1, 4, 5], [-1, -1, 6]])
    y = pad_sequence([torch.ones(2, 3), torch.ones(4, 3)], batch_first=True)
    assert y.shape == (2, 4, 3) and y.grad_fn is None and y.sum().item() == 18
    assert pad_sequence([torch.tensor([1, 2]), torch.tensor([3])]).dtype == torch.int64
    with pytest.raises(RuntimeError, match='^received an empty list of sequences$'):
        pad_sequence([])
    with pytest.raises(RuntimeError, match='^Expected padding_side to be one of left or right, but got mid.$'):
        pad_sequence([a], padding_side='mid')
