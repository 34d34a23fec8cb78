"""torch.autograd.forward_ad: dual tensors, a primal with its tangent, whose tangents follow each op.

The engine has one autograd, so forward mode is derived from it op by op rather than written again: when an op
records its node over inputs that carry tangents, the output's tangent J·t comes from that node's backward formula
by the double-vjp trick (the node's vjp against a dummy cotangent u is linear in u; its inner product with the
inputs' tangents, differentiated in u, is J·t).

A dual tensor whose primal needs no gradient must still make the ops record; it takes part as if it required grad,
hidden (`_fw_only`): it shows requires_grad=False, no grad_fn, and the nodes made only for its tangent do not outlive
their op (a node that also serves a real gradient keeps no edge to it). Leaving the level takes every tangent away.
"""
import functools
import weakref
from typing import NamedTuple, Optional

import numpy as np

from . import _autograd as ag
from ._tensor import Tensor, make

__all__ = ['UnpackedDualTensor', 'enter_dual_level', 'exit_dual_level', 'make_dual', 'unpack_dual', 'dual_level']

_duals = []            # weak references to the tensors given a tangent at the current level (cleared on exit)


def enter_dual_level():
    """Start the (only) forward AD level: 0."""
    if ag.fw_level is not None:
        raise RuntimeError('Nested forward mode AD is not supported at the moment')
    ag.fw_level = 0
    return 0


def exit_dual_level(*, level=None):
    """End the level: every tangent made in it is gone, and its dual tensors are plain tensors again."""
    current = -1 if ag.fw_level is None else ag.fw_level
    if level is None:
        level = current
    if level != current:
        raise RuntimeError('Trying to exit a forward AD level that was not the last one that was created. This is not '
                           'supported.')
    if level < 0:
        raise RuntimeError('Dual level must be a positive number.')
    ag.fw_flush(strict=True)
    ag.fw_level = None
    for ref in _duals:
        t = ref()
        if t is not None:
            _forget(t)
    _duals.clear()


def _forget(t):
    t.__dict__.pop('_fw_tangent', None)
    if t.__dict__.pop('_fw_only', False):
        t._requires_grad = False
        t.__dict__.pop('_accumulator', None)


class dual_level:
    """`with dual_level():` (or as a decorator): the forward AD level the other functions use."""
    __module__ = 'torch.autograd.forward_ad'

    def __enter__(self):
        return enter_dual_level()

    def __exit__(self, *exc):
        exit_dual_level()

    def __call__(self, fn):
        @functools.wraps(fn)
        def wrapped(*args, **kwargs):
            with self.__class__():
                return fn(*args, **kwargs)
        return wrapped


class UnpackedDualTensor(NamedTuple):
    """A dual tensor's primal and tangent (None: it has none at this level)."""
    primal: Tensor
    tangent: Optional[Tensor]


UnpackedDualTensor.__module__ = 'torch.autograd.forward_ad'


def _level(level, what):
    """The level to work at: the current one by default, -1 for none. Another (for `what`, an API call that needs
    one): PyTorch's errors."""
    if level is None:
        return -1 if ag.fw_level is None else ag.fw_level
    if level >= 0 and level != ag.fw_level and what:
        if ag.fw_level is None:
            raise RuntimeError('Trying to access a forward AD level with an invalid index. This index was either not '
                               'created or is already deleted.')
        raise RuntimeError('Invalid level given to ' + what)
    return level if level == ag.fw_level else -1


def make_dual(tensor, tangent, *, level=None):
    """A view of `tensor` carrying `tangent` (as it is when laid out as tensor is, else a copy laid out so)."""
    ag.fw_flush()
    if _level(level, '_make_dual') < 0:
        raise RuntimeError('Trying to create a dual Tensor for forward AD but no level exists, make sure to '
                           'enter_dual_level() first.')
    for what, t in (('primal', tensor), ('tangent', tangent)):
        if not t.is_floating_point():
            raise ValueError('Expected %s to be floating point or complex, but got: %s' % (what, t.dtype))
    if not isinstance(tensor, Tensor) or not isinstance(tangent, Tensor):
        raise TypeError("_make_dual(): argument '%s' must be Tensor, not %s"
                        % (('primal', type(tensor).__name__) if not isinstance(tensor, Tensor)
                           else ('tangent', type(tangent).__name__)))
    if tensor._fw_tangent is not None:
        raise RuntimeError('Making a dual Tensor based on a Tensor that already has a forward gradient at the same '
                           'level 0 is not supported.')
    if tangent._fw_tangent is not None:
        raise RuntimeError('Setting a forward grad that itself has a forward gradient at the same level0 is not '
                           'supported.')
    if tangent.shape != tensor.shape:
        raise RuntimeError('Trying to set a forward gradient that has a different size than that of the original '
                           'Tensor, this is not supported. Tensor is of size %s while the given forward gradient is '
                           'of size %s.' % (list(tensor.shape), list(tangent.shape)))
    if tangent.stride() != tensor.stride():
        with ag.no_grad():
            tangent = _laid_out_as(tangent, tensor)
    dual = tensor.view(tensor.shape)
    _give(dual, tangent, fw_only=not tensor._requires_grad)
    return dual


def _laid_out_as(tangent, tensor):
    """A copy of tangent's values with tensor's strides."""
    data = np.empty_like(tensor._data, dtype=tangent._data.dtype)
    data[...] = tangent._data
    return make(data)


def _give(t, tangent, fw_only):
    t._fw_tangent = tangent
    if fw_only:
        t._requires_grad = True
        t._fw_only = True
    _duals.append(weakref.ref(t))


def unpack_dual(tensor, *, level=None):
    """(primal, tangent): a view of the dual tensor without its tangent, and the tangent as it is (None if none)."""
    if not isinstance(tensor, Tensor):
        raise TypeError("_unpack_dual(): argument 'dual' (position 1) must be Tensor, not %s" % type(tensor).__name__)
    if _level(level, None) < 0:
        return UnpackedDualTensor(tensor, None)
    ag.fw_flush(strict=True)
    tangent = tensor._fw_tangent
    level, ag.fw_level = ag.fw_level, None
    try:
        primal = tensor.view(tensor.shape)
    finally:
        ag.fw_level = level
    if tensor._fw_only:
        primal._grad_fn, primal._requires_grad = None, False
    elif primal._grad_fn is not None:
        ag.retype(primal._grad_fn, Identity)
    return UnpackedDualTensor(primal, tangent)


class Identity(ag.Node):
    """The view unpack_dual gives of a dual tensor that requires grad (PyTorch's node of that name, a C++ one)."""

    def apply(self, g):
        return (g,)

    def __repr__(self):
        return '<CppFunction object at %#x>' % id(self)


# ---------------------------------------------------------------------------------------------- tangents of ops

def propagate(node, inputs, outs):
    """Called by record for each node made while the level is on: the tangents of `outs` (the node's outputs),
    if any input carries one; then the node's edges to tangent-only inputs are cut, or, when every input needing
    grad is such, the node is dropped and the outputs become hidden duals too."""
    tangents = [None if x is None else x._fw_tangent for x in inputs]
    if not any(t is not None for t in tangents):
        return
    from ._ops import validate_grad
    from .autograd import grad
    real = any(x is not None and x._requires_grad and not x._fw_only for x in inputs)
    if real:            # (PyTorch's formulas take a zero tangent for an input without one: through the other
        #                   primals in them, the tangent needs grad)
        tangents = [make(np.zeros_like(x._data)) if t is None and x is not None else t
                    for x, t in zip(inputs, tangents)]
    outs = [o if o._grad_fn is node and o._data.dtype.kind == 'f' else None for o in outs]
    level, ag.fw_level = ag.fw_level, None
    recorder, ag._recorder = ag._recorder, None     # (the page's stepper shows the user's backward calls only)
    try:
        # (a cotangent of ones: the vjp is linear in it, but some formulas go through log |g|: logcumsumexp's)
        us = [None if o is None else make(np.ones_like(o._data)) for o in outs]
        for u in us:
            if u is not None:
                u._requires_grad = True
        grads = node.apply(*us)
        metas = node._meta
        total = None
        for i, (g, t) in enumerate(zip(grads, tangents)):
            if g is None or t is None:
                continue
            meta = metas[i] if metas is not None else None
            if meta is not None and (g._data.shape != meta[0] or g._data.dtype is not meta[1]):
                g = validate_grad(node, g, meta, i)
            term = (g * t).sum()
            total = term if total is None else total + term
        wanted = [u for u in us if u is not None]
        results = iter(grad(total, wanted, allow_unused=True, create_graph=real)      # (with a graph when the
                       if total is not None and total._requires_grad else [None] * len(wanted))    # primals need
        results = [None if u is None else next(results) for u in us]    # gradients: differentiable, as PyTorch's)
    except RuntimeError as e:
        if 'not implemented' not in str(e):
            raise
        if not (node._meta is None and len(outs) == 1 and outs[0] is not None):
            raise NotImplementedError(
                'Trying to use forward AD with %s that does not support it because it has not been implemented yet.'
                '\nPlease file an issue to PyTorch at https://github.com/pytorch/pytorch/issues/new?template=feature-'
                'request.yml so that we can prioritize its implementation or submit a PR adding the implementation to '
                'derivatives.yaml' % ag.forward_name(node)) from e
        results = [_pointwise(node, outs[0], tangents)]         # (a pointwise op whose backward has no backward)
    finally:
        ag.fw_level, ag._recorder = level, recorder
    _settle(node, inputs, outs, [None if o is None else make(np.zeros_like(o._data)) if r is None else r if real
                                 else make(r._data) for o, r in zip(outs, results)], real)


def _pointwise(node, out, tangents):
    """The tangent of a pointwise op (its Jacobian diagonal: the backward of ones is that diagonal) from its backward
    alone, for the ops whose backward has no backward of its own (hardsigmoid's)."""
    total = None
    with ag.no_grad():
        for g, t in zip(node.apply(make(np.ones_like(out._data))), tangents):
            if g is not None and t is not None:
                total = g * t if total is None else total + g * t
    return total


def _settle(node, inputs, outs, tangents, real):
    """Give the node's outputs their tangents. With no input needing a real gradient, they are hidden duals and
    the node goes; else the node's edges to hidden duals are cut."""
    for o, tangent in zip(outs, tangents):
        if o is not None and tangent is not None:
            _give(o, tangent, fw_only=not real)
            if not real:
                o._grad_fn = None
    if real:
        node._fns = tuple(None if x is not None and x._fw_only else fn for x, fn in zip(inputs, node._fns))


def custom_function(cls, ctx, args, tensors, outputs):
    """A custom Function applied to dual tensors: its jvp staticmethod gives the outputs' tangents (from the
    inputs' tangents: zeros for a tensor without one, None after set_materialize_grads(False) and for the other
    arguments; ctx.saved_tensors are those of save_for_forward), checked as PyTorch checks them. Its outputs are
    plain tensors to jvp when only tangents made them need grad."""
    if not any(t._fw_tangent is not None for t in tensors):
        return
    from ._function import Function
    if cls.jvp is Function.jvp:
        cls.jvp(ctx)                        # (its NotImplementedError)
    tangents = [None if not isinstance(a, Tensor) else a._fw_tangent if a._fw_tangent is not None or
                not ctx._materialize else make(np.zeros_like(a._data)) for a in args]
    real = any(t._requires_grad and not t._fw_only for t in tensors)
    outs = [o for o in outputs if isinstance(o, Tensor) and o._grad_fn is ctx]
    if not real:
        for o in outs:
            o._grad_fn, o._requires_grad = None, False
    level, ag.fw_level = ag.fw_level, None
    ctx._fw_saved = tuple(t.detach() if t is not None and t._fw_only else t for t in ctx.saved_for_forward or ())
    try:
        results = cls.jvp(ctx, *tangents)
    finally:
        ag.fw_level = level
        del ctx._fw_saved
    results = results if isinstance(results, tuple) else (results,)
    if len(results) != len(outputs):
        raise RuntimeError("Function's jvp returned an invalid number of forward gradients (expected %d but got %d)"
                           % (len(outputs), len(results)))
    for o, r in zip(outputs, results):
        if isinstance(o, Tensor) and isinstance(r, Tensor) and r.shape != o.shape:
            raise RuntimeError('Trying to set a forward gradient that has a different size than that of the original '
                               'Tensor, this is not supported. Tensor is of size %s while the given forward gradient '
                               'is of size %s.' % (list(o.shape), list(r.shape)))
    _settle(ctx, tensors, outs, [r for o, r in zip(outputs, results) if any(o is x for x in outs)], real)

def follow_inplace(t, res):
    """After an in-place op on t computed as `res`: t's tangent is res's, written into t's own tangent if it has
    one (PyTorch updates the tangent in place)."""
    new = res._fw_tangent
    if new is None:
        return
    old = t._fw_tangent
    if old is None:
        _give(t, new, fw_only=res._fw_only and not t._requires_grad)
    else:
        old._data[...] = new._data
        ag.bump(old)

