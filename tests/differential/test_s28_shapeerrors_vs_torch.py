"""Shape and dtype mistakes against real PyTorch, and which error it gives first, word for word: contractions whose
dims have size 1 (tensordot broadcasts them), baddbmm / cross / multi_dot given vectors, expand to negative sizes,
stack's dim checked before the sizes, empty tensors rolled / tiled / indexed, out= that is also an input, out= dtypes
of any / all, comparisons and stack, in-place ops into an expanded tensor, index tensors that do not broadcast when
assigning, nll_loss / cross_entropy checks in PyTorch's order (a float target, a 0-d input, a 1-d input's [1] target
whose backward fails), AdaptiveAvgPool2d(1) on any input, F.embedding of a weight that is not 2-d, conv / layer_norm
dtype checks before their shape checks, batch_norm of an empty or 1-d batch, integer inputs of losses that add an
eps, mse_loss of a half input and an integer target, pointwise ops given wrong arguments, jacobian of an empty output.
Printed text, warnings and the final error must be the same."""
import pytest

T = pytest.importorskip("torch", reason="differential tests need real PyTorch (pip install torch==2.13.0)")
from .harness import TRIES, load_engine, run_both, same  # noqa: E402

E = load_engine()

SNIPPETS = {
    # tensordot: a contracted dim of size 1 broadcasts (the other tensor is summed over it first: SumBackward1 in
    # the graph, its dtype kept); other sizes must match
    "tensordot_contracts_a_size_one_dim": (
        'a = torch.arange(3.).requires_grad_(); b = torch.arange(20.).view(1, 4, 5).requires_grad_()\n'
        'y = torch.tensordot(a, b, dims=1); print(y, y.grad_fn.next_functions[0][0].next_functions)\n'
        'y.sum().backward(); print(a.grad, b.grad.shape)\n'
        'c = torch.arange(4.).view(4, 1).requires_grad_(); d = torch.arange(15.).view(3, 5).requires_grad_()\n'
        'print(torch.tensordot(c, d, dims=1))\n'
        'tries(lambda: torch.tensordot(torch.ones(3, dtype=torch.int32), torch.ones(1, 4, dtype=torch.int32), 1),\n'
        '      lambda: torch.tensordot(torch.ones(2, 5), torch.ones(1, 3), dims=([1], [0])).shape,\n'
        '      lambda: torch.tensordot(torch.ones(2, 1), torch.ones(1, 3), dims=([0, 1], [1, 0])))'),
    # products given tensors of too few dims: the sizes PyTorch reads first fail (baddbmm's size(0), size(1), then
    # its input's dtype against batch1's; cross's size(dim) of a 0-d tensor); multi_dot names the shapes as given (a
    # vector is not shown as the matrix it stands for)
    "baddbmm_cross_and_multi_dot_of_vectors": (
        'tries(lambda: torch.cross(torch.ones(()), torch.ones(()), dim=-1),\n'
        '      lambda: torch.linalg.cross(torch.ones(()), torch.ones(())),\n'
        '      lambda: torch.baddbmm(torch.zeros(1), torch.ones(3), torch.ones(4, 3)),\n'
        '      lambda: torch.baddbmm(torch.zeros(1), torch.ones(()), torch.ones(2, 3, 4)),\n'
        '      lambda: torch.baddbmm(torch.zeros(1), torch.ones(2, 3), torch.ones(2, 3, 4)),\n'
        '      lambda: torch.baddbmm(torch.zeros(1, 2, 2), torch.ones(1, 2, 3).long(), torch.ones(1, 3, 2).long()),\n'
        '      lambda: torch.linalg.multi_dot([torch.ones(3), torch.ones(4)]),\n'
        '      lambda: torch.linalg.multi_dot([torch.ones(4), torch.ones(3, 2)]),\n'
        '      lambda: torch.linalg.multi_dot([torch.ones(2, 3), torch.ones(3, 2), torch.ones(4)]))'),
    # expand checks every dim (from the last) before refusing a negative size; stack's dim is checked before the
    # sizes of its tensors, logcumsumexp's before the dtype
    "expand_negative_sizes_and_stack_dim_first": (
        'x = torch.ones(4, 1)\n'
        'tries(lambda: x.expand(2, -2), lambda: x.expand(4, -2), lambda: x.expand(-2, 3), lambda: x.expand(-1, -2),\n'
        '      lambda: x.expand(-1, 2, 3), lambda: x.expand(3, 4, -2))\n'
        'tries(lambda: torch.stack([torch.ones(2, 1), torch.ones(3)], -4),\n'
        '      lambda: torch.stack([torch.ones(2, 3), torch.ones(3, 2)], 3),\n'
        '      lambda: torch.stack([torch.ones(2, 3), torch.ones(3, 2)], 1),\n'
        '      lambda: torch.ones(2, 3).long().logcumsumexp(2), lambda: torch.ones(2, 3).bool().logcumsumexp(1))'),
    # empty tensors: roll copies one before looking at its dims, a negative repeat of an empty dim gives size 0,
    # index_select of an empty self checks its indices its own way
    "empty_tensors_rolled_tiled_and_indexed": (
        'e = torch.ones(0, 2, requires_grad=True)\n'
        'r = e.roll(1, 5); print(r, r.grad_fn, r.grad_fn._saved_dims)\n'
        'tries(lambda: torch.ones(0).roll(1, 2), lambda: torch.ones(0, 2).roll((1, 2), 0),\n'
        '      lambda: torch.ones(0, 3).t().tile((2, -1)), lambda: torch.ones(0).tile((-1,)),\n'
        '      lambda: torch.ones(0, 3).repeat(2, -1), lambda: torch.ones(2, 3).repeat(2, -1),\n'
        '      lambda: torch.ones(3, 0).index_select(0, torch.tensor([0, 5])),\n'
        '      lambda: torch.ones(0, 3).index_select(1, torch.tensor([0, 5])),\n'
        '      lambda: torch.ones(2, 3).index_select(0, torch.tensor([0, 5])))'),
    # torch.add(a, b, out=b) with b smaller: an out= that is one of the inputs takes part in broadcasting and is not
    # resized (another tensor is, with a warning)
    "out_that_is_an_input_is_not_resized": (
        'for name, f in [("add", lambda a, b: torch.add(a, b, out=b)), ("mul", lambda a, b: torch.mul(a, b, out=b)),\n'
        '                ("where", lambda a, b: torch.where(a > 0, a, b, out=b)),\n'
        '                ("clamp", lambda a, b: torch.clamp(b, a, out=b)),\n'
        '                ("pow", lambda a, b: torch.pow(a, b, out=b)),\n'
        '                ("lerp", lambda a, b: torch.lerp(a, a, b, out=b)),\n'
        '                ("sigmoid", lambda a, b: torch.sigmoid(a, out=b)),\n'
        '                ("sum", lambda a, b: torch.sum(a, 0, out=b)),\n'
        '                ("self", lambda a, b: torch.add(a, b, out=a))]:\n'
        '    a = torch.ones(4, 3); b = torch.ones(3)\n'
        '    try:\n'
        '        f(a, b); print(name, a.shape, b.shape)\n'
        '    except Exception as e:\n'
        '        print(name, type(e).__name__, e)'),
    # out= of any / all must be bool (or uint8); a comparison's out= of another dtype than its inputs' is resized
    # twice (once for the same dtype); stack resizes its out= before cat refuses the dtype
    "out_dtypes_of_any_comparisons_and_stack": (
        'x = torch.randn(3, 4)\n'
        'for d in [torch.float32, torch.uint8, torch.long, torch.bool]:\n'
        '    tries(lambda: torch.any(x, 0, out=torch.empty(4, dtype=d)).dtype,\n'
        '          lambda: torch.all(x, out=torch.empty(4, dtype=d)).dtype)\n'
        'for o in [torch.empty(2, 2), torch.empty(2, dtype=torch.float64), torch.empty(2, dtype=torch.long)]:\n'
        '    print(torch.eq(x, 0, out=o).dtype, torch.lt(x.long(), 1, out=o).dtype)\n'
        'tries(lambda: torch.stack([x, x], out=torch.empty(4, dtype=torch.long)),\n'
        '      lambda: torch.cat([x, x], out=torch.empty(4, dtype=torch.long)))'),
    # writing into an expanded tensor: TensorIterator refuses it before it compares shapes or dtypes
    "inplace_into_an_expanded_tensor_refused_first": (
        'a = torch.ones(1, 3).expand(2, 3)\n'
        'for f in ["remainder_", "fmod_", "hypot_", "floor_divide_", "bitwise_and_", "add_"]:\n'
        '    tries(lambda: getattr(a, f)(torch.ones(2, 1, 3)), lambda: getattr(a.long(), f)(torch.ones(2, 3)))\n'
        'tries(lambda: a.index_fill_(0, torch.tensor([0]), torch.ones(2)),\n'
        '      lambda: torch.ones(2, 3).index_fill(0, torch.tensor([0.]), 0),\n'
        '      lambda: torch.ones(2, 3).index_fill(5, torch.tensor([0.]), 0))'),
    # x[i, j] = v: index tensors that do not broadcast together are refused first (PyTorch's words), then a value
    # that does not fit the indexed shape, and only then an index out of range
    "setitem_index_shapes_value_shape_then_range": (
        'x = torch.zeros(4, 3)\n'
        'def put(k, v):\n'
        '    x[k] = v\n'
        '    return x.sum()\n'
        'tries(lambda: put(([0, 1], [0, 1, 2]), 1.), lambda: put(([0, 1], [0, 1, 2]), torch.ones(5)),\n'
        '      lambda: put([0, 5], torch.ones(3, 1)), lambda: put([0, 5], torch.ones(2, 3)),\n'
        '      lambda: put((torch.tensor([True, False, True, False]), torch.tensor([0, 2, 1])), 5.),\n'
        '      lambda: x.index_put_((torch.tensor([0, 5]),), torch.ones(2, 2)),\n'
        '      lambda: x.index_put_((torch.tensor([0, 9]),), torch.ones(2, 3).long()),\n'
        '      lambda: x.index_put((torch.tensor([0, 1]), torch.tensor([0, 1, 2])), torch.ones(1)))'),
    # nll_loss's checks in PyTorch's order: the target's dtype before its size and the weight, an integer input's
    # missing kernel after them, a 0-d target of an empty batch (its size(0))
    "nll_loss_checks_in_order": (
        'import torch.nn.functional as F\n'
        'x2 = torch.randn(4, 3); x1 = torch.randn(3)\n'
        'tries(lambda: F.nll_loss(x2, torch.zeros(4), weight=torch.ones(4)), lambda: F.nll_loss(x1, torch.zeros(4)),\n'
        '      lambda: F.nll_loss(x1, torch.zeros(4, dtype=torch.long)),\n'
        '      lambda: F.nll_loss(x2.long(), torch.zeros(4).long()),\n'
        '      lambda: F.nll_loss(x2.long(), torch.zeros(4).long(), weight=torch.ones(4)),\n'
        '      lambda: F.nll_loss(x2.int(), torch.tensor([0, 7, 1, 1]), reduction="none"),\n'
        '      lambda: F.nll_loss(torch.randn(0, 3), torch.tensor(1)),\n'
        '      lambda: F.nll_loss(torch.randn(0, 3), torch.tensor(1.)),\n'
        '      lambda: F.nll_loss(torch.randn(4, 3, 2), torch.zeros(4, 2), weight=torch.ones(4)),\n'
        '      lambda: F.nll_loss(torch.randn(4, 3, 2).long(), torch.zeros(4, 2).long(), weight=torch.ones(3)),\n'
        '      lambda: F.cross_entropy(x1, torch.tensor([0., 2., 1., 1.])))'),
    # cross_entropy of a 0-d input: its class dim is 1 (out of range; size(1) with a probability target); the
    # label-smoothed loss views the weight by its size(0)
    "cross_entropy_of_a_0d_input_and_odd_weights": (
        'import torch.nn.functional as F\n'
        'x = torch.randn(())\n'
        'tries(lambda: F.cross_entropy(x, torch.tensor([0, 1])), lambda: F.cross_entropy(x, torch.tensor(1.)),\n'
        '      lambda: F.cross_entropy(x, torch.tensor([1]), weight=torch.ones(3)),\n'
        '      lambda: F.cross_entropy(x, torch.tensor([1]), label_smoothing=0.1),\n'
        '      lambda: F.cross_entropy(torch.randn(4, 3, 2), torch.zeros(4, 2).long(), weight=torch.ones(1, 3),\n'
        '                              label_smoothing=0.2))'),
    # a 1-d input with a [1] target: the forward takes it (a 0-d loss for reduction='none' too), PyTorch's backward
    # refuses it; label smoothing fails at once (its masked_fill_ in place)
    "unbatched_logits_with_a_one_element_target": (
        'import torch.nn.functional as F\n'
        'x = torch.randn(3, requires_grad=True)\n'
        'for r in ["mean", "sum", "none"]:\n'
        '    l = F.nll_loss(x, torch.tensor([1]), reduction=r); print(l, l.shape)\n'
        '    tries(lambda: torch.autograd.grad(l.sum(), x),\n'
        '          lambda: F.cross_entropy(x, torch.tensor([1]), reduction=r, label_smoothing=0.1))\n'
        'l = F.cross_entropy(x, torch.tensor(1)); l.backward(); print(l, x.grad)'),
    # AdaptiveAvgPool2d(1) is a mean over the last two dims before any check of the input's dims (a 2-d input
    # works, a 1-d one and integers fail as mean fails); a tuple size wants one more dim than it has
    "adaptive_avg_pool_one_takes_any_input": (
        'import torch.nn as nn\n'
        'x = torch.randn(4, 3)\n'
        'tries(lambda: nn.AdaptiveAvgPool2d(1)(x), lambda: nn.AdaptiveAvgPool2d(1)(torch.randn(3)),\n'
        '      lambda: nn.AdaptiveAvgPool2d(1)(x.long()), lambda: nn.AdaptiveAvgPool2d((1, 1))(torch.randn(3)),\n'
        '      lambda: nn.AdaptiveAvgPool2d((None, 1))(x), lambda: nn.AdaptiveAvgPool2d(2)(x),\n'
        '      lambda: nn.AdaptiveAvgPool2d((1, None))(torch.randn(2, 1, 3)).shape)\n'
        'y = nn.AdaptiveAvgPool2d(1)(torch.randn(2, 3, 4, 4, requires_grad=True)); print(y.shape, y.grad_fn)'),
    # F.embedding: the weight must be 2-d (checked first); indices out of range give index_select's errors
    "embedding_weight_not_2d": (
        'import torch.nn.functional as F\n'
        'for w in [torch.randn(()), torch.randn(3), torch.randn(4, 3, 1), torch.randn(0, 3), torch.randn(3, 0)]:\n'
        '    tries(lambda: F.embedding(torch.tensor([0, 1]), w), lambda: F.embedding(torch.tensor([[0, 5]]), w),\n'
        '          lambda: F.embedding(torch.tensor([0.]), w))'),
    # conv1d / conv2d compare the input's dtype with the bias's before anything else (the input's dims even);
    # layer_norm its dtypes before its shapes; avg_pool2d has no kernel for integers but long
    "dtype_checks_before_shape_checks": (
        'import torch.nn as nn\n'
        'torch.manual_seed(0)\n'
        'c2 = nn.Conv2d(3, 2, 1); c1 = nn.Conv1d(3, 2, 1)\n'
        'for x in [torch.randn(4, 3).double(), torch.arange(12).view(4, 3), torch.randn(2, 4, 5, 5).half()]:\n'
        '    tries(lambda: c2(x), lambda: c1(x), lambda: nn.Conv2d(3, 2, 1, bias=False)(x),\n'
        '          lambda: nn.LayerNorm(5)(x), lambda: nn.LayerNorm(3)(x.double()))\n'
        'tries(lambda: nn.AvgPool2d(2)(torch.ones(1, 3, 4, 4, dtype=torch.int32)),\n'
        '      lambda: nn.AvgPool2d(2)(torch.ones(1, 3, 4, 4, dtype=torch.long)))'),
    # batch_norm of an empty batch: PyTorch's shortcut (a clone times weight[0] plus bias[0]) before any check;
    # a 1-d input reads its size 1 unchecked (0 features) or fails on it
    "batch_norm_of_an_empty_or_1d_batch": (
        'import torch.nn as nn, torch.nn.functional as F\n'
        'for m in [nn.BatchNorm1d(3), nn.BatchNorm1d(4), nn.BatchNorm1d(3, affine=False)]:\n'
        '    x = torch.randn(0, 3, requires_grad=True)\n'
        '    y = m(x); print(y, m.running_mean, m.num_batches_tracked)\n'
        '    y.sum().backward(); print(x.grad.shape)\n'
        'tries(lambda: F.batch_norm(torch.randn(4), None, None, training=True),\n'
        '      lambda: F.batch_norm(torch.randn(4), torch.zeros(4), torch.ones(4)),\n'
        '      lambda: nn.BatchNorm1d(4)(torch.randn(4)), lambda: nn.BatchNorm1d(4).eval()(torch.randn(0, 4)))'),
    # losses that add an eps to integer inputs: the sum is a float (ATen's x + eps), so integers work; those that
    # compute in the input's buffer refuse them (soft_margin_loss: its mul_ / exp_ in place); BCE with logits
    # multiplies by its pos_weight (which may not broadcast bigger) before (1 - target).mul_(input) refuses integers
    "integer_inputs_of_losses": (
        'import torch.nn.functional as F\n'
        'x = torch.arange(12).view(4, 3)\n'
        'tries(lambda: F.pairwise_distance(x, x.flip(0)),\n'
        '      lambda: F.cosine_embedding_loss(x, x.flip(0), torch.tensor([1, -1, 1, -1])),\n'
        '      lambda: F.pairwise_distance(x.byte(), x.byte()), lambda: F.soft_margin_loss(x, x),\n'
        '      lambda: F.soft_margin_loss(x, x.double()), lambda: F.soft_margin_loss(x.bool(), x.float()),\n'
        '      lambda: F.soft_margin_loss(x.float(), x),\n'
        '      lambda: F.binary_cross_entropy_with_logits(torch.randn(()), torch.tensor(1),\n'
        '                                                 pos_weight=torch.ones(3)),\n'
        '      lambda: F.binary_cross_entropy_with_logits(x.float(), x, pos_weight=torch.ones(2)))'),
    # mse_loss of a half input and an integer target computes in half, as the half target does (ties rounded to
    # even in each step)
    "mse_loss_half_input_integer_target": (
        'import torch.nn.functional as F\n'
        'torch.manual_seed(0)\n'
        'x = (torch.rand(64) * 3).half(); t = torch.randint(0, 3, (64,))\n'
        'print(F.mse_loss(x, t, reduction="none")[:8], F.mse_loss(x, t), F.mse_loss(x, t.half()))\n'
        'print(F.mse_loss(torch.rand(64) * 3, t), F.mse_loss(x.float(), t.double()))'),
    # pointwise ops given a wrong argument: the parser's errors in the order of the arguments (addcdiv's tensors
    # before its value, both before its integer-division error; where(cond, None, None) is no where(cond)); lerp
    # checks the weight's dtype, then the shapes, then whether its kernel takes integers
    "pointwise_ops_given_wrong_arguments": (
        'x = torch.randn(2, 3); xi = torch.arange(6).view(2, 3)\n'
        'tries(lambda: torch.addcdiv(x, 2, torch.ones(3)), lambda: torch.addcdiv(xi, 2, xi, value="a"),\n'
        '      lambda: torch.addcmul(xi, 2, xi, value="a"), lambda: torch.addcdiv(xi, xi, xi, value=None),\n'
        '      lambda: torch.addcdiv(x, None, None), lambda: torch.addcdiv(xi, xi, xi).shape,\n'
        '      lambda: torch.where(x > 0, None, None), lambda: torch.where(x > 0, x, None),\n'
        '      lambda: torch.where(x > 0),\n'
        '      lambda: torch.lerp(xi, xi, torch.ones(4)), lambda: torch.lerp(xi, xi, torch.ones(4).long()),\n'
        '      lambda: torch.lerp(xi, torch.ones(4, 3).long(), 0.5),\n'
        '      lambda: torch.lerp(xi, xi, torch.ones(3).long()),\n'
        '      lambda: torch.lerp(x, torch.ones(4, 3), torch.ones(3).double()))'),
    # jacobian of a function with an empty output: PyTorch stacks no rows
    "jacobian_of_an_empty_output": (
        'J = torch.autograd.functional.jacobian\n'
        'tries(lambda: J(lambda t: t * 2, torch.ones(0)), lambda: J(lambda t: t[:0] * 2, torch.ones(3)),\n'
        '      lambda: J(lambda t: t.sum(), torch.ones(0)), lambda: J(lambda t: t * 2, torch.ones(2)))'),
}


@pytest.mark.parametrize("name", SNIPPETS)
def test_snippet(name):
    code = TRIES + SNIPPETS[name]
    t, e = run_both(T, E, code)
    assert same(t, e), f"\n{code}\n--- torch\n{t.summary()}--- engine\n{e.summary()}"
