"""torch.utils: the data loading tutorials use (torch.utils.data), activation checkpointing (torch.utils.checkpoint)."""
from . import data  # noqa: F401
from . import checkpoint  # noqa: F401
