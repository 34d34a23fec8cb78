"""The engine against PyTorch on the same autograd workloads: median times and engine/torch ratios.

    python bench/bench_engine.py            # full run (a few minutes)
    python bench/bench_engine.py --quick    # smoke run: small sizes, one sample

Each library is timed in a process of its own (this script runs itself with --serve): importing PyTorch creates
about 160,000 Python objects, which every full garbage collection in the engine's process would walk, and its
OpenMP threads keep spinning after its ops. The processes take their samples in turn. See bench/README.md for the
goals and the matmul row.
"""
import argparse
import functools
import importlib.util
import itertools
import json
import math
import os
import statistics
import subprocess
import sys
import time

import numpy as np

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
sys.path.insert(0, ROOT)
engine = torch = None       # imported by the process that times them


class Value:
    """A micrograd-style scalar (same data layout and per-op work), written here as the per-op baseline.

    Unlike micrograd it sorts the graph iteratively, so deep chains do not hit the recursion limit.
    """

    def __init__(self, data, children=(), op=""):
        self.data, self.grad = data, 0.0
        self._backward = lambda: None
        self._prev, self._op = set(children), op

    def __add__(self, other):
        other = other if isinstance(other, Value) else Value(other)
        out = Value(self.data + other.data, (self, other), "+")

        def backward():
            self.grad += out.grad
            other.grad += out.grad
        out._backward = backward
        return out

    def __mul__(self, other):
        other = other if isinstance(other, Value) else Value(other)
        out = Value(self.data * other.data, (self, other), "*")

        def backward():
            self.grad += other.data * out.grad
            other.grad += self.data * out.grad
        out._backward = backward
        return out

    def backward(self):
        order, visited, stack = [], set(), [(self, False)]
        while stack:
            node, expanded = stack.pop()
            if expanded:
                order.append(node)
            elif node not in visited:
                visited.add(node)
                stack.append((node, True))
                stack.extend((child, False) for child in node._prev)
        self.grad = 1.0
        for node in reversed(order):
            node._backward()


# ---------------------------------------------------------------- workloads
# Each takes the library (`engine` or `torch`) and a size, builds its inputs untimed, and returns the
# function to time. All run forward and backward.

def chain(lib, n, leaf=None):
    """n times `x = x * 1.0001 + 0.0001` on a 1-element tensor (2n ops), then backward. `leaf` makes the start
    instead of lib.tensor (micrograd's Value)."""
    leaf = leaf or (lambda: lib.tensor([1.0], requires_grad=True))

    def run():
        x0 = leaf()
        x = x0
        for _ in range(n):
            x = x * 1.0001 + 0.0001
        x.backward()
        return x0.grad
    return run


def long_chain(lib, n):
    """A chain n ops deep (`x = x * 1.00001`): backward must not recurse."""
    def run():
        x0 = lib.tensor([1.0], requires_grad=True)
        x = x0
        for _ in range(n):
            x = x * 1.00001
        x.backward()
        return x0.grad
    return run


def sum_tree(lib, leaves):
    """Pairwise adds of `leaves` scalar leaves down to one, then backward (grads accumulate across runs)."""
    xs = [lib.tensor(1.0, requires_grad=True) for _ in range(leaves)]

    def run():
        level = xs
        while len(level) > 1:
            level = [level[i] + level[i + 1] for i in range(0, len(level), 2)]
        level[0].backward()
    return run


def mlp_step(lib, batch, sizes=(784, 128, 10)):
    """One SGD step of a 784-128-10 ReLU MLP with a softmax cross-entropy built from exp/sum/log."""
    rng = np.random.default_rng(0)
    x = lib.tensor(rng.standard_normal((batch, sizes[0])).astype(np.float32).tolist())
    y = lib.tensor(np.eye(sizes[2], dtype=np.float32)[rng.integers(0, sizes[2], batch)].tolist())
    params = []
    for fan_in, fan_out in itertools.pairwise(sizes):
        w = rng.standard_normal((fan_in, fan_out)).astype(np.float32) / math.sqrt(fan_in)
        params += [lib.tensor(w.tolist(), requires_grad=True), lib.zeros(fan_out, requires_grad=True)]
    w1, b1, w2, b2 = params

    def run():
        hidden = (x @ w1 + b1).relu()
        logits = hidden @ w2 + b2
        p = logits.exp()
        p = p / p.sum(1, keepdim=True)
        loss = -(y * p.log()).sum() / batch
        loss.backward()
        with lib.no_grad():
            for w in params:
                w -= 0.01 * w.grad
                w.grad = None
        return loss
    return run


def matmul(lib, n):
    """C = A @ B for n x n float32 matrices, then backward with a given output gradient."""
    rng = np.random.default_rng(0)
    a, b, g = (rng.standard_normal((n, n)).astype(np.float32) for _ in range(3))
    if lib is torch:
        a, b, g = torch.from_numpy(a), torch.from_numpy(b), torch.from_numpy(g)
    else:
        a, b, g = engine.from_numpy(a), engine.from_numpy(b), engine.from_numpy(g)
    a.requires_grad_()
    b.requires_grad_()

    def run():
        a.grad = b.grad = None
        (a @ b).backward(g)
    return run


# ---------------------------------------------------------------- timing

def sampler(fn, min_sample=0.02):
    """A function taking one sample of fn's wall time per call. A sample runs fn as many times as fill min_sample
    seconds (sub-millisecond workloads are otherwise lost in timer and scheduler noise), after a quarter as many
    calls untimed (at least one), which wake the library's threads and fill the caches again after the other
    library's turn. The number of calls is counted after a first call, which can be much slower than the rest
    (PyTorch's first MLP step took 8.5 ms, its next ones 0.5: counted from the first, its samples lasted 1 ms)."""
    fn()
    calls, start = 0, time.perf_counter()
    while time.perf_counter() - start < min_sample:
        fn()
        calls += 1
    warm = max(1, calls // 4)

    def sample():
        for _ in range(warm):
            fn()
        start = time.perf_counter()
        for _ in range(calls):
            fn()
        return (time.perf_counter() - start) / calls
    return sample


def blas_info():
    """Which BLAS kernel numpy runs, and the OpenBLAS variables that can slow it."""
    env = {k: os.environ[k] for k in ("OPENBLAS_CORETYPE", "OPENBLAS_L2_SIZE") if k in os.environ}
    try:
        from threadpoolctl import threadpool_info
    except ImportError:
        return f"threadpoolctl not installed; OpenBLAS env: {env or 'unset'}"
    pools = [f"{p.get('internal_api')} {p.get('version')} {p.get('architecture')} x{p.get('num_threads')}"
             for p in threadpool_info()]
    return f"{'; '.join(pools) or 'no BLAS pool'}; OpenBLAS env: {env or 'unset'}"


def limit_threads(n):
    """Give both libraries the same number of threads."""
    if torch is not None:
        torch.set_num_threads(n)
    try:
        from threadpoolctl import threadpool_limits
    except ImportError:
        sys.exit("--threads needs threadpoolctl (pip install threadpoolctl)")
    limit_threads.keep = threadpool_limits(n)  # the limit lasts while this object lives


def workloads(quick):
    n_chain, n_long, n_leaves, n_mat = (100, 2_000, 256, 128) if quick else (1_000, 100_000, 4_096, 1_024)
    return n_chain, [
        (f"1-element chain, {2 * n_chain} ops", lambda lib: chain(lib, n_chain), 0.5),
        (f"{n_long:,}-op chain", lambda lib: long_chain(lib, n_long), 0.5),
        (f"sum tree, {n_leaves:,} leaves", lambda lib: sum_tree(lib, n_leaves), 0.5),
        ("MLP step 784-128-10, batch 64", lambda lib: mlp_step(lib, 64), 1.0),
        (f"matmul {n_mat}x{n_mat} fwd+bwd", lambda lib: matmul(lib, n_mat), 1.05),
    ]


def serve(name, args):
    """In a child process: import one library, then answer the parent's requests on stdin, a line each: a workload's
    index -> one sample of it (JSON seconds per call; the workload is built and warmed up on its first request)."""
    global engine, torch
    n_chain, rows = workloads(args.quick)
    if name == "micrograd":                   # the per-op baseline: plain Python, no numpy in the loop
        try:
            from micrograd.engine import Value as value
            sys.setrecursionlimit(max(sys.getrecursionlimit(), 8 * n_chain))     # its topological sort recurses
            which = "micrograd 0.1.0 (the package)"
        except ImportError:
            value, which = Value, "micrograd-style Value (micrograd not installed)"
        make = {0: lambda: chain(None, n_chain, lambda: value(1.0))}
        info = {"which": which}
    else:
        lib = importlib.import_module(name)
        if name == "torch":
            torch = lib
        else:
            engine = lib
        if args.threads:
            limit_threads(args.threads)
        make = {i: functools.partial(build, lib) for i, (_, build, _) in enumerate(rows)}
        info = {"version": lib.__version__, "threads": torch.get_num_threads() if torch else None,
                "blas": blas_info()}
    print(json.dumps(info), flush=True)
    samplers = {}
    for line in sys.stdin:
        i = int(line)
        if i not in samplers:
            samplers[i] = sampler(make[i]())
        print(json.dumps(samplers[i]()), flush=True)


def cpu_seconds(pid):
    """The CPU time all threads of process pid have used (Linux's /proc/<pid>/task/*/schedstat, in ns), or None."""
    try:
        total = 0
        for task in os.listdir(f"/proc/{pid}/task"):
            with open(f"/proc/{pid}/task/{task}/schedstat") as f:
                total += int(f.read().split()[0])
        return total / 1e9
    except (OSError, ValueError, IndexError):
        return None


def wait_until_idle(children, window=0.01, limit=1.0):
    """Wait until the other libraries' processes have stopped using the CPU, at most `limit` seconds. After its ops
    a library's worker threads keep spinning for a while (here OpenBLAS's ~0.1 s at a full core, libgomp's ~10 ms
    for PyTorch): without this wait they take CPU from the next sample, which is the other library's. Where /proc
    does not tell, a fixed pause."""
    pids = [c.proc.pid for c in children]
    start = time.perf_counter()
    used = [cpu_seconds(pid) for pid in pids]
    if None in used:
        time.sleep(0.25)
        return
    while time.perf_counter() - start < limit:
        time.sleep(window)
        now = [cpu_seconds(pid) for pid in pids]
        if None in now or sum(now) - sum(used) < 0.05 * window:
            return
        used = now


class Child:
    """A library's timing process (see serve)."""

    def __init__(self, name, args):
        argv = [sys.executable, os.path.abspath(__file__), "--serve", name] + (["--quick"] if args.quick else [])
        argv += [f"--threads={args.threads}"] if args.threads else []
        self.name, self.samples = name, {}
        self.proc = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, cwd=ROOT)
        self.info = self.answer()

    def answer(self):
        line = self.proc.stdout.readline()
        if not line:
            sys.exit(f"the {self.name} process ended early (exit status {self.proc.wait()})")
        return json.loads(line)

    def sample(self, i, others):
        wait_until_idle(others)
        self.proc.stdin.write(f"{i}\n")
        self.proc.stdin.flush()
        self.samples.setdefault(i, []).append(self.answer())

    def close(self):
        self.proc.stdin.close()
        self.proc.wait()


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="smoke run: small sizes, one sample each")
    parser.add_argument("--repeat", type=int, default=None, help="timed samples per workload and library (default 21)")
    parser.add_argument("--threads", type=int, default=None,
                        help="cap PyTorch's and numpy's BLAS threads (1 gives steadier numbers on a busy machine)")
    parser.add_argument("--only", metavar="WORDS", default=None,
                        help="run only the workloads whose name contains WORDS (e.g. --only MLP)")
    parser.add_argument("--serve", choices=("engine", "torch", "micrograd"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.serve:
        return serve(args.serve, args)
    n_chain, rows = workloads(args.quick)
    picked = [i for i, (name, _, _) in enumerate(rows) if args.only is None or args.only.lower() in name.lower()]
    if not picked:
        sys.exit(f"no workload's name contains {args.only!r}: " + ", ".join(name for name, _, _ in rows))
    repeat = args.repeat or (1 if args.quick else 21)
    children = [Child(name, args) for name in ("engine", "torch", "micrograd")
                if name == "micrograd" or importlib.util.find_spec(name) is not None]
    eng, tor, micro = (next((c for c in children if c.name == name), None) for name in ("engine", "torch", "micrograd"))
    # Samples taken in turn, the libraries' order alternating, so that a slow spell of a shared machine (its speed
    # swings up to 2x from minute to minute) falls on all of them alike.
    for i in picked:
        takers = [c for c in children if c is not micro or i == 0]
        for r in range(repeat):
            for child in takers[::-1] if r % 2 else takers:
                child.sample(i, [c for c in children if c is not child])
    for child in children:
        child.close()

    def pooled(child, i):
        """(median, min) seconds per call of workload i."""
        if child is None:
            return None, None
        return statistics.median(child.samples[i]), min(child.samples[i])

    print(f"engine {eng.info['version']} | torch {tor.info['version'] if tor else 'absent'} | "
          f"numpy {np.__version__} | Python {sys.version.split()[0]}")
    print(f"BLAS: {eng.info['blas']}")
    if tor:
        print(f"torch threads: {tor.info['threads']}")
    print(f"{repeat} samples per workload and library, each library in its own process, the samples taken in turn; "
          "a sample lasts at least 20 ms.\nms per call: the median of the samples (the fastest in brackets); "
          "'met' judges the ratio of the medians; 'paired' is the median ratio of samples taken one after the "
          "other.\n")
    header = f"{'workload':32} {'engine ms':>17} {'torch ms':>17} {'ratio':>13} {'paired':>6} {'goal':>5}  "
    print(header + "met")
    print("-" * (len(header) + 3))
    for i in picked:
        name, _, goal = rows[i]
        (e, e_min), (t, t_min) = pooled(eng, i), pooled(tor, i)
        if t:
            paired = statistics.median(a / b for a, b in zip(eng.samples[i], tor.samples[i]))
            cells = f"{t * 1e3:9.2f} ({t_min * 1e3:7.2f}) {e / t:5.2f} ({e_min / t_min:5.2f}) {paired:6.2f}"
            met = "yes" if e / t <= goal else "NO"
        else:
            cells, met = f"{'-':>17} {'-':>13} {'-':>6}", "-"
        print(f"{name:32} {e * 1e3:9.2f} ({e_min * 1e3:7.2f}) {cells} {goal:5.2f}  {met}")

    if 0 not in picked:
        return
    ops = 2 * n_chain
    (e, _), (t, _), (m, _) = pooled(eng, 0), pooled(tor, 0), pooled(micro, 0)
    print("\nper-op cost on the 1-element chain (forward + backward), us/op, medians:")
    print(f"  engine {e / ops * 1e6:7.2f}   torch {t / ops * 1e6 if t else float('nan'):7.2f}   "
          f"{micro.info['which']} {m / ops * 1e6:7.2f}   goal: engine <= micrograd")


if __name__ == "__main__":
    main()
