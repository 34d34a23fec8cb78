"""Engine-only checks of the torch.* functions added in session 36 (the functional forms at top level: torch.batch_norm,
torch.dropout, torch.kl_div, torch.convolution, the RNN cells, the native_* forms; math: gcd, lcm, frexp, gradient,
cumulative_trapezoid, vander, combinations, renorm, mvlgamma, igamma, matrix_exp, histogram, lu, lu_unpack, lu_solve,
index_reduce; the windows, the *_copy views, fill, nonzero_static, binomial, poisson ...): values, dtypes, grad_fn
names, gradients by finite differences in float64 (gradcheck / gradgradcheck) and errors."""
import math
import warnings

import numpy as np
import pytest

import engine as torch

F = torch.nn.functional


def f64(*values, grad=True):
    return torch.tensor(values, dtype=torch.float64, requires_grad=grad)


# ------------------------------------------------------------------------------------------------ functional forms

def test_functional_forms_match_nn_functional():
    torch.manual_seed(0)
    x = torch.randn(4, 3)
    t = torch.rand(4, 3)
    assert torch.equal(torch.layer_norm(x, [3]), F.layer_norm(x, [3]))
    assert torch.equal(torch.group_norm(x.view(2, 6, 1), 3), F.group_norm(x.view(2, 6, 1), 3))
    assert torch.equal(torch.batch_norm(x, None, None, None, None, True, 0.1, 1e-5, False),
                       F.batch_norm(x, None, None, training=True))
    assert torch.equal(torch.binary_cross_entropy_with_logits(x, t, None, None, 1),
                       F.binary_cross_entropy_with_logits(x, t))
    # (the torch.* losses' reduction defaults to 0: none)
    assert torch.kl_div(x, t).shape == (4, 3) and torch.kl_div(x, t, 1).shape == ()
    assert torch.allclose(torch.kl_div(x, t, 2), F.kl_div(x, t, reduction='sum'))
    assert torch.hinge_embedding_loss(x, torch.ones(4, 3)).shape == (4, 3)
    assert torch.dropout(x, 0.5, False) is x


def test_functional_forms_argument_errors():
    x = torch.ones(4, 3)
    with pytest.raises(TypeError, match=r'batch_norm\(\) missing 9 required positional argument'):
        torch.batch_norm()
    with pytest.raises(TypeError, match=r"dropout\(\): argument 'train' \(position 3\) must be bool, not int"):
        torch.dropout(x, 0.5, 1)
    with pytest.raises(TypeError, match=r"kl_div\(\): argument 'reduction' \(position 3\) must be int, not str"):
        torch.kl_div(x, x, 'mean')
    with pytest.raises(RuntimeError, match='dropout probability has to be between 0 and 1, but got 1.5'):
        torch.alpha_dropout(x, 1.5, True)
    with pytest.raises(RuntimeError, match='Length of pad must be even but instead it equals 1'):
        torch.constant_pad_nd(x, [1])
    with pytest.raises(TypeError, match=r"convolution\(\): argument 'stride' \(position 4\) must be tuple of ints"):
        torch.convolution(torch.ones(1, 1, 3), torch.ones(1, 1, 2), None, 1, [0], [1], False, [0], 1)


def test_native_forms_return_statistics():
    x = torch.randn(4, 3, requires_grad=True)
    out, mean, rstd = torch.native_layer_norm(x, [3], None, None, 1e-5)
    assert out.grad_fn.name() == 'NativeLayerNormBackward0' and mean.grad_fn is None and mean.shape == (4, 1)
    assert torch.allclose(mean, x.detach().mean(1, keepdim=True))
    out, mean, invstd = torch.native_batch_norm(x, None, None, None, None, True, 0.1, 1e-5)
    assert mean.shape == (3,) and torch.allclose(mean, x.detach().mean(0))
    out, mean, rstd = torch.native_group_norm(x.view(2, 6, 1), None, None, 2, 6, 1, 3, 1e-5)
    assert mean.grad_fn is out.grad_fn and (mean.output_nr, rstd.output_nr) == (1, 2)
    out, mask = torch.native_dropout(x, 0.5, True)
    assert mask.dtype == torch.bool and out.grad_fn.name() == 'NativeDropoutBackward0'
    out.sum().backward()
    assert torch.equal(x.grad, mask.float() * 2)
    out, mask = torch.native_dropout(x, 0.5, False)
    assert bool(mask.all()) and torch.equal(out, x) and out is not x


def test_cells_and_convolution():
    x = torch.randn(2, 3, dtype=torch.float64, requires_grad=True)
    h = torch.randn(2, 4, dtype=torch.float64)
    w_ih, w_hh = torch.randn(12, 3, dtype=torch.float64), torch.randn(12, 4, dtype=torch.float64)
    assert torch.autograd.gradcheck(lambda a: torch.gru_cell(a, h, w_ih, w_hh), (x,))
    hy, cy = torch.lstm_cell(x, (h, h), torch.randn(16, 3, dtype=torch.float64), torch.randn(16, 4, dtype=torch.float64))
    assert hy.shape == cy.shape == (2, 4)
    y = torch.convolution(torch.ones(1, 1, 3, requires_grad=True), torch.ones(1, 1, 2), None, [1], [0], [1], True,
                          [0], 1)
    assert y.tolist() == [[[1., 2., 2., 1.]]] and y.grad_fn._saved_bias_sym_sizes_opt is None


def test_channel_shuffle():
    x = torch.arange(8.).view(1, 4, 2).requires_grad_()
    y = torch.channel_shuffle(x, 2)
    assert y[0, :, 0].tolist() == [0., 4., 2., 6.] and y.grad_fn.name() == 'ChannelShuffleBackward0'
    (y * torch.arange(8.).view(1, 4, 2)).sum().backward()
    assert x.grad[0, :, 0].tolist() == [0., 4., 2., 6.]
    with pytest.raises(RuntimeError, match='derivative for aten::native_channel_shuffle is not implemented'):
        torch.native_channel_shuffle(x, 2).sum().backward()


# ------------------------------------------------------------------------------------------------ math

def test_gcd_lcm():
    a, b = torch.tensor([12, -18, 0, 7]), torch.tensor([8, 12, 0, -21])
    assert torch.gcd(a, b).tolist() == [4, 6, 0, 7] and torch.lcm(a, b).tolist() == [24, 36, 0, 21]
    assert a.clone().gcd_(b).tolist() == [4, 6, 0, 7]
    assert torch.gcd(a.to(torch.uint8), b.to(torch.int8)).dtype == torch.int16
    with pytest.raises(NotImplementedError, match='"gcd_cpu" not implemented for \'Float\''):
        torch.gcd(a.float(), b.float())
    with pytest.raises(TypeError, match=r"gcd\(\): argument 'other' \(position 2\) must be Tensor, not int"):
        torch.gcd(a, 4)


def test_frexp():
    x = f64(1., 0.5, 3., -7.)
    m, e = torch.frexp(x)
    assert e.dtype == torch.int32 and torch.equal(m * torch.pow(2., e.double()), x.detach())
    assert m.grad_fn.name() == 'FrexpBackward0'
    m.sum().backward()
    assert x.grad.tolist() == [0.5, 1.0, 0.25, 0.125]
    with pytest.raises(RuntimeError, match='only supports floating-point dtypes'):
        torch.frexp(torch.tensor([1, 2]))


def test_gradient_and_cumulative_trapezoid():
    x = torch.tensor([[1., 2., 4.], [3., 5., 9.]], dtype=torch.float64, requires_grad=True)
    g0, g1 = torch.gradient(x)
    assert g0.tolist() == [[2., 3., 5.]] * 2 and g1.tolist() == [[1., 1.5, 2.], [2., 3., 4.]]
    assert torch.autograd.gradcheck(lambda t: torch.gradient(t, spacing=2.0, dim=1, edge_order=2)[0], (x,))
    coords = torch.tensor([0., 1., 3.], dtype=torch.float64)
    assert torch.autograd.gradcheck(lambda t: torch.gradient(t, spacing=[coords], dim=1, edge_order=2)[0], (x,))
    y = torch.tensor([1., 4., 9., 16.], dtype=torch.float64)
    assert torch.allclose(torch.gradient(y, spacing=(torch.tensor([0., 1., 2., 3.], dtype=torch.float64),),
                                         edge_order=2)[0], torch.tensor([2., 4., 6., 8.], dtype=torch.float64))
    with pytest.raises(RuntimeError, match='at least edge_order\\+1'):
        torch.gradient(torch.tensor([1., 2.]), edge_order=2)
    assert torch.cumulative_trapezoid(torch.tensor([1, 2, 4])).tolist() == [1.5, 4.5]
    assert torch.autograd.gradcheck(lambda t: torch.cumulative_trapezoid(t, coords), (x,))


def test_vander_and_combinations():
    v = torch.tensor([1., 2., 3.], dtype=torch.float64, requires_grad=True)
    assert torch.vander(torch.tensor([1, 2, 3])).tolist() == [[1, 1, 1], [4, 2, 1], [9, 3, 1]]
    y = torch.vander(v, 3, True)
    assert y.grad_fn.name() == 'torch::autograd::CopySlices' and torch.vander(v).grad_fn.name() == 'FlipBackward0'
    with pytest.raises(RuntimeError, match='output 0 of AsStrided, is at version 3; expected version 2'):
        torch.vander(v, 4).sum().backward()      # (as in PyTorch: its cumprod's input is overwritten by the copy)
    c = torch.combinations(v, 2)
    assert c.tolist() == [[1., 2.], [1., 3.], [2., 3.]] and c.grad_fn.name() == 'StackBackward0'
    assert torch.combinations(v, 2, True).shape == (6, 2)
    assert torch.autograd.gradcheck(lambda t: torch.combinations(t, 3, True), (v,))


def test_renorm():
    x = torch.tensor([[1., 2., 4.], [3., 5., 9.]], dtype=torch.float64, requires_grad=True)
    y = torch.renorm(x, 2, 0, 3.)
    assert torch.allclose(y.detach().norm(dim=1), torch.tensor([3., 3.], dtype=torch.float64))
    assert y.grad_fn.name() == 'RenormBackward0'
    for p in (1, 2, 3, math.inf):
        assert torch.autograd.gradcheck(lambda t: torch.renorm(t, p, 1, 2.5), (x,))
    with pytest.raises(RuntimeError, match='non-positive-norm not supported'):
        torch.renorm(x, -1, 0, 1.)


def test_mvlgamma_igamma():
    x = torch.tensor([1.6, 2.3, 3.7], dtype=torch.float64, requires_grad=True)
    expected = [math.lgamma(v) + math.lgamma(v - 0.5) + 0.5 * math.log(math.pi) for v in (1.6, 2.3, 3.7)]
    assert np.allclose(torch.mvlgamma(x, 2).tolist(), expected)
    assert torch.autograd.gradcheck(lambda t: torch.mvlgamma(t, 3), (x + 1,))
    a, z = torch.tensor([0.5, 2., 7.], dtype=torch.float64), torch.tensor([0.3, 2.5, 6.], dtype=torch.float64)
    p = torch.igamma(a, z)
    assert np.allclose(p.tolist(), [math.erf(math.sqrt(0.3)), 1 - 3.5 * math.exp(-2.5), 0.3936972175874086], atol=1e-8)
    assert torch.allclose(p + torch.igammac(a, z), torch.ones(3, dtype=torch.float64))
    zz = z.clone().requires_grad_()
    assert torch.autograd.gradcheck(lambda t: torch.igamma(a, t), (zz,))
    with pytest.raises(NotImplementedError, match="the derivative for 'igamma: input' is not implemented."):
        torch.igamma(a.requires_grad_(), z).sum().backward()


def test_matrix_exp():
    a = torch.tensor([[0., 1.], [-1., 0.]], dtype=torch.float64, requires_grad=True)
    y = torch.matrix_exp(a)
    assert np.allclose(y.tolist(), [[math.cos(1), math.sin(1)], [-math.sin(1), math.cos(1)]])
    assert y.grad_fn.name() == 'LinalgMatrixExpBackward0'
    b = torch.tensor([[0.3, -1.2, 0.5], [2.0, 0.1, -0.7], [0.4, 0.9, -0.2]], dtype=torch.float64, requires_grad=True)
    assert torch.autograd.gradcheck(torch.matrix_exp, (b,))
    assert torch.autograd.gradgradcheck(torch.matrix_exp, (b,))
    big = torch.tensor([[1., 2.], [3., 4.]], dtype=torch.float64) * 3
    assert np.allclose(torch.matrix_exp(big).tolist(), np.linalg.matrix_power(
        torch.matrix_exp(big / 8).numpy(), 8))


def test_histograms():
    h = torch.histogram(torch.tensor([1., 2, 1, 4]), 4)
    assert h.hist.tolist() == [2., 1., 0., 1.] and h.bin_edges.tolist() == [1., 1.75, 2.5, 3.25, 4.]
    h = torch.histogram(torch.tensor([1., 2, 1, 4]), torch.tensor([0., 1, 2.5, 5]),
                        weight=torch.tensor([1., 2, 3, 4]), density=True)
    assert np.allclose(h.hist.tolist(), [0., 0.4, 0.16])
    d = torch.histogramdd(torch.tensor([[0., 0.], [1., 1.], [2., 2.]]), 2)
    assert d.hist.tolist() == [[1., 0.], [0., 2.]] and len(d.bin_edges) == 2
    with pytest.raises(NotImplementedError, match='"histogramdd" not implemented for \'Long\''):
        torch.histogram(torch.tensor([1, 2]), 3)


def test_lu_family():
    A = torch.tensor([[1., 2.], [3., 4.]], dtype=torch.float64, requires_grad=True)
    with warnings.catch_warnings():              # (deprecated: warned once per process)
        warnings.simplefilter('ignore')
        LU, piv = torch.lu(A)
        x = torch.lu_solve(torch.ones(2, 1, dtype=torch.float64), LU, piv)
    P, L, U = torch.lu_unpack(LU, piv)
    assert torch.allclose(P @ L @ U, A.detach())
    assert L.grad_fn.name() == 'LuUnpackBackward0'
    assert torch.autograd.gradcheck(lambda t: torch.lu_unpack(*torch.linalg.lu_factor(t))[2], (A,))
    assert torch.allclose(A.detach() @ x.detach(), torch.ones(2, 1, dtype=torch.float64))
    with pytest.raises(RuntimeError, match='LU_pivots is expected to be a contiguous tensor of torch.int32'):
        torch.lu_unpack(LU, piv.long())


@pytest.mark.parametrize('reduce', ['prod', 'mean', 'amax', 'amin'])
@pytest.mark.parametrize('include_self', [True, False])
def test_index_reduce(reduce, include_self):
    x = torch.tensor([[1.5, -2., 3.], [0.5, 1., 2.], [4.5, 5.5, -6.]], dtype=torch.float64, requires_grad=True)
    src = torch.tensor([[1., 2., 3.5], [4., -5., 6.], [7.5, 8., 9.], [0.25, 1.5, -2.]], dtype=torch.float64,
                       requires_grad=True)
    idx = torch.tensor([0, 2, 0, 1])
    with warnings.catch_warnings():              # (PyTorch's "index_reduce() is in beta", once per process)
        warnings.simplefilter('ignore')
        y = x.index_reduce(0, idx, src, reduce, include_self=include_self)
    assert y.grad_fn.name() == 'IndexReduceBackward0'
    rows = {0: [0, 2], 1: [3], 2: [1]}
    xs, ss = x.detach().numpy(), src.detach().numpy()
    fn = {'prod': np.prod, 'mean': np.mean, 'amax': np.max, 'amin': np.min}[reduce]
    for r, srcs in rows.items():
        vals = ([xs[r]] if include_self else []) + [ss[i] for i in srcs]
        assert np.allclose(y[r].tolist(), fn(np.stack(vals), 0))
    with warnings.catch_warnings():
        warnings.simplefilter('ignore')
        assert torch.autograd.gradcheck(lambda a, b: a.index_reduce(0, idx, b, reduce, include_self=include_self),
                                        (x, src))


# ------------------------------------------------------------------------------------------------ small ones

def test_windows():
    assert np.allclose(torch.hann_window(5).tolist(), [0., 0.3455, 0.9045, 0.9045, 0.3455], atol=1e-4)
    assert np.allclose(torch.hann_window(5, False).tolist(), [0., 0.5, 1., 0.5, 0.])
    assert np.allclose(torch.bartlett_window(5, False).tolist(), [0., 0.5, 1., 0.5, 0.])
    assert np.allclose(torch.hamming_window(5, False).tolist(), [0.08, 0.54, 1., 0.54, 0.08])
    assert np.allclose(torch.blackman_window(3, False).tolist(), [0., 1., 0.], atol=1e-6)
    assert np.allclose(torch.kaiser_window(3, False, 5.).tolist(), [1 / np.i0(5.), 1., 1 / np.i0(5.)])
    assert torch.hann_window(1).tolist() == [1.] and torch.hann_window(0).shape == (0,)
    assert torch.hann_window(4, dtype=torch.float64).dtype == torch.float64
    with pytest.raises(RuntimeError, match='hann_window expects floating point dtypes'):
        torch.hann_window(4, dtype=torch.long)


def test_copy_variants():
    x = torch.arange(6.).view(2, 3).requires_grad_()
    for y, name in ((torch.view_copy(x, (3, 2)), 'ViewBackward0_copy'), (torch.t_copy(x), 'TBackward0_copy'),
                    (torch.permute_copy(x, (1, 0)), 'PermuteBackward0_copy'),
                    (torch.slice_copy(x, 1, 0, 2), 'SliceBackward0_copy'),
                    (torch.select_copy(x, 0, 1), 'SelectBackward0_copy'),
                    (torch.expand_copy(x, (2, 2, 3)), 'ExpandBackward0_copy'),
                    (torch.diagonal_copy(x), 'DiagonalBackward0_copy')):
        assert y.grad_fn.name() == name and y.is_contiguous() and y._base is None
    assert torch.slice_copy(x).grad_fn._saved_start is None
    y = torch.t_copy(x)
    (y * torch.arange(6.).view(3, 2)).sum().backward()
    assert x.grad.tolist() == [[0., 2., 4.], [1., 3., 5.]]
    assert [t.grad_fn.name() for t in torch.split_copy(x, 1)] == ['SplitBackward0_copy'] * 2
    assert x.view(3, 2).grad_fn.name() == 'ViewBackward0'          # (the view's own node keeps its name)


def test_fill_and_misc():
    x = torch.ones(2, requires_grad=True)
    v = torch.tensor(3., requires_grad=True)
    y = torch.fill(x, v)
    assert y.tolist() == [3., 3.] and y.grad_fn.name() == 'FillBackward1'
    y.sum().backward()
    assert v.grad.item() == 2. and x.grad.tolist() == [0., 0.]
    assert torch.fill(x, 2).grad_fn.name() == 'FillBackward0'
    assert torch.get_device(x) == -1 and torch.set_flush_denormal(True) is True
    assert torch.empty_permuted((2, 3, 4), (0, 2, 1)).stride() == (12, 1, 3)
    assert torch.nonzero_static(torch.tensor([0, 1, 0, 2]), size=3).tolist() == [[1], [3], [-1]]
    assert torch.ones(2, 3).new_empty_strided((2, 2), (1, 2)).stride() == (1, 2)
    torch.set_warn_always(True)
    assert torch.is_warn_always_enabled()
    torch.set_warn_always(False)


def test_binomial_poisson():
    torch.manual_seed(0)
    b = torch.binomial(torch.tensor([10., 20.]), torch.tensor([0., 1.]))
    assert b.tolist() == [0., 20.] and b.dtype == torch.float32
    p = torch.poisson(torch.full((1000,), 3.))
    assert abs(p.mean().item() - 3) < 0.3 and bool((p == p.round()).all())
    r = torch.tensor([1., 2.], requires_grad=True)
    assert torch.poisson(r).grad_fn.name() == 'PoissonBackward0'
    with pytest.raises(ValueError, match='binomial only supports floating-point dtypes for count, got: Long'):
        torch.binomial(torch.tensor([10, 20]), torch.tensor([0.5, 0.1]))


def test_angle_deprecated_norms_as_strided_scatter():
    x = torch.tensor([1., -2., float('nan')], requires_grad=True)
    y = torch.angle(x)
    assert np.allclose(y.tolist()[:2], [0., math.pi]) and math.isnan(y.tolist()[2]) and y.grad_fn.name() == 'AngleBackward0'
    y.sum().backward()
    assert x.grad.tolist() == [0., 0., 0.]
    assert torch.angle(torch.tensor([-3, 2])).dtype == torch.float32
    m = torch.tensor([[1., -2., 0.5], [3., 0., 2.]], dtype=torch.float64, requires_grad=True)
    with warnings.catch_warnings():
        warnings.simplefilter('ignore')
        assert torch.frobenius_norm(m, (0, 1)).grad_fn.name() == 'NormBackward1'
        assert torch.autograd.gradcheck(lambda t: torch.frobenius_norm(t, [1]), (m,))
        assert torch.allclose(torch.nuclear_norm(m), torch.linalg.matrix_norm(m, 'nuc'))
    s = torch.tensor([5., 6.], dtype=torch.float64, requires_grad=True)
    z = torch.as_strided_scatter(m, s, (2,), (2,), 1)
    assert z.grad_fn.name() == 'AsStridedScatterBackward0' and z.view(-1).tolist() == [1., 5., 0.5, 6., 0., 2.]
    z.sum().backward()
    assert s.grad.tolist() == [1., 1.] and m.grad.view(-1).tolist() == [0., 1., 0., 1., 0., 0.]   # (as PyTorch's)
    assert torch.ones(2, 3, 4).permute(2, 0, 1).dim_order() == (1, 2, 0)
    t = torch.ones(2)
    torch.conj_physical_(t)
    assert t._version == 1 and torch.is_distributed(t) is False


def test_recurrences_at_top_level():
    torch.manual_seed(0)
    m = torch.nn.GRU(3, 4, batch_first=True)
    x = torch.randn(2, 5, 3)
    out, h = torch.gru(x, torch.zeros(1, 2, 4), m._flat_weights, True, 1, 0.0, False, False, True)
    ref_out, ref_h = m(x)
    assert torch.allclose(out, ref_out) and torch.allclose(h, ref_h)
    with pytest.raises(TypeError, match=r'lstm\(\) received an invalid combination of arguments'):
        torch.lstm(x)
