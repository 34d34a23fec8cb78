"""numpy's keyword names, which PyTorch's argument parser takes for its native functions and methods: `axis` for
`dim`, `keepdims` for `keepdim` (Dive into Deep Learning writes `A.sum(axis=0, keepdims=True)` and
`y_hat.argmax(axis=1)`); PyTorch's Python-level functions (torch.norm, split) and torch.nn.functional do not."""
import pytest

T = pytest.importorskip("torch", reason="differential tests need real PyTorch (pip install torch==2.13.0)")
from .harness import load_engine, run_both, same  # noqa: E402

E = load_engine()

CODE = (
    "x = torch.arange(6.).reshape(2, 3)\n"
    "tests = {\n"
    " 'x.sum(axis=0)': lambda: x.sum(axis=0), 'x.sum(0, keepdims=True)': lambda: x.sum(0, keepdims=True), 'torch.sum(x, axis=1)': lambda: torch.sum(x, axis=1),\n"
    " 'x.mean(axis=[0,1])': lambda: x.mean(axis=[0, 1]), 'x.argmax(axis=1)': lambda: x.argmax(axis=1), 'x.max(axis=1)': lambda: x.max(axis=1),\n"
    " 'torch.max(x, axis=1)': lambda: torch.max(x, axis=1), 'torch.cat((x, x), axis=0)': lambda: torch.cat((x, x), axis=0),\n"
    " 'torch.stack((x,x), axis=1)': lambda: torch.stack((x, x), axis=1).shape, 'torch.softmax(x, axis=1)': lambda: torch.softmax(x, axis=1),\n"
    " 'x.softmax(axis=1)': lambda: x.softmax(axis=1), 'x.cumsum(axis=0)': lambda: x.cumsum(axis=0), 'x.unsqueeze(axis=0)': lambda: x.unsqueeze(axis=0).shape,\n"
    " 'x.squeeze(axis=0)': lambda: x.squeeze(axis=0).shape, 'x.std(axis=0)': lambda: x.std(axis=0), 'x.var(axis=0)': lambda: x.var(axis=0),\n"
    " 'torch.norm(x, axis=0)': lambda: torch.norm(x, axis=0),\n"
    " 'torch.split(x, 1, axis=0)': lambda: torch.split(x, 1, axis=0), 'x.chunk(2, axis=1)': lambda: x.chunk(2, axis=1), 'x.prod(axis=0)': lambda: x.prod(axis=0),\n"
    " 'x.any(axis=0)': lambda: x.any(axis=0), 'x.logsumexp(axis=0)': lambda: x.logsumexp(axis=0), 'torch.nn.functional.softmax(x, axis=0)': lambda: torch.nn.functional.softmax(x, axis=0),\n"
    " 'x.amax(axis=0)': lambda: x.amax(axis=0), 'x.unbind(axis=0)': lambda: x.unbind(axis=0), 'x.flatten(start_dim=0)': lambda: x.flatten(start_dim=0),\n"
    " 'x.sum(dim=0, axis=0)': lambda: x.sum(dim=0, axis=0), 'x.min(axis=0, keepdims=True)': lambda: x.min(axis=0, keepdims=True), 'x.sum(axis=0, keepdim=True)': lambda: x.sum(axis=0, keepdim=True),\n"
    " 'torch.mean(x, axis=0)': lambda: torch.mean(x, axis=0),\n"
    " 'x.gather(axis=1, index=...)': lambda: x.gather(axis=1, index=torch.tensor([[0],[1]])), 'x.log_softmax(axis=1)': lambda: x.log_softmax(axis=1),\n"
    " 'x.sort(axis=1)': lambda: x.sort(axis=1), 'x.topk(1, axis=1)': lambda: x.topk(1, axis=1), 'x.index_select(axis=0, index=..)': lambda: x.index_select(axis=0, index=torch.tensor([0])),\n"
    " 'x.median(axis=0)': lambda: x.median(axis=0), 'x.all(axis=1)': lambda: x.all(axis=1), 'x.argmin(axis=0)': lambda: x.argmin(axis=0), 'torch.argmax(x, axis=1)': lambda: torch.argmax(x, axis=1),\n"
    " 'x.sum(axis=0).backward': lambda: torch.ones(2, 2, requires_grad=True).sum(axis=0).grad_fn._saved_dim,\n"
    "}\n"
    "for k, f in tests.items():\n"
    "    try: r = f(); print(k, '->', repr(r).replace('\\n', ' ')[:100])\n"
    "    except Exception as e: print(k, '-> ERR', type(e).__name__, str(e).replace('\\n', ' | ')[:300])\n"
)


def test_axis_and_keepdims():
    t, e = run_both(T, E, CODE)
    assert same(t, e)
    assert t.summary().count('-> ERR') == 4        # (the test itself holds: the unsupported cases fail in PyTorch)
