"""The autograd API against real PyTorch (session 15): post-accumulate-grad hooks that return something, pack hooks
run in no-grad mode, the grad_fns of gradients made with create_graph=True through indexing, selection and
scatter-like backward formulas, non-tensor inputs and outputs of autograd.grad / backward, and gradients of
gradients through layer, batch and group norm. Printed text, warnings and the final error must be the same."""
import pytest

T = pytest.importorskip("torch", reason="differential tests need real PyTorch (pip install torch==2.13.0)")
from .harness import TRIES, load_engine, run_both, same  # noqa: E402

E = load_engine()

SNIPPETS = {
    "post_accumulate_grad_hook_must_return_none": (
        'x = torch.tensor([1., 2.], requires_grad=True)\n'
        'h = x.register_post_accumulate_grad_hook(lambda p: print("post", p.grad))\n'
        '(x * x).sum().backward(); h.remove()\n'
        'x.register_post_accumulate_grad_hook(lambda p: p.grad * 2)\n'
        '(x * 2).sum().backward()'),
    "pack_hook_runs_without_grad": (
        'def pack(t): print("pack", torch.is_grad_enabled(), t); return t * 1\n'
        'def unpack(t): print("unpack", torch.is_grad_enabled(), t); return t * 1\n'
        'x = torch.tensor([1., 2.], requires_grad=True)\n'
        'with torch.autograd.graph.saved_tensors_hooks(pack, unpack):\n'
        '    y = x.pow(2)\n'
        'print(torch.autograd.grad(y.sum(), x, create_graph=True))\n'
        'z = x.exp(); z.grad_fn._raw_saved_result.register_hooks(pack, unpack); z.sum().backward(); print(x.grad)'),
    "create_graph_grad_fns_of_index_like_backwards": (
        'x0 = torch.tensor([[0.3, -0.7, 1.2], [0.5, 2.0, -1.5], [1., 2., 3.]])\n'
        'F = torch.nn.functional\n'
        'fs = [lambda t: t[1], lambda t: t[:, 1:], lambda t: t.narrow(0, 0, 2), lambda t: t[[0, 2]],\n'
        '      lambda t: t[t > 0], lambda t: t.gather(0, torch.tensor([[0, 1, 2]])),\n'
        '      lambda t: t.index_select(1, torch.tensor([2, 0])), lambda t: t.sort(0).values,\n'
        '      lambda t: t.topk(2).values, lambda t: t.max(0).values, lambda t: t.min(1, keepdim=True).values,\n'
        '      lambda t: t.kthvalue(2, 0).values, lambda t: t.max(), lambda t: t.median(), lambda t: t.trace(),\n'
        '      lambda t: t.diag(), lambda t: t.diagonal(1), lambda t: t.unfold(0, 2, 1), lambda t: t.masked_select(t > 1),\n'
        '      lambda t: F.embedding(torch.tensor([0, 2, 0]), t, padding_idx=2)]\n'
        'for f in fs:\n'
        '    x = x0.clone().requires_grad_()\n'
        '    g, = torch.autograd.grad((f(x) ** 3).sum(), x, create_graph=True)\n'
        '    fn = g.grad_fn\n'
        '    print(g, fn.next_functions, {n: getattr(fn, n) for n in dir(fn) if n.startswith("_saved")})\n'
        '    print(torch.autograd.grad((g ** 2).sum(), x))'),
    "non_tensor_inputs_and_outputs": (
        'x = torch.tensor([1., 2.], requires_grad=True)\n'
        'tries(lambda: torch.autograd.grad((x * 2).sum(), [x, 3]),\n'
        '      lambda: torch.autograd.grad((x * 2).sum(), [x, None]),\n'
        '      lambda: torch.autograd.grad([(x * 2).sum(), 3], x),\n'
        '      lambda: torch.autograd.backward([(x * 2).sum(), 3]),\n'
        '      lambda: (x * 2).sum().backward(inputs=[x, 3]), lambda: x.grad)'),
    "gradients_of_gradients_through_norms": (
        'F = torch.nn.functional\n'
        'x0 = torch.tensor([[0.3, -0.7, 1.2, 0.1], [0.5, 2.0, -1.5, 0.7], [1., 2., 3., -1.]])\n'
        'w0 = torch.tensor([1.5, 0.5, -1., 2.]); b0 = torch.tensor([0.1, 0.2, 0.3, 0.4])\n'
        'for f in [lambda x, w, b: F.layer_norm(x, (4,)), lambda x, w, b: F.layer_norm(x, (4,), w, b, eps=1e-3),\n'
        '          lambda x, w, b: F.batch_norm(x, None, None, w, b, training=True),\n'
        '          lambda x, w, b: F.batch_norm(x, torch.zeros(4), torch.ones(4) * 2, w, b, training=False),\n'
        '          lambda x, w, b: F.group_norm(x.reshape(3, 4, 1), 2, w, b)]:\n'
        '    x = x0.clone().requires_grad_(); w = w0.clone().requires_grad_(); b = b0.clone().requires_grad_()\n'
        '    y = f(x, w, b)\n'
        '    gs = torch.autograd.grad((y * torch.arange(12.).reshape(y.shape) / 10).sum() + y.pow(2).sum() / 4, [x, w, b],\n'
        '                             create_graph=True, materialize_grads=True)\n'
        '    hs = torch.autograd.grad(sum((g ** 2).sum() for g in gs), [x, w, b], materialize_grads=True)\n'
        '    print([g.detach().mul(100).round() for g in gs], [h.mul(100).round() for h in hs])\n'
        'ln = torch.nn.LayerNorm(3); x = torch.tensor([[0.3, -0.7, 1.2], [0.5, 2.0, -1.5]], requires_grad=True)\n'
        'g, = torch.autograd.grad(ln(x).pow(3).sum(), x, create_graph=True)\n'
        'print(g.grad_fn.name(), len(g.grad_fn.next_functions)); g.pow(2).sum().backward()\n'
        'print(x.grad.mul(100).round(), ln.weight.grad.mul(100).round())'),
    "gradients_of_gradients_through_convolutions": (
        'F = torch.nn.functional\n'
        'x0 = torch.arange(50.).reshape(2, 1, 5, 5).sin(); w0 = torch.arange(18.).reshape(2, 1, 3, 3).cos()\n'
        'for f in [lambda x, w, b: F.conv2d(x.repeat(1, 2, 1, 1), w, b, stride=2, padding=1, groups=2),\n'
        '          lambda x, w, b: F.conv2d(x, w, dilation=2), lambda x, w, b: F.conv1d(x.reshape(2, 1, 25), w.reshape(2, 1, 9), b, padding=2),\n'
        '          lambda x, w, b: F.conv_transpose2d(x, w.reshape(1, 2, 3, 3), b, stride=2, output_padding=1),\n'
        '          lambda x, w, b: F.conv2d(x[0], w, padding="same")]:\n'
        '    x = x0.clone().requires_grad_(); w = w0.clone().requires_grad_(); b = torch.tensor([0.5, -1.], requires_grad=True)\n'
        '    gs = torch.autograd.grad(f(x, w, b).pow(2).sum(), [x, w, b], create_graph=True, materialize_grads=True)\n'
        '    print([g.grad_fn for g in gs], gs[0].grad_fn.next_functions)\n'
        '    hs = torch.autograd.grad(sum((g ** 2).sum() for g in gs), [x, w, b], materialize_grads=True)\n'
        '    print([g.detach().abs().sum().round() for g in gs], [(h.abs().sum() / 100).round() for h in hs])'),
    "gradients_of_gradients_through_pools_upsampling_prelu": (
        'F = torch.nn.functional\n'
        'x0 = torch.tensor([[[[0.3, -0.7, 1.2, 0.1], [0.5, 2.0, -1.5, 0.7], [1., 2., 3., -1.]]]])\n'
        'for f in [lambda t: F.max_pool2d(t, 2, ceil_mode=True), lambda t: F.avg_pool2d(t, 2, padding=1),\n'
        '          lambda t: F.adaptive_avg_pool2d(t, (2, 3)), lambda t: F.adaptive_max_pool2d(t, 2),\n'
        '          lambda t: F.max_pool1d(t[0], 2), lambda t: F.interpolate(t, scale_factor=2, mode="bilinear"),\n'
        '          lambda t: F.interpolate(t, size=(4, 5), mode="nearest"), lambda t: F.prelu(t, torch.tensor([0.25]))]:\n'
        '    x = x0.clone().requires_grad_()\n'
        '    g, = torch.autograd.grad(f(x).pow(3).sum(), x, create_graph=True)\n'
        '    print(g, g.grad_fn.next_functions)\n'
        '    print(torch.autograd.grad(g.pow(2).sum(), x))\n'
        'w = torch.tensor([0.1, 0.2, 0.3], requires_grad=True); x = x0[0, 0, :2, :3].clone().requires_grad_()\n'
        'gs = torch.autograd.grad(F.prelu(x, w).pow(3).sum(), [x, w], create_graph=True)\n'
        'print(gs, torch.autograd.grad(sum((g ** 2).sum() for g in gs), [x, w]))'),
    "polygamma_and_higher_derivatives_of_lgamma": (
        'x = torch.tensor([0.5, 0., -1., 2., -2.5, 30.], requires_grad=True)\n'
        'for n in range(6):\n'
        '    print(torch.polygamma(n, x))\n'
        'print(x.polygamma(2).grad_fn._saved_n, torch.polygamma(3, torch.tensor([1, 2])))\n'
        'y = torch.tensor([1.5, 2.5]); y.polygamma_(3); print(y)\n'
        'x = torch.tensor([0.5, 1.5, 3.0], requires_grad=True)\n'
        'g = x.lgamma().sum()\n'
        'for _ in range(5):\n'
        '    g, = torch.autograd.grad(g.sum(), x, create_graph=True); print(g)\n'
        'torch.polygamma(-1, x)'),
    "multi_grad_hooks_and_increment_version": (
        'a = torch.tensor([1., 2.], requires_grad=True); b = torch.tensor([3., 4.], requires_grad=True)\n'
        'c = a * 2\n'
        'h = torch.autograd.graph.register_multi_grad_hook((a, b, c), lambda gs: print("all", gs))\n'
        'h2 = torch.autograd.graph.register_multi_grad_hook((a, b), lambda g: print("any", g), mode="any")\n'
        'y = (c * b).sum(); y.backward(retain_graph=True)\n'
        '(b * 3).sum().backward(); h.remove(); h2.remove(); y.backward(retain_graph=True); print(a.grad, b.grad)\n'
        'torch.autograd.graph.register_multi_grad_hook((a, b, c), print)\n'
        'tries(lambda: torch.autograd.grad(y, [a]),\n'
        '      lambda: torch.autograd.graph.register_multi_grad_hook((a, torch.ones(1)), print),\n'
        '      lambda: torch.autograd.graph.register_multi_grad_hook((a,), print, mode="some"))\n'
        'x = torch.tensor([1., 2.], requires_grad=True); z = x.exp()\n'
        'torch.autograd.graph.increment_version(z); print(z._version); z.sum().backward()'),
    "gradients_of_gradients_through_lstm_and_logcumsumexp": (
        'torch.manual_seed(0)\n'
        'x = torch.randn(2, 3, 4, requires_grad=True)\n'
        'for m in [torch.nn.LSTM(4, 3, batch_first=True), torch.nn.LSTM(4, 3, bias=False)]:\n'
        '    y, (h, c) = m(x)\n'
        '    gs = torch.autograd.grad((y ** 2).sum() + h.sum() + (c ** 3).sum(), [x] + list(m.parameters()),\n'
        '                             create_graph=True)\n'
        '    hs = torch.autograd.grad(sum((g ** 2).sum() for g in gs), [x] + list(m.parameters()))\n'
        '    print([round(g.abs().sum().item(), 2) for g in gs + hs])\n'
        'x = torch.tensor([[0.3, -1.2, 2.0, 0.5], [1.0, 0.1, -0.4, 0.9]], requires_grad=True)\n'
        'g, = torch.autograd.grad((x.logcumsumexp(1) * torch.tensor([1., -2., 0.5, 3.])).sum(), x, create_graph=True)\n'
        'print(g, torch.autograd.grad(g.pow(2).sum(), x))'),
    "set_grad_enabled_takes_a_bool": (
        'import numpy as np\n'
        'for v in [1, None, "yes", np.bool_(True), torch.tensor(True), False]:\n'
        '    tries(lambda: torch.set_grad_enabled(v))\n'
        '    print(torch.is_grad_enabled())\n'
        'torch.set_grad_enabled(True)'),
    "gradients_of_gradients_through_index_put": (
        'x0 = torch.tensor([[0.3, -0.7, 1.2], [0.5, 2.0, -1.5]]); v0 = torch.tensor([0.4, -1.1])\n'
        'i, j = torch.tensor([0, 1]), torch.tensor([1, 2])\n'
        'for f in [lambda t, v: t.clone().index_put_((i, j), v ** 2), lambda t, v: t.clone().index_put_((i, j), v ** 2, True),\n'
        '          lambda t, v: t.index_put((t > 1,), v[0] * t.sum()),\n'
        '          lambda t, v: (lambda y: (y.__setitem__((slice(None), [0, 2]), v[:, None] * t[:, :1]), y)[1])(t * 1)]:\n'
        '    x = x0.clone().requires_grad_(); v = v0.clone().requires_grad_()\n'
        '    gs = torch.autograd.grad((f(x, v) ** 2).sum(), [x, v], create_graph=True)\n'
        '    print(gs, torch.autograd.grad(sum((g ** 2).sum() for g in gs), [x, v]))'),
    "gradcheck_batched_grad": (
        'x = torch.tensor([2., -1., 3.], dtype=torch.double, requires_grad=True)\n'
        'print(torch.autograd.gradcheck(lambda t: (t.exp() * t).sum(), (x,), check_batched_grad=True))\n'
        'print(torch.autograd.gradgradcheck(lambda t: t.exp() * t, (x,), check_batched_grad=True))'),
}


@pytest.mark.parametrize("name", SNIPPETS)
def test_snippet(name):
    code = TRIES + SNIPPETS[name]
    t, e = run_both(T, E, code)
    assert same(t, e), f"\n{code}\n--- torch\n{t.summary()}--- engine\n{e.summary()}"
