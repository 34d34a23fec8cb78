"""Higher-order derivatives as learners take them, against real PyTorch: autograd.grad with create_graph two and
three times, backward(create_graph=True) and the .grad that accumulates after it, Hessians by loops, gradient
penalties and physics-informed losses, and torch.autograd.functional / torch.func Jacobians and Hessians, including
forward mode (strategy='forward-mode', outer_jacobian_strategy='forward-mode', jacfwd), whose results PyTorch does
not detach and whose zeros keep forward mode's signs. Printed text, warnings and the final error must be the same."""
import pytest

T = pytest.importorskip("torch", reason="differential tests need real PyTorch (pip install torch==2.13.0)")
from .harness import SHOW, load_engine, run_both, same  # noqa: E402

E = load_engine()

SNIPPETS = {
    # forward-over-reverse Hessian (as the docs recommend for speed): PyTorch does not detach the result, which
    # comes back attached (ReshapeAliasBackward0 over PermuteBackward0 over SplitWithSizesBackward0) although x does
    # not require grad (nor is made to); tuple inputs give lists of lists; its refusals
    "hessian_forward_over_reverse_comes_back_attached": (
        'from torch.autograd.functional import hessian\n'
        'def f(x): return (x ** 3).sum() + x.prod()\n'
        'x = torch.tensor([1., 2., 3.])\n'
        'H = hessian(f, x, vectorize=True, outer_jacobian_strategy="forward-mode")\n'
        'print(H, H.grad_fn.next_functions, H.grad_fn.next_functions[0][0].next_functions, x.requires_grad)\n'
        'print(H.is_leaf, H._base is None, hessian(f, x, vectorize=True))\n'
        'H = hessian(lambda a: (a ** 3).sum(), torch.tensor(2.), vectorize=True, outer_jacobian_strategy="forward-mode")\n'
        'print(H)\n'
        'H = hessian(lambda a: (a ** 3).sum(), torch.ones(2, 2), vectorize=True, outer_jacobian_strategy="forward-mode")\n'
        'print(H.shape, H.grad_fn, H.stride())\n'
        'H = hessian(lambda p, q: (p ** 2 * q).sum(), (x, torch.tensor(3.)), vectorize=True,\n'
        '            outer_jacobian_strategy="forward-mode")\n'
        'print(type(H).__name__, type(H[0]).__name__, H)\n'
        'tries(lambda: hessian(f, x, outer_jacobian_strategy="forward-mode"),\n'
        '      lambda: hessian(f, x, vectorize=True, outer_jacobian_strategy="forward-mode", create_graph=True),\n'
        '      lambda: hessian(f, x, vectorize=True, outer_jacobian_strategy="forward-mode", strict=True),\n'
        '      lambda: hessian(f, torch.tensor([1, 2]), outer_jacobian_strategy="forward-mode"),\n'
        '      lambda: hessian(f, torch.tensor([1, 2]), vectorize=True, outer_jacobian_strategy="forward-mode"))'),
    # jacobian(strategy='forward-mode'): attached (through the same view ops) exactly when it depends on a tensor
    # that requires grad (an input, or one the function closes over), and then differentiable again; lists where
    # reverse mode gives tuples; under no_grad
    # detached; an empty input gives an empty Jacobian
    "jacobian_forward_mode_attached_to_inputs_requiring_grad": (
        'from torch.autograd.functional import jacobian\n'
        'x = torch.tensor([1., 2., 3.])\n'
        'xr = x.clone().requires_grad_()\n'
        'fwd = dict(vectorize=True, strategy="forward-mode")\n'
        'print(jacobian(lambda a: a ** 2, x, **fwd))\n'
        'J = jacobian(lambda a: a ** 2, xr, **fwd)\n'
        'print(J, J._base is None)\n'
        'J.sum().backward(); print(xr.grad)\n'
        'print(jacobian(lambda a: a.sum(), xr, **fwd), jacobian(lambda a: (a ** 2).sum(), xr, **fwd))\n'
        'J = jacobian(lambda a, b: (a ** 2, a * b, b.exp().sum()), (xr, x), **fwd)\n'
        'print(type(J).__name__, J)\n'
        'print(jacobian(lambda a: (a ** 2, a.sum()), xr, **fwd))\n'
        'print(jacobian(lambda a, b: a * b, (xr, x), **fwd))\n'
        'print(jacobian(lambda a: (a * xr).sum(), x, **fwd), jacobian(lambda a: a.detach() * 2, xr, **fwd))\n'
        'J = jacobian(lambda a: a @ a.T, torch.ones(2, 3, requires_grad=True), **fwd)\n'
        'print(J.shape, J.grad_fn, J.is_contiguous(), J.stride())\n'
        'with torch.no_grad():\n'
        '    print(jacobian(lambda a: a ** 2, xr, **fwd))\n'
        'print(jacobian(lambda a: a.exp(), torch.tensor([]), **fwd))'),
    # forward mode's products with zero: J e_j (a column) has the sign of f'(x_i) in row i, where reverse mode's
    # rows have it by column
    "forward_mode_jacobians_keep_forward_signs_of_zero": (
        'from torch.autograd.functional import jacobian, hessian\n'
        'x = torch.tensor([1., 2., 3.])\n'
        'for f in [torch.sin, torch.cos, lambda t: -t.exp()]:\n'
        '    print(jacobian(f, x, vectorize=True, strategy="forward-mode"), jacobian(f, x, vectorize=True))\n'
        'f = lambda t: (t.sin() * t).sum()\n'
        'print(hessian(f, x), hessian(f, x, vectorize=True, outer_jacobian_strategy="forward-mode"))'),
    # torch.func.jacfwd computes columns by forward mode: the same signs of zero, with the other arguments' zero
    # tangents adding +0 to products (jacfwd of a * b); hessian is jacfwd(jacrev(f))
    "jacfwd_signs_of_zero": (
        'from torch.func import jacrev, jacfwd, hessian, grad\n'
        'x = torch.tensor([1., 2., 3.])\n'
        'print(jacfwd(torch.sin)(x), jacrev(torch.sin)(x), jacfwd(lambda t: t.cos())(x))\n'
        'print(jacfwd(lambda a, b: a * b, argnums=(0, 1))(x, -x))\n'
        'for f in [lambda t: (t.sin() * t).sum(), lambda t: t.cos().sum(), lambda t: (t ** 3 - t.exp()).sum()]:\n'
        '    print(hessian(f)(x), jacfwd(jacfwd(f))(x), jacfwd(grad(f))(x), jacrev(grad(f))(x))\n'
        'print(jacfwd(lambda t: (t.sin(), t.cos()), has_aux=True)(x))'),
    # jacfwd's layout: the batch of tangents with its dimension moved last, split per input and unflattened (so
    # its strides are not contiguous ones; a 0-d input's Jacobian is squeezed, SqueezeBackward1 when attached)
    "jacfwd_layout_and_strides": (
        'from torch.func import jacfwd, jacrev, hessian\n'
        'torch.manual_seed(0)\n'
        'for x in [torch.randn(3), torch.randn(2, 3), torch.randn(())]:\n'
        '    for f in [lambda t: t * 2, lambda t: t.exp().sum(), lambda t: t.reshape(-1)[:2].sin().unsqueeze(0)]:\n'
        '        J, R = jacfwd(f)(x), jacrev(f)(x)\n'
        '        print(J.shape, J.stride(), J.is_contiguous(), R.stride())\n'
        '    print(hessian(lambda t: (t.sin() * t).sum())(x).stride())\n'
        '    print(jacfwd(lambda t: t.exp())(x.clone().requires_grad_()))\n'
        'print(jacfwd(lambda a, b: a * b, argnums=(0, 1))(torch.ones(2), torch.tensor(3.)))'),
    # a vectorized Jacobian is one tensor per input holding every output's rows, split per output: with
    # create_graph, the constant rows of a linear output come back attached too
    "vectorized_jacobian_pieces_attached_together": (
        'from torch.autograd.functional import jacobian\n'
        'a = torch.tensor([1., 2.], requires_grad=True)\n'
        'b = torch.tensor([3.], requires_grad=True)\n'
        'f = lambda p, q: (p * q, p.sum() + q)\n'
        'for v in [False, True]:\n'
        '    J = jacobian(f, (a, b), create_graph=True, vectorize=v)\n'
        '    print(J)\n'
        '    print([[j.grad_fn and j.grad_fn.next_functions for j in row] for row in J])\n'
        'print(jacobian(f, (a, b), vectorize=True))\n'
        'print(jacobian(lambda p: (p * 2, p.sin()), a, create_graph=True, vectorize=True))'),
    # second and third derivatives by autograd.grad(create_graph=True): values and grad_fn at each order, then
    # the unused-input error once the last one no longer depends on x, allow_unused and materialize_grads
    "third_derivatives_and_unused_input": (
        'x = torch.tensor(2.0, requires_grad=True)\n'
        'y = x ** 3 + 2 * x ** 2 - 5 * x\n'
        'g, = torch.autograd.grad(y, x, create_graph=True)\n'
        'g2, = torch.autograd.grad(g, x, create_graph=True)\n'
        'g3, = torch.autograd.grad(g2, x, create_graph=True)\n'
        'print(g, g2, g3, g3.requires_grad)\n'
        'tries(lambda: torch.autograd.grad(g3, x), lambda: torch.autograd.grad(g3, x, allow_unused=True),\n'
        '      lambda: torch.autograd.grad(g3, x, materialize_grads=True))\n'
        'for f in [torch.tanh, torch.sigmoid, lambda t: t.pow(2.5), lambda t: torch.exp(-t * t), torch.log1p]:\n'
        '    x = torch.tensor([0.5, 0.7], requires_grad=True)\n'
        '    g, = torch.autograd.grad(f(x).sum(), x, create_graph=True)\n'
        '    g2, = torch.autograd.grad(g.sum(), x, create_graph=True)\n'
        '    print(g, g2, torch.autograd.grad(g2.sum(), x))'),
    # backward(create_graph=True) leaves a .grad with a graph; backward through it accumulates into the same .grad
    # tensor in place (PyTorch's AccumulateGrad), a second create_graph backward adds with a new grad_fn
    "backward_create_graph_then_backward_of_grad": (
        'x = torch.tensor([1., 2.], requires_grad=True)\n'
        'w = torch.tensor([3., -1.], requires_grad=True)\n'
        '(w * x ** 2).sum().backward(create_graph=True)\n'
        'gx, gw = x.grad, w.grad\n'
        'print(gx, gw, gx.is_leaf)\n'
        '(x.grad * w.grad).sum().backward(retain_graph=True)\n'
        'print(x.grad, w.grad, x.grad is gx, w.grad is gw, gx, gw)\n'
        'x.grad.sum().backward(inputs=[w])\n'
        'print(x.grad, w.grad)\n'
        'z = torch.tensor(2., requires_grad=True)\n'
        'y = z ** 3\n'
        'y.backward(create_graph=True)\n'
        'y.backward(create_graph=True)\n'
        'print(z.grad, z.grad.grad_fn.next_functions)\n'
        'z.grad.backward()\n'
        'print(z.grad)'),
    # a once_differentiable Function gives a gradient that requires grad but refuses to be differentiated again
    "once_differentiable_refuses_double_backward": (
        'from torch.autograd.function import once_differentiable\n'
        'class Sq(torch.autograd.Function):\n'
        '    @staticmethod\n'
        '    def forward(ctx, x):\n'
        '        ctx.save_for_backward(x)\n'
        '        return x * x\n'
        '    @staticmethod\n'
        '    @once_differentiable\n'
        '    def backward(ctx, g):\n'
        '        x, = ctx.saved_tensors\n'
        '        return 2 * x * g\n'
        'x = torch.tensor([1., 3.], requires_grad=True)\n'
        'g, = torch.autograd.grad(Sq.apply(x).sum(), x, create_graph=True)\n'
        'print(g, g.requires_grad, g.grad_fn)\n'
        'tries(lambda: torch.autograd.grad(g.sum(), x))\n'
        'Sq.apply(x).sum().backward(create_graph=True)\n'
        'print(x.grad)\n'
        'tries(lambda: x.grad.sum().backward())'),
    # WGAN-GP's gradient penalty and a physics-informed loss (u_x, u_xx of a tanh MLP), backpropagated to the
    # parameters
    "gradient_penalty_and_pinn_losses": (
        'torch.manual_seed(0)\n'
        'D = torch.nn.Sequential(torch.nn.Linear(3, 4), torch.nn.LeakyReLU(0.2), torch.nn.Linear(4, 1))\n'
        'real, fake, alpha = torch.randn(5, 3), torch.randn(5, 3), torch.rand(5, 1)\n'
        'interp = (alpha * real + (1 - alpha) * fake).requires_grad_(True)\n'
        'd = D(interp)\n'
        'grads = torch.autograd.grad(outputs=d, inputs=interp, grad_outputs=torch.ones_like(d), create_graph=True,\n'
        '                            retain_graph=True, only_inputs=True)[0]\n'
        'gp = ((grads.norm(2, dim=1) - 1) ** 2).mean()\n'
        'print(grads, gp)\n'
        'gp.backward()\n'
        'print(D[0].weight.grad, D[2].bias.grad)\n'
        'net = torch.nn.Sequential(torch.nn.Linear(1, 8), torch.nn.Tanh(), torch.nn.Linear(8, 1))\n'
        'x = torch.linspace(0, 1, 5).view(-1, 1).requires_grad_(True)\n'
        'u = net(x)\n'
        'u_x = torch.autograd.grad(u, x, torch.ones_like(u), create_graph=True)[0]\n'
        'u_xx = torch.autograd.grad(u_x, x, torch.ones_like(u_x), create_graph=True)[0]\n'
        'loss = ((u_xx + u) ** 2).mean() + (u[0] - 1) ** 2\n'
        'print(u_x, u_xx, loss)\n'
        'loss.backward()\n'
        'print(net[0].weight.grad, net[2].bias.grad, torch.autograd.grad(u_xx.sum(), x)[0])'),
    # strict=True refusals of autograd.functional (outputs independent of inputs, linear functions for hessian /
    # hvp, strict with create_graph), and the Hessian of a tuple of inputs by a Python loop over autograd.grad
    "functional_strict_errors_and_hessian_loops": (
        'from torch.autograd.functional import jacobian, hessian, hvp, vhp, jvp\n'
        'x = torch.tensor([1., 2.])\n'
        'v = torch.ones(2)\n'
        'tries(lambda: jacobian(lambda a: torch.ones(2), x, strict=True),\n'
        '      lambda: jacobian(lambda a, b: a * 2, (x, x), strict=True),\n'
        '      lambda: jacobian(lambda a: a * 2, x, strict=True, create_graph=True),\n'
        '      lambda: hessian(lambda a: (a * 2).sum(), x, strict=True),\n'
        '      lambda: hessian(lambda a: (a ** 2).sum(), x, strict=True, create_graph=True),\n'
        '      lambda: hvp(lambda a: (a * 2).sum(), x, v, strict=True),\n'
        '      lambda: vhp(lambda a: (a ** 2).sum(), x, v, strict=True, create_graph=True),\n'
        '      lambda: jvp(lambda a: a * 2, x, v, strict=True, create_graph=True))\n'
        'x = torch.tensor([1., 2., 3.], requires_grad=True)\n'
        'f = x[0] ** 2 * x[1] + x[1] ** 3 * x[2] + torch.sin(x[2])\n'
        'g, = torch.autograd.grad(f, x, create_graph=True)\n'
        'H = torch.stack([torch.autograd.grad(g[i], x, retain_graph=True)[0] for i in range(3)])\n'
        'print(g, H, torch.allclose(H, hessian(lambda t: t[0] ** 2 * t[1] + t[1] ** 3 * t[2] + t[2].sin(), x)))'),
}


@pytest.mark.parametrize("name", SNIPPETS)
def test_snippet(name):
    code = SHOW + SNIPPETS[name]
    t, e = run_both(T, E, code)
    assert same(t, e), f"\n{code}\n--- torch\n{t.summary()}--- engine\n{e.summary()}"
