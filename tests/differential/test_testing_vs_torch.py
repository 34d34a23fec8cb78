"""torch.testing.assert_close (and assert_allclose) against real PyTorch: the pairs it compares (None, bools,
numbers, tensors, nested sequences and mappings), its attribute checks, default tolerances per dtype and its
mismatch messages. Printed text, warnings and the final error must be the same."""
import pytest

T = pytest.importorskip("torch", reason="differential tests need real PyTorch (pip install torch==2.13.0)")
from .harness import load_engine, run_both, same  # noqa: E402

E = load_engine()

SNIPPETS = {
    "assert_close_messages": (
        'assert_close = torch.testing.assert_close\n'
        'tests = [\n'
        ' lambda: assert_close(torch.tensor([1., 2.]), torch.tensor([1., 2., 3.])),\n'
        ' lambda: assert_close(torch.tensor([1., 2.]), torch.tensor([1., 2.], dtype=torch.float64)),\n'
        ' lambda: assert_close(torch.tensor([1., 2.]), torch.tensor([1., 2.], dtype=torch.float64),\n'
        '                      check_dtype=False),\n'
        ' lambda: assert_close(1.0, 1.1),\n'
        ' lambda: assert_close(1, 2),\n'
        ' lambda: assert_close(torch.tensor([1, 2, 3]), torch.tensor([1, 2, 4])),\n'
        " lambda: assert_close(torch.tensor([[1., float('nan')], [3., 4.]]),\n"
        "                      torch.tensor([[1., float('nan')], [3., 4.5]])),\n"
        " lambda: assert_close(torch.tensor([float('nan')]), torch.tensor([float('nan')])),\n"
        " lambda: assert_close(torch.tensor([float('nan')]), torch.tensor([float('nan')]), equal_nan=True),\n"
        ' lambda: assert_close([torch.tensor(1.), torch.tensor(2.)], [torch.tensor(1.), torch.tensor(2.5)]),\n'
        " lambda: assert_close({'a': torch.tensor(1.)}, {'a': torch.tensor(1.5)}),\n"
        ' lambda: assert_close(torch.tensor(1.), 1.0),\n'
        " lambda: assert_close(torch.tensor([1., 2.]), torch.tensor([1.5, 2.]), msg='custom'),\n"
        ' lambda: assert_close(torch.tensor([1., 2.]), torch.tensor([1.5, 2.]), rtol=0.5, atol=0),\n'
        ' lambda: assert_close(torch.tensor([1., 2.]), torch.tensor([1.5, 2.]), rtol=0.5),\n'
        ' lambda: assert_close(torch.zeros(3, 4), torch.ones(3, 4) * 1e-3),\n'
        ' lambda: assert_close(torch.tensor([1., 2.], requires_grad=True), torch.tensor([1., 2.])),\n'
        ' lambda: assert_close(torch.tensor([True, False]), torch.tensor([True, True])),\n'
        ' lambda: assert_close(torch.tensor([1., 2.]), [1., 2.]),\n'
        ' lambda: assert_close((1, 2), (1, 2, 3)),\n'
        ' lambda: assert_close(torch.tensor([1e-9]), torch.tensor([0.])),\n'
        ' lambda: assert_close(torch.tensor([100.]), torch.tensor([100.001])),\n'
        ' lambda: assert_close(torch.tensor([1., 2.]).double(), torch.tensor([1., 2.0000001]).double()),\n'
        ' lambda: torch.testing.assert_allclose(torch.tensor([1., 2.]), torch.tensor([1., 2.5])),\n'
        ']\n'
        'for i, t in enumerate(tests):\n'
        '    try:\n'
        "        t(); print(i, 'passed')\n"
        '    except Exception as e:\n'
        '        print(i, type(e).__name__, repr(str(e)))'),
    "assert_close_on_a_gradient": (
        'assert_close = torch.testing.assert_close\n'
        'x = torch.tensor([1., 2., 3.], requires_grad=True)\n'
        'y = (x ** 2).sum()\n'
        'g, = torch.autograd.grad(y, x)\n'
        'assert_close(g, 2 * x)\n'
        "print('grad ok')\n"
        'assert_close(g, 2 * x + 1e-3)'),
    "assert_close_pairs_and_options": (
        'assert_close = torch.testing.assert_close\n'
        'tries = [lambda: assert_close(None, None), lambda: assert_close(None, 1), lambda: assert_close(True, False),\n'
        '         lambda: assert_close(torch.tensor(1), torch.tensor(1.)),\n'
        '         lambda: assert_close(torch.tensor([1, 2]), torch.tensor([1., 2.5]), check_dtype=False),\n'
        '         lambda: assert_close(torch.ones(2, 3), torch.ones(3, 2).t(), check_stride=True),\n'
        "         lambda: assert_close({'a': 1, 'b': 2}, {'a': 1, 'c': 2}), lambda: assert_close(1.0, 1.0000001),\n"
        "         lambda: assert_close(torch.tensor([1., 2.]), torch.tensor([1., 3.]), msg=lambda m: 'Oops: ' + m),\n"
        "         lambda: assert_close(torch.tensor([float('inf'), 1.]), torch.tensor([float('inf'), 1.])),\n"
        "         lambda: assert_close(torch.tensor([float('inf')]), torch.tensor([-float('inf')])),\n"
        '         lambda: assert_close(torch.tensor([0., 1.]), torch.tensor([1e-6, 1.])),\n'
        '         lambda: assert_close(torch.tensor([3, 0]), torch.tensor([0, 0])),\n'
        '         lambda: assert_close([1, [2, 3]], [1, [2, 4]]),\n'
        '         lambda: assert_close(torch.ones(2, 2, dtype=torch.float64),\n'
        '                              torch.ones(2, 2, dtype=torch.float64) + 1e-6)]\n'
        'for i, t in enumerate(tries):\n'
        '    try:\n'
        "        t(); print(i, 'passed')\n"
        '    except Exception as e:\n'
        '        print(i, type(e).__name__, repr(str(e)))'),
}


@pytest.mark.parametrize("name", SNIPPETS)
def test_snippet(name):
    code = SNIPPETS[name]
    t, e = run_both(T, E, code)
    assert same(t, e), f"\n{code}\n--- torch\n{t.summary()}--- engine\n{e.summary()}"
