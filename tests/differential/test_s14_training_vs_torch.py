"""What learners print around training code, against real PyTorch: module reprs (layers, containers, custom
modules), parameters / named_* / state_dict and load_state_dict (results and errors), train/eval and freezing,
optimizers (printing, param_groups, state after steps), lr schedulers, DataLoader batching (default_collate and
default_convert), torch.save / torch.load round trips, gradient clipping, apply and deepcopy. Weights are set
explicitly: the engine's random numbers differ from PyTorch's."""
import pytest

T = pytest.importorskip("torch", reason="differential tests need real PyTorch (pip install torch==2.13.0)")
from .harness import load_engine, run_both, same  # noqa: E402

E = load_engine()

INIT = ('def init(m):\n'
        '    with torch.no_grad():\n'
        '        for p in m.parameters(): p.copy_(torch.linspace(-1, 1, p.numel()).view_as(p))\n')

SNIPPETS = {
    "layer_reprs": (
        'import torch.nn as nn\n'
        'print(nn.Linear(3, 4), nn.Linear(3, 4, bias=False))\n'
        "print(nn.Conv1d(2, 4, 3, stride=2, padding=1, dilation=2, groups=2, bias=False, padding_mode='reflect'))\n"
        "print(nn.Conv2d(3, 8, (3, 5), padding='same'), nn.ConvTranspose2d(3, 8, 3, stride=2, output_padding=1))\n"
        'print(nn.BatchNorm1d(4), nn.BatchNorm2d(3, eps=1e-3, momentum=None, affine=False, track_running_stats=False))\n'
        'print(nn.LayerNorm(5), nn.LayerNorm([2, 3], elementwise_affine=False), nn.Dropout(0.3, inplace=True))\n'
        'print(nn.Embedding(10, 3, padding_idx=0), nn.Embedding(10, 3, max_norm=1.0, scale_grad_by_freq=True))\n'
        "print(nn.RNN(3, 4, num_layers=2, nonlinearity='relu', batch_first=True, dropout=0.5, bidirectional=True),\n"
        '      nn.LSTM(3, 4, 2, batch_first=True), nn.GRU(3, 4, bidirectional=True), nn.LSTMCell(3, 4))\n'
        'print(nn.ReLU(inplace=True), nn.Softmax(dim=1), nn.Softmax(), nn.LeakyReLU(0.2), nn.GELU(approximate="tanh"))\n'
        'print(nn.Flatten(), nn.Unflatten(1, (2, 3)), nn.Identity(3, foo=4), nn.MaxPool2d(3, 1, 1, ceil_mode=True))\n'
        'print(nn.AvgPool1d(3, 2, 1), nn.AdaptiveAvgPool2d((1, 1)), nn.CrossEntropyLoss(label_smoothing=0.1))'),
    "container_and_custom_reprs": (
        'import torch.nn as nn\n'
        'from collections import OrderedDict\n'
        'print(nn.Sequential(nn.Linear(2, 3), nn.ReLU(), nn.Sequential(nn.Linear(3, 3), nn.Tanh()), nn.Linear(3, 1)))\n'
        "m2 = nn.Sequential(OrderedDict([('fc1', nn.Linear(2, 3)), ('act', nn.ReLU()), ('fc2', nn.Linear(3, 1))]))\n"
        'print(m2, m2.fc1, m2[-1], m2[1:])\n'
        'print(nn.ModuleList([nn.Linear(2, 2), nn.Linear(2, 2), nn.ReLU()]), nn.ModuleDict({"a": nn.ReLU()}))\n'
        'class Net(nn.Module):\n'
        '    def __init__(self):\n'
        '        super().__init__()\n'
        '        self.conv = nn.Conv2d(1, 2, 3)\n'
        '        self.heads = nn.ModuleList([nn.Linear(4, 1), nn.Linear(4, 1)])\n'
        '        self.scale = nn.Parameter(torch.ones(1))\n'
        "        self.register_buffer('count', torch.zeros(1))\n"
        '    def extra_repr(self): return "k=3\\nz=4"\n'
        'print(Net())\n'
        's = nn.Sequential(nn.Linear(1, 2)); s.append(nn.ReLU()); s.insert(1, nn.Dropout()); del s[1]; print(s)'),
    "named_parameters_modules_buffers_state_dict": (
        'import torch.nn as nn\n' + INIT +
        'm = nn.Sequential(nn.Linear(2, 3), nn.BatchNorm1d(3), nn.Linear(3, 1)); init(m)\n'
        'print(list(m.parameters()))\n'
        'for n, p in m.named_parameters(): print(n, p.shape, p.requires_grad)\n'
        "print([n for n, _ in m.named_modules()], list(m.named_children()), list(m.named_buffers()))\n"
        'print(m.state_dict())\n'
        'print(sum(p.numel() for p in m.parameters()), sum(p.numel() for p in m.parameters() if p.requires_grad))\n'
        'print(m.state_dict(keep_vars=True)["0.bias"])'),
    "load_state_dict_results_and_errors": (
        'import torch.nn as nn\n'
        'm = nn.Sequential(nn.Linear(2, 3), nn.Linear(3, 1)); m2 = nn.Sequential(nn.Linear(2, 3), nn.Linear(3, 1))\n'
        'print(m2.load_state_dict(m.state_dict()))\n'
        "sd = m.state_dict(); sd['extra'] = torch.ones(1); del sd['0.bias']\n"
        'r = m2.load_state_dict(sd, strict=False); print(r, r.missing_keys, r.unexpected_keys)\n'
        'for f in [lambda: m2.load_state_dict(sd), lambda: nn.Linear(3, 3).load_state_dict(nn.Linear(2, 3).state_dict()),\n'
        "          lambda: nn.Linear(2, 3).load_state_dict({'weight': [1, 2], 'bias': torch.ones(3)}),\n"
        '          lambda: nn.Linear(2, 3).load_state_dict([1, 2])]:\n'
        '    try:\n'
        '        f()\n'
        '    except Exception as e:\n'
        '        print(type(e).__name__, e)'),
    "train_eval_freeze_zero_grad": (
        'import torch.nn as nn\n'
        'm = nn.Sequential(nn.Linear(2, 1), nn.Dropout(0.5))\n'
        'print(m.training, m.eval() is m, [x.training for x in m.modules()]); m.train(); print(m[1].training)\n'
        'print(m.requires_grad_(False), [p.requires_grad for p in m.parameters()]); m.requires_grad_()\n'
        'nn.init.constant_(m[0].weight, 1.); nn.init.zeros_(m[0].bias)\n'
        'm[0](torch.ones(3, 2)).sum().backward(); print(m[0].weight.grad); m.zero_grad(); print(m[0].weight.grad)\n'
        'opt = torch.optim.SGD(m.parameters(), lr=0.1)\n'
        'm[0](torch.ones(3, 2)).sum().backward(); opt.zero_grad(set_to_none=False); print(m[0].weight.grad)'),
    "module_assignment_errors": (
        'import torch.nn as nn\n'
        'class Net(nn.Module):\n'
        '    def __init__(self):\n'
        '        self.fc = nn.Linear(1, 1)\n'
        'class Net2(nn.Module):\n'
        '    def __init__(self):\n'
        '        self.w = nn.Parameter(torch.ones(1))\n'
        'def bad_param():\n'
        '    m = nn.Linear(2, 2); m.weight = torch.ones(2, 2)\n'
        'for f in [Net, Net2, bad_param, lambda: nn.Linear(3, 2)(torch.ones(4, 2)),\n'
        '          lambda: nn.Conv2d(3, 2, 3)(torch.ones(1, 1, 5, 5)), lambda: nn.BatchNorm1d(3)(torch.ones(1, 3)),\n'
        '          lambda: nn.Linear(2, 3)(torch.ones(2, 2, dtype=torch.float64)), lambda: nn.Sequential(nn.Linear(1, 1))[3]]:\n'
        '    try:\n'
        '        f()\n'
        '    except Exception as e:\n'
        '        print(type(e).__name__, e)'),
    "optimizer_reprs_and_state": (
        'import torch.nn as nn\n'
        'm = nn.Linear(2, 1); nn.init.constant_(m.weight, 0.5); nn.init.constant_(m.bias, -0.2)\n'
        'for cls in [torch.optim.Adam, torch.optim.AdamW, torch.optim.RMSprop, torch.optim.Adagrad]:\n'
        '    print(cls(m.parameters()))\n'
        'print(torch.optim.SGD([{"params": m.weight}, {"params": m.bias, "lr": 0.01}], lr=0.1, momentum=0.9))\n'
        'for cls, kw in [(torch.optim.SGD, {"lr": 0.1, "momentum": 0.9}), (torch.optim.Adam, {"amsgrad": True}),\n'
        '                (torch.optim.RMSprop, {"centered": True, "momentum": 0.5}), (torch.optim.Adagrad, {})]:\n'
        '    o = cls(m.parameters(), **kw)\n'
        '    for _ in range(2):\n'
        '        o.zero_grad(); ((m(torch.tensor([[1., 2.], [-1., 0.5]])) - 1) ** 2).mean().backward(); o.step()\n'
        '    print(o.state_dict()); print(m.weight, m.bias)\n'
        'o.add_param_group({"params": nn.Linear(1, 1).parameters(), "lr": 0.5}); print(o, len(o.param_groups))'),
    "optimizer_argument_errors": (
        'p = [torch.ones(1, requires_grad=True)]\n'
        "for n in ['SGD', 'Adam', 'AdamW', 'Adagrad']:\n"
        '    for kw in [dict(fused=True, foreach=True), dict(fused=True, differentiable=True), dict(lr=float("nan")),\n'
        '               dict(lr="a"), dict(lr=-1.), dict(weight_decay=float("nan"))]:\n'
        "        kw.setdefault('lr', 0.1)\n"
        '        try:\n'
        '            print(n, kw, getattr(torch.optim, n)(p, **kw).defaults["lr"])\n'
        '        except Exception as e:\n'
        '            print(n, kw, type(e).__name__, e)'),
    "lr_schedulers_over_epochs": (
        'import torch.nn as nn\n'
        'from torch.optim import lr_scheduler\n'
        'for name, f in [("step", lambda o: lr_scheduler.StepLR(o, step_size=2, gamma=0.5)),\n'
        '                ("multistep", lambda o: lr_scheduler.MultiStepLR(o, milestones=[2, 4], gamma=0.1)),\n'
        '                ("exp", lambda o: lr_scheduler.ExponentialLR(o, gamma=0.9)),\n'
        '                ("cos", lambda o: lr_scheduler.CosineAnnealingLR(o, T_max=3, eta_min=0.01)),\n'
        '                ("lambda", lambda o: lr_scheduler.LambdaLR(o, lr_lambda=lambda e: 0.95 ** e))]:\n'
        '    o = torch.optim.SGD(nn.Linear(1, 1).parameters(), lr=0.1); s = f(o); out = [s.get_last_lr()]\n'
        '    for ep in range(6):\n'
        '        o.step(); s.step(); out.append(s.get_last_lr())\n'
        '    print(name, out, o.param_groups[0]["lr"])\n'
        'o = torch.optim.SGD(nn.Linear(1, 1).parameters(), lr=0.1)\n'
        's = lr_scheduler.ReduceLROnPlateau(o, patience=1, factor=0.5)\n'
        'for loss in [1.0, 0.9, 0.95, 0.96, 0.97, 0.98]:\n'
        '    o.step(); s.step(loss); print(s.get_last_lr(), s.num_bad_epochs, s.best)\n'
        'o = torch.optim.SGD(nn.Linear(1, 1).parameters(), lr=0.1); s = lr_scheduler.StepLR(o, 1)\n'
        's.step(); print(s.get_last_lr())'),
    "dataloader_batches": (
        'from torch.utils.data import TensorDataset, DataLoader\n'
        'X = torch.arange(20.).view(10, 2); y = torch.arange(10)\n'
        'ds = TensorDataset(X, y); print(len(ds), ds[0], ds[3:5])\n'
        'dl = DataLoader(ds, batch_size=4); print(len(dl), len(DataLoader(ds, batch_size=4, drop_last=True)))\n'
        'for xb, yb in dl: print(xb.shape, yb)\n'
        'it = iter(dl); print(it, len(it)); b = next(it); print(type(b), b[0].dtype, b[1].dtype)\n'
        'print([xb.shape for xb, _ in DataLoader(ds, batch_size=3, shuffle=True)])'),
    "dataloader_option_errors": (
        'from torch.utils.data import DataLoader, TensorDataset\n'
        'ds = TensorDataset(torch.ones(10, 3))\n'
        'for kw in [dict(num_workers=-1), dict(prefetch_factor=2), dict(num_workers=2, prefetch_factor=-1),\n'
        '           dict(timeout=-1), dict(persistent_workers=True), dict(batch_size=2.5), dict(batch_size=None)]:\n'
        '    try:\n'
        '        print(len(DataLoader(ds, **kw)))\n'
        '    except Exception as e:\n'
        '        print(kw, type(e).__name__, e)'),
    "collate_and_convert_keep_types": (
        'from torch.utils.data import DataLoader, default_collate, default_convert\n'
        'from collections import OrderedDict, namedtuple\n'
        'import numpy as np\n'
        "P = namedtuple('P', 'x y')\n"
        'print(list(DataLoader([P(1, 2.0), P(3, 4.0)], batch_size=2)))\n'
        'print(default_collate([OrderedDict(a=1, b=2.0), OrderedDict(a=3, b=4.0)]))\n'
        "print(list(DataLoader([{'a': 1, 'n': 'x'}, {'a': 3, 'n': 'y'}], batch_size=2)))\n"
        "for s in [np.int64(3), np.float32(2.5), np.bool_(True), [np.ones(2), 1], np.array(['a', 'b']), (np.ones(1),),\n"
        "          OrderedDict(a=np.zeros(1)), np.array([1, 2], dtype=object), 'abc', P(np.ones(1), 2)]:\n"
        '    print(repr(default_convert(s)))\n'
        'class DS:\n'
        '    def __len__(self): return 3\n'
        '    def __getitem__(self, i): return np.ones(2) * i, np.int64(i)\n'
        'print(list(DataLoader(DS(), batch_size=None)), list(DataLoader(DS(), batch_size=2)))'),
    "save_load_round_trip": (
        'import io\n'
        'import torch.nn as nn\n' + INIT +
        'm = nn.Sequential(nn.Linear(2, 2), nn.ReLU()); init(m)\n'
        'buf = io.BytesIO(); torch.save(m.state_dict(), buf); buf.seek(0); sd = torch.load(buf); print(sd)\n'
        'm2 = nn.Sequential(nn.Linear(2, 2), nn.ReLU()); print(m2.load_state_dict(sd), m2[0].weight)\n'
        'opt = torch.optim.Adam(m.parameters(), lr=0.01)\n'
        'm(torch.tensor([[1., 2.], [3., 5.]])).sum().backward(); opt.step()\n'
        'buf = io.BytesIO(); torch.save({"epoch": 3, "opt": opt.state_dict()}, buf); buf.seek(0)\n'
        'ck = torch.load(buf, weights_only=True); print(ck)\n'
        'opt2 = torch.optim.Adam(m.parameters(), lr=0.5); opt2.load_state_dict(ck["opt"]); print(opt2)'),
    "clip_grad_norm_apply_deepcopy": (
        'import copy\n'
        'import torch.nn as nn\n'
        'm = nn.Linear(3, 1); nn.init.constant_(m.weight, 1.); nn.init.zeros_(m.bias)\n'
        'm(torch.tensor([[3., 4., 12.]])).sum().backward()\n'
        'print(nn.utils.clip_grad_norm_(m.parameters(), max_norm=1.0), m.weight.grad)\n'
        'print(nn.utils.clip_grad_norm(m.parameters(), 0.5), m.weight.grad)\n'
        "print(nn.utils.clip_grad_norm_(m.parameters(), 1., norm_type=float('inf')), nn.utils.clip_grad_norm_([], 1.))\n"
        'def init_w(mod):\n'
        '    print("visit", type(mod).__name__)\n'
        '    if isinstance(mod, nn.Linear): nn.init.constant_(mod.weight, 0.25); nn.init.zeros_(mod.bias)\n'
        'net = nn.Sequential(nn.Linear(2, 2), nn.ReLU()); print(net.apply(init_w) is net)\n'
        'net(torch.ones(1, 2)).sum().backward()\n'
        'c = copy.deepcopy(net); print(c, c[0].weight, c[0].weight is net[0].weight, c[0].weight.grad, net[0].weight.grad)\n'
        'p = nn.Parameter(torch.ones(2)); p.grad = torch.ones(2); q = copy.deepcopy(p); print(type(q).__name__, q.grad)\n'
        't = torch.ones(2, requires_grad=True); t.grad = torch.ones(2); print(copy.deepcopy(t).grad)'),
}


@pytest.mark.parametrize("name", SNIPPETS)
def test_snippet(name):
    code = SNIPPETS[name]
    t, e = run_both(T, E, code)
    assert same(t, e), f"\n{code}\n--- torch\n{t.summary()}--- engine\n{e.summary()}"
