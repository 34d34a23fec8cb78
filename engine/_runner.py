"""What the playground's worker calls: run a learner's code, capture its output, export its graph and backward steps."""
import ast
import collections
import importlib
import io
import json
import linecache
import os
import re
import sys
import traceback
import types
import warnings

FILENAME = 'main.py'
_ENGINE_DIR = os.path.dirname(os.path.abspath(__file__))
# Exceptions PyTorch itself raises; any other type escaping from engine code is a bug of ours.
_TORCH_ERRORS = (RuntimeError, TypeError, ValueError, IndexError, NotImplementedError, MemoryError,
                 KeyboardInterrupt, ZeroDivisionError, OverflowError, StopIteration)


class _Capture:
    """Ordered stdout/stderr chunks, capped at max_lines lines and max_chars characters. `live(stream, text)`, if
    given, gets the kept text as it is written (the page shows it while the code runs), a line at a time: a piece
    that does not end a line waits for the next write (print() writes its text, then its end), so each printed line
    costs one message to the page. A failing `live` is dropped rather than break the user's code.

    With tail_lines, the last tail_lines of those lines are the end of the output rather than more of its start
    (a long training loop keeps its final loss): what is dropped is then the middle, and the notice stands there."""

    def __init__(self, max_lines, max_chars, live=None, tail_lines=0):
        self.live = live
        self.held = None    # (stream, text) written but not yet given to live: it does not end a line
        self.entries = []
        tail_lines = min(tail_lines, max_lines)
        tail_chars = max_chars * tail_lines // max_lines if max_lines else 0
        self.room_lines, self.room_chars = max_lines - tail_lines, max_chars - tail_chars
        self.more_lines = 0
        self.open_tail = False  # the last dropped text ended mid-line
        self.tail = _Tail(tail_lines, tail_chars) if tail_lines else None

    def write(self, stream, text):
        if self.room_lines > 0 and self.room_chars > 0:
            keep = text[:self.room_chars]
            cut = -1
            for _ in range(self.room_lines):
                cut = keep.find('\n', cut + 1)
                if cut < 0:
                    break
            else:
                keep = keep[:cut + 1]
            self.room_lines -= keep.count('\n')
            self.room_chars -= len(keep)
            if self.entries and self.entries[-1][0] == stream:
                self.entries[-1][1].append(keep)
            else:
                self.entries.append((stream, [keep]))
            if self.live is not None and keep:
                self._go_live(stream, keep)
            text = text[len(keep):]
            if self.room_chars <= 0:
                self.room_lines = 0
        if text and self.tail is not None:
            dropped = self.tail.write(stream, text)
            if self.live is not None and not self.tail.dropped:
                self._go_live(stream, text)     # (live until the middle starts being dropped)
            text = dropped
        if text:
            self.more_lines += text.count('\n')
            self.open_tail = not text.endswith('\n')

    def _go_live(self, stream, text):
        held, self.held = self.held, None
        try:
            if held and held[0] == stream:
                text = held[1] + text
            elif held:
                self.live(*held)
            if text.endswith('\n'):
                self.live(stream, text)
            else:
                self.held = stream, text
        except Exception:
            self.live = None

    def result(self):
        out = [{'stream': s, 'text': ''.join(parts)} for s, parts in self.entries]
        more = self.more_lines + self.open_tail
        if more:
            if out and not out[-1]['text'].endswith('\n'):
                out[-1]['text'] += '\n'
            out.append({'stream': 'stderr', 'text': f'... {more} more line{"s" * (more != 1)}\n', 'notice': True,
                        'omitted': more})
        for stream, text in self.tail.pieces if self.tail is not None else ():
            if out and out[-1]['stream'] == stream and not out[-1].get('notice'):
                out[-1]['text'] += text
            else:
                out.append({'stream': stream, 'text': text})
        return out


class _Tail:
    """The last max_lines lines (and max_chars characters) written, as (stream, text) pieces of at most one line;
    write() returns what falls out of it, for the count of dropped lines."""

    def __init__(self, max_lines, max_chars):
        self.max_lines, self.max_chars = max_lines, max_chars
        self.pieces = collections.deque()
        self.lines = self.chars = 0   # complete lines held (the last piece may be an open one), characters held
        self.dropped = False

    def write(self, stream, text):
        for piece in re.findall(r'[^\n]*\n|[^\n]+', text):
            self.pieces.append((stream, piece))
            self.lines += piece.endswith('\n')
            self.chars += len(piece)
        out = []
        while self.pieces and (self.lines + (not self.pieces[-1][1].endswith('\n')) > self.max_lines
                               or self.chars > self.max_chars):
            stream, piece = self.pieces.popleft()
            self.lines -= piece.endswith('\n')
            self.chars -= len(piece)
            out.append(piece)
        self.dropped = self.dropped or bool(out)
        return ''.join(out)


class _Stream(io.TextIOBase):
    """A file-like stdout or stderr that feeds one _Capture."""

    def __init__(self, capture, name):
        self._capture, self.name = capture, name

    def writable(self):
        return True

    def write(self, text):
        self._capture.write(self.name, str(text))
        return len(text)


class _Recorder:
    """Collects each backward()/grad() call of a run as a chapter: the graph at its start and its steps.

    Recording must never break the user's code: the first failure switches it off and is kept in `failure`.
    """

    def __init__(self, graph, namespace, ids, max_chapters, max_steps):
        self.graph, self.namespace, self.ids = graph, namespace, ids
        self.max_chapters, self.max_steps = max_chapters, max_steps
        self.chapters = []
        self.calls = 0       # backward()/grad() calls in all, recorded or not
        self.failure = None
        self._G = None
        self.rebound = set()   # the names the code rebinds (set by run: see _earlier_leaves)

    def _guard(self, record, *args):
        if self.failure is None:
            try:
                record(*args)
            except Exception as e:
                self.failure, self._G = f'{type(e).__name__}: {e}', None

    def begin(self, call, roots):
        self.calls += 1
        self._guard(self._begin, call, roots)

    def step(self, step):
        self._guard(self._step, step)

    def end(self, error):
        self._guard(self._end, error)

    def _begin(self, call, roots):
        graph = self.graph
        self._G = None
        if len(self.chapters) >= self.max_chapters:
            return
        named = _named_tensors(self.namespace)
        self._G = graph.build_graph(named, roots=tuple(roots), ids=self.ids, labels=_parameter_names(self.namespace),
                                    earlier=_earlier_leaves(named, self.rebound))
        self.chapters.append({'call': call, 'graph': graph.to_json(self._G), 'steps': [], 'error': None})

    def _step(self, step):
        if self._G is not None and len(self.chapters[-1]['steps']) < self.max_steps:
            self.chapters[-1]['steps'].append(self.graph.step_to_json(step, self.ids))

    def _end(self, error):
        if self._G is not None and error is not None:
            chapter_error = {'type': type(error).__name__, 'message': str(error), 'node': None, 'saved': None}
            self.chapters[-1]['error'] = chapter_error
            chapter_error.update(self.graph.error_to_json(error, self._G))
        self._G = None


def _named_tensors(namespace):
    """The tensors bound to the user's public names, in definition order."""
    from engine import Tensor
    return {k: v for k, v in list(namespace.items()) if isinstance(v, Tensor) and not k.startswith('_')}


def _parameter_names(namespace):
    """`model.0.weight` for each parameter of a module bound to a public name (as torchviz's
    make_dot(params=dict(model.named_parameters()))): how the graph labels them where it reaches them."""
    from engine.nn import Module
    labels = {}
    for k, v in list(namespace.items()):
        if isinstance(v, Module) and not k.startswith('_'):
            try:
                for name, p in v.named_parameters():
                    labels.setdefault(id(p), f'{k}.{name}')
            except AttributeError:          # (a module whose __init__ did not call Module.__init__)
                pass
    return labels


def _empty_graph():
    return {'directed': True, 'multigraph': True, 'graph': {}, 'nodes': [], 'links': []}


def _graph_module():
    """engine.graph, or None where it cannot be imported (the run then reports an empty graph)."""
    try:
        return importlib.import_module('engine.graph')
    except ImportError:
        return None


def _export_graph(graph, namespace, ids, rebound=frozenset()):
    """The graph of the user's named tensors as (node-link JSON, DOT text, failure or None); empty when unavailable."""
    if graph is None:
        return _empty_graph(), '', None
    try:
        named = _named_tensors(namespace)
        G = graph.build_graph(named, ids=ids, labels=_parameter_names(namespace),
                              earlier=_earlier_leaves(named, rebound))
        return graph.to_json(G), graph.to_dot(G), None
    except BaseException as e:  # even an interrupt landing here must not lose the user's output
        return _empty_graph(), '', f'{type(e).__name__}: {e}'


def _rebound_names(code):
    """The names the code binds again to an expression that uses them: `a = a + 2`."""
    try:
        tree = ast.parse(code)
    except (SyntaxError, ValueError):
        return set()
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Assign):
            used = {n.id for n in ast.walk(node.value) if isinstance(n, ast.Name)}
            names.update(t.id for t in node.targets if isinstance(t, ast.Name) and t.id in used)
    return names


def _earlier_leaves(named, rebound, limit=2000):
    """id(leaf) -> name for the unnamed leaves that the graph of a rebound name's tensor reaches: what `a` was
    before `a = a + 2` (the open question of the notes: that leaf is still in the graph, the new `a` is not one)."""
    bound = {id(t) for t in named.values()}
    earlier = {}
    for name in sorted(rebound & named.keys()):
        todo, seen = [named[name]._grad_fn], set()
        while todo and len(seen) < limit:
            fn = todo.pop()
            if fn is None or id(fn) in seen:
                continue
            seen.add(id(fn))
            leaf = getattr(fn, 'variable', None)
            if leaf is not None:
                if id(leaf) not in bound:
                    earlier.setdefault(id(leaf), name)
                continue
            todo.extend(getattr(fn, '_fns', ()))
    return earlier


def _in_engine(filename):
    path = os.path.abspath(filename)
    return os.path.dirname(path) == _ENGINE_DIR and os.path.basename(path) != '_runner.py'


def _on_purpose(frames):
    """Whether the innermost frame raised the error with a statement of its own (`raise`, or `assert` as PyTorch's
    Python asserts): torch.testing's AssertionError, a node's read-only attribute, not Python failing in it."""
    if not frames or not _in_engine(frames[-1].filename):
        return False
    return (frames[-1].line or '').lstrip().startswith(('raise ', 'assert '))


def _user_frames_only(te):
    """Trim a TracebackException (and its chained causes) to the frames of the user's code."""
    seen = set()
    while te is not None and id(te) not in seen:
        seen.add(id(te))
        te.stack = traceback.StackSummary.from_list([f for f in te.stack if f.filename == FILENAME])
        _user_frames_only(te.__cause__)
        te = te.__context__


def _is_out_of_memory(exc):
    """MemoryError, or numpy's refusal of an array larger than a 32-bit (wasm) address space."""
    return isinstance(exc, MemoryError) or (isinstance(exc, ValueError) and (
        str(exc).startswith('array is too big') or str(exc).startswith('Maximum allowed dimension exceeded')))


_GAPS = [  # (error type, its message: the module (the engine's own name for it, in an ImportError) and the name)
    (AttributeError, re.compile(r"module '(?P<module>torch[\w.]*)' has no attribute '(?P<name>\w+)'")),
    (AttributeError, re.compile(r"'(?:Tensor|Parameter)' object has no attribute '(?P<name>\w+)'")),
    (ImportError, re.compile(r"cannot import name '(?P<name>\w+)' from '(?:torch|engine)(?P<submodule>[\w.]*)'.*")),
]


def _pytorch_gap(exc):
    """'torch.fft', 'torch.Tensor.stft': what the user's code asked of PyTorch that PyTorch 2.13 has and the engine
    lacks (a gap of the playground, not a typo of the learner's), from the error it got; else None."""
    from engine import _torch_names
    if isinstance(exc, ModuleNotFoundError):
        module, _, name = (exc.name or '').rpartition('.')
    else:
        found = [m for kind, pattern in _GAPS if isinstance(exc, kind) for m in [pattern.fullmatch(str(exc))] if m]
        if not found:
            return None
        parts = found[0].groupdict()
        module = parts.get('module') or ('torch' + parts['submodule'] if 'submodule' in parts else 'torch.Tensor')
        name = parts['name']
    return module + '.' + name if _torch_names.pytorch_has(module, name) else None


def _describe(exc):
    """The error dict of the result for an exception raised by the user's code."""
    if isinstance(exc, SyntaxError) and exc.filename == FILENAME and exc.__traceback__ is not None \
            and all(f.filename != FILENAME for f in traceback.extract_tb(exc.__traceback__)):
        te = traceback.TracebackException.from_exception(exc)
        te.stack = traceback.StackSummary.from_list([])
        return {'type': type(exc).__name__, 'message': exc.msg, 'line': exc.lineno,
                'traceback': ''.join(te.format()), 'internal': False}
    frames = traceback.extract_tb(exc.__traceback__)
    user = [i for i, f in enumerate(frames) if f.filename == FILENAME]
    line = frames[user[-1]].lineno if user else None
    beyond = frames[user[-1] + 1:] if user else frames
    internal = (any(_in_engine(f.filename) for f in beyond) and not isinstance(exc, _TORCH_ERRORS)
                and not _on_purpose(beyond))
    te = traceback.TracebackException.from_exception(exc)
    if not internal:
        _user_frames_only(te)
    name, message = type(exc).__qualname__, str(exc)
    lines = list(te.format())
    if _is_out_of_memory(exc):
        name, message = 'MemoryError', message or 'out of memory'
        lines[-1] = f'MemoryError: {message}\n'
    return {'type': name, 'message': message, 'line': line, 'traceback': ''.join(lines), 'internal': internal,
            'missing': _pytorch_gap(exc)}


def _show_warning(message, category, filename, lineno, file=None, line=None):
    sys.stderr.write(warnings.formatwarning(message, category, filename, lineno, line))


def _settings(engine):
    """What a program can set for the rest of its process (grad mode, anomaly detection, the default dtype, print
    options, ...), to be put back after a run: each run starts as a fresh Python process would, not from what the
    last run left (a top-level `torch.set_grad_enabled(False)` would otherwise hold in every later run)."""
    ag = engine._autograd
    values = [(ag, name, getattr(ag, name)) for name in ('grad_mode', 'grad_enabled', 'inference_enabled', 'anomaly',
                                                          'anomaly_check_nan', 'saved_hooks_disabled',
                                                          'multithreading_enabled', 'stale_meta')]
    values.append((engine._dtypes, 'default_float', engine._dtypes.default_float))
    values.append((ag.RemovableHandle, 'next_id', 0))      # (a fresh process numbers its hook handles from 0)
    kept = [(c, c.copy()) for c in (ag.saved_hooks, engine._printing._opts, engine._misc.settings)]

    def restore():
        for module, name, value in values:
            setattr(module, name, value)
        for container, copy in kept:
            container.clear()
            (container.extend if isinstance(container, list) else container.update)(copy)
    return restore


def run(code: str, max_output_lines=2000, max_output_chars=1_000_000, max_chapters=10, max_steps=5000,
        live=None, tail_lines=0) -> dict:
    """Execute code as __main__ with `torch` bound to the engine; return output, error, graph and backward chapters.
    live(stream, text), if given, is called with each piece of output as it is printed; the last tail_lines of
    max_output_lines are the output's end (see _Capture)."""
    import engine
    capture = _Capture(max_output_lines, max_output_chars, live, tail_lines)
    module = types.ModuleType('__main__')
    module.__file__ = FILENAME
    namespace = module.__dict__
    graph = _graph_module()
    ids = graph.NodeIds() if graph else None  # one id map per run: the graph and every chapter agree on ids
    recorder = _Recorder(graph, namespace, ids, max_chapters, max_steps)
    recorder.rebound = _rebound_names(code)
    linecache.cache[FILENAME] = (len(code), None, code.splitlines(True), FILENAME)
    saved = sys.stdout, sys.stderr, sys.stdin, sys.modules.get('__main__'), sys.modules.get('torch')
    # (real PyTorch's submodules, should this process have imported it, as a test run may: `import torch.nn` in the
    # code must find the engine's, as in the browser; they are put back after)
    foreign = {name: mod for name, mod in sys.modules.items()
               if name.startswith('torch.') and not getattr(mod, '__name__', '').startswith(engine.__name__)}
    set_recorder = getattr(sys.modules.get('engine._autograd'), 'set_recorder', None) if ids else None
    restore_settings = _settings(engine)
    error = None
    try:
        sys.stdout, sys.stderr = _Stream(capture, 'stdout'), _Stream(capture, 'stderr')
        sys.stdin = io.StringIO('')
        sys.modules['__main__'], sys.modules['torch'] = module, engine
        for name in foreign:
            del sys.modules[name]
        if set_recorder:
            set_recorder(recorder)
        with warnings.catch_warnings():
            warnings.simplefilter('default')
            warnings.showwarning = _show_warning
            engine._tensor._warned.clear()         # each run is a fresh process: PyTorch's once-warnings show again
            try:
                exec(compile(code, FILENAME, 'exec'), namespace)
            except SystemExit as e:
                if e.code not in (None, 0):
                    error = _describe(e)
            except BaseException as e:
                error = _describe(e)
    finally:
        restore_settings()
        if set_recorder:
            set_recorder(None)
        sys.stdout, sys.stderr, sys.stdin = saved[:3]
        for name, mod in (('__main__', saved[3]), ('torch', saved[4])):
            if mod is None:
                sys.modules.pop(name, None)
            else:
                sys.modules[name] = mod
        for name in [name for name, mod in sys.modules.items() if name.startswith('torch.') and
                     getattr(mod, '__name__', '').startswith(engine.__name__)]:
            del sys.modules[name]       # (the run's `import torch.nn` aliases: found again by the next run)
        sys.modules.update(foreign)
    node_link, dot, graph_failure = _export_graph(graph, namespace, ids, recorder.rebound)
    return {'output': capture.result(), 'error': error, 'graph': node_link, 'dot': dot, 'chapters': recorder.chapters,
            'calls': recorder.calls, 'problems': [p for p in (graph_failure, recorder.failure) if p]}


def run_json(code: str, max_output_lines=2000, live=None, tail_lines=0) -> str:
    """run() as a JSON string, the form the browser worker passes to the page."""
    return json.dumps(run(code, max_output_lines=max_output_lines, live=live, tail_lines=tail_lines), default=str)
