"""torch.nn.utils.convert_parameters: parameters to one vector and back (also torch.nn.utils' own names)."""
from . import parameters_to_vector, vector_to_parameters  # noqa: F401
