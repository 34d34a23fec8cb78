"""Learners' snippets around torch.nn, torch.optim and training loops, against real PyTorch: what type() says of
parameters, modules and optimizers, registering attributes on a Module and its errors, nn.Linear / F.linear / addmm
with wrong shapes and types, the losses' size errors, loading an optimizer's state, learning-rate schedulers,
cumprod and its gradient, and the in-place comparisons (x.gt_(0))."""
import pytest

T = pytest.importorskip("torch", reason="differential tests need real PyTorch (pip install torch==2.13.0)")
from .harness import TRIES, load_engine, run_both, same  # noqa: E402

E = load_engine()

PRELUDE = "nn = torch.nn\nF = torch.nn.functional\n" + TRIES

SNIPPETS = {
    # ---- a Parameter is of its own class; what ops make of it are plain tensors
    "parameter_type": (
        "import copy\n"
        "p = nn.Parameter(torch.tensor([1., 2.]))\n"
        "print(type(p), p.__class__.__name__, isinstance(p, torch.Tensor), isinstance(p, nn.Parameter))\n"
        "print(type(p * 2), type(p.data), type(p.detach()), type(p[0]), type(p.clone()), type(copy.deepcopy(p)))\n"
        "print(type(nn.Parameter(nn.Parameter(torch.ones(1)))), type(nn.Parameter(torch.ones(1), False)))\n"
        "with torch.no_grad():\n    print(type(p.mul_(2)), p)\n"
        "lin = nn.Linear(2, 1)\n"
        "print(type(lin.weight), type(lin), type(nn.ReLU()), type(nn.Sequential()), type(nn.MSELoss()))\n"
        "print(type(torch.optim.SGD([p], lr=0.1)), type(torch.optim.Adam([p])))\n"
        "print([type(q).__name__ for q in lin.parameters()], type(lin.state_dict()['weight']))\n"
        # (every op takes a Parameter as the tensor it is)
        "w = nn.Parameter(torch.tensor([[1., 2.], [3., 4.]]))\nb = nn.Parameter(torch.tensor(0.5))\n"
        "x = torch.tensor([[1., -1.], [2., 0.]])\n"
        "y = (x @ w + b).relu().sum()\nprint(y)\ny.backward()\nprint(w.grad, b.grad)\n"
        "print(w + 1, 2 ** b, torch.cat([w, w]).grad_fn, torch.stack([b, b]), w.pow(b), x.add(w, alpha=2))\n"
        "print(type(w.grad), w.grad_fn, (w * 1).is_leaf)"),
    # ---- Module attributes: the names that are taken, how PyTorch names a wrong object
    "register_errors": (
        "m = nn.Linear(2, 2)\n"
        "def f(x):\n    return x\n"
        "class C:\n    pass\n"
        "tries(lambda: m.register_buffer('weight', torch.ones(1)), lambda: m.register_parameter('training', None),\n"
        "      lambda: m.register_buffer('forward', None), lambda: m.add_module('weight', nn.ReLU()),\n"
        "      lambda: m.add_module('a.b', nn.ReLU()), lambda: m.add_module('', nn.ReLU()),\n"
        "      lambda: m.add_module(1, nn.ReLU()), lambda: m.register_buffer(1, None),\n"
        "      lambda: m.register_parameter(1.5, None), lambda: m.add_module('x', f), lambda: m.add_module('x', C()),\n"
        "      lambda: m.add_module('x', C), lambda: m.add_module('x', torch.ones(2)),\n"
        "      lambda: m.add_module('x', F.relu), lambda: m.add_module('x', torch.sigmoid),\n"
        "      lambda: nn.Sequential(nn.Linear(2, 2), nn.ReLU), lambda: nn.Sequential(nn.ReLU(), torch.tanh),\n"
        "      lambda: nn.ModuleList([nn.Sigmoid]), lambda: nn.ModuleDict({'train': nn.ReLU()}),\n"
        "      lambda: m.register_parameter('', None), lambda: m.register_buffer('weight', None))"),
    "module_odds": (
        "m = nn.Sequential(nn.Linear(1, 1))\n"
        "tries(lambda: m['a'], lambda: m[1.0], lambda: m[True], lambda: m.half().state_dict()['0.weight'].dtype)\n"
        "print(m.named_parameters(), m.named_buffers(), m.parameters())\n"
        "print(m.half()[0].weight.dtype, m.float()[0].weight.dtype)"),
    # ---- nn.Linear / F.linear / addmm: the parser's type errors, 0-d inputs, bias shapes and their paths
    "linear_errors": (
        "lin = nn.Linear(3, 2)\nw = torch.ones(2, 3)\n"
        "tries(lambda: lin([1., 2., 3.]), lambda: lin(torch.tensor(1.)), lambda: lin(None),\n"
        "      lambda: F.linear(torch.ones(3), [[1., 2., 3.]]), lambda: F.linear(torch.ones(3), w, 1.0),\n"
        "      lambda: F.linear(torch.ones(3), torch.tensor(2.)),\n"
        "      lambda: F.linear(torch.tensor(1.), torch.tensor(2.)),\n"
        "      lambda: F.linear(torch.ones(3), torch.ones(3), torch.tensor(1.)),\n"
        "      lambda: F.linear(torch.ones(2, 3), w, torch.ones(3)),\n"
        "      lambda: F.linear(torch.ones(3), w, torch.ones(3)),\n"
        "      lambda: F.linear(torch.ones(4, 2, 3), w, torch.ones(3)),\n"
        "      lambda: F.linear(torch.ones(2, 3), torch.ones(3)),\n"
        "      lambda: F.linear(torch.ones(3), w, torch.ones(2, 2)),\n"
        "      lambda: F.linear(torch.ones(2, 2, 3), w, torch.ones(4, 2)))"),
    "linear_bias_paths": (
        "for xs, bs in [((3,), ()), ((2, 2, 3), ()), ((2, 2, 3), (1, 2)), ((2, 2, 2, 3), (2,)), ((3,), (1, 2)),\n"
        "               ((2, 2, 3), (2, 2)), ((2, 3), (1, 2))]:\n"
        "    x = torch.arange(float(torch.Size(xs).numel())).view(xs).requires_grad_()\n"
        "    y = F.linear(x, torch.ones(2, 3), torch.ones(bs))\n"
        "    print(xs, bs, y, y.grad_fn.next_functions)\n"
        "    y.sum().backward()\n    print(x.grad)\n"
        "x = torch.ones(3, requires_grad=True)\ny = F.linear(x, torch.ones(3), torch.tensor(1.))\n"
        "print(y, y.grad_fn.next_functions)"),
    "addmm_errors": (
        "tries(lambda: torch.addmm(torch.ones(3), torch.ones(2, 3), torch.ones(4, 2)),\n"
        "      lambda: torch.addmm(torch.ones(3, 2), torch.ones(1, 3), torch.ones(3, 2)),\n"
        "      lambda: torch.addmm(torch.ones(1, 1, 2), torch.ones(1, 3), torch.ones(3, 2)),\n"
        "      lambda: torch.addmm(torch.ones(3), torch.ones(3), torch.ones(3, 2)),\n"
        "      lambda: torch.addmm(torch.ones(2), torch.ones(2, 3), torch.ones(3)),\n"
        "      lambda: torch.addmm(torch.ones(2, 1), torch.ones(2, 3), torch.ones(3, 4)),\n"
        "      lambda: torch.addmm(torch.ones(3), torch.ones(2, 3), torch.ones(3, 2)))"),
    # ---- losses: sizes that do not broadcast, targets that are not tensors
    "loss_size_errors": (
        "x = torch.tensor([[1., 2.], [3., 4.]])\n"
        "tries(lambda: nn.MSELoss()(x, torch.ones(3)), lambda: F.mse_loss(x, torch.ones(3, 2)),\n"
        "      lambda: nn.MSELoss()(x, 1.0), lambda: F.mse_loss([1., 2.], torch.ones(2)),\n"
        "      lambda: nn.L1Loss()(x, torch.ones(3)), lambda: F.l1_loss(x, 2),\n"
        "      lambda: nn.SmoothL1Loss()(x, torch.ones(1, 3)), lambda: nn.HuberLoss()(x, [1., 2.]),\n"
        "      lambda: nn.MSELoss()(x, torch.ones(2)))"),
    # ---- optimizers: state_dict() back into an optimizer
    "optimizer_load_state_dict": (
        "w = nn.Parameter(torch.tensor([1., 2.]))\nb = nn.Parameter(torch.tensor([1.]))\n"
        "o = torch.optim.SGD([w, b], lr=0.1, momentum=0.9)\n"
        "(w.sum() + b.sum()).backward()\no.step()\nsd = o.state_dict()\n"
        "tries(lambda: torch.optim.SGD([w], lr=0.1).load_state_dict(sd),\n"
        "      lambda: torch.optim.SGD([{'params': [w]}, {'params': [b]}], lr=0.1).load_state_dict(sd),\n"
        "      lambda: o.load_state_dict({'state': {}}))\n"
        "w2 = w.double().detach().requires_grad_()\n"
        "o2 = torch.optim.SGD([w2, b], lr=0.5, momentum=0.2)\n"
        "print(o2.load_state_dict(sd), o2.state_dict(), o2)\n"
        "print(o2.state[w2]['momentum_buffer'] is sd['state'][0]['momentum_buffer'])\n"
        "w2.grad = torch.ones(2, dtype=torch.float64)\no2.step()\nprint(w2, o2.state_dict()['state'])\n"
        "a = torch.optim.Adam([w], lr=0.1)\na.step()\n"
        "a2 = torch.optim.Adam([w2])\na2.load_state_dict(a.state_dict())\na2.step()\n"
        "print(a2.state_dict(), w2)"),
    # ---- learning-rate schedulers: each step's lr from the last, 'initial_lr' in the groups, the warnings
    "lr_schedulers": (
        "sch = torch.optim.lr_scheduler\n"
        "w = nn.Parameter(torch.tensor([1., 2.]))\nb = nn.Parameter(torch.tensor([1.]))\n"
        "opt = torch.optim.SGD([w], lr=0.1)\ns = sch.StepLR(opt, step_size=2, gamma=0.5)\n"
        "print(opt, s.get_last_lr(), s.last_epoch, s)\n"
        "for i in range(5):\n"
        "    opt.zero_grad()\n    (w ** 2).sum().backward()\n    opt.step()\n    s.step()\n"
        "    print(i, s.get_last_lr(), opt.param_groups[0]['lr'], w)\n"
        "print(opt.state_dict(), s.state_dict())\n"
        "makers = [lambda o: sch.MultiStepLR(o, [2, 4, 4], gamma=0.3),\n"
        "          lambda o: sch.LambdaLR(o, lambda e: 0.95 ** e),\n"
        "          lambda o: sch.LambdaLR(o, [lambda e: 1 / (e + 1), lambda e: e]),\n"
        "          lambda o: sch.CosineAnnealingLR(o, T_max=3, eta_min=0.001), lambda o: sch.CosineAnnealingLR(o, 4),\n"
        "          lambda o: sch.ExponentialLR(o, 0.9)]\n"
        "for make in makers:\n"
        "    opt = torch.optim.Adam([{'params': [w]}, {'params': [b], 'lr': 0.5}], lr=0.1)\n"
        "    s = make(opt)\n"
        "    for i in range(9):\n        opt.step()\n        s.step()\n        print(i, s.get_last_lr())\n"
        "tries(lambda: sch.LambdaLR(opt, [lambda e: e]), lambda: sch.StepLR(opt, 2, last_epoch=3))"),
    "lr_scheduler_warnings": (
        "w = nn.Parameter(torch.tensor([1., 2.]))\nopt = torch.optim.SGD([w], lr=0.1)\n"
        "s = torch.optim.lr_scheduler.ExponentialLR(opt, gamma=0.9)\ns.step()\n"
        "print(s.get_lr(), s.get_last_lr(), opt.param_groups)\nopt.step()\ns.step()\nprint(s.get_last_lr())"),
    # ---- cumprod: values, dtypes, and PyTorch's gradient around zeros (slice by slice under create_graph)
    "cumprod_values": (
        "x = torch.tensor([1, 2, 3])\n"
        "print(torch.cumprod(x, 0), x.cumprod(dim=0, dtype=torch.float32),\n"
        "      torch.cumprod(torch.tensor([True, True]), 0))\n"
        "y = torch.tensor([0.3, 1.7, -2.1, 3.3, 0.9, 1.1, 0.7])\n"
        "print(y.cumprod(0).tolist(), y.double().cumprod(-1).tolist(), torch.tensor(2.).cumprod(0))\n"
        "a = torch.ones(3)\na.cumprod_(0)\nprint(a)\n"
        "tries(lambda: x.cumprod(1), lambda: torch.ones(2, 2).cumprod(-3))\n"
        "b = torch.tensor([1., 2.], requires_grad=True).clone()\nb.cumprod_(0)\n"
        "print(b, b.grad_fn._saved_self, b.grad_fn._saved_result, b.grad_fn._saved_dim)"),
    "cumprod_grad": (
        "x = torch.tensor([[1., 0., 3.], [2., 0., 0.]], requires_grad=True)\ny = torch.cumprod(x, dim=1)\n"
        "print(y, y.grad_fn, y.grad_fn._saved_dim, y.grad_fn._saved_self is x, y.grad_fn._saved_result)\n"
        "y.backward(torch.tensor([[1., 2., 3.], [4., 5., 6.]]))\nprint(x.grad)\n"
        "for xs in ([[1., 2., 3.], [0., 4., 5.]], [[0., 2., 0., 3., 4.], [2., 0., 3., 0., 5.]], [[1., 0., 3., 2.]],\n"
        "           [[0., 0., 1.]], [[2., 3., 0.]], [[0.5, -1.5, 2.]]):\n"
        "    for dim in (0, 1, -1):\n"
        "        x = torch.tensor(xs, requires_grad=True)\n"
        "        w = torch.arange(1., x.numel() + 1).view(x.shape)\n"
        "        x.cumprod(dim).backward(w)\n        print(dim, x.grad)\n"
        "        x = torch.tensor(xs, requires_grad=True, dtype=torch.float64)\n"
        "        g, = torch.autograd.grad((x.cumprod(dim) * w).sum(), x, create_graph=True)\n"
        "        print(g, torch.autograd.grad(g.sum(), x))\n"
        "x = torch.tensor(3., requires_grad=True)\nx.cumprod(0).backward()\nprint(x.grad)\n"
        "x = torch.tensor([0.5, 1.5, -2., 3.], requires_grad=True)\ny = torch.cumprod(x, 0, dtype=torch.float64)\n"
        "print(y, y.grad_fn)\ny.sum().backward()\nprint(x.grad)"),
    "cumprod_double_backward_graph": (
        "def walk(f, d=0):\n"
        "    if f is not None:\n"
        "        print(' ' * d + f.name())\n"
        "        for n, _ in f.next_functions:\n            walk(n, d + 1)\n"
        "for xs in ([[1., 2., 3.], [0., 4., 5.]], [[1., 2., 3.], [1., 4., 5.]]):\n"
        "    x = torch.tensor(xs, requires_grad=True)\n"
        "    g, = torch.autograd.grad(x.cumprod(-1).sum(), x, create_graph=True)\n"
        "    walk(g.grad_fn)"),
    # ---- x.gt_(0) and friends: 0 / 1 in x's dtype, GtBackward0 / GtBackward1 with zero gradients
    "inplace_comparisons": (
        "x = torch.tensor([1., 2., 3.])\nprint(x.gt_(2), x)\n"
        "x = torch.tensor([1., 2., 3.])\n"
        "print(x.eq_(2), x.ne_(1.), x.lt_(1), x.le_(0), x.ge_(torch.tensor([1., 0., 1.])))\n"
        "x = torch.tensor([1., 2.])\n"
        "print(x.greater_(1), x.less_(1), x.greater_equal_(0), x.less_equal_(0), x.not_equal_(1))\n"
        "w = torch.tensor([1., 2., 3.], requires_grad=True)\n"
        "tries(lambda: w.gt_(1), lambda: w.gt_('a'), lambda: torch.ones(2).gt_(torch.ones(2, 2)),\n"
        "      lambda: torch.ones(2, dtype=torch.bool).lt_(2.5), lambda: torch.tensor([1, 2]).gt_(1.5),\n"
        "      lambda: torch.tensor([1, 2]).lt_(torch.tensor([1, 2, 3])))\n"
        "o = torch.tensor([0., 3., 1.], requires_grad=True)\n"
        "y = w.clone()\ny.gt_(1)\nprint(y, y.grad_fn, y.grad_fn.next_functions)\n"
        "z = w.clone()\nz.le_(o)\nprint(z, z.grad_fn.next_functions)\n"
        "(y * w + z * o).sum().backward()\nprint(w.grad, o.grad)\n"
        "with torch.no_grad():\n    print(w.clone().gt_(1))\n"
        "v = torch.tensor([1., 2., 3.])\nprint(v.le_(o), v.requires_grad, v.grad_fn)"),
}


@pytest.mark.parametrize("name", SNIPPETS)
def test_snippet(name):
    """Printed text, warnings and the final error are identical (addresses and C++ locations blanked)."""
    code = PRELUDE + SNIPPETS[name]
    t, e = run_both(T, E, code)
    assert same(t, e), f"\n{code}\n--- torch\n{t.summary()}--- engine\n{e.summary()}"
