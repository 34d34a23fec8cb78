"""Snippets in the style of learners' notes on autograd, nn and optim, against real PyTorch: the root gradient's
dtype, autograd.grad's inputs, hook handles, inference mode, activations and their modules (hardtanh, relu6, elu,
softplus, silu, in-place forms), losses' dtype and target checks, linear's dtype errors, optimizers' parameter
checks and state. Printed text, warnings and the final error must be identical."""
import pytest

T = pytest.importorskip("torch", reason="differential tests need real PyTorch (pip install torch==2.13.0)")
from .harness import SHOW as _SHOW, load_engine, run_both, same  # noqa: E402

E = load_engine()

# What each snippet may call: show / tries (see harness.SHOW), F and nn.
SHOW = _SHOW + "F, nn = torch.nn.functional, torch.nn\n"

SNIPPETS = {
    # ---- backward and autograd.grad
    "root_gradient_takes_the_output_dtype": (
        "x = torch.tensor([1., 2., 3.], requires_grad=True)\ny = x * 2\nh = x * 1\n"
        "h.register_hook(lambda g: print('hook', g.dtype))\n"
        "for g in (torch.ones(3, dtype=torch.int64), torch.ones(3, dtype=torch.float64),\n"
        "          torch.ones(3, dtype=torch.bool)):\n"
        "    x.grad = None\n    y.backward(g, retain_graph=True)\n    print(x.grad)\n"
        "h.backward(torch.ones(3, dtype=torch.float64))\n"
        "print(torch.autograd.grad(y, x, torch.ones(3, dtype=torch.float64)))\n"
        "w = torch.tensor(2., requires_grad=True)\nw.backward(torch.tensor(3, dtype=torch.int64))\nprint(w.grad)"),
    "grad_inputs_none_dict_and_materialize": (
        "x = torch.tensor([1., 2.], requires_grad=True)\nl = (x * 2).sum()\n"
        "print(torch.autograd.grad(l, {'a': x}, retain_graph=True))\n"
        "import collections\n"
        "tries(lambda: torch.autograd.grad(l, None), lambda: torch.autograd.grad(None, x),\n"
        "      lambda: torch.autograd.grad(l, collections.OrderedDict(a=x)),\n"
        "      lambda: torch.autograd.grad(l, x, allow_unused=False, materialize_grads=True))\n"
        "print(torch.autograd.grad(l, [x, torch.ones(1, requires_grad=True)], materialize_grads=True))"),
    "assigning_a_grad_of_another_dtype": (
        "w = torch.tensor([1., 2.], requires_grad=True)\nd = torch.ones(2, dtype=torch.float64, requires_grad=True)\n"
        "def s(t, v):\n    t.grad = v\n"
        "tries(lambda: s(w, torch.ones(2, dtype=torch.float64)), lambda: s(w, torch.ones(2, dtype=torch.int64)),\n"
        "      lambda: s(d, torch.ones(2, dtype=torch.int32)), lambda: s(d, torch.ones(2, dtype=torch.uint8)),\n"
        "      lambda: s(w, torch.ones(3)))"),
    "hook_handles": (
        "a = torch.tensor(1., requires_grad=True)\nh = a.register_hook(lambda g: print('h', g))\n"
        "print(h, type(h).__name__)\nh.remove()\nh.remove()\n(a * 1).backward()\n"
        "with a.register_hook(lambda g: print('ctx', g)) as hh:\n    (a * 2).backward()\n(a * 3).backward()\n"
        "print(a.grad, type(nn.Linear(1, 1).register_forward_hook(lambda *args: None)).__name__)"),
    "inference_mode_is_seen": (
        "a = torch.tensor([1., 2.], requires_grad=True)\nprint(torch.is_inference_mode_enabled())\n"
        "def modes():\n    return torch.is_inference_mode_enabled(), torch.is_grad_enabled()\n"
        "with torch.inference_mode():\n    b = a * 2\n    print(modes())\n"
        "    with torch.inference_mode(False):\n        print(modes())\n"
        "print(b.requires_grad, torch.is_inference_mode_enabled())\n"
        "@torch.inference_mode()\ndef f(v):\n    return torch.is_inference_mode_enabled(), (v * 2).requires_grad\n"
        "print(f(a), torch.is_inference_mode_enabled())"),
    # ---- activations
    "softplus_saves_its_default_numbers": (
        "x = torch.tensor([1., -2.], requires_grad=True)\n"
        "for y in (F.softplus(x), F.softplus(x, beta=2.0), nn.Softplus()(x), nn.Softplus(2, 5)(x)):\n    show(y)\n"
        "print(nn.Softplus(), nn.Softplus(beta=2, threshold=5))"),
    "activation_modules": (
        "x = torch.tensor([-2., -0.5, 0., 1., 2.], requires_grad=True)\n"
        "for m in [nn.ELU(), nn.ELU(alpha=0.3), nn.SiLU(), nn.Softplus(beta=0.5), nn.Hardtanh(), nn.Hardtanh(-2, 2),\n"
        "          nn.ReLU6(), nn.Hardtanh(0., 1.), nn.ReLU6(inplace=True), nn.ELU(inplace=True),\n"
        "          nn.SiLU(inplace=True)]:\n"
        "    y = m(x * 1)\n    x.grad = None\n    y.backward(torch.arange(5.))\n"
        "    print(m, y.grad_fn, y, x.grad)\n"
        "tries(lambda: nn.Hardtanh(1., -1.))"),
    "hardtanh_and_relu6": (
        "x = torch.tensor([-2., -0.5, 0., 1., 2., float('nan')], requires_grad=True)\n"
        "for y in (F.hardtanh(x), F.hardtanh(x, -0.5, 1.), F.relu6(x * 4), F.hardtanh(x, min_val=0, max_val=1)):\n"
        "    show(y)\n    x.grad = None\n    y.backward(torch.arange(6.))\n    print(x.grad)\n"
        "tries(lambda: F.hardtanh(x, 2., 1.), lambda: F.hardtanh(x, inplace=True),\n"
        "      lambda: F.hardtanh_(x * 1).grad_fn)\n"
        "print(F.hardtanh(torch.tensor([1, 5]), 0, 3), F.relu6(torch.tensor([1, 7])),\n"
        "      F.relu6(torch.tensor([-1., 7.], dtype=torch.float64)))\n"
        "h = x * 1\nF.relu6(h, inplace=True)\nprint(h, h.grad_fn, h._version)\n"
        "g, = torch.autograd.grad(F.hardtanh(x).sum(), x, create_graph=True)\nshow(g)\n"
        "print(torch.autograd.grad(g.sum(), x))"),
    "inplace_activations_save_what_pytorch_saves": (
        "x = torch.tensor([-2., -0.5, 1.], requires_grad=True)\n"
        "for f in (lambda t: F.elu(t, inplace=True), lambda t: F.elu_(t, 0.5), lambda t: F.leaky_relu(t, 0.2, True),\n"
        "          lambda t: F.leaky_relu_(t), lambda t: nn.LeakyReLU(0.1, inplace=True)(t)):\n"
        "    h = x * 1\n    y = f(h)\n    print(y is h, h._version)\n    show(h)\n"
        "    x.grad = None\n    h.backward(torch.tensor([1., 2., 3.]))\n    print(x.grad)\n"
        "h = x * 1\nF.leaky_relu_(h, -0.2)\ntries(lambda: h.sum().backward())\n"
        "h = x * 1\ne = F.elu(h, inplace=True)\n(e * 2).sum().backward()\nprint(x.grad)\n"
        "h = x * 1\ns = h.sigmoid()\nF.elu_(s)\ntries(lambda: h.sum().backward(), lambda: F.elu_(x))"),
    "leaky_relu_double_backward": (
        "x = torch.tensor([0.5, -1.], requires_grad=True)\n"
        "g, = torch.autograd.grad(F.leaky_relu(x, 0.2).sum(), x, create_graph=True)\nshow(g)\n"
        "print(torch.autograd.grad(g.sum(), x))\n"
        "y = x * 1\nF.leaky_relu_(y, 0.2)\ng, = torch.autograd.grad(y.sum(), x, create_graph=True)\n"
        "print(g, g.grad_fn.next_functions[0][0])\nprint(torch.autograd.grad(g.sum(), x, allow_unused=True))"),
    # ---- losses
    "losses_refuse_integers_and_mix_dtypes": (
        "for a, b in [(torch.tensor([1., 2.]), torch.tensor([1., 2.], dtype=torch.float64)),\n"
        "             (torch.tensor([1., 2.], dtype=torch.float64), torch.tensor([1., 2.])),\n"
        "             (torch.tensor([1., 2.]), torch.tensor([1, 2])), (torch.tensor([1, 2]), torch.tensor([1., 2.])),\n"
        "             (torch.tensor([1, 2]), torch.tensor([1, 2]))]:\n"
        "    for f in [F.mse_loss, F.l1_loss, F.binary_cross_entropy_with_logits, F.smooth_l1_loss]:\n"
        "        tries(lambda: (f.__name__, f(a, b)))\n"
        "    tries(lambda: F.mse_loss(a, b, reduction='none').dtype)\n"
        "z = torch.tensor([-1., 2.], requires_grad=True)\n"
        "l = F.binary_cross_entropy_with_logits(z, torch.tensor([0., 1.], dtype=torch.float64))\nl.backward()\n"
        "print(l, z.grad)"),
    "l1_loss_warns_when_it_broadcasts": (
        "x = torch.tensor([[1.], [2.], [3.]], requires_grad=True)\nt = torch.tensor([1.5, 2., 2.])\n"
        "l = F.l1_loss(x, t)\nprint(l, l.grad_fn.next_functions[0][0].next_functions[0][0].next_functions)\n"
        "print(nn.L1Loss(reduction='sum')(x, t))\nl.backward()\nprint(x.grad)"),
    "bce_with_logits_target_checks": (
        "z = torch.tensor([-1., 2., 0.5], requires_grad=True)\nt = torch.tensor([0., 1., 1.])\n"
        "tries(lambda: F.binary_cross_entropy_with_logits(z, t[:2]), lambda: nn.BCEWithLogitsLoss()(z, t[None]),\n"
        "      lambda: F.binary_cross_entropy(z.sigmoid(), t[:2]))"),
    "nll_loss_target_checks": (
        "lp = torch.log_softmax(torch.tensor([2., 1., 0.1]), 0)\n"
        "for t in [torch.tensor(1), torch.tensor([1]), torch.tensor([1, 2]), torch.tensor([[1]]),\n"
        "          torch.tensor([], dtype=torch.long), torch.tensor([1], dtype=torch.uint8), torch.tensor([True]),\n"
        "          torch.tensor([1], dtype=torch.int16)]:\n"
        "    tries(lambda: F.nll_loss(lp, t))\n"
        "lp2 = torch.log_softmax(torch.tensor([[2., 1., 0.1]]), 1)\n"
        "for t in [torch.tensor([[1]]), torch.tensor([1], dtype=torch.uint8), torch.tensor([True]),\n"
        "          torch.tensor([1.]),\n"
        "          torch.tensor([1], dtype=torch.int32)]:\n"
        "    tries(lambda: F.nll_loss(lp2, t), lambda: F.cross_entropy(lp2, t))"),
    "cross_entropy_checks_probability_targets_first": (
        "tries(lambda: F.cross_entropy(torch.tensor([1, 2]), torch.tensor([0, 1])),\n"
        "      lambda: F.cross_entropy(torch.tensor([[2., 1., 0.1]]), torch.tensor([[0, 0, 1]])),\n"
        "      lambda: F.cross_entropy(torch.tensor([[2., 1.]]), torch.tensor([[0.2, 0.8]], dtype=torch.float64)),\n"
        "      lambda: F.cross_entropy(torch.tensor([[1, 2]]), torch.tensor([1])))"),
    "legacy_reduction_arguments_warn": (
        "x = torch.tensor([1., 2.])\ny = torch.tensor([0., 0.])\n"
        "print(F.mse_loss(x, y, size_average=False), F.mse_loss(x, y, reduce=False), F.l1_loss(x, y, reduce=True))\n"
        "print(nn.MSELoss(size_average=False)(x, y), nn.MSELoss(size_average=False).reduction)\n"
        "print(F.nll_loss(torch.tensor([[-1., -2.]]), torch.tensor([1]), size_average=False))"),
    "one_hot_errors": (
        "for a in [(torch.tensor([3]), 2), (torch.tensor([-1]),), (torch.tensor([-1]), 3), "
        "(torch.tensor([], dtype=torch.long),),\n"
        "          (torch.tensor([], dtype=torch.long), 3), (torch.tensor([1]), 0), (torch.tensor([1]), -2),\n"
        "          (torch.tensor([[0, 2], [1, 1]]),)]:\n"
        "    tries(lambda: F.one_hot(*a))"),
    # ---- nn.Linear, optimizers
    "linear_dtype_errors": (
        "W = torch.ones(2, 3)\nb = torch.ones(2)\nm = nn.Linear(3, 2)\n"
        "for x in [torch.ones(3, dtype=torch.float64), torch.ones(4, 3, dtype=torch.float64),\n"
        "          torch.ones(5, 4, 3, dtype=torch.float64), torch.ones(4, 3, dtype=torch.int64)]:\n"
        "    tries(lambda: F.linear(x, W, b), lambda: m(x), lambda: torch.addmm(b, x.view(-1, 3), W.t()))\n"
        "tries(lambda: F.linear(torch.ones(4, 3), W, torch.ones(2, dtype=torch.float64)),\n"
        "      lambda: torch.addmm(torch.ones(2, dtype=torch.float64), torch.ones(4, 3), torch.ones(2, 2)),\n"
        "      lambda: torch.addmm(torch.ones(2), torch.ones(4, 3, dtype=torch.int32), torch.ones(3)))"),
    "optimizer_parameter_checks": (
        "w = torch.tensor([1., -2.], requires_grad=True)\nh = w * 2\nh.retain_grad()\n"
        "tries(lambda: torch.optim.SGD([w, w], lr=0.1), lambda: torch.optim.SGD({w}, lr=0.1),\n"
        "      lambda: torch.optim.SGD([{'params': {w}}], lr=0.1), lambda: torch.optim.SGD([w * 2], lr=0.1),\n"
        "      lambda: len(torch.optim.SGD([h], lr=0.1).param_groups[0]['params']),\n"
        "      lambda: torch.optim.Adam([{'params': [w]}, {'params': [w]}]))"),
    "optimizer_state": (
        "w = torch.tensor([1., -2.], requires_grad=True)\n"
        "for opt in (torch.optim.SGD([w], lr=0.1), torch.optim.SGD([w], lr=0.1, weight_decay=0.1),\n"
        "            torch.optim.SGD([w], lr=0.1, momentum=0.9), torch.optim.Adam([w], lr=0.1)):\n"
        "    print(opt.state)\n    opt.zero_grad()\n    (w ** 2).sum().backward()\n    opt.step()\n"
        "    print(w in opt.state, opt.state_dict())\n"
        "print(opt.state[torch.tensor(1.)], list(opt.defaults), list(torch.optim.AdamW([w]).param_groups[0]))"),
    # ---- pinned: behaviour that already matched
    "small_training_loop_with_momentum": (
        "X = torch.tensor([[0., 0.], [0., 1.], [1., 0.], [1., 1.]])\nY = torch.tensor([[0.], [1.], [1.], [0.]])\n"
        "net = nn.Sequential(nn.Linear(2, 3), nn.Tanh(), nn.Linear(3, 1))\nwith torch.no_grad():\n"
        "    net[0].weight.copy_(torch.tensor([[0.5, -0.3], [0.8, 0.2], [-0.4, 0.9]]))\n"
        "    net[0].bias.copy_(torch.tensor([0.1, -0.1, 0.]))\n"
        "    net[2].weight.copy_(torch.tensor([[0.3, -0.6, 0.7]]))\n    net[2].bias.fill_(0.05)\n"
        "opt = torch.optim.SGD(net.parameters(), lr=0.5, momentum=0.5)\nloss_fn = nn.MSELoss()\n"
        "for epoch in range(6):\n    opt.zero_grad()\n    loss = loss_fn(net(X), Y)\n    loss.backward()\n"
        "    opt.step()\n    print(f'epoch {epoch}: loss={loss.item():.6f}', loss)\n"
        "print(net, net(X).detach())"),
    "nonleaf_grad_and_inplace_errors": (
        "a = torch.tensor([1., 2.], requires_grad=True)\nb = a.sigmoid()\nc = b * 2\nl = c.sum()\n"
        "l.backward(retain_graph=True)\nprint(c.grad, a.grad)\nb.mul_(2)\ntries(lambda: l.backward())\n"
        "w = torch.tensor([1., 2.], requires_grad=True)\ntries(lambda: w.add_(1), lambda: w[:1].zero_())\n"
        "with torch.no_grad():\n    w -= 0.5\nprint(w, w._version, w.is_leaf)"),
    # 0-d parameters keep 0-d optimizer state; masked_fill of a 0-d tensor stays 0-d
    "zero_dim_params": ("w = torch.tensor(1.0, requires_grad=True)\nv = torch.tensor(2.0, requires_grad=True)\n"
                        "opt = torch.optim.SGD([w], lr=0.1, momentum=0.9)\nopt2 = torch.optim.Adam([v], lr=0.1)\n"
                        "for i in range(2):\n    opt.zero_grad(); opt2.zero_grad()\n"
                        "    (w * w + v * v * w).backward(); opt.step(); opt2.step()\n"
                        "print(w, opt.state[w], v, sorted((k, t) for k, t in opt2.state[v].items()))\n"
                        "print(w.masked_fill(w > 0, -1), w.detach().masked_fill(torch.tensor(True), 3.).shape)"),
    # matmul of a batch and a vector: PyTorch's graph (expand, reshape, unsqueeze, bmm, squeeze, view) and errors
    "matmul_batch_and_vector": (
        'def chain(fn):\n'
        '    out = []\n'
        '    while fn is not None:\n'
        '        out.append(type(fn).__name__)\n'
        "        nxt = [f for f, _ in fn.next_functions if f is not None and type(f).__name__ != 'AccumulateGrad']\n"
        '        fn = nxt[0] if nxt else None\n'
        '    return out\n'
        'a3 = (torch.ones(3, 2, 3, requires_grad=True) * 2)[:, :1]\n'
        'v = torch.tensor([2.0, -0.75, 0.0])\n'
        'vg = torch.tensor([2.0, -0.75, 0.0], requires_grad=True)\n'
        'b3 = torch.ones(3, 3, 2) * 1.5\n'
        "cases = [('3d@1d', lambda: a3 @ v), ('1d@3d', lambda: vg @ b3),\n"
        "         ('1d@3d nc', lambda: vg @ torch.ones(3, 3, 4)[:, :, ::2]),\n"
        "         ('err', lambda: torch.ones(2, 3, 4) @ torch.ones(3, 4, 5)),\n"
        "         ('err2', lambda: torch.ones(2, 3, 4) @ torch.ones(5)), ('3d@1d g', lambda: a3 @ vg),\n"
        "         ('4d@1d', lambda: a3.unsqueeze(0).expand(2, 3, 1, 3) @ v)]\n"
        'for name, f in cases:\n'
        '    try:\n'
        '        r = f()\n'
        '    except Exception as e:\n'
        '        print(name, type(e).__name__, e); continue\n'
        '    print(name, r.shape, chain(r.grad_fn))\n'
        '    r.sum().backward(retain_graph=True)'),
    # a piece of split / unbind after its base changed in place: grad_fn, is_leaf and ops raise, print shows <Invalid>
    "multi_output_view_of_modified_base": (
        'def t(f):\n'
        '    try:\n'
        "        r = f(); print('ok', r)\n"
        '    except Exception as e:\n'
        '        print(type(e).__name__, e)\n'
        'x = torch.arange(4., requires_grad=True)\n'
        'y = x * 1\n'
        'a, b = y.split(2)\n'
        'print(a.grad_fn.name())\n'
        'y.add_(1)\n'
        't(lambda: a.grad_fn)\n'
        't(lambda: a * 2)\n'
        't(lambda: a._version)\n'
        't(lambda: b.sum())\n'
        't(lambda: a.requires_grad)\n'
        't(lambda: a.is_leaf)\n'
        't(lambda: print(a))\n'
        'u = x.unbind()\n'
        'with torch.no_grad():\n'
        '    x.mul_(1)\n'
        't(lambda: u[0].grad_fn)\n'
        'z = x * 1\n'
        'p, q = z.chunk(2)\n'
        'p.detach().zero_()\n'
        't(lambda: p.grad_fn)'),
    # logsigmoid: values, its saved buffer, gradients, double backward node, module and errors
    "logsigmoid": (
        'x = torch.tensor([-1.5, 0.3, 2.0, -30., 0.], requires_grad=True)\n'
        'y = F.logsigmoid(x)\n'
        'print(y, y.grad_fn, y.grad_fn._saved_buffer, y.grad_fn._saved_self)\n'
        'y.backward(torch.tensor([1., 0.5, 2., 1., 1.]), retain_graph=True)\n'
        'print(x.grad.tolist(), torch.nn.LogSigmoid(), torch.nn.LogSigmoid()(x))\n'
        'g, = torch.autograd.grad(F.logsigmoid(x).sum(), x, create_graph=True)\n'
        "print(g.grad_fn, sorted(a for a in dir(g.grad_fn) if a.startswith('_saved')), g.grad_fn.next_functions)\n"
        'h, = torch.autograd.grad(g.sum(), x)\n'
        'print(h.tolist())\n'
        'try: F.logsigmoid(torch.tensor([1, 2]))\n'
        'except Exception as e: print(type(e).__name__, e)\n'
        'print(F.logsigmoid(torch.tensor(0.5)), F.logsigmoid(torch.tensor([0.25, -3.0], dtype=torch.float64)))'),
    # uniform_ / normal_: nodes, leaf error, dtype and range errors (values from the engine's generator)
    "random_init_in_place": (
        'x = torch.ones(3, requires_grad=True) * 1\n'
        'print(x.uniform_().grad_fn.name(), x.normal_(0, 2).grad_fn.name(), x.uniform_(-1, 1).shape, x._version)\n'
        'w = torch.ones(3, requires_grad=True)\n'
        'for f in [lambda: w.uniform_(), lambda: torch.ones(2, dtype=torch.long).uniform_(),\n'
        '          lambda: torch.ones(2, dtype=torch.long).normal_(), lambda: torch.ones(2).uniform_(2, 1),\n'
        '          lambda: torch.ones(2).normal_(0, -1)]:\n'
        "    try: f(); print('ok')\n"
        '    except Exception as e: print(type(e).__name__, e)\n'
        'with torch.no_grad():\n'
        '    print(w.normal_().shape, w._version, w.uniform_(0, 0).tolist())\n'
        'x.sum().backward()\n'
        'print(w.grad)\n'
        'v = torch.zeros(4).uniform_(5, 5)\n'
        'print(v, v.dtype, torch.zeros(2, dtype=torch.float64).normal_(1, 0))'),
    # torch.nn.init is a module one can import
    "nn_init_module": (
        'import torch.nn.init as init\n'
        'from torch.nn import init as init2\n'
        'import torch.nn as nn\n'
        'w = torch.empty(3, 5)\n'
        'init.xavier_uniform_(w)\n'
        'print(w.shape, init is init2, init is nn.init, type(init).__name__)\n'
        'init.zeros_(w); print(w.sum())\n'
        'init.constant_(w, 0.5); print(w.sum())\n'
        'm = nn.Linear(4, 2)\n'
        'nn.init.ones_(m.weight)\n'
        'print(m.weight, m.weight._version)'),
    # a view whose base changed in place, then came to require grad: PyTorch rebuilds its history (AsStrided)
    "stale_view_then_requires_grad": (
        'x2 = torch.tensor([[-2.5, -0.75, -1.25]])\n'
        'x4 = x2[::2, :]\n'
        'with torch.no_grad():\n'
        '    x2.mul_(1)\n'
        'x10 = x2.transpose(0, 0)\n'
        'x2.requires_grad_()\n'
        'print(x4.is_leaf, x4.grad_fn, x4.requires_grad)\n'
        'print(x10.is_leaf, x10.grad_fn, x10.requires_grad)\n'
        '(x4 * 3).sum().backward()\n'
        'print(x2.grad, x4._version, x4.grad_fn.next_functions[0][0].name())\n'
        'y = torch.ones(4)\n'
        'v = y[1:3]\n'
        'y.add_(1)\n'
        'w = y.view(2, 2)\n'
        'y.requires_grad_()\n'
        'print(v.grad_fn, w.grad_fn, v.requires_grad, w.requires_grad, v.is_leaf)'),
    # a grad-mode decorator changes nothing until its function runs
    "grad_mode_decorators": ("@torch.set_grad_enabled(False)\ndef f(x):\n    return x * 2\n"
                             "print(torch.is_grad_enabled())\nx = torch.ones(2, requires_grad=True)\n"
                             "print(f(x).requires_grad, torch.is_grad_enabled())\n"
                             "@torch.no_grad()\ndef g(x):\n    return x * 2\n"
                             "print(g(x).requires_grad, torch.is_grad_enabled())\n"
                             "@torch.inference_mode()\ndef h(x):\n    return x * 2, torch.is_inference_mode_enabled()\n"
                             "print(h(x)[0].requires_grad, h(x)[1], torch.is_inference_mode_enabled())\n"
                             "@torch.enable_grad()\ndef k(x):\n    return x * 2\n"
                             "with torch.no_grad():\n    print(k(x).requires_grad)"),
}


@pytest.mark.parametrize("name", SNIPPETS)
def test_snippet(name):
    """Printed text, warnings and the final error are identical (addresses and C++ locations blanked)."""
    code = SHOW + SNIPPETS[name]
    t, e = run_both(T, E, code)
    assert same(t, e), f"\n{code}\n--- torch\n{t.summary()}--- engine\n{e.summary()}"
