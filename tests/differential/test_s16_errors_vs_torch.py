"""Errors learners trigger, against real PyTorch: PyTorch's argument parser on wrong calls of common methods and
functions (unknown or misplaced keywords, wrong types, missing and extra arguments, methods taking no arguments,
int lists with a bad element), a layer's forward named by its own class, batch_norm in eval without running
statistics. The printed text and the final error must be the same."""
import pytest

T = pytest.importorskip("torch", reason="differential tests need real PyTorch (pip install torch==2.13.0)")
from .harness import load_engine, run_both, same  # noqa: E402

E = load_engine()


def _tries(*lines, setup='t = torch.arange(6.).reshape(2, 3)\nc = t > 2\n'):
    """A snippet running each line in try/except, printing `type(e).__name__, e` (or the result) as a learner would."""
    body = ''.join('try:\n    print(%s)\nexcept Exception as e:\n    print(type(e).__name__, e)\n' % line
                   for line in lines)
    return setup + body


SNIPPETS = {
    "reductions_given_bad_keywords": _tries(
        't.sum(foo=1)', 't.mean(foo=1)', 't.sum(dim=0, foo=1)', 't.sum(axis=0, foo=1)', 't.sum(keepdim=True)',
        't.mean(keepdim=True)', 'torch.sum(t, keepdim=True)', 'torch.sum(t, foo=1)', 't.mean(dim="a")', 't.sum("a")',
        't.sum(0, 1, 2, 3)', 't.sum(0, dtype="float")', 't.sum(dim=[0, 1.0])', 't.std(dim=0, correction=0)',
        't.std(foo=1)', 't.var(0, unbiased=False, keepdim=True)', 't.sum(axis=1, keepdims=True)'),
    "shape_methods_given_bad_arguments": _tries(
        't.view(2.0)', 't.view(2, 3.0)', 't.view(2.0, 3)', 't.view(None)', 't.view((2, 3), 1)', 't.view(2, (3,))',
        't.view(6, dtype=torch.float)', 't.reshape(2.0)', 't.reshape(2.0, 3)', 't.reshape((2.0,))',
        't.reshape([2, None])', 't.reshape((2, 3), 1)', 't.permute(1.0, 0)', 't.permute(1, 0.0)', 't.permute((1.0, 0))',
        't.expand(2.0, 3)', 't.repeat(2, 1.0)', 't.transpose(0)', 't.transpose(0, 1, 2)', 't.transpose(0, "a")',
        't.transpose(0.0, 1)', 't.unsqueeze()', 't.unsqueeze(1.0)', 't.unsqueeze((0, 1))', 't.squeeze(1.0)',
        't.flatten(0.0)', 't.chunk(2.0)', 't.index_select(0)', 't.gather(0)', 't.gather(0, torch.tensor([[0, 1]]), 3)'),
    "shape_methods_by_keyword": _tries(
        't.view(size=(6,)).shape', 't.reshape(shape=(3, 2)).shape', 't.permute(dims=(1, 0)).shape',
        't.expand(size=(2, 2, 3)).shape', 't.repeat(repeats=(1, 2)).shape', 't.view(dtype=torch.int32).shape',
        't.expand(2, 3, implicit=False).shape', 't.transpose(dim0=0, dim1=1).shape', 't.flatten(start_dim=0).shape',
        'torch.cat(tensors=[t, t], dim=0).shape', 'torch.where(condition=c, input=t, other=0.)'),
    "methods_taking_no_arguments": _tries(
        't.exp(1)', 't.exp(foo=1)', 't.relu(1)', 't.abs(1, 2)', 't.item(0)', 't.tolist(1)', 't.detach(True)', 't.t(1)',
        't.zero_(1)', 't.sigmoid(dim=0)', 't.float(1)', 't.double(torch.float32)', 't.long(dtype=torch.float32)',
        't.numpy(True)'),
    "where_masked_fill_and_friends": _tries(
        'torch.where(c, t, "a")', 'torch.where(c, 1.0)', 't.where(c, "a")', 't.masked_fill(c, "a")',
        't.masked_fill(c)', 't.index_fill(0, torch.tensor([0]), "a")', 't.fill_()', 't.topk(2.0)', 't.sort(0, 1, 2)',
        't.all(1.0)', 't.any(dim="a")', 't.round(2.5)', 't.round(decimals=1.5)', 't.unbind(1.0)', 't.diag(1.0)',
        't.tril("a")', 't.triu(diagonal=1.5)', 't.nonzero(1)', 't.nonzero(as_tuple=1)', 't.type_as(5)',
        't.repeat_interleave("a")', 't.cumsum()', 'torch.cat((t, t), dim=1.0)', 'torch.sqrt(t, foo=3)',
        'torch.nn.functional.softmax(t, dim=1.0)', 't.requires_grad_(True, 1)'),
    "factories_given_bad_arguments": _tries(
        'torch.zeros(2, device=1.5)', 'torch.zeros(shape=(2,))', 'torch.zeros(2, foo=1)', 'torch.rand(2, generator=5)',
        'torch.randint(5, size=2)', 'torch.randint(5.5, (2,))', 'torch.full((2,), fill_value="a")', 'torch.eye(n=2.0)',
        'torch.arange(1, 4, foo=2)', 'torch.zeros_like(t, dtype="a")', 'torch.randint_like(t, 5.5)',
        'torch.randint_like(t, high=3).shape', 'torch.randperm(3, generator=1)',
        'torch.ones(2, 3, device="cpu", dtype=torch.int32)', 'torch.randint(0, 5, size=(2,), dtype=torch.int32).dtype'),
    "randint_bounds_of_the_dtype": (
        'for d in [torch.bool, torch.uint8, torch.int8, torch.int16, torch.float16, torch.int32, torch.float32]:\n'
        '    for low, high in [(0, 2), (0, 3), (0, 300), (0, 70000), (-5, -3), (-2 ** 25, 2 ** 26)]:\n'
        '        try:\n'
        '            print(d, torch.randint(low, high, (2,), dtype=d).shape)\n'
        '        except RuntimeError as e:\n'
        '            print(d, e)'),
    "binary_ops_given_bad_operands": _tries(
        't.pow("a")', 'torch.pow(2, "a")', 'torch.true_divide(t, "a")', 'torch.floor_divide(t, [1])',
        'torch.remainder(t, "a")', 'torch.fmod(t, None)', 't.fmod([1, 2])', 'torch.maximum(t, 2)', 't.minimum(None)',
        'torch.arange(8.).view(2, True)', 'torch.arange(8.).view(2, torch.tensor(4.))'),
    "retain_graph_and_create_graph_read_as_bytes": (
        'x = torch.tensor([1., 2.], requires_grad=True)\n'
        'for kw in [dict(retain_graph="a"), dict(retain_graph=300), dict(retain_graph=-1), dict(create_graph=None),\n'
        '           dict(retain_graph=1.0), dict(retain_graph=torch.tensor(1)), dict(retain_graph=torch.ones(2)),\n'
        '           dict(create_graph=0), dict(retain_graph=1)]:\n'
        '    for f in [lambda: torch.autograd.grad((x * x).sum(), x, **kw), lambda: (x * x).sum().backward(**kw)]:\n'
        '        try:\n'
        '            print(f(), x.grad)\n'
        '        except Exception as e:\n'
        '            print(type(e).__name__, e)\n'
        '(x * 2).backward(torch.ones(2), torch.ones(2))'),
    "arithmetic_functions_and_methods": _tries(
        'torch.add(t, "x")', 'torch.add()', 'torch.add(1, 2)', 'torch.mul(2, t)', 'torch.sub(2, t)', 'torch.div(2, 3)',
        'torch.add(t, t, alpha=None)', 'torch.add(t, t, foo=1)', 't.add(t, alpha=2, out=t)', 't.div(t, rounding_mode=1)',
        'torch.rsub(t, "a")', 'torch.rsub(t, 1)', 'torch.kron(t, 5)', 't.mul(foo=1)', 't.mul(other=2)', 'torch.mul(t)',
        't.max(1, keepdim=1)', 'torch.max(t, 1, keepdim=1)', 't.argmax(dim=1.5)', 't.prod(dim=(0, 1))',
        't.logsumexp(keepdim=True)', 't.max(dim=1, keepdim=True).values'),
    "data_of_a_known_dtype_that_is_no_number": _tries(
        'torch.tensor([1, "a"], dtype=torch.float32)', 'torch.tensor(["a"], dtype=torch.float32)',
        'torch.tensor([1, None], dtype=torch.long)', 'torch.tensor([[1], [None]], dtype=torch.bool)',
        'torch.tensor(None, dtype=torch.float32)', 'torch.tensor([1, object()])', 'torch.tensor([1, None])',
        'torch.Tensor([1, "a"])', 'torch.Tensor([None])', 'torch.FloatTensor([[1], ["a"]])', 'torch.LongTensor([1, "a"])',
        'torch.LongTensor([1.5, None])', 'torch.BoolTensor([1, "a"])', 'torch.IntTensor([1, [2]])',
        'torch.Tensor([[1, 2], [3]])', 'torch.tensor([1, "a"])'),
    "products_and_embedding_given_lists": _tries(
        't.mm([[1.], [2.], [3.]])', 'torch.mm(t, [1])', 'torch.mm([1], t)', 't[None].bmm([1])', 't[0].dot([1, 2, 3])',
        't.mv([1., 2., 3.])', 'torch.mv(t, [1])', 'torch.dot(t[0], 1)', 'torch.bmm(t, 1)',
        'torch.nn.functional.embedding([1], torch.ones(3, 2))', 'torch.nn.Embedding(3, 2)([1])',
        'torch.nn.functional.embedding(torch.tensor([1]), [[1., 2.]])'),
    "functional_arguments_passed_on_to_cpp": _tries(
        'torch.nn.functional.dropout(t, 0.5, "yes")', 'torch.nn.functional.dropout(t, 0.5, 1)',
        'torch.nn.functional.dropout([1.], 0.5)', 'torch.nn.functional.dropout(t, 0.5, "yes", True)',
        'torch.nn.functional.dropout(t, 0.0, False)', 'torch.nn.functional.leaky_relu(t, "a")',
        'torch.nn.functional.leaky_relu(t, "a", True)', 'torch.nn.functional.leaky_relu(t, torch.tensor([0.1, 0.2]))',
        'torch.nn.functional.leaky_relu([1.])', 'torch.nn.LeakyReLU("a")(t)', 'torch.nn.functional.leaky_relu(t, 0.2)'),
    "layer_forward_named_by_its_class": (
        'import torch.nn as nn\n'
        'for m, args in [(nn.ReLU(), (torch.ones(1), 3)), (nn.Sigmoid(), ()), (nn.Tanh(), (1, 2)),\n'
        '                (nn.LeakyReLU(), (1, 2)), (nn.Conv2d(1, 1, 3), (torch.ones(1, 1, 5, 5), 3)),\n'
        '                (nn.MaxPool2d(2), (1, 2)), (nn.GRU(2, 2), (1, 2, 3))]:\n'
        '    try:\n'
        '        m(*args)\n'
        '    except TypeError as e:\n'
        '        print(e)'),
    "batch_norm_in_eval_without_running_statistics": _tries(
        'torch.nn.functional.batch_norm(t, None, None)', 'torch.nn.functional.batch_norm(t, torch.ones(3), None)',
        'torch.nn.functional.batch_norm(t.long(), None, None)',
        'torch.nn.functional.batch_norm(t, None, None, training=True)'),
}


@pytest.mark.parametrize("name", SNIPPETS)
def test_snippet(name):
    code = SNIPPETS[name]
    t, e = run_both(T, E, code)
    assert same(t, e), f"\n{code}\n--- torch\n{t.summary()}--- engine\n{e.summary()}"
