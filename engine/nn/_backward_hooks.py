"""nn.Module backward hooks, as PyTorch makes them: the module's tensor inputs and outputs pass through an identity
Function (BackwardHookFunction) whose nodes capture the gradients of the outputs (grad_output) and of the inputs
(grad_input) and call the user's hooks (torch.utils.hooks.BackwardHook); the legacy register_backward_hook hooks the
node that made the output instead."""
import warnings

from .. import _autograd as ag
from .._function import Function
from .._tensor import Tensor, user_stacklevel


class BackwardHookFunction(Function):
    __module__ = 'torch.nn.modules._functions'

    @staticmethod
    def forward(ctx, *args):
        ctx.mark_non_differentiable(*[arg for arg in args if not arg.requires_grad])
        return args

    @staticmethod
    def backward(ctx, *args):
        return args


class BackwardHook:
    """Calls a module's full backward hooks (and backward pre-hooks) once the gradients of its outputs and of its
    inputs are known; non-tensor arguments show as None."""
    __module__ = 'torch.utils.hooks'

    def __init__(self, module, user_hooks, user_pre_hooks):
        self.user_hooks, self.user_pre_hooks, self.module = user_hooks, user_pre_hooks, module
        self.grad_outputs = None
        self.n_outputs = self.n_inputs = -1
        self.output_tensors_index = self.input_tensors_index = None

    @staticmethod
    def _pack_with_none(indices, values, size):
        res = [None] * size
        for idx, val in zip(indices, values):
            res[idx] = val
        return tuple(res)

    def _set_user_hook(self, grad_fn):
        def hook(grad_input, _):
            if self.grad_outputs is None:       # the gradient reached the inputs without passing the outputs
                return
            res = self._pack_with_none(self.input_tensors_index, grad_input, self.n_inputs)
            for user_hook in self.user_hooks:
                out = user_hook(self.module, res, self.grad_outputs)
                if out is None:
                    continue
                if len(out) != len(res):
                    raise RuntimeError('Backward hook returned an invalid number of grad_input, got %d, but expected '
                                       '%d' % (len(out), len(res)))
                res = out
            self.grad_outputs = None
            return tuple(res[i] for i in self.input_tensors_index)
        grad_fn.register_hook(hook)

    def _apply_on_tensors(self, fn, args):
        """The args with their tensors passed through BackwardHookFunction (`fn` gets its node), and where the tensors
        were; the args unchanged and None when none requires grad (or grad mode is off)."""
        tensors_idx = [i for i, a in enumerate(args) if isinstance(a, Tensor)]
        tensors = [args[i] for i in tensors_idx]
        if not (any(t.requires_grad for t in tensors) and ag.grad_enabled):
            return args, None
        new_tensors = BackwardHookFunction.apply(*tensors)
        fn(next(t.grad_fn for t in new_tensors if type(t.grad_fn) is BackwardHookFunction._backward_cls))
        arg_list = list(args)
        for idx, val in zip(tensors_idx, new_tensors):
            arg_list[idx] = val
        return (tuple(arg_list) if type(args) is tuple else type(args)(*arg_list)), tensors_idx

    def setup_input_hook(self, args):
        res, self.input_tensors_index = self._apply_on_tensors(self._set_user_hook, args)
        self.n_inputs = len(args)
        return res

    def setup_output_hook(self, args):
        def fn(grad_fn):
            def hook(_, grad_output):
                self.grad_outputs = self._pack_with_none(self.output_tensors_index, grad_output, self.n_outputs)
                for user_pre_hook in self.user_pre_hooks:
                    new = user_pre_hook(self.module, self.grad_outputs)
                    if new is None:
                        continue
                    if len(new) != len(self.grad_outputs):
                        raise RuntimeError('Backward pre hook returned an invalid number of grad_output, got %d, but '
                                           'expected %d' % (len(new), len(self.grad_outputs)))
                    self.grad_outputs = new
                local_grad_outputs = self.grad_outputs
                if self.input_tensors_index is None:    # no input requires grad: the hooks run here
                    warnings.warn('Full backward hook is firing when gradients are computed with respect to module '
                                  'outputs since no inputs require gradients. See https://docs.pytorch.org/docs/main/'
                                  'generated/torch.nn.Module.html#torch.nn.Module.register_full_backward_hook for '
                                  'more details.', stacklevel=user_stacklevel())
                    grad_inputs = (None,) * self.n_inputs
                    for user_hook in self.user_hooks:
                        res = user_hook(self.module, grad_inputs, self.grad_outputs)
                        if res is not None and not (isinstance(res, tuple) and all(el is None for el in res)):
                            raise RuntimeError('Backward hook for Modules where no input requires gradient should '
                                               'always return None or None for all gradients.')
                    self.grad_outputs = None
                if local_grad_outputs is not None:
                    return tuple(local_grad_outputs[i] for i in self.output_tensors_index)
            grad_fn.register_hook(hook)

        is_tuple = isinstance(args, tuple)
        res, self.output_tensors_index = self._apply_on_tensors(fn, args if is_tuple else (args,))
        self.n_outputs = len(args) if is_tuple else 1
        return res if is_tuple else res[0]


def maybe_warn_non_full_backward_hook(inputs, result, grad_fn):
    """PyTorch's warnings where a legacy (non-full) backward hook would miss some gradients."""
    if not isinstance(result, Tensor):
        if not (isinstance(result, tuple) and all(isinstance(r, Tensor) for r in result)):
            warnings.warn('Using non-full backward hooks on a Module that does not return a single Tensor or a tuple '
                          'of Tensors is deprecated and will be removed in future versions. This hook will be missing '
                          'some of the grad_output. Please use register_full_backward_hook to get the documented '
                          'behavior.', FutureWarning, stacklevel=2)
            return
    else:
        result = (result,)
    if not isinstance(inputs, Tensor):
        if not (isinstance(inputs, tuple) and all(isinstance(i, Tensor) for i in inputs)):
            warnings.warn('Using non-full backward hooks on a Module that does not take as input a single Tensor or a '
                          'tuple of Tensors is deprecated and will be removed in future versions. This hook will be '
                          'missing some of the grad_input. Please use register_full_backward_hook to get the '
                          'documented behavior.', FutureWarning, stacklevel=2)
            return
    else:
        inputs = (inputs,)
    out_grad_fn = {r.grad_fn for r in result if r.grad_fn is not None}
    if len(out_grad_fn) == 0 or (len(out_grad_fn) == 1 and grad_fn not in out_grad_fn):
        warnings.warn('Using a non-full backward hook when outputs are nested in python data structure is deprecated '
                      'and will be removed in future versions. This hook will be missing some grad_output.',
                      FutureWarning, stacklevel=2)
    elif len(out_grad_fn) > 1:
        warnings.warn('Using a non-full backward hook when outputs are generated by different autograd Nodes is '
                      'deprecated and will be removed in future versions. This hook will be missing some '
                      'grad_output. Please use register_full_backward_hook to get the documented behavior.',
                      FutureWarning, stacklevel=2)
    else:
        inputs_grad_fn = {i.grad_fn for i in inputs if i.grad_fn is not None}
        next_functions = {n[0] for n in grad_fn.next_functions}
        if inputs_grad_fn != next_functions:
            warnings.warn('Using a non-full backward hook when the forward contains multiple autograd Nodes is '
                          'deprecated and will be removed in future versions. This hook will be missing some '
                          'grad_input. Please use register_full_backward_hook to get the documented behavior.',
                          FutureWarning, stacklevel=2)
