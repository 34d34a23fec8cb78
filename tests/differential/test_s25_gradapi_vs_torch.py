"""The autograd entry points as learners call them, against real PyTorch (session 25): tensor.backward(gradient=...)
and torch.autograd.backward / grad given wrong shapes, dtypes, numbers, lists, several outputs (PyTorch finds the
indices of its shape message with tuple.index, so == between tensors shows), non-scalar outputs without a gradient,
unused inputs and inputs that need no grad; autograd.grad handing back the gradient it was given where nothing changes
it (the same object, requiring grad if it does); .grad read on non-leaves, set to wrong values, set to an expanded
view and added to; non-leaf `inputs=` of backward; a set_grad_enabled object entered later (it sets its mode again);
grad modes left by exceptions and nested in decorators; anomaly mode naming the node whose hooks failed (a leaf's
AccumulateGrad too) and the node returning nan. Printed text, warnings and the final error must be the same."""
import pytest

T = pytest.importorskip("torch", reason="differential tests need real PyTorch (pip install torch==2.13.0)")
from .harness import TRIES, load_engine, run_both, same  # noqa: E402

E = load_engine()

SNIPPETS = {
    # backward(gradient=...) of the wrong shape, dtype (int, bool, float16, float64: cast), a Python number, a list
    "backward_gradient_of_wrong_kinds": (
        'x = torch.tensor([1., 2., 3.], requires_grad=True)\n'
        'y = x * 2\n'
        'tries(lambda: y.backward(torch.ones(2), retain_graph=True),\n'
        '      lambda: y.backward(torch.ones(3, 1), retain_graph=True),\n'
        '      lambda: y.backward(torch.ones(1), retain_graph=True),\n'
        '      lambda: y.backward(torch.ones(()), retain_graph=True),\n'
        '      lambda: y.backward(torch.ones(3, dtype=torch.float64), retain_graph=True),\n'
        '      lambda: y.backward(torch.ones(3, dtype=torch.int64), retain_graph=True),\n'
        '      lambda: y.backward(torch.ones(3, dtype=torch.bool), retain_graph=True),\n'
        '      lambda: y.backward(1.0, retain_graph=True),\n'
        '      lambda: y.backward([1., 1., 1.], retain_graph=True),\n'
        '      lambda: y.backward(torch.tensor(2.), retain_graph=True),\n'
        '      lambda: y.backward(torch.ones(3, dtype=torch.float16), retain_graph=True),\n'
        '      lambda: x.grad, lambda: x.grad.dtype)'),
    # no gradient given for a non-scalar output: refused for 1-element and 0-element non-0-d ones too, and in
    # autograd.grad / autograd.backward of several outputs
    "implicit_gradient_only_for_scalar_outputs": (
        'x = torch.tensor([1., 2., 3.], requires_grad=True)\n'
        'tries(lambda: (x * 2).backward(),\n'
        '      lambda: (x[:1] * 2).backward(),\n'
        '      lambda: (x[:0] * 2).backward(),\n'
        '      lambda: (x.view(1, 3)[:, :1] * 2).backward(),\n'
        '      lambda: (x.reshape(1, 1, 3)[..., :1]).backward(),\n'
        '      lambda: torch.autograd.grad(x * 2, x),\n'
        '      lambda: torch.autograd.grad(x[:1] * 2, x),\n'
        '      lambda: torch.autograd.grad([x.sum(), x * 2], x),\n'
        '      lambda: torch.autograd.backward(x * 2),\n'
        '      lambda: torch.autograd.backward([x.sum(), x * 3]),\n'
        '      lambda: x.grad)'),
    # the shape message's indices come from tuple.index: == between tensors may match an earlier gradient (a wrong
    # index), fail to broadcast, or be ambiguous, each its own error
    "mismatched_grad_outputs_among_several": (
        'x = torch.tensor([1., 2.], requires_grad=True)\n'
        'y = x * 2; z = x * 3; s = x.sum(); q = (x * x).sum()\n'
        'tries(lambda: torch.autograd.grad([y, z], x, [torch.ones(2), torch.ones(3)]),\n'
        '      lambda: torch.autograd.grad([y, z], x, [torch.ones(2), torch.ones(1)]),\n'
        '      lambda: torch.autograd.grad([y, z], x, [None, torch.ones(1)]),\n'
        '      lambda: torch.autograd.grad([y, z], x, [torch.ones(2), torch.ones(2, 1)]),\n'
        '      lambda: torch.autograd.grad([s, q], x, [torch.tensor(1.), torch.ones(2)]),\n'
        '      lambda: torch.autograd.grad([s, q], x, [torch.tensor(1.), torch.ones(1)]),\n'
        '      lambda: torch.autograd.grad([s, q], x, [torch.tensor(2.), torch.ones(1)]),\n'
        '      lambda: torch.autograd.grad([s, y], x, [torch.tensor(1.), torch.ones(3)]),\n'
        '      lambda: torch.autograd.grad([y, y], x, [torch.ones(2), torch.ones(3)]),\n'
        '      lambda: torch.autograd.backward([y, z], [torch.ones(2), torch.zeros(3)]),\n'
        '      lambda: torch.autograd.backward([s, q], [torch.tensor(0.), torch.zeros(1)]),\n'
        '      lambda: torch.autograd.backward([s, q], [None, torch.zeros(1)]),\n'
        '      lambda: torch.autograd.backward([s, s * 1], [torch.ones(()), torch.ones(2)]))'),
    # grad_outputs: None, [None], too many, wrong shape, int / float64 (cast), a Python number
    "grad_outputs_given_wrong": (
        'x = torch.tensor([1., 2.], requires_grad=True)\n'
        'y = x * 3\n'
        'tries(lambda: torch.autograd.grad(y, x, None, retain_graph=True),\n'
        '      lambda: torch.autograd.grad(y, x, [None], retain_graph=True),\n'
        '      lambda: torch.autograd.grad(y, x, torch.ones(3), retain_graph=True),\n'
        '      lambda: torch.autograd.grad(y, x, [torch.ones(2), torch.ones(2)], retain_graph=True),\n'
        '      lambda: torch.autograd.grad([y, y.sum()], x, [torch.ones(2)], retain_graph=True),\n'
        '      lambda: torch.autograd.grad([y, y.sum()], x, [torch.ones(2), None], retain_graph=True),\n'
        '      lambda: torch.autograd.grad(y, x, torch.ones(2, dtype=torch.int64), retain_graph=True),\n'
        '      lambda: torch.autograd.grad(y, x, torch.ones(2, dtype=torch.float64), retain_graph=True),\n'
        '      lambda: torch.autograd.grad(y, x, 2.0, retain_graph=True))'),
    # a gradient that reaches an input unchanged (the output is the input, add, clone, contiguous, a no-op to())
    # is the very tensor given as grad_output, requiring grad if it does; a view of it is a no-grad-mode view
    "grad_hands_back_the_gradient_it_was_given": (
        'x = torch.tensor([1., 2.], requires_grad=True)\n'
        'g = torch.tensor([1., 3.])\n'
        'gr = torch.tensor([1., 3.], requires_grad=True)\n'
        'for name, f in [("id", lambda t: t), ("add0", lambda t: t + 0), ("sub", lambda t: t - 1),\n'
        '                ("clone", lambda t: t.clone()), ("view", lambda t: t.view(2)), ("contig", lambda t: t.contiguous()),\n'
        '                ("to", lambda t: t.to(torch.float32)), ("mul1", lambda t: t * 1), ("pos", lambda t: +t)]:\n'
        '    r, = torch.autograd.grad(f(x), x, g)\n'
        '    r2, = torch.autograd.grad(f(x), x, gr)\n'
        '    print(name, r is g, r2 is gr, r2, r2.grad_fn, r2.is_leaf)\n'
        '    f(x).backward(gr); print(x.grad is gr, x.grad); x.grad = None\n'
        'y = x * 2\n'
        'r, = torch.autograd.grad(y, y, gr); print(r is gr, r.requires_grad)\n'
        'r, = torch.autograd.grad(y, [y, x], gr); print(r is gr)'),
    # a grad_output that requires grad, through view-like backward formulas: whether the result requires grad (a
    # no-grad-mode view of it, or it itself), is it, and its strides (an expanded gradient for sum)
    "grad_output_requiring_grad_through_view_formulas": (
        'x = torch.tensor([[1., 2.], [3., 4.]], requires_grad=True)\n'
        'fs = {"sum": lambda t: t.sum(), "sum0": lambda t: t.sum(0), "mean": lambda t: t.mean(), "t": lambda t: t.t(),\n'
        '      "expand": lambda t: t.expand(3, 2, 2), "unsq": lambda t: t.unsqueeze(0), "reshape": lambda t: t.reshape(4),\n'
        '      "select": lambda t: t[0], "slice": lambda t: t[:, :1], "view": lambda t: t.view(4), "float": lambda t: t.double(),\n'
        '      "clone": lambda t: t.clone(), "add": lambda t: t + t.detach(), "unbind": lambda t: t.unbind()[1],\n'
        '      "sumk": lambda t: t.sum(1, keepdim=True), "broadcast": lambda t: t + torch.zeros(3, 2, 2)}\n'
        'for n, f in fs.items():\n'
        '    y = f(x)\n'
        '    g = torch.arange(float(y.numel())).reshape(y.shape).to(y.dtype).requires_grad_()\n'
        '    r, = torch.autograd.grad(y, x, g)\n'
        '    print(n, r.tolist(), r.requires_grad, r.is_leaf, r._base is g, r is g, r.stride())'),
    # inputs that need no grad, are unused (allow_unused, materialize_grads), or are none at all
    "grad_inputs_unused_or_not_requiring_grad": (
        'x = torch.tensor([1., 2.], requires_grad=True)\n'
        'u = torch.tensor([3., 4.], requires_grad=True)\n'
        'c = torch.tensor([1., 2.])\n'
        'y = (x * x * c).sum()\n'
        'tries(lambda: torch.autograd.grad(y, [x, u], retain_graph=True),\n'
        '      lambda: torch.autograd.grad(y, [u, x], retain_graph=True),\n'
        '      lambda: torch.autograd.grad(y, [x, u], allow_unused=True, retain_graph=True),\n'
        '      lambda: torch.autograd.grad(y, [x, u], materialize_grads=True, retain_graph=True),\n'
        '      lambda: torch.autograd.grad(y, [x, u], allow_unused=False, materialize_grads=True, retain_graph=True),\n'
        '      lambda: torch.autograd.grad(y, x, only_inputs=False, retain_graph=True),\n'
        '      lambda: torch.autograd.grad(y, c, retain_graph=True),\n'
        '      lambda: torch.autograd.grad(y, [x, c], allow_unused=True, retain_graph=True),\n'
        '      lambda: torch.autograd.grad(c.sum(), x),\n'
        '      lambda: torch.autograd.grad(y, [], retain_graph=True),\n'
        '      lambda: torch.autograd.grad([], x))'),
    # backward(inputs=...) with a non-leaf input (it retains its grad), a view of it, a no-grad view, a detached one
    "backward_inputs_non_leaf": (
        'x = torch.tensor([1., 2.], requires_grad=True)\n'
        'h = x * 3\n'
        'y = (h ** 2).sum()\n'
        'print(h.retains_grad)\n'
        'y.backward(inputs=[h], retain_graph=True)\n'
        'print(h.retains_grad, h.grad, x.grad)\n'
        'y.backward(retain_graph=True)\n'
        'print(h.grad, x.grad)\n'
        'tries(lambda: y.backward(inputs=[h, x], retain_graph=True), lambda: h.grad, lambda: x.grad,\n'
        '      lambda: y.backward(inputs=[], retain_graph=True),\n'
        '      lambda: y.backward(inputs=[torch.ones(2, requires_grad=True)], retain_graph=True))\n'
        'v = h.view(2)\n'
        'tries(lambda: y.backward(inputs=[v], retain_graph=True), lambda: v.grad, lambda: v.retains_grad)\n'
        'with torch.no_grad():\n'
        '    nv = h[:1]\n'
        'tries(lambda: y.backward(inputs=[nv], retain_graph=True), lambda: nv.grad, lambda: nv.retains_grad)\n'
        'tries(lambda: torch.autograd.grad(y, [h.detach()], retain_graph=True))'),
    # .grad set to a wrong shape / dtype / non-tensor / itself, on a non-leaf and on a tensor needing no grad
    "grad_setter_refusals": (
        'x = torch.tensor([1., 2.], requires_grad=True)\n'
        'tries(lambda: setattr(x, "grad", torch.ones(3)),\n'
        '      lambda: setattr(x, "grad", torch.ones(2, dtype=torch.float64)),\n'
        '      lambda: setattr(x, "grad", torch.ones(2, dtype=torch.int64)),\n'
        '      lambda: setattr(x, "grad", [1., 2.]), lambda: setattr(x, "grad", 1.0),\n'
        '      lambda: setattr(x, "grad", torch.ones(())), lambda: setattr(x, "grad", x), lambda: x.grad)\n'
        'y = x * 2\n'
        'tries(lambda: setattr(y, "grad", torch.ones(2)), lambda: y.grad, lambda: setattr(y, "grad", torch.ones(3)))\n'
        'c = torch.ones(2)\n'
        'tries(lambda: setattr(c, "grad", torch.ones(2)), lambda: c.grad, lambda: setattr(c, "grad", torch.ones(3)))\n'
        'tries(lambda: setattr(x, "grad", torch.ones(2, requires_grad=True)), lambda: x.grad)\n'
        'del x.grad\n'
        'print(x.grad)'),
    # a .grad set to a view numpy makes read-only (of an expanded tensor) is added to in place where its elements
    # do not share memory; where they do, PyTorch's internal-overlap error
    "grad_set_to_an_expanded_view_then_added_to": (
        'x = torch.tensor([1., 2.], requires_grad=True)\n'
        'x.grad = torch.ones(1).expand(2)\n'
        'tries(lambda: (x * 2).sum().backward(), lambda: x.grad)\n'
        'base = torch.zeros(2).expand(3, 2)\n'
        'x.grad = base[1]\n'
        'tries(lambda: (x * 2).sum().backward(), lambda: x.grad, lambda: base)\n'
        's = torch.tensor(5., requires_grad=True)\n'
        's.grad = torch.zeros(1).expand(3)[0]\n'
        'tries(lambda: (s * 2).backward(), lambda: s.grad)\n'
        'm = torch.ones(2, 2, requires_grad=True)\n'
        'm.grad = torch.zeros(2).expand(2, 2)\n'
        'tries(lambda: m.sum().backward(), lambda: m.grad)\n'
        'g = torch.zeros(2)\n'
        'x.grad = g\n'
        '(x * 2).sum().backward(); print(g, x.grad is g)\n'
        'x.grad = x.detach()\n'
        '(x * 2).sum().backward(); print(x, x.grad)'),
    # .grad of non-leaves warns at each read (views of a leaf too), not of a no-grad view or a detached tensor
    "grad_of_non_leaves_warns_each_time": (
        'x = torch.tensor([1., 2.], requires_grad=True)\n'
        'def f():\n'
        '    return (x * 2).grad\n'
        'for _ in range(3):\n'
        '    f()\n'
        'z = x * 2\n'
        'print([z.grad for _ in range(2)])\n'
        'print(x.t().grad, x[:1].grad, x.expand(2).grad, x.unsqueeze(0).grad)\n'
        'with torch.no_grad():\n'
        '    nv = x.view(2)\n'
        'print(nv.grad, nv.is_leaf, nv.requires_grad, (x * 2).detach().grad)\n'
        'z.retain_grad(); print(z.grad)'),
    # a set_grad_enabled made earlier and entered later sets its mode again (its __enter__), and puts back the mode
    # it found when it was made
    "set_grad_enabled_object_entered_later": (
        'x = torch.tensor([1., 2.], requires_grad=True)\n'
        'ctx = torch.set_grad_enabled(False)\n'
        'torch.set_grad_enabled(True)\n'
        'print(torch.is_grad_enabled())\n'
        'with ctx:\n'
        '    print(torch.is_grad_enabled(), (x * 2).requires_grad)\n'
        'print(torch.is_grad_enabled())\n'
        'train = torch.set_grad_enabled(True)\n'
        'with torch.no_grad():\n'
        '    with train:\n'
        '        print(torch.is_grad_enabled(), (x * 2).requires_grad)\n'
        '    print(torch.is_grad_enabled())\n'
        'print(ctx.prev, ctx.mode, str(ctx), repr(train), train.prev)\n'
        'torch.set_grad_enabled(True)'),
    # grad modes are put back when an exception leaves a with block, and a mode set inside a decorated function is
    # undone at its return; a module's methods under no_grad / inference_mode
    "grad_modes_left_by_exceptions_and_decorators": (
        'x = torch.tensor([1., 2.], requires_grad=True)\n'
        'try:\n'
        '    with torch.no_grad():\n'
        '        raise ValueError("x")\n'
        'except ValueError:\n'
        '    pass\n'
        'print(torch.is_grad_enabled())\n'
        '@torch.enable_grad()\n'
        'def f():\n'
        '    torch.set_grad_enabled(False)\n'
        '    return torch.is_grad_enabled()\n'
        'with torch.no_grad():\n'
        '    print(f(), torch.is_grad_enabled())\n'
        'print(torch.is_grad_enabled())\n'
        'try:\n'
        '    with torch.inference_mode():\n'
        '        raise KeyError\n'
        'except KeyError:\n'
        '    pass\n'
        'print(torch.is_inference_mode_enabled(), torch.is_grad_enabled())\n'
        'class M(torch.nn.Module):\n'
        '    def __init__(self):\n'
        '        super().__init__()\n'
        '        self.l = torch.nn.Linear(2, 1)\n'
        '    @torch.no_grad()\n'
        '    def predict(self, t):\n'
        '        return self.l(t)\n'
        '    @torch.inference_mode()\n'
        '    def infer(self, t):\n'
        '        return self.l(t)\n'
        'm = M()\n'
        'p = m.predict(x[None]); i = m.infer(x[None])\n'
        'print(p.requires_grad, p.grad_fn, i.is_inference(), m.predict.__name__, M.infer.__qualname__)\n'
        'tries(lambda: p.sum().backward(), lambda: (m.l(x) + i).sum().backward(), lambda: (m.l(x) * i).sum().backward(),\n'
        '      lambda: m.l.weight.grad)'),
    # anomaly mode shows the forward call of the node whose hooks failed: a non-leaf's tensor hook, a node's pre- and
    # post-hooks, and (as torch::autograd::AccumulateGrad, made where the leaf was first used) a leaf's hooks
    "anomaly_names_the_node_whose_hook_failed": (
        'def boom(g):\n'
        '    raise ValueError("boom")\n'
        'with anomaly_warnings(), torch.autograd.detect_anomaly():\n'
        '    x = torch.tensor([1., 2.], requires_grad=True)\n'
        '    y = x.exp()\n'
        '    y.register_hook(boom)\n'
        '    tries(lambda: y.sum().backward())\n'
        '    s = x.sigmoid()\n'
        '    s.register_hook(lambda g: g[:1])\n'
        '    tries(lambda: (s * 2).sum().backward())\n'
        '    w = torch.tensor([1., 2.], requires_grad=True)\n'
        '    w.register_hook(lambda g: g[:1])\n'
        '    tries(lambda: (w * 3).sum().backward())\n'
        '    z = x.tanh()\n'
        '    z.grad_fn.register_hook(lambda gi, go: boom(gi))\n'
        '    tries(lambda: z.sum().backward())\n'
        '    z = x.cos()\n'
        '    z.grad_fn.register_prehook(lambda go: boom(go))\n'
        '    tries(lambda: z.sum().backward())\n'
        '    u = torch.tensor([1., 2.], requires_grad=True)\n'
        '    u.register_post_accumulate_grad_hook(boom)\n'
        '    tries(lambda: (u * 2).sum().backward())\n'
        'v = torch.tensor([1., 2.], requires_grad=True)\n'
        'v.register_hook(boom)\n'
        'p = v * 2\n'
        'with anomaly_warnings(), torch.autograd.detect_anomaly():\n'
        '    tries(lambda: p.sum().backward())\n'
        'print(x.grad, w.grad, u.grad, v.grad)'),
    # a .grad that cannot be added to fails in the leaf's AccumulateGrad, which anomaly mode names (with the stack of
    # the leaf's first use in anomaly mode, or none), whether one gradient reaches the leaf or several
    "anomaly_names_the_accumulate_grad_that_failed": (
        'with anomaly_warnings(), torch.autograd.detect_anomaly():\n'
        '    x = torch.tensor([1., 2.], requires_grad=True)\n'
        '    x.grad = torch.ones(1).expand(2)\n'
        '    tries(lambda: (x * 2).sum().backward())\n'
        '    y = torch.tensor([1., 2.], requires_grad=True)\n'
        '    y.grad = torch.ones(1).expand(2)\n'
        '    tries(lambda: (y * 2 + y).sum().backward())\n'
        'z = (x * 2).sum()\n'
        'with anomaly_warnings(), torch.autograd.detect_anomaly():\n'
        '    tries(lambda: z.backward())\n'
        'print(x.grad, y.grad)'),
    # anomaly mode's nan check names the node and the index of its output that has nan
    "anomaly_nan_in_which_output": (
        'a = torch.tensor([1., 2.], requires_grad=True)\n'
        'b = torch.tensor([0., 1.], requires_grad=True)\n'
        'with anomaly_warnings(), torch.autograd.detect_anomaly():\n'
        '    tries(lambda: (a / b).sum().backward(), lambda: a.grad, lambda: b.grad)\n'
        '    tries(lambda: (b / a * (b.sqrt())).sum().backward())\n'
        '    tries(lambda: torch.pow(b, a).sum().backward())\n'
        '    tries(lambda: torch.pow(a, b - 1).sum().backward())\n'
        '    tries(lambda: torch.addcdiv(a, a, b).sum().backward())\n'
        '    tries(lambda: torch.nn.functional.binary_cross_entropy(b, b).backward())\n'
        '    tries(lambda: torch.special.xlogy(b, b).sum().backward())\n'
        '    tries(lambda: torch.zeros(2, requires_grad=True).norm().backward())\n'
        '    y = b * 1\n'
        '    y.register_hook(lambda g: g * float("nan"))\n'
        '    tries(lambda: (y * 3).sum().backward())'),
}


# Anomaly mode's warnings as their first line and the snippet's own frames: an earlier test's
# torch.set_default_device leaves a mode whose Python frame shows in real PyTorch's forward tracebacks.
ANOMALY_WARNINGS = (
    "import contextlib, warnings\n"
    "@contextlib.contextmanager\n"
    "def anomaly_warnings():\n"
    "    with warnings.catch_warnings(record=True) as ws:\n"
    "        warnings.simplefilter('always')\n"
    "        yield\n"
    "    for w in ws:\n"
    "        lines = str(w.message).splitlines()\n"
    "        print(w.category.__name__, lines[0], [l.strip() for l in lines if '<string>' in l])\n")


@pytest.mark.parametrize("name", SNIPPETS)
def test_snippet(name):
    code = TRIES + ANOMALY_WARNINGS + SNIPPETS[name]
    t, e = run_both(T, E, code)
    assert same(t, e), f"\n{code}\n--- torch\n{t.summary()}--- engine\n{e.summary()}"
