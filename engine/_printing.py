"""`repr`/`str` of tensors, byte for byte as PyTorch 2.13 prints them, computed from a numpy array."""
import math

import numpy as np

from . import _dtypes

_PROFILES = {
    "default": dict(precision=4, threshold=1000, edgeitems=3, linewidth=80),
    "short": dict(precision=2, threshold=1000, edgeitems=2, linewidth=80),
    "full": dict(precision=4, threshold=math.inf, edgeitems=3, linewidth=80),
}
_opts = dict(_PROFILES["default"], sci_mode=None)

_FLOATING = ("float16", "float32", "float64")
_PREFIX = "tensor("
INDENT = len(_PREFIX)


def set_printoptions(precision=None, threshold=None, edgeitems=None, linewidth=None, profile=None, sci_mode=None):
    """Change how tensors print, like `torch.set_printoptions` (which also resets `sci_mode` when not given)."""
    if profile is not None:
        _opts.update(_PROFILES.get(profile, {}))
    for name, value in dict(precision=precision, threshold=threshold, edgeitems=edgeitems,
                            linewidth=linewidth).items():
        if value is not None:
            _opts[name] = value
    _opts["sci_mode"] = sci_mode


def get_printoptions():
    """The current print options as a dict that `set_printoptions(**...)` accepts."""
    return dict(_opts)


class _Formatter:
    """How every value of one tensor is printed: a shared width and one mode (int-like, fixed or scientific)."""

    def __init__(self, values, floating):
        """Choose the mode and width from `values` (the flattened, possibly summarised, data)."""
        self.floating = floating
        self.precision = _opts["precision"]
        self.int_mode = True
        self.sci_mode = False
        self.width = 1
        if not floating:
            self.width = max([1] + [len(str(v)) for v in values.tolist()])
            return
        shown = values[np.isfinite(values) & (values != 0)]
        if shown.size == 0:
            return
        magnitudes = np.abs(shown).astype(np.float64)
        smallest, largest = float(magnitudes.min()), float(magnitudes.max())
        self.int_mode = bool(np.all(np.ceil(shown) == shown))
        if _opts["sci_mode"] is None:
            self.sci_mode = largest / smallest > 1000.0 or largest > 1.0e8 or smallest < 1.0e-4
        else:
            self.sci_mode = _opts["sci_mode"]
        if self.sci_mode:
            spec, dot = f".{self.precision}e", 0
        elif self.int_mode:
            spec, dot = ".0f", 1
        else:
            spec, dot = f".{self.precision}f", 0
        self.width = max(len(format(v, spec)) for v in shown.tolist()) + dot

    def format(self, value):
        """One value as text, right-aligned to the shared width (wider non-finite values stick out)."""
        if not self.floating:
            text = str(value)
        elif self.sci_mode:
            text = format(value, f"{self.width}.{self.precision}e")
        elif self.int_mode:
            text = format(value, ".0f") + ("." if math.isfinite(value) else "")
        else:
            text = format(value, f".{self.precision}f")
        return text.rjust(self.width)


def _summarised_values(a):
    """The values that stay visible after summarisation, flattened: they alone decide the format."""
    edge = _opts["edgeitems"]
    if a.ndim == 0:
        return a.reshape(1)
    if a.ndim == 1:
        return np.concatenate((a[:edge], a[-edge:])) if a.shape[0] > 2 * edge else a
    if not edge:
        return a.reshape(-1)[:0]
    n = a.shape[0]
    rows = list(range(edge)) + list(range(n - edge, n)) if n > 2 * edge else range(n)
    if not rows:                        # (a negative edgeitems: PyTorch stacks no rows)
        raise RuntimeError('stack expects a non-empty TensorList')
    return np.concatenate([_summarised_values(a[i]) for i in rows])


def _vector(a, indent, summarize, fmt):
    """A 1-d row, wrapped so that lines fit in linewidth given the indent."""
    edge = _opts["edgeitems"]
    per_line = max(1, math.floor((_opts["linewidth"] - indent) / (fmt.width + 2)))
    if summarize and not edge:
        items = ["..."]
    elif summarize and a.shape[0] > 2 * edge:
        items = [fmt.format(v) for v in a[:edge].tolist()] + [" ..."]
        items += [fmt.format(v) for v in a[-edge:].tolist()]
    else:
        items = [fmt.format(v) for v in a.tolist()]
    lines = [", ".join(items[i:i + per_line]) for i in range(0, len(items), per_line)]
    return "[" + (",\n" + " " * (indent + 1)).join(lines) + "]"


def _nested(a, indent, summarize, fmt):
    """The bracketed text of `a` whose first line starts at column `indent`."""
    if a.ndim == 0:
        return fmt.format(a.item())
    if a.ndim == 1:
        return _vector(a, indent, summarize, fmt)
    edge, n = _opts["edgeitems"], a.shape[0]
    if summarize and n > 2 * edge:
        parts = [_nested(a[i], indent + 1, summarize, fmt) for i in range(edge)] + ["..."]
        parts += [_nested(a[i], indent + 1, summarize, fmt) for i in range(n - edge, n)]
    else:
        parts = [_nested(a[i], indent + 1, summarize, fmt) for i in range(n)]
    return "[" + ("," + "\n" * (a.ndim - 1) + " " * (indent + 1)).join(parts) + "]"


def tensor_body(data, dtype_name, indent=INDENT):
    """The values as they appear inside `tensor(...)`: continuation lines are indented for a 7-column prefix."""
    data = np.asarray(data)
    if data.size == 0:
        return "[]"
    summarize = data.size > _opts["threshold"]
    values = _summarised_values(data) if summarize else data.reshape(-1)
    return _nested(data, indent, summarize, _Formatter(values, dtype_name in _FLOATING))


def _add_suffixes(text, suffixes, indent):
    """Append `, suffix` items, moving one to its own line when it would pass linewidth (PyTorch's arithmetic)."""
    out = [text]
    last_line = len(text) - text.rfind("\n") + 1
    for suffix in suffixes:
        if last_line + len(suffix) + 2 > _opts["linewidth"]:
            out.append(",\n" + " " * indent + suffix)
            last_line = indent + len(suffix)
        else:
            out.append(", " + suffix)
            last_line += len(suffix) + 2
    return "".join(out) + ")"


def tensor_repr(data, dtype_name, suffixes=(), *, default_dtype=None, prefix=_PREFIX, contents=None):
    """The full `tensor(...)` text; adds the size/dtype items PyTorch derives from the data before `suffixes`
    (`dtype=` unless the dtype is the default one, torch.get_default_dtype() when not given). A subclass of Tensor
    prints its name as `prefix` ('MyTensor('), which sets the indent; `contents` replaces the values' text."""
    data = np.asarray(data)
    indent = len(prefix)
    default_dtype = default_dtype or _dtypes.default_float.name
    items = []
    if data.size == 0:
        if data.ndim != 1:
            items.append(f"size={tuple(data.shape)}")
        if dtype_name != default_dtype:
            items.append(f"dtype=torch.{dtype_name}")
    else:
        if not _opts["edgeitems"]:
            items.append(f"size={tuple(data.shape)}")
        if dtype_name not in (default_dtype, "int64", "bool"):
            items.append(f"dtype=torch.{dtype_name}")
    body = tensor_body(data, dtype_name, indent) if contents is None else contents
    return _add_suffixes(prefix + body, items + list(suffixes), indent)
