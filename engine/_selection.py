"""Which of several equal values topk and kthvalue report.

When values tie, PyTorch's CPU kernels report whichever copy their selection algorithm leaves in place: topk
runs the C++ standard library's nth_element + sort (or partial_sort when k is small against the dim), as built
by GCC's library, and kthvalue runs a median-of-three quickselect. A stable sort picks other copies, so for rows
where ties decide the answer the engine replays those algorithms step by step on (value, index) pairs. Rows
without such ties take numpy's vectorized path: any correct algorithm gives the same answer there.

Both orders put NaN above every number (numpy's order too)."""
import numpy as np


def _above(x, y):
    """x > y with NaN the largest (PyTorch's gt_or_nan)."""
    return x > y or (x != x and y == y)


def _below(x, y):
    """x < y with NaN the largest."""
    return x < y or (x == x and y != y)


# ---------------------------------------------------------- the standard library's algorithms (GCC's libstdc++)
# `a` is a list of (value, index) pairs, `before(u, v)` the order on values; all ranges are [lo, hi). Also
# torch.mode's std::sort and nanmedian's nth_element (_ops_stats), with before = operator.lt.

def _insertion_sort(a, lo, hi, before, guarded=True):
    for i in range(lo + 1 if guarded else lo, hi):
        item = a[i]
        if guarded and before(item[0], a[lo][0]):
            a[lo + 1:i + 1] = a[lo:i]
            a[lo] = item
            continue
        j = i
        while before(item[0], a[j - 1][0]):
            a[j] = a[j - 1]
            j -= 1
        a[j] = item


def _partition_pivot(a, lo, hi, before):
    """Median of (lo+1, mid, hi-1) moved to lo, then Hoare's unguarded partition of [lo+1, hi) around it."""
    x, y, z = lo + 1, lo + (hi - lo) // 2, hi - 1
    if before(a[x][0], a[y][0]):
        m = y if before(a[y][0], a[z][0]) else z if before(a[x][0], a[z][0]) else x
    else:
        m = x if before(a[x][0], a[z][0]) else z if before(a[y][0], a[z][0]) else y
    a[lo], a[m] = a[m], a[lo]
    pivot, first, last = a[lo][0], lo + 1, hi
    while True:
        while first < hi and before(a[first][0], pivot):      # (bounded: NaNs order nothing under plain <)
            first += 1
        last -= 1
        while before(pivot, a[last][0]):
            last -= 1
        if first >= last:
            return first
        a[first], a[last] = a[last], a[first]
        first += 1


def _adjust_heap(a, lo, hole, n, item, before):
    top = child = hole
    while child < (n - 1) // 2:
        child = 2 * (child + 1)
        if before(a[lo + child][0], a[lo + child - 1][0]):
            child -= 1
        a[lo + hole] = a[lo + child]
        hole = child
    if n % 2 == 0 and child == (n - 2) // 2:
        child = 2 * (child + 1)
        a[lo + hole] = a[lo + child - 1]
        hole = child - 1
    parent = (hole - 1) // 2
    while hole > top and before(a[lo + parent][0], item[0]):
        a[lo + hole] = a[lo + parent]
        hole, parent = parent, (parent - 1) // 2
    a[lo + hole] = item


def _pop_heap(a, lo, hi, result, before):
    item = a[result]
    a[result] = a[lo]
    _adjust_heap(a, lo, 0, hi - lo, item, before)


def _heap_select(a, lo, mid, hi, before):
    n = mid - lo
    for parent in range((n - 2) // 2, -1, -1) if n >= 2 else ():
        _adjust_heap(a, lo, parent, n, a[lo + parent], before)
    for i in range(mid, hi):
        if before(a[i][0], a[lo][0]):
            _pop_heap(a, lo, mid, i, before)


def _partial_sort(a, lo, mid, hi, before):
    _heap_select(a, lo, mid, hi, before)
    while mid - lo > 1:
        mid -= 1
        _pop_heap(a, lo, mid, mid, before)


def _sort(a, lo, hi, before):
    """std::sort: introsort down to runs of 16, then insertion sort."""
    if hi - lo < 2:
        return
    stack = [(lo, hi, 2 * ((hi - lo).bit_length() - 1))]      # (std::sort's recursion, as a stack)
    while stack:
        l, h, depth = stack.pop()
        while h - l > 16:
            if depth == 0:
                _partial_sort(a, l, h, h, before)
                break
            depth -= 1
            cut = _partition_pivot(a, l, h, before)
            stack.append((cut, h, depth))
            h = cut
    if hi - lo > 16:
        _insertion_sort(a, lo, lo + 16, before)
        _insertion_sort(a, lo + 16, hi, before, guarded=False)
    else:
        _insertion_sort(a, lo, hi, before)


def _nth_element(a, nth, before):
    lo, hi = 0, len(a)
    if nth == hi:
        return
    depth = 2 * (hi.bit_length() - 1)
    while hi - lo > 3:
        if depth == 0:
            _heap_select(a, lo, nth + 1, hi, before)
            a[lo], a[nth] = a[nth], a[lo]
            return
        depth -= 1
        cut = _partition_pivot(a, lo, hi, before)
        if cut <= nth:
            lo = cut
        else:
            hi = cut
    _insertion_sort(a, lo, hi, before)


def _topk_row(values, k, largest, sorted):
    """The indices PyTorch's CPU topk reports for one row (a list of values)."""
    a = list(zip(values, range(len(values))))
    before = _above if largest else _below
    if k * 64 <= len(a):
        _partial_sort(a, 0, k, len(a), before)
    else:
        _nth_element(a, k - 1, before)
        if sorted:
            _sort(a, 0, k - 1, before)
    return [i for _, i in a[:k]]


def _kthvalue_row(values, k):
    """The index PyTorch's CPU kthvalue reports for the k-th smallest (from 0) of one row: its quickselect
    (median of three, Sedgewick's partition)."""
    v, idx = list(values), list(range(len(values)))

    def swap(i, j):
        v[i], v[j] = v[j], v[i]
        idx[i], idx[j] = idx[j], idx[i]

    lo, hi = 0, len(v) - 1
    while hi > lo:
        if hi == lo + 1:
            if _above(v[lo], v[hi]):
                swap(lo, hi)
            break
        swap((lo + hi) >> 1, lo + 1)
        if _above(v[lo + 1], v[hi]):
            swap(lo + 1, hi)
        if _above(v[lo], v[hi]):
            swap(lo, hi)
        if _above(v[lo + 1], v[lo]):
            swap(lo + 1, lo)
        i, j, pivot = lo + 1, hi, v[lo]
        while True:
            i += 1
            while _above(pivot, v[i]):
                i += 1
            j -= 1
            while _above(v[j], pivot):
                j -= 1
            if j < i:
                break
            swap(i, j)
        swap(lo, j)
        if j <= k:
            lo = i
        if j >= k:
            hi = j - 1
    return idx[k]


# ------------------------------------------------------------------------------------------------ on arrays

def _ties(x, order):
    """Per row (the last axis), whether neighbours in `order` hold equal values (NaNs equal each other)."""
    s = np.take_along_axis(x, order, -1)
    same = s[..., 1:] == s[..., :-1]
    if s.dtype.kind in 'fc':
        same |= np.isnan(s[..., 1:]) & np.isnan(s[..., :-1])
    return same


def topk_order(x, d, k, largest, sorted, order):
    """PyTorch's topk indices along axis d of x, given `order`, a stable sort of x along d (largest first when
    `largest`): its first k where no tie reaches into the top k, the replayed kernel's choice elsewhere."""
    n = x.shape[d]
    top = order[(slice(None),) * d + (slice(0, k),)]
    if not k or not x.size:
        return top
    replay_all = not sorted and k * 64 > n
    rows = np.moveaxis(x, d, -1).reshape(-1, n)
    ranked = np.moveaxis(order, d, -1).reshape(-1, n)
    if replay_all:
        which = np.ones(len(rows), bool)
    else:
        which = _ties(rows, ranked)[:, :k].any(-1)
    if not which.any():
        return top
    out = np.moveaxis(top, d, -1).reshape(-1, k).copy()
    for r in np.flatnonzero(which):
        out[r] = _topk_row(rows[r].tolist(), k, largest, sorted)
    shape = np.moveaxis(top, d, -1).shape
    return np.moveaxis(out.reshape(shape), -1, d)


def sort_order(x, d, descending, order):
    """PyTorch's indices of an unstable sort along axis d of x (std::sort of (value, index) pairs), given `order`, a
    stable sort of x along d: the same for rows of 16 or fewer (insertion sort) and rows without ties, the replayed
    std::sort elsewhere (up to rows of 2**14: longer ones, slow to replay in Python, keep the stable order)."""
    n = x.shape[d]
    if n <= 16 or n > 2 ** 14 or not x.size:
        return order
    rows = np.moveaxis(x, d, -1).reshape(-1, n)
    ranked = np.moveaxis(order, d, -1).reshape(-1, n)
    which = _ties(rows, ranked).any(-1)
    if not which.any():
        return order
    out = ranked.copy()
    before = _above if descending else _below
    for r in np.flatnonzero(which):
        a = list(zip(rows[r].tolist(), range(n)))
        _sort(a, 0, n, before)
        out[r] = [i for _, i in a]
    return np.moveaxis(out.reshape(np.moveaxis(order, d, -1).shape), -1, d)


def unique_runs(flat):
    """PyTorch's CPU unique of a 1-d float array where it matters which copies tie (NaNs, 0. and -0.): std::sort of
    (value, index) pairs, then each run of equal values (every NaN its own) as its first one. Returns (values,
    inverse, counts)."""
    n = flat.size
    a = list(zip(flat.tolist(), range(n)))
    _sort(a, 0, n, _below)
    order = np.array([i for _, i in a], np.intp)
    s = flat[order]
    new = np.ones(n, bool)
    new[1:] = s[1:] != s[:-1]
    inverse = np.empty(n, np.int64)
    inverse[order] = np.cumsum(new) - 1
    return s[new], inverse, np.diff(np.append(np.flatnonzero(new), n))


def kthvalue_order(x, d, k, order, at):
    """PyTorch's kthvalue index (k from 0) along axis d, given `order` (a stable ascending sort along d) and
    `at`, its k-th entries kept as a length-1 axis: kept where the k-th value has no equal neighbour."""
    n = x.shape[d]
    rows = np.moveaxis(x, d, -1).reshape(-1, n)
    same = _ties(rows, np.moveaxis(order, d, -1).reshape(-1, n))
    which = np.zeros(len(rows), bool)
    if k > 0:
        which |= same[:, k - 1]
    if k < n - 1:
        which |= same[:, k]
    if not which.any():
        return at
    out = np.moveaxis(at, d, -1).reshape(-1, 1).copy()
    for r in np.flatnonzero(which):
        out[r, 0] = _kthvalue_row(rows[r].tolist(), k)
    return np.moveaxis(out.reshape(np.moveaxis(at, d, -1).shape), -1, d)
