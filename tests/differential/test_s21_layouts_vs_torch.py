"""Memory layouts of copies (clone, *_like, .to / .double / .type, torch.tensor(t), contiguous, flip, sort, index_put)
of tensors that are not dense, memory_format arguments, and the numpy array of an expanded tensor, against real
PyTorch. Printed text, warnings and the final error must be the same."""
import pytest

T = pytest.importorskip("torch", reason="differential tests need real PyTorch (pip install torch==2.13.0)")
from .harness import TRIES, load_engine, run_both, same  # noqa: E402

E = load_engine()

# Tensors that are not non-overlapping-and-dense (strided slices, transposed; expanded dims of stride 0), and dense
# ones whose dims of size 1 have strides of their own
LAYOUTS = (
    'xs = [torch.ones(4, 6)[::2, 1::2].t(), torch.ones(3, 1).expand(3, 4).t(),\n'
    '      torch.ones(2, 1, 4).expand(2, 3, 4).permute(2, 1, 0), torch.ones(4, 3)[:, None].expand(4, 5, 3).permute(2, 0, 1)[:, ::2],\n'
    '      torch.ones(2, 3, 4).permute(2, 0, 1)[:, :, ::2], torch.ones(3, 1, 4)[:, :, ::2].permute(1, 2, 0),\n'
    '      torch.ones(3, 1).t(), torch.ones(6).as_strided((1, 6), (100, 1)), torch.ones(4, 6)[:, ::3].t()]\n')

SNIPPETS = {
    # preserve_format (the default of clone, empty_like, .to, ...): a non-overlapping and dense tensor's strides are
    # kept (a dim of size 1 too), any other's dims keep the order of their strides (infer_dense_strides: TensorIterator's
    # order; a stride-0 dim stays in place), dense
    "preserve_format_copies_keep_stride_order": (
        LAYOUTS +
        'import warnings\n'
        'warnings.simplefilter("ignore")\n'
        'for x in xs:\n'
        '    print(x.shape, x.stride(), [f(x).stride() for f in (\n'
        '        lambda x: x.clone(), torch.clone, lambda x: x.clone(memory_format=torch.preserve_format),\n'
        '        torch.empty_like, torch.zeros_like, torch.ones_like, lambda x: torch.full_like(x, 2),\n'
        '        lambda x: torch.rand_like(x), lambda x: torch.randn_like(x.double()), lambda x: torch.randint_like(x, 5),\n'
        '        lambda x: torch.zeros_like(x, memory_format=torch.preserve_format), lambda x: x.to(torch.float64),\n'
        '        lambda x: x.to(x.dtype, copy=True), lambda x: x.double(), lambda x: x.half(), lambda x: x.long(),\n'
        '        lambda x: x.bool(), lambda x: x.type(torch.float64), lambda x: x.type("torch.DoubleTensor"),\n'
        '        torch.tensor, lambda x: torch.tensor(x.numpy()), lambda x: torch.as_tensor(x.double().numpy(), dtype=torch.float32),\n'
        '        lambda x: x.detach().clone(), lambda x: x.flip(0), lambda x: x.sort(0)[0], lambda x: x.sort(-1)[1],\n'
        '        lambda x: x.index_put((torch.tensor([0]),), torch.tensor(5.)),\n'
        '        lambda x: x.put(torch.tensor([0]), torch.tensor([2.])))])\n'
        'torch.manual_seed(0)\n'
        'print([(torch.rand_like(x), torch.randn_like(x), torch.randint_like(x, 10)) for x in xs[:6]])\n'),
    # contiguous_format copies are row-major; .to(memory_format=) copies unless the tensor is in the format its layout
    # suggests; contiguous(preserve_format) is refused when a copy would be needed; the casts check their argument
    "memory_format_arguments": (
        TRIES + LAYOUTS +
        'for x in xs:\n'
        '    print([f(x).stride() for f in (lambda x: x.clone(memory_format=torch.contiguous_format),\n'
        '        lambda x: torch.zeros_like(x, memory_format=torch.contiguous_format), lambda x: x.contiguous(),\n'
        '        lambda x: x.to(torch.float64, memory_format=torch.contiguous_format),\n'
        '        lambda x: x.double(memory_format=torch.contiguous_format))])\n'
        't = torch.ones(4, 6, requires_grad=True)[::2, 1::2].t()\n'
        'cl = torch.ones(2, 3, 4, 5).to(memory_format=torch.channels_last)\n'
        'tries(lambda: t.to(torch.float32, memory_format=torch.contiguous_format) is t,\n'
        '      lambda: t.float(memory_format=torch.contiguous_format) is t, lambda: t.to(memory_format=torch.contiguous_format) is t,\n'
        '      lambda: t.to(torch.float32, copy=True, memory_format=torch.contiguous_format).stride(),\n'
        '      lambda: t.to(torch.float64, memory_format=torch.preserve_format).stride(), lambda: t.to(memory_format=3),\n'
        '      lambda: t.to(torch.float64, memory_format=torch.channels_last), lambda: t.double(memory_format=1),\n'
        '      lambda: t.bool(memory_format="a"), lambda: t.contiguous(memory_format=torch.preserve_format),\n'
        '      lambda: torch.ones(2, 2).contiguous(memory_format=torch.preserve_format).stride(),\n'
        '      lambda: cl.to(memory_format=torch.channels_last) is cl, lambda: cl.to(memory_format=torch.contiguous_format).stride(),\n'
        '      lambda: cl.double().stride(), lambda: cl.float(memory_format=torch.contiguous_format).stride(),\n'
        '      lambda: t.to(torch.float64, memory_format=torch.contiguous_format).grad_fn.name())'),
    # gradients through these copies and the .grad of such leaves
    "gradients_through_layout_copies": (
        'for f in [lambda x: x.clone(), lambda x: x.double(), lambda x: x.contiguous(), lambda x: x.flip(0)]:\n'
        '    w = torch.ones(4, 6, requires_grad=True)\n'
        '    y = f(w[::2, 1::2].t())\n'
        '    gs = []\n'
        '    y.register_hook(lambda g: gs.append(g.stride()))\n'
        '    y.backward(torch.ones_like(y))\n'
        '    l = torch.ones(4, 6)[::2, 1::2].t().requires_grad_()\n'
        '    f(l).backward(torch.ones_like(f(l)))\n'
        '    print(y.stride(), gs, w.grad.stride(), l.grad.stride())'),
    # an expanded tensor's numpy array is writeable, as every numpy() array is: writing shows through every row
    "expanded_numpy_writeable": (
        'x = torch.ones(1, 3)\n'
        'e = x.expand(2, 3)\n'
        'n = e.numpy()\n'
        'print(n.flags.writeable, n.strides)\n'
        'n[0, 1] = 5\n'
        'print(x, e, n)\n'
        'import numpy as np\n'
        'b = np.asarray(torch.ones(3).broadcast_to(2, 3))\n'
        'b[1, 0] = 7\n'
        'print(b, b.flags.writeable, torch.tensor(2.).expand(3).numpy().flags.writeable)\n'
        'v = torch.ones(1, 3).expand(2, 3)\n'
        'v.numpy()[...] = 3\n'
        'print(v)'),
}


@pytest.mark.parametrize("name", SNIPPETS)
def test_snippet(name):
    code = SNIPPETS[name]
    t, e = run_both(T, E, code)
    assert same(t, e), f"\n{code}\n--- torch\n{t.summary()}--- engine\n{e.summary()}"
