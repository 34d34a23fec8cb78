"""Snippets the engine must print exactly as PyTorch 2.13 does; their recorded output is in goldens.json.

Each snippet runs line by line; a line that raises prints `!! Type: message` and the snippet goes on, so one
snippet can show an error and what the tensors look like afterwards (as the learners' notes do).
Run `python tests/engine/record_goldens.py` (needs real torch) after adding a snippet.
"""
import contextlib
import io
import re
import warnings


def run_snippet(torch, code):
    """Run `code` with `torch` bound to the given module; return what it printed (addresses normalised)."""
    out = io.StringIO()
    env = {'torch': torch}
    with contextlib.redirect_stdout(out), warnings.catch_warnings():
        warnings.simplefilter('ignore')
        lines = code.strip('\n').split('\n')
        i = 0
        while i < len(lines):
            block = [lines[i]]                      # a statement with its indented body
            while i + 1 < len(lines) and lines[i + 1][:1] in (' ', '\t'):
                i += 1
                block.append(lines[i])
            i += 1
            try:
                exec('\n'.join(block), env)
            except Exception as e:          # noqa: BLE001  (the error is part of the output)
                print('!! %s: %s' % (type(e).__name__, e))
    text = re.sub(r'0x[0-9a-fA-F]+', '0x?', out.getvalue())
    return re.sub(r"'(builtin_function_or_method|method|function)'", "'<callable>'", text)
