"""The thirteenth session's nn / optim fixes, checked without PyTorch: values and messages as PyTorch 2.13 gives
them (copied from its output)."""
import warnings

import pytest

import engine as torch

nn = torch.nn
L = torch.optim.lr_scheduler


def test_cross_entropy_checks_the_target_shape_of_extra_dims():
    with pytest.raises(RuntimeError, match=r'^Expected target size \[2, 3\], got \[2, 5\]$'):
        nn.CrossEntropyLoss()(torch.zeros(2, 5, 3), torch.zeros(2, 5, dtype=torch.long))
    with pytest.raises(RuntimeError, match=r'^size mismatch \(got input: \[4, 3, 2, 5\] , target: \[4, 5, 2\]$'):
        nn.CrossEntropyLoss()(torch.zeros(4, 3, 2, 5), torch.zeros(4, 5, 2, dtype=torch.long))
    with pytest.raises(RuntimeError, match='only batches of spatial targets supported'):
        nn.NLLLoss()(torch.zeros(4, 3, 2, 5), torch.zeros(4, 5, dtype=torch.long))


def test_float_sizes_are_refused():
    x = torch.arange(8.)
    with pytest.raises(TypeError, match=r"^view\(\): argument 'size' failed to unpack the object at pos 2"):
        x.view(2, 8 / 2)
    with pytest.raises(TypeError, match=r"^reshape\(\): argument 'shape' failed to unpack the object at pos 2"):
        x.reshape(-1, 4.0)
    with pytest.raises(TypeError, match=r'^expand\(\) takes 1 positional argument but 2 were given$'):
        x.expand(2.0, 8)
    assert x.view(2, 4).shape == (2, 4) and x.reshape([4, -1]).shape == (4, 2)


def test_state_dict_keeps_the_keys_of_a_shared_module():
    shared = nn.Linear(2, 2)
    assert list(nn.Sequential(shared, shared).state_dict()) == ['0.weight', '0.bias', '1.weight', '1.bias']


def test_legacy_reduction_flags_by_truth_value():
    with warnings.catch_warnings():
        warnings.simplefilter('ignore')
        assert nn.MSELoss(size_average=0).reduction == 'sum' and nn.MSELoss(reduce=0).reduction == 'none'
        with pytest.raises(RuntimeError, match='Boolean value of Tensor with more than one value is ambiguous'):
            nn.MSELoss(torch.ones(2), torch.zeros(2))


def test_target_gradient_of_mse_has_no_negative_zero():
    t = torch.tensor([1.5, 2.0], requires_grad=True)
    nn.MSELoss()(torch.tensor([1.0, 2.0]), t).backward()
    assert str(t.grad) == 'tensor([0.5000, 0.0000])'


def _sgd(lr=0.1):
    return torch.optim.SGD([nn.Parameter(torch.tensor([1.0]))], lr=lr)


def test_step_with_an_epoch_uses_the_closed_form_and_warns():
    opt = _sgd()
    sch = L.ExponentialLR(opt, gamma=0.5)
    opt.step()
    with pytest.warns(UserWarning, match='The epoch parameter in `scheduler.step\\(\\)` was not necessary'):
        sch.step(3)
    assert sch.get_last_lr() == [0.0125]


def test_reduce_lr_on_plateau():
    opt = _sgd()
    sch = L.ReduceLROnPlateau(opt, patience=1, factor=0.5)
    lrs = []
    for v in [1.0, 0.9, 0.95, 0.96, 0.97, 0.98]:
        opt.step()
        sch.step(v)
        lrs.append(sch.get_last_lr()[0])
    assert lrs == [0.1, 0.1, 0.1, 0.05, 0.05, 0.025]


def test_sequential_lr_switches_at_the_milestone():
    opt = _sgd(1.0)
    sch = L.SequentialLR(opt, [L.ConstantLR(opt, factor=0.5, total_iters=10), L.ExponentialLR(opt, 0.5)], [2])
    lrs = [sch.get_last_lr()[0]]
    for _ in range(3):
        opt.step()
        sch.step()
        lrs.append(sch.get_last_lr()[0])
    assert lrs == [0.5, 0.5, 1.0, 0.5]


def test_container_methods():
    net = nn.Sequential(nn.ReLU(), nn.Tanh())
    net.insert(1, nn.ELU())
    del net[0]
    assert [type(m).__name__ for m in net] == ['ELU', 'Tanh'] and list(net._modules) == ['0', '1']
    net[0] = nn.Sigmoid()
    assert list(net._modules) == ['0', '1'] and type(net.pop(0)).__name__ == 'Sigmoid'
    pl = nn.ParameterList([torch.ones(2)])
    assert type(pl[0]) is nn.Parameter and repr(pl) == (
        'ParameterList(  (0): Parameter containing: [torch.float32 of size 2])')
    pd = nn.ParameterDict({'b': torch.ones(1), 'a': torch.ones(1)})
    assert list(pd) == ['a', 'b']


def test_optimizer_keeps_parameter_names():
    opt = torch.optim.Adam(nn.Linear(2, 1).named_parameters(), lr=0.1)
    assert opt.param_groups[0]['param_names'] == ['weight', 'bias']
    assert opt.step.__qualname__ == 'Adam.step'
