"""torch.linalg's matrix decompositions against real PyTorch: linalg.cholesky / cholesky_ex, linalg.eigh / eigvalsh,
linalg.qr, linalg.lu / lu_factor / lu_factor_ex / lu_solve, linalg.solve_triangular, and torch.cholesky_solve /
cholesky_inverse / cholesky / qr / triangular_solve (and the smaller linalg.diagonal / vecdot / vander / inv_ex /
tensorinv / tensorsolve):
values, strides (LAPACK's column-major results), the torch.return_types results and their printing, grad_fn names
and saved attributes, gradients and double backward (through PyTorch's formulas: the gradients' own grad_fn shows
which op ends them), and errors word for word.

Eigenvector signs: numpy's LAPACK (OpenBLAS) and PyTorch's MKL agree for 2 x 2 matrices and for n > 25, but for
3 <= n <= 25 MKL's syevd flips some eigenvectors (no rule found: about half the random matrices), so snippets print
eigenvectors of larger matrices by what does not depend on signs (V.abs(), V * V, V diag V^T). QR's signs agree."""
import pytest

T = pytest.importorskip("torch", reason="differential tests need real PyTorch (pip install torch==2.13.0)")
from .harness import SHOW, load_engine, run_both, same, skip_unless_engine_cpu  # noqa: E402

E = load_engine()

R = '''
def r(t):
    """t rounded (no last-bit noise), -0. as 0."""
    return None if t is None else torch.round(t.detach().double() * 1e3) / 1e3 + 0.0
def spd(*s, dtype=torch.float64, seed=0):
    torch.manual_seed(seed)
    M = torch.randn(*s, dtype=dtype)
    return M @ M.mT + s[-1] * torch.eye(s[-1], dtype=dtype)
'''

SNIPPETS = {
    # linalg.cholesky: L lower triangular (upper=True: U from A's upper triangle), LAPACK's column-major strides (a
    # dim of size 1 included), one LinalgCholeskyExBackward0 saving the output L and upper; cholesky_ex returns
    # return_types.linalg_cholesky_ex(L, info) with an int32 info that has no grad_fn
    "cholesky_values_and_node": '''
A = torch.tensor([[4., 2.], [2., 3.]], requires_grad=True)
show(torch.linalg.cholesky(A))
show(torch.linalg.cholesky(A, upper=True))
res = torch.linalg.cholesky_ex(A)
print(res, type(res), res.info.requires_grad, res.info.grad_fn)
print(torch.linalg.cholesky(torch.tensor([[4., 100.], [2., 3.]]), upper=True))
for s in [(1, 1), (3, 3), (2, 3, 3), (3, 1, 1), (0, 0), (2, 0, 0), (0, 2, 2)]:
    for dt in [torch.float32, torch.float64]:
        A = spd(*s, dtype=dt) if 0 not in s else torch.empty(s, dtype=dt)
        L = torch.linalg.cholesky(A)
        print(s, r(L), L.stride(), L.dtype, r(torch.linalg.cholesky(A, upper=True)).stride())
''',
    # a matrix that is not positive-definite: linalg.LinAlgError naming the leading minor (and the first failing batch
    # element); cholesky_ex gives info instead, with L as potrf left it (the failing pivot unrooted, the rest as given)
    "cholesky_not_positive_definite": '''
B = torch.tensor([[1., 2.], [2., 1.]])
S = torch.stack([torch.eye(2), B, -torch.eye(2), torch.zeros(2, 2)])
tries(lambda: torch.linalg.cholesky(B), lambda: torch.linalg.cholesky(S), lambda: torch.linalg.cholesky(S[2:]),
      lambda: torch.linalg.cholesky_ex(B), lambda: torch.linalg.cholesky_ex(S),
      lambda: torch.linalg.cholesky_ex(B, check_errors=True), lambda: torch.linalg.cholesky_ex(S, upper=True),
      lambda: torch.linalg.cholesky(S.reshape(2, 2, 2, 2)),
      lambda: torch.linalg.cholesky_ex(torch.tensor([[1., 2., 3.], [2., 1., 0.], [3., 0., 1.]])),
      lambda: torch.linalg.cholesky_ex(torch.tensor([[1., 0., 3.], [0., 1., 0.], [3., 0., 1.]]), upper=True))
for n in [3, 4, 5]:
    torch.manual_seed(n)
    M = torch.randn(n, n, dtype=torch.float64)
    res = torch.linalg.cholesky_ex(M + M.mT)
    print(r(res.L), res.info)
''',
    # the argument checks of linalg.cholesky / cholesky_ex, in PyTorch's order and words
    "cholesky_argument_errors": '''
tries(lambda: torch.linalg.cholesky(torch.ones(2, 3)), lambda: torch.linalg.cholesky(torch.ones(3)),
      lambda: torch.linalg.cholesky(torch.ones(2, 2, dtype=torch.int64)), lambda: torch.linalg.cholesky(torch.eye(2).half()),
      lambda: torch.linalg.cholesky(torch.eye(2), upper=1), lambda: torch.linalg.cholesky(torch.eye(2), True),
      lambda: torch.linalg.cholesky_ex(torch.eye(2), check_errors=1), lambda: torch.linalg.cholesky([[1.]]),
      lambda: torch.linalg.cholesky_ex([[1.]]), lambda: torch.linalg.cholesky(input=torch.eye(2)))
''',
    # the gradient is cholesky_backward's: L^{-H} Phi(L^H gL) L^{-1} by two triangular solves (the gradient's grad_fn
    # is LinalgSolveTriangularBackward0), symmetric, upper=True through the transposes; double backward through it
    "cholesky_gradients": '''
for s, upper in [((2, 2), False), ((3, 3), True), ((2, 3, 3), False), ((1, 1), True)]:
    A = spd(*s).requires_grad_()
    L = torch.linalg.cholesky(A, upper=upper)
    W = torch.randn(L.shape, dtype=L.dtype)
    g, = torch.autograd.grad((L * W).sum() + (L ** 2).sum(), A, create_graph=True)
    print(r(g), g.grad_fn, g.grad_fn.next_functions)
    print(r(torch.autograd.grad((g ** 2).sum(), A)[0]))
A = torch.tensor([[4., 2.], [2., 3.]], requires_grad=True)
L = torch.linalg.cholesky_ex(A).L
L.sum().backward()
print(A.grad)
L = torch.linalg.cholesky(A)
L.mul_(2)
tries(lambda: L.sum().backward())
''',
    # linalg.eigh: return_types.linalg_eigh(eigenvalues, eigenvectors), both outputs of one LinalgEighBackward0 that
    # saves both; eigenvalues ascending, eigenvectors column-major; eigvalsh is eigh's node too (the eigenvectors
    # saved); UPLO reads the lower or upper triangle ('l' / 'u' too)
    "eigh_result_and_node": '''
A = torch.tensor([[2., 1., 0.], [1., 3., 1.], [0., 1., 4.]], requires_grad=True)
res = torch.linalg.eigh(A)
print(res, type(res))
show(res.eigenvalues)
print(res.eigenvectors.grad_fn is res.eigenvalues.grad_fn, res.eigenvectors.output_nr, res.eigenvectors.stride())
show(torch.linalg.eigvalsh(A))
B = torch.tensor([[2., 1.], [7., 2.]])
print(torch.linalg.eigh(B), torch.linalg.eigh(B, 'U'), torch.linalg.eigvalsh(B, UPLO='u'))
for s in [(1, 1), (2, 2), (2, 2, 2), (0, 0), (3, 0, 0)]:
    for dt in [torch.float32, torch.float64]:
        A = spd(*s, dtype=dt) if 0 not in s else torch.empty(s, dtype=dt)
        w, V = torch.linalg.eigh(A)
        print(s, r(w), r(V), w.stride(), V.stride(), r(torch.linalg.eigvalsh(A)))
for n in [3, 5, 8]:
    w, V = torch.linalg.eigh(spd(2, n))
    print(r(w), r(V.abs()), V.stride())
''',
    # eigh's gradient (linalg_eig_backward for a Hermitian A): V (skew(V^H gV) / (L_j - L_i) + diag(gL)) V^H, which
    # ends in a matmul (MmBackward0; UnsafeViewBackward0 batched); eigenvalues alone: V diag(gL) V^H; losses that do
    # not depend on the eigenvectors' signs; double backward through it (eigvalsh's too: its saved eigenvectors are
    # an output of the node)
    "eigh_gradients": '''
for s in [(2, 2), (3, 3), (2, 4, 4)]:
    for dt in [torch.float32, torch.float64]:
        A = spd(*s, dtype=dt).requires_grad_()
        w, V = torch.linalg.eigh(A)
        D = torch.arange(1., s[-1] + 1, dtype=dt)
        g, = torch.autograd.grad(((V * D) @ V.mT).pow(2).sum() + w.sum() + (V * V * D).sum(), A, create_graph=True)
        print(r(g), g.grad_fn)
        print(r(torch.autograd.grad(g.pow(2).sum(), A)[0]))
        g, = torch.autograd.grad(torch.linalg.eigvalsh(A).pow(2).sum(), A, create_graph=True)
        print(r(g), g.grad_fn)
        print(r(torch.autograd.grad(g.pow(2).sum(), A)[0]))
A = torch.tensor([[2., 1.], [1., 2.]], requires_grad=True)
w, V = torch.linalg.eigh(A)
V.register_hook(lambda g: print("V", g))
w.register_hook(lambda g: print("w", g))
(w[1] + V[0, 0]).backward()
print(A.grad)
''',
    # eigh's errors and types
    "eigh_errors": '''
tries(lambda: torch.linalg.eigh(torch.eye(2), UPLO='X'), lambda: torch.linalg.eigh(torch.eye(2), 'LU'),
      lambda: torch.linalg.eigvalsh(torch.eye(2), 'Q'), lambda: torch.linalg.eigh(torch.eye(2), UPLO=1),
      lambda: torch.linalg.eigh(torch.ones(2, 3)), lambda: torch.linalg.eigh(torch.ones(3)),
      lambda: torch.linalg.eigh(torch.ones(2, 2, dtype=torch.int64)), lambda: torch.linalg.eigh(torch.eye(2).half()),
      lambda: torch.linalg.eigvalsh(torch.ones(2, 2, dtype=torch.bool)), lambda: torch.linalg.eigvalsh(torch.ones(2, 3)),
      lambda: torch.linalg.eigh([[1.]]), lambda: torch.linalg.eigh(input=torch.eye(2)))
''',
    # linalg.qr: Householder QR (R's diagonal signs as geqrf gives them), modes reduced / complete / r (Q an empty
    # tensor, still an output of the node); return_types.linalg_qr; LinalgQrBackward0 saving Q, R and mode;
    # column-major Q and R; empty inputs
    "qr_modes_and_node": '''
A = torch.tensor([[2., 1.], [1., 3.], [0., 1.]], requires_grad=True)
for mode in ['reduced', 'complete', 'r']:
    res = torch.linalg.qr(A, mode=mode)
    print(res, type(res), res.Q.stride(), res.R.stride())
    show(res.R)
print(torch.linalg.qr(A.mT), torch.linalg.qr(A.mT, 'complete').R.stride())
for s in [(1, 1), (4, 2), (2, 4), (2, 3, 3), (1, 3), (3, 1)]:
    for dt in [torch.float32, torch.float64]:
        torch.manual_seed(1)
        x = torch.randn(s, dtype=dt)
        Q, R_ = torch.linalg.qr(x)
        print(s, r(Q), r(R_), Q.stride(), R_.stride(), torch.linalg.qr(x, 'complete').Q.stride())
tries(lambda: torch.linalg.qr(torch.empty(0, 0)), lambda: torch.linalg.qr(torch.empty(2, 0, 3)),
      lambda: torch.linalg.qr(torch.empty(3, 0), mode='complete'), lambda: torch.linalg.qr(torch.empty(0, 3), 'r'))
''',
    # QR's gradient (linalg_qr_backward): tall and square through a triangular solve with R^H (its grad_fn), wide
    # through R's first columns and a cat of zeros; mode='r' and a tall 'complete' have no derivative (errors at
    # backward, in PyTorch's words); double backward
    "qr_gradients": '''
for s in [(3, 2), (3, 3), (2, 4), (2, 3, 2), (2, 2, 3)]:
    torch.manual_seed(2)
    A = torch.randn(s, dtype=torch.float64, requires_grad=True)
    Q, R_ = torch.linalg.qr(A)
    D = torch.arange(1., Q.shape[-1] + 1, dtype=A.dtype)
    g, = torch.autograd.grad((R_ * R_).sum() + (Q * Q * D).sum() + (Q @ R_).sum(), A, create_graph=True)
    print(r(g), g.grad_fn)
    print(r(torch.autograd.grad(g.pow(2).sum(), A)[0]))
    print(r(torch.autograd.grad(torch.linalg.qr(A).R.sum(), A)[0]), r(torch.autograd.grad(torch.linalg.qr(A).Q.sum(), A)[0]))
    tries(lambda: r(torch.autograd.grad(torch.linalg.qr(A, 'complete').R.pow(2).sum(), A)[0]),
          lambda: torch.autograd.grad(torch.linalg.qr(A, 'r').R.sum(), A))
''',
    # qr's argument errors
    "qr_errors": '''
tries(lambda: torch.linalg.qr(torch.eye(2), mode='x'), lambda: torch.linalg.qr(torch.eye(2), 'R'),
      lambda: torch.linalg.qr(torch.eye(2), mode=1), lambda: torch.linalg.qr(torch.ones(3)),
      lambda: torch.linalg.qr(torch.ones(2, 2, dtype=torch.int64)), lambda: torch.linalg.qr(torch.eye(2).half()),
      lambda: torch.linalg.qr([[1.]]), lambda: torch.linalg.qr(torch.zeros(2, 2)),
      lambda: torch.linalg.qr(torch.tensor([[1., 2.], [2., 4.]])))
''',
    # linalg.solve_triangular: only A's triangle read (unitriangular: its diagonal taken as ones), B broadcast against
    # A's batch, column-major results for left and right; LinalgSolveTriangularBackward0 saving self (A), result and
    # the flags; gradients gB = solve_triangular(A^H, g), gA = -gB X^H in A's triangle; double backward; a zero on the
    # diagonal gives inf / nan (no error); upper is required
    "solve_triangular": '''
A = torch.tensor([[2., 7.], [1., 3.]], requires_grad=True)
B = torch.tensor([[1., 2., 3.], [4., 5., 6.]], requires_grad=True)
for upper, left, unit in [(False, True, False), (True, True, False), (False, False, True), (True, False, False)]:
    X = torch.linalg.solve_triangular(A, B if left else B.mT, upper=upper, left=left, unitriangular=unit)
    show(X)
    print(X.stride())
    g = torch.autograd.grad((X * X).sum(), (A, B), create_graph=True)
    print(r(g[0]), r(g[1]), g[0].grad_fn, g[1].grad_fn)
    print(r(torch.autograd.grad(g[0].sum() + g[1].pow(2).sum(), A)[0]))
X = torch.linalg.solve_triangular(spd(2, 3, 3), torch.ones(4, 1, 3, 2, dtype=torch.float64), upper=True)
print(X.shape, X.stride(), r(X[0, 0]))
tries(lambda: torch.linalg.solve_triangular(torch.zeros(2, 2), torch.ones(2, 1), upper=False),
      lambda: torch.linalg.solve_triangular(torch.eye(2), torch.ones(2, 2)),
      lambda: torch.linalg.solve_triangular(torch.eye(2), torch.ones(2, 2), True),
      lambda: torch.linalg.solve_triangular(torch.eye(2), torch.ones(2), upper=True),
      lambda: torch.linalg.solve_triangular(torch.eye(2), torch.ones(3, 2), upper=True),
      lambda: torch.linalg.solve_triangular(torch.eye(2), torch.ones(3, 2), upper=True, left=False),
      lambda: torch.linalg.solve_triangular(torch.ones(2, 3), torch.ones(2, 2), upper=True),
      lambda: torch.linalg.solve_triangular(torch.ones(3, 2, 2), torch.ones(4, 2, 1), upper=True),
      lambda: torch.linalg.solve_triangular(torch.eye(2, dtype=torch.int64), torch.eye(2, dtype=torch.int64), upper=True),
      lambda: torch.linalg.solve_triangular(torch.eye(2), torch.eye(2).double(), upper=True).dtype,
      lambda: torch.linalg.solve_triangular(torch.eye(2), torch.eye(2), upper=1),
      lambda: torch.linalg.solve_triangular([[1.]], torch.eye(1), upper=True))
''',
    # torch.cholesky_solve(B, L) and torch.cholesky_inverse(L): CholeskySolveBackward0 (saving input2, result, self,
    # upper) and CholeskyInverseBackward0 (result, self, upper), PyTorch's gradients and double backward; a zero on
    # L's diagonal is an error for cholesky_inverse; their argument errors
    "cholesky_solve_and_inverse": '''
for s, upper in [((2, 2), False), ((3, 3), True), ((2, 3, 3), False)]:
    A = spd(*s).requires_grad_()
    B = torch.randn(s[:-1] + (2,), dtype=A.dtype, requires_grad=True)
    L = torch.linalg.cholesky(A, upper=upper)
    X = torch.cholesky_solve(B, L, upper)
    show(X)
    print(X.stride())
    g = torch.autograd.grad(X.pow(2).sum(), (A, B), create_graph=True)
    print(r(g[0]), r(g[1]), g[0].grad_fn, g[1].grad_fn)
    print(r(torch.autograd.grad(g[0].sum() + g[1].pow(2).sum(), (A, B))[1]))
    Y = torch.cholesky_inverse(L, upper=upper)
    show(Y)
    g, = torch.autograd.grad(Y.pow(2).sum(), A, create_graph=True)
    print(r(g), g.grad_fn)
    print(r(torch.autograd.grad(g.sum(), A)[0]))
z = torch.eye(2).expand(3, 2, 2).clone()
z[1, 1, 1] = 0
L = torch.tensor([[2., 0.], [1., 3.]])
tries(lambda: torch.cholesky_inverse(torch.zeros(2, 2)), lambda: torch.cholesky_inverse(z),
      lambda: torch.cholesky_inverse(torch.ones(2, 3)), lambda: torch.cholesky_inverse(torch.ones(2)),
      lambda: torch.cholesky_inverse(torch.eye(2, dtype=torch.int64)), lambda: torch.cholesky_inverse(torch.empty(0, 0)),
      lambda: torch.cholesky_solve(torch.ones(2, 1), torch.ones(2, 3)), lambda: torch.cholesky_solve(torch.ones(2), L),
      lambda: torch.cholesky_solve(torch.ones(2, 1).double(), L), lambda: torch.cholesky_solve(torch.ones(3, 2), L),
      lambda: torch.cholesky_solve(torch.ones(3, 2, 1), L), lambda: torch.ones(2, 1).cholesky_solve(L, True),
      lambda: L.cholesky_inverse(), lambda: torch.cholesky_solve(torch.ones(2, 1).long(), L.long()))
''',
    # the deprecated torch.cholesky (CholeskyBackward0, saving result and upper), torch.qr (return_types.qr, reduced
    # unless some=False) and torch.triangular_solve (return_types.triangular_solve: the solution and a copy of A, both
    # outputs of TriangularSolveBackward0), and their methods; their warnings are given once per process
    "deprecated_torch_functions": '''
import warnings
warnings.simplefilter("ignore")
A = torch.tensor([[4., 2.], [2., 3.]], requires_grad=True)
show(torch.cholesky(A))
show(A.cholesky(upper=True))
torch.cholesky(A, True).sum().backward()
print(A.grad)
q = torch.qr(A)
print(q, type(q), A.qr(some=False).Q.grad_fn._saved_mode)
T_ = torch.tensor([[2., 0.], [1., 3.]], requires_grad=True)
b = torch.tensor([[1., 2., 3.], [4., 5., 6.]], requires_grad=True)
for upper, transpose, unit in [(False, False, False), (True, True, False), (False, True, True)]:
    t = torch.triangular_solve(b, T_, upper=upper, transpose=transpose, unitriangular=unit)
    print(t, type(t), t.solution.stride(), t.cloned_coefficient.stride())
    show(t.solution)
    g = torch.autograd.grad((t.solution ** 2).sum() + t.cloned_coefficient.sum(), (T_, b))
    print(g)
print(b.triangular_solve(T_, False))
tries(lambda: torch.triangular_solve(torch.ones(2), torch.eye(2)),
      lambda: torch.triangular_solve(torch.ones(2, 1), torch.eye(3)),
      lambda: torch.triangular_solve(torch.ones(2, 1), torch.ones(2, 3)),
      lambda: torch.triangular_solve(torch.ones(2, 1).double(), torch.eye(2)))
''',
    # linalg.diagonal (torch.diagonal over the last two dims), vecdot (vdot for two vectors, else a product summed),
    # vander (ones catted to a cumprod), inv_ex (info instead of the error; a singular matrix's inverse as the
    # substitutions give it), tensorinv / tensorsolve (inv / solve of reshaped tensors): PyTorch's compositions,
    # their nodes and errors
    "other_linalg_functions": '''
x = torch.tensor([1., 2., 3.], requires_grad=True)
A = torch.tensor([[2., 1.], [1., 3.]], requires_grad=True)
show(torch.linalg.diagonal(A, offset=1))
show(torch.linalg.vecdot(x, x))
show(torch.linalg.vecdot(A, A, dim=0))
show(torch.linalg.vander(x))
v = torch.linalg.vander(x, N=4)
v.pow(2).sum().backward()
print(v, x.grad)
res = torch.linalg.inv_ex(A)
print(res, type(res))
show(res.inverse)
S = torch.stack([A.detach(), torch.zeros(2, 2)]).requires_grad_()
print(torch.linalg.inv_ex(S))
show(torch.linalg.inv_ex(S).inverse)
show(torch.linalg.tensorinv(torch.arange(1., 17.).reshape(4, 2, 2).mul(torch.eye(4).reshape(4, 2, 2) + 0.1), ind=1))
B = torch.randn(2, 3, 6, dtype=torch.float64, requires_grad=True)
y = torch.linalg.tensorsolve(B, torch.ones(2, 3, dtype=torch.float64))
show(y)
y.sum().backward()
print(r(B.grad))
tries(lambda: torch.linalg.inv_ex(S, check_errors=True), lambda: torch.linalg.inv_ex(torch.ones(2, 3)),
      lambda: torch.linalg.vecdot(x, A), lambda: torch.linalg.vecdot(x.int(), x.int()), lambda: torch.linalg.vecdot(x, 2),
      lambda: torch.linalg.vecdot(x, x.double()), lambda: torch.linalg.vecdot(x, x, 0), lambda: torch.linalg.diagonal(x),
      lambda: torch.linalg.diagonal(A, 1), lambda: torch.linalg.vander(x, N=1), lambda: torch.linalg.vander(x > 1),
      lambda: torch.linalg.vander(torch.tensor(2)), lambda: torch.linalg.tensorinv(A, ind=0),
      lambda: torch.linalg.tensorinv(torch.ones(2, 3), 1), lambda: torch.linalg.tensorinv(torch.zeros(2, 2), 1),
      lambda: torch.linalg.tensorsolve(torch.ones(2, 3), torch.ones(2)),
      lambda: torch.linalg.tensorsolve(B.detach().permute(2, 0, 1), torch.ones(2, 3, dtype=torch.float64), dims=(0,)))
''',
    # linalg.lu_factor / lu_factor_ex (getrf's column-major LU and int32 pivots, LinalgLuFactorExBackward0 saving LU,
    # pivot and pivots; a zero pivot an error for lu_factor, info for lu_factor_ex) and linalg.lu (P with no
    # gradient, L and U the two outputs of LinalgLuBackward0 saving L, P, U and pivot), for square, tall and wide
    # matrices: linalg_lu_backward's gradients (ending in P @ ...: MmBackward0) and double backward
    "lu_factorizations": '''
for s in [(2, 2), (3, 3), (4, 2), (2, 4), (2, 3, 3), (2, 3, 2), (2, 2, 3)]:
    torch.manual_seed(s[-1] + len(s))
    A = torch.randn(s, dtype=torch.float64, requires_grad=True)
    f = torch.linalg.lu_factor(A)
    print(f, f.LU.stride())
    show(f.LU)
    P, L, U = torch.linalg.lu(A)
    print(P, P.stride(), L.stride(), U.stride(), L.output_nr, U.output_nr, P.requires_grad)
    show(U)
    g, = torch.autograd.grad((L * L).sum() + (U ** 3).sum(), A, create_graph=True)
    print(r(g), g.grad_fn)
    print(r(torch.autograd.grad(g.pow(2).sum(), A)[0]))
    g, = torch.autograd.grad((f.LU ** 2).sum(), A, create_graph=True)
    print(r(g), g.grad_fn)
    print(r(torch.autograd.grad(g.pow(2).sum(), A)[0]))
    print(r(torch.autograd.grad(torch.linalg.lu(A).L.sum(), A)[0]), r(torch.autograd.grad(torch.linalg.lu(A).U.sum(), A)[0]))
Z = torch.stack([torch.eye(3), torch.zeros(3, 3)])
tries(lambda: torch.linalg.lu_factor(torch.zeros(2, 3)), lambda: torch.linalg.lu_factor_ex(torch.zeros(2, 3)),
      lambda: torch.linalg.lu(torch.zeros(2, 3)), lambda: torch.linalg.lu_factor_ex(Z, check_errors=True),
      lambda: torch.linalg.lu_factor(Z), lambda: torch.linalg.lu_factor_ex(Z),
      lambda: torch.linalg.lu(torch.tensor([[1., 2.], [2., 4.], [3., 1.]])),
      lambda: torch.linalg.lu_factor(torch.ones(3)), lambda: torch.linalg.lu(torch.ones(3)),
      lambda: torch.linalg.lu_factor(torch.eye(2, dtype=torch.int32)), lambda: torch.linalg.lu(torch.eye(2).half()),
      lambda: torch.linalg.lu(torch.eye(2), pivot=False), lambda: torch.linalg.lu_factor(torch.eye(2), pivot=False))
''',
    # linalg.lu_solve: the four systems (left / right, adjoint or not) from lu_factor's result, column-major results
    # for left, row-major for right, B broadcast; LinalgLuSolveBackward0 (LU and B its inputs, not the pivots)
    # saving LU, adjoint, left, pivots and result; gB through lu_solve of the adjoint system, gLU by
    # linalg_lu_solve_LU; double backward; its errors in PyTorch's order
    "lu_solve": '''
for a, b in [((3, 3), (3, 2)), ((2, 3, 3), (3, 1)), ((2, 2), (4, 2, 2))]:
    for left, adjoint in [(True, False), (True, True), (False, False), (False, True)]:
        torch.manual_seed(len(a) + len(b))
        A = torch.randn(a, dtype=torch.float64, requires_grad=True)
        B = torch.randn(b, dtype=torch.float64, requires_grad=True)
        LU, piv = torch.linalg.lu_factor(A)
        X = torch.linalg.lu_solve(LU, piv, B if left else B.mT, left=left, adjoint=adjoint)
        show(X)
        print(X.stride())
        g = torch.autograd.grad((X * X).sum(), (A, B), create_graph=True)
        print(r(g[0]), g[0].grad_fn, r(g[1]), g[1].grad_fn)
        print(r(torch.autograd.grad(g[0].pow(2).sum() + g[1].pow(2).sum(), (A, B))[0]))
f = torch.linalg.lu_factor(torch.tensor([[1., 2., 0.], [3., 1., 1.], [0., 2., 2.]], dtype=torch.float64))
B = torch.ones(3, 2, dtype=torch.float64)
tries(lambda: torch.linalg.lu_solve(f.LU, f.pivots, B[:2]), lambda: torch.linalg.lu_solve(f.LU, f.pivots, B[0]),
      lambda: torch.linalg.lu_solve(f.LU, f.pivots.long(), B), lambda: torch.linalg.lu_solve(f.LU, f.pivots, B.float()),
      lambda: torch.linalg.lu_solve(f.LU[:2], f.pivots, B), lambda: torch.linalg.lu_solve(f.LU, f.pivots[:2], B),
      lambda: torch.linalg.lu_solve(f.LU, f.pivots, B, left=False),
      lambda: torch.linalg.lu_solve(f.LU[None].expand(2, 3, 3), f.pivots, B),
      lambda: torch.linalg.lu_solve(f.LU.int(), f.pivots, B.int()),
      lambda: torch.linalg.lu_solve(f.LU.expand(2, 3, 3), f.pivots.expand(2, 3), B.expand(3, 3, 2)))
''',
    # the names: torch.linalg's dir() (what the engine has and what it lacks, as PyTorch lists them), builtins named
    # linalg_*, torch.* and Tensor methods; and LAPACK's column-major strides of linalg.solve for a dim of size 1
    "names_and_strides": '''
print(sorted(n for n in dir(torch.linalg) if not n.startswith('__')))
print(torch.linalg.eigh, torch.linalg.cholesky_ex, torch.linalg.solve_triangular, torch.linalg.qr.__name__)
print([hasattr(torch, n) for n in ['cholesky', 'cholesky_solve', 'cholesky_inverse', 'triangular_solve', 'qr']])
print(torch.cholesky_solve, torch.Tensor.cholesky_inverse)
tries(lambda: torch.linalg.cholesky_solve, lambda: torch.linalg.choleskyy)
for s in [(1, 1), (1, 2), (3, 1, 2), (2, 2)]:
    print(torch.linalg.solve(torch.ones(s[-2], s[-2]) + torch.eye(s[-2]), torch.ones(s)).stride(),
          torch.linalg.solve(torch.eye(s[-1]), torch.ones(s), left=False).stride())
''',
}


@pytest.mark.parametrize("name", SNIPPETS)
def test_snippet(name):
    if name == "eigh_gradients":            # (1 / (close eigenvalues' difference) amplifies LAPACK's last bits)
        skip_unless_engine_cpu("eigh's gradients")
    code = SHOW + R + SNIPPETS[name]
    t, e = run_both(T, E, code)
    assert same(t, e), f"\n{code}\n--- torch\n{t.summary()}--- engine\n{e.summary()}"
