"""dtypes on the engine alone (also run in Pyodide, where numpy's default int is int32): integer powers with
negative exponents, comparisons made in the result dtype, Python ints beyond int64 in torch.tensor, bool division
errors, float16 means. Expected values are PyTorch 2.13's."""
import pytest

import engine as torch


def test_int_pow_negative_exponents_stay_int64():
    r = torch.tensor([0, 1, -1, 2, -1, 0]) ** torch.tensor([-1, -5, -3, -1, -4, 0])
    assert r.dtype == torch.int64 and r.tolist() == [0, 1, -1, 0, 1, 1]
    r = 2 ** torch.tensor([-1, 2])
    assert r.dtype == torch.int64 and r.tolist() == [0, 4]
    r = torch.tensor([2], dtype=torch.int8) ** torch.tensor(-1)
    assert r.dtype == torch.int8 and r.tolist() == [0]


def test_comparisons_in_result_dtype():
    x = torch.tensor([1, 2])
    assert (x < 2 ** 63).tolist() == [False, False]            # 2**63 wraps to int64's lowest
    assert (torch.tensor([1, 255], dtype=torch.uint8) == -1).tolist() == [False, True]
    assert (torch.tensor([16777217, 3]) == 16777216.0).tolist() == [True, False]      # compared in float32
    assert (torch.tensor(0.1, dtype=torch.float64) == torch.tensor([0.1, 1.0])).tolist() == [True, False]
    with pytest.raises(OverflowError, match='^int too big to convert$'):
        x < 2 ** 64


def test_big_ints_in_tensor():
    with pytest.raises(ValueError, match='^Overflow when unpacking long long$'):
        torch.tensor([1, 2 ** 63])
    assert torch.tensor([1, 2 ** 63], dtype=torch.float32).dtype == torch.float32
    assert torch.tensor([1, 2 ** 63], dtype=torch.bool).tolist() == [True, True]


def test_bool_division_and_shift_errors():
    b = torch.tensor([True, False])
    for f, kernel in [(lambda: b // b, 'div_floor_cpu'), (lambda: b % True, 'remainder_cpu'),
                      (lambda: torch.fmod(b, b), 'fmod_cpu'), (lambda: b << b, 'lshift_cpu'),
                      (lambda: torch.div(b, b, rounding_mode='trunc'), 'div_trunc_cpu')]:
        with pytest.raises(NotImplementedError, match='^"%s" not implemented for \'Bool\'$' % kernel):
            f()


def test_inplace_casts():
    i = torch.tensor([1, 2])
    with pytest.raises(RuntimeError, match="^result type Float can't be cast to the desired output type long int$"):
        i.clamp_(0.5, 2)
    with pytest.raises(RuntimeError, match="^result type Float can't be cast to the desired output type Long$"):
        i &= 1.5
    i.logical_not_()
    assert i.dtype == torch.int64 and i.tolist() == [0, 0]


def test_half_mean():
    h = torch.tensor([60000., 60000.], dtype=torch.float16)
    assert h.mean().item() == 60000.0 and h.mean().dtype == torch.float16
