"""torch.nn.utils.init: skip_init (also torch.nn.utils' own name)."""
from . import skip_init  # noqa: F401
