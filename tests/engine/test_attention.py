"""Attention in the engine (no PyTorch needed, runs in Pyodide too): scaled_dot_product_attention's flash node
and math fallback (names, saved attributes, layouts, errors), nn.MultiheadAttention and TransformerEncoderLayer /
TransformerEncoder. Expected values were printed by PyTorch 2.13 for the same inputs; the fused kernel rounds in
its own order, so values are compared to float32 precision, graphs and texts exactly."""
import warnings

import numpy as np
import pytest

import engine as torch
from engine import nn
from engine.nn import functional as F

FLASH = {                          # name: (output, logsumexp, grads of (o * o).sum() for q, k, v)
    'plain': ([-0.3911313, 0.2215761, 0.320526, -0.5529904, -0.4980622, 0.08470731, 0.4613413, -0.6898592, -1.09521,
               -0.3655894, 1.066331, -1.140156, 0.7783699, -1.101643, 0.003803465, 0.6338266, 0.677061, -0.96226,
               -0.09750559, 0.493816, 0.09401374, -0.3520072, -0.6805528, 0.02030609],
        [6.429595, 0.401384, 2.35378, 7.155427, 0.7070941, 0.8202318],
        [-0.1522, -0.1522, -0.1522001, -0.1522, -0.2366498, -0.2366495, -0.2366496, -0.2366497, -0.4710643,
         -0.4710631, -0.4710633, -0.4710635, 0.3685291, 0.3685296, 0.3685294, 0.3685292, 0.3110635, 0.3110632,
         0.3110634, 0.3110635, -0.04668977, -0.04669024, -0.04669011, -0.04668994],
        [-1.974849, -0.6343749, -1.901641, -3.168907, 0.2294455, 0.4966081, 0.5435348, 0.5904614, 1.745403, 0.1377665,
         1.358106, 2.578445, 1.583296, -3.837392, -3.055661, -2.27393, 0.5793378, 0.0898532, 0.3572882, 0.6247233,
         -2.162635, 3.747539, 2.698373, 1.649207],
        [-1.612564, -0.2066375, 1.524887, -1.856526, -1.258662, -0.02311997, 1.170371, -1.519517, -1.097582,
         0.1111456, 1.001138, -1.389967, 0.8522118, -1.422919, -0.7201484, 0.6062509, 1.010821, -1.569797, -0.4863524,
         0.7499995, 1.235857, -1.839105, -0.3420091, 0.9396471]),
    'causal': ([-2.890173, -0.3872832, 2.115607, -1.16185, -0.6667908, -1.201309, 1.301582, -1.975875, -1.09521,
                -0.3655894, 1.066331, -1.140156, -1.757225, 0.7456647, -2.531792, -0.02890173, 0.5213463, -0.08856641,
                -0.2532203, -0.863133, 0.09401374, -0.3520072, -0.6805528, 0.02030609],
        [5.07137, -0.0572325, 2.35378, 5.735608, 0.2194948, 0.8202318],
        [0, 0, 0, 0, 0.003398377, 0.003399342, 0.003399032, 0.003398724, -0.4710643, -0.4710631, -0.4710633,
         -0.4710635, 0, 0, 0, 0, 0.1049325, 0.1049321, 0.1049322, 0.1049324, -0.04668977, -0.04669024, -0.04669011,
         -0.04668994],
        [-1.376014, -2.107577, -2.839139, -3.570702, 0.2407565, 0.350996, 0.4612354, 0.5714748, 1.135257, 1.75658,
         2.377904, 2.999227, -1.001816, -0.8584459, -0.7150754, -0.5717049, 1.039026, 0.9207714, 0.8025172, 0.6842631,
         -0.03720922, -0.06232545, -0.08744167, -0.1125579],
        [-7.525786, -2.286076, 6.549767, -5.357194, -1.372727, -1.486815, 2.022137, -2.776076, -0.4058362, -0.1354712,
         0.3951348, -0.422491, -2.941161, 1.064732, -5.964021, -0.8345561, 0.6201233, -0.3148662, -0.6970525,
         -0.916959, 0.03730657, -0.1396836, -0.2700572, 0.008057871]),
    'bool_mask': ([-1.232772, 1.270118, 0.2010228, 0.4955514, 0, 0, 0, 0, -1.09521, -0.3655894, 1.066331, -1.140156,
                   -0.03434523, -1.244559, -0.8089116, 1.693978, 0, 0, 0, 0, 0.09401374, -0.3520072, -0.6805528,
                   0.02030609],
        [6.033583, 0, 2.35378, 6.763856, 0, 0.8202318],
        [0.0616298, 0.0616301, 0.06162998, 0.06162991, 0, 0, 0, 0, -0.4710643, -0.4710631, -0.4710633, -0.4710635,
         0.4564214, 0.4564233, 0.4564228, 0.456422, 0, 0, 0, 0, -0.04668977, -0.04669024, -0.04669011, -0.04668994],
        [-0.8043813, -2.557168, -3.209421, -3.861673, 0.2193913, 0.3394636, 0.4595359, 0.5796081, 0.5849896, 2.217705,
         2.749885, 3.282064, 3.609679, -4.040721, -3.540722, -3.040724, 0.2745186, 0.4598187, 0.6451187, 0.8304188,
         -3.884198, 3.580904, 2.895605, 2.210306],
        [-2.054569, 0.5990883, 1.236879, -0.7796292, -0.6719674, -0.2243077, 0.6542485, -0.6995438, -1.929428,
         1.434276, 0.6435803, 0.1899644, 0.0675371, -1.235044, -1.245309, 1.231539, 0.05861784, -0.2194775,
         -0.4243266, 0.01266091, -0.006817911, -1.738611, -1.309294, 2.184369]),
    'scale': ([-0.4831464, 0.1022104, 0.4426166, -0.6723562, -0.5410119, 0.03676469, 0.5138394, -0.7378017,
               -0.8288915, -0.2125947, 0.8241413, -0.9871613, 0.6707905, -0.9541393, -0.103776, 0.4860268, 0.614231,
               -0.8830999, -0.1603355, 0.4195927, 0.3307283, -0.5720963, -0.4438382, 0.1646414],
        [3.759326, 0.7491329, 1.705761, 4.119962, 0.9008744, 0.9428972],
        [-0.1129224, -0.1129227, -0.1129226, -0.1129225, -0.1330568, -0.1330563, -0.1330565, -0.1330566, -0.2042395,
         -0.2042399, -0.2042397, -0.2042397, 0.1536608, 0.1536613, 0.1536611, 0.153661, 0.1364572, 0.1364573,
         0.1364572, 0.1364571, 0.04707015, 0.04706994, 0.04707004, 0.04707009],
        [-1.078573, 0.1562296, -0.4644712, -1.085172, -0.1025255, 0.1583983, 0.0973814, 0.03636447, 1.181099,
         -0.3146279, 0.3670899, 1.048808, 0.8545583, -1.364679, -0.8995191, -0.4343593, 0.08870999, 0.01472806,
         0.05984611, 0.1049642, -0.9432685, 1.349951, 0.8396733, 0.3293954],
        [-1.322918, -0.09516575, 1.277884, -1.691735, -1.221982, -0.04647191, 1.173892, -1.581908, -1.1612,
         -0.005601719, 1.109419, -1.520995, 1.033594, -1.559522, -0.5227584, 0.6716078, 1.069472, -1.594127,
         -0.4662915, 0.7088056, 1.128434, -1.665022, -0.4268495, 0.7601086]),
}
IN_PROJ_HEAD = [0.2224242, 0.5085067, -0.1260264, 0.4582455, -0.09870425, 0.06479764, 0.5544887, -0.5680798]
OUT_PROJ_HEAD = [-0.00374341, 0.2682218, -0.4115226, -0.3679695]
MHA_OUT = [1.021642, -0.1411543, 0.393916, -0.01185474, 0.175507, -0.08471041, 0.05913071, 0.4335748, -0.7784953,
           -0.2541942, -0.3493184, -0.884084, 0.1554224, -0.014953, 0.06334286, 0.3913707, -0.7469064, -0.02851015,
           -0.2861215, -0.7832022, 0.1365832, 0.05506786, 0.06811794, 0.3488162]
MHA_WEIGHTS = [0.7637479, 0.1790089, 0.05724314, 0.07536845, 0.5808977, 0.3437338, 0.2330183, 0.5231274, 0.2438543,
               0.3312079, 0.3157118, 0.3530803, 0.3449755, 0.3331679, 0.3218566, 0.3738685, 0.3175435, 0.3085881]
MHA_X_GRAD = [-0.324002, -1.119388, 0.005477115, -1.018007, -0.3559752, -0.3535253, -0.07611318, -0.1083814,
              -1.168829, -0.6166465, 0.255814, 0.01389991, -0.4019717, -0.3468219, 0.0062551, 0.01244319, -0.249953,
              -0.2287046, -0.6205115, 0.5221474, -0.4252404, -0.4105361, 0.02080134, 0.03003519]
MHA_CAUSAL_OUT = [1.225145, 0.08768672, 0.524624, 0.1702843, -0.2747441, -0.05172466, -0.1213432, 0.4773643,
                  -0.5619305, 0.2039989, -0.1632221, -0.6029379, -0.05839057, -0.03281972, -0.02838103, 0.4338481,
                  -0.7469065, -0.02851024, -0.2861215, -0.7832023, 0.1365832, 0.05506787, 0.06811793, 0.3488162]
ENCODER_OUT = [-0.0550127, -1.597114, 0.6243392, 1.027787, -0.9976484, -0.7573315, 0.2099912, 1.544989, 0.9500849,
               1.046806, -1.060593, -0.9362978, -1.079702, -0.6754282, 0.2303631, 1.524767, 0.5123281, 0.7457783,
               0.4640821, -1.722188, -1.161237, -0.5877984, 0.2514607, 1.497574]


def data(*shape, k=1):
    n = int(np.prod(shape))
    return torch.tensor(((np.arange(n) * 7919 * k) % 1000 - 500) / 173., dtype=torch.float32).view(*shape)


def close(t, expected):
    np.testing.assert_allclose(t.detach().numpy().ravel(), expected, rtol=2e-5, atol=2e-6)


def chain(fn, depth=0, out=None):
    """The names of the graph below fn, depth first, indented."""
    out = [] if out is None else out
    if fn is not None:
        out.append('  ' * depth + type(fn).__name__)
        for n, _ in fn.next_functions:
            chain(n, depth + 1, out)
    return out


def qkv():
    return (data(1, 2, 3, 4).requires_grad_(), data(1, 2, 3, 4, k=3).requires_grad_(),
            data(1, 2, 3, 4, k=7).requires_grad_())


MASK = [[True, False, True], [False, False, False], [True, True, True]]
CASES = {'plain': {}, 'causal': {'is_causal': True}, 'bool_mask': {'attn_mask': MASK}, 'scale': {'scale': 0.25}}


@pytest.mark.parametrize('name', CASES)
def test_flash_kernel_values_logsumexp_and_gradients(name):
    q, k, v = qkv()
    kw = dict(CASES[name])
    if 'attn_mask' in kw:
        kw['attn_mask'] = torch.tensor(kw['attn_mask'])
    o = F.scaled_dot_product_attention(q, k, v, **kw)
    f = o.grad_fn
    assert f.name() == 'ScaledDotProductFlashAttentionForCpuBackward0'
    assert [n for n in dir(f) if n.startswith('_saved_')] == [
        '_saved_attn_mask', '_saved_dropout_p', '_saved_is_causal', '_saved_key', '_saved_logsumexp', '_saved_output',
        '_saved_query', '_saved_scale', '_saved_value']
    assert (f._saved_dropout_p, f._saved_is_causal, f._saved_scale) == (0.0, name == 'causal', kw.get('scale'))
    assert f._saved_query is q and f._saved_output.grad_fn is f and f._saved_logsumexp.grad_fn is None
    assert f._saved_logsumexp.stride() == (6, 1, 2) and o.stride() == (24, 12, 4, 1)
    expected = FLASH[name]
    close(o, expected[0])
    close(f._saved_logsumexp, expected[1])
    grads = torch.autograd.grad((o * o).sum(), [q, k, v])
    assert grads[0].stride() == (24, 4, 8, 1)
    for g, e in zip(grads, expected[2:]):
        close(g, e)


def test_a_bool_mask_is_saved_as_zeros_and_minus_infinity():
    q, k, v = qkv()
    o = F.scaled_dot_product_attention(q, k, v, attn_mask=torch.tensor(MASK))
    assert repr(o.grad_fn._saved_attn_mask) == ('tensor([[0., -inf, 0.],\n        [-inf, -inf, -inf],\n'
                                                '        [0., 0., 0.]])')
    assert o.grad_fn.next_functions[0][0].variable is q


def test_the_flash_backward_has_no_derivative():
    q, k, v = qkv()
    g, = torch.autograd.grad(F.scaled_dot_product_attention(q, k, v).sum(), q, create_graph=True)
    assert g.grad_fn.name() == 'torch::autograd::NotImplemented'
    with pytest.raises(RuntimeError, match='^derivative for aten::_scaled_dot_product_flash_attention_for_cpu_'
                                           'backward is not implemented$'):
        g.sum().backward()


MATH_DROPOUT = """UnsafeViewBackward0
  BmmBackward0
    ViewBackward0
      ExpandBackward0
        MulBackward0
          SafeSoftmaxBackward0
            AddBackward0
              UnsafeViewBackward0
                BmmBackward0
                  ViewBackward0
                    ExpandBackward0
                      MulBackward1
                        AccumulateGrad
                  ReshapeAliasBackward0
                    ExpandBackward0
                      MulBackward1
                        TransposeBackward0
                          AccumulateGrad
    ViewBackward0
      ExpandBackward0
        AccumulateGrad""".split('\n')


def test_dropout_takes_the_math_path_op_by_op():
    q, k, v = qkv()
    o = F.scaled_dot_product_attention(q, k, v, dropout_p=0.3, is_causal=True)
    assert chain(o.grad_fn) == MATH_DROPOUT
    mul = o.grad_fn.next_functions[0][0].next_functions[0][0].next_functions[0][0].next_functions[0][0]
    soft = mul.next_functions[0][0]
    assert soft.name() == 'SafeSoftmaxBackward0' and soft._saved_dim == 2 ** 64 - 1     # (-1, read unsigned)
    assert soft._saved_result.grad_fn is soft and mul._saved_other.grad_fn is None


@pytest.mark.parametrize('args, kw', [
    (lambda q, k, v: (q[0], k[0], v[0]), {}),                       # 3-d inputs
    (lambda q, k, v: (q, k, v), {'attn_mask': torch.zeros(3, 3, requires_grad=True)}),
    (lambda q, k, v: (q, k, v[..., :2]), {}),                       # head dims differ
    (lambda q, k, v: (q, k[:, :1], v[:, :1]), {}),                  # heads broadcast without enable_gqa
    (lambda q, k, v: (q, k, v), {'attn_mask': torch.zeros(1, 3, 3)}),
])
def test_other_calls_take_the_math_path_with_the_same_values(args, kw):
    q, k, v = qkv()
    o = F.scaled_dot_product_attention(*args(q, k, v), **kw)
    assert o.grad_fn.name() == 'UnsafeViewBackward0'
    a, b, c = (t.detach().double().numpy() for t in args(q, k, v))
    s = a @ np.swapaxes(b, -1, -2) / np.sqrt(a.shape[-1])
    if 'attn_mask' in kw:
        s = s + kw['attn_mask'].detach().numpy()
    p = np.exp(s - s.max(-1, keepdims=True))
    np.testing.assert_allclose(o.detach().numpy(), p / p.sum(-1, keepdims=True) @ c, rtol=1e-5, atol=1e-6)


def test_gqa_repeats_key_and_value_heads_and_sums_their_gradients():
    q = data(2, 4, 3, 4).requires_grad_()
    k, v = data(2, 2, 5, 4, k=3).requires_grad_(), data(2, 2, 5, 4, k=7).requires_grad_()
    o = F.scaled_dot_product_attention(q, k, v, enable_gqa=True)
    assert o.grad_fn.name() == 'ScaledDotProductFlashAttentionForCpuBackward0'
    kk, vv = k.repeat_interleave(2, 1), v.repeat_interleave(2, 1)
    ref = F.scaled_dot_product_attention(q, kk, vv)
    close(o, ref.detach().numpy().ravel())
    gk, gv = torch.autograd.grad((o * o).sum(), [k, v])
    rk, rv = torch.autograd.grad((ref * ref).sum(), [k, v])
    close(gk, rk.numpy().ravel())
    close(gv, rv.numpy().ravel())
    assert gk.is_contiguous()


def test_a_row_with_nothing_to_attend_to_gives_zeros():
    q, k, v = qkv()
    m = torch.tensor(MASK)
    for p in (0.0, 0.5):
        o = F.scaled_dot_product_attention(q, k, v, attn_mask=m, dropout_p=p)
        assert o[0, :, 1].abs().sum().item() == 0
        g, = torch.autograd.grad(o.sum(), q)
        assert g[0, :, 1].abs().sum().item() == 0 and not g.isnan().any()


@pytest.mark.parametrize('call, error, message', [
    (lambda q, k, v: F.scaled_dot_product_attention(q, k.double(), v), RuntimeError,
     'Expected query, key, and value to have the same dtype, but got query.dtype: float key.dtype: double and '
     'value.dtype: float instead.'),
    (lambda q, k, v: F.scaled_dot_product_attention(q, k, v, attn_mask=torch.ones(3, 3, dtype=torch.int64)),
     RuntimeError, 'Expected attn_mask dtype to be bool or float or to match query dtype, but got attn_mask.dtype: '
                   'long int and  query.dtype: float instead.'),
    (lambda q, k, v: F.scaled_dot_product_attention(q, k, v, dropout_p=1.5), RuntimeError,
     'dropout probability has to be between 0 and 1, but got 1.5'),
    (lambda q, k, v: F.scaled_dot_product_attention(q[0], k[0], v[0], attn_mask=torch.ones(3, 3, dtype=torch.bool),
                                                    is_causal=True),
     RuntimeError, '_scaled_dot_product_attention: Explicit attn_mask should not be set when is_causal=True'),
    (lambda q, k, v: F.scaled_dot_product_attention(q, k[..., :2], v), RuntimeError,
     'Expected size for first two dimensions of batch2 tensor to be: [2, 4] but got: [2, 2].'),
])
def test_errors(call, error, message):
    with pytest.raises(error) as info:
        call(*qkv())
    assert str(info.value) == message


def test_multihead_attention_parameters_after_a_seed():
    torch.manual_seed(0)
    m = nn.MultiheadAttention(4, 2)
    assert [(n, tuple(p.shape)) for n, p in m.named_parameters()] == [
        ('in_proj_weight', (12, 4)), ('in_proj_bias', (12,)), ('out_proj.weight', (4, 4)), ('out_proj.bias', (4,))]
    assert m.in_proj_weight[:2].flatten().tolist() == pytest.approx(IN_PROJ_HEAD, abs=0, rel=1e-6)
    assert m.out_proj.weight[0].tolist() == pytest.approx(OUT_PROJ_HEAD, abs=0, rel=1e-6)
    assert m.in_proj_bias.abs().sum().item() == 0 and m.out_proj.bias.abs().sum().item() == 0
    assert repr(m) == ('MultiheadAttention(\n  (out_proj): NonDynamicallyQuantizableLinear(in_features=4, '
                       'out_features=4, bias=True)\n)')
    assert type(m).__module__ == 'torch.nn.modules.activation' and isinstance(m.out_proj, nn.Linear)
    m2 = nn.MultiheadAttention(4, 2, kdim=3, vdim=5, add_bias_kv=True, bias=False)
    assert [(n, tuple(p.shape)) for n, p in m2.named_parameters()] == [
        ('q_proj_weight', (4, 4)), ('k_proj_weight', (4, 3)), ('v_proj_weight', (4, 5)), ('bias_k', (1, 1, 4)),
        ('bias_v', (1, 1, 4)), ('out_proj.weight', (4, 4))]
    with pytest.raises(AssertionError, match='^embed_dim must be divisible by num_heads$'):
        nn.MultiheadAttention(5, 2)


def test_multihead_attention_forward_both_paths():
    torch.manual_seed(0)
    m = nn.MultiheadAttention(4, 2)
    x = data(3, 2, 4, k=11).requires_grad_()
    out, w = m(x, x, x)
    assert out.grad_fn.name() == 'ViewBackward0' and w.grad_fn.name() == 'MeanBackward1'
    names = chain(out.grad_fn)
    assert 'SoftmaxBackward0' in '\n'.join(names) and 'BmmBackward0' in '\n'.join(names)
    close(out, MHA_OUT)
    close(w, MHA_WEIGHTS)
    out.sum().backward()
    close(x.grad, MHA_X_GRAD)
    causal = torch.triu(torch.ones(3, 3, dtype=torch.bool), 1)
    out2, w2 = m(x, x, x, need_weights=False, attn_mask=causal)
    assert w2 is None
    assert 'ScaledDotProductFlashAttentionForCpuBackward0' in '\n'.join(chain(out2.grad_fn))
    close(out2, MHA_CAUSAL_OUT)
    out3, w3 = m(x, x, x, attn_mask=causal)                  # the baddbmm path: the same values
    close(out3, MHA_CAUSAL_OUT)
    assert 'BaddbmmBackward0' in '\n'.join(chain(out3.grad_fn))
    assert w3[:, 0, 1:].abs().sum().item() == 0


def test_mismatched_masks_warn():
    m = nn.MultiheadAttention(4, 2)
    x = data(3, 2, 4)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter('always')
        m(x, x, x, key_padding_mask=torch.zeros(2, 3), attn_mask=torch.zeros(3, 3, dtype=torch.bool))
    assert [str(w.message) for w in caught] == [
        'Support for mismatched key_padding_mask and attn_mask is deprecated. Use same type for both instead.']


def test_transformer_encoder_layer_and_encoder():
    torch.manual_seed(0)
    layer = nn.TransformerEncoderLayer(4, 2, 8, dropout=0.0)
    close(layer(data(3, 2, 4, k=11)), ENCODER_OUT)
    assert [n for n, _ in layer.named_children()] == ['self_attn', 'linear1', 'dropout', 'linear2', 'norm1', 'norm2',
                                                      'dropout1', 'dropout2']
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter('always')
        enc = nn.TransformerEncoder(layer, 2)
    assert [str(w.message) for w in caught] == [
        'enable_nested_tensor is True, but self.use_nested_tensor is False because encoder_layer.self_attn.'
        'batch_first was not True(use batch_first for better inference performance)']
    assert enc.layers[1].linear1.weight is not layer.linear1.weight
    assert enc.layers[1].linear1.weight.tolist() == layer.linear1.weight.tolist()
    mask = torch.triu(torch.full((3, 3), float('-inf')), diagonal=1)
    out = enc(data(3, 2, 4, k=11), mask)
    assert out.grad_fn.name() == 'NativeLayerNormBackward0'
    assert 'ScaledDotProductFlashAttentionForCpuBackward0' in '\n'.join(chain(out.grad_fn))
    with pytest.raises(RuntimeError, match='^activation should be relu/gelu, not tanh$'):
        nn.TransformerEncoderLayer(4, 2, activation='tanh')


def test_baddbmm_broadcasts_its_input_and_saves_alpha_and_beta_as_numbers():
    from engine._ops_attention import baddbmm
    i = data(1, 2, 2).requires_grad_()
    a, b = data(2, 2, 3, k=3).requires_grad_(), data(2, 3, 2, k=7).requires_grad_()
    o = baddbmm(i, a, b, beta=0.5, alpha=2.0)
    assert o.grad_fn.name() == 'BaddbmmBackward0'
    assert (o.grad_fn._saved_alpha, o.grad_fn._saved_beta) == (2.0, 0.5)
    assert type(o.grad_fn._saved_alpha) is float and o.grad_fn._saved_batch1 is a
    close(o, [21.76384, -0.3157638, 1.502656, 1.727773, 4.357446, -13.24102, 4.823583, -10.25031])
    gi, ga, gb = torch.autograd.grad(o.sum(), [i, a, b])
    assert gi.tolist() == [[[1.0, 1.0], [1.0, 1.0]]]
    close(ga, [-6.554914, 1.907515, -1.190751, -6.554914, 1.907515, -1.190751, -4.289017, 4.17341, 1.075145,
               -4.289017, 4.17341, 1.075145])


def test_encoder_inference_with_a_padding_mask_pads_with_zeros_as_pytorchs_nested_path():
    torch.manual_seed(0)
    enc = nn.TransformerEncoder(nn.TransformerEncoderLayer(4, 2, 8, batch_first=True), 1).eval()
    x = data(2, 3, 4, k=11)
    pad = torch.tensor([[False, False, True], [False, False, False]])
    def forget():                      # (a warning PyTorch gives once per process: other tests expect it too)
        torch._tensor._warned.difference_update([w for w in torch._tensor._warned if 'nested tensors' in w])
    forget()
    with warnings.catch_warnings(record=True) as caught, torch.no_grad():
        warnings.simplefilter('always')
        y = enc(x, src_key_padding_mask=pad)
        again = enc(x, src_key_padding_mask=pad)
    forget()
    assert y[0, 2].tolist() == [0.0] * 4 and y[0, 1].abs().sum().item() > 0 and again.equal(y)
    assert [str(w.message).split('.')[0] for w in caught] == [
        'The PyTorch API of nested tensors is in prototype stage and will change in the near future']
    assert enc(x, src_key_padding_mask=pad)[0, 2].abs().sum().item() > 0      # (grad enabled: the usual path)


def test_flash_kernel_bit_for_bit_where_the_engine_models_mkl():
    """Float32 values as PyTorch 2.13's kernel rounds them (its exp_u20, lane sums, MKL's gemms): printed by it."""
    torch.manual_seed(0)
    q, k, v = (torch.randn(2, 4, 20, 16, requires_grad=True) for _ in range(3))
    o = F.scaled_dot_product_attention(q, k, v, is_causal=True)
    assert o[1, 2, 7, :4].tolist() == [-0.13932980597019196, 0.001618102891370654, 0.5022812485694885,
                                       -0.7839999198913574]
    assert o.grad_fn._saved_logsumexp[1, 2, :4].tolist() == [0.279274046421051, 0.21834266185760498,
                                                             -0.10847610235214233, 1.3687045574188232]
    grads = torch.autograd.grad(o, [q, k, v], torch.randn(o.shape))
    assert [x[1, 2, 7, :3].tolist() for x in grads] == [
        [-0.1994885355234146, -0.6116887331008911, -0.24662204086780548],
        [0.14347724616527557, 0.16088612377643585, 0.002988250460475683],
        [-0.3948793113231659, 0.03622741624712944, 0.3934441804885864]]
