"""PyTorch 2.13's float32 2-d (and 1-d) convolution on the CPU, bit for bit: which kernel it runs and in what order
that kernel does its multiply-adds. Measured against PyTorch with AVX-512 (oneDNN 3's JIT kernels); the way oneDNN
shares the weight's and the bias's gradients between threads is its own cost model, written out below.

PyTorch runs oneDNN (mkldnn) for every float32 convolution but one small image (its use_mkldnn): batch 1, a kernel
of at most 3 in one of its dims and at most 20,480 input numbers go to its own im2col and sgemm ("slow2d"), whose
products are not modelled here (only its bias's gradient, a torch.sum). Neither are groups, dilation or transposed
convolutions. oneDNN picks, per pass (forward, input's gradient, weight's gradient):
  - a 1x1 kernel with padding: gemm (one chain of fused multiply-adds over every input channel);
  - a 1x1 kernel without (strided only when the stride divides the size): jit_1x1, whose forward starts from the
    bias and whose input's gradient is one chain over every output channel;
  - else its direct kernel ("jit"), which takes channels 16 at a time: a chain per block, blocks added in order;
    with stride, the input's gradient goes to brgconv_strided (one chain, one per kernel column when the windows
    do not end at the input's edge: not modelled for kernels wider than 3); the weight's gradient to jit:avx2 when
    the input has 4-15 channels.
Each chain is a sequence of float32 fused multiply-adds from +0 in a fixed order of its terms. The bias's and the
weight's gradients are chains over the output positions, (n, oh, ow) in order, cut between threads (each thread's
part from +0, the parts then added in order): that cut depends on torch.get_num_threads().

Every function takes the 4-d arrays of _ops_conv._Geometry (a 1-d convolution as height 1) and returns None where
PyTorch's order is not modelled (the caller then computes the values in numpy's order)."""
import math

import numpy as np

from . import _misc
from ._ops import _MID, _MID_MASK, _add_reduce, _fma_in_k_order, _round_to_odd
from ._reduce_order import _one_by_one

_F32, _F64 = np.dtype(np.float32), np.dtype(np.float64)
# Up to how many multiply-adds a convolution's pass is emulated (5-10 ns each in numpy: ~20 ms at the limit, a
# LeNet's batch of 8), and the weight's gradient (a chain of fused multiply-adds along the output positions, ~8 us
# each) up to how many positions: numpy's order beyond (a training loop's bigger batches), as for _ops._mkl_gemm.
LIMIT, POSITIONS = 1 << 21, 2048


def _div_up(a, b):
    return -(-a // b)


def _threads():
    return _misc.settings['num_threads']


def _kernels(geo):
    """The implementations PyTorch runs for (forward, input's gradient, weight's gradient), or None where this
    module does not model them (slow2d, groups, dilation; a 3-d convolution)."""
    if geo.nd != 2 or geo.groups != 1 or geo.dilation != (1, 1):
        return None
    n, c, (h, w), (kh, kw), (sh, sw) = geo.n, geo.c, geo.size, geo.kernel, geo.stride
    strided = (sh, sw) != (1, 1)
    if not ((strided or n >= 16 or kh != 1 or kw != 1 or _threads() > 1)          # (PyTorch's use_mkldnn)
            and ((kh > 3 and kw > 3) or n > 1 or n * c * h * w > 20480)):
        return None
    if kh == kw == 1:
        if any(geo.padding):
            return 'gemm', 'brgconv_strided' if strided else 'gemm', 'gemm'
        if not (sh > 1 and h % sh or sw > 1 and w % sw):
            return 'jit_1x1', 'brgconv_strided' if strided else 'jit_1x1', 'jit_1x1'
    return 'jit', 'brgconv_strided' if strided else 'jit', 'jit' if c <= 3 or c >= 16 else 'jit_avx2'


def _fma(acc, a, b, at=Ellipsis):
    """acc[at] = a * b + acc[at], rounded once (a float32 fused multiply-add); a, b float64 (exact products)."""
    c = acc[at].astype(_F64)
    p = np.broadcast_to(a * b, c.shape)
    t = p + c
    on_midpoint = (t.view(np.int64) & _MID_MASK) == _MID
    if on_midpoint.any():
        _round_to_odd(t, p, c, on_midpoint)
    acc[at] = t


def _padded(x, geo):
    ph, pw = geo.padding
    return np.pad(x, ((0, 0), (0, 0), (ph, ph), (pw, pw))) if ph or pw else x


def _window(geo, i, j):
    """The (rows, columns) of the padded input that kernel tap (i, j) meets, one per output position."""
    (oh, ow), (sh, sw) = geo.out_hw, geo.stride
    return slice(i, i + (oh - 1) * sh + 1, sh), slice(j, j + (ow - 1) * sw + 1, sw)


def forward(x, w, bias, geo):
    """The convolution's output (N, O, OH, OW) with its bias, or None."""
    kernels = _kernels(geo)
    if kernels is None or x.dtype != _F32 or geo.n * geo.o * np.prod(geo.out_hw) * w[0].size > LIMIT:
        return None
    (kh, kw), c = geo.kernel, geo.c
    xp = _padded(x, geo).astype(_F64)
    w64 = w.astype(_F64)
    shape = (geo.n, geo.o) + geo.out_hw
    if kernels[0] == 'jit_1x1':                 # (the bias first, then the input channels)
        out = np.zeros(shape, _F32) if bias is None else np.broadcast_to(bias[:, None, None], shape).copy()
        rows, cols = _window(geo, 0, 0)
        for ci in range(c):
            _fma(out, xp[:, ci, None, rows, cols], w64[None, :, ci, 0, 0, None, None])
        return out
    block = c if c < 16 or kernels[0] == 'gemm' else 16
    out = None
    for c0 in range(0, c, block):
        terms = [(i, j, ci) for i in range(kh) for j in range(kw) for ci in range(c0, min(c, c0 + block))]

        def products(s, e):
            return np.stack([xp[:, ci, None][(Ellipsis,) + _window(geo, i, j)] * w64[None, :, ci, i, j, None, None]
                             for i, j, ci in terms[s:e]])
        acc = _fma_in_k_order(products, len(terms), np.zeros(shape, _F32))
        out = (acc if bias is None else acc + bias[:, None, None]) if out is None else acc + out
    return out


def grad_input(w, g, geo):
    """The input's gradient (N, C, H, W), or None."""
    kernels = _kernels(geo)
    if kernels is None or g.dtype != _F32 or geo.n * geo.o * np.prod(geo.out_hw) * w[0].size > LIMIT:
        return None
    (kh, kw), (h, wd), (ph, pw) = geo.kernel, geo.size, geo.padding
    (oh, ow), (sh, sw) = geo.out_hw, geo.stride
    block = 16 if kernels[1] == 'jit' else geo.o
    # (brgconv_strided: a chain per kernel column when the windows stop short of the padded input's edge, for
    # kernels of up to 3 columns; wider ones split by a rule not found)
    short = kernels[1] == 'brgconv_strided' and (wd + 2 * pw - kw) % sw
    if short and kw > 3:
        return None
    columns = [[j] for j in range(kw)] if short else [range(kw)]
    g64, w64 = g.astype(_F64), w.astype(_F64)
    size = (geo.n, geo.c, max(h + 2 * ph, (oh - 1) * sh + kh), max(wd + 2 * pw, (ow - 1) * sw + kw))
    out = None
    for o0 in range(0, geo.o, block):
        for js in columns:
            acc = np.zeros(size, _F32)
            for i in range(kh):
                for j in js:
                    at = (slice(None), slice(None)) + _window(geo, i, j)
                    for o in range(o0, min(geo.o, o0 + block)):
                        _fma(acc, g64[:, o, None], w64[None, o, :, i, j, None, None], at)
            acc = acc[:, :, ph:ph + h, pw:pw + wd]
            out = acc if out is None else acc + out
    return out


def grad_bias(g, geo):
    """The bias's gradient (O,), or None."""
    if g.dtype != _F32:
        return None
    kernels = _kernels(geo)
    if kernels is None:
        return _add_reduce(g, (0, 2, 3)) if _slow2d(geo) else None      # (slow2d: a torch.sum)
    if kernels[2] == 'gemm':            # (each row of outputs summed from +0, the rows then added in order)
        rows = _one_by_one(np.add, g.reshape(math.prod(g.shape[:3]), g.shape[3]), 0).reshape(g.shape[:3])
        return _summed(rows.transpose(0, 2, 1).reshape(-1, geo.o))
    positions = g.transpose(0, 2, 3, 1).reshape(-1, geo.o)
    return _in_parts(_parts(geo, kernels[2], bias=True), lambda part: _summed(positions[part]))


def grad_weight(x, g, geo):
    """The weight's gradient (O, C, kh, kw), or None."""
    kernels = _kernels(geo)
    if kernels is None or kernels[2] not in ('jit', 'jit_avx2') or x.dtype != _F32:
        return None
    n, (oh, ow) = geo.n, geo.out_hw
    if n * oh * ow > POSITIONS or n * oh * ow * geo.o * geo.c * np.prod(geo.kernel) > LIMIT:
        return None
    (kh, kw), (sh, sw) = geo.kernel, geo.stride
    windows = np.lib.stride_tricks.sliding_window_view(_padded(x, geo), (kh, kw), axis=(2, 3))
    patches = windows[:, :, ::sh, ::sw][:, :, :oh, :ow].transpose(0, 2, 3, 1, 4, 5).reshape(-1, geo.c, kh, kw)
    patches, grads = patches.astype(_F64), g.transpose(0, 2, 3, 1).reshape(-1, geo.o).astype(_F64)

    def chain(part):
        start = part.start
        return _fma_in_k_order(lambda s, e: grads[start + s:start + e, :, None, None, None] *
                               patches[start + s:start + e, None], len(part), np.zeros((geo.o, geo.c, kh, kw), _F32))
    return _in_parts(_parts(geo, kernels[2], bias=False), chain)


def _summed(rows):
    """The rows added in order, from +0."""
    return _one_by_one(np.add, rows.T, 0)


def _in_parts(parts, total):
    """The parts' totals added in order (each thread's share of a sum, from +0)."""
    out = None
    for part in parts:
        if part.stop > part.start:
            r = total(part)
            out = r if out is None else out + r
    return out


def _slow2d(geo):
    return geo.nd == 2 and geo.groups == 1 and geo.dilation == (1, 1) and _kernels(geo) is None


# ------------------------------------------------------------------------ oneDNN's threads for the weight's gradient

def _parts(geo, kernel, bias):
    """The output positions (as ranges of n * OH * OW + oh * OW + ow) each thread sums, in order."""
    n, o, c, (oh, ow) = geo.n, geo.o, geo.c, geo.out_hw
    threads = _threads()
    per_image = oh * ow
    if kernel == 'jit':
        rows_2d = oh > 9 and geo.size[0] > 1          # (oneDNN's 2-d harness: output rows shared, not images)
        total, by_row = _balance(geo, rows_2d, threads)
        if rows_2d:
            return [range(a * ow, b * ow) for a, b in _split(n * oh, by_row)]
        if not bias:
            return [range(a * per_image, b * per_image) for a, b in _split(n, by_row)]
        parts = _reducer(total, 16, _div_up(o, 16), n, total * 3 * 5 * 5 * 16 * 16)
    elif kernel == 'jit_avx2':
        parts = (_reducer(threads, 8, _div_up(o, 8), n, 1 << 21) if bias else
                 _reducer(threads, np.prod(geo.kernel) * 64, _div_up(c, 8) * _div_up(o, 8), n, 1 << 21))
    else:                                              # (jit_1x1)
        parts = _reducer(threads, 16, _div_up(o, 16), n, threads * 3 * 5 * 5 * 16 * 16)
    return [range(a * per_image, b * per_image) for a, b in _split(n, parts)]


def _split(n, parts):
    """oneDNN's balance211: n items in `parts` ranges, the first ones one longer."""
    if parts <= 1 or not n:
        return [(0, n)]
    big = _div_up(n, parts)
    small = big - 1
    many = n - small * parts                         # (how many ranges are the longer ones)
    starts = [big * i if i <= many else many * big + (i - many) * small for i in range(parts + 1)]
    return list(zip(starts, starts[1:]))


def _reducer(threads, job_size, jobs, reduction_size, max_buffer):
    """oneDNN's reduce_balancer_t::balance: how many threads share each reduction (its number of parts)."""
    min_jobs = max(1, jobs // threads)
    max_jobs = max(1, max_buffer // (threads * job_size))
    groups = min(jobs // min_jobs, threads)
    per_group = min(threads // groups, reduction_size)
    best = jobs * job_size * reduction_size
    for k in range(min_jobs, jobs):
        g = min(jobs // k, threads)
        per = min(threads // g, reduction_size)
        upper = _div_up(jobs, g)
        if per > 1 and upper > max_jobs:
            continue
        cost = job_size * upper * (_div_up(reduction_size, per) + (per != 1))
        if cost < best:
            per_group, best = per, cost
    return per_group


def _balance(geo, rows_2d, threads):
    """oneDNN's jit_avx512_common convolution_bwd_weights balance(): (threads used, those sharing the batch)."""
    n, c, o, (h, w), (oh, ow), (kh, kw), (sh, sw) = (geo.n, geo.c, geo.o, geo.size, geo.out_hw, geo.kernel,
                                                     geo.stride)
    first = c < 16
    ic_block, ic_blocks = (c, 1) if first else (16, _div_up(c, 16))
    oc_blocks = _div_up(o, 16)
    ih_reduce, oh_reduce = (h, oh) if rows_2d else (1, 1)
    ih_rest, oh_rest = (1, 1) if rows_2d else (h, oh)
    mb_max = min(threads, n * max(1, oh_reduce // 9))

    def memory(mb, ocb, icb):
        return (_div_up(n * ih_reduce, mb) * _div_up(ic_blocks, icb) * ic_block * ih_rest * w // sh // sw
                + _div_up(n * oh_reduce, mb) * _div_up(oc_blocks, ocb) * 16 * oh_rest * ow
                + 8 * _div_up(oc_blocks, ocb) * _div_up(ic_blocks, icb) * kh * kw * ic_block * 16)

    def compute(mb, ocb, icb):
        return _div_up(n * oh_reduce, mb) * _div_up(oc_blocks, ocb) * _div_up(ic_blocks, icb)

    def choices():
        for mb in range(1, mb_max + 1):
            for ocb in range(1, min(threads // mb, oc_blocks) + 1):
                yield mb, ocb, min(threads // mb // ocb, ic_blocks)
    best, best_memory = (1, 1, 1), memory(1, 1, 1)
    for choice in choices():
        m = memory(*choice)
        if m <= best_memory:
            best, best_memory = choice, m
    best_compute = compute(*best)
    for choice in choices():
        m, cost = memory(*choice), compute(*choice)
        if cost <= best_compute and m < 1.1 * best_memory or 4 * cost <= 3 * best_compute:
            best, best_compute = choice, cost
    mb, ocb, icb = best
    if threads // 2 < mb < threads:
        mb = min(n * max(1, oh_reduce // 9), threads)
    return mb * ocb * icb, mb
