"""torch.profiler (and torch.autograd.profiler): record_function labels a region, as tutorials write it around a
model's forward; it records nothing here. The profiler itself (its tables are timings of PyTorch's kernels) is not
modelled: a clear error."""
import contextlib
import enum


class record_function(contextlib.ContextDecorator):
    """A labelled region of code (a context manager and a decorator); the engine has no profiler to tell."""
    __module__ = 'torch.autograd.profiler'

    def __init__(self, name, args=None):
        self.name, self.args = name, args

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False


class ProfilerActivity(enum.Enum):
    CPU, XPU, MTIA, CUDA, HPU, PrivateUse1 = range(6)


ProfilerActivity.__module__ = 'torch._C._profiler'


class profile:
    __module__ = 'torch.profiler.profiler'

    def __init__(self, *args, **kwargs):
        raise NotImplementedError("torch.profiler's tables time PyTorch's kernels, which this engine does not run: "
                                  'the profiler is not modelled (time code with time.perf_counter())')


class _autograd_profile(profile):
    __module__ = 'torch.autograd.profiler'
    __qualname__ = __name__ = 'profile'
