"""The autograd graph's Python surface over a wide set of ops, against real PyTorch: each output's grad_fn, its name(),
next_functions and every `_saved_*` attribute (the harness's show()), the `_raw_saved_*` SavedTensor objects (their
data, unpack_hook and register_hooks, before and after backward freed them), which saved values are the op's own
input or output, saved integer lists, and the errors of reading saved values after backward freed them: printed
text, warnings and the final error must be the same."""
import pytest

T = pytest.importorskip("torch", reason="differential tests need real PyTorch (pip install torch==2.13.0)")
from .harness import SHOW, load_engine, run_both, same  # noqa: E402

E = load_engine()

SNIPPETS = {
    # SavedTensor.register_hooks and unpack are pybind11 methods with unnamed arguments: keywords are refused, and
    # the error lists them after the positional ones; unpack() of an item of a saved list gives that item
    "saved_tensor_methods_arguments": (
        'x = torch.tensor([1., 2., 3.], requires_grad=True); y = x.sin(); r = y.grad_fn._raw_saved_self\n'
        'tries(lambda: r.register_hooks(pack_hook=lambda t: t, unpack_hook=lambda t: t),\n'
        '      lambda: r.register_hooks(len, unpack_hook=len), lambda: r.register_hooks(len, len, x=1),\n'
        '      lambda: r.register_hooks(len), lambda: r.register_hooks(len, 3), lambda: r.unpack(y.grad_fn),\n'
        '      lambda: r.unpack(node=y.grad_fn), lambda: r.unpack() is x, lambda: r.register_hooks(len, len))\n'
        'q = torch.ones(2, 3, requires_grad=True)[:, [0, 2]]; i = q.grad_fn._raw_saved_indices\n'
        'tries(lambda: i[0].unpack(), lambda: i[1].unpack(), lambda: i[1].unpack().dtype)\n'
        'y2 = x * 2; tries(lambda: y2.grad_fn._raw_saved_other.unpack())'),
    # SavedTensor.data: the saved tensor (an output without its grad_fn), a number as its 0-d tensor, whatever the
    # pack hook returned once hooks are set, None once backward freed it; unpack_hook is None once freed
    "saved_tensor_data_and_unpack_hook": (
        'a = torch.ones(2, requires_grad=True)\n'
        'y = a.sin(); s = y.grad_fn._raw_saved_self; print(s.data is a, s.unpack_hook)\n'
        'y.sum().backward(); print(s.data, s.unpack_hook)\n'
        'y = a.exp(); s = y.grad_fn._raw_saved_result; print(s.data, s.data is y); y.sum().backward(); print(s.data)\n'
        'y = a * 2; s = y.grad_fn._raw_saved_other; print(repr(s.data)); y.sum().backward(); print(s.data)\n'
        'y = a * 2; s = y.grad_fn._raw_saved_other; s.register_hooks(lambda t: [t], lambda p: p[0])\n'
        'print(s.data, y.grad_fn._saved_other)\n'
        'y = a.sin(); s = y.grad_fn._raw_saved_self; s.register_hooks(lambda t: t + 1, lambda t: t * 10)\n'
        'print(s.data, s.unpack_hook is not None, y.grad_fn._saved_self); y.sum().backward()\n'
        'print(a.grad, s.data, s.unpack_hook)\n'
        'with torch.autograd.graph.saved_tensors_hooks(lambda t: ("packed", t.shape), lambda p: torch.zeros(p[1])):\n'
        '    y = a.cos()\n'
        's = y.grad_fn._raw_saved_self; print(s.data, s.unpack_hook is not None); y.sum().backward(); print(s.data)\n'
        'y = a[[0, 1]]; r = y.grad_fn._raw_saved_indices; print(r[0], r[1].data)\n'
        'r[1].register_hooks(lambda t: t * 0, lambda t: t); print(r[1].data, y.grad_fn._saved_indices)'),
    # a pack hook that raises: PyTorch has set the hooks already, so unpacking calls the unpack hook with nothing
    # packed (no argument) and another register_hooks is refused
    "pack_hook_error_leaves_hooks_set": (
        'x = torch.tensor([1., 2., 3.], requires_grad=True)\n'
        'def bad_pack(t): raise ValueError("no pack")\n'
        'y = x.sin(); r = y.grad_fn._raw_saved_self\n'
        'tries(lambda: r.register_hooks(bad_pack, lambda t: t), lambda: y.grad_fn._saved_self,\n'
        '      lambda: r.register_hooks(lambda t: t, lambda t: t), lambda: y.sum().backward())\n'
        'z = x.exp(); z.grad_fn._raw_saved_result.register_hooks(lambda t: t.clone(), lambda t: t)\n'
        'print(z.grad_fn._saved_result, z.grad_fn._saved_result is z); z.sum().backward(); print(x.grad)'),
    # one SavedTensor object per saved value (pybind11 gives the same Python object for one C++ SavedVariable),
    # also for a saved number, an item of a saved list, a custom Function's saved tensor, and after backward
    "raw_saved_identity": (
        'x = torch.tensor([1., 2., 3.], requires_grad=True)\n'
        'g = x[[0, 1]].grad_fn; print(g._raw_saved_indices is g._raw_saved_indices, g._raw_saved_indices[0] is g._raw_saved_indices[0])\n'
        'y = x.sin(); g = y.grad_fn; a = g._raw_saved_self; y.sum().backward()\n'
        'print(a is g._raw_saved_self, g._raw_saved_self == g._raw_saved_self)\n'
        'g = (x * 2).grad_fn; print(g._raw_saved_other is g._raw_saved_other)\n'
        'class F(torch.autograd.Function):\n'
        '    @staticmethod\n'
        '    def forward(ctx, x): ctx.save_for_backward(x); return x * 1\n'
        '    @staticmethod\n'
        '    def backward(ctx, g): return g\n'
        'g = F.apply(x).grad_fn; print(g._raw_saved_tensors[0] is g._raw_saved_tensors[0], [a for a in dir(g) if "saved" in a])'),
    # an LSTM layer's MkldnnRnnLayerBackward0 saves its outputs too (result0-2: output, h and c of the layer, with
    # the node as grad_fn and their output numbers)
    "lstm_layer_node_saves_its_outputs": (
        'import torch.nn as nn\n'
        'torch.manual_seed(0); x = torch.randn(3, 2, 4); m = nn.LSTM(4, 3, num_layers=2)\n'
        'o, (h, c) = m(x); g = o.grad_fn\n'
        'for n in ["_saved_result0", "_saved_result1", "_saved_result2", "_saved_hx_"]:\n'
        '    t = getattr(g, n); print(n, t, t is o, t.grad_fn is g, t.output_nr)\n'
        'print(g._raw_saved_result1.data, g._raw_saved_result2.unpack_hook)\n'
        'o.sum().backward(); print(m.weight_hh_l1.grad)\n'
        'tries(lambda: g._saved_result0, lambda: g._saved_result2, lambda: g._raw_saved_result1.data)'),
    # saved_tensors_hooks see what the LSTM layer's node saves (inputs, weights, outputs), not how the engine
    # computes it (oneDNN's byte workspace, result3, left out)
    "lstm_under_saved_tensors_hooks": (
        'import torch.nn as nn\n'
        'torch.manual_seed(0); x = torch.randn(2, 1, 2); m = nn.LSTM(2, 1)\n'
        'def pack(t):\n'
        '    if t.dtype == torch.float32: print("pack", tuple(t.shape), t.grad_fn, t.output_nr)\n'
        '    return t\n'
        'with torch.autograd.graph.saved_tensors_hooks(pack, lambda t: t):\n'
        '    o, (h, c) = m(x)\n'
        'o.sum().backward(); print(m.weight_ih_l0.grad)'),
    # arithmetic with tensors and numbers on either side: node names, saved operands (a number as a wrapped 0-d
    # tensor, an alpha), which saved value is the input itself
    "arithmetic_both_sides": (
        'x = torch.tensor([[1., 2., 3.], [4., 5., 6.]], requires_grad=True)\n'
        'for y in [x + 2, 2 + x, 2 - x, x * 3, 3 / x, x / x, x - x * 2, x.add(x, alpha=3), 2 ** x, x ** x, -x]:\n'
        '    g = y.grad_fn; show(y); print(g.name(), type(g).__name__, g.metadata,\n'
        '          [(n, getattr(g, n) is x) for n in sorted(dir(g)) if n.startswith("_saved_")])'),
    # pow with int, float, negative, zero and tensor exponents, a number base and a 0-d tensor base
    "pow_exponents": (
        'x = torch.tensor([1., 2., 3.], requires_grad=True); e = torch.tensor([2., 0.5, 1.], requires_grad=True)\n'
        'for y in [x ** 2, x ** 2.5, x ** -1, x ** 0, x.pow(e), torch.pow(2, x), x ** torch.tensor(2),\n'
        '          torch.tensor(2.) ** x, x.pow(torch.tensor([2, 1, 0])), x.float_power(2), x.square()]:\n'
        '    show(y)'),
    # reductions with and without dim / keepdim (negative dims as given), the saved integer lists and their types,
    # kept after backward freed the saved tensors
    "reductions_saved_dims": (
        'x = torch.tensor([[1., 5., 3.], [4., 2., 6.]], requires_grad=True)\n'
        'for y in [x.sum(), x.sum(-1), x.sum((0, 1), keepdim=True), x.mean(0), x.prod(1), x.amax(-1), x.logsumexp(1),\n'
        '          x.norm(dim=1), x.norm(p=1), x.var(0), x.std(1, keepdim=True), x.var(correction=0), x.nansum()]:\n'
        '    show(y)\n'
        'g = x.sum(0).grad_fn; print(type(g._saved_dim), type(g._saved_self_sym_sizes))\n'
        'y = x.max(1); g = y.values.grad_fn; y.values.sum().backward()\n'
        'tries(lambda: g._saved_dim, lambda: g._saved_self_sym_sizes, lambda: g._saved_indices, lambda: g._raw_saved_indices)'),
    # max/min/sort/topk/kthvalue/cummax: the saved indices are the returned indices tensor, until it changes in place
    "selection_saved_indices": (
        'x = torch.tensor([[1., 5., 3.], [4., 2., 6.]], requires_grad=True)\n'
        'for y in [x.max(), x.max(1)[0], x.min(0, keepdim=True).values, x.sort(1, descending=True)[0], x.topk(2)[0],\n'
        '          x.kthvalue(2)[0], x.median(), x.cummax(1)[0], x.argmax(), x.topk(2)[1]]:\n'
        '    show(y) if y.grad_fn else print(y, y.requires_grad)\n'
        'v, i = x.sort(); print(v.grad_fn._saved_indices is i); i.zero_()\n'
        'tries(lambda: v.grad_fn._saved_indices, lambda: v.sum().backward())'),
    # indexing with ints, slices, lists, bool masks, None and Ellipsis: the nodes and the saved index lists
    "indexing_nodes": (
        'x = torch.arange(24.).reshape(2, 3, 4).requires_grad_()\n'
        'for y in [x[0], x[1, 2], x[..., 1:3], x[:, None, 1], x[[0, 1], [1, 2]], x[x > 20], x[0, 1:, [1, 3]],\n'
        '          x[torch.tensor(1)], x[[True, False]], x[None, ..., None], x[::2, ::2]]:\n'
        '    show(y)'),
    # cat/stack/split/chunk/unbind/where/clamp variants: multi-output nodes' output_nr, saved sizes and bounds
    "join_split_where_clamp": (
        'a = torch.tensor([[1., -2., 3.], [0.5, 2., -1.]], requires_grad=True); b = torch.zeros(2, 3, requires_grad=True)\n'
        'for y in [torch.cat([a, b], -1), torch.stack([a, b]), a.split([1, 2], 1)[1], a.chunk(3, 1)[2], a.unbind()[1],\n'
        '          torch.where(a > 0, a, b), torch.where(a > 0, 1., a), a.clamp(0), a.clamp(max=1), a.clamp(b, b + 1),\n'
        '          a.clamp_min(0), a.clip(-1, 1), a.masked_fill(a < 0, 0.)]:\n'
        '    show(y); print(y.output_nr)'),
    # softmax, log_softmax and the losses built on them: nodes, saved results, targets, weights and reductions
    "softmax_and_losses": (
        'import torch.nn.functional as F\n'
        'x = torch.tensor([[1., 2., 3.], [1., 0., -1.]], requires_grad=True); t = torch.tensor([2, 0])\n'
        'for y in [x.softmax(1), x.log_softmax(-1), F.cross_entropy(x, t), F.cross_entropy(x, t, reduction="none"),\n'
        '          F.mse_loss(x, torch.zeros(2, 3)), F.nll_loss(x, t, reduction="sum"),\n'
        '          F.cross_entropy(x, t, weight=torch.tensor([1., 2., 3.]), ignore_index=0)]:\n'
        '    show(y); print(y.grad_fn._saved_result is y if hasattr(y.grad_fn, "_saved_result") else "-")'),
    # Linear, conv1d, layer_norm, dropout and batch norm in train and eval mode: nodes and saved values; dropout in
    # eval mode returns its input itself
    "modules_train_and_eval": (
        'import torch.nn as nn, torch.nn.functional as F\n'
        'torch.manual_seed(0); x = torch.randn(2, 4, requires_grad=True)\n'
        'show(nn.Linear(4, 2)(x)); show(nn.Linear(4, 2, bias=False)(x[0])); show(F.layer_norm(x, (4,)))\n'
        'show(F.conv1d(x[None], torch.ones(3, 2, 3), padding=1))\n'
        'd = nn.Dropout(0.5); show(d(x)); d.eval(); print(d(x) is x, F.dropout(x, 0.2, training=False) is x)\n'
        'bn = nn.BatchNorm1d(4); show(bn(x)); bn.eval(); show(bn(x))'),
    # matmul of every rank combination: the node it decomposes into and its saved sizes
    "matmul_ranks": (
        'a1 = torch.ones(3, requires_grad=True); a2 = torch.ones(2, 3, requires_grad=True)\n'
        'a3 = torch.ones(4, 2, 3, requires_grad=True); b2 = torch.ones(3, 2, requires_grad=True)\n'
        'b3 = torch.ones(4, 3, 2, requires_grad=True); b4 = torch.ones(5, 4, 3, 2, requires_grad=True)\n'
        'for a, b in [(a1, a1), (a1, b2), (a2, a1), (a2, b2), (a1, b3), (a3, a1), (a3, b2), (a2, b3), (a3, b3), (a1, b4)]:\n'
        '    y = a @ b; show(y)'),
    # dtype conversions: a ToCopyBackward0 node, or the tensor itself when nothing changes; integer results need no
    # grad; the mean of integers is an error
    "conversions_and_mean_of_ints": (
        'x = torch.tensor([1.5, -2.5, 3.], requires_grad=True)\n'
        'for y in [x.double(), x.half(), x.to(torch.float32), x.type("torch.DoubleTensor"), x.to(x), x.type_as(x.double())]:\n'
        '    print(y is x) if y.grad_fn is None else show(y)\n'
        'i = torch.tensor([[1, 2], [3, 4]])\n'
        'tries(lambda: x.long().requires_grad, lambda: i.mean(), lambda: i.mean(0), lambda: i.std(), lambda: i.norm(),\n'
        '      lambda: i.mean(dtype=torch.float32), lambda: torch.tensor([True]).mean())'),
    # repeat/tile/flip/roll, gather/scatter/index_select: saved repeats, dims, shifts and index tensors
    "repeat_flip_gather_scatter": (
        'x = torch.tensor([[1., 2.], [3., 4.]], requires_grad=True); i = torch.tensor([[0, 0], [1, 0]])\n'
        'for y in [x.repeat(2, 1), x.tile(2), x.flip(0), x.roll(1), x.roll((1, 1), (0, 1)), x.gather(1, i),\n'
        '          x.scatter(1, i, 0.), x.scatter_add(0, i, x), x.index_select(0, torch.tensor([1, 1])),\n'
        '          x.scatter_reduce(0, i, x, "amax", include_self=False)]:\n'
        '    show(y)\n'
        'y = x.gather(1, i); print(y.grad_fn._saved_index is i)'),
    # reading saved values after backward freed them: tensors, wrapped numbers and saved lists raise, plain values
    # stay; retain_graph keeps them
    "saved_after_backward": (
        'x = torch.tensor([1., 2., 3.], requires_grad=True)\n'
        'for f in [lambda t: t.exp(), lambda t: t * t, lambda t: t * 2, lambda t: t.cumprod(0), lambda t: t.norm(),\n'
        '          lambda t: torch.stack([t, t]), lambda t: t[[0, 1]], lambda t: t.where(t > 1, t * 2)]:\n'
        '    y = f(x); g = y.grad_fn; y.sum().backward(retain_graph=True); y.sum().backward()\n'
        '    for n in sorted(a for a in dir(g) if a.startswith("_saved_")):\n'
        '        tries(lambda: (g.name(), n, getattr(g, n)))'),
}


@pytest.mark.parametrize("name", SNIPPETS)
def test_snippet(name):
    code = SHOW + SNIPPETS[name]
    t, e = run_both(T, E, code)
    assert same(t, e), f"\n{code}\n--- torch\n{t.summary()}--- engine\n{e.summary()}"
