"""torch.save / torch.load in PyTorch's format: a zip archive of a pickle (data.pkl) and the bytes of each storage
(a file or a buffer such as io.BytesIO), so that files move between the engine and PyTorch.

What PyTorch 2.6+ loads by default (weights_only=True) is only tensors, dtypes, sizes and plain containers; anything
else (a whole nn.Module, a class of the learner's own) gives PyTorch's "Weights only load failed" error, and loads
with weights_only=False.
"""
import collections
import io
import os
import pickle
import warnings

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


class _Global:
    """A name that pickle writes as a GLOBAL: PyTorch's own name for what the engine has under another."""
    __slots__ = ('module', 'name')

    def __init__(self, module, name):
        self.module, self.name = module, name

    def __call__(self, *args):          # (pickle writes only callables as a REDUCE's function; never called)
        raise TypeError('%s.%s is written to a file, not called' % (self.module, self.name))


_GLOBALS = {}


def _global(module, name):
    """The one _Global of that name (pickle memoizes it: written once, then fetched, as PyTorch's are)."""
    return _GLOBALS.setdefault((module, name), _Global(module, name))


_STORAGES = {'float32': 'Float', 'float64': 'Double', 'float16': 'Half', 'bfloat16': 'BFloat16', 'int64': 'Long',
             'int32': 'Int', 'int16': 'Short', 'int8': 'Char', 'uint8': 'Byte', 'bool': 'Bool',
             'complex64': 'ComplexFloat', 'complex128': 'ComplexDouble'}


class _Pickler(pickle._Pickler):
    """data.pkl as torch.save writes it (pickle protocol 2): a tensor as torch._utils._rebuild_tensor_v2 of a
    storage (a persistent id naming a record of the archive, written once however many tensors view it), its offset,
    sizes, strides and requires_grad; a Parameter through _rebuild_parameter; dtypes, sizes and devices and the
    engine's classes under PyTorch's names. (Python's own pickler, whose globals can be written as named.)"""

    def __init__(self, f):
        super().__init__(f, protocol=2, fix_imports=False)
        self.storages = {}              # (address, size) of a memory -> (its record's key, the memory)

    def reducer_override(self, obj):
        if type(obj) is _Global:
            return obj.name                 # (a global: save_global writes it)
        if isinstance(obj, Tensor):
            attributes = _user_attributes(obj)
            if type(obj).__name__ == 'Parameter':
                data = obj.detach()
                if attributes:
                    return (_global('torch._utils', '_rebuild_parameter_with_state'),
                            (data, obj.requires_grad, collections.OrderedDict(), attributes))
                return _global('torch._utils', '_rebuild_parameter'), (data, obj.requires_grad,
                                                                       collections.OrderedDict())
            _warn_unserialized_hooks(obj, 4)
            args = (self.storage(obj), obj.storage_offset(), tuple(obj.shape), obj.stride(), obj.requires_grad,
                    collections.OrderedDict())
            if attributes:
                return (_global('torch._tensor', '_rebuild_from_type_v2'),
                        (_global('torch._utils', '_rebuild_tensor_v2'), _global('torch', 'Tensor'), args, attributes))
            return _global('torch._utils', '_rebuild_tensor_v2'), args
        if isinstance(obj, Size):
            return _global('torch', 'Size'), (tuple(obj),)
        if isinstance(obj, _dtypes.device):
            # (a string of its own: one pickle shares with 'cpu' of a storage is written once and fetched after)
            return _global('torch', 'device'), (str(obj).encode().decode(),)
        if isinstance(obj, _dtypes.dtype):
            return obj.name                 # (a global too: torch.float32)
        return NotImplemented

    def storage(self, t):
        """The persistent id of t's memory: ('storage', its storage class, its record's key, 'cpu', its length)."""
        flat = t._memory()
        memory = (flat.__array_interface__['data'][0], flat.nbytes)
        if memory not in self.storages:
            self.storages[memory] = (str(len(self.storages)), flat)
        key = self.storages[memory][0]
        return _PersistentId(('storage', _global('torch', _STORAGES[t.dtype.name] + 'Storage'), key, 'cpu',
                              flat.nbytes // t.element_size()))

    def persistent_id(self, obj):
        return obj.pid if type(obj) is _PersistentId else None

    def save_global(self, obj, name=None):
        if isinstance(obj, _dtypes.dtype):
            obj = _global('torch', obj.name)
        if isinstance(obj, _Global) or (getattr(obj, '__module__', None) or '').startswith('torch'):
            module, name = (obj.module, obj.name) if isinstance(obj, _Global) else (obj.__module__, obj.__qualname__)
            self.write(pickle.GLOBAL + module.encode() + b'\n' + name.encode() + b'\n')
            self.memoize(obj)
            return
        super().save_global(obj, name)


class _PersistentId:
    __slots__ = ('pid',)

    def __init__(self, pid):
        self.pid = pid


# What a weights-only load takes besides plain containers (PyTorch's allowlist, as far as the engine saves things)
_SAFE |= {('torch._utils', '_rebuild_tensor_v2'), ('torch._utils', '_rebuild_parameter'),
          ('torch._utils', '_rebuild_parameter_with_state'), ('torch._tensor', '_rebuild_from_type_v2'),
          ('torch', 'Tensor'), ('torch', 'Size'), ('torch.nn.parameter', 'Parameter')}
_SAFE |= {('torch', kind + 'Storage') for kind in _STORAGES.values()}
_SAFE |= {('torch', name) for name in _STORAGES}


def _rebuild_tensor_v2(storage, offset, size, stride, requires_grad, backward_hooks, metadata=None):
    memory, dtype = storage
    return _set_on(memory.view(dtype.np), dtype, offset, size, stride, requires_grad)


def _rebuild_parameter(data, requires_grad, backward_hooks, state=None):
    from .nn.parameter import Parameter
    p = Parameter(data, requires_grad)
    p.__dict__.update(state or {})
    return p


def _rebuild_from_type_v2(func, new_type, args, state):
    t = func(*args)
    t.__dict__.update(state)
    return t


_REBUILDERS = {('torch._utils', '_rebuild_tensor_v2'): _rebuild_tensor_v2,
               ('torch._utils', '_rebuild_parameter'): _rebuild_parameter,
               ('torch._utils', '_rebuild_parameter_with_state'): _rebuild_parameter,
               ('torch._tensor', '_rebuild_from_type_v2'): _rebuild_from_type_v2}


class _Unpickler(pickle.Unpickler):
    """data.pkl read back, its storages from the archive's records."""

    def __init__(self, f, weights_only, map_location=None, records=None):
        super().__init__(f)
        self.weights_only, self.map_location, self.records, self.memories = (weights_only, map_location, records,
                                                                             {})

    def check_location(self):
        """Where map_location sends a tensor saved on the CPU: refused as a CPU-only PyTorch refuses it (a function
        given as map_location is not called: the tensor stays on the CPU)."""
        where = self.map_location
        if isinstance(where, dict):
            where = where.get('cpu', 'cpu')
        if where is None or callable(where) and not isinstance(where, (str, _dtypes.device)):
            return
        if not isinstance(where, (str, _dtypes.device)):
            raise TypeError("'%s' object is not callable" % type(where).__name__)
        where = str(where)
        if where.startswith('cuda'):
            raise RuntimeError("Attempting to deserialize object on a CUDA device but torch.cuda.is_available() is "
                               "False. If you are running on a CPU-only machine, please use torch.load with "
                               "map_location=torch.device('cpu') to map your storages to the CPU.")
        if where == 'mps':
            raise RuntimeError('torch.UntypedStorage(): Storage device not recognized: mps')
        if where != 'cpu':
            raise RuntimeError("don't know how to restore data location of torch.storage.UntypedStorage (tagged with "
                               "%s)" % where)

    def _check(self, module, name):
        """Refuse a global that weights-only loading does not take (a builtin named without its module)."""
        if self.weights_only and (module, name) not in _SAFE and module + '.' + name not in _user_safe_names():
            shown = name if module == 'builtins' else module + '.' + name
            raise pickle.UnpicklingError(_WEIGHTS_ONLY % (shown, shown, shown))

    def find_class(self, module, name):
        self._check(module, name)
        if (module, name) in _REBUILDERS:
            return _REBUILDERS[module, name]
        if module == 'torch' and name.endswith('Storage') and name[:-7] in _STORAGES.values():
            return _dtype_named(next(d for d, kind in _STORAGES.items() if kind == name[:-7]))
        if module == 'torch' or module.startswith('torch.'):
            return _engine_global(module, name)
        return super().find_class(module, name)

    def persistent_load(self, pid):
        kind, dtype, key, location, numel = pid
        if key not in self.memories:
            self.check_location()
            self.memories[key] = np.frombuffer(self.records(key), np.uint8).copy()
        return self.memories[key], dtype


def _dtype_named(name):
    """The engine's dtype of that name (float32, bool, ...): the object itself, as saved ones load."""
    return next(d for d in vars(_dtypes).values() if isinstance(d, _dtypes.dtype) and d.name == name)


def _engine_global(module, name):
    """The engine's object for PyTorch's module.name (torch.nn.modules.linear.Linear is the engine's nn.Linear)."""
    import importlib
    import engine
    try:
        return getattr(importlib.import_module('engine' + module[len('torch'):]), name)
    except (ImportError, AttributeError):
        for space in (engine.nn, engine, engine.optim, engine.utils.data):
            if hasattr(space, name):
                return getattr(space, name)
    raise AttributeError("Can't get attribute '%s' on <module '%s'>" % (name, module))


def save(obj, f, pickle_module=None, pickle_protocol=2, _use_new_zipfile_serialization=True):
    """Write `obj` (tensors, a state_dict, containers of them, even modules) to a file name or a writable buffer, in
    PyTorch's format: a zip archive of data.pkl and one record per storage, which real PyTorch loads."""
    if isinstance(f, (str, os.PathLike)):
        path = os.fspath(f)
        parent = os.path.dirname(path)
        if parent and not os.path.isdir(parent):
            raise RuntimeError('Parent directory %s does not exist.' % parent)
        base = os.path.basename(path)
        with open(f, 'wb') as fh:
            return _write_archive(obj, fh, base[:base.rfind('.')] if '.' in base else base)
    if not hasattr(f, 'write'):
        raise AttributeError("expected 'f' to be string, path, or a file-like object with a 'write' attribute")
    _write_archive(obj, f, 'archive')


def _write_archive(obj, f, name):
    """The records in PyTorch's order, stored uncompressed, each one's bytes starting at a multiple of 64."""
    import struct
    import zipfile                      # (here, not at the page's start-up: zipfile imports bz2, lzma, shutil)
    buf = io.BytesIO()
    pickler = _Pickler(buf)
    pickler.dump(obj)
    records = [('data.pkl', buf.getvalue()), ('.format_version', b'1'), ('.storage_alignment', b'64'),
               ('byteorder', b'little')]
    records += [('data/' + key, memory.tobytes()) for key, memory in pickler.storages.values()]
    records += [('version', b'3\n'), ('.data/serialization_id', ''.join(str(b % 10) for b in os.urandom(40)).encode())]
    with zipfile.ZipFile(f, 'w', zipfile.ZIP_STORED) as archive:
        for record, data in records:
            info = zipfile.ZipInfo('%s/%s' % (name, record), date_time=(1980, 0, 0, 0, 0, 0))
            try:
                at = archive.fp.tell() + 30 + len(info.filename.encode()) + 4
                info.extra = b'FB' + struct.pack('<H', -at % 64) + b'Z' * (-at % 64)
            except (AttributeError, OSError):       # (a stream that cannot tell its position: no padding)
                pass
            archive.writestr(info, data)


_MAGIC_NUMBER = 0x1950a86a20f9469cfc6c          # (the first object of a file in PyTorch's format before 1.6)
_CORRUPT_ZIP = ('PytorchStreamReader failed reading zip archive: failed finding central directory. This is an internal '
                'miniz error. If you are seeing this error, there is a high likelihood that your checkpoint file is '
                'corrupted. This can happen if the checkpoint was not saved properly, was transferred incorrectly, or '
                'the file was modified after saving.')
_UNSUPPORTED = (
    'Weights only load failed. In PyTorch 2.6, we changed the default value of the `weights_only` argument in '
    '`torch.load` from `False` to `True`. Re-running `torch.load` with `weights_only` set to `False` will likely '
    'succeed, but it can result in arbitrary code execution. Do it only if you got the file from a trusted source.\n'
    'Please file an issue with the following so that we can make `weights_only=True` compatible with your use case: '
    'WeightsUnpickler error: \n\n%s\n\nCheck the documentation of torch.load to learn more about types accepted by '
    'default with weights_only https://pytorch.org/docs/stable/generated/torch.load.html.')
# the pickle opcodes PyTorch's weights-only unpickler reads
_OPCODES = set(b'\x80c\x81Rbaeus(t\x85\x86\x87N\x89\x88)]}\x8fJKMGX\x8dUQhjqr\x8a.CB')


def load(f, map_location=None, pickle_module=None, *, weights_only=None, mmap=None, **pickle_load_args):
    """Read back a file in PyTorch's format (weights_only=True by default, as in PyTorch 2.6+)."""
    if pickle_module is not None and weights_only:
        raise RuntimeError('Can not safely load weights when explicit pickle_module is specified')
    if pickle_module is not None and weights_only is None:      # (a pickle module of one's own: full pickle)
        weights_only = False
    if isinstance(f, (str, os.PathLike)):
        with open(f, 'rb') as fh:
            return load(fh, map_location, pickle_module, weights_only=weights_only)
    if mmap:
        raise ValueError('f must be a file path in order to use the mmap argument')
    if not hasattr(f, 'seek'):
        raise AttributeError("'%s' object has no attribute 'seek'. You can only torch.load from a file that is "
                             "seekable. Please pre-load the data into a buffer like io.BytesIO and try to load from it "
                             "instead." % type(f).__name__)
    start = f.tell()
    is_zip = f.read(4) == b'PK\x03\x04'
    f.seek(start)
    weights_only = weights_only is not False
    if not is_zip:
        return _load_legacy(f, weights_only)
    import zipfile
    try:
        archive = zipfile.ZipFile(f)
    except zipfile.BadZipFile:
        raise RuntimeError(_CORRUPT_ZIP) from None
    names = archive.namelist()
    prefix = names[0][:names[0].index('/') + 1] if names and '/' in names[0] else ''
    return _unpickled(_Unpickler(io.BytesIO(archive.read(prefix + 'data.pkl')), weights_only, map_location,
                                 lambda key: archive.read(prefix + 'data/' + key)))


def _unpickled(unpickler):
    """What the unpickler reads; a weights-only one's running out of input is a bare EOFError, as PyTorch's."""
    try:
        return unpickler.load()
    except EOFError:
        if not unpickler.weights_only:
            raise
        raise EOFError() from None


def _load_legacy(f, weights_only):
    """A file that is no zip archive: PyTorch reads it in its format before 1.6, which starts with a magic number
    (not read here); anything else fails as it fails there."""
    if weights_only:
        head = f.read(3)
        f.seek(-len(head), 1)
        if head[:1] == b'\x80' and len(head) > 1 and head[1] > 2:
            warnings.warn('Detected pickle protocol %d in the checkpoint, which was not the default pickle protocol '
                          'used by `torch.load` (2). The weights_only Unpickler might not support all instructions '
                          'implemented by this protocol, please file an issue for adding support if you encounter '
                          'this.' % head[1], stacklevel=3)
            head = head[2:]
        if head and head[0] not in _OPCODES:
            raise pickle.UnpicklingError(_UNSUPPORTED % ('Unsupported operand %d' % head[0]))
    try:
        magic = _unpickled(_Unpickler(f, weights_only))
    except pickle.UnpicklingError as e:
        if weights_only and str(e).startswith('Memo value not found at index '):
            raise KeyError(int(str(e).rsplit(' ', 1)[1])) from None
        raise
    if magic != _MAGIC_NUMBER:
        raise RuntimeError('Invalid magic number; corrupt file?')
    raise RuntimeError('This file is in the format of PyTorch before 1.6, which Autograd Playground does not read: '
                       'save it again with a newer PyTorch.')
