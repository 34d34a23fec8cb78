"""Page load: bytes a cold load transfers and time to data-engine=ready, against a bare page that only boots
Pyodide and loads numpy, served by the same Flask server in the same browser run; then the same for a warm reload.

    python bench/bench_page_load.py [--rounds 5]
"""
import argparse
import logging
import os
import statistics
import sys
import tempfile
import threading
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from playwright.sync_api import sync_playwright  # noqa: E402
from werkzeug.serving import make_server  # noqa: E402

from web import create_app  # noqa: E402

logging.getLogger('werkzeug').setLevel(logging.ERROR)  # one line per request would bury the results

CHROMIUM = '/usr/bin/chromium'
FLAGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
         '--disable-background-networking', '--disable-component-update', '--disable-sync']

BARE_HTML = '<!doctype html><title>bare</title><body data-engine="loading"><script type="module" src="./bare.js"></script>'
BARE_JS = """const worker = new Worker(new URL('./bare-worker.js', import.meta.url), { type: 'module' });
worker.onmessage = () => { document.body.dataset.engine = 'ready'; };
"""
BARE_WORKER = """import { loadPyodide } from '../pyodide/pyodide.mjs';
const pyodide = await loadPyodide({ indexURL: new URL('../pyodide/', import.meta.url).href });
await pyodide.loadPackage('numpy');
pyodide.runPython('import numpy');
postMessage('ready');
"""
# Runs before the page's own scripts: note when body[data-engine] first says ready.
WATCH_READY = """new MutationObserver((_, observer) => {
  if (document.body?.dataset.engine === 'ready') { window.__readyAt = performance.now(); observer.disconnect(); }
}).observe(document, { attributes: true, subtree: true, attributeFilter: ['data-engine'] });"""


class ByteCounter:
    """WSGI middleware: the bytes of every response body the server sends (compressed, as on the wire)."""

    def __init__(self, app):
        self.app, self.total, self.lock = app, 0, threading.Lock()

    def __call__(self, environ, start_response):
        for chunk in self.app(environ, start_response):
            with self.lock:
                self.total += len(chunk)
            yield chunk

    def take(self):
        with self.lock:
            total, self.total = self.total, 0
        return total


def site_with_bare_page(tmp):
    """A directory serving static/ (by symlinks) plus bare/, so both pages come from one server."""
    for entry in (ROOT / 'static').iterdir():
        os.symlink(entry, Path(tmp) / entry.name)
    bare = Path(tmp) / 'bare'
    bare.mkdir()
    (bare / 'index.html').write_text(BARE_HTML)
    (bare / 'bare.js').write_text(BARE_JS)
    (bare / 'bare-worker.js').write_text(BARE_WORKER)


def time_to_ready(page, url=None):
    """Navigate (or reload) and return ms from navigation start to data-engine=ready."""
    if url:
        page.goto(url)
    else:
        page.reload()
    page.wait_for_selector('body[data-engine=ready]', state='attached', timeout=120_000)
    return page.evaluate('window.__readyAt')


def main():
    parser = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    parser.add_argument('--rounds', type=int, default=5)
    args = parser.parse_args()

    with tempfile.TemporaryDirectory() as tmp:
        site_with_bare_page(tmp)
        counter = ByteCounter(create_app(tmp))
        server = make_server('127.0.0.1', 0, counter, threaded=True)
        threading.Thread(target=server.serve_forever, daemon=True).start()
        base = f'http://127.0.0.1:{server.server_port}/'
        pages = {'bare': base + 'bare/', 'playground': base}
        cold = {name: [] for name in pages}
        warm = {name: [] for name in pages}
        cold_bytes = {}
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
            for _ in range(args.rounds):
                for name, url in pages.items():  # alternate, so drift of the machine hits both alike
                    context = browser.new_context()  # an empty cache: a cold load
                    context.add_init_script(WATCH_READY)
                    page = context.new_page()
                    counter.take()
                    cold[name].append(time_to_ready(page, url))
                    cold_bytes[name] = counter.take()
                    page.wait_for_timeout(300)
                    warm[name].append(time_to_ready(page))
                    context.close()
            browser.close()
        server.shutdown()

    def median(values):
        return statistics.median(values)

    print(f'rounds: {args.rounds} (medians; Chromium headless, Flask on 127.0.0.1, gzip where the server has it)')
    for name in pages:
        print(f'{name:>10}: cold load {cold_bytes[name] / 1e6:6.2f} MB until ready, '
              f'cold {median(cold[name]):7.0f} ms, warm reload {median(warm[name]):7.0f} ms to ready')
    print(f'ratio playground / bare: cold {median(cold["playground"]) / median(cold["bare"]):.2f}x, '
          f'warm {median(warm["playground"]) / median(warm["bare"]):.2f}x  (goal: at most 1.2x)')


if __name__ == '__main__':
    main()
