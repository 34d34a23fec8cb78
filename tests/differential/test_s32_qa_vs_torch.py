"""The programs of the most asked StackOverflow / PyTorch-forum autograd questions, as their askers wrote them and as
the answers fixed them, against real PyTorch: "grad is None" (a non-leaf made by .to()/.double()/arithmetic after
requires_grad, a Parameter re-wrapped, a tensor re-assigned in a loop), in-place changes of leaves and of their views,
"Trying to backward through the graph a second time" in RNN loops and GAN loops, backward of non-scalars, "element 0
of tensors does not require grad", tensors needed for gradient modified in place (ReLU(inplace=True), x[0] = ...,
optimizer.step() between two backward calls), zero_grad and freezing, losses accumulated with and without .item(),
manual SGD, autograd.grad's allow_unused / materialize_grads, custom autograd.Function mistakes, gradient clipping,
and the argument parser's errors for a model called with a list (its weight named Parameter). Printed text,
warnings and the final error must be the same."""
import pytest

T = pytest.importorskip("torch", reason="differential tests need real PyTorch (pip install torch==2.13.0)")
from .harness import SHOW, load_engine, run_both, same  # noqa: E402

E = load_engine()

SNIPPETS = {
    # the argument parser names an argument by its Python type (tp_name): a Parameter is "Parameter" and a subclass of
    # Tensor its class's name, in "got (...)" and in the "invalid types" lists, where it is also marked !...! as not
    # matching "Tensor" (the parser compares type names); a model called with a list hits this in conv1d
    "parser_names_parameters_and_subclasses": (
        'class My(torch.Tensor):\n'
        '    pass\n'
        'p = torch.nn.Parameter(torch.ones(2, 2))\n'
        'q = torch.ones(2, 2).as_subclass(My)\n'
        'c = torch.nn.Conv1d(1, 2, 2)\n'
        'tries(lambda: c([[1., 2., 3.]]), lambda: torch.nn.functional.conv2d(p, p, 1, "a"),\n'
        '      lambda: torch.nn.functional.conv1d([[1.]], p))\n'
        'for t in [p, q, p.data, p * 1]:\n'
        '    c = t > 0 if t is not q else t.as_subclass(torch.Tensor) > 0\n'
        '    tries(lambda: torch.sum(t, "a"), lambda: torch.where(c, t, "a"),\n'
        '          lambda: torch.clamp(t, "a"), lambda: torch.max(t, "a"), lambda: torch.mm(t, torch.ones(2, 2), 1),\n'
        '          lambda: torch.cat(t, t), lambda: torch.full((2,), t), lambda: torch.zeros(t),\n'
        '          lambda: torch.ones(2, t),\n'
        '          lambda: t.expand(t), lambda: t.reshape(t), lambda: t.new_zeros(t), lambda: torch.add(t, "a"),\n'
        '          lambda: torch.ones(2, 2).add_(t, 2, 3), lambda: torch.ones(2, 2).sub(t, 1, 2),\n'
        '          lambda: torch.ones(2, 2).copy_(t, True, 3))'),
    # clip_grads_with_norm_ reads max_norm as a float before it looks for gradients (a str fails even with none);
    # get_total_norm runs without grad (given the parameters themselves, no graph); clip_grad_value_ takes a falsy
    # foreach (0) as the loop of single clamps (one version bump each), a truthy one as the foreach path (two);
    # parameters_to_vector / vector_to_parameters read each parameter's device first, and name a vector of another
    # type by torch.typename
    "gradient_clipping_arguments": (
        'import numpy as np\n'
        'torch.manual_seed(0)\n'
        'm = torch.nn.Linear(2, 2)\n'
        'n = torch.nn.Linear(2, 1)\n'
        'tries(lambda: torch.nn.utils.clip_grads_with_norm_(n.parameters(), "x", torch.tensor(5.)),\n'
        '      lambda: torch.nn.utils.clip_grad_norm_(n.parameters(), "x"),\n'
        '      lambda: torch.nn.utils.clip_grad_norm_([], None))\n'
        'm(torch.ones(3, 2) * 4).sum().backward()\n'
        'for a in [2, float("inf"), "inf", 0.5, torch.tensor(1.), [1.]]:\n'
        '    tries(lambda: torch.nn.utils.get_total_norm(m.weight, a),\n'
        '          lambda: torch.nn.utils.get_total_norm([m.weight], a),\n'
        '          lambda: torch.nn.utils.get_total_norm(m.parameters(), a))\n'
        'for a in [None, False, 0, True, 1, "x", torch.tensor(0.5)]:\n'
        '    v = m.weight.grad._version\n'
        '    tries(lambda: torch.nn.utils.clip_grad_value_(m.parameters(), 0.1, foreach=a))\n'
        '    print(a, m.weight.grad._version - v)\n'
        'print(m.weight.grad, m.bias.grad)\n'
        'tries(lambda: torch.nn.utils.parameters_to_vector([m.weight, 3]),\n'
        '      lambda: torch.nn.utils.vector_to_parameters(np.zeros(6), m.parameters()),\n'
        '      lambda: torch.nn.utils.vector_to_parameters(torch.zeros(6), [m.weight, 3]),\n'
        '      lambda: torch.nn.utils.vector_to_parameters(torch.arange(6.), m.parameters()))\n'
        'print(m.weight, m.bias)'),
    # a scheduler stepped with the loss (sched.step(loss), the epoch argument): the closed form makes the lr (and
    # CyclicLR's momentum or beta1) a tensor of the loss's graph; the lr tensor is then filled by the next value as a
    # tensor (FillBackward3); the optimizers step with the tensor momentum / beta1, SGD's nesterov step refusing one
    # that requires grad as add()'s alpha
    "scheduler_stepped_with_the_loss": (
        'for s in ["StepLR(opt, 1)", "CosineAnnealingLR(opt, 3)", "CyclicLR(opt, 0.01, 0.1)"]:\n'
        '    for o in ["SGD([w], lr=0.1, momentum=0.9)", "SGD([w], lr=0.1, momentum=0.9, nesterov=True)",\n'
        '              "Adam([w], lr=0.1)", "NAdam([w], lr=0.1)", "RAdam([w], lr=0.1)",\n'
        '              "RMSprop([w], lr=0.1, momentum=0.5)"]:\n'
        '        for detach in [False, True]:\n'
        '            w = torch.nn.Parameter(torch.ones(2))\n'
        '            opt = eval("torch.optim." + o)\n'
        '            sched = eval("torch.optim.lr_scheduler." + s)\n'
        '            try:\n'
        '                for i in range(3):\n'
        '                    opt.zero_grad()\n'
        '                    loss = (w ** 2).sum()\n'
        '                    loss.backward()\n'
        '                    opt.step()\n'
        '                    sched.step(loss.detach() if detach else loss)\n'
        '                g = opt.param_groups[0]\n'
        '                print(s, o, detach, g["lr"], g.get("momentum"), g.get("betas"), w.data)\n'
        '            except Exception as e:\n'
        '                print(s, o, detach, i, type(e).__name__, e)'),
    # gradients gone NaN (the "my loss is nan" question) handed to the optimizers: Rprop's signs are torch.sign's, 0
    # for a NaN, so its step there is skipped (its step size kept); the others carry the NaN into the weights
    "optimizers_given_nan_gradients": (
        'gs = [torch.tensor([float("nan"), 1., -1.]), torch.tensor([1., float("nan"), 0.]), torch.tensor([1., 1., 1.]),\n'
        '      torch.tensor([float("inf"), -1., float("nan")])]\n'
        'for o in ["Rprop([w])", "Rprop([w], maximize=True, etas=(0.3, 1.5))", "SGD([w], lr=0.1, momentum=0.9)",\n'
        '          "Adam([w], amsgrad=True)"]:\n'
        '    for dt in [torch.float32, torch.float64]:\n'
        '        w = torch.nn.Parameter(torch.tensor([1., -2., 3.], dtype=dt))\n'
        '        opt = eval("torch.optim." + o)\n'
        '        for g in gs:\n'
        '            w.grad = g.to(dt)\n'
        '            opt.step()\n'
        '            print(o, w.data, sorted((k, v) for k, v in opt.state[w].items()))'),
    # "grad is None": .to()/.double()/.float()/.clone()/* 1 after requires_grad give a non-leaf (its .grad None with a
    # warning) unless the call returns the tensor itself (.float() of a float32, .to('cpu'), .requires_grad_()); a
    # Parameter re-wrapped or converted in __init__: a non-leaf attribute (not registered), a Parameter of a non-leaf
    # (a leaf again), a buffer; the optimizer refuses an empty parameter list
    "grad_is_none_after_conversion": (
        'for c in ["x.to(torch.float64)", "x.double()", "x.float()", "x.to(\'cpu\')", "x.cpu()", "x.clone()",\n'
        '          "x.detach()", "x.view(-1)", "x * 1", "x.requires_grad_()", "x.to(torch.float32, copy=True)",\n'
        '          "x.type(torch.DoubleTensor)", "x.contiguous()", "x.half()"]:\n'
        '    x = torch.tensor([[1., 2.], [3., 4.]], requires_grad=True)\n'
        '    x = eval(c)\n'
        '    y = (x.float() * 2).sum()\n'
        '    tries(lambda: y.backward())\n'
        '    print(c, x.is_leaf, x.requires_grad, x.grad_fn, x.grad)\n'
        'variants = ["self.w = torch.nn.Parameter(torch.randn(3)).double()",\n'
        '            "self.w = torch.nn.Parameter(torch.randn(3, requires_grad=True) * 2)",\n'
        '            "self.w = torch.randn(3, requires_grad=True)", "self.register_buffer(\'w\', torch.randn(3))",\n'
        '            "self.w = torch.nn.Parameter(torch.randn(3), requires_grad=False)"]\n'
        'for v in variants:\n'
        '    class M(torch.nn.Module):\n'
        '        def __init__(self):\n'
        '            super().__init__()\n'
        '            exec(v)\n'
        '        def forward(self, x):\n'
        '            return (self.w * x).sum()\n'
        '    m = M()\n'
        '    print(list(dict(m.named_parameters())), type(m.w).__name__, m.w.is_leaf, m.w.requires_grad)\n'
        '    tries(lambda: m(torch.ones(3)).backward(), lambda: m.w.grad,\n'
        '          lambda: torch.optim.SGD(m.parameters(), lr=0.1))'),
    # a weight re-assigned in the loop: w = w - lr * w.grad makes a non-leaf (its grad None next time), w -= ... on a
    # leaf is refused outside no_grad, the updates that work (no_grad, .data) and the grads zeroed or set to None
    "weight_reassigned_in_the_loop": (
        'for stmt in ["w = w - 0.1 * w.grad", "w -= 0.1 * w.grad", "w.data -= 0.1 * w.grad\\nw.grad.data.zero_()",\n'
        '             "with torch.no_grad():\\n    w -= 0.1 * w.grad\\nw.grad = None",\n'
        '             "with torch.no_grad():\\n    w = w - 0.1 * w.grad",\n'
        '             "w = (w - 0.1 * w.grad).detach().requires_grad_()"]:\n'
        '    w = torch.tensor([1., -2., 3.], requires_grad=True)\n'
        '    for i in range(3):\n'
        '        loss = ((w * torch.tensor([1., 2., 3.])) ** 2).sum()\n'
        '        try:\n'
        '            loss.backward()\n'
        '            print(i, loss, w.grad, w.is_leaf, w._version)\n'
        '            exec(stmt)\n'
        '        except Exception as e:\n'
        '            print(i, type(e).__name__, e)\n'
        '            break\n'
        '    print(w, w.is_leaf, w.grad)'),
    # in-place on a leaf and on views of it: refused under grad mode (the leaf's message, a view's own one), allowed
    # under no_grad (versions bumped); copying a graph result into a leaf "moves it into the graph interior"
    "inplace_on_leaves_and_their_views": (
        'for v in ["x", "x[0]", "x.view(-1)", "x.t()", "x.detach()", "x[[0, 1]]", "x.split(1)[0]", "x.unbind()[1]"]:\n'
        '    x = torch.tensor([[1., 2.], [-3., 4.]], requires_grad=True)\n'
        '    t = eval(v)\n'
        '    tries(lambda: t.add_(1), lambda: t.zero_(), lambda: t.relu_())\n'
        '    with torch.no_grad():\n'
        '        tries(lambda: t.mul_(2))\n'
        '    tries(lambda: (v, x._version, t._version), lambda: t.grad_fn)\n'
        '    tries(lambda: (x * t.sum()).sum().backward(), lambda: x.grad)\n'
        'z = torch.ones(3, requires_grad=True)\n'
        'for st in ["x.copy_(z * 2)", "x[0] = z[0] * 2", "x.add_(z)", "torch.mul(z, 2, out=x)"]:\n'
        '    x = torch.zeros(3, requires_grad=True)\n'
        '    tries(lambda: exec(st))\n'
        '    x = torch.zeros(3)\n'
        '    tries(lambda: exec(st))\n'
        '    print(x, x.is_leaf, x.grad_fn)'),
    # an RNN trained on a stream: the hidden state carried without detach() fails at the second backward (the
    # message of a freed graph), detached (or retain_graph=True) it trains; the LSTM's (h, c) repackaged
    "rnn_hidden_state_not_detached": (
        'for cell, fix in [("RNN", ""), ("RNN", "h = h.detach()"), ("GRU", "retain"), ("LSTM", ""),\n'
        '                  ("LSTM", "h = tuple(t.detach() for t in h)"), ("LSTMCell", ""),\n'
        '                  ("GRUCell", "h = h.detach()")]:\n'
        '    torch.manual_seed(0)\n'
        '    m = getattr(torch.nn, cell)(3, 4)\n'
        '    opt = torch.optim.SGD(m.parameters(), lr=0.01)\n'
        '    h = None\n'
        '    for step in range(3):\n'
        '        x = torch.randn(5, 2, 3) if not cell.endswith("Cell") else torch.randn(2, 3)\n'
        '        if cell.endswith("Cell"):\n'
        '            h = m(x, h)\n'
        '            o = h[0] if isinstance(h, tuple) else h\n'
        '        else:\n'
        '            o, h = m(x, h)\n'
        '        opt.zero_grad()\n'
        '        try:\n'
        '            o.pow(2).mean().backward(retain_graph=fix == "retain")\n'
        '            opt.step()\n'
        '        except RuntimeError as e:\n'
        '            print(cell, step, e)\n'
        '            break\n'
        '        if fix.startswith("h ="):\n'
        '            exec(fix)\n'
        '    print(cell, repr(fix), o.grad_fn, [p.grad is None for p in m.parameters()])'),
    # a GAN step: D trained on G(z) not detached, then G's loss backward through D's freed graph; retain_graph, the
    # detach fix, and optimizerD.step() before G's backward (D's weights saved for it changed in place)
    "gan_two_losses": (
        'for v in range(6):\n'
        '    torch.manual_seed(0)\n'
        '    G = torch.nn.Sequential(torch.nn.Linear(2, 3), torch.nn.ReLU(), torch.nn.Linear(3, 2))\n'
        '    D = torch.nn.Sequential(torch.nn.Linear(2, 3), torch.nn.LeakyReLU(0.2), torch.nn.Linear(3, 1),\n'
        '                            torch.nn.Sigmoid())\n'
        '    optG, optD = torch.optim.Adam(G.parameters(), lr=0.01), torch.optim.Adam(D.parameters(), lr=0.01)\n'
        '    bce = torch.nn.BCELoss()\n'
        '    fake = G(torch.randn(4, 2))\n'
        '    d_fake = D(fake) if v in (0, 4) else D(fake.detach())\n'
        '    lossD = bce(D(torch.randn(4, 2)), torch.ones(4, 1)) + bce(d_fake, torch.zeros(4, 1))\n'
        '    try:\n'
        '        lossD.backward(retain_graph=v == 2)\n'
        '        if v in (3, 4):\n'
        '            optD.step()\n'
        '        lossG = bce(D(fake) if v != 5 else d_fake, torch.ones(4, 1))\n'
        '        lossG.backward()\n'
        '        print(v, lossD, lossG)\n'
        '    except RuntimeError as e:\n'
        '        print(v, e)\n'
        '    print([p.grad is None for p in G.parameters()], D[0].weight._version)'),
    # backward of a non-scalar ("grad can be implicitly created only for scalar outputs"), of a result that does not
    # require grad ("element 0 of tensors does not require grad"), and the fixes (weights, sum())
    "backward_of_non_scalars_and_of_constants": (
        'x = torch.tensor([[1., -2.], [3., 4.]], requires_grad=True)\n'
        'for y in [x * 2, x.sum(0, keepdim=True), x.sum().view(1, 1), x.max(1).values, x.flatten()[:0], x.detach(),\n'
        '          x.argmax(), (x > 0).sum(), torch.tensor(x.sum().item()), x.round()]:\n'
        '    tries(lambda: y.backward(), lambda: y.backward(torch.ones_like(y)), lambda: torch.autograd.grad(y, x),\n'
        '          lambda: y.float().sum().backward(), lambda: y.backward(torch.ones(5)))\n'
        'print(x.grad)'),
    # a tensor saved for backward modified in place: ReLU(inplace=True) after a Sigmoid / Tanh (their outputs saved),
    # x[0] = ..., += on an activation; the message names the tensor, its node and the versions; optimizer.step()
    # between two backward calls through one graph (the weights it saved changed in place)
    "modified_by_an_inplace_operation": (
        'for arch in ["torch.nn.Linear(3, 3), torch.nn.ReLU(inplace=True), torch.nn.Linear(3, 1)",\n'
        '             "torch.nn.Sigmoid(), torch.nn.ReLU(inplace=True)",\n'
        '             "torch.nn.Linear(3, 3), torch.nn.Tanh(), torch.nn.ReLU(inplace=True)",\n'
        '             "torch.nn.Softmax(1), torch.nn.ReLU6(inplace=True)",\n'
        '             "torch.nn.Linear(3, 3), torch.nn.Sigmoid(), torch.nn.Hardswish(inplace=True)"]:\n'
        '    torch.manual_seed(0)\n'
        '    m = eval("torch.nn.Sequential(" + arch + ")")\n'
        '    x = torch.randn(2, 3, requires_grad=True)\n'
        '    tries(lambda: m(x), lambda: m(x * 1).sum().backward(), lambda: x.grad)\n'
        'x0 = torch.tensor([1., 2., 3.], requires_grad=True)\n'
        'for m in ["h[0] = 0", "h += 1", "x[0] = 0", "h.data.add_(1)", "h.detach().add_(1)"]:\n'
        '    x = x0 * 1\n'
        '    h = x.exp()\n'
        '    exec(m)\n'
        '    tries(lambda: h.sum().backward(), lambda: x0.grad)\n'
        'for o in ["SGD(ps, lr=0.1)", "SGD(ps, lr=0.1, momentum=0.9)", "Adam(ps, lr=0.1)"]:\n'
        '    torch.manual_seed(0)\n'
        '    lin, lin2 = torch.nn.Linear(2, 2), torch.nn.Linear(2, 1)\n'
        '    ps = list(lin.parameters()) + list(lin2.parameters())\n'
        '    opt = eval("torch.optim." + o)\n'
        '    out = lin2(torch.sigmoid(lin(torch.randn(3, 2))))\n'
        '    out.sum().backward(retain_graph=True)\n'
        '    opt.step()\n'
        '    tries(lambda: (out ** 2).mean().backward())\n'
        '    print([p._version for p in ps])'),
    # zero_grad: set_to_none (default) against zeroing in place; after backward(create_graph=True) the grads have a
    # graph that zero_grad(set_to_none=False) detaches; freezing with requires_grad_(False) before and after the
    # optimizer was made
    "zero_grad_and_freezing": (
        'for zg in ["opt.zero_grad()", "opt.zero_grad(set_to_none=False)", "m.zero_grad()", "m.weight.grad.zero_()"]:\n'
        '    torch.manual_seed(0)\n'
        '    m = torch.nn.Linear(2, 1)\n'
        '    opt = torch.optim.SGD(m.parameters(), lr=0.1)\n'
        '    (m(torch.randn(3, 2)) ** 2).sum().backward(create_graph=True)\n'
        '    exec(zg)\n'
        '    g = m.weight.grad\n'
        '    print(zg, g, g.grad_fn, g.requires_grad, g._version) if g is not None else print(zg, g)\n'
        'for before in [True, False]:\n'
        '    torch.manual_seed(0)\n'
        '    m = torch.nn.Sequential(torch.nn.Linear(2, 2), torch.nn.Tanh(), torch.nn.Linear(2, 1))\n'
        '    if before:\n'
        '        opt = torch.optim.Adam(m.parameters(), lr=0.1)\n'
        '    m[0].requires_grad_(False)\n'
        '    if not before:\n'
        '        opt = torch.optim.Adam(filter(lambda p: p.requires_grad, m.parameters()), lr=0.1)\n'
        '    for step in range(2):\n'
        '        opt.zero_grad()\n'
        '        m(torch.randn(3, 2)).sum().backward()\n'
        '        opt.step()\n'
        '    print([p.grad is None for p in m.parameters()], m[0].weight, len(opt.state))'),
    # losses accumulated: total += loss keeps a graph (its grad_fn an AddBackward0), .item() / .detach() / float()
    # do not; torch.stack of kept losses, f-strings of each
    "loss_accumulation": (
        'for acc in ["total += loss", "total += loss.item()", "total += loss.detach()", "total = total + loss",\n'
        '            "total += float(loss)", "total += loss.data"]:\n'
        '    for init in ["0", "torch.tensor(0.)"]:\n'
        '        w = torch.tensor([0.5, -1.5, 2.], requires_grad=True)\n'
        '        total = eval(init)\n'
        '        for i in range(3):\n'
        '            loss = (w * (i + 1)).pow(2).sum()\n'
        '            loss.backward()\n'
        '            exec(acc)\n'
        '        print(acc, init, type(total).__name__, total, getattr(total, "grad_fn", "n/a"), f"{total:.3f}")\n'
        '        if isinstance(total, torch.Tensor):\n'
        '            tries(lambda: total.backward(), lambda: w.grad)'),
    # autograd.grad with unused inputs: refused, None with allow_unused, zeros with materialize_grads (allow_unused
    # then implied; allow_unused=False with it refused), a non-leaf input and a repeated one
    "autograd_grad_unused_inputs": (
        'x = torch.tensor([1., 2.], requires_grad=True)\n'
        'y = torch.tensor([3., 4.], requires_grad=True)\n'
        'n = torch.ones(2)\n'
        'for kw in [{}, {"allow_unused": True}, {"materialize_grads": True},\n'
        '           {"allow_unused": False, "materialize_grads": True},\n'
        '           {"create_graph": True, "materialize_grads": True}]:\n'
        '    for ins in [(x, y), [x, x], [x, x * 2], [n], []]:\n'
        '        out = (x * 2).sum()\n'
        '        try:\n'
        '            r = torch.autograd.grad(out, ins, **kw)\n'
        '            print(kw, r, [t.requires_grad if t is not None else None for t in r])\n'
        '        except Exception as e:\n'
        '            print(kw, type(e).__name__, e)'),
    # custom Functions: a non-tensor saved, too many / too few gradients, a gradient of the wrong shape, in-place
    # without mark_dirty, mark_dirty, needs_input_grad, a non-tensor argument given a gradient
    "custom_function_mistakes": (
        'cases = [("ctx.save_for_backward(x, 3)\\nreturn x * 2", "return g * 2"),\n'
        '         ("return x * 2", "return g * 2, None"), ("return x * 2", "return g * 2, g, g"),\n'
        '         ("return x * 2", "return ()"), ("return x * 2", "return g.sum()"),\n'
        '         ("return x * 2", "return torch.ones(5)"), ("x.mul_(2)\\nreturn x", "return g * 2"),\n'
        '         ("x.mul_(2)\\nctx.mark_dirty(x)\\nreturn x", "return g * 2"), ("return x * k", "return g * k, g"),\n'
        '         ("print(ctx.needs_input_grad)\\nreturn x * k", "print(ctx.needs_input_grad)\\nreturn g * k, None")]\n'
        'for fwd, bwd in cases:\n'
        '    ns = {}\n'
        '    exec("class F(torch.autograd.Function):\\n    @staticmethod\\n    def forward(ctx, x, k=2):\\n"\n'
        '         + "".join("        " + l + "\\n" for l in fwd.split("\\n"))\n'
        '         + "    @staticmethod\\n    def backward(ctx, g):\\n        k = 2\\n"\n'
        '         + "".join("        " + l + "\\n" for l in bwd.split("\\n")), {"torch": torch}, ns)\n'
        '    for x in [torch.tensor([1., 2.], requires_grad=True), torch.tensor([1., 2.], requires_grad=True) * 1]:\n'
        '        try:\n'
        '            y = ns["F"].apply(x)\n'
        '            show(y)\n'
        '            y.sum().backward()\n'
        '            print(x.grad if x.is_leaf else x.grad_fn)\n'
        '        except Exception as e:\n'
        '            print(type(e).__name__, e)'),
}


@pytest.mark.parametrize("name", SNIPPETS)
def test_snippet(name):
    code = SHOW + SNIPPETS[name]
    t, e = run_both(T, E, code)
    assert same(t, e), f"\n{code}\n--- torch\n{t.summary()}--- engine\n{e.summary()}"
