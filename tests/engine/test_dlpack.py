"""torch.from_dlpack shares the exporter's memory, writeable both ways, on CPython's numpy and on Pyodide's numpy
2.0 (whose np.from_dlpack hands back read-only arrays)."""
import numpy as np

import engine as torch


def test_from_dlpack_of_a_numpy_array_writes_through():
    n = np.arange(3.)
    f = torch.from_dlpack(n)
    f[0] = 9
    assert n.tolist() == [9., 1., 2.] and f._version == 1 and f.dtype == torch.float64


def test_from_dlpack_of_a_tensor_shares_its_memory():
    t = torch.ones(2)
    g = torch.from_dlpack(t)
    g[1] = 7
    assert t.tolist() == [1., 7.] and g.tolist() == [1., 7.]


def test_from_dlpack_refuses_a_tensor_requiring_grad():
    try:
        torch.from_dlpack(torch.ones(1, requires_grad=True))
    except BufferError as e:
        assert "Can't export tensors that require gradient" in str(e)
    else:
        raise AssertionError('no error')
