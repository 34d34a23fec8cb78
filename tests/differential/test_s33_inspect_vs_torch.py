"""What learners print or inspect in small training programs besides tensors, against real PyTorch: module trees
(ModuleList after insert, the classes behind each layer: type(), isinstance, the errors that name a class), module
surgery (set_submodule), the checks of layer constructors (Dropout's p, Hardtanh's bounds and old keywords,
LayerNorm's shape as a numpy int), and the argument parser's TypeErrors for sizes of the wrong type given to layers
and their functions (`stride=k / 2`, a bool): pools, adaptive pools, convolutions, CELU's alpha; of several int lists
wrong at once, the parser names the last one. Printed text, warnings and the final error must be the same."""
import pytest

T = pytest.importorskip("torch", reason="differential tests need real PyTorch (pip install torch==2.13.0)")
from .harness import SHOW, load_engine, run_both, same  # noqa: E402

E = load_engine()

# the pool snippets' helper: each call's result shape (or shapes), or its error, in turn
FIRST = ('def first(*fs):\n'
         '    for f in fs:\n'
         '        try:\n'
         '            r = f()\n'
         '            print(r.shape if not isinstance(r, tuple) else [e.shape for e in r])\n'
         '        except Exception as e:\n'
         '            print(type(e).__name__, e)\n')

SNIPPETS = {
    # ModuleList's repr numbers its children by position (it enumerates them), not by their keys: insert() past the
    # end puts a module under key '10' that prints as (2); runs of equal reprs fold into (a-b): n x ...
    "modulelist_repr_numbers_positions": (
        'import torch.nn as nn\n'
        'for index in [10, 3, 2, 0, -1]:\n'
        '    l = nn.ModuleList([nn.Linear(1, 1), nn.ReLU()])\n'
        '    l.insert(index, nn.Tanh())\n'
        '    print(index, list(l._modules), l)\n'
        'l = nn.ModuleList([nn.ReLU()])\n'
        'l.insert(5, nn.ReLU())\n'
        'l.insert(7, nn.Tanh())\n'
        'l.insert(9, nn.Tanh())\n'
        'net = nn.Sequential(nn.Linear(2, 2), l)\n'
        'print(net, list(net.state_dict()), [n for n, _ in net.named_modules()])\n'
        'tries(lambda: l[2], lambda: l[3], lambda: len(l), lambda: list(l))'),
    # PyTorch's adaptive average pools share _AdaptiveAvgPoolNd (so AdaptiveAvgPool1d is no AdaptiveAvgPool2d), and
    # a missing output_size names it; the max pools share _AdaptiveMaxPoolNd, of torch.nn.modules.pooling
    "adaptive_pool_classes": (
        'import torch.nn as nn\n'
        'for c in [nn.AdaptiveAvgPool1d, nn.AdaptiveAvgPool2d, nn.AdaptiveMaxPool1d, nn.AdaptiveMaxPool2d]:\n'
        '    print(c.__mro__)\n'
        '    tries(lambda: c(), lambda: c(2, 3, 4), lambda: c(2)(torch.ones(1, 4, 4), 3), lambda: c(output_size=2),\n'
        '          lambda: isinstance(c(1), nn.AdaptiveAvgPool2d), lambda: type(c(1)).__mro__[1].__name__)\n'
        'net = nn.Sequential(nn.Conv1d(1, 2, 3), nn.AdaptiveAvgPool1d(1), nn.Flatten())\n'
        'print(net, [type(m).__name__ for m in net.modules() if isinstance(m, nn.AdaptiveAvgPool2d)])'),
    # LogSoftmax is a Module of its own (not a Softmax): its __init__ is LogSoftmax.__init__ in errors; RReLU is
    # torch.nn.modules.activation.RReLU
    "logsoftmax_and_rrelu_classes": (
        'import torch.nn as nn\n'
        'tries(lambda: nn.LogSoftmax(1, 2), lambda: nn.LogSoftmax(x=1), lambda: nn.LogSoftmax(dim=1)(torch.ones(2), 3),\n'
        '      lambda: isinstance(nn.LogSoftmax(1), nn.Softmax), lambda: nn.LogSoftmax.__mro__, lambda: type(nn.RReLU()),\n'
        '      lambda: nn.RReLU.__module__, lambda: nn.LogSoftmax(), lambda: nn.LogSoftmax(0)(torch.tensor([1., 2.])),\n'
        '      lambda: nn.Softmax(1, 2), lambda: nn.Softmin(1, 2))\n'
        'm = nn.Sequential(nn.Linear(2, 3), nn.RReLU(0.1, 0.3), nn.LogSoftmax(dim=1))\n'
        'print(m, [type(x) for x in m])\n'
        'print([k for k, x in m.named_modules() if isinstance(x, (nn.Softmax, nn.RReLU))])'),
    # Module.set_submodule: the parent must exist, a name there must hold a module, strict refuses a new name; ''
    # and a module that is not an nn.Module are ValueErrors (target split before module is checked)
    "set_submodule": (
        'import torch.nn as nn\n'
        'm = nn.Sequential(nn.Linear(1, 1), nn.Sequential(nn.ReLU()))\n'
        'm.w = nn.Parameter(torch.ones(1))\n'
        'for t, mod, strict in [("0", nn.Tanh(), False), ("1.0", nn.ELU(), True), ("1.5", nn.ELU(), True),\n'
        '                       ("1.5", nn.ELU(), False), ("", nn.ReLU(), False), ("x", 3, False), ("w", nn.ReLU(), False),\n'
        '                       ("2.a", nn.ReLU(), False), ("0.weight", nn.ReLU(), False), ("new", nn.ReLU(), True),\n'
        '                       ("new", nn.ReLU(), False), ("1.0", torch.ones(1), False), (0, nn.ReLU(), False),\n'
        '                       (0, 3, False), ("1.0.x", nn.ReLU(), False)]:\n'
        '    tries(lambda: m.set_submodule(t, mod, strict=strict))\n'
        'print(m)\n'
        'tries(lambda: m.set_submodule("0", nn.ReLU(), True, 4), lambda: m.set_submodule(target="0", module=nn.Identity()))\n'
        'print(m, list(m.state_dict()))'),
    # the dropout layers and functions say "but got {p}" with an f-string: a tensor p prints as its number
    "dropout_probability_message": (
        'import torch.nn as nn\n'
        'import torch.nn.functional as F\n'
        'import numpy as np\n'
        'for p in [torch.tensor(3), torch.tensor(1.5), torch.tensor(-1.), np.float64(2.0), 2, -0.5]:\n'
        '    tries(lambda: nn.Dropout(p), lambda: nn.Dropout2d(p), lambda: nn.AlphaDropout(p),\n'
        '          lambda: F.dropout(torch.ones(2), p), lambda: F.dropout2d(torch.ones(1, 2, 2), p),\n'
        '          lambda: F.alpha_dropout(torch.ones(2), p), lambda: F.dropout1d(torch.ones(1, 2, 2), p))\n'
        # (F.dropout's p is a double to the parser: a 0-d tensor or a numpy float in range works, as a float)
        'for p in [torch.tensor(0.5), torch.tensor(0.), torch.tensor(1.), np.float32(0.25), torch.tensor(1),\n'
        '          torch.tensor([0.5]), True]:\n'
        '    torch.manual_seed(0)\n'
        '    tries(lambda: F.dropout(torch.ones(4), p), lambda: F.dropout(torch.ones(4), p, False),\n'
        '          lambda: F.dropout(torch.ones(4), p, inplace=True), lambda: nn.Dropout(p)(torch.ones(4)), lambda: nn.Dropout(p),\n'
        '          lambda: F.dropout2d(torch.ones(1, 2, 1, 2), p), lambda: F.dropout2d(torch.ones(1, 2, 1, 2), p, False),\n'
        '          lambda: F.dropout1d(torch.ones(2, 3), p, inplace=True), lambda: F.dropout3d(torch.ones(1, 2, 1, 1, 2), p),\n'
        '          lambda: F.alpha_dropout(torch.ones(4), p, True), lambda: F.alpha_dropout(torch.ones(4), p),\n'
        '          lambda: nn.AlphaDropout(p)(torch.ones(4)), lambda: nn.Dropout1d(p)(torch.ones(2, 3)))\n'
        'x = torch.ones(3, requires_grad=True)\n'
        'show(F.dropout(x, torch.tensor(0.5)))'),
    # Hardtanh takes the deprecated min_value / max_value (FutureWarning each) and raises AssertionError when
    # max_val <= min_val (so a NaN bound passes), its message an f-string of the values
    "hardtanh_bounds_and_old_keywords": (
        'import torch.nn as nn\n'
        'import numpy as np\n'
        'for a in [(-1, 1), (1, -1), (1, 1), (float("nan"), 1), (0, float("nan")), (-1, [3]), (-1, None),\n'
        '          (np.float32(-2), np.float64(2)), (torch.tensor(-1.), torch.tensor(-2.))]:\n'
        '    tries(lambda: nn.Hardtanh(*a))\n'
        'tries(lambda: nn.Hardtanh(min_value=-2), lambda: nn.Hardtanh(max_value=2.5, min_val=-3),\n'
        '      lambda: nn.Hardtanh(min_value=3), lambda: nn.Hardtanh(-2, 2, True, -1, 1),\n'
        '      lambda: nn.Hardtanh(min_value=-2)(torch.tensor([-5., 5.])), lambda: nn.ReLU6(), lambda: nn.ReLU6(True))'),
    # LayerNorm / RMSNorm take any numbers.Integral as one size (a numpy int too, kept as it is in the repr)
    "layernorm_numpy_int_shape": (
        'import torch.nn as nn\n'
        'import numpy as np\n'
        'for n in [np.int64(3), np.int32(3), 3, (3,), [3], torch.Size([3])]:\n'
        '    tries(lambda: nn.LayerNorm(n), lambda: nn.LayerNorm(n)(torch.ones(2, 3)).shape, lambda: nn.RMSNorm(n),\n'
        '          lambda: nn.LayerNorm(n, elementwise_affine=False).normalized_shape)\n'
        'tries(lambda: nn.LayerNorm(torch.tensor(3)), lambda: nn.LayerNorm(True), lambda: nn.LayerNorm(3.0))'),
    # pools read kernel_size, stride, padding and dilation with the parser's `int[n]` rules: a float or a bool is
    # "must be tuple of ints, not float", a list whose first element is not an int "found element of type ... at
    # pos 0", a later one "failed to unpack"; with return_indices the op is max_pool2d_with_indices; nn.AvgPool1d
    # passes its sizes as tuples
    "pool_argument_types": (
        'import torch.nn as nn\n'
        'import torch.nn.functional as F\n'
        'x2, x1 = torch.ones(1, 1, 6, 6), torch.ones(1, 1, 6)\n'
        + FIRST +
        'for v in [2.0, True, "2", (2, 2.0), [2.0], (True, 1), None, (2,), [], torch.tensor(2), (torch.tensor(1), 2)]:\n'
        '    print("---", v)\n'
        '    first(lambda: F.max_pool2d(x2, 2, stride=v), lambda: F.max_pool2d(x2, 2, 2, v), lambda: F.max_pool2d(x2, 3, 1, 1, v),\n'
        '          lambda: F.max_pool2d(x2, v), lambda: F.max_pool2d(x2, 2, v, return_indices=True), lambda: F.avg_pool2d(x2, 2, v),\n'
        '          lambda: F.avg_pool2d(x2, 2, 2, v), lambda: F.max_pool1d(x1, 2, v), lambda: F.avg_pool1d(x1, 2, v),\n'
        '          lambda: F.avg_pool1d(x1, v), lambda: F.max_pool1d(x1, 2, v, return_indices=True),\n'
        '          lambda: F.max_pool1d(x1, 3, 1, 1, v), lambda: nn.MaxPool2d(2, v)(x2), lambda: nn.AvgPool2d(2, v)(x2),\n'
        '          lambda: nn.AvgPool1d(2, v)(x1), lambda: nn.MaxPool1d(2, v)(x1), lambda: nn.MaxPool2d(v)(x2),\n'
        '          lambda: nn.AvgPool1d(v)(x1), lambda: nn.MaxPool2d(3, 1, 1, v)(x2), lambda: nn.AvgPool2d(3, 1, v)(x2))'),
    # F.adaptive_avg_pool2d / adaptive_max_pool2d fill Nones in with _list_with_default (len() of anything but an
    # int: "object of type 'float' has no len()", "len() of a 0-d tensor"), then the parser reads `int[2]`; the 1-d
    # ones go to the parser directly (a 0-d int tensor is an int there)
    "adaptive_pool_output_size_types": (
        'import torch.nn as nn\n'
        'import torch.nn.functional as F\n'
        'import numpy as np\n'
        'x2, x1 = torch.ones(1, 1, 6, 6), torch.ones(1, 1, 6)\n'
        + FIRST +
        'for v in [2.0, True, "2", (2, 2.0), [2.0], (True, 1), None, 1.5, (2,), [], (1, True), torch.tensor(2),\n'
        '          torch.tensor([1, 2]), (torch.tensor(1), 2), np.int64(3), (None, 3), (2, None, 3)]:\n'
        '    print("---", v)\n'
        '    first(lambda: F.adaptive_avg_pool2d(x2, v), lambda: F.adaptive_max_pool2d(x2, v),\n'
        '          lambda: F.adaptive_max_pool2d(x2, v, return_indices=True), lambda: F.adaptive_avg_pool1d(x1, v),\n'
        '          lambda: F.adaptive_max_pool1d(x1, v), lambda: nn.AdaptiveAvgPool2d(v)(x2), lambda: nn.AdaptiveMaxPool1d(v)(x1))'),
    # the parser reads the elements of a signature's int lists from the last argument to the first (C++ evaluates
    # the op's arguments right to left), so of several bad lists the last is named
    "parser_names_the_last_bad_int_list": (
        'import torch.nn.functional as F\n'
        'x = torch.ones(4, 4)\n'
        'tries(lambda: x.as_strided((2, 2.0), (1, 1.0)), lambda: x.as_strided((2, 2), (1, 1.0)),\n'
        '      lambda: x.as_strided((2, 2.0), (1, 1)), lambda: torch.as_strided(x, (2, 2.0), (1, 1.0)),\n'
        '      lambda: F.max_pool2d(torch.ones(1, 4, 4), (2, 2.0), (2, 2.0), (0, 0.0)),\n'
        '      lambda: F.max_pool2d(torch.ones(1, 4, 4), (2, 2.0), (2, 2.0)),\n'
        '      lambda: F.avg_pool2d(torch.ones(1, 4, 4), (2, 2.0), (2, 2.0), (0, 0.0)),\n'
        '      lambda: torch.nn.MaxPool2d((2, 2.0))(torch.ones(1, 4, 4)), lambda: torch.nn.AvgPool1d((2, 2.0))(torch.ones(1, 4)),\n'
        '      lambda: x.view(2, 2.0), lambda: x.sum((0, 1.0), keepdim=True))'),
    # conv1d / conv2d: an int list fits the parser if its first element is an int (a bool is none: the invalid
    # combination), a later float "failed to unpack"; conv_transpose1d / 2d read stride, padding, output_padding
    # and dilation as `int[n]` (a float stride, a bool, None), a 0-d int tensor as an int
    "conv_int_list_arguments": (
        'import torch.nn as nn\n'
        'import torch.nn.functional as F\n'
        'x, w = torch.ones(1, 1, 5, 5), torch.ones(2, 1, 3, 3)\n'
        'x1, w1 = torch.ones(1, 1, 5), torch.ones(2, 1, 3)\n'
        'def first(*fs):\n'
        '    for f in fs:\n'
        '        try:\n'
        '            print(f().shape)\n'
        '        except Exception as e:\n'
        '            print(type(e).__name__, e)\n'
        'for v in [2.0, True, (1, 1.0), [1.0], (True, 1), None, torch.tensor(1), 1.5]:\n'
        '    print("---", v)\n'
        '    first(lambda: F.conv2d(x, w, None, v), lambda: F.conv2d(x, w, None, 1, v), lambda: F.conv2d(x, w, None, 1, 0, v),\n'
        '          lambda: F.conv1d(x1, w1, None, v), lambda: nn.Conv2d(1, 2, 3, stride=v)(x), lambda: nn.Conv2d(1, 2, 3, padding=v)(x),\n'
        '          lambda: nn.Conv1d(1, 2, 3, dilation=v)(x1), lambda: F.conv_transpose2d(x, w.transpose(0, 1), None, v),\n'
        '          lambda: F.conv_transpose2d(x, w.transpose(0, 1), None, 1, v),\n'
        '          lambda: F.conv_transpose2d(x, w.transpose(0, 1), None, 1, 0, v), lambda: nn.ConvTranspose2d(1, 2, 3, stride=v)(x),\n'
        '          lambda: nn.ConvTranspose2d(1, 2, v)(x), lambda: F.conv_transpose1d(x1, w1.transpose(0, 1), None, v))'),
    # a lazy layer (LazyModuleMixin) tells has_uninitialized_params() until its first forward; then it has become
    # the plain layer (Linear, Conv2d, BatchNorm1d), which has no such method; its repr, state_dict and parameter
    # count before and after
    "lazy_modules_before_and_after_forward": (
        'import torch.nn as nn\n'
        'for m, x in [(nn.LazyLinear(3), torch.ones(2, 4)), (nn.LazyLinear(2, bias=False), torch.ones(1, 3)),\n'
        '             (nn.LazyConv2d(2, 3), torch.ones(1, 3, 5, 5)), (nn.LazyConv1d(2, 2), torch.ones(1, 2, 4)),\n'
        '             (nn.LazyBatchNorm1d(), torch.ones(3, 2)), (nn.LazyBatchNorm2d(affine=False), torch.ones(2, 2, 2, 2)),\n'
        '             (nn.LazyBatchNorm1d(track_running_stats=False), torch.ones(3, 2))]:\n'
        '    tries(lambda: m.has_uninitialized_params(), lambda: m, lambda: m.state_dict(),\n'
        '          lambda: sum(p.numel() for p in m.parameters()))\n'
        '    m(x)\n'
        '    tries(lambda: m.has_uninitialized_params(), lambda: type(m).__name__, lambda: list(m.state_dict()),\n'
        '          lambda: sum(p.numel() for p in m.parameters()))'),
    # F.celu's alpha is a Scalar to the parser (celu / celu_): a list, a str, None or a tensor is a TypeError there
    "celu_alpha_types": (
        'import torch.nn as nn\n'
        'import torch.nn.functional as F\n'
        'import numpy as np\n'
        'x = torch.tensor([-1., 2.])\n'
        'for a in [[3], (3,), "3", None, torch.tensor(0.5), np.float64(0.5), True, 2, 0.5]:\n'
        '    tries(lambda: nn.CELU(a)(x), lambda: F.celu(x, a), lambda: F.celu(x.clone(), a, True), lambda: F.celu_(x.clone(), a),\n'
        '          lambda: nn.CELU(a))'),
}


@pytest.mark.parametrize("name", SNIPPETS)
def test_snippet(name):
    code = SHOW + SNIPPETS[name]
    t, e = run_both(T, E, code)
    assert same(t, e), f"\n{code}\n--- torch\n{t.summary()}--- engine\n{e.summary()}"
