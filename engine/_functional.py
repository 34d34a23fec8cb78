"""torch.autograd.functional: jacobian, hessian, vjp, jvp, vhp, hvp of a Python function, by backward passes.

Each function runs the user's function on fresh copies of the inputs that require grad (detached ones, or views of
them with create_graph) and asks `autograd.grad` for the products it needs; without create_graph the results come
back detached. A product for an input the function does not depend on is zeros, as in PyTorch (strict=False).
"""
from . import _autograd as ag
from ._factories import zeros_like
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


def _strict(strict):
    if strict:
        raise NotImplementedError('strict=True is not supported by the playground engine')


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
    """autograd.grad of the outputs that require grad (None for every input when none does); None -> zeros."""
    from .autograd import grad
    pairs = [(o, g) for o, g in zip(outputs, grad_outputs or (None,) * len(outputs))
             if o is not None and o.requires_grad]
    if not pairs:
        got = (None,) * len(inputs)
    else:
        got = grad([o for o, _ in pairs], inputs, [g for _, g in pairs], retain_graph=True,
                   create_graph=create_graph, allow_unused=True)
    return tuple(zeros_like(t) if g is None else g for g, t in zip(got, inputs))


def _run(func, inputs, fn, create_graph):
    with ag.enable_grad():
        is_in, inputs = _tuple(inputs, 'inputs', fn)
        inputs = _fresh(inputs, create_graph, True)
        is_out, outputs = _tuple(func(*inputs), 'outputs of the user-provided function', fn)
    return is_in, inputs, is_out, outputs


def vjp(func, inputs, v=None, create_graph=False, strict=False):
    """(func(inputs), v^T J): the vector-Jacobian product, by one backward pass."""
    _strict(strict)
    is_in, inputs, is_out, outputs = _run(func, inputs, 'vjp', create_graph)
    if v is None:
        if len(outputs) != 1 or outputs[0].numel() != 1:
            raise RuntimeError('The vector v can only be None if the user-provided function returns a single Tensor '
                               'with a single element.')
    else:
        v = _fresh(_check_v(v, outputs, is_out, 'vjp'), create_graph, False)
    with ag.set_grad_enabled(create_graph or ag.grad_enabled):
        res = _grad(outputs, inputs, v, create_graph)
    return _unpack(_done(outputs, create_graph), is_out), _unpack(_done(res, create_graph), is_in)


def jvp(func, inputs, v=None, create_graph=False, strict=False):
    """(func(inputs), J v): the Jacobian-vector product, by the double-backward trick (as PyTorch computes it)."""
    _strict(strict)
    with ag.enable_grad():
        is_in, ins, v = _inputs_and_v(inputs, v, create_graph, 'jvp')
        is_out, outputs = _tuple(func(*ins), 'outputs of the user-provided function', 'jvp')
        dummies = tuple(zeros_like(o, requires_grad=True) for o in outputs)
        back = _grad(outputs, ins, dummies, create_graph=True)
    with ag.set_grad_enabled(create_graph or ag.grad_enabled):
        res = _grad(back, dummies, v, create_graph)
    return _unpack(_done(outputs, create_graph), is_out), _unpack(_done(res, create_graph), is_out)


def jacobian(func, inputs, create_graph=False, strict=False, vectorize=False, strategy='reverse-mode'):
    """d func(inputs) / d inputs, one backward pass per output element: shape output.shape + input.shape (tuples of
    them for tuples of outputs / inputs)."""
    _strict(strict)
    is_in, inputs, is_out, outputs = _run(func, inputs, 'jacobian', create_graph)
    with ag.enable_grad():
        result = []
        for out in outputs:
            rows = [_grad((out.reshape(-1)[j],), inputs, None, create_graph) for j in range(out.numel())]
            per_input = []
            for i, t in enumerate(inputs):
                full = stack([r[i] for r in rows]) if rows else zeros_like(t).reshape(0, *t.shape)
                per_input.append(full.view(tuple(out.shape) + tuple(t.shape)))
            result.append(_done(tuple(per_input), create_graph))
    if not is_in:
        result = [r[0] for r in result]
    return tuple(result) if is_out else result[0]


def hessian(func, inputs, create_graph=False, strict=False, vectorize=False, outer_jacobian_strategy='reverse-mode'):
    """The matrix of second derivatives of a function returning one number (the jacobian of its jacobian)."""
    _strict(strict)
    is_in, ins = _tuple(inputs, 'inputs', 'hessian')

    def single(*args):
        out = func(*args)
        is_tuple, _ = _tuple(out, 'outputs of the user-provided function', 'hessian')
        if is_tuple or not isinstance(out, Tensor):
            raise RuntimeError('The function given to hessian should return a single Tensor')
        if out.numel() != 1:
            raise RuntimeError('The Tensor returned by the function given to hessian should contain a single element')
        return out.squeeze()

    def grad_of(*args):
        return jacobian(single, args, create_graph=True)

    res = jacobian(grad_of, ins, create_graph=create_graph)
    if not is_in:
        res = res[0][0]
    return res


def _second(func, inputs, v, create_graph, strict, fn, transpose):
    """vhp (v^T H) and hvp (H v, by one more backward pass as PyTorch does): (func(inputs), product)."""
    _strict(strict)
    with ag.enable_grad():
        is_in, ins, v = _inputs_and_v(inputs, v, create_graph, fn)
        is_out, outputs = _tuple(func(*ins), 'outputs of the user-provided function', fn)
        if is_out or not isinstance(outputs[0], Tensor):
            raise RuntimeError('The function given to %s should return a single Tensor' % fn)
        if outputs[0].numel() != 1:
            raise RuntimeError('The Tensor returned by the function given to %s should contain a single element' % fn)
        jac = _grad(outputs, ins, None, create_graph=True)
        if not transpose:
            dummies = tuple(zeros_like(t, requires_grad=True) for t in ins)
            back = _grad(jac, ins, dummies, create_graph=True)
    with ag.set_grad_enabled(create_graph or ag.grad_enabled):
        res = _grad(jac, ins, v, create_graph) if transpose else _grad(back, dummies, v, create_graph)
    return _unpack(_done(outputs, create_graph), False), _unpack(_done(res, create_graph), is_in)


def vhp(func, inputs, v=None, create_graph=False, strict=False):
    """(func(inputs), v^T H): vector-Hessian product of a function returning one number."""
    return _second(func, inputs, v, create_graph, strict, 'vhp', True)


def hvp(func, inputs, v=None, create_graph=False, strict=False):
    """(func(inputs), H v): Hessian-vector product of a function returning one number."""
    return _second(func, inputs, v, create_graph, strict, 'hvp', False)
