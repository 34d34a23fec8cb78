"""Autograd graph introspection over many ops against real PyTorch (session 21): grad_fn names, next_functions,
saved values (and their Python types) of the first and the double-backward graph, numbers given as numpy numbers or
0-d tensors."""
import pytest

T = pytest.importorskip("torch", reason="differential tests need real PyTorch (pip install torch==2.13.0)")
from .harness import SHOW, load_engine, run_both, same  # noqa: E402

E = load_engine()

# walk(n): every node below n, with its saved values other than the input and output tensors
WALK = ('def walk(n, depth=0):\n'
        '    if n is None:\n'
        '        return\n'
        '    print(" " * depth, n.name(), {a: getattr(n, a) for a in sorted(dir(n))\n'
        '                                  if a.startswith("_saved") and "self" not in a and "other" not in a})\n'
        '    for f, _ in n.next_functions:\n'
        '        walk(f, depth + 2)\n')

SNIPPETS = {
    "std_mean_double_backward_multiplies_by_a_number": WALK + (
        'x = torch.tensor([[0.5, 1.5, 2.0], [3.0, 0.25, 1.25]], requires_grad=True)\n'
        'for f in [lambda: torch.std_mean(x, 1)[0], lambda: torch.std_mean(x)[0], lambda: x.std(1)]:\n'
        '    g, = torch.autograd.grad(f().sum(), x, create_graph=True)\n'
        '    walk(g.grad_fn)'),
    "pow_exponent_gradient_casts_the_base_to_the_result_type": WALK + (
        'x = torch.tensor([0.5, 1.5, 3.0], dtype=torch.float64, requires_grad=True)\n'
        'for s in [torch.tensor([2., 3., 4.], requires_grad=True), torch.tensor(2.)]:\n'
        '    g, = torch.autograd.grad((s ** x).sum(), x, create_graph=True)\n'
        '    walk(g.grad_fn)'),
    "numpy_numbers_as_operands_and_bounds": SHOW + (
        'import numpy as np\n'
        'x = torch.tensor([0.5, 1.5, 3.0], requires_grad=True)\n'
        'for s in [np.int64(2), np.int32(1), np.float64(2.5), np.float32(1.5)]:\n'
        '    print(repr((x * s).grad_fn._saved_other), repr((s / x).grad_fn._saved_other))\n'
        '    for f in [lambda: x.clamp(s), lambda: x.clamp(max=s), lambda: x.clamp(s, s), lambda: x.clamp_min(s),\n'
        '              lambda: x.clamp_max(s), lambda: torch.clamp(x, min=s), lambda: x.clip(s), lambda: (x * 1).clamp_(s),\n'
        '              lambda: x.clamp(min=torch.tensor(0.), max=s), lambda: torch.xlogy(x, s)]:\n'
        '        y = f()\n'
        '        show(y)\n'
        '        print([type(getattr(y.grad_fn, a)).__name__ for a in ("_saved_min", "_saved_max", "_saved_other")\n'
        '               if hasattr(y.grad_fn, a)])'),
    "numbers_given_as_0d_tensors_or_numpy_numbers": SHOW + (
        'import numpy as np\n'
        'x = torch.tensor([0.5, 1.5, 3.0], requires_grad=True)\n'
        'F = torch.nn.functional\n'
        'for s in [torch.tensor(2.), torch.tensor(3), np.float64(2.5), np.int64(2), torch.tensor([2., 3., 4.]),\n'
        '          torch.tensor(2., requires_grad=True), "a", None]:\n'
        '    tries(lambda: show(torch.addcmul(x, x, x, value=s)), lambda: show(torch.addcdiv(x, x, x, value=s)),\n'
        '          lambda: show(x.addcmul(x, x, value=s)), lambda: show(F.leaky_relu(x, s)), lambda: show(F.elu(x, s)),\n'
        '          lambda: show(F.softplus(x, s)), lambda: show(F.softplus(x, 1, s)), lambda: show(F.hardtanh(x, -1, s)),\n'
        '          lambda: show(F.threshold(x, s, 0)), lambda: show(F.threshold(x, 0, s)),\n'
        '          lambda: show(F.elu(x * 1, s, inplace=True)), lambda: show(F.threshold(x * 1, s, 0, inplace=True)))\n'
        'm = x.view(1, 3).expand(2, 3)\n'
        'for s in [torch.tensor(2.), torch.tensor(3), np.float64(2.5), np.int64(2)]:\n'
        '    for f in [lambda: torch.addmm(m[:, :2], m, m.t(), beta=s, alpha=s), lambda: torch.addmv(x[:2], m, x, beta=s),\n'
        '              lambda: torch.addr(m, m[:, 0], x, alpha=s), lambda: m[:, :2].addmm(m, m.t(), alpha=s),\n'
        '              lambda: torch.baddbmm(m[None], m[None, :, :2], m[None, :2], beta=s, alpha=s)]:\n'
        '        y = f()\n'
        '        print(y, [(a, getattr(y.grad_fn, a)) for a in ("_saved_alpha", "_saved_beta")])\n'
        'for c in [torch.tensor(1), np.int64(0), torch.tensor(0.5)]:\n'
        '    for y in [x.var(correction=c), x.std(0, correction=c), torch.var_mean(x, correction=c)[0]]:\n'
        '        print(y, repr(y.grad_fn._saved_correction))'),
    "var_backward_takes_the_mean_over_the_dims_as_given": WALK + (
        'x = torch.arange(24.).view(2, 3, 4).div(7).requires_grad_()\n'
        's = torch.tensor(2., requires_grad=True)\n'
        'for f in [lambda: x.var((-1,), keepdim=True, correction=0), lambda: x.std(-1), lambda: x.var((-1, 0)),\n'
        '          lambda: x.std((2, -3), keepdim=True), lambda: torch.var_mean(x, (-1, 1))[0],\n'
        '          lambda: torch.std_mean(x, -2)[0], lambda: x.var(1)]:\n'
        '    g, = torch.autograd.grad(f().sum(), x, create_graph=True)\n'
        '    walk(g.grad_fn)\n'
        'for f in [lambda: s.var(0, correction=0), lambda: s.std(-1)]:\n'
        '    g, = torch.autograd.grad(f(), s, create_graph=True)\n'
        '    walk(g.grad_fn)'),
    "reduced_gradient_unsqueezed_at_the_dim_as_given": WALK + (
        'for shape in [(2, 3, 4), (3,)]:\n'
        '    x = torch.arange(24.)[:torch.Size(shape).numel()].view(shape).div(7).requires_grad_()\n'
        '    for f in [lambda: x.std(-1), lambda: x.std((-1, 0)), lambda: torch.std_mean(x, (-1,))[0],\n'
        '              lambda: x.logsumexp(-1), lambda: x.norm(dim=-1), lambda: x.norm(dim=(0, -1)),\n'
        '              lambda: torch.linalg.vector_norm(x, 3, -1), lambda: x.norm(p=1.5, dim=-1)]:\n'
        '        g, = torch.autograd.grad((f() ** 2).sum(), x, create_graph=True)\n'
        '        walk(g.grad_fn)'),
    "prod_backward_in_the_dtype_of_the_result": WALK + (
        'x = torch.tensor([[1., 2.], [3., 4.]], requires_grad=True)\n'
        'for f in [lambda: x.prod(0, dtype=torch.float64), lambda: x.prod(dtype=torch.float64),\n'
        '          lambda: x.prod(1, keepdim=True, dtype=torch.float64)]:\n'
        '    g, = torch.autograd.grad(f().sum(), x, create_graph=True)\n'
        '    print(g)\n'
        '    walk(g.grad_fn)'),
    "nll_loss_2d_gradient_is_contiguous": WALK + (
        'x = torch.arange(24.).view(2, 3, 4).div(7).requires_grad_()\n'
        't = torch.tensor([[0, 1, 2, 0], [1, 1, 1, 2]])\n'
        'F = torch.nn.functional\n'
        'for f in [lambda: F.cross_entropy(x, t), lambda: F.nll_loss(x, t, reduction="none"),\n'
        '          lambda: F.nll_loss(x.unsqueeze(-1), t.unsqueeze(-1))]:\n'
        '    g, = torch.autograd.grad(f().sum(), x, create_graph=True)\n'
        '    print(g.stride(), g.is_contiguous())\n'
        '    walk(g.grad_fn)\n'
        'g, = torch.autograd.grad(F.nll_loss(x, t), x)\n'
        'print(g.stride(), g.is_contiguous())'),
    "raw_saved_output_unpacks_only_through_its_node": SHOW + (
        'x = torch.tensor([1., 2., 3.], requires_grad=True)\n'
        'for f in [lambda: x.exp(), lambda: (x * 1).exp_(), lambda: (x * 1).sigmoid_(), lambda: x.sin(),\n'
        '          lambda: torch.std_mean(x)[0]]:\n'
        '    y = f()\n'
        '    for n in sorted(a for a in dir(y.grad_fn) if a.startswith("_raw_saved")):\n'
        '        r = getattr(y.grad_fn, n)\n'
        '        tries(lambda: r.unpack(), lambda: r.data, lambda: getattr(y.grad_fn, "_saved" + n[10:]))\n'
        '    y = f()\n'
        '    r = getattr(y.grad_fn, sorted(a for a in dir(y.grad_fn) if a.startswith("_raw_saved"))[-1])\n'
        '    r.register_hooks(lambda t: (print("pack", t), t)[1], lambda t: (print("unpack", t), t)[1])\n'
        '    y.sum().backward()\n'
        '    tries(lambda: r.unpack())'),
    "double_backward_nodes_of_kernels_show_their_saved_values": (
        'F = torch.nn.functional\n'
        'x = torch.arange(24.).view(2, 3, 4).sin().requires_grad_()\n'
        'w3 = torch.tensor([0.5, 1., 2.], requires_grad=True)\n'
        'for f in [lambda: F.layer_norm(x, (4,)), lambda: F.layer_norm(x, (3, 4), torch.ones(3, 4, requires_grad=True)),\n'
        '          lambda: F.batch_norm(x, None, None, w3, None, training=True),\n'
        '          lambda: F.batch_norm(x, torch.zeros(3), torch.ones(3), training=False),\n'
        '          lambda: F.prelu(x, torch.tensor([0.2], requires_grad=True)),\n'
        '          lambda: F.conv1d(x, torch.ones(2, 3, 2, requires_grad=True), stride=2, padding=1),\n'
        '          lambda: F.conv_transpose1d(x, torch.ones(3, 2, 2, requires_grad=True), stride=2, output_padding=1)]:\n'
        '    g, = torch.autograd.grad(f().pow(2).sum(), x, create_graph=True)\n'
        '    n = g.grad_fn\n'
        '    print(n.name(), [a for a in dir(n) if "_saved" in a])\n'
        '    for a in sorted(a for a in dir(n) if a.startswith("_saved")):\n'
        '        v = getattr(n, a)\n'
        '        print("  ", a, type(v).__name__, v.shape if isinstance(v, torch.Tensor) else v)\n'
        '    torch.autograd.grad(g.pow(2).sum(), x)\n'
        '    try:\n'
        '        n._saved_grad_output if hasattr(n, "_saved_grad_output") else n._saved_grad_out\n'
        '    except RuntimeError as e:\n'
        '        print(e)'),
    "dims_given_as_numpy_ints_or_int_tensors_are_saved_as_ints": SHOW + (
        'import numpy as np\n'
        'x = torch.tensor([[0.5, 1.5, 2.0], [3.0, 0.25, 1.25]], requires_grad=True)\n'
        'for d in [np.int64(1), np.int32(0), np.int64(-1), torch.tensor(1)]:\n'
        '    for f in [lambda: x.sum(d), lambda: x.sum((d,)), lambda: x.mean(d, True), lambda: x.std(d), lambda: x.var((d,)),\n'
        '              lambda: x.amax(d), lambda: x.max(d)[0], lambda: x.prod(d), lambda: x.softmax(d), lambda: x.logsumexp(d),\n'
        '              lambda: x.unsqueeze(d), lambda: x.transpose(d, 0), lambda: x.cumsum(d), lambda: x.narrow(d, 0, 1),\n'
        '              lambda: torch.cat([x, x], d), lambda: torch.stack([x, x], d), lambda: x.select(d, 0),\n'
        '              lambda: x.split(1, d)[0], lambda: x.unbind(d)[0], lambda: x.sort(d)[0], lambda: x.flip(d)]:\n'
        '        y = f()\n'
        '        show(y)\n'
        '        print([(a, type(getattr(y.grad_fn, a)).__name__) for a in dir(y.grad_fn) if "dim" in a])\n'
        '        x.grad = None\n'
        '        y.sum().backward()\n'
        '        print(x.grad)'),
}


@pytest.mark.parametrize("name", SNIPPETS)
def test_snippet(name):
    code = SNIPPETS[name]
    t, e = run_both(T, E, code)
    assert same(t, e), f"\n{code}\n--- torch\n{t.summary()}--- engine\n{e.summary()}"
