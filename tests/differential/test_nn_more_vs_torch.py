"""The activations, normalizations and distances of `engine/_ops_nn2.py` and `engine/nn` (mish, hardswish,
hardsigmoid, celu, selu, threshold, softshrink, hardshrink, tanhshrink, softsign, softmin, glu, prelu,
cosine_similarity, pairwise_distance, group_norm, instance_norm and their modules) against real PyTorch: values,
dtypes, grad_fn names, saved attributes, gradients, double backward, in-place variants, module reprs and errors."""
import pytest

T = pytest.importorskip("torch", reason="differential tests need real PyTorch (pip install torch==2.13.0)")
from .harness import SHOW, load_engine, run_both, same  # noqa: E402

E = load_engine()

_X = "x = torch.tensor([[-4., -3., -2., -0.5, 0., 0.3], [0.5, 1., 1.5, 3., 4., -1.]], requires_grad=True)\n"

SNIPPETS = {
    "torch_names_of_the_new_activations": (
        'x = (torch.arange(8.).view(2, 4) / 3 - 1).requires_grad_()\n'
        'for f in (lambda: torch.celu(x, 0.5), lambda: torch.selu(x), lambda: torch.threshold(x, 0.1, 20.), lambda: torch.hardshrink(x, 0.5),\n'
        '          lambda: x.hardshrink(), lambda: torch.pairwise_distance(x, x.flip(0)), lambda: torch.prelu(x, torch.tensor([0.25])),\n'
        '          lambda: x.prelu(torch.tensor([0.1])), lambda: torch.cosine_similarity(x, x.flip(1), dim=1), lambda: torch.celu_(x.detach().clone()),\n'
        '          lambda: torch.selu_(x.detach().clone()), lambda: torch.threshold_(x.detach().clone(), 0., 1.)):\n'
        '    y = f()\n'
        '    print(y, y.grad_fn)\n'
        'print(torch.nn.GroupNorm(2, 4), torch.nn.InstanceNorm1d(3), torch.nn.Mish(), torch.nn.CosineSimilarity(), torch.nn.Softmin(1), torch.nn.PReLU())\n'
        'print(torch.nn.functional.cosine_similarity(x, x.flip(0)).round(decimals=4), torch.nn.functional.softmin(x, 1).round(decimals=4))\n'
    ),
    # each activation's node and saved attributes; its gradient's node (create_graph) and the second derivative.
    # Values to 4 decimals (mish and glu: PyTorch's transcendental functions round differently in the last bits); the
    # second derivative + 0 (tanh's double backward gives PyTorch's -0 at 0 as +0: engine/_ops.py's, not these)
    "activations_and_double_backward": (
        _X +
        "F = torch.nn.functional\n"
        "w = torch.linspace(-1, 1, 12).view(2, 6)\n"
        "for f in (F.mish, F.hardswish, F.hardsigmoid, F.celu, lambda t: F.celu(t, 2), lambda t: F.celu(t, 0.5),\n"
        "          F.selu, lambda t: F.threshold(t, 0.5, -1.), lambda t: F.threshold(t, 1, 2), F.softshrink,\n"
        "          lambda t: F.softshrink(t, 1), F.hardshrink, lambda t: F.hardshrink(t, 2.), F.tanhshrink,\n"
        "          F.softsign, lambda t: F.softmin(t, 1), lambda t: F.softmin(t, 0, dtype=torch.float64),\n"
        "          F.glu, lambda t: F.glu(t, 0)):\n"
        "    y = f(x)\n"
        "    show(y.round(decimals=4))\n"
        "    g = y.grad_fn\n"
        "    print(g, g.next_functions, [(n, getattr(g, n)) for n in dir(g) if n.startswith('_saved')\n"
        "                               and not isinstance(getattr(g, n), torch.Tensor)])\n"
        "    (gx,) = torch.autograd.grad((y * w[:, :y.shape[1]].to(y.dtype)[:y.shape[0]]).sum(), x,\n"
        "                                create_graph=True)\n"
        "    show(gx.round(decimals=4))\n"
        "    gg = gx.grad_fn\n"
        "    print(gg, [(n, getattr(gg, n)) for n in dir(gg) if n.startswith('_saved')\n"
        "               and not isinstance(getattr(gg, n), torch.Tensor)])\n"
        "    tries(lambda: torch.autograd.grad((gx * w).sum(), x)[0].round(decimals=4) + 0.)\n"),
    # float32 values bit for bit where PyTorch's kernels are modelled (hardswish, hardsigmoid, elu family, shrinks,
    # threshold); softshrink's zeros are +0 over whole vectors, x * 0 after them
    "float32_values": (
        "F = torch.nn.functional\n"
        "torch.manual_seed(0)\n"
        "x = (torch.randn(200) * 4).requires_grad_()\n"
        "v = torch.linspace(-1, 1, 200)\n"
        "for f in (F.hardswish, F.hardsigmoid, lambda t: F.celu(t, 1.3), F.selu, lambda t: F.threshold(t, 0.3, -2.),\n"
        "          F.softshrink, F.hardshrink, F.softsign):\n"
        "    y = f(x)\n"
        "    (g,) = torch.autograd.grad((y * v).sum(), x)\n"
        "    print(y.tolist(), g.tolist())\n"
        "print([torch.signbit(t).item() for t in F.softshrink(torch.full((20,), -0.25))])\n"
        "print(F.hardswish(torch.tensor([-3., 3.], dtype=torch.float64)), F.hardsigmoid(x.double()).dtype)\n"),
    # in-place variants: the node of the in-place op (CeluBackward1, EluBackward1 and ThresholdBackward1 as
    # PyTorch's; mish_, hardswish_, hardsigmoid_ record their out-of-place nodes), saving a clone of the input
    "inplace": (
        _X +
        "F = torch.nn.functional\n"
        "for f in (lambda t: F.mish(t, inplace=True), lambda t: F.hardswish(t, inplace=True),\n"
        "          lambda t: F.hardsigmoid(t, True), lambda t: F.celu(t, 2, inplace=True), lambda t: F.celu_(t),\n"
        "          lambda t: F.selu(t, inplace=True), lambda t: F.selu_(t), lambda t: F.threshold(t, 0.5, -1., True),\n"
        "          lambda t: F.threshold_(t, 0.5, 3.), lambda t: F.relu6(t, inplace=True)):\n"
        "    h = x * 1\n"
        "    y = f(h)\n"
        "    print(y is h, h._version)\n"
        "    show(y.round(decimals=4))\n"
        "    (y * torch.arange(12.).view(2, 6)).sum().backward()\n"
        "    print(x.grad.round(decimals=4))\n"
        "    x.grad = None\n"
        "tries(lambda: F.celu(x, inplace=True), lambda: F.mish(x, inplace=True))\n"),
    "errors_and_dtypes": (
        "F = torch.nn.functional\n"
        "i = torch.tensor([1, 2])\n"
        "x = torch.tensor([[1., 2., 3.], [4., 5., 6.]])\n"
        "tries(lambda: F.glu(torch.ones(3)), lambda: F.glu(torch.tensor(1.)), lambda: F.glu(x, 2),\n"
        "      lambda: F.glu(x, 0),\n"
        "      lambda: F.softshrink(x, -1.), lambda: F.softshrink(x.double(), -2), lambda: F.hardshrink(x, -1.),\n"
        "      lambda: F.softshrink(i), lambda: F.hardshrink(i), lambda: F.mish(i), lambda: F.hardswish(i),\n"
        "      lambda: F.hardsigmoid(i), lambda: F.celu(i), lambda: F.selu(i), lambda: F.glu(i),\n"
        "      lambda: F.threshold(i, 1, 0), lambda: F.softsign(i), lambda: F.tanhshrink(i), lambda: F.celu(x, 0.),\n"
        "      lambda: F.softmin(torch.tensor([1., 2.])), lambda: F.softmin(x, -1, dtype=torch.float64))\n"),
    # cosine_similarity: both inputs divided by their norms (cloned, clamped in place without recording), multiplied,
    # summed; expanded first when their shapes differ. pairwise_distance: at::norm(x1 - x2 + eps) (NormBackward1)
    "cosine_similarity_and_pairwise_distance": (
        "F = torch.nn.functional\n"
        "a = torch.tensor([[1., 2., 3.], [0., -1., 0.5]], requires_grad=True)\n"
        "b = torch.tensor([[2., 0., 1.], [1., 1., 1.]], requires_grad=True)\n"
        "z = torch.zeros(2, 3, requires_grad=True)\n"
        "for y in (F.cosine_similarity(a, b), F.cosine_similarity(a, b[0], dim=-1), F.cosine_similarity(a, b, 0),\n"
        "          F.cosine_similarity(a, z), F.cosine_similarity(a, b, eps=10.), F.pairwise_distance(a, b),\n"
        "          F.pairwise_distance(a, b, p=1, keepdim=True), F.pairwise_distance(a, b[1], 3.)):\n"
        "    show(y.round(decimals=4))\n"
        "    n = y.grad_fn.next_functions[0][0]\n"
        "    print(n, n.next_functions, [(k, getattr(n, k)) for k in dir(n) if k.startswith('_saved')\n"
        "                                and not isinstance(getattr(n, k), torch.Tensor)])\n"
        "    y.sum().backward()\n"
        "    print(a.grad.round(decimals=4), b.grad.round(decimals=4), z.grad)\n"
        "    a.grad = b.grad = None\n"
        "print(F.cosine_similarity(torch.tensor([1, 2]), torch.tensor([1., 0.]), 0),\n"
        "      F.cosine_similarity(a.double(), b, 1).dtype)\n"
        "tries(lambda: F.cosine_similarity(torch.tensor([1, 2]), torch.tensor([1, 2]), 0),\n"
        "      lambda: F.cosine_similarity(torch.ones(2, 3), torch.ones(3, 2)))\n"),
    # group_norm: NativeGroupNormBackward0 saving N, C, HxW, group, eps and the (N, G) mean and rstd (outputs 1 and 2
    # of its node); float32 forward bit for bit, gradients to 4 decimals
    "group_norm": (
        "F = torch.nn.functional\n"
        "torch.manual_seed(0)\n"
        "x = torch.randn(3, 4, 5, requires_grad=True)\n"
        "w = torch.randn(4, requires_grad=True)\n"
        "b = torch.randn(4, requires_grad=True)\n"
        "c = torch.arange(60.).view(3, 4, 5).cos()\n"
        "for args in ((2,), (2, w, b), (4, w), (1, None, None, 0.1)):\n"
        "    y = F.group_norm(x, *args)\n"
        "    print(y.tolist())\n"
        "    show(y.round(decimals=4))\n"
        "    r = y.grad_fn._saved_result1\n"
        "    print(r.grad_fn, r.output_nr, y.grad_fn._saved_result2.output_nr)\n"
        "    (y * c).sum().backward()\n"
        "    print(x.grad.round(decimals=4), w.grad if w.grad is None else w.grad.round(decimals=3),\n"
        "          b.grad if b.grad is None else b.grad.round(decimals=4))\n"
        "    x.grad = w.grad = b.grad = None\n"
        "print(F.group_norm(x.view(3, 4, 5, 1).double(), 2).dtype, F.group_norm(x[:, :, 0], 2).shape)\n"
        "tries(lambda: F.group_norm(torch.ones(2, 3, 2), 2), lambda: F.group_norm(torch.ones(3), 1),\n"
        "      lambda: F.group_norm(torch.ones(1, 2), 2), lambda: F.group_norm(torch.ones(2, 4), 2, torch.ones(3)),\n"
        "      lambda: F.group_norm(torch.ones(2, 4), 2, None, torch.ones(2)),\n"
        "      lambda: F.group_norm(torch.ones(2, 4, dtype=torch.int64), 2))\n"),
    # instance_norm: batch_norm of the input viewed as (1, N * C, ...), weight, bias and running statistics
    # repeated N times (the running ones then averaged back)
    "instance_norm": (
        "F = torch.nn.functional\n"
        "torch.manual_seed(0)\n"
        "x = torch.randn(3, 4, 5, requires_grad=True)\n"
        "w = torch.randn(4, requires_grad=True)\n"
        "b = torch.randn(4, requires_grad=True)\n"
        "rm, rv = torch.zeros(4), torch.ones(4)\n"
        "c = torch.arange(60.).view(3, 4, 5).cos()\n"
        "for kw in ({}, dict(weight=w, bias=b), dict(running_mean=rm, running_var=rv, momentum=0.3),\n"
        "           dict(running_mean=rm, running_var=rv, use_input_stats=False)):\n"
        "    y = F.instance_norm(x, **kw)\n"
        "    show(y.round(decimals=4))\n"
        "    n = y.grad_fn.next_functions[0][0]\n"
        "    print(n, n.next_functions, n._saved_training, n._saved_eps)\n"
        "    print(rm, rv)\n"
        "    (y * c).sum().backward()\n"
        "    print(x.grad.round(decimals=4), w.grad, b.grad)\n"
        "    x.grad = w.grad = b.grad = None\n"
        "tries(lambda: F.instance_norm(torch.ones(2, 3, 1)), lambda: F.instance_norm(torch.ones(2, 3)))\n"),
    "prelu": (
        "F = torch.nn.functional\n"
        "x = torch.tensor([[[-1., 2.], [3., -4.]], [[0.5, -0.5], [-2., 0.]]], requires_grad=True)\n"
        "pw = torch.tensor([0.25, -0.5], requires_grad=True)\n"
        "for p in (pw, pw[:1]):\n"
        "    y = F.prelu(x, p)\n"
        "    show(y)\n"
        "    (y * torch.arange(8.).view(2, 2, 2)).sum().backward()\n"
        "    print(x.grad, pw.grad)\n"
        "print(F.prelu(torch.tensor([-1., 2.]), torch.tensor(0.5)))\n"
        "tries(lambda: F.prelu(x, torch.ones(3)), lambda: F.prelu(x, torch.ones(2, dtype=torch.float64)),\n"
        "      lambda: F.prelu(x, torch.ones(1, 2)), lambda: F.prelu(torch.tensor(1.), torch.ones(2)))\n"),
    # the modules: repr (extra_repr), parameters and buffers with their initial values, where the classes live
    "modules": (
        "nn = torch.nn\n"
        "ms = [nn.Mish(), nn.Mish(True), nn.Hardswish(True), nn.Hardsigmoid(True), nn.CELU(), nn.CELU(2, True),\n"
        "      nn.SELU(), nn.SELU(True), nn.Threshold(0.1, 20), nn.Threshold(1, 2, True), nn.Softshrink(),\n"
        "      nn.Softshrink(1), nn.Hardshrink(), nn.Tanhshrink(), nn.Softmin(), nn.Softmin(1), nn.GLU(), nn.GLU(0),\n"
        "      nn.CosineSimilarity(), nn.CosineSimilarity(0, 1e-6), nn.PairwiseDistance(), nn.Softsign(),\n"
        "      nn.GroupNorm(2, 4), nn.GroupNorm(1, 3, eps=1e-3, affine=False), nn.GroupNorm(2, 4, bias=False),\n"
        "      nn.InstanceNorm1d(3), nn.InstanceNorm2d(4, affine=True, track_running_stats=True),\n"
        "      nn.InstanceNorm1d(3, momentum=None), nn.PReLU(), nn.PReLU(3, 0.1)]\n"
        "print(nn.Sequential(*ms))\n"
        "for m in ms:\n"
        "    print(type(m), isinstance(m, (nn.Softmax, nn.BatchNorm1d, nn.Hardswish, nn.Softshrink)),\n"
        "          list(m.state_dict().items()), [(n, p.requires_grad) for n, p in m.named_parameters()])\n"
        "tries(lambda: nn.GroupNorm(2, 3))\n"),
    "modules_forward": (
        "nn = torch.nn\n"
        "torch.manual_seed(0)\n"
        "x = torch.randn(2, 4, 5, requires_grad=True)\n"
        "m = nn.InstanceNorm1d(4, affine=True, track_running_stats=True)\n"
        "y = m(x)\n"
        "print(y.round(decimals=4), m.running_mean, m.running_var, m.num_batches_tracked)\n"
        "m.eval()\n"
        "print(m(x).round(decimals=4), nn.InstanceNorm1d(4)(x[0]).round(decimals=4))\n"
        "g = nn.GroupNorm(2, 4)\n"
        "show(g(x).round(decimals=4))\n"
        "p = nn.PReLU(4)\n"
        "y = p(x)\n"
        "y.sum().backward()\n"
        "print(y.grad_fn, p.weight.grad, x.grad.sum())\n"
        "print(nn.CosineSimilarity()(x, x + 1).round(decimals=4),\n"
        "      nn.PairwiseDistance()(x[0], x[1]).round(decimals=4))\n"
        "print(nn.Softmin(1)(x[0]).round(decimals=4), nn.GLU()(x[:, :, :4]).round(decimals=4),\n"
        "      nn.Threshold(0.1, 20)(x[0]), nn.Mish()(x[0]).round(decimals=4), nn.SELU()(x[0]).round(decimals=4))\n"
        "tries(lambda: nn.InstanceNorm1d(3)(x).shape, lambda: nn.InstanceNorm1d(3, affine=True)(x),\n"
        "      lambda: nn.InstanceNorm2d(3)(x), lambda: nn.InstanceNorm1d(3)(x[0, 0]), lambda: nn.GLU()(x))\n"),
}


@pytest.mark.parametrize("name", sorted(SNIPPETS))
def test_snippet_as_pytorch(name):
    t, e = run_both(T, E, SHOW + SNIPPETS[name])
    assert same(t, e), f"\n--- torch\n{t.summary()}--- engine\n{e.summary()}"
