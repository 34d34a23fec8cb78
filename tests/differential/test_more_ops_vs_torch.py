"""split / chunk / unbind, cumsum, prod, amax / amin, masked_fill, gather, index_select, repeat, flip, tril / triu,
outer, trace, diag, roll, movedim, broadcast_to, and the torch.* comparison, logical and remainder functions, against
real PyTorch: printed values and reprs, grad_fn names, saved attributes, gradients, dtypes and errors word for word."""
import pytest

T = pytest.importorskip("torch", reason="differential tests need real PyTorch (pip install torch==2.13.0)")
from .harness import SHOW, describe, load_engine, run_both, run_lockstep, same  # noqa: E402

E = load_engine()

SNIPPETS = {
    # ---- split, chunk, unbind: views that are the outputs of one node
    "split_views": ("x = torch.arange(10., requires_grad=True)\ny = x * 1\na, b, c = y.split(4)\n"
                    "show(b)\n"
                    "print(a.output_nr, b.output_nr, c.output_nr, b._base is y, b._version, a.grad_fn is c.grad_fn)\n"
                    "(b * 2).sum().backward(retain_graph=True)\nprint(x.grad)\n(a.sum() + c.sum()).backward()\n"
                    "print(x.grad)"),
    "split_sizes_and_dims": ("x = torch.arange(12.).view(3, 4).requires_grad_()\np = x.split([1, 3], 1)\nshow(p[1])\n"
                             "q = torch.split(x, 2, dim=-2)\nshow(q[1])\nr = x.split_with_sizes((2, 1))\nshow(r[0])\n"
                             "s = torch.split(x, [2, 2], -1)\nprint(s, type(s))\n(p[1] * p[1]).sum().backward()\n"
                             "print(x.grad)"),
    "chunk": ("x = torch.arange(10., requires_grad=True)\nfor n in (1, 3, 4, 6, 11):\n    c = x.chunk(n)\n"
              "    print(len(c), [t.shape[0] for t in c], c[-1].grad_fn, c[-1].grad_fn._saved_split_size)\n"
              "c = torch.chunk(x.view(2, 5), 2, dim=1)\nshow(c[1])\nc[1].sum().backward()\nprint(x.grad)\n"
              "e = torch.ones(0, requires_grad=True).chunk(2)\nprint(e, e[0].grad_fn)"),
    "unbind": ("x = torch.arange(6.).view(2, 3).requires_grad_()\nu = x.unbind(1)\nshow(u[2])\n"
               "print(len(u), u[0]._base is x, u[2].output_nr)\n(u[0] * 3 + u[2]).sum().backward()\nprint(x.grad)\n"
               "v = torch.unbind(x)\nprint(v)\nv[1].sum().backward()\nprint(x.grad)"),
    "multi_view_errors": ("x = torch.ones(4, requires_grad=True)\ny = x * 2\n"
                          "for f in [lambda: y.split(2)[1].add_(1), lambda: y.chunk(2)[0].mul_(2),\n"
                          "          lambda: y.split([1, 3])[1].zero_(), lambda: x.unbind()[3].sub_(1),\n"
                          "          lambda: y.unbind()[2].unsqueeze_(0)]:\n"
                          "    try:\n        f()\n    except RuntimeError as e:\n        print(e)\n"
                          "with torch.no_grad():\n    a = y.split(2)\n    a[0].add_(1)\nprint(y)\n"
                          "tries(lambda: a[1].add_(1))\nb = torch.ones(4).split(2)\nb[1].add_(1)\nprint(b)"),
    "views_of_split_views": ("x = torch.ones(4, requires_grad=True)\ny = x * 1\n"
                             "tries(lambda: y.split(2)[0][None, :].mul_(2), lambda: y.split(2)[1].view(2, 1).add_(1),\n"
                             "      lambda: y.unbind()[1].unsqueeze(0).add_(1), lambda: x.split(2)[1][1:].add_(1))\n"
                             "z = y.split(2)[1].t()\ntries(lambda: z.__setitem__(0, 1.))\n"
                             "with torch.no_grad():\n    w = y.split(2)[1][1:]\ntries(lambda: w.add_(1))\n"
                             "d = y.split(2)[1].detach()\nd.add_(1)\nprint(y, x)"),
    "zero_dim_pieces": ("x = torch.tensor(2., requires_grad=True)\n"
                        "print(x.roll(1), torch.roll(x, 2), x.movedim(0, 0), x.movedim(-1, 0)._base is x)\n"
                        "tries(lambda: x.roll(1, 0))\n"
                        "y = x.cumsum(0).index_select(0, torch.tensor([0]))\ny.sum().backward()\n"
                        "tries(lambda: y.sum().backward())\nprint(x.grad)"),
    "sign_of_zero_in_products": ("for m, n in [(1, 1), (1, 2), (2, 1), (2, 2), (3, 3)]:\n"
                                 "    a, b = -torch.ones(m, 1), torch.zeros(1, n)\n"
                                 "    print(m, n, 1 / (a @ b), 1 / torch.bmm(a[None], b[None]), 1 / (a[None] @ b),\n"
                                 "          1 / torch.addmm(torch.zeros(m, n), a, b))\n"
                                 "print(1 / torch.nn.functional.linear(-torch.ones(2, 1), torch.zeros(2, 1)),\n"
                                 "      1 / torch.mv(-torch.ones(2, 1), torch.zeros(1)), "
                                 "1 / torch.dot(-torch.ones(3), torch.zeros(3)))\n"
                                 "x = torch.tensor([[-2.5], [1.75]], requires_grad=True)\n"
                                 "y = torch.tensor([[1.75, 0.]], requires_grad=True)\n"
                                 "z = torch.div(x, torch.mm(x, y))\nprint(z)\nz.sum().backward()\n"
                                 "print(x.grad, y.grad)"),
    "smooth_l1_and_huber": ("nn, F = torch.nn, torch.nn.functional\n"
                            "x = torch.tensor([0.1, -2.0, 0.5, 3.0, 1.0, -1.0], requires_grad=True)\n"
                            "y = torch.tensor([0.0, 0.0, 1.0, 1.0, 0.0, 0.0])\n"
                            "for l in (F.smooth_l1_loss(x, y), F.smooth_l1_loss(x, y, beta=0.5, reduction='sum'),\n"
                            "          F.huber_loss(x, y), F.huber_loss(x, y, delta=0.5, reduction='none'),\n"
                            "          F.smooth_l1_loss(x, y, beta=0.0), nn.SmoothL1Loss(beta=2.0)(x, y),\n"
                            "          nn.HuberLoss(delta=0.3)(x, y)):\n"
                            "    show(l)\n    g, = torch.autograd.grad(l.sum(), x, create_graph=True)\n"
                            "    print(g.detach(), l.sum().item(),\n"
                            "          torch.autograd.grad(g.sum(), x, allow_unused=True))\n"
                            "print(nn.SmoothL1Loss(beta=2.0), nn.HuberLoss(delta=0.3))\n"
                            "tries(lambda: F.smooth_l1_loss(x, y, beta=-1.0), lambda: F.huber_loss(x, y, delta=0.0),\n"
                            "      lambda: F.smooth_l1_loss(x.double(), y).dtype)"),
    "sums_means_vars_to_the_last_bit": ("x = torch.tensor([[0.1, -0.7, 1.3, 2.2, -1.1, 0.37],\n"
                                        "                  [0.4, 0.5, -0.3, 0.9, 1.7, -2.9],\n"
                                        "                  [1.1, -2.3, 0.05, 0.8, -0.6, 3.3]], requires_grad=True)\n"
                                        "for y in (x.sum(), x.mean(), x.sum(0), x.mean(1), x.var(), x.std(),\n"
                                        "          x.var(1), x.std(0, keepdim=True), (x * x).sum(), x.t().sum()):\n"
                                        "    print(y.detach().numpy().tolist())\n"
                                        "print(torch.nn.functional.mse_loss(x, x.detach() * 0.5).item())"),
    "small_products_and_a_training_loop": (
        "x = torch.tensor([[1.0], [2.0], [3.0], [4.0]])\ny = torch.tensor([[2.0], [4.0], [6.0], [8.0]])\n"
        "model = torch.nn.Linear(1, 1)\nwith torch.no_grad():\n    model.weight.fill_(0.5)\n"
        "    model.bias.fill_(0.1)\n"
        "opt = torch.optim.SGD(model.parameters(), lr=0.01)\nloss_fn = torch.nn.MSELoss()\n"
        "for epoch in range(5):\n    opt.zero_grad()\n    loss = loss_fn(model(x), y)\n    loss.backward()\n"
        "    opt.step()\n    print(epoch, loss.item(), model.weight.item(), model.bias.item())\n"
        "X = torch.tensor([[1., 2., 3.], [4., 5., 6.], [7., 8., 9.], [0.5, 0.1, -0.3]])\n"
        "w = torch.tensor([0.3, -0.2, 0.1], requires_grad=True)\n"
        "l = ((X @ w - torch.tensor([1., 2., 3., 0.])) ** 2).mean()\n"
        "l.backward()\nprint(l.item(), w.grad.tolist(), (X[:1] @ X[1:2].t()).item(), torch.dot(w, w).item())"),
    "split_errors": ("x = torch.ones(2, 3)\n"
                     "tries(lambda: x.split(-1), lambda: x.split(0), lambda: x.split([1, 1]),\n"
                     "      lambda: x.split([3, -1], 1),\n"
                     "      lambda: x.split(2, 2), lambda: x.split(1.5), lambda: torch.tensor(1.).split(1),\n"
                     "      lambda: torch.tensor(1.).chunk(1), lambda: x.chunk(0), lambda: x.unbind(2),\n"
                     "      lambda: torch.tensor(1.).unbind(), lambda: torch.ones(0).split(0), "
                     "lambda: torch.ones(0, 2).unbind())"),
    "split_unused_outputs_and_hooks": ("x = torch.arange(6., requires_grad=True)\na, b, c = x.split(2)\n"
                                       "b.retain_grad()\nc.register_hook(lambda g: print('hook c', g))\n"
                                       "(b * c).sum().backward()\nprint(x.grad, b.grad)\nx.grad = None\n"
                                       "u = x.view(3, 2).unbind()\nu[1].sum().backward()\nprint(x.grad)"),
    "split_double_backward": ("x = torch.tensor([1., 2., 3., 4.], requires_grad=True)\na, b = x.split(2)\n"
                              "g, = torch.autograd.grad((b ** 3).sum(), x, create_graph=True)\nprint(g, g.grad_fn)\n"
                              "g.sum().backward()\nprint(x.grad)\ny = torch.tensor([1., 2.], requires_grad=True)\n"
                              "p, q = y.unbind()\nh, = torch.autograd.grad(q ** 3, y, create_graph=True)\n"
                              "print(h, h.grad_fn)\nh.sum().backward()\nprint(y.grad)"),
    # ---- cumsum, prod, amax / amin, trace
    "cumsum": ("x = torch.tensor([[1., 0., 3.], [2., 2., -1.]], requires_grad=True)\ny = x.cumsum(1)\nshow(y)\n"
               "z = torch.cumsum(x, -2, dtype=torch.float64)\nshow(z)\n"
               "(y * torch.tensor([1., 2., 3.])).sum().backward()\n"
               "print(x.grad)\nz.sum().backward()\nprint(x.grad, x.grad.dtype)\n"
               "print(torch.tensor([1, 2], dtype=torch.int32).cumsum(0), torch.tensor([True, True]).cumsum(0))\n"
               "w = torch.tensor(2., requires_grad=True)\nv = w.cumsum(0)\nv.backward()\nprint(v, w.grad)\n"
               "u = torch.tensor([1., 2.])\nu.cumsum_(0)\nprint(u, u._version)\ntries(lambda: x.cumsum(2))"),
    "cumsum_float32_values": ("x = torch.linspace(-3, 7, 1000) ** 3 / 7\nprint(x.cumsum(0)[-5:].tolist())"),
    "prod": ("x = torch.tensor([[1., 2., 3.], [2., 0.5, -1.]], requires_grad=True)\ny = x.prod()\nshow(y)\n"
             "y.backward()\nprint(x.grad)\nx.grad = None\nz = x.prod(1)\nshow(z)\nz.sum().backward()\nprint(x.grad)\n"
             "w = torch.prod(x, -1, keepdim=True)\nshow(w)\n"
             "print(torch.tensor([1, 2, 3]).prod(), torch.tensor([True, False]).prod(),\n"
             "      x.prod(dtype=torch.float64), torch.tensor([[2, 3]], dtype=torch.int32).prod(1))"),
    "prod_zeros": ("for v in ([2., 0., 3., 4.], [0., 5., 0., 2.], [[0., 2.], [3., 4.]], [[0., 0.], [3., 4.]]):\n"
                   "    x = torch.tensor(v, requires_grad=True)\n    x.prod().backward()\n    print(x.grad)\n"
                   "    x.grad = None\n    x.prod(0).sum().backward()\n    print(x.grad)\n"
                   "s = torch.tensor(3., requires_grad=True)\ns.prod().backward()\nprint(s.grad)"),
    "amax_amin": ("x = torch.tensor([[1., 3., 3.], [2., 2., -1.]], requires_grad=True)\n"
                  "for y in (x.amax(), x.amax(1), torch.amax(x, (0, 1), keepdim=True), x.amin(-1), torch.amin(x, 0),\n"
                  "          x.amax(()), x.amin(dim=[1, 0])):\n"
                  "    show(y)\n    y.sum().backward()\n    print(x.grad)\n    x.grad = None\n"
                  "print(torch.tensor([1, 5]).amax(), torch.tensor([True, False]).amin(), torch.ones(0, 2).amax(1))\n"
                  "tries(lambda: torch.ones(0).amax(), lambda: torch.ones(0, 2).amax(0), lambda: x.amax((0, 0)),\n"
                  "      lambda: x.amin(2))"),
    "amax_ties_vs_max": ("x = torch.tensor([[5., 5., 1.], [5., 2., 5.]], requires_grad=True)\n"
                         "x.amax().backward()\nprint(x.grad)\nx.grad = None\nx.max().backward()\nprint(x.grad)\n"
                         "x.grad = None\nx.amax(1).sum().backward()\nprint(x.grad)\nx.grad = None\n"
                         "x.max(1).values.sum().backward()\nprint(x.grad)"),
    "trace": ("x = torch.arange(12.).view(3, 4).requires_grad_()\ny = x.trace()\nshow(y)\ny.backward()\nprint(x.grad)\n"
              "print(torch.trace(torch.ones(2, 2, dtype=torch.int32)), torch.ones(4, 2).trace())\n"
              "tries(lambda: x[0].trace())"),
    # ---- masked_fill, gather, index_select
    "masked_fill": ("x = torch.tensor([[1., 0., 3.], [2., 2., -1.]], requires_grad=True)\nm = x > 1\n"
                    "y = x.masked_fill(m, 0.)\nshow(y)\ny.sum().backward()\nprint(x.grad)\n"
                    "v = torch.tensor(5., requires_grad=True)\n"
                    "z = torch.masked_fill(x, torch.tensor([True, False, True]), v)\n"
                    "show(z)\n(z * 2).sum().backward()\nprint(x.grad, v.grad)\n"
                    "print(torch.ones(3).masked_fill(torch.ones(2, 3, dtype=torch.bool), 2))\n"
                    "print(torch.ones(3, dtype=torch.int64).masked_fill(torch.tensor([True, False, True]), 2.5))"),
    "masked_fill_inplace": ("x = torch.tensor([1., 2., 3.], requires_grad=True)\ny = x * 1\n"
                            "y.masked_fill_(y > 1.5, -1.)\nshow(y)\nprint(y._version)\ny.sum().backward()\n"
                            "print(x.grad)\n"
                            "v = torch.tensor(4., requires_grad=True)\nw = x * 2\n"
                            "w.masked_fill_(torch.tensor([False, True, False]), v)\n"
                            "print(w, w.grad_fn, w.grad_fn.next_functions)\n(w * w).sum().backward()\n"
                            "print(x.grad, v.grad)\n"
                            "tries(lambda: x.masked_fill_(x > 1, 0.))\nt = torch.zeros(2, 3)\n"
                            "t.masked_fill_(torch.tensor([True, False, True]), 7)\nprint(t)"),
    "masked_fill_errors": ("x = torch.ones(2, 3)\n"
                           "tries(lambda: x.masked_fill(torch.ones(3), 0), lambda: x.masked_fill(torch.ones(3, "
                           "dtype=torch.uint8), 0),\n"
                           "      lambda: x.masked_fill(torch.ones(3, dtype=torch.int64), 0),\n"
                           "      lambda: x.masked_fill(torch.ones(3, dtype=torch.bool), torch.ones(2)),\n"
                           "      lambda: x.masked_fill(torch.ones(4, dtype=torch.bool), 1.),\n"
                           "      lambda: torch.ones(3).masked_fill_(torch.ones(2, 3, dtype=torch.bool), 0))"),
    "gather": ("x = torch.tensor([[1., 0., 3.], [2., 2., -1.]], requires_grad=True)\n"
               "i = torch.tensor([[0, 0], [1, 2]])\ny = x.gather(1, i)\nshow(y)\ny.sum().backward()\nprint(x.grad)\n"
               "x.grad = None\nz = torch.gather(x, 0, torch.tensor([[1, 0, 1]]))\nshow(z)\n"
               "(z * torch.tensor([[1., 2., 3.]])).sum().backward()\nprint(x.grad)\n"
               "print(x.gather(-1, torch.tensor([[2], [0]], dtype=torch.int32)))\n"
               "tries(lambda: x.gather(1, torch.tensor([[0, 5]])), lambda: x.gather(1, torch.tensor([[0, -1]])),\n"
               "      lambda: x.gather(1, torch.tensor([0, 1])), lambda: x.gather(1, torch.tensor([[0.]])),\n"
               "      lambda: x.gather(1, torch.tensor([[0, 1]] * 3)), lambda: x.gather(3, torch.tensor([[0]])))"),
    "index_select": ("x = torch.tensor([[1., 0., 3.], [2., 2., -1.]], requires_grad=True)\n"
                     "y = x.index_select(1, torch.tensor([2, 0, 2]))\nshow(y)\ny.sum().backward()\nprint(x.grad)\n"
                     "z = torch.index_select(x, 0, torch.tensor(1))\nshow(z)\n"
                     "print(x.index_select(-1, torch.tensor([1], dtype=torch.int32)))\n"
                     "tries(lambda: x.index_select(1, torch.tensor([3])), lambda: x.index_select(1, "
                     "torch.tensor([-1])),\n"
                     "      lambda: x.index_select(1, torch.tensor([[1]])), lambda: x.index_select(1, "
                     "torch.tensor([1.])),\n"
                     "      lambda: x.index_select(2, torch.tensor([0])))"),
    # ---- repeat, flip, roll, tril / triu, diag, outer, movedim, broadcast_to
    "repeat": ("x = torch.tensor([[1., 2., 3.], [4., 5., 6.]], requires_grad=True)\ny = x.repeat(2, 1, 2)\nshow(y)\n"
               "(y * torch.arange(12.).view(2, 1, 6)).sum().backward()\nprint(x.grad)\nx.grad = None\n"
               "z = x.repeat((1, 3))\nz.sum().backward()\nprint(z.shape, x.grad)\n"
               "w = torch.tensor([1., 2.], requires_grad=True)\n"
               "v = w.view(2, 1).repeat(1, 3)\n(v * torch.arange(6.).view(2, 3)).sum().backward()\nprint(w.grad)\n"
               "e = x.repeat(0, 1)\nprint(e, e.grad_fn)\ntries(lambda: x.repeat(2), lambda: x.repeat(2, -1))"),
    "flip_roll": ("x = torch.arange(6.).view(2, 3).requires_grad_()\ny = x.flip(0, 1)\nshow(y)\n"
    "z = torch.flip(x, [-1])\n"
                  "show(z)\n(y * torch.tensor([1., 2., 3.])).sum().backward()\n"
                  "print(x.grad, y.is_contiguous(), y._base)\n"
                  "x.grad = None\nr = x.roll(1, 1)\nshow(r)\n(r * torch.tensor([1., 2., 3.])).sum().backward()\n"
                  "print(x.grad)\n"
                  "x.grad = None\ns = torch.roll(x, 2)\nshow(s)\n(s * torch.arange(6.).view(2, 3)).sum().backward()\n"
                  "print(x.grad)\nshow(x.roll((1, -1), (0, 1)))\n"
                  "tries(lambda: x.flip(0, 0), lambda: x.flip(2), lambda: x.roll((1, 2), 1), lambda: x.roll((1, 2)),\n"
                  "      lambda: x.roll(1, 2))"),
    "tril_triu": ("x = torch.arange(1., 13.).view(3, 4).requires_grad_()\n"
    "for y in (x.tril(), x.triu(1), torch.tril(x, -1),\n"
                  "          torch.triu(x, diagonal=-1)):\n    show(y)\n    (y * y).sum().backward()\n"
                  "    print(x.grad)\n    x.grad = None\nt = torch.ones(2, 2)\nt.tril_()\nprint(t, t._version)\n"
                  "b = torch.ones(2, 2, 2).triu()\nprint(b)\ntries(lambda: x[0].tril(), lambda: x[0].triu())"),
    "diag": ("x = torch.arange(1., 13.).view(3, 4).requires_grad_()\ny = x.diag()\nshow(y)\ny.sum().backward()\n"
             "print(x.grad, y._base)\nx.grad = None\n(x.diag(1) * torch.tensor([1., 2., 3.])).sum().backward()\n"
             "print(x.grad)\n"
             "x.grad = None\n(x.diag(-2) * 5).sum().backward()\nprint(x.grad)\n"
             "v = torch.tensor([1., 2.], requires_grad=True)\nm = v.diag(1)\nshow(m)\n"
             "(m * torch.arange(9.).view(3, 3)).sum().backward()\nprint(v.grad)\nshow(torch.diag(v, -1))\n"
             "tries(lambda: torch.ones(2, 2, 2).diag(), lambda: torch.tensor(1.).diag())"),
    "outer": ("a = torch.tensor([1., 2., 3.], requires_grad=True)\nb = torch.tensor([4., 5.], requires_grad=True)\n"
              "y = torch.outer(a, b)\nshow(y)\nprint(y.grad_fn._saved_self.grad_fn)\n(y * y).sum().backward()\n"
              "print(a.grad, b.grad)\nprint(a.outer(torch.tensor([1, 2])), torch.ger(a, b))\n"
              "tries(lambda: torch.outer(a.view(3, 1), b), lambda: torch.outer(a, b.view(1, 2)))"),
    "movedim": ("x = torch.arange(24.).view(2, 3, 4).requires_grad_()\ny = x.movedim(0, 2)\nshow(y)\n"
                "print(y.shape, y._base is x)\nz = torch.movedim(x, (0, 1), (2, 0))\nshow(z)\nprint(z.shape)\n"
                "w = torch.moveaxis(x, -1, 0)\nprint(w.shape, w.grad_fn._saved_dims)\n"
                "(z * torch.arange(24.).view(3, 4, 2)).sum().backward()\nprint(x.grad)\n"
                "tries(lambda: x.movedim((0, 0), (1, 0)), lambda: x.movedim(3, 0), lambda: x.movedim((0, 1), (2,)),\n"
                "      lambda: x.movedim([0], (1, 2)), lambda: x.movedim((0, 1), (1, 1)))"),
    "broadcast_to": ("x = torch.tensor([[1.], [2.]], requires_grad=True)\ny = x.broadcast_to(3, 2, 4)\nshow(y)\n"
                     "print(y._base is x, y.is_contiguous())\ny.sum().backward()\nprint(x.grad)\n"
                     "z = torch.broadcast_to(x, (2, 1))\nshow(z)\n"
                     "tries(lambda: x.broadcast_to((3, 3)), lambda: x.broadcast_to(4))"),
    # ---- torch.* comparison, logical, remainder functions
    "comparisons": ("x = torch.tensor([[1., 0., 3.], [2., 2., -1.]], requires_grad=True)\n"
                    "print(torch.eq(x, 1), torch.ne(x, torch.tensor([1., 0., 0.])), torch.lt(x, 2), torch.gt(x, 2))\n"
                    "print(torch.le(x, 2), torch.ge(x, 2.), torch.eq(x, 1).grad_fn, torch.eq(x, 1).requires_grad)\n"
                    "print(torch.eq(torch.tensor([1, 2]), torch.tensor([1., 2.5])), x.ge(2))\n"
                    "tries(lambda: torch.eq(x, 'a'), lambda: torch.ge(x, None), lambda: x.lt('a'))"),
    "all_any_isnan": ("x = torch.tensor([[1., 0., float('nan')], [2., float('inf'), -float('inf')]])\n"
                      "print(torch.all(x > -5), torch.any(x > 5), torch.all(x != 0, 1), torch.any(x > 2, dim=0, "
                      "keepdim=True))\n"
                      "print(x.all(), x.any(), torch.all(x, (0, 1)), torch.all(torch.tensor([1, 2], "
                      "dtype=torch.uint8)),\n"
                      "      torch.tensor([[1, 0]], dtype=torch.uint8).any(1))\n"
                      "print(torch.isnan(x), torch.isinf(x), torch.isfinite(x), x.isnan().any(), "
                      "torch.isfinite(torch.tensor([1, 2])))\n"
                      "print(torch.logical_not(x), torch.logical_and(x, torch.tensor([1, 0, 1])), "
                      "torch.logical_or(x > 1, x < 0))\n"
                      "print(torch.logical_xor(x > 1, x < 3), (x > 1).logical_not())\n"
                      "tries(lambda: torch.isnan(1.), lambda: torch.logical_and(x, 1), lambda: x.logical_or(1),\n"
                      "      lambda: torch.all(x, 5))"),
    "remainder_fmod": ("a = torch.tensor([5.5, -5.5, -4., 4.], requires_grad=True)\n"
                       "b = torch.tensor([2., 3., 2., -2.], requires_grad=True)\n"
                       "for y in (torch.remainder(a, b), a % 2, torch.fmod(a, b), a.fmod(-2.), "
                       "a.remainder(b.detach())):\n"
                       "    show(y)\n    y.sum().backward()\n    print(a.grad, b.grad)\n    a.grad = b.grad = None\n"
                       "print(torch.tensor([5, -5]).remainder(3), torch.tensor([5, -5]).fmod(3), torch.remainder(5, "
                       "torch.tensor([2, 3])))\n"
                       "print(torch.remainder(torch.tensor([5, 7]), 2.5), -7 % torch.tensor([2., -3.]), "
                       "torch.tensor([-7]) % 2)\n"
                       "y = a * 1\ny.remainder_(2)\nprint(y, y.grad_fn)\ny.fmod_(2)\nprint(y.grad_fn)\ny %= 3\n"
                       "print(y, y._version)\n"
                       "tries(lambda: torch.tensor([5]) % 0, lambda: torch.tensor([5]).fmod(0), "
                       "lambda: torch.tensor([5.]) % 0,\n"
                       "      lambda: torch.fmod(a, 'a'), lambda: a.remainder('a'), lambda: torch.remainder(a, 'a'))"),
    "floor_divide": ("x = torch.tensor([1.5, -2.5, 7.], requires_grad=True)\n"
    "for y in (x // 2, torch.floor_divide(x, 2),\n"
                     "          x.floor_divide(torch.tensor([2., -2., 0.5])), 7 // x):\n"
                     "    print(y, y.grad_fn)\n"
                     "tries(lambda: (x // 2).sum().backward(), lambda: (5 % x).sum().backward())\n"
                     "print(torch.tensor([5, -5]) // 3, torch.floor_divide(torch.tensor([5, -5]), 3.), "
                     "7 // torch.tensor([2, 4]))\n"
                     "y = x * 1\ny //= 2\nprint(y, y.grad_fn)\n"
                     "tries(lambda: torch.tensor([5]) // 0, lambda: torch.floor_divide(x, 'a'), "
                     "lambda: x.floor_divide('a'))"),
}


@pytest.mark.parametrize("name", SNIPPETS)
def test_snippet(name):
    """Printed text, warnings and the final error are identical (addresses and C++ locations blanked)."""
    code = SHOW + SNIPPETS[name]
    t, e = run_both(T, E, code)
    assert same(t, e), f"\n{code}\n--- torch\n{t.summary()}--- engine\n{e.summary()}"


# Programs compared line by line: every variable's values, dtype, shape, version, whole grad_fn graph and .grad.
PROGRAMS = {
    "split_chunk_unbind": ["x = torch.arange(12.).view(3, 4).requires_grad_()", "y = x * 2",
                           "a, b = y.split([1, 2])", "c = y.chunk(2, 1)", "u = y.unbind(1)",
                           "z = a.sum() + (b * c[1][1:]).sum() + u[3].prod()", "z.backward()"],
    "reductions": ["x = torch.tensor([[1., 2., 0.], [3., -1., 2.]], requires_grad=True)", "c = x.cumsum(0)",
                   "p = x.prod(1, keepdim=True)", "m = x.amax(0)", "n = x.amin((0, 1))", "t = x[:, :2].trace()",
                   "(c.sum() + p.sum() + m.sum() + n + t).backward()"],
    "indexing": ["x = torch.arange(6.).view(2, 3).requires_grad_()", "i = torch.tensor([[2, 0], [1, 1]])",
                 "g = x.gather(1, i)", "s = x.index_select(0, torch.tensor([1, 1, 0]))",
                 "f = x.masked_fill(x > 2, -1.)", "(g.sum() + (s * s).sum() + f.sum()).backward()"],
    "reordering": ["x = torch.arange(6.).view(2, 3).requires_grad_()", "r = x.repeat(2, 2)", "f = x.flip(1)",
                   "o = x.roll(-1, 0)", "l = torch.tril(r)", "d = r.diag()", "m = x.movedim(1, 0)",
                   "b = x[0].broadcast_to(2, 3)", "w = torch.outer(x[1], x[0])",
                   "s = r.sum() + f[0].sum() + o[1].sum() + l.sum() + d.sum() + m[0].sum() + b.sum() + w.sum()",
                   "s.backward()"],
    "float64_and_ints": ["x = torch.tensor([[1., 2.], [3., 4.]], dtype=torch.float64, requires_grad=True)",
                         "a = x.cumsum(1)", "b = x.prod()", "c = x.amax(1)", "d = x % 3", "e = torch.fmod(x, 2.5)",
                         "f = x.diag()", "(a.sum() + b + c.sum() + d.sum() + e.sum() + f.sum()).backward()",
                         "i = torch.tensor([[3, 1], [2, 5]])", "ic = i.cumsum(0)", "ip = i.prod(0)", "it = i.trace()",
                         "ir = i.repeat(1, 2)", "im = i.amax()", "iq = i // 2", "iz = i % -3"],
}


@pytest.mark.parametrize("name", PROGRAMS)
def test_program_in_lockstep(name):
    """After every line, every variable matches PyTorch (values, dtype, version, grad_fn graph, .grad)."""
    lines = PROGRAMS[name]
    divergence = run_lockstep(T, E, lines)
    assert divergence is None, describe(lines, divergence)
