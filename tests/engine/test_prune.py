"""torch.nn.utils.prune in the engine (no PyTorch needed): the reparametrization (weight_orig, weight_mask, a
forward pre-hook that makes weight), the pruning methods' masks, repeated pruning in a PruningContainer, global
pruning, remove, and the errors. Expected masks were printed by PyTorch 2.13 for the same inputs."""
import copy

import pytest

import engine as torch
from engine import nn
from engine.nn.utils import prune


def names(m):
    return [n for n, _ in m.named_parameters()], [n for n, _ in m.named_buffers()]


def linear(weight, bias=None):
    weight = torch.tensor(weight)
    m = nn.Linear(weight.shape[1], weight.shape[0])
    with torch.no_grad():
        m.weight.copy_(weight)
        if bias is not None:
            m.bias.copy_(torch.tensor(bias))
    return m


W = [[1., -3., 2., 0.5], [-0.1, 4., -2.5, 0.2], [0.3, -0.7, 5., -6.]]


def test_import_paths():
    import importlib
    assert importlib.import_module('engine.nn.utils.prune') is prune
    from engine.nn.utils import prune as p
    assert p is prune and torch.nn.utils.prune is prune
    assert repr(prune.L1Unstructured).startswith("<class 'torch.nn.utils.prune.L1Unstructured'")


def test_l1_unstructured_reparametrizes():
    m = linear(W, [1., 2., 3.])
    w = m.weight
    assert prune.l1_unstructured(m, 'weight', amount=4) is m
    assert names(m) == (['bias', 'weight_orig'], ['weight_mask'])
    assert m.weight_orig is w
    assert m.weight_mask.tolist() == [[1., 1., 1., 0.], [0., 1., 1., 0.], [0., 1., 1., 1.]]
    assert m.weight.grad_fn.name() == 'MulBackward0' and 'weight' in m.__dict__
    assert m.weight.tolist() == (torch.tensor(W) * m.weight_mask).tolist()
    hooks = list(m._forward_pre_hooks.values())
    assert len(hooks) == 1 and isinstance(hooks[0], prune.L1Unstructured) and hooks[0]._tensor_name == 'weight'
    assert repr(hooks[0]).startswith('<torch.nn.utils.prune.L1Unstructured object at 0x')
    assert list(m.state_dict()) == ['bias', 'weight_orig', 'weight_mask']
    assert prune.is_pruned(m) and prune.is_pruned(nn.Sequential(nn.ReLU(), m))
    assert not prune.is_pruned(nn.Linear(2, 2))


def test_forward_pre_hook_recomputes_weight_and_gradient_reaches_orig():
    m = linear(W, [0., 0., 0.])
    prune.l1_unstructured(m, 'weight', amount=0.5)
    with torch.no_grad():
        m.weight_orig.fill_(2.)
    y = m(torch.ones(1, 4))
    assert y.tolist() == [[4., 4., 4.]]
    assert m.weight.tolist() == (2 * m.weight_mask).tolist()
    y.sum().backward()
    assert m.weight_orig.grad.tolist() == m.weight_mask.tolist()


def test_amounts_int_float_and_rounding():
    # (a fraction of the 5 entries rounds half to even: 0.5 * 5 = 2.5 prunes 2, 0.9 * 5 = 4.5 prunes 4)
    for amount, kept in ((0, 5), (0.0, 5), (1.0, 0), (0.5, 3), (0.3, 3), (0.7, 1), (0.9, 1), (2, 3), (5, 0)):
        m = linear([[1., 2., 3., 4., 5.]])
        prune.l1_unstructured(m, 'weight', amount)
        assert int(m.weight_mask.sum()) == kept, amount


@pytest.mark.parametrize('call, error', [
    (lambda m: prune.l1_unstructured(m, 'weight', amount=-1),
     "ValueError: amount=-1 should either be a float in the range [0, 1] or a non-negative integer"),
    (lambda m: prune.random_unstructured(m, 'weight', amount=1.5),
     "ValueError: amount=1.5 should either be a float in the range [0, 1] or a non-negative integer"),
    (lambda m: prune.l1_unstructured(m, 'weight', amount='a'),
     "TypeError: Invalid type for amount: a. Must be int or float."),
    (lambda m: prune.l1_unstructured(m, 'weight', amount=torch.tensor(0.5)),
     "TypeError: Invalid type for amount: 0.5. Must be int or float."),
    (lambda m: prune.l1_unstructured(m, 'weight', amount=13),
     "ValueError: amount=13 should be smaller than the number of parameters to prune=12"),
    (lambda m: prune.ln_structured(m, 'bias', amount=1, n=2, dim=0),
     "ValueError: Structured pruning can only be applied to multidimensional tensors. Found tensor of shape "
     "torch.Size([3]) with 1 dims"),
    (lambda m: prune.random_structured(m, 'weight', amount=1, dim=2),
     "IndexError: Invalid index 2 for tensor of size torch.Size([3, 4])"),
    (lambda m: prune.ln_structured(m, 'weight', amount=5, n=1, dim=-1),
     "ValueError: amount=5 should be smaller than the number of parameters to prune=4"),
    (lambda m: prune.remove(m, 'weight'),
     "ValueError: Parameter 'weight' of module Linear(in_features=4, out_features=3, bias=True) has to be pruned "
     "before pruning can be removed"),
    (lambda m: prune.l1_unstructured(m, 'weight', 1, importance_scores=torch.ones(2)),
     "AssertionError: importance_scores should have the same shape as parameter weight of Linear(in_features=4, "
     "out_features=3, bias=True), got torch.Size([2]) vs torch.Size([3, 4])"),
])
def test_errors_leave_module_as_it_was(call, error):
    m = linear(W)
    with pytest.raises(Exception) as info:
        call(m)
    assert '%s: %s' % (type(info.value).__name__, info.value) == error
    assert set(names(m)[0]) == {'weight', 'bias'} and names(m)[1] == [] and not m._forward_pre_hooks


def test_failed_compute_mask_puts_parameter_back_last():
    m = linear(W)
    with pytest.raises(ValueError):
        prune.l1_unstructured(m, 'weight', amount=20)
    assert names(m) == (['bias', 'weight'], [])


def test_repeated_pruning_makes_a_container():
    m = linear(W)
    first = prune.L1Unstructured.apply(m, 'weight', amount=3)
    prune.ln_structured(m, 'weight', amount=1, n=2, dim=0)
    hooks = list(m._forward_pre_hooks.values())
    assert len(hooks) == 1 and isinstance(hooks[0], prune.PruningContainer)
    container = hooks[0]
    assert len(container) == 2 and container[0] is first and isinstance(container[1], prune.LnStructured)
    assert container._tensor_name == 'weight'
    # row 0 has the smallest L2 norm of what the L1 pruning left
    assert m.weight_mask.tolist() == [[0., 0., 0., 0.], [0., 1., 1., 0.], [0., 1., 1., 1.]]
    prune.l1_unstructured(m, 'weight', amount=2)     # among the 5 entries left: 0.7 and 2.5 go
    assert m.weight_mask.tolist() == [[0., 0., 0., 0.], [0., 1., 0., 0.], [0., 0., 1., 1.]]
    assert len(container) == 3 and list(m._forward_pre_hooks.values()) == [container]


def test_structured_container_skips_channels_already_pruned():
    m = linear([[1., 1.], [3., 3.], [2., 2.], [0.5, 0.5]])
    prune.ln_structured(m, 'weight', amount=1, n=1, dim=0)
    prune.ln_structured(m, 'weight', amount=1, n=1, dim=0)
    assert m.weight_mask[:, 0].tolist() == [0., 1., 1., 0.]
    prune.ln_structured(m, 'weight', amount=2, n=1, dim=0)
    assert m.weight_mask[:, 0].tolist() == [0., 0., 0., 0.]


def test_random_methods_draw_as_pytorch():
    torch.manual_seed(0)
    m = nn.Linear(4, 3)
    prune.random_unstructured(m, 'weight', amount=0.5)
    assert m.weight_mask.tolist() == [[1., 0., 0., 1.], [1., 0., 0., 1.], [0., 1., 1., 0.]]
    torch.manual_seed(1)
    c = nn.Conv2d(2, 5, 1)
    prune.random_structured(c, 'weight', amount=2, dim=0)
    assert c.weight_mask.view(5, 2).tolist() == [[0., 0.], [1., 1.], [0., 0.], [1., 1.], [1., 1.]]


def test_ln_structured_norms():
    m = linear([[3., 0.], [1., 1.], [0., 2.]])
    prune.ln_structured(m, 'weight', amount=1, n=float('inf'), dim=0)
    assert m.weight_mask[:, 0].tolist() == [1., 0., 1.]
    m = linear([[3., 0.], [1., 1.], [0., 2.]])
    prune.ln_structured(m, 'weight', amount=1, n=1, dim=1)
    assert m.weight_mask[0].tolist() == [1., 0.]


def test_remove_makes_pruning_permanent():
    m = linear(W)
    orig = m.weight
    prune.l1_unstructured(m, 'weight', amount=6)
    mask = m.weight_mask.clone()
    assert prune.remove(m, 'weight') is m
    assert m.weight is orig and isinstance(m.weight, nn.Parameter) and m.weight.requires_grad
    assert names(m) == (['bias', 'weight'], [])
    assert not m._forward_pre_hooks and not prune.is_pruned(m)
    assert m.weight.tolist() == (torch.tensor(W) * mask).tolist()


def test_custom_from_mask_and_identity():
    m = prune.custom_from_mask(nn.Linear(5, 3), name='bias', mask=torch.tensor([0, 1, 0]))
    assert m.bias_mask.tolist() == [0., 1., 0.] and m.bias_mask.dtype == torch.float32
    assert m.bias[0].item() == 0 and m.bias[2].item() == 0
    with pytest.raises(AssertionError, match=r'default_mask shape torch.Size\(\[3\]\) must match self.mask shape'):
        prune.custom_from_mask(m, 'bias', torch.ones(2))
    m = prune.identity(nn.Linear(2, 3), 'weight')
    assert m.weight_mask.tolist() == [[1., 1.]] * 3


def test_global_unstructured():
    net = nn.Sequential(linear([[1., -2.], [3., 0.5]]), linear([[0.1, 4.]]))
    prune.global_unstructured([(net[0], 'weight'), (net[1], 'weight')], pruning_method=prune.L1Unstructured,
                              amount=3)
    assert net[0].weight_mask.tolist() == [[0., 1.], [1., 0.]] and net[1].weight_mask.tolist() == [[0., 1.]]
    assert all(isinstance(h, prune.PruningContainer) is False for h in net[0]._forward_pre_hooks.values())
    assert sum(torch.nn.utils.parameters_to_vector(net.buffers()) == 0).item() == 3
    with pytest.raises(TypeError, match='Only "unstructured" PRUNING_TYPE supported'):
        prune.global_unstructured([(net[0], 'weight')], pruning_method=prune.RandomStructured, amount=1)
    with pytest.raises(TypeError, match='parameters is not an Iterable'):
        prune.global_unstructured(5, pruning_method=prune.L1Unstructured, amount=1)


def test_prune_method_and_containers():
    t = torch.tensor([[1., -3., 2.], [0.5, -0.5, 4.]])
    assert prune.L1Unstructured(amount=2).prune(t).tolist() == [[1., -3., 2.], [0., -0., 4.]]
    with pytest.raises(TypeError, match="Can't instantiate abstract class BasePruningMethod"):
        prune.BasePruningMethod()
    a = prune.L1Unstructured(1)
    a._tensor_name = 'w'
    b = prune.Identity()
    b._tensor_name = 'v'
    c = prune.PruningContainer(a)
    with pytest.raises(ValueError, match="Can only add pruning methods acting on the parameter named 'w'"):
        c.add_pruning_method(b)
    with pytest.raises(TypeError, match="<class 'int'> is not a BasePruningMethod subclass"):
        c.add_pruning_method(3)
    with pytest.raises(AttributeError, match="'L1Unstructured' object has no attribute '_tensor_name'"):
        prune.L1Unstructured(1).remove(nn.Linear(1, 1))


def test_custom_method_subclass():
    class FooBarPruningMethod(prune.BasePruningMethod):
        PRUNING_TYPE = 'unstructured'

        def compute_mask(self, t, default_mask):
            mask = default_mask.clone()
            mask.view(-1)[::2] = 0
            return mask

    m = nn.Linear(3, 5)
    FooBarPruningMethod.apply(m, 'bias')
    assert m.bias_mask.tolist() == [0., 1., 0., 1., 0.]


def test_deepcopy_and_state_dict_round_trip():
    m = linear(W)
    prune.l1_unstructured(m, 'weight', amount=5)
    with pytest.raises(RuntimeError, match='Only Tensors created explicitly by the user'):
        copy.deepcopy(m)            # (the pruned weight, an attribute in the graph of weight_orig: as PyTorch)
    with torch.no_grad():
        m(torch.ones(1, 4))         # (made again without a graph: now it copies)
    m2 = copy.deepcopy(m)
    assert prune.is_pruned(m2) and m2.weight_mask.tolist() == m.weight_mask.tolist()
    fresh = prune.identity(nn.Linear(4, 3), 'weight')
    fresh.load_state_dict(m.state_dict())
    fresh(torch.ones(1, 4))
    assert fresh.weight.tolist() == m.weight.tolist()
