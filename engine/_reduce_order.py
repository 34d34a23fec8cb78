"""Norms and products in the order PyTorch's CPU kernels do their float arithmetic, so that `.item()` (17 digits)
and printed values agree to the last bit. numpy adds and multiplies along the innermost axis in pairs; PyTorch
either goes through the numbers one by one (its scalar reduction loop: each result accumulated from the start,
in memory order) or, over a contiguous last dim, in vector lanes.

The lanes are those of AVX2's 32-byte vectors (VECTOR_BYTES), which PyTorch runs these kernels in on AVX-512 CPUs too."""
import math

import numpy as np

from ._factories import _fma64
from ._random import fma32


# The width of the ATen CPU vectors whose lanes these reductions follow: AVX2's 32 bytes (8 floats, 4 doubles).
# PyTorch registers its norm and prod kernels with REGISTER_DISPATCH, which leaves their AVX-512 slot empty: an
# AVX-512 CPU runs the AVX2 kernels, as for sums (softmax, registered for AVX-512 as well, has 16-float lanes).
VECTOR_BYTES = 32


def _layout(x, dims):
    """x as a 2-d array (outputs, the numbers of each output in the order the kernel takes them: the reduced dims
    in memory order, as PyTorch's TensorIterator orders dims by stride); how many of those numbers make one run of
    memory (reduced dims innermost, contiguous: the kernel's contiguous reduction; 0 when the innermost dim is
    kept); the result's shape (no keepdim). dims: sorted reduced axes (None: all)."""
    from ._ops import _iter_order
    nd = x.ndim
    red = range(nd) if dims is None else dims
    # (TensorIterator's order, outermost first: the result's stride 0 puts the reduced dims innermost; an expanded
    # dim, of stride 0, decides nothing)
    res = np.zeros([1 if i in red else n for i, n in enumerate(x.shape)], np.int8)
    out = np.lib.stride_tricks.as_strided(res, x.shape, [0 if i in red else s for i, s in enumerate(res.strides)])
    in_memory = [i for i in reversed(_iter_order(x.shape, [out, x], reduction=True)) if x.shape[i] != 1]
    reduced = [i for i in in_memory if i in red]
    kept = [i for i in range(nd) if i not in red]
    n = 1
    for i in reduced:
        n *= x.shape[i]
    run = 1                                         # (the innermost reduced dims that coalesce into one run)
    for i in reversed(in_memory):
        if i not in red or x.strides[i] != run * x.itemsize:
            break
        run *= x.shape[i]
    if in_memory and in_memory[-1] not in red:
        run = 0
    rows = np.transpose(x, kept + [i for i in range(nd) if i in red and i not in reduced] + reduced)
    out_shape = tuple(x.shape[i] for i in kept)
    return rows.reshape(math.prod(out_shape), n), run, out_shape


def _one_by_one(op, rows, start):
    """start op x0 op x1 op ... for each row, in that order."""
    if rows.shape[0] == 1:
        return op.accumulate(np.concatenate([np.full((1, 1), start, rows.dtype), rows], 1), axis=1)[:, -1]
    return op.reduce(np.ascontiguousarray(rows.T), axis=0, initial=start)  # (numpy keeps the order of an outer axis)


def thread_blocks(n):
    """How PyTorch's CPU reduction of n numbers to one shares them between its threads: (the number of threads,
    parallel_for's blocks (start, stop), as many as the threads, each of 32,768 numbers at least), each block then
    reduced into a buffer of its own thread; None where it runs on one thread."""
    from . import _misc                              # (its settings: torch.set_num_threads)
    threads = max(1, _misc.settings['num_threads'])
    if threads == 1 or n < 32768:
        return None
    chunk = -(-n // min(threads, -(-n // 32768)))
    return threads, [(start, min(n, start + chunk)) for start in range(0, n, chunk)]


def _by_threads(rows, init, op, fn):
    """fn(rows) (each row's accumulation from init), a row of a reduction to one number shared between threads
    (thread_blocks): each block accumulated from init, then the buffers (unused ones init) combined in turn with op,
    from init."""
    shared = thread_blocks(rows.shape[1]) if rows.shape[0] == 1 else None
    if shared is None:
        return fn(rows)
    threads, blocks = shared
    buffers = np.full((1, threads), init, rows.dtype)
    for t, (start, stop) in enumerate(blocks):
        buffers[0, t] = np.asarray(fn(rows[:, start:stop]), rows.dtype)[0]
    return _one_by_one(op, buffers, init)


def _shape(r, out_shape, dims, ndim, keepdim):
    """The reduced rows r in the result's shape, laid out as PyTorch's result (see c_strided)."""
    r = r.reshape(out_shape)
    if keepdim:
        r = np.expand_dims(r, tuple(range(ndim)) if dims is None else tuple(dims))
    return c_strided(r)


def c_strided(r):
    """r with C strides, those of size-1 dims too: PyTorch's reductions make their result contiguous, where
    numpy's follows a non-contiguous input's order."""
    if type(r) is not np.ndarray or r.ndim < 1:
        return r
    step, strides = r.itemsize, []
    for n in r.shape[::-1]:
        strides.append(step)
        step *= max(n, 1)
    return r if r.strides == tuple(strides[::-1]) else np.array(r, order='C', copy=True)


def norm(x, dims, keepdim, ord, in_order=False):
    """The ord-norm (1, 2 or another finite p other than 0) of float32 / float64 x (as laid out) over dims, as PyTorch's
    norm kernel computes it: the 2-norm over a contiguous last dim (or all of a dense array) squares vectors of
    numbers into lanes, adds the lanes in turn, then the squares of the numbers left over; everything else adds
    |x|, x * x or |x| ** p one by one and takes the root at the end. (Of the numbers left over after the lanes, GCC
    squares those in fours before adding them and fuses the multiply-adds of the last three or fewer.) With
    `in_order`, everything one by one (the kernel for halves, accumulated in float)."""
    rows, run, out_shape = _layout(x, dims)
    rows, t, contiguous = np.abs(rows), x.dtype.type, run == rows.shape[1]
    if rows.shape[1] <= 1:                          # (over size-1 dims PyTorch returns |x|)
        r = rows[:, 0] if rows.shape[1] else np.zeros(rows.shape[0], x.dtype)
    elif ord == 2 and contiguous and not in_order:
        w = VECTOR_BYTES // x.itemsize
        nv = rows.shape[1] // w
        lanes = np.zeros((rows.shape[0], w), x.dtype)
        if nv:
            sq = rows[:, :nv * w].reshape(-1, nv, w)
            lanes = np.add.reduce(sq * sq, axis=1) if nv > 1 else (sq * sq)[:, 0]
        r = np.add.accumulate(lanes, axis=1)[:, -1]   # (lane 0 + lane 1 + ..., in order)
        fours = nv * w + (rows.shape[1] - nv * w) // 4 * 4
        if fours > nv * w:                          # (the compiler squares the rest by fours, adds them in order)
            sq = rows[:, nv * w:fours] * rows[:, nv * w:fours]
            r = np.add.accumulate(np.concatenate([r[:, None], sq], 1), axis=1)[:, -1]
        fma = fma32 if x.dtype == np.float32 else _fma64    # (and fuses the last ones' multiply-adds)
        for i in range(fours, rows.shape[1]):
            r = np.asarray(fma(rows[:, i], rows[:, i], r), x.dtype)
        r = np.sqrt(r)
    elif ord == 2:
        r = np.sqrt(_by_threads(rows * rows, 0, np.add, lambda v: _one_by_one(np.add, v, 0)))
    elif ord == 1:
        r = _by_threads(rows, 0, np.add, lambda v: _one_by_one(np.add, v, 0))
    else:
        p = t(ord)
        r = _by_threads(c_pow(rows, p), 0, np.add, lambda v: _one_by_one(np.add, v, 0))
        r = c_pow(r, t(1) / p)
    return _shape(np.asarray(r, x.dtype), out_shape, dims, x.ndim, keepdim)


def c_pow(x, p):
    """C's pow(x, p) in x's dtype: correctly rounded for floats, as glibc's powf (numpy's float32 power is not, and
    it takes sqrt for an exponent of 0.5)."""
    if x.dtype == np.float32:
        return np.power(x.astype(np.float64), np.float64(p)).astype(np.float32)
    return np.power(x, np.full_like(x, p))


def prod(x, dims, keepdim):
    """The product of float32 / float64 x over dims as PyTorch's prod kernel multiplies. Each run of contiguous
    numbers, in turn into the result: blocks of four vectors multiplied into four accumulators, those multiplied
    pairwise ((a0 a1)(a2 a3)), its lanes one by one into the result, then the numbers left over (a run shorter than
    four vectors: all of it one by one). A reduction whose innermost dim is kept: one by one."""
    rows, run, out_shape = _layout(x, dims)
    if not run or not rows.shape[1]:
        r = _by_threads(rows, 1, np.multiply, lambda v: _one_by_one(np.multiply, v, 1))
    elif run == rows.shape[1]:
        r = _by_threads(rows, 1, np.multiply, lambda v: _runs_product(v, v.shape[1]))
    else:
        r = _runs_product(rows, run)
    return _shape(np.asarray(r, x.dtype), out_shape, dims, x.ndim, keepdim)


def _runs_product(rows, run):
    """prod's products of rows made of runs of `run` contiguous numbers (see prod)."""
    w = VECTOR_BYTES // rows.itemsize
    blocks = run // (4 * w)
    r = np.ones(rows.shape[0], rows.dtype)
    for start in range(0, rows.shape[1], run):
        part = rows[:, start:start + run]
        if blocks:
            v = part[:, :blocks * 4 * w].reshape(-1, blocks, 4, w)
            acc = np.multiply.reduce(v, axis=1) if blocks > 1 else v[:, 0]
            lanes = (acc[:, 0] * acc[:, 1]) * (acc[:, 2] * acc[:, 3])
            r = r * np.multiply.accumulate(lanes, axis=1)[:, -1]
            part = part[:, blocks * 4 * w:]
        r = np.multiply.accumulate(np.concatenate([r[:, None], part], 1), axis=1)[:, -1]
    return r
