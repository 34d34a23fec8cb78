"""Smaller parts of the torch namespace against real PyTorch: the functions PyTorch 2 removed (solve, symeig,
eig, lstsq, matrix_rank: their errors), deterministic algorithms and float32 matmul precision settings, torch.vmap,
isin, unravel_index, block_diag, trapezoid / trapz, Tensor.sum_to_size and fill_diagonal_. Printed text, warnings
and the final error must be the same."""
import pytest

T = pytest.importorskip("torch", reason="differential tests need real PyTorch (pip install torch==2.13.0)")
from .harness import load_engine, run_both, same  # noqa: E402

E = load_engine()

SNIPPETS = {
    "removed_functions_and_settings": (
        'a = torch.randn(3, 3); b = torch.randn(3, 1)\n'
        "for name, f in [('solve', lambda: torch.solve(b, a)), ('symeig', lambda: torch.symeig(a)), ('eig', lambda: torch.eig(a)),\n"
        "                ('lstsq', lambda: torch.lstsq(b, a)), ('matrix_rank', lambda: torch.matrix_rank(a)),\n"
        "                ('Tsolve', lambda: b.solve(a)), ('Tsymeig', lambda: a.symeig()), ('Teig', lambda: a.eig()), ('Tlstsq', lambda: b.lstsq(a))]:\n"
        '    try:\n'
        '        print(name, f())\n'
        '    except Exception as e:\n'
        '        print(name, type(e).__name__, e)\n'
        'print(torch.are_deterministic_algorithms_enabled(), torch.get_float32_matmul_precision())\n'
        'torch.use_deterministic_algorithms(True); print(torch.are_deterministic_algorithms_enabled(), torch.is_deterministic_algorithms_warn_only_enabled())\n'
        'torch.use_deterministic_algorithms(False, warn_only=True); print(torch.are_deterministic_algorithms_enabled(), torch.is_deterministic_algorithms_warn_only_enabled())\n'
        "torch.set_float32_matmul_precision('high'); print(torch.get_float32_matmul_precision())\n"
        "torch.set_float32_matmul_precision('fast'); print(torch.get_float32_matmul_precision())\n"
        'print(torch.vmap is torch.func.vmap)\n'
        'print(torch.isin(torch.tensor([1, 2, 3, 4]), torch.tensor([2, 4])), torch.isin(torch.tensor([1., 2.]), 2.))\n'
        'print(torch.isin(torch.tensor([[1, 2], [3, 4]]), torch.tensor([2, 3]), invert=True), torch.isin(3, torch.tensor([1, 3])))\n'
        'print(torch.unravel_index(torch.tensor([4, 7]), (3, 3)))\n'
        'print(torch.unravel_index(torch.tensor(4), (3, 3)), torch.unravel_index(torch.tensor([[4, 7]]), (3, 3)))\n'
        "torch.set_default_device('cpu'); print(torch.ones(1).device); torch.set_default_device(None)\n"
        "torch.use_deterministic_algorithms(False); torch.set_float32_matmul_precision('highest')"),
    "block_diag_trapezoid_sum_to_size_fill_diagonal": (
        'a = torch.ones(2, 2, requires_grad=True); b = torch.tensor([[5.]], requires_grad=True)\n'
        'd = torch.block_diag(a, b, torch.tensor([1., 2.])); print(d, d.grad_fn, d.grad_fn.next_functions)\n'
        'd.sum().backward(); print(a.grad, b.grad)\n'
        'print(torch.block_diag(torch.tensor(3), torch.tensor([[1, 2]])))\n'
        'y = torch.tensor([1., 2., 4.], requires_grad=True)\n'
        't = torch.trapezoid(y); print(t, t.grad_fn, t.grad_fn.next_functions)\n'
        't.backward(); print(y.grad)\n'
        't2 = torch.trapezoid(y, torch.tensor([0., 1., 3.])); print(t2, t2.grad_fn, t2.grad_fn.next_functions)\n'
        't3 = torch.trapezoid(y, dx=0.5); print(t3, t3.grad_fn)\n'
        'print(torch.trapz(torch.tensor([[1., 2.], [3., 5.]]), dim=0), torch.trapezoid(torch.tensor([[1., 2.], [3., 5.]]), torch.tensor([1., 3.])))\n'
        'm = torch.ones(2, 3, requires_grad=True) * 2\n'
        's = m.sum_to_size(1, 3); print(s, s.grad_fn); print(m.sum_to_size(2, 3) is m, m.sum_to_size((2, 1)).grad_fn, m.sum_to_size(3).grad_fn)\n'
        'x = torch.zeros(3, 4, requires_grad=True).clone(); x.fill_diagonal_(5.); print(x, x._version)\n'
        'z = torch.zeros(7, 3); z.fill_diagonal_(1, wrap=True); print(z)\n'
        'z = torch.zeros(7, 3); z.fill_diagonal_(2); print(z)\n'
        'z = torch.zeros(2, 2, 2); z.fill_diagonal_(3); print(z)'),
    "block_diag_3d_error": (
        'torch.block_diag(torch.ones(2, 2, 2))'),
    "sum_to_size_error": (
        'torch.ones(2, 3).sum_to_size(3, 3)'),
    "unravel_index_float_error": (
        'torch.unravel_index(torch.tensor([1.5]), (3, 3))'),
    "fill_diagonal_1d_error": (
        'torch.ones(3).fill_diagonal_(1)'),
    "fill_diagonal_unequal_error": (
        'torch.ones(2, 3, 3).fill_diagonal_(1)'),
}


@pytest.mark.parametrize("name", SNIPPETS)
def test_snippet(name):
    code = SNIPPETS[name]
    t, e = run_both(T, E, code)
    assert same(t, e), f"\n{code}\n--- torch\n{t.summary()}--- engine\n{e.summary()}"
