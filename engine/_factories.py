"""Creating tensors: torch.tensor, ones, zeros, arange, range, randn, the legacy FloatTensor family..."""
import builtins
import importlib
import math
import operator
import sys
import warnings

import numpy as np

from . import _argparse
from . import _autograd as ag
from . import _dtypes as dt
from . import _memory_format as _mf
from ._tensor import (Tensor, make, Size, user_stacklevel, warn_once, parser_type as _parser_type, invalid_arguments,
                      _SCALAR_WARNING)

from ._random import DEFAULT_SEED, Generator, default_generator  # noqa: E402,F401  (torch.Generator, ...)
from . import _random  # noqa: E402
from ._random import fma64 as _fma64  # noqa: E402  (the range kernels' fused multiply-adds)


def manual_seed(seed):
    """Seed the default generator: the numbers that follow are PyTorch's for the same seed."""
    return default_generator.manual_seed(builtins.int(seed))


def seed():
    return default_generator.seed()


def initial_seed():
    return default_generator.initial_seed()


def _get_state(gen):
    """Generator.get_state(): the state as PyTorch's ByteTensor of 5,056 bytes (see _random.Generator)."""
    return make(gen.state_bytes())


def _set_state(gen, new_state):
    if not isinstance(new_state, Tensor):
        raise TypeError('expected a torch.ByteTensor, but got ' + type(new_state).__name__)
    if new_state.dtype is not dt.uint8:
        raise TypeError('RNG state must be a torch.ByteTensor')
    gen.load_state_bytes(new_state._data)
    return gen


Generator.get_state, Generator.set_state = _get_state, _set_state


def get_rng_state():
    return default_generator.get_state()


def set_rng_state(new_state):
    default_generator.set_state(new_state)


# ------------------------------------------------------------------------------------------------ helpers

def _is_index(x):
    """An int-like size element (Python int, numpy integer, one-element integer tensor), not a bool."""
    if isinstance(x, builtins.bool):
        return False
    try:
        operator.index(x)
    except TypeError:
        return False
    return True


def _missing(fn, *names):
    """PyTorch's parser's TypeError for missing arguments (its plural follows a count of one)."""
    return TypeError('%s() missing %d required positional argument%s: %s'
                     % (fn, len(names), 's' if len(names) == 1 else '', ', '.join('"%s"' % n for n in names)))


def _check_bool(fn, name, value):
    """PyTorch's parser takes only a Python bool (or None) for a bool argument."""
    if value is not None and type(value) is not builtins.bool:
        raise TypeError("%s(): argument '%s' must be bool, not %s" % (fn, name, _parser_type(value)))


def _int_list(size, fn, varargs=True, name='size', pos=1):
    """Ints given as such (when `varargs`), a tuple/list/Size, or name=..., with the errors of PyTorch's parser:
    only the first element decides whether the argument is an int list; a later bad one fails 'to unpack'."""
    if not size:
        raise _missing(fn, name)
    if not (varargs and _is_index(size[0])):
        if len(size) > 1:
            raise TypeError('%s() takes 1 positional argument but %d were given' % (fn, len(size)))
        if not isinstance(size[0], (tuple, list, Size)):
            raise TypeError("%s(): argument '%s' (position %d) must be tuple of ints, not %s"
                            % (fn, name, pos, _parser_type(size[0])))
        size = tuple(size[0])
    out = []
    for i, s in enumerate(size):
        if not _is_index(s) and (i == 0 or not isinstance(s, builtins.bool)):   # (bools pass after the first)
            if i == 0:
                raise TypeError("%s(): argument '%s' (position %d) must be tuple of ints, but found element of type "
                                "%s at pos 0" % (fn, name, pos, _parser_type(s)))
            raise TypeError('%s(): argument \'%s\' failed to unpack the object at pos %d with error "type must be '
                            'tuple of ints,but got %s"' % (fn, name, i + 1, _parser_type(s)))
        if type(s) is not builtins.int and isinstance(s, Tensor) and s._data.dtype == np.bool_:
            raise _bool_size()                      # (the parser takes it; its Scalar is no integer)
        out.append(operator.index(s))
    return tuple(out)


def _bool_size():
    """PyTorch's error for a bool tensor given as a size: its parser reads the tensor's item as the SymInt."""
    return RuntimeError('Expected scalar.isIntegral( false) to be true, but got false.  (Could this error message be '
                        'improved?  If so, please report an enhancement request to PyTorch.)')


def _size(size, fn='ones', varargs=True):
    """Sizes as _int_list reads them, with PyTorch's errors for a negative one."""
    out = _int_list(size, fn, varargs)
    if builtins.any(s < 0 for s in out):
        if fn == 'zeros':
            raise RuntimeError('zeros: Dimension size must be non-negative.')
        s = next(s for s in out if s < 0)
        raise RuntimeError('Trying to create tensor with negative dimension %d: [%s]' % (s, ', '.join(map(str, out))))
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


UNINITIALISED = object()        # (empty's fill: see _uninitialised)


def _uninitialised(d):
    """What uninitialised memory of dtype d holds: zeros here, NaN (the largest integer, True) when deterministic
    algorithms are on, as PyTorch's fill_uninitialized_memory fills it then."""
    from ._misc import settings
    if not settings['deterministic']:
        return 0
    return np.nan if d.is_floating_point else True if d is dt.bool_ else builtins.int(np.iinfo(d.np).max)


def _allocate(shape, d, fill=0):
    """A new array of `shape` filled with `fill`, or PyTorch's allocator errors when it cannot be had."""
    if fill is UNINITIALISED:
        fill = _uninitialised(d)
    nbytes = _check_bytes(shape, d)
    if not (d is dt.float16 and math.prod(shape) == 1):     # (PyTorch fills one half unchecked: 1e40 is inf)
        fill = dt.check_scalar(fill, d)
    try:
        return dt.convert(np.full(shape, fill, dtype=np.float64), d) if d is dt.float16 else np.full(shape, fill, dtype=d.np)
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


def _finish(data, requires_grad=False, device=None, layout=None, out=None, factory=True,
            keep_shape=False, fill=True):
    """The common tail of every factory: device / layout checks, requires_grad. An out= of the result's shape (or,
    keep_shape, for the range factories, of its number of elements) is written into, in its shape: a view of
    another tensor writes into that one's memory. A factory (one with a requires_grad argument) sets a leaf out's
    requires_grad to it. Not `fill` (empty): out is only resized, when its shape differs."""
    dt.check_device(device)
    dt.check_layout(layout)
    t = make(data)
    if requires_grad:
        if data.dtype.kind != 'f':
            raise RuntimeError('Only Tensors of floating point and complex dtype can require gradients')
        t._requires_grad = True
    if out is not None:
        if not fill:
            if out.shape != data.shape:
                out.resize_(data.shape)
        elif (out.shape == data.shape or keep_shape and out.numel() == data.size) and out._data.flags.writeable:
            with ag.no_grad():          # (copied in as _write_out does: a no_grad view's history is then invalid)
                out.copy_(make(dt.convert(data, out.dtype).reshape(out.shape)))
        else:                           # (resized without a warning: factories write into out as they please)
            out._data = t._data if data.dtype == out._data.dtype else dt.convert(data, out.dtype)
            ag.bump(out)
        if requires_grad:
            out._requires_grad = True
        elif factory and out._grad_fn is None and out._base is None:
            out._requires_grad = False      # (PyTorch sets a leaf out's flag to the factory's requires_grad)
        return out
    return t


def _out_dtype(dtype, out, name):
    """A factory's dtype given out=: out's unless one is given, which must then be out's. A leaf out requiring grad
    (or a view of one) is refused in grad mode, as PyTorch's autograd fallback does; one with a history is written
    (PyTorch then gives it a NotImplemented node: not here). randn's and empty's out= forms resize out first, which
    autograd refuses for any out requiring grad, even under no_grad."""
    if out is None:
        return dtype
    if dtype is not None and dt.to_dtype(dtype) is not out.dtype:
        raise RuntimeError('dtype %s does not match dtype of out parameter (%s)'
                           % (dt.to_dtype(dtype).legacy, out.dtype.legacy))
    if out.requires_grad and name in ('randn', 'empty'):
        raise RuntimeError('cannot resize variables that require grad')
    if out.requires_grad and ag.grad_enabled and (out if out._base is None else out._base).is_leaf:
        raise out_grad_error('aten::' + name)
    return out.dtype


def out_grad_error(name):
    """PyTorch's error for an out= argument, or an input, requiring grad in grad mode."""
    return RuntimeError("%s(): functions with out=... arguments don't support automatic differentiation, but one of "
                        "the arguments requires grad." % name)


def _infer(values, known=None):
    """The dtype PyTorch infers for nested data, checking it is rectangular: Python numbers give bool, int64 or
    the default float; numpy values and arrays and one-element tensors their own dtype; all promoted together.
    Also the problems met on the way, in order: tensors where numbers should be (which may not be, once the dtype
    is known) and errors in the nesting (PyTorch meets those when it stores the values, after inferring the dtype).
    Then the number of dims, and for data without numbers (which PyTorch never reads past its first elements: [[],
    [1]] is 2 x 0) the sizes of its empty tensor, else None.
    With the dtype `known` (torch.tensor(data, dtype=...), torch.FloatTensor(data)) PyTorch infers nothing: a value
    that is no number is a problem met storing it, as a float or as an integer."""
    found = []
    shape = []
    leaf_depth = []                   # the depth where numbers were found first
    problems = []

    def walk(x, depth, typed=True):
        if isinstance(x, Tensor) and len(shape) <= depth:     # a tensor is a number here, not a sequence
            found.append(x.dtype)
            problems.append(x)
            leaf_depth.append(depth)
            return
        if isinstance(x, np.ndarray) and leaf_depth and len(shape) <= depth:    # an array where numbers are
            if typed and known is None:
                found.append(dt.from_numpy_dtype(x.dtype))
            problems.append(_Stored(x))
            return
        if isinstance(x, (Tensor, np.ndarray)):               # iterated where a sequence is expected
            if typed and known is None:                       # (an array's type, whatever its byte order)
                found.append(x.dtype if isinstance(x, Tensor) else dt.from_numpy_dtype(x.dtype.newbyteorder('=')))
            if len(shape) > depth and x.ndim == 0:            # (not sized by it: met storing the values)
                problems.append(TypeError('not a sequence'))
                return
            len(x)                                            # (PyTorch's TypeError for a 0-d array)
            if known is not None and isinstance(x, np.ndarray) and _Stored(x.dtype.type(0)).error(known):
                x, typed = list(x), False     # (its numpy numbers, which PyTorch stores: a float32 is no int)
            else:
                x, typed = x.tolist(), False
        if _other_sequence(x):
            x = list(x)
        if isinstance(x, (list, tuple, builtins.range, bytearray)):
            if not x and typed and known is None:             # (an empty sequence counts as the default float)
                found.append(dt.default_float)
            if leaf_depth and depth >= leaf_depth[0]:
                problems.append(_Stored(x))
            elif len(shape) <= depth:
                shape.append(len(x))
            elif shape[depth] != len(x):
                problems.append(ValueError('expected sequence of length %d at dim %d (got %d)'
                                           % (shape[depth], depth, len(x))))
            for y in x:                                       # (after a problem, only for the dtype)
                walk(y, depth + 1, typed)
            return
        if len(shape) > depth:
            if known is None:         # (PyTorch infers the dtype of all the data before it reads its shape)
                _scalar_dtype(x)
            problems.append(TypeError('not a sequence'))
            return
        leaf_depth.append(depth)
        if known is None:
            d = _scalar_dtype(x)
            if typed:
                found.append(d)
        if isinstance(x, builtins.int) and not -0x8000000000000000 <= x <= 0x7FFFFFFFFFFFFFFF:
            problems.append(_BIG_INT)
        elif not isinstance(x, (builtins.int, builtins.float)):  # (a number PyTorch reads by __float__ / __index__)
            problems.append(_Stored(x))

    first = values                    # PyTorch sizes the data by its first elements: a str there never ends
    sizes = []
    while isinstance(first, (list, tuple)) or isinstance(first, np.ndarray) and first.ndim:
        sizes.append(len(first))
        if not sizes[-1]:
            break
        first = first[0]                                    # (a numpy array's too: np.str_ is a str)
    if isinstance(values, list) and values and isinstance(values[0], np.ndarray) and sizes[-1]:
        warn_once('Creating a tensor from a list of numpy.ndarrays is extremely slow. Please consider converting the '
                  'list to a single numpy.ndarray with numpy.array() before converting to a tensor.',
                  'torch/csrc/utils/tensor_new.cpp:252')
    if isinstance(first, str) and first and first is not values:
        raise ValueError("too many dimensions 'str'")
    try:
        walk(values, 0)
    finally:
        del walk                      # (it refers to itself: freed now, not left to the cycle collector)
    d = dt.default_float
    for i, f in enumerate(found):
        d = f if i == 0 else dt.promote_types(d, f)
    if sizes and not sizes[-1]:       # (no numbers to store: the problems met past the first elements never are)
        return d, [], len(sizes), sizes
    return d, problems, len(shape), None


_BIG_INT = object()        # a problem met: a Python int beyond int64's range (only for an integer dtype)


def _scalar_dtype(x):
    """The dtype PyTorch infers for one value of nested data (infer_scalar_type), or its error for a value that is
    no number."""
    if isinstance(x, np.generic) and not isinstance(x, (str, bytes)):    # (np.datetime64: its dtype's error)
        if isinstance(x, np.uint64):      # (PyTorch's UInt64, whose values it then cannot store: see tensor)
            return dt._uint64
        return dt.from_numpy_dtype(x.dtype)
    if isinstance(x, builtins.bool):
        return dt.bool_
    if isinstance(x, builtins.int):
        return dt.int64
    if isinstance(x, builtins.float):
        return dt.default_float
    if isinstance(x, complex):
        raise TypeError('complex tensors are not supported in Autograd Playground')
    if isinstance(x, (str, bytes)):
        raise TypeError("new(): invalid data type '%s'" % _parser_type(x))
    raise RuntimeError("Could not infer dtype of " + _parser_type(x))


class _Stored:
    """A problem that may be met storing a value that is not a Python int or float, once the dtype is known:
    PyTorch reads it as a float (__float__, else __index__) or as an integer (__index__; a float as a float;
    numpy's bool as a bool too)."""
    __slots__ = ('value',)

    def __init__(self, value):
        self.value = value

    def error(self, d):
        x = self.value
        kind = type(x)
        if isinstance(x, builtins.float) or (d is dt.bool_ and isinstance(x, np.bool_)):
            return None
        try:
            if not d.is_floating_point or not hasattr(kind, '__float__'):
                if d.is_floating_point and not hasattr(kind, '__index__'):
                    return TypeError('must be real number, not %s'
                                     % (('numpy.' if kind.__module__ == 'numpy' else '') + kind.__name__))
                operator.index(x)
            else:
                float(x)
        except TypeError as e:
            return e
        return None


def _first_problem(problems, d):
    """The error PyTorch meets first storing the values as dtype d: a tensor becomes a number via __float__, or via
    __index__ for an integer dtype (which takes integer tensors only)."""
    for p in problems:
        if isinstance(p, _Stored):
            p = p.error(d)
            if p is None:
                continue
        if p is _BIG_INT:
            if d.category == 1:
                return ValueError('Overflow when unpacking long long')
            continue
        if not isinstance(p, Tensor):
            return p
        if d.is_floating_point and p._data.size != 1:
            if p._requires_grad and ag.grad_enabled:      # (float(p) warns before it fails)
                warn_once(_SCALAR_WARNING, 'torch/csrc/autograd/generated/python_variable_methods.cpp:822')
            return ValueError('only one element tensors can be converted to Python scalars')
        if d.category <= 1 and (p._data.size != 1 or p.is_floating_point()):     # (bool too: via __index__)
            return TypeError('only integer tensors of a single element can be converted to an index')
    return None


def _check_overflow(arr, d):
    """PyTorch's error for Python numbers that an integer dtype cannot hold (ints may wrap into unsigned ones)."""
    if d.is_floating_point or d is dt.bool_ or arr.size == 0:
        return
    info = np.iinfo(d.np)
    lowest = -info.max if info.min == 0 and arr.dtype.kind in 'iu' else info.min
    if arr.dtype.kind in 'iuf' and not (np.all(np.isfinite(arr)) and arr.min() >= lowest and arr.max() <= info.max):
        raise RuntimeError('value cannot be converted to type %s without overflow' % d.name)


def _mixed_to_int(nested, d):
    """Numbers of both kinds for an integer dtype, each converted by its own Python type as PyTorch stores them:
    an int exactly (wrapping into an unsigned dtype), a float truncated (checked against the dtype's range)."""
    values = np.array(nested, dtype=object)
    floats = np.vectorize(lambda v: isinstance(v, (float, np.floating)), otypes=[bool])(values)
    _check_overflow(values[floats].astype(np.float64), d)
    ints = np.array(values[~floats].tolist())
    if ints.dtype == np.uint64 and (ints > 0x7FFFFFFFFFFFFFFF).any():
        raise ValueError('Overflow when unpacking long long')
    _check_overflow(ints, d)
    out = np.zeros(values.shape, np.int64)
    out[floats] = np.trunc(values[floats].astype(np.float64))
    out[~floats] = ints
    return out


def _other_sequence(x):
    """Another object that Python counts as a sequence (array.array, collections.deque, memoryview...): PyTorch reads
    it as one, as a list."""
    known = (str, bytes, dict, list, tuple, builtins.range, bytearray, Tensor, np.ndarray, np.generic)
    return not isinstance(x, known) and hasattr(type(x), '__getitem__') and hasattr(type(x), '__len__')


def _to_list(x, depth=0, ndim=0):
    """Nested lists for numpy; a tensor deeper than the data's `ndim` stands for one number."""
    if isinstance(x, Tensor):
        if depth < ndim or x._data.size != 1:
            return x.tolist()
        if x._requires_grad and ag.grad_enabled:            # (a number made of it, as float(x) warns)
            warn_once(_SCALAR_WARNING, 'torch/csrc/autograd/generated/python_variable_methods.cpp:822')
        return x._data.reshape(()).item()
    if isinstance(x, (list, tuple, bytearray)) or _other_sequence(x):
        return [_to_list(y, depth + 1, ndim) for y in x]
    if type(x) is np.ndarray and (not x.size or x.dtype == object):      # (sized as a sequence: no dims after
        return x.tolist()                                   # an empty one; Python numbers read one by one)
    return x


# ------------------------------------------------------------------------------------------------ factories

_NO_DATA = object()
_COPY_WARNING = ('To copy construct from a tensor, it is recommended to use sourceTensor.detach().clone() or '
                 'sourceTensor.detach().clone().requires_grad_(True), rather than %s(sourceTensor).')


def tensor(data=_NO_DATA, *more, dtype=None, device=None, requires_grad=False, pin_memory=False, _name='torch.tensor'):
    """A new leaf tensor copying `data` (nested lists, numbers, numpy arrays or tensors)."""
    if more:
        raise TypeError('tensor() takes 1 positional argument but %d were given' % (1 + len(more)))
    if data is _NO_DATA:
        raise _missing('tensor', 'data')
    for name, flag in (('pin_memory', pin_memory), ('requires_grad', requires_grad)):
        if flag is None:       # (torch.tensor's flags are plain bools: None is refused, unlike the factories')
            raise TypeError("tensor(): argument '%s' must be bool, not NoneType" % name)
        _check_bool('tensor', name, flag)
    d = dt.to_dtype(dtype, 'tensor') if dtype is not None else None
    if isinstance(d, dt._Unmodelled):       # (its clear error before the data's)
        d.refuse()
    if isinstance(data, Tensor):
        warnings.warn(_COPY_WARNING % _name, UserWarning, stacklevel=user_stacklevel())
        d = d or data.dtype
        from ._ops import _preserved_copy           # (laid out as .to() copies: preserve_format)
        arr = _preserved_copy(data._data, d)
    elif isinstance(data, np.ndarray):
        _check_strides(data, d)
        d = d or dt.from_numpy_dtype(data.dtype)
        from ._ops import _preserved_copy
        arr = _preserved_copy(data, d)
    else:
        if isinstance(data, (str, bytes)):
            raise TypeError("new(): invalid data type '%s'" % _parser_type(data))
        inferred, problems, ndim, empty_shape = _infer(data, d)
        d = d or inferred
        if d is dt._uint64:               # (numpy uint64 numbers and no dtype: PyTorch fails storing the first)
            raise TypeError('an integer is required')
        problem = _first_problem(problems, d)
        if problem is not None:
            raise problem
        arr = np.zeros(empty_shape) if empty_shape is not None else np.array(
            _to_list(data, 0, ndim), dtype=np.float64 if d.is_floating_point else bool if d is dt.bool_ else None)
        if empty_shape is None and arr.dtype.kind == 'f' and not d.is_floating_point and d is not dt.bool_:
            arr = _mixed_to_int(_to_list(data, 0, ndim), d)
        if arr.dtype == object or arr.dtype == np.uint64 and (arr > 0x7FFFFFFFFFFFFFFF).any():
            raise ValueError('Overflow when unpacking long long')      # (Python ints beyond int64)
        _check_overflow(arr, d)
    dt.check_options(device, pin_memory)
    out = _finish(np.asarray(dt.convert(arr, d)), requires_grad, device)
    if isinstance(data, Tensor) and data._inference and not ag.inference_enabled:
        ag.bump(out)              # (copied in by copy_, seen by autograd: see _ops.clone)
    return out


def as_tensor(data, dtype=None, device=None):
    """`data` itself when it is a tensor (converted by .to() if dtype or device differ) or a numpy array of the
    dtype (shared memory), else a new tensor copying it."""
    if isinstance(data, Tensor):
        return data.to(dtype=dtype if dtype is None else dt.to_dtype(dtype, 'as_tensor'), device=device)
    if dtype is not None:
        dt.to_dtype(dtype, 'as_tensor')         # (a dtype that is none: as_tensor's own error)
    if isinstance(data, np.ndarray) and (dtype is None or dt.to_dtype(dtype).np == data.dtype):
        return from_numpy(data)
    return tensor(data, dtype=dtype, device=device)


def asarray(obj, *, dtype=None, device=None, copy=None, requires_grad=_NO_DATA):
    """torch.asarray: obj itself when it is a tensor, or a tensor on a numpy array's memory, when its dtype fits
    (converted or copied when it does not or `copy` is True; a ValueError then if `copy` is False); other data read
    as torch.tensor reads it. A requires_grad given is set on the result (in place on a leaf: `obj` itself);
    otherwise a tensor keeps its own, with PyTorch's warning that this default changed."""
    dt.check_device(device)
    if requires_grad is None:          # (None is "not given", as PyTorch's bool? argument)
        requires_grad = _NO_DATA
    elif requires_grad is not _NO_DATA:
        _check_bool('asarray', 'requires_grad', requires_grad)
    d = dt.to_dtype(dtype, 'asarray') if dtype is not None else None
    if isinstance(obj, (Tensor, np.ndarray)):
        have = obj.dtype if isinstance(obj, Tensor) else dt.from_numpy_dtype(obj.dtype)
        if d is not None and d is not have and copy is False:
            raise ValueError("can't alias tensor with dtype '%s' into dtype '%s'." % (have.legacy, d.legacy))
        out = obj if isinstance(obj, Tensor) else from_numpy(obj)
        if d is not None and d is not have:
            out = out.to(d)
        elif copy or isinstance(obj, np.ndarray) and not obj.ndim:   # (a 0-d array: read as the numpy scalar it
            out = out.clone()                                         # holds, a copy, with copy=False too)
        if requires_grad is _NO_DATA:
            if out.requires_grad:
                warn_once('torch.asarray: unspecified requires_grad now defaults to obj.requires_grad instead of '
                          'False. Pass requires_grad=False explicitly to get the old behavior and silence this '
                          'warning.', 'torch/csrc/utils/tensor_new.cpp:1737')
            return out
        if out.grad_fn is not None:
            out = out.detach()
        if requires_grad and not out.is_floating_point():
            raise RuntimeError('Only Tensors of floating point and complex dtype can require gradients')
        return out.requires_grad_(requires_grad)
    if copy is False:
        if isinstance(obj, np.generic):
            raise RuntimeError("can't alias NumPy scalars. Either remove copy=False or transform it in a ndarray. ")
        raise ValueError("can't alias arbitrary sequence into a tensor.")
    return tensor(obj, dtype=d, requires_grad=requires_grad is not _NO_DATA and requires_grad)


def _check_strides(arr, known=None):
    """PyTorch's error for a numpy array with a negative stride (a flipped one), met reading any whole array; also
    for one of a dtype it has no match for (but PyTorch's uint16, uint32 and uint64 ones, read then converted to the
    dtype `known`)."""
    if known is None or arr.dtype.type not in (np.uint16, np.uint32, np.uint64):
        dt.from_numpy_dtype(arr.dtype)
    if builtins.any(s < 0 for s in arr.strides):
        raise ValueError('At least one stride in the given numpy array is negative, and tensors with negative strides '
                         'are not currently supported. (You can probably work around this by making a copy of your '
                         'array  with array.copy().) ')


def from_numpy(arr):
    """A tensor sharing memory with the numpy array."""
    if not isinstance(arr, np.ndarray):
        raise TypeError('expected np.ndarray (got %s)' % _parser_type(arr))
    _check_strides(arr)
    if not arr.flags.writeable:
        warn_once('The given NumPy array is not writable, and PyTorch does not support non-writable tensors. This '
                  'means writing to this tensor will result in undefined behavior. You may want to copy the array to '
                  'protect its data or make it writable before converting it to a tensor. This type of warning will '
                  'be suppressed for the rest of this program.', 'torch/csrc/utils/tensor_numpy.cpp:213')
        arr = _written_anyway(arr)
    t = make(arr)
    t._numpy_memory = True          # (numpy owns the memory: resize_ cannot grow it)
    return t


def frombuffer(buffer, *args, dtype=_NO_DATA, count=-1, offset=0, requires_grad=False):
    """A 1-d tensor sharing memory with an object of Python's buffer protocol (bytearray, array.array, ...), read as
    `dtype` from byte `offset`: `count` elements, or all the rest (a whole number of them) if count is negative."""
    if args:
        raise TypeError('frombuffer() takes from 2 to 1 positional arguments but %d were given' % (len(args) + 1))
    if dtype is _NO_DATA:
        raise _missing('frombuffer', 'dtype')
    d = dt.to_dtype(dtype, 'frombuffer')
    try:
        view = memoryview(buffer)
    except TypeError:
        raise ValueError('object does not implement Python buffer protocol.') from None
    if not view.c_contiguous:
        raise RuntimeError('could not retrieve buffer from object')
    if view.readonly:
        warn_once('The given buffer is not writable, and PyTorch does not support non-writable tensors. This means '
                  'you can write to the underlying (supposedly non-writable) buffer using the tensor. You may want to '
                  'copy the buffer to protect its data or make it writable before converting it to a tensor. This '
                  'type of warning will be suppressed for the rest of this program.',
                  'torch/csrc/utils/tensor_new.cpp:1621')
    actual, size = view.nbytes, np.dtype(d.np).itemsize
    if not actual or not count:
        raise ValueError('both buffer length (%d) and count (%d) must not be 0' % (actual, count))
    if not 0 <= offset < actual:
        raise ValueError('offset (%d bytes) must be non-negative and no greater than buffer length (%d bytes) minus 1'
                         % (offset, actual))
    if count < 0:
        if (actual - offset) % size:
            raise ValueError('buffer length (%d bytes) after offset (%d bytes) must be a multiple of element size (%d)'
                             % (actual - offset, offset, size))
        count = (actual - offset) // size
    if offset + count * size > actual:
        raise ValueError('requested buffer length (%d * %d bytes) after offset (%d bytes) must not be greater than '
                         'actual buffer length (%d bytes)' % (count, size, offset, actual))
    out = make(np.frombuffer(view.cast('B'), dtype=d.np, count=count, offset=offset))
    if requires_grad:
        if not d.is_floating_point:
            raise RuntimeError('Only Tensors of floating point and complex dtype can require gradients')
        out.requires_grad_()
    return out


class _ReadOnlyMemory:
    """A read-only numpy array's memory handed out writeable (numpy's array interface, holding the array)."""
    def __init__(self, arr):
        self.arr = arr
        self.__array_interface__ = dict(arr.__array_interface__, data=(arr.__array_interface__['data'][0], False))


def _written_anyway(arr):
    """A read-only numpy array as PyTorch takes it: memory it writes into all the same (after its warning), as an
    array numpy lets write. (A broadcast's, whose elements share memory, stays read-only: writing into it is
    refused, as PyTorch refuses; so does one whose own memory numpy hands out writeable: see _ops._writeable. Memory
    numpy does not own, a bytes object's, is not written here: it may be shared.)"""
    root = arr
    while isinstance(root.base, np.ndarray):
        root = root.base
    if (root.flags.writeable or root.base is not None or not arr.size
            or builtins.any(s == 0 and n > 1 for s, n in zip(arr.strides, arr.shape))):
        return arr
    return np.asarray(_ReadOnlyMemory(arr))


def from_dlpack(ext_tensor):
    """A tensor on the memory of an object that exports it by DLPack (a numpy array, a tensor)."""
    if not hasattr(ext_tensor, '__dlpack__'):      # (PyTorch then takes it for a capsule)
        raise RuntimeError('from_dlpack received an invalid capsule. Note that DLTensor capsules can be consumed only '
                           'once, so you might have already constructed a tensor from it once.')
    arr = np.from_dlpack(ext_tensor)
    if not arr.flags.writeable:     # (numpy 2.0, Pyodide's, imports read-only: the memory of an array or a tensor is not)
        src = ext_tensor._data if isinstance(ext_tensor, Tensor) else ext_tensor
        if isinstance(src, np.ndarray) and src.flags.writeable:
            arr = src.view()
    return from_numpy(arr)


def _keyword_size(fn, size):
    """size=...: a sequence of ints (an int alone is one only when given by position)."""
    if not isinstance(size, (tuple, builtins.list, Size)):
        raise TypeError("%s(): argument 'size' must be tuple of ints, not %s" % (fn, _parser_type(size)))
    return size


def _given(size, kw, fn):
    """The size, given as arguments or as size=...; PyTorch's TypeError if it is missing or a keyword is unknown."""
    if 'size' in kw:
        if size:
            raise TypeError("%s() got multiple values for argument 'size'" % fn)
        size = (_keyword_size(fn, kw.pop('size')),)
    if kw:
        raise TypeError("%s() got an unexpected keyword argument '%s'" % (fn, next(iter(kw))))
    if not size:
        raise _missing(fn, 'size')
    return size


def _size_into(size, fn, out, varargs=True):
    """_size, for a factory given out=: PyTorch resizes out to the size first, and the number of elements of a
    negative size overflows there (empty checks the size before)."""
    if out is not None and fn != 'empty' and builtins.any(s < 0 for s in _int_list(size, fn, varargs)):
        raise RuntimeError('numel: integer multiplication overflow')
    return _size(size, fn, varargs)


def _filled(name, value, size, dtype, kwargs, pin_memory):
    _check_bool(name, 'requires_grad', kwargs['requires_grad'])
    dt.check_device(kwargs['device'])
    if name == 'zeros' and kwargs['out'] is None:   # (zeros checks its size between device and pin_memory; ones
        _size(size, name)                           # and empty after both)
    dt.check_options(kwargs['device'], pin_memory, kwargs['out'])
    dtype = _out_dtype(dtype, kwargs['out'], name)
    d = dt.to_dtype(dtype, name) if dtype is not None else dt.default_float
    return _finish(_allocate(_size_into(size, name, kwargs['out']), d, value), **kwargs)


def zeros(*size, out=None, dtype=None, layout=None, device=None, requires_grad=False, pin_memory=False, **kw):
    size = _given(size, kw, 'zeros')
    return _filled('zeros', 0, size, dtype, dict(requires_grad=requires_grad, device=device, layout=layout, out=out),
                   pin_memory)


def ones(*size, out=None, dtype=None, layout=None, device=None, requires_grad=False, pin_memory=False, **kw):
    size = _given(size, kw, 'ones')
    return _filled('ones', 1, size, dtype, dict(requires_grad=requires_grad, device=device, layout=layout, out=out),
                   pin_memory)


def empty(*size, out=None, dtype=None, layout=None, device=None, requires_grad=False, pin_memory=False,
          memory_format=None, **kw):
    """Uninitialised memory in PyTorch; zeros here (the values are meaningless either way). (zeros and ones take no
    memory_format.)"""
    size = _given(size, kw, 'empty')
    _mf.check(memory_format, 'empty')
    t = _filled('empty', UNINITIALISED, size, dtype, dict(requires_grad=requires_grad, device=device, layout=layout,
                                                          out=out, fill=False), pin_memory)
    if memory_format in _mf._RANKS:                   # (channels_last: the rank checked, the memory laid out so)
        t._data = _mf.laid_out(t._data, memory_format)
    return t


def empty_strided(*args, dtype=None, layout=None, device=None, requires_grad=False, pin_memory=False, **named):
    """Memory laid out with the given strides (in elements); zeros here, as empty's."""
    values = dict(zip(('size', 'stride'), args), **named)
    size, stride = values['size'], values['stride']
    dt.check_options(device, pin_memory)
    for position, (name, value) in enumerate((('size', size), ('stride', stride)), 1):
        if not isinstance(value, (tuple, list, Size)):
            raise TypeError("empty_strided(): argument '%s'%s must be tuple of ints, not %s"
                            % (name, ' (position %d)' % position if len(args) >= position else '', _parser_type(value)))
    shape, stride = tuple(size), tuple(stride)
    if len(shape) != len(stride):
        raise RuntimeError('mismatch in length of strides and shape')
    d = dt.to_dtype(dtype) if dtype is not None else dt.default_float
    extent = 1 + builtins.sum((n - 1) * s for n, s in zip(shape, stride)) if builtins.all(shape) else 0
    memory = np.full(extent, _uninitialised(d), d.np)
    data = np.lib.stride_tricks.as_strided(memory, shape, tuple(s * memory.itemsize for s in stride))
    return _finish(data, requires_grad, device, layout)


def scalar_tensor(s=_NO_DATA, *, dtype=None, layout=None, device=None, requires_grad=False, pin_memory=False):
    """A 0-d tensor of s, in the default float dtype unless dtype says."""
    if s is _NO_DATA:
        raise _missing('scalar_tensor', 's')
    dt.check_options(device, pin_memory)
    if isinstance(s, Tensor) and not s.requires_grad and s.dim() == 0:
        s = s.item()
    if not isinstance(s, (builtins.int, builtins.float, np.number, np.bool_)):
        raise TypeError("scalar_tensor(): argument 's' (position 1) must be Number, not %s" % _parser_type(s))
    d = dt.to_dtype(dtype) if dtype is not None else dt.default_float
    return _finish(np.array(s, d.np), requires_grad, device, layout)


def full(size=_NO_DATA, fill_value=_NO_DATA, *more, out=None, dtype=None, layout=None, device=None, requires_grad=False,
         pin_memory=False):
    if more:
        raise TypeError('full() takes 2 positional arguments but %d were given' % (2 + len(more)))
    if fill_value is _NO_DATA:
        raise _missing('full', *(['size'] if size is _NO_DATA else []), 'fill_value')
    _check_bool('full', 'requires_grad', requires_grad)
    dt.check_options(device, pin_memory, out)
    fill_value = _fill_number('full', fill_value)
    dtype = _out_dtype(dtype, out, 'full')
    d = dt.to_dtype(dtype, 'full') if dtype is not None else dt.scalar_dtype(fill_value)
    return _finish(_allocate(_size_into((size,), 'full', out, False), d, fill_value), requires_grad, device, layout,
                   out=out)


def _fill_number(fn, value):
    """A fill value as the parser takes a Number: a Python or numpy number, or a 0-d tensor that needs no grad."""
    if isinstance(value, Tensor) and not value.requires_grad and value.dim() == 0:
        value = value.item()
    if not isinstance(value, (builtins.int, builtins.float, builtins.bool, np.number, np.bool_)):
        raise TypeError("%s(): argument 'fill_value' (position 2) must be Number, not %s" % (fn, _parser_type(value)))
    return value


def _row_major_strides(x):
    """The strides (in bytes) of a row-major array of x's shape and dtype."""
    out, step = [], x.itemsize
    for n in reversed(x.shape):
        out.append(step)
        step *= builtins.max(n, 1)
    return tuple(reversed(out))


def _laid_out_like(x, memory_format, make_data):
    """make_data(shape, row_major) laid out as a *_like result: by default (preserve_format) with the strides of a
    dense input (a transposed tensor gives a transposed result), other inputs' dims in the order of their strides
    (_ops._preserve_order), else in the format's layout. The data is made
    flat in memory order, so random numbers fill memory as PyTorch's do; `row_major` says whether the result is."""
    if memory_format in _mf._RANKS:
        if x.ndim != _mf._RANKS[memory_format]:
            raise RuntimeError('required rank %d tensor to use %s format'
                               % (_mf._RANKS[memory_format], memory_format._name))
        order = _mf._order(x.ndim)
        return make_data(tuple(x.shape[i] for i in order), False).transpose(np.argsort(order))
    if memory_format in (None, _mf.preserve_format) and x.ndim > 1 and x.strides != _row_major_strides(x):
        from ._ops import _preserve_order
        order = _preserve_order(x)
        if order is None:
            flat = make_data((x.size,), False)
            return np.lib.stride_tricks.as_strided(flat, x.shape, [s // x.itemsize * flat.itemsize for s in x.strides])
        row_major = list(order) == sorted(order)        # (a slice of columns: a new row-major tensor)
        return make_data(tuple(x.shape[i] for i in order), row_major).transpose(np.argsort(order))
    return make_data(x.shape, True)


def _like(t, value, dtype, requires_grad, device, layout, memory_format=None, fn='zeros_like', more=(),
          pin_memory=False):
    if more:
        raise TypeError('%s() takes 1 positional argument but %d were given' % (fn, 1 + len(more)))
    if t is _NO_DATA:
        raise _missing(fn, 'input')
    dt.check_options(device, pin_memory)
    d = dt.to_dtype(dtype) if dtype is not None else t.dtype
    return _finish(_laid_out_like(t._data, memory_format, lambda shape, _: _allocate(shape, d, value)), requires_grad,
                   device, layout)


def zeros_like(input=_NO_DATA, *more, dtype=None, layout=None, device=None, requires_grad=False, memory_format=None,
               pin_memory=False):
    return _like(input, 0, dtype, requires_grad, device, layout, memory_format, 'zeros_like', more, pin_memory)


def ones_like(input=_NO_DATA, *more, dtype=None, layout=None, device=None, requires_grad=False, memory_format=None,
              pin_memory=False):
    return _like(input, 1, dtype, requires_grad, device, layout, memory_format, 'ones_like', more, pin_memory)


def empty_like(input=_NO_DATA, *more, dtype=None, layout=None, device=None, requires_grad=False, memory_format=None,
               pin_memory=False):
    return _like(input, UNINITIALISED, dtype, requires_grad, device, layout, memory_format, 'empty_like', more,
                 pin_memory)


def full_like(input=_NO_DATA, fill_value=_NO_DATA, *, dtype=None, layout=None, device=None, requires_grad=False,
              memory_format=None, pin_memory=False):
    if fill_value is _NO_DATA:
        raise _missing('full_like', *(['input'] if input is _NO_DATA else []), 'fill_value')
    return _like(input, _fill_number('full_like', fill_value), dtype, requires_grad, device, layout, memory_format,
                 'full_like', (), pin_memory)


def _random_dtype(dtype, kernel, shape=None):
    """The dtype of rand / randn: floating point only (PyTorch's kernels are not built for the others; randn's, whose
    check is its kernel's, does not run for a `shape` of no numbers, rand's checks its bounds first)."""
    d = dt.to_dtype(dtype) if dtype is not None else dt.default_float
    if d.is_complex:                    # (PyTorch draws complex numbers: the engine has none)
        d.refuse()
    if not d.is_floating_point and (shape is None or builtins.all(shape)):
        raise NotImplementedError('"%s" not implemented for \'%s\'' % (kernel, d.legacy))
    return d


_RAND_SIGNATURES = ''.join(
    ' * (tuple of ints size, *, %sTensor out = None, torch.dtype dtype = None, torch.layout layout = None, '
    'torch.device device = None, bool pin_memory = False, bool requires_grad = False)\n' % gen
    for gen in ('torch.Generator generator, ', ''))
_RAND_KEYWORDS = ('size', 'generator', 'dtype', 'requires_grad', 'device', 'layout', 'out', 'pin_memory')


def _random_factory(name, kernel, sample):
    """rand / randn: numbers of sample(generator, shape, numpy dtype) (PyTorch's for the same seed); PyTorch's
    parser's errors: no signature matches for a size missing altogether, an unknown keyword or a non-bool
    requires_grad."""
    def f(*size, out=None, **kw):
        rg = kw.get('requires_grad', False)
        if rg is None:                  # (`bool? requires_grad`: None stands for False)
            rg = False
        if builtins.any(k not in _RAND_KEYWORDS for k in kw) or not (size or kw) or type(rg) is not builtins.bool \
                or len(size) > 1 and not _is_index(size[0]) or size and 'size' in kw \
                or isinstance(kw.get('dtype'), str):
            raise invalid_arguments(name, size, kw, _RAND_SIGNATURES)
        if not size and 'size' not in kw:
            raise _missing(name, 'size')
        dt.check_options(kw.get('device'), kw.get('pin_memory'), out)
        dtype = _out_dtype(kw.get('dtype'), out, name)         # (PyTorch's order: out's dtype, the size, the kernel)
        shape = _size_into(size or (_keyword_size(name, kw['size']),), name, out)
        d = _random_dtype(dtype, kernel, shape if kernel == 'normal_kernel_cpu' else None)
        gen = kw.get('generator') or default_generator
        if out is not None and out.shape != shape and name == 'randn':
            out.resize_(shape)          # (randn's out= form resizes out first: a version of its own)
        return _finish(_generate(shape, d, lambda s: sample(gen, s, d.np)), rg, kw.get('device'), kw.get('layout'),
                       out=out)
    f.__name__ = f.__qualname__ = name
    return f


rand = _random_factory('rand', 'check_uniform_bounds', _random.uniform)
randn = _random_factory('randn', 'normal_kernel_cpu', _random.normal)


def normal(mean, std=1.0, size=None, *, generator=None, out=None, dtype=None, layout=None, device=None,
           pin_memory=False, requires_grad=False):
    """torch.normal: numbers from N(mean, std), PyTorch's for the same seed. Two numbers and a size give a tensor
    of that size; a tensor mean or std, one number per element (see _ops.normal_of). A call that fits none of
    PyTorch's signatures gets its parser's error (see _argparse's FUNCTIONS['normal'])."""
    if size is not None:            # (with a size, a 0-d tensor is a number, as PyTorch's parser reads one)
        mean, std = (x.item() if isinstance(x, Tensor) and not x._data.ndim and not x.requires_grad else x
                     for x in (mean, std))
    tensors = isinstance(mean, Tensor) or isinstance(std, Tensor)
    if tensors == (size is not None) or not (tensors or isinstance(size, (tuple, builtins.list))):
        raise TypeError('normal')
    dt.check_options(device, pin_memory, out)
    if tensors:
        from ._ops import normal_of
        if out is not None and ag.grad_enabled and builtins.any(
                isinstance(t, Tensor) and t.requires_grad for t in (mean, std, out)):
            raise out_grad_error('normal')
        if out is not None and isinstance(mean, Tensor) and not isinstance(std, Tensor):
            from ._ops import _check_broadcast          # (PyTorch draws into out as broadcast with mean, then adds)
            _check_broadcast(mean.shape, out.shape)
            mean = mean.expand(np.broadcast_shapes(mean.shape, out.shape))
        result = normal_of(mean, std, generator)
        if out is not None:
            from ._methods import _warn_resized
            _warn_resized(out, result.shape)
        return result if out is None else _finish(result._data, out=out, factory=False)
    dtype = _out_dtype(dtype, out, 'normal')
    if std < 0:
        raise RuntimeError('normal expects std >= 0.0, but found std %g' % std)
    shape = _size((size,), 'normal')
    d = _random_dtype(dtype, 'normal_kernel_cpu')
    data = _generate(shape, d, lambda s: _random.normal(generator or default_generator, s, d.np, mean, std))
    return _finish(data, requires_grad, device, layout, out=out)


_RANDINT_SIGNATURES = ''.join(
    ' * (%s, *, %sTensor out = None, torch.dtype dtype = None, torch.layout layout = None, torch.device device = None, '
    'bool pin_memory = False, bool requires_grad = False)\n' % (args, gen)
    for args in ('int high, tuple of ints size', 'int low, int high, tuple of ints size')
    for gen in ('torch.Generator generator, ', ''))


def randint(low=None, high=None, size=None, *, dtype=None, requires_grad=False, device=None, generator=None,
            out=None, layout=None, pin_memory=False):
    """randint(high, size) or randint(low, high, size): integers in [low, high), int64 unless dtype says."""
    if size is None and isinstance(high, (tuple, list, Size)):
        low, high, size = None, low, high                 # randint(high, size)
    elif high is None and size is not None:
        low, high = None, low                             # randint(high, size=size)
    given = [v for v in (low, high, size) if v is not None]
    if size is None and len(given) == 2:
        raise TypeError("randint(): argument 'size' (position 2) must be tuple of ints, not %s" % _parser_type(high))
    if not (isinstance(size, (tuple, list, Size)) and _is_index(high) and (low is None or _is_index(low))):
        raise TypeError('randint() received an invalid combination of arguments - got (%s), but expected one of:\n%s'
                        % (', '.join(_parser_type(v) for v in given), _RANDINT_SIGNATURES))
    dt.check_options(device, pin_memory, out)
    low = 0 if low is None else operator.index(low)
    if low >= high:
        raise RuntimeError("random_ expects 'from' to be less than 'to', but got from=%d >= to=%d" % (low, high))
    dtype = _out_dtype(dtype, out, 'randint')
    d = dt.to_dtype(dtype) if dtype is not None else dt.int64
    # (PyTorch's random_ checks that from and to - 1 fit the dtype: randint(300, (2,), dtype=torch.uint8))
    bounds = (0, 1) if d is dt.bool_ else (-np.finfo(d.np).max, np.finfo(d.np).max) if d.is_floating_point else (
        np.iinfo(d.np).min, np.iinfo(d.np).max)
    for name, value in (('from', low), ('to - 1', high - 1)):
        if not bounds[0] <= value <= bounds[1]:
            raise RuntimeError('%s is out of bounds for %s' % (name, dt.C_NAMES.get(d.name, d.name)))
    digits = {'float16': 11, 'float32': 24, 'float64': 53}.get(d.name)   # (then that a float holds them exactly)
    for line, name, value in ((110, 'from', low), (111, 'to - 1', high - 1)):
        if digits and not -2 ** digits <= value <= 2 ** digits:
            ag.torch_warn('%s is out of bounds [-(2^%d), 2^%d]. Due to precision limitations %s can support discrete '
                          'uniform distribution only within this range. This warning will become an error in '
                          'version 1.7 release, please fix the code in advance'
                          % (name, digits, digits, dt.C_NAMES[d.name]),
                          'aten/src/ATen/native/DistributionTemplates.h:%d' % line)
    shape = _size_into((size,), 'randint', out, False)
    data = _random.randint(generator or default_generator, low, high, shape).astype(d.np)
    return _finish(data, requires_grad, device, layout, out=out)


def _random_like_signatures(*firsts):
    return ''.join(' * (Tensor input, %s*, %storch.memory_format memory_format = None, torch.dtype dtype = None, '
                   'torch.layout layout = None, torch.device device = None, bool pin_memory = False, bool '
                   'requires_grad = False)\n' % (first, gen)
                   for first in firsts for gen in ('torch.Generator generator, ', ''))


def randint_like(input=_NO_DATA, low=None, high=None, *, generator=None, dtype=None, requires_grad=False,
                 device=None, layout=None, memory_format=None, pin_memory=False):
    """randint_like(input, high) or randint_like(input, low, high): randint's numbers in input's shape and dtype."""
    if low is None:
        low, high = high, None                            # (randint_like(input, high=3))
    if input is _NO_DATA or low is None:
        raise invalid_arguments('randint_like', [v for v in (input, low, high) if v is not _NO_DATA and v is not None],
                                {}, _random_like_signatures('int low, int high, ', 'Tensor high, ', 'int high, '))
    if high is None:
        low, high = 0, low
    dt.check_options(device, pin_memory)
    return _random_like(input, memory_format, lambda shape, _: randint(
        low, high, shape, dtype=dtype or input.dtype, requires_grad=requires_grad, device=device,
        generator=generator))


def _random_like(input, memory_format, draw):
    """draw(shape, row_major)'s tensor laid out as a *_like result (its numbers in memory order, _laid_out_like)."""
    out = []
    data = _laid_out_like(input._data, memory_format,
                          lambda shape, row_major: out.append(draw(Size(shape), row_major)) or out[0]._data)
    out[0]._data = data
    return out[0]


def rand_like(input=_NO_DATA, *, generator=None, dtype=None, requires_grad=False, device=None, layout=None,
              memory_format=None, pin_memory=False):
    if input is _NO_DATA:
        raise invalid_arguments('rand_like', (), {}, _random_like_signatures(''))
    dt.check_options(device, pin_memory)
    return _random_like(input, memory_format, lambda shape, _: rand(
        shape, dtype=dtype or input.dtype, requires_grad=requires_grad, device=device, generator=generator))


def randn_like(input=_NO_DATA, *, generator=None, dtype=None, requires_grad=False, device=None, layout=None,
               memory_format=None, pin_memory=False):
    """randn's numbers; in a result not row-major one by one (PyTorch's vectorised kernel takes contiguous ones)."""
    if input is _NO_DATA:
        raise invalid_arguments('randn_like', (), {}, _random_like_signatures(''))
    dt.check_options(device, pin_memory)

    def draw(shape, row_major):
        if row_major:
            return randn(shape, dtype=dtype or input.dtype, requires_grad=requires_grad, device=device,
                         generator=generator)
        d = _random_dtype(dtype or input.dtype, 'normal_kernel_cpu')
        gen = generator or default_generator
        return _finish(_generate(shape, d, lambda s: _random.normal(gen, s, d.np, contiguous=False)),
                       requires_grad, device)
    return _random_like(input, memory_format, draw)


_RANDPERM_SIGNATURES = ''.join(
    ' * (int n, *, %sTensor out = None, torch.dtype dtype = None, torch.layout layout = None, torch.device device = '
    'None, bool pin_memory = False, bool requires_grad = False)\n' % gen for gen in ('torch.Generator generator, ', ''))


def randperm(*args, out=None, dtype=None, requires_grad=False, device=None, generator=None, layout=None,
             pin_memory=False, **named):
    n, = _bind('randperm', ('n',), ('n',), args, named, _RANDPERM_SIGNATURES)
    dt.check_options(device, pin_memory, out)
    _check_int(n, 'randperm', 'n')
    n = operator.index(n)                                 # (an int tensor or a numpy int: its Python int)
    dtype = _out_dtype(dtype, out, 'randperm')
    _size(((n,),), 'randperm')                            # (the error for a negative n)
    d = dt.to_dtype(dtype) if dtype is not None else dt.int64
    _check_randperm_dtype(n, d)
    return _finish(_random.randperm(generator or default_generator, n).astype(d.np), requires_grad, device, layout,
                   out=out)


_RANDPERM_FLOAT_LIMITS = {'float16': (2049, '2049', 'Half'), 'float32': (2 ** 24 + 1, '2^24+1', 'Float')}


def _check_randperm_dtype(n, d):
    """PyTorch's randperm kernel's checks (before requires_grad's): no bool version, n - 1 must fit an integer
    dtype, and a float dtype must hold every integer up to n exactly."""
    if d is dt.bool_:
        raise NotImplementedError('"randperm" not implemented for \'Bool\'')
    if not d.is_floating_point:
        if n > 0:
            dt.check_scalar(n - 1, d)
    elif d.name in _RANDPERM_FLOAT_LIMITS and n > _RANDPERM_FLOAT_LIMITS[d.name][0]:
        raise RuntimeError('n cannot be greater than %s for %s type.' % _RANDPERM_FLOAT_LIMITS[d.name][1:])


def _num(x):
    return x.item() if isinstance(x, Tensor) else x


def _check_int(x, fn, name, pos=1):
    """PyTorch's parser's TypeError for an `int` argument given something else."""
    if not _is_index(x):
        raise TypeError("%s(): argument '%s' (position %d) must be int, not %s" % (fn, name, pos, _parser_type(x)))


_ARANGE_SIGNATURES = ''.join(
    ' * (%s, *, %storch.dtype dtype = None, torch.layout layout = None, torch.device device = None, '
    'bool pin_memory = False, bool requires_grad = False)\n' % sig
    for sig in (('Number end', 'Tensor out = None, '), ('Number start, Number end', ''),
                ('Number start, Number end, Number step = 1', 'Tensor out = None, ')))


def _c_div(a, b):
    """a / b of C++ integers: the quotient truncated toward zero."""
    q = builtins.abs(a) // builtins.abs(b)
    return q if (a < 0) == (b < 0) else -q


_ARANGE_OPTIONS = ('out', 'dtype', 'layout', 'device', 'pin_memory', 'requires_grad')


def _arange_args(args, kwargs):
    """start, end, step and the options of arange(end) / arange(start, end) / arange(start, end, step), given by
    position or by name, as PyTorch's parser reads them; its errors when none fits (the one plausible signature's
    when a single argument is given, the list of them otherwise)."""
    named = {k: v for k, v in kwargs.items() if k in ('start', 'end', 'step')}
    options = {k: v for k, v in kwargs.items() if k in _ARANGE_OPTIONS}
    if len(named) + len(options) == len(kwargs):
        if len(args) == 1 and not named:
            return 0, args[0], None, options
        if not args and list(named) == ['end']:
            return 0, named['end'], None, options
        pos = dict(zip(('start', 'end', 'step'), args))
        if len(args) <= 3 and not set(pos) & set(named) and {'start', 'end'} <= set(pos) | set(named):
            pos.update(named)
            return pos['start'], pos['end'], pos.get('step'), options
    if len(args) + len(kwargs) == 1:              # only arange(end) takes one argument
        raise _missing('arange', 'end')
    raise invalid_arguments('arange', args, kwargs, _ARANGE_SIGNATURES)


def arange(*args, out=None, **kwargs):
    """[start, end) in steps: int64 for integer arguments, float32 (the default dtype) otherwise. For an integer
    dtype PyTorch's kernel truncates start, end and step to int64 first (its size from them for int64)."""
    start, end, step, options = _arange_args(args, kwargs)
    dtype, layout, device = (options.get(k) for k in ('dtype', 'layout', 'device'))
    dt.check_options(device, options.get('pin_memory'), out)
    requires_grad = options.get('requires_grad', False)
    if requires_grad is None:           # (`bool? requires_grad`: None stands for False)
        requires_grad = False
    given = list(args) + [v for k, v in kwargs.items() if k in ('start', 'end', 'step')]
    # (a Number: a Python or numpy number, or a 0-d tensor that needs no grad)
    if builtins.any(not (isinstance(v, (builtins.int, builtins.float, builtins.complex, np.number, np.bool_))
                         or isinstance(v, Tensor) and not v._data.ndim and not v.requires_grad) for v in given) \
            or type(requires_grad) is not builtins.bool:
        if len(args) + len(kwargs) == 1:
            raise TypeError("arange(): argument 'end' (position 1) must be Number, not %s" % _parser_type(end))
        raise invalid_arguments('arange', args, kwargs, _ARANGE_SIGNATURES)
    from ._ops import _check_int as _check_scalar_int
    for v in given:                     # (the parser takes a Python int as an int64 or a uint64 Scalar)
        if type(v) is builtins.int:
            _check_scalar_int(v)
    step = 1 if step is None else step
    start, end, step = _num(start), _num(end), _num(step)
    # (a numpy bool is a Number to PyTorch's parser, read as a double)
    start, end, step = (builtins.float(v) if isinstance(v, np.bool_) else v for v in (start, end, step))
    floaty = builtins.any(isinstance(v, (builtins.float, np.floating)) for v in (start, end, step))
    # (numbers as the parser's Scalars: doubles and int64s, not numpy's float32 arithmetic for the size)
    start, end, step = (v.item() if isinstance(v, (np.floating, np.integer)) else v for v in (start, end, step))
    dtype = _out_dtype(dtype, out, 'arange')
    d = dt.to_dtype(dtype) if dtype is not None else dt.default_float if floaty else dt.int64
    if d is dt.bool_:                   # (no kernel: before the checks of the values)
        raise NotImplementedError('"arange_cpu" not implemented for \'Bool\'')
    start, end, step = (_to_acc(v, 'double') if isinstance(v, (builtins.complex, np.complexfloating)) else v
                        for v in (start, end, step))
    if not d.is_floating_point:         # (the kernel takes them as int64 first: a value too large is an overflow)
        for v in (start, end, step):
            _to_acc(v, 'int64_t')
    _check_range(start, end, step)
    n = builtins.int(math.ceil((end - start) / step))
    if n > 2 ** 63:                     # (PyTorch's check of the size, as a double)
        raise RuntimeError('invalid size, possible overflow?')
    if out is not None and out.numel() and out.numel() != n:
        warnings.warn('The number of elements in the out tensor of shape [%s] is %d which does not match the computed '
                      'number of elements %d. Note that this may occur as a result of rounding error. The out tensor '
                      'will be resized to a tensor of shape (%d,). (Triggered internally at /__w/pytorch/pytorch/aten/'
                      'src/ATen/native/RangeFactories.cpp:199.)' % (', '.join(map(str, out.shape)), out.numel(), n, n),
                      UserWarning, stacklevel=user_stacklevel())
    _check_bytes((n,), d)
    if d.is_floating_point:
        return _finish(_arange_float(start, step, n, d.np), requires_grad, device, layout, out=out, keep_shape=True)
    first, last, by = builtins.int(start), builtins.int(end), builtins.int(step)
    if d is dt.int64:
        if by == 0:
            raise ValueError('step must be nonzero')
        n = _c_div(last - first + by - (by > 0) + (by < 0), by)
    data = first + np.arange(n, dtype=np.int64) * by
    return _finish(data.astype(d.np), requires_grad, device, layout, out=out, keep_shape=True)


def _arange_float(start, step, n, npd):
    """PyTorch's arange kernel for floats: start + step * i in double, by vectors of 8 floats or 4 doubles (AVX2),
    each vector from its first number (rounded to the dtype) plus step * lane; numbers after the last pair of
    vectors one by one."""
    i = np.arange(n, dtype=np.float64)
    if npd == np.float16:           # (halves: start and step as floats, vectors of 16 halves each from its first)
        st, by = np.float32(start), np.float32(step)
        out = _fma64(float(by), i, float(st)).astype(np.float32).astype(npd)
        whole = n // 32 * 32
        if whole:
            base = out[:whole:16].astype(np.float32)[:, None]
            out[:whole] = (base + np.arange(16, dtype=np.float32) * by).astype(npd).ravel()
        return out
    lanes = 8 if npd == np.float32 else 4 if npd == np.float64 else 0
    whole = n // (2 * lanes) * 2 * lanes if lanes else 0
    out = _fma64(step, i, start).astype(npd)
    if whole:
        base = out[:whole:lanes].astype(np.float64)[:, None]
        out[:whole] = _fma64(np.arange(lanes, dtype=np.float64), step, base).astype(npd).ravel()
    return out


_RANGE_SIGNATURE = ('range(Scalar start, Scalar end, Scalar step=1, *, Tensor out=None, ScalarType dtype=None, '
                    'Layout layout=torch.strided, Device device=None, bool requires_grad=False)')
_range_signature = []


def _to_acc(x, acc):
    """Scalar::to<acc>() of the range kernels: a 0-d tensor's value; a complex one with an imaginary part, or a value
    an int64 cannot hold, is an overflow; a float to an int64 is truncated."""
    x = x.item() if isinstance(x, Tensor) else x
    if isinstance(x, (builtins.complex, np.complexfloating)):
        if x.imag:
            raise RuntimeError('value cannot be converted to type %s without overflow' % acc)
        x = x.real
    if acc != 'int64_t':
        return builtins.float(x)
    if not -2 ** 63 <= x < 2 ** 63:     # (a float, or an int above int64's range: a uint64 Scalar)
        raise RuntimeError('value cannot be converted to type int64_t without overflow')
    return builtins.int(x)


def _check_range(start, end, step):
    """arange_check_bounds: PyTorch's checks of a range's start, end and step (as doubles)."""
    if not (step > 0 or step < 0):
        raise RuntimeError('step must be nonzero')
    if not (math.isfinite(start) and math.isfinite(end)):
        raise RuntimeError('unsupported range: %g -> %g' % (start, end))
    if (end - start) * step < 0:
        raise RuntimeError('upper bound and lower bound inconsistent with step sign')


def range(*args, out=None, **kwargs):
    """Deprecated: [start, end] including the end, float32 by default. PyTorch's parser reads the arguments (its
    errors), then it warns; its kernel (none for bool) takes start, end and step as the dtype's accumulate type
    first: int64 for integer dtypes (floats truncated), float for half, else double, and checks them then."""
    if not _range_signature:
        from ._argparse import Signature
        _range_signature.append(Signature(_RANGE_SIGNATURE))
    start, end, step, _, dtype, layout, device, requires_grad = _range_signature[0].parse(
        args, dict(kwargs, out=out) if out is not None else kwargs, True)
    warnings.warn('torch.range is deprecated and will be removed in a future release because its behavior is '
                  'inconsistent with Python\'s range builtin. Instead, use torch.arange, which produces values in '
                  '[start, end).', UserWarning, stacklevel=2)
    dtype = _out_dtype(dtype, out, 'range')
    d = dt.to_dtype(dtype) if dtype is not None else dt.default_float
    if d is dt.bool_:
        raise NotImplementedError('"range_cpu" not implemented for \'Bool\'')
    acc = 'double' if d.is_floating_point and d is not dt.float16 else 'float' if d.is_floating_point else 'int64_t'
    given = (start, end, 1 if step is None else step)
    start, end, step = (_to_acc(v, acc) for v in given)
    _check_range(*(_to_acc(v, 'double') for v in given))        # (PyTorch checks the values as doubles)
    if acc == 'int64_t':                # (C++ integer arithmetic: the quotient truncated)
        n = _c_div(end - start, step) + 1
        data = start + np.arange(n, dtype=np.int64) * step
    elif acc == 'float':
        n = builtins.int((np.float32(end) - np.float32(start)) / np.float32(step) + np.float32(1))
        data = np.float32(start) + np.arange(n, dtype=np.float32) * np.float32(step)
    else:
        n = builtins.int((end - start) / step + 1)
        data = start + np.arange(n, dtype=np.float64) * step      # (in double, no fused multiply-add)
    return _finish(dt.convert(data, d) if acc == 'int64_t' else data.astype(d.np), requires_grad, device, layout,
                   out=out, keep_shape=True)


_LINSPACE_SIGNATURES = ''.join(
    ' * (%s start, %s end, int steps, *, Tensor out = None, torch.dtype dtype = None, torch.layout layout = None, '
    'torch.device device = None, bool pin_memory = False, bool requires_grad = False)\n' % pair
    for pair in (('Tensor', 'Tensor'), ('Number', 'Tensor'), ('Tensor', 'Number'), ('Number', 'Number')))


_LOGSPACE_SIGNATURES = _LINSPACE_SIGNATURES.replace('int steps, *', 'int steps, float base = 10.0, *')


_SPACE_OPTIONS = ('dtype', 'layout', 'device', 'requires_grad', 'pin_memory')


def _space_options(given):
    """linspace / logspace's keywords: (the rest, dtype, layout, device, requires_grad, pin_memory). The parser's
    TypeError lists every keyword given, so the functions keep them all (`given`) for it. (`out` is a parameter of
    its own: see _methods.native.)"""
    named = {k: v for k, v in given.items() if k not in _SPACE_OPTIONS}
    return (named,) + tuple(given.get(k, False if k == 'requires_grad' else None) for k in _SPACE_OPTIONS)


def _spaced(start, end, dtype):
    """Whether linspace / logspace's start and end fit a signature (numbers or tensors), and the dtype (a torch
    dtype or one of Python's types: np.float32 or 'float' fit none)."""
    return builtins.all(isinstance(v, (Tensor, builtins.int, builtins.float, builtins.complex, np.number))
                        for v in (start, end)) and (dtype is None or _argparse.parser_dtype(dtype))


def _check_0d(fn, start, end):
    """linspace / logspace's overloads taking tensors: only 0-d ones."""
    dims = ['%s with %d dimension(s)' % (name, v._data.ndim) for name, v in (('start', start), ('end', end))
            if isinstance(v, Tensor) and v._data.ndim]
    if dims:
        raise RuntimeError('%s only supports 0-dimensional start and end tensors, but got %s.'
                           % (fn, ' and '.join(dims)))


def linspace(*args, out=None, **given):
    named, dtype, layout, device, requires_grad, pin_memory = _space_options(given)
    shown = given if out is None else dict(given, out=out)          # (the parser's error lists out= too)
    start, end, steps = _bind('linspace', ('start', 'end', 'steps'), ('start', 'end', 'steps'), args, named,
                              _LINSPACE_SIGNATURES, shown)
    if not _is_index(steps) or not _spaced(start, end, dtype):
        raise invalid_arguments('linspace', args, shown, _LINSPACE_SIGNATURES)
    steps = operator.index(steps)
    dt.check_options(device, pin_memory, out)
    dtype = _out_dtype(dtype, out, 'linspace')         # (PyTorch's order: out, the tensors' dimensions, steps)
    _check_0d('linspace', start, end)
    if steps < 0:
        raise RuntimeError('number of steps must be non-negative')
    d = dt.to_dtype(dtype) if dtype is not None else dt.default_float
    start, end = _num(start), _num(end)
    if steps > 1 and d is dt.bool_:
        raise NotImplementedError('"linspace_cpu" not implemented for \'Bool\'')
    if steps and d is not dt.bool_:     # (the kernel takes start and end as the dtype's values: checked, wrapped)
        start = dt.check_scalar(start, d)
        end = dt.check_scalar(end, d) if steps > 1 else end
    return _finish(_linspace(start, end, steps, d.np), requires_grad, device, layout, out=out, keep_shape=True)


def _linspace(start, end, steps, npd):
    """PyTorch's linspace kernel: step = (end - start) / (steps - 1) in the dtype (double for integers); the first
    half start + step * i, the second end - step * (steps - 1 - i), each a fused multiply-add."""
    if steps <= 1 or npd.kind not in 'fiu':
        return np.linspace(start, end, steps).astype(npd) if steps != 1 else np.full(1, start).astype(npd)
    if npd == np.float16:           # (halves: every step of the arithmetic rounded to half, as c10::Half computes)
        h, f = np.float16, np.float32
        st, en = h(f(start)), h(f(end))
        step = h(f(h(f(en) - f(st))) / f(h(steps - 1)))
        i = np.arange(steps)
        first = i < steps // 2
        prod = (f(step) * np.where(first, i, steps - 1 - i).astype(h).astype(f)).astype(h).astype(f)
        return np.where(first, f(st) + prod, f(en) - prod).astype(h)
    f32 = npd == np.float32
    t = npd.type if npd.kind == 'f' else np.int64
    st, en = t(start), t(end)
    step = (np.float32(en) - np.float32(st)) / np.float32(steps - 1) if f32 else (float(en) - float(st)) / (steps - 1)
    i = np.arange(steps)
    first = i < steps // 2
    k = np.where(first, i, steps - 1 - i).astype(np.float64)
    a, c = np.where(first, step, -step), np.where(first, float(st), float(en))
    out = (a * k + c) if f32 else _fma64(a, k, c)              # (float32: the product is exact in double)
    return out.astype(npd)


def _bind(fn, names, required, args, named, signatures, given=None):
    """The arguments `names` of linspace / logspace given by position or by name, or the parser's TypeError listing
    the signatures when they do not fit them (too many, given twice, unknown, missing)."""
    bound = dict(zip(names, args))
    if len(args) > len(names) or set(bound) & set(named) or set(named) - set(names) \
            or not set(required) <= set(bound) | set(named):
        raise invalid_arguments(fn, args, named if given is None else given, signatures)
    bound.update(named)
    return [bound.get(k) for k in names]


def logspace(*args, out=None, **given):
    """base ** exponent, PyTorch's kernel: start and end in the dtype, a double step (end - start) / (steps - 1), the
    exponent in double from start for the first half and from end for the second, a double pow, rounded to the dtype.
    (float32 agrees to the last bit; float64's pow differs from PyTorch's vectorised one in the last bit at times.)"""
    named, dtype, layout, device, requires_grad, pin_memory = _space_options(given)
    shown = given if out is None else dict(given, out=out)          # (the parser's error lists out= too)
    start, end, steps, base = _bind('logspace', ('start', 'end', 'steps', 'base'), ('start', 'end', 'steps'),
                                    args, named, _LOGSPACE_SIGNATURES, shown)
    if base is None:
        base = 10.0
    if not _is_index(steps) or not isinstance(base, (builtins.int, builtins.float, np.number)) \
            or not _spaced(start, end, dtype):
        raise invalid_arguments('logspace', args, shown, _LOGSPACE_SIGNATURES)
    steps = operator.index(steps)
    dt.check_options(device, pin_memory, out)
    dtype = _out_dtype(dtype, out, 'logspace')         # (PyTorch's order: out, the tensors' dimensions, steps)
    _check_0d('logspace', start, end)
    if steps < 0:
        raise RuntimeError('number of steps must be non-negative')
    d = dt.to_dtype(dtype) if dtype is not None else dt.default_float
    t = d.np.type if d.np.kind == 'f' else np.int64
    st, en = t(_num(start)), t(_num(end))
    if steps == 1:
        # (one step: PyTorch fills in base ** start, start a double, not rounded to the dtype first)
        return _finish(np.array([float(base) ** float(_num(start))]).astype(d.np), requires_grad, device, layout,
                       out=out, keep_shape=True)
    if d is dt.bool_ and steps:
        raise NotImplementedError('"logspace_cpu" not implemented for \'Bool\'')
    step = float(en - st) / (steps - 1) if steps else 0.0
    i = np.arange(steps, dtype=np.int64)
    first = i < steps // 2
    exponent = np.where(first, float(st) + step * i, float(en) - step * (steps - 1 - i))
    return _finish(np.power(float(base), exponent).astype(d.np), requires_grad, device, layout, out=out,
                   keep_shape=True)


_EYE_SIGNATURES = ''.join(
    ' * (%s, *, Tensor out = None, torch.dtype dtype = None, torch.layout layout = None, torch.device device = None, '
    'bool pin_memory = False, bool requires_grad = False)\n' % args for args in ('int n', 'int n, int m'))


def eye(*args, out=None, dtype=None, layout=None, device=None, requires_grad=False, pin_memory=False, **named):
    n, m = _bind('eye', ('n', 'm'), ('n',), args, named, _EYE_SIGNATURES)
    if 'm' in named and m is None or len(args) + len(named) == 2 and not _is_index(m):
        raise invalid_arguments('eye', args, named, _EYE_SIGNATURES)
    _check_int(n, 'eye', 'n')
    dt.check_options(device, pin_memory, out)
    dtype = _out_dtype(dtype, out, 'eye')               # (PyTorch's order: out's dtype, then n and m)
    for name, v in (('n', n), ('m', m)):
        if v is not None and v < 0:
            raise RuntimeError('%s must be greater or equal to 0, got %d' % (name, v))
    d = dt.to_dtype(dtype) if dtype is not None else dt.default_float
    return _finish(np.eye(n, m, dtype=d.np), requires_grad, device, layout, out=out)


# ------------------------------------------------------------------------------------------------ legacy constructors

_NEW_SIGNATURES = ('(*, torch.device device = None)', '(torch.Storage storage)', '(Tensor other)',
                   '(tuple of ints size, *, torch.device device = None)',
                   '(object data, *, torch.device device = None)')


def _new_keywords(args, kwargs):
    """The legacy constructors' signatures name their one argument (size, data, other: torch.FloatTensor(size=(2,)),
    torch.Tensor(data=[1., 2.])): such a keyword given alone stands for the positional argument ('size' as a tuple or
    list of ints, 'other' a tensor). Anything else fits no signature: PyTorch's TypeError listing them."""
    named = [k for k in kwargs if k != 'device']
    if not args and len(named) == 1:
        key, x = named[0], kwargs[named[0]]
        if key == 'size' and isinstance(x, (tuple, list)) and builtins.all(_is_index(s) for s in x):
            return 'size', x
        if key == 'data' or key == 'other' and isinstance(x, Tensor):
            return key, x
    from ._argparse import invalid_combination
    raise invalid_combination('new', _NEW_SIGNATURES, args, kwargs)


def _options(d):
    return ('TensorOptions(dtype=%s, device=cpu, layout=Strided, requires_grad=false (default), '
            'pinned_memory=false (default), memory_format=(nullopt))' % dt.C_NAMES[d.name])


def legacy_constructor(d, args, kwargs, any_dtype=False):
    """torch.FloatTensor(2) is an uninitialised size-2 tensor; torch.FloatTensor([2]) holds 2. A tensor argument
    gives an alias of it (a view, AliasBackward0, as PyTorch's `other.alias()`): of dtype d, or of any dtype for
    torch.Tensor (`any_dtype`)."""
    key = None
    if len(kwargs) > ('device' in kwargs):
        key, x = _new_keywords(args, kwargs)
        args = (x,)
    dev = kwargs.get('device')
    if 'device' in kwargs and len(args) == 1 and isinstance(args[0], Tensor):
        raise RuntimeError('Legacy tensor constructor of the form torch.Tensor(tensor, device=device) is not '
                           'supported.  Use torch.tensor(...) or torch.as_tensor(...) instead.')
    if isinstance(dev, (str, dt.device)):
        kind = (dt.device(dev) if isinstance(dev, str) else dev).type
        if kind != 'cpu':
            raise RuntimeError('legacy constructor expects device type: cpu but device type: %s was passed' % kind)
    dt.check_device(dev)
    if not args:
        return make(np.zeros((0,), d.np))
    x = args[0]
    if key == 'size':
        return make(_allocate(_size((tuple(x),), 'new'), d))
    if len(args) == 1 and isinstance(x, Tensor) and key != 'data':
        if x.dtype is not d and not any_dtype:
            raise TypeError('expected %s (got %s)' % (_options(d), _options(x.dtype)))
        from ._ops import _view_result, AliasBackward0
        return _view_result(x, x._data.view(), AliasBackward0)
    if key == 'data' or len(args) == 1 and not _is_index(x) and not isinstance(x, Size):
        if isinstance(x, str):
            raise TypeError("new(): invalid data type 'str'")
        if not isinstance(x, (list, tuple, builtins.range, np.ndarray)):
            raise TypeError('new(): data must be a sequence (got %s)' % _parser_type(x))
        if isinstance(x, np.ndarray):       # (PyTorch reads an array as from_numpy: its memory, when of dtype d)
            return as_tensor(x, d)
        return tensor(x, dtype=d)
    if len(args) > 1 and not _is_index(x):      # neither sizes nor one data argument: no signature matches
        types = ', '.join('!%s!' % _arg_desc(a) for a in args)
        raise invalid_arguments('new', args, kwargs, ''.join(
            ' * %s\n' % sig + ("      didn't match because some of the arguments have invalid types: (%s)\n" % types
                               if i == 0 else '') for i, sig in enumerate(_NEW_SIGNATURES)))
    return make(_allocate(_size(args, 'new'), d))


def _arg_desc(x):
    """An argument as the parser's 'invalid types' line names it: a list or tuple with its elements' types."""
    if type(x) in (list, tuple):
        return ('list of [%s]' if type(x) is list else 'tuple of (%s,)' if len(x) == 1 else 'tuple of (%s)') \
            % ', '.join(map(_parser_type, x))
    return _parser_type(x)


class _LegacyMeta(type):
    def __instancecheck__(cls, obj):
        return isinstance(obj, Tensor) and obj.dtype is cls._dtype

    def __getitem__(cls, key):
        """torch.FloatTensor[2] (brackets for parentheses): Python's error naming the C type as PyTorch's is named."""
        raise TypeError("type 'torch.%s' is not subscriptable" % cls.__name__)


_LegacyMeta.__name__ = _LegacyMeta.__qualname__ = 'tensortype'     # (type(torch.FloatTensor) is torch.tensortype)
_LegacyMeta.__module__ = 'torch'


def _legacy(name, d):
    def __new__(cls, *args, **kwargs):
        return legacy_constructor(d, args, kwargs)
    return _LegacyMeta(name, (), {'__new__': __new__, '_dtype': d, 'dtype': d, 'is_cuda': False, '__module__': 'torch'})


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


def set_default_dtype(d):
    """The dtype of Python floats in new tensors: float16, float32 or float64."""
    _set_default(d, 'dtype')


def set_default_tensor_type(t):
    """Deprecated: the default dtype given as a legacy type (torch.DoubleTensor) or its dotted name, looked up as
    PyTorch's _import_dotted_name does (`torch` is this module); a CUDA type is not available on a CPU build."""
    if isinstance(t, str):
        first, *rest = t.split('.')
        t = sys.modules[__package__] if first == 'torch' else importlib.import_module(first)
        for name in rest:
            t = getattr(t, name)
    warn_once('torch.set_default_tensor_type() is deprecated as of PyTorch 2.1, please use torch.set_default_dtype() '
              'and torch.set_default_device() as alternatives.', 'torch/csrc/tensor/python_tensor.cpp:434')
    if getattr(t, '_cuda', False):      # (`torch.set_default_tensor_type('torch.cuda.FloatTensor')`, as GPU code does)
        raise TypeError('type torch.cuda.%s not available. Torch not compiled with CUDA enabled.' % t.__name__)
    _set_default(getattr(t, '_dtype', None) if isinstance(t, _LegacyMeta) else None, 'type')


def _set_default(d, what):
    if not isinstance(d, dt.dtype):
        raise TypeError('invalid %s object: only floating-point types are supported as the default type' % what)
    if not d.is_floating_point:
        raise TypeError('only floating-point types are supported as the default type')
    dt.default_float = d
