"""What learners see when they print things, against real PyTorch (session 9 of the printing hunt): halves made
from doubles (PyTorch rounds through float), torch.finfo / torch.iinfo, f-strings of nn.Parameter, the classes
that type() names, optimizers whose lr is a tensor."""
import pytest

T = pytest.importorskip("torch", reason="differential tests need real PyTorch (pip install torch==2.13.0)")
from .harness import TRIES, load_engine, run_both, same  # noqa: E402

E = load_engine()


SNIPPETS = {
    # double -> half goes through float in PyTorch (two roundings): 0.3077392709... is 0.3076, not 0.3079
    "half_from_double": (
        "import numpy as np\n"
        "x = 0.30773927093496056\n"
        "print(torch.tensor([x], dtype=torch.half), torch.tensor(x, dtype=torch.float16),\n"
        "      torch.tensor(np.array([x]), dtype=torch.half), torch.tensor([x], dtype=torch.float64).half(),\n"
        "      torch.tensor([x], dtype=torch.float64).to(torch.float16), torch.HalfTensor([x]))\n"
        "print(torch.full((2,), x, dtype=torch.half), torch.ones(2, dtype=torch.half).fill_(x),\n"
        "      torch.zeros(1, dtype=torch.half).copy_(torch.tensor([x], dtype=torch.float64)))\n"
        "t = torch.zeros(2, dtype=torch.half); t[0] = x; print(t)"),
    "finfo_iinfo": (
        "for d in (torch.float32, torch.float64, torch.float16):\n"
        "    f = torch.finfo(d)\n"
        "    print(f, f.eps, f.max, f.min, f.tiny, f.smallest_normal, f.bits, f.resolution, f.dtype, type(f))\n"
        "for d in (torch.int64, torch.int32, torch.int16, torch.int8, torch.uint8):\n"
        "    i = torch.iinfo(d)\n"
        "    print(i, i.max, i.min, i.bits, i.dtype, type(i.max))\n"
        "print(torch.finfo(), torch.finfo(float), torch.iinfo(int), torch.finfo(type=torch.float16))\n"
        "print(torch.finfo(torch.float32) == torch.finfo(torch.float32), torch.iinfo(torch.int8) == torch.finfo())\n"
        "print(torch.tensor([0.]).clamp(min=torch.finfo(torch.float32).eps))\n"
        "tries(lambda: torch.finfo(torch.int64), lambda: torch.finfo(torch.bool), lambda: torch.iinfo(torch.float32),\n"
        "      lambda: torch.iinfo(torch.bool), lambda: torch.iinfo(bool), lambda: torch.finfo('float32'),\n"
        "      lambda: torch.finfo(None), lambda: torch.iinfo(), lambda: torch.iinfo(dtype=torch.int8),\n"
        "      lambda: torch.finfo(torch.float32, 1), lambda: torch.iinfo(torch.int8, 1),\n"
        "      lambda: torch.iinfo(torch.int8, type=torch.int8), lambda: setattr(torch.finfo(), 'eps', 1.))"),
    # Tensor.__format__ gives the number only for a plain 0-d Tensor; an nn.Parameter formats as its text
    "parameter_format": (
        "p = torch.nn.Parameter(torch.tensor(1.5))\n"
        "print(f'{p}')\n"
        "print('{}'.format(p), f'{torch.tensor(1.5, requires_grad=True):.2f}')\n"
        "tries(lambda: f'{p:.2f}', lambda: format(torch.nn.Parameter(torch.ones(2)), '>3'))"),
    "type_names": (
        "x = torch.ones(2, requires_grad=True)\ny = (x * 2).sum()\n"
        "print(type(x.device), type(x.layout), type(x.dtype), type(y.grad_fn),\n"
        "      type(y.grad_fn.next_functions[0][0].next_functions[0][0]), type(x.exp().grad_fn).__module__)"),
    # the optimizer's repr formats each option with format(): a 0-d tensor lr shows as its number
    "optimizer_tensor_lr": (
        "p = [torch.nn.Parameter(torch.ones(2))]\n"
        "print(torch.optim.Adam(p, lr=torch.tensor(0.01)))\n"
        "print(torch.optim.SGD(p, lr=torch.tensor(0.5), momentum=0.9))"),
    # torch.Size stays a torch.Size under * and reflected +, and takes only integers (0-d int tensors too)
    "size_arithmetic_and_items": (
        "import numpy as np\n"
        "s = torch.Size([1, 2])\n"
        "print(s * 2, 2 * s, s * 0, (3,) + s, torch.ones(2, 3).shape * 1, torch.Size([True, np.int64(3)]))\n"
        "print(torch.Size(torch.tensor([2, 3])), torch.Size([torch.tensor(2)]), type(s * 2))\n"
        "s *= 2; print(s)\n"
        "tries(lambda: torch.Size([2.5]), lambda: torch.Size(['a']), lambda: torch.Size([torch.tensor(2.)]),\n"
        "      lambda: torch.Size([None]), lambda: torch.Size([2 ** 70]), lambda: s + [3], lambda: s * 2.0)"),
}


@pytest.mark.parametrize("name", SNIPPETS)
def test_snippet(name):
    """Printed text, warnings and the final error are identical (addresses and C++ locations blanked)."""
    code = TRIES + SNIPPETS[name]
    t, e = run_both(T, E, code)
    assert same(t, e), f"\n{code}\n--- torch\n{t.summary()}--- engine\n{e.summary()}"
