"""Smaller parts of the torch namespace: process settings (threads, deterministic algorithms, matmul precision), the
functions PyTorch 2 removed (their errors say what replaced them), and a few composite ops built, as PyTorch builds
them, from the engine's own (so that their graphs show PyTorch's nodes)."""
import builtins
import functools
import os
import re

import numpy as np

from . import _autograd as ag
from . import _dtypes as dt
from . import _ops as ops
from ._tensor import Tensor, make

# -------------------------------------------------------------------------------------------- settings

# What a program sets for the rest of its process (the runner puts them back after each run)
settings = {'num_threads': os.cpu_count() or 1, 'deterministic': False, 'warn_only': False,
            'matmul_precision': 'highest'}


def use_deterministic_algorithms(mode, *, warn_only=False):
    settings.update(deterministic=bool(mode), warn_only=bool(warn_only))


def are_deterministic_algorithms_enabled():
    return settings['deterministic']


def is_deterministic_algorithms_warn_only_enabled():
    return settings['warn_only']


def set_float32_matmul_precision(precision):
    """'highest', 'high' or 'medium' (kept, and reported back; the engine's float32 products do not change)."""
    if precision not in ('highest', 'high', 'medium'):
        ag.torch_warn("%s is not one of 'highest', 'high', or 'medium'; the currentsetFloat32MatmulPrecision call has "
                      "no effect." % precision, 'aten/src/ATen/Context.cpp:458')
        return
    settings['matmul_precision'] = precision


def get_float32_matmul_precision():
    return settings['matmul_precision']



_VERSION = re.compile(r'v?(\d+(?:\.\d+)*)(?:[-_.]?(a|b|c|rc|alpha|beta|pre|preview)[-_.]?(\d*))?'
                      r'(?:-(\d+)|[-_.]?(?:post|rev|r)[-_.]?(\d*))?(?:[-_.]?(dev)[-_.]?(\d*))?'
                      r'(?:\+([a-z0-9]+(?:[-_.][a-z0-9]+)*))?', re.IGNORECASE)
_PRE = {'a': 0, 'alpha': 0, 'b': 1, 'beta': 1}


def _version_key(text):
    """The order of a version string among others, as PEP 440 (packaging.version) orders them:
    2.13.0+cpu > 2.13 == 2.13.0 > 2.13rc1 > 2.13.dev1 > 2.9. None if `text` is not a version."""
    m = _VERSION.fullmatch(text.strip())
    if m is None:
        return None
    release, pre, pre_n, post_dash, post_n, dev, dev_n, local = m.groups()
    numbers = [int(x) for x in release.split('.')]
    while len(numbers) > 1 and numbers[-1] == 0:
        numbers.pop()
    post = post_dash or post_n
    has_post = post_dash is not None or post_n is not None
    return (tuple(numbers),
            (1, _PRE.get(pre.lower(), 2), int(pre_n or 0)) if pre else (0,) if dev and not has_post else (2,),
            (1, int(post or 0)) if has_post else (0,),
            (1, int(dev_n or 0)) if dev else (2,),
            (0,) if local is None else (1, tuple((1, int(p), '') if p.isdigit() else (0, 0, p.lower())
                                                 for p in re.split(r'[-_.]', local))))


class TorchVersion(str):
    """torch.__version__: a str that compares as a version with version strings and tuples, as PyTorch's does
    (torch.__version__ >= '2.9' and >= (2, 0) are True, though '2.13.0+cpu' < '2.9' as strings); with anything
    else, as a str."""
    __module__ = 'torch.torch_version'
    __slots__ = ()
    __hash__ = str.__hash__

    def _compare(self, other, op):
        if isinstance(other, str):
            key = _version_key(other)
        elif hasattr(other, '__iter__'):
            key = _version_key('.'.join(str(item) for item in other))
        else:
            key = None
        mine = _version_key(self)
        if key is None or mine is None:
            return getattr(str, op)(self, other)
        return getattr(mine, op)(key)

    __gt__ = lambda self, other: self._compare(other, '__gt__')        # noqa: E731
    __lt__ = lambda self, other: self._compare(other, '__lt__')        # noqa: E731
    __ge__ = lambda self, other: self._compare(other, '__ge__')        # noqa: E731
    __le__ = lambda self, other: self._compare(other, '__le__')        # noqa: E731
    __eq__ = lambda self, other: self._compare(other, '__eq__')        # noqa: E731



_compiler_loaded = False     # (whether torch.compile has compiled: its first compilation loads PyTorch's compiler)


def compile(model=None, *, fullgraph=False, dynamic=None, backend=None, mode=None, options=None, name=None,
            disable=False, recompile_limit=None, isolate_recompiles=False, shapes_spec=None):
    """torch.compile: there is no compiler here, so `model` runs as it is: a function through a wrapper of the same
    name, a Module inside an OptimizedModule (as PyTorch's, whose repr and state_dict keys show `_orig_mod`).
    Without a model, the decorator that compiles one. The first compilation turns distributions' argument
    validation off for good, as importing PyTorch's compiler (torch._dynamo) does."""
    from .nn import Module, OptimizedModule
    global _compiler_loaded
    if model is not None and not disable and not _compiler_loaded:
        from .distributions import Distribution
        Distribution.set_default_validate_args(False)
        _compiler_loaded = True
    if model is None:
        def fn(model):
            if model is None:
                raise RuntimeError('Model can\'t be None')
            return compile(model)
        return fn
    if not callable(model):
        raise AssertionError('A callable function is expected, but %s is provided.' % type(model))
    if isinstance(model, Module):
        return OptimizedModule(model)

    @functools.wraps(model)
    def compiled(*args, **kwargs):
        return model(*args, **kwargs)
    return compiled

# -------------------------------------------------------------------------------------------- C++ functions

class _VariableFunctionsClass:
    """The C type whose static methods most torch.* functions are: `print(torch.tensor)` shows its address."""


class builtin_function_or_method(functools.partial):
    """A function PyTorch writes in C++, as a learner meets it by mistake: `print(torch.sum)` shows `<built-in
    method sum of type object at 0x...>` (torch.linalg.norm: `<built-in function linalg_norm>`), and
    `torch.tensor[[1., 1.]]` or `100 * torch.rand` fail on a 'builtin_function_or_method'. A partial: calling it
    costs no Python frame."""
    __slots__ = ()
    __module__ = 'builtins'

    def __repr__(self):
        if self.__qualname__ != self.__name__:
            return '<built-in method %s of type object at %#x>' % (self.__name__, id(_VariableFunctionsClass))
        return '<built-in function %s>' % self.__name__

    def __copy__(self):
        return self

    def __deepcopy__(self, memo):
        return self


def builtin(fn, name, c_name=None, module='torch'):
    """fn as the builtin PyTorch has by `name`: a static method of _VariableFunctionsClass, or, given the C++
    function's own name `c_name` (torch.linalg's 'linalg_norm' of module 'torch._C._linalg'), a plain builtin."""
    f = builtin_function_or_method(fn)
    f.__name__ = c_name or name
    f.__qualname__ = c_name or '_VariableFunctionsClass.' + name
    f.__module__ = module
    f.__doc__ = fn.__doc__
    return f


# -------------------------------------------------------------------------------------------- removed in PyTorch 2

_REMOVED = 'This function was deprecated since version 1.9 and is now removed. '
_REMOVED_TEXTS = {
    'solve': '`torch.solve` is deprecated in favor of `torch.linalg.solve`. `torch.linalg.solve` has its arguments '
             'reversed and does not return the LU factorization.\n\nTo get the LU factorization see `torch.lu`, which '
             'can be used with `torch.lu_solve` or `torch.lu_unpack`.\nX = torch.solve(B, A).solution should be '
             'replaced with:\nX = torch.linalg.solve(A, B)',
    'symeig': 'The default behavior has changed from using the upper triangular portion of the matrix by default to '
              "using the lower triangular portion.\n\nL, _ = torch.symeig(A, upper=upper) should be replaced with:\nL "
              "= torch.linalg.eigvalsh(A, UPLO='U' if upper else 'L')\n\nand\n\nL, V = torch.symeig(A, "
              "eigenvectors=True) should be replaced with:\nL, V = torch.linalg.eigh(A, UPLO='U' if upper else 'L')",
    'eig': '`torch.linalg.eig` returns complex tensors of dtype `cfloat` or `cdouble` rather than real tensors '
           'mimicking complex tensors.\n\nL, _ = torch.eig(A) should be replaced with:\nL_complex = '
           'torch.linalg.eigvals(A)\n\nand\n\nL, V = torch.eig(A, eigenvectors=True) should be replaced with:\n'
           'L_complex, V_complex = torch.linalg.eig(A)',
    'lstsq': '`torch.lstsq` is deprecated in favor of `torch.linalg.lstsq`.\n`torch.linalg.lstsq` has reversed '
             'arguments and does not return the QR decomposition in the returned tuple (although it returns other '
             'information about the problem).\n\nTo get the QR decomposition consider using `torch.linalg.qr`.\n\n'
             'The returned solution in `torch.lstsq` stored the residuals of the solution in the last m - n columns '
             "of the returned value whenever m > n. In torch.linalg.lstsq, the residuals are in the field 'residuals' "
             'of the returned named tuple.\n\nThe unpacking of the solution, as in\nX, _ = torch.lstsq(B, '
             'A).solution[:A.size(1)]\nshould be replaced with:\nX = torch.linalg.lstsq(A, B).solution',
    'matrix_rank': "\nPlease use the `torch.linalg.matrix_rank` function instead. The parameter 'symmetric' was "
                   'renamed in `torch.linalg.matrix_rank()` to \'hermitian\'.',
}


def _removed(name):
    def fn(*args, **kwargs):
        raise RuntimeError(_REMOVED + _REMOVED_TEXTS[name] if name != 'matrix_rank'
                           else _REMOVED.rstrip() + _REMOVED_TEXTS[name])
    fn.__name__ = fn.__qualname__ = name
    return fn


solve, symeig, eig, lstsq, matrix_rank = (_removed(n) for n in ('solve', 'symeig', 'eig', 'lstsq', 'matrix_rank'))


# -------------------------------------------------------------------------------------------- composite ops

def isin(elements, test_elements, *, assume_unique=False, invert=False):
    """Whether each element is among test_elements (a tensor or a number on either side; no gradient)."""
    a, b = (x._data if isinstance(x, Tensor) else np.asarray(x) for x in (elements, test_elements))
    if a.dtype.kind == 'b' or b.dtype.kind == 'b':
        raise RuntimeError('Unsupported input type encountered for isin(): Bool')
    return make(np.isin(a, b, invert=invert))


def unravel_index(indices, shape):
    """The coordinates of flat indices in an array of this shape: a tuple of int64 tensors."""
    if not isinstance(indices, Tensor):         # (PyTorch's Python code asks it first: indices.is_complex())
        raise AttributeError("'%s' object has no attribute 'is_complex'" % type(indices).__name__)
    if indices._data.dtype.kind not in 'iu':
        raise TypeError("expected 'indices' to be integer dtype, but got %s" % indices.dtype)
    shape = (shape,) if isinstance(shape, builtins.int) else tuple(shape)
    flat = indices._data.astype(np.int64)
    total = int(np.prod(shape, dtype=np.int64))     # (no bounds check: PyTorch's floor divisions wrap any index)
    return tuple(make(c.astype(np.int64)) for c in np.unravel_index(flat % total, shape))


def block_diag(*tensors):
    """The tensors (0-, 1- or 2-d; a vector counts as one row) on the diagonal of a zero matrix: BlockDiagBackward0."""
    from ._ops_index import tensor_list
    for i, t in enumerate(tensor_list(tensors)):
        if t._data.ndim > 2:
            raise RuntimeError('torch.block_diag: Input tensors must have 2 or fewer dimensions. Input %d has %d '
                               'dimensions' % (i, t._data.ndim))
    blocks = [t._data.reshape((1,) * (2 - t._data.ndim) + t._data.shape) for t in tensors]
    dtype = dt.result_type(*tensors).np if blocks else np.float32      # (0-d tensors rank below the others)
    out = np.zeros((builtins.sum(b.shape[0] for b in blocks) if blocks else 1,      # (none: a 1 x 0 matrix)
                    builtins.sum(b.shape[1] for b in blocks)), dtype)
    r = c = 0
    for b in blocks:
        out[r:r + b.shape[0], c:c + b.shape[1]] = b
        r, c = r + b.shape[0], c + b.shape[1]
    out = ops._attach(make(out), BlockDiagBackward0, tuple(tensors))
    if out._grad_fn is not None:             # (PyTorch saves the shapes too, but shows no _saved_ attribute of them)
        out._grad_fn.shapes = [t._data.shape for t in tensors]
    return out


class BlockDiagBackward0(ag.Node):
    _all_grads = True                        # (every input's gradient, needed or not)

    def apply(self, g):
        grads, r, c = [], 0, 0
        for shape in self.shapes:
            rows, cols = (1,) * (2 - builtins.len(shape)) + shape if builtins.len(shape) < 2 else shape
            grads.append(g[r:r + rows, c:c + cols].reshape(shape))
            r, c = r + rows, c + cols
        return tuple(grads)


_TRAPEZOID = ('(Tensor y, Tensor x, *, int dim = -1)', '(Tensor y, *, Number dx = 1, int dim = -1)')
_TRAPZ = ('(Tensor y, *, float dx = 1, int dim = -1)', '(Tensor y, Tensor x, *, int dim = -1)')
_UNSET = object()


def trapezoid(y, *args, _options=_TRAPEZOID, **kwargs):
    """The trapezoid rule along dim, composed as PyTorch composes it: with spacing dx, (sum(y) - (y[0] + y[-1]) / 2)
    * dx; with sample points x, sum((x[1:] - x[:-1]) * (y[1:] + y[:-1])) / 2. x must be a tensor and dx a number,
    given by keyword (PyTorch's two signatures)."""
    x = args[0] if len(args) == 1 else kwargs.get('x', _UNSET)
    dx, dim = kwargs.get('dx', _UNSET), kwargs.get('dim', -1)
    if (len(args) > 1 or not set(kwargs) <= {'x', 'dx', 'dim'} or (args and 'x' in kwargs) or dx is None
            or (x is not _UNSET and (not isinstance(x, Tensor) or dx is not _UNSET))
            or not isinstance(dim, builtins.int)):
        from ._argparse import invalid_combination
        raise invalid_combination('trapz' if _options is _TRAPZ else 'trapezoid', _options, (y,) + args, kwargs)
    if isinstance(dx, builtins.bool) and _options is _TRAPEZOID:
        raise RuntimeError('trapezoid: Currently, we only support dx as a real number.')
    x = None if x is _UNSET else x
    dx = None if dx is _UNSET else dx
    from ._tensor import _wrap_dim
    d = _wrap_dim(dim, y._data.ndim, scalar=False)
    if y._data.dtype.kind == 'b' or x is not None and x._data.dtype.kind == 'b':
        raise RuntimeError('trapezoid: received a bool input for `%s`, but bool is not supported'
                           % ('y' if x is None else 'x` or `y'))
    n = y._data.shape[d]
    if x is None:
        if n == 0:
            return ops.sum(y, dim) * 0.
        ends = y.select(dim, 0) + y.select(dim, -1)
        return ops._mul_scalar(y.sum(dim) - ops._mul_scalar(ends, 0.5), 1. if dx is None else dx)
    if x.dim() == 1:                    # (x along dim, broadcast over y's other dims)
        if x.shape[0] != n:
            raise RuntimeError('trapezoid: There must be one `x` value for each sample point')
        x = x.view([x.shape[0] if i == d else 1 for i in builtins.range(y.dim())])
    elif x.dim() < y.dim():
        x = x.view((1,) * (y.dim() - x.dim()) + tuple(x.shape))
    dxs = x.diff(dim=dim)
    total = ((y.narrow(dim, 1, n - 1) + y.narrow(dim, 0, n - 1)) * dxs).sum(dim)
    return ops._div_scalar(total if total.is_floating_point() else total.to(dt.default_float), 2.)  # (ints: 7.5)


def trapz(y, *args, **kwargs):
    return trapezoid(y, *args, _options=_TRAPZ, **kwargs)


def fill_diagonal_(self, fill_value, wrap=False):
    """Fill the main diagonal in place (all dims of one size, or a tall matrix, wrapping every cols + 1 rows)."""
    x = self._data
    if x.ndim < 2:
        raise RuntimeError('dimensions must larger than 1')
    if x.ndim > 2 and builtins.len(set(x.shape)) != 1:
        raise RuntimeError('all dimensions of input must be of equal length')
    rows = np.arange(builtins.min(x.shape) if not (wrap and x.ndim == 2) else x.shape[0], dtype=np.int64)
    if wrap and x.ndim == 2:
        rows = rows[rows % (x.shape[1] + 1) < builtins.min(x.shape[1], x.shape[0])]
    cols = rows % (x.shape[1] + 1) if wrap and x.ndim == 2 else rows
    if x.flags.c_contiguous and self._base is None or ops._shares_elements(x) and not wrap:
        # PyTorch's way: fill_ through as_strided views of the diagonal (then of its wrapped part): CopySlices. (An
        # expanded tensor too: no index_put_ into it, which would warn)
        stride = builtins.sum(self.stride())
        self.as_strided((builtins.min(x.shape[:2]),), (stride,)).fill_(fill_value)
        height, width = x.shape[:2]
        if wrap and x.ndim == 2 and height > width + 1:
            step = width + 1
            self.as_strided(((x.size + step - 1) // step - width,), (stride,), self.stride(0) * step).fill_(fill_value)
    elif x.flags.c_contiguous:        # (through a view of the memory, as PyTorch's as_strided: CopySlices)
        steps = np.cumprod((1,) + x.shape[:0:-1])[::-1]
        ops.setitem(self.view(-1), make(rows * steps[0] + cols * builtins.sum(steps[1:])), fill_value)
    else:
        ops.setitem(self, (make(rows),) + (make(cols),) * (x.ndim - 1), fill_value)
    return self


def sum_to_size(self, *size):
    """self summed down to `size` (which self must expand to): self itself when it has that size already."""
    if not size:
        raise TypeError('sum_to_size() missing 1 required positional arguments: "size"')
    size = tuple(size[0]) if builtins.len(size) == 1 and isinstance(size[0], (tuple, list)) else size
    if not ops._expandable(size, self._data.shape):
        raise RuntimeError('size {[%s]} is not expandable to size {[%s]}.'
                           % (', '.join(map(str, size)), ', '.join(map(str, self._data.shape))))
    return self if tuple(self._data.shape) == size else ops.sum_to(self, size)


def set_default_device(device):
    """Only the CPU exists here: another device fails as making a tensor there would."""
    if device is not None and not str(device).startswith('cpu'):
        raise AssertionError('Torch not compiled with CUDA enabled')
