"""The thirteenth session's second graph round against real PyTorch: calling nodes directly (AccumulateGrad
accumulates and returns ()), what dir() lists on nodes and which of their attributes are read-only,
torch.autograd.gradcheck / gradgradcheck (verdicts, messages, the non-double warning), addmv / addr / adjoint,
torch.func transforms refusing old-style custom Functions, and torch.autograd.graph.get_gradient_edge. Printed text,
warnings and the final error must be the same (see harness.same)."""
import pytest

T = pytest.importorskip("torch", reason="differential tests need real PyTorch (pip install torch==2.13.0)")
from .harness import load_engine, run_both, same  # noqa: E402

E = load_engine()

SNIPPETS = {
    'node_call_0': '''\
x = torch.tensor([1., 2.], requires_grad=True)
acc = (x * 1).grad_fn.next_functions[0][0]
print(acc(torch.ones(2)), x.grad)
print(acc(torch.ones(2)), x.grad)
''',
    'node_call_1': '''\
x = torch.tensor([1., 2.], requires_grad=True)
acc = (x * 1).grad_fn.next_functions[0][0]
acc()
''',
    'node_call_2': '''\
x = torch.tensor([1., 2.], requires_grad=True)
acc = (x * 1).grad_fn.next_functions[0][0]
acc(torch.ones(2), torch.ones(2))
''',
    'node_call_3': '''\
x = torch.tensor([1., 2.], requires_grad=True)
acc = (x * 1).grad_fn.next_functions[0][0]
print(acc(None), x.grad)
''',
    'node_call_4': '''\
x = torch.tensor([1., 2.], requires_grad=True)
acc = (x * 1).grad_fn.next_functions[0][0]
print(acc(torch.ones(3)), x.grad)
''',
    'node_call_5': '''\
x = torch.tensor([1., 2.], requires_grad=True)
acc = (x * 1).grad_fn.next_functions[0][0]
print(acc(torch.ones(2, dtype=torch.float64)), x.grad)
''',
    'node_call_6': '''\
x = torch.tensor([1., 2.], requires_grad=True)
acc = (x * 1).grad_fn.next_functions[0][0]
x.register_hook(lambda g: print('th', g))
acc.register_hook(lambda gi, go: print('post', gi, go))
acc.register_prehook(lambda go: print('pre', go))
x.register_post_accumulate_grad_hook(lambda t: print('pah', t.grad))
print(acc(torch.ones(2)), x.grad)
''',
    'node_call_7': '''\
x = torch.tensor([1., 2.], requires_grad=True)
y = x * x
y.grad_fn(torch.ones(2), torch.ones(2))
''',
    'node_call_8': '''\
x = torch.tensor([1., 2.], requires_grad=True)
y = x * x
y.grad_fn()
''',
    'node_call_9': '''\
x = torch.tensor([1., 2.], requires_grad=True)
y = x * x
print(y.grad_fn(torch.ones(2)))
print(y.grad_fn(None))
''',
    'node_call_10': '''\
x = torch.tensor([1., 2.], requires_grad=True)
y = x * x
y.grad_fn.register_hook(lambda gi, go: print('post', gi, go))
y.grad_fn.register_prehook(lambda go: print('pre', go))
print(y.grad_fn(torch.ones(2)))
''',
    'node_call_11': '''\
x = torch.tensor([[1., 2.],[3,4]], requires_grad=True)
a, b = x.unbind(0)
print(a.grad_fn(torch.ones(2), None))
print(a.grad_fn(torch.ones(2)))
''',
    'node_call_12': '''\
x = torch.tensor([1., 2.], requires_grad=True)
y = x * x
print(y.grad_fn(g=torch.ones(2)))
''',
    'node_call_13': '''\
class T(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x * 2
    @staticmethod
    def backward(ctx, g):
        return g * 2
y = T.apply(torch.ones(2, requires_grad=True))
print(y.grad_fn(torch.ones(2)))
y.grad_fn(torch.ones(2), torch.ones(2))
''',
    'node_call_14': '''\
x = torch.tensor([1., 2.], requires_grad=True)
acc = (x * 1).grad_fn.next_functions[0][0]
with torch.no_grad():
    print(acc(torch.ones(2, requires_grad=True)), x.grad)
''',
    'accumulate_call_0': '''\
x = torch.tensor([1., 2.], requires_grad=True)
acc = (x * 1).grad_fn.next_functions[0][0]
print(acc(torch.ones(1)), x.grad)
print(acc(torch.ones(3)), x.grad)
''',
    'accumulate_call_2': '''\
x = torch.tensor([1., 2.], requires_grad=True)
acc = (x * 1).grad_fn.next_functions[0][0]
print(acc(torch.ones(2,2)), x.grad)
''',
    'accumulate_call_3': '''\
x = torch.tensor([1., 2.], requires_grad=True)
acc = (x * 1).grad_fn.next_functions[0][0]
g = torch.ones(2)
print(acc(g), x.grad is g)
g = torch.ones(2, requires_grad=True)
print(acc(g), x.grad)
''',
    'accumulate_call_4': '''\
x = torch.tensor([1., 2.], requires_grad=True)
acc = (x * 1).grad_fn.next_functions[0][0]
print(acc(5))
''',
    'node_dir_and_attributes_0': '''\
x = torch.tensor([1., 2.], requires_grad=True)
y = x * x
g = y.grad_fn
print([a for a in dir(g)])
acc = g.next_functions[0][0]
print([a for a in dir(acc)])
print(type(g._sequence_nr()), g.requires_grad, acc.requires_grad, acc._sequence_nr())
print(g._input_metadata, acc._input_metadata)
m = acc._input_metadata[0]
print(m.shape, m.dtype, m.device, m.is_nested_tensor, m.is_cpp_nested_tensor)
g._set_sequence_nr(5); print(g._sequence_nr())
for v in ['a', -1]:
    try: g._set_sequence_nr(v)
    except Exception as e: print(type(e).__name__, e)
try: g._register_hook_dict(1)
except Exception as e: print(type(e).__name__, e)
for a in ['next_functions', 'metadata', '_saved_self', '_raw_saved_self', 'requires_grad', '_input_metadata']:
    try: setattr(g, a, 1)
    except Exception as e: print(type(e).__name__, e)
    try: delattr(g, a)
    except Exception as e: print(type(e).__name__, e)
print((x * x).sum().backward(), x.grad)
''',
    'node_dir_and_attributes_1': '''\
class T(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, y):
        ctx.save_for_backward(x, None)
        ctx.k = 3
        return x * 2
    @staticmethod
    def backward(ctx, g):
        return g * 2, None
z = T.apply(torch.ones(2, requires_grad=True), 4)
n = z.grad_fn
print(dir(n))
print(n._raw_saved_tensors, n.requires_grad, n._input_metadata, n.metadata)
m = n._input_metadata[0]
print(m.shape, m.dtype)
try: n.next_functions = ()
except Exception as e: print(type(e).__name__, e)
n.tag = 1
print(n.tag)
z.sum().backward()
try: n._raw_saved_tensors
except Exception as e: print(type(e).__name__, e)
''',
    'node_dir_and_attributes_2': '''\
x = torch.ones(2, 2, requires_grad=True)
y = x * 1
y[0] *= 2
print(y.grad_fn, y.grad_fn.next_functions)
y.sum().backward(); print(x.grad)
''',
    'node_dir_and_attributes_3': '''\
x = torch.ones(2, requires_grad=True)
y = x * 1
print(y.grad_fn(5))
''',
    'gradcheck_0': '''\
class Sq(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x ** 2
    @staticmethod
    def backward(ctx, g):
        x, = ctx.saved_tensors
        return 2 * x * g
x = torch.tensor([1., 2.], dtype=torch.float64, requires_grad=True)
print(torch.autograd.gradcheck(Sq.apply, (x,)))
print(torch.autograd.gradcheck(Sq.apply, x))
print(torch.autograd.gradgradcheck(Sq.apply, (x,)))
print(x.grad, x._version)
''',
    'gradcheck_1': '''\
class Bad(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x ** 2
    @staticmethod
    def backward(ctx, g):
        x, = ctx.saved_tensors
        return 3 * x * g
x = torch.tensor([[1., 2.], [3, 4]], dtype=torch.float64, requires_grad=True)
print(torch.autograd.gradcheck(Bad.apply, (x,), raise_exception=False))
torch.autograd.gradcheck(Bad.apply, (x,))
''',
    'gradcheck_2': '''\
x = torch.tensor([1., 2.], requires_grad=True)
print(torch.autograd.gradcheck(lambda t: t.exp(), (x,), eps=1e-3, atol=1e-2))
print(torch.autograd.gradcheck(lambda t: t.exp(), (x,), raise_exception=False))
torch.autograd.gradcheck(lambda t: t.exp(), (x,))
''',
    'gradcheck_3': '''\
x = torch.tensor([1., 2.], dtype=torch.float64)
torch.autograd.gradcheck(lambda t: t.exp(), (x,))
''',
    'gradcheck_4': '''\
x = torch.tensor([1., 2.], dtype=torch.float64, requires_grad=True)
y = torch.tensor([3., 4., 5.], dtype=torch.float64, requires_grad=True)
print(torch.autograd.gradcheck(lambda a, b: (a.sum() * b, a.prod() + b.sum()), (x, y)))
print(torch.autograd.gradgradcheck(lambda a, b: (a.sum() * b, a.prod() + b.sum()), (x, y)))
print(torch.autograd.gradcheck(lambda a, k: a * k, (x, 3)))
''',
    'gradcheck_5': '''\
x = torch.tensor([1., 2.], dtype=torch.float64, requires_grad=True)
try:
    torch.autograd.gradcheck(lambda t: t.abs().detach() * t, (x,))
except RuntimeError as e:
    print('caught', type(e).__name__, type(e).__module__, e)
''',
    'gradcheck_6': '''\
class NotMul(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x * 1
    @staticmethod
    def backward(ctx, g):
        return g + 1
x = torch.tensor([1., 2.], dtype=torch.float64, requires_grad=True)
print(torch.autograd.gradcheck(NotMul.apply, (x,), raise_exception=False))
torch.autograd.gradcheck(lambda t: NotMul.apply(t) - t, (x,))
''',
    'gradcheck_7': '''\
x = torch.tensor([1., 2.], dtype=torch.float64, requires_grad=True)
torch.autograd.gradcheck(lambda t: t.expand(2, 2), (x.expand(2, 2),))
''',
    'gradcheck_8': '''\
x = torch.tensor([1., 2.], dtype=torch.float64, requires_grad=True)
print(torch.autograd.gradcheck(lambda t: (t > 1).double(), (x,)))
''',
    'gradcheck_9': '''\
x = torch.tensor([0.5, 2.], dtype=torch.float64, requires_grad=True)
print(torch.autograd.gradgradcheck(lambda t: t.sin() * t, (x,)))
print(torch.autograd.gradgradcheck(lambda t: t.sin() * t, (x,), (torch.ones(2, dtype=torch.float64),)))
print(torch.autograd.gradcheck(torch.nn.functional.softmax, (x, 0)))
''',
    'gradcheck_10': '''\
class BadG(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x ** 3
    @staticmethod
    def backward(ctx, g):
        x, = ctx.saved_tensors
        return 3 * x.detach() ** 2 * g
x = torch.tensor([0.5, 2.], dtype=torch.float64, requires_grad=True)
print(torch.autograd.gradcheck(BadG.apply, (x,)))
print(torch.autograd.gradgradcheck(BadG.apply, (x,), (torch.ones(2, dtype=torch.float64),), raise_exception=False))
torch.autograd.gradgradcheck(BadG.apply, (x,), (torch.ones(2, dtype=torch.float64),))
''',
    'addmv_addr_adjoint_0': '''\
x = torch.arange(6.).reshape(2, 3).requires_grad_()
print(x.adjoint(), x.adjoint().grad_fn, torch.adjoint(x))
''',
    'addmv_addr_adjoint_1': '''\
torch.ones(3).adjoint()
''',
    'addmv_addr_adjoint_2': '''\
M = torch.ones(2, requires_grad=True)
A = torch.arange(6.).reshape(2, 3).requires_grad_()
v = torch.ones(3, requires_grad=True)
y = torch.addmv(M, A, v, beta=2, alpha=3); print(y, y.grad_fn, y.grad_fn._saved_alpha, y.grad_fn._saved_mat)
y.sum().backward(); print(M.grad, A.grad, v.grad)
g, = torch.autograd.grad(torch.addmv(M, A, v, beta=2, alpha=3).sum(), A, create_graph=True)
print(g.grad_fn, g.grad_fn.next_functions)
print(torch.addmv(torch.ones(1,requires_grad=True), A, v).grad_fn.next_functions)
print(M.addmv(A, v), torch.addmv(torch.tensor(2.), A, v, beta=0))
''',
    'addmv_addr_adjoint_3': '''\
A = torch.arange(6.).reshape(2, 3)
for args in [(torch.ones(2), A, torch.ones(4)), (torch.ones(2), A, torch.ones(3, 1)),
             (torch.ones(3), A, torch.ones(3)),
             (torch.ones(2), A, torch.ones(3, dtype=torch.float64))]:
    try: torch.addmv(*args)
    except Exception as e: print(type(e).__name__, e)
''',
    'addmv_addr_adjoint_4': '''\
M = torch.ones(2, 3, requires_grad=True); a = torch.arange(2.).requires_grad_(); b = torch.ones(3, requires_grad=True)
y = torch.addr(M, a, b, beta=2, alpha=3); print(y, y.grad_fn, y.grad_fn._saved_vec1)
y.sum().backward(); print(M.grad, a.grad, b.grad)
y = torch.addr(torch.ones(3), a, b); print(y, y.grad_fn.next_functions)
y.sum().backward(); print(a.grad)
for args in [(torch.ones(3, 3), torch.ones(2), torch.ones(3)), (torch.ones(2,3), torch.ones(2, 1), torch.ones(3))]:
    try: torch.addr(*args)
    except Exception as e: print(type(e).__name__, e)
x = torch.tensor([0.5, 2.], dtype=torch.float64, requires_grad=True)
d = dict(dtype=torch.float64, requires_grad=True)
print(torch.autograd.gradgradcheck(lambda m, a, b: torch.addr(m, a, b, alpha=2, beta=3),
                                   (torch.ones(2, 3, **d), x, torch.ones(3, **d))))
print(torch.autograd.gradgradcheck(lambda m, a, b: torch.addmv(m, a, b, alpha=2, beta=3),
                                   (torch.ones(2, **d), torch.ones(2, 2, **d), x)))
''',
    'func_old_style_function_0': '''\
class Sq(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x ** 2
    @staticmethod
    def backward(ctx, g):
        return g
import warnings
o = torch.ones(2)
for f in [lambda: torch.func.jacrev(Sq.apply)(o), lambda: torch.func.grad(lambda x: Sq.apply(x).sum())(o),
          lambda: torch.func.vjp(Sq.apply, o), lambda: torch.func.grad(lambda x: Sq.apply(o).sum() + x.sum())(o),
          lambda: torch.func.jvp(Sq.apply, (o,), (o,))]:
    with warnings.catch_warnings():
        warnings.simplefilter('ignore', DeprecationWarning)     # (PyTorch's first transform imports torch.jit)
        try:
            print(f())
        except Exception as e:
            print(type(e).__name__, e)
print(Sq.apply(torch.ones(2, requires_grad=True)))
''',
    'func_old_style_function_1': '''\
class Sq2(torch.autograd.Function):
    @staticmethod
    def forward(x):
        return x ** 2
    @staticmethod
    def setup_context(ctx, inputs, output):
        ctx.save_for_backward(inputs[0])
    @staticmethod
    def backward(ctx, g):
        x, = ctx.saved_tensors
        return 2 * x * g
print(torch.func.grad(lambda x: Sq2.apply(x).sum())(torch.tensor([1., 2.])))
''',
    'gradient_edge_0': '''\
x = torch.tensor([1., 2.], requires_grad=True)
e = torch.autograd.graph.get_gradient_edge(x); print(e, type(e).__module__, type(e).__mro__)
y = x * 2
print(torch.autograd.graph.get_gradient_edge(y))
a, b = y.unbind()
print(torch.autograd.graph.get_gradient_edge(b))
print(torch.autograd.grad(y.sum(), torch.autograd.graph.get_gradient_edge(x)))
print(torch.autograd.grad((y * 3).sum(), [torch.autograd.graph.get_gradient_edge(y)]))
try: torch.autograd.graph.get_gradient_edge(torch.ones(2))
except Exception as e: print(type(e).__name__, e)
''',
}


@pytest.mark.parametrize("name", SNIPPETS)
def test_snippet(name):
    """Printed text, warnings and the final error are the same (addresses and C++ locations blanked)."""
    code = SNIPPETS[name]
    t, e = run_both(T, E, code)
    assert same(t, e), f"\n{code}\n--- torch\n{t.summary()}--- engine\n{e.summary()}"
