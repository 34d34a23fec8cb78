"""Whole tutorial programs and their typical mistakes against real PyTorch (session 19, area "tutorials"): the
regression loops of the courses with a loss whose target has another dtype than the model's output, RNN tutorials
packing their batches of sequences of different lengths, the text classification tutorial's EmbeddingBag,
torch.special, the closed-form least squares, the multi-class and multi-label hinge losses, batch norm's last bits. Printed
text, warnings and the final error must be the same."""
import pytest

T = pytest.importorskip("torch", reason="differential tests need real PyTorch (pip install torch==2.13.0)")
from .harness import load_engine, run_both, same  # noqa: E402

E = load_engine()

SNIPPETS = {
    # huber_loss writes into empty_like(input): the input's dtype, and its backward wants one dtype (smooth_l1_loss,
    # mse_loss promote instead)
    "huber_loss_keeps_the_input_dtype": (
        'x = torch.tensor([[1.0], [2.0], [3.5]], requires_grad=True)\n'
        'y = torch.tensor([[1.], [0.], [1.]], dtype=torch.float64)\n'
        'for red in ["mean", "sum", "none"]:\n'
        '    for fn in [torch.nn.HuberLoss(reduction=red), torch.nn.SmoothL1Loss(reduction=red)]:\n'
        '        x.grad = None\n'
        '        loss = fn(x, y); print(loss)\n'
        '        try:\n'
        '            loss.sum().backward(); print(x.grad)\n'
        '        except RuntimeError as e:\n'
        '            print(e)\n'
        'print(torch.nn.functional.huber_loss(x.double(), y.float(), delta=0.5))\n'
        'print(torch.nn.functional.huber_loss(x, y.long()))\n'
        'torch.nn.functional.huber_loss(torch.tensor([1, 2]), torch.tensor([1., 5.]))'),
    # torch.nn.utils.rnn's PackedSequence: packing (PackPaddedSequenceBackward0), unpacking (a composite: CopySlices),
    # and nn.RNN / GRU / LSTM over packed input (PyTorch's PackedLayer: the batch shrinking step by step)
    "pack_padded_sequence_and_back": (
        'from torch.nn.utils.rnn import pack_padded_sequence, pad_packed_sequence, pack_sequence, unpack_sequence\n'
        'x = torch.tensor([[1., 2., 3.], [4., 5., 0.]], requires_grad=True)\n'
        'pk = pack_padded_sequence(x, [3, 2], batch_first=True)\n'
        'g = pk.data.grad_fn\n'
        'print(pk, g.next_functions, g._saved_batch_first, g._saved_input_sym_sizes, g._saved_result1)\n'
        'gx, = torch.autograd.grad((pk.data ** 2).sum(), x, create_graph=True); print(gx, gx.grad_fn)\n'
        'o, l = pad_packed_sequence(pk, batch_first=True, total_length=4); print(o, l, o.grad_fn.next_functions)\n'
        'ps = pack_sequence([torch.tensor([4, 5]), torch.tensor([1, 2, 3]), torch.tensor([6])], enforce_sorted=False)\n'
        'print(ps, unpack_sequence(ps), ps.double())\n'
        'for lengths in ([1, 2], [2, 0], [3]):\n'
        '    try:\n'
        '        pack_padded_sequence(x.T, lengths)\n'
        '    except RuntimeError as e:\n'
        '        print(e)\n'
        'pad_packed_sequence(pk, total_length=2)'),
    "rnn_gru_lstm_over_packed_sequences": (
        'import torch.nn as nn\n'
        'from torch.nn.utils.rnn import pad_sequence, pack_padded_sequence, pad_packed_sequence\n'
        'seqs = [torch.tensor([[1., .5], [2., -1.], [3., 0.]]), torch.tensor([[4., 1.], [5., 2.]]), torch.tensor([[6., -2.]])]\n'
        'for cls in [nn.RNN, nn.GRU, nn.LSTM]:\n'
        '    for kw in [dict(num_layers=2), dict(batch_first=True, bidirectional=True)]:\n'
        '        m = cls(2, 3, **kw)\n'
        '        for i, p in enumerate(m.parameters()):\n'
        '            with torch.no_grad(): p.copy_(torch.linspace(-.5, .5, p.numel()).reshape(p.shape) * (1 + .1 * i))\n'
        '        xs = [s.clone().requires_grad_() for s in seqs]\n'
        '        bf = kw.get("batch_first", False)\n'
        '        pk = pack_padded_sequence(pad_sequence(xs[::-1], batch_first=bf), [1, 2, 3], bf, enforce_sorted=False)\n'
        '        out, h = m(pk)\n'
        '        h = h[0] if isinstance(h, tuple) else h\n'
        '        o, lengths = pad_packed_sequence(out, batch_first=bf)\n'
        '        (o.sum() + h.pow(2).sum()).backward()\n'
        '        print(out.data.grad_fn, h.grad_fn.next_functions, o.grad_fn, o, lengths, h, [x.grad for x in xs])\n'
        'm = nn.LSTM(2, 4)\n'
        'm(pk, (torch.zeros(1, 3, 4), torch.zeros(1, 2, 4)))'),
    # nn.EmbeddingBag / F.embedding_bag (PyTorch's text classification tutorial): sum, mean, max bags, offsets or a
    # 2-d input, per_sample_weights, padding_idx, EmbeddingBagBackward0 and what it saves
    "embedding_bag_text_classification": (
        'import torch.nn as nn\n'
        'class TextClassificationModel(nn.Module):\n'
        '    def __init__(self, vocab_size, embed_dim, num_class):\n'
        '        super().__init__()\n'
        '        self.embedding = nn.EmbeddingBag(vocab_size, embed_dim, sparse=False)\n'
        '        self.fc = nn.Linear(embed_dim, num_class)\n'
        '        self.embedding.weight.data.uniform_(-0.5, 0.5)\n'
        '        self.fc.weight.data.uniform_(-0.5, 0.5)\n'
        '        self.fc.bias.data.zero_()\n'
        '    def forward(self, text, offsets):\n'
        '        return self.fc(self.embedding(text, offsets))\n'
        'torch.manual_seed(0)\n'
        'model = TextClassificationModel(20, 8, 4); print(model)\n'
        'optimizer = torch.optim.SGD(model.parameters(), lr=5)\n'
        'text, offsets = torch.tensor([1, 5, 7, 2, 3, 9, 9, 12, 4, 0, 19]), torch.tensor([0, 3, 5, 9])\n'
        'for epoch in range(3):\n'
        '    optimizer.zero_grad()\n'
        '    loss = nn.functional.cross_entropy(model(text, offsets), torch.tensor([0, 3, 1, 2]))\n'
        '    loss.backward()\n'
        '    torch.nn.utils.clip_grad_norm_(model.parameters(), 0.1)\n'
        '    optimizer.step()\n'
        '    print(f"epoch {epoch} loss {loss.item():.4f}")\n'
        'g = model(text, offsets).grad_fn.next_functions[0][0].next_functions[1][0]\n'
        'print(g, nn.EmbeddingBag(5, 2, mode="max", padding_idx=-1, include_last_offset=True))\n'
        'for a in sorted(a for a in dir(g) if a.startswith("_saved")):\n'
        '    print(a, getattr(g, a))'),
    "embedding_bag_modes_and_gradients": (
        'import torch.nn.functional as F\n'
        't, off = torch.tensor([1, 2, 0, 5, 4, 3, 2, 9]), torch.tensor([0, 3, 3])\n'
        'w = (torch.arange(20.).reshape(10, 2) * torch.tensor([1., -1.]) / 3).requires_grad_()\n'
        'for mode in ["sum", "mean", "max"]:\n'
        '    for pi in [None, 2]:\n'
        '        for freq in [False, True][:1 + (mode != "max")]:\n'
        '            w.grad = None\n'
        '            o = F.embedding_bag(t, w, off, mode=mode, padding_idx=pi, scale_grad_by_freq=freq); g = o.grad_fn\n'
        '            o.backward(torch.arange(6.).reshape(3, 2) / 7)\n'
        '            print(mode, pi, o, g._saved_result1, g._saved_result2, g._saved_result3, w.grad)\n'
        'psw = torch.linspace(0.5, 2, 8, requires_grad=True)\n'
        'o = F.embedding_bag(t, w, off, mode="sum", per_sample_weights=psw); o.backward(torch.ones(3, 2))\n'
        'print(o, o.grad_fn.next_functions, psw.grad, o.grad_fn._saved_weight is None)\n'
        'print(F.embedding_bag(t.view(2, 4), w), F.embedding_bag(t, w, torch.tensor([0, 3, 8]), include_last_offset=True))\n'
        'for args, kw in [((t, w, torch.tensor([1, 3])), {}), ((t, w, torch.tensor([0, 9])), {}),\n'
        '                 ((t, w, off.float()), {}), ((t, w), {}), ((t, w, off), {"mode": "avg"}),\n'
        '                 ((t, w, off), {"mode": "mean", "per_sample_weights": psw}), ((t.view(2, 4), w, off), {}),\n'
        '                 ((torch.tensor([1, 10, 2, 3]), w, torch.tensor([0, 2])), {}),\n'
        '                 ((torch.tensor([1, 2, 3, 10]), w, torch.tensor([0, 1])), {}),\n'
        '                 ((torch.tensor([1, 10]), w, torch.tensor([0])), {"mode": "max"})]:\n'
        '    try:\n'
        '        F.embedding_bag(*args, **kw)\n'
        '    except Exception as e:\n'
        '        print(type(e).__name__, e)'),
    # torch.special: aliases of the ordinary ops (the same nodes), entr and ndtr, PyTorch's argument errors
    "torch_special": (
        'x = torch.tensor([0.2, 0.7], requires_grad=True)\n'
        'S = torch.special\n'
        'for n in ["expit", "gammaln", "psi", "erf", "erfc", "erfinv", "exp2", "expm1", "log1p", "logit", "round",\n'
        '          "sinc", "entr", "ndtr"]:\n'
        '    y = getattr(S, n)(x)\n'
        '    g, = torch.autograd.grad(y.sum(), x, create_graph=True)\n'
        '    print(n, y, g, g.grad_fn)\n'
        'print(S.softmax(x, 0), S.log_softmax(x, 0), S.logsumexp(x, 0), S.polygamma(1, x), S.xlogy(2, x))\n'
        'print(S.entr(torch.tensor([0., -1., 1., float("nan")])), S.entr(torch.tensor([1, 2])), S.ndtr(torch.tensor([0, 1])))\n'
        'print(S.expit, S.logit(x, eps=0.3), S.round(x, decimals=1))\n'
        'for f in [lambda: S.expit(2), lambda: S.softmax(x), lambda: S.logsumexp(x)]:\n'
        '    try:\n'
        '        f()\n'
        '    except TypeError as e:\n'
        '        print(e)\n'
        'from torch.special import expit\n'
        'print(expit(torch.zeros(2)))'),
    # the closed-form linear regression: torch.linalg.lstsq (its four drivers, LinalgLstsqBackward0 for the solution
    # and the residuals), linalg.pinv / torch.pinverse (LinalgPinvBackward0), linalg.matrix_rank
    "least_squares_closed_form": (
        'A = torch.tensor([[1., 1.], [1., 2.], [1., 3.], [1., 4.]], requires_grad=True)\n'
        'b = torch.tensor([2.1, 3.9, 6.2, 7.8], requires_grad=True)\n'
        'r = torch.linalg.lstsq(A, b.unsqueeze(-1)); print(r, torch.linalg.lstsq(A, b).solution)\n'
        'g = r.solution.grad_fn; print(g.next_functions, g._saved_b, g._saved_self, g._saved_solution)\n'
        'for drv in ["gels", "gelsy", "gelsd", "gelss"]:\n'
        '    A.grad = b.grad = None\n'
        '    r = torch.linalg.lstsq(A, b.unsqueeze(-1), driver=drv)\n'
        '    (r.solution.sum() + r.residuals.sum()).backward()\n'
        '    print(drv, r.residuals, r.rank, r.singular_values, A.grad, b.grad)\n'
        'print(torch.linalg.lstsq(A.T, torch.tensor([[1.], [2.]])).solution)\n'
        'print(torch.linalg.lstsq(torch.tensor([[1., 2.], [2., 4.], [3., 6.]]), torch.ones(3, 1)))\n'
        'A.grad = None\n'
        'P = torch.linalg.pinv(A); (P * torch.arange(8.).reshape(2, 4)).sum().backward()\n'
        'print(P.grad_fn, A.grad, torch.pinverse(A, 0.2), A.pinverse().shape, torch.linalg.pinv(A, atol=1.0))\n'
        'print(torch.linalg.pinv(torch.tensor([[2., 1.], [1., 2.]]), hermitian=True))\n'
        'print(torch.linalg.matrix_rank(A), torch.linalg.matrix_rank(A, tol=3.0), torch.linalg.matrix_rank(A, rtol=0.5))\n'
        'for f in [lambda: torch.linalg.lstsq(A, torch.ones(3, 1)), lambda: torch.linalg.lstsq(torch.ones(3), torch.ones(3)),\n'
        '          lambda: torch.linalg.lstsq(A, torch.ones(4, 1, dtype=torch.float64)),\n'
        '          lambda: torch.linalg.lstsq(A, torch.ones(4, 1), driver="qr"), lambda: torch.linalg.pinv(torch.ones(3)),\n'
        '          lambda: torch.linalg.matrix_rank(torch.ones(2, 2, dtype=torch.long))]:\n'
        '    try:\n'
        '        f()\n'
        '    except RuntimeError as e:\n'
        '        print(e)'),
    # nn.MultiMarginLoss / F.multi_margin_loss (a linear SVM's loss): p 1 and 2, margin, class weights,
    # MultiMarginLossBackward0 (and the NotImplemented node of its own backward), PyTorch's checks
    "multi_margin_loss_svm": (
        'import torch.nn as nn, torch.nn.functional as F\n'
        'torch.manual_seed(0)\n'
        'model, crit = nn.Linear(2, 3), nn.MultiMarginLoss()\n'
        'opt = torch.optim.SGD(model.parameters(), lr=0.1)\n'
        'X, Y = torch.tensor([[1., 2.], [2., 1.], [-1., -1.], [0., 1.]]), torch.tensor([0, 1, 2, 0])\n'
        'for i in range(3):\n'
        '    opt.zero_grad(); loss = crit(model(X), Y); loss.backward(); opt.step()\n'
        '    print(i, loss.item())\n'
        'x = torch.tensor([[0.1, 0.2, 0.4, 0.8], [0.5, -0.3, 0.2, 0.1]], requires_grad=True)\n'
        'y = torch.tensor([3, 0])\n'
        'l = F.multi_margin_loss(x, y, weight=torch.tensor([1., 2., 3., 4.])); g = l.grad_fn\n'
        'print(l, nn.MultiMarginLoss(p=2, margin=0.5), g.next_functions, g._saved_margin, g._saved_p, g._saved_weight)\n'
        'l.backward(torch.tensor(2.)); print(x.grad)\n'
        'x.grad = None; F.multi_margin_loss(x, y, p=2, reduction="none").backward(torch.tensor([1., 3.])); print(x.grad)\n'
        'print(F.multi_margin_loss(x[0], torch.tensor(3)), F.multi_margin_loss(x[0], y[:1], reduction="none"))\n'
        'g2, = torch.autograd.grad(F.multi_margin_loss(x, y, p=2), x, create_graph=True); print(g2)\n'
        'for args, kw in [((x, y.float()), {}), ((x, torch.tensor([4, 0])), {}), ((x, y), {"p": 3}),\n'
        '                 ((x, torch.tensor([0])), {}), ((x.long(), y), {}), ((x, y), {"weight": torch.ones(3)}),\n'
        '                 ((torch.zeros(2, 0), y), {}), ((x.double(), y), {"weight": torch.ones(4)}),\n'
        '                 ((x, y), {"weight": torch.ones(4, requires_grad=True)})]:\n'
        '    try:\n'
        '        F.multi_margin_loss(*args, **kw)\n'
        '    except Exception as e:\n'
        '        print(type(e).__name__, e)\n'
        'g2.sum().backward()'),
    # BatchNorm1d over (N, C) rows as PyTorch's channels-last CPU kernel adds them: one column too (numpy would
    # add it pairwise), and the backward's sums (float32 per half of the rows, fused for sum((x - mean) * dy)) and
    # grad_input's rounding; 莫烦's batch normalization tutorial feeds Adam these near-zero gradients
    "batch_norm_rows_last_bits": (
        'import torch.nn as nn\n'
        'x = torch.linspace(-7, 10, 16)[:, None].requires_grad_()\n'
        'bn = nn.BatchNorm1d(1, momentum=0.5)\n'
        'o = bn(x); print(o.view(-1).tolist(), o.sum().item(), bn.running_mean, bn.running_var)\n'
        'o.backward(torch.linspace(-1, 2, 16)[:, None] ** 2)\n'
        'print(x.grad.view(-1).tolist(), bn.weight.grad.item(), bn.bias.grad.item())\n'
        'bn.eval(); print(bn(x).view(-1).tolist())\n'
        'torch.manual_seed(0)\n'
        'for n, c in [(2, 3), (5, 2), (16, 4), (9, 1)]:\n'
        '    x = (torch.randn(n, c) * 3 + 1).requires_grad_()\n'
        '    bn = nn.BatchNorm1d(c)\n'
        '    with torch.no_grad(): bn.weight.uniform_(-1, 1)\n'
        '    dy = torch.randn(n, c)\n'
        '    bn(x).backward(dy)\n'
        '    print(x.grad.tolist(), bn.weight.grad.tolist(), bn.bias.grad.tolist())\n'
        '    bn.eval(); x.grad = None; bn(x).backward(dy); print(x.grad.tolist())\n'
        'for shape in [(4, 3, 5, 5), (2, 2, 3, 3), (8, 1, 4, 4), (3, 4, 7)]:\n'
        '    x = torch.randn(*shape) * 2 + 1\n'
        '    bn = nn.BatchNorm2d(shape[1]) if len(shape) == 4 else nn.BatchNorm1d(shape[1])\n'
        '    with torch.no_grad(): bn.weight.uniform_(-1, 1); bn.bias.uniform_(-1, 1)\n'
        '    o = bn(x); o = bn(x * 0.5)\n'
        '    print(o.sum().item(), o.view(-1)[:6].tolist(), bn.running_mean.tolist(), bn.running_var.tolist())\n'
        '    bn.eval(); print(bn(x).view(-1)[-6:].tolist())'),
    # nn.MultiLabelMarginLoss / F.multilabel_margin_loss: the target classes up to the first -1, is_target saved
    "multilabel_margin_loss": (
        'import torch.nn as nn, torch.nn.functional as F\n'
        'x = torch.tensor([[0.1, 0.2, 0.4, 0.8], [0.5, -0.3, 0.2, 0.1]], requires_grad=True)\n'
        'y = torch.tensor([[3, 0, -1, 1], [1, 2, -1, 0]])\n'
        'l = nn.MultiLabelMarginLoss()(x, y); g = l.grad_fn\n'
        'print(l, type(nn.MultiLabelMarginLoss()), g.next_functions, g._saved_is_target, g._saved_reduction)\n'
        'l.backward(); print(x.grad)\n'
        'x.grad = None; F.multilabel_margin_loss(x, y, reduction="none").backward(torch.tensor([2., -1.])); print(x.grad)\n'
        'print(F.multilabel_margin_loss(x, y, reduction="sum"), F.multilabel_margin_loss(x[0], y[0], reduction="none"))\n'
        'print(F.multilabel_margin_loss(x, torch.tensor([[-1, 3, 0, 0], [2, 2, -1, 0]])))\n'
        'for a, b in [(x, y.float()), (x, y[:, :3]), (x, torch.tensor([[4, -1, 0, 0], [0, -1, 0, 0]])), (x.long(), y),\n'
        '             (torch.zeros(2, 0), torch.zeros(2, 0, dtype=torch.long)), (x, y[0])]:\n'
        '    try:\n'
        '        F.multilabel_margin_loss(a, b)\n'
        '    except Exception as e:\n'
        '        print(type(e).__name__, e)\n'
        'g2, = torch.autograd.grad(F.multilabel_margin_loss(x, y), x, create_graph=True); print(g2, g2.grad_fn)\n'
        'g2.sum().backward()'),
}


@pytest.mark.parametrize("name", SNIPPETS)
def test_snippet(name):
    code = SNIPPETS[name]
    t, e = run_both(T, E, code)
    assert same(t, e), f"\n{code}\n--- torch\n{t.summary()}--- engine\n{e.summary()}"
