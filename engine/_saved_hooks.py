"""torch.autograd.graph: hooks on the tensors autograd saves for backward (PyTorch's "Hooks for saved tensors"),
and the Node class every grad_fn is an instance of."""
import abc
import contextlib

from . import _autograd as _ag


class Node(abc.ABC):
    # torch.autograd.graph.Node, the abstract class of grad_fns (no docstring, as PyTorch's). PyTorch's nodes do not
    # inherit from it: isinstance(y.grad_fn, Node) is True through __subclasshook__, Node is not in their __mro__.
    __module__ = 'torch.autograd.graph'

    @abc.abstractmethod
    def name(self):
        pass

    @property
    @abc.abstractmethod
    def next_functions(self):
        pass

    @property
    @abc.abstractmethod
    def metadata(self):
        pass

    @property
    @abc.abstractmethod
    def _input_metadata(self):
        pass

    @abc.abstractmethod
    def _register_hook_dict(self, tensor):
        pass

    @abc.abstractmethod
    def register_hook(self, fn):
        pass

    @abc.abstractmethod
    def register_prehook(self, fn):
        pass

    @abc.abstractmethod
    def _sequence_nr(self):
        pass

    @classmethod
    def __subclasshook__(cls, C):
        if cls is Node and issubclass(C, _ag.Node):
            return True
        return NotImplemented


class saved_tensors_hooks:
    """Inside it, each tensor an op saves for backward is handed to pack_hook and what it returns is kept instead;
    backward (or reading grad_fn._saved_*) gets the tensor back from unpack_hook. Versions are not checked then."""
    __module__ = 'torch.autograd.graph'

    def __init__(self, pack_hook, unpack_hook):
        self.pack_hook, self.unpack_hook = pack_hook, unpack_hook

    def __enter__(self):
        if _ag.saved_hooks_disabled is not None:
            raise RuntimeError(_ag.saved_hooks_disabled)
        _ag.saved_hooks.append((self.pack_hook, self.unpack_hook))

    def __exit__(self, *exc):
        _ag.saved_hooks.pop()


class save_on_cpu(saved_tensors_hooks):
    """Saved tensors kept on the CPU and moved back to their device for backward (here everything is on the CPU)."""
    __module__ = 'torch.autograd.graph'

    def __init__(self, pin_memory=False, device_type='cuda'):
        def pack_to_cpu(tensor):
            return tensor.device, tensor.cpu()

        def unpack_from_cpu(packed):
            device, tensor = packed
            return tensor.to(device, non_blocking=pin_memory)
        super().__init__(pack_to_cpu, unpack_from_cpu)


class disable_saved_tensors_hooks(contextlib.ContextDecorator):
    """Inside it, entering saved_tensors_hooks raises RuntimeError(error_message). (A decorator too, as PyTorch's
    contextmanager.)"""
    __module__ = 'torch.autograd.graph'

    def __init__(self, error_message):
        self.error_message = error_message

    def __enter__(self):
        if _ag.saved_hooks:          # (hooks already active: PyTorch refuses with the message, changing nothing)
            raise RuntimeError(self.error_message)
        self._prev, _ag.saved_hooks_disabled = _ag.saved_hooks_disabled, self.error_message

    def __exit__(self, *exc):
        _ag.saved_hooks_disabled = self._prev


class _AllowMutationOnSavedContext:
    """What allow_mutation_on_saved_tensors keeps: each saved tensor by its handle (what pack returned), and the
    clone made of one before an in-place op wrote into its memory."""
    __module__ = 'torch.autograd.graph'

    def __init__(self):
        self.original, self.cloned = {}, {}

    def before_write(self, tensor):
        memory = _ag.counter(tensor)              # (views and detached aliases share one version counter)
        for handle, saved in list(self.original.items()):
            if _ag.counter(saved) is memory:
                with _ag.no_grad():
                    self.cloned[handle] = saved.clone()
                del self.original[handle]

    def clear(self):
        self.original.clear()
        self.cloned.clear()


class _Handle:
    __module__ = 'torch.autograd.graph'


class allow_mutation_on_saved_tensors(contextlib.ContextDecorator):
    """Inside it, a tensor saved for backward that an in-place op then changes is cloned first, so that backward
    (which must run inside it too) uses the value it had when saved. (A decorator too, as PyTorch's
    contextmanager.)"""
    __module__ = 'torch.autograd.graph'

    def __enter__(self):
        self.ctx = ctx = _AllowMutationOnSavedContext()

        def pack(tensor):
            handle = _Handle()
            ctx.original[handle] = tensor
            return handle

        def unpack(handle):
            message = ("Trying to backward outside of the 'allow_mutation_on_saved_tensors' contextin which the graph "
                       "was originally recorded.")
            if _ag.mutation_context is None or handle not in ctx.cloned and handle not in ctx.original:
                raise AssertionError(message)
            return ctx.cloned[handle] if handle in ctx.cloned else ctx.original[handle]
        self.hooks = saved_tensors_hooks(pack, unpack)
        self.hooks.__enter__()
        if _ag.mutation_context is not None:
            self.__exit__()
            raise RuntimeError('allow_mutation_on_saved_tensors contexts cannot be nested')
        _ag.mutation_context = ctx
        return ctx

    def __exit__(self, *exc):
        self.ctx.clear()
        _ag.mutation_context = None
        self.hooks.__exit__()


def increment_version(tensor):
    """Count an in-place modification that autograd did not see (its saved-tensor checks then fail as for one, and
    the views of its memory read it through AsStridedBackward0, as after one)."""
    from ._ops import _views_changed
    tensors = (tensor,) if hasattr(tensor, '_data') else tensor
    try:
        tensors = list(tensors)
    except TypeError:
        raise RuntimeError('increment_version expect a Iterable[Tensor] as input') from None
    for t in tensors:
        if not t._inference:        # (PyTorch skips inference tensors, with a version counter or not)
            _ag.bump(t)
            _views_changed(t)


class _MultiHandle:
    __module__ = 'torch.autograd.graph'

    def __init__(self, handles):
        self.handles = handles

    def remove(self):
        for handle in self.handles:
            handle.remove()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.remove()


def register_multi_grad_hook(tensors, fn, *, mode='all'):
    """fn runs once per backward pass: mode 'all' with the list of the tensors' gradients once every one that this
    pass reaches has its gradient (None for the others), mode 'any' with the first gradient computed."""
    if mode not in ('all', 'any'):
        raise ValueError('Expects mode to be one of (\'all\', \'any\') but got %s' % mode)
    tensors = tuple(tensors)
    if mode == 'any':
        ran = {}

        def first(grad):
            task = _ag.graph_tasks[-1][0]
            if not ran.get(task):
                ran[task] = True
                fn(grad)
        return _MultiHandle(tuple(t.register_hook(first) for t in tensors if t.requires_grad))
    nodes = [t.grad_fn or t._grad_accumulator() for t in tensors]
    if None in nodes:
        raise AssertionError('Expected gradient function to be set')
    counts, buffers, expected = {}, {}, {}

    def hook_of(i):
        def inner(grad):
            task = _ag.graph_tasks[-1][0]
            if task not in counts:          # the first call of this pass: how many of the tensors it reaches
                counts[task], buffers[task] = 0, [None] * len(tensors)
                expected[task] = sum(map(_ag.will_execute, nodes))
            buffers[task][i] = grad
            counts[task] += 1
            if counts[task] == expected[task]:
                fn(buffers.pop(task))
                del counts[task], expected[task]
        return inner
    return _MultiHandle(tuple(t.register_hook(hook_of(i)) for i, t in enumerate(tensors)))
