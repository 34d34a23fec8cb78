"""torch.nn.utils.parametrize: a module's parameter (or buffer) computed by small modules from an `original` each time
it is read. `register_parametrization(m, "weight", Symmetric())` moves m.weight to
m.parametrizations.weight.original and gives m's class (made anew, ParametrizedLinear) a property `weight` that runs
the parametrizations on it: the weight read is a tensor in the graph of `original`, and gradients reach the original.
Writing m.weight runs the parametrizations' right_inverse backwards into the original."""
import collections
from contextlib import contextmanager
from copy import deepcopy

from ... import _autograd as ag
from ..._tensor import Tensor
from .. import Module, ModuleDict, ModuleList
from ..parameter import Parameter

_cache_enabled = 0
_cache = {}


@contextmanager
def cached():
    """Within it, each parametrized tensor is computed once, at its first read, and the same tensor is read after."""
    global _cache_enabled, _cache
    _cache_enabled += 1
    try:
        yield
    finally:
        _cache_enabled -= 1
        if not _cache_enabled:
            _cache = {}


def _register_parameter_or_buffer(module, name, X):
    if isinstance(X, Parameter):
        module.register_parameter(name, X)
    else:
        module.register_buffer(name, X)


def _maybe_set(dest, src):
    """dest takes src's data in place (set_: the same tensor object, its version one up), so that an optimizer given
    the parameter before keeps training it."""
    dest.set_(src)


def _check_result(Z, dtype, shape, what):
    """PyTorch's checks that a parametrization keeps the tensor's dtype and shape (unless unsafe=True)."""
    if not isinstance(Z, Tensor):
        raise ValueError('A parametrization must return a tensor. Got %s.' % type(Z).__name__)
    for attr, before, after in (('dtype', dtype, Z.dtype), ('shape', shape, Z.shape)):
        if before != after:
            raise ValueError('Registering a parametrization may not change the %s of the tensor, unless %s flag is '
                             'enabled.\n%s' % (attr, what[0], what[1] % (attr, before, attr, after)))


class ParametrizationList(ModuleList):
    """The parametrizations of one tensor, applied in order, and the tensor's original(s): `original`, or
    `original0`, `original1`, ... when the first parametrization's right_inverse gives a sequence of tensors."""
    __module__ = 'torch.nn.utils.parametrize'

    def __init__(self, modules, original, unsafe=False):
        if len(modules) == 0:
            raise ValueError('ParametrizationList requires one or more modules.')
        super().__init__(modules)
        self.unsafe = unsafe
        original_shape, original_dtype = original.shape, original.dtype
        with ag.no_grad():
            new = original
            for module in reversed(self):
                if hasattr(module, 'right_inverse'):
                    try:
                        new = module.right_inverse(new)
                    except NotImplementedError:
                        pass
        if not isinstance(new, (Tensor, collections.abc.Sequence)):
            raise ValueError("'right_inverse' must return a Tensor or a Sequence of tensors (list, tuple...). Got %s"
                             % type(new).__name__)
        self.is_tensor = isinstance(new, Tensor)
        self.ntensors = 1 if self.is_tensor else len(new)
        if self.is_tensor:
            if original.dtype != new.dtype:
                raise ValueError('When `right_inverse` outputs one tensor, it may not change the dtype.\n'
                                 'original.dtype: %s\nright_inverse(original).dtype: %s' % (original.dtype, new.dtype))
            with ag.no_grad():
                _maybe_set(original, new)
            _register_parameter_or_buffer(self, 'original', original)
        else:
            for i, originali in enumerate(new):
                if not isinstance(originali, Tensor):
                    raise ValueError("'right_inverse' must return a Tensor or a Sequence of tensors (list, tuple...). "
                                     'Got element %d of the sequence with type %s.' % (i, type(originali).__name__))
                if isinstance(original, Parameter):
                    originali = Parameter(originali, original.requires_grad)
                originali.requires_grad_(original.requires_grad)
                _register_parameter_or_buffer(self, 'original%d' % i, originali)
        if not self.unsafe:
            _check_result(self(), original_dtype, original_shape,
                          ('`unsafe`', 'unparametrized %s: %s\nparametrized %s: %s'))

    def right_inverse(self, value):
        """What writing the parametrized tensor does: value through each parametrization's right_inverse, last to
        first, into the original(s)."""
        with ag.no_grad():
            for module in reversed(self):
                if not hasattr(module, 'right_inverse'):
                    raise RuntimeError('parametrization %s does not implement right_inverse.' % type(module).__name__)
                value = module.right_inverse(value)
            if self.is_tensor:
                if not isinstance(value, Tensor):
                    raise ValueError('`right_inverse` should return a tensor. Got %s' % type(value).__name__)
                if value.dtype != self.original.dtype:
                    raise ValueError('The tensor returned by `right_inverse` has dtype %s while `original` has dtype %s'
                                     % (value.dtype, self.original.dtype))
                _maybe_set(self.original, value)
            else:
                if not isinstance(value, collections.abc.Sequence):
                    raise ValueError("'right_inverse' must return a sequence of tensors. Got %s."
                                     % type(value).__name__)
                if len(value) != self.ntensors:
                    raise ValueError("'right_inverse' must return a sequence of tensors of length %d. Got a sequence "
                                     'of length %d.' % (self.ntensors, len(value)))
                for i, tensor in enumerate(value):
                    original_i = getattr(self, 'original%d' % i)
                    if not isinstance(tensor, Tensor):
                        raise ValueError('`right_inverse` must return a sequence of tensors. Got element %d of type %s'
                                         % (i, type(tensor).__name__))
                    if original_i.dtype != tensor.dtype:
                        raise ValueError('Tensor %d returned by `right_inverse` has dtype %s while `original%d` has '
                                         'dtype %s' % (i, tensor.dtype, i, original_i.dtype))
                    _maybe_set(original_i, tensor)

    def forward(self):
        if self.is_tensor:
            x = self[0](self.original)
        else:
            x = self[0](*(getattr(self, 'original%d' % i) for i in range(self.ntensors)))
        for module in list(self)[1:]:
            x = module(x)
        return x


def _deepcopy(self, memo):
    """copy.deepcopy of a parametrized module (its class has a property the default copy would not see through)."""
    replica = memo.get(id(self))
    if replica is None:
        replica = memo[id(self)] = self.__new__(self.__class__)
        replica.__dict__ = deepcopy(self.__dict__, memo)
    return replica


def _getstate(self):
    raise RuntimeError('Serialization of parametrized modules is only supported through state_dict(). See:\n'
                       'https://pytorch.org/tutorials/beginner/saving_loading_models.html'
                       '#saving-loading-a-general-checkpoint-for-inference-and-or-resuming-training')


def _inject_new_class(module):
    """Give module a class of its own, Parametrized<its class>, to hold the properties of its parametrized tensors."""
    cls = module.__class__
    namespace = {'__getstate__': _getstate, '__module__': 'torch.nn.utils.parametrize'}
    if not hasattr(cls, '__deepcopy__'):
        namespace['__deepcopy__'] = _deepcopy
    module.__class__ = type('Parametrized' + cls.__name__, (cls,), namespace)


def _inject_property(module, tensor_name):
    def get_parametrized(self):
        parametrization = self.parametrizations[tensor_name]
        if not _cache_enabled:
            return parametrization()
        key = (id(self), tensor_name)
        if key not in _cache:
            _cache[key] = parametrization()
        return _cache[key]

    def set_original(self, value):
        self.parametrizations[tensor_name].right_inverse(value)

    setattr(module.__class__, tensor_name, property(get_parametrized, set_original))


def register_parametrization(module, tensor_name, parametrization, *, unsafe=False):
    """Make module.`tensor_name` (a parameter, a buffer, or a tensor parametrized already) parametrization's result:
    of the original the first time, of the parametrizations before it otherwise. Returns module."""
    parametrization.train(module.training)
    if is_parametrized(module, tensor_name):
        if not unsafe:
            Y = getattr(module, tensor_name)
            X = parametrization(Y)
            _check_result(X, Y.dtype, Y.shape, ('the `unsafe`', 'module.%s.%%s: %%s\nparametrization(module.%s).%%s: '
                                                '%%s' % (tensor_name, tensor_name)))
            if hasattr(parametrization, 'right_inverse'):
                try:
                    Z = parametrization.right_inverse(X)
                except NotImplementedError:
                    pass
                else:
                    if not isinstance(Z, Tensor):
                        raise ValueError('parametrization.right_inverse must return a tensor. Got: %s'
                                         % type(Z).__name__)
                    for attr in ('dtype', 'shape'):
                        if getattr(Z, attr) != getattr(Y, attr):
                            raise ValueError('The tensor returned by parametrization.right_inverse must have the same '
                                             '%s as module.%s, unless the `unsafe` flag is enabled.\nmodule.%s.%s: %s\n'
                                             'returned %s: %s' % (attr, tensor_name, tensor_name, attr,
                                                                  getattr(Y, attr), attr, getattr(Z, attr)))
        module.parametrizations[tensor_name].append(parametrization)
        module.parametrizations[tensor_name].unsafe |= unsafe
    elif tensor_name in module._buffers or tensor_name in module._parameters:
        original = getattr(module, tensor_name)
        parametrizations = ParametrizationList([parametrization], original, unsafe=unsafe)
        delattr(module, tensor_name)
        if not is_parametrized(module):
            _inject_new_class(module)
            module.parametrizations = ModuleDict()
        _inject_property(module, tensor_name)
        module.parametrizations[tensor_name] = parametrizations
    else:
        raise ValueError("Module '%s' does not have a parameter, a buffer, or a parametrized element with name '%s'"
                         % (module, tensor_name))
    return module


def is_parametrized(module, tensor_name=None):
    """Whether module has a parametrization (on tensor_name, when given)."""
    parametrizations = getattr(module, 'parametrizations', None)
    if parametrizations is None or not isinstance(parametrizations, ModuleDict):
        return False
    return len(parametrizations) > 0 if tensor_name is None else tensor_name in parametrizations


def remove_parametrizations(module, tensor_name, leave_parametrized=True):
    """Undo the parametrizations of tensor_name: it is a parameter (or buffer) again, holding its parametrized value
    (leave_parametrized=True) or its original; the module gets its class back once nothing is parametrized."""
    if not is_parametrized(module, tensor_name):
        raise ValueError('Module %s does not have a parametrization on %s' % (module, tensor_name))
    parametrizations = module.parametrizations[tensor_name]
    if parametrizations.is_tensor:
        original = parametrizations.original
        if leave_parametrized:
            with ag.no_grad():
                t = getattr(module, tensor_name)
                _maybe_set(original, t)
    else:
        if not leave_parametrized:
            raise ValueError('Cannot leave unparametrized (`leave_parametrized=False`) a tensor that is parametrized '
                             'in terms of a sequence of tensors.')
        t = getattr(module, tensor_name)
        original = Parameter(t.detach(), t.requires_grad) if t.requires_grad else t.detach()
    delattr(module.__class__, tensor_name)
    del module.parametrizations[tensor_name]
    _register_parameter_or_buffer(module, tensor_name, original)
    if not is_parametrized(module):
        delattr(module, 'parametrizations')
        module.__class__ = module.__class__.__bases__[0]
    return module


def type_before_parametrizations(module):
    """The module's class before any parametrization was registered."""
    return module.__class__.__bases__[0] if is_parametrized(module) else type(module)


def transfer_parametrizations_and_params(from_module, to_module, tensor_name=None):
    """Give to_module the parametrizations of from_module (of tensor_name, or all) and their originals: the same
    parameter objects, shared by both modules."""
    if not is_parametrized(from_module):
        return to_module
    names = list(from_module.parametrizations) if tensor_name is None else [tensor_name]
    for name in names:
        if not hasattr(to_module, name):
            setattr(to_module, name, Parameter(getattr(from_module, name)))
        for parametrization in from_module.parametrizations[name]:
            register_parametrization(to_module, name, parametrization)
        source, target = from_module.parametrizations[name], to_module.parametrizations[name]
        originals = ['original'] if hasattr(source, 'original') else ['original%d' % i for i in range(source.ntensors)]
        for original in originals:
            setattr(target, original, getattr(source, original))
    return to_module

