"""torch.autograd.Function on the engine alone: custom forward / backward, ctx, saved tensors, the node's checks,
and the playground's graph export and stepper over a Function node. Expected values are PyTorch 2.13's."""
import json
import re
import sys
import warnings

import pytest

import engine as torch
from engine import graph
from engine._autograd import backward_steps
from engine._runner import run


class MyReLU(torch.autograd.Function):
    @staticmethod
    def forward(ctx, input):
        ctx.save_for_backward(input)
        return input.clamp(min=0)

    @staticmethod
    def backward(ctx, grad_output):
        input, = ctx.saved_tensors
        grad_input = grad_output.clone()
        grad_input[input < 0] = 0
        return grad_input


class Exp(torch.autograd.Function):
    @staticmethod
    def forward(ctx, i):
        result = i.exp()
        ctx.save_for_backward(result)
        return result

    @staticmethod
    def backward(ctx, grad_output):
        result, = ctx.saved_tensors
        return grad_output * result


def _returns(ret):
    """A Function over (x, k, z) whose backward returns ret(g)."""
    class F(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x, k, z):
            return x * 2

        @staticmethod
        def backward(ctx, g):
            return ret(g)
    return F


def test_tutorial_relu_node_and_gradient():
    x = torch.tensor([-1., 2., 3.], requires_grad=True)
    y = MyReLU.apply(x)
    assert repr(y) == 'tensor([0., 2., 3.], grad_fn=<MyReLUBackward>)'
    node = y.grad_fn
    assert type(node).__name__ == node.name() == 'MyReLUBackward'
    assert re.fullmatch(r'<torch\.autograd\.function\.MyReLUBackward object at 0x[0-9a-f]+>', repr(node))
    assert str(type(node)) == "<class 'torch.autograd.function.MyReLUBackward'>"
    assert MyReLU._backward_cls is type(node)
    assert node.next_functions == ((x.grad_fn or x._grad_accumulator(), 0),)
    assert type(node.next_functions[0][0]).__name__ == 'AccumulateGrad'
    assert (y.is_leaf, y.requires_grad, y.output_nr, y._version) == (False, True, 0, 0)
    assert node.needs_input_grad == (True,)
    assert node.saved_tensors[0] is x
    y.sum().backward()
    assert x.grad.tolist() == [0., 1., 1.]
    with pytest.raises(RuntimeError, match=r'^Trying to backward through the graph a second time'):
        y.sum().backward()


def test_ctx_is_the_node_and_forward_is_not_recorded():
    seen = {}

    class F(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            seen['ctx'] = ctx
            inner = x * 2
            seen['forward'] = (torch.is_grad_enabled(), inner.requires_grad, inner.grad_fn)
            return inner + 1

        @staticmethod
        def backward(ctx, g):
            seen['backward'] = torch.is_grad_enabled()
            return g * 2

    x = torch.ones(2, requires_grad=True)
    y = F.apply(x)
    assert seen['ctx'] is y.grad_fn
    assert isinstance(y.grad_fn, torch.autograd.function.FunctionCtx)
    assert seen['forward'] == (False, False, None)
    assert type(y.grad_fn.next_functions[0][0]).__name__ == 'AccumulateGrad'     # no MulBackward0 / AddBackward0
    y.sum().backward()
    assert seen['backward'] is False and x.grad.tolist() == [2., 2.]
    assert torch.is_grad_enabled()


def test_no_input_requires_grad_gives_plain_outputs():
    y = MyReLU.apply(torch.tensor([-1., 2.]))
    assert (y.grad_fn, y.is_leaf, y.requires_grad) == (None, True, False)
    x = torch.tensor([1.], requires_grad=True)
    with torch.no_grad():
        w = MyReLU.apply(x)
    assert (w.grad_fn, w.requires_grad) == (None, False)


def test_non_tensor_arguments_get_no_edge():
    class Scale(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x, k, w=None):
            ctx.k = k
            return x * k

        @staticmethod
        def backward(ctx, g):
            return g * ctx.k, None, None

    x = torch.tensor([1., 2.], requires_grad=True)
    y = Scale.apply(x, 3)
    assert len(y.grad_fn.next_functions) == 1
    assert (y.grad_fn.needs_input_grad, y.grad_fn.k) == ((True, False), 3)
    y.sum().backward()
    assert x.grad.tolist() == [3., 3.]
    y = Scale.apply(torch.ones(2), 2, x)
    assert y.grad_fn.needs_input_grad == (False, False, True)
    assert [fn is None for fn, _ in y.grad_fn.next_functions] == [True, False]


def test_wrong_number_of_gradients():
    class Two(MyReLU):
        @staticmethod
        def forward(ctx, input, other):
            ctx.save_for_backward(input)
            return input.clamp(min=0)

    y = Two.apply(torch.tensor([-1., 2.], requires_grad=True), torch.ones(2))
    with pytest.raises(RuntimeError) as err:
        y.sum().backward()
    assert str(err.value) == 'function TwoBackward returned an incorrect number of gradients (expected 2, got 1)'
    assert err.value.autograd_node is y.grad_fn


@pytest.mark.parametrize('ret, message', [
    (lambda g: (g, None, 1.0), 'expected Variable or None (got float)'),
    (lambda g: [g], 'function FBackward returned an incorrect number of gradients (expected 3, got 1)'),
    (lambda g: (g, 2, None), 'function FBackward returned a gradient different than None at position 2, but the '
                             'corresponding forward input was not a Variable'),
    (lambda g: (g, 2, 1.0, None), 'function FBackward returned a gradient different than None at position 2, but '
                                  'the corresponding forward input was not a Variable'),
    (lambda g: (g, None, None, g), 'function FBackward returned an incorrect number of gradients (expected 3, got 4)'),
    (lambda g: (torch.ones(2, 1), None, None), 'Function FBackward returned an invalid gradient at index 0 - got '
                                               '[2, 1] but expected shape compatible with [2]'),
])
def test_bad_gradients_raise_pytorchs_errors(ret, message):
    y = _returns(ret).apply(torch.tensor([1., 2.], requires_grad=True), 3, torch.ones(2))
    with pytest.raises(RuntimeError) as err:
        y.sum().backward()
    assert str(err.value) == message


def test_gradients_are_summed_and_cast_to_the_input():
    x = torch.tensor([1., 2.], requires_grad=True)
    _returns(lambda g: (torch.ones(4, 2, dtype=torch.float64), None, None, None)).apply(x, 3, torch.ones(2)) \
        .sum().backward()
    assert (x.grad.tolist(), x.grad.dtype) == ([4., 4.], torch.float32)
    # a gradient for a tensor input that needs none is dropped unchecked
    _returns(lambda g: (g, None, torch.ones(5))).apply(x, 3, torch.ones(2)).sum().backward()
    assert x.grad.tolist() == [5., 5.]


def test_legacy_instantiation():
    with pytest.warns(DeprecationWarning, match='should not be instantiated'):
        m = MyReLU()
    with pytest.raises(RuntimeError, match=r'^Legacy autograd function with non-static forward method is deprecated'):
        m(torch.ones(2, requires_grad=True))


def test_saved_tensor_modified_in_place():
    x = torch.tensor([-1., 2., 3.], requires_grad=True)
    h = x * 1
    y = MyReLU.apply(h)
    h.add_(1)
    with pytest.raises(RuntimeError) as err:
        y.sum().backward()
    assert str(err.value).startswith(
        'one of the variables needed for gradient computation has been modified by an inplace operation: '
        '[torch.FloatTensor [3]], which is output 0 of Add, is at version 1; expected version 0 instead.')
    assert err.value.autograd_node is y.grad_fn and err.value.autograd_saved == 'tensors[0]'


def test_saved_output_comes_back_with_the_node():
    x = torch.tensor([0., 1.], requires_grad=True)
    y = Exp.apply(x)
    r, = y.grad_fn.saved_tensors
    assert r is not y and r.grad_fn is y.grad_fn and r._data is y._data
    z = y * 1
    with torch.no_grad():
        y.add_(1)
    with pytest.raises(RuntimeError, match=r'\[torch.FloatTensor \[2\]\], which is output 0 of Exp, is at version 1'):
        z.sum().backward()


def test_freed_graph_only_on_access_to_saved_tensors():
    calls = []

    class NoSave(torch.autograd.Function):
        @staticmethod
        def forward(ctx, i):
            return i * 2

        @staticmethod
        def backward(ctx, g):
            calls.append(g)
            return g * 2

    x = torch.ones(2, requires_grad=True)
    y = NoSave.apply(x)
    y.sum().backward()
    y.sum().backward()                     # nothing saved, saved_tensors not read: runs again
    assert len(calls) == 2 and x.grad.tolist() == [4., 4.]
    with pytest.raises(RuntimeError, match='^Trying to backward through the graph a second time'):
        y.grad_fn.saved_tensors
    assert y.grad_fn.needs_input_grad == (True,)


def test_save_for_backward_takes_tensors_only():
    class Bad(torch.autograd.Function):
        @staticmethod
        def forward(ctx, i):
            ctx.save_for_backward(i, 3)
            return i * 1

    with pytest.raises(TypeError, match='^save_for_backward can only save variables, but argument 1 is of type int$'):
        Bad.apply(torch.ones(2, requires_grad=True))


class AddOne(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        x.add_(1)
        ctx.mark_dirty(x)
        return x

    @staticmethod
    def backward(ctx, g):
        return g


def test_mark_dirty():
    a = torch.tensor([1., 2.], requires_grad=True)
    h = a * 1
    r = AddOne.apply(h)
    assert r is h and h.tolist() == [2., 3.] and h._version == 2
    assert type(h.grad_fn).__name__ == 'AddOneBackward'
    assert type(h.grad_fn.next_functions[0][0]).__name__ == 'MulBackward0'
    r.sum().backward()
    assert a.grad.tolist() == [1., 1.]
    with pytest.raises(RuntimeError, match='^a leaf Variable that requires grad has been used in an in-place '
                                           'operation.$'):
        AddOne.apply(a)
    assert a._version == 2


def test_mark_dirty_of_a_view_rebases_its_base():
    class Dbl(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            x.mul_(2)
            ctx.mark_dirty(x)
            return x

        @staticmethod
        def backward(ctx, g):
            return g * 2

    w = torch.ones(2, 2, requires_grad=True)
    h = w * 1
    v = h[0]
    Dbl.apply(v)
    assert (type(v.grad_fn).__name__, type(h.grad_fn).__name__) == ('AsStridedBackward0', 'CopySlices')
    h.sum().backward()
    assert w.grad.tolist() == [[2., 2.], [1., 1.]]


def test_mark_non_differentiable_and_materialized_zeros():
    got = []

    class Arg(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            b = x * 3
            ctx.mark_non_differentiable(b)
            return x * 2, b, x.argmax()

        @staticmethod
        def backward(ctx, ga, gb, gi):
            got.append((ga, gb, gi))
            return ga * 2

    x = torch.tensor([1., 3., 2.], requires_grad=True)
    a, b, i = Arg.apply(x)
    assert (b.requires_grad, b.grad_fn, b.output_nr, i.requires_grad) == (False, None, 0, False)
    (a + b).sum().backward()
    ga, gb, gi = got[0]
    assert (ga.tolist(), gb.tolist(), gi.tolist(), gi.dtype) == ([1.] * 3, [0.] * 3, 0, torch.int64)
    assert x.grad.tolist() == [2., 2., 2.]


def test_set_materialize_grads_false_passes_none():
    got = []

    class Lazy(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            ctx.set_materialize_grads(False)
            return x * 2, x * 3

        @staticmethod
        def backward(ctx, g1, g2):
            got.append((g1, g2))
            return g2 * 3

    x = torch.tensor([1., 2.], requires_grad=True)
    a, b = Lazy.apply(x)
    assert (a.output_nr, b.output_nr, a.grad_fn is b.grad_fn, a.grad_fn.num_outputs) == (0, 1, True, 2)
    b.sum().backward()
    assert got[0][0] is None and got[0][1].tolist() == [1., 1.]
    assert x.grad.tolist() == [3., 3.]


def test_multiple_outputs_with_non_tensors():
    got = []

    class Split(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x * 2, 5, x * 3

        @staticmethod
        def backward(ctx, g1, g5, g2):
            got.append((g1.tolist(), g5, g2.tolist()))
            return g1 * 2 + g2 * 3

    x = torch.tensor([1., 2.], requires_grad=True)
    r = Split.apply(x)
    assert type(r) is tuple and r[1] == 5 and r[2].output_nr == 2
    r[2].sum().backward()
    assert got == [([0., 0.], None, [1., 1.])]
    assert x.grad.tolist() == [3., 3.]


def test_input_returned_as_is_is_a_view_that_must_not_change_in_place():
    class Ident(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x

        @staticmethod
        def backward(ctx, g):
            return g * 3

    a = torch.tensor([1., 2.], requires_grad=True)
    y = Ident.apply(a)
    assert y is not a and y._base is a and y._is_view() and type(y.grad_fn).__name__ == 'IdentBackward'
    y.sum().backward()
    assert a.grad.tolist() == [3., 3.]
    with pytest.raises(RuntimeError, match=r'^Output 0 of Ident is a view and is being modified inplace\. This view '
                                           r'was created inside a custom Function'):
        y.mul_(2)
    z = Ident.apply(torch.ones(2))
    z.mul_(2)                               # (nothing requires grad: allowed)
    assert z.tolist() == [2., 2.]


def test_setup_context_new_style():
    class MulC(torch.autograd.Function):
        @staticmethod
        def forward(x, k=2.0):
            return x * k

        @staticmethod
        def setup_context(ctx, inputs, output):
            x, k = inputs
            ctx.k = k
            ctx.save_for_backward(x)

        @staticmethod
        def backward(ctx, g):
            x, = ctx.saved_tensors
            return g * ctx.k, None

    x = torch.tensor([1., 2.], requires_grad=True)
    MulC.apply(x).sum().backward()
    assert x.grad.tolist() == [2., 2.]
    MulC.apply(x, k=3.0).sum().backward()
    assert x.grad.tolist() == [5., 5.]


class Cube(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x ** 3

    @staticmethod
    def backward(ctx, g):
        x, = ctx.saved_tensors
        return g * 3 * x ** 2


def test_double_backward_through_a_function():
    x = torch.tensor(2., requires_grad=True)
    g, = torch.autograd.grad(Cube.apply(x), x, create_graph=True)
    assert repr(g) == 'tensor(12., grad_fn=<MulBackward0>)'
    g.backward()
    assert x.grad.item() == 12.0


def test_once_differentiable():
    class Cube1(Cube):
        @staticmethod
        @torch.autograd.function.once_differentiable
        def backward(ctx, g):
            x, = ctx.saved_tensors
            return g * 3 * x ** 2

    assert Cube1.backward.__name__ == 'backward'
    x = torch.tensor(2., requires_grad=True)
    g, = torch.autograd.grad(Cube1.apply(x), x, create_graph=True)
    assert (g.item(), g.grad_fn, g.requires_grad) == (12.0, None, False)     # the seed needs no grad: no graph
    g, = torch.autograd.grad(Cube1.apply(x) ** 2, x, create_graph=True)
    assert repr(g) == 'tensor(192., grad_fn=<Error>)'
    assert g.grad_fn.name() == 'torch::autograd::Error' and not g.is_leaf
    with pytest.raises(RuntimeError, match='^trying to differentiate twice a function that was marked with '
                                           '@once_differentiable$'):
        g.backward()


def test_backward_steps_run_the_function_node():
    x = torch.tensor([-1., 2.], requires_grad=True)
    y = MyReLU.apply(x * 2)
    steps = list(backward_steps([y.sum()], [torch.tensor(1.)]))
    assert [type(s.node).__name__ for s in steps] == ['SumBackward0', 'MyReLUBackward', 'MulBackward0',
                                                      'AccumulateGrad']
    assert steps[1].grads_out[0][2].tolist() == [0., 1.]
    assert x.grad.tolist() == [0., 2.]


def test_graph_export_with_a_function_node():
    class Keep(MyReLU):
        @staticmethod
        def forward(ctx, input, constant):
            ctx.constant = constant
            ctx.save_for_backward(input, None)
            return input.clamp(min=0)

        @staticmethod
        def backward(ctx, g):
            return g, None

    x = torch.tensor([-1., 2., 3.], requires_grad=True)
    y = Keep.apply(x * 2, 3)
    G = graph.build_graph({'x': x, 'y': y})
    functions = {d['label']: d for _, d in G.nodes(data=True) if d['kind'] == 'function'}
    assert set(functions) == {'KeepBackward', 'MulBackward0', 'AccumulateGrad'}
    saved = [d for _, d in G.nodes(data=True) if d['kind'] == 'saved']
    assert [(d['label'], d['shape'], d['stale']) for d in saved] == [('_saved_tensors[0]', [3], False)]
    assert functions['KeepBackward']['saved_values'] == {'_saved_tensors[1]': 'None'}
    json.dumps(graph.to_json(G))
    assert 'label="KeepBackward"' in graph.to_dot(G)


@pytest.fixture
def torch_modules_cleared():
    """No real `torch.*` modules in sys.modules while the test runs (as in the browser), restored afterwards: the
    runner binds `torch` to the engine, and `from torch.autograd.function import ...` must then find the engine's."""
    saved = {k: v for k, v in sys.modules.items() if k == 'torch' or k.startswith('torch.')}
    for k in saved:
        del sys.modules[k]
    yield
    for k in [k for k in sys.modules if k == 'torch' or k.startswith('torch.')]:
        del sys.modules[k]
    sys.modules.update(saved)


def test_runner_imports_the_function_module_and_records_its_steps(torch_modules_cleared):
    code = ('import torch\nfrom torch.autograd.function import once_differentiable, FunctionCtx\n'
            'from torch.autograd import Function\n'
            'class Double(Function):\n    @staticmethod\n    def forward(ctx, x):\n'
            '        ctx.save_for_backward(x)\n        return x * 2\n'
            '    @staticmethod\n    @once_differentiable\n    def backward(ctx, g):\n'
            '        x, = ctx.saved_tensors\n        return g * 2\n'
            'x = torch.ones(2, requires_grad=True)\ny = Double.apply(x)\nprint(y, FunctionCtx)\n'
            'y.sum().backward(retain_graph=True)\nprint(x.grad)\nx.data.add_(0)\nwith torch.no_grad():\n'
            '    x.add_(1)\ny.sum().backward()\n')
    result = run(code)
    text = ''.join(chunk['text'] for chunk in result['output'])
    assert text == ("tensor([2., 2.], grad_fn=<DoubleBackward>) <class 'torch.autograd.function.FunctionCtx'>\n"
                    "tensor([2., 2.])\n")
    assert result['problems'] == []
    first, second = result['chapters']
    assert [s['name'] for s in first['steps']] == ['SumBackward0', 'DoubleBackward', 'AccumulateGrad']
    assert second['error']['node'] is not None and second['error']['saved'] is not None
    assert result['error']['message'].startswith('one of the variables needed for gradient computation')


def test_function_module_names():
    assert torch.autograd.Function is torch.autograd.function.Function
    assert str(torch.autograd.Function) == "<class 'torch.autograd.function.Function'>"
    with warnings.catch_warnings():
        warnings.simplefilter('error')
        assert torch.autograd.function.once_differentiable.__name__ == 'once_differentiable'
