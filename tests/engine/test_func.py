"""torch.func in the engine: values, which results stay attached to an outside graph, errors (expected values and
texts from PyTorch 2.13), and `from torch.func import ...` when torch is the engine."""
import sys

import pytest

import engine as torch
LOADED_BY_ENGINE = 'func' in vars(torch)           # (before this module imports engine.func itself)
from engine.func import functional_call, grad, grad_and_value, hessian, jacfwd, jacrev, jvp, vjp, vmap  # noqa: E402

X = [1., 2., 3.]


def close(t, expected):
    return t.shape == torch.tensor(expected).shape and torch.allclose(t, torch.tensor(expected), atol=1e-4)


def test_grad_values_aux_argnums_and_pytrees():
    x = torch.tensor(X)
    f = lambda x: (x ** 2).sum()       # noqa: E731
    assert grad(f)(x).tolist() == [2., 4., 6.]
    g, v = grad_and_value(f)(x)
    assert g.tolist() == [2., 4., 6.] and v.item() == 14.
    ga, gb = grad(lambda a, b: (a * b).sum(), argnums=(0, 1))(x, x * 2)
    assert ga.tolist() == [2., 4., 6.] and gb.tolist() == X
    assert grad(lambda a, b: (a * b).sum(), argnums=-1)(x, x * 2).tolist() == X
    g, aux = grad(lambda x: ((x ** 2).sum(), {'m': x.mean()}), has_aux=True)(x)
    assert g.tolist() == [2., 4., 6.] and aux['m'].item() == 2. and aux['m'].grad_fn is None
    d = grad(lambda d: (d['a'] * d['b']).sum())({'a': x, 'b': x * 2})
    assert list(d) == ['a', 'b'] and d['a'].tolist() == [2., 4., 6.] and d['b'].tolist() == X
    assert grad(grad(lambda x: x ** 3))(torch.tensor(2.)).item() == 12.
    # the inner transform differentiates its own argument, not the outer x it closes over
    assert grad(lambda x: grad(lambda y: (x * y).sum())(x).sum())(x).tolist() == [1., 1., 1.]
    # outputs that do not depend on the input: zeros
    assert grad(lambda x: torch.tensor(1.))(x).tolist() == [0., 0., 0.]
    assert grad(lambda x: x.sum().long())(x).tolist() == [0., 0., 0.]
    assert grad(f).__name__ == '<lambda>'


def test_results_attach_only_to_outside_graphs():
    x = torch.tensor(X)
    xr = torch.tensor(X, requires_grad=True)
    f = lambda x: x.sin().sum()        # noqa: E731
    assert grad(f)(x).grad_fn is None and not grad(f)(x).requires_grad
    g = grad(f)(xr)
    assert type(g.grad_fn).__name__ == 'MulBackward0'
    assert type(g.grad_fn.next_functions[1][0]).__name__ == 'CosBackward0'
    assert grad(lambda x: (x * 2).sum())(xr).grad_fn is None          # constant derivative: nothing outside
    assert type(grad(lambda x: (x * x).sum())(xr).grad_fn).__name__ == 'AddBackward0'
    with torch.no_grad():
        assert not grad(f)(xr).requires_grad
    w = torch.tensor(X, requires_grad=True)
    assert type(grad(lambda y: (w * y).sum())(x).grad_fn).__name__ == 'MulBackward0'
    y = grad(grad(lambda x: x ** 3))(torch.tensor(2., requires_grad=True))
    assert type(y.grad_fn).__name__ == 'MulBackward0'
    assert type(jacrev(lambda a: a * a)(xr).grad_fn).__name__ == 'ViewBackward0'
    gg = grad(lambda x: (x ** 3).sum())(xr)
    gg.sum().backward()
    assert xr.grad.tolist() == [6., 12., 18.]


def test_grad_errors():
    x = torch.tensor(X)
    cases = [
        (lambda: grad(lambda x: x ** 2)(x), RuntimeError,
         'grad_and_value(f)(*args): Expected f(*args) to return a scalar Tensor, got tensor with 1 dims. Maybe you '
         'wanted to use the vjp or jacrev APIs instead?'),
        (lambda: grad(lambda x: 3.0)(x), RuntimeError,
         "grad_and_value(f)(*args): Expected f(*args) to return a Tensor, got <class 'float'>"),
        (lambda: grad(lambda x: x.sum())(3.0), ValueError,
         "Thing passed to transform API must be Tensor, got <class 'float'>"),
        (lambda: grad(lambda x, y: x.sum(), argnums=2)(x, x), RuntimeError,
         'Got argnum=2, but only 2 positional inputs'),
        (lambda: grad(lambda x: x.sum(), argnums=())(x), RuntimeError, 'argnums must be non-empty'),
        (lambda: grad(lambda x: x.sum(), argnums=[0])(x), RuntimeError,
         "argnums must be int or Tuple[int, ...], got: <class 'list'>"),
        (lambda: grad(lambda x: x.sum(), argnums=(0, 0))(x), RuntimeError,
         'argnums elements must be unique, got (0, 0)'),
        (lambda: grad(lambda x: x.sum(), has_aux=True)(x), RuntimeError,
         'grad_and_value(f)(*args): output of function f should be a tuple: (output, aux) if has_aux is True'),
        (lambda: grad(lambda x: (x.sum(), 3), has_aux=True)(x), RuntimeError,
         "Expected tensors, got unsupported type <class 'int'>"),
        (lambda: grad(lambda x: x.sum())(torch.tensor([1, 2])), RuntimeError,
         'only Tensors of floating point dtype can require gradients'),
    ]
    for call, kind, text in cases:
        with pytest.raises(kind) as info:
            call()
        assert str(info.value) == text


def test_vjp_jvp_jacobians_hessian():
    x = torch.tensor(X)
    f = lambda x: x.sin() * x          # noqa: E731
    out, fn = vjp(f, x)
    assert close(out, [0.8415, 1.8186, 0.4234])
    (g,) = fn(torch.ones(3))
    assert close(g, [1.3818, 0.0770, -2.8289])
    assert fn.__qualname__ == '_vjp_with_argnums.<locals>.wrapper'
    with pytest.raises(RuntimeError, match=r'cotangents: \*, primal output: \(\*, \*\)$'):
        vjp(lambda a: (a, a), x)[1](torch.ones(3))
    out, t = jvp(f, (x,), (torch.ones(3),))
    assert close(t, [1.3818, 0.0770, -2.8289])
    _, t = jvp(lambda a, b: a * b, (x, x), (torch.ones(3), torch.zeros(3)))
    assert t.tolist() == X
    with pytest.raises(RuntimeError, match='Expected primals to be a tuple'):
        jvp(f, x, torch.ones(3))
    expected = [[1.3818, 0., 0.], [0., 0.0770, 0.], [0., 0., -2.8289]]
    assert close(jacrev(f)(x), expected) and close(jacfwd(f)(x), expected)
    ja, jb = jacrev(lambda a, b: (a * b, a.sum()), argnums=1)(x, x)
    assert ja.tolist() == [[1., 0., 0.], [0., 2., 0.], [0., 0., 3.]] and jb.tolist() == [0., 0., 0.]
    j = jacrev(lambda a: {'p': a * 2, 'q': a.sum()})(x)
    assert j['q'].tolist() == [1., 1., 1.] and j['p'].shape == (3, 3)
    assert jacrev(lambda a: a @ torch.ones(3, 2))(x.reshape(1, 3)).shape == (1, 2, 1, 3)
    assert hessian(lambda a: (a ** 3).sum())(x).tolist() == [[6., 0., 0.], [0., 12., 0.], [0., 0., 18.]]
    (haa, hab), (hba, hbb) = hessian(lambda a, b: (a * b ** 2).sum(), argnums=(0, 1))(x, x)
    assert haa.tolist() == [[0.] * 3] * 3 and hab.tolist() == [[2., 0., 0.], [0., 4., 0.], [0., 0., 6.]]


def test_functional_call():
    torch.manual_seed(0)
    m = torch.nn.Linear(3, 2)
    a = torch.ones(1, 3)
    ones = {'weight': torch.ones(2, 3), 'bias': torch.ones(2)}
    assert functional_call(m, ones, (a,)).tolist() == [[4., 4.]]
    assert functional_call(m, ({'weight': torch.zeros(2, 3)}, {'bias': torch.ones(2)}), a).tolist() == [[1., 1.]]
    assert close(functional_call(m, {'weight': torch.zeros(2, 3)}, (a,)), [[-0.0114, 0.4578]])
    assert type(m.weight).__name__ == 'Parameter' and m.weight.requires_grad        # put back
    g = grad(lambda p: functional_call(m, p, (a,)).sum())(ones)
    assert g['weight'].tolist() == [[1., 1., 1.]] * 2 and g['bias'].tolist() == [1., 1.]
    with pytest.raises(RuntimeError) as info:
        functional_call(m, {'weight': torch.zeros(2, 3), 'foo': torch.ones(1)}, (a,), strict=True)
    assert str(info.value) == ("Error(s) in reparametrizing for Linear:\n\tUnexpected key(s): 'foo'.\n"
                               "\tMissing key(s): 'bias'.")
    with pytest.raises(ValueError, match=r"^\['weight'\] appeared in multiple dictionaries"):
        functional_call(m, ({'weight': torch.zeros(2, 3)}, {'weight': torch.ones(2, 3)}), (a,))
    bn = torch.nn.BatchNorm1d(2)
    rm = torch.ones(2)
    functional_call(bn, {'running_mean': rm}, (torch.tensor([[1., 2.], [3., 6.]]),))
    assert close(rm, [1.1, 1.3]) and bn.running_mean.tolist() == [0., 0.]       # the given buffer is updated


def test_vmap():
    a = torch.arange(6.).reshape(2, 3)
    b = torch.arange(3.)
    assert vmap(torch.dot)(a, a).tolist() == [5., 50.]
    assert vmap(torch.dot, in_dims=(0, None))(a, b).tolist() == [5., 14.]
    assert vmap(lambda t: t * 2, in_dims=1).__name__ == '<lambda>'
    assert vmap(lambda t: t * 2, in_dims=1)(a).tolist() == [[0., 6.], [2., 8.], [4., 10.]]
    s, m = vmap(lambda t: (t.sum(), t), out_dims=(0, 1))(a)
    assert s.tolist() == [3., 12.] and m.tolist() == [[0., 3.], [1., 4.], [2., 5.]]
    assert vmap(lambda d: d['a'] * d['b'], in_dims=({'a': 0, 'b': None},))({'a': a, 'b': b}).tolist() == \
        [[0., 1., 4.], [0., 4., 10.]]
    assert vmap(lambda t: b, out_dims=None)(a) is b
    assert vmap(lambda t: t.sum())(torch.ones(0, 3)).shape == (0,)
    assert vmap(grad(lambda t: (t ** 3).sum()))(a).tolist() == [[0., 3., 12.], [27., 48., 75.]]
    cases = [
        (lambda: vmap(lambda t: 3.0)(a),
         "vmap(<lambda>, ...): `<lambda>` must only return Tensors, got type <class 'float'>. Did you mean to set "
         "out_dims= to None for output?"),
        (lambda: vmap(lambda t, u: t + u)(a, torch.ones(3)),
         'vmap: Expected all tensors to have the same size in the mapped dimension, got sizes [2, 3] for the mapped '
         'dimension'),
        (lambda: vmap(lambda t: t)(torch.tensor(3.)),
         'vmap(<lambda>, in_dims=0, ...)(<inputs>): Got in_dim=0 for some input, but that input is a Tensor of '
         'dimensionality 0 so expected in_dim to satisfy -0 <= in_dim < 0.'),
        (lambda: vmap(lambda t, u: t, in_dims=(0, 0, 0))(a, a),
         'vmap(<lambda>, in_dims=(0, 0, 0), ...)(<inputs>): in_dims is not compatible with the structure of `inputs`. '
         'in_dims has structure TreeSpec(tuple, None, [*,\n  *,\n  *]) but inputs has structure TreeSpec(tuple, None, '
         '[*,\n  *]).'),
        (lambda: vmap(lambda t: t, in_dims=None)(a),
         "vmap(<lambda>, in_dims=None, ...)(<inputs>): expected `in_dims` to be int or a (potentially nested) tuple "
         "matching the structure of inputs, got: <class 'NoneType'>."),
        (lambda: vmap(lambda t: t, in_dims=(None,))(a), 'vmap: Expected at least one Tensor to vmap over'),
        (lambda: vmap(lambda t: t.sum(), out_dims=None)(a),
         'vmap(<lambda>, ...): `<lambda>` can not return a BatchedTensor when out_dim is None'),
        (lambda: vmap(lambda t, n: t * n)(a, 3),
         "vmap(<lambda>, in_dims=0, ...)(<inputs>): Got in_dim=0 for an input but the input is of type <class 'int'>. "
         "We cannot vmap over non-Tensor arguments, please use None as the respective in_dim"),
    ]
    for call, text in cases:
        with pytest.raises(ValueError) as info:
            call()
        assert str(info.value) == text


def test_import_paths_when_torch_is_the_engine():
    """In the browser torch IS the engine: `import torch.func` and `from torch.func import ...` find engine.func,
    which `import engine` itself loads (torch.func.grad works without an import of torch.func)."""
    assert LOADED_BY_ENGINE
    saved = {k: sys.modules.pop(k) for k in ('torch', 'torch.func') if k in sys.modules}
    sys.modules['torch'] = torch
    try:
        namespace = {}
        exec('import torch.func\nfrom torch.func import grad, vmap', namespace)
        assert namespace['torch'].func is torch.func and namespace['grad'] is torch.func.grad
        per_row = namespace['vmap'](namespace['grad'](lambda x: (x * x).sum()))
        assert per_row(torch.ones(2, 2)).tolist() == [[2., 2.], [2., 2.]]
    finally:
        for k in ('torch', 'torch.func'):
            sys.modules.pop(k, None)
        sys.modules.update(saved)
