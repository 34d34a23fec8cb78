"""kl_div / KLDivLoss, margin_ranking_loss / MarginRankingLoss, hinge_embedding_loss / HingeEmbeddingLoss,
dropout2d / Dropout2d and torch.nn.utils.rnn.pad_sequence against real PyTorch: values, dtypes, the grad_fn graphs of
the composed ops, saved attributes, gradients, warnings and errors."""
import pytest

T = pytest.importorskip("torch", reason="differential tests need real PyTorch (pip install torch==2.13.0)")
from .harness import SHOW, load_engine, run_both, same  # noqa: E402

E = load_engine()

WALK = ("def walk(g, d=0):\n"
        "    if g is None:\n"
        "        print('  ' * d + 'None'); return\n"
        "    print('  ' * d + type(g).__name__,\n"
        "          [(n, getattr(g, n)) for n in sorted(dir(g)) if n.startswith('_saved_')])\n"
        "    for n, _ in g.next_functions:\n"
        "        walk(n, d + 1)\n")

SNIPPETS = {
    # kl_div is composed in 2.13: xlogy(t, t) - t * x (exp(t) * (t - x) with log_target), then mean / sum, and
    # 'batchmean' the sum divided by the batch size; 'mean' warns
    "kl_div_reductions": (
        "F = torch.nn.functional\n"
        "x = torch.tensor([[-1.2, -0.3, -2.0], [-0.5, -0.9, -1.5]], requires_grad=True)\n"
        "t = torch.tensor([[0.2, 0.0, 0.8], [0.5, 0.25, 0.25]], requires_grad=True)\n"
        "for red in ('mean', 'sum', 'none', 'batchmean'):\n"
        "    for lt in (False, True):\n"
        "        y = F.kl_div(x, t, reduction=red, log_target=lt)\n"
        "        print(red, lt, y)\n"
        "        walk(y.grad_fn)\n"
        "        x.grad = t.grad = None\n"
        "        y.sum().backward()\n"
        "        print(x.grad, t.grad)\n"),
    "kl_div_edges": (
        "F = torch.nn.functional\n"
        "x = torch.tensor([[-1.2, -0.3], [-0.5, -0.9]], requires_grad=True)\n"
        "t = torch.tensor([[0.2, 0.8], [0.5, 0.5]])\n"
        "print(F.kl_div(torch.tensor(-0.5), torch.tensor(0.3), reduction='batchmean'))\n"
        "print(F.kl_div(x, t, size_average=False), F.kl_div(x, t, reduce=False))\n"
        "print(F.kl_div(x.double(), t, reduction='sum'), F.kl_div(x, t.double(), reduction='sum'))\n"
        "print(F.kl_div(x, torch.tensor([0.3, 0.7]), reduction='sum'))\n"
        "tries(lambda: F.kl_div(torch.tensor([1, 2]), t), lambda: F.kl_div(x, torch.tensor([[1, 0], [0, 1]])),\n"
        "      lambda: F.kl_div(x, t, reduction='foo'), lambda: F.kl_div(x, torch.ones(3)))\n"
        "m = torch.nn.KLDivLoss(reduction='batchmean', log_target=True)\n"
        "print(m, m.reduction, m.log_target, m(x, t.log()))\n"
        "m = torch.nn.KLDivLoss(size_average=False)\n"
        "print(m.reduction, m(x, t), torch.nn.KLDivLoss()(x, t))\n"),
    # margin_ranking_loss: (-target * (x1 - x2) + margin) (add.Scalar) then clamp_min_(0) (saving a clone of self)
    "margin_ranking_loss": (
        "F = torch.nn.functional\n"
        "a = torch.tensor([1., -2., 3., 0.25], requires_grad=True)\n"
        "b = torch.tensor([0.5, 0., 3.5, 1.], requires_grad=True)\n"
        "t = torch.tensor([1., 1., -1., -1.])\n"
        "for red in ('mean', 'sum', 'none'):\n"
        "    for margin in (0, 0.5):\n"
        "        y = F.margin_ranking_loss(a, b, t, margin=margin, reduction=red)\n"
        "        print(red, margin, y)\n"
        "        walk(y.grad_fn)\n"
        "        a.grad = b.grad = None\n"
        "        y.sum().backward()\n"
        "        print(a.grad, b.grad)\n"
        "m = torch.nn.MarginRankingLoss(margin=0.2)\n"
        "print(m, m.margin, m(a, b, t), torch.nn.MarginRankingLoss(reduce=False)(a, b, t))\n"
        "print(F.margin_ranking_loss(a.double(), b, t))\n"
        "tries(lambda: F.margin_ranking_loss(a, b, t[None]), lambda: F.margin_ranking_loss(a, b, t, reduction='x'),\n"
        "      lambda: F.margin_ranking_loss(a, b[:2], t))\n"),
    # hinge_embedding_loss: where(t != 1, clamp_min_(margin - x, 0), 0) + where(t != -1, x, 0)
    "hinge_embedding_loss": (
        "F = torch.nn.functional\n"
        "x = torch.tensor([0.3, -1.5, 2.0, 0.7, -0.2], requires_grad=True)\n"
        "t = torch.tensor([1., -1., -1., 1., 0.])\n"
        "for red in ('mean', 'sum', 'none'):\n"
        "    y = F.hinge_embedding_loss(x, t, margin=1.5, reduction=red)\n"
        "    print(red, y)\n"
        "    walk(y.grad_fn)\n"
        "    x.grad = None\n"
        "    y.sum().backward()\n"
        "    print(x.grad)\n"
        "print(F.hinge_embedding_loss(x, t.long()), F.hinge_embedding_loss(x.double(), t, reduce=False))\n"
        "m = torch.nn.HingeEmbeddingLoss(margin=0.5, reduction='sum')\n"
        "print(m, m.margin, m(x, t), torch.nn.HingeEmbeddingLoss()(x, t))\n"
        "tries(lambda: F.hinge_embedding_loss(x, t, reduction='y'), lambda: F.hinge_embedding_loss(x, t[:2]))\n"),
    # dropout2d: one draw per (sample, channel) from PyTorch's generator, noise (N, C, 1, 1)
    "dropout2d": (
        "F = torch.nn.functional\n"
        "torch.manual_seed(0)\n"
        "x = torch.randn(2, 4, 2, 3, requires_grad=True)\n"
        "y = F.dropout2d(x, 0.4)\n"
        "show(y)\n"
        "y.sum().backward()\n"
        "print(x.grad)\n"
        "print(F.dropout2d(x, 0.4, training=False) is x, F.dropout2d(x, 0.) is x, F.dropout2d(x, 1.))\n"
        "print(F.dropout2d(torch.ones(3, 5, 2), 0.5), F.dropout2d(torch.ones(3, 4), 0.5))\n"
        "print(F.dropout2d(torch.ones(2, 3, 1, 1, 2), 0.5))\n"
        "z = torch.ones(1, 6, 1, 2)\n"
        "print(F.dropout2d(z, 0.5, inplace=True) is z, z)\n"
        "m = torch.nn.Dropout2d(0.25)\n"
        "print(m, m(torch.ones(2, 8, 1, 1)).flatten())\n"
        "m.eval()\n"
        "print(m(z) is z)\n"
        "tries(lambda: F.dropout2d(x, 1.5), lambda: torch.nn.Dropout2d(-0.1), lambda: F.dropout2d(torch.ones(3), 0.5),\n"
        "      lambda: F.dropout2d(torch.ones(0, 2, 2, 2), 0.5))\n"),
    # pad_sequence: a tensor full of padding_value, each sequence copied into its slice (a chain of CopySlices)
    "pad_sequence": (
        "pad_sequence = torch.nn.utils.rnn.pad_sequence\n"
        "a = torch.tensor([1., 2., 3.], requires_grad=True)\n"
        "b = torch.tensor([4., 5.], requires_grad=True)\n"
        "c = torch.tensor([6.], requires_grad=True)\n"
        "for kw in ({}, {'batch_first': True}, {'padding_value': -1.5}, {'batch_first': True, 'padding_side': 'left'},\n"
        "           {'padding_side': 'left'}):\n"
        "    y = pad_sequence([a, b, c], **kw)\n"
        "    print(kw, y)\n"
        "    walk(y.grad_fn)\n"
        "    a.grad = b.grad = c.grad = None\n"
        "    (y * torch.arange(9.).view(3, 3)).sum().backward()\n"
        "    print(a.grad, b.grad, c.grad)\n"
        "x = torch.randn(2, 3, requires_grad=True)\n"
        "y = pad_sequence((x, torch.ones(4, 3)), batch_first=True)\n"
        "print(y.shape, y.grad_fn, y.grad_fn.next_functions[1])\n"
        "print(pad_sequence([torch.tensor([1, 2]), torch.tensor([3])], padding_value=7))\n"
        "print(pad_sequence([torch.tensor([1., 2.]), torch.tensor([3.], dtype=torch.float64)]))\n"
        "print(pad_sequence(torch.arange(6.).view(2, 3)))\n"
        "tries(lambda: pad_sequence([]), lambda: pad_sequence([torch.zeros(2, 3), torch.zeros(2, 4)]),\n"
        "      lambda: pad_sequence([torch.zeros(2), torch.zeros(2, 1)]), lambda: pad_sequence([a], padding_side='mid'),\n"
        "      lambda: pad_sequence([torch.tensor(1.)]), lambda: pad_sequence(3))\n"),
}


@pytest.mark.parametrize("name", sorted(SNIPPETS))
def test_snippet_as_pytorch(name):
    t, e = run_both(T, E, SHOW + WALK + SNIPPETS[name])
    assert same(t, e), f"\n--- torch\n{t.summary()}--- engine\n{e.summary()}"


def test_import_torch_nn_utils_rnn_when_torch_is_the_engine():
    """`import torch.nn.utils.rnn` / `from torch.nn.utils.rnn import pad_sequence` (torch bound to the engine, as in
    the browser) find the engine's own module."""
    import subprocess
    import sys
    code = ("import sys, engine\n"
            "sys.modules['torch'] = engine\n"
            "import torch.nn.utils.rnn\n"
            "from torch.nn.utils.rnn import pad_sequence\n"
            "from torch.nn.utils import clip_grad_norm_\n"
            "assert torch.nn.utils.rnn.pad_sequence is pad_sequence is engine.nn.utils.rnn.pad_sequence\n"
            "assert clip_grad_norm_ is engine.nn.utils.clip_grad_norm_\n"
            "print(pad_sequence([torch.ones(2), torch.ones(1)]).tolist())\n")
    import os
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    out = subprocess.run([sys.executable, "-c", code], cwd=root, capture_output=True, text=True,
                         env={**os.environ, "PYTHONPATH": root})
    assert out.returncode == 0, out.stderr
    assert out.stdout == "[[1.0, 1.0], [1.0, 0.0]]\n"
