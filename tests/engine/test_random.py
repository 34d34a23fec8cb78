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


def test_multinomial_draws_pytorchs_indices():
    """With replacement: a cumulative distribution and one 53-bit uniform draw per sample; one sample or none
    replaced: Exp(1) draws (-log1p(-u)) and the largest p / q. Indices and the numbers drawn after them are
    PyTorch's (values from real PyTorch 2.13)."""
    g = torch.Generator().manual_seed(2147483647)
    p = torch.rand(3, generator=g)
    p = p / p.sum()
    s = torch.multinomial(p, num_samples=20, replacement=True, generator=g)
    assert s.dtype == torch.int64 and s.grad_fn is None
    assert s.tolist() == [1, 1, 2, 0, 0, 2, 1, 1, 0, 0, 0, 1, 1, 0, 0, 1, 1, 0, 0, 1]
    assert torch.rand(2, generator=g).tolist() == [0.4406910538673401, 0.6007798910140991]
    g = torch.Generator().manual_seed(2147483647)
    P = torch.tensor([[0.1, 0.2, 0.3, 0.4], [4., 3, 2, 1]])
    assert torch.multinomial(P, 1, generator=g).tolist() == [[3], [0]]
    assert torch.multinomial(P, 3, generator=g).tolist() == [[3, 2, 1], [1, 0, 2]]
    assert torch.multinomial(P[0].double(), 4, generator=g).tolist() == [2, 1, 3, 0]
    assert torch.rand(2, generator=g).tolist() == [0.7584241032600403, 0.9720794558525085]
    torch.manual_seed(0)
    assert torch.ones(27).multinomial(5, True).tolist() == [26, 19, 12, 24, 17]
    assert torch.randn(1).item() == 0.1603812575340271


def test_multinomial_errors():
    import re

    import pytest
    p = torch.tensor([0.1, 0.2, 0.7])
    for call, message in [(lambda: torch.multinomial(torch.ones(2, 2, 2), 1), 'prob_dist must be 1 or 2 dim'),
                          (lambda: torch.multinomial(torch.tensor([1, 2]), 1),
                           'multinomial only supports floating-point dtypes for input, got: Long'),
                          (lambda: torch.multinomial(p, 0), 'cannot sample n_sample <= 0 samples'),
                          (lambda: torch.multinomial(p, 4),
                           'cannot sample n_sample > prob_dist.size(-1) samples without replacement'),
                          (lambda: torch.multinomial(torch.zeros(3), 2, True),
                           'invalid multinomial distribution (sum of probabilities <= 0)'),
                          (lambda: torch.multinomial(torch.tensor([1., -1, 1]), 1),
                           'probability tensor contains either `inf`, `nan` or element < 0'),
                          (lambda: torch.multinomial(torch.tensor([1., float('nan')]), 2, True),
                           'invalid multinomial distribution (encountering probability entry < 0)')]:
        with pytest.raises(RuntimeError, match=re.escape(message)):
            call()
    with pytest.raises(TypeError, match=r"argument 'num_samples' \(position 1\) must be int, not float"):
        p.multinomial(2.0)


def test_double_draws_fuse_their_multiply_add_and_stay_below_the_interval_end():
    """PyTorch's uniform and normal kernels compute x * (to - from) + from and z * std + mean in double with one
    rounding (fused), and give `from` for a number that rounds up to `to` (values of real PyTorch 2.13)."""
    torch.manual_seed(0)
    assert torch.nn.Linear(3, 1, dtype=torch.float64).weight.tolist() == [
        [0.5427704542528101, 0.23996970930833816, -0.046900537438113156]]
    torch.manual_seed(0)
    assert torch.empty(5, dtype=torch.float64).normal_(0.3, 0.7).tolist() == [
        1.3786972757708302, 0.09459976596733753, -1.2251525674521901, 0.6979018940964674, -0.4591656396968146]
    torch.manual_seed(0)
    x = torch.rand(338, dtype=torch.float16)
    assert x[-1].item() == 0.0 and (x == 1).sum().item() == 0


def test_normal_of_a_mean_tensor_draws_with_its_std_then_adds_the_mean():
    torch.manual_seed(0)
    assert torch.normal(torch.zeros(5), 0.7).tolist() == [
        1.0786973237991333, -0.2054002285003662, -1.525152564048767, 0.39790189266204834, -0.7591656446456909]
    assert torch.normal(torch.zeros(2), torch.ones(2, dtype=torch.float64)).dtype == torch.float32


def test_multinomial_without_replacement_breaks_ties_as_topk():
    torch.manual_seed(0)
    assert torch.multinomial(torch.tensor([0., 1, 0, 2]), 3).tolist() == [1, 3, 2]
    assert torch.multinomial(torch.zeros(100).index_fill_(0, torch.tensor([5]), 1.), 4).tolist() == [5, 67, 66, 68]
