"""Run the same code on real PyTorch and on the engine, and say where they differ."""
import contextlib
import functools
import importlib
import io
import math
import os
import re
import sys
import traceback
import warnings

import numpy as np

_ADDRESS = re.compile(r"0x[0-9a-fA-F]+")
_TRIGGERED = re.compile(r" \(Triggered internally at [^)]*\)")
_TENSOR_CLASS = re.compile(r"<class '[\w.]*Tensor'>")
_CALLABLE = re.compile(r"'(builtin_function_or_method|function|method)' object")
# PyTorch gives these warnings only once per process, so whether they show depends on test order.
_WARNED_ONCE = ("UserWarning: Using backward() with create_graph=True",
                "UserWarning: Converting a tensor with requires_grad=True to a scalar",
                "UserWarning: The use of `x.T` on tensors of dimension other than 2",
                "UserWarning: Tensor.T is deprecated on 0-D tensors",
                "UserWarning: Tensor.mT is deprecated on 0-D tensors",
                "UserWarning: Tensor.mH is deprecated on 0-D tensors",
                "UserWarning: Tensor.H is deprecated on 0-D tensors",
                "UserWarning: Creating a tensor from a list of numpy.ndarrays",
                "UserWarning: TypedStorage is deprecated",
                "UserWarning: torch.set_default_tensor_type() is deprecated",
                "UserWarning: The given NumPy array is not writable",
                "UserWarning: This overload of",
                "UserWarning: where received a uint8 condition tensor",
                "UserWarning: torch.chain_matmul is deprecated",
                "UserWarning: The reduce argument of torch.scatter with Tensor src is deprecated",
                "DeprecationWarning: `torch.jit.script` is deprecated",  # (its forward-mode AD modules' first import)
                # (a legacy tensor type given as a dtype: torch.tensor([1], dtype=torch.FloatTensor))
                "UserWarning: Defining your `__torch_function__` as a plain method is deprecated")


# Helpers a snippet may call: show(y) prints a tensor, its grad_fn and every saved attribute of it in name order;
# tries(*fs) prints each call's result or its error.
TRIES = ("def tries(*fs):\n"
         "    for f in fs:\n"
         "        try:\n"
         "            print(f())\n"
         "        except Exception as e:\n"
         "            print(type(e).__name__, e)\n")
SHOW = ("def show(y):\n"
        "    g = y.grad_fn\n"
        "    print(y, g, g and g.next_functions)\n"
        "    for n in sorted(a for a in dir(g) if a.startswith('_saved_')):\n"
        "        print(' ', n, getattr(g, n))\n") + TRIES


_NUMBER = re.compile(r"[-+]?(?:\d+\.\d*|\.\d+|\d+)(?:[eE][-+]?\d+)?")
# The kernels whose last bits the engine reproduces (softmax, sums, products, sqrt, attention): measured with
# PyTorch's AVX-512 kernels (16 float32 lanes; sums, norms and products in AVX2's 8) on Intel CPUs. On an AMD CPU
# with AVX-512, PyTorch reports the same capability, but MKL takes other paths there (its float32 sqrt is an ulp off
# for ~20% of inputs; products of matrices differ); so it does on some Intel CPUs (Sapphire Rapids, with AMX: small
# products of transposed matrices, LAPACK's small solves and inverses, its special functions).
ENGINE_CPU = "AVX512"

# sha256 (first 16 hex digits) of the bytes of a few results of MKL's that differ by CPU (see _mkl_fingerprint), as
# PyTorch gives them on the CPUs whose kernels the engine reproduces
_REFERENCE_MKL = "eb9deef914731c8e"


def _mkl_fingerprint(lib):
    """A product of two transposed float32 matrices (MKL's small-matrix kernel) and inverses of 3x3 matrices
    (LAPACK's getrf/getri), hashed."""
    import hashlib
    h = hashlib.sha256()
    a = ((lib.arange(20) * 37 % 101 - 50).float() / 7).view(5, 4).t()
    b = ((lib.arange(60) * 39 % 101 - 50).float() / 7).view(12, 5).t()
    h.update(a.mm(b).numpy().tobytes())
    rng = np.random.default_rng(3)
    for dtype in ("float32", "float64"):
        for _ in range(20):
            h.update(lib.linalg.inv(lib.from_numpy(rng.standard_normal((3, 3)).astype(dtype))).numpy().tobytes())
    return h.hexdigest()[:16]


@functools.lru_cache(maxsize=None)
def torch_cpu():
    """The kernels real PyTorch runs here: 'AVX512', 'AVX2', ... (torch.backends.cpu.get_cpu_capability()), with the
    CPU's vendor after it when it is not Intel ('AVX512 AuthenticAMD'), and ' (other MKL kernels)' when MKL's
    results differ from the reference ones (_mkl_fingerprint)."""
    torch = importlib.import_module("torch")
    capability = torch.backends.cpu.get_cpu_capability()
    try:
        with open("/proc/cpuinfo") as f:
            vendor = next((line.split(":")[1].strip() for line in f if line.startswith("vendor_id")), "")
    except OSError:
        vendor = ""
    cpu = capability if vendor in ("", "GenuineIntel") else "%s %s" % (capability, vendor)
    if cpu == ENGINE_CPU and _mkl_fingerprint(torch) != _REFERENCE_MKL:
        cpu += " (other MKL kernels)"
    return cpu


def skip_unless_engine_cpu(what):
    """Skip a test of behaviour that PyTorch's kernels give differently by CPU (which elements a vector loop takes,
    signs of zeros), where PyTorch runs other kernels than those the engine reproduces."""
    if torch_cpu() != ENGINE_CPU:
        import pytest
        pytest.skip("%s: PyTorch on %s gives other results than on %s" % (what, torch_cpu(), ENGINE_CPU))


def same(t, e):
    """Whether the engine did what PyTorch did: the same text. Where PyTorch runs other kernels than the engine
    reproduces (AVX2's 8 lanes, MKL's other paths), their last bits differ from the reference ones; there the text
    must be the same but for spaces before numbers (a sign of zero, a wider column), with every number equal up to
    float32 rounding (relative 1e-4, absolute 1e-6) or to the last digit printed ('0.3527' for 0.35275)."""
    a, b = t.summary(), e.summary()
    if a == b:
        return True
    if torch_cpu() == ENGINE_CPU or _shape(a) != _shape(b):
        return False
    return all(math.isclose(float(x), float(y), rel_tol=1e-4, abs_tol=1e-6) or abs(float(x) - float(y)) <= _ulp(x, y)
               for x, y in zip(_NUMBER.findall(a), _NUMBER.findall(b)))


def _shape(text):
    """The text without its numbers and the spaces before them."""
    return re.sub(r" *#", "#", _NUMBER.sub("#", text))


def _ulp(*printed):
    """One unit in the last place of numbers printed in fixed notation with the same decimals, else 0."""
    places = {len(p.partition(".")[2]) if "." in p and "e" not in p.lower() else None for p in printed}
    return 10.0 ** -places.pop() * 1.0000001 if len(places) == 1 and None not in places else 0.0


def load_engine():
    """The module under test: `engine`, or the one named by $DIFF_ENGINE (`torch` checks the tests themselves)."""
    return importlib.import_module(os.environ.get("DIFF_ENGINE", "engine"))


def normalise(text):
    """Blank what legitimately differs between the two libraries: addresses, C++ locations, type names."""
    text = _ADDRESS.sub("0x?", text)
    text = _TRIGGERED.sub("", text)
    text = _CALLABLE.sub("'callable' object", text)  # PyTorch's functions are builtins, ours are Python
    return _TENSOR_CLASS.sub("<class 'torch.Tensor'>", text)


def error_text(exc):
    """`Type: message`, normalised, as a learner would see it."""
    return normalise(f"{type(exc).__name__}: {exc}")


@contextlib.contextmanager
def imported_as_torch(lib):
    """`import torch.nn as nn` in a snippet imports from `lib`, as in the browser (sys.modules['torch'] is the engine
    there; the engine's import hook finds its submodules): real PyTorch's modules are set aside meanwhile."""
    if lib.__name__ == "torch":
        yield
        return
    saved = {k: v for k, v in sys.modules.items() if k == "torch" or k.startswith("torch.")}
    for k in saved:
        del sys.modules[k]
    sys.modules["torch"] = lib
    try:
        yield
    finally:
        for k in [k for k in sys.modules if k == "torch" or k.startswith("torch.")]:
            del sys.modules[k]
        sys.modules.update(saved)


class Outcome:
    """What one snippet did: printed text, warnings, the exception it ended with, its final namespace."""

    def __init__(self, lib, code):
        self.namespace = {"torch": lib}
        out = io.StringIO()
        self.error = None
        with warnings.catch_warnings(record=True) as caught, contextlib.redirect_stdout(out), imported_as_torch(lib):
            warnings.simplefilter("always")
            lib.manual_seed(0)     # (a snippet that draws numbers without seeding draws the same ones in both)
            try:
                exec(code, self.namespace)
            except Exception as exc:  # the snippet's own errors are what we compare
                self.error = exc
            finally:
                lib.set_printoptions(profile="default")     # (a snippet's print options must not reach the next test)
        self.output = normalise(out.getvalue())
        self.warnings = [text for text in (normalise(f"{w.category.__name__}: {w.message}") for w in caught)
                         if not text.startswith(_WARNED_ONCE)]

    def summary(self):
        """Everything comparable, as one text."""
        text = self.output
        if self.warnings:
            text += "".join(f"[warning] {w}\n" for w in self.warnings)
        if self.error is not None:
            text += f"[raised] {error_text(self.error)}\n"
        return text


def preload_compilers(T, E):
    """PyTorch's first torch.compile warns about torch.jit deprecations (once) and turns distributions' validation
    off for good (importing torch._dynamo does; the engine's compile mimics it): done in both libraries before a
    snippet that compiles, so that what it prints does not depend on which test compiled first. (Importing
    torch._dynamo also changes what later unseeded samples draw: not at import time, then.)"""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        T.compile(T.nn.Identity())
        E.compile(E.nn.Identity())


def run_both(T, E, code):
    """Run `code` with `torch` bound to real PyTorch, then to the engine; return both outcomes."""
    return Outcome(T, code), Outcome(E, code)


def internal_traceback(outcome):
    """The engine's traceback, to show where an unexpected error came from."""
    if outcome.error is None:
        return ""
    return "".join(traceback.format_exception(outcome.error))


# ---------------------------------------------------------------- comparing live objects

def values_close(t_arr, e_arr):
    """allclose with an absolute slack that scales with the tensor's magnitude (cancellation)."""
    if t_arr.shape != e_arr.shape:
        return False
    if t_arr.dtype.kind in "biu":
        return np.array_equal(t_arr, e_arr)
    # One tolerance for both float dtypes: float64 results often pass through float32 intermediates.
    finite = np.abs(t_arr[np.isfinite(t_arr)])
    scale = 1.0 + (finite.max() if finite.size else 0.0)
    return np.allclose(e_arr, t_arr, rtol=2e-4, atol=1e-5 * scale, equal_nan=True)


def identical(t_arr, e_arr):
    """Bit-for-bit the same values, sign of zero included: only then must the printed text match."""
    return t_arr.shape == e_arr.shape and t_arr.dtype == e_arr.dtype and t_arr.tobytes() == e_arr.tobytes()


def grad_fn_name(fn):
    return None if fn is None else type(fn).__name__


def graph_signature(root, leaf_names):
    """The whole grad_fn graph below `root` as a list: node names in BFS order with numbered edges."""
    if root is None:
        return None
    order, nodes, queue = {id(root): 0}, [], [root]
    while queue:
        fn = queue.pop(0)
        edges = []
        for nxt, nr in fn.next_functions:
            if nxt is None:
                edges.append((None, nr))
                continue
            if id(nxt) not in order:
                order[id(nxt)] = len(order)
                queue.append(nxt)
            edges.append((order[id(nxt)], nr))
        variable = getattr(fn, "variable", None)
        nodes.append((grad_fn_name(fn), tuple(edges),
                      leaf_names.get(id(variable), "?") if variable is not None else None))
    return nodes


def tensor_facts(t, leaf_names):
    """Metadata of a tensor that must match exactly."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return {
            "dtype": str(t.dtype),
            "shape": tuple(t.shape),
            "requires_grad": t.requires_grad,
            "is_leaf": t.is_leaf,
            "grad_fn": grad_fn_name(t.grad_fn),
            "_version": t._version,
            "graph": graph_signature(t.grad_fn, leaf_names),
            "grad is None": t.grad is None if (t.is_leaf or t.retains_grad) else None,
        }


def as_array(t):
    return np.array(t.detach().numpy(), copy=True)


def facts_or_error(t, leaf_names):
    """tensor_facts, or the text of the error reading them raised (a view whose history PyTorch cannot tell: its
    base changed in place, so even its is_leaf raises)."""
    try:
        return tensor_facts(t, leaf_names)
    except RuntimeError as exc:
        return error_text(exc)


def compare_tensors(name, t, e, t_leaves, e_leaves):
    """Differences between torch tensor `t` and engine tensor `e`, as readable lines."""
    diffs = []
    tf, ef = facts_or_error(t, t_leaves), facts_or_error(e, e_leaves)
    if isinstance(tf, str) or isinstance(ef, str):
        return [] if tf == ef else [f"{name}: torch {tf!r} | engine {ef!r}"]
    if name.endswith(".grad") or name.startswith("grads["):
        # A gradient's version depends on whether PyTorch stole or cloned the incoming buffer, and the graph that
        # create_graph=True builds follows its derivative formulas term by term: internal details, so only the
        # root grad_fn of a gradient is compared.
        del tf["_version"], ef["_version"], tf["graph"], ef["graph"]
    for key in tf:
        if tf[key] != ef[key]:
            diffs.append(f"{name}: {key}: torch {tf[key]!r} | engine {ef[key]!r}")
    if diffs:
        return diffs
    ta, ea = as_array(t), as_array(e)
    if not values_close(ta, ea):
        diffs.append(f"{name}: values differ\n  torch  {t!r}\n  engine {e!r}")
    elif identical(ta, ea) and repr(t) != repr(e):
        diffs.append(f"{name}: repr differs\n  torch  {t!r}\n  engine {e!r}")
    if tf["grad is None"] is False:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            diffs += compare_tensors(f"{name}.grad", t.grad, e.grad, t_leaves, e_leaves)
    return diffs


def compare_values(name, t, e, T, E, t_leaves, e_leaves):
    """Differences between any two namespace values (tensors, tuples of tensors, plain Python)."""
    if isinstance(t, T.Tensor):
        if not isinstance(e, E.Tensor):
            return [f"{name}: torch gives a Tensor, engine a {type(e).__name__}"]
        return compare_tensors(name, t, e, t_leaves, e_leaves)
    if isinstance(t, (tuple, list)) and isinstance(e, (tuple, list)) and len(t) == len(e):
        return [d for i, (ti, ei) in enumerate(zip(t, e))
                for d in compare_values(f"{name}[{i}]", ti, ei, T, E, t_leaves, e_leaves)]
    if normalise(repr(t)) != normalise(repr(e)):
        return [f"{name}: torch {t!r} | engine {e!r}"]
    return []


def leaf_names(namespace, lib):
    """id(tensor) -> variable name, to say which leaf an AccumulateGrad points at."""
    return {id(v): k for k, v in namespace.items() if isinstance(v, lib.Tensor)}


def compare_namespaces(tns, ens, T, E):
    """Differences between every user variable of the two namespaces."""
    diffs = []
    t_leaves, e_leaves = leaf_names(tns, T), leaf_names(ens, E)
    for name in sorted(k for k in tns if not k.startswith("__") and k != "torch"):
        if name not in ens:
            diffs.append(f"{name}: defined by torch, missing in engine")
            continue
        try:
            diffs += compare_values(name, tns[name], ens[name], T, E, t_leaves, e_leaves)
        except Exception as exc:  # an engine attribute blowing up is a finding, not a harness crash
            diffs.append(f"{name}: comparing raised {error_text(exc)}\n{traceback.format_exc()}")
    return diffs


def grads_alias(namespace, T):
    """Whether two leaves' .grad share memory in PyTorch (it can keep views of one buffer from stack/cat backward).

    A later backward then accumulates into both at once: a PyTorch quirk, not behaviour to copy.
    """
    storages = {}
    for v in namespace.values():
        try:
            leaf = isinstance(v, T.Tensor) and v.is_leaf
        except RuntimeError:           # (a view whose base changed in place: it has no history to tell)
            continue
        if leaf and v.grad is not None:
            storages.setdefault(v.grad.untyped_storage().data_ptr(), set()).add(id(v))
    return any(len(owners) > 1 for owners in storages.values())


def integer_requires_grad(namespace, T):
    """Whether PyTorch let an integer tensor require grad (an in-place copy of a float into an integer view gives
    the base a CopySlices node): a PyTorch quirk, not behaviour to copy."""
    return any(isinstance(v, T.Tensor) and v.requires_grad and not v.is_floating_point()
               for v in namespace.values())


def run_lockstep(T, E, lines):
    """Execute `lines` one by one in both libraries; return (index, differences) of the first divergence."""
    tns, ens = {"torch": T}, {"torch": E}
    for i, line in enumerate(lines):
        if grads_alias(tns, T):
            return None  # nothing after this is comparable
        t_err = e_err = None
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            try:
                exec(line, tns)
            except Exception as exc:
                t_err = exc
            try:
                exec(line, ens)
            except Exception as exc:
                e_err = exc
        if t_err is not None and "INTERNAL ASSERT FAILED" in str(t_err) or integer_requires_grad(tns, T):
            return None  # a PyTorch bug, not behaviour to copy: nothing after it is comparable
        if t_err is not None or e_err is not None:
            t_text = error_text(t_err) if t_err else "no error"
            e_text = error_text(e_err) if e_err else "no error"
            if t_text != e_text:
                detail = f"torch:  {t_text}\nengine: {e_text}"
                if e_err is not None:
                    detail += "\n" + "".join(traceback.format_exception(e_err)[-3:])
                return i, [detail]
        diffs = compare_namespaces(tns, ens, T, E)
        if diffs:
            return i, diffs
    return None


def describe(lines, divergence):
    """A reproducible report: the snippet up to the diverging line, then what differed."""
    i, diffs = divergence
    code = "\n".join(lines[: i + 1])
    return f"--- snippet (diverges at its last line) ---\n{code}\n--- differences ---\n" + "\n".join(diffs)
