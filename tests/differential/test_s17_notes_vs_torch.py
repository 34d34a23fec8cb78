"""Snippets of learners' study notes on autograd (leaves, hooks, .grad, requires_grad, grad modes) against real
PyTorch: printed text, warnings and the final error must be the same."""
import pytest

T = pytest.importorskip("torch", reason="differential tests need real PyTorch (pip install torch==2.13.0)")
from .harness import TRIES, load_engine, run_both, same  # noqa: E402

E = load_engine()

SNIPPETS = {
    "hook_handles_are_numbered_in_order": (
        'x = torch.tensor(1., requires_grad=True)\n'
        'y = x ** 2\n'
        'h1 = y.register_hook(lambda g: g * 2); h2 = x.register_hook(lambda g: g + 1)\n'
        'm = torch.nn.Linear(1, 1); h3 = m.register_forward_hook(lambda *a: None)\n'
        'print(type(h1.id), h2.id - h1.id, h3.id - h2.id)\n'
        'h1.remove(); h1.remove(); y.backward(); print(x.grad)'),
    "leaf_that_stopped_requiring_grad_gets_none": (
        'x = torch.tensor([1., 2.], requires_grad=True)\n'
        'w = torch.tensor([3., 4.], requires_grad=True)\n'
        'y = (x * x * w).sum()\n'
        'x.register_hook(lambda g: print("hook", g))\n'
        'x.register_post_accumulate_grad_hook(lambda t: print("post", t.grad))\n'
        'x.requires_grad = False\n'
        'y.backward(retain_graph=True); print(x.grad, w.grad)\n'
        'x.requires_grad_(); y.backward(); print(x.grad, w.grad)\n'
        'z = x * 2; x.requires_grad_(False); z.sum().backward(); print(x.grad)'),
    "leaf_detached_in_place_gets_none": (
        'x = torch.ones(3, requires_grad=True)\n'
        'y = (x * 2).sum(); x.detach_(); print(x.requires_grad, x.is_leaf); y.backward(); print(x.grad)'),
    "legacy_constructor_of_a_tensor_is_an_alias": (
        'x = torch.tensor([1., 2.], requires_grad=True)\n'
        'y = torch.Tensor(x); f = torch.FloatTensor(x)\n'
        'print(y, y is x, y._base is x, y.is_leaf, y.grad_fn, f)\n'
        'z = x * 2; w = torch.Tensor(z); print(w, w._base is z); w.sum().backward(); print(x.grad)\n'
        'a = torch.tensor([1., 2.]); b = torch.Tensor(a); b[0] = 7; print(a, a._version, b._base is a)\n'
        'print(torch.Tensor(torch.tensor([1, 2])), torch.Tensor(torch.tensor([1.], dtype=torch.float64)))\n'
        'with torch.no_grad():\n'
        '    n = torch.Tensor(x)\n'
        'print(n, n._base is x)\n'
        'y[0] = 5'),
    "tensor_flags_are_plain_bools": (
        'x = torch.ones(1, requires_grad=True)\n'
        'tries(lambda: torch.tensor([1.], requires_grad=None), lambda: torch.tensor([1.], pin_memory=None),\n'
        '      lambda: torch.ones(2, requires_grad=None), lambda: torch.asarray([1.], requires_grad=None),\n'
        '      lambda: torch.asarray([1.], requires_grad=1), lambda: torch.asarray(x, requires_grad=False))'),
    "detached_view_knows_where_it_starts": (
        'x = torch.tensor([1., 2., 3.], requires_grad=True)\n'
        'v = x[1:]; d = v.detach(); e = v.data\n'
        'print(d.storage_offset(), e.storage_offset(), d._base, d.data_ptr() == v.data_ptr())\n'
        'm = torch.arange(6.).view(2, 3)\n'
        'r = m[1].detach(); print(r.storage_offset(), m[:, 1].data.storage_offset())\n'
        'r.resize_(2); print(r, r.storage_offset())\n'
        'z = torch.empty(0).set_(m[1].detach()); print(z.storage_offset(), z)'),
    "shallow_copy_is_a_new_leaf_on_the_same_memory": (
        'import copy\n'
        'x = torch.tensor([1., 2.], requires_grad=True)\n'
        '(x * 2).sum().backward()\n'
        'c = copy.copy(x)\n'
        'print(c is x, c.data_ptr() == x.data_ptr(), c._version, c.is_leaf, c.grad, c.requires_grad, c._base)\n'
        'with torch.no_grad():\n'
        '    c[0] = 9\n'
        'print(x, x._version, c._version)\n'
        'y = x * 2; d = copy.copy(y); print(d, d.is_leaf, d.grad_fn, d.data_ptr() == y.data_ptr())\n'
        'e = copy.copy(x[1:]); print(e, e._base, e.storage_offset())\n'
        'p = torch.nn.Parameter(torch.ones(2)); q = copy.copy(p); print(type(q), q, q._version)\n'
        'h = y.register_hook(lambda g: g); print(copy.copy(y)); h.remove(); print(copy.copy(y))'),
    "grad_dtype_of_leaves": (
        'x = torch.tensor([1., 2.], requires_grad=True)\n'
        'y = x * 2\n'
        'print(x.grad_dtype, torch.arange(2).grad_dtype, torch.nn.Parameter(torch.ones(1)).grad_dtype)\n'
        'def set_to(t, d):\n'
        '    t.grad_dtype = d\n'
        'x.grad = torch.ones(2)\n'
        'tries(lambda: y.grad_dtype, lambda: set_to(y, torch.float64), lambda: set_to(y, "a"),\n'
        '      lambda: set_to(x, torch.float64), lambda: set_to(x, torch.float32), lambda: set_to(x, None))\n'
        'x.grad = torch.ones(2, dtype=torch.float64); print(x.grad, x.grad_dtype)\n'
        'tries(lambda: set_to(x, torch.float16)); (x * 2).sum().backward(); print(x.grad)\n'
        'q = torch.tensor([1., 2.], requires_grad=True); q.grad_dtype = torch.float16\n'
        'tries(lambda: setattr(q, "grad", torch.ones(2)))\n'
        '(q * 2).sum().backward(); (q * 2).sum().backward(); print(q.grad)\n'
        'z = torch.tensor([1., 2.], requires_grad=True); h = (z * 3).sum()\n'
        'z.grad_dtype = torch.float64; h.backward(); print(z.grad, z.grad_dtype)\n'
        'z.grad = None; z.grad_dtype = torch.float32; (z * 3).sum().backward(); print(z.grad)'),
    "allow_unused_is_read_before_the_pass": (
        'x = torch.tensor([1., 2.], requires_grad=True)\n'
        'y = x * 2\n'
        'y.register_hook(lambda g: print("hook", g))\n'
        'tries(lambda: torch.autograd.grad(y.sum(), x, allow_unused="a"),\n'
        '      lambda: torch.autograd.grad(y.sum(), x, allow_unused=1.5, retain_graph=True),\n'
        '      lambda: torch.autograd.grad(y.sum(), x, allow_unused=300, retain_graph=True),\n'
        '      lambda: torch.autograd.grad(y.sum(), x, materialize_grads="a", retain_graph=True),\n'
        '      lambda: torch.autograd.grad(y.sum(), x, allow_unused=2))'),
    "grad_mode_decorating_a_class": (
        'x = torch.ones(2, requires_grad=True)\n'
        '@torch.no_grad()\n'
        'class A:\n'
        '    def __init__(self, t):\n'
        '        self.y = t * 2\n'
        'print(A, A.__name__, A(x).y, type(A(x)).__name__)\n'
        '@torch.enable_grad\n'
        'class B:\n'
        '    pass\n'
        'print(B)\n'
        '@torch.inference_mode()\n'
        'class C:\n'
        '    def __init__(self):\n'
        '        self.v = torch.ones(1)\n'
        'print(C().v.is_inference())'),
    "grad_made_in_inference_mode_is_not_added_to_outside": (
        'x = torch.ones(2, requires_grad=True)\n'
        'y = (x ** 2).sum()\n'
        'with torch.inference_mode():\n'
        '    y.backward()\n'
        '    (x ** 2).sum().backward()\n'
        'print(x.grad, x.grad.is_inference())\n'
        'w = torch.ones(2, requires_grad=True)\n'
        'with torch.inference_mode():\n'
        '    w.backward(torch.ones(2))\n'
        '(w * 2).sum().backward(create_graph=True); print(w.grad, w.grad.is_inference())\n'
        'z = torch.ones(2, requires_grad=True)\n'
        'with torch.inference_mode():\n'
        '    z.grad = torch.ones(2)\n'
        'tries(lambda: (z * 3).sum().backward())\n'
        '(x ** 2).sum().backward()'),
    "second_derivative_through_subtraction": (
        'x = torch.tensor([1., 2.], requires_grad=True)\n'
        'y = torch.tensor([3., 4.], requires_grad=True)\n'
        'g, = torch.autograd.grad(((1 - x) ** 2).sum(), x, create_graph=True); print(g, g.grad_fn.next_functions)\n'
        'g, = torch.autograd.grad(((y - x) ** 2).sum(), x, create_graph=True); print(g)\n'
        'gy = torch.ones(2, requires_grad=True)\n'
        'for f in [lambda: 1 - x, lambda: torch.rsub(x, 1, alpha=2), lambda: torch.rsub(x, y), lambda: x - y,\n'
        '          lambda: torch.sub(x, y, alpha=2), lambda: torch.add(x, y, alpha=2), lambda: 2.5 - x]:\n'
        '    gs = torch.autograd.grad(f(), (x, y), gy, create_graph=True, allow_unused=True)\n'
        '    print([None if g is None else (g, g.grad_fn and g.grad_fn.next_functions) for g in gs])'),
    "second_derivative_formulas_in_pytorch_order": (
        'def names(g, d=0):\n'
        '    if g is None or d > 3:\n'
        '        return ""\n'
        '    return g.name() + "(" + ",".join(names(n, d + 1) for n, _ in g.next_functions) + ")"\n'
        'x = torch.tensor([[1., 2.], [3., 0.5]], requires_grad=True)\n'
        'y = torch.tensor([[3., 4.], [-1., 2.]], requires_grad=True)\n'
        'v = torch.tensor([0.5, -2.], requires_grad=True)\n'
        'for f in [lambda: torch.addcmul(x, x, y, value=2), lambda: torch.addcdiv(x, x, y, value=0.5),\n'
        '          lambda: torch.addmm(x, x, y, beta=0.5, alpha=2), lambda: torch.lerp(x, y, y), lambda: x.mv(v),\n'
        '          lambda: torch.maximum(x, y), lambda: torch.minimum(x, y), lambda: torch.cdist(x, y),\n'
        '          lambda: torch.nn.functional.mish(x), lambda: torch.baddbmm(x[None], x[None], y[None], beta=2, alpha=3),\n'
        '          lambda: torch.nn.functional.binary_cross_entropy(x.sigmoid(), y.sigmoid()),\n'
        '          lambda: (x.abs() + 1).rsqrt() + (y / 5).atanh(), lambda: x.amax(1) + y.amax(0)]:\n'
        '    gs = torch.autograd.grad(f().sum() * v.sum(), (x, y), create_graph=True, allow_unused=True)\n'
        '    print([None if g is None else (g, names(g.grad_fn)) for g in gs])\n'
        'p = torch.tensor([0.3, 0.9, 0.01, 0.77]); t = torch.tensor([0.2, 0.5, 0.7, 0.1], requires_grad=True)\n'
        'w = torch.tensor([1.5, 0.5, 2., 1.])\n'
        'for r in ["mean", "sum", "none"]:\n'
        '    l = torch.nn.functional.binary_cross_entropy(p, t, weight=w, reduction=r)\n'
        '    print(torch.autograd.grad(l.sum(), t)[0].tolist())'),
    "bce_losses_gradients_in_pytorch_order": (
        'import torch.nn.functional as F\n'
        'torch.manual_seed(0)\n'
        'x = torch.randn(4, 5, requires_grad=True); t = torch.rand(4, 5, requires_grad=True)\n'
        'w = torch.rand(5) + 0.5; pw = torch.rand(5) + 0.5\n'
        'for kw in [{}, {"weight": w}, {"pos_weight": pw}, {"weight": w, "pos_weight": pw}]:\n'
        '    for r in ["mean", "sum", "none"]:\n'
        '        gx, gt = torch.autograd.grad(F.binary_cross_entropy_with_logits(x, t, reduction=r, **kw).sum(), (x, t))\n'
        '        print(gx.flatten().tolist(), gt.flatten().tolist())\n'
        '        l = F.binary_cross_entropy(x.sigmoid(), t.detach(), reduction=r, weight=kw.get("weight"))\n'
        '        print(torch.autograd.grad(l.sum(), x)[0].flatten().tolist())'),
    "double_backward_of_poisson_loss_and_copysign": (
        'def names(g, d=0):\n'
        '    if g is None or d > 2:\n'
        '        return ""\n'
        '    return g.name() + "(" + ",".join(names(n, d + 1) for n, _ in g.next_functions) + ")"\n'
        'x = torch.tensor([[1.2, -0.7, 0.3], [0.4, 2.0, -1.5]], requires_grad=True)\n'
        'y = torch.tensor([[0.5, 1.5, -2.0], [1.0, -0.3, 0.8]], requires_grad=True)\n'
        'for f in [lambda: torch.nn.functional.poisson_nll_loss(x, y.abs()), lambda: torch.copysign(x, y),\n'
        '          lambda: torch.nn.functional.binary_cross_entropy_with_logits(x, y)]:\n'
        '    v = torch.tensor(1.5, requires_grad=True)\n'
        '    gs = torch.autograd.grad(f().sum() * v, (x, y), create_graph=True, allow_unused=True)\n'
        '    print([None if g is None else (g, names(g.grad_fn)) for g in gs])'),
    "create_graph_through_views_changed_in_place_squeeze_and_cumsum": (
        'def names(g, d=0):\n'
        '    if g is None or d > 3:\n'
        '        return ""\n'
        '    return g.name() + "(" + ",".join(names(n, d + 1) for n, _ in g.next_functions) + ")"\n'
        'x = torch.tensor([[1.5, 0.5, 2.], [0.3, -1., 0.7]], requires_grad=True)\n'
        'w = torch.tensor([2., 3.], requires_grad=True)\n'
        'for f in [lambda y: y.view(6).tanh_(), lambda y: y[:, 1].mul_(w), lambda y: y.t()[1:].sigmoid_(),\n'
        '          lambda y: y[0].zero_(), lambda y: y.diagonal().mul_(3)]:\n'
        '    y = x + 0; f(y)\n'
        '    gs = torch.autograd.grad((y * y).sum(), (x, w), create_graph=True, allow_unused=True)\n'
        '    print([None if g is None else (g, names(g.grad_fn)) for g in gs])\n'
        '    print(torch.autograd.grad(gs[0].sum(), (x, w), allow_unused=True))\n'
        'z = torch.tensor([[[1.5], [0.5], [2.]]], requires_grad=True)\n'
        'for f in [lambda t: t.squeeze(), lambda t: t.squeeze(1), lambda t: t.squeeze((0, 1)), lambda t: t[0].squeeze(),\n'
        '          lambda t: t.clone().squeeze_(0), lambda t: t.view(3) @ torch.ones(3, 2), lambda t: t.cumsum(2),\n'
        '          lambda t: t.cumsum(1)]:\n'
        '    v = torch.tensor(2., requires_grad=True)\n'
        '    g, = torch.autograd.grad((f(z).exp() * v).sum(), z, create_graph=True)\n'
        '    print(g.shape, names(g.grad_fn))'),
    "expanding_a_scalar_with_minus_one": (
        'x = torch.tensor(1.5, requires_grad=True)\n'
        'tries(lambda: x.expand(-1), lambda: x.expand(2, -1), lambda: x.expand(-1, 2), lambda: x.expand([-2]),\n'
        '      lambda: x[None].expand(2, -1), lambda: x[None].expand(-1, 2), lambda: x.expand(2, 3))'),
}


@pytest.mark.parametrize("name", SNIPPETS)
def test_snippet(name):
    code = SNIPPETS[name]
    t, e = run_both(T, E, TRIES + code)
    assert same(t, e), f"\n{code}\n--- torch\n{t.summary()}--- engine\n{e.summary()}"
