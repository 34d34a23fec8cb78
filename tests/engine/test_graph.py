"""engine.graph: the autograd graph as PyTorch links it, with saved tensors, versions and shared storage.

Runs on CPython and inside Pyodide, so it uses only the engine (no torch)."""
import json
import os
import subprocess
import sys

import pytest

import engine as torch
from engine import _autograd, graph


def nodes(G, kind=None):
    return {n: d for n, d in G.nodes(data=True) if kind is None or d['kind'] == kind}


def by_label(G, label):
    found = [n for n, d in G.nodes(data=True) if d['label'] == label]
    assert len(found) == 1, (label, found)
    return found[0]


def edges(G, kind):
    return sorted((u, v, k) for u, v, k, d in G.edges(keys=True, data=True) if d['kind'] == kind)


def seed2():
    x = torch.ones(2, 3, requires_grad=True)
    y = x + 2
    z = y * y * 3
    out = z.mean()
    return dict(x=x, y=y, z=z, out=out)


def test_seed2_graph_has_pytorch_names_and_links():
    G = graph.build_graph(seed2())
    functions = sorted(d['label'] for d in nodes(G, 'function').values())
    assert functions == ['AccumulateGrad', 'AddBackward0', 'MeanBackward0', 'MulBackward0', 'MulBackward0']
    x, y, out = by_label(G, 'x'), by_label(G, 'y'), by_label(G, 'out')
    add, acc, mean = by_label(G, 'AddBackward0'), by_label(G, 'AccumulateGrad'), by_label(G, 'MeanBackward0')
    assert G.nodes[y]['grad_fn'] == add and G.nodes[out]['grad_fn'] == mean and G.nodes[x]['grad_fn'] is None
    assert (x, acc, 0) in edges(G, 'variable')
    assert (add, y, 0) in edges(G, 'grad_fn')
    # y * y: the MulBackward0 fed by AddBackward0 twice gets two edges, keys 0 and 1, as next_functions lists it
    square = [v for u, v, k in edges(G, 'next') if u == add]
    assert len(square) == 2 and square[0] == square[1]
    assert G.nodes[square[0]]['next'] == [[add, 0], [add, 0]]
    assert sorted(k for u, v, k in edges(G, 'next') if u == add) == [0, 1]


def test_roles_tell_leaf_nonleaf_output_detached_constant():
    a = torch.ones(3, requires_grad=True)
    b = a * 2
    c = b.sum()
    d = a.detach()
    e = torch.zeros(2)
    G = graph.build_graph(dict(a=a, b=b, c=c, d=d, e=e))
    roles = {G.nodes[by_label(G, n)]['label']: G.nodes[by_label(G, n)]['role'] for n in 'abcde'}
    assert roles == dict(a='leaf', b='nonleaf', c='output', d='detached', e='constant')
    G = graph.build_graph(dict(a=a, b=b, c=c), roots=[b])
    assert G.nodes[by_label(G, 'b')]['role'] == 'output' and G.nodes[by_label(G, 'c')]['role'] == 'nonleaf'


def test_saved_result_of_sigmoid_goes_stale_after_detach_zero():
    x = torch.tensor(0., requires_grad=True)
    y = x.sigmoid()
    y.detach().zero_()
    G = graph.build_graph(dict(x=x, y=y))
    (sid, saved), = nodes(G, 'saved').items()
    sig = by_label(G, 'SigmoidBackward0')
    assert saved['label'] == '_saved_result' and saved['owner'] == sig and saved['is_output']
    assert (saved['saved_version'], saved['version'], saved['stale']) == (0, 1, True)
    assert G.nodes[sig]['saved'] == [sid] and (sid, sig, 0) in edges(G, 'saved')
    assert saved['storage'] == G.nodes[by_label(G, 'y')]['storage']


def test_pow_saves_its_input_so_nothing_is_stale():
    x = torch.tensor(1., requires_grad=True)
    y = x ** 2
    y.detach().zero_()
    G = graph.build_graph(dict(x=x, y=y))
    (saved,) = nodes(G, 'saved').values()
    assert saved['label'] == '_saved_self' and not saved['stale'] and saved['tensor'] == by_label(G, 'x')
    assert G.nodes[by_label(G, 'PowBackward0')]['saved_values'] == {'_saved_exponent': '2'}


def test_views_detach_and_data_share_storage_copies_do_not():
    a = torch.arange(6.).requires_grad_()
    named = dict(a=a, v=a.view(2, 3), d=a.detach(), m=a.data, c=a.clone(), k=a.detach().clone())
    G = graph.build_graph(named)
    storage = {name: G.nodes[by_label(G, name)]['storage'] for name in named}
    assert storage['v'] == storage['d'] == storage['m'] == storage['a']
    assert len({storage['a'], storage['c'], storage['k']}) == 3
    assert G.nodes[by_label(G, 'v')]['is_view'] and not G.nodes[by_label(G, 'a')]['is_view']


def test_values_and_grads_print_as_pytorch_without_suffixes():
    x = torch.ones(2, 3, requires_grad=True)
    w = torch.tensor([1.5, 2.0], dtype=torch.float64)
    (x * 3).sum().backward()
    G = graph.build_graph(dict(x=x, w=w))
    assert G.nodes[by_label(G, 'x')]['value'] == 'tensor([[1., 1., 1.],\n        [1., 1., 1.]])'
    assert G.nodes[by_label(G, 'x')]['grad'] == 'tensor([[3., 3., 3.],\n        [3., 3., 3.]])'
    assert G.nodes[by_label(G, 'w')]['value'] == 'tensor([1.5000, 2.0000])'
    assert G.nodes[by_label(G, 'w')]['dtype'] == 'float64' and G.nodes[by_label(G, 'w')]['grad'] is None


def test_big_tensors_get_a_summary_and_sparkline():
    big = torch.arange(2000.)
    G = graph.build_graph(dict(big=big, small=torch.ones(4)))
    node = G.nodes[by_label(G, 'big')]
    assert node['summary'] == 'min 0 · mean 999.5 · max 1999'
    assert len(node['spark']) == graph.SPARK_POINTS and node['spark'][0] < node['spark'][-1]
    assert '...' in node['value']
    assert G.nodes[by_label(G, 'small')]['summary'] is None


def test_names_non_tensors_and_aliases():
    a = torch.ones(2, requires_grad=True)
    G = graph.build_graph(dict(a=a, alias=a, n=3, s='text'))
    (node,) = nodes(G, 'tensor').values()
    assert node['names'] == ['a', 'alias'] and node['label'] == 'a'


def test_json_is_node_link_with_links_and_dot_uses_torchviz_colours():
    G = graph.build_graph(seed2())
    data = json.loads(json.dumps(graph.to_json(G)))
    assert data['directed'] and data['multigraph'] and len(data['nodes']) == G.number_of_nodes()
    assert len(data['links']) == G.number_of_edges()
    assert {'source', 'target', 'key', 'kind', 'input_nr'} <= set(data['links'][0])
    dot = graph.to_dot(G)
    assert dot.startswith('digraph {') and 'fillcolor=lightblue' in dot and 'fillcolor=darkolivegreen1' in dot
    assert f'{by_label(G, "x")} [label="x\\n (2, 3)" fillcolor=lightblue]' in dot
    assert dot.count(f'{by_label(G, "AddBackward0")} -> ') == 3  # twice into y * y, once to the tensor y


def test_ids_stay_stable_across_graphs_of_one_run():
    ids = graph.NodeIds()
    named = seed2()
    first = graph.build_graph(named, ids=ids)
    second = graph.build_graph(dict(named, extra=named['x'] * 2), ids=ids)
    for n in first.nodes:
        assert second.nodes[n]['label'] == first.nodes[n]['label']


def test_long_chains_are_cut_off_with_a_flag():
    x = torch.ones(1, requires_grad=True)
    y = x
    for _ in range(3000):
        y = y * 1.0
    G = graph.build_graph(dict(x=x, y=y), max_nodes=500)
    assert G.graph['truncated'] and G.graph['functions'] == 3001
    assert 450 <= G.number_of_nodes() <= 500
    assert G.graph['hidden'] == 3001 - len(nodes(G, 'function'))
    assert sum(d['hidden_inputs'] for d in nodes(G, 'function').values()) == 1
    assert graph.build_graph(dict(x=x, y=x * 2)).graph['truncated'] is False


class Recorder:
    """Collect the steps of every backward call as JSON, like the playground's runner."""

    def __init__(self, named):
        self.named, self.ids, self.chapters = named, graph.NodeIds(), []

    def begin(self, call, roots):
        self.G = graph.build_graph(self.named(), roots, ids=self.ids)
        self.chapters.append({'graph': graph.to_json(self.G), 'steps': [], 'error': None})

    def step(self, step):
        self.chapters[-1]['steps'].append(graph.step_to_json(step, self.ids))

    def end(self, error):
        if error is not None:
            self.chapters[-1]['error'] = graph.error_to_json(error, self.G)


@pytest.fixture
def record():
    def start(named):
        rec = Recorder(named)
        _autograd.set_recorder(rec)
        return rec
    yield start
    _autograd.set_recorder(None)


def test_steps_show_accumulation_three_then_four(record):
    names = {}
    rec = record(lambda: dict(names))
    names.update(seed2())
    names['out'].backward()
    names['out2'] = names['x'].sum()
    names['out2'].backward()
    first, second = rec.chapters
    assert [s['name'] for s in first['steps']] == [
        'MeanBackward0', 'MulBackward0', 'MulBackward0', 'AddBackward0', 'AccumulateGrad']
    acc = second['steps'][-1]['accumulate']
    assert acc['tensor'] == 't1' and acc['before'].count('3.') == 6 and acc['after'].count('4.') == 6
    assert first['steps'][-1]['accumulate']['before'] is None
    ids = {n['id'] for n in first['graph']['nodes']}
    for step in first['steps']:
        assert step['node'] in ids
        assert all(g['to'] is None or g['to'] in ids for g in step['grads_out'])
    square = first['steps'][2]
    assert [g['to'] for g in square['grads_out']] == [first['steps'][3]['node']] * 2


def test_steps_keep_one_grads_out_entry_per_input(record):
    rec = record(dict)
    x = torch.ones(2, requires_grad=True)
    (x * torch.ones(2)).sum().backward()
    mul = rec.chapters[0]['steps'][1]
    assert mul['name'] == 'MulBackward0' and len(mul['grads_out']) == 2
    assert mul['grads_out'][1] == {'to': None, 'input_nr': 0, 'grad': None}
    assert mul['grads_out'][0]['grad'] == 'tensor([1., 1.])'


def test_weighted_backward_of_a_non_scalar_receives_the_weights(record):
    rec = record(dict)
    g = torch.tensor([1., 2., 3., 4., 5., 6.], requires_grad=True)
    h = g.view(3, 2) * 2
    h.backward(torch.tensor([[1., 1.], [1., 1.], [1., 1.]]))
    first = rec.chapters[0]['steps'][0]
    assert first['name'] == 'MulBackward0' and first['grads_in'][0].startswith('tensor([[1., 1.],')


def test_stale_saved_tensor_error_points_at_node_and_saved(record):
    names = {}
    rec = record(lambda: dict(names))
    x = torch.tensor(0., requires_grad=True)
    y = x.sigmoid()
    names.update(x=x, y=y)
    y.detach().zero_()
    with pytest.raises(RuntimeError, match='modified by an inplace operation'):
        y.backward()
    chapter = rec.chapters[0]
    nodes_by_id = {n['id']: n for n in chapter['graph']['nodes']}
    error = chapter['error']
    assert nodes_by_id[error['node']]['label'] == 'SigmoidBackward0'
    assert nodes_by_id[error['saved']]['stale'] and chapter['steps'] == []


def test_second_backward_points_at_the_freed_node(record):
    rec = record(dict)
    x = torch.ones(2, requires_grad=True)
    y = (x * x).sum()
    y.backward()
    with pytest.raises(RuntimeError, match='second time'):
        y.backward()
    chapter = rec.chapters[1]
    nodes_by_id = {n['id']: n for n in chapter['graph']['nodes']}
    assert nodes_by_id[chapter['error']['node']]['label'] == 'MulBackward0'
    assert nodes_by_id[chapter['error']['node']]['freed']


@pytest.mark.skipif(sys.platform == 'emscripten', reason='no subprocesses in Pyodide')
def test_import_engine_does_not_import_networkx():
    code = 'import sys, engine; engine.ones(2) * 2; print("networkx" in sys.modules)'
    assert subprocess.run([sys.executable, '-c', code], capture_output=True, text=True).stdout.strip() == 'False'


@pytest.mark.skipif(sys.platform == 'emscripten', reason='no subprocesses in Pyodide')
def test_import_engine_where_importlib_util_is_not_imported_yet():
    """CPython 3.12+ starts without importlib.util (3.11 with -S too): the engine's import hook, which every later
    import passes through, must not import it for other modules' sake (it recursed until RecursionError)."""
    import site
    code = ('import sys; assert "importlib.util" not in sys.modules; import engine; sys.modules["torch"] = engine; '
            'import torch.nn.functional as F; print(F.relu(engine.tensor([-1., 2.])))')
    paths = [os.path.dirname(os.path.dirname(os.path.abspath(torch.__file__)))] + site.getsitepackages()
    run = subprocess.run([sys.executable, '-S', '-c', code], capture_output=True, text=True,
                         env={**os.environ, 'PYTHONPATH': os.pathsep.join(paths)})
    assert run.stdout.strip() == 'tensor([0., 2.])', run.stderr[-2000:]


def test_saved_index_tensors_show_one_by_one_and_link_to_the_users_tensor():
    x = torch.ones(2, 3, requires_grad=True)
    rows, cols = torch.tensor([0, 1]), torch.tensor([2, 2])
    y = x[rows, cols]
    G = graph.build_graph(dict(x=x, rows=rows, cols=cols, y=y))
    index = by_label(G, 'IndexBackward0')
    saved = {G.nodes[s]['label']: G.nodes[s]['tensor'] for s in G.nodes[index]['saved']}
    assert saved == {'_saved_indices[0]': by_label(G, 'rows'), '_saved_indices[1]': by_label(G, 'cols')}


def test_split_piece_whose_base_changed_is_drawn_with_an_invalid_grad_fn():
    x = torch.arange(4., requires_grad=True)
    y = x * 1
    a, b = y.split(2)
    y.add_(1)
    G = graph.build_graph(dict(x=x, y=y, a=a, b=b))
    labels = sorted(d.get('label') for _, d in G.nodes(data=True))
    assert labels.count('Invalid') == 2 and 'AddBackward0' in labels
    with pytest.raises(RuntimeError, match='Output 0 of Split is a view and its base or another view'):
        a.grad_fn
