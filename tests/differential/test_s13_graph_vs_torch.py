"""The thirteenth session's graph corners against real PyTorch: in-place errors on the views a custom Function
returns (one message for one differentiable output, another for several), the inner graphs of double backward
(PyTorch's C++ formulas record MulBackward1 / AddBackward1 / SubBackward1 / DivBackward1 for Scalar arithmetic and
masked_fill for masking), the NotImplemented node's edges, torch.linalg.norm / matrix_norm / svdvals, and
autograd.functional's strict, strategy and vectorize options. Printed text, warnings and the final error must be
identical."""
import pytest

T = pytest.importorskip("torch", reason="differential tests need real PyTorch (pip install torch==2.13.0)")
from .harness import SHOW, load_engine, run_both  # noqa: E402

E = load_engine()

WALK = ("def walk(n, d=0):\n"
        "    print('  ' * d + n.name())\n"
        "    for f, _ in n.next_functions:\n"
        "        if f is None:\n"
        "            print('  ' * (d + 1) + 'None')\n"
        "        elif 'AccumulateGrad' not in f.name():\n"
        "            walk(f, d + 1)\n"
        "def second(f, *xs):\n"
        "    for x in xs:\n"
        "        g, = torch.autograd.grad(f(x).sum(), x, create_graph=True)\n"
        "        print(g)\n"
        "        walk(g.grad_fn)\n"
        "        print(torch.autograd.grad((g * g).sum(), x, allow_unused=True))\n")

FN = ("class Two(torch.autograd.Function):\n"
      "    @staticmethod\n"
      "    def forward(ctx, x):\n"
      "        return x.view(-1), x * 2\n"
      "    @staticmethod\n"
      "    def backward(ctx, g1, g2):\n"
      "        return g1.view(2, 2) + 2 * g2\n")

SNIPPETS = {
    "custom_function_views_of_several_differentiable_outputs": (
        FN +
        "a, b = Two.apply(torch.ones(2, 2, requires_grad=True) * 1)\n"
        "tries(lambda: a.mul_(2), lambda: a.view(2, 2).add_(1), lambda: b.mul_(2))\n"
        "class Rows(torch.autograd.Function):\n"
        "    @staticmethod\n"
        "    def forward(ctx, x):\n"
        "        return x[0], x[1]\n"
        "    @staticmethod\n"
        "    def backward(ctx, g1, g2):\n"
        "        return torch.stack([g1, g2])\n"
        "a, b = Rows.apply(torch.ones(2, 2, requires_grad=True) * 1)\n"
        "tries(lambda: b.add_(1))\n"
        "with torch.no_grad():\n"
        "    a, b = Rows.apply(torch.ones(2, 2, requires_grad=True))\n"
        "tries(lambda: b.add_(torch.ones(2, requires_grad=True)))\n"
        "class AsIs(torch.autograd.Function):\n"
        "    @staticmethod\n"
        "    def forward(ctx, x):\n"
        "        return x, x * 2\n"
        "    @staticmethod\n"
        "    def backward(ctx, g1, g2):\n"
        "        return g1 + 2 * g2\n"
        "a, b = AsIs.apply(torch.ones(2, requires_grad=True) * 1)\n"
        "tries(lambda: a.mul_(2))\n"),
    "custom_function_one_differentiable_output": (
        "class Mixed(torch.autograd.Function):\n"
        "    @staticmethod\n"
        "    def forward(ctx, x, n):\n"
        "        v = x.view(-1)\n"
        "        outs = [x[0], x[1] > 0, v] + [x * k for k in range(n)]\n"
        "        ctx.mark_non_differentiable(v)\n"
        "        return tuple(outs)\n"
        "    @staticmethod\n"
        "    def backward(ctx, *gs):\n"
        "        return gs[0].expand(2, 2), None\n"
        "for n in (0, 2):\n"
        "    a, b, v, *rest = Mixed.apply(torch.ones(2, 2, requires_grad=True) * 1, n)\n"
        "    print(a.requires_grad, b.requires_grad, v.requires_grad)\n"
        "    tries(lambda: a.add_(1), lambda: v.mul_(2))\n"),
    "custom_function_dirty_view_with_two_outputs": (
        "class Dirty(torch.autograd.Function):\n"
        "    @staticmethod\n"
        "    def forward(ctx, x):\n"
        "        x.mul_(2)\n"
        "        ctx.mark_dirty(x)\n"
        "        return x, x * 2\n"
        "    @staticmethod\n"
        "    def backward(ctx, g1, g2):\n"
        "        return g1 + 2 * g2\n"
        "base = torch.ones(2, 2, requires_grad=True) * 1\n"
        "tries(lambda: Dirty.apply(base[0]))\n"
        "a, b = Dirty.apply(base * 1)\n"
        "print(a.grad_fn, b.grad_fn)\n"),
    "double_backward_scalar_forms_unary": (
        WALK +
        "x = torch.tensor([0.3, 0.6], requires_grad=True)\n"
        "for name in ['sqrt', 'log1p', 'atan', 'expm1', 'tan', 'asin', 'acos', 'log2', 'log10', 'erf', 'asinh',\n"
        "             'atanh', 'logit', 'sinc']:\n"
        "    print(name)\n"
        "    second(getattr(torch, name), x)\n"
        "second(torch.acosh, torch.tensor([1.5, 3.], requires_grad=True))\n"),
    "double_backward_scalar_forms_binary": (
        WALK +
        "x = torch.tensor([0.3, 0.6], requires_grad=True)\n"
        "y = torch.tensor([0.5, -0.2])\n"
        "second(lambda x: 2 ** x, x)\n"
        "second(lambda x: 0 ** x, torch.tensor([0., 2.], requires_grad=True))\n"
        "second(lambda x: (-2) ** x, x)\n"
        "second(lambda x: x ** y, x)\n"
        "second(lambda x: torch.atan2(x, y), x)\n"
        "second(lambda x: torch.atan2(y, x), torch.tensor([0., 1.], requires_grad=True))\n"
        "second(lambda x: torch.logaddexp(x, y), x)\n"
        "second(lambda x: torch.logaddexp2(x, y), x)\n"),
    "double_backward_norms_and_std": (
        WALK +
        "x = torch.tensor([0.3, -0.6, 0.], requires_grad=True)\n"
        "for p in (2, 1, 3, 1.5, 0.5, float('inf'), float('-inf')):\n"
        "    print(p)\n"
        "    second(lambda x: x.norm(p), x)\n"
        "second(lambda x: x.view(1, 3).norm(dim=1), x)\n"
        "second(lambda x: torch.linalg.vector_norm(x, 3, dim=0, keepdim=True), x)\n"
        "second(lambda x: torch.dist(x, torch.ones(3)), x)\n"
        "second(lambda x: x.std(), x)\n"
        "second(lambda x: torch.stack([x, x * 2]).std(0), x)\n"
        "second(lambda x: x.var(), x)\n"
        "second(lambda x: torch.nn.functional.normalize(x.view(1, 3), dim=1), x)\n"
        "z = torch.zeros(3, requires_grad=True)\n"
        "print(torch.autograd.grad(z.norm(), z), torch.autograd.grad(z.norm(3), z))\n"),
    "double_backward_means_divide_by_a_scalar": (
        "x = torch.arange(32.).reshape(1, 2, 4, 4).div(10).requires_grad_()\n"
        "for f in [lambda x: x.mean((2, 3), keepdim=True), lambda x: x.mean(), lambda x: x.mean(1),\n"
        "          lambda x: torch.nn.functional.adaptive_avg_pool2d(x, 1)]:\n"
        "    g, = torch.autograd.grad((f(x) ** 2).sum(), x, create_graph=True)\n"
        "    print(g.grad_fn, g.grad_fn.next_functions, g.grad_fn._saved_other)\n"
        "    print(torch.autograd.grad(g.pow(2).sum(), x)[0].flatten()[:3])\n"),
    "cross_entropy_label_smoothing_graph": (
        WALK +
        "F = torch.nn.functional\n"
        "torch.manual_seed(0)\n"
        "x = torch.randn(4, 3, requires_grad=True)\n"
        "t = torch.tensor([2, 0, -100, 1])\n"
        "for kw in [dict(), dict(reduction='sum'), dict(reduction='none'), dict(weight=torch.tensor([1., 2., 3.]))]:\n"
        "    l = F.cross_entropy(x, t, label_smoothing=0.1, **kw)\n"
        "    print(kw, l)\n"
        "    walk(l.grad_fn)\n"
        "    print(torch.autograd.grad(l.sum(), x))\n"),
    "not_implemented_node_edges": (
        "x = torch.tensor([3., 5.], requires_grad=True)\n"
        "y = torch.tensor([2., 2.], requires_grad=True)\n"
        "for z in (x // 2, x // y, 7 // x, torch.tensor([1., 2.]) // x, torch.remainder(2, x),\n"
        "          torch.heaviside(x, torch.tensor(1.))):\n"
        "    print(z.grad_fn.name(), z.grad_fn.next_functions)\n"
        "tries(lambda: (x // 2).sum().backward())\n"),
    "linalg_norm_and_matrix_norm": (
        "A = torch.tensor([[1., -2., 3.], [4., 5., -6.]], requires_grad=True)\n"
        "v = torch.tensor([3., -4.], requires_grad=True)\n"
        "inf = float('inf')\n"
        "L = torch.linalg\n"
        "for y in [L.norm(v), L.norm(A), L.norm(A, 'fro'), L.norm(A, 1), L.norm(A, -1), L.norm(A, inf),\n"
        "          L.norm(A, 2),\n"
        "          L.norm(A, 'nuc'), L.norm(A, dim=1), L.norm(A, 3, dim=0), L.norm(A, 1, dim=(1, 0), keepdim=True),\n"
        "          L.norm(A, 2, dim=(1, 0), keepdim=True), L.norm(A, 'nuc', dim=(-1, 0), keepdim=True),\n"
        "          L.matrix_norm(A), L.matrix_norm(A, -2), L.matrix_norm(A[None], -inf, keepdim=True),\n"
        "          L.norm(v, 0), L.norm(A, dtype=torch.float64), L.vector_norm(A, dtype=torch.float64),\n"
        "          L.svdvals(A), L.norm(A, -inf, dim=(1, 0))]:\n"
        "    print(y, y.grad_fn.next_functions)\n"
        "    print(torch.autograd.grad(y.sum(), A, allow_unused=True))\n"
        "t3 = torch.ones(2, 3, 4)\n"
        "print(L.norm(t3, 2, (2, 0), keepdim=True).shape, L.norm(t3, 'fro', (2, 0)).shape)\n"
        "print(L.matrix_norm(torch.ones(2, 2, dtype=torch.float16)))\n"
        "tries(lambda: L.norm(A, 3), lambda: L.norm(torch.ones(2, 2, 2), 1), lambda: L.norm(A, 'abc'),\n"
        "      lambda: L.norm(A, dim=(0, 1, 1)), lambda: L.matrix_norm(v), lambda: L.matrix_norm(A, 3.5),\n"
        "      lambda: L.matrix_norm(A, dim=(0, 0)), lambda: L.matrix_norm(A, dim=(0,)),\n"
        "      lambda: L.matrix_norm(A, 'x'),\n"
        "      lambda: L.norm(torch.tensor([1, 2])), lambda: L.matrix_norm(torch.tensor([[1, 2]])),\n"
        "      lambda: L.norm(torch.ones(2, 2, 2)), lambda: L.norm(A, 'fro', dim=1),\n"
        "      lambda: L.norm(A, None, (0, 1)),\n"
        "      lambda: L.matrix_norm(A, dtype=torch.int64), lambda: L.norm(A, 'nuc', dim=(0, 2)),\n"
        "      lambda: L.matrix_norm(torch.ones(2, 2, dtype=torch.float16), 2),\n"
        "      lambda: L.matrix_norm(A, dim=(0, 1, 2)),\n"
        "      lambda: L.vector_norm(torch.tensor([1, 2]), dtype=torch.float32),\n"
        "      lambda: L.vector_norm(A, dtype=torch.int64), lambda: L.vector_norm(A.double(), dtype=torch.float32),\n"
        "      lambda: L.matrix_norm(A.double(), dtype=torch.float32), lambda: L.svdvals(torch.ones(3)),\n"
        "      lambda: L.norm(3.), lambda: L.matrix_norm(A, inf, dim=(0, 3)))\n"),
    "functional_strict_and_strategy": (
        "AF = torch.autograd.functional\n"
        "jacobian, hessian, vjp, jvp, vhp, hvp = AF.jacobian, AF.hessian, AF.vjp, AF.jvp, AF.vhp, AF.hvp\n"
        "x = torch.tensor([1., 2.])\n"
        "o = torch.ones(2)\n"
        "tries(lambda: jacobian(lambda x: x * 2, x, strict=True),\n"
        "      lambda: jacobian(lambda x: x.detach() * 2, x, strict=True),\n"
        "      lambda: jacobian(lambda x: x.exp(), x, strategy='forward-mode'),\n"
        "      lambda: jacobian(lambda x: x.exp(), x, strategy='backward'),\n"
        "      lambda: jacobian(lambda x: x.exp(), x, strategy='forward-mode', create_graph=True),\n"
        "      lambda: jacobian(lambda x: x.exp(), x, strategy='forward-mode', strict=True),\n"
        "      lambda: jacobian(lambda x: x.exp(), x, strict=True, vectorize=True),\n"
        "      lambda: jacobian(lambda x, y: x * 2, (x, x), strict=True),\n"
        "      lambda: jacobian(lambda x: x * 2, x, strict=True, create_graph=True),\n"
        "      lambda: jacobian(lambda x: x ** 2, x, strict=True, create_graph=True),\n"
        "      lambda: hessian(lambda x: x.pow(3).sum(), x, strict=True),\n"
        "      lambda: hessian(lambda x: (x * 2).sum(), x, strict=True),\n"
        "      lambda: hessian(lambda x: x.sum(), x, outer_jacobian_strategy='bad'),\n"
        "      lambda: hessian(lambda x: x.pow(3).sum(), x, outer_jacobian_strategy='forward-mode'),\n"
        "      lambda: hessian(lambda x: x.detach().sum(), x, strict=True),\n"
        "      lambda: hessian(lambda x: x.pow(3).sum(), x, strict=True, create_graph=True),\n"
        "      lambda: vjp(lambda x: x * 2, x, o, strict=True),\n"
        "      lambda: vjp(lambda x, y: x * 2, (x, x), o, strict=True),\n"
        "      lambda: vjp(lambda x: x.detach(), x, o, strict=True),\n"
        "      lambda: vjp(lambda x: x * 2, x, o, strict=True, create_graph=True),\n"
        "      lambda: jvp(lambda x: x * 2, x, o, strict=True), lambda: jvp(lambda x: x ** 2, x, o, strict=True),\n"
        "      lambda: jvp(lambda x, y: x ** 2, (x, x), (o, o), strict=True),\n"
        "      lambda: jvp(lambda x: x.detach(), x, o, strict=True),\n"
        "      lambda: vhp(lambda x: x.pow(3).sum(), x, o, strict=True),\n"
        "      lambda: vhp(lambda x: (x * 2).sum(), x, o, strict=True),\n"
        "      lambda: hvp(lambda x: x.pow(3).sum(), x, o, strict=True),\n"
        "      lambda: hvp(lambda x: (x * 2).sum(), x, o, strict=True),\n"
        "      lambda: hvp(lambda x, y: (x ** 2).sum(), (x, x), (o, o), strict=True),\n"
        "      lambda: vhp(lambda x, y: (x ** 3).sum(), (x, x), (o, o), strict=True),\n"
        "      lambda: hvp(lambda x: x.pow(3).sum(), x, o, strict=True, create_graph=True),\n"
        "      lambda: hvp(lambda x: x.pow(2).sum(), x, o, strict=True, create_graph=True),\n"
        "      lambda: jacobian(lambda x, y: (x * y, x.exp()), (x, x)), lambda: vjp(lambda x, y: x * 2, (x, x), o),\n"
        "      lambda: hvp(lambda x, y: (x ** 2).sum(), (x, x), (o, o)),\n"
        "      lambda: jvp(lambda x, y: x ** 2, (x, x), (o, o)))\n"),
}


@pytest.mark.parametrize("name", SNIPPETS)
def test_snippet(name):
    """Printed text, warnings and the final error are identical (addresses and C++ locations blanked)."""
    code = SHOW + SNIPPETS[name]
    t, e = run_both(T, E, code)
    assert e.summary() == t.summary(), f"\n{code}\n--- torch\n{t.summary()}--- engine\n{e.summary()}"
