"""The thirteenth session's nn / optim corners against real PyTorch: cross-entropy / nll target shape checks, int
list arguments given floats (view, reshape, expand, permute, repeat, flatten), state_dict of shared modules, the
legacy size_average / reduce flags, the target's gradient in MSE / SmoothL1 / Huber, the lr schedulers (step(epoch),
ReduceLROnPlateau, LinearLR, ConstantLR, OneCycleLR, CyclicLR, CosineAnnealingWarmRestarts, PolynomialLR,
SequentialLR, ChainedScheduler), the containers' list and dict methods, ParameterList / ParameterDict and optimizers
given named_parameters(). Printed text, warnings and the final error must be identical."""
import pytest

T = pytest.importorskip("torch", reason="differential tests need real PyTorch (pip install torch==2.13.0)")
from .harness import SHOW, load_engine, run_both, same  # noqa: E402

E = load_engine()

SNIPPETS = {
    'nll_target_shape_0': (
        'nn = torch.nn\n'
        'nn.CrossEntropyLoss()(torch.zeros(2, 5, 3), torch.zeros(2, 5, dtype=torch.long))\n'),
    'nll_target_shape_1': (
        'nn = torch.nn\n'
        'print(nn.CrossEntropyLoss()(torch.randn(4, 3, 5), torch.zeros(4, 3, dtype=torch.long)))\n'),
    'nll_target_shape_2': (
        'print(torch.nn.CrossEntropyLoss()(torch.randn(4, 3, 5), torch.zeros(4, dtype=torch.long)))\n'),
    'nll_target_shape_3': (
        'print(torch.nn.CrossEntropyLoss()(torch.randn(4, 3, 2, 5), torch.zeros(4, 5, 2, dtype=torch.long)))\n'),
    'nll_target_shape_4': (
        'print(torch.nn.CrossEntropyLoss()(torch.randn(4, 3, 2, 5), torch.zeros(4, 5, dtype=torch.long)))\n'),
    'nll_target_shape_5': (
        'print(torch.nn.functional.nll_loss(torch.randn(4, 3, 2, 5), torch.zeros(4, 2, 5)))\n'),
    'nll_target_shape_6': (
        'print(torch.nn.functional.nll_loss(torch.randn(4, 3, 5), torch.zeros(4, 2)))\n'),
    'nll_target_shape_7': (
        'print(torch.nn.functional.nll_loss(torch.randn(4, 3, 5, 2, 1), torch.zeros(4, 5, 2, 2, dtype=torch.l'
        'ong)))\n'),
    'nll_target_shape_8': (
        'print(torch.nn.functional.nll_loss(torch.randn(4, 3, 5, 2, 1), torch.zeros(4, 5, 2, 1, dtype=torch.l'
        "ong), reduction='none').shape)\n"),
    'nll_target_shape_9': (
        'print(torch.nn.functional.nll_loss(torch.randn(4, 3, 2, 5), torch.zeros(4, 2, 5,1, dtype=torch.long)'
        '))\n'),
    'nll_target_shape_10': (
        'print(torch.nn.functional.nll_loss(torch.randn(0, 3, 5), torch.zeros(0, 5, dtype=torch.long)))\n'),
    'nll_target_shape_11': (
        'print(torch.nn.functional.nll_loss(torch.randn(2, 3, 5), torch.zeros(2, 5, dtype=torch.long), weight'
        '=torch.ones(2)))\n'),
    'nll_weight_and_empty_0': (
        'print(torch.nn.functional.nll_loss(torch.randn(2, 3), torch.zeros(2, dtype=torch.long), weight=torch'
        '.ones(2)))\n'),
    'nll_weight_and_empty_1': (
        'print(torch.nn.functional.nll_loss(torch.randn(3), torch.zeros((), dtype=torch.long), weight=torch.o'
        'nes(2)))\n'),
    'nll_weight_and_empty_2': (
        'print(torch.nn.functional.nll_loss(torch.randn(0, 3, 5, 2), torch.zeros(0, 5, 2, dtype=torch.long)))'
        '\n'),
    'nll_weight_and_empty_3': (
        'print(torch.nn.functional.nll_loss(torch.randn(2, 3, 0), torch.zeros(2, 0, dtype=torch.long), reduct'
        "ion='none'))\n"),
    'nll_weight_and_empty_4': (
        'print(torch.nn.functional.nll_loss(torch.randn(2, 3, 0), torch.zeros(2, 0, dtype=torch.long), reduct'
        "ion='sum'))\n"),
    'nll_weight_and_empty_5': (
        'print(torch.nn.functional.cross_entropy(torch.randn(2, 3, 4), torch.zeros(2, 4, dtype=torch.long), w'
        'eight=torch.ones(2)))\n'),
    'int_list_arguments_0': (
        'x = torch.arange(8.)\n'
        'print(x.view(2, 8 / 2))\n'),
    'int_list_arguments_1': (
        'x = torch.arange(8.)\n'
        'print(x.view(2.0, 4))\n'),
    'int_list_arguments_2': (
        'x = torch.arange(8.)\n'
        'print(x.view((2.0, 4)))\n'),
    'int_list_arguments_3': (
        'x = torch.arange(8.)\n'
        'print(x.view((2, 4.0)))\n'),
    'int_list_arguments_4': (
        'x = torch.arange(8.)\n'
        'print(x.view([2, 4.0]))\n'),
    'int_list_arguments_5': (
        'x = torch.arange(8.)\n'
        'print(x.reshape(-1, 8/2))\n'),
    'int_list_arguments_6': (
        'x = torch.arange(8.)\n'
        'print(x.reshape((2, 4.0)))\n'),
    'int_list_arguments_7': (
        'x = torch.arange(8.)\n'
        'print(torch.reshape(x, (2, 4.0)))\n'),
    'int_list_arguments_9': (
        'x = torch.arange(8.)\n'
        'print(x.reshape(2.0, 4))\n'),
    'int_list_arguments_10': (
        'x = torch.arange(8.)\n'
        'print(x.view(2.0))\n'),
    'int_list_arguments_11': (
        'x = torch.arange(8.)\n'
        'print(x.view(2, True))\n'),
    'int_list_arguments_12': (
        'x = torch.arange(8.)\n'
        'print(x.view(True, 8))\n'),
    'int_list_arguments_13': (
        'import numpy as np\n'
        'x = torch.arange(8.)\n'
        'print(x.view(np.int64(2), 4), x.view(torch.tensor(2), 4).shape)\n'),
    'int_list_arguments_14': (
        'x = torch.arange(8.)\n'
        'print(x.view(torch.tensor(2.), 4).shape)\n'),
    'int_list_arguments_15': (
        'x = torch.arange(8.)\n'
        'print(x.view(2, torch.tensor(4.)).shape)\n'),
    'int_list_arguments_16': (
        'x = torch.arange(8.)\n'
        "print(x.view('a'))\n"),
    'int_list_arguments_17': (
        'x = torch.arange(8.)\n'
        'print(x.view(None))\n'),
    'int_list_arguments_18': (
        'x = torch.arange(8.)\n'
        'print(x.view())\n'),
    'int_list_arguments_19': (
        'x = torch.arange(8.)\n'
        'print(x.reshape())\n'),
    'int_list_arguments_23': (
        'x = torch.arange(8.)\n'
        'print(x.expand(2.0, 8))\n'),
    'int_list_arguments_24': (
        'x = torch.arange(8.)\n'
        'print(x.expand(2, 8.0))\n'),
    'int_list_arguments_25': (
        'x = torch.arange(8.)\n'
        'print(x.expand((2, 8.0)))\n'),
    'int_list_arguments_27': (
        'x = torch.arange(8.)\n'
        'print(x.flatten(0, 0.0))\n'),
    'int_list_arguments_32': (
        'x = torch.arange(8.).view(2,4)\n'
        'print(x.repeat(2.0, 1))\n'),
    'int_list_arguments_33': (
        'x = torch.arange(8.).view(2,4)\n'
        'print(x.permute(1.0, 0))\n'),
    'state_dict_shared_0': (
        'nn = torch.nn\n'
        'shared = nn.Linear(8, 8)\n'
        'net = nn.Sequential(shared, shared)\n'
        'print(list(net.state_dict().keys()))\n'
        'net.load_state_dict(net.state_dict())\n'
        'print(len(list(net.parameters())))\n'),
    'state_dict_shared_1': (
        'nn = torch.nn\n'
        'shared = nn.Linear(8, 8)\n'
        'net = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), shared, nn.ReLU(), shared, nn.ReLU(), nn.Linear(8, 1'
        '))\n'
        'print(len(net.state_dict()), list(net.state_dict()))\n'),
    'state_dict_shared_2': (
        'nn = torch.nn\n'
        'bn = nn.BatchNorm1d(2)\n'
        'net = nn.Sequential(bn, nn.Sequential(bn))\n'
        'print(list(net.state_dict().keys()))\n'
        "print(net.state_dict(prefix='m.').keys())\n"),
    'legacy_reduction_flags_0': (
        'nn = torch.nn\n'
        'nn.MSELoss(torch.ones(2), torch.zeros(2))\n'),
    'legacy_reduction_flags_1': (
        'nn = torch.nn\n'
        'out = torch.randn(3, 4); y = torch.tensor([0, 1, 2])\n'
        'loss = nn.CrossEntropyLoss(out, y)\n'),
    'legacy_reduction_flags_2': (
        'nn = torch.nn\n'
        'print(nn.MSELoss(size_average=0)(torch.ones(2), torch.zeros(2)))\n'),
    'legacy_reduction_flags_3': (
        'nn = torch.nn\n'
        'print(nn.MSELoss(reduce=0)(torch.ones(2), torch.zeros(2)))\n'),
    'legacy_reduction_flags_4': (
        'nn = torch.nn\n'
        'print(nn.MSELoss(size_average=False, reduce=False)(torch.ones(2), torch.zeros(2)))\n'),
    'legacy_reduction_flags_5': (
        'nn = torch.nn\n'
        'print(nn.L1Loss(torch.tensor(1.))(torch.ones(2), torch.zeros(2)))\n'),
    'legacy_reduction_flags_6': (
        'nn = torch.nn\n'
        'print(nn.L1Loss(torch.tensor(0.)).reduction)\n'),
    'legacy_reduction_flags_7': (
        'F = torch.nn.functional\n'
        'print(F.mse_loss(torch.ones(2), torch.zeros(2), size_average=0))\n'
        'print(F.nll_loss(torch.zeros(2, 3), torch.tensor([0, 1]), reduce=[]))\n'),
    'loss_target_gradient_0': (
        'nn = torch.nn\n'
        'x = torch.tensor([1.0, 2.0]); t = torch.tensor([1.5, 2.0], requires_grad=True)\n'
        'nn.MSELoss()(x, t).backward(); print(t.grad)\n'),
    'loss_target_gradient_1': (
        'nn = torch.nn\n'
        'for L in [nn.MSELoss(), nn.SmoothL1Loss(), nn.HuberLoss(delta=0.5), nn.SmoothL1Loss(beta=0.3, reduct'
        "ion='sum'), nn.MSELoss(reduction='none')]:\n"
        '    x = torch.tensor([1.0, 2.0, 0.0, -3.0], requires_grad=True); t = torch.tensor([1.5, 2.0, 0.3, 1.'
        '0], requires_grad=True)\n'
        '    L(x, t).sum().backward(); print(x.grad, t.grad)\n'),
    'lr_scheduler_0': (
        'w = torch.nn.Parameter(torch.tensor([1.0])); opt = torch.optim.SGD([w], lr=0.1)\n'
        'sch = torch.optim.lr_scheduler.ReduceLROnPlateau(opt, patience=1, factor=0.5)\n'
        'for v in [1.0, 0.9, 0.95, 0.96, 0.97, 0.98]:\n'
        "    opt.step(); sch.step(v); print(opt.param_groups[0]['lr'], sch.get_last_lr())\n"
        'print(sorted(sch.state_dict().items()))\n'),
    'lr_scheduler_1': (
        'w = torch.nn.Parameter(torch.tensor([1.0])); opt = torch.optim.SGD([w], lr=0.1)\n'
        "sch = torch.optim.lr_scheduler.ReduceLROnPlateau(opt, mode='max', patience=0, factor=0.1, cooldown=1"
        ", min_lr=1e-3, threshold_mode='abs', threshold=0.01)\n"
        'for v in [1.0, 0.9, 0.95, 0.96, 1.5, 0.98, 0.9, 0.8, 0.7]:\n'
        "    opt.step(); sch.step(torch.tensor(v)); print(opt.param_groups[0]['lr'], sch.num_bad_epochs, sch."
        'cooldown_counter, sch.best)\n'
        'sch.step(1.0, 3)\n'
        'print(sch.last_epoch)\n'),
    'lr_scheduler_2': (
        'w = torch.nn.Parameter(torch.tensor([1.0])); opt = torch.optim.SGD([w], lr=0.1)\n'
        "for kw in [dict(factor=1.0), dict(mode='x'), dict(threshold_mode='y'), dict(min_lr=[1, 2])]:\n"
        '    try:\n'
        '        torch.optim.lr_scheduler.ReduceLROnPlateau(opt, **kw)\n'
        '    except Exception as e:\n'
        '        print(type(e).__name__, e)\n'
        'try:\n'
        '    torch.optim.lr_scheduler.ReduceLROnPlateau(None)\n'
        'except Exception as e:\n'
        '    print(type(e).__name__, e)\n'),
    'lr_scheduler_3': (
        'w = torch.nn.Parameter(torch.tensor([1.0])); opt = torch.optim.SGD([w], lr=0.1)\n'
        'sch = torch.optim.lr_scheduler.ReduceLROnPlateau(opt)\n'
        'sch.step()\n'),
    'lr_scheduler_4': (
        'w = torch.nn.Parameter(torch.tensor([1.0])); opt = torch.optim.SGD([w], lr=0.1)\n'
        'sch = torch.optim.lr_scheduler.ExponentialLR(opt, gamma=0.5)\n'
        'opt.step(); sch.step(3); print(sch.get_last_lr())\n'),
    'lr_scheduler_5': (
        'L = torch.optim.lr_scheduler\n'
        'for mk in [lambda o: L.StepLR(o, step_size=1), lambda o: L.CosineAnnealingLR(o, T_max=10), lambda o:'
        ' L.MultiStepLR(o, [2, 4]),\n'
        '           lambda o: L.LinearLR(o), lambda o: L.ConstantLR(o), lambda o: L.PolynomialLR(o, power=2.0'
        '), lambda o: L.LambdaLR(o, lambda e: 0.9 ** e),\n'
        '           lambda o: L.MultiplicativeLR(o, lambda e: 0.9)]:\n'
        '    w = torch.nn.Parameter(torch.tensor([1.0])); opt = torch.optim.SGD([w], lr=0.1)\n'
        '    sch = mk(opt)\n'
        '    opt.step(); sch.step(3); print(type(sch).__name__, sch.get_last_lr(), sch.last_epoch)\n'
        '    sch.step(); print(sch.get_last_lr())\n'),
    'lr_scheduler_6': (
        'L = torch.optim.lr_scheduler\n'
        'for mk in [lambda o: L.LinearLR(o), lambda o: L.LinearLR(o, start_factor=0.5, end_factor=0.1, total_'
        'iters=3),\n'
        '           lambda o: L.ConstantLR(o), lambda o: L.ConstantLR(o, factor=0.5, total_iters=2), lambda o'
        ': L.PolynomialLR(o),\n'
        '           lambda o: L.PolynomialLR(o, total_iters=4, power=2.0), lambda o: L.MultiplicativeLR(o, la'
        'mbda e: 0.95),\n'
        '           lambda o: L.CosineAnnealingWarmRestarts(o, T_0=3), lambda o: L.CosineAnnealingWarmRestart'
        's(o, T_0=2, T_mult=2, eta_min=0.01),\n'
        '           lambda o: L.CyclicLR(o, 0.01, 0.1, step_size_up=3), lambda o: L.CyclicLR(o, 0.01, 0.1, st'
        "ep_size_up=2, mode='triangular2'),\n"
        "           lambda o: L.CyclicLR(o, 0.01, 0.1, step_size_up=2, step_size_down=3, mode='exp_range', ga"
        'mma=0.9),\n'
        '           lambda o: L.OneCycleLR(o, max_lr=1.0, total_steps=10), lambda o: L.OneCycleLR(o, max_lr=1'
        ".0, epochs=2, steps_per_epoch=6, anneal_strategy='linear', three_phase=True),\n"
        '           ]:\n'
        '    w = torch.nn.Parameter(torch.tensor([1.0])); opt = torch.optim.SGD([w], lr=0.1, momentum=0.9)\n'
        '    sch = mk(opt)\n'
        '    out = []\n'
        '    for i in range(10):\n'
        "        opt.step(); sch.step(); out.append((sch.get_last_lr()[0], opt.param_groups[0]['momentum']))\n"
        '    print(type(sch).__name__, out)\n'),
    'lr_scheduler_7': (
        'L = torch.optim.lr_scheduler\n'
        'w = torch.nn.Parameter(torch.tensor([1.0])); opt = torch.optim.Adam([w], lr=0.1)\n'
        'sch = L.OneCycleLR(opt, max_lr=0.5, total_steps=5)\n'
        'for i in range(5):\n'
        "    opt.step(); sch.step(); print(sch.get_last_lr(), opt.param_groups[0]['betas'])\n"
        'opt.step(); sch.step()\n'),
    'lr_scheduler_8': (
        'L = torch.optim.lr_scheduler\n'
        'w = torch.nn.Parameter(torch.tensor([1.0])); opt = torch.optim.Adam([w], lr=0.1)\n'
        'sch = L.CyclicLR(opt, 0.001, 0.01, step_size_up=2)\n'
        'for i in range(5):\n'
        "    opt.step(); sch.step(); print(sch.get_last_lr(), opt.param_groups[0]['betas'])\n"
        'print(sorted(sch.state_dict()))\n'),
    'lr_scheduler_9': (
        'L = torch.optim.lr_scheduler\n'
        'w = torch.nn.Parameter(torch.tensor([1.0])); opt = torch.optim.Adagrad([w], lr=0.1)\n'
        'for mk in [lambda: L.CyclicLR(opt, 0.001, 0.01), lambda: L.OneCycleLR(opt, 0.1, 10), lambda: L.Cycli'
        "cLR(opt, 0.001, 0.01, mode='x'),\n"
        '           lambda: L.OneCycleLR(opt, 0.1), lambda: L.OneCycleLR(opt, 0.1, 0), lambda: L.OneCycleLR(o'
        'pt, 0.1, 10, pct_start=1),\n'
        "           lambda: L.OneCycleLR(opt, 0.1, 10, anneal_strategy='x', cycle_momentum=False), lambda: L."
        'OneCycleLR(opt, 0.1, epochs=1.0, steps_per_epoch=2),\n'
        '           lambda: L.CosineAnnealingWarmRestarts(opt, 0), lambda: L.CosineAnnealingWarmRestarts(opt,'
        " 2, 0), lambda: L.CosineAnnealingWarmRestarts(opt, 2, 1, 'a'),\n"
        '           lambda: L.LinearLR(opt, start_factor=0), lambda: L.LinearLR(opt, end_factor=2), lambda: L'
        '.ConstantLR(opt, factor=2),\n'
        '           lambda: L.MultiplicativeLR(opt, 3), lambda: L.LambdaLR(opt, [None, None]), lambda: L.Cycl'
        'icLR(opt, [0.1, 0.2], 0.3, cycle_momentum=False),\n'
        '           lambda: L.StepLR(None, 2), lambda: L.StepLR(opt, 2, last_epoch=3)]:\n'
        '    try:\n'
        '        mk()\n'
        "        print('ok')\n"
        '    except Exception as e:\n'
        '        print(type(e).__name__, e)\n'),
    'lr_scheduler_10': (
        'L = torch.optim.lr_scheduler\n'
        'w = torch.nn.Parameter(torch.tensor([1.0])); opt = torch.optim.SGD([w], lr=0.1)\n'
        's1 = L.LinearLR(opt, start_factor=0.1, total_iters=3)\n'
        's2 = L.ExponentialLR(opt, gamma=0.9)\n'
        'sch = L.SequentialLR(opt, schedulers=[s1, s2], milestones=[3])\n'
        'print(sch.get_last_lr(), s1.last_epoch, s2.last_epoch)\n'
        'for i in range(7):\n'
        "    opt.step(); sch.step(); print(sch.get_last_lr(), opt.param_groups[0]['lr'])\n"
        'print(sorted(sch.state_dict()))\n'
        "print(sch.state_dict()['_schedulers'][1])\n"),
    'lr_scheduler_11': (
        'L = torch.optim.lr_scheduler\n'
        'w = torch.nn.Parameter(torch.tensor([1.0])); opt = torch.optim.SGD([w], lr=1.0)\n'
        's1 = L.ConstantLR(opt, factor=0.1, total_iters=2)\n'
        's2 = L.ExponentialLR(opt, gamma=0.9)\n'
        'sch = L.ChainedScheduler([s1, s2])\n'
        'print(sch.get_last_lr())\n'
        'for i in range(5):\n'
        '    opt.step(); sch.step(); print(sch.get_last_lr())\n'
        'print(sorted(sch.state_dict()))\n'),
    'lr_scheduler_12': (
        'L = torch.optim.lr_scheduler\n'
        'w = torch.nn.Parameter(torch.tensor([1.0])); opt = torch.optim.SGD([w], lr=1.0)\n'
        'opt2 = torch.optim.SGD([w], lr=1.0)\n'
        's1 = L.ConstantLR(opt, factor=0.1, total_iters=2)\n'
        'for mk in [lambda: L.ChainedScheduler([]), lambda: L.SequentialLR(opt, [], []), lambda: L.Sequential'
        'LR(opt, [s1], [1]),\n'
        '           lambda: L.SequentialLR(opt, [1], []), lambda: L.SequentialLR(opt, [L.ReduceLROnPlateau(op'
        't)], []),\n'
        '           lambda: L.ChainedScheduler([s1, L.StepLR(opt2, 2)])]:\n'
        '    try:\n'
        '        mk()\n'
        "        print('ok')\n"
        '    except Exception as e:\n'
        '        print(type(e).__name__, e)\n'),
    'lr_scheduler_13': (
        'L = torch.optim.lr_scheduler\n'
        'w = torch.nn.Parameter(torch.tensor([1.0])); opt = torch.optim.SGD([w], lr=1.0)\n'
        'sch = L.StepLR(opt, 2)\n'
        'print(isinstance(sch, L._LRScheduler), isinstance(sch, L.LRScheduler), repr(sch)[:40], L.ReduceLROnP'
        'lateau(opt))\n'
        'print(list(L.LambdaLR(opt, lambda e: 1).state_dict()))\n'
        'print(L.EPOCH_DEPRECATION_WARNING[:20])\n'
        'print(opt.step.__name__, opt.step.__qualname__)\n'),
    'lr_scheduler_14': (
        'w = torch.nn.Parameter(torch.tensor([1.0])); opt = torch.optim.SGD([w], lr=1.0)\n'
        'sch = torch.optim.lr_scheduler.StepLR(opt, 2)\n'
        'opt.step = lambda: None\n'
        'opt.step(); sch.step()\n'),
    'lr_scheduler_15': (
        'w = torch.nn.Parameter(torch.tensor([1.0])); opt = torch.optim.SGD([w], lr=1.0)\n'
        'sch = torch.optim.lr_scheduler.CosineAnnealingWarmRestarts(opt, 3, 2)\n'
        'for e in [0.5, 1, 4, 7.5, 20]:\n'
        '    sch.step(e); print(sch.get_last_lr(), sch.T_cur, sch.T_i, sch.last_epoch)\n'),
    'lr_scheduler_16': (
        'w = torch.nn.Parameter(torch.tensor([1.0])); opt = torch.optim.SGD([w], lr=1.0)\n'
        'sch = torch.optim.lr_scheduler.StepLR(opt, 2)\n'
        'sch.get_lr()\n'
        'print(sch.get_last_lr())\n'),
    'containers_0': (
        'nn = torch.nn\n'
        'net = nn.Sequential(nn.Linear(2, 3), nn.ReLU(), nn.Linear(3, 1))\n'
        'net.insert(1, nn.Tanh()); print(net)\n'
        'net.extend([nn.Sigmoid()]); print(net)\n'
        'print(net.pop(0)); del net[1]; print(net)\n'
        'del net[0:2]; print(net, len(net))\n'
        'print(net + nn.Sequential(nn.ReLU()))\n'
        'net += nn.Sequential(nn.ELU()); print(net)\n'
        'print(net * 2, 2 * net)\n'
        'net *= 2; print(net)\n'
        'print([k for k in dir(net) if k.isdigit()])\n'),
    'containers_1': (
        'nn = torch.nn\n'
        'net = nn.Sequential(nn.ReLU())\n'
        'for f in [lambda: net.insert(5, nn.ReLU()), lambda: net.insert(0, 3), lambda: net + [1], lambda: net'
        ' * 0, lambda: net * 1.5,\n'
        '          lambda: net[3], lambda: net.pop(2), lambda: net.__delitem__(4), lambda: net.insert(-1, nn.'
        'Tanh())]:\n'
        '    try:\n'
        '        print(f())\n'
        '    except Exception as e:\n'
        '        print(type(e).__name__, e)\n'),
    'containers_2': (
        'nn = torch.nn\n'
        'net = nn.Sequential(nn.ReLU(), nn.Tanh(), nn.ReLU())\n'
        'print(net[-1], net[1:], net[::-1])\n'
        'net[-1] = nn.ELU(); print(net)\n'
        'from collections import OrderedDict\n'
        'n2 = nn.Sequential(OrderedDict(a=nn.ReLU(), b=nn.Tanh()))\n'
        'del n2[0]; print(n2, n2._modules)\n'),
    'containers_3': (
        'nn = torch.nn\n'
        'ml = nn.ModuleList([nn.Linear(2, 2) for _ in range(3)])\n'
        'ml.insert(1, nn.ReLU()); print(ml)\n'
        'ml += [nn.Tanh()]; print(len(ml))\n'
        'del ml[0]; print(ml)\n'
        'print(ml.pop(-1), len(ml))\n'
        'print(ml + nn.ModuleList([nn.ELU()]))\n'
        'print(ml[1:], ml[-1])\n'
        'del ml[::2]; print(ml)\n'
        'for f in [lambda: ml.extend(3), lambda: nn.ModuleList(3), lambda: ml[10], lambda: ml.pop(7)]:\n'
        '    try:\n'
        '        print(f())\n'
        '    except Exception as e:\n'
        '        print(type(e).__name__, e)\n'),
    'containers_4': (
        'nn = torch.nn\n'
        "md = nn.ModuleDict({'a': nn.ReLU(), 'b': nn.Tanh()})\n"
        "md.update({'c': nn.ELU(), 'a': nn.Sigmoid()}); print(md)\n"
        "md.update([('d', nn.ReLU())]); print(list(md))\n"
        "print(md.pop('b'), list(md), 'a' in md)\n"
        "del md['a']; print(md)\n"
        'md.clear(); print(md, len(md))\n'
        'for f in [lambda: md.update(3), lambda: md.update([1]), lambda: md.update([(1, 2, 3)]), lambda: md.p'
        "op('z')]:\n"
        '    try:\n'
        '        print(f())\n'
        '    except Exception as e:\n'
        '        print(type(e).__name__, e)\n'),
    'containers_5': (
        'nn = torch.nn\n'
        'pl = nn.ParameterList([nn.Parameter(torch.ones(2)), torch.zeros(3)])\n'
        'print(pl)\n'
        'print(type(pl[1]).__name__, pl[1].requires_grad, len(pl))\n'
        'pl.append(torch.ones(2, 2)); pl.extend([torch.ones(1)]); print(pl)\n'
        'print(pl[1:3], pl[-1])\n'
        'class M(nn.Module):\n'
        '    def __init__(self):\n'
        '        super().__init__()\n'
        '        self.p = nn.ParameterList([nn.Parameter(torch.ones(2)) for _ in range(2)])\n'
        'm = M(); print([n for n, _ in m.named_parameters()], m)\n'
        'print(list(m.state_dict()))\n'
        'for f in [lambda: pl.extend(torch.ones(2)), lambda: pl(1), lambda: pl[9], lambda: nn.ParameterList(3'
        ')]:\n'
        '    try:\n'
        '        print(f())\n'
        '    except Exception as e:\n'
        '        print(type(e).__name__, e)\n'
        'pl.append(3); print(pl)\n'
        'print(nn.ParameterList())\n'),
    'containers_6': (
        'nn = torch.nn\n'
        "pd = nn.ParameterDict({'b': nn.Parameter(torch.ones(2)), 'a': torch.zeros(3)})\n"
        'print(pd)\n'
        'print(list(pd), list(pd.keys()), [v.shape for v in pd.values()])\n'
        "pd['c'] = torch.ones(1, dtype=torch.float64); print(pd)\n"
        "print(pd.pop('a'), list(pd))\n"
        "print(pd.get('zz'), 'b' in pd, len(pd))\n"
        "print(pd.setdefault('d', torch.ones(1)), list(pd))\n"
        'print(pd.popitem()[0], list(pd))\n'
        'q = pd.copy(); print(type(q).__name__, list(q))\n'
        "print(list(pd | {'e': torch.ones(1)}))\n"
        'class M(nn.Module):\n'
        '    def __init__(self):\n'
        '        super().__init__()\n'
        "        self.p = nn.ParameterDict({'x': nn.Parameter(torch.ones(2))})\n"
        'm = M(); print([n for n, _ in m.named_parameters()], m)\n'
        "for f in [lambda: pd[1], lambda: pd.update(3), lambda: pd.update([1]), lambda: pd(1), lambda: pd['q'"
        ']]:\n'
        '    try:\n'
        '        print(f())\n'
        '    except Exception as e:\n'
        '        print(type(e).__name__, e)\n'
        'pd.clear(); print(pd, len(pd))\n'
        "print(nn.ParameterDict(a=1) if False else nn.ParameterDict([('k', torch.ones(1))]))\n"),
    'container_setitem_order_0': (
        'nn = torch.nn\n'
        'l = nn.Linear(2, 2)\n'
        'l.weight = nn.Parameter(torch.ones(2, 2))\n'
        'print(list(dict(l.named_parameters())))\n'
        'net = nn.Sequential(nn.ReLU(), nn.Tanh())\n'
        'net[0] = nn.ELU()\n'
        "net.add_module('0', nn.ReLU())\n"
        'print(net)\n'),
    'optimizer_named_params_0': (
        'net = torch.nn.Linear(2, 1)\n'
        'opt = torch.optim.Adam(net.named_parameters(), lr=0.1)\n'
        'print(opt)\n'
        "print(opt.state_dict()['param_groups'])\n"
        'print(list(opt.param_groups[0]))\n'
        'net(torch.ones(1, 2)).sum().backward(); opt.step()\n'
        'opt2 = torch.optim.Adam(net.parameters(), lr=0.1)\n'
        "opt.load_state_dict(opt2.state_dict()); print(opt.param_groups[0]['param_names'])\n"
        "for f in [lambda: opt.add_param_group({'params': [torch.nn.Parameter(torch.ones(1))]}),\n"
        "          lambda: torch.optim.SGD([('a', torch.nn.Parameter(torch.ones(1))), torch.nn.Parameter(torc"
        'h.ones(1))], lr=0.1),\n'
        '          lambda: torch.optim.SGD([net], lr=0.1), lambda: torch.optim.SGD([3], lr=0.1)]:\n'
        '    try:\n'
        '        f()\n'
        '    except Exception as e:\n'
        '        print(type(e).__name__, e)\n'
        'opt3 = torch.optim.SGD(net.parameters(), lr=0.1)\n'
        'try:\n'
        "    opt3.add_param_group({'params': [('x', torch.nn.Parameter(torch.ones(1)))]})\n"
        'except Exception as e:\n'
        '    print(type(e).__name__, e)\n'
        'print(opt3.step)\n'),
}


@pytest.mark.parametrize("name", SNIPPETS)
def test_snippet(name):
    """Printed text, warnings and the final error are identical (addresses and C++ locations blanked)."""
    code = SHOW + SNIPPETS[name]
    t, e = run_both(T, E, code)
    assert same(t, e), f"\n{code}\n--- torch\n{t.summary()}--- engine\n{e.summary()}"
