"""Known gaps of session 33, against real PyTorch: out= of the classification functions (isposinf / isneginf / signbit
take a bool out=, isnan / isinf / isfinite / isreal / isclose and other functions without an out= form refuse the
keyword), histc / diff / index_copy with out=, a module's hooks kept as PyTorch keeps them (OrderedDicts keyed by
handle id), F.interpolate / nn.Upsample given float or bool sizes and scale factors (the upsample op's argument
parser), bools where modules take ints (Linear's repr, the RNN op's parser at forward), the transposed
convolutions' parser errors (positions only for arguments given by position), padding='same' checked before the
convolution's own checks, and the strides of an empty nonzero."""
import pytest

T = pytest.importorskip("torch", reason="differential tests need real PyTorch (pip install torch==2.13.0)")
from .harness import SHOW, load_engine, run_both, same  # noqa: E402

E = load_engine()

SNIPPETS = {
    # isposinf / isneginf / signbit write a bool out= (resized with the warning when it has other elements), refuse
    # any other dtype first ("... does not support non-boolean outputs.", before autograd's refusal: their result
    # has no gradient, so an input that requires grad is fine)
    "boolean_out_of_isposinf_isneginf_signbit": (
        'for x in [torch.tensor([1., -2., float("inf"), -float("inf"), -0.]), torch.tensor([1., -2.], requires_grad=True),\n'
        '          torch.tensor([3, -1]), torch.tensor([True, False])]:\n'
        '    for f in [torch.isposinf, torch.isneginf, torch.signbit]:\n'
        '        for o in [torch.empty(x.shape, dtype=torch.bool), torch.empty(x.shape), torch.empty(1, dtype=torch.bool),\n'
        '                  torch.empty(0, dtype=torch.bool), torch.empty(x.shape, dtype=torch.uint8),\n'
        '                  torch.empty(3, requires_grad=True)]:\n'
        '            def g():\n'
        '                r = f(x, out=o)\n'
        '                return r is o, o, o._version\n'
        '            tries(g)'),
    # isnan, isinf, isfinite, isreal, isclose (and torch.det, trace, cov, positive, ravel, the in-place sqrt_ ...)
    # have no out= form: "got an unexpected keyword argument 'out'", even for out=None, before anything else; the
    # first keyword of those not taken is the one named
    "functions_without_out_refuse_it": (
        'for x in [torch.tensor([1., float("nan"), 2.5]), torch.tensor([1, 2]), torch.tensor([1., 2.], requires_grad=True)]:\n'
        '    tries(lambda: torch.isnan(x, out=torch.empty(3, dtype=torch.bool)), lambda: torch.isnan(x, out=None),\n'
        '          lambda: torch.isinf(input=x, out=x), lambda: torch.isclose(x, x, out=x), lambda: torch.isreal(x, out=x),\n'
        '          lambda: torch.isfinite(x, out=x), lambda: torch.isnan(x, foo=2, out=x), lambda: torch.det(x, out=x),\n'
        '          lambda: torch.sqrt_(x, out=x), lambda: torch.cosine_similarity(x, x, out=x), lambda: torch.trace(x, out=x),\n'
        '          lambda: torch.positive(x, out=x), lambda: torch.ravel(x, out=x), lambda: torch.fliplr(x, out=x),\n'
        '          lambda: torch.isposinf(x, out=None), lambda: torch.signbit(input=x, out=None))'),
    # histc takes out=, of the input's dtype, checked before its bins ("torch.histogram: input tensor and hist tensor
    # should have the same dtype"); bins <= 0 is refused before an integer input's "not implemented"
    "histc_out_and_its_checks": (
        'for x in [torch.tensor([1., 2., 3., 2.5]), torch.tensor([1., 2.], dtype=torch.float64), torch.tensor([1, 2]),\n'
        '          torch.tensor([True]), torch.tensor([1., 2.], requires_grad=True)]:\n'
        '    for o in [torch.empty(5), torch.empty(3, dtype=torch.float64), torch.empty(0), torch.empty(5, dtype=torch.int64),\n'
        '              torch.empty(5, requires_grad=True), None]:\n'
        '        for b in [5, -1]:\n'
        '            def g():\n'
        '                r = torch.histc(x, bins=b, min=0, max=3, out=o)\n'
        '                return r is o, r, o is not None and o._version\n'
        '            tries(g)'),
    # torch.diff and torch.index_copy take out= as well (index_copy's of the result's dtype)
    "diff_and_index_copy_out": (
        'x = torch.tensor([1., 4., 2.])\n'
        'for o in [torch.empty(2), torch.empty(5), torch.empty(2, dtype=torch.int64), torch.empty(2, dtype=torch.float64)]:\n'
        '    tries(lambda: (torch.diff(x, out=o), o), lambda: torch.diff(x, 1, 0, None, torch.ones(1), out=o))\n'
        'for o in [torch.empty(3), torch.empty(3, dtype=torch.float64), torch.empty(1)]:\n'
        '    tries(lambda: (torch.index_copy(torch.zeros(3), 0, torch.tensor([1]), torch.ones(1), out=o), o))'),
    # a module's hooks live in OrderedDicts keyed by their handles' ids (counted across every hook of the process),
    # their options (with_kwargs, always_call) in dicts of their own keyed alike; prepend puts a hook first; a
    # handle's remove() takes its id out of all of them; the state_dict hook dicts exist, empty
    "module_hooks_kept_by_handle_id": (
        'm = torch.nn.Linear(2, 2)\n'
        'def f(mod, i, o): print("f", type(mod).__name__)\n'
        'def g(mod, i, k, o): print("g", k)\n'
        'def p(mod, i): print("p")\n'
        'h1 = m.register_forward_hook(f)\n'
        'h2 = m.register_forward_hook(g, with_kwargs=True)\n'
        'h3 = m.register_forward_hook(f, prepend=True, always_call=True)\n'
        'h4 = m.register_forward_pre_hook(p)\n'
        'h5 = m.register_forward_pre_hook(lambda mod, a, k: None, with_kwargs=True, prepend=True)\n'
        'b1 = m.register_full_backward_hook(lambda *a: print("bw"))\n'
        'b2 = m.register_full_backward_pre_hook(lambda *a: print("bwpre"))\n'
        'base = h1.id\n'
        'print([h.id - base for h in [h1, h2, h3, h4, h5, b1, b2]])\n'
        'names = ["_forward_hooks", "_forward_pre_hooks", "_backward_hooks", "_backward_pre_hooks",\n'
        '         "_forward_hooks_with_kwargs", "_forward_hooks_always_called", "_forward_pre_hooks_with_kwargs",\n'
        '         "_state_dict_hooks", "_state_dict_pre_hooks", "_load_state_dict_pre_hooks", "_load_state_dict_post_hooks"]\n'
        'for name in names:\n'
        '    d = getattr(m, name)\n'
        '    print(name, type(d).__name__, [k - base for k in d], list(d.values())[:1] in ([f], [True], []))\n'
        'm(torch.ones(1, 2)).sum().backward()\n'
        'h2.remove(); h3.remove(); h5.remove(); b1.remove(); h2.remove()\n'
        'for name in names[:7]:\n'
        '    print(name, [k - base for k in getattr(m, name)])\n'
        'm(torch.ones(1, 2)).sum().backward()\n'
        'n = torch.nn.Linear(1, 1)\n'
        'print(n._forward_hooks, n._backward_hooks, n._state_dict_hooks)\n'
        'with n.register_forward_pre_hook(p) as h:\n'
        '    print(len(n._forward_pre_hooks), list(n._forward_pre_hooks) == [h.id])\n'
        'print(len(n._forward_pre_hooks))'),
    # a forward hook with always_call=True still runs when forward raises (its own error only warned of); the
    # weight_norm hook sits among the forward pre-hooks and remove_weight_norm takes it out
    "always_called_hooks_and_weight_norm": (
        'import warnings\n'
        'warnings.simplefilter("ignore", FutureWarning)\n'
        'm = torch.nn.Linear(2, 2)\n'
        'm.register_forward_hook(lambda mod, i, o: print("plain"))\n'
        'm.register_forward_hook(lambda mod, i, k, o: print("always", k), with_kwargs=True, always_call=True)\n'
        'tries(lambda: m(torch.ones(3)), lambda: m(torch.ones(2)).shape)\n'
        'w = torch.nn.utils.weight_norm(torch.nn.Linear(2, 2))\n'
        'print(len(w._forward_pre_hooks), type(list(w._forward_pre_hooks.values())[0]).__name__)\n'
        'tries(lambda: torch.nn.utils.weight_norm(w))\n'
        'torch.nn.utils.remove_weight_norm(w)\n'
        'print(len(w._forward_pre_hooks), sorted(dict(w.named_parameters())))'),
    # F.interpolate hands a size or scale factor that is not a list to the upsample op as a list of it: a float or
    # bool size is refused by that op's argument parser ("upsample_nearest2d() received an invalid combination of
    # arguments"), a bool scale factor taken as a float; a tuple is checked by its first element only, the later
    # ones read as ints (a bool for 0 or 1) or floats ("must be tuple of floats, but found element of type ...")
    "interpolate_sizes_and_scales_of_other_types": (
        'import numpy as np\n'
        'x = torch.ones(1, 1, 2, 2)\n'
        'F = torch.nn.functional\n'
        'for kw in [dict(size=3.0), dict(size=True), dict(size=(3, True)), dict(size=[True, True]), dict(size=3.5),\n'
        '           dict(size=torch.tensor(3)), dict(size=torch.tensor(3.)), dict(size=(torch.tensor(3), 3)), dict(size="3"),\n'
        '           dict(size=(np.int64(3), 3)), dict(scale_factor=True), dict(scale_factor=(True, 2)),\n'
        '           dict(scale_factor=torch.tensor(2.)), dict(scale_factor="2"), dict(scale_factor=(2., None)),\n'
        '           dict(scale_factor=(None, 2.)), dict(scale_factor=(2, "2")), dict(scale_factor=(2., torch.tensor(2.)))]:\n'
        '    for mode in ["nearest", "bilinear", "bicubic", "nearest-exact", "area"]:\n'
        '        print(kw, mode)\n'
        '        tries(lambda: F.interpolate(x, mode=mode, **kw).shape, lambda: torch.nn.Upsample(mode=mode, **kw)(x).shape)'),
    # the same for 1-d inputs (upsample_nearest1d, upsample_linear1d, area mode's adaptive_avg_pool1d) and the
    # older names (UpsamplingNearest2d, F.upsample...)
    "interpolate_1d_and_older_names": (
        'F = torch.nn.functional\n'
        'x = torch.ones(1, 1, 2)\n'
        'for kw in [dict(size=3.0), dict(size=(3.0,)), dict(size=True), dict(scale_factor=True), dict(size=(2, 2))]:\n'
        '    for mode in ["nearest", "linear", "area", "nearest-exact"]:\n'
        '        tries(lambda: F.interpolate(x, mode=mode, **kw).shape)\n'
        'tries(lambda: torch.nn.UpsamplingNearest2d(size=3.0)(torch.ones(1, 1, 2, 2)).shape,\n'
        '      lambda: torch.nn.UpsamplingBilinear2d(scale_factor=True)(torch.ones(1, 1, 2, 2)).shape,\n'
        '      lambda: F.upsample(torch.ones(1, 1, 2, 2), size=3.0).shape,\n'
        '      lambda: F.upsample_nearest(torch.ones(1, 1, 2, 2), size=3.0).shape,\n'
        '      lambda: F.upsample_bilinear(torch.ones(1, 1, 2, 2), size=3.0).shape,\n'
        '      lambda: F.interpolate(torch.ones(1, 1, 2, 2), scale_factor=(2, "2"), mode="area").shape)'),
    # a bool where a module takes an int is kept as given: Linear prints in_features=True (its repr formats the
    # values, a 0-d tensor as its number); convolutions, pools, cells take it as 1
    "bools_for_ints_in_module_constructors": (
        'import numpy as np\n'
        'torch.manual_seed(0)\n'
        'for c in ["Linear(True, 2)", "Linear(2, True)", "Linear(False, True)", "Linear(np.int64(2), 3)",\n'
        '          "Linear(torch.tensor(2), 3)", "LSTM(True, 2)", "GRU(2, True)", "RNNCell(True, True)",\n'
        '          "Conv2d(1, 1, 2, stride=(1, True))", "Conv2d(True, True, True)", "ConvTranspose2d(1, 1, 2, stride=(1, True))",\n'
        '          "Embedding(True, 2)", "MaxPool2d(2, stride=True)", "LazyLinear(True)"]:\n'
        '    def f():\n'
        '        m = eval("torch.nn." + c)\n'
        '        return m, [(n, tuple(p.shape)) for n, p in m.named_parameters()]\n'
        '    tries(f)\n'
        'm = torch.nn.Linear(True, 2)\n'
        'show(m(torch.ones(3, 1)))'),
    # nn.RNN / GRU / LSTM built with num_layers=True or bidirectional=1 fail at forward, in the argument parser of
    # the op they call (rnn_tanh / rnn_relu / gru / lstm), padded input or a PackedSequence
    "rnn_ops_parse_num_layers_and_bidirectional": (
        'for cls in ["RNN", "GRU", "LSTM"]:\n'
        '    for kw in ["num_layers=True", "bidirectional=1", "bidirectional=0", "dropout=0", "num_layers=1"]:\n'
        '        for packed in [False, True]:\n'
        '            def f():\n'
        '                torch.manual_seed(0)\n'
        '                m = eval("torch.nn.%s(1, 2, %s)" % (cls, kw))\n'
        '                x = (torch.nn.utils.rnn.pack_sequence([torch.ones(2, 1), torch.ones(1, 1)]) if packed\n'
        '                     else torch.ones(2, 1, 1))\n'
        '                return m, m(x)[0].data.shape\n'
        '            tries(f)\n'
        'tries(lambda: torch.nn.RNN(1, 2, nonlinearity="relu", num_layers=True)(torch.ones(2, 1, 1)))'),
    # conv_transpose1d / 2d's argument parser: padding='same' (a str) is not a tuple of ints; an argument given by
    # position is named with its position, one given by keyword without; a bad weight or bias, a missing weight,
    # an unknown keyword; a later bool in a list read as an int
    "conv_transpose_parser_errors": (
        'F = torch.nn.functional\n'
        'x1, w1 = torch.ones(1, 1, 4), torch.ones(1, 1, 2)\n'
        'x2, w2 = torch.ones(1, 1, 4, 4), torch.ones(1, 1, 2, 2)\n'
        'for f, x, w in [(F.conv_transpose1d, x1, w1), (F.conv_transpose2d, x2, w2), (torch.conv_transpose2d, x2, w2)]:\n'
        '    for args in [(None, 1, "same"), (None, 1, "valid"), (None, "same"), (None, 1, 0, "same"), (None, 1, 1.0),\n'
        '                 (None, 1, (1, "a")), (None, 1, 0, 0, 1, 1.5), (None, True), (None, (1, True)), (1,)]:\n'
        '        tries(lambda: f(x, w, *args).shape)\n'
        '    tries(lambda: f(x, w, padding="same").shape, lambda: f(x, w, stride="a").shape, lambda: f(x, w, groups="a"),\n'
        '          lambda: f(x, w, dilation=1.0), lambda: f(x, w, output_padding="same"), lambda: f(x), lambda: f(x, 1),\n'
        '          lambda: f(x, w, foo=1), lambda: f(input=x, weight=w, bias=None, stride=2).shape,\n'
        '          lambda: f(x, w, None, torch.tensor(2)).shape)'),
    # padding='same': the stride is checked and the input padded (asymmetrically for an even kernel) before the
    # convolution checks the channels, so the error shows the padded input; the graph keeps the pad
    "same_padding_before_convolution_checks": (
        'torch.manual_seed(0)\n'
        'F = torch.nn.functional\n'
        'for xs, ws in [((1, 2, 5, 5), (2, 2, 2, 2)), ((1, 2, 5), (2, 2, 2)), ((1, 4, 5, 5), (2, 2, 2, 2)), ((2, 5, 5), (1, 2, 3, 2))]:\n'
        '    for kw in [dict(), dict(dilation=2), dict(stride=2), dict(groups=2), dict(stride=0)]:\n'
        '        x = torch.randn(xs, requires_grad=True)\n'
        '        w = torch.randn(ws, requires_grad=True)\n'
        '        f = F.conv2d if len(ws) == 4 else F.conv1d\n'
        '        def g():\n'
        '            y = f(x, w, torch.zeros(ws[0]), padding="same", **kw)\n'
        '            y.sum().backward()\n'
        '            return y.shape, y.grad_fn, y.grad_fn._saved_padding, y.grad_fn.next_functions, x.grad.shape\n'
        '        tries(g)'),
    # nonzero / argwhere lay their result out column-major: strides (1, n), so (1, 0) when nothing is nonzero
    "strides_of_an_empty_nonzero": (
        'for e in ["torch.nonzero(torch.tensor(0.))", "torch.nonzero(torch.tensor(1.))", "torch.nonzero(torch.zeros(3))",\n'
        '          "torch.nonzero(torch.zeros(2, 3))", "torch.argwhere(torch.zeros(2, 3))", "torch.zeros(2, 3).nonzero()",\n'
        '          "torch.nonzero(torch.ones(2, 3))", "torch.zeros(0, 3)", "torch.zeros(2, 0).clone()"]:\n'
        '    y = eval(e)\n'
        '    print(e, tuple(y.shape), y.stride(), y.is_contiguous())\n'
        'y = torch.nonzero(torch.zeros(2, 3))\n'
        'y.resize_(0, 5)\n'
        'print(y.stride())'),
}


@pytest.mark.parametrize("name", SNIPPETS)
def test_snippet(name):
    code = SHOW + SNIPPETS[name]
    t, e = run_both(T, E, code)
    assert same(t, e), f"\n{code}\n--- torch\n{t.summary()}--- engine\n{e.summary()}"
