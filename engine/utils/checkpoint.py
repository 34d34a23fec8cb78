"""torch.utils.checkpoint: activation checkpointing. A checkpointed function keeps none of its intermediate tensors
for backward; backward runs it again to get them.

use_reentrant=True (the default, with a warning): the forward runs in no-grad mode inside a custom Function
(CheckpointFunctionBackward); its backward runs the function again with grad on and backward()s through that.
use_reentrant=False: the inputs are saved (as an op saves them), the forward records its graph as usual, under
saved_tensors_hooks whose pack keeps a place holder per saved tensor; the first unpack of a backward pass runs the
function again under hooks that fill the holders (stopping once every one is filled, as PyTorch's early stop) and
checks that it saved the same tensors, and each unpack hands its tensor over once. Checkpoints nest.
Both replay the forward's random number generator state (preserve_rng_state), so dropout drops the same elements.
"""
import warnings
import weakref

from .. import _autograd as ag
from .._factories import get_rng_state, set_rng_state
from .._function import Function
from .._saved_hooks import saved_tensors_hooks
from .._tensor import Tensor

__all__ = ['checkpoint', 'checkpoint_sequential', 'CheckpointError', 'CheckpointFunction', 'detach_variable',
           'check_backward_validity', 'set_checkpoint_early_stop', 'set_checkpoint_debug_enabled', 'noop_context_fn']

_DEBUG_TIP = """
Tip: To see a more detailed error message, either pass `debug=True` to
`torch.utils.checkpoint.checkpoint(...)` or wrap the code block
with `with torch.utils.checkpoint.set_checkpoint_debug_enabled(True):` to
enable checkpoint\u2011debug mode globally.

If this error occurs under torch.compile with automatic_dynamic_shapes enabled,
it may be because the recomputation selected a different compiled graph than the
forward pass (e.g., a dynamic graph instead of the original static graph).
To fix this, either:
  - Use torch._dynamo.mark_dynamic() to explicitly mark varying dimensions as
    dynamic upfront, avoiding the static-to-dynamic transition.
  - Call torch._C._dynamo.eval_frame._set_lru_cache(False) to disable LRU cache
    reordering, which can change which graph is checked first between forward
    and recompute.
See https://github.com/pytorch/pytorch/issues/166926 for more details and
workaround examples.
"""


class CheckpointError(RuntimeError):
    pass


def detach_variable(inputs):
    """The tensors of the tuple `inputs` detached, each requiring grad as before; other items as they are."""
    if not isinstance(inputs, tuple):
        raise RuntimeError('Only tuple of tensors is supported. Got Unsupported input type: '
                           + type(inputs).__name__)
    out = []
    for inp in inputs:
        if isinstance(inp, Tensor):
            x = inp.detach()
            x.requires_grad = inp.requires_grad
            inp = x
        out.append(inp)
    return tuple(out)


def check_backward_validity(inputs):
    if not any(inp.requires_grad for inp in inputs if isinstance(inp, Tensor)):
        warnings.warn('None of the inputs have requires_grad=True. Gradients will be None', stacklevel=2)


class _ReplayedRng:
    """Inside it the random number generator is in the state `state` (None: left alone); restored on exit."""

    def __init__(self, state):
        self.state = state

    def __enter__(self):
        if self.state is not None:
            self.outside = get_rng_state()
            set_rng_state(self.state)

    def __exit__(self, *exc):
        if self.state is not None:
            set_rng_state(self.outside)


class CheckpointFunction(Function):
    @staticmethod
    def forward(ctx, run_function, preserve_rng_state, *args):
        check_backward_validity(args)
        ctx.run_function, ctx.preserve_rng_state = run_function, preserve_rng_state
        ctx.fwd_cpu_state = get_rng_state() if preserve_rng_state else None
        ctx.inputs = [None if isinstance(arg, Tensor) else arg for arg in args]       # (tensors: saved below)
        ctx.tensor_indices = [i for i, arg in enumerate(args) if isinstance(arg, Tensor)]
        ctx.save_for_backward(*(arg for arg in args if isinstance(arg, Tensor)))
        with ag.no_grad():
            return run_function(*args)

    @staticmethod
    def backward(ctx, *args):
        from ..autograd import backward
        if ag.graph_tasks and ag.graph_tasks[-1][2] is not None:       # (a backward for some inputs only)
            raise RuntimeError('When use_reentrant=True, torch.utils.checkpoint is incompatible with .grad() or '
                               'passing an `inputs` parameter to .backward(). To resolve this error, you can either '
                               'set use_reentrant=False, or call .backward() without passing the `inputs` argument.')
        inputs = list(ctx.inputs)
        for i, t in zip(ctx.tensor_indices, ctx.saved_tensors):
            inputs[i] = t
        with _ReplayedRng(ctx.fwd_cpu_state):
            detached = detach_variable(tuple(inputs))
            with ag.enable_grad():
                outputs = ctx.run_function(*detached)
        if isinstance(outputs, Tensor):
            outputs = (outputs,)
        pairs = [(out, g) for out, g in zip(outputs, args) if isinstance(out, Tensor) and out.requires_grad]
        if not pairs:
            raise RuntimeError('none of output has requires_grad=True, this checkpoint() is not necessary')
        backward([out for out, _ in pairs], [g for _, g in pairs])
        return (None, None) + tuple(inp.grad if isinstance(inp, Tensor) else None for inp in detached)


def noop_context_fn():
    """checkpoint's default context_fn: no context around the forward nor around the recomputation."""
    import contextlib
    return contextlib.nullcontext(), contextlib.nullcontext()


class _StopRecomputation(Exception):
    pass


_early_stop = None          # set_checkpoint_early_stop's setting inside it, else each checkpoint's early_stop
_METADATA = {'default': lambda x: {'shape': x.shape, 'dtype': x.dtype, 'device': x.device}, 'none': lambda x: None}


class set_checkpoint_early_stop:
    """Inside it, the non-reentrant checkpoints made stop recomputing once every saved tensor is back (True, the
    default) or run their function to the end."""

    def __init__(self, enable):
        self.enable = enable

    def __enter__(self):
        global _early_stop
        self.outside, _early_stop = _early_stop, self.enable

    def __exit__(self, *exc):
        global _early_stop
        _early_stop = self.outside


class set_checkpoint_debug_enabled(set_checkpoint_early_stop):
    """Debug mode for the checkpoints inside it (PyTorch's errors then trace the operators: not here)."""

    def __enter__(self):
        pass

    def __exit__(self, *exc):
        pass


class _Holder:
    """What the forward's pack hook keeps in place of a saved tensor: per backward pass, the recomputed tensor
    (None once unpacked)."""
    __slots__ = ('handles', '__weakref__')

    def __init__(self):
        self.handles = {}


class _Frame:
    """One non-reentrant checkpoint: the holders its forward saved (weakly: a freed graph frees them) with the
    metadata of the tensors behind them, and per backward pass how many the recomputation has saved."""

    _freed, _seq = False, float('inf')    # (as the node its saved inputs' errors name: none)

    def __init__(self, recompute, early_stop, metadata):
        self.recompute, self.early_stop, self.metadata = recompute, early_stop, metadata
        self.saved_args = []
        self.holders, self.metadatas = [], []
        self.counts = {}                # pass id -> tensors saved by its recomputation
        self.recomputed = set()         # the passes that ran the function again
        self.forward_completed = self.ignore_mismatch = False

    def save_inputs(self, args):
        """The function's arguments, its tensors saved as an op saves them (through the hooks around the
        checkpoint: an outer checkpoint's), so that one modified in place since fails the recomputation."""
        for a in args:
            saved = a
            if isinstance(a, Tensor):
                saved = ag.SavedTensor(a)
                saved.pack()
            self.saved_args.append(saved)

    def pack(self, x):
        holder = _Holder()
        self.holders.append(weakref.ref(holder))
        with ag.no_grad():
            self.metadatas.append(self.metadata(x))
        return holder

    def unpack(self, holder):
        pass_id = ag.graph_tasks[-1][0] if ag.graph_tasks else object()    # (outside backward: each read anew)
        if pass_id not in self.recomputed:
            args = [a.check(self, 'input') if type(a) is ag.SavedTensor else a for a in self.saved_args]
            self.counts[pass_id] = 0
            try:
                with saved_tensors_hooks(lambda x: self.pack_again(pass_id, x), lambda x: x), ag.enable_grad():
                    self.recompute(*args)
            except _StopRecomputation:
                pass
            self.recomputed.add(pass_id)
            self.check_recomputed(pass_id)
        x = holder.handles.get(pass_id)
        if x is None:
            raise CheckpointError(
                'torch.utils.checkpoint: Unpack is being triggered for a tensor that was already unpacked once. If '
                'you are calling ctx.saved_tensors in backward, make sure to do so only once. Otherwise please open '
                'an issue with details on your use case.')
        holder.handles[pass_id] = None
        return x

    def pack_again(self, pass_id, x):
        """The recomputation's pack hook: the i-th tensor saved fills the i-th holder (stopping at the last)."""
        x = x.detach() if x.requires_grad else x
        i = self.counts[pass_id]
        self.counts[pass_id] = i + 1
        if i >= len(self.holders):
            if not self.forward_completed:      # (backward inside the checkpointed function)
                self.ignore_mismatch = True
                return x
            raise CheckpointError('torch.utils.checkpoint: trying to save more tensors during recomputation than '
                                  'during the original forward pass.\n' + _DEBUG_TIP)
        holder = self.holders[i]()
        if holder is not None:
            holder.handles[pass_id] = x
        if self.early_stop and i + 1 == len(self.holders):
            raise _StopRecomputation
        return x

    def check_recomputed(self, pass_id):
        """PyTorch's errors for a recomputation that saved other tensors than the forward did."""
        if self.ignore_mismatch:
            return
        if len(self.holders) != self.counts[pass_id]:
            raise CheckpointError(
                'torch.utils.checkpoint: A different number of tensors was saved during the original forward and '
                'recomputation.\nNumber of tensors saved during forward: %d\nNumber of tensors saved during '
                'recomputation: %d.\n%s' % (len(self.holders), self.counts[pass_id], _DEBUG_TIP))
        mismatched = ''
        for i, ref in enumerate(self.holders):
            holder = ref()
            if holder is not None:
                again = self.metadata(holder.handles[pass_id])
                if again != self.metadatas[i]:
                    mismatched += ('tensor at position %d:\nsaved metadata: %s\nrecomputed metadata: %s\n'
                                   % (i, self.metadatas[i], again))
        if mismatched:
            raise CheckpointError('torch.utils.checkpoint: Recomputed values for the following tensors have different '
                                  'metadata than during the forward pass.\n%s.\n%s' % (mismatched, _DEBUG_TIP))


def _checkpoint_without_reentrant(function, preserve, context_fn, determinism_check, early_stop, args, kwargs):
    """PyTorch's non-reentrant checkpoint: the inputs saved, the forward run under hooks whose pack keeps a holder
    per saved tensor; the first unpack of a backward pass runs the function again (the forward's random state
    replayed) under hooks that fill the holders, then checks it saved the same."""
    if determinism_check not in _METADATA:
        raise ValueError('determinism_check should be one of %s, but got %s' % (list(_METADATA), determinism_check))
    forward_context, recompute_context = context_fn()
    rng = get_rng_state() if preserve else None

    def recompute(*args):
        with _ReplayedRng(rng), recompute_context:
            function(*args, **kwargs)
    frame = _Frame(recompute, early_stop if _early_stop is None else _early_stop, _METADATA[determinism_check])
    if not ag.grad_enabled:                     # (nothing to recompute)
        return function(*args, **kwargs)
    frame.save_inputs(args)
    with saved_tensors_hooks(frame.pack, frame.unpack), forward_context:
        out = function(*args, **kwargs)
    frame.forward_completed = True
    return out


def checkpoint(function, *args, use_reentrant=None, context_fn=noop_context_fn, determinism_check='default',
               debug=False, early_stop=True, **kwargs):
    """function(*args, **kwargs), its intermediate tensors recomputed in backward rather than kept."""
    if use_reentrant is None:
        warnings.warn('torch.utils.checkpoint: the use_reentrant parameter should be passed explicitly. Starting in '
                      'PyTorch 2.9, calling checkpoint without use_reentrant will raise an exception. '
                      'use_reentrant=False is recommended, but if you need to preserve the current default behavior, '
                      'you can pass use_reentrant=True. Refer to docs for more details on the differences between '
                      'the two variants.', stacklevel=2)
        use_reentrant = True
    preserve = kwargs.pop('preserve_rng_state', True)
    if kwargs and use_reentrant:
        raise ValueError('Unexpected keyword arguments: ' + ','.join(kwargs))
    if use_reentrant:
        if context_fn is not noop_context_fn or debug is not False:
            raise ValueError('Passing `context_fn` or `debug` is only supported when use_reentrant=False.')
        return CheckpointFunction.apply(function, preserve, *args)
    return _checkpoint_without_reentrant(function, preserve, context_fn, determinism_check, early_stop, args, kwargs)


def checkpoint_sequential(functions, segments, input, use_reentrant=None, **kwargs):
    """A sequence of functions (an nn.Sequential) run in `segments` parts, each but the last checkpointed."""
    if use_reentrant is None:
        warnings.warn('torch.utils.checkpoint.checkpoint_sequential: the use_reentrant parameter should be passed '
                      'explicitly. In version 2.9 we will raise an exception if use_reentrant is not passed. '
                      'use_reentrant=False is recommended, but if you need to preserve the current default behavior, '
                      'you can pass use_reentrant=True. Refer to docs for more details on the differences between '
                      'the two variants.', stacklevel=2)
        use_reentrant = True
    preserve = kwargs.pop('preserve_rng_state', True)
    if kwargs:
        raise ValueError('Unexpected keyword arguments: ' + ','.join(kwargs))

    def run(start, end):
        def forward(x):
            for j in range(start, end + 1):
                x = functions[j](x)
            return x
        return forward

    from ..nn import Sequential
    if isinstance(functions, Sequential):
        functions = list(functions.children())
    size = len(functions) // segments
    end = -1
    for start in range(0, size * (segments - 1), size):
        end = start + size - 1
        input = checkpoint(run(start, end), input, use_reentrant=use_reentrant, preserve_rng_state=preserve)
    return run(end + 1, len(functions) - 1)(input)
