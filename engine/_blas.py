"""numpy's own OpenBLAS, for the one elementwise op it runs on all its threads: `w -= t` / `w += t` on a big array.

PyTorch shares an elementwise op of 32,768 numbers or more between its threads; numpy runs it on one. An
optimizer's `w -= lr * w.grad` on a weight that a BLAS product has just read from the other cores is where that
shows: those cores hold the weight's cache lines, and one thread writing them all took 35-55 us for a 784 x 128
float32 weight, OpenBLAS's axpy on two threads 21-24 (bench/README.md). axpy(-1, t, w) is w + (-t): the same single
rounding as w - t, bit for bit.

Found only where numpy ships OpenBLAS as its wheels do (`scipy_cblas_?axpy64_`); elsewhere (Pyodide, other BLAS
builds) `axpy` is None and numpy does the op.
"""
import glob
import os

import numpy as np

SMALLEST = 32768        # numbers: below this PyTorch runs an elementwise op on one thread too


def _load():
    try:
        import ctypes
        libs = os.path.join(os.path.dirname(os.path.dirname(np.__file__)), 'numpy.libs')
        paths = glob.glob(os.path.join(libs, 'libscipy_openblas64_*'))
        if not paths:
            return None
        lib = ctypes.CDLL(paths[0])
        fns = {}
        for dtype, name, real in ((np.float32, 'scipy_cblas_saxpy64_', ctypes.c_float),
                                  (np.float64, 'scipy_cblas_daxpy64_', ctypes.c_double)):
            fn = getattr(lib, name)
            fn.argtypes = [ctypes.c_int64, real, ctypes.c_void_p, ctypes.c_int64, ctypes.c_void_p, ctypes.c_int64]
            fn.restype = None
            fns[np.dtype(dtype)] = fn
        return fns
    except (ImportError, OSError, AttributeError):
        return None


_AXPY = _load()


def axpy(y, sign, x):
    """y += sign * x in place (sign 1 or -1) through OpenBLAS; False where numpy must do it: no OpenBLAS, a small or
    non-contiguous array, another dtype or shape, or arrays sharing memory."""
    fn = _AXPY and _AXPY.get(y.dtype)
    if (fn is None or y.size < SMALLEST or x.dtype is not y.dtype or x.shape != y.shape
            or not (y.flags.c_contiguous and x.flags.c_contiguous) or np.may_share_memory(x, y)):
        return False
    fn(y.size, sign, x.ctypes.data, 1, y.ctypes.data, 1)
    return True
