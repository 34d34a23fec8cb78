"""torch.nn.utils.prune: zero out some entries (or whole channels) of a module's parameter by a mask.

Pruning `weight` of a module moves the parameter to `weight_orig`, adds the buffer `weight_mask` (ones where kept,
zeros where pruned) and makes `weight` a plain attribute, weight_orig * weight_mask, made again before each forward
by a forward pre-hook: the pruning method itself. Pruning the same tensor again puts the methods in a
PruningContainer, whose mask is the old one with the new method's mask computed on what was left. `remove` makes the
pruned tensor a parameter again (its zeros stay)."""
import numbers
from abc import ABC, abstractmethod
from collections.abc import Iterable

_MODULE = 'torch.nn.utils.prune'


# ---------------------------------------------------------------------------------------------- amount checks
def _validate_pruning_amount_init(amount):
    """An int (the number of units to prune, >= 0) or a float in [0, 1] (the fraction of them)."""
    if not isinstance(amount, numbers.Real):
        raise TypeError(f'Invalid type for amount: {amount}. Must be int or float.')
    integral = isinstance(amount, numbers.Integral)
    if (integral and amount < 0) or (not integral and not 0.0 <= float(amount) <= 1.0):
        raise ValueError(f'amount={amount} should either be a float in the range [0, 1] or a non-negative integer')


def _validate_pruning_amount(amount, tensor_size):
    """At pruning time: an int amount may not exceed the number of units there are."""
    if isinstance(amount, numbers.Integral) and amount > tensor_size:
        raise ValueError(f'amount={amount} should be smaller than the number of parameters to prune={tensor_size}')


def _validate_structured_pruning(t):
    shape = t.shape
    if len(shape) <= 1:
        raise ValueError('Structured pruning can only be applied to multidimensional tensors. Found tensor of shape '
                         f'{shape} with {len(shape)} dims')


def _compute_nparams_toprune(amount, tensor_size):
    """The number of units to prune: an int amount as it is, a fraction of tensor_size rounded (half to even)."""
    if isinstance(amount, numbers.Integral):
        return amount
    return round(amount * tensor_size)


def _validate_pruning_dim(t, dim):
    if dim >= t.dim():
        raise IndexError(f'Invalid index {dim} for tensor of size {t.shape}')


def _compute_norm(t, n, dim):
    """The L_n norm of each channel along dim (over all the other dims)."""
    from ... import norm
    dims = list(range(t.dim()))
    dims.remove(dims[dim] if dim < 0 else dim)
    return norm(t, p=n, dim=dims)


def _channel_index(t, dim, index):
    """An index of t that picks `index` (a bool mask or indices) along dim and everything along the other dims."""
    key = [slice(None)] * t.dim()
    key[dim] = index
    return tuple(key)


# ---------------------------------------------------------------------------------------------- the methods
class BasePruningMethod(ABC):
    """A way of pruning. A subclass gives compute_mask(t, default_mask), the mask to prune t with on top of
    default_mask, and its PRUNING_TYPE ('unstructured', 'structured' with a `dim`, or 'global'). Applied to a module
    (`apply`) it is also the module's forward pre-hook."""
    _tensor_name: str

    def __call__(self, module, inputs):
        setattr(module, self._tensor_name, self.apply_mask(module))

    @abstractmethod
    def compute_mask(self, t, default_mask):
        """The mask for t, keeping every zero of default_mask."""

    def apply_mask(self, module):
        """The pruned tensor: module's `name`_orig times its `name`_mask (the mask in the original's dtype)."""
        if self._tensor_name is None:
            raise AssertionError('Module %s has to be pruned' % module)
        mask = getattr(module, self._tensor_name + '_mask')
        orig = getattr(module, self._tensor_name + '_orig')
        return mask.to(dtype=orig.dtype) * orig

    @classmethod
    def apply(cls, module, name, *args, importance_scores=None, **kwargs):
        """Prune module's `name` with cls(*args, **kwargs), on top of the pruning it had (in a PruningContainer
        then); the mask is computed from importance_scores (the tensor itself when None). Returns the hook."""
        from ... import ones_like, contiguous_format
        method = _combined_with_previous(cls, module, name, *args, **kwargs)
        orig = getattr(module, name)
        if importance_scores is None:
            importance_scores = orig
        elif importance_scores.shape != orig.shape:
            raise AssertionError('importance_scores should have the same shape as parameter %s of %s, got %s vs %s'
                                 % (name, module, importance_scores.shape, orig.shape))
        first = not isinstance(method, PruningContainer)
        if first:           # the parameter becomes `name`_orig; `name` will be an attribute made from it
            module.register_parameter(name + '_orig', orig)
            del module._parameters[name]
            default_mask = ones_like(orig)
        else:
            default_mask = getattr(module, name + '_mask').detach().clone(memory_format=contiguous_format)
        try:
            mask = method.compute_mask(importance_scores, default_mask=default_mask)
            module.register_buffer(name + '_mask', mask)
            setattr(module, name, method.apply_mask(module))
            module.register_forward_pre_hook(method)
        except Exception:   # (the parameter is put back as it was; a container's earlier pruning stays undone)
            if first:
                module.register_parameter(name, getattr(module, name + '_orig'))
                del module._parameters[name + '_orig']
            raise
        return method

    def prune(self, t, default_mask=None, importance_scores=None):
        """t times the mask this method computes for it (from importance_scores when given)."""
        from ... import ones_like
        if importance_scores is None:
            importance_scores = t
        elif importance_scores.shape != t.shape:
            raise AssertionError('importance_scores should have the same shape as tensor t, got %s vs %s'
                                 % (importance_scores.shape, t.shape))
        if default_mask is None:
            default_mask = ones_like(t)
        return t * self.compute_mask(importance_scores, default_mask=default_mask)

    def remove(self, module):
        """Make the pruned tensor the module's parameter `name` again (the `name`_orig parameter object, given the
        pruned values); `name`_orig and `name`_mask go."""
        if self._tensor_name is None:
            raise AssertionError('Module %s has to be pruned before pruning can be removed' % module)
        name = self._tensor_name
        weight = self.apply_mask(module)
        if hasattr(module, name):
            delattr(module, name)
        orig = module._parameters[name + '_orig']
        orig.data = weight.data
        del module._parameters[name + '_orig']
        del module._buffers[name + '_mask']
        setattr(module, name, orig)


def _combined_with_previous(cls, module, name, *args, **kwargs):
    """The new method cls(*args, **kwargs), given `name`; if `name` was pruned before, its hook is taken off (before
    the new method is made) and the new method is added to it (in a PruningContainer)."""
    keys = [k for k, hook in module._forward_pre_hooks.items()
            if isinstance(hook, BasePruningMethod) and hook._tensor_name == name]
    if len(keys) > 1:
        raise AssertionError('Avoid adding multiple pruning hooks to the same tensor %s of module %s. Use a '
                             'PruningContainer.' % (name, module))
    old = module._forward_pre_hooks[keys[0]] if keys else None
    for k in keys:
        del module._forward_pre_hooks[k]
    method = cls(*args, **kwargs)
    method._tensor_name = name
    if old is None:
        return method
    if isinstance(old, PruningContainer):
        old.add_pruning_method(method)
        return old
    container = PruningContainer(old)
    container.add_pruning_method(method)
    return container


class PruningContainer(BasePruningMethod):
    """The pruning methods applied one after the other to one tensor. Its mask is the previous mask with the last
    method's mask computed on what the previous one left: the entries still there ('unstructured'), the channels
    not yet all zero ('structured'), or everything ('global')."""

    def __init__(self, *args):
        self._pruning_methods = ()
        if len(args) == 1:
            self._tensor_name = args[0]._tensor_name
            self.add_pruning_method(args[0])
        else:
            for method in args:
                self.add_pruning_method(method)

    def add_pruning_method(self, method):
        if method is not None and not isinstance(method, BasePruningMethod):
            raise TypeError('%s is not a BasePruningMethod subclass' % type(method))
        if method is not None and self._tensor_name != method._tensor_name:
            raise ValueError("Can only add pruning methods acting on the parameter named '%s' to PruningContainer "
                             "%s. Found '%s'" % (self._tensor_name, self, method._tensor_name))
        self._pruning_methods += (method,)

    def __len__(self):
        return len(self._pruning_methods)

    def __iter__(self):
        return iter(self._pruning_methods)

    def __getitem__(self, idx):
        return self._pruning_methods[idx]

    def compute_mask(self, t, default_mask):
        method = self._pruning_methods[-1]
        mask = default_mask.to(dtype=t.dtype)     # (the same tensor when of t's dtype: changed in place)
        kind = method.PRUNING_TYPE
        if kind == 'unstructured':
            where = default_mask == 1
        elif kind == 'structured':
            if not hasattr(method, 'dim'):
                raise AttributeError('Pruning methods of PRUNING_TYPE "structured" need to have the attribute `dim` '
                                     'defined.')
            n_dims = t.dim()
            dim = method.dim + n_dims if method.dim < 0 else method.dim
            if dim < 0:
                raise IndexError('Index is out of bounds for tensor with dimensions %s' % n_dims)
            kept = default_mask.sum(dim=[d for d in range(n_dims) if d != dim]) != 0
            where = _channel_index(t, dim, kept)
        elif kind == 'global':
            where = (slice(None),) * len(t.shape)
        else:
            raise ValueError('Unrecognized PRUNING_TYPE %s' % kind)
        partial = method.compute_mask(t[where], default_mask=default_mask[where])
        mask[where] = partial.to(dtype=mask.dtype)
        return mask


class Identity(BasePruningMethod):
    """Prunes nothing: the reparametrization with a mask of ones."""
    PRUNING_TYPE = 'unstructured'

    def compute_mask(self, t, default_mask):
        return default_mask

    @classmethod
    def apply(cls, module, name):
        return super().apply(module, name)


class RandomUnstructured(BasePruningMethod):
    """Prunes `amount` of the entries still there, chosen at random (the largest of uniform draws, one per entry)."""
    PRUNING_TYPE = 'unstructured'

    def __init__(self, amount):
        _validate_pruning_amount_init(amount)
        self.amount = amount

    def compute_mask(self, t, default_mask):
        from ... import rand_like, topk, contiguous_format
        size = t.nelement()
        k = _compute_nparams_toprune(self.amount, size)
        _validate_pruning_amount(k, size)
        mask = default_mask.clone(memory_format=contiguous_format)
        if k != 0:
            scores = rand_like(t)
            mask.view(-1)[topk(scores.view(-1), k=k).indices] = 0
        return mask

    @classmethod
    def apply(cls, module, name, amount):
        return super().apply(module, name, amount=amount)


class L1Unstructured(BasePruningMethod):
    """Prunes `amount` of the entries still there: those of the smallest absolute value."""
    PRUNING_TYPE = 'unstructured'

    def __init__(self, amount):
        _validate_pruning_amount_init(amount)
        self.amount = amount

    def compute_mask(self, t, default_mask):
        from ... import abs, topk, contiguous_format
        size = t.nelement()
        k = _compute_nparams_toprune(self.amount, size)
        _validate_pruning_amount(k, size)
        mask = default_mask.clone(memory_format=contiguous_format)
        if k != 0:
            mask.view(-1)[topk(abs(t).view(-1), k=k, largest=False).indices] = 0
        return mask

    @classmethod
    def apply(cls, module, name, amount, importance_scores=None):
        return super().apply(module, name, amount=amount, importance_scores=importance_scores)


class RandomStructured(BasePruningMethod):
    """Prunes `amount` of the channels along dim, chosen at random (those of the smallest uniform draws)."""
    PRUNING_TYPE = 'structured'

    def __init__(self, amount, dim=-1):
        _validate_pruning_amount_init(amount)
        self.amount = amount
        self.dim = dim

    def compute_mask(self, t, default_mask):
        from ... import rand, kthvalue, zeros_like
        _validate_structured_pruning(t)
        _validate_pruning_dim(t, self.dim)
        channels = t.shape[self.dim]
        k = _compute_nparams_toprune(self.amount, channels)
        _validate_pruning_amount(k, channels)
        if k == 0:
            return default_mask
        draws = rand(channels)
        kept = draws > kthvalue(draws, k=k).values
        mask = zeros_like(t)
        mask[_channel_index(t, self.dim, kept)] = 1
        mask *= default_mask.to(dtype=mask.dtype)
        return mask

    @classmethod
    def apply(cls, module, name, amount, dim=-1):
        return super().apply(module, name, amount=amount, dim=dim)


class LnStructured(BasePruningMethod):
    """Prunes `amount` of the channels along dim: those of the smallest L_n norm (n as torch.norm's p)."""
    PRUNING_TYPE = 'structured'

    def __init__(self, amount, n, dim=-1):
        _validate_pruning_amount_init(amount)
        self.amount = amount
        self.n = n
        self.dim = dim

    def compute_mask(self, t, default_mask):
        from ... import topk, zeros_like
        _validate_structured_pruning(t)
        _validate_pruning_dim(t, self.dim)
        channels = t.shape[self.dim]
        k = _compute_nparams_toprune(self.amount, channels)
        _validate_pruning_amount(k, channels)
        kept = topk(_compute_norm(t, self.n, self.dim), k=channels - k, largest=True)
        if k == 0:
            return default_mask
        mask = zeros_like(t)
        mask[_channel_index(t, self.dim, kept.indices)] = 1
        mask *= default_mask.to(dtype=mask.dtype)
        return mask

    @classmethod
    def apply(cls, module, name, amount, n, dim, importance_scores=None):
        return super().apply(module, name, amount=amount, n=n, dim=dim, importance_scores=importance_scores)


class CustomFromMask(BasePruningMethod):
    """Prunes where the given mask is zero."""
    PRUNING_TYPE = 'global'

    def __init__(self, mask):
        self.mask = mask

    def compute_mask(self, t, default_mask):
        if default_mask.shape != self.mask.shape:
            raise AssertionError('default_mask shape %s must match self.mask shape %s'
                                 % (default_mask.shape, self.mask.shape))
        return default_mask * self.mask.to(dtype=default_mask.dtype)

    @classmethod
    def apply(cls, module, name, mask):
        return super().apply(module, name, mask=mask)


# ---------------------------------------------------------------------------------------------- the functions
def identity(module, name):
    """The pruning reparametrization of module's `name` with a mask of ones; returns module."""
    Identity.apply(module, name)
    return module


def random_unstructured(module, name, amount):
    """Prune `amount` (an int, or a fraction) of the entries of module's `name` still there, at random."""
    RandomUnstructured.apply(module, name, amount)
    return module


def l1_unstructured(module, name, amount, importance_scores=None):
    """Prune `amount` of the entries of module's `name` still there, of the smallest absolute value (of
    importance_scores when given)."""
    L1Unstructured.apply(module, name, amount=amount, importance_scores=importance_scores)
    return module


def random_structured(module, name, amount, dim):
    """Prune `amount` of the channels along dim of module's `name`, at random."""
    RandomStructured.apply(module, name, amount, dim)
    return module


def ln_structured(module, name, amount, n, dim, importance_scores=None):
    """Prune `amount` of the channels along dim of module's `name`, of the smallest L_n norm."""
    LnStructured.apply(module, name, amount, n, dim, importance_scores=importance_scores)
    return module


def global_unstructured(parameters, pruning_method, importance_scores=None, **kwargs):
    """Prune the (module, name) tensors together, as one vector: pruning_method(**kwargs), an unstructured method,
    chooses among all their entries; each tensor is then pruned with its part of the mask (custom_from_mask)."""
    from ... import ones_like
    from . import parameters_to_vector
    if not isinstance(parameters, Iterable):
        raise TypeError('global_unstructured(): parameters is not an Iterable')
    importance_scores = importance_scores if importance_scores is not None else {}
    if not isinstance(importance_scores, dict):
        raise TypeError('global_unstructured(): importance_scores must be of type dict')
    scores = parameters_to_vector([importance_scores.get((module, name), getattr(module, name))
                                   for module, name in parameters])
    default_mask = parameters_to_vector([getattr(module, name + '_mask', ones_like(getattr(module, name)))
                                         for module, name in parameters])
    container = PruningContainer()
    container._tensor_name = 'temp'
    method = pruning_method(**kwargs)
    method._tensor_name = 'temp'
    if method.PRUNING_TYPE != 'unstructured':
        raise TypeError('Only "unstructured" PRUNING_TYPE supported for the `pruning_method`. Found method %s of '
                        'type %s' % (pruning_method, method.PRUNING_TYPE))
    container.add_pruning_method(method)
    final_mask = container.compute_mask(scores, default_mask)
    at = 0
    for module, name in parameters:
        param = getattr(module, name)
        n = param.numel()
        custom_from_mask(module, name, mask=final_mask[at:at + n].view_as(param))
        at += n


def custom_from_mask(module, name, mask):
    """Prune module's `name` where mask is zero."""
    CustomFromMask.apply(module, name, mask)
    return module


def remove(module, name):
    """Make the pruning of module's `name` permanent: `name` a parameter again, without its _orig, _mask and hook."""
    for k, hook in module._forward_pre_hooks.items():
        if isinstance(hook, BasePruningMethod) and hook._tensor_name == name:
            hook.remove(module)
            del module._forward_pre_hooks[k]
            return module
    raise ValueError("Parameter '%s' of module %s has to be pruned before pruning can be removed" % (name, module))


def is_pruned(module):
    """Whether module or any module in it has a pruning hook."""
    return any(isinstance(hook, BasePruningMethod)
               for _, sub in module.named_modules() for hook in sub._forward_pre_hooks.values())


for _cls in (BasePruningMethod, PruningContainer, Identity, RandomUnstructured, L1Unstructured, RandomStructured,
             LnStructured, CustomFromMask):
    _cls.__module__ = _MODULE
del _cls
