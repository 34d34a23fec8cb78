"""The Tensor: values in a numpy array, a version counter, a view base, and autograd metadata.

The ops (arithmetic, shape ops, in-place ops...) are defined in `_ops.py`, which attaches them to Tensor.
"""
import copy
import enum
import operator
from collections import OrderedDict
from sys import getrefcount
import warnings
import weakref

import numpy as np

from . import _autograd as ag
from . import _dtypes as dt
from . import _memory_format
from ._autograd import counter, user_stacklevel


_warned = set()           # the messages warn_once showed (the playground's runner empties it for each run)


def warn_once(message, where, stacklevel=None):
    """A UserWarning PyTorch's C++ shows once per process (TORCH_WARN_ONCE), ending as PyTorch's does with the
    place in its sources that raised it (`where`); shown at the user's line (or `stacklevel` frames up)."""
    if message not in _warned:
        _warned.add(message)
        warnings.warn('%s (Triggered internally at /__w/pytorch/pytorch/%s.)' % (message, where), UserWarning,
                      stacklevel=user_stacklevel() if stacklevel is None else stacklevel + 1)


def keyword_only(name, args):
    """PyTorch's TypeError for positional arguments given to a method whose arguments are all keyword-only."""
    return TypeError('%s() takes 0 positional arguments but %d %s given'
                     % (name, len(args), 'was' if len(args) == 1 else 'were'))


def parser_type(x):
    """A value's type as PyTorch's argument parser names it: its C type's name (tp_name), the module's name before
    it but for builtins (numpy.ndarray, decimal.Decimal, torch.Size); a Python class's name alone (numpy's matrix,
    a Parameter or other subclass of Tensor: which is then no 'Tensor' where the parser matches names)."""
    t = type(x)
    if isinstance(x, Tensor):
        return 'Tensor' if t is Tensor else t.__name__
    if t.__module__ in ('torch', 'torch._C', 'torch.return_types'):          # (the engine's versions of C types)
        return t.__module__ + '.' + t.__name__
    return t.__name__ if t.__module__ == 'builtins' or t.__flags__ & _HEAP_TYPE else t.__module__ + '.' + t.__name__


_HEAP_TYPE = 1 << 9                 # Py_TPFLAGS_HEAPTYPE: a class made by a class statement


def invalid_arguments(fn, args, kwargs, signatures):
    """The TypeError of PyTorch's argument parser when no signature matches: the types given (the keywords last,
    in the order PyTorch's map of them walks), then the signatures (' * (...)' lines)."""
    from ._argparse import _keywords          # (_argparse imports this module)
    given = [parser_type(a) for a in args]
    keywords = ['%s=%s' % (k, parser_type(v)) for k, v in _keywords(kwargs)]
    got = ', '.join(given + keywords) + (', ' if keywords and not given else '')
    return TypeError('%s() received an invalid combination of arguments - got (%s), but expected one of:\n%s'
                     % (fn, got, signatures))


def unmatched(signature, args, kinds):
    """A ' * (...)' line of invalid_arguments for a signature the args do not fit: each arg's type, marked `!...!`
    where it is not an instance of its kind."""
    types = ', '.join(parser_type(a) if isinstance(a, k) else '!%s!' % parser_type(a) for a, k in zip(args, kinds))
    return (" * (%s)\n      didn't match because some of the arguments have invalid types: (%s)\n"
            % (signature, types))


_NO_CUDA_LIBRARY = (     # what PyTorch's CPU-only wheel says when a CUDA tensor type is asked for
    'Cannot initialize CUDA without ATen_cuda library. PyTorch splits its backend into two shared libraries: a CPU '
    'library and a CUDA library; this error has occurred because you are trying to use some CUDA functionality, but '
    'the CUDA library has not been loaded by the dynamic linker for some reason.  The CUDA library MUST be loaded, '
    'EVEN IF you don\'t directly use any symbols from the CUDA library! One common culprit is a lack of '
    '-Wl,--no-as-needed in your link arguments; many dynamic linkers will delete dynamic library dependencies if you '
    'don\'t depend on any of their symbols.  You can check if this has occurred by using ldd on your binary to see if '
    'there is a dependency on *_cuda.so library.')


_SCALAR_WARNING = ('Converting a tensor with requires_grad=True to a scalar may lead to unexpected behavior.\n'
                   'Consider using tensor.detach() first.')


@dt.c_type('torch.Size')
class Size(tuple, metaclass=dt.CType):
    """torch.Size: a tuple that prints as `torch.Size([2, 3])`."""
    __module__ = 'torch'          # type(x.shape) shows <class 'torch.Size'>
    __slots__ = ()

    def __new__(cls, *args, **kwargs):
        if kwargs or len(args) > 1:             # (tuple's own errors)
            raise TypeError('tuple() takes no keyword arguments' if kwargs else
                            'tuple expected at most 1 argument, got %d' % len(args))
        sizes = args[0] if args else ()
        if type(sizes) is not tuple or not all(type(n) is int for n in sizes):
            sizes = tuple(_size_item(i, n) for i, n in enumerate(sizes))
        return tuple.__new__(cls, sizes)

    def __repr__(self):
        return 'torch.Size([%s])' % ', '.join(map(str, self))

    __str__ = __repr__

    def numel(self):
        n = 1
        for s in self:
            n *= s
        return (n + 2 ** 63) % 2 ** 64 - 2 ** 63      # (PyTorch multiplies in int64: a product past it wraps)

    def __getitem__(self, item):
        r = tuple.__getitem__(self, item)
        return Size(r) if isinstance(item, slice) else r

    def __add__(self, other):
        if not isinstance(other, tuple):
            raise TypeError('can only concatenate tuple (not %s) to torch.Size' % type(other).__name__)
        return Size(tuple.__add__(self, other))

    def __radd__(self, other):
        if not isinstance(other, tuple):
            return NotImplemented
        return Size(tuple.__add__(other, self))

    def __mul__(self, n):
        if not hasattr(type(n), '__index__'):       # (Python's message, naming the type by its C name: torch.Size)
            raise TypeError("can't multiply sequence by non-int of type '%s'"
                            % type.__dict__['__name__'].__get__(type(n)))
        return Size(tuple.__mul__(self, n))

    def __rmul__(self, n):
        if isinstance(n, (str, bytes, list, tuple)):     # (a sequence times a Size: the sequence's error, naming Size)
            return NotImplemented
        return self.__mul__(n)

    def __reduce__(self):
        return Size, (tuple(self),)

    def __dir__(self):
        return set(object.__dir__(self)).difference(('__module__', '__slots__'))

    def __format__(self, spec):
        if spec:
            raise TypeError('unsupported format string passed to torch.Size.__format__')
        return str(self)


def _size_item(i, n):
    """One size given to torch.Size(): an int or anything with __index__ (not a float tensor)."""
    try:
        if isinstance(n, Tensor) and (n._data.size != 1 or n._data.dtype.kind not in 'iub'):   # (one integer)
            raise TypeError
        n = operator.index(n)
    except TypeError:
        kind = type(n)
        raise TypeError("torch.Size() takes an iterable of 'int' (item %d is '%s')"
                        % (i, ('numpy.' if kind.__module__ == 'numpy' else '') + kind.__name__)) from None
    if not -2 ** 63 <= n < 2 ** 63:
        raise ValueError('Overflow when unpacking long long')
    return n


_NON_LEAF_GRAD_WARNING = (
    'The .grad attribute of a Tensor that is not a leaf Tensor is being accessed. Its .grad attribute won\'t be '
    'populated during autograd.backward(). If you indeed want the .grad field to be populated for a non-leaf Tensor, '
    'use .retain_grad() on the non-leaf Tensor. If you access the non-leaf Tensor by mistake, make sure you access '
    'the leaf Tensor instead. See github.com/pytorch/pytorch/pull/30531 for more information. (Triggered internally '
    'at /__w/pytorch/pytorch/build/aten/src/ATen/core/TensorBody.h:493.)')


# dir(tensor) lists PyTorch's names, for Python's "Did you mean: '...'?" on a mistyped attribute picks the nearest
# name dir() offers: the names of PyTorch's tensors the engine lacks are added, the engine's own internals left out.
_TORCH_TENSOR_NAMES = frozenset("""
    __annotations__ __delitem__ __dlpack__ __dlpack_c_exchange_api__ __dlpack_device__ __idiv__ __long__
    __nonzero__ __reversed__ __setstate__ __torch_dispatch__ __torch_function__ _addmm_activation
    _autocast_to_full_precision _autocast_to_reduced_precision _cdata
    _clear_non_serializable_cached_data _coalesced_ _conj _conj_physical _dimI _dimV _dtensor__new__ _fix_weakref
    _has_symbolic_sizes_strides _indices _is_all_true _is_any_true _is_zerotensor _lazy_clone _make_subclass
    _make_wrapper_subclass _neg_view _nested_tensor_size _nested_tensor_storage_offsets _nested_tensor_strides _nnz
    _philox_normal_ _philox_uniform_ _python_dispatch _reduce_ex_internal
    _rev_view_func_unsafe _sparse_mask_projection _to_dense _to_sparse _to_sparse_bsc _to_sparse_bsr _to_sparse_csc
    _to_sparse_csr _typed_storage _use_count _values _view_func _view_func_unsafe addbmm addbmm_ angle
    as_strided_scatter bfloat16 ccol_indices cdouble cfloat chalf cholesky cholesky_inverse
    cholesky_solve coalesce col_indices conj_physical_ const_data_ptr crow_indices dense_dim dequantize
    dim_order frexp gcd gcd_ geqrf hash_tensor histogram i0 i0_ igamma igamma_ igammac igammac_
    index index_reduce index_reduce_ indices int_repr ipu is_coalesced is_distributed istft lcm lcm_ ldexp ldexp_
    lu lu_solve map2_ matrix_exp module_load mtia mvlgamma mvlgamma_ new_empty_strided nextafter
    nextafter_ nonzero_static orgqr ormqr pinverse q_per_channel_axis q_per_channel_scales
    q_per_channel_zero_points q_scale q_zero_point qr qscheme record_stream reinforce renorm renorm_
    resize_as_sparse_ row_indices slice_inverse smm sparse_dim sparse_mask
    sparse_resize_ sparse_resize_and_clear_ sspaddmm stft storage_type to_dense to_mkldnn to_padded_tensor
    to_sparse to_sparse_bsc to_sparse_bsr to_sparse_coo to_sparse_csc to_sparse_csr triangular_solve unsafe_chunk
    unsafe_split unsafe_split_with_sizes values xpu""".split())
_ENGINE_TENSOR_NAMES = frozenset("""
    __copy__ __slots__ _accumulator _data _grad_accumulator _grad_from_base _hooks _inference _no_grad_view
    _output_nr _post_acc_hooks _requires_grad _retains_grad _stale_meta _version_counter _view_fn _wrapped volatile
    __slotnames__ _detached_at _keep_views_where_they_are _memory _owner _unread_fn _watch_accumulator
    _zerotensor _stale_hooks _saved_as_output _fw_tangent _fw_only""".split())


class DLDeviceType(enum.IntEnum):
    """What __dlpack_device__ names the CPU by (PyTorch's torch.utils.dlpack.DLDeviceType)."""
    kDLCPU = 1


def _writeable_view(arr):
    """A new numpy array on arr's memory, writeable as PyTorch's numpy() always is: numpy makes the views of a broadcast
    (an expanded tensor's) read-only; read-only memory itself stays so."""
    if arr.flags.writeable:
        return arr.view()
    from ._ops import _writeable
    try:
        return _writeable(arr, True)
    except RuntimeError:
        return arr.view()


# (Not PyTorch's metaclass _TensorMeta: type(torch.Tensor) shows <class 'type'>. A metaclass would cost every
# isinstance(x, Tensor) of a non-tensor a lookup of __instancecheck__: 1% of an MLP step.)
class Tensor:
    """A multi-dimensional array that records the operations applied to it, as torch.Tensor does."""
    __module__ = 'torch'          # type(x) shows <class 'torch.Tensor'>
    # Set when a tensor is made: _data, _version_counter (None until needed), _grad_fn, _requires_grad, and
    # _output_nr (which output of grad_fn it is; read by every op that records).
    __slots__ = ('_data', '_version_counter', '_grad_fn', '_requires_grad', '_output_nr', '__dict__', '__weakref__')
    # Rarely set attributes live in __dict__ with these class-level defaults (keeps creating a tensor cheap).
    _base = None
    _view_fn = None           # maps the base's array to this view's array (replays the view ops)
    _grad = None
    _hooks = None
    _post_acc_hooks = None
    _accumulator = None
    _retains_grad = False
    _wrapped = False          # a Python number taking part in an op as a 0-d tensor
    _no_grad_view = False     # a view of a tensor requiring grad, made while grad mode was off
    _grad_from_base = False   # a view without grad_fn that requires grad only because its base does
    _unread_fn = None         # a view's grad_fn from before its base changed in place: PyTorch makes the new one
                              # only when the view's grad_fn is next read, and keeps the old one until then
    _detached_at = -1         # the sequence number when detach_() took its grad_fn (nodes made before: an error)
    _inference = False        # made under torch.inference_mode (kept out of autograd and version counting after)
    _zerotensor = False       # PyTorch's ZeroTensor (a gradient of zeros some formulas give: see _ops._zero_tensor)
    _stale_hooks = None       # a view's hooks dict kept from its old grad_fn until the new one is read (ag.keep_hooks)
    _saved_as_output = None   # the SavedTensors of in-place ops that keep this very tensor as their output (see
                              # _ops._keep_saved_output)
    _fw_tangent = None        # forward AD: the tangent of a dual tensor (see _forward_ad)
    _fw_only = False          # a dual tensor that takes part in recording for its tangent only (see _forward_ad)
    __array_priority__ = 1000  # numpy defers `ndarray * tensor` to us

    def __new__(cls, *args, **kwargs):
        if args or kwargs:
            from ._factories import legacy_constructor
            t = legacy_constructor(dt.default_float, args, kwargs, any_dtype=True)
            if cls is not Tensor:           # `class My(torch.Tensor)`: My([1., 2.]) is that tensor, of class My
                t.__class__ = cls
            return t
        t = object.__new__(cls)
        _init(t, np.zeros((0,), dt.default_float.np))
        return t

    def __init__(self, *args, **kwargs):
        pass

    def __dir__(self):
        return _TORCH_TENSOR_NAMES.union(object.__dir__(self)).difference(_ENGINE_TENSOR_NAMES)

    # ------------------------------------------------------------------ metadata
    @property
    def dtype(self):
        return dt.FROM_NP[self._data.dtype]

    @property
    def shape(self):
        return tuple.__new__(Size, self._data.shape)

    def size(self, dim=None):
        if dim is None:
            return tuple.__new__(Size, self._data.shape)
        if type(dim) is not int:
            dim = _int_dim('size', dim)
        return self._data.shape[_wrap_dim(dim, self._data.ndim, scalar=False)]

    def dim(self):
        return self._data.ndim

    ndimension = dim

    @property
    def ndim(self):
        return self._data.ndim

    def numel(self):
        return self._data.size

    nelement = numel

    def element_size(self):
        return self._data.itemsize

    @property
    def itemsize(self):
        return self._data.itemsize

    @property
    def volatile(self):
        """Gone since PyTorch 0.4: always False, with a warning."""
        warnings.warn('volatile was removed (Variable.volatile is always False)', stacklevel=2)
        return False

    @volatile.setter
    def volatile(self, value):
        warnings.warn('volatile was removed and now has no effect. Use `with torch.no_grad():` instead.', stacklevel=2)

    @property
    def nbytes(self):
        return self._data.nbytes

    def is_signed(self):
        return self.dtype.is_signed

    def is_same_size(self, other):
        return self._data.shape == other._data.shape

    def is_nonzero(self):
        return bool(self)

    def get_device(self):
        return -1                    # (a CPU tensor's, as PyTorch's)

    is_cpu = True

    @property
    def layout(self):
        return dt.strided

    @property
    def device(self):
        return dt.cpu

    @property
    def is_cuda(self):
        return False

    is_sparse = False
    is_quantized = False
    is_meta = False
    is_nested = False

    def is_floating_point(self):
        return self._data.dtype.kind == 'f'

    def is_complex(self):
        return False

    def conj(self):
        """The conjugate: a real tensor itself (PyTorch's conj, resolve_conj, resolve_neg and conj_physical of a
        real tensor return it unchanged, recording nothing)."""
        return self

    conj_physical = resolve_conj = resolve_neg = conj

    def is_conj(self):
        return False

    is_neg = is_conj

    def type(self, dtype=None, non_blocking=False):
        if dtype is None:
            return 'torch.%sTensor' % self.dtype.legacy
        from ._factories import dtype_from_type_string
        if dtype is Tensor or dtype == 'torch.Tensor':      # the default tensor type: of the default dtype
            dtype = dt.default_float
        if getattr(dtype, '_cuda', False) or isinstance(dtype, str) and dtype.startswith('torch.cuda.'):
            raise RuntimeError(_NO_CUDA_LIBRARY)
        if isinstance(dtype, type):      # torch.FloatTensor and the like, or a Python type (which names no tensor type)
            dtype = getattr(dtype, '_dtype', None) or dtype_from_type_string(
                dtype.__name__ if dtype.__flags__ & 512 or dtype.__module__ == 'builtins' else     # (its C tp_name:
                '%s.%s' % (dtype.__module__, dtype.__name__))                  # a class of C's, 'numpy.float32')
        if not isinstance(dtype, (str, dt.dtype)):
            raise TypeError('dtype must be a type, str, or dtype object')
        return self.to(dtype_from_type_string(dtype) if isinstance(dtype, str) else dtype)

    def stride(self, dim=None):
        st = tuple(s // self._data.itemsize for s in self._data.strides)
        if self._data.size == 0 and not any(st):   # numpy makes new empty arrays with 0 strides, PyTorch contiguous
            st, n = [], 1
            for s in reversed(self._data.shape):
                st.insert(0, n)
                n *= max(s, 1)
            st = tuple(st)
        if dim is None:
            return st
        if type(dim) is not int:
            dim = _int_dim('stride', dim)
        return st[_wrap_dim(dim, self._data.ndim, scalar=False)]

    def is_contiguous(self, *args, memory_format=None):
        if args:                                # (its memory_format is keyword-only)
            raise keyword_only('is_contiguous', args)
        if memory_format is not None:
            return _memory_format.is_laid_out(self._data, memory_format)
        return self._data.flags['C_CONTIGUOUS'] or self._data.size <= 1

    def data_ptr(self):
        return self._data.__array_interface__['data'][0] if self._data.size else 0

    def storage_offset(self):
        root = self._owner()
        base = root.__dict__.get('_storage', root._data)       # (its memory since a set_ or resize_, if one ran)
        return ((self._data.__array_interface__['data'][0] - base.__array_interface__['data'][0])   # (an empty one's
                // self._data.itemsize)                                                       # data_ptr() is 0)

    def storage(self):
        """The memory this tensor views (its base's), as a TypedStorage (deprecated in PyTorch, which warns once)."""
        if _STORAGE_WARNING not in _warned:      # (once per process, as PyTorch's Python warns: see warn_once)
            _warned.add(_STORAGE_WARNING)
            warnings.warn(_STORAGE_WARNING, UserWarning, stacklevel=2)
        return TypedStorage(self._memory(), self.dtype)

    def _memory(self):
        """The memory this tensor views, flat (its base's; all of it since a set_ or resize_, which keep it)."""
        return _root_memory(self._owner())

    def _owner(self):
        """The tensor whose memory this one shows (PyTorch's storage): its base, or itself when it is no view or a
        view that .data = or set_ made show other memory since (which it keeps as its own `_storage`)."""
        return self if self._base is None or '_storage' in self.__dict__ else self._base

    def untyped_storage(self):
        """The bytes of the memory this tensor views (its base's), as an UntypedStorage (no warning)."""
        base = self._owner()
        data = self._memory()
        old = base.__dict__.get('_untyped_storage')      # (one storage object while the memory is the same, as
        if old is not None and old._data.ctypes.data == data.ctypes.data and old._data.size == data.nbytes:
            return old                                   # PyTorch keeps one per StorageImpl: `is` holds)
        base._untyped_storage = storage = UntypedStorage(data)
        return storage

    def is_set_to(self, tensor):
        """Whether both tensors are the same window on the same memory: storage, offset, sizes and strides."""
        def owner(x):
            while isinstance(x.base, np.ndarray):
                x = x.base
            return x
        return (owner(self._data) is owner(tensor._data) and self._data.shape == tensor._data.shape
                and self.storage_offset() == tensor.storage_offset() and self.stride() == tensor.stride())

    def _is_view(self):
        return self._base is not None

    @property
    def _version(self):
        if self._inference is True:
            raise RuntimeError('Inference tensors do not track version counter.')
        return ag.version(self)

    @property
    def grad_fn(self):
        """The node that made this tensor (None for a leaf); the engine keeps it in the `_grad_fn` slot."""
        if ag.fw_pending:
            ag.fw_flush()
        fn = self._grad_fn
        if type(fn) is ag.Invalid:
            raise RuntimeError(fn.msg)
        if self._unread_fn is not None:
            ag.read_grad_fn(self)
        return fn

    @property
    def is_leaf(self):
        return self.grad_fn is None

    @property
    def output_nr(self):
        return self._output_nr

    # ------------------------------------------------------------------ autograd flags
    @property
    def requires_grad(self):
        if ag.fw_pending:
            ag.fw_flush()
        return self._requires_grad and not self._fw_only

    @requires_grad.setter
    def requires_grad(self, flag):
        if ag.fw_pending:
            ag.fw_flush()
        if type(flag) is not bool:
            raise RuntimeError('requires_grad must be a bool')
        if flag and self._grad_fn is not None:
            raise RuntimeError('you can only change requires_grad flags of leaf variables.')
        self.requires_grad_(flag, _message='only Tensors of floating point and complex dtype can require gradients')

    def requires_grad_(self, requires_grad=True, *, _message='only Tensors of floating point dtype can require '
                                                             'gradients'):
        if ag.fw_pending:
            ag.fw_flush()
        if type(requires_grad) is not bool:
            raise TypeError("requires_grad_(): argument 'requires_grad' (position 1) must be bool, not %s"
                            % type(requires_grad).__name__)
        if requires_grad and self._inference and not ag.inference_enabled:
            raise RuntimeError('Setting requires_grad=True on inference tensor outside InferenceMode is not allowed.')
        if not requires_grad and self._base is not None and self._base._requires_grad and (
                self._grad_fn is None or type(self._grad_fn) is ag.Invalid and self._grad_fn.stored_leaf):
            return self         # (a no_grad view's flag is read through its base in PyTorch: it still requires grad)
        if self._grad_fn is not None and not requires_grad:
            raise RuntimeError('you can only change requires_grad flags of leaf variables. If you want to use a '
                               'computed variable in a subgraph that doesn\'t require differentiation use '
                               'var_no_grad = var.detach().')
        if requires_grad and not self.is_floating_point():
            raise RuntimeError(_message)
        if self._fw_only:                   # (a dual that took part for its tangent: now it needs grad itself)
            if not requires_grad:
                return self
            del self._fw_only
            self._accumulator = None
        if self._grad_fn is None:
            if not requires_grad and self._requires_grad:
                self._watch_accumulator()   # (PyTorch's AccumulateGrad adds nothing to a leaf that stopped
            self._requires_grad = bool(requires_grad)   # requiring grad)
            if self._grad_from_base:
                del self._grad_from_base
            if self._version_counter is not None:
                from ._ops import _views_follow_base     # views made before now require grad as it does
                _views_follow_base(self)
        return self

    @property
    def grad(self):
        fn = self._grad_fn
        if fn is not None and not self._retains_grad and self._grad is None and not (
                type(fn) is ag.Invalid and fn.stored_leaf) and self._unread_fn is not ag.NO_GRAD_FN:
            warnings.warn(_NON_LEAF_GRAD_WARNING, UserWarning, stacklevel=2)
        return self._grad

    @grad.setter
    def grad(self, value):
        if value is not None:
            if not isinstance(value, Tensor):
                raise TypeError('assigned grad expected to be a Tensor or None but got grad of type '
                                + type(value).__name__)
            if value is self:
                raise RuntimeError("can't assign Variable as its own grad")
            want = self.__dict__.get('_grad_dtype', self.dtype)       # (None: any dtype)
            if want is not None and value._data.dtype != want.np:
                raise RuntimeError('attempting to assign a gradient with dtype \'%s\' to a tensor with grad_dtype '
                                   '\'%s\'. The gradient must match the tensor\'s grad_dtype (defaults to the '
                                   'tensor\'s dtype). You can set the tensor\'s grad_dtype attribute with a specific '
                                   'dtype, or None to allow any dtype. Set grad_dtype with caution. Diverging the '
                                   'dtypes of a tensor and its gradient may break downstream systems that assume '
                                   'they match.' % (dt.C_NAMES[value.dtype.name], want.legacy))
            if value._data.shape != self._data.shape:
                raise RuntimeError('attempting to assign a gradient of size \'%s\' to a tensor of size \'%s\'. '
                                   'Please ensure that the gradient and the tensor are the same size'
                                   % (list(value.shape), list(self.shape)))
        self._grad = value

    @grad.deleter
    def grad(self):
        self._grad = None

    @property
    def grad_dtype(self):
        """The dtype a leaf's .grad must have: its own unless set (None: any dtype)."""
        if self._grad_fn is not None:
            raise RuntimeError('grad_dtype can only be accessed on leaf tensors.')
        return self.__dict__.get('_grad_dtype', self.dtype)

    @grad_dtype.setter
    def grad_dtype(self, value):
        if value is not None and not isinstance(value, dt.dtype):
            raise RuntimeError('grad_dtype must be a torch.dtype or None, but got ' + type(value).__name__)
        grad = self.grad                           # (PyTorch reads it first: a non-leaf's warns)
        if grad is not None and value is not None and grad.dtype is not value:
            raise RuntimeError("Cannot set grad_dtype to '%s' because there is already a gradient with dtype '%s'. "
                               "Please clear the gradient (.grad = None) before changing grad_dtype, or ensure the "
                               "new grad_dtype matches the existing gradient's dtype."
                               % (value.legacy, dt.C_NAMES[grad.dtype.name]))
        if self._grad_fn is not None:
            raise RuntimeError('grad_dtype can only be set on leaf tensors.')
        if value is self.dtype:
            self.__dict__.pop('_grad_dtype', None)
            return
        self._grad_dtype = value
        self._watch_accumulator()        # (the slow path casts a first gradient)

    @property
    def retains_grad(self):
        return self._retains_grad

    def retain_grad(self):
        """Keep .grad for this non-leaf tensor too (a hook on its grad_fn stores it)."""
        if not self.requires_grad:
            raise RuntimeError("can't retain_grad on Tensor that has requires_grad=False")
        fn = self._grad_fn
        if self._unread_fn is ag.NO_GRAD_FN or type(fn) is ag.Invalid and fn.stored_leaf:
            return                  # (PyTorch reads its grad_fn field as a leaf's: nothing done)
        if self._retains_grad or self.grad_fn is None:    # (is_leaf: raises for a view PyTorch cannot rebuild)
            return
        self._grad_fn._retained()[self._output_nr] = weakref.ref(self)
        self._retains_grad = True

    def register_hook(self, hook):
        """hook(grad) runs when this tensor's gradient is computed; it may return a replacement."""
        if not self.requires_grad:
            raise RuntimeError("cannot register a hook on a tensor that doesn't require gradient")
        stale = self._stale_hooks
        if stale is not None:                 # (PyTorch reads grad_fn only for a first hook: see ag.keep_hooks)
            return ag._Handle(stale, hook)
        if type(self._grad_fn) is ag.Invalid:
            # (PyTorch gives the tensor its dict before it reads grad_fn, which raises: a second call adds to that
            # dict, which no node runs)
            self._stale_hooks = OrderedDict()
        if self.grad_fn is not None:          # (read as PyTorch reads it: a view it cannot rebuild raises)
            return ag._Handle(self._grad_fn._tensor_pre_hooks(self._output_nr), hook)
        if self._hooks is None:
            self._hooks = OrderedDict()
        return ag._Handle(self._hooks, hook)

    @property
    def _backward_hooks(self):
        """PyTorch's {handle id: hook} of register_hook, None until one is registered. A non-leaf's is kept by its
        grad_fn, so after an in-place op (a new grad_fn) it is None again, as in PyTorch (for a view whose base
        changed in place, once its new grad_fn is read: see ag.keep_hooks)."""
        stale = self._stale_hooks
        if stale is not None:
            return stale
        node = self._grad_fn
        return self._hooks if node is None else (node._pre_hooks or {}).get(self._output_nr)

    @property
    def _post_accumulate_grad_hooks(self):
        return self._post_acc_hooks

    def register_post_accumulate_grad_hook(self, hook):
        if not self.requires_grad:          # (PyTorch checks this before leafness)
            raise RuntimeError("cannot register a hook on a tensor that doesn't require gradient")
        if self.grad_fn is not None:          # (read as PyTorch reads it: a view it cannot rebuild raises)
            raise RuntimeError('post accumulate grad hooks cannot be registered on non-leaf tensors')
        if self._post_acc_hooks is None:
            self._post_acc_hooks = OrderedDict()
        return ag._Handle(self._post_acc_hooks, hook)

    def _watch_accumulator(self):
        """Send the backward passes of graphs already made through this leaf to the slow path at its AccumulateGrad,
        which looks at the leaf's requires_grad and grad_dtype as they are then."""
        if self._accumulator is not None:
            self._accumulator._watched = True

    def _grad_accumulator(self):
        """The leaf's AccumulateGrad node, shared by the graphs that use it. PyTorch's leaf holds it weakly: it dies
        with the last graph (or other holder), and the next graph gets a new one. Here the leaf keeps it (a weak
        reference and a node per leaf and graph would be two more objects for the garbage collector to walk in every
        forward pass), and one that nothing else holds counts as dead: it is reused if nothing tells it from a new
        one (nothing was set on it: hooks, metadata, _watched), else replaced. The leaf and its node refer to each
        other: a leaf the program drops is freed by the garbage collector rather than at once."""
        if not self._requires_grad or self._grad_from_base:
            return None      # (_grad_from_base: requires grad only through its base, no grad_fn: PyTorch: no edge)
        acc = self._accumulator
        if acc is not None and (getrefcount(acc) > 3 or not (acc.__dict__ or ag.anomaly)):
            return acc                          # (3: the leaf's reference, acc and getrefcount's argument)
        acc = self._accumulator = _new(ag.AccumulateGrad)      # (AccumulateGrad(self) without calling __init__)
        acc.variable = self
        if '_grad_dtype' in self.__dict__:
            acc._watched = True                 # (the slow path casts a first gradient to grad_dtype)
        if ag.anomaly:
            ag.keep_stack(acc)
        return acc

    def backward(self, gradient=None, retain_graph=None, create_graph=False, inputs=None):
        """Compute the gradient of this tensor w.r.t. graph leaves (accumulated into their .grad)."""
        _backward(self, gradient, retain_graph, create_graph, inputs=inputs)

    # ------------------------------------------------------------------ data sharing
    @property
    def data(self):
        """The same memory as a tensor outside autograd, with its own version counter (changes go unnoticed)."""
        t = _alias(self, None)
        if self._inference:
            t._inference = True if ag.inference_enabled else ag.COUNTED
        _same_memory(t, self)
        return t

    @data.setter
    def data(self, value):
        if not isinstance(value, Tensor):
            raise TypeError('Variable data has to be a tensor, but got ' + type(value).__name__)
        if self._requires_grad and value._data.dtype.kind != 'f':
            raise RuntimeError('data set to a tensor that requires gradients must be floating point or complex dtype')
        if self._grad_fn is not None:
            from ._ops import _keep_saved_output
            _keep_saved_output(self)
        old = self._data
        if old.shape != value._data.shape or old.dtype != value._data.dtype:
            ag.stale_meta = True    # (a graph may have saved it: backward checks what formulas reading it give)
            if self._requires_grad:
                self._stale_meta(old, new_accumulator=old.dtype != value._data.dtype)
        if self._base is None:
            self._keep_views_where_they_are()
            self.__dict__.pop('_storage', None)
        if self._base is not None or value._base is not None or '_storage' in value.__dict__:
            self._storage = value._memory()     # (value's memory, where storage_offset counts from)
        self._data = value._data

    def _keep_views_where_they_are(self):
        """Before this base shows other memory (.data =, set_): its views stay where they were in the memory it
        leaves, as PyTorch's views keep their own storage offset."""
        memory = self._memory()
        for ref in (self._version_counter.views or ()) if self._version_counter is not None else ():
            v = ref()
            if v is not None and v._base is self and '_storage' not in v.__dict__:
                v._storage = memory

    def _stale_meta(self, old, new_accumulator=False):
        """Its memory gets another shape or dtype (array `old` before) without a node recording it (.data =, set_ or
        an in-place view op under no_grad): the node its gradient goes to, if a graph holds it, keeps the old ones as
        its input metadata, which backward checks gradients against. new_accumulator: a leaf's later graphs get a
        node of their own (PyTorch's set_data drops the grad accumulator of another dtype; set_ drops it too)."""
        node = self._grad_fn
        if node is None:
            node = self._accumulator
            if node is None or getrefcount(node) <= 3:        # (the leaf's, node and getrefcount's argument)
                return                                        # (no graph holds it: the next one gets a new node)
            node._watched = True        # (the slow path makes .grad of a gradient of another shape or dtype)
            if new_accumulator:
                self._accumulator = None
        if node.stale_meta is None:
            node.stale_meta = {}
        node.stale_meta.setdefault(self._output_nr, (old.shape, old.dtype))
        ag.stale_meta = True

    @data.deleter
    def data(self):
        raise RuntimeError('Deleting tensor data is not allowed. Delete tensor instead!')

    def detach(self):
        """A new tensor on the same memory and version counter, cut out of the graph."""
        if self._inference:     # (one of an inference tensor is one too: outside inference mode, with a new counter)
            a = _alias(self, None)
            a._inference = True if ag.inference_enabled else ag.COUNTED
        else:
            a = _alias(self, counter(self))
        _same_memory(a, self)
        return a

    def is_inference(self):
        """Whether this tensor was made under torch.inference_mode (not by a view of a normal tensor)."""
        return self._inference is not False

    def detach_(self):
        if ag.inference_enabled:         # (the autograd kernel is skipped there: the plain one leaves self as it is)
            return self
        if self._base is not None:
            raise RuntimeError(
                "Can't detach views in-place. Use detach() instead. If you are using DistributedDataParallel (DDP) "
                "for training, and gradient_as_bucket_view is set as True, gradients are views of DDP buckets, and "
                "hence detach_() cannot be called on these gradients. To fix this error, please refer to the "
                "Optimizer.zero_grad() function in torch/optim/optimizer.py as the solution.")
        if self._grad_fn is not None:               # (when: a node that saved it before then cannot use it)
            self._detached_at = next(ag._sequence)
        elif self._requires_grad:                   # a leaf: graphs made before skip it, as for requires_grad_(False)
            self._watch_accumulator()
        self._grad_fn = None
        self._requires_grad = False
        if self._fw_tangent is not None:            # (forward AD: a detached tensor has no tangent either)
            del self._fw_tangent
            self.__dict__.pop('_fw_only', None)
        if self._version_counter is not None:
            from ._ops import _views_follow_base         # views requiring grad only through it no longer do
            _views_follow_base(self)
        return self

    def numpy(self, *, force=False):
        if self._requires_grad and not force and ag.grad_enabled and not self._fw_only:   # (under no_grad: as it is)
            raise RuntimeError("Can't call numpy() on Tensor that requires grad. Use tensor.detach().numpy() "
                               "instead.")
        (self if self._base is None else self._base)._numpy_memory = True     # (shared: resize_ cannot grow it)
        return _writeable_view(self._data)      # (a new array on the same memory at each call, as PyTorch's)

    def __array__(self, dtype=None):
        """The tensor's memory for numpy. No `copy` parameter, as PyTorch's: numpy itself then copies for np.array(t)
        (np.asarray(t) shares), refuses copy=False and, from numpy 2.1, warns that __array__ takes no copy."""
        if self._requires_grad and ag.grad_enabled and not self._fw_only:
            raise RuntimeError("Can't call numpy() on Tensor that requires grad. Use tensor.detach().numpy() "
                               "instead.")
        return _writeable_view(self._data) if dtype is None else self._data.astype(dtype)

    def __array_wrap__(self, array):
        """A numpy ufunc's result (np.sqrt(t), t * ndarray) as a tensor sharing its memory; bool as uint8. (Without
        context and return_scalar, as PyTorch's: numpy 2 warns that it should take them.)"""
        if array.dtype == bool:
            array = array.astype('uint8')
        from ._factories import from_numpy
        return from_numpy(array)

    def __dlpack__(self, **kwargs):
        """DLPack export (np.from_dlpack(t), torch.from_dlpack(t)): numpy's own, of the tensor's memory (shared); a
        tensor requiring grad refuses, under no_grad too, as PyTorch's."""
        if self._requires_grad:
            raise BufferError("Can't export tensors that require gradient, use tensor.detach()")
        (self if self._base is None else self._base)._numpy_memory = True     # (shared: resize_ cannot grow it)
        return _writeable_view(self._data).__dlpack__(**kwargs)

    def __dlpack_device__(self):
        return (DLDeviceType.kDLCPU, 0)

    def item(self):
        if self._data.size != 1:
            raise RuntimeError('a Tensor with %d elements cannot be converted to Scalar' % self._data.size)
        return self._data.reshape(()).item()

    def tolist(self):
        return self._data.tolist()

    def __len__(self):
        if self._data.ndim == 0:
            raise TypeError('len() of a 0-d tensor')
        return self._data.shape[0]

    def __iter__(self):
        if self._data.ndim == 0:
            raise TypeError('iteration over a 0-d tensor')
        return iter(self.unbind(0))

    def __reversed__(self):
        """reversed(t): PyTorch's is t.flip(0) (a 0-d tensor: itself), not an iterator."""
        return self if self._data.ndim == 0 else self.flip(0)

    def __bool__(self):
        if self._data.size == 0:
            raise RuntimeError('Boolean value of Tensor with no values is ambiguous')
        if self._data.size != 1:
            raise RuntimeError('Boolean value of Tensor with more than one value is ambiguous')
        return bool(self._data.reshape(()))

    def __nonzero__(self):          # (Python 2's name for __bool__, which PyTorch's tensors still have)
        return self.__bool__()

    def __float__(self):
        if self._requires_grad and ag.grad_enabled:          # (PyTorch warns only when grad mode is on)
            warn_once(_SCALAR_WARNING, 'torch/csrc/autograd/generated/python_variable_methods.cpp:822')
        if self._data.size != 1:
            raise ValueError('only one element tensors can be converted to Python scalars')
        return float(self.item())

    def __int__(self):
        if self._data.size != 1:
            raise ValueError('only one element tensors can be converted to Python scalars')
        return int(self.item())

    def __long__(self):             # (Python 2's name for __int__, which PyTorch's tensors still have)
        return self.__int__()

    def __index__(self):
        if self._data.dtype.kind not in 'iub' or self._data.size != 1:
            raise TypeError('only integer tensors of a single element can be converted to an index')
        return int(self.item())

    def __complex__(self):
        if self._requires_grad and ag.grad_enabled:          # (PyTorch warns only when grad mode is on)
            warn_once(_SCALAR_WARNING, 'torch/csrc/autograd/generated/python_variable_methods.cpp:822')
        if self._data.size != 1:
            raise ValueError('only one element tensors can be converted to Python scalars')
        return complex(self.item())

    def __format__(self, spec):
        if self._data.ndim == 0 and type(self) is Tensor:       # (not for nn.Parameter: it prints as text)
            return format(self.item(), spec)
        return object.__format__(self, spec)

    def __hash__(self):
        return id(self)          # (PyTorch's: a tensor's hash is its id, so sets of tensors keep its order)

    def __reduce_ex__(self, proto):
        """pickle, as PyTorch's: what copy.copy keeps (offset, sizes, strides, requires_grad, the attributes set on
        the tensor; no .grad, grad_fn or hooks), of a non-leaf too, with its own copy of all its memory (PyTorch
        pickles each tensor's storage apart, so views pickled together no longer share memory) and its class."""
        _warn_unserialized_hooks(self, 3)
        return (_rebuild_tensor, (self._memory().tobytes(), self.dtype, self.storage_offset(), tuple(self.shape),
                                  self.stride(), self._requires_grad, type(self)), _user_attributes(self))

    def __copy__(self):
        """copy.copy: PyTorch rebuilds the tensor from what pickling keeps of it (memory, offset, sizes, strides,
        requires_grad): a new leaf on the same memory, put there by set_ (version 1); no .grad, no hooks (a warning
        for each hook)."""
        _warn_unserialized_hooks(self, 3)
        t = _alias(self, None)
        _same_memory(t, self)
        ag.bump(t)
        if ag.inference_enabled:                 # (made in inference mode: an inference tensor, as any new one)
            t._inference = True
        t._requires_grad = self._requires_grad
        t.__dict__.update(_user_attributes(self))        # (the attributes set on it, shared)
        return t

    def __deepcopy__(self, memo):
        """copy.deepcopy, as PyTorch's: of a leaf only; a new leaf set_ (version 1) on a copy of the memory (one copy
        per memory in a deepcopy, so copied views still share theirs) at the same offset, sizes and strides, with
        requires_grad, a deep copy of .grad and of the attributes set on the tensor."""
        if self._grad_fn is not None:
            raise RuntimeError('Only Tensors created explicitly by the user (graph leaves) support the deepcopy '
                               'protocol at the moment.  If you were attempting to deepcopy a module, this may be '
                               'because of a torch.nn.utils.weight_norm usage, see '
                               'https://github.com/pytorch/pytorch/pull/103001')
        if id(self) in memo:
            return memo[id(self)]
        flat = self._memory()
        copies = memo.setdefault('torch storages', {})           # (memory address and size: its copy)
        key = (flat.__array_interface__['data'][0], flat.nbytes)
        if key not in copies:
            copies[key] = flat.copy()
        t = _set_on(copies[key].view(self._data.dtype), self.dtype, self.storage_offset(), self.shape, self.stride(),
                    self.requires_grad)
        if self._grad is not None:
            t._grad = self._grad.__deepcopy__(memo)
        t.__dict__.update(copy.deepcopy(_user_attributes(self), memo))
        memo[id(self)] = t
        return t

    # ------------------------------------------------------------------ printing
    def __repr__(self, *, tensor_contents=None):
        if ag.func_levels and tensor_contents is None:      # (inside torch.func.grad's function: a wrapper)
            from .func import _wrapped_repr
            wrapped = _wrapped_repr(self)
            if wrapped is not None:
                return wrapped
        from ._printing import tensor_repr
        if ag.fw_pending:
            ag.fw_flush()
        if tensor_contents is None and not _PRINT_CALLS.isdisjoint(self.__dict__):
            _print_calls(self)
        suffixes = []
        if self._grad_fn is not None:
            ag.read_grad_fn(self)       # (PyTorch reads the grad_fn: see _unread_fn)
            suffixes.append('grad_fn=<%s>' % type(self._grad_fn).__name__)
        elif self._requires_grad and not self._fw_only:
            suffixes.append('requires_grad=True')
        if self._fw_tangent is not None:
            suffixes.append('tangent=%s' % format(self._fw_tangent, ''))
        cls = type(self)
        prefix = 'tensor(' if cls in PLAIN_REPR else cls.__name__ + '('
        return tensor_repr(self._data, self.dtype.name, suffixes, prefix=prefix, contents=tensor_contents)

    # (no __str__: str() is object's, which calls type(t).__repr__, so a subclass's own __repr__ prints)


PLAIN_REPR = {Tensor}          # the classes that print as `tensor(...)` (nn.Parameter adds itself): others by name

# The methods PyTorch's printing (torch/_tensor_str.py) calls on the printed tensor itself. Python finds them by
# attribute lookup, so an instance attribute of that name (`m.item = 100 * m.item()`: the notes' `m.detach = ...`
# made with another method) shadows the method and print(m) calls it: "TypeError: 'float' object is not callable".
_PRINT_CALLS = frozenset(('numel', 'dim', '_is_zerotensor', 'is_neg', 'reshape', 'item', 'size', 'tolist'))


def _print_calls(t):
    """Make PyTorch's printing's calls of _PRINT_CALLS on t in its order: those t's __dict__ shadows (the others
    cannot fail)."""
    from ._printing import _opts
    own = t.__dict__

    def call(name, *args):
        if name in own:
            own[name](*args)
    data = t._data
    call('numel')
    if data.size == 0:
        call('dim')
        return
    summarize = data.size > _opts["threshold"]
    for name in ('numel', 'numel', '_is_zerotensor', 'is_neg'):
        call(name)
    if summarize:                               # get_summarized_data(t): the formatter sees a copy
        call('dim')
        if data.ndim:
            call('size', 0)
    else:
        call('reshape', -1)                     # (_Formatter)
    call('dim')
    if data.ndim == 0:
        call('item')
    elif data.ndim == 1 and not summarize:
        call('tolist')
    else:
        call('size', 0)


def _init(t, data):
    t._data = data
    t._version_counter = None
    t._grad_fn = None
    t._requires_grad = False
    t._output_nr = 0


_new = object.__new__
_backward = None          # set by autograd: torch.autograd.backward (what Tensor.backward calls)


def make(data):
    """A new tensor (leaf, no grad) holding the numpy array `data` (numpy scalars become 0-d arrays)."""
    if type(data) is not np.ndarray:
        data = np.asarray(data)
    t = _new(Tensor)
    t._data = data
    t._version_counter = None
    t._grad_fn = None
    t._requires_grad = False
    t._output_nr = 0
    if ag.inference_enabled:
        t._inference = True
    return t


def _same_memory(a, view):
    """a, an alias of a tensor that is no view itself (.data, detach()), shows the tensor's memory: its base's all
    (PyTorch's storage), so that storage_offset() and resize_ see where in it a starts (of a tensor that is no view,
    the memory it keeps since a set_ or resize_, if one ran)."""
    root = view._owner()
    if root is view and '_storage' not in root.__dict__:
        return
    a._storage = _root_memory(root)


def _root_memory(root):
    """The memory of a tensor that is no view, flat: PyTorch's storage, from its first element to its last (all of
    a numpy array's elements, those a strided one skips too), or all it keeps since a set_ or resize_."""
    flat = root.__dict__.get('_storage')
    if flat is None:
        data = root._data
        n = 1 + sum((k - 1) * s for k, s in zip(data.shape, data.strides)) // data.itemsize if data.size else 0
        flat = np.lib.stride_tricks.as_strided(data, (n,), (data.itemsize,), writeable=data.flags.writeable)
    return flat


# What the engine keeps in a tensor's __dict__ (the class's defaults above and these): not the user's attributes.
_ENGINE_ATTRIBUTES = frozenset(k for k in Tensor.__dict__ if k.startswith('_') and not k.startswith('__')).union((
    '_storage', '_untyped_storage', '_numpy_memory', '_fn_view', '_stale', '_shared', '_grad_dtype'))


def _warn_unserialized_hooks(t, stacklevel):
    """PyTorch's warning, when pickling (or copy.copy) leaves the tensor's backward hooks behind: one per hook."""
    for hook in (t._backward_hooks or {}).values():
        if not hasattr(hook, '__torch_unserializable__'):
            warnings.warn('backward hook %r on tensor will not be serialized.  If this is expected, you can decorate '
                          'the function with @torch.utils.hooks.unserializable_hook to suppress this warning'
                          % (hook,), UserWarning, stacklevel=stacklevel)


def _set_on(memory, dtype, offset, size, stride, requires_grad):
    """A new leaf set_ (version 1) on the flat numpy array `memory`, as copy.deepcopy and unpickling make them."""
    t = make(np.zeros((0,), dtype.np))
    t.set_(TypedStorage(memory, dtype), offset, size, stride)
    t._requires_grad = requires_grad
    return t


def _rebuild_tensor(memory, dtype, offset, size, stride, requires_grad, cls):
    """How pickle brings a tensor back (see Tensor.__reduce_ex__): on its own copy of the bytes of its memory."""
    t = _set_on(np.frombuffer(memory, dtype.np).copy(), dtype, offset, size, stride, requires_grad)
    return t if cls is Tensor else t.as_subclass(cls)


def _user_attributes(t):
    """The attributes set on tensor t (t.name = ...), which copy.copy and copy.deepcopy copy as PyTorch's do."""
    return {k: v for k, v in t.__dict__.items() if k not in _ENGINE_ATTRIBUTES}


def _alias(t, counter, output_nr=0):
    """A tensor object on t's memory (no autograd history), with the given version counter."""
    a = _new(Tensor)
    a._data = t._data
    a._version_counter = counter
    a._grad_fn = None
    a._requires_grad = False
    a._output_nr = output_nr
    return a


def _int_dim(fn, dim):
    """size(dim) / stride(dim) given a dim that is not an int: an integer-like one (a numpy int, a one-element
    integer tensor) is taken as its index, anything else (bool too) is the parser's TypeError."""
    if not isinstance(dim, bool):
        try:
            return operator.index(dim)
        except TypeError:
            pass
    raise TypeError("%s(): argument 'dim' (position 1) must be int, not %s" % (fn, parser_type(dim)))


def _wrap_dim(dim, ndim, scalar=True):
    """A dimension index in [0, ndim), with PyTorch's error for out-of-range ones; a 0-d tensor takes dims 0 and -1
    unless `scalar` is False (size(dim), stride(dim))."""
    if not ndim and not scalar:
        raise IndexError('Dimension specified as %d but tensor has no dimensions' % dim)
    n = max(ndim, 1)
    if not -n <= dim < n:
        raise IndexError('Dimension out of range (expected to be in range of [%d, %d], but got %d)' % (-n, n - 1, dim))
    return dim % n


def make_wrapped(value):
    """The 0-d tensor PyTorch makes of a Python number taking part in an op (int64, float64 or bool)."""
    d = dt.scalar_dtype(value)
    if type(value) is int and not -0x8000000000000000 <= value <= 0xFFFFFFFFFFFFFFFF:     # (not a c10::Scalar)
        raise OverflowError('int too big to convert' if value > 0 else "can't convert negative int to unsigned")
    t = make(np.array(value, dtype=np.float64 if d is dt.float32 else d.np))
    t._wrapped = True
    return t


def saved_alias(t):
    """How a node keeps its own output: same memory, version counter and output number, no grad_fn."""
    return _alias(t, counter(t), t._output_nr)


def alias_output(t, node):
    """Unpacking a saved output gives a new tensor object whose grad_fn is the node that saved it."""
    a = saved_alias(t)
    a._grad_fn = node
    a._requires_grad = True
    return a


ag._make = make
ag._make_wrapped = make_wrapped
ag._alias_output = alias_output
ag._alias = saved_alias


_STORAGE_WARNING = ('TypedStorage is deprecated. It will be removed in the future and UntypedStorage will be the only '
                    'storage class. This should only matter to you if you are using storages directly.  To access '
                    'UntypedStorage directly, use tensor.untyped_storage() instead of tensor.storage()')


class TypedStorage:
    """tensor.storage(): the elements of the tensor's memory in memory order (shared, not copied), printed one a
    line as PyTorch prints them."""
    __module__ = 'torch.storage'

    def __init__(self, data, dtype):
        self._data, self.dtype = data, dtype

    device = property(lambda self: dt.device('cpu'))

    def __len__(self):
        return self._data.size

    def size(self):
        return self._data.size

    def element_size(self):
        return self._data.itemsize

    def nbytes(self):
        return self._data.nbytes

    def data_ptr(self):
        return self._data.__array_interface__['data'][0] if self._data.size else 0

    def tolist(self):
        return self._data.tolist()

    def __getitem__(self, i):
        if isinstance(i, slice):
            raise RuntimeError('slices are only supported in UntypedStorage.__getitem__')
        return self._data[i].item()

    def __setitem__(self, i, value):
        self._data[i] = value

    def untyped(self):
        return UntypedStorage(self._data)

    def __str__(self):
        info = '[torch.storage.TypedStorage(dtype=%s, device=cpu) of size %d]' % (self.dtype, len(self))
        return ' ' + '\n '.join(str(v) for v in self.tolist()) + '\n' + info

    __repr__ = __str__


class UntypedStorage(TypedStorage):
    """tensor.untyped_storage(): the bytes of the tensor's memory (shared, not copied; no dtype), printed one a
    line; its data_ptr() is the same for a tensor and its views (tutorials compare them)."""
    __module__ = 'torch.storage'

    def __init__(self, data):
        self._data = data.view(np.uint8)

    def __getattr__(self, name):
        raise AttributeError("'torch.storage.UntypedStorage' object has no attribute '%s'" % name)

    def element_size(self):
        return 1

    def __getitem__(self, i):
        if isinstance(i, slice):                # (a storage on those bytes)
            return UntypedStorage(self._data[i])
        return self._data[i].item()

    def __str__(self):
        info = '[torch.storage.UntypedStorage(device=cpu) of size %d]' % len(self)
        return ' ' + '\n '.join(str(v) for v in self.tolist()) + '\n' + info

    __repr__ = __str__
