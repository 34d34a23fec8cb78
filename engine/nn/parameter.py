"""nn.Parameter: a leaf tensor that a Module registers as one of its learnable weights.

A Parameter is a Tensor of its own class (type(p) shows torch.nn.parameter.Parameter) with no state of its own:
every op treats it as the tensor it is, and what ops make of it are plain tensors, as in PyTorch. Only its repr
("Parameter containing:") and deepcopy (a Parameter again, without the .grad) differ.
"""
from .._factories import empty
from .._tensor import PLAIN_REPR, Tensor

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

    __str__ = __repr__

    def __deepcopy__(self, memo):
        if id(self) in memo:
            return memo[id(self)]
        t = memo[id(self)] = Tensor.__deepcopy__(self, memo)
        t.__class__ = type(self)
        t._grad = None  # a Parameter's copy leaves its .grad behind
        return t


class _BufferMeta(type):
    """isinstance(t, nn.Buffer) is True for the tensors nn.Buffer(...) marked (they stay plain tensors)."""

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
