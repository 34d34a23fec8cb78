"""The page in a real browser: it loads, runs a seed snippet exactly as CPython does, and reports PyTorch's errors."""
SEED = '''import torch

x = torch.ones(2, 2, requires_grad=True)
y = x + 2
z = y * y * 3
out = z.mean()
print(y)
print(z, out)
out.backward()
print(x.grad)
print(x.is_leaf, y.is_leaf, y.grad_fn.name())
'''

LEAF_INPLACE = 'import torch\na = torch.ones(2, 2, requires_grad=True)\na += 2\n'
LEAF_ERROR = 'RuntimeError: a leaf Variable that requires grad is being used in an in-place operation.'


def expected_text(code):
    """What the output pane should show for code: the engine's own run on CPython, as text."""
    from engine import _runner
    result = _runner.run(code)
    text = ''.join(chunk['text'] for chunk in result['output'])
    if result['error']:
        text += result['error']['traceback']
    return text


def output_text(page):
    return page.locator('[data-testid=output]').inner_text()


def test_page_reaches_ready(playground, run):
    assert playground.locator('body').get_attribute('data-engine') == 'ready'
    assert playground.locator('[data-testid=run]').is_enabled()
    assert playground.locator('[data-testid=stop]').is_disabled()
    assert playground.evaluate('crossOriginIsolated'), 'the Flask site should be cross-origin isolated (COOP/COEP)'
    assert playground.evaluate("typeof window.playground.run === 'function' && typeof window.playground.getCode")


def test_seed_snippet_prints_what_cpython_prints(playground, run):
    expected = expected_text(SEED)
    assert 'tensor(' in expected and 'Error' not in expected, f'the engine cannot run the seed on CPython:\n{expected}'
    assert run(playground, SEED) == expected


def test_leaf_inplace_error_in_pytorch_words_and_page_stays_usable(playground, run):
    assert LEAF_ERROR in run(playground, LEAF_INPLACE)
    assert playground.locator('body').get_attribute('data-engine') == 'ready'
    assert playground.evaluate('window.playground.getCode()') == LEAF_INPLACE
    assert run(playground, 'print(6 * 7)').strip() == '42'


def test_back_at_ready_the_whole_run_is_on_screen(slow_layout):
    """A script that clicks Run and waits for data-engine=ready finds output, graph and stepper there, even when the
    graph's layout takes a while."""
    slow_layout.evaluate('(code) => window.playground.setCode(code)', SEED)
    slow_layout.click('[data-testid=run]')
    assert slow_layout.locator('body').get_attribute('data-engine') == 'running'
    slow_layout.wait_for_selector('body[data-engine=ready]', state='attached', timeout=60_000)
    assert output_text(slow_layout) == expected_text(SEED)
    labels = slow_layout.eval_on_selector_all('[data-testid=graph-node]', 'els => els.map(e => e.dataset.label)')
    assert {'x', 'y', 'z', 'out', 'MeanBackward0', 'AccumulateGrad'} <= set(labels)
    slow_layout.click('[data-testid=backward-step]')
    assert slow_layout.eval_on_selector_all('[data-testid=graph-node][data-active=true]',
                                            'els => els.map(e => e.dataset.label)') == ['MeanBackward0']


def test_ctrl_enter_runs_the_editor(playground, run):
    playground.evaluate("window.playground.setCode('print(\"from the keyboard\")')")
    playground.locator('.cm-content').click()
    playground.keyboard.press('Control+Enter')
    playground.locator('[data-testid=output]', has_text='from the keyboard').wait_for()
    assert playground.evaluate('window.playground.getCode()') == 'print("from the keyboard")'


def test_output_keeps_stdout_stderr_and_warnings_in_order(playground, run):
    code = 'import sys, warnings\nprint("one")\nprint("two", file=sys.stderr)\nwarnings.warn("three")\nprint("four")\n'
    text = run(playground, code)
    assert text == 'one\ntwo\nmain.py:4: UserWarning: three\n  warnings.warn("three")\nfour\n'
    assert playground.locator('.out-stderr').count() == 1


def test_language_select_switches_the_page(playground, run):
    select = playground.locator('[data-testid=lang]')
    assert sorted(select.locator('option').evaluate_all('os => os.map(o => o.value)')) == ['en', 'zh-CN']
    select.select_option('zh-CN')
    assert playground.locator('html').get_attribute('lang') == 'zh-CN'
    assert playground.locator('[data-testid=run]').inner_text().strip().endswith('运行')
    select.select_option('en')
    assert playground.locator('[data-testid=run]').inner_text().strip().endswith('Run')


def test_plain_static_server_runs_the_same(page, static_url, ready, run):
    ready(page, static_url)
    assert not page.evaluate('crossOriginIsolated')
    assert LEAF_ERROR in run(page, LEAF_INPLACE)
    assert run(page, SEED) == expected_text(SEED)


def test_the_error_stays_in_view_when_its_card_shrinks_the_output(playground, run):
    """The explanation card appears under the output after the run: the output's end (the error) stays visible."""
    code = 'import torch\n' + ''.join(f'print({i})\n' for i in range(12)) \
        + 'a = torch.ones(3, requires_grad=True)\na += 2\n'
    run(playground, code)
    playground.locator('[data-testid=explanation][data-kind=error]').wait_for()
    pane = playground.locator('[data-testid=output]')
    assert pane.evaluate('e => e.scrollHeight > e.clientHeight'), 'the output should overflow for this test'
    assert pane.evaluate('e => e.scrollHeight - e.scrollTop - e.clientHeight') <= 1


def test_an_error_taller_than_the_output_shows_its_message(playground, run):
    """When the traceback does not fit beside the explanation card, the output shows the error's last line (the
    `RuntimeError: ...` message) from its start, not the traceback's first lines with the message cut off."""
    code = ('import torch\na = torch.tensor([1., 2., 3.], requires_grad=True)\nout = a.sigmoid()\nc = out.detach()\n'
            'c.zero_()\nprint(out)\nout.sum().backward()\n')
    run(playground, code)
    playground.locator('[data-testid=explanation][data-kind=error]').wait_for()
    pane = playground.locator('[data-testid=output]')
    top = pane.evaluate('''e => {
        const t = e.querySelector('.out-error').firstChild, at = t.data.lastIndexOf('\\nRuntimeError') + 1;
        const r = document.createRange(); r.setStart(t, at); r.setEnd(t, at + 1);
        return r.getBoundingClientRect().top - e.getBoundingClientRect().top; }''')
    height = pane.evaluate('e => e.clientHeight')
    assert pane.evaluate("e => e.querySelector('.out-error').offsetHeight") > height, 'the error should not fit'
    assert 0 <= top < 40


def test_the_editor_indents_by_four_spaces_or_as_the_code_does(playground):
    """Enter after a line ending in a colon indents by Python's four spaces (pasted notes use four); in code
    indented by two (Colab's), Enter and the new block follow its two."""
    playground.evaluate("window.playground.setCode('')")
    playground.locator('.cm-content').click()
    playground.keyboard.type('for i in range(3):')
    playground.keyboard.press('Enter')
    playground.keyboard.type('print(i)')
    assert playground.evaluate('window.playground.getCode()') == 'for i in range(3):\n    print(i)'
    playground.evaluate("window.playground.setCode('def f(x):\\n  y = x * 2')")
    playground.locator('.cm-content').click()
    playground.keyboard.press('Control+End')
    playground.keyboard.press('Enter')
    playground.keyboard.type('for i in y:')
    playground.keyboard.press('Enter')
    playground.keyboard.type('print(i)')
    assert playground.evaluate('window.playground.getCode()') == 'def f(x):\n  y = x * 2\n  for i in y:\n    print(i)'
