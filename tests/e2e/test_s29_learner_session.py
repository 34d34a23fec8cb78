"""A learner's session in one browser page: snippets pasted one after another, each run's output and graph checked
against the engine run in-process by CPython; Stop, Ctrl+Enter, input(), the stepper's labels, a share link."""
import re

import pytest

from engine import _runner

# conftest.py's helpers themselves: the page lives for the whole module, longer than its function-scoped fixtures.
from conftest import guard_network, open_ready, run_code

OUTPUT = '[data-testid=output]'
NODES_JS = 'els => els.map(e => [e.dataset.kind, e.dataset.label])'

SNIPPETS = {
    # Output, then an error: the traceback follows the printed line with no blank line in between (innerText used
    # to add one, the error being a block).
    'sigmoid_detach_zero': """import torch
a = torch.tensor([1., 2., 3.], requires_grad=True)
out = a.sigmoid()
c = out.detach()
c.zero_()
print(out)
out.sum().backward()
""",
    # The study notes' first mistake: in-place on a leaf.
    'leaf_inplace': """import torch
w = torch.randn(3, requires_grad=True)
print(w.shape)
w += 1
""",
    # Tutorial imports: torch.nn as nn, functional as F, `from torch import nn, optim`; a short training loop.
    'nn_and_optim': """import torch
import torch.nn as nn
import torch.nn.functional as F
from torch import optim
torch.manual_seed(1)
net = nn.Sequential(nn.Linear(2, 4), nn.ReLU(), nn.Linear(4, 1))
opt = optim.SGD(net.parameters(), lr=0.1)
X = torch.tensor([[0., 0.], [0., 1.], [1., 0.], [1., 1.]])
Y = torch.tensor([[0.], [1.], [1.], [0.]])
for epoch in range(3):
    opt.zero_grad()
    loss = F.mse_loss(net(X), Y)
    loss.backward()
    opt.step()
    print(f"epoch {epoch}: loss={loss.item():.4f}")
print(net)
""",
    # numpy mixed in, and a big tensor printed with PyTorch's summarization.
    'numpy_and_big_print': """import torch
import numpy as np
t = torch.from_numpy(np.array([1.0, 2.0, 3.0])).requires_grad_(True)
y = (t ** 2).sum()
y.backward()
print(t.grad, t.grad.numpy(), type(t.grad.numpy()))
big = torch.arange(2000.).reshape(40, 50)
print(big)
""",
    # Chinese comments, names and strings.
    'chinese': """import torch
# 这是一个中文注释：计算梯度
张量 = torch.tensor([1., 2.], requires_grad=True)
结果 = (张量 * 3).sum()
结果.backward()
print("梯度是：", 张量.grad)
raise ValueError(f"出错了：损失 = {结果.item()}")
""",
    # stdout, stderr and a warning in the order they were written; a NameError at the end.
    'streams_then_name_error': """import sys, warnings
import torch
print("out 1")
print("err 1", file=sys.stderr)
warnings.warn("careful!")
x = torch.ones(3, requires_grad=True)
y = x * 2
print(yy)
""",
    # A syntax error (a module the playground does not have: see test_a_package_the_page_lacks_...).
    'syntax_error': 'import torch\nx = torch.ones(3\nprint(x)\n',
    # A very long line of code and of output.
    'long_lines': ('import torch\nx = torch.tensor([' + ', '.join(f'{i}.5' for i in range(300)) + '], requires_grad=True)\n'
                   'y = (x * x).sum()\ny.backward()\nprint(x.grad[:4])\nprint("' + '-' * 500 + '", end="")\n'
                   'print(1 / 0)\n'),
}

TWO_BACKWARDS = """import torch
a = torch.tensor(2., requires_grad=True)
b = torch.tensor(3., requires_grad=True)
c = a * b
d = c + a
d.backward(retain_graph=True)
e = c.exp()
e.backward()
print(a.grad, b.grad)
"""


def pane_text(result):
    """What output.js shows for a runner result: the output chunks, then the traceback."""
    text = ''.join(chunk['text'] for chunk in result['output'])
    if result['error']:
        text += result['error']['traceback']
    return text


def unaddressed(text):
    return re.sub(r' at 0x[0-9a-f]+', ' at 0x...', text)


@pytest.fixture(scope='module')
def session(browser, flask_url):
    """One page for the whole module, as a learner keeps one tab open; `problems` collects page and console errors."""
    context = browser.new_context(viewport={'width': 1400, 'height': 900})
    offenders = guard_network(context)
    page = context.new_page()
    problems = []
    page.on('pageerror', lambda e: problems.append(f'pageerror: {e}'))
    page.on('console', lambda m: problems.append(f'console.error: {m.text}') if m.type == 'error' else None)
    open_ready(page, flask_url)
    yield page, problems
    context.close()
    assert not offenders, f'requests left the machine: {sorted(set(offenders))}'


@pytest.fixture
def learner(session):
    page, problems = session
    page.select_option('[data-testid=lang]', 'en')
    problems.clear()
    yield page
    assert problems == []


@pytest.mark.parametrize('name', list(SNIPPETS))
def test_output_and_graph_are_what_cpython_gives(learner, name):
    code = SNIPPETS[name]
    expected = _runner.run(code)
    run_code(learner, code)
    pane = learner.locator(OUTPUT)
    assert unaddressed(pane.inner_text()) == unaddressed(pane.text_content()) == unaddressed(pane_text(expected))
    drawn = learner.eval_on_selector_all('[data-testid=graph-node]', NODES_JS)
    assert sorted(map(tuple, drawn)) == sorted((n['kind'], n['label']) for n in expected['graph']['nodes'])
    assert learner.evaluate('document.body.dataset.engine') == 'ready'
    assert learner.evaluate('window.playground.getCode()') == code


@pytest.mark.parametrize('lang, words', [('en', 'with no keyboard input'), ('zh-CN', '没有键盘输入')])
def test_input_is_explained_after_pythons_eoferror(learner, lang, words):
    learner.select_option('[data-testid=lang]', lang)
    text = run_code(learner, 'name = input("Your name: ")\nprint("hello", name)\n')
    python, notice = text.split('EOFError: EOF when reading a line\n')
    assert python.startswith('Your name: Traceback (most recent call last):\n')
    assert words in notice
    assert run_code(learner, 'print("no input, no notice")') == 'no input, no notice\n'


@pytest.mark.parametrize('lang, words', [('en', 'but not matplotlib: remove the lines'), ('zh-CN', '没有 matplotlib：请删掉')])
def test_a_package_the_page_lacks_is_said_to_be_missing_here(learner, lang, words):
    learner.select_option('[data-testid=lang]', lang)
    code = 'import torch\nprint("plotting")\nimport matplotlib.pyplot as plt\n'
    text = run_code(learner, code)
    python, notice = text.split("ModuleNotFoundError: No module named 'matplotlib'\n")
    assert python + "ModuleNotFoundError: No module named 'matplotlib'\n" == pane_text(_runner.run(code))
    assert words in notice
    assert 'matplotlib' not in run_code(learner, 'import math\nprint(math.pi)\n')


@pytest.mark.parametrize('lang, words', [('en', 'PyTorch has torch.xpu, but'), ('zh-CN', 'PyTorch 有 torch.xpu，但')])
def test_a_name_pytorch_has_and_the_engine_lacks_is_said_to_be_the_playgrounds_gap(learner, lang, words):
    learner.select_option('[data-testid=lang]', lang)
    text = run_code(learner, 'import torch\nprint(torch.xpu.is_available())\n')
    python, notice = text.split("AttributeError: module 'torch' has no attribute 'xpu'\n")
    assert words in notice
    assert 'PyTorch' not in run_code(learner, 'import torch\ntorch.tensr(1)\n')   # a typo: Python's error alone


def test_a_training_loop_says_how_many_backward_calls_went_unrecorded(learner):
    learner.select_option('[data-testid=lang]', 'en')
    run_code(learner, 'import torch\nw = torch.ones(2, requires_grad=True)\nfor i in range(25):\n'
                      '    (w * i).sum().backward()\n')
    assert learner.locator('[data-testid=backward-chapter]').count() == 10
    assert learner.locator('.gs-unrecorded').inner_text() == '+15 more calls, not recorded: the stepper keeps the first 10'
    run_code(learner, 'import torch\nw = torch.ones(2, requires_grad=True)\n(w * 2).sum().backward()\n')
    assert learner.locator('[data-testid=backward-chapter]').count() == 1
    assert learner.locator('.gs-unrecorded').count() == 0
    run_code(learner, 'import torch\nprint(torch.ones(2))\n')           # (no backward: no chapter bar at all)
    assert learner.locator('.gs-chapters').inner_text() == ''


def test_stop_then_run_again_then_ctrl_enter(learner):
    loop = 'import torch\ni = 0\nwhile True:\n    i += 1\n'
    learner.evaluate('(code) => { window.playground.setCode(code); window.playground.run(); }', loop)
    learner.wait_for_selector('body[data-engine=running]', state='attached')
    learner.click('[data-testid=stop]')
    learner.wait_for_selector('body[data-engine=ready]', state='attached', timeout=30_000)
    assert 'KeyboardInterrupt' in learner.locator(OUTPUT).inner_text()
    assert learner.evaluate('window.playground.getCode()') == loop
    assert run_code(learner, 'import torch\nprint(torch.ones(2))') == 'tensor([1., 1.])\n'
    learner.click('.cm-content')
    learner.keyboard.press('Control+End')
    learner.keyboard.type('\nprint("typed")')
    learner.keyboard.press('Control+Enter')
    learner.wait_for_function('document.querySelector("[data-testid=output]").textContent.endsWith("typed\\n")')
    learner.wait_for_selector('body[data-engine=ready]', state='attached')
    assert learner.locator(OUTPUT).inner_text() == 'tensor([1., 1.])\ntyped\n'
    assert learner.evaluate('window.playground.getCode()').endswith('print(torch.ones(2))\nprint("typed")')


BOXES_JS = """() => {
  const box = (el) => { const r = el.getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom]; };
  return {
    nodes: [...document.querySelectorAll('[data-testid=graph-node] .gv-box')].map(box),
    labels: [...document.querySelectorAll('.gv-node-grad, .gv-edge-grad')].map((el) => [el.textContent, box(el)]),
  };
}"""


def shared_area(a, b):
    return max(0, min(a[2], b[2]) - max(a[0], b[0])) * max(0, min(a[3], b[3]) - max(a[1], b[1]))


@pytest.mark.parametrize('lang', ['en', 'zh-CN'])
def test_stepper_labels_cover_no_node_and_no_other_label(learner, lang):
    # Graphviz leaves ~15 px between nodes: labels at one fixed spot covered a's neighbour b and each other.
    learner.select_option('[data-testid=lang]', lang)
    run_code(learner, TWO_BACKWARDS)
    steps = sum(len(chapter['steps']) for chapter in _runner.run(TWO_BACKWARDS)['chapters'])
    assert learner.locator('[data-testid=step-status]').get_attribute('data-steps') == str(steps)
    for step in range(1, steps + 1):
        learner.click('[data-testid=backward-step]')
        learner.wait_for_selector(f'[data-testid=step-status][data-step="{step}"]', state='attached')
        drawn = learner.evaluate(BOXES_JS)
        for i, (text, label) in enumerate(drawn['labels']):
            assert all(shared_area(label, node) < 1 for node in drawn['nodes']), (step, text)
            assert all(shared_area(label, other) < 1 for j, (_, other) in enumerate(drawn['labels']) if j != i), (step, text)
    assert learner.locator('[data-testid=graph-node][data-active=true]').get_attribute('data-label') == 'AccumulateGrad'


def test_every_node_opens_the_inspector(learner):
    run_code(learner, TWO_BACKWARDS)
    nodes = learner.locator('[data-testid=graph-node]')
    labels = learner.eval_on_selector_all('[data-testid=graph-node]', 'els => els.map(e => e.dataset.label)')
    assert {'a', 'b', 'c', 'd', 'e', 'ExpBackward0', '_saved_result'} <= set(labels)
    for i, label in enumerate(labels):
        close = learner.locator('[data-testid=inspector-close]')
        if close.count() and close.is_visible():
            close.click()  # the open inspector covers the nodes on the right
        nodes.nth(i).click()
        assert label in learner.locator('[data-testid=inspector]').inner_text()


def test_share_link_restores_the_code_in_a_fresh_browser(learner, browser):
    code = SNIPPETS['chinese']
    learner.evaluate('(code) => window.playground.setCode(code)', code)
    learner.click('[data-testid=share]')
    learner.wait_for_function('location.hash.startsWith("#code=")')
    link = learner.url
    context = browser.new_context()
    offenders = guard_network(context)
    try:
        other = open_ready(context.new_page(), link)
        assert other.evaluate('window.playground.getCode()') == code
        assert other.locator(OUTPUT).inner_text() == ''  # loaded, never run
        assert 'Press Run' in other.locator('[data-testid=notice]').inner_text()
    finally:
        context.close()
    assert not offenders
