"""The live graph in the page, node by node against engine.graph's export of the same code run in-process."""
from pathlib import Path

import pytest

from engine import _runner

SNIPPETS = {
    'seed2_worked_example': """import torch
x = torch.ones(2, 3, requires_grad=True)
y = x + 2
z = y * y * 3
out = z.mean()
out.backward()
""",
    'sigmoid_stale': """import torch
x = torch.tensor(0., requires_grad=True)
y = x.sigmoid()
y.detach().zero_()
""",
    'pow_not_stale': """import torch
x = torch.tensor(1., requires_grad=True)
y = x ** 2
y.detach().zero_()
""",
    'data_versus_detach': """import torch
a = torch.tensor([1., 2., 3.], requires_grad=True)
out = a.sigmoid()
c = out.data
d = out.detach()
c.zero_()
big = torch.arange(2000.)
""",
    'weighted_view': """import torch
g = torch.tensor([1, 2, 3, 4, 5, 6], dtype=torch.float, requires_grad=True)
h = g.view(3, 2)
h = h * 2
""",
}

NODES_JS = """els => els.map(e => ({id: e.dataset.id, kind: e.dataset.kind, label: e.dataset.label,
                                  stale: e.dataset.stale ?? null}))"""


def drawn_nodes(page):
    return sorted(page.eval_on_selector_all('[data-testid=graph-node]', NODES_JS), key=lambda n: n['id'])


def expected_nodes(graph):
    return sorted(({'id': n['id'], 'kind': n['kind'], 'label': n['label'], 'stale': 'true' if n.get('stale') else None}
                   for n in graph['nodes']), key=lambda n: n['id'])


@pytest.mark.parametrize('name', sorted(SNIPPETS))
def test_graph_matches_engine_export(playground, run, name):
    code = SNIPPETS[name]
    expected = _runner.run(code)['graph']
    run(playground, code)
    assert drawn_nodes(playground) == expected_nodes(expected)
    edges = playground.eval_on_selector_all(
        'path.gv-edge', 'els => els.map(e => [e.dataset.source, e.dataset.target, e.dataset.key])')
    assert sorted(edges) == sorted([l['source'], l['target'], str(l['key'])] for l in expected['links'])


def test_y_times_y_draws_two_edges_and_contract_labels(playground, run):
    run(playground, SNIPPETS['seed2_worked_example'])
    node = playground.locator('[data-testid=graph-node]')
    for label in ('x', 'y', 'z', 'out', 'AddBackward0', 'MeanBackward0', 'AccumulateGrad'):
        assert node.and_(playground.locator(f'[data-label="{label}"]')).count() == 1, label
    assert node.and_(playground.locator('[data-label="MulBackward0"][data-kind=function]')).count() == 2
    add = playground.locator('[data-testid=graph-node][data-label="AddBackward0"]').get_attribute('data-id')
    into = playground.eval_on_selector_all(
        f'path.gv-edge-next[data-source="{add}"]', 'els => els.map(e => e.dataset.target)')
    assert len(into) == 2 and into[0] == into[1]


def test_stale_saved_tensor_is_marked_and_pow_is_not(playground, run):
    run(playground, SNIPPETS['sigmoid_stale'])
    stale = playground.locator('[data-testid=graph-node][data-kind=saved][data-stale=true]')
    assert stale.count() == 1 and stale.get_attribute('data-label') == '_saved_result'
    assert 'v0 → v1' in stale.text_content()
    run(playground, SNIPPETS['pow_not_stale'])
    assert playground.locator('[data-kind=saved]').count() == 1
    assert playground.locator('[data-kind=saved][data-stale=true]').count() == 0


def test_values_and_grads_on_nodes(playground, run):
    run(playground, SNIPPETS['seed2_worked_example'])
    x = playground.locator('[data-testid=graph-node][data-label="x"]')
    text = x.text_content()
    assert '[[1., 1., 1.],' in text and 'grad: 3 (all)' in text
    run(playground, SNIPPETS['data_versus_detach'])
    big = playground.locator('[data-testid=graph-node][data-label="big"]')
    assert 'min 0 · mean 999.5 · max 1999' in big.text_content() and big.locator('.gv-spark').count() == 1


OVERFLOWING_LINES = """els => els.flatMap(e => {
    const box = e.querySelector('.gv-box').getBBox().width;
    return [...e.querySelectorAll('text')].filter(t => t.getComputedTextLength() > box - 2).map(t => t.textContent);
})"""


def test_every_line_fits_its_box_in_both_languages(playground, run):
    """Boxes are sized for their text, Chinese too (a CJK character takes about two columns of the node font)."""
    code = ('import torch\n学习率乘以权重的结果张量 = torch.ones(2, requires_grad=True)\n'
            '输出 = (学习率乘以权重的结果张量 * 2).sum()\n输出.backward()\n')
    for lang in ('en', 'zh-CN'):
        playground.select_option('[data-testid=lang]', lang)
        run(playground, code)
        assert playground.locator('[data-testid=graph-node][data-label="学习率乘以权重的结果张量"]').count() == 1
        assert playground.eval_on_selector_all('[data-testid=graph-node]', OVERFLOWING_LINES) == []


def test_roles_are_visually_distinct(playground, run):
    run(playground, SNIPPETS['data_versus_detach'])
    role = lambda label: playground.locator(f'[data-testid=graph-node][data-label="{label}"]').get_attribute('class')
    assert 'gv-role-leaf' in role('a') and 'gv-role-output' in role('out')
    assert 'gv-role-detached' in role('c') and 'gv-role-detached' in role('d') and 'gv-role-constant' in role('big')
    fills = {label: playground.locator(f'[data-testid=graph-node][data-label="{label}"] .gv-box').evaluate(
        'e => getComputedStyle(e).fill + getComputedStyle(e).strokeDasharray') for label in ('a', 'out', 'd', 'big')}
    assert len(set(fills.values())) == 4


def test_clicking_a_node_opens_the_inspector(playground, run):
    run(playground, SNIPPETS['data_versus_detach'])
    playground.click('[data-testid=graph-node][data-label="c"]')
    inspector = playground.locator('[data-testid=inspector]')
    inspector.wait_for(state='visible')
    text = inspector.inner_text()
    for part in ('is_leaf', 'requires_grad', '_version', 'tensor([0., 0., 0.])', '.grad', 'grad_fn'):
        assert part in text, part
    assert 'out' in inspector.locator('a').all_inner_texts() and 'd' in inspector.locator('a').all_inner_texts()
    playground.click('[data-testid=graph-node][data-label="SigmoidBackward0"]')
    text = inspector.inner_text()
    assert '_saved_result' in text and 'next_functions' in text and 'AccumulateGrad' in text


def test_stale_saved_tensor_in_inspector(playground, run):
    run(playground, SNIPPETS['sigmoid_stale'])
    playground.click('[data-testid=graph-node][data-kind=saved]')
    text = playground.locator('[data-testid=inspector]').inner_text()
    assert 'SigmoidBackward0' in text and 'stale' in text


@pytest.mark.parametrize('fmt, check', [
    ('dot', lambda b: b.startswith(b'digraph {') and b'fillcolor=lightblue' in b and b'fillcolor=orange' in b),
    ('json', lambda b: b'"links"' in b and b'"MulBackward0"' in b),
    ('svg', lambda b: b'<svg' in b and b'data-testid="graph-node"' in b and b'.gv-' in b),
    ('png', lambda b: b.startswith(b'\x89PNG')),
])
def test_export(playground, run, fmt, check):
    run(playground, SNIPPETS['seed2_worked_example'])
    with playground.expect_download() as download:
        playground.click(f'[data-testid=graph-export-{fmt}]')
    data = Path(download.value.path()).read_bytes()
    assert check(data), data[:200]


def test_big_graph_is_cut_off_with_a_notice(playground, run):
    run(playground, 'import torch\nx = torch.ones(1, requires_grad=True)\ny = x\nfor _ in range(3000):\n    y = y * 1.0\n')
    count = playground.locator('[data-testid=graph-node]').count()
    assert 900 <= count <= 1000
    assert '3001' in playground.locator('.gv-banner').inner_text()


def test_inspector_is_wide_enough_for_its_rows(playground, run):
    """The inspector panel fills its place over the graph: no row is cut off or scrolls sideways."""
    run(playground, 'import torch\nx = torch.tensor(2.0, requires_grad=True)\ny = x ** 2\ny.backward()\n')
    for kind in ('function', 'saved', 'tensor'):
        playground.click(f'[data-testid=graph-node][data-kind={kind}]')
        box = playground.locator('[data-testid=inspector]').bounding_box()
        assert box['width'] >= 300, (kind, box)
        assert playground.locator('[data-testid=inspector]').evaluate(
            'e => [...e.querySelectorAll("dd")].filter((d) => d.scrollWidth > d.clientWidth + 1).length') == 0, kind
        playground.click("[data-testid=inspector-close]")


HIDDEN_JS = """(id) => {  // a node out of the graph's view, or under the open inspector
  const panel = document.querySelector('[data-testid=inspector]:not([hidden])')?.getBoundingClientRect();
  const area = document.querySelector('.gv-graph').getBoundingClientRect();
  const b = document.querySelector(`[data-testid=graph-node][data-id="${id}"]`).getBoundingClientRect();
  const x = (b.left + b.right) / 2, y = (b.top + b.bottom) / 2;
  return x < area.left || x > area.right || y < area.top || y > area.bottom
    || (!!panel && x > panel.left && x < panel.right && y > panel.top && y < panel.bottom);
}"""

VIEW_JS = "() => document.querySelector('.gv-scene').getAttribute('transform')"
SCALE_JS = "() => +document.querySelector('.gv-scene').getAttribute('transform').split('scale(')[1].slice(0, -1)"


@pytest.mark.parametrize('viewport', [(1280, 720), (1400, 900), (1000, 800), (700, 1000)])
def test_the_open_inspector_keeps_the_graphs_scale(playground, run, viewport):
    """Nodes clicked one after another: the inspector floats over the graph without shrinking it (at most it moves
    the graph, keeping the clicked node clear of the panel); Escape closes it and the graph is back where it was."""
    playground.set_viewport_size({'width': viewport[0], 'height': viewport[1]})
    run(playground, 'import torch\nx = torch.ones(2, 2, requires_grad=True)\ny = x.sigmoid()\nw = x * 2\n'
                    'z = (y * 3).sum() + (w ** 2).sum()\ny.detach().zero_()\n')
    before = playground.evaluate(VIEW_JS)
    scale = playground.evaluate(SCALE_JS)
    inspector = playground.locator('[data-testid=inspector]')
    ids = playground.eval_on_selector_all('[data-testid=graph-node]', 'els => els.map(e => e.dataset.id)')
    for node_id in ids:
        if playground.evaluate(HIDDEN_JS, node_id):
            playground.keyboard.press('Escape')  # under the panel or panned away: close it
            assert inspector.is_hidden()
        playground.click(f'[data-testid=graph-node][data-id="{node_id}"]', timeout=5000)
        assert inspector.get_attribute('data-id') == node_id
        assert playground.evaluate(SCALE_JS) == scale, node_id
        assert not playground.evaluate(HIDDEN_JS, node_id), node_id
    playground.keyboard.press('Escape')
    assert inspector.is_hidden()
    assert playground.evaluate(VIEW_JS) == before


def test_stepping_with_the_inspector_open_does_not_shrink_the_graph(playground, run):
    code = 'import torch\nx = torch.ones(2, requires_grad=True)\ny = x.exp()\nz = y * 2\nw = z.sum()\nw.backward()\n'
    run(playground, code)
    playground.click('[data-testid=backward-step]')
    closed = playground.evaluate(SCALE_JS)
    run(playground, code)
    playground.click('[data-testid=graph-node][data-label=y]')
    playground.click('[data-testid=backward-step]')
    playground.click('[data-testid=backward-step]')
    assert playground.locator('[data-testid=inspector]').is_visible()
    assert playground.evaluate(SCALE_JS) == closed


@pytest.mark.parametrize('code, label', [
    ('x = torch.ones(3, requires_grad=True)\nother = x * 3\ny = x * 2\ny.backward()\n', 'y'),
    ('x = torch.ones(3, 2, requires_grad=True)\nother = x * 3\ny = x * 2\ny.backward(torch.ones(2))\n', 'y'),
    ('x = torch.ones(2, requires_grad=True)\ny = x * 2\nz = y + 1\ny.requires_grad = False\n', 'y'),
    ('a = torch.ones(2, requires_grad=True)\na += 2\n', 'a'),
    ('b = torch.ones(2, requires_grad=True)\na = torch.ones(2, requires_grad=True)\na += 2\n', 'a'),
])
def test_show_in_the_graph_points_at_the_tensor_the_error_is_about(playground, run, code, label):
    run(playground, 'import torch\n' + code)
    playground.click('[data-testid=show-in-graph]')
    tensors = playground.eval_on_selector_all('[data-testid=graph-node][data-kind=tensor][data-highlight=true]',
                                              'els => els.map(e => e.dataset.label)')
    assert tensors == [label]


def test_a_long_graph_is_drawn_legibly_and_fit_shows_all_of_it(playground, run):
    """A 300-op chain is far taller than the pane: it opens at a legible zoom on the output end, not as specks."""
    run(playground, 'import torch\nx = torch.ones(3, requires_grad=True)\ny = x\nfor i in range(300):\n'
                    '    y = y * 1.01 + 0.1\nloss = y.sum()\nloss.backward()\n')
    scale = lambda: float(playground.locator('.gv-scene').get_attribute('transform').split('scale(')[1].rstrip(')'))
    assert scale() >= 0.5
    pane = playground.locator('.gv-graph').bounding_box()
    loss = playground.locator('[data-testid=graph-node][data-label=loss]').bounding_box()
    assert pane['y'] <= loss['y'] and loss['y'] + loss['height'] <= pane['y'] + pane['height'] + 1
    playground.click('[data-testid=graph-fit]')
    assert scale() < 0.1


def test_a_leaning_chain_opens_on_its_output_end(playground, run):
    """A long chain whose saved tensors push each rank sideways is wider and taller than the pane: it opens at a
    legible zoom with the output (where backward starts) in view, not centred on the middle of the whole layout."""
    run(playground, 'import torch\nx = torch.tensor(1.0, requires_grad=True)\ny = x\nfor i in range(60):\n'
                    '    y = torch.sin(y) + y * 0.5\ny.backward()\n')
    pane = playground.locator('.gv-graph').bounding_box()
    y = playground.locator('[data-testid=graph-node][data-label=y]').bounding_box()
    assert pane['x'] <= y['x'] and y['x'] + y['width'] <= pane['x'] + pane['width']
    assert pane['y'] <= y['y'] and y['y'] + y['height'] <= pane['y'] + pane['height']
    scale = float(playground.locator('.gv-scene').get_attribute('transform').split('scale(')[1].rstrip(')'))
    assert scale >= 0.5


def test_the_leaf_a_rebound_name_held_is_drawn_as_what_it_was(playground, run):
    """Open question 1 of the notes: after `a = a + 2` the old leaf is still in the graph; it is drawn "(was a)"
    (not bound to a name, so its data-label stays empty), the new `a` is drawn as `a`."""
    run(playground, 'import torch\na = torch.tensor([1., 2., 3.], requires_grad=True)\na = a + 2\na += 2\n')
    old = playground.locator('[data-testid=graph-node][data-kind=tensor][data-role=leaf]')
    assert old.get_attribute('data-label') == '' and '(was a)' in old.text_content()
    assert playground.locator('[data-testid=graph-node][data-label=a]').count() == 1
    playground.select_option('[data-testid=lang]', 'zh-CN')
    try:
        assert '（原来的 a）' in old.text_content()
    finally:
        playground.select_option('[data-testid=lang]', 'en')
