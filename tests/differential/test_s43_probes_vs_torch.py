"""Differences found by session 43's learner-style probes against real PyTorch, each kept here with its variants.
Printed text, warnings and the final error must be the same."""
import contextlib

import pytest

T = pytest.importorskip("torch", reason="differential tests need real PyTorch (pip install torch==2.13.0)")
from .harness import SHOW, load_engine, run_both, same, skip_unless_engine_cpu  # noqa: E402

E = load_engine()


@contextlib.contextmanager
def both_on(threads):
    """PyTorch and the engine on that many threads (the order of a big reduction's additions depends on it)."""
    old = T.get_num_threads(), E.get_num_threads()
    T.set_num_threads(threads)
    E.set_num_threads(threads)
    try:
        yield
    finally:
        T.set_num_threads(old[0])
        E.set_num_threads(old[1])


SNIPPETS = {
    # a slice counts as the whole dim only when its start is written 0 (or left out): `b[-3:] = v` is CopySlices
    "setitem_negative_start_slice": (
        'x = torch.arange(6.).reshape(3, 2).requires_grad_()\n'
        'b = x * 2; b[-3:] = -1.\n'
        'c = x * 2; c[:, -2:] += 1\n'
        'd = x * 2; d[0:10] = 2.\n'
        'e = x * 2; e[:] = 3.\n'
        'print(b.grad_fn, c.grad_fn, d.grad_fn, e.grad_fn)\n'
        'v = torch.zeros(0, 3, dtype=torch.bool); v[1:0, :] = True; print(v)'),
    # take_along_dim with a dim wraps its indices into the dim's range (without one it refuses them)
    "take_along_dim_wraps": (
        'x = torch.arange(6.).reshape(2, 3)\n'
        'print(torch.take_along_dim(x, torch.tensor([[-1, 3, -4, 100]]), 1))\n'
        'w = x.clone().requires_grad_(); y = torch.take_along_dim(w, torch.tensor([[-1, 3, -4]]), 1)\n'
        'print(y.grad_fn._saved_index); y.sum().backward(); print(w.grad)\n'
        'tries(lambda: torch.take_along_dim(x, torch.tensor([7])), lambda: torch.take_along_dim(x, torch.tensor([-1])))'),
    # an as_strided view whose elements share memory refuses writes, and index_put_ / masked_fill_ warn, as for
    # an expanded tensor
    "as_strided_overlapping_writes": (
        'x = torch.zeros(3).as_strided((3,), (0,))\n'
        'tries(lambda: x.mul_(2), lambda: x.__setitem__(slice(None), 1.), lambda: x.view(3, 1).add_(1))\n'
        'x[[1]] = 1.\n'
        'x.masked_fill_(torch.tensor([True, False, False]), 2.)\n'
        'print(x, torch.zeros(4).as_strided((2, 2), (1, 2)).add_(1))'),
    # index_add_'s bad index: scatter_add's message for a first or last dim of 2 dims or more with alpha 1, else
    # "index out of range in self"; index_reduce refuses negative indices
    "index_add_and_index_reduce_bad_indices": (
        'x = torch.zeros(4, 3)\n'
        'tries(lambda: x.index_add_(0, torch.tensor([-1]), torch.ones(1, 3), alpha=2),\n'
        '      lambda: torch.zeros(2, 3, 4).index_add_(1, torch.tensor([3]), torch.ones(2, 1, 4)),\n'
        '      lambda: torch.zeros(2, 3, 4).index_add_(2, torch.tensor([5]), torch.ones(2, 3, 1)),\n'
        '      lambda: x.index_add_(0, torch.tensor([5]), torch.ones(1, 3)),\n'
        '      lambda: x.index_add_(1, torch.tensor([5]), torch.ones(4, 1), alpha=1.0),\n'
        '      lambda: torch.zeros(4).index_add_(0, torch.tensor([5]), torch.ones(1)),\n'
        '      lambda: torch.zeros(3).index_reduce(0, torch.tensor([-1]), torch.ones(1), "amax"),\n'
        '      lambda: torch.zeros(3, 2).index_reduce(1, torch.tensor([-2]), torch.ones(3, 1), "prod"))'),
    # gather and scatter name the first bad index their kernel meets: over a dim that is not the last, the dim's
    # loop runs outside the innermost of the others
    "gather_scatter_first_bad_index": (
        'x = torch.zeros(2, 2, 1); i = torch.tensor([[[0], [-1]], [[-2], [0]]])\n'
        'tries(lambda: x.gather(1, i), lambda: x.scatter(1, i, 1.), lambda: x.scatter_add(1, i, torch.ones(2, 2, 1)))\n'
        'y = torch.zeros(3, 2, 2); j = torch.tensor([[[0, 0], [0, 7]], [[5, 0], [0, 0]]])\n'
        'tries(lambda: y.gather(0, j), lambda: y.gather(1, j), lambda: y.scatter_(2, j, 2.))'),
    # a uint8 mask is read again by each gradient of index_put_ (warned each time), and its node saves it as given
    "uint8_index_put_backward_warnings": (
        'x = torch.ones(5, 2, requires_grad=True); b = x * 2\n'
        'm = torch.tensor([0, 0, 0, 1, 0], dtype=torch.uint8)\n'
        'b[m, [0, 0]] = -1\n'
        'print(b.grad_fn._saved_indices)\n'
        'b.sum().backward()\n'
        'w = torch.ones(1, requires_grad=True); c = x * 2; c[m, [0, 0]] += w; c.sum().backward()\n'
        'd = (x * 2).index_put((m,), torch.tensor([1., 2.])); print(d.grad_fn._saved_indices); d.sum().backward()\n'
        'print(x.grad, w.grad)'),
    # an empty input's index gradient is differentiable under create_graph
    "index_backward_of_empty_input": (
        'x = torch.ones(2, 3, requires_grad=True)\n'
        'r = x[:0, [0]]\n'
        'g, = torch.autograd.grad((r * r).sum(), x, create_graph=True)\n'
        'print(g.grad_fn, g)'),
    # a node computes its inputs' gradients in the order of their names (other before self, end before self), as
    # PyTorch's generated code: the gradients' nodes under create_graph are numbered so
    "gradients_in_the_order_of_their_names": (
        'a = torch.tensor([1., 2., 0.5], requires_grad=True); b = torch.tensor([3., 0.5, 1.5], requires_grad=True)\n'
        'w = torch.tensor([0.3, 0.6, 0.1], requires_grad=True)\n'
        'for f in (lambda: torch.where(a > 1, a, b), torch.maximum, torch.minimum, torch.fmax, torch.fmin, torch.hypot,\n'
        '          torch.logaddexp, torch.xlogy, lambda: torch.lerp(a, b, 0.3), torch.vdot, torch.linalg.cross):\n'
        '    y = f() if f.__name__ == "<lambda>" else f(a, b)\n'
        '    ga, gb = torch.autograd.grad(y.exp().sum(), [a, b], create_graph=True)\n'
        '    print(ga.grad_fn, gb.grad_fn, ga.grad_fn._sequence_nr() > gb.grad_fn._sequence_nr())\n'
        'ga, gb, gw = torch.autograd.grad(torch.lerp(a, b, w).exp().sum(), [a, b, w], create_graph=True)\n'
        'print(ga.grad_fn._sequence_nr() > gb.grad_fn._sequence_nr(), gw.grad_fn._sequence_nr() > ga.grad_fn._sequence_nr())'),
    # PReLU's double backward gives zeros, not None, where the other gradient is undefined (a gradient penalty)
    "prelu_double_backward_zeros": (
        'x = torch.tensor([1.5, -0.7], requires_grad=True)\n'
        'g, = torch.autograd.grad(torch.nn.functional.prelu(x, torch.tensor([0.25])).sum(), x, create_graph=True)\n'
        'tries(lambda: torch.autograd.grad(g.sum(), x))\n'
        'D = torch.nn.Sequential(torch.nn.Linear(3, 4), torch.nn.PReLU(), torch.nn.Linear(4, 1))\n'
        'x = torch.randn(2, 3, requires_grad=True)\n'
        'g, = torch.autograd.grad(D(x).sum(), x, create_graph=True)\n'
        '(g ** 2).sum().backward()\n'
        'print(x.grad, D[1].weight.grad, D[0].weight.grad)'),
    # is_grads_batched with an implicit gradient: backward's error for a non-scalar output, vmap's for a 0-d one;
    # materialize_grads makes its zeros after the batch
    "is_grads_batched_implicit_and_materialized": (
        'x = torch.tensor([1., 2.], requires_grad=True); w = torch.tensor(3., requires_grad=True)\n'
        'tries(lambda: torch.autograd.grad(x**2, x, None, is_grads_batched=True),\n'
        '      lambda: torch.autograd.grad((x**2).sum(), x, None, is_grads_batched=True),\n'
        '      lambda: torch.autograd.grad([(x**2).sum(), x*2], [x], [torch.ones(3), None], is_grads_batched=True),\n'
        '      lambda: torch.autograd.grad(x**2, [x, w], torch.eye(2), is_grads_batched=True, materialize_grads=True),\n'
        '      lambda: torch.autograd.grad(x**2, [x, w], torch.eye(2), is_grads_batched=True, allow_unused=True))'),
    # a Python float base to an integer tensor's power is made a float32 first (the `gamma ** torch.arange(T)` of a
    # discounted return)
    "float_base_to_integer_powers": (
        'print((0.9 ** torch.arange(5)).tolist(), torch.pow(0.1, torch.tensor([-6, 10])).tolist())\n'
        'print((2 ** torch.arange(5)).tolist(), (0.5 ** torch.arange(3, dtype=torch.int32)).tolist())\n'
        'print((1.1 ** torch.tensor([True, False])).tolist(), (0.9 ** torch.arange(5.)).tolist())\n'
        'r = torch.tensor([1., 0., 2.]); print((r * 0.99 ** torch.arange(3)).sum().item())'),
    # integer division rounding towards zero is done in integers (no float64 on the way)
    "integer_trunc_division": (
        'print(torch.tensor([2**62 + 1]).div(3, rounding_mode="trunc"),\n'
        '      torch.div(torch.tensor([2**63 - 1]), 1, rounding_mode="trunc"))\n'
        'for dt in (torch.int8, torch.int32, torch.int64):\n'
        '    a = torch.tensor([-7, 7, -7, 7, 0, 5, -5, 100], dtype=dt)\n'
        '    b = torch.tensor([2, -2, -2, 2, 3, 5, 3, -7], dtype=dt)\n'
        '    print(a.div(b, rounding_mode="trunc"), a.div(3, rounding_mode="trunc"), torch.div(a, -3, rounding_mode="trunc"))\n'
        '    tries(lambda: a.div(torch.zeros_like(a), rounding_mode="trunc"))\n'
        'print(torch.tensor([-128], dtype=torch.int8).div(-1, rounding_mode="trunc"),\n'
        '      torch.tensor([7, 255], dtype=torch.uint8).div(2, rounding_mode="trunc"))\n'
        'x = torch.tensor([-7, 8]); x.div_(3, rounding_mode="trunc"); print(x)'),
    # Module.to(memory_format=) lays out the 4-d and 5-d tensors only, and sets every parameter's data (and its
    # grad's); a channels-last copy is a copy, its size-1 channels of stride 1
    "module_to_channels_last": (
        'import torch.nn as nn\n'
        'm = nn.Sequential(nn.Conv2d(1, 2, 2), nn.Linear(2, 1))\n'
        'print(m.to(memory_format=torch.channels_last) is m, m[0].weight.stride(), m[0].bias.stride())\n'
        'c = nn.Conv2d(2, 4, 3, bias=False); c.to(memory_format=torch.channels_last); print(c.weight.stride())\n'
        'c(torch.randn(1, 2, 5, 5)).sum().backward(); print(c.weight.grad.stride())\n'
        'c.to(torch.float64, memory_format=torch.contiguous_format)\n'
        'print(c.weight.stride(), c.weight.grad.stride(), c.weight.grad.dtype)\n'
        'x = torch.zeros(2, 1, 2, 2); y = x.to(memory_format=torch.channels_last); y.add_(1); print(x.sum(), y.stride())\n'
        'print(torch.ones(2, 3, 1, 1).to(memory_format=torch.channels_last).stride(),\n'
        '      torch.ones(2, 1, 2, 2).contiguous(memory_format=torch.channels_last).stride(),\n'
        '      torch.empty(2, 1, 2, 2, memory_format=torch.channels_last).stride(),\n'
        '      torch.zeros(1, 1, 3, 3, 1, memory_format=torch.channels_last_3d).stride())'),
    # numpy numbers given to arange are the parser's doubles and int64s; linalg.norm's message says "dim"
    "arange_numpy_numbers_and_norm_dims": (
        'import numpy as np\n'
        'print(torch.arange(np.float32(0.1), 3, 0.01).shape, torch.arange(np.float32(0.1), np.float32(0.5), np.float32(0.1)))\n'
        'print(torch.arange(np.int32(3)), torch.arange(np.int64(2), 7, np.int16(2)), torch.arange(np.float64(0.5), 2))\n'
        'tries(lambda: torch.linalg.norm(torch.ones(3), ord=2, dim=()),\n'
        '      lambda: torch.linalg.norm(torch.ones(3, 3, 3), ord="fro", dim=(0, 1, 2)))'),
    # the norm kernels' parameters: when the first has the input's dtype every other must too; else all float32,
    # for a half input
    "norm_parameters_dtypes": (
        'import torch.nn.functional as F\n'
        'x = torch.ones(3, 4)\n'
        'tries(lambda: F.layer_norm(x, (4,), torch.ones(4), torch.zeros(4, dtype=torch.float64)),\n'
        '      lambda: F.batch_norm(x, torch.zeros(4, dtype=torch.float64), torch.ones(4, dtype=torch.float64),\n'
        '                           torch.ones(4), torch.zeros(4)),\n'
        '      lambda: F.layer_norm(x.double(), (4,), torch.ones(4, dtype=torch.float16), torch.zeros(4, dtype=torch.float16)),\n'
        '      lambda: F.layer_norm(x.double(), (4,), torch.ones(4), torch.zeros(4)),\n'
        '      lambda: F.layer_norm(x.half(), (4,), torch.ones(4), torch.zeros(4)).dtype,\n'
        '      lambda: F.layer_norm(x.half(), (4,), torch.ones(4), torch.zeros(4, dtype=torch.float64)),\n'
        '      lambda: F.group_norm(torch.ones(2, 4, 3), 2, torch.ones(4), torch.zeros(4, dtype=torch.float64)))'),
    # a textbook linear system and inverse print as PyTorch's (6.0000: the solution is not exact in float32)
    "textbook_solve_and_inverse": (
        'A = torch.tensor([[2., 1., 1.], [1., 3., 2.], [1., 0., 0.]])\n'
        'print(torch.linalg.solve(A, torch.tensor([4., 5., 6.])), torch.linalg.inv(A))\n'
        'B = torch.tensor([[3., 1.], [1., 2.]]); print(torch.linalg.inv(B) @ torch.tensor([9., 8.]), torch.inverse(B))'),
    # a convolution with a padding string checks the shapes before the dtypes, and no bias dtype
    "conv_padding_string_checks": (
        'import torch.nn as nn\n'
        'm = nn.Conv2d(3, 8, 3, padding="same")\n'
        'tries(lambda: m(torch.randn(4, 3, 8, 8).double()), lambda: m(torch.randn(4, 5, 8, 8).double()),\n'
        '      lambda: m(torch.randn(8, 8).double()), lambda: nn.Conv2d(3, 8, 3, padding="valid")(torch.randn(2, 3, 8, 8).double()),\n'
        '      lambda: nn.Conv2d(3, 8, 3)(torch.randn(2, 3, 8, 8).double()))\n'
        'm.weight.data = m.weight.data.double(); print(m(torch.randn(1, 3, 4, 4).double()).dtype)'),
    # an LSTMCell given only h (no c) is the parser's TypeError; the other cells check the input's dims first
    "rnn_cells_hidden_state_mistakes": (
        'import torch.nn as nn\n'
        'cell = nn.LSTMCell(4, 6)\n'
        'tries(lambda: cell(torch.randn(2, 4), torch.zeros(2, 6)), lambda: cell(torch.randn(3, 4), torch.zeros(1, 3, 6)),\n'
        '      lambda: cell(torch.randn(2, 4), [torch.zeros(2, 6), torch.zeros(2, 6)])[0].shape,\n'
        '      lambda: nn.GRUCell(4, 6)(torch.randn(5, 2, 4), torch.zeros(1, 2, 6)),\n'
        '      lambda: nn.RNNCell(4, 6)(torch.randn(5, 2, 4), torch.zeros(1, 2, 6)),\n'
        '      lambda: nn.GRUCell(4, 6)(torch.randn(2, 4), torch.zeros(1, 2, 6)))'),
    # binary_cross_entropy's checks in PyTorch's order (sizes, the weight expanded, dtypes, values, the weight's
    # mul_); weights that are not tensors
    "bce_checks_in_order": (
        'import torch.nn.functional as F\n'
        'x = torch.tensor([0.2, 0.7, 0.9]); t = torch.tensor([0, 1, 1])\n'
        'tries(lambda: F.binary_cross_entropy(x, t, weight=torch.tensor([1., 2.])),\n'
        '      lambda: F.binary_cross_entropy(torch.tensor([1.5, 0.7, 0.9]), t.float(), weight=torch.ones(2, 3)),\n'
        '      lambda: F.binary_cross_entropy(x, t.float(), weight=torch.ones(2, 3)),\n'
        '      lambda: F.binary_cross_entropy(x, t.float(), weight=2.0),\n'
        '      lambda: F.binary_cross_entropy_with_logits(x, t.float(), pos_weight=2.0),\n'
        '      lambda: F.binary_cross_entropy_with_logits(x, t.float(), weight=[1., 2., 3.]),\n'
        '      lambda: F.binary_cross_entropy(x, t.float(), weight=torch.tensor([2.])))'),
    # a half product's gradient where an element is zero: the running products in float, as cumprod's
    "half_prod_backward_with_zero": (
        'x = torch.tensor([[0., 1., 2., 3.], [0.4, 0.3, 0.7, 0.9]], dtype=torch.float16, requires_grad=True)\n'
        'x.prod(1).sum().backward(); print(x.grad, x.grad.tolist())'),
    # one_hot is row-major whatever its input's layout (d2l's F.one_hot(X.T, vocab_size)); an LSTM takes two states
    "one_hot_layout_and_lstm_states": (
        'import torch.nn as nn, torch.nn.functional as F\n'
        'o = F.one_hot(torch.arange(10).reshape((2, 5)).T, 28)\n'
        'print(o.stride(), o.is_contiguous(), o.float().stride())\n'
        'tries(lambda: o.view(-1, 28).shape, lambda: torch.nn.Linear(28, 4)(o), lambda: torch.matmul(o, torch.ones(28, 4)))\n'
        'lstm = nn.LSTM(4, 3)\n'
        'tries(lambda: lstm(torch.randn(2, 1, 4), (torch.zeros(1, 1, 3),) * 3))'),
}


def test_float_base_to_integer_powers_bit_for_bit():
    # (same() forgives the last bits of float32 transcendental results; these are not: the base is rounded first)
    for base in (0.9, 0.99, 0.1, 1.1, 2.5, -0.7):
        for exponent in (T.arange(-6, 12), T.arange(5, dtype=T.int32), T.tensor([True, False])):
            e = E.tensor(exponent.tolist(), dtype=getattr(E, str(exponent.dtype).split('.')[1]))
            assert (base ** e).tolist() == (base ** exponent).tolist(), (base, exponent)


@pytest.mark.parametrize("threads", [1, 2, 3])
def test_sums_of_more_than_32768_numbers_bit_for_bit(threads):
    # (PyTorch's two-pass reduction: the threads' blocks summed each, then their sums; `x.mean()` of 100,000 numbers
    # printed its 4th decimal differently before)
    import numpy as np
    with both_on(threads):
        for n in (32769, 65537, 100000, 3 * 32768 + 1):
            for dtype in (np.float32, np.float64):
                a = np.random.default_rng(n).standard_normal(n).astype(dtype)
                for f in (lambda m: m.sum(), lambda m: m.mean(), lambda m: m.reshape(1, -1).sum(1),
                          lambda m: m.reshape(-1, 1).t().sum()):
                    assert f(E.from_numpy(a)).tolist() == f(T.from_numpy(a)).tolist(), (n, dtype)


@pytest.mark.parametrize("threads", [1, 2])
def test_big_sums_through_one_run_of_memory_bit_for_bit(threads):
    # (a column of a table, an NHWC batch permuted to NCHW: one strided or contiguous run, shared by the threads)
    import numpy as np
    with both_on(threads):
        rng = np.random.default_rng(threads)
        for shape, view in [((100000, 2), lambda m: m[:, 0]), ((64, 32, 32, 3), lambda m: m.permute(0, 3, 1, 2)),
                            ((200000,), lambda m: m[::3]), ((300, 400), lambda m: m.t())]:
            a = rng.standard_normal(shape).astype(np.float32)
            for f in (lambda m: m.sum(), lambda m: m.mean()):
                assert f(view(E.from_numpy(a))).item() == f(view(T.from_numpy(a))).item(), shape


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_small_solves_and_inverses_bit_for_bit(dtype):
    # (getrs multiplies by each pivot's reciprocal: a textbook 3x3 system printed 6. where PyTorch prints 6.0000)
    import numpy as np
    skip_unless_engine_cpu("LAPACK's small solves")
    rng = np.random.default_rng(3)
    for n in (2, 3):
        for _ in range(50):
            a, b = rng.standard_normal((n, n)).astype(dtype), rng.standard_normal((n, 2)).astype(dtype)
            ta, tb, ea, eb = T.from_numpy(a), T.from_numpy(b), E.from_numpy(a), E.from_numpy(b)
            assert E.linalg.solve(ea, eb).numpy().tobytes() == T.linalg.solve(ta, tb).numpy().tobytes()
            assert E.linalg.inv(ea).numpy().tobytes() == T.linalg.inv(ta).numpy().tobytes()
            assert E.linalg.solve(ea.t(), eb).numpy().tobytes() == T.linalg.solve(ta.t(), tb).numpy().tobytes()
            assert (E.linalg.solve(ea, eb.t(), left=False).numpy().tobytes() ==
                    T.linalg.solve(ta, tb.t(), left=False).numpy().tobytes())


def test_bce_with_logits_takes_log_sigmoid_in_the_inputs_dtype():
    # (float16 logits against float32 targets: the log-sigmoid rounded to half first, as PyTorch's kernel)
    def losses(lib):
        x, t = lib.tensor([0.3, -1.2, 2.5, 0.0, -4.0]).half(), lib.tensor([0., 1., 1., 0.5, 0.])
        return [lib.nn.functional.binary_cross_entropy_with_logits(x, t, reduction=r).tolist() for r in ('none', 'mean')]
    assert losses(E) == losses(T)


@pytest.mark.parametrize("threads", [1, 2])
def test_big_norms_and_products_shared_by_threads_bit_for_bit(threads):
    # (x.norm(p=1) of 100,000 float32s printed 79906.1094 against PyTorch's 79906.2969: one accumulation instead of
    # the threads' two)
    import numpy as np
    with both_on(threads):
        rng = np.random.default_rng(threads)
        for n in (40000, 100000):
            a = rng.standard_normal(n).astype(np.float32)
            b = (1 + 0.001 * rng.standard_normal(n)).astype(np.float32)
            c = rng.standard_normal((n, 2)).astype(np.float32)
            for f, src in ((lambda m: m.norm(p=1), a), (lambda m: m.norm(p=3), a), (lambda m: m.prod(), b),
                           (lambda m: m[:, 1].norm(), c), (lambda m: m[:, 1].norm(p=1), c)):
                assert f(E.from_numpy(src)).item() == f(T.from_numpy(src)).item(), n


def test_norms_of_expanded_tensors_bit_for_bit():
    # (TensorIterator's order, an expanded dim deciding nothing: the diagonal of a broadcast cosine-similarity
    # matrix is a's own row norms, 1.0 where PyTorch prints 1.0)
    import numpy as np
    rng = np.random.default_rng(0)
    for _ in range(10):
        a = rng.standard_normal((10, 16)).astype(np.float32)
        for f in (lambda L, m: m[:, None].expand(10, 10, 16).norm(dim=-1),
                  lambda L, m: L.nn.functional.cosine_similarity(m[:, None], m[None], dim=-1),
                  lambda L, m: m[:, None].expand(10, 4, 16).norm(p=1, dim=(1, 2)),
                  lambda L, m: m.unsqueeze(1).expand(-1, 3, -1).norm()):
            assert f(E, E.from_numpy(a)).numpy().tobytes() == f(T, T.from_numpy(a)).numpy().tobytes()


def test_half_unary_functions_bit_for_bit():
    # (halves computed in float and rounded once, as PyTorch's kernels: numpy's own half functions differ, and
    # rsqrt's scalar loop after the last block of 32 rounds twice)
    import numpy as np
    bits = np.arange(0, 65536, dtype=np.uint16).view(np.float16)
    bits = bits[np.isfinite(bits)]
    for name in ('exp', 'cos', 'tan', 'atan', 'log10', 'expm1', 'cosh', 'rsqrt', 'sqrt', 'log', 'tanh', 'sigmoid'):
        t = getattr(T, name)(T.from_numpy(bits)).numpy()
        e = getattr(E, name)(E.from_numpy(bits)).numpy()
        assert ((t == e) | (np.isnan(t) & np.isnan(e))).all(), name
    for n in (2, 33):
        x = np.tile(np.array([1.0132789611816406e-06, 1.8477439880371094e-06], np.float16), 20)[:n]
        assert E.from_numpy(x).rsqrt().tolist() == T.from_numpy(x).rsqrt().tolist()


@pytest.mark.parametrize("threads", [1, 2])
def test_big_float64_variances_bit_for_bit(threads):
    # (the squared deviations of each thread's block added whole, then the blocks' sums)
    import numpy as np
    with both_on(threads):
        rng = np.random.default_rng(threads)
        for n in (33000, 100000):
            a = rng.random(n)
            for f in (lambda m: m.var(), lambda m: m.std(), lambda m: m.var(unbiased=False)):
                assert f(E.from_numpy(a)).item() == f(T.from_numpy(a)).item(), n


def test_powers_of_inexact_exponents_after_the_last_block_bit_for_bit():
    # (x ** 0.8 of fewer than 32 numbers, or after the last block of 32: pow in double with the exponent as given)
    import numpy as np
    rng = np.random.default_rng(0)
    for n in (1, 3, 20, 31, 45):
        for p in (0.8, 1 / 3, 1.7, 2.2, -1.3):
            a = (rng.random(n) * 5).astype(np.float32)
            tail = n // 32 * 32
            assert (E.from_numpy(a) ** p).numpy()[tail:].tobytes() == (T.from_numpy(a) ** p).numpy()[tail:].tobytes()


def test_sums_over_every_other_dim_bit_for_bit():
    import itertools
    import numpy as np
    rng = np.random.default_rng(0)
    for shape in [(2, 3, 4, 5), (4, 3, 8, 8), (2, 7, 3, 9, 4), (2, 3, 1, 5, 6)]:
        for k in range(1, len(shape)):
            for dims in itertools.combinations(range(len(shape)), k):
                a = rng.standard_normal(shape).astype(np.float32)
                assert (E.from_numpy(a).sum(dims).numpy().tobytes() == T.from_numpy(a).sum(dims).numpy().tobytes()), \
                    (shape, dims)


def test_big_strided_sums_to_several_numbers_bit_for_bit():
    # (each result summed whole by one thread in TensorIterator's order: per-channel statistics of NHWC images)
    import numpy as np
    rng = np.random.default_rng(1)
    for shape, perm, dims in [((64, 32, 32, 3), (0, 3, 1, 2), (0, 2, 3)), ((64, 2, 33, 8), (1, 0, 2, 3), (1,)),
                              ((40000, 3), (1, 0), (1,)), ((16, 64, 64, 3), (3, 0, 1, 2), (1, 2, 3)),
                              ((16, 3, 32, 32), (0, 1, 2, 3), (0, 2))]:
        a = rng.random(shape).astype(np.float32)
        for f in (lambda m: m.sum(dims), lambda m: m.mean(dims), lambda m: m.std(dims)):
            assert (f(E.from_numpy(a).permute(perm)).numpy().tobytes() ==
                    f(T.from_numpy(a).permute(perm)).numpy().tobytes()), (shape, perm, dims)


@pytest.mark.parametrize("name", SNIPPETS)
def test_snippet(name):
    code = SHOW + SNIPPETS[name]
    t, e = run_both(T, E, code)
    assert same(t, e), f"\n{code}\n--- torch\n{t.summary()}--- engine\n{e.summary()}"
