"""Random sequences of autograd API calls against real PyTorch (session 19): hook registration checks, what a
node's post-hooks see in a pass that needs only some inputs, materialize_grads with create_graph."""
import pytest

T = pytest.importorskip("torch", reason="differential tests need real PyTorch (pip install torch==2.13.0)")
from .harness import SHOW, load_engine, run_both, same  # noqa: E402

E = load_engine()

SNIPPETS = {
    "post_accumulate_grad_hook_needs_requires_grad": SHOW + (
        'x = torch.tensor([1., 2.])\n'
        'y = torch.tensor([1., 2.], requires_grad=True)\n'
        'tries(lambda: x.register_post_accumulate_grad_hook(lambda p: None),\n'
        '      lambda: (y * 2).register_post_accumulate_grad_hook(lambda p: None),\n'
        '      lambda: y.requires_grad_(False).register_post_accumulate_grad_hook(lambda p: None))'),
    "node_post_hooks_see_only_needed_gradients": (
        'a = torch.tensor([1., 2.], requires_grad=True)\n'
        'b = torch.tensor([3., 4.], requires_grad=True)\n'
        'c = torch.tensor([5., 6.])\n'
        'for f in [lambda: a * b, lambda: torch.where(a > 1, a, b), lambda: torch.addcmul(a, a, b), lambda: a @ b,\n'
        '          lambda: torch.maximum(a, b), lambda: torch.cat([a, b, c]), lambda: torch.stack([b, a]),\n'
        '          lambda: torch.block_diag(a.view(1, 2), b.view(2, 1)), lambda: a.expand(2, 2) + b]:\n'
        '    y = f()\n'
        '    y.grad_fn.register_hook(lambda gi, go: print(type(y.grad_fn).__name__, gi))\n'
        '    y.sum().backward(inputs=[a], retain_graph=True)\n'
        '    print(torch.autograd.grad(y.sum(), b))\n'
        '    y.sum().backward()\n'
        'y = torch.cat([a, c]); y.grad_fn.register_hook(lambda gi, go: print(gi)); y.sum().backward()\n'
        'y = torch.stack([c, a]); y.grad_fn.register_hook(lambda gi, go: print(gi)); y.sum().backward()\n'
        'class F(torch.autograd.Function):\n'
        '    @staticmethod\n'
        '    def forward(ctx, a, b):\n'
        '        return a * b\n'
        '    @staticmethod\n'
        '    def backward(ctx, g):\n'
        '        print("needs", ctx.needs_input_grad)\n'
        '        return g * 2, g * 3\n'
        'y = F.apply(a, b); y.grad_fn.register_hook(lambda gi, go: print("F", gi)); y.sum().backward(inputs=[b])'),
    "materialized_grads_require_grad_with_create_graph": (
        'x = torch.tensor([1., 2.], requires_grad=True)\n'
        'u = torch.tensor([1., 2.], requires_grad=True)\n'
        'r = torch.autograd.grad((x * x).sum(), [x, u], create_graph=True, materialize_grads=True)\n'
        'print(r, [t.is_leaf for t in r])\n'
        'print(torch.autograd.grad((x * x).sum(), [x, u], materialize_grads=True))\n'
        'e = torch.autograd.graph.get_gradient_edge(u)\n'
        'try:\n'
        '    torch.autograd.grad((x * x).sum(), [x, e], materialize_grads=True)\n'
        'except Exception as err:\n'
        '    print(type(err).__name__, err)'),
    "node_called_directly_gives_none_for_inputs_without_grad": (
        'a = torch.tensor([1., 2.], requires_grad=True)\n'
        'c = torch.tensor([3., 4.])\n'
        'for f in [lambda: a + c, lambda: c + a, lambda: c - a, lambda: c * a, lambda: torch.cat([c, a]),\n'
        '          lambda: torch.where(a > 1, c, a), lambda: torch.addcmul(c, a, c)]:\n'
        '    y = f()\n'
        '    print(type(y.grad_fn).__name__, y.grad_fn(torch.ones_like(y)))'),
    "var_and_std_without_degrees_of_freedom": (
        'import warnings; warnings.simplefilter("ignore")\n'
        'for v in [[1., 2.], [3.], [[2.]]]:\n'
        '    x = torch.tensor(v, requires_grad=True)\n'
        '    for f in [lambda t: t.var(correction=2), lambda t: t.std(correction=2), lambda t: t.var(0, correction=2),\n'
        '              lambda t: torch.var_mean(t, correction=2)[0], lambda t: torch.std_mean(t, correction=2)[0],\n'
        '              lambda t: torch.std_mean(t)[0], lambda t: t.var(keepdim=True, correction=2).sum()]:\n'
        '        g1, = torch.autograd.grad(f(x), x, create_graph=True)\n'
        '        print(g1, g1.grad_fn, g1.grad_fn and g1.grad_fn.next_functions)\n'
        'x = torch.tensor(-1., requires_grad=True)\n'
        'y = x.std(); y.backward(); print(x.grad)\n'
        'x = torch.tensor([1.], dtype=torch.float64, requires_grad=True)\n'
        'y = x.std(); print(y.grad_fn(torch.ones_like(y)))\n'
        'g, = torch.autograd.grad(x.var(), x, create_graph=True); print(g, g.grad_fn)'),
    "lone_root_not_leading_to_inputs_runs_its_tensor_hooks": (
        'x = torch.tensor([1., 2.], requires_grad=True)\n'
        'u = torch.tensor([1., 2.], requires_grad=True)\n'
        'y = x * 2\n'
        'L = y.sum()\n'
        'L.register_hook(lambda g: print("th", g)); L.retain_grad()\n'
        'L.grad_fn.register_prehook(lambda go: print("pre", go))\n'
        'y.register_hook(lambda g: print("yh", g)); x.register_hook(lambda g: print("xh", g))\n'
        'print(torch.autograd.grad(L, u, allow_unused=True, retain_graph=True), L.grad)\n'
        'L.backward(inputs=[u], retain_graph=True); print(L.grad)\n'
        'print(torch.autograd.grad(L, u, grad_outputs=torch.tensor(3.), materialize_grads=True, retain_graph=True))\n'
        'print(torch.autograd.grad([L, y.sum()], u, allow_unused=True, retain_graph=True))\n'
        'print(torch.autograd.grad(x, u, torch.ones(2), allow_unused=True))\n'
        'L.register_hook(lambda g: g.double())\n'
        'try:\n'
        '    torch.autograd.grad(L, u)\n'
        'except Exception as e:\n'
        '    print(type(e).__name__, e)'),
    "backward_of_none": SHOW + (
        'x = torch.tensor([1., 2.], requires_grad=True)\n'
        'tries(lambda: torch.autograd.backward(None), lambda: torch.autograd.backward([None]),\n'
        '      lambda: torch.autograd.grad(None, x), lambda: torch.autograd.backward((x * 2).sum(), None))'),
    "multi_grad_hook_in_a_backward_with_inputs": SHOW + (
        'a = torch.tensor([1., 2.], requires_grad=True)\n'
        'b = torch.tensor([3., 4.], requires_grad=True)\n'
        'c = torch.tensor([5., 6.], requires_grad=True)\n'
        'h = torch.autograd.graph.register_multi_grad_hook((a, b, c), lambda gs: print("all", gs))\n'
        '(a * b).sum().backward()\n'
        '(a * b).sum().backward(inputs=[a])\n'
        'tries(lambda: torch.autograd.grad((a * b * c).sum(), [a, c]))\n'
        'h.remove()\n'
        'y = a * 2; z = y * b\n'
        'h = torch.autograd.graph.register_multi_grad_hook((y, a), lambda g: print("all", g))\n'
        'tries(lambda: torch.autograd.grad(z.sum(), [y], retain_graph=True),\n'
        '      lambda: torch.autograd.grad(z.sum(), [b], retain_graph=True),\n'
        '      lambda: torch.autograd.grad(z.sum(), [a], retain_graph=True))\n'
        'h.remove()\n'
        'h = torch.autograd.graph.register_multi_grad_hook((y, a), lambda g: print("any", g), mode="any")\n'
        'tries(lambda: torch.autograd.grad(y, c, torch.ones(2), allow_unused=True))\n'
        'y.backward(torch.ones(2), inputs=[c])'),
    "var_mean_and_std_mean_mean_gradient_node": (
        'x = torch.tensor([[0.5, 3., -2.], [1., 2., 4.]], requires_grad=True)\n'
        'for f in [lambda t: torch.var_mean(t, 0)[1], lambda t: torch.std_mean(t)[1],\n'
        '          lambda t: sum(torch.var_mean(t, 1, keepdim=True))]:\n'
        '    g, = torch.autograd.grad(f(x).sum(), x, torch.tensor(2., requires_grad=True), create_graph=True)\n'
        '    print(g, g.grad_fn, g.grad_fn.next_functions)'),
    "selection_gradients_keep_negative_zeros": (
        'x = torch.tensor([[-0.5, 0., -0.5], [2., 1.5, 0.]], dtype=torch.float64, requires_grad=True)\n'
        'for f in [lambda t: t.topk(1, 0)[0], lambda t: t.sort(0)[0], lambda t: t.kthvalue(1, 0)[0],\n'
        '          lambda t: t.median(0)[0], lambda t: t.max(0)[0], lambda t: t.masked_select(t > 1),\n'
        '          lambda t: t.diagonal(), lambda t: t.diagonal(1)]:\n'
        '    y = f(x)\n'
        '    print(torch.autograd.grad(y, x, -torch.zeros_like(y)))'),
    "multi_grad_hook_does_not_count_a_lone_root": (
        'x = torch.tensor([1., 2.], requires_grad=True)\n'
        'y = x * 2\n'
        'L = y.sum()\n'
        'h = torch.autograd.graph.register_multi_grad_hook((L, y), lambda g: print("all", g))\n'
        'L.backward(retain_graph=True)\n'
        'L.backward(inputs=[x], retain_graph=True)\n'
        'torch.autograd.grad(L, y, retain_graph=True)\n'
        'torch.autograd.backward([L, y.sum()], retain_graph=True)\n'
        'y.backward(torch.ones(2), retain_graph=True)\n'
        'h.remove()\n'
        'h = torch.autograd.graph.register_multi_grad_hook((y, x), lambda g: print("leaf", g))\n'
        'x.backward(torch.ones(2)); L.backward(retain_graph=True)'),
    "prod_of_one_zero_element": SHOW + (
        'for v in [[0.], [[0.], [2.]]]:\n'
        '    x = torch.tensor(v, requires_grad=True)\n'
        '    y = x.prod()\n'
        '    g, = torch.autograd.grad(y, x, create_graph=True)\n'
        '    print(g, g.grad_fn, y.grad_fn(torch.tensor(1.)))\n'
        '    g, = torch.autograd.grad(x.prod(-1).sum(), x, create_graph=True)\n'
        '    print(g, g.grad_fn)\n'
        '    tries(lambda: torch.autograd.grad(g.sum(), x))'),
}


@pytest.mark.parametrize("name", SNIPPETS)
def test_snippet(name):
    code = SNIPPETS[name]
    t, e = run_both(T, E, code)
    assert same(t, e), f"\n{code}\n--- torch\n{t.summary()}--- engine\n{e.summary()}"
