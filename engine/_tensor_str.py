"""torch._tensor_str: the print-option helpers scripts reach for besides torch.set_printoptions: PRINT_OPTS (live:
assigning PRINT_OPTS.precision changes how tensors print), get_printoptions() and the printoptions(...) context
manager."""
import contextlib

from ._printing import _opts, get_printoptions, set_printoptions  # noqa: F401


class __PrinterOptions:
    """A view of the current print options, shown as PyTorch's dataclass shows itself."""
    __module__ = 'torch._tensor_str'

    def __getattr__(self, name):
        if name in _opts:
            return _opts[name]
        raise AttributeError("'__PrinterOptions' object has no attribute '%s'" % name)

    def __setattr__(self, name, value):
        if name in _opts:
            _opts[name] = value
        else:
            object.__setattr__(self, name, value)

    def __repr__(self):
        return '__PrinterOptions(%s)' % ', '.join('%s=%r' % item for item in _opts.items())


PRINT_OPTS = __PrinterOptions()


def _str(self, *, tensor_contents=None):
    """The text Tensor.__repr__ gives (PyTorch's __repr__ calls this), for scripts that call it directly."""
    from ._tensor import Tensor
    return Tensor.__repr__(self, tensor_contents=tensor_contents)


@contextlib.contextmanager
def printoptions(**kwargs):
    """Change the print options (as set_printoptions) for the `with` block only."""
    old_kwargs = get_printoptions()
    set_printoptions(**kwargs)
    try:
        yield
    finally:
        set_printoptions(**old_kwargs)
