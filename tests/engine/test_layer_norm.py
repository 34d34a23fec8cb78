"""nn.LayerNorm and F.layer_norm on the engine, against values real PyTorch 2.13 printed (pinned as literals, so
these run without PyTorch, inside Pyodide too): PyTorch's CPU kernel's mean and rstd per row (Welford), the output,
NativeLayerNormBackward0 with its saved attributes, the gradients, the module's repr and PyTorch's errors."""
import pytest

import engine as torch
from engine import nn
from engine.nn import functional as F

X = [[0.5, -1.25, 2.0, 3.5, -0.75, 1.0, 0.25, -2.5, 4.0], [1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.5]]
W = [1.5, -0.5, 2.0, 1.0, 0.25, -1.0, 0.75, 3.0, 0.5]
B = [0.1, 0.2, 0.3, -0.4, 0.5, -0.6, 0.7, 0.8, -0.9]
GY = [0.3, -0.2, 0.1, 0.5, -0.4, 0.25, -0.125, 0.75, -1.0]


def _affine():
    x = torch.tensor(X, requires_grad=True)
    w = torch.tensor(W, requires_grad=True)
    b = torch.tensor(B, requires_grad=True)
    return x, w, b, F.layer_norm(x, (9,), w, b)


def test_values_and_saved_statistics_are_pytorchs_bit_for_bit():
    x, w, b, y = _affine()
    assert y.tolist() == [
        [-0.08526183664798737, 0.6940315961837769, 1.535079002380371, 0.9585868120193481, 0.3147381544113159,
         -0.7235079407691956, 0.514738142490387, -4.016808032989502, -0.09719866514205933],
        [-2.177297830581665, 0.7719241380691528, -1.2389957904815674, -0.7951475381851196, 0.49480071663856506,
         -0.9535531997680664, 1.2459276914596558, 4.106761932373047, -0.06811022758483887]]
    g = y.grad_fn
    assert g.name() == 'NativeLayerNormBackward0'
    assert g._saved_normalized_shape == (9,)
    assert g._saved_result1.tolist() == [[0.75], [5.05555534362793]]
    assert g._saved_result2.tolist() == [[0.4940315783023834], [0.374350368976593]]
    assert g._saved_input is x and g._saved_weight is w and g._saved_bias is b
    assert [fn.name() for fn, _ in g.next_functions] == ['torch::autograd::AccumulateGrad'] * 3


def test_gradients_of_input_weight_and_bias():
    x, w, b, y = _affine()
    y.backward(torch.tensor([GY, GY]))
    assert x.grad.tolist() == [
        [0.05690675973892212, -0.29162582755088806, 0.083931565284729, 0.3826737403869629, -0.3402545750141144,
         -0.2387377917766571, -0.23681172728538513, 0.6450981497764587, -0.061180248856544495],
        [0.0838918462395668, -0.0524962842464447, -0.02042674645781517, 0.08651287108659744, -0.14346285164356232,
         -0.20498090982437134, -0.15185415744781494, 0.7201640605926514, -0.3173477351665497]]
    assert w.grad.tolist() == [-0.4925119876861572, 0.42638230323791504, -0.015195850282907486,
                               0.48171961307525635, 0.3047378361225128, 0.11926526576280594,
                               -0.060110967606306076, -0.37751150131225586, -3.2693819999694824]
    assert b.grad.tolist() == [0.6000000238418579, -0.4000000059604645, 0.20000000298023224, 1.0,
                               -0.800000011920929, 0.5, -0.25, 1.5, -2.0]


def test_no_affine_and_several_normalized_dims():
    x = torch.tensor(X, requires_grad=True)
    z = F.layer_norm(x, (2, 9))
    assert z[0, :3].tolist() == [-0.750465989112854, -1.2970482110977173, -0.2819669842720032]
    assert z.grad_fn._saved_weight is None and z.grad_fn._saved_bias is None
    assert z.grad_fn._saved_result1.shape == (1, 1)
    assert z.grad_fn.next_functions[1:] == ((None, 0), (None, 0))


def test_module_parameters_and_repr():
    ln = nn.LayerNorm(32)
    assert repr(ln) == 'LayerNorm((32,), eps=1e-05, elementwise_affine=True, bias=True)'
    assert ln.weight.tolist() == [1.0] * 32 and ln.bias.tolist() == [0.0] * 32
    assert list(ln.state_dict()) == ['weight', 'bias']
    assert repr(nn.LayerNorm((3, 4), elementwise_affine=False)) == \
        'LayerNorm((3, 4), eps=1e-05, elementwise_affine=False, bias=False)'
    no_bias = nn.LayerNorm(4, bias=False)
    assert no_bias.bias is None and list(no_bias.state_dict()) == ['weight']
    y = ln(torch.randn(2, 3, 32))
    assert y.shape == (2, 3, 32) and y.grad_fn.name() == 'NativeLayerNormBackward0'


@pytest.mark.parametrize('call, message', [
    (lambda x: F.layer_norm(x, (3,)),
     'Given normalized_shape=[3], expected input with shape [*, 3], but got input of size[2, 9]'),
    (lambda x: F.layer_norm(x, (3, 2, 9)),
     'Given normalized_shape=[3, 2, 9], expected input with shape [*, 3, 2, 9], but got input of size[2, 9]'),
    (lambda x: F.layer_norm(x, (9,), torch.ones(3)),
     'Expected weight to be of same shape as normalized_shape, but got weight of shape [3] and '
     'normalized_shape = [9]'),
    (lambda x: F.layer_norm(x, ()),
     'Expected normalized_shape to be at least 1-dimensional, i.e., containing at least one element, but got '
     'normalized_shape = []'),
])
def test_errors(call, message):
    with pytest.raises(RuntimeError) as e:
        call(torch.tensor(X))
    assert str(e.value) == message
