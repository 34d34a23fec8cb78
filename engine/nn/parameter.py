"""nn.Parameter: a leaf tensor that a Module registers as one of its learnable weights.

A Parameter is a Tensor of its own class (type(p) shows torch.nn.parameter.Parameter) with no state of its own:
every op treats it as the tensor it is, and what ops make of it are plain tensors, as in PyTorch. Only its repr
("Parameter containing:") and deepcopy (a Parameter again, without the .grad) differ.
"""
from .._factories import empty
from .._tensor import PLAIN_REPR, Tensor, _user_attributes

_FLOAT_ONLY = 'Only Tensors of floating point and complex dtype can require gradients'


class Parameter(Tensor):
    """Parameter(data, requires_grad=True): `data`'s memory as a leaf that requires grad, marked as a parameter."""
    __module__ = 'torch.nn.parameter'
    __slots__ = ()

    def __new__(cls, data=None, requires_grad=True):
        if data is None:
            data = empty(0)
        p = data.detach()
        if type(requires_grad) is not bool:
            raise TypeError("_make_subclass(): argument 'require_grad' (position 3) must be bool, not %s"
                            % type(requires_grad).__name__)
        p.requires_grad_(requires_grad, _message=_FLOAT_ONLY)
        p.__class__ = cls
        return p

    def __repr__(self):
        text = super().__repr__()       # (a subclass's shows as Parameter(MyParam([...], requires_grad=True)))
        return 'Parameter containing:\n' + (text if type(self) is Parameter else 'Parameter(%s)' % text)

    def __copy__(self):
        """copy.copy: PyTorch's Parameter rebuilds itself from its .data: a new parameter on the same memory."""
        p = Parameter(self.data, self.requires_grad)
        p.__class__ = type(self)
        p.__dict__.update(_user_attributes(self))       # (and the attributes set on it)
        return p

    def __reduce_ex__(self, proto):
        """pickle: PyTorch's Parameter pickles its .data (a tensor of its own memory) and comes back a Parameter of
        it, with the attributes set on it."""
        return (_rebuild_parameter, (self.data, self.requires_grad), _user_attributes(self) or None)

    def __deepcopy__(self, memo):
        """copy.deepcopy: PyTorch's Parameter makes a new one of a clone of its .data (version 0), leaving its .grad
        and attributes behind."""
        if id(self) in memo:
            return memo[id(self)]
        t = memo[id(self)] = type(self)(self.data.clone(), self.requires_grad)
        return t


def _rebuild_parameter(data, requires_grad):
    """How pickle brings a Parameter back (a plain Parameter, as PyTorch's torch._utils._rebuild_parameter)."""
    return Parameter(data, requires_grad)


_UNINITIALIZED_SHAPE = ("Can't access the shape of an uninitialized parameter or buffer. This error usually happens in "
                        "`load_state_dict` when trying to load an uninitialized parameter into an initialized one. "
                        "Call `forward` to initialize the parameters before accessing their attributes.")


def _uninitialized_error(t, where):
    """PyTorch's error for a tensor function (`where`, as PyTorch shows it) used on a parameter or buffer a lazy
    module has not shaped yet."""
    return ValueError("Attempted to use an uninitialized parameter in %s. This error happens when you are using a "
                      "`LazyModule` or explicitly manipulating `torch.nn.parameter.%s` objects. When using LazyModules "
                      "Call `forward` with a dummy batch to initialize the parameters before calling torch functions"
                      % (where, type(t).__name__))


def _uninitialized_use(name):
    """A tensor method of an uninitialized parameter: PyTorch's error."""
    def method(self, *args, **kwargs):
        raise _uninitialized_error(self, "<method '%s' of 'torch._C.TensorBase' objects>" % name)
    method.__name__ = name
    return method


def _uninitialized_format(self, spec):
    """format() / f-strings of an uninitialized parameter: PyTorch's error naming Tensor.__format__ (str() works)."""
    raise _uninitialized_error(self, repr(Tensor.__format__))


class UninitializedParameter(Parameter):
    """A lazy module's parameter before its first forward, which decides its shape: materialize(shape) turns it
    (the same object, so an optimizer made before holds it) into a Parameter of that shape."""
    __module__ = 'torch.nn.parameter'
    __slots__ = ()

    def __new__(cls, requires_grad=True, device=None, dtype=None):
        p = Parameter.__new__(Parameter, empty(0, dtype=dtype), requires_grad)
        p.__class__ = cls
        return p

    def __repr__(self):
        return '<%s>' % type(self).__name__

    __str__ = __repr__
    __format__ = _uninitialized_format

    @property
    def shape(self):
        raise RuntimeError(_UNINITIALIZED_SHAPE)

    numel, dim = _uninitialized_use('numel'), _uninitialized_use('dim')
    zero_, fill_, normal_, uniform_ = (_uninitialized_use('zero_'), _uninitialized_use('fill_'),
                                       _uninitialized_use('normal_'), _uninitialized_use('uniform_'))

    def detach(self):                   # (state_dict() holds its detached self: uninitialized too)
        t = Tensor.detach(self)
        t.__class__ = type(self)
        return t

    def __deepcopy__(self, memo):
        """copy.deepcopy of a lazy module before its first forward: a new uninitialized parameter."""
        if id(self) not in memo:
            memo[id(self)] = type(self)(self.requires_grad, dtype=self.dtype)
        return memo[id(self)]

    def materialize(self, shape, device=None, dtype=None):
        """Take memory of `shape` (uninitialized: the module's reset_parameters fills it) and become a Parameter."""
        self.data = empty(shape, dtype=dtype or self.dtype)
        self.__class__ = Parameter


class UninitializedBuffer(Tensor):
    """A lazy module's buffer (running statistics) before its first forward: materialize(shape) makes it (the same
    object) a plain tensor of that shape."""
    __module__ = 'torch.nn.parameter'
    __slots__ = ()

    def __new__(cls, requires_grad=False, device=None, dtype=None):
        t = empty(0, dtype=dtype).requires_grad_(requires_grad)
        t.__class__ = cls
        return t

    __repr__ = __str__ = UninitializedParameter.__repr__
    __format__ = _uninitialized_format

    def __deepcopy__(self, memo):       # (PyTorch's Tensor.__deepcopy__ meets it: its error)
        raise _uninitialized_error(self, '<function Tensor.__deepcopy__ at %#x>' % id(Tensor.__deepcopy__))
    shape, numel, dim = UninitializedParameter.shape, UninitializedParameter.numel, UninitializedParameter.dim
    detach = UninitializedParameter.detach

    def materialize(self, shape, device=None, dtype=None):
        self.data = empty(shape, dtype=dtype or self.dtype)
        self.__class__ = Tensor


class _BufferMeta(type):
    """isinstance(t, nn.Buffer) is True for the tensors nn.Buffer(...) marked (they stay plain tensors)."""
    __module__ = 'torch.nn.parameter'

    def __instancecheck__(cls, instance):
        if cls is Buffer and isinstance(instance, Tensor) and instance.__dict__.get('_is_buffer', False):
            return True
        return super().__instancecheck__(instance)


class Buffer(Tensor, metaclass=_BufferMeta):
    """nn.Buffer(data, persistent=True): `data` (detached) marked so that assigning it to a Module attribute
    registers it as a buffer (in state_dict unless persistent=False); it prints and computes as a plain tensor."""
    __module__ = 'torch.nn.parameter'
    __slots__ = ()

    def __new__(cls, data=None, *, persistent=True):
        if data is None:
            data = empty(0)
        t = data.detach().requires_grad_(data.requires_grad)
        t.persistent = persistent
        t._is_buffer = True
        return t


PLAIN_REPR.add(Parameter)
