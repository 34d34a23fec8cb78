"""The op table, part 9: statistics and counting (cdist, bincount, histc, searchsorted, bucketize, quantile, mode,
cov, corrcoef, erfinv, ...).

Same rules as `_ops.py`: numpy forward beside a backward written with tensor ops (so double backward works), node
names and saved attributes exactly as PyTorch 2.13 has them. `__all__` names the torch.* functions; the Tensor
methods are set here.
"""
__all__ = []
