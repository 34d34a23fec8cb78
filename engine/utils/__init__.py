"""torch.utils: the data loading tutorials use (torch.utils.data), activation checkpointing (torch.utils.checkpoint),
hook handles (torch.utils.hooks)."""
from . import data  # noqa: F401
from . import checkpoint  # noqa: F401
from . import hooks  # noqa: F401
