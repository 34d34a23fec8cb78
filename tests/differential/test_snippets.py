"""Hand-written snippets from the corners learners hit: output, warnings and errors must match word for word."""
import pytest

T = pytest.importorskip("torch", reason="differential tests need real PyTorch (pip install torch==2.13.0)")
from .harness import load_engine, run_both, same
from .programs import MISUSE

E = load_engine()

SNIPPETS = {
    # ---- errors, word for word
    "shape_mismatch": "torch.ones(2, 3) + torch.ones(3, 2)",
    "shape_mismatch_inplace": "x = torch.ones(3)\nx.add_(torch.ones(2, 3))",
    "mm_shapes": "torch.ones(2, 3).mm(torch.ones(2, 3))",
    "matmul_shapes": "torch.ones(2, 3) @ torch.ones(4)",
    "mm_not_2d": "torch.ones(3).mm(torch.ones(3, 2))",
    "matmul_0d": "torch.tensor(2.) @ torch.ones(2)",
    "matmul_dtype": "torch.ones(2, 2) @ torch.ones(2, 2, dtype=torch.float64)",
    "view_invalid_size": "torch.arange(6).view(4, 2)",
    "view_two_minus_one": "torch.arange(6).view(-1, -1)",
    "view_non_contiguous": "torch.ones(2, 3).t().view(6)",
    "reshape_invalid": "torch.ones(2, 3).reshape(5)",
    "transpose_out_of_range": "torch.ones(2, 3).transpose(0, 2)",
    "t_of_3d": "torch.ones(2, 2, 2).t()",
    "squeeze_out_of_range": "torch.ones(2).squeeze(1)",
    "permute_wrong_len": "torch.ones(2, 3).permute(0)",
    "expand_invalid": "torch.ones(2, 3).expand(3, 3)",
    "cat_shapes": "torch.cat([torch.ones(2, 3), torch.ones(3, 2)])",
    "stack_shapes": "torch.stack([torch.ones(2), torch.ones(3)])",
    "cat_empty_list": "torch.cat([])",
    "index_out_of_range": "torch.ones(3)[3]",
    "index_too_many": "torch.ones(3)[0, 0]",
    "index_0d": "torch.tensor(1.)[0]",
    "sum_dim_out_of_range": "torch.ones(2).sum(1)",
    "inplace_on_leaf": "a = torch.ones(2, requires_grad=True)\na.add_(1)",
    "iadd_on_leaf": "a = torch.ones(2, requires_grad=True)\na += 1",
    "setitem_on_leaf": "a = torch.ones(2, requires_grad=True)\na[0] = 5",
    "view_of_leaf_inplace": "a = torch.ones(2, 2, requires_grad=True)\nv = a[0]\nv.mul_(2)",
    "view_of_leaf_view": "a = torch.ones(4, requires_grad=True)\na.view(2, 2).zero_()",
    "stale_sigmoid": "x = torch.tensor(0., requires_grad=True)\ny = x.sigmoid()\ny.detach().zero_()\ny.backward()",
    "stale_exp_inplace": "x = torch.ones(2, requires_grad=True)\ny = x.exp()\ny.add_(1)\ny.sum().backward()",
    "stale_mul_input": "a = torch.ones(2, requires_grad=True)\nb = a * 1\nc = b * b\nb.add_(1)\nc.sum().backward()",
    "stale_float64_matrix": ("a = torch.ones(2, 3, dtype=torch.float64, requires_grad=True)\nb = a.tanh()\n"
                             "b.mul_(2)\nb.sum().backward()"),
    "stale_saved_access": "x = torch.ones(2, requires_grad=True)\ny = x.exp()\ny.zero_()\nprint(y.grad_fn._saved_result)",
    "pow_saves_input_not_result": "x = torch.tensor(3., requires_grad=True)\ny = x ** 2\ny.zero_()\ny.backward()\nprint(x.grad)",
    "backward_twice": "x = torch.ones(2, requires_grad=True)\ny = (x * x).sum()\ny.backward()\ny.backward()",
    "backward_twice_retain": ("x = torch.ones(2, requires_grad=True)\ny = (x * x).sum()\ny.backward(retain_graph=True)\n"
                              "y.backward()\nprint(x.grad)\ny.backward()"),
    "backward_twice_no_saved": "x = torch.ones(2, requires_grad=True)\ny = (x + 1).sum()\ny.backward()\ny.backward()\nprint(x.grad)",
    "saved_after_free": "x = torch.ones(2, requires_grad=True)\ny = x * x\ny.sum().backward()\nprint(y.grad_fn._saved_self)",
    "non_scalar_implicit": "x = torch.ones(2, requires_grad=True)\n(x * 2).backward()",
    "gradient_wrong_shape": "x = torch.ones(2, requires_grad=True)\n(x * 2).backward(torch.ones(3))",
    "no_grad_fn": "x = torch.ones(2)\nx.sum().backward()",
    "no_grad_fn_under_no_grad": "x = torch.ones(2, requires_grad=True)\nwith torch.no_grad():\n    y = x * 2\ny.sum().backward()",
    "int_requires_grad": "x = torch.tensor([1, 2, 3], requires_grad=True)",
    "int_requires_grad_attr": "x = torch.tensor([1, 2, 3])\nx.requires_grad = True",
    "int_requires_grad_": "x = torch.arange(3)\nx.requires_grad_()",
    "nonleaf_requires_grad_false": "x = torch.ones(2, requires_grad=True)\ny = x * 2\ny.requires_grad = False",
    "grad_unused": "x = torch.ones(2, requires_grad=True)\nz = torch.ones(2, requires_grad=True)\ntorch.autograd.grad((x * 2).sum(), [x, z])",
    "grad_allow_unused": ("x = torch.ones(2, requires_grad=True)\nz = torch.ones(2, requires_grad=True)\n"
                          "print(torch.autograd.grad((x * 2).sum(), [x, z], allow_unused=True))"),
    "grad_of_non_requiring": "x = torch.ones(2)\ntorch.autograd.grad(x.sum(), [x])",
    "grad_non_scalar": "x = torch.ones(2, requires_grad=True)\ntorch.autograd.grad(x * 2, x)",
    "retain_grad_no_requires": "x = torch.ones(2)\nx.retain_grad()",
    "detach_inplace_view": "x = torch.ones(2, requires_grad=True)\ny = x * 1\nv = y[0]\nv.detach_()",
    "item_of_many": "torch.ones(2).item()",
    "numpy_requires_grad": "torch.ones(2, requires_grad=True).numpy()",
    "bool_sub": "torch.tensor([True]) - torch.tensor([False])",
    "neg_bool": "-torch.tensor([True])",
    "int_negative_power": "torch.tensor([2]) ** -1",
    "mean_of_int": "torch.arange(3).mean()",
    "inplace_cast": "x = torch.arange(3)\nx += 0.5",
    "not_subscriptable": "torch.tensor[[1., 2.]]",
    "detach_typo": "x = torch.ones(2)\nx.detatch()",
    # ---- semantics
    "retain_grad": ("x = torch.ones(2, requires_grad=True)\ny = x * 3\ny.retain_grad()\nz = (y * y).sum()\n"
                    "z.backward()\nprint(y.grad, x.grad, y.retains_grad, x.retains_grad, z.grad)"),
    "nonleaf_grad_warning": "x = torch.ones(2, requires_grad=True)\ny = x * 2\nprint(y.grad)",
    "hooks": ("x = torch.tensor([1., 2.], requires_grad=True)\ny = x * 2\n"
              "h = y.register_hook(lambda g: print('hook y', g))\nx.register_hook(lambda g: g * 10)\n"
              "y.sum().backward()\nprint(x.grad)\nh.remove()\nz = x * 2\nz.sum().backward()\nprint(x.grad)"),
    "hook_replaces_grad": ("x = torch.ones(2, requires_grad=True)\ny = x * 3\ny.register_hook(lambda g: g + 1)\n"
                           "y.sum().backward()\nprint(x.grad)"),
    "hook_on_non_requiring": "x = torch.ones(2)\nx.register_hook(lambda g: g)",
    "double_backward": ("x = torch.tensor(3., requires_grad=True)\ny = x ** 3\n"
                        "g, = torch.autograd.grad(y, x, create_graph=True)\nprint(g)\ng.backward()\nprint(x.grad)"),
    "create_graph_backward": ("x = torch.tensor([1., 2.], requires_grad=True)\ny = (x * x * x).sum()\n"
                              "y.backward(create_graph=True)\nprint(x.grad)\ng = x.grad.sum()\nx.grad = None\n"
                              "g.backward()\nprint(x.grad)"),
    "double_backward_sigmoid": ("x = torch.tensor(0.5, requires_grad=True)\ny = torch.sigmoid(x)\n"
                                "g, = torch.autograd.grad(y, x, create_graph=True)\nh, = torch.autograd.grad(g, x)\n"
                                "print(g, h)"),
    "no_grad_context": ("x = torch.ones(2, requires_grad=True)\nwith torch.no_grad():\n    y = x * 2\n"
                        "    print(torch.is_grad_enabled())\nprint(y, y.requires_grad, y.grad_fn, torch.is_grad_enabled())"),
    "no_grad_decorator": ("@torch.no_grad()\ndef f(t):\n    return t * 2\nx = torch.ones(2, requires_grad=True)\n"
                          "print(f(x))"),
    "enable_grad_inside_no_grad": ("x = torch.ones(2, requires_grad=True)\nwith torch.no_grad():\n"
                                   "    with torch.enable_grad():\n        y = x * 2\n    z = x * 2\nprint(y, z)"),
    "set_grad_enabled": ("x = torch.ones(2, requires_grad=True)\nwith torch.set_grad_enabled(False):\n"
                         "    y = x + 1\ntorch.set_grad_enabled(False)\nz = x + 1\ntorch.set_grad_enabled(True)\n"
                         "w = x + 1\nprint(y.requires_grad, z.requires_grad, w.requires_grad)"),
    "no_grad_inplace_on_leaf": ("w = torch.ones(2, requires_grad=True)\nwith torch.no_grad():\n    w -= 0.5\n"
                                "print(w, w.is_leaf, w._version)"),
    "grad_accumulates": ("x = torch.ones(2, requires_grad=True)\nfor _ in range(3):\n    (x * x).sum().backward()\n"
                         "print(x.grad)\nx.grad.zero_()\nprint(x.grad)\nx.grad = None\nprint(x.grad)"),
    "data_vs_detach": ("a = torch.ones(2, requires_grad=True)\nb = a * 2\nd = b.data\nd.mul_(10)\n"
                       "print(b, b._version, d._version, d.requires_grad)\ne = b.detach()\ne.add_(1)\n"
                       "print(b, b._version, e._version)"),
    "data_assign": "m = torch.ones(1, requires_grad=True)\nm.data = m.data * 100\nprint(m, m.data.grad_fn)\n(m * 2).backward()\nprint(m.grad)",
    "versions_shared_by_views": ("a = torch.zeros(2, 2)\nv = a[0]\nw = a.view(4)\nv.add_(1)\na[1] = 3\n"
                                 "print(a._version, v._version, w._version, w)"),
    "version_counts": ("x = torch.ones(3)\nx.add_(1)\nx.mul_(2)\nx[0] = 0\nx.zero_()\nx.fill_(2)\nx.copy_(torch.ones(3))\n"
                       "x += 1\nprint(x._version, x)"),
    "inplace_after_rebind": "a = torch.ones(2, requires_grad=True)\na = a + 2\na += 2\nprint(a, a.grad_fn, a.is_leaf)",
    "copyslices": ("x = torch.ones(3, requires_grad=True)\ny = x * 2\ny[0] = 0\nprint(y, y.grad_fn, y.grad_fn.next_functions)\n"
                   "y.sum().backward()\nprint(x.grad)"),
    "inplace_nonleaf_chain": ("x = torch.ones(2, requires_grad=True)\ny = x + 1\ny.mul_(3)\ny.add_(x)\nprint(y)\n"
                              "y.sum().backward()\nprint(x.grad)"),
    "view_inplace_rebase": ("x = torch.ones(2, 2, requires_grad=True)\ny = x * 1\nv = y[0]\nv.mul_(5)\nprint(y, v)\n"
                            "y.sum().backward()\nprint(x.grad)"),
    "next_functions": ("a = torch.ones(2, requires_grad=True)\nb = torch.ones(2)\nc = a * b + a\n"
                       "print(c.grad_fn.next_functions)\nprint(c.grad_fn.next_functions[0][0].next_functions)\n"
                       "print(c.grad_fn.next_functions[1][0].variable is a)"),
    "saved_tensors": ("x = torch.tensor([1., 2.], requires_grad=True)\ny = x ** 2\nz = y.sigmoid()\nw = x * y\n"
                      "print(y.grad_fn._saved_self, y.grad_fn._saved_exponent)\nprint(z.grad_fn._saved_result)\n"
                      "print(w.grad_fn._saved_self, w.grad_fn._saved_other)"),
    "weighted_backward": ("x = torch.tensor([1., 2., 3.], requires_grad=True)\ny = x * x\n"
                          "y.backward(torch.tensor([0.1, 1.0, 10.0]))\nprint(x.grad)"),
    "detach_": "x = torch.ones(2, requires_grad=True)\ny = x * 2\ny.detach_()\nprint(y, y.is_leaf, y.requires_grad, y.grad_fn)",
    "requires_grad_toggle": ("x = torch.ones(2)\nprint(x.requires_grad_(), x.is_leaf)\ny = x * 2\n"
                             "print(y.requires_grad_(False), y.is_leaf)"),
    "clamp_grad_at_bounds": ("x = torch.tensor([-1., 0., 0.5, 1., 2.], requires_grad=True)\n"
                             "x.clamp(0, 1).sum().backward()\nprint(x.grad)"),
    "relu_abs_grad_at_zero": ("x = torch.tensor([-1., 0., 2.], requires_grad=True)\n(x.relu() + x.abs()).sum().backward()\n"
                              "print(x.grad)"),
    "broadcast_grads": ("a = torch.ones(2, 1, 3, requires_grad=True)\nb = torch.ones(4, 1, requires_grad=True)\n"
                        "(a * b).sum().backward()\nprint(a.grad.shape, b.grad)"),
    "mean_dim_backward": ("x = torch.arange(6.).view(2, 3).requires_grad_()\ny = x.mean(1, keepdim=True)\n"
                          "y.sum().backward()\nprint(y, x.grad)"),
    "matmul_vector_grads": ("a = torch.ones(3, requires_grad=True)\nb = torch.arange(6.).view(3, 2).requires_grad_()\n"
                            "c = a @ b\nprint(c)\nc.sum().backward()\nprint(a.grad, b.grad, c.grad_fn)"),
    "cat_stack_grads": ("a = torch.ones(2, requires_grad=True)\nb = torch.zeros(2, requires_grad=True)\n"
                        "c = torch.cat([a, b])\ns = torch.stack([a, b], 1)\nprint(c, s)\n"
                        "(c.sum() + (s * 2).sum()).backward()\nprint(a.grad, b.grad)"),
    "index_grads": ("x = torch.arange(6.).view(2, 3).requires_grad_()\ny = x[:, 1] * 2 + x[1, ::2].sum() + x[[0, 0]].sum()\n"
                    "print(y)\ny.sum().backward()\nprint(x.grad)"),
    "expand_grad": "x = torch.ones(3, 1, requires_grad=True)\ny = x.expand(3, 4)\nprint(y)\ny.sum().backward()\nprint(x.grad)",
    "print_precision": ("print(torch.tensor([1/3, 2/3]))\nprint(torch.tensor([1e-8, 1.]))\nprint(torch.tensor([1e10, 1.]))\n"
                        "print(torch.tensor([1/3], dtype=torch.float64))\nprint(torch.tensor([100., 2.5]))\n"
                        "print(torch.arange(12.).view(3, 4) / 7)\nprint(torch.arange(2000))\nprint(torch.ones(3, 1000))\n"
                        "print(torch.tensor([[True, False]]))\nprint(torch.tensor([1, -20], dtype=torch.int32))\n"
                        "print(torch.tensor([float('nan'), 1.5, float('inf')]))\nprint(torch.ones(0, 3))\n"
                        "print(torch.zeros(2, dtype=torch.float64, requires_grad=True))"),
    "backward_inputs": ("a = torch.ones(2, requires_grad=True)\nb = torch.ones(2, requires_grad=True)\n"
                        "(a * b).sum().backward(inputs=[a])\nprint(a.grad, b.grad)"),
    "grad_outputs": ("x = torch.tensor([1., 2.], requires_grad=True)\ny = x * x\n"
                     "print(torch.autograd.grad(y, x, grad_outputs=torch.tensor([1., 0.5]), retain_graph=True))\n"
                     "print(torch.autograd.grad([y.sum()], [x]))\nprint(x.grad)"),
    "grad_twice_freed": ("x = torch.ones(2, requires_grad=True)\ny = (x.exp()).sum()\ntorch.autograd.grad(y, x)\n"
                         "torch.autograd.grad(y, x)"),
    "failed_inplace_keeps_version": ("a = torch.ones(2, requires_grad=True)\ntry:\n    a.mul_(2)\n"
                                     "except RuntimeError as e:\n    print(e)\nprint(a, a._version, a.grad_fn)"),
    "accumulate_grad_node": ("a = torch.ones(2, requires_grad=True)\nacc = (a * 2).grad_fn.next_functions[0][0]\n"
                             "print(acc.name(), acc.variable is a, acc.next_functions)"),
    "grad_fn_repr": "x = torch.ones(2, requires_grad=True)\nprint((x * 2).grad_fn)\nprint(x.sum().grad_fn.name())",
    # ---- indexing: views first (select, slice, unsqueeze), then one IndexBackward0 for the tensor indices
    "index_mixed": ("x = torch.arange(24.).reshape(2, 3, 4).requires_grad_()\n"
                    "for y in [x[0, :, [0, 1]], x[[1], :, [0, 3]], x[1:, [0, 2]], x[..., [3]], x[None, [1]], x[False],\n"
                    "          x[torch.tensor(1)], x[x > 20], x[[[0, 1], [1, 0]]]]:\n"
                    "    g = y.grad_fn\n"
                    "    print(y.shape, g, g.next_functions, getattr(g, '_saved_indices', None))\n"
                    "    y.sum().backward()\n"
                    "print(x.grad)"),
    "index_errors": ("x = torch.ones(2, 3, 4)\nfor i in ['[:, :, [7]]', '[[0], [9]]', '[[0, 1], [0, 1, 2]]',\n"
                     "          '[torch.tensor([True, False, True])]', '[0, 0, 0, [0]]', '[..., 9]', '[0, ..., 9]', '[None, ..., 7]']:\n"
                     "    try:\n        eval('x' + i)\n    except IndexError as e:\n        print(e)"),
    "index_saved_then_freed": ("x = torch.ones(3, requires_grad=True)\ni = torch.tensor([0, 0])\ny = x[i]\n"
                               "y.sum().backward()\nprint(x.grad)\ny.sum().backward()"),
    "index_tensor_modified": "x = torch.ones(3, requires_grad=True)\ni = torch.tensor([0, 2])\ny = x[i]\ni.add_(0)\ny.sum().backward()",
    "setitem_value_shapes": ("x = torch.zeros(2, 3)\nx[0] = torch.tensor([[1., 2, 3]])\nx[1, 1] = torch.tensor([[5.]])\n"
                             "print(x)\nx[:, 0] = torch.tensor([[1.], [2]])"),
    "index_put_dtypes": ("x = torch.zeros(3)\nx[torch.tensor([True, False, True])] = torch.tensor([2])\nprint(x)\n"
                         "x[[0]] = torch.tensor([1])"),
    "views_after_no_grad_inplace": ("x = torch.ones(2, requires_grad=True)\nv = x.view(2, 1)\ny = x * 1\n"
                                    "a, b = y.view(2, 1), y[0]\nwith torch.no_grad():\n    x -= 1\n    a.mul_(2)\n"
                                    "print(v.grad_fn, v.grad_fn.next_functions, a.grad_fn, b.grad_fn, y.grad_fn)\n"
                                    "y.detach().add_(1)\nprint(b.grad_fn, b)\n(a.sum() + b).backward()\nprint(x.grad)"),
    # Python ints enter an op as PyTorch's Scalar: int64 / uint64 range, then a C cast to the op's integer dtype
    "int_scalar_wraps": ("print(torch.ones(2, dtype=torch.int32) * (2**32 + 3), torch.ones(2, dtype=torch.int32) + 2**31)\n"
                         "print(torch.ones(2, dtype=torch.uint8) + 300, 2**40 - torch.ones(2, dtype=torch.int32))\n"
                         "print(torch.ones(2, dtype=torch.int64) + 2**63, torch.ones(2, dtype=torch.int32) / 2**40)\n"
                         "print(torch.tensor(1.) + 2**63, torch.tensor(3., requires_grad=True) * -2**63)"),
    "int_scalar_too_big": "torch.ones(2) * 2**64",
    "int_scalar_too_negative": "torch.tensor(2.) - (-2**63 - 1)",
    "bool_sub_checked_before_shapes": "torch.ones(2, dtype=torch.bool) - torch.ones(3)",
    # a node's apply unpacks every saved tensor first, also those the gradients asked for do not read
    "unpack_all_saved_result": ("x = torch.tensor(1.75, requires_grad=True)\ny = x.pow(torch.tensor(2.25))\n"
                                "z = y * 1\ny -= 0.5\nz.backward()"),
    "relu_backward_big_keeps_bits": ("x = (torch.arange(300.) - 150).requires_grad_()\n"
                                     "g = torch.full((300,), float('nan'))\ng[::3] = float('-inf')\ng[1::3] = -0.0\n"
                                     "x.relu().backward(g)\nprint(x.grad[140:160])\nprint(1 / x.grad[140:160])"),
    "transcendentals_correctly_rounded": ("x = torch.tensor([1., 0.5, 3.7, -2.2])\n"
                                          "for f in (x.exp, x.tanh, x.sin, x.sigmoid, x.abs().log):\n"
                                          "    print([round(v, 12) for v in f().tolist()])\n"
                                          "print(torch.tensor(1.).exp().item(), (2 ** torch.tensor(0.3)).item())\n"
                                          "for e in (3, -2, -0.5, 1.5):\n    print((x.abs() ** e).tolist())\n"
                                          "print((x.abs() ** x).tolist())"),
    "more_pointwise_ops": (
        "F = torch.nn.functional\n"
        "x = torch.tensor([-2.5, -0.7, -0.5, 0.0, 0.3, 0.5, 1.5, 2.5, 30.0], requires_grad=True)\n"
        "p = torch.tensor([0.1, 0.5, 0.9, 2.0], requires_grad=True)\n"
        "u = torch.tensor([-0.9, -0.2, 0.4, 0.8], requires_grad=True)\n"
        "fs = [(x, torch.floor), (x, torch.ceil), (x, torch.trunc), (x, torch.frac), (x, torch.round),\n"
        "      (x, lambda t: t.round(decimals=1)), (x, F.softplus), (x, lambda t: F.softplus(t, beta=2, threshold=1)),\n"
        "      (x, F.elu), (x, lambda t: F.elu(t, alpha=0.5)), (x, F.silu), (x, lambda t: (t / 4).tan()),\n"
        "      (x, torch.sinh), (x, torch.cosh), (x, torch.atan), (p, torch.log2), (p, torch.log10), (p, torch.log1p),\n"
        "      (p, torch.expm1), (p, torch.rsqrt), (u, torch.asin), (u, torch.acos)]\n"
        "for t, f in fs:\n"
        "    y = f(t)\n"
        "    y.sum().backward()\n"
        "    print(y, [n for n in dir(y.grad_fn) if n.startswith('_saved')], t.grad)\n"
        "    t.grad = None\n"
        "print(torch.floor(torch.tensor([1, -2])), torch.tensor([3, 4]).round(), torch.log2(torch.tensor([1, 8])))\n"
        "z = torch.tensor([1.7, -1.2])\nz.floor_()\nprint(z)\ntorch.tensor([1, 2]).frac()"),
    "floor_of_bool": "torch.floor(torch.tensor([True]))",
    "cat_and_stack_are_contiguous": ("a = torch.ones(3, 2, requires_grad=True).t()\n"
                                     "print(torch.cat([a, a]).is_contiguous(), torch.stack([a, a]).is_contiguous())\n"
                                     "print(torch.cat([a, a]).contiguous().grad_fn, torch.stack([a, a]).contiguous().grad_fn)"),
    "create_graph_grad_of_expanded_leaf": ("x = torch.tensor(1.25).expand(2).detach().requires_grad_()\n"
                                           "x.exp().sum().backward(create_graph=True)\nprint(x.grad, x.grad.grad_fn)\n"
                                           "y = torch.ones(2, requires_grad=True)\n"
                                           "y.exp().sum().backward(create_graph=True)\nprint(y.grad.grad_fn)"),
    "empty_write_into_expanded": "x = torch.ones(2).expand(2, 2)\nx[2:] = -1\nprint(x)",
    "unpack_all_saved_self": ("x = torch.tensor(2., requires_grad=True)\nh = x * 1\ny = h ** 0\nh.add_(1)\n"
                              "y.backward()"),
    # the ready queue: the newest ready node runs first, also when an older one made ready before waits in it
    "ready_queue_order": ("x = torch.tensor(1., requires_grad=True)\nc = x * 2\na = x * 3\nb = c * 4\n"
                          "d = a * 5\ns = (d + b) + a\n"
                          "for n, t in [('a', a), ('b', b), ('c', c), ('d', d)]:\n"
                          "    t.register_hook(lambda g, n=n: print(n, g))\ns.backward()\nprint(x.grad)"),
    "ready_queue_newest_edge_last": ("x = torch.tensor(1., requires_grad=True)\np = x * 2\nq = x * 3\n"
                                     "p.register_hook(lambda g: print('p', g))\nq.register_hook(lambda g: print('q', g))\n"
                                     "(p + q).backward()"),
    "grad_runs_leaf_hooks": ("x = torch.tensor(3., requires_grad=True)\nx.register_hook(lambda g: g * 10)\n"
                             "print(torch.autograd.grad(x * x, x))\nprint(x.grad)"),
    "sign_of_nan_and_masked_gradients": ("x = torch.tensor([float('nan'), -0.0, -2., 3.], requires_grad=True)\n"
                                         "print(x.sign(), x.sgn(), torch.tensor([True, False]).sign())\n"
                                         "y = torch.tensor([-1.0, 4.0], requires_grad=True)\n"
                                         "(y.clamp(min=0.5) ** 0.5).sum().backward()\nprint(y.grad)\n"
                                         "z = torch.tensor([0.0, 2.0], requires_grad=True)\n"
                                         "(z.log().sign() + (z * float('inf')).zero_()).sum().backward()\nprint(z.grad)"),
    "alpha_checks": ("i = torch.tensor([1, 2])\nfor f in [lambda: i.add(i, alpha=0.5), lambda: i.sub(i, alpha=1.0),\n"
                     "          lambda: torch.ones(2).add(torch.ones(2), alpha=True), lambda: i.add(i, alpha=2)]:\n"
                     "    try:\n        print(f())\n    except RuntimeError as e:\n        print(e)"),
    "partial_overlap": ("for code in ['x = torch.ones(()); x.view([1]).mul_(x)', 'x = torch.ones(3, 3); x.add_(x.t())',\n"
                        "             'x = torch.ones(3); x.add_(x.view(3))', 'x = torch.ones(4); x[::2].add_(x[1::2])',\n"
                        "             'x = torch.ones(4); x[:3].copy_(x[1:])', 'x = torch.tensor(2.); x[None] = x']:\n"
                        "    try:\n        exec(code)\n        print('ok')\n    except RuntimeError as e:\n        print(e)"),
    "inplace_saves_the_value_before": ("w = torch.tensor(-1.5, requires_grad=True)\nx = torch.tensor(1.25, dtype=torch.float64)\n"
                                       "x.mul_(w)\nprint(x, x._version, x.grad_fn._saved_self, x.grad_fn._saved_self._version)\n"
                                       "(x * 2).backward()\nprint(w.grad)"),
    "setitem_copy_to": ("x = torch.ones(2, 5)\nx[:, :3] = 0\nx[1, ...] = torch.tensor([[5.]])\nprint(x)\n"
                        "y = torch.ones(2, 3) * 1\nv = torch.tensor([7., 8, 9], requires_grad=True)\ny[0:2] = v\n"
                        "print(y.grad_fn, y.grad_fn.next_functions[1][0].next_functions)\ny[0] = v.sum()\n"
                        "print(y.grad_fn)\ntry:\n    y[0] = 'a'\nexcept TypeError as e:\n    print(e)"),
    "views_before_requires_grad": ("x = torch.tensor([1., 2.])\nv = x[0:1]\nd = x.detach()\nx.requires_grad_()\n"
                                   "print(v.requires_grad, v.is_leaf, v.grad_fn, d.requires_grad)\ny = v * 2\n"
                                   "print(y.requires_grad, y.grad_fn.next_functions)\nw = torch.ones(2, requires_grad=True)\n"
                                   "with torch.no_grad():\n    n = w.view(2)\nprint(n)\nv.sum().backward()"),
    "empty_tensors": ("e = torch.tensor([], requires_grad=True)\nb = torch.tensor([1., 2.], requires_grad=True)\n"
                      "y = torch.cat([b[0:0], e])\ny.backward(torch.tensor([]))\nprint(b.grad, e.grad)\n"
                      "print(torch.cat([torch.ones(0), torch.tensor([], dtype=torch.float64)]).dtype)\n"
                      "print((torch.ones(2, 2, 0) @ torch.ones(0)).shape)\ntorch.ones(0, 3).view(-1, 0)"),
    "inplace_changes_no_grad_dtype": ("w = torch.tensor([1.75], dtype=torch.float64, requires_grad=True)\n"
                                      "x = torch.tensor([-0.75])\nx.mul_(w)\n(x * 2).sum().backward()\n"
                                      "print(x.dtype, w.grad, w.grad.dtype)"),
    "index_double_backward": ("x = torch.tensor([1., 2., 3.], requires_grad=True)\ny = x[[0, 0, 2]]\n"
                              "(y ** 2).sum().backward(create_graph=True)\nprint(x.grad, x.grad.grad_fn)\n"
                              "x.grad.sum().backward()\nprint(x.grad)"),
    "copyslices_replaces_the_slice": ("x = torch.tensor(-3.0, dtype=torch.float64, requires_grad=True)\ny = -x.tanh()\n"
                                      "y[None] = -1\nz = torch.tensor(0.0, dtype=torch.float64, requires_grad=True) ** y\n"
                                      "z.backward()\nprint(x.grad)"),
    "retain_grad_with_create_graph": ("x = torch.tensor([1., 2.], requires_grad=True)\ny = x * 3\ny.retain_grad()\n"
                                      "(y ** 2).sum().backward(create_graph=True)\nprint(y.grad, x.grad)"),
    "retain_grad_follows_in_place": ("x = torch.tensor([[1.], [2.]], requires_grad=True)\ny = x * 1\ny.retain_grad()\n"
                                     "y.mul_(3)\nv = y.squeeze(-1)\nv.mul_(2)\ny.sum().backward()\nprint(y.grad, x.grad)\n"
                                     "z = x * 1\nz.div_(2)\nz.retain_grad()\nw = z.squeeze(-1)\nw.mul_(3)\n"
                                     "z.permute(1, 0).mean().backward()\nprint(z.grad)"),
    "index_put_out_of_range": ("x = torch.ones(3)\nfor i in ([5], [0, -4]):\n    try:\n        x[i] = 0\n"
                               "    except IndexError as e:\n        print(e)\ne = torch.ones(0)\ntry:\n    e[[0]] = 1\n"
                               "except IndexError as err:\n    print(err)"),
    "matmul_fold_or_bmm": ("a = torch.ones(1, 1, 2, dtype=torch.float64, requires_grad=True)\n"
                           "m = torch.ones(2, 3, dtype=torch.float64)\nfor y in [a @ m, a[::2] @ m, a.permute(2, 1, 0) @ torch.ones(1, 2, dtype=torch.float64),\n"
                           "          m @ torch.ones(2, 3, 4, dtype=torch.float64, requires_grad=True), torch.ones(2) @ a.expand(2, 3, 2).transpose(-1, -2)]:\n"
                           "    print(y.shape, y.grad_fn, y.grad_fn.next_functions)\n"
                           "for f in [lambda: torch.ones(2, 2, 2) @ torch.ones(2, 2, 2, dtype=torch.float64),\n"
                           "          lambda: torch.ones(2, 2, 2) @ torch.ones(2, 2, dtype=torch.float64),\n"
                           "          lambda: m.t() @ torch.ones(2, 3, 4), lambda: torch.ones(2, 2, 3) @ torch.ones(2, 2, 3)]:\n"
                           "    try:\n        f()\n    except RuntimeError as e:\n        print(e)"),
    "views_of_a_transposed_result": ("x = torch.tensor([[0.0, 1.25], [1.25, 0.25], [-0.75, 3.0]], requires_grad=True)\n"
                                     "y = x.t() + x.t()\nprint(y.is_contiguous())\ny[-1, None] = -1\n"
                                     "y.backward(torch.tensor([[1.75, -0.75, -2.25], [-2.0, -1.75, -2.5]]))\nprint(x.grad)\n"
                                     "z = x.t() * 1\nv = z[0]\nwith torch.no_grad():\n    z.add_(1)\n"
                                     "print(v.grad_fn)\n(v * torch.tensor([1., 2., 3.])).sum().backward()\nprint(x.grad)"),
    "select_dims_and_errors": ("x = torch.arange(6.).view(2, 3).requires_grad_()\ny = x.select(-1, 1)\n"
                               "print(y, y.grad_fn._saved_dim)\ny.sum().backward()\nprint(x.grad)\n"
                               "for f in [lambda: x.select(3, 0), lambda: x.select(-1, 5), lambda: x[1, -4]]:\n"
                               "    try:\n        f()\n    except IndexError as e:\n        print(e)\n"
                               "z = torch.ones(3, 4)\nfor k in [(slice(None), [9]), (Ellipsis, [9]), (0, [-5])]:\n"
                               "    try:\n        z[k] = 0\n    except IndexError as e:\n        print(e)"),
    "negative_zero_through_relu_and_clamp": ("x = torch.tensor([-0.0, 0.0, -2.0, float('nan'), 3.0])\n"
                                             "print(x.relu(), 1 / x.relu(), 1 / x.clamp(0, 1), 1 / x.clamp(max=0.0),\n"
                                             "      1 / x.clamp(torch.tensor(0.), torch.tensor(1.)))"),
    "optimizer_step_in_place": ("w = torch.ones(2, 3, requires_grad=True)\nb = torch.zeros(3, requires_grad=True)\n"
                                "(w * 2 + b).sum().backward()\nv = w[0]\nwith torch.no_grad():\n"
                                "    w -= 0.1 * w.grad\n    b.sub_(b.grad, alpha=0.5)\n    w *= torch.tensor([1., 2, 3])\n"
                                "    b /= 4.0\nprint(w, b, w._version, b._version, v.grad_fn)"),
}


@pytest.mark.parametrize("name", SNIPPETS)
def test_snippet(name):
    """Printed text, warnings and the final error are identical (addresses and C++ locations blanked)."""
    code = SNIPPETS[name]
    t, e = run_both(T, E, code)
    assert same(t, e), f"\n{code}\n--- torch\n{t.summary()}--- engine\n{e.summary()}"


MISUSE_ON = {"vector": "a = torch.tensor([1., 2., 3.], requires_grad=True) * 1",
             "leaf": "a = torch.ones(2, 3, requires_grad=True)",
             "0-d": "a = torch.tensor(2.)"}


@pytest.mark.parametrize("on", MISUSE_ON)
@pytest.mark.parametrize("misuse", MISUSE)
def test_misuse(misuse, on):
    """The fuzz's wrong-argument calls: the same error (or result) as PyTorch."""
    code = f"{MISUSE_ON[on]}\n{misuse.format(a='a')}"
    t, e = run_both(T, E, code)
    assert same(t, e), f"\n{code}\n--- torch\n{t.summary()}--- engine\n{e.summary()}"
