"""The op table, part 12c: the connectionist temporal classification loss (speech and handwriting recognition
tutorials): torch.ctc_loss / F.ctc_loss / nn.CTCLoss.

As in PyTorch 2.13: ctc_loss is composite (CtcLossBackward0 for ATen's _ctc_loss, then torch.where for zero_infinity,
division by the target lengths and mean, or sum); _ctc_loss runs the forward recursion of Graves et al. over the
blank-extended targets in log space, keeping log_alpha, and its backward runs the backward recursion for log_beta and
gives exp(log_probs) - exp(log(sum alpha * beta) + nll - log_probs), the gradient PyTorch's CPU kernel gives.
"""
import operator

import numpy as np

from . import _argparse
from ._autograd import Node, SavedTensor, pack_outputs
from ._ops import _attach, _not_implemented, _out
from ._tensor import Tensor, make

_SIGNATURES = ['ctc_loss(Tensor log_probs, Tensor targets, IntArrayRef input_lengths, IntArrayRef target_lengths, '
               'int64_t blank=0, int64_t reduction=at::Reduction::Mean, bool zero_infinity=False)',
               'ctc_loss(Tensor log_probs, Tensor targets, Tensor input_lengths, Tensor target_lengths, '
               'int64_t blank=0, int64_t reduction=at::Reduction::Mean, bool zero_infinity=False)']
_WHERE = ' (while checking arguments for ctc_loss_allocate_outputs)'


def ctc_loss(log_probs, targets, input_lengths, target_lengths, blank=0, reduction=1, zero_infinity=False):
    """torch.ctc_loss: the negative log likelihood of each target sequence under the per-step label distributions
    log_probs (T, N, C), or (T, C) unbatched; reduced by the mean of losses divided by the target lengths (1),
    summed (2) or not (0)."""
    _argparse.signature_parser(*_SIGNATURES).check(
        (log_probs, targets, input_lengths, target_lengths, blank, reduction, zero_infinity), {})
    as_tensors = isinstance(input_lengths, Tensor)
    if as_tensors:
        for lengths, what in ((input_lengths, 'input_lengths'), (target_lengths, 'target_lengths')):
            if lengths._data.dtype.kind not in 'iub':
                raise RuntimeError('%s must be integral' % what)
        ilens = [int(v) for v in input_lengths._data.reshape(-1)]
        tlens = [int(v) for v in target_lengths._data.reshape(-1)]
    else:
        ilens, tlens = [operator.index(v) for v in input_lengths], [operator.index(v) for v in target_lengths]
    batched = log_probs.dim() == 3
    lp = log_probs if batched else log_probs.unsqueeze(1)
    res = _ctc_loss(lp, targets, ilens, tlens, operator.index(blank), bool(zero_infinity))
    if zero_infinity:
        from ._ops_nn import where
        res = where(res == float('inf'), make(np.zeros((), res._data.dtype)), res)
    if reduction == 1:
        lengths = target_lengths.clamp_min(1) if as_tensors else \
            make(np.maximum(np.array(tlens, res._data.dtype).reshape(-1), 1))
        return (res / lengths).mean()
    if reduction == 2:
        return res.sum()
    return res if batched else res.squeeze(0)


def _prime(targets, offset, stride, s, blank):
    """The s-th label of the blank-extended target: blank, t0, blank, t1, ..., blank."""
    return blank if s % 2 == 0 else int(targets[offset + stride * ((s - 1) // 2)])


def _ctc_loss(log_probs, targets, ilens, tlens, blank, zero_infinity):
    """ATen's _ctc_loss (CtcLossBackward0): (neg_log_likelihood (N,), log_alpha (N, T, 2 * max target + 1))."""
    if log_probs._data.dtype.kind != 'f' or log_probs._data.dtype == np.float16:     # (the dispatch: first)
        raise NotImplementedError('"ctc_loss_cpu" not implemented for \'%s\'' % log_probs.dtype.legacy)
    targets_long = targets if targets.dtype.legacy == 'Long' else make(targets._data.astype(np.int64))
    if log_probs.dim() != 3:
        raise RuntimeError("Expected 3-dimensional tensor, but got %d-dimensional tensor for argument #1 'log_probs'"
                           % log_probs.dim() + _WHERE)
    if not 1 <= targets.dim() <= 2:
        raise RuntimeError("Expected 1 to 2 dimensions, but got %d-dimensional tensor for argument #2 'targets'"
                           % targets.dim() + _WHERE)
    steps, batch, labels = log_probs._data.shape
    if not 0 <= blank < labels:
        raise RuntimeError('blank must be in label range')
    if len(ilens) != batch:
        raise RuntimeError('input_lengths must be of size batch_size')
    if len(tlens) != batch:
        raise RuntimeError('target_lengths must be of size batch_size')
    tg = targets_long._data
    for length in tlens:
        if length < 0:
            raise RuntimeError('Expected target_lengths to have value at least 0, but got value %d' % length + _WHERE)
    longest = max(tlens, default=0)
    if tg.ndim == 1:
        offsets, pos = [], 0
        for length in tlens:
            offsets.append(pos)
            pos += length
        if tg.shape[0] != pos:
            raise RuntimeError("Expected tensor to have size %d at dimension 0, but got size %d for argument #2 "
                               "'targets'" % (pos, tg.shape[0]) + _WHERE)
        flat, stride = tg, 1
    else:
        if tg.shape[0] != batch:
            raise RuntimeError("Expected tensor to have size %d at dimension 0, but got size %d for argument #2 "
                               "'targets'" % (batch, tg.shape[0]) + _WHERE)
        if tg.shape[1] < longest:
            raise RuntimeError("Expected tensor to have size at least %d at dimension 1, but got size %d for argument "
                               "#2 'targets'" % (longest, tg.shape[1]) + _WHERE)
        offsets, flat, stride = [b * tg.shape[1] for b in range(batch)], np.ascontiguousarray(tg).reshape(-1), 1
    for length in ilens:
        if length < 0:
            raise RuntimeError('Expected input_lengths to have value at least 0, but got value %d' % length + _WHERE)
        if length > steps:
            raise RuntimeError('Expected input_lengths to have value at most %d, but got value %d' % (steps, length)
                               + _WHERE)
    x = log_probs._data
    dt = x.dtype.type
    neginf = dt(-np.inf)
    alpha = np.full((batch, steps, 2 * longest + 1), neginf, x.dtype)
    nll = np.empty(batch, x.dtype)
    primes = []
    for b in range(batch):
        tl, il = tlens[b], ilens[b]
        prime = np.array([_prime(flat, offsets[b], stride, s, blank) for s in range(2 * tl + 1)], np.int64)
        primes.append(prime)
        if il == 0:
            nll[b] = -(dt(0) if tl == 0 else neginf)
            continue
        lp = x[:, b]
        alpha[b, 0, 0] = lp[0, blank]
        if tl > 0:
            alpha[b, 0, 1] = lp[0, prime[1]]
        skip = np.zeros(2 * tl + 1, bool)                       # (s - 2 allowed: a label unlike the one before it)
        skip[2:] = prime[:-2] != prime[2:]
        for t in range(1, il):
            prev = alpha[b, t - 1, :2 * tl + 1]
            la1 = prev
            la2 = np.concatenate([[neginf], prev[:-1]])
            la3 = np.where(skip, np.concatenate([[neginf, neginf], prev[:-2]])[:2 * tl + 1], neginf)
            top = np.maximum(np.maximum(la1, la2), la3)
            top = np.where(top == neginf, dt(0), top)
            with np.errstate(invalid='ignore'):
                alpha[b, t, :2 * tl + 1] = (np.log(np.exp(la1 - top) + np.exp(la2 - top) + np.exp(la3 - top)) + top
                                            + lp[t, prime])
        if tl == 0:
            nll[b] = -alpha[b, il - 1, 0]
        else:
            l1, l2 = alpha[b, il - 1, 2 * tl], alpha[b, il - 1, 2 * tl - 1]
            m = max(l1, l2)
            m = dt(0) if m == neginf else m
            nll[b] = -(np.log(np.exp(l1 - m) + np.exp(l2 - m)) + m)
    out = _out(nll, log_probs.dtype)
    saved = {'blank': blank, 'input_lengths': tuple(ilens), 'log_probs': SavedTensor(log_probs), 'result0': None,
             'result1': SavedTensor(make(alpha)), 'target_lengths': tuple(tlens),
             'targets': SavedTensor(targets_long), 'zero_infinity': zero_infinity}
    _attach(out, CtcLossBackward0, (log_probs,), saved)
    if out._grad_fn is not None:
        saved['result0'] = SavedTensor(out, is_output=True)
        pack_outputs(saved)
        out._grad_fn._primes = primes
    return out


class CtcLossBackward0(Node):
    op = '_ctc_loss_backward'

    def apply(self, g):
        s = self._saved
        log_probs, result0 = self.saved('log_probs'), self.saved('result0')
        x, alpha, nll = log_probs._data, self.saved('result1')._data, result0._data
        dt = x.dtype.type
        neginf = dt(-np.inf)
        steps, batch, labels = x.shape
        grad = np.full(x.shape, neginf, x.dtype)
        gout = g._data.reshape(-1)
        for b in range(batch):
            tl, il, prime = s['target_lengths'][b], s['input_lengths'][b], self._primes[b]
            if s['zero_infinity'] and nll[b] == np.inf:
                grad[:, b] = 0
                continue
            lp, ga, la = x[:, b], grad[:, b], alpha[b]
            beta = np.full((steps, 2 * tl + 1), neginf, x.dtype)
            if il > 0:
                beta[il - 1, 2 * tl] = lp[il - 1, s['blank']]
                ga[il - 1, s['blank']] = la[il - 1, 2 * tl] + beta[il - 1, 2 * tl]
                if tl > 0:
                    c = prime[2 * tl - 1]
                    beta[il - 1, 2 * tl - 1] = lp[il - 1, c]
                    ga[il - 1, c] = la[il - 1, 2 * tl - 1] + beta[il - 1, 2 * tl - 1]
            skip = np.zeros(2 * tl + 1, bool)                   # (s + 2 allowed: a label unlike the one after it)
            skip[:-2] = prime[2:] != prime[:-2]
            for t in range(il - 2, -1, -1):
                nxt = beta[t + 1]
                lb2 = np.concatenate([nxt[1:], [neginf]])
                lb3 = np.where(skip, np.concatenate([nxt[2:], [neginf, neginf]])[:2 * tl + 1], neginf)
                top = np.maximum(np.maximum(nxt, lb2), lb3)
                top = np.where(top == neginf, dt(0), top)
                with np.errstate(invalid='ignore'):
                    beta[t] = np.log(np.exp(nxt - top) + np.exp(lb2 - top) + np.exp(lb3 - top)) + top + lp[t, prime]
                both = la[t, :2 * tl + 1] + beta[t]
                for k in range(2 * tl, -1, -1):                 # (collected per label, "log+=", s descending)
                    c, lab = prime[k], both[k]
                    if ga[t, c] == neginf:
                        ga[t, c] = lab
                    else:
                        m = max(ga[t, c], lab)
                        ga[t, c] = np.log(np.exp(ga[t, c] - m) + np.exp(lab - m)) + m
            with np.errstate(invalid='ignore', over='ignore'):
                ga[:il] = (np.exp(lp[:il]) - np.exp(ga[:il] + nll[b] - lp[:il])) * gout[b]
            ga[il:] = 0
        # (no derivative of its own: with create_graph, PyTorch's NotImplemented node over what needs grad)
        return (_not_implemented(make(grad), (g, log_probs, result0), 'aten::_ctc_loss_backward'),)
