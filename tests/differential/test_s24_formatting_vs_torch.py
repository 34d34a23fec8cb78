"""How tensors and numbers become text in learners' code, against real PyTorch: f-strings, format() and %-formatting
of 0-d and other tensors, 0-d tensors standing for Python numbers (round, abs, int, float, range, list indexing, and
as hyperparameters that module reprs format), set_printoptions inside a training loop, torch.Size arithmetic and
numel, dtype / device / generator reprs, and the parser's error text when numpy hands a tensor its keywords. Printed
text, warnings and the final error must be the same."""
import pytest

T = pytest.importorskip("torch", reason="differential tests need real PyTorch (pip install torch==2.13.0)")
from .harness import TRIES, load_engine, run_both, same  # noqa: E402

E = load_engine()

SNIPPETS = {
    # format specs on 0-d tensors of every dtype go to the Python number's __format__ (its errors name float / int
    # / bool); a multi-element tensor takes only the empty spec
    "format_specs_of_0d_tensors": (
        'for t in [torch.tensor(1.5), torch.tensor(3), torch.tensor(True), torch.tensor(0.1),\n'
        '          torch.tensor(2.5, dtype=torch.float64), torch.tensor(1.5, dtype=torch.float16),\n'
        '          torch.tensor(7, dtype=torch.uint8)]:\n'
        '    tries(lambda: format(t, ""), lambda: f"{t:.4f}", lambda: f"{t:e}", lambda: f"{t:d}", lambda: f"{t:,}",\n'
        '          lambda: f"{t:%}", lambda: f"{t:10}|", lambda: f"{t:s}")\n'
        'x = torch.tensor([1.5, 2.5])\n'
        'tries(lambda: f"{x:.2f}", lambda: format(x, ">20"), lambda: "{:.3f}".format(x), lambda: f"{x!r:>5}")'),
    # %-formatting goes through __float__ / __int__ / __index__: one element of any shape, %d truncates, %x needs
    # an integer tensor
    "percent_formatting": (
        'a = torch.tensor(1.5); b = torch.tensor(2)\n'
        'tries(lambda: "%.1f %d" % (a, b), lambda: "%s, %r" % (a, b), lambda: "%(x).2f" % {"x": a},\n'
        '      lambda: "%d" % torch.tensor(2.7), lambda: "%x" % torch.tensor(2.7), lambda: "%c" % torch.tensor(65),\n'
        '      lambda: "%5.1f" % torch.tensor([[2.]]), lambda: "%.2f" % torch.tensor([1., 2.]), '
        'lambda: "%s" % (x := torch.Size([2, 3])),\n'
        '      lambda: "%d x %d" % x, lambda: "%s" % (x,), lambda: "%.2f" % torch.tensor(True))'),
    # what a training loop prints, with printoptions changed for it and restored by the profile
    "training_loop_prints_with_printoptions": (
        'torch.set_printoptions(precision=2)\n'
        'w = torch.tensor([0.12345, 1.98765], requires_grad=True)\n'
        'for step in range(2):\n'
        '    loss = (w ** 2).sum(); loss.backward()\n'
        '    print(step, loss, w.grad, f"{loss:.4f}", "loss %.6f" % loss, loss.item(), round(loss.item(), 3))\n'
        '    with torch.no_grad(): w -= 0.1 * w.grad\n'
        '    w.grad.zero_()\n'
        'pred = torch.tensor([0, 1, 1, 2]); y = torch.tensor([0, 1, 2, 2]); acc = (pred == y).float().mean()\n'
        'correct = (pred == y).sum()\n'
        'print(f"acc={acc:.2%} {correct}/{len(y)} {correct / len(y):.3f}", '
        '"Correct: %d/%d (%.0f%%)" % (correct, len(y),\n'
        '      100. * correct / len(y)), f"{acc=}", f"{acc=:.3f}", w)\n'
        'torch.set_printoptions(profile="default"); print(w, torch.tensor(1/3))'),
    # 0-d tensors where Python wants a number: round / abs / math / conversions / __index__
    "0d_tensors_as_python_numbers": (
        'import math\n'
        'x = torch.tensor(2.567); i = torch.tensor(3); L = list("abcdef")\n'
        'tries(lambda: round(x), lambda: round(x, 2), lambda: round(torch.tensor([1.26, 2.5]), 1), '
        'lambda: round(i, 1),\n'
        '      lambda: abs(torch.tensor(-2.5)), lambda: math.floor(x), lambda: math.ceil(torch.tensor([1.5, 2.])),\n'
        '      lambda: int(torch.tensor(1e20)), lambda: int(torch.tensor(float("nan"))), lambda: complex(i),\n'
        '      lambda: L[i], lambda: list(range(i)), lambda: list(range(torch.tensor(2.))), lambda: "ab" * i,\n'
        '      lambda: L[torch.tensor([[1]])], lambda: bool(torch.zeros(0)), lambda: hex(i),\n'
        '      lambda: torch.tensor([3., 4.]).norm(p=torch.tensor(2.)), lambda: torch.norm(torch.tensor([3., '
        '4.]), i),\n'
        '      lambda: torch.tensor([3., 4.]).norm(p=torch.tensor([2.])))'),
    # torch.Size: a tuple that stays a Size when sliced or added to; numel() multiplies in int64, wrapping past it
    "size_arithmetic_and_numel": (
        's = torch.zeros(2, 3, 4).shape\n'
        'tries(lambda: s + (1,), lambda: (1,) + s, lambda: s[1:], lambda: type(s[::-1]), lambda: s + [1],\n'
        '      lambda: torch.Size([2]) == (2,), lambda: s.numel(), lambda: torch.Size([]).numel(), lambda: s * 2,\n'
        '      lambda: torch.Size([2**40, 2**30]).numel(), lambda: torch.Size([3, 2**62]).numel(),\n'
        '      lambda: torch.Size([2**63 - 1, 2]).numel(), lambda: torch.Size([torch.tensor(2)]), lambda: s.index(5))'),
    # numpy's functions hand a tensor numpy's keywords: PyTorch's parser lists them in its unordered_map's order
    "numpy_functions_on_tensors": (
        'import numpy as np\n'
        'x = torch.tensor([1.23456, 2.5])\n'
        'tries(lambda: np.round(x, 2), lambda: np.mean(x), lambda: np.std(x), lambda: np.var(x), lambda: np.sum(x),\n'
        '      lambda: np.max(x), lambda: np.array([torch.tensor(1.), torch.tensor(2.)]), lambda: np.float32(x[0]))'),
    # a call with keywords none of an op's signatures takes: they are listed in libstdc++'s unordered_map order
    # (hashes of the names in 13 buckets, more buckets past 13 keywords), not in the order given
    "keywords_order_in_invalid_combination": (
        'x = torch.ones(2)\n'
        'import torch.nn.functional as F\n'
        'w = torch.ones(1, 1, 2, 2)\n'
        'tries(lambda: x.std(a=1, b=2, c=3, d=4), lambda: x.sum(axis=0, foo=1, bar=2),\n'
        '      lambda: x.mean(dim=0, keepdims=True, out=None, dtype=None, where=None),\n'
        '      lambda: x.var(**{"k%d" % i: i for i in range(15)}), lambda: torch.linspace(0, 1, 5, a=1, b=2, '
        'c=3, d=4),\n'
        '      lambda: x.add_(2, x, a=1, b=2, c=3, d=4), lambda: x.to("cpu", b=2, a=1), lambda: F.conv2d(w, w, stride="a", padding=1.5, '
        'dilation="c"),\n'
        '      lambda: F.conv1d(w[0], w[0], bias=1, stride=(1.,), padding=0, dilation=1, groups=1))'),
    # torch.Generator: its device is a torch.device (no index); CUDA and unknown devices refused
    "generator_device": (
        'for a in ["cpu", torch.device("cpu"), "cpu:0", "cuda", "foo", 0, None]:\n'
        '    tries(lambda: repr(torch.Generator(a).device))\n'
        'print(torch.default_generator.device, torch.Generator().device == torch.device("cpu"))'),
    # an int tensor as a size, count or index (n = y.max() + 1): PyTorch's parser reads its int for randperm, select,
    # pool and conv sizes, pixel_shuffle's factor and layer_norm's normalized_shape (whose errors show ints)
    "int_tensor_as_a_count": (
        'import torch.nn.functional as F\n'
        'i = torch.tensor(3)\n'
        'tries(lambda: torch.randperm(i), lambda: torch.randperm(torch.tensor([4]), dtype=torch.float32),\n'
        '      lambda: torch.randperm(torch.tensor(3.)), lambda: torch.randint(0, 10, (i,)).shape,\n'
        '      lambda: torch.arange(6).reshape(i, torch.tensor(2)).shape, lambda: F.one_hot(torch.tensor([0, 2]), i),\n'
        '      lambda: torch.ones(5)[:i], lambda: torch.ones(2, 3).sum(torch.tensor(1)),\n'
        '      lambda: torch.ones(4, 4).select(0, torch.tensor(5)), lambda: torch.eye(4).select(1, torch.tensor(2)))\n'
        'x = torch.arange(16.).view(1, 1, 4, 4); w = torch.ones(1, 1, 2, 2); two = torch.tensor(2)\n'
        'tries(lambda: F.max_pool2d(x, two), lambda: F.avg_pool2d(x, (two, 2), stride=torch.tensor([1])).shape,\n'
        '      lambda: F.max_pool1d(x[0], two), lambda: F.avg_pool1d(x[0], two), lambda: F.max_pool2d(x, 2, '
        'stride=two),\n'
        '      lambda: F.conv2d(x, w, stride=two), lambda: F.conv2d(x, w, padding=(two, 0)).shape,\n'
        '      lambda: F.pixel_shuffle(torch.ones(1, 4, 1, 1), two).shape, '
        'lambda: F.pixel_shuffle(torch.ones(1, 4, 1, 1), True),\n'
        '      lambda: F.pixel_unshuffle(torch.ones(1, 1, 2, 2), torch.tensor([2])), lambda: F.max_pool2d(x, '
        'torch.tensor(2.)))\n'
        'x = torch.ones(4, 4)\n'
        'for shape in [(i,), (4, i), (4.,), (4, 4.), (torch.tensor(4.),), i, torch.tensor([4]), (True,), '
        '[torch.tensor(4)]]:\n'
        '    tries(lambda: F.layer_norm(x, shape).shape, lambda: F.rms_norm(x, shape).shape)\n'
        'tries(lambda: F.layer_norm(x, (i,), weight=torch.ones(4)))'),
    # 0-d tensors as module hyperparameters (num_classes = y.max() + 1, p = torch.tensor(0.5)): the reprs format
    # them, showing their values; kernel sizes iterate them (a TypeError)
    "tensor_hyperparameters_in_module_reprs": (
        'import torch.nn as nn\n'
        'i = torch.tensor(3); p = torch.tensor(0.5)\n'
        'tries(lambda: nn.Embedding(i, 2), lambda: nn.Embedding(5, i, padding_idx=torch.tensor(1)), '
        'lambda: nn.Dropout(p),\n'
        '      lambda: nn.LeakyReLU(p), lambda: nn.Softmax(dim=torch.tensor(1)), lambda: nn.BatchNorm1d(i),\n'
        '      lambda: nn.BatchNorm1d(4, eps=torch.tensor(1e-3)), lambda: nn.Conv1d(i, 2, 3), '
        'lambda: nn.Conv2d(2, 2, i),\n'
        '      lambda: nn.MaxPool2d(i), lambda: nn.AvgPool1d(i), lambda: nn.ZeroPad2d(i), lambda: nn.Hardtanh(p, 1.),\n'
        '      lambda: nn.GroupNorm(1, i), lambda: nn.Flatten(torch.tensor(0)), lambda: nn.Threshold(p, 2.),\n'
        '      lambda: nn.Softplus(beta=p), lambda: nn.RReLU(p, 0.8), lambda: nn.Hardshrink(p), '
        'lambda: nn.Softshrink(p),\n'
        '      lambda: nn.ConstantPad1d(1, p), lambda: nn.PixelShuffle(torch.tensor(2)), lambda: nn.LayerNorm(i),\n'
        '      lambda: nn.AdaptiveAvgPool1d(i), lambda: nn.PReLU(i), lambda: nn.Unflatten(1, (i, 2)))'),
    # format() of a Parameter is object's (an error for a spec), of its .data the number's
    "parameters_formatted": (
        'import torch.nn as nn\n'
        'p = nn.Parameter(torch.tensor(2.5)); q = nn.Parameter(torch.ones(2), requires_grad=False)\n'
        'tries(lambda: f"{p:.2f}", lambda: f"{p}", lambda: "%.2f" % p, lambda: round(p, 1), lambda: repr(q),\n'
        '      lambda: f"{p.data:.2f}", lambda: [p], lambda: nn.Parameter(torch.tensor([1, 2])))\n'
        'torch.manual_seed(0); lin = nn.Linear(2, 3)\n'
        'print(lin.weight, lin.bias.data, dict(lin.named_parameters()))\n'
        'for n, w in lin.named_parameters(): print(f"{n}: {w.shape} {w.requires_grad} {w.numel()}")'),
    # .tolist() and .item(): float32 values as the Python floats that hold them exactly
    "tolist_and_item_of_float32": (
        'x = torch.tensor([0.1, 0.2, 1/3, 1e-8, 123456.789])\n'
        'print(x.tolist(), x[0].item(), x.sum().item(), x.double().tolist(), x.half().tolist(), x.mean().item())\n'
        'print(type(torch.tensor(1).item()), type(torch.tensor(True).item()), torch.zeros(2, 0).tolist(),\n'
        '      (torch.tensor(0.1) + torch.tensor(0.2)).item(), torch.tensor(16777217.).item(), x.numpy()[0])'),
    # a forgotten pair of parentheses: the method itself printed, formatted, added to
    "methods_printed_without_calling_them": (
        'import torch.nn as nn, torch.nn.functional as F\n'
        'x = torch.ones(2); loss = x.sum(); m = nn.Linear(1, 1)\n'
        'for o in [loss.item, x.size, x.numpy, x.backward, m.parameters, F.relu, torch.relu, torch.Tensor.add, '
        'torch.sum]:\n'
        '    print(o)\n'
        'tries(lambda: x.shape(), lambda: loss.item + 1, lambda: f"{loss.item:.2f}", lambda: float(loss.item),\n'
        '      lambda: "%.2f" % loss.item, lambda: round(loss.item, 2), lambda: x.size[0], lambda: x.is_leaf())'),
    # with float64 as the default dtype, float32 tensors are the ones that show their dtype
    "default_dtype_float64_printing": (
        'torch.set_default_dtype(torch.float64)\n'
        'try:\n'
        '    x = torch.tensor([1.5, 2.]); print(x, x.float(), torch.tensor(2.5).float(), torch.arange(3.),\n'
        '                                    torch.ones(1, requires_grad=True) * 2, torch.tensor(1/3).item(), '
        'torch.finfo().eps)\n'
        'finally:\n'
        '    torch.set_default_dtype(torch.float32)\n'
        'print(torch.tensor([1.5]), torch.tensor([1.5]).double())'),
    # -0.0, nan and inf through item(), round(), format specs and %-formatting
    "negative_zero_nan_inf_as_numbers": (
        'import math\n'
        'n = torch.tensor(-0.0)\n'
        'tries(lambda: n.item(), lambda: round(torch.tensor(-0.4)), lambda: int(n), lambda: abs(n), '
        'lambda: math.copysign(1, n),\n'
        '      lambda: f"{n:+.2f}", lambda: f"{torch.tensor(float(\'-inf\')):.2f}", lambda: torch.tensor([-0.0, '
        'float("nan")]).tolist(),\n'
        '      lambda: "%d" % n, lambda: -torch.tensor(0.0), lambda: torch.tensor(-1e-50), '
        'lambda: torch.tensor(-1e-50).item())'),
    # containers of tensors printed (list / tuple / dict / set) and print(*tensor)
    "containers_of_tensors_printed": (
        'a = torch.tensor([1., 2.]); b = torch.tensor(3)\n'
        'print([a, b]); print((a,)); print({"a": a, "b": b}); print(*[a, b], sep=" | "); print(*torch.eye(2))\n'
        'print({k: f"{v.item():.2f}" for k, v in {"loss": torch.tensor(0.5)}.items()}, tuple(torch.arange(3)))\n'
        'print(torch.max(torch.tensor([[3., 1.], [2., 4.]]), 0), torch.finfo(torch.float16), '
        'torch.iinfo(torch.uint8))'),
}


@pytest.mark.parametrize("name", SNIPPETS)
def test_snippet(name):
    code = TRIES + SNIPPETS[name]
    t, e = run_both(T, E, code)
    assert same(t, e), f"\n{code}\n--- torch\n{t.summary()}--- engine\n{e.summary()}"
