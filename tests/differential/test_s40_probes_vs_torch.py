"""Differences found by session 40's learner-style probes against real PyTorch, each kept here with its variants.
Printed text, warnings and the final error must be the same."""
import numpy as np
import pytest

T = pytest.importorskip("torch", reason="differential tests need real PyTorch (pip install torch==2.13.0)")
from .harness import SHOW, load_engine, run_both, same  # noqa: E402

E = load_engine()

SNIPPETS = {
    # a reshape that cannot be a view copies into a contiguous tensor (PyTorch's _reshape_copy), so a view of the
    # result works; flatten goes the same way
    "reshape_copy_is_contiguous": (
        'x = torch.arange(24).reshape(2, 3, 4).permute(2, 0, 1)[..., :2]\n'
        'y = x.reshape(4, 4); print(y.is_contiguous(), y.stride()); print(y.view(16))\n'
        'print(torch.arange(32).reshape(2, 4, 4).permute(2, 0, 1)[..., :3].reshape(4, 6).stride())\n'
        'z = torch.arange(24.).reshape(2, 3, 4).permute(2, 0, 1).requires_grad_()\n'
        'f = z[..., :2].flatten(1); print(f.stride(), f.is_contiguous(), f.grad_fn, f.grad_fn.next_functions)\n'
        'f.sum().backward(); print(z.grad.stride(), z.grad[0])'),
    # a node hook sees None for an input that needs no gradient, the first one too
    "node_hook_none_for_first_input": (
        'x = torch.tensor([1., 2.], requires_grad=True)\n'
        'for make in (lambda: torch.tensor([10., 20.]) + x, lambda: torch.tensor([[10., 20.]]) - x,\n'
        '             lambda: torch.add(torch.ones(2), x, alpha=3), lambda: x + torch.ones(2),\n'
        '             lambda: torch.zeros(3).index_put((torch.tensor([1]),), x[:1]),\n'
        '             lambda: torch.zeros(3).index_put((torch.tensor([0, 2]),), x, accumulate=True)):\n'
        '    y = make()\n'
        '    y.grad_fn.register_hook(lambda gi, go: print(type(y.grad_fn).__name__, gi))\n'
        '    y.sum().backward()\n'
        'print(x.grad)\n'
        'g, = torch.autograd.grad(torch.zeros(3).index_put((torch.tensor([0, 2]),), x * x).sum(), x, create_graph=True)\n'
        'print(g, g.grad_fn)'),
    # torch.flip takes its dims as one sequence (the method takes ints one by one too)
    "flip_function_dims": (
        'x = torch.arange(6.).reshape(2, 3)\n'
        'tries(lambda: torch.flip(x, 0), lambda: torch.flip(x, (0,)), lambda: torch.flip(x, 0, 1),\n'
        '      lambda: torch.flip(x, dims=0), lambda: torch.flip(x, [0]), lambda: torch.flip(x), lambda: x.flip(0, 1),\n'
        '      lambda: torch.flip(input=x, dims=[1]))'),
    # a column, a slice with a step, a diagonal: summed as PyTorch sums a strided row (its scalar row_sum)
    "strided_row_sums": (
        'x = torch.tensor([[2.0, -2.6], [0.4, -0.6], [-0.5, -0.2], [-2.0, -0.2], [-0.9, 3.3]])\n'
        'print(x[:, 0].sum(), x[:, 0].sum().item(), x[:, 1].mean().item(), x.view(-1)[::3].sum().item())\n'
        'torch.manual_seed(0)\n'
        'a = torch.randn(37, 3)\n'
        'print(a[:, 1].sum().item(), a[:, 2].mean().item(), a[:20, :20].diagonal().sum().item(), a[::2, 0].sum(0).item())\n'
        'print(a.double()[:, 0].sum().item(), a[:, 1:2].sum(), a[:1, 0].expand(9).sum().item())'),
    # var and std over dims as PyTorch's Welford reduction, over the whole tensor from its own mean in two passes;
    # var_mean / std_mean always Welford (its mean too)
    "var_std_float64": (
        'x = torch.tensor([[1., 2., 2.], [0., -1., 2.]], dtype=torch.float64)\n'
        'print(x.var(1).tolist(), x.std(0).tolist(), x.var().item(), x.std(unbiased=False).item())\n'
        'print([t.tolist() for t in torch.var_mean(torch.tensor([0., -1., 2.], dtype=torch.float64))])\n'
        'print([t.tolist() for t in torch.std_mean(x, dim=1, keepdim=True)])\n'
        'torch.manual_seed(0)\n'
        'y = torch.randn(4, 5, 6, dtype=torch.float64) * 10 + 3\n'
        'print(y.var((0, 2)).tolist(), y.std(-1, correction=0)[0].tolist(), y[:, :1, :1].var().item())\n'
        'print(torch.tensor([1., float("inf"), 2.], dtype=torch.float64).var_mean(), y.float().var(1)[0])'),
    # softmax over a dim that is not the last: PyTorch's _vec_softmax (halves in float, each exp of the positions
    # left after whole vectors stored as a half; whole vectors of 32 halves are not modelled)
    "softmax_other_dims": (
        'x = torch.tensor([[1.], [3.]], dtype=torch.float16)\n'
        'print(x.softmax(0).tolist(), torch.softmax(x.float(), 0).tolist())\n'
        'y = (torch.arange(40.).reshape(4, 10) * 0.37).sin() * 3\n'
        'print(y.softmax(0)[:, :3].tolist(), y.half().softmax(0)[:, :3].tolist())\n'
        'z = (torch.arange(96.).reshape(3, 32) * 0.7).cos() * 2\n'
        'print(z.softmax(0)[:, 14:18].tolist(), z[:, :20].half().softmax(0)[:, 14:18].tolist())'),
    # a half addmm (nn.Linear of halves) adds the bias to the float product and rounds once
    "half_addmm_rounds_once": (
        'm = torch.nn.Linear(2, 1).half()\n'
        'with torch.no_grad(): m.weight.copy_(torch.tensor([[2048., 1.]])); m.bias.fill_(1.)\n'
        'print(m(torch.ones(1, 2).half()), m(torch.ones(3, 2).half()))\n'
        'torch.manual_seed(0)\n'
        'x = torch.randn(5, 8).half()\n'
        'print(torch.addmm(torch.ones(4).half(), x[:, :3], torch.randn(3, 4).half(), beta=0.5, alpha=2))'),
    # lerp with a 0-d weight promotes with it (integer start and end and a float weight: a float result)
    "lerp_zero_dim_weight_promotes": (
        'a = torch.tensor([1, 5])\n'
        'tries(lambda: torch.lerp(a, a * 2, torch.tensor(0.5)), lambda: torch.lerp(a, a * 2, torch.tensor(0.5, dtype=torch.float64)),\n'
        '      lambda: torch.lerp(a.float(), a.float() * 2, torch.tensor(0.5, dtype=torch.float64)), lambda: torch.lerp(a, a * 2, 0.5),\n'
        '      lambda: torch.lerp(a.bool(), a.bool(), torch.tensor(2)), lambda: torch.lerp(a.int(), a.int(), torch.tensor(2.5)),\n'
        '      lambda: a.int().lerp_(a.int(), torch.tensor(2.5)), lambda: torch.lerp(torch.tensor(1), torch.tensor(3), torch.tensor(0.5)))'),
    # logspace of one step is base ** start with start a double; empty_strided's sizes are sequences
    "logspace_one_step_and_empty_strided": (
        'torch.set_printoptions(precision=8)\n'
        'print(torch.logspace(0.3, 1, 1), torch.logspace(0.3, 1, 1, dtype=torch.float64), torch.logspace(0.3, 1, 2))\n'
        'tries(lambda: torch.empty_strided(3, 1), lambda: torch.empty_strided((3,), 1), lambda: torch.empty_strided((3,), (1,)).shape,\n'
        '      lambda: torch.empty_strided(size=(3,), stride=1), lambda: torch.empty_strided((3,), torch.tensor([1])))'),
    # ints and floats for an integer dtype: each stored by its own Python type (an int exact, wrapping into uint8;
    # a float truncated and checked)
    "mixed_numbers_for_integer_dtypes": (
        'tries(lambda: torch.tensor([-1, 2], dtype=torch.uint8), lambda: torch.tensor([-1, 0.5], dtype=torch.uint8),\n'
        '      lambda: torch.tensor([2**63 - 1, 1.0], dtype=torch.int64).tolist(), lambda: torch.tensor([2**53 + 1, 1.5], dtype=torch.int64).tolist(),\n'
        '      lambda: torch.tensor([1.7, -1.7, 2], dtype=torch.int32), lambda: torch.tensor([-1.5, 1], dtype=torch.uint8),\n'
        '      lambda: torch.tensor([float("nan"), 1], dtype=torch.int64), lambda: torch.LongTensor([2**63 - 1, 1.0]).tolist(),\n'
        '      lambda: torch.tensor([[2**62, 1.5], [-3, 2.9]], dtype=torch.int64), lambda: torch.tensor([2**64, 1.5], dtype=torch.int64))'),
    # cat into an out= that is one of its inputs: resized (warned), then the overlap error; module arguments
    "cat_out_is_input_and_argument_errors": (
        'x = torch.ones(4)\n'
        'tries(lambda: torch.cat([x, x], out=x), lambda: x.shape, lambda: x[:4])\n'
        'y = torch.ones(2); z = torch.zeros(3)\n'
        'tries(lambda: torch.cat([y, y], out=z), lambda: z)\n'
        'tries(lambda: torch.nn.GroupNorm(torch.tensor(3), 4), lambda: torch.nn.PReLU()([1., 2.]),\n'
        '      lambda: torch.nn.functional.prelu(torch.ones(2), [0.25]), lambda: torch.nn.functional.prelu([1.], torch.ones(1)))'),
    # torch.nn.attention.sdpa_kernel and torch.backends.cuda's flags choose scaled_dot_product_attention's kernel;
    # neither kernel allowed: PyTorch's errors (and the flash kernel's warning); torch.backends.mha's fast-path flag
    "sdpa_kernel_backends": (
        'import warnings\n'
        'from torch.nn.attention import sdpa_kernel, SDPBackend\n'
        'torch.manual_seed(0)\n'
        'q = torch.randn(1, 2, 3, 4)\n'
        'print(SDPBackend.MATH, repr(SDPBackend.FLASH_ATTENTION), SDPBackend.MATH.name, SDPBackend.MATH.value, int(SDPBackend.MATH))\n'
        'for b in [SDPBackend.MATH, SDPBackend.FLASH_ATTENTION, SDPBackend.EFFICIENT_ATTENTION, SDPBackend.CUDNN_ATTENTION, [SDPBackend.EFFICIENT_ATTENTION, SDPBackend.MATH], SDPBackend.OVERRIDEABLE]:\n'
        '    try:\n'
        '        with sdpa_kernel(b):\n'
        '            print(b, torch.nn.functional.scaled_dot_product_attention(q, q, q)[0, 0, 0])\n'
        '            print(torch.backends.cuda.flash_sdp_enabled(), torch.backends.cuda.math_sdp_enabled(), torch.backends.cuda.mem_efficient_sdp_enabled(), torch.backends.cuda.cudnn_sdp_enabled())\n'
        '    except Exception as e:\n'
        '        print(b, type(e).__name__, e)\n'
        'print(torch.backends.cuda.flash_sdp_enabled(), torch.backends.cuda.math_sdp_enabled())\n'),
    "sdpa_kernel_errors_and_flags": (
        'from torch.nn.attention import sdpa_kernel, SDPBackend\n'
        'torch.manual_seed(0)\n'
        'q = torch.randn(1, 2, 3, 4)\n'
        'def run(b, **kw):\n'
        '    try:\n'
        '        with sdpa_kernel(b):\n'
        '            print(b, torch.nn.functional.scaled_dot_product_attention(q, q, q, **kw).shape)\n'
        '    except Exception as e:\n'
        '        print(b, type(e).__name__, e)\n'
        'run(SDPBackend.FLASH_ATTENTION, dropout_p=0.5)\n'
        'run(SDPBackend.FLASH_ATTENTION, attn_mask=torch.ones(3, 3, requires_grad=True))\n'
        "with torch.backends.cuda.sdp_kernel(enable_flash=False): print('ok', torch.backends.cuda.flash_sdp_enabled())\n"
        'torch.backends.cuda.enable_math_sdp(False); torch.backends.cuda.enable_flash_sdp(False)\n'
        'tries(lambda: torch.nn.functional.scaled_dot_product_attention(q, q, q))\n'
        'torch.backends.cuda.enable_math_sdp(True); torch.backends.cuda.enable_flash_sdp(True)\n'
        'print(torch.backends.mha.get_fastpath_enabled()); torch.backends.mha.set_fastpath_enabled(False); print(torch.backends.mha.get_fastpath_enabled()); torch.backends.mha.set_fastpath_enabled(True)\n'),
    # the submodules of torch.nn.utils that code imports from (clip_grad, convert_parameters, init, stateless)
    "nn_utils_submodules": (
        'from torch.nn.utils.clip_grad import clip_grad_norm_, clip_grad_value_\n'
        'from torch.nn.utils.convert_parameters import parameters_to_vector, vector_to_parameters\n'
        'from torch.nn.utils.init import skip_init\n'
        'from torch.nn.utils import stateless\n'
        'torch.manual_seed(0)\n'
        'm = torch.nn.Linear(3, 2)\n'
        'm(torch.ones(1, 3)).sum().backward()\n'
        'print(clip_grad_norm_(m.parameters(), 0.5), m.weight.grad)\n'
        'v = parameters_to_vector(m.parameters()); print(v.shape, v.grad_fn)\n'
        'print(skip_init(torch.nn.Linear, 2, 2).weight.shape)\n'
        "print(stateless.functional_call(m, {'weight': torch.ones(2, 3), 'bias': torch.zeros(2)}, (torch.ones(1, 3),)))\n"
        'import torch.nn.utils.clip_grad as C\n'
        'print(C.clip_grad_norm_ is torch.nn.utils.clip_grad_norm_)\n'),
    # log_softmax of halves over the last dim: in float, the exps' sum and its log each stored as a half first
    "half_log_softmax": (
        'torch.manual_seed(0); x = torch.randn(2, 3).half()\n'
        'print(torch.log_softmax(x, -1), torch.tensor([3., -1., 2.], dtype=torch.float16).log_softmax(0), torch.nn.functional.log_softmax(x.float(), -1))\n'
        'y = torch.randn(4, 5, dtype=torch.float16, requires_grad=True)\n'
        'z = y.log_softmax(-1); print(z); z.sum().backward(); print(y.grad)\n'
        'print(torch.nn.functional.cross_entropy(torch.randn(3, 5).half(), torch.tensor([1, 0, 4])))\n'),
    # scaled_dot_product_attention of halves takes the flash kernel, in float, the output rounded once
    "half_sdpa_flash": (
        'torch.manual_seed(0)\n'
        'q = torch.randn(1, 1, 2, 4).half().requires_grad_()\n'
        'o = torch.nn.functional.scaled_dot_product_attention(q, q, q); print(o)\n'
        'o.sum().backward(); print(q.grad)\n'
        'k = torch.randn(2, 2, 5, 8).half(); m = torch.ones(5, 5, dtype=torch.bool).tril()\n'
        'print(torch.nn.functional.scaled_dot_product_attention(k, k, k, attn_mask=m)[0, 0, :2])'),
    # scaled_dot_product_attention's argument types, and a head of no numbers (its scale 1 / sqrt(0) = inf)
    "sdpa_arguments": (
        'q = torch.randn(2, 3, 4)\n'
        "tries(lambda: torch.nn.functional.scaled_dot_product_attention(q, q, q, scale='a'), lambda: torch.nn.functional.scaled_dot_product_attention(q, q, q, dropout_p='a'),\n"
        "      lambda: torch.nn.functional.scaled_dot_product_attention(q, q, q, is_causal='a'), lambda: torch.nn.functional.scaled_dot_product_attention(q, q, q, scale=2).shape,\n"
        '      lambda: torch.nn.functional.scaled_dot_product_attention(torch.randn(2, 3, 0), torch.randn(2, 3, 0), torch.randn(2, 3, 0)),\n'
        '      lambda: torch.nn.functional.scaled_dot_product_attention(q, q, q, dropout_p=-0.5).shape)\n'),
    # cross_entropy's label smoothing with weights, mean: divided by the targets' weights summed as PyTorch sums
    "cross_entropy_smoothing_weights": (
        'import torch.nn.functional as F\n'
        'torch.manual_seed(0)\n'
        'torch.set_printoptions(precision=10)\n'
        'x = torch.randn(8, 5, requires_grad=True); t = torch.randint(0, 5, (8,))\n'
        'w = torch.rand(5); w = torch.rand(5)\n'
        'F.cross_entropy(x, t, weight=w, label_smoothing=0.3).backward()\n'
        'print(x.grad[0])\n'),
    # torch.optim.swa_utils: AveragedModel (a running average or an EMA), SWALR, update_bn
    "swa_utils": (
        'from torch.optim.swa_utils import AveragedModel, SWALR, update_bn, get_ema_multi_avg_fn, get_ema_avg_fn\n'
        'torch.manual_seed(0)\n'
        'model = torch.nn.Sequential(torch.nn.Linear(3, 4), torch.nn.BatchNorm1d(4), torch.nn.Linear(4, 1))\n'
        'swa = AveragedModel(model)\n'
        'print(swa)\n'
        'print(swa.n_averaged, [n for n, _ in swa.named_buffers()])\n'
        'opt = torch.optim.SGD(model.parameters(), lr=0.1)\n'
        'sched = SWALR(opt, swa_lr=0.05, anneal_epochs=3)\n'
        'data = [torch.randn(5, 3) for _ in range(4)]\n'
        'for epoch in range(5):\n'
        '    for x in data:\n'
        '        opt.zero_grad(); model(x).pow(2).mean().backward(); opt.step()\n'
        '    swa.update_parameters(model); sched.step()\n'
        '    print(epoch, sched.get_last_lr(), swa.n_averaged)\n'
        'print(swa.module[0].weight)\n'
        'update_bn(data, swa)\n'
        'print(swa.module[1].running_mean, swa.module[1].running_var, swa.module[1].momentum)\n'
        'print(swa(torch.ones(2, 3)))\n'),
    "swa_utils_ema_and_errors": (
        'from torch.optim.swa_utils import AveragedModel, get_ema_multi_avg_fn, get_ema_avg_fn, SWALR\n'
        'torch.manual_seed(0)\n'
        'm = torch.nn.Linear(2, 2)\n'
        'ema = AveragedModel(m, multi_avg_fn=get_ema_multi_avg_fn(0.9))\n'
        'ema2 = AveragedModel(m, avg_fn=get_ema_avg_fn(0.9))\n'
        'for i in range(3):\n'
        '    with torch.no_grad(): m.weight.add_(1.0)\n'
        '    ema.update_parameters(m); ema2.update_parameters(m)\n'
        'print(ema.module.weight, ema2.module.weight)\n'
        'tries(lambda: AveragedModel(m, avg_fn=get_ema_avg_fn(), multi_avg_fn=get_ema_multi_avg_fn()), lambda: get_ema_avg_fn(2.0),\n'
        "      lambda: SWALR(torch.optim.SGD(m.parameters(), lr=0.1), swa_lr=0.1, anneal_strategy='exp'),\n"
        '      lambda: SWALR(torch.optim.SGD(m.parameters(), lr=0.1), swa_lr=0.1, anneal_epochs=-1), lambda: SWALR(torch.optim.SGD(m.parameters(), lr=0.1), swa_lr=[0.1, 0.2]))\n'
        "s = SWALR(torch.optim.SGD(m.parameters(), lr=0.1), swa_lr=0.01, anneal_epochs=0, anneal_strategy='linear')\n"
        'print(s.get_last_lr(), sorted(s.state_dict()))\n'
        's.step(); print(s.get_last_lr(), s.get_lr())\n'),
    # contiguous / is_contiguous take their memory_format by keyword only
    "contiguous_keyword_only": (
        'x = torch.ones(2)\n'
        'tries(lambda: x.contiguous(torch.contiguous_format), lambda: x.is_contiguous(torch.contiguous_format), lambda: x.contiguous(1, 2), lambda: x.contiguous(memory_format=1), lambda: x.is_contiguous(memory_format=torch.channels_last), lambda: torch.Tensor.contiguous(x, torch.contiguous_format))\n'
        'y = torch.ones(2, 3, 4, 5).contiguous(memory_format=torch.channels_last); print(y.is_contiguous(), y.is_contiguous(memory_format=torch.channels_last), y.stride())\n'),
    # torch.tensor of other sequences (array.array, deque, memoryview) reads them as lists
    "tensor_of_other_sequences": (
        'import array, collections\n'
        "tries(lambda: torch.tensor(array.array('f', [1., 2.])), lambda: torch.tensor(array.array('i', [1, 2])), lambda: torch.tensor(collections.deque([1, 2])),\n"
        "      lambda: torch.tensor(range(3)), lambda: torch.tensor([range(2), range(2)]), lambda: torch.tensor(memoryview(b'ab')), lambda: torch.tensor(collections.deque([[1., 2.], [3., 4.]])),\n"
        "      lambda: torch.tensor({'a': 1}), lambda: torch.tensor({1, 2}), lambda: torch.tensor('ab'), lambda: torch.tensor([collections.deque([1]), [2]]))\n"),
}


def test_strided_row_sums_bit_for_bit():
    """A column of a matrix and a slice with a step sum to PyTorch's bits (its scalar row_sum, four accumulators)."""
    rng = np.random.default_rng(0)
    for n in list(range(1, 70)) + [127, 128, 129, 300, 1000, 4099]:
        for dtype in (np.float32, np.float64):
            a = rng.standard_normal((n, 3)).astype(dtype)
            for key in ((slice(None), 1), (slice(None, None, 2), 0)):
                want = T.from_numpy(a)[key].sum().numpy()
                assert E.from_numpy(a)[key].sum().numpy().tobytes() == want.tobytes(), (n, dtype, key)


def test_var_std_bit_for_bit():
    """var / std / var_mean / std_mean over dims and whole, float32 and float64: PyTorch's bits."""
    import warnings
    warnings.simplefilter("ignore", UserWarning)      # (no degrees of freedom left in some: both warn)
    rng = np.random.default_rng(1)
    for i in range(150):
        shape = tuple(int(s) for s in rng.integers(1, 9, rng.integers(1, 4)))
        for dtype in (np.float32, np.float64):
            a = (rng.standard_normal(shape) * rng.choice([1, 100]) + rng.choice([0, 5])).astype(dtype)
            for lib_call in (lambda m, lib: m.var(), lambda m, lib: m.std(0), lambda m, lib: m.var(-1, keepdim=True),
                             lambda m, lib: lib.var_mean(m), lambda m, lib: lib.std_mean(m, 0, correction=0)):
                want, got = lib_call(T.from_numpy(a), T), lib_call(E.from_numpy(a), E)
                want, got = (want, got) if isinstance(want, tuple) else ((want,), (got,))
                for w, g in zip(want, got):
                    assert np.array_equal(w.numpy(), g.numpy(), equal_nan=True), (shape, dtype)


def test_smooth_l1_and_huber_gradients_bit_for_bit():
    """Their backward kernels: whole vectors through the vector lambda, the numbers after them through the scalar one
    (beta / delta a double there)."""
    rng = np.random.default_rng(2)
    for i in range(120):
        n, k = int(rng.integers(1, 100)), float(rng.choice([0.3, 0.7, 1.3]))
        dtype, red = (np.float32, np.float64)[i % 2], ("sum", "mean", "none")[i % 3]
        name, key = (("smooth_l1_loss", "beta"), ("huber_loss", "delta"))[i // 2 % 2]
        x, t, g = ((rng.standard_normal(n) * 0.5).astype(dtype) for _ in range(3))
        grads = []
        for lib in (T, E):
            xt = lib.from_numpy(x.copy()).requires_grad_()
            loss = getattr(lib.nn.functional, name)(xt, lib.from_numpy(t), reduction=red, **{key: k})
            loss.backward(lib.from_numpy(g) if red == "none" else None)
            grads.append(xt.grad.numpy())
        assert grads[0].tobytes() == grads[1].tobytes(), (name, n, k, dtype, red)


def test_group_norm_gradients_bit_for_bit():
    """GroupNorm's dx and its bias's gradient for float32 batches: PyTorch's kernel, its fused multiply-adds
    included (gradients that are rounding noise around 0 print the same)."""
    rng = np.random.default_rng(3)
    for i in range(60):
        groups = int(rng.choice([1, 2]))
        channels = int(rng.choice([2, 3, 5, 7, 8, 16]))       # (past 8 channels a group, the few positions that
        sizes = [(), (1,), (3,), (2, 3), (4, 4), (5, 4), (8, 8)]  # are not a whole vector of them: not all exact)
        shape = (int(rng.integers(2, 4)), groups * channels) + sizes[i % (7 if channels < 8 else 4)]
        x, dy = rng.standard_normal(shape).astype(np.float32), rng.standard_normal(shape).astype(np.float32)
        w = None if i % 2 else rng.standard_normal(shape[1]).astype(np.float32)
        grads = []
        for lib in (T, E):
            xt = lib.from_numpy(x.copy()).requires_grad_()
            bias = None if w is None else lib.zeros(shape[1], requires_grad=True)    # (PyTorch's backward fails for
            lib.nn.functional.group_norm(xt, groups, None if w is None else lib.from_numpy(w), bias).backward(  # a
                lib.from_numpy(dy))                                                       # bias without a weight)
            grads.append(xt.grad.numpy().tobytes() + (b'' if bias is None else bias.grad.numpy().tobytes()))
        assert grads[0] == grads[1], (shape, groups, w is None)


def test_layer_norm_input_gradient_bit_for_bit():
    """layer_norm's dx, with and without a weight, float32 and float64, every width: PyTorch's kernel (its sums fuse
    the products left over after whole vectors)."""
    rng = np.random.default_rng(4)
    for i in range(120):
        n, rows = int(rng.integers(1, 70)), int(rng.integers(1, 4))
        dtype = np.float64 if i % 4 == 3 else np.float32
        x, dy = rng.standard_normal((rows, n)).astype(dtype), rng.standard_normal((rows, n)).astype(dtype)
        w = None if i % 2 else rng.standard_normal(n).astype(dtype)
        grads = []
        for lib in (T, E):
            xt = lib.from_numpy(x.copy()).requires_grad_()
            lib.nn.functional.layer_norm(xt, (n,), None if w is None else lib.from_numpy(w)).backward(lib.from_numpy(dy))
            grads.append(xt.grad.numpy())
        assert grads[0].tobytes() == grads[1].tobytes(), (n, rows, dtype, w is None)


@pytest.mark.parametrize("name", SNIPPETS)
def test_snippet(name):
    code = SHOW + SNIPPETS[name]
    t, e = run_both(T, E, code)
    assert same(t, e), f"\n{code}\n--- torch\n{t.summary()}--- engine\n{e.summary()}"
