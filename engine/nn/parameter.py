"""nn.Parameter: a leaf tensor that a Module registers as one of its learnable weights.

The engine's ops check `type(x) is Tensor` on their hot paths, so a Parameter is a plain Tensor carrying a mark
(`_is_param`): `isinstance(p, nn.Parameter)` reads the mark, and the repr gains PyTorch's "Parameter containing:".
"""
from .._factories import empty
from .._tensor import Tensor

_FLOAT_ONLY = 'Only Tensors of floating point and complex dtype can require gradients'


class _ParameterMeta(type):
    def __instancecheck__(cls, obj):
        return isinstance(obj, Tensor) and '_is_param' in obj.__dict__


class Parameter(metaclass=_ParameterMeta):
    """Parameter(data, requires_grad=True): `data`'s memory as a leaf that requires grad, marked as a parameter."""

    def __new__(cls, data=None, requires_grad=True):
        if data is None:
            data = empty(0)
        p = data.detach()
        p.requires_grad_(requires_grad, _message=_FLOAT_ONLY)
        p._is_param = True
        return p


def _tensor_repr(repr_fn):
    def __repr__(self, *args, **kwargs):
        text = repr_fn(self, *args, **kwargs)
        return 'Parameter containing:\n' + text if '_is_param' in self.__dict__ else text
    return __repr__


def _tensor_deepcopy(copy_fn):
    def __deepcopy__(self, memo):
        if id(self) in memo:
            return memo[id(self)]
        t = memo[id(self)] = copy_fn(self, memo)
        if '_is_param' in self.__dict__:
            t._is_param = True
        return t
    return __deepcopy__


if not getattr(Tensor.__repr__, '_knows_parameters', False):     # Tensor's own methods, taught about the mark
    Tensor.__repr__ = Tensor.__str__ = _tensor_repr(Tensor.__repr__)
    Tensor.__deepcopy__ = _tensor_deepcopy(Tensor.__deepcopy__)
    Tensor.__repr__._knows_parameters = True
