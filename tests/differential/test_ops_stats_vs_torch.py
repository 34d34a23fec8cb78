"""The statistics and counting ops of `engine/_ops_stats.py` (cdist, bincount, histc, searchsorted, bucketize, quantile,
nanquantile, mode, cov, corrcoef, erfinv) against real PyTorch: values, dtypes, grad_fn names and graphs, saved
attributes, gradients and errors."""
import pytest

T = pytest.importorskip("torch", reason="differential tests need real PyTorch (pip install torch==2.13.0)")
from .harness import SHOW, load_engine, run_both, same  # noqa: E402

E = load_engine()

# walk(y): the whole graph below y, one node a line, with what each node saved (tensors as shape and dtype)
WALK = ("def walk(g, depth=0):\n"
        "    if g is None:\n"
        "        return\n"
        "    saved = {}\n"
        "    for n in sorted(a for a in dir(g) if a.startswith('_saved_')):\n"
        "        v = getattr(g, n)\n"
        "        saved[n[7:]] = (tuple(v.shape), v.dtype) if isinstance(v, torch.Tensor) else v\n"
        "    print(' ' * depth + type(g).__name__, saved)\n"
        "    for f, _ in g.next_functions:\n"
        "        walk(f, depth + 2)\n")

SNIPPETS = {
    # cdist: one CdistBackward0 node (any p, 25 rows or fewer, or donot_use_mm); its gradient's node
    # CdistBackwardBackward0 has no derivative. Norms accumulate in another order: values to 4 decimals.
    "cdist_p_norms": (
        "torch.manual_seed(0)\n"
        "a = torch.randn(3, 2, requires_grad=True)\n"
        "b = torch.randn(4, 2, requires_grad=True)\n"
        "for p in (2., 1., 0., 3., float('inf'), 0.5, 1.5):\n"
        "    y = torch.cdist(a, b, p=p)\n"
        "    show(y.round(decimals=4))\n"
        "    print(y.grad_fn, y.grad_fn._saved_p, y.grad_fn._saved_result.round(decimals=4))\n"
        "    (y * torch.arange(4.)).sum().backward()\n"
        "    print(a.grad.round(decimals=4), b.grad.round(decimals=4))\n"
        "    a.grad = b.grad = None\n"
        "y = torch.cdist(a, a, 2)\n"
        "y.sum().backward()\n"
        "print(y.round(decimals=4), a.grad.round(decimals=4))\n"
        "g, = torch.autograd.grad(torch.cdist(a, b, 3.).sum(), a, create_graph=True)\n"
        "print(g.round(decimals=4), g.grad_fn, g.grad_fn.next_functions)\n"
        "tries(lambda: torch.autograd.grad(g.sum(), a))\n"
        "gb, = torch.autograd.grad(torch.cdist(a, b).sum(), b, create_graph=True)\n"
        "print(gb.grad_fn, gb.grad_fn.next_functions)\n"),
    # p=2 with more than 25 rows (or use_mm_for_euclid_dist): _euclidean_dist by one matrix product, viewed; batches
    # are expanded, made contiguous and viewed to 3-d first
    "cdist_euclid_by_mm": (
        "torch.manual_seed(0)\n"
        "a = torch.randn(30, 3, requires_grad=True)\n"
        "b = torch.randn(4, 3, requires_grad=True)\n"
        "c = torch.randn(2, 5, 3, requires_grad=True)\n"
        "for y in (torch.cdist(a, b), torch.cdist(b, b, compute_mode='use_mm_for_euclid_dist'),\n"
        "          torch.cdist(c, b, compute_mode='use_mm_for_euclid_dist'), torch.cdist(b, a),\n"
        "          torch.cdist(a, b, compute_mode='donot_use_mm_for_euclid_dist'), torch.cdist(c, a),\n"
        "          torch.cdist(c, c, 2., 'use_mm_for_euclid_dist'), torch.cdist(c, b)):\n"
        "    print(y.shape, y.grad_fn)\n"
        "    walk(y.grad_fn)\n"
        "    (y * y.detach()).sum().backward()\n"
        "print(a.grad.round(decimals=3), b.grad.round(decimals=3), c.grad.round(decimals=3))\n"
        "g, = torch.autograd.grad(torch.cdist(b, b, compute_mode='use_mm_for_euclid_dist')[0, 1], b,\n"
        "                         create_graph=True)\n"
        "print(g.round(decimals=4), g.grad_fn)\n"
        "print(torch.autograd.grad(g.sum(), b)[0].round(decimals=4))\n"
        "print(torch.cdist(torch.ones(25, 3, requires_grad=True), b).grad_fn,\n"
        "      torch.cdist(b, torch.ones(26, 3, requires_grad=True)).grad_fn,\n"
        "      torch.cdist(torch.ones(26, 3, requires_grad=True), b, 2.5).grad_fn)\n"),
    "cdist_shapes_and_errors": (
        "a = torch.tensor([[0., 1.], [2., 3.], [1., 1.]], requires_grad=True)\n"
        "b = torch.tensor([[1., 1.], [0., 2.]], requires_grad=True)\n"
        "show(torch.cdist(torch.zeros(0, 2, requires_grad=True), b))\n"
        "show(torch.cdist(torch.zeros(3, 0, requires_grad=True), torch.zeros(2, 0)))\n"
        "y = torch.cdist(a.unsqueeze(0).expand(2, 3, 2), b.unsqueeze(0))\n"
        "show(y)\n"
        "y.sum().backward()\n"
        "print(a.grad, b.grad, torch.cdist(a.double(), b.double()).dtype)\n"
        "tries(lambda: torch.cdist(a, b, p=-1), lambda: torch.cdist(a, b, p=float('nan')),\n"
        "      lambda: torch.cdist(a, torch.ones(4, 3)), lambda: torch.cdist(a[0], b), lambda: torch.cdist(a, b[0]),\n"
        "      lambda: torch.cdist(a.long(), b.long()), lambda: torch.cdist(a, b.int()),\n"
        "      lambda: torch.cdist(a, b, compute_mode='x'), lambda: torch.cdist(a, b, compute_mode=None),\n"
        "      lambda: torch.cdist(a, b.double()), lambda: torch.cdist(a.double(), b, 2, 'use_mm_for_euclid_dist'),\n"
        "      lambda: torch.cdist(a.expand(2, 3, 2), b.expand(3, 2, 2)), lambda: torch.cdist(a.half(), b.half()))\n"),
    # bincount: int64 counts, or sums of the weights (float32 weights stay float32, others give float64); weights that
    # require grad give PyTorch's NotImplemented node
    "bincount": (
        "x = torch.tensor([0, 1, 1, 3, 5, 1])\n"
        "w = torch.tensor([0.5, 1., 2., -1., 3., 0.25])\n"
        "print(torch.bincount(x), x.bincount(), torch.bincount(x, minlength=9), torch.bincount(x, w),\n"
        "      torch.bincount(x, w.double()), torch.bincount(x, minlength=2), torch.bincount(x, w.half()),\n"
        "      torch.bincount(x, torch.tensor([1, 2, 3, 4, 5, 6])), torch.bincount(x.int(), w, 7),\n"
        "      torch.bincount(x.to(torch.uint8)), torch.bincount(x, torch.tensor([True, False] * 3)))\n"
        "e = torch.tensor([], dtype=torch.int64)\n"
        "print(torch.bincount(e), torch.bincount(e, minlength=3), torch.bincount(e, torch.tensor([]), 2),\n"
        "      torch.bincount(e, torch.tensor([1.])))\n"
        "wr = w.clone().requires_grad_()\n"
        "y = torch.bincount(x, wr)\n"
        "print(y, y.requires_grad, type(y.grad_fn).__name__, y.grad_fn.next_functions)\n"
        "tries(lambda: y.sum().backward(), lambda: torch.bincount(torch.tensor([-1, 2])),\n"
        "      lambda: torch.bincount(torch.tensor([1., 2.])), lambda: torch.bincount(x.view(2, 3)),\n"
        "      lambda: torch.bincount(x, minlength=-1), lambda: torch.bincount(x, w[:3]),\n"
        "      lambda: torch.bincount(torch.tensor(3)), lambda: torch.bincount(torch.tensor([True, False])),\n"
        "      lambda: torch.bincount(x, w.view(2, 3)), lambda: torch.bincount(torch.tensor([-1]), minlength=-1))\n"
        "torch.manual_seed(0)\n"
        "r = torch.randint(0, 50, (1000,))\n"
        "print(torch.bincount(r).tolist(), torch.bincount(r, torch.rand(1000)).tolist())\n"),
    # histc: bins between min and max in the input's dtype (the data's range when min == max); no gradient
    "histc": (
        "h = torch.tensor([1., 2., 1., 2.5, 4., -1.])\n"
        "print(torch.histc(h), torch.histc(h, bins=4), torch.histc(h, bins=4, min=0, max=3), h.histc(5, 1, 1),\n"
        "      torch.histc(h.double(), 3), torch.histc(torch.tensor([2., 2.]), 4),\n"
        "      torch.histc(torch.tensor([1., float('nan')]), 3, 0, 2), torch.histc(torch.tensor([]), 3),\n"
        "      torch.histc(h.view(2, 3), 3), torch.histc(torch.tensor(2.), 3), torch.histc(h, 3, -0.5, 2.5))\n"
        "hr = h.clone().requires_grad_()\n"
        "print(torch.histc(hr, 3))\n"
        "torch.manual_seed(0)\n"
        "r = torch.randn(10000)\n"
        "print(torch.histc(r, 7).tolist(), torch.histc(r, 13, -1, 1.3).tolist(), torch.histc(r.double(), 9).tolist())\n"
        "tries(lambda: torch.histc(h.long(), 3), lambda: torch.histc(h, -1), lambda: torch.histc(h, 3, 2, 1),\n"
        "      lambda: torch.histc(h, 0), lambda: torch.histc(torch.tensor([1., float('inf')]), 3),\n"
        "      lambda: torch.histc(h, 3, float('nan'), 1), lambda: torch.histc(h, 3, 0.5, float('inf')),\n"
        "      lambda: hr.histc(3).backward())\n"),
    # searchsorted / bucketize: PyTorch's binary search (a NaN goes last), int64 or int32; errors word for word
    "searchsorted_bucketize": (
        "s = torch.tensor([1., 3., 5., 7., 9.])\n"
        "v = torch.tensor([[3., 6., 9.], [3., 6., 9.]])\n"
        "print(torch.searchsorted(s, v), torch.searchsorted(s, v, right=True),\n"
        "      torch.searchsorted(s, v, side='right'), torch.searchsorted(s, v, out_int32=True),\n"
        "      torch.searchsorted(s, 5.), torch.searchsorted(s, 5, right=True),\n"
        "      torch.searchsorted(s, torch.tensor(4.)), torch.searchsorted(s, v, side='right', right=False))\n"
        "s2 = torch.tensor([[1, 3, 5, 7, 9], [2, 4, 6, 8, 10]])\n"
        "print(torch.searchsorted(s2, torch.tensor([[3, 6, 9], [3, 6, 9]])),\n"
        "      torch.searchsorted(s2, torch.tensor([[3], [6]]), right=True),\n"
        "      torch.searchsorted(torch.tensor([3., 1., 2.]), torch.tensor([2.]), sorter=torch.tensor([1, 2, 0])),\n"
        "      torch.searchsorted(s2.flip(-1), torch.tensor([[3], [6]]), sorter=torch.tensor([[4, 3, 2, 1, 0]] * 2)))\n"
        "print(torch.bucketize(v, s), torch.bucketize(v, s, right=True), torch.bucketize(v, s, out_int32=True),\n"
        "      torch.bucketize(3, s), torch.bucketize(torch.tensor(3), s))\n"
        "print(torch.searchsorted(s, torch.tensor([float('nan'), -float('inf'), float('inf')])),\n"
        "      torch.searchsorted(torch.tensor([1., float('nan')]), torch.tensor([float('nan'), 2.])),\n"
        "      torch.searchsorted(s, torch.tensor([2, 3])), torch.searchsorted(s.long(), torch.tensor([2.5, 3.])),\n"
        "      torch.searchsorted(torch.tensor([]), v), torch.searchsorted(s, torch.tensor([])),\n"
        "      torch.searchsorted(s, v.view(-1, 1, 1)).shape, torch.searchsorted(s2, torch.zeros(2, 0)))\n"
        "sr, vr = s.clone().requires_grad_(), v.clone().requires_grad_()\n"
        "print(torch.searchsorted(sr, vr).requires_grad, torch.bucketize(vr, sr).requires_grad)\n"
        "torch.manual_seed(0)\n"
        "b = torch.randint(0, 20, (4, 30)).sort().values\n"
        "q = torch.randint(-1, 22, (4, 9))\n"
        "print(torch.searchsorted(b, q).tolist(), torch.searchsorted(b, q, right=True).tolist())\n"
        "tries(lambda: torch.searchsorted(s, v, side='left', right=True),\n"
        "      lambda: torch.searchsorted(s, v, side='mid'),\n"
        "      lambda: torch.searchsorted(s2, v[:1]), lambda: torch.searchsorted(s2, torch.tensor([[3], [6], [1]])),\n"
        "      lambda: torch.searchsorted(torch.tensor(1.), v), lambda: torch.bucketize(v, s2),\n"
        "      lambda: torch.searchsorted(s, v, sorter=torch.tensor([0, 1])),\n"
        "      lambda: torch.searchsorted(s, v, sorter=torch.tensor([0, 1, 2, 3, 7])),\n"
        "      lambda: torch.searchsorted(s, v, sorter=torch.tensor([0., 1, 2, 3, 4])),\n"
        "      lambda: torch.searchsorted(s, v, sorter=torch.tensor([0, 1, 2, 3, 4]).int()),\n"
        "      lambda: torch.searchsorted(torch.tensor([True, False]), torch.tensor([True])),\n"
        "      lambda: torch.bucketize(v, torch.tensor(1.)), lambda: torch.searchsorted(s2, 3))\n"),
    # quantile: sort, view, gather below and above the rank, lerp_ (LerpBackward1), squeeze_ (or unsqueeze_,
    # transpose_, squeeze_ for a 1-d q); a q that requires grad gets a gradient through the lerp weight
    "quantile_graphs": (
        "x = torch.tensor([[1., 5., 2., 8.], [3., 0., 4., 6.]], requires_grad=True)\n"
        "for y in (torch.quantile(x, 0.3), torch.quantile(x, 0.3, dim=1),\n"
        "          torch.quantile(x, torch.tensor([0.25, 0.5]), dim=1, keepdim=True),\n"
        "          torch.quantile(x, 0.3, dim=0, interpolation='lower'), x.quantile(0.3, 0, interpolation='higher'),\n"
        "          torch.quantile(x, 0.6, dim=0, interpolation='nearest'),\n"
        "          torch.quantile(x, 0.3, dim=0, interpolation='midpoint'), torch.nanquantile(x, 0.3, dim=1),\n"
        "          x.nanquantile(torch.tensor([0.1, 0.9]), keepdim=True)):\n"
        "    print(y)\n"
        "    walk(y.grad_fn)\n"
        "    y.sum().backward()\n"
        "    print(x.grad)\n"
        "    x.grad = None\n"
        "xn = torch.tensor([[1., 5., 2., 8.], [3., 0., 4., float('nan')]], requires_grad=True)\n"
        "q = torch.tensor([0.3, 0.6], requires_grad=True)\n"
        "y = torch.quantile(xn, q, dim=1)\n"
        "walk(y.grad_fn)\n"
        "y.nansum().backward()\n"
        "print(y, xn.grad, q.grad)\n"
        "y = torch.nanquantile(xn.detach(), q, dim=1, interpolation='midpoint')\n"
        "walk(y.grad_fn)\n"
        "print(y)\n"),
    "quantile_values_and_errors": (
        "x = torch.tensor([[1., 5., 2., 8.], [3., 0., 4., float('nan')]])\n"
        "print(torch.quantile(x, 0.5, 1), torch.nanquantile(x, 0.5, 1), torch.nanquantile(x, torch.tensor([0., 1.])),\n"
        "      torch.nanquantile(torch.tensor([float('nan')] * 3), 0.5), x.quantile(0.25),\n"
        "      x.nanquantile(0.75, dim=0, keepdim=True), torch.quantile(torch.tensor(3.), 0.2),\n"
        "      torch.quantile(torch.tensor(3.), 0.2, 0, True), torch.quantile(x[0], 0.3, keepdim=True),\n"
        "      torch.quantile(x, torch.tensor([0.3]), keepdim=True).shape, torch.quantile(x, 0.3, keepdim=True),\n"
        "      torch.quantile(torch.tensor([1., 2., 3., 4.], dtype=torch.float64), 0.4),\n"
        "      torch.quantile(torch.arange(10.), 0.35, interpolation='nearest'),\n"
        "      torch.quantile(torch.arange(10.), 0.05, interpolation='nearest'),\n"
        "      torch.quantile(x, 0.5, 1, True, interpolation='higher'))\n"
        "torch.manual_seed(0)\n"
        "r = torch.randn(5, 301)\n"
        "print(torch.quantile(r, torch.tensor([0.1, 0.33, 0.5, 0.9]), dim=1).tolist(),\n"
        "      torch.quantile(r.double(), 0.37).item(), torch.nanquantile(r, 0.77, dim=0)[:6].tolist())\n"
        "tries(lambda: torch.quantile(x, 1.5), lambda: torch.quantile(x, torch.tensor([0.5, 1.5])),\n"
        "      lambda: torch.quantile(x.long(), 0.5),\n"
        "      lambda: torch.quantile(x, torch.tensor([0.5], dtype=torch.float64)),\n"
        "      lambda: torch.quantile(torch.tensor([]), 0.5), lambda: torch.quantile(x, torch.ones(1, 1)),\n"
        "      lambda: torch.quantile(x, 0.5, interpolation='foo'), lambda: torch.quantile(x, 0.5, dim=2),\n"
        "      lambda: torch.quantile(x, -0.1), lambda: torch.nanquantile(x, 2.), lambda: torch.nanquantile(x, 2),\n"
        "      lambda: torch.quantile(torch.zeros(2, 0), 0.5, 0),\n"
        "      lambda: torch.quantile(x.int(), torch.tensor([0.5])),\n"
        "      lambda: torch.quantile(x, torch.tensor([0.5]).long()), lambda: torch.quantile(x, [0.5]),\n"
        "      lambda: torch.quantile(x, torch.tensor(float('nan'))), lambda: torch.quantile(x, float('nan')))\n"),
    # mode: the most frequent value (the smallest of ties) and the index std::sort leaves last in its run
    "mode": (
        "x = torch.tensor([[1., 5., 1., 8., 5.], [3., 0., 3., 0., 6.]], requires_grad=True)\n"
        "for r in (torch.mode(x), x.mode(0, keepdim=True), torch.mode(x, dim=-1), torch.mode(x[0, 0])):\n"
        "    print(r, type(r))\n"
        "    show(r.values)\n"
        "    (r.values * 2).sum().backward()\n"
        "print(x.grad)\n"
        "print(torch.mode(torch.tensor([2, 2, 1, 1, 3])), torch.mode(torch.tensor(3.)),\n"
        "      torch.mode(torch.tensor([float('nan'), 1., float('nan')])),\n"
        "      torch.mode(torch.tensor([True, False, True])),\n"
        "      torch.mode(torch.tensor([3, 1, 3, 1, 2, 2])), torch.mode(torch.zeros(2, 0), 0))\n"
        "torch.manual_seed(0)\n"
        "for n in (16, 17, 40, 100, 1000):\n"
        "    r = torch.mode(torch.randint(0, 4, (3, n)))\n"
        "    print(r.values.tolist(), r.indices.tolist())\n"
        "r = torch.mode(torch.randint(0, 6, (50, 20)).float(), 0)\n"
        "print(r.values.tolist(), r.indices.tolist())\n"
        "r = torch.mode(torch.zeros(300))\n"
        "print(r.indices, torch.mode(torch.arange(40) % 2).indices, torch.mode(torch.arange(100, 0, -1) % 3).indices)\n"
        "tries(lambda: torch.mode(torch.tensor([])), lambda: torch.mode(torch.zeros(2, 0), 1),\n"
        "      lambda: torch.mode(x, 2))\n"),
    # cov / corrcoef: composed of sum, div, sub, mm, t, squeeze (and diagonal, sqrt, view, div, clamp)
    "cov_corrcoef": (
        "x = torch.tensor([[1., 5., 2., 8.], [3., 0., 4., 6.]], requires_grad=True)\n"
        "fw = torch.tensor([1, 2, 1, 1])\n"
        "aw = torch.tensor([0.5, 1., 1., 2.])\n"
        "for c in (torch.cov(x), torch.cov(x, correction=0), torch.cov(x, fweights=fw), torch.cov(x, aweights=aw),\n"
        "          torch.cov(x, fweights=fw, aweights=aw), torch.cov(x[0]), x.cov(), torch.corrcoef(x[0]),\n"
        "          x.corrcoef()):\n"
        "    print(c)\n"
        "    walk(c.grad_fn)\n"
        "    c.sum().backward()\n"
        "    print(x.grad)\n"
        "    x.grad = None\n"
        "i = torch.tensor([[1, 2, 4], [0, 3, 3]])\n"
        "print(torch.cov(i), torch.corrcoef(i), torch.cov(x[:, :1]), torch.cov(x, correction=4),\n"
        "      torch.cov(torch.tensor(2.)), torch.corrcoef(torch.tensor([1., 1.])))\n"
        "torch.manual_seed(0)\n"
        "r = torch.randn(4, 50)\n"
        "print(torch.cov(r).round(decimals=5), torch.corrcoef(r.double()).round(decimals=10))\n"
        "tries(lambda: torch.cov(torch.zeros(2, 2, 2)), lambda: torch.cov(x.bool()),\n"
        "      lambda: torch.cov(x, fweights=fw.float()), lambda: torch.cov(x, fweights=fw[:2]),\n"
        "      lambda: torch.cov(x, fweights=-fw), lambda: torch.cov(x, aweights=fw),\n"
        "      lambda: torch.cov(x, aweights=-aw),\n"
        "      lambda: torch.cov(x, aweights=aw[:3]), lambda: torch.cov(x, fweights=fw * 0),\n"
        "      lambda: torch.corrcoef(torch.zeros(2, 2, 2)), lambda: torch.cov(x, fweights=fw.view(2, 2)),\n"
        "      lambda: torch.cov(x, aweights=aw.view(2, 2)))\n"),
    # erfinv: ErfinvBackward0 saving self; its gradient 0.5 * sqrt(pi) * exp(erfinv(x) ** 2) * grad (MulBackward1
    # for the C++ number). Values to 4 decimals where PyTorch's float32 kernel rounds differently.
    "erfinv": (
        "x = torch.tensor([-1., -0.5, 0., 0.3, 0.999, 1., 1.5], requires_grad=True)\n"
        "y = torch.erfinv(x)\n"
        "show(y)\n"
        "y.sum().backward()\n"
        "print(x.grad.round(decimals=3))\n"
        "g, = torch.autograd.grad(x.erfinv().sum(), x, create_graph=True)\n"
        "print(g.grad_fn, g.grad_fn.next_functions, g.grad_fn.next_functions[0][0].next_functions)\n"
        "g[1:5].sum().backward()\n"
        "print(x.grad.round(decimals=2))\n"
        "print(torch.erfinv(torch.tensor([0, 1])), torch.tensor([0.1, 0.2, -0.9999], dtype=torch.float64).erfinv(),\n"
        "      torch.erfinv(torch.tensor(0.5)), torch.tensor([0.25]).erfinv_(), torch.erfinv(torch.tensor([True])))\n"
        "torch.manual_seed(0)\n"
        "r = torch.rand(200) * 2 - 1\n"
        "print(torch.erfinv(r).round(decimals=4).tolist(), torch.erfinv(r.double()).round(decimals=12).tolist())\n"),
}


@pytest.mark.parametrize("name", sorted(SNIPPETS))
def test_snippet_as_pytorch(name):
    t, e = run_both(T, E, SHOW + WALK + SNIPPETS[name])
    assert same(t, e), f"\n--- torch\n{t.summary()}--- engine\n{e.summary()}"
