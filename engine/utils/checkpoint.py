"""torch.utils.checkpoint: activation checkpointing. A checkpointed function keeps none of its intermediate tensors
for backward; backward runs it again to get them.

use_reentrant=True (the default, with a warning): the forward runs in no-grad mode inside a custom Function
(CheckpointFunctionBackward); its backward runs the function again with grad on and backward()s through that.
use_reentrant=False: the forward records its graph as usual, under saved_tensors_hooks whose pack keeps a place
holder per saved tensor; the first unpack of a backward pass runs the function again under hooks that fill the
holders (stopping once every one is filled, as PyTorch's early stop), and each unpack hands its tensor over once.
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
           'check_backward_validity']

_DEBUG_TIP = """
Tip: To see a more detailed error message, either pass `debug=True` to
`torch.utils.checkpoint.checkpoint(...)` or wrap the code block
with `with torch.utils.checkpoint.set_checkpoint_debug_enabled(True):` to
enable checkpoint\u2011debug mode globally.

If this error occurs under torch.compile with automatic_dynamic_shapes enabled,
it may be because the recomputation selected a different compiled graph than the
forward pass (e.g., a dynamic graph instead of the original static graph).
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


def _noop_context_fn():
    import contextlib
    return contextlib.nullcontext(), contextlib.nullcontext()


class _StopRecomputation(Exception):
    pass


class _Holder:
    """What the forward's pack hook keeps in place of a saved tensor: the recomputed tensor, per backward pass."""
    __slots__ = ('handles', '__weakref__')

    def __init__(self):
        self.handles = {}


def _checkpoint_without_reentrant(function, preserve, args, kwargs):
    holders = []                    # weak references to the holders, in the order the forward saved them
    recomputed = set()              # the backward passes that ran the function again
    rng = get_rng_state() if preserve else None
    outer = ag.saved_hooks[-1] if ag.saved_hooks and ag.grad_enabled else None
    if outer is not None:           # (PyTorch saves the inputs for the recomputation under the hooks around it)
        packed = [ag._call_pack(outer[0], a) if isinstance(a, Tensor) else a for a in args]

    def pack(t):
        holder = _Holder()
        holders.append(weakref.ref(holder))
        return holder

    def recompute(pass_id):
        count = [0]

        def pack_again(x):
            x = x.detach() if x.requires_grad else x
            i = count[0]
            count[0] += 1
            if i >= len(holders):
                raise CheckpointError('torch.utils.checkpoint: trying to save more tensors during recomputation '
                                      'than during the original forward pass.\n' + _DEBUG_TIP)
            holder = holders[i]()
            if holder is not None:
                holder.handles[pass_id] = x
            if count[0] == len(holders):
                raise _StopRecomputation
            return x
        inputs = args if outer is None else [outer[1](p) if isinstance(a, Tensor) else a for p, a in zip(packed, args)]
        try:
            with saved_tensors_hooks(pack_again, lambda x: x), ag.enable_grad(), _ReplayedRng(rng):
                function(*inputs, **kwargs)
        except _StopRecomputation:
            pass
        recomputed.add(pass_id)

    def unpack(holder):
        pass_id = ag.graph_tasks[-1][0] if ag.graph_tasks else object()    # (outside backward: each read anew)
        if pass_id not in recomputed:
            recompute(pass_id)
        if pass_id not in holder.handles:
            raise CheckpointError(
                'torch.utils.checkpoint: Unpack is being triggered for a tensor that was already unpacked once. If '
                'you are calling ctx.saved_tensors in backward, make sure to do so only once. Otherwise please open '
                'an issue with details on your use case.')
        return holder.handles.pop(pass_id)

    with saved_tensors_hooks(pack, unpack):
        return function(*args, **kwargs)


def checkpoint(function, *args, use_reentrant=None, context_fn=_noop_context_fn, determinism_check='default',
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
        if context_fn is not _noop_context_fn or debug is not False:
            raise ValueError('Passing `context_fn` or `debug` is only supported when use_reentrant=False.')
        return CheckpointFunction.apply(function, preserve, *args)
    return _checkpoint_without_reentrant(function, preserve, args, kwargs)


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
