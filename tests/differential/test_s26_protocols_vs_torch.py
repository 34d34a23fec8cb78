"""Python's own protocols on tensors as learners' code uses them, against real PyTorch: pickle round trips (of
leaves with .grad and attributes, non-leaves, views and their layouts, Parameters, modules, state dicts and tensor
subclasses) and torch.save / torch.load of views sharing memory, f-strings and %-formatting, bool / int / float /
complex / operator.index of each dtype, iteration and builtins (sum, max, sorted, round, divmod) with their grad_fns,
`in` / list.index / dict keys, numpy interop and math.* on 0-d tensors. Printed text, warnings and the final error
must be the same."""
import pytest

T = pytest.importorskip("torch", reason="differential tests need real PyTorch (pip install torch==2.13.0)")
from .harness import SHOW, load_engine, run_both, same  # noqa: E402

E = load_engine()

SNIPPETS = {
    # pickle.loads(pickle.dumps(x)) as PyTorch's: a new leaf set_ (version 1) on its own copy of the memory, keeping
    # requires_grad and the attributes set on x, not x.grad; dtypes, sizes and devices come back as themselves
    "pickle_round_trip_of_a_leaf_with_grad_and_attributes": (
        'import pickle\n'
        'x = torch.tensor([1., 2.], requires_grad=True)\n'
        '(x * x).sum().backward()\n'
        "x.note = 'w'\n"
        'r = pickle.loads(pickle.dumps(x))\n'
        'print(r, r.grad, r.requires_grad, r.is_leaf, r._version, r.note, r.grad_fn, r.data_ptr() == x.data_ptr())\n'
        'rt = lambda o: pickle.loads(pickle.dumps(o))\n'
        'tries(lambda: rt(torch.tensor(3)), lambda: rt(torch.tensor([True])),\n'
        '      lambda: rt(x.detach()).requires_grad,\n'
        "      lambda: rt([torch.tensor(1.), {'a': torch.zeros(2, dtype=torch.float16)}]),\n"
        '      lambda: rt(torch.zeros(0)),\n'
        '      lambda: rt(torch.float32) is torch.float32, lambda: rt(torch.Size([2, 3])),\n'
        "      lambda: rt(torch.device('cpu')),\n"
        '      lambda: type(rt(torch.Size([2]))), lambda: rt(torch.ones(2, 3)[:, 1]).untyped_storage().nbytes())\n'
        "d = rt({'w': x, 'w2': x}); print(d['w'] is d['w2'], d['w'])"),
    # a non-leaf pickles as a new leaf requiring grad; views pickled together each get their own copy of all the memory
    # (PyTorch pickles each storage apart) at their offsets; a backward hook is left behind with PyTorch's warning
    "pickle_of_non_leaves_views_and_hooks": (
        'import pickle\n'
        'x = torch.tensor([1., 2.], requires_grad=True)\n'
        'r = pickle.loads(pickle.dumps(x * 2)); print(r, r.is_leaf, r.grad_fn, r._version)\n'
        'b = torch.arange(6.).view(2, 3)\n'
        'l = pickle.loads(pickle.dumps([b, b.t(), b[1]]))\n'
        'l[0][1, 1] = 100\n'
        'print(l, [t._version for t in l], [t.storage_offset() for t in l], [t.stride() for t in l], l[1]._base)\n'
        'h = x.register_hook(lambda g: g * 2)\n'
        'r = pickle.loads(pickle.dumps(x))\n'
        'r.sum().backward(); print(r.grad)\n'
        'with torch.no_grad():\n'
        '    z = x * 2\n'
        'print(pickle.loads(pickle.dumps(z)))'),
    # the offset, sizes and strides a pickled view keeps, and all its memory (of a slice, an expand, as_strided, a
    # numpy array's strided view, a tensor resize_ shrank), in inference mode too
    "pickle_layouts_and_dtypes": (
        'import pickle, numpy as np\n'
        'def rt(t, protocol=None):\n'
        '    r = pickle.loads(pickle.dumps(t, protocol=protocol))\n'
        '    return (r, r.shape, r.stride(), r.storage_offset(), r.dtype, r._version, r.is_contiguous(),\n'
        '            r.untyped_storage().nbytes())\n'
        'x = torch.arange(12.).view(3, 4)\n'
        'y = torch.tensor([1, 2, 3], dtype=torch.int16)\n'
        'y.resize_(2)\n'
        'tries(lambda: rt(x.T), lambda: rt(x.diagonal()), lambda: rt(x[1:, ::2]),\n'
        '      lambda: rt(x.unsqueeze(1)[:, :, 1:]),\n'
        '      lambda: rt(torch.zeros(2, 0)), lambda: rt(torch.from_numpy(np.arange(6.)[::2])), lambda: rt(y),\n'
        '      lambda: rt(torch.tensor([True, False])[1:]), lambda: rt(torch.tensor(7, dtype=torch.uint8)),\n'
        '      lambda: rt(x, 0),\n'
        '      lambda: rt(x[0], 2), lambda: rt(torch.ones(2, 3, dtype=torch.float16).t()),\n'
        '      lambda: rt(x.expand(2, 3, 4)),\n'
        '      lambda: rt(x.as_strided((2, 2), (1, 2), 3)))\n'
        'with torch.inference_mode():\n'
        '    i = torch.ones(2)\n'
        'r = pickle.loads(pickle.dumps(i)); print(r, r.is_inference())\n'
        'with torch.inference_mode():\n'
        '    r2 = pickle.loads(pickle.dumps(torch.ones(2, requires_grad=True)))\n'
        'print(r2, r2.is_inference(), r2.requires_grad)'),
    # a Parameter pickles its .data and comes back a Parameter (version 1, no .grad, its attributes); whole modules,
    # state dicts and optimizer state dicts round-trip through pickle
    "pickle_parameters_modules_and_state_dicts": (
        'import pickle, io\n'
        'p = torch.nn.Parameter(torch.ones(2)); p.grad = torch.ones(2); p.tag = 1\n'
        'q = pickle.loads(pickle.dumps(p)); print(type(q).__name__, q, q.grad, q._version, q.tag)\n'
        'with torch.no_grad():\n'
        '    q.mul_(2)\n'
        'print(q._version, p)\n'
        'torch.manual_seed(0)\n'
        'm = torch.nn.Sequential(torch.nn.Linear(2, 2), torch.nn.ReLU())\n'
        'm2 = pickle.loads(pickle.dumps(m))\n'
        'print(m2, m2[0].weight, m2[0].weight._version, m2[0].weight.grad)\n'
        'print(pickle.loads(pickle.dumps(m.state_dict())))\n'
        'opt = torch.optim.SGD(m.parameters(), lr=0.1)\n'
        'm(torch.ones(1, 2)).sum().backward(); opt.step()\n'
        'print(pickle.loads(pickle.dumps(opt.state_dict())))\n'
        "buf = io.BytesIO(); pickle.dump({'x': torch.arange(3)}, buf); buf.seek(0); print(pickle.load(buf))"),
    # a tensor subclass pickles its class: one pickle cannot find by name fails as in PyTorch; an importable one comes
    # back as that class (made by as_subclass: grad_fn AliasBackward0) with its attributes
    "pickle_tensor_subclasses": (
        'import pickle, sys, types\n'
        'class Local(torch.Tensor):\n'
        '    pass\n'
        'tries(lambda: pickle.dumps(torch.tensor([1.]).as_subclass(Local)))\n'
        "mod = types.ModuleType('mytensors'); sys.modules['mytensors'] = mod\n"
        'class MyT(torch.Tensor):\n'
        '    pass\n'
        "MyT.__module__ = 'mytensors'; mod.MyT = MyT\n"
        't = torch.tensor([1., 2.], requires_grad=True).as_subclass(MyT)\n'
        't.tag = 3\n'
        'r = pickle.loads(pickle.dumps(t))\n'
        'print(type(r).__name__, r, r.tag, r._version, r.requires_grad, r.is_leaf)'),
    # torch.save / torch.load as PyTorch's: views saved together share their memory again, with their strides and
    # offsets (version 1: set_); a leaf's attributes come back, its .grad and hooks do not (a warning per hook)
    "torch_save_load_keeps_layout_and_shared_memory": (
        'import io\n'
        'def rt(obj, **kw):\n'
        '    b = io.BytesIO(); torch.save(obj, b); b.seek(0); return torch.load(b, **kw)\n'
        'x = torch.arange(12.).view(3, 4)\n'
        'r = rt(x.T)\n'
        'print(r.stride(), r._version, r.is_contiguous(), r.untyped_storage().nbytes(), r.storage_offset())\n'
        'l = rt([x, x[1], x.T]); l[0][1, 1] = -1\n'
        'print(l[1], l[2].stride(), [t._version for t in l], [t.storage_offset() for t in l], l[1]._base is None)\n'
        'w = torch.tensor([1., 2.], requires_grad=True)\n'
        "(w * w).sum().backward(); w.tag = 'a'\n"
        "r = rt(w); print(r, r.grad, r._version, r.is_leaf, getattr(r, 'tag', None))\n"
        'tries(lambda: rt(w * 2), lambda: rt(w * 2).is_leaf, lambda: rt(x.expand(2, 3, 4)).stride(),\n'
        '      lambda: rt(x[:, 1]).untyped_storage().nbytes(),\n'
        '      lambda: rt(torch.nn.Parameter(torch.ones(1)))._version,\n'
        '      lambda: rt(torch.ones(2, dtype=torch.float16).view(torch.int16)), lambda: rt([torch.ones(2)] * 2))\n'
        'h = w.register_hook(lambda g: g)\n'
        'tries(lambda: rt(w))'),
    # a state dict and a model's weight saved with a view of it: the loaded weight and view share memory, the Parameter
    # stays a Parameter, its attributes come back; optimizer state and whole modules (weights_only=False)
    "torch_save_load_of_a_model_and_its_transpose": (
        'import io\n'
        'def rt(obj, **kw):\n'
        '    b = io.BytesIO(); torch.save(obj, b); b.seek(0); return torch.load(b, **kw)\n'
        'torch.manual_seed(0)\n'
        'm = torch.nn.Linear(3, 2)\n'
        'm(torch.ones(1, 3)).sum().backward()\n'
        'sd = rt(m.state_dict())\n'
        'print(sd, [t._version for t in sd.values()], [t.requires_grad for t in sd.values()])\n'
        'm2 = torch.nn.Linear(3, 2); print(m2.load_state_dict(sd), m2.weight._version)\n'
        'p = rt(m.weight); print(p, p.grad, p._version)\n'
        "both = rt({'w': m.weight, 'wt': m.weight.T, 'g': m.weight.grad})\n"
        "both['w'].data[0, 0] = 100.\n"
        "print(both['wt'][0, 0], both['g'], type(both['w']).__name__, type(both['wt']).__name__, both['wt'].is_leaf)\n"
        'opt = torch.optim.Adam(m.parameters(), lr=0.1); opt.step()\n'
        "st = rt(opt.state_dict())['state'][0]; print(st['exp_avg'], st['step'], st['step']._version)\n"
        'mm = rt(m, weights_only=False); print(mm, mm.weight._version, mm.weight.grad)\n'
        "m.weight.tag = 'w'\n"
        'tries(lambda: rt(m.weight).tag, lambda: rt(torch.nn.Parameter(torch.ones(2), requires_grad=False)),\n'
        '      lambda: rt(torch.tensor([1., 2.])[1:]).storage_offset())'),
    # copy.copy of a non-leaf is a new leaf on the same memory; deepcopy of one is PyTorch's error; dtypes, sizes and
    # devices copy as themselves
    "copy_of_non_leaves_dtypes_and_sizes": (
        'import copy\n'
        'x = torch.tensor([1., 2.], requires_grad=True)\n'
        'y = x * 2\n'
        'c = copy.copy(y); print(c, c.is_leaf, c._version, c.data_ptr() == y.data_ptr())\n'
        'tries(lambda: copy.deepcopy(y), lambda: copy.copy(torch.float32) is torch.float32,\n'
        '      lambda: copy.deepcopy(torch.float16) is torch.float16, lambda: copy.copy(torch.Size([2])),\n'
        "      lambda: copy.deepcopy(torch.device('cpu')), lambda: copy.deepcopy([torch.Size([1])]),\n"
        '      lambda: type(copy.copy(torch.Size([1]))))'),
    # format specs reach a 0-d tensor's number (not a Parameter's, nor a tensor with elements); %-formatting converts
    # with __int__ / __float__ / __index__, and a multi-element tensor is the tuple of its rows
    "fstrings_and_percent_formatting": (
        's = torch.tensor(3.14159); v = torch.tensor([1.5, 2.25]); g = torch.tensor(2.5, requires_grad=True)\n'
        "tries(lambda: f'{s:.3f}', lambda: f'{v:.3f}', lambda: f'{s!r}', lambda: format(s, 'e'),\n"
        "      lambda: format(v, 'e'),\n"
        "      lambda: '%d' % s, lambda: '%.2f' % s, lambda: '%.2f' % v, lambda: '{:>10}'.format(s),\n"
        "      lambda: f'{g:.2f}',\n"
        "      lambda: f'{torch.tensor(3):05d}', lambda: f'{torch.tensor(3.):d}',\n"
        "      lambda: f'{torch.tensor([3.]):.2f}',\n"
        "      lambda: f'{torch.tensor(True):d}', lambda: '%x' % torch.tensor(255),\n"
        "      lambda: '%x' % torch.tensor(2.5),\n"
        "      lambda: '%d' % torch.tensor([3, 4]), lambda: f'{torch.tensor(2.5, dtype=torch.float16):.3f}',\n"
        "      lambda: '%5.1f%%' % (s * 100), lambda: '%c' % torch.tensor(65),\n"
        "      lambda: '%.3f %.3f' % torch.tensor([1., 2.]),\n"
        "      lambda: f'{torch.nn.Parameter(torch.tensor(1.)):.2f}', lambda: '{:d}'.format(torch.tensor(5.)),\n"
        "      lambda: f'{torch.tensor(-3, dtype=torch.int8):x}', lambda: f'{torch.tensor(1e20):,.0f}')"),
    # int / float / complex / operator.index / list indexing / range of a 0-d tensor of each dtype (only integer and
    # bool ones are indexes), and of tensors with one or more elements
    "scalar_conversions_of_each_dtype": (
        'import operator, math\n'
        'for dt in [torch.float32, torch.float64, torch.float16, torch.int8, torch.uint8, torch.int32, torch.int64]:\n'
        '    s = torch.tensor(3, dtype=dt)\n'
        '    tries(lambda: (int(s), float(s), complex(s)), lambda: operator.index(s), lambda: [0, 1, 2, 3][s],\n'
        '          lambda: range(s))\n'
        'tries(lambda: operator.index(torch.tensor(True)), lambda: float(torch.tensor([1., 2.])),\n'
        '      lambda: int(torch.zeros(0)), lambda: operator.index(torch.tensor([3])),\n'
        "      lambda: int(torch.tensor(float('nan'))),\n"
        '      lambda: math.trunc(torch.tensor([2.5])), lambda: int(torch.tensor(1e20)),\n'
        '      lambda: float(torch.tensor(1e-46)),\n'
        '      lambda: bool(torch.tensor([])), lambda: bool(torch.tensor([[0]])),\n'
        '      lambda: bool(torch.tensor([1, 2])),\n'
        '      lambda: torch.tensor([torch.tensor(1., requires_grad=True), torch.tensor(2.)]),\n'
        '      lambda: torch.tensor([torch.tensor([1., 2.])]))'),
    # iterating a tensor gives unbind's views (UnbindBackward0), so sum() / max() / sorted() build their graphs from
    # them; a 0-d tensor has no len() and cannot be iterated; round / divmod / abs as the ops
    "iteration_and_builtins_grad_fns": (
        'x = torch.tensor([1., 2., 3.], requires_grad=True)\n'
        'tries(lambda: len(torch.tensor(1.)), lambda: list(torch.tensor(1.)), lambda: sum(torch.tensor(1.)))\n'
        'show(sum(x)); show(max(x)); show(round(x, 1)); show(abs(x)); show(divmod(x, 2)[1])\n'
        'print(sorted(x, reverse=True), [r.grad_fn for r in torch.arange(4.).view(2, 2).requires_grad_()])\n'
        'l = sum(v ** 2 for v in x); l.backward(); print(l, x.grad)\n'
        'tries(lambda: max(torch.ones(2, 2)), lambda: sorted(torch.ones(2, 2)), lambda: max(x, key=lambda t: -t))\n'
        'y = x * 1\n'
        'for row in y:\n'
        '    try:\n'
        '        row += 1\n'
        '    except Exception as e:\n'
        '        print(type(e).__name__, e)\n'
        '        break'),
    # `in` compares elementwise (a tensor operand: any of them); list.index / count / remove compare with == so
    # tensors with elements fail unless the identity check finds them first; dict keys and sets go by id
    "contains_list_methods_and_dict_keys": (
        'a = torch.tensor([1., 2.]); b = torch.tensor([3., 4.]); c = torch.tensor([1., 2.])\n'
        'x = torch.tensor([1., 2., 3.])\n'
        "tries(lambda: 2 in x, lambda: torch.tensor([1., 5.]) in x, lambda: 'a' in x, lambda: None in x,\n"
        '      lambda: [1., 2.] in x,\n'
        '      lambda: [a, b].remove(b), lambda: [a, b].index(a), lambda: c in [a, b], lambda: [a, b].count(a),\n'
        '      lambda: [torch.tensor(1.), torch.tensor(2.)].index(torch.tensor(2.)),\n'
        "      lambda: {torch.tensor(1): 'x'}.get(1),\n"
        "      lambda: {1: 'x'}[torch.tensor(1)], lambda: len(set(torch.tensor([1, 1]))), lambda: [a] == [c],\n"
        '      lambda: 1 if torch.tensor([1, 2]) == torch.tensor([1, 2, 3]) else 0,\n'
        '      lambda: dict.fromkeys(torch.tensor([1, 1])))'),
    # numpy functions and scalar types on tensors (and on ones requiring grad: PyTorch's numpy() error), math.* on 0-d
    # tensors through __float__ / __index__
    "numpy_and_math_on_tensors": (
        'import numpy as np, math\n'
        'x = torch.tensor([1., 2.], requires_grad=True); s = torch.tensor(0.5)\n'
        'tries(lambda: np.array(x), lambda: np.sin(x), lambda: np.float32(x[0]), lambda: np.sin(s),\n'
        '      lambda: np.float32(s),\n'
        '      lambda: np.float64(torch.tensor([2.])), lambda: np.array([torch.tensor(1.), torch.tensor(2.)]),\n'
        '      lambda: np.array(torch.tensor([1.], dtype=torch.float16)).dtype, lambda: np.mean(x),\n'
        '      lambda: np.sum(x),\n'
        '      lambda: np.size(torch.zeros(2, 3)), lambda: np.float32(torch.tensor([1., 2.])),\n'
        '      lambda: np.int8(torch.tensor(300)),\n'
        '      lambda: math.exp(s), lambda: math.isclose(torch.tensor(0.1), 0.1, rel_tol=1e-9),\n'
        '      lambda: math.exp(x),\n'
        '      lambda: math.factorial(torch.tensor(4)), lambda: math.log(torch.tensor(8), 2),\n'
        '      lambda: math.sqrt(torch.tensor([4.])))'),
    # `del t[0]` is PyTorch's TypeError (Python's own would be an AttributeError, as Tensor has __setitem__), and the
    # errors of deleting or setting a tensor's attributes, calling it, unpacking it and using it as a context manager
    "deleting_items_and_setting_attributes": (
        't = torch.tensor([1., 2.], requires_grad=True)\n'
        'def d0(): del t[0]\n'
        'def dg(): del t.grad; return t.grad\n'
        'def dshape(): del t.shape\n'
        'def setshape(): t.shape = (2, 1)\n'
        'def setdata(): t.data = [1., 2.]\n'
        'def setgrad(): t.grad = torch.ones(3)\n'
        'def setleaf(): t.is_leaf = True\n'
        'def unpack3(): a, b, c = t; return a\n'
        'def withctx():\n'
        '    with t:\n'
        '        pass\n'
        "tries(d0, lambda: t.__delitem__(slice(None)), lambda: hasattr(t, '__delitem__'), dg, dshape, setshape,\n"
        '      setdata, setgrad, setleaf, unpack3, withctx, lambda: t(), lambda: t.shape(), lambda: next(t))\n'
        'l = [torch.tensor(1.), torch.tensor(2.)]\n'
        'del l[0]\n'
        'print(l)'),
    # np.from_dlpack(t) and torch.from_dlpack share the tensor's (the array's) memory with its strides; a tensor
    # requiring grad refuses with PyTorch's BufferError, under no_grad too; anything else is taken for a capsule
    "dlpack_to_numpy_and_back": (
        'import numpy as np\n'
        't = torch.ones(2)\n'
        'print(t.__dlpack_device__())\n'
        'a = np.from_dlpack(t); a[0] = 5; print(t, a.flags.writeable, t._version)\n'
        'for x in [torch.ones(2, requires_grad=True), torch.tensor([True]), torch.ones(3)[::2], torch.ones(2, 3).t(),\n'
        '          torch.tensor(2., dtype=torch.float16), torch.ones(2).expand(2, 2),\n'
        '          torch.arange(6.).view(2, 3)[:, 1:]]:\n'
        '    tries(lambda: np.from_dlpack(x), lambda: np.from_dlpack(x).strides)\n'
        'n = np.arange(3.)\n'
        'f = torch.from_dlpack(n); f[0] = 9; print(n, f, f._version)\n'
        'g = torch.from_dlpack(t); g[1] = 7; print(t, g, g._version, t._version)\n'
        'tries(lambda: torch.from_dlpack([1, 2]), lambda: torch.from_dlpack(torch.ones(1, requires_grad=True)),\n'
        '      lambda: torch.from_dlpack(np.arange(4).reshape(2, 2).T).stride())\n'
        'with torch.no_grad():\n'
        '    tries(lambda: np.from_dlpack(torch.ones(2, requires_grad=True)))'),
    # a Generator pickles and copies (copy.copy too) as a new generator in its state, drawing the same numbers
    # independently; a grad_fn (of an op, AccumulateGrad, a custom Function's) is PyTorch's "cannot pickle" TypeError
    "generators_and_graph_nodes_under_pickle_and_copy": (
        'import copy, pickle\n'
        'g = torch.Generator().manual_seed(5); torch.randn(3, generator=g)\n'
        'c = copy.copy(g); d = copy.deepcopy(g); p = pickle.loads(pickle.dumps(g))\n'
        'print(torch.rand(2, generator=c), torch.rand(2, generator=g))\n'
        'print(torch.rand(2, generator=d), torch.rand(2, generator=p))\n'
        'print(c.initial_seed(), p.device, torch.rand(1, generator=pickle.loads(pickle.dumps(torch.Generator()))))\n'
        'y = torch.ones(2, requires_grad=True) * 2\n'
        'tries(lambda: copy.copy(y.grad_fn), lambda: copy.deepcopy(y.grad_fn), lambda: pickle.dumps(y.grad_fn),\n'
        "      lambda: copy.deepcopy({'fn': y.grad_fn}), lambda: pickle.dumps(y.grad_fn.next_functions[0][0]))\n"
        'class F(torch.autograd.Function):\n'
        '    @staticmethod\n'
        '    def forward(ctx, x):\n'
        '        return x * 2\n'
        '    @staticmethod\n'
        '    def backward(ctx, g):\n'
        '        return g\n'
        'z = F.apply(torch.ones(1, requires_grad=True))\n'
        'tries(lambda: pickle.dumps(z.grad_fn), lambda: copy.deepcopy(z.grad_fn))'),
}


@pytest.mark.parametrize("name", SNIPPETS)
def test_snippet(name):
    code = SHOW + SNIPPETS[name]
    t, e = run_both(T, E, code)
    assert same(t, e), f"\n{code}\n--- torch\n{t.summary()}--- engine\n{e.summary()}"
