"""The op table, part 7: torch.einsum as PyTorch 2.13 computes it, so that the graph and the errors are PyTorch's.

No op of its own: like aten's einsum, it parses the equation, aligns every operand to one order of labels (output
labels first, then the summed ones) with diagonal / unsqueeze / permute, then contracts the operands left to right,
each pair by `_sumproduct_pair` (permute, reshape, bmm, view, permute). The nodes a learner sees are therefore
PermuteBackward0, BmmBackward0, ViewBackward0, SumBackward1, MulBackward0, ... as in PyTorch (whose Python wrapper
takes this path when opt_einsum is not installed, or for two operands or fewer).
"""
import string

from ._tensor import Tensor, parser_type

__all__ = ['einsum']

_LETTERS = 26
_ELLIPSIS = 2 * _LETTERS       # (the label of "..."; labels 0-25 are 'A'-'Z', 26-51 'a'-'z')


def _subscript(c):
    return ord(c) - ord('A') if c.isupper() else ord(c) - ord('a') + _LETTERS


def _letter(s):
    return chr(ord('A') + s) if s < _LETTERS else chr(ord('a') + s - _LETTERS)


def einsum(*args):
    """torch.einsum(equation, *operands), also with the operands in one list, or in the sublist format
    einsum(op1, [0, 1], op2, [1, 2], [0, 2])."""
    if len(args) < 2:
        raise ValueError('einsum(): must specify the equation string and at least one operand, or at least one '
                         'operand and its subscripts list')
    if isinstance(args[0], Tensor):
        def subscripts(sub):
            return ''.join(_sublist_letter(n) for n in sub)
        equation = ','.join(subscripts(sub) for sub in args[1::2])
        if len(args) % 2:
            equation += '->' + subscripts(args[-1])
            operands = args[:-1:2]
        else:
            operands = args[::2]
    else:
        equation, operands = args[0], args[1:]
    if len(operands) == 1 and isinstance(operands[0], (list, tuple)):
        operands = operands[0]
    return _einsum(equation, list(operands))


def _sublist_letter(n):
    if n is Ellipsis:
        return '...'
    if 0 <= n < 2 * _LETTERS:
        return _letter(n)
    raise ValueError('einsum(): subscript in subscript list is not within the valid range [0, 52)')


def _parse_operands(lhs, n):
    """The labels of each of the n operands (ellipsis as _ELLIPSIS), with PyTorch's checks of the equation."""
    labels = [[] for _ in range(n)]
    ellipsis, op, i = False, 0, 0
    while i < len(lhs):
        c = lhs[i]
        if c == '.':
            if ellipsis:
                raise RuntimeError("einsum(): found '.' for operand %d for which an ellipsis was already found" % op)
            if not (i + 2 < len(lhs) and lhs[i + 1] == '.' and lhs[i + 2] == '.'):
                raise RuntimeError("einsum(): found '.' for operand %d that is not part of any ellipsis" % op)
            labels[op].append(_ELLIPSIS)
            ellipsis, i = True, i + 2
        elif c == ',':
            op += 1
            if op >= n:
                raise RuntimeError('einsum(): fewer operands were provided than specified in the equation')
            ellipsis = False
        elif c != ' ':
            if c not in string.ascii_letters:
                raise RuntimeError('einsum(): invalid subscript given at index %d in the equation string, subscripts '
                                   'must be in [a-zA-Z]' % i)
            labels[op].append(_subscript(c))
        i += 1
    if op != n - 1:
        raise RuntimeError('einsum(): more operands were provided than specified in the equation')
    return labels


def _einsum(equation, operands):
    for i, x in enumerate(operands):
        if not isinstance(x, Tensor):
            raise TypeError('expected Tensor as element %d in argument 1, but got %s' % (i, parser_type(x)))
    if not operands:
        raise RuntimeError('einsum(): must provide at least one operand')
    n = len(operands)
    arrow = equation.find('->')
    lhs = equation if arrow < 0 else equation[:arrow]
    op_labels = _parse_operands(lhs, n)

    # how often each label occurs, and how many dims the widest ellipsis covers
    count = [0] * _ELLIPSIS
    ell_dims = 0
    for i, (op, labels) in enumerate(zip(operands, op_labels)):
        named = len(labels) - labels.count(_ELLIPSIS)
        for s in labels:
            if s == _ELLIPSIS:
                ell_dims = max(ell_dims, op.dim() - named)
            else:
                count[s] += 1
        if _ELLIPSIS in labels and named > op.dim() or _ELLIPSIS not in labels and named != op.dim():
            raise RuntimeError('einsum(): the number of subscripts in the equation (%d) %s (%d) for operand %d%s' % (
                named, 'is more than the number of dimensions' if _ELLIPSIS in labels else
                'does not match the number of dimensions', op.dim(), i,
                '' if _ELLIPSIS in labels else ' and no ellipsis was given'))

    # the position of each label in the aligned order: output labels, then the ellipsis if summed, then the others
    position = [-1] * _ELLIPSIS
    ell_at, ell_out = 0, arrow < 0
    if arrow < 0:                       # implicit output: the ellipsis, then the labels seen once, in label order
        size = ell_dims
        for s in range(_ELLIPSIS):
            if count[s] == 1:
                position[s], size = size, size + 1
    else:
        size, rhs, i = 0, equation[arrow + 2:], 0
        while i < len(rhs):
            c = rhs[i]
            if c == '.':
                if ell_out:
                    raise RuntimeError("einsum(): found '.' for output but an ellipsis (...) was already found")
                if not (i + 2 < len(rhs) and rhs[i + 1] == '.' and rhs[i + 2] == '.'):
                    raise RuntimeError("einsum(): found '.' for output that is not part of any ellipsis (...)")
                ell_at, size, ell_out, i = size, size + ell_dims, True, i + 2
            elif c != ' ':
                if c not in string.ascii_letters:
                    raise RuntimeError('einsum(): invalid subscript given at index %d in the equation string, '
                                       'subscripts must be in [a-zA-Z]' % (len(lhs) + 2 + i))
                s = _subscript(c)
                if not count[s] or position[s] != -1:
                    raise RuntimeError('einsum(): output subscript %s %s' % (c, (
                        'appears more than once in the output' if position[s] != -1 else
                        'does not appear in the equation for any input operand')))
                position[s], size = size, size + 1
            i += 1
    out_dims = size
    if not ell_out:
        ell_at, size = size, size + ell_dims
    for s in range(_ELLIPSIS):
        if count[s] and position[s] == -1:
            position[s], size = size, size + 1

    seen = {}                          # the size of each label (and ellipsis dim) other than 1 met so far
    ops = [_aligned(i, op, labels, position, size, ell_at, ell_dims, seen)
           for i, (op, labels) in enumerate(zip(operands, op_labels))]
    # how many operands have each aligned dim with a size other than 1 (a dim is summed once only one has it left)
    counts = [sum(op.shape[d] != 1 for op in ops) for d in range(size)]
    while len(ops) > 1:
        a, b = ops.pop(0), ops.pop(0)
        sum_dims, a_sums, b_sums = [], [], []
        for d in range(out_dims, size):
            if a.shape[d] != 1 and b.shape[d] != 1:
                if a.shape[d] != b.shape[d]:
                    raise RuntimeError('non-broadcast dimensions must match')
                counts[d] -= 1
                if counts[d] == 1:
                    sum_dims.append(d)
                    counts[d] = 0
            elif counts[d] == 1:
                if a.shape[d] != 1:
                    a_sums.append(d)
                    counts[d] = 0
                elif b.shape[d] != 1:
                    b_sums.append(d)
                    counts[d] = 0
        if a_sums:
            a = a.sum(a_sums, True)
        if b_sums:
            b = b.sum(b_sums, True)
        ops.insert(0, _sumproduct_pair(a, b, sum_dims))
    result = ops[0]
    if size > out_dims:                # the summed dims: size 1 after a contraction (a view), else summed here
        return result.view(list(result.shape[:out_dims])) if n > 1 else result.sum(list(range(out_dims, size)))
    return result


def _aligned(i, op, labels, position, size, ell_at, ell_dims, sizes):
    """Operand i with one dim per aligned position: repeated labels as a diagonal, missing ones unsqueezed, then
    permuted into the aligned order; its sizes checked against those seen before (`sizes`, updated)."""
    perm = [-1] * size
    dim = 0
    for s in labels:
        if s == _ELLIPSIS:
            covered = op.dim() - (len(labels) - 1)
            for j in range(ell_dims - covered, ell_dims):
                n = op.shape[dim]
                if n != 1:
                    seen = sizes.get(('...', j), 1)
                    if seen != 1 and seen != n:
                        raise RuntimeError('einsum(): dimension %d covered by ellipsis in operand %dhas size %d which '
                                           'does not broadcast with previously seen ellipsis with size %d for the '
                                           'respective dimension' % (dim, i, n, seen))
                    sizes[('...', j)] = n
                perm[ell_at + j], dim = dim, dim + 1
        elif perm[position[s]] == -1:
            n = op.shape[dim]
            if n != 1:
                seen = sizes.get(s, 1)
                if seen != 1 and seen != n:
                    raise RuntimeError('einsum(): subscript %s has size %d for operand %d which does not broadcast '
                                       'with previously seen size %d' % (_letter(s), n, i, seen))
                sizes[s] = n
            perm[position[s]], dim = dim, dim + 1
        else:                                          # a repeated label: its diagonal, where the label first was
            prev = perm[position[s]]
            if op.shape[dim] != op.shape[prev]:
                raise RuntimeError("einsum(): subscript %s is repeated for operand %d but the sizes don't match, "
                                   "%d != %d" % (_letter(s), i, op.shape[dim], op.shape[prev]))
            op = op.diagonal(0, prev, dim).movedim(-1, prev)
    for k in range(size):
        if perm[k] == -1:
            op = op.unsqueeze(dim)
            perm[k], dim = dim, dim + 1
    return op.permute(perm)


def _sumproduct_pair(left, right, sum_dims):
    """(left * right).sum(sum_dims, keepdim=True) for aligned operands, by permute, reshape and one bmm (aten's
    sumproduct_pair): dims in both operands and the output are the batch, dims of one operand and the output that
    operand's matrix side, summed dims the inner one."""
    if left.dim() != right.dim():
        raise RuntimeError('number of dimensions must match')
    if not sum_dims:
        return left * right
    both, lo, ro = [], [], []
    both_size = lo_size = ro_size = sum_size = 1
    for i in range(left.dim()):
        sl, sr = left.shape[i] != 1, right.shape[i] != 1
        if i in sum_dims:
            if sl and sr:
                if left.shape[i] != right.shape[i]:
                    raise RuntimeError('non-broadcast dimensions must match')
                sum_size *= left.shape[i]
            elif sl:
                left = left.sum(i, True)
            elif sr:
                right = right.sum(i, True)
        elif sl and sr:
            if left.shape[i] != right.shape[i]:
                raise RuntimeError('non-broadcast dimensions must match')
            both.append(i)
            both_size *= left.shape[i]
        elif sl:
            lo.append(i)
            lo_size *= left.shape[i]
        else:
            ro.append(i)
            ro_size *= right.shape[i]
    if lo and ro and ro[-1] < lo[0]:     # (the right operand's dims come first in the output: bmm in that order)
        left, right, lo, ro, lo_size, ro_size = right, left, ro, lo, ro_size, lo_size
    out_size = [left.shape[d] for d in both + lo] + [1] * len(sum_dims) + [right.shape[d] for d in ro]
    order = both + lo + sum_dims + ro
    back = [0] * len(order)
    for k, d in enumerate(order):
        back[d] = k
    left = left.permute(order).reshape(both_size, lo_size, sum_size)
    right = right.permute(both + sum_dims + ro + lo).reshape(both_size, sum_size, ro_size)
    return left.bmm(right).view(out_size).permute(back)
