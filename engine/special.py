"""torch.special: the special functions PyTorch also has under other names (expit is sigmoid, gammaln lgamma, psi
digamma...), each the same op with the same node (`torch.special.expit(x).grad_fn` is a SigmoidBackward0), and entr
and ndtr. Their arguments are read by PyTorch's parser with the signature of their own C++ functions
(`special_expit`), whose names the parser's errors give. gammainc and gammaincc are torch.igamma and igammac
(IgammaBackward0, IgammacBackward0)."""
import numpy as np

from . import _argparse, _misc
from ._autograd import Node
from ._ops import _unary, _rounded, _mul_scalar, _add_scalar
from ._ops_nn import erf
from ._ops_math import (xlog1py, special_i0e, special_i1, special_i1e, special_erfcx, special_ndtri,
                        special_log_ndtr)


def _entr_np(x):
    """PyTorch's entr kernel: -x * log(x) above 0, 0 at 0, -inf below, nan kept."""
    with np.errstate(divide='ignore', invalid='ignore'):
        r = -x * _rounded(np.log)(np.where(x > 0, x, x.dtype.type(1)))
    return np.where(x > 0, r, np.where(x == 0, x.dtype.type(0), np.where(np.isnan(x), x, x.dtype.type(-np.inf))))


class SpecialEntrBackward0(Node):
    def apply(self, g):
        return (g * -_add_scalar(self.saved('self').log(), 1),)         # (C++'s `1 + t`: AddBackward1)


_entr = _unary(_entr_np, SpecialEntrBackward0, 'self')


def _ndtr(x):
    """PyTorch's special_ndtr, written with its C++ ops (so their nodes: MulBackward1, ErfBackward0, AddBackward1,
    MulBackward1): (1 + erf(x * M_SQRT1_2)) * 0.5."""
    return _mul_scalar(_add_scalar(erf(_mul_scalar(x, 0.7071067811865476)), 1), 0.5)


_UNARY = {'expit': 'sigmoid', 'erf': 'erf', 'erfc': 'erfc', 'erfinv': 'erfinv', 'exp2': 'exp2', 'expm1': 'expm1',
          'log1p': 'log1p', 'sinc': 'sinc', 'gammaln': 'lgamma', 'digamma': 'digamma', 'psi': 'digamma',
          'entr': _entr, 'ndtr': _ndtr, 'i0': 'i0', 'i0e': special_i0e, 'i1': special_i1, 'i1e': special_i1e,
          'erfcx': special_erfcx, 'ndtri': special_ndtri, 'log_ndtr': special_log_ndtr}
# the engine's own ops that are PyTorch's kernels (their out= is the kernel's, not differentiable)
_KERNELS = ('entr', 'xlog1py', 'i0e', 'i1', 'i1e', 'erfcx', 'ndtri', 'log_ndtr')
_SIGNATURES = {name: ['special_%s(Tensor input, *, Tensor out=None)' % name] for name in _UNARY}
_SIGNATURES.update({
    'logit': ['special_logit(Tensor input, double? eps=None, *, Tensor out=None)'],
    'polygamma': ['special_polygamma(int64_t n, Tensor input, *, Tensor out=None)'],
    'logsumexp': ['special_logsumexp(Tensor input, IntArrayRef[1] dim, bool keepdim=False, *, Tensor out=None)'],
    'softmax': ['special_softmax(Tensor input, int64_t dim, ScalarType? dtype=None)'],
    'log_softmax': ['special_log_softmax(Tensor input, int64_t dim, *, ScalarType? dtype=None)'],
    'round': ['special_round(Tensor input, *, int64_t decimals=0, Tensor out=None)'],
    'xlogy': ['special_xlogy(Tensor input, Tensor other, *, Tensor out=None)',
              'special_xlogy(Scalar self, Tensor other, *, Tensor out=None)',
              'special_xlogy(Tensor input, Scalar other, *, Tensor out=None)'],
    'xlog1py': ['special_xlog1py(Tensor input, Tensor other, *, Tensor out=None)',
                'special_xlog1py(Scalar self, Tensor other, *, Tensor out=None)',
                'special_xlog1py(Tensor input, Scalar other, *, Tensor out=None)'],
    'gammainc': ['special_gammainc(Tensor input, Tensor other, *, Tensor out=None)'],
    'gammaincc': ['special_gammaincc(Tensor input, Tensor other, *, Tensor out=None)'],
})
# the torch.* function each calls, and how it takes the values parsed (by position, keywords by name)
_CALLS = dict({name: (op, ()) for name, op in _UNARY.items()}, logit=('logit', ('eps',)),
              polygamma=('polygamma', ()), logsumexp=('logsumexp', ()), softmax=('softmax', ('dtype',)),
              log_softmax=('log_softmax', ('dtype',)), round=('round', ('decimals',)), xlogy=('xlogy', ()),
              xlog1py=(xlog1py, ()), gammainc=('igamma', ()), gammaincc=('igammac', ()))


def _special_out(name, result, out, inputs):
    """torch.special.entr(x, out=t) (or xlog1py) is its kernel's out= (not differentiable); ndtr's is composite: its
    result cast-checked, t resized (with the warning) and the result copied in by copy_, recorded as in-place ops."""
    from . import _methods, _dtypes
    if name in _KERNELS:
        return _methods._write_out('special_' + name, result, out, inputs)
    if not _dtypes.can_cast(result.dtype, out.dtype):
        raise RuntimeError("result type %s can't be cast to the desired output type %s"
                           % (result.dtype.legacy, out.dtype.legacy))
    if out.shape != result.shape:
        _methods._warn_resized(out, result.shape)
        out.resize_(result.shape)
    return out.copy_(result)


def _special(name):
    parser = _argparse.Parser(_SIGNATURES[name])
    op, keywords = _CALLS[name]

    def f(*args, **kwargs):
        sig = parser.check(args, kwargs)
        values = dict(zip((p.name for p in sig.params), sig.parse(args, kwargs, True)))
        import engine as torch
        out = values.pop('out', None)
        named = {k: values.pop(k) for k in keywords if values.get(k) is not None}
        if name == 'round' and 'decimals' not in named:
            named['decimals'] = 0               # (PyTorch's special_round is round(decimals=0): RoundBackward1)
        positional = [v for k, v in values.items() if k not in keywords]
        while positional and positional[-1] is None:        # (arguments not given: the op's defaults)
            positional.pop()
        if out is not None:
            if not isinstance(op, str):             # (entr, ndtr, xlog1py: the engine's own, without out=)
                return _special_out(name, op(*positional), out, positional)
            named['out'] = out
        return (getattr(torch, op) if isinstance(op, str) else op)(*positional, **named)
    f.__name__ = f.__qualname__ = name
    return f


for _name in _SIGNATURES:        # (builtins of torch._C._special: `<built-in function special_expit>`)
    globals()[_name] = _misc.builtin(_special(_name), _name, 'special_' + _name, 'torch._C._special')
del _name
