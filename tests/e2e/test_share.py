"""Share links: the code travels in the URL fragment; opening a link restores it without running it;
a broken or hostile fragment is ignored with a notice."""
import re

import pytest
from playwright.sync_api import expect

CODE = 'import torch\n# 分享的代码\na = torch.ones(2, requires_grad=True)\nprint((a * 3).sum())\n'

DECODE = '''async (hash) => {
  const share = await import('./share.js');
  return share.decodeFragment(hash);
}'''

# Fragments built in the page: each must be refused, with the reason given.
HOSTILE = {
    'bad_encoding': "'#code=%%%not*base64'",
    'bad_deflate': "'#code=AAAAAAAA'",
    'too_long': "'#code=' + 'A'.repeat(share.MAX_FRAGMENT_CHARS + 10)",
    'too_large': "await share.encodeCode('x'.repeat(share.MAX_CODE_BYTES + 1))",
    'not_text': "await deflated(new Uint8Array([0xff, 0xfe, 0x00, 0x80]))",
    'control_chars': "await share.encodeCode('print(1)\\u0000\\u0001')",
}


def hostile_fragment(page, kind):
    return page.evaluate(f'''async () => {{
      const share = await import('./share.js');
      const deflated = async (bytes) => {{
        const stream = new Blob([bytes]).stream().pipeThrough(new CompressionStream('deflate-raw'));
        const raw = new Uint8Array(await new Response(stream).arrayBuffer());
        return '#code=' + btoa(String.fromCharCode(...raw)).replace(/\\+/g, '-').replace(/\\//g, '_').replace(/=+$/, '');
      }};
      return {HOSTILE[kind]};
    }}''')


@pytest.fixture
def site(page, flask_url):
    """A page on the Flask site for checks of the modules alone (no need to wait for Python)."""
    page.goto(flask_url)
    return page


def test_encode_decode_round_trip_in_the_browser(site):
    result = site.evaluate('''async (code) => {
      const share = await import('./share.js');
      const hash = await share.encodeCode(code);
      return {hash, decoded: await share.decodeFragment(hash), link: await share.shareLink(code)};
    }''', CODE)
    assert result['hash'].startswith('#code=')
    assert result['decoded'] == {'code': CODE}
    assert result['link'].endswith(result['hash']) and result['link'].count('#') == 1


@pytest.mark.parametrize('hash', ['', '#', '#section-2', '#lang=en'])
def test_fragments_that_are_not_share_links_are_left_alone(site, hash):
    assert site.evaluate(DECODE, hash) is None


@pytest.mark.parametrize('kind', sorted(HOSTILE))
def test_hostile_fragment_is_rejected_with_a_reason(site, kind):
    result = site.evaluate(DECODE, hostile_fragment(site, kind))
    assert 'code' not in result
    assert result['reason'] == ('not_text' if kind == 'control_chars' else kind)
    assert result['error']


def test_opening_a_shared_link_restores_the_code_and_does_not_run_it(playground, ready, flask_url):
    link = playground.evaluate("async (code) => (await import('./share.js')).shareLink(code)", CODE)
    playground.goto('about:blank')
    ready(playground, link)
    assert playground.evaluate('window.playground.getCode()') == CODE
    expect(playground.locator('[data-testid=notice]')).to_be_visible()
    assert 'tensor(' not in playground.locator('[data-testid=output]').inner_text()


def test_share_button_puts_the_code_in_the_address(playground):
    playground.evaluate('(code) => window.playground.setCode(code)', CODE)
    playground.locator('[data-testid=share]').click()
    expect(playground).to_have_url(re.compile('#code='))
    hash = playground.evaluate('location.hash')
    assert playground.evaluate(DECODE, hash) == {'code': CODE}


@pytest.mark.parametrize('kind', ['bad_encoding', 'bad_deflate', 'too_large', 'not_text'])
def test_opening_a_hostile_link_keeps_the_editor_and_shows_a_notice(playground, ready, flask_url, kind):
    fragment = hostile_fragment(playground, kind)
    before = playground.evaluate('window.playground.getCode()')
    playground.goto('about:blank')
    ready(playground, flask_url + fragment)
    expect(playground.locator('[data-testid=notice]')).to_be_visible()
    assert playground.evaluate('window.playground.getCode()') == before
    assert 'Traceback' not in playground.locator('[data-testid=output]').inner_text()


def test_a_share_link_opened_in_a_tab_already_on_the_page_loads_its_code(playground):
    """Only the fragment differs: the browser does not reload, the page hears hashchange and loads the code as a
    fresh load would (a notice, nothing run; the code it replaces stays in the editor's undo history)."""
    link = playground.evaluate("async (code) => (await import('./share.js')).shareLink(code)", CODE)
    playground.evaluate('(code) => window.playground.setCode(code)', 'print("mine")\n')
    playground.wait_for_timeout(600)  # (CodeMirror joins edits less than 500 ms apart into one undo step)
    playground.goto(link)
    expect(playground.locator('[data-testid=notice]')).to_be_visible()
    assert playground.evaluate('window.playground.getCode()') == CODE
    assert playground.locator('body').get_attribute('data-engine') == 'ready'
    assert 'tensor(' not in playground.locator('[data-testid=output]').inner_text()
    playground.locator('.cm-content').click()
    playground.keyboard.press('Control+z')
    assert playground.evaluate('window.playground.getCode()') == 'print("mine")\n'
