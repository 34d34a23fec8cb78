"""torch.utils.data: datasets and a DataLoader that batches them (in this process: no worker processes), as
tutorials use them (`DataLoader(TensorDataset(X, y), batch_size, shuffle=True)` in Dive into Deep Learning)."""
import itertools
import math
import numbers

import numpy as np

from .. import _dtypes as dt, _factories
from .._ops import stack
from .._tensor import Tensor


class Dataset:
    """A sequence of samples: subclasses give __getitem__ (and usually __len__)."""
    __module__ = 'torch.utils.data.dataset'

    def __getitem__(self, index):
        raise NotImplementedError('Subclasses of Dataset should implement __getitem__.')


class TensorDataset(Dataset):
    """Sample i is (t[i] for each tensor t): the tensors share their first dimension."""
    __module__ = 'torch.utils.data.dataset'

    def __init__(self, *tensors):
        assert all(tensors[0].size(0) == t.size(0) for t in tensors), 'Size mismatch between tensors'
        self.tensors = tensors

    def __getitem__(self, index):
        return tuple(t[index] for t in self.tensors)

    def __len__(self):
        return self.tensors[0].size(0)


class Subset(Dataset):
    """The samples of `dataset` at `indices`, in that order."""
    __module__ = 'torch.utils.data.dataset'

    def __init__(self, dataset, indices):
        self.dataset, self.indices = dataset, indices

    def __getitem__(self, index):
        if isinstance(index, list):
            return self.dataset[[self.indices[i] for i in index]]
        return self.dataset[self.indices[index]]

    def __len__(self):
        return len(self.indices)


def random_split(dataset, lengths, generator=None):
    """Subsets of a random permutation of the samples, of the given lengths (or fractions of the whole)."""
    n = len(dataset)
    if math.isclose(sum(lengths), 1) and sum(lengths) <= 1:
        counts = [int(math.floor(n * f)) for f in lengths]
        for i in range(n - sum(counts)):
            counts[i % len(counts)] += 1
        lengths = counts
    if sum(lengths) != n:
        raise ValueError('Sum of input lengths does not equal the length of the input dataset!')
    order = _factories.randperm(n).tolist()
    starts = np.cumsum([0] + list(lengths))
    return [Subset(dataset, order[s:s + k]) for s, k in zip(starts, lengths)]


def default_collate(batch):
    """A list of samples as one batch: tensors stacked, numbers as a tensor, tuples and dicts element by element
    (a tuple of tensors becomes a list of batched tensors)."""
    elem = batch[0]
    if isinstance(elem, Tensor):
        return stack(batch, 0)
    if isinstance(elem, np.ndarray):
        return stack([_factories.as_tensor(b) for b in batch], 0)
    if isinstance(elem, numbers.Integral):
        return _factories.tensor(batch)
    if isinstance(elem, float):
        return _factories.tensor(batch, dtype=dt.float64)
    if isinstance(elem, (str, bytes)):
        return batch
    if isinstance(elem, dict):
        return {k: default_collate([b[k] for b in batch]) for k in elem}
    if isinstance(elem, (tuple, list)):
        if any(len(b) != len(elem) for b in batch):
            raise RuntimeError('each element in list of batch should be of equal size')
        return [default_collate(samples) for samples in zip(*batch)]      # (strings stay as a tuple)
    raise TypeError('default_collate: batch must contain tensors, numpy arrays, numbers, dicts or lists; found %s'
                    % type(elem))


def default_convert(sample):
    """A sample given uncollated (batch_size=None): numpy arrays as tensors, tuples as lists, the rest as it is."""
    if isinstance(sample, np.ndarray):
        return _factories.as_tensor(sample)
    if isinstance(sample, tuple):
        return [default_convert(x) for x in sample]
    if isinstance(sample, dict):
        return {k: default_convert(v) for k, v in sample.items()}
    return sample


def _int64_draw(generator):
    """torch.empty((), dtype=torch.int64).random_(generator=generator).item(): a 64-bit draw below 2**63."""
    return int(generator.random64(1)[0]) & ((1 << 63) - 1)


class DataLoader:
    """Batches of `batch_size` samples of `dataset` (shuffled each epoch if asked; the last smaller unless
    drop_last), put together by collate_fn. batch_size=None gives the samples one by one (default_convert)."""
    __module__ = 'torch.utils.data.dataloader'

    def __init__(self, dataset, batch_size=1, shuffle=None, sampler=None, batch_sampler=None, num_workers=0,
                 collate_fn=None, pin_memory=False, drop_last=False, timeout=0, worker_init_fn=None,
                 multiprocessing_context=None, generator=None, *, prefetch_factor=None, persistent_workers=False,
                 pin_memory_device='', in_order=True):
        if sampler is not None and shuffle:
            raise ValueError('sampler option is mutually exclusive with shuffle')
        if batch_size is not None and (type(batch_size) is not int or batch_size <= 0):    # (BatchSampler's check)
            raise ValueError('batch_size should be a positive integer value, but got batch_size=%s' % batch_size)
        self.dataset, self.batch_size, self.drop_last = dataset, batch_size, drop_last
        self.shuffle, self.num_workers, self.generator = bool(shuffle), num_workers, generator
        self.collate_fn = collate_fn or (default_collate if batch_size is not None else default_convert)

    def _order(self):
        """The indices of one epoch, drawn as PyTorch's RandomSampler draws them: when the first is asked for, a
        permutation from a new generator seeded by the default one (or from the loader's own generator); at the
        end one more permutation, of which it takes none."""
        n = len(self.dataset)
        if not self.shuffle:
            yield from range(n)
            return
        generator = self.generator
        if generator is None:
            generator = _factories.Generator().manual_seed(_int64_draw(_factories.default_generator))
        yield from _factories.randperm(n, generator=generator).tolist()
        _factories.randperm(n, generator=generator)

    def __iter__(self):
        order = self._order()
        _int64_draw(self.generator or _factories.default_generator)    # (the iterator's base seed for workers)
        return self._batches(order)

    def _batches(self, order):
        if self.batch_size is None:
            for i in order:
                yield self.collate_fn(self.dataset[i])
            return
        while True:
            indices = list(itertools.islice(order, self.batch_size))
            if not indices or self.drop_last and len(indices) < self.batch_size:
                return
            yield self.collate_fn([self.dataset[i] for i in indices])

    def __len__(self):
        n = len(self.dataset)
        if self.batch_size is None:
            return n
        return n // self.batch_size if self.drop_last else -(-n // self.batch_size)
