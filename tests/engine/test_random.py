"""The engine's random numbers are PyTorch's for the same seed (its mt19937 generator and the way its CPU kernels
turn draws into numbers): the values below are what real PyTorch 2.13 gives. Runs without PyTorch, and inside
Pyodide."""
import hashlib

import engine as torch


def test_the_famous_first_numbers():
    torch.manual_seed(0)
    assert torch.rand(5).tolist() == [0.49625658988952637, 0.7682217955589294, 0.08847743272781372,
                                      0.13203048706054688, 0.30742281675338745]
    torch.manual_seed(0)
    assert torch.randn(3).tolist() == [1.5409960746765137, -0.293428897857666, -2.1787893772125244]


def test_a_fresh_linear_layer_holds_pytorchs_weights():
    torch.manual_seed(0)
    layer = torch.nn.Linear(3, 2)
    assert layer.weight.tolist() == [[-0.004322517663240433, 0.3097158372402191, -0.4751853346824646],
                                     [-0.4248946011066437, -0.2223689705133438, 0.15482072532176971]]
    assert layer.bias.tolist() == [-0.011439144611358643, 0.45777493715286255]


def test_integers_permutations_and_dropout():
    torch.manual_seed(0)
    assert torch.randint(0, 10, (8,)).tolist() == [4, 9, 3, 0, 3, 9, 7, 3]
    assert torch.randperm(6).tolist() == [1, 4, 3, 5, 0, 2]
    torch.manual_seed(0)
    assert torch.nn.functional.dropout(torch.ones(8), 0.5).tolist() == [0, 0, 2, 0, 0, 0, 2, 2]


F64 = [-0.21774879177876416, 0.1482982579868126, -0.46070629578338546, -0.3763755213295851, 1.211526886531116]


def test_a_block_of_normal_numbers():
    """64 x 10 normal numbers come from PyTorch's vectorized Box-Muller (blocks of 16; avx_mathfun's float32 log and
    sincos): the bytes real PyTorch gives."""
    torch.manual_seed(0)
    x = torch.randn(64, 10)
    assert hashlib.sha1(x.numpy().tobytes()).hexdigest()[:16] == '2bdc866507d01e43'
    torch.manual_seed(3)                    # (float64: the C library's log / sin / cos, which may differ in a last bit)
    y = torch.randn(33, dtype=torch.float64)[::8].tolist()
    assert all(abs(a - b) <= 1e-15 * abs(b) for a, b in zip(y, F64))


def test_generators_are_separate_and_seeded_as_pytorchs():
    g = torch.Generator()
    assert g.initial_seed() == 67280421310721
    torch.manual_seed(0)
    a = torch.rand(3, generator=g.manual_seed(0))
    assert a.tolist() == torch.rand(3).tolist()
