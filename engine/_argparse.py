"""PyTorch's argument parser, for its TypeErrors: a call of a native method or torch.* function that fits none of
the op's signatures gets the error PyTorch's parser gives (torch/csrc/utils/python_arg_parser.cpp and
invalid_arguments.cpp), word for word: "sum() received an invalid combination of arguments - got (...), but
expected one of: ...", "transpose(): argument 'dim1' (position 2) must be int, not str", "gather() missing 1
required positional arguments: "index"" (sic), "TensorBase.exp() takes no arguments (1 given)".

The engine's ops take their arguments as Python functions do. `_methods.native` checks a call against the
signatures below when it gives keywords (PyTorch checks every call; keywords are where a Python function would
take what PyTorch refuses, as `x.sum(keepdim=True)`), or an argument that is not an int where a signature takes an
int or a bool (`x.tril(1.0)`, `x.split(1, True)`: numpy and Python take a float or a bool there), and any call that
fails, after the fact: a bad argument gets PyTorch's message instead of the engine's, and a call that fits lets
the op's own error through. A call of int arguments that succeeds costs nothing.

Signatures are written as PyTorch's parser declares them (its native_functions' Python form):
`Type[size]? name=default`, `*` before the keyword-only ones, `|deprecated` for an overload the parser tries last
and never lists. A method's signatures leave out self. (The parser runs only then, so a call PyTorch refuses that
the engine's op takes silently, as `x.sum(0, 1)` for keepdim, still runs.)"""
import functools
import operator

import numpy as np

from . import _dtypes as dt
from ._tensor import Tensor, parser_type

# PyTorch's parser lets a Python number stand for a Tensor argument of these ops alone.
_NUMBERS_AS_TENSORS = frozenset('add add_ div div_ divide divide_ mul mul_ multiply multiply_ sub sub_ subtract '
                                'subtract_ true_divide true_divide_ to copy_ floor_divide floor_divide_'.split())
# numpy's names a keyword may also be given by
_NUMPY_NAMES = {'dim': ('axis',), 'keepdim': ('keepdims',), 'input': ('x', 'a', 'x1'), 'other': ('x2',)}
_TYPE_NAMES = {'Tensor': 'Tensor', 'Scalar': 'Number', 'int64_t': 'int', 'SymInt': 'int', 'double': 'float',
               'TensorList': 'tuple of Tensors', 'IntArrayRef': 'tuple of ints', 'SymIntArrayRef': 'tuple of ints',
               'bool': 'bool', 'PyObject*': 'object', 'ScalarType': 'torch.dtype', 'Layout': 'torch.layout',
               'MemoryFormat': 'torch.memory_format', 'Device': 'torch.device', 'c10::string_view': 'str',
               'Generator': 'torch.Generator', 'ArrayRef<double>': 'tuple of floats',
               'ScalarList': 'tuple of Scalars'}


def _is_long(x):
    """THPUtils_checkLong: a Python or numpy int, not a bool."""
    return type(x) is not bool and isinstance(x, (int, np.integer))


def is_int(x):
    """FunctionParameter::check of an `int` (int64_t) argument: a Python or numpy int (not a bool), or a 0-d integer
    tensor that does not require grad."""
    if _is_long(x):
        return True
    return (isinstance(x, Tensor) and not x.requires_grad and x.ndim == 0 and not x.dtype.is_floating_point and
            x.dtype is not dt.bool_)


def _is_index(x):
    """THPUtils_checkIndex: not a bool, and an int or anything with __index__ (a one-element integer tensor)."""
    if type(x) is bool:
        return False
    if _is_long(x):
        return True
    try:
        operator.index(x)
    except Exception:
        return False
    return True


def _is_number(x):
    """THPUtils_checkScalar / checkDouble: a Python or numpy number (bool included)."""
    return isinstance(x, (int, float, complex, np.number, np.bool_))


def _is_int_list(x, size):
    """is_int_list: a tuple or list whose first element is an int (the others are not looked at until the values
    are read), or, where a size is declared (`IntArrayRef[1] dim`), one int (a one-element integer tensor too)."""
    if isinstance(x, (tuple, list)):
        return not x or _is_index(x[0])
    return size > 0 and _is_index(x)


def parser_dtype(x):
    """Whether x may be a ScalarType argument: a torch dtype, or one of Python's types standing for one."""
    return isinstance(x, dt.dtype) or any(x is t for t in (int, float, bool, complex))


class _Param:
    __slots__ = ('name', 'type', 'optional', 'allow_none', 'keyword_only', 'size', 'default', 'names', '_index')

    def __init__(self, text, keyword_only):
        type_, rest = text.split(' ', 1)
        self.allow_none = '?' in type_
        type_ = type_.replace('?', '')
        self.size = 0
        if '[' in type_:
            type_, size = type_[:-1].split('[')
            self.size = int(size)
        self.type = type_
        self.name, eq, self.default = rest.partition('=')
        self.optional = bool(eq)
        if self.default == 'None':
            self.allow_none = True
        self.keyword_only = keyword_only
        self.names = (self.name,) + _NUMPY_NAMES.get(self.name, ())

    def type_name(self):
        return _TYPE_NAMES[self.type]

    def check(self, x, numbers_as_tensors):
        """FunctionParameter::check: whether x may be this parameter."""
        t = self.type
        if t == 'Tensor':
            return isinstance(x, Tensor) or numbers_as_tensors and _is_number(x)
        if t in ('Scalar', 'double'):
            if _is_number(x) and (t == 'Scalar' or not isinstance(x, complex)):
                return True
            return isinstance(x, Tensor) and not x.requires_grad and x.ndim == 0
        if t == 'int64_t':
            return is_int(x)
        if t == 'SymInt':
            return _is_index(x)
        if t in ('IntArrayRef', 'SymIntArrayRef'):
            return _is_int_list(x, self.size)
        if t == 'ArrayRef<double>':             # (is_float_or_symfloat of the first element: an int or a bool too)
            return isinstance(x, (tuple, list)) and (not x or _is_number(x[0]) and not isinstance(x[0], complex))
        if t == 'bool':
            return type(x) is bool
        if t == 'ScalarType':
            return parser_dtype(x)
        if t == 'TensorList':
            if not isinstance(x, (tuple, list)):
                return False
            for i, e in enumerate(x):
                if not isinstance(e, Tensor):
                    raise TypeError('expected Tensor as element %d in argument %d, but got %s'
                                    % (i, self._index, parser_type(e)))
            return True
        if t == 'c10::string_view':
            return isinstance(x, str)
        if t == 'PyObject*':
            return True
        if t == 'Device':
            return _is_long(x) or isinstance(x, str) or type(x).__name__ == 'device'
        if t == 'MemoryFormat':
            return type(x).__name__ == 'memory_format'
        if t == 'ScalarList':                   # (is_scalar_list: every element a number)
            return isinstance(x, (tuple, list)) and all(_is_number(e) for e in x)
        return type(x).__name__ == self.type_name().split('.')[-1]


class Signature:
    """One of an op's overloads (FunctionSignature): its parameters, and the counts the parser goes by."""

    def __init__(self, text):
        self.name, inner = text.split('(', 1)
        inner, _, flag = inner.rpartition(')')
        self.hidden = flag in ('|hidden', '|deprecated')
        self.deprecated = flag == '|deprecated'
        self.params = []
        keyword_only = False
        for p in inner.split(', ') if inner else ():
            if p == '*':
                keyword_only = True
            else:
                param = _Param(p, keyword_only)
                param._index = len(self.params)
                self.params.append(param)
        self.numbers_as_tensors = self.name in _NUMBERS_AS_TENSORS
        self.min_args = sum(not p.optional for p in self.params)
        self.max_pos_args = sum(not p.keyword_only for p in self.params)
        # (one int list or tensor list: the positional arguments may be its elements, view(2, 3), atleast_1d(a, b))
        self.varargs = self.max_pos_args == 1 and self.params[0].type in ('IntArrayRef', 'SymIntArrayRef', 'TensorList')

    def __str__(self):
        """FunctionSignature::toString, as the error lists it: '(Tensor input, tuple of ints dim, bool keepdim =
        False, *, torch.dtype dtype = None)'."""
        parts, star = [], False
        for p in self.params:
            if p.keyword_only and not star:
                parts.append('*')
                star = True
            parts.append('%s %s%s' % (p.type_name(), p.name, ' = ' + p.default if p.optional else ''))
        return '(%s)' % ', '.join(parts)

    def _extra_args(self, nargs):
        if self.min_args != self.max_pos_args:
            return TypeError('%s() takes from %d to %d positional arguments but %d were given'
                             % (self.name, self.min_args, self.max_pos_args, nargs))
        return TypeError('%s() takes %d positional argument%s but %d %s given'
                         % (self.name, self.max_pos_args, '' if self.max_pos_args == 1 else 's', nargs,
                            'was' if nargs == 1 else 'were'))

    def parse(self, args, kwargs, raise_error):
        """FunctionSignature::parse: the values by parameter if the call fits, else None (or, raise_error, the
        TypeError saying why)."""
        nargs = len(args)
        if nargs > self.max_pos_args and not self.varargs:
            if raise_error:
                raise self._extra_args(nargs)
            return None
        remaining = len(kwargs)
        values = []
        pos = 0
        for i, p in enumerate(self.params):
            is_kwd = False
            if pos < nargs:
                if p.keyword_only:
                    if raise_error:
                        raise self._extra_args(nargs)
                    return None
                x, given = args[pos], True
            else:
                given, is_kwd, x = False, True, None
                for key in p.names:
                    if key in kwargs:
                        x, given = kwargs[key], True
                        break
            if not given and p.optional or given and x is None and p.allow_none:
                values.append(None)
            elif not given:
                if raise_error:
                    missing = ['"%s"' % q.name for q in self.params[i:] if not q.optional]
                    raise TypeError('%s() missing %d required positional argument%s: %s'
                                    % (self.name, len(missing), 's' if len(missing) == 1 else '', ', '.join(missing)))
                return None
            elif p.check(x, self.numbers_as_tensors):
                values.append(x)
            elif not is_kwd and self.varargs and pos == 0 and (nargs > 1 and p.check(args, False)
                                                               if p.type == 'TensorList' else
                                                               _is_int_list(args, p.size)):
                values.append(args)               # view(2, 3): the ints after self as the one int list
                pos = nargs
                continue
            elif raise_error:
                if not is_kwd and self.varargs and pos == 0 and nargs > self.max_pos_args:
                    raise self._extra_args(nargs)           # (permute(1.0, 0): the ints were not ints)
                if is_kwd:
                    raise TypeError("%s(): argument '%s' must be %s, not %s"
                                    % (self.name, p.name, p.type_name(), parser_type(x)))
                if p.type in ('IntArrayRef', 'SymIntArrayRef') and isinstance(x, (tuple, list)) and x:
                    raise TypeError("%s(): argument '%s' (position %d) must be %s, but found element of type %s at "
                                    "pos 0" % (self.name, p.name, pos + 1, p.type_name(), parser_type(x[0])))
                raise TypeError("%s(): argument '%s' (position %d) must be %s, not %s"
                                % (self.name, p.name, pos + 1, p.type_name(), parser_type(x)))
            else:
                return None
            if not is_kwd:
                pos += 1
            elif given:
                remaining -= 1
        if pos < nargs:                                     # (view((2, 3), 1))
            if raise_error:
                raise self._extra_args(nargs)
            return None
        if remaining > 0:
            if raise_error:
                for key in kwargs:
                    index = next((i for i, p in enumerate(self.params) if p.name == key), -1)
                    if index < 0:
                        raise TypeError("%s() got an unexpected keyword argument '%s'" % (self.name, key))
                    if index < nargs:
                        raise TypeError("%s() got multiple values for argument '%s'" % (self.name, key))
                raise TypeError('invalid keyword arguments')
            return None
        return values


def _names_of(option):
    """invalid_arguments.cpp reads a listed signature back by splitting it at ', ': each part's type is what comes
    before its last space and its name what follows ('bool keepdim = False' is a `bool keepdim =` named 'False'; '*'
    is an argument too; '()' is one nameless argument)."""
    parts = []
    for arg in option[1:-1].split(', '):
        type_, _, name = arg.rpartition(' ')
        parts.append((type_ if _ else arg, name))
    return parts


def _matches(type_, x):
    name = parser_type(x)
    if type_ == 'float':
        return name in ('float', 'int', 'long')
    if type_ == 'int':
        return name in ('int', 'long')
    return name == type_


def _described(x):
    if isinstance(x, tuple):
        return '%s of (%s%s)' % (parser_type(x), ', '.join(map(parser_type, x)), ',' if len(x) == 1 else '')
    if isinstance(x, list):
        return 'list of [%s]' % ', '.join(map(parser_type, x))
    return parser_type(x)


_U64 = 2 ** 64 - 1
_MURMUR = 0xc6a4a7935bd1e995
# the bucket counts of libstdc++'s unordered_map as it grows past 13, 29, ... keys (its primes; enough for any call)
_BUCKETS = (13, 29, 59, 127, 257)


def _string_hash(name):
    """std::hash<std::string> of libstdc++ on 64-bit Linux (_Hash_bytes: MurmurHash2 with seed 0xc70f6907)."""
    data = name.encode()
    size = len(data) & ~7

    def mixed(v):
        return v ^ (v >> 47)
    h = 0xc70f6907 ^ (len(data) * _MURMUR & _U64)
    for i in range(0, size, 8):
        h = (h ^ mixed(int.from_bytes(data[i:i + 8], 'little') * _MURMUR & _U64) * _MURMUR & _U64) * _MURMUR & _U64
    if len(data) > size:
        h = (h ^ int.from_bytes(data[size:], 'little')) * _MURMUR & _U64
    return mixed(mixed(h) * _MURMUR & _U64)


def _keywords(kwargs):
    """The keywords in the order PyTorch's std::unordered_map of them walks (invalid_arguments.cpp): libstdc++ keeps
    one list where a key goes first of its bucket's run, or first of all into an empty bucket; when the keys
    outnumber the buckets it moves them, in list order, into more buckets."""
    items, buckets = [], _BUCKETS[0]
    for item in kwargs.items():
        if len(items) == buckets and buckets != _BUCKETS[-1]:
            buckets = _BUCKETS[_BUCKETS.index(buckets) + 1]
            moved, items = items, []
            for old in moved:
                _put_in_bucket(items, old, buckets)
        _put_in_bucket(items, item, buckets)
    return items


def _put_in_bucket(items, item, buckets):
    bucket = _string_hash(item[0]) % buckets
    items.insert(next((i for i, (k, _) in enumerate(items) if _string_hash(k) % buckets == bucket), 0), item)


def _arg_desc(args, kwargs):
    out = ''.join(parser_type(a) + ', ' for a in args) + ''.join('%s=%s, ' % (k, parser_type(v))
                                                                 for k, v in _keywords(kwargs))
    return '(%s)' % (out[:-2] if args else out)


def _formatted_arg_desc(parts, args, kwargs):
    keywords = dict(kwargs)
    out = ''
    for i in range(len(args) + len(kwargs)):
        is_kwarg = i >= len(args)
        if is_kwarg:
            if parts[i][1] not in keywords:
                raise RuntimeError('_Map_base::at')
            x = keywords[parts[i][1]]
        else:
            x = args[i]
        ok = i < len(parts) and _matches(parts[i][0], x)
        out += ('' if ok else '!') + (parts[i][1] + '=' if is_kwarg else '') + _described(x) + ('' if ok else '!')
        out += ', '
    return '(%s)' % (out[:-2] if args else out)


def _unmatched_keywords(parts, kwargs):
    start = max(len(parts) - len(kwargs), 0)
    names = [name for _, name in parts[start:]]
    return [k for k, _ in _keywords(kwargs) if k not in names]


def invalid_combination(name, options, args, kwargs):
    """format_invalid_args: the TypeError listing the signatures (`options`, as listed) the call did not fit."""
    msg = '%s() received an invalid combination of arguments - ' % name
    if len(options) == 1:
        parts = _names_of(options[0])
        unmatched = _unmatched_keywords(parts, kwargs) if kwargs else []
        if unmatched:
            return TypeError(msg + 'got unrecognized keyword arguments: ' + ', '.join(unmatched))
        got = (_formatted_arg_desc(parts, args, kwargs) if len(args) + len(kwargs) == len(parts) else
               _arg_desc(args, kwargs))
        return TypeError(msg + 'got %s, but expected %s' % (got, options[0]))
    msg += 'got %s, but expected one of:\n' % _arg_desc(args, kwargs)
    for option in options:
        msg += ' * %s\n' % option
        parts = _names_of(option)
        if len(args) + len(kwargs) == len(parts):
            unmatched = _unmatched_keywords(parts, kwargs) if kwargs else []
            if unmatched:
                msg += "      didn't match because some of the keywords were incorrect: %s\n" % ', '.join(unmatched)
            else:
                msg += ("      didn't match because some of the arguments have invalid types: %s\n"
                        % _formatted_arg_desc(parts, args, kwargs))
    return TypeError(msg)


PLAIN = {int, bool, float, str, type(None), dt.dtype}     # (argument types whose kind is their type)
_TYPED = frozenset(('int64_t', 'SymInt', 'IntArrayRef', 'SymIntArrayRef', 'bool'))


class _Uncached(Exception):
    pass


def _kind(x):
    """What the parser's checks see of an argument: its type, and for a tensor what decides whether it may stand
    for a number or an int; for a list, its elements' types."""
    t = type(x)
    if t in PLAIN:
        return t
    if t is type:
        return x                              # (dtype=float)
    if isinstance(x, Tensor):
        return t, x.dtype, x.ndim, x.requires_grad, x._data.size == 1
    if t is tuple or t is list:
        kinds = tuple(map(type, x))
        if Tensor in kinds or any(issubclass(k, Tensor) for k in kinds):
            raise _Uncached
        return (t,) + kinds
    return t


class Parser:
    """PythonArgParser: an op's signatures, tried in order; `check` raises PyTorch's TypeError for a call that fits
    none, and for one that fits, for an int list whose later elements are not ints."""

    def __init__(self, signatures):
        self._fits = set()
        sigs = [Signature(s) for s in signatures]
        self.signatures = [s for s in sigs if not s.hidden] + [s for s in sigs if s.hidden]
        self.name = self.signatures[0].name
        self.options = [str(s) for s in self.signatures if not s.hidden]
        # by position, the types of argument that need no check there: bool where every signature takes a bool, int
        # where one takes an int or an int list (any position after the first too, for view(2, 3)), and Tensor where
        # one takes a Tensor too (x.max(y)); None where none takes an int or a bool: anything
        n = max(s.max_pos_args for s in sigs)
        types = [{s.params[i].type for s in sigs if i < s.max_pos_args} for i in range(n)]
        self._typed = [None if not t & _TYPED else (bool,) if t == {'bool'} else (int, Tensor) if 'Tensor' in t else
                       (int,) for t in types]
        self._varargs = any(s.varargs and s.params[0].type != 'TensorList' for s in sigs)
        self.takes_ints = self._varargs or any(self._typed)

    def check(self, args, kwargs):
        if kwargs and any(k[0] == '_' for k in kwargs):         # (keywords of the engine's own, `_message`)
            kwargs = {k: v for k, v in kwargs.items() if k[0] != '_'}
        if len(self.signatures) == 1:
            sig = self.signatures[0]
            values = sig.parse(args, kwargs, True)
        else:
            for sig in self.signatures:
                values = sig.parse(args, kwargs, False)
                if values is not None:
                    break
            else:
                n = len(args) + len(kwargs)
                plausible = [s for s in self.signatures
                             if s.min_args <= n <= len(s.params) and not s.hidden]
                if len(plausible) == 1:
                    plausible[0].parse(args, kwargs, True)
                raise invalid_combination(self.name, self.options, args, kwargs)
        # (PythonArgs::intlist reads the elements, the last argument first: C++ evaluates the arguments of the
        # op's call from right to left here)
        for p, x in zip(reversed(sig.params), reversed(values)):
            if p.type in ('IntArrayRef', 'SymIntArrayRef') and isinstance(x, (tuple, list)):
                for i, e in enumerate(x):
                    if not (_is_long(e) or _is_index(e) or type(e) is bool):     # (a later bool is read as 0 or 1)
                        raise TypeError('%s(): argument \'%s\' failed to unpack the object at pos %d with error '
                                        '"type must be tuple of ints,but got %s"'
                                        % (self.name, p.name, i + 1, parser_type(e)))
            elif p.type == 'ArrayRef<double>' and isinstance(x, (tuple, list)):
                for i, e in enumerate(x):
                    if not (_is_number(e) and not isinstance(e, complex) or isinstance(e, Tensor)):
                        raise TypeError("%s(): argument '%s' must be tuple of floats, but found element of type %s at "
                                        "pos %d" % (self.name, p.name, parser_type(e), i + 1))
        return sig

    def positional(self, args, kwargs):
        """The call with the arguments it gave by keyword that PyTorch also takes by position moved to their
        places (`x.view(size=(6,))`, `x.sum(dim=0)`), for an engine function that names them otherwise or takes
        them as *args; None if that cannot be done (no such argument, or a gap before one)."""
        sig = self.check(args, kwargs)
        args, kwargs, moved = list(args), dict(kwargs), False
        for p in sig.params[len(args):]:
            key = next((k for k in p.names if k in kwargs), None)
            if p.keyword_only or key is None:
                break
            args.append(kwargs.pop(key))
            moved = True
        if not moved or any(k in kwargs for p in sig.params if not p.keyword_only for k in p.names):
            return None
        return tuple(args), kwargs

    def check_fast(self, args, kwargs):
        """check, remembering the kinds of arguments that fit (a call given keywords is checked before it runs:
        `x.sum(dim=1, keepdim=True)` in a loop is parsed once)."""
        try:
            key = (*map(_kind, args), *kwargs, *map(_kind, kwargs.values()))
        except _Uncached:
            key = None
        if key is None or key not in self._fits:
            self.check(args, kwargs)
            if key is not None:
                self._fits.add(key)

    def check_positional(self, args):
        """check_fast for a call of positional arguments one of which is not an int (`_methods._parsed` calls this
        then only): if one stands where a signature takes an int or a bool (`x.tril(1.0)`, `x.split(1, True)`)."""
        typed, n = self._typed, len(self._typed)
        if len(args) > n and not self._varargs:         # (more than any signature takes: x.select(0, 1, 1))
            self.check_fast(args, {})
            return
        for i, x in enumerate(args):
            fine = typed[i] if i < n else (int,) if self._varargs else None
            if fine is not None and type(x) not in fine:
                self.check_fast(args, {})
                return

    def deprecated(self, args, kwargs):
        """For a call that fits a deprecated overload (and none other: `x.add(2, y)`, `torch.addmm(0.5, m, a, b)`):
        that signature and the arguments given, by name; else None."""
        try:
            sig = self.check(args, kwargs)
        except Exception:
            return None
        if not sig.deprecated:
            return None
        values = sig.parse(args, kwargs, False)
        return sig, {p.name: x for p, x in zip(sig.params, values) if x is not None}

    def error(self, args, kwargs):
        """check's error, or None if the call fits."""
        try:
            self.check(args, kwargs)
        except (TypeError, RuntimeError) as e:
            return e
        except Exception:                 # (an argument this reading cannot judge: the op's own error stands)
            return None
        return None


def no_arguments(name, args, kwargs):
    """A method PyTorch defines as taking no arguments (METH_NOARGS): Python's own error names TensorBase."""
    if kwargs:
        return TypeError('TensorBase.%s() takes no keyword arguments' % name)
    return TypeError('TensorBase.%s() takes no arguments (%d given)' % (name, len(args)))


# Methods PyTorch defines with no arguments at all.
NO_ARGUMENTS = frozenset("""
    abs abs_ absolute absolute_ acos acos_ acosh acosh_ adjoint arccos arccos_ arccosh arccosh_ arcsin arcsin_ arcsinh
    arcsinh_ arctan arctan_ arctanh arctanh_ argwhere asin asin_ asinh asinh_ atan atan_ atanh atanh_ bitwise_not
    bitwise_not_ ceil ceil_ conj conj_physical corrcoef cos cos_ cosh cosh_ data_ptr deg2rad deg2rad_ det detach
    detach_ digamma digamma_ dim element_size erf erf_ erfc erfc_ erfinv erfinv_ exp exp2 exp2_ exp_ expm1 expm1_ fix
    fix_ fliplr flipud floor floor_ frac frac_ get_device inverse is_complex is_conj is_floating_point is_inference
    is_neg is_nonzero is_signed isfinite isinf isnan isneginf isposinf isreal item lgamma lgamma_ log log10 log10_
    log1p log1p_ log2 log2_ log_ logdet logical_not logical_not_ msort ndimension neg neg_ negative negative_ nelement
    numel positive rad2deg rad2deg_ ravel reciprocal reciprocal_ relu relu_ resolve_conj resolve_neg retain_grad rsqrt
    rsqrt_ sgn sgn_ sigmoid sigmoid_ sign sign_ signbit sin sin_ sinc sinc_ sinh sinh_ slogdet sqrt sqrt_ square
    square_ storage_offset t t_ tan tan_ tanh tanh_ tolist trace trunc trunc_ zero_
""".split())

_REDUCTIONS = ('%s(*, ScalarType? dtype=None)',
               '%s(IntArrayRef[1]? dim, bool keepdim=False, *, ScalarType? dtype=None)')
_STATS = ('%s(IntArrayRef[1]? dim, bool unbiased=True, bool keepdim=False)',
          '%s(IntArrayRef[1]? dim=None, *, Scalar? correction=None, bool keepdim=False)', '%s(bool unbiased=True)')
_STATS_OUT = (_STATS[0].replace(')', ', *, Tensor out=None)'), _STATS[1].replace(')', ', Tensor out=None)'), _STATS[2])
_CASTS = 'float double long int bool half byte char short'.split()

# The methods' signatures (after self) and the torch.* functions', in the order PyTorch tries them.
METHODS = {
    'sum': [s % 'sum' for s in _REDUCTIONS], 'mean': [s % 'mean' for s in _REDUCTIONS],
    'std': [s % 'std' for s in _STATS], 'var': [s % 'var' for s in _STATS],
    'view': ['view(ScalarType dtype)', 'view(SymIntArrayRef size)'],
    'reshape': ['reshape(SymIntArrayRef shape)'],
    'transpose': ['transpose(int64_t dim0, int64_t dim1)'],
    'permute': ['permute(IntArrayRef dims)'],
    'unsqueeze': ['unsqueeze(int64_t dim)'],
    'squeeze': ['squeeze()', 'squeeze(int64_t dim)', 'squeeze(IntArrayRef dim)'],
    'flatten': ['flatten(int64_t start_dim=0, int64_t end_dim=-1)'],
    'expand': ['expand(SymIntArrayRef size, *, bool implicit=False)'],
    'expand_as': ['expand_as(Tensor other)'],
    'repeat': ['repeat(SymIntArrayRef repeats)'],
    'masked_fill': ['masked_fill(Tensor mask, Tensor value)', 'masked_fill(Tensor mask, Scalar value)'],
    'masked_fill_': ['masked_fill_(Tensor mask, Tensor value)', 'masked_fill_(Tensor mask, Scalar value)'],
    'where': ['where(Tensor condition, Tensor other)', 'where(Tensor condition, Scalar other)'],
    'chunk': ['chunk(int64_t chunks, int64_t dim=0)'],
    'index_select': ['index_select(int64_t dim, Tensor index)'],
    'gather': ['gather(int64_t dim, Tensor index, *, bool sparse_grad=False)'],
    'scatter_add': ['scatter_add(int64_t dim, Tensor index, Tensor src)'],
    'expand_as': ['expand_as(Tensor other)'],
    'contiguous': ['contiguous(*, MemoryFormat memory_format=contiguous_format)'],
    'clone': ['clone(*, MemoryFormat? memory_format=None)'],
    'numpy': ['numpy(*, bool force=False)'],
    'size': ['size(int64_t? dim=None)'], 'stride': ['stride(int64_t? dim=None)'],
    'broadcast_to': ['broadcast_to(SymIntArrayRef size)'],
    'cpu': ['cpu(*, MemoryFormat? memory_format=None)'],
    **{name: ['%s(Tensor other)' % name] for name in ('logical_and', 'logical_or', 'logical_xor', 'vdot')},
    'cuda': ['cuda(Device? device=None, bool non_blocking=False, *, MemoryFormat? memory_format=None)'],
    'select': ['select(int64_t dim, SymInt index)'],
    'topk': ['topk(SymInt k, int64_t dim=-1, bool largest=True, bool sorted=True)'],
    'requires_grad_': ['requires_grad_(bool requires_grad=True)'],
    'bmm': ['bmm(Tensor mat2)'], 'dot': ['dot(Tensor tensor)'], 'mv': ['mv(Tensor vec)'],
    'matmul': ['matmul(Tensor other)'],
    'add': ['add(Tensor other, *, Scalar alpha=1)', 'add(Scalar alpha, Tensor other)|deprecated'],
    'sub': ['sub(Tensor other, *, Scalar alpha=1)', 'sub(Scalar alpha, Tensor other)|deprecated'],
    'mul': ['mul(Tensor other)'],
    'div': ['div(Tensor other)', 'div(Tensor other, *, c10::string_view? rounding_mode)',
            'div(Scalar other, *, c10::string_view? rounding_mode)'],
    'max': ['max()', 'max(Tensor other)', 'max(int64_t dim, bool keepdim=False)'],
    'min': ['min()', 'min(Tensor other)', 'min(int64_t dim, bool keepdim=False)'],
    'argmax': ['argmax(int64_t? dim=None, bool keepdim=False)'],
    'argmin': ['argmin(int64_t? dim=None, bool keepdim=False)'],
    'prod': ['prod(*, ScalarType? dtype=None)', 'prod(int64_t dim, bool keepdim=False, *, ScalarType? dtype=None)'],
    'logsumexp': ['logsumexp(IntArrayRef[1] dim, bool keepdim=False)'],
    'amax': ['amax(IntArrayRef[1]? dim=[], bool keepdim=False)'],
    'amin': ['amin(IntArrayRef[1]? dim=[], bool keepdim=False)'],
    'nansum': ['nansum(IntArrayRef[1]? dim=None, bool keepdim=False, *, ScalarType? dtype=None)'],
    'nanmean': ['nanmean(IntArrayRef[1]? dim=None, bool keepdim=False, *, ScalarType? dtype=None)'],
    'median': ['median()', 'median(int64_t dim, bool keepdim=False)'],
    'nanmedian': ['nanmedian()', 'nanmedian(int64_t dim, bool keepdim=False)'],
    'pow': ['pow(Tensor exponent)', 'pow(Scalar exponent)'],
    'maximum': ['maximum(Tensor other)'], 'minimum': ['minimum(Tensor other)'],
    'cumsum': ['cumsum(int64_t dim, *, ScalarType? dtype=None)'],
    'cumprod': ['cumprod(int64_t dim, *, ScalarType? dtype=None)'],
    'softmax': ['softmax(int64_t dim, ScalarType? dtype=None)'],
    'log_softmax': ['log_softmax(int64_t dim, ScalarType? dtype=None)'],
    'fill_': ['fill_(Tensor value)', 'fill_(Scalar value)'],
    'index_fill': ['index_fill(int64_t dim, Tensor index, Tensor value)',
                   'index_fill(int64_t dim, Tensor index, Scalar value)'],
    'all': ['all()', 'all(IntArrayRef? dim=None, bool keepdim=False)', 'all(int64_t dim, bool keepdim=False)'],
    'any': ['any()', 'any(IntArrayRef? dim=None, bool keepdim=False)', 'any(int64_t dim, bool keepdim=False)'],
    'round': ['round()', 'round(*, int64_t decimals)'],
    'unbind': ['unbind(int64_t dim=0)'],
    'diag': ['diag(int64_t diagonal=0)'],
    'tril': ['tril(SymInt diagonal=0)'], 'triu': ['triu(SymInt diagonal=0)'],
    'nonzero': ['nonzero()', 'nonzero(*, bool as_tuple)'],
    'type_as': ['type_as(Tensor other)'], 'view_as': ['view_as(Tensor other)'],
    'reshape_as': ['reshape_as(Tensor other)'],
    'repeat_interleave': ['repeat_interleave(Tensor repeats, int64_t? dim=None, *, SymInt? output_size=None)',
                          'repeat_interleave(SymInt repeats, int64_t? dim=None, *, SymInt? output_size=None)'],
    'flip': ['flip(IntArrayRef dims)'],
    'roll': ['roll(SymIntArrayRef[1] shifts, IntArrayRef[1] dims=None)'],
    'index_add': ['index_add(int64_t dim, Tensor index, Tensor source, *, Scalar alpha=1)'],
    'masked_select': ['masked_select(Tensor mask)'],
    'take': ['take(Tensor index)'],
    'unfold': ['unfold(int64_t dimension, int64_t size, int64_t step)'],
    'sort': ['sort(*, bool? stable, int64_t dim=-1, bool descending=False)',
             'sort(int64_t dim=-1, bool descending=False)'],
    'count_nonzero': ['count_nonzero(int64_t? dim=None)', 'count_nonzero(IntArrayRef dim)'],
    'aminmax': ['aminmax(*, int64_t? dim=None, bool keepdim=False)'],
    'cummax': ['cummax(int64_t dim)'], 'cummin': ['cummin(int64_t dim)'],
    'logcumsumexp': ['logcumsumexp(int64_t dim)'],
    'kthvalue': ['kthvalue(SymInt k, int64_t dim=-1, bool keepdim=False)'],
    'mm': ['mm(Tensor mat2)'], 'outer': ['outer(Tensor vec2)'], 'kron': ['kron(Tensor other)'],
    'inner': ['inner(Tensor other)'],
    'dist': ['dist(Tensor other, Scalar p=2)'], 'cross': ['cross(Tensor other, int64_t? dim=None)'],
    'atan2': ['atan2(Tensor other)'], 'hypot': ['hypot(Tensor other)'], 'equal': ['equal(Tensor other)'],
    'nextafter': ['nextafter(Tensor other)'], 'ldexp': ['ldexp(Tensor other)'],
    'logaddexp': ['logaddexp(Tensor other)'], 'heaviside': ['heaviside(Tensor values)'],
    'masked_scatter': ['masked_scatter(Tensor mask, Tensor source)'],
}
METHODS.update({
    'narrow': ['narrow(int64_t dim, Tensor start, SymInt length)', 'narrow(int64_t dim, SymInt start, SymInt length)'],
    'movedim': ['movedim(int64_t source, int64_t destination)', 'movedim(IntArrayRef source, IntArrayRef destination)'],
    'moveaxis': ['moveaxis(int64_t source, int64_t destination)',
                 'moveaxis(IntArrayRef source, IntArrayRef destination)'],
    'swapaxes': ['swapaxes(int64_t axis0, int64_t axis1)'], 'swapdims': ['swapdims(int64_t dim0, int64_t dim1)'],
    # (with the deprecated overloads of scalars first: the parser's error then lists the one signature)
    'addmm': ['addmm(Tensor mat1, Tensor mat2, *, Scalar beta=1, Scalar alpha=1)',
              'addmm(Scalar beta, Scalar alpha, Tensor mat1, Tensor mat2)|deprecated',
              'addmm(Scalar beta, Tensor mat1, Tensor mat2)|deprecated'],
    'baddbmm': ['baddbmm(Tensor batch1, Tensor batch2, *, Scalar beta=1, Scalar alpha=1)',
                'baddbmm(Scalar beta, Scalar alpha, Tensor batch1, Tensor batch2)|deprecated',
                'baddbmm(Scalar beta, Tensor batch1, Tensor batch2)|deprecated'],
    'addmm_': ['addmm_(Tensor mat1, Tensor mat2, *, Scalar beta=1, Scalar alpha=1)',
               'addmm_(Scalar beta, Scalar alpha, Tensor mat1, Tensor mat2)|deprecated',
               'addmm_(Scalar beta, Tensor mat1, Tensor mat2)|deprecated'],
    'baddbmm_': ['baddbmm_(Tensor batch1, Tensor batch2, *, Scalar beta=1, Scalar alpha=1)',
                 'baddbmm_(Scalar beta, Scalar alpha, Tensor batch1, Tensor batch2)|deprecated',
                 'baddbmm_(Scalar beta, Tensor batch1, Tensor batch2)|deprecated'],
    'addcmul': ['addcmul(Tensor tensor1, Tensor tensor2, *, Scalar value=1)',
                'addcmul(Scalar value, Tensor tensor1, Tensor tensor2)|deprecated'],
    'addcdiv': ['addcdiv(Tensor tensor1, Tensor tensor2, *, Scalar value=1)',
                'addcdiv(Scalar value, Tensor tensor1, Tensor tensor2)|deprecated'],
    'allclose': ['allclose(Tensor other, double rtol=1e-05, double atol=1e-08, bool equal_nan=False)'],
    'isclose': ['isclose(Tensor other, double rtol=1e-05, double atol=1e-08, bool equal_nan=False)'],
    'normal_': ['normal_(double mean=0, double std=1, *, Generator? generator=None)'],
    'uniform_': ['uniform_(double from=0, double to=1, *, Generator? generator=None)'],
    'exponential_': ['exponential_(double lambd=1, *, Generator? generator=None)'],
    'bernoulli_': ['bernoulli_(Tensor p, *, Generator? generator=None)',
                   'bernoulli_(double p=0.5, *, Generator? generator=None)'],
    'random_': ['random_(*, Generator? generator=None)',
                'random_(int64_t from, int64_t? to, *, Generator? generator=None)',
                'random_(int64_t to, *, Generator? generator=None)'],
    'histc': ['histc(int64_t bins=100, Scalar min=0, Scalar max=0)'],
    'diff': ['diff(int64_t n=1, int64_t dim=-1, Tensor? prepend=None, Tensor? append=None)'],
    'tile': ['tile(SymIntArrayRef dims)'],
    'argsort': ['argsort(*, bool stable, int64_t dim=-1, bool descending=False)',
                'argsort(int64_t dim=-1, bool descending=False)'],
    'split_with_sizes': ['split_with_sizes(SymIntArrayRef split_sizes, int64_t dim=0)'],
    'mode': ['mode(int64_t dim=-1, bool keepdim=False)'],
    'index_copy': ['index_copy(int64_t dim, Tensor index, Tensor source)'],
    'fmax': ['fmax(Tensor other)'], 'fmin': ['fmin(Tensor other)'],
    'renorm': ['renorm(Scalar p, int64_t dim, Scalar maxnorm)'],
    'type': ['type(PyObject* dtype=None, bool non_blocking=False, *, MemoryFormat? memory_format=None)',
             'type(PyObject* dtype=None, bool async=False, *, MemoryFormat? memory_format=None)|deprecated'],
})
METHODS.update((name, ['%s(int64_t dim, Tensor index, Tensor src)' % name,
                       '%s(int64_t dim, Tensor index, Tensor src, *, c10::string_view reduce)' % name,
                       '%s(int64_t dim, Tensor index, Scalar value)' % name,
                       '%s(int64_t dim, Tensor index, Scalar value, *, c10::string_view reduce)' % name])
               for name in ('scatter', 'scatter_'))
METHODS.update((name, ['%s(int64_t dim, Tensor index, Tensor src, c10::string_view reduce, *, bool include_self=True)'
                       % name]) for name in ('scatter_reduce', 'scatter_reduce_'))
METHODS.update((name, ['%s(Tensor? min=None, Tensor? max=None)' % name, '%s(Scalar? min=None, Scalar? max=None)'
                       % name]) for name in ('clamp', 'clamp_', 'clip', 'clip_'))
METHODS.update((name, ['%s(Tensor end, Tensor weight)' % name, '%s(Tensor end, Scalar weight)' % name])
               for name in ('lerp', 'lerp_'))
METHODS.update((name, ['%s(*, MemoryFormat? memory_format=None)' % name]) for name in _CASTS)
METHODS.update((name, ['%s(Tensor other)' % name, '%s(Scalar other)' % name])
               for name in ('true_divide', 'floor_divide', 'remainder', 'fmod', 'eq', 'ne', 'lt', 'gt', 'le', 'ge',
                            'eq_', 'ne_', 'lt_', 'gt_', 'le_', 'ge_', 'greater', 'less', 'greater_equal',
                            'less_equal', 'not_equal', 'true_divide_', 'floor_divide_', 'remainder_', 'fmod_',
                            'greater_', 'less_', 'greater_equal_', 'less_equal_', 'not_equal_', 'xlogy', 'xlogy_',
                            'copysign', 'copysign_', 'multiply', 'multiply_'))
METHODS.update((name, ['%s(Tensor %s)' % (name, arg), '%s(Scalar %s)' % (name, arg)])
               for name, arg in (('pow_', 'exponent'), ('float_power', 'exponent'), ('float_power_', 'exponent'),
                                 ('clamp_min', 'min'), ('clamp_min_', 'min'), ('clamp_max', 'max'),
                                 ('clamp_max_', 'max')))
METHODS['div_'] = [s.replace('div(', 'div_(') for s in METHODS['div']]
METHODS['copy_'] = ['copy_(Tensor other, bool non_blocking=False)',
                   'copy_(Tensor other, bool async=False)|deprecated']
METHODS.update((name, ['%s(Tensor other)' % name, '%s(Tensor other, *, c10::string_view? rounding_mode)' % name,
                       '%s(Scalar other)' % name, '%s(Scalar other, *, c10::string_view? rounding_mode)' % name])
               for name in ('divide', 'divide_'))
METHODS.update((name, ['%s(Tensor other, *, Scalar alpha=1)' % name, '%s(Scalar other, Scalar alpha=1)' % name])
               for name in ('subtract', 'subtract_'))
METHODS.update(('new_' + name, ['new_%s(SymIntArrayRef size, %s*, ScalarType? dtype=None, Layout? layout=None, Device? '
                                'device=None, bool? pin_memory=False, bool? requires_grad=False)'
                                % (name, 'Scalar fill_value, ' if name == 'full' else '')])
               for name in ('ones', 'zeros', 'empty', 'full'))
FUNCTIONS = {
    'copysign': ['copysign(Tensor input, Tensor other, *, Tensor out=None)',
                 'copysign(Tensor input, Scalar other, *, Tensor out=None)'],
    'lerp': ['lerp(Tensor input, Tensor end, Tensor weight, *, Tensor out=None)',
             'lerp(Tensor input, Tensor end, Scalar weight, *, Tensor out=None)'],
    'sum': ['sum(Tensor input, *, ScalarType? dtype=None)',
            'sum(Tensor input, IntArrayRef[1]? dim, bool keepdim=False, *, ScalarType? dtype=None, Tensor out=None)'],
    'mean': ['mean(Tensor input, *, ScalarType? dtype=None, Tensor out=None)',
             'mean(Tensor input, IntArrayRef[1]? dim, bool keepdim=False, *, ScalarType? dtype=None, Tensor out=None)'],
    'std': [s.replace('(', '(Tensor input, ', 1) % 'std' for s in _STATS_OUT],
    'var': [s.replace('(', '(Tensor input, ', 1) % 'var' for s in _STATS_OUT],
    'amax': ['amax(Tensor input, IntArrayRef[1]? dim=[], bool keepdim=False, *, Tensor out=None)'],
    'amin': ['amin(Tensor input, IntArrayRef[1]? dim=[], bool keepdim=False, *, Tensor out=None)'],
    'nansum': ['nansum(Tensor input, IntArrayRef[1]? dim=None, bool keepdim=False, *, ScalarType? dtype=None, '
               'Tensor out=None)'],
    'nanmean': ['nanmean(Tensor input, IntArrayRef[1]? dim=None, bool keepdim=False, *, ScalarType? dtype=None, '
                'Tensor out=None)'],
    'median': ['median(Tensor input)',
               'median(Tensor input, int64_t dim, bool keepdim=False, *, TensorList[2] out=None)'],
    'nanmedian': ['nanmedian(Tensor input)',
                  'nanmedian(Tensor input, int64_t dim, bool keepdim=False, *, TensorList[2] out=None)'],
    'mode': ['mode(Tensor input, int64_t dim=-1, bool keepdim=False, *, TensorList[2] out=None)'],
    'transpose': ['transpose(Tensor input, int64_t dim0, int64_t dim1)'],
    'unsqueeze': ['unsqueeze(Tensor input, int64_t dim)'],
    'squeeze': ['squeeze(Tensor input)', 'squeeze(Tensor input, int64_t dim)',
                'squeeze(Tensor input, IntArrayRef dim)'],
    'flatten': ['flatten(Tensor input, int64_t start_dim=0, int64_t end_dim=-1)'],
    'masked_fill': ['masked_fill(Tensor input, Tensor mask, Tensor value)',
                    'masked_fill(Tensor input, Tensor mask, Scalar value)'],
    'where': ['where(Tensor condition)', 'where(Tensor condition, Tensor input, Tensor other, *, Tensor out=None)',
              'where(Tensor condition, Scalar self, Tensor other)',
              'where(Tensor condition, Tensor input, Scalar other)',
              'where(Tensor condition, Scalar self, Scalar other)'],
    'chunk': ['chunk(Tensor input, int64_t chunks, int64_t dim=0)'],
    'index_select': ['index_select(Tensor input, int64_t dim, Tensor index, *, Tensor out=None)'],
    'gather': ['gather(Tensor input, int64_t dim, Tensor index, *, bool sparse_grad=False, Tensor out=None)'],
    'scatter_add': ['scatter_add(Tensor input, int64_t dim, Tensor index, Tensor src, *, Tensor out=None)'],
    'cat': ['cat(TensorList tensors, int64_t dim=0, *, Tensor out=None)'],
    'stack': ['stack(TensorList tensors, int64_t dim=0, *, Tensor out=None)'],
    'matmul': ['matmul(Tensor input, Tensor other, *, Tensor out=None)'],
    'mm': ['mm(Tensor input, Tensor mat2, *, Tensor out=None)',
           'mm(Tensor input, Tensor mat2, ScalarType out_dtype, *, Tensor out=None)'],
    'bmm': ['bmm(Tensor input, Tensor mat2, *, Tensor out=None)',
            'bmm(Tensor input, Tensor mat2, ScalarType out_dtype, *, Tensor out=None)'],
    'dot': ['dot(Tensor input, Tensor tensor, *, Tensor out=None)'],
    # (torch._C._nn's loss kernels, which F.cross_entropy and F.nll_loss call with the reduction as its number)
    'cross_entropy_loss': ['cross_entropy_loss(Tensor input, Tensor target, Tensor? weight=None, '
                           'int64_t reduction=at::Reduction::Mean, SymInt ignore_index=-100, '
                           'double label_smoothing=0.0)'],
    'nll_loss_nd': ['nll_loss_nd(Tensor input, Tensor target, Tensor? weight=None, '
                    'int64_t reduction=at::Reduction::Mean, SymInt ignore_index=-100)'],
    'mv': ['mv(Tensor input, Tensor vec, *, Tensor out=None)'],
    'select': ['select(Tensor input, int64_t dim, SymInt index)'],
    'clone': ['clone(Tensor input, *, MemoryFormat? memory_format=None)'],
    'topk': ['topk(Tensor input, SymInt k, int64_t dim=-1, bool largest=True, bool sorted=True, *, '
             'TensorList[2] out=None)'],
    'sort': ['sort(Tensor input, *, bool? stable, int64_t dim=-1, bool descending=False, TensorList[2] out=None)',
             'sort(Tensor input, int64_t dim=-1, bool descending=False, *, TensorList[2] out=None)'],
    'fill_': ['fill_(Tensor input, Tensor value)', 'fill_(Tensor input, Scalar value)'],
    'cumsum': ['cumsum(Tensor input, int64_t dim, *, ScalarType? dtype=None, Tensor out=None)'],
    'cumprod': ['cumprod(Tensor input, int64_t dim, *, ScalarType? dtype=None, Tensor out=None)'],
    'softmax': ['softmax(Tensor input, int64_t dim, ScalarType? dtype=None, *, Tensor out=None)'],
    'log_softmax': ['log_softmax(Tensor input, int64_t dim, ScalarType? dtype=None, *, Tensor out=None)'],
    'index_fill': ['index_fill(Tensor input, int64_t dim, Tensor index, Tensor value)',
                   'index_fill(Tensor input, int64_t dim, Tensor index, Scalar value)'],
    'all': ['all(Tensor input, *, Tensor out=None)', 'all(Tensor input, IntArrayRef? dim=None, bool keepdim=False, *, '
            'Tensor out=None)', 'all(Tensor input, int64_t dim, bool keepdim=False, *, Tensor out=None)'],
    'any': ['any(Tensor input, *, Tensor out=None)', 'any(Tensor input, IntArrayRef? dim=None, bool keepdim=False, *, '
            'Tensor out=None)', 'any(Tensor input, int64_t dim, bool keepdim=False, *, Tensor out=None)'],
    'round': ['round(Tensor input, *, Tensor out=None)', 'round(Tensor input, *, int64_t decimals, Tensor out=None)'],
    'unbind': ['unbind(Tensor input, int64_t dim=0)'],
    'diag': ['diag(Tensor input, int64_t diagonal=0, *, Tensor out=None)'],
    'tril': ['tril(Tensor input, SymInt diagonal=0, *, Tensor out=None)'],
    'triu': ['triu(Tensor input, SymInt diagonal=0, *, Tensor out=None)'],
    'flip': ['flip(Tensor input, IntArrayRef dims)'],
    'roll': ['roll(Tensor input, SymIntArrayRef[1] shifts, IntArrayRef[1] dims=None)'],
    'index_add': ['index_add(Tensor input, int64_t dim, Tensor index, Tensor source, *, Scalar alpha=1, '
                  'Tensor out=None)'],
    'masked_select': ['masked_select(Tensor input, Tensor mask, *, Tensor out=None)'],
    'take': ['take(Tensor input, Tensor index, *, Tensor out=None)'],
    'pow': ['pow(Tensor input, Tensor exponent, *, Tensor out=None)',
            'pow(Scalar self, Tensor exponent, *, Tensor out=None)',
            'pow(Tensor input, Scalar exponent, *, Tensor out=None)'],
    'true_divide': ['true_divide(Tensor input, Tensor other, *, Tensor out=None)',
                    'true_divide(Tensor input, Scalar other)'],
    'floor_divide': ['floor_divide(Tensor input, Tensor other, *, Tensor out=None)',
                     'floor_divide(Tensor input, Scalar other)'],
    'remainder': ['remainder(Tensor input, Tensor other, *, Tensor out=None)', 'remainder(Scalar self, Tensor other)',
                  'remainder(Tensor input, Scalar other, *, Tensor out=None)'],
    'fmod': ['fmod(Tensor input, Tensor other, *, Tensor out=None)',
             'fmod(Tensor input, Scalar other, *, Tensor out=None)'],
    'maximum': ['maximum(Tensor input, Tensor other, *, Tensor out=None)'],
    'minimum': ['minimum(Tensor input, Tensor other, *, Tensor out=None)'],
    'max': ['max(Tensor input, *, Tensor out=None)', 'max(Tensor input, Tensor other, *, Tensor out=None)',
            'max(Tensor input, int64_t dim, bool keepdim=False, *, TensorList[2] out=None)'],
    'min': ['min(Tensor input, *, Tensor out=None)', 'min(Tensor input, Tensor other, *, Tensor out=None)',
            'min(Tensor input, int64_t dim, bool keepdim=False, *, TensorList[2] out=None)'],
    'argmax': ['argmax(Tensor input, int64_t? dim=None, bool keepdim=False, *, Tensor out=None)'],
    'argmin': ['argmin(Tensor input, int64_t? dim=None, bool keepdim=False, *, Tensor out=None)'],
    'prod': ['prod(Tensor input, *, ScalarType? dtype=None)',
             'prod(Tensor input, int64_t dim, bool keepdim=False, *, ScalarType? dtype=None, Tensor out=None)'],
    'logsumexp': ['logsumexp(Tensor input, IntArrayRef[1] dim, bool keepdim=False, *, Tensor out=None)'],
    'add': ['add(Tensor input, Tensor other, *, Scalar alpha=1, Tensor out=None)',
            'add(Tensor input, Scalar alpha, Tensor other, *, Tensor out=None)|deprecated'],
    'sub': ['sub(Tensor input, Tensor other, *, Scalar alpha=1, Tensor out=None)',
            'sub(Tensor input, Scalar alpha, Tensor other, *, Tensor out=None)|deprecated'],
    'mul': ['mul(Tensor input, Tensor other, *, Tensor out=None)'],
    'div': ['div(Tensor input, Tensor other, *, Tensor out=None)',
            'div(Tensor input, Tensor other, *, c10::string_view? rounding_mode, Tensor out=None)',
            'div(Tensor input, Scalar other, *, c10::string_view? rounding_mode)'],
    'rsub': ['rsub(Tensor input, Tensor other, *, Scalar alpha=1)', 'rsub(Tensor input, Scalar other, Scalar alpha=1)'],
    'subtract': ['subtract(Tensor input, Tensor other, *, Scalar alpha=1, Tensor out=None)',
                 'subtract(Tensor input, Scalar other, Scalar alpha=1)'],
    'multiply': ['multiply(Tensor input, Tensor other, *, Tensor out=None)', 'multiply(Tensor input, Scalar other)'],
    'divide': ['divide(Tensor input, Tensor other, *, Tensor out=None)',
               'divide(Tensor input, Tensor other, *, c10::string_view? rounding_mode, Tensor out=None)',
               'divide(Tensor input, Scalar other)',
               'divide(Tensor input, Scalar other, *, c10::string_view? rounding_mode)'],
    'float_power': ['float_power(Tensor input, Tensor exponent, *, Tensor out=None)',
                    'float_power(Scalar self, Tensor exponent, *, Tensor out=None)',
                    'float_power(Tensor input, Scalar exponent, *, Tensor out=None)'],
    'xlogy': ['xlogy(Tensor input, Tensor other, *, Tensor out=None)',
              'xlogy(Scalar self, Tensor other, *, Tensor out=None)',
              'xlogy(Tensor input, Scalar other, *, Tensor out=None)'],
    **{name: ['%s(Tensor input, Tensor other, *, Tensor out=None)' % name, '%s(Scalar self, Tensor other)' % name,
              '%s(Tensor input, Scalar other, *, Tensor out=None)' % name]
       for name in ('bitwise_and', 'bitwise_or', 'bitwise_xor', 'bitwise_left_shift', 'bitwise_right_shift')},
    'clamp_min': ['clamp_min(Tensor input, Tensor min, *, Tensor out=None)',
                  'clamp_min(Tensor input, Scalar min, *, Tensor out=None)'],
    'clamp_max': ['clamp_max(Tensor input, Tensor max, *, Tensor out=None)',
                  'clamp_max(Tensor input, Scalar max, *, Tensor out=None)'],
    'kron': ['kron(Tensor input, Tensor other, *, Tensor out=None)'],
    'relu': ['relu(Tensor input)'], 't': ['t(Tensor input)'], 'detach': ['detach(Tensor input)'],
    'count_nonzero': ['count_nonzero(Tensor input, int64_t? dim=None)', 'count_nonzero(Tensor input, IntArrayRef dim)'],
    'aminmax': ['aminmax(Tensor input, *, int64_t? dim=None, bool keepdim=False, TensorList[2] out=None)'],
    'clamp': ['clamp(Tensor input, Tensor? min=None, Tensor? max=None, *, Tensor out=None)',
              'clamp(Tensor input, Scalar? min=None, Scalar? max=None, *, Tensor out=None)'],
    'cummax': ['cummax(Tensor input, int64_t dim, *, TensorList[2] out=None)'],
    'cummin': ['cummin(Tensor input, int64_t dim, *, TensorList[2] out=None)'],
    'logcumsumexp': ['logcumsumexp(Tensor input, int64_t dim, *, Tensor out=None)'],
    'kthvalue': ['kthvalue(Tensor input, SymInt k, int64_t dim=-1, bool keepdim=False, *, TensorList[2] out=None)'],
    'outer': ['outer(Tensor input, Tensor vec2, *, Tensor out=None)'],
    'dist': ['dist(Tensor input, Tensor other, Scalar p=2)'],
    'cross': ['cross(Tensor input, Tensor other, int64_t? dim=None, *, Tensor out=None)'],
    'broadcast_to': ['broadcast_to(Tensor input, SymIntArrayRef size)'],
    'atan2': ['atan2(Tensor input, Tensor other, *, Tensor out=None)'],
    'heaviside': ['heaviside(Tensor input, Tensor values, *, Tensor out=None)'],
    'inner': ['inner(Tensor input, Tensor other, *, Tensor out=None)'],
    **{name: ['%s(Tensor input, Tensor other, *, Tensor out=None)' % name]
       for name in ('arctan2', 'hypot', 'fmax', 'fmin', 'logaddexp', 'logaddexp2', 'logical_and', 'logical_or',
                    'logical_xor', 'nextafter', 'ldexp')},
    **{name: ['%s(Tensor input, Tensor other, *, Tensor out=None)' % name,
              '%s(Tensor input, Scalar other, *, Tensor out=None)' % name]
       for name in ('eq', 'ne', 'lt', 'gt', 'le', 'ge', 'greater', 'greater_equal', 'less', 'less_equal', 'not_equal')},
}
FUNCTIONS.update((name, ['%s(Tensor input, *, Tensor out=None)' % name])
                 for name in 'exp log sqrt abs sigmoid tanh neg sin cos erf erfc expm1 log1p log2 log10 rsqrt'.split())
FUNCTIONS.update({
    'numel': ['numel(Tensor input)'], 'equal': ['equal(Tensor input, Tensor other)'],
    'allclose': ['allclose(Tensor input, Tensor other, double rtol=1e-05, double atol=1e-08, bool equal_nan=False)'],
    'reshape': ['reshape(Tensor input, SymIntArrayRef shape)'], 'permute': ['permute(Tensor input, IntArrayRef dims)'],
    'multinomial': ['multinomial(Tensor input, SymInt num_samples, bool replacement=False, *, Generator? '
                    'generator=None, Tensor out=None)'],
    # nn.functional's builtins (see _as_builtins in __init__.py)
    'one_hot': ['one_hot(Tensor input, int64_t num_classes=-1)'],
    'linear': ['linear(Tensor input, Tensor weight, Tensor? bias=None)'],
    'bilinear': ['bilinear(Tensor input1, Tensor input2, Tensor weight, Tensor? bias=None)'],
    **{'avg_pool%dd' % n: ['avg_pool%dd(Tensor input, IntArrayRef[%d] kernel_size, IntArrayRef[%d] stride=None, '
                          'IntArrayRef[%d] padding=0, bool ceil_mode=False, bool count_include_pad=True, int64_t? '
                          'divisor_override=None)' % ((n,) * 4)] for n in (2, 3)},
    'gelu': ['gelu(Tensor input, *, c10::string_view approximate="none")'],
    'pad': ['pad(Tensor input, SymIntArrayRef pad, c10::string_view mode="constant", double? value=None)'],
})
_UNSAFE_SPLITS = {'unsafe_chunk': 'int64_t chunks, int64_t dim=0', 'unsafe_split': 'SymInt split_size, int64_t dim=0',
                  'unsafe_split_with_sizes': 'SymIntArrayRef split_sizes, int64_t dim=0'}
METHODS.update((name, ['%s(%s)' % (name, args)]) for name, args in _UNSAFE_SPLITS.items())
METHODS.update(polygamma=['polygamma(int64_t n)'], polygamma_=['polygamma_(int64_t n)'])
FUNCTIONS['polygamma'] = ['polygamma(int64_t n, Tensor input, *, Tensor out=None)']
FUNCTIONS.update((name, ['%s(Tensor input, %s)' % (name, args)]) for name, args in _UNSAFE_SPLITS.items())
# more ops taking ints (their Python checks let what PyTorch refuses through: `x.diagonal(True)`, `x.cumsum_(1.0)`)
METHODS.update({
    'diagonal': ['diagonal(int64_t offset=0, int64_t dim1=0, int64_t dim2=1)'],
    'diag_embed': ['diag_embed(int64_t offset=0, int64_t dim1=-2, int64_t dim2=-1)'],
    'rot90': ['rot90(int64_t k=1, IntArrayRef dims=[0,1])'],
    'tensor_split': ['tensor_split(SymIntArrayRef indices, int64_t dim=0)',
                     'tensor_split(Tensor tensor_indices_or_sections, int64_t dim=0)',
                     'tensor_split(SymInt sections, int64_t dim=0)'],
    'quantile': ['quantile(%s q, int64_t? dim=None, bool keepdim=False, *, c10::string_view interpolation="linear")'
                 % t for t in ('Tensor', 'double')],
    'resize_': ['resize_(SymIntArrayRef size, *, MemoryFormat? memory_format=None)'],
    'fill_diagonal_': ['fill_diagonal_(Scalar fill_value, bool wrap=False)'],
    'unsqueeze_': ['unsqueeze_(int64_t dim)'],
    'squeeze_': ['squeeze_()', 'squeeze_(int64_t dim)', 'squeeze_(IntArrayRef dim)'],
    'transpose_': ['transpose_(int64_t dim0, int64_t dim1)'],
    'swapaxes_': ['swapaxes_(int64_t axis0, int64_t axis1)'], 'swapdims_': ['swapdims_(int64_t dim0, int64_t dim1)'],
    'cumsum_': ['cumsum_(int64_t dim, *, ScalarType? dtype=None)'],
    'cumprod_': ['cumprod_(int64_t dim, *, ScalarType? dtype=None)'],
    'tril_': ['tril_(SymInt diagonal=0)'], 'triu_': ['triu_(SymInt diagonal=0)'],
    'take_along_dim': ['take_along_dim(Tensor indices, int64_t? dim=None)'],
    'as_strided': ['as_strided(SymIntArrayRef size, SymIntArrayRef stride, SymInt? storage_offset=None)'],
    'matrix_power': ['matrix_power(int64_t n)'],
    'multinomial': ['multinomial(SymInt num_samples, bool replacement=False, *, Generator? generator=None)'],
    'index_add_': ['index_add_(int64_t dim, Tensor index, Tensor source, *, Scalar alpha=1)'],
    'index_copy_': ['index_copy_(int64_t dim, Tensor index, Tensor source)'],
    'index_fill_': ['index_fill_(int64_t dim, Tensor index, Tensor value)',
                    'index_fill_(int64_t dim, Tensor index, Scalar value)'],
    'scatter_add_': ['scatter_add_(int64_t dim, Tensor index, Tensor src)'],
    'put': ['put(Tensor index, Tensor source, bool accumulate=False)'],
    'put_': ['put_(Tensor index, Tensor source, bool accumulate=False)'],
    'masked_scatter_': ['masked_scatter_(Tensor mask, Tensor source)'],
})
METHODS.update((name, ['%s(int64_t sections)' % name, '%s(IntArrayRef indices)' % name])
               for name in ('hsplit', 'vsplit', 'dsplit'))
FUNCTIONS.update((name, [s.replace('(', '(Tensor input, ', 1) for s in METHODS[name]])
                 for name in 'diagonal diag_embed rot90 tensor_split hsplit vsplit dsplit narrow movedim moveaxis '
                             'swapaxes swapdims as_strided'.split())
FUNCTIONS.update((name, [s.replace('(', '(Tensor input, ', 1)[:-1] + (', ' if '*' in s else ', *, ') +
                         'Tensor out=None)' for s in METHODS[name]])
                 for name in ('take_along_dim', 'matrix_power', 'scatter', 'scatter_reduce', 'histc', 'diff',
                              'index_copy'))
FUNCTIONS.update((name, [s.replace('(', '(Tensor input, ', 1) for s in METHODS[name]])
                 for name in ('put', 'masked_scatter'))
FUNCTIONS['embedding'] = ['embedding(Tensor weight, Tensor indices, SymInt padding_idx=-1, '
                          'bool scale_grad_by_freq=False, bool sparse=False)']
FUNCTIONS['nonzero'] = ['nonzero(Tensor input, *, bool as_tuple=False, Tensor out=None)']
FUNCTIONS['searchsorted'] = ['searchsorted(Tensor sorted_sequence, %s, *, bool out_int32=False, bool right=False, '
                             'c10::string_view? side=None, Tensor? sorter=None, Tensor out=None)' % arg
                             for arg in ('Tensor input', 'Scalar self')]
FUNCTIONS['bucketize'] = ['bucketize(Tensor input, Tensor boundaries, *, bool out_int32=False, bool right=False, '
                          'Tensor out=None)',
                          'bucketize(Scalar self, Tensor boundaries, *, bool out_int32=False, bool right=False)']
FUNCTIONS.update({
    'split': ['split(Tensor input, SymInt split_size, int64_t dim=0)',
              'split(Tensor input, SymIntArrayRef split_size, int64_t dim=0)'],
    'split_with_sizes': ['split_with_sizes(Tensor input, SymIntArrayRef split_sizes, int64_t dim=0)'],
    'repeat_interleave': ['repeat_interleave(Tensor input, Tensor repeats, int64_t? dim=None, *, '
                          'SymInt? output_size=None)', 'repeat_interleave(Tensor repeats, *, SymInt? output_size=None)',
                          'repeat_interleave(Tensor input, SymInt repeats, int64_t? dim=None, *, '
                          'SymInt? output_size=None)'],
    'bincount': ['bincount(Tensor input, Tensor? weights=None, SymInt minlength=0)'],
    'pdist': ['pdist(Tensor input, double p=2)'],
    'quantile': [s.replace('(', '(Tensor input, ', 1).replace(')', ', Tensor out=None)') for s in METHODS['quantile']],
    'unflatten': ['unflatten(Tensor input, int64_t dim, SymIntArrayRef sizes)'],
    'argsort': ['argsort(Tensor input, *, bool stable, int64_t dim=-1, bool descending=False, Tensor out=None)',
                'argsort(Tensor input, int64_t dim=-1, bool descending=False)'],
})
FUNCTIONS.update(('%s_indices' % name, ['%s_indices(int64_t row, int64_t col, int64_t offset=0, *, ScalarType? '
                                        'dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=False)'
                                        % name]) for name in ('tril', 'triu'))
METHODS['unflatten'] = ['unflatten(int64_t dim, SymIntArrayRef sizes)']
# addmm and the like: beta and alpha are Numbers (`torch.addmm(m, a, b, beta=torch.tensor([2.]))` is refused)
for _name, _a, _b in (('addmm', 'mat1', 'mat2'), ('baddbmm', 'batch1', 'batch2'), ('addmv', 'mat', 'vec'),
                      ('addr', 'vec1', 'vec2'), ('addbmm', 'batch1', 'batch2')):
    _f = {'n': _name, 'a': _a, 'b': _b}
    METHODS.setdefault(_name, ['%(n)s(Tensor %(a)s, Tensor %(b)s, *, Scalar beta=1, Scalar alpha=1)' % _f,
                               '%(n)s(Scalar beta, Scalar alpha, Tensor %(a)s, Tensor %(b)s)|deprecated' % _f,
                               '%(n)s(Scalar beta, Tensor %(a)s, Tensor %(b)s)|deprecated' % _f])
    METHODS.setdefault(_name + '_', [s.replace(_name + '(', _name + '_(') for s in METHODS[_name]])
    FUNCTIONS[_name] = [
        '%(n)s(Tensor input, Tensor %(a)s, Tensor %(b)s, *, Scalar beta=1, Scalar alpha=1, Tensor out=None)' % _f,
        '%(n)s(Scalar beta, Tensor input, Scalar alpha, Tensor %(a)s, Tensor %(b)s, *, Tensor out=None)|deprecated'
        % _f, '%(n)s(Scalar beta, Tensor input, Tensor %(a)s, Tensor %(b)s, *, Tensor out=None)|deprecated' % _f]
    if _name in ('addmm', 'baddbmm'):           # (matrix products may also name their result's dtype)
        FUNCTIONS[_name].insert(1, '%(n)s(Tensor input, Tensor %(a)s, Tensor %(b)s, ScalarType out_dtype, *, Scalar '
                                   'beta=1, Scalar alpha=1, Tensor out=None)' % _f)
# the factories: each overload taking a generator comes first, then the same without
_OPTIONS = ('ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=False, '
            'bool? requires_grad=False')
_FACTORIES = {'zeros': ('SymIntArrayRef size',), 'ones': ('SymIntArrayRef size',), 'rand': ('SymIntArrayRef size', 'g'),
              'randn': ('SymIntArrayRef size', 'g'),
              'empty': ('SymIntArrayRef size, MemoryFormat? memory_format=None',),
              'full': ('SymIntArrayRef size, Scalar fill_value',),
              'randint': ('SymInt high, SymIntArrayRef size', 'g', 'SymInt low, SymInt high, SymIntArrayRef size', 'g'),
              'randperm': ('SymInt n', 'g'), 'eye': ('SymInt n', 'SymInt n, SymInt m'),
              'arange': ('Scalar end', 'Scalar start, Scalar end, -out', 'Scalar start, Scalar end, Scalar step=1')}
for _name, _forms in _FACTORIES.items():
    _sigs = []
    for _i, _form in enumerate(_forms):
        if _form == 'g':
            continue
        _extra = _form.endswith('memory_format=None')
        _args = _form.replace(', -out', '').replace(', MemoryFormat? memory_format=None', '')
        _tail = (('MemoryFormat? memory_format=None, ' if _extra else '') +
                 ('' if '-out' in _form else 'Tensor out=None, '))
        _sig = '%s(%s, *, %s%s)' % (_name, _args, _tail, _OPTIONS)
        if _i + 1 < len(_forms) and _forms[_i + 1] == 'g':
            _sigs.append(_sig.replace('*, ', '*, Generator? generator, '))
        _sigs.append(_sig)
    FUNCTIONS[_name] = _sigs
for _name, _args in (('zeros', ''), ('ones', ''), ('empty', ''), ('full', 'Scalar fill_value, '), ('rand', 'g'),
                     ('randn', 'g')):
    _sig = '%s_like(Tensor input, %s*, MemoryFormat? memory_format=None, %s)' % (_name, _args.strip('g'), _OPTIONS)
    FUNCTIONS[_name + '_like'] = [_sig.replace('*, ', '*, Generator? generator, '), _sig] if _args == 'g' else [_sig]
FUNCTIONS['normal'] = ['normal(Tensor mean, Tensor std, *, Generator? generator=None, Tensor out=None)',
                       'normal(Tensor mean, double std=1, *, Generator? generator=None, Tensor out=None)',
                       'normal(double mean, Tensor std, *, Generator? generator=None, Tensor out=None)',
                       'normal(double mean, double std, SymIntArrayRef size, *, Generator? generator=None, '
                       'Tensor out=None, %s)' % _OPTIONS]
FUNCTIONS['randint_like'] = [
    'randint_like(Tensor input, %s*, %sMemoryFormat? memory_format=None, %s)' % (args, generator, _OPTIONS)
    for args in ('SymInt low, SymInt high, ', 'Tensor high, ', 'SymInt high, ')
    for generator in ('Generator? generator, ', '')]


def parser(name, function):
    """The Parser of a method (function False) or torch.* function, made when first wanted; None if the op has no
    signatures here."""
    table = FUNCTIONS if function else METHODS
    sigs = table.get(name)
    if sigs is None:
        return None
    if not isinstance(sigs, Parser):
        sigs = table[name] = Parser(sigs)
    return sigs


@functools.lru_cache(maxsize=256)
def signature_parser(*signatures):
    """The Parser of these signatures, made once: for a call the engine checks outside the tables above (the C++
    function an F.* or nn module passes its arguments on to, as F.dropout to torch._VF.dropout)."""
    return Parser(list(signatures))
