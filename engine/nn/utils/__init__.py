"""torch.nn.utils: gradient clipping (RNN training loops), parameters as one vector, and rnn (pad_sequence)."""
import types
import warnings

from ... import _autograd as ag
from ... import _factories
from ..._ops import cat, stack
from ..._tensor import Tensor


def _as_list(parameters):
    return [parameters] if isinstance(parameters, Tensor) else list(parameters)


def get_total_norm(tensors, norm_type=2.0, error_if_nonfinite=False, foreach=None):
    """The norm of the tensors' norms: their norm as if all were one vector."""
    tensors = _as_list(tensors)
    norm_type = float(norm_type)
    if not tensors:
        return _factories.tensor(0.0)
    with ag.no_grad():                  # (PyTorch's is decorated @_no_grad: a tensor given itself gives no graph)
        total = stack([t.norm(norm_type) for t in tensors]).norm(norm_type)
    if error_if_nonfinite and bool(total.isnan() | total.isinf()):
        raise RuntimeError('The total norm of order %s for gradients from `parameters` is non-finite, so it cannot '
                           'be clipped. To disable this error and scale the gradients by the non-finite norm anyway, '
                           'set `error_if_nonfinite=False`' % norm_type)
    return total


def clip_grads_with_norm_(parameters, max_norm, total_norm, foreach=None):
    """Scale every gradient by min(max_norm / (total_norm + 1e-6), 1), in place."""
    grads = [p.grad for p in _as_list(parameters) if p.grad is not None]
    max_norm = float(max_norm)          # (checked before there may be nothing to clip, as PyTorch)
    if not grads:
        return
    with ag.no_grad():
        coef = (max_norm / (total_norm + 1e-6)).clamp(max=1.0)
        for g in grads:
            g.mul_(coef)


def clip_grad_norm_(parameters, max_norm, norm_type=2.0, error_if_nonfinite=False, foreach=None):
    """Scale the gradients so that their total norm is at most max_norm; returns the total norm before clipping."""
    is_generator = isinstance(parameters, types.GeneratorType)
    parameters = _as_list(parameters)
    if is_generator and not parameters:
        warnings.warn('`parameters` is an empty generator, no gradient clipping will occur.', stacklevel=2)
    with ag.no_grad():
        total = get_total_norm([p.grad for p in parameters if p.grad is not None], norm_type, error_if_nonfinite)
    clip_grads_with_norm_(parameters, max_norm, total)
    return total


def clip_grad_norm(parameters, max_norm, norm_type=2.0, error_if_nonfinite=False, foreach=None):
    """The deprecated name of clip_grad_norm_ (it warns, then clips)."""
    warnings.warn('`torch.nn.utils.clip_grad_norm` is now deprecated in favor of `torch.nn.utils.clip_grad_norm_`.',
                  FutureWarning, stacklevel=2)
    return clip_grad_norm_(parameters, max_norm, norm_type, error_if_nonfinite, foreach)


def clip_grad_value_(parameters, clip_value, foreach=None):
    """Clamp every gradient to [-clip_value, clip_value], in place."""
    clip_value = float(clip_value)
    grads = [p.grad for p in _as_list(parameters) if p.grad is not None]
    if not grads:   # (PyTorch groups the grads by device and dtype first, which fails on none)
        raise RuntimeError('Expected !nested_tensorlist[0].empty() to be true, but got false.  (Could this error '
                           'message be improved?  If so, please report an enhancement request to PyTorch.)')
    with ag.no_grad():
        for g in grads:
            if foreach is not None and not foreach:     # (False, 0, ...: the loop of single clamps)
                g.clamp_(min=-clip_value, max=clip_value)
            else:           # (PyTorch's foreach path on the CPU: two in-place ops, two version bumps)
                g.clamp_(min=-clip_value)
                g.clamp_(max=clip_value)


def parameters_to_vector(parameters):
    """All parameters flattened into one vector."""
    vec = []
    for p in parameters:
        p.device                    # (PyTorch checks each one's device first: a non-tensor fails there)
        vec.append(p.view(-1))
    return cat(vec)


def vector_to_parameters(vec, parameters):
    """Copy consecutive slices of vec into the parameters' data."""
    if not isinstance(vec, Tensor):
        from ... import typename
        raise TypeError('expected torch.Tensor, but got: %s' % typename(vec))
    at = 0
    for p in parameters:
        p.device
        n = p.numel()
        p.data = vec[at:at + n].view_as(p).data
        at += n


class WeightNorm:
    """The forward pre-hook of the deprecated weight_norm: before each forward the module's `name` is made again
    from its `name`_g (the norms) and `name`_v (the directions), a tensor in the graph of both."""
    __module__ = 'torch.nn.utils.weight_norm'

    def __init__(self, name, dim):
        self.name, self.dim = name, -1 if dim is None else dim

    def compute_weight(self, module):
        from ..._ops_nn2 import weight_norm as _weight_norm
        return _weight_norm(getattr(module, self.name + '_v'), getattr(module, self.name + '_g'), self.dim)

    def remove(self, module):
        weight = self.compute_weight(module)
        delattr(module, self.name)
        del module._parameters[self.name + '_g']
        del module._parameters[self.name + '_v']
        from ..parameter import Parameter
        setattr(module, self.name, Parameter(weight.data))

    def __call__(self, module, inputs):
        setattr(module, self.name, self.compute_weight(module))


def weight_norm(module, name='weight', dim=0):
    """Deprecated (FutureWarning): `name` of module split into `name`_g, its norm over every dim but dim (all dims
    when dim is None), and `name`_v, the parameter as it was; `name` becomes a plain attribute made from them before
    each forward."""
    from ...nn import Parameter
    from ..._ops_nn2 import norm_except_dim
    warnings.warn('`torch.nn.utils.weight_norm` is deprecated in favor of '
                  '`torch.nn.utils.parametrizations.weight_norm`.', FutureWarning, stacklevel=2)
    for hook in module._forward_pre_hooks.values():
        if isinstance(hook, WeightNorm) and hook.name == name:
            raise RuntimeError('Cannot register two weight_norm hooks on the same parameter %s' % name)
    fn = WeightNorm(name, dim)
    weight = getattr(module, name)
    del module._parameters[name]
    module.register_parameter(name + '_g', Parameter(norm_except_dim(weight, 2, fn.dim).data))
    module.register_parameter(name + '_v', Parameter(weight.data))
    setattr(module, name, fn.compute_weight(module))
    module.register_forward_pre_hook(fn)
    return module


def _remove_hook(module, name, kind, what):
    """Undo the forward pre-hook of class `kind` on module's `name` (what: its function's name, for the error)."""
    for k, hook in module._forward_pre_hooks.items():
        if isinstance(hook, kind) and hook.name == name:
            hook.remove(module)
            del module._forward_pre_hooks[k]
            return module
    raise ValueError("%s of '%s' not found in %s" % (what, name, module))


def remove_weight_norm(module, name='weight'):
    """Undo weight_norm: `name` a parameter again, of the weight its _g and _v make."""
    return _remove_hook(module, name, WeightNorm, 'weight_norm')


class SpectralNorm:
    """The forward pre-hook of the older spectral_norm: before each forward the module's `name` is made again as
    `name`_orig / sigma, sigma estimated by power iteration on the buffers `name`_u and `name`_v (which take
    n_power_iterations steps, without a graph, in training mode)."""
    __module__ = 'torch.nn.utils.spectral_norm'
    _version = 1

    def __init__(self, name='weight', n_power_iterations=1, dim=0, eps=1e-12):
        if n_power_iterations <= 0:
            raise ValueError('Expected n_power_iterations to be positive, but got n_power_iterations=%s'
                             % n_power_iterations)
        self.name, self.dim, self.n_power_iterations, self.eps = name, dim, n_power_iterations, eps

    def reshape_weight_to_matrix(self, weight):
        if self.dim != 0:
            weight = weight.permute(self.dim, *[d for d in range(weight.dim()) if d != self.dim])
        return weight.reshape(weight.size(0), -1)

    def compute_weight(self, module, do_power_iteration):
        from ... import mv, dot, contiguous_format
        from ..functional import normalize
        weight = getattr(module, self.name + '_orig')
        u, v = getattr(module, self.name + '_u'), getattr(module, self.name + '_v')
        weight_mat = self.reshape_weight_to_matrix(weight)
        if do_power_iteration:
            with ag.no_grad():
                for _ in range(self.n_power_iterations):
                    v = normalize(mv(weight_mat.t(), u), dim=0, eps=self.eps, out=v)
                    u = normalize(mv(weight_mat, v), dim=0, eps=self.eps, out=u)
                u = u.clone(memory_format=contiguous_format)     # (the buffers change at the next step:
                v = v.clone(memory_format=contiguous_format)     # sigma's graph keeps these)
        return weight / dot(u, mv(weight_mat, v))

    def remove(self, module):
        from ..parameter import Parameter
        with ag.no_grad():
            weight = self.compute_weight(module, do_power_iteration=False)
        for suffix in ('', '_u', '_v', '_orig'):
            delattr(module, self.name + suffix)
        module.register_parameter(self.name, Parameter(weight.detach()))

    def __call__(self, module, inputs):
        setattr(module, self.name, self.compute_weight(module, do_power_iteration=module.training))

    @staticmethod
    def apply(module, name, n_power_iterations, dim, eps):
        from ..functional import normalize
        for hook in module._forward_pre_hooks.values():
            if isinstance(hook, SpectralNorm) and hook.name == name:
                raise RuntimeError('Cannot register two spectral_norm hooks on the same parameter %s' % name)
        fn = SpectralNorm(name, n_power_iterations, dim, eps)
        weight = module._parameters[name]
        if weight is None:
            raise ValueError('`SpectralNorm` cannot be applied as parameter `%s` is None' % name)
        with ag.no_grad():
            h, w = fn.reshape_weight_to_matrix(weight).size()
            u = normalize(weight.new_empty(h).normal_(0, 1), dim=0, eps=fn.eps)
            v = normalize(weight.new_empty(w).normal_(0, 1), dim=0, eps=fn.eps)
        delattr(module, fn.name)
        module.register_parameter(fn.name + '_orig', weight)
        setattr(module, fn.name, weight.data)
        module.register_buffer(fn.name + '_u', u)
        module.register_buffer(fn.name + '_v', v)
        module.register_forward_pre_hook(fn)
        return fn


def spectral_norm(module, name='weight', n_power_iterations=1, eps=1e-12, dim=None):
    """The older spectral normalization, by a forward pre-hook (parametrizations.spectral_norm is the newer):
    `name` becomes `name`_orig (the parameter trained) with buffers `name`_u and `name`_v."""
    from .parametrizations import _transposed_conv_dim
    SpectralNorm.apply(module, name, n_power_iterations, _transposed_conv_dim(module, dim), eps)
    return module


def remove_spectral_norm(module, name='weight'):
    """Undo spectral_norm: `name` a parameter again, of the weight as normalized now."""
    return _remove_hook(module, name, SpectralNorm, 'spectral_norm')


def skip_init(module_cls, *args, **kwargs):
    """module_cls(*args, **kwargs) with its parameters and buffers left uninitialised, as PyTorch's (made on the
    meta device, then given empty memory): its initialisation draws no random numbers."""
    import inspect
    from .. import Module
    if not issubclass(module_cls, Module):
        raise RuntimeError('Expected a Module; got %s' % module_cls)
    if 'device' not in inspect.signature(module_cls).parameters:
        raise RuntimeError("Module must support a 'device' arg to skip initialization")
    device = kwargs.pop('device', 'cpu')
    state = _factories.get_rng_state()
    try:
        module = module_cls(*args, **kwargs)
    finally:
        _factories.set_rng_state(state)
    return module.to_empty(device=device)


from . import rnn, parametrize, parametrizations  # noqa: E402,F401
# (attributes after `import torch`, as PyTorch's: torch.nn.utils.stateless.functional_call in older code)
from . import clip_grad, convert_parameters, init, stateless  # noqa: E402,F401
