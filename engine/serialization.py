"""torch.save / torch.load: pickle, with tensors stored as their bytes (a file or a buffer such as io.BytesIO).

What PyTorch 2.6+ loads by default (weights_only=True) is only tensors, dtypes, sizes and plain containers; anything
else (a whole nn.Module, a class of the learner's own) gives PyTorch's "Weights only load failed" error, and loads
with weights_only=False.
"""
import os
import pickle

import numpy as np

from . import _dtypes
from ._tensor import Tensor, Size, _set_on, _user_attributes, _warn_unserialized_hooks

_WEIGHTS_ONLY = (
    'Weights only load failed. This file can still be loaded, to do so you have two options, \x1b[1mdo those steps '
    'only if you trust the source of the checkpoint\x1b[0m. \n\t(1) In PyTorch 2.6, we changed the default value of '
    'the `weights_only` argument in `torch.load` from `False` to `True`. Re-running `torch.load` with `weights_only` '
    'set to `False` will likely succeed, but it can result in arbitrary code execution. Do it only if you got the '
    'file from a trusted source.\n\t(2) Alternatively, to load with `weights_only=True` please check the recommended '
    'steps in the following error message.\n\tWeightsUnpickler error: Unsupported global: GLOBAL %s was not an '
    'allowed global by default. Please use `torch.serialization.add_safe_globals([%s])` or the '
    '`torch.serialization.safe_globals([%s])` context manager to allowlist this global if you trust this '
    'class/function.\n\nCheck the documentation of torch.load to learn more about types accepted by default with '
    'weights_only https://pytorch.org/docs/stable/generated/torch.load.html.')
_SAFE = {('collections', 'OrderedDict'), ('collections', 'Counter'), ('torch', 'device'), ('builtins', 'set'),
         ('builtins', 'complex'), ('builtins', 'bytearray'), ('_codecs', 'encode')}


_USER_SAFE = []             # what add_safe_globals allowed: classes and functions, or (object, 'module.name') pairs


def add_safe_globals(safe_globals):
    """Let weights_only loading take these classes or functions (or (object, 'module.name') pairs) too."""
    _USER_SAFE.extend(safe_globals)


def get_safe_globals():
    return list(_USER_SAFE)


def clear_safe_globals():
    _USER_SAFE.clear()


class safe_globals:
    """add_safe_globals inside a with block only."""

    def __init__(self, safe_globals):
        self.safe_globals = list(safe_globals)

    def __enter__(self):
        _USER_SAFE.extend(self.safe_globals)

    def __exit__(self, *exc):
        for g in self.safe_globals:
            _USER_SAFE.remove(g)


def _user_safe_names():
    return {g[1] if isinstance(g, tuple) else '%s.%s' % (g.__module__, g.__qualname__) for g in _USER_SAFE}


class _Pickler(pickle.Pickler):
    """Tensors, dtypes, sizes and the engine's classes go out as persistent ids (plain tuples of str and bytes)."""

    def __init__(self, f, protocol):
        super().__init__(f, protocol=protocol)
        self.memories = set()           # (address, size) of the memories written so far

    def persistent_id(self, obj):
        if isinstance(obj, Tensor):
            # As PyTorch's: a tensor's memory (all of it, written once however many tensors show it, so views saved
            # together share it again when loaded), offset, sizes, strides, requires_grad and the attributes set on
            # it; not its .grad, grad_fn or hooks (a warning for each hook, but not for a Parameter's).
            is_param = type(obj).__name__ == 'Parameter'
            if not is_param:
                _warn_unserialized_hooks(obj, 2)
            flat = obj._memory()
            memory = (flat.__array_interface__['data'][0], flat.nbytes)
            data = None if memory in self.memories else flat.tobytes()
            self.memories.add(memory)
            return ('tensor', id(obj), is_param, obj.dtype.name, memory, data, obj.storage_offset(), tuple(obj.shape),
                    obj.stride(), obj._requires_grad, _user_attributes(obj))
        if isinstance(obj, _dtypes.dtype):
            return ('dtype', obj.name)
        if isinstance(obj, Size):
            return ('size', tuple(obj))
        if isinstance(obj, type) and (obj.__module__ or '').startswith('torch'):
            return ('global', obj.__module__, obj.__qualname__)
        return None


class _Unpickler(pickle.Unpickler):
    def __init__(self, f, weights_only):
        super().__init__(f)
        self.weights_only, self.tensors, self.memories = weights_only, {}, {}

    def _refuse(self, name):
        raise pickle.UnpicklingError(_WEIGHTS_ONLY % (name, name, name))

    def find_class(self, module, name):
        if self.weights_only and (module, name) not in _SAFE and module + '.' + name not in _user_safe_names():
            self._refuse(module + '.' + name)
        return super().find_class(module, name)

    def persistent_load(self, pid):
        kind = pid[0]
        if kind == 'tensor':
            key, is_param, dtype, memory, data, offset, size, stride, requires_grad, attributes = pid[1:]
            if key not in self.tensors:
                if data is not None:
                    self.memories[memory] = np.frombuffer(data, np.uint8).copy()
                dtype = _dtype_named(dtype)
                t = _set_on(self.memories[memory].view(dtype.np), dtype, offset, size, stride,
                            requires_grad and not is_param)
                if is_param:
                    from .nn.parameter import Parameter
                    t = Parameter(t, requires_grad)
                t.__dict__.update(attributes)
                self.tensors[key] = t
            return self.tensors[key]
        if kind == 'dtype':
            return _dtype_named(pid[1])
        if kind == 'size':
            return Size(pid[1])
        module, name = pid[1:]
        if self.weights_only and (module, name) not in _SAFE:
            self._refuse(module + '.' + name)
        import engine
        for space in (engine.nn, engine, engine.optim, engine.utils.data):
            if hasattr(space, name):
                return getattr(space, name)
        raise pickle.UnpicklingError("Can't get attribute '%s' on <module '%s'>" % (name, module))


def _dtype_named(name):
    """The engine's dtype of that name (float32, bool, ...): the object itself, as saved ones load."""
    return next(d for d in vars(_dtypes).values() if isinstance(d, _dtypes.dtype) and d.name == name)


def save(obj, f, pickle_module=None, pickle_protocol=2, _use_new_zipfile_serialization=True):
    """Write `obj` (tensors, a state_dict, containers of them, even modules) to a file name or a writable buffer."""
    if isinstance(f, (str, os.PathLike)):
        parent = os.path.dirname(os.fspath(f))
        if parent and not os.path.isdir(parent):
            raise RuntimeError('Parent directory %s does not exist.' % parent)
        with open(f, 'wb') as fh:
            return save(obj, fh)
    if not hasattr(f, 'write'):
        raise AttributeError("expected 'f' to be string, path, or a file-like object with a 'write' attribute")
    _Pickler(f, protocol=pickle.DEFAULT_PROTOCOL).dump(obj)


def load(f, map_location=None, pickle_module=None, *, weights_only=None, mmap=None, **pickle_load_args):
    """Read back what save wrote (weights_only=True by default, as in PyTorch 2.6+)."""
    if isinstance(f, (str, os.PathLike)):
        with open(f, 'rb') as fh:
            return load(fh, map_location, weights_only=weights_only)
    try:
        return _Unpickler(f, weights_only is not False).load()
    except EOFError:
        if weights_only is False:
            raise
        raise EOFError() from None      # (PyTorch's weights-only unpickler says nothing when the input runs out)

