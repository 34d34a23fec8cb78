"""torch.autograd.gradcheck / gradgradcheck: backward's Jacobians against central finite differences.

A port of PyTorch's slow and fast modes (torch/autograd/gradcheck.py) for dense real tensors, with their checks and
messages; the forward-AD and vmap checks are not available.
"""
import itertools
import warnings

from ._function import Function
from ._tensor import Tensor


class GradcheckError(RuntimeError):
    """Error raised by gradcheck and gradgradcheck."""


GradcheckError.__module__ = 'torch.autograd.gradcheck'

FAILED_NONDET_MSG = """\n
NOTE: If your op relies on non-deterministic operations i.e., it is listed here:
https://pytorch.org/docs/stable/generated/torch.use_deterministic_algorithms.html
this failure might be expected.

If you are adding a new operator, please file an issue and then use one of the
workarounds. The workaround depends on how your test invokes gradcheck/gradgradcheck.
If the test
- manually invokes gradcheck/gradgradcheck, then call gradcheck/gradgradcheck
  with `nondet_tol=<tol>` as a keyword argument.
- is OpInfo-based (e.g., in test_ops_gradients.py), then modify the OpInfo for the test
  to have `gradcheck_nondet_tol=<tol>`.
- is a Module test (e.g., in common_nn.py), then modify the corresponding
  module_test entry to have `gradcheck_nondet_tol=<tol>`
"""

_UNDEFINED_NOTE = 'Please look at "Notes about undefined output gradients" in "tools/autograd/derivatives.yaml"'


def _torch():
    import engine
    return engine


def _as_tuple(x):
    return x if isinstance(x, tuple) else tuple(x) if isinstance(x, list) else (x,)


def _differentiable_outputs(x):
    return tuple(o for o in _as_tuple(x) if o.requires_grad)


def _diff_inputs(inputs):
    return [t for t in inputs if isinstance(t, Tensor) and t.requires_grad]


def _is_float(t):
    return t.is_floating_point() or t.is_complex()


def _check_inputs(inputs):
    """PyTorch's warning for inputs that are not double precision, its errors for expanded inputs or none
    requiring grad."""
    found = False
    for idx, inp in enumerate(inputs):
        if isinstance(inp, Tensor) and inp.requires_grad:
            if inp.dtype is not _torch().float64:
                warnings.warn(f'Input #{idx} requires gradient and is not a double precision floating point or '
                              'complex. This check will likely fail if all the inputs are not of double precision '
                              'floating point or complex. ', stacklevel=4)
            if not all(st > 0 or sz <= 1 for st, sz in zip(inp.stride(), inp.size())):
                raise RuntimeError(f'The {idx}th input has a dimension with stride 0. gradcheck only supports inputs '
                                   'that are non-overlapping to be able to compute the numerical gradients correctly. '
                                   'You should call .contiguous on the input before passing it to gradcheck.')
            found = True
    if not found:
        raise ValueError('gradcheck expects at least one input tensor to require gradient, but none of them have '
                         'requires_grad=True.')


def _check_same(a, b, eps, idx=None):
    on_index = f'on index {idx} ' if idx is not None else ''
    if a.shape != b.shape:
        raise AssertionError(f'Expected `func` to return outputs with the same shape when inputs are perturbed '
                             f'{on_index}by {eps}, but got: shapes {a.shape} and {b.shape}.')
    if a.dtype != b.dtype:
        raise AssertionError(f'Expected `func` to return outputs with the same dtype when inputs are perturbed '
                             f'{on_index}by {eps}, but got: dtypes {a.dtype} and {b.dtype}.')


def _central_difference(func, inputs, entry, v, eps, idx=None):
    """(f(x + v) - f(x - v)) / (2 eps) of each output of func(*inputs), flattened, with `entry` (memory of an input,
    through .data, unseen by autograd) moved by -v and +v in turn."""
    orig = entry.clone()
    entry.copy_(orig - v)
    outa = tuple(a.clone() for a in _as_tuple(func(*inputs)))
    entry.copy_(orig + v)
    outb = tuple(a.clone() for a in _as_tuple(func(*inputs)))
    entry.copy_(orig)
    col = []
    for a, b in zip(outa, outb):
        _check_same(a, b, eps, idx)
        col.append(((b - a) / (2 * eps)).detach().reshape(-1))
    return col


def _numerical_jacobian(func, inputs, outputs, eps):
    """Per differentiable input, per float output: (input numel, output numel) central differences, each element
    of the input moved by eps in turn."""
    jacobians = []
    for inp in _diff_inputs(inputs):
        x = inp.data
        cols = [_central_difference(func, inputs, x[idx], eps, eps, idx)
                for idx in itertools.product(*[range(m) for m in x.size()])]
        jacobians.append(tuple(_torch().stack([c[i] for c in cols]) if cols else
                               o.new_zeros((0, o.numel())) for i, o in enumerate(outputs) if _is_float(o)))
    return jacobians


def _analytical_rows(inputs, output, v=None):
    """Row j of each input's Jacobian: the gradient of output element j (None where it does not reach). With v
    (fast mode): the one row v^T J."""
    diff = _diff_inputs(inputs)
    if v is not None:
        grads = _torch().autograd.grad(output, diff, v.reshape(output.shape), retain_graph=True, allow_unused=True)
        return [[d.clone() if isinstance(d, Tensor) else None] for d in grads]
    base = _torch().zeros_like(output, memory_format=_torch().contiguous_format)   # (an output by columns too)
    flat = base.view(-1)
    rows = [[] for _ in diff]
    for j in range(flat.numel()):
        flat.zero_()
        flat[j] = 1.0
        grads = _torch().autograd.grad(output, diff, base, retain_graph=True, allow_unused=True)
        for i, d in enumerate(grads):
            rows[i].append(d.clone() if isinstance(d, Tensor) else None)
    return rows


def _stack(rows, inputs, numel):
    diff = _diff_inputs(inputs)
    out = [t.new_zeros((t.numel(), numel)) for t in diff]
    sizes_ok = types_ok = True
    for inp, jac, tensors in zip(diff, out, rows):
        for j, t in enumerate(tensors):
            if t is not None and t.size() != inp.size():
                sizes_ok = False
            elif t is not None and t.dtype != inp.dtype:
                types_ok = False
            if t is not None:
                jac[:, j] = t.reshape(-1)
    return out, sizes_ok, types_ok


def _analytical_jacobian(inputs, output, nondet_tol, check_grad_dtypes, v=None):
    """Each input's Jacobian from backward (with v: v^T J, one column), computed twice (PyTorch's reentrancy
    check)."""
    numel = output.numel() if v is None else 1
    # (PyTorch unpacks the two flags the other way round: a size mismatch counts as a dtype one, and vice versa)
    jac1, types_ok, sizes_ok = _stack(_analytical_rows(inputs, output, v), inputs, numel)
    jac2, _, _ = _stack(_analytical_rows(inputs, output, v), inputs, numel)
    reentrant = all(a.numel() == 0 or (a - b).abs().max() <= nondet_tol for a, b in zip(jac1, jac2))
    if not types_ok and check_grad_dtypes:
        raise GradcheckError('Gradient has dtype mismatch')
    if not sizes_ok:
        raise GradcheckError('Analytical gradient has incorrect size')
    if not reentrant:
        raise GradcheckError('Backward is not reentrant, i.e., running backward with same input and grad_output '
                             'multiple times gives different values, although analytical gradient matches numerical '
                             f'gradient.The tolerance for nondeterminism was {nondet_tol}.' + FAILED_NONDET_MSG)
    return jac1


def _allclose(a, b, rtol, atol):
    t = _torch().promote_types(a.dtype, b.dtype)
    return _torch().allclose(a.to(t), b.to(t), rtol, atol)


def _slow_gradcheck(func, func_out, inputs, outputs, eps, rtol, atol, check_grad_dtypes, nondet_tol):
    func_out = _as_tuple(func_out)
    numerical = list(zip(*_numerical_jacobian(func, inputs, func_out, eps)))
    if not outputs:
        for jac in numerical:
            for j in jac:
                if _torch().ne(j, 0).sum() > 0:
                    raise GradcheckError('Numerical gradient for function expected to be zero')
        return True
    numerical = [n for o, n in zip(func_out, numerical) if o.requires_grad]
    for i, o in enumerate(outputs):
        for j, (a, n) in enumerate(zip(_analytical_jacobian(inputs, o, nondet_tol, check_grad_dtypes), numerical[i])):
            if not _allclose(a, n, rtol, atol):
                raise GradcheckError(f'Jacobian mismatch for output {i:d} with respect to input {j:d},\n'
                                     f'numerical:{n}\nanalytical:{a}\n')
    return True


FAST_FAIL_SLOW_OK_MSG = """
Fast gradcheck failed but element-wise differences are small. This means that the
test might've passed in slow_mode!

If you are adding a new operator, please file an issue and then use one of the
workarounds. The workaround depends on how your test invokes gradcheck/gradgradcheck:

If the test
- manually invokes gradcheck/gradgradcheck, then call gradcheck/gradgradcheck
  with `fast_mode=False` as a keyword argument.
- is OpInfo-based (e.g., in test_ops_gradients.py), then modify the OpInfo for the test
  to have `gradcheck_fast_mode=False`
- is a Module test (e.g., in common_nn.py), then modify the corresponding
  module_test entry to have `gradcheck_fast_mode=False`
""".strip()


def _unit_vector(x, generator):
    """Fast mode's random direction for x: x.numel() uniform float32 numbers in x's dtype, scaled to norm 1."""
    v = _torch().rand(x.numel(), generator=generator).to(dtype=x.dtype)
    v /= v.norm()
    return v


def _slow_mode_message(func, inputs, outputs, i, j, rtol, atol, eps):
    """What fast mode adds to its error: input i's and output j's Jacobians computed in slow mode."""
    numerical = _numerical_jacobian(func, inputs, outputs, eps)[i][j]
    analytical = _analytical_jacobian(inputs, outputs[j], float('inf'), False)[i]
    msg = ('\nThe above quantities relating the numerical and analytical jacobians are computed \n'
           'in fast mode. See: https://github.com/pytorch/pytorch/issues/53876 for more background \n'
           'about fast mode. Below, we recompute numerical and analytical jacobians in slow mode:\n\n'
           f'Numerical:\n {numerical}\nAnalytical:\n{analytical}\n\n'
           f'The max per-element difference (slow mode) is: {(numerical - analytical).abs().max()}.\n')
    if _torch().allclose(analytical, numerical, rtol, atol):
        msg += FAST_FAIL_SLOW_OK_MSG
    return msg


def _fast_gradcheck(func, func_out, inputs, outputs, eps, rtol, atol, check_grad_dtypes, nondet_tol):
    """PyTorch's fast mode: per differentiable input i and output j, v_j . (J u_i) by a central difference along u_i
    against (v_j^T J) . u_i by backward, for unit vectors drawn from a new Generator (its default seed: the same
    every call), the absolute tolerance scaled by sum(u_i) * sum(v_j)."""
    diff = _diff_inputs(inputs)
    generator = _torch().Generator()
    all_u = [_unit_vector(x, generator) for x in diff]
    all_v = [_unit_vector(o, generator) for o in outputs]

    def jvps(x, u):
        return _central_difference(func, inputs, x.data, u.reshape(x.shape) * eps, eps)
    func_out = _as_tuple(func_out)
    numerical = [[(v * ju).sum() for v, ju in zip(all_v, [ju for ju, o in zip(jvps(x, u), func_out) if _is_float(o)])]
                 for x, u in zip(diff, all_u)]
    if not outputs:
        for x, u in zip(diff, all_u):
            for ju in jvps(x, u):
                if ju.numel() and (ju - _torch().zeros_like(ju)).abs().max() > nondet_tol:
                    raise GradcheckError('Numerical gradient for function expected to be zero')
    analytical = [[vj.T.squeeze(0).dot(u) for vj, u in zip(_analytical_jacobian(inputs, o, nondet_tol,
                                                                                 check_grad_dtypes, v), all_u)]
                  for o, v in zip(outputs, all_v)]
    for i, (u, row) in enumerate(zip(all_u, numerical)):
        for j, n in enumerate(row):
            a = analytical[j][i]
            if not _allclose(a, n, rtol, atol * float(u.sum()) * float(all_v[j].sum())):
                raise GradcheckError(f'Jacobian mismatch for output {j:d} with respect to input {i:d},\n'
                                     f'numerical:{n}\nanalytical:{a}\n'
                                     + _slow_mode_message(func, inputs, outputs, i, j, rtol, atol, eps))
    return True


def _test_backward_mul_by_grad_output(outputs, inputs):
    """Zero output gradients must give zero input gradients, of the inputs' dtype and size."""
    diff = _diff_inputs(inputs)
    grads = _torch().autograd.grad(outputs, diff, [_torch().zeros_like(o) for o in outputs], allow_unused=True)
    for gi, di in zip(grads, diff):
        if gi is None:
            continue
        if not gi.eq(0).all():
            raise GradcheckError('backward not multiplied by grad_output')
        if gi.dtype != di.dtype:
            raise GradcheckError('grad is incorrect type')
        if gi.size() != di.size():
            raise GradcheckError('grad is incorrect size')


def _warn_bc_breaking():
    warnings.warn('Backwards compatibility: New undefined gradient support checking feature is enabled by default, '
                  'but it may break existing callers of this function. If this is true for you, you can call this '
                  'function with "check_undefined_grad=False" to disable the feature', stacklevel=3)


class _UndefinedGrad(Function):
    """PyTorch's UndefinedGrad node: an identity whose backward sends an undefined (None) gradient on."""
    @staticmethod
    def forward(ctx, x):
        return x.clone()

    @staticmethod
    def backward(ctx, g):
        return None


def _test_undefined_backward_mode(func, outputs, inputs):
    """Backward must take undefined output gradients as zeros: all of them, then one at a time."""
    diff = _diff_inputs(inputs)

    def check(outs):
        try:
            grads = _torch().autograd.grad(outs, diff, [_torch().zeros_like(o) for o in outs], allow_unused=True)
        except RuntimeError as e:
            _warn_bc_breaking()
            raise GradcheckError('Expected backward function to handle undefined output grads. ' + _UNDEFINED_NOTE) \
                from e
        for gi in grads:
            if gi is not None and not gi.eq(0).all():
                _warn_bc_breaking()
                raise GradcheckError('Expected all input grads to be undefined or zero when all output grads are '
                                     'undefined or zero. ' + _UNDEFINED_NOTE)
    outs = [_UndefinedGrad.apply(o) for o in _differentiable_outputs(func(*inputs)) if isinstance(o, Tensor)]
    check(outs)
    if len(outs) > 1:
        for k in range(len(outputs)):
            check([_UndefinedGrad.apply(o) if i == k else o for i, o in enumerate(_differentiable_outputs(
                func(*inputs)))])
    return True


def gradcheck(func, inputs, *, eps=1e-6, atol=1e-5, rtol=1e-3, raise_exception=True, nondet_tol=0.0,
              check_undefined_grad=True, check_grad_dtypes=False, check_batched_grad=False,
              check_batched_forward_grad=False, check_forward_ad=False, check_backward_ad=True, fast_mode=False,
              masked=None):
    """True if backward's Jacobian of func at inputs matches finite differences (allclose with rtol, atol);
    else GradcheckError, or False with raise_exception=False."""
    if not (check_forward_ad or check_backward_ad):
        raise AssertionError('Expected at least one of check_forward_ad or check_backward_ad to be True')
    if check_batched_grad and not check_backward_ad:
        raise AssertionError('Setting check_batched_grad=True requires check_backward_ad to be True')
    if check_batched_forward_grad and not check_forward_ad:
        raise AssertionError('Setting check_batched_forward_grad=True requires check_forward_ad to be True')
    # check_batched_grad compares PyTorch's vmapped vector-Jacobian products with one backward per vector: the
    # engine's batched gradients (autograd.grad(is_grads_batched=True)) are those very backwards, so it passes
    if check_batched_forward_grad:
        raise NotImplementedError('gradcheck: batched (vmap) forward-mode checks are not supported by Autograd '
                                  'Playground')
    try:
        return _gradcheck(func, _as_tuple(inputs), eps, atol, rtol, nondet_tol, check_undefined_grad,
                          check_grad_dtypes, fast_mode, check_forward_ad, check_backward_ad)
    except GradcheckError:
        if raise_exception:
            raise
        return False


def _gradcheck(func, inputs, eps, atol, rtol, nondet_tol, check_undefined_grad, check_grad_dtypes, fast_mode,
               check_forward_ad=False, check_backward_ad=True):
    _check_inputs(inputs)
    func_out = func(*inputs)
    outputs = _differentiable_outputs(func_out)
    if any(o.is_complex() for o in _as_tuple(func_out)):
        raise NotImplementedError('gradcheck: complex outputs are not supported by Autograd Playground')
    if check_backward_ad:
        (_fast_gradcheck if fast_mode else _slow_gradcheck)(func, func_out, inputs, outputs, eps, rtol, atol,
                                                             check_grad_dtypes, nondet_tol)
    if check_forward_ad:
        _forward_gradcheck(func, func_out, inputs, outputs, eps, rtol, atol)
        if check_undefined_grad:
            _test_undefined_forward_mode(func, inputs)
    if not check_backward_ad:
        return True
    _test_backward_mul_by_grad_output(outputs, inputs)
    if check_undefined_grad:
        _test_undefined_backward_mode(func, outputs, inputs)
    return True


def _dual_inputs(inputs):
    """The inputs with each one requiring grad made a dual tensor of a zero tangent, and those tangents."""
    from ._forward_ad import make_dual, unpack_dual
    duals, tangents = [], []
    for inp in inputs:
        if isinstance(inp, Tensor) and inp.requires_grad:
            inp = make_dual(inp.detach(), _torch().zeros_like(inp))
            tangents.append(unpack_dual(inp).tangent)
        duals.append(inp)
    return duals, tangents


def _tangents_out(func, duals):
    from ._forward_ad import unpack_dual
    return [unpack_dual(o).tangent for o in _as_tuple(func(*duals)) if isinstance(o, Tensor) and _is_float(o)]


def _forward_jacobian(func, inputs, outputs):
    """Per differentiable input, per float output: the (input numel, output numel) Jacobian from forward-mode AD,
    one unit tangent per element of the input (written into the dual's tangent in place, as PyTorch does)."""
    from ._forward_ad import dual_level
    floats = [o for o in outputs if _is_float(o)]
    with dual_level():
        duals, tangents = _dual_inputs(inputs)
        jacobians = []
        for t in tangents:
            rows = [[] for _ in floats]
            for idx in itertools.product(*[range(m) for m in t.size()]):
                t[idx] = 1.0
                for row, o, res in zip(rows, floats, _tangents_out(func, duals)):
                    row.append(o.new_zeros(o.numel()) if res is None else res.reshape(-1))
                t[idx] = 0.0
            jacobians.append([_torch().stack(r) if r else o.new_zeros((0, o.numel())) for r, o in zip(rows, floats)])
    return jacobians


def _forward_gradcheck(func, func_out, inputs, outputs, eps, rtol, atol):
    """check_forward_ad: forward mode's Jacobians against finite differences."""
    func_out = _as_tuple(func_out)
    numerical = list(zip(*_numerical_jacobian(func, inputs, func_out, eps)))
    if not outputs:
        return _slow_gradcheck(func, func_out, inputs, outputs, eps, rtol, atol, False, 0.0)
    numerical = [n for o, n in zip(func_out, numerical) if o.requires_grad]
    analytical = _forward_jacobian(func, inputs, func_out)
    for i, n_per_out in enumerate(numerical):
        for j, n in enumerate(n_per_out):
            a = analytical[j][i]
            if not _allclose(a, n, rtol, atol):
                raise GradcheckError(f'Jacobian computed with forward mode mismatch for output {i:d} with respect to '
                                     f'input {j:d},\nnumerical:{n}\nanalytical:{a}\n')


def _test_undefined_forward_mode(func, inputs):
    """An input given as a plain tensor (no tangent) must give the tangents a zero tangent gives."""
    from ._forward_ad import dual_level, make_dual
    with dual_level():
        duals, tangents = _dual_inputs(inputs)
        for t in tangents:
            t.uniform_(-1, 1)
        for idx, inp in enumerate(inputs):
            if not (isinstance(inp, Tensor) and inp.requires_grad):
                continue
            kept = duals[idx]
            duals[idx] = make_dual(inp.detach(), _torch().zeros_like(inp))
            with_zero = _tangents_out(func, duals)
            duals[idx] = inp.detach()
            without = _tangents_out(func, duals)
            duals[idx] = kept
            for index_o, (res1, res2) in enumerate(zip(with_zero, without)):
                if res1 is not None and res2 is not None and not _torch().allclose(res1, res2):
                    raise GradcheckError('Mismatch in tangent values for output with index: ', index_o, ' when input: ',
                                         inp, ' has an undefined tangent value. ', ' Got: ', res1, ' but expected: ',
                                         res2)
    return True


def gradgradcheck(func, inputs, grad_outputs=None, *, eps=1e-6, atol=1e-5, rtol=1e-3,
                  gen_non_contig_grad_outputs=False, raise_exception=True, nondet_tol=0.0, check_undefined_grad=True,
                  check_grad_dtypes=False, check_batched_grad=False, check_fwd_over_rev=False,
                  check_rev_over_rev=True, fast_mode=False, masked=False):
    """gradcheck of the gradients of func's outputs (against grad_outputs: random in [-1, 1) when not given)."""
    torch = _torch()
    if not (check_fwd_over_rev or check_rev_over_rev):
        raise AssertionError('Expected at least one of check_fwd_over_rev or check_rev_over_rev to be True')
    if check_undefined_grad and not check_rev_over_rev:
        raise AssertionError('Setting check_undefined_grad=True requires check_rev_over_rev to be True')
    if check_batched_grad and not check_rev_over_rev:
        raise AssertionError('Setting check_batched_grad=True requires check_rev_over_rev to be True')
    inputs = _as_tuple(inputs)
    if grad_outputs is None:        # (torch.testing.make_tensor(low=-1, high=1): uniform_ on an empty tensor)
        grad_outputs = tuple(
            torch.empty(x.shape, dtype=x.dtype if _is_float(x) else torch.double).uniform_(-1, 1).requires_grad_()
            for x in _differentiable_outputs(func(*inputs)))
    else:
        grad_outputs = _as_tuple(grad_outputs)
    n = len(grad_outputs)
    diff_in = {i for i, x in enumerate(inputs) if isinstance(x, Tensor) and x.requires_grad}
    diff_go = {i for i, x in enumerate(grad_outputs) if x.requires_grad}

    def new_func(*args):
        input_args = tuple(x.requires_grad_() if i in diff_in else x for i, x in enumerate(args[:-n]))
        outputs = _differentiable_outputs(func(*input_args))
        gos = tuple(x.requires_grad_() if i in diff_go else x for i, x in enumerate(args[-n:]))
        diff_args = tuple(x for i, x in enumerate(input_args) if i in diff_in)
        grads = torch.autograd.grad(outputs, diff_args, gos, create_graph=True, allow_unused=True)
        return tuple(g for g in grads if g is not None)

    return gradcheck(new_func, inputs + grad_outputs, eps=eps, atol=atol, rtol=rtol, raise_exception=raise_exception,
                     nondet_tol=nondet_tol, check_undefined_grad=check_undefined_grad,
                     check_grad_dtypes=check_grad_dtypes, check_batched_grad=check_batched_grad, fast_mode=fast_mode,
                     check_forward_ad=check_fwd_over_rev, check_backward_ad=check_rev_over_rev, masked=masked)
