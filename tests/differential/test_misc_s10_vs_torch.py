"""Small torch.* functions and Tensor attributes tutorials use (the tenth session's additions), against real PyTorch:
the RNG state as PyTorch's 5,056 bytes (saved, restored, and the same bytes after draws), logspace to the last bit,
typename, thread counts, scalar_tensor, empty_strided, randint_like, new_full, nbytes, is_nonzero's errors."""
import pytest

T = pytest.importorskip("torch", reason="differential tests need real PyTorch (pip install torch==2.13.0)")
from .harness import SHOW, load_engine, run_both, same  # noqa: E402

E = load_engine()

SNIPPETS = {
    "rng_state_bytes_and_round_trip": (
        "torch.manual_seed(7)\n"
        "s = torch.get_rng_state()\n"
        "print(s.shape, s.dtype, s[:24].tolist(), int(s.long().sum()))\n"
        "a = torch.randn(5)\n"
        "b = torch.rand(3)\n"
        "s2 = torch.get_rng_state()\n"
        "print(s2[:24].tolist(), int(s2.long().sum()), s2[5016:5048].tolist())\n"
        "torch.randn(1)\n"
        "s3 = torch.get_rng_state()\n"
        "print(s3[:24].tolist(), s3[5016:5048].tolist())\n"
        "torch.set_rng_state(s)\n"
        "print(torch.randn(5).equal(a), torch.rand(3).equal(b))\n"
        "g = torch.Generator().manual_seed(3)\n"
        "st = g.get_state()\n"
        "x = torch.randint(0, 100, (6,), generator=g)\n"
        "g.set_state(st)\n"
        "print(x, torch.randint(0, 100, (6,), generator=g), g.initial_seed())\n"
        "tries(lambda: torch.set_rng_state([1, 2]), lambda: torch.set_rng_state(torch.zeros(5056)),\n"
        "      lambda: torch.set_rng_state(torch.zeros(10, dtype=torch.uint8)))\n"),
    "logspace": (
        "for args in [(0, 2, 3), (-2, 2, 5), (0, 1, 7), (-3.5, 1.25, 11), (0, 3, 4, 2), (1, 0, 6, 0.5), (2, 2, 1)]:\n"
        "    print(args, torch.logspace(*args).tolist())\n"
        "    # float64: PyTorch's vectorised pow is off the correctly rounded one in the last bit at times\n"
        "    print(['%.14g' % v for v in torch.logspace(*args, dtype=torch.float64).tolist()])\n"
        "print(torch.logspace(0, 3, 4, base=2, dtype=torch.int64), torch.logspace(0, 10, 100)[::17],\n"
        "      torch.logspace(-10, 10, 1000)[::97].tolist(), torch.logspace(0.3, 7.7, 33, base=3.0)[-5:].tolist())\n"
        "tries(lambda: torch.logspace(0, 1, -1))\n"),
    "typename_threads_scalar_tensor": (
        "print(torch.typename(torch.ones(2)), torch.typename(torch.ones(2, dtype=torch.int64)), torch.typename(3),\n"
        "      torch.typename(torch.float32), torch.typename(torch.nn.Linear(1, 1)), torch.typename(torch.Tensor))\n"
        "print(type(torch.get_num_threads()), type(torch.get_num_interop_threads()))\n"
        "n = torch.get_num_threads()\n"
        "torch.set_num_threads(1)\n"
        "print(torch.get_num_threads())\n"
        "torch.set_num_threads(n)\n"
        "tries(lambda: torch.set_num_threads(0), lambda: torch.set_num_threads(True), lambda: torch.set_num_threads(1.5))\n"
        "print(torch.scalar_tensor(3), torch.scalar_tensor(True), torch.scalar_tensor(2.5, dtype=torch.float64),\n"
        "      torch.scalar_tensor(3, dtype=torch.int64), torch.scalar_tensor(1.5, requires_grad=True))\n"
        "print(torch.get_default_device(), torch.can_cast(torch.float32, torch.int32),\n"
        "      torch.can_cast(torch.int32, torch.float32), torch.is_storage(3), torch.is_complex(torch.ones(1)))\n"),
    "tensor_attributes_and_like_factories": (
        "x = torch.ones(2, 3)\n"
        "print(x.nbytes, x.itemsize, torch.ones(4, dtype=torch.float64).nbytes, x.is_cpu, x.get_device())\n"
        "print(x.is_signed(), torch.ones(1, dtype=torch.uint8).is_signed(), torch.is_signed(torch.tensor([1])),\n"
        "      x.is_same_size(torch.ones(2, 3)), torch.is_same_size(x, torch.ones(3, 2)))\n"
        "print(torch.tensor([2.]).is_nonzero(), torch.is_nonzero(torch.tensor(0)), torch.tensor([[0.5]]).is_nonzero())\n"
        "tries(lambda: torch.tensor([]).is_nonzero(), lambda: x.is_nonzero())\n"
        "print(x.new_full((2,), 7), torch.tensor([1, 2]).new_full((1, 2), 3.5), x.new_full((1,), 2, dtype=torch.int64))\n"
        "print(x.new_full((2,), 1., requires_grad=True))\n"
        "e = torch.empty_strided((2, 3), (1, 2))\n"
        "print(e.shape, e.stride(), e.is_contiguous(), torch.empty_strided((2, 3), (3, 1)).is_contiguous())\n"
        "torch.manual_seed(3)\n"
        "print(torch.randint_like(torch.ones(4), 10), torch.randint_like(torch.ones(2, 2, dtype=torch.int32), 3, 9))\n"
        "print(torch.randint(0, 10, (4,)))\n"),
}


@pytest.mark.parametrize("name", sorted(SNIPPETS))
def test_snippet_as_pytorch(name):
    t, e = run_both(T, E, SHOW + SNIPPETS[name])
    assert same(t, e), f"\n--- torch\n{t.summary()}--- engine\n{e.summary()}"
