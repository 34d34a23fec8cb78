"""torch.linspace / arange / range against real PyTorch, bit for bit, over random arguments: a tutorial's
`x = torch.linspace(-math.pi, math.pi, 2000)` or `torch.arange(-8.0, 8.0, 0.1)` feeds every later digit."""
import math
import random
import warnings

import numpy as np
import pytest

T = pytest.importorskip("torch", reason="differential tests need real PyTorch (pip install torch==2.13.0)")
from .harness import load_engine  # noqa: E402

E = load_engine()
DTYPES = ('float32', 'float64', 'int64', 'int32')


def same(make):
    with warnings.catch_warnings():
        warnings.simplefilter('ignore')
        t, e = make(T).numpy(), make(E).numpy()
    return t.dtype == e.dtype and t.shape == e.shape and t.tobytes() == e.tobytes()


@pytest.mark.parametrize('seed', range(4))
def test_linspace_bits(seed):
    rng = random.Random(seed)
    cases = [(-math.pi, math.pi, 2000), (0, 1, 100), (3, -2, 77), (0, 1, 1), (2.7, 9.1, 1), (0, 1, 0), (-10, 10, 40001)]
    cases += [(rng.uniform(-20, 20), rng.uniform(-20, 20), rng.randrange(2, 3000)) for _ in range(60)]
    bad = [(s, e, n, d) for s, e, n in cases for d in DTYPES
           if not same(lambda L: L.linspace(s, e, n, dtype=getattr(L, d)))]
    assert not bad


@pytest.mark.parametrize('seed', range(4))
def test_arange_and_range_bits(seed):
    rng = random.Random(seed)
    cases = [(-8.0, 8.0, 0.1), (0, 1, 0.1), (1, 2, 0.01), (10, 0, -0.3), (-math.pi, math.pi, 0.1)]
    for _ in range(60):
        start, step = rng.uniform(-100, 100), rng.choice([1e-3, 0.1, 1, 10]) * rng.uniform(0.01, 2)
        cases.append((start, start + step * rng.randrange(1, 3000), step))
    bad = [(s, e, st, d) for s, e, st in cases for d in ('float32', 'float64')
           if not same(lambda L: L.arange(s, e, st, dtype=getattr(L, d)))
           or not same(lambda L: L.range(s, e, st, dtype=getattr(L, d)))]
    assert not bad
    assert same(lambda L: L.arange(0, 1, 0.1)) and same(lambda L: L.arange(5.0)) and same(lambda L: L.arange(1, 9, 2))
