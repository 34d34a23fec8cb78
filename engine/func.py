"""torch.func: grad, grad_and_value, vjp, jvp, jacrev, jacfwd, hessian, functional_call and vmap.

The transforms are composed of the engine's one autograd (`autograd.grad` with create_graph, so they nest), not a
second one. Each call is a "level": the inputs it differentiates are lifted to fresh leaves (or to aliases of
themselves when they already require grad outside, so results stay connected to that outside graph, as functorch's
outer levels see them); a result that depends on nothing outside the level comes back detached. vmap runs the
function once per batch element and stacks the results (see `vmap` for what that changes).
"""
import contextlib
import functools
import textwrap

from . import _autograd as ag
from . import _function
from ._saved_hooks import disable_saved_tensors_hooks
from ._tensor import Tensor, Size


__all__ = ['grad', 'grad_and_value', 'vjp', 'jvp', 'jacrev', 'jacfwd', 'hessian', 'functional_call', 'vmap']


def _differentiating():
    """What a transform runs its function in: autograd on, and out of inference mode (the transforms work inside
    torch.inference_mode() and torch.no_grad() alike)."""
    stack = contextlib.ExitStack()
    stack.enter_context(ag.inference_mode(False))
    stack.enter_context(ag.enable_grad())
    return stack


# ---------------------------------------------------------------------------------------------- pytrees

class TreeSpec:
    """The structure of a nest of tuples, lists and dicts (leaves elsewhere), printed as PyTorch's pytree prints it."""

    def __init__(self, kind=None, keys=None, children=()):
        self.kind, self.keys, self.children = kind, keys, list(children)

    def is_leaf(self):
        return self.kind is None

    def __eq__(self, other):
        return (isinstance(other, TreeSpec) and self.kind is other.kind and self.keys == other.keys
                and self.children == other.children)

    def __repr__(self, indent=0):
        if self.is_leaf():
            return '*'
        inner = ',\n'.join(' ' * (indent + 2) * (i > 0) + c.__repr__(indent + 2) for i, c in enumerate(self.children))
        return 'TreeSpec(%s, %s, [%s])' % (self.kind.__name__, self.keys, inner)

    def pprint(self):
        """The short form vjp's error shows: `(*, *)`, `[*]`, `{'a': *}`."""
        if self.is_leaf():
            return '*'
        parts = [c.pprint() for c in self.children]
        if self.kind is dict:
            return '{%s}' % ', '.join('%r: %s' % (k, p) for k, p in zip(self.keys, parts))
        if self.kind is list:
            return '[%s]' % ', '.join(parts)
        return '(%s)' % (parts[0] + ',' if len(parts) == 1 else ', '.join(parts))


def tree_flatten(tree):
    """(leaves, spec) of a nest of tuples, lists and dicts."""
    if type(tree) in (tuple, list, Size):
        kind, keys, items = type(tree), None, list(tree)
    elif type(tree) is dict:
        kind, keys, items = dict, list(tree), list(tree.values())
    else:
        return [tree], TreeSpec()
    leaves, children = [], []
    for item in items:
        sub, spec = tree_flatten(item)
        leaves += sub
        children.append(spec)
    return leaves, TreeSpec(kind, keys, children)


def tree_unflatten(leaves, spec):
    """The nest `spec` describes, filled with `leaves` in order."""
    it = iter(leaves)

    def build(s):
        if s.is_leaf():
            return next(it)
        items = [build(c) for c in s.children]
        return dict(zip(s.keys, items)) if s.kind is dict else s.kind(items)
    return build(spec)


def _tree_map(fn, tree):
    leaves, spec = tree_flatten(tree)
    return tree_unflatten([fn(x) for x in leaves], spec)


def _broadcast(prefix, spec):
    """The leaves of `prefix` (an int / None, or a nest with ints / None at its leaves) spread over the tree `spec`;
    None when its structure is not a prefix of the tree's."""
    if type(prefix) not in (tuple, list, dict):
        return [prefix] * _num_leaves(spec)
    if spec.kind is not type(prefix) or len(prefix) != len(spec.children):
        return None
    if spec.kind is dict and sorted(prefix) != sorted(spec.keys):
        return None
    items = [prefix[k] for k in spec.keys] if spec.kind is dict else list(prefix)
    out = []
    for item, child in zip(items, spec.children):
        sub = _broadcast(item, child)
        if sub is None:
            return None
        out += sub
    return out


def _num_leaves(spec):
    return 1 if spec.is_leaf() else sum(_num_leaves(c) for c in spec.children)


# ---------------------------------------------------------------------------------------------- levels

class AliasBackward0(ag.Node):
    """The edge from a lifted input to the tensor it lifts: the gradient passes unchanged (no node is recorded for
    it in a create_graph pass, so nested transforms give PyTorch's grad_fn names)."""

    def apply(self, g):
        return (g,)


class _Level:
    """One transform call: lifts inputs, remembers its fresh leaves, and unwraps results as functorch does."""

    def __init__(self):
        self.outer = ag.is_grad_enabled()      # an outer no_grad: nothing outside records, results come detached
        self.fresh = {}                        # id -> the fresh leaves this level made
        self.lifted = {}                       # id(alias) -> (alias, the tensor it lifts: returned as itself)

    def lift(self, t):
        """An input to differentiate: a fresh leaf, or an alias of t (sharing its memory) when t is part of an outside
        graph."""
        if not isinstance(t, Tensor):
            raise ValueError('Thing passed to transform API must be Tensor, got %s' % type(t))
        if self.outer and t.requires_grad:
            v = t.detach()
            ag.record(v, AliasBackward0, (t,), same=True)
            self.lifted[id(v)] = (v, t)
            return v
        v = t.detach().requires_grad_()
        self.fresh[id(v)] = v
        return v

    def lift_tree(self, tree):
        return _tree_map(self.lift, tree)

    def unwrap(self, t):
        """A result as the caller sees it: detached unless it depends on something outside this level."""
        if not isinstance(t, Tensor):
            return t
        if id(t) in self.lifted and self.lifted[id(t)][0] is t:
            return self.lifted[id(t)][1]
        if t.requires_grad and self.outer and self._reaches_outside(t):
            return t
        return t.detach() if t.requires_grad else t

    def _reaches_outside(self, t):
        """Whether t's graph reaches a leaf this level did not make."""
        if t.grad_fn is None:
            return id(t) not in self.fresh
        return any(isinstance(node, ag.AccumulateGrad) and id(node.variable) not in self.fresh
                   for node in _nodes(t))


def _nodes(t):
    """The nodes of t's graph, each once (an AccumulateGrad ends its path)."""
    seen, todo = set(), [t._grad_fn]
    while todo:
        node = todo.pop()
        if node is None or id(node) in seen:
            continue
        seen.add(id(node))
        yield node
        if not isinstance(node, ag.AccumulateGrad):
            todo.extend(node._fns)


@contextlib.contextmanager
def _tracking(level):
    """The user's function runs at this level of reverse-mode transforms (grad, vjp, jacrev)."""
    ag.func_levels.append(level)
    try:
        yield
    finally:
        ag.func_levels.pop()


def _wrapped_repr(t):
    """How PyTorch prints t inside the function of grad, vjp or jacrev, or None where it prints it as usual: in a
    GradTrackingTensor(lvl=n, value=...) for each level whose inputs t depends on, the outermost level's wrapper
    outermost, around t's value as seen outside them all (its graph there, if it has one)."""
    levels = ag.func_levels
    fresh = {k: (i, v) for i, level in enumerate(levels) for k, v in level.fresh.items()}
    aliases = {id(v): (i, v, src) for i, level in enumerate(levels) for v, src in level.lifted.values()}
    alias_nodes = {id(v._grad_fn): i for i, v, _ in aliases.values()}
    reached, outside = set(), False
    if id(t) in fresh and fresh[id(t)][1] is t:
        reached.add(fresh[id(t)][0])
    for node in _nodes(t):
        if isinstance(node, ag.AccumulateGrad):
            k = id(node.variable)
            if k in fresh and fresh[k][1] is node.variable:
                reached.add(fresh[k][0])
            else:
                outside = True
        elif id(node) in alias_nodes:
            reached.add(alias_nodes[id(node)])
    if not reached:
        return None
    while id(t) in aliases and aliases[id(t)][1] is t:
        t = aliases[id(t)][2]               # (an input lifted from outside: the outer tensor itself)
    value = t if outside else t.detach()
    saved = levels[:]
    levels.clear()
    try:
        text = repr(value)
    finally:
        levels[:] = saved
    for i in sorted(reached):
        text = 'GradTrackingTensor(lvl=%d, value=\n%s\n)' % (i + 1, textwrap.indent(text, ' ' * 4))
    return text


def _call(func, *args, **kwargs):
    """The user's function, run inside a transform (where custom Functions need setup_context)."""
    _function.transform_depth += 1
    try:
        return func(*args, **kwargs)
    finally:
        _function.transform_depth -= 1


def _grads(outputs, inputs, grad_outputs=None, retain_graph=True):
    """autograd.grad with a graph (so levels nest), of the outputs that require grad; zeros where none flows."""
    from .autograd import grad
    from ._factories import zeros_like
    pairs = [(o, g) for o, g in zip(outputs, grad_outputs or (None,) * len(outputs)) if o.requires_grad]
    got = (None,) * len(inputs)
    if pairs and inputs:
        got = grad([o for o, _ in pairs], inputs, [g for _, g in pairs], retain_graph=retain_graph, create_graph=True,
                   allow_unused=True)
    return [zeros_like(t) if g is None else g for g, t in zip(got, inputs)]


def _argnums(argnums, n):
    """The positions to differentiate, with PyTorch's checks."""
    if not isinstance(argnums, (int, tuple)):
        raise RuntimeError('argnums must be int or Tuple[int, ...], got: %s' % type(argnums))
    nums = argnums if isinstance(argnums, tuple) else (argnums,)
    if not nums:
        raise RuntimeError('argnums must be non-empty')
    for a in nums:
        if not isinstance(a, int):
            raise RuntimeError('argnum must be int, got: %s' % type(a))
        if not -n <= a < n:
            raise RuntimeError('Got argnum=%s, but only %d positional inputs' % (a, n))
    if len({a % n for a in nums}) != len(nums):
        raise RuntimeError('argnums elements must be unique, got %s' % (argnums,))
    return [a % n for a in nums]


def _lift_args(level, args, argnums):
    """(the args with those at argnums lifted, the lifted part as the user will get its gradients back)."""
    nums = _argnums(argnums, len(args))
    args = list(args)
    for i in nums:
        args[i] = level.lift_tree(args[i])
    diff = tuple(args[i] for i in nums) if isinstance(argnums, tuple) else args[nums[0]]
    return args, diff


def _aux(level, aux):
    """The auxiliary outputs, unwrapped; only tensors are allowed in them."""
    for x in tree_flatten(aux)[0]:
        if not isinstance(x, Tensor):
            raise RuntimeError('Expected tensors, got unsupported type %s' % type(x))
    return _tree_map(level.unwrap, aux)


# ---------------------------------------------------------------------------------------------- grad

def _refusing_saved_hooks(f):
    """f run as PyTorch runs the work of grad, vjp and jacrev: under disable_saved_tensors_hooks (an error if
    saved tensor hooks are active around it, or entered inside, as checkpoint does)."""
    @functools.wraps(f)
    def run(*args, **kwargs):
        with disable_saved_tensors_hooks("torch.func.{grad, vjp, jacrev, hessian} don't yet support saved tensor "
                                         "hooks. Please open an issue with your use case."):
            return f(*args, **kwargs)
    return run


def grad_and_value(func, argnums=0, has_aux=False):
    """f -> a function returning (gradient of f's scalar output w.r.t. the args at argnums, that output)."""
    @functools.wraps(func)
    @_refusing_saved_hooks
    def wrapper(*args, **kwargs):
        where = 'grad_and_value(f)(*args): '
        level = _Level()
        with _differentiating():
            args, diff = _lift_args(level, args, argnums)
            with _tracking(level):
                out = _call(func, *args, **kwargs)
            if has_aux:
                if not (isinstance(out, tuple) and len(out) == 2):
                    raise RuntimeError(where + 'output of function f should be a tuple: (output, aux) if has_aux '
                                       'is True')
                out, aux = out
            if not isinstance(out, Tensor):
                raise RuntimeError(where + 'Expected f(*args) to return a Tensor, got %s' % type(out))
            if out.dim() != 0:
                raise RuntimeError(where + 'Expected f(*args) to return a scalar Tensor, got tensor with %d dims. '
                                   'Maybe you wanted to use the vjp or jacrev APIs instead?' % out.dim())
            leaves, spec = tree_flatten(diff)
            grads = _grads([out], leaves)
        grads = tree_unflatten([level.unwrap(g) for g in grads], spec)
        value = level.unwrap(out)
        return (grads, (value, _aux(level, aux))) if has_aux else (grads, value)
    return wrapper


def grad(func, argnums=0, has_aux=False):
    """f -> a function returning the gradient of f's scalar output w.r.t. the args at argnums (and aux)."""
    both = grad_and_value(func, argnums, has_aux)

    @functools.wraps(func)
    def wrapper(*args, **kwargs):
        grads, value = both(*args, **kwargs)
        return (grads, value[1]) if has_aux else grads
    return wrapper


# ---------------------------------------------------------------------------------------------- vjp, jvp

def _outputs(out, api):
    """The output's leaves, which must all be tensors."""
    leaves, spec = tree_flatten(out)
    for x in leaves:
        if not isinstance(x, Tensor):
            raise RuntimeError('%s: expected f(*primals) to return only tensors, got unsupported type %s'
                               % (api, type(x)))
    for x in leaves if api.startswith('vjp') else ():        # (reverse mode needs gradients of every output)
        if not x.is_floating_point():
            raise RuntimeError('vjp(f, ...): All outputs of f must be floating-point or complex Tensors, got Tensor '
                               'with dtype %s' % x.dtype)
    return leaves, spec


def _split_aux(out, has_aux, api):
    if not has_aux:
        return out, None
    if not (isinstance(out, tuple) and len(out) == 2):
        raise RuntimeError('%s: output of function f should be a tuple: (output, aux) if has_aux is True' % api)
    return out


@_refusing_saved_hooks
def vjp(func, *primals, has_aux=False):
    """(func(*primals), vjp_fn[, aux]): vjp_fn(cotangents) gives the vector-Jacobian products, one per primal."""
    api = 'vjp(f, *primals)'
    level = _Level()
    with _differentiating():
        lifted = level.lift_tree(primals)
        with _tracking(level):
            out = _call(func, *lifted)
        out, aux = _split_aux(out, has_aux, api)
        outs, out_spec = _outputs(out, api)
    ins, in_spec = tree_flatten(lifted)

    def vjp_fn(cotangents, retain_graph=True, create_graph=None):
        cots, cot_spec = tree_flatten(cotangents)
        if cot_spec != out_spec:
            raise RuntimeError('Expected pytree structure of cotangents to be the same as pytree structure of outputs '
                               'to the function. cotangents: %s, primal output: %s'
                               % (cot_spec.pprint(), out_spec.pprint()))
        from .autograd import _make_grads
        _make_grads(outs, cots)                     # (autograd.grad's checks of the cotangents, in its words)
        with _differentiating():
            # (a cotangent made in inference mode: a normal copy, which the graph of the products may save)
            cots = [c.clone() if isinstance(c, Tensor) and c.is_inference() else c for c in cots]
            got = _grads(outs, ins, cots, retain_graph)
        return tree_unflatten([level.unwrap(g) for g in got], in_spec)

    vjp_fn.__qualname__ = '_vjp_with_argnums.<locals>.wrapper'     # (PyTorch's name for it)
    vjp_fn.__name__ = 'wrapper'
    result = (_tree_map(level.unwrap, out), vjp_fn)
    return result + (_aux(level, aux),) if has_aux else result


def jvp(func, primals, tangents, *, strict=False, has_aux=False):
    """(func(*primals), J @ tangents[, aux]), by the double-vjp trick (a vjp against a dummy cotangent, then the
    vjp of that against the tangents)."""
    api = 'jvp(f, primals, tangents)'
    if ag.fw_level is not None:         # (inside torch.autograd.forward_ad.dual_level: one level at a time)
        raise RuntimeError('Nested forward mode AD is not supported at the moment')
    if not isinstance(primals, tuple):
        raise RuntimeError('%s: Expected primals to be a tuple. E.g. it should be valid to call f(*primals).' % api)
    p_leaves, p_spec = tree_flatten(primals)
    t_leaves, t_spec = tree_flatten(tangents)
    for what, leaves in (('primals', p_leaves), ('tangents', t_leaves)):
        for x in leaves:
            if not isinstance(x, Tensor):
                raise RuntimeError('%s: Expected %s to only contain Tensors, got %s' % (api, what, type(x)))
    if p_spec != t_spec:
        raise RuntimeError('%s: Expected primals and tangents to have the same python structure. For example, if '
                           'primals is a tuple of 3 tensors, tangents also must be. Got primals with structure %r '
                           'and tangents with structure %r' % (api, p_spec, t_spec))
    for p, t in zip(p_leaves, t_leaves):
        if isinstance(p, Tensor) and isinstance(t, Tensor) and p.shape != t.shape:
            raise RuntimeError('Trying to set a forward gradient that has a different size than that of the original '
                               'Tensor, this is not supported. Tensor is of size %s while the given forward gradient '
                               'is of size %s.' % (list(p.shape), list(t.shape)))
    from ._factories import zeros_like
    level = _Level()
    with _differentiating():
        lifted = level.lift_tree(primals)
        with _function.custom_function_rules(forward=1):
            out, aux = _split_aux(_call(func, *lifted), has_aux, api)
        outs, out_spec = _outputs(out, api)
        ins = tree_flatten(lifted)[0]
        dummies = [zeros_like(o, requires_grad=o.is_floating_point()) for o in outs]
        back = _grads(outs, ins, dummies)
        tans = [level.lift(t) if t.requires_grad else t for t in t_leaves]
        jv = _grads(back, [d for d in dummies], tans)
    result = (_tree_map(level.unwrap, out), tree_unflatten([level.unwrap(j) for j in jv], out_spec))
    return result + (_aux(level, aux),) if has_aux else result


# ---------------------------------------------------------------------------------------------- jacobians

def jacrev(func, argnums=0, *, has_aux=False, chunk_size=None, _preallocate_and_copy=False):
    """f -> a function returning the Jacobian of f's outputs w.r.t. the args at argnums (shape output + input),
    one vjp per output element against a one-hot cotangent."""
    if not (chunk_size is None or chunk_size > 0):
        raise ValueError('jacrev: `chunk_size` should be greater than 0.')

    @functools.wraps(func)
    @_refusing_saved_hooks
    def wrapper(*args, **kwargs):
        return _jacobian(func, argnums, has_aux, args, kwargs, 'vjp(f, *primals)')
    return wrapper


def jacfwd(func, argnums=0, has_aux=False, *, randomness='error'):
    """f -> its Jacobian, like jacrev but one column (Jacobian-vector product) per input element, as PyTorch's
    forward mode computes it (so products with zero keep forward mode's signs)."""
    @functools.wraps(func)
    def wrapper(*args, **kwargs):
        with _function.custom_function_rules(vmap=1, forward=1):
            return _jacobian(func, argnums, has_aux, args, kwargs, 'jvp(f, primals, tangents)', forward=True)
    return wrapper


def _onehot(t, j):
    """A tensor shaped like t, all zeros but a 1 at flat position j."""
    from ._factories import zeros
    onehot = zeros(t.numel(), dtype=t.dtype)
    onehot[j] = 1
    return onehot.view(t.shape)


def _basis(ts, i, j):
    """One vector of the standard basis across the tensors ts: zeros shaped like each, but a 1 at flat position j of
    ts[i]."""
    from ._factories import zeros_like
    return [_onehot(t, j) if k == i else zeros_like(t) for k, t in enumerate(ts)]


def _forward_tangents(o, ins):
    """The columns J e_j of o's Jacobian for every element of every input in turn, stacked (a batch of shape
    (inputs' numel,) + o.shape), as forward mode computes them: by the double-vjp trick (as jvp does: the vjp against
    a dummy, then its vjp against e_j), with zero tangents for the other inputs (their products with zero add up as
    forward mode's do, and zeros keep its signs). Attached (create_graph)."""
    from ._factories import zeros_like
    from ._ops import stack
    dummy = zeros_like(o, requires_grad=o.is_floating_point())
    back = _grads([o], ins, [dummy])
    columns = [_grads(back, [dummy], _basis(ins, i, j))[0] for i, t in enumerate(ins) for j in range(t.numel())]
    return stack(columns) if columns else zeros_like(o).expand((0,) + tuple(o.shape))


def _jacobian(func, argnums, has_aux, args, kwargs, api, forward=False):
    from ._factories import zeros
    from ._ops import stack
    level = _Level()
    with _differentiating():
        args, diff = _lift_args(level, args, argnums)
        with _tracking(level) if not forward else contextlib.nullcontext():
            out = _call(func, *args, **kwargs)
        out, aux = _split_aux(out, has_aux, api)
        outs, out_spec = _outputs(out, api)
        ins, in_spec = tree_flatten(diff)
        per_output = []
        for o in outs:
            jac = []
            if forward:
                # laid out as PyTorch's jacfwd: the batch dimension moved last, split per input and unflattened
                tangents = _forward_tangents(o, ins).movedim(0, -1)
                for t, piece in zip(ins, tangents.split([t.numel() for t in ins], -1)):
                    jac.append(level.unwrap(piece.unflatten(-1, t.shape) if t.dim() else piece.squeeze(-1)))
            else:
                rows = [_grads([o], ins, [_onehot(o, j)]) for j in range(o.numel())]
                for i, t in enumerate(ins):
                    col = stack([r[i] for r in rows]) if rows else zeros((0,) + tuple(t.shape), dtype=t.dtype)
                    jac.append(level.unwrap(col.view(tuple(o.shape) + tuple(t.shape))))
            per_output.append(tree_unflatten(jac, in_spec))
    result = tree_unflatten(per_output, out_spec)
    return (result, _aux(level, aux)) if has_aux else result


def hessian(func, argnums=0):
    """f -> the matrix of second derivatives of its scalar output (the Jacobian of its Jacobian)."""
    return jacfwd(jacrev(func, argnums), argnums)


# ---------------------------------------------------------------------------------------------- functional_call

def functional_call(module, parameter_and_buffer_dicts, args=None, kwargs=None, *, tie_weights=True, strict=False):
    """module(*args, **kwargs) with its parameters and buffers replaced, for this call only, by the given tensors."""
    dicts = parameter_and_buffer_dicts
    if isinstance(dicts, dict):
        given = dict(dicts)
    elif isinstance(dicts, (list, tuple)):
        if not all(isinstance(d, dict) for d in dicts):
            raise ValueError('Expected all elements of parameter_and_buffer_dicts to be dictionaries')
        keys = [k for d in dicts for k in d]
        repeated = sorted({k for k in keys if keys.count(k) > 1})
        if repeated:
            raise ValueError('%s appeared in multiple dictionaries; behavior of functional call is ambiguous'
                             % repeated)
        given = {k: v for d in dicts for k, v in d.items()}
    else:
        raise ValueError('Expected parameter_and_buffer_dicts to be a dict, or a list/tuple of dicts, but got %s'
                         % type(dicts))
    for v in given.values():
        if not isinstance(v, Tensor):
            raise TypeError('%s is not an instance of torch.Tensor' % (v,))
    names = {}                                           # every name, with the tensor it names now
    for n, t in list(module.named_parameters(remove_duplicate=False)) + list(module.named_buffers(
            remove_duplicate=False)):
        names[n] = t
    if tie_weights:
        given = _tie(names, given)
    if strict:
        unexpected = sorted(k for k in given if k not in names)       # (sorted, as PyTorch's sets of keys)
        missing = sorted(k for k in names if k not in given)
        if unexpected or missing:
            text = 'Error(s) in reparametrizing for %s:\n' % type(module).__name__
            if unexpected:
                text += '\tUnexpected key(s): %s.\n' % ', '.join(repr(k) for k in unexpected)
            if missing:
                text += '\tMissing key(s): %s.\n' % ', '.join(repr(k) for k in missing)
            raise RuntimeError(text.rstrip('\n'))
    args = () if args is None else args if isinstance(args, tuple) else (args,)
    undo = [_swap(module, k, v) for k, v in given.items()]
    try:
        return module(*args, **(kwargs or {}))
    finally:
        for restore in undo:          # (in PyTorch's order: a module reached under two names keeps the new tensor)
            restore()


def _tie(names, given):
    """The given tensors, also under every other name of a parameter or buffer that is tied to a given name."""
    groups = {}
    for n, t in names.items():
        groups.setdefault(id(t), []).append(n)
    out = dict(given)
    for n, v in given.items():
        if n not in names:
            continue
        tied = groups[id(names[n])]
        values = [given[m] for m in tied if m in given]
        if any(x is not v for x in values):
            raise ValueError('functional_call got multiple values for keys %s, which are tied. Consider using '
                             'tie_weights=False' % sorted(m for m in tied if m in given))
        for m in tied:
            out[m] = v
    return out


def _swap(module, name, value):
    """Put value under name (a dotted path) for the call; returns what puts the old one back."""
    *path, attr = name.split('.')
    owner = module
    for p in path:
        owner = getattr(owner, p)
    for store in (owner._parameters, owner._buffers):
        if attr in store:
            old = store[attr]
            store[attr] = value

            def restore(store=store, old=old):
                store[attr] = old
            return restore
    had, old = attr in owner.__dict__, owner.__dict__.get(attr)
    object.__setattr__(owner, attr, value)

    def restore_attr():
        if had:
            object.__setattr__(owner, attr, old)
        else:
            object.__delattr__(owner, attr)
    return restore_attr


# ---------------------------------------------------------------------------------------------- vmap

def vmap(func, in_dims=0, out_dims=0, randomness='error', *, chunk_size=None):
    """f -> f mapped over a batch dim of its inputs (in_dims) into a batch dim of its outputs (out_dims).

    Runs func once per batch element and stacks: the values are PyTorch's, but inside func the tensors are plain
    slices (PyTorch shows BatchedTensor), `.item()`, data-dependent `if` and random ops work instead of raising, and
    outputs that require grad get StackBackward0 rather than the batched op's node."""
    if randomness not in ('error', 'different', 'same'):
        raise RuntimeError("Only allowed values for randomness are 'error', 'different', or 'same'. Got %s"
                           % randomness)
    if not (chunk_size is None or chunk_size > 0):
        raise ValueError('vmap: chunk_size should be None or greater than 0. (got %s)' % chunk_size)

    @functools.wraps(func)
    def wrapper(*args, **kwargs):
        name = getattr(func, '__name__', repr(func))
        n, slices = _batch(name, in_dims, args)
        with _function.custom_function_rules(vmap=1):
            if n == 0:        # (an empty batch: run one element of zeros for the shapes, keep none of it)
                return _stack_outputs(name, out_dims, [_call(func, *slices(None), **kwargs)], empty=True)
            return _stack_outputs(name, out_dims, [_call(func, *slices(b), **kwargs) for b in range(n)])
    return wrapper


def _batch(name, in_dims, args):
    """(the batch size, b -> the args of batch element b), with PyTorch's checks of in_dims against the args."""
    where = 'vmap(%s, in_dims=%s, ...)(<inputs>): ' % (name, in_dims)
    if not isinstance(in_dims, (int, tuple)):
        raise ValueError(where + 'expected `in_dims` to be int or a (potentially nested) tuple matching the '
                         'structure of inputs, got: %s.' % type(in_dims))
    if not args:
        raise ValueError('vmap(%s)(<inputs>): got no inputs. Maybe you forgot to add inputs, or you are trying to '
                         'vmap over a function with no inputs. The latter is unsupported.' % name)
    leaves, spec = tree_flatten(args)
    dims = _broadcast(in_dims, spec)
    if dims is None:
        raise ValueError(where + 'in_dims is not compatible with the structure of `inputs`. in_dims has structure %r '
                         'but inputs has structure %r.' % (tree_flatten(in_dims)[1], spec))
    sizes = []
    for x, d in zip(leaves, dims):
        if d is None:
            continue
        if not isinstance(d, int):
            raise ValueError(where + 'Got in_dim=%s for an input but in_dim must be either an integer dimension or '
                             'None.' % (d,))
        if not isinstance(x, Tensor):
            raise ValueError(where + 'Got in_dim=%s for an input but the input is of type %s. We cannot vmap over '
                             'non-Tensor arguments, please use None as the respective in_dim' % (d, type(x)))
        if not -x.dim() <= d < x.dim():
            raise ValueError(where + 'Got in_dim=%s for some input, but that input is a Tensor of dimensionality %d so '
                             'expected in_dim to satisfy -%d <= in_dim < %d.' % (d, x.dim(), x.dim(), x.dim()))
        sizes.append(x.shape[d])
    if not sizes:
        raise ValueError('vmap: Expected at least one Tensor to vmap over')
    if len(set(sizes)) > 1:
        raise ValueError('vmap: Expected all tensors to have the same size in the mapped dimension, got sizes %s for '
                         'the mapped dimension' % sizes)

    def slices(b):
        return tree_unflatten([x if d is None else x.select(d, b) if b is not None else
                               x.new_zeros(x.shape[:d % x.dim()] + x.shape[d % x.dim() + 1:])
                               for x, d in zip(leaves, dims)], spec)
    return sizes[0], slices


def _stack_outputs(name, out_dims, results, empty=False):
    """The per-element outputs stacked at out_dims (an output with out_dim None must be the same for all); with
    `empty`, none of the one stacked element is kept."""
    from ._ops import stack
    where = 'vmap(%s, ..., out_dims=%s)(<inputs>): ' % (name, out_dims)
    leaves_per = [tree_flatten(r) for r in results]
    leaves, spec = leaves_per[0]
    dims = _broadcast(out_dims, spec)
    if dims is None:
        raise ValueError(where + 'out_dims is not compatible with the structure of `outputs`. out_dims has structure '
                         '%r but outputs has structure %r.' % (tree_flatten(out_dims)[1], spec))
    out = []
    for i, d in enumerate(dims):
        column = [lv[0][i] for lv in leaves_per]
        if d is None:
            if any(c is not column[0] for c in column):
                raise ValueError('vmap(%s, ...): `%s` can not return a BatchedTensor when out_dim is None'
                                 % (name, name))
            out.append(column[0])
            continue
        if not isinstance(column[0], Tensor):
            raise ValueError('vmap(%s, ...): `%s` must only return Tensors, got type %s. Did you mean to set out_dims= '
                             'to None for output?' % (name, name, type(column[0])))
        stacked = stack(column, d)
        out.append(stacked.narrow(d, 0, 0) if empty else stacked)
    return tree_unflatten(out, spec)
