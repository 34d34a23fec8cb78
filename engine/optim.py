"""torch.optim: SGD, Adam, AdamW, RMSprop and Adagrad, updating parameters in place (each update bumps the
parameter's version, as in PyTorch) with PyTorch's single-tensor update formulas, in the same float32 order of
operations."""
import math
import warnings
from collections import defaultdict

import numpy as np

from . import _autograd as ag
from ._tensor import Tensor, make
from .nn import _zero_grad

def _bump(t):
    ag.bump(t)


def _fma(a, alpha, b, out=None):
    """a + alpha * b rounded once, as PyTorch's vectorised CPU kernels compute it (a fused multiply-add), into
    `out` if given; float32 goes through float64, which reproduces PyTorch's float32 results bit for bit."""
    if a.dtype != np.float32:
        r = a + alpha * b
    else:
        r = b.astype(np.float64)
        r *= np.float32(alpha) if np.ndim(alpha) == 0 else alpha
        r += a
    if out is None:
        return r.astype(a.dtype, copy=False)
    out[...] = r
    return out


class Optimizer:
    """Holds parameter groups (dicts of params and hyper-parameters) and per-parameter state."""

    def __init__(self, params, defaults):
        self.defaults = defaults
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
        """Add a group of parameters, filling in the optimizer's defaults for hyper-parameters it leaves out."""
        params = param_group['params']
        if isinstance(params, set):
            raise TypeError('optimizer parameters need to be organized in ordered collections, but the ordering of '
                            'tensors in sets will change between runs. Please use a list instead.')
        params = [params] if isinstance(params, Tensor) else list(params)
        for p in params:
            if not isinstance(p, Tensor):
                raise TypeError('optimizer can only optimize Tensors, but one of the params is ' + type(p).__name__)
            if not (p.is_leaf or p.retains_grad):
                raise ValueError("can't optimize a non-leaf Tensor")
        if len({id(p) for p in params}) != len(params):
            warnings.warn('optimizer contains a parameter group with duplicate parameters; in future, this will '
                          'cause an error; see github.com/pytorch/pytorch/issues/40967 for more information',
                          stacklevel=3)
        seen = {id(p) for g in self.param_groups for p in g['params']}
        if any(id(p) in seen for p in params):
            raise ValueError('some parameters appear in more than one parameter group')
        group = dict(param_group, params=params)
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
                for p in group['params']:
                    if p._grad is not None:
                        g = p._grad._data                   # (a weight's grad may arrive transposed)
                        g = g if g.flags.c_contiguous else g.copy()
                        self._update(p, g, group, self.state[p] if self._has_state(group) else None)
        return loss

    def _has_state(self, group):
        """Whether an update keeps per-parameter state (SGD without momentum keeps none)."""
        return True

    def state_dict(self):
        index = {id(p): i for i, p in enumerate(p for g in self.param_groups for p in g['params'])}
        return {'state': {index[id(p)]: dict(s) for p, s in self.state.items()},
                'param_groups': [dict([(k, v) for k, v in g.items() if k != 'params'],
                                      params=[index[id(p)] for p in g['params']]) for g in self.param_groups]}

    def load_state_dict(self, state_dict):
        """Take the hyper-parameters and per-parameter state of state_dict() (copies; state in each parameter's
        dtype but the step count), matched to this optimizer's parameters by position."""
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
        self.param_groups = [dict(s, params=g['params']) for s, g in zip(saved, self.param_groups)]

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


class SGD(Optimizer):
    """Stochastic gradient descent, with optional momentum (heavy-ball or Nesterov) and weight decay."""

    def __init__(self, params, lr=1e-3, momentum=0, dampening=0, weight_decay=0, nesterov=False, *,
                 maximize=False, foreach=None, differentiable=False, fused=None):
        _check(lr, 'learning rate')
        _check(momentum, 'momentum value')
        _check(weight_decay, 'weight_decay value')
        if nesterov and (momentum <= 0 or dampening != 0):
            raise ValueError('Nesterov momentum requires a momentum and zero dampening')
        super().__init__(params, dict(lr=lr, momentum=momentum, dampening=dampening, weight_decay=weight_decay,
                                      nesterov=nesterov, maximize=maximize, foreach=foreach,
                                      differentiable=differentiable, fused=fused))

    def _has_state(self, group):
        return group['momentum'] != 0

    def _update(self, p, g, group, state):
        if group['maximize']:
            g = -g
        if group['weight_decay'] != 0:
            g = _fma(g, group['weight_decay'], p._data)
        momentum = group['momentum']
        if momentum != 0:
            buf = state.get('momentum_buffer')
            if buf is None:
                buf = state['momentum_buffer'] = make(g.copy())
            else:
                buf._data *= momentum
                _fma(buf._data, 1 - group['dampening'], g, out=buf._data)
            g = _fma(g, momentum, buf._data) if group['nesterov'] else buf._data
        _fma(p._data, -group['lr'], g, out=p._data)
        _bump(p)


class Adam(Optimizer):
    """Adam: steps scaled by running averages of the gradient and its square (bias-corrected)."""

    def __init__(self, params, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=0, amsgrad=False, *,
                 foreach=None, maximize=False, capturable=False, differentiable=False, fused=None,
                 decoupled_weight_decay=False):
        _check(lr, 'learning rate')
        _check(eps, 'epsilon value')
        for i, b in enumerate(betas):
            if not 0.0 <= b < 1.0:
                raise ValueError('Invalid beta parameter at index %d: %s' % (i, b))
        _check(weight_decay, 'weight_decay value')
        super().__init__(params, dict(lr=lr, betas=betas, eps=eps, weight_decay=weight_decay, amsgrad=amsgrad,
                                      maximize=maximize, foreach=foreach, capturable=capturable,
                                      differentiable=differentiable, fused=fused,
                                      decoupled_weight_decay=decoupled_weight_decay))

    def _update(self, p, g, group, state):
        if not state:
            state['step'] = make(np.array(0.0, np.float32))
            state['exp_avg'] = make(np.zeros_like(p._data))
            state['exp_avg_sq'] = make(np.zeros_like(p._data))
            if group['amsgrad']:
                state['max_exp_avg_sq'] = make(np.zeros_like(p._data))
        lr, (beta1, beta2), wd = group['lr'], group['betas'], group['weight_decay']
        if group['maximize']:
            g = -g
        state['step']._data += 1
        if wd != 0:
            if group['decoupled_weight_decay']:
                p._data *= 1 - lr * wd
                _bump(p)
            else:
                g = _fma(g, wd, p._data)
        m, v = state['exp_avg']._data, state['exp_avg_sq']._data
        _fma(m, 1 - beta1, g - m, out=m)                   # exp_avg.lerp_(grad, 1 - beta1)
        v *= beta2
        _fma(v, (1 - beta2) * g, g, out=v)                 # exp_avg_sq.mul_(beta2).addcmul_(grad, grad, ...)
        step = state['step'].item()
        step_size = lr / (1 - beta1 ** step)
        bc2_sqrt = math.sqrt(1 - beta2 ** step)
        if group['amsgrad']:
            mx = state['max_exp_avg_sq']._data
            np.maximum(mx, v, out=mx)
            v = mx
        denom = np.sqrt(v) / bc2_sqrt + group['eps']
        p._data += -step_size * m / denom                  # param.addcdiv_(exp_avg, denom, value=-step_size)
        _bump(p)


class AdamW(Adam):
    """Adam with weight decay applied to the weights directly (decoupled), default weight_decay 0.01."""

    def __init__(self, params, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=1e-2, amsgrad=False, **kwargs):
        kwargs['decoupled_weight_decay'] = True
        super().__init__(params, lr, betas, eps, weight_decay, amsgrad, **kwargs)


class RMSprop(Optimizer):
    """RMSprop: steps divided by the root of a running average of the squared gradient (optionally centered, with
    momentum and weight decay)."""

    def __init__(self, params, lr=1e-2, alpha=0.99, eps=1e-8, weight_decay=0, momentum=0, centered=False,
                 capturable=False, foreach=None, maximize=False, differentiable=False):
        _check(lr, 'learning rate')
        _check(eps, 'epsilon value')
        _check(momentum, 'momentum value')
        _check(weight_decay, 'weight_decay value')
        _check(alpha, 'alpha value')
        super().__init__(params, dict(lr=lr, momentum=momentum, alpha=alpha, eps=eps, centered=centered,
                                      weight_decay=weight_decay, capturable=capturable, foreach=foreach,
                                      maximize=maximize, differentiable=differentiable))

    def _update(self, p, g, group, state):
        if not state:
            state['step'] = make(np.array(0.0, np.float32))
            state['square_avg'] = make(np.zeros_like(p._data))
            if group['momentum'] > 0:
                state['momentum_buffer'] = make(np.zeros_like(p._data))
            if group['centered']:
                state['grad_avg'] = make(np.zeros_like(p._data))
        alpha = group['alpha']
        if group['maximize']:
            g = -g
        state['step']._data += 1
        if group['weight_decay'] != 0:
            g = _fma(g, group['weight_decay'], p._data)
        v = state['square_avg']._data
        v *= alpha
        _fma(v, (1 - alpha) * g, g, out=v)                 # square_avg.mul_(alpha).addcmul_(grad, grad, 1 - alpha)
        if group['centered']:
            ga = state['grad_avg']._data
            _fma(ga, 1 - alpha, g - ga, out=ga)            # grad_avg.lerp_(grad, 1 - alpha)
            avg = np.sqrt(_fma(v, -ga, ga))                # square_avg.addcmul(grad_avg, grad_avg, value=-1).sqrt_()
        else:
            avg = np.sqrt(v)
        avg += group['eps']
        if group['momentum'] > 0:
            buf = state['momentum_buffer']._data
            buf *= group['momentum']
            buf += g / avg                                 # buf.mul_(momentum).addcdiv_(grad, avg)
            _fma(p._data, -group['lr'], buf, out=p._data)
        else:
            p._data += -group['lr'] * g / avg              # param.addcdiv_(grad, avg, value=-lr)
        _bump(p)


class Adagrad(Optimizer):
    """Adagrad: steps divided by the root of the sum of all squared gradients so far (learning rate decaying with
    lr_decay)."""

    def __init__(self, params, lr=1e-2, lr_decay=0, weight_decay=0, initial_accumulator_value=0, eps=1e-10,
                 foreach=None, *, maximize=False, differentiable=False, fused=None):
        _check(lr, 'learning rate')
        _check(lr_decay, 'lr_decay value')
        _check(weight_decay, 'weight_decay value')
        _check(initial_accumulator_value, 'initial_accumulator_value value')
        _check(eps, 'epsilon value')
        super().__init__(params, dict(lr=lr, lr_decay=lr_decay, eps=eps, weight_decay=weight_decay,
                                      initial_accumulator_value=initial_accumulator_value, foreach=foreach,
                                      maximize=maximize, differentiable=differentiable, fused=fused))
        for group in self.param_groups:                    # (Adagrad's state exists from the start)
            for p in group['params']:
                self.state[p]['step'] = make(np.array(0.0, np.float32))
                self.state[p]['sum'] = make(np.full_like(p._data, group['initial_accumulator_value']))

    def _update(self, p, g, group, state):
        state['step']._data += 1
        if group['maximize']:
            g = -g
        if group['weight_decay'] != 0:
            g = _fma(g, group['weight_decay'], p._data)
        clr = group['lr'] / (1 + (state['step'].item() - 1) * group['lr_decay'])
        s = state['sum']._data
        _fma(s, g, g, out=s)                               # state_sum.addcmul_(grad, grad, value=1)
        std = np.sqrt(s)
        std += group['eps']
        p._data += -clr * g / std                          # param.addcdiv_(grad, std, value=-clr)
        _bump(p)


for _cls, _where in ((Optimizer, 'optimizer'), (SGD, 'sgd'), (Adam, 'adam'), (AdamW, 'adamw'), (RMSprop, 'rmsprop'),
                     (Adagrad, 'adagrad')):
    _cls.__module__ = 'torch.optim.' + _where         # where PyTorch defines them: type(opt) shows that path
from . import _lr_scheduler as lr_scheduler  # noqa: E402  (torch.optim.lr_scheduler)
__path__ = []           # a package to the import system, so that `import torch.optim.lr_scheduler` finds that one
