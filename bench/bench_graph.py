"""Graph view and stepper speed in headless Chromium: time to lay out and draw a 1,000-node autograd graph (goal
<= 1 s) and stepping latency on a 200-node graph, click to highlighted node and values painted (goal <= 50 ms).

    python bench/bench_graph.py [--repeat 5]

Needs the built site (static/vendor/viz.js), Playwright and /usr/bin/chromium."""
import argparse
import functools
import http.server
import json
import statistics
import sys
import threading
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
STATIC = ROOT / 'static'
CHROMIUM_FLAGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
                  '--disable-background-networking', '--disable-component-update', '--disable-sync']

HARNESS = b"""<!doctype html><meta charset="utf-8"><link rel="stylesheet" href="graph.css">
<body style="margin:0"><div id="graph" style="height:700px"></div><div id="stepper"></div>
<script type="module">
import { createGraphView, warmUp } from './graph.js';
import { createStepper } from './stepper.js';
const view = createGraphView(document.getElementById('graph'));
const stepper = createStepper(document.getElementById('stepper'), view);
const painted = () => new Promise((r) => requestAnimationFrame(() => setTimeout(r)));
window.bench = {
  async draw(graph) {
    const copy = JSON.parse(JSON.stringify(graph));  // a new object: no layout cache
    const t0 = performance.now();
    await view.render(copy);
    await painted();
    return { total: performance.now() - t0, ...view.timings };
  },
  async steps(chapters) {
    stepper.load(chapters);
    await stepper.step();  // the first step draws the chapter's graph; time the ones after it
    await painted();
    const button = document.querySelector('[data-testid=backward-step]');
    const times = [];
    while (!button.disabled) {
      const t0 = performance.now();
      button.click();
      const active = document.querySelector('[data-active="true"]');
      if (!active) throw new Error('no active node after a step');
      await painted();
      times.push(performance.now() - t0);
    }
    return times;
  },
};
await warmUp();
document.body.dataset.ready = '1';
</script>"""


class Handler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass

    def do_GET(self):
        if self.path.startswith('/bench.html'):
            self.send_response(200)
            self.send_header('Content-Type', 'text/html')
            self.end_headers()
            self.wfile.write(HARNESS)
        else:
            super().do_GET()


def mlp_code(layers, width=4):
    """A deep stack of small layers: about 9 graph nodes per layer (ops, leaves, AccumulateGrads, saved tensors)."""
    lines = ['import torch', 'torch.manual_seed(0)', f'h = torch.randn(2, {width}, requires_grad=True)']
    for k in range(layers):
        lines.append(f'w{k} = torch.randn({width}, {width}, requires_grad=True)')
        lines.append(f'h = (h @ w{k}).tanh()')
    lines.append('loss = h.sum()')
    lines.append('loss.backward()')
    return '\n'.join(lines) + '\n'


def workload(target_nodes):
    """(graph JSON, chapters) of an MLP-like run whose graph has about target_nodes nodes."""
    from engine import _runner
    layers = 1
    while True:
        result = _runner.run(mlp_code(layers))
        n = len(result['chapters'][0]['graph']['nodes'])
        if n >= target_nodes:
            return result['chapters'][0]['graph'], result['chapters'], n
        layers = max(layers + 1, int(layers * target_nodes / n))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument('--repeat', type=int, default=5)
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright
    big, _, big_n = workload(1000)
    mid, chapters, mid_n = workload(200)
    server = http.server.ThreadingHTTPServer(('127.0.0.1', 0), functools.partial(Handler, directory=str(STATIC)))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    url = f'http://127.0.0.1:{server.server_address[1]}/bench.html'
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path='/usr/bin/chromium', args=CHROMIUM_FLAGS)
        page = browser.new_page(viewport={'width': 1280, 'height': 900})
        page.goto(url)
        page.wait_for_selector('body[data-ready="1"]', state='attached', timeout=60_000)
        phases = [page.evaluate('(g) => window.bench.draw(g)', big) for _ in range(args.repeat)]
        draws = [p['total'] for p in phases]
        drawn = page.locator('[data-testid=graph-node]').count()
        steps = page.evaluate('(c) => window.bench.steps(c)', chapters)
        browser.close()
    server.shutdown()
    print(f'layout + draw, {big_n} nodes ({drawn} drawn), {len(big["links"])} edges: '
          f'first {draws[0]:.0f} ms, median {statistics.median(draws):.0f} ms, max {max(draws):.0f} ms  (goal <= 1000)')
    median = lambda key: statistics.median(p[key] for p in phases)
    print(f'  median phases: layout round trip {median("layout"):.0f} ms (Graphviz in the Worker '
          f'{median("graphviz"):.0f} ms), drawing the SVG {median("draw"):.0f} ms, the rest is style, layout and paint')
    p90 = sorted(steps)[int(len(steps) * 0.9)]
    print(f'stepping on a {mid_n}-node graph, {len(steps)} steps: median {statistics.median(steps):.1f} ms, '
          f'90th percentile {p90:.1f} ms, max {max(steps):.1f} ms  (goal <= 50)')
    print(json.dumps({'draw': phases, 'step_ms': [round(t, 1) for t in steps]}))


if __name__ == '__main__':
    main()
