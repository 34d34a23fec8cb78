"""A PyTorch-faithful autograd engine on numpy: `import engine as torch`."""
import builtins as _builtins
import contextlib as _contextlib
import dis as _dis
import importlib as _importlib
import os as _os
import sys as _sys
import types as _types
import warnings as _warnings
from . import _dtypes, _misc, _ops, _methods  # noqa: F401  (_methods binds the ops to Tensor)
from ._dtypes import (dtype, float16, float32, float64, int8, int16, int32, int64, uint8, bool_ as bool,  # noqa: F401
                      bfloat16, complex32, complex64, complex128,
                      layout, strided, sparse_coo, device, result_type as _result_type,
                      sparse_csr, sparse_csc, sparse_bsr, sparse_bsc, _mkldnn, jagged,
                      finfo, iinfo)
from ._tensor import Tensor, Size, TypedStorage as _TypedStorage  # noqa: F401
from ._autograd import (no_grad, enable_grad, set_grad_enabled, is_grad_enabled, inference_mode,  # noqa: F401
                        is_inference_mode_enabled)
from ._factories import (tensor, as_tensor, from_numpy, zeros, ones, empty, full, zeros_like, ones_like,  # noqa: F401
                         empty_like, full_like, rand, randn, normal, randint, rand_like, randn_like, randperm, arange,
                         range, asarray, from_dlpack, frombuffer,
                         linspace, logspace, eye, manual_seed, seed, initial_seed, Generator, default_generator,
                         get_rng_state, set_rng_state, randint_like, empty_strided, scalar_tensor,
                         FloatTensor, DoubleTensor, HalfTensor, LongTensor, IntTensor, ShortTensor, CharTensor,
                         ByteTensor, BoolTensor, set_default_dtype, set_default_tensor_type)
from ._ops import (neg, exp, log, sqrt, abs, sign, sigmoid, tanh, relu, sin, cos,  # noqa
                   clamp, clamp_min, clamp_max, reciprocal, sum, mean, mm, bmm, mv, dot, reshape, flatten,
                   transpose, t, permute, unsqueeze, squeeze, cat, stack, clone, narrow, select, log2, log10, log1p,
                   expm1, rsqrt, tan, sinh, cosh, asin, acos, atan, floor, ceil, trunc, frac, round)
from ._ops import (bernoulli, split, split_with_sizes, chunk, unbind, cumsum, cumprod, prod, amax, amin,  # noqa
                   masked_fill, gather, index_select, roll, tril, triu, diag, trace, outer, movedim, broadcast_to,
                   multinomial, index_put, index_put_, rsub)
from ._ops_rnn import unsafe_split, unsafe_split_with_sizes, unsafe_chunk_public as unsafe_chunk  # noqa: E402,F401
from ._methods import _more_functions  # noqa: E402
(eq, ne, lt, gt, le, ge, all, any, isnan, isinf, isfinite, logical_not, signbit, logical_and, logical_or,
 logical_xor, remainder, fmod, floor_divide) = _more_functions()
moveaxis = movedim


def index_put(input, indices, values, accumulate=False):
    return _ops.index_put(input, indices, values, accumulate, _pos=3)     # (values: torch.index_put's 3rd argument)


def index_put_(input, indices, values, accumulate=False):
    return _ops.index_put_(input, indices, values, accumulate, _pos=3)
ger = outer
bitwise_and, bitwise_or, bitwise_xor = (_methods.commutative_function(n)
                                        for n in ('bitwise_and', 'bitwise_or', 'bitwise_xor'))
bitwise_not = _methods._unary_function('bitwise_not')
bitwise_left_shift, bitwise_right_shift = (_methods.shift_function(n)
                                           for n in ('bitwise_left_shift', 'bitwise_right_shift'))
from ._printing import set_printoptions  # noqa: F401
from . import _tensor_str  # noqa: F401  (torch._tensor_str.printoptions / PRINT_OPTS)
from . import autograd  # noqa: F401
from .autograd import is_anomaly_enabled, is_anomaly_check_nan_enabled, set_anomaly_enabled  # noqa: F401

from ._methods import _checked  # noqa: E402

add, sub, mul, div, pow, matmul = (_checked(getattr(_ops, n), n, 2) for n in ('add', 'sub', 'mul', 'div', 'pow',
                                                                             'matmul'))

__version__ = _misc.TorchVersion('2.13.0+cpu')     # the PyTorch this engine mirrors (a CPU-only build)
version = _types.ModuleType(__name__ + '.version')     # torch.version: what that build reports (no CUDA)
version.__version__, version.git_version = str(__version__), 'cf30153c4c131c8164ee7798e5022d810682e2cb'
version.cuda = version.hip = version.rocm = version.xpu = None
version.debug = False
_sys.modules[version.__name__] = version

pi, e, inf, nan = 3.141592653589793, 2.718281828459045, _builtins.float('inf'), _builtins.float('nan')
newaxis = None                    # (x[:, torch.newaxis], as numpy's)
float = float32
double = float64
half = float16
chalf, cfloat, cdouble = complex32, complex64, complex128
long = int64
int = int32
short = int16
concat = concatenate = cat
multiply = mul
divide = true_divide = div
subtract = sub
negative = neg
absolute = abs
clip = clamp
swapaxes = swapdims = transpose


def is_tensor(obj):
    return isinstance(obj, Tensor)


def is_inference(t):
    return t.is_inference()


def is_floating_point(t):
    return t.is_floating_point()


def numel(t):
    return t.numel()


def result_type(a, b):
    return _result_type(a, b)


def get_default_dtype():
    return _dtypes.default_float


def equal(a, b):
    return a.equal(b)


def allclose(a, b, rtol=1e-05, atol=1e-08, equal_nan=False):
    return a.allclose(b, rtol, atol, equal_nan)


def argmax(t, dim=None, keepdim=False):
    return t.argmax(dim, keepdim)


def argmin(t, dim=None, keepdim=False):
    return t.argmin(dim, keepdim)


def detach(t):
    return t.detach()


def is_nonzero(t):
    return t.is_nonzero()


def is_same_size(a, b):
    return a.is_same_size(b)


def is_signed(t):
    return t.is_signed()


def is_complex(t):
    return t.is_complex()


def real(t):
    return t.real


def conj(t):
    return t.conj()


conj_physical = resolve_conj = resolve_neg = conj


def is_conj(t):
    return t.is_conj()


is_neg = is_conj


def imag(t):
    return t.imag


def is_storage(obj):
    return isinstance(obj, _TypedStorage)


def _dtype_arguments(name, **args):
    """PyTorch's TypeError for an argument of `name` that is not a torch.dtype."""
    for pos, (arg, value) in enumerate(args.items()):
        if not isinstance(value, dtype):
            raise TypeError("%s(): argument '%s' (position %d) must be torch.dtype, not %s"
                            % (name, arg, pos + 1, _tensor.parser_type(value)))


def can_cast(from_, to):
    _dtype_arguments('can_cast', from_=from_, to=to)
    return _dtypes.can_cast(from_, to)


def promote_types(type1, type2):
    _dtype_arguments('promote_types', type1=type1, type2=type2)
    return _dtypes.promote_types(type1, type2)


def typename(obj):
    """A tensor's type string ('torch.FloatTensor'), else the module-qualified name of obj (of its class when obj
    has no name), builtins left out."""
    if isinstance(obj, Tensor):
        return obj.type()
    if hasattr(obj, '__qualname__') or hasattr(obj, '__name__'):
        module, name = getattr(obj, '__module__', '') or '', getattr(obj, '__qualname__', None) or obj.__name__
    else:
        module, name = type(obj).__module__ or '', type(obj).__qualname__
    return name if module in ('', 'builtins') else module + '.' + name


def get_num_threads():
    """The threads PyTorch would use (numpy's BLAS decides its own here)."""
    return _misc.settings['num_threads']


def set_num_threads(n):
    if isinstance(n, _builtins.bool) or not isinstance(n, _builtins.int):
        raise RuntimeError('set_num_threads expects an int, but got ' + type(n).__name__)
    if n <= 0:
        raise RuntimeError('set_num_threads expects a positive integer')
    _misc.settings['num_threads'] = n


def get_num_interop_threads():
    return _os.cpu_count() or 1


def get_default_device():
    return device('cpu')


class _CudaType(type):
    """The type of torch.cuda.FloatTensor and the others: on a CPU-only build classes that make no tensor and that
    no tensor is an instance of (`isinstance(x, torch.cuda.FloatTensor)` is False). Named as PyTorch's."""

    def __call__(cls, *args, **kwargs):
        raise TypeError('type torch.cuda.%s not available. Torch not compiled with CUDA enabled.' % cls.__name__)

    def __instancecheck__(cls, obj):
        return False


_CudaType.__name__ = _CudaType.__qualname__ = 'tensortype'
_CudaType.__module__ = 'torch'


class _AsModule:
    """An object standing for one of PyTorch's modules (torch.cuda, torch.backends.mps...): a name it lacks is that
    module's AttributeError, which Python completes with its "Did you mean" (`torch.cuda.is_availble()`)."""
    _module = 'torch'

    def __getattr__(self, name):
        raise AttributeError("module '%s' has no attribute '%s'" % (self._module, name))


class _Cuda(_AsModule):
    """torch.cuda on a CPU-only build."""
    _module = 'torch.cuda'
    FloatTensor, DoubleTensor, HalfTensor, LongTensor, IntTensor, ShortTensor, CharTensor, ByteTensor, BoolTensor = (
        _CudaType(n + 'Tensor', (), {'__module__': 'torch.cuda', '_cuda': True})
        for n in ('Float', 'Double', 'Half', 'Long', 'Int', 'Short', 'Char', 'Byte', 'Bool'))

    @staticmethod
    def is_available():
        return False

    @staticmethod
    def device_count():
        return 0

    @staticmethod
    def manual_seed(seed):
        pass

    manual_seed_all = manual_seed

    @staticmethod
    def _not_compiled(*args, **kwargs):
        raise AssertionError('Torch not compiled with CUDA enabled')

    current_device = get_device_name = get_device_properties = synchronize = init = _not_compiled

    @staticmethod
    def set_device(device):
        raise AttributeError("module 'torch._C' has no attribute '_cuda_setDevice'")

    @staticmethod
    def empty_cache():
        pass

    is_initialized = is_bf16_supported = staticmethod(lambda *args, **kwargs: False)
    memory_allocated = max_memory_allocated = memory_reserved = staticmethod(lambda device=None: 0)


cuda = _Cuda()


def _no_accelerator(*args, **kwargs):
    raise RuntimeError('Cannot access accelerator device when none is available.')


class _Accelerator(_AsModule):
    """torch.accelerator on a CPU-only build (today's tutorials begin with
    `torch.accelerator.current_accelerator().type if torch.accelerator.is_available() else "cpu"`)."""
    _module = 'torch.accelerator'

    @staticmethod
    def is_available():
        return False

    @staticmethod
    def current_accelerator(check_available=False):
        return None

    @staticmethod
    def device_count():
        return 0

    current_device_index = current_stream = synchronize = staticmethod(_no_accelerator)


accelerator = _Accelerator()


class _Cpu(_AsModule):
    """torch.cpu: the one device there is (`torch.cpu.is_available()`, `torch.cpu.device_count()`)."""
    _module = 'torch.cpu'
    is_available = is_initialized = staticmethod(lambda: True)
    device_count = staticmethod(lambda: 1)
    current_device = staticmethod(lambda: 'cpu')
    synchronize = set_device = staticmethod(lambda device=None: None)


cpu = _Cpu()


class _Distributed(_AsModule):
    """torch.distributed: built into PyTorch's CPU wheels for Linux, never initialised here."""
    _module = 'torch.distributed'
    is_available = staticmethod(lambda: True)
    is_initialized = staticmethod(lambda: False)


distributed = _Distributed()


class _Backend(_AsModule):
    """One of torch.backends: on a CPU-only build, the GPU ones are not built, not available; the CPU ones (mkldnn,
    mkl, openmp) are both. Its flags can be set."""

    def __init__(self, _module, _built=False, **flags):
        self.__dict__.update(flags, _module=_module, _flags=frozenset(flags), _built=_built)

    def __dir__(self):
        """(PyTorch's flags are properties of its module's class, not names dir() of the module lists)"""
        return [n for n in object.__dir__(self) if n not in self._flags]

    def is_available(self):
        return self._built

    def is_built(self):
        return self._built


backends = _AsModule()
backends._module = 'torch.backends'
backends.mps, backends.cuda = _Backend('torch.backends.mps'), _Backend('torch.backends.cuda')
backends.cudnn = _Backend('torch.backends.cudnn', enabled=True, benchmark=False, deterministic=False)
backends.cudnn.version = lambda: None          # (`print(torch.backends.cudnn.version())`: no cuDNN on a CPU build)
backends.mkldnn = _Backend('torch.backends.mkldnn', True, enabled=True, deterministic=False)
backends.mkl, backends.openmp = _Backend('torch.backends.mkl', True), _Backend('torch.backends.openmp', True)


def _sdp_flags():
    """torch.backends.cuda's flags of scaled_dot_product_attention's kernels (which a CPU build has too: they choose
    its kernel, as torch.nn.attention.sdpa_kernel does) and its deprecated context manager; torch.backends.mha's
    flag of the fast path."""
    from ._ops_attention import SDP_ENABLED
    cuda = backends.cuda
    for flag in SDP_ENABLED:
        setattr(cuda, flag + '_sdp_enabled', lambda flag=flag: SDP_ENABLED[flag])
        setattr(cuda, 'enable_' + flag + '_sdp', lambda enabled, flag=flag: SDP_ENABLED.__setitem__(flag, enabled))
    cuda.is_flash_attention_available = lambda: True

    @_contextlib.contextmanager
    def sdp_kernel(enable_flash=True, enable_math=True, enable_mem_efficient=True, enable_cudnn=True):
        _warnings.warn('`torch.backends.cuda.sdp_kernel()` is deprecated. In the future, this context manager will be '
                      'removed. Please see `torch.nn.attention.sdpa_kernel()` for the new context manager, with '
                      'updated signature.', FutureWarning, stacklevel=3)
        saved = dict(SDP_ENABLED)
        SDP_ENABLED.update(flash=enable_flash, math=enable_math, mem_efficient=enable_mem_efficient,
                           cudnn=enable_cudnn)
        try:
            yield {}
        finally:
            SDP_ENABLED.update(saved)
    cuda.sdp_kernel = sdp_kernel
    fastpath = [True]
    backends.mha = _Backend('torch.backends.mha', True)
    backends.mha.get_fastpath_enabled = lambda: fastpath[0]
    backends.mha.set_fastpath_enabled = lambda value: fastpath.__setitem__(0, _builtins.bool(value))


_sdp_flags()


class _TorchAlias:
    """When `torch` is bound to this engine (sys.modules['torch'] = engine, as in the browser), make
    `import torch.autograd` / `from torch.nn import functional` find the engine's own submodules instead of
    loading second copies of them."""

    @staticmethod
    def find_spec(fullname, path=None, target=None):
        import sys
        if not fullname.startswith('torch.') or sys.modules.get('torch') is not sys.modules[__name__]:
            return None                # (first: importing importlib.util below comes through here too)
        import importlib.util
        real = __name__ + fullname[len('torch'):]
        try:
            module = importlib.import_module(real)
        except ImportError:            # (an object standing for a module: `import torch.backends.cudnn as cudnn`)
            obj = sys.modules[__name__]
            for part in fullname.split('.')[1:]:
                obj = getattr(obj, part, None)
            if not isinstance(obj, _AsModule):
                return None
            return importlib.util.spec_from_loader(fullname, _ExistingObject(obj), is_package=True)
        return importlib.util.spec_from_loader(fullname, _ExistingModule(module))


class _ExistingModule:
    """A loader that hands out an already imported module."""

    def __init__(self, module):
        self.module = module
        self._spec = module.__spec__

    def create_module(self, spec):
        return self.module

    def exec_module(self, module):
        module.__spec__ = self._spec           # importlib gave it the torch.* spec; keep the module's own


class _ExistingObject:
    """A loader that hands out one of the engine's objects standing for a module (importlib sets its __spec__,
    __path__...: it is imported as a package, so that its own modules can be imported through it)."""

    def __init__(self, obj):
        self.obj = obj

    def create_module(self, spec):
        return self.obj

    def exec_module(self, module):
        pass


def _install_alias():
    import builtins
    import sys
    if not builtins.any(isinstance(f, type) and f.__name__ == '_TorchAlias' for f in sys.meta_path):
        sys.meta_path.insert(0, _TorchAlias)


_install_alias()
from ._ops_nn import (max, min, maximum, minimum, where, square, softmax, log_softmax, logsumexp, addmm,  # noqa
                      var, std, norm, erf, return_types, sort, argsort, msort, topk, median, kthvalue, dist,
                      unique, cross, embedding)
from ._ops_conv import (conv1d, conv2d, conv3d, max_pool1d, max_pool2d, max_pool3d, avg_pool1d,  # noqa: E402
                        max_pool1d_with_indices)
from ._ops_math import *  # noqa: E402,F401,F403
from ._ops_index import *  # noqa: E402,F401,F403
from ._ops_reduce import *  # noqa: E402,F401,F403
from ._ops_einsum import *  # noqa: E402,F401,F403
from ._ops_linalg import *  # noqa: E402,F401,F403
from ._ops_stats import *  # noqa: E402,F401,F403
from . import nn, optim, utils, linalg, testing  # noqa: E402,F401
from . import special  # noqa: E402,F401  (torch.special: expit, gammaln, entr, ndtr, ...)
from . import amp  # noqa: E402,F401  (torch.amp: mixed precision, off on this CPU-only build)
from . import profiler  # noqa: E402,F401  (torch.profiler.record_function: a label, recording nothing)
from .amp import autocast, is_autocast_enabled, is_autocast_available  # noqa: E402,F401


class _DeviceAmp(_AsModule):
    """torch.cuda.amp and torch.cpu.amp: torch.amp's autocast and GradScaler, deprecated."""

    def __init__(self, device):
        self._module = 'torch.%s.amp' % device
        self.autocast, self.GradScaler = amp.deprecated_for(device)


cuda.amp, cpu.amp = _DeviceAmp('cuda'), _DeviceAmp('cpu')
from .linalg import _chain_matmul as chain_matmul  # noqa: E402,F401
from ._misc import compile  # noqa: E402,F401  (torch.compile: runs the model as it is)
# torch.* names of nn.functional's activations and distances (PyTorch has both)
from .nn.functional import (celu, celu_, selu, selu_, threshold, threshold_, hardshrink,  # noqa: E402,F401
                            pairwise_distance, prelu, cosine_similarity, _torch_rrelu as rrelu, rrelu_)
from ._ops_vision import (conv_transpose1d, conv_transpose2d, conv_transpose3d, pixel_shuffle,  # noqa: E402,F401
                          pixel_unshuffle,
                          adaptive_max_pool1d_with_indices as adaptive_max_pool1d)
from ._ops_conv import adaptive_avg_pool1d  # noqa: E402,F401
from ._ops_vision2 import grid_sampler, affine_grid_generator  # noqa: E402,F401
from ._ops_ctc import ctc_loss  # noqa: E402,F401
from ._ops_nn2 import bilinear  # noqa: E402,F401
from ._ops_torchfns import *  # noqa: E402,F401,F403  (torch.batch_norm, torch.dropout, torch.gcd, ...)
from ._memory_format import (memory_format, contiguous_format, preserve_format, channels_last,  # noqa: E402,F401
                             channels_last_3d)
Tensor.hardshrink = lambda self, lambd=0.5: hardshrink(self, lambd)
Tensor.prelu = lambda self, weight: prelu(self, weight)

# torch.sin_(a), torch.relu_(a), ...: the in-place methods as functions (The Fundamentals of Autograd calls
# torch.sin_ on a leaf to show its error).
for _name in ('abs_', 'acos_', 'asin_', 'atan_', 'ceil_', 'clamp_', 'clamp_max_', 'clamp_min_', 'clip_', 'cos_',
              'cosh_', 'detach_', 'exp_', 'expm1_', 'fill_', 'floor_', 'frac_', 'log10_', 'log1p_', 'log2_', 'log_',
              'neg_', 'reciprocal_', 'relu_', 'round_', 'rsqrt_', 'sigmoid_', 'sin_', 'sinh_', 'sqrt_', 'square_',
              'tan_', 'tanh_', 'trunc_', 'zero_'):
    globals()[_name] = getattr(Tensor, _name)
# torch.reshape(x, (2, 3)), torch.permute(x, (1, 0)), torch.tile(x, (2,)), torch.flip(x, (0,)): one sequence
# (x.reshape(2, 3) takes ints)
reshape, permute, tile, flip = (_methods.sequence_function(_name, _arg) for _name, _arg in (
    ('reshape', 'shape'), ('permute', 'dims'), ('tile', 'dims'), ('flip', 'dims')))


def split(tensor, split_size_or_sections, dim=0):
    """torch.split, which PyTorch writes in Python with these parameter names (torch.split(x, split_size=2) is
    refused, x.split(split_size=2) is not), handing the call to the tensor's method."""
    return tensor.split(split_size_or_sections, dim)


from . import _ops_nn  # noqa: E402


def norm(input, p='fro', dim=None, keepdim=False, out=None, dtype=None):
    """torch.norm, which PyTorch writes in Python with these parameters (input=, out= too; x.norm takes neither)."""
    input.layout                # (PyTorch's reads it first: torch.norm([1., 2.]) fails there)
    result = _ops_nn.norm(input, p, dim, keepdim, dtype)
    return result if out is None else _methods._write_out('linalg_vector_norm', result, out, (input,))


def unique(input, sorted=True, return_inverse=False, return_counts=False, dim=None):
    """torch.unique, Python in PyTorch, its input named input (x.unique's is self)."""
    return _ops_nn.unique(input, sorted, return_inverse, return_counts, dim)


# x.sum(axis=0), torch.sum(x, axis=0), torch.mul(a, b, out=c): PyTorch's native methods and functions take numpy's
# keyword names, its functions out= (see _methods.native); those PyTorch writes in Python (torch.norm, torch.split,
# torch.unique) do not.
_methods.install_methods()
for _name, _fn in list(globals().items()):
    if isinstance(_fn, _types.FunctionType) and not _name.startswith('_') and _name not in _methods._PYTHON_METHODS:
        globals()[_name] = _methods.native(_fn, _name, function=True)
from . import serialization  # noqa: E402
from .serialization import save, load  # noqa: E402,F401
from . import random  # noqa: E402,F401  (torch.random.manual_seed: the functions above)
from ._ops_attention import baddbmm, baddbmm_ as _baddbmm_  # noqa: E402,F401
Tensor.baddbmm = _methods.method_descriptor(_methods.native(baddbmm, 'baddbmm'), 'baddbmm')
Tensor.baddbmm_ = _methods.method_descriptor(_methods.native(_baddbmm_, 'baddbmm_'), 'baddbmm_')
baddbmm = _methods.native(baddbmm, 'baddbmm', function=True)
from ._ops_attention import addbmm, addbmm_ as _addbmm_  # noqa: E402
Tensor.addbmm = _methods.method_descriptor(_methods.native(addbmm, 'addbmm'), 'addbmm')
Tensor.addbmm_ = _methods.method_descriptor(_methods.native(_addbmm_, 'addbmm_'), 'addbmm_')
addbmm = _methods.native(addbmm, 'addbmm', function=True)


def unflatten(input, dim, sizes):
    return input.unflatten(dim, sizes, _pos=3)
from . import func  # noqa: E402,F401  (torch.func: grad, vmap, jacrev, functional_call...)
from .func import vmap  # noqa: E402,F401
from ._misc import (use_deterministic_algorithms, are_deterministic_algorithms_enabled,  # noqa: E402,F401
                    is_deterministic_algorithms_warn_only_enabled, set_float32_matmul_precision,
                    get_float32_matmul_precision, solve, symeig, eig, lstsq, matrix_rank, isin, unravel_index,
                    block_diag, trapezoid, trapz, set_default_device)


from . import _torch_names  # noqa: E402


def _importing_from(frame):
    """Whether frame is running a `from module import name` (Python's IMPORT_FROM: it asks the module for the
    name, and on an AttributeError makes its ImportError from the module's own name, engine.nn)."""
    return frame.f_code.co_code[frame.f_lasti] == _IMPORT_FROM


_IMPORT_FROM = _dis.opmap['IMPORT_FROM']        # (dis is loaded already: inspect, which the engine imports, uses it)


# torch's submodules the engine imports when first used, not at the page's start-up (the modules they load then get
# their torch names from _missing_attributes_named_as_torch, called again at the end of their __init__)
_LAZY_SUBMODULES = frozenset(('distributions',))


def __dir__():
    return _builtins.sorted(_LAZY_SUBMODULES.union(globals()))


def _missing_attributes_named_as_torch():
    """Give each public module of the engine a module __getattr__ (PEP 562) for names it lacks, raising PyTorch's
    error, which names the module as torch.nn, not engine.nn: `torch.nn.Linaer` is "module 'torch.nn' has no
    attribute 'Linaer'" (Python adds "Did you mean: 'Linear'?"). torch itself gets no such suggestion: it has more
    names than Python searches; an AttributeError that carries its object is left without one."""
    def public(name):
        parts = name.split('.')
        return parts[0] == __name__ and not _builtins.any(p.startswith('_') for p in parts[1:])

    for key, module in _builtins.list(_sys.modules.items()):
        if not public(key) or key == __name__ + '.graph' or '__getattr__' in vars(module):
            continue
        # (a private module known by a public name, as engine._function by torch.autograd.function: that name)
        shown = 'torch' + (module.__name__ if public(module.__name__) else key)[len(__name__):]

        def __getattr__(name, shown=shown, module=module):
            if shown == 'torch' and name in _LAZY_SUBMODULES:
                return _importlib.import_module(__name__ + '.' + name)
            if _importing_from(_sys._getframe(1)):     # (`from torch.nn import Relu`: Python's error, torch's name)
                raise ImportError('cannot import name %r from %r (%s)' % (name, shown, module.__file__),
                                  name=shown, path=module.__file__)
            error = AttributeError("module '%s' has no attribute '%s'" % (shown, name))
            if shown == 'torch':
                error.obj = module
            raise error
        module.__getattr__ = __getattr__
        if shown in _torch_names.NAMES:            # (dir() as PyTorch's, which Python's suggestions search)
            extra, hidden = (frozenset(names.split()) for names in _torch_names.NAMES[shown])

            def __dir__(module=module, extra=extra, hidden=hidden):
                return _builtins.sorted(extra.union(vars(module)).difference(hidden))
            module.__dir__ = __dir__


_missing_attributes_named_as_torch()


# PyTorch's torch.* functions are builtins but for these, which it writes in Python (see _misc.builtin); of the
# builtins, those listed after them are plain functions of torch._C (`<built-in function is_grad_enabled>`), as are
# torch.linalg's and some of nn.functional's (torch._C._nn), the other ones of nn.functional static methods too.
_PYTHON_FUNCTIONS = frozenset("""
    are_deterministic_algorithms_enabled atleast_1d atleast_2d atleast_3d block_diag broadcast_shapes
    broadcast_tensors cartesian_prod cdist compile eig einsum get_default_device get_float32_matmul_precision
    get_rng_state initial_seed is_deterministic_algorithms_warn_only_enabled is_storage is_tensor load lstsq
    manual_seed matrix_rank meshgrid norm save seed set_default_device set_default_dtype set_default_tensor_type
    set_float32_matmul_precision set_printoptions set_rng_state solve split symeig tensordot typename unique
    unique_consecutive unravel_index use_deterministic_algorithms vmap lu set_warn_always
    is_warn_always_enabled""".split())
_PLAIN_BUILTINS = frozenset("""
    get_default_dtype get_num_interop_threads get_num_threads is_anomaly_check_nan_enabled is_anomaly_enabled
    is_grad_enabled is_inference_mode_enabled set_anomaly_enabled set_num_threads set_flush_denormal""".split())
_NN_BUILTINS = {'avg_pool2d': 'avg_pool2d', 'elu_': 'elu_', 'gelu': 'gelu', 'hardtanh_': 'hardtanh_',
                'leaky_relu_': 'leaky_relu_', 'linear': 'linear', 'logsigmoid': 'log_sigmoid', 'one_hot': 'one_hot',
                'scaled_dot_product_attention': 'scaled_dot_product_attention', 'softplus': 'softplus',
                'softshrink': 'softshrink', 'adaptive_avg_pool1d': None, 'avg_pool1d': None, 'celu_': None,
                'conv1d': None, 'conv2d': None, 'conv3d': None, 'conv_transpose1d': None, 'conv_transpose2d': None,
                'conv_transpose3d': None, 'avg_pool3d': 'avg_pool3d',
                'cosine_similarity': None, 'hardshrink': None, 'pairwise_distance': None, 'pixel_shuffle': None,
                'pixel_unshuffle': None, 'prelu': None, 'relu_': None, 'selu_': None, 'threshold_': None,
                'rrelu_': None, 'pdist': None, 'bilinear': None}


def _as_builtins():
    from . import _argparse
    namespace = globals()
    for name, fn in _builtins.list(namespace.items()):
        if isinstance(fn, _types.FunctionType) and not name.startswith('_') and name not in _PYTHON_FUNCTIONS:
            namespace[name] = _misc.builtin(fn, name, name if name in _PLAIN_BUILTINS else None)
    for name, c_name in _NN_BUILTINS.items():
        fn = getattr(nn.functional, name, None)
        if isinstance(fn, _types.FunctionType):
            if name in _argparse.FUNCTIONS:       # (checked by PyTorch's argument parser: F.one_hot([1, 2]))
                fn = _methods._parsed(fn, name, True)
            setattr(nn.functional, name, _misc.builtin(fn, name, c_name, 'torch._C._nn'))
    parsed_pad = _methods._parsed(nn.functional.pad, 'pad', True)

    def pad(input, pad, mode='constant', value=None):
        """F.pad: Python in PyTorch, giving torch._C._nn.pad its arguments by position (its parser's errors name
        their positions: value='a' is "argument 'value' (position 4)")."""
        return parsed_pad(input, pad, mode, value)
    pad.__module__, pad.__qualname__ = 'torch.nn.functional', 'pad'
    nn.functional.pad = pad
    for name, fn in _builtins.list(vars(linalg).items()):
        if isinstance(fn, _types.FunctionType) and not name.startswith('_'):
            setattr(linalg, name, _misc.builtin(fn, name, 'linalg_' + name, 'torch._C._linalg'))


_as_builtins()
nn.functional.channel_shuffle = channel_shuffle  # noqa: E402,F405  (PyTorch's F.channel_shuffle is torch's)
nn.functional.native_channel_shuffle = native_channel_shuffle  # noqa: E402,F405
