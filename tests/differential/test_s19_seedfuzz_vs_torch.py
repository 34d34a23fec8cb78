"""Variations of the learners' seed notes, found by generated programs (leaf tensors and in-place changes, arange and
views, the legacy FloatTensor constructors, the `m.detach = ...` typo with other methods, no_grad views), against
real PyTorch. Printed text, warnings and the final error must be the same."""
import pytest

T = pytest.importorskip("torch", reason="differential tests need real PyTorch (pip install torch==2.13.0)")
from .harness import load_engine, run_both, same  # noqa: E402

E = load_engine()

SNIPPETS = {
    # torch.FloatTensor(size=(2,)): the legacy constructors' one argument by its name; other keywords fit no signature
    "legacy_constructor_keywords": (
        'for c in [torch.Tensor, torch.FloatTensor, torch.LongTensor]:\n'
        '    a = c(size=(2,)); b = c(size=[2, 3], device="cpu"); d = c(size=()); e = c(data=(1, 2))\n'
        '    print(a.shape, a.dtype, b.shape, d.shape, e, c(data=[[1, 2]]), c(other=torch.ones(2, dtype=a.dtype)))\n'
        'for kw in [dict(size=2), dict(size=(2.5,)), dict(data=2), dict(data=torch.ones(2)), dict(other=[1., 2.]),\n'
        '           dict(size=(2,), requires_grad=True), dict(data=[1.], size=(2,)), dict(dtype=torch.float64)]:\n'
        '    try:\n'
        '        torch.FloatTensor(**kw)\n'
        '    except Exception as e:\n'
        '        print(type(e).__name__, e)\n'
        'a = torch.FloatTensor(size=(2,)); a.requires_grad = True\n'
        'print(a.size(), a.dtype, a.requires_grad, a.is_leaf, a.grad_fn)\n'
        'torch.Tensor(2, data=[1.])'),
    # torch.FloatTensor[2] (brackets for parentheses): the C type's name in Python's error
    "legacy_type_subscripted": (
        'for c in [torch.FloatTensor, torch.DoubleTensor, torch.LongTensor, torch.Tensor]:\n'
        '    try:\n'
        '        c[2]\n'
        '    except TypeError as e:\n'
        '        print(e)\n'
        'torch.FloatTensor[[1., 2.]]'),
    # m.item = 100 * m.item(): the instance attribute shadows the method PyTorch's printing calls
    "print_calls_shadowed_methods": (
        'm = torch.ones((), requires_grad=True)\n'
        'm.item = 100 * m.item()\n'
        'print(m.item, m.detach(), m.__dict__)\n'
        'for name, t in [("numel", torch.zeros(0)), ("reshape", torch.ones(2)), ("tolist", torch.ones(2)),\n'
        '                ("size", torch.ones(2, 2)), ("dim", torch.tensor(3)), ("size", torch.ones(3))]:\n'
        '    setattr(t, name, torch.zeros(1))\n'
        '    try:\n'
        '        print(t)\n'
        '    except TypeError as e:\n'
        '        print(name, e)\n'
        'd = torch.ones(2, requires_grad=True)\n'
        'd.detach = 100 * d.detach()\n'
        'print(d, d.detach)\n'
        'n = m * 2\n'
        'n.backward()\n'
        'print(m.grad)\n'
        'print(m)'),
    # addmm_ on a leaf requiring grad: autograd's error before the kernel's (dtypes, then the shape of self)
    "addmm_inplace_check_order": (
        'for shape, d, rg in [((), torch.float32, True), ((3,), torch.float32, True), ((2,), torch.float64, False),\n'
        '                     ((2,), torch.float32, False), ((2, 2), torch.float64, False), ((2, 2), torch.float32, True)]:\n'
        '    t = torch.ones(shape, dtype=d, requires_grad=rg)\n'
        '    try:\n'
        '        t.addmm_(torch.eye(2), torch.eye(2))\n'
        '        print(t)\n'
        '    except RuntimeError as e:\n'
        '        print(e)\n'
        'w = torch.ones(2, 2, requires_grad=True) * 1\n'
        'w.addmm_(torch.eye(2), torch.eye(2), beta=2)\n'
        'print(w, w._version)'),
    # addmm_ / baddbmm_ as PyTorch's C methods: the parser's errors, the deprecated (beta, tensor, tensor) overloads
    # (warned), and baddbmm_'s checks in PyTorch's order (dtypes, self expanding to the result, then its shape)
    "addmm_baddbmm_inplace_methods": (
        'x = torch.ones(2, 2)\n'
        'b = torch.ones(1, 2, 2)\n'
        'print(x.baddbmm_, torch.Tensor.addmm_, x.addmm_(2, torch.eye(2), torch.eye(2)), b.clone().baddbmm_(2, b, b))\n'
        'w = torch.ones(1, 2, 2, requires_grad=True) * 1\n'
        'print(torch.ones(2, 2).addmm_(2, 3, torch.eye(2), torch.eye(2)), w.baddbmm_(b, b, alpha=2), w._version)\n'
        'for f in [lambda: x.addmm_(), lambda: x.addmm_(1, 2), lambda: x.addmm_(torch.eye(2)), lambda: x.baddbmm_(),\n'
        '          lambda: x.baddbmm_(1, 2), lambda: x.baddbmm_(b), lambda: x.baddbmm_(b, b),\n'
        '          lambda: torch.ones(3).baddbmm_(b, b), lambda: b.double().baddbmm_(b, b),\n'
        '          lambda: torch.ones(2, 3, dtype=torch.float64).baddbmm_(b, b), lambda: x.double().baddbmm_(b, b),\n'
        '          lambda: torch.ones(2, requires_grad=True).baddbmm_(b, b), lambda: x.addmm_(torch.eye(2), torch.eye(2), foo=1)]:\n'
        '    try:\n'
        '        print(f())\n'
        '    except Exception as e:\n'
        '        print(type(e).__name__, e)'),
    # a leaf made of a view (arange(...).view(...).requires_grad_()): its views made under no_grad follow the base,
    # which does not require grad, so modifying them in place is allowed and their base's grad_fn is rebuilt
    "no_grad_view_of_a_leaf_view": (
        'x = torch.arange(1., 7.).view(2, 3).requires_grad_()\n'
        'with torch.no_grad():\n'
        '    v = x.t()\n'
        '    w = x[0]\n'
        'print(v.requires_grad, w.requires_grad, v.is_leaf, v.grad_fn)\n'
        'v[...] = 5.\n'
        'print(x, x._version, v._version)\n'
        '(x * x).sum().backward()\n'
        'print(x.grad)\n'
        'b = x.view_as(x)\n'
        'with torch.no_grad():\n'
        '    u = b[1:]\n'
        'u.relu_()\n'
        'print(u.requires_grad, b.grad_fn, b.grad_fn.next_functions, b._version)\n'
        'y = torch.ones(2, 2, requires_grad=True)\n'
        'with torch.no_grad():\n'
        '    z = y.t()\n'
        'print(z.requires_grad)\n'
        'z.mul_(2)'),
    # fill_ with a value of 1 or more dims into an expanded view: the value's error, not the one of shared memory
    "fill_value_dims_before_overlap": (
        'x = torch.tensor([1., 2., 3.], requires_grad=True)\n'
        'b = x.relu()\n'
        'for v in [b.expand(2, 3), torch.tensor(3.).expand(3), torch.ones(2).expand(2, 2)]:\n'
        '    try:\n'
        '        v.fill_(torch.tensor([3.]))\n'
        '    except RuntimeError as e:\n'
        '        print(e)\n'
        'try:\n'
        '    x.fill_(torch.tensor([3.]))\n'
        'except RuntimeError as e:\n'
        '    print(e)\n'
        'b.expand(2, 3).fill_(torch.tensor(3.))'),
    # torch.range (deprecated, the end included): its parser's errors, no kernel for bool, start / end / step taken
    # as the dtype's accumulate type (an integer dtype truncates them, the values checked as doubles)
    "range_parser_and_integer_dtypes": (
        'import warnings\n'
        'warnings.simplefilter("ignore")\n'
        'for c in ["torch.range(-1.5, 2.5, dtype=torch.int32)", "torch.range(0.3, True, dtype=torch.long)",\n'
        '          "torch.range(-2.7, 2.7, 1.5, dtype=torch.int64)", "torch.range(2.5, -1.5, -1, dtype=torch.int64)",\n'
        '          "torch.range(-1, 3, dtype=torch.uint8)", "torch.range(0, 300, 100, dtype=torch.uint8)",\n'
        '          "torch.range(2.5, 2, dtype=torch.int64)", "torch.range(1, 4, 0, dtype=torch.bool)",\n'
        '          "torch.range(4, 1, dtype=torch.bool)", "torch.range(1j, 4)", "torch.range(1j, 4, dtype=torch.int64)",\n'
        '          "torch.range(0, float(\'inf\'), dtype=torch.int64)", "torch.range(1, 4, float(\'nan\'))",\n'
        '          "torch.range(5, start=1)", "torch.range(\'3\', device=\'cpu\')", "torch.range(end=3)",\n'
        '          "torch.range(torch.tensor(1), torch.tensor([3]))", "torch.range(1, 3, pin_memory=False)",\n'
        '          "torch.range(start=1, end=3)", "torch.range(1, 3, requires_grad=1)", "torch.range(1, 3, step=0.5)",\n'
        '          "torch.range(torch.tensor(1), 3, dtype=torch.float64)", "torch.range(1, 4, out=torch.empty(2))"]:\n'
        '    try:\n'
        '        print(c, eval(c))\n'
        '    except Exception as e:\n'
        '        print(c, type(e).__name__, e)'),
    # arange: no kernel for bool, before the checks of the values; a complex bound is an overflow of double;
    # requires_grad=None (the factories' `bool? requires_grad`) is False
    "arange_bool_and_complex": (
        'for c in ["torch.arange(-1.5, dtype=torch.bool)", "torch.arange(0, 4, 0, dtype=torch.bool)",\n'
        '          "torch.arange(1, 1j, dtype=torch.bool)", "torch.arange(1j, 4)", "torch.arange(1j)",\n'
        '          "torch.arange(1, 4, 1j, dtype=torch.int64)", "torch.arange(0, 1e-2, float(\'nan\'))",\n'
        '          "torch.arange(3, requires_grad=None)", "torch.rand(2, 3, requires_grad=None).shape",\n'
        '          "torch.randn(2, requires_grad=None).requires_grad", "torch.arange(3, requires_grad=0)"]:\n'
        '    try:\n'
        '        print(c, eval(c))\n'
        '    except Exception as e:\n'
        '        print(c, type(e).__name__, e)'),
    # the zeros signature with out=: PyTorch resizes out first (a negative size overflows its numel; empty checks
    # the size before), out's dtype is checked before eye's n and rand / randn's size; randn of no numbers runs no
    # kernel (any dtype), rand checks its dtype anyway
    "factories_with_out": (
        'def O():\n'
        '    return torch.empty(3)          # (a fresh out each time: a failed resize leaves PyTorch\'s in a bad state)\n'
        'for c in ["torch.zeros(-1, out=O())", "torch.ones(2, -1, out=torch.empty(0))", "torch.empty(-1, out=O())",\n'
        '          "torch.full((-1,), 2., out=O())", "torch.randn(-1, out=O())", "torch.rand(-2, 3, out=O())",\n'
        '          "torch.randint(0, 3, (-1,), out=O())", "torch.zeros(-1)", "torch.zeros(-1, dtype=torch.int64, out=O())",\n'
        '          "torch.eye(-1, dtype=torch.bool, out=O())", "torch.rand(-1, dtype=torch.float16, out=torch.empty(0))",\n'
        '          "torch.randn(0, dtype=int)", "torch.randn(2, 0, dtype=torch.bool)", "torch.rand(0, dtype=torch.long)",\n'
        '          "torch.zeros(2, 3, out=O()).shape"]:\n'
        '    try:\n'
        '        print(c, eval(c))\n'
        '    except Exception as e:\n'
        '        print(c, type(e).__name__, e)'),
    # linspace / logspace: out= in the parser's error, a str bound fits no signature, steps a 0-d integer tensor
    "linspace_logspace_arguments": (
        'print(torch.linspace(1.5, 7, torch.tensor(3)), torch.logspace(0, 2, torch.tensor(3)))\n'
        'for c in ["torch.linspace(-3, 1e-2, out=torch.empty(0))", "torch.logspace(1, 2.5, out=torch.empty(0))",\n'
        '          "torch.linspace(\'3\', 4, -3, dtype=torch.float, requires_grad=True)", "torch.linspace(1, \'3\', 2)",\n'
        '          "torch.logspace(\'3\', -3, 1)", "torch.linspace(2, 0.3, -1.5, out=torch.empty(0))"]:\n'
        '    try:\n'
        '        print(c, eval(c))\n'
        '    except Exception as e:\n'
        '        print(c, type(e).__name__, e)'),
    # torch.special's functions read by PyTorch's parser with their own signatures (special_<name>), then the op
    "special_arguments": (
        'x = torch.tensor([0.5, 1.5], requires_grad=True)\n'
        'S = torch.special\n'
        'print(S.expit(input=x), S.xlogy(2, x), S.xlogy(x, 2), S.logit(x, 0.1), S.logsumexp(x, dim=0, keepdim=True))\n'
        'print(S.softmax(x, 0, torch.float64), S.log_softmax(x, 0, dtype=torch.float64), S.round(x, decimals=1))\n'
        'print(S.expit(x.detach(), out=torch.empty(2)), S.entr(x).grad_fn._saved_self, S.psi)\n'
        'for c in ["S.expit(x, 1)", "S.xlogy(2, 3)", "S.polygamma(x, 1)", "S.polygamma(1, 2.)", "S.round(x, 1)",\n'
        '          "S.log_softmax(x, 0, torch.float64)", "S.expit(x=x)", "S.erf([1.])", "S.expit(x, out=torch.empty(2))"]:\n'
        '    try:\n'
        '        print(c, eval(c))\n'
        '    except Exception as e:\n'
        '        print(c, type(e).__name__, e)'),
}


@pytest.mark.parametrize("name", SNIPPETS)
def test_snippet(name):
    code = SNIPPETS[name]
    t, e = run_both(T, E, code)
    assert same(t, e), f"\n{code}\n--- torch\n{t.summary()}--- engine\n{e.summary()}"
