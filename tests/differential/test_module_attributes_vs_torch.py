"""Names against real PyTorch. A name a torch module lacks (a learner's typo): the error names the module as
PyTorch's (torch.nn, not the engine's own module name), and carries the same attribute name, from which Python's
traceback offers "Did you mean" (torch itself none: it has more names than Python searches; the engine's error
carries no name there, to offer none either). A method printed
without being called (`print(y.grad_fn.name)`): PyTorch's C++ methods print as built-in methods."""
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
    '        print(e, "|", e.name if path != "torch" else "", "|", e.obj is module)\n'
    'print(hasattr(torch, "tensr"), getattr(torch.nn, "Linaer", "default"))\n'
)


METHODS = (
    'import torch.nn as nn\n'
    'x = torch.ones(1, requires_grad=True)\n'
    'y = x * 2\n'
    'a = y.grad_fn.next_functions[0][0]\n'
    'print(y.grad_fn.name, y.grad_fn.register_hook, y.grad_fn.register_prehook, y.grad_fn._sequence_nr)\n'
    'print(a.name, a.register_hook, a._register_hook_dict, a.name())\n'
    'print(type(y.grad_fn).name, type(a).register_hook, y.grad_fn.name.__name__, y.grad_fn.name.__qualname__)\n'
    'print(y.grad_fn.name.__self__ is y.grad_fn, type(y.grad_fn.name).__name__)\n'
    'print(x.backward, x.size, x.detach, nn.Parameter(torch.ones(1)).add, torch.nn.Parameter(torch.ones(1)).add)\n'
    'class F(torch.autograd.Function):\n'
    '    @staticmethod\n'
    '    def forward(ctx, x): return x * 2\n'
    '    @staticmethod\n'
    '    def backward(ctx, g): return g * 2\n'
    'z = F.apply(x)\n'
    'print(z.grad_fn.name, z.grad_fn.register_hook, z.grad_fn.apply, z.grad_fn.name())\n'
    'v = torch.ones(2, requires_grad=True).clone(); v[0] = 5\n'
    'print(v.grad_fn.name, v.grad_fn.name())\n'
)


@pytest.mark.parametrize("code", [CODE, METHODS], ids=["missing_module_attributes", "methods_printed_uncalled"])
def test_names(code):
    t, e = run_both(T, E, code)
    assert same(t, e), f"\n--- torch\n{t.summary()}--- engine\n{e.summary()}"
