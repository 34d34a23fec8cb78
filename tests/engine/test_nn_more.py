"""mish, hardswish, hardsigmoid, celu, selu, threshold, softshrink, hardshrink, tanhshrink, softsign, softmin, glu,
prelu, cosine_similarity, pairwise_distance, group_norm and instance_norm (engine/_ops_nn2.py, engine/nn): gradients
against finite differences (first and second order), node names, saved attributes, values, errors and module reprs
as PyTorch 2.13 has them (checked against it by tests/differential/test_nn_more_vs_torch.py)."""
import math

import numpy as np
import pytest

import engine as torch
import engine.nn as nn
import engine.nn.functional as F
from numeric import check_first_order, check_second_order, numeric_grad


def _x(shape=(3, 4), seed=0, scale=2.0):
    return torch.tensor(np.random.default_rng(seed).standard_normal(shape) * scale, requires_grad=True)


_W = torch.tensor(np.random.default_rng(5).standard_normal((3, 4)))
_G = torch.tensor(np.random.default_rng(6).standard_normal(4))

FUNCTIONS = {
    "mish": F.mish,
    "hardswish": F.hardswish,
    "hardsigmoid": F.hardsigmoid,
    "celu": lambda x: F.celu(x, 1.5),
    "selu": F.selu,
    "selu_inplace": lambda x: F.selu(x * 1, inplace=True),
    "celu_inplace": lambda x: F.celu(x * 1, 0.5, inplace=True),
    "threshold": lambda x: F.threshold(x, 0.1, 2.) * x,
    "softshrink": lambda x: F.softshrink(x, 1.) * x,
    "hardshrink": lambda x: F.hardshrink(x) * x,
    "tanhshrink": F.tanhshrink,
    "softsign": F.softsign,
    "softmin": lambda x: F.softmin(x, 1) * _W,
    "glu": lambda x: F.glu(x) * _W[:, :2],
    "glu_dim0": lambda x: F.glu(x[:2], 0) * _W[0],
    "prelu": lambda x: F.prelu(x, torch.tensor([0.25, -0.5, 1., 2.], dtype=torch.float64)) * x,
    "cosine_similarity": lambda x: F.cosine_similarity(x, _W) * torch.arange(3.),
    "cosine_similarity_dim0": lambda x: F.cosine_similarity(x, _W[0], 0),
    "pairwise_distance": lambda x: F.pairwise_distance(x, _W) * torch.arange(3.),
    "pairwise_distance_p3": lambda x: F.pairwise_distance(x, _W, 3.),
    "group_norm": lambda x: F.group_norm(x.view(3, 4, 1), 2, _G, _G * 2) * _W.view(3, 4, 1),
    "group_norm_3d": lambda x: F.group_norm(x.view(1, 4, 3), 4) * _W.view(1, 4, 3),
    "instance_norm": lambda x: F.instance_norm(x.view(1, 3, 4), weight=_G[:3], bias=_G[:3]) * _W.view(1, 3, 4),
}

SECOND_ORDER = ["mish", "hardswish", "celu", "selu", "selu_inplace", "celu_inplace", "threshold", "softshrink",
                "hardshrink", "tanhshrink", "softsign", "softmin", "glu", "glu_dim0", "cosine_similarity",
                "pairwise_distance"]


@pytest.mark.parametrize("name", sorted(FUNCTIONS))
def test_gradients_match_finite_differences(name):
    check_first_order(FUNCTIONS[name], _x())


@pytest.mark.parametrize("name", SECOND_ORDER)
def test_second_order_gradients_match_finite_differences(name):
    f, x = FUNCTIONS[name], _x()
    check_second_order(f, x, _x(seed=1).detach())


def test_group_norm_and_prelu_parameter_gradients():
    x = _x((2, 4, 3)).detach()
    w, b = _G.clone().requires_grad_(), (_G * 2).requires_grad_()
    f = lambda w, b: F.group_norm(x, 2, w, b) * x     # noqa: E731
    f(w, b).sum().backward()
    assert np.allclose(w.grad.numpy(), numeric_grad(lambda t: f(t, b.detach()), w), atol=1e-5)
    assert np.allclose(b.grad.numpy(), numeric_grad(lambda t: f(w.detach(), t), b), atol=1e-5)
    p = torch.tensor([0.25, -0.5, 1., 2.], dtype=torch.float64, requires_grad=True)
    F.prelu(x, p).pow(2).sum().backward()
    assert np.allclose(p.grad.numpy(), numeric_grad(lambda t: F.prelu(x, t).pow(2), p), atol=1e-5)


def _saved(y):
    g = y.grad_fn
    return {n: getattr(g, n) for n in dir(g) if n.startswith('_saved') and not isinstance(getattr(g, n), torch.Tensor)}


def test_nodes_and_saved_attributes():
    x = torch.tensor([-4., -0.5, 0., 1.5, 4., 2.], requires_grad=True)
    assert F.mish(x).grad_fn.name() == 'MishBackward0'
    assert F.hardswish(x).grad_fn.name() == 'HardswishBackward0'
    assert F.hardsigmoid(x).grad_fn.name() == 'HardsigmoidBackward0'
    assert _saved(F.celu(x, 2)) == {'_saved_alpha': 2}
    y = F.selu(x)
    assert y.grad_fn.name() == 'EluBackward0'
    assert _saved(y) == {'_saved_alpha': 1.6732632423543772, '_saved_input_scale': 1,
                         '_saved_scale': 1.0507009873554805}
    assert _saved(F.threshold(x, 0.5, -1.)) == {'_saved_threshold': 0.5}
    assert F.threshold(x, 0.5, -1.).grad_fn.name() == 'ThresholdBackward0'
    assert _saved(F.softshrink(x)) == {'_saved_lambd': 0.5}
    assert F.hardshrink(x, 1).grad_fn.name() == 'HardshrinkBackward0'
    assert F.tanhshrink(x).grad_fn.name() == 'SubBackward0' and F.softsign(x).grad_fn.name() == 'DivBackward0'
    y = F.softmin(x, 0)
    assert y.grad_fn.name() == 'SoftmaxBackward0' and y.grad_fn.next_functions[0][0].name() == 'NegBackward0'
    assert _saved(F.glu(x)) == {'_saved_dim': 2 ** 64 - 1}
    assert F.cosine_similarity(x.view(2, 3), x.view(2, 3)).grad_fn.name() == 'SumBackward1'
    assert F.pairwise_distance(x.view(2, 3), x.view(2, 3)).grad_fn.name() == 'NormBackward1'
    (g,) = torch.autograd.grad(F.celu(x, 2.).sum(), x, create_graph=True)
    assert g.grad_fn.name() == 'EluBackwardBackward0' and g.grad_fn._saved_input_scale == 0.5
    (g,) = torch.autograd.grad(F.glu(x).sum(), x, create_graph=True)
    assert g.grad_fn.name() == 'GluBackwardBackward0'
    (g,) = torch.autograd.grad(F.hardsigmoid(x).sum(), x, create_graph=True)
    assert g.grad_fn.name() == 'torch::autograd::NotImplemented'
    with pytest.raises(RuntimeError, match='derivative for aten::hardsigmoid_backward is not implemented'):
        g.sum().backward()


def test_inplace_nodes():
    x = torch.tensor([-2., -0.5, 1.5], requires_grad=True)
    for f, name in ((lambda t: F.celu(t, inplace=True), 'CeluBackward1'), (lambda t: F.selu_(t), 'EluBackward1'),
                    (lambda t: F.threshold_(t, 0., 1.), 'ThresholdBackward1'),
                    (lambda t: F.mish(t, inplace=True), 'MishBackward0'),
                    (lambda t: F.hardswish(t, inplace=True), 'HardswishBackward0')):
        h = x * 1
        y = f(h)
        assert y is h and h._version == 1 and y.grad_fn.name() == name


def test_values():
    x = torch.tensor([-4., -3., -0.5, 0., 0.3, 3., 4.])
    assert F.hardswish(x).tolist() == [-0., -0., -0.2083333283662796, 0., 0.16500000655651093, 3., 4.]
    assert F.hardsigmoid(x).tolist() == [0., 0., 0.4166666567325592, 0.5, 0.550000011920929, 1., 1.]
    assert F.threshold(x, 0.3, 9.).tolist() == [9., 9., 9., 9., 9., 3., 4.]
    assert F.hardshrink(x, 3.).tolist() == [-4., 0., 0., 0., 0., 0., 4.]
    assert [math.copysign(1, v) for v in F.softshrink(x, 1.).tolist()[2:4]] == [-1., 1.]     # x * 0 (scalar loop)
    assert not any(torch.signbit(F.softshrink(torch.full((16,), -0.25))).tolist())         # +0 (a whole vector)
    assert np.allclose(F.selu(x).numpy(), np.where(x.numpy() > 0, 1.0507009873554805 * x.numpy(),
                                                   1.0507009873554805 * 1.6732632423543772 * np.expm1(x.numpy())))
    assert np.allclose(F.celu(x, 2.).numpy(), np.where(x.numpy() > 0, x.numpy(), 2 * np.expm1(x.numpy() / 2)))
    assert np.allclose(F.mish(x).numpy(), x.numpy() * np.tanh(np.log1p(np.exp(x.numpy()))))
    assert np.allclose(F.glu(torch.tensor([1., 2., 0., -1.])).numpy(), [0.5, 2 / (1 + math.e)])
    a, b = torch.tensor([[3., 4.], [1., 0.]]), torch.tensor([[3., 4.], [0., 2.]])
    assert np.allclose(F.cosine_similarity(a, b).numpy(), [1., 0.])
    assert np.allclose(F.pairwise_distance(a, b).numpy(), [np.sqrt(2e-12), np.sqrt(1 + 4)], atol=1e-6)


def test_group_norm_values_and_saved_statistics():
    x = torch.arange(24.).view(2, 4, 3) ** 1.5
    y = F.group_norm(x, 2, torch.tensor([1., 2., 3., 4.]), torch.tensor([0., 1., 0., 1.]))
    xd = x.numpy().astype(np.float64).reshape(2, 2, 6)
    mean, var = xd.mean(2, keepdims=True), xd.var(2, keepdims=True)
    ref = ((xd - mean) / np.sqrt(var + 1e-5)).reshape(2, 4, 3) * np.array([1, 2, 3, 4.])[:, None] + \
        np.array([0, 1, 0, 1.])[:, None]
    assert np.allclose(y.numpy(), ref, atol=1e-5)
    x.requires_grad_()
    g = F.group_norm(x, 2).grad_fn
    assert g.name() == 'NativeGroupNormBackward0'
    assert (g._saved_N, g._saved_C, g._saved_HxW, g._saved_group, g._saved_eps) == (2, 4, 3, 2, 1e-5)
    assert g._saved_result1.shape == (2, 2) and g._saved_result1.output_nr == 1
    assert np.allclose(g._saved_result2.detach().numpy(), 1 / np.sqrt(var[..., 0] + 1e-5))


def test_instance_norm_running_statistics():
    x = _x((2, 3, 4)).detach().float()
    rm, rv = torch.zeros(3), torch.ones(3)
    y = F.instance_norm(x, rm, rv, momentum=0.5)
    xd = x.numpy().astype(np.float64)
    assert np.allclose(y.numpy(), (xd - xd.mean(2, keepdims=True)) / np.sqrt(xd.var(2, keepdims=True) + 1e-5),
                       atol=1e-5)
    assert np.allclose(rm.numpy(), 0.5 * xd.mean(2).mean(0), atol=1e-6)
    assert np.allclose(rv.numpy(), 0.5 + 0.5 * xd.var(2, ddof=1).mean(0), atol=1e-5)


@pytest.mark.parametrize("call, error, text", [
    (lambda: F.glu(torch.ones(3)), RuntimeError, 'Halving dimension must be even, but dimension 0 is size 3'),
    (lambda: F.glu(torch.tensor(1.)), RuntimeError, 'glu does not support scalars because halving size must be even'),
    (lambda: F.softshrink(torch.ones(2), -1.), RuntimeError,
     'lambda must be in range [0, 3.40282e+38] for input dtype Float, but found -1'),
    (lambda: F.mish(torch.tensor([1, 2])), NotImplementedError, '"mish_cpu" not implemented for \'Long\''),
    (lambda: F.selu(torch.tensor([1, 2])), NotImplementedError, '"elu_cpu" not implemented for \'Long\''),
    (lambda: F.celu(torch.ones(2), 0.), RuntimeError, 'ZeroDivisionError: alpha cannot be 0 for CELU'),
    (lambda: F.cosine_similarity(torch.tensor([1, 2]), torch.tensor([1, 2]), 0), RuntimeError,
     'expected common dtype to be floating point, yet common dtype is Long'),
    (lambda: F.group_norm(torch.ones(2, 3, 2), 2), RuntimeError,
     'Expected number of channels in input to be divisible by num_groups, but got input of shape [2, 3, 2] and '
     'num_groups=2'),
    (lambda: F.group_norm(torch.ones(1, 2), 2), ValueError,
     'Expected more than 1 value per channel when training, got input size [1, 2]'),
    (lambda: F.group_norm(torch.ones(2, 4), 2, torch.ones(3)), RuntimeError,
     'Expected weight to be a vector of size equal to the number of channels in input, but got weight of shape [3] '
     'and input of shape [2, 4]'),
    (lambda: F.instance_norm(torch.ones(2, 3, 1)), ValueError,
     'Expected more than 1 spatial element when training, got input size torch.Size([2, 3, 1])'),
    (lambda: F.prelu(torch.ones(2, 4), torch.ones(3)), RuntimeError,
     'Mismatch of parameter numbers and input channel size. Found parameter numbers = 3 and channel size = 4.'),
    (lambda: nn.GroupNorm(2, 3), ValueError, 'num_channels (3) must be divisible by num_groups (2)'),
    (lambda: nn.InstanceNorm1d(3, affine=True)(torch.ones(2, 4, 5)), ValueError,
     "expected input's size at dim=1 to match num_features (3), but got: 4."),
])
def test_errors(call, error, text):
    with pytest.raises(error) as info:
        call()
    assert str(info.value) == text


def test_module_reprs_and_parameters():
    model = nn.Sequential(nn.Mish(True), nn.Hardswish(True), nn.CELU(2, True), nn.SELU(), nn.Threshold(0.1, 20),
                          nn.Softshrink(1), nn.Hardshrink(), nn.Softmin(1), nn.GLU(), nn.CosineSimilarity(),
                          nn.GroupNorm(2, 4), nn.InstanceNorm1d(3), nn.PReLU(3, 0.1))
    assert repr(model) == (
        'Sequential(\n  (0): Mish(inplace=True)\n  (1): Hardswish()\n  (2): CELU(alpha=2, inplace=True)\n'
        '  (3): SELU()\n  (4): Threshold(threshold=0.1, value=20)\n  (5): Softshrink(1)\n  (6): Hardshrink(0.5)\n'
        '  (7): Softmin(dim=1)\n  (8): GLU(dim=-1)\n  (9): CosineSimilarity()\n'
        '  (10): GroupNorm(2, 4, eps=1e-05, affine=True, bias=True)\n'
        '  (11): InstanceNorm1d(3, eps=1e-05, momentum=0.1, affine=False, bias=False, track_running_stats=False)\n'
        '  (12): PReLU(num_parameters=3)\n)')
    g = nn.GroupNorm(2, 4)
    assert g.weight.tolist() == [1.] * 4 and g.bias.tolist() == [0.] * 4 and g.weight.requires_grad
    assert nn.GroupNorm(1, 3, affine=False).weight is None
    m = nn.InstanceNorm2d(4, affine=True, track_running_stats=True)
    assert list(m.state_dict()) == ['weight', 'bias', 'running_mean', 'running_var', 'num_batches_tracked']
    assert list(nn.InstanceNorm1d(3).state_dict()) == []
    assert nn.PReLU().weight.tolist() == [0.25]
    assert type(nn.GroupNorm(2, 4)).__module__ == 'torch.nn.modules.normalization'
    assert not isinstance(nn.InstanceNorm1d(3), nn.BatchNorm1d) and not isinstance(nn.Softmin(), nn.Softmax)
    x = _x((2, 3, 4)).detach()
    assert nn.InstanceNorm1d(3)(x[0]).shape == (3, 4)
