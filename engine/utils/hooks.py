"""torch.utils.hooks: the handle every register_*hook returns, and the decorator that keeps a tensor hook out of the
warning copy.copy gives for hooks it cannot keep."""
from .._autograd import RemovableHandle  # noqa: F401


def unserializable_hook(f):
    """Mark f as a hook that is not to be kept when its tensor is copied (no warning about it then)."""
    f.__torch_unserializable__ = True
    return f
