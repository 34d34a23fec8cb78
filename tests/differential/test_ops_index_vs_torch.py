"""scatter, index_add / fill / copy, nonzero, masked_select, take, take_along_dim, repeat_interleave, tile, the
*stack and *split functions, atleast_*d, ravel, flips, rot90, diagonal, diag_embed, diagflat, unfold, meshgrid,
broadcasting and triangle indices (engine/_ops_index.py) against real PyTorch: values, dtypes, grad_fn names and
saved attributes, gradients (and gradients of gradients), views, in-place forms and errors."""
import pytest

T = pytest.importorskip("torch", reason="differential tests need real PyTorch (pip install torch==2.13.0)")
from .harness import SHOW, load_engine, run_both, same  # noqa: E402

E = load_engine()

# grads(y, *leaves): y's gradients for a fixed upstream gradient, then the gradient of their sum of squares wrt that
# upstream gradient (a double backward through each backward formula); view(y): is y a view, its strides.
HELPERS = (
    "def grads(y, *leaves):\n"
    "    g = (torch.arange(float(y.numel())) * 0.25 - 2).reshape(y.shape).requires_grad_()\n"
    "    gs = torch.autograd.grad(y, leaves, g, create_graph=True, allow_unused=True)\n"
    "    print('grads', [None if a is None else a.tolist() for a in gs])\n"
    "    s = sum((a * a).sum() for a in gs if a is not None and a.requires_grad)\n"
    "    if isinstance(s, torch.Tensor):\n"
    "        print('grad of grads', torch.autograd.grad(s, g)[0].tolist())\n"
    "def view(y):\n"
    "    print('view', y._base is not None, y.is_contiguous(), y.stride(), y.dtype)\n")

SETUP = ("x = torch.arange(12.).reshape(3, 4).requires_grad_()\n"
         "src = (torch.arange(8.).reshape(2, 4) / 3).requires_grad_()\n"
         "idx = torch.tensor([[0, 1, 2, 0], [2, 0, 0, 1]])\n"
         "v = torch.tensor(-1.5, requires_grad=True)\n")

SNIPPETS = {
    "scatter_src_and_value": (
        "for y in (torch.scatter(x, 0, idx, src), x.scatter(1, idx[:, :2], 2.5), x.scatter(-1, idx[:1, :2], "
        "      src[:1, :2]),\n"
        "          torch.scatter(x, 0, idx.int(), src)):\n"
        "    show(y)\n"
        "    grads(y, x, src)\n"
        "d = torch.zeros(3, 4).scatter(0, idx, torch.ones(2, 4, dtype=torch.float64).float())\n"
        "print(d, torch.zeros(5, dtype=torch.int64).scatter(0, torch.tensor([1, 3]), 7))\n"
        "tries(lambda: x.scatter(0, idx + 5, src), lambda: x.scatter(0, idx[0], src), lambda: x.scatter(2, idx, src),\n"
        "      lambda: x.scatter(0, idx, src.double()), lambda: x.scatter(0, idx, src[:1]))\n"),
    "scatter_add": (
        "y = x.scatter_add(0, idx, src)\n"
        "show(y)\n"
        "grads(y, x, src)\n"
        "print(torch.scatter_add(torch.zeros(4), 0, torch.tensor([0, 0, 3, 0]), torch.ones(4)))\n"
        "tries(lambda: x.scatter_add(0, idx - 3, src), lambda: x.scatter_add(0, idx, src[:, :2]))\n"),
    "scatter_in_place": (
        "y = x * 1\n"
        "print(y.scatter_(0, idx, src) is y, y._version)\n"
        "show(y)\n"
        "y.scatter_add_(1, idx, src * 2)\n"
        "show(y)\n"
        "y.scatter_(0, idx, -1.0)\n"
        "show(y)\n"
        "y.sum().backward()\n"
        "print(x.grad, src.grad)\n"
        "leaf = torch.ones(3, 4, requires_grad=True)\n"
        "tries(lambda: leaf.scatter_(0, idx, src), lambda: leaf.detach().scatter_(0, idx, src.detach()).sum())\n"),
    "scatter_reduce": (
        "s2 = torch.tensor([[2., -1., 0.5, 3.], [1., 1., 2., -2.]], requires_grad=True)\n"
        "x2 = torch.tensor([[1., 2., 0.], [4., 5., 6.]], requires_grad=True)\n"
        "i2 = torch.tensor([[0, 1, 0, 2], [2, 2, 1, 1]])\n"
        "for red in ['sum', 'prod', 'mean', 'amax', 'amin']:\n"
        "    for inc in (True, False):\n"
        "        y = x2.scatter_reduce(1, i2, s2, red, include_self=inc)\n"
        "        show(y)\n"
        "        grads(y, x2, s2)\n"
        "z = torch.tensor([[0., 2.], [3., 0.]], requires_grad=True)\n"
        "y = torch.scatter_reduce(z, 0, torch.tensor([[1, 0], [1, 0]]), torch.tensor([[0., 5.], [2., 0.]], "
        "      requires_grad=True), 'prod')\n"
        "show(y)\n"
        "grads(y, z)\n"
        "print(torch.tensor([1, 2, 3]).scatter_reduce(0, torch.tensor([0, 0]), torch.tensor([5, 7]), 'mean'),\n"
        "      torch.tensor([-10, 2]).scatter_reduce(0, torch.tensor([0, 0]), torch.tensor([1, 2]), 'mean'),\n"
        "      torch.tensor([1, 2, 3]).scatter_reduce(0, torch.tensor([0, 2]), torch.tensor([5, 7]), 'amin', "
        "      include_self=False))\n"
        "w = x2.detach().clone()\n"
        "print(w.scatter_reduce_(1, i2, s2.detach(), 'amax'), w._version)\n"
        "tries(lambda: x2.scatter_reduce(1, i2, s2, 'foo'), lambda: x2.scatter_reduce(1, i2 + 3, s2, 'sum'))\n"
        "y = x2.scatter(1, i2, 1.5, reduce='add')\n"
        "show(y)\n"
        "print(x2.scatter(1, i2, 2., reduce='multiply'))\n"
        "tries(lambda: y.sum().backward(), lambda: x2.scatter(1, i2, 2., reduce='sum'))\n"),
    "in_place_forms_on_views": (
        "x2 = torch.tensor([[1., 2., 3.], [4., 5., 6.]], requires_grad=True)\n"
        "s2 = torch.tensor([[2., -1., 0.5, 3.], [1., 1., 2., -2.]], requires_grad=True)\n"
        "b = x2 * 1\n"
        "r = b[1]\n"
        "r.scatter_reduce_(0, torch.tensor([0, 1, 0, 2]), s2[0], 'amax', include_self=False)\n"
        "print(b, r, b.grad_fn, r.grad_fn, r._version, b._version)\n"
        "b.sum().backward()\n"
        "print(x2.grad, s2.grad)\n"
        "b = x2 * 2\n"
        "b.index_add_(1, torch.tensor([0, 2]), s2[:, :2], alpha=-1)\n"
        "show(b)\n"
        "b.pow(2).sum().backward()\n"
        "print(x2.grad, s2.grad)\n"
        "z = torch.zeros(2, 3)\n"
        "z.index_copy_(1, torch.tensor([1]), s2[:, :1])\n"
        "show(z)\n"
        "e = (x2 * 1).t()\n"
        "e.index_fill_(0, torch.tensor([1]), -1.)\n"
        "show(e)\n"
        "print(e._base.grad_fn, e.is_contiguous())\n"
        "tries(lambda: e.scatter_(0, torch.tensor([[0, 1, 2]]), s2[:1, :3]),\n"
        "      lambda: e.scatter_(0, torch.tensor([[0, 5]]), s2[:1, :2]))\n"),
    "index_add": (
        "for y in (x.index_add(0, torch.tensor([0, 2]), src, alpha=2), torch.index_add(x, 0, torch.tensor([1, "
        "      1]), src),\n"
        "          x.index_add(1, torch.tensor([3, 0, 1]), x[:, :3]), x.index_add(-1, torch.tensor([2]).int(), "
        "      src[:1, 1:2].expand(3, 1))):\n"
        "    show(y)\n"
        "    grads(y, x, src)\n"
        "z = torch.zeros(2, 3)\n"
        "print(z.index_add_(1, torch.tensor([0, 0]), torch.ones(2, 2)), z._version)\n"
        "tries(lambda: x.index_add(0, torch.tensor([0, 5]), src), lambda: x.index_add(0, torch.tensor([0., 1]), src),\n"
        "      lambda: x.index_add(0, torch.tensor([0, 1, 2]), src), lambda: x.index_add(0, torch.tensor([[0, "
        "      1]]), src),\n"
        "      lambda: x[0].index_add(0, torch.tensor([4]), src[0, :1]), lambda: x.index_add(0, "
        "      torch.tensor([1]), src[:1, :3]),\n"
        "      lambda: x[0].index_add(0, torch.tensor(1), v), lambda: x.index_add(0, torch.tensor([1]), "
        "      src[:1].double()))\n"),
    "index_fill": (
        "for y in (x.index_fill(1, torch.tensor([0, 2]), -1.), torch.index_fill(x, -1, torch.tensor([3]), v),\n"
        "          x.index_fill(0, torch.tensor([-1]), 7)):\n"
        "    show(y)\n"
        "    grads(y, x, v)\n"
        "y = x * 1\n"
        "y.index_fill_(0, torch.tensor([1]), v * 2)\n"
        "show(y)\n"
        "print(torch.arange(6).index_fill(0, torch.tensor([0, 5]), 9))\n"
        "tries(lambda: x.index_fill(0, torch.tensor([5]), 1.), lambda: x.index_fill(0, torch.tensor([0.]), 1.),\n"
        "      lambda: x.index_fill(0, torch.tensor([0]).int(), 1.), lambda: x.index_fill(0, torch.tensor([0]), "
        "      torch.ones(2)),\n"
        "      lambda: x.index_fill(0, torch.tensor([[0]]), 1.))\n"),
    "index_copy": (
        "for y in (x.index_copy(0, torch.tensor([2, 0]), src), torch.index_copy(x, 1, torch.tensor([1]), x[:, "
        "      :1] * 3)):\n"
        "    show(y)\n"
        "    grads(y, x, src)\n"
        "y = x * 1\n"
        "y.index_copy_(0, torch.tensor([1, 2]), src)\n"
        "show(y)\n"
        "tries(lambda: x.index_copy(0, torch.tensor([5, 0]), src), lambda: x.index_copy(0, torch.tensor([0]), src),\n"
        "      lambda: x.index_copy(0, torch.tensor([0, 1]).int(), src), lambda: x.index_copy(0, "
        "      torch.tensor([[0, 1]]), src),\n"
        "      lambda: x.index_copy(0, torch.tensor([1]), torch.ones(1, 3)), lambda: x.index_copy(0, "
        "      torch.tensor([1]), torch.ones(4)),\n"
        "      lambda: x.index_copy(0, torch.tensor([1, 2]), torch.tensor(1.)), lambda: x.index_copy(0, "
        "      torch.tensor([1]), src[:1].double()),\n"
        "      lambda: torch.tensor(1.).index_copy(0, torch.tensor([0]), torch.tensor(5.)))\n"),
    "layouts_of_results": (
        "m = torch.arange(12.).reshape(4, 3).t()\n"
        "i = torch.tensor([[0, 1, 2, 0]])\n"
        "for y in (m.scatter(0, i, 1.), m.scatter_add(0, i, torch.ones(1, 4)),\n"
        "          m.scatter_reduce(0, i, torch.ones(1, 4), 'amax'),\n"
        "          m.index_add(0, torch.tensor([1]), torch.ones(1, 4)), m.index_fill(0, torch.tensor([1]), 2.),\n"
        "          m.index_copy(0, torch.tensor([1]), torch.ones(1, 4)), torch.diag_embed(m), m.masked_select(m > 2),\n"
        "          m.take(torch.tensor([[1, 2], [3, 4]]).t()), m.repeat_interleave(torch.tensor([1, 1, 1]), 0)):\n"
        "    print(y.stride(), y.flatten().tolist())\n"),
    "nonzero_and_argwhere": (
        "a = torch.tensor([[0., 1.5, 0.], [2., 0., -1.]])\n"
        "for r in (torch.nonzero(a), a.nonzero(), torch.argwhere(a), a.argwhere(), torch.nonzero(a, as_tuple=True),\n"
        "          a.nonzero(as_tuple=True), torch.nonzero(torch.tensor(3.)), torch.nonzero(torch.tensor(0)),\n"
        "          torch.nonzero(torch.tensor(3.), as_tuple=True), torch.nonzero(torch.zeros(2, 0)),\n"
        "          torch.nonzero(torch.tensor([True, False, True])), torch.nonzero(x)):\n"
        "    print(r, [t.dtype for t in r] if isinstance(r, tuple) else (r.dtype, r.shape))\n"),
    "masked_select": (
        "m = torch.tensor([True, False, True, True])\n"
        "for y in (torch.masked_select(x, m), x.masked_select(x > 5), torch.masked_select(x[0], m.view(1, "
        "      4).expand(2, 4))):\n"
        "    show(y)\n"
        "    grads(y, x)\n"
        "tries(lambda: torch.masked_select(x, x.long()), lambda: torch.masked_select(x, m[:3]))\n"),
    "take": (
        "for y in (torch.take(x, torch.tensor([[0, 5], [11, -1]])), x.t().take(torch.tensor([1, 1, 2])),\n"
        "          torch.take(v, torch.tensor([0, 0]))):\n"
        "    show(y)\n"
        "    grads(y, x, v)\n"
        "tries(lambda: torch.take(x, torch.tensor([12])), lambda: torch.take(x, torch.tensor([1.])),\n"
        "      lambda: torch.take(x, torch.tensor([-13])), lambda: torch.take(x, torch.tensor([1]).int()))\n"),
    "take_along_dim": (
        "for y in (torch.take_along_dim(x, idx, 0), torch.take_along_dim(x, torch.tensor([[1], [2], [0]]), 1),\n"
        "          x.take_along_dim(torch.tensor([[3, 0]]), dim=-1), torch.take_along_dim(x, torch.tensor([3, 0, "
        "      3]))):\n"
        "    show(y)\n"
        "    grads(y, x)\n"
        "print(torch.take_along_dim(x, x.argmax(1, keepdim=True), 1))\n"
        "tries(lambda: torch.take_along_dim(x, idx.int(), 0), lambda: torch.take_along_dim(x, idx[0], 0),\n"
        "      lambda: torch.take_along_dim(x.t(), torch.tensor([1])))\n"),
    "repeat_interleave": (
        "for y in (torch.repeat_interleave(x, 2), x.repeat_interleave(2, dim=1), x.repeat_interleave(3, -2),\n"
        "          torch.repeat_interleave(x, torch.tensor([1, 0, 2]), dim=0), "
        "      x.repeat_interleave(torch.tensor([2])),\n"
        "          x.repeat_interleave(torch.tensor(2), dim=1), v.repeat_interleave(3)):\n"
        "    show(y)\n"
        "    print(y.grad_fn.next_functions[0][0].next_functions)\n"
        "    grads(y, x, v)\n"
        "print(torch.repeat_interleave(torch.tensor([2, 0, 3])), torch.repeat_interleave(torch.tensor([1, 2]).int()))\n"
        "print(torch.arange(4).repeat_interleave(2), torch.tensor([[1, 2], [3, 4]]).repeat_interleave(2, 0))\n"
        "tries(lambda: torch.repeat_interleave(x, torch.tensor([1, 2]), dim=0), lambda: "
        "      torch.repeat_interleave(x, -1),\n"
        "      lambda: torch.repeat_interleave(torch.tensor([-1, 2])), lambda: x.repeat_interleave(2, dim=2))\n"),
    "tile_and_atleast": (
        "w = torch.arange(3.).requires_grad_()\n"
        "for y in (x.tile(2), torch.tile(x, (2, 1, 1)), w.tile(2, 2), torch.tile(x, ())):\n"
        "    show(y)\n"
        "    grads(y, x, w)\n"
        "for y in (torch.atleast_1d(v), torch.atleast_2d(w), torch.atleast_3d(x), torch.atleast_3d(w),\n"
        "          torch.atleast_3d(v), torch.atleast_2d(v), torch.atleast_1d(x)):\n"
        "    show(y)\n"
        "    view(y)\n"
        "print(torch.atleast_1d(v, w), torch.atleast_2d([v, w]), torch.atleast_3d((w,)))\n"),
    "stacks": (
        "w = torch.arange(3.).requires_grad_()\n"
        "a = x[:2, :3]\n"
        "for y in (torch.hstack([w, w]), torch.hstack((a, a * 2)), torch.vstack([w, w]), torch.vstack([a, w]),\n"
        "          torch.row_stack([w, a]), torch.dstack([a, a]), torch.dstack([w, w]), torch.column_stack([w, "
        "      a.t()]),\n"
        "          torch.column_stack((v, v)), torch.hstack([v, w])):\n"
        "    show(y)\n"
        "    grads(y, x, w, v)\n"
        "tries(lambda: torch.hstack([]), lambda: torch.vstack([a, w[:2]]), lambda: torch.dstack(a))\n"),
    "splits": (
        "for ps in (torch.tensor_split(x, 2, dim=1), x.tensor_split([1, 3], 1), torch.tensor_split(x, "
        "      torch.tensor([1])),\n"
        "           torch.tensor_split(x, 5, 1), torch.tensor_split(x, torch.tensor(2), -1), torch.hsplit(x, 2),\n"
        "           x.hsplit([1]), torch.vsplit(x, 3), torch.hsplit(x[0], 2), torch.dsplit(x.view(1, 3, 4), [2])):\n"
        "    print(len(ps))\n"
        "    for p in ps:\n"
        "        show(p)\n"
        "        view(p)\n"
        "    grads(ps[-1], x)\n"
        "tries(lambda: torch.hsplit(x, 3), lambda: torch.vsplit(x[0], 1), lambda: torch.dsplit(x, 1),\n"
        "      lambda: torch.tensor_split(x, 0), lambda: torch.tensor_split(x, torch.tensor([[1]])),\n"
        "      lambda: torch.tensor_split(torch.tensor(1.), 1), lambda: torch.tensor_split(x, 3, dim=2))\n"),
    "ravel_and_flips": (
        "for y in (x.ravel(), torch.ravel(x.t()), x.fliplr(), torch.flipud(x), torch.flipud(x[0]), v.ravel()):\n"
        "    show(y)\n"
        "    view(y)\n"
        "    grads(y, x, v)\n"
        "tries(lambda: x[0].fliplr(), lambda: torch.flipud(v))\n"),
    "rot90": (
        "y3 = x.view(3, 2, 2)\n"
        "for y in (torch.rot90(x), x.rot90(2), torch.rot90(x, -1, [0, 1]), torch.rot90(x, 0), torch.rot90(x, 5, "
        "      (1, 0)),\n"
        "          y3.rot90(1, [2, 0]), torch.rot90(x, 3), y3.permute(2, 0, 1).rot90(1, [1, 2]),\n"
        "          y3.permute(2, 0, 1).rot90(0), x.t().rot90(2)):\n"
        "    show(y)\n"
        "    view(y)\n"
        "    grads(y, x)\n"
        "tries(lambda: torch.rot90(x, 1, [0]), lambda: torch.rot90(x, 1, [0, 0]), lambda: torch.rot90(x[0]),\n"
        "      lambda: torch.rot90(x, 1, [0, 2]), lambda: torch.rot90(x, 1, [0, -2]))\n"),
    "diagonal": (
        "c = x.view(3, 2, 2)\n"
        "for y in (x.diagonal(), torch.diagonal(x, 1), torch.diagonal(x, -1, 1, 0), x.diagonal(offset=5),\n"
        "          c.diagonal(0, -1, 0), torch.diagonal(c, 1, 1, 2), x.t().diagonal(-1)):\n"
        "    show(y)\n"
        "    view(y)\n"
        "    grads(y, x)\n"
        "z = torch.zeros(3, 3)\n"
        "d = z.diagonal()\n"
        "d += 1\n"
        "print(z, d._base is z, d._version, z._version)\n"
        "y = x * 1\n"
        "y.diagonal().mul_(v)\n"
        "show(y)\n"
        "grads(y, x, v)\n"
        "tries(lambda: torch.diagonal(x, 0, 0, 0), lambda: torch.diagonal(x[0]), lambda: x.diagonal(0, 0, 2))\n"),
    "diag_embed_and_diagflat": (
        "for y in (torch.diag_embed(x), x.diag_embed(1), torch.diag_embed(x, -1, 0, 2), torch.diag_embed(x[0], "
        "      0, 1, 0),\n"
        "          torch.diagflat(x[0]), x[:2, :2].diagflat(-1), torch.diagflat(v)):\n"
        "    show(y)\n"
        "    grads(y, x, v)\n"
        "tries(lambda: torch.diag_embed(x, 0, 0, 0), lambda: torch.diag_embed(x, 0, 0, 3), lambda: "
        "      torch.diag_embed(v))\n"),
    "unfold": (
        "w = torch.arange(5.).requires_grad_()\n"
        "for y in (x.unfold(1, 2, 1), w.unfold(0, 2, 1), x.unfold(0, 2, 2), w.unfold(-1, 3, 2), x.unfold(1, 1, "
        "      3), v.unfold(0, 1, 1)):\n"
        "    show(y)\n"
        "    view(y)\n"
        "    grads(y, x, w, v)\n"
        "z = torch.zeros(6)\n"
        "z.unfold(0, 2, 2)[:, 0] += 1\n"
        "print(z)\n"
        "tries(lambda: x.unfold(1, 5, 1), lambda: x.unfold(1, 2, 0), lambda: x.unfold(2, 1, 1), lambda: "
        "      v.unfold(0, 2, 1))\n"),
    "swapaxes_in_place": (
        "y = x * 1\n"
        "print(y.swapaxes_(0, 1) is y, y.shape, y.stride(), y._version)\n"
        "show(y)\n"
        "y.swapdims_(1, 0)\n"
        "show(y)\n"
        "grads(y, x)\n"),
    "meshgrid": (
        "a = torch.arange(3.).requires_grad_()\n"
        "b = torch.arange(2.).requires_grad_()\n"
        "for gs in (torch.meshgrid(a, b, indexing='ij'), torch.meshgrid([a, b], indexing='xy'), "
        "      torch.meshgrid((a, b, v), indexing='xy'),\n"
        "           torch.meshgrid(a, indexing='xy'), torch.meshgrid(v, a, indexing='ij')):\n"
        "    for y in gs:\n"
        "        show(y)\n"
        "        view(y)\n"
        "    grads(gs[0] * gs[-1], a, b, v)\n"
        "tries(lambda: torch.meshgrid(a, b, indexing='foo'), lambda: torch.meshgrid(a, b.double(), indexing='ij'))\n"),
    "broadcasting_and_cartesian_prod": (
        "a = torch.arange(3.).requires_grad_()\n"
        "b = torch.arange(2.).requires_grad_()\n"
        "for y in torch.broadcast_tensors(a.view(3, 1), b, torch.tensor(1.)) + torch.broadcast_tensors(x, a[:1]):\n"
        "    show(y)\n"
        "    view(y)\n"
        "print(torch.broadcast_shapes((2, 1), (3,), 1, ()), torch.broadcast_shapes(), torch.broadcast_shapes([4, "
        "      1], (1, 5)))\n"
        "for y in (torch.cartesian_prod(a, b), torch.cartesian_prod(a, b, a)):\n"
        "    show(y)\n"
        "    grads(y, a, b)\n"
        "print(torch.cartesian_prod(a) is a)\n"
        "tries(lambda: torch.broadcast_shapes((2,), (3,)), lambda: torch.broadcast_shapes((2, 3), (5, 1, 2)),\n"
        "      lambda: torch.broadcast_tensors(a, b), lambda: torch.broadcast_tensors([a, b]))\n"),
    "triangle_indices": (
        "print(torch.tril_indices(3, 3), torch.triu_indices(3, 4, 1), torch.tril_indices(2, 3, -1, "
        "      dtype=torch.int32),\n"
        "      torch.triu_indices(3, 3, -1), torch.tril_indices(0, 3), torch.triu_indices(4, 2, offset=5))\n"
        "m = torch.arange(9.).view(3, 3).requires_grad_()\n"
        "i = torch.triu_indices(3, 3, 1)\n"
        "y = m[i[0], i[1]]\n"
        "show(y)\n"
        "grads(y, m)\n"),
}


@pytest.mark.parametrize("name", sorted(SNIPPETS))
def test_snippet_as_pytorch(name):
    t, e = run_both(T, E, SHOW + HELPERS + SETUP + SNIPPETS[name])
    assert same(t, e), f"\n--- torch\n{t.summary()}--- engine\n{e.summary()}"
