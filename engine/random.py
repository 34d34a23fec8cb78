"""torch.random, as older code seeds through it (`torch.random.manual_seed(0)`): the default generator's seed and
state, the very functions torch.* has, and fork_rng."""
import contextlib

from . import manual_seed, seed, initial_seed, get_rng_state, set_rng_state, default_generator  # noqa: F401
from ._random import Generator  # noqa: F401


@contextlib.contextmanager
def fork_rng(devices=None, enabled=True, _caller='fork_rng', _devices_kw='devices', device_type=None):
    """The generator's state put back as it was when the block ends (there are no devices to fork on a CPU)."""
    if not enabled:
        yield
        return
    state = get_rng_state()
    try:
        yield
    finally:
        set_rng_state(state)
