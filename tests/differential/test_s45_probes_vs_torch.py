"""Differences found by session 45's probes against real PyTorch. Printed text, warnings and the final error must be
the same."""
import pytest

T = pytest.importorskip("torch", reason="differential tests need real PyTorch (pip install torch==2.13.0)")
from .harness import SHOW, load_engine, run_both, same  # noqa: E402

E = load_engine()

SNIPPETS = {
    # the dtypes the engine names without modelling their tensors: printed, compared, promoted and described as
    # PyTorch's (nanoGPT picks one from a table of them)
    "unmodelled_dtypes_named": (
        'ptdtype = {"float32": torch.float32, "bfloat16": torch.bfloat16, "float16": torch.float16}["float32"]\n'
        'print(ptdtype, torch.bfloat16, torch.cfloat, torch.cdouble, torch.chalf, type(torch.bfloat16))\n'
        'print(torch.bfloat16.is_floating_point, torch.bfloat16.itemsize, torch.cfloat.is_complex,\n'
        '      torch.complex64.is_floating_point, torch.bfloat16 == torch.float16, torch.cfloat is torch.complex64)\n'
        'print(torch.finfo(torch.bfloat16), torch.finfo(torch.bfloat16).max)\n'
        'ds = [torch.bool, torch.uint8, torch.int32, torch.int64, torch.float16, torch.bfloat16, torch.float32,\n'
        '      torch.float64, torch.complex32, torch.complex64, torch.complex128]\n'
        'for a in ds:\n'
        '    print([str(torch.promote_types(a, b))[6:] for b in ds])'),
}


@pytest.mark.parametrize("name", SNIPPETS)
def test_snippet(name):
    code = SHOW + SNIPPETS[name]
    t, e = run_both(T, E, code)
    assert same(t, e), f"\n{code}\n--- torch\n{t.summary()}--- engine\n{e.summary()}"
