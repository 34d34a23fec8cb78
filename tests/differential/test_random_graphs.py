"""Hypothesis-generated autograd programs must behave identically on the engine and on PyTorch."""
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

T = pytest.importorskip("torch", reason="differential tests need real PyTorch (pip install torch==2.13.0)")
from .harness import describe, load_engine, run_lockstep
from .programs import build_program

E = load_engine()

FIXED = settings(max_examples=300, deadline=None, derandomize=True, database=None,
                 suppress_health_check=[HealthCheck.too_slow])


@FIXED
@given(rng=st.randoms(use_true_random=False), steps=st.integers(1, 12))
def test_random_program_matches_torch(rng, steps):
    """Values, repr, grads, grad_fn graphs, versions, flags and errors agree after every line."""
    lines = build_program(T, rng, steps)
    divergence = run_lockstep(T, E, lines)
    assert divergence is None, describe(lines, divergence)
