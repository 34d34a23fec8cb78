"""torch.optim.lr_scheduler: schedules that change each parameter group's 'lr' once per scheduler.step(), with
PyTorch's arithmetic (each step's lr computed from the last one, in the same order; the closed form when step is
given an epoch), its 'initial_lr' entries in the param groups, its warnings and errors."""
import math
import sys
import types
import warnings
import weakref
from bisect import bisect_right
from collections import Counter
from functools import partial, wraps

from ._tensor import Tensor
from .optim import Optimizer

_ORDER = ('Detected call of `lr_scheduler.step()` before `optimizer.step()`. In PyTorch 1.1.0 and later, you should '
          'call them in the opposite order: `optimizer.step()` before `lr_scheduler.step()`.  Failure to do this will '
          'result in PyTorch skipping the first value of the learning rate schedule. See more details at '
          'https://pytorch.org/docs/stable/optim.html#how-to-adjust-learning-rate')
_OVERRIDDEN = ('Seems like `optimizer.step()` has been overridden after learning rate scheduler initialization. '
               'Please, make sure to call `optimizer.step()` before `lr_scheduler.step()`. See more details at '
               'https://pytorch.org/docs/stable/optim.html#how-to-adjust-learning-rate')
EPOCH_DEPRECATION_WARNING = (
    'The epoch parameter in `scheduler.step()` was not necessary and is being deprecated where possible. Please use '
    '`scheduler.step()` to step the scheduler. During the deprecation, if epoch is different from None, the closed '
    'form is used instead of the new chainable form, where available. Please open an issue if you are unable to '
    'replicate your use case: https://github.com/pytorch/pytorch/issues/new/choose.')


def _check_optimizer(optimizer):
    if not isinstance(optimizer, Optimizer):
        raise TypeError('%s is not an Optimizer' % type(optimizer).__name__)


def _format_param(name, optimizer, param):
    """One value per param group: a list of that length, or one value repeated."""
    n = len(optimizer.param_groups)
    if isinstance(param, (list, tuple)):
        if len(param) != n:
            raise ValueError('%s must have the same length as optimizer.param_groups. %s has %d values, param_groups '
                             'has %d.' % (name, name, len(param), n))
        return [p.clone() if isinstance(p, Tensor) else p for p in param]
    return [param.clone() if isinstance(param, Tensor) else param] * n


def _values(optimizer, key):
    """group[key] of each param group (tensors copied)."""
    return [g[key].clone() if isinstance(g[key], Tensor) else g[key] for g in optimizer.param_groups]


def _set(group, key, value):
    """group[key] = value (a tensor there filled in place: by a tensor value as a tensor, a 0-d one of it, as
    PyTorch's _to_scalar makes it, so that fill_ records its Tensor overload)."""
    if isinstance(group[key], Tensor):
        group[key].fill_(value.squeeze() if isinstance(value, Tensor) and value.dim() != 0 else value)
    else:
        group[key] = value


def _count_steps(optimizer):
    """Make optimizer.step() note that it ran (the scheduler warns when it steps first)."""
    if hasattr(optimizer.step, '_wrapped_by_lr_sched'):
        return
    ref, func = weakref.ref(optimizer), optimizer.step.__func__

    @wraps(func)
    def wrapper(*args, **kwargs):
        opt = ref()
        opt._opt_called = True
        return func.__get__(opt, opt.__class__)(*args, **kwargs)
    wrapper._wrapped_by_lr_sched = True
    optimizer.step = wrapper


class LRScheduler:
    """Base class: at each step sets every group's lr to get_lr()'s value (step 0 on creation)."""
    _get_lr_called_within_step = False
    _is_initial = False

    def __init__(self, optimizer, last_epoch=-1):
        _check_optimizer(optimizer)
        self.optimizer = optimizer
        if last_epoch == -1:
            for group in optimizer.param_groups:
                lr = group['lr']
                group.setdefault('initial_lr', lr.clone() if isinstance(lr, Tensor) else lr)
        else:
            for i, group in enumerate(optimizer.param_groups):
                if 'initial_lr' not in group:
                    raise KeyError("param 'initial_lr' is not specified in param_groups[%d] when resuming scheduler "
                                   "with last_epoch >= 0.\nThis typically happens when:\n1. You're trying to resume "
                                   "training from a checkpoint but haven't properly loaded the optimizer state\n2. "
                                   "You're using last_epoch >= 0 for a fresh training run (not recommended)" % i)
        self.base_lrs = _values(optimizer, 'initial_lr')
        self.last_epoch = last_epoch
        _count_steps(optimizer)
        self._initial_step()

    def _initial_step(self):
        self._step_count = 0
        self._is_initial = True
        try:
            self.step()
        finally:
            self._is_initial = False

    def state_dict(self):
        return {k: v for k, v in self.__dict__.items() if k != 'optimizer'}

    def load_state_dict(self, state_dict):
        self.__dict__.update(state_dict)

    def get_last_lr(self):
        return self._last_lr

    def get_lr(self):
        raise NotImplementedError

    def _warn_get_lr(self):
        if not self._get_lr_called_within_step:
            warnings.warn('To get the last learning rate computed by the scheduler, please use `get_last_lr()`.',
                          UserWarning, stacklevel=3)

    def step(self, epoch=None):
        if self._step_count == 1:
            if not hasattr(self.optimizer.step, '_wrapped_by_lr_sched'):
                warnings.warn(_OVERRIDDEN, UserWarning, stacklevel=2)
            elif not getattr(self.optimizer, '_opt_called', False):
                warnings.warn(_ORDER, UserWarning, stacklevel=2)
        self._step_count += 1
        if epoch is not None:
            warnings.warn(EPOCH_DEPRECATION_WARNING, UserWarning, stacklevel=2)
        self._update_lr(epoch)

    def _update_lr(self, epoch=None):
        """The next lrs (get_lr), or with an epoch given the closed form's at that epoch where there is one."""
        self._get_lr_called_within_step = True
        try:
            if epoch is None:
                self.last_epoch += 1
                values = self.get_lr()
            else:
                self.last_epoch = epoch
                values = (self._get_closed_form_lr if hasattr(self, '_get_closed_form_lr') else self.get_lr)()
        finally:
            self._get_lr_called_within_step = False
        for group, lr in zip(self.optimizer.param_groups, values):
            _set(group, 'lr', lr)
        self._last_lr = _values(self.optimizer, 'lr')

    def _lrs(self):
        return _values(self.optimizer, 'lr')

    def _scaled(self, factor):
        """Each group's lr times factor."""
        return [group['lr'] * factor for group in self.optimizer.param_groups]


class _LRScheduler(LRScheduler):
    """The old name, kept as a subclass (PyTorch's)."""


class _LambdaState:
    """state_dict / load_state_dict keeping lr_lambdas last: None for functions, a callable object's __dict__."""

    def state_dict(self):
        state = {k: v for k, v in self.__dict__.items() if k not in ('optimizer', 'lr_lambdas')}
        state['lr_lambdas'] = [None if isinstance(f, types.FunctionType) else f.__dict__.copy()
                               for f in self.lr_lambdas]
        return state

    def load_state_dict(self, state_dict):
        lr_lambdas = state_dict.pop('lr_lambdas')
        self.__dict__.update(state_dict)
        state_dict['lr_lambdas'] = lr_lambdas
        for f, saved in zip(self.lr_lambdas, lr_lambdas):
            if saved is not None:
                f.__dict__.update(saved)


def _lambdas(optimizer, lr_lambda):
    """One function per param group (one given: repeated)."""
    n = len(optimizer.param_groups)
    if not isinstance(lr_lambda, (list, tuple)):
        return [lr_lambda] * n
    if len(lr_lambda) != n:
        raise ValueError('Expected %d lr_lambdas, but got %d' % (n, len(lr_lambda)))
    return list(lr_lambda)


class LambdaLR(_LambdaState, LRScheduler):
    """The initial lr times lr_lambda(step) (one function, or one per group)."""

    def __init__(self, optimizer, lr_lambda, last_epoch=-1):
        self.optimizer = optimizer
        self.lr_lambdas = _lambdas(optimizer, lr_lambda)
        super().__init__(optimizer, last_epoch)

    def get_lr(self):
        self._warn_get_lr()
        return [base * f(self.last_epoch) for f, base in zip(self.lr_lambdas, self.base_lrs)]


class MultiplicativeLR(_LambdaState, LRScheduler):
    """lr times lr_lambda(step) at every step."""

    def __init__(self, optimizer, lr_lambda, last_epoch=-1):
        self.optimizer = optimizer
        self.lr_lambdas = _lambdas(optimizer, lr_lambda)
        for f in self.lr_lambdas:
            if not callable(f):
                raise TypeError('lr_lambda should be a function, but got %s' % type(f).__name__)
        super().__init__(optimizer, last_epoch)

    def get_lr(self):
        self._warn_get_lr()
        if self._is_initial:
            return self._lrs()
        return [g['lr'] * f(self.last_epoch) for f, g in zip(self.lr_lambdas, self.optimizer.param_groups)]


class StepLR(LRScheduler):
    """lr times gamma every step_size steps."""

    def __init__(self, optimizer, step_size, gamma=0.1, last_epoch=-1):
        self.step_size, self.gamma = step_size, gamma
        super().__init__(optimizer, last_epoch)

    def get_lr(self):
        self._warn_get_lr()
        if self.last_epoch == 0 or self.last_epoch % self.step_size != 0:
            return self._lrs()
        return self._scaled(self.gamma)

    def _get_closed_form_lr(self):
        return [base * self.gamma ** (self.last_epoch // self.step_size) for base in self.base_lrs]


class MultiStepLR(LRScheduler):
    """lr times gamma at each of the milestones (a step listed twice: gamma squared)."""

    def __init__(self, optimizer, milestones, gamma=0.1, last_epoch=-1):
        self.milestones, self.gamma = Counter(milestones), gamma
        super().__init__(optimizer, last_epoch)

    def get_lr(self):
        self._warn_get_lr()
        if self.last_epoch not in self.milestones:
            return self._lrs()
        return self._scaled(self.gamma ** self.milestones[self.last_epoch])

    def _get_closed_form_lr(self):
        milestones = sorted(self.milestones.elements())
        return [base * self.gamma ** bisect_right(milestones, self.last_epoch) for base in self.base_lrs]


class ConstantLR(LRScheduler):
    """lr times factor until step total_iters, then the lr again."""

    def __init__(self, optimizer, factor=1.0 / 3, total_iters=5, last_epoch=-1):
        if factor > 1.0 or factor < 0:
            raise ValueError('Constant multiplicative factor expected to be between 0 and 1.')
        self.factor, self.total_iters = factor, total_iters
        super().__init__(optimizer, last_epoch)

    def get_lr(self):
        self._warn_get_lr()
        if self.last_epoch == 0:
            return self._scaled(self.factor)
        if self.last_epoch != self.total_iters:
            return self._lrs()
        return self._scaled(1.0 / self.factor)

    def _get_closed_form_lr(self):
        return [base * (self.factor + (self.last_epoch >= self.total_iters) * (1 - self.factor))
                for base in self.base_lrs]


class LinearLR(LRScheduler):
    """lr times a factor going linearly from start_factor to end_factor over total_iters steps."""

    def __init__(self, optimizer, start_factor=1.0 / 3, end_factor=1.0, total_iters=5, last_epoch=-1):
        if start_factor > 1.0 or start_factor <= 0:
            raise ValueError('Starting multiplicative factor expected to be greater than 0 and less or equal to 1.')
        if end_factor > 1.0 or end_factor < 0:
            raise ValueError('Ending multiplicative factor expected to be between 0 and 1.')
        self.start_factor, self.end_factor, self.total_iters = start_factor, end_factor, total_iters
        super().__init__(optimizer, last_epoch)

    def get_lr(self):
        self._warn_get_lr()
        if self.last_epoch == 0:
            return self._scaled(self.start_factor)
        if self._is_initial or self.last_epoch > self.total_iters:
            return self._lrs()
        d = self.end_factor - self.start_factor
        return self._scaled(1.0 + d / (self.total_iters * self.start_factor + (self.last_epoch - 1) * d))

    def _get_closed_form_lr(self):
        return [base * (self.start_factor + (self.end_factor - self.start_factor) * min(self.total_iters,
                                                                                        self.last_epoch)
                        / self.total_iters) for base in self.base_lrs]


class ExponentialLR(LRScheduler):
    """lr times gamma at every step."""

    def __init__(self, optimizer, gamma, last_epoch=-1):
        self.gamma = gamma
        super().__init__(optimizer, last_epoch)

    def get_lr(self):
        self._warn_get_lr()
        return self._lrs() if self._is_initial else self._scaled(self.gamma)

    def _get_closed_form_lr(self):
        return [base * self.gamma ** self.last_epoch for base in self.base_lrs]


class PolynomialLR(LRScheduler):
    """lr decaying as (1 - step / total_iters) ** power, to 0 at total_iters."""

    def __init__(self, optimizer, total_iters=5, power=1.0, last_epoch=-1):
        self.total_iters, self.power = total_iters, power
        super().__init__(optimizer, last_epoch)

    def get_lr(self):
        self._warn_get_lr()
        if self._is_initial or self.last_epoch > self.total_iters:
            return self._lrs()
        t, n = self.last_epoch, self.total_iters
        return self._scaled(((1.0 - t / n) / (1.0 - (t - 1) / n)) ** self.power)

    def _get_closed_form_lr(self):
        return [base * (1.0 - min(self.total_iters, self.last_epoch) / self.total_iters) ** self.power
                for base in self.base_lrs]


class CosineAnnealingLR(LRScheduler):
    """lr following half a cosine from the initial lr down to eta_min over T_max steps (and back up), each step's
    lr computed from the last one."""

    def __init__(self, optimizer, T_max, eta_min=0.0, last_epoch=-1):
        self.T_max, self.eta_min = T_max, eta_min
        super().__init__(optimizer, last_epoch)

    def get_lr(self):
        self._warn_get_lr()
        t, T, low = self.last_epoch, self.T_max, self.eta_min
        if self._is_initial:
            return self._lrs()
        if self._step_count == 1 and t > 0:
            return [low + (base - low) * (1 + math.cos(t * math.pi / T)) / 2 for base in self.base_lrs]
        if (t - 1 - T) % (2 * T) == 0:
            return [g['lr'] + (base - low) * (1 - math.cos(math.pi / T)) / 2
                    for base, g in zip(self.base_lrs, self.optimizer.param_groups)]
        return [(1 + math.cos(math.pi * t / T)) / (1 + math.cos(math.pi * (t - 1) / T)) * (g['lr'] - low) + low
                for g in self.optimizer.param_groups]

    def _get_closed_form_lr(self):
        return [self.eta_min + (base - self.eta_min) * (1 + math.cos(math.pi * self.last_epoch / self.T_max)) / 2
                for base in self.base_lrs]


class _Schedulers:
    """For schedulers made of others: PyTorch's checks of them, and a state_dict holding theirs."""

    def _check(self, optimizer, schedulers, empty):
        name = type(self).__name__
        if len(schedulers) < 1:
            raise ValueError('%s expects at least one scheduler%s, but got no scheduler.' % (name, empty))
        for i, s in enumerate(schedulers):
            if not hasattr(s, 'optimizer'):
                raise TypeError('%s at index %d should have `optimizer` as its attribute.' % (name, i))
            if isinstance(s, ReduceLROnPlateau):
                raise ValueError('%s does not support `ReduceLROnPlateau` scheduler as it requires additional kwargs '
                                 'to be specified when calling `step`, but got one at index %d in the given '
                                 'schedulers sequence.' % (name, i))
            if optimizer != s.optimizer:
                raise ValueError('%s expects all schedulers to belong to the same optimizer, but got scheduler %s at '
                                 'index %d has %s, which is different from %s.'
                                 % (name, type(s).__name__, i, s.optimizer, type(optimizer).__name__))

    def state_dict(self):
        state = {k: v for k, v in self.__dict__.items() if k not in ('optimizer', '_schedulers')}
        state['_schedulers'] = [s.state_dict() for s in self._schedulers]
        return state

    def load_state_dict(self, state_dict):
        schedulers = state_dict.pop('_schedulers')
        self.__dict__.update(state_dict)
        state_dict['_schedulers'] = schedulers
        for s, saved in zip(self._schedulers, schedulers):
            s.load_state_dict(saved)


class SequentialLR(_Schedulers, LRScheduler):
    """The schedulers in turn, switching at each milestone (the next one starts from its epoch 0)."""

    def __init__(self, optimizer, schedulers, milestones, last_epoch=-1):
        self._check(optimizer, schedulers, '')
        if len(milestones) != len(schedulers) - 1:
            raise ValueError('Sequential Schedulers expects number of schedulers provided to be one more than the '
                             'number of milestone points, but got number of schedulers %d and the number of '
                             'milestones to be equal to %d' % (len(schedulers), len(milestones)))
        self._schedulers, self._milestones = schedulers, milestones
        self.last_epoch = last_epoch + 1
        self.optimizer = optimizer
        for group in optimizer.param_groups:            # undo the schedulers' initial steps
            _set(group, 'lr', group['initial_lr'])
        self.recursive_undo()
        idx = bisect_right(milestones, 0)
        schedulers[idx]._initial_step()
        self._last_lr = schedulers[idx].get_last_lr()

    def recursive_undo(self, sched=None):
        """Take one epoch off every scheduler inside (nested ones too)."""
        sched = self if sched is None else sched
        if hasattr(sched, '_schedulers'):
            for s in sched._schedulers:
                self.recursive_undo(s)
        elif hasattr(sched, 'last_epoch'):
            sched.last_epoch -= 1

    def step(self):
        self.last_epoch += 1
        idx = bisect_right(self._milestones, self.last_epoch)
        scheduler = self._schedulers[idx]
        if idx > 0 and self._milestones[idx - 1] == self.last_epoch:
            scheduler._update_lr(0)
        else:
            scheduler.step()
        self._last_lr = scheduler.get_last_lr()


class ChainedScheduler(_Schedulers, LRScheduler):
    """All the schedulers stepped together, one after the other."""

    def __init__(self, schedulers, optimizer=None):
        optimizer = optimizer or (schedulers[0].optimizer if len(schedulers) else None)
        self._check(optimizer, schedulers, ' to be chained')
        self._schedulers, self.optimizer = schedulers, optimizer
        self._last_lr = _values(schedulers[-1].optimizer, 'lr')

    def step(self):
        for s in self._schedulers:
            s.step()
        self._last_lr = _values(self._schedulers[-1].optimizer, 'lr')


class ReduceLROnPlateau(LRScheduler):
    """lr times factor once the metric given to step() has not improved (by threshold) for more than patience
    steps; then cooldown steps without counting."""

    def __init__(self, optimizer, mode='min', factor=0.1, patience=10, threshold=1e-4, threshold_mode='rel',
                 cooldown=0, min_lr=0, eps=1e-8):
        if factor >= 1.0:
            raise ValueError('Factor should be < 1.0.')
        self.factor = factor
        _check_optimizer(optimizer)
        self.optimizer = optimizer
        n = len(optimizer.param_groups)
        if isinstance(min_lr, (list, tuple)):
            if len(min_lr) != n:
                raise ValueError('expected %d min_lrs, got %d' % (n, len(min_lr)))
            self.default_min_lr, self.min_lrs = None, list(min_lr)
        else:
            self.default_min_lr, self.min_lrs = min_lr, [min_lr] * n
        self.patience, self.cooldown, self.eps = patience, cooldown, eps
        self.last_epoch = 0
        self._last_lr = self._lrs()
        self._init_is_better(mode, threshold, threshold_mode)
        self._reset()

    def _reset(self):
        self.best = self.mode_worse
        self.cooldown_counter = 0
        self.num_bad_epochs = 0

    def step(self, metrics, epoch=None):
        current = float(metrics)
        if epoch is None:
            epoch = self.last_epoch + 1
        else:
            warnings.warn(EPOCH_DEPRECATION_WARNING, UserWarning, stacklevel=2)
        self.last_epoch = epoch
        if self._is_better(current, self.best):
            self.best, self.num_bad_epochs = current, 0
        else:
            self.num_bad_epochs += 1
        if self.in_cooldown:
            self.cooldown_counter -= 1
            self.num_bad_epochs = 0
        if self.num_bad_epochs > self.patience:
            self._reduce_lr(epoch)
            self.cooldown_counter, self.num_bad_epochs = self.cooldown, 0
        self._last_lr = self._lrs()

    def _reduce_lr(self, epoch):
        n = len(self.optimizer.param_groups)
        if n != len(self.min_lrs):
            if self.default_min_lr is None:
                raise RuntimeError('The number of param groups in the `optimizer` (%d) differs from when '
                                   '`ReduceLROnPlateau` was initialized (%d), usually due to a new param group being '
                                   'added to the optimizer. Please modify the `min_lrs` field to match the length of '
                                   'the `optimizer` param groups.' % (n, len(self.min_lrs)))
            self.min_lrs = [self.default_min_lr] * n
        for group, min_lr in zip(self.optimizer.param_groups, self.min_lrs):
            old = float(group['lr'])
            new = max(old * self.factor, min_lr)
            if old - new > self.eps:
                _set(group, 'lr', new)

    @property
    def in_cooldown(self):
        return self.cooldown_counter > 0

    def _is_better(self, a, best):
        rel = self.threshold_mode == 'rel'
        if self.mode == 'min':
            return a < best * (1.0 - self.threshold) if rel else a < best - self.threshold
        return a > best * (self.threshold + 1.0) if rel else a > best + self.threshold

    def _init_is_better(self, mode, threshold, threshold_mode):
        if mode not in {'min', 'max'}:
            raise ValueError('mode ' + mode + ' is unknown!')
        if threshold_mode not in {'rel', 'abs'}:
            raise ValueError('threshold mode ' + threshold_mode + ' is unknown!')
        self.mode_worse = math.inf if mode == 'min' else -math.inf
        self.mode, self.threshold, self.threshold_mode = mode, threshold, threshold_mode

    def load_state_dict(self, state_dict):
        self.__dict__.update(state_dict)
        self._init_is_better(self.mode, self.threshold, self.threshold_mode)


def _init_momentum(self, optimizer, cycle_momentum, base_momentum, max_momentum, last_epoch):
    """CyclicLR's and OneCycleLR's momentum (or Adam's beta1) cycling: the groups start at max_momentum."""
    self.cycle_momentum = cycle_momentum
    if not cycle_momentum:
        return None
    if 'momentum' not in optimizer.defaults and 'betas' not in optimizer.defaults:
        raise ValueError('optimizer must support momentum or beta1 with `cycle_momentum` option enabled')
    self.use_beta1 = 'betas' in optimizer.defaults
    max_momentums = _format_param('max_momentum', optimizer, max_momentum)
    base_momentums = _format_param('base_momentum', optimizer, base_momentum)
    if last_epoch == -1:
        for m, b, group in zip(max_momentums, base_momentums, optimizer.param_groups):
            _set_momentum(self, group, m)
            group['max_momentum'], group['base_momentum'] = m, b
    return base_momentums, max_momentums


def _set_momentum(self, group, m):
    if self.use_beta1:
        group['betas'] = (m, *group['betas'][1:])
    else:
        group['momentum'] = m


class CyclicLR(LRScheduler):
    """lr cycling between base_lr and max_lr (up for step_size_up steps, down for step_size_down), the height
    scaled per cycle or per step (triangular, triangular2, exp_range or scale_fn); momentum the other way."""

    def __init__(self, optimizer, base_lr, max_lr, step_size_up=2000, step_size_down=None, mode='triangular',
                 gamma=1.0, scale_fn=None, scale_mode='cycle', cycle_momentum=True, base_momentum=0.8,
                 max_momentum=0.9, last_epoch=-1):
        _check_optimizer(optimizer)
        self.optimizer = optimizer
        base_lrs = _format_param('base_lr', optimizer, base_lr)
        if last_epoch == -1:
            for lr, group in zip(base_lrs, optimizer.param_groups):
                _set(group, 'lr', lr)
        self.max_lrs = _format_param('max_lr', optimizer, max_lr)
        step_size_up = float(step_size_up)
        step_size_down = float(step_size_down) if step_size_down is not None else step_size_up
        self.total_size = step_size_up + step_size_down
        self.step_ratio = step_size_up / self.total_size
        if mode not in ['triangular', 'triangular2', 'exp_range'] and scale_fn is None:
            raise ValueError('mode is invalid and scale_fn is None')
        self.mode, self.gamma = mode, gamma
        self._scale_fn_custom, self.scale_mode = scale_fn, scale_mode
        self._init_scale_fn()
        momentums = _init_momentum(self, optimizer, cycle_momentum, base_momentum, max_momentum, last_epoch)
        if momentums:
            self.base_momentums, self.max_momentums = momentums
        super().__init__(optimizer, last_epoch)
        self.base_lrs = base_lrs

    def _init_scale_fn(self):
        if self._scale_fn_custom is not None:
            return
        if self.mode == 'triangular':
            self._scale_fn_ref, self.scale_mode = self._triangular_scale_fn, 'cycle'
        elif self.mode == 'triangular2':
            self._scale_fn_ref, self.scale_mode = self._triangular2_scale_fn, 'cycle'
        elif self.mode == 'exp_range':
            self._scale_fn_ref, self.scale_mode = partial(self._exp_range_scale_fn, self.gamma), 'iterations'

    def scale_fn(self, x):
        return (self._scale_fn_custom or self._scale_fn_ref)(x)

    @staticmethod
    def _triangular_scale_fn(x):
        return 1.0

    @staticmethod
    def _triangular2_scale_fn(x):
        return 1 / (2.0 ** (x - 1))

    @staticmethod
    def _exp_range_scale_fn(gamma, x):
        return gamma ** x

    def get_lr(self):
        self._warn_get_lr()
        cycle = math.floor(1 + self.last_epoch / self.total_size)
        x = 1.0 + self.last_epoch / self.total_size - cycle
        scale_factor = x / self.step_ratio if x <= self.step_ratio else (x - 1) / (self.step_ratio - 1)
        scale = self.scale_fn(cycle if self.scale_mode == 'cycle' else self.last_epoch)
        lrs = [base + (top - base) * scale_factor * scale for base, top in zip(self.base_lrs, self.max_lrs)]
        if self.cycle_momentum:
            for group, base, top in zip(self.optimizer.param_groups, self.base_momentums, self.max_momentums):
                _set_momentum(self, group, top - (top - base) * scale_factor * scale)
        return lrs

    def state_dict(self):
        state = super().state_dict()
        state.pop('_scale_fn_ref', None)
        fn = state.pop('_scale_fn_custom')
        state['_scale_fn_custom'] = None if fn is None or isinstance(fn, types.FunctionType) else fn.__dict__.copy()
        return state

    def load_state_dict(self, state_dict):
        fn = state_dict.pop('_scale_fn_custom')
        super().load_state_dict(state_dict)
        if fn is not None:
            self._scale_fn_custom.__dict__.update(fn)
        self._init_scale_fn()


class CosineAnnealingWarmRestarts(LRScheduler):
    """Cosine annealing from the initial lr to eta_min over T_0 steps, then restarts, each period T_mult times
    the last."""

    def __init__(self, optimizer, T_0, T_mult=1, eta_min=0.0, last_epoch=-1):
        if T_0 <= 0 or not isinstance(T_0, int):
            raise ValueError('Expected positive integer T_0, but got %s' % T_0)
        if T_mult < 1 or not isinstance(T_mult, int):
            raise ValueError('Expected integer T_mult >= 1, but got %s' % T_mult)
        if not isinstance(eta_min, (float, int)):
            raise ValueError('Expected float or int eta_min, but got %s of type %s' % (eta_min, type(eta_min)))
        self.T_0 = self.T_i = T_0
        self.T_mult, self.eta_min = T_mult, eta_min
        self.T_cur = last_epoch
        super().__init__(optimizer, last_epoch)

    def get_lr(self):
        self._warn_get_lr()
        return [self.eta_min + (base - self.eta_min) * (1 + math.cos(math.pi * self.T_cur / self.T_i)) / 2
                for base in self.base_lrs]

    def step(self, epoch=None):
        """The next step, or (a float allowed) the point `epoch` of the schedule; without PyTorch's warnings."""
        if epoch is None and self.last_epoch < 0:
            epoch = 0
        if epoch is None:
            epoch = self.last_epoch + 1
            self.T_cur = self.T_cur + 1
            if self.T_cur >= self.T_i:
                self.T_cur, self.T_i = self.T_cur % self.T_i, self.T_i * self.T_mult
        else:
            if epoch < 0:
                raise ValueError('Expected non-negative epoch, but got %s' % epoch)
            if epoch >= self.T_0:
                if self.T_mult == 1:
                    self.T_cur = epoch % self.T_0
                else:
                    n = int(math.log(epoch / self.T_0 * (self.T_mult - 1) + 1, self.T_mult))
                    self.T_cur = epoch - self.T_0 * (self.T_mult ** n - 1) / (self.T_mult - 1)
                    self.T_i = self.T_0 * self.T_mult ** n
            else:
                self.T_i, self.T_cur = self.T_0, epoch
        self.last_epoch = math.floor(epoch)
        self._get_lr_called_within_step = True
        try:
            lrs = self.get_lr()
        finally:
            self._get_lr_called_within_step = False
        for group, lr in zip(self.optimizer.param_groups, lrs):
            _set(group, 'lr', lr)
        self._last_lr = self._lrs()


class OneCycleLR(LRScheduler):
    """The 1cycle policy: lr from max_lr / div_factor up to max_lr over pct_start of total_steps, then down to
    initial_lr / final_div_factor (three_phase: back to initial_lr first), cosine or linear; momentum the other
    way."""

    def __init__(self, optimizer, max_lr, total_steps=None, epochs=None, steps_per_epoch=None, pct_start=0.3,
                 anneal_strategy='cos', cycle_momentum=True, base_momentum=0.85, max_momentum=0.95, div_factor=25.0,
                 final_div_factor=1e4, three_phase=False, last_epoch=-1):
        _check_optimizer(optimizer)
        self.optimizer = optimizer
        if total_steps is not None:
            if total_steps <= 0 or not isinstance(total_steps, int):
                raise ValueError('Expected positive integer total_steps, but got %s' % total_steps)
            self.total_steps = total_steps
        elif epochs is not None and steps_per_epoch is not None:
            if not isinstance(epochs, int) or epochs <= 0:
                raise ValueError('Expected positive integer epochs, but got %s' % epochs)
            if not isinstance(steps_per_epoch, int) or steps_per_epoch <= 0:
                raise ValueError('Expected positive integer steps_per_epoch, but got %s' % steps_per_epoch)
            self.total_steps = epochs * steps_per_epoch
        else:
            raise ValueError('You must define either total_steps OR (epochs AND steps_per_epoch)')
        up = float(pct_start * self.total_steps) - 1

        def phase(end_step, start_lr, end_lr, start_momentum, end_momentum):
            return {'end_step': end_step, 'start_lr': start_lr, 'end_lr': end_lr, 'start_momentum': start_momentum,
                    'end_momentum': end_momentum}
        self._schedule_phases = (
            [phase(up, 'initial_lr', 'max_lr', 'max_momentum', 'base_momentum'),
             phase(float(2 * pct_start * self.total_steps) - 2, 'max_lr', 'initial_lr', 'base_momentum',
                   'max_momentum'),
             phase(self.total_steps - 1, 'initial_lr', 'min_lr', 'max_momentum', 'max_momentum')] if three_phase else
            [phase(up, 'initial_lr', 'max_lr', 'max_momentum', 'base_momentum'),
             phase(self.total_steps - 1, 'max_lr', 'min_lr', 'base_momentum', 'max_momentum')])
        if pct_start < 0 or pct_start > 1 or not isinstance(pct_start, float):
            raise ValueError('Expected float between 0 and 1 pct_start, but got %s' % pct_start)
        if anneal_strategy not in ['cos', 'linear']:
            raise ValueError("anneal_strategy must be one of 'cos' or 'linear', instead got %s" % anneal_strategy)
        self._anneal_func_type = anneal_strategy
        max_lrs = _format_param('max_lr', optimizer, max_lr)
        if last_epoch == -1:
            for top, group in zip(max_lrs, optimizer.param_groups):
                group['initial_lr'] = top / div_factor
                group['max_lr'] = top
                group['min_lr'] = group['initial_lr'] / final_div_factor
        _init_momentum(self, optimizer, cycle_momentum, base_momentum, max_momentum, last_epoch)
        super().__init__(optimizer, last_epoch)

    def _anneal_func(self, start, end, pct):
        if self._anneal_func_type == 'cos':
            return self._annealing_cos(start, end, pct)
        return self._annealing_linear(start, end, pct)

    @staticmethod
    def _annealing_cos(start, end, pct):
        return end + (start - end) / 2.0 * (math.cos(math.pi * pct) + 1)

    @staticmethod
    def _annealing_linear(start, end, pct):
        return (end - start) * pct + start

    def get_lr(self):
        self._warn_get_lr()
        step = self.last_epoch
        if step > self.total_steps:
            raise ValueError('Tried to step %d times. The specified number of total steps is %d'
                             % (step, self.total_steps))
        lrs = []
        for group in self.optimizer.param_groups:
            start = 0.0
            for i, phase in enumerate(self._schedule_phases):
                end = phase['end_step']
                if step <= end or i == len(self._schedule_phases) - 1:
                    pct = (step - start) / (end - start)
                    lrs.append(self._anneal_func(group[phase['start_lr']], group[phase['end_lr']], pct))
                    if self.cycle_momentum:
                        _set_momentum(self, group, self._anneal_func(group[phase['start_momentum']],
                                                                     group[phase['end_momentum']], pct))
                    break
                start = phase['end_step']
        return lrs


for _cls in (LRScheduler, _LRScheduler, LambdaLR, MultiplicativeLR, StepLR, MultiStepLR, ConstantLR, LinearLR,
             ExponentialLR, PolynomialLR, CosineAnnealingLR, SequentialLR, ChainedScheduler, ReduceLROnPlateau,
             CyclicLR, CosineAnnealingWarmRestarts, OneCycleLR):
    _cls.__module__ = 'torch.optim.lr_scheduler'
# `import torch.optim.lr_scheduler` finds this module (engine.optim is a module, not a package; see nn.init)
sys.modules['engine.optim.lr_scheduler'] = sys.modules[__name__]
