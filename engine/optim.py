"""torch.optim: SGD, Adam, AdamW, NAdam, RAdam, Adamax, RMSprop, Adagrad, Adadelta, Rprop, ASGD, Adafactor and LBFGS,
updating parameters in place (each update bumps the parameter's version, as in PyTorch) with PyTorch's single-tensor
update formulas (what foreach=None picks on the CPU), in the same float32 order of operations."""
import math
import sys
import types
import warnings
from collections import OrderedDict, defaultdict
from functools import wraps
from itertools import chain

import numpy as np

from . import _autograd as ag
from . import _dtypes as dt
from ._tensor import Tensor, make
from .nn import _typename, _zero_grad
from ._ops import mul, _views_changed
from ._random import fma64

def _bump(t):
    ag.bump(t)
    _views_changed(t)       # (a saved view of the parameter, as weight.t(), now reads as AsStrided's output)


def _fma(a, alpha, b, out=None):
    """a + alpha * b rounded once, as PyTorch's vectorised CPU kernels compute it (a fused multiply-add), into
    `out` if given; float32 goes through float64, which reproduces PyTorch's float32 results bit for bit, float64
    through fma64."""
    if a.dtype == np.float64:
        r = fma64(alpha, b, a)
    elif a.dtype != np.float32:
        r = a + alpha * b
    else:
        r = b.astype(np.float64)
        r *= np.float32(alpha) if np.ndim(alpha) == 0 else alpha
        r += a
    if out is None:
        return r.astype(a.dtype, copy=False)
    out[...] = r
    return out


# dir(optimizer) lists PyTorch's names (Python's "Did you mean: '...'?" searches them), not the engine's own.
_TORCH_OPTIMIZER_NAMES = frozenset("""
    OptimizerPostHook OptimizerPreHook __annotations__ __setstate__ _accelerator_graph_capture_health_check
    _cuda_graph_capture_health_check _group_tensors_by_device_and_dtype _init_group
    _optimizer_load_state_dict_post_hooks _optimizer_load_state_dict_pre_hooks _optimizer_state_dict_post_hooks
    _optimizer_state_dict_pre_hooks _optimizer_step_code _optimizer_step_post_hooks _optimizer_step_pre_hooks
    _patch_step_function _process_value_according_to_param_policy _warned_capturable_if_run_uncaptured
    _zero_grad_profile_name profile_hook_step register_load_state_dict_post_hook register_load_state_dict_pre_hook
    register_state_dict_post_hook register_state_dict_pre_hook register_step_post_hook register_step_pre_hook
    """.split())
_ENGINE_OPTIMIZER_NAMES = frozenset(
    '_CAPTURABLE _LOADED_DEFAULTS _STATE_WRITES _has_state _update __slotnames__'.split())


# the hooks of every optimizer's step (torch.optim.optimizer.register_optimizer_step_pre_hook / _post_hook)
_global_optimizer_pre_hooks, _global_optimizer_post_hooks = OrderedDict(), OrderedDict()


def _add_hook(hooks, hook, prepend=False):
    """Register `hook` in the dict `hooks` (first if prepend); its RemovableHandle."""
    handle = ag.RemovableHandle(hooks)
    hooks[handle.id] = hook
    if prepend:
        hooks.move_to_end(handle.id, last=False)
    return handle


def _register_optimizer_step_pre_hook(hook):
    """hook(optimizer, args, kwargs) before every optimizer's step."""
    return _add_hook(_global_optimizer_pre_hooks, hook)


def _register_optimizer_step_post_hook(hook):
    """hook(optimizer, args, kwargs) after every optimizer's step."""
    return _add_hook(_global_optimizer_post_hooks, hook)


def _or(result, value):
    """A hook's result, or `value` when it returned None."""
    return value if result is None else result


def _hooked_step(func):
    """An optimizer's step as PyTorch wraps it: the global, then the optimizer's pre-hooks (each may return new
    (args, kwargs) for the step), the step, then the optimizer's and the global post-hooks."""
    @wraps(func)
    def step(*args, **kwargs):
        self = args[0]
        for hook in chain(_global_optimizer_pre_hooks.values(), self._optimizer_step_pre_hooks.values()):
            result = hook(self, args, kwargs)
            if result is not None:
                if not (isinstance(result, tuple) and len(result) == 2):
                    raise RuntimeError(f'{func} must return None or a tuple of (new_args, new_kwargs), but got '
                                       f'{result}.')
                args, kwargs = result
        out = func(*args, **kwargs)
        for hook in chain(self._optimizer_step_post_hooks.values(), _global_optimizer_post_hooks.values()):
            hook(self, args, kwargs)
        return out
    step.hooked = True
    return step


class Optimizer:
    """Holds parameter groups (dicts of params and hyper-parameters) and per-parameter state."""

    def __dir__(self):
        return _TORCH_OPTIMIZER_NAMES.union(object.__dir__(self)).difference(_ENGINE_OPTIMIZER_NAMES)

    def __init__(self, params, defaults):
        self.defaults = defaults
        # the hooks registered on this optimizer, as PyTorch keeps them: {handle id: hook}, in calling order
        self._optimizer_step_pre_hooks, self._optimizer_step_post_hooks = OrderedDict(), OrderedDict()
        self._optimizer_state_dict_pre_hooks, self._optimizer_state_dict_post_hooks = OrderedDict(), OrderedDict()
        self._optimizer_load_state_dict_pre_hooks = OrderedDict()
        self._optimizer_load_state_dict_post_hooks = OrderedDict()
        self.state = defaultdict(dict)
        self.param_groups = []
        if isinstance(params, Tensor):
            raise TypeError('params argument given to the optimizer should be an iterable of Tensors or dicts, but '
                            'got ' + params.type())
        groups = list(params)
        if not groups:
            raise ValueError('optimizer got an empty parameter list')
        if not isinstance(groups[0], dict):
            groups = [{'params': groups}]
        for group in groups:
            self.add_param_group(group)

    def add_param_group(self, param_group):
        """Add a group of parameters, filling in the optimizer's defaults for hyper-parameters it leaves out. As in
        PyTorch, the caller's dict itself becomes the group (its 'params' made a list, the defaults added to it)."""
        if not isinstance(param_group, dict):
            raise TypeError(f'param_group must be a dict, but got {type(param_group)}')
        params = param_group['params']
        if isinstance(params, set):
            raise TypeError('optimizer parameters need to be organized in ordered collections, but the ordering of '
                            'tensors in sets will change between runs. Please use a list instead.')
        params = [params] if isinstance(params, Tensor) else list(params)
        names = [p[0] for p in params if isinstance(p, tuple)]          # (named_parameters(): the names kept)
        params = [p[1] if isinstance(p, tuple) else p for p in params]
        if names and len(names) != len(params):
            raise ValueError('all optimizer params should be with/without names. Some param names are missing')
        for p in params:
            if not isinstance(p, Tensor):
                raise TypeError('optimizer can only optimize Tensors, but one of the params is ' + _typename(p))
            if not self.defaults.get('differentiable') and not (p.is_leaf or p.retains_grad):
                raise ValueError("can't optimize a non-leaf Tensor")
        if len({id(p) for p in params}) != len(params):
            warnings.warn('optimizer contains a parameter group with duplicate parameters; in future, this will '
                          'cause an error; see github.com/pytorch/pytorch/issues/40967 for more information',
                          stacklevel=3)
        for g in self.param_groups:
            if bool(names) != ('param_names' in g):
                raise ValueError('all optimizer param groups should be with/without names. cannot add param group %s '
                                 'to the optimizer' % ('with names' if names else 'without names'))
        seen = {id(p) for g in self.param_groups for p in g['params']}
        if any(id(p) in seen for p in params):
            raise ValueError('some parameters appear in more than one parameter group')
        group = param_group
        group['params'] = params
        if names:
            group['param_names'] = names
        for k, v in self.defaults.items():
            group.setdefault(k, v)
        self.param_groups.append(group)

    def zero_grad(self, set_to_none=True):
        """Forget the gradients (None by default, as in PyTorch 2.x; else zero them in place)."""
        for group in self.param_groups:
            for p in group['params']:
                _zero_grad(p, set_to_none)

    def step(self, closure=None):
        """One update of every parameter that has a gradient; `closure` re-evaluates the loss first."""
        loss = None
        if closure is not None:
            with ag.enable_grad():
                loss = closure()
        with ag.no_grad():
            for group in self.param_groups:
                if group.get('capturable') and any(p._grad is not None for p in group['params']):
                    # (PyTorch's capturable updates run on accelerators only; its state is started first, not here)
                    raise AssertionError('If capturable=True, %s must be on supported devices: %s.' % self._CAPTURABLE)
                if isinstance(group['lr'], Tensor):         # (a tensor lr: see _scalar)
                    group = dict(group, lr=group['lr'].reshape(()))
                for p in group['params']:
                    if p._grad is not None:
                        if self.defaults.get('differentiable') and p.requires_grad:
                            # (PyTorch runs a differentiable step with grad mode on: updating a leaf fails)
                            raise RuntimeError('a leaf Variable that requires grad is being used in an in-place '
                                               'operation.')
                        g = p._grad._data                   # (a weight's grad may arrive transposed)
                        g = g if g.flags.c_contiguous else g.copy()
                        before = _versions(p, self.state.get(p, {})) if group.get('fused') else None
                        self._update(p, g, group, self.state[p] if self._has_state(group) else None)
                        if self._STATE_WRITES:
                            _count_writes(self.state[p], self._STATE_WRITES)
                        if before is not None:          # (PyTorch's fused kernels bump no versions)
                            for t in _versions(p, self.state.get(p, {})):
                                ag.counter(t).value = before.get(t, 0)
        return loss

    def __init_subclass__(cls, **kwargs):
        """Each optimizer gets a step of its own, as PyTorch's have (print(opt.step) shows SGD.step), which runs
        the step hooks around it (a subclass's own step too, as PyTorch wraps it)."""
        super().__init_subclass__(**kwargs)
        if cls.step is Optimizer.step:
            def step(self, closure=None):
                return Optimizer.step(self, closure)
            step.__qualname__, step.__doc__ = cls.__name__ + '.step', Optimizer.step.__doc__
            cls.step = step
        if 'step' in cls.__dict__ and not getattr(cls.step, 'hooked', False):
            cls.step = _hooked_step(cls.step)

    def register_step_pre_hook(self, hook):
        """hook(optimizer, args, kwargs) before each step; it may return new (args, kwargs)."""
        return _add_hook(self._optimizer_step_pre_hooks, hook)

    def register_step_post_hook(self, hook):
        """hook(optimizer, args, kwargs) after each step."""
        return _add_hook(self._optimizer_step_post_hooks, hook)

    def register_state_dict_pre_hook(self, hook, prepend=False):
        """hook(optimizer) before state_dict() builds its dict."""
        return _add_hook(self._optimizer_state_dict_pre_hooks, hook, prepend)

    def register_state_dict_post_hook(self, hook, prepend=False):
        """hook(optimizer, state_dict) on state_dict()'s result; it may return another dict."""
        return _add_hook(self._optimizer_state_dict_post_hooks, hook, prepend)

    def register_load_state_dict_pre_hook(self, hook, prepend=False):
        """hook(optimizer, state_dict) before load_state_dict() reads it; it may return another dict."""
        return _add_hook(self._optimizer_load_state_dict_pre_hooks, hook, prepend)

    def register_load_state_dict_post_hook(self, hook, prepend=False):
        """hook(optimizer) after load_state_dict()."""
        return _add_hook(self._optimizer_load_state_dict_post_hooks, hook, prepend)

    def _has_state(self, group):
        """Whether an update keeps per-parameter state (SGD without momentum keeps none)."""
        return True

    # How many in-place ops PyTorch's update runs on each state tensor per step: each bumps the tensor's version
    # (the updates here write the state's numpy arrays directly).
    _STATE_WRITES = {}

    # what PyTorch's capturable=True update asserts is on one of these devices (it runs on none of them here)
    _CAPTURABLE = ('params and state_steps', ['cuda', 'xpu', 'hpu', 'privateuseone', 'xla'])

    def __getstate__(self):
        """What a pickle or deepcopy keeps, as PyTorch's: not the hooks (nor anything else set on the optimizer)."""
        return {'defaults': self.defaults, 'state': self.state, 'param_groups': self.param_groups}

    def __setstate__(self, state):
        self.__dict__.update(state)
        for name in ('_optimizer_step_pre_hooks', '_optimizer_step_post_hooks', '_optimizer_state_dict_pre_hooks',
                     '_optimizer_state_dict_post_hooks', '_optimizer_load_state_dict_pre_hooks',
                     '_optimizer_load_state_dict_post_hooks'):
            self.__dict__.setdefault(name, OrderedDict())
        self.defaults.setdefault('differentiable', False)

    def state_dict(self):
        for hook in self._optimizer_state_dict_pre_hooks.values():
            hook(self)
        index = {id(p): i for i, p in enumerate(p for g in self.param_groups for p in g['params'])}
        # (each parameter's state dict itself, as PyTorch's: a key added to it shows in the optimizer's state)
        state_dict = {'state': {(index[id(p)] if isinstance(p, Tensor) else p): s for p, s in self.state.items()},
                      'param_groups': [dict([(k, v) for k, v in g.items() if k != 'params'],
                                            params=[index[id(p)] for p in g['params']]) for g in self.param_groups]}
        for hook in self._optimizer_state_dict_post_hooks.values():
            state_dict = _or(hook(self, state_dict), state_dict)
        return state_dict

    def load_state_dict(self, state_dict):
        """Take the hyper-parameters and per-parameter state of state_dict() (copies; state in each parameter's
        dtype but the step count), matched to this optimizer's parameters by position."""
        state_dict = state_dict.copy()      # (a shallow copy for the hooks, as PyTorch's)
        for hook in self._optimizer_load_state_dict_pre_hooks.values():
            state_dict = _or(hook(self, state_dict), state_dict)
        saved = state_dict['param_groups']
        if len(saved) != len(self.param_groups):
            raise ValueError('loaded state dict has a different number of parameter groups')
        if any(len(s['params']) != len(g['params']) for s, g in zip(saved, self.param_groups)):
            raise ValueError("loaded state dict contains a parameter group that doesn't match the size of optimizer's "
                             "group")
        params = {i: p for s, g in zip(saved, self.param_groups) for i, p in zip(s['params'], g['params'])}
        self.state = defaultdict(dict)
        for i, values in state_dict['state'].items():
            p = params[i]
            self.state[p] = {k: (v.clone() if k == 'step' else v.to(p.dtype).clone()) if isinstance(v, Tensor) else v
                             for k, v in values.items()}
        self.param_groups = [dict(s, params=g['params'], **({'param_names': g['param_names']}
                                                            if 'param_names' in g and 'param_names' not in s else {}))
                             for s, g in zip(saved, self.param_groups)]
        for group in self.param_groups:         # (each optimizer's __setstate__: options older state dicts lack)
            for k, v in self._LOADED_DEFAULTS:
                group.setdefault(k, v)
        for hook in self._optimizer_load_state_dict_post_hooks.values():
            hook(self)

    # (option, default) pairs a loaded group gets if it lacks them, in the order PyTorch's __setstate__ adds them
    _LOADED_DEFAULTS = ()

    def __repr__(self):
        text = type(self).__name__ + ' ('
        for i, group in enumerate(self.param_groups):
            text += '\nParameter Group %d\n' % i
            for key in sorted(group):
                if key != 'params':
                    text += '    {}: {}\n'.format(key, group[key])   # (a 0-d tensor lr shows its number)
        return text + ')'


def _check(value, what):
    if not 0.0 <= value:
        raise ValueError('Invalid %s: %s' % (what, value))


def _check_below(value, what):
    """SGD's form of the check (`value < 0.0`: a nan passes)."""
    if value < 0.0:
        raise ValueError('Invalid %s: %s' % (what, value))


def _check_lr(lr, check=_check):
    if isinstance(lr, Tensor) and lr.numel() != 1:
        raise ValueError('Tensor lr must be 1-element')
    check(lr, 'learning rate')


def _check_fused(group):
    """The options a fused optimizer (SGD, Adam, AdamW, Adagrad) refuses alongside fused=True."""
    if group['fused']:
        if group['differentiable']:
            raise RuntimeError('`fused` does not support `differentiable`')
        if group['foreach']:
            raise RuntimeError('`fused` and `foreach` cannot be `True` together.')


def _check_betas(betas):
    for i in (0, 1):                        # (one beta only: IndexError, as PyTorch's betas[1])
        if not 0.0 <= betas[i] < 1.0:
            raise ValueError('Invalid beta parameter at index %d: %s' % (i, betas[i]))


def _start(state, p, *names, sum=None, **numbers):
    """A parameter's first state, in PyTorch's key order: a 0-d `step`, other 0-d numbers (float32, float64 when that
    is the default dtype), then a zero tensor like the parameter for each name (Adagrad's `sum`: one filled with
    that number)."""
    scalar = np.float64 if dt.default_float is dt.float64 else np.float32
    state['step'] = make(np.array(0.0, scalar))
    for k, v in numbers.items():
        state[k] = make(np.array(v, scalar))
    if sum is not None:
        state['sum'] = make(np.full_like(p._data, sum))
    for k in names:
        state[k] = make(np.zeros_like(p._data))


def _versions(p, state):
    """{tensor: version} of a parameter and its state tensors but the step count: what a fused step (fused=True)
    leaves as they were, as PyTorch's fused kernels write them in place without bumping their versions."""
    return {t: ag.counter(t).value for k, t in (('', p), *state.items()) if k != 'step' and isinstance(t, Tensor)}


def _count_writes(state, writes):
    """Bump each state tensor's version by its number of in-place writes in one PyTorch step."""
    for k, n in writes.items():
        t = state.get(k)
        if t is not None:
            ag.counter(t).value += n


def _next_step(state):
    """state['step'] += 1; the new count as a number."""
    state['step']._data += 1
    return state['step'].item()


def _scalar(v):
    """A number PyTorch's update hands a kernel as a Scalar (alpha=, value=): with a tensor lr (a 1-element tensor
    read as 0-d) the step sizes are computed from it in tensor arithmetic, in its dtype, and then read as numbers."""
    return v.item() if isinstance(v, Tensor) else v


def _grad(p, g, group):
    """The gradient an update uses: negated with maximize, plus weight_decay * param; with decoupled_weight_decay
    (AdamW's way) the parameter is shrunk by lr * weight_decay instead."""
    if group['maximize']:
        g = -g
    wd = group.get('weight_decay', 0)
    if wd != 0:
        if group.get('decoupled_weight_decay'):
            p._data *= _scalar(1 - group['lr'] * wd)
            _bump(p)
        else:
            g = _fma(g, wd, p._data)
    return g


def _lerp_(a, b, weight):
    """a.lerp_(b, weight) for weight < 0.5: a + weight * (b - a), fused."""
    _fma(a, weight, b - a, out=a)


def _average_square_(v, g, beta):
    """v.mul_(beta).addcmul_(g, g, value=1 - beta): a running average of g ** 2."""
    v *= beta
    _fma(v, (1 - beta) * g, g, out=v)


def _add_(p, alpha, g):
    """p.add_(g, alpha=alpha), fused."""
    _fma(p._data, _scalar(alpha), g, out=p._data)
    _bump(p)


def _addcdiv_(p, value, a, b):
    """p.addcdiv_(a, b, value=value): p + value * a / b."""
    p._data += _scalar(value) * a / b
    _bump(p)


class SGD(Optimizer):
    """Stochastic gradient descent, with optional momentum (heavy-ball or Nesterov) and weight decay."""

    _LOADED_DEFAULTS = (('nesterov', False), ('maximize', False), ('foreach', None), ('differentiable', False),
                        ('fused', False))

    def __init__(self, params, lr=1e-3, momentum=0, dampening=0, weight_decay=0, nesterov=False, *,
                 maximize=False, foreach=None, differentiable=False, fused=None):
        _check_lr(lr, _check_below)
        _check_below(momentum, 'momentum value')
        _check_below(weight_decay, 'weight_decay value')
        if nesterov and (momentum <= 0 or dampening != 0):
            raise ValueError('Nesterov momentum requires a momentum and zero dampening')
        super().__init__(params, dict(lr=lr, momentum=momentum, dampening=dampening, weight_decay=weight_decay,
                                      nesterov=nesterov, maximize=maximize, foreach=foreach,
                                      differentiable=differentiable, fused=fused))
        _check_fused(self.defaults)

    def _has_state(self, group):
        return group['momentum'] != 0

    def _update(self, p, g, group, state):
        g = _grad(p, g, group)
        momentum = group['momentum']
        if momentum != 0:
            buf = state.get('momentum_buffer')
            if buf is None:
                buf = state['momentum_buffer'] = make(g.copy())
            else:
                buf._data *= _scalar(momentum)         # (a tensor momentum: one a scheduler set)
                _fma(buf._data, 1 - group['dampening'], g, out=buf._data)
                _count_writes(state, {'momentum_buffer': 2})      # (buf.mul_(momentum).add_(grad, ...))
            if group['nesterov']:
                if isinstance(momentum, Tensor) and momentum.requires_grad:     # (grad.add(buf, alpha=momentum))
                    raise TypeError("add(): argument 'alpha' must be Number, not Tensor")
                g = _fma(g, _scalar(momentum), buf._data)
            else:
                g = buf._data
        _add_(p, -group['lr'], g)


class Adam(Optimizer):
    """Adam: steps scaled by running averages of the gradient and its square (bias-corrected)."""

    _STATE_WRITES = {'step': 1, 'exp_avg': 1, 'exp_avg_sq': 2, 'max_exp_avg_sq': 1}

    _LOADED_DEFAULTS = (('amsgrad', False), ('maximize', False), ('foreach', None), ('capturable', False),
                        ('differentiable', False), ('decoupled_weight_decay', False), ('fused', None))

    def __init__(self, params, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=0, amsgrad=False, *,
                 foreach=None, maximize=False, capturable=False, differentiable=False, fused=None,
                 decoupled_weight_decay=False):
        if isinstance(lr, Tensor) and foreach and not capturable:
            raise ValueError('lr as a Tensor is not supported for capturable=False and foreach=True')
        _check_lr(lr)
        _check(eps, 'epsilon value')
        _check_betas(betas)
        _check(weight_decay, 'weight_decay value')
        if not (all(isinstance(b, float) for b in betas[:2]) or all(isinstance(b, Tensor) for b in betas[:2])):
            raise ValueError('betas must be either both floats or both Tensors')
        betas = tuple(betas)                # (Adam's betas are a tuple, given as a list or not)
        super().__init__(params, dict(lr=lr, betas=betas, eps=eps, weight_decay=weight_decay, amsgrad=amsgrad,
                                      maximize=maximize, foreach=foreach, capturable=capturable,
                                      differentiable=differentiable, fused=fused,
                                      decoupled_weight_decay=decoupled_weight_decay))
        _check_fused(self.defaults)

    def _update(self, p, g, group, state):
        if not state:
            _start(state, p, 'exp_avg', 'exp_avg_sq', *['max_exp_avg_sq'] * group['amsgrad'])
        lr, (beta1, beta2) = group['lr'], group['betas']
        if isinstance(beta1, Tensor):       # (PyTorch's update then does the betas' arithmetic in their dtype, as
            beta1 = beta1._data.reshape(())     # tensors; a scheduler's cycle_momentum makes beta1 one alone)
        tensor_betas = isinstance(beta2, Tensor)
        if tensor_betas:
            beta2 = beta2._data.reshape(())
        g = _grad(p, g, group)
        step = _next_step(state)
        m, v = state['exp_avg']._data, state['exp_avg_sq']._data
        _lerp_(m, g, 1 - beta1)
        _average_square_(v, g, beta2)
        step_size = lr / (1 - beta1 ** step)
        bc2_sqrt = np.sqrt(1 - beta2 ** step) if tensor_betas else math.sqrt(1 - beta2 ** step)
        if group['amsgrad']:
            mx = state['max_exp_avg_sq']._data
            np.maximum(mx, v, out=mx)
            v = mx
        _addcdiv_(p, -step_size, m, np.sqrt(v) / bc2_sqrt + group['eps'])


class AdamW(Adam):
    """Adam with weight decay applied to the weights directly (decoupled), default weight_decay 0.01."""

    _LOADED_DEFAULTS = tuple((k, True if k == 'decoupled_weight_decay' else v) for k, v in Adam._LOADED_DEFAULTS)

    def __init__(self, params, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=1e-2, amsgrad=False, *,
                 maximize=False, foreach=None, capturable=False, differentiable=False, fused=None):
        super().__init__(params, lr, betas, eps, weight_decay, amsgrad, foreach=foreach, maximize=maximize,
                         capturable=capturable, differentiable=differentiable, fused=fused,
                         decoupled_weight_decay=True)


class RMSprop(Optimizer):
    """RMSprop: steps divided by the root of a running average of the squared gradient (optionally centered, with
    momentum and weight decay)."""

    _STATE_WRITES = {'step': 1, 'square_avg': 2, 'grad_avg': 1, 'momentum_buffer': 2}

    _LOADED_DEFAULTS = (('momentum', 0), ('centered', False), ('foreach', None), ('maximize', False),
                        ('differentiable', False), ('capturable', False))

    def __init__(self, params, lr=1e-2, alpha=0.99, eps=1e-8, weight_decay=0, momentum=0, centered=False,
                 capturable=False, foreach=None, maximize=False, differentiable=False):
        _check_lr(lr)
        _check(eps, 'epsilon value')
        _check(momentum, 'momentum value')
        _check(weight_decay, 'weight_decay value')
        _check(alpha, 'alpha value')
        super().__init__(params, dict(lr=lr, momentum=momentum, alpha=alpha, eps=eps, centered=centered,
                                      weight_decay=weight_decay, capturable=capturable, foreach=foreach,
                                      maximize=maximize, differentiable=differentiable))

    def _update(self, p, g, group, state):
        if not state:
            _start(state, p, 'square_avg', *['momentum_buffer'] * (group['momentum'] > 0),
                   *['grad_avg'] * group['centered'])
        alpha = group['alpha']
        g = _grad(p, g, group)
        _next_step(state)
        v = state['square_avg']._data
        _average_square_(v, g, alpha)
        if group['centered']:
            ga = state['grad_avg']._data
            _lerp_(ga, g, 1 - alpha)
            avg = np.sqrt(_fma(v, -ga, ga))                # square_avg.addcmul(grad_avg, grad_avg, value=-1).sqrt_()
        else:
            avg = np.sqrt(v)
        avg += group['eps']
        if group['momentum'] > 0:
            buf = state['momentum_buffer']._data
            buf *= _scalar(group['momentum'])
            buf += g / avg                                 # buf.mul_(momentum).addcdiv_(grad, avg)
            _add_(p, -group['lr'], buf)
        else:
            _addcdiv_(p, -group['lr'], g, avg)


class Adagrad(Optimizer):
    """Adagrad: steps divided by the root of the sum of all squared gradients so far (learning rate decaying with
    lr_decay)."""

    _STATE_WRITES = {'step': 1, 'sum': 1}

    _LOADED_DEFAULTS = (('foreach', None), ('maximize', False), ('differentiable', False), ('fused', None))

    def __init__(self, params, lr=1e-2, lr_decay=0, weight_decay=0, initial_accumulator_value=0, eps=1e-10,
                 foreach=None, *, maximize=False, differentiable=False, fused=None):
        _check_lr(lr)
        _check(lr_decay, 'lr_decay value')
        _check(weight_decay, 'weight_decay value')
        _check(initial_accumulator_value, 'initial_accumulator_value value')
        _check(eps, 'epsilon value')
        super().__init__(params, dict(lr=lr, lr_decay=lr_decay, eps=eps, weight_decay=weight_decay,
                                      initial_accumulator_value=initial_accumulator_value, foreach=foreach,
                                      maximize=maximize, differentiable=differentiable, fused=fused))
        _check_fused(self.defaults)
        for group in self.param_groups:                    # (Adagrad's state exists from the start)
            for p in group['params']:
                _start(self.state[p], p, sum=group['initial_accumulator_value'])

    def _update(self, p, g, group, state):
        if not state:               # (a parameter of a group added later: its state made at its first step, filled
            _start(state, p, sum=self.defaults['initial_accumulator_value'])    # with the optimizer's default)
        step = _next_step(state)
        g = _grad(p, g, group)
        clr = group['lr'] / (1 + (step - 1) * group['lr_decay'])
        s = state['sum']._data
        _fma(s, g, g, out=s)                               # state_sum.addcmul_(grad, grad, value=1)
        std = np.sqrt(s)
        std += group['eps']
        _addcdiv_(p, -clr, g, std)


class NAdam(Optimizer):
    """NAdam: Adam with Nesterov momentum, the momentum coefficient warming up by momentum_decay."""

    _STATE_WRITES = {'step': 1, 'mu_product': 1, 'exp_avg': 1, 'exp_avg_sq': 2}
    _CAPTURABLE = ('params, mu_products and state_steps', Optimizer._CAPTURABLE[1])

    _LOADED_DEFAULTS = (('maximize', False), ('foreach', None), ('capturable', False), ('differentiable', False),
                        ('decoupled_weight_decay', False))

    def __init__(self, params, lr=2e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=0, momentum_decay=4e-3,
                 decoupled_weight_decay=False, *, foreach=None, maximize=False, capturable=False,
                 differentiable=False):
        _check_lr(lr)
        _check(eps, 'epsilon value')
        _check_betas(betas)
        _check(weight_decay, 'weight_decay value')
        _check(momentum_decay, 'momentum_decay value')
        super().__init__(params, dict(lr=lr, betas=betas, eps=eps, weight_decay=weight_decay,
                                      momentum_decay=momentum_decay, decoupled_weight_decay=decoupled_weight_decay,
                                      maximize=maximize, foreach=foreach, capturable=capturable,
                                      differentiable=differentiable))

    def _update(self, p, g, group, state):
        if not state:
            _start(state, p, 'exp_avg', 'exp_avg_sq', mu_product=1.0)
        lr, (beta1, beta2), decay = group['lr'], group['betas'], group['momentum_decay']
        if isinstance(beta1, Tensor):       # (set by a scheduler's cycle_momentum: its arithmetic in its dtype)
            beta1 = beta1._data.reshape(())
        step = _next_step(state)
        g = _grad(p, g, group)
        mu = beta1 * (1.0 - 0.5 * 0.96 ** (step * decay))
        mu_next = beta1 * (1.0 - 0.5 * 0.96 ** ((step + 1) * decay))
        state['mu_product']._data *= mu
        mu_product = state['mu_product'].item()
        m, v = state['exp_avg']._data, state['exp_avg_sq']._data
        _lerp_(m, g, 1 - beta1)
        _average_square_(v, g, beta2)
        denom = np.sqrt(v / (1 - beta2 ** step))
        denom += group['eps']
        _addcdiv_(p, -lr * (1.0 - mu) / (1.0 - mu_product), g, denom)
        _addcdiv_(p, -lr * mu_next / (1.0 - mu_product * mu_next), m, denom)


class RAdam(Optimizer):
    """RAdam: Adam whose adaptive step is rectified by the variance of its estimate (plain momentum steps while that
    is too uncertain, the first few steps)."""

    _STATE_WRITES = {'step': 1, 'exp_avg': 1, 'exp_avg_sq': 2}

    _LOADED_DEFAULTS = (('foreach', None), ('maximize', False), ('differentiable', False),
                        ('decoupled_weight_decay', False), ('capturable', False))

    def __init__(self, params, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=0, decoupled_weight_decay=False,
                 *, foreach=None, maximize=False, capturable=False, differentiable=False):
        _check_lr(lr)
        _check(eps, 'epsilon value')
        _check_betas(betas)
        _check(weight_decay, 'weight_decay value')
        super().__init__(params, dict(lr=lr, betas=betas, eps=eps, weight_decay=weight_decay, maximize=maximize,
                                      foreach=foreach, capturable=capturable,
                                      decoupled_weight_decay=decoupled_weight_decay, differentiable=differentiable))

    def _update(self, p, g, group, state):
        if not state:
            _start(state, p, 'exp_avg', 'exp_avg_sq')
        lr, (beta1, beta2) = group['lr'], group['betas']
        if isinstance(beta1, Tensor):       # (set by a scheduler's cycle_momentum: its arithmetic in its dtype)
            beta1 = beta1._data.reshape(())
        g = _grad(p, g, group)
        step = _next_step(state)
        m, v = state['exp_avg']._data, state['exp_avg_sq']._data
        _lerp_(m, g, 1 - beta1)
        _average_square_(v, g, beta2)
        bias_correction2 = 1 - beta2 ** step
        update = m / (1 - beta1 ** step) * _scalar(lr)
        rho_inf = 2 / (1 - beta2) - 1
        rho_t = rho_inf - 2 * step * beta2 ** step / bias_correction2
        if rho_t > 5.0:
            rect = ((rho_t - 4) * (rho_t - 2) * rho_inf / ((rho_inf - 4) * (rho_inf - 2) * rho_t)) ** 0.5
            root = np.sqrt(v)
            root += group['eps']
            update = update * (np.reciprocal(root) * bias_correction2 ** 0.5) * rect
        p._data -= update
        _bump(p)


class Adamax(Optimizer):
    """Adamax: Adam with the root mean square replaced by a decaying maximum of |gradient|."""

    _STATE_WRITES = {'step': 1, 'exp_avg': 1, 'exp_inf': 2}

    _LOADED_DEFAULTS = (('foreach', None), ('maximize', False), ('differentiable', False), ('capturable', False))

    def __init__(self, params, lr=2e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=0, foreach=None, *,
                 maximize=False, differentiable=False, capturable=False):
        _check_lr(lr)
        _check(eps, 'epsilon value')
        _check_betas(betas)
        _check(weight_decay, 'weight_decay value')
        super().__init__(params, dict(lr=lr, betas=betas, eps=eps, weight_decay=weight_decay, foreach=foreach,
                                      maximize=maximize, differentiable=differentiable, capturable=capturable))

    def _update(self, p, g, group, state):
        if not state:
            _start(state, p, 'exp_avg', 'exp_inf')
        beta1, beta2 = group['betas']
        g = _grad(p, g, group)
        step = _next_step(state)
        m, u = state['exp_avg']._data, state['exp_inf']._data
        _lerp_(m, g, 1 - beta1)
        u *= beta2
        np.maximum(u, np.abs(g) + group['eps'], out=u)
        _addcdiv_(p, -group['lr'] / (1 - beta1 ** step), m, u)


class Adadelta(Optimizer):
    """Adadelta: steps of RMS(past steps) / RMS(gradients) times the gradient, scaled by lr (1 by default)."""

    _STATE_WRITES = {'step': 1, 'square_avg': 2, 'acc_delta': 2}
    _CAPTURABLE = ('params and state_steps', ['cuda', 'xpu', 'hpu', 'privateuseone'])

    _LOADED_DEFAULTS = (('foreach', None), ('maximize', False), ('differentiable', False), ('capturable', False))

    def __init__(self, params, lr=1.0, rho=0.9, eps=1e-6, weight_decay=0, foreach=None, *, capturable=False,
                 maximize=False, differentiable=False):
        _check_lr(lr)
        if not 0.0 <= rho <= 1.0:
            raise ValueError('Invalid rho value: %s' % rho)
        _check(eps, 'epsilon value')
        _check(weight_decay, 'weight_decay value')
        super().__init__(params, dict(lr=lr, rho=rho, eps=eps, weight_decay=weight_decay, maximize=maximize,
                                      capturable=capturable, foreach=foreach, differentiable=differentiable))

    def _update(self, p, g, group, state):
        if not state:
            _start(state, p, 'square_avg', 'acc_delta')
        rho, eps = group['rho'], group['eps']
        _next_step(state)
        g = _grad(p, g, group)
        v, acc = state['square_avg']._data, state['acc_delta']._data
        _average_square_(v, g, rho)
        delta = np.sqrt(acc + eps) / np.sqrt(v + eps) * g
        _average_square_(acc, delta, rho)
        _add_(p, -group['lr'], delta)


class Rprop(Optimizer):
    """Rprop: each weight moves against the sign of its gradient by a step of its own, grown by etas[1] while the
    sign holds and shrunk by etas[0] when it flips (then that gradient counts as zero), within step_sizes."""

    _STATE_WRITES = {'step': 1, 'prev': 1, 'step_size': 2}

    _LOADED_DEFAULTS = (('foreach', None), ('maximize', False), ('differentiable', False), ('capturable', False))

    def __init__(self, params, lr=1e-2, etas=(0.5, 1.2), step_sizes=(1e-6, 50), *, capturable=False, foreach=None,
                 maximize=False, differentiable=False):
        _check_lr(lr)
        if not 0.0 < etas[0] < 1.0 < etas[1]:
            raise ValueError('Invalid eta values: %s, %s' % (etas[0], etas[1]))
        super().__init__(params, dict(lr=lr, etas=etas, step_sizes=step_sizes, foreach=foreach, maximize=maximize,
                                      differentiable=differentiable, capturable=capturable))

    def _update(self, p, g, group, state):
        if not state:
            _start(state, p, 'prev')
            state['step_size'] = make(np.full_like(g, _scalar(group['lr'])))
        etaminus, etaplus = group['etas']
        g = _grad(p, g, group)
        _next_step(state)
        prev, step_size = state['prev']._data, state['step_size']._data
        sign = _sign(g * prev)
        sign[sign > 0] = etaplus
        sign[sign < 0] = etaminus
        sign[sign == 0] = 1
        step_size *= sign
        np.clip(step_size, *group['step_sizes'], out=step_size)
        g = g.copy()
        g[sign == etaminus] = 0
        p._data -= _sign(g) * step_size
        _bump(p)
        prev[...] = g


def _sign(a):
    """torch.sign: (a > 0) - (a < 0), so 0 for a NaN (numpy's sign gives NaN)."""
    return (a > 0).astype(a.dtype) - (a < 0)


class ASGD(Optimizer):
    """Averaged SGD: SGD with a decaying step eta (and weights shrunk by lambd * eta), keeping in state['ax'] the
    average of the parameters since step t0."""

    _STATE_WRITES = {'step': 1, 'eta': 1, 'mu': 1, 'ax': 1}
    _CAPTURABLE = ('params, mus, etas, and state_steps', Optimizer._CAPTURABLE[1])

    _LOADED_DEFAULTS = (('foreach', None), ('maximize', False), ('differentiable', False), ('capturable', False))

    def __init__(self, params, lr=1e-2, lambd=1e-4, alpha=0.75, t0=1e6, weight_decay=0, foreach=None, maximize=False,
                 differentiable=False, capturable=False):
        _check_lr(lr)
        _check(weight_decay, 'weight_decay value')
        super().__init__(params, dict(lr=lr, lambd=lambd, alpha=alpha, t0=t0, weight_decay=weight_decay,
                                      foreach=foreach, maximize=maximize, differentiable=differentiable,
                                      capturable=capturable))

    def _update(self, p, g, group, state):
        if not state:
            _start(state, p, 'ax', eta=_scalar(group['lr']), mu=1.0)
        lr, lambd = group['lr'], group['lambd']
        g = _grad(p, g, group)
        step = _next_step(state)
        eta, mu, ax = state['eta']._data, state['mu']._data, state['ax']._data
        p._data *= 1 - lambd * eta.item()
        _bump(p)
        _add_(p, -eta.item(), g)
        if mu != 1:
            ax += (p._data - ax) * mu
        else:
            ax[...] = p._data
        eta[...] = _scalar(lr / (1 + lambd * lr * step) ** group['alpha'])
        mu[...] = 1 / max(1, step - group['t0'])


class Adafactor(Optimizer):
    """Adafactor: Adam-like steps whose second moment of a matrix is kept factored (a running mean of the squares of
    each row and of each column); the update is PyTorch's single-tensor one, in the engine's own tensor ops."""

    _LOADED_DEFAULTS = (('foreach', None),)

    def __init__(self, params, lr=1e-2, beta2_decay=-0.8, eps=(None, 1e-3), d=1.0, weight_decay=0.0, *,
                 foreach=None, maximize=False):
        if isinstance(lr, Tensor) and lr.numel() != 1:
            raise ValueError('Tensor lr must be 1-element')
        for ok, what, value in ((0.0 <= lr, 'Learning rate should be >= 0', lr),
                                (0.0 >= beta2_decay, 'beta2_decay should be <= 0', beta2_decay),
                                (eps[0] is None or 0.0 <= eps[0], 'epsilon1 should be >= 0', eps[0]),
                                (0.0 <= eps[1], 'epsilon2 should be >= 0', eps[1]),
                                (1.0 <= d, 'Clipping threshold d should be >= 1', d),
                                (0.0 <= weight_decay, 'weight_decay should be >= 0', weight_decay)):
            if not ok:
                raise ValueError(f'{what} but is: {value}')
        super().__init__(params, dict(lr=lr, beta2_decay=beta2_decay, eps=eps, d=d, weight_decay=weight_decay,
                                      foreach=foreach, maximize=maximize))

    def _update(self, p, g, group, state):
        grad = p._grad
        if not state:
            _start(state, p)
            if grad.dim() > 1:
                state['row_var'] = grad.new_zeros([*grad.shape[:-1], 1])
                state['col_var'] = grad.new_zeros([*grad.shape[:-2], 1, grad.shape[-1]])
            else:
                state['variance'] = grad.new_zeros(grad.shape)
        if group['maximize']:
            grad = -grad
        lr, (eps1, eps2), d, weight_decay = group['lr'], group['eps'], group['d'], group['weight_decay']
        if eps1 is None:
            eps1 = float(np.finfo(p._data.dtype).eps)
        state['step'] += 1
        step = state['step'].item()
        one_minus_beta2_t = step ** group['beta2_decay']
        rho_t = min(lr, 1 / (step ** 0.5))
        alpha = max(eps2, p.norm(2).item() / (p.numel() ** 0.5)) * rho_t
        if weight_decay != 0:
            p.mul_(1 - lr * weight_decay)
        if grad.dim() > 1:
            row_var, col_var = state['row_var'], state['col_var']
            row_var.lerp_(grad.norm(dim=-1, keepdim=True).square_().div_(grad.size(-1)), one_minus_beta2_t)
            col_var.lerp_(grad.norm(dim=-2, keepdim=True).square_().div_(grad.size(-2)), one_minus_beta2_t)
            var_estimate = row_var @ col_var
            var_estimate.div_(row_var.mean(dim=-2, keepdim=True).clamp_(min=eps1))
        else:
            state['variance'].lerp_(grad * grad, one_minus_beta2_t)
            var_estimate = state['variance'].clone()
        update = var_estimate.clamp_(min=eps1 * eps1).rsqrt_()
        update.mul_(grad)
        denom = max(1.0, update.norm(2).item() / ((update.numel() ** 0.5) * d))
        p.add_(update, alpha=-alpha / denom)


def _number(loss):
    """float(loss), without the warning the engine's float() gives outside grad mode (PyTorch's does not)."""
    return float(loss.detach() if isinstance(loss, Tensor) else loss)


def _add_scaled(t, alpha, other):
    """t.add_(other, alpha=alpha) as PyTorch computes it (one rounding: a fused multiply-add), alpha a number or a
    0-d tensor (which PyTorch reads as its number)."""
    _add_(t, float(alpha), other._data.reshape(t._data.shape))


class LBFGS(Optimizer):
    """L-BFGS: quasi-Newton steps from the last `history_size` changes of parameters and gradients, with a fixed
    step (lr) or a strong-Wolfe line search; step() needs a closure that re-evaluates the loss and its gradients.
    The parameters are handled as one flat vector, in PyTorch's order of operations and closure calls."""

    def __init__(self, params, lr=1, max_iter=20, max_eval=None, tolerance_grad=1e-7, tolerance_change=1e-9,
                 history_size=100, line_search_fn=None):
        _check_lr(lr)
        if max_eval is None:
            max_eval = max_iter * 5 // 4
        super().__init__(params, dict(lr=lr, max_iter=max_iter, max_eval=max_eval, tolerance_grad=tolerance_grad,
                                      tolerance_change=tolerance_change, history_size=history_size,
                                      line_search_fn=line_search_fn))
        if len(self.param_groups) != 1:
            raise ValueError("LBFGS doesn't support per-parameter options (parameter groups)")
        self._params = self.param_groups[0]['params']

    def _flat_grad(self):
        """All gradients as one vector (zeros for a parameter without one)."""
        from ._ops import cat
        return cat([p.new_zeros(p.numel()) if p.grad is None else p.grad.reshape(-1) for p in self._params], 0)

    def _move(self, step, direction):
        """parameters += step * direction (direction flat, in parameter order)."""
        offset = 0
        for p in self._params:
            _add_scaled(p, step, direction[offset:offset + p.numel()])
            offset += p.numel()

    def _evaluate_at(self, closure, start, step, direction):
        """(loss, flat gradient) at start + step * direction; the parameters go back to start afterwards."""
        self._move(step, direction)
        loss = _number(closure())
        flat_grad = self._flat_grad()
        for p, x in zip(self._params, start):
            p.copy_(x)
        return loss, flat_grad

    def step(self, closure):
        """Up to max_iter L-BFGS iterations (max_eval closure calls); returns the loss of the first call."""
        with ag.no_grad():
            return self._step(closure)

    def _step(self, closure):
        def evaluate():
            with ag.enable_grad():
                return closure()
        group = self.param_groups[0]
        lr = group['lr'].item() if isinstance(group['lr'], Tensor) else group['lr']
        max_iter, max_eval, tol_change = group['max_iter'], group['max_eval'], group['tolerance_change']
        state = self.state[self._params[0]]
        state.setdefault('func_evals', 0)
        state.setdefault('n_iter', 0)

        orig_loss = evaluate()
        loss = _number(orig_loss)
        evals = 1
        state['func_evals'] += 1
        flat_grad = self._flat_grad()
        if flat_grad.abs().max() <= group['tolerance_grad']:
            return orig_loss
        d, t, old_dirs, old_stps, ro, H_diag, prev_flat_grad, prev_loss = (state.get(k) for k in (
            'd', 't', 'old_dirs', 'old_stps', 'ro', 'H_diag', 'prev_flat_grad', 'prev_loss'))
        n_iter = 0
        while n_iter < max_iter:
            n_iter += 1
            state['n_iter'] += 1
            if state['n_iter'] == 1:                      # the first direction: steepest descent
                d = flat_grad.neg()
                old_dirs, old_stps, ro, H_diag = [], [], [], 1
            else:
                y = flat_grad.sub(prev_flat_grad)
                s = d.mul(t)
                ys = y.dot(s)
                if ys > 1e-10:                            # a curvature pair worth remembering
                    if len(old_dirs) == group['history_size']:
                        del old_dirs[0], old_stps[0], ro[0]
                    old_dirs.append(y)
                    old_stps.append(s)
                    ro.append(1.0 / ys)
                    H_diag = ys / y.dot(y)
                if 'al' not in state:
                    state['al'] = [None] * group['history_size']
                al = state['al']
                q = flat_grad.neg()                       # the two-loop recursion: d = -H @ grad
                for i in reversed(range(len(old_dirs))):
                    al[i] = old_stps[i].dot(q) * ro[i]
                    _add_scaled(q, -al[i], old_dirs[i])
                d = r = mul(q, H_diag)
                for i in range(len(old_dirs)):
                    be_i = old_dirs[i].dot(r) * ro[i]
                    _add_scaled(r, al[i] - be_i, old_stps[i])
            if prev_flat_grad is None:
                prev_flat_grad = flat_grad.clone()
            else:
                prev_flat_grad.copy_(flat_grad)
            prev_loss = loss
            t = min(1.0, 1.0 / flat_grad.abs().sum()) * lr if state['n_iter'] == 1 else lr
            gtd = flat_grad.dot(d)
            if gtd > -tol_change:                         # not a descent direction
                break
            ls_evals = 0
            if group['line_search_fn'] is not None:
                if group['line_search_fn'] != 'strong_wolfe':
                    raise RuntimeError("only 'strong_wolfe' is supported")
                start = [p.clone() for p in self._params]
                loss, flat_grad, t, ls_evals = _strong_wolfe(
                    lambda x, step, direction: self._evaluate_at(evaluate, x, step, direction),
                    start, t, d, loss, flat_grad, gtd, tolerance_change=tol_change, max_ls=max_eval - evals)
                self._move(t, d)
                opt_cond = flat_grad.abs().max() <= group['tolerance_grad']
            else:
                self._move(t, d)
                opt_cond = False
                if n_iter != max_iter:
                    loss = _number(evaluate())
                    flat_grad = self._flat_grad()
                    opt_cond = flat_grad.abs().max() <= group['tolerance_grad']
                    ls_evals = 1
            evals += ls_evals
            state['func_evals'] += ls_evals
            if (n_iter == max_iter or evals >= max_eval or opt_cond or d.mul(t).abs().max() <= tol_change
                    or abs(loss - prev_loss) < tol_change):
                break
        state.update(d=d, t=t, old_dirs=old_dirs, old_stps=old_stps, ro=ro, H_diag=H_diag,
                     prev_flat_grad=prev_flat_grad, prev_loss=prev_loss)
        return orig_loss


def _cubic_minimum(x1, f1, g1, x2, f2, g2, bounds=None):
    """The minimiser of the cubic through (x1, f1) and (x2, f2) with slopes g1, g2, clamped to bounds (the bracket
    by default); the middle of the bounds when the cubic has none."""
    lo, hi = bounds if bounds is not None else ((x1, x2) if x1 <= x2 else (x2, x1))
    d1 = g1 + g2 - 3 * (f1 - f2) / (x1 - x2)
    d2_square = d1 ** 2 - g1 * g2
    if not d2_square >= 0:
        return (lo + hi) / 2.0
    d2 = d2_square.sqrt()
    if x1 <= x2:
        at = x2 - (x2 - x1) * ((g2 + d2 - d1) / (g2 - g1 + 2 * d2))
    else:
        at = x1 - (x1 - x2) * ((g1 + d2 - d1) / (g1 - g2 + 2 * d2))
    return min(max(at, lo), hi)


def _strong_wolfe(evaluate, x, t, d, f, g, gtd, c1=1e-4, c2=0.9, tolerance_change=1e-9, max_ls=25):
    """A step t along d meeting the strong Wolfe conditions (sufficient decrease c1, curvature c2), found by
    bracketing then cubic zoom: (loss, flat gradient, t, evaluations)."""
    d_norm = d.abs().max()
    g = g.clone()
    f_new, g_new = evaluate(x, t, d)
    evals = 1
    gtd_new = g_new.dot(d)
    t_prev, f_prev, g_prev, gtd_prev = 0, f, g, gtd
    done = False
    ls_iter = 0
    bracket = None
    while ls_iter < max_ls:                               # 1. grow the step until the minimum is bracketed
        if f_new > (f + c1 * t * gtd) or (ls_iter > 1 and f_new >= f_prev):
            bracket = [t_prev, t], [f_prev, f_new], [g_prev, g_new.clone()], [gtd_prev, gtd_new]
            break
        if abs(gtd_new) <= -c2 * gtd:
            bracket, done = ([t], [f_new], [g_new], None), True
            break
        if gtd_new >= 0:
            bracket = [t_prev, t], [f_prev, f_new], [g_prev, g_new.clone()], [gtd_prev, gtd_new]
            break
        t_next = _cubic_minimum(t_prev, f_prev, gtd_prev, t, f_new, gtd_new,
                                bounds=(t + 0.01 * (t - t_prev), t * 10))
        t_prev, f_prev, g_prev, gtd_prev = t, f_new, g_new.clone(), gtd_new
        t = t_next
        f_new, g_new = evaluate(x, t, d)
        evals += 1
        gtd_new = g_new.dot(d)
        ls_iter += 1
    if ls_iter == max_ls:
        bracket = [0, t], [f, f_new], [g, g_new], None
    steps, fs, gs, gtds = bracket
    insufficient = False
    low, high = (0, 1) if fs[0] <= fs[-1] else (1, 0)
    while not done and ls_iter < max_ls:                  # 2. zoom into the bracket
        if abs(steps[1] - steps[0]) * d_norm < tolerance_change:
            break
        t = _cubic_minimum(steps[0], fs[0], gtds[0], steps[1], fs[1], gtds[1])
        eps = 0.1 * (max(steps) - min(steps))
        if min(max(steps) - t, t - min(steps)) < eps:      # too near an end: move away unless progress was made
            if insufficient or t >= max(steps) or t <= min(steps):
                t = max(steps) - eps if abs(t - max(steps)) < abs(t - min(steps)) else min(steps) + eps
                insufficient = False
            else:
                insufficient = True
        else:
            insufficient = False
        f_new, g_new = evaluate(x, t, d)
        evals += 1
        gtd_new = g_new.dot(d)
        ls_iter += 1
        if f_new > (f + c1 * t * gtd) or f_new >= fs[low]:
            steps[high], fs[high], gs[high], gtds[high] = t, f_new, g_new.clone(), gtd_new
            low, high = (0, 1) if fs[0] <= fs[1] else (1, 0)
        else:
            if abs(gtd_new) <= -c2 * gtd:
                done = True
            elif gtd_new * (steps[high] - steps[low]) >= 0:
                steps[high], fs[high], gs[high], gtds[high] = steps[low], fs[low], gs[low], gtds[low]
            steps[low], fs[low], gs[low], gtds[low] = t, f_new, g_new.clone(), gtd_new
    return fs[low], gs[low], steps[low], evals


for _cls, _where in ((Optimizer, 'optimizer'), (SGD, 'sgd'), (Adam, 'adam'), (AdamW, 'adamw'), (RMSprop, 'rmsprop'),
                     (Adagrad, 'adagrad'), (LBFGS, 'lbfgs'), (NAdam, 'nadam'), (RAdam, 'radam'), (Adamax, 'adamax'),
                     (Adadelta, 'adadelta'), (Rprop, 'rprop'), (ASGD, 'asgd'), (Adafactor, '_adafactor')):
    _cls.__module__ = 'torch.optim.' + _where         # where PyTorch defines them: type(opt) shows that path
from . import _lr_scheduler as lr_scheduler  # noqa: E402  (torch.optim.lr_scheduler)
from . import _swa_utils as swa_utils  # noqa: E402  (torch.optim.swa_utils)
__path__ = []           # a package to the import system, so that `import torch.optim.lr_scheduler` finds that one


def _file_module(name, *classes):
    """torch.optim.<name> (optimizer, sgd, adam, ...): the file PyTorch defines these classes in, importable (but
    not an attribute of torch.optim until imported: PyTorch deletes these names, so `torch.optim.sgd` is "module
    'torch.optim' has no attribute 'sgd'. Did you mean: 'SGD'?")."""
    module = sys.modules[__name__ + '.' + name] = types.ModuleType(__name__ + '.' + name)
    for c in classes:
        setattr(module, c.__name__, c)


for _cls in (Optimizer, SGD, Adam, AdamW, RMSprop, Adagrad, LBFGS, NAdam, RAdam, Adamax, Adadelta, Rprop, ASGD,
             Adafactor):
    _file_module(_cls.__module__.rsplit('.', 1)[1], _cls)
_adafactor = sys.modules[__name__ + '._adafactor']         # (PyTorch keeps this file module as an attribute)
Adafactor.__module__ = 'torch.optim'
sys.modules[__name__ + '.optimizer'].register_optimizer_step_pre_hook = _register_optimizer_step_pre_hook
sys.modules[__name__ + '.optimizer'].register_optimizer_step_post_hook = _register_optimizer_step_post_hook
