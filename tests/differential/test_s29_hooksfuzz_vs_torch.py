"""Hooks and gradient bookkeeping together, as a random-program fuzz of small autograd programs met them against
real PyTorch: a leaf's post-accumulate hooks that return something (PyTorch hands the replacement to the next hook
and refuses it only after all ran), a module's full backward hooks seeing None for an output backward did not
reach, a None gradient (a custom Function's backward returning None for an input, a node hook returning None)
still running the leaf's hooks and the nodes below it (a custom backward on zeros, a freed graph's error),
`backward(inputs=[v])` where v comes out of cat/stack (their node gives no gradient then), a view whose base
changed in place keeping its old grad_fn's hooks and retain_grad until its new grad_fn is read, and a few behaviours
worth pinning: the order of tensor hooks, retain_grad and node hooks, hooks registered or removed while backward
runs, the checks of what node hooks return, grad mode inside hooks, and the optimizer-in-backward pattern. Each
program prints the hook calls with their arguments, the grads and the errors: all must be the same."""
import pytest

T = pytest.importorskip("torch", reason="differential tests need real PyTorch (pip install torch==2.13.0)")
from .harness import TRIES, load_engine, run_both, same  # noqa: E402

E = load_engine()

# fmt(g): a gradient (or a tuple of them) as its shape and values, and its grad_fn's name if it has one
FMT = ("def fmt(g):\n"
       "    if g is None: return 'None'\n"
       "    if isinstance(g, tuple): return '(' + ', '.join(fmt(x) for x in g) + ')'\n"
       "    return '%s%s%s' % (tuple(g.shape), g.tolist(), ('@' + type(g.grad_fn).__name__) if g.requires_grad else '')\n")

SNIPPETS = {
    # a post-accumulate hook returning something: PyTorch checks it as a replacement of the tensor, hands it to the
    # next hooks (which see a tensor without .grad) and refuses it only once all ran; returning the tensor itself
    # is fine, a wrong type or size is the usual hook error
    "post_accumulate_hooks_returning_values": (
        'for ret in ["t", "t.grad", "t.grad.double()", "t.grad[:1]", "t.detach()", "[1]"]:\n'
        '    a = torch.tensor([1., 2.], requires_grad=True)\n'
        '    a.register_post_accumulate_grad_hook(eval("lambda t: print(\'h1\', t is a, fmt(t.grad)) or " + ret))\n'
        '    a.register_post_accumulate_grad_hook(lambda t: print("h2", t is a, fmt(t.grad), t.requires_grad))\n'
        '    a.register_post_accumulate_grad_hook(lambda t: print("h3", fmt(t.grad)) or (t.grad * 3 if t is not a\n'
        '                                                                                  else None))\n'
        '    tries(lambda: (a * 3).sum().backward())\n'
        '    print(ret, a.grad)'),
    # the chain a fuzz program made: the second hook's `t.grad * 2` fails on the replacement's missing .grad
    "post_accumulate_hook_chain_from_the_fuzz": (
        'a = torch.tensor([1., 2.], requires_grad=True)\n'
        'h = a.register_post_accumulate_grad_hook(lambda t: print("first", fmt(t.grad)) or h.remove())\n'
        'a.register_post_accumulate_grad_hook(lambda t: print("double", fmt(t.grad)) or t.grad * 2)\n'
        'a.register_post_accumulate_grad_hook(lambda t: print("again", fmt(t.grad)) or t.grad * 2)\n'
        'tries(lambda: (a * 3).sum().backward(), lambda: (a * 3).sum().backward())\n'
        'print(a.grad)'),
    # a module's full backward (pre-)hooks get grad_output as backward delivered it: None for an output it did not
    # reach (not the zeros the identity's backward makes of it); a pre-hook may put a gradient there
    "full_backward_hooks_see_None_for_an_unused_output": (
        'import torch.nn as nn\n'
        'class Two(nn.Module):\n'
        '    def forward(self, a, b):\n'
        '        return a * b, a + b\n'
        't = Two()\n'
        't.register_full_backward_hook(lambda mod, gi, go: print("full", fmt(gi), fmt(go)))\n'
        't.register_full_backward_pre_hook(lambda mod, go: print("pre", fmt(go)))\n'
        'a = torch.tensor([1., 2.], requires_grad=True)\n'
        'b = torch.tensor([3., 4.])\n'
        'p, q = t(a, b)\n'
        '(p.sum() * 2).backward(); print(a.grad)\n'
        'p, q = t(a, b)\n'
        '(p + q).sum().backward(); print(a.grad)\n'
        'u = Two()\n'
        'u.register_full_backward_pre_hook(lambda mod, go: print("pre", fmt(go)) or (go[0], torch.ones(2)))\n'
        'u.register_full_backward_hook(lambda mod, gi, go: print("full", fmt(gi), fmt(go)))\n'
        'a.grad = None\n'
        'p, q = u(a, b)\n'
        'p.sum().backward(); print(a.grad)'),
    # a custom backward returning None for an input that requires grad: PyTorch still runs that leaf's tensor hooks
    # (on None), its AccumulateGrad's hooks and its post-accumulate hooks; .grad stays as it was
    "a_None_gradient_still_runs_the_leafs_hooks": (
        'class F(torch.autograd.Function):\n'
        '    @staticmethod\n'
        '    def forward(ctx, x, w):\n'
        '        return x * w\n'
        '    @staticmethod\n'
        '    def backward(ctx, g):\n'
        '        return g * 2, None\n'
        'x = torch.tensor([1., 2.], requires_grad=True)\n'
        'w = torch.tensor([3., 4.], requires_grad=True)\n'
        'w.register_hook(lambda g: print("w hook", fmt(g)))\n'
        'w.register_post_accumulate_grad_hook(lambda t: print("w post", fmt(t.grad)))\n'
        'F.apply(x, w).sum().backward(); print(x.grad, w.grad)\n'
        'w.grad = torch.zeros(2)\n'
        'F.apply(x, w).sum().backward(inputs=[w]); print(w.grad)\n'
        'y = F.apply(x, w)\n'
        'acc = y.grad_fn.next_functions[1][0]\n'
        'acc.register_prehook(lambda go: print("acc pre", fmt(go)))\n'
        'acc.register_hook(lambda gi, go: print("acc post", fmt(gi), fmt(go)))\n'
        'y.sum().backward()\n'
        'v = w * 1\n'
        'v.register_hook(lambda g: print("v hook", fmt(g)))\n'
        'v.grad_fn.register_hook(lambda gi, go: print("v post", fmt(gi), fmt(go)))\n'
        'F.apply(x, v).sum().backward(); print(w.grad)'),
    # a tensor hook cannot turn a None gradient into a tensor (on a leaf or not)
    "a_hook_cannot_replace_a_None_gradient": (
        'class F(torch.autograd.Function):\n'
        '    @staticmethod\n'
        '    def forward(ctx, x, w):\n'
        '        return x * w\n'
        '    @staticmethod\n'
        '    def backward(ctx, g):\n'
        '        return g * 2, None\n'
        'x = torch.tensor([1., 2.], requires_grad=True)\n'
        'u = torch.tensor([3., 4.], requires_grad=True)\n'
        'u.register_hook(lambda g: torch.ones(2))\n'
        'tries(lambda: F.apply(x, u).sum().backward())\n'
        'print(u.grad)\n'
        'v = u * 1\n'
        'v.register_hook(lambda g: torch.ones(2))\n'
        'tries(lambda: F.apply(x, v).sum().backward())\n'
        'print(u.grad, x.grad)'),
    # a node hook giving None: the nodes below still run, a leaf's hooks see None
    "node_hooks_returning_None_gradients": (
        'x = torch.tensor([1., 2.], requires_grad=True)\n'
        'x.register_hook(lambda g: print("x hook", fmt(g)))\n'
        'x.register_post_accumulate_grad_hook(lambda t: print("post", fmt(t.grad)))\n'
        'y = x * 2\n'
        'y.grad_fn.register_prehook(lambda go: (None,))\n'
        'tries(lambda: y.sum().backward())\n'
        'y = x * 2\n'
        'y.grad_fn.register_hook(lambda gi, go: (None,))\n'
        'tries(lambda: y.sum().backward())\n'
        'z = x.exp()\n'
        'z.grad_fn.register_prehook(lambda go: (None,))\n'
        'z.register_hook(lambda g: print("z hook", fmt(g)))\n'
        'tries(lambda: z.sum().backward())\n'
        'print(x.grad)'),
    # no gradient reaching a custom Function: PyTorch calls its backward all the same, on zeros (or on None with
    # set_materialize_grads(False)); PyTorch's own formulas check their saved tensors first, so a freed graph or a
    # modified input is an error even then
    "a_node_reached_by_None_gradients_only": (
        'class Stop(torch.autograd.Function):\n'
        '    @staticmethod\n'
        '    def forward(ctx, x):\n'
        '        return x.clone()\n'
        '    @staticmethod\n'
        '    def backward(ctx, g):\n'
        '        print("Stop.backward", fmt(g))\n'
        '        return None\n'
        'class G(torch.autograd.Function):\n'
        '    @staticmethod\n'
        '    def forward(ctx, x):\n'
        '        ctx.set_materialize_grads(False)\n'
        '        return x * 2\n'
        '    @staticmethod\n'
        '    def backward(ctx, g):\n'
        '        print("G.backward", fmt(g))\n'
        '        return None if g is None else g * 2\n'
        'class H(torch.autograd.Function):\n'
        '    @staticmethod\n'
        '    def forward(ctx, x):\n'
        '        return x * 2\n'
        '    @staticmethod\n'
        '    def backward(ctx, g):\n'
        '        print("H.backward", fmt(g))\n'
        '        return g * 2\n'
        'x = torch.tensor([1., 2.], requires_grad=True)\n'
        'Stop.apply(H.apply(x)).sum().backward(); print(x.grad)\n'
        'Stop.apply(G.apply(x)).sum().backward(); print(x.grad)\n'
        'a = x * x\n'
        'Stop.apply(a).sum().backward()\n'
        'tries(lambda: Stop.apply(a).sum().backward())\n'
        'b = x.sin()\n'
        'c = Stop.apply(b)\n'
        'with torch.no_grad():\n'
        '    x.mul_(1)\n'
        'tries(lambda: c.sum().backward())\n'
        'print(x.grad)'),
    # backward(inputs=[v]) with v made by cat / stack / block_diag: their node runs, but needs none of its inputs'
    # gradients, so its post-hook sees None for all (a custom Function's backward gives them all the same)
    "backward_inputs_an_output_of_cat": (
        'class F(torch.autograd.Function):\n'
        '    @staticmethod\n'
        '    def forward(ctx, x, y):\n'
        '        return x * y\n'
        '    @staticmethod\n'
        '    def backward(ctx, g):\n'
        '        return g * 2, g * 3\n'
        'a = torch.tensor([1., 2.], requires_grad=True)\n'
        'b = torch.tensor([3., 4.], requires_grad=True)\n'
        'for make in [lambda: torch.cat([a, b]), lambda: torch.stack([a, b]), lambda: F.apply(a, b),\n'
        '             lambda: torch.block_diag(a.view(1, 2), b.view(1, 2)), lambda: torch.cat([a, b * 2])]:\n'
        '    v = make()\n'
        '    v.grad_fn.register_hook(lambda gi, go: print(type(v.grad_fn).__name__, fmt(gi)))\n'
        '    (v * 2).sum().backward(inputs=[v])\n'
        '    print(v.grad, a.grad, b.grad)\n'
        '    w = make()\n'
        '    w.grad_fn.register_hook(lambda gi, go: print(type(w.grad_fn).__name__, "inputs=[a]", fmt(gi)))\n'
        '    (w * 2).sum().backward(inputs=[a])'),
    # a None gradient through many kinds of node: each still runs (its post-hook sees None), and a second pass
    # through a freed graph fails where the node saved tensors, as PyTorch's formulas unpack them first
    "None_gradients_through_many_nodes": (
        'import torch.nn.functional as F_\n'
        'class Stop(torch.autograd.Function):\n'
        '    @staticmethod\n'
        '    def forward(ctx, x):\n'
        '        return x.clone()\n'
        '    @staticmethod\n'
        '    def backward(ctx, g):\n'
        '        return None\n'
        'x = torch.tensor([[1., -2.], [3., 0.5]], requires_grad=True)\n'
        'w = torch.tensor([[0.5, 1.], [2., -1.]], requires_grad=True)\n'
        'ops = [lambda: x.clone().mul_(2), lambda: torch.cat([x, w]), lambda: x @ w, lambda: F_.softmax(x, 1),\n'
        '       lambda: x[[0, 1, 1]], lambda: (lambda b: (b.__setitem__((0, 0), 5.), b)[1])(x * 1),\n'
        '       lambda: x.t().reshape(4), lambda: torch.where(x > 0, x, w), lambda: x.max(), lambda: x.sort(1)[0],\n'
        '       lambda: F_.relu(x), lambda: x.norm(), lambda: F_.layer_norm(x, (2,), w[0], w[1])]\n'
        'for i, op in enumerate(ops):\n'
        '    y = op()\n'
        '    y.register_hook(lambda g: print(i, "hook", fmt(g)))\n'
        '    y.grad_fn.register_hook(lambda gi, go: print(i, type(y.grad_fn).__name__, fmt(gi)))\n'
        '    Stop.apply(y).sum().backward()\n'
        '    tries(lambda: Stop.apply(y).sum().backward())\n'
        'print(x.grad, w.grad)'),
    # a view whose base changed in place keeps the hooks dict of its old grad_fn until its new grad_fn is read:
    # register_hook (which reads grad_fn only for a tensor's first hook) adds to it meanwhile, so that hook runs with
    # the old node; once read, hooks go to the new node
    "view_hooks_after_its_base_changed_in_place": (
        'a = torch.tensor([[1., -2., 3.], [0.5, 2., -1.]], requires_grad=True)\n'
        'b = a * 1\n'
        'v0 = b.unsqueeze(0)\n'
        'v0.register_hook(lambda g: print("hook2 on v0", fmt(g)))\n'
        'b.mul_(2)\n'
        'v0.register_hook(lambda g: print("hook5 on v0", fmt(g)) or g * 2)\n'
        'print(len(v0._backward_hooks))\n'
        'v0.retain_grad()\n'
        'print(v0._backward_hooks)\n'
        'v0.register_hook(lambda g: print("hook6 on v0", fmt(g)) or g * 2)\n'
        '(v0 * 2).sum().backward(inputs=[v0])\n'
        'print(fmt(v0.grad), fmt(a.grad))\n'
        'b = a * 1\n'
        'w = b[0]\n'
        'w1 = w * 1\n'
        'w.register_hook(lambda g: print("w hook1", fmt(g)))\n'
        'b.add_(1)\n'
        'w.register_hook(lambda g: print("w hook2 (old node)", fmt(g)))\n'
        '(w1 * 3).sum().backward(retain_graph=True)\n'
        'print(w.grad_fn)\n'
        'w.register_hook(lambda g: print("w hook3 (new node)", fmt(g)))\n'
        '(w * 5 + w1).sum().backward()'),
    # the same for a piece of unbind / split, whose grad_fn cannot be read after that: a later hook joins the old
    # dict; and a first register_hook that raises has given the tensor an empty dict, which a second call fills
    "hooks_on_a_multi_output_view_after_its_base_changed": (
        'a = torch.tensor([[1., -2., 3.], [0.5, 2., -1.]], requires_grad=True)\n'
        'b = a * 1\n'
        'v0 = b.unbind(1)[2]\n'
        'v1 = v0 * 1\n'
        'v0.register_hook(lambda g: print("hook3 on v0", fmt(g)))\n'
        'b.relu_()\n'
        'tries(lambda: v0.register_hook(lambda g: print("hook5 on v0", fmt(g)) or g + 1), lambda: v0.grad_fn)\n'
        'print(len(v0._backward_hooks))\n'
        '(v1 * 2).sum().backward()\n'
        'print(a.grad)\n'
        'b = a * 1\n'
        's = b.split(1)[1]\n'
        'b.diagonal().mul_(2)\n'
        'tries(lambda: s.register_hook(lambda g: print("hook on s", fmt(g))))\n'
        'print(s._backward_hooks)\n'
        'tries(lambda: s.register_hook(lambda g: print("hook4 on s", fmt(g)) or g * 2), lambda: s.retain_grad())\n'
        'print(len(s._backward_hooks))'),
    # a view's retain_grad stays with its old grad_fn, too, until the new one is read: a backward through the old
    # node (by way of a tensor made from the view before) fills the view's .grad
    "retained_view_whose_base_changed_in_place": (
        'a = torch.tensor([[1., -2., 3.], [0.5, 2., -1.]], requires_grad=True)\n'
        'for read in [False, True]:\n'
        '    b = a * 1\n'
        '    v0 = b.select(0, 1)\n'
        '    v1 = v0 * 1\n'
        '    v0.retain_grad()\n'
        '    b.exp_()\n'
        '    b.mul_(2)\n'
        '    if read:\n'
        '        print(v0.grad_fn, v0.retains_grad)\n'
        '    (v1 * 2).sum().backward(retain_graph=True)\n'
        '    print(v0.retains_grad, v0.grad)\n'
        '    (v0 * 3).sum().backward()\n'
        '    print(v0.grad, v0.grad_fn)\n'
        '    a.grad = None'),
    # the order PyTorch runs them in: a tensor's hooks (in registration order, each seeing the previous one's
    # replacement), then its retain_grad, then its node's pre-hooks, the formula, the node's post-hooks
    "hook_order_on_one_tensor": (
        'x = torch.tensor([1., 2.], requires_grad=True)\n'
        'y = x * 2\n'
        'y.grad_fn.register_prehook(lambda go: print("node pre", fmt(go)))\n'
        'y.register_hook(lambda g: print("tensor hook 1", fmt(g)))\n'
        'y.grad_fn.register_hook(lambda gi, go: print("node post", fmt(gi), fmt(go)))\n'
        'y.retain_grad()\n'
        'y.register_hook(lambda g: print("tensor hook 2", fmt(g)) or g * 10)\n'
        'y.grad_fn.register_prehook(lambda go: print("node pre 2", fmt(go)))\n'
        'x.register_hook(lambda g: print("x hook", fmt(g)))\n'
        'x.register_post_accumulate_grad_hook(lambda t: print("x post", fmt(t.grad)))\n'
        '(y * y).sum().backward()\n'
        'print(fmt(y.grad), fmt(x.grad))'),
    # hooks registered while backward runs count for the nodes still to run (not for the tensor whose hooks are
    # running); removing one that has not run yet stops it
    "hooks_added_and_removed_during_backward": (
        'x = torch.tensor([1., 2.], requires_grad=True)\n'
        'y = x * 2\n'
        'z = y * 3\n'
        'hy = y.register_hook(lambda g: print("y hook", fmt(g)))\n'
        'hp = x.register_post_accumulate_grad_hook(lambda t: print("post"))\n'
        'def hz(g):\n'
        '    print("hz", fmt(g)); hy.remove(); hp.remove()\n'
        '    y.register_hook(lambda g: print("late y", fmt(g)))\n'
        '    z.register_hook(lambda g: print("late z", fmt(g)))\n'
        '    y.retain_grad()\n'
        '    x.register_hook(lambda g: print("late x", fmt(g)) or g * 100)\n'
        '    y.grad_fn.register_prehook(lambda go: print("late y pre", fmt(go)))\n'
        '    z.grad_fn.register_hook(lambda gi, go: print("late z post", fmt(gi), fmt(go)))\n'
        'z.register_hook(hz)\n'
        'z.register_hook(lambda g: print("second z hook"))\n'
        'z.sum().backward()\n'
        'print(x.grad, y.grad)'),
    # what node hooks may return: a tuple as long as the gradients, of tensors of their type and size (a callable
    # object or a partial is named '<unknown>')
    "node_hook_return_checks": (
        'import functools\n'
        'class H:\n'
        '    def __call__(self, g): return g.sum()\n'
        'def base(k, g): return g[:1] * k\n'
        'x = torch.tensor([1., 2.], requires_grad=True)\n'
        'for hk in [H(), functools.partial(base, 2), lambda g: g.double()]:\n'
        '    y = x * 2\n'
        '    y.register_hook(hk)\n'
        '    tries(lambda: y.sum().backward())\n'
        'for reg, hk in [("register_prehook", functools.partial(base, 2)), ("register_prehook", lambda go: [go[0]]),\n'
        '                ("register_prehook", lambda go: (go[0].double(),)), ("register_hook", lambda gi, go: 5),\n'
        '                ("register_hook", lambda gi, go: (gi[0][:1],)), ("register_hook", lambda gi, go: [gi[0]])]:\n'
        '    y = x * 2\n'
        '    getattr(y.grad_fn, reg)(hk)\n'
        '    tries(lambda: y.sum().backward())'),
    # hooks run with grad mode off, or on under create_graph (their gradients then have a graph); .grad then adds
    # up out of place
    "grad_mode_inside_hooks": (
        'x = torch.tensor([1., 2.], requires_grad=True)\n'
        'x.register_hook(lambda g: print("x", torch.is_grad_enabled(), fmt(g)))\n'
        'y = x ** 2\n'
        'y.register_hook(lambda g: print("y", torch.is_grad_enabled(), fmt(g)))\n'
        'y.grad_fn.register_hook(lambda gi, go: print("node", torch.is_grad_enabled(), fmt(gi), fmt(go)))\n'
        'x.register_post_accumulate_grad_hook(lambda t: print("post", torch.is_grad_enabled(), fmt(t.grad)))\n'
        'y.sum().backward(retain_graph=True)\n'
        'y.sum().backward(create_graph=True)\n'
        'g0 = x.grad\n'
        'y.sum().backward(create_graph=True)\n'
        'print(g0 is x.grad, fmt(x.grad))'),
    # the "optimizer step in backward" recipe: a post-accumulate hook per parameter steps and zeroes it
    "optimizer_step_in_a_post_accumulate_hook": (
        'import torch.nn as nn\n'
        'torch.manual_seed(0)\n'
        'model = nn.Sequential(nn.Linear(3, 2), nn.ReLU(), nn.Linear(2, 1))\n'
        'opts = {p: torch.optim.SGD([p], lr=0.1) for p in model.parameters()}\n'
        'def hook(p):\n'
        '    print("step", tuple(p.shape))\n'
        '    opts[p].step(); opts[p].zero_grad()\n'
        'for p in model.parameters():\n'
        '    p.register_post_accumulate_grad_hook(hook)\n'
        'x = torch.randn(4, 3)\n'
        'for i in range(2):\n'
        '    loss = model(x).pow(2).mean()\n'
        '    loss.backward()\n'
        '    print(loss.item(), [p.grad for p in model.parameters()])\n'
        'print(model[0].weight)'),
}


@pytest.mark.parametrize("name", SNIPPETS)
def test_snippet(name):
    code = TRIES + FMT + SNIPPETS[name]
    t, e = run_both(T, E, code)
    assert same(t, e), f"\n{code}\n--- torch\n{t.summary()}--- engine\n{e.summary()}"
