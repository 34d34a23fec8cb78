"""torch.optim.lr_scheduler: schedules that change each parameter group's 'lr' once per scheduler.step(), with
PyTorch's arithmetic (each step's lr computed from the last one, in the same order), its 'initial_lr' entries in the
param groups and its warnings."""
import math
import sys
import warnings
from collections import Counter

_ORDER = ('Detected call of `lr_scheduler.step()` before `optimizer.step()`. In PyTorch 1.1.0 and later, you should '
          'call them in the opposite order: `optimizer.step()` before `lr_scheduler.step()`.  Failure to do this will '
          'result in PyTorch skipping the first value of the learning rate schedule. See more details at '
          'https://pytorch.org/docs/stable/optim.html#how-to-adjust-learning-rate')


def _count_steps(optimizer):
    """Make optimizer.step() note that it ran (the scheduler warns when it steps first)."""
    step = optimizer.step
    if getattr(step, '_wrapped_by_lr_sched', False):
        return

    def counted(*args, **kwargs):
        optimizer._opt_called = True
        return step(*args, **kwargs)
    counted._wrapped_by_lr_sched = True
    optimizer.step = counted


class LRScheduler:
    """Base class: sets each group's lr to get_lr()'s value at every step (epoch 0 on creation)."""

    def __init__(self, optimizer, last_epoch=-1):
        self.optimizer = optimizer
        if last_epoch == -1:
            for group in optimizer.param_groups:
                group.setdefault('initial_lr', group['lr'])
        else:
            for i, group in enumerate(optimizer.param_groups):
                if 'initial_lr' not in group:
                    raise KeyError("param 'initial_lr' is not specified in param_groups[%d] when resuming an "
                                   "optimizer" % i)
        self.base_lrs = [group['initial_lr'] for group in optimizer.param_groups]
        self.last_epoch = last_epoch
        _count_steps(optimizer)
        self._step_count = 0
        self._is_initial = True
        self._get_lr_called_within_step = False
        self.step()
        self._is_initial = False

    def get_lr(self):
        if not self._get_lr_called_within_step:
            warnings.warn('To get the last learning rate computed by the scheduler, please use `get_last_lr()`.',
                          UserWarning, stacklevel=2)
        return self._get_lr()

    def get_last_lr(self):
        return self._last_lr

    def step(self, epoch=None):
        if self._step_count == 1 and not getattr(self.optimizer, '_opt_called', False):
            warnings.warn(_ORDER, UserWarning, stacklevel=2)
        self._step_count += 1
        self.last_epoch += 1
        self._get_lr_called_within_step = True
        try:
            lrs = self.get_lr()
        finally:
            self._get_lr_called_within_step = False
        for group, lr in zip(self.optimizer.param_groups, lrs):
            group['lr'] = lr
        self._last_lr = [group['lr'] for group in self.optimizer.param_groups]

    def state_dict(self):
        return {k: v for k, v in self.__dict__.items() if k != 'optimizer'}

    def load_state_dict(self, state_dict):
        self.__dict__.update(state_dict)

    def _lrs(self):
        return [group['lr'] for group in self.optimizer.param_groups]


class StepLR(LRScheduler):
    """lr times gamma every step_size steps."""

    def __init__(self, optimizer, step_size, gamma=0.1, last_epoch=-1):
        self.step_size, self.gamma = step_size, gamma
        super().__init__(optimizer, last_epoch)

    def _get_lr(self):
        if self.last_epoch == 0 or self.last_epoch % self.step_size != 0:
            return self._lrs()
        return [lr * self.gamma for lr in self._lrs()]


class MultiStepLR(LRScheduler):
    """lr times gamma at each of the milestones (a step listed twice: gamma squared)."""

    def __init__(self, optimizer, milestones, gamma=0.1, last_epoch=-1):
        self.milestones, self.gamma = Counter(milestones), gamma
        super().__init__(optimizer, last_epoch)

    def _get_lr(self):
        if self.last_epoch not in self.milestones:
            return self._lrs()
        return [lr * self.gamma ** self.milestones[self.last_epoch] for lr in self._lrs()]


class ExponentialLR(LRScheduler):
    """lr times gamma at every step."""

    def __init__(self, optimizer, gamma, last_epoch=-1):
        self.gamma = gamma
        super().__init__(optimizer, last_epoch)

    def _get_lr(self):
        if self.last_epoch == 0:
            return self._lrs()
        return [lr * self.gamma for lr in self._lrs()]


class LambdaLR(LRScheduler):
    """The initial lr times lr_lambda(step) (one function, or one per group)."""

    def __init__(self, optimizer, lr_lambda, last_epoch=-1):
        n = len(optimizer.param_groups)
        if isinstance(lr_lambda, (list, tuple)):
            if len(lr_lambda) != n:
                raise ValueError('Expected %d lr_lambdas, but got %d' % (n, len(lr_lambda)))
            self.lr_lambdas = list(lr_lambda)
        else:
            self.lr_lambdas = [lr_lambda] * n
        super().__init__(optimizer, last_epoch)

    def _get_lr(self):
        return [base * f(self.last_epoch) for f, base in zip(self.lr_lambdas, self.base_lrs)]


class CosineAnnealingLR(LRScheduler):
    """lr following half a cosine from the initial lr down to eta_min over T_max steps (and back up), each step's
    lr computed from the last one."""

    def __init__(self, optimizer, T_max, eta_min=0.0, last_epoch=-1):
        self.T_max, self.eta_min = T_max, eta_min
        super().__init__(optimizer, last_epoch)

    def _get_lr(self):
        t, T, low = self.last_epoch, self.T_max, self.eta_min
        if t == 0:
            return self._lrs()
        if self._step_count == 1 and t > 0:
            return [low + (base - low) * (1 + math.cos(t * math.pi / T)) / 2 for base in self.base_lrs]
        if (t - 1 - T) % (2 * T) == 0:
            return [lr + (base - low) * (1 - math.cos(math.pi / T)) / 2 for lr, base in zip(self._lrs(), self.base_lrs)]
        return [(1 + math.cos(math.pi * t / T)) / (1 + math.cos(math.pi * (t - 1) / T)) * (lr - low) + low
                for lr in self._lrs()]


for _cls in (LRScheduler, StepLR, MultiStepLR, ExponentialLR, LambdaLR, CosineAnnealingLR):
    _cls.__module__ = 'torch.optim.lr_scheduler'
_LRScheduler = LRScheduler
# `import torch.optim.lr_scheduler` finds this module (engine.optim is a module, not a package; see nn.init)
sys.modules['engine.optim.lr_scheduler'] = sys.modules[__name__]
