"""The op table, part 8: linear algebra of square matrices (det, slogdet, solve, matrix_power, ...).

Same rules as `_ops.py`: numpy forward beside a backward written with tensor ops (so double backward works), node
names and saved attributes exactly as PyTorch 2.13 has them. `__all__` names the torch.* functions; torch.linalg's
names are re-exported by `engine/linalg.py`.
"""
__all__ = []
