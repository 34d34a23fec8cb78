"""torch.nn.utils.rnn: padding and packing a batch of variable-length sequences (PackedSequence, which nn.RNN,
nn.LSTM and nn.GRU take as input; the packing ops themselves are in engine/_ops_rnn.py)."""
from collections import namedtuple
from collections.abc import Iterable

from ... import _dtypes as dt, _factories, _ops_rnn
from ..._tensor import Tensor, parser_type as _parser_type

PackedSequence_ = namedtuple('PackedSequence_', ['data', 'batch_sizes', 'sorted_indices', 'unsorted_indices'])


class PackedSequence(PackedSequence_):
    """A batch of sequences of different lengths, packed: data (the sequences' first elements, then their second
    ones, ...), batch_sizes (how many sequences have an element at each time step, int64), and the permutation that
    sorted the sequences by length (sorted_indices) with its inverse (unsorted_indices), or None."""
    __slots__ = ()

    def __new__(cls, data, batch_sizes=None, sorted_indices=None, unsorted_indices=None):
        return super().__new__(cls, *_init_args(data, batch_sizes, sorted_indices, unsorted_indices))

    def to(self, *args, **kwargs):
        """data converted as by Tensor.to (self when that changes nothing); the indices follow data's device."""
        data = self.data.to(*args, **kwargs)
        if data is self.data:
            return self
        return type(self)(data, self.batch_sizes, self.sorted_indices, self.unsorted_indices)

    def pin_memory(self):
        return self

    def cuda(self, *args, **kwargs):
        return self.to(*args, device='cuda', **kwargs)

    def cpu(self, *args, **kwargs):
        return self.to(*args, device='cpu', **kwargs)

    def double(self):
        return self.to(dtype=dt.float64)

    def float(self):
        return self.to(dtype=dt.float32)

    def half(self):
        return self.to(dtype=dt.float16)

    def long(self):
        return self.to(dtype=dt.int64)

    def int(self):
        return self.to(dtype=dt.int32)

    def short(self):
        return self.to(dtype=dt.int16)

    def char(self):
        return self.to(dtype=dt.int8)

    def byte(self):
        return self.to(dtype=dt.uint8)

    @property
    def is_cuda(self):
        return self.data.is_cuda

    def is_pinned(self):
        return False


PackedSequence_.__module__ = PackedSequence.__module__ = 'torch.nn.utils.rnn'     # (as type() shows it)


def _init_args(data, batch_sizes, sorted_indices, unsorted_indices):
    if unsorted_indices is None:
        unsorted_indices = invert_permutation(sorted_indices)
    if batch_sizes is not None:
        return data, batch_sizes, sorted_indices, unsorted_indices
    if not (isinstance(data, (list, tuple)) and len(data) == 2):
        raise AssertionError('Expected data to be a list or tuple of length 2')
    return data[0], data[1], sorted_indices, unsorted_indices


def invert_permutation(permutation):
    """The inverse of a permutation (a 1-d index tensor), None for None."""
    if permutation is None:
        return None
    output = _factories.empty_like(permutation)
    output.scatter_(0, permutation, _factories.arange(0, permutation.numel()))
    return output


def pack_padded_sequence(input, lengths, batch_first=False, enforce_sorted=True):
    """Pack a padded batch (T, B, *) (B, T, * with batch_first) of sequences of the given lengths; with
    enforce_sorted=False they are sorted by decreasing length first (the permutation is kept in the result)."""
    if not isinstance(lengths, Tensor):
        lengths = _factories.as_tensor(lengths, dtype=dt.int64, device='cpu')
    else:
        lengths = lengths.to(dtype=dt.int64)
    if enforce_sorted:
        sorted_indices = None
    else:
        lengths, sorted_indices = lengths.sort(descending=True)
        input = input.index_select(0 if batch_first else 1, sorted_indices)
    data, batch_sizes = _ops_rnn.pack_padded_sequence(input, lengths, batch_first)
    return PackedSequence(data, batch_sizes, sorted_indices, None)


def pad_packed_sequence(sequence, batch_first=False, padding_value=0.0, total_length=None):
    """The inverse of pack_padded_sequence: (padded tensor, int64 lengths), in the batch's original order; padded to
    total_length time steps if given."""
    max_seq_length = sequence.batch_sizes.size(0)
    if total_length is not None:
        if total_length < max_seq_length:
            raise ValueError('Expected total_length to be at least the length of the longest sequence in input, but '
                             'got total_length=%s and max sequence length being %s' % (total_length, max_seq_length))
        max_seq_length = total_length
    padded, lengths = _ops_rnn.pad_packed_sequence(sequence.data, sequence.batch_sizes, batch_first, padding_value,
                                                   max_seq_length)
    if sequence.unsorted_indices is not None:
        return (padded.index_select(0 if batch_first else 1, sequence.unsorted_indices),
                lengths[sequence.unsorted_indices])
    return padded, lengths


def pack_sequence(sequences, enforce_sorted=True):
    """pad_sequence then pack_padded_sequence of a list of sequences (L, *)."""
    lengths = _factories.as_tensor([v.size(0) for v in sequences])
    return pack_padded_sequence(pad_sequence(sequences), lengths, enforce_sorted=enforce_sorted)


def unpad_sequence(padded_sequences, lengths, batch_first=False):
    """The list of sequences in a padded batch, each cut to its length (transposes a (T, B, *) batch in place)."""
    if not batch_first:
        padded_sequences.transpose_(0, 1)
    idx = _factories.arange(padded_sequences.shape[1])
    return [seq[idx < length] for seq, length in zip(padded_sequences, lengths, strict=True)]


def unpack_sequence(packed_sequences):
    """The list of sequences in a PackedSequence."""
    padded, lengths = pad_packed_sequence(packed_sequences, batch_first=True)
    return unpad_sequence(padded, lengths, batch_first=True)


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
    for i, s in enumerate(sequences):                  # (torch._C._nn.pad_sequence's parser: a list of tensors)
        if not isinstance(s, Tensor):
            raise TypeError('expected Tensor as element %d in argument 0, but got %s' % (i, _parser_type(s)))
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
