"""Printing against real PyTorch, session 15: the class paths modules print (type(m), print(nn.Embedding)),
torch.__version__ as a TorchVersion that compares as a version, numpy's np.array(t) (a copy; numpy's warning about
__array__'s missing `copy`), untyped_storage() bytes, torch.device equal only to devices (not strings), the repr
of a Parameter subclass and `tensor_contents`, nn.RMSNorm / F.rms_norm, nn.Softmax2d, Dropout1d, Dropout3d,
AlphaDropout, nn.Transformer and its decoder (repr, values, graph, errors), summarising with a negative edgeitems,
F.relu_, t == ndarray, the backend flags (is_mps, ...) and share_memory_, nn.Buffer, torch.compile (an
OptimizedModule, or the function, run as they are). Printed text, warnings and the final error must be the same."""

import pytest

T = pytest.importorskip("torch", reason="differential tests need real PyTorch (pip install torch==2.13.0)")
from .harness import load_engine, preload_compilers, run_both, same, SHOW  # noqa: E402

E = load_engine()

WALK = ("def walk(fn, d=0):\n"
        "    if fn is None: return\n"
        "    print('  ' * d + type(fn).__name__, sorted(a for a in dir(fn) if a.startswith('_saved_')))\n"
        "    for n, _ in fn.next_functions: walk(n, d + 1)\n")

SNIPPETS = {
    "module_class_paths": (
        'import torch.nn as nn\n'
        'for c in [nn.Embedding, nn.LayerNorm, nn.Unflatten, nn.ConstantPad1d, nn.ConstantPad2d, nn.ZeroPad2d,\n'
        '          nn.AdaptiveAvgPool2d, nn.RMSNorm, torch.Generator]:\n'
        '    print(c)\n'
        'print(type(nn.Embedding(3, 2)), type(torch.Generator()))'),
    "torch_version_compares_as_a_version": (
        'v = torch.__version__\n'
        'print(v, repr(v), type(v), v.split("+")[0], hash(v) == hash(str(v)), type(torch.version.__version__))\n'
        "for o in ['2.0', '2.9', '2.13', '2.13.0', '2.13.0+cpu', '2.13.1', '2.14.0.dev20250101', '2.13rc1',\n"
        "          '2.13.0.post1', 'abc', '10', (2, 0), (2, 13, 0), [2, 14]]:\n"
        '    print(repr(o), v > o, v < o, v >= o, v <= o, v == o, v != o)\n'
        'v > 5'),
    "numpy_array_of_a_tensor_copies_and_warns": (
        'import numpy as np\n'
        't = torch.tensor([1., 2.]); a = np.array(t); a[0] = 5; print(t, a)\n'
        'b = np.array(t, dtype=np.float64); b[1] = 7; print(t, b); c = np.asarray(t); c[1] = 9; print(t)\n'
        'print(np.array([t, t]), np.array(torch.tensor(3.)))\n'
        'try:\n'
        '    np.array(torch.ones(2, requires_grad=True))\n'
        'except RuntimeError as e:\n'
        '    print(e)\n'
        'np.array(t, copy=False)'),
    "untyped_storage": (
        'x = torch.tensor([1., 2.5]); s = x.untyped_storage()\n'
        'print(type(s), len(s), s.size(), s.nbytes(), s[4], s.tolist()[:4], s.device, s.element_size())\n'
        'print(s.data_ptr() == x.data_ptr(), x[1:].untyped_storage().data_ptr() == s.data_ptr(),\n'
        '      x.clone().untyped_storage().data_ptr() == s.data_ptr())\n'
        'print(s); print(torch.tensor([True, False]).untyped_storage()); print(torch.tensor([], dtype=torch.int8).untyped_storage())\n'
        's.dtype'),
    "parameter_subclass_and_tensor_contents": (
        'import torch.nn as nn\n'
        'class MyParam(nn.Parameter):\n'
        '    pass\n'
        'p = MyParam(torch.arange(40.).reshape(2, 20) * 1.5); print(p); print(p.__repr__(tensor_contents="[...]"))\n'
        'print(torch.tensor([1.]).__repr__(tensor_contents="xyz"))\n'
        'print(torch.tensor([1.], requires_grad=True).__repr__(tensor_contents="x" * 75)); print(nn.Parameter(torch.zeros(1)))'),
    "device_equals_only_devices": (
        'd = torch.zeros(1).device\n'
        "print(d == 'cpu', d != 'cpu', 'cpu' == d, d in ['cpu'], str(d) == 'cpu', d == torch.device('cpu'),\n"
        "      d.type == 'cpu', torch.device('cpu') == torch.device('cpu:0'), d.__eq__('cpu'))\n"
        'tries(lambda: torch.device(0), lambda: torch.device(1), lambda: torch.device(True), lambda: torch.device(1.5),\n'
        "      lambda: torch.device(None), lambda: torch.device('cpu', 'x'), lambda: torch.device(d, 0),\n"
        "      lambda: torch.device(d), lambda: torch.device('cpu', 0))"),
    "rms_norm_module": (
        'import torch.nn as nn\n'
        'torch.manual_seed(0)\n'
        'm = nn.RMSNorm(4); print(m, m.weight, m.state_dict())\n'
        'x = torch.randn(2, 4, requires_grad=True); y = m(x); print(y); walk(y.grad_fn)\n'
        'y.sum().backward(); print(x.grad, m.weight.grad)\n'
        'print(nn.RMSNorm([2, 4], eps=1e-6, elementwise_affine=False), nn.RMSNorm(torch.Size([3]), 1e-5), nn.RMSNorm(3).eps)\n'
        'print(nn.RMSNorm(3, elementwise_affine=False).weight); nn.RMSNorm(3).bias'),
    "rms_norm_function": (
        'import torch.nn.functional as F\n'
        'torch.manual_seed(0)\n'
        'x = torch.randn(2, 3, 4, requires_grad=True); y = F.rms_norm(x, (3, 4), eps=0.1); print(y); walk(y.grad_fn)\n'
        'y.pow(2).sum().backward(); print(x.grad)\n'
        'h = torch.randn(2, 3).half().requires_grad_(); y = F.rms_norm(h, [3]); print(y); walk(y.grad_fn)\n'
        'print(F.rms_norm(torch.full((1, 3), 1e-3).half(), (3,)), F.rms_norm(torch.full((1, 3), 1e-4), (3,)),\n'
        '      F.rms_norm(torch.full((1, 3), 1e-8, dtype=torch.float64), (3,)))\n'
        'print(F.rms_norm(torch.zeros(2, 3), (3,)), F.rms_norm(torch.zeros(0, 3), (3,)))\n'
        'tries(lambda: F.rms_norm(torch.arange(6).reshape(2, 3), (4,), torch.ones(2)),\n'
        '      lambda: F.rms_norm(torch.randn(2, 3), (4,)), lambda: F.rms_norm(torch.randn(2, 3), (2, 4)),\n'
        '      lambda: F.rms_norm(torch.randn(2, 3), ()), lambda: F.rms_norm(torch.randn(2, 3), 3),\n'
        '      lambda: F.rms_norm(torch.randn(3), (3.,)), lambda: F.rms_norm(torch.arange(3), (3,)))'),
    "softmax2d_dropout1d_dropout3d": (
        'import torch.nn as nn, torch.nn.functional as F\n'
        'print(nn.Softmax2d(), nn.Dropout1d(0.3), nn.Dropout3d(), nn.Dropout1d(p=0.2, inplace=True), type(nn.Dropout3d()))\n'
        'torch.manual_seed(0)\n'
        'x = torch.randn(2, 3, 2, 2, requires_grad=True); y = nn.Softmax2d()(x); print(y[0, :, 0, 0]); walk(y.grad_fn)\n'
        'print(nn.Softmax2d()(x[0]).sum(0))\n'
        'y = nn.Dropout1d(0.5)(torch.ones(2, 4, 3, requires_grad=True)); print(y); walk(y.grad_fn)\n'
        'y = nn.Dropout1d(0.5)(torch.ones(4, 3, requires_grad=True)); print(y); walk(y.grad_fn)\n'
        'y = nn.Dropout1d(0.5).eval()(torch.ones(4, 3, requires_grad=True)); print(y); walk(y.grad_fn)\n'
        'y = F.dropout3d(torch.ones(2, 3, 1, 1, 2, requires_grad=True), 0.5); print(y); walk(y.grad_fn)\n'
        'print(F.dropout3d(torch.ones(3, 1, 1, 2), 0.5)); x = torch.ones(3, 4); F.dropout1d(x, 0.5, inplace=True); print(x)\n'
        'tries(lambda: nn.Softmax2d()(torch.ones(2, 2)), lambda: nn.Dropout1d()(torch.ones(2)),\n'
        '      lambda: F.dropout1d(torch.ones(2, 2, 2, 2)), lambda: nn.Dropout1d(1.5), lambda: F.dropout3d(torch.ones(2, 3), 0.5),\n'
        '      lambda: F.dropout3d(torch.ones(2, 3), 2.), lambda: F.dropout1d(torch.ones(2, 3), 1.))'),
    "transformer_and_its_decoder": (
        'import torch.nn as nn\n'
        'torch.manual_seed(0)\n'
        'm = nn.Transformer(d_model=8, nhead=2, num_encoder_layers=1, num_decoder_layers=2, dim_feedforward=16,\n'
        '                   dropout=0.0); print(m, type(m))\n'
        'print(sum(p.numel() for p in m.parameters()), [n for n, _ in m.named_parameters()][:12])\n'
        'src = torch.randn(5, 2, 8); tgt = torch.randn(3, 2, 8)\n'
        'out = m(src, tgt, tgt_mask=m.generate_square_subsequent_mask(3)); print(out[0], out.grad_fn)\n'
        '(out * torch.arange(8.)).sum().backward()\n'
        'print(m.decoder.layers[0].linear1.weight.grad[:2, :4], m.encoder.layers[0].linear2.bias.grad)\n'
        'print(nn.Transformer.generate_square_subsequent_mask(4))\n'
        'layer = nn.TransformerDecoderLayer(d_model=4, nhead=2, dim_feedforward=8, batch_first=True, dropout=0.0)\n'
        'dec = nn.TransformerDecoder(layer, num_layers=2); print(dec)\n'
        'tgt = torch.randn(2, 3, 4); mem = torch.randn(2, 5, 4); print(dec(tgt, mem))\n'
        'print(layer(tgt, mem, tgt_mask=nn.Transformer.generate_square_subsequent_mask(3), tgt_is_causal=True))\n'
        "print(nn.TransformerDecoderLayer(4, 2, 8, 0.1, 'gelu', norm_first=True))\n"
        'm = nn.Transformer(4, 2, 1, 1, 8, batch_first=True); src = torch.randn(2, 5, 4)\n'
        'tries(lambda: m(src, torch.randn(3, 3, 4)), lambda: m(src, torch.randn(2, 3, 6)))\n'
        'm.eval(); print(m(src, torch.randn(2, 3, 4))[0])'),
    "functional_relu_": (
        'import torch.nn.functional as F\n'
        'x = torch.tensor([-1., 2.]); print(F.relu_(x), x)\n'
        'y = torch.tensor([-1., 2.], requires_grad=True).clone(); print(F.relu_(y), y._version)\n'
        'F.relu_(3)'),
    "eq_with_numpy_arrays": (
        'import numpy as np\n'
        't = torch.tensor([1., 2.])\n'
        "tries(lambda: t == np.array([1., 2.]), lambda: np.array([1., 2.]) == t, lambda: t == np.array(1.),\n"
        "      lambda: torch.tensor([1, 2]) == np.array([1., 2.5]), lambda: torch.tensor([0.1]) == np.array([0.1]),\n"
        "      lambda: torch.tensor([0.1]) == np.array([0.1], dtype=np.float32), lambda: t == np.array([[1.], [2.]]),\n"
        "      lambda: t != np.array([1., 2.]), lambda: t == np.array(['a', 'b']), lambda: t == [1, 2],\n"
        "      lambda: t < np.array([2., 2.]), lambda: t.eq(np.array([1., 0.])), lambda: t == np.array([1., 2., 3.]))"),
    "backend_flags_and_share_memory": (
        'x = torch.ones(2, 2)\n'
        'print(x.is_sparse, x.is_quantized, x.is_meta, x.is_complex(), x.is_floating_point(), x.is_contiguous(),\n'
        '      x.is_pinned(), x.is_shared(), x.is_nested, x.is_mkldnn, x.is_mps, x.is_xla, x.is_vulkan, x.is_ipu, x.is_xpu,\n'
        '      x.is_mtia, x.is_maia, x.is_sparse_csr, x.is_cuda, x.is_cpu)\n'
        'print(x.share_memory_() is x, x.is_shared(), torch.ones(1).is_shared())'),
    "nn_buffer": (
        'import torch.nn as nn\n'
        "m = nn.Module(); m.register_buffer('b', torch.zeros(1))\n"
        'm.c = nn.Buffer(torch.ones(2), persistent=False)\n'
        'print(m.state_dict(), list(m.named_buffers()), m.c, type(m.c), isinstance(m.c, nn.Buffer),\n'
        '      isinstance(torch.ones(1), nn.Buffer), nn.Buffer, nn.Buffer(torch.ones(2, requires_grad=True)), nn.Buffer())\n'
        'class M(nn.Module):\n'
        '    def __init__(self):\n'
        '        super().__init__(); self.s = nn.Buffer(torch.arange(3.))\n'
        'k = M(); print(k, k.state_dict()); k.s = torch.zeros(2); print(k.state_dict())\n'
        'k.s = nn.Buffer(torch.ones(1), persistent=False); print(k.state_dict(), list(k.buffers()))\n'
        "tries(lambda: setattr(m, 'b', 3), lambda: setattr(nn.Linear(1, 1), 'weight', nn.Buffer(torch.ones(1, 1))))"),
    "compile_runs_the_model_as_it_is": (
        'import torch.nn as nn\n'
        "m = nn.Linear(2, 1); c = torch.compile(m, backend='eager'); print(type(c)); print(c)\n"
        'print(list(c.state_dict().keys()), c.weight is m.weight, c.training, c.in_features,\n'
        '      [n for n, _ in c.named_parameters()], c._orig_mod is m)\n'
        "c.eval(); print(m.training, c.training, c(torch.ones(1, 2)).shape, torch.compile(mode='max-autotune')(m) is m)\n"
        "@torch.compile(backend='eager')\n"
        'def f(x): return x + 1\n'
        'print(f.__name__, f(torch.tensor([1., 2.])))\n'
        'model = torch.compile(nn.Sequential(nn.Linear(2, 2), nn.ReLU())); print(model)\n'
        'torch.compile(3)'),
    "alpha_dropout": (
        'import torch.nn as nn, torch.nn.functional as F\n'
        'print(nn.AlphaDropout(0.2), type(nn.AlphaDropout()))\n'
        'torch.manual_seed(0)\n'
        'x = torch.randn(3, 4, requires_grad=True); y = nn.AlphaDropout(0.3)(x); print(y); walk(y.grad_fn)\n'
        'y.sum().backward(); print(x.grad)\n'
        'print(F.alpha_dropout(x, 0.5)); print(F.alpha_dropout(x, 0.5, True).shape, torch.rand(2))\n'
        'y = F.alpha_dropout(x, 1., True); print(y); walk(y.grad_fn); print(nn.AlphaDropout(0.5).eval()(x) is x)\n'
        'z = torch.ones(2, 3); F.alpha_dropout(z, 0.4, True, True); print(z)\n'
        'print(F.alpha_dropout(torch.ones(5, dtype=torch.float64), 0.2, True)); F.alpha_dropout(x, 1.5, True)'),
    "negative_edgeitems_summarised": (
        'torch.set_printoptions(edgeitems=-1, threshold=3)\n'
        'try:\n'
        '    print(torch.arange(10)); print(torch.arange(20).reshape(5, 4))\n'
        'finally:\n'
        "    torch.set_printoptions(profile='default')"),
}


@pytest.mark.parametrize("name", SNIPPETS)
def test_snippet(name):
    if name.startswith("compile"):
        preload_compilers(T, E)
    code = SHOW + WALK + SNIPPETS[name]
    t, e = run_both(T, E, code)
    assert same(t, e), f"\n{code}\n--- torch\n{t.summary()}--- engine\n{e.summary()}"
