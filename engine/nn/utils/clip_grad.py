"""torch.nn.utils.clip_grad: where PyTorch defines its gradient clipping (also torch.nn.utils' own names)."""
from . import clip_grad_norm, clip_grad_norm_, clip_grad_value_, clip_grads_with_norm_, get_total_norm  # noqa: F401
