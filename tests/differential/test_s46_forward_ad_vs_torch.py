"""torch.autograd.forward_ad (session 46) against real PyTorch: dual tensors, their printing, tangents through ops,
in-place ops, custom Functions' jvp, and the API's errors."""
import pytest

T = pytest.importorskip("torch", reason="differential tests need real PyTorch (pip install torch==2.13.0)")
from .harness import SHOW, load_engine, run_both, same  # noqa: E402

E = load_engine()

# The forward-mode AD tutorial's custom Function: exp, with its jvp staticmethod
EXP_FUNCTION = (
    "class Fn(torch.autograd.Function):\n"
    "    @staticmethod\n"
    "    def forward(ctx, foo):\n"
    "        result = torch.exp(foo)\n"
    "        ctx.result = result\n"
    "        return result\n"
    "    @staticmethod\n"
    "    def backward(ctx, gO):\n"
    "        return gO * ctx.result\n"
    "    @staticmethod\n"
    "    def jvp(ctx, gI):\n"
    "        gO = gI * ctx.result\n"
    "        del ctx.result\n"
    "        return gO\n")

SNIPPETS = {
    # make_dual / unpack_dual as the forward-mode AD tutorial uses them: the tangent suffix, a dual that needs no grad
    # shows none, unpack_dual's view of the primal, tangents gone when the level ends
    "dual_tensors_print_and_unpack": (
        "import torch.autograd.forward_ad as fwAD\n"
        "torch.manual_seed(0)\n"
        "primal, tangent = torch.randn(3), torch.randn(3)\n"
        "with fwAD.dual_level() as level:\n"
        "    d = fwAD.make_dual(primal, tangent)\n"
        "    print(level, d, d.requires_grad, d.grad_fn, d.is_leaf, d._base is primal, d._version)\n"
        "    u = fwAD.unpack_dual(d)\n"
        "    print(u, type(u).__name__, u.tangent is tangent, u.primal is primal, u.primal._base is primal)\n"
        "    y = d.sin() * 2 + d ** 2\n"
        "    print(y, y.requires_grad, y.is_leaf)\n"
        "    print(fwAD.unpack_dual(y).tangent)\n"
        "    z = torch.randn(3)\n"
        "    print(z * d, fwAD.unpack_dual(z).primal is z, fwAD.unpack_dual(z))\n"
        "print(y, fwAD.unpack_dual(y), d)\n"
        "print(fwAD.unpack_dual(y).primal is y)"),
    # each op's tangent from its node's backward formula (views, reductions, several outputs, matmul)
    "tangents_through_common_ops": (
        "import torch.autograd.forward_ad as fwAD\n"
        "import torch.nn.functional as F\n"
        "torch.manual_seed(0)\n"
        "x = torch.randn(2, 3)\n"
        "with fwAD.dual_level():\n"
        "    d = fwAD.make_dual(x, torch.randn(2, 3))\n"
        "    print(torch.sigmoid(d).tanh(), d.t().contiguous().view(-1))\n"
        "    print(d[0, 1], d.sum(), d.exp().sum(0), d.relu(), d.abs().sqrt())\n"
        "    print(F.softmax(d, dim=1), d.max(dim=1), d.chunk(3, dim=1))\n"
        "    z = torch.stack([d[0], d[1] * 2, d[0].sin()])\n"
        "    w = torch.cat([z, z.exp()])\n"
        "    print(w[2], torch.where(z > 0, z, -z), z.unsqueeze(0).expand(2, 3, 3)[1, 0])\n"
        "    print(d @ torch.randn(3, 2), d.var(dim=1), d.std_mean(dim=0))"),
    # a 0-d dual prints its tangent as a Python number (PyTorch formats the tangent with f"{tangent}")
    "scalar_dual_prints_tangent_as_number": (
        "import torch.autograd.forward_ad as fwAD\n"
        "with fwAD.dual_level():\n"
        "    x = fwAD.make_dual(torch.tensor(2.0), torch.tensor(1.0))\n"
        "    y = x ** 3 + 2 * x\n"
        "    print(y, fwAD.unpack_dual(y), x.max(), f\"{y}\")"),
    # the API's errors, in PyTorch's order and words; a dual that needs no grad is not one that requires grad
    "make_dual_errors_and_levels": (
        "import torch.autograd.forward_ad as fwAD\n"
        "z = torch.randn(2)\n"
        "tries(lambda: fwAD.make_dual(z, z), lambda: fwAD.exit_dual_level(), lambda: fwAD.unpack_dual(z, level=0))\n"
        "print(fwAD.enter_dual_level(), fwAD.exit_dual_level())\n"
        "with fwAD.dual_level():\n"
        "    e = fwAD.make_dual(torch.randn(3), torch.randn(3))\n"
        "    tries(lambda: fwAD.make_dual(torch.randn(3), torch.randn(2)),\n"
        "          lambda: fwAD.make_dual(torch.tensor([1, 2]), torch.tensor([1., 2.])),\n"
        "          lambda: fwAD.make_dual(torch.randn(2), torch.tensor([1, 2])),\n"
        "          lambda: fwAD.make_dual(torch.randn(2), 3),\n"
        "          lambda: fwAD.make_dual(torch.randn(2), torch.randn(2, dtype=torch.float64)),\n"
        "          lambda: fwAD.make_dual(e, torch.randn(3)),\n"
        "          lambda: fwAD.make_dual(torch.randn(2), torch.randn(2), level=1),\n"
        "          lambda: fwAD.unpack_dual(3), lambda: fwAD.unpack_dual(z, level=1),\n"
        "          lambda: fwAD.dual_level().__enter__(),\n"
        "          lambda: e.numpy(), lambda: e.sum().backward(), lambda: e.argmax(), lambda: e > 0,\n"
        "          lambda: e.tolist(), lambda: e.clone(), lambda: e.to(torch.float64), lambda: e.detach())"),
    # the tangent is kept as given when it is laid out as the primal, else copied so
    "tangent_layout_kept_or_copied": (
        "import torch.autograd.forward_ad as fwAD\n"
        "torch.manual_seed(0)\n"
        "p, t = torch.randn(3, 3), torch.randn(3, 3)\n"
        "with fwAD.dual_level():\n"
        "    print(fwAD.unpack_dual(fwAD.make_dual(p, t)).tangent is t)\n"
        "    d = fwAD.make_dual(p, t.T)\n"
        "    print(fwAD.unpack_dual(d).tangent is t.T, fwAD.unpack_dual(d).tangent.stride(), d)"),
    # an in-place op on a dual writes its tangent in place
    "inplace_updates_the_tangent_in_place": (
        "import torch.autograd.forward_ad as fwAD\n"
        "torch.manual_seed(0)\n"
        "with fwAD.dual_level():\n"
        "    x = fwAD.make_dual(torch.randn(2, 3), torch.randn(2, 3))\n"
        "    t = fwAD.unpack_dual(x).tangent\n"
        "    x.add_(1)\n"
        "    print(t._version, fwAD.unpack_dual(x).tangent is t, x._version)\n"
        "    x.mul_(2)\n"
        "    print(t._version, fwAD.unpack_dual(x).tangent is t, t, x)\n"
        "    y = torch.ones(2, 3)\n"
        "    y.mul_(x)\n"
        "    print(y)\n"
        "print(x, t, y)"),
    # a dual of a tensor requiring grad is a view with ViewBackward0; backward still works; a hidden dual gets no .grad
    "mixed_with_reverse_mode": (
        "import torch.autograd.forward_ad as fwAD\n"
        "torch.manual_seed(0)\n"
        "p = torch.randn(3, requires_grad=True)\n"
        "with fwAD.dual_level():\n"
        "    d = fwAD.make_dual(p, torch.randn(3))\n"
        "    print(d, d.is_leaf, d._base is p, fwAD.unpack_dual(d).primal)\n"
        "    y = (d.exp() * 2).sum()\n"
        "    y.backward()\n"
        "    print(p.grad, y.grad_fn)\n"
        "    x = fwAD.make_dual(torch.randn(2, 3), torch.randn(2, 3))\n"
        "    w = torch.randn(3, 2, requires_grad=True)\n"
        "    m = x @ w\n"
        "    print(m.grad_fn, fwAD.unpack_dual(m).tangent.requires_grad)\n"
        "    m.sum().backward()\n"
        "    print(w.grad, x.grad)"),
    # a custom Function's jvp staticmethod: tangents in (zeros for a tensor without one), save_for_forward, the error
    # without jvp
    "custom_function_jvp": "import torch.autograd.forward_ad as fwAD\n" + EXP_FUNCTION + (
        "class NoJvp(torch.autograd.Function):\n"
        "    @staticmethod\n"
        "    def forward(ctx, x):\n"
        "        return x * 2\n"
        "    @staticmethod\n"
        "    def backward(ctx, g):\n"
        "        return g * 2\n"
        "class Two(torch.autograd.Function):\n"
        "    @staticmethod\n"
        "    def forward(ctx, x, y, k):\n"
        "        ctx.save_for_forward(x, y)\n"
        "        return x * y * k, x + y\n"
        "    @staticmethod\n"
        "    def jvp(ctx, xt, yt, kt):\n"
        "        print('jvp', xt, yt, kt)\n"
        "        x, y = ctx.saved_tensors\n"
        "        return xt * y * 3 + x * yt * 3, xt + yt\n"
        "torch.manual_seed(0)\n"
        "primal = torch.randn(3, dtype=torch.double, requires_grad=True)\n"
        "with fwAD.dual_level():\n"
        "    out = Fn.apply(fwAD.make_dual(primal, torch.randn(3, dtype=torch.double)))\n"
        "    print(out)\n"
        "    e = fwAD.make_dual(torch.randn(3), torch.randn(3))\n"
        "    o = Fn.apply(e)\n"
        "    print(o, o.requires_grad, o.grad_fn)\n"
        "    tries(lambda: NoJvp.apply(e))\n"
        "    print(NoJvp.apply(torch.randn(2)))\n"
        "    print(Two.apply(e, torch.ones(3), 3))\n"
        "    print(Two.apply(e, fwAD.make_dual(torch.ones(3), torch.ones(3)), 3))"),
    # the tutorial's module with dual parameters, by functional_call and by setattr, against torch.func.jvp
    "tutorial_module_parameters": (
        "import torch.autograd.forward_ad as fwAD\n"
        "import torch.nn as nn\n"
        "from torch.func import functional_call\n"
        "torch.manual_seed(0)\n"
        "model = nn.Linear(5, 5)\n"
        "input = torch.randn(16, 5)\n"
        "params = {name: p for name, p in model.named_parameters()}\n"
        "tangents = {name: torch.rand_like(p) for name, p in params.items()}\n"
        "with fwAD.dual_level():\n"
        "    dual_params = {name: fwAD.make_dual(p, tangents[name]) for name, p in params.items()}\n"
        "    out = functional_call(model, dual_params, input)\n"
        "    jvp = fwAD.unpack_dual(out).tangent\n"
        "print(jvp.shape, jvp.detach()[:2], out[0])\n"
        "ft = torch.func.jvp(lambda p: functional_call(model, p, input), (params,), (tangents,))[1]\n"
        "print(torch.allclose(ft, jvp))\n"
        "with fwAD.dual_level():\n"
        "    for name, p in params.items():\n"
        "        delattr(model, name)\n"
        "        setattr(model, name, fwAD.make_dual(p, tangents[name]))\n"
        "    out = model(input)\n"
        "    print(torch.allclose(fwAD.unpack_dual(out).tangent, jvp))"),
    # dual_level as a decorator; unpack_dual outside any level; the names
    "dual_level_as_decorator": (
        "import torch.autograd.forward_ad as fwAD\n"
        "@fwAD.dual_level()\n"
        "def f():\n"
        "    x = fwAD.make_dual(torch.ones(2), torch.ones(2))\n"
        "    return x * 3, fwAD.unpack_dual(x * 3).tangent\n"
        "print(f())\n"
        "u = fwAD.unpack_dual(torch.ones(1))\n"
        "print(u.primal, u.tangent, u[0], len(u), fwAD.UnpackedDualTensor, fwAD.__all__)"),
    # gradcheck(check_forward_ad=True): forward mode's Jacobian (one unit tangent per element) against
    # finite differences, a custom Function's jvp among them; PyTorch's message for a wrong jvp
    "gradcheck_with_forward_ad": EXP_FUNCTION + (
        "class Bad(torch.autograd.Function):\n"
        "    @staticmethod\n"
        "    def forward(ctx, x):\n"
        "        ctx.save_for_forward(x)\n"
        "        return x ** 2\n"
        "    @staticmethod\n"
        "    def backward(ctx, g):\n"
        "        return g * 2\n"
        "    @staticmethod\n"
        "    def jvp(ctx, t):\n"
        "        x, = ctx.saved_tensors\n"
        "        return t * 3 * x\n"
        "torch.manual_seed(0)\n"
        "primal = torch.randn(3, dtype=torch.double, requires_grad=True)\n"
        "print(torch.autograd.gradcheck(Fn.apply, (primal,), check_forward_ad=True, check_backward_ad=False,\n"
        "                               check_undefined_grad=False, check_batched_grad=False))\n"
        "print(torch.autograd.gradcheck(Fn.apply, (primal,), check_forward_ad=True))\n"
        "other = torch.randn(3, dtype=torch.double, requires_grad=True)\n"
        "print(torch.autograd.gradcheck(lambda a, b: (a * b).sin(), (primal, other), check_forward_ad=True))\n"
        "tries(lambda: torch.autograd.gradcheck(Bad.apply, (primal,), check_forward_ad=True,\n"
        "                                       check_backward_ad=False))\n"
        "print(torch.autograd.gradcheck(Bad.apply, (primal,), check_forward_ad=True, check_backward_ad=False,\n"
        "                               raise_exception=False))\n"
        "square = torch.randn(2, 2, dtype=torch.double, requires_grad=True)\n"
        "print(torch.autograd.gradcheck(torch.sigmoid, (square,), check_forward_ad=True))"),
    # forward mode through a backward pass: gradgradcheck(check_fwd_over_rev=True), autograd.grad of a dual
    "forward_over_reverse": (
        "torch.manual_seed(0)\n"
        "x = torch.randn(3, dtype=torch.double, requires_grad=True)\n"
        "tries(lambda: torch.autograd.gradgradcheck(lambda a: (a.sin() * a).sum(), (x,), check_fwd_over_rev=True),\n"
        "      lambda: torch.autograd.gradgradcheck(lambda a: a.exp() * a, (x,), check_fwd_over_rev=True,\n"
        "                                           check_rev_over_rev=False))\n"
        "import torch.autograd.forward_ad as fwAD\n"
        "x = torch.randn(3, requires_grad=True)\n"
        "with fwAD.dual_level():\n"
        "    d = fwAD.make_dual(x, torch.ones(3))\n"
        "    y = (d ** 3).sum()\n"
        "    g, = torch.autograd.grad(y, x, create_graph=True)\n"
        "    print(fwAD.unpack_dual(g).tangent is not None)"),
}


@pytest.mark.parametrize("name", SNIPPETS)
def test_snippet(name):
    code = SHOW + SNIPPETS[name]
    t, e = run_both(T, E, code)
    assert same(t, e), f"\n{code}\n--- torch\n{t.summary()}--- engine\n{e.summary()}"
