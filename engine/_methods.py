"""Tensor methods and operators, bound to the ops of `_ops.py` (as torch/_tensor.py binds torch._C ops)."""
import builtins
import functools
import math
import types
import warnings

import numpy as np

from . import _autograd as ag
from . import _argparse
from . import _dtypes as dt
from . import _misc
from . import _ops as ops
from . import _random
from ._factories import _is_index, _int_list, out_grad_error
from ._tensor import Tensor, make, make_wrapped, _wrap_dim, warn_once, parser_type, invalid_arguments


def _method(fn):
    def m(self, *args, **kwargs):
        return fn(self, *args, **kwargs)
    m.__name__ = fn.__name__
    m.__doc__ = fn.__doc__
    return m


_NUMBER_FIRST = {'add': ('alpha', 'Tensor other'), 'sub': ('alpha', 'Tensor other'),
                 'addcmul': ('value', 'Tensor tensor1, Tensor tensor2'),
                 'addcdiv': ('value', 'Tensor tensor1, Tensor tensor2'),
                 'addmm': ('beta', 'Tensor mat1, Tensor mat2', ', Number alpha = 1'),
                 'baddbmm': ('beta', 'Tensor batch1, Tensor batch2', ', Number alpha = 1')}
_NUMBER_FIRST_WARNED = 'deprecated overload'      # (the key in _warned: PyTorch warns once for all of them)


def as_number(x):
    """x as PyTorch's parser reads a Number argument: a Python or numpy number, or the value of a 0-d tensor that
    does not require grad; None if it is none of these."""
    if isinstance(x, Tensor) and x.ndim == 0 and not x.requires_grad:
        return x.item()
    return x if isinstance(x, ops._Number) else None


def number_first(name, args, kwargs, function=False):
    """PyTorch's deprecated overloads that take the number first, as old optimizers wrote them (`p.data.add_(-lr,
    grad)`, `v.addcmul_(1 - beta, g, g)`): the arguments after self (or input), rewritten as (tensors, {number's
    keyword: number}), once PyTorch's warning is given (once per process for all of them); None if the call is not
    of that form. A number second (`add_(2, 3)`) is taken as a tensor, as PyTorch's parser does; a 0-d tensor that
    does not require grad is a number there (its value)."""
    key, tensors, *more = _NUMBER_FIRST[name.rstrip('_')]       # (more: the keywords after the number's)
    number = as_number(args[0]) if args else None
    if len(args) != tensors.count('Tensor') + 1 or number is None:
        return None
    extra = [k for k, _ in _argparse._keywords(kwargs) if not (function and k == 'out')]
    if extra:
        raise TypeError('%s() received an invalid combination of arguments - got unrecognized keyword arguments: %s'
                        % (name, ', '.join(extra)))
    from ._tensor import _warned
    parser = _argparse.parser(name, function)
    if parser is not None and any(s.deprecated and s.max_pos_args == len(args) + function for s in parser.signatures):
        deprecated_overload(name, function, len(args) + function)
    elif _NUMBER_FIRST_WARNED not in _warned:
        _warned.add(_NUMBER_FIRST_WARNED)
        old, new = 'Number %s, %s' % (key, tensors), '%s, *, Number %s = 1%s' % (tensors, key, ''.join(more))
        if function:
            old, new = 'Tensor input, %s, *, Tensor out = None' % old, 'Tensor input, %s, Tensor out = None' % new
        warn_once('This overload of %s is deprecated:\n\t%s(%s)\nConsider using one of the following signatures '
                  'instead:\n\t%s(%s)' % (name, name, old, name, new), 'torch/csrc/utils/python_arg_parser.cpp:1841')
    return args[1:], dict(kwargs, **{key: number})


def deprecated_overload(name, function, nargs):
    """PyTorch's warning for a call of a deprecated overload of a method or torch.* function (`function`): the one
    of nargs positional arguments in _argparse's table (the function's input counted), then the op's signatures.
    Given once per process for all of them, as PyTorch's parser does."""
    from ._tensor import _warned
    if _NUMBER_FIRST_WARNED in _warned:
        return
    _warned.add(_NUMBER_FIRST_WARNED)
    parser = _argparse.parser(name, function)
    sig = next(s for s in parser.signatures if s.deprecated and s.max_pos_args == nargs)
    warn_once('This overload of %s is deprecated:\n\t%s%s\nConsider using one of the following signatures instead:'
              '%s' % (name, name, sig, ''.join('\n\t%s%s' % (name, o) for o in parser.options)),
              'torch/csrc/utils/python_arg_parser.cpp:1841')


def _too_many(name, args, position=1, input=None):
    """PyTorch's TypeError for a binary method given too many positional arguments (after self: `args`)."""
    if name.rstrip('_') in ('add', 'sub') and position == 1 and len(args) > 2:    # (matched against the alpha one)
        got = ', '.join(parser_type(a) if (i == 0 and parser_type(a) == 'Tensor') or len(args) > 3 else
                        '!%s!' % parser_type(a) for i, a in enumerate(args))
        return TypeError('%s() received an invalid combination of arguments - got (%s), but expected (Tensor other, '
                         '*, Number alpha = 1)' % (name, got))
    base = name.rstrip('_')
    if base in _SIGNATURES:                 # (ops with several signatures list them)
        lines = _SIGNATURES[base][position - 1]
        return invalid_arguments(name, args if position == 1 else (input,) + tuple(args), {},
                                 ''.join(' * (%s)\n' % line for line in lines))
    return TypeError('%s() takes %d positional argument%s but %d were given'
                     % (name, position, 's' if position > 1 else '', len(args) + position - 1))


def _missing(name, position=1, input=None, kwargs=None):
    """PyTorch's TypeError for a binary method (position 1) or torch function (2) given no operand."""
    base = name.rstrip('_')
    if not kwargs:
        given = () if position == 1 else (input,)
        if base in ('add', 'sub'):
            expected = ('Tensor other, *, Number alpha = 1' if position == 1 else
                        'Tensor input, Tensor other, *, Number alpha = 1, Tensor out = None')
            return TypeError('%s() received an invalid combination of arguments - got (%s), but expected (%s)'
                             % (name, ', '.join(map(parser_type, given)), expected))
        if base in _SIGNATURES:
            return invalid_arguments(name, given, {}, ''.join(' * (%s)\n' % line
                                                              for line in _SIGNATURES[base][position - 1]))
    return TypeError('%s() missing 1 required positional arguments: "%s"' % (name, 'exponent' if base == 'pow' else
                                                                              'other'))


_MISSING = object()


_SIGNATURES = {   # method's, torch function's
    'div': (('Tensor other', 'Tensor other, *, str rounding_mode', 'Number other, *, str rounding_mode'),
            ('Tensor input, Tensor other, *, Tensor out = None',
             'Tensor input, Tensor other, *, str rounding_mode, Tensor out = None',
             'Tensor input, Number other, *, str rounding_mode')),
    'pow': (('Tensor exponent', 'Number exponent'),
            ('Tensor input, Tensor exponent, *, Tensor out = None',
             'Number self, Tensor exponent, *, Tensor out = None',
             'Tensor input, Number exponent, *, Tensor out = None'))}


def _in_result_type(wrapped, number):
    """Two numbers given to a torch function that takes a number as its tensor input (`torch.add(2.5, 2)`): the first
    (wrapped) as a 0-d tensor of their result type (a float one the default float), which the op computes in."""
    return make(wrapped._data.astype(dt.result_type(wrapped, ops._scalar(number)).np))


def _checked(op, name, position):
    """A binary op as a method or torch function: PyTorch's TypeError for an operand that is not a tensor/number
    (the operators instead return NotImplemented, so Python raises its own 'unsupported operand' error)."""
    def f(input, other=_MISSING, *args, **kwargs):
        if position == 2 and name != 'pow' and isinstance(input, (int, float, np.number, np.bool_)):
            input = make_wrapped(ops._scalar(input))    # (torch.mul(2, x): PyTorch's parser takes a number as the tensor)
        if other is _MISSING:
            if name != 'pow' or 'exponent' not in kwargs:
                raise _missing(name, position, input, kwargs)
            kwargs = dict(kwargs)
            other = kwargs.pop('exponent')
        if args:                            # add(2, g): alpha first (deprecated); else too many arguments
            given = number_first(name, (other,) + args, kwargs, position == 2) if name in _NUMBER_FIRST else None
            if given is None:
                raise _too_many(name, (other,) + args, position, input)
            (other,), kwargs = given
            args = ()
        if isinstance(input, Tensor) and input._wrapped and isinstance(other, ops._Number):
            if name in ('sub', 'subtract'):
                ops._check_bool_sub(input, other)
            input = _in_result_type(input, other)
        out = op(input, other, *args, **kwargs)
        if out is NotImplemented:
            raise TypeError("%s(): argument 'other' (position %d) must be Tensor, not %s"
                            % (name, position, parser_type(other)))
        return out
    f.__name__ = f.__qualname__ = name
    f.__doc__ = op.__doc__
    return f


# Pointwise ops that are methods and have in-place forms (x.floor(), x.floor_()), besides the arithmetic ones.
_POINTWISE = ['neg', 'exp', 'log', 'sqrt', 'abs', 'sigmoid', 'tanh', 'relu', 'clamp', 'clamp_min', 'clamp_max',
              'reciprocal', 'sin', 'cos', 'sign', 'log2', 'log10', 'log1p', 'expm1', 'rsqrt', 'tan', 'sinh', 'cosh',
              'asin', 'acos', 'atan', 'floor', 'ceil', 'trunc', 'frac', 'round']
_SAME = _POINTWISE + ['add', 'sub', 'mul', 'div', 'pow', 'sgn', 'sum', 'mean', 'matmul', 'mm', 'bmm', 'mv', 'dot',
                      'view', 'reshape', 'flatten', 'transpose', 't', 'permute', 'unsqueeze', 'squeeze', 'expand',
                      'contiguous', 'clone', 'to', 'narrow', 'select', 'zero_', 'fill_', 'copy_', 'uniform_', 'normal_',
                      'bernoulli', 'bernoulli_']
for _name in _SAME:
    setattr(Tensor, _name, getattr(ops, _name))

for _name in ['add', 'sub', 'mul', 'div', 'pow', 'matmul']:
    setattr(Tensor, _name, _checked(getattr(ops, _name), _name, 1))
Tensor.multiply = Tensor.mul
Tensor.divide = Tensor.true_divide = Tensor.div
Tensor.subtract = Tensor.sub
Tensor.negative = ops.neg
Tensor.absolute = ops.abs
Tensor.clip = ops.clamp
Tensor.swapaxes = Tensor.swapdims = ops.transpose
Tensor.arcsin, Tensor.arccos, Tensor.arctan = ops.asin, ops.acos, ops.atan
Tensor.fix = ops.trunc
Tensor.multinomial = ops._multinomial(1)         # (its errors name num_samples position 1)
Tensor.t_, Tensor.transpose_, Tensor.unsqueeze_, Tensor.squeeze_ = ops.t_, ops.transpose_, ops.unsqueeze_, ops.squeeze_


def _python_elementwise(name, self, fn, others):
    """apply_ / map_: each element of self replaced by fn(element, others' elements...) as Python numbers, cast
    as PyTorch casts a Python number into self's dtype. PyTorch's CPU loop writes the memory directly: autograd
    does not see it (refused for tensors requiring grad) and the version counter does not move."""
    if self._requires_grad or builtins.any(t._requires_grad for t in others):
        raise RuntimeError("Can't call %s() on Variable that requires grad. Use var.detach().%s() instead."
                           % (name, name))
    shape = self._data.shape
    with ag.no_grad():
        columns = [self._data.ravel().tolist()] + [t.expand(shape)._data.ravel().tolist() for t in others]
    kind = self._data.dtype.kind
    values = []
    for args in zip(*columns):
        v = fn(*args)
        if not isinstance(v, (builtins.int, builtins.float, np.number, np.bool_)):
            raise TypeError('must be real number, not %s' % type(v).__name__)
        values.append(builtins.bool(v) if kind == 'b' else builtins.int(v) if kind in 'iu' else builtins.float(v))
    if values:
        ops._writeable(self._data)[...] = np.array(values, self._data.dtype).reshape(shape)
    return self


def apply_(self, callable):
    return _python_elementwise('apply_', self, callable, ())


def map_(self, tensor, callable):
    return _python_elementwise('map_', self, callable, (tensor,))


Tensor.apply_, Tensor.map_ = apply_, map_


def _reflected(op):
    def f(self, other):
        if not isinstance(other, ops._Number) and not isinstance(other, Tensor):     # (x.__rsub__(t) is rsub)
            return NotImplemented
        return op(self, other)
    return f


# The ops return NotImplemented for operands that are neither tensors nor numbers, so they serve as operators.
Tensor.__add__ = Tensor.__radd__ = ops.add
Tensor.__sub__ = ops.sub
Tensor.__rsub__ = _reflected(ops.rsub)
Tensor.__mul__ = Tensor.__rmul__ = ops.mul
Tensor.__truediv__ = Tensor.__div__ = ops.div
Tensor.__matmul__ = ops.matmul
Tensor.__neg__ = ops.neg


def __pos__(self):
    """`+t`: torch.positive, `t` itself (a bool tensor has no `+`)."""
    if self._data.dtype.kind == 'b':
        raise RuntimeError('The `+` operator, on a bool tensor is not supported.')
    return self


Tensor.__pos__ = __pos__
Tensor.__abs__ = ops.abs
Tensor.__getitem__ = ops.getitem


def __setitem__(self, idx, value):
    ops.setitem(self, idx, value)       # (a statement's method: returns None, as PyTorch's does)


Tensor.__setitem__ = __setitem__


def __delitem__(self, idx):
    """`del t[i]`: PyTorch's error (without this, Python's is an AttributeError, as the class has __setitem__)."""
    raise TypeError('Tensor does not support deleting items')


Tensor.__delitem__ = __delitem__


def __contains__(self, element):
    """`element in tensor`: whether any element equals it (a tensor broadcasts)."""
    if isinstance(element, (Tensor,) + ops._Number):
        return bool((element == self).any().item())
    raise RuntimeError('Tensor.__contains__ only supports Tensor or scalar, but you passed in a %s.' % type(element))


Tensor.__contains__ = __contains__


def __rtruediv__(self, other):
    """number / tensor is tensor.reciprocal() * number, as in PyTorch (so the graph shows ReciprocalBackward0).
    (A tensor `other` comes only from an explicit x.__rtruediv__(t): the same formula, as PyTorch's.) Anything else
    is multiplied by `*` too: a numpy array then through numpy (ndarray / t is a tensor); the rest NotImplemented."""
    if isinstance(other, ops._Number) or isinstance(other, Tensor):
        return ops.mul(self.reciprocal(), other)
    try:
        return self.reciprocal() * other
    except TypeError:
        return NotImplemented


def __pow__(self, exponent, *modulo):
    """`t ** x`; pow(t, x, mod) PyTorch's pow does not take: NotImplemented (Python's "unsupported operand")."""
    return NotImplemented if modulo else ops.pow(self, exponent)


def __rpow__(self, other, *modulo):
    if modulo or not isinstance(other, ops._Number) and not isinstance(other, Tensor):
        return NotImplemented
    return ops.pow(other, self)


def __rmatmul__(self, other):
    """other @ self (called explicitly, or for an operand whose own __matmul__ gave up)."""
    return ops.matmul(other, self) if isinstance(other, Tensor) else NotImplemented


Tensor.__rtruediv__ = Tensor.__rdiv__ = __rtruediv__
Tensor.__pow__ = __pow__
Tensor.__rpow__ = __rpow__
Tensor.__rmatmul__ = __rmatmul__


# ------------------------------------------------------------------------------ in-place variants and operators

_BINARY = {'add', 'sub', 'mul', 'div', 'pow'}


def _inplace_of(op):
    def f(self, *args, **kwargs):
        if len(args) > 1 and op.__name__ in _BINARY:
            given = number_first(op.__name__ + '_', args, kwargs) if op.__name__ in _NUMBER_FIRST else None
            if given is None:
                raise _too_many(op.__name__ + '_', args)
            args, kwargs = given
        elif not args and op.__name__ in _BINARY:          # the operand by keyword, or none
            key = 'exponent' if op.__name__ == 'pow' else 'other'
            if key not in kwargs:
                raise _missing(op.__name__ + '_', 1, None, kwargs)
            kwargs = dict(kwargs)
            args = (kwargs.pop(key),)
        elif len(args) == 3 and op.__name__ in _NUMBER_FIRST:          # addcmul_(value, tensor1, tensor2)
            given = number_first(op.__name__ + '_', args, kwargs)
            if given is not None:
                args, kwargs = given
        elif args and op.__name__ in _NO_ARGUMENTS:      # (Python's error for PyTorch's C method)
            raise TypeError('TensorBase.%s_() takes no arguments (%d given)' % (op.__name__, len(args)))
        if args and not isinstance(args[0], (Tensor,) + ops._Number) and op.__name__ in _BINARY:
            raise TypeError("%s_(): argument 'other' (position 1) must be Tensor, not %s"
                            % (op.__name__, parser_type(args[0])))
        return ops._inplace(self, op, *args, **kwargs)
    f.__name__ = op.__name__ + '_'
    return f


_NO_ARGUMENTS = set(_POINTWISE) - {'clamp', 'clamp_min', 'clamp_max', 'round'}
for _name in ['add', 'sub', 'mul', 'div', 'pow'] + _POINTWISE:
    setattr(Tensor, _name + '_', _inplace_of(getattr(ops, _name)))


def _cast_checked(inplace):
    """An in-place op whose shape and cast checks come before its kernel's errors (`bool_t //= 0`: the cast, not the
    division by zero)."""
    def f(self, other, **kwargs):
        ops._check_inplace(self, (other,))                  # (a leaf that requires grad: refused before all else)
        if ops._shares_elements(self._data):                # (an expanded self: TensorIterator's very first check)
            ops._internal_overlap_error()
        if isinstance(other, Tensor) and other is not self and ops._partial_overlap(self._data, other._data):
            ops._partial_overlap_error()                    # (TensorIterator's first check, before the shapes)
        if isinstance(other, Tensor) and other._data.shape != self._data.shape:
            ops._check_broadcast(self._data.shape, other._data.shape)
            shape = np.broadcast_shapes(self._data.shape, other._data.shape)
            if shape != self._data.shape:
                raise ops._not_broadcast_to(self._data.shape, shape)
        if isinstance(other, (Tensor,) + ops._Number):
            _check_cast_first(self, (other,), self.dtype.legacy)
        try:
            return inplace(self, other, **kwargs)
        except RuntimeError as e:
            if (str(e) == 'ZeroDivisionError' and isinstance(other, Tensor)
                    and dt.result_type(self, other) is self.dtype):
                _divided_before_the_zero(self, other, inplace, kwargs)
            raise
    f.__name__ = inplace.__name__
    return f


def _divided_before_the_zero(self, other, inplace, kwargs):
    """PyTorch's integer division kernels write self element by element, in its loop's order (self's memory order),
    and stop at the first zero divisor (ZeroDivisionError): the elements before that one keep their results (no new
    version; computed in another dtype, the result would have been copied in at the end: nothing is). Those elements
    divided again here, one-dimensionally, and written in."""
    x = self._data
    divisor = np.broadcast_to(other._data, x.shape)
    order = np.arange(x.size).reshape(x.shape).transpose(ops._iter_order(x.shape, (x, x, divisor))[::-1]).ravel()
    flat = divisor.ravel()[order]
    done = order[:int(np.argmax(flat == 0))]
    if done.size:
        head = make(x.ravel()[done])
        inplace(head, make(flat[:done.size]), **kwargs)
        ops._writeable(x)[np.unravel_index(done, x.shape)] = head._data


def _check_cast_first(self, others, type_name):
    """The in-place cast check, made before an op whose kernel would refuse the operands first (`int_t &= 1.5`);
    type_name names self's dtype (legacy `Long`, or C++ `long int` where PyTorch's kernel says that)."""
    d = dt.result_type(self, *others)
    if not dt.can_cast(d, self.dtype):
        raise RuntimeError("result type %s can't be cast to the desired output type %s" % (d.legacy, type_name))


def _rounding_div_(div_):
    """div_, whose cast check comes before the kernel's division by zero when it rounds (`bool_t.div_(0,
    rounding_mode='floor')`: the cast error)."""
    checked = _cast_checked(div_)

    def f(self, *args, **kwargs):
        if kwargs.get('rounding_mode') is not None and builtins.len(args) == 1:
            return checked(self, *args, **kwargs)
        return div_(self, *args, **kwargs)
    f.__name__ = div_.__name__
    return f


Tensor.div_ = _rounding_div_(Tensor.div_)


def _clamp_inplace(method):
    """clamp_ / clamp_min_ / clamp_max_ with number bounds: PyTorch's kernel names self's type as C++ does."""
    def f(self, *args, **kwargs):
        bounds = [v for v in args + tuple(kwargs.values()) if v is not None]
        if bounds and not builtins.any(isinstance(v, Tensor) for v in bounds) and isinstance(bounds[0], ops._Number):
            _check_cast_first(self, bounds, dt.C_NAMES[self.dtype.name])
        return method(self, *args, **kwargs)
    f.__name__ = method.__name__
    return f


for _name in ['clamp_', 'clamp_min_', 'clamp_max_']:
    setattr(Tensor, _name, _clamp_inplace(getattr(Tensor, _name)))
Tensor.clip_ = Tensor.clamp_


def _iop(name):
    inplace = getattr(Tensor, name + '_')

    def f(self, other):
        if not isinstance(other, (Tensor,) + ops._Number):
            return NotImplemented
        return inplace(self, other)
    return f


Tensor.__iadd__ = _iop('add')
Tensor.__isub__ = _iop('sub')
Tensor.__imul__ = _iop('mul')
Tensor.__itruediv__ = _iop('div')
Tensor.__ipow__ = _iop('pow')


# ------------------------------------------------------------------------------ dtype conversions

_CASTER_NAMES = {'float32': 'float', 'float64': 'double', 'float16': 'half', 'int64': 'long', 'int32': 'int',
                 'int16': 'short', 'int8': 'char', 'uint8': 'byte'}


def _caster(d):
    def f(self, *, memory_format=None):
        ops._mf.check(memory_format, _CASTER_NAMES.get(d.name, d.name))
        return ops.to(self, d, memory_format=memory_format)
    f.__name__ = d.name
    return f


Tensor.float = _caster(dt.float32)
Tensor.double = _caster(dt.float64)
Tensor.half = _caster(dt.float16)
Tensor.long = _caster(dt.int64)
Tensor.int = _caster(dt.int32)
Tensor.short = _caster(dt.int16)
Tensor.char = _caster(dt.int8)
Tensor.byte = _caster(dt.uint8)
Tensor.bool = _caster(dt.bool_)
Tensor.bfloat16 = _caster(dt.bfloat16)
Tensor.cfloat, Tensor.cdouble, Tensor.chalf = _caster(dt.complex64), _caster(dt.complex128), _caster(dt.complex32)


def cpu(self, *, memory_format=None):
    return self


def cuda(self, device=None, non_blocking=False, *, memory_format=None):
    # (PyTorch reads the device first: an index, a negative one or another type's device is refused before CUDA is
    # looked for)
    if device is not None and dt.device(device).type != 'cuda':
        raise RuntimeError('Invalid device, must be cuda device')
    raise AssertionError('Torch not compiled with CUDA enabled')


def pin_memory(self, device=None):
    raise RuntimeError('Cannot access accelerator device when none is available.')


Tensor.cpu = cpu
Tensor.cuda = cuda
Tensor.pin_memory = pin_memory
Tensor.is_pinned = lambda self, device=None: False
# The other backends' flags, all False on the CPU; share_memory_ (for worker processes) only marks the tensor.
for _flag in ('is_mkldnn', 'is_mps', 'is_xla', 'is_vulkan', 'is_ipu', 'is_xpu', 'is_mtia', 'is_maia', 'is_sparse_csr'):
    setattr(Tensor, _flag, False)
Tensor.is_shared = lambda self: self.__dict__.get('_shared', False)


def share_memory_(self):
    self._shared = True
    return self


Tensor.share_memory_ = share_memory_


def _shape_of(other):
    """The shape of view_as's, reshape_as's and expand_as's `other`; for one that is no tensor (a numpy array has a
    shape too) a TypeError, which the parser words as PyTorch's (`argument 'other' ... must be Tensor`)."""
    if not isinstance(other, Tensor):
        raise TypeError('other must be a Tensor')
    return other.shape


def view_as(self, other):
    return self.view(_shape_of(other))


def reshape_as(self, other):
    return self.reshape(_shape_of(other))


def expand_as(self, other):
    return self.expand(_shape_of(other))


def type_as(self, other):
    return self.to(other.dtype)


def as_subclass(self, *args, **kwargs):
    """self as an instance of cls (a subclass of Tensor): an alias (AliasBackward0), on the same memory and in the
    same graph."""
    if len(args) + len(kwargs) != 1 or (kwargs and 'cls' not in kwargs):
        raise TypeError('as_subclass() missing 1 required positional arguments: "cls"')
    cls = args[0] if args else kwargs['cls']
    if not isinstance(cls, type):
        raise TypeError('cls must be a type (got %s)' % type(cls).__name__)
    if not issubclass(cls, Tensor):
        raise TypeError('Creating a Tensor subclass from a class that does not inherit from Tensor is not possible. '
                        'Make sure your class inherits from Tensor.')
    out = ops._view_result(self, self._data.view(), ops.AliasBackward0)
    if cls is not Tensor:
        out.__class__ = cls
    return out


Tensor.view_as = view_as
Tensor.reshape_as = reshape_as
Tensor.expand_as = expand_as
Tensor.type_as = type_as
Tensor.as_subclass = as_subclass
_T_WARNINGS = ('Tensor.T is deprecated on 0-D tensors. This function is the identity in these cases.',
               'The use of `x.T` on tensors of dimension other than 2 to reverse their shape is deprecated and it will '
               'throw an error in a future release. Consider `x.mT` to transpose batches of matrices or '
               '`x.permute(*torch.arange(x.ndim - 1, -1, -1))` to reverse the dimensions of a tensor.')


def _T(self):
    """The dims reversed; PyTorch warns (each message once per process) unless the tensor is 2-d."""
    if self.ndim != 2:
        where = 'aten/src/ATen/native/TensorShape.cpp:%d' % (4314 if self.ndim else 4321)
        warn_once(_T_WARNINGS[self.ndim != 0], where)
    return self.permute(tuple(builtins.range(self.ndim - 1, -1, -1)))


Tensor.T = property(_T)
_ZERO_D = {'mT': ('This function is the identity in these cases.', 4373), 'mH': ('Consider using x.conj().', 4382),
           'H': ('Consider using x.conj().', 4335)}


def _matrix_transpose(name, matrices_only=False):
    """tensor.mT / .mH (batches of matrices) and .H (matrices): the last two dims swapped (real tensors: no conj).
    Of a 0-d tensor: the tensor itself, with PyTorch's warning."""
    def get(self):
        if not self.ndim:
            advice, line = _ZERO_D[name]
            warn_once('Tensor.%s is deprecated on 0-D tensors. %s' % (name, advice),
                      'aten/src/ATen/native/TensorShape.cpp:%d' % line)
            return self
        if self.ndim < 2 or matrices_only and self.ndim != 2:
            raise RuntimeError('tensor.%s is only supported on %s. Got %d-D tensor.%s' % (
                name, 'matrices (2-D tensors)' if matrices_only else 'matrices or batches of matrices', self.ndim,
                ' For batches of matrices, consider using tensor.mH' if matrices_only and self.ndim > 2 else ''))
        return self.transpose(-2, -1)
    return property(get)


Tensor.mT, Tensor.mH, Tensor.H = _matrix_transpose('mT'), _matrix_transpose('mH'), _matrix_transpose('H', True)


def _real(self):
    """tensor.real: of a real tensor (the engine has no complex ones), the tensor itself, as in PyTorch."""
    return self


def _set_real(self, value):
    self.copy_(value)


def _imag(self):
    raise RuntimeError('imag is not implemented for tensors with non-complex dtypes.')


Tensor.real, Tensor.imag = property(_real, _set_real), property(_imag)


# ------------------------------------------------------------------------------ comparisons and non-differentiable ops

def _compare(np_fn):
    """A comparison, made in the operands' result dtype as PyTorch's (an int wraps into an integer dtype, as it
    does in arithmetic; `int_tensor == 0.1` compares in float32)."""
    def f(self, other):
        if not isinstance(other, (Tensor,) + ops._Number):
            return NotImplemented
        a, b, d, _ = ops._operands(self, other)
        if type(b) is builtins.int and d.category == 1:
            b = ops._wrap_int(b, d.np)
        r = np.asarray(np_fn(a, b))
        r = ops._iter_laid_out(r, a, b)                      # (mixed layouts: PyTorch's, not numpy's)
        return make(r)
    return f


Tensor.eq = _equal = _compare(np.equal)


def _eq(self, other):
    """==, which in PyTorch alone also takes a numpy array of numbers (as a tensor of its dtype): t == ndarray is a
    bool tensor (!=, <, ... and t.eq leave an array to Python: True, or a TypeError)."""
    if isinstance(other, np.ndarray) and other.dtype in dt.FROM_NP:      # (a subclass's values: np.matrix too)
        other = make(np.asarray(other))
    return _equal(self, other)


Tensor.__eq__ = _eq
Tensor.__ne__ = Tensor.ne = _compare(np.not_equal)
Tensor.__lt__ = Tensor.lt = _compare(np.less)
Tensor.__le__ = Tensor.le = _compare(np.less_equal)
Tensor.__gt__ = Tensor.gt = _compare(np.greater)
Tensor.__ge__ = Tensor.ge = _compare(np.greater_equal)


def _int_op(np_fn):
    """&, |, ^ and bitwise_and / or / xor: integer and bool tensors only."""
    def f(self, other):
        if not isinstance(other, (Tensor,) + ops._Number):
            return NotImplemented
        a, b, d, _ = ops._operands(self, other)
        if d.is_floating_point or d is dt.bool_ and np_fn.__name__ in ('lshift', 'rshift'):
            raise NotImplementedError('"%s_cpu" not implemented for \'%s\'' % (np_fn.__name__, d.legacy))
        if type(b) is builtins.int and d.category == 1:
            b = ops._wrap_int(b, d.np)              # (cast as C casts it: int8 & 300 is int8 & 44)
        return ops._out(ops._iter_laid_out(np_fn(a, b), a, b), d)
    f.__name__ = np_fn.__name__
    return f


def _invert(self):
    if self._data.dtype.kind == 'f':
        raise TypeError('~ (operator.invert) is only implemented on integer and Boolean-type tensors')
    return make(~self._data)


def bitwise_not(self):
    if self._data.dtype.kind == 'f':
        raise NotImplementedError('"bitwise_not_cpu" not implemented for \'%s\'' % self.dtype.legacy)
    return make(~self._data)


def _invalid_other(name, other):
    """The TypeError PyTorch's argument parser gives `tensor.name(other)` for an `other` of the wrong type."""
    t = _argparse._described(other)
    return TypeError("%s() received an invalid combination of arguments - got (%s), but expected one of:\n"
                     " * (Tensor other)\n      didn't match because some of the arguments have invalid types: (!%s!)\n"
                     " * (Number other)\n      didn't match because some of the arguments have invalid types: (!%s!)\n"
                     % (name, parser_type(other), t, t))


def _with_other(op, name):
    """A binary op as a Tensor method: PyTorch's TypeError for an operand that is neither tensor nor number."""
    def f(self, other):
        out = op(self, other) if isinstance(other, (Tensor,) + ops._Number) else NotImplemented
        if out is NotImplemented:
            raise _invalid_other(name, other)
        return out
    f.__name__ = f.__qualname__ = name
    return f


Tensor.__floordiv__ = ops.floor_divide
Tensor.__rfloordiv__ = _reflected(lambda self, other: ops.floor_divide(other, self))
Tensor.__mod__ = ops.remainder
Tensor.__rmod__ = _reflected(lambda self, other: ops.remainder(other, self))
for _name in ['remainder', 'fmod', 'floor_divide']:
    setattr(Tensor, _name, _with_other(getattr(ops, _name), _name))
    setattr(Tensor, _name + '_', _cast_checked(_inplace_of(getattr(ops, _name))))
Tensor.__imod__ = _iop('remainder')
Tensor.__ifloordiv__ = _iop('floor_divide')
for _name in ['eq', 'ne', 'lt', 'le', 'gt', 'ge']:
    setattr(Tensor, _name, _with_other(getattr(Tensor, _name), _name))
    setattr(Tensor, _name + '_', _with_other(_inplace_of(getattr(ops, _name + '_into')), _name + '_'))
for _alias, _name in [('greater', 'gt'), ('greater_equal', 'ge'), ('less', 'lt'), ('less_equal', 'le'),
                      ('not_equal', 'ne')]:
    setattr(Tensor, _alias + '_', getattr(Tensor, _name + '_'))
Tensor.__and__ = Tensor.__rand__ = _int_op(np.bitwise_and)
Tensor.__or__ = Tensor.__ror__ = _int_op(np.bitwise_or)
Tensor.__xor__ = Tensor.__rxor__ = _int_op(np.bitwise_xor)
Tensor.__invert__ = _invert


def rshift(a, b):
    """a >> b as PyTorch's kernel: a shift by a negative count or by the width or more gives a's sign (0 or -1;
    0 for an unsigned a)."""
    bits = a.itemsize * 8
    b = np.asarray(b)
    return np.where((b < 0) | (b >= bits), a >> (bits - 1) if a.dtype.kind == 'i' else 0,
                    a >> np.clip(b, 0, bits - 1))


def lshift(a, b):
    """a << b as PyTorch's kernel: a shift by a negative count or by the width or more gives 0."""
    bits = a.itemsize * 8
    b = np.asarray(b)
    return np.where((b < 0) | (b >= bits), 0, a << np.clip(b, 0, bits - 1))


def _int_inplace(method):
    """In place, a bitwise op first checks that its result type can be written into self (`int_tensor &= 1.5`)."""
    return _cast_checked(_inplace_of(method))


for _name, _fn, _method in (('rshift', rshift, 'bitwise_right_shift'), ('lshift', lshift, 'bitwise_left_shift')):
    _op = _int_op(_fn)
    setattr(Tensor, '__%s__' % _name, _op)
    setattr(Tensor, '__r%s__' % _name, _reflected(lambda self, other, op=_op: op(make_wrapped(other), self)))
    setattr(Tensor, _method, _with_other(_op, _method))
    setattr(Tensor, _method + '_', _with_other(_int_inplace(getattr(Tensor, _method)), _method + '_'))
    setattr(Tensor, '__i%s__' % _name, _iop(_method))
Tensor.bitwise_not = bitwise_not
Tensor.bitwise_not_ = _inplace_of(bitwise_not)
for _name in ['bitwise_and', 'bitwise_or', 'bitwise_xor']:
    setattr(Tensor, _name, _with_other(getattr(Tensor, '__%s__' % _name[8:]), _name))
    setattr(Tensor, _name + '_', _with_other(_int_inplace(getattr(Tensor, _name)), _name + '_'))
    setattr(Tensor, '__i%s__' % _name[8:], _iop(_name))


def _reduce_index(np_fn):
    """argmax / argmin: the (first) index of the extreme value over dim, or of the flattened tensor."""
    name = np_fn.__name__
    def f(self, dim=None, keepdim=False):
        x = self._data
        if x.dtype.kind == 'b':
            raise RuntimeError('%s(): does not support bool input' % name)
        if dim is None:
            if not x.size:
                raise IndexError('%s(): Expected reduction dim to be specified for input.numel() == 0.' % name)
            return make(np.asarray(np_fn(x), dtype=np.int64).reshape((1,) * x.ndim if keepdim else ()))
        d = _wrap_dim(dim, self.ndim)
        if x.ndim and not x.shape[d]:
            raise IndexError('%s(): Expected reduction dim %d to have non-zero size.' % (name, d))
        if x.ndim and not x.size:
            return make(np.zeros(x.shape[:d] + (1,) * keepdim + x.shape[d + 1:], np.int64))
        return make(np.asarray(np_fn(x, axis=d if x.ndim else None, keepdims=keepdim), dtype=np.int64))
    return f


Tensor.argmax = _reduce_index(np.argmax)
Tensor.argmin = _reduce_index(np.argmin)


def equal(self, other):
    return self._data.shape == other._data.shape and bool(np.array_equal(self._data, other._data))


def allclose(self, other, rtol=1e-05, atol=1e-08, equal_nan=False):
    """isclose(...).all(): whether |self - other| <= atol + rtol * |other| everywhere (same dtypes, broadcast)."""
    return bool(self.isclose(other, rtol, atol, equal_nan)._data.all())


def new_tensor(self, *data, dtype=None, device=None, requires_grad=False, **options):
    """A new leaf copying data, of self's dtype by default (dtype, device and requires_grad are keywords only)."""
    from ._factories import tensor
    if not data and 'data' in options:
        data = (options.pop('data'),)
    for name in options:
        raise TypeError("new_tensor() got an unexpected keyword argument '%s'" % name)
    if not data:
        raise TypeError('new_tensor() missing 1 required positional arguments: "data"')
    if len(data) > 1:
        raise TypeError('new_tensor() takes 1 positional argument but %d were given' % len(data))
    return tensor(data[0], dtype=dtype or self.dtype, device=device, requires_grad=requires_grad,
                  _name='tensor.new_tensor')


def new(self, *args, **kwargs):
    """The legacy x.new(2, 3) / x.new([1, 2]) / x.new(): as torch.FloatTensor(...) for x's dtype."""
    from ._factories import legacy_constructor
    return legacy_constructor(self.dtype, args, kwargs)


def _new_filled(value, name):
    def f(self, *size, dtype=None, requires_grad=False, device=None, layout=None, pin_memory=False):
        from ._factories import empty, full, _size
        dt.check_options(device, pin_memory)
        if value is None:                   # (new_empty: uninitialised memory, as empty's)
            return empty(_size(size, name), dtype=dtype or self.dtype, requires_grad=requires_grad, device=device,
                         layout=layout)
        return full(_size(size, name), value, dtype=dtype or self.dtype, requires_grad=requires_grad, device=device,
                    layout=layout)
    return f


Tensor.equal = equal
for _name in ('solve', 'symeig', 'eig', 'lstsq', 'fill_diagonal_', 'sum_to_size'):
    setattr(Tensor, _name, getattr(_misc, _name))
Tensor.allclose = allclose


# ------------------------------------------------------------------------------ in-place random draws

_RANDOM_SIGNATURES = (' * (*, torch.Generator generator = None)\n%s * (int from, int to, *, torch.Generator '
                      'generator = None)\n * (int to, *, torch.Generator generator = None)\n')
_DIGITS = {'float16': 11, 'float32': 24, 'float64': 53}


def _largest(d):
    """The largest integer random_ draws for dtype d: 2**mantissa bits for a float, else the dtype's largest."""
    return 1 << _DIGITS[d.name] if d.is_floating_point else 1 if d is dt.bool_ else builtins.int(np.iinfo(d.np).max)


def _in_bounds(d, **values):
    """PyTorch's check that random_'s bounds fit an integer dtype."""
    lowest = 0 if d is dt.bool_ or d.is_floating_point else builtins.int(np.iinfo(d.np).min)
    for name, v in values.items():
        if not d.is_floating_point and not lowest <= v <= _largest(d):
            raise RuntimeError('%s is out of bounds for %s' % (name, dt.C_NAMES[d.name]))


def _draw(self, node, values, generator):
    """The tensor's values replaced in place by values(shape, generator), drawn in the order of its memory (no
    gradient flows back: `node`)."""
    gen, x = generator or _random.default_generator, self._data       # (x: the layout, before _inplace copies it)
    return ops._inplace(self, lambda a: ops._attach(make(ops._drawn(x, lambda shape: values(shape, gen)).astype(
        x.dtype)), node, (a,)))


def random_(self, *bounds, generator=None, **kw):
    """Integers drawn in place as PyTorch draws them: in [0, to) or [from, to) (to=None: up to the dtype's
    largest), or with no bounds any the dtype holds exactly ([0, 2**mantissa] for floats)."""
    if len(bounds) > 2:
        raise TypeError('random_() takes 2 positional arguments but %d were given' % len(bounds))
    if list(kw) == ['to']:
        bounds += (kw.pop('to'),)
    bad = [v for i, v in enumerate(bounds) if not (_is_index(v) or v is None and i == 1)]
    if kw or bad or generator is not None and not isinstance(generator, _random.Generator):
        note = ('      didn\'t match because some of the %s: %s\n' % (
            ('keywords were incorrect', ', '.join(reversed(kw)) if kw else 'generator') if kw or not bad else
            ('arguments have invalid types', '(%s)' % ', '.join('!%s!' % parser_type(v) for v in bounds))))
        keywords = dict(kw, **({} if generator is None else {'generator': generator}))
        raise invalid_arguments('random_', bounds, keywords, _RANDOM_SIGNATURES
                                % (note if len(bounds) != 1 or keywords else ''))
    ops._check_inplace(self)
    d = self.dtype
    bounds = [builtins.int(v) if v is not None else None for v in bounds]
    if not bounds:                                          # random_(): RandomBackward2
        wide = d in (dt.int64, dt.float64)
        return _draw(self, RandomBackward2, lambda shape, gen: ((gen.random64 if wide else gen.random)(
            math.prod(shape)) % np.uint64(_largest(d) + 1)).reshape(shape), generator)
    low, high = bounds if len(bounds) == 2 else (0, bounds[0])
    if low == -2 ** 63 and high is None:                   # every int64: a 64-bit draw as it is
        return _draw(self, RandomBackward0, lambda shape, gen: gen.random64(math.prod(shape)).view(np.int64).reshape(
            shape), generator)
    if high is None:
        top = _largest(d)
        if d.is_floating_point and low >= top:
            raise RuntimeError("random_ expects 'from' casted to dtype to be less than or equal to 'to_inc' casted "
                               "to dtype, but got from=%d > to_inc=%d" % (low, top))
        _in_bounds(d, **{'from': low, 'to - 1': top})
        high = top + 1
    else:
        if low >= high:
            raise RuntimeError("random_ expects 'from' to be less than 'to', but got from=%d >= to=%d" % (low, high))
        _in_bounds(d, **{'from': low, 'to - 1': high - 1})
    node = RandomBackward1 if len(bounds) == 1 else RandomBackward0
    return _draw(self, node, lambda shape, gen: _random.randint(gen, low, high, shape), generator)


def _uniform53(gen, shape):
    """Uniform numbers in [0, 1) of 53 random bits (PyTorch's uniform_real_distribution<double>)."""
    return _random.doubles(gen, math.prod(shape)).reshape(shape)


def _continuous(self, name):
    if not self.is_floating_point():
        raise RuntimeError('%s distribution is a continuous probability distribution. dtype must be a floating point '
                           'but you specified %s' % (name, self.dtype.legacy if name == 'Exponential'
                                                     else dt.C_NAMES[self.dtype.name]))


def exponential_(self, lambd=1.0, *, generator=None):
    """Numbers from Exp(lambd) in place: -log1p(-u) / lambd in double, as PyTorch's CPU kernel. (Here and below,
    autograd's checks come first, then the numbers', then the dtype's.)"""
    ops._check_inplace(self)
    if not lambd > 0:
        raise RuntimeError('exponential_ expects lambda > 0.0, but found lambda=%g' % lambd)
    _continuous(self, 'Exponential')
    return _draw(self, ExponentialBackward0, lambda shape, gen: (
        _random.exponential(gen, math.prod(shape)) * (1.0 / lambd)).reshape(shape), generator)


def geometric_(self, p, *, generator=None):
    """The number of Bernoulli(p) trials up to the first success, in place: ceil(log(u) / log1p(-p))."""
    ops._check_inplace(self)
    if not 0 < p < 1:
        raise RuntimeError('geometric_ expects p to be in (0, 1), but got p=%g' % p)
    if self.dtype is dt.bool_:
        raise NotImplementedError('"geometric_cpu" not implemented for \'Bool\'')
    return _draw(self, GeometricBackward0, lambda shape, gen: np.ceil(np.log(_uniform53(gen, shape)) / math.log1p(-p)),
                 generator)


def cauchy_(self, median=0.0, sigma=1.0, *, generator=None):
    """Numbers from Cauchy(median, sigma) in place: median + sigma * tan(pi * (u - 0.5))."""
    ops._check_inplace(self)
    if not sigma > 0:
        raise RuntimeError('cauchy_ expects sigma > 0.0, but found sigma=%g' % sigma)
    _continuous(self, 'Cauchy')
    return _draw(self, CauchyBackward0, lambda shape, gen: median + sigma * np.tan(
        math.pi * (_uniform53(gen, shape) - 0.5)), generator)


def log_normal_(self, mean=1.0, std=2.0, *, generator=None):
    """exp of normal numbers (drawn one by one in double) in place."""
    ops._check_inplace(self)
    if not std > 0:
        raise RuntimeError('log_normal_ expects std > 0.0, but found std=%g' % std)
    if not self.is_floating_point():
        raise NotImplementedError('"log_normal_cpu" not implemented for \'%s\'' % self.dtype.legacy)
    return _draw(self, LogNormalBackward0, lambda shape, gen: np.exp(
        _random.normal(gen, shape, np.float64, mean, std, contiguous=False)), generator)


class RandomBackward0(ops.ZeroBackward0):
    pass


class RandomBackward1(ops.ZeroBackward0):
    pass


class RandomBackward2(ops.ZeroBackward0):
    pass


class ExponentialBackward0(ops.ZeroBackward0):
    pass


class GeometricBackward0(ops.ZeroBackward0):
    pass


class CauchyBackward0(ops.ZeroBackward0):
    pass


class LogNormalBackward0(ops.ZeroBackward0):
    pass


Tensor.random_, Tensor.exponential_, Tensor.geometric_ = random_, exponential_, geometric_
Tensor.cauchy_, Tensor.log_normal_ = cauchy_, log_normal_


def _reduce_bool(np_fn):
    """all / any: over everything, or over dims (an int or a tuple); bool, except uint8 stays uint8 (as in PyTorch)."""
    def f(self, dim=None, keepdim=False):
        if dim is None:
            r = np_fn(self._data, keepdims=keepdim)
        else:
            r = np_fn(self._data, axis=ops._dims(dim, self.ndim), keepdims=keepdim)
        return make(ops._c_strided(np.asarray(r, dtype=np.uint8 if self._data.dtype == np.uint8 else np.bool_,
                                              order='C')))
    f.__name__ = np_fn.__name__
    return f


Tensor.all = _reduce_bool(np.all)
Tensor.any = _reduce_bool(np.any)


def _logical(np_fn, name):
    def f(self, other):
        if not isinstance(other, Tensor):
            raise TypeError("%s(): argument 'other' (position 1) must be Tensor, not %s" % (name, parser_type(other)))
        ops._check_broadcast(self._data.shape, other._data.shape)
        return make(ops._iter_laid_out(np.asarray(np_fn(self._data, other._data)), self._data, other._data))
    f.__name__ = name
    return f


def _logical_inplace(name):
    """logical_and_ and kin: the result written into self as self's dtype (1 and 0 in an integer tensor); never
    recorded, so even a leaf requiring grad may be written (its history kept, its views' graphs invalidated)."""
    method = getattr(Tensor, name)

    def f(self, *other):
        if other and not isinstance(other[0], Tensor):
            raise TypeError("%s_(): argument 'other' (position 1) must be Tensor, not %s"
                            % (name, parser_type(other[0])))
        return ops._inplace(self, method, *other, differentiable=False)
    f.__name__ = name + '_'
    return f


Tensor.logical_and = _logical(np.logical_and, 'logical_and')
Tensor.logical_or = _logical(np.logical_or, 'logical_or')
Tensor.logical_xor = _logical(np.logical_xor, 'logical_xor')
Tensor.logical_not = lambda self: make(np.logical_not(self._data))
for _name in ['logical_and', 'logical_or', 'logical_xor', 'logical_not']:
    setattr(Tensor, _name + '_', _logical_inplace(_name))
Tensor.isnan = lambda self: make(np.isnan(self._data) if self._data.dtype.kind == 'f' else np.zeros(self.shape, bool))
Tensor.isinf = lambda self: make(np.isinf(self._data) if self._data.dtype.kind == 'f' else np.zeros(self.shape, bool))
Tensor.isfinite = lambda self: make(np.isfinite(self._data) if self._data.dtype.kind == 'f' else
                                    np.ones(self.shape, bool))
Tensor.signbit = lambda self: make(np.signbit(self._data) if self._data.dtype.kind == 'f' else self._data < 0)


# ------------------------------------------------------------------------------ shape, reordering, gathering ops

for _name in ['split', 'split_with_sizes', 'chunk', 'unbind', 'cumsum', 'cumprod', 'prod', 'amax', 'amin',
              'masked_fill', 'gather', 'index_select', 'repeat', 'flip', 'tril', 'triu', 'outer', 'trace', 'diag',
              'roll', 'movedim', 'broadcast_to', 'index_put', 'index_put_']:
    setattr(Tensor, _name, getattr(ops, _name))
Tensor.moveaxis = ops.movedim
Tensor.ger = ops.outer
from . import _ops_rnn  # noqa: E402
Tensor.unsafe_split, Tensor.unsafe_split_with_sizes, Tensor.unsafe_chunk = (
    _ops_rnn.unsafe_split, _ops_rnn.unsafe_split_with_sizes, _ops_rnn.unsafe_chunk_public)
for _name in ['cumsum', 'cumprod', 'tril', 'triu', 'masked_fill']:
    setattr(Tensor, _name + '_', _inplace_of(getattr(ops, _name)))


def masked_fill_(self, mask, value):
    """In place: autograd's checks, the value's and the mask's, then the mask must broadcast to self (PyTorch names
    self first in the error, masked_fill the mask)."""
    if isinstance(mask, Tensor) and isinstance(value, (Tensor,) + ops._Number):
        ops._check_inplace(self, (value,))
        ops.check_masked_fill(mask, value)
        if mask._data.shape != self._data.shape:
            ops._check_broadcast(self._data.shape, mask._data.shape)
    return _masked_fill_(self, mask, value)


_masked_fill_, Tensor.masked_fill_ = Tensor.masked_fill_, masked_fill_
Tensor.new_tensor = new_tensor
Tensor.new = new
Tensor.new_zeros = _new_filled(0, 'new_zeros')
Tensor.new_ones = _new_filled(1, 'new_ones')
Tensor.new_empty = _new_filled(None, 'new_empty')


def new_full(self, size, fill_value, *, dtype=None, requires_grad=False, device=None, layout=None, pin_memory=False):
    from ._factories import full, _size
    dt.check_options(device, pin_memory)
    return full(_size((size,), 'new_full', False), fill_value, dtype=dtype or self.dtype,
                requires_grad=requires_grad, device=device, layout=layout)


Tensor.new_full = new_full


# ------------------------------------------------------------------------------ torch.* forms of methods

def _function_of(name, other_types, alias=None, number_input=False):
    """torch.name(input, other) (or its alias, torch.greater for gt): the method, with the TypeError PyTorch's
    parser gives the function form (an input that is not a tensor: `torch.le(0, x)`, unless `number_input`)."""
    method = getattr(Tensor, name)
    name = alias or name

    def f(input, other):
        inputs = (Tensor,) + ops._Number if number_input else Tensor
        if not isinstance(other, (Tensor,) + ops._Number) or not isinstance(input, inputs):
            raise TypeError('%s() received an invalid combination of arguments - got (%s, %s), but expected one '
                            'of:\n%s' % (name, parser_type(input), parser_type(other),
                                         other_types % {'t': _argparse._described(other)}))
        if not isinstance(input, Tensor) and not isinstance(other, Tensor):
            input = _in_result_type(make_wrapped(ops._scalar(input)), other)
        return method(input, other)
    f.__name__ = f.__qualname__ = name
    return f


def _unary_function(name):
    method = getattr(Tensor, name)

    def f(input, *args, **kwargs):
        if not isinstance(input, Tensor):
            raise TypeError("%s(): argument 'input' (position 1) must be Tensor, not %s" % (name, parser_type(input)))
        return method(input, *args, **kwargs)
    f.__name__ = f.__qualname__ = name
    return f


def sequence_function(name, arg):
    """torch.reshape(input, shape) / torch.permute(input, dims) / torch.tile(input, dims): the method, taking the
    sizes as one sequence only (the methods take them one by one too), with the parser's errors."""
    method = getattr(Tensor, name)

    def f(input, *args, **kwargs):
        if len(args) > 1:
            raise TypeError('%s() takes 2 positional arguments but %d were given' % (name, 1 + len(args)))
        if not args and arg not in kwargs:
            raise TypeError('%s() missing 1 required positional arguments: "%s"' % (name, arg))
        sizes = args[0] if args else kwargs.pop(arg)
        if not isinstance(sizes, (builtins.tuple, builtins.list)):
            raise TypeError("%s(): argument '%s'%s must be tuple of ints, not %s"
                            % (name, arg, ' (position 2)' if args else '', parser_type(sizes)))
        return method(input, sizes, **kwargs)
    f.__name__ = f.__qualname__ = name
    return f


def _logical_function(name):
    method = getattr(Tensor, name)

    def f(input, other):
        if not isinstance(other, Tensor):
            raise TypeError("%s(): argument 'other' (position 2) must be Tensor, not %s" % (name, parser_type(other)))
        return method(input, other)
    f.__name__ = f.__qualname__ = name
    return f


_TENSOR_OR_NUMBER = (' * (Tensor input, Tensor other, *, Tensor out = None)\n'
                     ' * (Tensor input, Number other, *, Tensor out = None)\n')
_REMAINDER = (' * (Tensor input, Tensor other, *, Tensor out = None)\n * (Number self, Tensor other)\n'
              "      didn't match because some of the arguments have invalid types: (!Tensor!, !%(t)s!)\n"
              ' * (Tensor input, Number other, *, Tensor out = None)\n')
_FLOOR_DIVIDE = (' * (Tensor input, Tensor other, *, Tensor out = None)\n * (Tensor input, Number other)\n'
                 "      didn't match because some of the arguments have invalid types: (Tensor, !%(t)s!)\n")


def torch_remainder(input, other):
    """torch.remainder also takes a number as input (`5 % x`)."""
    if not isinstance(input, Tensor) and isinstance(input, ops._Number) and isinstance(other, Tensor):
        return ops.remainder(input, other)
    return _function_of('remainder', _REMAINDER)(input, other)


def shift_function(name):
    """torch.bitwise_left_shift / bitwise_right_shift, which take a number as input too (`(1 << x)`)."""
    f = _function_of(name, _REMAINDER)

    def g(input, other):
        if not isinstance(input, Tensor) and isinstance(input, ops._Number) and isinstance(other, Tensor):
            return getattr(Tensor, '__r%sshift__' % name[8])(other, input)
        return f(input, other)
    g.__name__ = g.__qualname__ = name
    return g


def commutative_function(name):
    """torch.name(input, other) of a commutative op, which takes a number as input too (`torch.bitwise_xor(3, b)`)."""
    f = _function_of(name, _REMAINDER)

    def g(input, other):
        if not isinstance(input, Tensor) and isinstance(input, ops._Number) and isinstance(other, Tensor):
            return f(other, input)
        return f(input, other)
    g.__name__ = g.__qualname__ = name
    return g


def _more_functions():
    """The torch.* functions of methods defined here, in the order engine/__init__.py takes them."""
    compare = [_function_of(n, _TENSOR_OR_NUMBER) for n in ('eq', 'ne', 'lt', 'gt', 'le', 'ge')]
    unary = [_unary_function(n) for n in ('all', 'any', 'isnan', 'isinf', 'isfinite', 'logical_not', 'signbit')]
    logical = [_logical_function(n) for n in ('logical_and', 'logical_or', 'logical_xor')]
    return tuple(compare + unary + logical + [torch_remainder, _function_of('fmod', _TENSOR_OR_NUMBER),
                                              _function_of('floor_divide', _FLOOR_DIVIDE, number_input=True)])


# Like PyTorch's tensor attributes, those that cannot be set say so in PyTorch's words (`x.shape = ...`).
Tensor.name = property(lambda self: None)          # (PyTorch's tensors have a read-only name: None)


def _not_writable(name):
    def fset(self, value=None):
        raise AttributeError("attribute '%s' of 'torch._C.TensorBase' objects is not writable" % name)
    return fset


def _deleted(fset):
    """`del x.requires_grad`: PyTorch's C setters are called with nothing, which most read as None."""
    def fdel(self):
        fset(self, None)
    return fdel


for _name, _attr in builtins.list(vars(Tensor).items()):
    if isinstance(_attr, property) and _attr.fset is None:
        _fset = _not_writable(_name)
        setattr(Tensor, _name, property(_attr.fget, _fset, _fset, _attr.__doc__))
    elif isinstance(_attr, property) and _attr.fdel is None:
        setattr(Tensor, _name, property(_attr.fget, _attr.fset, _deleted(_attr.fset), _attr.__doc__))


# ------------------------------------------------------------------------------------------- methods as PyTorch's
# PyTorch's tensor methods are mostly C++: `print(x.sum)` shows `<built-in method sum of Tensor object at 0x...>`
# and `x.size[0]` fails on a 'builtin_function_or_method'. The methods below look the same; those PyTorch writes in
# Python (torch/_tensor.py) stay Python bound methods.
_PYTHON_METHODS = {'backward', 'register_hook', 'register_post_accumulate_grad_hook', 'split', 'norm', 'unique',
                   'unflatten', 'storage', 'share_memory_', 'is_shared', 'resize', 'resize_as', 'lu', 'stft', 'istft'}


_NUMPY_NAMES = {'axis': 'dim', 'keepdims': 'keepdim'}


def _parameter_names(fn):
    """The names of fn's parameters, read from its code (inspect.signature costs ten times as much, and this runs
    for every method and function when the engine is imported: the page's start-up)."""
    while hasattr(fn, '__wrapped__'):
        fn = fn.__wrapped__
    code = getattr(fn, '__code__', None)
    return code.co_varnames[:code.co_argcount + code.co_kwonlyargcount] if code is not None else ()


# torch.* functions without an out= form (nor PyTorch's in-place functions, torch.abs_): out= is an unexpected keyword
# argument, refused before anything else (torch.isnan(x, out=t); torch.isposinf(x, out=t) writes t)
_NO_OUT = frozenset("""
    adaptive_avg_pool1d adjoint argwhere as_tensor asarray atleast_1d atleast_2d atleast_3d avg_pool1d
    broadcast_shapes cartesian_prod cdist celu compile conj conv_transpose1d conv_transpose2d corrcoef
    cosine_similarity cov det diagflat diagonal_scatter eig einsum fliplr flipud from_dlpack get_default_device
    get_rng_state imag initial_seed is_nonzero isclose isfinite isinf isnan isreal logdet manual_seed max_pool1d
    max_pool1d_with_indices max_pool2d meshgrid pairwise_distance pinverse pixel_shuffle pixel_unshuffle positive
    prelu ravel real resolve_conj resolve_neg rrelu seed selu set_default_dtype set_default_tensor_type
    set_rng_state tensor trace unique_consecutive
""".split())


# torch.* functions whose signatures in PyTorch start with `Tensor input`: its argument parser refuses anything else
# with a TypeError (torch.sqrt(2): "sqrt(): argument 'input' (position 1) must be Tensor, not int").
_TENSOR_INPUT = frozenset("""
    abs abs_ absolute acos acos_ acosh acosh_ allclose amax amin aminmax arccos arccos_ arccosh arccosh_ arcsin
    arcsin_ arcsinh arcsinh_ arctan arctan2 arctan_ arctanh arctanh_ argmax argmin argsort argwhere asin asin_
    asinh asinh_ atan atan2 atan_ atanh atanh_ avg_pool1d bernoulli bincount bitwise_not broadcast_to ceil ceil_
    celu celu_ chunk clone corrcoef cos cos_ cosh cosh_ count_nonzero cov cross cummax cummin cumprod cumsum
    deg2rad deg2rad_ det detach detach_ diag diag_embed diagflat diagonal diff digamma dist dot empty_like equal
    erf erfc erfc_ erfinv exp exp2 exp2_ exp_ expm1 expm1_ fix fix_ flatten flip fliplr flipud floor floor_ fmax
    fmin frac frac_ full_like gather ger hardshrink heaviside histc hypot index_add index_copy index_select
    inner inverse is_complex is_floating_point is_inference is_nonzero is_same_size is_signed isclose isfinite
    isinf isnan isneginf isposinf isreal kron kthvalue lgamma log log10 log10_ log1p log1p_ log2 log2_ log_
    log_softmax logaddexp logaddexp2 logcumsumexp logdet logical_and logical_not logical_or logical_xor logit
    logit_ logsumexp masked_select matmul matrix_power max max_pool1d max_pool1d_with_indices max_pool2d maximum
    mean median min minimum mode msort multinomial mv nan_to_num nan_to_num_ nanmean nansum neg neg_ negative
    nonzero numel ones_like outer permute positive prelu prod rad2deg rad2deg_ rand_like randn_like ravel
    reciprocal reciprocal_ relu relu_ reshape roll rot90 round round_ rsqrt rsqrt_ scatter_add scatter_reduce
    select selu selu_ sgn sigmoid sigmoid_ sign signbit sin sin_ sinc sinc_ sinh sinh_ slogdet softmax sort
    split_with_sizes sqrt sqrt_ square square_ squeeze sum swapaxes swapdims t take take_along_dim tan tan_ tanh
    tanh_ threshold threshold_ tile topk trace transpose tril triu trunc trunc_ unbind unflatten unsqueeze vdot
    zero_ zeros_like
""".split())


def native(fn, name=None, function=False):
    """fn taking its arguments as PyTorch's native methods and functions do: numpy's keyword names as well (`axis`
    for `dim`, `keepdims` for `keepdim`: Dive into Deep Learning writes `A.sum(axis=0, keepdims=True)`); a torch.*
    function (`function`) also takes `out=`, the tensor its result is written into (`torch.mul(a, b, out=c)`, in
    PyTorch's first tutorial), and refuses an input that is not a tensor as PyTorch does. fn itself if there is
    nothing to add."""
    params = _parameter_names(fn)
    renames = 'dim' in params or 'keepdim' in params
    name = name or fn.__name__
    no_out = function and (name in _NO_OUT or name.endswith('_'))
    outs = function and 'out' not in params and not no_out
    tensor_input = function and name in _TENSOR_INPUT
    by_name = function and params[:1] == ('a',) and 'input' not in params
    check = _ARG_CHECKS.get(name)
    if not function and name in _argparse.NO_ARGUMENTS:
        @functools.wraps(fn)
        def no_arguments(self, *args, **kwargs):
            if args or kwargs:
                raise _argparse.no_arguments(name, args, kwargs)
            return fn(self)
        return no_arguments
    parsed = name in (_argparse.FUNCTIONS if function else _argparse.METHODS)
    if not (renames or outs or tensor_input or check or no_out):
        return _parsed(fn, name, function) if parsed else fn

    @functools.wraps(fn)
    def call(*args, **kwargs):
        if no_out and 'out' in kwargs:         # (the first keyword of those it does not take is named)
            raise TypeError("%s() got an unexpected keyword argument '%s'" % (name, next(
                k for k in kwargs if k == 'out' or k not in params and k != 'input')))
        if by_name and 'input' in kwargs:       # (torch.argwhere(input=x): PyTorch's name for `a`)
            if args:
                raise TypeError("%s() got multiple values for argument 'input'" % name)
            args = (kwargs.pop('input'),)
        if check is not None:
            check(name, function, args, kwargs)
        if tensor_input and (args or 'input' in kwargs):
            x = args[0] if args else kwargs['input']
            if not isinstance(x, Tensor):
                raise TypeError("%s(): argument 'input'%s must be Tensor, not %s"
                                % (name, ' (position 1)' if args else '', parser_type(x)))
        if kwargs:
            if renames and ('axis' in kwargs or 'keepdims' in kwargs):
                for numpy_name, torch_name in _NUMPY_NAMES.items():
                    if numpy_name in kwargs:
                        if torch_name in kwargs:
                            raise TypeError("%s() got an unexpected keyword argument '%s'" % (name, numpy_name))
                        kwargs[torch_name] = kwargs.pop(numpy_name)
            if outs and kwargs.get('out') is not None:
                out = kwargs.pop('out')
                if name in _OUT_GIVES_DTYPE and isinstance(out, Tensor):
                    kwargs['dtype'] = _out_dtype(kwargs.get('dtype'), out)
                if isinstance(out, Tensor):
                    if name in _OUT_CHECKED_FIRST:
                        _OUT_CHECKED_FIRST[name](name, out, args[0] if args else kwargs.get('input'))
                    _out_grad_check(name, out, args + builtins.tuple(kwargs.values()))
                return _write_out(name, fn(*args, **kwargs), out, args + builtins.tuple(kwargs.values()))
            if outs:
                kwargs.pop('out', None)
        return fn(*args, **kwargs)
    return _parsed(call, name, function) if parsed else call


def _parsed(call, name, function):
    """call, checked by PyTorch's argument parser (see _argparse): before it when given keywords (a Python type as
    the dtype then read as PyTorch reads it), an argument that is not an int or more than one argument where the op
    takes an int or a bool, and after it when it fails, so that arguments PyTorch refuses get its TypeError."""
    skip = 0 if function else 1                 # (a method's self is not one of its signatures' arguments)
    typed = None                                # (the op's Parser once wanted, if it takes an int or a bool)
    fits = set()                                # the types (and keywords) of calls of plain arguments that passed

    @functools.wraps(call)
    def parsed(*args, **kwargs):
        nonlocal typed
        key = (*map(type, args), *kwargs, *map(type, kwargs.values())) if kwargs else tuple(map(type, args))
        if key not in fits:
            if kwargs:
                _argparse.parser(name, function).check_fast(args[skip:], kwargs)
                if type(kwargs.get('dtype')) is type and name != 'type':   # (x.sum(dtype=float): the parser took
                    kwargs['dtype'] = dt.to_dtype(kwargs['dtype'], name)   # it, as it takes Python's types)
            elif typed is not False:
                for i, x in enumerate(args[skip:]):
                    # (x.tril(1.0), x.sum(1, 1): PyTorch's parser refuses what the op would take, a later int too
                    # where only a bool goes)
                    if type(x) is not int or i:
                        if typed is None:
                            parser = _argparse.parser(name, function)
                            typed = parser if parser.takes_ints else False
                        if typed:
                            typed.check_positional(args[skip:])
                        break
            if len(fits) < 64 and all(k in _argparse.PLAIN or type(k) is str for k in key[skip:]):
                fits.add(key)                   # (the checks above depend on nothing else of such arguments)
        try:
            out = call(*args, **kwargs)
            if out is NotImplemented:           # (an operator's answer: torch.rsub(x, 'a'))
                raise TypeError(name)
            return out
        except (TypeError, AttributeError, IndexError, ValueError, RuntimeError) as e:
            parser = _argparse.parser(name, function)
            error = parser.error(args[skip:], kwargs)
            legacy = error is None and parser.deprecated(args[skip:], kwargs)
            if legacy:                          # (`m.addmm(0.5, a, b)`: a deprecated overload, warned)
                sig, given = legacy
                deprecated_overload(name, function, sig.max_pos_args)
                return call(*args[:skip], **given)
            if error is None:
                moved = kwargs and 'unexpected keyword' in str(e) and parser.positional(args[skip:], kwargs)
                if not moved:
                    if kwargs.get('out') is None:       # (out= is refused before any grad_fn is read)
                        _check_histories(name, args)
                    raise
                return call(*(args[:skip] + moved[0]), **moved[1])
        raise error from None
    return parsed


# ops whose autograd kernel reads its inputs' grad_fn before the op checks its arguments (not the composite ones
# that check first: reshape, flatten, chunk, narrow, movedim, unflatten, einsum, ...)
_READ_HISTORY_FIRST = frozenset(
    'transpose permute swapaxes swapdims diagonal t sum mean prod add sub mul div pow view unsqueeze squeeze expand '
    'expand_as view_as select split split_with_sizes cat stack softmax log_softmax max min index_select gather cumsum '
    'norm std var topk sort mm bmm dot outer where clamp roll flip tile unfold logsumexp lerp masked_fill'.split())


def _check_histories(name, args):
    """An op that failed: had PyTorch read the grad_fn of an input whose history it cannot rebuild (a piece of unbind
    whose base changed in place since), that error came first."""
    if name in _READ_HISTORY_FIRST and ag.grad_enabled:
        for t in args:
            for x in (t if isinstance(t, (builtins.list, builtins.tuple)) else (t,)):
                if isinstance(x, Tensor) and x._requires_grad and type(x._grad_fn) is ag.Invalid:
                    raise RuntimeError(x._grad_fn.msg) from None


def _given_dim(args, kwargs, index):
    """The dim a call gave (keyword, or positional at index after the tensor) and how the parser names where it
    was: ('', dim), (' (position n)', dim) (n counts the tensor of a torch.* function), or None."""
    for key in ('dim', 'axis'):
        if key in kwargs:
            return kwargs[key], None
    if len(args) > index + 1:
        return args[index + 1], index + 1
    return None


def _int_dim(index, none_ok=False, kind='int'):
    """The parser's TypeError for a dim that is not an int where the op takes one dim (cumsum, softmax, topk...),
    or (kind 'tuple of ints': logsumexp) that is neither an int nor a sequence of them."""
    def check(name, function, args, kwargs):
        given = _given_dim(args, kwargs, index)
        if given is None or _is_index(given[0]) or none_ok and given[0] is None:
            return
        if kind != 'int' and isinstance(given[0], (builtins.tuple, builtins.list)) and builtins.all(
                _is_index(d) for d in given[0]):
            return
        where = '' if given[1] is None else ' (position %d)' % (given[1] + function)
        raise TypeError("%s(): argument 'dim'%s must be %s, not %s" % (name, where, kind, parser_type(given[0])))
    return check


def _described(x):
    """An argument as the parser's "invalid types" list describes it (a tuple with its elements' types)."""
    if isinstance(x, builtins.tuple):
        return 'tuple of (%s)' % ', '.join(parser_type(e) for e in x)
    return parser_type(x)


def _overloaded_dim(signatures, method_reasons, narrows=True):
    """max / min / prod given a dim that is not an int: no overload matches. The parser lists the overloads (a
    method's first two with why they failed, for max and min), or, when a method's keepdim narrows them to one,
    names dim."""
    def check(name, function, args, kwargs):
        given = _given_dim(args, kwargs, 0)
        if given is None or _is_index(given[0]) or isinstance(given[0], Tensor):
            return
        if narrows and not function and ('keepdim' in kwargs or len(args) > 2):
            where = '' if given[1] is None else ' (position %d)' % (given[1] + function)
            raise TypeError("%s(): argument 'dim'%s must be int, not %s" % (name, where, parser_type(given[0])))
        if function:
            raise invalid_arguments(name, args, kwargs, signatures[1])
        lines = signatures[0]
        if method_reasons:
            why = ("      didn't match because some of the keywords were incorrect: dim\n" if given[1] is None else
                   "      didn't match because some of the arguments have invalid types: (!%s!)\n" % _described(given[0]))
            lines = lines.replace('\n', '\n' + why, 2)
        raise invalid_arguments(name, args[1:], kwargs, lines)
    return check


_EXTREMA = (' * ()\n * (Tensor other)\n * (int dim, bool keepdim = False)\n',
            ' * (Tensor input, *, Tensor out = None)\n * (Tensor input, Tensor other, *, Tensor out = None)\n'
            ' * (Tensor input, int dim, bool keepdim = False, *, tuple of Tensors out = None)\n')
_PROD = (' * (*, torch.dtype dtype = None)\n * (int dim, bool keepdim = False, *, torch.dtype dtype = None)\n',
         ' * (Tensor input, *, torch.dtype dtype = None)\n * (Tensor input, int dim, bool keepdim = False, *, '
         'torch.dtype dtype = None, Tensor out = None)\n')
_SORT = (' * (*, bool stable, int dim = -1, bool descending = False)\n * (int dim = -1, bool descending = False)\n',
         ' * (Tensor input, *, bool stable, int dim = -1, bool descending = False%s)\n'
         ' * (Tensor input, int dim = -1, bool descending = False%s)\n')


def _clamp_check(name, function, args, kwargs):
    """clamp / clip with a bound that is neither a tensor nor a number, or with one bound a number and the other a
    tensor that cannot stand for one (not 0-d, or needing grad): neither overload (both tensors, both numbers)
    takes them. For that mix, a method's error (and torch.clamp_'s) says why each overload failed."""
    bounds = builtins.list(args[1:3]) + [kwargs[k] for k in ('min', 'max') if k in kwargs]
    numbers = (builtins.int, builtins.float, np.number, np.bool_)      # (numpy's numbers are numbers too)
    odd = builtins.any(b is not None and not isinstance(b, (Tensor,) + numbers) for b in bounds)
    mixed = (builtins.any(isinstance(b, Tensor) and (b.ndim or b.requires_grad) for b in bounds) and
             builtins.any(isinstance(b, numbers) for b in bounds))
    if not (odd or mixed):
        return
    out = function and not name.endswith('_')
    lines = (' * (%sTensor min = None, Tensor max = None%s)\n * (%sNumber min = None, Number max = None%s)\n'
             % (('Tensor input, ' if function else '', ', *, Tensor out = None' if out else '') * 2))
    if mixed and not odd and not out:
        keywords = [k for k, _ in _argparse._keywords(kwargs) if k in ('min', 'max')]
        types = ['!%s!' % parser_type(a) for a in args[1:]]
        why = ("some of the keywords were incorrect: " + ', '.join(keywords) if keywords else
               "some of the arguments have invalid types: (%s)" % ', '.join(['Tensor'] * function + types))
        lines = lines.replace(')\n', ")\n      didn't match because %s\n" % why)
    raise invalid_arguments(name, args if function else args[1:], kwargs, lines)


def _count_nonzero_check(name, function, args, kwargs):
    """x.count_nonzero(0, 1) takes its dims one by one; torch.count_nonzero(x, 0, 1) is refused by the parser."""
    if function and len(args) > 2:
        _argparse.parser(name, True).check(args, kwargs)


# Ops whose dim is one int, checked as PyTorch's argument parser does before anything else (`x.prod(dim=(0, 1))`),
# and clamp's bounds.
_ARG_CHECKS = {name: _int_dim(0) for name in ('cumsum', 'cumprod', 'softmax', 'log_softmax', 'median', 'nanmedian',
                                              'mode', 'logcumsumexp', 'cummax', 'cummin')}
_ARG_CHECKS.update(kthvalue=_int_dim(1), topk=_int_dim(1), argmax=_int_dim(0, True), argmin=_int_dim(0, True),
                   logsumexp=_int_dim(0, kind='tuple of ints'), max=_overloaded_dim(_EXTREMA, True),
                   min=_overloaded_dim(_EXTREMA, True), prod=_overloaded_dim(_PROD, False),
                   sort=_overloaded_dim((_SORT[0], _SORT[1] % (', tuple of Tensors out = None',
                                                                ', *, tuple of Tensors out = None')), False, False),
                   argsort=_overloaded_dim((_SORT[0], _SORT[1] % (', Tensor out = None', '')), False, False),
                   clamp=_clamp_check, clip=_clamp_check, clamp_=_clamp_check, clip_=_clamp_check,
                   count_nonzero=_count_nonzero_check)


def _tensor_arg(arg):
    """The parser's TypeError for a second argument that is not a tensor (`x.slice_scatter(1)`): its position
    counts the input in a torch.* function, not self in a method."""
    def check(name, function, args, kwargs):
        if builtins.len(args) > 1 and not isinstance(args[1], Tensor):
            raise TypeError("%s(): argument '%s' (position %d) must be Tensor, not %s"
                            % (name, arg, 2 if function else 1, parser_type(args[1])))
        if arg in kwargs and not isinstance(kwargs[arg], Tensor):
            raise TypeError("%s(): argument '%s' must be Tensor, not %s" % (name, arg, parser_type(kwargs[arg])))
    return check


_ARG_CHECKS.update(slice_scatter=_tensor_arg('src'), diagonal_scatter=_tensor_arg('src'),
                   select_scatter=_tensor_arg('src'), prelu=_tensor_arg('weight'))


_RESIZED = ('An output with one or more elements was resized since it had shape [%s], which does not match the '
            'required output shape [%s]. This behavior is deprecated, and in a future PyTorch release outputs will not '
            'be resized unless they have zero elements. You can explicitly reuse an out tensor t by resizing it, '
            'inplace, to zero elements with t.resize_(0). (Triggered internally at '
            '/__w/pytorch/pytorch/aten/src/ATen/native/Resize.cpp:30.)')


# Ops whose out= must have the result's dtype, and pointwise ops that write out= through a result of their own dtype
_OUT_OF_OWN_DTYPE = frozenset('neg negative abs absolute sign sgn floor ceil trunc fix frac round clamp clip clamp_min '
                              'clamp_max'.split())
_OUT_RESIZED_TWICE = frozenset(
    'add sub subtract mul multiply div divide true_divide remainder fmod pow eq ne not_equal lt less le less_equal gt '
    'greater ge greater_equal maximum minimum bitwise_and bitwise_or bitwise_xor atan2 arctan2 hypot exp log sqrt '
    'sigmoid tanh reciprocal sin cos log2 log10 log1p expm1 rsqrt tan sinh cosh asin acos atan arcsin arccos arctan '
    'square erf exp2'.split())
_COMPARISONS = frozenset('eq ne not_equal lt less le less_equal gt greater ge greater_equal'.split())
# ops whose out= form refuses an out that partly overlaps an input, before resizing it (TensorIterator's ops and a
# few others); reductions, matrix products and softmax read their inputs as they write, unchecked
_OUT_OVERLAP_CHECKED = _OUT_OF_OWN_DTYPE | _OUT_RESIZED_TWICE | frozenset(
    'where addcdiv addcmul lerp cumsum cumprod floor_divide addmm addmv addr baddbmm outer ger masked_select take '
    'nan_to_num diff xlogy copysign logical_not logical_and logical_or logical_xor index_select gather cat concat '
    'concatenate stack kron sinc logaddexp heaviside fmax fmin'.split())
# Ops whose out= may not be an input even whole (PyTorch's assert_no_overlap: they read it while writing)
_OUT_NO_OVERLAP = frozenset('gather index_select take masked_select'.split())
# TensorIterator's pointwise ops: an out= that is also one of the inputs takes part in broadcasting and is never
# resized, so it must already have the result's shape (torch.add(a, b, out=b) with b smaller is refused)
_OUT_IS_AN_INPUT_CHECKED = _OUT_OF_OWN_DTYPE | _OUT_RESIZED_TWICE | frozenset(
    'where addcdiv addcmul lerp floor_divide xlogy copysign logical_and logical_or logical_xor sinc logaddexp '
    'heaviside fmax fmin'.split())

# Ops whose out= must have the result's dtype, in PyTorch's words for another one (%(want)s / %(got)s: the C names of
# the result's and out's dtypes; %(W)s / %(G)s: their legacy names). Structured kernels all say the first.
_OUT_SAME_DTYPE = dict.fromkeys(
    'mm bmm addmm baddbmm addmv softmax log_softmax gather tril triu index_add index_copy scatter argmax argmin '
    'linalg_vector_norm renorm'.split(),
    'Expected out tensor to have dtype %(want)s, but got %(got)s instead')
_OUT_SAME_DTYPE.update(
    where='Expected out type to be %(W)s but got %(G)s',
    index_select='index_select(): self and result must have the same scalar type',
    masked_select='masked_select(): self and result must have the same scalar type',
    take='take(): self and out expected to have the same dtype, but got self.dtype = %(W)s and out.dtype = %(G)s',
    dot='result dtype %(G)s does not match input dtype %(W)s',
    mv='addmv input tensors must have the same dtype, but got %(G)s, %(W)s, and %(W)s',
    nan_to_num='nan_to_num: dtype of out: %(G)s should be same as input: %(W)s',
    tensordot='tensordot: Expected the output tensor to have dtype %(W)s, but got an output tensor with dtype %(G)s',
    amax="Expected the dtype for input and out to match, but got %(W)s for input's dtype and %(G)s for out's dtype.",
    amin="Expected the dtype for input and out to match, but got %(W)s for input's dtype and %(G)s for out's dtype.",
    nonzero='nonzero: Expected out tensor to have scalar type Long but got scalar type%(G)s')
_OUT_SAME_DTYPE['searchsorted'] = _OUT_SAME_DTYPE['bucketize'] = (
    "torch.searchsorted(): output tensor's dtype is wrong, it can only be Int(int32) or Long(int64) depending on "
    "whether out_int32 flag is True, but we got output tensor's dtype %(G)s and out_int32 flag is %(F)s")


def _out_boolean(name, out, input):
    if out.dtype is not dt.bool_:
        raise RuntimeError('%s does not support non-boolean outputs.' % name)


def _out_histogram(name, out, input):
    if isinstance(input, Tensor) and input.dtype is not out.dtype:
        raise RuntimeError('torch.histogram: input tensor and hist tensor should have the same dtype, but got input '
                           '%s and hist %s' % (dt.C_NAMES[input.dtype.name], dt.C_NAMES[out.dtype.name]))


# Ops that check their out='s dtype before anything else (their own arguments, autograd's refusal)
_OUT_CHECKED_FIRST = dict(isposinf=_out_boolean, isneginf=_out_boolean, signbit=_out_boolean, histc=_out_histogram)


# Ops whose out= is written by cat's kernel, which words the cast check its own way
_OUT_BY_CAT = frozenset('cat concat concatenate stack hstack vstack dstack column_stack row_stack'.split())

# Reductions and scans whose out= gives the dtype when none is: the input is cast to it (torch.sum(x, 0, out=long))
_OUT_GIVES_DTYPE = frozenset('sum prod nansum cumsum cumprod'.split())


def _out_dtype(dtype, out):
    if dtype is not None and dtype is not out.dtype:
        raise RuntimeError('Expected out tensor to have dtype %s, but got %s instead'
                           % (dt.C_NAMES[dtype.name], dt.C_NAMES[out.dtype.name]))
    return out.dtype


def _out_grad_check(name, out, inputs):
    """PyTorch's autograd refuses out= in grad mode when t or an input requires grad, before the op runs (its own
    checks, of shapes or dims, come after). Returns the input tensors (those in lists too)."""
    tensors = [x for i in inputs for x in (i if isinstance(i, (builtins.list, builtins.tuple)) else (i,))]
    if ag.grad_enabled and name not in _OUT_NOT_DIFFERENTIABLE and builtins.any(
            isinstance(t, Tensor) and t.requires_grad for t in tensors + [out]):
        # (a factory, without tensor inputs, is named by its schema's name; an alias by the op it calls)
        raise out_grad_error(_OUT_OP_CALLED.get(name, name)
                             if builtins.any(isinstance(t, Tensor) for t in tensors) else 'aten::' + name)
    return tensors


# Ops whose out= form PyTorch implements by calling another op with out=: autograd's refusal names that one
_OUT_OP_CALLED = dict(
    argsort='sort', msort='sort', square='pow', float_power='pow', outer='mul', ger='mul', multiply='mul', kron='mul',
    true_divide='div', divide='div', subtract='sub', diff='sub', clip='clamp', absolute='abs', negative='neg',
    arccos='acos', arcsin='asin', arctan='atan', arcsinh='asinh', arccosh='acosh', arctanh='atanh', arctan2='atan2',
    fix='trunc', nanmean='nansum', matrix_power='matmul', linalg_inv='linalg_inv_ex', linalg_det='_linalg_det',
    linalg_slogdet='_linalg_slogdet', linalg_solve='_linalg_solve_ex', linalg_eigh='_linalg_eigh',
    linalg_eigvalsh='_linalg_eigh', linalg_svd='_linalg_svd', linalg_svdvals='_linalg_svd',
    linalg_cholesky='linalg_cholesky_ex', linalg_multi_dot='mm', linalg_vecdot='vdot', linalg_matrix_power='matmul',
    linalg_lu_factor='linalg_lu_factor_ex',
    **dict.fromkeys(('vstack', 'hstack', 'column_stack', 'row_stack', 'dstack', 'concat', 'concatenate'), 'cat'))


# Ops without a derivative formula (integer or bool results): PyTorch's autograd lets their out= be
_OUT_NOT_DIFFERENTIABLE = frozenset(
    'nonzero argmax argmin searchsorted bucketize eq ne lt gt le ge greater less greater_equal less_equal not_equal '
    'logical_and logical_or logical_xor logical_not isposinf isneginf signbit histc'.split())


def _write_out(name, result, out, inputs):
    """torch.f(..., out=t): the result copied into t (t resized, with a warning unless it was empty, when the
    shapes differ), t returned. Not differentiable: an error if t or an input requires grad."""
    if isinstance(result, builtins.tuple) and hasattr(builtins.type(result), 'n_fields') \
            and isinstance(out, (builtins.tuple, builtins.list)):
        return _write_outs(name, result, out, inputs)
    if not isinstance(result, Tensor):
        raise TypeError("%s() got an unexpected keyword argument 'out'" % name)
    tensors = _out_grad_check(name, out, inputs)
    overlaps = (ops._overlaps if name in _OUT_NO_OVERLAP else ops._partial_overlap if name in _OUT_OVERLAP_CHECKED
                else None)
    if overlaps is not None and builtins.any(isinstance(t, Tensor) and overlaps(out._data, t._data) for t in tensors):
        ops._partial_overlap_error()
    if name in _OUT_IS_AN_INPUT_CHECKED and out.shape != result.shape and builtins.any(t is out for t in tensors):
        raise ops._not_broadcast_to(out.shape, result.shape)
    kind = name
    if name == 'matmul' and builtins.all(isinstance(t, Tensor) for t in tensors[:2]):   # (dot's, mv's or mm's out=)
        kind = 'dot' if tensors[0].ndim == tensors[1].ndim == 1 else 'mv' if tensors[1].ndim == 1 else 'mm'
    if kind in _OUT_SAME_DTYPE and result.dtype is not out.dtype:
        raise RuntimeError(_OUT_SAME_DTYPE[kind] % dict(want=dt.C_NAMES[result.dtype.name], W=result.dtype.legacy,
                                                         got=dt.C_NAMES[out.dtype.name], G=out.dtype.legacy,
                                                         F=result.dtype is dt.int32))
    if name in _OUT_OF_OWN_DTYPE and result.dtype is not out.dtype:
        raise RuntimeError('Found dtype %s but expected %s' % (out.dtype.legacy, result.dtype.legacy))
    if name in ('any', 'all') and out.dtype is not dt.bool_ and out.dtype is not dt.uint8:
        raise RuntimeError('%s only supports bool tensor for result, got: %s' % (name, out.dtype.legacy))
    if not dt.can_cast(result.dtype, out.dtype):
        if name in _OUT_BY_CAT:
            if name == 'stack':                 # (stack resizes its out= before cat's check)
                _warn_resized(out, result.shape)
            raise TypeError("torch.cat(): input types can't be cast to the desired output type %s" % out.dtype.legacy)
        raise RuntimeError("result type %s can't be cast to the desired output type %s"
                           % (result.dtype.legacy, out.dtype.legacy))
    if out.shape == result.shape:
        with ag.no_grad():
            out.copy_(result)
        return out
    if name in _OUT_BY_CAT and builtins.any(t is out for t in tensors):
        _warn_resized(out, result.shape)        # (out resized, its old numbers first, then found to be one of the
        grown = np.zeros(result.shape, out._data.dtype)                            # inputs it overlaps)
        grown.reshape(-1)[:out._data.size] = out._data.reshape(-1)[:grown.size]
        out._data = grown
        ops._partial_overlap_error()
    # (a pointwise op computed in another dtype than out's resizes out, then its result copied in does again; a
    # comparison computes in its inputs' dtype; diff writes its out= by sub's)
    computed = dt.result_type(*inputs) if name in _COMPARISONS else result.dtype
    for _ in range(2 if (name in _OUT_RESIZED_TWICE or name == 'diff') and computed is not out.dtype else 1):
        _warn_resized(out, result.shape)
    out._data = result._data.astype(out._data.dtype)
    ag.bump(out)
    return out


# Ops returning several tensors whose out= tensors' dtypes are checked in words of their own, one per output.
_OUTS_SAME_DTYPE = {'frexp': ('torch.frexp() expects mantissa to have dtype %(want)s but got %(got)s',
                              'torch.frexp() expects exponent to have int dtype but got %(got)s')}


# Ops returning several tensors that resize their out= tensors in another order than that of their results
_OUTS_ORDER = {'linalg_eigh': (1, 0), 'linalg_svd': (0, 2, 1)}


def _write_outs(name, result, outs, inputs):
    """torch.sort(x, out=(values, indices)) and the other ops returning a torch.return_types tuple: each result
    written into its out= tensor (of the result's own dtype), returned as torch.return_types.<name>_out."""
    from ._ops_nn import _return_type, return_types
    if builtins.len(outs) != builtins.len(result):
        raise TypeError('expected tuple of %d elements but got %d' % (builtins.len(result), builtins.len(outs)))
    for out in outs:
        _out_grad_check(name, out, inputs)
    messages = _OUTS_SAME_DTYPE.get(name, ())
    for i in _OUTS_ORDER.get(name, range(builtins.len(outs))):   # (one at a time: the values are resized before
        r, out = result[i], outs[i]                                # the indices' dtype fails)
        if r.dtype is not out.dtype:
            message = messages[i] if messages else 'Expected out tensor to have dtype %(want)s, but got %(got)s instead'
            raise RuntimeError(message % {'want': dt.C_NAMES[r.dtype.name], 'got': dt.C_NAMES[out.dtype.name]})
        _write_out(name, r, out, inputs)
    kind = name + '_out'
    if not hasattr(return_types, kind):
        setattr(return_types, kind, _return_type(kind, builtins.type(result).__match_args__))
    return getattr(return_types, kind)(*outs)


def _warn_resized(out, shape):
    """PyTorch's warning when an out= with elements is resized to another shape."""
    if out.numel() and out.shape != shape:
        warnings.warn(_RESIZED % (', '.join(map(str, out.shape)), ', '.join(map(str, shape))),
                      UserWarning, stacklevel=ag.user_stacklevel())


class method_descriptor:
    """A tensor method on the class: `Tensor.sum` is `<method 'sum' of 'torch._C.TensorBase' objects>`."""
    __slots__ = ('fn', '__name__')

    def __init__(self, fn, name):
        self.fn, self.__name__ = fn, name

    def __get__(self, obj, cls=None):
        if obj is None:
            return self
        bound = ag.builtin_function_or_method(self.fn, obj)
        bound.__name__ = self.__name__
        return bound

    def __call__(self, *args, **kwargs):
        return self.fn(*args, **kwargs)

    def __repr__(self):
        return "<method '%s' of 'torch._C.TensorBase' objects>" % self.__name__


def unflatten(self, dim, sizes, *, _pos=2):
    """Dim `dim` split into `sizes` (one of them may be -1): a view. (torch.unflatten's sizes are its 3rd argument.)"""
    if _pos == 2 and not sizes:            # (Tensor.unflatten is Python in PyTorch: it tests `not sizes` first)
        raise RuntimeError('unflatten: sizes must be non-empty')
    if type(dim) is not builtins.int:       # (the parser's TypeError: `x.unflatten(1.0, (3, 1))`)
        _argparse.parser('unflatten', _pos == 3).check((self, dim, sizes) if _pos == 3 else (dim, sizes), {})
    sizes = _int_list((sizes,), 'unflatten', False, 'sizes', _pos)
    shape = list(self.shape)
    d = _wrap_dim(dim, len(shape))
    if not len(sizes):
        raise RuntimeError('unflatten: sizes must be non-empty')
    try:                                # (sizes read as view's, then PyTorch's words for sizes that do not fit)
        inferred = ops._infer_shape((tuple(sizes),), shape[d])
    except RuntimeError as e:
        if 'is invalid for input of size' not in str(e):
            raise RuntimeError('unflatten got an unexpected error:\n%s' % e) from None
        raise RuntimeError("unflatten: Provided sizes [%s] don't multiply up to the size of dim %d (%d) in the input "
                           "tensor" % (', '.join(map(str, sizes)), d, shape[d])) from None
    return self.view(shape[:d] + list(inferred) + shape[d + 1:])


unflatten.__qualname__ = 'Tensor.unflatten'      # (in Python's own argument errors, as PyTorch's Python method)
Tensor.unflatten = unflatten


_Resize = None


def _resize_function():
    """PyTorch's autograd Function behind the deprecated x.resize / x.resize_as (torch.autograd._functions.Resize):
    a reshape to as many elements, its node a ResizeBackward."""
    global _Resize
    if _Resize is None:
        from ._function import Function

        class Resize(Function):
            @staticmethod
            def forward(ctx, tensor, sizes):
                ctx.sizes = sizes
                ctx.numel = functools.reduce(lambda a, b: a * b, sizes, 1)
                if tensor.numel() != ctx.numel:
                    raise RuntimeError(
                        "requested resize to {} ({} elements in total), but the given tensor has a size of {} ({} "
                        "elements). autograd's resize can only change the shape of a given tensor, while preserving "
                        "the number of elements. ".format('x'.join(map(str, sizes)), ctx.numel,
                                                          'x'.join(map(str, tensor.size())), tensor.numel()))
                ctx.input_sizes = tensor.size()
                return tensor.contiguous().view(*sizes)

            @staticmethod
            def backward(ctx, grad_output):
                return grad_output.contiguous().view(ctx.input_sizes), None
        _Resize = Resize
    return _Resize


def resize(self, *sizes):
    warnings.warn('non-inplace resize is deprecated', stacklevel=2)
    return _resize_function().apply(self, sizes)


def resize_as(self, tensor):
    warnings.warn('non-inplace resize_as is deprecated', stacklevel=2)
    return _resize_function().apply(self, tensor.size())


# (Python methods in PyTorch: `<bound method Tensor.resize of tensor(...)>`)
resize.__qualname__, resize_as.__qualname__, unflatten.__qualname__ = (
    'Tensor.resize', 'Tensor.resize_as', 'Tensor.unflatten')
Tensor.resize, Tensor.resize_as = resize, resize_as


def install_methods():
    """Make every public Python function on Tensor a method as PyTorch's C++ ones (numpy's keyword names too),
    but those PyTorch writes in Python; run once every module has added its methods."""
    for name, attr in builtins.list(vars(Tensor).items()):
        if not name.startswith('_') and name not in _PYTHON_METHODS and isinstance(attr, types.FunctionType):
            setattr(Tensor, name, method_descriptor(native(attr, name), name))
    for name in _PYTHON_METHODS:        # (PyTorch's, of torch/_tensor.py: "Tensor.split() missing 1 required ...")
        attr = vars(Tensor).get(name)
        if isinstance(attr, types.FunctionType) and not attr.__qualname__.startswith('Tensor.'):
            own = types.FunctionType(attr.__code__, attr.__globals__, name, attr.__defaults__, attr.__closure__)
            own.__qualname__, own.__doc__, own.__kwdefaults__ = 'Tensor.' + name, attr.__doc__, attr.__kwdefaults__
            own.__dict__.update(attr.__dict__)
            setattr(Tensor, name, own)
