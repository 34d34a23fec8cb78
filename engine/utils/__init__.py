"""torch.utils: the data loading tutorials use (torch.utils.data)."""
from . import data  # noqa: F401
