import pytest

from engine import _tensor


@pytest.fixture(autouse=True)
def fresh_run():
    """Each test starts as the playground starts a run: PyTorch's once-per-process warnings not yet shown (the
    runner clears them before each run), whatever tests ran before in this process."""
    _tensor._warned.clear()
