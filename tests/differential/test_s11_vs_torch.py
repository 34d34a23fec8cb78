"""The eleventh session's corners against real PyTorch: in-place changes of a view of a view made in no_grad mode
(PyTorch names the view's own op), the saved strides of mm and the transposed gradients of column-major operands
(W.t() in a Linear), linalg.inv's layout, clamp with tensor bounds, clamp_min / clamp_max, reductions of a 0-d
tensor over dim 0, .mH / .H, uint8 masks, torch.einsum (its graph node by node, values, gradients, errors), and
sums whose order of additions PyTorch fixes (a bias's gradient, the loss of an MLP step). Printed text, warnings
and the final error must be identical."""
import pytest

T = pytest.importorskip("torch", reason="differential tests need real PyTorch (pip install torch==2.13.0)")
from .harness import SHOW, load_engine, run_both, same  # noqa: E402

E = load_engine()

SNIPPETS = {
    "inplace_on_a_view_of_a_no_grad_view": (
        "leaf = torch.ones(4, requires_grad=True)\n"
        "with torch.no_grad():\n"
        "    v = leaf[:3]\n"
        "v2 = v[:2]\n"
        "print(v.requires_grad, v.is_leaf, v2.requires_grad, v2.is_leaf, v2.grad_fn)\n"
        "tries(lambda: v.mul_(2), lambda: v2.mul_(2), lambda: v2.t_(), lambda: v[0].add_(1),\n"
        "      lambda: v.view(3).add_(1), lambda: v.unsqueeze(0).zero_(), lambda: v2.detach().add_(1),\n"
        "      lambda: v2.__setitem__(slice(None), 3.), lambda: v[1:].copy_(torch.zeros(2)))\n"
        "b = leaf * 1\n"
        "with torch.no_grad():\n"
        "    w = b[:3]\n"
        "w2 = w[:2]\n"
        "w3 = w2[1:]\n"
        "b.mul_(2)\n"
        "tries(lambda: w.grad_fn, lambda: w2.grad_fn, lambda: w3.grad_fn, lambda: w3 * 2)\n"
        "with torch.no_grad():\n"
        "    u = leaf.unbind(0)\n"
        "    n = leaf[1:][:2]\n"
        "tries(lambda: u[0].add_(1), lambda: n.add_(1), lambda: n[0].add_(1))\n"
        "with torch.no_grad():\n"
        "    v2.mul_(2)\n"
        "print(leaf, v2._version)"),
    "einsum_graphs_values_and_errors": (
        'torch.manual_seed(0)\n'
        'def walk(fn, d=0):\n'
        '    if fn is None or d > 9: return\n'
        "    print('  ' * d + type(fn).__name__, {k: getattr(fn, k) for k in dir(fn) if k.startswith('_saved_') and not isinstance(getattr(fn, k), torch.Tensor)})\n"
        '    for n, _ in fn.next_functions: walk(n, d + 1)\n'
        'def data(*shape, k=1):\n'
        '    n = 1\n'
        '    for s in shape: n *= s\n'
        '    return (((torch.arange(n) * 7919 * k) % 1000 - 500) / 173.).view(*shape)\n'
        'a = data(2, 3).requires_grad_(); b = data(3, 4, k=3).requires_grad_(); v = data(3, k=5).requires_grad_()\n'
        'q = data(2, 5, 3, k=7).requires_grad_(); kk = data(2, 6, 3, k=11).requires_grad_(); sq = data(3, 3, k=13).requires_grad_()\n'
        "cases = [('ij,jk->ik', (a, b)), ('ij,jk->ki', (a, b)), ('ij->ji', (a,)), ('ij->ij', (a,)), ('ij->', (a,)), ('ij->j', (a,)),\n"
        "         ('i,i->', (v, v)), ('i,j->ij', (v, v)), ('bid,bjd->bij', (q, kk)), ('ii->i', (sq,)), ('ii', (sq,)), ('ii->', (sq,)),\n"
        "         ('ij,j->i', (a, v)), ('bij,bjk->bik', (q, kk.transpose(1, 2))), ('ij,jk', (a, b)), ('...ij->...ji', (q,)),\n"
        "         ('b...d,b...d->b...', (q, q)), ('ij,jk,kl->il', (a, b, data(4, 2, k=17).requires_grad_())), ('i,i,i->i', (v, v, v)),\n"
        "         ('ik,kj->', (a, b)), ('bn,anm,bm->ba', (data(2, 3), data(4, 3, 5, k=3).requires_grad_(), data(2, 5, k=5))),\n"
        "         ('iJ,Jk->ik', (a, b)), ('i j , j k -> i k', (a, b)), ('ji', (a,)), ('i,i', (v, v))]\n"
        'for eq, ops in cases:\n'
        '    r = torch.einsum(eq, *ops)\n'
        '    print(eq, r)\n'
        '    walk(r.grad_fn)\n'
        '    r.sum().backward()\n'
        '    print([None if o.grad is None else o.grad.tolist() for o in ops])\n'
        '    for o in ops:\n'
        '        o.grad = None\n'
        "print(torch.einsum('ij,jk->ik', [a, b]).shape, torch.einsum(a, [0, 1], b, [1, 2], [0, 2]).shape, torch.einsum(a, [0, 1], b, [1, 2]).shape)\n"
        'print(torch.einsum(q, [Ellipsis, 1], [Ellipsis]).shape)\n'
        "x = torch.tensor([[1, 2], [3, 4]]); print(torch.einsum('ij,jk->ik', x, x), torch.einsum('ii', x))\n"
        'def tries(*fs):\n'
        '    for f in fs:\n'
        "        try: print('ok', f())\n"
        '        except Exception as e: print(type(e).__name__, e)\n'
        "tries(lambda: torch.einsum('ij,jk->ik', a), lambda: torch.einsum('ij->ik', a), lambda: torch.einsum('ij,jk->ik', a, a),\n"
        "      lambda: torch.einsum('ijk->ij', a), lambda: torch.einsum('i2->i', a), lambda: torch.einsum('ij->ii', a),\n"
        "      lambda: torch.einsum('ij', a, b), lambda: torch.einsum('..i->i', v), lambda: torch.einsum('...i...->i', v),\n"
        "      lambda: torch.einsum('ii->i', a), lambda: torch.einsum('ij->i.', a), lambda: torch.einsum('ij->......', a),\n"
        "      lambda: torch.einsum('i,i->i', v, torch.ones(4)), lambda: torch.einsum('...i,...i->...', torch.ones(2, 3), torch.ones(4, 3)),\n"
        "      lambda: torch.einsum('ij->i', a.double()), lambda: torch.einsum('ij,jk->ik', a, b.double()), lambda: torch.einsum('ij'),\n"
        "      lambda: torch.einsum(a, [0, 60]), lambda: torch.einsum('ij->i', 5), lambda: torch.einsum('i,i->', v, torch.ones(1)),\n"
        "      lambda: torch.einsum('ij->jI', a))\n"
    ),
    "repeat_layout_and_copy_node": (
        "x = torch.zeros(3)\nw = torch.ones(3, requires_grad=True)\nx.copy_(w * 2)\n"
        "print(x.grad_fn, [n for n in dir(x.grad_fn) if n.startswith('_saved')])\n"
        "y = torch.zeros(2, 3).t()\nz = y.repeat(1, 1)\n"
        "print(z.stride(), z.is_contiguous(), torch.tile(y, (1, 1)).stride(), y.repeat(2, 1).stride())\n"
        "a = torch.arange(6.).view(2, 3).t().requires_grad_()\nr = a.repeat(1, 1)\n"
        "print(r.stride(), r.grad_fn, r.grad_fn._saved_repeats)\n"
        "r.backward(torch.ones(3, 2))\nprint(a.grad, torch.zeros(2, 3).t().repeat(1, 1, 1).stride())"),
    "inverse_layout_and_double_backward": (
        'a = torch.tensor([[2., 1.], [1., 3.]], requires_grad=True)\n'
        'q = torch.tensor([0.5, -1.5], requires_grad=True)\n'
        'n = (q // 1)\n'
        'print(n.grad_fn.name(), n.grad_fn)\n'
        'i = torch.linalg.inv(a)\n'
        "print(i.stride(), i.is_contiguous(), i.grad_fn, [k for k in dir(i.grad_fn) if k.startswith('_saved')])\n"
        'j = a.inverse()\n'
        'print(j.stride(), j.grad_fn)\n'
        'g, = torch.autograd.grad(i.sum(), a, create_graph=True)\n'
        'print(g, g.grad_fn, g.grad_fn.next_functions)\n'
        'def walk(fn, d=0):\n'
        '    if fn is None or d > 7: return\n'
        "    print('  ' * d + type(fn).__name__)\n"
        '    for m, _ in fn.next_functions: walk(m, d + 1)\n'
        'walk(g.grad_fn)\n'
        'g.sum().backward()\n'
        'print(a.grad)\n'
        'b = torch.randn(2, 3, 3).double() + 3 * torch.eye(3).double()\n'
        'print(torch.linalg.inv(b).stride())\n'
        'x = (torch.eye(3) * 3 + torch.arange(9.).view(3, 3) / 10).requires_grad_()\n'
        'y = torch.linalg.matrix_power(x, -2)\n'
        'g, = torch.autograd.grad(y.sum(), x, create_graph=True)\n'
        'walk(g.grad_fn)\n'
        'g.sum().backward()\n'
        'print(x.grad.round(decimals=4))\n'
    ),
    "mm_gradients_of_column_major_operands": (
        'torch.manual_seed(0)\n'
        'for ra, rb in [(True, False), (False, True), (True, True)]:\n'
        '    a = torch.arange(6.).view(2, 3).t().requires_grad_(ra)\n'
        '    b = (torch.arange(8.).view(4, 2) / 3).t().requires_grad_(rb)\n'
        '    y = a.mm(b)\n'
        '    f = y.grad_fn\n'
        "    print(ra, rb, {k: getattr(f, k) for k in dir(f) if k.startswith('_saved') and not k.endswith(('self', 'mat2'))})\n"
        '    g, = torch.autograd.grad(y.sum(), [a] if ra else [b], create_graph=True)\n'
        "    print('  ', g.grad_fn, g.stride(), g)\n"
        'x = torch.arange(6.).view(2, 3).requires_grad_()\n'
        'w = torch.arange(12.).view(4, 3).requires_grad_()\n'
        'out = x @ w.t()\n'
        'gx, gw = torch.autograd.grad(out.sum(), [x, w], create_graph=True)\n'
        'print(gx.grad_fn, gx.stride(), gw.grad_fn, gw.stride(), gw.grad_fn.next_functions)\n'
        'out.sum().backward()\n'
        'print(x.grad.stride(), w.grad.stride(), w.grad)\n'
    ),
    "linear_weight_gradient_layout": (
        'def data(*shape, k=1):\n'
        '    n = 1\n'
        '    for s in shape: n *= s\n'
        '    return (((torch.arange(n) * 7919 * k) % 1000 - 500) / 173.).view(*shape)\n'
        'for n_in, n_out, batch in [(3, 4, 2), (784, 128, 64), (128, 10, 64), (10, 30, 5), (27, 200, 32), (200, 27, 32)]:\n'
        '    lin = torch.nn.Linear(n_in, n_out)\n'
        '    with torch.no_grad():\n'
        '        lin.weight.copy_(data(n_out, n_in, k=3) / 50)\n'
        '        lin.bias.copy_(data(n_out, k=5) / 50)\n'
        '    x = data(batch, n_in, k=7).requires_grad_()\n'
        '    y = lin(x)\n'
        '    g = data(batch, n_out, k=11)\n'
        '    gx, gw = torch.autograd.grad(y, [x, lin.weight], g, create_graph=True)\n'
        '    print(n_in, n_out, gw.grad_fn, gw.grad_fn.next_functions[0][0], gw.stride(), gx.stride())\n'
        '    y.backward(g)\n'
        "    if (n_in, n_out) in ((3, 4), (784, 128), (200, 27)):     # (others: MKL's blocking, not modelled)\n"
        '        print(lin.weight.grad.double().sum().item(), lin.weight.grad.view(-1)[:3].tolist(), x.grad.view(-1)[:3].tolist(),\n'
        '              lin.bias.grad.double().sum().item())\n'
        '    print(lin.weight.grad.stride())\n'
    ),
    "clamp_with_tensor_bounds": (
        'a = torch.tensor([1., 2., 3., 4.], requires_grad=True)\n'
        'lo = torch.tensor([2., 2., 0., 5.], requires_grad=True)\n'
        'hi = torch.tensor([3., 1.5, 2.5, 6.], requires_grad=True)\n'
        'y = a.clamp(min=lo, max=hi)\n'
        'print(y, y.grad_fn, y.grad_fn.next_functions, y.grad_fn._saved_min, y.grad_fn._saved_max, y.grad_fn._saved_self)\n'
        'y.backward(torch.tensor([1., 10., 100., 1000.]))\n'
        'print(a.grad, lo.grad, hi.grad)\n'
        'print(torch.clamp(a, lo).grad_fn, torch.clamp(a.detach(), lo).grad_fn, torch.clamp(a.detach(), max=hi).grad_fn)\n'
        'z = torch.clamp(a.detach(), lo, hi); z.sum().backward(); print(lo.grad, hi.grad)\n'
        'w = torch.clamp(a, torch.tensor(2.))\n'
        'print(w.grad_fn.next_functions, w.grad_fn._saved_max)\n'
        'b = torch.tensor([[1., 5.], [3., -2.]], requires_grad=True)\n'
        'm = torch.tensor([0., 2.], requires_grad=True)\n'
        'r = b.clamp(min=m)\n'
        'r.backward(torch.ones(2, 2))\n'
        'print(r, b.grad, m.grad)\n'
        'print(torch.clamp(torch.tensor([1, 5, 9]), torch.tensor([2., 2., 2.]), torch.tensor([4, 4, 4])))\n'
        'print(torch.clamp(torch.tensor([1, 5, 9]), min=torch.tensor([2, 2, 2])))\n'
        'x = torch.tensor([1., 2.], requires_grad=True)\n'
        'mn = torch.tensor([1.5, 0.], requires_grad=True)\n'
        'u = x.clamp(mn, torch.tensor(1.8))\n'
        'print(u, u.grad_fn, u.grad_fn.next_functions)\n'
        'u.sum().backward(); print(x.grad, mn.grad)\n'
        'c = torch.tensor([0.5, 3.], requires_grad=True)\n'
        'g, = torch.autograd.grad(c.clamp(min=lo[:2] * 1).pow(2).sum(), c, create_graph=True)\n'
        'print(g, g.grad_fn)\n'
        'lo2 = lo.detach().clone(); q = a.clamp(min=lo2); lo2.add_(1)\n'
        'try: q.sum().backward()\n'
        'except RuntimeError as e: print(str(e)[:140])\n'
    ),
    "reductions_of_a_0d_tensor_over_dim_0": (
        'z = torch.tensor(3., requires_grad=True)\n'
        'for f in (lambda t: t.sum(0), lambda t: t.sum(-1, True), lambda t: t.mean(-1), lambda t: t.mean((0,)), lambda t: t.prod(0), lambda t: t.amax(0),\n'
        '          lambda t: t.max(0)[0], lambda t: t.logsumexp(0), lambda t: t.softmax(0), lambda t: t.cumsum(0), lambda t: t.var(0, correction=0), lambda t: t.norm(dim=0)):\n'
        '    y = f(z)\n'
        '    g, = torch.autograd.grad(y, z)\n'
        '    print(y, y.grad_fn, g)\n'
        'for f in (lambda: z.transpose(0, -1), lambda: z.select(0, 0), lambda: z.narrow(0, 0, 1), lambda: z.std(0),\n'
        '          lambda: torch.std_mean(z, 0), lambda: torch.count_nonzero(z, 0), lambda: z.H, lambda: z.mT):\n'
        '    tries(f)\n'
    ),
    "matrix_transposes_and_mean_numel": (
        'a = torch.ones(2, 3, requires_grad=True)\n'
        'for t in (a.mT, a.mH, a.H, torch.ones(2, 3, 4, requires_grad=True).mH):\n'
        '    print(t.shape, t.grad_fn, t.grad_fn._saved_dim0, t.grad_fn._saved_dim1)\n'
        'for f in (lambda: torch.ones(2, 3, 4).H, lambda: torch.ones(3).mH, lambda: torch.ones(3).mT, lambda: torch.tensor(1.).H):\n'
        '    try: f()\n'
        '    except RuntimeError as e: print(e)\n'
        'x = torch.arange(6.).view(2, 3).requires_grad_()\n'
        'y = x.mean(-1, True) + x.mean((0, 1)) + x.mean(0)\n'
        'print(y.grad_fn.next_functions[0][0].next_functions[0][0]._saved_self_sym_numel, y.grad_fn.next_functions[1][0]._saved_self_sym_numel)\n'
        'y.sum().backward(); print(x.grad)\n'
        'z = torch.tensor(3., requires_grad=True)\n'
        'm = z.mean(0); print(m.grad_fn._saved_self_sym_numel); m.backward(); print(z.grad)\n'
    ),
    "uint8_masks": (
        'x = torch.tensor([10., 20., 30.])\n'
        'm = torch.tensor([1, 0, 1], dtype=torch.uint8)\n'
        'print(x[m], x[m.bool()])\n'
        'tries(lambda: x.__setitem__(m, 0.))\n'
        'print(torch.tensor([[1., 2.], [3., 4.]])[torch.tensor([[1, 0], [0, 1]], dtype=torch.uint8)])\n'
        'z = torch.zeros(3)\n'
        'z[m] = torch.tensor([1., 2.])\n'
        'print(z)\n'
        'print(torch.arange(6.).view(2, 3)[:, torch.tensor([0, 1, 1], dtype=torch.uint8)])\n'
    ),
    "init_of_empty_tensors": (
        'import warnings\n'
        "for f in ('normal_', 'uniform_', 'zeros_', 'ones_', 'constant_', 'kaiming_uniform_', 'kaiming_normal_'):\n"
        "    args = (torch.empty(0),) if f != 'constant_' else (torch.empty(0), 1.)\n"
        '    with warnings.catch_warnings(record=True) as c:\n'
        "        warnings.simplefilter('always')\n"
        '        r = getattr(torch.nn.init, f)(*args)\n'
        '    print(f, r, r._version, [str(w.message) for w in c])\n'
        't = torch.empty(0, 3)\n'
        'print(torch.nn.init.kaiming_uniform_(t), torch.nn.Linear(0, 3).weight.shape)\n'
    ),
    "sums_of_0d_tensors_over_dim_0": (
        "for z in (torch.tensor(3.), torch.tensor(-0.), torch.tensor(2), torch.tensor(True), torch.tensor(float('nan')), torch.tensor(2.5, requires_grad=True)):\n"
        '    for f in (lambda t: t.sum(0), lambda t: t.sum(-1, keepdim=True), lambda t: t.sum((0,)), lambda t: t.nansum(0), lambda t: t.nanmean(0) if t.dtype.is_floating_point else None,\n'
        '              lambda t: t.mean(0) if t.dtype.is_floating_point else None, lambda t: t.prod(0), lambda t: t.cumsum(0), lambda t: t.amax(0), lambda t: t.all(0), lambda t: t.count_nonzero(0)):\n'
        '        try: print(f(z))\n'
        '        except Exception as e: print(type(e).__name__, e)\n'
    ),
    "clamp_min_and_clamp_max_nodes": (
        'x = torch.tensor([-1., 0.5, 2.], requires_grad=True)\n'
        'm = torch.tensor([0., 1., 1.], requires_grad=True)\n'
        'for y in (x.clamp_min(0), torch.clamp_min(x, 0.5), x.clamp_max(1), x.clamp_min(m), x.clamp_max(m), x.clamp(min=0), torch.clamp_max(x, m)):\n'
        '    f = y.grad_fn\n'
        "    print(y, type(f).__name__, {k: getattr(f, k) for k in dir(f) if k.startswith('_saved')}, len(f.next_functions))\n"
        'y = x.clamp_min(m); y.backward(torch.ones(3)); print(x.grad, m.grad)\n'
        'x.grad = m.grad = None\n'
        'y = x.clamp_max(m); y.backward(torch.tensor([1., 2., 3.])); print(x.grad, m.grad)\n'
        'z = x.detach().clone().requires_grad_(); w = z * 1; w.clamp_min_(0); print(w.grad_fn); w.sum().backward(); print(z.grad)\n'
        'print(torch.nn.functional.normalize(x, dim=0).grad_fn.next_functions[1][0].next_functions[0][0])\n'
        'print(torch.tensor([1, 5, 9]).clamp_min(2.5), torch.tensor([1, 5]).clamp_max(torch.tensor([3., 3.])))\n'
        'g, = torch.autograd.grad(x.clamp_min(0).pow(2).sum(), x, create_graph=True); print(g, g.grad_fn)\n'
    ),
    "where_broadcast_errors": (
        'tries(lambda: torch.where(torch.ones(2) > 0, torch.ones(3), torch.ones(2)), lambda: torch.where(torch.ones(3) > 0, torch.ones(3), torch.ones(2)),\n'
        '      lambda: torch.where(torch.ones(2, 3) > 0, torch.ones(4, 1), 0.), lambda: torch.where(torch.ones(2, 1) > 0, torch.ones(3), torch.zeros(2, 3)),\n'
        '      lambda: torch.where(torch.tensor([True, False]), 1., torch.zeros(3, 2)))\n'
    ),
    "activation_and_norm_modules": (
        'nn = torch.nn\n'
        'x = torch.tensor([-2., -0.5, 0., 1.5], requires_grad=True)\n'
        'for m in (nn.LeakyReLU(), nn.LeakyReLU(0.2, True), nn.ELU(), nn.ELU(0.5, inplace=True), nn.CELU(), nn.CELU(2.0, True)):\n'
        '    print(m, isinstance(m, nn.ELU), m.inplace, m(x * 1))\n'
        'print(nn.Sequential(nn.Linear(2, 2), nn.CELU(0.3), nn.LeakyReLU(negative_slope=0.1)))\n'
        'x = torch.tensor([-2., -0.5, 0., 1.5], requires_grad=True)\n'
        'for m in (nn.Sigmoid(), nn.Tanh(), nn.LogSigmoid(), nn.Tanhshrink(), nn.Softsign(), nn.Mish(), nn.Hardswish()):\n'
        '    y = m(x)\n'
        '    print(m, y, y.grad_fn)\n'
        'print(nn.Sequential(nn.Sigmoid(), nn.Tanh()))\n'
        'for c in (nn.Dropout2d, nn.KLDivLoss, nn.MarginRankingLoss, nn.HingeEmbeddingLoss, nn.BatchNorm1d, nn.InstanceNorm1d):\n'
        '    print(c.__module__, [k.__name__ for k in c.__mro__[1:3]])\n'
        'print(nn.InstanceNorm1d(3, affine=True), nn.BatchNorm1d(3), nn.InstanceNorm2d(2).weight)\n'
    ),
    "sums_in_pytorchs_order": (
        "def data(*shape, k=1):\n"
        "    n = 1\n"
        "    for s in shape:\n"
        "        n *= s\n"
        "    return (((torch.arange(n) * 7919 * k) % 1000 - 500) / 173.).view(*shape)\n"
        "for shape in [(64, 128), (64, 10), (40, 32), (18, 64), (7, 32), (20, 12), (200, 9), (36, 4)]:\n"
        "    x = data(*shape)\n"
        "    b = torch.zeros(shape[1], requires_grad=True)\n"
        "    (x + b).backward(x * 3)\n"
        "    print(shape, b.grad.double().sum().item(), x.sum(0).tolist()[:3], x.double().sum(0).tolist()[:2])\n"
        "for n in (640, 1024, 96, 8160, 4000):\n"
        "    print(n, data(n).sum().item(), data(n).double().sum().item(), data(n // 8, 8).sum().item())\n"
        "p = data(64, 10, k=3).exp()\n"
        "p = p / p.sum(1, keepdim=True)\n"
        "y = torch.eye(10)[torch.arange(64) % 10]\n"
        "print((-(y * p.log()).sum() / 64).item())"),
}


@pytest.mark.parametrize("name", SNIPPETS)
def test_snippet(name):
    """Printed text, warnings and the final error are identical (addresses and C++ locations blanked)."""
    code = SHOW + SNIPPETS[name]
    t, e = run_both(T, E, code)
    assert same(t, e), f"\n{code}\n--- torch\n{t.summary()}--- engine\n{e.summary()}"
