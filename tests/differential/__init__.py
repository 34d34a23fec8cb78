"""Differential tests: the engine against real PyTorch 2.13 on the same code."""
