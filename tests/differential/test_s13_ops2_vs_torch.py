"""The thirteenth session's second ops round against real PyTorch: F.pad's reflect / replicate / circular modes and
their layers, adaptive_avg_pool1d, masked_scatter, as_strided, resize_, put_ / index_fill_ / index_copy_, addmm,
memory formats, and the decompositions svd / eigh / qr. Printed text (values, grad_fn names, saved attributes,
gradients), warnings and the final error must be the same (see harness.same)."""
import pytest

T = pytest.importorskip("torch", reason="differential tests need real PyTorch (pip install torch==2.13.0)")
from .harness import SHOW, load_engine, run_both, same  # noqa: E402

E = load_engine()

WALK = ("def walk(g, d=0):\n"
        "    if g is None:\n"
        "        return print(' ' * d, None)\n"
        "    names = [n for n in dir(g) if n.startswith('_saved_') and 'self' not in n]\n"
        "    print(' ' * d, g.name(), {n: getattr(g, n) for n in names})\n"
        "    for n, _ in g.next_functions:\n"
        "        walk(n, d + 2)\n")

SNIPPETS = {
    'pad_reflect_replicate_0': '''\
F = torch.nn.functional
x = torch.arange(6.).reshape(1, 2, 3).requires_grad_()
x4 = torch.arange(12.).reshape(1, 1, 3, 4).requires_grad_()
for m in ('reflect', 'replicate'):
    y = F.pad(x, (2, 1), mode=m); show(y)
    show(F.pad(x[0], (2, 1), mode=m))
    y4 = F.pad(x4, (1, 2, 2, 1), mode=m); show(y4)
    (y * torch.arange(12.).reshape(1, 2, 6)).sum().backward(); print(x.grad); x.grad = None
    (y4 * y4).sum().backward(); print(x4.grad); x4.grad = None
    print(F.pad(torch.arange(6).reshape(1, 2, 3), (1, 1), mode=m), F.pad(x4, (1, 1, -2, -1), mode=m).shape)
    print(F.pad(x, (-2, 1), mode=m))
''',
    'pad_reflect_replicate_double_backward': '''\
F = torch.nn.functional
x = torch.arange(6.).reshape(1, 2, 3).requires_grad_()
x4 = torch.arange(12.).reshape(1, 1, 3, 4).requires_grad_()
for m in ('reflect', 'replicate'):
    g, = torch.autograd.grad(F.pad(x, (2, 1), mode=m), x, torch.arange(12.).reshape(1, 2, 6).requires_grad_(),
                             create_graph=True)
    walk(g.grad_fn); show(g)
    y = F.pad(x4, (1, 2, 2, 1), mode=m)
    g, = torch.autograd.grad((y * y).sum(), x4, create_graph=True)
    walk(g.grad_fn)
    print(torch.autograd.grad((g * g).sum(), x4))
''',
    'pad_3d': '''\
F = torch.nn.functional
x = torch.arange(16.).reshape(1, 2, 2, 2, 2).requires_grad_()
for m in ('reflect', 'replicate', 'circular'):
    y = F.pad(x, (1, 0, 1, 1, 0, 1), mode=m)
    print(y.grad_fn, y.shape, y.sum())
    (y * y).sum().backward(); print(x.grad); x.grad = None
''',
    'pad_circular': '''\
F = torch.nn.functional
x = torch.arange(6.).reshape(1, 2, 3).requires_grad_()
x4 = torch.arange(12.).reshape(1, 1, 3, 4).requires_grad_()
y = F.pad(x, (2, 1), mode='circular'); print(y); walk(y.grad_fn)
(y * torch.arange(12.).reshape(1, 2, 6)).sum().backward(); print(x.grad)
y = F.pad(x[0], (2, 1), mode='circular'); print(y); walk(y.grad_fn)
y = F.pad(x4, (-1, 2, 0, 1), mode='circular'); print(y); walk(y.grad_fn)
y = F.pad(x4, (1, 2, 2, 1), mode='circular'); print(y)
(y * y).sum().backward(); print(x4.grad)
print(F.pad(torch.arange(6).reshape(1, 2, 3), (1, 1), mode='circular'), F.pad(x, (-4, 1), mode='circular'))
print(F.pad(x, (3, 1), mode='circular'), F.pad(torch.ones(0, 1, 3), (1, 1), mode='circular'))
''',
    'pad_errors': '''\
F = torch.nn.functional
x = torch.arange(6.).reshape(1, 2, 3).requires_grad_()
x4 = torch.arange(12.).reshape(1, 1, 3, 4).requires_grad_()
tries(lambda: F.pad(x, (3, 1), mode='reflect'), lambda: F.pad(x4, (1, 1, 3, 0), mode='reflect'),
      lambda: F.pad(torch.ones(1, 2, 2, 2, 2), (1, 1, 1, 1, 2, 1), mode='reflect'),
      lambda: F.pad(x, (-2, -1), mode='reflect'), lambda: F.pad(x, (-2, -1), mode='replicate'),
      lambda: F.pad(x4, (-4, -1, -3, -1), mode='reflect'), lambda: F.pad(x4, (-4, -1, -3, -1), mode='replicate'),
      lambda: F.pad(torch.ones(1, 1, 2, 2, 2), (-2, -2, 0, 0, 0, 0), mode='replicate'),
      lambda: F.pad(x, (4, 1), mode='circular'), lambda: F.pad(x4, (-5, 0, 0, 0), mode='circular'),
      lambda: F.pad(x, (1, 1), mode='foo'), lambda: F.pad(x, (1, 1, 1), mode='foo'),
      lambda: F.pad(x, (1, 1), mode='reflect', value=1.), lambda: F.pad(x, (1, 1), mode='reflect', value=0.),
      lambda: F.pad(x, (1, 1), mode='circular', value=2), lambda: F.pad(x, (1, 1, 1), mode='reflect'),
      lambda: F.pad(x, (1, 1) * 4, mode='reflect'), lambda: F.pad(x[0, 0], (1, 1), mode='reflect'),
      lambda: F.pad(x4, (1, 1), mode='replicate'), lambda: F.pad(x4, (1, 1), mode='circular'),
      lambda: F.pad(torch.ones(1, 0, 3), (1, 1), mode='reflect'),
      lambda: F.pad(torch.ones(0, 2, 3), (1, 1), mode='reflect'),
      lambda: F.pad(torch.ones(1, 0, 3, 3), (1, 1, 1, 1), mode='replicate'))
''',
    'pad_layers': '''\
x = torch.arange(6.).reshape(1, 2, 3).requires_grad_()
nn = torch.nn
tries(lambda: nn.ReflectionPad1d((1, 2)), lambda: nn.ReflectionPad2d(1), lambda: nn.ReflectionPad3d(1),
      lambda: nn.ReplicationPad1d(1), lambda: nn.ReplicationPad2d([1, 2, 3, 4]), lambda: nn.ReplicationPad3d(1),
      lambda: nn.CircularPad1d(1), lambda: nn.CircularPad2d((1, 2, 3, 4)), lambda: nn.CircularPad3d(1),
      lambda: nn.ZeroPad1d(1), lambda: nn.ZeroPad2d(1), lambda: nn.ZeroPad3d(1), lambda: nn.ConstantPad3d(1, 2),
      lambda: nn.ReflectionPad1d(1)(x), lambda: nn.ReplicationPad1d((2, 0))(x), lambda: nn.CircularPad1d(1)(x),
      lambda: nn.CircularPad1d(1)(x[0, 0]), lambda: nn.CircularPad2d(1)(x[0, 0]), lambda: nn.ZeroPad1d(1)(x),
      lambda: nn.ReflectionPad2d([1, 2, 3]), lambda: type(nn.ReflectionPad1d(1)), lambda: type(nn.ZeroPad3d(1)))
''',
    'adaptive_avg_pool1d': '''\
F = torch.nn.functional
x = torch.arange(6.).reshape(1, 1, 6).requires_grad_()
for size in (4, 1, (2,), [3]):
    y = F.adaptive_avg_pool1d(x, size); print(y); walk(y.grad_fn)
    y.sum().backward(); print(x.grad); x.grad = None
y = F.adaptive_avg_pool1d(x[0], 4); print(y); walk(y.grad_fn)
m = torch.nn.AdaptiveAvgPool1d(3); print(m, type(m), m(x), torch.nn.AdaptiveAvgPool1d((3,)))
tries(lambda: F.adaptive_avg_pool1d(x, (2, 3)), lambda: F.adaptive_avg_pool1d(x[0, 0], 2),
      lambda: F.adaptive_avg_pool1d(x, None), lambda: F.adaptive_avg_pool1d(torch.ones(1, 1, 1, 6), 2))
''',
    'masked_scatter': '''\
x = torch.arange(4.).requires_grad_()
s = torch.tensor([9., 8, 7, 6], requires_grad=True)
m = torch.tensor([True, False, True, False])
y = x.masked_scatter(m, s); show(y)
y.backward(torch.tensor([1., 2, 3, 4])); print(x.grad, s.grad)
g, = torch.autograd.grad(torch.masked_scatter(x, m, s), s, torch.ones(4, requires_grad=True), create_graph=True)
walk(g.grad_fn)
z = x.detach().clone(); z.masked_scatter_(m, torch.tensor([5., 6])); print(z, z._version)
w = x * 1; w.masked_scatter_(m, s); show(w)
print(torch.ones(2, 4).masked_scatter(m, torch.arange(8.)))
tries(lambda: x.masked_scatter(m, torch.ones(1)), lambda: x.masked_scatter(torch.tensor([1, 0, 1, 0]), s),
      lambda: x.masked_scatter(m, torch.ones(4, dtype=torch.float64)),
      lambda: x.masked_scatter(torch.ones(3, dtype=torch.bool), s),
      lambda: x.detach().masked_scatter_(torch.ones(2, 4, dtype=torch.bool), torch.arange(8.)))
''',
    'put': '''\
x = torch.arange(6.).reshape(2, 3).requires_grad_()
s = torch.tensor([9., 8], requires_grad=True)
i = torch.tensor([0, -1])
y = x.put(i, s); show(y)
y.backward(torch.arange(6.).reshape(2, 3)); print(x.grad, s.grad)
y = torch.put(x, i, s, accumulate=True); show(y)
g, = torch.autograd.grad(y, s, torch.ones(2, 3, requires_grad=True), create_graph=True); show(g)
w = x * 1; print(w.put_(i, s), w._version)
z = torch.zeros(5); z.put_(torch.tensor([1, 1]), torch.tensor([1., 2.]), accumulate=True); print(z)
tries(lambda: x.put(torch.tensor([6]), s[:1]), lambda: x.put(torch.tensor([0., 1]), s), lambda: x.put(i, s[:1]),
      lambda: x.put(i, torch.ones(2, dtype=torch.float64)), lambda: x.put(torch.tensor([-7]), s[:1]),
      lambda: x.put(i.int(), s))
''',
    'as_strided': '''\
x = torch.arange(6.).requires_grad_()
y = x.as_strided((2, 2), (1, 2)); show(y)
print(y._base is x, y._version, y.stride(), y.storage_offset(), y.is_contiguous())
(y * torch.arange(4.).reshape(2, 2)).sum().backward(); print(x.grad)
y = torch.as_strided(x, (3, 2), (1, 1), 1); show(y)
y.sum().backward(); print(x.grad)
z = x * 2
show(z.as_strided((2,), (2,), 1)); show(z.view(2, 3).t().as_strided((2, 2), (3, 1)))
print(torch.autograd.grad(x.as_strided((2, 2), (1, 2)).pow(2).sum(), x))
tries(lambda: x.as_strided((7,), (1,)), lambda: x.as_strided((2,), (1,), 5), lambda: x.as_strided((2,), (-1,)),
      lambda: x.as_strided((2, 2), (1,)), lambda: x.as_strided((2,), (1,), -1))
a = torch.arange(6.)
b = a.as_strided((2,), (3,)); b.add_(1); print(a, b, a._version)
''',
    'resize': '''\
x = torch.arange(6.)
print(x.resize_(2, 2), x._version, x.stride())
print(x.resize_((3, 2)), x._version)
print(x.resize_as_(torch.ones(3)), x._version, x.shape)
print(x.resize_([1, 2]).shape, x.resize_(0).shape, x.resize_(2).shape)
y = torch.arange(6.)
v = y[1:3]
tries(lambda: v.resize_(2), lambda: v.resize_(3), lambda: y.resize_(2, 3), lambda: y.resize_(2, 2))
print(y, v)
r = torch.ones(3, requires_grad=True)
tries(lambda: r.resize_(3), lambda: r.resize_(2), lambda: (r * 1).resize_(3), lambda: r.resize_as_(torch.ones(2)))
with torch.no_grad():
    tries(lambda: r.resize_(2), lambda: r.detach().resize_(1))
tries(lambda: torch.ones(2).resize_(-1), lambda: torch.ones(2).resize_(2.5))
''',
    'addmm_': '''\
a = torch.ones(2, 2)
m = torch.tensor([[1., 2.], [3., 4.]], requires_grad=True)
print(a.addmm(m, m), a._version)
b = a.clone(); b.addmm_(m, m, beta=0.5, alpha=2); show(b); print(b._version)
b.sum().backward(); print(m.grad)
tries(lambda: torch.ones(2).addmm_(m, m), lambda: torch.ones(1, 2).addmm_(m, m), lambda: m.addmm_(m, m))
''',
    'memory_format': '''\
print(torch.contiguous_format, torch.preserve_format, torch.channels_last, torch.channels_last_3d,
      type(torch.channels_last), torch.memory_format)
x = torch.arange(24.).reshape(1, 2, 3, 4).requires_grad_()
y = x.contiguous(memory_format=torch.channels_last)
print(y.stride(), y.grad_fn, y.is_contiguous(), y.is_contiguous(memory_format=torch.channels_last), y._base is None)
z = y.contiguous()
print(z.stride(), z.grad_fn, z.contiguous() is z, x.contiguous(memory_format=torch.contiguous_format) is x)
print(x.transpose(1, 2).contiguous(memory_format=torch.contiguous_format).stride())
print(x.clone(memory_format=torch.channels_last).stride(), y.clone().stride(),
      y.clone(memory_format=torch.preserve_format).stride())
print((y * 2).stride(), y.sum(), y.reshape(-1)[:5], x[0, 0].t().clone().stride(), x[0, :, ::2].t().clone().stride())
tries(lambda: x.contiguous(memory_format=torch.preserve_format) is x,
      lambda: torch.ones(2, 3).contiguous(memory_format=torch.channels_last),
      lambda: x.contiguous(memory_format=torch.channels_last_3d),
      lambda: torch.ones(1, 2, 3, 4, 5).contiguous(memory_format=torch.channels_last_3d).stride(),
      lambda: x.contiguous(memory_format=1), lambda: torch.ones(2, 3).is_contiguous(memory_format=torch.channels_last))
y.sum().backward(); print(x.grad.stride())
''',
    'svd': '''\
a = torch.tensor([[1., 2], [3, 4], [5, 6]], requires_grad=True)
r = torch.svd(a); print(r, [t.grad_fn for t in r])
print(torch.svd(a, some=False), torch.linalg.svd(a, full_matrices=False), torch.linalg.svd(a).U.shape)
print(a.svd().V.grad_fn.next_functions)
torch.svd(a).S.sum().backward(); print(a.grad)
''',
}


@pytest.mark.parametrize("name", SNIPPETS)
def test_snippet(name):
    """Printed text, warnings and the final error are the same (addresses and C++ locations blanked)."""
    code = SHOW + WALK + SNIPPETS[name]
    t, e = run_both(T, E, code)
    assert same(t, e), f"\n{code}\n--- torch\n{t.summary()}--- engine\n{e.summary()}"
