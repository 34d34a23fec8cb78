"""Engine-only checks of indexing and views (no PyTorch needed)."""
import warnings

import engine as torch


def test_in_place_scatter_reduce_warns_at_the_callers_line():
    """scatter_(..., reduce=) with a tensor src warns (deprecated) at the user's line, not inside the engine."""
    x = torch.arange(4.)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        from engine import _tensor
        _tensor._warned.discard(next((m for m in _tensor._warned if m.startswith('The reduce argument')), None))
        x.scatter_(0, torch.tensor([0]), torch.tensor([1.]), reduce='add')
    assert [w.filename for w in caught] == [__file__]
    assert x.tolist() == [1., 1., 2., 3.]


def test_out_resize_warning_at_the_callers_line():
    """The deprecated resize of a non-empty out= tensor warns at the user's line, whichever op wrote it."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        torch.exp(torch.ones(3), out=torch.zeros(2))
        torch.mm(torch.ones(3, 2), torch.ones(2, 2), out=torch.zeros(3))
    assert [w.filename for w in caught] == [__file__] * 2
