"""What a learner inspecting grad_fn nodes sees, against real PyTorch (session 28): a saved list of tensors read after
backward freed it, optional numbers that have no `_raw_saved_` object, saved negative counts read as unsigned, what
PyTorch's codegen saves whatever requires grad (lerp's weight), the saved attributes of pools' and upsampling's
double-backward nodes, dropout's saved mask (its version and layout), the layout of results PyTorch's kernels write
row-major (pads, upsampling, gather, bmm, batch norm, a matrix times a column) and the copies some ops make first
(group_norm's, rms_norm's, repeat_interleave's CloneBackward0), SavedTensor objects' attribute errors, a custom
Function node's dir() and vars(), and node hooks on a node of several outputs. Printed text, warnings and the final
error must be the same."""
import pytest

T = pytest.importorskip("torch", reason="differential tests need real PyTorch (pip install torch==2.13.0)")
from .harness import SHOW, TRIES, load_engine, run_both, same  # noqa: E402

E = load_engine()

# saved(n): every `_saved_*` / `_raw_saved_*` name of node n with its value (or the error reading it raised)
SAVED = TRIES + ('def saved(n):\n'
                 '    for a in sorted(dir(n)):\n'
                 '        if a.startswith(("_saved", "_raw_saved")):\n'
                 '            tries(lambda: (a, getattr(n, a)))\n')

SNIPPETS = {
    # index's `indices` is a saved list of tensors: once backward freed the graph, reading _raw_saved_indices raises
    # the freed error too (PyTorch's getter unpacks the list), not only _saved_indices
    "raw_saved_list_after_backward": SAVED + (
        'x = torch.tensor([[1., 2., 3.], [4., 5., 6.]], requires_grad=True)\n'
        'i = torch.tensor([1, 0])\n'
        'for y in [x[i], x[:, i], x[i, i], x[x > 2], x.index_put((i,), torch.tensor(9.))]:\n'
        '    g = y.grad_fn\n'
        '    print(g.name(), len(g._raw_saved_indices))\n'
        '    y.sum().backward()\n'
        '    saved(g)'),
    # optional numbers (upsampling's scales, attention's scale) are not tensors: a None there has no
    # `_raw_saved_` object, before or after backward
    "optional_scales_have_no_raw_saved": SAVED + (
        'import torch.nn.functional as F\n'
        'img = torch.arange(32.).reshape(1, 2, 4, 4).requires_grad_()\n'
        'q = torch.arange(24.).reshape(1, 2, 3, 4).div(10).requires_grad_()\n'
        'for y in [F.interpolate(img, size=(6, 6), mode="bilinear"), F.interpolate(img, scale_factor=2, mode="bicubic",\n'
        '          align_corners=True), F.interpolate(img[0], size=7, mode="linear"), F.interpolate(img, scale_factor=1.5),\n'
        '          F.scaled_dot_product_attention(q, q, q)]:\n'
        '    g = y.grad_fn\n'
        '    print(g.name(), sorted(a for a in dir(g) if a.startswith("_raw")))\n'
        '    y.sum().backward()\n'
        '    tries(lambda: g._saved_scales_h if hasattr(g, "_saved_scales_h") else g._saved_scale)'),
    # a negative padding (cropping) is saved as PyTorch saves every negative int, read as unsigned 64-bit; the
    # gradient's own pad (create_graph) saves the negated counts so
    "constant_pad_saves_negative_counts_unsigned": (
        'import torch.nn.functional as F\n'
        'x = torch.arange(12.).reshape(3, 4).requires_grad_()\n'
        'y = F.pad(x, (-1, 2, 1, -2))\n'
        'print(y, y.grad_fn._saved_pad)\n'
        'g, = torch.autograd.grad((y ** 2).sum(), x, create_graph=True)\n'
        'n = g.grad_fn\n'
        'while n.name() != "ConstantPadNdBackward0":\n'
        '    n = n.next_functions[0][0]\n'
        'print(n.name(), n._saved_pad)\n'
        'print(F.pad(x, (1, 1)).grad_fn._saved_pad, F.pad(x, (0, -3)).grad_fn._saved_pad)\n'
        '# only cutting (no count positive): a clone of the cut input, laid out as it is; cutting too much: narrow\'s error\n'
        'for p in [(), (0, 0), (-1, 0), (0, -1, -1, 0), (1, -1), (-4, 0), (-2, -3), (0, 0, -3, 1)]:\n'
        '    try:\n'
        '        y = F.pad(x.t(), p); print(p, y.stride(), y.data_ptr() == x.data_ptr(), y.grad_fn._saved_pad)\n'
        '    except RuntimeError as e:\n'
        '        print(p, e)'),
    # the nodes of pools' and upsampling's gradients (create_graph=True) save what PyTorch's save: the pool's
    # indices, the pool's parameters, the gradient's sizes, the upsampling's output size and scales
    "pool_and_upsample_double_backward_nodes_saved": SAVED + (
        'import torch.nn.functional as F\n'
        'img = (torch.arange(2 * 2 * 5 * 5.).reshape(2, 2, 5, 5) / 50).requires_grad_()\n'
        'for f in [lambda: F.max_pool2d(img, 2), lambda: F.avg_pool2d(img, 3, 2, 1, True, False, 2),\n'
        '          lambda: F.adaptive_avg_pool2d(img, 2), lambda: F.adaptive_max_pool2d(img, 2),\n'
        '          lambda: F.interpolate(img, scale_factor=2), lambda: F.interpolate(img, size=(7, 7), mode="bilinear"),\n'
        '          lambda: F.max_pool1d(img[0], 2)]:\n'
        '    g, = torch.autograd.grad((f() ** 2).sum(), img, create_graph=True)\n'
        '    n = g.grad_fn\n'
        '    print(n.name(), n.next_functions)\n'
        '    saved(n)\n'
        '    g.sum().backward()\n'
        '    saved(n)'),
    # dropout's mask is empty_like(input).bernoulli_(1 - p).div_(1 - p): laid out as the input (a transposed input
    # gets a transposed mask, its numbers drawn in memory order: other elements are dropped), version 2; p=1 saves
    # a 0-d zeros (version 1)
    "dropout_mask_layout_and_version": (
        'import torch.nn.functional as F\n'
        'torch.manual_seed(0)\n'
        'x = torch.arange(1., 13.).reshape(3, 4).requires_grad_()\n'
        'for y in [F.dropout(x.t(), 0.5), F.dropout(x[:, ::2], 0.5), F.alpha_dropout(x.t(), 0.3, True),\n'
        '          F.dropout(x.view(3, 2, 2).permute(2, 0, 1), 0.5), torch.nn.Dropout(0.4)(x.t()), F.dropout(x, 1.)]:\n'
        '    n = y.grad_fn if y.grad_fn.name() == "MulBackward0" else y.grad_fn.next_functions[0][0]\n'
        '    m = n._saved_other\n'
        '    print(y, y.stride(), m.stride(), m._version)\n'
        'print(F.dropout2d(x[None, :, :, None], 0.5).grad_fn._saved_other._version)'),
    # F.pad and F.interpolate write their result as PyTorch's kernels do: row-major for a transposed input
    # (a following .view() works), channels_last for a channels_last one
    "pad_and_upsample_results_layout": (
        'import torch.nn.functional as F\n'
        'x = torch.arange(24.).reshape(2, 3, 4).requires_grad_()\n'
        'img = torch.arange(120.).reshape(2, 3, 4, 5).requires_grad_()\n'
        'cl = img.to(memory_format=torch.channels_last)\n'
        'for y in [F.pad(x, (1, 1), mode="reflect"), F.pad(x, (1, 2), mode="replicate"), F.pad(x[0].t(), (1, 1)),\n'
        '          F.pad(img.permute(3, 2, 1, 0), (1, 1)), F.pad(cl, (1, 1)), F.pad(cl, (1, 1, 1, 1), mode="reflect"),\n'
        '          F.pad(cl, (1, 1, 1, 1), mode="replicate"), F.interpolate(img, scale_factor=2),\n'
        '          F.interpolate(x, scale_factor=2, mode="linear"), F.interpolate(img, size=(3, 3), mode="bicubic"),\n'
        '          F.interpolate(cl, scale_factor=2), F.interpolate(cl, scale_factor=2, mode="bilinear")]:\n'
        '    print(y.grad_fn.name(), y.stride(), y.is_contiguous())\n'
        'print(F.pad(x, (1, 1), mode="reflect").view(-1)[:8])'),
    # gather writes a row-major result whatever the index's layout (an expanded index: .view() then works);
    # take_along_dim gathers with a copy of the broadcast indices (dense, laid out as clone lays them out)
    "gather_and_take_along_dim_layout": (
        'x = torch.arange(12.).reshape(3, 4).requires_grad_()\n'
        'it = torch.tensor([[0, 1, 2], [1, 2, 3]]).t()\n'
        'row = torch.tensor([[0, 1]])\n'
        'for y in [x.gather(1, it), x.gather(1, row.expand(3, 2)), x.t().gather(1, torch.tensor([[0], [1], [2], [0]])),\n'
        '          torch.take_along_dim(x, it, 1), torch.take_along_dim(x, row, -1), torch.take_along_dim(x[:1], row.expand(3, 2), 1)]:\n'
        '    i = y.grad_fn._saved_index\n'
        '    print(y, y.stride(), i.stride(), i is it, y.grad_fn.next_functions)\n'
        'print(x.gather(1, row.expand(3, 2)).view(-1))'),
    # a matrix times a column (k small: PyTorch's own kernel) is a column of strides (1, 1), not (1, 0): as the
    # result and as the saved mat2 (with its saved strides) of the next product
    "matrix_times_column_strides": (
        'w = torch.tensor([[0.1, 0.2, -0.3, 0.4], [0.5, -0.6, 0.7, 0.8]], requires_grad=True)\n'
        'b = torch.tensor([0.05, -0.05], requires_grad=True)\n'
        'x = torch.arange(12.).reshape(3, 4)\n'
        'for y in [w.T @ b[:, None], x @ w.T[:, :1], torch.mm(w.T, b[:, None]), b[None] @ w]:\n'
        '    print(y.shape, y.stride(), y.grad_fn.name())\n'
        'y = torch.linalg.multi_dot([x, w.T, b[:, None]])\n'
        'print(y, y.stride())\n'
        'm = y.grad_fn.next_functions[0][0]\n'
        'print(m._saved_mat2.stride(), m._saved_mat2_sym_strides, m._saved_self_sym_strides)'),
    # repeat_interleave with a tensor of repeats is an index_select, whose node saves dim as given (a negative one
    # read as unsigned)
    "repeat_interleave_saves_dim_as_given": (
        'x = torch.ones(3, 4, requires_grad=True)\n'
        'for y in [x.repeat_interleave(torch.tensor([1, 2, 1]), dim=-2), x.repeat_interleave(torch.tensor(2), dim=-1),\n'
        '          torch.repeat_interleave(x, torch.tensor([1, 2, 1, 1]), -1), x.repeat_interleave(torch.tensor([3]), 1)]:\n'
        '    g = y.grad_fn\n'
        '    print(g.name(), g._saved_dim, g._saved_index, g._saved_self_sym_sizes)'),
    # a batched product of transposed operands is row-major as PyTorch's bmm writes it (F.linear of a permuted 4-d
    # input: bmm, then _unsafe_view), so a .view() of it works
    "matmul_of_transposed_batches_is_row_major": (
        'import torch.nn.functional as F\n'
        'a = torch.arange(24.).reshape(2, 3, 4).requires_grad_()\n'
        'b = torch.arange(16.).reshape(2, 4, 2).requires_grad_()\n'
        'at, bt = a.transpose(1, 2).contiguous().transpose(1, 2), b.transpose(1, 2).contiguous().transpose(1, 2)\n'
        'for y in [torch.bmm(at, bt), torch.matmul(at, bt), torch.bmm(a, bt), at @ bt[0]]:\n'
        '    print(y.stride(), y.grad_fn.name(), y.grad_fn._saved_self.stride())\n'
        'img = torch.arange(96.).reshape(2, 3, 4, 4).requires_grad_()\n'
        'y = F.linear(img.permute(0, 1, 3, 2), torch.ones(2, 4) / 4, torch.zeros(2))\n'
        'print(y.stride(), y.grad_fn.next_functions[0][0].name(), y.view(-1)[:5])'),
    # norm layers over a transposed or sliced input: group_norm normalizes input.contiguous() (a CloneBackward0 node,
    # whose output the node saves), batch_norm writes a row-major result, rms_norm's result is made contiguous
    "norm_layers_on_non_contiguous_inputs": (
        'import torch.nn.functional as F\n'
        'img = (torch.arange(96.).reshape(2, 3, 4, 4) / 10).requires_grad_()\n'
        'def chain(y):\n'
        '    n, names = y.grad_fn, []\n'
        '    while n is not None and n.next_functions and len(names) < 5:\n'
        '        names.append(n.name())\n'
        '        n = n.next_functions[0][0]\n'
        '    return names\n'
        'for t in [img.transpose(0, 1), img[:, :2], img.permute(0, 1, 3, 2), img.to(memory_format=torch.channels_last)]:\n'
        '    g = F.group_norm(t, 1, torch.ones(t.shape[1]), None)\n'
        '    print(chain(g), g.stride(), g.grad_fn._saved_input.stride())\n'
        '    b = F.batch_norm(t, None, None, training=True)\n'
        '    print(chain(b), b.stride())\n'
        '    r = F.rms_norm(t, (4,))\n'
        '    print(chain(r), r.stride())\n'
        '    r.sum().backward()\n'
        'print(img.grad.stride())'),
    # repeat_interleave by a number copies the expanded input row-major (CloneBackward0), so its flatten is a view
    # (ViewBackward0), also of a transposed input
    "repeat_interleave_graph_of_a_transposed_input": (
        'x = torch.arange(12.).reshape(3, 4).requires_grad_()\n'
        'for t in [x, x.t(), x.t()[None]]:\n'
        '    for y in [t.repeat_interleave(2, -1), t.repeat_interleave(3, 0), t.repeat_interleave(2)]:\n'
        '        n, names = y.grad_fn, []\n'
        '        while n is not None and n.next_functions:\n'
        '            names.append(n.name())\n'
        '            n = n.next_functions[0][0]\n'
        '        print(y.shape, y.stride(), names)'),
    # the backward of an adaptive average pool (area interpolation) whose output is empty: PyTorch's error
    "adaptive_avg_pool_backward_of_an_empty_output": TRIES + (
        'import torch.nn.functional as F\n'
        'img = torch.ones(2, 2, 1, 3, requires_grad=True)\n'
        'y = F.interpolate(img, scale_factor=0.5, mode="area"); print(y.shape, y.grad_fn.name())\n'
        'tries(lambda: y.sum().backward(), lambda: F.adaptive_avg_pool2d(img[0], (1, 0)).sum().backward(),\n'
        '      lambda: F.adaptive_avg_pool2d(img[:0], 1).sum().backward(), lambda: img.grad)'),
    # binary_cross_entropy_with_logits saves its weight as given (it broadcasts), not expanded
    "bce_with_logits_saves_weight_as_given": (
        'import torch.nn.functional as F\n'
        'x = torch.tensor([[0.5, -1.5, 2.0, 1.0], [1.0, 0.25, -3.0, 4.0]], requires_grad=True)\n'
        't = torch.tensor([[1., 0., 1., 0.5], [0., 1., 0.25, 1.]])\n'
        'for kw in [dict(weight=torch.tensor([1., 2., 0.5, 3.])), dict(weight=torch.tensor([[2.], [3.]]), reduction="sum"),\n'
        '           dict(weight=torch.tensor(2.), pos_weight=torch.tensor([2., 1., 1., 3.]), reduction="none")]:\n'
        '    y = F.binary_cross_entropy_with_logits(x, t, **kw)\n'
        '    g = y.grad_fn\n'
        '    print(y, g._saved_weight, g._saved_weight.stride(), g._saved_pos_weight)\n'
        '    y.sum().backward(); print(x.grad); x.grad = None'),
    # PyTorch's codegen leaves a saved input unsaved only when the one formula using it is not needed: lerp's weight
    # (used by self's and end's) is saved even when only the weight requires grad, and checked for in-place changes
    "lerp_saves_weight_whatever_requires_grad": TRIES + (
        'a = torch.tensor([1., 2., 3.]); b = torch.tensor([4., 0., -2.])\n'
        'w = torch.tensor([0.5, 0.25, 0.75], requires_grad=True)\n'
        'for y in [torch.lerp(a, b, w), torch.lerp(a.requires_grad_(), b, w.detach()), torch.lerp(a, b, 0.5)]:\n'
        '    g = y.grad_fn\n'
        '    print(g.name(), sorted((k, getattr(g, k)) for k in dir(g) if k.startswith("_saved")))\n'
        'ww = w * 1; y = torch.lerp(a.detach(), b, ww)\n'
        'with torch.no_grad():\n'
        '    ww.mul_(2)\n'
        'tries(lambda: y.sum().backward(), lambda: y.grad_fn._saved_weight)'),
    # the SavedTensor object is pybind11's: its properties have no setter or deleter, its methods are read-only,
    # and a missing attribute's error names torch._C._autograd.SavedTensor
    "saved_tensor_object_attribute_errors": TRIES + (
        'x = torch.tensor([1., 2.], requires_grad=True)\n'
        'r = (x * x).grad_fn._raw_saved_self\n'
        'tries(lambda: r.foo, lambda: setattr(r, "data", 1), lambda: setattr(r, "unpack_hook", None),\n'
        '      lambda: setattr(r, "unpack", 1), lambda: setattr(r, "register_hooks", 1), lambda: setattr(r, "foo", 1),\n'
        '      lambda: delattr(r, "data"), lambda: delattr(r, "unpack"), lambda: delattr(r, "foo"),\n'
        '      lambda: r.data is x)'),
    # a custom Function's node keeps its metadata dict out of vars() and dir() (only the user's ctx attributes
    # show), and reads _materialize_non_diff_grads (True) as dir() lists it
    "custom_function_node_metadata_vars_dir": (
        'class Double(torch.autograd.Function):\n'
        '    @staticmethod\n'
        '    def forward(ctx, a):\n'
        '        ctx.scale = 2\n'
        '        return a * 2\n'
        '    @staticmethod\n'
        '    def backward(ctx, g):\n'
        '        return g * ctx.scale\n'
        'x = torch.ones(2, requires_grad=True)\n'
        'g = Double.apply(x).grad_fn\n'
        'g.metadata["step"] = 1\n'
        'print(vars(g), g.metadata, g._materialize_non_diff_grads)\n'
        'print([a for a in dir(g) if "meta" in a or a in ("scale", "_materialize_non_diff_grads")])\n'
        'h = (x * 3).grad_fn; h.metadata["k"] = 2; print(h.metadata, [a for a in dir(h) if "meta" in a])\n'
        '# the node\'s input metadata: an output outside the graph (non-differentiable, an int, not a tensor) has\n'
        '# PyTorch\'s undefined metadata (no shape, the default dtype)\n'
        'class Split(torch.autograd.Function):\n'
        '    @staticmethod\n'
        '    def forward(ctx, a):\n'
        '        mask = (a > 0).double()\n'
        '        ctx.mark_non_differentiable(mask)\n'
        '        return a * 3, mask, a.long(), 5, a * 2\n'
        '    @staticmethod\n'
        '    def backward(ctx, g, gm, gl, g5, g2):\n'
        '        print("backward got", g, gm, gl, g5, g2)\n'
        '        return g + g2\n'
        'o = Split.apply(torch.tensor([1., -2.], requires_grad=True))\n'
        'print([(m.shape, m.dtype, m.device) for m in o[0].grad_fn._input_metadata])\n'
        'o[0].sum().backward()'),
    # node hooks on a node of several outputs (split): the pre-hook sees None for the outputs backward did not
    # reach, and may replace them; the post-hook sees the gradients in and out
    "hooks_on_a_node_of_several_outputs": TRIES + (
        'x = torch.tensor([[0.5, -1.5, 2.0], [1.0, 0.25, -3.0]], requires_grad=True)\n'
        'a, b = x.split([1, 1]); g = a.grad_fn\n'
        'print(g is b.grad_fn, g.name(), g._saved_split_sizes, g._saved_dim)\n'
        'g.register_prehook(lambda go: print("pre", go))\n'
        'g.register_hook(lambda gi, go: print("post", gi, go))\n'
        '(a * 2).sum().backward()\n'
        'c, d = x.split([1, 1]); c.grad_fn.register_prehook(lambda go: (torch.ones(1, 3), torch.ones(1, 3)))\n'
        '(c * 2).sum().backward(); print(x.grad)\n'
        'e, f = x.split([1, 1]); e.grad_fn.register_prehook(lambda go: (go[0],))\n'
        'tries(lambda: (e * 2).sum().backward())'),
    # the graph of a small net, every node shown with its saved values (show): a pinned overview of names, saved
    # attributes and next_functions for the layers a learner starts with
    "small_net_nodes_shown": SHOW + (
        'import torch.nn.functional as F\n'
        'torch.manual_seed(0)\n'
        'x = torch.randn(4, 3); t = torch.tensor([0, 2, 1, 1])\n'
        'w1 = torch.randn(5, 3, requires_grad=True); b1 = torch.zeros(5, requires_grad=True)\n'
        'w2 = torch.randn(3, 5, requires_grad=True)\n'
        'h = F.dropout(F.layer_norm(F.linear(x, w1, b1), (5,)).relu(), 0.2)\n'
        'loss = F.cross_entropy(h @ w2.t(), t)\n'
        'n = loss.grad_fn\n'
        'seen = set()\n'
        'def walk(n):\n'
        '    if n is None or n in seen or not hasattr(n, "next_functions"):\n'
        '        return\n'
        '    seen.add(n)\n'
        '    print(n.name(), n.next_functions)\n'
        '    for a in sorted(a for a in dir(n) if a.startswith("_saved")):\n'
        '        print("  ", a, getattr(n, a))\n'
        '    for f, _ in n.next_functions:\n'
        '        walk(f)\n'
        'walk(n)\n'
        'loss.backward()\n'
        'tries(lambda: n._saved_self, lambda: n._saved_total_weight, lambda: n._saved_ignore_index)'),
}


@pytest.mark.parametrize("name", sorted(SNIPPETS))
def test_snippet_matches_torch(name):
    t, e = run_both(T, E, SNIPPETS[name])
    assert same(t, e), f"\n--- torch ---\n{t.summary()}\n--- engine ---\n{e.summary()}"
