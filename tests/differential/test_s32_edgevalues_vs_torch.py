"""Edge values in forward and backward, as learners stumble on them, against real PyTorch: NaN, infinities, -0.,
subnormals, empty tensors and tensors of nothing along a dim; gradients at the kinks and singularities (logit at 0
and 1, sinc near 0, polygamma at its poles and at infinity), the where-NaN-gradient trap, anomaly detection's
message. Printed text, warnings and the final error must be the same."""
import pytest

T = pytest.importorskip("torch", reason="differential tests need real PyTorch (pip install torch==2.13.0)")
from .harness import SHOW, load_engine, run_both, same  # noqa: E402

E = load_engine()

SNIPPETS = {
    # sinc of a half is computed in float (pi * x in float, rounded once): sinc(1.) is -2.8e-08 there, a half's -0.,
    # not the 3e-04 that pi * x in half gives
    "sinc_of_half_computed_in_float": (
        'x = torch.tensor([0., -0., 1., -1., 100., -100., 89., 0.5, 1e-4, float("inf"), float("nan"), 2.5],\n'
        '                 dtype=torch.half, requires_grad=True)\n'
        'y = torch.sinc(x)\n'
        'print(y, x.detach().sinc(), torch.special.sinc(x.detach()), torch.sinc(x.detach().float()))\n'
        'y.sum().backward()\n'
        'print(x.grad)\n'
        'z = x.detach().clone()\n'
        'print(z.sinc_(), z)'),
    # logit's gradient: without create_graph PyTorch's kernel gives grad * inf at 0 and 1 (-0. too: +inf for a
    # positive grad), NaN outside [0, 1], in its scalar tail; its vector loop (two vectors at a time: 16 float32 on
    # AVX2, 32 on AVX-512; the sizes here give the same split on both) and, under
    # create_graph, its differentiable formula divide, grad / (x (1 - x)): -inf at -0.; with eps, 0 outside
    # [eps, 1 - eps]
    "logit_gradient_at_zero_and_one": (
        'for cg in [False, True]:\n'
        '    for v in [0., -0., 1., 0.5, -1., 2., 1e-45]:\n'
        '        for eps in [None, 0.0, 1e-6]:\n'
        '            x = torch.tensor(v, requires_grad=True)\n'
        '            for g0 in (2., -2.):\n'
        '                g, = torch.autograd.grad(torch.logit(x, eps), x, torch.tensor(g0), create_graph=cg)\n'
        '                print(cg, v, eps, g0, g)\n'
        'x = torch.tensor([0., -0., 1., 0.25], dtype=torch.float64, requires_grad=True)\n'
        'x.logit().sum().backward()\n'
        'print(x.grad, torch.logit(x.detach()), torch.special.logit(x.detach(), 0.25))\n'
        'for n in [1, 3, 9, 16]:\n'
        '    x = torch.tensor([-0., 0., 1., 0.5] * n, requires_grad=True)\n'
        '    x.logit().backward(torch.full((4 * n,), -2.))\n'
        '    print(x.grad)'),
    # polygamma(n >= 2): -inf and the huge negative floats are poles (they are integers), +inf gives NaN (the series'
    # 0 * inf); digamma's and trigamma's gradients go through it
    "polygamma_at_poles_and_infinity": (
        'x = torch.tensor([float("-inf"), -3e38, -1e10, -4., -0., 0., float("inf"), 3e38, float("nan"), 2.5, -1.5],\n'
        '                 requires_grad=True)\n'
        'for n in [0, 1, 2, 3]:\n'
        '    y = torch.polygamma(n, x)\n'
        '    g, = torch.autograd.grad(y.sum(), x)\n'
        '    print(n, y, g)\n'
        'print(torch.special.polygamma(2, x.detach().double()), x.detach().polygamma(4), torch.digamma(x.detach()))'),
    # sinc's gradient under create_graph: PyTorch's sinc_backward builds self_pi.sin() before self_pi * self_pi.cos()
    # (the C++ compiler's order of operands), so near 0 the second derivative's terms cancel to 0 there
    "sinc_double_backward_near_zero": (
        'for v in [[0., 1.], [-0., 2.], [1e-45, 1.], [1e-20, 3.], [1e-5, 0.25], [1e-3, -0.5]]:\n'
        '    for d in (torch.float32, torch.float64):\n'
        '        x = torch.tensor(v, dtype=d, requires_grad=True)\n'
        '        g, = torch.autograd.grad(x.sinc().sum(), x, create_graph=True)\n'
        '        h, = torch.autograd.grad(g.sum(), x)\n'
        '        print(v, g, h)'),
    # the gradient of cummax / cummin of nothing is the input itself (PyTorch's cummaxmin_backward returns it):
    # autograd.grad gives back the leaf, requires_grad=True; .backward() stores a detached copy
    "cummax_cummin_of_nothing_gradient_is_the_input": (
        'for f in (torch.cummax, torch.cummin):\n'
        '    x = torch.empty(0, requires_grad=True)\n'
        '    v, i = f(x, 0)\n'
        '    g, = torch.autograd.grad(v.sum(), x)\n'
        '    print(g is x, g, g.grad_fn, g.is_leaf, v, i)\n'
        '    x2 = torch.empty(2, 0, requires_grad=True)\n'
        '    v, i = f(x2, 1)\n'
        '    v.sum().backward()\n'
        '    print(x2.grad, x2.grad is x2, x2.grad.requires_grad)\n'
        '    y = torch.empty(0, 3, requires_grad=True) * 2\n'
        '    g, = torch.autograd.grad(f(y, 1)[0].sum(), y)\n'
        '    print(g, g.grad_fn)'),
    # kthvalue along a dim of size 0 is an IndexError, as median's; k out of range is a RuntimeError
    "kthvalue_of_nothing": (
        'tries(lambda: torch.empty(0).kthvalue(1), lambda: torch.empty(0).kthvalue(2), lambda: torch.empty(2, 0).kthvalue(1, 1),\n'
        '      lambda: torch.empty(2, 0).kthvalue(1, 0), lambda: torch.ones(3).kthvalue(4), lambda: torch.ones(3).kthvalue(0),\n'
        '      lambda: torch.tensor(1.).kthvalue(1), lambda: torch.tensor(1.).kthvalue(2), lambda: torch.empty(0, 3).kthvalue(1, 1),\n'
        '      lambda: torch.empty(0, 3).kthvalue(1, 0), lambda: torch.empty(0).median(0), lambda: torch.empty(3, 0).median(-1),\n'
        '      lambda: torch.empty(0, 2).kthvalue(1, -2, keepdim=True))'),
    # layer_norm over a normalized shape of nothing: the output is empty, the saved mean 0 and rstd NaN (1 / sqrt(0 /
    # 0)) per row, the gradients empty (zeros where the weight has elements)
    "layer_norm_of_nothing": (
        'import torch.nn.functional as F\n'
        'for shp, ns in [((0,), (0,)), ((2, 0), (0,)), ((0, 3), (3,)), ((3, 0), (3, 0)), ((2, 0, 2), (0, 2))]:\n'
        '    x = torch.empty(shp, requires_grad=True)\n'
        '    w = torch.ones(ns, requires_grad=True)\n'
        '    tries(lambda: F.layer_norm(x, ns), lambda: torch.nn.LayerNorm(ns)(x))\n'
        '    y = F.layer_norm(x, ns, w, w)\n'
        '    show(y)\n'
        '    print(torch.autograd.grad(y.sum(), (x, w, w), create_graph=True))\n'
        '    y = F.layer_norm(x, ns)\n'
        '    y.sum().backward()\n'
        '    print(x.grad)'),
    # cross_entropy with class probabilities over no samples (or no classes): the mean is the sum filled with NaN in
    # place, negated (NegBackward0 over FillBackward2), the gradient empty; label smoothing over 0 classes adds
    # 0.2 / 0 = inf to nothing
    "cross_entropy_probabilities_of_nothing": (
        'import torch.nn.functional as F\n'
        'for s in [(2, 0), (0, 3), (0, 2, 2), (2, 0, 3)]:\n'
        '    for w in [None, True]:\n'
        '        for ls in [0.0, 0.2]:\n'
        '            x = torch.zeros(s, requires_grad=True)\n'
        '            wt = torch.ones(s[1], requires_grad=True) if w else None\n'
        '            y = F.cross_entropy(x, x.softmax(1).detach(), weight=wt, label_smoothing=ls)\n'
        '            show(y)\n'
        '            print(y.grad_fn.next_functions[0][0].next_functions, torch.autograd.grad(y, x))\n'
        '            print(F.cross_entropy(x, x.detach(), reduction="sum"), F.cross_entropy(x, x.detach(), reduction="none"))'),
    # unique / unique_consecutive along a dim of a tensor of nothing: only that dim may be 0 (else PyTorch's two
    # errors, the first with its trailing space); the result keeps the input's shape, inverse and counts are empty
    "unique_along_a_dim_of_nothing": (
        'for s, d in [((2, 0), 0), ((0, 3), 0), ((0, 3), 1), ((2, 0), 1), ((2, 0, 1), 2), ((0,), 0), ((2, 0), -1), ((0, 0), 1)]:\n'
        '    x = torch.zeros(s)\n'
        '    tries(lambda: torch.unique(x, dim=d, return_inverse=True, return_counts=True), lambda: x.unique(dim=d),\n'
        '          lambda: torch.unique_consecutive(x, dim=d),\n'
        '          lambda: torch.unique_consecutive(x, dim=d, return_counts=True, return_inverse=True))\n'
        'x = torch.zeros(2, 0, requires_grad=True)\n'
        'y = torch.unique(x, dim=1)\n'
        'print(y, y.grad_fn, y.is_leaf)\n'
        'tries(lambda: y.sum().backward(), lambda: torch.unique_consecutive(x, dim=1).sum().backward(),\n'
        '      lambda: torch.unique_consecutive(torch.zeros(0), return_inverse=True, return_counts=True),\n'
        '      lambda: torch.unique(torch.zeros(0, dtype=torch.long), return_inverse=True, return_counts=True))'),
    # (already matched) the where-NaN-gradient trap: the branch not taken still sends 0 * inf = NaN back; masking
    # the input first avoids it; nan_to_num's gradient is zero where the value was not finite
    "where_nan_gradient_trap": (
        'for vals in [[0., 1., 4.], [-1., 0., 2.], [-0., 3.]]:\n'
        '    for expr in ["torch.where(x > 0, x.sqrt(), torch.zeros_like(x))", "torch.where(x > 0, x.log(), x)",\n'
        '                 "torch.where(x > 0, torch.where(x > 0, x, 1.).log(), 0.)", "torch.nan_to_num(x.log())",\n'
        '                 "x.clamp(min=1e-12).sqrt()", "torch.where(x != 0, 1 / x, x)", "torch.xlogy(x, x)", "x * x.log()"]:\n'
        '        x = torch.tensor(vals, requires_grad=True)\n'
        '        y = eval(expr)\n'
        '        g, = torch.autograd.grad(y.sum(), x)\n'
        '        print(expr, y, g)'),
    # (already matched) anomaly detection names the node whose backward returned NaN, with a warning pointing at the
    # forward call; check_nan=False lets the NaN through
    "detect_anomaly_names_the_nan_node": (
        'for a in ["x.sqrt()", "x ** 0.5", "x.log() * 0", "torch.where(x > 0, x.log(), x)", "x.norm() * 0 + (x * 0).std()", "x.reciprocal() * 0"]:\n'
        '    x = torch.tensor([0., 1., 4.], requires_grad=True)\n'
        '    with torch.autograd.detect_anomaly():\n'
        '        y = eval(a)\n'
        '        tries(lambda: y.sum().backward())\n'
        '    with torch.autograd.detect_anomaly(check_nan=False):\n'
        '        print(torch.autograd.grad(eval(a).sum(), x))\n'
        'print(torch.is_anomaly_enabled(), torch.is_anomaly_check_nan_enabled())'),
}


@pytest.mark.parametrize("name", SNIPPETS)
def test_snippet(name):
    code = SHOW + SNIPPETS[name]
    t, e = run_both(T, E, code)
    assert same(t, e), f"\n{code}\n--- torch\n{t.summary()}--- engine\n{e.summary()}"
