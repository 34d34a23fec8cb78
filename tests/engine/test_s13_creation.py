"""Creation and dtype corners of the thirteenth session on the engine alone (also run in Pyodide, where numpy's
default int is int32). Expected values are PyTorch 2.13's."""
import warnings

import numpy as np
import pytest

import engine as torch
from engine import _tensor


def caught(fn):
    """The messages of the warnings fn gives, PyTorch's once-per-process ones shown afresh."""
    _tensor._warned.clear()
    with warnings.catch_warnings(record=True) as ws:
        warnings.simplefilter('always')
        fn()
    return [str(w.message) for w in ws]


def error(fn):
    with pytest.raises(Exception) as info:
        fn()
    return '%s: %s' % (info.type.__name__, info.value)


def test_torch_tensor_of_a_tensor_requiring_grad_warns_as_it_becomes_a_number():
    x = torch.tensor(1.5, requires_grad=True)
    messages = caught(lambda: torch.tensor([x, 2.]))
    assert len(messages) == 1 and messages[0].startswith('Converting a tensor with requires_grad=True to a scalar')
    with torch.no_grad():
        assert caught(lambda: torch.tensor([x, 2.])) == []


def test_from_numpy_warns_once_for_a_read_only_array_and_refuses_negative_strides():
    a = np.arange(4.)
    a.setflags(write=False)
    messages = caught(lambda: (torch.from_numpy(a), torch.as_tensor(a), torch.from_numpy(a)))
    assert len(messages) == 1 and messages[0].startswith('The given NumPy array is not writable')
    assert caught(lambda: torch.tensor(a)) == []
    for call in (lambda: torch.from_numpy(np.arange(3)[::-1]), lambda: torch.tensor(np.arange(3)[::-1])):
        assert error(call).startswith('ValueError: At least one stride in the given numpy array is negative')
    assert error(lambda: torch.from_numpy(np.float64(1.5))) == 'TypeError: expected np.ndarray (got numpy.float64)'


def test_numpy_ufuncs_give_tensors_and_numpy_conversions_stay_arrays():
    t = torch.tensor([1., 4.])
    with warnings.catch_warnings():
        warnings.simplefilter('ignore', DeprecationWarning)
        root, isnan, product = np.sqrt(t), np.isnan(t), t * np.array([2., 3.])
    assert isinstance(root, torch.Tensor) and root.tolist() == [1., 2.] and root.dtype is torch.float32
    assert isnan.dtype is torch.uint8 and product.dtype is torch.float64 and product.tolist() == [2., 12.]
    assert type(np.asarray(t)) is np.ndarray and type(t.numpy()) is np.ndarray
    assert np.asarray(t) is not t.numpy() and np.shares_memory(np.asarray(t), t.numpy())    # (a new array each time)


def test_set_default_tensor_type_warns_once_and_sets_the_default_dtype():
    try:
        messages = caught(lambda: (torch.set_default_tensor_type('torch.DoubleTensor'),
                                   torch.set_default_tensor_type(torch.DoubleTensor)))
        assert torch.tensor([1.5]).dtype is torch.float64 and torch.Tensor([1]).dtype is torch.float64
        assert len(messages) == 1 and messages[0].startswith('torch.set_default_tensor_type() is deprecated')
        torch.set_default_dtype(torch.float16)
        assert torch.zeros(1).dtype is torch.float16
    finally:
        torch.set_default_dtype(torch.float32)
    assert torch.Tensor().dtype is torch.float32


def test_numbers_written_into_a_dtype_are_checked_as_pytorch_checks_them():
    assert error(lambda: torch.full((2,), 300, dtype=torch.uint8)) == \
        'RuntimeError: value cannot be converted to type uint8_t without overflow'
    assert torch.full((2,), -1, dtype=torch.uint8).tolist() == [255, 255]
    assert torch.zeros(2, dtype=torch.uint8).fill_(-1).tolist() == [255, 255]
    x = torch.zeros(3, dtype=torch.int8)
    assert error(lambda: x.__setitem__(0, 1000)) == 'RuntimeError: value cannot be converted to type int8_t without ' \
                                                    'overflow'
    assert error(lambda: torch.zeros(2, dtype=torch.int64).__setitem__(0, 2 ** 63)) == \
        'ValueError: Overflow when unpacking long long'
    assert error(lambda: torch.tensor([1, 2 ** 70])) == 'ValueError: Overflow when unpacking long long'
    assert error(lambda: torch.tensor([2 ** 63])) == 'ValueError: Overflow when unpacking long long'
    assert torch.tensor([2 ** 63 - 1]).dtype is torch.int64


def test_arange_of_an_integer_dtype_truncates_its_bounds_first():
    assert torch.arange(0, 10, 2.5, dtype=torch.int64).tolist() == [0, 2, 4, 6, 8]
    assert torch.arange(10, 0, -2.5, dtype=torch.int64).tolist() == [10, 8, 6, 4, 2]
    assert torch.arange(-2.5, 2, 1, dtype=torch.int32).tolist() == [-2, -1, 0, 1, 2]
    assert torch.arange(0, 3, 0.5, dtype=torch.uint8).tolist() == [0] * 6
    assert error(lambda: torch.arange(0, 1, 0.3, dtype=torch.int64)) == 'ValueError: step must be nonzero'


def test_random_draws_in_place_are_pytorchs():
    torch.manual_seed(0)
    assert torch.empty(3, dtype=torch.int64).random_().tolist() == [900450186894289455, 3969543146641149120,
                                                                     1895649597198586619]
    torch.manual_seed(0)
    assert torch.zeros(3).random_(5, None).tolist() == [8326369., 12889232., 1485142.]
    torch.manual_seed(0)
    assert torch.empty(5).geometric_(0.3).tolist() == [1., 1., 3., 1., 2.]
    torch.manual_seed(0)
    assert torch.empty(2, dtype=torch.float64).exponential_(2.0).tolist() == [1.754163093353821, 0.6151923820898384]
    y = torch.zeros(3, requires_grad=True) * 1
    assert type(y.random_(3).grad_fn).__name__ == 'RandomBackward1'
    assert error(lambda: torch.zeros(3, dtype=torch.int8).random_(1000)) == \
        'RuntimeError: to - 1 is out of bounds for signed char'


def test_python_errors_name_torch_size_and_dtype_as_pytorch_does():
    x = torch.zeros(2, 3)
    assert error(lambda: x.shape()) == "TypeError: 'torch.Size' object is not callable"
    assert error(lambda: x.dtype()) == "TypeError: 'torch.dtype' object is not callable"
    def assign():
        x.shape[0] = 5
    assert error(assign) == "TypeError: 'torch.Size' object does not support item assignment"
    assert error(lambda: x.shape.__setitem__(0, 5)) == \
        "AttributeError: 'torch.Size' object has no attribute '__setitem__'"
    assert type(x.shape).__name__ == 'Size' and f'{x.shape}' == 'torch.Size([2, 3])'


def test_small_corners():
    assert error(lambda: bool(torch.tensor([]))) == 'RuntimeError: Boolean value of Tensor with no values is ambiguous'
    assert error(lambda: torch.tensor([1, 2]).std()) == \
        'RuntimeError: std and var only support floating point and complex dtypes'
    assert error(lambda: torch.zeros(3, require_grad=True)) == \
        "TypeError: zeros() got an unexpected keyword argument 'require_grad'"
    assert error(lambda: torch.ones(2).to(torch.float64, require_grad=True)).startswith(
        'TypeError: to() received an invalid combination of arguments - got (torch.dtype, require_grad=bool)')
    assert torch.randint(10, size=(3,)).shape == (3,)
    assert (torch.tensor([5]) >> 1).tolist() == [2] and (torch.tensor([5]) << 2).tolist() == [20]
    assert error(lambda: torch.allclose(torch.tensor([1, 2]), torch.tensor([1., 2.]))) == \
        'RuntimeError: Long did not match Float'
    assert torch.tensor([1.]).new(2, 3).shape == (2, 3)
    x = torch.tensor([1., 2.], requires_grad=True)
    assert type(torch.as_tensor(x, dtype=torch.float64).grad_fn).__name__ == 'ToCopyBackward0'
    assert error(lambda: torch.full((2, 3))) == 'TypeError: full() missing 1 required positional arguments: ' \
                                                '"fill_value"'
