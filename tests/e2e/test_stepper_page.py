"""The backward stepper in the page, step by step against the steps the engine records for the same code."""
import pytest
from playwright.sync_api import expect

from engine import _runner

SEED2 = """import torch
x = torch.ones(2, 3, requires_grad=True)
y = x + 2
z = y * y * 3
out = z.mean()
out.backward()
out2 = x.sum()
out2.backward()
out3 = x.sum()
x.grad.data.zero_()
out3.backward()
"""

WEIGHTED = """import torch
g = torch.tensor([1, 2, 3, 4, 5, 6], dtype=torch.float, requires_grad=True)
h = g.view(3, 2)
h = h * 2
w = torch.tensor([[1., 1.], [1., 1.], [1., 1.]])
h.backward(w)
"""

SIGMOID = """import torch
x = torch.tensor(0., requires_grad=True)
y = x.sigmoid()
y.detach().zero_()
y.backward()
"""

POW = """import torch
x = torch.tensor(1., requires_grad=True)
y = x ** 2
y.detach().zero_()
y.backward()
"""


def status(page):
    s = page.locator('[data-testid=step-status]')
    return int(s.get_attribute('data-step')), int(s.get_attribute('data-steps'))


def active_ids(page):
    return page.eval_on_selector_all('[data-testid=graph-node][data-active=true]', 'els => els.map(e => e.dataset.id)')


def active_labels(page):
    return page.eval_on_selector_all('[data-testid=graph-node][data-active=true]',
                                     'els => els.map(e => e.dataset.label)')


def timeline(code):
    """The engine's recorded steps as the stepper's timeline: (chapter, step dict | None for the error stop)."""
    entries = []
    for i, chapter in enumerate(_runner.run(code)['chapters']):
        entries += [(i, step) for step in chapter['steps']]
        if chapter['error']:
            entries.append((i, None))
    return entries


def detail(page):
    return page.locator('[data-testid=step-detail]').inner_text()


def test_seed2_steps_follow_the_engine_and_show_accumulation(playground, run):
    expected = timeline(SEED2)
    run(playground, SEED2)
    assert status(playground) == (0, len(expected)) and active_ids(playground) == []
    for n, (chapter, step) in enumerate(expected, start=1):
        playground.click('[data-testid=backward-step]')
        assert status(playground) == (n, len(expected))
        assert active_labels(playground) == [step['name']]
        assert step['name'] in detail(playground)
        if step['accumulate']:
            arithmetic = {0: 'None → 3', 1: '3 → 3 + 1 = 4', 2: '0 → 0 + 1 = 1'}[chapter]
            assert f'x.grad: {arithmetic}' in detail(playground)
    assert playground.locator('[data-testid=backward-step]').is_disabled()


def test_gradients_appear_on_the_edges_they_travel(playground, run):
    run(playground, SEED2)
    for _ in range(3):  # MeanBackward0, MulBackward0 (* 3), MulBackward0 (y * y)
        playground.click('[data-testid=backward-step]')
    current = playground.locator('.gv-edge-grad.gv-current')
    texts = current.all_text_contents()
    assert texts.count('1.5000 (all)') == 2  # y * y sends 1.5 down each of its two edges


def test_each_step_is_on_the_graph_as_soon_as_it_is_clicked(slow_layout, run):
    """run() resolves with every chapter's graph laid out: a step never waits for Graphviz, even across chapters."""
    expected = timeline(SEED2)
    run(slow_layout, SEED2)
    for n, (_, step) in enumerate(expected, start=1):
        slow_layout.click('[data-testid=backward-step]')
        assert status(slow_layout) == (n, len(expected))
        assert active_labels(slow_layout) == [step['name']]


def test_back_reset_scrubber_and_keys(playground, run):
    expected = timeline(SEED2)
    run(playground, SEED2)
    playground.click('[data-testid=backward-step]')
    playground.click('[data-testid=backward-step]')
    assert status(playground)[0] == 2 and active_ids(playground) == [expected[1][1]['node']]
    playground.click('[data-testid=backward-back]')
    assert status(playground)[0] == 1 and active_ids(playground) == [expected[0][1]['node']]
    playground.click('[data-testid=backward-reset]')
    assert status(playground)[0] == 0 and active_ids(playground) == []
    playground.locator('[data-testid=step-status]').click()  # focus out of the editor
    playground.keyboard.press('.')
    playground.keyboard.press('ArrowRight')
    assert status(playground)[0] == 2
    playground.keyboard.press(',')
    assert status(playground)[0] == 1
    playground.locator('[data-testid=backward-scrubber]').fill(str(len(expected)))
    assert status(playground)[0] == len(expected)
    assert playground.locator('[data-testid=backward-chapter]').count() == 3


def test_weighted_backward_of_a_non_scalar_explains_the_weighted_sum(playground, run):
    expected = timeline(WEIGHTED)
    run(playground, WEIGHTED)
    assert status(playground) == (0, len(expected))
    playground.click('[data-testid=backward-step]')
    assert active_ids(playground) == [expected[0][1]['node']]
    note = playground.locator('[data-testid=step-note]')
    assert note.is_visible() and 'sum(root * gradient)' in note.inner_text()
    assert 'receives: 1 (all)' in detail(playground)


def test_non_scalar_without_gradient_explains_why(playground, run):
    run(playground, WEIGHTED.replace('h.backward(w)', 'h.backward()'))
    assert 'sum(y * w)' in playground.locator('[data-testid=step-note]').inner_text()


def test_sigmoid_stops_at_the_stale_saved_result(playground, run):
    expected = timeline(SIGMOID)
    assert [step for _, step in expected] == [None]
    chapter = _runner.run(SIGMOID)['chapters'][0]
    run(playground, SIGMOID)
    assert status(playground) == (0, 1)
    playground.click('[data-testid=backward-step]')
    assert status(playground) == (1, 1)
    assert active_ids(playground) == [chapter['error']['node']]
    saved = playground.locator(f'[data-testid=graph-node][data-id="{chapter["error"]["saved"]}"]')
    assert saved.get_attribute('data-stale') == 'true' and saved.get_attribute('data-flagged') == 'true'
    assert saved.get_attribute('data-label') == '_saved_result'
    text = detail(playground)
    assert 'modified by an inplace operation' in text and 'output 0 of Sigmoid' in text
    assert 'version 0' in text and 'version 1' in text


def test_pow_runs_to_the_end_without_error(playground, run):
    expected = timeline(POW)
    assert [step['name'] for _, step in expected] == ['PowBackward0', 'AccumulateGrad']
    run(playground, POW)
    for _, step in expected:
        playground.click('[data-testid=backward-step]')
        assert active_labels(playground) == [step['name']]
    assert 'x.grad: None → 2' in detail(playground)
    assert playground.locator('[data-flagged=true], [data-error=true]').count() == 0


@pytest.mark.parametrize('lang, word', [('zh-CN', '执行'), ('en', 'runs')])
def test_step_text_follows_the_language(playground, run, lang, word):
    run(playground, POW)
    playground.select_option('[data-testid=lang]', lang)
    playground.click('[data-testid=backward-step]')
    assert word in detail(playground)


EXP = """import torch
x = torch.ones(2, requires_grad=True)
y = x.exp()
z = y * 2
w = z.sum()
w.backward()
"""

TWICE = """import torch
a = torch.ones(2, requires_grad=True)
out = (a * a).sum()
out.backward(retain_graph=True)
out.backward()
"""


def inspector_row(page, term):
    """The text of the inspector's row named term (its <dd>)."""
    return page.locator('[data-testid=inspector] dt', has_text=term).locator('xpath=following-sibling::dd[1]').inner_text()


def test_the_open_inspector_follows_the_steps(playground, run):
    """x's .grad in the inspector is what the step shown has made it: None until AccumulateGrad, then its value."""
    run(playground, EXP)
    playground.click('[data-testid=graph-node][data-label=x]')
    assert inspector_row(playground, '.grad') == 'tensor([5.4366, 5.4366])'  # the end of the run
    for n in range(1, 5):
        playground.click('[data-testid=backward-step]')
        assert status(playground)[0] == n
        assert inspector_row(playground, '.grad') == ('tensor([5.4366, 5.4366])' if n == 4 else 'None'), n
    playground.click('[data-testid=graph-node][data-label=x]')  # clicked again at that step: the same
    assert inspector_row(playground, '.grad') == 'tensor([5.4366, 5.4366])'
    playground.click('[data-testid=backward-back]')
    assert inspector_row(playground, '.grad') == 'None'


def inspector_id(page):
    return page.get_attribute('[data-testid=inspector]', 'data-id')


def test_step_0_after_a_run_is_labelled_as_the_end_of_the_run(playground, run):
    """Before the user steps, the graph is the one the run ended with: the stepper says so, not "before the first
    step"; Reset goes to the real step 0, the graph as backward found it."""
    run(playground, EXP)
    assert status(playground) == (0, 4)
    assert 'end of run' in playground.locator('[data-testid=step-status]').inner_text()
    assert 'as the run left it' in detail(playground) and 'Before the first step' not in detail(playground)
    exp = playground.locator('[data-testid=graph-node][data-label=ExpBackward0]')
    assert 'freed' in exp.text_content()
    playground.click('[data-testid=backward-reset]')
    assert status(playground) == (0, 4)
    assert 'Before the first step of backward() #1' in detail(playground)
    assert playground.locator('[data-testid=step-status]').inner_text() == 'step 0 / 4'
    assert 'freed' not in exp.text_content()


def test_a_call_chip_opens_the_first_step_of_that_call(playground, run):
    expected = timeline(TWICE)
    first_of_second = next(i for i, (chapter, _) in enumerate(expected) if chapter == 1)
    run(playground, TWICE)
    chips = playground.locator('[data-testid=backward-chapter]')
    chips.nth(1).click()
    assert status(playground) == (first_of_second + 1, len(expected))
    assert active_ids(playground) == [expected[first_of_second][1]['node']]
    assert [chips.nth(i).get_attribute('aria-current') for i in range(2)] == ['false', 'true']
    chips.nth(0).click()
    assert status(playground)[0] == 1
    assert [chips.nth(i).get_attribute('aria-current') for i in range(2)] == ['true', 'false']


def test_play_from_the_last_step_starts_again_and_is_off_without_steps(playground, run):
    playground.evaluate('() => document.querySelector("[data-testid=backward-speed]").value = "3"')
    playground.dispatch_event('[data-testid=backward-speed]', 'change')
    run(playground, POW)
    playground.locator('[data-testid=backward-scrubber]').fill('2')
    assert status(playground) == (2, 2)
    playground.click('[data-testid=backward-play]')
    expect(playground.locator('[data-testid=step-status]')).to_have_attribute('data-step', '1')
    expect(playground.locator('[data-testid=step-status]')).to_have_attribute('data-step', '2')
    run(playground, 'import torch\nx = torch.ones(2, requires_grad=True)\n')
    assert status(playground) == (0, 0)
    for control in ('backward-play', 'backward-reset', 'backward-step', 'backward-back'):
        assert playground.locator(f'[data-testid={control}]').is_disabled(), control


def test_before_any_run_the_panes_say_what_will_appear(page, flask_url, ready):
    """First load: the stepper invites a run (it has not seen one lacking backward), the graph shows its hint and
    the output says where printed text goes."""
    ready(page, flask_url)
    assert 'No backward() call in this run' not in detail(page)
    assert 'backward()' in detail(page)
    expect(page.locator('.gv-empty')).to_be_visible()
    expect(page.locator('.gv-empty')).to_contain_text('No tensors yet')
    hint = page.locator('[data-testid=output]').evaluate('e => getComputedStyle(e, "::before").content')
    assert 'Run' in hint, hint


def test_a_backward_that_raised_before_its_first_step_says_so(playground, run):
    run(playground, WEIGHTED.replace('h.backward(w)', 'h.backward()'))
    assert 'No backward() call' not in detail(playground)
    assert 'raised before its first step' in detail(playground)
    assert 'implicitly created only for scalar outputs' in detail(playground)
    run(playground, 'import torch\nx = torch.ones(2, requires_grad=True)\ny = (x * 2).sum()\nprint(y.item())\n')
    assert 'No backward() call in this run' in detail(playground)


def test_autograd_grad_captures_the_gradient_instead_of_accumulating_it(playground, run):
    code = ('import torch\nx = torch.tensor([1., 2., 3.], requires_grad=True)\ny = (x * x).sum()\n'
            'g, = torch.autograd.grad(y, x)\nprint(g, x.grad)\n')
    expected = timeline(code)
    assert expected[-1][1]['name'] == 'AccumulateGrad' and expected[-1][1]['accumulate'] is None
    run(playground, code)
    playground.locator('[data-testid=backward-scrubber]').fill(str(len(expected)))
    text = detail(playground)
    assert 'captures the gradient for x' in text and 'returned: [2., 4., 6.]' in text
    assert 'AccumulateGrad runs' not in text and 'x.grad:' not in text


def test_the_keyboard_hint_is_only_shown_where_there_is_a_keyboard_and_room(playground, run):
    run(playground, POW)
    expect(playground.locator('.gs-keys')).to_be_visible()
    playground.set_viewport_size({'width': 390, 'height': 844})
    expect(playground.locator('.gs-keys')).to_be_hidden()


def test_a_node_releases_its_saved_tensors_as_soon_as_it_has_run(playground, run):
    """backward without retain_graph frees each node's saved tensors once the node has run (as the error card says
    and PyTorch does): stepping shows them released from that step on, and Back brings them back."""
    run(playground, 'import torch\nx = torch.tensor([1., 2.], requires_grad=True)\ny = (x * x).sum()\ny.backward()\n')
    released = lambda: sorted(playground.eval_on_selector_all('[data-released=true]', 'ns => ns.map(n => n.dataset.label)'))
    saved = playground.locator('[data-testid=graph-node][data-label=_saved_self]')
    playground.click('[data-testid=backward-reset]')
    playground.click('[data-testid=backward-step]')          # SumBackward0 (saves nothing but its sizes)
    assert released() == ['SumBackward0'] and 'v0' in saved.text_content()
    playground.click('[data-testid=backward-step]')          # MulBackward0: its two saved tensors go
    assert released() == ['MulBackward0', 'SumBackward0', '_saved_other', '_saved_self']
    assert 'freed' in saved.text_content() and 'v0' not in saved.text_content()
    saved.click()
    assert 'freed' in inspector_row(playground, 'value')
    playground.click('[data-testid=backward-back]')
    assert released() == ['SumBackward0'] and 'v0' in saved.text_content()
