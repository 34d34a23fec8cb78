"""End-to-end fixtures: the Flask site and a plain static server of static/, Debian's Chromium, a network guard."""
import functools
import http.server
import threading
from pathlib import Path
from urllib.parse import urlsplit

import pytest

STATIC = Path(__file__).resolve().parents[2] / 'static'
CHROMIUM = '/usr/bin/chromium'
CHROMIUM_FLAGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
                  '--disable-background-networking', '--disable-component-update', '--disable-sync']
LOCAL_HOSTS = {'127.0.0.1', 'localhost', '[::1]', '::1'}
READY_TIMEOUT_MS = 90_000


def require_built_site():
    if not (STATIC / 'pyodide' / 'pyodide-lock.json').exists():
        pytest.skip('static/pyodide has not been built: run `python build.py` first')


def is_local(url):
    """True for same-machine URLs (and data:/blob:/about: which fetch nothing)."""
    parts = urlsplit(url)
    return parts.scheme in ('data', 'blob', 'about') or parts.hostname in LOCAL_HOSTS


def serve_in_thread(server):
    threading.Thread(target=server.serve_forever, daemon=True).start()
    host, port = server.server_address[:2]
    return f'http://{host}:{port}/'


@pytest.fixture(scope='session')
def flask_url():
    """The playground served by the project's Flask app (COOP/COEP: cross-origin isolated)."""
    require_built_site()
    from werkzeug.serving import make_server
    from web import create_app
    server = make_server('127.0.0.1', 0, create_app(), threaded=True)
    yield serve_in_thread(server)
    server.shutdown()


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


@pytest.fixture(scope='session')
def static_url():
    """static/ served by Python's http.server with no special headers (not cross-origin isolated)."""
    require_built_site()
    handler = functools.partial(_QuietHandler, directory=str(STATIC))
    server = http.server.ThreadingHTTPServer(('127.0.0.1', 0), handler)
    yield serve_in_thread(server)
    server.shutdown()


@pytest.fixture(scope='session')
def browser_type_launch_args(browser_type_launch_args):
    """Debian's Chromium (Playwright's own browser download does not work here), quiet on the network."""
    return {**browser_type_launch_args, 'executable_path': CHROMIUM, 'args': CHROMIUM_FLAGS}


def guard_network(context):
    """Abort and record every request to another host; returns the list of offending URLs."""
    offenders = []

    def block(route):
        offenders.append(route.request.url)
        route.abort()

    context.route(lambda url: not is_local(url), block)
    context.on('request', lambda request: None if is_local(request.url) else offenders.append(request.url))
    return offenders


@pytest.fixture
def context(new_context):
    """pytest-playwright's context with the network guard: the test fails if anything leaves 127.0.0.1."""
    ctx = new_context()
    offenders = guard_network(ctx)
    yield ctx
    if offenders:
        pytest.fail(f'requests left the machine: {sorted(set(offenders))}')


def open_ready(page, url):
    """Navigate to the playground and wait until Python, numpy and the engine are loaded."""
    page.goto(url)
    # A selector, not wait_for_function: the page's CSP forbids the eval that a JS predicate needs.
    page.wait_for_selector('body[data-engine=ready]', state='attached', timeout=READY_TIMEOUT_MS)
    return page


def run_code(page, code):
    """Put code in the editor, run it through window.playground.run() and return the output pane's text."""
    page.evaluate('(code) => window.playground.setCode(code)', code)
    page.evaluate('''() => Promise.race([window.playground.run(), new Promise((_, reject) =>
        setTimeout(() => reject(new Error('playground.run() did not resolve within 60 s')), 60_000))])''')
    return page.locator('[data-testid=output]').inner_text()


@pytest.fixture
def playground(page, flask_url):
    """A page on the Flask site already at data-engine=ready."""
    return open_ready(page, flask_url)


@pytest.fixture
def ready():
    """open_ready(page, url) for tests that open a page themselves (another server, a reload)."""
    return open_ready


@pytest.fixture
def run():
    """run(page, code) -> the output pane's text once the run's output and graph are on screen."""
    return run_code


LAYOUT_REPLY = 'self.postMessage({ id: data.id, plain'  # where graph.js, as the layout Worker, answers


@pytest.fixture
def slow_layout(page, flask_url):
    """The playground with every Graphviz layout answered 300 ms late, as on a busy machine."""
    def delay(route):
        response = route.fetch()
        body = response.text()
        assert LAYOUT_REPLY in body, 'graph.js changed: update LAYOUT_REPLY'
        body = body.replace(LAYOUT_REPLY, f'await new Promise((r) => setTimeout(r, 300)); {LAYOUT_REPLY}')
        route.fulfill(response=response, body=body)

    page.route('**/graph.js', delay)
    return open_ready(page, flask_url)
