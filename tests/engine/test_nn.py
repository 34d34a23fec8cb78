"""torch.nn, nn.functional and optim on the engine, against values worked out by hand (no PyTorch needed: these
run inside Pyodide too). test_nn_vs_torch.py checks the same surfaces against real PyTorch."""
import math
import sys
import warnings

import numpy as np
import pytest

import engine as torch
from engine import nn
from engine.nn import functional as F


def val(t):
    return np.asarray(t.detach()._data, dtype=np.float64).tolist()


def approx(t, expected, tol=1e-6):
    np.testing.assert_allclose(np.asarray(t.detach()._data, np.float64), expected, rtol=tol, atol=tol)


# ================================================================================================ ops

def test_softmax_and_log_softmax_values_grads_and_nodes():
    x = torch.tensor([0., math.log(2)], requires_grad=True)
    s = x.softmax(0)
    approx(s, [1 / 3, 2 / 3])
    assert s.grad_fn.name() == 'SoftmaxBackward0' and s.grad_fn._saved_dim == 0
    approx(s.grad_fn._saved_result, [1 / 3, 2 / 3])
    s[0].backward()
    approx(x.grad, [2 / 9, -2 / 9])                    # s0 (1 - s0), -s0 s1
    ls = torch.log_softmax(x, -1)
    approx(ls, [math.log(1 / 3), math.log(2 / 3)])
    assert ls.grad_fn.name() == 'LogSoftmaxBackward0' and ls.grad_fn._saved_dim == 2 ** 64 - 1
    x.grad = None
    ls[1].backward()
    approx(x.grad, [-1 / 3, 1 / 3])                    # onehot - softmax


def test_softmax_needs_a_dim_except_in_functional_which_warns():
    with pytest.raises(TypeError, match='softmax\\(\\) missing 1 required positional arguments: "dim"'):
        torch.softmax(torch.ones(2, 2))
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter('always')
        approx(F.softmax(torch.ones(2, 2)), [[0.5, 0.5], [0.5, 0.5]])
    assert 'Implicit dimension choice for softmax has been deprecated' in str(w[0].message)
    with pytest.raises(NotImplementedError, match="not implemented for 'Long'"):
        torch.tensor([1, 2]).softmax(0)


def test_logsumexp_and_its_double_backward():
    x = torch.tensor([0., 0.], requires_grad=True)
    y = x.logsumexp(0)
    approx(y, math.log(2))
    assert y.grad_fn.name() == 'LogsumexpBackward0' and y.grad_fn._saved_dim == (0,)
    g, = torch.autograd.grad(y, x, create_graph=True)
    approx(g, [0.5, 0.5])                              # softmax
    g[0].backward()
    approx(x.grad, [0.25, -0.25])                      # row 0 of diag(s) - s s^T
    approx(torch.logsumexp(torch.tensor([[1000., 1000.]]), 1), [1000 + math.log(2)])


def test_full_max_min_split_the_gradient_among_ties():
    x = torch.tensor([1., 3., 3.], requires_grad=True)
    m = x.max()
    assert m.item() == 3 and m.grad_fn.name() == 'MaxBackward1'
    m.backward()
    assert val(x.grad) == [0, 0.5, 0.5]
    n = x.min()
    assert n.grad_fn.name() == 'MinBackward1' and n.item() == 1
    with pytest.raises(RuntimeError, match='Expected reduction dim to be specified for input.numel\\(\\) == 0'):
        torch.tensor([]).max()


def test_max_over_a_dim_returns_values_and_indices():
    x = torch.tensor([[1., 7., 3.], [4., 2., 9.]], requires_grad=True)
    r = x.max(1)
    assert val(r.values) == [7, 9] and r.indices.tolist() == [1, 2] and r.indices.dtype is torch.int64
    v, i = torch.max(x, dim=1)
    assert val(v) == [7, 9] and r[0] is r.values
    assert repr(r) == ('torch.return_types.max(\nvalues=tensor([7., 9.], grad_fn=<MaxBackward0>),\n'
                       'indices=tensor([1, 2]))')
    assert str(type(r)) == "<class 'torch.return_types.max'>"
    fn = r.values.grad_fn
    assert fn.name() == 'MaxBackward0' and fn._saved_dim == 1 and fn._saved_keepdim is False
    assert fn._saved_self_sym_sizes == (2, 3) and fn._saved_indices.tolist() == [1, 2]
    r.values.sum().backward()
    assert val(x.grad) == [[0, 1, 0], [0, 0, 1]]
    k = x.min(0, keepdim=True)
    assert k.values.shape == (1, 3) and k.indices.tolist() == [[0, 1, 0]]
    assert k.values.grad_fn.name() == 'MinBackward0'
    assert val(torch.max(x, torch.full((2, 3), 5.))) == [[5, 7, 5], [5, 5, 9]]


def test_where_maximum_minimum_square():
    x = torch.tensor([-1., 2., 3.], requires_grad=True)
    y = torch.where(x > 0, x, x * 10)
    assert val(y) == [-10, 2, 3] and y.grad_fn.name() == 'WhereBackward0'
    assert y.grad_fn._saved_condition.tolist() == [False, True, True]
    y.sum().backward()
    assert val(x.grad) == [10, 1, 1]
    with pytest.raises(RuntimeError, match='where expected condition to be a boolean tensor'):
        torch.where(x, x, x)
    assert [t.tolist() for t in torch.where(torch.tensor([True, False, True]))] == [[0, 2]]
    x.grad = None
    torch.maximum(x, torch.tensor([2., 2., 2.])).sum().backward()
    assert val(x.grad) == [0, 0.5, 1]                  # ties split the gradient
    x.grad = None
    torch.minimum(x, torch.tensor(2.)).sum().backward()
    assert val(x.grad) == [1, 0.5, 0]
    s = x.square()
    assert val(s) == [1, 4, 9] and s.grad_fn.name() == 'PowBackward0' and s.grad_fn._saved_exponent == 2


def test_norm_var_std():
    x = torch.tensor([3., 4.], requires_grad=True)
    n = x.norm()
    assert n.item() == 5 and n.grad_fn.name() == 'LinalgVectorNormBackward0'
    assert n.grad_fn._saved_ord == 2 and n.grad_fn._saved_dim is None
    n.backward()
    approx(x.grad, [0.6, 0.8])
    approx(x.norm(1), 7)
    approx(x.norm(float('inf')), 4)
    z = torch.zeros(2, requires_grad=True)
    z.norm().backward()
    assert val(z.grad) == [0, 0]                       # not nan
    v = torch.tensor([1., 2., 3., 4.], requires_grad=True)
    approx(v.var(), 5 / 3)
    approx(v.var(unbiased=False), 1.25)
    approx(v.std(), math.sqrt(5 / 3))
    assert v.var().grad_fn._saved_correction is None and v.var(0).grad_fn._saved_correction == 1
    v.var().backward()
    approx(v.grad, [2 / 3 * d for d in (-1.5, -0.5, 0.5, 1.5)])


def test_activations():
    x = torch.tensor([-2., 0., 1.], requires_grad=True)
    y = F.leaky_relu(x, 0.1)
    approx(y, [-0.2, 0, 1])
    assert y.grad_fn.name() == 'LeakyReluBackward0' and y.grad_fn._saved_negative_slope == 0.1
    y.sum().backward()
    approx(x.grad, [0.1, 0.1, 1])
    g = F.gelu(x)
    approx(g, [-2 * 0.0227501319, 0, 0.8413447461], 1e-6)
    x.grad = None
    g.sum().backward()
    approx(x.grad[1:], [0.5, 0.8413447461 + math.exp(-0.5) / math.sqrt(2 * math.pi)], 1e-6)
    approx(F.gelu(torch.tensor([1.]), approximate='tanh'), [0.8411920071], 1e-6)
    approx(F.relu(x), [0, 0, 1])
    approx(F.sigmoid(torch.tensor([0.])), [0.5])
    approx(F.tanh(torch.tensor([0.])), [0])


def test_addmm_and_linear_record_addmm_like_pytorch():
    x = torch.tensor([[1., 1.]], requires_grad=True)
    w = torch.tensor([[1., 2.], [3., 4.]], requires_grad=True)
    b = torch.tensor([1., -1.], requires_grad=True)
    y = F.linear(x, w, b)
    assert val(y) == [[4, 6]]
    fn = y.grad_fn
    assert fn.name() == 'AddmmBackward0' and fn._saved_alpha == 1 and fn._saved_beta == 1
    assert [type(n).__name__ for n, _ in fn.next_functions] == ['AccumulateGrad', 'AccumulateGrad', 'TBackward0']
    assert fn._saved_mat2_sym_strides == (1, 2) and fn._saved_mat1_sym_sizes == (1, 2)
    y.backward(torch.tensor([[1., 10.]]))
    assert val(w.grad) == [[1, 1], [10, 10]] and val(b.grad) == [1, 10] and val(x.grad) == [[31, 42]]
    y3 = F.linear(torch.ones(2, 3, 2), w, b)
    assert y3.shape == (2, 3, 2) and y3.grad_fn.name() == 'ViewBackward0'
    assert F.linear(torch.ones(2), w).grad_fn.name() == 'SqueezeBackward4'
    assert val(torch.addmm(b, x, w, beta=2, alpha=0.5)) == [[4, 1]]
    with pytest.raises(RuntimeError, match='mat1 and mat2 shapes cannot be multiplied \\(4x5 and 2x3\\)'):
        nn.Linear(2, 3)(torch.ones(4, 5))


# ================================================================================================ losses

def test_mse_loss():
    x = torch.tensor([1., 2.], requires_grad=True)
    loss = F.mse_loss(x, torch.zeros(2))
    assert loss.item() == 2.5 and loss.grad_fn.name() == 'MseLossBackward0' and loss.grad_fn._saved_reduction == 1
    loss.backward()
    assert val(x.grad) == [1, 2]
    assert F.mse_loss(x, torch.zeros(2), reduction='sum').item() == 5
    assert val(nn.MSELoss(reduction='none')(x, torch.zeros(2))) == [1, 4]
    with pytest.raises(ValueError, match='avg is not a valid value for reduction'):
        F.mse_loss(x, x, reduction='avg')
    with pytest.warns(UserWarning, match='Using a target size'):
        F.mse_loss(x, torch.zeros(2, 1))


def test_cross_entropy_is_nll_of_log_softmax():
    logits = torch.zeros(2, 3, requires_grad=True)
    target = torch.tensor([0, 2])
    loss = F.cross_entropy(logits, target)
    approx(loss, math.log(3))
    fn = loss.grad_fn
    assert fn.name() == 'NllLossBackward0' and fn.next_functions[0][0].name() == 'LogSoftmaxBackward0'
    assert fn._saved_ignore_index == 2 ** 64 - 100 and fn._saved_reduction == 1 and fn._saved_weight is None
    assert fn._saved_total_weight.item() == 2
    loss.backward()
    approx(logits.grad, [[(1 / 3 - 1) / 2, 1 / 6, 1 / 6], [1 / 6, 1 / 6, (1 / 3 - 1) / 2]])
    approx(nn.CrossEntropyLoss(reduction='sum')(logits, target), 2 * math.log(3))
    approx(F.cross_entropy(logits, target, ignore_index=2), math.log(3))
    approx(F.cross_entropy(logits, torch.full((2, 3), 1 / 3)), math.log(3))
    with pytest.raises(IndexError, match='Target 3 is out of bounds.'):
        F.cross_entropy(logits, torch.tensor([0, 3]))
    with pytest.raises(ValueError, match='Expected input batch_size \\(2\\) to match target batch_size \\(3\\).'):
        F.cross_entropy(logits, torch.tensor([0, 1, 2]))


def test_nll_loss_with_weights_and_no_reduction():
    logp = torch.tensor([[-1., -2.], [-3., -4.]], requires_grad=True)
    t = torch.tensor([1, 0])
    assert val(F.nll_loss(logp, t, reduction='none')) == [2, 3]
    w = torch.tensor([1., 3.])
    loss = F.nll_loss(logp, t, weight=w)
    approx(loss, (2 * 3 + 3 * 1) / 4)
    loss.backward()
    approx(logp.grad, [[0, -0.75], [-0.25, 0]])
    assert F.nll_loss(torch.zeros(2, 3, 4, 5), torch.zeros(2, 4, 5, dtype=torch.int64)).shape == ()


def test_binary_cross_entropy():
    p = torch.tensor([0.5, 0.8], requires_grad=True)
    t = torch.tensor([1., 0.])
    loss = F.binary_cross_entropy(p, t)
    approx(loss, (math.log(2) - math.log(0.2)) / 2)
    assert loss.grad_fn.name() == 'BinaryCrossEntropyBackward0'
    loss.backward()
    approx(p.grad, [-1, 2.5], 1e-5)                    # (p - t) / (p (1 - p)) / 2
    approx(F.binary_cross_entropy(torch.tensor([0.]), torch.tensor([1.])), 100)     # log clamped at -100
    z = torch.tensor([0., 2.], requires_grad=True)
    bl = nn.BCEWithLogitsLoss()(z, t)
    approx(bl, (math.log(2) + math.log(1 + math.exp(2))) / 2, 1e-6)
    bl.backward()
    approx(z.grad, [(0.5 - 1) / 2, 1 / (1 + math.exp(-2)) / 2], 1e-6)
    with pytest.raises(RuntimeError, match='all elements of input should be between 0 and 1'):
        F.binary_cross_entropy(p * 2, t)
    with pytest.raises(ValueError, match='is deprecated. Please ensure they have the same size.'):
        F.binary_cross_entropy(p, t[:1])


def test_dropout_scales_survivors_and_is_identity_in_eval():
    torch.manual_seed(0)
    x = torch.ones(1000, requires_grad=True)
    drop = nn.Dropout(0.5)
    y = drop(x)
    assert set(val(y)) == {0.0, 2.0} and 400 < int((y == 0).sum()) < 600
    assert y.grad_fn.name() == 'MulBackward0'
    drop.eval()
    assert drop(x) is x
    assert repr(drop) == 'Dropout(p=0.5, inplace=False)'


# ================================================================================================ nn

def test_parameter_is_a_marked_leaf():
    p = nn.Parameter(torch.tensor([1., 2.]))
    assert isinstance(p, nn.Parameter) and isinstance(p, torch.Tensor) and p.is_leaf and p.requires_grad
    assert repr(p) == 'Parameter containing:\ntensor([1., 2.], requires_grad=True)'
    assert str(nn.Parameter(torch.zeros(1), requires_grad=False)) == 'Parameter containing:\ntensor([0.])'
    assert not isinstance(p * 2, nn.Parameter) and not isinstance(p.data, nn.Parameter)
    assert not isinstance(torch.ones(1), nn.Parameter)
    assert repr(p.detach()) == 'tensor([1., 2.])'
    with pytest.raises(RuntimeError, match='Only Tensors of floating point and complex dtype can require gradients'):
        nn.Parameter(torch.tensor([1, 2]))


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(4, 3)
        self.act = nn.ReLU()
        self.fc2 = nn.Linear(3, 2, bias=False)

    def forward(self, x):
        return self.fc2(self.act(self.fc1(x)))


def test_module_registers_parameters_and_children():
    net = Net()
    assert [n for n, _ in net.named_parameters()] == ['fc1.weight', 'fc1.bias', 'fc2.weight']
    assert sum(p.numel() for p in net.parameters()) == 12 + 3 + 6
    assert list(net.children()) == [net.fc1, net.act, net.fc2]
    assert list(net.state_dict()) == ['fc1.weight', 'fc1.bias', 'fc2.weight']
    assert net.fc2.bias is None
    assert repr(net) == ('Net(\n  (fc1): Linear(in_features=4, out_features=3, bias=True)\n  (act): ReLU()\n'
                         '  (fc2): Linear(in_features=3, out_features=2, bias=False)\n)')
    out = net(torch.ones(5, 4))
    assert out.shape == (5, 2)
    out.sum().backward()
    assert net.fc1.weight.grad.shape == (3, 4)
    net.zero_grad()
    assert net.fc1.weight.grad is None
    assert net.eval() is net and not net.fc1.training and net.train().act.training
    with pytest.raises(TypeError, match="cannot assign 'torch.FloatTensor' as parameter 'weight' "
                                        "\\(torch.nn.Parameter or None expected\\)"):
        net.fc1.weight = torch.ones(3, 4)
    with pytest.raises(AttributeError, match="'Net' object has no attribute 'missing'"):
        net.missing


def test_module_errors_match_pytorch_words():
    class Broken(nn.Module):
        def __init__(self):
            self.fc = nn.Linear(1, 1)
    with pytest.raises(AttributeError, match='cannot assign module before Module.__init__\\(\\) call'):
        Broken()
    with pytest.raises(NotImplementedError, match='Module \\[Module\\] is missing the required "forward" function'):
        nn.Module()(torch.ones(1))


def test_sequential_and_layer_reprs():
    model = nn.Sequential(nn.Flatten(), nn.Linear(4, 8), nn.Tanh(), nn.Linear(8, 3), nn.Softmax(dim=1))
    assert repr(model) == ('Sequential(\n  (0): Flatten(start_dim=1, end_dim=-1)\n'
                           '  (1): Linear(in_features=4, out_features=8, bias=True)\n  (2): Tanh()\n'
                           '  (3): Linear(in_features=8, out_features=3, bias=True)\n  (4): Softmax(dim=1)\n)')
    assert len(model) == 5 and isinstance(model[-1], nn.Softmax) and repr(model[1:2]).startswith('Sequential(\n  (1)')
    approx(model(torch.ones(2, 2, 2)).sum(), 2.0, 1e-6)
    assert repr(nn.ModuleList([nn.Linear(2, 2), nn.Linear(2, 2), nn.ReLU()])) == (
        'ModuleList(\n  (0-1): 2 x Linear(in_features=2, out_features=2, bias=True)\n  (2): ReLU()\n)')
    assert [repr(m) for m in (nn.MSELoss(), nn.CrossEntropyLoss(), nn.ReLU(inplace=True), nn.LeakyReLU(),
                              nn.Sequential(), nn.GELU())] == [
        'MSELoss()', 'CrossEntropyLoss()', 'ReLU(inplace=True)', 'LeakyReLU(negative_slope=0.01)', 'Sequential()',
        "GELU(approximate='none')"]


def test_linear_init_is_seeded_bounded_and_counted_as_an_in_place_write():
    torch.manual_seed(3)
    a = nn.Linear(16, 4)
    torch.manual_seed(3)
    b = nn.Linear(16, 4)
    assert val(a.weight) == val(b.weight) and val(a.bias) == val(b.bias)
    assert np.abs(a.weight._data).max() <= 0.25 and np.abs(a.bias._data).max() <= 0.25
    assert a.weight._version == 1 and a.weight.dtype is torch.float32


def test_state_dict_round_trip():
    a, b = nn.Linear(2, 2), nn.Linear(2, 2)
    assert repr(b.load_state_dict(a.state_dict())) == '<All keys matched successfully>'
    assert val(a.weight) == val(b.weight) and b.weight.is_leaf
    with pytest.raises(RuntimeError, match='Missing key\\(s\\) in state_dict: "bias"'):
        b.load_state_dict({'weight': torch.ones(2, 2)})


# ================================================================================================ optim

def test_sgd_steps_by_hand():
    p = nn.Parameter(torch.tensor([1.]))
    opt = torch.optim.SGD([p], lr=0.1, momentum=0.9)
    for expected in (0.8, 0.42):                       # buf: 2, then 0.9 * 2 + 2 = 3.8
        opt.zero_grad()
        (2 * p).sum().backward()
        opt.step()
        approx(p, [expected])
    assert p._version == 2 and p.is_leaf and p.grad_fn is None
    opt.zero_grad()
    assert p.grad is None
    with pytest.raises(ValueError, match='optimizer got an empty parameter list'):
        torch.optim.SGD([], lr=0.1)
    with pytest.raises(ValueError, match='Invalid learning rate: -1'):
        torch.optim.SGD([p], lr=-1)


def test_adam_first_step_moves_by_lr():
    p = nn.Parameter(torch.tensor([1., -1.]))
    opt = torch.optim.Adam([p], lr=0.1)
    (p * torch.tensor([2., -3.])).sum().backward()
    opt.step()
    approx(p, [0.9, -0.9], 1e-6)                       # m_hat / sqrt(v_hat) = sign(grad)
    assert opt.state[p]['step'].item() == 1
    assert repr(opt).startswith('Adam (\nParameter Group 0\n    amsgrad: False\n    betas: (0.9, 0.999)\n')


def test_optimizer_repr_lists_the_group_settings():
    opt = torch.optim.SGD(nn.Linear(1, 1).parameters(), lr=0.1)
    assert repr(opt) == ('SGD (\nParameter Group 0\n    dampening: 0\n    differentiable: False\n    foreach: None\n'
                         '    fused: None\n    lr: 0.1\n    maximize: False\n    momentum: 0\n    nesterov: False\n'
                         '    weight_decay: 0\n)')


@pytest.mark.parametrize('make_opt', [lambda ps: torch.optim.SGD(ps, lr=0.5, momentum=0.9),
                                      lambda ps: torch.optim.Adam(ps, lr=0.05)], ids=['sgd', 'adam'])
def test_mlp_learns_xor(make_opt):
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(2, 8), nn.Tanh(), nn.Linear(8, 1), nn.Sigmoid())
    opt = make_opt(model.parameters())
    x = torch.tensor([[0., 0.], [0., 1.], [1., 0.], [1., 1.]])
    y = torch.tensor([[0.], [1.], [1.], [0.]])
    loss_fn = nn.BCELoss()
    for _ in range(300):
        opt.zero_grad()
        loss = loss_fn(model(x), y)
        loss.backward()
        opt.step()
    assert loss.item() < 0.05
    assert (model(x) > 0.5).tolist() == [[False], [True], [True], [False]]


# ================================================================================================ import path

def test_torch_nn_imports_resolve_to_the_engine():
    """The browser binds `torch` to the engine; tutorial imports must then find engine.nn and friends."""
    saved = {k: v for k, v in sys.modules.items() if k == 'torch' or k.startswith('torch.')}
    for k in saved:
        del sys.modules[k]
    sys.modules['torch'] = torch
    try:
        env = {}
        exec('import torch\nimport torch.nn as nn\nimport torch.nn.functional as F\nfrom torch import optim\n'
             'from torch.nn import functional\nimport torch.optim as optim2', env)
        assert env['nn'] is torch.nn and env['F'] is F and env['functional'] is F
        assert env['optim'] is torch.optim and env['optim2'] is torch.optim
    finally:
        for k in [k for k in sys.modules if k == 'torch' or k.startswith('torch.')]:
            del sys.modules[k]
        sys.modules.update(saved)


def test_deepcopy_of_a_model_keeps_parameters_and_sharing():
    import copy
    shared = nn.Linear(2, 2)
    model = nn.Sequential(shared, nn.ReLU(), shared)
    clone = copy.deepcopy(model)
    assert isinstance(clone[0].weight, nn.Parameter) and clone[0] is clone[2]
    assert clone[0].weight is not model[0].weight and val(clone[0].weight) == val(model[0].weight)
    assert len(list(clone.parameters())) == 2


def test_data_loader_batches_a_tensor_dataset():
    """torch.utils.data as Dive into Deep Learning's load_array uses it: batches of (X, y), shuffled each epoch."""
    X, y = torch.arange(20.).reshape(10, 2), torch.arange(10)
    loader = torch.utils.data.DataLoader(torch.utils.data.TensorDataset(X, y), 4, shuffle=True)
    assert len(loader) == 3
    batches = list(loader)
    assert [tuple(b[0].shape) for b in batches] == [(4, 2), (4, 2), (2, 2)] and isinstance(batches[0], list)
    seen = torch.cat([b[1] for b in batches])
    assert sorted(seen.tolist()) == list(range(10))
    assert all(torch.equal(b[0], X[b[1]]) for b in batches)
    ordered = torch.utils.data.DataLoader(torch.utils.data.TensorDataset(X, y), batch_size=4, drop_last=True)
    assert [b[1].tolist() for b in ordered] == [[0, 1, 2, 3], [4, 5, 6, 7]]


# ================================================================================================ convolution, pooling

def test_conv2d_gradients_match_finite_differences():
    """conv2d's ConvolutionBackward0 (stride, padding, dilation, groups) against central differences in float64,
    and a hand-worked 1x2 edge kernel (Dive into Deep Learning's [1, -1])."""
    rng = np.random.default_rng(0)
    x0, w0, b0 = rng.standard_normal((2, 4, 6, 7)), rng.standard_normal((4, 2, 3, 2)), rng.standard_normal(4)
    gy = rng.standard_normal((2, 4, 3, 5))
    kw = dict(stride=(2, 1), padding=(1, 0), dilation=(1, 2), groups=2)
    x, w, b = (torch.tensor(a, requires_grad=True) for a in (x0, w0, b0))
    y = F.conv2d(x, w, b, **kw)
    assert tuple(y.shape) == (2, 4, 3, 5) and y.grad_fn.name() == 'ConvolutionBackward0'
    assert (y.grad_fn._saved_stride, y.grad_fn._saved_padding, y.grad_fn._saved_groups) == ((2, 1), (1, 0), 2)
    y.backward(torch.tensor(gy))

    def loss(xa, wa, ba):
        return float((F.conv2d(torch.tensor(xa), torch.tensor(wa), torch.tensor(ba), **kw)._data * gy).sum())

    eps = 1e-6
    for arr, grad in ((x0, x.grad), (w0, w.grad), (b0, b.grad)):
        for idx in [tuple(rng.integers(0, n) for n in arr.shape) for _ in range(6)]:
            hi, lo = arr.copy(), arr.copy()
            hi[idx] += eps
            lo[idx] -= eps
            args = [hi if a is arr else a for a in (x0, w0, b0)], [lo if a is arr else a for a in (x0, w0, b0)]
            assert abs((loss(*args[0]) - loss(*args[1])) / (2 * eps) - float(grad._data[idx])) < 1e-6

    X = torch.ones(6, 8)
    X[:, 2:6] = 0
    edge = F.conv2d(X.reshape(1, 1, 6, 8), torch.tensor([[[[1., -1.]]]]))
    assert val(edge[0, 0, 0]) == [0, 1, 0, 0, 0, -1, 0]
    k = torch.tensor([[[[1., -1.]]]], requires_grad=True)
    F.conv2d(X.reshape(1, 1, 6, 8), k).sum().backward()
    assert val(k.grad) == [[[[18., 18.]]]]        # each tap sees 7 of the 8 columns: 3 ones in each of 6 rows


def test_pools_values_indices_and_gradients():
    x = torch.arange(16.).reshape(1, 1, 4, 4).requires_grad_()
    y, idx = F.max_pool2d(x, 3, stride=2, padding=1, return_indices=True)
    assert val(y) == [[[[5., 7.], [13., 15.]]]] and idx.tolist() == [[[[5, 7], [13, 15]]]] and idx.dtype == torch.int64
    assert y.grad_fn.name() == 'MaxPool2DWithIndicesBackward0' and y.grad_fn._saved_stride == (2, 2)
    y.sum().backward()
    assert val(x.grad)[0][0] == [[0, 0, 0, 0], [0, 1, 0, 1], [0, 0, 0, 0], [0, 1, 0, 1]]
    x.grad = None
    a = F.avg_pool2d(x, 2)
    assert val(a) == [[[[2.5, 4.5], [10.5, 12.5]]]] and a.grad_fn._saved_stride == ()
    a.sum().backward()
    assert val(x.grad) == [[[[0.25] * 4] * 4]]
    assert val(F.avg_pool1d(torch.tensor([[1., 2., 3.]]), 2, 1, 1, count_include_pad=False)) == [[1., 1.5, 2.5, 3.]]
    assert val(F.max_pool1d(torch.tensor([[1., 3., 2., 0.]]), 2)) == [[3., 2.]]
    assert repr(nn.MaxPool2d(2)) == 'MaxPool2d(kernel_size=2, stride=2, padding=0, dilation=1, ceil_mode=False)'
    assert repr(nn.Conv2d(1, 6, 5)) == 'Conv2d(1, 6, kernel_size=(5, 5), stride=(1, 1))'


def test_double_backward_through_conv_and_pool():
    """Gradients of gradients through conv2d and the pools (x, w all ones): for the conv, L = sum_o y_o^2 with
    y_o = 4 gives dL/dw_k = sum_o 2 y_o x_{o+k} = 72, and d(sum_k dL/dw_k)/dw_m = sum_k sum_o 2 x_{o+m} x_{o+k} = 72;
    for the pools of x * s (s = w.sum() = 4), dL/ds = sum_o 2 y_o = 32 and d(4 dL/ds)/ds = 4 * 2 * 4 = 32."""
    x = torch.ones(1, 1, 4, 4, requires_grad=True)
    w = torch.ones(1, 1, 2, 2, requires_grad=True)
    for y, expected, name in ((lambda: F.conv2d(x, w), 72., 'ConvolutionBackwardBackward0'),
                              (lambda: F.max_pool2d(x * w.sum(), 2), 32., 'ExpandBackward0'),
                              (lambda: F.avg_pool2d(x * w.sum(), 2), 32., 'ExpandBackward0')):
        w.grad = None
        g, = torch.autograd.grad(y().pow(2).sum(), w, create_graph=True)
        assert type(g.grad_fn).__name__ == name
        g.sum().backward()
        assert g.flatten().tolist() == [expected] * 4 and w.grad.flatten().tolist() == [expected] * 4


def test_adaptive_average_pooling_tiles_the_input():
    """Windows of PyTorch's adaptive pooling: rows i * H // oh up to ceil((i + 1) * H / oh), overlapping when H does
    not divide; each input gets its share of every window it is in."""
    x = torch.arange(5 * 7.).reshape(1, 1, 5, 7).requires_grad_()
    y = F.adaptive_avg_pool2d(x, (2, 3))
    assert y[0, 0].tolist() == [[8., 10., 12.], [22., 24., 26.]]
    y.sum().backward()
    assert x.grad[0, 0, 2].tolist() == pytest.approx([2 / 9, 2 / 9, 4 / 9, 2 / 9, 4 / 9, 2 / 9, 2 / 9])
    assert type(F.adaptive_avg_pool2d(x, 1).grad_fn).__name__ == 'MeanBackward1'


def test_embedding_rows_and_their_gradients():
    e = nn.Embedding.from_pretrained(torch.arange(8.).view(4, 2), freeze=False, padding_idx=0)
    y = e(torch.tensor([[3, 0], [3, 1]]))
    assert y.tolist() == [[[6., 7.], [0., 1.]], [[6., 7.], [2., 3.]]]
    y.sum().backward()
    assert e.weight.grad.tolist() == [[0., 0.], [1., 1.], [0., 0.], [2., 2.]]      # (the padding row: none)
    with pytest.raises(IndexError, match='index out of range in self'):
        e(torch.tensor([4]))


def test_only_the_kaiming_initialisers_warn_about_an_empty_tensor():
    import warnings
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter('always')
        for name in ('normal_', 'uniform_', 'zeros_', 'ones_'):
            getattr(torch.nn.init, name)(torch.empty(0))
        assert caught == []
        torch.nn.init.kaiming_normal_(torch.empty(0, 3))
    assert [str(w.message) for w in caught] == ['Initializing zero-element tensors is a no-op']
    assert caught[0].filename == __file__
