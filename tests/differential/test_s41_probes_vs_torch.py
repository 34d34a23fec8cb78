"""Differences found by session 41's learner-style probes against real PyTorch, each kept here with its variants.
Printed text, warnings and the final error must be the same."""
import numpy as np
import pytest

T = pytest.importorskip("torch", reason="differential tests need real PyTorch (pip install torch==2.13.0)")
from .harness import SHOW, load_engine, run_both, same  # noqa: E402

E = load_engine()

SNIPPETS = {
    # torch.optim.Adafactor: PyTorch's single-tensor update (factored second moment of a matrix, a vector's kept
    # whole), its state, versions, repr and errors
    "adafactor_steps": (
        'w = torch.tensor([[0.5, -1.5, 2.0], [1.0, 0.25, -0.75]], requires_grad=True)\n'
        'b = torch.tensor([0.1, -0.2], requires_grad=True)\n'
        'opt = torch.optim.Adafactor([w, b], lr=0.1)\n'
        'x = torch.tensor([[1., 2., 3.], [-1., 0.5, 2.], [0.3, -0.7, 1.1]])\n'
        'for i in range(5):\n'
        '    opt.zero_grad()\n'
        '    loss = ((x @ w.t() + b) ** 2).mean()\n'
        '    loss.backward()\n'
        '    opt.step()\n'
        '    print(i, loss.item(), w._version, opt.state[w]["row_var"]._version, opt.state[b]["variance"]._version)\n'
        'print(w.tolist(), b.tolist())\n'
        'print(opt.state[w], opt.state[b])\n'
        'print(opt, type(opt), torch.optim._adafactor.Adafactor is torch.optim.Adafactor)'),
    "adafactor_options": (
        'w = torch.tensor([[[1.0, -2.0], [0.5, 3.0]], [[0.25, -1.0], [2.0, 1.5]]], requires_grad=True)\n'
        'v = torch.tensor([1.0, 2.0, -3.0], requires_grad=True, dtype=torch.float64)\n'
        'opt = torch.optim.Adafactor([w, v], lr=0.05, weight_decay=0.1, maximize=True, d=2.0, eps=(1e-20, 1e-2),\n'
        '                            beta2_decay=-0.5)\n'
        'for i in range(3):\n'
        '    opt.zero_grad()\n'
        '    ((w * w.flip(0)).sum() + (v ** 3).sum()).backward()\n'
        '    opt.step()\n'
        'print(w.tolist(), v.tolist(), w._version)\n'
        'print(opt.state[w], opt.state[v])\n'
        'opt2 = torch.optim.Adafactor([w, v]); opt2.load_state_dict(opt.state_dict()); print(opt2)'),
    "adafactor_errors": (
        'w = torch.tensor([1.0], requires_grad=True)\n'
        'for kw in [dict(lr=-1), dict(beta2_decay=0.5), dict(eps=(-1, 1e-3)), dict(eps=(None, -1.)), dict(d=0.5),\n'
        '           dict(weight_decay=-1), dict(lr=torch.tensor([1., 2.]))]:\n'
        '    tries(lambda: torch.optim.Adafactor([w], **kw))'),
    # clamp keeps the first operand where max or min ties zeros of either sign: clamp(-0.4, -0., 0.) is -0.
    "clamp_zero_bounds_keep_sign": (
        'for lo, hi in [(-0., 0.), (0., -0.), (-0., None), (None, 0.), (0., 0.), (-0., -0.), (-1., 0.), (-0., 1.)]:\n'
        '    x = torch.tensor([-0.4, -0., 0., 0.4, 2.])\n'
        '    print(lo, hi, x.clamp(lo, hi), x.clip(lo, hi), torch.tensor([-0.4]).clamp_(lo, hi))\n'
        'x = torch.tensor([-0.4, 0.3, -0.], requires_grad=True)\n'
        'y = x.clamp(-0., 0.); print(y); y.sum().backward(); print(x.grad)\n'
        'print(torch.tensor([-0.4, 0.3], dtype=torch.float64).clamp(-0., 0.),\n'
        '      torch.tensor([-0.4]).half().clamp(-0., 0.))'),
    # gelu of -0. and of large negative numbers is -0. (oneDNN's (x * (1 + erf)) * 0.5)
    "gelu_negative_zero": (
        'F = torch.nn.functional\n'
        'print(F.gelu(torch.tensor([-0.0, 0.0])), F.gelu(torch.tensor([-20., -6., -0., 0., -1e-45, 20.])))\n'
        'print(F.gelu(torch.tensor([-0.])), F.gelu(torch.tensor(-0.)),\n'
        '      F.gelu(torch.tensor([-0., -20.]), approximate="tanh"))\n'
        'x = torch.tensor([-0., -30., 2.], requires_grad=True)\n'
        'y = torch.nn.GELU()(x); print(y); y.sum().backward(); print(x.grad)'),
    # leaves made ready by one node accumulate in the order of PyTorch's heap (a std::priority_queue in which every
    # AccumulateGrad ties): their hooks show it
    "leaf_hooks_in_heap_order": (
        'for n in (4, 6, 9):\n'
        '    ts = [torch.tensor([float(i)], requires_grad=True) for i in range(n)]\n'
        '    for i, t in enumerate(ts): t.register_hook(lambda g, i=i: print("hook", i))\n'
        '    torch.stack(ts).sum().backward()\n'
        '    for i, t in enumerate(ts): t.register_post_accumulate_grad_hook(lambda p, i=i: print("acc", i))\n'
        '    torch.cat([ts[0] * 2, *ts[1:3], ts[3].exp(), *ts[4:]]).sum().backward()\n'
        '    g = torch.autograd.grad(torch.stack(ts).sum(), ts)\n'
        'import torch.nn as nn\n'
        'm = nn.LSTM(2, 3)\n'
        'for n, p in m.named_parameters(): p.register_post_accumulate_grad_hook(lambda p, n=n: print(n))\n'
        'out, _ = m(torch.ones(2, 1, 2)); out.sum().backward()'),
    # an in-place op whose input shows part of what it writes, where PyTorch sees no overlap (not dense): its kernel
    # runs in memory order and reads what it already wrote; dense ones are refused
    "inplace_reading_its_own_alias": (
        'x = torch.tensor([[1., 2., 3.], [4., 5., 6.]]); x -= x[:, :1]; print(x)\n'
        'x = torch.arange(1., 81.).view(2, 40); x -= x[:, :1]; print(x)\n'
        'x = torch.arange(6.).reshape(2, 3); x[:, 1:] = x[:, :2]; print(x)\n'
        'x = torch.arange(80.).reshape(2, 40); x[:, 1:] += x[:, :-1]; print(x)\n'
        'x = torch.arange(16.).reshape(4, 4); x[:, 1:].mul_(x[:, :3]); print(x)\n'
        'x = torch.arange(1., 7.).reshape(2, 3); xt = x.t(); xt -= xt[:1]; print(x)\n'
        'v = torch.arange(1., 41.); v.addcdiv_(v[:1], v[:1], value=2); print(v)\n'
        'x = torch.arange(1., 7.).view(2, 3); x.lerp_(x[:, :1], 0.5); print(x)\n'
        'x = torch.tensor([[1, 2, 3], [4, 5, 6]]); x *= x[:, 1:2]; print(x)\n'
        'y = torch.tensor([[1., 2., 3.], [4., 5., 6.]], requires_grad=True) * 1; y -= y[:, :1]; print(y)\n'
        'x = torch.arange(1., 10.).view(3, 3); tries(lambda: x.__itruediv__(x[0])); print(x)'),
    "index_put_of_itself_refused": (
        'x = torch.arange(6.).reshape(3, 2)\n'
        'tries(lambda: x.__setitem__(torch.tensor([2, 0, 1]), x), lambda: x.__setitem__((slice(None), [1, 0]), x),\n'
        '      lambda: x.__setitem__(x >= 0, x), lambda: x.index_put_((torch.tensor([2, 0, 1]),), x),\n'
        '      lambda: x.index_put_((torch.tensor([2, 0]),), x[1:], accumulate=True))\n'
        'print(x)\n'
        'x[x > 3] = x[0, 0]; x[torch.tensor([0, 1])] = x[4:]; print(x)'),
    # nll_loss of one sample keeps its target's weight as total_weight, reduction 'none' too
    "nll_loss_one_sample_total_weight": (
        'import torch.nn.functional as F\n'
        'x = torch.tensor([1., 2., 0.5], requires_grad=True)\n'
        'for kw in [dict(), dict(weight=torch.tensor([1., 2., 0.5])), dict(ignore_index=1)]:\n'
        '    for r in ("none", "mean", "sum"):\n'
        '        y = F.nll_loss(x, torch.tensor(1), reduction=r, **kw); print(r, y, y.grad_fn._saved_total_weight)\n'
        '        y = F.nll_loss(x[None], torch.tensor([1]), reduction=r, **kw); print(y.grad_fn._saved_total_weight)'),
    # reflect / replicate padding's node keeps a negative padding unsigned, as PyTorch's does
    "pad_saved_negative_padding": (
        'import torch.nn.functional as F\n'
        'x = torch.arange(12.).reshape(1, 3, 4).requires_grad_()\n'
        'for mode in ("reflect", "replicate"):\n'
        '    for pad in [(-1, 0), (1, -1), (2, 1)]:\n'
        '        y = F.pad(x, pad, mode=mode); print(y, y.grad_fn._saved_padding)\n'
        '        g, = torch.autograd.grad(y.sum(), x, create_graph=True); print(g, g.grad_fn._saved_padding)\n'
        '        print(torch.autograd.grad(g.sum(), x, allow_unused=True))'),
    "jacrev_chunk_size": (
        'from torch.func import jacrev\n'
        'tries(lambda: jacrev(lambda x: x * 2, chunk_size=0), lambda: jacrev(lambda x: x * 2, chunk_size=-1),\n'
        '      lambda: jacrev(lambda x: x * 2, chunk_size=1)(torch.tensor([1., 2.])))'),
    # norm of another p: powf correctly rounded
    "norm_other_p": (
        'x = torch.linspace(-2, 3, 37)\n'
        'print(torch.tensor([0., 3.]).norm(p=3).item(), torch.linalg.vector_norm(torch.tensor([3., 0.]), 0.5).item())\n'
        'for p in (0.5, 1.5, 3, 4, -1): print(p, x.norm(p=p).item(), x.reshape(37, 1).norm(p=p, dim=0).tolist())'),
    # a double backward records a node's input gradients in the order of the inputs' names (other before self,
    # mat2 before self): their sequence numbers, so the order their nodes run in and their hooks
    "double_backward_input_order": (
        'x = torch.tensor([1., 2.], requires_grad=True); w = torch.tensor([3., 4.], requires_grad=True)\n'
        'gx, gw = torch.autograd.grad((x * w).sum(), (x, w), create_graph=True)\n'
        'print(gx.grad_fn._sequence_nr() - gw.grad_fn._sequence_nr())\n'
        'gx.grad_fn.register_prehook(lambda g: print("gx node")); gw.grad_fn.register_prehook(lambda g: print("gw"))\n'
        '(gx.sum() + gw.sum()).backward()\n'
        'for f in (lambda x, w: x ** w, lambda x, w: x[None] @ w[:, None],\n'
        '          lambda x, w: torch.bmm(x[None, None], w[None, :, None]),\n'
        '          lambda x, w: torch.addmm(x[:1, None], x[None], w[None], alpha=2., beta=3.), lambda x, w: x / w):\n'
        '    x = torch.tensor([0.5, 0.9], dtype=torch.float64, requires_grad=True)\n'
        '    w = torch.tensor([1.5, -0.7], dtype=torch.float64, requires_grad=True)\n'
        '    gs = torch.autograd.grad(f(x, w).sum(), (x, w), create_graph=True)\n'
        '    print([g.grad_fn._sequence_nr() - gs[0].grad_fn._sequence_nr() for g in gs])'),
    # C++ formulas' arithmetic with a number records the Scalar overloads' nodes (AddBackward1, DivBackward1, ...)
    "formulas_with_numbers": (
        'import torch.nn.functional as F\n'
        'def walk(n, d=0):\n'
        '    if n is None or d > 6: return\n'
        '    print(" " * d + n.name()); [walk(c, d + 1) for c, _ in n.next_functions]\n'
        'for f in (lambda x, w: torch.special.entr(x) * w, lambda x, w: torch.special.xlog1py(x, w),\n'
        '          lambda x, w: torch.special.xlog1py(2., w), lambda x, w: torch.special.log_ndtr(x) * w,\n'
        '          lambda x, w: torch.special.ndtri(x.sigmoid()) * w, lambda x, w: F.logsigmoid(x) * w):\n'
        '    x = torch.tensor([0.5, 1.3], requires_grad=True); w = torch.tensor([0.2, 0.7], requires_grad=True)\n'
        '    gs = torch.autograd.grad(f(x, w).sum(), (x, w), create_graph=True, allow_unused=True)\n'
        '    for g in gs:\n'
        '        if g is not None: walk(g.grad_fn)\n'
        '    h = torch.autograd.grad(sum(t.sum() for t in gs if t is not None), (x, w), allow_unused=True); print(h)'),
    # reductions through their own kernels (prod, norm) give C strides, size-1 dims' too
    "prod_norm_strides": (
        'x = torch.arange(1., 7.).reshape(2, 3)\n'
        'for f in (lambda t: t.prod(-1), lambda t: t.prod(1, keepdim=True), lambda t: t.norm(p=3, dim=1),\n'
        '          lambda t: t.norm(dim=1, keepdim=True), lambda t: t.norm(p=1, dim=0, keepdim=True)):\n'
        '    for t in (x, x[:1], x.t(), x[:, :1], torch.tensor([[1., 2., 3.]]), torch.ones(1, 5)):\n'
        '        r = f(t); print(tuple(r.shape), r.stride(), r.is_contiguous())'),
    # detach_() in inference mode leaves the tensor as it is (the autograd kernel is skipped)
    "detach_in_inference_mode": (
        'x = torch.tensor([1., 2.], requires_grad=True)\n'
        'y = x * 2\n'
        'with torch.inference_mode():\n'
        '    r = x.detach_(); print(r is x, x.requires_grad, x.is_leaf, x._version)\n'
        '    r = y.detach_(); print(r is y, y.requires_grad, y.grad_fn)\n'
        '    v = x[:1]; tries(lambda: v.detach_())\n'
        'print(x.requires_grad, y.grad_fn)\n'
        'with torch.no_grad():\n'
        '    y2 = x * 3; y2.detach_(); print(y2.requires_grad)'),
    # gather, index_select, take and masked_select refuse an out= that is an input, even whole
    "out_that_is_the_input": (
        'x = torch.arange(3.)\n'
        'tries(lambda: torch.gather(x, 0, torch.tensor([2, 1, 0]), out=x),\n'
        '      lambda: torch.index_select(x, 0, torch.tensor([2, 1, 0]), out=x),\n'
        '      lambda: torch.take(x, torch.tensor([2, 1, 0]), out=x), lambda: torch.masked_select(x, x > -1, out=x),\n'
        '      lambda: torch.add(x, 1, out=x), lambda: torch.gather(x, 0, torch.tensor([2, 1]), out=x[1:]))\n'
        'print(x)'),
    # what is not a tensor: nn.Sigmoid / nn.Tanh and the losses refuse it with their op's parser's TypeError
    "modules_and_losses_refuse_non_tensors": (
        'import numpy as np\n'
        'import torch.nn as nn\n'
        'a = np.ones((1, 1, 2, 2), dtype=np.float32)\n'
        'x = torch.tensor([1., 2.])\n'
        'tries(lambda: nn.Sigmoid()(a), lambda: nn.Tanh()(a), lambda: nn.Sigmoid()([1., 2.]),\n'
        '      lambda: nn.PoissonNLLLoss()(x, 1.0), lambda: nn.PoissonNLLLoss()(1.0, x),\n'
        '      lambda: nn.KLDivLoss(reduction="sum")(x, [1., 0.]), lambda: nn.SoftMarginLoss()(x, 1.0),\n'
        '      lambda: nn.HingeEmbeddingLoss()(x, 1.0), lambda: nn.MultiLabelMarginLoss()(x, [0, 1]),\n'
        '      lambda: nn.CosineEmbeddingLoss()(x, x, 1), lambda: nn.TripletMarginLoss()(x, x, 1.),\n'
        '      lambda: nn.TripletMarginLoss(margin=-1)(x, x, 1.))\n'
        'print(nn.Sigmoid()(x), nn.Tanh()(x), nn.PoissonNLLLoss()(x, torch.tensor([1., 0.])))'),
    # a bool target's gradient: the loss kernels cast it (x - t would be refused)
    "bool_targets": (
        'import torch.nn as nn\n'
        'x = torch.tensor([0.5, 0.2], requires_grad=True); b = torch.tensor([True, False])\n'
        'for L in (nn.MSELoss(), nn.SmoothL1Loss(), nn.MSELoss(reduction="sum"), nn.SmoothL1Loss(beta=0.5)):\n'
        '    x.grad = None\n'
        '    l = L(x, b); print(l); l.backward(); print(x.grad)'),
    # anomaly mode's nan check comes after the node let go of its saved tensors: a second backward fails
    "anomaly_nan_frees_the_node": (
        'x = torch.tensor([1., 2.], requires_grad=True)\n'
        'with torch.autograd.detect_anomaly():\n'
        '    y = x * 2\n'
        '    tries(lambda: y.backward(torch.tensor([float("nan"), 1.])), lambda: y.backward(torch.tensor([1., 1.])))\n'
        '    z = x * 3\n'
        '    tries(lambda: z.backward(torch.tensor([float("nan"), 1.]), retain_graph=True),\n'
        '          lambda: z.backward(torch.tensor([1., 1.])))\n'
        'print(x.grad)'),
    # avg_pool backward with overlapping windows adds into each input from its last tap first (outputs in order);
    # PReLU's weight gradient is a sum in the reduction kernel's order; addmm of small shapes is mm and then + bias
    "avg_pool_prelu_linear_bits": (
        'torch.manual_seed(0)\n'
        'for k, s, p in [(2, 1, 0), (3, 1, 1), (3, 2, 1), (4, 2, 1)]:\n'
        '    x = torch.randn(1, 2, 7, 7, requires_grad=True)\n'
        '    y = torch.nn.functional.avg_pool2d(x, k, stride=s, padding=p); y.backward(torch.randn(y.shape))\n'
        '    print(k, s, p, x.grad[0, 0, 1:3].tolist())\n'
        '    x1 = torch.randn(2, 3, 9, requires_grad=True); y = torch.nn.functional.avg_pool1d(x1, k, s, p)\n'
        '    y.backward(torch.randn(y.shape)); print(x1.grad[0, 0].tolist())\n'
        'x = torch.tensor([-1.1, -2.3, -0.7, -3.9, -0.31, -5.5, -1.7, -2.9, -0.13], requires_grad=True)\n'
        'w = torch.tensor([0.25], requires_grad=True)\n'
        'torch.nn.functional.prelu(x, w).backward(torch.tensor([0.3, 1.7, -2.2, 0.9, 1.1, -0.4, 2.6, 0.8, -1.9]))\n'
        'print(w.grad.item())\n'
        'for shape, c in [((4, 3, 5, 5), 3), ((6, 10), 10), ((2, 4, 7), 4)]:\n'
        '    m = torch.nn.PReLU(c); x = torch.randn(*shape, requires_grad=True)\n'
        '    (m(x) * torch.randn(*shape)).sum().backward(); print(m.weight.grad.tolist())\n'
        'for k, n in [(8, 4), (8, 8), (16, 4), (32, 4)]:\n'
        '    fc = torch.nn.Linear(k, n); x = torch.randn(16, k); print(fc(x)[1].tolist())'),
}


def _layouts(seed, count):
    """Random permuted, sliced and expanded views of random arrays, with dims to reduce."""
    rng = np.random.default_rng(seed)
    for _ in range(count):
        nd = int(rng.integers(1, 5))
        base = rng.standard_normal([int(rng.integers(1, 9)) for _ in range(nd)])
        base = base.astype(np.float32 if rng.random() < 0.8 else np.float64)
        perm = [int(d) for d in rng.permutation(nd)]
        cut = tuple(slice(int(rng.integers(0, 2)), None, int(rng.integers(1, 3))) if n > 2 and rng.random() < 0.4
                    else slice(None) for n in np.transpose(base, perm).shape)
        expand = rng.random() < 0.2 and nd < 4
        k = int(rng.integers(0, nd + expand + 1))
        dims = sorted(int(d) for d in rng.choice(nd + expand, size=k, replace=False)) if k else None
        yield base, perm, cut, expand, dims, bool(rng.random() < 0.3)


def test_sums_of_laid_out_tensors_bit_for_bit():
    """sum and mean of permuted, sliced and expanded tensors follow PyTorch's kernel through the layout
    (engine/_ops.py _in_iteration_order), every one bit for bit; the numpy order it replaced differed in about a
    third of these cases."""
    differ = total = 0
    for base, perm, cut, expand, dims, keep in _layouts(7, 300):
        results = []
        for lib in (T, E):
            t = lib.from_numpy(base.copy()).permute(*perm)[cut]
            t = t.unsqueeze(0).expand(3, *t.shape) if expand else t
            results.append([(t.sum() if dims is None else t.sum(dims, keepdim=keep)).numpy().tobytes(),
                            (t.mean() if dims is None else t.mean(dims, keepdim=keep)).numpy().tobytes()])
        total += 2
        differ += sum(a != b for a, b in zip(*results))
    assert differ == 0, (differ, total)


@pytest.mark.parametrize("name", SNIPPETS)
def test_snippet(name):
    code = SHOW + SNIPPETS[name]
    t, e = run_both(T, E, code)
    assert same(t, e), f"\n{code}\n--- torch\n{t.summary()}--- engine\n{e.summary()}"
