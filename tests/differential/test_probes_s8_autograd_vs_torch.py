"""Autograd corners from learners' study notes, against real PyTorch: sort / topk / median / kthvalue and their
named tuples and gradients, torch.dist, what nodes save (a number base of pow, matmul's in-place squeeze, div's
rounding_mode overload, the clone an in-place op saves of self), hooks on nodes, backward(inputs=...) on non-leaves,
inference tensors, views made under no_grad, saved-tensor hooks. Printed text, warnings and the final error must be
identical."""
import pytest

T = pytest.importorskip("torch", reason="differential tests need real PyTorch (pip install torch==2.13.0)")
from .harness import SHOW, load_engine, run_both, same  # noqa: E402

E = load_engine()

SNIPPETS = {
    # ---- sort, topk, median, kthvalue: torch.return_types, what the nodes save, where the gradient goes
    "sort_topk_saved_and_named_tuples": (
        "x = torch.tensor([[1., 5., 3., 2.], [4., 2., 6., 2.]], requires_grad=True)\n"
        "for y in (x.sort()[0], x.sort(0, True)[0], x.sort(stable=True)[0],\n"
        "          torch.sort(x, dim=-1, descending=True, stable=False)[0], x.topk(2)[0], x.topk(1, 0, False)[0],\n"
        "          x.topk(2, -1, sorted=False)[0], x.msort(), x.median(), x.median(1)[0], x.kthvalue(2, 1)[0],\n"
        "          torch.median(x, 0, True).values, x.kthvalue(1, dim=0, keepdim=True)[0]):\n"
        "    show(y)\n"
        "print(x.argsort(), x.argsort(dim=0), x.argsort(descending=True), torch.argsort(x, 1, True))\n"
        "print(x.sort(0, True), torch.sort(x, 1, True), x.sort(stable=True, dim=0))\n"
        "print(torch.sort(torch.tensor([3, 1, 2])), torch.topk(torch.tensor([3, 1, 2]), 2))\n"
        "print(torch.tensor(5.).sort(), torch.tensor(5.).topk(1), torch.tensor([]).sort(), torch.tensor([]).topk(0))\n"
        "print(torch.tensor([3., float('nan'), 1.]).sort(), torch.tensor([3., float('nan'), 1.]).topk(2))\n"
        "print(torch.tensor([3., float('nan'), 1.]).sort(descending=True), torch.tensor([True, False]).sort())\n"
        "print(torch.tensor([3., 1., 3., 1.]).sort(), torch.tensor([3., 1., 3., 1.]).sort(descending=True))\n"
        "print(torch.tensor([-1, 5, -7], dtype=torch.int32).sort(descending=True),\n"
        "      torch.tensor([0., -0., 2.]).sort())\n"
        "print(torch.tensor([[1., float('nan'), 0.], [2., 1., 3.]]).median(1),\n"
        "      torch.tensor([1., float('nan')]).median())\n"
        "print(torch.tensor([[5, 2, 7, 1]]).median(), torch.tensor([[5, 2, 7, 1]]).median(1),\n"
        "      torch.tensor([4., 1., 3., 2.]).kthvalue(2))\n"
        "tries(lambda: x.topk(5), lambda: x.topk(-1), lambda: x.topk(3, dim=0), lambda: x.sort(dim=2),\n"
        "      lambda: torch.tensor(5.).topk(2), lambda: x.kthvalue(5, 1), lambda: x.kthvalue(0),\n"
        "      lambda: torch.tensor([]).median(), lambda: torch.ones(2, 0).median(1), lambda: x.median(dim=3))"),
    "sort_topk_gradients": (
        "x = torch.tensor([[1., 5., 3., 2.], [4., 2., 6., 2.]], requires_grad=True)\n"
        "for f in [lambda: (x.sort(1, descending=True).values * torch.arange(4.)).sum(),\n"
        "          lambda: (x.topk(2, dim=1).values * torch.tensor([1., 10.])).sum(),\n"
        "          lambda: (x.topk(1, dim=0, largest=False).values * torch.arange(4.)).sum(),\n"
        "          lambda: x.median(), lambda: (x.median(1).values * torch.tensor([1., 10.])).sum(),\n"
        "          lambda: x.kthvalue(3, 1, True).values.sum(), lambda: x.msort()[0, 1]]:\n"
        "    x.grad = None\n    f().backward()\n    print(x.grad)\n"
        "v, i = x.sort(dim=0)\nprint(torch.autograd.grad(v[1].sum(), x, create_graph=True))"),
    # ---- torch.dist and the p-norm's gradient (p = 0 gives none)
    "dist_saves_and_grads": (
        "x = torch.tensor([[1., 5., 3., 2.], [4., 2., 6., 2.]], requires_grad=True)\n"
        "for y in (torch.dist(x, x * 2, 3), torch.dist(x, x * 2, 0), torch.dist(x, x * 2, float('inf')),\n"
        "          x.dist(torch.ones(4)), torch.dist(x, x * 2, 2.0), torch.dist(x, torch.ones(1, 4), p=0.5)):\n"
        "    show(y)\n"
        "for p in (2, 3, 0, float('inf'), float('-inf'), 1):\n"
        "    x.grad = None\n    torch.dist(x, torch.ones(4), p).backward()\n    print(x.grad)\n"
        "x.grad = None\nx.norm(p=0).backward()\nprint(x.grad)\n"
        "a = torch.tensor([1., 2.], requires_grad=True)\nb = torch.tensor([1., 2.], requires_grad=True)\n"
        "torch.dist(a, b).backward()\nprint(a.grad, b.grad)\na.grad = b.grad = None\n"
        "torch.dist(a, b * 2, 3).backward()\nprint(a.grad, b.grad)\n"
        "c = torch.tensor([[1.], [3.]], dtype=torch.float64, requires_grad=True)\n"
        "d = torch.dist(a, c)\nd.backward()\nprint(d, a.grad, c.grad)\n"
        "tries(lambda: torch.dist(x, torch.ones(3)), lambda: torch.dist(x, 1),\n"
        "      lambda: torch.dist(torch.tensor([1, 2]), torch.tensor([1, 2])),\n"
        "      lambda: torch.dist(torch.tensor([1., 2]), torch.tensor([1, 2])))"),
    # ---- what nodes save
    "number_base_pow_saves_the_number": (
        "x = torch.tensor([1., 2., 3.], requires_grad=True)\n"
        "for y in (2 ** x, 2.5 ** x, torch.pow(2, x), True ** x):\n    show(y)\n"
        "y = 2 ** x\ny.sum().backward()\nprint(y.grad_fn._saved_self, type(y.grad_fn._saved_self).__name__)"),
    "vector_matrix_matmul_squeezes_in_place": (
        "c = torch.tensor([1., 2.], requires_grad=True)\na = torch.tensor([[1., 2.], [3., 4.]], requires_grad=True)\n"
        "for y in (c @ a, torch.matmul(c, a), c.matmul(a.t())):\n    show(y)\n"
        "    print(y._version, y.grad_fn.next_functions[0][0].next_functions)"),
    "div_rounding_mode_overload": (
        "x = torch.tensor([1.5, -2.5, 3.], requires_grad=True)\nw = torch.tensor([0.5, 1.5, 2.], requires_grad=True)\n"
        "for y in (x.div(w, rounding_mode=None), x.div(w, rounding_mode='floor'),\n"
        "          torch.div(x, w, rounding_mode='trunc'), x.div(2, rounding_mode='floor'),\n"
        "          x.div(2., rounding_mode=None), torch.div(x, 2, rounding_mode='trunc'),\n"
        "          x.divide(w, rounding_mode='floor'), torch.div(x, w),\n"
        "          x.div(torch.tensor(2), rounding_mode='floor')):\n"
        "    show(y)\n    x.grad = w.grad = None\n    y.sum().backward()\n    print(x.grad, w.grad)\n"
        "tries(lambda: x.div(w, rounding_mode='round'), lambda: torch.tensor([5, -3]).div(2, rounding_mode='floor'),\n"
        "      lambda: torch.tensor([5, -3]).div(torch.tensor([2, 2]), rounding_mode='trunc'),\n"
        "      lambda: torch.tensor([5, -3]).div(0, rounding_mode='trunc'))\n"
        "v = x * 1\nv.div_(w, rounding_mode='floor')\nshow(v)"),
    "inplace_op_saves_a_clone_of_self": (
        "x = torch.tensor([1.5, -2.5, 3.], requires_grad=True)\nw = torch.tensor([0.5, 1.5, 2.], requires_grad=True)\n"
        "for f in (lambda v: v.mul_(w), lambda v: v.pow_(w), lambda v: v.pow_(2), lambda v: v.sub_(w, alpha=2),\n"
        "          lambda v: v.clamp_(0, 1), lambda v: v.div_(w), lambda v: v.__imul__(w)):\n"
        "    v = x * 1\n    f(v)\n    show(v)\n"
        "    print(v.grad_fn._saved_self._version if hasattr(v.grad_fn, '_saved_self') else '', v._version)\n"
        "    print(v.grad_fn._saved_self.grad_fn.next_functions if hasattr(v.grad_fn, '_saved_self') else '')\n"
        "v = x * 1\nv.mul_(w)\nv.pow_(2)\n"
        "g1, g2 = torch.autograd.grad(v.sum(), [x, w], create_graph=True)\nshow(g1)\nshow(g2)\n"
        "print(torch.autograd.grad((g1 * g2).sum(), [x, w]))\n"
        "u = torch.ones(3)\nu.mul_(w)\nshow(u)"),
    # ---- hooks on nodes: what they may return
    "node_hook_results_are_checked": (
        "x = torch.tensor([1., 2.], requires_grad=True)\n"
        "def run(kind, ret):\n"
        "    y = x * 2\n    z = y.sum()\n"
        "    reg = y.grad_fn.register_hook if kind == 'post' else y.grad_fn.register_prehook\n"
        "    def myhook(*args):\n        return ret(*args)\n"
        "    reg(myhook)\n    x.grad = None\n"
        "    try:\n        z.backward()\n        print(kind, x.grad)\n"
        "    except Exception as e:\n        print(kind, type(e).__name__, e)\n"
        "for kind in ('post', 'pre'):\n"
        "    run(kind, lambda *a: None)\n    run(kind, lambda *a: [a[0][0]])\n"
        "    run(kind, lambda *a: (a[0][0] * 3,) if kind == 'pre' else (a[0][0] * 3, None))\n"
        "    run(kind, lambda *a: (a[0][0] * 3,))\n    run(kind, lambda *a: (a[0][0] * 3, None, None))\n"
        "    run(kind, lambda *a: (torch.ones(3),) if kind == 'pre' else (torch.ones(3), None))\n"
        "    run(kind, lambda *a: (a[0][0].double(),) if kind == 'pre' else (a[0][0].double(), None))\n"
        "    run(kind, lambda *a: (5,) if kind == 'pre' else (5, None))\n    run(kind, lambda *a: a[0][0])\n"
        "    run(kind, lambda *a: (a[0][0], torch.ones(2)) if kind == 'post' else (a[0][0],))\n"
        "y = x * 2\nh = y.grad_fn.register_hook(lambda gi, go: (gi[0] * 0, None))\nh.remove()\n"
        "y.grad_fn.register_hook(lambda gi, go: (gi[0] + 1, gi[1]))\ny.sum().backward()\nprint(x.grad)"),
    # ---- backward(inputs=...) and autograd.grad(is_grads_batched=True)
    "backward_inputs_retain_grad_of_non_leaves": (
        "x = torch.tensor([1., 2.], requires_grad=True)\nw = torch.tensor([3., 4.], requires_grad=True)\n"
        "m = x * 2\n(m * w).sum().backward(inputs=[m])\nprint(m.grad, m.retains_grad, x.grad, w.grad)\n"
        "(m * w).sum().backward(inputs=[m, w])\nprint(m.grad, x.grad, w.grad)\n"
        "y = (x * w).sum()\n"
        "tries(lambda: y.backward(inputs=[torch.ones(2)], retain_graph=True),\n"
        "      lambda: torch.autograd.backward(y, inputs=(x * 3,), retain_graph=True))"),
    "grads_batched": (
        "x = torch.tensor([1., 2.], requires_grad=True)\nz = x ** 2\n"
        "for go in (torch.eye(2), torch.ones(3, 3), torch.ones(2)):\n"
        "    tries(lambda: torch.autograd.grad(z, x, go, is_grads_batched=True, retain_graph=True))\n"
        "print(torch.autograd.grad(z.sum(), x, torch.tensor([1., 2., 3.]), is_grads_batched=True, retain_graph=True))\n"
        "u = torch.tensor(1., requires_grad=True)\n"
        "print(torch.autograd.grad(z, [x, u], torch.eye(2), is_grads_batched=True, retain_graph=True,\n"
        "                          allow_unused=True))\n"
        "print(torch.autograd.grad(z, x, torch.eye(2), is_grads_batched=True))\n"
        "tries(lambda: torch.autograd.grad(z, x, torch.eye(2), is_grads_batched=True))\n"
        "w = torch.tensor([[1., 2.], [3., 4.]], requires_grad=True)\ny = w @ x\n"
        "print(torch.autograd.grad(y, [w, x], torch.eye(2), is_grads_batched=True))"),
    # ---- .data = ..., casts
    "data_of_a_tensor_requiring_grad_stays_float": (
        "x = torch.tensor([1., 2.], requires_grad=True)\ny = x * x\nx.data = torch.tensor([5., 6.])\n"
        "y.sum().backward()\nprint(x.grad, x)\n"
        "tries(lambda: setattr(x, 'data', torch.tensor([1, 2])), lambda: setattr(x, 'data', torch.tensor([True])))\n"
        "print(x, x.dtype)\nx.data = torch.zeros(3, dtype=torch.float64)\nprint(x, x.grad)\n"
        "t = torch.tensor([1., 2.])\nt.data = torch.tensor([1, 2])\nprint(t)"),
    "casts_save_nothing_shown": (
        "x = torch.tensor([1., 2.], requires_grad=True)\n"
        "for y in (x.to(torch.float64), x.double(), x.half(), x.type(torch.float64), x.to(dtype=torch.float16)):\n"
        "    show(y)\n"
        "y = x.double() * 3\ny.sum().backward()\nprint(x.grad)"),
    # ---- a view made under no_grad whose memory then changes in place: PyTorch cannot rebuild its history
    "no_grad_view_of_a_changed_base": (
        'x = torch.tensor([1., 2.], requires_grad=True)\n'
        'with torch.no_grad():\n'
        '    v = x[0]\n'
        '    x[0] = 5\n'
        "print('a')\n"
        'tries(lambda: v.is_leaf, lambda: v.requires_grad, lambda: v.grad_fn, lambda: v * 2, lambda: v._version,\n'
        '      lambda: v.add_(1))\n'
        'y = x * 1\n'
        'with torch.no_grad():\n'
        '    w = y[:1]\n'
        'y.mul_(2)\n'
        'tries(lambda: w.requires_grad, lambda: w.grad_fn, lambda: w * 2,lambda: w.add_(1))\n'
        'y2 = x * 1\n'
        'with torch.no_grad():\n'
        '    w2 = y2[:1]\n'
        'tries(lambda: w2.add_(1), lambda: w2.requires_grad, lambda: w2.grad_fn)\n'
        'with torch.no_grad():\n'
        '    w3 = x[:1]\n'
        'tries(lambda: w3.add_(1), lambda: w3.requires_grad, lambda: w3.grad_fn)\n'
        'x = torch.tensor([1., 2.], requires_grad=True)\n'
        'with torch.no_grad():\n'
        '    w3 = x[:1]\n'
        '    w3.add_(1)\n'
        '    print(w3)\n'
        'print(w3)\n'
        'tries(lambda: w3.grad_fn, lambda: w3.is_leaf)\n'
        'with torch.no_grad():\n'
        '    w4 = x[:1]\n'
        '    x.mul_(1)\n'
        '    print(w4, w4.sum())\n'
        'print(w4, x)\n'
        'tries(lambda: w4 + 1)\n'
        'with torch.no_grad():\n'
        '    tries(lambda: w4 + 1, lambda: w4.grad_fn)\n'
        'y = x.detach()\n'
        'with torch.no_grad():\n'
        '    w5 = y[:1]\n'
        'y.add_(1)\n'
        'print(w5.grad_fn, w5.requires_grad)\n'
        'with torch.no_grad():\n'
        '    w6 = x.view(2, 1)\n'
        '    x -= 0.5\n'
        '    x.copy_(torch.ones(2))\n'
        '    x.zero_()\n'
        '    x[1] = 3\n'
        'print(w6, x, x._version, w6._version)\n'
        '(x * 2).sum().backward()\n'
        'print(x.grad)\n'),
    # ---- var / std with no degrees of freedom left: PyTorch's warning, nan values and gradients
    "var_std_without_degrees_of_freedom": (
        'x = torch.tensor([[1., 2.], [3., 4.]], requires_grad=True)\n'
        'for f in (lambda: x.var(dim=0, correction=2), lambda: torch.tensor([1.], requires_grad=True).std(),\n'
        '          lambda: torch.tensor([1.]).var(), lambda: torch.tensor([1.]).var(correction=0),\n'
        '          lambda: x.std(1, unbiased=True), lambda: torch.ones(0).var(),\n'
        '          lambda: torch.var(x, dim=(0, 1), correction=4), lambda: x.std(0, False),\n'
        '          lambda: torch.tensor(3.).std()):\n'
        '    y = f()\n'
        '    print(y)\n'
        'y = torch.tensor([2.], requires_grad=True).std()\n'
        'y.backward()\n'
        'print(y.grad_fn)\n'
        'z = torch.tensor([2.], requires_grad=True)\n'
        'z.var().backward()\n'
        'print(z.grad)\n'
        'q = torch.tensor([[2., 3.]], requires_grad=True)\n'
        'q.std(0).sum().backward()\n'
        'print(q.grad)\n'),
    # ---- prod over zeros under create_graph: PyTorch builds the gradient as a graph (running products)
    'prod_with_zeros_double_backward': (
        'x1 = torch.tensor([0.0, -3.0], requires_grad=True)\n'
        'x1.prod().mean().backward(create_graph=True)\n'
        'print(x1.grad, x1.grad.grad_fn)\n'
        'x = torch.tensor([[0.0, 2.0, 3.0], [1.0, 0.0, 0.0]], requires_grad=True)\n'
        'g, = torch.autograd.grad(x.prod(1).sum(), x, create_graph=True)\n'
        'print(g, g.grad_fn)\n'
        'g.sum().backward()\n'
        'print(x.grad)\n'
        'y = torch.tensor([2.0, 0.0, 5.0, 0.0], requires_grad=True)\n'
        'g, = torch.autograd.grad(y.prod(), y, create_graph=True)\n'
        'print(g)\n'
        'g[1].backward()\n'
        'print(y.grad)\n'
        'z = torch.tensor([2.0, 0.0, 5.0], requires_grad=True)\n'
        'h, = torch.autograd.grad(z.prod(0, keepdim=True), z, create_graph=True)\n'
        'print(h, h.grad_fn.next_functions)\n'),
    # ---- pieces of split / chunk / unbind of a tensor not requiring grad, modified in place by an op needing grad
    'views_of_tensors_not_requiring_grad': (
        'def tries(*fs):\n'
        '    for f in fs:\n'
        '        try:\n'
        '            r = f(); print(r)\n'
        '        except Exception as e:\n'
        '            print(type(e).__name__, e)\n'
        'w = torch.tensor(1.25, requires_grad=True)\n'
        'tries(lambda: torch.tensor([1.5]).chunk(2, -1)[0].mul_(w),\n'
        '      lambda: torch.tensor([1.5, 2.]).split(1)[1].add_(w),\n'
        '      lambda: torch.ones(2, 2).unbind(0)[0].mul_(w),\n'
        '      lambda: torch.ones(2, 2).unbind(0)[0][0:1].mul_(w),\n'
        '      lambda: torch.ones(2, 2).unbind(0)[0].mul_(2),\n'
        '      lambda: torch.ones(2, 2).unbind(0)[0].requires_grad_(),\n'
        '      lambda: torch.ones(2).split(1)[0].copy_(w.view(1)),\n'
        '      lambda: torch.ones(2, dtype=torch.long).split(1)[0].add_(1),\n'
        '      lambda: torch.ones(4).chunk(2)[1].zero_())\n'
        'with torch.no_grad():\n'
        '    v = torch.ones(2).split(1)[0]\n'
        'tries(lambda: v.mul_(w))\n'
        'a, b = torch.ones(2).split(1)\n'
        'with torch.no_grad():\n'
        '    a.mul_(w)\n'
        'print(a)\n'),
    # ---- any view made under no_grad, modified in place by an op needing grad
    'views_made_under_no_grad': (
        'def tries(*fs):\n'
        '    for f in fs:\n'
        '        try:\n'
        '            r = f(); print(r)\n'
        '        except Exception as e:\n'
        '            print(type(e).__name__, str(e)[:90])\n'
        'w = torch.tensor(1.25, requires_grad=True)\n'
        'with torch.no_grad():\n'
        '    v1 = torch.ones(3)[0:2]\n'
        '    v2 = torch.ones(3).view(3)\n'
        '    v3 = torch.ones(2, 2).t()\n'
        '    v4 = torch.ones(3).detach()\n'
        '    base = torch.ones(3)\n'
        '    v5 = base[1:]\n'
        'tries(lambda: v1.mul_(w), lambda: v2.add_(w), lambda: v3.mul_(2), lambda: v4.mul_(w), lambda: v5.mul_(w),\n'
        '      lambda: base.mul_(w))\n'
        'x = torch.ones(3)\n'
        'with torch.no_grad():\n'
        '    y = x[:2]\n'
        'tries(lambda: y.add_(1), lambda: y.add_(torch.ones(2, requires_grad=True)), lambda: (y + w))\n'),
    # ---- two saved tensors modified: the saved input is reported, not the saved result
    'saved_inputs_checked_before_saved_outputs': (
        'x1 = torch.tensor([[-3.0], [-2.0], [1.75]], requires_grad=True)\n'
        'x4 = torch.tensor(0.25, dtype=torch.float64, requires_grad=True) * 1\n'
        'x5 = x4.pow(x1)\n'
        'x6 = x5.pow(x1)\n'
        'x5 *= torch.tensor([-0.5], dtype=torch.float64)\n'
        'x6.div_(x1)\n'
        'try:\n'
        '    x6.sum().backward()\n'
        'except RuntimeError as e:\n'
        '    print(e)\n'),
    # ---- an empty leaf is dense: its first gradient under create_graph is a copy (CopyBackwards)
    'empty_leaf_grad_under_create_graph': (
        'x6 = torch.tensor([[-2.5, 0.0, 1.75], [2.25, -0.5, 2.0]], requires_grad=True)\n'
        'x10 = x6.view([6, 1])\n'
        'x11 = x10[-3, 1:1]\n'
        'x15 = torch.tensor([], requires_grad=True)\n'
        'x16 = x11 @ x15\n'
        'print(x16, x16.grad_fn)\n'
        'x16.mean().backward(create_graph=True)\n'
        'print(x15.grad, x15.grad.grad_fn, x6.grad)\n'
        'e = torch.tensor([], requires_grad=True)\n'
        '(e * 2).sum().backward(create_graph=True)\n'
        'print(e.grad, e.grad.grad_fn)\n'),
    # ---- a split piece changed under no_grad, then in place with grad: the direct message
    'split_piece_changed_under_no_grad_then_in_place': (
        'x1 = torch.tensor([2.75, 2.0], requires_grad=True)\n'
        'x5 = x1.split(2, 0)[0]\n'
        'with torch.no_grad():\n'
        '    x5.sub_(x1, alpha=0.5)\n'
        'try:\n'
        '    x5.relu_()\n'
        'except RuntimeError as e:\n'
        '    print(e)\n'
        'try:\n'
        '    print(x5.grad_fn)\n'
        'except RuntimeError as e:\n'
        '    print(e)\n'),
    # ---- the Autograd mechanics page: what is saved, inference mode, hooks
    'autograd_mechanics_saved_tensors_and_inference_mode': (
        'x = torch.linspace(-1, 1, 5).requires_grad_()\n'
        'y = x.pow(2)\n'
        'print(x.equal(y.grad_fn._saved_self))\n'
        'print(x is y.grad_fn._saved_self)\n'
        'x = torch.linspace(-1, 1, 5).requires_grad_()\n'
        'y = x.exp()\n'
        'print(y.equal(y.grad_fn._saved_result))\n'
        'print(y is y.grad_fn._saved_result)\n'
        'print(torch.is_inference_mode_enabled())\n'
        'with torch.inference_mode():\n'
        '    z = x * 2\n'
        '    print(torch.is_inference_mode_enabled(), z.requires_grad)\n'
        'print(z.is_inference(), x.is_inference())\n'
        'try:\n'
        '    (z * x).sum().backward()\n'
        'except RuntimeError as e:\n'
        '    print(e)\n'
        'try:\n'
        '    z.add_(1)\n'
        'except RuntimeError as e:\n'
        '    print(e)\n'
        'w = z.clone()\n'
        'print(w.is_inference())\n'
        '@torch.inference_mode()\n'
        'def f(t):\n'
        '    return t * 3\n'
        'print(f(x).requires_grad, f(x).is_inference())\n'
        't = torch.ones(2, requires_grad=True)\n'
        'def hook(g):\n'
        '    print("hook", g)\n'
        't.register_hook(hook)\n'
        'u = t * 2\n'
        'u.sum().backward()\n'
        'def post(p):\n'
        '    print("post", p.grad)\n'
        't.register_post_accumulate_grad_hook(post)\n'
        '(t * 3).sum().backward()\n'),
    # ---- tensors made under inference_mode: which are inference tensors, and their errors outside it
    'inference_tensors': (
        'x = torch.ones(3, requires_grad=True); n = torch.ones(3)\n'
        'with torch.inference_mode():\n'
        '    z = n * 2; v = n[0:2]; zv = z[0:1]; c = torch.zeros(2); d = x.detach(); s = x * 1\n'
        '    print(z.is_inference(), v.is_inference(), zv.is_inference(), c.is_inference(), d.is_inference())\n'
        '    print(s.requires_grad, s.is_inference())\n'
        '    z.add_(1); print(z)\n'
        'for f in [lambda: z._version, lambda: z.requires_grad_(), lambda: z.mul(x), lambda: x.mul(z), lambda: z + x,\n'
        '          lambda: (z + 1).is_inference(), lambda: torch.is_inference(z), lambda: z.clone().is_inference(),\n'
        '          lambda: v.add_(1), lambda: (v * x).grad_fn, lambda: z.detach().is_inference(),\n'
        '          lambda: z.sum().is_inference(), lambda: z.view(3).is_inference(), lambda: z[0].is_inference()]:\n'
        '    try: print(f())\n'
        '    except Exception as e: print(type(e).__name__, e)\n'
        'with torch.no_grad():\n'
        '    print((z * 2).is_inference())\n'
        'with torch.inference_mode(False):\n'
        '    print((n * 2).is_inference())\n'),
    # ---- torch.autograd.graph.saved_tensors_hooks (the Autograd mechanics page): pack and unpack, in PyTorch's order
    'saved_tensors_hooks': (
        'def pack_hook(x):\n'
        '    print("Packing", x)\n'
        '    return x\n'
        'def unpack_hook(x):\n'
        '    print("Unpacking", x)\n'
        '    return x\n'
        'a = torch.ones(5, requires_grad=True)\n'
        'b = torch.ones(5, requires_grad=True) * 2\n'
        'with torch.autograd.graph.saved_tensors_hooks(pack_hook, unpack_hook):\n'
        '    y = a * b\n'
        'y.sum().backward()\n'
        'print(a.grad, b.grad_fn)\n'
        'x = torch.linspace(-1, 1, 5, requires_grad=True)\n'
        'with torch.autograd.graph.saved_tensors_hooks(pack_hook, unpack_hook):\n'
        '    z = x.exp()\n'
        "print('---')\n"
        'print(z.grad_fn._saved_result)\n'
        'z.sum().backward(retain_graph=True)\n'
        'z.sum().backward()\n'
        'print(x.grad)\n'
        'print(isinstance(z.grad_fn, torch.autograd.graph.Node), isinstance(x, torch.autograd.graph.Node))\n'
        'c = torch.ones(3, requires_grad=True)\n'
        'to_numpy, from_numpy = lambda t: t.detach().numpy().copy(), lambda p: torch.from_numpy(p)\n'
        'with torch.autograd.graph.saved_tensors_hooks(to_numpy, from_numpy):\n'
        '    d = c.sin()\n'
        'with torch.no_grad():\n'
        '    c.add_(1)\n'
        'd.sum().backward()\n'
        'print(c.grad)\n'
        'with torch.autograd.graph.save_on_cpu():\n'
        '    e = c.cos() * c\n'
        'e.sum().backward()\n'
        'print(c.grad)\n'
        'with torch.autograd.graph.saved_tensors_hooks(lambda t: 1, lambda p: p):\n'
        '    f = c.tanh()\n'
        'try:\n'
        '    f.sum().backward()\n'
        'except Exception as err:\n'
        '    print(type(err).__name__, err)\n'
        'with torch.autograd.graph.disable_saved_tensors_hooks("no hooks here"):\n'
        '    try:\n'
        '        with torch.autograd.graph.saved_tensors_hooks(pack_hook, unpack_hook):\n'
        '            pass\n'
        '    except RuntimeError as err:\n'
        '        print(err)\n'
        'saved_tensors_hooks = torch.autograd.graph.saved_tensors_hooks\n'
        'print(saved_tensors_hooks)\n'),
}


@pytest.mark.parametrize("name", SNIPPETS)
def test_snippet(name):
    """Printed text, warnings and the final error are identical (addresses and C++ locations blanked)."""
    code = SHOW + SNIPPETS[name]
    t, e = run_both(T, E, code)
    assert same(t, e), f"\n{code}\n--- torch\n{t.summary()}--- engine\n{e.summary()}"
