"""torch.amp on a CPU-only build, as tutorials' mixed-precision loops meet it: autocast and GradScaler for 'cuda'
warn that CUDA is not available and turn themselves off (the loop then runs in float32, as PyTorch's does here).
Autocast on the CPU (bfloat16 or float16 kernels) and the CPU GradScaler are not modelled: a clear error."""
import functools
import warnings

from . import _dtypes


def _not_modelled(what):
    return NotImplementedError('%s is not modelled by this engine (it computes in float32 and float64): run without '
                               'it (enabled=False)' % what)


class autocast:
    """torch.autocast(device_type, dtype=None, enabled=True, cache_enabled=None): a context manager and decorator."""
    __module__ = 'torch.amp.autocast_mode'

    def __init__(self, device_type, dtype=None, enabled=True, cache_enabled=None):
        if not isinstance(device_type, str):
            raise ValueError('Expected `device_type` of type `str`, got: `%s`' % type(device_type))
        self.device = _dtypes.device(device_type).type       # (a bad name: torch.device's error)
        self.fast_dtype = dtype
        self._enabled = enabled
        if self.device == 'cuda' and enabled:
            warnings.warn('CUDA is not available or torch_xla is imported. Disabling autocast.', UserWarning,
                          stacklevel=2 if type(self) is autocast else 3)
            self._enabled = False

    def __enter__(self):
        if self._enabled:
            raise _not_modelled('autocast on the CPU')
        return self

    def __exit__(self, *exc):
        return False

    def __call__(self, func):
        @functools.wraps(func)
        def decorated(*args, **kwargs):
            with self:
                return func(*args, **kwargs)
        return decorated


class GradScaler:
    """torch.amp.GradScaler(device='cuda', init_scale=65536.0, growth_factor=2.0, backoff_factor=0.5,
    growth_interval=2000, enabled=True). For 'cuda' it warns and turns itself off, as PyTorch's does without CUDA:
    scale() gives the loss back, step() steps the optimizer, the rest does nothing."""
    __module__ = 'torch.amp.grad_scaler'

    def __init__(self, device='cuda', init_scale=2.0 ** 16, growth_factor=2.0, backoff_factor=0.5,
                 growth_interval=2000, enabled=True):
        self._device = device
        self._enabled = enabled
        if device == 'cuda' and enabled:
            warnings.warn('torch.cuda.amp.GradScaler is enabled, but CUDA is not available.  Disabling.', UserWarning,
                          stacklevel=2 if type(self) is GradScaler else 3)
            self._enabled = False
        if self._enabled:
            raise _not_modelled("GradScaler('%s')" % device)

    def scale(self, outputs):
        return outputs

    def unscale_(self, optimizer):
        return None

    def step(self, optimizer, *args, **kwargs):
        return optimizer.step(*args, **kwargs)

    def update(self, new_scale=None):
        return None

    def get_scale(self):
        return 1.0

    def is_enabled(self):
        return self._enabled

    def state_dict(self):
        return {}

    def load_state_dict(self, state_dict):
        return None

    # (PyTorch's disabled scaler never sets these: asking for them is its AttributeError)
    def get_growth_factor(self):
        return self._growth_factor

    def get_backoff_factor(self):
        return self._backoff_factor

    def get_growth_interval(self):
        return self._growth_interval


def deprecated_for(device):
    """torch.cuda.amp's or torch.cpu.amp's autocast and GradScaler."""
    return (_deprecated(autocast, 'torch.%s.amp.autocast_mode' % device, 'autocast', device),
            _deprecated(GradScaler, 'torch.%s.amp.grad_scaler' % device, 'GradScaler', device))


def _deprecated(cls, module, name, device):
    """torch.cuda.amp.X / torch.cpu.amp.X: torch.amp's X for that device, with PyTorch's FutureWarning (autocast's
    arguments there: enabled, dtype, cache_enabled)."""
    message = '`torch.%s.amp.%s(args...)` is deprecated. Please use `torch.amp.%s(%r, args...)` instead.' % (
        device, name, name, device)

    def __init__(self, *args, **kwargs):
        warnings.warn(message, FutureWarning, stacklevel=2)
        if cls is autocast:
            bound = dict(zip(('enabled', 'dtype', 'cache_enabled'), args), **kwargs)
            cls.__init__(self, device, **bound)
        else:
            cls.__init__(self, device, *args, **kwargs)
    return type(name, (cls,), {'__init__': __init__, '__module__': module})


def is_autocast_available(device_type):
    return device_type in ('cpu', 'cuda')


def is_autocast_enabled(device_type=None):
    """torch.is_autocast_enabled: never, here (autocast for 'cuda' turns itself off; the CPU's is not modelled)."""
    return False
