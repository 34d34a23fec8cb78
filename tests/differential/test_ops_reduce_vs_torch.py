"""The reductions and products of `engine/_ops_reduce.py` (tensordot, inner, kron, vdot, count_nonzero, nansum, nanmean,
diff, logcumsumexp, cummax, cummin, aminmax, var_mean, std_mean) against real PyTorch: values, dtypes, grad_fn
names, saved attributes, gradients and errors."""
import pytest

T = pytest.importorskip("torch", reason="differential tests need real PyTorch (pip install torch==2.13.0)")
from .harness import SHOW, load_engine, run_both, same  # noqa: E402

E = load_engine()

SNIPPETS = {
    # tensordot permutes, reshapes, mm's (or dot's, with nothing left free) and views back; inner is tensordot over
    # the last dims (a product for a number). Matrix products round in BLAS's order: values to 4 decimals.
    "tensordot_and_inner": (
        "torch.manual_seed(0)\n"
        "a = torch.randn(2, 3, requires_grad=True)\n"
        "b = torch.randn(3, 4, requires_grad=True)\n"
        "v = torch.randn(3, requires_grad=True)\n"
        "c = torch.randn(2, 3, 4, requires_grad=True)\n"
        "for y in (torch.tensordot(a, b, 1), torch.tensordot(c, b, ([1, 2], [0, 1])),\n"
        "          torch.tensordot(c, a, ([0, 1], [0, 1])),\n"
        "          torch.tensordot(a, a, 2), torch.tensordot(v, b, 1), torch.tensordot(v, v, 0), torch.inner(v, v),\n"
        "          torch.inner(a, a), a.inner(v), torch.inner(torch.tensor(2.), a)):\n"
        "    show(y.round(decimals=4))\n"
        "    g = y.grad_fn\n"
        "    print(g, g.next_functions, [(n, getattr(g, n)) for n in dir(g) if n.endswith('sizes')])\n"
        "    y.sum().backward()\n"
        "print(a.grad.round(decimals=4), b.grad.round(decimals=4), c.grad.round(decimals=4),\n"
        "      v.grad.round(decimals=4))\n"
        "tries(lambda: torch.inner(a, b), lambda: torch.tensordot(a, b, ([0], [0])))\n"),
    # kron: both viewed (_unsafe_view) with their dims interleaved, multiplied, viewed back
    "kron": (
        "a = torch.tensor([[1., 2., 3.], [-1., 0.5, 2.]], requires_grad=True)\n"
        "b = torch.tensor([[0., 1.], [2., -3.]], requires_grad=True)\n"
        "for y in (torch.kron(a, b), a.kron(b), torch.kron(a[0], b), torch.kron(b, torch.tensor(2.))):\n"
        "    show(y)\n"
        "    for g, _ in y.grad_fn.next_functions[0][0].next_functions:\n"
        "        print(g, g.next_functions, g._saved_self_sym_sizes)\n"
        "    (y * y).sum().backward()\n"
        "print(a.grad, b.grad, torch.kron(torch.tensor([1, 2]), torch.tensor([[1, 2]])))\n"),
    "vdot": (
        "v = torch.tensor([1., -2., 3.], requires_grad=True)\n"
        "w = torch.tensor([0.5, 4., -1.], requires_grad=True)\n"
        "y = torch.vdot(v, w * 2)\n"
        "show(y)\n"
        "y.backward()\n"
        "print(v.grad, w.grad, v.vdot(w), torch.vdot(torch.tensor([1, 2]), torch.tensor([3, 4])))\n"
        "tries(lambda: torch.vdot(v.view(1, 3), v.view(1, 3)), lambda: torch.vdot(v, torch.ones(2)))\n"),
    # nansum: its own node (the gradient skips NaNs); nanmean: nansum divided by the int64 count
    "nansum_nanmean_count_nonzero": (
        "x = torch.tensor([[1., float('nan'), 2.], [3., 4., float('nan')]], requires_grad=True)\n"
        "for y in (torch.nansum(x), x.nansum(1), x.nansum((0, 1), keepdim=True), x.nansum(-1),\n"
        "          torch.nanmean(x), x.nanmean(0), x.nanmean(-1, keepdim=True)):\n"
        "    show(y)\n"
        "    y.sum().backward()\n"
        "print(x.grad)\n"
        "i = torch.tensor([[0, 1], [2, 0]])\n"
        "print(torch.count_nonzero(i), torch.count_nonzero(i, dim=(0, 1)), x.count_nonzero(0), i.count_nonzero(-1),\n"
        "      torch.nansum(i), torch.nansum(i.int()).dtype, torch.nansum(x, dtype=torch.float64))\n"
        "torch.manual_seed(0)\n"
        "y = torch.randn(7, 300)\n"
        "y[y > 1.5] = float('nan')\n"
        "print(torch.nansum(y).item(), torch.nansum(y, 1).tolist(), torch.nansum(y, 0)[:5].tolist(),\n"
        "      torch.nanmean(y, 1).tolist())\n"
        "tries(lambda: torch.nanmean(i))\n"),
    # diff: slices subtracted (after a cat with prepend / append), xor for bools
    "diff": (
        "a = torch.tensor([[1., 4., 9.], [2., -3., 5.]], requires_grad=True)\n"
        "v = torch.tensor([1., 2., 4., 7.], requires_grad=True)\n"
        "for y in (torch.diff(a), torch.diff(a, n=2, dim=0, prepend=a), torch.diff(v, append=torch.zeros(2)),\n"
        "          a.diff(dim=0), v.diff(n=3), torch.diff(v, n=5)):\n"
        "    show(y)\n"
        "    y.sum().backward()\n"
        "print(a.grad, v.grad, torch.diff(v, n=0), torch.diff(v, n=0).grad_fn)\n"
        "print(torch.diff(torch.tensor([True, False, False])), torch.diff(torch.tensor([1, 4, 9])))\n"
        "tries(lambda: torch.diff(torch.tensor(1.)), lambda: torch.diff(a, n=-1))\n"),
    # logcumsumexp: float32 accumulated as PyTorch does (bit for bit); its gradient to 4 decimals (another formula)
    "logcumsumexp": (
        "a = torch.tensor([[0.5, -1., 2.], [3., 0., -2.]], requires_grad=True)\n"
        "for y in (torch.logcumsumexp(a, 1), a.logcumsumexp(-1), torch.logcumsumexp(a, 0)):\n"
        "    show(y)\n"
        "    y.sum().backward()\n"
        "print(a.grad.round(decimals=4))\n"
        "torch.manual_seed(0)\n"
        "x = torch.randn(7, 300)\n"
        "print(torch.logcumsumexp(x, 1)[:, -3:].tolist(), torch.logcumsumexp(x.double(), 0)[-1, :3].tolist())\n"
        "tries(lambda: torch.logcumsumexp(torch.tensor([1, 2]), 0))\n"),
    # cummax / cummin: the later of equal values wins; a NaN stays; the gradient goes to the indices
    "cummax_cummin": (
        "x = torch.tensor([[1., 3., 2.], [3., 1., 3.]], requires_grad=True)\n"
        "for r in (torch.cummax(x, 1), x.cummin(-1), torch.cummax(x, 0), torch.cummin(x, dim=0)):\n"
        "    print(r)\n"
        "    show(r.values)\n"
        "    r.values.sum().backward()\n"
        "print(x.grad)\n"
        "print(torch.cummax(torch.tensor([1., float('nan'), 2., float('nan')]), 0),\n"
        "      torch.cummin(torch.tensor([3, 1, 1, 2]), 0))\n"),
    # aminmax: one node, two outputs; ties share the gradient
    "aminmax": (
        "x = torch.tensor([[1., 3., 2.], [3., 1., 3.]], requires_grad=True)\n"
        "for r in (torch.aminmax(x), torch.aminmax(x, dim=1), x.aminmax(dim=-1, keepdim=True),\n"
        "          torch.aminmax(x, dim=0)):\n"
        "    print(r)\n"
        "    show(r.min)\n"
        "    (r.min * 2 + r.max).sum().backward()\n"
        "print(x.grad)\n"
        "x.grad = None\n"
        "torch.aminmax(x).max.backward()\n"
        "print(x.grad, torch.aminmax(torch.tensor([[4, -2], [0, 7]]), dim=0))\n"
        "tries(lambda: torch.aminmax(torch.ones(0)))\n"),
    # var_mean / std_mean: one node, two outputs; float32 accumulated in float64 and rounded once (bit for bit);
    # a float64 mean to 12 decimals (PyTorch's Welford updates round differently from numpy's pairwise sum)
    "var_mean_std_mean": (
        "torch.manual_seed(0)\n"
        "a = torch.randn(4, 5, requires_grad=True)\n"
        "for r in (torch.var_mean(a), torch.std_mean(a, 1), torch.var_mean(a, dim=0, unbiased=False, keepdim=True),\n"
        "          torch.std_mean(a, (0, 1), correction=0), torch.std_mean(a, -1)):\n"
        "    print(r)\n"
        "    show(r[0])\n"
        "    show(r[1])\n"
        "    (r[0] * 2 + r[1] ** 2).sum().backward()\n"
        "print(a.grad)\n"
        "a.grad = None\n"
        "torch.var_mean(a, 1)[1].sum().backward()\n"
        "print(a.grad)\n"
        "a.grad = None\n"
        "torch.std_mean(a)[0].backward()\n"
        "print(a.grad)\n"
        "x = torch.randn(50, 300)\n"
        "r, s = torch.var_mean(x, 1), torch.std_mean(x)\n"
        "print(r[0].tolist(), r[1].tolist(), s[0].item(), s[1].item(),\n"
        "      [round(v, 12) for v in torch.var_mean(x.double(), 0)[1][:4].tolist()])\n"),
    # inverse / linalg.inv: LinalgInvExBackward0 saving the inverse; LAPACK's rounding: gradients to 4 decimals
    "inverse": (
        "a = torch.tensor([[2., 1.], [1., 3.]], requires_grad=True)\n"
        "w = torch.tensor([[1., -2.], [0.5, 3.]])\n"
        "for y in (torch.inverse(a), torch.linalg.inv(a), a.inverse(), torch.inverse(torch.stack([a, a * 2]))):\n"
        "    show(y)\n"
        "    (y * y.detach()).sum().backward()\n"
        "print(a.grad.round(decimals=4))\n"
        "a.grad = None\n"
        "(g,) = torch.autograd.grad((a.inverse() * w).sum(), a, create_graph=True)\n"
        "show(g)\n"
        "g.sum().backward()\n"
        "print(a.grad.round(decimals=4))\n"
        "print(torch.inverse(torch.tensor([[4., 7.], [2., 6.]], dtype=torch.float64)))\n"
        "s = torch.stack([torch.eye(3), torch.tensor([[1., 2, 3], [2, 4, 6], [0, 0, 1]])])\n"
        "tries(lambda: torch.inverse(torch.ones(2, 3)), lambda: torch.inverse(torch.zeros(2, 2)),\n"
        "      lambda: torch.inverse(torch.ones(2)), lambda: torch.inverse(torch.ones(2, 2, dtype=torch.int64)),\n"
        "      lambda: torch.inverse(s), lambda: isinstance(torch.linalg.LinAlgError('x'), RuntimeError))\n"),
}


@pytest.mark.parametrize("name", sorted(SNIPPETS))
def test_snippet_as_pytorch(name):
    t, e = run_both(T, E, SHOW + SNIPPETS[name])
    assert same(t, e), f"\n--- torch\n{t.summary()}--- engine\n{e.summary()}"
