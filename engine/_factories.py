"""Creating tensors: torch.tensor, ones, zeros, arange, range, randn, the legacy FloatTensor family..."""
import builtins
import math
import sys
import warnings

import numpy as np

from . import _autograd as ag
from . import _dtypes as dt
from ._tensor import Tensor, make, Size

_rng = np.random.default_rng(0)


class Generator:
    """What torch.manual_seed returns; values differ from PyTorch's RNG (only the seeding is the same idea)."""

    def __init__(self, seed=0):
        self._seed = seed

    def initial_seed(self):
        return self._seed

    def manual_seed(self, seed):
        return manual_seed(seed)

    def __repr__(self):
        return '<torch._C.Generator object at %#x>' % id(self)


default_generator = Generator()


def manual_seed(seed):
    global _rng
    seed = builtins.int(seed)
    _rng = np.random.default_rng(seed & 0xFFFFFFFFFFFFFFFF)
    default_generator._seed = seed
    return default_generator


def seed():
    s = builtins.int(np.random.SeedSequence().entropy) & 0xFFFFFFFFFFFFFFFF
    manual_seed(s)
    return s


def initial_seed():
    return default_generator._seed


# ------------------------------------------------------------------------------------------------ helpers

def _size(size):
    """Sizes given as ints, a tuple/list/Size, or size=... ."""
    if len(size) == 1 and isinstance(size[0], (tuple, list, Size)):
        size = tuple(size[0])
    out = []
    for s in size:
        if isinstance(s, Tensor):
            s = s.item()
        if not isinstance(s, (builtins.int, np.integer)) or isinstance(s, builtins.bool):
            raise TypeError('%s(): argument \'size\' (position 1) must be tuple of ints, but found element of type '
                            '%s at pos 0' % ('ones', type(s).__name__))
        if s < 0:
            raise RuntimeError('Trying to create tensor with negative dimension %d: [%s]'
                               % (s, ', '.join(map(str, size))))
        out.append(builtins.int(s))
    return tuple(out)


_ALLOC_ERROR = ("[enforce fail at alloc_cpu.cpp:127] err == 0. DefaultCPUAllocator: can't allocate memory: you tried "
                "to allocate %d bytes. Error code 12 (Cannot allocate memory)")


def _check_bytes(shape, d):
    """PyTorch's errors for a size that overflows or cannot fit in the address space (wasm32: 2 GiB)."""
    n = 1
    for s in shape:
        n *= s
    nbytes = n * d.itemsize
    if nbytes >= 1 << 63:
        raise RuntimeError('Storage size calculation overflowed with sizes=[%s]' % ', '.join(map(str, shape)))
    if nbytes > sys.maxsize:
        raise RuntimeError(_ALLOC_ERROR % nbytes)
    return nbytes


def _allocate(shape, d, fill=0):
    """A new array of `shape` filled with `fill`, or PyTorch's allocator errors when it cannot be had."""
    nbytes = _check_bytes(shape, d)
    try:
        return np.full(shape, fill, dtype=d.np)
    except (MemoryError, ValueError) as e:
        if isinstance(e, ValueError) and 'too big' not in str(e) and 'dimension' not in str(e):
            raise
        raise RuntimeError(_ALLOC_ERROR % nbytes) from None


def _generate(shape, d, sample):
    """Random values of `shape` from sample(shape) (float64), as dtype d, with the allocator's errors."""
    nbytes = _check_bytes(shape, d)
    try:
        return sample(shape).astype(d.np)
    except MemoryError:
        raise RuntimeError(_ALLOC_ERROR % nbytes) from None


def _finish(data, requires_grad=False, device=None, layout=None, pin_memory=False, out=None, factory=True):
    """The common tail of every factory: device / layout checks, requires_grad."""
    dt.check_device(device)
    dt.check_layout(layout)
    t = make(data)
    if requires_grad:
        if data.dtype.kind != 'f':
            raise RuntimeError('Only Tensors of floating point and complex dtype can require gradients')
        t._requires_grad = True
    if out is not None:
        out._data = t._data
        ag.bump(out)
        return out
    return t


def _infer(values):
    """The dtype PyTorch infers for nested Python data (bool < int < float), checking it is rectangular."""
    kinds = set()
    shape = []
    leaf_depth = []                   # the depth where numbers were found first

    def walk(x, depth):
        if isinstance(x, Tensor):
            if x._data.ndim == 0:
                kinds.add(x._data.dtype.kind)
                return
            x = x.tolist()
        if isinstance(x, (list, tuple)):
            if leaf_depth and depth >= leaf_depth[0]:
                raise TypeError("'%s' object cannot be interpreted as an integer" % type(x).__name__)
            if len(shape) <= depth:
                shape.append(len(x))
            elif shape[depth] != len(x):
                raise ValueError('expected sequence of length %d at dim %d (got %d)' % (shape[depth], depth, len(x)))
            for y in x:
                walk(y, depth + 1)
            return
        if len(shape) > depth:
            raise TypeError('not a sequence')
        leaf_depth.append(depth)
        if isinstance(x, (builtins.bool, np.bool_)):
            kinds.add('b')
        elif isinstance(x, (builtins.int, np.integer)):
            kinds.add('i')
        elif isinstance(x, (builtins.float, np.floating)):
            kinds.add('f')
        elif isinstance(x, complex):
            raise TypeError('complex tensors are not supported in Autograd Playground')
        elif isinstance(x, str):
            raise TypeError("new(): invalid data type 'str'")
        else:
            raise RuntimeError("Could not infer dtype of " + type(x).__name__)

    walk(values, 0)
    if 'f' in kinds:
        return dt.default_float
    if 'i' in kinds:
        return dt.int64
    if 'b' in kinds:
        return dt.bool_
    return dt.default_float


def _to_list(x):
    if isinstance(x, Tensor):
        return x.tolist()
    if isinstance(x, (list, tuple)):
        return [_to_list(y) for y in x]
    return x


# ------------------------------------------------------------------------------------------------ factories

def tensor(data, *, dtype=None, device=None, requires_grad=False, pin_memory=False):
    """A new leaf tensor copying `data` (nested lists, numbers, numpy arrays or tensors)."""
    if isinstance(data, Tensor):
        warnings.warn('To copy construct from a tensor, it is recommended to use sourceTensor.detach().clone() or '
                      'sourceTensor.detach().clone().requires_grad_(True), rather than torch.tensor(sourceTensor).',
                      UserWarning, stacklevel=2)
        arr = np.array(data._data, copy=True)
        d = dt.to_dtype(dtype) if dtype is not None else data.dtype
    elif isinstance(data, np.ndarray):
        d = dt.to_dtype(dtype) if dtype is not None else dt.from_numpy_dtype(data.dtype)
        arr = np.array(data, copy=True)
    else:
        d = dt.to_dtype(dtype) if dtype is not None else _infer(data)
        arr = np.array(_to_list(data), dtype=np.float64 if d.is_floating_point else None)
        if arr.dtype == object:
            raise ValueError('expected sequence of equal lengths')
    return _finish(np.asarray(arr.astype(d.np, copy=False)), requires_grad, device)


def as_tensor(data, dtype=None, device=None):
    if isinstance(data, Tensor) and (dtype is None or dtype is data.dtype):
        return data
    if isinstance(data, np.ndarray) and (dtype is None or dt.to_dtype(dtype).np == data.dtype):
        return from_numpy(data)
    return tensor(data, dtype=dtype, device=device)


def from_numpy(arr):
    """A tensor sharing memory with the numpy array."""
    if not isinstance(arr, np.ndarray):
        raise TypeError('expected np.ndarray (got %s)' % type(arr).__name__)
    dt.from_numpy_dtype(arr.dtype)
    return make(arr)


def _filled(name, value, size, dtype, kwargs):
    d = dt.to_dtype(dtype, name) if dtype is not None else dt.default_float
    return _finish(_allocate(_size(size), d, value), **kwargs)


def zeros(*size, out=None, dtype=None, layout=None, device=None, requires_grad=False, pin_memory=False, **kw):
    size = size or (kw.pop('size'),)
    return _filled('zeros', 0, size, dtype, dict(requires_grad=requires_grad, device=device, layout=layout, out=out))


def ones(*size, out=None, dtype=None, layout=None, device=None, requires_grad=False, pin_memory=False, **kw):
    size = size or (kw.pop('size'),)
    return _filled('ones', 1, size, dtype, dict(requires_grad=requires_grad, device=device, layout=layout, out=out))


def empty(*size, out=None, dtype=None, layout=None, device=None, requires_grad=False, pin_memory=False,
          memory_format=None, **kw):
    """Uninitialised memory in PyTorch; zeros here (the values are meaningless either way)."""
    size = size or (kw.pop('size'),)
    return _filled('empty', 0, size, dtype, dict(requires_grad=requires_grad, device=device, layout=layout, out=out))


def full(size, fill_value, *, out=None, dtype=None, layout=None, device=None, requires_grad=False, pin_memory=False):
    if isinstance(fill_value, Tensor):
        fill_value = fill_value.item()
    if not isinstance(fill_value, (builtins.int, builtins.float, builtins.bool, np.number, np.bool_)):
        raise TypeError("full(): argument 'fill_value' (position 2) must be Number, not %s" % type(fill_value).__name__)
    d = dt.to_dtype(dtype, 'full') if dtype is not None else dt.scalar_dtype(fill_value)
    return _finish(_allocate(_size((size,)), d, fill_value), requires_grad, device, layout, out=out)


def _like(t, value, dtype, requires_grad, device, layout):
    d = dt.to_dtype(dtype) if dtype is not None else t.dtype
    return _finish(_allocate(t._data.shape, d, value), requires_grad, device, layout)


def zeros_like(input, *, dtype=None, layout=None, device=None, requires_grad=False, memory_format=None):
    return _like(input, 0, dtype, requires_grad, device, layout)


def ones_like(input, *, dtype=None, layout=None, device=None, requires_grad=False, memory_format=None):
    return _like(input, 1, dtype, requires_grad, device, layout)


def empty_like(input, *, dtype=None, layout=None, device=None, requires_grad=False, memory_format=None):
    return _like(input, 0, dtype, requires_grad, device, layout)


def full_like(input, fill_value, *, dtype=None, layout=None, device=None, requires_grad=False, memory_format=None):
    return _like(input, fill_value, dtype, requires_grad, device, layout)


def rand(*size, generator=None, dtype=None, requires_grad=False, device=None, layout=None, out=None, **kw):
    size = size or (kw.pop('size'),)
    d = dt.to_dtype(dtype) if dtype is not None else dt.default_float
    shape = _size(size)
    return _finish(_generate(shape, d, _rng.random), requires_grad, device, layout, out=out)


def randn(*size, generator=None, dtype=None, requires_grad=False, device=None, layout=None, out=None, **kw):
    size = size or (kw.pop('size'),)
    d = dt.to_dtype(dtype) if dtype is not None else dt.default_float
    shape = _size(size)
    return _finish(_generate(shape, d, _rng.standard_normal), requires_grad, device, layout, out=out)


def randint(low, high=None, size=None, *, dtype=None, requires_grad=False, device=None, generator=None):
    if high is None:
        low, high = 0, low
    d = dt.to_dtype(dtype) if dtype is not None else dt.int64
    return _finish(_rng.integers(low, high, _size((size,))).astype(d.np), requires_grad, device)


def rand_like(input, *, dtype=None, requires_grad=False, device=None, layout=None, memory_format=None):
    return rand(input.shape, dtype=dtype or input.dtype, requires_grad=requires_grad, device=device)


def randn_like(input, *, dtype=None, requires_grad=False, device=None, layout=None, memory_format=None):
    return randn(input.shape, dtype=dtype or input.dtype, requires_grad=requires_grad, device=device)


def randperm(n, *, dtype=None, requires_grad=False, device=None, generator=None):
    d = dt.to_dtype(dtype) if dtype is not None else dt.int64
    return _finish(_rng.permutation(n).astype(d.np), requires_grad, device)


def _num(x):
    return x.item() if isinstance(x, Tensor) else x


def arange(start, end=None, step=1, *, out=None, dtype=None, layout=None, device=None, requires_grad=False):
    """[start, end) in steps: int64 for integer arguments, float32 (the default dtype) otherwise."""
    start, end, step = _num(start), _num(end), _num(step)
    if end is None:
        start, end = 0, start
    if step == 0:
        raise RuntimeError('step must be nonzero')
    if (end - start) * step < 0:
        raise RuntimeError('upper bound and larger bound inconsistent with step sign')
    floaty = builtins.any(isinstance(v, (builtins.float, np.floating)) for v in (start, end, step))
    d = dt.to_dtype(dtype) if dtype is not None else dt.default_float if floaty else dt.int64
    n = builtins.int(math.ceil((end - start) / step))
    data = (start + np.arange(n, dtype=np.float64) * step) if floaty or d.is_floating_point else \
        np.arange(start, start + n * step, step, dtype=np.int64)[:n]
    return _finish(data.astype(d.np), requires_grad, device, layout, out=out)


def range(start=0, end=None, step=1, *, out=None, dtype=None, layout=None, device=None, requires_grad=False):
    """Deprecated: [start, end] including the end, float32 by default."""
    warnings.warn('torch.range is deprecated and will be removed in a future release because its behavior is '
                  'inconsistent with Python\'s range builtin. Instead, use torch.arange, which produces values in '
                  '[start, end).', UserWarning, stacklevel=2)
    start, end, step = _num(start), _num(end), _num(step)
    if end is None:
        start, end = 0, start
    if step == 0:
        raise RuntimeError('step must be nonzero')
    d = dt.to_dtype(dtype) if dtype is not None else dt.default_float
    n = builtins.int(math.floor((end - start) / step)) + 1
    data = start + np.arange(builtins.max(n, 0), dtype=np.float64) * step
    return _finish(data.astype(d.np), requires_grad, device, layout, out=out)


def linspace(start, end, steps, *, out=None, dtype=None, layout=None, device=None, requires_grad=False):
    d = dt.to_dtype(dtype) if dtype is not None else dt.default_float
    return _finish(np.linspace(_num(start), _num(end), steps).astype(d.np), requires_grad, device, layout, out=out)


def eye(n, m=None, *, out=None, dtype=None, layout=None, device=None, requires_grad=False):
    d = dt.to_dtype(dtype) if dtype is not None else dt.default_float
    return _finish(np.eye(n, m, dtype=d.np), requires_grad, device, layout, out=out)


# ------------------------------------------------------------------------------------------------ legacy constructors

def legacy_constructor(d, args, device=None):
    """torch.FloatTensor(2) is an uninitialised size-2 tensor; torch.FloatTensor([2]) holds 2."""
    dt.check_device(device)
    if not args:
        return make(np.zeros((0,), d.np))
    if len(args) == 1 and isinstance(args[0], (list, tuple)) and not isinstance(args[0], Size):
        return tensor(args[0], dtype=d)
    if len(args) == 1 and isinstance(args[0], np.ndarray):
        return tensor(args[0], dtype=d)
    if len(args) == 1 and isinstance(args[0], Tensor):
        return args[0] if args[0].dtype is d else args[0].to(d)
    return make(_allocate(_size(args), d))


class _LegacyMeta(type):
    def __instancecheck__(cls, obj):
        return isinstance(obj, Tensor) and obj.dtype is cls._dtype


def _legacy(name, d):
    def __new__(cls, *args, device=None):
        return legacy_constructor(d, args, device)
    return _LegacyMeta(name, (), {'__new__': __new__, '_dtype': d, '__module__': 'torch'})


FloatTensor = _legacy('FloatTensor', dt.float32)
DoubleTensor = _legacy('DoubleTensor', dt.float64)
HalfTensor = _legacy('HalfTensor', dt.float16)
LongTensor = _legacy('LongTensor', dt.int64)
IntTensor = _legacy('IntTensor', dt.int32)
ShortTensor = _legacy('ShortTensor', dt.int16)
CharTensor = _legacy('CharTensor', dt.int8)
ByteTensor = _legacy('ByteTensor', dt.uint8)
BoolTensor = _legacy('BoolTensor', dt.bool_)

_TYPE_STRINGS = {'torch.%sTensor' % d.legacy: d for d in dt.ALL}


def dtype_from_type_string(s):
    try:
        return _TYPE_STRINGS[s]
    except KeyError:
        raise ValueError('invalid type: %r' % s) from None
