"""nn.Parameter: a leaf tensor that a Module registers as one of its learnable weights.

A Parameter is a Tensor of its own class (type(p) shows torch.nn.parameter.Parameter) with no state of its own:
every op treats it as the tensor it is, and what ops make of it are plain tensors, as in PyTorch. Only its repr
("Parameter containing:") and deepcopy (a Parameter again, without the .grad) differ.
"""
from .._factories import empty
from .._tensor import Tensor

_FLOAT_ONLY = 'Only Tensors of floating point and complex dtype can require gradients'


class Parameter(Tensor):
    """Parameter(data, requires_grad=True): `data`'s memory as a leaf that requires grad, marked as a parameter."""
    __module__ = 'torch.nn.parameter'
    __slots__ = ()

    def __new__(cls, data=None, requires_grad=True):
        if data is None:
            data = empty(0)
        p = data.detach()
        p.requires_grad_(requires_grad, _message=_FLOAT_ONLY)
        p.__class__ = cls
        return p

    def __repr__(self):
        return 'Parameter containing:\n' + super().__repr__()

    __str__ = __repr__

    def __deepcopy__(self, memo):
        if id(self) in memo:
            return memo[id(self)]
        t = memo[id(self)] = Tensor.__deepcopy__(self, memo)
        t.__class__ = type(self)
        t._grad = None  # a Parameter's copy leaves its .grad behind
        return t
