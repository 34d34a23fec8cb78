"""`repr`/`str` of tensors, byte for byte as PyTorch 2.13 prints them, computed from a numpy array."""
import itertools
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


def _texts(values, floating):
    """The values (flattened, possibly summarised: they alone decide the format) as texts of one shared width and one
    mode (int-like, fixed or scientific), each right-aligned (wider non-finite values stick out); and that width."""
    listed = values.tolist()
    if not floating:
        texts = [str(v) for v in listed]
        width = max(map(len, texts), default=1)
        return [t.rjust(width) for t in texts], width
    precision = _opts["precision"]
    shown = np.isfinite(values) & (values != 0)          # (what decides the mode and the width)
    if not shown.any():
        sci_mode, int_mode = False, True
    else:
        nonzero = values[shown]
        magnitudes = np.abs(nonzero).astype(np.float64)
        smallest, largest = float(magnitudes.min()), float(magnitudes.max())
        int_mode = bool(np.all(np.ceil(nonzero) == nonzero))
        sci_mode = (largest / smallest > 1000.0 or largest > 1.0e8 or smallest < 1.0e-4
                    if _opts["sci_mode"] is None else _opts["sci_mode"])
    spec = f".{precision}e" if sci_mode else ".0f" if int_mode else f".{precision}f"
    texts = [format(v, spec) for v in listed]
    width = max(itertools.compress(map(len, texts), shown.tolist()), default=0)
    if int_mode and not sci_mode:         # (a finite value gets a dot: `2.`; v - v is nan for inf and nan)
        width += 1
        texts = [t + "." if v - v == 0 else t for t, v in zip(texts, listed)]
    return [t.rjust(width) for t in texts], max(width, 1)


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


def _vector(n, indent, summarize, texts, width):
    """A 1-d row of n values (their texts drawn from the iterator `texts`), wrapped so that lines fit in linewidth
    given the indent."""
    edge = _opts["edgeitems"]
    per_line = max(1, math.floor((_opts["linewidth"] - indent) / (width + 2)))
    if summarize and not edge:
        items = ["..."]
    elif summarize and n > 2 * edge:
        head, tail = len(range(n)[:edge]), len(range(n)[-edge:])      # (as slices count them: edge may be < 0)
        items = [*itertools.islice(texts, head), " ...", *itertools.islice(texts, tail)]
    else:
        items = list(itertools.islice(texts, n))
    if len(items) <= per_line:
        return "[" + ", ".join(items) + "]"
    lines = [", ".join(items[i:i + per_line]) for i in range(0, len(items), per_line)]
    return "[" + (",\n" + " " * (indent + 1)).join(lines) + "]"


def _nested(shape, indent, summarize, texts, width):
    """The bracketed text of an array of this shape whose first line starts at column `indent` (the values' texts
    drawn in order from the iterator `texts`, which _summarised_values's order matches)."""
    if not shape:
        return next(texts)
    if len(shape) == 1:
        return _vector(shape[0], indent, summarize, texts, width)
    edge, n, inner = _opts["edgeitems"], shape[0], shape[1:]
    if summarize and n > 2 * edge:
        parts = [_nested(inner, indent + 1, summarize, texts, width) for _ in range(edge)] + ["..."]
        parts += [_nested(inner, indent + 1, summarize, texts, width) for _ in range(n - edge, n)]
    else:
        parts = [_nested(inner, indent + 1, summarize, texts, width) for _ in range(n)]
    return "[" + ("," + "\n" * (len(shape) - 1) + " " * (indent + 1)).join(parts) + "]"


def tensor_body(data, dtype_name, indent=INDENT):
    """The values as they appear inside `tensor(...)`: continuation lines are indented for a 7-column prefix."""
    data = np.asarray(data)
    if data.size == 0:
        return "[]"
    summarize = data.size > _opts["threshold"]
    values = _summarised_values(data) if summarize else data.reshape(-1)
    texts, width = _texts(values, dtype_name in _FLOATING)
    return _nested(data.shape, indent, summarize, iter(texts), width)


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
