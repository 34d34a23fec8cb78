"""dtypes, layouts and devices, and PyTorch's type-promotion rules."""
import builtins
import re

import numpy as np


# Each dtype's C++ type (by numpy name), as PyTorch's messages name it: "... but got: long int != float"
C_NAMES = {'float32': 'float', 'float64': 'double', 'float16': 'c10::Half', 'int64': 'long int', 'int32': 'int',
           'int16': 'short int', 'int8': 'signed char', 'uint8': 'unsigned char', 'bool': 'bool'}


def c_type_format(self, spec):
    """`object.__format__` as PyTorch's C types have it: a non-empty spec is refused naming `torch.<type>`."""
    if spec:
        raise TypeError('unsupported format string passed to %s.%s.__format__'
                        % (type(self).__module__, type(self).__name__))
    return str(self)


class CType(type):
    """The type of an engine class standing for one of PyTorch's C types (torch.dtype, torch.Size, ...). Python's
    own messages name an object's type by its C name, which for those is the full one ("'torch.Size' object is not
    callable", "'torch.dtype' object has no attribute 'foo'", "unsupported operand type(s) for +: 'torch.device' and
    'int'"): c_type gives the class that name there; its __name__ stays the last part of it, as PyTorch's."""
    @property
    def __name__(cls):
        return cls.__qualname__


CType.__name__ = CType.__qualname__ = 'type'      # (type(torch.dtype) shows <class 'type'>)
CType.__module__ = 'builtins'


def c_type(full):
    """Class decorator: the class (of metaclass CType) named `full` in Python's messages."""
    def named(cls):
        type.__dict__['__name__'].__set__(cls, full)
        return cls
    return named


@c_type('torch.dtype')
class dtype(metaclass=CType):
    """A tensor element type, printed as PyTorch prints it (`torch.float32`)."""
    __module__ = 'torch'          # type(x.dtype) shows <class 'torch.dtype'>
    __format__ = c_type_format
    __slots__ = ('name', 'np', 'is_floating_point', 'is_complex', 'is_signed', 'itemsize', 'legacy', 'category')
    _SHOWN = ('is_floating_point', 'is_complex', 'is_signed', 'itemsize')

    def __new__(cls, *args, **kwargs):
        raise TypeError("cannot create 'torch.dtype' instances")      # (as PyTorch's: only its own dtypes exist)

    @classmethod
    def _make(cls, name, np_type, category, legacy):
        self = object.__new__(cls)
        set_ = object.__setattr__
        set_(self, 'name', name)
        set_(self, 'np', np.dtype(np_type))
        set_(self, 'category', category)                   # 0 bool, 1 integer, 2 floating point
        set_(self, 'is_floating_point', category == 2)
        set_(self, 'is_complex', False)
        set_(self, 'is_signed', name not in ('bool', 'uint8'))
        set_(self, 'itemsize', self.np.itemsize)
        set_(self, 'legacy', legacy)                       # 'Float' as in torch.FloatTensor
        return self

    def __setattr__(self, name, value):
        if name in self._SHOWN or name == 'abbr':
            raise AttributeError("attribute '%s' of 'torch.dtype' objects is not writable" % name)
        object.__setattr__(self, name, value)

    def __dir__(self):
        """PyTorch's names (Python's "Did you mean" searches them), not the engine's own fields."""
        return set(object.__dir__(self)).difference(('__slots__', 'name', 'np', 'legacy', 'category', '_SHOWN',
                                                     '_make')).union(
            ('to_complex',))

    def __repr__(self):
        return 'torch.' + self.name

    @property
    def abbr(self):
        """The short name PyTorch prints dtypes by elsewhere: 'f32', 'i64', 'b8'."""
        return ('b' if self is bool_ else self.name[0]) + builtins.str(8 * self.itemsize)

    def to_real(self):
        return self

    def __reduce__(self):
        return self.name


bool_ = dtype._make('bool', np.bool_, 0, 'Bool')
uint8 = dtype._make('uint8', np.uint8, 1, 'Byte')
int8 = dtype._make('int8', np.int8, 1, 'Char')
int16 = dtype._make('int16', np.int16, 1, 'Short')
int32 = dtype._make('int32', np.int32, 1, 'Int')
int64 = dtype._make('int64', np.int64, 1, 'Long')
float16 = dtype._make('float16', np.float16, 2, 'Half')
float32 = dtype._make('float32', np.float32, 2, 'Float')
float64 = dtype._make('float64', np.float64, 2, 'Double')

ALL = (bool_, uint8, int8, int16, int32, int64, float16, float32, float64)
FROM_NP = {d.np: d for d in ALL}
# The type a Python int of 2**63 or more takes part in promotion as (c10::Scalar's uint64; no tensor has it here):
# PyTorch refuses to promote it with an integer or bool type.
_uint64 = dtype._make('uint64', np.uint64, 1, 'UInt64')
_RANK = {d: i for i, d in enumerate(ALL[:6] + (_uint64,) + ALL[6:])}


class _Unmodelled(dtype):
    """A dtype PyTorch has that the engine does not model (numpy has no bfloat16; complex numbers are out of scope):
    it exists, prints and compares as PyTorch's, so that code naming it runs (nanoGPT's table of dtypes); a tensor
    of it is a clear TypeError, raised wherever the engine asks for its numpy type."""
    __slots__ = ()
    # (type(torch.bfloat16) is <class 'torch.dtype'>, as the others')
    __module__, __name__, __qualname__ = 'torch', 'dtype', 'dtype'

    @property
    def np(self):
        self.refuse()

    def refuse(self):
        raise TypeError('%s tensors are not supported in Autograd Playground'
                        % ('complex' if self.is_complex else self.name))

    @classmethod
    def _make(cls, name, itemsize, is_complex, legacy):
        self = object.__new__(cls)
        for k, v in (('name', name), ('category', 2), ('is_floating_point', not is_complex),
                     ('is_complex', is_complex), ('is_signed', True), ('itemsize', itemsize), ('legacy', legacy)):
            object.__setattr__(self, k, v)
        return self


bfloat16 = _Unmodelled._make('bfloat16', 2, False, 'BFloat16')
complex32 = _Unmodelled._make('complex32', 4, True, 'ComplexHalf')
complex64 = _Unmodelled._make('complex64', 8, True, 'ComplexFloat')
complex128 = _Unmodelled._make('complex128', 16, True, 'ComplexDouble')

default_float = float32


def from_numpy_dtype(np_dtype):
    """The engine dtype of a numpy dtype; TypeError for the ones PyTorch has no match for."""
    try:
        return FROM_NP[np.dtype(np_dtype)]
    except (KeyError, TypeError):
        if not np.dtype(np_dtype).isnative:
            raise ValueError('given numpy array has byte order different from the native byte order. Conversion '
                             'between byte orders is currently not supported.') from None
        raise TypeError("can't convert np.ndarray of type numpy.%s. The only supported types are: float64, float32, "
                        "float16, complex64, complex128, int64, int32, int16, int8, uint64, uint32, uint16, uint8, and "
                        "bool." % np.dtype(np_dtype).type.__name__) from None


def promote_types(a, b):
    """torch.promote_types: the smallest dtype both values fit in."""
    if a is b:
        return a
    if isinstance(a, _Unmodelled) or isinstance(b, _Unmodelled):
        return _promote_unmodelled(a, b)
    if (a is _uint64 or b is _uint64) and not (a.is_floating_point or b.is_floating_point):
        raise RuntimeError('Promotion for uint16, uint32, uint64 types is not supported, attempted to promote %s '
                           'and %s' % (a.legacy, b.legacy))
    if {a, b} == {uint8, int8}:
        return int16
    return a if _RANK[a] > _RANK[b] else b


def _promote_unmodelled(a, b):
    """promote_types where bfloat16 or a complex type takes part: bfloat16 and float16 meet in float32; a complex
    type and a real one in the complex type of their real parts' promotion."""
    if not a.is_complex and (b.is_complex or b is bfloat16):
        a, b = b, a                                  # (a: the complex one, else bfloat16)
    if not a.is_complex:
        return float32 if b is float16 else a if b.category < 2 else b
    if b.is_complex:
        return a if a.itemsize >= b.itemsize else b
    complex_of = {float16: complex32, float32: complex64, float64: complex128}
    real = next(r for r, c in complex_of.items() if c is a)
    return complex_of[promote_types(real, b)]


def _category_combine(higher, lower):
    """Combine the result of a higher-priority operand group with a lower one (c10's combine_categories)."""
    if higher is None:
        return lower
    if lower is None or higher.is_floating_point:
        return higher
    if higher is bool_ or lower.is_floating_point:
        return promote_types(higher, lower)
    return higher


def scalar_dtype(value):
    """The dtype a Python number takes when it takes part in an op as a 'wrapped number'."""
    if isinstance(value, builtins.bool):
        return bool_
    if isinstance(value, (builtins.int, np.integer)):    # (a numpy int is an integer Scalar too; a numpy bool is not)
        return int64
    return default_float


def result_type(*operands):
    """PyTorch's result type: dimensioned tensors outrank 0-d tensors, which outrank Python scalars,
    unless a lower group is of a higher category (bool < integer < floating point)."""
    dim = zero = wrapped = None
    for x in operands:
        d = getattr(x, 'dtype', None)
        if type(d) is not dtype:                               # Python (or numpy) scalar
            s = scalar_dtype(x)
            if type(x) is builtins.int and not -2 ** 63 <= x < 2 ** 63:     # (a c10::Scalar: uint64 above int64)
                if not 0 <= x < 2 ** 64:
                    raise OverflowError('int too big to convert' if x > 0 else "can't convert negative int to unsigned")
                s = _uint64
            wrapped = s if wrapped is None else promote_types(wrapped, s)
        elif getattr(x, '_wrapped', False):
            s = default_float if d.is_floating_point else d
            wrapped = s if wrapped is None else promote_types(wrapped, s)
        elif x._data.ndim:
            dim = d if dim is None else promote_types(dim, d)
        else:
            zero = d if zero is None else promote_types(zero, d)
    d = _category_combine(dim, _category_combine(zero, wrapped))
    return int64 if d is _uint64 else d             # (numbers alone: PyTorch's uint64 result, as int64 here)


def can_cast(src, dst):
    """Whether an in-place op may write a `src` result into a `dst` tensor (no category downgrade)."""
    return src.category <= dst.category


def convert(arr, d, copy=False):
    """`arr` as dtype `d`'s numpy array; PyTorch turns doubles into halves through float (rounding twice)."""
    if d is float16 and arr.dtype == np.float64:
        arr = arr.astype(np.float32)
    elif d is uint8 and arr.dtype.kind == 'f':      # (through int32, as x86 converts: -1.5 -> 255; WebAssembly's
        arr = arr.astype(np.int32)                  # unsigned conversion would give 0)
    return arr.astype(d.np, copy=copy)


_SCALAR_TYPES = {'uint8': 'uint8_t', 'int8': 'int8_t', 'int16': 'int16_t', 'int32': 'int', 'int64': 'int64_t',
                 'float16': 'c10::Half', 'float32': 'float', 'float64': 'double'}


def check_scalar(value, d, unpack=False):
    """A Python number written into dtype d (full, fill_, t[i] = v), checked as PyTorch's c10::checked_convert: an
    integer type takes numbers in its range (an unsigned one ints down to -max too, which wrap), never nan or inf;
    a floating one any finite number in its range, or inf or nan. The value returned wraps. With `unpack` (t[i] = v)
    an int must first fit in int64, as PyTorch's parser unpacks it."""
    if unpack and isinstance(value, builtins.int) and not -2 ** 63 <= value < 2 ** 63:
        raise ValueError('Overflow when unpacking long long')
    if isinstance(value, builtins.int) and not -2 ** 63 <= value < 2 ** 64:      # (a c10::Scalar: int64 or uint64)
        raise OverflowError('int too big to convert' if value > 0 else "can't convert negative int to unsigned")
    if d is bool_:
        return builtins.bool(value)
    if isinstance(value, (builtins.bool, np.bool_)):
        return value
    if d.is_floating_point:
        fits = abs(value) <= np.finfo(d.np).max or value != value or abs(value) == builtins.float('inf')
    else:
        info = np.iinfo(d.np)
        if isinstance(value, (builtins.int, np.integer)):
            fits = (-info.max if info.min == 0 else info.min) <= value <= info.max
            value = value & builtins.int(info.max) if value < 0 and info.min == 0 else value
        else:
            fits = np.isfinite(value) and info.min <= value <= info.max
    if not fits:
        raise RuntimeError('value cannot be converted to type %s without overflow' % _SCALAR_TYPES[d.name])
    return value


def to_dtype(x, fn='to'):
    """Accept engine dtypes and Python types (float, int, bool) where PyTorch accepts them."""
    if isinstance(x, dtype):
        return x
    if x is builtins.float:
        return float64
    if x is builtins.int:
        return int64
    if x is builtins.bool:
        return bool_
    from ._tensor import parser_type          # (_tensor imports this module)
    raise TypeError("%s(): argument 'dtype' must be torch.dtype, not %s" % (fn, parser_type(x)))


@c_type('torch.layout')
class layout(metaclass=CType):
    """torch.strided / torch.sparse_coo."""
    __module__ = 'torch'          # type(x.layout) shows <class 'torch.layout'>
    __format__ = c_type_format
    __slots__ = ('name',)

    def __init__(self, name):
        self.name = name

    def __repr__(self):
        return 'torch.' + self.name


strided = layout('strided')
sparse_coo = layout('sparse_coo')
sparse_csr, sparse_csc = layout('sparse_csr'), layout('sparse_csc')     # (the other layouts: named, refused)
sparse_bsr, sparse_bsc = layout('sparse_bsr'), layout('sparse_bsc')
_mkldnn, jagged = layout('_mkldnn'), layout('jagged')


def check_layout(lay, what=''):
    """The clear error for a tensor of another layout than strided; `what` says what asked for it."""
    if lay is not None and lay is not strided:
        raise NotImplementedError('Autograd Playground supports only dense tensors (layout=torch.strided); '
                                  'layout=%r exists in PyTorch but is not available here%s.' % (lay, what))


_NOT_GIVEN = object()
_entered = []             # the devices `with torch.device(...)` blocks are in


def _no_order(self, other):
    """<, <=, >, >= between devices: PyTorch's error (with anything else: Python's)."""
    if not isinstance(other, device):
        return NotImplemented
    raise TypeError('comparison not implemented')


_DEVICE_TYPES = ('cpu', 'cuda', 'ipu', 'xpu', 'mkldnn', 'opengl', 'opencl', 'ideep', 'hip', 've', 'fpga', 'maia', 'xla',
                 'lazy', 'vulkan', 'mps', 'meta', 'hpu', 'mtia', 'privateuseone')


@c_type('torch.device')
class device(metaclass=CType):
    """torch.device; only the CPU exists here, as in a CPU-only PyTorch build."""
    __module__ = 'torch'          # type(x.device) shows <class 'torch.device'>
    __format__ = c_type_format
    __slots__ = ('type', 'index')

    def __init__(self, type=_NOT_GIVEN, index=None, *more, **unknown):
        if type is _NOT_GIVEN or more or unknown:
            from ._argparse import invalid_combination
            given = () if type is _NOT_GIVEN else (type,) + ((index,) if index is not None or more else ()) + more
            raise invalid_combination('device', ('(torch.device device)', '(str type, int index = -1)'), given,
                                      unknown)
        if isinstance(type, builtins.int) and not isinstance(type, builtins.bool):
            if type < 0:
                raise RuntimeError('Device index must not be negative')
            check_device(type)                  # (torch.device(0): the current accelerator's, here none)
        if index is not None and (not isinstance(index, builtins.int) or isinstance(index, builtins.bool)
                                  or isinstance(type, device)):
            name, pos, want, x = ('index', 2, 'int', index) if isinstance(type, str) else ('type', 1, 'str', type)
            raise TypeError("device(): argument '%s' (position %d) must be %s, not %s"
                            % (name, pos, want, 'torch.device' if isinstance(x, device) else builtins.type(x).__name__))
        if isinstance(type, device):
            type, index = type.type, type.index
        elif not isinstance(type, str):
            got = builtins.type(type).__name__
            raise TypeError("device() received an invalid combination of arguments - got (%s), but expected one of:\n"
                            " * (torch.device device)\n      didn't match because some of the arguments have invalid "
                            "types: (!%s!)\n * (str type, int index = -1)\n" % (got, got))
        if not type:
            raise RuntimeError('Device string must not be empty')
        if not re.fullmatch(r'[a-zA-Z_]+(:([1-9][0-9]*|0))?', type):
            raise RuntimeError("Invalid device string: '%s'" % type)
        name, _, idx = type.partition(':')
        if name not in _DEVICE_TYPES:         # (any of them names a device; making a tensor there is check_device's)
            raise RuntimeError('Expected one of %s device type at start of device string: %s'
                               % (', '.join(_DEVICE_TYPES), name))
        if idx:
            if index is not None:
                raise RuntimeError('type (string) must not include an index because index was passed explicitly: %s'
                                   % type)
            type, index = name, builtins.int(idx)
        if index is not None and index < 0:
            raise RuntimeError('Device index must not be negative')
        object.__setattr__(self, 'type', type)
        object.__setattr__(self, 'index', index)

    def __setattr__(self, name, value):
        if name in ('type', 'index'):
            raise AttributeError("attribute '%s' of 'torch.device' objects is not writable" % name)
        object.__setattr__(self, name, value)          # (any other: Python's "object has no attribute")

    def __delattr__(self, name):
        if name in ('type', 'index'):
            raise AttributeError("attribute '%s' of 'torch.device' objects is not writable" % name)
        object.__delattr__(self, name)

    def __repr__(self):
        if self.index is None:
            return "device(type='%s')" % self.type
        return "device(type='%s', index=%d)" % (self.type, self.index)

    def __str__(self):
        return self.type if self.index is None else '%s:%d' % (self.type, self.index)

    def __eq__(self, other):
        if not isinstance(other, device):       # (x.device == 'cpu' is False in PyTorch: compare str(x.device))
            return NotImplemented
        return (self.type, self.index) == (other.type, other.index)

    def __hash__(self):
        return hash((self.type, self.index))

    def __reduce__(self):
        return device, (self.type,) if self.index is None else (self.type, self.index)

    __lt__ = __le__ = __gt__ = __ge__ = _no_order

    def __enter__(self):
        """`with torch.device(...)`: the default device inside the block; only the CPU exists (another fails as
        torch.set_default_device does)."""
        from ._misc import set_default_device
        set_default_device(self)
        _entered.append(self)
        return self

    def __exit__(self, *exc):
        if not _entered:
            raise RuntimeError('trying to pop from empty mode stack')
        _entered.pop()


cpu = device('cpu')


def check_device(dev, moving=False):
    """Raise what a CPU-only PyTorch raises when asked for CUDA, or, `moving` a tensor there (.to), for MPS; other
    devices are the engine's own error."""
    if dev is None:
        return
    if isinstance(dev, (int, np.integer)) and not isinstance(dev, bool):   # (an index: the current accelerator)
        raise RuntimeError('Cannot access accelerator device when none is available.')
    d = dev if isinstance(dev, device) else device(dev)
    if d.type == 'cuda':
        raise AssertionError('Torch not compiled with CUDA enabled')
    if d.type == 'mps' and moving:
        raise RuntimeError('PyTorch is not linked with support for mps devices')
    if d.type != 'cpu':
        raise RuntimeError('Autograd Playground runs on the CPU only; device %r is not available.' % str(d))


def check_options(dev, pin_memory=False, out=None):
    """A factory's device and pin_memory, checked as PyTorch checks its TensorOptions: before the size and the values.
    A CPU-only PyTorch has no pinned memory (an out= form takes no pin_memory: out is written as it is)."""
    check_device(dev)
    if pin_memory and out is None:
        raise RuntimeError('pin_memory=True requires a CUDA or other accelerator backend; no pinned memory allocator '
                           'is available on this system.')


class _TypeInfo(metaclass=CType):
    """torch.finfo / torch.iinfo: read-only numeric limits of a dtype, printed with C++'s `%g`."""
    __slots__ = ('bits', 'dtype')
    __hash__ = None
    __format__ = c_type_format

    def __init__(self, *args, **kwargs):
        name = type(self).__name__
        if 'type' in kwargs and args:
            raise TypeError("%s() got multiple values for argument 'type'" % name)
        if len(args) > 1 and name == 'iinfo':
            raise TypeError('%s() takes 1 positional argument but %d were given' % (name, len(args)))
        d = args[0] if args else kwargs.pop('type', _NOT_GIVEN)
        if len(args) > 1 or (kwargs and d is not _NOT_GIVEN):
            raise TypeError('%s() received an invalid combination of arguments - got (%s), but expected one of:\n'
                            ' * (torch.dtype type)\n%s' % (name, ', '.join(
                                ['torch.dtype' if isinstance(a, dtype) else builtins.type(a).__name__ for a in args]
                                + ['%s=%s' % (k, builtins.type(v).__name__) for k, v in kwargs.items()]),
                                ' * ()\n' if name == 'finfo' else ''))
        if d is _NOT_GIVEN:
            if name == 'iinfo' or kwargs:
                raise TypeError('%s() missing 1 required positional arguments: "type"' % name)
            d = default_float
        if d in (builtins.float, builtins.int, builtins.bool):
            d = to_dtype(d)
        if not isinstance(d, dtype):
            raise TypeError("%s(): argument 'type' (position 1) must be torch.dtype, not %s"
                            % (name, builtins.type(d).__name__))
        self._fill(d)

    def __setattr__(self, name, value):
        if name in self._FIELDS:
            raise AttributeError("attribute '%s' of 'torch.%s' objects is not writable" % (name, type(self).__name__))
        raise AttributeError("'torch.%s' object has no attribute '%s'" % (type(self).__name__, name))

    def _set(self, **values):
        for k, v in values.items():
            object.__setattr__(self, k, v)

    def __eq__(self, other):
        return type(other) is type(self) and other.dtype == self.dtype

    def __dir__(self):
        """PyTorch's names (its C type has no __module__ or __slots__ entry), not the engine's own helpers."""
        return set(object.__dir__(self)).difference(('__module__', '__slots__', '_FIELDS', '_SHOWN', '_fill', '_set'))

    def __reduce__(self):
        raise TypeError("cannot pickle '%s' object" % type(self).__name__)

    def __reduce_ex__(self, protocol):
        """(pickle, copy.copy and copy.deepcopy refuse a torch.finfo / torch.iinfo, as PyTorch's C type)"""
        raise TypeError("cannot pickle 'torch.%s' object" % type(self).__name__)

    def __repr__(self):
        return '%s(%s, dtype=%s)' % (type(self).__name__, ', '.join(
            '%s=%s' % (k, format(builtins.float(getattr(self, k)), 'g')) for k in self._SHOWN), self.dtype)

    __str__ = __repr__


@c_type('torch.finfo')
class finfo(_TypeInfo):
    __module__ = 'torch'
    __slots__ = ('eps', 'max', 'min', 'tiny', 'smallest_normal', 'resolution')
    _FIELDS = ('bits', 'dtype') + __slots__
    _SHOWN = ('resolution', 'min', 'max', 'eps', 'smallest_normal', 'tiny')

    def _fill(self, d):
        if not d.is_floating_point:
            raise TypeError("torch.finfo() requires a floating point input type. Use torch.iinfo to handle "
                            "'torch.finfo'")
        if d is bfloat16:                   # (float32's exponent, 8 bits of precision)
            big = (2 - 2.0 ** -7) * 2.0 ** 127
            self._set(bits=16, dtype=d.name, eps=2.0 ** -7, max=big, min=-big, tiny=2.0 ** -126,
                      smallest_normal=2.0 ** -126, resolution=0.01)
            return
        f = np.finfo(d.np)
        self._set(bits=f.bits, dtype=d.name, eps=builtins.float(f.eps), max=builtins.float(f.max),
                  min=builtins.float(f.min), tiny=builtins.float(f.smallest_normal),
                  smallest_normal=builtins.float(f.smallest_normal), resolution=10.0 ** -builtins.int(f.precision))


@c_type('torch.iinfo')
class iinfo(_TypeInfo):
    __module__ = 'torch'
    __slots__ = ('max', 'min')
    _FIELDS = ('bits', 'dtype') + __slots__
    _SHOWN = ('min', 'max')

    def _fill(self, d):
        if d is bool_:
            raise TypeError('torch.bool is not supported by torch.iinfo')
        if d.is_floating_point:
            raise TypeError("torch.iinfo() requires an integer input type. Use torch.finfo to handle 'torch.iinfo'")
        i = np.iinfo(d.np)
        self._set(bits=i.bits, dtype=d.name, max=builtins.int(i.max), min=builtins.int(i.min))
