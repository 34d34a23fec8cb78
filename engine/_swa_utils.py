"""torch.optim.swa_utils: stochastic weight averaging and EMA of a model's parameters (AveragedModel), its learning
rate schedule (SWALR), and update_bn for the BatchNorm statistics of the averaged model.

On a CPU, AveragedModel averages one parameter at a time with get_swa_avg_fn's formula (PyTorch's foreach kernels,
which lerp, serve GPUs only): averaged + (current - averaged) / (n_averaged + 1), n_averaged a long 0-d tensor."""
import copy
import itertools
import math
import sys

from . import _autograd as ag
from ._lr_scheduler import LRScheduler, _format_param

__all__ = ['AveragedModel', 'update_bn', 'SWALR', 'get_ema_multi_avg_fn', 'get_swa_multi_avg_fn', 'get_ema_avg_fn',
           'get_swa_avg_fn']


def _check_decay(decay):
    if decay < 0.0 or decay > 1.0:
        raise ValueError(f'Invalid decay value {decay} provided. Please provide a value in [0,1] range.')


def get_ema_multi_avg_fn(decay=0.999):
    """EMA over lists of parameters: each lerped toward the model's by 1 - decay (integer ones by the formula)."""
    _check_decay(decay)

    def ema_update(ema_param_list, current_param_list, _):
        with ag.no_grad():
            for p_ema, p_model in zip(ema_param_list, current_param_list):
                if p_ema.is_floating_point():
                    p_ema.lerp_(p_model, 1 - decay)
                else:
                    p_ema.copy_(p_ema * decay + p_model * (1 - decay))
    return ema_update


def get_swa_multi_avg_fn():
    """The running average over lists of parameters: each lerped toward the model's by 1 / (n_averaged + 1)."""
    def swa_update(averaged_param_list, current_param_list, num_averaged):
        with ag.no_grad():
            for p_avg, p_model in zip(averaged_param_list, current_param_list):
                if p_avg.is_floating_point():
                    p_avg.lerp_(p_model, float(1 / (num_averaged + 1)))
                elif hasattr(num_averaged, 'dim'):
                    p_avg.addcdiv_(p_model - p_avg, num_averaged + 1)
                else:
                    p_avg.add_(p_model - p_avg, alpha=1.0 / (num_averaged + 1))
    return swa_update


def get_ema_avg_fn(decay=0.999):
    """EMA of one parameter: decay * ema + (1 - decay) * current."""
    _check_decay(decay)

    def ema_update(ema_param, current_param, num_averaged):
        with ag.no_grad():
            return decay * ema_param + (1 - decay) * current_param
    return ema_update


def get_swa_avg_fn():
    """The running average of one parameter: averaged + (current - averaged) / (num_averaged + 1)."""
    def swa_update(averaged_param, current_param, num_averaged):
        with ag.no_grad():
            return averaged_param + (current_param - averaged_param) / (num_averaged + 1)
    return swa_update


def _module_base():
    from .nn import Module
    return Module


class AveragedModel(_module_base()):
    """A copy of `model` whose parameters (and buffers, with use_buffers) average the model's over
    update_parameters calls: a plain running average by default, avg_fn / multi_avg_fn for another (an EMA)."""
    __module__ = 'torch.optim.swa_utils'

    def __init__(self, model, device=None, avg_fn=None, multi_avg_fn=None, use_buffers=False):
        from . import tensor, int64
        super().__init__()
        if avg_fn is not None and multi_avg_fn is not None:
            raise AssertionError('Only one of avg_fn and multi_avg_fn should be provided')
        self.module = copy.deepcopy(model)
        if device is not None:
            self.module = self.module.to(device)
        self.register_buffer('n_averaged', tensor(0, dtype=int64, device=device))
        self.avg_fn = avg_fn
        self.multi_avg_fn = multi_avg_fn
        self.use_buffers = use_buffers

    def forward(self, *args, **kwargs):
        return self.module(*args, **kwargs)

    def update_parameters(self, model):
        """Fold the model's current parameters into the average (the first call copies them)."""
        if self.use_buffers:
            pairs = zip(itertools.chain(self.module.parameters(), self.module.buffers()),
                        itertools.chain(model.parameters(), model.buffers()))
        else:
            pairs = zip(self.parameters(), model.parameters())
        averaged, current = [], []
        first = bool(self.n_averaged == 0)
        for p_averaged, p_model in pairs:
            p_model_ = p_model.detach()
            averaged.append(p_averaged.detach())
            current.append(p_model_)
            if first:
                p_averaged.detach().copy_(p_model_)
        if self.n_averaged > 0:
            with ag.no_grad():
                if self.multi_avg_fn is not None:
                    for group_averaged, group_current in _by_dtype(averaged, current):
                        self.multi_avg_fn(group_averaged, group_current, self.n_averaged)
                else:
                    avg_fn = self.avg_fn or get_swa_avg_fn()
                    pairs = ((a, c) for group in _by_dtype(averaged, current) for a, c in zip(*group)) \
                        if self.avg_fn is None else zip(averaged, current)
                    for p_averaged, p_model in pairs:
                        p_averaged.copy_(avg_fn(p_averaged, p_model, self.n_averaged))
        if not self.use_buffers:        # (the buffers follow the model's: BatchNorm's statistics, see update_bn)
            for b_swa, b_model in zip(self.module.buffers(), model.buffers()):
                b_swa.detach().copy_(b_model.detach())
        self.n_averaged += 1


def _by_dtype(averaged, current):
    """The pairs grouped by dtype, in the order the dtypes first come (PyTorch's grouping by device and dtype)."""
    groups = {}
    for a, c in zip(averaged, current):
        group = groups.setdefault(a.dtype, ([], []))
        group[0].append(a)
        group[1].append(c)
    return list(groups.values())


def update_bn(loader, model, device=None):
    """One pass over loader's batches (a tensor, or its first element) in training mode with the BatchNorm layers'
    statistics reset and averaged over the whole pass (momentum None); their momentum and the mode are put back."""
    from .nn import _BatchNorm
    with ag.no_grad():
        momenta = {}
        for module in model.modules():
            if isinstance(module, _BatchNorm):
                module.reset_running_stats()
                momenta[module] = module.momentum
        if not momenta:
            return
        was_training = model.training
        model.train()
        for module in momenta:
            module.momentum = None
        for input in loader:
            if isinstance(input, (list, tuple)):
                input = input[0]
            if device is not None:
                input = input.to(device)
            model(input)
        for module, momentum in momenta.items():
            module.momentum = momentum
        model.train(was_training)


class SWALR(LRScheduler):
    """Anneals each group's learning rate to its swa_lr over anneal_epochs steps (cosine or linear), then keeps it."""
    __module__ = 'torch.optim.swa_utils'

    def __init__(self, optimizer, swa_lr, anneal_epochs=10, anneal_strategy='cos', last_epoch=-1):
        for value, group in zip(_format_param('swa_lr', optimizer, swa_lr), optimizer.param_groups):
            group['swa_lr'] = value
        if anneal_strategy not in ['cos', 'linear']:
            raise ValueError(f"anneal_strategy must be one of 'cos' or 'linear', instead got {anneal_strategy}")
        self._set_anneal_func(anneal_strategy)
        if not isinstance(anneal_epochs, int) or anneal_epochs < 0:
            raise ValueError(f'anneal_epochs must be equal or greater than 0, got {anneal_epochs}')
        self.anneal_epochs = anneal_epochs
        super().__init__(optimizer, last_epoch)

    @staticmethod
    def _linear_anneal(t):
        return t

    @staticmethod
    def _cosine_anneal(t):
        return (1 - math.cos(math.pi * t)) / 2

    @staticmethod
    def _get_initial_lr(lr, swa_lr, alpha):
        return swa_lr if alpha == 1 else (lr - alpha * swa_lr) / (1 - alpha)

    def get_lr(self):
        self._warn_get_lr()
        step = self._step_count - 1
        if self.anneal_epochs == 0:
            step = max(1, step)
        prev_alpha = self.anneal_func(max(0, min(1, (step - 1) / max(1, self.anneal_epochs))))
        prev_lrs = [self._get_initial_lr(group['lr'], group['swa_lr'], prev_alpha)
                    for group in self.optimizer.param_groups]
        alpha = self.anneal_func(max(0, min(1, step / max(1, self.anneal_epochs))))
        return [group['swa_lr'] * alpha + lr * (1 - alpha) for group, lr in zip(self.optimizer.param_groups, prev_lrs)]

    def _set_anneal_func(self, anneal_strategy):
        self._anneal_strategy = anneal_strategy
        self.anneal_func = self._cosine_anneal if anneal_strategy == 'cos' else self._linear_anneal

    def state_dict(self):
        return {key: value for key, value in self.__dict__.items() if key not in ('optimizer', 'anneal_func')}

    def load_state_dict(self, state_dict):
        self.__dict__.update(state_dict)
        self._set_anneal_func(self._anneal_strategy)


sys.modules['engine.optim.swa_utils'] = sys.modules[__name__]
