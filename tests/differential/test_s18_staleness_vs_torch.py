"""Session 18, staleness: what ops save for backward and what in-place changes do to it, against real PyTorch:
version counters of resize_, of clip_grad_value_ and of optimizers' state; views made under no_grad requiring
grad as their base does (detach_, requires_grad_); unsafe_split's pieces (not views); embedding's max_norm renorm
(bumps) and batch norm's running statistics (do not); an in-place op's saved output keeping its sizes through
t_ / as_strided_ / .data =; mean losses of empty inputs; the nodes
of asinh_ / acosh_ / atanh_ (no derivative) and polygamma_; fill_diagonal_'s views; RReLU (its noise, its nodes, its in-place
form and the errors). Printed text and the final error must be the same."""
import pytest

T = pytest.importorskip("torch", reason="differential tests need real PyTorch (pip install torch==2.13.0)")
from .harness import load_engine, run_both, same  # noqa: E402

E = load_engine()

SNIPPETS = {
    "resize_to_same_sizes_is_a_no_op": (
        'x = torch.zeros(3); x.resize_(3); print(x._version); x.resize_(1, 3); print(x._version, x.shape)\n'
        'x.resize_(1, 3); print(x._version); x.resize_as_(torch.ones(1, 3)); print(x._version)\n'
        'y = torch.arange(6.).view(2, 3).t(); y.resize_(3, 2); print(y._version, y.stride(), y)\n'
        'y.resize_(6); print(y._version, y)'),
    "clip_grad_value_clamps_twice_by_default": (
        'for fe in [None, False, True]:\n'
        '    w = torch.tensor([1., -2., 0.5], requires_grad=True)\n'
        '    (w * torch.tensor([3., -4., 0.05])).sum().backward()\n'
        '    print(torch.nn.utils.clip_grad_value_([w], 0.1, foreach=fe), w.grad, w.grad._version)'),
    "optimizer_state_versions": (
        "for name, kw in [('SGD', dict(lr=0.1, momentum=0.9)), ('Adam', dict(lr=0.1, amsgrad=True)),\n"
        "                 ('AdamW', dict(lr=0.1)), ('RMSprop', dict(lr=0.1, momentum=0.5, centered=True)),\n"
        "                 ('Adagrad', dict(lr=0.1)), ('Adadelta', dict(lr=0.1)), ('Adamax', dict(lr=0.1)),\n"
        "                 ('NAdam', dict(lr=0.1)), ('RAdam', dict(lr=0.1)), ('Rprop', dict(lr=0.1)), ('ASGD', dict(lr=0.1))]:\n"
        '    w = torch.tensor([1., 2.], requires_grad=True)\n'
        '    opt = getattr(torch.optim, name)([w], **kw)\n'
        '    for i in range(2):\n'
        '        opt.zero_grad(); (w * w).sum().backward(); opt.step()\n'
        '        print(name, i, w._version, sorted((k, v._version) for k, v in opt.state[w].items()))'),
    "rrelu_training_noise_and_nodes": (
        'F = torch.nn.functional\n'
        'x = torch.tensor([[-1., 2., -3.], [0., -0.5, 4.]], requires_grad=True)\n'
        'torch.manual_seed(0)\n'
        'y = F.rrelu(x, training=True); n = y.grad_fn\n'
        'print(y, n, n._saved_lower, n._saved_upper, n._saved_training, n._saved_noise, n._saved_self is x)\n'
        'g, = torch.autograd.grad(y.sum(), x, create_graph=True); print(g, sorted(k for k in dir(g.grad_fn) if k.startswith("_saved")))\n'
        'print(torch.rand(2))\n'
        'y = F.rrelu(x); print(y, torch.autograd.grad(y.sum(), x))\n'
        'torch.manual_seed(1); a = x * 1\n'
        'print(F.rrelu(a, 0.1, 0.4, training=True, inplace=True) is a, a, a.grad_fn._saved_noise, a._version)\n'
        'a.sum().backward(); print(x.grad)\n'
        'g = torch.Generator().manual_seed(3); print(torch.rrelu(x.detach(), training=True, generator=g))\n'
        'print(F.rrelu(x.double(), 0.2, 0.2, training=True), F.rrelu(x.half()), F.rrelu_, torch.rrelu)'),
    "rrelu_in_place_staleness_and_errors": (
        'F = torch.nn.functional\n'
        'x = torch.tensor([[-1., 2., -3.], [0., -0.5, 4.]], requires_grad=True)\n'
        'b = x.sigmoid(); F.rrelu(b, inplace=True); print(b.grad_fn)\n'
        'try:\n'
        '    b.sum().backward()\n'
        'except RuntimeError as e:\n'
        '    print(e)\n'
        'b = x * 2; F.rrelu_(b); y = b * 1; torch.rrelu_(b); print(b.grad_fn, b._version)\n'
        'try:\n'
        '    b.sum().backward()\n'
        'except RuntimeError as e:\n'
        '    print(e)\n'
        'for args, kw in [((torch.tensor([1, 2]),), {}), ((x, 0.5, 0.1), {}), ((torch.tensor([1, 2]), 0.1, 0.3, True), {}),\n'
        "                 ((x, 'a'), {}), ((x.half(), 0.1, 0.3, True), {}), ((1,), {}), ((x,), {'training': 1})]:\n"
        '    for f in [F.rrelu, torch.rrelu, F.rrelu_]:\n'
        '        try:\n'
        '            print(f(*args, **kw))\n'
        '        except Exception as e:\n'
        '            print(type(e).__name__, e)\n'
        'torch.manual_seed(0); m = torch.nn.RReLU(); print(m, torch.nn.RReLU(0.1, 0.3, inplace=True), m.inplace)\n'
        'print(m(x.detach())); m.eval(); print(m(x.detach()))'),
    "no_grad_views_follow_their_base_requiring_grad": (
        'def show(v):\n'
        '    try:\n'
        '        print(v.requires_grad, v.grad_fn)\n'
        '    except RuntimeError as e:\n'
        '        print(v.requires_grad, e)\n'
        'x = torch.tensor([[0.5, 1.5], [2.0, 1.25]], requires_grad=True)\n'
        'with torch.no_grad():\n'
        '    v1 = x[0]\n'
        'v2 = v1.view(2); show(v2)\n'
        'with torch.no_grad():\n'
        '    v2.mul_(2)\n'
        'show(v1); x.detach_(); show(v1); show(v2)\n'
        'x = torch.tensor([[0.5, 1.5], [2.0, 1.25]], requires_grad=True)\n'
        'a = x * 1\n'
        'with torch.no_grad():\n'
        '    v = a.t()\n'
        'a.detach_(); show(v); print(v)\n'
        'x = torch.tensor([[0.5, 1.5], [2.0, 1.25]], requires_grad=True)\n'
        'with torch.no_grad():\n'
        '    v = x[0]\n'
        '    x.mul_(2)\n'
        'show(v); x.requires_grad_(False); show(v); x.requires_grad_(True); show(v)\n'
        'y = torch.zeros(2)\n'
        'with torch.no_grad():\n'
        '    u = y[:1]\n'
        'y.mul_(2); y.requires_grad_(); show(u)'),
    "unsafe_split_pieces_are_not_views": (
        'x = torch.tensor([[1., 2.], [3., 4.], [5., 6.]], requires_grad=True)\n'
        'for p in [x.unsafe_split(2), x.unsafe_chunk(2), x.unsafe_split_with_sizes([1, 2]), torch.unsafe_chunk(x, 3, -1)]:\n'
        '    n = p[0].grad_fn\n'
        '    print(p, [(k, getattr(n, k)) for k in dir(n) if k.startswith("_saved")], p[0]._is_view(), p[1].output_nr)\n'
        'a = x * 1\n'
        'p, q = a.unsafe_split(2); p.mul_(10)\n'
        'print(a, a._version, p._version, p.grad_fn); a.add_(1); print(p, p._version)\n'
        'a.sum().backward(); print(x.grad)\n'
        'for bad in ["x.unsafe_split(0)", "x.unsafe_chunk(0)", "x.unsafe_split(2.5)", "torch.unsafe_split(x)",\n'
        '            "x.unsafe_split_with_sizes([1, 1])", "torch.tensor(1.).unsafe_chunk(2)"]:\n'
        '    try:\n'
        '        print(eval(bad))\n'
        '    except Exception as e:\n'
        '        print(type(e).__name__, e)'),
    "embedding_max_norm_renorms_in_place": (
        'torch.manual_seed(0)\n'
        'emb = torch.nn.Embedding(5, 2, max_norm=0.5)\n'
        'idx = torch.tensor([1, 2])\n'
        'y = emb.weight.sum() * emb.weight\n'
        'out = emb(idx); print(emb.weight._version)\n'
        'try:\n'
        '    y.sum().backward()\n'
        'except RuntimeError as e:\n'
        '    print(e)\n'
        'w = torch.ones(5, 2); torch.nn.functional.embedding(torch.tensor([1]), w, max_norm=100.); print(w._version)\n'
        'a = torch.ones(5, 2, requires_grad=True) * 1; v = a.t()\n'
        'torch.nn.functional.embedding(torch.tensor([1]), a, max_norm=1.); print(a._version, v.grad_fn)'),
    "batch_norm_running_stats_keep_their_version": (
        'torch.manual_seed(0)\n'
        'bn = torch.nn.BatchNorm1d(2); x = torch.randn(4, 2)\n'
        'bn(x); print(bn.running_mean._version, bn.running_var._version, bn.num_batches_tracked._version)\n'
        'bn2 = torch.nn.BatchNorm1d(2, momentum=None); bn2(x); bn2(x)\n'
        'print(bn2.running_mean._version, bn2.num_batches_tracked._version, bn2.running_var)\n'
        'rm = torch.zeros(2); rv = torch.ones(2)\n'
        'torch.nn.functional.batch_norm(torch.randn(4, 2), rm, rv, training=True); print(rm._version, rv._version, rm)\n'
        'm = torch.nn.InstanceNorm1d(2, track_running_stats=True); m(torch.randn(3, 2, 4))\n'
        'print(m.running_mean._version, m.num_batches_tracked._version)'),
    "in_place_output_saved_with_its_sizes_then": (
        'def run(f):\n'
        '    try:\n'
        '        f()\n'
        '    except RuntimeError as e:\n'
        '        print(e)\n'
        'x = torch.tensor([1.5, 0.5, 2.0], requires_grad=True)\n'
        'v = x * 2; v.unsqueeze_(0); v.sigmoid_(); n = v.grad_fn; v.t_()\n'
        'run(lambda: print(n._saved_result.shape)); run(lambda: v.sum().backward())\n'
        'x = torch.tensor([[1.5, 0.5, 2.0]], requires_grad=True)\n'
        'v = x * 2; v.exp_(); n = v.grad_fn; v.data = torch.zeros(2); print(n._saved_result, v)\n'
        'v = x * 2; v.exp_(); n = v.grad_fn; v.as_strided_((3,), (1,)); print(n._saved_result, v)\n'
        'v.mul_(2); run(lambda: v.sum().backward())\n'
        'v = x * 2; v.sigmoid_(); n = v.grad_fn; v.squeeze_(); print(n._saved_result, v)\n'
        'v.sum().backward(); print(x.grad)'),
    "mean_losses_of_empty_inputs_backward": (
        'F = torch.nn.functional\n'
        'x = torch.zeros(0, 3, requires_grad=True); t = torch.zeros(0, 3)\n'
        'for f in [F.mse_loss, F.smooth_l1_loss, F.huber_loss, F.soft_margin_loss, F.l1_loss]:\n'
        '    x.grad = None; y = f(x, t); y.backward(); print(y, x.grad)'),
    "in_place_asinh_acosh_atanh_polygamma_nodes": (
        'for op in ["asinh_", "acosh_", "atanh_", "arcsinh_", "polygamma_"]:\n'
        '    x = torch.tensor([[1.5, 0.5], [2.0, 0.25]], requires_grad=True)\n'
        '    a = x * 0.3 + 1\n'
        '    for t in [a, a[0]]:\n'
        '        getattr(t, op)(1) if op == "polygamma_" else getattr(t, op)()\n'
        '        n = a.grad_fn\n'
        '        print(op, n, [(k, getattr(n, k)) for k in dir(n) if k.startswith("_saved")], a._version)\n'
        '    try:\n'
        '        a.sum().backward(); print(x.grad)\n'
        '    except Exception as e:\n'
        '        print(type(e).__name__, e)\n'
        'b = torch.ones(2)\n'
        'for f in [lambda: b.polygamma_(1, 2), lambda: b.polygamma_(), lambda: b.polygamma(1.5), lambda: torch.polygamma(b, 1)]:\n'
        '    try:\n'
        '        f()\n'
        '    except Exception as e:\n'
        '        print(type(e).__name__, e)'),
    "fill_diagonal_through_as_strided_views": (
        'for shape, wrap in [((3, 3), False), ((5, 2), True), ((7, 3), True), ((2, 2, 2), False)]:\n'
        '    x = torch.arange(float(torch.Size(shape).numel())).view(shape).requires_grad_()\n'
        '    a = x * 1\n'
        '    a.fill_diagonal_(-1., wrap=wrap)\n'
        '    print(a, a._version, a.grad_fn.next_functions, a.grad_fn.next_functions[0][0].next_functions)\n'
        '    a.sum().backward(); print(x.grad)'),
}


@pytest.mark.parametrize("name", SNIPPETS)
def test_snippet(name):
    code = SNIPPETS[name]
    t, e = run_both(T, E, code)
    assert same(t, e), f"\n{code}\n--- torch\n{t.summary()}--- engine\n{e.summary()}"
