"""What a learner inspecting the autograd graph sees, against real PyTorch: saved attributes as PyTorch saves them
(var / std's correction by overload, narrow's dim as written, as_strided's optional storage_offset, linalg.svd's
outputs), torch.rsub of two tensors, the nodes of a broadcast loss, SavedTensor objects and node classes as
Python sees them, and saved_tensors_hooks: what is packed (nothing for an op not recorded), in PyTorch's order,
in-place ops' clone of self, outputs with their node, and gradients cast back from what unpack returns; and
torch.utils.checkpoint, built on those hooks; PyTorch's error for a loss's weights or batch norm's running
statistics that require grad."""
import pytest

T = pytest.importorskip("torch", reason="differential tests need real PyTorch (pip install torch==2.13.0)")
from .harness import SHOW, load_engine, run_both, same  # noqa: E402

E = load_engine()

SNIPPETS = {
    "var_std_correction_as_their_overloads_save_it": (
        'x = torch.tensor([[1., 5., 3.], [4., 2., 6.]], requires_grad=True)\n'
        'for f in [lambda: x.var(), lambda: x.var(None), lambda: x.var(dim=None), lambda: x.var(None, keepdim=True),\n'
        '          lambda: x.var(dim=None, correction=None), lambda: x.var(0), lambda: x.var(unbiased=True),\n'
        '          lambda: x.var(dim=0, keepdim=True, correction=None), lambda: x.std(dim=None),\n'
        '          lambda: x.std(1, correction=2), lambda: torch.var_mean(x, None)[0], lambda: torch.var_mean(x)[0],\n'
        '          lambda: torch.std_mean(x, dim=None)[0], lambda: torch.var(x, None), lambda: x.var(False)]:\n'
        '    g = f().grad_fn\n'
        '    print(g.name(), g._saved_correction, g._saved_dim)'),
    "rsub_of_two_tensors": (
        'x = torch.tensor([1., 2.], requires_grad=True); w = torch.tensor([3., 5.], requires_grad=True)\n'
        'for y in [torch.rsub(x, w), torch.rsub(x, w, alpha=2), torch.rsub(x, torch.ones(2)), torch.rsub(torch.ones(2), x),\n'
        '          torch.rsub(x, 2), torch.rsub(x, torch.tensor(2.)), x.__rsub__(w), torch.rsub(x, torch.ones(2, 2))]:\n'
        '    f = y.grad_fn\n'
        '    print(y, f.next_functions, [(a, getattr(f, a)) for a in dir(f) if a.startswith("_saved")])\n'
        '    y.sum().backward(); print(x.grad, w.grad); x.grad = w.grad = None'),
    "reflected_operators_called_with_a_tensor": (
        'x = torch.tensor([1., 2., 3.], requires_grad=True); t = torch.tensor([2., 3., 4.])\n'
        'for f in [lambda: x.__rtruediv__(t), lambda: x.__rpow__(t), lambda: x.__rsub__(t), lambda: x.__rmatmul__(t),\n'
        '          lambda: x.__rmod__(t), lambda: x.__rtruediv__("a"), lambda: x.__rpow__([1])]:\n'
        '    y = f(); print(y, getattr(y, "grad_fn", None))\n'
        '    if hasattr(y, "grad_fn"):\n'
        '        y.sum().backward(); print(x.grad); x.grad = None'),
    "broadcast_loss_keeps_the_input_of_the_target_shape": (
        'x = torch.ones(2, 3, requires_grad=True); w = torch.ones(3, requires_grad=True)\n'
        'for F in [torch.nn.functional.mse_loss, torch.nn.functional.l1_loss, torch.nn.functional.huber_loss]:\n'
        '    for y in [F(x, torch.zeros(3)), F(w, torch.zeros(2, 3)), F(x, w)]:\n'
        '        print(y.grad_fn.next_functions, y.grad_fn._saved_self.grad_fn, y.grad_fn._saved_target.shape)'),
    "narrow_saves_its_dim_as_written_and_as_strided_its_offset": (
        'x = torch.arange(6.).requires_grad_()\n'
        'y = x.view(2, 3).narrow(-1, 1, 2); show(y); y.pow(2).sum().backward(); print(x.grad)\n'
        'y = torch.narrow(x.view(2, 3), -2, 1, 1)\n'
        'g, = torch.autograd.grad(y.pow(2).sum(), x, create_graph=True); print(g); g.sum().backward(); print(x.grad)\n'
        'for z in [x.as_strided((2, 2), (1, 2)), x.as_strided((2, 2), (1, 2), 1)]:\n'
        '    print(z.grad_fn._saved_storage_offset, [a for a in dir(z.grad_fn) if "saved" in a])'),
    "svd_saves_its_outputs": (
        'a = torch.tensor([[2., 1., 0.], [1., 3., 1.]], requires_grad=True)\n'
        'for S in [torch.linalg.svd(a).S, torch.linalg.svd(a, full_matrices=False).S, torch.linalg.svdvals(a.T)]:\n'
        '    g = S.grad_fn\n'
        '    print(g, [a for a in dir(g) if "saved" in a], g._saved_S, g._saved_S_sym_argsize_minus_1,\n'
        '          g._saved_full_matrices, g._saved_U.shape, g._saved_Vh.shape)'),
    "graphs_of_inner_tensordot_and_block_diag": (
        'v = torch.arange(3.).requires_grad_(); a = torch.arange(6.).view(2, 3).requires_grad_()\n'
        'def walk(fn, depth=0):\n'
        '    if fn is None: return\n'
        '    print("  " * depth + fn.name(), [n for n in dir(fn) if n.startswith("_saved_")])\n'
        '    for nf, i in fn.next_functions:\n'
        '        walk(nf, depth + 1)\n'
        'for y in [torch.inner(v, v), torch.tensordot(v, v, 1), torch.tensordot(a, a, 2), torch.einsum("i,i->", v, v),\n'
        '          torch.block_diag(a, v, torch.tensor(5.))]:\n'
        '    print(y.shape); walk(y.grad_fn)\n'
        'y.sum().backward(); print(a.grad, v.grad)'),
    "graphs_of_linear_on_a_transposed_input_and_batch_first_lstm": (
        'torch.manual_seed(0)\n'
        'w = torch.randn(2, 3, 4, requires_grad=True)\n'
        'def walk(fn, depth=0):\n'
        '    if fn is None or depth > 4: return\n'
        '    print("  " * depth + fn.name(), sorted(n for n in dir(fn) if n.startswith("_saved_") and "result" not in n))\n'
        '    for nf, i in fn.next_functions:\n'
        '        walk(nf, depth + 1)\n'
        'lin = torch.nn.Linear(4, 2)\n'
        'for x in [w, w.transpose(0, 1), w[:, :, :].permute(1, 0, 2).contiguous(), w.transpose(1, 2).transpose(1, 2)]:\n'
        '    walk(lin(x).grad_fn)\n'
        'o = torch.nn.MultiheadAttention(4, 2, batch_first=True)(w, w, w)[0]; print(o.sum()); walk(o.grad_fn)\n'
        'for bf in [True, False]:\n'
        '    m = torch.nn.LSTM(4, 3, batch_first=bf)\n'
        '    for x in [w, w.transpose(0, 1)]:\n'
        '        o, (h, c) = m(x); print(o.sum()); walk(o.grad_fn); walk(h.grad_fn)'),
    "real_tensors_conj_is_themselves": (
        'x = torch.arange(3.).requires_grad_()\n'
        'for y in [x.conj(), torch.conj(x), x.resolve_conj(), x.resolve_neg(), x.conj_physical()]:\n'
        '    print(y is x, y.grad_fn)\n'
        'print(x.is_conj(), x.is_neg(), torch.is_conj(x))'),
    "saved_tensor_objects_and_node_classes": (
        'x = torch.tensor([1., 2., 3.], requires_grad=True)\n'
        'y = x.exp()\n'
        'r = y.grad_fn._raw_saved_result\n'
        'print(dir(r), type(r))\n'
        'tries(lambda: setattr(r, "x", 1), lambda: type(r)())\n'
        'print(y.grad_fn.__doc__, type(y.grad_fn.next_functions[0][0]).__doc__, x.sort()[0].grad_fn.__doc__,\n'
        '      torch.autograd.graph.Node.__doc__)'),
    "pack_hooks_only_for_recorded_ops_in_torchs_order": (
        'x = torch.tensor([1., 2.]); w = torch.tensor([1., 2.], requires_grad=True)\n'
        'with torch.autograd.graph.saved_tensors_hooks(lambda t: print("pack", t) or t, lambda t: t):\n'
        '    print("a"); y = x.exp(); y = x * x; y = x.var(); y = torch.where(x > 1, x, x)\n'
        '    print("b"); y = x.clamp(min=torch.tensor(0.5), max=w)\n'
        '    print("c"); y = torch.atan2(w, x); y = torch.maximum(w, x)\n'
        '    print("d"); y = torch.nn.functional.layer_norm(w, (2,), x, x)\n'
        '    print("e"); y = torch.nn.functional.nll_loss(w.view(1, 2), torch.tensor([1]), weight=x)\n'
        '    print("f"); y = torch.nn.functional.group_norm(w.view(1, 2, 1), 1, x, x)\n'
        '    print("g"); y = torch.dist(w, x); y = w.norm(); y = torch.nn.functional.logsigmoid(w)\n'
        '    print("h"); y = torch.nn.functional.binary_cross_entropy(w.sigmoid(), x / 2)'),
    "pack_hooks_of_in_place_ops": (
        'def pk(t):\n'
        '    print("pack", t, t._version, t.grad_fn)\n'
        '    return t\n'
        'x = torch.tensor([1., 2.], requires_grad=True)\n'
        'with torch.autograd.graph.saved_tensors_hooks(pk, lambda t: t):\n'
        '    print("a"); y = x * 1; y.exp_()\n'
        '    print("b"); y = x * 1; y.mul_(x)\n'
        '    print("c"); y = x * 1; y.mul_(y)\n'
        '    print("d"); y = x * 1; y[0:1].mul_(x[1:])\n'
        '    print("e"); y = x * 1; y.addcmul_(x, x)\n'
        '    print("f"); y = x * 1; torch.nn.functional.relu(y, inplace=True)\n'
        '    print("g"); y = x * 1; y.div_(x)\n'
        'print(y.grad_fn._saved_self, y.grad_fn._saved_other)\n'
        'y.sum().backward(); print(x.grad)'),
    "unpack_hooks_run_in_torchs_order": (
        'w = torch.tensor([1., 2.], requires_grad=True); x = torch.tensor([0.5, 3.], requires_grad=True)\n'
        'c = torch.tensor([0.5, 3.]); F = torch.nn.functional\n'
        'for f in [lambda: w.clamp(min=x * 0, max=x), lambda: torch.atan2(w, x), lambda: F.layer_norm(w, (2,), x, x),\n'
        '          lambda: F.nll_loss(w.view(1, 2), torch.tensor([1]), weight=c), lambda: w / x, lambda: w ** x,\n'
        '          lambda: torch.addcmul(w, w, x), lambda: F.group_norm(w.view(1, 2, 1), 1, x, x), lambda: w.norm(),\n'
        '          lambda: F.scaled_dot_product_attention(w.view(1, 1, 2), x.view(1, 1, 2), w.view(1, 1, 2))]:\n'
        '    with torch.autograd.graph.saved_tensors_hooks(lambda t: t, lambda t: print("unpack", t.tolist()) or t):\n'
        '        y = f()\n'
        '    y.sum().backward(); print("--")'),
    "pack_hooks_of_custom_functions": (
        'class F(torch.autograd.Function):\n'
        '    @staticmethod\n'
        '    def forward(ctx, x, w):\n'
        '        y = x * w\n'
        '        ctx.save_for_backward(y, x, w)\n'
        '        return y\n'
        '    @staticmethod\n'
        '    def backward(ctx, g):\n'
        '        y, x, w = ctx.saved_tensors\n'
        '        return g * w, g * x\n'
        'x = torch.tensor([1., 2.], requires_grad=True); w = torch.tensor([3., 4.])\n'
        'with torch.autograd.graph.saved_tensors_hooks(lambda t: print("pack", t) or t, lambda t: print("unpack", t) or t):\n'
        '    y = F.apply(x, w)\n'
        '    print("no grad needed"); z = F.apply(w, w)\n'
        'y.sum().backward(); print(x.grad, z.grad_fn)'),
    "composite_losses_record_their_ops_in_torchs_order": (
        'w = torch.tensor([1., 2.], requires_grad=True); x = torch.tensor([0.5, 3.], requires_grad=True)\n'
        'F = torch.nn.functional\n'
        'for f in [lambda: F.kl_div(w, x, reduction="sum"), lambda: F.kl_div(w, x, reduction="sum", log_target=True),\n'
        '          lambda: F.cosine_similarity(w, x, dim=0)]:\n'
        '    with torch.autograd.graph.saved_tensors_hooks(lambda t: print("pack", t) or t, lambda t: print("unpack", t) or t):\n'
        '        y = f()\n'
        '    y.backward(); print(w.grad, x.grad); w.grad = x.grad = None'),
    "label_smoothing_graph": (
        'w = torch.tensor([[1., -2., 0.5], [0.3, 2., -1.]], requires_grad=True)\n'
        'x = torch.tensor([[0.2, 0.3, 0.5], [0.1, 0.6, 0.3]], requires_grad=True)\n'
        'F = torch.nn.functional\n'
        'def walk(fn, depth=0):\n'
        '    if fn is None: return\n'
        '    print("  " * depth + fn.name(), [(n, getattr(fn, n)) for n in dir(fn) if n.startswith("_saved_")])\n'
        '    for nf, i in fn.next_functions:\n'
        '        walk(nf, depth + 1)\n'
        'walk(F.cross_entropy(w, x, label_smoothing=0.2).grad_fn)\n'
        'for kw in [{}, {"weight": torch.tensor([1., 2., 3.])}, {"ignore_index": 2}]:\n'
        '    with torch.autograd.graph.saved_tensors_hooks(lambda t: t, lambda t: print("unpack", t) or t):\n'
        '        y = F.cross_entropy(w, torch.tensor([0, 2]), label_smoothing=0.2, **kw)\n'
        '    walk(y.grad_fn); y.backward(); print(w.grad); w.grad = None'),
    "allow_mutation_on_saved_tensors": (
        'with torch.autograd.graph.allow_mutation_on_saved_tensors() as ctx:\n'
        '    a = torch.ones(2, 3, requires_grad=True)\n'
        '    b = a.clone()\n'
        '    out = (b ** 2).sum()\n'
        '    b.sin_()\n'
        '    out.sum().backward()\n'
        '    print(a.grad, b)\n'
        '    x = torch.tensor([1., 2.], requires_grad=True)\n'
        '    y = x * 1; z = y * y; y.mul_(10); w = (y.exp() * 2).sum(); y[1:].add_(1)\n'
        '    z.sum().backward(); print(x.grad); w.backward(); print(x.grad)\n'
        '    y = x * 1; z = y * y; y.mul_(10)\n'
        '    tries(lambda: torch.autograd.graph.allow_mutation_on_saved_tensors().__enter__())\n'
        'print(type(ctx).__name__)\n'
        'tries(lambda: z.sum().backward())'),
    "unpack_of_another_dtype_gives_the_inputs_dtype": (
        'x = torch.tensor([1., 2.], requires_grad=True)\n'
        'with torch.autograd.graph.saved_tensors_hooks(lambda t: t, lambda t: t.double()):\n'
        '    y = x * x\n'
        '    z = (x * 3).exp()\n'
        'y.sum().backward(); print(x.grad, x.grad.dtype)\n'
        'x.grad = None; z.sum().backward(); print(x.grad, x.grad.dtype)'),
    "checkpoint_reentrant_and_not": (
        'import torch.utils.checkpoint as cp\n'
        'torch.manual_seed(0)\n'
        'x = torch.randn(4, requires_grad=True)\n'
        'def f(t):\n'
        '    print("f start")\n'
        '    y = torch.nn.functional.dropout(t.exp(), 0.5)\n'
        '    z = y * t\n'
        '    print("f end")\n'
        '    return z.sum()\n'
        'for r in [False, True]:\n'
        '    torch.manual_seed(1)\n'
        '    y = cp.checkpoint(f, x, use_reentrant=r)\n'
        '    print(y, y.grad_fn, torch.rand(1))\n'
        '    y.backward(retain_graph=not r); print(x.grad, torch.rand(1)); x.grad = None\n'
        'y = cp.checkpoint(lambda t: t.sin().cos(), x, use_reentrant=False)\n'
        'print(torch.autograd.grad(y.sum(), x), y.grad_fn._saved_self)\n'
        'y = cp.checkpoint(lambda t: t.sin().cos(), x, use_reentrant=True)\n'
        'tries(lambda: torch.autograd.grad(y.sum(), x), lambda: cp.checkpoint(f, x, use_reentrant=True, foo=1),\n'
        '      lambda: cp.checkpoint(f, x, use_reentrant=True, debug=True),\n'
        '      lambda: cp.checkpoint(lambda t, k: (t * k, t + k), x, 3, use_reentrant=True),\n'
        '      lambda: cp.checkpoint(lambda t, k: t * k, x, k=3, use_reentrant=False))\n'
        'with torch.autograd.graph.saved_tensors_hooks(lambda t: print("outer pack", t) or t, lambda t: t):\n'
        '    y = cp.checkpoint(lambda t: t.exp() * t, x, use_reentrant=False)\n'
        'y.sum().backward(); print(x.grad)'),
    "checkpoint_sequential": (
        'import torch.utils.checkpoint as cp\n'
        'torch.manual_seed(0)\n'
        'model = torch.nn.Sequential(torch.nn.Linear(3, 4), torch.nn.ReLU(), torch.nn.Linear(4, 2), torch.nn.Tanh())\n'
        'x = torch.randn(5, 3, requires_grad=True)\n'
        'for r in [False, True]:\n'
        '    out = cp.checkpoint_sequential(model, 2, x, use_reentrant=r)\n'
        '    print(out.grad_fn, out.grad_fn.next_functions, out.sum())\n'
        '    out.sum().backward(); print(x.grad.sum(), model[0].weight.grad.sum())'),
    "arguments_no_derivative_formula_differentiates": (
        'F = torch.nn.functional\n'
        'c = torch.tensor([0.5, 3.], requires_grad=True)\n'
        'w = torch.tensor([[1., 2.]], requires_grad=True)\n'
        'tries(lambda: F.nll_loss(w, torch.tensor([1]), weight=c), lambda: F.nll_loss(w.detach(), torch.tensor([1]), weight=c),\n'
        '      lambda: F.cross_entropy(w, torch.tensor([1]), weight=c), lambda: F.nll_loss(w, torch.tensor([5]), weight=c),\n'
        '      lambda: F.cross_entropy(torch.ones(1, 2, 3, 3), torch.ones(1, 3, 3, dtype=torch.long), weight=c),\n'
        '      lambda: F.nll_loss(torch.ones(1, 2, 3), torch.ones(1, 3, dtype=torch.long), weight=c),\n'
        '      lambda: F.cross_entropy(w, torch.tensor([[0.5, 0.5]]), weight=c).grad_fn,\n'
        '      lambda: F.binary_cross_entropy_with_logits(w, torch.ones(1, 2), weight=c, pos_weight=c),\n'
        '      lambda: F.binary_cross_entropy_with_logits(w, torch.ones(1, 2), pos_weight=c),\n'
        '      lambda: F.binary_cross_entropy(w.sigmoid(), torch.ones(1, 2), weight=c),\n'
        '      lambda: F.batch_norm(w.view(2, 1), c[:1], torch.ones(1), training=True),\n'
        '      lambda: F.batch_norm(w.view(2, 1), torch.ones(1), c[:1], training=False))\n'
        'with torch.no_grad():\n'
        '    print(F.nll_loss(w, torch.tensor([1]), weight=c))'),
}


@pytest.mark.parametrize("name", SNIPPETS)
def test_snippet(name):
    code = SHOW + SNIPPETS[name]
    t, e = run_both(T, E, code)
    assert same(t, e), f"\n{code}\n--- torch\n{t.summary()}--- engine\n{e.summary()}"
