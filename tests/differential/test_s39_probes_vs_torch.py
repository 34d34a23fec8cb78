"""Differences found by session 39's learner-style probes against real PyTorch, each kept here with its variants.
Printed text, warnings and the final error must be the same."""
import pytest

T = pytest.importorskip("torch", reason="differential tests need real PyTorch (pip install torch==2.13.0)")
from .harness import SHOW, load_engine, run_both, same  # noqa: E402

E = load_engine()

SNIPPETS = {
    # data without numbers: PyTorch sizes it by its first elements and stores nothing, so what follows an empty
    # list is never checked ([[], [1]] is a 2 x 0 tensor); an empty list counts as the default float in the dtype
    "tensor_of_no_numbers": (
        'import numpy as np\n'
        'for v in ("[[], [1]]", "[[], [1, 2]]", "[[[]], [[1]]]", "[[], [[1]]]", "[[], 1]", "[[], [1.5]]", "[[], [[]]]",\n'
        '          "[[1], []]", "[1, []]", "[[True], []]", "[[], [2**70]]", "[[], [np.int32(1)]]", "[np.array([]), [1]]",\n'
        '          "[[], [1]], dtype=torch.int32", "[[], [1]], requires_grad=True", "[[], [\'a\']]"):\n'
        '    tries(lambda: eval("torch.tensor(%s)" % v), lambda: eval("torch.tensor(%s)" % v).dtype)\n'
        'tries(lambda: torch.LongTensor([[], [1]]), lambda: torch.Tensor([[], [1]]), lambda: torch.as_tensor([[], [1]]),\n'
        '      lambda: torch.tensor([[1], []], device="cuda"))'),
    # a CPU-only PyTorch has no pinned memory: every factory refuses pin_memory=True (out= forms ignore it), after
    # the device and before the size is checked
    "pin_memory_refused": (
        'x = torch.ones(2)\n'
        'tries(lambda: torch.ones(2, pin_memory=True), lambda: torch.zeros(-1, pin_memory=True),\n'
        '      lambda: torch.empty(2, pin_memory=True), lambda: torch.rand(2, pin_memory=True), torch.rand(1),\n'
        '      lambda: torch.randn(2, pin_memory=True), lambda: torch.tensor([1.], pin_memory=True),\n'
        '      lambda: torch.tensor(3., pin_memory=True), lambda: torch.full((2,), 1., pin_memory=True),\n'
        '      lambda: torch.arange(3, pin_memory=True), lambda: torch.arange(3, out=torch.empty(3), pin_memory=True),\n'
        '      lambda: torch.ones(2, out=torch.empty(2), pin_memory=True), lambda: torch.zeros_like(x, pin_memory=True),\n'
        '      lambda: torch.full_like(x, 1, pin_memory=True), lambda: torch.randn_like(x, pin_memory=True),\n'
        '      lambda: torch.randint_like(x, 3, pin_memory=True), lambda: torch.eye(2, pin_memory=True),\n'
        '      lambda: torch.linspace(0, 1, 3, pin_memory=True), lambda: torch.logspace(0, 2, 3, pin_memory=True),\n'
        '      lambda: torch.randint(3, (2,), pin_memory=True), lambda: torch.randperm(3, pin_memory=True),\n'
        '      lambda: torch.normal(0., 1., (2,), pin_memory=True), lambda: torch.empty_strided((2,), (1,), pin_memory=True),\n'
        '      lambda: torch.scalar_tensor(1, pin_memory=True), lambda: torch.hann_window(3, pin_memory=True),\n'
        '      lambda: torch.tril_indices(3, 3, pin_memory=True), lambda: x.new_zeros(2, pin_memory=True),\n'
        '      lambda: x.new_full((2,), 1, pin_memory=True), lambda: x.new_empty_strided((2,), (1,), pin_memory=True),\n'
        '      lambda: torch.ones(2, pin_memory=False), lambda: torch.ones(2, device="cuda", pin_memory=True),\n'
        '      lambda: torch.ones(-1, device="cuda"), lambda: torch.rand(-1, device="cuda"),\n'
        '      lambda: torch.arange(-1, device="cuda"), lambda: torch.eye(-1, device="cuda"), lambda: x.is_pinned())'),
    # linalg.inv solves A X = I after an LU in the matrix's own dtype, MKL's (a column scaled by its pivot's
    # reciprocal, the last two of a matrix up to 4 x 4 divided by it): a float32 inverse is not exact (-24.0000),
    # and a matrix is singular when that LU meets a zero pivot, numbered as LAPACK numbers it
    "inverse_in_its_dtype": (
        'for dt in (torch.float32, torch.float64):\n'
        '    for m in ([[1., 2, 3], [0, 1, 4], [5, 6, 0]], [[1., 2, 3], [4, 5, 6], [7, 8, 9]], [[0.1, 0.2], [0.3, 0.6]],\n'
        '              [[4., 7], [2, 6]], [[1., 2], [2, 4]], [[2., 1, 0, 0], [1, 3, 1, 0], [0, 1, 4, 1], [0, 0, 1, 5]]):\n'
        '        A = torch.tensor(m, dtype=dt)\n'
        '        tries(lambda: torch.linalg.inv(A), lambda: A.inverse(), lambda: torch.linalg.inv_ex(A).info,\n'
        '              lambda: torch.linalg.det(A), lambda: torch.linalg.lu_factor_ex(A))\n'
        'torch.manual_seed(0)\n'
        'for n in (2, 3, 4, 5, 8, 11):\n'
        '    A = torch.randn(n, n)\n'
        '    print(torch.linalg.inv(A)[0], torch.linalg.lu_factor(A).LU.flatten().tolist()[-3:], torch.linalg.det(A).item())\n'
        'C = torch.eye(3).repeat(2, 1, 1); C[1, 2, 2] = 0\n'
        'B = torch.randn(2, 3, 3, requires_grad=True); Bi = torch.linalg.inv(B); show(Bi); Bi.sum().backward()\n'
        'tries(lambda: B.grad, lambda: torch.linalg.inv(C), lambda: torch.linalg.inv(torch.ones(2, 2)))'),
    # gradients through U and Vh of an SVD (PyTorch's svd_backward), for tall, wide, square and batched matrices,
    # full_matrices or not, by losses that the signs of the singular vectors (LAPACK's choice) leave alone
    "svd_vectors_backward": (
        'A = torch.tensor([[2.0, 0.5], [0.3, 1.5]], requires_grad=True)\n'
        'U, S, Vh = torch.linalg.svd(A); (U @ torch.diag(S) @ Vh).sum().backward(); print(A.grad, U.grad_fn)\n'
        'torch.manual_seed(0)\n'
        'for shape in ((4, 3), (3, 4), (3, 3), (2, 5, 3), (2, 3, 5)):\n'
        '    for fm in (False, True):\n'
        '        A = torch.randn(*shape, dtype=torch.float64, requires_grad=True)\n'
        '        U, S, Vh = torch.linalg.svd(A, full_matrices=fm)\n'
        '        k = S.shape[-1]; u, vh = U[..., :k], Vh[..., :k, :]\n'
        '        w = torch.arange(1., 6)[:, None] * torch.arange(1., 6)\n'
        '        for loss in ((u ** 2 * w[:u.shape[-2], :k]).sum, (vh ** 2 * w[:k, :vh.shape[-1]]).sum,\n'
        '                     (u @ vh).sum, (u @ torch.diag_embed(S) @ vh).pow(2).sum, (u * S.unsqueeze(-2) @ vh).exp().sum):\n'
        '            A.grad = None; loss().backward(retain_graph=True); print(shape, fm, (A.grad * 1e6).round().tolist())\n'
        'B = torch.randn(4, 3, requires_grad=True); U, S, V = torch.svd(B); (U @ V.T).sum().backward(); print(B.grad)'),
}


@pytest.mark.parametrize("name", SNIPPETS)
def test_snippet(name):
    code = SHOW + SNIPPETS[name]
    t, e = run_both(T, E, code)
    assert same(t, e), f"\n{code}\n--- torch\n{t.summary()}--- engine\n{e.summary()}"
