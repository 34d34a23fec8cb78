"""Autograd: grad mode, graph nodes, saved tensors, and the one backward engine (a generator of steps)."""
import functools
import gc
import heapq
import inspect
import itertools
import os
import re
import sys
import traceback
import warnings
import weakref
from collections import OrderedDict, deque
from sys import getrefcount

from ._memory_format import contiguous_format as _contiguous_format

_ENGINE_DIR = os.path.dirname(os.path.abspath(__file__))
_RUNNER = os.path.join(_ENGINE_DIR, '_runner.py')


def user_stacklevel():
    """The stacklevel that makes the warnings.warn of the calling function point at the first frame outside the
    engine: the user's line, however many of the engine's frames (wrappers, helpers) lie between."""
    frame, level = sys._getframe(1), 1
    while frame is not None and frame.f_code.co_filename.startswith(_ENGINE_DIR):
        frame, level = frame.f_back, level + 1
    return level


def torch_warn(message, where):
    """A UserWarning of PyTorch's C++ (TORCH_WARN), ending as PyTorch's does with the place in its sources that
    raised it (`where`), shown at the user's line."""
    warnings.warn('%s (Triggered internally at /__w/pytorch/pytorch/%s.)' % (message, where), UserWarning,
                  stacklevel=user_stacklevel())

# ---------------------------------------------------------------------------------------------- grad mode

grad_mode = True           # PyTorch's grad mode (what is_grad_enabled reports)
grad_enabled = True        # whether ops record: the grad mode, unless inference mode is on
func_levels = []           # the levels of torch.func's grad, vjp and jacrev running their functions, innermost
                           # last (their tensors print as GradTrackingTensor: see func._wrapped_repr)


def is_grad_enabled():
    return grad_mode


def _set_grad_enabled(mode):
    global grad_enabled, grad_mode
    grad_mode = bool(mode)
    grad_enabled = grad_mode and not inference_enabled


class _GradModeContext:
    """Base of no_grad / enable_grad / set_grad_enabled: a context manager that also decorates functions."""
    mode = True

    def __enter__(self):
        self._prev = grad_mode
        _set_grad_enabled(self.mode)

    def __exit__(self, *exc):          # (returns None, as PyTorch's)
        _set_grad_enabled(self._prev)

    def __call__(self, fn):
        """As a decorator: fn runs in this mode (in a context of its own, per call; a generator function's body in
        it each time the generator resumes, as PyTorch's _wrap_generator does)."""
        if inspect.isclass(fn):          # (deprecated: PyTorch wraps the class's call in a lambda of its own)
            warnings.warn('Decorating classes is deprecated and will be disabled in future versions. You should only '
                          'decorate functions or methods. To preserve the current behavior of class decoration, you '
                          'can directly decorate the `__init__` method and nothing else.', FutureWarning, stacklevel=2)
            cls = fn

            def fn(*args, **kwargs):
                return cls(*args, **kwargs)
            fn.__name__ = '<lambda>'
            fn.__qualname__ = '_DecoratorContextManager.__call__.<locals>.<lambda>'
        if inspect.isgeneratorfunction(fn):
            def wrapper(*args, **kwargs):
                gen = fn(*args, **kwargs)
                try:
                    with self.clone():
                        response = gen.send(None)
                    while True:
                        try:
                            request = yield response
                        except GeneratorExit:
                            with self.clone():
                                gen.close()
                            raise
                        except BaseException as err:
                            with self.clone():
                                response = gen.throw(err)
                        else:
                            with self.clone():
                                response = gen.send(request)
                except StopIteration as stop:
                    return stop.value
            wrapper.__name__, wrapper.__qualname__ = 'generator_context', '_wrap_generator.<locals>.generator_context'
        else:
            def wrapper(*args, **kwargs):
                with self.clone():
                    return fn(*args, **kwargs)
            # (PyTorch's names, shown where fn has none of its own: `torch.no_grad()(x * 2)`)
            wrapper.__name__, wrapper.__qualname__ = 'decorate_context', 'context_decorator.<locals>.decorate_context'
        return functools.wraps(fn)(wrapper)

    def clone(self):
        return type(self)()


class _NoParamDecorator(_GradModeContext):
    """As PyTorch's _NoParamDecoratorContextManager: `@no_grad` (not called) decorates as `@no_grad()` does."""

    def __new__(cls, orig_func=None):
        return super().__new__(cls) if orig_func is None else cls()(orig_func)


class no_grad(_NoParamDecorator):
    """Context manager / decorator that switches gradient tracking off."""
    __module__ = 'torch.autograd.grad_mode'
    mode = False


class enable_grad(_NoParamDecorator):
    """Context manager / decorator that switches gradient tracking on."""
    __module__ = 'torch.autograd.grad_mode'
    mode = True


inference_enabled = False
saved_hooks = []            # (pack, unpack) of the active torch.autograd.graph.saved_tensors_hooks, innermost last
stale_meta = False          # some node's output got other .data while its graph lived: backward checks the edges
anomaly = False             # torch.autograd.set_detect_anomaly: each node made keeps the stack of its forward call
anomaly_check_nan = True    # ... and backward fails on a node that returns nan
saved_hooks_disabled = None  # the error message of an active torch.autograd.graph.disable_saved_tensors_hooks
mutation_context = None     # torch.autograd.graph.allow_mutation_on_saved_tensors: clones saved tensors before writes


def is_inference_mode_enabled():
    return inference_enabled


class inference_mode(_GradModeContext):
    """Like no_grad, and what it makes are inference tensors (is_inference()): not to be saved for backward, nor
    changed in place or made to require grad outside inference mode; they count no versions."""
    __module__ = 'torch.autograd.grad_mode'

    def __new__(cls, mode=True):
        return super().__new__(cls) if isinstance(mode, bool) else cls()(mode)    # @inference_mode, not called

    def __init__(self, mode=True):
        if isinstance(mode, bool):
            self.mode = mode

    def __enter__(self):                # (grad mode is off in inference mode, on in inference_mode(False))
        global inference_enabled
        self._prev_inference, inference_enabled = inference_enabled, self.mode
        self._prev = grad_mode
        _set_grad_enabled(not self.mode)

    def __exit__(self, *exc):
        global inference_enabled
        inference_enabled = self._prev_inference
        return super().__exit__(*exc)

    def clone(self):
        return inference_mode(self.mode)


class set_grad_enabled(_GradModeContext):
    """Sets grad mode at once (as a function call) and restores it when used as a context manager."""
    __module__ = 'torch.autograd.grad_mode'

    def __init__(self, mode):
        if type(mode) is not bool:               # (PyTorch's argument parser takes a bool only)
            from ._tensor import parser_type
            raise TypeError("set_grad_enabled(): argument 'enabled' (position 1) must be bool, not "
                            + parser_type(mode))
        self.prev = grad_mode
        self.mode = mode
        _set_grad_enabled(mode)

    def __enter__(self):                # (sets the mode again: a context made earlier may be entered later)
        _set_grad_enabled(self.mode)

    def __exit__(self, *exc):
        _set_grad_enabled(self.prev)

    def __call__(self, fn):
        _set_grad_enabled(self.prev)     # as a decorator it changes nothing until fn runs, as in PyTorch
        return super().__call__(fn)

    def clone(self):
        return set_grad_enabled(self.mode)

    def __repr__(self):
        return 'torch.autograd.grad_mode.set_grad_enabled(mode=%s)' % self.mode


multithreading_enabled = True     # (reported only: the engine runs backward on the calling thread)


def is_multithreading_enabled():
    return multithreading_enabled


def is_view_replay_enabled():
    return False


class set_multithreading_enabled(_GradModeContext):
    """Whether backward may run on device threads: set at once, put back at the end of a with block, as PyTorch's."""
    __module__ = 'torch.autograd.grad_mode'

    def __init__(self, mode):
        global multithreading_enabled
        if type(mode) is not bool:
            from ._tensor import parser_type
            raise TypeError("set_multithreading_enabled(): argument 'enabled' (position 1) must be bool, not "
                            + parser_type(mode))
        self.prev, self.mode = multithreading_enabled, mode
        multithreading_enabled = mode

    def __enter__(self):
        pass

    def __exit__(self, *exc):
        global multithreading_enabled
        multithreading_enabled = self.prev

    def clone(self):
        return set_multithreading_enabled(self.mode)


# ---------------------------------------------------------------------------------------------- errors

FREED_MESSAGE = ('Trying to backward through the graph a second time (or directly access saved tensors after they '
                 'have already been freed). Saved intermediate values of the graph are freed when you call '
                 '.backward() or autograd.grad(). Specify retain_graph=True if you need to backward through the '
                 'graph a second time or if you need to access saved tensors after calling backward.')


def forward_name(node):
    """'Sigmoid' for SigmoidBackward0, 'Pow1' for PowBackward1: how PyTorch 2.13 names a tensor's op in errors."""
    return re.sub(r'Backward(\d*)$', lambda m: '' if m.group(1) == '0' else m.group(1), node.name())


def legacy_type_name(t):
    return 'torch.%sTensor' % t.dtype.legacy


def type_string(t):
    """t's type as PyTorch's autograd errors name it (its toString()): torch.FloatTensor, but CPUBoolType for bool."""
    name = t.dtype.legacy
    return 'CPU%sType' % name if name in ('Bool', 'BFloat16') else 'torch.%sTensor' % name


class VersionCounter:
    """Counts in-place modifications of a storage; shared by a tensor, its views and its detach()es.

    A tensor gets one on first need (`counter(t)`): until then its `_version_counter` is None and its version 0.
    Most tensors are never modified in place, viewed or detached, so most never need one.
    """
    __slots__ = ('value', 'views')

    def __init__(self):
        self.value = 0
        self.views = None         # weak references to the views of this memory (see _ops._new_view)


def counter(t):
    """t's version counter, made on first need (to share it or to count a modification)."""
    vc = t._version_counter
    if vc is None:
        vc = t._version_counter = VersionCounter()
    return vc


def version(t):
    vc = t._version_counter
    return 0 if vc is None else vc.value


# An inference tensor's `_inference`: True, or COUNTED for one that has a version counter all the same (detach() or
# .data of an inference tensor outside inference mode: PyTorch's alias gets a new counter there).
COUNTED = 1


def bump(t):
    """Count an in-place modification of t's memory. Inference tensors count nothing in inference mode; outside it
    one without a counter refuses, as PyTorch's version bump does: after the kernel wrote, so the change stays."""
    vc = counter(t)
    if t._inference:
        if inference_enabled:
            return              # (the counter is made all the same: views find each other through it)
        if t._inference is True:
            inference_inplace_error()
    vc.value += 1


def _freed_error(node, name):
    err = RuntimeError(FREED_MESSAGE)
    err.autograd_node, err.autograd_saved = node, name
    return err


def _call_pack(pack, tensor):
    """A pack hook runs in no-grad mode, as PyTorch's SavedVariable calls it: what it computes is not recorded. It
    must leave the tensor as it is (PyTorch compares its version before and after)."""
    prev = grad_mode
    before = version(tensor)
    _set_grad_enabled(False)
    try:
        packed = pack(tensor)
    finally:
        _set_grad_enabled(prev)
    if version(tensor) != before:
        raise RuntimeError('A saved tensor pack hook is modifying its input in place. Tensors provided as input to '
                           'pack hook cannot be modified by in-place operations as this can lead to unexpected '
                           'side-effects. Please open an issue if you need to perform in-place operations on the '
                           'input to a pack hook.')
    return packed


class SavedTensor:
    """A tensor a node saved for backward, with the version it had then (PyTorch's SavedVariable).

    A saved output is kept as an alias without grad_fn (same memory, same version counter), as PyTorch does:
    output -> node -> saved -> output would be a reference cycle, freed only by the garbage collector.
    An in-place op's output that is a view also has `view_fn`: a weak reference to the view's grad_fn after the op
    (AsStridedBackward0), which PyTorch's version error names while that node lives.
    """
    __slots__ = ('tensor', 'saved_version', 'is_output', 'unpack_hook', 'packed', 'unpacked', 'origin', 'view_fn')

    def __init__(self, tensor, is_output=False):
        if tensor._inference:   # refused by record if the op records (ops make their saved values beforehand)
            global inference_saved
            inference_saved = True
        self.is_output = is_output
        if saved_hooks:                   # torch.autograd.graph.saved_tensors_hooks: keep what pack makes of it
            pack, self.unpack_hook = saved_hooks[-1]
            self.saved_version = self.unpacked = None
            self.origin = _history(tensor)
            # packed when the op is recorded (see pack_saved): PyTorch packs nothing for an op it does not record,
            # and packs in an order of its own
            self.tensor, self.packed = tensor, pack
            return
        self.unpack_hook = None
        if is_output:
            tensor = _alias(tensor)
        self.tensor = tensor
        self.saved_version = version(tensor)

    def pack(self, node=None):
        """Hand a tensor saved under saved_tensors_hooks to its pack hook, unless done already (an output the op
        does not return, as group_norm's mean, with the op's node as its grad_fn, as the hook sees it in PyTorch)."""
        if self.tensor is not None and self.unpack_hook is not None:
            tensor, self.tensor = self.tensor, None
            if self.is_output and tensor._grad_fn is None and node is not None:
                tensor = _alias_output(tensor, node)
            self.packed = _call_pack(self.packed, tensor)

    @property
    def tensor_ref(self):
        return self.tensor

    def current_version(self):
        return None if self.tensor is None else version(self.tensor)

    def check(self, node, name, accessor=False):
        """Raise PyTorch's error if the tensor was freed or modified in place since it was saved; the tensor. With
        saved-tensor hooks, what the unpack hook makes of the packed value (no version to check then). `accessor`:
        for `grad_fn._saved_<name>` rather than backward."""
        if node._freed:
            raise _freed_error(node, name)
        if self.unpack_hook is not None:
            if self.tensor is not None:   # (saved by an op that records no node: packed on first use)
                self.pack()
            # (nothing packed, the pack hook having failed: PyTorch calls the unpack hook with no argument)
            t = self.unpack_hook() if self.packed is NOTHING_PACKED else self.unpack_hook(self.packed)
            if not hasattr(t, '_data'):
                raise TypeError('Output of saved tensor unpack_hook expected to be a Tensor but got result of type '
                                + type(t).__name__)
            if self.is_output:
                return t                  # (the node makes itself its grad_fn)
            grad_fn, requires_grad, output_nr, accumulator = self.origin
            t = _alias(t)                 # what unpack gave, with the saved tensor's place in the graph
            t._grad_fn, t._requires_grad, t._output_nr = grad_fn, requires_grad, output_nr
            if accumulator is not None:
                t._accumulator = accumulator
            return t
        t = self.tensor
        # detach_() of a saved non-leaf: backward refuses it (first); `_saved_<name>` names the node instead
        detached = t._grad_fn is None and not self.is_output and t._detached_at > node._seq
        if detached and not accessor:
            raise RuntimeError('Trying to use a saved tensor that has been detached in-place, i.e. with '
                               '.detach_().This is not supported, please use out-of-place `.detach()` instead')
        now = version(t)
        if now != self.saved_version:
            producer = node if self.is_output or detached else t._grad_fn
            if self.is_output and getattr(self, 'view_fn', None) is not None:
                producer = self.view_fn() or producer
            nr = t._output_nr if self.is_output else 0      # (PyTorch keeps the output number of saved outputs only)
            which = ', which is output %d of %s,' % (nr, forward_name(producer)) if producer else ''
            producer = None         # (the error's frame would keep it alive: see view_fn)
            err = RuntimeError(
                'one of the variables needed for gradient computation has been modified by an inplace operation: '
                '[%s [%s]]%s is at version %d; expected version %d instead. Hint: %s'
                % (type_string(t), ', '.join(map(str, t._data.shape)), which, now, self.saved_version,
                   'the backtrace further above shows the operation that failed to compute its gradient. The '
                   'variable in question was changed in there or anywhere later. Good luck!' if anomaly else
                   'enable anomaly detection to find the operation that failed to compute its gradient, with '
                   'torch.autograd.set_detect_anomaly(True, check_nan=False).'))
            err.autograd_node, err.autograd_saved = node, name
            raise err
        return t


NOTHING_PACKED = object()    # SavedTensor.packed when register_hooks' pack hook raised


def _history(t):
    """Where a saved tensor sits in the graph (grad_fn, requires_grad, output number, a leaf's AccumulateGrad): what
    a tensor an unpack hook returns gets in its place, as PyTorch's SavedVariable gives it."""
    return t._grad_fn, t._requires_grad, t._output_nr, t._grad_accumulator() if t._grad_fn is None else None


pack_deferred = None       # a list while an in-place op runs under saved_tensors_hooks: the saved dicts to pack after


def _is_output(name, v):
    """Whether a saved value is an output of its op (those it returns, and others it saves as plain tensors:
    layer_norm's mean `result1`, nll_loss's `total_weight`)."""
    return type(v) is SavedTensor and v.is_output or name.startswith('result') or name in ('buffer', 'total_weight')


def _in_pack_order(saved):
    """The (name, value) items of a saved dict in the order PyTorch packs and unpacks them (see pack_saved)."""
    return sorted(saved.items(), key=lambda item: (_is_output(*item), item[0]))


def pack_saved(saved, node=None, inputs_only=False):
    """Pack what an op saved under saved_tensors_hooks in PyTorch's order (which saves the inputs before the op runs,
    the outputs after): its inputs by name, then its outputs by name. An output saved after the op was recorded is
    packed when saved (its caller calls this)."""
    if pack_deferred is not None:         # (an in-place op: packed once it has put the clone of self in place)
        pack_deferred.append((saved, node))
        return
    for name, v in _in_pack_order(saved):
        if inputs_only and _is_output(name, v):
            break
        if type(v) is SavedTensor:
            v.pack(node)
        elif type(v) is SavedList:
            for item in v:
                if item is not None:
                    item.pack()


def pack_outputs(saved):
    """Pack the outputs an op saved after recording its node (under saved_tensors_hooks; see pack_saved)."""
    if saved_hooks:
        pack_saved(saved)


inference_saved = False      # an inference tensor was saved: record refuses it in the node it records


def refuse_inference_saved(saved):
    """PyTorch's error for an inference tensor saved by an op that records (its SavedVariable is made only then)."""
    global inference_saved
    inference_saved = False
    for v in saved.values() if saved else ():
        for s in v if type(v) is SavedList else (v,):
            if type(s) is SavedTensor and s.tensor is not None and s.tensor._inference:
                raise RuntimeError('Inference tensors cannot be saved for backward. Please do not use Tensors created '
                                   'in inference mode in computation tracked by autograd. To work around this, you can '
                                   'make a clone to get a normal tensor and use it in autograd, or use '
                                   '`torch.no_grad()` instead of `torch.inference_mode()`.')


class SavedList(tuple):
    """Tensors a node saved as one list (PyTorch's saved TensorList, as index's `indices`); None items stay None."""
    __slots__ = ()

    def __new__(cls, tensors):
        return tuple.__new__(cls, (None if t is None else SavedTensor(t) for t in tensors))

    def unpack(self, node, name):
        return tuple(None if s is None else s.check(node, name) for s in self)


# ---------------------------------------------------------------------------------------------- nodes

_sequence = itertools.count()
_new = object.__new__
_make = None              # set by _tensor: a new tensor from a numpy array
_make_wrapped = None      # set by _tensor: makes the 0-d tensor of a saved Python number
_alias = None             # set by _tensor: a tensor object on the same memory and version counter, no grad_fn
_alias_output = None      # set by _tensor: a new tensor object aliasing a saved output, with grad_fn = its node
add_grads = None          # set by _ops: the sum of two gradients reaching the same input
accumulate_into = None    # set by _ops: AccumulateGrad's .grad update
validate_grad = None      # set by _ops: a gradient a node returned, checked and fitted to its input


def edge(t):
    """(node, input_nr) through which gradient reaches tensor `t`, as in grad_fn.next_functions. A view whose
    history PyTorch cannot rebuild (an Invalid grad_fn) raises its error, as reading its grad_fn does."""
    fn = t._grad_fn
    if fn is not None:
        if type(fn) is Invalid:
            raise RuntimeError(fn.msg)
        return (fn, t._output_nr)
    if t._requires_grad:
        return (t._grad_accumulator(), 0)
    return (None, 0)


_INF = float('inf')


def _plain(v):
    """A saved value as PyTorch shows it: a numpy number the op was given (a dim, a bound) is the C++ number its
    parser made of it, a Python int or float."""
    if type(v) is tuple:
        return tuple(_plain(x) for x in v) if any(type(x).__module__ == 'numpy' for x in v) else v
    return v.item() if type(v).__module__ == 'numpy' and type(v).__name__ != 'ndarray' else v


_described = set()        # node classes that have their `_saved_<name>` properties
# names PyTorch saves as optional numbers or strings (not tensors): a None there has no `_raw_saved_<name>`
_OPTIONAL_VALUES = frozenset({'correction', 'dim', 'divisor_override', 'eps', 'rounding_mode', 'storage_offset',
                              'scale', 'scales', 'scales_d', 'scales_h', 'scales_w', 'start', 'end'})


def _describe(cls, names):
    """Give cls a `_saved_<name>` property per saved name (as PyTorch's grad_fn classes have), when its first
    node is made: every node of a class saves the same names, as in derivatives.yaml. Properties rather than
    __getattr__: a class with __getattr__ makes every attribute read of every node slower."""
    _described.add(cls)
    for name in names:
        setattr(cls, '_saved_' + name, _ReadOnly(lambda self, name=name: self._unpack(name), '_saved_' + name))
    # and a `_raw_saved_<name>` per name PyTorch saves as a tensor (SavedVariable): the saved tensor itself
    cls._raw_names = frozenset(name for name, v in names.items() if v is None and name not in _OPTIONAL_VALUES
                               or v is RESULT or name in cls._variables or type(v) in (SavedTensor, SavedList))
    for name in cls._raw_names:
        setattr(cls, '_raw_saved_' + name, _ReadOnly(lambda self, name=name: RawSaved.of(self, name),
                                                     '_raw_saved_' + name))


_NODE_DIR = ('__call__', '__class__', '__delattr__', '__dir__', '__doc__', '__eq__', '__format__', '__ge__',
             '__getattribute__', '__getstate__', '__gt__', '__hash__', '__init__', '__init_subclass__', '__le__',
             '__lt__', '__ne__', '__new__', '__reduce__', '__reduce_ex__', '__repr__', '__setattr__', '__sizeof__',
             '__str__', '__subclasshook__', '_input_metadata', '_register_hook_dict', '_sequence_nr',
             '_set_sequence_nr', 'metadata', 'name', 'next_functions', 'register_hook', 'register_prehook',
             'requires_grad', 'variable')


class _ReadOnly(property):
    """A node's attribute that user code cannot set or delete, with PyTorch's message (the engine sets what lies
    behind it)."""

    def __init__(self, fget, name=None):
        super().__init__(fget)
        self.name = name or fget.__name__

    def __set__(self, node, value):
        raise AttributeError("attribute '%s' of '%s' objects is not writable"
                             % (self.name, node._c_type or type(node).__name__))

    def __delete__(self, node):
        self.__set__(node, None)


class InputMetadata:
    """One of `grad_fn._input_metadata`: what the node's incoming gradient must be like (its shape and dtype where
    the node knows them: a leaf's AccumulateGrad, a custom Function's node)."""
    __module__, __qualname__ = 'torch._C._autograd', '_InputMetadata'
    is_nested_tensor = is_cpp_nested_tensor = False

    def __init__(self, meta):
        if meta is not None:
            from . import _dtypes
            self.shape = list(meta[0])
            # (None: an output outside the graph, PyTorch's undefined input: no shape, the default dtype)
            self.dtype = _dtypes.default_float if meta[1] is None else _dtypes.FROM_NP[meta[1]]

    @property
    def device(self):
        from ._dtypes import device
        return device('cpu')


class RawSaved:
    """`grad_fn._raw_saved_<name>`: PyTorch's SavedTensor object, whose register_hooks(pack, unpack) sends the saved
    value through pack at once and through unpack each time it is used (a saved_tensors_hooks of its own)."""
    __slots__ = ('node', 'name', 'index', '__weakref__')

    def __init__(self, node=None, name=None, index=None):
        if node is None:
            raise RuntimeError('Trying to create a SavedTensor object from Python is forbidden.')
        setattr_ = object.__setattr__
        setattr_(self, 'node', node), setattr_(self, 'name', name), setattr_(self, 'index', index)

    def __setattr__(self, name, value, verb='setter'):
        """pybind11's refusals: its properties have no setter (nor deleter), its methods are read-only."""
        if name in ('data', 'unpack_hook'):
            raise AttributeError("property of 'SavedTensor' object has no %s" % verb)
        if name in ('unpack', 'register_hooks'):
            raise AttributeError("'torch._C._autograd.SavedTensor' object attribute '%s' is read-only" % name)
        raise AttributeError("'torch._C._autograd.SavedTensor' object has no attribute '%s'" % name)

    def __delattr__(self, name):
        self.__setattr__(name, None, 'deleter')

    def __getattr__(self, name):            # (only for a name it lacks: the message names pybind11's type)
        raise AttributeError("'torch._C._autograd.SavedTensor' object has no attribute '%s'" % name)

    def __dir__(self):
        """What dir() of PyTorch's pybind11 SavedTensor lists (not the engine's slots and helpers)."""
        return sorted(set(dir(object)) - {'__slots__'} | {'__module__', '_pybind11_conduit_v1_', 'data',
                                                          'register_hooks', 'unpack', 'unpack_hook'})

    @classmethod
    def of(cls, node, name):
        """The saved value's object; a tuple of them for a saved list of tensors (which backward frees with the
        list: reading it then is an error, as PyTorch's getter unpacks the list to read its length)."""
        v = node._saved.get(name)
        if type(v) is not SavedList:
            return cls.one(node, name)
        if node._freed:
            raise _freed_error(node, name)
        return tuple(cls.one(node, name, i) for i in range(len(v)))

    @classmethod
    def one(cls, node, name, index=None):
        """The object of one saved value: the same one while it lives, as pybind11 gives one Python object per C++
        SavedVariable (`g._raw_saved_self is g._raw_saved_self`)."""
        key = (id(node), name, index)      # (the object holds its node: no other node gets that id while it lives)
        raw = _live_raw_saved.get(key)
        if raw is None:
            raw = _live_raw_saved[key] = cls(node, name, index)
        return raw

    def __repr__(self):
        return '<%s.%s object at %#x>' % (type(self).__module__, type(self).__name__, id(self))

    def _value(self):
        v = self.node._saved.get(self.name)
        return v if self.index is None else v[self.index]

    @property
    def data(self):
        """What PyTorch's SavedVariable holds: the tensor, a number as its 0-d tensor, what a pack hook made of the
        tensor; None once backward freed it."""
        v = self._value()
        if v is None or self.node._freed:
            return None
        if type(v) is not SavedTensor:
            return _make_wrapped(v)
        if v.unpack_hook is not None:
            return None if v.packed is NOTHING_PACKED else v.packed
        if v.is_output:
            return _alias(v.tensor)             # (an output as PyTorch keeps it: no grad_fn, as an in-place op's)
        return v.tensor

    @property
    def unpack_hook(self):
        v = self._value()
        return v.unpack_hook if type(v) is SavedTensor and not self.node._freed else None

    def _bad_arguments(self, method, signature, args, kwargs):
        """pybind11's error for a call that matches no signature (its arguments have no names: keywords are never
        taken, and are listed after the others)."""
        return TypeError('%s(): incompatible function arguments. The following argument types are supported:\n'
                         '    1. (self: torch._C._autograd.SavedTensor%s\n\nInvoked with: %s%s'
                         % (method, signature, ', '.join(map(repr, (self,) + args)),
                            '; kwargs: ' + ', '.join('%s=%r' % kv for kv in kwargs.items()) if kwargs else ''))

    def unpack(self, *args, **kwargs):
        if args or kwargs:
            raise self._bad_arguments('unpack', ') -> torch.Tensor', args, kwargs)
        v = self._value()
        if type(v) is SavedTensor and v.is_output and not self.node._freed:
            # PyTorch's SavedVariable::unpack() with no node to stand for the grad_fn of a saved output (which it
            # does not keep, to avoid a cycle): it takes it for one detached in place
            raise RuntimeError('Trying to use a saved tensor that has been detached in-place, i.e. with '
                               '.detach_().This is not supported, please use out-of-place `.detach()` instead')
        if self.index is not None:              # (one item of a saved list)
            return None if v is None else self.node._unpack(self.name)[self.index]
        return self.node._unpack(self.name)

    def register_hooks(self, *hooks, **kwargs):
        if kwargs or len(hooks) != 2 or not all(callable(h) for h in hooks):
            raise self._bad_arguments('register_hooks', ', arg0: collections.abc.Callable, arg1: '
                                      'collections.abc.Callable) -> None', hooks, kwargs)
        node, v = self.node, self._value()
        if v is None:
            raise RuntimeError('Calling register_hooks on a saved tensor with value None is forbidden')
        if node._freed:
            raise RuntimeError('Calling register_hooks on a saved tensor after it has been freed. Saved intermediate '
                               'values of the graph are freed when you call .backward() or autograd.grad(). Specify '
                               'retain_graph=True if you need to backward through the graph a second time or if you '
                               'need to access saved variables after calling backward.')
        if type(v) is not SavedTensor:          # (a number PyTorch saves as a tensor, `x * 2`: the saved dict may be
            node._saved = dict(node._saved)     # shared by nodes: this one gets its own)
            v = node._saved[self.name] = SavedTensor(_make_wrapped(v))
        elif v.unpack_hook is not None:
            raise RuntimeError('Calling register_hooks on a saved tensor whose hooks have already been set. Hint: only '
                               'one pair of hooks is allowed at a time.')
        if not v.is_output:
            v.origin = _history(v.tensor)
        tensor = _alias(v.tensor)               # (an output: without grad_fn)
        # PyTorch sets the hooks before it packs: after an error of the pack hook they stay set, with nothing packed
        v.packed, v.unpack_hook = NOTHING_PACKED, hooks[1]
        v.tensor = v.saved_version = v.unpacked = None
        node._hooked = node._watched = True
        v.packed = _call_pack(hooks[0], tensor)


RawSaved.__module__, RawSaved.__name__, RawSaved.__qualname__ = 'torch._C._autograd', 'SavedTensor', 'SavedTensor'
_live_raw_saved = weakref.WeakValueDictionary()     # (node id, name, index) -> its RawSaved, while one lives


RESULT = object()         # saved['result'] = RESULT: "the op's own output", saved by record()

# Views whose base changed in place since their grad_fn was last read: id -> weak reference. The engine gives such
# a view its new grad_fn at once; PyTorch makes it when the view's grad_fn is next read (by an op taking the view,
# printing it, .grad_fn) and holds the old one until then, which a version error may name (SavedTensor.view_fn).
unread = {}


# What a view held as its grad_fn before its base came to require grad through an in-place op: none. Until the
# view's grad_fn is read, PyTorch takes it for a leaf where it reads the raw field (an in-place op's check,
# retain_grad, .grad).
NO_GRAD_FN = object()


def hold_unread(view, old):
    """view's grad_fn is now a new one, made in place of `old`, which PyTorch still holds (Tensor._unread_fn)."""
    if view._unread_fn is None:
        view._unread_fn = old
        key = id(view)
        unread[key] = weakref.ref(view, lambda _, key=key: unread.pop(key, None))
        keep_hooks(view, old)


def keep_hooks(view, old):
    """The tensor hooks `view` had on its old grad_fn `old`: PyTorch's view keeps that dict (its _backward_hooks)
    until its new grad_fn is read, and a register_hook meanwhile (which reads grad_fn only for a tensor's first
    hook) adds to it, so that the hook goes with the old node."""
    hooks = old._pre_hooks.get(view._output_nr) if isinstance(old, Node) and old._pre_hooks else None
    if hooks is not None:
        view._stale_hooks = hooks


def read_grad_fn(t):
    """PyTorch reads t's grad_fn: a view whose base changed in place lets go of its old one."""
    old = t._unread_fn
    if old is not None:
        del t._unread_fn
        unread.pop(id(t), None)
        t.__dict__.pop('_stale_hooks', None)
        if t._retains_grad and isinstance(old, Node) and old._retain:   # (its retain_grad moves only now)
            nr = next((k for k, ref in old._retain.items() if ref() is t), None)
            if nr is not None:
                t._grad_fn._retained()[t._output_nr] = old._retain.pop(nr)


def read_inputs(inputs):
    """An op records a node over these inputs: PyTorch reads the grad_fn of each (while `unread` is not empty)."""
    for t in inputs:
        if t is not None and id(t) in unread:
            read_grad_fn(t)


def record(out, cls, inputs, saved=None, same=False):
    """A new `cls` node over `inputs` (tensors or None), saving `saved` ({name: value}); the grad_fn of tensor
    `out`, or, with out None, a node for the caller to attach. same=True: the caller knows every input has the
    output's shape and dtype (pointwise ops), so the node keeps no input metadata. Returns the node.
    This runs once per recorded op: every line counts."""
    if inference_saved:
        refuse_inference_saved(saved)
    if unread:
        read_inputs(inputs)
    if fw_pending:
        fw_flush()
    node = _new(cls)
    # The next node of each input (None for a None input or one that needs no gradient): edge(t), inlined and
    # unrolled for the usual one or two inputs (a Python number operand comes as None). An input that is not
    # output 0 of its node (rare) makes the node keep the output numbers too.
    n = len(inputs)
    if n == 2:
        a, b = inputs
        node._fns = (None if a is None else a._grad_fn or a._grad_accumulator(),
                     None if b is None else b._grad_fn or b._grad_accumulator())
        node._nrs = _output_nrs(inputs) if a is not None and a._output_nr or b is not None and b._output_nr else None
    elif n == 1:
        a = inputs[0]
        node._fns = (None if a is None else a._grad_fn or a._grad_accumulator(),)
        node._nrs = _output_nrs(inputs) if a is not None and a._output_nr else None
    else:
        node._fns = tuple([None if t is None else t._grad_fn or t._grad_accumulator() for t in inputs])
        node._nrs = _output_nrs(inputs) if any(t is not None and t._output_nr for t in inputs) else None
    node._saved = saved
    node._seq = next(_sequence)
    node._freed = False
    if anomaly:
        keep_stack(node)
    node._meta = None if same else _input_meta(inputs, None if out is None else out._data)
    if out is not None:
        out._grad_fn = node
        out._requires_grad = True
        node._out0 = out._data.shape, out._data.dtype       # (what `_input_metadata` tells of its gradient)
    if saved:
        if cls not in _described:
            _describe(cls, saved)
        if out is not None and 'result' in saved and saved['result'] is RESULT:
            saved['result'] = SavedTensor(out, is_output=True)
        if saved_hooks:
            pack_saved(saved, node)
            node._hooked = node._watched = True
    if fw_level is not None and out is not None:
        fw_record(node, inputs, (out,))
    return node


fw_level = None            # forward AD: the dual level entered (0), or None
fw_pending = []            # forward AD: (node, inputs, outputs) of recorded ops whose tangents are still to come


def fw_record(node, inputs, outs):
    """Forward AD: the tangents of a node's outputs (see _forward_ad), now; for an op that finishes its node after
    record (an attribute or saved value set then) or gives several outputs, once it has returned (fw_flush)."""
    from ._forward_ad import propagate
    if fw_pending:
        fw_flush()
    try:
        propagate(node, inputs, outs)
    except (AttributeError, TypeError, KeyError):
        fw_pending.append((node, inputs, outs))


def fw_outputs(node, inputs, outs):
    """Forward AD: the outputs of a node with several, which its op sets after record: their tangents once the op
    has returned (fw_flush)."""
    if fw_level is not None:
        fw_pending.append((node, tuple(inputs), tuple(outs)))


def fw_flush(strict=False):
    """Forward AD: the tangents of the ops still waiting for them (fw_record), before anything reads them. An op
    still finishing its node (reading a grad_fn before it has set the node up) keeps waiting, unless strict."""
    from ._forward_ad import propagate
    pending = fw_pending[:]
    fw_pending.clear()
    for node, inputs, outs in pending:
        try:
            propagate(node, inputs, outs)
        except (AttributeError, TypeError, KeyError):
            if strict:
                raise
            fw_pending.append((node, inputs, outs))


_running = None            # anomaly mode: the node backward runs (a node its formula records has it as parent)


def keep_stack(node):
    """Anomaly mode: the node's metadata keeps the stack of the forward call that made it, as PyTorch's
    traceback.format_stack() lines (without the engine's frames: PyTorch's ops are C++), and the node whose backward
    made it, if any."""
    meta = node.metadata
    frames = traceback.extract_stack()
    # (in the playground, the program's stack starts after the runner's frame, as it would in a process of its own)
    start = max((i for i, f in enumerate(frames) if f.filename == _RUNNER), default=-1) + 1
    meta['traceback_'] = traceback.format_list([f for f in frames[start:] if not f.filename.startswith(_ENGINE_DIR)])
    if _running is not None:
        meta['parent_'] = _running


def _warn_forward_stack(node):
    """Anomaly mode, backward failing in `node`: PyTorch's warning showing the forward call that made the node,
    then one per node whose backward made the one before (create_graph)."""
    cause = 'Error detected in %s. ' % node.name()
    while node is not None:
        meta = node.metadata
        stack = meta.get('traceback_')
        if stack is None:
            torch_warn('Error detected in %s. No forward pass information available. Enable detect anomaly during '
                       'forward pass for more information.' % node.name(),
                       'torch/csrc/autograd/python_anomaly_mode.cpp:100')
        elif cause:
            torch_warn(cause + 'Traceback of forward call that caused the error:\n' + ''.join(stack),
                       'torch/csrc/autograd/python_anomaly_mode.cpp:122')
        else:
            torch_warn('\n\nPrevious calculation was induced by %s. Traceback of forward call that induced the '
                       'previous calculation:\n%s' % (node.name(), ''.join(stack)),
                       'torch/csrc/autograd/python_anomaly_mode.cpp:129')
        cause = None
        node = meta.get('parent_')


def _apply_watched(node, grads):
    """A node's formula run in anomaly mode: the nodes it records (create_graph) get it as their parent, and if it
    fails, PyTorch's warning shows where it came from."""
    global _running
    running, _running = _running, node
    try:
        return node.apply(*grads) if any(g is not None for g in grads) else node._apply_nones()
    except Exception as err:
        if not getattr(err, 'autograd_anomaly_shown', False):
            err.autograd_anomaly_shown = True
            _warn_forward_stack(node)
        raise
    finally:
        _running = running


def _check_nan(node, outs):
    """Anomaly mode's check_nan: PyTorch's error for a node that returned nan (after its warning)."""
    for i, g in enumerate(outs):
        if g is not None and g._data.dtype.kind in 'fc' and (g._data != g._data).any():
            _warn_forward_stack(node)
            err = RuntimeError("Function '%s' returned nan values in its %dth output." % (node.name(), i))
            err.autograd_node = node
            err.autograd_anomaly_shown = True
            raise err


def _output_nrs(inputs):
    return tuple(0 if t is None or t._grad_fn is None else t._output_nr for t in inputs)


def retype(node, cls):
    """Make node a `cls`: the same formula under the other name PyTorch gives it (an in-place view op records
    TBackward1 where the view op records TBackward0)."""
    node.__class__ = cls
    if node._saved and cls not in _described:
        _describe(cls, node._saved)


def _input_meta(inputs, out):
    """(shape, dtype) of each input whose shape or dtype differs from the output array `out` (of every input when
    out is None), None for the others; None if no input differs."""
    meta = [None if t is None or (out is not None and t._data.shape == out.shape and t._data.dtype is out.dtype)
            else (t._data.shape, t._data.dtype) for t in inputs]
    return meta if any(meta) else None


class builtin_function_or_method(functools.partial):
    """A method PyTorch writes in C++, bound to its object (a partial: calling it costs no Python frame): printed
    `<built-in method sum of Tensor object at 0x...>`, `<built-in method name of MulBackward0 object at 0x...>`.
    Its type prints as Python's, `<class 'builtin_function_or_method'>`."""
    __slots__ = ()
    __module__ = 'builtins'

    def __repr__(self):
        obj = self.args[0]
        return '<built-in method %s of %s object at %#x>' % (self.__name__, type(obj).__name__, id(obj))

    @property
    def __self__(self):
        return self.args[0]


class _method_of_class(functools.partial):
    """Such a method read from the class: `MulBackward0.name` is `<method 'name' of 'MulBackward0' objects>`."""
    __slots__ = ()

    def __repr__(self):
        return "<method '%s' of '%s' objects>" % (self.__name__, self.owner)


class _CMethod:
    """A node's method that PyTorch's nodes have in C++ (see _C_METHODS): bound, a builtin_function_or_method."""
    __slots__ = ('fn', '__name__')

    def __init__(self, fn):
        self.fn, self.__name__ = _c_arguments(fn), fn.__name__

    def __get__(self, obj, cls=None):
        bound = _method_of_class(self.fn) if obj is None else builtin_function_or_method(self.fn, obj)
        bound.__name__ = self.__name__
        owner = (cls._c_type or cls.__name__) if obj is None else type(obj).__name__
        bound.__qualname__ = '%s.%s' % (owner, self.__name__)
        if obj is None:
            bound.owner = owner
        return bound


def _c_arguments(fn):
    """fn taking its arguments as PyTorch's C method does: none (name, _sequence_nr) or exactly one, never by
    keyword; its errors name the C type the method belongs to (a custom Function's node: _FunctionBase)."""
    n = fn.__code__.co_argcount - 1

    def method(obj, *args, **kwargs):
        if kwargs or len(args) != n:
            owner = (obj._c_type or type(obj).__name__).rsplit('.', 1)[-1]
            takes = ('no keyword arguments' if kwargs else
                     '%s (%d given)' % ('no arguments' if n == 0 else 'exactly one argument', len(args)))
            raise TypeError('%s.%s() takes %s' % (owner, fn.__name__, takes))
        return fn(obj, *args)
    return method


_C_METHODS = ('name', 'register_hook', 'register_prehook', '_register_hook_dict', '_sequence_nr', '_set_sequence_nr')


class Node:
    """A function of the backward graph (a grad_fn); subclasses are named as PyTorch names them.

    Its edges are kept as `_fns`, a tuple of the next nodes (None where no gradient flows), and `_nrs`, which of
    their outputs each edge leads to (None when all lead to output 0, nearly always): one object per node rather
    than one per edge. They read as PyTorch's `next_functions`, pairs of (node, input_nr).

    What backward reads of every node is a slot set at creation (also when None: reading a slot is fast, reading a
    class-level default is not); what most nodes lack (hooks, retain_grad) is a class-level default that the few
    nodes needing it override: a node is made per recorded op, and each attribute set on a class with many
    subclasses is a slow, unspecialised store."""
    # Slots, set when a node is made: _fns and _nrs (above), _meta ((shape, dtype) per input whose gradient may need
    # reducing or casting, or None: see record), _saved ({name: value}), _seq (creation number), _freed.
    __slots__ = ('_fns', '_nrs', '_meta', '_saved', '_seq', '_freed', '_out0', '__dict__', '__weakref__')
    num_outputs = 1
    _pre_hooks = None     # {output nr or None (node pre-hooks): {handle id: hook}}
    _hooks = None         # {handle id: hook} run after the node
    _retain = None        # {output nr: weakref to the tensor that retains its grad}
    _hooked = False       # saved its tensors through saved_tensors_hooks (unpacked once per run)
    _watched = False      # any of the four above was set (backward then looks at them)
    stale_meta = None     # {output nr: (shape, numpy dtype)} of outputs whose .data got another shape or dtype since
    # The node's formula gives every input's gradient, also one that backward does not need (PyTorch's formulas over
    # a list of tensors: cat, stack, block_diag, when it needs one of them; a custom Function's backward, always);
    # other nodes leave those None (the node's post-hooks see the difference).
    _all_grads = False
    _python_backward = False    # a custom Function's node
    # Saved names that PyTorch saves as tensors even when the op got a Python number (`x * 2` saves `other` as a
    # 0-d "wrapped number" tensor): kept here as the number, shown as that tensor, freed with the graph.
    _variables = ()

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        if cls.__module__.startswith('engine'):     # PyTorch's nodes are C++ classes: type(y.grad_fn) shows
            cls.__module__ = 'builtins'             # <class 'MulBackward0'>
        cls.__doc__ = None                          # (and have no docstring: the engine's are for its readers)
        _c_methods(cls)

    _c_type = None        # the C++ type PyTorch names in "not writable" errors, when not the node's class

    def __reduce_ex__(self, protocol):
        """(pickle, copy.copy and copy.deepcopy refuse a node, a C++ object without pickling in PyTorch)"""
        raise TypeError("cannot pickle '%s' object" % type(self).__name__)

    @_ReadOnly
    def next_functions(self):
        return tuple(zip(self._fns, self._nrs or (0,) * len(self._fns)))

    def _set_edges(self, edges):
        """The engine's own rewiring of next_functions (pairs of node and input nr)."""
        self._fns = tuple(fn for fn, _ in edges)
        self._nrs = tuple(nr for _, nr in edges) if any(nr for _, nr in edges) else None

    @_ReadOnly
    def requires_grad(self):
        return True           # (a node exists only where a gradient is needed)

    @_ReadOnly
    def _input_metadata(self):
        """One InputMetadata per gradient the node receives."""
        return tuple(InputMetadata(m) for m in self._out_metadata())

    def _out_metadata(self):
        """(shape, numpy dtype) of each output, where known: output 0 of a node recorded with its output, or of one
        whose inputs all have its output's shape and dtype (no input metadata: see record), that of its input."""
        node, first = self, None
        while first is None:
            try:
                first = node._out0
            except AttributeError:
                i = next((i for i, f in enumerate(node._fns or ()) if f is not None), None)
                if node._meta is not None or i is None or node._nrs is not None and node._nrs[i]:
                    break
                node = node._fns[i]
                if type(node) is AccumulateGrad:
                    first = node._out_metadata()[0]
        return (first,) + (None,) * (self.num_outputs - 1)

    def _sequence_nr(self):
        """The node's creation number (backward runs later nodes first); UINT64_MAX for AccumulateGrad."""
        return self._seq if self._seq != _INF else 2 ** 64 - 1

    def _set_sequence_nr(self, nr):
        if not isinstance(nr, int) or isinstance(nr, bool):
            raise TypeError('an integer is required')
        if nr < 0:
            raise OverflowError("can't convert negative int to unsigned")
        self._seq = nr

    def _register_hook_dict(self, tensor):
        """PyTorch's Tensor.register_hook wires the tensor's hook dict here; the engine's tensor hooks need not."""
        if not hasattr(tensor, '_data'):
            raise TypeError('_register_hook_dict expected a variable')

    def name(self):
        return type(self).__name__

    def __repr__(self):
        return '<%s object at %#x>' % (type(self).__name__, id(self))

    def needs(self, i):
        """Whether input i needs a gradient (PyTorch's needs_input_grad)."""
        return self._fns[i] is not None

    def saved(self, name):
        """Unpack a saved value for backward: the tensor (version-checked) or the Python value. Every saved tensor
        is checked with it, as PyTorch's apply unpacks all of them before any formula (see _unpack_all)."""
        v = self._saved[name]
        if type(v) is SavedTensor:
            self._unpack_all()
            return self._tensor_of(v)
        if type(v) is SavedList:
            return v.unpack(self, name)
        if self._freed and name in self._variables:
            raise _freed_error(self, name)
        return v

    def saved_pair(self, a, b):
        """(saved(a), saved(b)), every saved variable checked once rather than twice (an apply reading two)."""
        self._unpack_all()
        saved = self._saved
        x, y = saved[a], saved[b]
        return (self._tensor_of(x) if type(x) is SavedTensor else x.unpack(self, a) if type(x) is SavedList else x,
                self._tensor_of(y) if type(y) is SavedTensor else y.unpack(self, b) if type(y) is SavedList else y)

    def _tensor_of(self, v):
        """The tensor of a checked SavedTensor (a saved output takes part in a double backward through this very
        node)."""
        t = v.tensor if v.unpack_hook is None else v.unpacked
        return _alias_output(t, self) if v.is_output and grad_enabled else t

    def _unpack_all(self):
        """Check every saved variable as PyTorch's apply does before any formula: one modified in place or freed
        is an error even where the gradients asked for would not read it. An apply that may return without
        calling saved() calls this itself. PyTorch unpacks the saved inputs in the order of their names, then the
        saved outputs, so when several fail, the error is the one of the first (`other` before `self`, `self`
        before `result`)."""
        try:                              # (through unpack hooks, which may print: in PyTorch's order at once)
            self._check_saved(_in_pack_order(self._saved) if self._hooked else self._saved.items())
            return
        except RuntimeError as err:
            if self._hooked:              # (already in PyTorch's order; a hook is not to be run again)
                raise
            first = err
        # (outside the except clause, so that the error raised is PyTorch's one, not one raised while handling another)
        self._check_saved(sorted(self._saved.items(), key=lambda item: (
            type(item[1]) is SavedTensor and item[1].is_output, item[0])))
        raise first

    def _forget_unpacked(self):
        """A new run of the node unpacks its hooked saved tensors again (as each backward pass does)."""
        for v in self._saved.values():
            if type(v) is SavedTensor and v.unpack_hook is not None:
                v.unpacked = None

    def _check_saved(self, items):
        freed = self._freed
        for name, v in items:
            if type(v) is SavedTensor:
                if v.unpack_hook is None:
                    v.check(self, name)
                elif v.unpacked is None:          # (unpacked once per run of the node, as PyTorch's apply does)
                    v.unpacked = v.check(self, name)
            elif type(v) is SavedList:
                v.unpack(self, name)
            elif freed and v is not None and name in self._variables:
                raise _freed_error(self, name)

    def apply(self, *grads):
        raise NotImplementedError

    def _apply_nones(self):
        """The node run by backward with None for every gradient (a custom Function's backward or a node hook gave
        None): PyTorch's formulas unpack every saved variable first (one freed or modified in place is an error all
        the same), then give None to every input."""
        if self._saved:
            self._unpack_all()
        return (None,) * len(self._fns)

    def __call__(self, *grads, **kwargs):
        """Calling a node runs its formula alone (no hooks): one gradient per output, all None giving Nones."""
        if kwargs:
            raise TypeError('keyword arguments are not supported')
        if len(grads) != self.num_outputs:
            raise TypeError('expected %d arguments, got %d instead' % (self.num_outputs, len(grads)))
        for i, g in enumerate(grads):
            if g is not None and not hasattr(g, '_data'):
                raise TypeError('argument %d is not a Variable' % i)
        with set_grad_enabled(grad_mode):
            out = self.apply(*grads) if any(g is not None for g in grads) else (None,) * len(self._fns)
        if not self._all_grads:      # (an input that needs no gradient gets None, as from PyTorch's formulas)
            out = tuple(None if fn is None else g for g, fn in zip(out, self._fns))
        return out[0] if len(out) == 1 else out

    def _unpack(self, name):
        """`grad_fn._saved_<name>`: a saved tensor (an output comes back with this node as its grad_fn), a
        number PyTorch saves as a tensor, or a plain saved value."""
        if self._saved is not None and name in self._saved:
            v = self._saved[name]
            if type(v) is SavedTensor:
                t = v.check(self, name, accessor=True)
                return _alias_output(t, self) if v.is_output else t
            if type(v) is SavedList:
                return v.unpack(self, name)
            if v is not None and name in self._variables:
                if self._freed:
                    raise _freed_error(self, name)
                return _make_wrapped(v)
            return _plain(v)
        raise AttributeError("'%s' object has no attribute '_saved_%s'" % (type(self).__name__, name))

    def __dir__(self):
        """What dir() of a PyTorch node lists: its public methods, the dunders of a C++ object and its saved values
        (the engine's own helpers left out)."""
        saved = self._saved or ()
        names = {a for a in _NODE_DIR if hasattr(self, a)} | {'_saved_' + k for k in saved}
        return sorted(names | {'_raw_saved_' + k for k in saved if k in getattr(type(self), '_raw_names', ())})

    def register_hook(self, fn):
        """fn(grad_inputs, grad_outputs) runs after this node computed its gradients; it may return replacements
        for grad_inputs (checked as PyTorch checks them)."""
        if self._hooks is None:
            self._hooks = {}
            self._watched = True

        def checked(grad_inputs, grad_outputs):
            new = fn(grad_inputs, grad_outputs)
            if new is not None:
                _check_hook_result(fn, grad_inputs, new)
            return new
        return _Handle(self._hooks, checked)

    def register_prehook(self, fn):
        """fn(grad_outputs) runs before this node; it may return replacement gradients."""
        return _Handle(self._tensor_pre_hooks(None), fn)

    @_ReadOnly
    def metadata(self):
        return self.__dict__.setdefault('_metadata', {})

    def _retained(self):
        """{output nr: weakref to the tensor retaining its grad}, made on first need."""
        if self._retain is None:
            self._retain = {}
            self._watched = True
        return self._retain

    def _tensor_pre_hooks(self, nr):
        if self._pre_hooks is None:
            self._pre_hooks = {}
            self._watched = True
        return self._pre_hooks.setdefault(nr, OrderedDict())     # (a tensor's is its _backward_hooks)


def _c_methods(cls):
    """The methods in _C_METHODS that cls defines, made _CMethods."""
    for name in _C_METHODS:
        if inspect.isfunction(vars(cls).get(name)):
            setattr(cls, name, _CMethod(vars(cls)[name]))


_c_methods(Node)


NOT_GIVEN = object()         # RemovableHandle's fn when its caller adds the hook itself


class RemovableHandle:
    """What register_hook returns: .remove() takes the hook away."""
    __module__ = 'torch.utils.hooks'               # where PyTorch's class lives: its repr prints that path
    next_id = 0                                    # (every handle of the process numbered in order, as PyTorch's)
    extra = ()                                     # dicts keyed by handle id its removal clears too

    def __init__(self, hooks, fn=NOT_GIVEN, extra=()):
        """hooks: a dict {handle id: hook} (autograd's and modules' hooks, as PyTorch keeps them) or a list. Without
        fn, as PyTorch's RemovableHandle(hooks_dict) is called, the caller puts its hook at hooks[handle.id]. (A
        hook of None is registered as PyTorch registers it: calling it fails.) extra: PyTorch's extra_dict, the
        dicts a module marks its hooks' options in (_forward_hooks_with_kwargs...), cleared of the id on removal."""
        self.hooks, self.fn = hooks, fn
        if extra:
            self.extra = extra
        self.id = RemovableHandle.next_id
        RemovableHandle.next_id += 1
        if fn is NOT_GIVEN:
            return
        if isinstance(hooks, dict):
            hooks[self.id] = fn
        else:
            hooks.append(fn)

    def remove(self):
        if isinstance(self.hooks, dict):      # (this handle's own entry: the same function registered twice keeps
            self.hooks.pop(self.id, None)     # its other registrations where they were)
        elif self.fn in self.hooks:
            self.hooks.remove(self.fn)
        for d in self.extra:
            d.pop(self.id, None)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.remove()


_Handle = RemovableHandle


class Invalid(Node):
    """The grad_fn of a view whose history PyTorch cannot rebuild after its base (or another view of it) changed in
    place: a piece of split / chunk / unbind, a custom Function's view output. Reading it, using the view in an op
    (record() asks for its truth) or running backward through it raises PyTorch's error; printed, it is <Invalid>."""

    stored_leaf = False       # the view had no grad_fn before (PyTorch stores none: its .grad does not warn)

    def __bool__(self):
        raise RuntimeError(self.msg)

    def apply(self, *grads):
        raise RuntimeError(self.msg)


def invalid(msg, inplace_msg=None):
    """An Invalid node (no edges, nothing saved) that raises `msg`; modifying its view in place raises
    `inplace_msg` (PyTorch names the view's own op then, as before its base changed)."""
    node = _new(Invalid)
    node._fns, node._nrs, node._meta, node._saved, node._seq, node._freed = (), None, None, None, next(_sequence), False
    node.msg = msg
    node.inplace_msg = inplace_msg or msg
    return node


class AccumulateGrad(Node):
    """The sink of a leaf tensor that requires grad: adds incoming gradients into `variable.grad`."""
    __slots__ = ('variable',)

    _fns = ()                                     # (class-level: a leaf's node is made cheaply, once per graph)
    _nrs = _meta = _saved = None
    _freed = False
    _seq = _INF                                   # PyTorch runs AccumulateGrad as soon as it is ready

    def __init__(self, variable):
        self.variable = variable

    def name(self):
        return 'torch::autograd::AccumulateGrad'      # as PyTorch's C++ names it; the class name is the short one

    def _out_metadata(self):
        return ((self.variable._data.shape, self.variable._data.dtype),)

    def apply(self, g):
        """Called directly: the first gradient is copied into a new .grad of the leaf's shape, later ones are added
        (out of place in grad mode, else in place); then the post-accumulate hooks run. Returns ()."""
        var = self.variable
        if var._grad is None:
            var._grad = g.new_empty(var._data.shape).copy_(g)
        elif grad_mode:
            var._grad = var._grad + g
        else:
            var._grad.add_(g)
        if var._post_acc_hooks:
            _run_post_acc_hooks(var)
        return ()


def inference_inplace_error():
    raise RuntimeError('Inplace update to inference tensor outside InferenceMode is not allowed.You can make a clone '
                       'to get a normal tensor before doing inplace update.See https://github.com/pytorch/rfcs/pull/17 '
                       'for more details.')


def _run_post_acc_hooks(var):
    """A leaf's post-accumulate hooks see it after its .grad is updated. PyTorch runs them as it runs tensor hooks:
    a hook's result other than None or its argument must pass as a replacement of that tensor, and is what the
    next hooks get (a tensor without .grad, mostly); only after all of them ran is a replacement refused."""
    arg = var
    for hook in list(var._post_acc_hooks.values()):
        new = hook(arg)
        if new is not None and new is not arg:
            _check_replacement(hook, arg, new)
            arg = new
    if arg is not var:
        raise RuntimeError('Tensor post accumulate grad hooks should return None.')


# ---------------------------------------------------------------------------------------------- the engine

class Step:
    """One executed node of a backward pass, as the playground's stepper shows it."""
    __slots__ = ('node', 'grads_in', 'grads_out', 'variable', 'grad_before', 'grad_after', 'captured')

    def __init__(self, node, grads_in):
        self.node = node
        self.grads_in = grads_in
        self.grads_out = []
        self.variable = self.grad_before = self.grad_after = None
        self.captured = False


_recorder = None


def set_recorder(rec):
    """Let the playground watch every backward call: rec.begin(call, roots), rec.step(step), rec.end(error)."""
    global _recorder
    _recorder = rec


_HOOKED = object()      # _dependencies' key for "a leaf reached has hooks" (then the order of AccumulateGrads shows)


def _dependencies(root_nodes):
    """How many edges lead into each node reachable from the roots (iterative: deep graphs are fine); _HOOKED:
    True when a leaf reached has hooks."""
    deps = dict.fromkeys(root_nodes, 0)           # a node is seen once it has an entry
    stack = list(root_nodes)
    while stack:
        node = stack.pop()
        while node is not None:                   # down a chain without the stack (a list that empties and refills
            new = None                            # reallocates its memory each time): one new node is taken next
            for nxt in node._fns:
                if nxt is not None:
                    if nxt in deps:
                        deps[nxt] += 1
                    else:
                        deps[nxt] = 1
                        if type(nxt) is not AccumulateGrad:     # (a leaf's node leads nowhere)
                            if new is not None:
                                stack.append(new)
                            new = nxt
                        elif nxt._watched or nxt.variable._hooks is not None or (
                                nxt.variable._post_acc_hooks is not None):
                            deps[_HOOKED] = True
            node = new
    return deps


def _needed(root_nodes, targets):
    """The nodes from which some target node can be reached: the only ones autograd.grad has to run."""
    needed, seen = set(), set()
    for root in root_nodes:                        # (one walk per root: a root may lie below another one)
        if root in seen:
            continue
        seen.add(root)
        stack = [(root, iter(root._fns))]
        while stack:                               # iterative post-order: children are decided before parents
            node, it = stack[-1]
            for nxt in it:
                if nxt is not None and nxt not in seen:
                    seen.add(nxt)
                    stack.append((nxt, iter(nxt._fns)))
                    break
            else:
                stack.pop()
                if node in targets or any(n in needed for n in node._fns if n is not None):
                    needed.add(node)
    return needed


def _call_hook(hook, grad):
    """Run a tensor hook; a replacement must keep the gradient's size (and a None gradient, one a formula or a
    node hook gave as None, stays None)."""
    new = hook(grad)
    if new is None:
        return new
    if grad is None:
        raise RuntimeError("can't replace a None gradient with a non-None value")
    _check_replacement(hook, grad, new)
    return new


def _hook_name(hook):
    """How PyTorch's errors name a hook: its __name__ (a callable object or a functools.partial has none)."""
    return getattr(hook, '__name__', '<unknown>')


def _check_replacement(hook, grad, new):
    """PyTorch's checks of a gradient a hook returned in place of `grad`: a tensor of the same type and size."""
    if not hasattr(new, '_data'):
        from ._tensor import parser_type          # (its C type's name: numpy.ndarray)
        raise TypeError("expected Variable, but hook returned '%s'" % parser_type(new))
    name = _hook_name(hook)
    if new._data.dtype != grad._data.dtype:
        raise RuntimeError("hook '%s' has changed the type of value (was %s got %s)"
                           % (name, type_string(grad), type_string(new)))
    if new._data.shape != grad._data.shape:
        raise RuntimeError("hook '%s' has changed the size of value" % name)


def _check_hook_result(hook, grads, new):
    """PyTorch's checks of what a node hook returned in place of `grads`: a tuple as long, each item None or a
    valid replacement (a None gradient stays None)."""
    if not isinstance(new, tuple):
        from ._tensor import parser_type
        raise TypeError("expected tuple, but hook returned '%s'" % parser_type(new))
    if len(new) != len(grads):
        raise RuntimeError("hook '%s' has returned an incorrect number of values (got %d, but expected %d)"
                           % (_hook_name(hook), len(new), len(grads)))
    for g, n in zip(grads, new):
        if n is not None:
            if g is None:
                raise RuntimeError("can't replace a None gradient with a non-None value")
            _check_replacement(hook, g, n)


def _run_pre_hooks(node, grads, node_hooks=True):
    """Tensor hooks of non-leaf outputs, retain_grad, then (node_hooks) the node's pre-hooks, before it runs."""
    pre = {}
    if node._pre_hooks:
        for nr, hooks in node._pre_hooks.items():
            if nr is None:
                pre = hooks if node_hooks else {}
                continue
            for hook in list(hooks.values()):
                new = _call_hook(hook, grads[nr])
                if new is not None:
                    grads[nr] = new
    if node._retain:
        for nr, ref in node._retain.items():
            t = ref()
            if t is not None and grads[nr] is not None:
                # (a graph if create_graph; a contiguous clone, as PyTorch's retain_grad hook makes)
                t._grad = (grads[nr].clone(memory_format=_contiguous_format) if t._grad is None else
                           t._grad + grads[nr])
    for hook in list(pre.values()):
        new = hook(tuple(grads))
        if new is not None:
            _check_hook_result(hook, grads, new)
            grads[:] = list(new)


def _snapshot(t):
    """A detached copy of t's values (what the stepper shows as `.grad` before accumulation)."""
    return _make(t._data.copy())


def _accumulate_grad(node, grads, step, create_graph):
    """AccumulateGrad: the leaf's tensor hooks, then .grad += grad (a recorded step shows before and after).
    `grads` (the step's too) is the only reference backward keeps to the gradient received."""
    var = node.variable
    received = grads
    g = _leaf_hooks(var, grads[0])
    if node._watched and node._pre_hooks:
        grads = [g]
        _run_pre_hooks(node, grads)
        g = grads[0]
    if step is not None:
        before = var._grad
        step.variable = var
        step.grad_before = None if before is None else _snapshot(before)       # .grad is updated in place
    # (no gradient, or requires_grad set to False after the graph was made: PyTorch adds nothing; the hooks still
    # run)
    if var._requires_grad and g is not None:
        old = var._grad
        if old is None:
            want = var.__dict__.get('_grad_dtype')
            if want is not None and g.dtype is not want:      # a grad_dtype of its own: the new .grad has it
                g = g.to(want)
        # g is handed over if only these lists and g (and getrefcount's argument) refer to it: not a hook's
        held = 2 + (received[0] is g) + (grads is not received and grads[0] is g)
        handed_over = getrefcount(g) == held
        accumulate_into(var, g, create_graph, handed_over)
    if step is not None:
        step.grad_after = var._grad
    if var._post_acc_hooks:
        _run_post_acc_hooks(var)
    if node._watched and node._hooks:
        for hook in list(node._hooks.values()):
            hook((), (g,))


def _validated(node, outs):
    """A node's gradients as its inputs receive them: each fitted to its input's shape and dtype (validate_grad).
    In a pass with `inputs` (or autograd.grad) those of inputs it need not reach are None, as PyTorch's formulas
    compute only the gradients the pass needs (task_should_compute_output)."""
    needed = graph_tasks[-1][2]
    if needed is not None and not (node._all_grads and (node._python_backward or not needed.isdisjoint(node._fns))):
        outs = tuple(None if n is None or n not in needed else g for g, n in zip(outs, node._fns))
    metas = node._meta
    if metas is None:
        return outs
    return tuple(g if g is None or meta is None or (g._data.shape == meta[0] and g._data.dtype is meta[1])
                 else validate_grad(node, g, meta, i) for i, (g, meta) in enumerate(zip(outs, metas)))


def _fitted_to_stale(node, nxt, nr, g, i, given=None):
    """Gradient g (from output i of `node`, or root i when node is None) fitted to what input nr of `nxt` was when
    nxt was made: PyTorch checks every gradient against that (its input metadata), not against the tensor as it is
    after its .data got another shape or dtype. A leaf's gradient keeps the dtype node's formula gives it (`given`:
    node's record of that input; AccumulateGrad decides the dtype of .grad)."""
    meta = nxt.stale_meta and nxt.stale_meta.get(nr)
    if g is None or meta is None:
        return g
    if type(nxt) is AccumulateGrad:
        meta = (meta[0], given[1] if given else g._data.dtype)
    if g._data.shape == meta[0] and g._data.dtype is meta[1]:
        return g
    return validate_grad(node, g, meta, i)


def _fitted_outputs(node, outs, stale):
    """A node's gradients, each checked and fitted to what its input was when the node was made (PyTorch's
    validate_outputs, over all of them before any goes on)."""
    metas, nrs, fitted = node._meta, node._nrs, list(outs)
    for i, nxt in enumerate(node._fns):
        g = outs[i]
        if nxt is None or g is None:
            continue
        meta = metas and metas[i]
        nr = 0 if nrs is None else nrs[i]
        if stale and nxt.stale_meta is not None and nr in nxt.stale_meta:
            fitted[i] = _fitted_to_stale(node, nxt, nr, g, i, meta)    # (what nxt's input was)
        elif meta is not None:
            if g._data.shape != meta[0] or g._data.dtype is not meta[1]:
                fitted[i] = validate_grad(node, g, meta, i)
        elif stale:
            fitted[i] = _fitted_to_leaf(node, nxt, g, i)
    return tuple(fitted)


def _fitted_to_leaf(node, nxt, g, i):
    """Gradient g for a leaf (nxt: its AccumulateGrad), when a formula may have read a tensor whose .data got another
    shape or dtype since: checked and fitted to the leaf as PyTorch does to every gradient (the node may have kept
    no input metadata for it: see record)."""
    if type(nxt) is not AccumulateGrad:
        return g
    var = nxt.variable
    if g._data.shape == var._data.shape and g._data.dtype is var._data.dtype:
        return g
    return validate_grad(node, g, (var._data.shape, var._data.dtype), i)


def _fitted_to_output(node, outs, g_out):
    """A node's gradients for the inputs that have its output's dtype (no input metadata: see record), cast to it:
    an unpack hook may give back a tensor of another dtype (PyTorch casts to each input's dtype)."""
    from ._dtypes import FROM_NP
    metas = node._meta or (None,) * len(outs)
    d = g_out._data.dtype
    return tuple(g.to(FROM_NP[d]) if g is not None and meta is None and g._data.dtype is not d else g
                 for g, meta in zip(outs, metas))


def _leaf_hooks(var, g):
    """A leaf's tensor hooks, in order, on the gradient reaching it."""
    for hook in list((var._hooks or {}).values()):
        new = _call_hook(hook, g)
        if new is not None:
            g = new
    return g


def backward_steps(roots, grad_roots, retain_graph=False, create_graph=False, inputs=None, capture=None,
                   record=True):
    """Run backward from `roots` (tensors) seeded with `grad_roots`, yielding once per executed node.

    A node runs once every consumer has delivered its gradient; among ready nodes AccumulateGrad runs first (in
    the order PyTorch's heap gives ties), then the most recently created node (PyTorch's ready queue). With `inputs`
    (edges), only nodes leading to them run and only those leaves accumulate. With `capture` (a dict {edge: None})
    the gradients reaching those edges are stored there instead of accumulated (torch.autograd.grad). With
    `record`, it yields a Step per node (the node, the gradients it received and sent, .grad before and after)
    for the stepper; without, it runs to the end on the first next() and builds nothing it would not need.
    """
    root_edges = [edge(t) for t in roots]
    stale = stale_meta
    if stale:
        grad_roots = [g if fn is None else _fitted_to_stale(None, fn, nr, g, i)
                      for i, ((fn, nr), g) in enumerate(zip(root_edges, grad_roots))]
    root_nodes = list(dict.fromkeys(fn for fn, _ in root_edges))
    deps = _dependencies(root_nodes)
    needed = _needed(root_nodes, {fn for fn, _ in inputs}) if inputs is not None else None
    buffers = {}                                   # gradients of nodes still waiting for some consumer
    for (fn, nr), g in zip(root_edges, grad_roots):
        _add_to(buffers.setdefault(fn, [None] * fn.num_outputs), nr, g)
    # PyTorch's ready queue is a std::priority_queue of nodes by sequence number (every AccumulateGrad's the
    # highest). libstdc++'s heap moves entries exactly as heapq's does, so ties (AccumulateGrads) come out in the
    # same order: the heap holds each ready node's -number (for an AccumulateGrad a float -inf of its own: equal
    # to the others, a distinct object), `waiting` the (node, grads) under that object's id.
    # Where nothing can tell in which order leaves accumulate (no stepper, no hooks on them), the ready
    # AccumulateGrads wait in a plain first-come queue instead, run before the heap's nodes all the same.
    ready, waiting = [], {}
    push, pop = heapq.heappush, heapq.heappop
    sinks = None if record or deps.pop(_HOOKED, False) else deque()
    for fn in root_nodes:
        if not deps.get(fn):
            if sinks is not None and type(fn) is AccumulateGrad:
                sinks.append((fn, buffers.pop(fn)))
            else:
                key = -fn._seq
                push(ready, key)
                waiting[id(key)] = fn, buffers.pop(fn)
    # nobody watches the order of the steps (nor, as anomaly mode does, which node an error comes from)
    plain = not record and capture is None and needed is None and not anomaly
    prev_mode = grad_mode
    _set_grad_enabled(create_graph)                # backward formulas record a graph only for create_graph
    task = next(_task_ids)
    graph_tasks.append((task, deps, needed, capture is not None, roots))
    node = None
    try:
        lone = None             # the one node made ready by the last one while none was waiting: run next as it is
        fresh = []              # the nodes the running one makes ready, in the order of its edges
        while True:
            if sinks:
                node, grads = sinks.popleft()
            elif lone is not None:
                node, grads = lone
                lone = None
            elif ready:
                node, grads = waiting.pop(id(pop(ready)))
            else:
                break
            if needed is not None and node not in needed:
                continue
            step = Step(node, grads) if record else None
            watched = node._watched
            if capture is not None and _capture(node, grads, capture, step, needed):
                if record:
                    yield step
                continue
            if type(node) is AccumulateGrad:
                # (a None gradient, a custom Function's for an input, still runs the leaf's hooks, as in PyTorch)
                if capture is None:
                    var = node.variable
                    if step is None and not watched and var._hooks is None and var._post_acc_hooks is None:
                        if grads[0] is None:
                            continue
                        g = grads[0]
                        grads = buf = outs = None          # so that the references to g can be counted
                        handed_over = getrefcount(g) == 2   # 2: g and getrefcount's argument
                        accumulate_into(var, g, create_graph, handed_over)
                    else:
                        g = buf = outs = None               # (see _accumulate_grad)
                        _accumulate_grad(node, grads, step, create_graph)
                if record:
                    yield step
                continue
            if watched:
                if node._pre_hooks is not None or node._retain is not None:
                    _run_pre_hooks(node, grads)
                if node._hooked:
                    node._forget_unpacked()
            try:
                if anomaly:
                    outs = _apply_watched(node, grads)
                elif len(grads) == 1:              # (a direct call: faster than apply(*grads))
                    g = grads[0]
                    outs = node._apply_nones() if g is None else node.apply(g)
                elif all(g is None for g in grads):
                    outs = node._apply_nones()
                else:
                    outs = node.apply(*grads)
            except Exception as err:
                if getattr(err, 'autograd_node', None) is None:
                    err.autograd_node = node
                raise
            if watched and node._hooked and len(grads) == 1 and grads[0] is not None:
                outs = _fitted_to_output(node, outs, grads[0])
            if watched and node._hooks:
                outs = _validated(node, outs)      # (PyTorch's post-hooks see the gradients fitted to the inputs)
                for hook in list(node._hooks.values()):
                    new = hook((*outs,), tuple(grads))     # (tuples of their own: a hook may keep them)
                    if new is not None:
                        outs = (*new,)
            if node._meta is not None or stale:
                outs = _fitted_outputs(node, outs, stale)   # (PyTorch's validate_outputs: before the release)
            if not retain_graph:                   # its saved tensors are released (before its outputs are checked
                node._freed = True                 # for nan, or its gradients go on: an error then leaves it freed,
                if 'fn' in node.__dict__:          # as in PyTorch; and CopySlices lets go of the op's node)
                    node.fn = None
            if anomaly and anomaly_check_nan:
                _check_nan(node, outs)
            nrs = node._nrs
            i = -1
            for nxt in node._fns:
                i += 1
                if nxt is None:
                    continue
                g = outs[i]
                nr = 0 if nrs is None else nrs[i]
                if step is not None:
                    step.grads_out.append((nxt, nr, g))
                left = deps[nxt] - 1
                if left:                           # more consumers of nxt to come: keep the gradient
                    deps[nxt] = left
                    buf = buffers.get(nxt)
                    if buf is None:
                        buf = buffers[nxt] = [None] * nxt.num_outputs
                    _add_to(buf, nr, g, outs, step)
                    continue
                buf = buffers.pop(nxt, None) if buffers else None     # nxt's last consumer: nxt is ready
                if type(nxt) is AccumulateGrad:
                    if buf is None:
                        var = nxt.variable
                        if (plain and g is not None and var._grad is not None and var._hooks is None
                                and var._post_acc_hooks is None and not nxt._watched):
                            accumulate_into(var, g, create_graph)     # a leaf's only gradient: added at once
                            continue
                        buf = [g]
                    else:
                        _add_to(buf, 0, g, outs, step)
                    if sinks is not None:
                        sinks.append((nxt, buf))
                    else:
                        fresh.append((nxt, buf))
                    continue
                if buf is not None:
                    _add_to(buf, nr, g, outs, step)
                elif nr == 0 and nxt.num_outputs == 1:
                    buf = [g]
                else:
                    buf = [None] * nxt.num_outputs
                    buf[nr] = g
                fresh.append((nxt, buf))
            if fresh:
                if len(fresh) == 1 and not ready:       # (pushed and popped at once: the queue stays as it was)
                    lone = fresh[0]
                else:
                    for entry in fresh:
                        key = -entry[0]._seq
                        push(ready, key)
                        waiting[id(key)] = entry
                fresh = []
            if record:
                yield step
        callbacks = final_callbacks.get(task)     # (queued by the hooks: run once the graph is done, in the pass)
        while callbacks:
            callbacks.pop(0)()
    except Exception as err:
        # In anomaly mode PyTorch's engine shows where the node came from whatever failed while it ran: its formula,
        # and also its hooks (a leaf's hooks in its AccumulateGrad), its outputs' checks and their sums
        if anomaly and node is not None and not getattr(err, 'autograd_anomaly_shown', False):
            err.autograd_anomaly_shown = True
            _warn_forward_stack(node)
        raise
    finally:
        graph_tasks.pop()
        final_callbacks.pop(task, None)
        _set_grad_enabled(prev_mode)


# The backward passes running: (id, the nodes reachable, those needed or None, whether it is autograd.grad's
# (gradients captured, not accumulated), its roots)
graph_tasks = []
_task_ids = itertools.count()
final_callbacks = {}        # pass id -> what Variable._execution_engine.queue_callback gave during it


class _EngineBase:
    """Variable._execution_engine: lets a hook queue a callable to run when the backward pass it runs in ends."""
    __module__ = 'torch._C'

    def queue_callback(self, callback):
        if not graph_tasks:
            raise RuntimeError('Final callbacks can only be installed during backward pass.')
        final_callbacks.setdefault(graph_tasks[-1][0], []).append(callback)

    def is_checkpoint_valid(self):
        """False inside a pass that runs only toward some inputs (autograd.grad, backward(inputs=...))."""
        return all(needed is None for _, _, needed, _, _ in graph_tasks)


def will_execute(node):
    """Whether the innermost running backward pass will run `node` (torch._C._will_engine_execute_node)."""
    _, reachable, needed, capturing, roots = graph_tasks[-1]
    if len(roots) == 1 and node is edge(roots[0])[0]:
        return False        # (PyTorch's lone root is the pass's start, not one of the nodes in its graph)
    if needed is None:
        return node in reachable
    if node not in needed:
        return False
    if type(node) is AccumulateGrad and capturing:     # (asked only about a leaf the pass captures)
        raise RuntimeError('A leaf node was passed to _will_engine_execute_node but we are currently running '
                           'autograd.grad(). This is currently not supported.')
    return True


def _add_to(buf, nr, g, outs=(), step=None):
    """Add gradient g for output nr into a node's input buffer. The gradients of the node that sent g (`outs`) and
    its recorded step may refer to the one already there too (see add_grads)."""
    if g is not None:
        old = buf[nr]
        if old is None:
            buf[nr] = g
            return
        if step is not None:        # (what the step shows as sent: a copy, as add_grads may add to it in place)
            step.grads_out[:] = [(n, r, _snapshot(t) if t is old else t) for n, r, t in step.grads_out]
        held = 4 + sum(o is old for o in outs)      # 4: buf, old, add_grads' argument and getrefcount's
        buf[nr] = add_grads(old, g, held)


def _capture(node, grads, capture, step, needed):
    """For autograd.grad: store the gradients arriving at requested inputs; True if the node need not run. As in
    PyTorch, a node that need not run has its tensor hooks (a leaf's, or a non-leaf's and retain_grad) run before
    its gradients are captured; one that runs has them run after."""
    hit = [nr for nr in range(len(grads)) if (node, nr) in capture]
    if not hit:
        return False
    runs = type(node) is not AccumulateGrad and any(n in needed for n in node._fns if n is not None)
    if not runs:
        if type(node) is AccumulateGrad:
            grads[0] = _leaf_hooks(node.variable, grads[0])
        elif node._watched:
            _run_pre_hooks(node, grads, node_hooks=False)
    for nr in hit:
        capture[(node, nr)] = grads[nr]
    if step is not None:
        step.captured = True
    return not runs


def _unneeded_root(root, grad, inputs, create_graph, capturing):
    """A pass from one root with `inputs` none of which it leads to runs nothing, but PyTorch hands that lone root
    its gradient all the same (it is the graph's root node, not below a GraphRoot): its tensor hooks and retain_grad
    run (a leaf root's own hooks), not its node hooks. (Rare: only a root with hooks is looked at.)"""
    fn, nr = edge(root)
    if fn is None or not (fn.variable._hooks if type(fn) is AccumulateGrad else fn._watched):
        return
    if fn in _needed([fn], {f for f, _ in inputs}):
        return
    prev_mode = grad_mode
    _set_grad_enabled(create_graph)                # (as in the pass: hooks record a graph only for create_graph)
    graph_tasks.append((next(_task_ids), {}, set(), capturing, (root,)))      # (the pass the hooks see: no node runs)
    try:
        if type(fn) is AccumulateGrad:
            _leaf_hooks(fn.variable, grad)
        else:
            grads = [None] * fn.num_outputs
            grads[nr] = grad
            _run_pre_hooks(fn, grads, node_hooks=False)
    finally:
        graph_tasks.pop()
        _set_grad_enabled(prev_mode)


def run_backward(call, roots, grad_roots, retain_graph, create_graph, inputs=None, capture=None):
    """Drain backward_steps (what .backward() and autograd.grad do), telling the recorder if one is set."""
    if inputs is not None and len(roots) == 1:
        _unneeded_root(roots[0], grad_roots[0], inputs, create_graph, capture is not None)
    rec = _recorder
    steps = backward_steps(roots, grad_roots, retain_graph, create_graph, inputs, capture, record=rec is not None)
    if rec is None:
        # The pass allocates only short-lived objects: a garbage collection in it would walk the live graph for
        # nothing (PyTorch's graph is C++, outside Python's collector). Nothing runs between steps here.
        collecting = gc.isenabled()
        gc.disable()
        try:
            for _ in steps:
                pass
        finally:
            if collecting:
                gc.enable()
        return
    rec.begin(call, roots)
    try:
        for step in steps:
            rec.step(step)
            step = None             # (the engine counts the references to a gradient: a leaf's may take it)
    except BaseException as err:
        rec.end(err)
        raise
    rec.end(None)
