"""torch.autograd.Function: custom autograd functions, a forward and a backward written by the user.

`MyReLU.apply(x)` runs `MyReLU.forward(ctx, x)` with grad mode off (its own ops are not recorded), then gives the
outputs one node of the class `MyReLUBackward`, made once per Function class. That node is also the `ctx` that
forward saw (`ctx is y._grad_fn`, as in PyTorch): it keeps what `ctx.save_for_backward` saved (as `SavedTensor`s,
version-checked and freed with the graph), the user's own attributes (`ctx.constant = 3`), and runs the user's
backward when the one backward engine (`_autograd.backward_steps`) reaches it. Its edges are those of the tensor
arguments; other arguments get none, and backward returns None for them.

PyTorch does this in C++ (THPFunction_apply, PyNode::apply); the checks and messages here follow it word for word.
"""
import contextlib
import functools
import inspect
import warnings

import numpy as np

from . import _autograd as ag
from . import _ops
from ._autograd import Node, SavedTensor
from ._dtypes import FROM_NP
from ._tensor import Tensor, make, parser_type

transform_depth = 0                      # how many torch.func transforms the running code is inside (see func._call)
vmap_depth = 0                           # how many of them are torch.vmap (see func.vmap)
forward_depth = 0                        # how many are forward-mode (func.jvp, func.jacfwd)
_MODULE = 'torch.autograd.function'      # where PyTorch's classes live: `type(y._grad_fn)` prints that path

_CUSTOM_VIEW = ('Output %d of %s is a view and is being modified inplace. This view was created inside a custom '
                'Function (or because an input was returned as-is) and the autograd logic to handle view+inplace '
                'would override the custom backward associated with the custom Function, leading to incorrect '
                'gradients. This behavior is forbidden. You can fix this by cloning the output of the custom '
                'Function.')

_DIRTY_VIEW = ('If your Function modifies inplace an input that is a view of another Tensor, your Function cannot '
               'return more than one Tensor. This is not supported by the current autograd engine. You should either '
               'make sure the input is not a view (using .clone() for example) or make your Function only return one '
               'Tensor (potentially splitting it into two Functions: one doing the inplace that returns a single '
               'Tensor and a second one that does the other operations). You can ask on the forum '
               'https://discuss.pytorch.org/ if you need help to do this change.')


class FunctionCtx:
    """What forward / setup_context can tell the backward: tensors to save, inputs changed in place, outputs
    without gradient, and whether missing gradients become zeros."""
    __module__ = _MODULE
    to_save = None
    dirty_tensors = None
    non_differentiable = None
    saved_for_forward = None
    _materialize = True

    def save_for_backward(self, *tensors):
        """Keep tensors (or None) for backward, as `ctx.saved_tensors`; checked when forward has returned."""
        self.to_save = tensors

    def save_for_forward(self, *tensors):
        """Keep tensors for the jvp staticmethod (forward-mode AD), as its `ctx.saved_tensors`."""
        for tensor in tensors:
            if not (isinstance(tensor, Tensor) or tensor is None):
                raise AssertionError('save_for_forward expects all arguments to be tensors; you should save '
                                     'non-tensors as attributes on ctx.')
        self.saved_for_forward = tensors

    def mark_dirty(self, *args):
        """Inputs that forward modified in place (they must be returned as outputs)."""
        self.dirty_tensors = args

    def mark_shared_storage(self, *pairs):
        warnings.warn('`mark_shared_storage` is deprecated. Tensors with shared storages are automatically '
                      'tracked. Note that calls to `set_()` are not tracked', FutureWarning, stacklevel=2)

    def mark_non_differentiable(self, *args):
        """Outputs that get no gradient (requires_grad=False); backward still gets a (zero) gradient for them."""
        self.non_differentiable = args

    def set_materialize_grads(self, value):
        """False: backward gets None (not zeros) for the outputs that received no gradient."""
        self.materialize_grads = value


_FN_DIR = (
    '__class__', '__delattr__', '__dict__', '__dir__', '__doc__', '__eq__', '__format__', '__ge__', '__getattribute__',
    '__getstate__', '__gt__', '__hash__', '__init__', '__init_subclass__', '__le__', '__lt__', '__module__', '__ne__',
    '__new__', '__reduce__', '__reduce_ex__', '__repr__', '__setattr__', '__sizeof__', '__str__', '__subclasshook__',
    '__weakref__', '_autograd_function_id', '_compiled_autograd_backward_state', '_compiled_autograd_key',
    '_forward_cls', '_get_compiled_autograd_symints', '_get_user_fn', '_input_metadata', '_is_pure_view',
    '_materialize_non_diff_grads', '_raw_saved_tensors', '_register_hook', '_register_hook_dict', '_sequence_nr',
    '_set_sequence_nr', 'apply', 'apply_boxed', 'apply_jvp', 'dirty_tensors', 'mark_dirty', 'mark_non_differentiable',
    'mark_shared_storage', 'materialize_grads', 'maybe_clear_saved_tensors', 'metadata', 'name', 'needs_input_grad',
    'next_functions', 'non_differentiable', 'register_hook', 'register_prehook', 'requires_grad', 'save_for_backward',
    'save_for_forward', 'saved_for_forward', 'saved_tensors', 'saved_variables', 'set_materialize_grads', 'to_save')


class BackwardCFunction(Node, FunctionCtx):
    """The node of one call of a custom Function, and the ctx its forward and backward see.

    Set by Function.apply: `_fns` (the edges of the tensor arguments), `needs_input_grad`, `_is_tensor` (one flag
    per positional argument), `_in_meta` ((shape, dtype) per tensor argument), `_out_meta` ((shape, dtype) per
    output, None for a non-tensor one), `_saved` ({'tensors[i]': SavedTensor | None}, None until forward returned),
    and `num_outputs`. These, and what forward marks, live in slots (all set by _apply): vars(ctx) shows only the
    user's own attributes, as PyTorch's, whose are fields of its C++ object."""
    __slots__ = ('needs_input_grad', 'to_save', 'dirty_tensors', 'non_differentiable', 'saved_for_forward',
                 '_materialize', '_is_tensor', '_in_meta', '_out_meta', 'num_outputs', '_metadata', '_graph_outs')
    __module__ = _MODULE
    _c_type = 'torch._C._FunctionBase'
    _all_grads = True           # (its backward's gradients all reach its post-hooks, needed or not)
    _python_backward = True
    _forward_cls = None
    _materialize_non_diff_grads = True      # (PyTorch's default, which its dir() lists)

    def name(self):
        return type(self).__name__

    def __repr__(self):
        return '<%s.%s object at %#x>' % (_MODULE, type(self).__name__, id(self))

    def __dir__(self):
        """PyTorch's list: its node's attributes and the user's own ones set on ctx (not the engine's)."""
        return sorted(set(_FN_DIR).union(k for k in self.__dict__ if not hasattr(BackwardCFunction, k)))

    def _out_metadata(self):
        """(an output the node is not the grad_fn of: not a tensor, non-differentiable, of an integer dtype, has
        PyTorch's undefined metadata)"""
        return tuple(m if g else ((), None) for m, g in zip(self._out_meta, self._graph_outs))

    @ag._ReadOnly
    def metadata(self):
        """(in a slot, made on first read: vars(ctx) shows the user's attributes only)"""
        try:
            return self._metadata
        except AttributeError:
            self._metadata = {}
            return self._metadata

    @ag._ReadOnly
    def _raw_saved_tensors(self):
        if self._freed:
            raise ag._freed_error(self, None)
        return tuple(ag.RawSaved.one(self, name) for name in self._saved or ())

    def __call__(self, *grads):
        raise TypeError("'%s' object is not callable" % type(self).__name__)     # (PyTorch's Python nodes are not)

    def _unreadable(self):
        raise AttributeError("attribute 'materialize_grads' of 'torch._C._FunctionBase' objects is not readable")

    def _set_materialize(self, value):
        if type(value) is not bool:          # (PyTorch's C setter takes a bool only; its message lists no arguments)
            raise TypeError('set_materialize_grads received an invalid combination of arguments - got (), but '
                            'expected (bool)')
        self._materialize = value

    materialize_grads = property(_unreadable, _set_materialize)      # (write-only, as PyTorch's)

    @ag._ReadOnly
    def saved_tensors(self):
        """The saved tensors, unpacked in order: PyTorch's errors if the graph was freed or one of them was
        modified in place since; a saved output comes back with this node as its grad_fn."""
        if self._freed:
            raise ag._freed_error(self, None)
        if '_fw_saved' in self.__dict__:         # (in jvp: those of save_for_forward)
            return self._fw_saved
        saved = self._saved
        if saved is None:                       # (inside forward: nothing is saved yet)
            return ()
        out = []
        for name, s in saved.items():
            if s is None:
                out.append(None)
                continue
            t = s.check(self, name)
            out.append(ag._alias_output(t, self) if s.is_output else t)
        return tuple(out)

    @property
    def saved_variables(self):
        warnings.warn("'saved_variables' is deprecated; use 'saved_tensors'", DeprecationWarning, stacklevel=2)
        return self.saved_tensors

    def _user_backward(self):
        cls = self._forward_cls
        if cls.backward is not Function.backward and cls.vjp is not Function.vjp:
            raise RuntimeError("Implementing both 'backward' and 'vjp' for a custom Function is not allowed. You "
                               "should only implement one of them.")
        return cls.vjp if cls.vjp is not Function.vjp else cls.backward

    def apply(self, *grads):
        """Run the user's backward: one gradient per output in (zeros for the unused ones, unless materialize_grads
        is off), one per edge out, checked as PyTorch checks them."""
        n = len(self._out_meta)
        grads = list(grads) + [None] * (n - len(grads))
        if self._materialize:
            for i, meta in enumerate(self._out_meta):
                if grads[i] is None and meta is not None:
                    grads[i] = make(np.zeros(meta[0], meta[1]))
        result = self._user_backward()(self, *grads)
        return self._check_grads(result)

    def _apply_nones(self):
        """(PyTorch calls a custom backward also when no gradient came to it: on zeros, or on Nones when
        materialize_grads is off)"""
        return self.apply()

    def _check_grads(self, result):
        """The gradients for the edges, from what backward returned (one value per forward argument)."""
        if not isinstance(result, tuple):
            result = (result,)
        expected = len(self._is_tensor)
        if len(result) > expected and all(g is None for g in result[expected:]):
            result = result[:expected]          # extra Nones are allowed
        if len(result) != expected:
            raise RuntimeError('function %s returned an incorrect number of gradients (expected %d, got %d)'
                               % (self.name(), expected, len(result)))
        grads = []
        for i, (g, is_tensor) in enumerate(zip(result, self._is_tensor)):
            if not is_tensor:
                if g is not None:
                    raise RuntimeError('function %s returned a gradient different than None at position %d, but '
                                       'the corresponding forward input was not a Variable' % (self.name(), i + 1))
                continue
            if g is not None and not isinstance(g, Tensor):
                raise RuntimeError('expected Variable or None (got %s)' % parser_type(g))
            grads.append(g)
        # What PyTorch's engine then does to every gradient (validate_outputs): the edges that lead somewhere
        # get gradients of their input's shape (a broadcastable one is summed) and dtype; the others are kept as
        # they are (a post-hook of the node sees them).
        for i, (g, nxt) in enumerate(zip(grads, self._fns)):
            if nxt is None or g is None:
                continue
            grads[i] = _ops.validate_grad(self, g, self._in_meta[i], i)
        return tuple(grads)


class FunctionMeta(type):
    """Gives each Function class its node class, `<Name>Backward` (`cls._backward_cls`)."""
    __module__ = _MODULE

    def __init__(cls, name, bases, attrs):
        cls._backward_cls = type(name + 'Backward', (BackwardCFunction,), {'_forward_cls': cls,
                                                                            '__module__': _MODULE})
        super().__init__(name, bases, attrs)


class _SingleLevelFunction(FunctionCtx, metaclass=FunctionMeta):
    """The static methods a custom Function defines."""
    __module__ = _MODULE

    @staticmethod
    def forward(*args, **kwargs):
        """forward(ctx, *args) computes the outputs (and fills ctx), or forward(*args) with setup_context."""
        raise NotImplementedError('You must implement the forward function for custom autograd.Function.')

    @staticmethod
    def setup_context(ctx, inputs, output):
        """With a forward without ctx: fill ctx from the inputs and the output."""
        raise NotImplementedError('setup_context is not implemented.')

    @staticmethod
    def backward(ctx, *grad_outputs):
        """One gradient per output in, one per forward argument out (None for non-tensors)."""
        raise NotImplementedError('You must implement either the backward or vjp method for your custom '
                                  'autograd.Function to use it with backward mode AD.')

    vjp = backward

    @staticmethod
    def jvp(ctx, *grad_inputs):
        raise NotImplementedError('You must implement the jvp function for custom autograd.Function to use it with '
                                  'forward mode AD.')


class Function(_SingleLevelFunction):
    """Base class of custom autograd Functions: subclass it, write static `forward` and `backward`, call `apply`."""
    __module__ = _MODULE

    def __init__(self, *args, **kwargs):
        warnings.warn('%s should not be instantiated. Methods on autograd functions are all static, so you should '
                      'invoke them on the class itself. Instantiating an autograd function will raise an error in a '
                      'future version of PyTorch.' % self.__class__, DeprecationWarning, stacklevel=2)

    def __call__(self, *args, **kwargs):
        raise RuntimeError('Legacy autograd function with non-static forward method is deprecated. Please use '
                           'new-style autograd function with static forward method. (Example: '
                           'https://pytorch.org/docs/stable/autograd.html#torch.autograd.Function)')

    generate_vmap_rule = False

    @staticmethod
    def vmap(info, in_dims, *args):
        """The Function's rule under torch.vmap. (The engine's vmap runs a custom Function once per batch element
        instead; it only checks that there is a rule, or generate_vmap_rule, as PyTorch requires.)"""
        raise NotImplementedError('To use autograd.Function with vmap, you must either override the vmap staticmethod '
                                  'or set generate_vmap_rule=True.')

    @classmethod
    def apply(cls, *args, **kwargs):
        """Run forward without recording, then make the outputs the outputs of one `<Name>Backward` node."""
        new_style = cls.setup_context is not _SingleLevelFunction.setup_context
        if transform_depth and not new_style:
            raise RuntimeError('In order to use an autograd.Function with functorch transforms (vmap, grad, jvp, '
                               'jacrev, ...), it must override the setup_context staticmethod. For more details, '
                               'please see https://pytorch.org/docs/main/notes/extending.func.html')
        if vmap_depth:
            _check_vmap_rule(cls)
        if forward_depth and cls.jvp is _SingleLevelFunction.jvp:
            cls.jvp(None)                      # (PyTorch's NotImplementedError: forward mode needs the user's jvp)
        if new_style:                          # arguments bound to forward's parameters, defaults filled in
            bound = inspect.signature(cls.forward).bind(*args, **kwargs)
            bound.apply_defaults()
            args, kwargs = bound.args, bound.kwargs
        if kwargs:
            args, kwargs = _keywords_placed(cls.forward, new_style, args, kwargs), {}
        return _apply(cls, new_style, args, kwargs)


def _keywords_placed(forward, new_style, args, kwargs):
    """The arguments, keyword ones put at the place of forward's positional parameter of that name, as PyTorch's C++
    apply does (so that a tensor given by keyword is an input too): no defaults fill the places skipped."""
    names = [p.name for p in inspect.signature(forward).parameters.values()
             if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)][0 if new_style else 1:]     # (not ctx)
    placed = list(args)
    for name, value in kwargs.items():
        if name not in names:
            raise TypeError("forward() got an unexpected keyword argument '%s'" % name)
        i = names.index(name)
        if i < len(args):
            raise TypeError("forward() got multiple values for argument '%s'" % name)
        placed += [_MISSING] * (i + 1 - len(placed))
        placed[i] = value
    for i, value in enumerate(placed):
        if value is _MISSING:
            raise TypeError("forward() missing required argument: '%s' (position %d)" % (names[i], i))
    return tuple(placed)


_MISSING = object()


@contextlib.contextmanager
def custom_function_rules(vmap=0, forward=0):
    """Inside torch.vmap (vmap) or forward-mode AD (forward: func.jvp, func.jacfwd, which PyTorch also vmaps, and
    autograd.functional's forward-mode strategy), where a custom Function needs a vmap rule / a jvp staticmethod."""
    global vmap_depth, forward_depth
    vmap_depth += vmap
    forward_depth += forward
    try:
        yield
    finally:
        vmap_depth -= vmap
        forward_depth -= forward


def _check_vmap_rule(cls):
    """Under torch.vmap a custom Function needs either generate_vmap_rule=True or a vmap staticmethod of its own."""
    overridden = cls.vmap is not Function.vmap
    if cls.generate_vmap_rule and overridden:
        raise RuntimeError('You tried to vmap over %s, but it has both generate_vmap_rule=True and an overridden vmap '
                           'staticmethod. Please set generate_vmap_rule=False or delete the overridden vmap '
                           'staticmethod to avoid ambiguity. For more details, please see '
                           'https://pytorch.org/docs/main/notes/extending.func.html' % cls.__name__)
    if not cls.generate_vmap_rule and not overridden:
        raise RuntimeError('You tried to vmap over %s, but it does not have vmap support. Please override and '
                           'implement the vmap staticmethod or set generate_vmap_rule=True. For more details, please '
                           'see https://pytorch.org/docs/main/notes/extending.func.html' % cls.__name__)


def _apply(cls, new_style, args, kwargs):
    """Function.apply after argument binding: the node (also the ctx), forward under no_grad, the outputs wired to
    the node (only if grad mode is on and some tensor argument requires grad), the saved tensors."""
    is_tensor = tuple(isinstance(a, Tensor) for a in args)
    tensors = [a for a in args if isinstance(a, Tensor)]
    executable = ag.grad_enabled and any(t._requires_grad for t in tensors)
    # The node is made before forward runs, with the edges the inputs have now (forward may change them in place).
    ctx = ag.record(None, cls._backward_cls, tuple(tensors) if executable else (), None, True)
    ctx._saved = None
    ctx._is_tensor = is_tensor
    ctx.needs_input_grad = tuple(isinstance(a, Tensor) and a._requires_grad for a in args)
    ctx._in_meta = tuple((t._data.shape, t._data.dtype) for t in tensors) if executable else ()
    ctx._out_meta, ctx._graph_outs, ctx.num_outputs, ctx._materialize = (None,), (True,), 1, True
    ctx.to_save = ctx.dirty_tensors = ctx.non_differentiable = ctx.saved_for_forward = None
    with ag.no_grad():
        if new_style:
            raw = cls.forward(*args, **kwargs)
            cls.setup_context(ctx, args, raw)
        else:
            raw = cls.forward(ctx, *args, **kwargs)
    is_tuple = isinstance(raw, tuple)
    outputs = _wrap_outputs(ctx, tensors, tuple(raw) if is_tuple else (raw,), executable)
    _save_tensors(ctx, executable)
    if ag.fw_level is not None:
        ag.fw_flush()
        from ._forward_ad import custom_function
        custom_function(cls, ctx, args, tensors, outputs)
    ctx.dirty_tensors = ctx.non_differentiable = ctx.saved_for_forward = None     # (PyTorch keeps none of them)
    return tuple(outputs) if is_tuple else outputs[0]


def _wrap_outputs(ctx, inputs, raw, executable):
    """The outputs as apply returns them: an input returned as-is becomes a view of it, a dirty input (changed in
    place) gets a new version and its history continues through the node, every other differentiable output gets
    the node as its grad_fn with its output number."""
    # (PyTorch's messages stop short of naming the argument)
    if any(not isinstance(t, Tensor) for t in ctx.non_differentiable or ()):
        raise RuntimeError('mark_non_differentiable only accepts variable arguments, but got ')
    if any(not isinstance(t, Tensor) for t in ctx.dirty_tensors or ()):
        raise RuntimeError('mark_dirty can only accept variables, but argument ')
    dirty = {id(t) for t in ctx.dirty_tensors or ()}
    non_diff = {id(t) for t in ctx.non_differentiable or ()}
    input_ids = {id(t) for t in inputs}
    if len(raw) != 1:
        ctx.num_outputs = len(raw)
    ctx._out_meta = tuple((t._data.shape, t._data.dtype) if isinstance(t, Tensor) else None for t in raw)
    outputs = []
    views = []
    n_diff = 0
    graph_outs = [False] * len(raw)
    for i, t in enumerate(raw):
        if not isinstance(t, Tensor):
            outputs.append(t)
            continue
        is_dirty, is_diff = id(t) in dirty, id(t) not in non_diff
        if is_dirty:
            ag.bump(t)
        if id(t) in input_ids and not (executable and is_diff) and t._requires_grad:
            t = t.detach()                  # (a non-differentiable input that requires grad, changed in place or not)
        elif id(t) in input_ids and not is_dirty:
            with ag.no_grad():
                t = _ops._new_view(t, t._data.view())      # PyTorch returns input.view_as(input), made in no_grad
        if executable and is_diff and t._data.dtype.kind in 'fc':
            n_diff += 1
            graph_outs[i] = True
            if is_dirty:
                if t._base is not None and len(raw) > 1:
                    raise RuntimeError(_DIRTY_VIEW)
                _dirty_history(ctx, t, i, id(t) in input_ids)
            else:
                _set_history(ctx, t, i)
        if not is_dirty and t._base is not None:
            views.append(t)
        outputs.append(t)
    # PyTorch forbids modifying these views in place (see _ops._check_inplace), with one message when the node has
    # several differentiable outputs and another when it has one.
    for t in views:
        t._fn_view = _ops._MULTI_VIEW if n_diff > 1 else _CUSTOM_VIEW
    ctx._graph_outs = tuple(graph_outs)
    returned = {id(t) for t in raw}
    if any(id(t) not in returned for t in ctx.dirty_tensors or ()):
        raise RuntimeError('Some elements marked as dirty during the forward method were not returned as output. '
                           'The inputs that are modified inplace must all be outputs of the Function.')
    return outputs


def _set_history(ctx, t, i):
    """Output i of the node (a view of an input or of anything else, too)."""
    d = t.__dict__
    d.pop('_no_grad_view', None)                            # (a view made by forward, under no_grad)
    d.pop('_grad_from_base', None)
    t._grad_fn = ctx
    t._requires_grad = True
    t._output_nr = i


def _dirty_history(ctx, t, i, is_input):
    """An input changed in place by forward: its history goes on through the node (a view's base through
    CopySlices), as after an in-place op. Refused for a leaf requiring grad (a view of one made in no_grad mode
    counts as one), then for a view as an in-place op refuses it (of a leaf, of split, made in no_grad mode...).
    A tensor marked dirty that is not an input gets the same, with a warning."""
    if (t._grad_fn is None or t._grad_from_base) and t.requires_grad:    # (_grad_from_base: a view made in no_grad
        raise RuntimeError('a leaf Variable that requires grad has been used in an in-place operation.')  # mode)
    if not is_input:
        ag.torch_warn('ctx.mark_dirty() received a tensor that was not an input. Only input Tensors that have been '
                      'mutated should be passed to ctx.mark_dirty().', 'torch/csrc/autograd/custom_function.cpp:320')
    base = t._base
    if base is not None:
        _ops._check_inplace(t)
        _ops._rebase_view(t, base, ctx)
    else:
        _ops._new_history(t, ctx)
        t._output_nr = i
    _ops._views_changed(t, base if base is not None else t)


def _save_tensors(ctx, executable=True):
    """ctx.to_save as SavedTensors: an output of this node is saved as an output (no reference cycle; it comes
    back with the node as grad_fn), so is a dirty input (a view's grad_fn is AsStridedBackward0 by now: PyTorch's
    version error still names this node), anything else as itself. A call outside the graph keeps (and checks)
    nothing, as PyTorch's: its ctx.saved_tensors is ()."""
    to_save = ctx.to_save or ()
    ctx.to_save = None
    if not executable:
        return
    for i, t in enumerate(to_save):
        if t is not None and not isinstance(t, Tensor):
            raise TypeError('save_for_backward can only save variables, but argument %d is of type %s'
                            % (i, parser_type(t)))
    dirty = {id(t) for t in ctx.dirty_tensors or ()}
    ctx._saved = {'tensors[%d]' % i: None if t is None else
                  SavedTensor(t, is_output=t._grad_fn is ctx or id(t) in dirty) for i, t in enumerate(to_save)}
    if ag.inference_saved:
        ag.refuse_inference_saved(ctx._saved)
    for v in ctx._saved.values():       # (under saved_tensors_hooks: packed in the order they were saved)
        if v is not None:
            v.pack()


# ---------------------------------------------------------------------------------------------- once_differentiable

class Error(Node):
    """PyTorch's DelayedError node: the gradients of a once_differentiable backward hang from it, and
    differentiating through it again raises its message."""

    def name(self):
        return 'torch::autograd::Error'

    def apply(self, *grads):
        raise RuntimeError(self.msg)


def once_differentiable(fn):
    """Decorate a backward that is not differentiable itself: it runs under no_grad, and (when a graph is being
    built) its gradients get an `Error` node, so that a double backward through it raises."""
    @functools.wraps(fn)
    def wrapper(ctx, *args, **kwargs):
        with ag.no_grad():
            outputs = fn(ctx, *args, **kwargs)
        if not ag.grad_enabled or not any(isinstance(a, Tensor) and a._requires_grad for a in args):
            return outputs
        outs = outputs if isinstance(outputs, tuple) else (outputs,)
        leaves = []
        for v in outs:                         # detached copies that require grad give the node its edges
            if v is not None:
                v = v.detach()
                v.requires_grad = True
            leaves.append(v)
        node = ag.record(None, Error, tuple(leaves), None, True)
        node.msg = 'trying to differentiate twice a function that was marked with @once_differentiable'
        if len(leaves) != 1:
            node.num_outputs = len(leaves)
        result = []
        for i, v in enumerate(leaves):
            if v is not None:
                v = make(v._data)                # (PyTorch's tensor_data(): same memory, a new version counter)
                v._grad_fn, v._requires_grad, v._output_nr = node, True, i
            result.append(v)
        return tuple(result)
    return wrapper


class InplaceFunction(Function):
    """Kept for backward compatibility, as in PyTorch."""
    __module__ = _MODULE

    def __init__(self, inplace=False):
        super().__init__()
        self.inplace = inplace
