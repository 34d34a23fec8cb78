"""A saved non-leaf detached in place (detach_()) against real PyTorch: backward refuses to use it, even where its
version did not move ("Trying to use a saved tensor that has been detached in-place"); `grad_fn._saved_<name>`
still hands it out, or, modified in place too, names the node that saved it in the version error. A saved output
detached in place is fine. Printed text and the final error must be the same."""
import pytest

T = pytest.importorskip("torch", reason="differential tests need real PyTorch (pip install torch==2.13.0)")
from .harness import load_engine, run_both, same  # noqa: E402

E = load_engine()

SNIPPETS = {
    "saved_input_detached_in_place": (
        'x = torch.ones(3, requires_grad=True)\n'
        'a = x * 1; y = a.sin(); a.detach_(); a.add_(1)\n'
        'try:\n'
        '    print(y.grad_fn._saved_self)\n'
        'except RuntimeError as e:\n'
        '    print(e)\n'
        'try:\n'
        '    y.sum().backward()\n'
        'except RuntimeError as e:\n'
        '    print(e)\n'
        'b = x * 1; z = b * b; b.detach_(); print(z.grad_fn._saved_self, b._version)\n'
        'try:\n'
        '    z.sum().backward()\n'
        'except RuntimeError as e:\n'
        '    print(e)\n'
        'c = x.exp(); d = c.exp(); c.detach_(); print(d.grad_fn._saved_result)\n'
        'd.sum().backward(); print(x.grad)\n'
        'w = x * 2; v = w.sigmoid(); w.detach_(); v.sum().backward(); print(x.grad)'),
}


@pytest.mark.parametrize("name", SNIPPETS)
def test_snippet(name):
    code = SNIPPETS[name]
    t, e = run_both(T, E, code)
    assert same(t, e), f"\n{code}\n--- torch\n{t.summary()}--- engine\n{e.summary()}"
