"""The op table, part 11: attention. `scaled_dot_product_attention` as PyTorch 2.13 runs it on CPU, and baddbmm.

PyTorch picks a kernel per call, and the learner sees which in the graph: 4-d query / key / value with no dropout
(and a 2-d or 4-d mask that needs no grad) go to the fused flash kernel, one node
ScaledDotProductFlashAttentionForCpuBackward0 saving query, key, value, output, logsumexp, attn_mask, scale...;
everything else (dropout_p > 0, 3-d inputs, a mask that requires grad, ...) to the math fallback, composed of ops
exactly as aten's `_scaled_dot_product_attention_math` composes them (MulBackward1, matmul's nodes, AddBackward0,
SafeSoftmaxBackward0, dropout's MulBackward0). Values: the math path is the engine's ops; the flash kernel (forward
and backward) is followed step by step in float32 for up to 512 keys (_flash_f32, _flash_grads_f32), bit for bit
where the engine models MKL's sgemm for its shapes (and but for glibc's logf, not correctly rounded in ~0.2% of
logsumexp rows); elsewhere its values are computed in one go, equal up to rounding.
"""
import math
import warnings

import numpy as np

from . import _dtypes as dt
from ._autograd import Node, SavedTensor, RESULT as _RESULT, pack_outputs
from ._ops import (_attach, _number, _not_implemented, _mul_scalar, _mkl_gemm, _rounded, _vec_exp, matmul,
                   bmm, transpose, cat)
from ._ops_nn import _raw, _softmax_np, softmax_backward_data, linear
from ._tensor import Tensor, make, parser_type, user_stacklevel, _wrap_dim

__all__ = ['scaled_dot_product_attention', 'baddbmm', 'multi_head_attention_forward']


# ================================================================================================ _safe_softmax

def _safe_softmax(a, dim):
    """softmax where a row of all -inf gives zeros instead of NaN (aten's _safe_softmax: SafeSoftmaxBackward0)."""
    d = _wrap_dim(dim, a._data.ndim)
    x = np.ascontiguousarray(a._data)
    y = _softmax_np(x, d)
    dead = np.all(x == -np.inf, axis=d, keepdims=True)
    if dead.any():
        y = np.where(dead, x.dtype.type(0), y)
    return _attach(make(y), SafeSoftmaxBackward0, (a,), {'dim': _raw(dim), 'result': _RESULT})


class SafeSoftmaxBackward0(Node):
    def apply(self, g):
        return (softmax_backward_data(g, self.saved('result'), self._saved['dim']),)


# ================================================================================================ baddbmm

def baddbmm(input, batch1, batch2, *, beta=1, alpha=1):
    """beta * input + alpha * (batch1 @ batch2), input broadcast over the batch (BaddbmmBackward0)."""
    beta, alpha = _number(beta), _number(alpha)
    input.detach().expand(batch1.size(0), batch1.size(1), batch2.size(2))    # (PyTorch's first check)
    if input.dtype is not batch1.dtype:         # (then input's dtype against batch1's; bmm compares batch2's)
        raise RuntimeError('Input dtypes must be the same, got: input %s, batch1: %s, batch2: %s'
                           % tuple(dt.C_NAMES[t.dtype.name] for t in (input, batch1, batch2)))
    out = bmm(batch1.detach(), batch2.detach())._data
    t = out.dtype.type
    if alpha != 1:
        out = t(alpha) * out
    if beta != 0:                                        # (beta 0: input ignored, nan and inf too)
        out = out + (input._data if beta == 1 else t(beta) * input._data)
    return _attach(make(np.ascontiguousarray(out)), BaddbmmBackward0, (input, batch1, batch2),
                   {'alpha': alpha, 'batch1': SavedTensor(batch1) if batch2._requires_grad else None,
                    'batch2': SavedTensor(batch2) if batch1._requires_grad else None, 'beta': beta})


def baddbmm_(self, batch1, batch2, *more, beta=1, alpha=1):
    """baddbmm in place: self must already have the result's shape (it is not broadcast). PyTorch's order of checks:
    autograd's (a leaf requiring grad), the dtypes, then the shape of self."""
    from ._ops import _check_inplace, _inplace, _sizes
    if more:                            # baddbmm_(beta, batch1, batch2): PyTorch's deprecated overload (warned)
        from ._ops_linalg import _number_first
        (batch1, batch2), beta, alpha = _number_first('baddbmm_', (batch1, batch2) + more, beta, alpha)
    _check_inplace(self, (batch1, batch2))
    if isinstance(batch1, Tensor) and isinstance(batch2, Tensor) and batch1.dim() == 3 and batch2.dim() == 3:
        shape = (batch1.shape[0], batch1.shape[1], batch2.shape[2])
        self.detach().expand(shape)             # (a self that cannot expand to the result: expand's error first)
        if not self.dtype is batch1.dtype is batch2.dtype:
            raise RuntimeError('Input dtypes must be the same, got: input %s, batch1: %s, batch2: %s'
                               % tuple(dt.C_NAMES[t.dtype.name] for t in (self, batch1, batch2)))
        if batch1.shape[0] == batch2.shape[0] and batch1.shape[2] == batch2.shape[1] and tuple(self.shape) != shape:
            raise RuntimeError('Bad in-place call: input tensor size %s and output tensor size %s should match'
                               % (_sizes(self.shape), _sizes(shape)))
    return _inplace(self, baddbmm, batch1, batch2, beta=beta, alpha=alpha)


def addbmm(input, batch1, batch2, *, beta=1, alpha=1):
    """beta * input + alpha * the sum over the batch of batch1[i] @ batch2[i], input broadcast to the result: as
    PyTorch's CPU kernel computes it, one addmm per matrix into the result (AddbmmBackward0)."""
    from . import _autograd as ag
    from ._ops_nn import addmm
    beta, alpha = _number(beta), _number(alpha)
    out = input.detach().expand(batch1.size(1), batch2.size(2))          # (PyTorch's first check)
    for name, b in (('batch1', batch1), ('batch2', batch2)):
        if b.dim() != 3:
            raise RuntimeError('%s must be a 3D tensor' % name)
    n = batch1.shape[0]
    if n != batch2.shape[0]:
        raise RuntimeError('batch1 and batch2 must have same number of batches, got %d and %d' % (n, batch2.shape[0]))
    if batch1.shape[2] != batch2.shape[1]:
        raise RuntimeError('Incompatible matrix sizes for bmm (%dx%d and %dx%d)' % (batch1.shape[1:] + batch2.shape[1:]))
    with ag.no_grad():
        if n == 0:
            out = out * beta if beta != 0 else out * 0
        for i in range(n):
            out = addmm(out, batch1.detach()[i], batch2.detach()[i], beta=beta if i == 0 else 1, alpha=alpha)
    sizes = {'batch1_sym_argsize_0': n, 'batch1_sym_argsize_1': batch1.shape[1], 'batch2_sym_argsize_2': batch2.shape[2]}
    return _attach(make(np.ascontiguousarray(out._data)), AddbmmBackward0, (input, batch1, batch2),
                   dict(sizes, alpha=alpha, beta=beta, batch1=SavedTensor(batch1) if batch2._requires_grad else None,
                        batch2=SavedTensor(batch2) if batch1._requires_grad else None))


def addbmm_(self, batch1, batch2, *, beta=1, alpha=1):
    """addbmm in place (its deprecated overloads, beta first, come through the argument parser)."""
    from ._ops import _check_inplace, _inplace
    _check_inplace(self, (batch1, batch2))
    return _inplace(self, addbmm, batch1, batch2, beta=beta, alpha=alpha)


class AddbmmBackward0(Node):
    def apply(self, g):
        s = self._saved
        ge = None
        if self.needs(1) or self.needs(2):      # (each product of the batch got the sum's gradient)
            ge = g.unsqueeze(0).expand(s['batch1_sym_argsize_0'], s['batch1_sym_argsize_1'], s['batch2_sym_argsize_2'])
        return _batched_product_grads(self, g, ge)


class BaddbmmBackward0(Node):
    def apply(self, g):
        return _batched_product_grads(self, g, g)


def _batched_product_grads(node, g, g_products):
    """The gradients of beta * input + alpha * (batch1 @ batch2) (added up over the batch or not): g the output's,
    g_products that of the batch of products."""
    s = node._saved
    return (_scaled(g, s['beta']) if node.needs(0) else None,
            _scaled(bmm(g_products, transpose(node.saved('batch2'), 1, 2)), s['alpha']) if node.needs(1) else None,
            _scaled(bmm(transpose(node.saved('batch1'), 1, 2), g_products), s['alpha']) if node.needs(2) else None)


def _scaled(g, k):
    return g if k == 1 else _mul_scalar(g, k)


# ================================================================================================ sdpa

def _check_inputs(q, k, v, mask):
    """aten's validate_sdpa_input: dtypes, dims, the mask's dtype."""
    if not (q.dtype == k.dtype == v.dtype):
        raise RuntimeError('Expected query, key, and value to have the same dtype, but got query.dtype: %s key.dtype: '
                           '%s and value.dtype: %s instead.' % tuple(dt.C_NAMES[t.dtype.name] for t in (q, k, v)))
    if q.ndim < 2 or k.ndim < 2 or v.ndim < 2:
        raise RuntimeError('Expected query, key, and value to all be  at least 2 dimensional, but got query.dim: %d '
                           'key.dim: %d and value.dim: %d instead.' % (q.ndim, k.ndim, v.ndim))
    if mask is not None and mask.dtype.name not in ('bool', 'float32', q.dtype.name):
        raise RuntimeError('Expected attn_mask dtype to be bool or float or to match query dtype, but got '
                           'attn_mask.dtype: %s and  query.dtype: %s instead.'
                           % (dt.C_NAMES[mask.dtype.name], dt.C_NAMES[q.dtype.name]))


def _flash_ok(q, k, v, mask, dropout_p, enable_gqa):
    """aten's use_flash_attention_cpp: which calls the fused CPU kernel takes."""
    if dropout_p > 0 or not (q.ndim == k.ndim == v.ndim == 4) or q.dtype.name not in ('float16', 'float32', 'float64'):
        return False
    (b, h), (bk, hk), (bv, hv) = q.shape[:2], k.shape[:2], v.shape[:2]
    if not (b == bk == bv) or not (h == hk == hv or enable_gqa and hk == hv and h % hk == 0):
        return False
    if mask is not None:
        if mask.requires_grad:
            return False
        ms = mask.shape                                  # (a 1-d mask fails here in PyTorch, with this error)
        if mask.ndim < 2:
            raise IndexError('Dimension out of range (expected to be in range of [-1, 0], but got -2)')
        if ms[-2] not in (q.shape[2], 1) or ms[-1] not in (k.shape[2], 1):
            return False
        if mask.ndim != 2 and not (mask.ndim == 4 and ms[0] in (1, b) and ms[1] in (1, h)):
            return False
    if not (q.shape[-1] == k.shape[-1] == v.shape[-1]) or q.shape[2] == 0 or k.shape[2] == 0:
        return False
    return all(t._data.strides[-1] == t._data.itemsize for t in (q, k, v))


def _float_mask(mask, dtype):
    """aten's convert_boolean_attn_mask: a bool mask (True = attend) as 0 / -inf in the query's dtype."""
    if mask is None or mask.dtype.name != 'bool':
        return mask
    return make(np.where(mask._data, dtype(0), dtype(-np.inf)))


# The kernels scaled_dot_product_attention may take (torch.nn.attention.sdpa_kernel, torch.backends.cuda's flags)
SDP_ENABLED = {'flash': True, 'math': True, 'mem_efficient': True, 'cudnn': True, 'overrideable': True}


def _no_kernel(dropout_p):
    """PyTorch's errors when neither the flash kernel (not enabled, or not for these inputs) nor the math one may
    run; with the flash one enabled, first its warning why it was not used (the reason PyTorch gives, where known)."""
    if not SDP_ENABLED['flash']:
        raise RuntimeError('No viable backend for scaled_dot_product_attention was found. This is likely due to '
                           'turning off both the math kernel and the fused kernels.')
    where = ' (Triggered internally at /__w/pytorch/pytorch/aten/src/ATen/native/transformers/sdp_utils_cpp.%s.)'
    warnings.warn('Flash attention kernel not used because:' + where % 'cpp:99', UserWarning,
                  stacklevel=user_stacklevel())
    if dropout_p > 0:
        warnings.warn('Both fused kernels do not support non-zero dropout.' + where % 'h:241', UserWarning,
                      stacklevel=user_stacklevel())
    raise RuntimeError('No available kernel.  Aborting execution.')


def scaled_dot_product_attention(query, key, value, attn_mask=None, dropout_p=0.0, is_causal=False, scale=None,
                                 enable_gqa=False):
    """softmax(q @ k^T * scale + mask) @ v, through PyTorch's flash kernel or its math fallback (see above)."""
    for name, given, kind in (('dropout_p', dropout_p, float), ('is_causal', is_causal, bool), ('scale', scale, float)):
        if not (isinstance(given, bool) if kind is bool else isinstance(given, (int, float, np.number))
                or name == 'scale' and given is None):                      # (the parser's types)
            raise TypeError("scaled_dot_product_attention(): argument '%s' must be %s, not %s"
                            % (name, kind.__name__, parser_type(given)))
    _check_inputs(query, key, value, attn_mask)
    flash = SDP_ENABLED['flash'] and _flash_ok(query, key, value, attn_mask, dropout_p, enable_gqa)
    if not flash and not SDP_ENABLED['math']:
        _no_kernel(dropout_p)
    mask = _float_mask(attn_mask, query._data.dtype.type)
    if flash:
        return _flash(query, key, value, mask, is_causal, scale)
    return _math(query, key, value, mask, dropout_p, is_causal, scale, enable_gqa)


def _scale(q, scale):
    if scale is not None:
        return float(scale)
    return 1.0 / math.sqrt(q.shape[-1]) if q.shape[-1] else math.inf      # (C++'s 1 / sqrt(0))


def _math(q, k, v, mask, dropout_p, is_causal, scale, enable_gqa):
    """aten's _scaled_dot_product_attention_math, op for op: q and k^T each scaled by sqrt(scale)."""
    negative = scale is not None and scale < 0
    s = math.sqrt(_scale(q, abs(scale) if negative else scale))
    q = _mul_scalar(q, 0.0 - s if negative else s)
    if is_causal:
        if mask is not None:
            raise RuntimeError('_scaled_dot_product_attention: Explicit attn_mask should not be set when '
                               'is_causal=True')
        lower = np.tril(np.ones((q.shape[-2], k.shape[-2]), dtype=bool))
        mask = _float_mask(make(lower), q._data.dtype.type)
    if enable_gqa:
        k, v = _repeat_heads(q, k, v)
    attn = matmul(q, _mul_scalar(transpose(k, -2, -1), s))
    if mask is not None:
        attn.add_(mask)
    attn = _safe_softmax(attn, -1)
    if dropout_p > 0.0:
        from .nn.functional import dropout
        if dropout_p > 1:                 # (aten's dropout checks it: a RuntimeError, not F.dropout's ValueError)
            raise RuntimeError('dropout probability has to be between 0 and 1, but got %s' % dropout_p)
        attn = dropout(attn, dropout_p, True)
    return matmul(attn, v)


def _repeat_heads(q, k, v):
    """aten's pre_process_group_query_attention_input: key / value heads repeated to the query's (GQA)."""
    hq, hk, hv = q.shape[-3], k.shape[-3], v.shape[-3]
    if hq == hk == hv:
        return k, v
    if hq % hk or hq % hv:
        raise RuntimeError('Number of heads in key and value must divide the number of heads in ')
    return k.repeat_interleave(hq // hk, -3), v.repeat_interleave(hq // hv, -3)


def _scores(q, k, mask, is_causal, scale):
    """The flash kernel's scores q @ k^T * scale + mask (causal: -inf above the diagonal), heads of k repeated."""
    if k.shape[1] != q.shape[1]:
        k = np.repeat(k, q.shape[1] // k.shape[1], axis=1)
    t = q.dtype.type
    s = np.matmul(q, np.swapaxes(k, -1, -2)) * t(scale)
    if mask is not None:
        s = s + mask
    if is_causal:
        s = np.where(np.tril(np.ones(s.shape[-2:], dtype=bool)), s, t(-np.inf))
    return s


def _order(a):
    """The dims of array a from the outermost in memory to the innermost (empty_like keeps that layout)."""
    return tuple(sorted(range(a.ndim), key=lambda d: -a.strides[d]))


def _laid_out(x, order):
    """x's values in memory laid out with dims `order` from outermost to innermost."""
    return np.ascontiguousarray(x.transpose(order)).transpose(np.argsort(order))


def _exp(x):
    """exp as PyTorch's vectorized kernels compute it (Sleef's expf_u10 for float32)."""
    return _vec_exp(x) if x.dtype == np.float32 else np.exp(x)


def _flash_values(q, k, v, mask, is_causal, scale):
    """The kernel's output and logsumexp (per query row): float32 as PyTorch's kernel computes them (_flash_f32),
    else softmax(scores) @ v in one go."""
    if q.dtype == np.float32 and k.shape[2] <= _KV_SPLIT and (mask is None or mask.dtype == np.float32):
        return _flash_f32(q, k, v, mask, is_causal, np.float32(scale))
    s = _scores(q, k, mask, is_causal, scale)
    m = s.max(-1, keepdims=True)
    live = m != -np.inf
    e = _exp(s - np.where(live, m, 0))
    total = e.sum(-1, keepdims=True, dtype=q.dtype)
    vv = np.repeat(v, q.shape[1] // v.shape[1], axis=1) if v.shape[1] != q.shape[1] else v
    with np.errstate(divide='ignore', invalid='ignore'):  # (a row with nothing to attend to: zeros, logsumexp 0)
        out = np.where(live, np.matmul(e, vv) * (q.dtype.type(1) / total), q.dtype.type(0)).astype(q.dtype)
        lse = np.where(live, m + np.log(total), q.dtype.type(0))[..., 0].astype(q.dtype)
    return out, lse


# PyTorch's CPU flash kernel (float32, AVX-512): per head and block of query rows (32, 64 or 256 of them by the
# query's length), scores by MKL's sgemm (the engine's _mkl_gemm), scaled (with a mask: one fused multiply-add),
# exp_u20 over whole vectors of 16 and expf for the rest, their sum in 16 lanes, then the rest in order;
# sgemm with v, times 1 / sum; logsumexp = max + logf(sum). Keys beyond _KV_SPLIT (an online softmax over blocks
# of keys) are not modelled.
_KV_SPLIT = 512
_F32 = np.float32
_LN_MIN, _LN_MAX, _LOG2E, _LN2 = np.array([0xc2aeac50, 0x42b17218, 0x3fb8aa3b, 0x3f317218], np.uint32).view(_F32)
_EXP_POLY = [_F32(c) for c in (0.00828929059, 0.0418978221, 0.166676521, 0.499991506, 0.999999701, 1.0)]
_expf, _logf = _rounded(np.exp), _rounded(np.log)


def _fma(a, b, c):
    """a * b + c rounded once, for float32 operands (the exact product in float64)."""
    return (a.astype(np.float64) * b + c).astype(_F32)


def _exp_u20(x):
    """ATen's Vectorized<float>::exp_u20: x = n ln2 + r, exp(r) by a degree-5 polynomial (fused multiply-adds),
    times 2^(n - 1) times 2; 0 below ln(FLT_MIN)."""
    src = np.maximum(np.minimum(x, _LN_MAX), _LN_MIN)
    n = np.floor(_fma(src, _LOG2E, _F32(0.5)))
    r = _fma(-n, _LN2, src)
    p = _fma(r, _EXP_POLY[0], _EXP_POLY[1])
    for c in _EXP_POLY[2:]:
        p = _fma(r, p, c)
    with np.errstate(invalid='ignore'):                  # (nan scores: nan, without numpy's warning)
        bits = ((n - _F32(1)).astype(np.int32) + np.int32(127)) << np.int32(23)
    return (p * np.where(x < _LN_MIN, _F32(0), bits.view(_F32))) * _F32(2)


def _exp_and_sum(x):
    """exp of each row of x and the row sums, as the kernel's _exp_reduce_sum_fusion_kernel."""
    whole = x.shape[1] // 16 * 16
    e = np.concatenate([_exp_u20(x[:, :whole]), _expf(x[:, whole:])], axis=1)
    acc = np.add.reduce(e[:, :whole].reshape(len(x), -1, 16), axis=1) if whole else np.zeros((len(x), 16), _F32)
    for lanes in (8, 4, 2, 1):                           # (its vec_reduce_all: halves)
        acc = acc[:, :lanes] + acc[:, lanes:2 * lanes]
    total = acc[:, 0]
    for j in range(whole, x.shape[1]):
        total = total + e[:, j]
    return e, total


def _sgemm(x, y, c=None):
    """x @ y (+ c) as MKL adds where the engine models it (_mkl_gemm), else numpy's. (MKL applies a gemm's alpha
    to y before multiplying: callers pass y scaled.)"""
    out = _mkl_gemm(x, y, c)
    if out is None:
        out = x @ y if c is None else x @ y + c
    return out


def _flash_f32(q, k, v, mask, is_causal, scale):
    """Output and logsumexp as PyTorch's float32 kernel computes them (see above), head by head."""
    B, H, L, _ = q.shape
    S, groups = k.shape[2], H // k.shape[1]
    split = 256 if L >= 768 else 64 if L >= 192 else 32
    out, lse = np.empty(q.shape[:3] + v.shape[3:], _F32), np.empty(q.shape[:3], _F32)
    if mask is not None:
        mask = np.broadcast_to(mask, (B, H, L, S))
    for b in range(B):
        for h in range(H):
            kh, vh = k[b, h // groups], v[b, h // groups]
            for m in range(0, L, split):
                rows = slice(m, m + split)
                s = _sgemm(q[b, h, rows], kh.T)
                if is_causal:                            # (-inf right of the diagonal, before scaling)
                    s[np.arange(S) > np.arange(m, m + len(s))[:, None]] = -np.inf
                s = s * scale if mask is None else _fma(s, scale, mask[b, h, rows])
                mx = s.max(-1)
                live = mx != -np.inf                     # (a row with nothing to attend to: zeros, logsumexp 0)
                mx = np.where(live, mx, _F32(0))
                e, total = _exp_and_sum(s - mx[:, None])
                e[~live] = 0
                total = np.where(live, total, _F32(1))
                out[b, h, rows] = _sgemm(e, vh) * (_F32(1) / total)[:, None]
                lse[b, h, rows] = mx + _logf(total)
    return out, lse


def _in_float(*arrays):
    """The arrays a half flash kernel computes with: as floats (None stays None); other dtypes as they are."""
    return tuple(a.astype(np.float32) if a is not None and a.dtype == np.float16 else a for a in arrays)


def _flash(query, key, value, mask, is_causal, scale):
    """The fused kernel: output and logsumexp, one node saving what its backward needs (halves computed in float,
    the output rounded once; the logsumexp stays float)."""
    out, lse = _flash_values(*_in_float(query._data, key._data, value._data, None if mask is None else mask._data),
                             is_causal, _scale(query, scale))
    out = make(_laid_out(out.astype(query._data.dtype, copy=False), _order(query._data)))   # (as empty_like(query))
    lse = _laid_out(lse, (0, 2, 1))                     # (the kernel writes it (B, L, H), then transposes)
    saved = {'attn_mask': None if mask is None else SavedTensor(mask), 'dropout_p': 0.0, 'is_causal': bool(is_causal),
             'key': SavedTensor(key), 'logsumexp': SavedTensor(make(lse)), 'output': None, 'query': SavedTensor(query),
             'scale': None if scale is None else float(scale), 'value': SavedTensor(value)}
    _attach(out, ScaledDotProductFlashAttentionForCpuBackward0, (query, key, value), saved)
    if out._grad_fn is not None:
        saved['output'] = SavedTensor(out, is_output=True)
        pack_outputs(saved)
    return out


class ScaledDotProductFlashAttentionForCpuBackward0(Node):
    def apply(self, g):
        q, k, v = self.saved('query'), self.saved('key'), self.saved('value')
        o, lse, mask = self.saved('output'), self.saved('logsumexp'), self._saved['attn_mask']
        mask = None if mask is None else self.saved('attn_mask')._data
        qd, kd, vd, od, mask = _in_float(q._data, k._data, v._data, o._data, mask)
        groups = qd.shape[1] // kd.shape[1]
        if groups > 1:                            # (each key / value head serves `groups` query heads)
            kd, vd = np.repeat(kd, groups, axis=1), np.repeat(vd, groups, axis=1)
        gq, gk, gv = _flash_grads(qd, kd, vd, od, lse._data, np.ascontiguousarray(g._data, dtype=qd.dtype), mask,
                                  self._saved['is_causal'], _scale(q, self._saved['scale']))
        if groups > 1:
            gk, gv = (x.reshape(x.shape[0], -1, groups, *x.shape[2:]).sum(2, dtype=x.dtype) for x in (gk, gv))
        blhe = (0, 2, 1, 3)                              # (the kernel writes (B, L, H, E) buffers, transposed)
        grads = tuple(make(_laid_out(x.astype(q._data.dtype), blhe if groups == 1 or i == 0 else (0, 1, 2, 3)))
                      for i, x in enumerate((gq, gk, gv)))
        # PyTorch has no derivative of this backward
        return tuple(_not_implemented(x, (g, q, k, v), 'aten::_scaled_dot_product_flash_attention_for_cpu_backward')
                     if self.needs(i) else None for i, x in enumerate(grads))


def _flash_grads(q, k, v, o, lse, g, mask, is_causal, scale):
    """Gradients of q, k, v (heads of k and v already repeated): float32 as PyTorch's backward kernel computes
    them (_flash_grads_f32), else by the formulas in one go."""
    if q.dtype == np.float32 and k.shape[2] <= _KV_SPLIT and (mask is None or mask.dtype == np.float32):
        return _flash_grads_f32(q, k, v, o, lse, g, mask, is_causal, np.float32(scale))
    t = q.dtype.type(scale)
    p = _exp(_scores(q, k, mask, is_causal, scale) - lse[..., None])     # (a row of -inf scores: zeros)
    ds = p * (np.matmul(g, np.swapaxes(v, -1, -2)) - (g * o).sum(-1, keepdims=True, dtype=q.dtype))
    return np.matmul(ds, k) * t, np.matmul(np.swapaxes(ds, -1, -2), q) * t, np.matmul(np.swapaxes(p, -1, -2), g)


def _rowwise_dot(x, y):
    """Each row of x times y, summed as the kernel's map2_reduce_all: 16 lanes of fused multiply-adds (the rest
    into the first lanes), then the lanes halved."""
    n = x.shape[1]
    acc = np.zeros((len(x), 16), _F32)
    for d in range(0, n, 16):
        w = min(16, n - d)
        acc[:, :w] = x[:, d:d + w] * y[:, d:d + w] if d == 0 else _fma(x[:, d:d + w], y[:, d:d + w], acc[:, :w])
    for lanes in (8, 4, 2, 1):
        acc = acc[:, :lanes] + acc[:, lanes:2 * lanes]
    return acc[:, 0]


def _flash_grads_f32(q, k, v, o, lse, g, mask, is_causal, scale):
    """PyTorch's backward kernel: per head and block of query rows, the attention again from logsumexp (Sleef's
    exp), then gemms adding into grad_q, grad_k, grad_v block by block."""
    B, H, L, _ = q.shape
    S = k.shape[2]
    split = 256 if L >= 768 else 64 if L >= 192 else 32
    gq, gk, gv = np.zeros_like(q), np.zeros_like(k), np.zeros_like(v)
    if mask is not None:
        mask = np.broadcast_to(mask, (B, H, L, S))
    for b in range(B):
        for h in range(H):
            for m in range(0, L, split):
                rows = slice(m, m + split)
                d = _rowwise_dot(g[b, h, rows], o[b, h, rows])
                s = _sgemm(q[b, h, rows], (k[b, h] * scale).T)
                if mask is not None:
                    s = s + mask[b, h, rows]
                a = _vec_exp(s - lse[b, h, rows][:, None])
                if is_causal:
                    a[np.arange(S) > np.arange(m, m + len(a))[:, None]] = 0
                gv[b, h] = _sgemm(a.T, g[b, h, rows], gv[b, h])
                ga = a * (_sgemm(g[b, h, rows], v[b, h].T) - d[:, None])
                gq[b, h, rows] = _sgemm(ga, k[b, h] * scale, gq[b, h, rows])
                gk[b, h] = _sgemm(ga.T, q[b, h, rows] * scale, gk[b, h])
    return gq, gk, gv


# ================================================================================================ multi-head attention

def _canonical_mask(mask, mask_name, other_type, other_name, target_type, check_other=True):
    """torch.nn.functional's _canonical_mask: a bool mask as a float one (-inf where True), float masks as they are."""
    if mask is None:
        return None
    if mask.dtype.name != 'bool' and not mask.is_floating_point():
        raise AssertionError('only bool and floating types of %s are supported' % mask_name)
    if check_other and other_type is not None and mask.dtype != other_type:
        warnings.warn('Support for mismatched %s and %s is deprecated. Use same type for both instead.'
                      % (mask_name, other_name), stacklevel=3)
    if not mask.is_floating_point():
        from ._factories import zeros_like
        mask = zeros_like(mask, dtype=target_type).masked_fill_(mask, float('-inf'))
    return mask


def _none_or_dtype(input):
    if input is None:
        return None
    if isinstance(input, Tensor):
        return input.dtype
    raise RuntimeError('input to _none_or_dtype() must be None or torch.Tensor')


def _mha_shape_check(query, key, value, key_padding_mask, attn_mask, num_heads):
    """Whether the inputs are batched (3-d) or not (2-d), with PyTorch's shape errors."""
    if query.dim() not in (2, 3):
        raise AssertionError('query should be unbatched 2D or batched 3D tensor but received %d-D query tensor'
                             % query.dim())
    batched = query.dim() == 3
    name = 'batched (3-D)' if batched else 'unbatched (2-D)'
    if key.dim() != query.dim() or value.dim() != query.dim():
        raise AssertionError('For %s `query`, expected `key` and `value` to be %d-D but found %d-D and %d-D tensors '
                             'respectively' % (name, query.dim(), key.dim(), value.dim()))
    if key_padding_mask is not None and key_padding_mask.dim() != query.dim() - 1:
        raise AssertionError('For %s `query`, expected `key_padding_mask` to be `None` or %d-D but found %d-D tensor '
                             'instead' % (name, query.dim() - 1, key_padding_mask.dim()))
    if attn_mask is not None:
        if attn_mask.dim() not in (2, 3):
            raise AssertionError('For %s `query`, expected `attn_mask` to be `None`, 2-D or 3-D but found %d-D tensor '
                                 'instead' % (name, attn_mask.dim()))
        if not batched and attn_mask.dim() == 3:
            expected = (num_heads, query.shape[0], key.shape[0])
            if attn_mask.shape != expected:
                raise AssertionError('Expected `attn_mask` shape to be %s but got %s' % (expected, attn_mask.shape))
    return batched


def _in_projection_packed(q, k, v, w, b=None):
    """q, k, v through the packed (3E, E) in-projection: one linear for self-attention, as PyTorch splits it."""
    E = q.size(-1)
    if k is v:
        if q is k:
            proj = linear(q, w, b).unflatten(-1, (3, E)).unsqueeze(0).transpose(0, -2).squeeze(-2).contiguous()
            return proj[0], proj[1], proj[2]
        w_q, w_kv = w.split([E, E * 2])
        b_q, b_kv = (None, None) if b is None else b.split([E, E * 2])
        kv = linear(k, w_kv, b_kv).unflatten(-1, (2, E)).unsqueeze(0).transpose(0, -2).squeeze(-2).contiguous()
        return linear(q, w_q, b_q), kv[0], kv[1]
    w_q, w_k, w_v = w.chunk(3)
    b_q, b_k, b_v = (None, None, None) if b is None else b.chunk(3)
    return linear(q, w_q, b_q), linear(k, w_k, b_k), linear(v, w_v, b_v)


def _in_projection(q, k, v, w_q, w_k, w_v, b_q=None, b_k=None, b_v=None):
    """q, k, v through separate projections (kdim / vdim differ from embed_dim)."""
    Eq, Ek, Ev = q.size(-1), k.size(-1), v.size(-1)
    for what, w, shape in (('query', w_q, (Eq, Eq)), ('key', w_k, (Eq, Ek)), ('value', w_v, (Eq, Ev))):
        if w.shape != shape:
            raise AssertionError('expecting %s weights shape of %s, but got %s' % (what, shape, w.shape))
    for what, bias in (('query', b_q), ('key', b_k), ('value', b_v)):
        if bias is not None and bias.shape != (Eq,):
            raise AssertionError('expecting %s bias shape of %s, but got %s' % (what, (Eq,), bias.shape))
    return linear(q, w_q, b_q), linear(k, w_k, b_k), linear(v, w_v, b_v)


def multi_head_attention_forward(query, key, value, embed_dim_to_check, num_heads, in_proj_weight, in_proj_bias,
                                 bias_k, bias_v, add_zero_attn, dropout_p, out_proj_weight, out_proj_bias,
                                 training=True, key_padding_mask=None, need_weights=True, attn_mask=None,
                                 use_separate_proj_weight=False, q_proj_weight=None, k_proj_weight=None,
                                 v_proj_weight=None, static_k=None, static_v=None, average_attn_weights=True,
                                 is_causal=False):
    """F.multi_head_attention_forward, step by step as PyTorch's Python code (so the graph is the same): project,
    split heads, then bmm / softmax / bmm (need_weights) or scaled_dot_product_attention, then out_proj."""
    from .nn.functional import pad, softmax, dropout
    batched = _mha_shape_check(query, key, value, key_padding_mask, attn_mask, num_heads)
    if not batched:
        query, key, value = query.unsqueeze(1), key.unsqueeze(1), value.unsqueeze(1)
        if key_padding_mask is not None:
            key_padding_mask = key_padding_mask.unsqueeze(0)
    tgt_len, bsz, embed_dim = query.shape
    src_len = key.shape[0]
    key_padding_mask = _canonical_mask(key_padding_mask, 'key_padding_mask', _none_or_dtype(attn_mask), 'attn_mask',
                                       query.dtype)
    if is_causal and attn_mask is None:
        raise RuntimeError('Need attn_mask if specifying the is_causal hint. You may use the Transformer module method '
                           '`generate_square_subsequent_mask` to create this mask.')
    if is_causal and key_padding_mask is None and not need_weights:
        attn_mask = None                     # (scaled_dot_product_attention makes the causal mask itself)
    else:
        attn_mask = _canonical_mask(attn_mask, 'attn_mask', None, '', query.dtype, check_other=False)
        if key_padding_mask is not None:
            is_causal = False
    if embed_dim != embed_dim_to_check:
        raise AssertionError('was expecting embedding dimension of %s, but got %s' % (embed_dim_to_check, embed_dim))
    head_dim = embed_dim // num_heads
    if head_dim * num_heads != embed_dim:
        raise AssertionError('embed_dim %s not divisible by num_heads %s' % (embed_dim, num_heads))
    if use_separate_proj_weight:
        if key.shape[:2] != value.shape[:2]:
            raise AssertionError("key's sequence and batch dims %s do not match value's %s"
                                 % (key.shape[:2], value.shape[:2]))
    elif key.shape != value.shape:
        raise AssertionError('key shape %s does not match value shape %s' % (key.shape, value.shape))
    if not use_separate_proj_weight:
        if in_proj_weight is None:
            raise AssertionError('use_separate_proj_weight is False but in_proj_weight is None')
        q, k, v = _in_projection_packed(query, key, value, in_proj_weight, in_proj_bias)
    else:
        for name, w in (('q', q_proj_weight), ('k', k_proj_weight), ('v', v_proj_weight)):
            if w is None:
                raise AssertionError('use_separate_proj_weight is True but %s_proj_weight is None' % name)
        b_q, b_k, b_v = (None, None, None) if in_proj_bias is None else in_proj_bias.chunk(3)
        q, k, v = _in_projection(query, key, value, q_proj_weight, k_proj_weight, v_proj_weight, b_q, b_k, b_v)
    if attn_mask is not None:
        if attn_mask.dim() == 2:
            if attn_mask.shape != (tgt_len, src_len):
                raise RuntimeError('The shape of the 2D attn_mask is %s, but should be %s.'
                                   % (attn_mask.shape, (tgt_len, src_len)))
            attn_mask = attn_mask.unsqueeze(0)
        elif attn_mask.dim() == 3:
            if attn_mask.shape != (bsz * num_heads, tgt_len, src_len):
                raise RuntimeError('The shape of the 3D attn_mask is %s, but should be %s.'
                                   % (attn_mask.shape, (bsz * num_heads, tgt_len, src_len)))
        else:
            raise RuntimeError("attn_mask's dimension %s is not supported" % attn_mask.dim())
    if bias_k is not None and bias_v is not None:
        if static_k is not None:
            raise AssertionError('bias cannot be added to static key.')
        if static_v is not None:
            raise AssertionError('bias cannot be added to static value.')
        k = cat([k, bias_k.repeat(1, bsz, 1)])
        v = cat([v, bias_v.repeat(1, bsz, 1)])
        if attn_mask is not None:
            attn_mask = pad(attn_mask, (0, 1))
        if key_padding_mask is not None:
            key_padding_mask = pad(key_padding_mask, (0, 1))
    elif bias_k is not None:
        raise AssertionError('bias_k is set but bias_v is None')
    elif bias_v is not None:
        raise AssertionError('bias_v is set but bias_k is None')
    q = q.view(tgt_len, bsz * num_heads, head_dim).transpose(0, 1)
    k = _heads(k, static_k, 'k', bsz * num_heads, head_dim)
    v = _heads(v, static_v, 'v', bsz * num_heads, head_dim)
    if add_zero_attn:
        from ._factories import zeros
        k = cat([k, zeros((bsz * num_heads, 1, head_dim), dtype=k.dtype)], dim=1)
        v = cat([v, zeros((bsz * num_heads, 1, head_dim), dtype=v.dtype)], dim=1)
        if attn_mask is not None:
            attn_mask = pad(attn_mask, (0, 1))
        if key_padding_mask is not None:
            key_padding_mask = pad(key_padding_mask, (0, 1))
    src_len = k.size(1)
    if key_padding_mask is not None:
        if key_padding_mask.shape[0] != bsz:
            raise AssertionError('Expected key_padded_mask.shape[0] to be %s, but got %s'
                                 % (bsz, key_padding_mask.shape[0]))
        if key_padding_mask.shape[1] != src_len:
            raise AssertionError('Expected key_padded_mask.shape[1] to be %s, but got %s'
                                 % (src_len, key_padding_mask.shape[1]))
        key_padding_mask = key_padding_mask.view(bsz, 1, 1, src_len).expand(-1, num_heads, -1, -1).reshape(
            bsz * num_heads, 1, src_len)
        attn_mask = key_padding_mask if attn_mask is None else attn_mask + key_padding_mask
    if not training:
        dropout_p = 0.0
    if need_weights:
        E = q.shape[-1]
        q_scaled = q * math.sqrt(1.0 / float(E))
        if is_causal and attn_mask is None:
            raise AssertionError('FIXME: is_causal not implemented for need_weights')
        if attn_mask is not None:
            weights = baddbmm(attn_mask, q_scaled, k.transpose(-2, -1))
        else:
            weights = bmm(q_scaled, k.transpose(-2, -1))
        weights = softmax(weights, dim=-1)
        if dropout_p > 0.0:
            weights = dropout(weights, p=dropout_p)
        out = bmm(weights, v).transpose(0, 1).reshape(tgt_len * bsz, embed_dim)
        out = linear(out, out_proj_weight, out_proj_bias)
        out = out.view(tgt_len, bsz, out.size(1))
        weights = weights.view(bsz, num_heads, tgt_len, src_len)
        if average_attn_weights:
            weights = weights.mean(dim=1)
        if not batched:
            out, weights = out.squeeze(1), weights.squeeze(0)
        return out, weights
    if attn_mask is not None:
        if attn_mask.size(0) == 1 and attn_mask.dim() == 3:
            attn_mask = attn_mask.unsqueeze(0)
        else:
            attn_mask = attn_mask.view(bsz, num_heads, -1, src_len)
    q = q.view(bsz, num_heads, tgt_len, head_dim)
    k = k.view(bsz, num_heads, src_len, head_dim)
    v = v.view(bsz, num_heads, src_len, head_dim)
    out = scaled_dot_product_attention(q, k, v, attn_mask, dropout_p, is_causal)
    out = out.permute(2, 0, 1, 3).reshape(bsz * tgt_len, embed_dim)
    out = linear(out, out_proj_weight, out_proj_bias)
    out = out.view(tgt_len, bsz, out.size(1))
    if not batched:
        out = out.squeeze(1)
    return out, None


def _heads(t, static, name, n, head_dim):
    """k or v split into heads (bsz * num_heads, len, head_dim), or the caller's static one, checked."""
    if static is None:
        return t.view(t.shape[0], n, head_dim).transpose(0, 1)
    if static.size(0) != n:
        raise AssertionError('expecting static_%s.size(0) of %s, but got %s' % (name, n, static.size(0)))
    if static.size(2) != head_dim:
        raise AssertionError('expecting static_%s.size(2) of %s, but got %s' % (name, head_dim, static.size(2)))
    return static
