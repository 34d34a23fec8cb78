"""Double backward (create_graph=True) against real PyTorch: the gradients' grad_fn graphs carry the names of
PyTorch's backward functions (SoftmaxBackwardDataBackward0, MseLossBackwardBackward0, ...), the nodes PyTorch's C++
formulas record (MulBackward1 for `Scalar * tensor`, AddBackward1, DivBackward1), their saved attributes, and the
second (and third) derivatives' values, printed word for word."""
import pytest

T = pytest.importorskip("torch", reason="differential tests need real PyTorch (pip install torch==2.13.0)")
from .harness import load_engine, run_both, same  # noqa: E402

E = load_engine()

# walk(t): a gradient's grad_fn graph, three levels deep, with every node's saved attributes (but those of the
# node classes in `bare`: MmBackward0's saved strides are another matter);
# second(y, x): g = dy/dx with a graph, its graph, then d(g . w)/dx and its graph, then the third derivative.
SHOW = ("def walk(t, depth=3, bare=()):\n"
        "    seen, level = set(), [t.grad_fn]\n"
        "    for d in range(depth):\n"
        "        nxt = []\n"
        "        for fn in level:\n"
        "            if fn is None or id(fn) in seen:\n"
        "                continue\n"
        "            seen.add(id(fn))\n"
        "            print(' ' * d, fn, fn.next_functions)\n"
        "            names = [] if type(fn).__name__ in bare else dir(fn)\n"
        "            for n in sorted(a for a in names if a.startswith('_saved_')):\n"
        "                print(' ' * d, ' ', n, getattr(fn, n))\n"
        "            nxt += [f for f, _ in fn.next_functions]\n"
        "        level = nxt\n"
        "def second(y, x, third=True):\n"
        "    g, = torch.autograd.grad(y.sum(), x, create_graph=True)\n"
        "    print(g)\n    walk(g)\n"
        "    w = torch.arange(float(g.numel())).view(g.shape)\n"
        "    h, = torch.autograd.grad((g * w).sum(), x, create_graph=True, allow_unused=True)\n"
        "    print(h)\n"
        "    if h is not None and h.grad_fn is not None:\n"
        "        walk(h, 2)\n"
        "        if third:\n"
        "            print(torch.autograd.grad(h.sum(), x, allow_unused=True))\n"
        "    return g\n")

X6 = "x = torch.tensor([0.3, -1.2, 2.5, -0.4, 0.9, 1.7], requires_grad=True)\n"

SNIPPETS = {
    "softmax_and_log_softmax": (
        X6 + "F = torch.nn.functional\nw = torch.arange(6.).view(2, 3)\n"
        "second(F.softmax(x.view(2, 3), 1) * w, x)\nsecond(F.softmax(x.view(2, 3), -1) * w, x, False)\n"
        "second(F.softmax(x.view(2, 3), 0) * w, x, False)\nsecond(F.log_softmax(x.view(2, 3), 1) * w, x, False)\n"
        "second(torch.log_softmax(x.view(3, 2), dim=0) * w.view(3, 2), x, False)\n"
        "second(x.view(2, 3).softmax(1) * x.view(2, 3).sum(), x, False)"),
    "cross_entropy_and_nll": (
        X6 + "F = torch.nn.functional\nt = torch.tensor([0, 2])\n"
        "second(F.cross_entropy(x.view(2, 3), t), x)\n"
        "second(F.cross_entropy(x.view(2, 3), t, weight=torch.tensor([1., 2., 3.])), x, False)\n"
        "second(F.cross_entropy(x.view(2, 3), t, reduction='none') * torch.tensor([1., 3.]), x, False)\n"
        "second(F.cross_entropy(x.view(2, 3), torch.tensor([0, -100]), reduction='sum'), x, False)\n"
        "second(F.nll_loss(x.view(2, 3) ** 2, t), x)\n"
        "second(F.cross_entropy(x.view(2, 3), t) * (x * x).sum(), x, False)"),
    "mse_loss": (
        X6 + "F = torch.nn.functional\nt = torch.tensor([0.5, -1.0, 2.0, 0.1, 0.0, 1.5])\n"
        "second(F.mse_loss(x, t), x)\nsecond(F.mse_loss(x, t, reduction='sum'), x)\n"
        "second(F.mse_loss(x, t, reduction='none'), x)\nsecond(F.mse_loss(x, t) * (x * x).sum(), x)\n"
        "u = t.clone().requires_grad_()\ng, = torch.autograd.grad(F.mse_loss(x, u), (u,), create_graph=True)\n"
        "walk(g)\nprint(torch.autograd.grad((g * g).sum(), (x, u)))\n"
        "print(torch.nn.MSELoss()(x, t).grad_fn)"),
    "elu_gelu_softplus": (
        X6 + "F = torch.nn.functional\n"
        "second(F.elu(x), x)\nsecond(F.elu(x, 0.5), x, False)\nsecond(F.elu(x) * (x * x).sum(), x)\n"
        "second(F.gelu(x), x)\nsecond(F.gelu(x, approximate='tanh'), x, False)\n"
        "second(F.gelu(x) * x.sum(), x, False)\n"
        "second(F.softplus(x), x)\nsecond(F.softplus(x, beta=2, threshold=3), x, False)\n"
        "second(F.softplus(x) * x.sum(), x, False)\n"
        "second(torch.nn.ELU()(x) + torch.nn.GELU()(x) + torch.nn.Softplus()(x), x, False)"),
    "binary_cross_entropy": (
        X6 + "F = torch.nn.functional\np = torch.tensor([0.2, 0.7, 0.5, 0.9, 0.1, 0.4])\n"
        "second(F.binary_cross_entropy(x.sigmoid(), p), x)\n"
        "second(F.binary_cross_entropy(x.sigmoid(), p, weight=p + 1), x, False)\n"
        "second(F.binary_cross_entropy(x.sigmoid(), p, reduction='sum') * x.sum(), x, False)\n"
        "second(F.binary_cross_entropy(x.sigmoid(), p, reduction='none'), x, False)\n"
        "second(F.binary_cross_entropy_with_logits(x, p), x)\n"
        "second(F.binary_cross_entropy_with_logits(x, p, pos_weight=p + 2, weight=p), x, False)"),
    "smooth_l1_and_huber": (
        X6 + "F = torch.nn.functional\nt = torch.tensor([0.5, -1.0, 2.0, 0.1, 0.0, 1.5])\n"
        "second(F.smooth_l1_loss(x, t), x)\nsecond(F.smooth_l1_loss(x, t, beta=0.5, reduction='sum'), x)\n"
        "second(F.smooth_l1_loss(x, t) * (x * x).sum(), x)\n"
        "second(F.huber_loss(x, t), x)\nsecond(F.huber_loss(x, t, delta=0.5, reduction='none'), x)\n"
        "second(F.huber_loss(x, t) * (x * x).sum(), x)\n"
        "second(F.huber_loss(x, t, delta=0.5, reduction='none') * (x * x).sum(), x, False)"),
    "pointwise_scalar_nodes": (
        X6 + "second(x ** 3, x)\nsecond(x ** 2, x)\nsecond(x.pow(4), x, False)\n"
        "second(x.sigmoid() * x.sum(), x)\nsecond(x.tanh() * x.sum(), x)\n"
        "second(torch.nn.functional.silu(x), x)\nsecond(x.cos(), x)\nsecond(x.sin(), x, False)\n"
        "second(x / (x * x + 1), x, False)\nsecond(torch.nn.functional.relu(x) * x.sum(), x, False)"),
    "hessian_vector_product": (
        "torch.manual_seed(0)\nF = torch.nn.functional\n"
        "w = torch.tensor([[0.5, -0.3], [0.2, 0.8], [-0.6, 0.1]], requires_grad=True)\n"
        "xs = torch.tensor([[1.0, 2.0, -1.0], [0.5, -0.5, 2.0], [-1.5, 0.3, 0.7]])\n"
        "ys = torch.tensor([1, 0, 1])\n"
        "loss = F.cross_entropy(F.gelu(xs @ w), ys) + F.mse_loss(F.elu(xs @ w), torch.ones(3, 2))\n"
        "g, = torch.autograd.grad(loss, w, create_graph=True)\nwalk(g, 4, ('MmBackward0',))\n"
        "v = torch.ones_like(w)\nhv, = torch.autograd.grad((g * v).sum(), w)\nprint(g, hv)\n"
        "logits = xs @ w\np = F.softmax(logits, 1)\nl2 = -(p.log() * p).sum()\n"
        "g2, = torch.autograd.grad(l2, w, create_graph=True)\nprint(g2)\nwalk(g2, 3, ('MmBackward0',))\n"
        "print(torch.autograd.grad(g2.sum(), w))"),
}


@pytest.mark.parametrize("name", SNIPPETS)
def test_snippet(name):
    """Printed text, warnings and the final error are identical (addresses and C++ locations blanked)."""
    code = SHOW + SNIPPETS[name]
    t, e = run_both(T, E, code)
    assert same(t, e), f"\n{code}\n--- torch\n{t.summary()}--- engine\n{e.summary()}"
