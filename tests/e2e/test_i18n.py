"""Language: follows the browser, switches with the select, sets <html lang>, and leaves no English in zh-CN."""
import pytest
from playwright.sync_api import expect

from conftest import guard_network

# Words that stay as they are in Chinese UI text: names of tools, keys and formats.
KEEP = {'autograd', 'python', 'numpy', 'pytorch', 'pyodide', 'torch', 'ctrl', 'cmd', 'enter', 'shift', 'space',
        'svg', 'png', 'dot', 'json', 'cpu', 'id', 'dtype', 'grad', 'grad_fn', 'is_leaf', 'requires_grad', 'version'}

# Collect visible UI text that has no Chinese in it but has English words that are not identifiers.
LEFTOVER_ENGLISH = r'''(keep) => {
  const skip = '#editor, .cm-editor, [data-testid=output], [data-testid=lang], code, pre, kbd, script, style, '
    + '[data-testid=graph-node], svg text, .value, [data-i18n-skip]';
  const cjk = /[\u4e00-\u9fff]/;
  const english = (text) => (text.match(/[A-Za-z][A-Za-z0-9_.()'\[\]]*/g) || [])
    .filter((w) => /^[A-Za-z]+$/.test(w) && w.length > 1 && !keep.includes(w.toLowerCase()));
  const found = [];
  const visible = (el) => el.checkVisibility ? el.checkVisibility() : el.offsetParent !== null;
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const el = node.parentElement;
    const text = node.textContent.trim();
    if (!text || cjk.test(text) || el.closest(skip) || !visible(el)) continue;
    if (english(text).length) found.push(text);
  }
  for (const el of document.querySelectorAll('[title], [placeholder], [aria-label]')) {
    if (el.closest(skip) || !visible(el)) continue;
    for (const name of ['title', 'placeholder', 'aria-label']) {
      const text = el.getAttribute(name);
      if (text && !cjk.test(text) && english(text).length) found.push(`${name}=${text}`);
    }
  }
  if (!cjk.test(document.title)) found.push(`document.title=${document.title}`);
  return found;
}'''

SAMPLE = '''import torch
x = torch.ones(2, requires_grad=True)
y = (x * 3).sigmoid()
y.sum().backward()
print(x.grad)
'''


def show_everything(page, run):
    """Fill every pane: a run with a graph, a backward to step through, the inspector, the gallery, a card."""
    run(page, SAMPLE)
    node = page.locator('[data-testid=graph-node]').first
    if node.count():
        node.click()
    toggle = page.locator('[data-testid=gallery-toggle]')
    if toggle.count() and not page.locator('[data-testid=experiment]').first.is_visible():
        toggle.click()


def test_switching_to_chinese_translates_all_ui_text(playground, run):
    show_everything(playground, run)
    playground.locator('[data-testid=lang]').select_option('zh-CN')
    assert playground.locator('html').get_attribute('lang') == 'zh-CN'
    assert playground.evaluate(LEFTOVER_ENGLISH, sorted(KEEP)) == []
    playground.locator('[data-testid=experiment][data-id=leaf-inplace]').click()
    playground.locator('[data-testid=explanation][data-kind=error]').wait_for()
    assert playground.evaluate(LEFTOVER_ENGLISH, sorted(KEEP)) == []


def test_switching_back_to_english_restores_english(playground, run):
    show_everything(playground, run)
    select = playground.locator('[data-testid=lang]')
    title = playground.locator('[data-testid=experiment][data-id=leaf-inplace]')
    select.select_option('zh-CN')
    expect(title).to_contain_text('叶子')
    select.select_option('en')
    assert playground.locator('html').get_attribute('lang') == 'en'
    expect(title).to_contain_text('leaf')
    assert playground.locator('[data-testid=run]').inner_text().strip().endswith('Run')


def test_choice_survives_a_reload(playground, ready, flask_url):
    playground.locator('[data-testid=lang]').select_option('zh-CN')
    ready(playground, flask_url)
    assert playground.locator('html').get_attribute('lang') == 'zh-CN'
    assert playground.locator('[data-testid=lang]').input_value() == 'zh-CN'


@pytest.mark.parametrize('locale, lang', [('zh-CN', 'zh-CN'), ('zh-TW', 'zh-CN'), ('fr-FR', 'en')])
def test_first_visit_follows_the_browser_language(new_context, ready, flask_url, locale, lang):
    context = new_context(locale=locale)
    offenders = guard_network(context)
    page = ready(context.new_page(), flask_url)
    assert page.locator('html').get_attribute('lang') == lang
    assert page.locator('[data-testid=lang]').input_value() == lang
    assert not offenders


@pytest.fixture
def site(page, flask_url):
    """A page on the Flask site for checks of the modules alone (no need to wait for Python)."""
    page.goto(flask_url)
    return page


def test_i18n_module_api(site):
    """t() fills placeholders and falls back to English; applyI18n translates text and attributes."""
    result = site.evaluate('''async () => {
      const i18n = await import('./i18n.js');
      i18n.registerStrings({en: {'test.hello': 'Hello {name}', 'test.only_en': 'English only'},
                            'zh-CN': {'test.hello': '你好 {name}'}});
      i18n.setLang('zh-CN');
      const box = document.createElement('div');
      box.innerHTML = '<span data-i18n="test.hello"></span><input data-i18n-placeholder="test.hello">'
        + '<button data-i18n-title="test.only_en" data-i18n-aria-label="test.hello"></button>';
      i18n.applyI18n(box);
      const seen = [];
      const stop = i18n.onLangChange((lang) => seen.push(lang));
      i18n.setLang('en');
      stop();
      i18n.setLang('zh-CN');
      return {hello: i18n.t('test.hello', {name: 'x'}), fallback: i18n.t('test.only_en'), text: box.textContent,
              placeholder: box.querySelector('input').placeholder, title: box.querySelector('button').title,
              aria: box.querySelector('button').getAttribute('aria-label'), seen, lang: i18n.getLang()};
    }''')
    assert result == {'hello': '你好 x', 'fallback': 'English only', 'text': '你好 {name}', 'placeholder': '你好 {name}',
                      'title': 'English only', 'aria': '你好 {name}', 'seen': ['en'], 'lang': 'zh-CN'}


def test_the_editor_follows_the_language(playground):
    """CodeMirror's accessible name and its own UI text (fold markers) switch language with the page."""
    content = playground.locator('.cm-content')
    fold_titles = lambda: set(playground.eval_on_selector_all('.cm-foldGutter [title]', 'els => els.map((e) => e.title)'))
    playground.evaluate('window.playground.setCode("for i in range(2):\\n    print(i)\\n")')
    assert content.get_attribute('aria-label') == 'Code editor' and 'Fold line' in fold_titles()
    playground.locator('[data-testid=lang]').select_option('zh-CN')
    assert content.get_attribute('aria-label') == '代码编辑器'
    expect(playground.locator('.cm-foldGutter [title="折叠此行"]')).to_have_count(1)
    playground.locator('[data-testid=lang]').select_option('en')
    assert content.get_attribute('aria-label') == 'Code editor' and 'Fold line' in fold_titles()


@pytest.mark.parametrize('width', [768, 1000])
def test_chinese_toolbar_labels_stay_on_one_line_on_a_tablet(playground, width):
    """运行 / 停止 / 分享 in a narrow column: each label one line high, and the code column wide enough to read."""
    playground.set_viewport_size({'width': width, 'height': 1024})
    playground.locator('[data-testid=lang]').select_option('zh-CN')
    for testid in ('run', 'stop', 'share'):
        button = playground.locator(f'[data-testid={testid}]')
        lines = button.evaluate('e => e.getBoundingClientRect().height / parseFloat(getComputedStyle(e).lineHeight)')
        assert lines < 2, (testid, lines)
    assert playground.locator('#editor').bounding_box()['width'] >= 340


def test_the_app_has_one_chinese_name():
    """The page calls itself 演练场; no text calls it 游乐场 (a different word for the same thing)."""
    from pathlib import Path
    static = Path(__file__).parents[2] / 'static'
    for path in [*static.glob('*.js'), *static.glob('*.json'), static / 'index.html']:
        assert '游乐场' not in path.read_text(encoding='utf-8'), path.name
