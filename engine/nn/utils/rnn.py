"""torch.nn.utils.rnn: padding a batch of variable-length sequences."""
from collections.abc import Iterable

from ... import _factories


def pad_sequence(sequences, batch_first=False, padding_value=0.0, padding_side='right'):
    """Stack sequences of different lengths (dim 0) into one tensor, padded with padding_value: (T, B, *), or
    (B, T, *) with batch_first. As ATen builds it: a tensor full of padding_value (sequences[0]'s dtype), each
    sequence copied into its slice (so the graph is a chain of CopySlices)."""
    if not isinstance(sequences, Iterable):
        raise RuntimeError('pad_sequence: Expected iterable for input sequences, but got arg of type: %s'
                           % type(sequences))
    sequences = tuple(sequences)
    if not sequences:
        raise RuntimeError('received an empty list of sequences')
    first = sequences[0]
    if first.dim() == 0:
        raise RuntimeError('ArrayRef: invalid slice, N = 1; size = 0')
    trailing = tuple(first.shape[1:])
    max_len = max(s.size(0) for s in sequences)
    dims = (len(sequences), max_len) if batch_first else (max_len, len(sequences))
    out = _factories.full(dims + trailing, padding_value, dtype=first.dtype)
    if padding_side not in ('left', 'right'):
        raise RuntimeError('Expected padding_side to be one of left or right, but got %s.' % padding_side)
    for i, seq in enumerate(sequences):
        length = seq.size(0)
        start = max_len - length if padding_side == 'left' else 0
        if batch_first:
            out.select(0, i).narrow(0, start, length).copy_(seq)
        else:
            out.narrow(0, start, length).select(1, i).copy_(seq)
    return out
