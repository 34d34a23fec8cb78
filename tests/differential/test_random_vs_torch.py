"""Random numbers against real PyTorch: the same seed gives the same numbers (rand, randn of any size, randint,
randperm, normal, bernoulli, dropout, nn.Linear's and nn.init's initial weights, separate Generators)."""
import pytest

T = pytest.importorskip("torch", reason="differential tests need real PyTorch (pip install torch==2.13.0)")
from .harness import load_engine, run_both, same  # noqa: E402

E = load_engine()

CODE = (
    'torch.manual_seed(0)\n'
    'print(torch.rand(5), torch.randn(3), torch.randn(2, 3))\n'
    'print(torch.randn(20))\n'
    'print(torch.randn(4, 5, dtype=torch.float64))\n'
    'print(torch.randint(0, 10, (8,)), torch.randint(5, (2, 3)), torch.randperm(10))\n'
    'print(torch.rand(3, dtype=torch.float64), torch.normal(0, 1, (3,)), torch.normal(2., 3., (20,))[:4])\n'
    'lin = torch.nn.Linear(3, 2)\n'
    'print(lin.weight, lin.bias)\n'
    'net = torch.nn.Sequential(torch.nn.Linear(4, 8), torch.nn.ReLU(), torch.nn.Linear(8, 1))\n'
    'print(net[0].weight[0], net[2].bias)\n'
    'w = torch.empty(3, 5)\n'
    'torch.nn.init.xavier_uniform_(w); print(w)\n'
    'torch.nn.init.normal_(w, 0, 0.01); print(w)\n'
    'torch.nn.init.kaiming_normal_(w); print(w[0])\n'
    'torch.manual_seed(42)\n'
    'x = torch.randn(2, requires_grad=True)\n'
    'print(x, torch.rand(1).item(), torch.randn(1).item())\n'
    'g = torch.Generator().manual_seed(7)\n'
    'print(torch.randn(3, generator=g), torch.rand(2, generator=g), g.initial_seed())\n'
    'print(torch.empty(5).uniform_(-1, 1), torch.empty(17).normal_(), torch.empty(3).normal_(5, 2))\n'
    'print(torch.normal(torch.zeros(3), torch.ones(3)), torch.normal(torch.zeros(20), 2.)[:3])\n'
    'print(torch.randn_like(torch.ones(2, 2)), torch.rand_like(torch.ones(3)))\n'
    'print(torch.initial_seed())\n'
    'torch.manual_seed(0)\n'
    'print(torch.nn.functional.dropout(torch.ones(10), 0.3), torch.nn.Dropout(0.5)(torch.arange(8.)))\n'
    'print(torch.bernoulli(torch.full((6,), 0.5)), torch.zeros(5).bernoulli_(0.3))\n'
    'print(torch.bernoulli(torch.full((3,), 0.5, dtype=torch.float64)))\n'
    'print(torch.nn.functional.dropout(torch.ones(3), 1.0), torch.rand(2))\n'
    'p = torch.full((3,), 0.5, requires_grad=True)\n'
    'print(torch.bernoulli(p).grad_fn)\n'
    'for f in [lambda: torch.bernoulli(torch.tensor([1.5])), lambda: torch.zeros(2).bernoulli_(1.5)]:\n'
    '    try: f()\n'
    '    except Exception as e: print(type(e).__name__, e)\n'
    'print(torch.Generator().initial_seed())\n'
)


def test_same_seed_same_numbers():
    t, e = run_both(T, E, CODE)
    assert same(t, e)
    assert t.error is None


def test_without_a_seed_the_numbers_differ_from_run_to_run():
    t, e = run_both(T, E, "print(torch.initial_seed() != 67280421310721, torch.Generator().initial_seed())")
    assert same(t, e)
