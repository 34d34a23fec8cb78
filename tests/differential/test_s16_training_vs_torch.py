"""Training loops as tutorials write them, against real PyTorch: random_split with a generator, DataLoader batches of
numpy scalars, gradient clipping with no gradients, legacy reduction names, pos_weight broadcasting, nn.init's fill
errors and fan helpers, and the losses blog posts reach for beyond MSE and cross-entropy (cosine embedding,
triplet margin, Poisson / Gaussian NLL, soft margin, multi-label soft margin). Printed text, warnings and the final
error must be the same."""
import pytest

T = pytest.importorskip("torch", reason="differential tests need real PyTorch (pip install torch==2.13.0)")
from .harness import TRIES, load_engine, run_both, same  # noqa: E402

E = load_engine()

SNIPPETS = {
    "random_split_with_a_generator": (
        'from torch.utils.data import TensorDataset, random_split\n'
        'ds = TensorDataset(torch.arange(10.))\n'
        'a, b = random_split(ds, [0.8, 0.2], generator=torch.Generator().manual_seed(42))\n'
        'print(a.indices, b.indices, len(a), a[0])\n'
        'print([s.indices for s in random_split(range(4), [0.9, 0.1, 0.0])])\n'
        'random_split(range(4), [1.5, -0.5])'),
    "collate_numpy_scalars_and_string_arrays": (
        'import numpy as np\n'
        'from torch.utils.data import DataLoader\n'
        'for data in [[np.float32(1.), np.float32(2.)], [np.int32(1), np.int32(2)], [np.bool_(True), np.bool_(False)],\n'
        '             [(np.float32(1), 2), (np.float32(3), 4)]]:\n'
        '    print(list(DataLoader(data, batch_size=2)))\n'
        "list(DataLoader([np.array(['a']), np.array(['b'])], batch_size=2))"),
    "clip_grad_value_without_gradients": (
        TRIES +
        'w = torch.tensor([3., 4.], requires_grad=True)\n'
        'tries(lambda: torch.nn.utils.clip_grad_value_([w], 1.0), lambda: torch.nn.utils.clip_grad_value_([], 1.0))\n'
        '(w * w).sum().backward()\n'
        'print(torch.nn.utils.clip_grad_value_(w, 2.5), w.grad)'),
    "elementwise_mean_reduction": (
        'import torch.nn.functional as F\n'
        'a, b = torch.tensor([1., 2.]), torch.tensor([0., 4.])\n'
        "print(F.mse_loss(a, b, reduction='elementwise_mean'), F.l1_loss(a, b, reduction='elementwise_mean'))\n"
        "print(torch.nn.CrossEntropyLoss(reduction='elementwise_mean')(torch.ones(2, 3), torch.tensor([0, 1])))"),
    "bce_with_logits_pos_weight_broadcast": (
        TRIES +
        'x = torch.tensor([[0.2, 0.8], [0.6, 0.4]], requires_grad=True)\n'
        'L = torch.nn.BCEWithLogitsLoss\n'
        'tries(lambda: L(pos_weight=torch.tensor([1., 2., 3.]))(x, torch.ones(2, 2)),\n'
        '      lambda: L(pos_weight=torch.ones(2, 1, 2))(x, torch.ones(2, 2)),\n'
        '      lambda: L(pos_weight=torch.tensor([[1.], [3.]]))(x, torch.ones(2, 2)))'),
    "init_fill_errors_and_fan_helpers": (
        TRIES +
        'import torch.nn as nn\n'
        "tries(lambda: nn.init.constant_(torch.empty(2), 'a'), lambda: nn.init.zeros_([1., 2.]),\n"
        '      lambda: nn.init._calculate_fan_in_and_fan_out(torch.empty(2, 3, 4)),\n'
        '      lambda: nn.init._calculate_fan_in_and_fan_out(torch.empty(2)),\n'
        "      lambda: nn.init._calculate_correct_fan(torch.empty(2, 3), 'fan_out'))\n"
        'lin = nn.Linear(2, 2)\n'
        'print(nn.init.ones_(lin.weight), lin.weight._version, nn.init.constant_(lin.bias, torch.tensor(0.5)))'),
    "cosine_embedding_and_triplet_margin_losses": (
        'import torch.nn as nn\n'
        'x = torch.tensor([[1., 2., 0.5], [0.3, -1., 2.]], requires_grad=True)\n'
        'y = torch.tensor([[0., 2., 1.], [1., 1., 1.]])\n'
        "for red in ['mean', 'none']:\n"
        '    l = nn.CosineEmbeddingLoss(margin=-0.5, reduction=red)(x, y, torch.tensor([1, -1]))\n'
        '    print(l, torch.autograd.grad(l.sum(), x))\n'
        '    l = nn.TripletMarginLoss(margin=3., swap=True, reduction=red)(x, y, x.flip(0))\n'
        '    print(l, l.grad_fn.next_functions, torch.autograd.grad(l.sum(), x))\n'
        'print(nn.CosineEmbeddingLoss(), nn.TripletMarginLoss, nn.functional.cosine_embedding_loss(x[0], y[0], torch.tensor(1)))\n'
        'nn.functional.cosine_embedding_loss(x, y, torch.tensor(1))'),
    "poisson_gaussian_and_soft_margin_losses": (
        'import torch.nn as nn\n'
        'x = torch.tensor([[1., 2., 0.5], [0.3, -1., 2.]], requires_grad=True)\n'
        'y = torch.tensor([[0., 2., 1.], [1., 1., 3.]])\n'
        'for l in [nn.PoissonNLLLoss()(x, y), nn.PoissonNLLLoss(log_input=False, full=True)(x.abs(), y),\n'
        '          nn.GaussianNLLLoss()(x, y, torch.full((2,), 0.5)), nn.GaussianNLLLoss(full=True)(x, y, torch.ones(2, 3)),\n'
        '          nn.SoftMarginLoss()(x, torch.tensor([[1., -1., 1.], [-1., -1., 1.]])),\n'
        '          nn.MultiLabelSoftMarginLoss(weight=torch.tensor([1., 2., 3.]))(x, (y > 1).float())]:\n'
        '    print(l, l.grad_fn, torch.autograd.grad(l, x))\n'
        'l = nn.functional.soft_margin_loss(x, torch.ones(2, 3), reduction="none")\n'
        'g, = torch.autograd.grad(l.sum(), x, create_graph=True)\n'
        'print(g, torch.autograd.grad(g.sum(), x))\n'
        'nn.SoftMarginLoss()(x, torch.ones(2, 3, requires_grad=True))'),
    "dataloader_options_and_frozen_attributes": (
        TRIES +
        'from torch.utils.data import DataLoader, TensorDataset\n'
        'ds = TensorDataset(torch.arange(6.))\n'
        "tries(lambda: DataLoader(ds, multiprocessing_context='spawn'), lambda: list(DataLoader(ds, 4, pin_memory=True)))\n"
        'dl = DataLoader(ds, batch_size=4)\n'
        'print(dl.pin_memory, dl.timeout, dl.prefetch_factor, dl.worker_init_fn, dl.persistent_workers)\n'
        'dl.batch_size = 2'),
    "optimizer_load_state_dict_fills_missing_options": (
        'for cls in [torch.optim.SGD, torch.optim.Adam, torch.optim.AdamW, torch.optim.RMSprop, torch.optim.Adagrad]:\n'
        '    w = torch.tensor([1., 2.], requires_grad=True)\n'
        '    o = cls([w], lr=0.1)\n'
        "    o.load_state_dict({'state': {}, 'param_groups': [{'lr': 0.5, 'params': [0]}]})\n"
        '    print(o.state_dict())'),
    "class_weight_checks_of_nll_and_cross_entropy": (
        TRIES +
        'import torch.nn.functional as F\n'
        'x = torch.tensor([[1., 2., 3.], [1., -1., 0.]], requires_grad=True)\n'
        'tp, t = torch.tensor([[0.2, 0.3, 0.5], [1., 0., 0.]]), torch.tensor([2, 0])\n'
        'x3, t3 = torch.arange(12.).reshape(2, 3, 2), torch.tensor([[0, 2], [1, 1]])\n'
        'tries(lambda: F.cross_entropy(x, t, weight=torch.tensor([1., 2., 3.], dtype=torch.float64)),\n'
        '      lambda: F.nll_loss(x, t, weight=torch.tensor([1, 2, 3])),\n'
        '      lambda: F.nll_loss(x, t, weight=torch.tensor([[1., 2., 3.]])),\n'
        '      lambda: F.cross_entropy(x, tp, weight=torch.tensor([1., 2.])),\n'
        '      lambda: F.cross_entropy(x, tp, weight=torch.tensor([1, 2, 3])),\n'
        '      lambda: F.cross_entropy(x3, t3, weight=torch.tensor([[1., 2., 3.]])),\n'
        '      lambda: F.cross_entropy(x, t, weight=torch.tensor([1., 2., 3.], dtype=torch.float64), label_smoothing=0.2))'),
    "lazy_linear_as_d2l_uses_it": (
        TRIES +
        'import torch.nn as nn\n'
        'net = nn.Sequential(nn.Flatten(), nn.LazyLinear(4), nn.ReLU(), nn.LazyLinear(2))\n'
        'print(net, net[1].weight, type(net[1].weight), net[1].weight.size())\n'
        'tries(lambda: net[1].weight.shape, lambda: sum(p.numel() for p in net.parameters()),\n'
        '      lambda: nn.init.xavier_uniform_(net[1].weight), lambda: nn.init.zeros_(net[1].bias))\n'
        'opt = torch.optim.SGD(net.parameters(), lr=0.1)\n'
        'out = net(torch.rand(2, 1, 3))\n'
        'print(out, net, type(net[1]), type(net[1].weight), net[1].weight, net[3].bias)\n'
        'out.sum().backward(); opt.step()\n'
        'print(net[3].bias, opt.param_groups[0]["params"][3] is net[3].bias, list(net.state_dict()))'),
    "lazy_conv_and_batch_norm_lenet": (
        'import torch.nn as nn\n'
        'net = nn.Sequential(nn.LazyConv2d(6, kernel_size=5, padding=2), nn.LazyBatchNorm2d(), nn.Sigmoid(),\n'
        '                    nn.AvgPool2d(kernel_size=2, stride=2), nn.Flatten(), nn.LazyLinear(10), nn.LazyBatchNorm1d())\n'
        'print(net, net[0].weight, net[1].running_mean, net[1].state_dict())\n'
        'X = torch.rand(size=(2, 1, 8, 8))\n'
        'for layer in net:\n'
        '    X = layer(X)\n'
        "    print(layer.__class__.__name__, 'output shape:', X.shape)\n"
        'print(net, net[0].bias, net[1].running_var, net[6].num_batches_tracked, X)'),
    "imports_from_the_files_pytorch_defines_classes_in": (
        'from torch.nn.modules.loss import _Loss\n'
        'from torch.nn.modules.module import Module\n'
        'from torch.nn.modules.batchnorm import _BatchNorm\n'
        'from torch.optim.optimizer import Optimizer\n'
        'from torch.optim.adam import Adam\n'
        'from torch.utils.data.dataset import Dataset, TensorDataset\n'
        'from torch.utils.data.sampler import RandomSampler\n'
        'class Dice(_Loss):\n'
        '    def forward(self, a, b):\n'
        "        return ((a - b) ** 2).mean() if self.reduction == 'mean' else ((a - b) ** 2).sum()\n"
        "print(Dice()(torch.ones(2), torch.zeros(2)), Dice(reduction='sum')(torch.ones(2), torch.zeros(2)), Dice())\n"
        'print(Module, _BatchNorm, Optimizer, Adam, Dataset, TensorDataset, RandomSampler, torch.nn.modules.Linear)'),
    "differentiable_step_updates_a_leaf_in_place": (
        'w = torch.tensor([1., 2.], requires_grad=True)\n'
        'opt = torch.optim.Adam([w], lr=0.1, differentiable=True)\n'
        'print(opt.step())\n'
        '(w * w).sum().backward()\n'
        'with torch.no_grad():\n'
        '    opt.step()'),
    "load_devices_sets_and_an_exhausted_buffer": (
        TRIES +
        'import io\n'
        'buf = io.BytesIO()\n'
        "torch.save({'device': torch.device('cpu'), 'tags': {3}, 'z': 1 + 2j, 'w': torch.ones(2)}, buf)\n"
        'buf.seek(0)\n'
        'print(torch.load(buf))\n'
        'buf = io.BytesIO()\n'
        'torch.save(torch.ones(2), buf)              # (and loaded without buf.seek(0))\n'
        'tries(lambda: torch.load(buf), lambda: torch.load(buf, weights_only=False))'),
}


@pytest.mark.parametrize("name", SNIPPETS)
def test_snippet(name):
    code = SNIPPETS[name]
    t, e = run_both(T, E, code)
    assert same(t, e), f"\n{code}\n--- torch\n{t.summary()}--- engine\n{e.summary()}"
