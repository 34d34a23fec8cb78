"""torch.nn: Module (parameter registration, train/eval, repr), the common layers and losses, and nn.init."""
import functools
import itertools
import math
import numbers
import operator
import sys
import types
import warnings
from collections import OrderedDict, namedtuple
from collections.abc import Iterable, Mapping

import numpy as np

from .. import _autograd as ag
from .. import _dtypes, _factories
from .._factories import empty, empty_like, randperm
from .. import _ops_rnn
from .._ops import _views_changed
from .._ops_nn import _legacy_reduction, where
from .._tensor import Tensor, user_stacklevel
from . import functional as F
from . import _backward_hooks
from .parameter import Buffer, Parameter, UninitializedBuffer, UninitializedParameter


def _addindent(text, n):
    """Indent every line but the first by n spaces (how nested module reprs are laid out)."""
    return ('\n' + ' ' * n).join(text.split('\n'))


def _typename(value):
    """torch.typename: a tensor's type(), else where the object (or its class) was defined, as module.qualname (the
    engine's own functions under PyTorch's names)."""
    if isinstance(value, Tensor):
        return value.type()
    module = getattr(value, '__module__', '') or ''
    if hasattr(value, '__qualname__'):
        name = value.__qualname__
    elif hasattr(value, '__name__'):
        name = value.__name__
    else:
        module, name = type(value).__module__ or '', type(value).__qualname__
    if module.startswith('engine._'):
        module, name = 'torch._VariableFunctionsClass', getattr(value, '__name__', name)
    elif module == 'engine' or module.startswith('engine.'):
        module = 'torch' + module[6:]
    return name if module in ('', 'builtins') else module + '.' + name


class _IncompatibleKeys(namedtuple('IncompatibleKeys', ['missing_keys', 'unexpected_keys'])):
    """What load_state_dict returns."""

    def __repr__(self):
        if not self.missing_keys and not self.unexpected_keys:
            return '<All keys matched successfully>'
        return super().__repr__()


# ================================================================================================ Module

_PYTHON_DTYPES = frozenset((float, int, bool))     # (Python types Module.to reads as dtypes, as PyTorch does)

# PyTorch's Module has these too, the engine's those of its own: dir(model) lists PyTorch's (Python's "Did you mean:
# '...'?" for a mistyped attribute searches them).
_TORCH_MODULE_NAMES = frozenset("""
    T_destination __annotations__ __setstate__ _apply _call_impl _compiled_call_impl
    _forward_hooks_always_called _forward_hooks_with_kwargs _forward_pre_hooks_with_kwargs _get_backward_hooks
    _get_backward_pre_hooks _load_from_state_dict _load_state_dict_post_hooks _load_state_dict_pre_hooks
    _maybe_warn_non_full_backward_hook _non_persistent_buffers_set _register_load_state_dict_pre_hook
    _register_state_dict_hook _replicate_for_data_parallel _save_to_state_dict _slow_forward _state_dict_hooks
    _state_dict_pre_hooks _version _wrapped_call_impl bfloat16 call_super_init compile dump_patches
    ipu mtia register_load_state_dict_post_hook register_load_state_dict_pre_hook register_state_dict_post_hook
    register_state_dict_pre_hook set_submodule share_memory to_empty xpu""".split())
_ENGINE_MODULE_NAMES = frozenset("""
    _check_name _child_lines _forget _upgrade_state_dict _get_attribute _named
    _register_backward_hook _own_copy _forward_per_class _init_per_class _fn fn _nd _n _number _no_batch_dim _run
    _zeros _check_hidden _check_input _expected_hidden_size _abs_index _check_factor _check_other _insert _key __slotnames__
    _becomes""".split())


# A module's hooks and their options, each an OrderedDict keyed by the hook's handle id, as PyTorch keeps them
# (m._forward_hooks prints OrderedDict({0: <function ...>}))
_HOOK_DICTS = ('_backward_pre_hooks', '_backward_hooks', '_forward_hooks', '_forward_hooks_with_kwargs',
               '_forward_hooks_always_called', '_forward_pre_hooks', '_forward_pre_hooks_with_kwargs',
               '_state_dict_hooks', '_state_dict_pre_hooks', '_load_state_dict_pre_hooks',
               '_load_state_dict_post_hooks')


# Hooks of every module (torch.nn.modules.module.register_module_*), run before each module's own
_global_forward_pre_hooks, _global_forward_hooks = OrderedDict(), OrderedDict()
_global_forward_hooks_with_kwargs, _global_forward_hooks_always_called = OrderedDict(), OrderedDict()
_global_backward_pre_hooks, _global_backward_hooks = OrderedDict(), OrderedDict()
_global_is_full_backward_hook = None          # (whether the global backward hooks are full ones or legacy ones)
_global_registration_hooks = {'parameter': OrderedDict(), 'buffer': OrderedDict(), 'module': OrderedDict()}


def register_module_forward_pre_hook(hook):
    """hook(module, inputs) runs before every module's forward, before its own pre-hooks."""
    return ag._Handle(_global_forward_pre_hooks, hook)


def register_module_forward_hook(hook, *, with_kwargs=False, always_call=False):
    """hook(module, inputs, output) runs after every module's forward, before its own hooks."""
    handle = ag._Handle(_global_forward_hooks, hook, [_global_forward_hooks_with_kwargs,
                                                      _global_forward_hooks_always_called])
    if with_kwargs:
        _global_forward_hooks_with_kwargs[handle.id] = True
    if always_call:
        _global_forward_hooks_always_called[handle.id] = True
    return handle


def _register_module_backward_hook(hook, full):
    global _global_is_full_backward_hook
    if _global_is_full_backward_hook is (not full):
        raise RuntimeError('Cannot use both regular backward hooks and full backward hooks as a global Module hook. '
                           'Please use only one of them.')
    _global_is_full_backward_hook = full
    return ag._Handle(_global_backward_hooks, hook)


def register_module_backward_hook(hook):
    """The legacy global backward hook (deprecated): hook(module, grad_input, grad_output) for every module."""
    return _register_module_backward_hook(hook, False)


def register_module_full_backward_hook(hook):
    """hook(module, grad_input, grad_output) for every module, before its own full backward hooks."""
    return _register_module_backward_hook(hook, True)


def register_module_full_backward_pre_hook(hook):
    """hook(module, grad_output) for every module, before its own backward pre-hooks."""
    return ag._Handle(_global_backward_pre_hooks, hook)


def register_module_parameter_registration_hook(hook):
    """hook(module, name, param) as any module registers a parameter; it may return a replacement."""
    return ag._Handle(_global_registration_hooks['parameter'], hook)


def register_module_buffer_registration_hook(hook):
    """hook(module, name, buffer) as any module registers a buffer; it may return a replacement."""
    return ag._Handle(_global_registration_hooks['buffer'], hook)


def register_module_module_registration_hook(hook):
    """hook(module, name, submodule) as any module registers a child; it may return a replacement."""
    return ag._Handle(_global_registration_hooks['module'], hook)


def _registered(module, kind, name, value):
    """value as the global registration hooks of its kind leave it."""
    for hook in _global_registration_hooks[kind].values():
        new = hook(module, name, value)
        if new is not None:
            value = new
    return value


def _check_initialised(module, name):
    """PyTorch's error from a method of a module whose __init__ did not call Module.__init__() (super().__init__()):
    it names the first attribute of Module's that PyTorch's method reads."""
    if '_parameters' not in module.__dict__:
        raise AttributeError("'%s' object has no attribute '%s'" % (type(module).__name__, name))


def _run_always_called(module, hooks, args, kwargs, out):
    """forward raised: the always_call forward hooks not yet run run now (the global ones without kwargs, as
    PyTorch calls them), an error of theirs only warned of."""
    d = module.__dict__
    always, with_kwargs = d['_forward_hooks_always_called'], d['_forward_hooks_with_kwargs']
    for hook_id, hook in hooks:
        glob = hook_id in _global_forward_hooks_always_called
        if glob or hook_id in always:
            try:
                new = (hook(module, args, kwargs, out) if not glob and hook_id in with_kwargs else
                       hook(module, args, out))
                if new is not None:
                    out = new
            except Exception as e:
                warnings.warn('%smodule forward hook with ``always_call=True`` raised an exception that was silenced '
                              'as another error was raised in forward: %s' % ('global ' if glob else '', e),
                              stacklevel=3)


def _add_hook(hooks, hook, prepend, extra=()):
    """Register hook in the dict hooks {handle id: hook} (first with prepend=True), as PyTorch keeps a module's
    hooks; return its handle."""
    handle = ag._Handle(hooks, hook, extra)
    if prepend:
        hooks.move_to_end(handle.id, last=False)
    return handle


class Module:
    """Base class of every layer and model: registers the Parameters and Modules assigned to it as attributes."""

    training = True
    _version = 1             # (of its state_dict's layout; a layer that changes it counts up)
    call_super_init = False  # True: arguments given to Module.__init__ go on to the next class's __init__

    def __init__(self, *args, **kwargs):
        # (PyTorch's: a layer without an __init__ of its own refuses arguments, nn.Sigmoid(inplace=True))
        if not self.call_super_init and kwargs:
            raise TypeError("%s.__init__() got an unexpected keyword argument '%s'"
                            % (type(self).__name__, next(iter(kwargs))))
        if not self.call_super_init and args:
            raise TypeError('%s.__init__() takes 1 positional argument but %d were given'
                            % (type(self).__name__, len(args) + 1))
        for name in ('_parameters', '_buffers', '_modules'):
            object.__setattr__(self, name, {})
        for name in _HOOK_DICTS:                    # (PyTorch's: OrderedDicts keyed by the hooks' handle ids)
            object.__setattr__(self, name, OrderedDict())
        object.__setattr__(self, '_is_full_backward_hook', None)
        object.__setattr__(self, '_non_persistent_buffers_set', set())
        object.__setattr__(self, 'training', True)
        if self.call_super_init:
            super().__init__(*args, **kwargs)

    def forward(self, *input):
        raise NotImplementedError('Module [%s] is missing the required "forward" function' % type(self).__name__)

    def __init_subclass__(cls, **kwargs):
        """PyTorch's layers each define forward, where the engine's share one from a helper base that says so
        (`_forward_per_class`: _Elementwise, _ConvNd...): such a layer gets its own copy, so that a wrong call names
        it as PyTorch's does ('ReLU.forward() takes 2 positional arguments but 3 were given')."""
        super().__init_subclass__(**kwargs)
        # (so too __init__ from a base with `_init_per_class`: `nn.Conv2d(3, 8)` is "Conv2d.__init__() missing 1
        # required positional argument: 'kernel_size'")
        if '__init__' not in cls.__dict__:
            owner = next(c for c in cls.__mro__ if '__init__' in c.__dict__)
            if owner.__dict__.get('_init_per_class'):
                cls.__init__ = cls._own_copy(owner.__dict__['__init__'])
        if 'forward' in cls.__dict__ or cls.__name__.startswith('_'):
            return
        owner = next(c for c in cls.__mro__ if 'forward' in c.__dict__)
        if owner.__dict__.get('_forward_per_class'):
            cls.forward = cls._own_copy(owner.__dict__['forward'])

    @classmethod
    def _own_copy(cls, f):
        own = types.FunctionType(f.__code__, f.__globals__, f.__name__, f.__defaults__, f.__closure__)
        own.__qualname__, own.__doc__ = cls.__name__ + '.' + f.__name__, f.__doc__
        own.__kwdefaults__ = f.__kwdefaults__
        return own

    def __call__(self, *args, **kwargs):
        d = self.__dict__
        if '_parameters' not in d:
            _check_initialised(self, '_backward_hooks')
        backward_hooks, pre_hooks = d.get('_backward_hooks'), d.get('_backward_pre_hooks')
        full = list(backward_hooks.values()) if backward_hooks and d.get('_is_full_backward_hook') else None
        legacy = list(backward_hooks.values()) if backward_hooks and not full else None
        if _global_backward_hooks:      # (every module's, first)
            if _global_is_full_backward_hook:
                full = list(_global_backward_hooks.values()) + (full or [])
            else:
                legacy = list(_global_backward_hooks.values()) + (legacy or [])
        if _global_backward_pre_hooks:
            pre_hooks = [*_global_backward_pre_hooks.values(), *(pre_hooks.values() if pre_hooks else ())]
        elif pre_hooks:
            pre_hooks = list(pre_hooks.values())
        hooks = d.get('_forward_hooks')
        after = [*_global_forward_hooks.items(), *hooks.items()] if _global_forward_hooks else (
            list(hooks.items()) if hooks else None)
        out, ran, bw_hook = None, 0, None
        try:                            # (an error from a pre-hook, forward or a hook: the always_call hooks run)
            hooks = d.get('_forward_pre_hooks')
            if _global_forward_pre_hooks:
                hooks = OrderedDict([*_global_forward_pre_hooks.items(), *(hooks.items() if hooks else ())])
            if hooks:
                with_kwargs = d['_forward_pre_hooks_with_kwargs']
                for hook_id, hook in list(hooks.items()):
                    if hook_id in with_kwargs:
                        new = hook(self, args, kwargs)
                        if new is not None:
                            if not (isinstance(new, tuple) and len(new) == 2):
                                raise RuntimeError('forward pre-hook must return None or a tuple of (new_args, '
                                                   'new_kwargs), but got %s.' % (new,))
                            args, kwargs = new
                        continue
                    new = hook(self, args)
                    if new is not None:
                        args = new if isinstance(new, tuple) else (new,)
            if full or pre_hooks:
                bw_hook = _backward_hooks.FullHooks(self, full or [], pre_hooks or [])
                args = bw_hook.wrap_args(args)
            out = self.forward(*args, **kwargs)
            if after:
                with_kwargs = d['_forward_hooks_with_kwargs']
                for hook_id, hook in after:
                    ran += 1
                    new = (hook(self, args, kwargs, out) if hook_id in with_kwargs or
                           hook_id in _global_forward_hooks_with_kwargs else hook(self, args, out))
                    if new is not None:
                        out = new
        except Exception:
            if after:
                _run_always_called(self, after[ran:], args, kwargs, out)
            raise
        if bw_hook:
            if not isinstance(out, (Tensor, tuple)):
                warnings.warn('For backward hooks to be called, module output should be a Tensor or a tuple of '
                              'Tensors but received %s' % type(out), stacklevel=2)
            out = bw_hook.wrap_output(out)
        if legacy:                               # the legacy hooks: on the node that made the (first) output
            var = out
            while not isinstance(var, Tensor):
                var = next(v for v in var.values() if isinstance(v, Tensor)) if isinstance(var, dict) else var[0]
            if var.grad_fn is not None:
                for hook in legacy:
                    var.grad_fn.register_hook(lambda gi, go, hook=hook: hook(self, gi, go))
                _backward_hooks.warn_legacy(args, out, var.grad_fn)
        return out

    def register_forward_hook(self, hook, *, prepend=False, with_kwargs=False, always_call=False):
        """hook(module, inputs, output) runs after forward (hook(module, inputs, kwargs, output) with_kwargs); it may
        return a replacement output."""
        handle = _add_hook(self._forward_hooks, hook, prepend,
                           [self._forward_hooks_with_kwargs, self._forward_hooks_always_called])
        if with_kwargs:
            self._forward_hooks_with_kwargs[handle.id] = True
        if always_call:
            self._forward_hooks_always_called[handle.id] = True
        return handle

    def register_forward_pre_hook(self, hook, *, prepend=False, with_kwargs=False):
        """hook(module, inputs) runs before forward; it may return replacement inputs (with_kwargs:
        hook(module, inputs, kwargs), returning None or (new_inputs, new_kwargs))."""
        handle = _add_hook(self._forward_pre_hooks, hook, prepend, [self._forward_pre_hooks_with_kwargs])
        if with_kwargs:
            self._forward_pre_hooks_with_kwargs[handle.id] = True
        return handle

    def _register_backward_hook(self, hook, full):
        if self.__dict__.get('_is_full_backward_hook') is (not full):
            raise RuntimeError('Cannot use both regular backward hooks and full backward hooks on a single Module. '
                               'Please use only one of them.')
        object.__setattr__(self, '_is_full_backward_hook', full)
        return ag._Handle(self._backward_hooks, hook)

    def register_full_backward_hook(self, hook, prepend=False):
        """hook(module, grad_input, grad_output) runs once the gradients of the module's tensor inputs are
        computed; it may return a replacement grad_input."""
        _check_initialised(self, '_is_full_backward_hook')
        handle = self._register_backward_hook(hook, True)
        if prepend:
            handle.hooks.move_to_end(handle.id, last=False)
        return handle

    def register_backward_hook(self, hook):
        """The legacy (deprecated) form: hook(module, grad_input, grad_output) on the node that made the output."""
        return self._register_backward_hook(hook, False)

    def register_full_backward_pre_hook(self, hook, prepend=False):
        """hook(module, grad_output) runs once the gradients of the module's outputs are known; it may return a
        replacement grad_output."""
        return _add_hook(self._backward_pre_hooks, hook, prepend)

    # ------------------------------------------------------------------ attribute registration
    def __setattr__(self, name, value):
        d = self.__dict__
        params, modules, buffers = d.get('_parameters'), d.get('_modules'), d.get('_buffers')
        if isinstance(value, Parameter):
            if params is None:
                raise AttributeError('cannot assign parameters before Module.__init__() call')
            self._forget(name, params)
            self.register_parameter(name, value)
        elif params is not None and name in params:
            if value is not None:
                raise TypeError("cannot assign '%s' as parameter '%s' (torch.nn.Parameter or None expected)"
                                % (_typename(value), name))
            params[name] = None
        elif isinstance(value, Module):
            if modules is None:
                raise AttributeError('cannot assign module before Module.__init__() call')
            self._forget(name, modules)
            modules[name] = _registered(self, 'module', name, value)
        elif modules is not None and name in modules:
            if value is not None:
                raise TypeError("cannot assign '%s' as child module '%s' (torch.nn.Module or None expected)"
                                % (_typename(value), name))
            modules[name] = None
        elif buffers is not None and name in buffers or isinstance(value, Buffer):
            if value is not None and not isinstance(value, Tensor):
                raise TypeError("cannot assign '%s' as buffer '%s' (torch.nn.Buffer, torch.Tensor or None expected)"
                                % (_typename(value), name))
            if isinstance(value, Buffer):           # (nn.Buffer(t, persistent=...) registers itself)
                self.register_buffer(name, value, value.persistent)
            else:
                buffers[name] = _registered(self, 'buffer', name, value)
        else:
            object.__setattr__(self, name, value)

    def __getattr__(self, name):
        d = self.__dict__
        for store in ('_parameters', '_buffers', '_modules'):
            if store in d and name in d[store]:
                return d[store][name]
        raise AttributeError("'%s' object has no attribute '%s'" % (type(self).__name__, name))

    def __delattr__(self, name):
        for store in (self._parameters, self._buffers, self._modules):
            if name in store:
                del store[name]
                return
        object.__delattr__(self, name)

    def _forget(self, name, keep):
        """Drop `name` from wherever it was registered before but `keep`, where it is about to be registered anew
        (in its place)."""
        self.__dict__.pop(name, None)
        for store in (self._parameters, self._buffers, self._modules):
            if store is not keep:
                store.pop(name, None)

    def _check_name(self, name, what, store):
        """PyTorch's checks of a name to register in `store` (a module's name is checked in another order)."""
        if '_parameters' not in self.__dict__:
            raise AttributeError('cannot assign %s before Module.__init__() call' % what)
        if not isinstance(name, str):
            raise TypeError('%s name should be a string. Got %s' % (what, _typename(name)))
        taken = hasattr(self, name) and name not in store
        if taken and what == 'module':
            raise KeyError("attribute '%s' already exists" % name)
        if '.' in name:
            raise KeyError('%s name can\'t contain "."%s' % (what, ', got: ' + name if what == 'module' else ''))
        if name == '':
            raise KeyError('%s name can\'t be empty string ""' % what)
        if taken:
            raise KeyError("attribute '%s' already exists" % name)

    def register_parameter(self, name, param):
        """Add a parameter (or None) under `name`."""
        self._check_name(name, 'parameter', self.__dict__.get('_parameters'))
        if param is not None and not isinstance(param, Parameter):
            raise TypeError("cannot assign '%s' object to parameter '%s' (torch.nn.Parameter or None required)"
                            % (_typename(param), name))
        if param is not None and param._grad_fn is not None:
            raise ValueError("Cannot assign non-leaf Tensor to parameter '%s'. Model parameters must be created "
                             "explicitly. To express '%s' as a function of another Tensor, compute the value in the "
                             "forward() method." % (name, name))
        self._parameters[name] = _registered(self, 'parameter', name, param)

    def register_buffer(self, name, tensor, persistent=True):
        """Add a tensor that is state but not a parameter (saved in state_dict unless persistent=False)."""
        self._check_name(name, 'buffer', self.__dict__.get('_buffers'))
        if tensor is not None and not isinstance(tensor, Tensor):
            raise TypeError("cannot assign '%s' object to buffer '%s' (torch Tensor or None required)"
                            % (_typename(tensor), name))
        self._buffers[name] = _registered(self, 'buffer', name, tensor)
        (self._non_persistent_buffers_set.discard if persistent else self._non_persistent_buffers_set.add)(name)

    def add_module(self, name, module):
        """Add a child module under `name`."""
        if module is not None and not isinstance(module, Module):
            raise TypeError('%s is not a Module subclass' % _typename(module))
        _check_initialised(self, '_modules')
        self._check_name(name, 'module', self.__dict__.get('_modules'))
        self._modules[name] = _registered(self, 'module', name, module)

    register_module = add_module

    # ------------------------------------------------------------------ traversal
    def named_modules(self, memo=None, prefix='', remove_duplicate=True):
        """(name, module) for this module and every module below it, depth first."""
        memo = set() if memo is None else memo
        if remove_duplicate:
            if self in memo:
                return
            memo.add(self)
        yield prefix, self
        for name, module in self._modules.items():
            if module is not None:
                yield from module.named_modules(memo, prefix + ('.' if prefix else '') + name, remove_duplicate)

    def modules(self):
        for _, m in self.named_modules():
            yield m

    def named_children(self):
        seen = set()
        for name, m in self._modules.items():
            if m is not None and m not in seen:
                seen.add(m)
                yield name, m

    def children(self):
        for _, m in self.named_children():
            yield m

    def _named(self, store, prefix, recurse, remove_duplicate=True):
        return self._named_members(lambda m: getattr(m, store).items(), prefix, recurse, remove_duplicate)

    def _named_members(self, get_members_fn, prefix='', recurse=True, remove_duplicate=True):
        """(dotted name, member) for the members get_members_fn(module) gives of each module, each member once."""
        seen = set()
        mods = self.named_modules(prefix=prefix, remove_duplicate=remove_duplicate) if recurse else [(prefix, self)]
        for mod_prefix, m in mods:
            for name, t in get_members_fn(m):
                if t is None or (remove_duplicate and id(t) in seen):
                    continue
                seen.add(id(t))
                yield mod_prefix + ('.' if mod_prefix else '') + name, t

    def named_parameters(self, prefix='', recurse=True, remove_duplicate=True):
        """(dotted name, parameter) pairs, each parameter once."""
        yield from self._named('_parameters', prefix, recurse, remove_duplicate)

    def parameters(self, recurse=True):
        for _, p in self.named_parameters(recurse=recurse):
            yield p

    def named_buffers(self, prefix='', recurse=True, remove_duplicate=True):
        yield from self._named('_buffers', prefix, recurse, remove_duplicate)

    def buffers(self, recurse=True):
        for _, b in self.named_buffers(recurse=recurse):
            yield b

    def apply(self, fn):
        """fn(module) on every submodule, then on this one."""
        for m in self.children():
            m.apply(fn)
        fn(self)
        return self

    # ------------------------------------------------------------------ modes and gradients
    def train(self, mode=True):
        if not isinstance(mode, bool):
            raise ValueError('training mode is expected to be boolean')
        self.training = mode
        for m in self.children():       # (each child's own train(), which a subclass may override: frozen BN)
            m.train(mode)
        return self

    def eval(self):
        return self.train(False)

    def requires_grad_(self, requires_grad=True):
        for p in self.parameters():
            p.requires_grad_(requires_grad)
        return self

    def zero_grad(self, set_to_none=True):
        """Forget the parameters' gradients (None by default, as in PyTorch 2.x; else zero them in place)."""
        for p in self.parameters():
            _zero_grad(p, set_to_none)

    # ------------------------------------------------------------------ conversion and state
    def _apply(self, fn, recurse=True):
        """PyTorch's _apply: the children first (each its own _apply, which a subclass may override); then each
        parameter gets the data of fn(it), keeping its identity, and so does its grad (grad.data = fn(grad)); each
        buffer is replaced by fn(it), a new tensor then."""
        _check_initialised(self, '_modules')
        if recurse:
            for module in self.children():
                module._apply(fn)
        for t in self._parameters.values():
            if t is None:
                continue
            t.data = fn(t.detach())
            if t._grad is not None:
                t._grad.data = fn(t._grad.detach())
        buffers = self._buffers
        for key, t in buffers.items():
            if t is not None:
                buffers[key] = fn(t)
        return self

    def to_empty(self, *, device=None, recurse=True):
        """Every parameter and buffer made uninitialised memory of its shape (on `device`)."""
        from .._factories import empty_like
        return self._apply(lambda t: empty_like(t, device=device), recurse=recurse)

    def to(self, *args, **kwargs):
        """dtype / device moves of the floating and complex tensors (only 'cpu' exists here)."""
        dtype = kwargs.get('dtype', next((a.dtype if isinstance(a, Tensor) else a for a in args
                                          if isinstance(a, (_dtypes.dtype, Tensor)) or a in _PYTHON_DTYPES), None))
        if dtype in _PYTHON_DTYPES:             # (Python's float, int, bool: the dtypes PyTorch reads them as)
            dtype = _dtypes.to_dtype(dtype)
        if dtype is not None:
            if not (dtype.is_floating_point or dtype.is_complex):
                raise TypeError('nn.Module.to only accepts floating point or complex dtypes, but got desired dtype='
                                + str(dtype))
            if dtype.is_complex:
                warnings.warn('Complex modules are a new feature under active development whose design may change, '
                              'and some modules might not work as expected when using complex tensors as parameters '
                              'or buffers. Please file an issue at https://github.com/pytorch/pytorch/issues/new?'
                              'template=bug-report.yml if a complex module does not work as expected.', stacklevel=2)
        kwargs = dict(kwargs)
        memory_format = kwargs.pop('memory_format', None)   # (for the 4-d and 5-d tensors only, as PyTorch's)

        def convert(t):
            if not (t.is_floating_point() or t.is_complex()):
                return t
            if memory_format is not None and t.dim() in (4, 5):
                return t.to(*args, memory_format=memory_format, **kwargs)
            return t.to(*args, **kwargs) if args or kwargs else t
        return self._apply(convert)

    def type(self, dst_type):
        """Every parameter and buffer (integer ones too) as Tensor.type(dst_type) gives it."""
        return self._apply(lambda t: t.type(dst_type))

    def float(self):
        return self._apply(lambda t: t.float() if t.is_floating_point() else t)

    def double(self):
        return self._apply(lambda t: t.double() if t.is_floating_point() else t)

    def half(self):
        return self._apply(lambda t: t.half() if t.is_floating_point() else t)

    def bfloat16(self):                 # (the engine has no bfloat16 tensors: their clear error)
        return self._apply(lambda t: t.bfloat16() if t.is_floating_point() else t)

    def get_submodule(self, target):
        """The submodule at a dotted path ('' is this module)."""
        mod = self
        for item in target.split('.') if target else ():
            if not hasattr(mod, item):
                raise AttributeError(mod._get_name() + ' has no attribute `' + item + '`')
            mod = getattr(mod, item)
            if not isinstance(mod, Module):
                raise AttributeError('`' + item + '` is not an nn.Module')
        return mod

    def set_submodule(self, target, module, strict=False):
        """Put `module` at a dotted path: its parent must exist; with strict, so must the name there."""
        if target == '':
            raise ValueError('Cannot set the submodule without a target name!')
        *path, name = target.split('.')
        if not isinstance(module, Module):
            raise ValueError('`module` is not an nn.Module, found %s' % type(module))
        parent = self.get_submodule('.'.join(path)) if path else self
        if hasattr(parent, name):
            if not isinstance(getattr(parent, name), Module):
                raise AttributeError('`' + name + '` is not an nn.Module')
        elif strict:
            raise AttributeError(parent._get_name() + ' has no attribute `' + name + '`')
        setattr(parent, name, module)

    def _get_attribute(self, target):
        """(module, name, value) of the attribute at a dotted path (for get_parameter, get_buffer)."""
        path, _, name = target.rpartition('.')
        mod = self.get_submodule(path)
        if not hasattr(mod, name):
            raise AttributeError(mod._get_name() + ' has no attribute `' + name + '`')
        return mod, name, getattr(mod, name)

    def get_parameter(self, target):
        """The parameter at a dotted path ('0.weight')."""
        _, name, value = self._get_attribute(target)
        if not isinstance(value, Parameter):
            raise AttributeError('`' + name + '` is not an nn.Parameter')
        return value

    def get_buffer(self, target):
        """The buffer at a dotted path ('1.running_mean')."""
        mod, name, value = self._get_attribute(target)
        if name not in mod._buffers:
            raise AttributeError('`' + name + '` is not a buffer')
        return value

    def cpu(self):
        _check_initialised(self, '_modules')
        return self

    def share_memory(self):
        """Every parameter, its grad and every buffer moved to shared memory (share_memory_: the same tensors, their
        versions unchanged)."""
        for p in self.parameters():
            p.share_memory_()
            if p.grad is not None:
                p.grad.share_memory_()
        for b in self.buffers():
            b.share_memory_()
        return self

    def cuda(self, device=None):
        return self._apply(lambda t: t.cuda(device))      # (raises, unless there is no tensor to move)

    def state_dict(self, *args, destination=None, prefix='', keep_vars=False):
        """An ordered dict of every parameter and persistent buffer by dotted name (detached unless keep_vars), and
        the extra state of each module that defines get_extra_state (as `_extra_state`); its _metadata gives each
        module's _version by prefix (load_state_dict upgrades older entries by it). Each module adds its own
        (_save_to_state_dict) then calls its children's state_dict, between its pre- and post-hooks, as PyTorch's
        does (a subclass may override any of these). The arguments given by position (the old form) are taken with
        PyTorch's FutureWarning."""
        if args:
            warnings.warn('Positional args are being deprecated, use kwargs instead. Refer to https://pytorch.org/docs/'
                          'main/generated/torch.nn.Module.html#torch.nn.Module.state_dict for details.', FutureWarning,
                          stacklevel=2)
            if destination is None:
                destination = args[0]
            if len(args) > 1 and prefix == '':
                prefix = args[1]
            if len(args) > 2 and keep_vars is False:
                keep_vars = args[2]
        _check_initialised(self, '_state_dict_pre_hooks')
        if destination is None:
            destination = OrderedDict()
            destination._metadata = OrderedDict()
        local_metadata = {'version': self._version}
        if hasattr(destination, '_metadata'):
            destination._metadata[prefix[:-1]] = local_metadata
        for hook in self._state_dict_pre_hooks.values():
            hook(self, prefix, keep_vars)
        self._save_to_state_dict(destination, prefix, keep_vars)
        for name, module in self._modules.items():
            if module is not None:
                module.state_dict(destination=destination, prefix=prefix + name + '.', keep_vars=keep_vars)
        for hook in self._state_dict_hooks.values():
            result = hook(self, destination, prefix, local_metadata)
            if getattr(hook, '_from_public_api', False):
                if result is not None:
                    raise RuntimeError('state_dict post-hook must return None')
            elif result is not None:
                destination = result
        return destination

    def _save_to_state_dict(self, destination, prefix, keep_vars):
        """This module's own entries of its state_dict: parameters, persistent buffers, extra state."""
        for name, p in self._parameters.items():
            if p is not None:
                destination[prefix + name] = p if keep_vars else p.detach()
        for name, b in self._buffers.items():
            if b is not None and name not in self._non_persistent_buffers_set:
                destination[prefix + name] = b if keep_vars else b.detach()
        if type(self).get_extra_state is not Module.get_extra_state:
            destination[prefix + '_extra_state'] = self.get_extra_state()

    def register_state_dict_pre_hook(self, hook):
        """hook(module, prefix, keep_vars) runs as state_dict starts on this module."""
        return ag._Handle(self._state_dict_pre_hooks, hook)

    def register_state_dict_post_hook(self, hook):
        """hook(module, state_dict, prefix, local_metadata) runs once this module's entries are in (returns None)."""
        hook._from_public_api = True
        return ag._Handle(self._state_dict_hooks, hook)

    def _register_state_dict_hook(self, hook):
        """(The older form: what the hook returns, if not None, becomes the state_dict.)"""
        if getattr(hook, '_from_public_api', False):
            raise RuntimeError('Cannot register the same function as the state dict post hook that was previously '
                               'registered via register_state_dict_post_hook')
        return ag._Handle(self._state_dict_hooks, hook)

    def register_load_state_dict_pre_hook(self, hook):
        """hook(module, state_dict, prefix, local_metadata, strict, missing_keys, unexpected_keys, error_msgs) runs
        before this module loads its entries."""
        return self._register_load_state_dict_pre_hook(hook, with_module=True)

    def _register_load_state_dict_pre_hook(self, hook, with_module=False):
        return ag._Handle(self._load_state_dict_pre_hooks, functools.partial(hook, self) if with_module else hook)

    def register_load_state_dict_post_hook(self, hook):
        """hook(module, incompatible_keys) runs once this module and its children are loaded (it may change the
        lists of missing and unexpected keys; it returns None)."""
        return ag._Handle(self._load_state_dict_post_hooks, hook)

    def get_extra_state(self):
        """The module's extra state for state_dict (any picklable object): defined by modules that have one."""
        raise RuntimeError('Reached a code path in Module.get_extra_state() that should never be called. Please file '
                           'an issue at https://github.com/pytorch/pytorch/issues/new?template=bug-report.yml to '
                           'report this bug.')

    def set_extra_state(self, state):
        """Take back the extra state get_extra_state gave, from a loaded state_dict."""
        raise RuntimeError('Reached a code path in Module.set_extra_state() that should never be called. Please file '
                           'an issue at https://github.com/pytorch/pytorch/issues/new?template=bug-report.yml to '
                           'report this bug.')

    def load_state_dict(self, state_dict, strict=True, assign=False):
        """Copy values from a state_dict into this module's parameters and buffers (in place, without grad): each
        module loads its own entries (_load_from_state_dict) then its children theirs, as PyTorch's does."""
        if not isinstance(state_dict, Mapping):
            raise TypeError('Expected state_dict to be dict-like, got %s.' % type(state_dict))
        _check_initialised(self, '_load_state_dict_pre_hooks')
        missing, unexpected, errors = [], [], []
        metadata = getattr(state_dict, '_metadata', None)
        state_dict = OrderedDict(state_dict)         # (a copy: the upgrades must not change the caller's)
        if metadata is not None:
            state_dict._metadata = metadata

        def load(module, local, prefix=''):
            local_metadata = {} if metadata is None else dict(metadata.get(prefix[:-1], {}))
            if assign:
                local_metadata['assign_to_params_buffers'] = assign
            module._load_from_state_dict(local, prefix, local_metadata, True, missing, unexpected, errors)
            for name, child in module._modules.items():
                if child is not None:
                    child_prefix = prefix + name + '.'
                    load(child, {k: v for k, v in local.items() if k.startswith(child_prefix)}, child_prefix)
            keys = _IncompatibleKeys(missing, unexpected)
            for hook in module._load_state_dict_post_hooks.values():
                if hook(module, keys) is not None:
                    raise AssertionError('Hooks registered with ``register_load_state_dict_post_hook`` are not '
                                         'expected to return new values, if incompatible_keys need to be modified, '
                                         'it should be done inplace.')
        load(self, state_dict)
        del load                        # (it refers to itself: freed now)
        if strict:
            if unexpected:
                errors.insert(0, 'Unexpected key(s) in state_dict: %s. ' % ', '.join('"%s"' % k for k in unexpected))
            if missing:
                errors.insert(0, 'Missing key(s) in state_dict: %s. ' % ', '.join('"%s"' % k for k in missing))
        if errors:
            raise RuntimeError('Error(s) in loading state_dict for %s:\n\t%s' % (type(self).__name__,
                                                                                  '\n\t'.join(errors)))
        return _IncompatibleKeys(missing, unexpected)

    def _load_from_state_dict(self, state_dict, prefix, local_metadata, strict, missing_keys, unexpected_keys,
                              error_msgs):
        """This module's own entries: its load pre-hooks, the upgrade of an older version's entries, then each
        parameter and persistent buffer copied in (or, assign, taken), its extra state set; keys of this module's
        that nothing here takes are unexpected."""
        for hook in self._load_state_dict_pre_hooks.values():
            hook(state_dict, prefix, local_metadata, strict, missing_keys, unexpected_keys, error_msgs)
        self._upgrade_state_dict(state_dict, prefix, local_metadata.get('version'))
        local_state = {k: v for k, v in itertools.chain(
            self._parameters.items(), ((k, b) for k, b in self._buffers.items()
                                       if k not in self._non_persistent_buffers_set)) if v is not None}
        assign = local_metadata.get('assign_to_params_buffers', False)
        for name, param in local_state.items():
            key = prefix + name
            if key not in state_dict:
                if strict:
                    missing_keys.append(key)
                continue
            src = state_dict[key]
            if not isinstance(src, Tensor):
                error_msgs.append('While copying the parameter named "%s", expected torch.Tensor or Tensor-like '
                                  'object from checkpoint but received %s' % (key, type(src)))
                continue
            if isinstance(param, (UninitializedParameter, UninitializedBuffer)):     # (a lazy module's: shaped so)
                param.materialize(src.shape)
            if not param.shape and src.ndim == 1:      # (a 1-element checkpoint of PyTorch 0.3 for a 0-d one)
                src = src[0]
            if src.shape != param.shape:
                error_msgs.append('size mismatch for %s: copying a param with shape %s from checkpoint, the shape in '
                                  'current model is %s.' % (key, src.shape, param.shape))
                continue
            try:
                with ag.no_grad():
                    if assign:
                        if name in self._parameters:
                            if isinstance(src, Parameter):
                                src.requires_grad_(param.requires_grad)
                            else:
                                src = Parameter(src, requires_grad=param.requires_grad)
                        setattr(self, name, src)
                    else:
                        param.copy_(src)
            except Exception as ex:
                error_msgs.append('While copying the parameter named "%s", whose dimensions in the model are %s and '
                                  'whose dimensions in the checkpoint are %s, an exception occurred : %s.'
                                  % (key, param.size(), src.size(), ex.args))
        extra = prefix + '_extra_state'
        if type(self).set_extra_state is not Module.set_extra_state:
            if extra in state_dict:
                self.set_extra_state(state_dict[extra])
            elif strict:
                missing_keys.append(extra)
        elif strict and extra in state_dict:
            unexpected_keys.append(extra)
        if strict:
            for key in state_dict:
                if key.startswith(prefix) and key != extra:
                    first, *rest = key[len(prefix):].split('.', 1)
                    if (first not in self._modules) if rest else (first not in local_state):
                        unexpected_keys.append(key)

    def _upgrade_state_dict(self, state_dict, prefix, version):
        """Bring this module's entries of a state_dict saved by an older _version (None: unknown) up to date (what
        PyTorch's layers do in their _load_from_state_dict first)."""

    # ------------------------------------------------------------------ printing
    def extra_repr(self):
        """The text between the parentheses of this module's repr (layers override it)."""
        return ''

    def _get_name(self):
        return type(self).__name__

    def _child_lines(self):
        return ['(%s): %s' % (name, _addindent(repr(m), 2)) for name, m in self._modules.items()]

    def __repr__(self):
        extra = self.extra_repr().split('\n') if self.extra_repr() else []
        children = self._child_lines()
        if len(extra) == 1 and not children:
            return '%s(%s)' % (self._get_name(), extra[0])
        if not extra and not children:
            return self._get_name() + '()'
        return '%s(\n  %s\n)' % (self._get_name(), '\n  '.join(extra + children))

    def __dir__(self):
        names = set(object.__dir__(self)) | set(self._parameters) | set(self._buffers) | set(self._modules)
        own = vars(self)            # (an attribute of the engine's own name that a model sets stays listed)
        return sorted(names.union(_TORCH_MODULE_NAMES).difference(
            n for n in _ENGINE_MODULE_NAMES if n[0] == '_' or n not in own))


def _zero_grad(p, set_to_none):
    if p._grad is None:
        return
    if set_to_none:
        p._grad = None
    else:
        g = p._grad
        if g._grad_fn is not None:
            g.detach_()
        else:
            g.requires_grad_(False)
        g.zero_()


# ================================================================================================ containers

class _Numbered(Module):
    """What the list-like containers share: children (or parameters) named '0', '1', ... and their indices."""

    def _abs_index(self, idx):
        """idx as a position from 0, with PyTorch's error for one out of range."""
        idx = operator.index(idx)
        if not -len(self) <= idx < len(self):
            raise IndexError('index %d is out of range' % idx)
        return idx % len(self)

    def __dir__(self):
        return [k for k in super().__dir__() if not k.isdigit()]


class _ModuleSequence(_Numbered):
    """What Sequential and ModuleList share: numbered children, len(), iteration, append(), del, pop()."""

    def __len__(self):
        return len(self._modules)

    def __iter__(self):
        return iter(self._modules.values())

    def __getitem__(self, idx):
        if isinstance(idx, slice):
            return type(self)(list(self._modules.values())[idx])
        return self._modules[self._key(idx)]

    def _key(self, idx):
        return list(self._modules)[self._abs_index(idx)]

    def __setitem__(self, idx, module):
        setattr(self, self._key(idx), module)

    def __delitem__(self, idx):
        """Remove the children at idx; the rest renumbered from 0."""
        for key in (list(self._modules)[idx] if isinstance(idx, slice) else [self._key(idx)]):
            delattr(self, key)
        self.__dict__['_modules'] = OrderedDict((str(i), m) for i, m in enumerate(self._modules.values()))

    def append(self, module):
        self.add_module(str(len(self)), module)
        return self

    def pop(self, key):
        v = self[key]
        del self[key]
        return v

    def _insert(self, index, module):
        """Put module at index, shifting the later ones up (PyTorch's insert, which checks nothing)."""
        for i in range(len(self._modules), index, -1):
            self._modules[str(i)] = self._modules[str(i - 1)]
        self._modules[str(index)] = module


class Sequential(_ModuleSequence):
    """Modules run one after another, each fed the previous one's output."""

    def __init__(self, *args):
        super().__init__()
        if len(args) == 1 and isinstance(args[0], OrderedDict):
            for name, m in args[0].items():
                self.add_module(name, m)
        else:
            for i, m in enumerate(args):
                self.add_module(str(i), m)

    def __getitem__(self, idx):
        if isinstance(idx, slice):
            return type(self)(OrderedDict(list(self._modules.items())[idx]))
        return super().__getitem__(idx)

    def _check_other(self, other):
        if not isinstance(other, Sequential):
            raise ValueError('add operator supports only objects of Sequential class, but %s is given.'
                             % str(type(other)))

    def __add__(self, other):
        self._check_other(other)
        return Sequential().extend(self).extend(other)

    def __iadd__(self, other):
        self._check_other(other)
        for i, m in enumerate(other, len(self)):
            self.add_module(str(i), m)
        return self

    def _check_factor(self, other):
        if not isinstance(other, int):
            raise TypeError('unsupported operand type(s) for *: %s and %s' % (type(self), type(other)))
        if other <= 0:
            raise ValueError('Non-positive multiplication factor %s for %s' % (other, type(self)))

    def __mul__(self, other):
        self._check_factor(other)
        return Sequential(*(list(self) * other))

    __rmul__ = __mul__

    def __imul__(self, other):
        self._check_factor(other)
        n = len(self)
        for i in range(n, n * other):
            self.add_module(str(i), self._modules[str(i % n)])
        return self

    def insert(self, index, module):
        if not isinstance(module, Module):
            raise AssertionError('module should be of type: %s' % Module)
        n = len(self._modules)
        if not -n <= index <= n:
            raise IndexError('Index out of range: %d' % index)
        self._insert(index + n if index < 0 else index, module)
        return self

    def extend(self, sequential):
        for m in sequential:
            self.append(m)
        return self

    def forward(self, input):
        for m in self._modules.values():
            input = m(input)
        return input


class ModuleList(_ModuleSequence):
    """A list of modules whose parameters belong to the owner (no forward of its own)."""

    def __init__(self, modules=None):
        super().__init__()
        if modules is not None:
            self += modules

    def __iadd__(self, modules):
        return self.extend(modules)

    def __add__(self, other):
        return ModuleList().extend(self).extend(other)

    def insert(self, index, module):
        self._insert(index, module)

    def extend(self, modules):
        if not isinstance(modules, Iterable):
            raise TypeError('ModuleList.extend should be called with an iterable, but got ' + type(modules).__name__)
        for m in modules:
            self.append(m)
        return self

    def _child_lines(self):
        """Runs of identical-looking children are folded: `(0-2): 3 x Linear(...)`, as PyTorch prints them (a None
        child too, as `None`)."""
        lines, run, end = [], [], object()
        for name, m in list(enumerate(self._modules.values())) + [(None, end)]:     # (positions, not keys)
            text = None if m is end else repr(m)
            if run and text != run[0][1]:
                first, body = run[0]
                label = first if len(run) == 1 else '%s-%s' % (first, run[-1][0])
                lines.append('(%s): %s' % (label, _addindent(body if len(run) == 1 else '%d x %s' % (len(run), body),
                                                             2)))
                run = []
            if m is not end:
                run.append((name, text))
        return lines


def _pairs(name, items):
    """The (key, value) pairs of a dict-like update: its items, or a sequence of pairs (PyTorch's checks)."""
    if not isinstance(items, Iterable):
        raise TypeError('%s.update should be called with an iterable of key/value pairs, but got %s'
                        % (name, type(items).__name__))
    if isinstance(items, (Mapping, ModuleDict, ParameterDict)):
        return list(items.items())
    pairs = []
    for j, p in enumerate(items):
        what = name.replace('ParametersDict', 'ParameterDict')
        if not isinstance(p, Iterable):
            raise TypeError('%s update sequence element #%d should be Iterable; is%s' % (what, j, type(p).__name__))
        if len(p) != 2:
            raise ValueError('%s update sequence element #%d has length %d; 2 is required' % (what, j, len(p)))
        pairs.append((p[0], p[1]))
    return pairs


class _DictMethods:
    """The dict methods ModuleDict and ParameterDict share, on top of [], del and iteration over keys."""

    def __contains__(self, key):
        return key in self.keys()

    def pop(self, key):
        v = self[key]
        del self[key]
        return v

    def clear(self):
        for k in list(self.keys()):
            del self[k]


class ModuleDict(_DictMethods, Module):
    """A dict of modules whose parameters belong to the owner."""

    def __init__(self, modules=None):
        super().__init__()
        if modules is not None:
            self.update(modules)

    def __getitem__(self, key):
        return self._modules[key]

    def __setitem__(self, key, module):
        self.add_module(key, module)

    def __delitem__(self, key):
        del self._modules[key]

    def __len__(self):
        return len(self._modules)

    def __iter__(self):
        return iter(self._modules)

    def keys(self):
        return self._modules.keys()

    def values(self):
        return self._modules.values()

    def items(self):
        return self._modules.items()

    def update(self, modules):
        for k, m in _pairs('ModuleDict', modules):
            self[k] = m


def _param_line(key, p, dtype_name):
    """One line of a ParameterList / ParameterDict repr."""
    if not isinstance(p, Tensor):
        return '  (%s): Object of type: %s' % (key, type(p).__name__)
    return '  (%s): %s containing: [%s of size %s]' % (key, 'Parameter' if isinstance(p, Parameter) else 'Tensor',
                                                       dtype_name(p), 'x'.join(map(str, p.shape)))


def _as_parameter(value):
    return Parameter(value) if isinstance(value, Tensor) and not isinstance(value, Parameter) else value


class ParameterList(_Numbered):
    """A list of parameters (tensors given become Parameters) registered as '0', '1', ..."""

    def __init__(self, values=None):
        super().__init__()
        self._size = 0
        if values is not None:
            self += values

    def __getitem__(self, idx):
        if isinstance(idx, slice):
            return type(self)([self[i] for i in range(*idx.indices(len(self)))])
        return getattr(self, str(self._abs_index(idx)))

    def __setitem__(self, idx, param):
        setattr(self, str(self._abs_index(idx)), _as_parameter(param))

    def __len__(self):
        return self._size

    def __iter__(self):
        return iter([self[i] for i in range(len(self))])

    def __iadd__(self, parameters):
        return self.extend(parameters)

    def append(self, value):
        self._size += 1
        self[self._size - 1] = value
        return self

    def extend(self, values):
        if not isinstance(values, Iterable) or isinstance(values, Tensor):
            raise TypeError('ParameterList.extend should be called with an iterable, but got ' + type(values).__name__)
        for v in values:
            self.append(v)
        return self

    def extra_repr(self):
        return '\n'.join(_param_line(k, p, lambda t: str(t.dtype)) for k, p in enumerate(self))

    def __call__(self, *args, **kwargs):
        raise RuntimeError('ParameterList should not be called.')


class ParameterDict(_DictMethods, Module):
    """A dict of parameters (tensors given become Parameters), kept in insertion order."""

    def __init__(self, parameters=None):
        super().__init__()
        self._keys = {}
        if parameters is not None:
            self.update(parameters)

    def _key_to_attr(self, key):
        if not isinstance(key, str):
            raise TypeError("Index given to ParameterDict cannot be used as a key as it is not a string (type is "
                            "'%s'). Open an issue on github if you need non-string keys." % type(key).__name__)
        return key

    def __getitem__(self, key):
        return getattr(self, self._key_to_attr(key))

    def __setitem__(self, key, value):
        self._keys[key] = None
        setattr(self, self._key_to_attr(key), _as_parameter(value))

    def __delitem__(self, key):
        del self._keys[key]
        delattr(self, self._key_to_attr(key))

    def __len__(self):
        return len(self._keys)

    def __iter__(self):
        return iter(self._keys)

    def __reversed__(self):
        return reversed(self._keys)

    def copy(self):
        return ParameterDict(OrderedDict((k, self[k]) for k in self._keys))

    def setdefault(self, key, default=None):
        if key not in self:
            self[key] = default
        return self[key]

    def popitem(self):
        k = next(reversed(self._keys))
        return k, self.pop(k)

    def get(self, key, default=None):
        return self[key] if key in self else default

    def fromkeys(self, keys, default=None):
        return ParameterDict((k, default) for k in keys)

    def keys(self):
        return self._keys.keys()

    def items(self):
        return ((k, self[k]) for k in self._keys)

    def values(self):
        return (self[k] for k in self._keys)

    def update(self, parameters):
        """From another ParameterDict or OrderedDict in order, a plain mapping sorted by key, or (key, value) pairs."""
        pairs = _pairs('ParametersDict', parameters)
        if isinstance(parameters, Mapping) and not isinstance(parameters, OrderedDict):
            pairs = sorted(pairs)
        for k, p in pairs:
            self[k] = p

    def extra_repr(self):
        return '\n'.join(_param_line(k, p, _typename) for k, p in self.items())

    def __call__(self, input):
        raise RuntimeError('ParameterDict should not be called.')

    def __or__(self, other):
        out = self.copy()
        out.update(other)
        return out

    def __ror__(self, other):
        out = other.copy()
        out.update(self)
        return out

    def __ior__(self, other):
        self.update(other)
        return self


# ================================================================================================ init

def _fans(t):
    if t.dim() < 2:
        raise ValueError('Fan in and fan out can not be computed for tensor with fewer than 2 dimensions')
    receptive = 1
    for s in t.shape[2:]:
        receptive *= s
    return t.shape[1] * receptive, t.shape[0] * receptive


def _add_weight_and_bias(module, shape, bias, device, dtype):
    """A layer's weight of `shape` and its bias (one per output), or a registered None, initialised by the
    layer's reset_parameters (PyTorch's: kaiming_uniform_ and a uniform bias within 1 / sqrt(fan_in))."""
    module.weight = Parameter(empty(shape, device=device, dtype=dtype))
    if bias:
        module.bias = Parameter(empty(shape[0], device=device, dtype=dtype))
    else:
        module.register_parameter('bias', None)
    module.reset_parameters()


def _drawn_(t, method, p, q, generator):
    """t.uniform_(p, q) / t.normal_(p, q) without recording (the same numbers as PyTorch's for its seed)."""
    with ag.no_grad():
        return getattr(t, method)(p, q, generator=generator)


def _fill_(t, data):
    """Overwrite t in place without recording (one version bump, as PyTorch's init functions do)."""
    with ag.no_grad():
        t._data[...] = data
        ag.bump(t)
        _views_changed(t)
    return t


def _fan(t, mode):
    """fan_in or fan_out (mode in any case), as the kaiming initialisers take it."""
    mode = mode.lower()
    if mode not in ('fan_in', 'fan_out'):
        raise ValueError("Mode %s not supported, please use one of ['fan_in', 'fan_out']" % mode)
    return _fans(t)[mode == 'fan_out']


def _empty(t):
    """Whether t has no elements; the kaiming initialisers then warn, as PyTorch's do, and leave it."""
    if t.numel():
        return False
    warnings.warn('Initializing zero-element tensors is a no-op', UserWarning, stacklevel=user_stacklevel())
    return True


class _Init:
    """torch.nn.init: in-place initialisers drawing from PyTorch's generator (seeded by torch.manual_seed)."""

    @staticmethod
    def calculate_gain(nonlinearity, param=None):
        """The recommended gain for a nonlinearity: 1 for linear layers and sigmoid."""
        gains = dict.fromkeys(('linear', 'conv1d', 'conv2d', 'conv3d', 'conv_transpose1d', 'conv_transpose2d',
                               'conv_transpose3d', 'sigmoid'), 1)
        gains.update(tanh=5.0 / 3, relu=math.sqrt(2.0), selu=3.0 / 4)
        if nonlinearity == 'leaky_relu':
            if param is None:
                param = 0.01
            elif isinstance(param, bool) or not isinstance(param, (int, float)):
                raise ValueError('negative_slope %s not a valid number' % param)
            return math.sqrt(2.0 / (1 + param ** 2))
        if nonlinearity not in gains:
            raise ValueError('Unsupported nonlinearity %s' % nonlinearity)
        return gains[nonlinearity]

    @staticmethod
    def uniform_(tensor, a=0.0, b=1.0, generator=None):
        return _drawn_(tensor, 'uniform_', a, b, generator)

    @staticmethod
    def normal_(tensor, mean=0.0, std=1.0, generator=None):
        return _drawn_(tensor, 'normal_', mean, std, generator)

    @staticmethod
    def trunc_normal_(tensor, mean=0.0, std=1.0, a=-2.0, b=2.0, generator=None):
        """Normal(mean, std) values within [a, b], drawn as PyTorch draws them: normals redrawn where outside when
        most fall inside (p > 0.3), else uniforms on [a, b] accepted with the normal's density."""
        if mean < a - 2 * std or mean > b + 2 * std:
            warnings.warn('mean is more than 2 std from [a, b] in nn.init.trunc_normal_. The distribution of values '
                          'may be incorrect.', stacklevel=2)

        def cdf(x):
            return (1.0 + math.erf(x / math.sqrt(2.0))) / 2.0

        def log_density(c):                              # (relative to the density's peak in [a, b])
            return c.sub_(mean).div_(std).pow_(2).mul_(-0.5).sub_(-0.5 * ((max(a, min(mean, b)) - mean) / std) ** 2)

        with ag.no_grad():
            result = tensor
            if cdf((b - mean) / std) - cdf((a - mean) / std) > 0.3:
                lo, hi = tensor.new_tensor(a).item(), tensor.new_tensor(b).item()
                tensor.normal_(mean, std, generator=generator)
                while True:
                    outside = (result < lo) | (result > hi)
                    if not outside.any():
                        break
                    result = where(outside, empty_like(result).normal_(mean, std, generator=generator), result)
            else:
                candidates, accept = empty_like(tensor), empty_like(tensor)
                tensor.uniform_(a, b, generator=generator)
                pending = accept.uniform_(generator=generator).log_().gt(log_density(candidates.copy_(tensor)))
                while pending.any():
                    candidates.uniform_(a, b, generator=generator)
                    result = where(pending, candidates, result)
                    pending = where(pending, accept.uniform_(generator=generator).log_().gt(log_density(candidates)),
                                    pending)
            if result is not tensor:
                tensor.copy_(result)
        return tensor

    @staticmethod
    def constant_(tensor, val):
        with ag.no_grad():          # (fill_'s argument errors, as PyTorch's initialisers call it)
            return tensor.fill_(val)

    @staticmethod
    def zeros_(tensor):
        with ag.no_grad():
            return tensor.zero_()

    @staticmethod
    def ones_(tensor):
        with ag.no_grad():
            return tensor.fill_(1.0)

    @staticmethod
    def eye_(tensor):
        """The identity matrix (of a 2-d tensor)."""
        if tensor.ndim != 2:
            raise ValueError('Only tensors with 2 dimensions are supported')
        return _fill_(tensor, np.eye(*tensor.shape))

    @staticmethod
    def dirac_(tensor, groups=1):
        """Zeros but a 1 at the centre of kernel [i, i] (per group): a convolution that passes its input on."""
        if tensor.ndim not in (3, 4, 5):
            raise ValueError('Only tensors with 3, 4, or 5 dimensions are supported')
        if tensor.shape[0] % groups != 0:
            raise ValueError('dim 0 must be divisible by groups')
        per_group = tensor.shape[0] // groups
        centre = tuple(n // 2 for n in tensor.shape[2:])
        with ag.no_grad():
            tensor.zero_()
            for g in range(groups):
                for d in range(min(per_group, tensor.shape[1])):
                    tensor[(g * per_group + d, d) + centre] = 1
        return tensor

    @staticmethod
    def xavier_uniform_(tensor, gain=1.0, generator=None):
        fan_in, fan_out = _fans(tensor)
        bound = math.sqrt(3.0) * gain * math.sqrt(2.0 / float(fan_in + fan_out))
        return init.uniform_(tensor, -bound, bound, generator)

    @staticmethod
    def xavier_normal_(tensor, gain=1.0, generator=None):
        fan_in, fan_out = _fans(tensor)
        return init.normal_(tensor, 0.0, gain * math.sqrt(2.0 / float(fan_in + fan_out)), generator)

    @staticmethod
    def kaiming_uniform_(tensor, a=0, mode='fan_in', nonlinearity='leaky_relu', generator=None):
        if _empty(tensor):
            return tensor
        bound = math.sqrt(3.0) * (init.calculate_gain(nonlinearity, a) / math.sqrt(_fan(tensor, mode)))
        return init.uniform_(tensor, -bound, bound, generator)

    @staticmethod
    def kaiming_normal_(tensor, a=0, mode='fan_in', nonlinearity='leaky_relu', generator=None):
        if _empty(tensor):
            return tensor
        fan = _fan(tensor, mode)
        return init.normal_(tensor, 0.0, init.calculate_gain(nonlinearity, a) / math.sqrt(fan), generator)

    @staticmethod
    def orthogonal_(tensor, gain=1, generator=None):
        """A (semi-)orthogonal matrix times gain (over dims 1.. flattened): Q of the QR decomposition of normals,
        signed so that R's diagonal is positive (the Q PyTorch gets, up to rounding)."""
        if tensor.ndim < 2:
            raise ValueError('Only tensors with 2 or more dimensions are supported')
        if tensor.numel() == 0:
            return tensor
        rows = tensor.shape[0]
        flat = tensor.new_empty((rows, tensor.numel() // rows)).normal_(0, 1, generator=generator)._data
        flat = flat.T if flat.shape[0] < flat.shape[1] else flat
        q, r = np.linalg.qr(flat)
        q *= np.sign(np.diag(r))
        q = q.T if rows < q.shape[0] else q
        _fill_(tensor, q.reshape(tensor.shape))
        with ag.no_grad():
            return tensor.mul_(gain)

    @staticmethod
    def sparse_(tensor, sparsity, std=0.01, generator=None):
        """Normal(0, std) values, with ceil(sparsity * rows) zeros at random rows in each column."""
        if tensor.ndim != 2:
            raise ValueError('Only tensors with 2 dimensions are supported')
        rows, cols = tensor.shape
        with ag.no_grad():
            tensor.normal_(0, std, generator=generator)
            for col in range(cols):
                tensor[randperm(rows)[:math.ceil(sparsity * rows)], col] = 0
        return tensor


def _make_deprecate(new):
    """The old name of an initialiser (normal for normal_), which warns and calls it."""
    old = new.__name__[:-1]

    def deprecated_init(*args, **kwargs):
        warnings.warn('`nn.init.%s` is now deprecated in favor of `nn.init.%s`.' % (old, new.__name__),
                      FutureWarning, stacklevel=2)
        return new(*args, **kwargs)
    deprecated_init.__name__ = old
    return deprecated_init


# torch.nn.init is a module in PyTorch: `import torch.nn.init as init` finds this one (through the import hook of
# engine/__init__.py when torch is the engine, as for torch.autograd.functional).
init = types.ModuleType(__name__ + '.init', _Init.__doc__)
for _name, _fn in vars(_Init).items():
    if isinstance(_fn, staticmethod):
        _fn.__func__.__qualname__ = _name          # (printed `<function xavier_uniform_ at 0x...>`, as PyTorch's)
        setattr(init, _name, _fn.__func__)
        if _name.endswith('_') and _name not in ('zeros_', 'ones_', 'trunc_normal_'):
            setattr(init, _name[:-1], _make_deprecate(_fn.__func__))
init._calculate_fan_in_and_fan_out, init._calculate_correct_fan = _fans, _fan    # (custom layers' reset_parameters)
sys.modules[init.__name__] = init


# ================================================================================================ layers

class Linear(Module):
    """y = x @ weight.T + bias, with weight (out_features, in_features) initialised as PyTorch does."""

    def __init__(self, in_features, out_features, bias=True, device=None, dtype=None):
        super().__init__()
        self.in_features, self.out_features = in_features, out_features
        _add_weight_and_bias(self, (out_features, in_features), bias, device, dtype)

    def reset_parameters(self):
        init.kaiming_uniform_(self.weight, a=math.sqrt(5))
        if self.bias is not None:
            bound = 1 / math.sqrt(self.in_features) if self.in_features > 0 else 0
            init.uniform_(self.bias, -bound, bound)

    def forward(self, input):
        return F.linear(input, self.weight, self.bias)

    def extra_repr(self):
        return 'in_features={}, out_features={}, bias={}'.format(self.in_features, self.out_features,
                                                                 self.bias is not None)


def _has_uninitialized_params(self):
    """LazyModuleMixin.has_uninitialized_params: whether a parameter or buffer is still uninitialized."""
    return any(isinstance(t, (UninitializedParameter, UninitializedBuffer))
               for t in list(self._parameters.values()) + list(self._buffers.values()))


class LazyLinear(Linear):
    """A Linear whose in_features is the last dim of its first input: until then its weight and bias are
    UninitializedParameters; the first forward shapes and initialises them (drawing as Linear does) and the module
    becomes a Linear."""
    has_uninitialized_params = _has_uninitialized_params

    def __init__(self, out_features, bias=True, device=None, dtype=None):
        Module.__init__(self)
        self.in_features, self.out_features = 0, out_features
        self.weight = UninitializedParameter(dtype=dtype)
        if bias:
            self.bias = UninitializedParameter(dtype=dtype)
        else:
            self.register_parameter('bias', None)

    def reset_parameters(self):
        if self.in_features != 0 and not isinstance(self.weight, UninitializedParameter):
            super().reset_parameters()

    def forward(self, input):
        if isinstance(self.weight, UninitializedParameter):
            with ag.no_grad():
                self.in_features = input.shape[-1]
                self.weight.materialize((self.out_features, self.in_features))
                if self.bias is not None:
                    self.bias.materialize((self.out_features,))
                self.reset_parameters()
            self.__class__ = Linear
        return Linear.forward(self, input)


class Bilinear(Module):
    """y = x1^T A x2 + b, with weight A (out_features, in1_features, in2_features); weight and bias drawn from
    U(-1 / sqrt(in1_features), 1 / sqrt(in1_features)) as PyTorch does."""

    def __init__(self, in1_features, in2_features, out_features, bias=True, device=None, dtype=None):
        super().__init__()
        self.in1_features, self.in2_features, self.out_features = in1_features, in2_features, out_features
        _add_weight_and_bias(self, (out_features, in1_features, in2_features), bias, device, dtype)

    def reset_parameters(self):
        if self.in1_features <= 0:
            raise ValueError('in1_features must be > 0, but got (in1_features=%s)' % self.in1_features)
        bound = 1 / math.sqrt(self.weight.size(1))
        init.uniform_(self.weight, -bound, bound)
        if self.bias is not None:
            init.uniform_(self.bias, -bound, bound)

    def forward(self, input1, input2):
        return F.bilinear(input1, input2, self.weight, self.bias)

    def extra_repr(self):
        return (f'in1_features={self.in1_features}, in2_features={self.in2_features}, '
                f'out_features={self.out_features}, bias={self.bias is not None}')


class Identity(Module):
    """Returns its input unchanged (a placeholder layer)."""

    def __init__(self, *args, **kwargs):
        super().__init__()

    def forward(self, input):
        return input


class Container(Module):
    """nn.Container, the Module of the first PyTorch releases: its submodules given by keyword. Deprecated (see
    _deprecated_class)."""

    def __init__(self, **kwargs):
        super().__init__()
        for key, value in kwargs.items():
            self.add_module(key, value)


class DataParallel(Module):
    """`model = nn.DataParallel(model)`, as multi-GPU code wraps its model: with no GPU (as PyTorch's CPU build) the
    wrapper only holds the module (`.module`, its state_dict keys prefixed 'module.') and calls it."""
    __module__ = 'torch.nn.parallel.data_parallel'

    def __init__(self, module, device_ids=None, output_device=None, dim=0):
        super().__init__()
        self.module = module
        self.device_ids = []

    def forward(self, *inputs, **kwargs):
        return self.module(*inputs, **kwargs)


class Flatten(Module):
    """Flattens dims start_dim..end_dim (by default all but the batch dim)."""

    def __init__(self, start_dim=1, end_dim=-1):
        super().__init__()
        self.start_dim, self.end_dim = start_dim, end_dim

    def forward(self, input):
        return input.flatten(self.start_dim, self.end_dim)

    def extra_repr(self):
        return f'start_dim={self.start_dim}, end_dim={self.end_dim}'


class _InplaceActivation(Module):
    """An activation module with an `inplace` flag: forward is `fn(input, inplace)`."""
    _forward_per_class = _init_per_class = True

    def __init__(self, inplace=False):
        super().__init__()
        self.inplace = inplace

    def forward(self, input):
        return type(self).fn(input, self.inplace)

    def extra_repr(self):
        return 'inplace=True' if self.inplace else ''


class ReLU(_InplaceActivation):
    """max(x, 0)."""
    fn = staticmethod(F.relu)


class _Elementwise(Module):
    """A module that is its functional form, `fn`, applied to the input (no parameters, nothing to show)."""
    _forward_per_class = True
    fn = None

    def forward(self, input):
        return self.fn(input)


class _NumberActivation(Module):
    """An activation of one number and `inplace` (LeakyReLU's negative_slope, ELU's and CELU's alpha): `_number`
    names the attribute holding it, `fn` is the functional form."""
    _number = fn = None
    _forward_per_class = True

    def forward(self, input):
        return self.fn(input, getattr(self, self._number), self.inplace)

    def extra_repr(self):
        return f'{self._number}={getattr(self, self._number)}' + (', inplace=True' if self.inplace else '')


class LeakyReLU(_NumberActivation):
    """x where x > 0, else negative_slope * x."""
    _number, fn = 'negative_slope', staticmethod(F.leaky_relu)

    def __init__(self, negative_slope=0.01, inplace=False):
        super().__init__()
        self.negative_slope, self.inplace = negative_slope, inplace


class RReLU(Module):
    """Randomized leaky ReLU: while training each x <= 0 times a slope drawn from U(lower, upper); in eval mode
    leaky_relu with their mean."""
    _forward_per_class = True

    def __init__(self, lower=1.0 / 8, upper=1.0 / 3, inplace=False):
        super().__init__()
        self.lower, self.upper, self.inplace = lower, upper, inplace

    def forward(self, input):
        return F.rrelu(input, self.lower, self.upper, self.training, self.inplace)

    def extra_repr(self):
        return f'lower={self.lower}, upper={self.upper}' + (', inplace=True' if self.inplace else '')


class ELU(_NumberActivation):
    """x where x > 0, else alpha * (exp(x) - 1)."""
    _number, fn = 'alpha', staticmethod(F.elu)

    def __init__(self, alpha=1.0, inplace=False):
        Module.__init__(self)                    # (CELU shares this __init__, not the class: as in PyTorch)
        self.alpha, self.inplace = alpha, inplace


class LogSigmoid(_Elementwise):
    """log(sigmoid(x))."""
    fn = staticmethod(F.logsigmoid)


class Softplus(Module):
    """log(1 + exp(beta * x)) / beta."""

    def __init__(self, beta=1.0, threshold=20.0):
        super().__init__()
        self.beta, self.threshold = beta, threshold

    def forward(self, input):
        return F.softplus(input, self.beta, self.threshold)

    def extra_repr(self):
        return f'beta={self.beta}, threshold={self.threshold}'


class SiLU(_InplaceActivation):
    """x * sigmoid(x)."""
    fn = staticmethod(F.silu)


class Hardtanh(Module):
    """x clipped to [min_val, max_val]."""

    def __init__(self, min_val=-1.0, max_val=1.0, inplace=False, min_value=None, max_value=None):
        super().__init__()
        for old, new, value in (('min_value', 'min_val', min_value), ('max_value', 'max_val', max_value)):
            if value is not None:
                warnings.warn('keyword argument `%s` is deprecated and renamed to `%s`' % (old, new), FutureWarning,
                              stacklevel=2)
        min_val = min_val if min_value is None else min_value
        max_val = max_val if max_value is None else max_value
        self.min_val, self.max_val, self.inplace = min_val, max_val, inplace
        if self.max_val <= self.min_val:
            raise AssertionError(f'max_val ({self.max_val}) must be greater than min_val ({self.min_val})')

    def forward(self, input):
        return F.hardtanh(input, self.min_val, self.max_val, self.inplace)

    def extra_repr(self):
        return f'min_val={self.min_val}, max_val={self.max_val}' + (', inplace=True' if self.inplace else '')


class ReLU6(Hardtanh):
    """min(max(x, 0), 6)."""

    def __init__(self, inplace=False):
        super().__init__(0.0, 6.0, inplace)

    def extra_repr(self):
        return 'inplace=True' if self.inplace else ''


class GELU(Module):
    """x * Phi(x) (exact, or its tanh approximation)."""

    def __init__(self, approximate='none'):
        super().__init__()
        self.approximate = approximate

    def forward(self, input):
        return F.gelu(input, approximate=self.approximate)

    def extra_repr(self):
        return 'approximate=%r' % self.approximate


def _torch_function(name):
    """torch.<name> (as PyTorch's module calls it: its parser's errors), looked up when called (the package makes
    its functions after this module)."""
    package = __name__.rpartition('.')[0]
    return staticmethod(lambda input: getattr(sys.modules[package], name)(input))


class Sigmoid(_Elementwise):
    """1 / (1 + exp(-x))."""
    fn = _torch_function('sigmoid')


class Tanh(_Elementwise):
    """The hyperbolic tangent."""
    fn = _torch_function('tanh')


class Softmax(Module):
    """softmax along dim (PyTorch's deprecated guess, with a warning, when dim is None)."""

    def __init__(self, dim=None):
        super().__init__()
        self.dim = dim

    def forward(self, input):
        return F.softmax(input, self.dim, _stacklevel=5)

    def extra_repr(self):
        return f'dim={self.dim}'


class Softmax2d(Module):
    """softmax over the channels (dim -3) of each location of a (C, H, W) or (N, C, H, W) input."""

    def forward(self, input):
        if input.dim() not in (3, 4):
            raise ValueError('Softmax2d: expected input to be 3D or 4D, got %dD instead' % input.dim())
        return F.softmax(input, -3, _stacklevel=5)


class LogSoftmax(Module):
    """log_softmax along dim."""
    extra_repr = Softmax.extra_repr

    def __init__(self, dim=None):
        super().__init__()
        self.dim = dim

    def forward(self, input):
        return F.log_softmax(input, self.dim, _stacklevel=5)


class Mish(_InplaceActivation):
    """x * tanh(softplus(x))."""
    fn = staticmethod(F.mish)


class Hardswish(_InplaceActivation):
    """x * relu6(x + 3) / 6."""
    fn = staticmethod(F.hardswish)

    def extra_repr(self):                # (PyTorch's prints no inplace flag)
        return ''


class Hardsigmoid(_InplaceActivation):
    """relu6(x + 3) / 6."""
    fn = staticmethod(F.hardsigmoid)
    extra_repr = Hardswish.extra_repr


class SELU(_InplaceActivation):
    """scale * elu(x, alpha), with SELU's constants."""
    fn = staticmethod(F.selu)


class CELU(_NumberActivation):
    """max(0, x) + min(0, alpha * (exp(x / alpha) - 1))."""
    _number, fn = 'alpha', staticmethod(F.celu)
    __init__ = ELU.__init__


class Threshold(Module):
    """x where x > threshold, else value."""

    def __init__(self, threshold, value, inplace=False):
        super().__init__()
        self.threshold, self.value, self.inplace = threshold, value, inplace

    def forward(self, input):
        return F.threshold(input, self.threshold, self.value, self.inplace)

    def extra_repr(self):
        return f'threshold={self.threshold}, value={self.value}' + (', inplace=True' if self.inplace else '')


class Softshrink(Module):
    """x - lambd above lambd, x + lambd below -lambd, else 0."""

    def __init__(self, lambd=0.5):
        super().__init__()
        self.lambd = lambd

    def forward(self, input):
        return F.softshrink(input, self.lambd)

    def extra_repr(self):
        return str(self.lambd)


class Hardshrink(Module):
    """x, or 0 where |x| <= lambd."""

    def extra_repr(self):            # (PyTorch's formats lambd, where Softshrink's takes str(): for a tensor, its repr)
        return f'{self.lambd}'

    def __init__(self, lambd=0.5):
        super().__init__()
        self.lambd = lambd

    def forward(self, input):
        return F.hardshrink(input, self.lambd)


class Tanhshrink(_Elementwise):
    """x - tanh(x)."""
    fn = staticmethod(F.tanhshrink)


class Softsign(_Elementwise):
    """x / (1 + |x|)."""
    fn = staticmethod(F.softsign)


class Softmin(Module):
    """softmax(-x) along dim."""
    extra_repr = Softmax.extra_repr

    def __init__(self, dim=None):
        super().__init__()
        self.dim = dim

    def forward(self, input):
        return F.softmin(input, self.dim, _stacklevel=5)


class GLU(Module):
    """a * sigmoid(b), with a and b the halves of the input along dim."""

    def __init__(self, dim=-1):
        super().__init__()
        self.dim = dim

    def forward(self, input):
        return F.glu(input, self.dim)

    def extra_repr(self):
        return f'dim={self.dim}'


class PReLU(Module):
    """x where x > 0, else weight * x, with a learnt weight (one number, or one per channel) starting at `init`."""

    def __init__(self, num_parameters=1, init=0.25, device=None, dtype=None):
        self.num_parameters, self.init = num_parameters, init
        super().__init__()
        self.weight = Parameter(empty(num_parameters, device=device, dtype=dtype))
        self.reset_parameters()

    def reset_parameters(self):
        init.constant_(self.weight, self.init)

    def forward(self, input):
        return F.prelu(input, self.weight)

    def extra_repr(self):
        return f'num_parameters={self.num_parameters}'


class CosineSimilarity(Module):
    """The cosine of the angle between x1 and x2 along dim."""

    def __init__(self, dim=1, eps=1e-8):
        super().__init__()
        self.dim, self.eps = dim, eps

    def forward(self, x1, x2):
        return F.cosine_similarity(x1, x2, self.dim, self.eps)


class PairwiseDistance(Module):
    """The p-norm of x1 - x2 + eps along the last dim."""

    def __init__(self, p=2.0, eps=1e-6, keepdim=False):
        super().__init__()
        self.norm, self.eps, self.keepdim = p, eps, keepdim

    def forward(self, x1, x2):
        return F.pairwise_distance(x1, x2, self.norm, self.eps, self.keepdim)


class _DropoutNd(Module):
    """What the dropout modules share (PyTorch's _DropoutNd): p, checked, and inplace."""

    def __init__(self, p=0.5, inplace=False):
        super().__init__()
        if p < 0 or p > 1:
            raise ValueError(f'dropout probability has to be between 0 and 1, but got {p}')
        self.p, self.inplace = p, inplace

    def extra_repr(self):
        return f'p={self.p}, inplace={self.inplace}'


class Dropout(_DropoutNd):
    """Zeroes elements with probability p while training (scaling the rest by 1 / (1 - p)); identity in eval()."""

    def forward(self, input):
        return F.dropout(input, self.p, self.training, self.inplace)


class Dropout2d(_DropoutNd):
    """Zeroes whole channels (dim 1 of (N, C, H, W)) with probability p while training; identity in eval()."""

    def forward(self, input):
        return F.dropout2d(input, self.p, self.training, self.inplace)


class Dropout1d(_DropoutNd):
    """Zeroes whole channels (dim 1 of (N, C, L), dim 0 of (C, L)) with probability p while training."""

    def forward(self, input):
        return F.dropout1d(input, self.p, self.training, self.inplace)


class AlphaDropout(_DropoutNd):
    """Dropout that keeps SELU activations' mean and variance (F.alpha_dropout) while training."""

    def forward(self, input):
        return F.alpha_dropout(input, self.p, self.training)


class FeatureAlphaDropout(_DropoutNd):
    """Alpha dropout of whole channels (dim 1) while training (F.feature_alpha_dropout)."""

    def forward(self, input):
        return F.feature_alpha_dropout(input, self.p, self.training)


class Dropout3d(_DropoutNd):
    """Zeroes whole channels (dim 1 of (N, C, D, H, W)) with probability p while training; identity in eval()."""

    def forward(self, input):
        return F.dropout3d(input, self.p, self.training, self.inplace)


# ================================================================================================ convolution, pooling

def _ntuple(value, n):
    """PyTorch's _single / _pair: an iterable as a tuple, anything else repeated n times (a 0-d tensor is iterable:
    its TypeError)."""
    return tuple(value) if isinstance(value, Iterable) else (value,) * n


class _ConvNd(Module):
    """What Conv1d and Conv2d share: their arguments' checks, parameters, initialisation and repr."""
    _forward_per_class = _init_per_class = True
    _nd = 2

    def __init__(self, in_channels, out_channels, kernel_size, stride=1, padding=0, dilation=1, groups=1, bias=True,
                 padding_mode='zeros', device=None, dtype=None):
        super().__init__()
        n = self._nd
        kernel_size, stride, dilation = _ntuple(kernel_size, n), _ntuple(stride, n), _ntuple(dilation, n)
        if groups <= 0:
            raise ValueError('groups must be a positive integer')
        if in_channels % groups != 0:
            raise ValueError('in_channels must be divisible by groups')
        if out_channels % groups != 0:
            raise ValueError('out_channels must be divisible by groups')
        valid_padding_strings = {'same', 'valid'}
        if isinstance(padding, str):
            if padding not in valid_padding_strings:
                raise ValueError('Invalid padding string %r, should be one of %s' % (padding, valid_padding_strings))
            if padding == 'same' and any(s != 1 for s in stride):
                raise ValueError("padding='same' is not supported for strided convolutions")
        else:
            padding = _ntuple(padding, n)
        valid_padding_modes = {'zeros', 'reflect', 'replicate', 'circular'}
        if padding_mode not in valid_padding_modes:
            raise ValueError("padding_mode must be one of %s, but got padding_mode='%s'"
                             % (valid_padding_modes, padding_mode))
        self.in_channels, self.out_channels, self.kernel_size = in_channels, out_channels, kernel_size
        self.stride, self.padding, self.dilation, self.groups = stride, padding, dilation, groups
        self.transposed, self.output_padding, self.padding_mode = False, (0,) * n, padding_mode
        _add_weight_and_bias(self, (out_channels, in_channels // groups) + kernel_size, bias, device, dtype)

    def reset_parameters(self):
        init.kaiming_uniform_(self.weight, a=math.sqrt(5))
        if self.bias is not None:
            fan_in = _fans(self.weight)[0]
            if fan_in != 0:
                bound = 1 / math.sqrt(fan_in)
                init.uniform_(self.bias, -bound, bound)

    def forward(self, input):
        if self.padding_mode != 'zeros':        # (as PyTorch: F.pad in that mode, then no padding in the conv)
            return type(self)._fn(F.pad(input, self._padding_twice(), mode=self.padding_mode), self.weight,
                                  self.bias, self.stride, 0, self.dilation, self.groups)
        return type(self)._fn(input, self.weight, self.bias, self.stride, self.padding, self.dilation, self.groups)

    def _padding_twice(self):
        """PyTorch's _reversed_padding_repeated_twice, F.pad's argument: (left, right) of each dim, last dim first;
        'same' pads d * (k - 1) in all, the odd one on the right."""
        if self.padding == 'valid':
            pads = [(0, 0)] * len(self.kernel_size)
        elif self.padding == 'same':
            pads = [(d * (k - 1) // 2, d * (k - 1) - d * (k - 1) // 2) for d, k in zip(self.dilation, self.kernel_size)]
        else:
            pads = [(p, p) for p in self.padding]
        return [x for pair in reversed(pads) for x in pair]

    def extra_repr(self):
        # (PyTorch's extra_reprs format() their numbers: a 0-d tensor given for one shows as its value)
        s = f'{self.in_channels}, {self.out_channels}, kernel_size={self.kernel_size}, stride={self.stride}'
        if self.padding != (0,) * len(self.padding):
            s += f', padding={self.padding}'
        if self.dilation != (1,) * len(self.dilation):
            s += f', dilation={self.dilation}'
        if self.output_padding != (0,) * len(self.output_padding):
            s += f', output_padding={self.output_padding}'
        if self.groups != 1:
            s += f', groups={self.groups}'
        if self.bias is None:
            s += ', bias=False'
        if self.padding_mode != 'zeros':
            s += ', padding_mode=%s' % self.padding_mode
        return s


class Conv1d(_ConvNd):
    """1-d convolution over (N, C, L) inputs."""
    _nd = 1
    _fn = staticmethod(F.conv1d)


class Conv2d(_ConvNd):
    """2-d convolution over (N, C, H, W) inputs."""
    _fn = staticmethod(F.conv2d)


class Conv3d(_ConvNd):
    """3-d convolution over (N, C, D, H, W) inputs."""
    _nd = 3
    _fn = staticmethod(F.conv3d)


class _LazyConvNd:
    """A convolution whose in_channels is its first input's channel count (dim 1, or 0 unbatched): until then its
    weight and bias are UninitializedParameters; the first forward shapes and initialises them (drawing as the
    convolution does) and the module becomes that convolution."""
    has_uninitialized_params = _has_uninitialized_params

    def __init__(self, out_channels, kernel_size, stride=1, padding=0, dilation=1, groups=1, bias=True,
                 padding_mode='zeros', device=None, dtype=None):
        super().__init__(0, 0, kernel_size, stride, padding, dilation, groups, False, padding_mode, device, dtype)
        self.weight, self.out_channels = UninitializedParameter(dtype=dtype), out_channels
        if bias:
            self.bias = UninitializedParameter(dtype=dtype)

    def reset_parameters(self):
        if self.in_channels != 0 and not isinstance(self.weight, UninitializedParameter):
            super().reset_parameters()

    @classmethod
    def _becomes(cls):
        """The convolution it becomes (PyTorch's cls_to_become): the first base that is not lazy."""
        return next(c for c in cls.__mro__ if not issubclass(c, _LazyConvNd))

    def forward(self, input, *args, **kwargs):
        becomes = self._becomes()
        if isinstance(self.weight, UninitializedParameter):
            with ag.no_grad():
                if input.dim() not in (self._nd + 1, self._nd + 2):
                    raise RuntimeError('Expected %dD (unbatched) or %dD (batched) input to %s, but got input of size: '
                                       '%s' % (self._nd + 1, self._nd + 2, type(self).__name__, input.shape))
                self.in_channels = input.shape[1 if input.dim() == self._nd + 2 else 0]
                if self.in_channels % self.groups != 0:
                    raise ValueError('in_channels must be divisible by groups')
                channels = (self.in_channels, self.out_channels // self.groups) if self.transposed else \
                    (self.out_channels, self.in_channels // self.groups)
                self.weight.materialize(channels + self.kernel_size)
                if self.bias is not None:
                    self.bias.materialize((self.out_channels,))
                self.reset_parameters()
            self.__class__ = becomes
        return becomes.forward(self, input, *args, **kwargs)


class LazyConv1d(_LazyConvNd, Conv1d):
    """Conv1d with in_channels taken from the first input."""


class LazyConv2d(_LazyConvNd, Conv2d):
    """Conv2d with in_channels taken from the first input."""


class LazyConv3d(_LazyConvNd, Conv3d):
    """Conv3d with in_channels taken from the first input."""


class _MaxPoolNd(Module):
    _forward_per_class = True
    def __init__(self, kernel_size, stride=None, padding=0, dilation=1, return_indices=False, ceil_mode=False):
        super().__init__()
        self.kernel_size = kernel_size
        self.stride = stride if stride is not None else kernel_size
        self.padding, self.dilation = padding, dilation
        self.return_indices, self.ceil_mode = return_indices, ceil_mode

    def forward(self, input):
        return type(self)._fn(input, self.kernel_size, self.stride, self.padding, self.dilation,
                              ceil_mode=self.ceil_mode, return_indices=self.return_indices)

    def extra_repr(self):
        return (f'kernel_size={self.kernel_size}, stride={self.stride}, padding={self.padding}, '
                f'dilation={self.dilation}, ceil_mode={self.ceil_mode}')


class MaxPool1d(_MaxPoolNd):
    """The largest element of each window along the last dim."""
    _fn = staticmethod(F.max_pool1d)


class MaxPool2d(_MaxPoolNd):
    """The largest element of each 2-d window."""
    _fn = staticmethod(F.max_pool2d)


class MaxPool3d(_MaxPoolNd):
    """The largest element of each 3-d window."""
    _fn = staticmethod(F.max_pool3d)


class AvgPool1d(Module):
    """The mean of each window along the last dim."""

    def __init__(self, kernel_size, stride=None, padding=0, ceil_mode=False, count_include_pad=True):
        super().__init__()
        self.kernel_size = _ntuple(kernel_size, 1)
        self.stride = _ntuple(stride if stride is not None else kernel_size, 1)
        self.padding = _ntuple(padding, 1)
        self.ceil_mode, self.count_include_pad = ceil_mode, count_include_pad

    def forward(self, input):
        return F.avg_pool1d(input, self.kernel_size, self.stride, self.padding, self.ceil_mode,
                            self.count_include_pad)

    def extra_repr(self):
        return f'kernel_size={self.kernel_size}, stride={self.stride}, padding={self.padding}'


class _AvgPoolNd(Module):
    _forward_per_class = _init_per_class = True

    def __init__(self, kernel_size, stride=None, padding=0, ceil_mode=False, count_include_pad=True,
                 divisor_override=None):
        super().__init__()
        self.kernel_size = kernel_size
        self.stride = stride if stride is not None else kernel_size
        self.padding, self.ceil_mode = padding, ceil_mode
        self.count_include_pad, self.divisor_override = count_include_pad, divisor_override

    def forward(self, input):
        return type(self)._fn(input, self.kernel_size, self.stride, self.padding, self.ceil_mode,
                              self.count_include_pad, self.divisor_override)

    def extra_repr(self):
        return f'kernel_size={self.kernel_size}, stride={self.stride}, padding={self.padding}'


class AvgPool2d(_AvgPoolNd):
    """The mean of each 2-d window."""
    _fn = staticmethod(F.avg_pool2d)


class AvgPool3d(_AvgPoolNd):
    """The mean of each 3-d window."""
    _fn = staticmethod(F.avg_pool3d)


class _MaxUnpoolNd(Module):
    """What MaxUnpool1d/2d/3d share: kernel_size, stride (kernel_size by default) and padding as n-tuples."""
    _forward_per_class = _init_per_class = True

    def __init__(self, kernel_size, stride=None, padding=0):
        super().__init__()
        n = type(self)._nd
        self.kernel_size = _ntuple(kernel_size, n)
        self.stride = _ntuple(stride if (stride is not None) else kernel_size, n)
        self.padding = _ntuple(padding, n)

    def forward(self, input, indices, output_size=None):
        return type(self)._fn(input, indices, self.kernel_size, self.stride, self.padding, output_size)

    def extra_repr(self):
        return f'kernel_size={self.kernel_size}, stride={self.stride}, padding={self.padding}'


class MaxUnpool1d(_MaxUnpoolNd):
    """MaxPool1d's partial inverse: the maxima put back at their indices, zeros elsewhere."""
    _nd, _fn = 1, staticmethod(F.max_unpool1d)


class MaxUnpool2d(_MaxUnpoolNd):
    """MaxPool2d's partial inverse: the maxima put back at their indices, zeros elsewhere."""
    _nd, _fn = 2, staticmethod(F.max_unpool2d)


class MaxUnpool3d(_MaxUnpoolNd):
    """MaxPool3d's partial inverse: the maxima put back at their indices, zeros elsewhere."""
    _nd, _fn = 3, staticmethod(F.max_unpool3d)


class _LPPoolNd(Module):
    """What LPPool1d/2d/3d share: the power p (norm_type), kernel_size, stride and ceil_mode, kept as given."""
    _forward_per_class = _init_per_class = True

    def __init__(self, norm_type, kernel_size, stride=None, ceil_mode=False):
        super().__init__()
        self.norm_type, self.kernel_size, self.stride, self.ceil_mode = norm_type, kernel_size, stride, ceil_mode

    def forward(self, input):
        return type(self)._fn(input, float(self.norm_type), self.kernel_size, self.stride, self.ceil_mode)

    def extra_repr(self):
        return 'norm_type={norm_type}, kernel_size={kernel_size}, stride={stride}, ceil_mode={ceil_mode}'.format(
            **self.__dict__)


class LPPool1d(_LPPoolNd):
    """The p-norm of each window along the last dim."""
    _fn = staticmethod(F.lp_pool1d)


class LPPool2d(_LPPoolNd):
    """The p-norm of each 2-d window."""
    _fn = staticmethod(F.lp_pool2d)


class LPPool3d(_LPPoolNd):
    """The p-norm of each 3-d window."""
    _fn = staticmethod(F.lp_pool3d)


class _FractionalMaxPoolNd(Module):
    """What FractionalMaxPool2d/3d share: kernel_size, output_size or output_ratio (checked), return_indices and a
    buffer of the random samples (None: drawn at each call)."""
    _forward_per_class = _init_per_class = True

    def __init__(self, kernel_size, output_size=None, output_ratio=None, return_indices=False, _random_samples=None):
        super().__init__()
        n = type(self)._nd
        if n == 3 and ((isinstance(kernel_size, int) and kernel_size <= 0) or (
                isinstance(kernel_size, (tuple, list)) and not all(k > 0 for k in kernel_size))):
            raise ValueError(f'kernel_size must be greater than 0, but got {kernel_size}')
        self.kernel_size = _ntuple(kernel_size, n)
        self.return_indices = return_indices
        self.register_buffer('_random_samples', _random_samples)
        self.output_size = _ntuple(output_size, n) if output_size is not None else None
        self.output_ratio = _ntuple(output_ratio, n) if output_ratio is not None else None
        if output_size is None and output_ratio is None:
            raise ValueError(f'{type(self).__name__} requires specifying either an output size, or a pooling ratio')
        if output_size is not None and output_ratio is not None:
            raise ValueError('only one of output_size and output_ratio may be specified')
        if self.output_ratio is not None:
            if not all(0 < r < 1 for r in self.output_ratio[:n]):
                raise ValueError(f'output_ratio must be between 0 and 1 (got {output_ratio})')

    def forward(self, input):
        return type(self)._fn(input, self.kernel_size, self.output_size, self.output_ratio, self.return_indices,
                              _random_samples=self._random_samples)


class FractionalMaxPool2d(_FractionalMaxPoolNd):
    """Max pooling over pseudo-random overlapping windows (Graham's fractional max-pooling)."""
    _nd, _fn = 2, staticmethod(F.fractional_max_pool2d)


class FractionalMaxPool3d(_FractionalMaxPoolNd):
    """Max pooling over pseudo-random overlapping 3-d windows."""
    _nd, _fn = 3, staticmethod(F.fractional_max_pool3d)


class ChannelShuffle(Module):
    """Channels (dim 1) split into `groups` groups and interleaved (ShuffleNet)."""

    def __init__(self, groups):
        super().__init__()
        self.groups = groups

    def forward(self, input):
        return F.channel_shuffle(input, self.groups)

    def extra_repr(self):
        return f'groups={self.groups}'


class Embedding(Module):
    """A lookup table of num_embeddings vectors of embedding_dim numbers (drawn from N(0, 1); the padding row
    zero, and it gets no gradient)."""

    def __init__(self, num_embeddings, embedding_dim, padding_idx=None, max_norm=None, norm_type=2.0,
                 scale_grad_by_freq=False, sparse=False, _weight=None, _freeze=False, device=None, dtype=None):
        super().__init__()
        self.num_embeddings, self.embedding_dim = num_embeddings, embedding_dim
        if padding_idx is not None:
            if padding_idx > 0:
                assert padding_idx < num_embeddings, 'Padding_idx must be within num_embeddings'
            elif padding_idx < 0:
                assert padding_idx >= -num_embeddings, 'Padding_idx must be within num_embeddings'
                padding_idx += num_embeddings
        self.padding_idx, self.max_norm, self.norm_type = padding_idx, max_norm, norm_type
        self.scale_grad_by_freq, self.sparse = scale_grad_by_freq, sparse
        if _weight is None:
            self.weight = Parameter(empty((num_embeddings, embedding_dim), device=device, dtype=dtype),
                                    requires_grad=not _freeze)
            self.reset_parameters()
        else:
            assert list(_weight.shape) == [num_embeddings, embedding_dim], \
                'Shape of weight does not match num_embeddings and embedding_dim'
            self.weight = Parameter(_weight, requires_grad=not _freeze)

    def reset_parameters(self):
        init.normal_(self.weight)
        if self.padding_idx is not None:
            with ag.no_grad():
                self.weight[self.padding_idx].fill_(0)

    def forward(self, input):
        return F.embedding(input, self.weight, self.padding_idx, self.max_norm, self.norm_type,
                           self.scale_grad_by_freq, self.sparse)

    def extra_repr(self):
        s = f'{self.num_embeddings}, {self.embedding_dim}'
        if self.padding_idx is not None:
            s += f', padding_idx={self.padding_idx}'
        if self.max_norm is not None:
            s += f', max_norm={self.max_norm}'
        if self.norm_type != 2:
            s += f', norm_type={self.norm_type}'
        if self.scale_grad_by_freq:
            s += ', scale_grad_by_freq=True'
        if self.sparse:
            s += ', sparse=True'
        return s

    @classmethod
    def from_pretrained(cls, embeddings, freeze=True, padding_idx=None, max_norm=None, norm_type=2.0,
                        scale_grad_by_freq=False, sparse=False):
        assert embeddings.dim() == 2, 'Embeddings parameter is expected to be 2-dimensional'
        rows, cols = embeddings.shape
        return cls(rows, cols, padding_idx, max_norm, norm_type, scale_grad_by_freq, sparse, _weight=embeddings,
                   _freeze=freeze)


class EmbeddingBag(Module):
    """Sums, means (the default) or maxima of bags of rows of a lookup table (drawn from N(0, 1)), without building
    the rows themselves: PyTorch's text classification tutorial's first layer."""

    def __init__(self, num_embeddings, embedding_dim, max_norm=None, norm_type=2.0, scale_grad_by_freq=False,
                 mode='mean', sparse=False, _weight=None, include_last_offset=False, padding_idx=None, device=None,
                 dtype=None):
        super().__init__()
        self.num_embeddings, self.embedding_dim = num_embeddings, embedding_dim
        self.max_norm, self.norm_type, self.scale_grad_by_freq = max_norm, norm_type, scale_grad_by_freq
        if padding_idx is not None:
            if padding_idx > 0:
                if padding_idx >= num_embeddings:
                    raise AssertionError('padding_idx must be within num_embeddings')
            elif padding_idx < 0:
                if padding_idx < -num_embeddings:
                    raise AssertionError('padding_idx must be within num_embeddings')
                padding_idx += num_embeddings
        self.padding_idx = padding_idx
        if _weight is None:
            self.weight = Parameter(empty((num_embeddings, embedding_dim), device=device, dtype=dtype))
            self.reset_parameters()
        else:
            if list(_weight.shape) != [num_embeddings, embedding_dim]:
                raise AssertionError('Shape of weight does not match num_embeddings and embedding_dim')
            self.weight = Parameter(_weight)
        self.mode, self.sparse, self.include_last_offset = mode, sparse, include_last_offset

    def reset_parameters(self):
        init.normal_(self.weight)
        if self.padding_idx is not None:
            with ag.no_grad():
                self.weight[self.padding_idx].fill_(0)

    def forward(self, input, offsets=None, per_sample_weights=None):
        return F.embedding_bag(input, self.weight, offsets, self.max_norm, self.norm_type, self.scale_grad_by_freq,
                               self.mode, self.sparse, per_sample_weights, self.include_last_offset, self.padding_idx)

    def extra_repr(self):
        s = '{num_embeddings}, {embedding_dim}'
        if self.max_norm is not None:
            s += ', max_norm={max_norm}'
        if self.norm_type != 2:
            s += ', norm_type={norm_type}'
        if self.scale_grad_by_freq is not False:
            s += ', scale_grad_by_freq={scale_grad_by_freq}'
        s += ', mode={mode}'
        if self.padding_idx is not None:
            s += ', padding_idx={padding_idx}'
        return s.format(**{k: repr(v) for k, v in self.__dict__.items()})

    @classmethod
    def from_pretrained(cls, embeddings, freeze=True, max_norm=None, norm_type=2.0, scale_grad_by_freq=False,
                        mode='mean', sparse=False, include_last_offset=False, padding_idx=None):
        if embeddings.dim() != 2:
            raise AssertionError('Embeddings parameter is expected to be 2-dimensional')
        rows, cols = embeddings.shape
        bag = cls(num_embeddings=rows, embedding_dim=cols, _weight=embeddings, max_norm=max_norm,
                  norm_type=norm_type, scale_grad_by_freq=scale_grad_by_freq, mode=mode, sparse=sparse,
                  include_last_offset=include_last_offset, padding_idx=padding_idx)
        bag.weight.requires_grad = not freeze
        return bag


class Unflatten(Module):
    """Dim `dim` split into `unflattened_size` (Flatten's inverse)."""

    def __init__(self, dim, unflattened_size):
        super().__init__()
        if not isinstance(unflattened_size, (tuple, list)):        # (PyTorch's checks: Python ints only)
            raise TypeError('unflattened_size must be a tuple of ints, but found type %s'
                            % type(unflattened_size).__name__)
        for idx, elem in enumerate(unflattened_size):
            if not isinstance(elem, int):
                raise TypeError('unflattened_size must be tuple of ints, but found element of type %s at pos %d'
                                % (type(elem).__name__, idx))
        self.dim, self.unflattened_size = dim, unflattened_size

    def forward(self, input):
        return input.unflatten(self.dim, self.unflattened_size)

    def extra_repr(self):
        return f'dim={self.dim}, unflattened_size={self.unflattened_size}'


class _ConstantPadNd(Module):
    """ConstantPad1d / 2d and ZeroPad2d: F.pad with a fixed padding and value."""
    _n = 1

    def __init__(self, padding, value=0.0):
        super().__init__()
        self.padding = _ntuple(padding, 2 * self._n)
        self.value = value

    def forward(self, input):
        return F.pad(input, self.padding, 'constant', self.value)

    def extra_repr(self):
        return f'padding={self.padding}, value={self.value}'


class ConstantPad1d(_ConstantPadNd):
    _n = 1


class ConstantPad2d(_ConstantPadNd):
    _n = 2


class ZeroPad2d(ConstantPad2d):
    def __init__(self, padding):
        super().__init__(padding, 0.0)

    def extra_repr(self):
        return '%s' % (self.padding,)


class _AdaptiveAvgPoolNd(Module):
    def __init__(self, output_size):
        super().__init__()
        self.output_size = output_size

    def extra_repr(self):
        return f'output_size={self.output_size}'


class AdaptiveAvgPool2d(_AdaptiveAvgPoolNd):
    """The mean of each of output_size windows tiling the input (d2l's NiN / ResNet end with (1, 1))."""

    def forward(self, input):
        return F.adaptive_avg_pool2d(input, self.output_size)


class AdaptiveAvgPool3d(_AdaptiveAvgPoolNd):
    """The mean of each of output_size windows tiling the last three dims."""

    def forward(self, input):
        return F.adaptive_avg_pool3d(input, self.output_size)


# ================================================================================================ recurrent

class RNNBase(Module):
    """What nn.RNN, nn.LSTM and nn.GRU share: per layer and direction, weight_ih_l{k}, weight_hh_l{k}, bias_ih_l{k},
    bias_hh_l{k} (`_reverse` suffix for the backward direction), all drawn from U(-1/sqrt(hidden), 1/sqrt(hidden)) in
    that order. The computation is in engine/_ops_rnn.py."""
    _forward_per_class = True

    def __init__(self, mode, input_size, hidden_size, num_layers=1, bias=True, batch_first=False, dropout=0.0,
                 bidirectional=False, proj_size=0, device=None, dtype=None):
        super().__init__()
        self.mode, self.input_size, self.hidden_size, self.num_layers = mode, input_size, hidden_size, num_layers
        self.bias, self.batch_first, self.dropout = bias, batch_first, float(dropout)
        self.bidirectional, self.proj_size = bidirectional, proj_size
        if not isinstance(dropout, (int, float)) or not 0 <= dropout <= 1 or isinstance(dropout, bool):
            raise ValueError('dropout should be a number in range [0, 1] representing the probability of an element '
                             'being zeroed')
        if dropout > 0 and num_layers == 1:
            warnings.warn('dropout option adds dropout after all but last recurrent layer, so non-zero dropout '
                          'expects num_layers greater than 1, but got dropout=%s and num_layers=%s'
                          % (dropout, num_layers), stacklevel=3)
        for name, value in (('bias', bias), ('batch_first', batch_first)):
            if not isinstance(value, bool):
                raise TypeError('%s should be of type bool, got: %s' % (name, type(value).__name__))
        for name, value in (('input_size', input_size), ('hidden_size', hidden_size)):
            if not isinstance(value, int):
                raise TypeError('%s should be of type int, got: %s' % (name, type(value).__name__))
            if value <= 0:
                raise ValueError('%s must be greater than zero' % name)
        if num_layers <= 0:
            raise ValueError('num_layers must be greater than zero')
        if proj_size < 0:
            raise ValueError('proj_size should be a positive integer or zero to disable projections')
        if proj_size >= hidden_size:
            raise ValueError('proj_size has to be smaller than hidden_size')
        if proj_size != 0:
            raise NotImplementedError('proj_size is not supported by this engine')
        gate_size = {'LSTM': 4, 'GRU': 3}.get(mode, 1) * hidden_size
        dirs = 2 if bidirectional else 1
        self._flat_weights_names, self._all_weights = [], []
        for layer in range(num_layers):
            for direction in range(dirs):
                layer_input_size = input_size if layer == 0 else hidden_size * dirs
                shapes = [(gate_size, layer_input_size), (gate_size, hidden_size)]
                names = ['weight_ih_l%d', 'weight_hh_l%d']
                if bias:
                    shapes += [(gate_size,), (gate_size,)]
                    names += ['bias_ih_l%d', 'bias_hh_l%d']
                names = [n % layer + ('_reverse' if direction == 1 else '') for n in names]
                for name, shape in zip(names, shapes):
                    setattr(self, name, Parameter(empty(shape, device=device, dtype=dtype)))
                self._flat_weights_names.extend(names)
                self._all_weights.append(names)
        self.reset_parameters()

    @property
    def _flat_weights(self):
        return [getattr(self, n) for n in self._flat_weights_names]

    @property
    def all_weights(self):
        return [[getattr(self, n) for n in names] for names in self._all_weights]

    def flatten_parameters(self):
        pass                                            # (only does something for cuDNN)

    def reset_parameters(self):
        stdv = 1.0 / math.sqrt(self.hidden_size) if self.hidden_size > 0 else 0
        for weight in self.parameters():
            init.uniform_(weight, -stdv, stdv)

    def extra_repr(self):
        s = '{input_size}, {hidden_size}'
        if self.num_layers != 1:
            s += ', num_layers={num_layers}'
        if self.bias is not True:
            s += ', bias={bias}'
        if self.batch_first is not False:
            s += ', batch_first={batch_first}'
        if self.dropout != 0:
            s += ', dropout={dropout}'
        if self.bidirectional is not False:
            s += ', bidirectional={bidirectional}'
        return s.format(**self.__dict__)

    def _expected_hidden_size(self, input, batch_sizes=None):
        if batch_sizes is not None:
            batch = int(batch_sizes[0])
        else:
            batch = input.size(0) if self.batch_first else input.size(1)
        return (self.num_layers * (2 if self.bidirectional else 1), batch, self.hidden_size)

    def _check_input(self, input, batch_sizes=None):
        weight = self._flat_weights[0]
        if input.dtype != weight.dtype:
            raise ValueError('RNN input dtype (%s) does not match weight dtype (%s). Convert input: input.to(%s), '
                             'or convert model: model.to(%s)' % (input.dtype, weight.dtype, weight.dtype, input.dtype))
        expected = 2 if batch_sizes is not None else 3
        if input.dim() != expected:
            raise RuntimeError('input must have %d dimensions, got %d' % (expected, input.dim()))
        if self.input_size != input.size(-1):
            raise RuntimeError('input.size(-1) must be equal to input_size. Expected %d, got %d'
                               % (self.input_size, input.size(-1)))

    @staticmethod
    def _check_hidden(hx, expected, msg='Expected hidden size {}, got {}'):
        if tuple(hx.shape) != expected:
            raise RuntimeError(msg.format(expected, list(hx.shape)))

    def _zeros(self, input, batch_sizes=None):
        return _factories.zeros(self._expected_hidden_size(input, batch_sizes), dtype=input.dtype)

    def _run(self, input, hx):
        return _ops_rnn.rnn(self.mode, input, hx, self._flat_weights, self.bias, self.num_layers, self.dropout,
                            self.training, self.bidirectional, self.batch_first)

    @staticmethod
    def _permute(hx, permutation):
        """permute_hidden: the hidden state's batch rows (both of an LSTM's) in the order of a PackedSequence's
        permutation (none: as they are)."""
        if permutation is None:
            return hx
        if isinstance(hx, tuple):
            return tuple(h.index_select(1, permutation) for h in hx)
        return hx.index_select(1, permutation)

    def _forward_packed(self, packed, hx):
        """A PackedSequence input: the packed output (same batch_sizes and permutations) and the final hidden
        state(s), in the batch's original order."""
        from .utils.rnn import PackedSequence
        input, batch_sizes, sorted_indices, unsorted_indices = packed
        lstm = self.mode == 'LSTM'
        if hx is None:
            hx = (self._zeros(input, batch_sizes), self._zeros(input, batch_sizes)) if lstm else \
                self._zeros(input, batch_sizes)
        else:
            hx = self._permute(hx, sorted_indices)
        if not lstm:                                    # (PyTorch's LSTM leaves packed input to its kernel)
            self._check_input(input, batch_sizes)
            self._check_hidden(hx, self._expected_hidden_size(input, batch_sizes))
        result = _ops_rnn.rnn_packed(self.mode, input, batch_sizes, hx, self._flat_weights, self.bias,
                                     self.num_layers, self.dropout, self.training, self.bidirectional)
        hidden = (result[1], result[2]) if lstm else result[1]
        output = PackedSequence(result[0], batch_sizes, sorted_indices, unsorted_indices)
        return output, self._permute(hidden, unsorted_indices)

    def forward(self, input, hx=None):
        """RNN and GRU: (output, h_n); a 2-d input is one unbatched sequence."""
        if isinstance(input, tuple):                    # (a PackedSequence)
            return self._forward_packed(input, hx)
        if input.dim() not in (2, 3):              # (PyTorch's texts: GRU's without "tensor", the class not named)
            raise ValueError('GRU: Expected input to be 2D or 3D, got %dD instead' % input.dim() if isinstance(self, GRU)
                             else 'RNN: Expected input to be 2D or 3D, got %dD tensor instead' % input.dim())
        is_batched = input.dim() == 3
        batch_dim = 0 if self.batch_first else 1
        if not is_batched:
            input = input.unsqueeze(batch_dim)
            if hx is not None:
                if hx.dim() != 2:
                    raise RuntimeError('For unbatched 2-D input, hx should also be 2-D but got %d-D tensor'
                                       % hx.dim())
                hx = hx.unsqueeze(1)
        elif hx is not None and hx.dim() != 3:
            raise RuntimeError('For batched 3-D input, hx should also be 3-D but got %d-D tensor' % hx.dim())
        if hx is None:
            hx = self._zeros(input)
        self._check_input(input)
        self._check_hidden(hx, self._expected_hidden_size(input))
        output, hidden = self._run(input, hx)
        if not is_batched:
            output, hidden = output.squeeze(batch_dim), hidden.squeeze(1)
        return output, hidden


class RNN(RNNBase):
    """An Elman RNN: h_t = tanh(x_t W_ih^T + b_ih + h_(t-1) W_hh^T + b_hh) (or relu), layer after layer."""

    def __init__(self, *args, **kwargs):
        if 'proj_size' in kwargs:
            raise ValueError('proj_size argument is only supported for LSTM, not RNN or GRU')
        if len(args) > 3:
            self.nonlinearity = args[3]
            args = args[:3] + args[4:]
        else:
            self.nonlinearity = kwargs.pop('nonlinearity', 'tanh')
        if self.nonlinearity not in ('tanh', 'relu'):
            raise ValueError("Unknown nonlinearity '%s'. Select from 'tanh' or 'relu'." % self.nonlinearity)
        super().__init__('RNN_TANH' if self.nonlinearity == 'tanh' else 'RNN_RELU', *args, **kwargs)


class GRU(RNNBase):
    """A gated recurrent unit network (gates r, z, n)."""

    def __init__(self, *args, **kwargs):
        if 'proj_size' in kwargs:
            raise ValueError('proj_size argument is only supported for LSTM, not RNN or GRU')
        super().__init__('GRU', *args, **kwargs)


class LSTM(RNNBase):
    """A long short-term memory network: (output, (h_n, c_n)) (gates i, f, g, o)."""

    def __init__(self, *args, **kwargs):
        super().__init__('LSTM', *args, **kwargs)

    def forward(self, input, hx=None):
        if isinstance(input, tuple):                    # (a PackedSequence)
            return self._forward_packed(input, hx)
        if input.dim() not in (2, 3):
            raise ValueError('LSTM: Expected input to be 2D or 3D, got %dD instead' % input.dim())
        is_batched = input.dim() == 3
        batch_dim = 0 if self.batch_first else 1
        if not is_batched:
            input = input.unsqueeze(batch_dim)
        if hx is None:
            hx = (self._zeros(input), self._zeros(input))
        else:
            want = 3 if is_batched else 2
            if hx[0].dim() != want or hx[1].dim() != want:
                raise RuntimeError('For %s, hx and cx should also be %d-D but got (%d-D, %d-D) tensors'
                                   % ('batched 3-D input' if is_batched else 'unbatched 2-D input', want,
                                      hx[0].dim(), hx[1].dim()))
            if not is_batched:
                hx = (hx[0].unsqueeze(1), hx[1].unsqueeze(1))
        self._check_input(input)
        self._check_hidden(hx[0], self._expected_hidden_size(input), 'Expected hidden[0] size {}, got {}')
        self._check_hidden(hx[1], self._expected_hidden_size(input), 'Expected hidden[1] size {}, got {}')
        output, h_n, c_n = self._run(input, hx)
        if not is_batched:
            output, h_n, c_n = output.squeeze(batch_dim), h_n.squeeze(1), c_n.squeeze(1)
        return output, (h_n, c_n)


class RNNCellBase(Module):
    """One step of a recurrent network: weight_ih, weight_hh, bias_ih, bias_hh (num_chunks gates each)."""

    def __init__(self, input_size, hidden_size, bias, num_chunks, device=None, dtype=None):
        super().__init__()
        self.input_size, self.hidden_size, self.bias = input_size, hidden_size, bias
        self.weight_ih = Parameter(empty((num_chunks * hidden_size, input_size), device=device, dtype=dtype))
        self.weight_hh = Parameter(empty((num_chunks * hidden_size, hidden_size), device=device, dtype=dtype))
        if bias:
            self.bias_ih = Parameter(empty(num_chunks * hidden_size, device=device, dtype=dtype))
            self.bias_hh = Parameter(empty(num_chunks * hidden_size, device=device, dtype=dtype))
        else:
            self.register_parameter('bias_ih', None)
            self.register_parameter('bias_hh', None)
        self.reset_parameters()

    def extra_repr(self):
        s = '{input_size}, {hidden_size}'
        if 'bias' in self.__dict__ and self.bias is not True:
            s += ', bias={bias}'
        if 'nonlinearity' in self.__dict__ and self.nonlinearity != 'tanh':
            s += ', nonlinearity={nonlinearity}'
        return s.format(**self.__dict__)

    def reset_parameters(self):
        stdv = 1.0 / math.sqrt(self.hidden_size) if self.hidden_size > 0 else 0
        for weight in self.parameters():
            init.uniform_(weight, -stdv, stdv)

    def _batched(self, input, hx, name):
        """input and hx as a batch (unsqueezed when 1-d), hx zeros when None; and whether input was a batch."""
        if input.dim() not in (1, 2):
            raise ValueError('%s: Expected input to be 1D or 2D, got %dD instead' % (name, input.dim()))
        is_batched = input.dim() == 2
        if not is_batched:
            input = input.unsqueeze(0)
        return input, is_batched

    def _cell(self, mode, input, hx):
        return _ops_rnn.cell(mode, input, hx, self.weight_ih, self.weight_hh, self.bias_ih, self.bias_hh)


class RNNCell(RNNCellBase):
    def __init__(self, input_size, hidden_size, bias=True, nonlinearity='tanh', device=None, dtype=None):
        super().__init__(input_size, hidden_size, bias, num_chunks=1, device=device, dtype=dtype)
        self.nonlinearity = nonlinearity

    def forward(self, input, hx=None):
        input, is_batched = self._batched(input, hx, 'RNNCell')       # (the input's dims checked first)
        if hx is not None and hx.dim() not in (1, 2):
            raise ValueError('RNNCell: Expected hidden to be 1D or 2D, got %dD instead' % hx.dim())
        if hx is None:
            hx = _factories.zeros(input.size(0), self.hidden_size, dtype=input.dtype)
        elif not is_batched:
            hx = hx.unsqueeze(0)
        if self.nonlinearity not in ('tanh', 'relu'):
            raise RuntimeError('Unknown nonlinearity: %s' % self.nonlinearity)
        ret = self._cell('RNN_TANH' if self.nonlinearity == 'tanh' else 'RNN_RELU', input, hx)
        return ret if is_batched else ret.squeeze(0)


class LSTMCell(RNNCellBase):
    def __init__(self, input_size, hidden_size, bias=True, device=None, dtype=None):
        super().__init__(input_size, hidden_size, bias, num_chunks=4, device=device, dtype=dtype)

    def forward(self, input, hx=None):
        if input.dim() not in (1, 2):
            raise ValueError('LSTMCell: Expected input to be 1D or 2D, got %dD instead' % input.dim())
        if hx is not None:
            for idx, value in enumerate(hx):
                if value.dim() not in (1, 2):
                    raise ValueError('LSTMCell: Expected hx[%d] to be 1D or 2D, got %dD instead' % (idx, value.dim()))
        input, is_batched = self._batched(input, hx, 'LSTMCell')
        if hx is None:
            zeros = _factories.zeros(input.size(0), self.hidden_size, dtype=input.dtype)
            hx = (zeros, zeros)
        elif not is_batched:
            hx = (hx[0].unsqueeze(0), hx[1].unsqueeze(0))
        ret = self._cell('LSTM', input, hx)
        return ret if is_batched else (ret[0].squeeze(0), ret[1].squeeze(0))


class GRUCell(RNNCellBase):
    def __init__(self, input_size, hidden_size, bias=True, device=None, dtype=None):
        super().__init__(input_size, hidden_size, bias, num_chunks=3, device=device, dtype=dtype)

    def forward(self, input, hx=None):
        input, is_batched = self._batched(input, hx, 'GRUCell')       # (the input's dims checked first)
        if hx is not None and hx.dim() not in (1, 2):
            raise ValueError('GRUCell: Expected hidden to be 1D or 2D, got %dD instead' % hx.dim())
        if hx is None:
            hx = _factories.zeros(input.size(0), self.hidden_size, dtype=input.dtype)
        elif not is_batched:
            hx = hx.unsqueeze(0)
        ret = self._cell('GRU', input, hx)
        return ret if is_batched else ret.squeeze(0)


# ================================================================================================ normalization

def _affine_parameters(module, shape, affine, bias, dtype):
    """A normalization's weight and bias parameters of this shape (bias only with bias=True), None where not
    wanted; their values come from _reset_affine."""
    for name, wanted in (('weight', affine), ('bias', affine and bias)):
        module.register_parameter(name, Parameter(empty(shape, dtype=dtype)) if wanted else None)


def _reset_affine(module):
    """A normalization's weight to ones and bias to zeros (those it has)."""
    if module.weight is not None:
        init.ones_(module.weight)
    if module.bias is not None:
        init.zeros_(module.bias)


class _NormBase(Module):
    """What batch and instance norm share (PyTorch's _NormBase): affine weight and bias, running statistics
    (buffers) if tracked, their reset, the repr."""
    _init_per_class = True         # (_BatchNorm's: PyTorch's BatchNorm1d and 2d take theirs from _BatchNorm)

    def __init__(self, num_features, eps=1e-5, momentum=0.1, affine=True, track_running_stats=True, device=None,
                 dtype=None, *, bias=True):
        super().__init__()
        self.num_features, self.eps, self.momentum = num_features, eps, momentum
        self.affine, self.track_running_stats = affine, track_running_stats
        _affine_parameters(self, num_features, affine, bias, dtype)
        tracked = track_running_stats
        self.register_buffer('running_mean', _factories.zeros(num_features, dtype=dtype) if tracked else None)
        self.register_buffer('running_var', _factories.ones(num_features, dtype=dtype) if tracked else None)
        self.register_buffer('num_batches_tracked',
                             _factories.tensor(0, dtype=_dtypes.int64) if tracked else None)
        self.reset_parameters()

    _version = 2             # (num_batches_tracked added)

    def _upgrade_state_dict(self, state_dict, prefix, version):
        """A state_dict from before num_batches_tracked (or of unknown version) without it keeps the current one."""
        key = prefix + 'num_batches_tracked'
        if (version is None or version < 2) and self.track_running_stats and key not in state_dict:
            state_dict[key] = (self.num_batches_tracked if self.num_batches_tracked is not None
                               else _factories.tensor(0, dtype=_dtypes.int64))

    def reset_running_stats(self):
        if self.track_running_stats:
            self.running_mean.zero_()
            self.running_var.fill_(1)
            self.num_batches_tracked.zero_()

    def reset_parameters(self):
        self.reset_running_stats()
        _reset_affine(self)

    def extra_repr(self):
        return (f'{self.num_features}, eps={self.eps}, momentum={self.momentum}, affine={self.affine}, '
                f'bias={self.bias is not None}, track_running_stats={self.track_running_stats}')


class _BatchNorm(_NormBase):
    """Normalizes each channel (dim 1) by the batch's mean and variance while training, updating running_mean and
    running_var (buffers), and by those running statistics in eval(); then scales by weight and shifts by bias."""

    def forward(self, input):
        self._check_input_dim(input)
        factor = 0.0 if self.momentum is None else self.momentum
        if self.training and self.track_running_stats and self.num_batches_tracked is not None:
            self.num_batches_tracked.add_(1)
            factor = 1.0 / float(self.num_batches_tracked) if self.momentum is None else self.momentum
        bn_training = self.training or (self.running_mean is None and self.running_var is None)
        use_buffers = not self.training or self.track_running_stats
        return F.batch_norm(input, self.running_mean if use_buffers else None,
                            self.running_var if use_buffers else None, self.weight, self.bias, bn_training, factor,
                            self.eps)


class BatchNorm1d(_BatchNorm):
    """Batch normalization of (N, C) or (N, C, L) inputs."""

    def _check_input_dim(self, input):
        if input.dim() != 2 and input.dim() != 3:
            raise ValueError('expected 2D or 3D input (got %dD input)' % input.dim())


class BatchNorm2d(_BatchNorm):
    """Batch normalization of (N, C, H, W) inputs."""

    def _check_input_dim(self, input):
        if input.dim() != 4:
            raise ValueError('expected 4D input (got %dD input)' % input.dim())


class BatchNorm3d(_BatchNorm):
    """Batch normalization of (N, C, D, H, W) inputs."""

    def _check_input_dim(self, input):
        if input.dim() != 5:
            raise ValueError('expected 5D input (got %dD input)' % input.dim())


class _LazyNormBase:
    """A batch norm whose num_features is its first input's dim 1: until then its weight, bias (affine) and running
    statistics are uninitialized; the first forward shapes and resets them and the module becomes the batch norm."""
    has_uninitialized_params = _has_uninitialized_params

    def __init__(self, eps=1e-5, momentum=0.1, affine=True, track_running_stats=True, device=None, dtype=None):
        super().__init__(0, eps, momentum, False, False, device, dtype)
        self.affine, self.track_running_stats = affine, track_running_stats
        if affine:
            self.weight, self.bias = UninitializedParameter(dtype=dtype), UninitializedParameter(dtype=dtype)
        if track_running_stats:
            self.running_mean, self.running_var = UninitializedBuffer(dtype=dtype), UninitializedBuffer(dtype=dtype)
            self.num_batches_tracked = _factories.tensor(0, dtype=_dtypes.int64)

    def _uninitialized(self):
        return [t for t in (self.weight, self.bias, self.running_mean, self.running_var)
                if isinstance(t, (UninitializedParameter, UninitializedBuffer))]

    def reset_parameters(self):
        if self.num_features != 0 and not self._uninitialized():
            super().reset_parameters()

    def forward(self, input):
        becomes = type(self).__mro__[2]
        pending = self._uninitialized()
        if pending:
            with ag.no_grad():
                self.num_features = input.shape[1]
                for t in pending:
                    t.materialize((self.num_features,))
                self.reset_parameters()
        self.__class__ = becomes        # (even with nothing to initialize: affine=False, track_running_stats=False)
        return becomes.forward(self, input)


class LazyBatchNorm1d(_LazyNormBase, BatchNorm1d):
    """BatchNorm1d with num_features taken from the first input."""


class LazyBatchNorm2d(_LazyNormBase, BatchNorm2d):
    """BatchNorm2d with num_features taken from the first input."""


class LazyBatchNorm3d(_LazyNormBase, BatchNorm3d):
    """BatchNorm3d with num_features taken from the first input."""


class LayerNorm(Module):
    """Normalizes each sample over its last dims (normalized_shape) by its own mean and variance, then scales by
    weight (ones) and shifts by bias (zeros), elementwise."""

    def __init__(self, normalized_shape, eps=1e-5, elementwise_affine=True, bias=True, device=None, dtype=None):
        super().__init__()
        if isinstance(normalized_shape, numbers.Integral):
            normalized_shape = (normalized_shape,)
        self.normalized_shape = tuple(normalized_shape)
        self.eps, self.elementwise_affine = eps, elementwise_affine
        _affine_parameters(self, self.normalized_shape, elementwise_affine, bias, dtype)
        self.reset_parameters()

    reset_parameters = _reset_affine

    def forward(self, input):
        return F.layer_norm(input, self.normalized_shape, self.weight, self.bias, self.eps)

    def extra_repr(self):
        return (f'{self.normalized_shape}, eps={self.eps}, elementwise_affine={self.elementwise_affine}, '
                f'bias={self.bias is not None}')



class RMSNorm(Module):
    """Scales each sample by the root mean square of its last dims (normalized_shape), then by weight (ones),
    elementwise: LayerNorm without centring and bias (eps None: the machine epsilon of the input's dtype)."""

    def __init__(self, normalized_shape, eps=None, elementwise_affine=True, device=None, dtype=None):
        super().__init__()
        if isinstance(normalized_shape, numbers.Integral):
            normalized_shape = (normalized_shape,)
        self.normalized_shape = tuple(normalized_shape)
        self.eps, self.elementwise_affine = eps, elementwise_affine
        self.register_parameter('weight', Parameter(empty(self.normalized_shape, dtype=dtype))
                                if elementwise_affine else None)
        self.reset_parameters()

    def reset_parameters(self):
        if self.weight is not None:
            init.ones_(self.weight)

    def forward(self, x):
        return F.rms_norm(x, self.normalized_shape, self.weight, self.eps)

    def extra_repr(self):
        return f'{self.normalized_shape}, eps={self.eps}, elementwise_affine={self.elementwise_affine}'


class LocalResponseNorm(Module):
    """Normalizes each element by the squares of its `size` neighbouring channels (F.local_response_norm)."""

    def __init__(self, size, alpha=1e-4, beta=0.75, k=1.0):
        super().__init__()
        self.size, self.alpha, self.beta, self.k = size, alpha, beta, k

    def forward(self, input):
        return F.local_response_norm(input, self.size, self.alpha, self.beta, self.k)

    def extra_repr(self):
        return '{}, alpha={}, beta={}, k={}'.format(self.size, self.alpha, self.beta, self.k)


class CrossMapLRN2d(Module):
    """The legacy (Lua Torch) local response normalization of 4-d inputs: PyTorch's autograd Function of that name
    (its node CrossMapLRN2dBackward), a running sum of squares across the channels."""
    extra_repr = LocalResponseNorm.extra_repr

    def __init__(self, size, alpha=1e-4, beta=0.75, k=1):
        super().__init__()
        self.size, self.alpha, self.beta, self.k = size, alpha, beta, k

    def forward(self, input):
        return _cross_map_lrn2d().apply(input, self.size, self.alpha, self.beta, self.k)


_CrossMapLRN2d = []


def _cross_map_lrn2d():
    """The Function (made once, on first use): forward and backward in numpy, in the order of PyTorch's loops."""
    if not _CrossMapLRN2d:
        from .._function import Function
        from .._tensor import make

        class CrossMapLRN2d(Function):
            @staticmethod
            def forward(ctx, input, size, alpha=1e-4, beta=0.75, k=1):
                ctx.size, ctx.alpha, ctx.beta, ctx.k = size, alpha, beta, k
                if input.dim() != 4:
                    raise ValueError(f'CrossMapLRN2d: Expected input to be 4D, got {input.dim()}D instead.')
                x = input._data
                square, scale, channels = x * x, np.zeros_like(x), x.shape[1]
                pre_pad = int((size - 1) / 2 + 1)
                for c in range(min(pre_pad, channels)):
                    scale[:, 0] += square[:, c]
                for c in range(1, channels):          # (each channel's sum from the previous one's)
                    scale[:, c] = scale[:, c - 1]
                    if c < channels - pre_pad + 1:
                        scale[:, c] += square[:, c + pre_pad - 1]
                    if c > pre_pad:
                        scale[:, c] -= square[:, c - pre_pad]
                scale = scale * (alpha / size) + k
                ctx.scale = scale
                output = make(np.power(scale, x.dtype.type(-beta)) * x)
                ctx.save_for_backward(input, output)
                return output

            @staticmethod
            def backward(ctx, grad_output):
                input, output = ctx.saved_tensors
                x, out, g, scale, size = input._data, output._data, grad_output._data, ctx.scale, ctx.size
                channels = x.shape[1]
                grad_input = np.power(scale, x.dtype.type(-ctx.beta)) * g
                padded = np.zeros((channels + size - 1,) + x.shape[2:], x.dtype)
                ratio = 2 * ctx.alpha * ctx.beta / size
                first = int(size - (size - 1) / 2)
                if first + channels > len(padded):    # (PyTorch's narrow of its padded buffer: size 1)
                    raise RuntimeError('start (%d) + length (%d) exceeds dimension size (%d).'
                                       % (first, channels, len(padded)))
                for n in range(x.shape[0]):
                    padded[first:first + channels] = g[n] * out[n] / scale[n]
                    accum = padded[:size - 1].sum(0)
                    for c in range(channels):
                        accum += padded[c + size - 1]
                        grad_input[n, c] += x.dtype.type(-ratio) * x[n, c] * accum
                        accum -= padded[c]
                return make(grad_input), None, None, None, None
        CrossMapLRN2d.__module__ = 'torch.nn.modules._functions'
        _CrossMapLRN2d.append(CrossMapLRN2d)
    return _CrossMapLRN2d[0]


class GroupNorm(Module):
    """Normalizes each sample's groups of channels (num_channels split in num_groups) by their own mean and
    variance, then scales and shifts each channel by weight (ones) and bias (zeros)."""

    def __init__(self, num_groups, num_channels, eps=1e-5, affine=True, device=None, dtype=None, *, bias=True):
        super().__init__()
        if num_channels % num_groups != 0:
            raise ValueError(f'num_channels ({num_channels}) must be divisible by num_groups ({num_groups})')
        self.num_groups, self.num_channels, self.eps, self.affine = num_groups, num_channels, eps, affine
        _affine_parameters(self, num_channels, affine, bias, dtype)
        self.reset_parameters()

    reset_parameters = _reset_affine

    def forward(self, input):
        return F.group_norm(input, self.num_groups, self.weight, self.bias, self.eps)

    def extra_repr(self):
        return (f'{self.num_groups}, {self.num_channels}, eps={self.eps}, affine={self.affine}, '
                f'bias={self.bias is not None}')


class _InstanceNorm(_NormBase):
    """Normalizes each sample's channels by their own mean and variance (over the spatial dims); no affine
    parameters and no running statistics unless asked for. An unbatched input is one sample."""

    def __init__(self, num_features, eps=1e-5, momentum=0.1, affine=False, track_running_stats=False, device=None,
                 dtype=None, *, bias=True):
        super().__init__(num_features, eps, momentum, affine, track_running_stats, device, dtype, bias=bias)

    def _apply_instance_norm(self, input):
        return F.instance_norm(input, self.running_mean, self.running_var, self.weight, self.bias,
                               self.training or not self.track_running_stats,
                               self.momentum if self.momentum is not None else 0.0, self.eps)

    def forward(self, input):
        self._check_input_dim(input)
        feature_dim = input.dim() - self._no_batch_dim
        if input.size(feature_dim) != self.num_features:
            if self.affine:
                raise ValueError("expected input's size at dim=%d to match num_features (%s), but got: %d."
                                 % (feature_dim, self.num_features, input.size(feature_dim)))
            warnings.warn("input's size at dim=%d does not match num_features. You can silence this warning by not "
                          "passing in num_features, which is not used because affine=False" % feature_dim,
                          stacklevel=2)
        if input.dim() == self._no_batch_dim:
            return self._apply_instance_norm(input.unsqueeze(0)).squeeze(0)
        return self._apply_instance_norm(input)


class InstanceNorm1d(_InstanceNorm):
    """Instance normalization of (N, C, L) or unbatched (C, L) inputs."""
    _no_batch_dim = 2

    def _check_input_dim(self, input):
        if input.dim() not in (2, 3):
            raise ValueError('expected 2D or 3D input (got %dD input)' % input.dim())


class InstanceNorm2d(_InstanceNorm):
    """Instance normalization of (N, C, H, W) or unbatched (C, H, W) inputs."""
    _no_batch_dim = 3

    def _check_input_dim(self, input):
        if input.dim() not in (3, 4):
            raise ValueError('expected 3D or 4D input (got %dD input)' % input.dim())


class InstanceNorm3d(_InstanceNorm):
    """Instance normalization of (N, C, D, H, W) or unbatched (C, D, H, W) inputs."""
    _no_batch_dim = 4

    def _check_input_dim(self, input):
        if input.dim() not in (4, 5):
            raise ValueError('expected 4D or 5D input (got %dD input)' % input.dim())


class LazyInstanceNorm1d(_LazyNormBase, InstanceNorm1d):
    """InstanceNorm1d with num_features taken from the first input (its dim 1, as PyTorch's)."""


class LazyInstanceNorm2d(_LazyNormBase, InstanceNorm2d):
    """InstanceNorm2d with num_features taken from the first input."""


class LazyInstanceNorm3d(_LazyNormBase, InstanceNorm3d):
    """InstanceNorm3d with num_features taken from the first input."""


# ================================================================================================ losses

class _Loss(Module):
    def __init__(self, size_average=None, reduce=None, reduction='mean'):
        super().__init__()
        self.reduction = _legacy_reduction(size_average, reduce, reduction)


class _WeightedLoss(_Loss):
    def __init__(self, weight=None, size_average=None, reduce=None, reduction='mean'):
        super().__init__(size_average, reduce, reduction)
        self.register_buffer('weight', weight)


class MSELoss(_Loss):
    """Mean squared error."""

    def forward(self, input, target):
        return F.mse_loss(input, target, reduction=self.reduction)


class SmoothL1Loss(_Loss):
    """The l1 loss made smooth (quadratic) within beta of the target."""

    def __init__(self, size_average=None, reduce=None, reduction='mean', beta=1.0):
        super().__init__(size_average, reduce, reduction)
        self.beta = beta

    def forward(self, input, target):
        return F.smooth_l1_loss(input, target, reduction=self.reduction, beta=self.beta)


class HuberLoss(_Loss):
    """Quadratic within delta of the target, linear (slope delta) beyond."""

    def __init__(self, reduction='mean', delta=1.0):
        super().__init__(reduction=reduction)
        self.delta = delta

    def forward(self, input, target):
        return F.huber_loss(input, target, reduction=self.reduction, delta=self.delta)


class L1Loss(_Loss):
    """Mean absolute error."""

    def forward(self, input, target):
        return F.l1_loss(input, target, reduction=self.reduction)



class KLDivLoss(_Loss):
    """The Kullback-Leibler divergence of the target from the input (log-probabilities)."""

    def __init__(self, size_average=None, reduce=None, reduction='mean', log_target=False):
        super().__init__(size_average, reduce, reduction)
        self.log_target = log_target

    def forward(self, input, target):
        return F.kl_div(input, target, reduction=self.reduction, log_target=self.log_target)


class MarginRankingLoss(_Loss):
    """max(0, -y * (x1 - x2) + margin): x1 should rank above x2 where y is 1, below where y is -1."""

    def __init__(self, margin=0.0, size_average=None, reduce=None, reduction='mean'):
        super().__init__(size_average, reduce, reduction)
        self.margin = margin

    def forward(self, input1, input2, target):
        return F.margin_ranking_loss(input1, input2, target, margin=self.margin, reduction=self.reduction)


class HingeEmbeddingLoss(_Loss):
    """x where y is 1, max(0, margin - x) where y is -1."""

    def __init__(self, margin=1.0, size_average=None, reduce=None, reduction='mean'):
        super().__init__(size_average, reduce, reduction)
        self.margin = margin

    def forward(self, input, target):
        return F.hinge_embedding_loss(input, target, margin=self.margin, reduction=self.reduction)


class CosineEmbeddingLoss(_Loss):
    """1 - cos(x1, x2) where y is 1, max(0, cos(x1, x2) - margin) where y is -1."""

    def __init__(self, margin=0.0, size_average=None, reduce=None, reduction='mean'):
        super().__init__(size_average, reduce, reduction)
        self.margin = margin

    def forward(self, input1, input2, target):
        return F.cosine_embedding_loss(input1, input2, target, margin=self.margin, reduction=self.reduction)


class TripletMarginLoss(_Loss):
    """max(0, margin + d(anchor, positive) - d(anchor, negative)), d the p-norm distance."""

    def __init__(self, margin=1.0, p=2.0, eps=1e-6, swap=False, size_average=None, reduce=None, reduction='mean'):
        super().__init__(size_average, reduce, reduction)
        if margin <= 0:
            raise ValueError(f"TripletMarginLoss: expected margin to be greater than 0, got {margin} instead")
        self.margin, self.p, self.eps, self.swap = margin, p, eps, swap

    def forward(self, anchor, positive, negative):
        return F.triplet_margin_loss(anchor, positive, negative, margin=self.margin, p=self.p, eps=self.eps,
                                     swap=self.swap, reduction=self.reduction)


class TripletMarginWithDistanceLoss(_Loss):
    """max(0, margin + d(anchor, positive) - d(anchor, negative)) with a distance function d of one's choice
    (a PairwiseDistance by default)."""

    def __init__(self, *, distance_function=None, margin=1.0, swap=False, reduction='mean'):
        super().__init__(size_average=None, reduce=None, reduction=reduction)
        if margin <= 0:
            raise ValueError(f'TripletMarginWithDistanceLoss: expected margin to be greater than 0, got {margin} '
                             'instead')
        self.distance_function = distance_function if distance_function is not None else PairwiseDistance()
        self.margin, self.swap = margin, swap

    def forward(self, anchor, positive, negative):
        return F.triplet_margin_with_distance_loss(anchor, positive, negative, distance_function=self.distance_function,
                                                   margin=self.margin, swap=self.swap, reduction=self.reduction)


class PoissonNLLLoss(_Loss):
    """The negative log-likelihood of a Poisson target given its (log) rate."""

    def __init__(self, log_input=True, full=False, size_average=None, eps=1e-8, reduce=None, reduction='mean'):
        super().__init__(size_average, reduce, reduction)
        self.log_input, self.full, self.eps = log_input, full, eps

    def forward(self, log_input, target):
        return F.poisson_nll_loss(log_input, target, log_input=self.log_input, full=self.full, eps=self.eps,
                                  reduction=self.reduction)


class GaussianNLLLoss(_Loss):
    """The negative log-likelihood of a Gaussian target given its mean and variance."""

    def __init__(self, *, full=False, eps=1e-6, reduction='mean'):
        super().__init__(None, None, reduction)
        self.full, self.eps = full, eps

    def forward(self, input, target, var):
        return F.gaussian_nll_loss(input, target, var, full=self.full, eps=self.eps, reduction=self.reduction)


class MultiMarginLoss(_WeightedLoss):
    """The multi-class hinge (SVM) loss: max(0, margin - x[y] + x[j]) (squared for p 2) over the other classes."""

    def __init__(self, p=1, margin=1.0, weight=None, size_average=None, reduce=None, reduction='mean'):
        super().__init__(weight, size_average, reduce, reduction)
        if p != 1 and p != 2:
            raise ValueError('only p == 1 and p == 2 supported')
        if weight is not None and weight.dim() != 1:
            raise ValueError('MultiMarginLoss: expected weight to be None or 1D tensor, got %dD instead'
                             % weight.dim())
        self.p, self.margin = p, margin

    def forward(self, input, target):
        return F.multi_margin_loss(input, target, p=self.p, margin=self.margin, weight=self.weight,
                                   reduction=self.reduction)


class MultiLabelMarginLoss(_Loss):
    """The multi-label hinge loss: each target class against each other class, max(0, 1 - (x[k] - x[j]))."""

    def forward(self, input, target):
        return F.multilabel_margin_loss(input, target, reduction=self.reduction)


class CTCLoss(_Loss):
    """The connectionist temporal classification loss of unaligned label sequences (F.ctc_loss)."""

    def __init__(self, blank=0, reduction='mean', zero_infinity=False):
        super().__init__(reduction=reduction)
        self.blank, self.zero_infinity = blank, zero_infinity

    def forward(self, log_probs, targets, input_lengths, target_lengths):
        return F.ctc_loss(log_probs, targets, input_lengths, target_lengths, self.blank, self.reduction,
                          self.zero_infinity)


class SoftMarginLoss(_Loss):
    """log(1 + exp(-y * x)): a two-class logistic loss for targets 1 and -1."""

    def forward(self, input, target):
        return F.soft_margin_loss(input, target, reduction=self.reduction)


class MultiLabelSoftMarginLoss(_WeightedLoss):
    """The binary cross-entropy of each class's logit, averaged over the classes."""

    def forward(self, input, target):
        return F.multilabel_soft_margin_loss(input, target, weight=self.weight, reduction=self.reduction)


class NLLLoss(_WeightedLoss):
    """Negative log-likelihood of the target classes, given log-probabilities."""

    def __init__(self, weight=None, size_average=None, ignore_index=-100, reduce=None, reduction='mean'):
        super().__init__(weight, size_average, reduce, reduction)
        self.ignore_index = ignore_index

    def forward(self, input, target):
        return F.nll_loss(input, target, self.weight, ignore_index=self.ignore_index, reduction=self.reduction)


class NLLLoss2d(NLLLoss):
    """NLLLoss under its old name for images (N, C, H, W), deprecated (see _deprecated_class)."""

    def __init__(self, weight=None, size_average=None, ignore_index=-100, reduce=None, reduction='mean'):
        super().__init__(weight, size_average, ignore_index, reduce, reduction)


class CrossEntropyLoss(_WeightedLoss):
    """log_softmax then NLLLoss: takes raw scores (logits) and class indices (or class probabilities)."""

    def __init__(self, weight=None, size_average=None, ignore_index=-100, reduce=None, reduction='mean',
                 label_smoothing=0.0):
        super().__init__(weight, size_average, reduce, reduction)
        self.ignore_index, self.label_smoothing = ignore_index, label_smoothing

    def forward(self, input, target):
        return F.cross_entropy(input, target, self.weight, ignore_index=self.ignore_index,
                               reduction=self.reduction, label_smoothing=self.label_smoothing)


class BCELoss(_WeightedLoss):
    """Binary cross entropy of probabilities (use after Sigmoid)."""

    def forward(self, input, target):
        return F.binary_cross_entropy(input, target, self.weight, reduction=self.reduction)


class BCEWithLogitsLoss(_Loss):
    """Sigmoid and binary cross entropy in one stable step (takes logits)."""

    def __init__(self, weight=None, size_average=None, reduce=None, reduction='mean', pos_weight=None):
        super().__init__(size_average, reduce, reduction)
        self.register_buffer('weight', weight)
        self.register_buffer('pos_weight', pos_weight)

    def forward(self, input, target):
        return F.binary_cross_entropy_with_logits(input, target, self.weight, reduction=self.reduction,
                                                  pos_weight=self.pos_weight)


class OptimizedModule(Module):
    """What torch.compile(module) gives: the module as its child `_orig_mod` (so its repr and state_dict keys show
    it), run as it is; other attributes are the module's own."""
    __module__ = 'torch._dynamo.eval_frame'

    def __init__(self, mod):
        super().__init__()
        self._orig_mod = mod

    def forward(self, *args, **kwargs):
        return self._orig_mod(*args, **kwargs)

    def __getattr__(self, name):
        if name == '_orig_mod':
            return self._modules['_orig_mod']
        return getattr(self._orig_mod, name)


def _deprecated_class(cls, message):
    """A class PyTorch marks @deprecated (typing_extensions): a FutureWarning when the class itself is
    instantiated (before its __init__ runs), and when a subclass of it is defined."""
    init, init_subclass = cls.__init__, cls.__init_subclass__

    def __init__(self, *args, **kwargs):
        if type(self) is cls:
            warnings.warn(message, FutureWarning, stacklevel=2)
        init(self, *args, **kwargs)

    def __init_subclass__(sub, **kwargs):
        warnings.warn(message, FutureWarning, stacklevel=3)
        init_subclass.__func__(sub, **kwargs)
    cls.__init__ = functools.wraps(init)(__init__)
    cls.__init_subclass__ = classmethod(__init_subclass__)


_deprecated_class(Container, '`nn.Container` is deprecated. All of its functionality is now implemented in `nn.Module`. '
                             'Subclass that instead.')
_deprecated_class(NLLLoss2d, '`NLLLoss2d` has been deprecated. Please use `NLLLoss` instead as a drop-in replacement and '
                             'see https://pytorch.org/docs/main/nn.html#torch.nn.NLLLoss for more details.')


# Where PyTorch defines each module class: type(m), and the errors that name a class, show these paths.
for _where, _names in [('module', 'Module'),
                       ('container', 'Container Sequential ModuleList ModuleDict ParameterList ParameterDict'),
                       ('linear', 'Linear LazyLinear Identity Bilinear'), ('channelshuffle', 'ChannelShuffle'),
                       ('flatten', 'Flatten Unflatten'),
                       ('dropout', '_DropoutNd Dropout Dropout1d Dropout2d Dropout3d AlphaDropout FeatureAlphaDropout'),
                       ('sparse', 'Embedding EmbeddingBag'),
                       ('padding', '_ConstantPadNd ConstantPad1d ConstantPad2d ZeroPad2d'),
                       ('conv', '_ConvNd Conv1d Conv2d Conv3d LazyConv1d LazyConv2d LazyConv3d'),
                       ('pooling', '_MaxPoolNd MaxPool1d MaxPool2d MaxPool3d AvgPool1d _AvgPoolNd AvgPool2d AvgPool3d '
                                   '_AdaptiveAvgPoolNd AdaptiveAvgPool2d AdaptiveAvgPool3d _MaxUnpoolNd MaxUnpool1d '
                                   'MaxUnpool2d MaxUnpool3d _LPPoolNd LPPool1d LPPool2d LPPool3d FractionalMaxPool2d '
                                   'FractionalMaxPool3d'),
                       ('batchnorm', '_NormBase _BatchNorm BatchNorm1d BatchNorm2d BatchNorm3d LazyBatchNorm1d '
                                     'LazyBatchNorm2d LazyBatchNorm3d'),
                       ('rnn', 'RNNBase RNN LSTM GRU RNNCellBase RNNCell LSTMCell GRUCell'),
                       ('activation', 'ReLU LeakyReLU ELU LogSigmoid Softplus SiLU Hardtanh ReLU6 GELU Sigmoid Tanh '
                                      'Softmax LogSoftmax Mish Hardswish Hardsigmoid SELU CELU Threshold Softshrink '
                                      'Hardshrink Tanhshrink Softsign Softmin GLU PReLU Softmax2d RReLU'),
                       ('distance', 'CosineSimilarity PairwiseDistance'),
                       ('normalization', 'GroupNorm LayerNorm RMSNorm LocalResponseNorm CrossMapLRN2d'),
                       ('instancenorm', '_InstanceNorm InstanceNorm1d InstanceNorm2d InstanceNorm3d LazyInstanceNorm1d '
                                        'LazyInstanceNorm2d LazyInstanceNorm3d'),
                       ('loss', '_Loss _WeightedLoss CTCLoss MSELoss SmoothL1Loss HuberLoss L1Loss NLLLoss NLLLoss2d '
                                'CrossEntropyLoss BCELoss BCEWithLogitsLoss KLDivLoss MarginRankingLoss HingeEmbeddingLoss '
                                'CosineEmbeddingLoss TripletMarginLoss PoissonNLLLoss GaussianNLLLoss SoftMarginLoss '
                                'MultiLabelSoftMarginLoss MultiMarginLoss MultiLabelMarginLoss '
                                'TripletMarginWithDistanceLoss')]:
    for _name in _names.split():
        globals()[_name].__module__ = 'torch.nn.modules.' + _where

from ._attention import (MultiheadAttention, TransformerEncoderLayer, TransformerEncoder,  # noqa: E402,F401
                         TransformerDecoderLayer, TransformerDecoder, Transformer)
from ._vision import (Upsample, UpsamplingNearest2d, UpsamplingBilinear2d, Unfold, Fold,  # noqa: E402,F401
                      ConvTranspose1d, ConvTranspose2d, ConvTranspose3d, AdaptiveMaxPool1d, AdaptiveMaxPool2d,
                      AdaptiveMaxPool3d, PixelShuffle, PixelUnshuffle, LazyConvTranspose1d, LazyConvTranspose2d,
                      LazyConvTranspose3d)
from ._adaptive import AdaptiveLogSoftmaxWithLoss  # noqa: E402,F401
from ._pad import (ReflectionPad1d, ReflectionPad2d, ReflectionPad3d, ReplicationPad1d,  # noqa: E402,F401
                   ReplicationPad2d, ReplicationPad3d, CircularPad1d, CircularPad2d, CircularPad3d, ConstantPad3d,
                   ZeroPad1d, ZeroPad3d, AdaptiveAvgPool1d)
from . import utils  # noqa: E402,F401


def _modules_package():
    """torch.nn.modules and its files (loss, linear, module, ...): each layer class under the file name its
    __module__ gives, as custom code imports them (`from torch.nn.modules.loss import _Loss`)."""
    package = types.ModuleType(__name__ + '.modules', 'torch.nn.modules: the layer classes, by defining file.')
    package.__path__ = []       # (a package to the import system, which then finds its submodules)
    for obj in list(globals().values()):
        where = getattr(obj, '__module__', '') or ''
        if isinstance(obj, type) and where.startswith('torch.nn.modules.'):
            name = where[len('torch.nn.modules.'):]
            sub = getattr(package, name, None)
            if sub is None:
                sub = types.ModuleType(package.__name__ + '.' + name)
                setattr(package, name, sub)
                sys.modules[sub.__name__] = sub
            setattr(sub, obj.__name__, obj)
            if not obj.__name__.startswith('_'):
                setattr(package, obj.__name__, obj)
    # torch.nn.modules.utils: the helpers custom layers import (`from torch.nn.modules.utils import _pair`)
    package.utils = sys.modules[package.__name__ + '.utils'] = types.ModuleType(package.__name__ + '.utils')
    for n, name in enumerate(('_single', '_pair', '_triple', '_quadruple'), 1):
        setattr(package.utils, name, _tuple_parser(n, name))
    package.utils.consume_prefix_in_state_dict_if_present = consume_prefix_in_state_dict_if_present
    for name in ('forward_pre_hook', 'forward_hook', 'backward_hook', 'full_backward_hook', 'full_backward_pre_hook',
                 'parameter_registration_hook', 'buffer_registration_hook', 'module_registration_hook'):
        setattr(package.module, 'register_module_' + name, globals()['register_module_' + name])
    sys.modules[package.__name__] = package
    return package


def _tuple_parser(n, name):
    """torch.nn.modules.utils._pair and the like: an iterable as a tuple, anything else repeated n times."""
    def parse(x):
        return _ntuple(x, n)
    parse.__name__, parse.__qualname__ = name, '_ntuple.<locals>.parse'
    return parse


def consume_prefix_in_state_dict_if_present(state_dict, prefix):
    """Strip `prefix` from the keys of a state_dict that have it, in place (and from its _metadata's, where the
    prefix without its dot names a module too): how a DataParallel model's 'module.' keys load into the model."""
    for key in [k for k in state_dict if k.startswith(prefix)]:
        state_dict[key[len(prefix):]] = state_dict.pop(key)
    metadata = getattr(state_dict, '_metadata', None)
    if metadata is not None:
        for key in [k for k in metadata if k and (k.startswith(prefix) or k == prefix.replace('.', ''))]:
            metadata[key[len(prefix):]] = metadata.pop(key)


modules = _modules_package()
