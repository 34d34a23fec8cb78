"""Programs as Chinese blog posts (CSDN, 知乎, 博客园, 简书) explain autograd to beginners, against real PyTorch: the
legacy torch.autograd.Variable (its arguments, its class attributes, its execution engine's final callbacks), .data
against .detach(), retain_graph and the second backward, weighted backward on non-scalars, accumulated gradients and
zero_(), hooks printing and doubling gradients, autograd.grad for second derivatives, the grad-mode switches, a linear
regression updated by hand and the mistakes those posts warn about. Printed text, warnings and the final error must
be the same."""
import pytest

T = pytest.importorskip("torch", reason="differential tests need real PyTorch (pip install torch==2.13.0)")
from .harness import SHOW, load_engine, run_both, same  # noqa: E402

E = load_engine()

SNIPPETS = {
    # Variable(data, requires_grad, volatile, _grad_fn, name) reads its flags as C bytes (PyArg "b"): an int or a
    # one-element integer tensor is fine, a float, None, a str or a float tensor is a TypeError, 256 and -1 overflow;
    # a name that is not a str is refused by position
    "variable_flags_read_as_c_bytes": (
        'from torch.autograd import Variable\n'
        'x = torch.ones(2)\n'
        'for a in [True, 0, 1, 255, torch.tensor(1), torch.tensor(0), torch.tensor([True]), 2.0, None, "yes",\n'
        '          torch.tensor(1.), torch.ones(2), 256, -1, [1]]:\n'
        '    for kw in ("requires_grad", "volatile"):\n'
        '        try:\n'
        '            v = Variable(x, **{kw: a})\n'
        '            print(kw, v.requires_grad, v.is_leaf)\n'
        '        except Exception as e:\n'
        '            print(kw, type(e).__name__, e)\n'
        'tries(lambda: Variable(x, 1.5), lambda: Variable(x, torch.ones(2)), lambda: Variable(x, 2),\n'
        '      lambda: Variable(x, name=3), lambda: Variable(x, False, False, None, b"n"),\n'
        '      lambda: Variable(x, 2.0, name=3), lambda: Variable(torch.tensor([1, 2]), 1))'),
    # what the posts print about Variable itself: the class behind torch.autograd.variable (a function there, with the
    # class as its attribute), the type of the torch.autograd module, the engine object every backward goes through;
    # "torch.Tensor is a class, torch.tensor a function"
    "variable_class_and_its_engine": (
        'from torch.autograd import Variable\n'
        'print(type(torch.tensor), torch.Tensor, torch.nn.Parameter)\n'
        'class MyTensor(torch.Tensor):\n'
        '    pass\n'
        'print(MyTensor, MyTensor([1., 2.]), type(torch.FloatTensor))\n'
        'import torch.autograd.variable\n'
        'print(torch.autograd.variable, torch.autograd.variable.Variable is Variable)\n'
        'print(type(torch.autograd), type(torch.autograd.grad_mode), type(torch.nn))\n'
        'print(type(Variable), type(Variable._execution_engine), "_execution_engine" in dir(Variable))\n'
        'print(Variable._execution_engine.is_checkpoint_valid(), isinstance(torch.ones(1), Variable))\n'
        'x = Variable(torch.tensor([1., 2.]), requires_grad=True)\n'
        'print(type(x), x, Variable(x) is x, Variable(x).requires_grad, Variable(x)._version)'),
    # Variable._execution_engine.queue_callback from a hook: the callbacks run when the pass's graph is done (grad
    # mode as in the pass, a callback may queue another), in the innermost pass; outside a pass it is refused;
    # is_checkpoint_valid is False inside autograd.grad
    "execution_engine_final_callbacks": (
        'from torch.autograd import Variable\n'
        'E = Variable._execution_engine\n'
        'tries(lambda: E.queue_callback(lambda: print("cb")))\n'
        'x = torch.ones(2, requires_grad=True)\n'
        'y = x * 2\n'
        'def hook(g):\n'
        '    print("hook", g, E.is_checkpoint_valid(), torch.is_grad_enabled())\n'
        '    E.queue_callback(lambda: print("final", x.grad, torch.is_grad_enabled()))\n'
        'y.register_hook(hook)\n'
        'y.sum().backward()\n'
        'print("after", x.grad)\n'
        'y = x * 3\n'
        'def h2(g):\n'
        '    def cb():\n'
        '        print("cb1")\n'
        '        E.queue_callback(lambda: print("cb2"))\n'
        '    E.queue_callback(cb)\n'
        '    print(E.is_checkpoint_valid())\n'
        'y.register_hook(h2)\n'
        'print(torch.autograd.grad(y.sum(), x, create_graph=True))\n'
        'y = x * 3\n'
        'y.register_hook(lambda g: E.queue_callback(lambda: 1 / 0))\n'
        'tries(lambda: y.sum().backward())\n'
        'print(x.grad)\n'
        'def outer(g):\n'
        '    E.queue_callback(lambda: print("outer done"))\n'
        '    with torch.enable_grad():\n'
        '        z = x * 5\n'
        '        z.register_hook(lambda g: E.queue_callback(lambda: print("inner done")))\n'
        '        z.sum().backward()\n'
        '    print("inner returned")\n'
        'y = x * 3\n'
        'y.register_hook(outer)\n'
        'y.sum().backward()\n'
        'print(x.grad)\n'
        'y = x * 3\n'
        'y.register_hook(lambda g: E.queue_callback(3))\n'
        'tries(lambda: y.sum().backward())\n'
        'tries(lambda: E.queue_callback(lambda: 0))'),
    # the classic Variable walkthrough: type, data, grad, grad_fn of each step, is_leaf with Chinese labels
    "variable_walkthrough": (
        'from torch.autograd import Variable\n'
        'x = Variable(torch.ones(2, 2), requires_grad=True)\n'
        'print(x, type(x), x.data, x.grad, x.grad_fn)\n'
        'y = x + 2\n'
        'z = y * y * 3\n'
        'out = z.mean()\n'
        'print(y, y.grad_fn, z, out)\n'
        'out.backward()\n'
        'print(x.grad, x.grad.data)\n'
        'print(f"x是叶子节点吗: {x.is_leaf}, y是叶子节点吗: {y.is_leaf}")\n'
        'v = Variable(torch.randn(3), volatile=True)\n'
        'print(v.requires_grad, v.volatile)\n'
        'tries(lambda: Variable(torch.tensor([1, 2]), requires_grad=True),\n'
        '      lambda: Variable(torch.ones(2), volatile=True, requires_grad=True), lambda: Variable([1., 2.]))'),
    # .data shares memory without the version counter (a wrong gradient, silently); .detach() shares it too, and
    # backward sees the change
    "data_against_detach": (
        'a = torch.tensor([1., 2., 3.], requires_grad=True)\n'
        'out = a.sigmoid()\n'
        'c = out.data\n'
        'print(c, c.requires_grad, c.is_leaf, c.grad_fn)\n'
        'c.zero_()\n'
        'out.sum().backward()\n'
        'print("用.data修改后梯度(错误但不报错):", a.grad, out._version)\n'
        'a.grad.zero_()\n'
        'out = a.sigmoid()\n'
        'd = out.detach()\n'
        'd.zero_()\n'
        'print(out, out._version, d._version)\n'
        'try:\n'
        '    out.sum().backward()\n'
        'except RuntimeError as e:\n'
        '    print("报错:", e)\n'
        'print(a.grad)'),
    # x.data = ... after the graph was built: an op's saved output keeps its old memory, a saved leaf is the leaf
    # (its new data), in-place on .data goes unnoticed
    "data_assigned_after_the_graph_was_built": (
        'x = torch.tensor([1., 2., 3.], requires_grad=True)\n'
        'y = x.exp()\n'
        'y.data = torch.zeros(3)\n'
        'y.sum().backward()\n'
        'print(x.grad, y, y._version)\n'
        'x.grad = None\n'
        'y = x * x\n'
        'x.data = torch.tensor([10., 20., 30.])\n'
        'y.sum().backward()\n'
        'print(x.grad, x._version)\n'
        'x.grad = None\n'
        'y = x ** 3\n'
        'x.data.mul_(0)\n'
        'y.sum().backward()\n'
        'print(x.grad, x._version)\n'
        'x.data = torch.ones(2, 2)\n'
        'print(x, x.grad)\n'
        'tries(lambda: (x * 2).sum().backward())\n'
        'tries(lambda: setattr(x, "data", torch.ones(3, dtype=torch.int64)), lambda: setattr(x, "data", [1.]))'),
    # retain_graph: the second backward fails once buffers are freed (exp saves its result; sum saves nothing);
    # a non-scalar backward needs weights: wrongly shaped weights, or broadcastable ones summed down
    "retain_graph_and_weighted_backward": (
        'x = torch.tensor([[1., 2.], [3., 4.]], requires_grad=True)\n'
        'y = x.exp() * 2\n'
        'y.sum().backward(retain_graph=True)\n'
        'y.sum().backward()\n'
        'print(x.grad)\n'
        'tries(lambda: y.sum().backward())\n'
        'x.grad.data.zero_()\n'
        's = x.sum() * 3\n'
        's.backward(); s.backward()\n'
        'print(x.grad)\n'
        'y = x * x\n'
        'tries(lambda: y.backward())\n'
        'y.backward(torch.tensor([[0.1, 1.], [10., 0.01]]), retain_graph=True)\n'
        'print(x.grad)\n'
        'for g in [torch.ones(2), torch.ones(1, 2), torch.ones(3), torch.ones(2, 2, 2), torch.tensor(1.),\n'
        '          torch.ones(2, 2, dtype=torch.float64), torch.ones(2, 2, dtype=torch.long)]:\n'
        '    x.grad = None\n'
        '    try:\n'
        '        y.backward(g, retain_graph=True)\n'
        '        print(x.grad)\n'
        '    except Exception as e:\n'
        '        print(type(e).__name__, e)'),
    # hooks on an intermediate: printing, doubling, the order against retain_grad (which sees all of them), a leaf
    # hook before accumulation, removing a handle
    "hooks_print_and_double": (
        'x = torch.tensor([1., 2., 3.], requires_grad=True)\n'
        'y = x * 2\n'
        'h = y.register_hook(lambda g: print("y的梯度:", g))\n'
        'y.register_hook(lambda g: g * 2)\n'
        'y.retain_grad()\n'
        'y.register_hook(lambda g: g + 100)\n'
        'z = (y ** 2).sum()\n'
        'z.backward()\n'
        'print(x.grad, y.grad, z.grad, y.retains_grad)\n'
        'h.remove()\n'
        'x.register_hook(lambda g: print("leaf", g, x.grad) or g * 0.5)\n'
        '(x * x).sum().backward()\n'
        'print(x.grad)'),
    # autograd.grad: grad_outputs, second and third derivatives through create_graph, allow_unused and
    # materialize_grads, and a second call on a freed graph
    "autograd_grad_higher_order": (
        'x = torch.tensor(3., requires_grad=True)\n'
        'y = x ** 3 + 2 * x ** 2\n'
        'dy, = torch.autograd.grad(y, x, create_graph=True)\n'
        'd2y, = torch.autograd.grad(dy, x, create_graph=True)\n'
        'd3y, = torch.autograd.grad(d2y, x)\n'
        'print("一阶:", dy, "二阶:", d2y, "三阶:", d3y)\n'
        'tries(lambda: torch.autograd.grad(d3y, x), lambda: torch.autograd.grad(y, x))\n'
        'v = torch.tensor([1., 2., 3.], requires_grad=True)\n'
        'u = torch.tensor(1., requires_grad=True)\n'
        'w = v ** 3\n'
        'g = torch.autograd.grad(w, v, grad_outputs=torch.ones_like(w), create_graph=True)\n'
        'print(g, type(g), torch.autograd.grad(g[0].sum(), v))\n'
        'tries(lambda: torch.autograd.grad((v * 2).sum(), [v, u]),\n'
        '      lambda: torch.autograd.grad((v * 2).sum(), [v, u], allow_unused=True),\n'
        '      lambda: torch.autograd.grad((v * 2).sum(), [v, u], materialize_grads=True))\n'
        'print(v.grad, u.grad)'),
    # the grad-mode switches: no_grad with enable_grad inside, decorators with and without parentheses,
    # set_grad_enabled as a function and a context, inference_mode tensors used afterwards; entered and exited by
    # hand (__exit__ returns None)
    "grad_mode_switches": (
        'x = torch.tensor([1., 2.], requires_grad=True)\n'
        'with torch.no_grad():\n'
        '    y = x * 2\n'
        '    with torch.enable_grad():\n'
        '        z = x * 3\n'
        'print(y.requires_grad, y.grad_fn, z.requires_grad, z.grad_fn)\n'
        '@torch.no_grad()\n'
        'def f(t):\n'
        '    return t * 2\n'
        '@torch.no_grad\n'
        'def g(t):\n'
        '    return t + 1\n'
        'print(f(x), g(x), torch.is_grad_enabled())\n'
        'torch.set_grad_enabled(False)\n'
        'print((x * 2).requires_grad, torch.is_grad_enabled())\n'
        'torch.set_grad_enabled(True)\n'
        'with torch.inference_mode():\n'
        '    w = x * 2\n'
        'print(w, w.requires_grad, w.is_inference())\n'
        'tries(lambda: (w * x).sum().backward(), lambda: w.add_(1), lambda: w.requires_grad_())\n'
        'tries(lambda: torch.set_grad_enabled(), lambda: torch.set_grad_enabled("no"))\n'
        'print(x.grad)\n'
        'for cm in [torch.no_grad(), torch.enable_grad(), torch.inference_mode(), torch.set_grad_enabled(False)]:\n'
        '    print(type(cm).__name__, cm.__enter__(), torch.is_grad_enabled(), cm.__exit__(None, None, None))\n'
        'print(torch.is_grad_enabled())'),
    # linear regression by hand: w.data -= lr * w.grad.data and the grads zeroed each step, losses printed; the
    # data made a column by unsqueeze or torch.newaxis
    "linear_regression_by_hand": (
        'torch.manual_seed(42)\n'
        'x = torch.rand(20, 1) * 10\n'
        'y = 2 * x + (5 + torch.randn(20, 1))\n'
        'w = torch.randn((1), requires_grad=True)\n'
        'b = torch.zeros((1), requires_grad=True)\n'
        'for it in range(30):\n'
        '    loss = (0.5 * (y - (w * x + b)) ** 2).mean()\n'
        '    loss.backward()\n'
        '    w.data -= 0.05 * w.grad.data\n'
        '    b.data.sub_(0.05 * b.grad)\n'
        '    w.grad.data.zero_()\n'
        '    b.grad.zero_()\n'
        '    if it % 10 == 0:\n'
        '        print("Loss: {:.4f}".format(loss.data.numpy()), loss, w.data, b.data)\n'
        'print(w, b, w._version, f"权重: {w.item():.4f}, 偏置: {b.item():.4f}")\n'
        'X = torch.linspace(-1, 1, 5)[:, torch.newaxis]\n'
        'print(X.shape, torch.unsqueeze(torch.linspace(-1, 1, 5), dim=1).equal(X), torch.newaxis)'),
    # the mistakes: an update outside no_grad on a leaf, x = x - lr * x.grad (a non-leaf: its .grad is None with
    # a warning), zero_() on a grad that is None, accumulation without zeroing
    "update_mistakes": (
        'x = torch.tensor([3.0, -1.0], requires_grad=True)\n'
        'for step in range(3):\n'
        '    loss = (x ** 2).sum()\n'
        '    loss.backward()\n'
        '    print(step, x.grad, x.is_leaf)\n'
        '    x = x - 0.1 * x.grad\n'
        'print(x, x.grad)\n'
        'w = torch.tensor([1.0], requires_grad=True)\n'
        'tries(lambda: w.grad.data.zero_())\n'
        '(w * 2).sum().backward()\n'
        'try:\n'
        '    w -= 0.1 * w.grad\n'
        'except RuntimeError as e:\n'
        '    print(e)\n'
        'for i in range(3):\n'
        '    (w * 3).sum().backward()\n'
        '    print(f"第{i+1}次backward后的梯度:", w.grad)\n'
        'tries(lambda: torch.tensor([1, 2], requires_grad=True), lambda: torch.arange(3).requires_grad_(),\n'
        '      lambda: w.add_(1), lambda: (w * torch.ones(2)).backward())'),
    # a "NaN gradients" post's special functions: torch.special.xlog1py (x * log1p(y), 0 where x is 0) with its three
    # nodes (two tensors, a number x, a number y) at 0, -1, nan and inf, its second derivative and out=
    "special_xlog1py_at_its_edges": (
        'vals = [0., 1., -1., -0.5, 2., float("nan"), float("inf"), -2.]\n'
        'for dt in [torch.float32, torch.float64]:\n'
        '    x = torch.tensor([v for v in vals for w in vals], dtype=dt, requires_grad=True)\n'
        '    y = torch.tensor([w for v in vals for w in vals], dtype=dt, requires_grad=True)\n'
        '    r = torch.special.xlog1py(x, y)\n'
        '    show(r)\n'
        '    r.backward(torch.ones_like(r))\n'
        '    print(x.grad, y.grad)\n'
        'for a, b in [(0., torch.tensor([0.5, -1., -2.], requires_grad=True)),\n'
        '             (2, torch.tensor([0.5, -1., 3.], requires_grad=True)),\n'
        '             (torch.tensor([0., 1.5, 0.], requires_grad=True), -1),\n'
        '             (torch.tensor([0., 1.5, 0.], requires_grad=True), 0.5)]:\n'
        '    r = torch.special.xlog1py(a, b)\n'
        '    show(r)\n'
        '    r.sum().backward()\n'
        '    print(a.grad if isinstance(a, torch.Tensor) else None, b.grad if isinstance(b, torch.Tensor) else None)\n'
        'torch.manual_seed(0)\n'
        'x, y = torch.randn(50), torch.rand(50) * 5\n'
        'print(torch.special.xlog1py(x, y), torch.special.xlog1py(torch.tensor([1, 2]), 3))\n'
        'tries(lambda: torch.special.xlog1py(2, 3), lambda: torch.special.xlog1py(torch.ones(2), torch.ones(3)))\n'
        'o = torch.empty(2)\n'
        'print(torch.special.xlog1py(torch.ones(2), torch.ones(2), out=o), o)\n'
        'tries(lambda: torch.special.xlog1py(torch.ones(2, requires_grad=True), torch.ones(2), out=o))\n'
        'x = torch.tensor([1., 2.], requires_grad=True)\n'
        'g, = torch.autograd.grad(torch.special.xlog1py(x, x * 2).sum(), x, create_graph=True)\n'
        'g.sum().backward()\n'
        'print(g, x.grad)'),
    # out= of torch.special.entr (its kernel's: refused under grad, resized with a warning, cast-checked) and of
    # ndtr (composite: the result copied into out by copy_, which records a CopyBackwards)
    "special_entr_and_ndtr_out": (
        'x = torch.tensor([0.5, 1., 0.])\n'
        'o = torch.empty(3)\n'
        'print(torch.special.entr(x, out=o), o._version, torch.special.ndtr(x, out=o), o._version)\n'
        'tries(lambda: torch.special.entr(x.requires_grad_(), out=o), lambda: torch.special.ndtr(x, out=o))\n'
        'print(o, o.grad_fn, o._version)\n'
        'x.requires_grad_(False)\n'
        'tries(lambda: torch.special.entr(x, out=torch.empty(2)), lambda: torch.special.ndtr(x, out=torch.empty(2)),\n'
        '      lambda: torch.special.entr(x, out=torch.empty(3, dtype=torch.long)),\n'
        '      lambda: torch.special.ndtr(x, out=torch.empty(3, dtype=torch.long)),\n'
        '      lambda: torch.special.ndtr(x, out=torch.empty(3, dtype=torch.float64)),\n'
        '      lambda: torch.special.entr(torch.tensor([1, 2]), out=torch.empty(2)),\n'
        '      lambda: torch.special.ndtr(x, out=torch.empty(3, requires_grad=True)),\n'
        '      lambda: torch.special.entr(x, out=x))'),
    # torch.pdist / F.pdist (the distance of each pair of rows i < j) with PdistBackward0 for p = 0, 1/2, 1, 3/2, 2,
    # 3 and inf (rows that coincide included), its double backward refused, and its argument checks
    "pdist_of_each_pair_of_rows": (
        'import torch.nn.functional as F\n'
        'print(F.pdist, torch.pdist)\n'
        'x = torch.tensor([[0., 1.], [2., 3.], [0., 1.], [-1, 5]], requires_grad=True)\n'
        'for p in [0, 0.5, 1, 1.5, 2, 3, float("inf")]:\n'
        '    r = torch.pdist(x, p)\n'
        '    show(r)\n'
        '    x.grad = None\n'
        '    r.backward(torch.arange(1., 7.))\n'
        '    print(x.grad)\n'
        '    g, = torch.autograd.grad(F.pdist(x, p).sum(), x, create_graph=True)\n'
        '    print(g)\n'
        '    tries(lambda: g.sum().backward())\n'
        'torch.manual_seed(0)\n'
        'y = torch.randn(6, 5, dtype=torch.float64, requires_grad=True)\n'
        'r = F.pdist(y)\n'
        'r.sum().backward()\n'
        'z = torch.randn(5, 3)\n'
        'print(r, y.grad, torch.pdist(z), torch.pdist(z, p=1), torch.pdist(z.t()))\n'
        'tries(lambda: torch.pdist(torch.ones(3)), lambda: torch.pdist(torch.ones(3, 2, dtype=torch.long)),\n'
        '      lambda: torch.pdist(torch.ones(3, 2), p=-1), lambda: torch.pdist(torch.ones(1, 2)),\n'
        '      lambda: torch.pdist(torch.ones(3, 0)), lambda: torch.pdist(torch.ones(3, 2, dtype=torch.half)),\n'
        '      lambda: torch.pdist(x, "a"), lambda: x.pdist(), lambda: torch.pdist(x, out=x), lambda: F.pdist([1.]))'),
}


@pytest.mark.parametrize("name", SNIPPETS)
def test_snippet(name):
    code = SHOW + SNIPPETS[name]
    t, e = run_both(T, E, code)
    assert same(t, e), f"\n{code}\n--- torch\n{t.summary()}--- engine\n{e.summary()}"
