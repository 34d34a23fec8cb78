"""A name a torch module lacks (a learner's typo) against real PyTorch: the error names the module as PyTorch's
(torch.nn, not the engine's own module name), and carries the same attribute name, from which Python's traceback
offers "Did you mean" (torch itself none: it has more names than Python searches)."""
import pytest

T = pytest.importorskip("torch", reason="differential tests need real PyTorch (pip install torch==2.13.0)")
from .harness import load_engine, run_both, same  # noqa: E402

E = load_engine()

CODE = (
    'import torch.nn.functional as F\n'
    'import torch.utils.data\n'
    'for path, name in [("torch", "tensr"), ("torch.nn", "Linaer"), ("torch.nn.functional", "sofmax"),\n'
    '                   ("torch.autograd", "grd"), ("torch.optim", "SDG"), ("torch.linalg", "nrom"),\n'
    '                   ("torch.utils.data", "DataLoder"), ("torch.distributions", "Normall"), ("torch.nn.init", "zero")]:\n'
    '    module = eval(path)\n'
    '    try:\n'
    '        getattr(module, name)\n'
    '    except AttributeError as e:\n'
    '        print(e, "|", e.name, "|", e.obj is module if e.name else None)\n'
    'print(hasattr(torch, "tensr"), getattr(torch.nn, "Linaer", "default"))\n'
)


def test_missing_module_attributes():
    t, e = run_both(T, E, CODE)
    assert same(t, e), f"\n--- torch\n{t.summary()}--- engine\n{e.summary()}"
