"""torch.autograd.graph: hooks on the tensors autograd saves for backward (PyTorch's "Hooks for saved tensors"),
and the Node class every grad_fn is an instance of."""
from . import _autograd as _ag
from ._autograd import Node  # noqa: F401  (isinstance(y.grad_fn, torch.autograd.graph.Node))


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


class disable_saved_tensors_hooks:
    """Inside it, entering saved_tensors_hooks raises RuntimeError(error_message)."""
    __module__ = 'torch.autograd.graph'

    def __init__(self, error_message):
        self.error_message = error_message

    def __enter__(self):
        self._prev, _ag.saved_hooks_disabled = _ag.saved_hooks_disabled, self.error_message

    def __exit__(self, *exc):
        _ag.saved_hooks_disabled = self._prev
