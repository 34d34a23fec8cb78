"""torch.testing: assert_close (and the deprecated assert_allclose), with PyTorch's checks and messages.

As torch/testing/_comparison.py: nested sequences and mappings are compared item by item; each pair of items is
None and None, two bools, two numbers or two tensors (of related types); tensors must agree in shape, layout,
device and dtype (unless told not to check), then in their values to rtol and atol (defaults by dtype)."""
import cmath
import collections.abc
import warnings

import numpy as np

from . import _dtypes as dt
from ._tensor import Tensor

__all__ = ['assert_close', 'assert_allclose']

_PRECISIONS = {dt.float16: (0.001, 1e-5), dt.float32: (1.3e-6, 1e-5), dt.float64: (1e-7, 1e-7)}
_NUMBER_DTYPES = {int: dt.int64, float: dt.float64}


class _Failure(Exception):
    """A mismatch found while comparing: the error to raise and where in nested inputs (PyTorch's ErrorMeta)."""

    def __init__(self, kind, msg, where=()):
        super().__init__(msg)
        self.kind, self.msg, self.where = kind, msg, where

    def error(self, msg=None):
        if isinstance(msg, str):
            return self.kind(msg)
        text = self.msg
        if self.where:
            text += '\n\nThe failure occurred for item %s' % ''.join(str([item]) for item in self.where)
        return self.kind(msg(text) if callable(msg) else text)


def _tolerances(dtypes, rtol, atol, where):
    """rtol and atol as given (both or neither), else the loosest defaults of the dtypes compared."""
    if (rtol is None) != (atol is None):
        raise _Failure(ValueError, "Both 'rtol' and 'atol' must be either specified or omitted, but got no %s."
                       % ('rtol' if rtol is None else 'atol'), where)
    if rtol is not None:
        return rtol, atol
    rtols, atols = zip(*(_PRECISIONS.get(d, (0.0, 0.0)) for d in dtypes))
    return max(rtols), max(atols)


def _mismatch(what, extra, abs_diff, rel_diff, rtol, atol, abs_at=None, rel_at=None):
    """PyTorch's mismatch message: the header, the extra line, the greatest absolute and relative differences."""
    equality = rtol == 0 and atol == 0

    def line(kind, diff, at, tol):
        text = ('%s difference: %s' % (kind.title(), diff) if at is None else
                'Greatest %s difference: %s at index %s' % (kind, diff, at))
        return text + ('' if equality else ' (up to %s allowed)' % tol) + '\n'
    msg = '%s are not %s!\n\n%s\n' % (what, 'equal' if equality else 'close', extra.strip())
    return (msg + line('absolute', abs_diff, abs_at, atol) + line('relative', rel_diff, rel_at, rtol)).strip()


def _scalar_mismatch(actual, expected, rtol, atol):
    abs_diff = abs(actual - expected)
    rel_diff = float('inf') if expected == 0 else abs_diff / abs(expected)
    return _mismatch('Scalars', 'Expected %s but got %s.' % (expected, actual), abs_diff, rel_diff, rtol, atol)


def _compare_numbers(actual, expected, where, rtol, atol, equal_nan, check_dtype=False, **_):
    if check_dtype and type(actual) is not type(expected):
        raise _Failure(AssertionError, 'The (d)types do not match: %s != %s.' % (type(actual), type(expected)), where)
    rtol, atol = _tolerances([_NUMBER_DTYPES[type(x)] for x in (actual, expected)], rtol, atol, where)
    if actual == expected or equal_nan and cmath.isnan(actual) and cmath.isnan(expected):
        return
    abs_diff = abs(actual - expected)
    if cmath.isfinite(abs_diff) and abs_diff <= atol + rtol * abs(expected):
        return
    raise _Failure(AssertionError, _scalar_mismatch(actual, expected, rtol, atol), where)


def _compare_tensors(actual, expected, where, rtol, atol, equal_nan, check_dtype=True, check_stride=False, **_):
    """(One device and one layout here: check_device and check_layout change nothing.)"""
    rtol, atol = _tolerances([actual.dtype, expected.dtype], rtol, atol, where)
    for name, a, e, check in (('shape', actual.shape, expected.shape, True),
                              ('stride()', actual.stride(), expected.stride(), check_stride),
                              ('dtype', actual.dtype, expected.dtype, check_dtype)):
        if check and a != e:
            raise _Failure(AssertionError, "The values for attribute '%s' do not match: %s != %s." % (name, a, e),
                           where)
    x, y = actual._data, expected._data
    if x.dtype != y.dtype:
        common = dt.promote_types(actual.dtype, expected.dtype).np
        x, y = x.astype(common), y.astype(common)
    with np.errstate(all='ignore'):
        matches = np.isclose(x, y, rtol=rtol, atol=atol, equal_nan=equal_nan) if x.dtype.kind == 'f' else x == y
    if matches.all():
        return
    if not x.shape:
        raise _Failure(AssertionError, _scalar_mismatch(x.item(), y.item(), rtol, atol), where)
    if x.dtype.kind != 'f':                 # (differences of integers and bools as int64, divided in float32)
        x, y = x.astype(np.int64), y.astype(np.int64)
    shape = x.shape
    x, y, matches = x.reshape(-1), y.reshape(-1), matches.reshape(-1)
    with np.errstate(all='ignore'):
        abs_diff = np.abs(x - y)
        abs_diff[matches] = 0
        rel_diff = (abs_diff / np.abs(y) if x.dtype.kind == 'f' else
                    abs_diff.astype(np.float32) / np.abs(y).astype(np.float32))
    rel_diff[matches] = 0
    mismatches = int(matches.size - matches.sum())
    extra = 'Mismatched elements: %d / %d (%.1f%%)' % (mismatches, matches.size, 100 * mismatches / matches.size)
    (a, ai), (r, ri) = (_greatest(d, shape) for d in (abs_diff, rel_diff))
    raise _Failure(AssertionError, _mismatch('Tensor-likes', extra, a, r, rtol, atol, ai, ri), where)


def _greatest(diff, shape):
    """torch.max(diff, 0) as a number and the index it has in `shape`: a nan if there is one, else the first max."""
    nans = np.isnan(diff) if diff.dtype.kind == 'f' else np.zeros(diff.shape, bool)
    i = int(nans.argmax()) if nans.any() else int(diff.argmax())
    return diff[i].item(), tuple(int(k) for k in np.unravel_index(i, shape))


def _is_sequence(x):
    return isinstance(x, collections.abc.Sequence) and not isinstance(x, str)


def _compare(actual, expected, where, options):
    """Compare a pair of inputs (recursing into sequences and mappings); raise _Failure on the first mismatch."""
    if _is_sequence(actual) and _is_sequence(expected):
        if len(actual) != len(expected):
            raise _Failure(AssertionError, 'The length of the sequences mismatch: %d != %d'
                           % (len(actual), len(expected)), where)
        for i, (a, e) in enumerate(zip(actual, expected)):
            _compare(a, e, where + (i,), options)
    elif isinstance(actual, collections.abc.Mapping) and isinstance(expected, collections.abc.Mapping):
        keys, other = set(actual), set(expected)
        if keys != other:
            raise _Failure(AssertionError, 'The keys of the mappings do not match:\nMissing keys in the actual '
                           'mapping: %s\nAdditional keys in the actual mapping: %s'
                           % (sorted(other - keys), sorted(keys - other)), where)
        try:
            keys = sorted(keys)
        except TypeError:
            pass
        for key in keys:
            _compare(actual[key], expected[key], where + (key,), options)
    elif actual is None or expected is None:
        if not (actual is None and expected is None):
            raise _Failure(AssertionError, 'None mismatch: %s is not %s' % (actual, expected), where)
    elif isinstance(actual, (bool, np.bool_)) and isinstance(expected, (bool, np.bool_)):
        if bool(actual) is not bool(expected):
            raise _Failure(AssertionError, 'Booleans mismatch: %s is not %s' % (bool(actual), bool(expected)), where)
    elif all(isinstance(x, (int, float, np.number)) and not isinstance(x, bool) for x in (actual, expected)):
        _compare_numbers(*(x.item() if isinstance(x, np.number) else x for x in (actual, expected)), where,
                         **options)
    elif isinstance(actual, Tensor) and isinstance(expected, Tensor):
        _compare_tensors(actual, expected, where, **options)
    else:
        raise _Failure(TypeError, 'No comparison pair was able to handle inputs of type %s and %s.'
                       % (type(actual), type(expected)), where)


def assert_close(actual, expected, *, allow_subclasses=True, rtol=None, atol=None, equal_nan=False,
                 check_device=True, check_dtype=True, check_layout=True, check_stride=False, msg=None):
    """Raise AssertionError (with PyTorch's message, or `msg`) unless actual and expected are close."""
    try:
        _compare(actual, expected, (), dict(rtol=rtol, atol=atol, equal_nan=equal_nan, check_device=check_device,
                                            check_dtype=check_dtype, check_layout=check_layout,
                                            check_stride=check_stride))
    except _Failure as failure:
        raise failure.error(msg) from None


def assert_allclose(actual, expected, rtol=None, atol=None, equal_nan=True, msg=''):
    """Deprecated: assert_close with the old defaults (no dtype check, looser float32 rtol)."""
    warnings.warn('`torch.testing.assert_allclose()` is deprecated since 1.12 and will be removed in a future '
                  'release. Please use `torch.testing.assert_close()` instead. You can find detailed upgrade '
                  'instructions in https://github.com/pytorch/pytorch/issues/61844.', FutureWarning, stacklevel=2)
    from ._factories import tensor
    actual = actual if isinstance(actual, Tensor) else tensor(actual)
    expected = expected if isinstance(expected, Tensor) else tensor(expected, dtype=actual.dtype)
    if rtol is None and atol is None:
        old = {dt.float16: (1e-3, 1e-3), dt.float32: (1e-4, 1e-5), dt.float64: (1e-5, 1e-8)}
        rtol, atol = (max(t) for t in zip(*(old.get(d, (0.0, 0.0)) for d in (actual.dtype, expected.dtype))))
    assert_close(actual, expected, rtol=rtol, atol=atol, equal_nan=equal_nan, check_dtype=False, msg=msg or None)
