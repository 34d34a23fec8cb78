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
    # a pointwise op whose backward has no backward of its own (hardsigmoid's): its tangent from its backward alone
    "pointwise_ops_without_a_double_backward": (
        "import torch.autograd.forward_ad as fwAD\n"
        "import torch.nn.functional as F\n"
        "with fwAD.dual_level():\n"
        "    d = fwAD.make_dual(torch.tensor([-4., 0.5, 1.0, 4.]), torch.tensor([1., 2., 3., 4.]))\n"
        "    print(F.hardsigmoid(d), F.hardswish(d), F.hardtanh(d), F.relu6(d), F.elu(d), F.leaky_relu(d))\n"
        "    print(F.softplus(d), F.silu(d), torch.frac(d), d.sign(), torch.round(d))"),
    # -- what a probe of ~2,150 forward-mode programs found (session 46), fixed
    # in-place op through a view / item assignment on a dual whose primal needs no grad raises (hidden dual looks like
    # a leaf)
    "probe_in_place_op_through_a_view_item_assignment_on_a": (
        "import torch.autograd.forward_ad as fwAD\n"
        "with fwAD.dual_level():\n"
        "    d = fwAD.make_dual(torch.ones(2, 3), torch.ones(2, 3))\n"
        "    y = d * 2\n"
        "    y[:, 0] += 1\n"
        "    print(y)\n"
        "    d[0] = 5.0\n"
        "    print(d)"),
    # custom Function with mark_dirty on a dual (primal without grad) raises the leaf in-place error
    "probe_custom_function_with_mark_dirty_on_a_dual_primal": (
        "import torch.autograd.forward_ad as fwAD\n"
        "class Double_(torch.autograd.Function):\n"
        "    @staticmethod\n"
        "    def forward(ctx, x):\n"
        "        ctx.mark_dirty(x)\n"
        "        return x.mul_(2)\n"
        "    @staticmethod\n"
        "    def jvp(ctx, t):\n"
        "        return t.mul_(2)\n"
        "with fwAD.dual_level():\n"
        "    d = fwAD.make_dual(torch.ones(2), torch.ones(2))\n"
        "    print(Double_.apply(d.clone()))"),
    # requires_grad on a result computed from a dual: requires_grad_() is ignored, setting .requires_grad raises
    "probe_requires_grad_on_a_result_computed_from_a_dual_r": (
        "import torch.autograd.forward_ad as fwAD\n"
        "with fwAD.dual_level():\n"
        "    d = fwAD.make_dual(torch.ones(3), torch.ones(3))\n"
        "    y = d * 2\n"
        "    y.requires_grad_()\n"
        "    print(y.requires_grad, y.is_leaf)\n"
        "    z = d * 3\n"
        "    z.requires_grad = True\n"
        "    print(z.requires_grad)"),
    # engine crash (AttributeError) for inv / cholesky / cholesky_solve / tensorinv on duals
    "probe_engine_crash_attributeerror_for_inv_cholesky_cho": (
        "import torch.autograd.forward_ad as fwAD\n"
        "A = torch.tensor([[2., 1.], [1., 3.]])\n"
        "with fwAD.dual_level():\n"
        "    X = fwAD.make_dual(A, torch.eye(2))\n"
        "    tries(lambda: torch.linalg.inv(X), lambda: torch.linalg.cholesky(X))"),
    # multi-output linalg ops give no tangent (and, for a primal without grad, a leaked grad_fn / requires_grad=True)
    "probe_multi_output_linalg_ops_give_no_tangent_and_for": (
        "import torch.autograd.forward_ad as fwAD\n"
        "A = torch.tensor([[2., 1.], [1., 3.]])\n"
        "with fwAD.dual_level():\n"
        "    X = fwAD.make_dual(A, torch.eye(2))\n"
        "    for y in [torch.linalg.svdvals(X), torch.linalg.eigvalsh(X), torch.linalg.slogdet(X)[1], torc"
        "h.logdet(X),\n"
        "              torch.linalg.qr(X)[1], torch.linalg.norm(X, 2), torch.aminmax(X)[0]]:\n"
        "        print(y.requires_grad, y.grad_fn is not None, fwAD.unpack_dual(y).tangent)"),
    # GRU / GRUCell / LSTMCell give no tangent (gru_cell output also shows requires_grad=True)
    "probe_gru_grucell_lstmcell_give_no_tangent_gru_cell_ou": (
        "import torch.autograd.forward_ad as fwAD\n"
        "import torch.nn as nn\n"
        "torch.manual_seed(0)\n"
        "gru, cell = nn.GRU(2, 2), nn.LSTMCell(2, 2)\n"
        "x = torch.randn(3, 1, 2)\n"
        "with fwAD.dual_level():\n"
        "    d = fwAD.make_dual(x, torch.ones(3, 1, 2))\n"
        "    print(fwAD.unpack_dual(gru(d)[0]).tangent is None, fwAD.unpack_dual(cell(d[0])[0]).tangent is"
        " None)"),
    # logcumsumexp tangent is NaN
    "probe_logcumsumexp_tangent_is_nan": (
        "import torch.autograd.forward_ad as fwAD\n"
        "with fwAD.dual_level():\n"
        "    d = fwAD.make_dual(torch.tensor([1., 2., 3.]), torch.ones(3))\n"
        "    print(fwAD.unpack_dual(d.logcumsumexp(0)).tangent)"),
    # in-place view ops (t_, transpose_, unsqueeze_, squeeze_, as_strided_) don't reshape the tangent; grad_fn leaks
    "probe_in_place_view_ops_t_transpose_unsqueeze_squeeze": (
        "import torch.autograd.forward_ad as fwAD\n"
        "with fwAD.dual_level():\n"
        "    d = fwAD.make_dual(torch.ones(2, 3), torch.arange(6.).view(2, 3))\n"
        "    d.t_()\n"
        "    print(d.shape, fwAD.unpack_dual(d).tangent.shape, d.grad_fn, d.is_leaf)"),
    # nn.RNN(batch_first=True): output tangent has the time-major shape
    "probe_nn_rnn_batch_first_true_output_tangent_has_the_t": (
        "import torch.autograd.forward_ad as fwAD\n"
        "import torch.nn as nn\n"
        "torch.manual_seed(0)\n"
        "m = nn.RNN(2, 2, batch_first=True)\n"
        "with fwAD.dual_level():\n"
        "    d = fwAD.make_dual(torch.randn(1, 3, 2), torch.ones(1, 3, 2))\n"
        "    out, h = m(d)\n"
        "    print(out.shape, fwAD.unpack_dual(out).tangent.shape)"),
    # in-place op writing a dual into a view of a hidden dual leaves grad_fn=<AsStridedBackward0> on it
    "probe_in_place_op_writing_a_dual_into_a_view_of_a_hidd": (
        "import torch.autograd.forward_ad as fwAD\n"
        "with fwAD.dual_level():\n"
        "    d = fwAD.make_dual(torch.ones(3), torch.ones(3))\n"
        "    b = d * 2\n"
        "    y = b[:]\n"
        "    y.copy_(d * 3)\n"
        "    print(y.grad_fn, y.is_leaf, y.requires_grad)"),
    # a dual (primal without grad) in a non-differentiable argument raises
    "probe_a_dual_primal_without_grad_in_a_non_differentiab": (
        "import torch.autograd.forward_ad as fwAD\n"
        "import torch.nn.functional as F\n"
        "with fwAD.dual_level():\n"
        "    w = fwAD.make_dual(torch.ones(3), torch.ones(3))\n"
        "    print(F.cross_entropy(torch.zeros(2, 3), torch.tensor([0, 2]), weight=w))"),
    # copy.deepcopy / pickle of a dual whose primal needs no grad: requires_grad=True; of a result: the non-leaf error
    "probe_copy_deepcopy_pickle_of_a_dual_whose_primal_need": (
        "import torch.autograd.forward_ad as fwAD\n"
        "import copy\n"
        "with fwAD.dual_level():\n"
        "    d = fwAD.make_dual(torch.ones(2), torch.ones(2))\n"
        "    tries(lambda: copy.deepcopy(d), lambda: copy.deepcopy(d * 2))"),
    # retain_grad / register_hook accepted on a dual that needs no grad
    "probe_retain_grad_register_hook_accepted_on_a_dual_tha": (
        "import torch.autograd.forward_ad as fwAD\n"
        "with fwAD.dual_level():\n"
        "    h = fwAD.make_dual(torch.ones(2), torch.ones(2)) * 2\n"
        "    tries(lambda: h.retain_grad(), lambda: h.register_hook(lambda g: g))"),
    # detach_() keeps the tangent
    "probe_detach_keeps_the_tangent": (
        "import torch.autograd.forward_ad as fwAD\n"
        "with fwAD.dual_level():\n"
        "    y = fwAD.make_dual(torch.ones(3), torch.ones(3)) * 2\n"
        "    y.detach_()\n"
        "    print(y)"),
    # custom Function jvp results are not validated (count, shape, non-differentiable output)
    "probe_custom_function_jvp_results_are_not_validated_co": (
        "import torch.autograd.forward_ad as fwAD\n"
        "class F2(torch.autograd.Function):\n"
        "    @staticmethod\n"
        "    def forward(ctx, x):\n"
        "        return x * 2\n"
        "    @staticmethod\n"
        "    def jvp(ctx, t):\n"
        "        return t, t\n"
        "class Sh(torch.autograd.Function):\n"
        "    @staticmethod\n"
        "    def forward(ctx, x):\n"
        "        return x * 2\n"
        "    @staticmethod\n"
        "    def jvp(ctx, t):\n"
        "        return t.sum()\n"
        "with fwAD.dual_level():\n"
        "    d = fwAD.make_dual(torch.ones(2), torch.ones(2))\n"
        "    tries(lambda: F2.apply(d), lambda: Sh.apply(d))"),
    # custom Function: ctx.set_materialize_grads(False) -> jvp gets None for an input without tangent
    "probe_custom_function_ctx_set_materialize_grads_false": (
        "import torch.autograd.forward_ad as fwAD\n"
        "class Add(torch.autograd.Function):\n"
        "    @staticmethod\n"
        "    def forward(ctx, x, y):\n"
        "        ctx.set_materialize_grads(False)\n"
        "        return x + y\n"
        "    @staticmethod\n"
        "    def jvp(ctx, tx, ty):\n"
        "        print(tx, ty)\n"
        "        return tx\n"
        "with fwAD.dual_level():\n"
        "    Add.apply(fwAD.make_dual(torch.ones(2), torch.ones(2)), torch.ones(2))"),
    # make_dual argument errors: tangent that is itself a dual; level=0 with no level entered
    "probe_make_dual_argument_errors_tangent_that_is_itself": (
        "import torch.autograd.forward_ad as fwAD\n"
        "tries(lambda: fwAD.make_dual(torch.ones(2), torch.ones(2), level=0))\n"
        "with fwAD.dual_level():\n"
        "    d = fwAD.make_dual(torch.ones(2), torch.ones(2))\n"
        "    tries(lambda: fwAD.make_dual(torch.ones(2), d))"),
    # unpack_dual's primal: grad_fn Identity also without a tangent; its repr is <CppFunction ...>
    "probe_unpack_dual_s_primal_grad_fn_identity_also_witho": (
        "import torch.autograd.forward_ad as fwAD\n"
        "x = torch.ones(2, requires_grad=True)\n"
        "with fwAD.dual_level():\n"
        "    print(fwAD.unpack_dual(x * 2).primal)\n"
        "    print(fwAD.unpack_dual(fwAD.make_dual(x, torch.ones(2))).primal.grad_fn)"),
    # torch.func.jvp inside a dual level
    "probe_torch_func_jvp_inside_a_dual_level": (
        "import torch.autograd.forward_ad as fwAD\n"
        "from torch.func import jvp\n"
        "with fwAD.dual_level():\n"
        "    tries(lambda: jvp(torch.sin, (torch.ones(2),), (torch.ones(2),)))"),
}


@pytest.mark.parametrize("name", SNIPPETS)
def test_snippet(name):
    code = SHOW + SNIPPETS[name]
    t, e = run_both(T, E, code)
    assert same(t, e), f"\n{code}\n--- torch\n{t.summary()}--- engine\n{e.summary()}"
