"""What the page's runner adds to a run: engine._runner.run(code) (output captured, every backward() recorded as a
chapter with its graph and steps, the final graph exported) against a plain exec of the same code, on CPython.
The browser's Pyodide runs the same Python, about 2-4 times slower.

    python bench/bench_runner.py [--repeat 5]

Each sample starts from an empty value-text memo (engine.graph._MEMO), as the first run of a code in a fresh page
does; the minimum of the samples is shown."""
import argparse
import contextlib
import io
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import engine  # noqa: E402
from engine import _runner, graph  # noqa: E402

SNIPPETS = {
    'notes: sigmoid, detach().zero_()': """import torch
x = torch.tensor([1., 2., 3.], requires_grad=True)
a = torch.sigmoid(x)
a.detach().zero_()
try:
    a.sum().backward()
except RuntimeError as e:
    print(e)
""",
    'training loop: 200 epochs, 3-8-1 MLP': """import torch
import torch.nn as nn
torch.manual_seed(0)
X = torch.randn(100, 3)
y = X @ torch.tensor([1., -2., 3.]) + 0.5
model = nn.Sequential(nn.Linear(3, 8), nn.ReLU(), nn.Linear(8, 1))
opt = torch.optim.SGD(model.parameters(), lr=0.05)
loss_fn = nn.MSELoss()
for epoch in range(200):
    opt.zero_grad()
    loss = loss_fn(model(X).squeeze(1), y)
    loss.backward()
    opt.step()
    if epoch % 50 == 0:
        print(epoch, loss.item())
""",
    'chain: 300 x tanh on 200x200': """import torch
x = torch.randn(200, 200, requires_grad=True)
y = x
for i in range(300):
    y = (y * 1.001).tanh()
y.sum().backward()
""",
}


def plain(code):
    sys.modules['torch'] = engine
    try:
        with contextlib.redirect_stdout(io.StringIO()):          # (the runner captures the output too)
            exec(compile(code, 'main.py', 'exec'), {'__name__': '__main__'})
    finally:
        del sys.modules['torch']


def sample(fn, code):
    graph._MEMO.clear()
    start = time.perf_counter()
    fn(code)
    return time.perf_counter() - start


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument('--repeat', type=int, default=5)
    args = parser.parse_args()
    print(f"{'snippet':40} {'plain ms':>9} {'runner ms':>10} {'ratio':>6} {'chapters':>9} {'result KB':>10}")
    for name, code in SNIPPETS.items():
        result = _runner.run(code)
        assert result['error'] is None, result['error']
        bare = min(sample(plain, code) for _ in range(args.repeat))
        recorded = min(sample(_runner.run, code) for _ in range(args.repeat))
        size = len(_runner.run_json(code)) / 1e3
        print(f"{name:40} {bare * 1e3:9.1f} {recorded * 1e3:10.1f} {recorded / bare:6.2f} "
              f"{len(result['chapters']):>4} of {result['calls']:<3} {size:10.0f}")


if __name__ == '__main__':
    main()
