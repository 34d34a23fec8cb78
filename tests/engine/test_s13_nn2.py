"""The thirteenth session's second nn / optim pass, without PyTorch: the new optimizers minimise a quadratic,
nn.init's structured initialisers give what they promise, samplers and datasets batch as documented, and Module's
dotted-path getters find what they name."""
import warnings

import numpy as np
import pytest

import engine as torch

nn, data = torch.nn, torch.utils.data


@pytest.mark.parametrize("name, lr", [('NAdam', 0.1), ('RAdam', 0.1), ('Adamax', 0.1), ('Adadelta', 10.0),
                                      ('Rprop', 0.01), ('ASGD', 0.1)])
def test_new_optimizers_minimise_a_quadratic(name, lr):
    w = nn.Parameter(torch.tensor([3.0, -2.0]))
    opt = getattr(torch.optim, name)([w], lr=lr)
    for _ in range(300):
        opt.zero_grad()
        ((w - 1) ** 2).sum().backward()
        opt.step()
    assert np.allclose(w.detach().numpy(), [1.0, 1.0], atol=0.05), w
    assert type(opt).__module__ == 'torch.optim.' + name.lower()


def test_optimizer_validation_messages():
    w = nn.Parameter(torch.ones(1))
    with pytest.raises(ValueError, match='Invalid eta values: 1.5, 1.2'):
        torch.optim.Rprop([w], etas=(1.5, 1.2))
    with pytest.raises(ValueError, match='Invalid rho value: 1.1'):
        torch.optim.Adadelta([w], rho=1.1)
    with pytest.raises(ValueError, match='Tensor lr must be 1-element'):
        torch.optim.NAdam([w], lr=torch.ones(2))


def test_structured_initialisers():
    torch.manual_seed(0)
    q = nn.init.orthogonal_(torch.empty(3, 5), gain=2)
    assert np.allclose((q @ q.T).numpy(), 4 * np.eye(3), atol=1e-5)
    assert nn.init.eye_(torch.empty(2, 3)).tolist() == [[1, 0, 0], [0, 1, 0]]
    d = nn.init.dirac_(torch.empty(2, 2, 3))
    assert d.sum().item() == 2 and d[1, 1, 1].item() == 1
    s = nn.init.sparse_(torch.empty(10, 4), 0.3)
    assert ((s == 0).sum(0) >= 3).all()
    t = nn.init.trunc_normal_(torch.empty(2000), a=-0.5, b=0.5)
    assert t.min() >= -0.5 and t.max() <= 0.5
    with pytest.raises(ValueError, match=r"Mode fan_avg not supported, please use one of \['fan_in', 'fan_out'\]"):
        nn.init.kaiming_uniform_(torch.empty(2, 2), mode='fan_avg')
    assert nn.init.calculate_gain('conv_transpose3d') == 1
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter('always')
        nn.init.xavier_uniform(torch.empty(2, 2))
    assert caught[0].category is FutureWarning and 'nn.init.xavier_uniform_' in str(caught[0].message)


def test_samplers_and_datasets():
    torch.manual_seed(0)
    assert sorted(data.RandomSampler(range(5))) == [0, 1, 2, 3, 4]
    assert len(list(data.RandomSampler(range(5), num_samples=12))) == 12
    assert list(data.BatchSampler(range(5), 2, drop_last=True)) == [[0, 1], [2, 3]]
    assert sorted(data.SubsetRandomSampler([7, 9])) == [7, 9]
    assert set(data.WeightedRandomSampler([0, 1, 0], 4)) == {1}
    both = data.TensorDataset(torch.arange(3)) + data.TensorDataset(torch.arange(10, 12))
    assert [x.item() for (x,) in (both[i] for i in range(len(both)))] == [0, 1, 2, 10, 11]

    class Stream(data.IterableDataset):
        def __iter__(self):
            return iter(range(5))
    assert [b.tolist() for b in data.DataLoader(Stream(), batch_size=2)] == [[0, 1], [2, 3], [4]]
    with pytest.raises(ValueError, match='expected unspecified shuffle option'):
        data.DataLoader(Stream(), shuffle=True)


def test_module_getters_and_dtype_moves():
    net = nn.Sequential(nn.Linear(2, 2), nn.BatchNorm1d(2))
    assert net.get_parameter('0.weight') is net[0].weight
    assert net.get_buffer('1.running_var') is net[1].running_var
    with pytest.raises(AttributeError, match='`running_var` is not an nn.Parameter'):
        net.get_parameter('1.running_var')
    net.double()
    assert net[0].weight.dtype is torch.float64 and net[1].num_batches_tracked.dtype is torch.int64
    with pytest.raises(TypeError, match='nn.Module.to only accepts floating point or complex dtypes'):
        net.to(torch.int64)
