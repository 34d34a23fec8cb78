"""A leaf's AccumulateGrad against real PyTorch: one node while something holds it (a graph, the user), a new one
after, so hooks put on it last as long as it does; and a leaf that is dropped is freed. The engine's leaf keeps its
node (PyTorch's holds it weakly) and reuses a node that nothing else holds only while nothing tells it from a new
one. Also torch.autograd.graph.Node, the abstract class nodes are instances of without inheriting from it. Printed
text must be the same."""
import pytest

T = pytest.importorskip("torch", reason="differential tests need real PyTorch (pip install torch==2.13.0)")
from .harness import load_engine, run_both, same  # noqa: E402

E = load_engine()

SNIPPETS = {
    "one_node_while_held": (
        'x = torch.ones(2, requires_grad=True)\n'
        'y = x * 2\n'
        'a = y.grad_fn.next_functions[0][0]\n'
        'print(a is (x * 3).grad_fn.next_functions[0][0], a.variable is x)\n'
        'del y\n'
        'print(a is (x + 1).grad_fn.next_functions[0][0])\n'       # the user holds it
        'a.register_prehook(lambda g: print("pre", g))\n'
        '(x * 4).sum().backward(); print(x.grad)'),
    "a_hook_dies_with_its_node": (
        'x = torch.ones(2, requires_grad=True)\n'
        'y = x * 2\n'
        'y.grad_fn.next_functions[0][0].register_prehook(lambda g: print("pre", g))\n'
        'y.grad_fn.next_functions[0][0].register_hook(lambda gi, go: print("post", go))\n'
        'y.sum().backward()\n'
        '(x * 5).sum().backward()\n'               # y's graph still holds the node: its hooks run
        'del y\n'
        '(x * 3).sum().backward(); print(x.grad)\n'   # a new node, without hooks
        'z = x * 2\n'
        'z.grad_fn.next_functions[0][0].register_prehook(lambda g: print("again", g))\n'
        'z.sum().backward(); print(x.grad)'),
    "metadata_and_anomaly": (
        'x = torch.ones(2, requires_grad=True)\n'
        'y = x * 2\n'
        'y.grad_fn.next_functions[0][0].metadata["k"] = 1\n'
        'print(dict((x * 3).grad_fn.next_functions[0][0].metadata))\n'
        'del y\n'
        'print(dict((x * 3).grad_fn.next_functions[0][0].metadata))\n'
        'with torch.autograd.set_detect_anomaly(True):\n'
        '    (x * 2).sum().backward()\n'
        '(x * 2).sum().backward(); print(x.grad)'),
    "a_dropped_leaf_is_freed": (
        'import gc, weakref\n'
        'x = torch.ones(2, requires_grad=True)\n'
        '(x * 2).sum().backward()\n'
        'y = x * 3\n'
        'r = weakref.ref(x)\n'
        'del x\n'
        'gc.collect(); print(r() is None)\n'     # y's graph holds it
        'print(y.grad_fn.next_functions[0][0].variable)\n'
        'del y\n'
        'gc.collect(); print(r() is None)'),
    "the_abstract_node_class": (
        'import torch.autograd.graph as G\n'
        'print(G.Node, G.Node.__doc__, G.Node.name, sorted(G.Node.__abstractmethods__))\n'
        'x = torch.ones(2, requires_grad=True)\n'
        'n = (x * 2).grad_fn\n'
        'print(isinstance(n, G.Node), issubclass(type(n), G.Node), G.Node in type(n).__mro__)\n'
        'print(isinstance(n.next_functions[0][0], G.Node), isinstance(x, G.Node), isinstance(None, G.Node))'),
}


@pytest.mark.parametrize("name", sorted(SNIPPETS))
def test_snippet(name):
    code = SNIPPETS[name]
    t, e = run_both(T, E, code)
    assert same(t, e), f"\n{code}\n--- torch\n{t.summary()}--- engine\n{e.summary()}"
