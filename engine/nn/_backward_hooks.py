"""nn.Module's backward hooks, with PyTorch's graph and messages.

Full hooks (register_full_backward_hook, register_full_backward_pre_hook): the module's tensor arguments, then its
tensor outputs, pass through an identity Function, BackwardHookFunction (so outputs show
grad_fn=<BackwardHookFunctionBackward>). In backward, the node of the outputs' pass runs first: it holds grad_output,
runs the pre-hooks on it (they may replace it). The node of the arguments' pass runs later with grad_input and calls
the hooks with both (they may replace grad_input). Arguments and outputs that are not tensors show as None.

Legacy hooks (register_backward_hook) hook the node that made the output; PyTorch warns where that misses
gradients (warn_legacy)."""
import warnings

from .. import _autograd as ag
from .._function import Function
from .._tensor import Tensor, user_stacklevel


class BackwardHookFunction(Function):
    """The identity, on all the tensors of one side of a module at once (those not requiring grad pass through
    undifferentiated)."""
    __module__ = 'torch.nn.modules._functions'

    @staticmethod
    def forward(ctx, *args):
        ctx.mark_non_differentiable(*[a for a in args if not a.requires_grad])
        return args

    @staticmethod
    def backward(ctx, *grads):
        return grads


_NO_INPUT_GRAD = ('Full backward hook is firing when gradients are computed with respect to module outputs since no '
                  'inputs require gradients. See https://docs.pytorch.org/docs/main/generated/torch.nn.Module.html'
                  '#torch.nn.Module.register_full_backward_hook for more details.')


def _spread(where, values, n):
    """n slots holding values at the positions `where`, None elsewhere."""
    slots = [None] * n
    for i, v in zip(where, values):
        slots[i] = v
    return tuple(slots)


def _checked(new, old, what):
    if len(new) != len(old):
        raise RuntimeError('Backward %s returned an invalid number of %s, got %d, but expected %d'
                           % (what[0], what[1], len(new), len(old)))
    return new


class FullHooks:
    """One call of a module that has full backward hooks or pre-hooks: wraps its arguments and outputs, and keeps
    grad_output from the outputs' node until the arguments' node runs."""

    def __init__(self, module, hooks, pre_hooks):
        self.module, self.hooks, self.pre_hooks = module, hooks, pre_hooks
        self.grad_output = None
        self.n_args = self.n_outs = 0
        self.args_at = self.outs_at = None          # positions of the wrapped tensors (None: nothing wrapped)

    def wrap_args(self, args):
        self.n_args = len(args)
        args, self.args_at = self._through_identity(args, self._grad_input_hook)
        return args

    def wrap_output(self, out):
        many = isinstance(out, tuple)
        outs = out if many else (out,)
        self.n_outs = len(outs)
        outs, self.outs_at = self._through_identity(outs, self._grad_output_hook)
        return outs if many else outs[0]

    @staticmethod
    def _through_identity(values, node_hook):
        """values with their tensors passed through BackwardHookFunction (whose node gets node_hook), and the
        tensors' positions; unchanged and None when no tensor requires grad or grad mode is off."""
        at = [i for i, v in enumerate(values) if isinstance(v, Tensor)]
        if not (ag.grad_enabled and any(values[i].requires_grad for i in at)):
            return values, None
        passed = BackwardHookFunction.apply(*[values[i] for i in at])

        def hook(grads, outputs):    # (named as PyTorch's: "hook 'hook' has changed the size of value")
            return node_hook(grads, outputs)
        next(t.grad_fn for t in passed if type(t.grad_fn) is BackwardHookFunction._backward_cls).register_hook(hook)
        values = list(values)
        for i, t in zip(at, passed):
            values[i] = t
        return tuple(values), at

    def _grad_output_hook(self, _, grads):
        """The outputs' node ran: the gradients it received are grad_output, None for an output backward did not
        reach (as they came, before the identity's backward made zeros of them); the pre-hooks may replace them."""
        self.grad_output = _spread(self.outs_at, grads, self.n_outs)
        for hook in self.pre_hooks:
            new = hook(self.module, self.grad_output)
            if new is not None:
                self.grad_output = _checked(new, self.grad_output, ('pre hook', 'grad_output'))
        grad_output = self.grad_output
        if self.args_at is None:                     # no argument requires grad: the hooks run now
            warnings.warn(_NO_INPUT_GRAD, stacklevel=user_stacklevel())
            for hook in self.hooks:
                new = hook(self.module, (None,) * self.n_args, self.grad_output)
                if new is not None and not (isinstance(new, tuple) and all(g is None for g in new)):
                    raise RuntimeError('Backward hook for Modules where no input requires gradient should always '
                                       'return None or None for all gradients.')
            self.grad_output = None
        return tuple(grad_output[i] for i in self.outs_at)

    def _grad_input_hook(self, grads, _):
        """The arguments' node ran: its gradients are grad_input, the hooks' to see and replace."""
        if self.grad_output is None:                 # (the gradient reached the arguments bypassing the outputs)
            return None
        grad_input = _spread(self.args_at, grads, self.n_args)
        for hook in self.hooks:
            new = hook(self.module, grad_input, self.grad_output)
            if new is not None:
                grad_input = _checked(new, grad_input, ('hook', 'grad_input'))
        self.grad_output = None
        return tuple(grad_input[i] for i in self.args_at)


_LEGACY = ('Using non-full backward hooks on a Module that does not %s is deprecated and will be removed in future '
           'versions. This hook will be missing some of the %s. Please use register_full_backward_hook to get the '
           'documented behavior.')
_LEGACY_PARTS = ('Using a non-full backward hook when %s is deprecated and will be removed in future versions. '
                 'This hook will be missing some %s.')
_FULL_INSTEAD = ' Please use register_full_backward_hook to get the documented behavior.'


def warn_legacy(args, out, node):
    """PyTorch's FutureWarning where a legacy hook on `node` (which made `out`) misses some gradients: the module's
    arguments or output are not tensors, the outputs come from several nodes, or the forward made several."""
    def warn(text):
        warnings.warn(text, FutureWarning, stacklevel=3)
    outs = (out,) if isinstance(out, Tensor) else out
    if not (isinstance(outs, tuple) and all(isinstance(o, Tensor) for o in outs)):
        return warn(_LEGACY % ('return a single Tensor or a tuple of Tensors', 'grad_output'))
    ins = (args,) if isinstance(args, Tensor) else args
    if not (isinstance(ins, tuple) and all(isinstance(i, Tensor) for i in ins)):
        return warn(_LEGACY % ('take as input a single Tensor or a tuple of Tensors', 'grad_input'))
    made_by = {o.grad_fn for o in outs if o.grad_fn is not None}
    if not made_by or len(made_by) == 1 and node not in made_by:
        return warn(_LEGACY_PARTS % ('outputs are nested in python data structure', 'grad_output'))
    if len(made_by) > 1:
        return warn(_LEGACY_PARTS % ('outputs are generated by different autograd Nodes', 'grad_output')
                    + _FULL_INSTEAD)
    if {i.grad_fn for i in ins if i.grad_fn is not None} != {fn for fn, _ in node.next_functions}:
        warn(_LEGACY_PARTS % ('the forward contains multiple autograd Nodes', 'grad_input') + _FULL_INSTEAD)
