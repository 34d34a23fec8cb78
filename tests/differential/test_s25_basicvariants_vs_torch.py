"""Beginners' basics on edge inputs against real PyTorch, as a learner pastes tutorial code and then tweaks it:
activations' gradients at NaN (PyTorch's vector loop and its scalar loop disagree there, so which elements get which
depends on the length and dtype), softshrink of NaN, double-precision results to the last bit (log_softmax's
backward along the last dim, tanh / silu / gelu's gradients and add / sub with alpha: fused multiply-adds; log10's
gradient constant; celu's gradient with alpha rounded to float), F.gumbel_softmax, F.threshold's name in its errors;
and, pinned, creation from mixed and ragged lists, Python scalars of every type against int / bool / double
tensors, reductions over dim tuples and 0-d tensors, item() and friends, view vs reshape, matmul's shape
combinations, indexing errors and broadcasting errors, word for word."""
import pytest

T = pytest.importorskip("torch", reason="differential tests need real PyTorch (pip install torch==2.13.0)")
from .harness import SHOW, load_engine, run_both, same, skip_unless_engine_cpu  # noqa: E402

E = load_engine()

SNIPPETS = {
    # hardtanh / relu6's gradient at NaN: 0 in PyTorch's vector loop (one vector, 16 floats or 8 doubles, at a
    # time: it keeps the gradient where min < x < max), the gradient in its scalar loop for the rest
    "hardtanh_and_relu6_grads_at_nan": (
        'import torch.nn.functional as F\n'
        'for dt in (torch.float32, torch.float64):\n'
        '    for n in (1, 8, 17, 40):\n'
        '        for f in (F.hardtanh, F.relu6, lambda x: F.hardtanh(x, -2., 2.)):\n'
        '            x = torch.full((n,), float("nan"), dtype=dt, requires_grad=True)\n'
        '            f(x).sum().backward(); print(dt, n, x.grad)\n'
        'x = torch.tensor([float("nan"), 0.5, 3.] * 6, dtype=torch.float64, requires_grad=True)\n'
        'y = F.hardtanh(x * 1, inplace=True); y.backward(torch.full_like(y, 2.)); print(y.grad_fn, x.grad)'),
    # softshrink keeps NaN in both loops; softshrink / hardshrink's gradient at NaN as hardtanh's
    "shrinks_at_nan": (
        'import torch.nn.functional as F\n'
        'for dt in (torch.float32, torch.float64):\n'
        '    for n in (1, 8, 17, 40):\n'
        '        for f in (F.softshrink, F.hardshrink, lambda x: F.softshrink(x, 2.)):\n'
        '            x = torch.full((n,), float("nan"), dtype=dt, requires_grad=True)\n'
        '            y = f(x); y.sum().backward(); print(dt, n, y.detach(), x.grad)\n'
        'x = torch.tensor([float("nan"), 0.2, -3.] * 12, requires_grad=True)\n'
        'y = F.softshrink(x); show(y); y.backward(torch.ones_like(y)); print(x.grad)'),
    # elu, selu, celu and hardswish's gradient at NaN: NaN in the vector loop (two vectors at a time: 32 floats,
    # 16 doubles, 64 halves), the gradient times the scale in the scalar loop
    "elu_family_and_hardswish_grads_at_nan": (
        'import torch.nn.functional as F\n'
        'for dt, n in ((torch.float32, 8), (torch.float32, 40), (torch.float64, 17), (torch.float16, 33),\n'
        '              (torch.float16, 70)):\n'
        '    for f in (F.elu, F.selu, F.celu, lambda x: F.elu(x, alpha=0.5), F.hardswish):\n'
        '        x = torch.full((n,), float("nan"), dtype=dt, requires_grad=True)\n'
        '        f(x).sum().backward(); print(dt, n, x.grad)\n'
        'x = torch.tensor([float("nan"), -2., 2.] * 12, requires_grad=True)\n'
        'y = F.elu(x * 1, inplace=True); y.backward(torch.full_like(y, 2.)); print(y.grad_fn, x.grad)'),
    # the classic edge rows through softmax / log_softmax in double along the last dim: log_softmax's backward
    # g - exp(y) * sum(g) is one fused multiply-add in PyTorch's kernel (5.5511e-17, not 0, for a row of zeros)
    "log_softmax_double_backward_along_rows": (
        'import torch.nn.functional as F\n'
        'inf, nan = float("inf"), float("nan")\n'
        'rows = [[0., 0., 0.], [inf, 0., 1.], [-inf, -inf, -inf], [nan, 1., 2.], [1000., 0., -1000.],\n'
        '        [-inf, 0., 1.], [1e30, 1e30, 1e30], [88., 89., 90.], [-100., -100., -100.]]\n'
        'x = torch.tensor(rows, dtype=torch.float64, requires_grad=True)\n'
        'for d in (0, 1, -1):\n'
        '    for f in (F.softmax, F.log_softmax):\n'
        '        y = f(x, d); print(y); (y * torch.arange(3.)).sum().backward(); print(x.grad); x.grad = None\n'
        'v = torch.tensor([1., 2., 3.], dtype=torch.float64, requires_grad=True)\n'
        'F.log_softmax(v, 0).backward(torch.tensor([1., 0., 0.], dtype=torch.float64)); print(v.grad)'),
    # double-precision gradients to the last bit: log10's constant is derivatives.yaml's 2.3025850929940456 (a
    # double below math.log(10)); tanh's 1 - y * y, silu's 1 + x * (1 - s) and gelu's cdf + x * pdf are fused
    # multiply-adds in the compiled kernels; gelu's erf takes x * M_SQRT1_2
    "double_grads_to_the_last_bit": (
        'import torch.nn.functional as F\n'
        'x = torch.tensor([0.3, 1.7, 2.9, 5., 10.], dtype=torch.float64, requires_grad=True)\n'
        'x.log10().sum().backward(); print(x.grad.tolist())\n'
        'x = torch.tensor([-4.4, -4.0, -3.52, -3.09, -3.03] * 4, dtype=torch.float64, requires_grad=True)\n'
        'y = x.tanh(); y.sum().backward(); print(y.tolist()[:5], x.grad.tolist()[:5], x.grad.tolist()[-5:])\n'
        'v = torch.tensor([-5.01, -4.38, -2.89, -2.5, 0.3, 2.9], dtype=torch.float64, requires_grad=True)\n'
        'F.silu(v).sum().backward(); print(v.grad.tolist())\n'
        'x = torch.tensor([0.3, -1.7, 2.9, 0.05, -3.5, 1.25, 20., -0.75], dtype=torch.float64, requires_grad=True)\n'
        'y = F.gelu(x); y.sum().backward(); print(x.grad.tolist())\n'
        'x.grad = None; y = F.gelu(x[:1]); y.sum().backward(); print(x.grad.tolist())'),
    # add / sub with alpha on double tensors: a + alpha * b in one fused multiply-add (ufunc::add's vec::fmadd),
    # as for floats; the gradient times alpha
    "add_and_sub_with_alpha_in_double": (
        'a = torch.randn(20, dtype=torch.float64, requires_grad=True); b = torch.randn(20, dtype=torch.float64)\n'
        'y = torch.add(a, b, alpha=0.3); print(y.tolist()); print(torch.sub(a, b, alpha=1.7).tolist())\n'
        'print(a.detach().clone().add_(b, alpha=-0.01).tolist(), torch.rsub(a, b, alpha=0.3).tolist()[:5])\n'
        'show(y); y.sum().backward(); print(a.grad[:3])\n'
        'tries(lambda: torch.add(a, b, alpha=True), lambda: torch.add(a.long(), b.long(), alpha=0.5))'),
    # celu's gradient takes 1.0 / alpha.toFloat() (alpha rounded to float: derivatives.yaml), in and out of place,
    # and saves it for double backward; an alpha past float's range fails there
    "celu_grad_with_alpha_as_float": (
        'import torch.nn.functional as F\n'
        'x = torch.tensor([-1.0, -2.0, 0.5], dtype=torch.float64, requires_grad=True)\n'
        'y = F.celu(x * 1, 0.7, inplace=True); y.backward(torch.ones(3, dtype=torch.float64)); print(y.grad_fn, x.grad.tolist())\n'
        'y = F.celu(x, 0.7); g, = torch.autograd.grad(y.sum(), x, create_graph=True)\n'
        'print(g.grad_fn, g.grad_fn._saved_input_scale, g.grad_fn._saved_alpha, g.tolist())\n'
        'print(torch.autograd.grad(g.sum(), x)[0].tolist(), torch.autograd.grad(F.celu(x.float(), 0.3).sum(), x)[0].tolist())\n'
        'for a in (1e40, float("inf"), 2, -0.5):\n'
        '    tries(lambda: torch.autograd.grad(F.celu(x, a).sum(), x)[0].tolist())'),
    # F.gumbel_softmax, soft and hard (straight-through), its noise drawn as PyTorch draws it
    "gumbel_softmax": (
        'import torch.nn.functional as F\n'
        'logits = torch.tensor([[1., 2., 0.5], [0., 0., 0.]], requires_grad=True)\n'
        'y = F.gumbel_softmax(logits, tau=0.5); show(y); y[:, 0].sum().backward(); print(logits.grad)\n'
        'logits.grad = None\n'
        'y = F.gumbel_softmax(logits, hard=True); show(y); (y * torch.arange(3.)).sum().backward(); print(logits.grad)\n'
        'print(F.gumbel_softmax(logits, dim=0, eps=1e-5), F.gumbel_softmax(logits.detach().double(), tau=2))\n'
        'tries(lambda: F.gumbel_softmax(logits, dim=2), lambda: F.gumbel_softmax([1., 2.]),\n'
        '      lambda: F.gumbel_softmax(torch.tensor([1, 2])), lambda: F.gumbel_softmax(logits, tau=0))'),
    # activations' arguments wrong or missing: F.threshold is PyTorch's _threshold underneath (its errors say so)
    "activation_arguments_wrong": (
        'import torch.nn.functional as F\n'
        'x = torch.tensor([-1., 0., 1.])\n'
        'tries(lambda: F.threshold(x, 0.5), lambda: F.threshold.__name__, lambda: F.hardtanh(x, 1, -1),\n'
        '      lambda: F.softplus(x, beta=0), lambda: F.gelu(x, approximate="bad"), lambda: F.gelu(x, "tanh"),\n'
        '      lambda: F.softshrink(x, -1), lambda: F.hardshrink(x, -1), lambda: F.relu(x, True),\n'
        '      lambda: F.leaky_relu(x, torch.tensor(0.1)), lambda: F.softmax(x, 0, torch.int64),\n'
        '      lambda: F.log_softmax(x, dim=(0,)), lambda: F.elu(x, alpha=torch.tensor(1.)))'),
    # nested lists of mixed int / float / bool, ragged and empty lists, a tensor of tensors
    "tensor_from_mixed_and_ragged_lists": (
        'for v in ([1, 2.5, True], [True, False], [1, True], [[1, 2], [3., 4]], [], [[]], [[], []],\n'
        '          [[True, 2], [3, 4]], [2**40, 1], [1e40]):\n'
        '    x = torch.tensor(v); print(repr(x), x.dtype, x.shape)\n'
        'a = torch.tensor([1., 2.])\n'
        'tries(lambda: torch.tensor([[1, 2], [3]]), lambda: torch.tensor([[1, 2], 3]), lambda: torch.tensor([1, [2, 3]]),\n'
        '      lambda: torch.tensor([[1], []]), lambda: torch.tensor(["a"]), lambda: torch.tensor([None]),\n'
        '      lambda: torch.tensor([1, None]), lambda: torch.tensor(a), lambda: torch.tensor([a, a]),\n'
        '      lambda: torch.tensor([torch.tensor(1), 2.5]), lambda: torch.tensor(range(3)),\n'
        '      lambda: torch.zeros((2, 3), 4), lambda: torch.ones((2,), (3,)), lambda: torch.zeros(2, -3),\n'
        '      lambda: torch.full((2,), 1.5, dtype=torch.int64), lambda: torch.full(2, 1.), lambda: torch.zeros(2.5))'),
    # Python scalars of each type against int / bool / double tensors: promotion, //, %, ** with negative ints
    "python_scalars_against_int_bool_double": (
        'i = torch.tensor([-7, -1, 0, 3]); b = torch.tensor([True, False]); d = torch.tensor([-2.5, 3.], dtype=torch.float64)\n'
        'for s in (2, -3, 2.5, True, 0):\n'
        '    for t in (i, b, d):\n'
        '        for op in ("+", "-", "*", "/", "//", "%", "**"):\n'
        '            for e in ("t %s s", "s %s t"):\n'
        '                try:\n'
        '                    r = eval(e % op); print(e % op, s, r, r.dtype)\n'
        '                except Exception as ex: print(e % op, s, type(ex).__name__, ex)'),
    # sum / mean over dim tuples, negative, repeated and empty dims, keepdim, on ints, on 0-d and empty tensors
    "reductions_over_dim_tuples_and_0d": (
        'x = torch.arange(24.).view(2, 3, 4); i = torch.arange(6).view(2, 3); s = torch.tensor(3.); e = torch.zeros(0, 3)\n'
        'tries(lambda: x.sum((0, -1), keepdim=True), lambda: x.sum((0, 0)), lambda: x.sum((0, -3)), lambda: x.sum((1, 5)),\n'
        '      lambda: x.sum(()), lambda: x.mean([]), lambda: i.mean(), lambda: i.mean(0), lambda: i.mean(dtype=torch.float64),\n'
        '      lambda: i.sum(0).dtype, lambda: s.sum(0), lambda: s.sum(-1), lambda: s.sum(1), lambda: s.mean((0, 0)),\n'
        '      lambda: s.max(0), lambda: s.softmax(1), lambda: e.sum(0), lambda: e.mean(0), lambda: e.mean(), lambda: e.max(0),\n'
        '      lambda: e.amax(1), lambda: torch.tensor([]).prod(), lambda: torch.tensor([True, True]).sum(0),\n'
        '      lambda: x.sum(1.0), lambda: x.sum(torch.tensor(0)))'),
    # item() / tolist() / int() / float() / index use of int, bool, double, 0-d and multi-element tensors
    "item_and_friends": (
        'for x in (torch.tensor(3), torch.tensor(True), torch.tensor(2.5, dtype=torch.float64), torch.tensor([7]),\n'
        '          torch.tensor([[1.5]]), torch.tensor([1, 2]), torch.tensor([]), torch.tensor(float("nan"))):\n'
        '    tries(lambda: x.item(), lambda: x.tolist(), lambda: int(x), lambda: float(x), lambda: bool(x),\n'
        '          lambda: [10, 20, 30][x], lambda: "%.2f" % x, lambda: f"{x:.3f}", lambda: len(x))'),
    # view of a transposed tensor (the error's advice), -1 inference errors, view with a dtype
    "view_reshape_errors": (
        'x = torch.arange(12.).view(3, 4); t = x.t()\n'
        'tries(lambda: t.view(12), lambda: t.reshape(12), lambda: x.view(5, -1), lambda: x.view(-1, -1),\n'
        '      lambda: x.reshape(-1, 5), lambda: torch.zeros(0, 3).view(-1), lambda: torch.zeros(0, 3).view(-1, 0),\n'
        '      lambda: x.view(2, -2), lambda: x[:, ::2].view(6), lambda: x.view(torch.int8).shape, lambda: x.view(13),\n'
        '      lambda: x.unflatten(1, (3, -1)), lambda: x.view(2.0, 6))'),
    # matmul of 1-d / 2-d / 3-d combinations, and their shape and dtype errors
    "matmul_shapes": (
        'a1 = torch.arange(3.); a2 = torch.arange(6.).view(2, 3); a3 = torch.arange(24.).view(4, 2, 3)\n'
        'b2 = torch.arange(6.).view(3, 2); b3 = torch.arange(12.).view(2, 3, 2)\n'
        'for x, y in ((a1, a1), (a2, a1), (a1, b2), (a3, a1), (a1, b3), (a3, b2), (a2, b3), (a3, b3), (a1, a2),\n'
        '             (a2, a2), (a3, a2), (a1, torch.arange(4.)), (torch.tensor(2.), a1), (a2.long(), b2)):\n'
        '    tries(lambda: (x @ y).shape)\n'
        'tries(lambda: torch.mm(a1, a1), lambda: torch.bmm(a2, b2), lambda: torch.mv(a2, b2), lambda: torch.dot(a2, a2))'),
    # indexing past the end, with tensors, masks of the wrong shape, and assignment that must broadcast
    "indexing_errors_and_assignment": (
        'x = torch.arange(12).view(3, 4)\n'
        'tries(lambda: x[3], lambda: x[0, -5], lambda: x[torch.tensor([3])], lambda: x[:, torch.tensor([4])],\n'
        '      lambda: x[torch.tensor([True, False])], lambda: x[x.float()], lambda: x[[0, 1], [0, 1, 2]],\n'
        '      lambda: x[0, 0, 0], lambda: x[torch.tensor(1.)], lambda: x[torch.tensor([])], lambda: x[None, ..., ::-1])\n'
        'y = torch.zeros(3, 4)\n'
        'def put(k, v):\n'
        '    try:\n'
        '        y[k] = v; print(y.sum())\n'
        '    except Exception as e: print(type(e).__name__, e)\n'
        'put(1, torch.tensor([1., 2.])); put(slice(None), torch.ones(4, 3)); put(0, torch.ones(2, 4))\n'
        'put(y > 0.5, torch.tensor([1., 2.])); put(0, [1, 2]); put((slice(None), 0), torch.ones(3, 1))'),
    # broadcasting errors, word for word, in and out of place
    "broadcast_errors": (
        'a = torch.zeros(2, 3); b = torch.zeros(3, 2); c = torch.zeros(4)\n'
        'tries(lambda: a + b, lambda: a * c, lambda: a - torch.zeros(2), lambda: torch.zeros(2, 3, 4) + torch.zeros(3, 3),\n'
        '      lambda: a / torch.zeros(0), lambda: torch.broadcast_shapes((2, 3), (3, 2)), lambda: a.expand(3, 3),\n'
        '      lambda: a.add_(torch.zeros(2, 2, 3)), lambda: a.mul_(torch.zeros(3, 1)), lambda: a.copy_(b),\n'
        '      lambda: torch.where(a > 0, a, b), lambda: a == b)'),
}


# Where PyTorch's vector loop ends depends on the CPU's vector width (see the harness)
KERNEL_WIDTH = {"elu_family_and_hardswish_grads_at_nan"}


@pytest.mark.parametrize("name", SNIPPETS)
def test_snippet(name):
    if name in KERNEL_WIDTH:
        skip_unless_engine_cpu("the elu family's gradient at NaN")
    code = SHOW + SNIPPETS[name]
    t, e = run_both(T, E, code)
    assert same(t, e), f"\n{code}\n--- torch\n{t.summary()}--- engine\n{e.summary()}"
