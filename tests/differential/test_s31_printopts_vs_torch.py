"""torch.set_printoptions against real PyTorch: every option alone and combined (odd values too: negative or float
precision, negative edgeitems and linewidth, truthy sci_mode), profiles and resets, the torch._tensor_str helpers
(PRINT_OPTS, get_printoptions, printoptions, _str), tensors with grad_fn / requires_grad / dtype= suffixes wrapping at
the linewidth, x.grad after backward, nn.Parameter and named_parameters() items, format specs on 0-d tensors, lists
and dicts of tensors, and the torch.Size / dtype / device reprs (device strings included). Printed text, warnings and
the final error must be the same. The print options are global: each snippet runs inside a try/finally that puts
them (and the default dtype) back, and the test checks both libraries are back to the defaults."""
import pytest

T = pytest.importorskip("torch", reason="differential tests need real PyTorch (pip install torch==2.13.0)")
from .harness import TRIES, load_engine, run_both, same  # noqa: E402

E = load_engine()

_DEFAULTS = dict(precision=4, threshold=1000, edgeitems=3, linewidth=80, sci_mode=None)

SNIPPETS = {
    # device strings: the empty one has its own message; every backend PyTorch names makes a torch.device (making a
    # tensor there is another matter); reprs, str and format of devices, dtypes and sizes
    "device_strings_and_reprs": (
        'for a in ["", " ", "CPU", "cpu:", "cpu:00", ":0", "cpu0", "xla", "xla:0", "lazy", "hpu:1", "privateuseone",\n'
        '          "meta", "mps:0", "gpu", "cpu:1:2"]:\n'
        '    tries(lambda: repr(torch.device(a)))\n'
        'tries(lambda: torch.device("", 0), lambda: torch.device("xla", 1), lambda: str(torch.device("ipu:2")),\n'
        '      lambda: torch.device("ve") == torch.device("ve"))\n'
        'x = torch.ones(2, 3, dtype=torch.float64)\n'
        'print(x.shape, x.dtype, x.device, [x.shape, x.dtype, x.device], f"{x.shape} {x.dtype} {x.device}")\n'
        'for o in (x.shape, x.dtype, x.device):\n'
        '    tries(lambda: format(o, ""), lambda: format(o, ">20"))'),
    # torch._tensor_str: _str (what Tensor.__repr__ calls) with tensor_contents, PRINT_OPTS read and assigned (live),
    # get_printoptions after each change
    "tensor_str_helpers": (
        'x = torch.tensor([1.23456, 2.], requires_grad=True)\n'
        'torch.set_printoptions(precision=2)\n'
        'print(torch._tensor_str._str(x), torch._tensor_str._str(x * 2), torch._tensor_str._str(x, tensor_contents="[?]"))\n'
        'print(torch._tensor_str._str(torch.nn.Parameter(torch.ones(2))), torch._tensor_str._str(torch.zeros(0, 2)))\n'
        'print(torch._tensor_str.PRINT_OPTS)\n'
        'torch._tensor_str.PRINT_OPTS.precision = 5\n'
        'torch._tensor_str.PRINT_OPTS.linewidth = 24\n'
        'print(x, torch.arange(12.), torch._tensor_str.get_printoptions())\n'
        'torch.set_printoptions(profile="short", sci_mode=True)\n'
        'print(torch._tensor_str.PRINT_OPTS, x)\n'
        'torch.set_printoptions(profile="nonsense")\n'
        'print(torch._tensor_str.PRINT_OPTS)\n'
        'torch.set_printoptions(3, 100, 2, 60)\n'
        'print(torch._tensor_str.get_printoptions())\n'
        'tries(lambda: torch.set_printoptions(foo=1), lambda: torch.set_printoptions(3, 100, 2, 60, "default", True, 9))'),
    # odd option values: negative / float / str precision, fractional and nan thresholds, negative or bool edgeitems,
    # zero and negative linewidths, truthy sci_mode values
    "odd_option_values": (
        'def p(*ts):\n'
        '    tries(lambda: " | ".join(map(repr, ts)))\n'
        'for kw in [dict(precision=-1), dict(precision=2.5), dict(precision="3"), dict(threshold=2.5, edgeitems=1),\n'
        '           dict(threshold=float("nan")), dict(threshold=-1), dict(threshold=5, edgeitems=-1),\n'
        '           dict(threshold=5, edgeitems=2.0), dict(threshold=True, edgeitems=True), dict(linewidth=0),\n'
        '           dict(linewidth=-5), dict(linewidth=30.5), dict(sci_mode=1), dict(sci_mode=0), dict(sci_mode="no")]:\n'
        '    torch.set_printoptions(**kw)\n'
        '    print(kw)\n'
        '    p(torch.tensor([1.5, 2.25]), torch.tensor([1, 2]), torch.tensor(5.))\n'
        '    p(torch.arange(10.), torch.arange(20.).reshape(4, 5))\n'
        '    p(torch.tensor([1e-9, 100.]), torch.randn(2, 3, requires_grad=True) + 1)\n'
        '    torch.set_printoptions(profile="default")'),
    # the suffixes (dtype=, grad_fn=<...>, requires_grad=True, size= with edgeitems=0) move to their own line when
    # they would pass the linewidth, for grad_fn names of every length
    "suffix_wrapping_with_grad_fn_names": (
        'torch.manual_seed(0)\n'
        'x = torch.randn(3, 4, requires_grad=True)\n'
        'ys = [x.sum(0), x @ x.T, torch.log_softmax(x, 1), x.permute(1, 0), x.expand(2, 3, 4), x.max(1).values,\n'
        '      torch.nn.functional.layer_norm(x, (4,)), x[[0, 2]], torch.nn.functional.cross_entropy(x, torch.tensor([0, 1, 3])),\n'
        '      torch.addmm(torch.zeros(3, 3), x, x.T), x.to(torch.float64), x.half(), x.unbind(0)[1], x.narrow(1, 0, 2)]\n'
        'for lw, prec in [(40, 2), (55, 4), (70, 1), (80, 6)]:\n'
        '    torch.set_printoptions(linewidth=lw, precision=prec)\n'
        '    for y in ys:\n'
        '        print(y)\n'
        '    torch.set_printoptions(threshold=5, edgeitems=0, linewidth=lw - 10)\n'
        '    print(ys[0], ys[10], torch.ones(3, dtype=torch.int32), torch.zeros(2, 0, dtype=torch.float64, requires_grad=True))\n'
        '    torch.set_printoptions(profile="default")'),
    # sci_mode True / False / None on values at the switching points (ratio 1000, 1e8, 1e-4), integral floats, zeros,
    # nan and inf, with precision 0 and 6
    "sci_mode_switching_points": (
        'vals = [[1., 1000.], [1., 1001.], [0.001, 1.], [0.00099, 1.], [1e-4], [9.9999e-5], [1e8], [1.0000001e8],\n'
        '        [1e20, 1.], [float("inf"), 1e-5], [0., -0.], [12345.678], [1., 10., 100.], [-0.4, 2.5]]\n'
        'for prec in (0, 6):\n'
        '    for sm in (True, False, None):\n'
        '        torch.set_printoptions(precision=prec, sci_mode=sm)\n'
        '        print(prec, sm, *[torch.tensor(v) for v in vals], torch.tensor(-0.0), torch.tensor([100, 2]))\n'
        '        print(torch.tensor([1e-6, 2.5e3], dtype=torch.float64, requires_grad=True))'),
    # x.grad after backward printed under sci_mode False / True and the profiles, the loss with its grad_fn
    "grad_after_backward_under_options": (
        'torch.set_printoptions(precision=3, sci_mode=False)\n'
        'x = torch.tensor([[1e-6, 2., 3.], [4., 5., 6e5]], requires_grad=True)\n'
        'y = (x ** 2).sum()\n'
        'y.backward()\n'
        'print(x.grad, x, y)\n'
        'torch.set_printoptions(sci_mode=True)\n'
        'print(x.grad, x.grad.requires_grad, x.grad.grad_fn)\n'
        'for prof in ("short", "full", "default"):\n'
        '    torch.set_printoptions(profile=prof)\n'
        '    print(prof, x.grad, y, y.grad_fn)\n'
        'w = torch.randn(3, requires_grad=True)\n'
        'torch.set_printoptions(precision=2)\n'
        'for step in range(2):\n'
        '    loss = (w * torch.arange(1., 4.)).pow(2).sum()\n'
        '    loss.backward()\n'
        '    print(step, loss, w.grad)'),
    # nn.Parameter and named_parameters() items, lists and dicts of them, state_dict, under a narrow linewidth and few
    # edge items; Parameter subclasses; 0-d and empty parameters
    "parameters_and_named_parameters": (
        'torch.manual_seed(0)\n'
        'm = torch.nn.Sequential(torch.nn.Linear(4, 3), torch.nn.ReLU(), torch.nn.Linear(3, 1))\n'
        'torch.set_printoptions(precision=2, linewidth=40, threshold=4, edgeitems=1)\n'
        'for n, q in m.named_parameters():\n'
        '    print(n, q)\n'
        '    print(f"{n}: {q.shape} {q.dtype} {q.requires_grad}")\n'
        'print(list(m[2].named_parameters()), dict(m[2].named_parameters()), m[2].state_dict())\n'
        'class P(torch.nn.Parameter):\n'
        '    pass\n'
        'print(P(torch.ones(2)), torch.nn.Parameter(torch.tensor(2.5)), torch.nn.Parameter(torch.zeros(2, 0)))\n'
        'print([torch.nn.Parameter(torch.arange(3.), requires_grad=False)], (m[0].bias,))'),
    # format specs on 0-d tensors of each dtype (detached: no warning for a tensor requiring grad); a spec on a
    # tensor of more dims, a 0-d Parameter or a subclass is refused naming its class; '' gives str()
    "format_specs": (
        'class M(torch.Tensor):\n'
        '    pass\n'
        'loss = (torch.tensor([1., 2., 3.], requires_grad=True) ** 2).mean()\n'
        'ts = [loss, torch.tensor(2, dtype=torch.int32), torch.tensor(True), torch.tensor(-0.0, dtype=torch.float64),\n'
        '      torch.tensor(0.1, dtype=torch.float16), torch.tensor(255, dtype=torch.uint8), torch.tensor([1.5]),\n'
        '      torch.zeros(2, 2), torch.nn.Parameter(torch.tensor(0.5)), torch.tensor(2.).as_subclass(M)]\n'
        'for spec in [".4f", ".2e", "", ">12", "+.1%", ",", "d", "#x", "08.2f", "s", "=+10.2f"]:\n'
        '    for t in ts:\n'
        '        tries(lambda: repr(format(t, spec)))\n'
        'print(f"loss={loss:.4f} {loss!r} {loss!s:>40}", "{0} {0:.1f}".format(loss), "%.3f %s" % (loss, loss))'),
    # str.format reaching into a tensor (attributes, items with a spec) and %-formatting of one-element tensors
    # (through __float__ / __index__ / __int__), with PyTorch's and Python's errors
    "str_format_fields_and_percent": (
        'x = torch.tensor([1.25, 2.5], requires_grad=True)\n'
        'for f in ["{0.shape}", "{0.dtype}", "{0[0]}", "{0[0]:.2f}", "{0.grad}", "{0.requires_grad!s:>6}",\n'
        '          "{0.data[1]:e}", "{0.T}"]:\n'
        '    tries(lambda: f.format(x))\n'
        'for f, v in [("%.2f", torch.tensor([1.5])), ("%d", torch.tensor([3])), ("%d", torch.tensor(3.7)),\n'
        '             ("%x", torch.tensor(255)), ("%x", torch.tensor(2.)), ("%s", torch.tensor([1, 2])),\n'
        '             ("%.1f", torch.tensor([1., 2.])), ("%i", torch.tensor(True)), ("%c", torch.tensor(65)),\n'
        '             ("%e", torch.tensor(7, dtype=torch.int32)), ("%r", torch.tensor(1.)), ("%5.2f%%", torch.tensor(0.5) * 100)]:\n'
        '    tries(lambda: f % v)'),
    # str / repr / print of lists, tuples and dicts of tensors (tensors inside use repr), with options set
    "containers_of_tensors": (
        'torch.manual_seed(0)\n'
        'torch.set_printoptions(precision=2, linewidth=50, threshold=8, edgeitems=2)\n'
        'a = torch.randn(3, requires_grad=True)\n'
        'b = a * 2\n'
        'd = {"w": a, "out": b, "n": torch.tensor(5), "big": torch.arange(20.).reshape(4, 5)}\n'
        'print(d)\n'
        'print(str(d) == repr(d), repr([a, b]), (a,), [torch.tensor(1.)], (b.sum(),))\n'
        'print([torch.randn(2, 2), torch.zeros(0)], {1: (torch.ones(1), torch.arange(3))})\n'
        'print(torch.max(torch.arange(12.).reshape(3, 4) * a.detach().sum(), 1))'),
    # a non-default default dtype (float64, float16): which tensors print dtype=, empty ones included
    "default_dtype_suffixes": (
        'for dd in (torch.float64, torch.float16):\n'
        '    torch.set_default_dtype(dd)\n'
        '    torch.set_printoptions(precision=3, edgeitems=1, threshold=4)\n'
        '    print(torch.tensor([1.5, 2.]), torch.tensor([1.5], dtype=torch.float32), torch.empty(0),\n'
        '          torch.zeros(0, dtype=torch.float32), torch.empty(0, dtype=torch.int64), torch.arange(10.),\n'
        '          torch.ones(2, requires_grad=True) * 1, torch.tensor(1/3), torch.tensor([1, 2]) / 2, torch.tensor([True]))\n'
        '    torch.set_default_dtype(torch.float32)'),
    # the printoptions context manager: nested, restored after an exception, unknown option refused
    "printoptions_context_manager": (
        'from torch._tensor_str import printoptions\n'
        'x = torch.tensor([1.23456789, 1e-6], requires_grad=True)\n'
        'with printoptions(precision=2, sci_mode=False):\n'
        '    print(x)\n'
        '    with printoptions(threshold=1, edgeitems=0):\n'
        '        print(x, torch._tensor_str.PRINT_OPTS)\n'
        '    print(x, torch._tensor_str.PRINT_OPTS)\n'
        'print(x)\n'
        'try:\n'
        '    with printoptions(precision=1):\n'
        '        print(x)\n'
        '        raise ValueError("boom")\n'
        'except ValueError as e:\n'
        '    print(e, x)\n'
        'tries(lambda: printoptions(bogus=1).__enter__())\n'
        'print(torch._tensor_str.get_printoptions())'),
    # random shapes, dtypes and values printed under random option combinations (summarised on some dims, rows
    # wrapping), alone, in a list and in a dict
    "fuzzed_shapes_values_and_options": (
        'import random\n'
        'random.seed(3)\n'
        'shapes = [(), (0,), (1,), (13,), (40,), (2, 3), (9, 1), (7, 8), (3, 0, 2), (2, 3, 4), (4, 1, 6), (3, 7, 1, 5)]\n'
        'makers = [lambda s: torch.randn(s), lambda s: torch.randn(s) * 1e5, lambda s: torch.randn(s) * 1e-6,\n'
        '          lambda s: torch.randint(-100, 100, s), lambda s: torch.randint(0, 9, s).float().requires_grad_(),\n'
        '          lambda s: torch.rand(s) > 0.5, lambda s: torch.randn(s, dtype=torch.float64) * 1e9,\n'
        '          lambda s: torch.randn(s).half(), lambda s: torch.randn(s).exp() * 1000 * torch.ones(1, requires_grad=True),\n'
        '          lambda s: torch.where(torch.rand(s) > 0.7, torch.tensor(float("nan")), torch.randn(s)),\n'
        '          lambda s: torch.randint(-2**40, 2**40, s)]\n'
        'choices = dict(precision=[0, 1, 2, 6], threshold=[0, 5, 30, float("inf")], edgeitems=[0, 1, 2, 4],\n'
        '               linewidth=[1, 15, 45, 100], sci_mode=[True, False, None], profile=["short", "full", "default"])\n'
        'for i in range(40):\n'
        '    torch.manual_seed(i)\n'
        '    x = random.choice(makers)(random.choice(shapes))\n'
        '    kw = {k: random.choice(choices[k]) for k in random.sample(sorted(choices), random.randint(1, 4))}\n'
        '    torch.set_printoptions(**kw)\n'
        '    print(kw, x, [x], {"k": (x,)})\n'
        '    if x.dim() == 0:\n'
        '        print(f"{x:.3f}")\n'
        '    torch.set_printoptions(profile="default")'),
}


def _guarded(code):
    """The snippet inside a try/finally that puts the global print options and default dtype back."""
    body = "".join("    " + line + "\n" for line in code.splitlines())
    return ("try:\n" + body + "finally:\n"
            "    torch.set_printoptions(profile='default')\n"
            "    torch.set_default_dtype(torch.float32)\n")


@pytest.mark.parametrize("name", SNIPPETS)
def test_snippet(name):
    code = TRIES + _guarded(SNIPPETS[name])
    t, e = run_both(T, E, code)
    assert T._tensor_str.get_printoptions() == E._tensor_str.get_printoptions() == _DEFAULTS
    assert same(t, e), f"\n{code}\n--- torch\n{t.summary()}--- engine\n{e.summary()}"
