"""torch.autograd.Function (custom autograd functions) against real PyTorch: the same snippets, the same printed
text, warnings and errors word for word, and the same final tensors and grad_fn graphs."""
import pytest

T = pytest.importorskip("torch", reason="differential tests need real PyTorch (pip install torch==2.13.0)")
from .harness import compare_namespaces, load_engine, run_both, same

E = load_engine()

MY_RELU = """
class MyReLU(torch.autograd.Function):
    @staticmethod
    def forward(ctx, input):
        ctx.save_for_backward(input)
        return input.clamp(min=0)

    @staticmethod
    def backward(ctx, grad_output):
        input, = ctx.saved_tensors
        grad_input = grad_output.clone()
        grad_input[input < 0] = 0
        return grad_input
"""

EXP = """
class Exp(torch.autograd.Function):
    @staticmethod
    def forward(ctx, i):
        result = i.exp()
        ctx.save_for_backward(result)
        return result

    @staticmethod
    def backward(ctx, grad_output):
        result, = ctx.saved_tensors
        return grad_output * result
"""

# A Function whose backward returns what `RET` computes from g, over forward(x, k, z).
RETURNS = """
def make(ret):
    class F(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x, k, z):
            return x * 2
        @staticmethod
        def backward(ctx, g):
            return ret(g)
    return F
x = torch.tensor([1., 2.], requires_grad=True)
z = torch.ones(2)
for ret in RETS:
    y = make(ret).apply(x, 3, z)
    try:
        y.sum().backward()
        print('ok', x.grad)
    except RuntimeError as e:
        print(e)
"""

SNIPPETS = {
    # ---- the tutorial's MyReLU: the node, its class and name, edges, outputs
    "tutorial_relu": MY_RELU + (
        "x = torch.tensor([-1., 2., 3.], requires_grad=True)\ny = MyReLU.apply(x)\n"
        "print(y, y.grad_fn, type(y.grad_fn), type(y.grad_fn).__name__, y.grad_fn.name())\n"
        "print(y.grad_fn.next_functions, y.is_leaf, y.requires_grad, y.output_nr, y._version)\n"
        "print(MyReLU._backward_cls, y.grad_fn.needs_input_grad, y.grad_fn.saved_tensors)\n"
        "y.sum().backward()\nprint(x.grad)\ny.sum().backward()"),
    "no_input_requires_grad": MY_RELU + (
        "y = MyReLU.apply(torch.tensor([-1., 2.]))\nprint(y, y.grad_fn, y.is_leaf, y.requires_grad)\n"
        "x = torch.tensor([1.], requires_grad=True)\nwith torch.no_grad():\n    w = MyReLU.apply(x)\n"
        "print(w, w.grad_fn, w.requires_grad)"),
    "forward_runs_without_grad": (
        "class F(torch.autograd.Function):\n    @staticmethod\n    def forward(ctx, x):\n"
        "        y = x * 2\n        print('forward', torch.is_grad_enabled(), y.requires_grad, y.grad_fn, "
        "type(ctx).__name__)\n        return y + 1\n"
        "    @staticmethod\n    def backward(ctx, g):\n        print('backward', torch.is_grad_enabled())\n"
        "        return g * 2\n"
        "x = torch.ones(2, requires_grad=True)\ny = F.apply(x)\nprint(y, y.grad_fn.next_functions)\n"
        "y.sum().backward()\nprint(x.grad)"),
    "ctx_is_the_node": (
        "class Who(torch.autograd.Function):\n    @staticmethod\n    def forward(ctx, x):\n        Who.ctx = ctx\n"
        "        return x * 2\n    @staticmethod\n    def backward(ctx, g):\n        return g * 2\n"
        "y = Who.apply(torch.ones(1, requires_grad=True))\n"
        "print(Who.ctx is y.grad_fn, isinstance(y.grad_fn, torch.autograd.function.FunctionCtx))\n"
        "print(torch.autograd.Function, torch.autograd.function.Function is torch.autograd.Function)\n"
        "print(torch.autograd.function.FunctionCtx, torch.autograd.function.BackwardCFunction)"),
    "non_tensor_arguments": (
        "class Scale(torch.autograd.Function):\n    @staticmethod\n    def forward(ctx, x, k, w=None):\n"
        "        ctx.k = k\n        print('forward needs', ctx.needs_input_grad)\n        return x * k\n"
        "    @staticmethod\n    def backward(ctx, g):\n        print('backward needs', ctx.needs_input_grad, ctx.k)\n"
        "        return g * ctx.k, None, None\n"
        "x = torch.tensor([1., 2.], requires_grad=True)\ny = Scale.apply(x, 3)\n"
        "print(y, y.grad_fn.next_functions, y.grad_fn.k)\ny.sum().backward()\nprint(x.grad)\n"
        "y = Scale.apply(x, 2, torch.ones(2))\nprint(y.grad_fn.next_functions)\ny.sum().backward()\nprint(x.grad)\n"
        "y = Scale.apply(torch.ones(2), 2, x)\nprint(y.grad_fn.needs_input_grad, y.grad_fn.next_functions)\n"
        "y.sum().backward()\nprint(x.grad)"),
    "ctx_attributes_survive": (
        "class Keep(torch.autograd.Function):\n    @staticmethod\n    def forward(ctx, x, constant):\n"
        "        ctx.constant = constant\n        ctx.x = x\n        return x * constant\n"
        "    @staticmethod\n    def backward(ctx, g):\n        print(ctx.constant, ctx.x)\n"
        "        return g * ctx.constant, None\n"
        "x = torch.tensor([1., 2.], requires_grad=True)\ny = Keep.apply(x, 3)\nprint(y.grad_fn.constant)\n"
        "y.sum().backward()\ny.sum().backward()\nprint(x.grad)"),
    # ---- what backward returns: counts, positions, types, shapes and dtypes, as PyTorch checks them
    "wrong_number_of_gradients": MY_RELU.replace("(ctx, input)", "(ctx, input, other)") + (
        "x = torch.tensor([-1., 2.], requires_grad=True)\ny = MyReLU.apply(x, torch.ones(2))\ny.sum().backward()"),
    "wrong_number_non_tensor_input": (
        "class Few(torch.autograd.Function):\n    @staticmethod\n    def forward(ctx, x, k):\n        return x * k\n"
        "    @staticmethod\n    def backward(ctx, g):\n        return g\n"
        "Few.apply(torch.ones(2, requires_grad=True), 2).sum().backward()"),
    "backward_results_checked": "RETS = [lambda g: (g, None, torch.ones(5)), lambda g: (g, None, 1.0),\n" + (
        "        lambda g: (1.0, 2, None), lambda g: (torch.ones(3), 2, None), lambda g: (g, 2, 1.0, None),\n"
        "        lambda g: (g, None, None, None), lambda g: (g, None, None, g), lambda g: None, lambda g: [g],\n"
        "        lambda g: (g.double(), None, None), lambda g: (g.int(), None, None),\n"
        "        lambda g: (torch.ones(2, 1), None, None), lambda g: (torch.ones(1), None, None),\n"
        "        lambda g: (torch.ones(4, 2, dtype=torch.float64), None, None)]\n"
        ) + RETURNS,
    "invalid_gradient_index": (
        "class Shape(torch.autograd.Function):\n    @staticmethod\n    def forward(ctx, x, z):\n        return x * 2\n"
        "    @staticmethod\n    def backward(ctx, g):\n        return g, torch.ones(3)\n"
        "Shape.apply(torch.ones(2, requires_grad=True), torch.ones(2, requires_grad=True)).sum().backward()"),
    "backward_returns_none": (
        "class G(torch.autograd.Function):\n    @staticmethod\n    def forward(ctx, x):\n        return x * 2\n"
        "    @staticmethod\n    def backward(ctx, g):\n        return None\n"
        "x = torch.ones(2, requires_grad=True)\nG.apply(x).sum().backward()\nprint(x.grad)\n"
        "torch.autograd.grad(G.apply(x).sum(), x)"),
    "not_implemented": (
        "class NoBack(torch.autograd.Function):\n    @staticmethod\n    def forward(ctx, x):\n        return x * 2\n"
        "class NoFwd(torch.autograd.Function):\n    pass\nx = torch.ones(2, requires_grad=True)\n"
        "try:\n    NoFwd.apply(x)\nexcept NotImplementedError as e:\n    print(e)\nNoBack.apply(x).sum().backward()"),
    # ---- legacy use
    "legacy_call": MY_RELU + "x = torch.ones(2, requires_grad=True)\nMyReLU()(x)",
    "instantiate_then_apply": MY_RELU + "m = MyReLU()\nprint(m.apply(torch.tensor([-1., 1.], requires_grad=True)))",
    # ---- saved tensors: version counter, freed graph, outputs, intermediates, bad arguments
    "saved_input_modified": MY_RELU + (
        "x = torch.tensor([-1., 2., 3.], requires_grad=True)\ny = MyReLU.apply(x)\nwith torch.no_grad():\n"
        "    x.mul_(2)\ntry:\n    y.grad_fn.saved_tensors\nexcept RuntimeError as e:\n    print(e)\n"
        "y.sum().backward()"),
    "saved_nonleaf_modified": MY_RELU + (
        "x = torch.tensor([-1., 2., 3.], requires_grad=True)\nh = x * 1\ny = MyReLU.apply(h)\nh.add_(1)\n"
        "y.sum().backward()"),
    "saved_output": EXP + (
        "x = torch.tensor([0., 1.], requires_grad=True)\ny = Exp.apply(x)\nr, = y.grad_fn.saved_tensors\n"
        "print(r, r is y, r.grad_fn is y.grad_fn, r.output_nr)\ny.sum().backward(retain_graph=True)\nprint(x.grad)\n"
        "y.add_(1)\nprint(y.grad_fn)\nf = y.grad_fn.next_functions[0][0]\ntry:\n    f(torch.ones(2))\n"
        "except TypeError as e:\n    print(e)\nf.saved_tensors"),
    "saved_output_modified": EXP + (
        "x = torch.tensor([0., 1.], requires_grad=True)\ny = Exp.apply(x)\nz = y * 1\n"
        "with torch.no_grad():\n    y.add_(1)\nz.sum().backward()"),
    "freed_graph": MY_RELU + (
        "x = torch.tensor([-1., 2.], requires_grad=True)\ny = MyReLU.apply(x)\ny.sum().backward(retain_graph=True)\n"
        "y.sum().backward()\nprint(x.grad)\ntry:\n    y.grad_fn.saved_tensors\nexcept RuntimeError as e:\n"
        "    print(e)\nprint(y.grad_fn.needs_input_grad)\ny.sum().backward()"),
    "freed_graph_nothing_saved": (
        "class NoSave(torch.autograd.Function):\n    @staticmethod\n    def forward(ctx, i):\n        return i * 2\n"
        "    @staticmethod\n    def backward(ctx, g):\n        return g * 2\n"
        "class Peek(NoSave):\n    @staticmethod\n    def backward(ctx, g):\n        print(ctx.saved_tensors)\n"
        "        return g * 2\n"
        "x = torch.ones(2, requires_grad=True)\ny = NoSave.apply(x)\ny.sum().backward()\ny.sum().backward()\n"
        "print(x.grad)\ny = Peek.apply(x)\ny.sum().backward()\ny.sum().backward()"),
    "saved_intermediate_and_none": (
        "class Inter(torch.autograd.Function):\n    @staticmethod\n    def forward(ctx, i):\n        t = i * 2\n"
        "        ctx.save_for_backward(t, None)\n        print('in forward', ctx.saved_tensors)\n        return t + 1\n"
        "    @staticmethod\n    def backward(ctx, g):\n        t, n = ctx.saved_tensors\n        print(t, n)\n"
        "        return g * t\n"
        "x = torch.tensor([0., 1.], requires_grad=True)\ny = Inter.apply(x)\nprint(y.grad_fn.saved_tensors)\n"
        "y.sum().backward()\nprint(x.grad)"),
    "save_non_tensor": (
        "class Bad(torch.autograd.Function):\n    @staticmethod\n    def forward(ctx, i):\n"
        "        ctx.save_for_backward(i, 3)\n        return i * 1\n"
        "    @staticmethod\n    def backward(ctx, g):\n        return g\nBad.apply(torch.ones(2, requires_grad=True))"),
    # ---- mark_dirty, mark_non_differentiable, set_materialize_grads
    "mark_dirty": (
        "class AddOne(torch.autograd.Function):\n    @staticmethod\n    def forward(ctx, x):\n        x.add_(1)\n"
        "        ctx.mark_dirty(x)\n        return x\n    @staticmethod\n    def backward(ctx, g):\n        return g\n"
        "a = torch.tensor([1., 2.], requires_grad=True)\nh = a * 1\nr = AddOne.apply(h)\n"
        "print(r is h, r, h._version, h.grad_fn.next_functions, h.is_leaf)\nr.sum().backward()\nprint(a.grad)\n"
        "c = torch.tensor([1., 2.])\nr = AddOne.apply(c)\nprint(r is c, r, c._version, r.grad_fn)\n"
        "try:\n    AddOne.apply(a)\nexcept RuntimeError as e:\n    print(e)\nprint(a, a._version)"),
    "mark_dirty_not_returned": (
        "class D(torch.autograd.Function):\n    @staticmethod\n    def forward(ctx, x, y):\n        x.add_(1)\n"
        "        y.add_(1)\n        ctx.mark_dirty(x, y)\n        return x\n"
        "    @staticmethod\n    def backward(ctx, g):\n        return g, None\nD.apply(torch.ones(2), torch.ones(2))"),
    "mark_dirty_other_input_requires_grad": (
        "class D2(torch.autograd.Function):\n    @staticmethod\n    def forward(ctx, x, y):\n        x.add_(1)\n"
        "        ctx.mark_dirty(x)\n        return x\n    @staticmethod\n    def backward(ctx, g):\n"
        "        print('needs', ctx.needs_input_grad)\n        return g * 5, g\n"
        "c = torch.ones(2)\nx = torch.tensor([1., 2.], requires_grad=True)\nr = D2.apply(c, x)\n"
        "print(r is c, c.is_leaf, c.requires_grad, c._version, c.output_nr)\nc.sum().backward()\nprint(x.grad)"),
    "mark_dirty_view": (
        "class Dbl(torch.autograd.Function):\n    @staticmethod\n    def forward(ctx, x):\n        x.mul_(2)\n"
        "        ctx.mark_dirty(x)\n        return x\n    @staticmethod\n    def backward(ctx, g):\n"
        "        return g * 2\nw = torch.ones(2, 2, requires_grad=True)\nh = w * 1\nv = h[0]\nr = Dbl.apply(v)\n"
        "print(r is v, v.grad_fn, h.grad_fn, h)\nh.sum().backward()\nprint(w.grad)"),
    "mark_non_differentiable": (
        "class Arg(torch.autograd.Function):\n    @staticmethod\n    def forward(ctx, x):\n        a = x * 2\n"
        "        b = x * 3\n        ctx.mark_non_differentiable(b)\n        return a, b, x.argmax()\n"
        "    @staticmethod\n    def backward(ctx, ga, gb, gi):\n        print('grads', ga, gb, gi)\n"
        "        return ga * 2\n"
        "x = torch.tensor([1., 3., 2.], requires_grad=True)\na, b, i = Arg.apply(x)\n"
        "print(a, b, i, b.requires_grad, b.grad_fn, b.output_nr, i.requires_grad)\n(a + b).sum().backward()\n"
        "print(x.grad)\nb.sum().backward()"),
    "materialize_grads": (
        "class Split(torch.autograd.Function):\n    @staticmethod\n    def forward(ctx, x):\n"
        "        return x * 2, x * 3\n    @staticmethod\n    def backward(ctx, g1, g2):\n        print('got', g1, g2)\n"
        "        return (g1 if g1 is not None else 0) * 2 + (g2 if g2 is not None else 0) * 3\n"
        "class Lazy(Split):\n    @staticmethod\n    def forward(ctx, x):\n        ctx.set_materialize_grads(False)\n"
        "        return x * 2, x * 3\n"
        "x = torch.tensor([1., 2.], requires_grad=True)\na, b = Split.apply(x)\na.sum().backward()\nprint(x.grad)\n"
        "a, b = Lazy.apply(x)\nb.sum().backward()\nprint(x.grad)"),
    # ---- several outputs, non-tensor outputs
    "multiple_outputs": (
        "class Split(torch.autograd.Function):\n    @staticmethod\n    def forward(ctx, x):\n"
        "        return x * 2, 5, x * 3, None\n    @staticmethod\n    def backward(ctx, g1, g5, g2, gn):\n"
        "        print('got', g1, g5, g2, gn)\n        return g1 * 2 + g2 * 3\n"
        "x = torch.tensor([1., 2.], requires_grad=True)\nr = Split.apply(x)\na, five, b, none = r\n"
        "print(r, a.output_nr, b.output_nr, a.grad_fn is b.grad_fn, b.grad_fn.next_functions)\n"
        "(a * b).sum().backward()\nprint(x.grad)\nb.retain_grad()\nb.register_hook(lambda g: print('hook', g))\n"
        "b.sum().backward()\nprint(x.grad, b.grad)"),
    "same_tensor_returned_twice": (
        "class Twice(torch.autograd.Function):\n    @staticmethod\n    def forward(ctx, x):\n        y = x * 2\n"
        "        return y, y\n    @staticmethod\n    def backward(ctx, a, b):\n        print('ab', a, b)\n"
        "        return a + b\nx = torch.tensor([1., 2.], requires_grad=True)\np, q = Twice.apply(x)\n"
        "print(p is q, p.output_nr, q.output_nr)\n(p.sum() + 3 * q.sum()).backward()\nprint(x.grad)"),
    "non_tensor_outputs": (
        "for ret in ['5', '[x * 2, x]', \"{'a': x * 2}\", 'None', '(x * 2, [x])']:\n"
        "    class NT(torch.autograd.Function):\n        @staticmethod\n        def forward(ctx, x):\n"
        "            return eval(ret)\n        @staticmethod\n        def backward(ctx, *g):\n            return g[0]\n"
        "    print(NT.apply(torch.tensor([1., 2.], requires_grad=True)))"),
    # ---- inputs returned as they are: a view
    "input_returned_as_is": (
        "class Ident(torch.autograd.Function):\n    @staticmethod\n    def forward(ctx, x):\n        return x\n"
        "    @staticmethod\n    def backward(ctx, g):\n        return g * 3\n"
        "a = torch.tensor([1., 2.], requires_grad=True)\ny = Ident.apply(a)\n"
        "print(y is a, y, y._base is a, y._is_view(), y.grad_fn.next_functions, y._version)\n"
        "y.sum().backward()\nprint(a.grad)\nz = Ident.apply(torch.ones(2))\nprint(z, z._is_view())\nz.mul_(2)\n"
        "print(z)\ny.mul_(2)"),
    "view_output_modified": (
        "class View(torch.autograd.Function):\n    @staticmethod\n    def forward(ctx, x):\n        return x[0]\n"
        "    @staticmethod\n    def backward(ctx, g):\n        r = torch.zeros(2)\n        r[0] = g\n        return r\n"
        "h = torch.tensor([1., 2.], requires_grad=True) * 1\ny = View.apply(h)\n"
        "print(y, y._is_view(), y._base is h, y.requires_grad)\n(y * 2).backward()\ny[...] = 3"),
    # ---- the new style: forward without ctx, setup_context
    "setup_context": (
        "class MulC(torch.autograd.Function):\n    @staticmethod\n    def forward(x, k=2.0):\n"
        "        print('forward', torch.is_grad_enabled())\n        return x * k\n"
        "    @staticmethod\n    def setup_context(ctx, inputs, output):\n"
        "        print('setup', inputs, output, type(ctx).__name__, torch.is_grad_enabled())\n"
        "        x, k = inputs\n        ctx.k = k\n        ctx.save_for_backward(x)\n"
        "    @staticmethod\n    def backward(ctx, g):\n        x, = ctx.saved_tensors\n        return g * ctx.k, None\n"
        "x = torch.tensor([1., 2.], requires_grad=True)\ny = MulC.apply(x)\nprint(y)\ny.sum().backward()\n"
        "print(x.grad)\nMulC.apply(x, k=3.0).sum().backward()\nprint(x.grad)\nMulC.apply(x, 1.0, 2)"),
    "kwargs_old_style": (
        "class KW(torch.autograd.Function):\n    @staticmethod\n    def forward(ctx, x, k=2):\n        return x * k\n"
        "    @staticmethod\n    def backward(ctx, g):\n        return g, None\n"
        "x = torch.tensor([1., 2.], requires_grad=True)\nprint(KW.apply(x, k=3), KW.apply(x))\n"
        "KW.apply(x, k=3).sum().backward()\nprint(x.grad)\nKW.apply()"),
    # ---- double backward, once_differentiable
    "double_backward": (
        "class Cube(torch.autograd.Function):\n    @staticmethod\n    def forward(ctx, x):\n"
        "        ctx.save_for_backward(x)\n        return x ** 3\n    @staticmethod\n    def backward(ctx, g):\n"
        "        x, = ctx.saved_tensors\n        print('backward', torch.is_grad_enabled(), x.requires_grad)\n"
        "        return g * 3 * x ** 2\n"
        "x = torch.tensor(2., requires_grad=True)\ny = Cube.apply(x)\n"
        "g, = torch.autograd.grad(y, x, create_graph=True)\nprint(g, g.grad_fn)\ng.backward()\nprint(x.grad)\n"
        "x.grad = None\nCube.apply(x).backward(create_graph=True)\nprint(x.grad)"),
    "double_backward_saved_output": EXP + (
        "x = torch.tensor([0.5, 1.], requires_grad=True)\ny = Exp.apply(x)\n"
        "g, = torch.autograd.grad(y.sum(), x, create_graph=True)\nprint(g)\ng.sum().backward()\nprint(x.grad)"),
    "once_differentiable": (
        "class Cube1(torch.autograd.Function):\n    @staticmethod\n    def forward(ctx, x):\n"
        "        ctx.save_for_backward(x)\n        return x ** 3\n    @staticmethod\n"
        "    @torch.autograd.function.once_differentiable\n    def backward(ctx, g):\n"
        "        x, = ctx.saved_tensors\n        print('backward', torch.is_grad_enabled())\n"
        "        return g * 3 * x ** 2\n"
        "print(Cube1.backward.__name__)\nx = torch.tensor(2., requires_grad=True)\n"
        "g, = torch.autograd.grad(Cube1.apply(x), x, create_graph=True)\nprint(g, g.grad_fn, g.requires_grad)\n"
        "g, = torch.autograd.grad(Cube1.apply(x) ** 2, x, create_graph=True)\n"
        "print(g, g.grad_fn, g.grad_fn.name(), g.is_leaf)\ng.backward()"),
    "once_differentiable_several_outputs": (
        "class Split(torch.autograd.Function):\n    @staticmethod\n    def forward(ctx, x, y):\n"
        "        return x * 2, y * 3\n    @staticmethod\n    @torch.autograd.function.once_differentiable\n"
        "    def backward(ctx, g1, g2):\n        return g1 * 2, g2 * 3\n"
        "x = torch.tensor(2., requires_grad=True)\ny = torch.tensor(1., requires_grad=True)\na, b = Split.apply(x, y)\n"
        "gx, gy = torch.autograd.grad(a ** 2 + b ** 2, [x, y], create_graph=True)\n"
        "print(gx, gy, gx.grad_fn is gy.grad_fn, gy.output_nr)\n(gx + gy).backward()"),
    # ---- hooks on the node and its outputs
    "hooks": (
        "class H(torch.autograd.Function):\n    @staticmethod\n    def forward(ctx, x):\n        return x * 2\n"
        "    @staticmethod\n    def backward(ctx, g):\n        return g * 2\n"
        "x = torch.tensor([1.], requires_grad=True)\ny = H.apply(x)\n"
        "y.grad_fn.register_hook(lambda gi, go: print('hook', gi, go))\n"
        "y.grad_fn.register_prehook(lambda go: print('prehook', go))\ny.register_hook(lambda g: print('thook', g))\n"
        "y.retain_grad()\ny.sum().backward()\nprint(y.grad, x.grad)"),
    "mark_shared_storage_warns": (
        "class F(torch.autograd.Function):\n    @staticmethod\n    def forward(ctx, x):\n"
        "        ctx.mark_shared_storage((x, x))\n        return x * 2\n    @staticmethod\n"
        "    def backward(ctx, g):\n        return g\nprint(F.apply(torch.ones(1, requires_grad=True)))"),
}


@pytest.mark.parametrize("name", SNIPPETS)
def test_function_snippet(name):
    """Printed text, warnings and the final error are identical (addresses blanked), and so are the tensors and
    grad_fn graphs left in the namespace."""
    code = SNIPPETS[name]
    t, e = run_both(T, E, code)
    assert same(t, e), f"\n{code}\n--- torch\n{t.summary()}--- engine\n{e.summary()}"
    diffs = compare_namespaces(t.namespace, e.namespace, T, E)
    assert not diffs, f"\n{code}\n" + "\n".join(diffs)
