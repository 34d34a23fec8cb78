"""torch.autograd.functional: jacobian, hessian, vjp, jvp, vhp, hvp of a Python function, by backward passes.

Each function runs the user's function on fresh copies of the inputs that require grad (detached ones, or views of
them with create_graph) and asks `autograd.grad` for the products it needs; without create_graph the results come
back detached. A product for an input the function does not depend on is zeros, or with strict=True PyTorch's
error.
"""
from . import _autograd as ag
from ._factories import zeros_like
from ._function import custom_function_rules
from ._ops import stack
from ._tensor import Tensor


def _tuple(x, what, fn):
    """(was it a tuple, the tensors as a tuple), with PyTorch's TypeError for anything but tensors."""
    is_tuple = isinstance(x, tuple)
    items = x if is_tuple else (x,)
    for i, el in enumerate(items):
        if not isinstance(el, Tensor):
            where = 'value at index %d' % i if is_tuple else 'given %s' % what
            raise TypeError('The %s given to %s must be either a Tensor or a tuple of Tensors but the %s has type %s.'
                            % (what, fn, where, type(el)))
    return is_tuple, items


def _unpack(res, is_tuple):
    return res if is_tuple else res[0]


def _fresh(inputs, create_graph, need_graph):
    """Inputs the function runs on: with create_graph, inputs that require grad stay connected (a view)."""
    return tuple(t.view_as(t) if create_graph and t.requires_grad else t.detach().requires_grad_(need_graph)
                 for t in inputs)


def _done(results, create_graph):
    return results if create_graph else tuple(r.detach() for r in results)


_INDEPENDENT = {
    'outputs': 'Output %d of the user-provided function does not require gradients. The outputs must be computed in a '
               'differentiable manner from the input when running in strict mode.',
    'grad_inputs': 'The gradient with respect to input %d is independent of the inputs of the user-provided function. '
                   'This is not allowed in strict mode.',
    'jacobian': 'While computing the hessian, found that the jacobian of the user-provided function with respect to '
                'input %d is independent of the input. This is not allowed in strict mode. You should ensure that '
                'your function is twice differentiable and that the jacobian depends on the inputs (this would be '
                'violated by a linear function for example).',
    'hessian': 'The hessian of the user-provided function with respect to input %d is independent of the input. This '
               'is not allowed in strict mode. You should ensure that your function is thrice differentiable and that '
               'the hessian depends on the inputs.'}


def _check_requires_grad(tensors, kind, strict):
    """strict=True: PyTorch's errors for an output (or gradient) that is not computed from the inputs."""
    if not strict:
        return
    for i, t in enumerate(tensors):
        if t is None:
            raise RuntimeError('The output of the user-provided function is independent of input %d. This is not '
                               'allowed in strict mode.' % i)
        if not t.requires_grad:
            raise RuntimeError(_INDEPENDENT[kind] % i)


_NONE_IN_STRICT = {
    'back': 'The output of the user-provided function is independent of input %d. This is not allowed in strict mode.',
    'back_trick': 'The gradient with respect to the input is independent of entry %d in the grad_outputs when using '
                  'the double backward trick to compute forward mode gradients. This is not allowed in strict mode.',
    'double_back': 'The jacobian of the user-provided function is independent of input %d. This is not allowed in '
                   'strict mode.',
    'double_back_trick': 'The hessian of the user-provided function is independent of entry %d in the grad_jacobian. '
                         'This is not allowed in strict mode as it prevents from using the double backward trick to '
                         'replace forward mode AD.'}


def _fill_in_zeros(grads, refs, strict, create_graph, stage):
    """None gradients as zeros shaped like refs, or (strict=True) PyTorch's error for them, and for gradients that
    do not depend on the inputs when create_graph is on."""
    res = []
    for i, g in enumerate(grads):
        if g is None:
            if strict:
                raise RuntimeError(_NONE_IN_STRICT[stage] % i)
            g = zeros_like(refs[i])
        elif strict and create_graph and not g.requires_grad:
            raise RuntimeError('The %s of the user-provided function is independent of input %d. This is not allowed '
                               'in strict mode when create_graph=True.'
                               % ('hessian' if 'double' in stage else 'jacobian', i))
        res.append(g)
    return tuple(res)


def _check_v(v, other, other_is_tuple, fn):
    """v as a tuple of tensors shaped like `other`, with PyTorch's errors."""
    _, v = _tuple(v, 'v', fn)
    if len(v) != len(other):
        raise RuntimeError('v is a tuple of invalid length: should be %d but got %d.' % (len(other), len(v))
                           if other_is_tuple else 'The given v should contain a single Tensor.')
    for i, (a, b) in enumerate(zip(v, other)):
        if a.shape != b.shape:
            raise RuntimeError('%sv has invalid size: should be %s but got %s.'
                               % ('Entry %d in ' % i if other_is_tuple else '', b.shape, a.shape))
    return v


def _inputs_and_v(inputs, v, create_graph, fn):
    """(was it a tuple, the fresh inputs, v shaped like them): v may be None only for one single-number input."""
    is_in, ins = _tuple(inputs, 'inputs', fn)
    ins = _fresh(ins, create_graph, True)
    if v is None:
        if len(ins) != 1 or ins[0].numel() != 1:
            raise RuntimeError('The vector v can only be None if the input to the user-provided function is a single '
                               'Tensor with a single element.')
    else:
        v = _fresh(_check_v(v, ins, is_in, fn), create_graph, False)
    return is_in, ins, v


def _grad(outputs, inputs, grad_outputs=None, create_graph=False):
    """autograd.grad of the outputs that require grad (None for every input when none does, or it is unused)."""
    from .autograd import grad
    pairs = [(o, g) for o, g in zip(outputs, grad_outputs or (None,) * len(outputs))
             if o is not None and o.requires_grad]
    if not pairs:
        got = (None,) * len(inputs)
    else:
        got = grad([o for o, _ in pairs], inputs, [g for _, g in pairs], retain_graph=True,
                   create_graph=create_graph, allow_unused=True)
    return got


def _run(func, inputs, fn, create_graph):
    with ag.enable_grad():
        is_in, inputs = _tuple(inputs, 'inputs', fn)
        inputs = _fresh(inputs, create_graph, True)
        is_out, outputs = _tuple(func(*inputs), 'outputs of the user-provided function', fn)
    return is_in, inputs, is_out, outputs


def vjp(func, inputs, v=None, create_graph=False, strict=False):
    """(func(inputs), v^T J): the vector-Jacobian product, by one backward pass."""
    is_in, inputs, is_out, outputs = _run(func, inputs, 'vjp', create_graph)
    _check_requires_grad(outputs, 'outputs', strict)
    if v is None:
        if len(outputs) != 1 or outputs[0].numel() != 1:
            raise RuntimeError('The vector v can only be None if the user-provided function returns a single Tensor '
                               'with a single element.')
    else:
        v = _fresh(_check_v(v, outputs, is_out, 'vjp'), create_graph, False)
    with ag.set_grad_enabled(bool(create_graph or ag.grad_enabled)):
        res = _fill_in_zeros(_grad(outputs, inputs, v, create_graph), inputs, strict, create_graph, 'back')
    return _unpack(_done(outputs, create_graph), is_out), _unpack(_done(res, create_graph), is_in)


def jvp(func, inputs, v=None, create_graph=False, strict=False):
    """(func(inputs), J v): the Jacobian-vector product, by the double-backward trick (as PyTorch computes it)."""
    with ag.enable_grad():
        is_in, ins, v = _inputs_and_v(inputs, v, create_graph, 'jvp')
        is_out, outputs = _tuple(func(*ins), 'outputs of the user-provided function', 'jvp')
        _check_requires_grad(outputs, 'outputs', strict)
        dummies = tuple(zeros_like(o, requires_grad=True) for o in outputs)
        back = _grad(outputs, ins, dummies, create_graph=True)
        _check_requires_grad(back, 'grad_inputs', strict)
    with ag.set_grad_enabled(bool(create_graph or ag.grad_enabled)):
        res = _fill_in_zeros(_grad(back, dummies, v, create_graph), outputs, strict, create_graph, 'back_trick')
    return _unpack(_done(outputs, create_graph), is_out), _unpack(_done(res, create_graph), is_out)


def jacobian(func, inputs, create_graph=False, strict=False, vectorize=False, strategy='reverse-mode'):
    """d func(inputs) / d inputs, one backward pass per output element: shape output.shape + input.shape (tuples of
    them for tuples of outputs / inputs). vectorize and strategy are checked as PyTorch checks them; the engine
    computes every Jacobian by backward passes."""
    if strategy not in ('forward-mode', 'reverse-mode'):
        raise AssertionError('Expected strategy to be either "forward-mode" or "reverse-mode". Hint: If your function '
                             'has more outputs than inputs, "forward-mode" tends to be more performant. Otherwise, '
                             'prefer to use "reverse-mode".')
    if strategy == 'forward-mode':
        if create_graph:
            raise NotImplementedError('torch.autograd.functional.jacobian: `create_graph=True` and '
                                      '`strategy="forward-mode"` are not supported together (yet). Please either set '
                                      '`create_graph=False` or `strategy="reverse-mode"`.')
        if strict:
            raise RuntimeError('torch.autograd.functional.jacobian: `strict=True` and `strategy="forward-mode"` are '
                               'not supported together (yet). Please either set `strict=False` or '
                               '`strategy="reverse-mode"`.')
        if not vectorize:
            raise NotImplementedError('Computing Jacobian using forward-AD or forward-over-reverse Hessian is'
                                      'only implemented for `vectorize=True`.')      # (sic: PyTorch's missing space)
    forward = strategy == 'forward-mode'
    if forward:
        # PyTorch's forward mode runs func on dual views of the inputs and detaches nothing: the Jacobian stays
        # attached to what requires grad (inputs or not) where grad mode is on, so the engine differentiates with
        # create_graph then (and _forward_jacobian detaches what depends only on the inputs' stand-ins)
        create_graph = ag.grad_enabled
        for t in _tuple(inputs, 'inputs', 'jacobian')[1]:
            if not (t.is_floating_point() or t.is_complex()):       # (make_dual's refusal)
                raise ValueError('Expected primal to be floating point or complex, but got: %s' % t.dtype)
    with custom_function_rules(forward=forward):     # (PyTorch runs func on dual tensors then)
        is_in, inputs, is_out, outputs = _run(func, inputs, 'jacobian', create_graph)
    _check_requires_grad(outputs, 'outputs', strict)
    if vectorize and strict:
        raise RuntimeError('torch.autograd.functional.jacobian: `strict=True` and `vectorized=True` are not supported '
                           'together. Please either set `strict=False` or `vectorize=False`.')
    with ag.enable_grad():
        if forward:
            result = [_forward_jacobian(out, inputs, create_graph) for out in outputs]
        elif vectorize:
            result = _vectorized_jacobian(outputs, inputs, create_graph)
        else:
            result = []
            for i, out in enumerate(outputs):
                rows = [_jacobian_row(out.reshape(-1)[j], inputs, create_graph, strict, i)
                        for j in range(out.numel())]
                per_input = []
                for i, t in enumerate(inputs):
                    full = stack([r[i] for r in rows])      # (an empty output: stack's error, as in PyTorch)
                    per_input.append(full.view(tuple(out.shape) + tuple(t.shape)))
                result.append(_done(tuple(per_input), create_graph))
    if forward:                 # (PyTorch's forward mode gives lists where reverse mode gives tuples)
        if not is_in:
            result = tuple(r[0] for r in result)
        return result if is_out else result[0]
    if not is_in:
        result = [r[0] for r in result]
    return tuple(result) if is_out else result[0]


def _vectorized_jacobian(outputs, inputs, create_graph):
    """The vectorized Jacobians, as PyTorch's vmap over backward passes makes them: each row is the gradient of all
    the outputs at once against a one-hot vector (zeros for the other outputs, whose products with zero then add to
    the row), and one tensor per input holds every output's rows, split per output (so with create_graph every
    piece of it is attached when one part is)."""
    from .func import _basis
    flat = [out.reshape(-1) for out in outputs]
    rows = []
    for i, f in enumerate(flat):
        for j in range(f.numel()):
            got = _grad(flat, inputs, _basis(flat, i, j), create_graph)
            rows.append([zeros_like(t) if g is None else g for g, t in zip(got, inputs)])
    numels = [out.numel() for out in outputs]
    pieces = [stack([r[k] for r in rows]).split(numels) for k in range(len(inputs))]
    return [_done(tuple(p[i].view(tuple(out.shape) + tuple(t.shape)) for p, t in zip(pieces, inputs)), create_graph)
            for i, out in enumerate(outputs)]


def _forward_jacobian(out, inputs, create_graph):
    """The Jacobians of one output as forward mode makes them: one tangent J e per input element (see
    func._forward_tangents), a batch of shape (inputs' numel,) + out.shape, split per input, the batch dimension moved
    last and reshaped, so an attached result ends in PyTorch's grad_fn (ReshapeAliasBackward0 for a non-scalar
    output). It stays attached (with create_graph) only when it depends on something requiring grad other than the
    leaves standing in for the inputs that did not."""
    from .func import _Level, _forward_tangents
    numels = [t.numel() for t in inputs]
    tangents = _forward_tangents(out, inputs)
    level = _Level()
    level.fresh = {id(t): t for t in inputs if t.is_leaf}
    if tangents.requires_grad and not (create_graph and level._reaches_outside(tangents)):
        tangents = tangents.detach()
    return [piece.permute(*range(1, piece.dim()), 0).reshape(tuple(out.shape) + tuple(t.shape))
            for piece, t in zip(tangents.split(numels), inputs)]


def _jacobian_row(out, inputs, create_graph, strict, i):
    """The gradients of one number (of output i): zeros for unused inputs, or PyTorch's errors in strict mode."""
    res = []
    for k, (g, t) in enumerate(zip(_grad((out,), inputs, None, create_graph), inputs)):
        if g is None:
            if strict:
                raise RuntimeError('Output %d of the user-provided function is independent of input %d. This is not '
                                   'allowed in strict mode.' % (i, k))
            g = zeros_like(t)
        elif strict and create_graph and not g.requires_grad:
            raise RuntimeError('The jacobian of the user-provided function is independent of input %d. This is not '
                               'allowed in strict mode when create_graph=True.' % i)
        res.append(g)
    return res


def hessian(func, inputs, create_graph=False, strict=False, vectorize=False, outer_jacobian_strategy='reverse-mode'):
    """The matrix of second derivatives of a function returning one number (the jacobian of its jacobian)."""
    is_in, ins = _tuple(inputs, 'inputs', 'hessian')
    if outer_jacobian_strategy not in ('forward-mode', 'reverse-mode'):
        raise AssertionError('Expected strategy to be either "forward-mode" or "reverse-mode".')

    def single(*args):
        out = func(*args)
        is_tuple, t_out = _tuple(out, 'outputs of the user-provided function', 'hessian')
        _check_requires_grad(t_out, 'outputs', strict)
        if is_tuple or not isinstance(out, Tensor):
            raise RuntimeError('The function given to hessian should return a single Tensor')
        if out.numel() != 1:
            raise RuntimeError('The Tensor returned by the function given to hessian should contain a single element')
        return out.squeeze()

    def grad_of(*args):
        if outer_jacobian_strategy == 'forward-mode':
            args = tuple(t.requires_grad_(True) for t in args)
        jac = jacobian(single, args, create_graph=True)
        _check_requires_grad(jac, 'jacobian', strict)
        return jac

    if outer_jacobian_strategy == 'forward-mode':
        # (in PyTorch grad_of's requires_grad_ reaches the dual views of the inputs: the Hessian comes back attached)
        ins = tuple(t if t.requires_grad or not t.is_floating_point() else t.detach().requires_grad_(True)
                    for t in ins)
    res = jacobian(grad_of, ins, create_graph=create_graph, strict=strict, vectorize=vectorize,
                   strategy=outer_jacobian_strategy)
    if not is_in:
        res = res[0][0]
    return res


def _second(func, inputs, v, create_graph, strict, fn, transpose):
    """vhp (v^T H) and hvp (H v, by one more backward pass as PyTorch does): (func(inputs), product)."""
    with ag.enable_grad():
        is_in, ins, v = _inputs_and_v(inputs, v, create_graph, fn)
        is_out, outputs = _tuple(func(*ins), 'outputs of the user-provided function', fn)
        _check_requires_grad(outputs, 'outputs', strict)
        if is_out or not isinstance(outputs[0], Tensor):
            raise RuntimeError('The function given to %s should return a single Tensor' % fn)
        if outputs[0].numel() != 1:
            raise RuntimeError('The Tensor returned by the function given to %s should contain a single element' % fn)
        jac = _grad(outputs, ins, None, create_graph=True)
        _check_requires_grad(jac, 'jacobian', strict)
        if not transpose:
            dummies = tuple(zeros_like(t, requires_grad=True) for t in ins)
            back = _grad(jac, ins, dummies, create_graph=True)
            _check_requires_grad(jac, 'hessian', strict)         # (sic: PyTorch checks jac again, not back)
    with ag.set_grad_enabled(bool(create_graph or ag.grad_enabled)):
        if transpose:
            res = _fill_in_zeros(_grad(jac, ins, v, create_graph), ins, strict, create_graph, 'double_back')
        else:
            res = _fill_in_zeros(_grad(back, dummies, v, create_graph), ins, strict, create_graph, 'double_back_trick')
    return _unpack(_done(outputs, create_graph), False), _unpack(_done(res, create_graph), is_in)


def vhp(func, inputs, v=None, create_graph=False, strict=False):
    """(func(inputs), v^T H): vector-Hessian product of a function returning one number."""
    return _second(func, inputs, v, create_graph, strict, 'vhp', True)


def hvp(func, inputs, v=None, create_graph=False, strict=False):
    """(func(inputs), H v): Hessian-vector product of a function returning one number."""
    return _second(func, inputs, v, create_graph, strict, 'hvp', False)
