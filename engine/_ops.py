"""The op table: every differentiable op, its forward beside its backward, and what it saves.

Read it like PyTorch's derivatives.yaml. Each op computes its result with numpy, then, if autograd is recording,
attaches a node named as PyTorch names it (`MulBackward0`) holding exactly what PyTorch saves (`_saved_self`,
`_saved_other`, ...). Backward formulas are written with tensor ops, so they are differentiable again
(create_graph=True). Broadcasting is undone in one place: the engine sums each gradient to its input's shape
(`sum_to`), as PyTorch's engine does; dtypes are matched there too.

In-place ops are the out-of-place op plus a write-back (`_inplace`): same node, PyTorch's checks, a version bump.
"""
import builtins
import functools
import math
import operator
import sys
import warnings
import weakref

import numpy as np

from . import _argparse
from . import _autograd as ag
from . import _dtypes as dt
from . import _memory_format as _mf
from . import _random as _rand
from . import _reduce_order
from ._reduce_order import c_strided as _c_strided
from ._autograd import Node, SavedList, SavedTensor, RESULT as _RESULT, bump, counter, record as _record
from ._autograd import _sequence
from ._tensor import (Tensor, Size, make, user_stacklevel, _wrap_dim, invalid_arguments, unmatched,
                      parser_type as _parser_type, keyword_only)
from ._factories import _check_int as _check_int_arg, _int_list, _is_index, _missing as _missing_args, _fma64

np.seterr(all='ignore')        # inf / nan results are values here, as in PyTorch, not warnings

_FROM_NP = dt.FROM_NP
_float, _int = builtins.float, builtins.int
_new = object.__new__
_Number = (builtins.int, builtins.float, builtins.bool, np.number, np.bool_)
_TENSOR_OR_NUMBER = (Tensor,) + _Number


# ================================================================================================ helpers

def _rg(x):
    return isinstance(x, Tensor) and x._requires_grad


def _edge(x):
    """Whether operand x gets a gradient edge (PyTorch's needs_input_grad, which decides what a node saves): it
    requires grad, and not only through its base as a view made in no_grad mode without a grad_fn does."""
    return isinstance(x, Tensor) and x._requires_grad and not (x._grad_from_base and x._grad_fn is None)


def _save(x):
    """A tensor operand is saved with its version; a Python number as it is (see Node._variables)."""
    return SavedTensor(x) if isinstance(x, Tensor) else x


def _attach(out, cls, inputs, saved=None, same=False):
    """Record `out` as produced by a new `cls` node over `inputs` if autograd is on and any input needs grad
    (see _autograd.record, which the hottest ops call themselves). Returns out."""
    if ag.grad_enabled and out._data.dtype.kind == 'f':
        for x in inputs:
            if isinstance(x, Tensor) and x._requires_grad:
                if len(inputs) > 1:
                    inputs = tuple([x if isinstance(x, Tensor) else None for x in inputs])
                _record(out, cls, inputs, saved, same)
                break
    return out


def _check_autograd_dtype(a, d):
    """PyTorch's error recording a differentiable op (sum, prod, cumsum... with dtype=) whose result autograd cannot
    take: an integer or bool dtype given for an input that requires grad."""
    if not d.is_floating_point and a._requires_grad and ag.grad_enabled:
        raise RuntimeError('Autograd not support dtype: ' + _C10_TYPE[d.name])


def _scalar(x):
    """A Python number from a numpy scalar (PyTorch treats both as 'wrapped numbers'; its parser reads a numpy bool
    as a float: `int_tensor + np.bool_(True)` is float32)."""
    if isinstance(x, np.bool_):
        return float(x)
    return x.item() if isinstance(x, np.number) else x


def _number(x):
    """A Scalar argument as PyTorch's parser takes it: a Python number, also from a numpy number or a 0-d tensor
    that needs no grad (so `_saved_alpha` is 2.0, not tensor(2.)). Anything else is left for the op to refuse."""
    if isinstance(x, Tensor) and not x._data.ndim and not x._requires_grad:
        return x.item()
    return _scalar(x)


def _as_tensor(x):
    if type(x) is Tensor or isinstance(x, Tensor):
        return x
    if isinstance(x, _Number):
        return make(np.array(_scalar(x), dtype=dt.scalar_dtype(_scalar(x)).np))
    raise TypeError('expected Tensor as element 1 in argument 0, but got ' + _parser_type(x))


def _result_dtype(a, b):
    """Result dtype of a binary op (fast paths for the common cases, else PyTorch's full rule)."""
    if isinstance(b, Tensor):
        if isinstance(a, Tensor) and a._data.dtype is b._data.dtype and not (a._wrapped or b._wrapped):
            return _FROM_NP[a._data.dtype]
        return dt.result_type(a, b)
    kind = a._data.dtype.kind
    tb = type(b)
    if a._wrapped:                          # (torch.add(2.5, 2): two numbers, a float one the default float)
        return dt.result_type(a, b)
    if tb is builtins.float:
        return _FROM_NP[a._data.dtype] if kind == 'f' else dt.default_float
    if tb is builtins.int and kind != 'b':
        return _FROM_NP[a._data.dtype]
    return dt.result_type(a, b)


def _operands(a, b):
    """(a_array, b_array_or_number, result dtype, same) with tensor operands cast to the result dtype; `same`
    when every tensor operand already has the result's shape and dtype (the node then needs no input metadata).
    None if b is neither a tensor nor a number (the operator then returns NotImplemented)."""
    ad = a._data
    tb = type(b)
    if tb is Tensor:                                           # fast path: same dtype
        bd = b._data
        if ad.dtype is bd.dtype:
            if ad.shape != bd.shape:
                _check_broadcast(ad.shape, bd.shape)
                return ad, bd, _FROM_NP[ad.dtype], False
            return ad, bd, _FROM_NP[ad.dtype], True
    elif tb is builtins.float and ad.dtype.kind == 'f' and not a._wrapped:     # fast path: float tensor and float
        return ad, _CONSTANTS[(b, ad.dtype)], _FROM_NP[ad.dtype], True
    elif not isinstance(b, Tensor):
        if not isinstance(b, _Number):
            return None
        b = _scalar(b)
        if type(b) is builtins.int:
            _check_int(b)
        elif type(b) is builtins.complex:         # (numpy's: PyTorch's result would be complex, not made real)
            raise TypeError('complex tensors are not supported in Autograd Playground')
    d = _result_dtype(a, b)
    npd = d.np
    same = ad.dtype is npd
    if not same:
        ad = _cast(ad, npd)
    bd = b
    if isinstance(b, Tensor):
        bd = b._data if b._data.dtype is npd else _cast(b._data, npd)
        same = same and bd is b._data and ad.shape == bd.shape
        if ad.shape != bd.shape:
            _check_broadcast(ad.shape, bd.shape)
    return ad, bd, d, same


def _cast(x, npd):
    """Array x as dtype npd for a pointwise op, its expanded dims (stride 0) still expanded: a copy would give them a
    layout of their own, and the result's layout is read from the operands' strides (_iter_laid_out), as
    TensorIterator reads the uncast operands' (torch.pow(x64, x32.expand(2, 2, 2)) is contiguous)."""
    if x.dtype is npd:
        return x
    if x.size > 1 and 0 in x.strides:
        compact = x[tuple(slice(0, 1) if s == 0 else slice(None) for s in x.strides)]
        return np.broadcast_to(compact.astype(npd), x.shape)
    return x.astype(npd)


def _binary(a, b, ufunc, alpha=1):
    """The tensor ufunc(a, b * alpha) of add, sub or mul by PyTorch's rules (promotion, broadcasting, alpha
    checks); None if b is neither a tensor nor a number (the operator then returns NotImplemented)."""
    ops = _operands(a, b)
    if ops is None:
        return None
    ad, bd, d, _ = ops
    if type(bd) is builtins.int and d.category == 1:
        bd = _wrap_int(bd, d.np)
    if type(alpha) is not builtins.int or alpha != 1:
        alpha = _check_alpha(d, alpha, ufunc is np.subtract)
    if d.np is _F16 and ufunc is np.multiply:
        s = _half_scalar(b)
        if s is not None:
            return _out((ad.astype(_F32) * s).astype(_F16), d)
    if alpha == 1:
        r = ufunc(ad, bd)
    elif d.np is _F32 and ufunc is not np.multiply:      # PyTorch's add kernel: a + alpha * b in one fused multiply-add
        r = _fma32(bd, np.float32(alpha if ufunc is np.add else -alpha), ad)
    elif d is dt.float64 and ufunc is not np.multiply:     # (doubles too)
        r = _fma64(bd, alpha if ufunc is np.add else -alpha, ad)
    else:
        r = ufunc(ad, np.multiply(bd, alpha, dtype=d.np))          # (ints wrap, as in C)
    if type(bd) is np.ndarray and not (ad.flags.c_contiguous and bd.flags.c_contiguous):
        r = _iter_laid_out(r, ad, bd)                    # (mixed layouts: PyTorch's, not numpy's)
    return _out(r, d)


def _half_scalar(b):
    """The second operand of mul / div with a half result, as PyTorch's kernels take it when it is a number or a 0-d
    tensor (a CPU scalar): its original value as a float, not rounded to half (`h * 70000.` is finite where h is
    small); None for any other operand."""
    if not isinstance(b, Tensor):
        return np.float32(_scalar(b))
    return np.float32(b._data[()]) if not b._data.ndim else None


def _alike(a, b, op):
    """The hot cases of a binary op, decided and computed without _operands: if b is a Python float or int and a
    is floating (b then comes from the cache of constants), or b a tensor of a's dtype and shape, the tensor
    op(a, b) (op: operator.add, .mul or .truediv), which has a's dtype and shape (so its node needs no input metadata);
    else None."""
    ad = a._data
    tb = type(b)
    if tb is _float or tb is _int:
        consts = _FLOAT_CONSTANTS.get(ad.dtype)         # (no key tuple to build and hash, no dtype.kind to read)
        bd = None if consts is None else consts.get(b)
        if bd is None:
            d = ad.dtype
            if d.kind != 'f' or d is _F16:     # (a half's number: see _binary)
                return None
            bd = _CONSTANTS[(b, d)]
    elif tb is Tensor:
        bd = b._data
        if bd.dtype is not ad.dtype or bd.shape != ad.shape or bd.strides != ad.strides:
            return None                                 # (mixed layouts: _binary lays the result out)
    else:
        return None
    t = _new(Tensor)
    if ad.ndim:
        t._data = op(ad, bd)
    else:                          # 0-d: numpy's scalar arithmetic (same values; its ufunc call costs twice as much)
        t._data = np.asarray(op(ad[()], bd[()]))
    t._version_counter = None
    t._grad_fn = None
    t._requires_grad = False
    t._output_nr = 0
    return t                       # (add and mul mark it an inference tensor when grad mode is off)


class _Constants(dict):
    """Python numbers as 0-d arrays of a float dtype, converted once: `_CONSTANTS[(x, dtype)]`. `x * 1.0001` in a
    loop reuses the array (numpy converts a Python float on every call, slowly); same value as numpy's own
    conversion. A miss converts (with PyTorch's range check for ints) and keeps the array, also in
    `_FLOAT_CONSTANTS[dtype][x]` for a float dtype (what _alike reads: no key tuple to build and hash)."""
    def __missing__(self, key):
        x, npd = key
        if type(x) is builtins.int:
            _check_int(x)
        c = np.array(x, dtype=npd)
        # Not kept: zeros (0.0 == -0.0 as keys), and floats an int out of PyTorch's range could equal as a key (a
        # kept 2.0 ** 70 would let `x * 2 ** 70` skip its range check); nan and inf, rare, are not kept either.
        if x != 0.0 and -0x8000000000000000 <= x <= 0xFFFFFFFFFFFFFFFF:
            if len(self) >= 4096:
                self.clear()
                _FLOAT_CONSTANTS.clear()
            self[key] = c
            if npd.kind == 'f' and npd is not _F16:
                consts = _FLOAT_CONSTANTS.get(npd)
                if consts is None:
                    consts = _FLOAT_CONSTANTS[npd] = {}
                consts[x] = c
        return c


_CONSTANTS = _Constants()
_FLOAT_CONSTANTS = {}       # {float dtype: {number: 0-d array}}: the entries of _CONSTANTS, by dtype


def _check_int(x):
    """PyTorch takes a Python int into an op as a c10::Scalar: in int64's range, or uint64's above it."""
    if not -0x8000000000000000 <= x <= 0xFFFFFFFFFFFFFFFF:
        raise OverflowError('int too big to convert' if x > 0 else "can't convert negative int to unsigned")


def _wrap_int(x, npd):
    """A Python int as an integer dtype's value the way a C cast makes it (int32 + 2**32 + 3 adds 3), as PyTorch
    casts a scalar to the op's dtype; numpy would raise instead."""
    info = np.iinfo(npd)
    return x if info.min <= x <= info.max else np.array(x % 2 ** 64, np.uint64).astype(npd)


def _check_broadcast(sa, sb):
    n = min(len(sa), len(sb))
    if sa[len(sa) - n:] == sb[len(sb) - n:]:                  # (a bias: the trailing dims agree)
        return
    for i in range(1, n + 1):
        x, y = sa[-i], sb[-i]
        if x != y and x != 1 and y != 1:
            raise RuntimeError('The size of tensor a (%d) must match the size of tensor b (%d) at non-singleton '
                               'dimension %d' % (x, y, max(len(sa), len(sb)) - i))


def _out(data, d):
    """A new tensor of dtype d from a numpy result (numpy may return scalars or a wider dtype)."""
    if type(data) is not np.ndarray or data.dtype is not d.np:
        data = np.asarray(data, dtype=d.np)
    t = _new(Tensor)                    # make() inlined: this runs once per op
    t._data = data
    t._version_counter = None
    t._grad_fn = None
    t._requires_grad = False
    t._output_nr = 0
    if ag.inference_enabled:
        t._inference = True
    return t


def _iter_order(shape, arrays, reduction=False):
    """The dims of a pointwise result of this shape, fastest first, as PyTorch's TensorIterator orders them
    (reorder_dimensions): an insertion sort of the dims by the operands' strides, the first operand (the output
    if given, then the inputs in order) deciding, later ones breaking its ties; a broadcast dim (stride 0) decides
    nothing; equal strides put the smaller size first. numpy's own order ('K') falls back to C order instead.
    With `reduction`, the output (first, stride 0 along the reduced dims) puts the reduced dims first."""
    nd = len(shape)
    strides = []
    for a in arrays:
        if type(a) is np.ndarray and a.ndim:
            off = nd - a.ndim
            strides.append([0] * off + [0 if n == 1 and shape[off + i] != 1 else s
                                        for i, (n, s) in enumerate(zip(a.shape, a.strides))])

    def should_swap(d0, d1):
        for i, s in enumerate(strides):
            s0, s1 = s[d0], s[d1]
            if reduction and not i and (s0 == 0) != (s1 == 0):
                return 1 if s1 == 0 else -1
            if s0 == 0 or s1 == 0:
                continue
            if s0 != s1:
                return 1 if s0 > s1 else -1
            if shape[d0] > shape[d1]:
                return 1
        return 0

    perm = list(range(nd - 1, -1, -1))
    for i in range(1, nd):
        d1 = i
        for d0 in range(i - 1, -1, -1):
            c = should_swap(perm[d0], perm[d1])
            if c > 0:
                perm[d0], perm[d1] = perm[d1], perm[d0]
                d1 = d0
            elif c < 0:
                break
    return perm


def _iter_laid_out(r, *arrays):
    """r (a numpy pointwise result) laid out as PyTorch lays out the result of that op on `arrays`: for operands
    of mixed layouts (numpy's choice can then differ; callers on hot paths check first). All of one shape and dense
    with the same strides keeps those strides (TensorIterator's fast setup)."""
    if type(r) is not np.ndarray or r.ndim < 2:
        return r
    for a in arrays:
        if type(a) is np.ndarray and not a.flags.c_contiguous and builtins.any(a.strides):
            break
    else:               # (all contiguous, or expanded from one number, which decides nothing: numpy's result is too;
        return r        # a loss's gradient from sum() times the other operand)
    shape = r.shape
    first = None
    for a in arrays:
        if type(a) is np.ndarray and a.ndim:
            if a.shape != shape or (first is not None and a.strides != first.strides):
                break
            first = a
    else:
        if first is not None and _dense(first):
            return r if r.strides == first.strides else _with_order(r, _iter_order(shape, (first,)))
    return _with_order(r, _iter_order(shape, arrays))


def _with_order(r, perm):
    """r copied into memory laid out in the order `perm` (fastest dim first), unless already so."""
    order = perm[::-1]                                      # (slowest first)
    if order == list(range(r.ndim)):
        return r if r.flags.c_contiguous else np.ascontiguousarray(r)
    t = np.empty([r.shape[i] for i in order], r.dtype).transpose(np.argsort(order))
    if t.strides == r.strides:
        return r
    t[...] = r
    return t


def _preserve_order(arr):
    """How PyTorch's preserve_format lays out a new array like arr (empty_like, clone, .to, torch.tensor(t)): None
    when arr is non-overlapping and dense (the new one takes its strides: numpy's order 'K'), else the dims from the
    slowest in memory, dense (infer_dense_strides: TensorIterator's order of the dims by arr's strides)."""
    if _dense(arr):
        return None
    return _iter_order(arr.shape, (arr,))[::-1] if arr.ndim > 1 else [0]


def _preserved_empty(arr, dtype=None):
    """An uninitialised array shaped like arr (of numpy dtype `dtype`, else arr's), laid out by _preserve_order."""
    order = _preserve_order(arr)
    if order is not None:
        return np.empty([arr.shape[i] for i in order], dtype or arr.dtype).transpose(np.argsort(order))
    if 1 not in arr.shape or arr.flags.c_contiguous and _row_major_sized_one(arr):
        return np.empty_like(arr, dtype)                # (numpy's order 'K': arr's strides)
    flat = np.empty(arr.size, dtype or arr.dtype)     # (arr's very strides: a dim of size 1 keeps its own too)
    return np.lib.stride_tricks.as_strided(flat, arr.shape, [s // arr.itemsize * flat.itemsize for s in arr.strides])


def _row_major_sized_one(arr):
    """Whether arr's dims of size 1 have the strides row-major order gives them (numpy's flags ignore those)."""
    if 1 not in arr.shape:
        return True
    step = arr.itemsize
    for s, n in zip(arr.strides[::-1], arr.shape[::-1]):
        if n == 1 and s != step:
            return False
        step *= max(n, 1)
    return True


def _preserved_copy(arr, d=None):
    """A copy of arr (as engine dtype d) laid out as PyTorch's preserve_format copies (clone, .to)."""
    if arr.flags.c_contiguous and _row_major_sized_one(arr):
        return arr.copy() if d is None else dt.convert(arr, d, copy=True)
    src = arr if d is None else dt.convert(arr, d)
    out = _preserved_empty(arr, src.dtype)
    out[...] = src
    return out


def _zeros_like(t):
    """A gradient of zeros shaped like t: a constant, not `t * 0` (inf * 0 is nan; and no graph for create_graph),
    as PyTorch's derivatives.yaml writes zeros_like(grad)."""
    return make(np.zeros_like(t._data))


def _float_dtype(t):
    d = t.dtype
    return d if d.is_floating_point else dt.default_float


def sum_to(g, shape):
    """Sum a broadcast gradient back to `shape` (undoes broadcasting: the one place it is done)."""
    gs = g._data.shape
    if gs == shape:
        return g
    lead = len(gs) - len(shape)
    if gs[lead:] == shape:                                    # only leading dims were added (a bias)
        dims = tuple(range(lead))
    else:
        dims = tuple(range(lead)) + tuple(i + lead for i, s in enumerate(shape) if s == 1 and gs[i + lead] != 1)
    if not (ag.grad_enabled and g._requires_grad):            # nothing to record: numpy at once
        return make(_add_reduce(g._data, dims, True).reshape(shape))          # (in PyTorch's order, as sum)
    if not shape:                                             # PyTorch's sum_to: a 0-d shape is a full sum
        return g.sum()
    r = g.sum(dims, keepdim=True) if dims else g
    return r.view(shape) if r._data.shape != shape else r


def _expandable(shape, to):
    """Whether a tensor of `shape` can be expanded to `to` (PyTorch's is_expandable_to)."""
    lead = len(to) - len(shape)
    if lead < 0:
        return False
    return to[lead:] == shape or all(s == t or s == 1 for s, t in zip(reversed(shape), reversed(to)))


def validate_grad(node, g, meta, index):
    """What PyTorch's engine does to the gradient a node returns for input `index`: shape to the input's (a
    broadcast one summed), dtype to the input's."""
    shape, npd = meta
    if g._data.shape != shape:
        if not _expandable(shape, g._data.shape):     # (node None: a root's gradient)
            raise RuntimeError('%sinvalid gradient at index %d - got [%s] but expected shape compatible with [%s]'
                               % ('' if node is None else 'Function %s returned an ' % node.name(), index,
                                  ', '.join(map(str, g._data.shape)), ', '.join(map(str, shape))))
        g = sum_to(g, shape)
    if g._data.dtype is not npd:
        g = g.to(_FROM_NP[npd])
    return g


def add_grads(a, b, held=None):
    """Sum two gradient contributions arriving at the same input (the input buffer of a node). Outside grad mode
    PyTorch adds the second into the first in place (a's version + 1) if a is dense and nothing else refers to it or
    to its memory (InputBuffer::accumulate): here if a has `held` references (those of the caller's bookkeeping,
    with getrefcount's argument) and its array no other."""
    zero = a._zerotensor or b._zerotensor
    if zero and (ag.grad_enabled or a._zerotensor):
        return _plus_zero_tensor(a, b)
    ad = a._data
    if ag.grad_enabled:
        return add(a, b) if a._requires_grad or b._requires_grad else make(ad + b._data)
    if held is not None and sys.getrefcount(a) == held and ad.base is None and sys.getrefcount(ad) == 3 and _dense(ad):
        ad += b._data                   # 3: a's reference, ad and getrefcount's argument (a ZeroTensor b: its zeros)
        bump(a)
        return a
    return _plus_zero_tensor(a, b) if zero else make(ad + b._data)


ag.add_grads = add_grads


def _zero_tensor(like):
    """PyTorch's ZeroTensor (at::_efficientzerotensor) of like's shape: the gradient sgn's formula gives a real input
    (so abs's and the inf-norms' double backward). A sum with one is a copy of the other gradient (a -0. stays -0.),
    and one that became a leaf's .grad cannot be added to in place."""
    z = _zeros_like(like)
    z._zerotensor = True
    return z


def _plus_zero_tensor(a, b):
    """a + b where one of them is a ZeroTensor: the other's values (an addition recorded if either needs grad)."""
    if a._zerotensor and b._zerotensor:
        return a
    other = b if a._zerotensor else a
    if ag.grad_enabled and (a._requires_grad or b._requires_grad):
        out = add(a, b)
        out._data[...] = other._data
        return out
    return make(np.array(other._data, copy=True))


def _zero_tensor_immutable():
    return RuntimeError('ZeroTensors are immutable. Please use the materialized zero tensor obtained using .clone() '
                        'if you want a mutable tensor.')


def accumulate_into(var, g, create_graph, handed_over=False):
    """AccumulateGrad: the first gradient becomes .grad, later ones are added to it.

    handed_over: the caller passes g on and nothing else refers to it. PyTorch's AccumulateGrad then takes g itself
    as .grad (with g's version) when g is laid out as the leaf (obeys its layout contract) and no graph is being
    made; here .grad takes g's memory over when it is C-contiguous and no other tensor object holds it (a view keeps
    showing memory it may share with other gradients, as PyTorch's .grad does), else a copy. Otherwise
    PyTorch copies g into a new tensor with the leaf's strides (copy_: version 1; a contiguous clone, version 0, for
    a leaf whose memory overlaps itself or has gaps)."""
    if var._grad_fn is not None:        # (an in-place op gave the leaf a history since the graph took its node)
        raise RuntimeError('leaf variable has been moved into the graph interior')
    old = var._grad
    if old is None:
        vd, gd = var._data, g._data
        dense = vd.flags.c_contiguous or _dense(vd)
        if create_graph and g._requires_grad:       # (PyTorch's clone_obey_contract: CopyBackwards, or a clone)
            if dense:
                var._grad = _copy(make(np.zeros_like(vd, dtype=gd.dtype)), g)
                bump(var._grad)                     # (copy_ into a new tensor: version 1)
            else:
                var._grad = clone(g)
            return
        taken = handed_over and not create_graph and _obeys_layout(gd, vd, dense)
        if gd.shape != vd.shape and dense and not taken:    # (the leaf's .data got another shape while a graph
            _check_broadcast(vd.shape, gd.shape)            # held its node: g is copied into a tensor of the leaf's)
            if np.broadcast_shapes(vd.shape, gd.shape) != vd.shape:
                raise _not_broadcast_to(vd.shape, np.broadcast_shapes(vd.shape, gd.shape))
            grad = np.empty_like(vd, dtype=gd.dtype if '_grad_dtype' in var.__dict__ else vd.dtype)
            grad[...] = gd
            var._grad = grad = make(grad)
            bump(grad)
            return
        if not taken and gd.dtype != vd.dtype and dense and '_grad_dtype' not in var.__dict__:
            gd = gd.astype(vd.dtype)     # (.data got another dtype while a graph held the leaf's node: the copy
                                         # PyTorch makes has the leaf's dtype)
        if taken and gd.flags.c_contiguous and sys.getrefcount(gd) == 3 and vd.flags.c_contiguous:
            grad = make(gd)     # (3: g's own reference, gd and getrefcount's argument; a view keeps the memory it
                                # shows, which other gradients or the gradient given to backward may show too)
        elif vd.flags.c_contiguous or not dense:
            grad = make(np.array(gd, copy=True, order='C'))
        else:                       # (the layout contract: a dense leaf's .grad has the leaf's strides)
            grad = np.empty_like(vd, dtype=gd.dtype)     # (numpy's 'K' keeps a dense array's strides)
            grad[...] = gd
            grad = make(grad)
        if taken:
            grad._version_counter = g._version_counter
            if g._zerotensor:                       # (a ZeroTensor taken as .grad stays one)
                grad._zerotensor = True
        elif dense:
            bump(grad)
        var._grad = grad
    elif create_graph:
        var._grad = _plus_zero_tensor(old, g) if old._zerotensor or g._zerotensor else old + g
    else:
        if old._zerotensor:
            raise _zero_tensor_immutable()      # (PyTorch adds into .grad in place)
        od = old._data
        try:
            if od.ndim:
                od[...] = od + g._data      # in place (faster than np.add(..., out=) on small arrays)
            else:
                od[()] += g._data[()]       # 0-d: numpy's scalar arithmetic (same value, faster)
        except ValueError:
            if od.flags.writeable:       # (shapes apart: the leaf's .data got another shape after a backward)
                _check_broadcast(od.shape, g._data.shape)
                raise _not_broadcast_to(od.shape, np.broadcast_shapes(od.shape, g._data.shape)) from None
            # a .grad set to a view numpy made read-only (of an expanded tensor): PyTorch adds into it in place,
            # unless its elements share memory
            od = _writeable(od)
            od[...] = od + g._data
        if old._inference:              # (a .grad made in inference mode: added to, then refused, as by bump)
            bump(old)
            return
        vc = old._version_counter       # bump(old), inlined: once per leaf and backward
        if vc is None:
            vc = counter(old)
        vc.value += 1


ag.accumulate_into, ag.validate_grad = accumulate_into, validate_grad


# ================================================================================================ arithmetic

_ALPHA_1 = {'alpha': 1}     # what every `a + b` saves: one dict for all of them (saved dicts are never changed)


def add(a, b, *, alpha=1):
    tb = type(b)
    one = type(alpha) is _int and alpha == 1
    if not one and isinstance(alpha, Tensor):     # (PyTorch takes a tensor alpha as the number it holds)
        alpha = alpha.item()
        one = type(alpha) is _int and alpha == 1
    if one:
        # `tensor + number` on a float tensor and `tensor + tensor` of one dtype, the second of a's shape or
        # broadcast over its leading dims (a sum tree, a residual, a bias), computed and recorded here without a
        # call, as in mul (see there): _alike's cases and record(out, AddBackward0, (a, other), _ALPHA_1, same)
        # inlined (a broadcast operand's shape kept as the node's input metadata, as record does).
        ad = a._data
        other = bd = meta = None
        if tb is _float or tb is _int:
            consts = _FLOAT_CONSTANTS.get(ad.dtype)
            bd = None if consts is None else consts.get(b)
        elif tb is Tensor:
            bd = b._data
            if bd.dtype is not ad.dtype:
                bd = None
            elif bd.shape != ad.shape:                 # (b broadcast over a's leading dims: a bias)
                if bd.ndim > ad.ndim or ad.shape[ad.ndim - bd.ndim:] != bd.shape:
                    bd = None
                else:
                    meta = [None, (bd.shape, bd.dtype)]
            elif bd.strides != ad.strides:             # (mixed layouts: _binary lays the result out)
                bd = None
            other = b
        if bd is not None:
            out = _new(Tensor)
            out._data = ad + bd if ad.ndim else np.asarray(ad[()] + bd[()])
            out._version_counter = None
            out._grad_fn = None
            out._requires_grad = False
            out._output_nr = 0
            if ag.grad_enabled:
                if a._requires_grad or other is not None and other._requires_grad:
                    if ag.unread:
                        ag.read_inputs((a, other))
                    if ag.fw_pending:
                        ag.fw_flush()
                    node = AddBackward0()     # (a node class has no __init__: a call is cheaper than _new)
                    node._fns = (a._grad_fn or a._grad_accumulator(),
                                 None if other is None else other._grad_fn or other._grad_accumulator())
                    node._nrs = (ag._output_nrs((a, other)) if a._output_nr or other is not None and other._output_nr
                                 else None)
                    node._meta = meta
                    node._saved = _ALPHA_1
                    node._seq = next(_sequence)
                    node._freed = False
                    out._grad_fn = node
                    out._requires_grad = True
                    if ag.saved_hooks:
                        node._hooked = node._watched = True
                    if ag.anomaly:
                        ag.keep_stack(node)
                    if ag.fw_level is not None:
                        ag.fw_record(node, (a, other), (out,))
            elif ag.inference_enabled:
                out._inference = True
            return out
    out = _alike(a, b, operator.add) if one else None
    same = out is not None
    if not same:
        out = _binary(a, b, np.add, alpha)
        if out is None:
            return NotImplemented
    if ag.grad_enabled:
        # (a number is the common other operand: no isinstance for it)
        if tb is not Tensor and (tb is _float or tb is _int or not isinstance(b, Tensor)):
            b = None
        if a._requires_grad or b is not None and b._requires_grad:
            _record(out, AddBackward0, (a, b), _ALPHA_1 if one else {'alpha': alpha}, same)
    elif ag.inference_enabled:
        out._inference = True
    return out


class AddBackward0(Node):
    def apply(self, g):
        a, b = self._fns
        alpha = self._saved['alpha']        # (no gradient for an input that needs none: a node hook sees None)
        return (None if a is None else g), (None if b is None else g if alpha == 1 else _mul_scalar(g, alpha))


def sub(a, b, *, alpha=1):
    if isinstance(alpha, Tensor):
        alpha = alpha.item()
    _check_bool_sub(a, b)
    out = _binary(a, b, np.subtract, alpha)
    return NotImplemented if out is None else _attach(out, SubBackward0, (a, b), {'alpha': alpha})


class SubBackward0(Node):
    def apply(self, g):
        return (g if self.needs(0) else None), (_neg_times(g, self._saved['alpha']) if self.needs(1) else None)


def _neg_times(g, alpha):
    """-g * alpha as PyTorch's formulas compute it (maybe_multiply): -g alone for alpha 1 (NegBackward0 under
    create_graph), else times the number (MulBackward1)."""
    return -g if alpha == 1 else _mul_scalar(-g, alpha)


def _check_alpha(d, alpha, negated=False):
    """PyTorch's checks of add / sub's alpha against the result dtype d; the alpha to compute with (an int wrapped
    into d as C casts it). Sub adds -alpha: that is the value its kernel converts to d (and checks)."""
    if type(alpha) is builtins.int:
        _check_int(alpha)                                   # (read as a Scalar first)
    if isinstance(alpha, builtins.bool) and d is not dt.bool_:
        raise RuntimeError('Boolean alpha only supported for Boolean results.')
    if not d.is_floating_point and isinstance(alpha, (builtins.float, np.floating, np.bool_)):   # (np.bool_: a float)
        raise RuntimeError('For integral input tensors, argument alpha must not be a floating point number.')
    if type(alpha) is builtins.float and d.np is not _F16 and d.is_floating_point and -3e38 < alpha < 3e38:
        return alpha                                        # (an optimizer's `p.add_(g, alpha=-lr)`: fits)
    v = _scalar(alpha)
    dt.check_scalar(-v if negated and d is not dt.bool_ else v, d)
    if d.category == 1:
        return _wrap_int(builtins.int(alpha), d.np)
    return builtins.bool(alpha) if d is dt.bool_ else alpha


def _check_bool_sub(a, b):
    tb = type(b)
    if tb is builtins.int:                  # (read as a Scalar first)
        _check_int(b)
    elif tb is not Tensor and not isinstance(b, _TENSOR_OR_NUMBER):   # (a numpy array: numpy's operator then)
        return
    if type(a) is builtins.int:
        _check_int(a)
    bools = [x._data.dtype.kind == 'b' if isinstance(x, Tensor) else isinstance(x, builtins.bool)
             for x in (a, b)]
    if all(bools):
        raise RuntimeError('Subtraction, the `-` operator, with two bool tensors is not supported. Use the `^` or '
                           '`logical_xor()` operator instead.')
    if any(bools):
        raise RuntimeError('Subtraction, the `-` operator, with a bool tensor is not supported. If you are trying to '
                           'invert a mask, use the `~` or `logical_not()` operator instead.')


def rsub(a, b, *, alpha=1):
    """b - a for a Python number b (what `2 - x` calls); torch.rsub(a, tensor b) is b - alpha * a, one
    RsubBackward0 over both."""
    if not isinstance(a, Tensor):
        raise TypeError('rsub: a tensor input')     # (torch.rsub(2, x): the argument parser's error replaces it)
    if isinstance(b, Tensor):
        if isinstance(alpha, Tensor):
            alpha = alpha.item()
        _check_bool_sub(a, b)
        out = _binary(b, a, np.subtract, alpha)
        return NotImplemented if out is None else _attach(out, RsubBackward0, (a, b), {'alpha': alpha})
    _check_bool_sub(a, b)
    ops = _operands(a, b)
    if ops is None:
        return NotImplemented
    ad, bd, d, same = ops
    if type(bd) is builtins.int and d.category == 1:
        bd = _wrap_int(bd, d.np)
    k = alpha if type(alpha) is builtins.int and alpha == 1 else _check_alpha(d, alpha, True)
    out = _out(bd - np.multiply(ad, k, dtype=d.np) if k == 1 or d.np is not _F32 else _fma32(ad, np.float32(-k), bd), d)
    return _attach(out, RsubBackward1, (a,), {'alpha': alpha}, same)


class RsubBackward1(Node):
    def apply(self, g):
        return (_neg_times(g, self._saved['alpha']),)


class RsubBackward0(Node):
    def apply(self, g):
        return (_neg_times(g, self._saved['alpha']) if self.needs(0) else None), (g if self.needs(1) else None)


# What PyTorch's C++ backward formulas record for `Scalar * tensor`, `tensor + Scalar`, `tensor / Scalar`,
# `tensor - Scalar` and `Scalar - tensor` (the Scalar a C++ number, not a wrapped 0-d tensor): mul.Scalar
# (MulBackward1, saving the number), add.Scalar (AddBackward1, saving nothing), div.Scalar (DivBackward1),
# sub.Scalar (SubBackward1) and a tensor filled with the number minus the tensor (SubBackward0). Used by the
# formulas of double backward; the values are those of `t * s`, `t + s`, `t / s`, `t - s`, `s - t` in t's dtype.

def _recording(*ts):
    """Whether an op over tensors ts (None allowed) records a node (autograd on, some input needs grad)."""
    return ag.grad_enabled and builtins.any(t is not None and t._requires_grad for t in ts)


def _mul_scalar(t, s):
    if t._data.dtype.kind not in 'fc':          # (a bool or integer tensor times a number promotes: True * 2 is 2)
        return t * s
    if t._data.dtype is _F16:                   # (the number taken as a float, not rounded to half: see _binary)
        out = make((t._data.astype(_F32) * np.float32(s)).astype(_F16))
    else:
        out = make(t._data * t._data.dtype.type(s))
    return _attach(out, MulBackward1, (t,), {'other': s}, True)


class MulBackward1(Node):
    def apply(self, g):
        return (_mul_scalar(g, self._saved['other']),)


def _add_scalar(t, s):
    return _attach(make(t._data + t._data.dtype.type(s)), AddBackward1, (t,), None, True)


def _add_eps(t, eps):
    """t + eps (a float) as ATen's composite ops add it: in t's dtype, or promoted to a float for an integer t."""
    return _add_scalar(t, eps) if t._data.dtype.kind in 'fc' else t + eps


class AddBackward1(Node):
    def apply(self, g):
        return (g,)


def _div_scalar(t, s):
    return _attach(_out(t._data / s, t.dtype), DivBackward1, (t,), {'other': s})


class DivBackward1(Node):
    def apply(self, g):
        return (_div_scalar(g, self._saved['other']),)


def _sub_scalar(t, s):
    if t._data.dtype.kind == 'b':               # (pow's gradient for a bool exponent: e - 1)
        _check_bool_sub(t, s)
    return _attach(make(t._data - t._data.dtype.type(s)), SubBackward1, (t,), None, True)


class SubBackward1(Node):
    def apply(self, g):
        return (g,)


def _scalar_sub(s, t):
    """s - t as PyTorch's C++ `Scalar - Tensor` computes it: a tensor full of s, minus t (SubBackward0)."""
    return sub(make(np.full_like(t._data, s)), t)


# (number, the saved dict of `tensor * number`) of the last such product recorded: a loop multiplying by one constant
# makes one dict for all its nodes (saved dicts are never changed; `is`: the same object, of the same type)
_mul_saved = (object(), None)


def mul(a, b):
    global _mul_saved
    tb = type(b)
    if tb is _float or tb is _int:
        # `tensor * number` on a float tensor, the hottest op, computed and recorded here without a call: _alike's
        # first case and record(out, MulBackward0, (a, None), saved, same=True) inlined; keep them in step. (Each
        # call saves a frame, and these stores on one class specialise, unlike record's.) A number not converted
        # yet, or not a float tensor, goes the general way below.
        ad = a._data
        consts = _FLOAT_CONSTANTS.get(ad.dtype)
        bd = None if consts is None else consts.get(b)
        if bd is not None:
            out = _new(Tensor)
            out._data = ad * bd if ad.ndim else np.asarray(ad[()] * bd[()])
            out._version_counter = None
            out._grad_fn = None
            out._requires_grad = False
            out._output_nr = 0
            if ag.grad_enabled:
                if a._requires_grad:
                    last = _mul_saved
                    if a._grad_from_base and a._grad_fn is None:
                        saved = {'other': None, 'self': None}       # (no edge: nothing saved, see _edge)
                    elif last[0] is b:
                        saved = last[1]
                    else:
                        saved = {'other': b, 'self': None}
                        _mul_saved = (b, saved)
                    if ag.unread:
                        ag.read_inputs((a,))
                    if ag.fw_pending:
                        ag.fw_flush()
                    node = MulBackward0()     # (a node class has no __init__: a call is cheaper than _new)
                    node._fns = (a._grad_fn or a._grad_accumulator(), None)
                    node._nrs = ag._output_nrs((a, None)) if a._output_nr else None
                    node._meta = None
                    node._saved = saved
                    node._seq = next(_sequence)
                    node._freed = False
                    out._grad_fn = node
                    out._requires_grad = True
                    if ag.saved_hooks:
                        node._hooked = node._watched = True
                    if ag.anomaly:
                        ag.keep_stack(node)
                    if ag.fw_level is not None:
                        ag.fw_record(node, (a, None), (out,))
            elif ag.inference_enabled:
                out._inference = True
            return out
    out = _alike(a, b, operator.mul)
    same = out is not None
    if not same:
        out = _binary(a, b, np.multiply)
        if out is None:
            return NotImplemented
    if ag.grad_enabled:
        if tb is not Tensor and (tb is _float or tb is _int or not isinstance(b, Tensor)):
            if a._requires_grad:
                _record(out, MulBackward0, (a, None), {'other': b if _edge(a) else None, 'self': None}, same)
        elif a._requires_grad or b._requires_grad:      # (saved in PyTorch's order: other, then self)
            _record(out, MulBackward0, (a, b), {'other': SavedTensor(b) if _edge(a) else None,
                                                'self': SavedTensor(a) if _edge(b) else None}, same)
    elif ag.inference_enabled:
        out._inference = True
    return out


class MulBackward0(Node):
    _variables = ('self', 'other')

    def apply(self, g):
        a, b = self._fns
        other = self._saved['other']
        if type(other) is _float and not self._freed:   # `tensor * float`: nothing to unpack or check (see saved)
            return (g * other if a is not None else None), None
        # (PyTorch's generated code goes through the inputs in the order of their names: other, then self; which
        # matters where a double backward records the gradients, for their nodes' sequence numbers)
        gb = g * self.saved('self') if b is not None else None
        return (g * self.saved('other') if a is not None else None), gb


_UNSET = object()


def div(a, b, *, rounding_mode=_UNSET):
    """a / b; with rounding_mode (None too, when given: PyTorch's other overload) a DivBackward2 node."""
    tb = type(b)
    if (tb is _float or tb is _int) and rounding_mode is _UNSET:
        out = _alike(a, b, operator.truediv)          # `tensor / number` on a float tensor (a loss over the batch)
        if out is not None:
            if ag.grad_enabled:
                if a._requires_grad:
                    _record(out, DivBackward0, (a, None), {'other': b, 'self': None}, True)
            elif ag.inference_enabled:
                out._inference = True
            return out
    if rounding_mode not in (_UNSET, None, 'trunc', 'floor'):
        raise RuntimeError("div expected rounding_mode to be one of None, 'trunc', or 'floor' but found '%s'"
                           % rounding_mode)
    ops = _operands(a, b)
    if ops is None:
        return NotImplemented
    ad, bd, d, same = ops
    if rounding_mode is not _UNSET and rounding_mode is not None:
        if d.category == 0:
            raise NotImplementedError('"div_%s_cpu" not implemented for \'Bool\'' % rounding_mode)
        if d.category == 1 and type(bd) is _int:
            bd = _wrap_int(bd, d.np)         # (the number in the tensor's type, as a C cast makes it: -3 is 253 in uint8)
        if d.category == 1 and np.any(np.asarray(bd) == 0):
            raise RuntimeError('ZeroDivisionError')
        if rounding_mode == 'floor':
            r = _floor_divided(ad, bd, d, b)
        else:
            s = _half_scalar(b) if d.np is _F16 else None    # (a half by a number: in float, see _half_scalar)
            if d.category == 1:                               # (integers divided as integers: 2**62 + 1 exact)
                with np.errstate(over='ignore', divide='ignore'):
                    r = np.floor_divide(ad, bd)
                    r = r + ((np.remainder(ad, bd) != 0) & ((np.asarray(ad) < 0) != (np.asarray(bd) < 0)))
                r = r.astype(d.np, copy=False)
            else:
                r = np.trunc(np.true_divide(ad, bd)) if s is None else np.trunc(ad.astype(_F32) / s).astype(_F16)
    else:
        if not d.is_floating_point:        # (both cast from their own dtypes: torch.tensor(-1) / uint8 is -1 / x)
            same = False
            d = dt.default_float
            ad = a._data.astype(d.np)
            bd = b._data.astype(d.np) if isinstance(b, Tensor) else bd
        s = _half_scalar(b) if d.np is _F16 else None
        r = ad / bd if s is None else (ad.astype(_F32) / s).astype(_F16)
    if type(bd) is np.ndarray and not (ad.flags.c_contiguous and bd.flags.c_contiguous):
        r = _iter_laid_out(r, ad, bd)                    # (mixed layouts: PyTorch's, not numpy's)
    out = _out(r, d)
    if ag.grad_enabled and (a._requires_grad or _rg(b)):
        saved = {'other': _save(b), 'self': _save(a) if _edge(b) else None}
        if rounding_mode is _UNSET:
            _attach(out, DivBackward0, (a, b), saved, same)
        else:
            saved['rounding_mode'] = rounding_mode
            _attach(out, DivBackward2, (a, b), saved, same)
    return out


class DivBackward0(Node):
    _variables = ('self', 'other')

    def apply(self, g):
        other, x = self.saved_pair('other', 'self')  # PyTorch's grad / other and -grad * ((self / other) / other)
        a, b = self._fns
        gd = g._data
        if (not ag.grad_enabled and type(other) is Tensor and other._data.dtype is gd.dtype
                and (x is None or x._data.dtype is gd.dtype)):        # (the same arithmetic in numpy at once)
            od = other._data
            return (make(gd / od) if a is not None else None,
                    make(-gd * (x._data / od / od)) if b is not None else None)
        gb = -g * (x / other / other) if b is not None else None         # (other first: see MulBackward0)
        return (g / other if a is not None else None), gb


class DivBackward2(DivBackward0):
    """div with a rounding_mode: rounded quotients are flat, so their gradient is zero (none given: a / b's)."""
    def apply(self, g):
        if self._saved['rounding_mode'] is None:
            return DivBackward0.apply(self, g)
        self._unpack_all()
        return (_zeros_like(g) if self.needs(0) else None, _zeros_like(g) if self.needs(1) else None)


def reciprocal(a):
    out = _out(1.0 / a._data.astype(_float_dtype(a).np, copy=False), _float_dtype(a))
    return _attach(out, ReciprocalBackward0, (a,), {'result': _RESULT})


class ReciprocalBackward0(Node):
    def apply(self, g):
        r = self.saved('result')
        return (-g * (r * r),)


_F32 = np.dtype(np.float32)


def _rounded(np_fn):
    """np_fn that gives float32 arrays the correctly rounded result nearly always: computed in float64, rounded once.
    numpy's own float32 exp, log, tanh, sin and cos are an ulp off for 12-40% of inputs; PyTorch's (MKL's) are
    nearly always correctly rounded, so this agrees with PyTorch bit for bit on 93-99.9% of inputs (numpy: 60-88%):
    `torch.tensor(1.).exp().item()` is 2.7182817459106445. (sqrt stays numpy's: it is exact, MKL's is not.) The
    ufunc converts (rather than astype), so the result is laid out as PyTorch's: row-major over broadcast dims."""
    def fn(x):
        if x.dtype is _F16:                                 # (halves: in float, rounded to half at the end)
            return np_fn(x.astype(np.float64)).astype(_F32).astype(_F16)
        if x.dtype is not _F32:
            return np_fn(x)
        if x.flags.c_contiguous:                            # (the same values; converting first is faster)
            return np_fn(x.astype(np.float64)).astype(np.float32)
        return np_fn(x, dtype=np.float64).astype(np.float32)
    return fn


_F16 = np.dtype(np.float16)


def _half(np_fn, x, *args):
    """np_fn of a float16 array as PyTorch's CPU kernels compute halves: in float32, rounded to half once."""
    return np_fn(x.astype(_F32), *args).astype(_F16)


def _rsqrt(x):
    one = x.dtype.type(1)
    if x.dtype is _F16:     # (halves: the vector loop in float, rounded once; the scalar loop in half, rounded twice)
        return _after_blocks(_half(_rsqrt, x), x, lambda tail: one / np.sqrt(tail))
    return one / np.sqrt(x)


def _after_blocks(r, x, scalar_fn):
    """r, the results of PyTorch's vector loop (which takes blocks of 32 numbers), with the numbers after the last
    whole block (all of them, for fewer than 32) as its scalar loop computes them: scalar_fn of those of x. Both
    taken row-major."""
    flat = np.ascontiguousarray(r).reshape(-1)
    whole = flat.size // 32 * 32
    flat[whole:] = scalar_fn(np.ascontiguousarray(x).reshape(-1)[whole:])
    return flat.reshape(r.shape)


def pow(a, b):
    """a ** b: PowBackward0 (tensor ** number), PowBackward1 (tensor ** tensor), PowBackward2 (number ** tensor)."""
    if not isinstance(a, Tensor):
        ops = _operands(b, a)
        if ops is None:
            return NotImplemented
        bd, ad, d, same = ops
        if d is dt.bool_:
            raise NotImplementedError('"pow" not implemented for \'Bool\'')
        if type(ad) is builtins.int and d.category == 1:
            ad = _wrap_int(ad, d.np)                    # (cast as C casts it: -1 ** uint8 is 255 ** uint8)
        elif d.is_floating_point and type(ad) is builtins.float:
            ad = d.np.type(ad)                          # (0.9 ** torch.arange(5): the base made a float first)
        out = _out(np.asarray(_power(ad, bd, d), order='C'), d)     # (PyTorch's result here is contiguous)
        return _attach(out, PowBackward2, (b,), {'self': _scalar(a), 'exponent': _save(b), 'result': _RESULT},
                       same)
    if type(b) is builtins.int and b >= 2 ** 63 and a._data.dtype.kind != 'f':
        # (an int base: PyTorch reads the exponent as an int64 first, to refuse negative ones)
        _check_int(b)
        raise RuntimeError('value cannot be converted to type int64_t without overflow')
    ops = _operands(a, b)
    if ops is None:
        return NotImplemented
    ad, bd, d, same = ops
    if d is dt.bool_ and isinstance(b, Tensor):
        raise NotImplementedError('"pow" not implemented for \'Bool\'')
    if not isinstance(b, Tensor):
        b = _scalar(b)
        if d.category == 1 and b < 0:
            raise RuntimeError('Integers to negative integer powers are not allowed.')
        if d.category == 1 and type(b) is builtins.int or d is dt.float16:
            dt.check_scalar(b, d)       # (the exponent as a value of the dtype: int8 ** 300 and half ** 70000. fail)
        out = _out(_power_scalar(ad, bd, b, d) if d.is_floating_point else np.power(ad, bd), d)
        return _attach(out, PowBackward0, (a,), {'self': _save(a), 'exponent': b}, same)
    r = _power(ad, bd, d)
    r = _iter_laid_out(r, ad, bd)                            # (mixed layouts: PyTorch's, not numpy's)
    out = _out(r, d)
    return _attach(out, PowBackward1, (a, b), {'exponent': _save(b), 'self': _save(a), 'result': _RESULT}, same)


def _power(x, e, d):
    """x ** e (arrays or numbers) in dtype d; a float32 result rounded once from float64, as in _rounded."""
    r = _power_of(x, e, d)
    if d.is_floating_point and np.size(e) == 1 and e == 0.5:
        # numpy takes a single exponent 0.5 as sqrt, whose -0. is -0. and -inf nan: pow's (PyTorch's) are 0. and inf
        r = np.where(x == 0, r.dtype.type(0), np.where(np.isneginf(x), r.dtype.type(np.inf), r))
    return r


def _power_of(x, e, d):
    if d.np is _F32:
        return np.power(x, e, dtype=np.float64).astype(np.float32)
    if d.category == 1 and np.any(np.asarray(e) < 0):       # (numpy refuses) PyTorch's powi: 1, -1 or 0 for those
        neg = e < 0
        small = np.where(x == 1, 1, np.where(x == -1, np.where(e % 2 != 0, -1, 1), 0))
        return np.where(neg, small, np.power(x, np.where(neg, 0, e))).astype(d.np)
    return np.power(x, e)


def _power_scalar(x, e, number, d):
    """A float array x to the power of a number, as PyTorch's kernel computes it: products, sqrt and reciprocals for
    the exponents it singles out, else pow (rounded once, see _rounded)."""
    if x.dtype is _F16:     # (its half kernel singles out none: pow in float32 rounded once, so 1000.5 ** -2 is not 0)
        return _half(_power, x, np.float32(e), dt.float32)
    one = x.dtype.type(1)
    if number == 2:
        return x * x
    if number == 3:
        return x * x * x
    if number == -2:
        return one / (x * x)
    if number == 0.5:
        return np.sqrt(x)
    if number == -0.5:
        return _rsqrt(x)
    r = _power(x, e, d)
    if x.dtype is _F32 and isinstance(number, builtins.float) and builtins.float(np.float32(number)) != number:
        # (the vector loop takes the exponent as a float; the scalar loop pow(double(x), exponent) with the exponent
        # as given: x ** 0.8 of 31 numbers is the latter's)
        r = _after_blocks(r, x, lambda tail: np.power(tail.astype(np.float64), number).astype(_F32))
    return r


class PowBackward0(Node):
    def apply(self, g):
        e = self._saved['exponent']
        if e == 0 and type(e) is not builtins.bool:     # (c10's Scalar: False does not equal 0.)
            self._unpack_all()
            return (_zeros_like(g),)
        x = self.saved('self')
        if _recording(g, x):               # PyTorch's formula, with e a C++ double: grad * (e * x.pow(e - 1))
            e = _float(e)
            return (g * _mul_scalar(x ** (e - 1), e),)
        return (g * (e * (x if e == 2 else x ** (e - 1))),)     # PyTorch's order: grad * (e * x^(e-1))


class PowBackward1(Node):
    def apply(self, g):
        x, e = self.saved('self'), self.saved('exponent')
        # PyTorch's pow_backward_self / _exponent: where(e == 0, 0, grad * (e * x^(e-1))) and
        # grad * where(x == 0 & e >= 0, 0, result * log(x)) (so a nan gradient stays nan)
        if self.needs(1):                   # (log of self cast to the result type: ToCopyBackward0 if it changes)
            ge = g * _where((x == 0) & (e >= 0), 0., self.saved('result') * x.to(dt.result_type(x, e)).log())
        else:                               # (the exponent first: see MulBackward0)
            ge = None
        gx = _where(e == 0, 0., g * (e * x ** _sub_scalar(e, 1))) if self.needs(0) else None
        return gx, ge


class PowBackward2(Node):
    def apply(self, g):
        base, e = self.saved('self'), self.saved('exponent')
        if type(base) is builtins.bool:     # (PyTorch's formula cannot read a bool Scalar back: True ** x's backward)
            raise RuntimeError('false INTERNAL ASSERT FAILED at "/__w/pytorch/pytorch/c10/core/Scalar.cpp":42, '
                               'please report a bug to PyTorch. unknown ivalue tag 4')
        # PyTorch's pow_backward_exponent: grad * (result * log(base)), log(base) a C++ double (nan below 0)
        out = _mul_scalar(self.saved('result'), math.log(base) if base > 0 else -math.inf if base == 0 else math.nan)
        if base == 0:                       # d(0 ** e)/de is 0 where e >= 0 (PyTorch's convention)
            out = _where(e >= 0, 0., out)
        return (g * out,)


def _where(cond, a, b):
    """torch.where for backward formulas (the nn op table defines it)."""
    from ._ops_nn import where
    return where(cond, a, b)


def neg(a):
    if a._data.dtype.kind == 'b':
        raise RuntimeError('Negation, the `-` operator, on a bool tensor is not supported. If you are trying to '
                           'invert a mask, use the `~` or `logical_not()` operator instead.')
    return _attach(make(-a._data), NegBackward0, (a,), None, True)


class NegBackward0(Node):
    def apply(self, g):
        return (-g,)


def _torch_remainder(x, y):
    """PyTorch's float remainder: fmod, moved by y when the signs differ (numpy's gives +0.0 where this is -0.0)."""
    mod = np.fmod(x, y)
    return np.where((mod != 0) & ((y < 0) != (mod < 0)), mod + y, mod)


_DIVISION_KERNELS = {np.remainder: 'remainder_cpu', np.fmod: 'fmod_cpu'}


def _division(a, b, ufunc, reverse=False):
    """ufunc(a, b) (ufunc(b, a) if reverse: b is then a number) by the operand rules of `a op b`, with PyTorch's
    error for an integer division by zero; None if b is neither a tensor nor a number."""
    ops = _operands(a, b)
    if ops is None:
        return None
    ad, bd, d, same = ops
    if type(bd) is builtins.int and d.category == 1:
        bd = _wrap_int(bd, d.np)
    if reverse:
        ad, bd = np.asarray(bd, d.np), ad
    if d.category == 0:
        raise NotImplementedError('"%s" not implemented for \'Bool\''
                                  % _DIVISION_KERNELS.get(ufunc, 'div_floor_cpu'))
    if not d.is_floating_point and np.any(np.asarray(bd) == 0):
        raise RuntimeError('ZeroDivisionError')
    if ufunc is np.remainder and d.is_floating_point:
        ufunc = _torch_remainder
    r = _floor_divided(ad, bd, d, None if reverse else b) if ufunc is np.floor_divide else ufunc(ad, bd)
    r = _iter_laid_out(r, ad, bd)                            # (mixed layouts: PyTorch's, not numpy's)
    return _out(r, d)


def _floor_divided(ad, bd, d, b):
    """ad // bd (arrays or numbers of dtype d) as PyTorch's div_floor kernel computes it; b the second operand as
    given (None when it is the first). A half divided by a number or a 0-d tensor: in float, by its original value
    (see _half_scalar); a half by a half tensor: every step in half (see _div_floor_floating)."""
    if d.np is _F16:
        s = None if b is None else _half_scalar(b)
        if s is not None:
            return _div_floor_floating(ad.astype(_F32), s).astype(_F16)
        if type(bd) is np.ndarray and bd.ndim:
            return _div_floor_floating(ad, bd)
    return np.floor_divide(ad, bd)


def _div_floor_floating(a, b):
    """a // b in a's float dtype as PyTorch's div_floor_floating computes it, every step rounded to that dtype:
    (a - fmod(a, b)) / b, one less where the remainder's sign is not b's, then floor, rounded to nearest if that is
    more than half away (numpy's floor_divide is exact before its one rounding: in half 64992 // 7 is 9280, PyTorch's
    9288)."""
    one, half = a.dtype.type(1), a.dtype.type(0.5)
    with np.errstate(all='ignore'):
        mod = np.fmod(a, b)
        div = (a - mod) / b
        div = np.where((mod != 0) & ((b < 0) != (mod < 0)), div - one, div)
        floor = np.floor(div)
        floor = np.where(div - floor > half, floor + one, floor)
        floor = np.where(div == 0, np.copysign(a.dtype.type(0), a / b), floor)
        return np.where(b == 0, a / b, floor).astype(a.dtype)


def remainder(a, b):
    """Python's %: the result takes the sign of the divisor. `number % tensor` has no derivative in PyTorch."""
    if not isinstance(a, Tensor):
        out = _division(b, a, np.remainder, reverse=True)
        return _not_implemented(out, b, 'aten::remainder')
    out = _division(a, b, np.remainder)
    if out is None:
        return NotImplemented
    if isinstance(b, Tensor):
        return _attach(out, RemainderBackward1, (a, b), {'other': _save(b) if _edge(b) else None,
                                                         'self': _save(a) if _edge(b) else None})
    return _attach(out, RemainderBackward0, (a,))


class RemainderBackward0(Node):
    def apply(self, g):
        return (g,)


class RemainderBackward1(Node):
    def apply(self, g):
        return (g if self.needs(0) else None,
                -g * div(self.saved('self'), self.saved('other'), rounding_mode='floor') if self.needs(1) else None)


def fmod(a, b):
    """C's fmod: the result takes the sign of the dividend."""
    out = _division(a, b, np.fmod)
    if out is None:
        return NotImplemented
    if isinstance(b, Tensor):
        return _attach(out, FmodBackward1, (a, b), {'other': _save(b) if _edge(b) else None,
                                                    'self': _save(a) if _edge(b) else None})
    return _attach(out, FmodBackward0, (a,))


class FmodBackward0(RemainderBackward0):
    pass


class FmodBackward1(Node):
    def apply(self, g):
        return (g if self.needs(0) else None,
                -g * div(self.saved('self'), self.saved('other'), rounding_mode='trunc') if self.needs(1) else None)


def floor_divide(a, b):
    """a // b, rounded down. PyTorch defines no derivative: its node raises when backward reaches it."""
    if not isinstance(a, Tensor):
        return _not_implemented(_division(b, a, np.floor_divide, reverse=True), b, 'aten::floor_divide')
    out = _division(a, b, np.floor_divide)
    if out is None:
        return NotImplemented
    return _not_implemented(out, (a, b), 'aten::floor_divide')


def _not_implemented(out, inputs, op):
    """Record PyTorch's `NotImplemented` node for an op without derivative (an error once backward reaches it). As
    PyTorch's autograd fallback, it has an edge for each input that requires grad, and no other."""
    inputs = tuple(x for x in (inputs if isinstance(inputs, tuple) else (inputs,)) if _rg(x))
    if out is not None and out._data.dtype.kind == 'f' and ag.grad_enabled and inputs:
        _record(out, NotImplementedBackward, inputs).op = op
    return out


def _no_derivative(self, *grads):
    raise RuntimeError('derivative for %s is not implemented' % self.op)


# PyTorch's node for a missing derivative is called NotImplemented (a name this module cannot shadow).
NotImplementedBackward = type('NotImplemented', (Node,), {'apply': _no_derivative, '__module__': __name__,
                                                        'name': lambda self: 'torch::autograd::NotImplemented'})


# ================================================================================================ pointwise

def _unary(np_fn, node_cls, save):
    """A pointwise float op: numpy function, node class, and which of 'self' / 'result' the node saves."""
    def op(a):
        x = a._data
        if x.dtype.kind == 'f':
            out = _out(np_fn(x), _FROM_NP[x.dtype])
        else:
            d = dt.default_float
            out = _out(np_fn(x.astype(d.np)), d)
        if a._requires_grad and ag.grad_enabled:
            _record(out, node_cls, (a,), {'self': SavedTensor(a)} if save == 'self' else
                    {'result': _RESULT} if save else None, out._data.dtype is x.dtype)
        return out
    op.__name__ = op.__qualname__ = node_cls.__name__[:-9].lower()
    op.__code__ = op.__code__.replace(co_name=op.__name__, co_qualname=op.__name__)   # (what a TypeError names)
    return op


class ExpBackward0(Node):
    def apply(self, g):
        return (g * self.saved('result'),)


class LogBackward0(Node):
    def apply(self, g):
        return (g / self.saved('self'),)


class SqrtBackward0(Node):
    def apply(self, g):
        return (g / _mul_scalar(self.saved('result'), 2),)


class SigmoidBackward0(Node):
    def apply(self, g):
        return (sigmoid_backward(g, self.saved('result')),)


def sigmoid_backward(g, y):
    """g * y * (1 - y): the gradient of sigmoid from its output, an op of its own (for double backward)."""
    out = make(g._data * (1 - y._data) * y._data)
    if not ag.grad_enabled:
        return out
    return _attach(out, SigmoidBackwardBackward0, (g, y), {'grad_output': SavedTensor(g), 'output': SavedTensor(y)})


class SigmoidBackwardBackward0(Node):
    def apply(self, gg):
        g, y = self.saved('grad_output'), self.saved('output')
        return (sigmoid_backward(gg, y) if self.needs(0) else None,
                gg * g * _add_scalar(_mul_scalar(y, -2), 1) if self.needs(1) else None)   # grad * go * (-2y + 1)


class TanhBackward0(Node):
    def apply(self, g):
        return (tanh_backward(g, self.saved('result')),)


def tanh_backward(g, y):
    """g * (1 - y * y): the gradient of tanh from its output, an op of its own (for double backward)."""
    yd, gd = y._data, g._data         # (PyTorch's kernel: 1 - y * y in one fused multiply-add)
    if yd.dtype is _F16 and gd.dtype is _F16:       # (halves: computed in float, rounded once)
        out = make(_half(lambda y32: gd.astype(_F32) * _fma32(-y32, y32, 1), yd))
    elif yd.dtype is _F32 and gd.dtype is _F32:
        out = make(gd * _fma32(-yd, yd, 1))
    elif yd.dtype == np.float64 and gd.dtype == np.float64:     # (doubles too, in its scalar loop as well)
        out = make(gd * _fma64(-yd, yd, 1.0))
    else:
        out = make(gd * (1 - yd * yd))
    if not ag.grad_enabled:
        return out
    return _attach(out, TanhBackwardBackward0, (g, y), {'grad_output': SavedTensor(g), 'output': SavedTensor(y)})


class TanhBackwardBackward0(Node):
    def apply(self, gg):
        g, y = self.saved('grad_output'), self.saved('output')
        return (tanh_backward(gg, y) if self.needs(0) else None,
                gg * (_mul_scalar(y, -2) * g) if self.needs(1) else None)                # grad * (-2y * go)


class SinBackward0(Node):
    def apply(self, g):
        return (g * self.saved('self').cos(),)


class CosBackward0(Node):
    def apply(self, g):
        return (g * -self.saved('self').sin(),)       # PyTorch's grad * -self.sin() (the same bits as -g * sin)


_exp, _log_rounded = _rounded(np.exp), _rounded(np.log)


_fma32 = _rand.fma32         # a * b + c rounded once, for float32 (shared with the random number kernels)


def _vec_exp(x):
    """exp as PyTorch's vectorized kernels compute it: for float32 Sleef's expf_u10 (range reduction by ln 2, a
    degree-6 polynomial in fused multiply-adds, scaling by 2**q in two steps); other dtypes correctly rounded."""
    if x.dtype != _F32:
        return _exp(x)
    d = np.fmin(np.fmax(x, np.float32(-128)), np.float32(128))    # (far-out numbers and nan are settled at the end)
    q = np.rint(d * np.float32(1.4426950408889634)).astype(np.int32)
    qf = q.astype(_F32)
    s = _fma32(qf, -0.693145751953125, d)
    s = _fma32(qf, -1.428606765330187e-06, s)
    u = np.full_like(d, 0.000198527617612853646278381)        # (ufuncs and _like: the result is laid out as x)
    for c in (0.00139304355252534151077271, 0.00833336077630519866943359, 0.0416664853692054748535156,
              0.166666671633720397949219, 0.5):
        u = _fma32(u, s, c)
    u = np.float32(1) + _fma32(s * s, u, s)
    half = q >> 1
    u = u * ((half + 127) << 23).view(_F32) * ((q - half + 127) << 23).view(_F32)
    u = np.asarray(u)                                  # (0-d: numpy's arithmetic gave a scalar)
    np.copyto(u, np.float32(0), where=x < -104)
    np.copyto(u, np.float32(np.inf), where=x > 100)
    np.copyto(u, x, where=np.isnan(x))
    return u


def _vec_log(x):
    """log as PyTorch's vectorized kernels compute it (softmax's log of the sums): for float32 Sleef's logf_u10,
    AVX-512 variant (x = m * 2**e with m in [0.75, 1.5) by getexp/getmant; e * ln 2 + 2 atanh((m - 1) / (m + 1)) in
    double-float pairs, a degree-2 polynomial in the square; exhaustively equal to PyTorch's on [0.25, 2**24)); other
    dtypes correctly rounded."""
    if x.dtype != _F32:
        return _log_rounded(x)
    one = np.float32(1)
    with np.errstate(all='ignore'):
        y = x * np.float32(1 / 0.75)
        e = np.frexp(y)[1].astype(_F32) - one                                # (getexp: floor(log2 |x / 0.75|))
        e[np.isinf(y)] = 128
        m = (np.frexp(x)[0] * 2).astype(_F32)                                # (getmant into [0.75, 1.5))
        m = np.where(m >= np.float32(1.5), m * np.float32(0.5), m).astype(_F32)
        ln2, ln2_low = np.float32(0.69314718246459960938), np.float32(-1.904654323148236017e-09)
        sx = ln2 * e                                                         # s = (ln 2, its low part) * e
        sy = _fma32(ln2_low, e, _fma32(ln2, e, -sx))
        nx, ny = _rand.two_sum(np.float32(-1), m)                            # (m - 1) / (m + 1) as a pair
        qx, qy = _rand.two_sum(one, m)
        t = one / qx
        xx = nx * t
        xy = _fma32(xx, _fma32(-qy, t, _fma32(-qx, t, one)), _fma32(ny, t, _fma32(t, nx, -xx)))
        x2 = xx * xx
        p = _fma32(_fma32(np.float32(0.3027294874), x2, np.float32(0.3996108174)), x2, np.float32(0.6666694880))
        ax, ay = xx * np.float32(2), xy * np.float32(2)                      # s + 2 x, then + x**3 p
        hx = sx + ax
        hy = (((sx - hx) + ax) + sy) + ay
        w = (x2 * xx) * p
        gx = hx + w
        r = np.asarray(gx + (((hx - gx) + w) + hy), _F32)
    r[x == 0] = -np.inf
    r[x == np.inf] = np.inf
    r[x < 0] = np.nan
    np.copyto(r, x, where=np.isnan(x))
    return r


# glibc's expf (e_expf.c, its FMA build): 2**(k / 32) from a table, times a cubic in the rest, in double
_EXP2F_TABLE = np.array([
    0x3ff0000000000000, 0x3fefd9b0d3158574, 0x3fefb5586cf9890f, 0x3fef9301d0125b51, 0x3fef72b83c7d517b,
    0x3fef54873168b9aa, 0x3fef387a6e756238, 0x3fef1e9df51fdee1, 0x3fef06fe0a31b715, 0x3feef1a7373aa9cb,
    0x3feedea64c123422, 0x3feece086061892d, 0x3feebfdad5362a27, 0x3feeb42b569d4f82, 0x3feeab07dd485429,
    0x3feea47eb03a5585, 0x3feea09e667f3bcd, 0x3fee9f75e8ec5f74, 0x3feea11473eb0187, 0x3feea589994cce13,
    0x3feeace5422aa0db, 0x3feeb737b0cdc5e5, 0x3feec49182a3f090, 0x3feed503b23e255d, 0x3feee89f995ad3ad,
    0x3feeff76f2fb5e47, 0x3fef199bdd85529c, 0x3fef3720dcef9069, 0x3fef5818dcfba487, 0x3fef7c97337b9b5f,
    0x3fefa4afa2a490da, 0x3fefd0765b6e4540], np.uint64)     # asuint64(2**(i / 32)) - (i << 47)
_EXPF_C = [float.fromhex('0x1.c6af84b912394p-5') / 32 ** 3, float.fromhex('0x1.ebfce50fac4f3p-3') / 32 ** 2,
           float.fromhex('0x1.62e42ff0c52d6p-1') / 32, float.fromhex('0x1.71547652b82fep+0') * 32]


def _glibc_expf(x):
    """expf as glibc computes it (PyTorch's std::exp of a float, in its scalar loops): k = round(x * 32 / ln 2),
    2**(k / 32) from a table, times a cubic in the rest, in double with fused multiply-adds, rounded once to float.
    Not correctly rounded for about 0.06% of inputs (one ulp); equal to glibc's on every x <= 0 (softmax's)."""
    c0, c1, c2, inv_ln2 = _EXPF_C
    x = np.asarray(x, _F32)
    xd = x.astype(np.float64)
    shift = float.fromhex('0x1.8p+52')
    kd = inv_ln2 * xd + shift
    ki = kd.view(np.uint64)
    r = _fma64(inv_ln2, xd, -(kd - shift))                    # (x * 32 / ln 2 - k, fused by the compiler)
    scale = (_EXP2F_TABLE[ki % np.uint64(32)] + (ki << np.uint64(47))).view(np.float64)
    y = _fma64(_fma64(c0, r, c1), r * r, _fma64(c2, r, 1.0))
    with np.errstate(over='ignore', under='ignore', invalid='ignore'):
        out = np.asarray((y * scale).astype(_F32))
    out[x < np.float32(float.fromhex('-0x1.9fe368p6'))] = 0
    out[x > np.float32(float.fromhex('0x1.62e42ep6'))] = np.inf
    np.copyto(out, x, where=np.isnan(x))
    return out


def _sigmoid(x):
    """1 / (1 + exp(-x)) in x's dtype, as PyTorch's vectorized kernel computes it (its exp: see _vec_exp)."""
    if x.dtype is _F16:
        return _half(_sigmoid, x)
    one = x.dtype.type(1)
    return one / (one + _vec_exp(-x))


def _vec_loop(x, vec_fn, scalar_fn):
    """A float32 pointwise kernel as PyTorch's cpu_kernel_vec runs it on one thread (under 32768 elements): along
    rows of the innermost dims in memory order (coalesced), a row of unit stride (or one broadcast value) through
    vec_fn in whole blocks of 32 (two AVX-512 vectors), the rest of it through scalar_fn (the C++ scalar lambda: its
    exp is correctly rounded, Sleef's is not); strided rows through scalar_fn throughout. `sigmoid(x[:3])`: all
    scalar."""
    dims = [d for d in range(x.ndim) if x.shape[d] > 1]
    if not dims or x.dtype is not _F32:
        return scalar_fn(x)
    if all(x.strides[d] for d in dims):                     # (broadcast dims: TensorIterator keeps dims' order)
        dims.sort(key=lambda d: -x.strides[d])
    inner = x.strides[dims[-1]]
    if inner not in (0, x.itemsize):
        return scalar_fn(x)
    pos, n = np.zeros((1,) * x.ndim, np.int64), 1           # each element's place along its row
    for d in reversed(dims):
        if x.strides[d] != inner * n:
            break
        pos = pos + np.arange(x.shape[d], dtype=np.int64).reshape([-1 if i == d else 1 for i in range(x.ndim)]) * n
        n *= x.shape[d]
    if n < 32:
        return scalar_fn(x)
    r = np.array(vec_fn(x), copy=True)
    tail = np.broadcast_to(pos >= n - n % 32, x.shape)
    if n % 32:
        r[tail] = scalar_fn(x[tail])
    return r


def _sigmoid32(x):
    """sigmoid's kernel: 1 / (1 + exp(-x)) with Sleef's exp over whole vectors, the C library's for the rest."""
    if x.dtype is not _F32:
        return _sigmoid(x)
    one = x.dtype.type(1)
    return _vec_loop(x, _sigmoid, lambda f: one / (one + _exp(-f)))


exp = _unary(_exp, ExpBackward0, 'result')
log = _unary(_rounded(np.log), LogBackward0, 'self')
sqrt = _unary(np.sqrt, SqrtBackward0, 'result')
sigmoid = _unary(_sigmoid32, SigmoidBackward0, 'result')
tanh = _unary(_rounded(np.tanh), TanhBackward0, 'result')
sin = _unary(_rounded(np.sin), SinBackward0, 'self')
cos = _unary(_rounded(np.cos), CosBackward0, 'self')


# More pointwise float ops, with derivatives.yaml's formulas.
class Log2Backward0(Node):
    def apply(self, g):
        return (g / _mul_scalar(self.saved('self'), math.log(2)),)


class Log10Backward0(Node):
    def apply(self, g):
        # (derivatives.yaml's literal 2.3025850929940456 is the double one below math.log(10))
        return (g / _mul_scalar(self.saved('self'), 2.3025850929940456),)


class Log1PBackward0(Node):
    def apply(self, g):
        return (g / _add_scalar(self.saved('self'), 1),)


class Expm1Backward0(Node):
    def apply(self, g):
        return (g * _add_scalar(self.saved('result'), 1),)


class RsqrtBackward0(Node):
    def apply(self, g):
        return (_mul_scalar(g, -0.5) * self.saved('result') ** 3,)     # (-0.5 * grad: a C++ number's product)


class TanBackward0(Node):
    def apply(self, g):
        return (g * _add_scalar(self.saved('result') ** 2, 1),)


class SinhBackward0(Node):
    def apply(self, g):
        return (g * self.saved('self').cosh(),)


class CoshBackward0(Node):
    def apply(self, g):
        return (g * self.saved('self').sinh(),)


class AsinBackward0(Node):
    def apply(self, g):
        x = self.saved('self')
        return (g * _add_scalar(-x * x, 1).rsqrt(),)


class AcosBackward0(Node):
    def apply(self, g):
        x = self.saved('self')
        return (g * -(_add_scalar(-x * x, 1).rsqrt()),)


class AtanBackward0(Node):
    def apply(self, g):
        x = self.saved('self')
        return (g / _add_scalar(x * x, 1),)


log2 = _unary(_rounded(np.log2), Log2Backward0, 'self')
log10 = _unary(_rounded(np.log10), Log10Backward0, 'self')
log1p = _unary(_rounded(np.log1p), Log1PBackward0, 'self')
expm1 = _unary(_rounded(np.expm1), Expm1Backward0, 'result')
rsqrt = _unary(_rsqrt, RsqrtBackward0, 'result')
tan = _unary(_rounded(np.tan), TanBackward0, 'result')
sinh = _unary(_rounded(np.sinh), SinhBackward0, 'self')
cosh = _unary(_rounded(np.cosh), CoshBackward0, 'self')
asin = _unary(_rounded(np.arcsin), AsinBackward0, 'self')
acos = _unary(_rounded(np.arccos), AcosBackward0, 'self')
atan = _unary(_rounded(np.arctan), AtanBackward0, 'self')


def _rounding(np_fn, node_cls, kernel, integers=True):
    """floor, ceil, trunc, frac: integer tensors come back as they are, a copy (frac has no integer kernel:
    integers=False); the gradient is zero (frac's: g)."""
    def op(a):
        x = a._data
        if x.dtype.kind == 'b' or (x.dtype.kind != 'f' and not integers):
            raise NotImplementedError('"%s" not implemented for \'%s\'' % (kernel, _C10_TYPE[x.dtype.name]))
        return _attach(make(np_fn(x) if x.dtype.kind == 'f' else x.copy()), node_cls, (a,), None, True)
    op.__name__ = node_cls.__name__[:-9].lower()
    return op


class _ZeroGrad(Node):
    def apply(self, g):
        return (_zeros_like(g),)


class FloorBackward0(_ZeroGrad):
    pass


class CeilBackward0(_ZeroGrad):
    pass


class TruncBackward0(_ZeroGrad):
    pass


class RoundBackward0(_ZeroGrad):
    pass


class RoundBackward1(_ZeroGrad):
    pass


class FracBackward0(Node):
    def apply(self, g):
        return (g,)


_C10_TYPE = {'bool': 'Bool', 'int64': 'Long', 'int32': 'Int', 'int16': 'Short', 'int8': 'Char', 'uint8': 'Byte'}
floor = _rounding(np.floor, FloorBackward0, 'floor_vml_cpu')
ceil = _rounding(np.ceil, CeilBackward0, 'ceil_vml_cpu')
trunc = _rounding(np.trunc, TruncBackward0, 'trunc_vml_cpu')
frac = _rounding(lambda x: x - np.trunc(x), FracBackward0, 'frac_cpu', integers=False)


class _ZeroGrads(Node):
    def apply(self, g):
        return (_zeros_like(g), _zeros_like(g))


def _compared_into(name, np_fn):
    """What x.gt_(other) etc. write into x: the comparison as 1 / 0 of x's own dtype. No gradient flows through it
    (GtBackward0 when other is a number, GtBackward1 over both when it is a tensor)."""
    by_number = type(name.capitalize() + 'Backward0', (_ZeroGrad,), {'__module__': __name__})
    by_tensor = type(name.capitalize() + 'Backward1', (_ZeroGrads,), {'__module__': __name__})

    def op(a, b):
        ad, bd, d, _ = _operands(a, b)          # (compared in the result dtype, as a < b: uint8.lt_(-1) is < 255)
        if type(bd) is builtins.int and d.category == 1:
            bd = _wrap_int(bd, d.np)
        r = _out(np_fn(ad, bd), a.dtype)
        return _attach(r, by_tensor, (a, b)) if isinstance(b, Tensor) else _attach(r, by_number, (a,))
    op.__name__ = name
    return op


eq_into, ne_into, lt_into = _compared_into('eq', np.equal), _compared_into('ne', np.not_equal), _compared_into(
    'lt', np.less)
le_into, gt_into, ge_into = _compared_into('le', np.less_equal), _compared_into('gt', np.greater), _compared_into(
    'ge', np.greater_equal)


def round(a, *, decimals=None):
    """Round half to even; with decimals, at that decimal place (RoundBackward1: only for floating types)."""
    x = a._data
    if decimals is not None and x.dtype.kind != 'f':
        raise NotImplementedError('"%s" not implemented for \'%s\''
                                  % ('round_cpu' if decimals else 'round_vml_cpu', a.dtype.legacy))
    _not_for_bool(a, 'round_vml_cpu')
    if decimals and x.dtype is _F16:        # (x * 10 ** decimals, rounded, divided back: in float for halves)
        out = make(_half(np.round, x, decimals))
    else:
        out = make(np.round(x, decimals or 0) if x.dtype.kind == 'f' else x.copy())
    return _attach(out, RoundBackward0 if decimals is None else RoundBackward1, (a,), None, True)


def _not_for_bool(a, name, error=NotImplementedError, text='"%s" not implemented for \'Bool\''):
    if a._data.dtype.kind == 'b':
        raise error(text % name)


def abs(a):
    _not_for_bool(a, 'abs_cpu')
    return _attach(make(np.abs(a._data)), AbsBackward0, (a,), {'self': SavedTensor(a)}, True)


class AbsBackward0(Node):
    def apply(self, g):
        return (g * self.saved('self').sgn(),)


def _sign(x):
    """(x > 0) - (x < 0), as PyTorch computes it: the sign of nan is 0 there (numpy's is nan)."""
    if x.dtype.kind == 'b':
        return x.copy()
    return (x > 0).astype(x.dtype) - (x < 0).astype(x.dtype)


def sign(a):
    return _attach(make(_sign(a._data)), SignBackward0, (a,))


class SignBackward0(Node):
    def apply(self, g):
        return (_zeros_like(g),)


def sgn(a):
    return _attach(make(_sign(a._data)), SgnBackward0, (a,), {'result': _RESULT, 'self': SavedTensor(a)})


class SgnBackward0(SignBackward0):
    def apply(self, g):
        self._unpack_all()
        return (_zero_tensor(g),)       # (PyTorch's formula for a real input: a ZeroTensor)


def relu(a):
    x = a._data
    kind = x.dtype.kind
    if kind == 'b':
        _not_for_bool(a, 'relu', RuntimeError, 'Boolean inputs not supported for %s')
    zeros = _zeros_of(x)
    if type(zeros) is np.ndarray and _MAX_KEEPS_SECOND and kind == 'f' and x.itemsize >= 4:
        out = make(np.maximum(zeros, x))        # (x itself on ties: no -0 to look for)
    else:
        out = make(_clamp(x, zeros, None))
    if a._requires_grad and ag.grad_enabled and kind == 'f':
        _record(out, ReluBackward0, (a,), {'result': _RESULT}, True)
    return out


def _max_keeps_second():
    """Whether numpy's maximum of two contiguous float32 or float64 arrays gives its second operand where both are
    zeros (of either sign), at every position of arrays of many sizes: numpy's builds differ (x86's vector loop
    does), so _clamp looks for -0 after the fact unless this holds."""
    for dtype in (np.float32, np.float64):
        for n in (1, 2, 3, 4, 5, 7, 8, 9, 15, 16, 17, 31, 32, 33, 63, 64, 65, 127, 255, 257, 1000, 4099):
            pos, neg = np.zeros(n, dtype), np.full(n, -0.0, dtype)
            if not np.signbit(np.maximum(pos, neg)).all() or np.signbit(np.maximum(neg, pos)).any():
                return False
    return True


_MAX_KEEPS_SECOND = _max_keeps_second()


def _zeros_of(x):
    """Zeros to compare x with: an array of x's shape and dtype (read-only, kept) for a C-contiguous x of up to
    65,536 numbers, else the number 0 (which leaves the result laid out as x). numpy's maximum of two arrays runs its
    vector loop, of an array and a number a loop 2.5 times slower (relu in an MLP)."""
    if x.size > 65536 or not x.flags.c_contiguous:
        return x.dtype.type(0)
    key = (x.shape, x.dtype)
    zeros = _ZEROS.get(key)
    if zeros is None:
        if builtins.len(_ZEROS) >= 64:
            _ZEROS.clear()
        zeros = _ZEROS[key] = np.zeros(x.shape, x.dtype)
        zeros.flags.writeable = False
    return zeros


_ZEROS = {}


class ReluBackward0(Node):
    def apply(self, g):
        return (threshold_backward(g, self.saved('result'), 0),)


def threshold_backward(g, x, threshold):
    """The gradient of relu / threshold: 0 where x <= threshold, else g (so g where x is nan), as PyTorch's kernel
    (its own node for double backward)."""
    out = make(_zero_where(x._data <= threshold, g._data))
    if not ag.grad_enabled:                   # (a plain backward: nothing to save)
        return out
    return _attach(out, ThresholdBackwardBackward0, (g, x), {'self': SavedTensor(x), 'threshold': threshold})


_SAME_SIZE_INT = {2: np.int16, 4: np.int32, 8: np.int64}


def _zero_where(zero, d):
    """np.where(zero, 0, d) in d's dtype, bit for bit; for arrays of a few hundred numbers or more as an `and` of d's
    bits with a mask of all ones or zeros (numpy's where is three times slower: relu's backward in an MLP)."""
    bits = _SAME_SIZE_INT.get(d.itemsize)
    if bits is None or d.dtype.kind not in 'fiu' or d.size < 256 or zero.shape != d.shape:
        return np.where(zero, d.dtype.type(0), d)
    np.logical_not(zero, out=zero)                      # (zero, the caller's mask, is used up: now 1 where d stays)
    return np.multiply(d.view(bits), zero.view(np.int8), dtype=bits).view(d.dtype)     # (d's bits, or 0)


class ThresholdBackwardBackward0(Node):
    def apply(self, gg):
        return (threshold_backward(gg, self.saved('self'), self._saved['threshold']),
                _zeros_like(gg) if self.needs(1) else None)


def clamp(a, min=None, max=None):
    min, max = _scalar(min), _scalar(max)          # (a numpy number bound is a Python one: _saved_min is a float)
    if min is None and max is None:
        raise RuntimeError("torch.clamp: At least one of 'min' or 'max' must not be None")
    if isinstance(min, Tensor) != isinstance(max, Tensor) and (min if isinstance(max, Tensor) else max) is not None:
        # a tensor and a number: clamp.Scalar, which takes a 0-d tensor (needing no grad) as its number
        min, max = (v.item() if isinstance(v, Tensor) and not v._data.ndim and not v._requires_grad else v
                    for v in (min, max))
    if isinstance(min, Tensor) or isinstance(max, Tensor):     # (clamp.Tensor: the bounds get gradients too)
        lo, hi = (None if v is None else _as_tensor(v) for v in (min, max))
        shape = a._data.shape
        for t in (lo, hi):
            if t is not None:
                _check_broadcast(shape, t._data.shape)
                shape = np.broadcast_shapes(shape, t._data.shape)
        d = dt.result_type(a, *(t for t in (lo, hi) if t is not None))
        if d is dt.bool_ and lo is not None and hi is not None:
            raise NotImplementedError('"clamp_cpu" not implemented for \'Bool\'')
        # (every operand is cast to the result dtype first: an int8 tensor's bound tensor([300]) is 44)
        x, l, h = (None if t is None else _cast(t._data, d.np) for t in (a, lo, hi))
        out = _out(_iter_laid_out(_clamp_by_tensors(x, l, h), x, l, h), d)    # (laid out by all three, as PyTorch's)
        return _attach(out, ClampBackward0, (a, lo, hi), {'self': SavedTensor(a), 'min': _save(lo), 'max': _save(hi)})
    d = dt.result_type(a, *(v for v in (min, max) if v is not None))
    if d is dt.bool_:
        raise NotImplementedError('"clamp%s_scalar_cpu" not implemented for \'Bool\''
                                  % ('' if min is not None and max is not None else '_min' if max is None else '_max'))
    lo, hi = _number_bounds(d, min, max)
    x = a._data
    if x.dtype is not d.np:     # (an int tensor with a float bound: the kernel clamps it as float, and -1 fits there)
        x = x.astype(d.np)
    out = _out(_clamp(x, lo, hi), d)
    return _attach(out, ClampBackward1, (a,), {'self': SavedTensor(a), 'min': min, 'max': max})


def _number_bounds(d, *bounds):
    """clamp's number bounds (None for none) as the kernel takes them: values of the result dtype d by c10's checked
    conversion (uint8 takes -1 as 255, int8 refuses 200, float32 1e300, an int tensor's float result too, any dtype
    2 ** 70; checked only where it can matter)."""
    if (d is dt.float16 or not d.is_floating_point and d is not dt.bool_ or
            builtins.any(v is not None and not -9.2e18 < v < 1.8e19 for v in bounds)):
        return [None if v is None else dt.check_scalar(v, d) for v in bounds]
    return bounds


def _zero_ties(r, x, y):
    """maximum / minimum where x and y are zeros of both signs, as PyTorch's kernel picks: the second operand in its
    vector loop (16 float32 or 8 float64 lanes at a time), the first in the loop's scalar tail. (The loop runs over the
    whole of same-shaped operands, else over the last dim.)"""
    tie = (x == y) & (x == 0)
    if not tie.any():
        return r
    n = r.size if x.shape == y.shape else r.shape[-1]
    tail = np.arange(r.size).reshape(r.shape) % n >= n - n % (64 // r.itemsize)
    return np.where(tie, np.where(tail, x, y), r)


def _nan_in_vectors(x, vectors):
    """Where x is NaN in the part of it PyTorch's vector loop takes (_in_vector_loop). Its scalar loop takes the rest,
    and kernels built of comparisons often treat NaN otherwise there (a comparison with NaN is false either way
    round, masks and branches read it differently)."""
    nan = np.isnan(x)
    if not nan.any():
        return nan
    return nan & _in_vector_loop(x, vectors)


def _in_vector_loop(x, vectors):
    """Where x, laid flat, falls in PyTorch's vector loop: whole blocks of `vectors` AVX-512 vectors (64 bytes each;
    a pointwise kernel takes 2 at a time); its scalar loop takes the rest."""
    block = vectors * 64 // x.itemsize
    return (np.arange(x.size) < x.size - x.size % block).reshape(x.shape)


def _clamp_by_tensors(x, lo, hi):
    """clamp with tensor bounds (arrays, None for none): PyTorch's maximum with lo, then minimum with hi, whose
    vector loop gives the bound where it ties x in a zero of the other sign (see _zero_ties)."""
    r = x
    if lo is not None:
        r = np.asarray(_zero_ties(np.maximum(r, lo), r, lo)) if r.dtype.kind == 'f' else np.maximum(r, lo)
    if hi is not None:
        r = np.asarray(_zero_ties(np.minimum(r, hi), r, hi)) if r.dtype.kind == 'f' else np.minimum(r, hi)
    return r


def _clamp(x, lo, hi):
    """min(max(x, lo), hi) keeping x itself on ties, as PyTorch does (-0.0 stays -0.0). numpy's maximum / minimum
    return either operand on ties depending on the build (numpy 2.4 on x86 and Pyodide's 2.0 differ)."""
    out = x if lo is None else _kept_on_zero_ties(np.maximum(x, lo), x)
    return out if hi is None else _kept_on_zero_ties(np.minimum(out, hi), out)


def _kept_on_zero_ties(out, kept):
    """A maximum or minimum that gives its first operand `kept` where it ties the other in zeros of either sign
    (clamp(-0.4, -0., 0.) is -0.: max(-0.4, -0.) then min(-0., 0.), which keeps -0.)."""
    out = np.asarray(out)                    # (numpy gives a scalar for 0-d operands)
    if out.dtype.kind == 'f':
        zero = kept == 0
        if np.count_nonzero(zero):          # (faster than zero.any())
            np.copysign(out, kept, out=out, where=zero & (out == 0))
    return out


class ClampBackward1(Node):
    def apply(self, g):
        x = self.saved('self')._data
        lo, hi = self._saved['min'], self._saved['max']
        lo = _as_tensor(lo)._data if isinstance(lo, Tensor) else lo
        hi = _as_tensor(hi)._data if isinstance(hi, Tensor) else hi
        mask = np.ones(x.shape, dtype=bool)
        if lo is not None:
            mask &= x >= lo
        if hi is not None:
            mask &= x <= hi
        return (_where(make(mask), g, make(np.zeros((), g._data.dtype))),)   # not g * mask: nan * 0 is nan


class ClampBackward0(Node):
    """clamp with tensor bounds: the gradient goes to x where it was kept, else to the bound that was taken (min
    where x < min < max, max where x > max or max < min), as PyTorch's clamp_backward_min_max."""
    def apply(self, g):
        x, lo, hi = self.saved('self'), self.saved('min'), self.saved('max')
        zero = make(np.zeros((), g._data.dtype))
        if lo is not None and hi is not None:
            # (each mask made in place, as PyTorch's: a bound broadcasting x further than the first comparison fails)
            return (_where((x >= lo).logical_and_(x <= hi), g, zero) if self.needs(0) else None,
                    _where((x < lo).logical_and_(lo < hi), g, zero) if self.needs(1) else None,
                    _where((x > hi).logical_or_(hi < lo), g, zero) if self.needs(2) else None)
        return (_where(x >= lo if lo is not None else x <= hi, g, zero) if self.needs(0) else None,
                _where(x < lo, g, zero) if self.needs(1) else None,
                _where(x > hi, g, zero) if self.needs(2) else None)


def clamp_min(a, min):
    return _clamp_one(a, min, 'min')


def clamp_max(a, max):
    return _clamp_one(a, max, 'max')


def _clamp_one(a, bound, side):
    """clamp_min / clamp_max: ops of their own in PyTorch (ClampMinBackward0 for a number, ClampMinBackward1 for a
    tensor bound, which gets a gradient where it was taken; the same for max)."""
    bound = _scalar(bound)                          # (a numpy number is saved as a Python one)
    if not isinstance(bound, Tensor) and not isinstance(bound, _Number):
        raise TypeError('clamp_%s: a tensor or a number bound' % side)     # (the argument parser's error replaces it)
    lo, hi = (bound, None) if side == 'min' else (None, bound)
    if isinstance(bound, Tensor):
        _check_broadcast(a._data.shape, bound._data.shape)
        d = dt.result_type(a, bound)
        b = bound._data.astype(d.np, copy=False)        # (both cast to the result dtype first, as clamp's)
        out = _out(_clamp_by_tensors(a._data.astype(d.np, copy=False), None if lo is None else b,
                                     None if hi is None else b), d)
        cls = ClampMinBackward1 if side == 'min' else ClampMaxBackward1
        return _attach(out, cls, (a, bound), {side: SavedTensor(bound), 'self': SavedTensor(a)})
    d = dt.result_type(a, bound)
    if d is dt.bool_:
        raise NotImplementedError('"clamp_%s_scalar_cpu" not implemented for \'Bool\'' % side)
    lo, hi = _number_bounds(d, lo, hi)
    out = _out(_clamp(a._data.astype(d.np, copy=False), lo, hi), d)
    return _attach(out, ClampMinBackward0 if side == 'min' else ClampMaxBackward0, (a,),
                   {side: bound, 'self': SavedTensor(a)})


def _kept_grad(node, g, side):
    """clamp_min / clamp_max's gradient for x: g where x was kept (x >= min, x <= max), else 0."""
    x, bound = node.saved('self'), node.saved(side)
    return _where(x >= bound if side == 'min' else x <= bound, g, make(np.zeros((), g._data.dtype)))


class ClampMinBackward0(Node):
    def apply(self, g):
        return (_kept_grad(self, g, 'min'),)


class ClampMaxBackward0(Node):
    def apply(self, g):
        return (_kept_grad(self, g, 'max'),)


class ClampMinBackward1(Node):
    def apply(self, g):
        x, lo = self.saved('self'), self.saved('min')          # (the bound's gradient where it was taken)
        return (_kept_grad(self, g, 'min') if self.needs(0) else None,
                _where(x < lo, g, make(np.zeros((), g._data.dtype))) if self.needs(1) else None)


class ClampMaxBackward1(Node):
    def apply(self, g):
        x, hi = self.saved('self'), self.saved('max')
        return (_kept_grad(self, g, 'max') if self.needs(0) else None,
                _where(x > hi, g, make(np.zeros((), g._data.dtype))) if self.needs(1) else None)


# ================================================================================================ reductions

_U64 = 1 << 64


def _given(d):
    """A dim or index as PyTorch saves it: as the user wrote it, a negative one read as unsigned 64-bit."""
    if isinstance(d, (tuple, list)):
        return tuple(_given(x) for x in d)
    if isinstance(d, (np.integer, Tensor)):       # (a numpy int or an int tensor: PyTorch's parser makes an int)
        d = operator.index(d)
    return d + _U64 if d < 0 else d


def _signed(d):
    """A saved dim or index back to the signed value the user wrote."""
    return d - _U64 if d >= 1 << 63 else d


def _check_dim_types(dims):
    """Reduction dims that are not ints (`x.sum(0.5)`): the op's parser names the error (it reads a bool after an int
    as an int)."""
    for i, d in enumerate(dims):
        if type(d) is not builtins.int and not _is_index(d) and not (i and type(d) is builtins.bool):
            raise TypeError("argument 'dim' must be tuple of ints, not %s" % type(d).__name__)


def _dims(dim, ndim):
    """The dims to reduce over, wrapped and sorted (None: all). A 0-d tensor's dim 0 or -1 is no numpy axis: ()."""
    if dim is None:
        return None
    given = dim if isinstance(dim, (list, tuple)) else (dim,)
    _check_dim_types(given)
    dims = tuple(_wrap_dim(d if type(d) is builtins.int else operator.index(d), ndim) for d in given)
    for i, d in enumerate(dims):
        if d in dims[:i]:
            raise RuntimeError('dim %d appears multiple times in the list of dims' % d)
    return tuple(sorted(dims)) if ndim else ()


def _add_reduce(x, dims=None, keepdims=False):
    """np.add.reduce(x, dims), in PyTorch's order of additions where it is known, so that sums and means agree
    to the last bit (`.item()` prints 17 digits): a contiguous float32 / float64 array summed whole, over its last
    dims, its first or both (size-1 dims aside, as PyTorch drops them); a sum to one number of up to 32,768 numbers
    (PyTorch's kernel shares a bigger one between its threads: the order depends on their number; a sum to several
    numbers is shared by its results, each summed whole by one thread, whatever their number)."""
    if x.dtype.kind != 'f' or x.itemsize < 4 or not x.size:
        # (halves accumulate in float32, as PyTorch's: numpy's sum over a first dim adds them in half)
        r = (np.add.reduce(x, axis=dims, keepdims=keepdims, dtype=_F32).astype(_F16) if x.dtype is _F16 else
             np.add.reduce(x, axis=dims, keepdims=keepdims))
        return r if x.flags.c_contiguous else _c_strided(r)
    flags = x.flags
    key = (x.shape, x.itemsize, dims, keepdims, flags.c_contiguous, flags.f_contiguous)
    plan = _PLANS.get(key)
    if plan is None:
        if builtins.len(_PLANS) >= 1024:
            _PLANS.clear()
        plan = _PLANS[key] = _reduce_plan(*key)
    return plan(x)


_PLANS = {}     # (shape, itemsize, dims, keepdims, C-contiguous, F-contiguous) -> _reduce_plan's function


def _reduce_plan(shape, itemsize, dims, keepdims, c_contiguous, f_contiguous):
    """How _add_reduce sums an array of this kind: a function of the array, made once per shape with the arithmetic
    of shapes and blocks done (a sum in an MLP step then costs a few numpy calls). A whole array goes through memory
    in order. The functions sum from +0, as PyTorch's sums do (never -0); where PyTorch's order is not modelled,
    numpy's."""
    whole = dims is None or builtins.len(dims) == builtins.len(shape)
    size = math.prod(shape)
    out_shape = (tuple(1 if whole or i in dims else n for i, n in enumerate(shape)) if keepdims else
                 tuple(n for i, n in enumerate(shape) if not whole and i not in dims))
    if whole and (c_contiguous or f_contiguous):
        plan = _cascade_plan(1, size, itemsize) if size <= 32768 else _threads_plan(size, itemsize)
        return _as_rows(plan, 1, size, out_shape, not c_contiguous)
    if not c_contiguous:
        if whole and size <= 32768 and not f_contiguous and builtins.sum(n != 1 for n in shape) == 1:
            return _strided_row_plan(size, itemsize, out_shape)
        if f_contiguous and dims is not None and _reduced_in_memory_order(shape, dims):
            nd = builtins.len(shape)                # (the transpose's plan: PyTorch goes through memory in order)
            inner = _reduce_plan(shape[::-1], itemsize, tuple(sorted(nd - 1 - d for d in dims)), keepdims, True,
                                 False)
            return lambda x: _c_strided(np.transpose(inner(x.T)))
        return functools.partial(_in_iteration_order, dims, keepdims, out_shape)
    kept = [i for i, n in enumerate(shape) if n != 1]
    sizes = [shape[i] for i in kept]
    red = [j for j, i in enumerate(kept) if whole or i in dims]         # the reduced dims among those left
    if builtins.len(red) == builtins.len(kept):
        plan = _cascade_plan(1, size, itemsize) if size <= 32768 else _threads_plan(size, itemsize)
        return _as_rows(plan, 1, size, out_shape)
    # (a bigger reduction to more than one number is shared between threads by its results, each summed whole)
    n = math.prod(sizes[red[0]:]) if red else 1
    if red and red == builtins.list(range(red[0], builtins.len(kept))) and (n <= 32768 or size // n > 1):
        return _as_rows(_cascade_plan(size // n, n, itemsize), size // n, n, out_shape)
    lead = 0
    while lead < builtins.len(red) and red[lead] == lead:
        lead += 1
    a = math.prod(sizes[:lead])
    if red and lead == builtins.len(red) and (size <= 32768 or size // a > 1):   # (leading dims only: as one,
        return _as_rows(_outer_plan(a, size // a, itemsize), a, size // a, out_shape)  # (N, C, L) over (0, 1))
    if 0 < lead < builtins.len(red) and red[lead:] == builtins.list(range(red[lead], builtins.len(kept))):
        n = math.prod(sizes[red[lead]:])            # (leading and trailing dims: (N, C, H, W) over (0, 2, 3))
        if size <= 32768 or size // a // n > 1:
            return _planes_plan(a, size // a // n, n, itemsize, out_shape)
    if red and red == builtins.list(range(red[0], red[-1] + 1)) and 0 < red[0] and red[-1] < builtins.len(kept) - 1:
        a, r = math.prod(sizes[:red[0]]), math.prod(sizes[red[0]:red[-1] + 1])   # (middle dims: (A, R, B) over R,
        return _slices_plan(a, r, size // a // r, itemsize, out_shape)           # each A an outer sum)
    if not red:
        return _as_rows(_plus_zero, 1, size, out_shape)
    return functools.partial(_in_iteration_order, dims, keepdims, out_shape)    # (dims every other: (1, 3) of 4)


def _threads_plan(n, itemsize, strided=False):
    """The function summing a (1, n) array of more than 32,768 numbers to one as PyTorch's two-pass reduction
    does: the threads' blocks (_reduce_order.thread_blocks) each summed whole into a buffer of its own from +0 (a
    contiguous row by cascade_sum, a strided one by the scalar row_sum), then the threads' buffers (unused ones +0)
    summed as a row into the result."""
    zero = np.float32(0) if itemsize == 4 else np.float64(0)

    def row_sum(part):
        m = part.shape[1]
        if strided:
            return _row_plan(1, m, 1)(part.reshape(1, m, 1))[:, 0] + zero
        return _cascade_plan(1, m, itemsize)(part) + zero

    def by_threads(x):
        shared = _reduce_order.thread_blocks(n)
        if shared is None:
            return row_sum(x)
        threads, blocks = shared
        sums = np.zeros((1, threads), x.dtype)
        for t, (start, stop) in enumerate(blocks):
            sums[0, t] = row_sum(x[:, start:stop])[0]
        return _cascade_plan(1, threads, itemsize)(sums)
    return by_threads


def _strided_row_plan(n, itemsize, out_shape):
    """The function summing a strided row of n numbers (a column of a matrix, a slice with a step) as PyTorch's
    scalar row_sum does: one number a lane. A row expanded from one number (stride 0) goes numpy's way."""
    row_sum = _row_plan(1, n, 1)
    zero = np.float32(0) if itemsize == 4 else np.float64(0)

    def strided(x):
        if 0 in x.strides:
            return np.add.reduce(x, axis=None).reshape(out_shape)
        return (row_sum(x.reshape(1, n, 1)) + zero).reshape(out_shape)
    return strided


def _as_rows(fn, rows, n, out_shape, transposed=False):
    """fn of the array taken as a (rows, n) array in memory order (an F-contiguous one through its transpose), its
    result in the sum's shape."""
    if transposed:
        return lambda x: fn(x.T.reshape(rows, n)).reshape(out_shape)
    return lambda x: fn(x.reshape(rows, n)).reshape(out_shape)


def _plus_zero(x):
    """x + 0: a copy, with -0 made +0 (a sum of one number, from +0)."""
    return x + x.dtype.type(0)


def _cascade_plan(rows, n, itemsize):
    """The function summing each row of a (rows, n) array as PyTorch's CPU kernel (cascade_sum, AVX2: 8 floats or 4
    doubles a vector) sums a contiguous row. A row of two vectors or more: whole vectors added in four interleaved
    accumulators (row_sum), then, from +0, the numbers left over and the lanes of that vector sum. A shorter row is
    summed in a fixed order of its numbers: x0, x4, x5, x6, x1, x2, x3 when shorter than a vector; with one whole
    vector, the numbers after it, then its lanes."""
    w = 32 // itemsize
    if n < 2 * w:
        order = (builtins.list(range(n)) if n < 5 else [0, *range(4, n), 1, 2, 3]) if n < w else [*range(w, n),
                                                                                                   *range(w)]
        return functools.partial(_sum_in_order, np.array(order, dtype=np.intp))
    nv = n // w
    if rows == 1 and 4 <= nv < 1024:        # (one row of up to 8,191 float32s: an MLP's loss, a tutorial's sum)
        return _one_row_plan(n, w, itemsize)
    shape = (rows, nv, w)
    vectors = _row_plan(rows, nv, w)
    if nv * w == n:
        return lambda x: _in_order(vectors(x.reshape(shape)).T)
    return lambda x: _in_order(np.concatenate([x[:, nv * w:].T, vectors(x[:, :nv * w].reshape(shape)).T]))


def _one_row_plan(n, w, itemsize):
    """_cascade_plan for one row of at least four vectors and fewer than 1,024: the same additions in a few numpy
    calls. The four accumulators (multi_row_sum of every fourth vector), then in order the first, the vectors left
    over, the other three; then from +0 the numbers left over and the lanes."""
    nv = n // w
    m4 = nv // 4
    fours = _first_axis_plan(m4)
    zero = np.float32(0) if itemsize == 4 else np.float64(0)
    whole, left = m4 * 4 * w, nv * w

    def one_row(x):
        v = x.reshape(n)
        acc = fours(v[:whole].reshape(m4, 4, w))
        lanes = np.add.reduce(acc, axis=0) if whole == left else np.add.reduce(
            np.concatenate([acc[:1], v[whole:left].reshape(-1, w), acc[1:]]), axis=0)
        return np.add.accumulate(lanes if left == n else np.concatenate([v[left:], lanes]))[-1:] + zero
    return one_row


def _sum_in_order(order, x):
    """Each row of the 2-d array x summed from +0, its numbers taken in the given order."""
    if x.shape[0] == 1:
        return np.add.accumulate(x[0].take(order))[-1:] + x.dtype.type(0)
    return np.add.reduce(x.T.take(order, 0), axis=0, initial=0)


def _planes_plan(a, b, n, itemsize, out_shape):
    """The function summing an (a, b, n) array over its first and last dims as PyTorch does (measured): each row of
    n summed as a contiguous row, then the a sums of each column added in order, from +0."""
    rows = _cascade_plan(a * b, n, itemsize)
    zero = np.float32(0) if itemsize == 4 else np.float64(0)
    return lambda x: (np.add.reduce(rows(x.reshape(a * b, n)).reshape(a, b), axis=0) + zero).reshape(out_shape)


def _in_iteration_order(dims, keepdims, out_shape, x):
    """The sum of a laid-out array x (permuted, sliced, expanded) over dims, as PyTorch's sum kernel (cascade_sum)
    goes through it on one thread (up to 32,768 numbers): TensorIterator's order of dims (_iter_order of a
    reduction: the reduced dims first, by the input's strides, then the kept ones in the result's order), coalesced
    where the input and the result allow; the two fastest make each 2-d loop, with the reduced one first, whose
    sums (one kernel of four: contiguous rows or columns in vectors, strided rows or columns one number at a time)
    are added into the result, for each index of the dims left, in order. numpy's order beyond."""
    shape, nd = x.shape, x.ndim
    red = builtins.set(range(nd) if dims is None else dims)
    res = np.zeros([1 if i in red else n for i, n in enumerate(shape)], x.dtype)       # (the result, from +0)
    k = x.itemsize
    out = np.lib.stride_tricks.as_strided(res, shape, [0 if i in red else st for i, st in enumerate(res.strides)])
    groups = []                                             # (size, input stride, result stride), fastest first
    for d in _iter_order(shape, [out, x], reduction=True):
        if shape[d] == 1:
            continue
        n, xs, os = shape[d], x.strides[d], out.strides[d]
        if groups and groups[-1][1] * groups[-1][0] == xs and groups[-1][2] * groups[-1][0] == os:
            m, gxs, gos = groups[-1]
            groups[-1] = (m * n, gxs, gos)
        else:
            groups.append((n, xs, os))
    outer = math.prod(g[0] for g in groups[2:])
    if x.size > 32768 and res.size == 1 and builtins.len(groups) == 1 and groups[0][1] > 0:
        (n, st, _), = groups                                # (one run through memory: a column, a permuted tensor)
        row = np.lib.stride_tricks.as_strided(x, (1, n), (0, st), writeable=False)
        return _c_strided(np.asarray(_threads_plan(n, k, st != k)(row)).reshape(out_shape))
    if x.size > 32768 and res.size == 1 or not x.size or outer > 1024 or builtins.any(g[1] < 0 for g in groups):
        return _c_strided(np.add.reduce(x, axis=dims, keepdims=keepdims))
    groups += [(1, 0, 0)] * (2 - builtins.len(groups))
    sizes, xstrides, ostrides = zip(*groups[::-1])          # (slowest first)
    xv = np.lib.stride_tricks.as_strided(x, sizes, xstrides, writeable=False)
    ov = np.lib.stride_tricks.as_strided(res, sizes, ostrides)
    (s0, xs0, os0), (s1, xs1, os1) = groups[:2]
    if os0 and not os1:                                     # (the reduced one first)
        s0, xs0, os0, s1, xs1, os1 = s1, xs1, os1, s0, xs0, os0
        xv, ov = np.swapaxes(xv, -1, -2), np.swapaxes(ov, -1, -2)
    w = 32 // k
    for index in np.ndindex(*sizes[:-2]):
        chunk, into = xv[index], ov[index]                  # (s1, s0): row j, reduced along its s0 numbers
        if os0:                                             # (nothing reduced here: added as it is)
            into += chunk
            continue
        if xs0 == k and s0 >= w:                            # (contiguous rows)
            sums = _cascade_plan(s1, s0, k)(np.ascontiguousarray(chunk))
        elif xs1 == k and s1 >= w:                          # (contiguous columns)
            sums = _outer_plan(s0, s1, k)(np.ascontiguousarray(chunk.T))
        elif xs0 < xs1:                                     # (strided rows: row_sum)
            sums = _row_plan(s1, s0, 1)(np.ascontiguousarray(chunk)[:, :, None])[:, 0]
        else:                                               # (strided columns, four at a time)
            sums = _outer_plan(s0, s1, k, vectors=False)(np.ascontiguousarray(chunk.T))
        if os1:
            into[:, 0] += sums
        else:                                               # (every row into one number, in turn)
            into[0, 0] = np.add.accumulate(np.concatenate([into[:1, 0], sums]))[-1]
    return _c_strided(res.reshape(out_shape))


def _reduced_in_memory_order(shape, dims):
    """Whether PyTorch's TensorIterator goes through a column-major array of `shape` in memory order when it sums
    it over `dims` (the result, row-major, ranks the dims first: a matrix yes, (4, 100, 30) over 1 no)."""
    out = np.zeros([1 if i in dims else n for i, n in enumerate(shape)], np.int8)
    out = np.lib.stride_tricks.as_strided(out, shape, [0 if i in dims else s for i, s in enumerate(out.strides)])
    x = np.lib.stride_tricks.as_strided(out, shape, [math.prod(shape[:i]) for i in range(builtins.len(shape))])
    return _iter_order(shape, [out, x]) == builtins.list(range(builtins.len(shape)))


def _slices_plan(a, rows, cols, itemsize, out_shape):
    """The function summing an (a, rows, cols) array over its middle dim as PyTorch does (measured): each of the a
    slices summed over its rows as _outer_plan sums (its columns grouped by the slice)."""
    plan = _outer_plan(rows, cols, itemsize)
    return lambda x: np.stack([plan(s) for s in x.reshape(a, rows, cols)]).reshape(out_shape)


def _outer_plan(rows, cols, itemsize, vectors=True):
    """The function summing the columns of a (rows, cols) array as PyTorch sums over an outer dim
    (vectorized_outer_sum, or scalar_outer_sum for fewer columns than a vector holds, or columns that are not
    contiguous: not `vectors`): columns in groups of 4 vectors (or of 4) add their rows in order (multi_row_sum);
    the columns left over use row_sum's four interleaved accumulators."""
    w = 32 // itemsize
    group = 4 * w if cols >= w and vectors else 4
    split = cols // group * group
    if rows < 256 and (split == cols or not split and cols >= w and rows % 4 == 0):    # (a bias's gradient)
        zero = np.float32(0) if itemsize == 4 else np.float64(0)
        if split:
            rows_in_order = _first_axis_plan(rows)
            return lambda x: rows_in_order(x) + zero
        fours = _first_axis_plan(rows // 4)
        return lambda x: np.add.reduce(fours(x.reshape(rows // 4, 4, cols)), axis=0) + zero
    if split == cols:
        groups = _multi_row_plan(rows)
        return lambda x: groups(x[None])[0] + x.dtype.type(0)
    left = _row_plan(1, rows, cols - split)
    if not split:
        return lambda x: left(x[None])[0] + x.dtype.type(0)
    groups = _multi_row_plan(rows)
    return lambda x: np.concatenate([groups(x[None, :, :split])[0], left(x[None, :, split:])[0]]) + x.dtype.type(0)


def _in_order(cols):
    """The rows 0 + cols[0] + cols[1] + ..., in that order: numpy's reduction over a dim that is not the innermost
    keeps it (over the innermost dim, or over a dim a size-1 dim leaves innermost, it sums in pairs: one column is
    accumulated instead)."""
    if cols.shape[1] == 1:
        return np.add.accumulate(cols[:, 0])[-1:] + cols.dtype.type(0)
    return np.add.reduce(np.ascontiguousarray(cols), axis=0, initial=0)


def _row_plan(rows, m, lanes):
    """The function giving PyTorch's row_sum of the m vectors v[:, i] of v (rows x m x lanes): four accumulators
    take every fourth vector (multi_row_sum); the vectors left over go into the first; then the four are added in
    order."""
    m4 = m // 4
    if not m4:
        return lambda v: _in_sequence(v, 0, m)
    accumulators = _multi_row_plan(m4)
    shape = (rows, m4, 4, lanes)
    if m4 * 4 == m:
        return lambda v: np.add.reduce(accumulators(v.reshape(shape)), axis=1)

    def row_sum(v):
        acc = accumulators(v[:, :m4 * 4].reshape(shape))
        # acc[0] + v[m4 * 4] + ... + v[m - 1] + acc[1] + acc[2] + acc[3], in that order (one reduction: _in_sequence)
        return np.add.reduce(np.concatenate([acc[:, :1], v[:, m4 * 4:], acc[:, 1:]], axis=1), axis=1)
    return row_sum


def _in_sequence(r, i, j):
    """r[:, i] + r[:, i + 1] + ... + r[:, j - 1], in that order (numpy's reduction over a dim that is not the
    innermost keeps it; two rows are added directly, which is faster)."""
    if j - i > 2:
        return np.add.reduce(r[:, i:j], axis=1)
    out = r[:, i]
    for k in range(i + 1, j):
        out = out + r[:, k]
    return out


def _multi_row_plan(s):
    """The function giving PyTorch's multi_row_sum of the s rows r[:, i] of r (rows x s x ...): rows are added in
    blocks of 2**p (p >= 4); a finished block goes into a level-1 accumulator, every 2**p blocks those go into level
    2, and so on (four levels); the rows after the last block, then the levels, are added at the end. (Zeros are
    left out: adding one changes nothing but the sign of a zero, which the sums settle at the end, as PyTorch's sums
    from +0.)"""
    power = builtins.max(4, (s - 1).bit_length() // 4 if s > 1 else 0)
    step = 1 << power
    blocks = s >> power
    i = blocks * step
    if not blocks:                                   # (no whole block: the rows in order)
        return lambda r: _in_sequence(r, 0, s)
    if blocks >= step:                               # (levels 2 and up: 256 rows or more)
        return functools.partial(_multi_row_levels, power)
    if blocks == 1:
        level = lambda r: np.add.reduce(r[:, :step], axis=1)                       # noqa: E731
    else:                                            # every block at once, then the blocks in order (level 1)
        level = lambda r: _in_sequence(np.add.reduce(                               # noqa: E731
            r[:, :i].reshape(r.shape[:1] + (blocks, step) + r.shape[2:]), axis=2), 0, blocks)
    if i == s:
        return level
    return lambda r: _in_sequence(r, i, s) + level(r)        # (the rows left, in order, then level 1)


def _first_axis_plan(s):
    """_multi_row_plan(s) for an array r whose first dim holds the s rows (no dim in front), s < 256 (no levels past
    the first): the same additions in fewer numpy calls (a bias's gradient, a whole sum in an MLP step)."""
    blocks = s >> 4
    i = blocks << 4
    tail = s - i

    def rows_in_order(r):
        if blocks == 1:
            acc = np.add.reduce(r[:16], axis=0)
        elif blocks:
            sums = np.add.reduce(r[:i].reshape((blocks, 16) + r.shape[1:]), axis=1)
            acc = sums[0] + sums[1] if blocks == 2 else np.add.reduce(sums, axis=0)
        if not tail:
            return acc
        left = r[i] if tail == 1 else r[i] + r[i + 1] if tail == 2 else np.add.reduce(r[i:], axis=0)
        return left if not blocks else left + acc
    return rows_in_order


def _multi_row_levels(power, r):
    """_multi_row_plan's sum when blocks go beyond level 1."""
    s = r.shape[1]
    step = 1 << power
    blocks = s >> power
    i = blocks * step
    sums = np.add.reduce(r[:, :i].reshape(r.shape[:1] + (blocks, step) + r.shape[2:]), axis=2)
    levels = [None] * 4                              # levels 1 to 3 (levels[0] unused)
    for b in range(blocks):
        carry = sums[:, b]
        for j in range(1, 4):
            levels[j] = carry if levels[j] is None else levels[j] + carry
            if j == 3 or (b + 1) & (step - 1) << ((j - 1) * power):
                break
            carry, levels[j] = levels[j], None
    levels = [level for level in levels[1:] if level is not None]
    if builtins.len(levels) == 1:
        return levels[0] if i == s else _in_sequence(r, i, s) + levels[0]
    # the rows left, then levels 1 to 3, added in that order (one reduction over a dim that is not the innermost)
    return np.add.reduce(np.concatenate([r[:, i:]] + [level[:, None] for level in levels], axis=1), axis=1)


class _All:
    __slots__ = ()

    def __repr__(self):
        return 'None'


_ALL = _All()
# (sum's and mean's dim when none is given: all of them, SumBackward0 / MeanBackward0; an explicit dim=None is the
# dim overload: SumBackward1 / MeanBackward1, keepdim kept)


def sum(a, dim=_ALL, keepdim=False, *, dtype=None):
    x = a._data
    if dtype is None and x.dtype.kind == 'f':
        d = _FROM_NP[x.dtype]
    else:
        d = dtype if dtype is not None else _FROM_NP[x.dtype] if x.dtype.kind == 'f' else dt.int64
        x = x if x.dtype is d.np else x.astype(d.np)
    if type(dim) is builtins.int:                             # (the usual dim: one int)
        dims, given = (_wrap_dim(dim, x.ndim),), (dim + _U64 if dim < 0 else dim,)
        if not x.ndim:                                        # (a 0-d tensor's dim 0: no numpy axis)
            dims = ()
    elif dim is _ALL:
        out = _out(_add_reduce(x), d)
        if not d.is_floating_point:
            _check_autograd_dtype(a, d)
        if a._requires_grad and ag.grad_enabled and d.is_floating_point:
            _record(out, SumBackward0, (a,), {'self_sym_sizes': x.shape})
        return out
    elif dim is None:                                         # (all dims, recorded as SumBackward1)
        dims, given = None, None
        if keepdim and x.ndim:
            dims = tuple(range(x.ndim))
    else:                                                     # (dim=(): all dims, recorded as SumBackward1)
        dims, given = _dims(dim, x.ndim) or None, _given(dim if isinstance(dim, (tuple, list)) else (dim,))
    out = _out(_add_reduce(x, dims, keepdim), d)
    if not d.is_floating_point:
        _check_autograd_dtype(a, d)
    if a._requires_grad and ag.grad_enabled and d.is_floating_point:
        _record(out, SumBackward1, (a,), {'dim': given, 'keepdim': keepdim, 'self_sym_sizes': x.shape})
    return out


class SumBackward0(Node):
    def apply(self, g):
        return (_expanded(g, self._saved['self_sym_sizes']),)


class SumBackward1(Node):
    def apply(self, g):
        return (_expanded(_unreduce(g, self._saved), self._saved['self_sym_sizes']),)


def _expanded(g, sizes):
    """g.expand(sizes) for the gradient of a reduction, which expands (a view, as expand's; without its checks, or
    its node unless create_graph records one)."""
    if ag.grad_enabled:
        return g.expand(sizes)
    x = g._data
    return _new_view(g, x.view() if x.shape == sizes else _broadcast(x, sizes))


def _unreduce(g, saved):
    """Put back the dimensions a reduction without keepdim removed (so the gradient can expand)."""
    n = len(saved['self_sym_sizes'])
    if not saved['keepdim'] and n:                    # (a 0-d tensor's reduction removed no dim)
        for d in sorted(_signed(d) % n for d in saved['dim'] or ()):
            g = g.unsqueeze(d)
    return g


def mean(a, dim=_ALL, keepdim=False, *, dtype=None):
    if dtype is None and not a.dtype.is_floating_point:
        raise RuntimeError('mean(): could not infer output dtype. Input dtype must be either a floating point or '
                           'complex dtype. Got: ' + a.dtype.legacy)
    if dtype is not None and not dtype.is_floating_point:
        raise RuntimeError('mean(): could not infer output dtype. Optional dtype must be either a floating point or '
                           'complex dtype. Got: ' + dtype.legacy)
    d = dtype or a.dtype
    acc = dt.float32 if d is dt.float16 else d          # (PyTorch's CPU mean of halves: summed and divided as floats)
    x = a._data if a._data.dtype is acc.np else a._data.astype(acc.np)
    if dim is _ALL:
        out = _out(_add_reduce(x) / acc.np.type(x.size) if x.size else np.nan, d)     # PyTorch: sum, then divide
        return _attach(out, MeanBackward0, (a,), {'self_sym_numel': a._data.size, 'self_sym_sizes': a._data.shape})
    if dim is None:                                 # (all dims, recorded as MeanBackward1)
        dims = tuple(range(a._data.ndim)) if keepdim and a._data.ndim else None
    else:
        dims = _dims(dim, a._data.ndim) or None     # (dim=(): all dims, recorded as MeanBackward1)
    n = 1
    for i in dims or range(a._data.ndim):
        n *= a._data.shape[i]
    if x.size:
        out = _out(_add_reduce(x, dims, keepdim) / acc.np.type(n), d)
    else:
        with np.errstate(invalid='ignore'):             # (0 / 0: nan, without numpy's warning)
            out = _out(np.add.reduce(x, axis=dims, keepdims=keepdim) / acc.np.type(n), d)
    return _attach(out, MeanBackward1, (a,), {'dim': None if dim is None else
                                              _given(dim if isinstance(dim, (tuple, list)) else (dim,)),
                                              'keepdim': keepdim, 'self_sym_numel': a._data.size,
                                              'self_sym_sizes': a._data.shape})


class MeanBackward0(Node):
    def apply(self, g):
        return (_div_scalar(_expanded(g, self._saved['self_sym_sizes']), self._saved['self_sym_numel']),)


class MeanBackward1(Node):
    def apply(self, g):
        saved = self._saved
        sizes = saved['self_sym_sizes']
        n = 1                                       # (how many numbers each mean took: PyTorch's _safe_size)
        for d in ({_signed(d) % len(sizes) for d in saved['dim'] or ()} or range(len(sizes))) if sizes else ():
            n *= sizes[d]
        return (_div_scalar(_expanded(_unreduce(g, saved), sizes), n),)


def _accumulated(np_fn, x, d, **kwargs):
    """A cumulative / summing numpy function in dtype d; float32 accumulates in float64 (as PyTorch's CPU kernels
    do) and is rounded once; float16 accumulates in float32."""
    if d.np is _F32:                            # (the result is contiguous, as PyTorch's: order='C')
        return np_fn(x.astype(np.float64), **kwargs).astype(np.float32, order='C')
    if d.np is _F16:
        return np_fn(x.astype(_F32), **kwargs).astype(_F16, order='C')
    return np.asarray(np_fn(x, **kwargs), order='C')


def _no_bool_scan(name, x, d):
    """PyTorch's CPU scan kernels (cumsum, cumprod) have no bool version: a bool result of a non-empty tensor with
    dims is an error (before autograd's dtype check); a 0-d or empty one is only copied."""
    if d is dt.bool_ and x.ndim and x.size:
        raise NotImplementedError('"%s_out_cpu" not implemented for \'Bool\'' % name)


def cumsum(a, dim, *, dtype=None):
    d = dtype if dtype is not None else a.dtype if a.dtype.is_floating_point else dt.int64
    x = a._data if a._data.dtype is d.np else a._data.astype(d.np)
    _no_bool_scan('cumsum', x, d)
    axis = _wrap_dim(dim, a._data.ndim)
    data = _accumulated(np.cumsum, x.reshape(-1) if x.ndim == 0 else x, d, axis=axis).reshape(x.shape)
    if data.dtype.kind == 'f' and x.ndim:        # (a 0-d input is copied)
        data += 0                               # (PyTorch's running sum starts from +0.: a sum of -0.s is +0.)
    _check_autograd_dtype(a, d)
    return _attach(_out(data, d), CumsumBackward0, (a,), {'dim': _given(dim)})


class CumsumBackward0(Node):
    def apply(self, g):
        d = _signed(self._saved['dim'])
        meta = self._meta and self._meta[0]     # (the input's shape and dtype, where they differ from the output's)
        if meta and g._data.dtype is not meta[1]:
            g = g.to(_FROM_NP[meta[1]])         # (PyTorch's formula: grad.to(self's dtype), then the sums)
        if g._data.size <= 1 or g._data.shape[d] == 1:     # (PyTorch's cumsum_backward: g itself then)
            return (g,)
        return (g.flip(d).cumsum(d).flip(d),)         # each input adds into every output from it on


def cumprod(a, dim, *, dtype=None):
    d = dtype if dtype is not None else a.dtype if a.dtype.is_floating_point else dt.int64
    x = a._data if a._data.dtype is d.np else a._data.astype(d.np)
    _no_bool_scan('cumprod', x, d)
    axis = _wrap_dim(dim, a._data.ndim)
    out = _out(_accumulated(np.cumprod, x.reshape(-1) if x.ndim == 0 else x, d, axis=axis).reshape(x.shape), d)
    _check_autograd_dtype(a, d)
    return _attach(out, CumprodBackward0, (a,), {'dim': _given(dim), 'result': _RESULT, 'self': SavedTensor(a)})


class CumprodBackward0(Node):
    """Output j is the product of inputs 0..j, so input k's gradient is the sum over j >= k of g[j] times the
    product of inputs 0..j but k: (reversed cumsum of g * result) / x where no input is zero. Past a zero every
    output is zero: inputs before the first zero keep that formula, the first zero itself gets the products around
    it up to the second zero, and inputs after it get nothing. With grad mode on (a double backward), PyTorch
    builds the gradient one slice at a time from differentiable products instead, as here."""

    def apply(self, g):
        x, r = self.saved('self'), self.saved('result')
        g = g.to(x.dtype)
        xd = x._data
        if xd.size <= 1:
            return (g,)
        d = _signed(self._saved['dim']) % xd.ndim
        n = xd.shape[d]
        if n == 1:
            return (g,)
        zero = xd == 0
        if not zero.any():
            return ((r * g).flip(d).cumsum(d).flip(d) / x,)
        if ag.grad_enabled:
            grad = _zeros_like(x)
            for k in range(n):
                before = x.narrow(d, 0, k).prod(d, True) if k else None
                if k < n - 1:
                    after = x.narrow(d, k + 1, n - k - 1).cumprod(d)
                    if before is not None:
                        after = before.expand_as(after) * after
                    shape = list(xd.shape)
                    shape[d] = 1
                    omitted = cat([before if k else make(np.ones(shape, xd.dtype)), after], d)
                else:
                    omitted = before
                grad.select(d, k).copy_((g.narrow(d, k, n - k) * omitted).sum(d))
            return (grad,)
        # PyTorch's steps in x's dtype (its scans accumulating float32 in float64), each part scattered into zeros
        # (so the signs of zero gradients show as PyTorch's do)
        gd, dtype = g._data, _FROM_NP[xd.dtype]
        seen = np.cumsum(zero, axis=d)
        head = seen == 0                                   # before the first zero
        w = np.where(head, r._data * gd, xd.dtype.type(0))
        after = np.flip(_accumulated(np.cumsum, np.flip(w, d), dtype, axis=d), d) + xd.dtype.type(0)   # (from +0)
        out = np.divide(after, xd, out=np.zeros_like(xd), where=head)
        span = seen == 1                                   # the first zero up to the second
        first = zero & span
        run = _accumulated(np.cumprod, np.where(span & ~first, xd, xd.dtype.type(1)), dtype, axis=d)
        at = np.argmax(first, axis=d)[(slice(None),) * d + (None,)]    # (the first zero's index; 0 if none)
        before = np.take_along_axis(r._data, np.maximum(at - 1, 0), d)     # (the output just before it)
        before[at == 0] = 1
        total = _add_reduce(run * np.where(span, gd, xd.dtype.type(0)), (d,), True) * before
        out[first] = np.broadcast_to(total, xd.shape)[first]
        return (make(out),)


def prod(a, dim=None, keepdim=False, *, dtype=None):
    d = dtype if dtype is not None else a.dtype if a.dtype.is_floating_point else dt.int64
    x = a._data if a._data.dtype is d.np else a._data.astype(d.np)
    ordered = x.ndim and x.dtype.kind == 'f'          # (floats, halves too (multiplied as halves): in the kernel's order)
    if dim is None:
        out = _out(_reduce_order.prod(x, None, False) if ordered else np.multiply.reduce(x, axis=None), d)
        _check_autograd_dtype(a, d)
        return _attach(out, ProdBackward0, (a,), {'result': _RESULT, 'self': SavedTensor(a)})
    axis = _wrap_dim(dim, a._data.ndim)
    out = _out(np.asarray(_reduce_order.prod(x, (axis,), keepdim), order='C') if ordered else     # (its own
               np.multiply.reduce(x, axis=axis if x.ndim else None, keepdims=keepdim and x.ndim > 0), d)  # memory)
    _check_autograd_dtype(a, d)
    return _attach(out, ProdBackward1, (a,), {'dim': _given(dim), 'keepdim': keepdim, 'result': _RESULT,
                                              'self': SavedTensor(a)})


def _exclusive_prod(x, axis):
    """For each element, the product of the others along axis (no division: right where x has zeros), computed
    as PyTorch does: running products from the left and from the right."""
    wide = x.astype({_F32: np.float64, _F16: _F32}.get(x.dtype, x.dtype))    # (cumprod's accumulation type)
    n = x.shape[axis]
    ones = np.ones_like(np.take(wide, [0], axis))
    left = np.cumprod(np.concatenate([ones, np.take(wide, np.arange(n - 1), axis)], axis), axis)
    right = np.flip(np.cumprod(np.concatenate([ones, np.flip(np.take(wide, np.arange(1, n), axis), axis)], axis),
                               axis), axis)
    return left.astype(x.dtype) * right.astype(x.dtype)


class ProdBackward0(Node):
    def apply(self, g):
        x, r = self.saved('self').to(g.dtype), self.saved('result')     # (PyTorch's self.to(grad.scalar_type()))
        xd = x._data
        if xd.ndim == 0:
            return (g,)
        if (xd != 0).all():
            return (g * (r / x),)
        if ag.grad_enabled:                 # (create_graph: the gradient as a graph over x, as PyTorch builds it)
            return (_prod_safe_zeros_backward(g, x.contiguous().view(-1), 0).view_as(x),)
        if np.count_nonzero(xd == 0) > 1:
            return (_zeros_like(x),)
        return (g * make(_exclusive_prod(xd.reshape(-1), 0).reshape(xd.shape)),)


class ProdBackward1(Node):
    def apply(self, g):
        x, r = self.saved('self').to(g.dtype), self.saved('result')     # (PyTorch's self.to(grad.scalar_type()))
        xd = x._data
        if xd.ndim == 0:
            return (g,)
        d = _signed(self._saved['dim']) % xd.ndim
        if not self._saved['keepdim']:
            g, r = g.unsqueeze(d), r.unsqueeze(d)
        if (xd != 0).all():
            return (g * (r / x),)
        if ag.grad_enabled:
            return (_prod_safe_zeros_backward(g, x, d),)
        return (g * make(_exclusive_prod(xd, d)),)


def _prod_safe_zeros_backward(g, x, d):
    """The gradient of a product along d where x has zeros, from differentiable ops (for a double backward): g times
    the products of the elements before and after each one (running products from both ends), as PyTorch's."""
    n = x._data.shape[d]
    if n == 1:
        return g                    # (a product of one element: its gradient is g, no graph over x)
    shape = builtins.list(x._data.shape)
    shape[d] = 1
    ones = make(np.ones(shape, x._data.dtype))
    before = cat([ones, x.narrow(d, 0, n - 1)], d).cumprod(d)
    after = cat([ones, x.narrow(d, 1, n - 1).flip(d)], d).cumprod(d).flip(d)
    return g * (before * after)


def _first_zeros(r, x, axis, keepdim):
    """amax / amin's zeros signed as the first zero they reduce, as PyTorch's scalar loop keeps it when zeros of both
    signs tie (a small input: a large one goes through its vector loop, which keeps others)."""
    axes = tuple(range(x.ndim)) if axis is None else axis
    xr = np.moveaxis(x, axes, tuple(range(-len(axes), 0))).reshape(
        tuple(x.shape[d] for d in range(x.ndim) if d not in axes) + (-1,))
    first = np.take_along_axis(xr, np.argmax(xr == 0, axis=-1)[..., None], -1)[..., 0]
    return np.where(r == 0, first.reshape(r.shape), r)


def _extreme(name, np_fn, cls):
    """amax / amin: the largest / smallest values over dims (all by default); ties share the gradient evenly."""
    def op(a, dim=(), keepdim=False):
        given = tuple(dim) if isinstance(dim, (tuple, list)) else () if dim is None else (dim,)
        _check_dim_types(given)
        nd = a._data.ndim
        if a._data.size == 0:       # (an empty input's checks come first, dim by dim, naming it as given)
            if not given:
                raise RuntimeError("%s(): Expected reduction dim to be specified for input.numel() == 0. Specify the "
                                   "reduction dim with the 'dim' argument." % name)
            for d in given:
                if nd and a._data.shape[_wrap_dim(d, nd)] == 0:
                    raise IndexError('%s(): Expected reduction dim %d to have non-zero size.' % (name, d))
        dims = [_wrap_dim(x, nd) for x in given]
        for i, x in enumerate(dims):
            if x in dims[:i]:
                raise RuntimeError('dim %d appears multiple times in the list of dims' % x)
        axis = tuple(sorted(dims)) if dims and nd else None
        r = np.asarray(np_fn(a._data, axis=axis, keepdims=keepdim))
        if r.dtype.kind == 'f' and 0 < a._data.size < 32 and not r.all():
            r = _first_zeros(r, a._data, axis, keepdim)
        out = _out(_c_strided(np.asarray(r, order='C')), a.dtype)
        return _attach(out, cls, (a,), {'dim': _given(given), 'keepdim': keepdim, 'result': _RESULT,
                                        'self': SavedTensor(a)})
    op.__name__ = op.__qualname__ = name        # (named so in Python's own argument errors)
    return op


def scaled_by_count(g, x, r, given, keepdim):
    """The gradient of an extremum r over the dims `given` (as saved; () or None: all), PyTorch's
    scale_grad_by_count(restore_reduced_dims(grad), restore_reduced_dims(result) == self): ties share it evenly.
    Of a 0-d x over a dim given, of shape (1,) (the engine sums it back to x's shape)."""
    nd = x._data.ndim
    dims = sorted(_signed(d) % builtins.max(nd, 1) for d in given or ()) or list(range(nd))
    rd = r._data
    if not keepdim:
        # (restore_reduced_dims: a reshape; of a 0-d x's, to a size-1 dim for each dim given)
        rd = np.expand_dims(rd, tuple(dims)) if nd else rd.reshape((1,) * len(given or ()))
        g = g.reshape(rd.shape)
    mask = x._data == rd
    count = np.add.reduce(mask, axis=tuple(dims), keepdims=True, dtype=np.int64) if nd else mask.astype(np.int64)
    return (g / make(count)) * make(mask)


class AmaxBackward0(Node):
    def apply(self, g):
        x, s = self.saved('self'), self._saved
        return (sum_to(scaled_by_count(g, x, self.saved('result'), s['dim'], s['keepdim']), x._data.shape),)


class AminBackward0(AmaxBackward0):
    pass


amax = _extreme('amax', np.max, AmaxBackward0)
amin = _extreme('amin', np.min, AminBackward0)


def trace(a):
    """The sum of the main diagonal of a matrix (PyTorch's CPU kernel has no bool version, checked first)."""
    if a.dtype is dt.bool_:
        raise NotImplementedError('"trace" not implemented for \'Bool\'')
    if a._data.ndim != 2:
        raise RuntimeError('trace: expected a matrix, but got tensor with dim %d' % a._data.ndim)
    d = a.dtype if a.dtype.is_floating_point else dt.int64
    diag = np.diagonal(a._data).astype(d.np)
    out = _out(_accumulated(np.sum, diag, d), d)
    return _attach(out, TraceBackward0, (a,), {'self_sym_sizes': a._data.shape})


def _diagonal_index(shape, offset):
    """The flat positions of a matrix's diagonal number `offset` (above the main one when positive)."""
    rows, cols = shape
    n = builtins.max(0, builtins.min(rows + builtins.min(offset, 0), cols - builtins.max(offset, 0)))
    r = np.arange(n, dtype=np.int64) + builtins.max(-offset, 0)
    return r * cols + r + offset


class TraceBackward0(Node):
    def apply(self, g):
        shape = self._saved['self_sym_sizes']
        index = _diagonal_index(shape, 0)      # (PyTorch: index_fill_ of a flat zero tensor, viewed as the matrix)
        flat = put(g.expand(index.shape[0]), index, (shape[0] * shape[1],), IndexFillBackward1,
                   {'dim': 0, 'index': SavedTensor(make(index))}, unique=True)     # (filled: -0. stays)
        return (_versioned(flat.view(shape) if flat._requires_grad else make(flat._data.reshape(shape)), 2),)


# ================================================================================================ linear algebra

def _products_in_order(x, v):
    """x @ v (x: m x k, v: k) as PyTorch 2.13's CPU kernels compute the small float32 cases the callers pick (a
    product with one output, a matrix-vector product with k <= 4, or few rows and k <= 9 or 10; measured against
    PyTorch): each product rounded, then added in order from 0, without fused multiply-adds. numpy's BLAS adds in
    another order, which differs in the last bit (`loss.item()` of a small linear model showed it)."""
    if not x.shape[1]:
        return np.zeros(x.shape[0], x.dtype)
    return np.add.accumulate(x * v, axis=1)[:, -1] + x.dtype.type(0)     # (accumulate adds in order)


def _transposed(x):
    """Whether PyTorch hands this matrix to BLAS with the transpose flag (a column-major view, like W.t())."""
    return not x.flags.c_contiguous and x.flags.f_contiguous


def _mkl_k_blocks(k):
    """How MKL's sgemm (PyTorch 2.13, AVX-512) splits k for its FMA kernel: whole up to 192, in two halves (and one
    left over) up to 384, else in blocks of 192. Measured against PyTorch."""
    size = k if k <= 192 else k // 2 if k <= 384 else 192
    return [(s, builtins.min(s + size, k)) for s in range(0, k, size)]


def _round_to_odd(t, p, c, where):
    """t = p + c rounded to float64, where it fell on a float32 midpoint: nudged one float64 ulp towards the exact
    sum when inexact (so that rounding it to float32 rounds p + c once, as a fused multiply-add does)."""
    back = t - c
    err = (p - back) + (c - (t - back))                # (TwoSum: the exact error of the float64 sum)
    fix = where & (err != 0)
    t[fix] = np.nextafter(t[fix], np.where(err[fix] > 0, np.inf, -np.inf))


_MID_MASK, _MID = np.int64(0x1FFFFFFF), np.int64(0x10000000)   # (a float64 on a float32 midpoint: low bits 1000...)


def _fma_in_k_order(products, k, acc):
    """acc (float32, in place) += the k terms of products in order, each step one float32 fused multiply-add:
    products(s, e) gives steps s..e-1's exact float64 products (float32 operands), an array (e - s,) + acc.shape.
    The float64 sum rounds to the fused result unless it falls on a float32 midpoint: the steps run in chunks of
    ~32K multiply-adds (products made at once, then 3 numpy calls a step), and a chunk in which any sum fell on a
    midpoint is done again step by step with _round_to_odd."""
    acc64 = acc.astype(np.float64)
    step = builtins.max(1, (1 << 15) // builtins.max(1, acc.size))
    for s in range(0, k, step):
        e = builtins.min(s + step, k)
        t = products(s, e)
        start = acc.copy()
        for tj in t:
            tj += acc64
            acc[...] = tj
            acc64[...] = acc
        if ((t.view(np.int64) & _MID_MASK) == _MID).any():           # (rare: again, exactly)
            acc[...] = start
            for p in products(s, e):
                c = acc.astype(np.float64)
                tj = p + c
                where = (tj.view(np.int64) & _MID_MASK) == _MID
                if where.any():
                    _round_to_odd(tj, p, c, where)
                acc[...] = tj
            acc64[...] = acc
    return acc


_MKL_FMA_LIMIT = 1 << 15        # m * n * k up to which _mkl_gemm emulates MKL's fused multiply-adds (2-5 ns each)


def _mkl_gemm(x, y, bias=None):
    """x @ y (+ bias, beta = alpha = 1) for float32 matrices as PyTorch 2.13's MKL sgemm adds, bit for bit, in the
    regions where that was measured (random inputs, m, n up to 128, k up to 784, 1 or 2 threads); None elsewhere.
    - m >= 4 rows, n >= 12 columns, m a multiple of 4 or >= 12 (any layout): each output is a chain of fused
      multiply-adds in k order (numpy's OpenBLAS kernel adds the same way), over k blocks (_mkl_k_blocks) whose
      sums are added in order; a bias is added after a single block, before the blocks when there are several.
      (*the float64 sum rounded to float32 is the fused result unless it falls exactly on a float32 midpoint
      without being one, ~2^-29 of the additions; numpy's OpenBLAS adds otherwise for small or transposed
      operands.) Up to _MKL_FMA_LIMIT multiply-adds (_fma_in_k_order), numpy's order beyond. The rule held past
      it too (m, n 4-128, k up to 512, every layout, with and without a bias); the limit bounds what emulating costs
      a matmul (2-3 ns a multiply-add: ~0.1 ms; a 784-128-10 MLP's backward would pay 0.2 ms more at 2**20).
    - else, with one row and y not transposed, or one column and x transposed (MKL's matrix-vector kernels, any
      k: a weight's gradient, a column of outputs), or k <= 3, or k <= 4 with one column, or (y not transposed,
      k <= 192) 2, 3, 4 or 8 columns, or 2-3 rows and a multiple of 4 (or 5) columns: each product rounded and added
      in k order, no fused multiply-add (the bias first; last when y is a transposed view or x is not, MKL's
      dot-product kernel).
    - else, with 4 or 8 columns of a transposed y, no bias, k a multiple of 4 and m >= 2 (x @ weight.t() of a
      Linear(k, 4 or 8) without bias, attention scores q @ k.transpose(-2, -1)): _dot_in_4_lanes.
    Other small shapes (dot products of a transposed y, 5-7 or 9-11 columns) depend on the operands' memory alignment:
    not modelled."""
    (m, k), n = x.shape, y.shape[1]
    if m >= 4 and n >= 12 and (m % 4 == 0 or m >= 12):
        if m * n * k > _MKL_FMA_LIMIT:
            return None                                 # (emulating costs 2-5 ns per multiply-add: numpy's order)
        blocks = _mkl_k_blocks(k)
        xt64, y64 = x.T.astype(np.float64, order="C"), y.astype(np.float64, order="C")
        out = None if bias is None or len(blocks) == 1 else np.broadcast_to(bias, (m, n)).astype(np.float32, order="C")
        for s, e in blocks:
            acc = _fma_in_k_order(lambda i, j, s=s: xt64[s + i:s + j, :, None] * y64[s + i:s + j, None, :], e - s,
                                  np.zeros((m, n), np.float32))
            out = acc if out is None else out + acc
        return out if bias is None or len(blocks) > 1 else out + bias
    yt = _transposed(y)
    if n == 1:
        gemv = _transposed(x)
        if m == 1 or not (gemv or k <= 4):             # (one output: numpy's order agrees)
            return None
        return _in_k_order(x, y, bias, bias_last=not gemv)
    if m == 1 and not yt or not (m >= 4 and n >= 12) and (k <= 3 or k <= 192 and not yt and (
            n in (2, 3, 4, 8) or m <= 3 and (n % 4 == 0 or n == 5))):
        return _in_k_order(x, y, bias, bias_last=yt)
    if yt and bias is None and n in (4, 8) and m >= 2 and k % 4 == 0 and x.flags.c_contiguous and m * n * k <= 1 << 22:
        return _dot_in_4_lanes(x[None], y[None])[0]
    return None


def _dot_in_4_lanes(x, y):
    """x @ y for (b, m, k) @ (b, k, n) float32 arrays as MKL's dot products of x's rows with the 4 or 8 columns of a
    transposed y (a Linear's weight.t(), k.transpose(-2, -1)), k a multiple of 4 (measured: m 2-128, k up to 256):
    the rounded products added in 4 lanes (product i into lane i % 4, in order), then lanes (0 + 2) + (1 + 3)."""
    nb, m, k = x.shape
    products = x[:, :, :, None] * y[:, None, :, :]                           # (b, m, k, n)
    lanes = np.add.accumulate(products.reshape(nb, m, k // 4, 4, y.shape[2]), axis=2)[:, :, -1]
    return (lanes[:, :, 0] + lanes[:, :, 2]) + (lanes[:, :, 1] + lanes[:, :, 3])


def _in_k_order(x, y, bias, bias_last):
    """x @ y (+ bias) with each product rounded and the products added in k order from 0, no fused multiply-add:
    the bias first, or after the products (bias_last). None past 2**22 products (numpy's order then)."""
    (m, k), n = x.shape, y.shape[1]
    if m * n * k > 1 << 22:
        return None
    products = x.T[:, :, None] * y[:, None, :]                      # (k, m, n)
    if bias is not None and not bias_last:
        products = np.concatenate([np.broadcast_to(bias, (1, m, n)).astype(np.float32), products])
    out = np.add.accumulate(products, axis=0)[-1] + np.float32(0)  # (accumulate adds in order)
    return out + bias if bias is not None and bias_last else out


def matmul(a, b):
    """PyTorch's matmul: dot, mv, mm, or a folded / batched mm, with the same graph nodes."""
    if not isinstance(b, Tensor):
        return NotImplemented
    da, db = a._data.ndim, b._data.ndim
    if da == 2 and db == 2:
        return mm(a, b)
    if da == 0 or db == 0:
        raise RuntimeError('both arguments to matmul need to be at least 1D, but they are %dD and %dD' % (da, db))
    if da == 1 and db == 1:
        return dot(a, b)
    if da == 2 and db == 1:
        return mv(a, b)
    if da == 1 and db == 2:
        r = mm(a.unsqueeze(0), b)              # then PyTorch squeezes in place: version 1, not a view
        out = make(r._data[0])
        bump(out)
        return _attach(out, SqueezeBackward4, (r,), {'dim': 0, 'self_sym_sizes': r._data.shape})
    if _should_fold(a, b):                    # the bigger operand folded into a matrix: one mm / mv
        flip = db > da                        # (b^T a^T)^T when b is the bigger one
        t1 = transpose(b, -2, -1) if flip else a
        t2 = (t(a) if da == 2 else a) if flip else b
        shape = t1._data.shape[:-1]
        folded = t1.reshape(int(np.prod(shape, dtype=np.int64)), t1._data.shape[-1])   # (not -1: 0-size dims)
        if t2._data.ndim == 1:
            return _unsafe_view(mv(folded, t2), shape)
        r = _unsafe_view(mm(folded, t2), shape + (t2._data.shape[1],))
        return contiguous(transpose(r, -2, -1)) if flip else r
    # batched: broadcast the batch dimensions, fold them into one, bmm, unfold (a vector operand is expanded as it
    # is, a vector on the right made a column after folding and squeezed off the result, as PyTorch does)
    sa, sb = a._data.shape, b._data.shape
    if da == 3 and db == 3 and sa[0] != sb[0]:    # a batch of one that requires grad: squeezed, then folded
        if sa[0] == 1 and a._requires_grad:
            return matmul(a.squeeze(0), b)
        if sb[0] == 1 and b._requires_grad:
            return matmul(a, b.squeeze(0))
    n, k = (sa[-2] if da > 1 else 1), sa[-1]
    _check_broadcast(sa[:-2], sb[:-2])
    batch = np.broadcast_shapes(sa[:-2], sb[:-2])
    nb = int(np.prod(batch, dtype=np.int64))
    ab = a.expand(batch + (n, k)).reshape(nb, n, k)
    if db == 1:
        bb = b.expand(batch + sb).reshape(nb, sb[0]).unsqueeze(2)
    else:
        bb = b.expand(batch + sb[-2:]).reshape((nb,) + sb[-2:])       # bmm checks the sizes
    r = bmm(ab, bb)
    shape = batch + sa[-2:-1] + sb[-1:] if db > 1 else batch + sa[-2:-1]
    return _unsafe_view(squeeze(r, -1) if db == 1 else r, shape)


def _should_fold(a, b):
    """PyTorch's should_fold: matmul folds the bigger operand (>= 3 dims, the other <= 2) into a matrix when the
    other requires grad, or when that needs no copy (its leading dims contiguous); else it broadcasts and bmm's."""
    larger = a._data.ndim >= b._data.ndim
    t1 = a._data if larger else np.swapaxes(b._data, -1, -2)
    if not (t1.ndim >= 3 and (b if larger else a)._data.ndim <= 2):
        return False
    if (b if larger else a)._requires_grad:
        return True
    if a._data.ndim == 2:
        return False
    if t1.size == 0:
        return True
    st, sh = t1.strides, t1.shape
    return all(st[i] == st[i + 1] * sh[i + 1] for i in range(t1.ndim - 2))


def _dtype_check(a, b, what='expected m1 and m2 to have the same dtype, but got: %s != %s'):
    if a._data.dtype is not b._data.dtype:
        raise RuntimeError(what % (dt.C_NAMES[a.dtype.name], dt.C_NAMES[b.dtype.name]))


def mm(a, b):
    try:
        x, y = a._data, b._data
    except AttributeError:          # (x.mm([...]): PyTorch's parser's error; torch.mm's is made by its wrapper)
        raise TypeError("mm(): argument 'mat2' (position 1) must be Tensor, not %s" % _parser_type(b)) from None
    if x.ndim != 2:
        raise RuntimeError('self must be a matrix')
    if y.ndim != 2:
        raise RuntimeError('mat2 must be a matrix')
    if x.shape[1] != y.shape[0]:
        raise RuntimeError('mat1 and mat2 shapes cannot be multiplied (%dx%d and %dx%d)' % (x.shape + y.shape))
    if x.dtype is not y.dtype:
        _dtype_check(a, b)
    if x.dtype.kind == 'b':
        _not_for_bool(a, 'addmm_impl_cpu_')
    out = make(_mm_values(x, y))
    ra, rb = a._requires_grad, b._requires_grad
    if (ra or rb) and ag.grad_enabled and out._data.dtype.kind == 'f':
        _record(out, MmBackward0, (a, b), {      # (saved in PyTorch's order: mat2, then self)
            'mat2': SavedTensor(b) if _edge(a) else None, 'mat2_sym_sizes': y.shape,
            'mat2_sym_strides': _matrix_strides(b) if rb else (),
            'self': SavedTensor(a) if _edge(b) else None, 'self_sym_sizes': x.shape,
            'self_sym_strides': _matrix_strides(a) if ra else ()})
    return out


def _mm_values(x, y):
    """x @ y for 2-d arrays of one dtype, added as PyTorch's CPU mm adds where that is known."""
    (m, k), n = x.shape, y.shape[1]
    if k == 1 and m > 1 and n > 1 and x.dtype.kind == 'f':
        return x * y                # (PyTorch's kernel stores each product as it is: -0 stays -0; BLAS adds to +0)
    f32 = x.dtype == _F32
    if n == 1 and f32 and (m == 1 or k <= 4 or m <= 3 and k <= 9):
        return _products_in_order(x, y[:, 0]).reshape(m, 1)    # (a column of stride 1, as PyTorch's, not 0)
    r = _mkl_gemm(x, y) if f32 and k and m and n else None
    return x @ y if r is None else r


def _matrix_strides(t):
    """t.stride() of a 2-d tensor (mm saves them for every op)."""
    x = t._data
    if not x.size:
        return t.stride()
    (s0, s1), n = x.strides, x.itemsize
    return s0 // n, s1 // n


class MmBackward0(Node):
    def apply(self, g):
        a, b = self._fns
        mat2, x = self.saved_pair('mat2', 'self')
        s = self._saved
        # (mat2 first: see MulBackward0)
        gb = None if b is None else mm_mat2_backward(g, x, s['mat2_sym_sizes'], s['mat2_sym_strides'])
        return (None if a is None else mm_mat1_backward(g, mat2, s['self_sym_sizes'], s['self_sym_strides'])), gb


def mm_mat1_backward(g, mat2, sizes, strides):
    """The gradient of a matrix product for its first matrix (of these sizes and strides), PyTorch's
    mm_mat1_backward: g @ mat2^T, or (mat2 @ g^T)^T when that matrix was column-major (a transposed view, as W.t()),
    so that its gradient comes out column-major too. Recorded only under create_graph; else numpy at once (the same
    values, without the views and mm's checks)."""
    flip = _column_major(sizes, strides)
    if ag.grad_enabled or mat2._data.ndim != 2 or mat2._data.shape[1] != g._data.shape[1]:  # (mm's checks: a
        return mat2.mm(g.t()).t() if flip else g.mm(mat2.t())                           # .data of another shape)
    return make(_mm_values(mat2._data, g._data.T).T if flip else _mm_values(g._data, mat2._data.T))


def mm_mat2_backward(g, mat1, sizes, strides):
    """The gradient of a matrix product for its second matrix, PyTorch's mm_mat2_backward: mat1^T @ g, or
    (g^T @ mat1)^T when that matrix was column-major (see mm_mat1_backward)."""
    flip = _column_major(sizes, strides)
    if ag.grad_enabled or mat1._data.ndim != 2 or mat1._data.shape[0] != g._data.shape[0]:
        return g.t().mm(mat1).t() if flip else mat1.t().mm(g)
    return make(_mm_values(g._data.T, mat1._data).T if flip else _mm_values(mat1._data.T, g._data))


def _column_major(sizes, strides):
    """Whether a matrix of these sizes and strides (element units) is laid out column by column."""
    return len(strides) == 2 and strides[0] == 1 and strides[1] == sizes[0]


def bmm(a, b):
    if a._data.ndim != 3 or b._data.ndim != 3:
        raise RuntimeError('batch1 must be a 3D tensor' if a._data.ndim != 3 else 'batch2 must be a 3D tensor')
    if a._data.shape[0] != b._data.shape[0] or a._data.shape[2] != b._data.shape[1]:
        raise RuntimeError('Expected size for first two dimensions of batch2 tensor to be: [%d, %d] but got: [%d, %d].'
                           % (a._data.shape[0], a._data.shape[2], b._data.shape[0], b._data.shape[1]))
    if a._data.dtype.kind == 'b':                  # (PyTorch's kernel refuses bools before comparing the dtypes)
        raise NotImplementedError('"bmm" not implemented for \'Bool\'')
    if a._data.dtype is not b._data.dtype:
        raise RuntimeError('expected scalar type %s but found %s' % (a.dtype.legacy, b.dtype.legacy))
    out = make(_bmm_values(a._data, b._data))
    return _attach(out, BmmBackward0, (a, b), {'self': SavedTensor(a) if _edge(b) else None,
                                               'mat2': SavedTensor(b) if _edge(a) else None})


def _bmm_values(x, y):
    """x @ y for (b, m, k) @ (b, k, n) arrays as PyTorch 2.13's CPU bmm adds (measured): with fewer than 400
    multiply-adds a matrix (m * n * k), its naive kernel (each product rounded, added in k order from 0, no fused
    multiply-add); above, float32 matrices go to MKL's sgemm one by one (_mkl_gemm, transposed views as such, so
    q @ k.transpose(-2, -1) adds as _dot_in_4_lanes).
    numpy's order where none is modelled. (The attention scores of a small transformer showed it.)"""
    nb, m, k = x.shape
    n = y.shape[2]
    if x.dtype.kind == 'f' and k and m * n * k < 400:
        if x.dtype is _F16:                         # (the naive kernel multiplies and adds halves as floats)
            return _half(_bmm_values, x, y.astype(_F32))
        products = x[:, :, :, None] * y[:, None, :, :]                       # (b, m, k, n)
        # (accumulate adds in order; the result row-major, as PyTorch's, whatever the operands' layout)
        return np.add(np.add.accumulate(products, axis=2)[:, :, -1], x.dtype.type(0), order='C')
    if (x.dtype == np.float32 and n in (4, 8) and m >= 2 and k % 4 == 0 and x.flags.c_contiguous
            and not y.flags.c_contiguous and np.swapaxes(y, 1, 2).flags.c_contiguous and nb * m * n * k <= 1 << 22):
        return _dot_in_4_lanes(x, y)                      # (all the batch at once)
    if x.dtype == np.float32 and nb and m and n and k:
        outs = []
        for i in range(nb):
            out = _mkl_gemm(x[i], y[i])
            if out is None:
                break
            outs.append(out)
        else:
            return np.stack(outs)
    return x @ y


class BmmBackward0(Node):
    def apply(self, g):
        gb = self.saved('self').transpose(1, 2).bmm(g) if self.needs(1) else None     # (mat2 first: see MulBackward0)
        return (g.bmm(self.saved('mat2').transpose(1, 2)) if self.needs(0) else None), gb


def mv(a, v):
    if a._data.ndim == 0:                       # (PyTorch sizes the result by the matrix's rows before its checks)
        raise IndexError('Dimension specified as 0 but tensor has no dimensions')
    if a._data.ndim != 2 or v._data.ndim != 1:
        raise RuntimeError('vector + matrix @ vector expected, got %d, %d, %d' % (1, a._data.ndim, v._data.ndim))
    if a._data.shape[1] != v._data.shape[0]:
        raise RuntimeError('size mismatch, got input (%d), mat (%dx%d), vec (%d)'
                           % (a._data.shape[0], a._data.shape[0], a._data.shape[1], v._data.shape[0]))
    if a._data.dtype is not v._data.dtype:
        raise RuntimeError('addmv input tensors must have the same dtype, but got %s, %s, and %s'
                           % (v.dtype.legacy, a.dtype.legacy, v.dtype.legacy))
    if a._data.dtype.kind == 'b':
        raise NotImplementedError('"addmv_impl_cpu" not implemented for \'Bool\'')
    x = a._data
    m, k = x.shape
    if x.dtype == np.float32 and (k <= 4 or m <= 3 and k <= 10):
        out = make(_products_in_order(x, v._data))
    else:
        out = make(x @ v._data)
    return _attach(out, MvBackward0, (a, v), {'self': SavedTensor(a) if _edge(v) else None,
                                              'vec': SavedTensor(v) if _edge(a) else None})


class MvBackward0(Node):
    def apply(self, g):
        return (outer(g, self.saved('vec')) if self.needs(0) else None,        # (PyTorch: grad.ger(vec))
                self.saved('self').t().mv(g) if self.needs(1) else None)


def dot(a, b):
    if a._data.ndim != 1 or b._data.ndim != 1:
        raise RuntimeError('1D tensors expected, but got %dD and %dD tensors' % (a._data.ndim, b._data.ndim))
    if a._data.dtype is not b._data.dtype:
        raise RuntimeError('dot : expected both vectors to have same dtype, but found %s and %s'
                           % (a.dtype.legacy, b.dtype.legacy))
    if a._data.shape[0] != b._data.shape[0]:
        raise RuntimeError('inconsistent tensor size, expected tensor [%d] and src [%d] to have the same number of '
                           'elements, but got %d and %d elements respectively'
                           % (a._data.shape[0], b._data.shape[0], a._data.shape[0], b._data.shape[0]))
    _not_for_bool(a, 'dot')
    if a._data.dtype == np.float32 and a._data.size <= 3:
        out = make(_products_in_order(a._data[None], b._data)[0])
    else:
        out = make(np.asarray(a._data @ b._data))
    return _attach(out, DotBackward0, (a, b), {'self': SavedTensor(a) if _edge(b) else None,
                                               'tensor': SavedTensor(b) if _edge(a) else None})


class DotBackward0(Node):
    def apply(self, g):
        return (g * self.saved('tensor') if self.needs(0) else None,
                g * self.saved('self') if self.needs(1) else None)


def outer(a, b):
    """The outer product of two vectors, as PyTorch computes it: a.reshape(n, 1) * b (so a MulBackward0)."""
    for name, v in (('self', a), ('vec2', b)):
        if v._data.ndim != 1:
            raise RuntimeError('outer: Expected 1-D argument %s, but got %d-D' % (name, v._data.ndim))
    return mul(reshape(a, a._data.shape[0], 1), b)


# ================================================================================================ views

def _view_result(a, data, cls, saved=None):
    """A view of `a`: same memory and version counter; its base is a's base (views of views stay flat)."""
    out = _new_view(a, data)
    return _attach(out, cls, (a,), saved)


def _new_view(a, data):
    out = make(data)
    if a._inference or ag.inference_enabled:
        out._inference = a._inference is not False      # (a view is an inference tensor, without a counter, if its
        #                                                  base is one)
    out._version_counter = counter(a)
    base = out._base = a._base if a._base is not None else a
    vc = out._version_counter
    views = vc.views                                 # weak references to the views sharing this memory
    if views is None:
        views = vc.views = []
    elif len(views) >= 16 and not len(views) & (len(views) - 1):
        views[:] = [r for r in views if r() is not None]        # dead views pruned now and then
    views.append(weakref.ref(out))
    if not ag.grad_enabled:
        if data.dtype.kind == 'f':      # (modified in place by an op needing grad later: PyTorch's error; the
            out._no_grad_view = a._no_grad_view or ('inference' if ag.inference_enabled else True)   # base's mode wins)
        if base._requires_grad:         # (the base's: not a's when a is a leaf made of a view, arange(4.).view(2, 2))
            out._requires_grad = out._grad_from_base = True    # as in PyTorch, though no gradient flows through it
    elif a._no_grad_view:
        out._no_grad_view = a._no_grad_view         # (a view of such a view is one too)
    elif '_fn_view' in a.__dict__:
        out._fn_view = a._fn_view       # views of a view PyTorch forbids modifying in place are forbidden too
    if a is not base and '_storage' in a.__dict__:
        out._storage = a._storage       # (a view of a view showing other memory since: that memory)
    return out


def _infer_shape(shape, numel, fn='reshape', name='shape'):
    """The sizes given to view/reshape (ints, or one int list, read as PyTorch's parser does), a -1 inferred."""
    given = shape
    if len(shape) == 1 and type(shape[0]) in (tuple, list, Size):
        shape = shape[0]
    if not shape or not builtins.all(type(s) is _int for s in shape):
        shape = _int_list(given, fn, name=name)
    # checked as PyTorch's infer_size does: each size in turn, then the count (a -1 beside a 0 is ambiguous only
    # when there are no elements: otherwise the shape is just wrong)
    n, infer = 1, None
    for i, s in enumerate(shape):
        if s == -1:
            if infer is not None:
                raise RuntimeError('only one dimension can be inferred')
            infer = i
        elif s >= 0:
            n *= s
        else:
            raise RuntimeError('invalid shape dimension %d at index %d of shape [%s]'
                               % (s, i, ', '.join(map(str, shape))))
    if n == numel and infer is None:
        return tuple(shape)
    if infer is not None and (n == numel or n > 0 and numel % n == 0):
        if n == 0:
            raise RuntimeError('cannot reshape tensor of %d elements into shape [%s] because the unspecified dimension '
                               'size -1 can be any value and is ambiguous' % (numel, ', '.join(map(str, shape))))
        return tuple(numel // n if s == -1 else s for s in shape)
    raise RuntimeError("shape '[%s]' is invalid for input of size %d" % (', '.join(map(str, shape)), numel))


def _try_view(x, shape):
    """A numpy view of x with the new shape, or None when the memory layout does not allow one."""
    if x.flags['C_CONTIGUOUS']:
        v = x.reshape(shape)
        if 1 not in shape or 1 not in x.shape:
            return v
    else:
        try:
            if _RESHAPE_NO_COPY:
                v = x.reshape(shape, copy=False)
            else:
                v = x.view()
                v.shape = shape                       # (numpy 2.0, Pyodide's: its way to ask for a view)
        except (AttributeError, ValueError):
            return None
        if 1 not in shape:
            return v
    st = _view_strides(x.shape, [n // x.itemsize for n in x.strides], shape)     # (size-1 dims: numpy sets their
    return v if st is None else _restrided(v, st)                               # strides as it likes)


def _view_strides(old, strides, shape):
    """PyTorch's strides (computeStride) for a view of a tensor of sizes `old` and `strides` as `shape`: each run of
    dims that is one block of memory is cut anew; a dim of size 1 takes the stride of the block's next dim. None when
    no view is possible (or no elements: then numpy's are kept)."""
    if not old or not builtins.all(old):
        return None
    out = [0] * len(shape)
    view_d, base, tensor_numel, view_numel = len(shape) - 1, strides[-1], 1, 1
    for tensor_d in range(len(old) - 1, -1, -1):
        tensor_numel *= old[tensor_d]
        if tensor_d == 0 or (old[tensor_d - 1] != 1 and strides[tensor_d - 1] != tensor_numel * base):
            while view_d >= 0 and (view_numel < tensor_numel or shape[view_d] == 1):
                out[view_d] = view_numel * base
                view_numel *= shape[view_d]
                view_d -= 1
            if view_numel != tensor_numel:
                return None
            if tensor_d > 0:
                base, tensor_numel, view_numel = strides[tensor_d - 1], 1, 1
    return out if view_d == -1 else None


_RESHAPE_NO_COPY = np.lib.NumpyVersion(np.__version__) >= '2.1.0'     # (reshape's copy argument; setting shape is
#                                                                         deprecated from numpy 2.5)


def view(a, *shape):
    if len(shape) == 1 and isinstance(shape[0], dt.dtype):
        return _view_dtype(a, shape[0])
    first = shape[0] if shape else None
    if not _is_index(first) and (len(shape) != 1 or not isinstance(first, (tuple, list)) or
                                 first and not _is_index(first[0])):
        raise _view_mismatch(shape)
    if ag.unread and _recording(a):         # (PyTorch reads a's grad_fn before its kernel checks the shape)
        ag.read_inputs((a,))
    shape = _infer_shape(shape, a._data.size, 'view', 'size')
    data = _try_view(a._data, shape)
    if data is None:
        raise RuntimeError('view size is not compatible with input tensor\'s size and stride (at least one dimension '
                           'spans across two contiguous subspaces). Use .reshape(...) instead.')
    return _view_result(a, data, ViewBackward0, {'self_sym_sizes': a._data.shape})


def _view_dtype(a, d):
    """x.view(dtype): the same bytes read as another dtype (the last dimension rescaled when the element sizes
    differ), with PyTorch's checks. Not differentiable: like detach(), a tensor outside the graph on the same memory
    and version counter."""
    x, old = a._data, a.dtype
    if d is not old and d.itemsize != old.itemsize:
        what = ' to view %s as %s (different element sizes)' % (old.legacy, d.legacy)
        if not x.ndim:
            raise RuntimeError('self.dim() cannot be 0' + what)
        st, ratio = a.stride(), max(d.itemsize, old.itemsize) // min(d.itemsize, old.itemsize)
        if d.itemsize < old.itemsize:
            if st[-1] != 1:
                raise RuntimeError('self.stride(-1) must be 1%s, but got %d' % (what, st[-1]))
        else:
            if x.shape[-1] % ratio:
                raise RuntimeError('self.size(-1) must be divisible by %d%s, but got %d' % (ratio, what, x.shape[-1]))
            if a.storage_offset() % ratio:
                raise RuntimeError('self.storage_offset() must be divisible by %d%s, but got %d'
                                   % (ratio, what, a.storage_offset()))
            if st[-1] != 1:                     # (before the other dims' strides)
                raise RuntimeError('self.stride(-1) must be 1%s, but got %d' % (what, st[-1]))
            for i, s in enumerate(st[:-1]):
                if s % ratio:
                    raise RuntimeError('self.stride(%d) must be divisible by %d%s, but got %d' % (i, ratio, what, s))
    out = a.detach()
    out._data = x.view(d.np)
    return out


def _view_mismatch(args):
    """PyTorch's TypeError for view(*args) matching neither view(dtype) nor view(size); for one argument, why."""
    why = ''
    if len(args) == 1:
        a = args[0]
        t = ('%s of %s' % (type(a).__name__, repr(type(a)(map(_parser_type, a))).replace("'", ''))
             if type(a) in (tuple, list) else _parser_type(a))
        why = "\n      didn't match because some of the arguments have invalid types: (!%s!)" % t
    return invalid_arguments('view', args, {}, ' * (torch.dtype dtype)%s\n * (tuple of ints size)%s\n' % (why, why))


class ViewBackward0(Node):
    def apply(self, g):
        return (g.reshape(self._saved['self_sym_sizes']),)


def reshape(a, *shape):
    shape = _infer_shape(shape, a._data.size)
    data = _try_view(a._data, shape)
    if data is not None:                        # a view; of a non-contiguous tensor, PyTorch's _reshape_alias
        cls = ViewBackward0 if a.is_contiguous() else ReshapeAliasBackward0
        return _view_result(a, data, cls, {'self_sym_sizes': a._data.shape})
    return _unsafe_view(clone(a, memory_format=_mf.contiguous_format), shape)    # (PyTorch's _reshape_copy)


class ReshapeAliasBackward0(Node):
    def apply(self, g):
        return (g.reshape(self._saved['self_sym_sizes']),)


def _unsafe_view(a, shape):
    out = make(a._data.reshape(shape))
    if a._inference:
        out._inference = True       # (not a view, but of an inference tensor one too, without a version counter)
    return _attach(out, UnsafeViewBackward0, (a,), {'self_sym_sizes': a._data.shape})


class UnsafeViewBackward0(Node):
    def apply(self, g):
        return (g.reshape(self._saved['self_sym_sizes']),)


def flatten(a, start_dim=0, end_dim=-1):
    _check_int_arg(start_dim, 'flatten', 'start_dim')
    _check_int_arg(end_dim, 'flatten', 'end_dim', 2)
    nd = a._data.ndim
    s, e = _wrap_dim(start_dim, nd), _wrap_dim(end_dim, nd)
    if nd == 0:
        return reshape(a, 1)
    if s > e:
        raise RuntimeError('flatten() has invalid args: start_dim cannot come after end_dim')
    if s == e:
        return a
    shp = a._data.shape
    n = 1
    for i in range(s, e + 1):
        n *= shp[i]
    return reshape(a, shp[:s] + (n,) + shp[e + 1:])


def transpose(a, dim0=_UNSET, dim1=_UNSET):
    if dim1 is _UNSET:
        raise _missing_args('transpose', *('dim0', 'dim1')[dim0 is not _UNSET:])
    nd = a._data.ndim
    d0, d1 = _wrap_dim(dim0, nd), _wrap_dim(dim1, nd)
    return _view_result(a, np.swapaxes(a._data, d0, d1) if nd else a._data.view(), TransposeBackward0,
                        {'dim0': _given(dim0), 'dim1': _given(dim1)})


class TransposeBackward0(Node):
    def apply(self, g):
        return (g.transpose(_signed(self._saved['dim0']), _signed(self._saved['dim1'])),)


def _check_2d(a, name):
    if a._data.ndim > 2:
        raise RuntimeError('%s() expects a tensor with <= 2 dimensions, but self is %dD' % (name, a._data.ndim))


def t(a):
    _check_2d(a, 't')
    return _view_result(a, a._data.T, TBackward0)


class TBackward0(Node):
    def apply(self, g):
        return (g.t(),)


def permute(a, *dims):
    dims = _int_list(dims, 'permute', name='dims')
    nd = a._data.ndim
    if len(dims) != nd:
        raise RuntimeError('permute(sparse_coo): number of dimensions in the tensor input does not match the length '
                           'of the desired ordering of dimensions i.e. input.dim() = %d is not equal to len(dims) = %d'
                           % (nd, len(dims)))
    given = dims
    dims = tuple(_wrap_dim(d, nd) for d in dims)
    if len(set(dims)) != nd:
        raise RuntimeError('permute(): duplicate dims are not allowed.')
    return _view_result(a, np.transpose(a._data, dims), PermuteBackward0, {'dims': _given(given)})


class PermuteBackward0(Node):
    def apply(self, g):
        n = len(self._saved['dims'])
        return (g.permute(tuple(np.argsort([_signed(d) % n for d in self._saved['dims']]).tolist())),)


def unsqueeze(a, dim=_UNSET):
    if dim is _UNSET:
        raise _missing_args('unsqueeze', 'dim')
    if type(dim) is not int:
        _check_int_arg(dim, 'unsqueeze', 'dim')
    x = a._data
    d = _wrap_dim(dim, x.ndim + 1)
    data = np.expand_dims(x, d)
    if not x.flags.c_contiguous or d == x.ndim or 1 in x.shape:     # (PyTorch's strides: the new dim's is that of the dim it pushes
        st = [n // x.itemsize for n in x.strides]   # right times its size, 1 at the end; numpy may change the
        st.insert(d, st[d] * x.shape[d] if d < x.ndim else 1)     # strides of other size-1 dims too)
        data = _restrided(data, st)
    return _view_result(a, data, UnsqueezeBackward0, {'dim': _given(dim)})


class UnsqueezeBackward0(Node):
    def apply(self, g):
        return (g.squeeze(_signed(self._saved['dim'])),)


def squeeze(a, dim=None, *dims):
    """a without size-1 dims: all of them, one (SqueezeBackward1), or those of a tuple or of several dims
    (x.squeeze(0, 2): SqueezeBackward2)."""
    shp = a._data.shape
    if dim is None:
        data = a._data.reshape(tuple(s for s in shp if s != 1)) if a._data.flags['C_CONTIGUOUS'] else \
            np.squeeze(a._data)
        return _view_result(a, data, SqueezeBackward0, {'self_sym_sizes': shp})
    if dims or isinstance(dim, (tuple, list)):
        dims = _dim_list((dim,) + dims, a._data.ndim)[1]
        keep = tuple(d for d in dims if a._data.ndim and shp[d] == 1)
        return _view_result(a, np.squeeze(a._data, keep) if keep else a._data.view(), SqueezeBackward2,
                            {'dim': dims, 'self_sym_sizes': shp})
    d = _wrap_dim(dim, a._data.ndim)
    data = np.squeeze(a._data, d) if a._data.ndim and shp[d] == 1 else a._data.view()
    return _view_result(a, data, SqueezeBackward1, {'dim': _given(dim), 'self_sym_sizes': shp})


class SqueezeBackward0(Node):
    def apply(self, g):
        """PyTorch's unsqueeze_to: g unsqueezed at each size-1 dim the squeeze took, in order (g itself when it
        took none: under create_graph no node of its own)."""
        for d in self._squeezed(self._saved['self_sym_sizes']):
            g = g.unsqueeze(d)
        return (g,)

    def _squeezed(self, sizes):
        return [d for d, n in enumerate(sizes) if n == 1]


class SqueezeBackward1(SqueezeBackward0):
    def _squeezed(self, sizes):
        d = _signed(self._saved['dim']) % builtins.max(len(sizes), 1)
        return [d] if sizes and sizes[d] == 1 else []


class SqueezeBackward2(SqueezeBackward0):
    def _squeezed(self, sizes):
        dims = {_signed(d) % builtins.max(len(sizes), 1) for d in self._saved['dim']}
        return [d for d, n in enumerate(sizes) if n == 1 and d in dims]


class SqueezeBackward4(SqueezeBackward1):
    pass


class TBackward1(TBackward0):
    pass


class TransposeBackward1(TransposeBackward0):
    pass


class UnsqueezeBackward1(UnsqueezeBackward0):
    pass


class SqueezeBackward3(SqueezeBackward0):
    pass


class SqueezeBackward5(SqueezeBackward2):
    pass


# The in-place form of a view op records PyTorch's in-place node (same formula, its own name).
_IN_PLACE_NODE = {TBackward0: TBackward1, TransposeBackward0: TransposeBackward1,
                  UnsqueezeBackward0: UnsqueezeBackward1, SqueezeBackward0: SqueezeBackward3,
                  SqueezeBackward1: SqueezeBackward4, SqueezeBackward2: SqueezeBackward5}


def _keep_saved_output(t):
    """Before t takes other sizes or memory (t_, unsqueeze_, as_strided_, .data = ...): the nodes of in-place ops
    that saved t itself as their output (exp_, then add_, then t_: exp_'s) keep t as it is now (PyTorch's saved
    variable holds its own shallow copy: the same memory and version counter, the sizes at save time)."""
    saved, t._saved_as_output = t._saved_as_output, None
    for v in saved or ():
        if v.tensor is t and v.unpack_hook is None:
            v.tensor = ag._alias(t)


def _inplace_view(op):
    """t_, transpose_, unsqueeze_, squeeze_: self takes the shape and strides of op(self, ...) on the same memory;
    its version moves on and its history goes on through the in-place node (TBackward1, ...)."""
    def f(self, *args, **kwargs):
        if ag.fw_pending:
            ag.fw_flush()
        _check_inplace(self)
        res = op(self, *args, **kwargs)
        _keep_saved_output(self)
        if res._fw_tangent is not None:     # (forward AD: the tangent takes the new shape too)
            self._fw_tangent = res._fw_tangent
        node = res._grad_fn
        if node is None and self._requires_grad and res._data.shape != self._data.shape:
            self._stale_meta(self._data)        # (not recorded: its node still expects the old shape)
        self._data = res._data
        bump(self)
        if node is not None:
            ag.retype(node, _IN_PLACE_NODE[type(node)])
            _new_history(self, node, moves_retain=False)
            # (the other views of the memory saw its version move: they read it through AsStridedBackward0 now)
            _views_changed(self, self._base if self._base is not None else self)
        else:
            _views_changed(self)
        return self
    f.__name__ = op.__name__ + '_'
    return f


transpose_, unsqueeze_, squeeze_ = (_inplace_view(op) for op in (transpose, unsqueeze, squeeze))
_t_inplace = _inplace_view(t)


def t_(a):
    _check_inplace(a)                           # (autograd's checks come before the op's own)
    _check_2d(a, 't_')
    return _t_inplace(a)


def expand(a, *sizes, implicit=False):
    sizes = _int_list(sizes, 'expand')
    shp = a._data.shape
    if len(sizes) < len(shp):
        raise RuntimeError('expand(%s{[%s]}, size=[%s]): the number of sizes provided (%d) must be greater '
                           'or equal to the number of dimensions in the tensor (%d)'
                           % (ag.type_string(a), ', '.join(map(str, shp)), ', '.join(map(str, sizes)), len(sizes),
                              len(shp)))
    lead = len(sizes) - len(shp)
    if not shp and sizes and builtins.min(sizes) < 0:     # (PyTorch expands a 0-d tensor without these checks:
        raise RuntimeError('numel: integer multiplication overflow')    # a -1 is a size like any other)
    target = []
    for i in reversed(range(len(sizes))):                  # PyTorch checks from the last dimension
        s = sizes[i]
        have = shp[i - lead] if i >= lead else None
        if s == -1:
            if have is None:
                raise RuntimeError('The expanded size of the tensor (-1) isn\'t allowed in a leading, non-existing '
                                   'dimension %d' % i)
            s = have
        elif have is not None and have != s and have != 1:
            raise RuntimeError('The expanded size of the tensor (%d) must match the existing size (%d) at '
                               'non-singleton dimension %d.  Target sizes: [%s].  Tensor sizes: [%s]'
                               % (s, have, i, ', '.join(map(str, sizes)), ', '.join(map(str, shp))))
        target.append(s)
    target = tuple(reversed(target))
    if builtins.min(target, default=0) < 0:     # (a negative size: refused once every dim matched)
        raise RuntimeError('numel: integer multiplication overflow')
    if target == shp:
        return _view_result(a, a._data.view(), ExpandBackward0, {'self_sym_sizes': shp})
    data = _broadcast(a._data, target)
    if 1 in target and shp:                 # (numpy gives a dim of size 1 a 0 stride, PyTorch a dense one's)
        st = []
        for i in range(len(target) - 1, -1, -1):
            j = i - lead
            st.append(0 if target[i] != (shp[j] if j >= 0 else 1) else
                      a._data.strides[j] // a._data.itemsize if j >= 0 else target[i + 1] * st[-1])
        data = _restrided(data, st[::-1])
    return _view_result(a, data, ExpandBackward0, {'self_sym_sizes': shp})


class ExpandBackward0(Node):
    def apply(self, g):
        shape = self._saved['self_sym_sizes']
        if not shape and ag.grad_enabled and g._requires_grad:     # (PyTorch's sum_to of a 0-d shape: always a sum)
            return (g.sum(),)
        return (sum_to(g, shape),)


def _broadcast(x, shape):
    """np.broadcast_to(x, shape), a read-only view; for a contiguous x made directly (ten times faster: backward
    expands every summed gradient)."""
    if not x.flags.c_contiguous or not x.size:
        return np.broadcast_to(x, shape)
    lead = builtins.len(shape) - x.ndim
    strides = (0,) * lead + tuple(0 if n != s else st for st, n, s in zip(x.strides, x.shape, shape[lead:]))
    out = np.ndarray(shape, x.dtype, x, 0, strides)
    out.flags.writeable = False
    return out


def _restrided(x, strides):
    """x given PyTorch's strides (in elements) on the same memory, where numpy's differ: only for dims of size 1,
    whose stride numpy sets as it likes (0 for a new axis). x itself when they agree."""
    st = tuple(n * x.itemsize for n in strides)
    if st == x.strides or not x.size:
        return x
    root = x
    while isinstance(root.base, np.ndarray):
        root = root.base
    try:
        out = np.ndarray(x.shape, x.dtype, buffer=root, strides=st,
                         offset=x.__array_interface__['data'][0] - root.__array_interface__['data'][0])
    except (TypeError, ValueError):             # (memory that is no buffer: a view made by as_strided, as unfold's)
        return np.lib.stride_tricks.as_strided(x, x.shape, st, writeable=x.flags.writeable)
    if not x.flags.writeable:
        out.flags.writeable = False
    return out


def broadcast_to(a, *size):
    """expand under numpy's name (the same view and node)."""
    return expand(a, *size)


def movedim(a, source, destination):
    """The dims in `source` moved to the positions in `destination`, the others keeping their order (a permute)."""
    nd = a._data.ndim
    src = tuple(source) if isinstance(source, (tuple, list)) else (source,)
    dst = tuple(destination) if isinstance(destination, (tuple, list)) else (destination,)
    if len(src) != len(dst):
        raise RuntimeError('movedim: Invalid source or destination dims: source ([%s] dims) should contain the same '
                           'number of dims as destination ([%s] dims)' % (', '.join(map(str, src)),
                                                                         ', '.join(map(str, dst))))
    src = [_wrap_dim(d, nd) for d in src]
    dst = [_wrap_dim(d, nd) for d in dst]
    if not nd:                                      # (PyTorch: an alias of a 0-d tensor)
        return _view_result(a, a._data.view(), AliasBackward0)
    for name, dims, given in (('source', src, source), ('destination', dst, destination)):
        if len(set(dims)) != len(dims):
            raise RuntimeError('movedim: repeated dim in `%s` ([%s])' % (name, ', '.join(map(str, given))))
    order = [None] * nd
    for s, t in zip(src, dst):
        order[t] = s
    rest = iter(d for d in range(nd) if d not in src)
    return permute(a, tuple(next(rest) if d is None else d for d in order))


def contiguous(a, *args, memory_format=None):
    """a itself if laid out as memory_format says (row-major by default), else a copy that is (CloneBackward0)."""
    if args:                                    # (its memory_format is keyword-only)
        raise keyword_only('contiguous', args)
    _mf.check(memory_format, 'contiguous')
    if a.is_contiguous(memory_format=memory_format):
        return a
    if memory_format is _mf.preserve_format:
        raise RuntimeError('preserve memory format is unsupported by the contiguous operator')
    return clone(a, memory_format=memory_format or _mf.contiguous_format)


def clone(a, *, memory_format=None):
    """A copy; by default (preserve_format) laid out as PyTorch's empty_like (_preserve_order)."""
    _mf.check(memory_format, 'clone')
    if memory_format in (None, _mf.preserve_format):
        data = _preserved_copy(a._data)
    else:
        data = _mf.laid_out(a._data, memory_format)
    out = make(data)
    if a._inference and not ag.inference_enabled:
        bump(out)       # (PyTorch's kernel fills it with copy_, seen by autograd: an inference input skips clone's)
    return _attach(out, CloneBackward0, (a,))


class CloneBackward0(Node):
    def apply(self, g):
        return (g,)


_TO_KEYWORDS = frozenset(('dtype', 'device', 'copy', 'non_blocking', 'memory_format'))
_TO_SIGNATURES = ''.join(' * (%s, bool non_blocking = False, bool copy = False, *, torch.memory_format '
                         'memory_format = None)\n' % sig for sig in ('torch.device device = None, torch.dtype dtype = None',
                                                     'torch.dtype dtype', 'Tensor tensor'))


def to(a, /, *args, **kwargs):
    """tensor.to(dtype) / .to(device) / .to(other): a copy only when the dtype changes (ToCopyBackward0). (A keyword
    `a` is one to refuse, not self.)"""
    flags = _to_flags_at(args)
    fmt = kwargs.get('memory_format')
    if (not _TO_KEYWORDS.issuperset(kwargs) or isinstance(kwargs.get('dtype'), str) or flags is None
            or args and kwargs and ('device' in kwargs or flags == 1 and 'dtype' in kwargs)    # (given twice)
            or not (fmt is None or isinstance(fmt, _mf.memory_format))):
        raise invalid_arguments('to', args, kwargs, _TO_SIGNATURES)
    d = kwargs.get('dtype')
    d = d if d is None or isinstance(d, dt.dtype) else _to_dtype_arg(d, args, kwargs)
    dev = kwargs.get('device')
    copy = kwargs.get('copy', False)
    for i, x in enumerate(args):
        if i >= flags:                                  # non_blocking, then copy
            copy = copy or i == flags + 1 and x
        elif isinstance(x, dt.dtype):
            d = x
        elif isinstance(x, Tensor):
            d = x.dtype
        elif _number_as_tensor(x) or flags == 1 and isinstance(x, (builtins.int, np.integer)):
            d = (dt.bool_ if type(x) is builtins.bool else dt.float64 if _number_as_tensor(x)   # (PyTorch's wrapped
                 else dt.int64)                                                                 # numbers)
        elif isinstance(x, (str, dt.device, builtins.int, np.integer)):
            dev = x
        elif x is not None:                                    # (.to(None) changes nothing)
            d = _to_dtype_arg(x, args, kwargs)
    dt.check_device(dev, moving=True)
    if (d is None or d is a.dtype) and not copy and (fmt in (None, _mf.preserve_format) or fmt is _suggested(a._data)):
        return a                # (PyTorch: no copy when a is already in the format its layout suggests)
    d = d or a.dtype
    if fmt in (None, _mf.preserve_format):
        out = make(_preserved_copy(a._data, d))
    else:
        out = make(_mf.laid_out(dt.convert(a._data, d), fmt))
    if a._inference and not ag.inference_enabled:
        bump(out)                                     # (filled by copy_, as clone's: see clone)
    return _attach(out, ToCopyBackward0, (a,))     # (it saves self's options: not shown)


def _suggested(arr):
    """PyTorch's suggest_memory_format: channels_last(_3d) for a tensor laid out so (and not also row-major)."""
    for fmt in _mf._RANKS:
        if arr.ndim == _mf._RANKS[fmt] and not arr.flags.c_contiguous and _mf.is_laid_out(arr, fmt):
            return fmt
    return _mf.contiguous_format


def _in_suggested_format(arr, like):
    """A kernel's result arr laid out as PyTorch's kernels (pad, upsample, batch norm) make their output: in the
    suggested memory format of their input's array `like` (channels_last stays so, other layouts give row-major);
    arr itself if it is already."""
    fmt = _suggested(like)
    return arr if _mf.is_laid_out(arr, fmt) else _mf.laid_out(arr, fmt)


def _to_flags_at(args):
    """Where the bools non_blocking and copy start among .to()'s positional arguments: after a dtype or a tensor
    (to(dtype, ...), to(other, ...)), else after a device and a dtype (to(device, dtype, ...)); None when the
    arguments fit none of these (a device after the first, a dtype out of place, more than two flags, ...)."""
    if not args:
        return 0
    dtype_like = (dt.dtype, type)                       # (Python's float, int and bool name dtypes too)
    if isinstance(args[0], dtype_like + (Tensor,)) or _number_as_tensor(args[0]):
        at = 1
    elif len(args) > 1 and not (args[1] is None or isinstance(args[1], dtype_like)):
        if type(args[1]) is not builtins.bool or not isinstance(args[0], (builtins.int, np.integer)):
            return None
        at = 1                            # (an int then a flag: no device, the int stands for a tensor)
    else:
        at = 2
    rest = args[at:]
    return at if len(rest) <= 2 and all(type(x) is builtins.bool for x in rest) else None


def _number_as_tensor(x):
    """Whether .to() takes x as its `Tensor other` (PyTorch's parser lets a number stand for a tensor there): a bool
    (of dtype bool), a float or numpy's floats and bool (read as a double); not an int (a device index)."""
    return isinstance(x, (builtins.float, np.floating, np.bool_)) or type(x) is builtins.bool


def _to_dtype_arg(x, args, kwargs):
    """A dtype given to .to() as a Python type (float, int, bool); anything else matches none of its signatures."""
    try:
        return dt.to_dtype(x)
    except TypeError:
        raise invalid_arguments('to', args, kwargs, _TO_SIGNATURES) from None


class ToCopyBackward0(Node):
    def apply(self, g):
        # The formula casts back to self's dtype (kept in _meta when it differs): a node called alone shows it too.
        meta = self._meta and self._meta[0]
        return (g if meta is None or g._data.dtype is meta[1] else g.to(_FROM_NP[meta[1]]),)


# ================================================================================================ indexing

def _index_parts(a, idx):
    """Split an index into the basic part (ints, slices, None, Ellipsis) and the advanced part (tensors, lists)."""
    if not isinstance(idx, tuple):
        idx = (idx,)
    adv = any((isinstance(i, (Tensor, list, tuple, range, np.ndarray)) and not _int_scalar(i))
              or isinstance(i, (bool, np.bool_)) for i in idx)
    return idx, adv


def _int_scalar(i):
    """A 0-d integer tensor: as an index PyTorch treats it as the int it holds (a basic index: select); a uint8 one
    as the bool it holds."""
    return isinstance(i, Tensor) and i._data.ndim == 0 and i._data.dtype.kind in 'iu' and i._data.dtype != np.uint8


_INDEX_DTYPES = frozenset(('int64', 'int32', 'uint8', 'bool'))    # (not int16 nor int8)


def _to_np_index(i):
    if isinstance(i, Tensor):
        if i._data.dtype.name not in _INDEX_DTYPES:
            raise IndexError('tensors used as indices must be long, int, byte or bool tensors')
        return i._data if i._data.dtype.kind == 'b' else i._data.astype(np.int64)
    if isinstance(i, np.ndarray):                   # (a sequence too: bools kept, other numbers as int64)
        if i.dtype.kind not in 'biuf':
            raise TypeError("can't convert np.ndarray of type numpy.%s. The only supported types are: float64, "
                            "float32, float16, complex64, complex128, int64, int32, int16, int8, uint64, uint32, "
                            "uint16, uint8, and bool." % i.dtype.type.__name__)
        return i if i.dtype.kind == 'b' else i.astype(np.int64)
    if isinstance(i, (list, tuple, range)):         # (any sequence is a tensor of its numbers, as torch.tensor;
        arr = np.asarray(i) if builtins.len(i) else np.zeros(0, np.int64)      # of bools, or of int64 even when
        if arr.dtype.kind in 'uOf' and builtins.any(isinstance(v, (builtins.int, np.number)) and not
                                                    -2 ** 63 <= v < 2 ** 63 for v in arr.flat):  # truncated; an int
            raise ValueError('Overflow when unpacking long long')           # beyond int64, the parser's error)
        return arr.astype(np.int64) if arr.dtype.kind in 'iuf' else arr
    return i


def getitem(a, idx):
    """a[idx] as PyTorch's indexing does it: ints select, slices slice, None unsqueezes (views, one node each), in
    order; then the tensor, list and bool indices, each at the dim it reached, go to one IndexBackward0 (a copy)."""
    if a._data.ndim == 0:
        _check_0d_index(idx)
    if isinstance(idx, str):
        _str_index(idx)
    if type(idx) is slice:
        return _slice(a, 0, idx, keep_full=True)
    raw, idx = idx, _index_tuple(idx)
    masks = _byte_masks(idx)
    out, advanced = _basic_views(a, masks, numpy_at=_numpy_positions(raw, idx))
    if advanced:
        if masks is not idx:          # uint8 masks: warned as PyTorch's kernel reads them; IndexBackward0 saves them
            given = {id(m): i for m, i in zip(masks, idx) if m is not i}
            _byte_warning(given)
            return _index(out, advanced, given)
        return _index(out, advanced)
    if out is a:
        out = _view_result(a, a._data.view(), AliasBackward0)
    return out


def _basic_views(a, idx, check_types=True, numpy_at=()):
    """PyTorch's applySlicing: the ints, slices, None and bools of the index tuple applied to `a` as views, in
    order; returns the view and the (dim, index tensor) pairs of the advanced indices, each at the dim it reached.
    check_types=False: the caller checks the index tensors' dtypes itself (after autograd's checks). numpy_at: the
    positions of the items that were numpy arrays: where PyTorch checks for too many indices and spreads an Ellipsis
    (count_specified_dimensions) it counts each as one dim (a 0-d bool one, a mask too), the others as they use
    them."""
    counts = [1 if k in numpy_at else _dims_used(i) for k, i in enumerate(idx)]
    if builtins.sum(counts) > a._data.ndim:
        raise IndexError('too many indices for tensor of dimension %d' % a._data.ndim)
    out = a
    dim = 0
    advanced = []                        # (dim, index tensor) pairs, applied after the views
    for k, i in enumerate(idx):
        if i is None:
            out = unsqueeze(out, dim)
            dim += 1
        elif i is Ellipsis:
            dim += a._data.ndim - builtins.sum(counts)      # (PyTorch's: the dims the other items are counted for)
        elif isinstance(i, slice):
            if dim < out._data.ndim:
                out = _slice(out, dim, i)
            elif i != slice(None):              # (past the dims a numpy mask took: a full slice does nothing)
                _wrap_dim(dim, out._data.ndim)
            dim += 1
        elif isinstance(i, builtins.bool) or (isinstance(i, Tensor) and i._data.ndim == 0 and (
                i._data.dtype.kind == 'b' or i._data.dtype == np.uint8)):            # (a uint8 one: unwarned)
            out = unsqueeze(out, dim)        # a bool adds a dim of size 1 and keeps it (True) or nothing of it
            advanced.append((dim, make(np.arange(builtins.int(bool(i)), dtype=np.int64))))
            dim += 1
        elif isinstance(i, (builtins.int, np.integer)) or _int_scalar(i):
            out = select(out, dim, builtins.int(i), k)
        elif isinstance(i, (Tensor, list, tuple, range, np.ndarray)):
            t = i if isinstance(i, Tensor) else make(_to_np_index(i))
            if check_types:
                _to_np_index(t)                                  # rejects float indices
            advanced.append((dim, t))
            dim += t._data.ndim if t._data.dtype.kind == 'b' else 1
        elif isinstance(i, str):
            raise TypeError("new(): invalid data type 'str'")
        else:
            raise IndexError('only integers, slices (`:`), ellipsis (`...`), None and long or byte Variables are '
                             'valid indices (got %s%s)' % ('numpy.' if type(i).__module__ == 'numpy' else '',
                                                          type(i).__name__))       # (the C type's name)
    return out, advanced


def _byte_masks(idx):
    """uint8 index tensors read as the bool masks they are to PyTorch (deprecated: _byte_warning says so where
    PyTorch's kernel reads them). (0-d ones are bools to PyTorch's indexing, unwarned: left to _basic_views.)"""
    items = idx if isinstance(idx, tuple) else (idx,)
    byte = [i for i in items if isinstance(i, Tensor) and i._data.dtype == np.uint8 and i._data.ndim]
    if not byte:
        return idx
    masks = tuple(make(i._data != 0) if isinstance(i, Tensor) and i._data.dtype == np.uint8 and i._data.ndim else i
                  for i in items)
    return masks if isinstance(idx, tuple) else masks[0]


def _byte_warning(byte):
    for _ in byte:                                                  # (one for each uint8 index)
        warnings.warn('indexing with dtype torch.uint8 is now deprecated, please use a dtype torch.bool instead. '
                      '(Triggered internally at /__w/pytorch/pytorch/aten/src/ATen/native/IndexingUtils.h:37.)',
                      UserWarning, stacklevel=user_stacklevel())     # (every time: PyTorch's TORCH_WARN)


def _index_tuple(idx):
    """The index as a tuple. A list holding sequences, slices, None or Ellipsis still means a tuple in PyTorch
    2.13, with a warning (numpy's old rule). Its numpy arrays as the tensors PyTorch makes of them (_array_index)."""
    if isinstance(idx, tuple):
        for i in idx:
            if isinstance(i, np.ndarray):
                break
        else:
            return idx
    elif isinstance(idx, list) and len(idx) < 32 and any(
            isinstance(i, (list, tuple, str, Tensor, np.ndarray, slice)) or i is None or i is Ellipsis for i in idx):
        warnings.warn(_SEQ_INDEX, UserWarning, stacklevel=3)
        idx = tuple(idx)
    else:
        return (_array_index(idx),) if isinstance(idx, np.ndarray) else (idx,)
    return tuple(_array_index(i) if isinstance(i, np.ndarray) else i for i in idx)


def _numpy_positions(raw, idx):
    """The positions in the index tuple `idx` (made by _index_tuple of `raw`) of the items that were numpy arrays."""
    if raw is idx:                  # (a tuple _index_tuple kept: no numpy array in it)
        return ()
    if not isinstance(raw, (tuple, list)):
        return [0] if isinstance(raw, np.ndarray) else ()
    items = raw if len(raw) == len(idx) else (raw,)
    return [k for k, i in enumerate(items) if isinstance(i, np.ndarray)]


def _array_index(i):
    """A numpy array in an index as PyTorch makes it a tensor (indexing_tensor_from_data, a copy): bool and uint8
    ones keep their dtype (uint8: a deprecated mask), other numbers become int64; a 0-d one then indexes as a 0-d
    tensor does (an int selects, a bool adds a dim)."""
    if builtins.any(s < 0 for s in i.strides):
        from ._factories import _check_strides
        _check_strides(i, dt.int64)                 # (PyTorch's uint16 and wider too: read, then made int64)
    return make(i.copy() if i.dtype == np.uint8 else _to_np_index(i).copy())


_SEQ_INDEX = ('Using a non-tuple sequence for multidimensional indexing is deprecated and will be changed in pytorch '
              '2.9; use x[tuple(seq)] instead of x[seq]. In pytorch 2.9 this will be interpreted as tensor index, '
              'x[torch.tensor(seq)], which will result either in an error or a different result (Triggered internally '
              'at /__w/pytorch/pytorch/torch/csrc/autograd/python_variable_indexing.cpp:349.)')


def _str_index(idx):
    """A str index is a sequence of strs to PyTorch: the sequence warning (if not empty), then torch.tensor's error."""
    if idx:
        warnings.warn(_SEQ_INDEX, UserWarning, stacklevel=3)
    raise TypeError("new(): invalid data type 'str'")


def _dims_used(i):
    """How many dims of the indexed tensor an index item consumes."""
    if i is None or i is Ellipsis or isinstance(i, (builtins.bool, np.bool_)):
        return 0
    arr = i._data if isinstance(i, Tensor) else i
    if isinstance(arr, np.ndarray) and (arr.dtype.kind == 'b' or not arr.ndim and arr.dtype == np.uint8):
        return arr.ndim                                         # (a 0-d uint8 tensor is a bool)
    return 1


def _index(a, advanced, given=None):
    """a.index(indices): the index tensors at their dims (numpy's rules for where the result's dims go). `given`:
    the uint8 masks the bool ones stand for, by id, which the node saves."""
    indices, key, dims, dim = [], [], [], 0      # (a mask is one index for the dims it covers, as PyTorch saves it)
    ranges = []                                 # (an index tensor and its dim's size, a mask's dims as None)
    for d, t in advanced:
        arr = t._data
        _check_mask(a, d, arr)
        indices += [None] * (d - dim) + [given.get(id(t), t) if given else t]
        key += [slice(None)] * (d - dim) + [arr if arr.dtype.kind == 'b' else arr.astype(np.int64, copy=False)]
        dims += builtins.list(range(dim, d + 1))
        ranges += [(None, 0)] * arr.ndim if arr.dtype.kind == 'b' else [(key[-1], a._data.shape[d])]
        dim = d + (arr.ndim if arr.dtype.kind == 'b' else 1)
    if a._data.size and builtins.all(_check_index_shapes([t._data for _, t in advanced])):
        _check_range(ranges)
    else:           # (an empty result: PyTorch's kernel reads no index, but those into an empty dim are refused)
        _check_range([(arr, 0) for arr, size in ranges if arr is not None and not size])
        key = [np.zeros_like(k) if isinstance(k, np.ndarray) and k.dtype.kind != 'b' and a._data.shape[d] else k
               for d, k in zip(dims, key)]                            # (in-range placeholders for numpy)
    out = make(_laid_out(a._data, advanced, a._data[tuple(key)]))
    return _attach(out, IndexBackward0, (a,), {'indices': SavedList(indices), 'self_sym_sizes': a._data.shape})


def _check_index_shapes(arrays):
    """PyTorch's first check of several index tensors (reading or writing): that they broadcast together. A mask
    is one index per dim it covers, the positions of its Trues. Returns the shape they broadcast to."""
    shapes = [s for arr in arrays for s in ([(builtins.int(np.count_nonzero(arr)),)] * arr.ndim
                                            if arr.dtype.kind == 'b' else [arr.shape])]
    try:
        return np.broadcast_shapes(*shapes)
    except ValueError:
        raise IndexError('shape mismatch: indexing tensors could not be broadcast together with shapes %s'
                         % ', '.join('[%s]' % ', '.join(map(str, x)) for x in shapes)) from None


def _laid_out(x, advanced, res):
    """The values `res` of x.index(...) in the memory layout PyTorch gives that result: its TensorIterator orders
    the result's dims by the strides of x (0 along the indexed dims, which the indices' broadcast dims replace,
    before the other dims unless the indexed dims are adjacent) and of the index tensors (0 along the other dims)."""
    idx = {}                                # indexed dim of x: (shape, strides) of its index tensor
    for d, t in advanced:
        arr = t._data
        if arr.dtype.kind == 'b':           # a mask: the columns of its nonzero() (n, k), one per dim it covers
            for j in range(arr.ndim):
                idx[d + j] = ((builtins.int(np.count_nonzero(arr)),), (arr.ndim,))
        else:
            idx[d] = (arr.shape, tuple(n // arr.itemsize for n in arr.strides))
    dims = sorted(idx)
    adjacent = dims[-1] - dims[0] + 1 == len(dims)
    if adjacent and x.flags.c_contiguous and 1 not in x.shape and builtins.all(t._data.flags.c_contiguous for _, t in advanced):
        # (a copy: a numpy result counts as contiguous whatever the strides of its size-1 dims)
        return np.array(res, order='C') if 1 in res.shape else np.ascontiguousarray(res)
    shape, nb = res.shape, res.ndim - (x.ndim - len(dims))
    rest = [i for i in range(x.ndim) if i not in idx]
    before = dims[0] if adjacent else 0
    xs = [n // x.itemsize for n in x.strides]
    operands = [[xs[i] for i in rest[:before]] + [0] * nb + [xs[i] for i in rest[before:]]]
    for d in dims:                          # each index expanded to the broadcast shape (expand's strides)
        isz, ist = idx[d]
        es, lead = [], nb - len(isz)
        for i in range(nb - 1, -1, -1):
            j = i - lead
            es.append(0 if shape[before + i] != (isz[j] if j >= 0 else 1) else
                      ist[j] if j >= 0 else shape[before + i + 1] * es[-1])
        es.reverse()                        # (reshaped with size-1 dims around them: those keep reshape's strides)
        lead_st, tail_st = (es[0] * shape[before], es[-1]) if nb else (1, 1)
        operands.append([lead_st if n == 1 else 0 for n in shape[:before]] + es
                        + [tail_st if n == 1 else 0 for n in shape[before + nb:]])
    perm = list(range(res.ndim - 1, -1, -1))            # innermost first, sorted as reorder_dimensions does
    for i in range(1, res.ndim):
        d1 = i
        for d0 in range(i - 1, -1, -1):
            swap = 0
            for st in operands:
                s0, s1 = st[perm[d0]], st[perm[d1]]
                if s0 == 0 or s1 == 0:
                    continue
                if s0 != s1:
                    swap = 1 if s0 > s1 else -1
                    break
                if shape[perm[d0]] > shape[perm[d1]]:
                    swap = 1
                    break
            if swap > 0:
                perm[d0], perm[d1] = perm[d1], perm[d0]
                d1 = d0
            elif swap < 0:
                break
    out = np.empty([shape[d] for d in reversed(perm)], res.dtype).transpose(np.argsort(perm[::-1]))
    out[...] = res
    return out


def _check_mask(a, d, arr):
    """PyTorch's error for a bool mask (at dim d of `a`) whose shape is not that of the dims it indexes."""
    if arr.dtype.kind == 'b':
        for j, size in enumerate(arr.shape):
            if size != a._data.shape[d + j]:
                raise IndexError('The shape of the mask [%s] at index %d does not match the shape of the indexed '
                                 'tensor [%s] at index %d' % (', '.join(map(str, arr.shape)), j,
                                                              ', '.join(map(str, a._data.shape)), d + j))


def _check_range(indices):
    """PyTorch's error for an index tensor with an element out of range; `indices` are (array, size of its dim)
    pairs, in order (the error numbers them, not the dims; a mask counts once per dim it covers: (None, 0) each)."""
    for n, (arr, size) in enumerate(indices):
        if arr is None:
            continue
        bad = arr[(arr >= size) | (arr < -size)]
        if bad.size and size == 0:
            raise IndexError('index is out of bounds for dimension with size 0')
        if bad.size:
            raise IndexError('index %d is out of bounds for dimension %d with size %d' % (bad.flat[0], n, size))


def _check_0d_index(idx):
    """PyTorch's errors for indexing a 0-d tensor with a single int or slice (a tuple counts its indices)."""
    if isinstance(idx, (builtins.int, np.integer)) and not isinstance(idx, (builtins.bool, np.bool_)):
        if idx == 0:
            raise IndexError('invalid index of a 0-dim tensor. Use `tensor.item()` in Python or `tensor.item<T>()` in '
                             'C++ to convert a 0-dim tensor to a number')
        raise IndexError('index %d is out of bounds for dimension 0 with size 0' % idx)
    if isinstance(idx, slice):
        idx.indices(0)                   # (Python's errors for the slice's items: PyTorch unpacks it first)
        if idx.step is not None and idx.step <= 0:       # (the step is read first)
            raise ValueError('slice step cannot be zero' if idx.step == 0 else 'step must be greater than zero')
        raise IndexError('slice() cannot be applied to a 0-dim tensor.')
    if isinstance(idx, (builtins.float, str)):
        if isinstance(idx, str) and idx:            # (a str is a sequence of indices to PyTorch: warned)
            warnings.warn(_SEQ_INDEX, UserWarning, stacklevel=user_stacklevel())
        raise IndexError('too many indices for tensor of dimension 0')


class AliasBackward0(Node):
    def apply(self, g):
        return (g,)


def select(a, dim, index, _position=None):
    """a.select(dim, index); indexing passes the index's position in `a[...]`, which PyTorch's error names."""
    if not a._data.ndim:
        raise IndexError('select() cannot be applied to a 0-dim tensor.')
    d = _wrap_dim(dim, a._data.ndim)
    size = a._data.shape[d]
    index = operator.index(index)                   # (an int tensor: the int PyTorch's parser reads from it)
    if not -size <= index < size and not -2 ** 63 <= index < 2 ** 63:      # (PyTorch's parser reads an int64)
        raise ValueError('Overflow when unpacking long long')
    if not -size <= index < size and _position is None:
        raise IndexError('select(): index %d out of range for tensor of size [%s] at dimension %d'
                         % (index, ', '.join(map(str, a._data.shape)), d))
    if not -size <= index < size:
        raise IndexError('index %d is out of bounds for dimension %d with size %d' % (index, _position, size))
    key = (slice(None),) * d + (index % size, Ellipsis)       # Ellipsis keeps a 0-d result a view, not a scalar
    return _view_result(a, a._data[key], SelectBackward0, {'dim': _given(dim), 'index': _given(index),
                                                           'self_sym_sizes': a._data.shape})


class SelectBackward0(Node):
    def apply(self, g):
        s = self._saved
        d = _signed(s['dim']) % len(s['self_sym_sizes'])
        return (_scatter_grad(g, s['self_sym_sizes'], (slice(None),) * d + (_signed(s['index']),),
                              SelectBackwardBackward0, {'dim': s['dim'], 'index': s['index']}),)


def _slice(a, dim, sl, keep_full=False, given_dim=None):
    """a[sl] along dim (SliceBackward0); given_dim: the dim as the user wrote it, which narrow saves (a negative
    one read as unsigned)."""
    if sl.step is not None and sl.step <= 0:
        raise ValueError('slice step cannot be zero' if sl.step == 0 else 'step must be greater than zero')
    size = a._data.shape[dim]
    start, stop, step = sl.indices(size)
    stop = builtins.max(stop, start)
    if (sl.start is None or sl.start == 0) and stop == size and step == 1 and not keep_full:
        return a                     # (a whole dim, as PyTorch judges it: the start as written, the stop clamped)
    key = (slice(None),) * dim + (slice(start, stop, step),)
    return _view_result(a, a._data[key], SliceBackward0, {     # PyTorch saves start and end as written
        'dim': dim if given_dim is None else _given(given_dim), 'start': _given(sl.start or 0), 'end': _given(9223372036854775807 if sl.stop is None else sl.stop),
        'step': step, 'self_sym_sizes': a._data.shape})


class SliceBackward0(Node):
    def apply(self, g):
        s = self._saved
        d = _signed(s['dim']) % len(s['self_sym_sizes'])
        start, stop, step = slice(_signed(s['start']), _signed(s['end']), s['step']).indices(s['self_sym_sizes'][d])
        key = (slice(None),) * d + (slice(start, builtins.max(stop, start), step),)
        return (_scatter_grad(g, s['self_sym_sizes'], key, SliceBackwardBackward0,
                              {'dim': s['dim'], 'end': s['end'], 'start': s['start'], 'step': s['step']}),)


def _scatter_grad(g, shape, key, cls, saved):
    """A zero gradient of `shape` with g placed at the basic index `key` (what select / slice backward is)."""
    if g._requires_grad and ag.grad_enabled:
        # differentiable, for double backward; copied into the zeros (as PyTorch's copy_: -0. stays)
        return put(g, _flat_index(shape)[key], shape, cls, saved, unique=True)
    z = np.zeros(shape, g._data.dtype)
    region = z[key + (Ellipsis,)]       # (a view, also of a single element)
    if region.shape != g._data.shape:   # (a node called alone with a gradient of another shape: copy_'s checks)
        _check_broadcast(region.shape, g._data.shape)
        if np.broadcast_shapes(region.shape, g._data.shape) != region.shape:
            raise _not_broadcast_to(region.shape, np.broadcast_shapes(region.shape, g._data.shape))
    region[...] = g._data
    return make(z)


class IndexBackward0(Node):
    def apply(self, g):
        indices = self.saved('indices')
        key = tuple(slice(None) if t is None else t._data for t in indices)
        if builtins.any(k.dtype == np.uint8 for k in key if type(k) is np.ndarray):      # (a uint8 mask: warned
            _byte_warning([k for k in key if type(k) is np.ndarray and k.dtype == np.uint8])   # as it is read)
            key = tuple(k != 0 if type(k) is np.ndarray and k.dtype == np.uint8 else k for k in key)
        shape = self._saved['self_sym_sizes']
        # (an empty input's gradient is empty, and so is g: its indices are not read)
        at = np.zeros(g._data.shape, np.intp) if 0 in shape else _flat_index(shape)[key]
        return (_versioned(put(g, at, shape, IndexPutImplBackward0,                       # (differentiable:
                               {'accumulate': True, 'indices': SavedList(indices)}), 1),)  # double backward works)


# What `a[idx] = value` takes (PyTorch's valueToTensor): a tensor, or a Python int, float or complex (numpy's ints
# and its float64 and complex128, subclasses of Python's, too) or bool; not numpy's other floats and bools.
_ASSIGNABLE = (Tensor, builtins.int, builtins.float, builtins.complex, np.integer)


def setitem(a, idx, value):
    """a[idx] = value: index_put_ for advanced indices, else PyTorch's copy_to into the indexed view (CopySlices
    when that view is not `a` itself)."""
    if not isinstance(value, _ASSIGNABLE):         # (the value is made a tensor before the index is read)
        raise TypeError("can't assign a %s to a %s" % (_parser_type(value), ag.legacy_type_name(a)))
    if isinstance(value, builtins.complex):
        value = _real_value(value, a.dtype)
    if isinstance(value, _Number) and a.dtype is not dt.float16:       # (a half takes any number, as inf)
        value = dt.check_scalar(_scalar(value), a.dtype, unpack=True)
    if isinstance(value, _Number):      # a tensor of a's dtype, as PyTorch's valueToTensor (a double keeps its digits)
        v = _scalar(value)
        with np.errstate(over='ignore'):
            if a.dtype is dt.float16 and isinstance(v, builtins.float):
                v = np.float32(v)                           # (PyTorch's double -> half goes through float)
            value = make(np.array(v, dtype=a._data.dtype))
    if idx is False:                              # (PyTorch's shortcut, once the value is made: writes nothing)
        return a
    if isinstance(idx, str):
        if not a._data.ndim:
            _check_0d_index(idx)
        _str_index(idx)
    idx_t = _index_tuple(idx)                                       # (a list of sequences: a tuple, warned)
    byte = [i for i in idx_t if isinstance(i, Tensor) and i._data.dtype == np.uint8 and i._data.ndim]
    masks = _byte_masks(idx_t) if byte else idx_t
    given = {id(m): i for m, i in zip(masks, idx_t) if m is not i}     # (a uint8 mask's own tensor, its node saves)
    idx_t, adv = _index_parts(a, masks)
    if adv:                             # (index_put_ into the view the basic indices make: CopySlices unless `a`)
        view, advanced = _basic_views(a, idx_t, check_types=False, numpy_at=_numpy_positions(idx, idx_t))
        _check_inplace(view, (value,))      # (autograd's checks come before the kernel's: index types, masks...)
        # PyTorch's index_put_ of one value through one mask is masked_fill_, which takes no uint8 mask
        fill = len(advanced) == 1 and advanced[0][1]._data.dtype.kind == 'b' and value._data.size == 1
        if not fill and (isinstance(value, Tensor) and _overlaps(view._data, value._data) or builtins.any(
                _overlaps(view._data, t._data) for _, t in advanced)):
            _partial_overlap_error()          # (a value or an index that is the written memory: `x[i] = x`)
        if byte and not fill:
            _byte_warning(byte)
        key, sources, dim = [], [], 0
        for d, t in advanced:
            _check_mask(view, d, t._data)
            if byte and fill:
                raise RuntimeError('masked_fill_ only supports boolean masks, but got mask with dtype unsigned char')
            key += [slice(None)] * (d - dim) + [_to_np_index(t)]
            sources += [None] * (d - dim) + [given.get(id(t), t)]
            dim = d + (t._data.ndim if t._data.dtype.kind == 'b' else 1)
        if isinstance(value, Tensor) and value._data.ndim and value._data.shape[0] == 1:   # (PyTorch's
            shape = value._data.shape                                       # slicePrefix1sDims: a view without them)
            value = value.view(shape[next((i for i, n in enumerate(shape) if n != 1), len(shape)):])
        return _inplace(view, _index_put, tuple(key), value, False, tuple(sources))
    return _copy_to(a if _whole(a, idx_t) else getitem(a, idx_t if type(idx) is list else idx), value)


def _real_value(value, d):
    """A complex number written into a real tensor: its real part when it has no imaginary one (a bool takes any,
    as whether it is nonzero); else PyTorch's checked_convert error (half types convert through double)."""
    if d is dt.bool_:
        return builtins.bool(value)
    if value.imag == 0:
        return builtins.float(value.real)
    raise RuntimeError('value cannot be converted to type %s without overflow'
                       % ('double' if d.itemsize == 2 and d.is_floating_point else dt._SCALAR_TYPES[d.name]))


def _whole(a, idx):
    """Whether the basic index selects all of `a` (only Ellipsis and full slices): PyTorch then writes to `a`."""
    dim, nd = 0, a._data.ndim
    for k, i in enumerate(idx):
        if type(i) is slice and dim < nd:
            start, stop, step = i.indices(a._data.shape[dim])
            if not (i.start is None or i.start == 0) or step != 1 or stop < a._data.shape[dim]:
                return False                # (the start as written: `b[-3:]` is a slice, `b[0:10]` not)
            dim += 1
        elif i is Ellipsis:
            dim = builtins.max(dim, nd - (len(idx) - k - 1))     # (the items after it index the last dims)
        else:
            return False
    return True


def _copy_to(dst, value):
    """PyTorch's copy_to: copy_ when the shapes match, fill_ with a 0-d value, else the value without its leading
    size-1 dims (always through a view), expanded to dst's shape (with expand's errors), then copy_."""
    if not isinstance(value, _ASSIGNABLE):
        raise TypeError("can't assign a %s to a %s" % (_parser_type(value), ag.legacy_type_name(dst)))
    value = _as_tensor(value)
    shape = value._data.shape
    if shape == dst._data.shape:
        return copy_(dst, value)
    if not shape:
        return _inplace(dst, _fill_tensor, value)
    value = value.view(shape[next((i for i, n in enumerate(shape) if n != 1), len(shape)):])
    if value._data.shape != dst._data.shape:
        value = value.expand(dst._data.shape)
    return copy_(dst, value)


def _fill_tensor(a, value):
    """fill_ with a 0-d tensor value (what `t[:] = 5` does): FillBackward3, a gradient for the value too."""
    return _attach(make(np.full_like(a._data, value._data)), FillBackward3, (a, value))


class FillBackward3(Node):
    def apply(self, g):
        return (_zeros_like(g) if self.needs(0) else None), (g.sum() if self.needs(1) else None)


def index_put(a, indices, values, accumulate=False, _pos=2):
    """a with values put at the index tensors `indices` (added there, duplicates too, with accumulate).
    (torch.index_put's values are its 3rd argument: _pos.)"""
    key, sources = _put_indices(a, 'index_put', indices, values, _pos, accumulate)
    return _index_put(a, key, values, accumulate, sources)


def index_put_(a, indices, values, accumulate=False, _pos=2):
    key, sources = _put_indices(a, 'index_put_', indices, values, _pos, accumulate)
    fill = not accumulate and len(indices) == 1 and sources[0]._data.dtype.kind == 'b' and values._data.size == 1
    if not fill and _overlaps(a._data, values._data):   # (one value through one mask: masked_fill_, which reads it
        _check_inplace(a, (values,))                    # first; else index_put_ refuses its own memory as values)
        _partial_overlap_error()
    return _inplace(a, _index_put, key, values, accumulate, sources)


def _put_indices(a, name, indices, values, pos, accumulate=False):
    """index_put's indices as numpy keys, and the index tensors they come from (its node saves those), with the
    checks of PyTorch's parser (tensors only: no lists, no None) and of its kernel (as many dims as `a` has at most,
    masks of the shape of the dims they cover). A uint8 index is a mask (deprecated, warned), but one alone with a
    single value goes to masked_fill_, which refuses it."""
    if not isinstance(indices, (tuple, builtins.list)):
        raise TypeError("%s(): argument 'indices' (position 1) must be tuple of Tensors, not %s"
                        % (name, type(indices).__name__))
    for n, i in enumerate(indices):
        if not isinstance(i, Tensor):
            raise TypeError('expected Tensor as element %d in argument 0, but got %s' % (n, _parser_type(i)))
    if not isinstance(values, Tensor):
        raise TypeError("%s(): argument 'values' (position %d) must be Tensor, not %s"
                        % (name, pos, _parser_type(values)))
    byte = [i for i in indices if i._data.dtype == np.uint8]
    given = tuple(indices)                      # (what its node saves: uint8 masks as they are)
    if byte:
        indices = [make(i._data != 0) if i._data.dtype == np.uint8 else i for i in indices]
    key = tuple(_to_np_index(i) for i in indices)
    d = 0
    for k in key:
        if d + _dims_used(k) <= a._data.ndim:
            _check_mask(a, d, k)
        d += _dims_used(k)
    if d > a._data.ndim:
        raise IndexError('too many indices for tensor of dimension %d (got %d)' % (a._data.ndim, d))
    if byte:
        if not accumulate and builtins.len(indices) == 1 and values._data.size == 1:
            raise RuntimeError('masked_fill_ only supports boolean masks, but got mask with dtype unsigned char')
        _byte_warning(byte)
    return key, given


def _sizes(shape):
    """A shape as PyTorch's messages write it: [2, 3]."""
    return '[%s]' % ', '.join(map(str, shape))


def _not_broadcast_to(out_shape, shape):
    """PyTorch's error when a result of `shape` must be written into an output of `out_shape` (in place, out=)."""
    return RuntimeError("output with shape %s doesn't match the broadcast shape %s"
                        % (_sizes(out_shape), _sizes(shape)))


def _index_put(a, key, value, accumulate=False, sources=None):
    """a with value put (added, with accumulate) at the numpy index key; `sources`: the index tensors the key's
    arrays come from, which its node saves (modified in place before backward, they fail it, as in PyTorch)."""
    arrays = [k for k in key if isinstance(k, np.ndarray)]
    ndim, dim, ranges = a._data.ndim, 0, []
    for n, k in enumerate(key):                      # the dim each item of the index starts at
        if isinstance(k, np.ndarray) and k.dtype.kind in 'iu' and dim < ndim:
            ranges.append((k, a._data.shape[dim]))
        elif isinstance(k, np.ndarray) and k.dtype.kind == 'b':
            ranges += [(None, 0)] * k.ndim
        dim += ndim - dim - builtins.sum(_dims_used(j) for j in key[n + 1:]) if k is Ellipsis else _dims_used(k)
    # PyTorch's order of errors: index tensors that do not broadcast together, an index into an empty dim, the
    # value's shape, the dtypes, other indices out of range
    _check_index_shapes(arrays)
    if isinstance(value, Tensor) and value._data.dtype is not a._data.dtype and not (
            len(arrays) == 1 and arrays[0].dtype.kind == 'b' and value._data.size == 1):   # masked_fill_ then
        _check_value_shape(a, key, ranges, value)
        raise RuntimeError('Index put requires the source and destination dtypes match, got %s for the '
                           'destination and %s for the source.' % (a.dtype.legacy, value.dtype.legacy))
    try:
        _check_range(ranges)
    except IndexError:
        if isinstance(value, Tensor):
            _check_value_shape(a, key, ranges, value)
        raise
    v = _as_tensor(value)
    data = _preserved_copy(a._data)                                                  # (as PyTorch's clone)
    try:
        if accumulate:
            np.add.at(data, key, v._data)
        else:
            data[key] = v._data
    except (ValueError, TypeError):                 # (numpy's TypeError: a mask's value of 2 dims or more)
        raise RuntimeError('shape mismatch: value tensor of shape %s cannot be broadcast to indexing result of shape '
                           '%s' % (_sizes(v._data.shape), _sizes(data[key].shape))) from None
    sources = sources or (None,) * len(key)
    out = _attach(make(data), IndexPutBackward0, (a, v), {'accumulate': accumulate, 'indices': SavedList(
        s if s is not None else make(k) if isinstance(k, np.ndarray) else None for k, s in zip(key, sources))})
    if out._grad_fn is not None:
        out._grad_fn.key = key          # (the numpy index its backward reads)
    return out


def _check_value_shape(a, key, ranges, value):
    """index_put_'s checks before it reads its indices' values: none into an empty dim, and a value tensor that
    broadcasts to the indexing result."""
    _check_range([(k, size) for k, size in ranges if k is not None and not size])
    shape = a._data[tuple(np.zeros_like(k) if any(k is r for r, _ in ranges) else k for k in key)].shape
    try:
        np.broadcast_to(value._data, shape)
    except ValueError:
        raise RuntimeError('shape mismatch: value tensor of shape %s cannot be broadcast to indexing result of '
                           'shape %s' % (_sizes(value._data.shape), _sizes(shape))) from None


class IndexPutBackward0(Node):
    def apply(self, g):
        self._unpack_all()                     # (its saved indices, checked as PyTorch checks them)
        key = self.key
        gs = g
        byte = [t._data for t in self.saved('indices') if t is not None and t._data.dtype == np.uint8]
        if byte:                               # (each gradient reads the indices again: index_put_, index)
            for _ in range((self.needs(0) and not self._saved['accumulate']) + self.needs(1)):
                _byte_warning(byte)
        if g._requires_grad and ag.grad_enabled:     # create_graph: the same gradients, differentiable
            if not self.needs(0):
                gs = None
            elif not self._saved['accumulate']:
                gs = _index_put(g, key, make(np.zeros((), g._data.dtype)))
            return gs, (take(g, _flat_index(g._data.shape)[key]) if self.needs(1) else None)
        if not self.needs(0):
            gs = None
        elif not self._saved['accumulate']:
            gs = make(np.array(g._data, copy=True))
            gs._data[key] = 0
        return gs, (make(np.array(g._data[key])) if self.needs(1) else None)


def _along(index, dim, shape):
    """The flat positions in a tensor of `shape` that gather picks: index's own coordinates, with the one of dim
    replaced by the index values (what scatter_add, gather's gradient, adds at)."""
    if not index.size:          # (an empty index may have fewer dims than the tensor)
        return np.zeros(index.shape, np.intp)
    coords = list(np.indices(index.shape, dtype=np.intp, sparse=True))
    coords[dim] = index
    return np.ravel_multi_index(tuple(np.broadcast_arrays(*coords)), shape)


def _check_scatter_gather_index(idx, d, size, others):
    """PyTorch's bounds check of gather's and scatter's index (values along dim d of a tensor of that size), failing
    on the first bad value the CPU kernel meets: it goes through the positions of the other dims as TensorIterator
    does (dims of size 1 dropped, neighbours merged where every operand's strides allow: `others`, the arrays whose
    strides count), and, unless d is the last dim, runs d's loop outside the innermost (merged) dim."""
    bad = (idx < 0) | (idx >= size)
    if not bad.any():
        return
    shape = idx.shape
    nd = len(shape)
    order = builtins.list(range(nd))
    dims = [i for i in range(nd) if i != d and shape[i] > 1]
    if d != nd - 1 and dims:
        arrays = [idx] + [o for o in others if o.ndim == nd]
        inner, merged = [dims[-1]], shape[dims[-1]]
        for p in reversed(dims[:-1]):
            if not builtins.all(o.strides[p] == merged * o.strides[inner[0]] for o in arrays):
                break
            inner.insert(0, p)
            merged *= shape[p]
        order = [i for i in range(nd) if i != d and i not in inner] + [d] + inner
    value = np.transpose(idx, order)[np.transpose(bad, order)][0]
    raise RuntimeError('index %d is out of bounds for dimension %d with size %d' % (value, d, size))


def gather(a, dim, index, *, sparse_grad=False):
    """out[i][j] = a[i][index[i][j]] (dim 1): values picked along dim."""
    nd = a._data.ndim
    d = _wrap_dim(dim, nd)
    idx = index._data
    if idx.dtype.name not in ('int32', 'int64'):
        raise RuntimeError('gather(): Expected dtype int32/int64 for index')
    if idx.ndim != nd and builtins.max(idx.ndim, 1) != builtins.max(nd, 1) and idx.size:    # (none for an empty one)
        raise RuntimeError('Index tensor must have the same number of dimensions as input tensor')
    shape = a._data.shape if nd else (1,)
    ishape = idx.shape if idx.ndim else (1,)
    for i, (n, m) in enumerate(zip(ishape, shape)):
        if i != d and n > m:
            raise RuntimeError('Size does not match at dimension %d expected index [%s] to be no larger than self [%s] '
                               'apart from dimension %d' % (i, ', '.join(map(str, idx.shape)),
                                                           ', '.join(map(str, a._data.shape)), d))
    if idx.size:
        _check_scatter_gather_index(idx.reshape(ishape), d, shape[d], (a._data,))
    flat = _along(idx.reshape(ishape).astype(np.intp), d, shape)
    # (row-major, as PyTorch's kernel writes it: numpy's result takes the layout of an expanded or transposed index)
    out = make(np.ascontiguousarray(a._data.reshape(-1)[flat]).reshape(idx.shape))
    return _attach(out, GatherBackward0, (a,), {'dim': _given(dim), 'index': SavedTensor(index),
                                                'self': SavedTensor(a), 'sparse_grad': sparse_grad})


class GatherBackward0(Node):
    def apply(self, g):
        x, index = self.saved('self'), self.saved('index')
        shape = x._data.shape if x._data.ndim else (1,)
        idx = index._data.reshape(index._data.shape or (1,)).astype(np.intp)
        # (shaped as g: a 0-d gradient's double backward takes a 0-d one back)
        flat = _along(idx, _signed(self._saved['dim']) % len(shape), shape).reshape(g._data.shape)
        return (_versioned(put(g, flat, x._data.shape, ScatterAddBackward0,      # scatter_add into zeros
                               {'dim': self._saved['dim'], 'index': SavedTensor(index)}), 1),)


def index_select(a, dim, index):
    """The slices of `a` along dim at the positions in the 1-d `index`."""
    d = _wrap_dim(dim, a._data.ndim)
    idx = index._data
    if idx.ndim > 1:
        raise IndexError('index_select(): Index is supposed to be a vector')
    if not a._data.ndim and idx.size != 1:     # (checked before the index's dtype)
        raise RuntimeError('index_select(): Index to scalar can have only 1 value, got %d value(s)' % idx.size)
    if idx.dtype.kind not in 'iu' or idx.dtype.itemsize not in (4, 8):
        raise RuntimeError('index_select(): Expected dtype int32 or int64 for index')
    size = a._data.shape[d] if a._data.ndim else 1
    if a._data.ndim > 1 and not size and idx.size:
        raise RuntimeError('index_select(): self indexing axis dim should be positive')
    bad = idx[(idx < 0) | (idx >= size)]
    if bad.size:                    # (PyTorch's kernel for dim 1 checks otherwise than the general one)
        if a._data.ndim <= 1 or d != 1 and a._data.size:    # (an empty self: its own bound check)
            raise IndexError('index out of range in self')
        raise RuntimeError('INDICES element is out of DATA bounds, id=%d axis_dim=%d' % (bad.flat[0], size))
    out = make(np.take(a._data, idx.reshape(-1).astype(np.intp), axis=d) if a._data.ndim else
               np.array(a._data, copy=True))
    return _attach(out, IndexSelectBackward0, (a,), {'dim': _given(dim), 'index': SavedTensor(index),
                                                     'self_sym_sizes': a._data.shape})


class IndexSelectBackward0(Node):
    def apply(self, g):
        shape = self._saved['self_sym_sizes']
        idx = self.saved('index')._data.reshape(-1).astype(np.intp)
        if shape:
            d = _signed(self._saved['dim']) % len(shape)
            at = [1] * len(shape)
            at[d] = idx.size
            flat = _along(np.broadcast_to(idx.reshape(at), g._data.shape), d, shape)
        else:                               # (a 0-d input's: index_add into a 0-d zero all the same)
            flat = np.zeros(g._data.shape, np.intp)
        return (_versioned(put(g, flat, shape, IndexAddBackward0, {        # index_add into zeros (differentiable)
            'alpha': 1, 'dim': self._saved['dim'], 'index': self._saved['index'], 'source': SavedTensor(g),
            'source_dim': g._data.ndim}), 1),)


def check_masked_fill(mask, value):
    """masked_fill_'s own checks, in its order: a 0-d value, then a bool mask."""
    if isinstance(value, Tensor) and value._data.ndim:
        raise RuntimeError('masked_fill_ only supports a 0-dimensional value tensor, but got tensor with %d '
                           'dimension(s).' % value._data.ndim)
    if mask._data.dtype.kind != 'b':
        raise RuntimeError('masked_fill_ only supports boolean masks, but got mask with dtype '
                           + dt.C_NAMES.get(mask.dtype.name, mask.dtype.name))


def masked_fill(a, mask, value):
    """`a` with `value` (a number or a 0-d tensor) where the bool `mask` is True (they broadcast: checked first, as
    PyTorch expands both before it runs masked_fill_ on a clone)."""
    if not isinstance(value, _TENSOR_OR_NUMBER):       # (a 0-d array is no Scalar: the argument parser's error)
        raise TypeError('masked_fill: a tensor or a number value')
    _check_broadcast(mask._data.shape, a._data.shape)
    check_masked_fill(mask, value)
    # (a 0-d tensor's number is converted as PyTorch's kernel converts it: an overflow is refused)
    v = dt.check_scalar(_scalar(value.item() if isinstance(value, Tensor) else value), a.dtype)
    r = np.where(mask._data, np.asarray(v).astype(a._data.dtype), a._data)
    out = make(r if r.flags.c_contiguous else r.copy())             # (a contiguous clone, as PyTorch's)
    if isinstance(value, Tensor):
        return _attach(out, MaskedFillBackward1, (a, value), {'mask': SavedTensor(mask)})
    return _attach(out, MaskedFillBackward0, (a,), {'mask': SavedTensor(mask)})


class MaskedFillBackward0(Node):
    def apply(self, g):
        return (masked_fill(g, self.saved('mask'), 0),)


class MaskedFillBackward1(Node):
    def apply(self, g):
        mask = self.saved('mask')
        return (masked_fill(g, mask, 0) if self.needs(0) else None,
                _where(mask, g, 0.).sum() if self.needs(1) else None)


# ================================================================================================ joining

def _tensor_list(fn, tensors):
    if not isinstance(tensors, (list, tuple)):
        raise TypeError("%s(): argument 'tensors' (position 1) must be tuple of Tensors, not %s"
                        % (fn, type(tensors).__name__))
    for i, x in enumerate(tensors):
        if not isinstance(x, Tensor):
            raise TypeError('expected Tensor as element %d in argument 0, but got %s' % (i, _parser_type(x)))
    return list(tensors)


def cat(tensors, dim=0):
    tensors = _tensor_list('cat', tensors)
    if type(dim) is not int:
        _check_int_arg(dim, 'cat', 'dim', 2)
    if not tensors:
        raise ValueError('torch.cat(): expected a non-empty list of Tensors')
    for i, x in enumerate(tensors):                 # (checked for every input first, before any other check)
        if x._data.ndim == 0:
            raise RuntimeError('zero-dimensional tensor (at position %d) cannot be concatenated' % i)
    ref = next((x for x in tensors if x._data.shape != (0,)), None)
    if ref is None:                             # only legacy empty inputs: the dim is not checked against them
        ref, d = tensors[0], 0
    else:
        d = _wrap_dim(dim, ref._data.ndim)
    nd = ref._data.ndim
    for i, x in enumerate(tensors):
        if x._data.shape == (0,):
            continue
        if x._data.ndim != nd:
            raise RuntimeError('Tensors must have same number of dimensions: got %d and %d' % (nd, x._data.ndim))
        for j in range(nd):
            if j != d and x._data.shape[j] != ref._data.shape[j]:
                raise RuntimeError('Sizes of tensors must match except in dimension %d. Expected size %d but got size '
                                   '%d for tensor number %d in the list.' % (d, ref._data.shape[j], x._data.shape[j], i))
    rd = dt.result_type(*tensors)
    out = make(np.ascontiguousarray(np.concatenate(      # (numpy follows the inputs' layout; PyTorch's is C order)
        [x._data.astype(rd.np, copy=False) for x in tensors if x._data.shape != (0,)]
        or [ref._data.astype(rd.np, copy=False)], axis=d)))
    _attach(out, CatBackward0, tuple(tensors), {'dim': _given(dim)})
    if out._grad_fn is not None:                # (the inputs' sizes: kept by the node, not a saved attribute)
        out._grad_fn.sizes = [x._data.shape for x in tensors]
    return out


class CatBackward0(Node):
    _all_grads = True                        # (every input's gradient, needed or not)

    def apply(self, g):
        d = _signed(self._saved['dim']) % g._data.ndim
        grads, start = [], 0
        for shp in self.sizes:
            if shp == (0,):                     # an empty input gets an empty gradient
                grads.append(make(np.zeros((0,), g._data.dtype)))
                continue
            n = shp[d]
            grads.append(g.narrow(d, start, n))
            start += n
        return tuple(grads)


def stack(tensors, dim=0):
    tensors = _tensor_list('stack', tensors)
    if type(dim) is not int:
        _check_int_arg(dim, 'stack', 'dim', 2)
    if not tensors:
        raise RuntimeError('stack expects a non-empty TensorList')
    d = _wrap_dim(dim, tensors[0]._data.ndim + 1)          # (the dim is checked before the sizes)
    for i, x in enumerate(tensors[1:], 1):
        if x._data.shape != tensors[0]._data.shape:
            raise RuntimeError('stack expects each tensor to be equal size, but got [%s] at entry 0 and [%s] at '
                               'entry %d' % (', '.join(map(str, tensors[0]._data.shape)),
                                             ', '.join(map(str, x._data.shape)), i))
    rd = dt.result_type(*tensors)
    out = make(np.ascontiguousarray(np.stack([x._data.astype(rd.np, copy=False) for x in tensors], axis=d)))
    return _attach(out, StackBackward0, tuple(tensors), {'dim': _given(dim)})


class StackBackward0(Node):
    _all_grads = True                        # (every input's gradient, needed or not)

    def apply(self, g):
        d = _signed(self._saved['dim']) % g._data.ndim
        return tuple(g.select(d, i) for i in range(len(self._fns)))


def narrow(a, dim, start, length):
    """(Its arguments' types checked by PyTorch's parser: see _methods.native.)"""
    if isinstance(start, Tensor) and (start._data.ndim or start._data.dtype.kind not in 'iu'):
        raise RuntimeError('start must be an 0-dim integral Tensor.')
    if not a._data.ndim:
        raise RuntimeError('narrow() cannot be applied to a 0-dim tensor.')
    d = _wrap_dim(dim, a._data.ndim)
    n, start, length = a._data.shape[d], operator.index(start), operator.index(length)
    if not -n <= start <= n:
        raise IndexError('start out of range (expected to be in range of [%d, %d], but got %d)' % (-n, n, start))
    start += n if start < 0 else 0
    if length < 0:
        raise RuntimeError('narrow(): length must be non-negative.')
    if start + length > n:
        raise RuntimeError('start (%d) + length (%d) exceeds dimension size (%d).' % (start, length, n))
    return _slice(a, d, slice(start, start + length), keep_full=True, given_dim=dim)   # (a view even of all of d)


_MULTI_VIEW = ('Output %d of %s is a view and is being modified inplace. This view is the output of a function that '
               'returns multiple views. Such functions do not allow the output views to be modified inplace. You '
               'should replace the inplace operation by an out-of-place one.')


def _multi_view(a, pieces, cls, saved):
    """Views of `a` (numpy arrays `pieces`) that are the outputs 0, 1, ... of one `cls` node, as split, chunk and
    unbind make them. PyTorch forbids modifying such a view in place while it takes part in autograd."""
    outs = tuple(_new_view(a, p) for p in pieces)
    if ag.grad_enabled and a._no_grad_view:
        if a._no_grad_view == 'inference':
            # PyTorch's propagate_creation_meta: a view made in inference mode stays one, whatever views it
            if a._requires_grad:
                node = _record(None, cls, (a,), saved)
                node.num_outputs = len(outs)
                for i, t in enumerate(outs):
                    t._grad_fn, t._requires_grad, t._output_nr = node, True, i
            return outs
        for t in outs:                  # (otherwise the multi-output view's creation meta replaces no_grad's)
            del t._no_grad_view
    if ag.grad_enabled and a._requires_grad:
        node = _record(None, cls, (a,), saved)
        node.num_outputs = len(outs)
        for i, t in enumerate(outs):
            t._grad_fn, t._requires_grad, t._output_nr = node, True, i
            t._fn_view = _MULTI_VIEW                                    # (see _check_inplace)
        ag.fw_outputs(node, (a,), outs)
    elif ag.grad_enabled and a._data.dtype.kind == 'f':
        for t in outs:
            t._fn_view = _MULTI_VIEW            # (no node: modified in place by an op needing grad, an error)
    return outs


def _split_dim(a, dim, name):
    if a._data.ndim == 0:
        raise RuntimeError('%s expects at least a 1-dimensional tensor' % name)
    return _wrap_dim(dim, a._data.ndim)


def _pieces(a, d, sizes):
    """numpy views of `a` cut along dim d into pieces of the given sizes."""
    out, start = [], 0
    for n in sizes:
        out.append(a._data[(slice(None),) * d + (slice(start, start + n),)])
        start += n
    return out


def _split_sizes(size, split_size):
    """The sizes of the pieces split(split_size) cuts a dim of `size` into (one piece, maybe empty, at least)."""
    n = builtins.max((size + split_size - 1) // split_size, 1) if split_size else 1
    return [split_size] * (n - 1) + [size - split_size * (n - 1)]


def split(a, split_size, dim=0):
    """Views of `a` along dim: pieces of split_size (the last may be smaller), or of the sizes in a list. As
    PyTorch's Tensor.split: a one-element tensor is read as its int; an int (a bool too) goes to the parser of split,
    anything else to split_with_sizes's."""
    if isinstance(split_size, Tensor):
        try:
            split_size = builtins.int(split_size)
        except ValueError:
            pass
    if not isinstance(split_size, builtins.int):
        if type(dim) is not builtins.int or not isinstance(split_size, (list, tuple)):
            _argparse.parser('split_with_sizes', True).check((a, split_size, dim), {})
        return split_with_sizes(a, split_size, dim)
    if type(split_size) is not builtins.int or type(dim) is not builtins.int:
        _argparse.parser('split', True).check((a, split_size, dim), {})
    if split_size < 0:                  # (checked before the dim)
        raise RuntimeError('split expects split_size be non-negative, but got split_size=%d' % split_size)
    d = _split_dim(a, dim, 'split')
    size = a._data.shape[d]
    if split_size == 0 and size != 0:
        raise RuntimeError('split_size can only be 0 if dimension size is 0, but got dimension size of %d' % size)
    return _multi_view(a, _pieces(a, d, _split_sizes(size, split_size)), SplitBackward0,
                       {'dim': _given(dim), 'self_sym_sizes': a._data.shape, 'split_size': split_size})


def split_with_sizes(a, split_sizes, dim=0):
    sizes = _int_list((split_sizes,), 'split_with_sizes', False, 'split_sizes', 2) if split_sizes else ()
    d = _split_dim(a, dim, 'split')                       # (PyTorch's split_with_sizes names itself split there)
    size = a._data.shape[d]
    if builtins.any(s < 0 for s in sizes):
        raise RuntimeError('split_with_sizes expects split_sizes have only non-negative entries, but got '
                           'split_sizes=[%s]' % ', '.join(map(str, sizes)))
    if builtins.sum(sizes) != size:
        raise RuntimeError("split_with_sizes expects split_sizes to sum exactly to %d (input tensor's size at "
                           "dimension %d), but got split_sizes=[%s]" % (size, dim, ', '.join(map(str, sizes))))
    return _multi_view(a, _pieces(a, d, sizes), SplitWithSizesBackward0,
                       {'dim': _given(dim), 'self_sym_sizes': a._data.shape, 'split_sizes': sizes})


def chunk(a, chunks, dim=0):
    """split into `chunks` pieces of ceil(size / chunks) (fewer when they run out)."""
    if a._data.ndim and chunks <= 0:              # (checked before the dim, as PyTorch)
        raise RuntimeError('chunk expects `chunks` to be greater than 0, got: %d' % chunks)
    d = _split_dim(a, dim, 'chunk')
    if chunks <= 0:
        raise RuntimeError('chunk expects `chunks` to be greater than 0, got: %d' % chunks)
    size = a._data.shape[d]
    if size == 0:                                 # PyTorch then gives `chunks` empty pieces
        return split_with_sizes(a, [0] * chunks, dim)
    return split(a, builtins.int((size + chunks - 1) // chunks), dim)


def _cat_grads(grads, shape, dim, sizes):
    """The gradient of a split: the pieces' gradients joined again (zeros for outputs that got none)."""
    d = _signed(dim) % len(shape)
    dtype = next(g._data.dtype for g in grads if g is not None)
    parts = [g if g is not None else make(np.zeros(shape[:d] + (n,) + shape[d + 1:], dtype))
             for g, n in zip(grads, sizes)]
    return cat(parts, d)


class SplitBackward0(Node):
    def apply(self, *grads):
        s = self._saved
        shape = s['self_sym_sizes']
        sizes = _split_sizes(shape[_signed(s['dim']) % len(shape)], s['split_size'])
        return (_cat_grads(grads, shape, s['dim'], sizes),)


class SplitWithSizesBackward0(Node):
    def apply(self, *grads):
        s = self._saved
        return (_cat_grads(grads, s['self_sym_sizes'], s['dim'], s['split_sizes']),)


def unbind(a, dim=0):
    """The slices of `a` along dim, as views that are the outputs of one UnbindBackward0."""
    d = _wrap_dim(dim, a._data.ndim)          # (a 0-d tensor's dim is checked first: 0 and -1 get past it)
    if a._data.ndim == 0:
        raise IndexError('Dimension specified as 0 but tensor has no dimensions')
    pieces = [a._data[(slice(None),) * d + (i, Ellipsis)] for i in range(a._data.shape[d])]
    return _multi_view(a, pieces, UnbindBackward0, {'dim': _given(dim)})


class UnbindBackward0(Node):
    def apply(self, *grads):
        ref = next(g for g in grads if g is not None)
        parts = [g if g is not None else _zeros_like(ref) for g in grads]
        return (stack(parts, _signed(self._saved['dim'])),)


# ================================================================================================ reordering, matrices

def _dim_list(dims, nd):
    dims = tuple(dims[0]) if len(dims) == 1 and isinstance(dims[0], (tuple, list)) else tuple(dims)
    wrapped = [_wrap_dim(d, nd) for d in dims]
    for i, d in enumerate(wrapped):
        if d in wrapped[:i]:
            raise RuntimeError('dim %d appears multiple times in the list of dims' % d)
    return dims, tuple(wrapped)


def flip(a, *dims):
    """A copy of `a` with the order of elements reversed along dims."""
    if not dims:                                # (no dims at all: an empty list is fine)
        raise TypeError('flip() missing 1 required positional arguments: "dims"')
    given, wrapped = _dim_list(dims, a._data.ndim)
    out = _preserved_empty(a._data)             # (PyTorch's result: laid out as empty_like(input))
    out[...] = np.flip(a._data, wrapped) if a._data.ndim else a._data
    return _attach(make(out), FlipBackward0, (a,), {'dims': _given(given)})


class FlipBackward0(Node):
    def apply(self, g):
        return (g.flip([_signed(d) for d in self._saved['dims']]),)


def roll(a, shifts, dims=None):
    """Elements shifted along dims, those pushed off the end coming back at the start (all of `a`, flattened,
    without dims)."""
    sh = tuple(map(operator.index, shifts if isinstance(shifts, (tuple, list)) else (shifts,)))
    ds = () if dims is None else tuple(map(operator.index, dims if isinstance(dims, (tuple, list)) else (dims,)))
    if len(sh) != len(ds) and not (not ds and len(sh) == 1):
        raise RuntimeError('shifts and dimensions must align. shifts: %d, dims:%d' % (len(sh), len(ds)))
    if not a._data.size:                # (PyTorch copies an empty tensor before looking at the dims)
        data = a._data.copy()
    elif ds and not a._data.ndim:
        raise IndexError('Dimension specified as %d but tensor has no dimensions' % ds[0])
    elif ds:
        data = np.roll(a._data, sh, tuple(_wrap_dim(d, a._data.ndim) for d in ds))
    else:
        data = np.roll(a._data.reshape(-1), sh[0]).reshape(a._data.shape)
    out = make(np.asarray(data, order='C'))                  # (C order, as PyTorch's; numpy follows the input's)
    return _attach(out, RollBackward0, (a,), {'dims': _given(ds), 'shifts': _given(sh)})


class RollBackward0(Node):
    def apply(self, g):
        s = self._saved
        dims = [_signed(d) for d in s['dims']]
        return (g.roll([-_signed(x) for x in s['shifts']], dims or None),)


def repeat(a, *sizes):
    """`a` tiled: repeated sizes[i] times along dim i (leading sizes add dims)."""
    sizes = _int_list(sizes, 'repeat', name='repeats')
    shp = a._data.shape
    if len(sizes) < len(shp):
        raise RuntimeError('Number of dimensions of repeat dims can not be smaller than number of dimensions of tensor')
    padded = (1,) * (len(sizes) - len(shp)) + shp
    target = tuple(n * r for n, r in zip(padded, sizes))
    if builtins.any(t < 0 for t in target):      # (a negative repeat of an empty dim gives it size 0)
        raise RuntimeError('Trying to create tensor with negative dimension %d: [%s]'
                           % (next(t for t in target if t < 0), ', '.join(map(str, target))))
    data = np.tile(a._data.reshape(padded), [builtins.max(r, 0) for r in sizes])
    if not data.flags.c_contiguous:               # (numpy's tile copies as laid out when every repeat is 1)
        data = np.ascontiguousarray(data)
    return _attach(make(data), RepeatBackward0, (a,), {'repeats': sizes, 'self_sym_sizes': shp})


class RepeatBackward0(Node):
    def apply(self, g):
        repeats, shape = self._saved['repeats'], self._saved['self_sym_sizes']
        if 0 in repeats:
            return (make(np.zeros(shape, g._data.dtype)),)
        for _ in range(len(repeats) - len(shape)):       # PyTorch's repeat_backward, step by step
            g = g.sum(0)
        sizes, dims = [], []
        for n, r in zip(shape, repeats[len(repeats) - len(shape):]):
            if r != 1:                                   # (r, n): the r copies of the input along this dim
                sizes.append(r)
                dims.append(len(sizes) - 1)
            sizes.append(n)
        return (g.reshape(sizes).sum(dims) if dims else g,)


def _triangle(name, keep):
    def op(a, diagonal=0):
        if a._data.ndim < 2:
            raise RuntimeError('%s: input tensor must have at least 2 dimensions' % name)
        out = make(np.ascontiguousarray(keep(a._data, diagonal)))
        return _attach(out, TrilBackward0 if name == 'tril' else TriuBackward0, (a,), {'diagonal': _given(diagonal)})
    op.__name__ = name
    op.__doc__ = 'The %s triangle of the last two dims, from diagonal number `diagonal` on; zeros elsewhere.' % (
        'lower' if name == 'tril' else 'upper')
    return op


class TrilBackward0(Node):
    def apply(self, g):
        return (g.tril(_signed(self._saved['diagonal'])),)


class TriuBackward0(Node):
    def apply(self, g):
        return (g.triu(_signed(self._saved['diagonal'])),)


tril = _triangle('tril', np.tril)
triu = _triangle('triu', np.triu)


def diag(a, diagonal=0):
    """A vector's values on diagonal number `diagonal` of a square matrix, or a matrix's diagonal as a vector."""
    nd, diagonal = a._data.ndim, operator.index(diagonal)
    if nd == 1:
        n = a._data.shape[0] + builtins.abs(diagonal)
        shape = (n, n)
        out = np.zeros(shape, a._data.dtype)
        out.reshape(-1)[_diagonal_index(shape, diagonal)] = a._data
        return _attach(make(out), DiagEmbedBackward0, (a,), {'dim1': _given(-2), 'dim2': _given(-1),
                                                             'offset': _given(diagonal)})
    if nd != 2:
        raise RuntimeError('diag(): Supports 1D or 2D tensors. Got %dD' % nd)
    out = make(np.array(a._data.reshape(-1)[_diagonal_index(a._data.shape, diagonal)]))
    return _attach(out, DiagonalBackward0_copy, (a,), {'dim1': 0, 'dim2': 1, 'offset': _given(diagonal),
                                                       'self_sym_sizes': a._data.shape})


class DiagEmbedBackward0(Node):
    def apply(self, g):             # (PyTorch's formula: a view of g's diagonal, DiagonalBackward0 under create_graph)
        return (g.diagonal(_signed(self._saved['offset']), -2, -1),)


class DiagonalBackward0_copy(Node):
    def apply(self, g):
        shape = self._saved['self_sym_sizes']
        return (put(g, _diagonal_index(shape, _signed(self._saved['offset'])), shape, DiagonalBackwardBackward0,
                    {'dim1': 0, 'dim2': 1, 'offset': self._saved['offset']}, unique=True),)   # (copied: -0. stays)


# ================================================================================================ in-place

def _no_grad_view_message(view, modified):
    """PyTorch's error for a view made in no_grad mode (or a view of one, which has a grad_fn of its own) when it
    `modified` ('is being modified', or its base was) in place with grad mode on."""
    fn = view._grad_fn
    head = ('A view was created in' if fn is None else
            'Output %d of %s is a view of a view which was created in' % (view._output_nr, ag.forward_name(fn)))
    if '_fn_view' in view.__dict__:     # (an output of a custom Function, made in no_grad mode)
        return '%s no_grad mode and %s inplace with grad mode enabled.%s' % (
            head, modified, view._fn_view.split(' inplace.', 1)[1])
    mode, inplace, block = (('inference mode', 'in normal mode', 'inference_mode') if view._no_grad_view == 'inference'
                            else ('no_grad mode', 'with grad mode enabled', 'no_grad'))
    return ('%s %s and %s inplace %s. Given that this use case is ambiguous and error-prone, it is forbidden. You can '
            'clarify your code by moving both the view and the inplace either both inside the %s block (if you don\'t '
            'want the inplace to be tracked) or both outside (if you want the inplace to be tracked).'
            % (head, mode, modified, inplace, block))


def _check_inplace(t, args=()):
    """PyTorch's rules for modifying a tensor in place (with `args`) while autograd is recording. (An inference
    tensor outside inference mode is refused by bump, once written.)"""
    if not ag.grad_enabled or not (t._requires_grad or builtins.any(_rg(x) for x in args)):
        return
    if t._no_grad_view:
        fn = t._grad_fn
        raise RuntimeError(fn.inplace_msg if type(fn) is ag.Invalid else _no_grad_view_message(t, 'is being modified'))
    if t._grad_fn is None and '_fn_view' in t.__dict__:     # (a piece of split of a tensor not requiring grad,
        # even one made to require grad since: PyTorch's view of no_grad mode)
        raise RuntimeError('A view was created in no_grad mode and is being modified inplace with grad mode '
                           'enabled.' + t._fn_view.split(' inplace.', 1)[1])
    if t._requires_grad and not t._fw_only:
        if t._base is not None and '_fn_view' in t.__dict__ and t._grad_fn is not None:
            # a view PyTorch forbids modifying in place (of split, of a custom Function, or a view of one of those)
            raise RuntimeError(t._grad_fn.inplace_msg if type(t._grad_fn) is ag.Invalid else
                               t._fn_view % (t._output_nr, ag.forward_name(t._grad_fn)))
        if t._base is not None and t._base._grad_fn is None:
            raise RuntimeError('a view of a leaf Variable that requires grad is being used in an in-place '
                               'operation.')
        if t._grad_fn is None or t._unread_fn is ag.NO_GRAD_FN:
            raise RuntimeError('a leaf Variable that requires grad is being used in an in-place operation.')


def _copy_laid_out(x):
    """x's values in new memory laid out as x: its strides, with the gaps between rows (a slice of columns), so that
    a pointwise kernel finds the same rows in it (rows of a C-contiguous copy coalesce into one)."""
    if x.flags.c_contiguous or not x.size or builtins.min(x.strides) <= 0:
        return np.array(x, copy=True, order='K')
    span = builtins.sum((n - 1) * s for n, s in zip(x.shape, x.strides)) // x.itemsize + 1
    out = np.lib.stride_tricks.as_strided(np.empty(span, x.dtype), x.shape, x.strides)
    out[...] = x
    return out


def _inplace(self, op, *args, shared_ok=False, differentiable=True, **kwargs):
    """Run `op(self, *args)` out of place, write the result back into self, bump the version, rewrite the graph.
    shared_ok: self's elements may share memory (see _writeable). differentiable=False: an op autograd never records
    (logical_and_ ...), which PyTorch runs as its out= form, without the checks of writing into a tracked tensor."""
    if ag.fw_pending:                           # (forward AD: self's state as of its op)
        ag.fw_flush()
    if ag.mutation_context is not None:         # (allow_mutation_on_saved_tensors: saved values kept as they are)
        ag.mutation_context.before_write(self)
    if not ag.grad_enabled and not kwargs and builtins.len(args) == 1 and not self._inference and self._data.size:
        # an optimizer's `w -= lr * w.grad` under no_grad: the checks below that can fail here, then numpy in place
        x = args[0]
        ufunc = _UFUNCS.get(op)
        if (ufunc is not None and (type(x) is _float or type(x) is Tensor and not _partial_overlap(self._data, x._data))
                and _ufunc_inplace(self, ufunc, x)):
            bump(self)
            _views_changed(self)
            return self
    if differentiable:
        _check_inplace(self, args + builtins.tuple(kwargs.values()) if kwargs else args)
        if ag.unread and ag.grad_enabled:     # (PyTorch reads the inputs' grad_fn before its kernel's checks)
            ag.read_inputs((self,) + args)
    # (PyTorch's order of checks: elements of self sharing memory, overlap with an input, shapes, dtypes)
    direct = _OVERLAP_WARNED.get(op) if not self._data.flags.writeable else None
    if direct is not None and _shares_elements(self._data):
        direct = direct(self, *args, **kwargs)      # (deprecated, warned: written straight into the memory)
        shared_ok = True
    else:
        direct = None
    target = _writeable(self._data, shared_ok) if self._data.size else None
    for x in args + builtins.tuple(kwargs.values()) if kwargs else args:       # (clamp_(max=t) too)
        if isinstance(x, Tensor) and x is not self and op not in _OVERLAP_READ and _partial_overlap(self._data, x._data):
            if not (op is _index_put and _fills(args)):          # (masked_fill_ reads its number before writing)
                _partial_overlap_error()
    track = ag.grad_enabled and self._data.dtype.kind == 'f' and (
        self._requires_grad or builtins.any(_rg(x) for x in args) or
        kwargs and builtins.any(_rg(x) for x in kwargs.values()))      # (clamp_(min=w))
    pointwise = getattr(op, '__name__', None) in _ALIAS_POINTWISE
    if kwargs:
        op = functools.partial(op, **kwargs)
    elif not track and op in _UFUNCS and _ufunc_inplace(self, _UFUNCS[op], args[0]):
        bump(self)
        _views_changed(self)
        return self
    src = self
    if track:
        src = make(_copy_laid_out(self._data))  # the value before (what the node saves as self, as PyTorch's
                                                # clone), laid out as self: the op's kernel goes through it as there
    if track and self._requires_grad:                        # ... with self's autograd edge
        if ag.fw_pending:
            ag.fw_flush()
        src._grad_fn, src._requires_grad, src._output_nr = self._grad_fn, True, self._output_nr
        if self._fw_tangent is not None:                     # (and its tangent: forward AD)
            src._fw_tangent, src._fw_only = self._fw_tangent, self._fw_only
        if self._grad_fn is None:
            acc = self._grad_accumulator()                   # (kept alive here while the op records it)
            src._accumulator = self._accumulator
    deferred = None
    if track and ag.saved_hooks:     # (saved_tensors_hooks: packed below, once what is saved is what PyTorch saves)
        prev, ag.pack_deferred = ag.pack_deferred, []
        try:
            res = op(src, *args)
        finally:
            deferred, ag.pack_deferred = ag.pack_deferred, prev
        if src._requires_grad and res._grad_fn is not None and res._grad_fn._saved:
            _saved_clone(res._grad_fn, src)
        for saved, n in deferred:           # (the inputs as they are before the op writes: the outputs after)
            ag.pack_saved(saved, n, inputs_only=True)
    elif track or not ag.grad_enabled:
        res = op(src, *args)
    else:
        with ag.no_grad():
            res = op(self, *args)
    if ag.fw_pending:
        ag.fw_flush()               # (the result's tangent, from self as it is before the write)
    if res._data.shape != self._data.shape:
        raise _not_broadcast_to(self._data.shape, res._data.shape)
    if not dt.can_cast(res.dtype, self.dtype):
        raise RuntimeError("result type %s can't be cast to the desired output type %s"
                           % (res.dtype.legacy, self.dtype.legacy))
    ranks = None if direct is not None or target is None or shared_ok else _overlap_ranks(target)
    if direct is not None:
        direct(target)
    elif ranks is not None:
        # elements sharing memory (unfold's windows, as_strided): PyTorch's kernel writes one element after another,
        # each working on what the ones before it left in its slot: the r-th elements of the slots, in turn
        step = res
        for r in range(int(ranks.max()) + 1):
            if r:
                with ag.no_grad():
                    step = op(make(np.array(target)), *args)
            target[ranks == r] = step._data[ranks == r]
    elif target is not None:
        if (pointwise and self._data.ndim and builtins.any(
                isinstance(x, Tensor) and x is not self and _shares_memory(target, x._data) and not _same_data(self, x)
                for x in args)):
            _aliased_write(target, op, self, args)
        else:
            target[...] = res._data
    bump(self)
    if ag.fw_level is not None and track:
        from ._forward_ad import follow_inplace
        follow_inplace(self, res)
    node = res._grad_fn
    if track and node is not None:
        if type(node) is NotImplementedBackward and '.' not in node.op and not node.op.endswith('_'):
            node.op += '_'                 # (PyTorch names the in-place op: aten::floor_divide_)
        if src._requires_grad and node._saved:
            _saved_clone(node, src)
        if res._data.dtype is not self._data.dtype:     # gradients will arrive in self's dtype, not the result's:
            meta = (res._data.shape, res._data.dtype)    # every input's gradient is cast back to its own
            node._meta = [m or meta for m in (node._meta or [None] * len(node._fns))]
        for v in (node._saved or {}).values():
            if type(v) is SavedTensor and v.is_output and v.unpack_hook is None:
                v.tensor, v.saved_version = self, self._version_counter.value
                if self._saved_as_output is None:
                    self._saved_as_output = []
                self._saved_as_output.append(v)
            elif type(v) is SavedTensor and v.is_output and v.tensor is not None:     # (to be packed: self)
                v.tensor = self
        base = self._base
        if base is not None:
            _rebase_view(self, base, node)
            for v in (node._saved or {}).values():      # (PyTorch keeps a shallow copy, not the view with its
                if type(v) is SavedTensor and v.is_output and v.tensor is self:     # grad_fn: see view_fn)
                    v.tensor, v.view_fn = ag._alias(self), weakref.ref(self._grad_fn)
        else:
            _new_history(self, node)
        _views_changed(self, base if base is not None else self)
        for saved, n in deferred or ():
            ag.pack_saved(saved, n)
    else:
        _views_changed(self)
    return self


# the in-place ops _aliased_write emulates: pointwise over self and inputs broadcast to self's shape
_ALIAS_POINTWISE = frozenset('add sub mul div pow remainder fmod floor_divide lerp addcmul addcdiv clamp clamp_min '
                             'clamp_max atan2 hypot copysign xlogy logaddexp fmax fmin float_power _copy eq ne lt le '
                             'gt ge'.split())


def _shares_memory(a, b):
    """Whether arrays a and b have an element in common (when that is too hard to tell quickly: whether their
    bounds overlap)."""
    if not np.may_share_memory(a, b):
        return False
    try:
        return np.shares_memory(a, b, max_work=1000)
    except np.exceptions.TooHardError:
        return True


def _aliased_write(target, op, self, args):
    """Write op(self, *args) into target (self's memory) where an input shows some of that memory without PyTorch
    seeing the overlap (it judges dense tensors only: `x -= x[:, :1]`, `x /= x[0]`, `x[:, 1:] = x[:, :2]`). Its kernel
    then runs in TensorIterator's order, each input read as it is then: row by row (dims ordered by self's strides,
    coalesced where every operand allows), a row of unit or zero strides in pairs of vectors (64 bytes each), each
    vector's inputs read before it is written (a broadcast number once, as the row starts), the numbers left after
    the pairs one at a time; a strided row one number at a time (measured: `x[:, 1:] = x[:, :-1]` on rows of 40)."""
    shape = target.shape
    ins = [np.broadcast_to(x._data, shape) if isinstance(x, Tensor) else x for x in args]
    arrays = [target] + [a for a in ins if isinstance(a, np.ndarray)]
    dims = sorted((d for d in range(len(shape)) if shape[d] > 1), key=lambda d: -target.strides[d])
    row = dims[-1:]
    for d in reversed(dims[:-1]):
        n = math.prod(shape[e] for e in row)
        if not builtins.all(a.strides[d] == a.strides[row[-1]] * n for a in arrays):
            break
        row.insert(0, d)
    outer = dims[:len(dims) - len(row)]
    n = math.prod(shape[e] for e in row)
    vectors = builtins.all(a.strides[row[-1]] in (0, a.itemsize) for a in arrays) if row else False
    block = 64 // target.itemsize                       # (one vector; the vector loop takes two at a time)
    whole = n - n % (2 * block) if vectors else 0

    def compute(at, numbers=None):
        vals = [a if not isinstance(a, np.ndarray) else make(np.array(
            numbers[i] if numbers is not None and i in numbers else a[at])) for i, a in enumerate(ins)]
        with ag.no_grad():
            target[at] = op(make(np.array(target[at])), *vals)._data

    positions = np.indices(shape).reshape(len(shape), -1)
    order = np.lexsort([positions[d] for d in reversed(outer + row)]) if shape else np.zeros(1, np.intp)
    flat = positions[:, order]
    for start in range(0, flat.shape[1], n or 1):
        at = tuple(flat[:, start:start + n])
        numbers = {i: a[tuple(c[0] for c in at)] for i, a in enumerate(ins)       # (broadcast along the row: read
                   if isinstance(a, np.ndarray) and row and a.strides[row[-1]] == 0}  # once, as the row starts)
        for b in range(0, whole, block):
            compute(tuple(c[b:b + block] for c in at), numbers)
        for k in range(whole, n):
            compute(tuple(c[k] for c in at))


def _saved_clone(node, src):
    """PyTorch saves the value an in-place op overwrites as a clone of it: a tensor whose grad_fn is a CloneBackward0
    over self's old history (the op's own edge goes straight to that history). `src` is that value here."""
    for v in node._saved.values():
        if type(v) is SavedTensor and v.tensor is src:
            v.tensor = t = make(src._data)
            _record(t, CloneBackward0, (src,))
            if v.unpack_hook is not None:         # (to be packed: its place in the graph is the clone's)
                v.origin = ag._history(t)


def _overlap_ranks(arr):
    """None when no two elements of arr share memory (PyTorch's _maybe_overlapping_memory first: strides sorted, each
    beyond the span of the smaller ones); else for each element how many before it (row-major) share its slot."""
    flags = arr.flags
    if arr.size < 2 or flags.c_contiguous or flags.f_contiguous:        # (dense: the usual case, decided at once)
        return None
    span = 0
    for st, n in sorted((builtins.abs(st), n) for st, n in zip(arr.strides, arr.shape) if n > 1):
        if st <= span:
            break
        span += (n - 1) * st
    else:
        return None
    slots = _distinct_slots(arr.shape, tuple(st // arr.itemsize for st in arr.strides)).reshape(-1)
    order = np.argsort(slots, kind='stable')
    ordered = slots[order]
    starts = np.flatnonzero(np.concatenate(([True], ordered[1:] != ordered[:-1])))
    ranks = np.empty(slots.size, np.int64)
    ranks[order] = np.arange(slots.size) - np.repeat(starts, np.diff(np.append(starts, slots.size)))
    return ranks.reshape(arr.shape) if ranks.max() else None


def _shares_elements(arr):
    """Whether elements of arr share memory (an expanded view; an empty one shares nothing)."""
    return arr.size > 0 and builtins.any(s == 0 and n > 1 for s, n in zip(arr.strides, arr.shape))


def _overlap_warning(name, example, line):
    warnings.warn('Use of %s on expanded tensors is deprecated. Please clone() the tensor before performing this '
                  'operation. This also applies to advanced indexing e.g. %s (Triggered internally at '
                  '/__w/pytorch/pytorch/aten/src/ATen/native/TensorAdvancedIndexing.cpp:%d.)' % (name, example, line),
                  UserWarning, stacklevel=user_stacklevel())


def _index_put_direct(a, key, value, accumulate=False, sources=None):
    """index_put_ into a tensor whose elements share memory: PyTorch warns (and masked_fill_ warns too for one
    mask and one value), then writes the values in index order, each write seen by the next."""
    _overlap_warning('index_put_', 'tensor[indices] = tensor', 976)
    v = _as_tensor(value)._data
    arrays = [k for k in key if isinstance(k, np.ndarray)]
    if not accumulate and v.size == 1 and len(arrays) == 1 and arrays[0].dtype.kind == 'b':
        _overlap_warning('masked_fill_', 'tensor[mask] = scalar', 2450)

    def write(t):
        if accumulate:
            np.add.at(t, key, v.astype(t.dtype))
        else:
            t[key] = v
    return write


def _masked_fill_direct(a, mask, value):
    _overlap_warning('masked_fill_', 'tensor[mask] = scalar', 2450)
    v = value._data if isinstance(value, Tensor) else _scalar(value)

    def write(t):
        t[np.broadcast_to(mask._data, t.shape)] = v
    return write


# in-place ops PyTorch lets write into an expanded tensor: op -> f(self, *args) -> writer (index_fill's is set beside it)
_OVERLAP_WARNED = {_index_put: _index_put_direct, masked_fill: _masked_fill_direct}
# in-place ops that PyTorch lets read a tensor argument sharing self's memory (fill_ and masked_fill_ of a 0-d tensor
# read its number first; index_fill_, masked_scatter_ set by _ops_index): no overlap to refuse
_OVERLAP_READ = {_fill_tensor, masked_fill}


def _writeable(arr, shared_ok=False):
    """arr, or a writeable array on its memory. numpy marks every view of a broadcast read-only; PyTorch writes into
    one whose elements do not share memory (a row of an expanded tensor, seen by every row) and refuses where they
    do, unless shared_ok (zero_ and fill_ with a number: writing one value twice is harmless)."""
    if arr.flags.writeable:
        return arr
    root = arr
    while True:
        base = root.base
        if not isinstance(base, np.ndarray):        # (as_strided's result holds its array through a DummyArray)
            base = getattr(base, 'base', None)
        if not isinstance(base, np.ndarray):
            break
        root = base
    shared = _shares_elements(arr)
    if root.flags.writeable and (shared_ok or not shared):
        offset = arr.__array_interface__['data'][0] - root.__array_interface__['data'][0]
        try:
            return np.ndarray(arr.shape, arr.dtype, buffer=root, offset=offset, strides=arr.strides)
        except (TypeError, ValueError):        # memory numpy cannot hand out as a buffer: refuse, as below
            pass
    _internal_overlap_error()


def _internal_overlap_error():
    """PyTorch's assert_no_internal_overlap: a write into memory that several elements share (an expanded view)."""
    raise RuntimeError('unsupported operation: more than one element of the written-to tensor refers to a single '
                       'memory location. Please clone() the tensor before performing the operation.')


def _partial_overlap_error():
    """PyTorch's assert_no_partial_overlap: a write whose input shares some of the written memory."""
    raise RuntimeError('unsupported operation: some elements of the input tensor and the written-to tensor refer to a '
                       'single memory location. Please clone() the tensor before performing the operation.')


def _views_changed(t, rebased=None):
    """The views of t's memory after an in-place change of t. As PyTorch does when a view's version moved past its
    grad_fn's, each view that takes part in autograd now reads its base through AsStridedBackward0 (even t, if
    the change was not recorded: no_grad, or nothing requires grad). Views made in no_grad mode stay outside.
    rebased: the base that just got the recorded change as its history (t itself was rebased already)."""
    for ref in list(t._version_counter.views or ()):
        view = ref()
        if view is None or (rebased is not None and view is t):
            continue
        if view._no_grad_view:          # PyTorch cannot rebuild its history: reading its grad_fn is an error
            if type(view._grad_fn) is ag.Invalid or '_invalid' in view.__dict__:
                continue
            if view._base._requires_grad or view._grad_fn is not None:
                view._grad_fn = _invalid_no_grad_view(view)
                if not view._requires_grad:     # (its base came to require grad: PyTorch reads the flag through it)
                    view._requires_grad = view._grad_from_base = True
            else:
                view._stale = True      # (an error once its base comes to require grad: _views_follow_base)
            continue
        if view._base is rebased:
            _view_of_modified_base(view, rebased)
        elif not view._no_grad_view and (view._grad_fn is not None or view._base._requires_grad and
                                         not view._base._fw_only):     # (a tangent-only dual: no history)
            _view_of_modified_base(view, view._base)
        elif not view._no_grad_view:
            view._stale = True          # (its history is rebuilt if its base comes to require grad: requires_grad_)


def _ufunc_inplace(self, ufunc, other):
    """`self op= other` computed straight into self's memory, when nothing is recorded and the result has self's
    dtype and shape (an optimizer's `w -= lr * w.grad`): the same values as computing it out of place and copying
    it in, without a second pass over memory. False if the general path must run (casts, checks, errors)."""
    sd = self._data
    flags = sd.flags
    if sd.dtype.kind != 'f' or not flags.writeable or not (flags.c_contiguous or flags.f_contiguous) and (
            _overlap_ranks(sd) is not None):         # (elements sharing memory: _inplace writes them in turn)
        return False
    if type(other) is builtins.float:
        if sd.dtype is _F16 and ufunc in (np.multiply, np.true_divide):
            return False                               # (the number is not rounded to half there: see _half_scalar)
        od = _CONSTANTS[(other, sd.dtype)]
    elif isinstance(other, Tensor) and other._data.dtype is sd.dtype and _expandable(other._data.shape, sd.shape):
        od = other._data
        if np.may_share_memory(sd, od) and not _same_data(self, other):     # (`x -= x[:, :1]`: see _aliased_write)
            return False
    else:
        return False
    ufunc(sd, od, out=sd)
    return True


_UFUNCS = {add: np.add, sub: np.subtract, mul: np.multiply, div: np.true_divide}


def _invalid_no_grad_view(view):
    """The Invalid grad_fn of a view made in no_grad mode whose memory changed in place since. PyTorch raises before
    it stores a grad_fn, so a view that had none is still a leaf where it reads the stored one (.grad's warning)."""
    node = ag.invalid(_no_grad_view_message(view, 'its base or another view of its base has been modified'),
                      _no_grad_view_message(view, 'is being modified'))
    node.stored_leaf = view._grad_fn is None
    return node


def _views_follow_base(base):
    """After base's requires_grad changed (requires_grad_, detach_): its views with no history of their own
    require grad as it now does (PyTorch reads such a view's requires_grad through its base). One whose memory
    changed in place since it was made: PyTorch rebuilds its history (AsStridedBackward0), or, made in no_grad
    mode, reading its grad_fn is its error while the base requires grad (None while it does not)."""
    vc = base._version_counter
    for ref in (vc.views or ()) if vc is not None else ():
        view = ref()
        if view is not None and view._base is base and view._unread_fn is not None and not base._requires_grad \
                and '_fn_view' not in view.__dict__:
            _view_of_modified_base(view, base)  # (PyTorch makes its grad_fn when read: from the base as it is then)
            continue
        if view is not None and view._base is base and base._requires_grad and view._grad_fn is None \
                and not view._no_grad_view and view.__dict__.pop('_stale', False):
            _view_of_modified_base(view, base)  # (a view made to require grad itself, stale too: rebuilt as well)
            continue
        if view is None or view._base is not base or not (
                view._grad_from_base or view._grad_fn is None and not view._requires_grad):
            continue
        d = view.__dict__
        if not base._requires_grad:
            if type(view._grad_fn) is ag.Invalid:
                d['_invalid'] = view._grad_fn
                view._grad_fn = None
        elif view._no_grad_view:
            if '_invalid' in d:
                view._grad_fn = d.pop('_invalid')
            elif d.pop('_stale', False):
                view._grad_fn = _invalid_no_grad_view(view)
        elif d.pop('_stale', False):
            _view_of_modified_base(view, base)
            continue
        view._requires_grad = view._grad_from_base = base._requires_grad


def _view_of_modified_base(view, base, geometry=None):
    """A view whose base changed in place: its values come from the base's new history (AsStridedBackward0), or,
    for a view PyTorch forbids modifying in place (`_fn_view`), its grad_fn becomes Invalid."""
    old = view._grad_fn
    if '_fn_view' in view.__dict__ and old is not None:
        if type(old) is not ag.Invalid:
            ag.keep_hooks(view, old)
            direct = view._fn_view % (view._output_nr, ag.forward_name(old))
            view._grad_fn = ag.invalid(direct.replace('is being modified',
                                                      'its base or another view of its base has been modified'), direct)
        return
    if '_fn_view' in view.__dict__:     # (a piece of split of a tensor that did not require grad: none made)
        head, tail = 'A view was created in no_grad mode and %s inplace with grad mode enabled.', \
            view._fn_view.split(' inplace.', 1)[1]
        view._grad_fn = ag.invalid(head % 'its base or another view of its base has been modified' + tail,
                                   head % 'is being modified' + tail)
        view._grad_fn.stored_leaf = True
        view._requires_grad = view._grad_from_base = True       # (read through its base, which requires grad now)
        return
    geometry = geometry or _view_geometry(view, base)
    sv = _record(None, AsStridedBackward0, (base,), {'size': view._data.shape, 'stride': geometry[2],
                                                     'storage_offset': geometry[1]})
    sv.geometry = geometry
    ag.hold_unread(view, ag.NO_GRAD_FN if old is None else old)    # (PyTorch keeps it until the view's grad_fn is read)
    _new_history(view, sv, moves_retain=False)                      # (and its retain_grad: ag.read_grad_fn moves it)


def _new_history(t, node, moves_retain=True):
    """t's values now come from `node` (an in-place change). A retain_grad follows the tensor to it, as in
    PyTorch (tensor hooks registered before stay with the old node and see the old value's gradient), except after
    an in-place view op (t_, unsqueeze_, as_strided_...: moves_retain False), where PyTorch leaves it too."""
    old, nr = t._grad_fn, t._output_nr
    t._grad_fn, t._output_nr = node, 0
    t._requires_grad = True
    if moves_retain and t._retains_grad and old is not None and old._retain and nr in old._retain:
        node._retained()[0] = old._retain.pop(nr)


def _fills(args):
    """Whether index_put_ with these (key, value) arguments is PyTorch's masked_fill_ of the value's number (one
    mask, one value), which reads the value before writing: no overlap with it to refuse."""
    arrays = [k for k in args[0] if isinstance(k, np.ndarray)]
    return (len(arrays) == 1 and arrays[0].dtype.kind == 'b' and args[1]._data.size == 1
            and (len(args) < 3 or not args[2]))


def _overlaps(out, inp):
    """PyTorch's get_overlap_status is PARTIAL or FULL (the same dense memory)."""
    return _partial_overlap(out, inp) or (out.size and np.may_share_memory(out, inp) and _dense(out) and _dense(inp)
                                          and out.__array_interface__['data'][0] == inp.__array_interface__['data'][0])


def _partial_overlap(out, inp):
    """PyTorch's get_overlap_status is PARTIAL: two dense tensors whose memory overlaps without coinciding exactly
    (same bytes and strides). It does not judge tensors that are not dense."""
    if not out.size or not inp.size or not np.may_share_memory(out, inp) or not (_dense(out) and _dense(inp)):
        return False
    a, b = out.__array_interface__['data'][0], inp.__array_interface__['data'][0]
    if (a, out.nbytes) == (b, inp.nbytes):      # (strides as stride() states them, size-1 dims' too: x[::2] of one
        return ([s // out.itemsize for s in out.strides] !=     # element is not x, as PyTorch compares them)
                [s // inp.itemsize for s in inp.strides])
    return a < b + inp.nbytes and b < a + out.nbytes


def _strides(arr):
    """Element strides as PyTorch states them (numpy's strides of size-1 dims are arbitrary)."""
    strides, step = [], 1
    for n, s in zip(reversed(arr.shape), reversed(arr.strides)):
        strides.append(s // arr.itemsize if n != 1 else step)
        step = strides[-1] * n
    return tuple(reversed(strides))


def _obeys_layout(g, v, dense):
    """PyTorch's obeys_layout_contract of a gradient g for a leaf v (arrays): for a dense v, g's strides are v's on
    every dim of size above 1, and no size-1 dim of g has stride 0 (a view); else g is contiguous."""
    if not dense:
        return g.flags.c_contiguous
    if g.strides == v.strides and g.itemsize == v.itemsize and 0 not in g.strides:
        return True
    for n, gs, vs in zip(g.shape, g.strides, v.strides):
        if (gs == 0) if n == 1 else gs * v.itemsize != vs * g.itemsize:
            return False
    return True


def _dense(arr):
    """PyTorch's is_non_overlapping_and_dense: the elements fill their memory exactly, in some order of dims."""
    step = arr.itemsize
    for s, n in sorted((s, n) for s, n in zip(arr.strides, arr.shape) if n > 1):      # (as PyTorch: sizes 0, 1 aside)
        if s != step:
            return False
        step *= n
    return True


def _rebase_view(view, base, node, geometry=None):
    """In-place on a view: the base's history becomes CopySlices(node); the view reads its slice of the base.
    geometry: where the view says it is in the base's memory (as _geometry), when it no longer shows that memory."""
    cs = _record(None, CopySlices, (base,) + (None,) * (len(node.next_functions) - 1))
    cs._set_edges((cs.next_functions[0],) + node.next_functions[1:])
    cs._meta = [cs._meta[0]] + list(node._meta or [None] * len(node._fns))[1:]
    cs.fn = node
    cs.view_shape = view._data.shape
    cs.geometry = geometry or _view_geometry(view, base)
    _new_history(base, cs)
    _view_of_modified_base(view, base, geometry)
    ag.read_grad_fn(view)               # (PyTorch reads the view's grad_fn, the new one, at once)


def _view_geometry(view, base):
    """_geometry of a view tensor in its base. A view that no longer shows its base's memory (set_ or .data = made it
    show other memory, its own `_storage`, or gave its base other memory, of another dtype maybe) says it is where
    it now is in its memory (its offset, counted from the base's, and strides in its own elements), as PyTorch's view
    keeps its own sizes, strides and offset."""
    if '_storage' not in view.__dict__ and view._data.dtype == base._data.dtype and \
            np.may_share_memory(view._data, base._data):
        return _geometry(base._data, view._data)
    return (base._data.shape, view.storage_offset() - base.storage_offset(),
            tuple(s // view._data.itemsize for s in view._data.strides),
            tuple(s // base._data.itemsize for s in base._data.strides))


def _geometry(base, view):
    """Where `view` sits in the dense memory of `base`: (base shape, element offset, element strides of the view,
    element strides of the base). The base may be laid out in any order (a result of x.t() + 1 is not C-ordered)."""
    item = base.itemsize
    off = (view.__array_interface__['data'][0] - base.__array_interface__['data'][0]) // item
    return base.shape, off, tuple(s // item for s in view.strides), tuple(s // item for s in base.strides)


class CopySlices(Node):
    """The base's node after an in-place op on one of its views: runs the op's backward on the view's slice."""

    def name(self):
        return 'torch::autograd::CopySlices'

    def apply(self, g):
        if self._freed:                    # PyTorch frees the wrapped node: a second backward is an error
            raise RuntimeError(ag.FREED_MESSAGE)
        if builtins.any(st == 0 and n > 1 for st, n in zip(self.geometry[3], self.geometry[0])) and \
                0 not in self.geometry[0]:  # (PyTorch: an empty tensor is contiguous, whatever its strides)
            _internal_overlap_error()   # (g is copied into memory laid out as the base: expanded, copy_ refuses it)
        if ag.grad_enabled and builtins.all(st >= 0 for st in self.geometry[3]):
            return self._recorded(g)
        index = _region_index(self.geometry, self.view_shape, g._data.itemsize)
        inside = take(g, index)
        sub = self.fn.apply(inside)
        self._check_copy_back(sub, self.geometry[2])
        mask = np.zeros(g._data.shape, bool)                   # the gradient outside the view passes through,
        mask.reshape(-1)[index.reshape(-1)] = True             # inside it is replaced (not g - inside: inf - inf)
        new = make(np.zeros((), g._data.dtype)) if sub[0] is None else \
            _put_copied(sum_to(sub[0], self.view_shape), index, g._data.shape, True)
        return (_where(make(mask), new, g),) + tuple(sub[1:])

    def _check_copy_back(self, sub, strides):
        """PyTorch copies the op's gradient back into the base's gradient seen as the view (of these strides): an
        expanded view has elements that share memory, which copy_ refuses. (None is copied when the base needs no
        gradient: PyTorch's op computes none for it, and zero_ takes such a view.)"""
        if sub[0] is not None and self.fn.needs(0) and 0 not in self.view_shape and builtins.any(
                st == 0 and n > 1 for st, n in zip(strides, self.view_shape)):
            _internal_overlap_error()

    def _recorded(self, g):
        """Under create_graph, PyTorch's steps, so that the gradient's history is theirs: g copied into memory laid
        out as the base (CopyBackwards), the view's part of it cloned for the op's backward, whose result is copied
        back into that part (CopySlices)."""
        from ._factories import empty_strided
        base_shape, off, strides, base_strides = self.geometry
        result = empty_strided(base_shape, base_strides, dtype=g.dtype)
        result.copy_(g)
        part = result.as_strided(self.view_shape, strides, off)
        sub = self.fn.apply(part.clone())
        self._check_copy_back(sub, strides)
        if sub[0] is None:
            part.zero_()
        else:
            part.copy_(sum_to(sub[0], self.view_shape))
        return (result,) + tuple(sub[1:])


class AsStridedBackward0(Node):
    def apply(self, g):
        # (as PyTorch's as_strided_backward: the elements of a view that reaches past its base's memory, which .data =
        # or set_ can make it do, have no place in the base's gradient)
        shape, _, _, strides = self.geometry
        rep = _distinct_slots(shape, strides)
        _, where, count = np.unique(rep, return_inverse=True, return_counts=True)
        if ag.grad_enabled and count.size == rep.size:
            recorded = self._recorded(g)
            if recorded is not None:
                return (recorded,)
        index = _region_index(self.geometry, g._data.shape, outside=True)
        if index.size and index.min() < 0:
            inside = np.flatnonzero(index >= 0)
            g, index = g.reshape(-1)[inside], index.reshape(-1)[inside]
        grad = _put_copied(g, index, self.geometry[0])
        # an input whose elements share memory (expanded): each memory slot's gradient went to one element showing
        # it (rep); as PyTorch, every element showing it gets that gradient divided by their number
        if count.size == rep.size:
            return (_versioned(grad, 1),)
        return (div(take(grad, rep), make(count[where].reshape(shape).astype(g._data.dtype))),)

    def _recorded(self, g):
        """Under create_graph, PyTorch's steps (as_strided_backward), so that the gradient's history is theirs:
        the view's size-1 dims squeezed out of g and its expanded ones summed, g copied into zeros laid out as the
        memory the input and the view span (CopySlices), the input's elements read from there (AsStridedBackward0).
        Empty: zeros without history, as PyTorch's. None where the engine's own way is taken: negative strides, a
        view whose elements overlap."""
        from ._factories import zeros
        shape, off, strides, base_strides = self.geometry
        if 0 in shape or 0 in g._data.shape:
            return zeros(shape, dtype=g.dtype)
        if builtins.min(strides + base_strides, default=0) < 0:
            return None
        kept = []
        for i in reversed(range(len(strides))):
            if g._data.shape[i] == 1:
                g = g.squeeze(i)
            elif strides[i] == 0:
                g = g.sum(i)
            else:
                kept.insert(0, strides[i])
        slots = _distinct_slots(g._data.shape, tuple(kept))
        if np.unique(slots).size != slots.size:
            return None
        lo = builtins.min(0, off)           # (the view may start before the input)
        size = builtins.max(1 - lo + builtins.sum((n - 1) * s for n, s in zip(shape, base_strides)),
                            1 + off - lo + builtins.sum((n - 1) * s for n, s in zip(g._data.shape, kept)))
        memory = zeros(size, dtype=g.dtype)
        memory.as_strided(g._data.shape, kept, off - lo).copy_(g)
        return memory.as_strided(shape, base_strides, -lo)


def _distinct_slots(shape, strides):
    """For each element of a tensor of these sizes and strides, the flat index of one element sharing its memory
    slot (itself where no other does)."""
    return _region_index((shape, 0, strides, strides), shape)


def _put_copied(v, index, shape, distinct=False):
    """put, with the values copied in where the positions are distinct (PyTorch copies there: a -0. stays -0.,
    which adding it to a zero would not keep); overlapping positions add up."""
    out = put(v, index, shape)
    flat = index.reshape(-1)
    if distinct or np.unique(flat).size == flat.size:
        out._data.reshape(-1)[flat] = v._data.reshape(-1)
    return out


def _flat_index(shape):
    """Each element's flat position, shaped like the tensor (indexing it says where a view's elements sit)."""
    return np.arange(int(np.prod(shape, dtype=np.int64)), dtype=np.int64).reshape(shape)


def _region_index(geometry, shape, itemsize=None, outside=False):
    """Where the elements of a view sit in its base, as the base's flat (C-order) indices shaped like the view.
    itemsize: the gradient's, for PyTorch's error when the view says it reaches past the base (set_ made it show
    other memory); outside: -1 where it does, rather than an error."""
    base_shape, off, strides, base_strides = geometry
    if off < 0 and not outside:         # (never for a view of the base's memory)
        raise RuntimeError('Tensor: invalid storage offset %d' % off)
    if itemsize is not None and 0 not in shape:
        need, numel = off + 1 + builtins.sum((n - 1) * s for n, s in zip(shape, strides)), math.prod(base_shape)
        if need > numel:
            raise RuntimeError('setStorage: sizes %s, strides %s, storage offset %d, and itemsize %d requiring a '
                               'storage size of %d are out of bounds for storage of size %d'
                               % (_sizes(shape), _sizes(strides), off, itemsize, need * itemsize, numel * itemsize))
    # memory slot -> flat index there, over the whole span of the base's strides: a base need not be dense (a
    # numpy result can be a slice of a larger array, or run backwards), and writing past its slots corrupts memory
    spans = [(n - 1) * s for n, s in zip(base_shape, base_strides)] if 0 not in base_shape else []
    lo, hi = builtins.sum(v for v in spans if v < 0), builtins.sum(v for v in spans if v > 0)
    if outside and 0 not in shape:      # (the view's span too, its slots outside the base's -1)
        spans = [(n - 1) * s for n, s in zip(shape, strides)]
        lo = min(lo, off + builtins.sum(v for v in spans if v < 0))
        hi = max(hi, off + builtins.sum(v for v in spans if v > 0))
    memory = np.full(hi - lo + 1, -1, np.int64) if outside else np.empty(hi - lo + 1, np.int64)
    as_strided = np.lib.stride_tricks.as_strided
    item = memory.itemsize
    as_strided(memory[-lo:], base_shape, tuple(s * item for s in base_strides))[...] = _flat_index(base_shape)
    return as_strided(memory[off - lo:], shape, tuple(s * item for s in strides))


def take(a, index):
    """The elements of a at flat positions `index` (torch.take)."""
    out = make(np.array(a._data.reshape(-1)[index]))
    return _attach(out, TakeBackward0, (a,), {'index': index, 'self_sym_sizes': a._data.shape})


class TakeBackward0(Node):
    def apply(self, g):
        return (_versioned(put(g, self._saved['index'], self._saved['self_sym_sizes']), 1),)


def _versioned(t, n):
    """A backward formula's new gradient t, its version moved on n times, as PyTorch's kernels move it (zeros,
    then scatter or index_put_ into them): `x.grad._version` after `x[idx]`, gather or max() is 1, after sort,
    topk or max(dim) 2."""
    for _ in range(n):
        bump(t)
    return t


def put(v, index, shape, cls=None, saved=None, unique=False):
    """A zero tensor of `shape` with v added at the flat positions `index` (what take's gradient is). A backward
    formula passes the node class PyTorch's formula records there (a ScatterNode, with what that node saves), so
    that a gradient made with create_graph=True shows PyTorch's grad_fn (SelectBackwardBackward0, ...). unique:
    no position repeats, and v is copied there (PyTorch's copy_, scatter_, masked_scatter_: a -0. stays -0.)."""
    z = np.zeros(int(np.prod(shape, dtype=np.int64)), v._data.dtype)
    if unique:
        z[index.reshape(-1)] = v._data.reshape(-1)
    else:
        np.add.at(z, index.reshape(-1), v._data.reshape(-1))
    if cls is None:
        return _attach(make(z.reshape(shape)), PutBackward0, (v,), {'index': index})
    out = _attach(make(z.reshape(shape)), cls, (None, v) if cls.into_zeros else (v,), saved)
    if out._grad_fn is not None:
        out._grad_fn._flat = index
    return out


class PutBackward0(Node):
    def apply(self, g):
        return (take(g, self._saved['index']),)


class ScatterNode(Node):
    """A gradient that a backward formula scattered into zeros (see put): its own gradient takes the elements back.
    into_zeros: PyTorch's formula writes in place into a zero tensor (scatter_, index_add_...), whose node has that
    tensor as a first input needing no gradient: next_functions ((None, 0), (<the gradient's node>, 0))."""
    into_zeros = False

    def apply(self, g):
        return (None, take(g, self._flat)) if self.into_zeros else (take(g, self._flat),)


# the nodes of PyTorch's backward formulas that scatter into zeros, by the op whose gradient they make
class SelectBackwardBackward0(ScatterNode):      # select, integer indexing
    pass


class SliceBackwardBackward0(ScatterNode):       # slicing, narrow
    pass


class IndexPutImplBackward0(ScatterNode):        # advanced indexing
    into_zeros = True


class ScatterAddBackward0(ScatterNode):          # gather
    into_zeros = True


class IndexAddBackward0(ScatterNode):            # index_select
    into_zeros = True


class ScatterBackward0(ScatterNode):             # values picked along a dim: max/min(dim), sort, topk, kthvalue...
    into_zeros = True


class IndexFillBackward1(ScatterNode):           # trace (then viewed as the matrix)
    into_zeros = True


class DiagonalBackwardBackward0(ScatterNode):    # diagonal, diag
    pass


class UnfoldBackwardBackward0(ScatterNode):      # unfold
    pass


class MaskedScatterBackward0(ScatterNode):       # masked_select
    into_zeros = True




def _zero(a):
    return _attach(make(np.zeros_like(a._data)), ZeroBackward0, (a,))          # (it saves nothing)


class ZeroBackward0(Node):
    def apply(self, g):
        return (_zeros_like(g),)


def _fill(a, value):
    if isinstance(value, Tensor) and value._data.ndim:
        raise RuntimeError('fill_ only supports 0-dimension value tensor but got tensor with %d dimensions.'
                           % value._data.ndim)
    if isinstance(value, Tensor):
        v = value.item()
    else:
        v = _scalar(value)
        if a.dtype is not dt.float16 or a._data.size != 1:
            v = dt.check_scalar(v, a.dtype)
        elif type(v) is builtins.int:                  # (PyTorch fills one half unchecked, 1e40 as inf: only the
            _check_int(v)                              # parser's range of ints holds)
    if a.dtype is dt.float16 and isinstance(v, builtins.float):
        v = np.float32(v)                               # (PyTorch's double -> half goes through float)
    return _attach(make(np.full_like(a._data, v)), FillBackward2, (a,))


class FillBackward2(ZeroBackward0):
    pass


def _copy(a, src):
    s = _as_tensor(src)
    _check_broadcast(a._data.shape, s._data.shape)
    if np.broadcast_shapes(a._data.shape, s._data.shape) != a._data.shape:
        raise _not_broadcast_to(a._data.shape, np.broadcast_shapes(a._data.shape, s._data.shape))
    data = dt.convert(np.broadcast_to(s._data, a._data.shape), a.dtype)
    out = np.empty_like(a._data, dtype=data.dtype)      # (laid out as a, which copy_ writes into, not as src)
    out[...] = data
    return _attach(make(out), CopyBackwards, (a, s))   # (its C++ node shows nothing saved)


class CopyBackwards(Node):
    def name(self):
        return 'torch::autograd::CopyBackwards'      # a C++ node in PyTorch, named with its namespace

    def apply(self, g):
        return (_zeros_like(g) if self.needs(0) else None), (g if self.needs(1) else None)


def zero_(a, *args):
    if args:                                             # (Python's error for PyTorch's C method)
        raise TypeError('TensorBase.zero_() takes no arguments (%d given)' % len(args))
    return _inplace(a, _zero, shared_ok=True)          # (writing one value twice is harmless: PyTorch allows it)


def fill_(a, value):
    if not isinstance(value, (Tensor, builtins.int, builtins.float, np.number, np.bool_)):
        from ._factories import _arg_desc
        why = "      didn't match because some of the arguments have invalid types: (!%s!)\n" % _arg_desc(value)
        raise invalid_arguments('fill_', (value,), {}, ' * (Tensor value)\n%s * (Number value)\n%s' % (why, why))
    if isinstance(value, Tensor) and not value._data.ndim:    # fill_(Tensor): FillBackward3, the value's edge too
        return _inplace(a, _fill_tensor, value)
    if isinstance(value, Tensor):       # a value of 1 or more dims: _fill's error after autograd's checks, before
        _check_inplace(a, (value,))     # the one of self's elements sharing memory (PyTorch's order)
        _fill(a, value)
    return _inplace(a, _fill, value, shared_ok=not isinstance(value, Tensor))     # (as PyTorch's fill_(Scalar))


def _drawn(arr, values):
    """values(shape) for arr's elements, drawn in the order PyTorch's CPU kernels walk arr's memory (TensorIterator's,
    see _iter_order): a transposed tensor gets its numbers column by column."""
    order = _iter_order(arr.shape, [arr])[::-1]           # (the slowest dim first)
    return values(builtins.tuple(arr.shape[d] for d in order)).transpose(np.argsort(order))


def _random(name, kernel, cls, check, draw, checked_first=False):
    """uniform_ / normal_: a tensor's values drawn again from the generator (PyTorch's numbers, see _random),
    recorded as an in-place op (UniformBackward0 / NormalBackward0: no gradient flows back). Autograd's checks
    come first, then the dtype's and the numbers' (the numbers' first: checked_first). draw(x, shape, p, q, gen):
    the numbers for a tensor laid out as x, in the order of its memory."""
    def op(a, p=0.0, q=1.0, *, generator=None):
        _check_inplace(a)
        if checked_first:
            check(p, q)
        if not a.is_floating_point():
            raise NotImplementedError('"%s" not implemented for \'%s\'' % (kernel, a.dtype.legacy))
        check(p, q)
        x, gen = a._data, generator or _rand.default_generator     # (x: a's layout, before _inplace copies it)
        return _inplace(a, lambda t: _attach(make(_drawn(x, lambda shape: draw(x, shape, p, q, gen)).astype(x.dtype)),
                                             cls, (t,)))
    op.__name__ = name
    return op


class UniformBackward0(ZeroBackward0):
    pass


class NormalBackward0(ZeroBackward0):
    pass


def _check_uniform(p, q):
    if p > q:
        raise RuntimeError('uniform_ expects to return a [from, to) range, but found from=%s > to=%s' % (p, q))


def _check_std(p, q):
    if q < 0:
        raise RuntimeError('normal expects std >= 0.0, but found std %g' % q)


uniform_ = _random('uniform_', 'check_uniform_bounds', UniformBackward0, _check_uniform,
                   lambda x, shape, p, q, gen: _rand.uniform(gen, shape, x.dtype, p, q))
normal_ = _random('normal_', 'normal_kernel_cpu', NormalBackward0, _check_std,
                  lambda x, shape, p, q, gen: _rand.normal(gen, shape, x.dtype, p, q, x.flags.c_contiguous), True)


def bernoulli(a, p=None, *, generator=None):
    """torch.bernoulli: 1 where a uniform draw falls below each probability in `a` (or below p everywhere), else
    0, in a's dtype; no gradient flows back (BernoulliBackward0 gives zeros)."""
    gen = generator or _rand.default_generator
    if p is not None:
        _check_probability(p)            # (PyTorch's: empty_like(a).bernoulli_(p))
        return _not_implemented(make(_rand.bernoulli(gen, a._data.shape, p).astype(a._data.dtype)), a,
                                'aten::bernoulli.p')
    probs = a._data
    if probs.dtype.kind != 'f':
        raise NotImplementedError('"bernoulli_tensor_cpu_p_" not implemented for \'%s\'' % a.dtype.legacy)
    if ((probs < 0) | (probs > 1)).any():
        raise RuntimeError('Expected p_in >= 0 && p_in <= 1 to be true, but got false.  (Could this error message be '
                           'improved?  If so, please report an enhancement request to PyTorch.)')
    return _attach(make(_rand.bernoulli_of(gen, probs).astype(probs.dtype)), BernoulliBackward0, (a,))


def _check_probability(p):
    """bernoulli_'s check of a number p (printed as C++ prints a double)."""
    if not 0 <= p <= 1:
        raise RuntimeError('bernoulli_ expects p to be in [0, 1], but got p=%g' % p)


class BernoulliBackward0(ZeroBackward0):
    pass


def bernoulli_(a, p=0.5, *, generator=None):
    """Each element 1 with probability p (a number, or a tensor of them broadcast to a's shape), else 0, in place.
    Recorded as PyTorch does: BernoulliBackward2 (p a number) or BernoulliBackward1 (p a tensor, an edge to it too),
    both giving zero gradients."""
    gen = generator or _rand.default_generator
    if isinstance(p, Tensor):
        return _inplace(a, _bernoulli_tensor, p, gen)
    _check_inplace(a)                   # (autograd's checks first, then p's)
    _check_probability(p)
    x = a._data                         # (a's layout, before _inplace copies it: the numbers follow its memory)
    return _inplace(a, lambda t: _attach(make(_drawn(x, lambda shape: _rand.bernoulli(gen, shape, p)).astype(x.dtype)),
                                         BernoulliBackward2, (t,)))


def _bernoulli_tensor(a, p, gen):
    with ag.no_grad():
        probs = expand(p, a._data.shape)._data                # (PyTorch's expand error for a p that does not fit)
    if ((probs < 0) | (probs > 1)).any():
        raise RuntimeError('Expected p_in >= 0 && p_in <= 1 to be true, but got false.  (Could this error message be '
                           'improved?  If so, please report an enhancement request to PyTorch.)')
    out = make(_rand.bernoulli_of(gen, probs).astype(a._data.dtype))
    return _attach(out, BernoulliBackward1, (a, p))


class BernoulliBackward2(ZeroBackward0):
    pass


class BernoulliBackward1(Node):
    def apply(self, g):
        return (_zeros_like(g) if self.needs(0) else None, _zeros_like(g) if self.needs(1) else None)


def _multinomial(pos):
    """torch.multinomial (pos = 2) and Tensor.multinomial (pos = 1, the position PyTorch's errors name)."""
    def multinomial(input, *args, generator=None, out=None, **kwargs):
        """Indices drawn from each row of `input` (unnormalised probabilities): num_samples per row, int64, no
        grad_fn. The numbers are PyTorch's for the same generator state (see _random.multinomial)."""
        if not isinstance(input, Tensor):
            raise TypeError("multinomial(): argument 'input' (position 1) must be Tensor, not %s"
                            % _parser_type(input))
        given = dict(zip(('num_samples', 'replacement'), args))
        where = {name: ' (position %d)' % (pos + i) for i, name in enumerate(given)}   # (keywords have none)
        given.update(kwargs)
        if 'num_samples' not in given:
            raise TypeError('multinomial() missing 1 required positional arguments: "num_samples"')
        num_samples, replacement = given['num_samples'], given.get('replacement', False)
        if isinstance(num_samples, Tensor) and num_samples._data.size == 1 and num_samples._data.dtype.kind in 'iub':
            num_samples = builtins.int(num_samples._data.item())
        if isinstance(num_samples, builtins.bool) or not isinstance(num_samples, (builtins.int, np.integer)):
            raise TypeError("multinomial(): argument 'num_samples'%s must be int, not %s"
                            % (where.get('num_samples', ''), type(num_samples).__name__))
        if not isinstance(replacement, (builtins.bool, np.bool_)):
            raise TypeError("multinomial(): argument 'replacement'%s must be bool, not %s"
                            % (where.get('replacement', ''), type(replacement).__name__))
        if generator is not None and not isinstance(generator, _rand.Generator):
            raise TypeError("multinomial(): argument 'generator' must be torch.Generator, not %s"
                            % type(generator).__name__)
        n, p = builtins.int(num_samples), input._data
        # PyTorch's checks, in its order
        if not 1 <= p.ndim <= 2:
            raise RuntimeError('prob_dist must be 1 or 2 dim')
        if p.dtype.kind != 'f':
            raise RuntimeError('multinomial only supports floating-point dtypes for input, got: %s'
                               % input.dtype.legacy)
        if out is not None and out.dtype != dt.int64:
            raise RuntimeError('multinomial expects Long tensor out, got: %s' % out.dtype.legacy)
        if n <= 0:
            raise RuntimeError('cannot sample n_sample <= 0 samples')
        if not replacement and n > p.shape[-1]:
            raise RuntimeError('cannot sample n_sample > prob_dist.size(-1) samples without replacement')
        rows = p.reshape(1, -1) if p.ndim == 1 else p
        shape = (n,) if p.ndim == 1 else (p.shape[0], n)
        if rows.shape[0] == 0:
            data = np.zeros(shape, np.int64)
        else:
            if not replacement or n == 1:           # (the exponential race: checked over the whole tensor first)
                if p.size == 0:
                    raise RuntimeError('aminmax(): cannot compute aminmax over an empty dimension as the operation '
                                       'has no identity.')
                if not (p.max() < np.inf and p.min() >= 0):
                    raise RuntimeError('probability tensor contains either `inf`, `nan` or element < 0')
                if (rows.sum(axis=1) == 0).any():
                    raise RuntimeError('invalid multinomial distribution (sum of probabilities <= 0)')
            gen = generator or _rand.default_generator
            data = _rand.multinomial(gen, rows, n, builtins.bool(replacement)).reshape(shape)
        if out is not None:
            out._data = data
            bump(out)
            return out
        return make(data)
    return multinomial


multinomial = _multinomial(2)


def normal_of(mean, std, generator=None):
    """torch.normal with a tensor mean and / or std: one number from N(mean, std) per element of their broadcast
    shape, in their dtype. NormalBackward1 (tensor mean), 2 (tensor std), 3 (both): the gradients are zero."""
    ts = isinstance(std, Tensor)
    tensors = [t for t in (mean, std) if isinstance(t, Tensor)]
    d = dt.result_type(*tensors) if builtins.len(tensors) > 1 else tensors[0].dtype
    if not d.is_floating_point:
        raise NotImplementedError('"normal_kernel_cpu" not implemented for \'%s\'' % d.legacy)
    m, s = (x._data if isinstance(x, Tensor) else x for x in (mean, std))
    if np.any(np.asarray(s) < 0):
        raise RuntimeError('normal expects all elements of std >= 0.0' if ts else
                           'normal expects std >= 0.0, but found std %g' % std)
    if builtins.len(tensors) > 1:
        _check_broadcast(m.shape, s.shape)
    shape = np.broadcast_shapes(np.shape(m), np.shape(s))
    gen = generator or _rand.default_generator
    # PyTorch's result is like the mean (the std when the mean is a number): normal_(0, std) then + mean, or
    # normal_(0, 1) then * std and + mean, each step in place in that dtype
    if not ts:
        d = mean.dtype
        out = make((_rand.normal(gen, shape, d.np, 0.0, std) + m).astype(d.np))
    else:
        d = mean.dtype if isinstance(mean, Tensor) else d
        z = (_rand.normal(gen, shape, d.np) * s).astype(d.np)
        out = make((z + np.asarray(m, d.np)).astype(d.np))
    if not ts:
        return _attach(out, NormalBackward1, (mean,), {'mean_sym_sizes': mean._data.shape})
    if not isinstance(mean, Tensor):
        return _attach(out, NormalBackward2, (std,), {'std_sym_sizes': std._data.shape})
    return _attach(out, NormalBackward3, (mean, std), {'mean_sym_sizes': mean._data.shape,
                                                        'std_sym_sizes': std._data.shape})


class NormalBackward1(Node):
    def apply(self, g):
        return (make(np.zeros(self._saved['mean_sym_sizes'], g._data.dtype)),)


class NormalBackward2(Node):
    def apply(self, g):
        return (make(np.zeros(self._saved['std_sym_sizes'], g._data.dtype)),)


class NormalBackward3(Node):
    def apply(self, g):
        return tuple(make(np.zeros(self._saved[k], g._data.dtype)) if self.needs(i) else None
                     for i, k in enumerate(('mean_sym_sizes', 'std_sym_sizes')))


def copy_(a, *args, **kwargs):
    if len(args) != 1 or kwargs:
        if len(args) != 2 or kwargs or type(args[1]) is not builtins.bool:   # (PyTorch's parser words the errors)
            _argparse.parser('copy_', False).check(args, kwargs)
        kwargs = dict(zip(('other', 'non_blocking'), args), **kwargs)
        src = kwargs['other']
    else:
        src = args[0]
    if not isinstance(src, (Tensor,) + _Number):
        raise TypeError("copy_(): argument 'other' (position 1) must be Tensor, not %s" % _parser_type(src))
    return _inplace(a, _copy, src, shared_ok=src is a or isinstance(src, Tensor) and _same_data(a, src))


def _same_data(a, b):
    """Whether b shows exactly a's elements (memory, sizes, strides and dtype): PyTorch's copy_ skips copying such a
    tensor into a (so it has no overlap to refuse)."""
    ad, bd = a._data, b._data
    return (ad.dtype == bd.dtype and ad.shape == bd.shape and ad.strides == bd.strides
            and ad.__array_interface__['data'][0] == bd.__array_interface__['data'][0])


# The names mul and add save, given at once: their inlined record() does not call _describe
ag._describe(MulBackward0, {'other': None, 'self': None})
ag._describe(AddBackward0, {'alpha': 1})
ag._describe(ClampBackward1, {'max': 0, 'min': 0, 'self': None})     # (optional numbers: no _raw_saved_min / max)
