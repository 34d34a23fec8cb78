"""Random autograd programs, as lines of Python, chosen by looking at what real PyTorch computes.

Each line is generated against a live PyTorch namespace (so shapes and values are known), then the finished
list of lines is replayed in lockstep on both libraries by `harness.run_lockstep`.
"""
import math
import warnings

import numpy as np

GRID = [k / 4 for k in range(-12, 13)]            # exactly representable, well-conditioned values
SCALARS = ["2", "3", "-1", "0.5", "-1.5", "2.5", "True", "1e-3"]
BINARY = ["+", "-", "*", "/", "**"]
UNARY = ["-{a}", "{a}.neg()", "torch.exp({a})", "{a}.exp()", "{a}.abs()", "torch.abs({a})",
         "torch.sigmoid({a})", "{a}.sigmoid()", "torch.tanh({a})", "{a}.tanh()", "torch.relu({a})",
         "{a}.relu()", "{a}.clamp(min=-0.5)", "{a}.clamp(max=1.0)", "{a}.clamp(-1, 1)",
         "torch.clamp({a}, min=0.25, max=2)", "{a}.floor()", "torch.round({a})", "{a}.frac()", "{a}.atan()",
         "torch.nn.functional.softplus({a})", "torch.nn.functional.elu({a})", "torch.nn.functional.silu({a})",
         "torch.expm1({a})", "{a}.sinh()"]
INPLACE_SELF = ["{a}.zero_()", "{a}.fill_(1.5)", "{a}.relu_()", "{a}.neg_()", "{a}.sigmoid_()",
                "{a}.tanh_()", "{a}.clamp_(min=0)", "{a}.mul_(2)", "{a}.add_(1)", "{a}.sub_(0.5)",
                "{a}.div_(4)", "{a} += 1", "{a} *= -2", "{a} -= 0.5", "{a} /= 2"]
# Wrong arguments a learner might type: PyTorch raises for most of them.
MISUSE = [
    "{a}.sum(dim=7)", "{a}.mean(-9)", "{a}.view(5, 7)", "{a}.view(-1, -1)", "{a}.reshape(0)", "{a} + 'x'",
    "{a} * None", "{a}.transpose(0, 5)", "{a}.permute(0, 0)", "{a}.unsqueeze(9)", "{a}.squeeze(4)",
    "{a}.expand(7, 5)", "{a}[99]", "{a}[0, 0, 0, 0]", "{a}[1.5]",
    "torch.cat({a})", "torch.cat([{a}, {a}], dim=5)", "torch.stack([])", "{a} @ 2", "torch.matmul({a}, None)",
    "torch.mm({a}, {a})", "{a}.backward(5)", "{a}.backward(torch.ones(17))", "{a}.t().t().t()", "{a}.item()",
    "{a}.flatten(3, 1)", "{a}.clamp()", "{a}.add_('1')", "{a}.copy_(torch.ones(9, 9))", "{a}.fill_(torch.ones(3))",
    "{a}.requires_grad_()", "{a}.retain_grad()", "{a}.register_hook(None)", "{a}.register_hook(lambda g: 1)",
    "torch.autograd.grad({a}, {a})", "torch.autograd.grad({a}.sum(), [])", "torch.tensor(None)",
    "torch.tensor([[1, 2], [3]])", "torch.ones(-1)", "torch.zeros(2, dtype='float')", "torch.arange(0, 3, 0)",
    "torch.full((2,), 'a')", "{a}.grad_fn.next_functions", "{a}.grad_fn.name()",
    "{a}.sum().backward(); {a}.sum().backward()", "{a}.tolist()", "{a}.numpy()", "{a}.data.numpy()",
    "{a}.detach_()", "{a} ** -1", "{a}.data = torch.ones(5)", "{a}.grad = torch.ones(9)", "{a}.grad.zero_()",
]


# Custom autograd Functions the programs may call (defined once per program, on first use).
FUNCTIONS = '''\
class Square(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x * x

    @staticmethod
    def backward(ctx, g):
        x, = ctx.saved_tensors
        return 2 * x * g


class Scale(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, k):
        ctx.k = k
        return x * k

    @staticmethod
    def backward(ctx, g):
        return g * ctx.k, None'''


def literal(values):
    """Python source for a nested list of numbers."""
    return repr(values.tolist()) if hasattr(values, "tolist") else repr(values)


class ProgramBuilder:
    """Grows a random program line by line; `rng` is a `random.Random` (Hypothesis's or a seeded one)."""

    def __init__(self, T, rng):
        self.T, self.rng, self.lines, self.n = T, rng, [], 0
        self.ns = {"torch": T}

    # ---- bookkeeping

    def run(self, line):
        """Append `line` and execute it on PyTorch (errors are kept: they are part of what we compare)."""
        self.lines.append(line)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            try:
                exec(line, self.ns)
            except Exception:
                pass

    def fresh(self):
        self.n += 1
        return f"x{self.n}"

    def tensors(self, pred=lambda t: True):
        def fits(v):
            try:
                return pred(v)
            except RuntimeError:        # (reading a split piece whose base changed in place raises, in PyTorch)
                return False
        return [k for k, v in self.ns.items() if isinstance(v, self.T.Tensor) and fits(v)]

    def floats(self):
        return self.tensors(lambda t: t.dtype.is_floating_point)

    def pick(self, names):
        return self.rng.choice(sorted(names)) if names else None

    def chance(self, p):
        return self.rng.random() < p

    def shape_of(self, name):
        return tuple(self.ns[name].shape)

    def values(self, name):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return self.ns[name].detach().numpy()

    # ---- leaves

    def leaf(self, shape, dtype=None, requires_grad=None):
        """A new leaf from a literal on the grid; returns its name."""
        rng = self.rng
        dtype = dtype or rng.choice(["torch.float32", "torch.float32", "torch.float64"])
        if requires_grad is None:
            requires_grad = rng.random() < 0.7
        values = np.array([rng.choice(GRID) for _ in range(math.prod(shape))]).reshape(shape)
        if "int" in dtype:
            values = values.astype(int)
            requires_grad = False
        name = self.fresh()
        grad = ", requires_grad=True" if requires_grad else ""
        self.run(f"{name} = torch.tensor({literal(values)}, dtype={dtype}{grad})")
        return name

    def broadcast_shape(self, shape):
        """A random shape that broadcasts with `shape`: a suffix of it with some sizes replaced by 1."""
        keep = self.rng.randint(0, len(shape))
        return tuple(1 if self.chance(0.3) else s for s in shape[len(shape) - keep:])

    def start(self):
        """Two or three leaves of broadcastable small shapes."""
        base = tuple(self.rng.randint(1, 3) for _ in range(self.rng.randint(0, 3)))
        self.leaf(base, requires_grad=True)
        for _ in range(self.rng.randint(1, 2)):
            self.leaf(self.broadcast_shape(base))
        if self.chance(0.1):
            self.leaf(self.broadcast_shape(base), dtype=self.rng.choice(["torch.int64", "torch.int32"]))

    # ---- ops: each returns nothing, appending zero or more lines

    def partner(self, a, exact=False):
        """Another tensor broadcastable with `a` (to `a`'s own shape if `exact`), or a new leaf."""
        sa = self.shape_of(a)

        def fits(t):
            try:
                out = np.broadcast_shapes(sa, tuple(t.shape))
            except ValueError:
                return False
            return out == sa if exact else True
        names = self.tensors(fits)
        if names and self.chance(0.8):
            return self.pick(names)
        return self.leaf(self.broadcast_shape(sa))

    def op_binary(self):
        a = self.pick(self.floats())
        b = self.partner(a) if self.chance(0.9) else self.pick(self.tensors())
        if self.chance(0.5):
            a, b = b, a
        op = self.rng.choice(BINARY)
        form = self.rng.randint(0, 3)
        funcs = {"+": "add", "-": "sub", "*": "mul", "/": "div", "**": "pow"}
        if form == 0:
            expr = f"torch.{funcs[op]}({a}, {b})"
        elif form == 1:
            expr = f"{a}.{funcs[op]}({b})"
        else:
            expr = f"{a} {op} {b}"
        self.run(f"{self.fresh()} = {expr}")

    def op_scalar(self):
        a, s = self.pick(self.floats()), self.rng.choice(SCALARS)
        op = self.rng.choice(BINARY)
        expr = f"{s} {op} {a}" if self.chance(0.4) else f"{a} {op} {s}"
        self.run(f"{self.fresh()} = {expr}")

    def op_unary(self):
        a = self.pick(self.floats())
        v = self.values(a)
        choices = list(UNARY)
        if v.size == 0 or np.abs(v).max() > 20:
            choices = [c for c in choices if "exp" not in c and "sinh" not in c]
        if v.size and v.min() > 0 or self.chance(0.05):
            choices += ["torch.log({a})", "{a}.log()", "{a}.log2()", "torch.log1p({a})", "{a}.rsqrt()"]
        if v.size and v.min() >= 0 or self.chance(0.05):
            choices += ["{a}.sqrt()", "torch.sqrt({a})"]
        self.run(f"{self.fresh()} = " + self.rng.choice(choices).format(a=a))

    def op_reduce(self):
        a = self.pick(self.tensors())
        nd = len(self.shape_of(a))
        kind = self.rng.choice(["sum", "mean"])
        if nd == 0 or self.chance(0.3):
            expr = f"{a}.{kind}()" if self.chance(0.6) else f"torch.{kind}({a})"
        else:
            d = self.rng.randint(-nd, nd - 1)
            keep = self.rng.choice(["", ", keepdim=True", ", keepdim=False"])
            if nd >= 2 and self.chance(0.2):
                expr = f"{a}.{kind}(dim=(0, {nd - 1}){keep})"
            elif self.chance(0.5):
                expr = f"{a}.{kind}({d}{keep})"
            else:
                expr = f"torch.{kind}({a}, dim={d}{keep})"
        self.run(f"{self.fresh()} = {expr}")

    def new_shape(self, shape):
        """A shape with the same number of elements, maybe with a -1."""
        numel = math.prod(shape)
        dims = []
        rest = numel
        while rest > 1 and len(dims) < 3:
            d = self.rng.choice([f for f in range(1, rest + 1) if rest % f == 0])
            dims.append(d)
            rest //= d
        if rest > 1:
            dims.append(rest)
        self.rng.shuffle(dims)
        if dims and self.chance(0.3):
            dims[self.rng.randrange(len(dims))] = -1
        if self.chance(0.1) or not dims:
            dims.append(1)
        return dims

    def op_shape(self):
        a = self.pick(self.tensors())
        shape = self.shape_of(a)
        nd = len(shape)
        rng = self.rng
        options = [
            lambda: f"{a}.view({', '.join(map(str, self.new_shape(shape)))})",
            lambda: f"{a}.view({self.new_shape(shape)})",
            lambda: f"{a}.reshape({', '.join(map(str, self.new_shape(shape)))})",
            lambda: f"torch.reshape({a}, {tuple(self.new_shape(shape))})",
            lambda: f"{a}.view(-1)",
            lambda: f"{a}.unsqueeze({rng.randint(-nd - 1, nd)})",
            lambda: f"torch.unsqueeze({a}, {rng.randint(0, nd)})",
            lambda: f"{a}.squeeze()",
            lambda: f"{a}.flatten()",
            lambda: f"{a}.contiguous()",
            lambda: f"{a}.clone()",
            lambda: f"{a}.detach()",
            lambda: f"{a}.expand({', '.join(map(str, (2,) + tuple(3 if s == 1 else s for s in shape)))})",
            lambda: f"{a}.expand({', '.join(map(str, (-1,) * nd))})" if nd else f"{a}.expand(2)",
        ]
        if nd >= 1:
            options += [
                lambda: f"{a}.squeeze({rng.randint(-nd, nd - 1)})",
                lambda: f"{a}.transpose(0, {rng.randint(-nd, nd - 1)})",
                lambda: f"torch.transpose({a}, {rng.randint(0, nd - 1)}, {rng.randint(0, nd - 1)})",
                lambda: f"{a}.permute({', '.join(map(str, rng.sample(range(nd), nd)))})",
                lambda: f"{a}.flatten({rng.randint(0, nd - 1)})",
            ]
        if nd <= 2:
            options += [lambda: f"{a}.t()", lambda: f"torch.t({a})"]
        if nd >= 2:
            options.append(lambda: f"{a}.flatten(0, 1)")
        self.run(f"{self.fresh()} = " + rng.choice(options)())

    def index(self, shape):
        """An index expression: ints, slices, None, Ellipsis; sometimes out of range."""
        rng = self.rng

        def anywhere(n):
            return rng.randint(-n, n - 1) if n else 0
        if not shape:
            return rng.choice(["[None]", "[...]", "[()]"])
        n = shape[0]
        parts = [str(anywhere(n)), f"{rng.randint(0, n)}:{rng.randint(0, n + 1)}", "::2", ":", "None", "-1",
                 f"{rng.randint(0, n)}:"]
        first = rng.choice(parts)
        if self.chance(0.05):
            first = str(n + rng.randint(0, 2))
        if len(shape) >= 2 and self.chance(0.5):
            m = shape[1]
            second = rng.choice([str(anywhere(m)), ":", f"1:{m}", "None"])
            return f"[{first}, {second}]"
        if self.chance(0.2):
            return f"[..., {anywhere(shape[-1])}]"
        if self.chance(0.1):
            return f"[[{anywhere(n)}, 0]]"
        return f"[{first}]"

    def op_index(self):
        a = self.pick(self.tensors())
        self.run(f"{self.fresh()} = {a}{self.index(self.shape_of(a))}")

    def op_setitem(self):
        a = self.pick(self.tensors())
        value = self.rng.choice(["0.0", "2.5", "-1"])
        if self.chance(0.3):
            value = self.pick(self.tensors(lambda t: t.dim() == 0)) or value
        self.run(f"{a}{self.index(self.shape_of(a))} = {value}")

    def op_matmul(self):
        a = self.pick(self.tensors(lambda t: t.dtype.is_floating_point and 1 <= t.dim() <= 3))
        if a is None:
            return self.op_binary()
        shape = self.shape_of(a)
        k, m = shape[-1], self.rng.randint(1, 3)
        dtype = str(self.ns[a].dtype) if self.chance(0.9) else "torch.float64"
        other = (k,) if self.chance(0.2) else (k, m)
        if self.chance(0.05):
            other = (k + 1, m)
        b = self.leaf(other, dtype=dtype)
        forms = [f"{a} @ {b}", f"torch.matmul({a}, {b})"]
        if len(shape) == 2 and len(other) == 2:
            forms += [f"{a}.mm({b})", f"torch.mm({a}, {b})"]
        self.run(f"{self.fresh()} = {self.rng.choice(forms)}")

    def op_join(self):
        a = self.pick(self.tensors())
        shape = self.shape_of(a)
        same = self.tensors(lambda t: tuple(t.shape) == shape)
        b = self.pick(same) if len(same) > 1 and self.chance(0.6) else self.leaf(shape)
        nd = len(shape)
        if nd and self.chance(0.5):
            d = self.rng.randint(-nd, nd - 1)
            self.run(f"{self.fresh()} = torch.cat([{a}, {b}], dim={d})")
        else:
            d = self.rng.randint(-nd - 1, nd)
            self.run(f"{self.fresh()} = torch.stack(({a}, {b}), {d})")

    def op_inplace(self):
        a = self.pick(self.tensors())
        if self.chance(0.5):
            self.run(self.rng.choice(INPLACE_SELF).format(a=a))
            return
        b = self.partner(a, exact=True)
        method = self.rng.choice(["add_", "sub_", "mul_", "div_", "copy_"])
        line = f"{a}.{method}({b})"
        if self.chance(0.3):
            line = f"{self.fresh()} = {line}"
        elif self.chance(0.3):
            line = f"{a} {self.rng.choice(['+=', '-=', '*='])} {b}"
        self.run(line)

    def op_misc(self):
        rng = self.rng
        a = self.pick(self.tensors())
        options = [
            lambda: f"{a}.retain_grad()",
            lambda: f"{a}.requires_grad_()",
            lambda: f"{self.fresh()} = {a}.data",
            lambda: f"{self.fresh()} = {a}.detach()",
            lambda: f"with torch.no_grad():\n    {self.fresh()} = {a} * 2",
            lambda: f"with torch.enable_grad():\n    {self.fresh()} = {a} + 1",
            lambda: f"with torch.set_grad_enabled(False):\n    {self.fresh()} = {a}.exp()",
            lambda: f"{self.fresh()} = {a}.detach().requires_grad_()",
            lambda: f"{a}.register_hook(lambda g: g * 2)",
            lambda: f"with torch.no_grad():\n    {a} {rng.choice(['-=', '+=', '*=', '/='])} 0.5 * {self.partner(a, True)}",
            lambda: f"with torch.no_grad():\n    {a}.{rng.choice(['add_', 'sub_'])}({self.partner(a, True)}, alpha=0.5)",
        ]
        self.run(rng.choice(options)())

    def op_more(self):
        """Pieces (split, chunk, unbind: views of one multi-output node), scans, products, masks, gathers,
        reorderings, and a custom autograd Function."""
        rng = self.rng
        a = self.pick(self.floats())
        shape = self.shape_of(a)
        nd = len(shape)
        d = rng.randint(-nd, nd - 1) if nd else 0
        n = shape[d] if nd else 1
        keep = rng.choice(["", ", keepdim=True"])
        options = [
            lambda: f"{a}.cumsum({d})" if nd else f"torch.cumsum({a}, 0)",
            lambda: f"{a}.prod()",
            lambda: f"torch.prod({a}, {d}{keep})" if nd else f"{a}.prod(0)",
            lambda: f"{a}.amax({d}{keep})" if nd else f"{a}.amax()",
            lambda: f"torch.amin({a}, {d})" if nd else f"torch.amin({a})",
            lambda: f"{a}.masked_fill({a} > 0, {rng.choice(['0.0', '-1', '2.5'])})",
            lambda: f"{a}.flip({d})" if nd else f"{a}.flip(0)",
            lambda: f"torch.roll({a}, {rng.randint(-2, 2)}, {d})" if nd else f"{a}.roll(1)",
            lambda: f"{a}.repeat({', '.join(str(rng.randint(1, 2)) for _ in range(nd + rng.randint(0, 1))) or '1'})",
            lambda: f"torch.broadcast_to({a}, {(2,) + shape})",
            lambda: (f"{a}.split({rng.randint(1, 2)}, {d})[{rng.randint(0, n - 1) // 2}]" if nd and n
                     else f"torch.split({a}, 1)"),
            lambda: f"{a}.chunk(2, {d})[0]" if nd and n else f"{a}.chunk(2)",
            lambda: f"{a}.unbind({d})[{rng.randint(0, n - 1)}]" if nd and n else f"{a}.unbind()",
            lambda: f"{a}.index_select({d}, torch.tensor([{rng.randint(0, n - 1)}, 0]))" if nd and n else
                    f"{a}.index_select(0, torch.tensor([0]))",
            lambda: f"Square.apply({a})",
            lambda: f"Scale.apply({a}, {rng.choice(['2.0', '-0.5'])})",
        ]
        if nd == 2:
            options += [lambda: f"{a}.tril()", lambda: f"torch.triu({a}, {rng.randint(-1, 1)})",
                        lambda: f"{a}.trace()", lambda: f"{a}.gather(1, torch.zeros({shape}, dtype=torch.int64))",
                        lambda: f"torch.movedim({a}, 0, 1)"]
        if nd == 1:
            options += [lambda: f"torch.outer({a}, {a})", lambda: f"torch.diag({a})"]
        if "Square" not in self.ns:
            self.run(FUNCTIONS)
        self.run(f"{self.fresh()} = " + rng.choice(options)())

    OPS = ((op_binary, 4), (op_scalar, 3), (op_unary, 4), (op_reduce, 2), (op_shape, 4), (op_index, 2),
           (op_setitem, 1), (op_matmul, 2), (op_join, 1), (op_inplace, 2), (op_misc, 1), (op_more, 2))

    def step(self):
        ops, weights = zip(*self.OPS)
        self.rng.choices(ops, weights)[0](self)

    # ---- backward

    def backward(self):
        """One or two backward calls from a random root, then reading grads."""
        rng = self.rng
        roots = self.tensors(lambda t: t.requires_grad and t.dtype.is_floating_point)
        if roots and self.chance(0.7):
            r = roots[-1]  # the newest: usually the deepest graph
        else:
            r = self.pick(roots) or self.pick(self.tensors())
        leaves = self.tensors(lambda t: t.is_leaf and t.requires_grad)
        retain = rng.choice(["", "retain_graph=True", "retain_graph=False"])
        form = rng.randint(0, 5)
        if form == 0:
            line = f"{r}.sum().backward({retain})"
        elif form == 1:
            g = np.array([rng.choice(GRID) for _ in range(self.ns[r].numel())]).reshape(self.shape_of(r))
            dtype = str(self.ns[r].dtype)
            line = f"{r}.backward(torch.tensor({literal(g)}, dtype={dtype}){', ' + retain if retain else ''})"
        elif form == 2:
            line = f"{r}.backward({retain})"
        elif form == 3 and leaves:
            line = f"grads = torch.autograd.grad({r}.sum(), [{', '.join(leaves)}], allow_unused=True)"
        elif form == 4 and leaves:
            line = f"{r}.sum().backward(inputs=[{self.pick(leaves)}])"
        else:
            line = f"{r}.mean().backward(create_graph=True)"
        self.run(line)
        if self.chance(0.3):
            self.run(line)


def build_program(T, rng, steps):
    """A whole random program: leaves, `steps` ops, backward."""
    builder = ProgramBuilder(T, rng)
    builder.start()
    for _ in range(steps):
        builder.step()
    builder.backward()
    return builder.lines
