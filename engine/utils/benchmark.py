"""torch.utils.benchmark: Timer and the Measurement it gives (the Jacobians and Hessians tutorial times its
transforms with them). The numbers are this machine's, so they differ from run to run, as PyTorch's do."""
import statistics
import sys
import textwrap
import timeit as _timeit



class Measurement:
    """The times of `number_per_run` runs of a statement, per measurement (raw_times) and per run (times)."""

    def __init__(self, number_per_run, raw_times, stmt, setup, label=None, sub_label=None, description=None,
                 num_threads=1):
        self.number_per_run, self.raw_times = number_per_run, list(raw_times)
        self.stmt, self.setup, self.label, self.sub_label = stmt, setup, label, sub_label
        self.description, self.num_threads = description, num_threads

    @property
    def times(self):
        return [t / self.number_per_run for t in self.raw_times]

    @property
    def median(self):
        return statistics.median(self.times)

    @property
    def mean(self):
        return statistics.mean(self.times)

    @property
    def iqr(self):
        if len(self.times) < 2:
            return 0.0
        q = statistics.quantiles(self.times, n=4)
        return q[2] - q[0]

    def __repr__(self):
        lines = [object.__repr__(self), self.label or self.stmt]
        lines += [self.description] if self.description else []
        lines += ['setup: ' + self.setup] if self.setup and self.setup != 'pass' else []
        n = len(self.raw_times)
        lines += ['  ' + _time(self.median), '  %d measurement%s, %d runs , %d thread%s'
                  % (n, 's' if n > 1 else '', self.number_per_run, self.num_threads, 's' if self.num_threads > 1
                     else '')]
        return '\n'.join(lines)


Measurement.__module__ = 'torch.utils.benchmark.utils.common'          # (where PyTorch defines it: its repr)


def _time(seconds):
    """3 significant digits in the unit that suits them (ns, us, ms or s)."""
    for unit, scale in (('ns', 1e-9), ('us', 1e-6), ('ms', 1e-3), ('s', 1.0)):
        if seconds < scale * 1000 or unit == 's':
            value = seconds / scale
            return '%.*f %s' % (max(0, 2 - int(f'{value:e}'.split('e')[1])), value, unit)


class Timer:
    """Times `stmt` (after `setup`) in `globals`, as timeit does."""

    def __init__(self, stmt='pass', setup='pass', global_setup='', timer=_timeit.default_timer, globals=None,
                 label=None, sub_label=None, description=None, env=None, num_threads=1, language='python'):
        self.stmt, self.setup = textwrap.dedent(stmt), textwrap.dedent(setup)
        self._meta = dict(label=label, sub_label=sub_label, description=description, num_threads=num_threads)
        scope = dict(globals or {})
        scope.setdefault('torch', sys.modules[__name__.split('.')[0]])     # (PyTorch's timers see torch too)
        self._timer = _timeit.Timer(self.stmt, self.setup, timer=timer, globals=scope)

    def _measure(self, number, raw):
        return Measurement(number, raw, self.stmt, self.setup, **self._meta)

    def timeit(self, number=1000000):
        return self._measure(number, [self._timer.timeit(number)])

    def blocked_autorange(self, callback=None, min_run_time=0.2):
        number = self._timer.autorange()[0]
        raw, total = [], 0.0
        while total < min_run_time or not raw:
            t = self._timer.timeit(number)
            if callback is not None:
                callback(number, t)
            raw.append(t)
            total += t
        return self._measure(number, raw)

    def adaptive_autorange(self, threshold=0.1, *, min_run_time=0.01, max_run_time=10.0, callback=None):
        return self.blocked_autorange(callback, min_run_time)
