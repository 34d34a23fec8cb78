"""Everyday ops against real PyTorch: which of equal values topk and kthvalue report (PyTorch's selection
algorithms, not a stable sort), their bool-dtype errors, norms and products to the last bit (`.item()` prints 17
digits: the kernels' order of float arithmetic), the parser's errors for a dim that is not one int and for clamp's bounds, torch.return_types as structseqs, elu at signed zeros, double gelu, reductions
of empty tensors and size-1 dims, linalg.multi_dot. Printed text, warnings and the final error must be the same."""
import pytest

T = pytest.importorskip("torch", reason="differential tests need real PyTorch (pip install torch==2.13.0)")
from .harness import load_engine, run_both, same  # noqa: E402

E = load_engine()

SNIPPETS = {
    "topk_and_kthvalue_pick_among_ties_as_pytorch": (
        'x = torch.tensor([3., 1., 4., 1., 5., 9., 2., 6.])\n'
        'print(x.kthvalue(2), x.topk(3, largest=False), x.topk(4, sorted=False))\n'
        'y = torch.tensor([[1, 2, 2, 1], [3, 3, 3, 0]])\n'
        'print(y.topk(2, dim=1), y.kthvalue(2, dim=1), y.topk(2, 1, sorted=False), y.kthvalue(1, 0, keepdim=True))\n'
        'z = torch.tensor([0., 1., 0., 3., 1., 2., 0., 3.] * 5)\n'
        'print(z.topk(6).indices, z.topk(7, largest=False).indices, z.kthvalue(12).indices)\n'
        "w = torch.tensor([float('nan'), 1., float('nan'), 1., 2.])\n"
        'print(w.topk(3), w.kthvalue(2), w.topk(2, largest=False))\n'
        'v = torch.tensor([2., 2., 1.], requires_grad=True)\n'
        'v.topk(1).values.sum().backward(); print(v.grad)\n'
        'print(torch.tensor(5.).topk(0), torch.tensor(True).kthvalue(1))'),
    "selection_ops_reject_bool": (
        'b = torch.tensor([True, False, True])\n'
        'for f in [lambda: b.topk(1), lambda: torch.tensor(True).topk(1), lambda: b.kthvalue(1), lambda: b.median(),\n'
        '          lambda: b.median(0), lambda: b.mode(), lambda: b.sort()]:\n'
        '    try:\n'
        '        print(f())\n'
        '    except Exception as e:\n'
        '        print(type(e).__name__, e)'),
    "norms_to_the_last_bit": (
        'g = torch.Generator().manual_seed(0)\n'
        'for n in [5, 12, 13, 21, 47, 100, 1001]:\n'
        '    x = torch.randn(n, generator=g)\n'
        '    print(n, x.norm().item(), torch.linalg.vector_norm(x, 1).item(), x.norm(3).item(),\n'
        '          torch.linalg.vector_norm(x.double(), 0.5).item(), x.double().norm().item())\n'
        'm = torch.randn(17, 33, generator=g)\n'
        'print(m.norm(dim=1)[:3].tolist(), m.norm(dim=0)[:3].tolist(), m.t().norm(dim=0)[:3].tolist(),\n'
        '      m[::2].norm().item(), m[:, ::2].norm().item(), torch.linalg.norm(m).item())\n'
        'c = torch.randn(4, 1, 6, generator=g)\n'
        'print(torch.linalg.vector_norm(c, 3, dim=1), torch.dist(m[0], m[1], 3).item())'),
    "products_to_the_last_bit": (
        'g = torch.Generator().manual_seed(1)\n'
        'for n in [9, 15, 31, 33, 100, 1000]:\n'
        '    x = torch.rand(n, generator=g) * 0.4 + 0.8\n'
        '    print(n, x.prod().item(), x.double().prod().item())\n'
        'm = torch.rand(17, 70, generator=g) * 0.4 + 0.8\n'
        'print(m.prod(1)[:3].tolist(), m.prod(0)[:3].tolist(), m[::2].prod().item(), m.t().prod(0)[:2].tolist())\n'
        'x = (torch.rand(12, generator=g) + 0.5).requires_grad_()\n'
        'p = x.prod(); p.backward(); print(p.item(), x.grad[:3].tolist())'),
    "one_int_dim_given_something_else": (
        'x = torch.arange(6.).reshape(2, 3)\n'
        'for f in [lambda: x.prod(dim=(0, 1)), lambda: torch.prod(x, (0, 1)), lambda: x.prod(axis=(0, 1)),\n'
        '          lambda: x.prod(0.5, keepdim=True), lambda: x.max(dim=None), lambda: x.min((0, 1)),\n'
        '          lambda: torch.max(x, None), lambda: x.max(None, True), lambda: x.argmax(dim=(0, 1)),\n'
        '          lambda: torch.argmax(x, (0,)), lambda: x.cumsum((0, 1)), lambda: torch.cumsum(x, dim=None),\n'
        '          lambda: x.softmax(None), lambda: x.topk(1, (0,)), lambda: x.kthvalue(1, dim=[0]),\n'
        '          lambda: x.median(dim=None), lambda: x.mode((0,)), lambda: x.logsumexp(None),\n'
        '          lambda: x.sort(dim=None), lambda: torch.argsort(x, (0,)), lambda: x.argmax(None),\n'
        '          lambda: x.max(dim=1), lambda: x.logsumexp([0, 1]), lambda: x.prod(1, True)]:\n'
        '    try:\n'
        '        print(f())\n'
        '    except Exception as e:\n'
        '        print(type(e).__name__, e)'),
    "reductions_of_empty_and_size_one_dims": (
        'e = torch.zeros(0, 3)\n'
        'print(e.mean(0), e.sum(0), e.prod(1), e.norm(dim=0), torch.linalg.vector_norm(e, 3, dim=0), e.t().norm(dim=1))\n'
        'print(torch.tensor([]).norm(), torch.tensor([]).prod(), torch.zeros(2, 0).logsumexp(1))\n'
        "c = torch.tensor([[-1.5], [2.]], requires_grad=True)\n"
        'for p in [2, 1, 3, 0.5, 0, float("inf")]:\n'
        '    n = torch.linalg.vector_norm(c, p, dim=1); print(n)\n'
        '    if p: print(torch.autograd.grad(n.sum(), c)[0])'),
    "linalg_multi_dot": (
        'a = torch.ones(2, 3, requires_grad=True); b = torch.arange(12.).reshape(3, 4).requires_grad_()\n'
        'c = torch.ones(4, requires_grad=True)\n'
        'for ts in [[a, b], [a, b, b.t()], [a[0], b, c], [a, b, b.t(), a.t()], [torch.ones(2, 2), torch.ones(2, 2),\n'
        '           torch.ones(2, 2)], [torch.ones(3, 2, requires_grad=True), torch.ones(2, 3), torch.ones(3, 2)]]:\n'
        '    r = torch.linalg.multi_dot(ts); print(r, r.grad_fn.next_functions[0][0].next_functions)\n'
        '    r.sum().backward(); print(b.grad); b.grad = None\n'
        'for bad in [[a], [a, torch.ones(2, 2)], [a, torch.ones(2, 3, 4)], [a, b.double()], [a, torch.ones(3), a]]:\n'
        '    try:\n'
        '        torch.linalg.multi_dot(bad)\n'
        '    except Exception as e:\n'
        '        print(type(e).__name__, e)'),
    "clamp_bounds_mixing_a_tensor_and_a_number": (
        'x = torch.tensor([1., -1.]); m = torch.tensor([0.])\n'
        'for f in [lambda: x.clamp(min=m, max=0.5), lambda: x.clamp(max=1, min=m), lambda: x.clamp(m, 0.5),\n'
        '          lambda: x.clip(m, max=2.), lambda: torch.clamp(x, m, 0.5), lambda: torch.clip(x, min=0.5, max=m),\n'
        '          lambda: x.clamp_(m, True), lambda: torch.clamp_(x, m, 0.5), lambda: x.clamp(min="a"),\n'
        '          lambda: torch.clamp(x, "a"), lambda: x.clamp(torch.tensor(0., requires_grad=True), 0.5),\n'
        '          lambda: x.clamp(torch.tensor(0.), 0.5), lambda: x.clamp(m, torch.tensor([[0.5]])),\n'
        '          lambda: x.clamp(min=m), lambda: torch.nn.functional.logsigmoid.__name__]:\n'
        '    try:\n'
        '        print(f())\n'
        '    except Exception as e:\n'
        '        print(type(e).__name__, e)'),
    "return_types_are_structseqs": (
        'import copy\n'
        'a = torch.tensor([[1., 2.], [3., 4.]], requires_grad=True)\n'
        'r = a.max(1); T = type(r)\n'
        'for f in [lambda: T((1, 2, 3)), lambda: T(5), lambda: T([1, 2]), lambda: setattr(r, "values", 1),\n'
        '          lambda: setattr(r, "foo", 1), lambda: r.bar, lambda: (r.n_fields, r.n_unnamed_fields),\n'
        '          lambda: hasattr(r, "_fields"), lambda: hasattr(r, "_asdict"), lambda: r.__match_args__,\n'
        '          lambda: copy.deepcopy(r), lambda: r + (1,), lambda: r == (r.values, r.indices),\n'
        '          lambda: (T.__name__, T.__module__, T.__doc__), lambda: torch.aminmax(a).max, lambda: a.sort(0)[1]]:\n'
        '    try:\n'
        '        print(repr(f()))\n'
        '    except Exception as e:\n'
        '        print(type(e).__name__, e)\n'
        'v, i = a.min(0); print(v, i)'),
    "elu_at_signed_zeros_and_in_place_negative_alpha": (
        'import torch.nn.functional as F\n'
        'for a in [-1., 0.5, 0.]:\n'
        '    x = torch.tensor([0., -0., -1., 1., float("nan")], requires_grad=True)\n'
        '    y = F.elu(x, alpha=a); print(y, [v.item() for v in y[:2]])\n'
        '    y.sum().backward(); print(x.grad)\n'
        '    y2 = x * 1; F.elu_(y2, a); print(y2)\n'
        '    try:\n'
        '        y2.sum().backward(); print(x.grad)\n'
        '    except Exception as e:\n'
        '        print(type(e).__name__, e)'),
    "double_gelu_to_the_last_bit": (
        'import torch.nn.functional as F\n'
        'x = torch.tensor([-2.5, -1., -0.3, 0., 0.7, 1.5, 3.], dtype=torch.float64)\n'
        'print([v.item() for v in F.gelu(x)], F.gelu(torch.tensor(1.5, dtype=torch.float64)).item())'),
}


@pytest.mark.parametrize("name", SNIPPETS)
def test_snippet(name):
    code = SNIPPETS[name]
    t, e = run_both(T, E, code)
    assert same(t, e), f"\n{code}\n--- torch\n{t.summary()}--- engine\n{e.summary()}"
