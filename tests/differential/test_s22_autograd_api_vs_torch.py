"""The autograd API beyond .backward() against real PyTorch (session 22): autograd.grad and backward's arguments,
hooks, torch.autograd.functional, custom Functions, gradcheck, grad modes and inference mode. Printed text, warnings
and the final error must be the same."""
import pytest

T = pytest.importorskip("torch", reason="differential tests need real PyTorch (pip install torch==2.13.0)")
from .harness import TRIES, load_engine, run_both, same  # noqa: E402

E = load_engine()

SNIPPETS = {
    # an in-place op on an inference tensor outside inference mode writes, then fails where the version would move
    # (views, out=, resize_ to another size, metadata ops, a .grad made in inference mode added to); what PyTorch
    # does to weight.detach() (embedding's max_norm) or skips for inference tensors (increment_version) is allowed
    "inference_tensor_changed_in_place_outside_is_written_then_refused": TRIES + (
        'with torch.inference_mode():\n'
        '    t = torch.tensor([[1., 2.], [3., 4.]])\n'
        '    g = torch.ones(2)\n'
        'for f in [lambda: t.add_(1), lambda: t.zero_(), lambda: t.copy_(torch.ones(2, 2) * 5), lambda: t[1:].mul_(3),\n'
        '          lambda: t.__setitem__((0, 0), 9.), lambda: t.masked_fill_(t > 8, 7.), lambda: t.index_add_(0,\n'
        '          torch.tensor([0]), torch.ones(1, 2)), lambda: torch.mul(t, 2, out=t), lambda: t.t_(), lambda: t.resize_(2, 2),\n'
        '          lambda: t.clamp_min_(16.), lambda: t.pow_(2), lambda: t.add_(torch.ones(3)), lambda: t.unsqueeze_(0),\n'
        '          lambda: t.resize_(4), lambda: t.set_(torch.zeros(3))]:\n'
        '    tries(f)\n'
        '    print(t, t.shape)\n'
        'x = torch.ones(2, requires_grad=True)\n'
        'x.grad = g\n'
        'tries(lambda: (x * 2).sum().backward())\n'
        'print(x.grad)\n'
        'with torch.inference_mode():\n'
        '    print(t.add_(1), g.add_(1))\n'
        '    e = torch.nn.Embedding(3, 2, max_norm=0.1)\n'
        'torch.autograd.graph.increment_version([t, t.detach()])\n'
        'print(e(torch.tensor([0, 1])))'),
    # detach() and .data of an inference tensor outside inference mode are inference tensors with a version counter
    # of their own (in-place changes allowed and counted); their views have none
    "inference_tensor_detached_outside_counts_versions": TRIES + (
        'with torch.inference_mode():\n'
        '    t = torch.ones(3)\n'
        '    print(t.detach().is_inference(), t.data.is_inference())\n'
        '    tries(lambda: t.detach()._version)\n'
        'for d in [t.detach(), t.data, t.detach().detach()]:\n'
        '    print(d.is_inference(), d._version, d.add_(1), d._version, t)\n'
        '    tries(lambda: d[1:].add_(1), lambda: d[1:]._version, lambda: d.requires_grad_())\n'
        '    with torch.inference_mode():\n'
        '        d.add_(1)\n'
        '    print(d._version, t)\n'
        'a = t.detach(); b = a.detach(); b.add_(1)\n'
        'print(a._version, b._version)'),
    # an op on an inference tensor saves it only if it records: without inputs requiring grad (or under no_grad)
    # it computes; with one it refuses (custom Functions too; kron's _unsafe_view of one is one too)
    "inference_tensor_saved_only_when_the_op_records": TRIES + (
        'with torch.inference_mode():\n'
        '    t = torch.tensor([0.5, 1.5, 2.0])\n'
        'x = torch.tensor([1., 2., 3.], requires_grad=True)\n'
        'F = torch.nn.functional\n'
        'tries(lambda: t ** 2, lambda: t.clamp_min(1), lambda: F.mse_loss(t, t * 2), lambda: t.norm(), lambda: t.max(),\n'
        '      lambda: t @ t, lambda: x * t, lambda: t ** x, lambda: x.clamp(t, None), lambda: F.mse_loss(x, t),\n'
        '      lambda: torch.kron(t, t), lambda: torch.kron(x, t))\n'
        'with torch.no_grad():\n'
        '    print(t ** 2, x * t, t.norm())\n'
        'class Mul(torch.autograd.Function):\n'
        '    @staticmethod\n'
        '    def forward(ctx, a, b):\n'
        '        ctx.save_for_backward(a, b)\n'
        '        return a * b\n'
        '    @staticmethod\n'
        '    def backward(ctx, g):\n'
        '        a, b = ctx.saved_tensors\n'
        '        return g * b, g * a\n'
        'tries(lambda: Mul.apply(t, t), lambda: Mul.apply(x, t), lambda: Mul.apply(t, x))\n'
        'with torch.inference_mode():\n'
        '    print(Mul.apply(x, t))'),
    # gradcheck(fast_mode=True) compares v^T J u for random unit vectors (its own Generator): its failure gives those
    # numbers, then the slow mode's Jacobians, and says when slow mode would have passed
    "gradcheck_fast_mode_compares_random_projections": TRIES + (
        'from torch.autograd import gradcheck, gradgradcheck\n'
        'class Off(torch.autograd.Function):\n'
        '    @staticmethod\n'
        '    def forward(ctx, x, y):\n'
        '        ctx.save_for_backward(x, y)\n'
        '        return x * y, x * torch.tensor([2., -2., 2., -2.], dtype=torch.float64)\n'
        '    @staticmethod\n'
        '    def backward(ctx, g1, g2):\n'
        '        x, y = ctx.saved_tensors\n'
        '        return g1 * y + g2 * torch.tensor([2.0015, -1.9985, 2.0015, -1.9985], dtype=torch.float64), g1 * x.detach()\n'
        'x = torch.tensor([0.5, 1.5, 2.5, 1.0], dtype=torch.float64, requires_grad=True)\n'
        'y = torch.tensor([1.0, -1.0, 0.7, 0.2], dtype=torch.float64, requires_grad=True)\n'
        'tries(lambda: gradcheck(Off.apply, (x, y), fast_mode=True, atol=0), lambda: gradcheck(Off.apply, (x, y), atol=0),\n'
        '      lambda: gradcheck(Off.apply, (x, y), fast_mode=True), lambda: gradgradcheck(Off.apply, (x, y), fast_mode=True),\n'
        '      lambda: gradcheck(lambda a: (a.argmax(), a.exp(), a.sum() * 2), (x,), fast_mode=True),\n'
        '      lambda: gradcheck(lambda a: a.detach() * a.detach().sum(), (x,), fast_mode=True))'),
    # an input a custom Function marks dirty is checked as by an in-place op (a leaf, a view of a leaf, a no_grad
    # view, an output of unbind); one that is not recorded (no_grad, non-differentiable) comes back detached
    "custom_function_dirty_input_checked_as_an_inplace_op": TRIES + (
        'class Dv(torch.autograd.Function):\n'
        '    @staticmethod\n'
        '    def forward(ctx, x):\n'
        '        x.mul_(2)\n'
        '        ctx.mark_dirty(x)\n'
        '        return x\n'
        '    @staticmethod\n'
        '    def backward(ctx, g):\n'
        '        return g * 2\n'
        'class Nd(Dv):\n'
        '    @staticmethod\n'
        '    def forward(ctx, x):\n'
        '        x.mul_(2)\n'
        '        ctx.mark_dirty(x)\n'
        '        ctx.mark_non_differentiable(x)\n'
        '        return x\n'
        'a = torch.tensor([1., 2., 3.], requires_grad=True)\n'
        'b = a * 1\n'
        'with torch.no_grad():\n'
        '    v, w = a[:2], b[:2]\n'
        'tries(lambda: Dv.apply(a[:2]), lambda: Dv.apply(a.view(3)), lambda: Dv.apply(v), lambda: Dv.apply(w),\n'
        '      lambda: Dv.apply(b.unbind()[0]), lambda: Dv.apply(b.split(1)[0]), lambda: Dv.apply(a))\n'
        'print(a, b)\n'
        'p = torch.tensor([1., 2.])\n'
        'with torch.no_grad():\n'
        '    for x in [a[:1], b, p]:\n'
        '        r = Dv.apply(x)\n'
        '        print(r is x, r, r.requires_grad, r._base is x, r._version, x._version, r.is_leaf)\n'
        'for x in [b * 1, p * 1, (b * 1)[1:]]:\n'
        '    r = Nd.apply(x)\n'
        '    print(r is x, r, r.requires_grad, r._base is x, r._version, x._version, r.is_leaf, x.grad_fn)\n'
        'c = b * 1\n'
        'r = Dv.apply(c[1:])\n'
        'print(r, c)\n'
        'c.sum().backward()\n'
        'print(a.grad)'),
    # inference_mode(mode).mode is the mode given (inference on), and clone() keeps it
    "inference_mode_object_keeps_its_mode": (
        'for im in [torch.inference_mode(), torch.inference_mode(False), torch.inference_mode(True).clone()]:\n'
        '    print(type(im).__name__, im.mode, im.clone().mode)\n'
        '    with torch.no_grad():\n'
        '        with im.clone():\n'
        '            print(torch.is_inference_mode_enabled(), torch.is_grad_enabled())\n'
        '@torch.inference_mode(False)\n'
        'def gen():\n'
        '    yield torch.is_inference_mode_enabled(), torch.is_grad_enabled()\n'
        'with torch.inference_mode():\n'
        '    print(list(gen()), torch.is_inference_mode_enabled())'),
    # autograd.grad(is_grads_batched=True) takes grad_output[0] first: a 0-d grad_output is PyTorch's IndexError
    "grads_batched_takes_the_first_vector_first": TRIES + (
        'x = torch.tensor([1., 2., 3.], requires_grad=True)\n'
        'y = x ** 2\n'
        'tries(lambda: torch.autograd.grad(y.sum(), x, torch.ones(()), retain_graph=True, is_grads_batched=True),\n'
        '      lambda: torch.autograd.grad(y.sum(), x, torch.tensor([1., 2.]), retain_graph=True, is_grads_batched=True),\n'
        '      lambda: torch.autograd.grad(y, x, torch.eye(3)[:2], retain_graph=True, is_grads_batched=True),\n'
        '      lambda: torch.autograd.grad(y, x, torch.ones(3), retain_graph=True, is_grads_batched=True))'),
    # torch.autograd.set_multithreading_enabled / is_multithreading_enabled / is_view_replay_enabled: a flag set at
    # once and put back by a with block (the process-wide state is put back at the end)
    "multithreading_flag_set_at_once_and_restored": TRIES + (
        'print(torch.autograd.is_multithreading_enabled(), torch.autograd.is_view_replay_enabled())\n'
        'tries(lambda: torch.autograd.set_multithreading_enabled(1))\n'
        'c = torch.autograd.set_multithreading_enabled(False)\n'
        'print(type(c).__name__, type(c).__module__, torch.autograd.is_multithreading_enabled(), c.mode, c.prev)\n'
        'with c as r:\n'
        '    print(r, torch.autograd.is_multithreading_enabled())\n'
        'print(torch.autograd.is_multithreading_enabled())\n'
        '@torch.autograd.set_multithreading_enabled(False)\n'
        'def f():\n'
        '    return torch.autograd.is_multithreading_enabled()\n'
        'print(torch.autograd.is_multithreading_enabled(), f(), torch.autograd.is_multithreading_enabled())\n'
        'with torch.autograd.grad_mode.set_multithreading_enabled(True):\n'
        '    x = torch.tensor([1., 2.], requires_grad=True)\n'
        '    (x * 2).sum().backward()\n'
        '    print(x.grad, torch.autograd.is_multithreading_enabled())\n'
        'print(torch.autograd.is_multithreading_enabled())\n'
        'torch.autograd.set_multithreading_enabled(True)'),
}


@pytest.mark.parametrize("name", SNIPPETS)
def test_snippet(name):
    code = SNIPPETS[name]
    t, e = run_both(T, E, code)
    assert same(t, e), f"\n{code}\n--- torch\n{t.summary()}--- engine\n{e.summary()}"
