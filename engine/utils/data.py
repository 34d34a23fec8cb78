"""torch.utils.data: datasets, samplers and a DataLoader that batches them, as tutorials use them
(`DataLoader(TensorDataset(X, y), batch_size, shuffle=True)` in Dive into Deep Learning). Random orders use PyTorch's
generator calls, so they are PyTorch's for the same seed. Worker processes (num_workers > 0) are emulated in this
process: each worker has its own random states, seeded as PyTorch seeds its processes, and worker info; batches go
to the workers in turn, as PyTorch hands them out."""
import bisect
import collections
import collections.abc
import copy
import dataclasses
import itertools
import math
import os
import random
import sys
import types
import warnings

import numpy as np

from .. import _autograd as ag, _dtypes as dt, _factories, _misc
from .._ops import stack, multinomial
from .._tensor import Tensor


class Dataset:
    """A sequence of samples: subclasses give __getitem__ (and usually __len__)."""
    __module__ = 'torch.utils.data.dataset'

    def __getitem__(self, index):
        raise NotImplementedError('Subclasses of Dataset should implement __getitem__.')

    def __add__(self, other):
        return ConcatDataset([self, other])


class IterableDataset(Dataset):
    """A stream of samples: subclasses give __iter__ (the DataLoader batches what it yields, in order)."""
    __module__ = 'torch.utils.data.dataset'

    def __iter__(self):
        raise NotImplementedError

    def __add__(self, other):
        return ChainDataset([self, other])


class TensorDataset(Dataset):
    """Sample i is (t[i] for each tensor t): the tensors share their first dimension."""
    __module__ = 'torch.utils.data.dataset'

    def __init__(self, *tensors):
        if any(tensors[0].size(0) != t.size(0) for t in tensors):
            raise AssertionError('Size mismatch between tensors')
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

    def __getitems__(self, indices):
        return _fetch(self.dataset, [self.indices[i] for i in indices])

    def __len__(self):
        return len(self.indices)


class ConcatDataset(Dataset):
    """The samples of several datasets one after the other."""
    __module__ = 'torch.utils.data.dataset'

    def __init__(self, datasets):
        self.datasets = list(datasets)
        if not self.datasets:
            raise AssertionError('datasets should not be an empty iterable')
        if any(isinstance(d, IterableDataset) for d in self.datasets):
            raise AssertionError('ConcatDataset does not support IterableDataset')
        self.cumulative_sizes = list(itertools.accumulate(len(d) for d in self.datasets))

    def __len__(self):
        return self.cumulative_sizes[-1]

    def __getitem__(self, idx):
        if idx < 0:
            if -idx > len(self):
                raise ValueError('absolute value of index should not exceed dataset length')
            idx = len(self) + idx
        which = bisect.bisect_right(self.cumulative_sizes, idx)
        return self.datasets[which][idx - (self.cumulative_sizes[which - 1] if which else 0)]


class ChainDataset(IterableDataset):
    """Several iterable datasets one after the other."""
    __module__ = 'torch.utils.data.dataset'

    def __init__(self, datasets):
        self.datasets = datasets

    def _checked(self):
        for d in self.datasets:
            if not isinstance(d, IterableDataset):
                raise AssertionError('ChainDataset only supports IterableDataset')
            yield d

    def __iter__(self):
        for d in self._checked():
            yield from d

    def __len__(self):
        return sum(len(d) for d in self._checked())


class StackDataset(Dataset):
    """Sample i is the tuple (or, given keywords, the dict) of sample i of each dataset."""
    __module__ = 'torch.utils.data.dataset'

    def __init__(self, *args, **kwargs):
        if args and kwargs:
            raise ValueError('Supported either ``tuple``- (via ``args``) or``dict``- (via ``kwargs``) like '
                             'input/output, but both types are given.')
        if not args and not kwargs:
            raise ValueError('At least one dataset should be passed')
        self.datasets = args or kwargs
        sizes = [len(d) for d in (args or kwargs.values())]
        if any(n != sizes[0] for n in sizes):
            raise ValueError('Size mismatch between datasets')
        self._length = sizes[0]

    def __getitem__(self, index):
        if isinstance(self.datasets, dict):
            return {k: d[index] for k, d in self.datasets.items()}
        return tuple(d[index] for d in self.datasets)

    def __len__(self):
        return self._length


def _fetch(dataset, indices):
    """The samples at indices, through the dataset's __getitems__ when it has one (as PyTorch's fetcher)."""
    if callable(getattr(dataset, '__getitems__', None)):
        return dataset.__getitems__(indices)
    return [dataset[i] for i in indices]


def random_split(dataset, lengths, generator=_factories.default_generator):
    """Subsets of a random permutation of the samples, of the given lengths (or fractions of the whole)."""
    n = len(dataset)
    if math.isclose(sum(lengths), 1) and sum(lengths) <= 1:
        for i, f in enumerate(lengths):
            if f < 0 or f > 1:
                raise ValueError(f"Fraction at index {i} is not between 0 and 1")
        counts = [int(math.floor(n * f)) for f in lengths]
        for i in range(n - sum(counts)):
            counts[i % len(counts)] += 1
        lengths = counts
        for i, k in enumerate(lengths):
            if k == 0:
                warnings.warn(f"Length of split at index {i} is 0. This might result in an empty dataset.",
                              stacklevel=2)
    if sum(lengths) != n:
        raise ValueError('Sum of input lengths does not equal the length of the input dataset!')
    from .. import randperm              # (torch.randperm, its parser's errors: float lengths fail here, as PyTorch's)
    order = randperm(sum(lengths), generator=generator).tolist()
    starts = np.cumsum([0] + list(lengths))
    return [Subset(dataset, order[s:s + k]) for s, k in zip(starts, lengths)]


_COLLATE_ERROR = 'default_collate: batch must contain tensors, numpy arrays, numbers, dicts or lists; found %s'


def collate(batch, *, collate_fn_map=None):
    """A list of samples as one batch, as PyTorch's collate: the function collate_fn_map gives for the first sample's
    class (or, in the map's order, a class it derives from), else mappings and sequences element by element, each
    rebuilt as its own class where that class takes it (a tuple becomes a list of batched elements)."""
    elem = batch[0]
    fns = collate_fn_map or {}
    fn = fns.get(type(elem)) or next((f for kind, f in fns.items() if isinstance(elem, kind)), None)
    if fn is not None:
        return fn(batch, collate_fn_map=collate_fn_map)

    def each(columns):
        return [collate(samples, collate_fn_map=collate_fn_map) for samples in columns]
    if isinstance(elem, collections.abc.Mapping):
        items = dict(zip(elem, each([b[k] for b in batch] for k in elem)))
        return _rebuilt(elem, items, collections.abc.MutableMapping, lambda out: out.update(items))
    if isinstance(elem, tuple) and hasattr(elem, '_fields'):            # a namedtuple keeps its class
        return type(elem)(*each(zip(*batch)))
    if isinstance(elem, collections.abc.Sequence):
        if any(len(b) != len(elem) for b in batch):
            raise RuntimeError('each element in list of batch should be of equal size')
        columns = each(zip(*batch))
        if isinstance(elem, tuple):
            return columns

        def fill(out):
            for i, column in enumerate(columns):
                out[i] = column
        return _rebuilt(elem, columns, collections.abc.MutableSequence, fill)
    raise TypeError(_COLLATE_ERROR % type(elem))


def _rebuilt(elem, items, mutable, fill):
    """items (a dict or a list) as elem's own class: a copy of elem filled in if that class is mutable, else the class
    called with them; the plain dict or list where the class refuses (a TypeError)."""
    try:
        if isinstance(elem, mutable):
            out = copy.copy(elem)
            fill(out)
            return out
        return type(elem)(items)
    except TypeError:
        return items


def _collate_numpy_array(batch, *, collate_fn_map=None):
    if batch[0].dtype.kind in 'OSU':                                   # (strings and objects: no tensor)
        raise TypeError(_COLLATE_ERROR % batch[0].dtype)
    return collate([_factories.as_tensor(b) for b in batch], collate_fn_map=collate_fn_map)


def _collate_tensors(batch, *, collate_fn_map=None):
    """Tensors stacked. A worker stacks them into shared memory (an out= argument), which refuses inputs that
    require grad."""
    if _worker_info is not None and ag.grad_enabled and any(t.requires_grad for t in batch):
        raise _factories.out_grad_error('stack')
    return stack(batch, 0)


default_collate_fn_map = {
    Tensor: _collate_tensors,
    np.ndarray: _collate_numpy_array,
    (np.bool_, np.number, np.object_): lambda batch, *, collate_fn_map=None: _factories.as_tensor(batch),  # (dtype
    float: lambda batch, *, collate_fn_map=None: _factories.tensor(batch, dtype=dt.float64),             # kept)
    int: lambda batch, *, collate_fn_map=None: _factories.tensor(batch),
    str: lambda batch, *, collate_fn_map=None: batch,
    bytes: lambda batch, *, collate_fn_map=None: batch,
}


def default_collate(batch):
    """A list of samples as one batch: tensors stacked, numbers as a tensor, tuples and dicts element by element
    (a tuple of tensors becomes a list of batched tensors)."""
    return collate(batch, collate_fn_map=default_collate_fn_map)


def default_convert(sample):
    """A sample given uncollated (batch_size=None): numpy arrays and scalars as tensors (not string or object
    ones), tuples as lists, the insides of dicts and lists converted, the rest as it is."""
    if isinstance(sample, (np.ndarray, np.number, np.bool_)):
        if isinstance(sample, np.ndarray) and sample.dtype.kind in 'OSUV':
            return sample
        return _factories.as_tensor(sample)
    if isinstance(sample, tuple):                                        # (a namedtuple keeps its type)
        items = [default_convert(x) for x in sample]
        return type(sample)(*items) if hasattr(sample, '_fields') else items
    if isinstance(sample, dict):
        items = {k: default_convert(v) for k, v in sample.items()}
        return _rebuilt(sample, items, collections.abc.MutableMapping, lambda out: out.update(items))
    if isinstance(sample, list):
        return [default_convert(x) for x in sample]
    return sample


def _int64_draw(generator):
    """torch.empty((), dtype=torch.int64).random_(generator=generator).item(): a 64-bit draw below 2**63."""
    return int(generator.random64(1)[0]) & ((1 << 63) - 1)


def _positive(name, value):
    if not isinstance(value, int) or isinstance(value, bool) or value <= 0:
        raise ValueError('%s should be a positive integer value, but got %s=%s' % (name, name, value))


class Sampler:
    """An iterable of dataset indices (or of lists of them, for a batch sampler)."""
    __module__ = 'torch.utils.data.sampler'

    def __init__(self, data_source=None):
        pass

    def __iter__(self):
        raise NotImplementedError


class SequentialSampler(Sampler):
    """0, 1, ..., len(data_source) - 1."""
    __module__ = 'torch.utils.data.sampler'

    def __init__(self, data_source):
        self.data_source = data_source

    def __iter__(self):
        return iter(range(len(self.data_source)))

    def __len__(self):
        return len(self.data_source)


class RandomSampler(Sampler):
    """Random indices: permutations (num_samples of them in all), or with replacement uniform draws 32 at a time;
    without a generator, each pass uses a new one seeded from the default generator."""
    __module__ = 'torch.utils.data.sampler'

    def __init__(self, data_source, replacement=False, num_samples=None, generator=None):
        self.data_source, self.replacement, self._num_samples, self.generator = (data_source, replacement,
                                                                                num_samples, generator)
        if not isinstance(replacement, bool):
            raise TypeError('replacement should be a boolean value, but got replacement=%s' % replacement)
        if not isinstance(self.num_samples, int) or self.num_samples <= 0:
            raise ValueError('num_samples should be a positive integer value, but got num_samples=%s'
                             % self.num_samples)

    @property
    def num_samples(self):
        return len(self.data_source) if self._num_samples is None else self._num_samples

    def __iter__(self):
        n = len(self.data_source)
        generator = self.generator
        if generator is None:
            generator = _factories.Generator().manual_seed(_int64_draw(_factories.default_generator))
        if self.replacement:
            for size in [32] * (self.num_samples // 32) + [self.num_samples % 32]:
                yield from _factories.randint(high=n, size=(size,), generator=generator).tolist()
        else:
            for _ in range(self.num_samples // n):
                yield from _factories.randperm(n, generator=generator).tolist()
            yield from _factories.randperm(n, generator=generator).tolist()[:self.num_samples % n]

    def __len__(self):
        return self.num_samples


class SubsetRandomSampler(Sampler):
    """The given indices in a random order."""
    __module__ = 'torch.utils.data.sampler'

    def __init__(self, indices, generator=None):
        self.indices, self.generator = indices, generator

    def __iter__(self):
        for i in _factories.randperm(len(self.indices), generator=self.generator).tolist():
            yield self.indices[i]

    def __len__(self):
        return len(self.indices)


class WeightedRandomSampler(Sampler):
    """num_samples indices drawn with probabilities proportional to weights (torch.multinomial)."""
    __module__ = 'torch.utils.data.sampler'

    def __init__(self, weights, num_samples, replacement=True, generator=None):
        _positive('num_samples', num_samples)
        if not isinstance(replacement, bool):
            raise ValueError('replacement should be a boolean value, but got replacement=%s' % replacement)
        weights = _factories.as_tensor(weights, dtype=dt.float64)
        if weights.dim() != 1:
            raise ValueError('weights should be a 1d sequence but given weights have shape %s'
                             % (tuple(weights.shape),))
        self.weights, self.num_samples, self.replacement, self.generator = weights, num_samples, replacement, generator

    def __iter__(self):
        yield from multinomial(self.weights, self.num_samples, self.replacement, generator=self.generator).tolist()

    def __len__(self):
        return self.num_samples


class BatchSampler(Sampler):
    """Lists of batch_size indices from a sampler (the last one shorter unless drop_last)."""
    __module__ = 'torch.utils.data.sampler'

    def __init__(self, sampler, batch_size, drop_last):
        _positive('batch_size', batch_size)
        if not isinstance(drop_last, bool):
            raise ValueError('drop_last should be a boolean value, but got drop_last=%s' % drop_last)
        self.sampler, self.batch_size, self.drop_last = sampler, batch_size, drop_last

    def __iter__(self):
        indices = iter(self.sampler)
        while True:
            batch = list(itertools.islice(indices, self.batch_size))
            if not batch or self.drop_last and len(batch) < self.batch_size:
                return
            yield batch

    def __len__(self):
        n = len(self.sampler)
        return n // self.batch_size if self.drop_last else -(-n // self.batch_size)


class DistributedSampler(Sampler):
    """The share of one process (rank) of num_replicas: the indices (shuffled by a generator seeded with seed +
    epoch) padded by repeating them to a multiple of num_replicas (or cut to one with drop_last), then every
    num_replicas-th from rank. This process has no process group: num_replicas and rank must be given."""
    __module__ = 'torch.utils.data.distributed'

    def __init__(self, dataset, num_replicas=None, rank=None, shuffle=True, seed=0, drop_last=False):
        if num_replicas is None or rank is None:
            raise ValueError('Default process group has not been initialized, please make sure to call '
                             'init_process_group.')
        if rank >= num_replicas or rank < 0:
            raise ValueError('Invalid rank %s, rank should be in the interval [0, %s]' % (rank, num_replicas - 1))
        self.dataset, self.num_replicas, self.rank, self.epoch, self.drop_last = (dataset, num_replicas, rank, 0,
                                                                                  drop_last)
        n = len(dataset)
        self.num_samples = math.ceil((n - num_replicas) / num_replicas if drop_last and n % num_replicas else
                                     n / num_replicas)
        self.total_size = self.num_samples * num_replicas
        self.shuffle, self.seed = shuffle, seed

    def __iter__(self):
        n = len(self.dataset)
        if self.shuffle:
            indices = _factories.randperm(n, generator=_factories.Generator().manual_seed(self.seed + self.epoch))
            indices = indices.tolist()
        else:
            indices = list(range(n))
        if self.drop_last:
            indices = indices[:self.total_size]
        else:
            pad = self.total_size - n
            indices += (indices * math.ceil(pad / n))[:pad] if pad > n else indices[:pad]
        return iter(indices[self.rank:self.total_size:self.num_replicas])

    def __len__(self):
        return self.num_samples

    def set_epoch(self, epoch):
        self.epoch = epoch


class _BaseDataLoaderIter:
    """What iter(loader) gives, whether or not workers load it: its len() is the loader's. Past the length an
    IterableDataset reported when len(loader) was last asked (before this pass began), each batch warns, as
    PyTorch's does (counting batches against the dataset's number of samples)."""
    __module__ = 'torch.utils.data.dataloader'

    def _start(self, loader):
        self._loader, self._num_yielded = loader, 0
        self._IterableDataset_len_called = loader.__dict__.get('_IterableDataset_len_called')

    def __iter__(self):
        return self

    def __next__(self):
        data = self._next_data()
        self._num_yielded += 1
        reported = self._IterableDataset_len_called
        if reported is not None and self._num_yielded > reported:
            message = ('Length of IterableDataset %s was reported to be %d(when accessing len(dataloader)), but %d '
                       'samples have been fetched. ' % (self._loader.dataset, reported, self._num_yielded))
            if self._loader.num_workers:
                message += ('For multiprocessing data-loading, this could be caused by not properly configuring the '
                            'IterableDataset replica at each worker. Please see '
                            'https://pytorch.org/docs/stable/data.html#torch.utils.data.IterableDataset for examples.')
            warnings.warn(message, stacklevel=2)
        return data

    def __len__(self):
        return len(self._loader)


class _SingleProcessDataLoaderIter(_BaseDataLoaderIter):
    __module__ = 'torch.utils.data.dataloader'

    def __init__(self, loader, batches):
        self._start(loader)
        self._batches = batches

    def _next_data(self):
        return next(self._batches)


class DataLoader:
    """Batches of `batch_size` samples of `dataset` (in the order of `sampler`: shuffled each epoch if asked; the
    last batch smaller unless drop_last), or the index lists of a batch_sampler, put together by collate_fn.
    batch_size=None gives the samples one by one (default_convert). An IterableDataset is batched as it streams."""
    __module__ = 'torch.utils.data.dataloader'

    def __init__(self, dataset, batch_size=1, shuffle=None, sampler=None, batch_sampler=None, num_workers=0,
                 collate_fn=None, pin_memory=False, drop_last=False, timeout=0, worker_init_fn=None,
                 multiprocessing_context=None, generator=None, *, prefetch_factor=None, persistent_workers=False,
                 pin_memory_device='', in_order=True):
        if num_workers < 0:
            raise ValueError('num_workers option should be non-negative; use num_workers=0 to disable '
                             'multiprocessing.')
        if timeout < 0:
            raise ValueError('timeout option should be non-negative')
        if num_workers == 0 and prefetch_factor is not None:
            raise ValueError('prefetch_factor option could only be specified in multiprocessing.let num_workers > 0 '
                             'to enable multiprocessing, otherwise set prefetch_factor to None.')
        if prefetch_factor is not None and prefetch_factor < 0:
            raise ValueError('prefetch_factor option should be non-negative')
        if persistent_workers and num_workers == 0:
            raise ValueError('persistent_workers option needs num_workers > 0')
        if isinstance(dataset, IterableDataset):
            for name, value in (('shuffle', shuffle if shuffle is True else None), ('sampler', sampler),
                                ('batch_sampler', batch_sampler)):
                if value is not None:
                    raise ValueError('DataLoader with IterableDataset: expected unspecified %s option, but got %s=%s'
                                     % (name, name, value))
        shuffle = bool(shuffle)
        if sampler is not None and shuffle:
            raise ValueError('sampler option is mutually exclusive with shuffle')
        if batch_sampler is not None:
            if batch_size != 1 or shuffle or sampler is not None or drop_last:
                raise ValueError('batch_sampler option is mutually exclusive with batch_size, shuffle, sampler, and '
                                 'drop_last')
            batch_size, drop_last = None, False
        elif batch_size is None and drop_last:
            raise ValueError('batch_size=None option disables auto-batching and is mutually exclusive with '
                             'drop_last')
        if sampler is None and not isinstance(dataset, IterableDataset):
            sampler = RandomSampler(dataset, generator=generator) if shuffle else SequentialSampler(dataset)
        if batch_size is not None and batch_sampler is None:
            batch_sampler = BatchSampler(sampler if sampler is not None else itertools.repeat(None), batch_size,
                                         drop_last)
        if multiprocessing_context is not None and num_workers == 0:
            raise ValueError('multiprocessing_context can only be used with multi-process loading (num_workers > 0), '
                             'but got num_workers=0')
        if isinstance(multiprocessing_context, str) and multiprocessing_context not in _START_METHODS:
            raise ValueError('multiprocessing_context option should specify a valid start method in %r, but got '
                             'multiprocessing_context=%r' % (_START_METHODS, multiprocessing_context))
        if multiprocessing_context is not None and not isinstance(multiprocessing_context, str) and not hasattr(
                multiprocessing_context, 'get_start_method'):
            raise TypeError('multiprocessing_context option should be a valid context object or a string specifying '
                            'the start method, but got multiprocessing_context=%r' % (multiprocessing_context,))
        self.dataset, self.batch_size, self.drop_last, self.generator = dataset, batch_size, drop_last, generator
        self.sampler, self.batch_sampler, self.num_workers = sampler, batch_sampler, num_workers
        self.collate_fn = collate_fn or (default_collate if batch_sampler is not None else default_convert)
        self.prefetch_factor = 2 if num_workers > 0 and prefetch_factor is None else prefetch_factor
        self.pin_memory, self.pin_memory_device, self.timeout = pin_memory, pin_memory_device, timeout
        self.worker_init_fn, self.multiprocessing_context, self.in_order = (worker_init_fn, multiprocessing_context,
                                                                            in_order)
        self.persistent_workers = persistent_workers
        self._initialized = True
        if num_workers:
            _check_worker_number(num_workers)

    def __setattr__(self, attr, val):
        if getattr(self, '_initialized', False) and attr in ('batch_size', 'batch_sampler', 'sampler', 'drop_last',
                                                              'dataset', 'persistent_workers'):
            raise ValueError(f"{attr} attribute should not be set after {type(self).__name__} is initialized")
        super().__setattr__(attr, val)

    def __iter__(self):
        if self.pin_memory:             # (no accelerator here: PyTorch warns as each pass starts)
            if self.pin_memory_device:
                warnings.warn("pin_memory_device is deprecated, the current accelerator will be used as the device,"
                              f"ignore pin_memory_device='{self.pin_memory_device}'.", stacklevel=2)
            warnings.warn("'pin_memory' argument is set as true but no accelerator is found, then device pinned "
                          "memory won't be used.", stacklevel=2)
        if self.num_workers:
            if self.persistent_workers and self.__dict__.get('_iterator') is not None:
                self._iterator._reset()
                return self._iterator
            _check_worker_number(self.num_workers)
            it = _MultiProcessingDataLoaderIter(self)
            if self.persistent_workers:
                object.__setattr__(self, '_iterator', it)
            return it
        sampler = self.batch_sampler if self.batch_sampler is not None else self.sampler
        indices = None if sampler is None else iter(sampler)
        _int64_draw(self.generator or _factories.default_generator)    # (the iterator's base seed for workers)
        if isinstance(self.dataset, IterableDataset):
            return _SingleProcessDataLoaderIter(self, self._streamed(iter(self.dataset), indices))
        return _SingleProcessDataLoaderIter(self, (self._fetch(i) for i in indices))

    def _fetch(self, index):
        """The batch (or sample) of a map-style dataset at the sampler's index."""
        return self.collate_fn(_fetch(self.dataset, index) if self.batch_sampler is not None else self.dataset[index])

    def _streamed(self, samples, indices):
        """Batches (or samples) of an IterableDataset, as PyTorch's _IterableDatasetFetcher takes them."""
        if self.batch_sampler is None:
            yield from map(self.collate_fn, samples)
            return
        for batch in indices:
            data = list(itertools.islice(samples, len(batch)))
            if not data or self.drop_last and len(data) < len(batch):
                return
            yield self.collate_fn(data)

    def __len__(self):
        if isinstance(self.dataset, IterableDataset):
            n = len(self.dataset)
            object.__setattr__(self, '_IterableDataset_len_called', n)     # (iterators started after warn past it)
            if self.batch_size is None:
                return n
            return n // self.batch_size if self.drop_last else -(-n // self.batch_size)
        return len(self.batch_sampler if self.batch_sampler is not None else self.sampler)


_START_METHODS = ['fork', 'spawn', 'forkserver']


def _check_worker_number(n):
    """PyTorch's warning for more workers than the CPUs this process may use."""
    cpus = len(os.sched_getaffinity(0)) if hasattr(os, 'sched_getaffinity') else os.cpu_count()
    if cpus is None or n > cpus:
        suggestion = ('Our suggested max number of worker in current system is %d%s, which is smaller than what this '
                      'DataLoader is going to create.' % (cpus, '' if hasattr(os, 'sched_getaffinity') else
                                                          ' (`cpuset` is not taken into account)')
                      if cpus is not None else
                      'DataLoader is not able to compute a suggested max number of worker in current system.')
        warnings.warn('This DataLoader will create %d worker processes in total. %s Please be aware that excessive '
                      'worker creation might get DataLoader running slow or even freeze, lower the worker number to '
                      'avoid potential slowness/freeze if necessary.' % (n, suggestion), stacklevel=3)


@dataclasses.dataclass(frozen=True)
class WorkerInfo:
    """What get_worker_info() tells code running in a DataLoader worker."""
    id: int
    num_workers: int
    seed: int
    dataset: object
    rng: object = None
    worker_method: str = 'multiprocessing'


WorkerInfo.__module__ = 'torch.utils.data._utils.worker'
WorkerInfo.__qualname__ = 'WorkerInfo'
_worker_info = None             # the worker running now, if any


def get_worker_info():
    """Information about the DataLoader worker this runs in (its id, the number of workers, its seed, its
    dataset), or None in the main process."""
    return _worker_info


def _numpy_seed(base_seed, worker_id):
    """The four 32-bit words PyTorch's worker seeds numpy's global generator with: the worker id and the base
    seed's two halves hashed and mixed as numpy's SeedSequence does (so numpy's numbers differ between workers)."""
    mask, shift = 0xFFFFFFFF, 16
    multiplier = [0x43B0D7E5]

    def hashed(value):
        value ^= multiplier[0]
        multiplier[0] = multiplier[0] * 0x931E8875 & mask
        value = value * multiplier[0] & mask
        return value ^ value >> shift

    def mixed(x, y):
        r = (0xCA01F9DD * x - 0x4973F715 * y) & mask
        return r ^ r >> shift

    pool = [hashed(v) for v in (worker_id, base_seed & mask, base_seed >> 32, 0)]
    for src in range(4):
        for dst in range(4):
            if src != dst:
                pool[dst] = mixed(pool[dst], hashed(pool[src]))
    words, b = [], 0x8B51F9DD
    for v in pool:
        v ^= b
        b = b * 0x58F38DED & mask
        v = v * b & mask
        words.append(v ^ v >> shift)
    return words


class _Worker:
    """One DataLoader worker process, emulated: its random states (torch's, Python's, numpy's) and its info are
    swapped in while it runs; for an IterableDataset, its own iterator."""

    def __init__(self, loader, worker_id, base_seed):
        self.loader, self.states, self.exhausted = loader, None, False
        self.info = WorkerInfo(worker_id, loader.num_workers, base_seed + worker_id, loader.dataset)
        self.run(self._start, base_seed)

    def _start(self, base_seed):
        """What PyTorch's worker does first: seed, run worker_init_fn, make its fetcher."""
        seed = self.info.seed
        random.seed(seed)
        _factories.manual_seed(seed)
        np.random.seed(_numpy_seed(base_seed, self.info.id))
        if self.loader.worker_init_fn is not None:
            self.loader.worker_init_fn(self.info.id)
        self.restart()

    def restart(self):
        """A new pass over an IterableDataset (each worker iterates its own copy)."""
        self.exhausted = False
        if isinstance(self.loader.dataset, IterableDataset):
            self.samples = iter(self.loader.dataset)

    def run(self, fn, *args):
        """fn(*args) as this worker: its random states, its info, one thread (PyTorch's workers set one); an
        exception it raises comes back as PyTorch's main process raises it."""
        global _worker_info
        outside = (_factories.get_rng_state(), random.getstate(), np.random.get_state(), _worker_info,
                   _misc.settings['num_threads'])
        if self.states is not None:
            torch_state, python_state, numpy_state = self.states
            _factories.set_rng_state(torch_state)
            random.setstate(python_state)
            np.random.set_state(numpy_state)
        _worker_info = self.info
        _misc.settings['num_threads'] = 1
        try:
            return fn(*args)
        except Exception as e:
            raise _in_worker(e, self.info.id) from None
        finally:
            self.states = (_factories.get_rng_state(), random.getstate(), np.random.get_state())
            _factories.set_rng_state(outside[0])
            random.setstate(outside[1])
            np.random.set_state(outside[2])
            _worker_info, _misc.settings['num_threads'] = outside[3:]

    def fetch(self, index):
        """The batch (or sample) for the sampler's index; for an IterableDataset the next one of this worker's
        iterator (_NO_DATA once it has run out, as PyTorch's worker reports)."""
        if not isinstance(self.loader.dataset, IterableDataset):
            return self.loader._fetch(index)
        if self.loader.batch_sampler is None:
            sample = next(self.samples, _NO_DATA)
            return sample if sample is _NO_DATA else self.loader.collate_fn(sample)
        data = list(itertools.islice(self.samples, len(index)))
        if not data or self.loader.drop_last and len(data) < len(index):
            return _NO_DATA
        return self.loader.collate_fn(data)


_NO_DATA = object()


class _KeyErrorMessage(str):
    def __repr__(self):         # (a KeyError prints its message's repr: this one prints as it is)
        return self


def _in_worker(error, worker_id):
    """The exception PyTorch's main process raises for one a worker raised: of the same class, its message
    naming the worker, then the worker's traceback (a RuntimeError where that class cannot be made so)."""
    import traceback
    message = 'Caught %s in DataLoader worker process %d.\nOriginal %s' % (
        type(error).__name__, worker_id, ''.join(traceback.format_exception(error)))
    try:
        if isinstance(error, KeyError):
            return type(error)(_KeyErrorMessage(message))
        if getattr(type(error), 'message', None):
            return type(error)(message=message)
        return type(error)(message)
    except Exception:
        return RuntimeError(message)


class _MultiProcessingDataLoaderIter(_BaseDataLoaderIter):
    """iter(loader) with workers: a base seed drawn from the main generator, the workers started (seeded, their
    worker_init_fn run), then batches handed to the workers in turn (a worker that ran out of an IterableDataset
    is passed over) and returned in order. The sampler is read ahead as PyTorch prefetches."""
    __module__ = 'torch.utils.data.dataloader'

    def __init__(self, loader):
        self._start(loader)
        sampler = loader.batch_sampler if loader.batch_sampler is not None else loader.sampler
        self._sampler = sampler if sampler is not None else itertools.repeat(None)
        self._sampler_iter = iter(self._sampler)
        self._base_seed = _int64_draw(loader.generator or _factories.default_generator)
        self._workers = [_Worker(loader, i, self._base_seed) for i in range(loader.num_workers)]
        self._prime()

    def _prime(self):
        self._turn = itertools.cycle(self._workers)
        self._indices = collections.deque(itertools.islice(self._sampler_iter,
                                                           self._loader.prefetch_factor * len(self._workers)))

    def _reset(self):
        """A new epoch of persistent workers: a new pass over the sampler, each worker's iterator made anew."""
        self._sampler_iter = iter(self._sampler)
        self._start(self._loader)
        for w in self._workers:
            w.run(w.restart)
        self._prime()

    def _next_data(self):
        while self._indices:
            worker = next(w for w in self._turn if not w.exhausted) if not all(
                w.exhausted for w in self._workers) else None
            if worker is None:
                break
            index = self._indices.popleft()
            data = worker.run(worker.fetch, index)
            self._indices.extend(itertools.islice(self._sampler_iter, 1))
            if data is _NO_DATA:
                worker.exhausted = True
                continue
            return data
        raise StopIteration


def _file_modules():
    """torch.utils.data.dataset, .dataloader and .sampler: the files PyTorch defines these classes in, importable
    (`from torch.utils.data.dataset import Dataset`)."""
    for obj in list(globals().values()):
        where = getattr(obj, '__module__', '') or ''
        if isinstance(obj, type) and where.startswith('torch.utils.data.'):
            name = __name__ + '.' + where.rsplit('.', 1)[1]
            module = sys.modules.get(name) or sys.modules.setdefault(name, types.ModuleType(name))
            setattr(module, obj.__name__, obj)
            globals()[name.rsplit('.', 1)[1]] = module
    for fn in (default_collate, default_convert, get_worker_info):      # (dataloader.py imports these)
        setattr(sys.modules[__name__ + '.dataloader'], fn.__name__, fn)
    sys.modules[__name__ + '.dataset'].random_split = random_split        # (defined in dataset.py)
    # torch.utils.data._utils.collate, where default_collate lives (custom collate functions import it from there)
    utils = sys.modules[__name__ + '._utils'] = types.ModuleType(__name__ + '._utils')
    utils.__path__ = []                                   # (a package: its collate module imports through it)
    utils.collate = sys.modules[utils.__name__ + '.collate'] = types.ModuleType(utils.__name__ + '.collate')
    for name in ('collate', 'default_collate', 'default_convert', 'default_collate_fn_map'):
        setattr(utils.collate, name, globals()[name])
    globals()['_utils'] = utils


__path__ = []           # (a package to the import system, which then finds those files)
_file_modules()
