"""The linear algebra of `engine/_ops_linalg.py` (det, logdet, slogdet, linalg.solve, linalg.solve_ex,
linalg.matrix_power) against real PyTorch: values, dtypes, strides, grad_fn names, saved attributes (the LU and its
pivots), gradients, the graphs of double backward and errors."""
import pytest

T = pytest.importorskip("torch", reason="differential tests need real PyTorch (pip install torch==2.13.0)")
from .harness import SHOW, load_engine, run_both, same, skip_unless_engine_cpu  # noqa: E402

E = load_engine()

# chain(fn) prints the graph below a grad_fn, one node a line
CHAIN = ("def chain(fn, depth=0):\n"
         "    if fn is not None:\n"
         "        print('  ' * depth + type(fn).__name__)\n"
         "        for f, _ in fn.next_functions:\n"
         "            chain(f, depth + 1)\n")

# LAPACK rounds in its own order: values and gradients to 4 decimals (matrices whose results are exact otherwise)
SNIPPETS = {
    # det: LinalgDetBackward0 saving A, the LU (of A.mT for a contiguous A, as PyTorch) and its int32 pivots
    "det": (
        "a = torch.tensor([[1., 2., 0.], [3., 1., 4.], [0.5, 2., 1.]], requires_grad=True)\n"
        "for y in (torch.det(a), a.det(), torch.linalg.det(a), torch.det(a.mT), torch.det(a[::2, ::2]),\n"
        "          torch.det(torch.stack([a, a.mT * 2]))):\n"
        "    show(y)\n"
        "    print(y.grad_fn._saved_LU.stride(), y.grad_fn._saved_pivots.stride())\n"
        "    y.sum().backward()\n"
        "print(a.grad.round(decimals=4), a.grad.stride())\n"
        "print(torch.det(a.double()), torch.det(torch.zeros(2, 2)), torch.det(torch.ones(0, 0)),\n"
        "      torch.det(torch.ones(3, 0, 0)), torch.det(torch.ones(1, 1)), torch.det(torch.ones(2, 2, 2)),\n"
        "      torch.det(torch.tensor([[float('nan'), 1.], [1., 1.]])))\n"),
    # slogdet: one node for (sign, logabsdet), saving the sign; logdet is a where over it (NaN for a negative det)
    "slogdet_logdet": (
        "a = torch.tensor([[1., 2., 0.], [3., 1., 4.], [0.5, 2., 1.]], requires_grad=True)\n"
        "r = torch.slogdet(a)\n"
        "print(r, type(r), r.sign is r[0])\n"
        "show(r.sign)\n"
        "show(r.logabsdet)\n"
        "r = torch.linalg.slogdet(torch.stack([a, -a]))\n"
        "print(r, type(r).__name__)\n"
        "for y in (torch.logdet(a), a.logdet(), torch.logdet(-a), torch.logdet(torch.stack([a, -a]))):\n"
        "    show(y)\n"
        "    chain(y.grad_fn)\n"
        "print(a.slogdet(), torch.slogdet(torch.zeros(2, 2)), torch.logdet(torch.zeros(2, 2)),\n"
        "      torch.slogdet(torch.ones(0, 0)), torch.slogdet(torch.tensor([[float('nan'), 1.], [1., 1.]])))\n"
        "torch.slogdet(a).logabsdet.backward()\n"
        "print(a.grad.round(decimals=4))\n"
        "a.grad = None\n"
        "torch.slogdet(a).sign.backward()\n"
        "print(a.grad)\n"
        "torch.logdet(-a).backward()\n"
        "print(a.grad + 0, a.grad.stride())\n"
        "s = torch.tensor([[1., 2.], [2., 4.]], requires_grad=True)\n"
        "torch.slogdet(s)[1].backward()\n"
        "print(s.grad)\n"),
    # the graphs of the gradients with create_graph: a linalg.solve with A.mT of a diag_embed; for a singular matrix
    # (|det| < 100 eps) det's goes through the SVD; without create_graph a singular matrix's gradient is zero
    "det_double_backward": (
        "a = torch.tensor([[1., 2., 0.], [3., 1., 4.], [0.5, 2., 1.]], requires_grad=True)\n"
        "w = torch.tensor([[1., -2., 0.5], [0.5, 3., 1.], [2., 0., -1.]])\n"
        "for f in (torch.det, lambda x: torch.slogdet(x)[1], torch.logdet,\n"
        "          lambda x: torch.det(torch.stack([x, x.mT * 2]))):\n"
        "    (g,) = torch.autograd.grad(f(a).sum(), a, create_graph=True)\n"
        "    show(g.round(decimals=4))\n"
        "    chain(g.grad_fn)\n"
        "    (g2,) = torch.autograd.grad((g * w).sum(), a)\n"
        "    print(g2.round(decimals=4))\n"
        "for d in (0., 1e-5, 2e-5):\n"
        "    s = torch.tensor([[1., 2.], [2., 4. + d]], requires_grad=True)\n"
        "    (g,) = torch.autograd.grad(torch.det(s), s, create_graph=True)\n"
        "    print(d, g.round(decimals=3), type(g.grad_fn).__name__)\n"
        "chain(g.grad_fn)\n"
        "s = torch.tensor([[1., 2., 3.], [2., 4., 6.], [1., 0., 1.]], requires_grad=True)\n"
        "(g,) = torch.autograd.grad(torch.det(s), s, create_graph=True)\n"
        "print(g.round(decimals=3) + 0, g.grad_fn)\n"
        "torch.det(s).backward()\n"
        "print(s.grad + 0)\n"),
    # linalg.solve: LinalgSolveExBackward0 saving A, its LU (of A itself), left, pivots and the result (stored by
    # columns, as LAPACK leaves it); B a matrix, a vector or a batch of vectors, broadcast against A
    "solve": (
        "a = torch.tensor([[1., 2., 0.], [3., 1., 4.], [0.5, 2., 1.]], requires_grad=True)\n"
        "b = torch.tensor([[1., 2.], [3., 4.], [-1., 0.5]], requires_grad=True)\n"
        "v = torch.tensor([1., -2., 3.], requires_grad=True)\n"
        "for f in (lambda A: torch.linalg.solve(a, b), lambda A: torch.linalg.solve(a, v),\n"
        "          lambda A: torch.linalg.solve(a.mT, b.detach()), lambda A: torch.linalg.solve(a, b.mT, left=False),\n"
        "          lambda A: torch.linalg.solve(A, v), lambda A: torch.linalg.solve(A, A[:, 0]),\n"
        "          lambda A: torch.linalg.solve(A, b),\n"
        "          lambda A: torch.linalg.solve(A, torch.ones(2, 2, 3, 3), left=False)):\n"
        "    y = f(torch.stack([a, a.mT * 2]))\n"
        "    g = y.grad_fn\n"
        "    print(y.round(decimals=4), g, g.next_functions, y.shape, y.stride())\n"
        "    print(g._saved_A, g._saved_left, g._saved_pivots, g._saved_result.round(decimals=4),\n"
        "          g._saved_result.grad_fn, g._saved_LU.round(decimals=4), g._saved_LU.stride())\n"
        "    (y * y.detach()).sum().backward()\n"
        "print(a.grad.round(decimals=4), b.grad.round(decimals=4), v.grad.round(decimals=4), b.grad.stride())\n"
        "print(torch.linalg.solve(torch.tensor([[2., 1.], [1., 3.]], dtype=torch.float64),\n"
        "                         torch.tensor([1., 2.], dtype=torch.float64)))\n"
        "r = torch.linalg.solve_ex(a, b)\n"
        "print(type(r).__name__, r.info, r.result.round(decimals=4))\n"
        "print(torch.linalg.solve_ex(torch.zeros(2, 2), torch.tensor([[1., 2.], [3., 4.]])))\n"
        "print(torch.linalg.solve_ex(torch.stack([torch.eye(2), torch.zeros(2, 2)]), torch.ones(2, 2)))\n"
        "print(torch.linalg.solve(torch.zeros(0, 0), torch.zeros(0)),\n"
        "      torch.linalg.solve(torch.eye(2), torch.zeros(2, 0)))\n"),
    "solve_double_backward": (
        "a = torch.tensor([[1., 2., 0.], [3., 1., 4.], [0.5, 2., 1.]], requires_grad=True)\n"
        "b = torch.tensor([[1., 2.], [3., 4.], [-1., 0.5]], requires_grad=True)\n"
        "v = torch.tensor([1., -2., 3.], requires_grad=True)\n"
        "for f, x in ((lambda: torch.linalg.solve(a, b), b), (lambda: torch.linalg.solve(a, v), v),\n"
        "             (lambda: torch.linalg.solve(a, b.mT, left=False), b),\n"
        "             (lambda: torch.linalg.solve(torch.stack([a, a * 2]), v), v)):\n"
        "    y = f()\n"
        "    ga, gx = torch.autograd.grad((y * y.detach()).sum(), (a, x), create_graph=True)\n"
        "    show(ga.round(decimals=4))\n"
        "    chain(ga.grad_fn)\n"
        "    show(gx.round(decimals=4))\n"
        "    chain(gx.grad_fn)\n"
        "    print([g.round(decimals=3) for g in torch.autograd.grad(ga.sum() + gx.sum(), (a, x))])\n"),
    # matrix_power: a contiguous clone (copied over by eye for 0), linalg.inv for -1, matmuls over |n|'s bits
    "matrix_power": (
        "a = torch.tensor([[1., 0.5], [-1., 2.]], requires_grad=True)\n"
        "for k in (0, 1, 2, 3, 4, 5, 6, 7, -1, -2, -3, -5):\n"
        "    y = torch.linalg.matrix_power(a, k)\n"
        "    print(k, y.round(decimals=4))\n"
        "    chain(y.grad_fn)\n"
        "    y.sum().backward()\n"
        "print(a.grad.round(decimals=4))\n"
        "show(a.matrix_power(0))\n"
        "show(torch.matrix_power(torch.stack([a, a * 2]), 3))\n"
        "i = torch.tensor([[1, 2], [3, 4]])\n"
        "print(torch.linalg.matrix_power(i, 3), i.matrix_power(0), torch.matrix_power(i, 1),\n"
        "      torch.linalg.matrix_power(i.int(), 5).dtype, torch.linalg.matrix_power(torch.ones(0, 0), -1),\n"
        "      torch.linalg.matrix_power(torch.ones(2, 2, dtype=torch.bool), 0))\n"
        "y = torch.linalg.matrix_power(a.detach(), 1)\n"
        "print(y._base is None, y.data_ptr() == a.data_ptr(), torch.linalg.matrix_power(a.detach(), 0).grad_fn)\n"),
    "errors": (
        "L = torch.long\n"
        "a = torch.tensor([[2., 1.], [1., 3.]])\n"
        "tries(lambda: torch.det(torch.ones(2, 3)), lambda: torch.det(torch.ones(3)),\n"
        "      lambda: torch.det(torch.ones(2, 2, dtype=L)), lambda: torch.det(torch.ones(2, 2, dtype=torch.bool)),\n"
        "      lambda: torch.det(torch.ones(3, dtype=L)),\n"
        "      lambda: torch.linalg.det(torch.ones(2, 2, dtype=torch.half)),\n"
        "      lambda: torch.logdet(torch.ones(2, 3)), lambda: torch.logdet(torch.ones(3)),\n"
        "      lambda: torch.logdet(torch.ones(2, 2, dtype=torch.int32)),\n"
        "      lambda: torch.logdet(torch.ones(2, 3, dtype=L)),\n"
        "      lambda: torch.logdet(torch.ones(2, 2, dtype=torch.half)),\n"
        "      lambda: torch.slogdet(torch.ones(2, 3)), lambda: torch.linalg.slogdet(torch.ones(3)),\n"
        "      lambda: torch.slogdet(torch.ones(2, 2, dtype=L)),\n"
        "      lambda: torch.slogdet(torch.ones(2, 2, dtype=torch.half)),\n"
        "      lambda: torch.linalg.solve(torch.zeros(2, 2), a), lambda: torch.linalg.solve(torch.ones(2, 3), a),\n"
        "      lambda: torch.linalg.solve(a, torch.ones(3)), lambda: torch.linalg.solve(a, torch.ones(3, 2)),\n"
        "      lambda: torch.linalg.solve(a, torch.ones(2), left=False),\n"
        "      lambda: torch.linalg.solve(a, torch.ones(2, 3), left=False),\n"
        "      lambda: torch.linalg.solve(torch.ones(2, 2, dtype=L), a), lambda: torch.linalg.solve(a, a.long()),\n"
        "      lambda: torch.linalg.solve(a, a.double()), lambda: torch.linalg.solve(torch.ones(2), a),\n"
        "      lambda: torch.linalg.solve(a, torch.tensor(1.)),\n"
        "      lambda: torch.linalg.solve(torch.ones(2, 3, dtype=L), a),\n"
        "      lambda: torch.linalg.solve(a.half(), a.half()),\n"
        "      lambda: torch.linalg.solve(torch.stack([torch.eye(2), torch.tensor([[1., 2.], [2., 4.]])]), a),\n"
        "      lambda: torch.linalg.solve(torch.tensor([[1., 2.], [2., 4.]]), a),\n"
        "      lambda: torch.linalg.solve(torch.ones(3, 2, 2), torch.ones(4, 2, 2)),\n"
        "      lambda: torch.linalg.solve(torch.eye(2).expand(3, 2, 2), torch.ones(4, 2)),\n"
        "      lambda: torch.linalg.solve_ex(torch.zeros(2, 2), torch.ones(2), check_errors=True),\n"
        "      lambda: torch.linalg.solve_ex(torch.zeros(3, 2, 2), torch.ones(2), check_errors=True),\n"
        "      lambda: torch.linalg.matrix_power(torch.ones(2, 3), 2),\n"
        "      lambda: torch.linalg.matrix_power(torch.ones(3), 0),\n"
        "      lambda: torch.linalg.matrix_power(torch.ones(2, 2, dtype=L), -1),\n"
        "      lambda: torch.linalg.matrix_power(torch.zeros(2, 2), -2),\n"
        "      lambda: torch.linalg.matrix_power(a, 2.0), lambda: torch.matrix_power(a, 1.5),\n"
        "      lambda: a.matrix_power(1.5),\n"
        "      lambda: torch.linalg.matrix_power(a, n=2),\n"
        "      lambda: isinstance(torch.linalg.LinAlgError('x'), RuntimeError),\n"
        "      lambda: (torch.linalg.det.__name__, torch.det.__name__, torch.linalg.solve.__name__,\n"
        "               torch.linalg.solve_ex.__name__, torch.linalg.slogdet.__name__, torch.slogdet.__name__))\n"),
}


@pytest.mark.parametrize("name", sorted(SNIPPETS))
def test_snippet_as_pytorch(name):
    if name == "det_double_backward":       # (singular matrices: zero or not by LAPACK's last bits)
        skip_unless_engine_cpu("det of singular matrices")
    t, e = run_both(T, E, SHOW + CHAIN + SNIPPETS[name])
    assert same(t, e), f"\n--- torch\n{t.summary()}--- engine\n{e.summary()}"
