"""Fuzz the engine alone: whatever a learner types, it raises only errors PyTorch would raise.

Random programs (op sequences over random shapes and dtypes, in-place mixes, misuse, backward calls) run on the
engine; every exception must be one of PyTorch's user-facing types with a PyTorch-like message, never an internal
one (AttributeError, KeyError, numpy's messages, ...), and numpy must not leak RuntimeWarnings. No torch needed.
"""
import traceback
import warnings

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import engine as E
from differential.programs import MISUSE, ProgramBuilder  # tests/ is on sys.path: pytest puts it there

ALLOWED = (RuntimeError, TypeError, IndexError, ValueError)
# Words that only numpy or Python internals would use in a message.
FOREIGN_WORDS = ("ufunc", "ndarray", "array of", "np.", "operands could not be broadcast", "axis", "dtype('",
                 "object has no attribute", "cannot reshape array", "unhashable", "positional argument",
                 "unexpected keyword")


class FuzzBuilder(ProgramBuilder):
    """The differential tests' program builder, run on the engine, plus misuse, checking every error."""

    def __init__(self, rng):
        super().__init__(E, rng)
        self.problems = []

    def run(self, line):
        self.lines.append(line)
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            try:
                exec(line, self.ns)
            except Exception as exc:
                self.check(exc)
        leaked = [w for w in caught if issubclass(w.category, RuntimeWarning)]
        if leaked:
            self.problems.append(f"numpy warning leaked: {leaked[0].category.__name__}: {leaked[0].message}\n"
                                 f"  at line: {line}")
        self.check_printing()

    def check(self, exc):
        """An exception is fine if PyTorch could have raised it (or it is the program's own NameError)."""
        message = str(exc)
        tb = exc.__traceback__
        while tb.tb_next:
            tb = tb.tb_next
        raised_by_program = tb.tb_frame.f_code.co_filename == "<string>"
        if raised_by_program and isinstance(exc, NameError) and message.startswith("name 'x"):
            return  # a name whose defining line failed
        if raised_by_program and isinstance(exc, AttributeError) and message.startswith("'NoneType'"):
            return  # `x.grad_fn.next_functions` on a leaf: Python's error, in PyTorch too
        if isinstance(exc, ALLOWED) and message and not any(w in message for w in FOREIGN_WORDS):
            return
        where = "".join(traceback.format_exception(exc)[-4:])
        self.problems.append(f"{type(exc).__name__}: {message}\n  at line: {self.lines[-1]}\n{where}")

    def check_printing(self):
        """Printing every tensor (what learners do most) never fails."""
        for name in self.tensors():
            try:
                repr(self.ns[name])
            except Exception as exc:
                self.problems.append(f"repr({name}) raised {type(exc).__name__}: {exc}")

    def op_misuse(self):
        a = self.pick(self.tensors())
        self.run(self.rng.choice(MISUSE).format(a=a))

    def op_int_leaf(self):
        shape = tuple(self.rng.randint(1, 3) for _ in range(self.rng.randint(0, 2)))
        self.leaf(shape, dtype=self.rng.choice(["torch.int64", "torch.int32", "torch.bool"]))

    OPS = (*ProgramBuilder.OPS, (op_misuse, 3), (op_int_leaf, 1), (ProgramBuilder.backward, 1))


@settings(max_examples=400, deadline=None, derandomize=True, database=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(rng=st.randoms(use_true_random=False), steps=st.integers(1, 15))
def test_engine_raises_only_pytorch_errors(rng, steps):
    """No internal error, numpy message or numpy warning escapes the engine, whatever the program."""
    builder = FuzzBuilder(rng)
    builder.start()
    for _ in range(steps):
        builder.step()
    builder.backward()
    assert not builder.problems, "\n".join(builder.lines) + "\n--- problems ---\n" + "\n".join(builder.problems)


def test_deep_graph_has_no_recursion_limit():
    """A chain far deeper than Python's recursion limit backpropagates, prints and is freed without RecursionError."""
    x = E.tensor([1.0], requires_grad=True)
    y = x
    for _ in range(30_000):
        y = y * 1.0
    y.backward(retain_graph=True)
    repr(y.grad_fn)
    assert x.grad.tolist() == [1.0]
    y.backward()
    assert x.grad.tolist() == [2.0]
    del y
