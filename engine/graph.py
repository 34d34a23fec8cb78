"""The autograd graph as data: tensors, grad_fn nodes and saved tensors in a networkx.MultiDiGraph, exported as
node-link JSON for the page and as Graphviz DOT in torchviz's look. The only engine module that imports networkx."""
from collections import deque

import networkx as nx
import numpy as np

from engine import _printing
from engine._autograd import SavedList, SavedTensor

SMALL_NUMEL = 16     # tensors up to this many elements are shown whole in a node; bigger ones get a summary
SPARK_POINTS = 24    # how many bucket means a big tensor's sparkline has
MAX_NODES = 1000     # beyond this the graph is cut off at the nodes farthest from the named tensors


class NodeIds:
    """Stable string ids within one run: 't<n>' tensors, 'f<n>' grad_fn nodes, 's<n>' saved tensors."""

    def __init__(self):
        self._ids = {}  # id(obj) -> (obj, id); holding obj keeps id(obj) from being reused while we map it
        self._counts = {'t': 0, 'f': 0, 's': 0}

    def __call__(self, obj, prefix):
        """The id of obj, made up on first sight."""
        entry = self._ids.get(id(obj))
        if entry is None:
            self._counts[prefix] += 1
            entry = self._ids[id(obj)] = (obj, f'{prefix}{self._counts[prefix]}')
        return entry[1]

    def get(self, obj):
        """The id of obj if it has one, else None."""
        entry = self._ids.get(id(obj))
        return entry[1] if entry else None

    def objects(self):
        """(obj, id) of everything given an id."""
        return self._ids.values()


def _node_ids(ids_or_graph):
    """Accept a NodeIds or a graph made by build_graph (which carries the NodeIds it used)."""
    return getattr(ids_or_graph, 'node_ids', ids_or_graph)


def _dtype_name(t):
    return t.dtype.name


def value_text(t, data=None):
    """The values of t (or data in t's dtype) as PyTorch prints them, without suffixes; None for None."""
    if t is None:
        return None
    dtype = _dtype_name(t)
    return _memo('text', t._data if data is None else data, dtype,
                 lambda a: 'tensor(' + _printing.tensor_body(a, dtype) + ')')


_MEMO = {}           # (what, dtype, shape, bytes, print options) -> text or summary: see _memo
MEMO_NUMEL = 1024    # arrays up to this many elements are remembered by their bytes,
MEMO_ENTRIES = 1024  # this many of them at most (8 MB of keys in all): then the memo starts again


def _memo(what, array, dtype, compute):
    """compute(array), remembered by the array's contents (and the print options): a run's graphs and backward steps
    show the same values again and again (inputs, weights, saved tensors, gradients), and printing them is most
    of the cost of recording a training loop. Keyed by value, never by tensor, so `.data` writes cannot make it
    stale."""
    if array.size > MEMO_NUMEL:
        return compute(array)
    key = (what, dtype, array.dtype.str, array.shape, array.tobytes(), *_printing.get_printoptions().values())
    found = _MEMO.get(key)
    if found is None:
        if len(_MEMO) >= MEMO_ENTRIES:
            _MEMO.clear()
        found = _MEMO[key] = compute(array)
    return found


def _storage_root(array):
    """The ndarray that owns the memory array looks at: tensors sharing it share storage."""
    while isinstance(array.base, np.ndarray):
        array = array.base
    return array


def _summary(array):
    """min/mean/max text and sparkline points of a big array; non-finite values are counted, not averaged."""
    values = np.asarray(array, dtype=np.float64).reshape(-1)
    finite = values[np.isfinite(values)]
    parts = []
    if finite.size:
        parts.append(f'min {finite.min():.4g} · mean {finite.mean():.4g} · max {finite.max():.4g}')
    if finite.size < values.size:
        parts.append(f'{values.size - finite.size} non-finite')
    buckets = np.array_split(values, min(SPARK_POINTS, values.size))
    spark = []
    for b in buckets:
        b = b[np.isfinite(b)]
        spark.append(float(b.mean()) if b.size else None)
    return ' · '.join(parts), spark


def _values(t, key='value'):
    """Node attributes for t's values: the text under key, plus summary and sparkline when t is big."""
    prefix = '' if key == 'value' else key + '_'
    attrs = {key: value_text(t), prefix + 'summary': None, prefix + 'spark': None}
    if t is not None and t._data.size > SMALL_NUMEL:
        attrs[prefix + 'summary'], attrs[prefix + 'spark'] = _memo('summary', t._data, _dtype_name(t), _summary)
    return attrs


def _version_of(t):
    """t._version, or None for an inference tensor (which keeps none: PyTorch's error reading it)."""
    try:
        return int(t._version)
    except RuntimeError:
        return None


def _saved_items(fn):
    """(`_saved_<name>`, saved value) of a node; a saved list of tensors gives one item per tensor (`[i]`)."""
    for name, saved in (fn._saved or {}).items():
        if type(saved) is SavedList:
            for i, item in enumerate(saved):
                if item is not None:
                    yield '_saved_%s[%d]' % (name, i), item
        else:
            yield '_saved_' + name, saved


class _Builder:
    """One graph under construction; see build_graph."""

    def __init__(self, ids, max_nodes):
        self.G = nx.MultiDiGraph()
        self.ids, self.max_nodes = ids, max_nodes
        self.tensors = {}    # id(tensor) -> (tensor, node id)
        self.storages = {}   # id(storage root) -> storage id
        self.labels = {}     # id(tensor) -> the name a tensor drawn without one of its own gets (model.0.weight)
        self.earlier = {}    # id(tensor) -> the name that held this unnamed tensor before the code rebound it

    def storage(self, t):
        root = _storage_root(t._data)
        return self.storages.setdefault(id(root), f'm{len(self.storages) + 1}')

    def output_of(self, fn, alias):
        """The graph's tensor that a saved output aliases (the engine saves outputs as aliases, like PyTorch)."""
        same = [v for v in self.tensors.values() if v[0]._data is alias._data]
        return next((v for v in same if v[0]._grad_fn is fn), None) or next(iter(same), None)

    def add_tensor(self, t, name=None):
        nid = self.ids(t, 't')
        name = name or self.labels.get(id(t))
        if id(t) in self.tensors:
            if name is not None:
                node = self.G.nodes[nid]
                node['names'].append(name)
                node['label'] = node['label'] or name
            return nid
        self.tensors[id(t)] = (t, nid)
        leaf = t._grad_fn is None              # (not t.is_leaf: an Invalid grad_fn raises when read)
        grad = t.grad if leaf or getattr(t, '_retains_grad', False) else None
        self.G.add_node(
            nid, kind='tensor', label=name or '', names=[name] if name else [], shape=list(t._data.shape),
            dtype=_dtype_name(t), requires_grad=bool(t.requires_grad), is_leaf=leaf,
            retains_grad=bool(getattr(t, '_retains_grad', False)), grad_fn=None, version=_version_of(t),
            storage=self.storage(t), is_view=t._base is not None, role=None,
            **_values(t), **_values(grad, 'grad'))
        if not name and id(t) in self.earlier:
            self.G.nodes[nid]['was'] = self.earlier[id(t)]
        return nid

    def add_function(self, fn):
        fid = self.ids(fn, 'f')
        self.G.add_node(fid, kind='function', label=type(fn).__name__, freed=False, saved=[], saved_values={},
                        next=[], hidden_inputs=0)
        return fid

    def add_saved(self, fn, fid):
        node = self.G.nodes[fid]
        for name, saved in _saved_items(fn):
            if not isinstance(saved, SavedTensor):
                node['saved_values'][name] = repr(getattr(saved, 'value', saved))
                continue
            sid = self.ids(saved, 's')
            t = saved.tensor_ref
            freed = fn._freed or t is None
            version = None if freed or t._inference else int(saved.current_version())
            known = self.tensors.get(id(t)) or (self.output_of(fn, t) if saved.is_output and t is not None else None)
            self.G.add_node(
                sid, kind='saved', label=name, owner=fid, freed=freed, is_output=bool(saved.is_output),
                shape=None if t is None else list(t._data.shape), dtype=None if t is None else _dtype_name(t),
                saved_version=None if saved.saved_version is None else int(saved.saved_version), version=version,
                stale=version is not None and version != saved.saved_version,
                storage=None if t is None else self.storage(t), tensor=known[1] if known else None,
                **_values(None if freed else t))
            self.G.add_edge(sid, fid, kind='saved', input_nr=0)
            node['saved'].append(sid)
            node['freed'] = node['freed'] or freed
        node['freed'] = node['freed'] or bool(getattr(fn, '_freed', False))

    def build(self, named, roots):
        G = self.G
        for name, t in named.items():
            self.add_tensor(t, name)
        for t in roots:
            self.add_tensor(t)
        # Functions breadth first from the named tensors, so a cut-off graph keeps what the user named.
        start = [t._grad_fn for t, _ in list(self.tensors.values()) if t._grad_fn is not None]
        # (a leaf that is itself a root of backward: the AccumulateGrad that backward runs)
        start += [t._grad_accumulator() for t in roots if t._grad_fn is None and t._requires_grad]
        seen, queue, shown = set(map(id, start)), deque(start), []
        total, full = 0, False
        while queue:
            fn = queue.popleft()
            total += 1
            full = full or G.number_of_nodes() + 1 + len(fn._saved or ()) > self.max_nodes
            if not full:
                shown.append(fn)
                self.add_function(fn)
            for nxt, _ in fn.next_functions:
                if nxt is not None and id(nxt) not in seen:
                    seen.add(id(nxt))
                    queue.append(nxt)
        drawn = {id(fn) for fn in shown}
        for fn in shown:
            fid = self.ids.get(fn)
            variable = getattr(fn, 'variable', None)
            if variable is not None:
                G.add_edge(self.add_tensor(variable), fid, kind='variable', input_nr=0)
            for slot, (nxt, input_nr) in enumerate(fn.next_functions):
                G.nodes[fid]['next'].append([self.ids.get(nxt) if id(nxt) in drawn else None, input_nr])
                if nxt is None:
                    continue
                if id(nxt) in drawn:
                    G.add_edge(self.ids.get(nxt), fid, key=slot, kind='next', input_nr=input_nr)
                else:
                    G.nodes[fid]['hidden_inputs'] += 1
        for fn in shown:
            self.add_saved(fn, self.ids.get(fn))
        for t, nid in list(self.tensors.values()):
            if t._grad_fn is not None and id(t._grad_fn) in drawn:
                fid = self.ids.get(t._grad_fn)
                G.nodes[nid]['grad_fn'] = fid
                G.add_edge(fid, nid, kind='grad_fn', input_nr=t.output_nr)
        self.assign_roles(roots)
        G.graph.update(truncated=total > len(shown), functions=total, hidden=total - len(shown))
        return G

    def assign_roles(self, roots):
        """leaf / nonleaf / detached / constant, and 'output' for the roots (else the unconsumed results)."""
        G = self.G
        consumed = {u for u, _, kind in G.edges(data='kind') if kind == 'next'}
        root_ids = {self.ids.get(t) for t in roots}
        grad_storages = {G.nodes[nid]['storage'] for _, nid in self.tensors.values() if G.nodes[nid]['requires_grad']}
        for t, nid in self.tensors.values():
            node = G.nodes[nid]
            if nid in root_ids or (not roots and node['grad_fn'] is not None and node['grad_fn'] not in consumed):
                node['role'] = 'output'
            elif t._grad_fn is not None:
                node['role'] = 'nonleaf'
            elif t.requires_grad:
                node['role'] = 'leaf'
            elif node['storage'] in grad_storages:
                node['role'] = 'detached'
            else:
                node['role'] = 'constant'


def build_graph(named, roots=(), ids=None, max_nodes=MAX_NODES, labels=None, earlier=None):
    """The autograd graph reached from the named tensors (dict name -> Tensor) and the roots; `labels` (dict
    id(tensor) -> name) names tensors that are drawn only if the graph reaches them (a model's parameters);
    `earlier` (dict id(tensor) -> name) marks unnamed tensors a name held before the code rebound it (`was`).

    Pass one NodeIds per run to keep ids stable across the graphs and steps of that run; the graph keeps it as
    `G.node_ids`. G.graph says whether the graph was cut off at max_nodes ('truncated', 'hidden' functions).
    """
    from engine import Tensor
    ids = ids if ids is not None else NodeIds()
    named = {k: v for k, v in named.items() if isinstance(v, Tensor)}
    # (the builder reads what warns in PyTorch only where it does not: no warning filter is touched here, which
    # would make Python show again the warnings the user's code already showed once)
    builder = _Builder(ids, max_nodes)
    builder.labels = labels or {}
    builder.earlier = earlier or {}
    G = builder.build(named, list(roots))
    G.node_ids = ids
    return G


def to_json(G):
    """networkx node-link data (links under "links"), ready for json.dumps."""
    try:
        return nx.node_link_data(G, edges='links')
    except TypeError:  # networkx before 3.4 names the argument `link`, with "links" the default
        return nx.node_link_data(G)


def _shape_text(shape):
    return '(' + ', '.join(str(n) for n in shape) + ')'


def _dot_quote(text):
    return '"' + str(text).replace('\\', '\\\\').replace('"', '\\"').replace('\n', '\\n') + '"'


_DOT_STYLE = {
    'leaf': 'fillcolor=lightblue', 'output': 'fillcolor=darkolivegreen1', 'nonleaf': 'fillcolor=white',
    'detached': 'fillcolor=white style="filled,dashed"', 'constant': 'fillcolor=white style="filled,dotted"',
}


def to_dot(G):
    """Graphviz DOT in torchviz's vocabulary: leaves lightblue, outputs darkolivegreen1, saved tensors orange."""
    lines = ['digraph {', '\tgraph [size="12,12"]',
             '\tnode [align=left fontname=monospace fontsize=10 height=0.2 ranksep=0.1 shape=box style=filled]']
    for nid, node in G.nodes(data=True):
        if node['kind'] == 'tensor':
            label = f"{node['label']}\n {_shape_text(node['shape'])}"
            style = _DOT_STYLE[node['role']]
        elif node['kind'] == 'saved':
            label = node['label'] + ('' if node['shape'] is None else f"\n {_shape_text(node['shape'])}")
            style = 'fillcolor=orange' + (' color=red penwidth=2' if node['stale'] else '')
        else:
            label, style = node['label'], ''
        lines.append(f'\t{nid} [' + ' '.join(filter(None, [f'label={_dot_quote(label)}', style])) + ']')
    for u, v, kind in G.edges(data='kind'):
        lines.append(f'\t{u} -> {v}' + (' [dir=none]' if kind == 'saved' else ''))
    lines.append('}')
    return '\n'.join(lines) + '\n'


def step_to_json(step, ids):
    """One backward Step as the page's stepper reads it, with the ids of the graph it runs on (NodeIds or graph)."""
    ids = _node_ids(ids)
    sent = iter(step.grads_out)  # the engine lists only the slots whose next function is not None
    grads_out = []
    for nxt, nr in step.node.next_functions:
        g = next(sent, (None, None, None))[2] if nxt is not None else None
        grads_out.append({'to': None if nxt is None else ids(nxt, 'f'), 'input_nr': int(nr), 'grad': value_text(g)})
    out = {'node': ids(step.node, 'f'), 'name': type(step.node).__name__,
           'grads_in': [value_text(g) for g in step.grads_in], 'grads_out': grads_out, 'accumulate': None,
           'frees': bool(getattr(step.node, '_freed', False))}   # (its saved tensors released once it ran)
    if step.variable is not None:
        before, after, incoming = step.grad_before, step.grad_after, step.grads_in[0]
        before_text = value_text(before)
        if before is not None and before is after:  # accumulated in place: .grad before = after - incoming
            before_text = value_text(after, after._data - incoming._data)
        out['accumulate'] = {'tensor': ids(step.variable, 't'), 'before': before_text, 'after': value_text(after)}
    return out


def error_to_json(error, G):
    """Where a backward error happened in G: {'node': fid, 'saved': sid} (None where unknown).

    The engine tags its errors with the node and saved name; untagged ones are found in G: the node closest to
    the roots with a stale (or, after a freed graph, released) saved tensor.
    """
    ids = _node_ids(G)
    node = getattr(error, 'autograd_node', None)
    if node is not None and hasattr(node, '_fns'):
        saved = (node._saved or {}).get(getattr(error, 'autograd_saved', None))
        fid = ids.get(node)
        if fid not in G:        # (the op's own node inside a CopySlices, which is what the graph draws)
            fid = next((ids.get(obj) for obj, i in ids.objects() if getattr(obj, 'fn', None) is node and i in G),
                       None)
            return {'node': fid, 'saved': None}
        return {'node': fid, 'saved': ids.get(saved) if saved is not None else None}
    wanted = 'stale' if 'modified by an inplace operation' in str(error) else 'freed' \
        if 'backward through the graph a second time' in str(error) else None
    if wanted is None:
        return {'node': None, 'saved': None}
    outputs = [n for n, role in G.nodes(data='role') if role == 'output']
    start = [G.nodes[n]['grad_fn'] for n in outputs if G.nodes[n]['grad_fn']]
    seen, queue = set(start), deque(start)
    while queue:
        fid = queue.popleft()
        for sid in G.nodes[fid]['saved']:
            if G.nodes[sid][wanted]:
                return {'node': fid, 'saved': sid}
        if wanted == 'freed' and G.nodes[fid]['freed']:
            return {'node': fid, 'saved': None}
        for nxt, _ in G.nodes[fid]['next']:
            if nxt is not None and nxt not in seen:
                seen.add(nxt)
                queue.append(nxt)
    return {'node': None, 'saved': None}
