"""Differences found by session 42's learner-style probes against real PyTorch, each kept here with its variants.
Printed text, warnings and the final error must be the same; the kernels' orders are compared bit for bit."""
import numpy as np
import pytest

T = pytest.importorskip("torch", reason="differential tests need real PyTorch (pip install torch==2.13.0)")
from .harness import SHOW, load_engine, run_both, same  # noqa: E402

E = load_engine()

SNIPPETS = {
    # a 1x1 convolution with a bias gives a contiguous output (its layout decides .view, Flatten's node, dropout)
    "conv_1x1_bias_contiguous": (
        'import torch.nn as nn\n'
        'y = nn.Conv2d(3, 4, kernel_size=1)(torch.randn(2, 3, 5, 5))\n'
        'print(y.stride(), y.is_contiguous(), y.view(2, -1).shape, nn.Flatten()(y).grad_fn)\n'
        'z = nn.Conv1d(3, 4, 1)(torch.randn(2, 3, 5)); print(z.stride(), z.relu().stride())\n'
        'm = nn.Dropout2d(0.5)(nn.Conv2d(4, 8, 1)(torch.randn(8, 4, 1, 1)))\n'
        'print(m.ne(0).flatten().int().tolist())'),
    # torch.func's transforms work inside inference_mode and no_grad (they computed zeros there)
    "func_transforms_in_inference_mode": (
        'from torch.func import grad, jacrev, vjp, jacfwd, hessian\n'
        'x = torch.tensor([1., 2.])\n'
        'with torch.inference_mode():\n'
        '    print(grad(lambda t: (t ** 2).sum())(x))\n'
        '    print(jacrev(torch.sin)(x)); print(vjp(torch.sin, x)[1](torch.ones(2)))\n'
        '    print(jacfwd(torch.sin)(x), hessian(lambda t: (t ** 3).sum())(x), torch.is_inference_mode_enabled())\n'
        'with torch.no_grad():\n'
        '    print(grad(lambda t: (t ** 2).sum())(x), torch.is_grad_enabled())'),
    # vjp's function frees the graph when told (retain_graph=False): a second call is the freed-graph error
    "func_vjp_retain_graph": (
        'from torch.func import vjp\n'
        'out, fn = vjp(torch.exp, torch.tensor([1., 2.]))\n'
        'print(fn(torch.ones(2), retain_graph=False))\n'
        'tries(lambda: fn(torch.ones(2)))\n'
        'out, fn = vjp(torch.exp, torch.tensor([1., 2.])); print(fn(torch.ones(2)), fn(torch.ones(2)))'),
    # saved-tensor contexts are decorators too (PyTorch's are contextmanagers); increment_version rebases views and
    # checks its argument
    "saved_tensor_contexts_as_decorators": (
        'from torch.autograd.graph import allow_mutation_on_saved_tensors, disable_saved_tensors_hooks\n'
        'from torch.autograd.graph import increment_version\n'
        '@allow_mutation_on_saved_tensors()\n'
        'def f():\n'
        '    a = torch.tensor([1., 2.], requires_grad=True)\n'
        '    c = a * 1; b = c.sin(); c.mul_(2)\n'
        '    b.sum().backward()\n'
        '    return a.grad, c\n'
        'print(f())\n'
        '@disable_saved_tensors_hooks("no hooks here")\n'
        'def g():\n'
        '    with torch.autograd.graph.saved_tensors_hooks(lambda t: t, lambda t: t):\n'
        '        return 1\n'
        'tries(g, lambda: increment_version(3))\n'
        'x = torch.tensor([1., 2.], requires_grad=True); y = x * 1; v = y[0]\n'
        'increment_version(y); print(v.grad_fn, y.grad_fn, y._version, v._version)\n'
        'x = torch.tensor([1., 2.], requires_grad=True); v = x.view(2)\n'
        'increment_version(x); print(v.grad_fn, x._version)'),
    # learners' mistakes, PyTorch's errors: a uint8 mask as the target of a spatial loss, float lengths in
    # random_split, a bool target of BCE with logits, non-tensors in pad_sequence, 2-d lengths in packing
    "loss_and_data_mistakes": (
        'import numpy as np\n'
        'import torch.nn.functional as F\n'
        'from torch.utils.data import random_split, TensorDataset\n'
        'from torch.nn.utils.rnn import pad_sequence, pack_padded_sequence\n'
        'for s, ts in [((1, 3, 2, 2), (1, 2, 2)), ((2, 3, 4), (2, 4)), ((1, 3, 2, 2, 2), (1, 2, 2, 2)), ((2, 3), (2,))]:\n'
        '    tries(lambda: F.cross_entropy(torch.randn(s), torch.zeros(ts, dtype=torch.uint8)),\n'
        '          lambda: F.nll_loss(torch.randn(s), torch.zeros(ts, dtype=torch.uint8), reduction="none"))\n'
        'ds = TensorDataset(torch.arange(10.))\n'
        'tries(lambda: random_split(ds, [8.0, 2.0]), lambda: [len(s) for s in random_split(ds, [0.8, 0.2])],\n'
        '      lambda: [list(s.indices) for s in random_split(ds, [7, 3], generator=torch.Generator().manual_seed(1))])\n'
        'tries(lambda: F.binary_cross_entropy_with_logits(torch.randn(2), torch.tensor([True, False])),\n'
        '      lambda: F.binary_cross_entropy_with_logits(torch.randn(2), [1., 0.]),\n'
        '      lambda: F.binary_cross_entropy_with_logits(torch.randn(2), torch.tensor([1, 0])))\n'
        'tries(lambda: pad_sequence([[1, 2], [3]]), lambda: pad_sequence([np.ones(2), np.ones(3)]),\n'
        '      lambda: pad_sequence((torch.ones(2), 3)),\n'
        '      lambda: pack_padded_sequence(torch.ones(3, 2), torch.tensor([[2, 1]])),\n'
        '      lambda: pack_padded_sequence(torch.ones(3, 2), torch.tensor(2)))'),
    # a tutorial's mixed-precision loop on a CPU-only build: torch.cuda.amp / torch.amp warn and turn off
    "amp_on_a_cpu_only_build": (
        'from torch.cuda.amp import GradScaler, autocast\n'
        'from torch.amp import GradScaler as GS2\n'
        'import torch.cuda.amp\n'
        'm = torch.nn.Linear(2, 1); opt = torch.optim.SGD(m.parameters(), 0.1)\n'
        'scaler = GradScaler()\n'
        'for i in range(2):\n'
        '    opt.zero_grad()\n'
        '    with autocast():\n'
        '        loss = m(torch.ones(3, 2)).sum()\n'
        '    print(loss, loss.dtype, torch.is_autocast_enabled())\n'
        '    scaler.scale(loss).backward(); print(scaler.step(opt), scaler.update(), scaler.get_scale(), scaler.is_enabled(), scaler.state_dict())\n'
        'print(m.weight, type(scaler), GS2, torch.autocast, torch.cuda.amp.autocast)\n'
        "tries(lambda: scaler.get_growth_factor(), lambda: torch.autocast(3), lambda: torch.autocast('cud'))\n"
        "with torch.autocast(device_type='cuda', dtype=torch.float16):\n"
        '    print(torch.ones(2) @ torch.ones(2))\n'
        "with torch.autocast('cpu', enabled=False):\n"
        "    print('cpu off')\n"
        "@torch.autocast('cuda')\n"
        'def f(x): return x * 2\n'
        'print(f(torch.ones(2)))'),
    # imports from where PyTorch defines things: random_split in dataset.py, default_collate in _utils/collate.py,
    # record_function in torch.profiler and torch.autograd.profiler
    "imports_from_pytorch_files_0": (
        'from torch.utils.data.dataset import random_split, Dataset, TensorDataset, Subset, ConcatDataset\n'
        'print(random_split)'),
    "imports_from_pytorch_files_1": (
        'from torch.utils.data.dataloader import default_collate, DataLoader\n'
        'print(default_collate([1, 2]))'),
    "imports_from_pytorch_files_2": (
        'from torch.utils.data._utils.collate import default_collate\n'
        'print(default_collate([torch.ones(2), torch.zeros(2)]))'),
    "imports_from_pytorch_files_3": (
        'from torch.utils.data import default_collate, default_convert\n'
        'print(default_collate([(1, 2.0), (3, 4.0)]))'),
    "imports_from_pytorch_files_4": (
        'import torch.autograd.profiler as profiler\n'
        'with profiler.record_function("label"):\n'
        '    x = torch.ones(2) * 2\n'
        'print(x)'),
    "imports_from_pytorch_files_5": (
        'from torch.profiler import profile, record_function, ProfilerActivity\n'
        'with record_function("model_inference"):\n'
        '    print(torch.ones(1))'),
    "imports_from_pytorch_files_6": (
        'import torch.profiler\n'
        'print(torch.profiler.ProfilerActivity.CPU, repr(torch.profiler.ProfilerActivity.CPU), list(torch.profiler.ProfilerActivity.__members__))\n'
        "r = torch.profiler.record_function('x'); print(type(r).__mro__)\n"
        'print(torch.autograd.profiler.record_function is torch.profiler.record_function, torch.autograd.profiler.profile, torch.profiler.profile)\n'
        '@torch.profiler.record_function("f")\n'
        'def f(x): return x + 1\n'
        'print(f(torch.ones(1)))'),
    # the version of a gradient made by scattering into zeros: 1 after indexing, gather, take, max(); 2 after sort,
    # topk, max(dim), cummax, trace
    "scattered_gradients_versions": (
        'ops = {\n'
        " 'index_list': lambda x: x[[0, 1], [1, 0]], 'index_col': lambda x: x[:, [1]], 'mask': lambda x: x[x > 2],\n"
        " 'gather': lambda x: x.gather(1, torch.tensor([[0], [1]])), 'masked_select': lambda x: x.masked_select(x > 1),\n"
        " 'take': lambda x: x.take(torch.tensor([0, 3])), 'as_strided': lambda x: x.as_strided((2,), (1,)), 'trace': lambda x: x.trace(),\n"
        " 'take_along_dim': lambda x: torch.take_along_dim(x, torch.tensor([[0], [1]]), 1), 'max': lambda x: x.max(), 'min': lambda x: x.min(),\n"
        " 'sort': lambda x: x.sort(1)[0], 'topk': lambda x: x.topk(1)[0], 'max_dim': lambda x: x.max(1)[0], 'min_dim': lambda x: x.min(0).values,\n"
        " 'kthvalue': lambda x: x.kthvalue(1, 1)[0], 'median_dim': lambda x: x.median(1)[0], 'median': lambda x: x.median(),\n"
        " 'cummax': lambda x: x.cummax(1)[0], 'cummin': lambda x: x.cummin(1)[0], 'index_select': lambda x: x.index_select(0, torch.tensor([1])),\n"
        " 'select': lambda x: x[0], 'slice': lambda x: x[:, 1:], 'diagonal': lambda x: x.diagonal(), 'amax': lambda x: x.amax(1),\n"
        " 'unbind': lambda x: x.unbind(0)[1], 'narrow': lambda x: x.narrow(1, 0, 1), 'nanmedian': lambda x: x.nanmedian(),\n"
        " 'mode': lambda x: x.mode(1)[0], 'msort': lambda x: x.msort(), 'index_put': lambda x: x.index_put((torch.tensor([0]),), torch.tensor(5.)),\n"
        '}\n'
        'for name, f in ops.items():\n'
        '    x = torch.tensor([[1., 2.], [3., 4.]], requires_grad=True)\n'
        '    try:\n'
        '        f(x).sum().backward()\n'
        '        print(name, x.grad._version)\n'
        '    except Exception as e:\n'
        '        print(name, type(e).__name__)'),
    # empty tensors: nothing shares memory in an empty expanded tensor (writes into it are fine); dropout of an
    # empty tensor is the tensor itself
    "empty_tensors_in_place": (
        't = torch.zeros(0, 1).expand(0, 2)\n'
        'tries(lambda: t.masked_fill_(t > 0, 0), lambda: t._version)\n'
        't = torch.zeros(0, 1).expand(0, 2)\n'
        'def f(): t[t > 0] = 0; return t._version\n'
        'tries(f)\n'
        'tries(lambda: (torch.zeros(3, 0) * 2).remainder_(0.7), lambda: (torch.zeros(3, 0) * 2).fmod_(0.7), lambda: (torch.zeros(3, 0)*2).atan2_(torch.zeros(3, 0)))\n'
        'x = torch.zeros(0, 3, requires_grad=True) * 1\n'
        'y = torch.nn.functional.dropout(x, 0.5, True, inplace=True)\n'
        'print(y._version, y.grad_fn, y is x)\n'
        'x = torch.zeros(0, 3, requires_grad=True) * 1\n'
        'y = torch.nn.functional.dropout(x, 0.5, True)\n'
        'print(y._version, y.grad_fn, y is x, torch.nn.Dropout(0.3)(x) is x)'),
    # argument errors of norms and pools: negative adaptive pool sizes, F.batch_norm's momentum=None, a 0-d RMSNorm
    "norm_and_pool_argument_errors": (
        'import torch.nn as nn, torch.nn.functional as F\n'
        'tries(lambda: nn.AdaptiveAvgPool2d(-1)(torch.ones(1, 2, 3, 3)), lambda: nn.AdaptiveAvgPool1d(-2)(torch.ones(1, 2, 3)),\n'
        '      lambda: nn.AdaptiveAvgPool2d((2, -1))(torch.ones(1, 2, 3, 3)), lambda: nn.AdaptiveMaxPool2d(-1)(torch.ones(1, 2, 3, 3)))\n'
        'tries(lambda: F.batch_norm(torch.randn(3, 2), torch.zeros(2), torch.ones(2), training=True, momentum=None),\n'
        '      lambda: F.batch_norm(torch.randn(3, 2), None, None, training=True, momentum=None))\n'
        'tries(lambda: nn.RMSNorm(3)(torch.tensor(1.)), lambda: nn.RMSNorm([])(torch.tensor(1.)))'),
    # expand of a 0-d tensor, under create_graph: its gradient is a sum (PyTorch's sum_to of a 0-d shape)
    "expand_0d_double_backward": (
        'x = torch.tensor(-1.2, requires_grad=True)\n'
        'print(torch.autograd.grad(x.expand_as(x).pow(2), x, create_graph=True)[0])\n'
        'print(torch.autograd.grad(x.expand(3).pow(2).sum(), x, create_graph=True)[0])\n'
        'y = torch.tensor([2.], requires_grad=True)\n'
        'print(torch.autograd.grad(y.expand(1).pow(2).sum(), y, create_graph=True)[0])'),
    # the KL divergence of a Bernoulli from a Poisson (PyTorch registers it)
    "kl_bernoulli_poisson": (
        'import torch.distributions as D\n'
        'print(D.kl_divergence(D.Bernoulli(0.3), D.Poisson(2.)), D.kl_divergence(D.Bernoulli(torch.tensor([0.1, 0.9])), D.Poisson(torch.tensor([0.5, 3.]))))\n'
        'p = torch.tensor([0.3], requires_grad=True); r = torch.tensor([2.], requires_grad=True)\n'
        'k = D.kl_divergence(D.Bernoulli(p), D.Poisson(r)); k.sum().backward(); print(k, p.grad, r.grad)'),
}


def _bits(t):
    return t.detach().numpy().tobytes()


def test_norms_and_products_in_avx2_lanes():
    """PyTorch runs its norm and prod kernels in AVX2's 8-float lanes on AVX-512 CPUs too (REGISTER_DISPATCH): 2-norms
    and products of contiguous rows, bit for bit (with 16 lanes about a third of these differed)."""
    rng = np.random.default_rng(42)
    differ = []
    for n in [*range(1, 80), 128, 200, 257]:
        for dtype in (np.float32, np.float64):
            a = rng.standard_normal(n).astype(dtype)
            p = (1 + rng.standard_normal(n) / 30).astype(dtype)
            m = rng.standard_normal((3, n)).astype(dtype)
            for name, f, x in [("norm", lambda t: t.norm(), a), ("vector_norm", lambda t, lib: lib.linalg.vector_norm(t), a),
                               ("prod", lambda t: t.prod(), p), ("norm dim 1", lambda t: t.norm(dim=1), m)]:
                got = [_bits(f(lib.from_numpy(x.copy()), lib) if name == "vector_norm" else f(lib.from_numpy(x.copy())))
                       for lib in (T, E)]
                if got[0] != got[1]:
                    differ.append((name, n, dtype.__name__))
    assert not differ, differ


@pytest.mark.parametrize("threads", [2, 3])
def test_softmax_and_log_softmax_bit_for_bit(threads):
    """softmax and log_softmax as PyTorch's kernels compute them, forward and backward: Sleef's log of the sums
    (engine/_ops.py _vec_log), glibc's expf where the kernels take the scalar exp (_glibc_expf), over another dim
    the sums along the dim in order (an inner size of 1 too), and softmax's split of the positions between its
    threads (which decides which take the vectorized exp). Before this session about half of these differed. (On
    one thread PyTorch's softmax backward over the last dim of a (64, 100) tensor adds otherwise: not modelled.)"""
    rng = np.random.default_rng(7)
    differ = []
    old = T.get_num_threads(), E.get_num_threads()
    T.set_num_threads(threads)
    E.set_num_threads(threads)
    try:
        for shape, d in [((4, 16, 5), 1), ((8, 3), 0), ((2, 7, 33), 1), ((5, 6, 2, 3), 1), ((20, 16, 1), 1),
                         ((3, 10, 20), 1), ((1, 10, 36), 1), ((20, 16), 1), ((64, 100), 1), ((4, 1000), -1),
                         ((6, 5, 7), 0)]:
            for k in range(4):
                x = (rng.standard_normal(shape) * (1 + k)).astype(np.float32)
                g = rng.standard_normal(shape).astype(np.float32)
                out = []
                for lib in (T, E):
                    results = []
                    for fn in (lib.log_softmax, lib.softmax):
                        t = lib.from_numpy(x.copy()).requires_grad_()
                        y = fn(t, d)
                        y.backward(lib.from_numpy(g.copy()))
                        results += [_bits(y), _bits(t.grad)]
                    out.append(results)
                differ += [(shape, d, k, i) for i, (a, b) in enumerate(zip(*out)) if a != b]
    finally:
        T.set_num_threads(old[0])
        E.set_num_threads(old[1])
    assert not differ, differ


@pytest.mark.parametrize("name", SNIPPETS)
def test_snippet(name):
    code = SHOW + SNIPPETS[name]
    t, e = run_both(T, E, code)
    assert same(t, e), f"\n{code}\n--- torch\n{t.summary()}--- engine\n{e.summary()}"
