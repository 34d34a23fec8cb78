"""The thirteenth session's second nn / optim pass against real PyTorch: the optimizers NAdam, RAdam, Adamax,
Adadelta, Rprop and ASGD (values step by step, state_dict, reprs, validation), nn.init's eye_ / dirac_ /
orthogonal_ / sparse_ / trunc_normal_, the deprecated init names and calculate_gain, integer inputs to activations,
dropout and norms, Module.get_submodule / get_parameter / get_buffer / type / to, load_state_dict given non-tensors,
Variable.volatile, cross_entropy's label_smoothing / ignore_index checks, the samplers, ConcatDataset, ChainDataset,
StackDataset and IterableDataset in a DataLoader. Printed text, warnings and the final error must be identical."""
import pytest

T = pytest.importorskip("torch", reason="differential tests need real PyTorch (pip install torch==2.13.0)")
from .harness import SHOW, load_engine, run_both, same  # noqa: E402

E = load_engine()

HEAD = 'torch.manual_seed(0)\nF = torch.nn.functional\nnn = torch.nn\ndata = torch.utils.data\n'

# A few steps of an optimizer on two parameters (exact float32 values printed), then its state_dict and versions.
RUN = '''
def run(make, steps=4, **kw):
    w = torch.nn.Parameter(torch.randn(3, 4))
    b = torch.nn.Parameter(torch.randn(4))
    opt = make([w, b], **kw)
    for i in range(steps):
        opt.zero_grad()
        loss = (torch.sin(torch.arange(12.).reshape(3, 4) * (i + 1)) * w).sum() + (b * b * b).sum()
        loss.backward()
        opt.step()
    print(w.tolist(), b.tolist())
    print(opt.state_dict())
    print(w._version, b._version)
    return opt
'''
OPTIONS = {
    'NAdam': [{}, {'weight_decay': 0.1}, {'weight_decay': 0.1, 'decoupled_weight_decay': True, 'maximize': True},
              {'momentum_decay': 0.01, 'lr': 0.1}],
    'RAdam': [{}, {'weight_decay': 0.1}, {'weight_decay': 0.1, 'decoupled_weight_decay': True, 'maximize': True}],
    'Adamax': [{}, {'weight_decay': 0.1, 'maximize': True, 'lr': 0.5}],
    'Adadelta': [{}, {'weight_decay': 0.1, 'rho': 0.5, 'lr': 0.3}, {'maximize': True}],
    'Rprop': [{}, {'etas': (0.3, 1.5), 'step_sizes': (0.001, 0.02), 'lr': 0.05}, {'maximize': True}],
    'ASGD': [{}, {'weight_decay': 0.1, 't0': 2, 'lambd': 0.1, 'lr': 0.1}, {'maximize': True, 'alpha': 0.5, 't0': 0}],
}
SNIPPETS = {'optim_%s_%d' % (name, i): RUN + 'print(run(torch.optim.%s, steps=8, **%r))\n' % (name, kw)
            for name, options in OPTIONS.items() for i, kw in enumerate(options)}

SNIPPETS.update({
    'optim_checks': (
        'w = torch.nn.Parameter(torch.randn(2))\n'
        "for name in ['NAdam', 'RAdam', 'Adamax', 'Adadelta', 'Rprop', 'ASGD']:\n"
        '    cls = getattr(torch.optim, name)\n'
        '    print(cls, cls.step, cls([w]).step)\n'
        '    for kw in [dict(lr=-1), dict(eps=-1), dict(betas=(1.0, 0.9)), dict(betas=(0.9, -0.1)), d'
        'ict(weight_decay=-1),\n'
        '               dict(momentum_decay=-1), dict(rho=1.1), dict(etas=(1.5, 1.2)), dict(etas=(0.5, 0.9)),\n'
        '               dict(lr=torch.ones(2))]:\n'
        '        tries(lambda: cls([w], **kw) and "ok")\n'),
    'optim_load_state_dict': (
        'w = torch.nn.Parameter(torch.randn(2))\n'
        'opt = torch.optim.RAdam([w], lr=0.1)\n'
        'for i in range(8):\n'
        '    opt.zero_grad(); (w ** 2).sum().backward(); opt.step(); print(w.tolist())\n'
        'opt2 = torch.optim.RAdam([w], lr=0.1)\n'
        'opt2.load_state_dict(opt.state_dict())\n'
        'opt2.zero_grad(); (w ** 2).sum().backward(); opt2.step(); print(w.tolist())\n'
        'print(opt2.state_dict())\n'),
    'optim_float64': (
        'w = torch.nn.Parameter(torch.randn(2, dtype=torch.float64))\n'
        'for cls in [torch.optim.NAdam, torch.optim.Adamax, torch.optim.ASGD, torch.optim.Rprop]:\n'
        '    opt = cls([w], lr=0.1)\n'
        '    for i in range(3):\n'
        '        opt.zero_grad(); (w ** 2).sum().backward(); opt.step(); print(w.tolist())\n'
        '    print(opt.state)\n'),
    'optim_old_ones_refactored': (
        "for name, kw in [('Adam', dict(amsgrad=True, weight_decay=0.1)), ('AdamW', {}), ('SGD', dict(momentum=0.9,\n"
        "                 nesterov=True, weight_decay=0.1)), ('RMSprop', dict(centered=True, momentum=0.5)),\n"
        "                 ('Adagrad', dict(lr_decay=0.1, maximize=True))]:\n"
        '    run(getattr(torch.optim, name), steps=5, **kw)\n'),
    'init_orthogonal': (
        'w = torch.empty(4, 6)\n'
        'print(torch.nn.init.orthogonal_(w), w._version, (w @ w.T).allclose(torch.eye(4), atol=1e-5))\n'
        'print(torch.nn.init.orthogonal_(torch.empty(6, 3, 2), gain=2))\n'
        'tries(lambda: torch.nn.init.orthogonal_(torch.empty(3)), lambda: torch.nn.init.orthogonal_(t'
        'orch.empty(0, 3)))\n'),
    'init_sparse': (
        'w = torch.empty(5, 4)\n'
        'print(torch.nn.init.sparse_(w, 0.5), w._version)\n'
        'tries(lambda: torch.nn.init.sparse_(torch.empty(3), 0.1))\n'),
    'init_eye_dirac': (
        'w = torch.empty(3, 5, requires_grad=True)\n'
        'print(torch.nn.init.eye_(w), w._version)\n'
        'print(torch.nn.init.dirac_(torch.empty(4, 2, 3)))\n'
        'w = torch.empty(4, 2, 3, 3)\n'
        'print(torch.nn.init.dirac_(w, 2), w._version)\n'
        'print(torch.nn.init.dirac_(torch.empty(2, 2, 1, 2, 3)))\n'
        'tries(lambda: torch.nn.init.eye_(torch.empty(2)), lambda: torch.nn.init.dirac_(torch.empty(2, 2)),\n'
        '      lambda: torch.nn.init.dirac_(torch.empty(3, 2, 2), groups=2))\n'),
    'init_gain_and_mode': (
        "tries(lambda: nn.init.calculate_gain('leaky_relu', True), lambda: nn.init.calculate_gain('le"
        "aky_relu', 'a'),\n"
        "      lambda: nn.init.calculate_gain('conv3d'), lambda: nn.init.calculate_gain('conv_transpose2d'),\n"
        "      lambda: nn.init.calculate_gain('leaky_relu', 2), lambda: nn.init.calculate_gain('gelu'),\n"
        "      lambda: nn.init.kaiming_uniform_(torch.empty(2, 3), mode='fan_avg'),\n"
        "      lambda: nn.init.kaiming_normal_(torch.empty(2, 3), mode='FAN_OUT'),\n"
        "      lambda: nn.init.kaiming_normal_(torch.empty(2, 3), mode='Fan_avg'))\n"),
    'init_deprecated_names': (
        'w = torch.empty(3, 4)\n'
        "for n in ['uniform', 'normal', 'xavier_uniform', 'xavier_normal', 'kaiming_uniform', 'kaiming_normal']:\n"
        '    print(getattr(torch.nn.init, n)(w), getattr(torch.nn.init, n).__name__)\n'
        'print(torch.nn.init.constant(w, 2.0), torch.nn.init.eye(w))\n'
        'print(torch.nn.init.dirac(torch.empty(2, 2, 3)))\n'
        'print(torch.nn.init.sparse(w, 0.3))\n'),
    'init_trunc_normal': (
        'w = torch.empty(1000)\n'
        'torch.nn.init.trunc_normal_(w)\n'
        'print(w.min(), w.max(), w.mean(), w[:5].tolist(), w._version)\n'
        'w = torch.empty(3, 50)\n'
        'torch.nn.init.trunc_normal_(w, mean=1, std=2, a=0.5, b=1.5)\n'
        'print(w.min(), w.max(), w[0, :5].tolist(), w._version)\n'
        'torch.nn.init.trunc_normal_(w, mean=10, std=1, a=0, b=1)\n'
        'print(w.min(), w.max(), w[0, :5].tolist(), w._version)\n'
        'print(torch.nn.init.trunc_normal_(torch.empty(4, 4, dtype=torch.float64), std=0.02))\n'),
    'init_generators': (
        'g = torch.Generator().manual_seed(3)\n'
        'w = torch.empty(3, 4)\n'
        'print(nn.init.xavier_uniform_(w, generator=g), nn.init.xavier_normal_(w, gain=3, generator=g))\n'
        "print(nn.init.kaiming_uniform_(w, a=0.2, generator=g), nn.init.kaiming_normal_(w, mode='fan_"
        "out', generator=g))\n"
        'print(nn.init.trunc_normal_(w, generator=g), nn.init.sparse_(w, 0.4, generator=g))\n'
        'w = torch.empty(7, 13)\n'
        'for i in range(20):\n'
        '    nn.init.xavier_uniform_(w); nn.init.kaiming_uniform_(w, a=0.3)\n'
        'print(w.tolist())\n'),
    'integer_inputs_modules': (
        'x = torch.tensor([[-1, 2, 3]])\n'
        'for m in [nn.Dropout(0.5), nn.Dropout(0.0), nn.Dropout2d(0.5), nn.LeakyReLU(), nn.GELU(), nn.GELU("tanh"),\n'
        '          nn.BatchNorm1d(3), nn.LayerNorm(3), nn.GroupNorm(1, 3), nn.InstanceNorm1d(3), nn.E'
        'LU(), nn.SiLU(),\n'
        '          nn.Softplus(), nn.ReLU(), nn.Hardtanh()]:\n'
        '    tries(lambda: m(x))\n'
        'x = torch.tensor([[[-1, 2, 3]]])\n'
        'for m in [nn.MaxPool1d(2), nn.AvgPool1d(2), nn.AdaptiveAvgPool1d(2), nn.AdaptiveMaxPool1d(2)]:\n'
        '    tries(lambda: m(x))\n'),
    'integer_inputs_functions': (
        'L = lambda *s: torch.ones(*s, dtype=torch.long)\n'
        'tries(lambda: F.dropout(torch.tensor([1, 2]), 0.5), lambda: F.dropout(L(2), 0.5, training=False),\n'
        '      lambda: F.dropout(L(2), 0.0), lambda: F.dropout(L(2), 1.0), lambda: F.dropout(L(2), 0.'
        '5, inplace=True),\n'
        '      lambda: F.dropout2d(L(2, 2, 2, 2), 0.5, True),'
        '      lambda: F.dropout(torch.tensor([True, False]), 0.5), lambda: F.leaky_relu(torch.tensor([True])),\n'
        '      lambda: F.leaky_relu_(L(2)), lambda: F.elu_(L(2)),\n'
        '      lambda: F.layer_norm(L(2, 3), (3,), L(3)),\n'
        '      lambda: F.layer_norm(torch.ones(2, 3, dtype=torch.float64), (3,), torch.ones(3)),\n'
        '      lambda: F.group_norm(torch.ones(2, 3, dtype=torch.float64), 1, torch.ones(3)),\n'
        '      lambda: F.group_norm(L(2, 3), 1), lambda: F.batch_norm(L(2, 3), torch.ones(2), None),\n'
        '      lambda: F.batch_norm(L(2, 3), None, None, training=True),\n'
        '      lambda: F.max_pool1d(torch.ones(1, 2, 2, dtype=torch.bool), 2), lambda: F.max_pool1d(L'
        '(1, 2, 2), 2, return_indices=True),\n'
        '      lambda: F.adaptive_avg_pool2d(torch.ones(1, 2, 2, dtype=torch.bool), (1, 2)))\n'),
    'batch_norm_eps': (
        'tries(lambda: nn.BatchNorm1d(3, eps=0)(torch.randn(2, 3)), lambda: nn.BatchNorm1d(3, eps=-1)'
        '(torch.randn(2, 3)),\n'
        '      lambda: nn.BatchNorm1d(3, eps=0).eval()(torch.randn(2, 3)),\n'
        '      lambda: F.batch_norm(torch.ones(2, 3), None, None, training=False, eps=-1))\n'),
    'module_get_attributes': (
        'net = nn.Sequential(nn.Linear(2, 3), nn.BatchNorm1d(3))\n'
        'net.extra = nn.Module()\n'
        'net.extra.inner = nn.Linear(1, 1)\n'
        'net.extra.t = torch.ones(1)\n'
        "print(net.get_submodule(''), net.get_submodule('1'), net.get_submodule('extra.inner'))\n"
        "print(net.get_parameter('0.weight'), net.get_parameter('extra.inner.bias'))\n"
        "print(net.get_buffer('1.running_mean'), net.get_buffer('1.num_batches_tracked'))\n"
        "tries(lambda: net.get_submodule('2'), lambda: net.get_submodule('0.weight'), lambda: net.get"
        "_submodule('extra.t'),\n"
        "      lambda: net.get_parameter('0.foo'), lambda: net.get_parameter('1.running_mean'),\n"
        "      lambda: net.get_parameter('x.weight'), lambda: net.get_buffer('0.weight'), lambda: net"
        ".get_buffer('1.nope'),\n"
        "      lambda: net.get_parameter('extra'), lambda: net.get_buffer('extra.t'), lambda: net.get_buffer(''))\n"),
    'module_type_and_to': (
        'net = nn.Sequential(nn.Linear(2, 3), nn.BatchNorm1d(3))\n'
        'print(net.type(torch.float64)[0].weight.dtype, net[1].num_batches_tracked.dtype, net[1].running_mean.dtype)\n'
        "print(net.type('torch.FloatTensor')[0].weight.dtype, net[1].num_batches_tracked.dtype)\n"
        'net = nn.Sequential(nn.Linear(2, 3), nn.BatchNorm1d(3))\n'
        'print(net.half()[0].weight.dtype, net[1].num_batches_tracked.dtype)\n'
        'print(net.double()[0].weight, net[1].num_batches_tracked.dtype)\n'
        'w = net[0].weight\n'
        'print(net.float()[0].weight is w, net.to(torch.float64)[1].num_batches_tracked.dtype)\n'
        "tries(lambda: net.to(torch.int64), lambda: net.to(torch.bool), lambda: net.to(dtype=torch.int32),\n"
        "      lambda: net.to('cpu', torch.int64))\n"),
    'load_state_dict_not_tensors': (
        'net = nn.Linear(2, 1)\n'
        "tries(lambda: net.load_state_dict({'weight': [[1., 2.]], 'bias': [0.5]}),\n"
        "      lambda: net.load_state_dict({'weight': [[1., 2.]], 'bias': torch.ones(1)}),\n"
        "      lambda: net.load_state_dict({'weight': 3, 'bias': torch.ones(2)}))\n"
        "print(net.load_state_dict({'weight': torch.ones(1, 2), 'bias': torch.ones(1)}), net.weight)\n"),
    'variable_volatile': (
        'v = torch.autograd.Variable(torch.ones(2))\n'
        'print(v.volatile)\n'
        'print(torch.autograd.Variable(torch.ones(2), volatile=True))\n'),
    'cross_entropy_checks': (
        'x = torch.randn(2, 3); y = torch.tensor([0, 2]); p = torch.rand(2, 3)\n'
        'tries(lambda: F.cross_entropy(x, y, label_smoothing=1.5), lambda: F.cross_entropy(x, y, labe'
        'l_smoothing=2.0),\n'
        '      lambda: F.cross_entropy(x, y, label_smoothing=-0.5), lambda: F.cross_entropy(x, p, lab'
        'el_smoothing=1.5),\n'
        '      lambda: F.cross_entropy(x, p, label_smoothing=-0.5), lambda: F.cross_entropy(x, p, ignore_index=1),\n'
        '      lambda: F.cross_entropy(x, p, ignore_index=0), lambda: F.cross_entropy(x, p, ignore_in'
        'dex=1, label_smoothing=3),\n'
        '      lambda: F.cross_entropy(x, y, label_smoothing=1.23456789), lambda: F.cross_entropy(x, '
        'p.long(), ignore_index=1),\n'
        '      lambda: nn.CrossEntropyLoss(label_smoothing=1.5)(x, y), lambda: nn.CrossEntropyLoss(ig'
        'nore_index=1)(x, p))\n'),
    'samplers': (
        'ds = data.TensorDataset(torch.arange(10.), torch.arange(10))\n'
        'for s in [data.SequentialSampler(ds), data.RandomSampler(ds), data.RandomSampler(ds, replacement=True),\n'
        '          data.RandomSampler(ds, num_samples=25), data.RandomSampler(ds, replacement=True, num_samples=70),\n'
        '          data.SubsetRandomSampler([3, 5, 7, 9]), data.WeightedRandomSampler([0.1, 0.5, 0.2, 0.2], 12),\n'
        '          data.WeightedRandomSampler([0.1, 0.5, 0.2, 0.2], 3, replacement=False),\n'
        '          data.BatchSampler(data.SequentialSampler(range(10)), 3, False), data.BatchSampler('
        'range(10), 3, True),\n'
        '          data.BatchSampler(data.RandomSampler(range(7)), 2, False)]:\n'
        '    print(type(s).__name__, list(s), list(s), len(s))\n'
        'print(torch.randn(2))\n'),
    'sampler_generators_and_checks': (
        'g = torch.Generator().manual_seed(5)\n'
        'print(list(data.RandomSampler(range(6), generator=g)), list(data.SubsetRandomSampler(range(4'
        '), generator=g)),\n'
        '      list(data.WeightedRandomSampler([1., 2., 3.], 5, generator=g)))\n'
        'tries(lambda: data.RandomSampler(range(3), replacement=1), lambda: data.RandomSampler(range('
        '3), num_samples=0),\n'
        '      lambda: data.RandomSampler([]), lambda: data.WeightedRandomSampler([1., 2.], 0),\n'
        '      lambda: data.WeightedRandomSampler([1., 2.], 2, replacement=0), lambda: data.WeightedR'
        'andomSampler([[1., 2.]], 2),\n'
        '      lambda: data.WeightedRandomSampler([1., 2.], True), lambda: data.BatchSampler(range(3), 0, False),\n'
        '      lambda: data.BatchSampler(range(3), 2, 1), lambda: data.BatchSampler(range(3), 2.0, False),\n'
        '      lambda: next(iter(data.WeightedRandomSampler([1., 2.], 3, replacement=False))))\n'),
    'concat_and_subset': (
        'a = data.TensorDataset(torch.arange(4.))\n'
        'b = data.TensorDataset(torch.arange(10., 13.))\n'
        'c = data.ConcatDataset([a, b])\n'
        'print(len(c), c[0], c[3], c[4], c[6], c[-1], c[-7], c.cumulative_sizes, len(a + b), (a + b)[5])\n'
        'tries(lambda: c[7], lambda: c[-8], lambda: data.ConcatDataset([]), lambda: data.Subset(c, [6, 0, 2])[0],\n'
        '      lambda: len(data.Subset(c, [6, 0, 2])))\n'
        'for batch in data.DataLoader(c, batch_size=3, shuffle=True):\n'
        '    print(batch)\n'
        'for batch in data.DataLoader(data.Subset(c, [6, 0, 2, 5]), batch_size=3):\n'
        '    print(batch)\n'),
    'iterable_dataset': (
        'class Stream(data.IterableDataset):\n'
        '    def __init__(self, n): self.n = n\n'
        '    def __iter__(self): return iter(range(self.n))\n'
        '    def __len__(self): return self.n\n'
        'for kw in [dict(batch_size=3), dict(batch_size=3, drop_last=True), dict(batch_size=None), dict()]:\n'
        '    dl = data.DataLoader(Stream(7), **kw)\n'
        '    print(list(dl), len(dl))\n'
        'print(list(data.DataLoader(Stream(3) + Stream(2), batch_size=2)), len(Stream(3) + Stream(2)))\n'
        'tries(lambda: data.DataLoader(Stream(3), shuffle=True), lambda: data.DataLoader(Stream(3), s'
        'huffle=False) and 1,\n'
        '      lambda: data.ConcatDataset([Stream(2)]),\n'
        '      lambda: list(data.ChainDataset([Stream(2), data.TensorDataset(torch.ones(2))])))\n'
        'print(torch.randn(2))\n'),
    'dataloader_samplers': (
        'ds = data.TensorDataset(torch.arange(10.))\n'
        'dl = data.DataLoader(ds, batch_sampler=data.BatchSampler(data.RandomSampler(ds), 4, False))\n'
        'print(list(dl), len(dl))\n'
        'dl = data.DataLoader(ds, sampler=data.SubsetRandomSampler([1, 2, 3, 8]), batch_size=3)\n'
        'print(list(dl), len(dl))\n'
        'dl = data.DataLoader(ds, sampler=data.WeightedRandomSampler(torch.ones(10), 5), batch_size=2)\n'
        'print(list(dl), len(dl))\n'
        'dl = data.DataLoader(ds, batch_size=None, sampler=[3, 1])\n'
        'print(list(dl), len(dl))\n'
        'tries(lambda: data.DataLoader(ds, batch_sampler=data.BatchSampler(range(3), 2, False), batch_size=2),\n'
        '      lambda: data.DataLoader(ds, batch_sampler=data.BatchSampler(range(3), 2, False), shuffle=True),\n'
        '      lambda: data.DataLoader(ds, batch_size=None, drop_last=True), lambda: data.DataLoader('
        'ds, sampler=[1], shuffle=True),\n'
        '      lambda: data.DataLoader(ds, batch_size=0), lambda: data.DataLoader(ds, batch_size=-1),\n'
        '      lambda: type(data.DataLoader(ds).sampler).__name__,\n'
        '      lambda: type(data.DataLoader(ds, shuffle=True).sampler).__name__,\n'
        '      lambda: data.DataLoader(ds, batch_size=4).batch_sampler.batch_size)\n'),
    'stack_dataset': (
        'ds = data.TensorDataset(torch.arange(10.))\n'
        'tries(lambda: data.StackDataset(ds, ds)[1], lambda: data.StackDataset(x=ds, y=range(10))[2],\n'
        '      lambda: data.StackDataset(ds, range(3)), lambda: data.StackDataset(), lambda: data.Sta'
        'ckDataset(ds, y=ds),\n'
        '      lambda: list(data.DataLoader(data.StackDataset(x=ds, y=range(10)), batch_size=4))[0],\n'
        '      lambda: data.Sampler, lambda: data.RandomSampler, lambda: data.IterableDataset, lambda'
        ': data.ConcatDataset)\n'),
})
SNIPPETS['optim_old_ones_refactored'] = RUN + SNIPPETS['optim_old_ones_refactored']


@pytest.mark.parametrize("name", sorted(SNIPPETS))
def test_snippet(name):
    """Printed text, warnings and the final error are identical (addresses and C++ locations blanked)."""
    code = SHOW + HEAD + SNIPPETS[name]
    t, e = run_both(T, E, code)
    assert same(t, e), f"\n{code}\n--- torch\n{t.summary()}--- engine\n{e.summary()}"
