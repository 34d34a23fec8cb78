"""torch.nn.attention: which kernels scaled_dot_product_attention may use (`with sdpa_kernel(SDPBackend.MATH):`).

On a CPU the fused kernel is the flash one; the math one is the op-by-op fallback (engine/_ops_attention.py has both).
The backends enabled are the flags of torch.backends.cuda (flash_sdp_enabled() ...), which sdpa_kernel sets for its
block and puts back after."""
import contextlib
import enum

from ..._ops_attention import SDP_ENABLED

WARN_FOR_UNFUSED_KERNELS = False


class SDPBackend(enum.Enum):
    """The kernels of scaled_dot_product_attention."""
    ERROR = -1
    MATH = 0
    FLASH_ATTENTION = 1
    EFFICIENT_ATTENTION = 2
    CUDNN_ATTENTION = 3
    OVERRIDEABLE = 4

    def __int__(self):
        return self.value


SDPBackend.__module__ = 'torch.nn.attention'

_FLAGS = {SDPBackend.MATH: 'math', SDPBackend.FLASH_ATTENTION: 'flash', SDPBackend.EFFICIENT_ATTENTION: 'mem_efficient',
          SDPBackend.CUDNN_ATTENTION: 'cudnn', SDPBackend.OVERRIDEABLE: 'overrideable'}


@contextlib.contextmanager
def sdpa_kernel(backends, set_priority=False):
    """Only these backends (one or a list) for scaled_dot_product_attention inside the block."""
    if isinstance(backends, SDPBackend):
        backends = [backends]
    assert isinstance(backends, list), (
        'Backend must be an instance of SDPBackend or a list of SDPBackend instances, got %s'
        % type(backends).__name__)
    saved = dict(SDP_ENABLED)
    SDP_ENABLED.update({flag: backend in backends for backend, flag in _FLAGS.items()})
    try:
        yield {}
    finally:
        SDP_ENABLED.update(saved)


def can_use_flash_attention(params, debug=False):
    """PyTorch's check (for CUDA): no GPU here."""
    return False


can_use_efficient_attention = can_use_flash_attention
