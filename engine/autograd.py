"""torch.autograd: backward(), grad(), Variable, Function, and the grad-mode switches."""
import operator
import sys
import types
import warnings
from collections.abc import Mapping
from typing import NamedTuple, Optional

import numpy as np

from . import _autograd as _ag
from . import _function as function
from . import _functional as functional
from . import _saved_hooks as graph
from . import _gradcheck
from . import _forward_ad as forward_ad
from . import profiler as _profiler
from ._gradcheck import gradcheck, gradgradcheck  # noqa: F401
from ._autograd import no_grad, enable_grad, set_grad_enabled, inference_mode, Node  # noqa: F401
from ._autograd import set_multithreading_enabled, is_multithreading_enabled, is_view_replay_enabled  # noqa: F401
from ._function import Function  # noqa: F401
from . import _tensor
from ._tensor import Tensor, make as _make

# `torch.autograd.function`, `.functional` and `.graph` are modules in PyTorch: `from torch.autograd.function import
# once_differentiable` finds them here (through the import hook of engine/__init__.py when torch is the engine). An
# empty __path__ makes this module a package to the import system, which only looks for submodules of packages.
sys.modules[__name__ + '.function'] = function
sys.modules[__name__ + '.functional'] = functional
sys.modules[__name__ + '.graph'] = graph
sys.modules[__name__ + '.gradcheck'] = _gradcheck
sys.modules[__name__ + '.forward_ad'] = forward_ad


class _Package(types.ModuleType):
    """`import torch.autograd.gradcheck` (or `.variable`) sets the module as this package's attribute: in PyTorch
    that attribute stays the function."""
    __module__ = 'builtins'

    def __setattr__(self, name, value):
        if not (name in ('gradcheck', 'variable') and isinstance(value, types.ModuleType)):
            super().__setattr__(name, value)


_Package.__name__ = _Package.__qualname__ = 'module'      # (type(torch.autograd) shows <class 'module'>)
sys.modules[__name__].__class__ = _Package
__path__ = []

class GradientEdge(NamedTuple):
    """An edge of the graph (the node and which of its inputs), usable as an input of autograd.grad."""
    node: Node
    output_nr: int
    ownership_token: Optional[Node] = None


GradientEdge.__module__ = 'torch.autograd.graph'


def get_gradient_edge(tensor):
    """The edge through which the gradient of `tensor` flows: its grad_fn (or a leaf's AccumulateGrad)."""
    if not tensor.requires_grad:
        raise RuntimeError('It is not possible to get the gradient edge for a Tensor that does not require gradients')
    return GradientEdge(*_ag.edge(tensor))


graph.GradientEdge, graph.get_gradient_edge = GradientEdge, get_gradient_edge

__all__ = ['backward', 'grad', 'Variable', 'Function', 'no_grad', 'enable_grad', 'set_grad_enabled']


def _tuple(x):
    if x is None:
        return ()
    return (x,) if isinstance(x, Tensor) else tuple(x)


def _make_grads(outputs, grads):
    """Seed gradients: ones for scalar outputs, PyTorch's errors for the rest (torch.autograd._make_grads)."""
    new = []
    for out, g in zip(outputs, grads):
        if not isinstance(out, Tensor):
            raise AssertionError('Expected output to be a torch.Tensor')
        if isinstance(g, Tensor):
            if g._data.shape != out._data.shape:
                # (PyTorch finds the two indices with tuple.index: its == between tensors may match an earlier
                # one, or fail to broadcast, or be ambiguous, and the message or error shows it)
                raise RuntimeError('Mismatch in shape: grad_output[%d] has a shape of %r and output[%d] has a shape '
                                   'of %r.' % (grads.index(g), g.shape, outputs.index(out), out.shape))
            # The engine casts a root gradient to its output's dtype, as it does every gradient between nodes
            new.append(g if g._data.dtype is out._data.dtype else g.to(out.dtype))
        elif g is None:
            if out._requires_grad:
                if out._data.size != 1:
                    raise RuntimeError('grad can be implicitly created only for scalar outputs')
                if not out.dtype.is_floating_point:
                    raise RuntimeError('grad can be implicitly created only for real scalar outputs but got '
                                       + repr(out.dtype))
                new.append(_make(np.ones_like(out._data)))
            else:
                new.append(None)
        else:
            raise TypeError('gradients can be either Tensors or None, but got ' + type(g).__name__)
    return new


def _check_input(t):
    if not isinstance(t, (Tensor, GradientEdge)):
        raise RuntimeError('all inputs have to be Tensors or GradientEdges, but got ' + type(t).__name__)


def _check_roots(outputs, grads):
    if len(outputs) != len(grads):                 # (_make_grads pairs them with zip: extra gradients are dropped)
        raise RuntimeError('got %d tensors and %d gradients' % (len(outputs), len(grads)))
    if _ag.fw_pending:
        _ag.fw_flush()
    for i, t in enumerate(outputs):
        if not t._requires_grad or t._grad_fn is None and (t._grad_from_base or t._fw_only):   # (a view with no edge)
            raise RuntimeError('element %d of tensors does not require grad and does not have a grad_fn' % i)
        _ag.read_grad_fn(t)


def backward(tensors, grad_tensors=None, retain_graph=None, create_graph=False, grad_variables=None, inputs=None):
    """Accumulate the gradients of `tensors` into the .grad of the graph's leaves."""
    if function.transform_depth:        # (any torch.func transform, whatever the tensors: autograd.grad is allowed)
        raise RuntimeError('backward() called inside a functorch transform. This is not supported, please use '
                           'functorch.grad or functorch.vjp instead or call backward() outside of functorch '
                           'transforms.')
    if grad_variables is not None:
        warnings.warn('`grad_variables` is deprecated. Use `grad_tensors` instead.', FutureWarning, stacklevel=2)
        if grad_tensors is not None:
            raise RuntimeError('`grad_tensors` and `grad_variables` (deprecated) arguments both passed to '
                               '`backward()`. Please only use `grad_tensors`.')
        grad_tensors = grad_variables
    if inputs is not None:
        if type(inputs) is dict:
            inputs = tuple(inputs.values())
        elif isinstance(inputs, Mapping):
            raise TypeError('`inputs` argument to `backward()` must be a dict, not %s. Other Mapping types are '
                            'not supported.' % type(inputs).__name__)
        inputs = (inputs,) if isinstance(inputs, GradientEdge) else _tuple(inputs)
        if not inputs:
            raise RuntimeError('`inputs` argument to `backward()` cannot be empty.')
    tensors = (tensors,) if isinstance(tensors, Tensor) else tuple(tensors)     # (tuple(None): PyTorch's TypeError)
    grads = _make_grads(tensors, _tuple(grad_tensors) if grad_tensors is not None else (None,) * len(tensors))
    retain_graph = _flag(create_graph if retain_graph is None else retain_graph)
    create_graph = _flag(create_graph)
    _check_roots(tensors, grads)
    edges = None
    if inputs is not None:
        for t in inputs:
            _check_input(t)
        for t in inputs:
            if isinstance(t, Tensor):
                t.retain_grad()                    # (as PyTorch's engine does: a non-leaf input gets its .grad)
        edges = [(t.node, t.output_nr) if isinstance(t, GradientEdge) else _ag.edge(t) for t in inputs]
    try:
        _ag.run_backward('backward', tensors, grads, retain_graph, create_graph, inputs=edges)
        if _ag.inference_enabled:
            _watch_inference_grads(tensors)
    finally:
        # PyTorch's engine warns from inside the pass and replays its warnings when the pass ends (or fails):
        # after the hooks' prints.
        if create_graph and _CREATE_GRAPH_WARNING not in _tensor._warned:   # (TORCH_WARN_ONCE: once per process,
            _tensor._warned.add(_CREATE_GRAPH_WARNING)                       # even under simplefilter('always'))
            warnings.warn(_CREATE_GRAPH_WARNING, UserWarning, stacklevel=1)


def _watch_inference_grads(tensors):
    """After a backward pass in inference mode: the leaves of the graph whose .grad it made (an inference tensor)
    have their AccumulateGrad take the engine's slow path, which refuses to add to that .grad in place outside
    inference mode, as PyTorch does."""
    seen, stack = set(), [t._grad_fn or t._grad_accumulator() for t in tensors]
    while stack:
        node = stack.pop()
        if node is None or node in seen:
            continue
        seen.add(node)
        if type(node) is _ag.AccumulateGrad:
            grad = node.variable._grad
            if grad is not None and grad._inference:
                node._watched = True
        stack.extend(node._fns)


def _flag(value):
    """retain_graph / create_graph as PyTorch's engine reads them (a C byte: any integer, a bool, a one-element
    integer tensor): a TypeError for a string or a float, as PyTorch's."""
    value = operator.index(value)
    if not 0 <= value <= 255:
        raise OverflowError('unsigned byte integer is %s' % ('less than minimum' if value < 0 else
                                                               'greater than maximum'))
    return bool(value)


_tensor._backward = backward


_CREATE_GRAPH_WARNING = (
    'Using backward() with create_graph=True will create a reference cycle between the parameter and its gradient '
    'which can cause a memory leak. We recommend using autograd.grad when creating the graph to avoid this. If you '
    'have to use this function, make sure to reset the .grad fields of your parameters to None after use to break '
    'the cycle and avoid the leak. (Triggered internally at /__w/pytorch/pytorch/torch/csrc/autograd/engine.cpp:1307.)')


def grad(outputs, inputs, grad_outputs=None, retain_graph=None, create_graph=False, only_inputs=True,
         allow_unused=None, is_grads_batched=False, materialize_grads=False):
    """The gradients of `outputs` w.r.t. `inputs`, returned (not accumulated into .grad)."""
    if materialize_grads and allow_unused is False:
        raise ValueError('Expected allow_unused to be True or not passed when materialize_grads=True, but got: '
                         'allow_unused=False.')
    if allow_unused is None:
        allow_unused = materialize_grads
    names = None
    if type(inputs) is dict:                       # a dict of inputs gives a dict of gradients
        names, inputs = list(inputs), tuple(inputs.values())
    elif isinstance(inputs, Mapping):
        raise TypeError('`inputs` argument to `grad()` must be a dict, not %s. Other Mapping types are not '
                        'supported.' % type(inputs).__name__)
    # (not _tuple: tuple(None) raises PyTorch's TypeError)
    outputs = (outputs,) if isinstance(outputs, Tensor) else tuple(outputs)
    inputs = (inputs,) if isinstance(inputs, (Tensor, GradientEdge)) else tuple(inputs)
    if is_grads_batched:
        return _batched_grad(outputs, inputs, _tuple(grad_outputs), retain_graph, create_graph, allow_unused,
                             materialize_grads, names)
    if not inputs:
        raise RuntimeError('`inputs` argument to `grad()` cannot be empty.')
    if not only_inputs:
        warnings.warn('only_inputs argument is deprecated and is ignored now (defaults to True). To accumulate '
                      'gradient for other parts of the graph, please use torch.autograd.backward.', FutureWarning,
                      stacklevel=2)
    grads = _make_grads(outputs, _tuple(grad_outputs) if grad_outputs is not None else (None,) * len(outputs))
    if retain_graph is None:
        retain_graph = create_graph
    retain_graph, create_graph = _flag(retain_graph), _flag(create_graph)
    allow_unused = _flag(allow_unused)             # (read with the other two, before the pass runs)
    _check_roots(outputs, grads)
    for t in inputs:
        _check_input(t)
        if not isinstance(t, GradientEdge) and not t._requires_grad:
            raise RuntimeError('One of the differentiated Tensors does not require grad')
    edges = [(t.node, t.output_nr) if isinstance(t, GradientEdge) else _ag.edge(t) for t in inputs]
    capture = {e: None for e in edges}
    _ag.run_backward('grad', outputs, grads, retain_graph, create_graph, inputs=edges, capture=capture)
    result = []
    for i, (e, t) in enumerate(zip(edges, inputs)):
        g = capture[e]
        if g is None:
            if materialize_grads:
                g = _materialized(t, create_graph)
            elif not allow_unused:
                raise RuntimeError('The differentiated Tensor at index %d appears to not have been used in the graph. '
                                   'Set allow_unused=True if this is the desired behavior.' % i)
        result.append(g)
    return tuple(result) if names is None else dict(zip(names, result))


def _materialized(t, create_graph):
    """materialize_grads's zeros for an unused input t (a leaf if create_graph, as PyTorch's)."""
    if isinstance(t, GradientEdge):
        raise RuntimeError('materialize_grads cannot be used when the given input is a GradientEdge')
    from ._factories import zeros_like
    return zeros_like(t, requires_grad=create_graph)


def _batched_grad(outputs, inputs, grad_outputs, retain_graph, create_graph, allow_unused, materialize_grads, names):
    """autograd.grad with is_grads_batched: the first dim of each grad_output indexes the vectors to take gradients
    against, one backward pass each (PyTorch vmaps them), the results stacked."""
    from ._ops import stack
    from ._factories import ones_like
    grad_outputs = list(grad_outputs) if grad_outputs else [None] * len(outputs)
    for i, (out, g) in enumerate(zip(outputs, grad_outputs)):
        if g is None:                       # (implicit, as backward's: ones of the output's shape, then batched)
            if out.numel() != 1:
                raise RuntimeError('grad can be implicitly created only for scalar outputs')
            if not out.dim():
                raise ValueError('vmap(vjp, in_dims=0, ...)(<inputs>): Got in_dim=0 for some input, but that input '
                                 'is a Tensor of dimensionality 0 so expected in_dim to satisfy 0 <= in_dim < 0.')
            grad_outputs[i] = ones_like(out, requires_grad=False)
        elif g[0].shape != out.shape:       # (g[0]: PyTorch's IndexError for a 0-d one)
            raise RuntimeError('If `is_grads_batched=True`, we interpret the first dimension of each grad_output as '
                               'the batch dimension. The sizes of the remaining dimensions are expected to match the '
                               'shape of corresponding output, but a mismatch was detected: grad_output[%d] has a '
                               'shape of %r and output[%d] has a shape of %r. If you only want some tensors in '
                               '`grad_output` to be considered batched, consider using vmap.'
                               % (i, g[0].shape[1:], i, out.shape))
    sizes = [g.shape[0] for g in grad_outputs]
    if len(set(sizes)) > 1:
        raise ValueError('vmap: Expected all tensors to have the same size in the mapped dimension, got sizes %s for '
                         'the mapped dimension' % sizes)
    n = sizes[0]
    rows = [grad(outputs, inputs, tuple(None if g is None else g[b] for g in grad_outputs),
                 retain_graph=True if b < n - 1 else retain_graph, create_graph=create_graph,
                 allow_unused=allow_unused or materialize_grads) for b in range(n)]
    # (an unused input's gradient: None, or with materialize_grads zeros of its shape, made after the batch)
    result = tuple((_materialized(x, create_graph) if materialize_grads else None) if col[0] is None
                   else stack(col) for x, col in zip(inputs, zip(*rows)))
    return result if names is None else dict(zip(names, result))


_VARIABLE_ARGS = ('data', 'requires_grad', 'volatile', '_grad_fn', 'name')


class VariableMeta(type):
    """Every tensor is an instance of Variable; calling Variable makes a tensor (as PyTorch's legacy constructor)."""
    __module__ = 'torch.autograd.variable'

    def __instancecheck__(cls, other):
        return isinstance(other, Tensor)

    def __call__(cls, *args, **kwargs):
        """The pre-0.4 wrapper: today a detached alias of the tensor (same memory and version counter) with
        requires_grad set; no data makes an empty tensor."""
        # (PyTorch reads its arguments with PyArg_ParseTupleAndKeywords: Python's own errors for a mistyped name)
        if len(args) + len(kwargs) > len(_VARIABLE_ARGS):
            raise TypeError('function takes at most %d arguments (%d given)'
                            % (len(_VARIABLE_ARGS), len(args) + len(kwargs)))
        for i, name in enumerate(_VARIABLE_ARGS[:len(args)]):
            if name in kwargs:
                raise TypeError("argument for function given by name ('%s') and position (%d)" % (name, i + 1))
        for name in kwargs:
            if name not in _VARIABLE_ARGS:
                raise TypeError("'%s' is an invalid keyword argument for this function" % name)
        return cls._make(**dict(zip(_VARIABLE_ARGS, args)), **kwargs)

    def _make(cls, data=None, requires_grad=False, volatile=False, _grad_fn=None, name=None):
        requires_grad, volatile = _flag(requires_grad), _flag(volatile)       # (C bytes, as the engine's flags)
        if name is not None and not isinstance(name, str):        # (its "z" format)
            raise TypeError('argument 5 must be str or None, not ' + type(name).__name__)
        if volatile:
            warnings.warn('volatile was removed and now has no effect. Use `with torch.no_grad():` instead.',
                          stacklevel=2)
        if volatile and requires_grad:
            raise ValueError("Variable can't be volatile and require_grad at the same time!")
        if _grad_fn is not None and not isinstance(_grad_fn, Node):
            raise TypeError('_grad_fn has to be a Function object or None, but got ' + _tensor.parser_type(_grad_fn))
        if data is None:
            from ._factories import empty
            var = empty(0)
        elif isinstance(data, Tensor):
            var = data.detach()
        else:
            raise TypeError('Variable data has to be a tensor, but got ' + _tensor.parser_type(data))
        if _grad_fn is not None:
            raise RuntimeError('_grad_fn argument to legacy Variable constructor is no longer supported.  Instead, '
                               'please invoke your _grad_fn to produce a variable with it as the _grad_fn.')
        var.requires_grad_(requires_grad,
                           _message='Only Tensors of floating point and complex dtype can require gradients')
        return var


class Variable(metaclass=VariableMeta):
    __module__ = 'torch.autograd.variable'
    _execution_engine = _ag._EngineBase()


def variable(*args, **kwargs):
    raise RuntimeError('torch.autograd.variable(...) is deprecated, use torch.tensor(...) instead')


variable.Variable = Variable        # (PyTorch's too: torch.autograd.variable.Variable names the class)


class set_detect_anomaly:
    __module__ = 'torch.autograd.anomaly_mode'
    """Switch anomaly detection on or off (at once, and back when used as a context manager): backward then shows
    where the failing node came from (each node keeps the stack of its forward call) and, with check_nan, fails on
    a node that returns nan."""
    def __init__(self, mode, check_nan=True):
        self.prev, self.prev_check_nan = _ag.anomaly, _ag.anomaly_check_nan
        set_anomaly_enabled(mode, check_nan)

    def __enter__(self):
        pass

    def __exit__(self, *exc):
        set_anomaly_enabled(self.prev, self.prev_check_nan)


class detect_anomaly:
    __module__ = 'torch.autograd.anomaly_mode'
    """Context manager switching anomaly detection on (see set_detect_anomaly), with PyTorch's warning."""
    def __init__(self, check_nan=True):
        self.check_nan = check_nan
        self.prev, self.prev_check_nan = _ag.anomaly, _ag.anomaly_check_nan
        warnings.warn('Anomaly Detection has been enabled. This mode will increase the runtime and should only be '
                      'enabled for debugging.', stacklevel=2)

    def __enter__(self):
        set_anomaly_enabled(True, self.check_nan)

    def __exit__(self, *exc):
        set_anomaly_enabled(self.prev, self.prev_check_nan)


def set_anomaly_enabled(enabled, check_nan=True):
    _ag.anomaly, _ag.anomaly_check_nan = bool(enabled), bool(check_nan)


def is_anomaly_enabled():
    return _ag.anomaly


def is_anomaly_check_nan_enabled():
    return _ag.anomaly_check_nan


def _submodule(name, **names):
    """torch.autograd.<name>, a file of PyTorch's whose names live here: a module holding them, importable."""
    module = types.ModuleType(__name__ + '.' + name)
    module.__dict__.update(names)
    sys.modules[module.__name__] = module
    return module


anomaly_mode = _submodule('anomaly_mode', detect_anomaly=detect_anomaly, set_detect_anomaly=set_detect_anomaly)
grad_mode = _submodule('grad_mode', no_grad=no_grad, enable_grad=enable_grad, set_grad_enabled=set_grad_enabled,
                       inference_mode=inference_mode, set_multithreading_enabled=set_multithreading_enabled)
_submodule('variable', Variable=Variable, VariableMeta=VariableMeta)      # (torch.autograd.variable stays a function)
profiler = _submodule('profiler', record_function=_profiler.record_function, profile=_profiler._autograd_profile)
