"""torch.nn.utils.prune against real PyTorch: the pruning tutorial and variants of it. Pruning a tensor moves the
parameter to name_orig, adds the buffer name_mask and a forward pre-hook (the method) that makes name as
name_orig * name_mask; named_parameters / named_buffers / state_dict order, the masks each method computes (the
random ones drawing the same numbers), repeated pruning in a PruningContainer, global pruning, remove, and the
errors word for word. Hook ids are printed relative to a handle made first (they count across the process)."""
import pytest

T = pytest.importorskip("torch", reason="differential tests need real PyTorch (pip install torch==2.13.0)")
from .harness import SHOW, load_engine, run_both, same  # noqa: E402

E = load_engine()

SNIPPETS = {
    # the pruning tutorial on LeNet's conv1: random_unstructured then l1_unstructured on the bias, named
    # parameters / buffers, the pruned weight (MulBackward0), the hooks; ln_structured on top makes a PruningContainer
    "tutorial_lenet_conv1": (
        'import torch.nn as nn\n'
        'import torch.nn.utils.prune as prune\n'
        '_base = nn.Linear(1, 1).register_forward_pre_hook(print).id + 1\n'
        'def hooks(m):\n'
        '    print({k - _base: v for k, v in m._forward_pre_hooks.items()})\n'
        'import torch.nn.functional as F\n'
        'class LeNet(nn.Module):\n'
        '    def __init__(self):\n'
        '        super(LeNet, self).__init__()\n'
        '        self.conv1 = nn.Conv2d(1, 6, 3)\n'
        '        self.conv2 = nn.Conv2d(6, 16, 3)\n'
        '        self.fc1 = nn.Linear(16 * 5 * 5, 120)\n'
        '        self.fc2 = nn.Linear(120, 84)\n'
        '        self.fc3 = nn.Linear(84, 10)\n'
        '    def forward(self, x):\n'
        '        x = F.max_pool2d(F.relu(self.conv1(x)), (2, 2))\n'
        '        x = F.max_pool2d(F.relu(self.conv2(x)), 2)\n'
        '        x = x.view(-1, int(x.nelement() / x.shape[0]))\n'
        '        return self.fc3(F.relu(self.fc2(F.relu(self.fc1(x)))))\n'
        'model = LeNet()\n'
        'module = model.conv1\n'
        'print(list(module.named_parameters()))\n'
        'print(list(module.named_buffers()))\n'
        'prune.random_unstructured(module, name="weight", amount=0.3)\n'
        'print(list(module.named_parameters()))\n'
        'print(list(module.named_buffers()))\n'
        'print(module.weight)\n'
        'hooks(module)\n'
        'prune.l1_unstructured(module, name="bias", amount=3)\n'
        'print(list(module.named_parameters()))\n'
        'print(list(module.named_buffers()))\n'
        'print(module.bias)\n'
        'hooks(module)\n'
        'prune.ln_structured(module, name="weight", amount=0.5, n=2, dim=0)\n'
        'print(module.weight)\n'
        'for hook in module._forward_pre_hooks.values():\n'
        '    if hook._tensor_name == "weight":\n'
        '        break\n'
        'print(list(hook))\n'
        'print(model.state_dict().keys())\n'
        "prune.remove(module, 'weight')\n"
        'print(list(module.named_parameters()))\n'
        'print(list(module.named_buffers()))\n'
        'hooks(module)\n'
        'print(model(torch.randn(1, 1, 28, 28)))'),
    # pruning every layer of a model in a loop, then global pruning across layers and the sparsities it gives
    "tutorial_many_and_global": (
        'import torch.nn as nn\n'
        'import torch.nn.utils.prune as prune\n'
        'class Net(nn.Module):\n'
        '    def __init__(self):\n'
        '        super().__init__()\n'
        '        self.conv1 = nn.Conv2d(1, 6, 3)\n'
        '        self.conv2 = nn.Conv2d(6, 16, 3)\n'
        '        self.fc1 = nn.Linear(16 * 5 * 5, 120)\n'
        '        self.fc2 = nn.Linear(120, 84)\n'
        '        self.fc3 = nn.Linear(84, 10)\n'
        'new_model = Net()\n'
        'for name, module in new_model.named_modules():\n'
        '    if isinstance(module, torch.nn.Conv2d):\n'
        "        prune.l1_unstructured(module, name='weight', amount=0.2)\n"
        '    elif isinstance(module, torch.nn.Linear):\n'
        "        prune.l1_unstructured(module, name='weight', amount=0.4)\n"
        'print(dict(new_model.named_buffers()).keys())\n'
        'model = Net()\n'
        "parameters_to_prune = ((model.conv1, 'weight'), (model.conv2, 'weight'), (model.fc1, 'weight'),\n"
        "                       (model.fc2, 'weight'), (model.fc3, 'weight'))\n"
        'prune.global_unstructured(parameters_to_prune, pruning_method=prune.L1Unstructured, amount=0.2)\n'
        'for m in (model.conv1, model.conv2, model.fc1, model.fc2, model.fc3):\n'
        '    print("Sparsity: {:.2f}%".format(100. * float(torch.sum(m.weight == 0)) / float(m.weight.nelement())))\n'
        'print(sum(int(torch.sum(m.weight == 0)) for m in (model.conv1, model.conv2, model.fc1, model.fc2, model.fc3)))\n'
        'print([type(h).__name__ for h in model.fc1._forward_pre_hooks.values()], model.fc3.weight_mask[0])'),
    # the tutorial's own pruning method (every other entry of the bias), a forward through the pruned model
    "custom_method_subclass": (
        'import torch.nn as nn\n'
        'import torch.nn.utils.prune as prune\n'
        '_base = nn.Linear(1, 1).register_forward_pre_hook(print).id + 1\n'
        'def hooks(m):\n'
        '    print({k - _base: v for k, v in m._forward_pre_hooks.items()})\n'
        'class FooBarPruningMethod(prune.BasePruningMethod):\n'
        "    PRUNING_TYPE = 'unstructured'\n"
        '    def compute_mask(self, t, default_mask):\n'
        '        mask = default_mask.clone()\n'
        '        mask.view(-1)[::2] = 0\n'
        '        return mask\n'
        'def foobar_unstructured(module, name):\n'
        '    FooBarPruningMethod.apply(module, name)\n'
        '    return module\n'
        'm = nn.Sequential(nn.Linear(4, 6), nn.ReLU(), nn.Linear(6, 5))\n'
        "foobar_unstructured(m[2], name='bias')\n"
        'print(m[2].bias_mask, m[2].bias)\n'
        'print(m(torch.ones(2, 4)))\n'
        'hooks(m[2])\n'
        "foobar_unstructured(m[2], name='bias')\n"
        'print(m[2].bias_mask, [type(h).__name__ for h in list(m[2]._forward_pre_hooks.values())[0]])'),
    # amount: an int >= 0 or a float in [0, 1], checked when the method is made; an int larger than the
    # number of units when the mask is computed (the parameter is put back, last); a tensor is refused
    "amount_validation": (
        'import torch.nn as nn\n'
        'import torch.nn.utils.prune as prune\n'
        'import numpy as np\n'
        'm = nn.Linear(4, 3)\n'
        "tries(lambda: prune.l1_unstructured(m, 'weight', amount=-1),\n"
        "      lambda: prune.l1_unstructured(m, 'weight', amount=1.5),\n"
        "      lambda: prune.l1_unstructured(m, 'weight', amount=-0.1),\n"
        "      lambda: prune.l1_unstructured(m, 'weight', amount='a'),\n"
        "      lambda: prune.l1_unstructured(m, 'weight', amount=None),\n"
        "      lambda: prune.l1_unstructured(m, 'weight', amount=torch.tensor(0.5)),\n"
        "      lambda: prune.l1_unstructured(m, 'weight', amount=torch.tensor([0.5])),\n"
        "      lambda: prune.random_unstructured(m, 'weight', amount=2.0),\n"
        "      lambda: prune.l1_unstructured(m, 'weight', amount=13),\n"
        "      lambda: prune.l1_unstructured(m, 'weight', amount=np.float32(1.5)))\n"
        'print([n for n, _ in m.named_parameters()], list(m.named_buffers()), m._forward_pre_hooks)\n'
        'for amt in (0.0, 1.0, 0.5, 0.3, 0.7, 0.1, 0.9, 1, 5, 0, np.float64(0.5), np.int64(2)):\n'
        '    mm = nn.Linear(5, 1)\n'
        "    prune.l1_unstructured(mm, 'weight', amt)\n"
        '    print(amt, mm.weight_mask.tolist())'),
    # structured pruning needs 2 dims or more, a dim in range and an amount within the channels
    "structured_errors": (
        'import torch.nn as nn\n'
        'import torch.nn.utils.prune as prune\n'
        'm = nn.Linear(4, 3)\n'
        "tries(lambda: prune.random_structured(m, 'bias', amount=1, dim=0),\n"
        "      lambda: prune.ln_structured(m, 'bias', amount=1, n=2, dim=0),\n"
        "      lambda: prune.ln_structured(m, 'weight', amount=1, n=2, dim=2),\n"
        "      lambda: prune.random_structured(m, 'weight', amount=1, dim=5),\n"
        "      lambda: prune.random_structured(m, 'weight', amount=1, dim=-3),\n"
        "      lambda: prune.random_structured(m, 'weight', amount=5, dim=0),\n"
        "      lambda: prune.ln_structured(m, 'weight', amount=5, n=1, dim=-1),\n"
        "      lambda: prune.ln_structured(nn.Conv2d(2, 3, 3), 'weight', amount=1, n='nuc', dim=0),\n"
        "      lambda: prune.l1_unstructured(m, 'foo', amount=1),\n"
        "      lambda: prune.l1_unstructured(nn.Linear(2, 2, bias=False), 'bias', amount=1))\n"
        'print([n for n, _ in m.named_parameters()], list(m.named_buffers()), m._forward_pre_hooks)'),
    # ln_structured with each kind of norm, along either dim; 'nuc' on a matrix
    "ln_structured_norms": (
        'import torch.nn as nn\n'
        'import torch.nn.utils.prune as prune\n'
        "for n in (1, 2, 3, float('inf'), float('-inf'), 0, -1, 0.5):\n"
        '    mm = nn.Conv2d(2, 5, 2)\n'
        "    prune.ln_structured(mm, 'weight', amount=2, n=n, dim=0)\n"
        '    print(n, mm.weight_mask[:, 0, 0, 0])\n'
        "tries(lambda: prune.ln_structured(nn.Conv2d(2, 5, 2), 'weight', amount=2, n='fro', dim=0).weight_mask[:, 0, 0, 0])\n"
        'm = nn.Conv1d(5, 4, 2)\n'
        "prune.ln_structured(m, 'weight', amount=2, n='fro', dim=1)\n"
        'print(m.weight_mask)\n'
        "tries(lambda: prune.ln_structured(nn.Linear(5, 4), 'weight', amount=2, n='nuc', dim=0))\n"
        'm = nn.Conv1d(3, 4, 2)\n'
        "prune.ln_structured(m, 'weight', amount=2, n='nuc', dim=0)\n"
        'print(m.weight_mask[:, 0, 0])\n'
        'm = prune.ln_structured(nn.Conv2d(5, 3, 2), "weight", amount=0.3, dim=1, n=float("-inf"))\n'
        'print(m.weight_mask.sum((0, 2, 3)), m.weight)\n'
        'm = nn.Linear(8, 6)\n'
        'm.weight.data = torch.ones(6, 8)\n'
        "prune.ln_structured(m, 'weight', amount=3, n=2, dim=0)\n"
        'print(m.weight_mask.sum(1).tolist())\n'
        "prune.ln_structured(m, 'weight', amount=3, n=2, dim=1)\n"
        'print(m.weight_mask.sum(0).tolist())'),
    # l1_unstructured among equal magnitudes: the entries topk picks
    "l1_ties": (
        'import torch.nn as nn\n'
        'import torch.nn.utils.prune as prune\n'
        'for shape, amt in (((10, 10), 0.3), ((7, 13), 40), ((64, 64), 0.5), ((3, 300), 0.9), ((2, 2000), 0.25)):\n'
        '    m = nn.Linear(shape[1], shape[0])\n'
        '    m.weight.data = torch.randint(-2, 3, shape).float()\n'
        "    prune.l1_unstructured(m, 'weight', amount=amt)\n"
        '    print(shape, m.weight_mask.nonzero()[:20].tolist(), int(m.weight_mask.sum()))\n'
        'm = nn.Linear(3, 2)\n'
        'm.weight.data = torch.tensor([[1., -1., 2.], [0.5, -0.5, 0.]])\n'
        "prune.l1_unstructured(m, 'weight', amount=2)\n"
        'print(m.weight_mask)\n'
        'm.weight_orig.data.fill_(1.)\n'
        "prune.l1_unstructured(m, 'weight', amount=3)\n"
        'print(m.weight_mask)'),
    # random pruning draws as PyTorch: rand_like and topk for entries, rand and kthvalue for channels
    "random_masks": (
        'import torch.nn as nn\n'
        'import torch.nn.utils.prune as prune\n'
        'm = nn.Linear(500, 300)\n'
        "prune.random_unstructured(m, 'weight', amount=0.37)\n"
        'print(int(m.weight_mask.sum()), m.weight_mask[0, :40].tolist())\n'
        "prune.random_structured(m, 'weight', amount=0.5, dim=0)\n"
        'print(m.weight_mask.sum(1)[:40].tolist())\n'
        "prune.l1_unstructured(m, 'weight', amount=0.5)\n"
        'print(int(m.weight_mask.sum()), m.weight_mask[:, 0].nonzero().view(-1).tolist()[:30])\n'
        'c = nn.Conv1d(4, 6, 3)\n'
        "prune.random_structured(c, 'weight', amount=0.5, dim=0)\n"
        "prune.random_structured(c, 'weight', amount=2, dim=0)\n"
        "prune.random_structured(c, 'weight', amount=1, dim=1)\n"
        'print(c.weight_mask.sum((0, 2)), c.weight_mask.sum((1, 2)))\n'
        'm = nn.Linear(6, 4)\n'
        'for _ in range(3):\n'
        "    prune.random_unstructured(m, 'weight', 0.5)\n"
        'print(m.weight_mask, int(m.weight_mask.sum()))\n'
        "tries(lambda: prune.random_unstructured(m, 'weight', 4))\n"
        'print(m._forward_pre_hooks)'),
    # repeated pruning of one tensor: the container's methods, unstructured on the entries left, structured on
    # the channels not yet all zero, custom masks multiplied in
    "container_combinations": (
        'import torch.nn as nn\n'
        'import torch.nn.utils.prune as prune\n'
        'm = nn.Conv2d(3, 4, 2)\n'
        "prune.ln_structured(m, 'weight', amount=0.5, n=1, dim=1)\n"
        "prune.ln_structured(m, 'weight', amount=1, n=float('inf'), dim=0)\n"
        "prune.random_structured(m, 'weight', amount=1, dim=-1)\n"
        "prune.random_unstructured(m, 'weight', amount=0.25)\n"
        "prune.l1_unstructured(m, 'weight', amount=3)\n"
        'print(int(m.weight_mask.sum()), m.weight_mask[0], m.weight_mask.sum((1, 2, 3)))\n'
        'h = list(m._forward_pre_hooks.values())[0]\n'
        'print(type(h).__name__, len(h), [type(x).__name__ for x in h], h[0].n, h[1].n, h[2].dim, h[-1].amount, vars(h[0]))\n'
        'm = nn.Linear(4, 4)\n'
        'm.weight.data = torch.tensor([[1., 1., 0., 0.], [2., 2., 0., 0.], [1., 1., 0., 0.], [0.5, 0.5, 0., 0.]])\n'
        "prune.ln_structured(m, 'weight', amount=2, n=2, dim=1)\n"
        "prune.ln_structured(m, 'weight', amount=1, n=2, dim=0)\n"
        "prune.ln_structured(m, 'weight', amount=1, n=2, dim=0)\n"
        'print(m.weight_mask)\n'
        'm = nn.Linear(3, 2)\n'
        "prune.custom_from_mask(m, 'weight', torch.tensor([[1, 0, 1], [0, 1, 1]]))\n"
        "prune.custom_from_mask(m, 'weight', torch.tensor([[1, 1, 0], [1, 1, 1]]))\n"
        "prune.identity(m, 'weight')\n"
        'print(m.weight_mask, m.weight, len(list(m._forward_pre_hooks.values())[0]))\n'
        "prune.random_structured(m, 'weight', 0, dim=0)\n"
        "prune.ln_structured(m, 'weight', 0.0, n=2, dim=1)\n"
        'print(m.weight_mask)'),
    # a second pruning that fails takes the old hook off (PyTorch does not put it back) and keeps weight_orig
    "failed_second_pruning": (
        'import torch.nn as nn\n'
        'import torch.nn.utils.prune as prune\n'
        '_base = nn.Linear(1, 1).register_forward_pre_hook(print).id + 1\n'
        'def hooks(m):\n'
        '    print({k - _base: v for k, v in m._forward_pre_hooks.items()})\n'
        'm = nn.Linear(4, 3)\n'
        "prune.l1_unstructured(m, 'weight', amount=2)\n"
        "tries(lambda: prune.l1_unstructured(m, 'weight', amount=20))\n"
        'print(m._forward_pre_hooks, [n for n, _ in m.named_parameters()], [n for n, _ in m.named_buffers()])\n'
        'm2 = nn.Linear(4, 3)\n'
        "prune.l1_unstructured(m2, 'weight', amount=2)\n"
        "tries(lambda: prune.l1_unstructured(m2, 'weight', amount=-2), lambda: prune.l1_unstructured(m2, 'weight_orig', 1))\n"
        'print([n for n, _ in m2.named_parameters()], [n for n, _ in m2.named_buffers()])\n'
        'hooks(m2)\n'
        'class Bad(prune.BasePruningMethod):\n'
        "    PRUNING_TYPE = 'structured'\n"
        '    def compute_mask(self, t, default_mask):\n'
        '        return default_mask * 0\n'
        'class Weird(Bad):\n'
        "    PRUNING_TYPE = 'weird'\n"
        'm3 = nn.Linear(3, 2)\n'
        "Bad.apply(m3, 'weight')\n"
        "tries(lambda: Bad.apply(m3, 'weight'))\n"
        'm4 = nn.Linear(3, 2)\n'
        "Weird.apply(m4, 'weight')\n"
        "tries(lambda: Weird.apply(m4, 'weight'))\n"
        'print(m3.weight_mask)\n'
        'hooks(m3)\n'
        'hooks(m4)'),
    # custom_from_mask: the mask as a float buffer (bool / int masks too); identity: a mask of ones
    "custom_from_mask_and_identity": (
        'import torch.nn as nn\n'
        'import torch.nn.utils.prune as prune\n'
        'm = prune.custom_from_mask(nn.Linear(5, 3), name="bias", mask=torch.tensor([0, 1, 0]))\n'
        'print(m.bias_mask, m.bias)\n'
        'm = nn.Linear(5, 4)\n'
        "prune.custom_from_mask(m, 'weight', torch.tensor([[1, 0, 1, 0, 1]] * 4))\n"
        "prune.custom_from_mask(m, 'bias', mask=torch.tensor([True, False, True, True]))\n"
        'print(m.weight_mask, m.bias_mask, m.bias)\n'
        "tries(lambda: prune.custom_from_mask(m, 'weight', torch.ones(3)))\n"
        'print(list(m.state_dict()))\n'
        'm = nn.Linear(3, 2).double()\n'
        "prune.custom_from_mask(m, 'bias', torch.tensor([True, False]))\n"
        "prune.identity(m, 'weight')\n"
        'print(m.bias_mask, m.bias, m.weight_mask, prune.is_pruned(m))'),
    # global_unstructured: the docs' example, on top of earlier pruning (its hooks become containers),
    # importance scores per tensor, random, and its errors
    "global_unstructured_variants": (
        'import torch.nn as nn\n'
        'import torch.nn.utils.prune as prune\n'
        'from collections import OrderedDict\n'
        'net = nn.Sequential(OrderedDict([("first", nn.Linear(10, 4)), ("second", nn.Linear(4, 1))]))\n'
        'parameters_to_prune = ((net.first, "weight"), (net.second, "weight"))\n'
        'prune.global_unstructured(parameters_to_prune, pruning_method=prune.L1Unstructured, amount=10)\n'
        'print(sum(torch.nn.utils.parameters_to_vector(net.buffers()) == 0))\n'
        'prune.global_unstructured(parameters_to_prune, pruning_method=prune.RandomUnstructured, amount=0.5)\n'
        'print(net.first.weight_mask, net.second.weight_mask, list(net.first._forward_pre_hooks.values())[0]._pruning_methods)\n'
        'net = nn.Sequential(nn.Linear(4, 3), nn.Linear(3, 2))\n'
        "prune.l1_unstructured(net[0], 'weight', 0.5)\n"
        "prune.global_unstructured([(net[0], 'weight'), (net[1], 'weight'), (net[0], 'bias')],\n"
        '                          pruning_method=prune.L1Unstructured, amount=0.4)\n'
        'print(net[0].weight_mask, net[1].weight_mask, net[0].bias_mask)\n'
        "prune.global_unstructured([(net[0], 'weight'), (net[1], 'bias')], pruning_method=prune.L1Unstructured, amount=3,\n"
        "                          importance_scores={(net[1], 'bias'): torch.tensor([10., 10.])})\n"
        'print(net[0].weight_mask, net[1].bias_mask)\n'
        "tries(lambda: prune.global_unstructured(((net[0], 'weight'),), pruning_method=prune.LnStructured, amount=1, n=2, dim=0),\n"
        "      lambda: prune.global_unstructured(((net[0], 'weight'),), pruning_method=prune.RandomStructured, amount=1),\n"
        '      lambda: prune.global_unstructured(5, pruning_method=prune.L1Unstructured, amount=1),\n'
        "      lambda: prune.global_unstructured(((net[0], 'weight'),), prune.L1Unstructured, importance_scores=[1], amount=1),\n"
        "      lambda: prune.global_unstructured(((net[0], 'weight'),), pruning_method=prune.L1Unstructured, amount=100),\n"
        "      lambda: prune.global_unstructured([(net[0], 'weight')], pruning_method=prune.L1Unstructured),\n"
        '      lambda: prune.global_unstructured([], prune.L1Unstructured, amount=0.5),\n'
        "      lambda: prune.global_unstructured([(net[0], 'weight')], prune.l1_unstructured, amount=0.5),\n"
        "      lambda: prune.global_unstructured(((m, 'weight') for m in net), prune.L1Unstructured, amount=2))\n"
        'print(sorted(dict(net.named_buffers())))'),
    # remove: the pruned values become the weight_orig parameter object (under `weight`, last), its
    # errors; is_pruned looks through submodules
    "remove_and_is_pruned": (
        'import torch.nn as nn\n'
        'import torch.nn.utils.prune as prune\n'
        '_base = nn.Linear(1, 1).register_forward_pre_hook(print).id + 1\n'
        'def hooks(m):\n'
        '    print({k - _base: v for k, v in m._forward_pre_hooks.items()})\n'
        'm = nn.Linear(3, 2)\n'
        'w = m.weight\n'
        "tries(lambda: prune.remove(m, 'weight'), lambda: prune.is_pruned(m))\n"
        "prune.l1_unstructured(m, 'weight', 2)\n"
        "prune.l1_unstructured(m, 'bias', 1)\n"
        'print(m.weight_orig is w, w._version, prune.is_pruned(m), prune.is_pruned(nn.Sequential(nn.ReLU(), m)))\n'
        "tries(lambda: prune.remove(m, 'foo'))\n"
        "prune.remove(m, 'bias')\n"
        'print(prune.is_pruned(m), [n for n, _ in m.named_parameters()])\n'
        "prune.remove(m, 'weight')\n"
        'print(m.weight is w, w._version, w.requires_grad, w.grad_fn, type(m.weight), m.weight)\n'
        'print(prune.is_pruned(m), [n for n, _ in m.named_parameters()], m.state_dict().keys())\n'
        'hooks(m)\n'
        "prune.random_unstructured(m, 'weight', 2)\n"
        'del m._forward_pre_hooks[list(m._forward_pre_hooks)[0]]\n'
        "tries(lambda: prune.remove(m, 'weight'))"),
    # the hook makes weight anew before each forward; gradients reach weight_orig through the mask
    "forward_and_training": (
        'import torch.nn as nn\n'
        'import torch.nn.utils.prune as prune\n'
        'm = nn.Linear(3, 2)\n'
        "prune.random_unstructured(m, 'weight', 0.5)\n"
        'x = torch.randn(5, 3)\n'
        'opt = torch.optim.SGD(m.parameters(), lr=0.5)\n'
        'for i in range(3):\n'
        '    opt.zero_grad()\n'
        '    loss = m(x).pow(2).mean()\n'
        '    loss.backward()\n'
        '    opt.step()\n'
        '    print(loss.item(), m.weight_orig.grad)\n'
        'print(m.weight, m.weight.grad_fn.next_functions)\n'
        'm.weight_mask.fill_(1)\n'
        'print(m(torch.ones(1, 3)), m.weight)\n'
        'with torch.no_grad():\n'
        '    m(torch.ones(1, 3))\n'
        'print(m.weight.requires_grad, m.weight.grad_fn, len(list(m.parameters())), len(list(m.buffers())))\n'
        'm.half()\n'
        'm(torch.ones(1, 3).half())\n'
        'print(m.weight_orig.dtype, m.weight_mask.dtype, m.weight.dtype)\n'
        "tries(lambda: setattr(m, 'weight', nn.Parameter(torch.ones(2, 3))))\n"
        'print([n for n, _ in m.named_parameters()])'),
    # the pruning classes used directly: prune(), compute_mask, apply returning the hook, containers built by
    # hand, and their errors
    "methods_directly": (
        'import torch.nn as nn\n'
        'import torch.nn.utils.prune as prune\n'
        't = torch.tensor([[1., -3., 2.], [0.5, -0.5, 4.]])\n'
        's = prune.L1Unstructured(amount=2)\n'
        'print(s.prune(t), s.compute_mask(t, torch.ones(2, 3)), s.amount)\n'
        'print(s.prune(t, default_mask=torch.tensor([[1., 0., 1.], [1., 1., 1.]])), s.prune(t, importance_scores=-t.abs()))\n'
        'print(prune.RandomUnstructured(0.5).prune(t), prune.LnStructured(1, 2, 0).prune(t), prune.RandomStructured(1).prune(t))\n'
        'print(prune.Identity().prune(t), prune.CustomFromMask(torch.tensor([[0, 1, 1], [1, 1, 0]])).prune(t))\n'
        'm = nn.Linear(4, 3)\n'
        'tries(lambda: s.prune(t, importance_scores=torch.ones(3)), lambda: s.apply_mask(m), lambda: s.remove(m),\n'
        '      lambda: prune.BasePruningMethod(), lambda: prune.L1Unstructured(), lambda: prune.LnStructured(0.5),\n'
        '      lambda: prune.Identity(3))\n'
        "h = prune.L1Unstructured.apply(m, 'weight', amount=2)\n"
        "h2 = prune.RandomUnstructured.apply(m, 'weight', 3)\n"
        "h3 = prune.Identity.apply(m, 'weight')\n"
        'print(type(h), h._tensor_name, type(h2), list(h2), h3 is h2, len(h3), m.weight_mask)\n'
        "print(prune.CustomFromMask.apply(m, 'bias', torch.tensor([1, 0, 1])).mask, m.bias)\n"
        "tries(lambda: prune.L1Unstructured.apply(m, 'bias', amount=1, importance_scores=torch.ones(2)))\n"
        'p = prune.PruningContainer()\n'
        'tries(lambda: p._tensor_name, lambda: len(p), lambda: p.add_pruning_method(prune.Identity()))\n'
        "a = prune.L1Unstructured(1); a._tensor_name = 'w'\n"
        "b = prune.RandomUnstructured(1); b._tensor_name = 'v'\n"
        'c = prune.PruningContainer(a)\n'
        'print(c._tensor_name, len(c), list(c), c[0] is a)\n'
        'tries(lambda: c.add_pruning_method(b), lambda: c.add_pruning_method(5), lambda: c.add_pruning_method(None),\n'
        '      lambda: len(c), lambda: prune.PruningContainer(a, b), lambda: prune.PruningContainer(5))\n'
        'print(prune.L1Unstructured.__mro__, prune.PruningContainer.__bases__, prune.BasePruningMethod.__abstractmethods__)\n'
        'print(prune.L1Unstructured.PRUNING_TYPE, prune.LnStructured.PRUNING_TYPE, prune.CustomFromMask.PRUNING_TYPE)'),
    # importance scores choose the entries / channels; buffers, embeddings and RNN weights can be pruned
    "importance_scores_and_other_tensors": (
        'import torch.nn as nn\n'
        'import torch.nn.utils.prune as prune\n'
        'm = nn.Linear(4, 3)\n'
        "prune.l1_unstructured(m, 'weight', amount=2, importance_scores=torch.arange(12.).reshape(3, 4))\n"
        "prune.ln_structured(m, 'weight', amount=1, n=1, dim=0, importance_scores=torch.arange(12.).reshape(3, 4).flip(0))\n"
        'print(m.weight_mask)\n'
        'b = nn.BatchNorm1d(3)\n'
        "tries(lambda: prune.l1_unstructured(b, 'running_mean', amount=1))\n"
        'print(list(b.named_buffers()), list(b.named_parameters()), b._forward_pre_hooks)\n'
        'e = nn.Embedding(6, 3)\n'
        "prune.l1_unstructured(e, 'weight', 0.5)\n"
        'print(e(torch.tensor([0, 1, 5])))\n'
        'r = nn.RNN(2, 3)\n'
        "prune.l1_unstructured(r, 'weight_hh_l0', 0.5)\n"
        'print([n for n, _ in r.named_parameters()])\n'
        'tries(lambda: r(torch.ones(1, 1, 2))[0].shape)'),
    # state_dict keys of a pruned model, loading it into a model given the reparametrization (identity),
    # deepcopy refusing the pruned weight made in a graph
    "state_dict_deepcopy": (
        'import torch.nn as nn\n'
        'import torch.nn.utils.prune as prune\n'
        'import copy\n'
        'm = nn.Sequential(nn.Linear(4, 3), nn.ReLU(), nn.Linear(3, 1))\n'
        "prune.random_unstructured(m[0], 'weight', amount=0.5)\n"
        "prune.l1_unstructured(m[2], 'bias', amount=1)\n"
        'sd = m.state_dict()\n'
        'print(list(sd.keys()))\n'
        'tries(lambda: copy.deepcopy(m))\n'
        'with torch.no_grad():\n'
        '    m(torch.ones(1, 4))\n'
        'm2 = copy.deepcopy(m)\n'
        'print(len(m2[0]._forward_pre_hooks), m2[0].weight_mask.equal(m[0].weight_mask), prune.is_pruned(m2))\n'
        'm3 = nn.Sequential(nn.Linear(4, 3), nn.ReLU(), nn.Linear(3, 1))\n'
        'tries(lambda: m3.load_state_dict(sd))\n'
        "prune.identity(m3[0], 'weight'); prune.identity(m3[2], 'bias')\n"
        'print(m3.load_state_dict(sd), m3[0].weight.equal(m[0].weight))\n'
        'm3(torch.ones(1, 4))\n'
        'print(m3[0].weight.equal(m[0].weight), m3[2].bias)'),
    # the ways of importing it, and the module's public names
    "import_forms": (
        'import torch.nn.utils.prune as prune\n'
        'from torch.nn.utils import prune as p2\n'
        'from torch.nn.utils.prune import l1_unstructured, L1Unstructured\n'
        'print(prune is p2, l1_unstructured is prune.l1_unstructured, torch.nn.utils.prune is prune, L1Unstructured)\n'
        "print(sorted(n for n in dir(prune) if not n.startswith('_') and n[0].isupper() and n not in ('ABC', 'Iterable')))\n"
        "print(sorted(n for n in dir(prune) if not n.startswith('_') and n[0].islower() and callable(getattr(prune, n))\n"
        "             and n not in ('abstractmethod',)))"),
}


@pytest.mark.parametrize("name", SNIPPETS)
def test_snippet(name):
    code = SHOW + SNIPPETS[name]
    t, e = run_both(T, E, code)
    assert same(t, e), f"\n{code}\n--- torch\n{t.summary()}--- engine\n{e.summary()}"
