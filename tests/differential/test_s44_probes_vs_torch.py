"""Differences found by session 44's learner-style probes against real PyTorch, each kept here with its variants.
Printed text, warnings and the final error must be the same."""
import pytest

T = pytest.importorskip("torch", reason="differential tests need real PyTorch (pip install torch==2.13.0)")
from .harness import SHOW, load_engine, run_both, same  # noqa: E402

E = load_engine()

SNIPPETS = {
    # PyTorch's own advice after a refused global (add_safe_globals / safe_globals) works for torch's classes too;
    # builtins are named without their module, and a frozenset is a global (pickle protocol 2)
    "load_safe_globals_and_builtins": (
        'import io\n'
        'import torch.nn as nn\n'
        'def roundtrip(obj, **kw):\n'
        '    buf = io.BytesIO(); torch.save(obj, buf); buf.seek(0); return torch.load(buf, **kw)\n'
        'def refused(obj):\n'
        '    try: roundtrip(obj)\n'
        '    except Exception as e: print(type(e).__name__, str(e).split("WeightsUnpickler error: ")[1][:140])\n'
        'for obj in [nn.Linear(2, 1), {"r": range(3)}, slice(1, 2), frozenset([1]), print, torch.optim.SGD,\n'
        '            __import__("collections").defaultdict(list)]:\n'
        '    refused(obj)\n'
        'with torch.serialization.safe_globals([nn.Linear]):\n'
        '    print(roundtrip(nn.Linear(2, 1)))\n'
        'torch.serialization.add_safe_globals([range, nn.ReLU])\n'
        'print(roundtrip({"r": range(3), "m": nn.ReLU()}))\n'
        'torch.serialization.clear_safe_globals()\n'
        'print(roundtrip({"b": b"abc", "c": 3 + 4j, "s": {1, 2}}))\n'
        'print(roundtrip({"w": torch.ones(2), "f": frozenset([1])}, weights_only=False))'),
    # torch.load's checks: a CUDA map_location on a CPU-only PyTorch, mmap of a buffer, a pickle module with
    # weights_only, something that is not a file
    "load_argument_checks": (
        'import io, pickle\n'
        'buf = io.BytesIO(); torch.save({"a": torch.ones(2)}, buf)\n'
        'def load(**kw):\n'
        '    return torch.load(io.BytesIO(buf.getvalue()), **kw)\n'
        'tries(lambda: load(map_location="cuda"), lambda: load(map_location="cuda:1"),\n'
        '      lambda: load(map_location=torch.device("cuda")), lambda: load(map_location={"cpu": "cuda:0"}),\n'
        '      lambda: load(map_location={"cuda:0": "cpu"}), lambda: load(map_location="cpu"),\n'
        '      lambda: load(map_location="CPU"), lambda: load(map_location="mps"), lambda: load(map_location=3),\n'
        '      lambda: load(map_location=lambda s, loc: s), lambda: load(mmap=True),\n'
        '      lambda: load(pickle_module=pickle, weights_only=True), lambda: load(pickle_module=pickle),\n'
        '      lambda: torch.load(None), lambda: torch.load(5))\n'
        'b2 = io.BytesIO(); torch.save({"a": 1}, b2); b2.seek(0); print(torch.load(b2, map_location="cuda"))'),
    # torch.save writes PyTorch's zip archive (data.pkl and a record per storage); views saved together share their
    # storage when loaded; what is no such archive fails as it fails in PyTorch
    "save_format_and_bad_files": (
        'import io, pickle, zipfile\n'
        'x = torch.arange(6.).reshape(2, 3); x.foo = 3\n'
        'p = torch.nn.Parameter(torch.ones(2)); p.bar = "b"\n'
        'obj = {"w": x, "v": x[1], "p": p, "q": torch.nn.Parameter(torch.ones(1), requires_grad=False),\n'
        '       "i": torch.tensor([1, 2]), "n": 3, "dt": torch.float64, "s": torch.Size([2]), "d": torch.device("cpu"),\n'
        '       "h": torch.tensor(2.5, dtype=torch.float16), "g": torch.ones(2, requires_grad=True), "b": torch.tensor([True])}\n'
        'buf = io.BytesIO(); torch.save(obj, buf); print(buf.getvalue()[:4])\n'
        'z = zipfile.ZipFile(io.BytesIO(buf.getvalue())); print([(i.filename, i.file_size) for i in z.infolist()][:-1])\n'
        'print([z.read(n) for n in z.namelist()[1:4]])\n'
        'buf.seek(0); r = torch.load(buf)\n'
        'for k, v in r.items(): print(k, v)\n'
        'print(r["v"].untyped_storage().data_ptr() == r["w"].untyped_storage().data_ptr(), r["v"].storage_offset())\n'
        'print(type(r["p"]), r["p"].requires_grad, r["g"].is_leaf, r["w"]._version, r["w"].foo, r["p"].bar)\n'
        'm = torch.nn.Sequential(torch.nn.Linear(2, 3), torch.nn.ReLU(), torch.nn.BatchNorm1d(3))\n'
        'buf = io.BytesIO(); torch.save(m.state_dict(), buf); buf.seek(0); sd = torch.load(buf); print(sd, sd._metadata)\n'
        'buf = io.BytesIO(); torch.save(m, buf); buf.seek(0); print(torch.load(buf, weights_only=False))\n'
        'import os, tempfile; path = os.path.join(tempfile.mkdtemp(), "model.pth")\n'
        'torch.save(m.state_dict(), path); print(zipfile.ZipFile(path).namelist()[0], torch.load(path).keys())\n'
        'data = buf.getvalue()\n'
        'b2 = io.BytesIO(); pickle.dump([1, 2.5, "x"], b2, protocol=2)\n'
        'b3 = io.BytesIO(); pickle.dump({"a": 1}, b3)\n'
        'for raw in [data[:len(data) // 2], b2.getvalue(), b3.getvalue(), b"<html>404</html>", b"hello", b"garbage",\n'
        '            b"\\x93NUMPY\\x01\\x00", b""]:\n'
        '    for wo in (True, False):\n'
        '        try: torch.load(io.BytesIO(raw), weights_only=wo)\n'
        '        except Exception as e: print(type(e).__name__, str(e).replace("\\n", " ")[-160:])'),
    # the class names learners print: every nn layer under the file PyTorch defines it in
    "nn_classes_module_names": (
        'import torch.nn as nn\n'
        'print(nn.CTCLoss, nn.ChannelShuffle, nn.FeatureAlphaDropout, nn.FractionalMaxPool2d, nn.LPPool1d,\n'
        '      nn.MaxUnpool3d, nn.AdaptiveLogSoftmaxWithLoss, nn.LazyConvTranspose2d)\n'
        'print(type(nn.MaxUnpool2d(2)), nn.LPPool2d.__mro__[1])\n'
        'from torch.nn.modules.pooling import LPPool3d; print(LPPool3d)'),
    # a worker's exception comes back as PyTorch's main process raises it: same class, the worker named
    "dataloader_worker_errors": (
        'from torch.utils.data import Dataset, DataLoader\n'
        'class D(Dataset):\n'
        '    def __init__(self, error): self.error = error\n'
        '    def __len__(self): return 4\n'
        '    def __getitem__(self, i):\n'
        '        if i == 3: raise self.error\n'
        '        return i\n'
        'for error in [ValueError("bad sample"), KeyError("k"), IndexError(3)]:\n'
        '    for workers in (1, 2):\n'
        '        try: list(DataLoader(D(error), batch_size=2, num_workers=workers))\n'
        '        except Exception as e:\n'
        '            lines = str(e).splitlines()\n'
        '            print(type(e).__name__, lines[:2], lines[-1])\n'
        'tries(lambda: DataLoader(range(4), num_workers=1, multiprocessing_context="bogus"),\n'
        '      lambda: DataLoader(range(4), num_workers=1, multiprocessing_context=5),\n'
        '      lambda: DataLoader(range(4), multiprocessing_context="fork"))'),
    # past the length an IterableDataset reported, each batch warns; a worker's worker_init_fn errors come back
    # as the worker's, its collate stacks into shared memory (refusing tensors that require grad), on one thread
    "dataloader_iterable_lengths_and_workers": (
        'from torch.utils.data import DataLoader, Dataset, IterableDataset, TensorDataset\n'
        'class It(IterableDataset):\n'
        '    def __len__(self): return 3\n'
        '    def __iter__(self): return iter(range(5))\n'
        'for kw in [dict(), dict(batch_size=None), dict(batch_size=2), dict(num_workers=1)]:\n'
        '    dl = DataLoader(It(), **kw); print(len(dl), list(dl))\n'
        'dl = DataLoader(It()); print(list(dl))\n'
        'def bad(wid): raise RuntimeError("init failed %d" % wid)\n'
        'try: list(DataLoader(TensorDataset(torch.arange(4.)), num_workers=1, worker_init_fn=bad))\n'
        'except Exception as e: print(type(e).__name__, str(e).splitlines()[0], str(e).splitlines()[-1])\n'
        'class D(Dataset):\n'
        '    def __len__(self): return 4\n'
        '    def __getitem__(self, i): return torch.ones(2, requires_grad=True) * i, torch.get_num_threads()\n'
        'try: print(next(iter(DataLoader(D(), batch_size=2, num_workers=1))))\n'
        'except Exception as e: print(type(e).__name__, str(e).splitlines()[0], str(e).splitlines()[-1])\n'
        'with torch.no_grad(): print([b[1] for b in DataLoader(D(), batch_size=2, num_workers=2)])\n'
        'print(next(iter(DataLoader(D(), batch_size=2)))[0])'),
    # DistributedSampler given its replicas and rank (this process has no process group)
    "distributed_sampler": (
        'from torch.utils.data import DistributedSampler, DataLoader\n'
        'for kw in [dict(), dict(num_replicas=2), dict(num_replicas=2, rank=2), dict(num_replicas=2, rank=-1),\n'
        '           dict(num_replicas=3, rank=1, drop_last=True), dict(num_replicas=3, rank=2, seed=5),\n'
        '           dict(num_replicas=4, rank=3, shuffle=False), dict(num_replicas=25, rank=24, shuffle=False),\n'
        '           dict(num_replicas=25, rank=24)]:\n'
        '    try:\n'
        '        s = DistributedSampler(list(range(10)), **kw); print(kw, len(s), list(s))\n'
        '        s.set_epoch(1); print(list(s))\n'
        '    except Exception as e: print(kw, type(e).__name__, e)\n'
        'from torch.utils.data.distributed import DistributedSampler as D2\n'
        'print(D2 is DistributedSampler, DistributedSampler)\n'
        'print(list(DataLoader(list(range(10)), batch_size=2, sampler=DistributedSampler(list(range(10)), 2, 0))))'),
    # torch.utils.data._utils.collate's collate and default_collate_fn_map (the documented way to extend
    # default_collate); containers are rebuilt as their own class where it takes that
    "collate_fn_map": (
        'import collections\n'
        'from torch.utils.data import default_collate\n'
        'from torch.utils.data._utils.collate import collate, default_collate_fn_map\n'
        'class Point:\n'
        '    def __init__(self, x): self.x = x\n'
        'def collate_point(batch, *, collate_fn_map=None): return torch.tensor([p.x for p in batch])\n'
        'custom = {Point: collate_point}; custom.update(default_collate_fn_map)\n'
        'print(collate([(Point(1), 2.0), (Point(3), 4.0)], collate_fn_map=custom))\n'
        'print(sorted(k.__name__ if isinstance(k, type) else str(len(k)) for k in default_collate_fn_map))\n'
        'class MyList(list): pass\n'
        'class Frozen(collections.abc.Sequence):\n'
        '    def __init__(self, items): self.items = list(items)\n'
        '    def __len__(self): return len(self.items)\n'
        '    def __getitem__(self, i): return self.items[i]\n'
        'r = default_collate([MyList([1, 2]), MyList([3, 4])]); print(type(r).__name__, r)\n'
        'r = default_collate([Frozen([1, 2]), Frozen([3, 4])]); print(type(r).__name__, r.items)\n'
        'r = default_collate([collections.OrderedDict(a=1), collections.OrderedDict(a=2)]); print(type(r).__name__, r)\n'
        'print(default_collate([(True, "a"), (False, "b")]))\n'
        'tries(lambda: default_collate([Point(1)]), lambda: collate([1, 2]),\n'
        '      lambda: default_collate([__import__("numpy").array(["a"])]), lambda: default_collate([[1], [1, 2]]))'),
    # is_grads_batched: every grad_output's first dim is the batch; different ones are refused before any backward
    "grads_batched_sizes_checked_first": (
        'x = torch.tensor([1., 2.], requires_grad=True)\n'
        'y = x * x; a = x * 2\n'
        'tries(lambda: torch.autograd.grad([y, a], x, [torch.eye(2), torch.ones(3, 2)], is_grads_batched=True),\n'
        '      lambda: torch.autograd.grad([y, a, y], x, [torch.eye(2), torch.ones(2, 2), torch.ones(3, 2)],\n'
        '                                  is_grads_batched=True))\n'
        'print(torch.autograd.grad(y, x, torch.ones(2)))'),
    # an LSTM layer's oneDNN node has three outputs (output, h, c)
    "lstm_node_outputs": (
        'import torch.nn as nn\n'
        'm = nn.LSTM(3, 2)\n'
        'y, (h, c) = m(torch.randn(2, 1, 3, requires_grad=True))\n'
        'print(len(y.grad_fn._input_metadata))\n'
        'y.grad_fn.register_prehook(lambda go: print(len(go)))\n'
        'y.grad_fn.register_hook(lambda gi, go: print(len(gi), len(go)))\n'
        'm.register_backward_hook(lambda mod, gi, go: print([None if g is None else g.shape for g in go]))\n'
        'y.sum().backward()\n'
        'tries(lambda: len(y.grad_fn(torch.ones_like(y), None, None)))'),
    # a view of a tensor whose .data became float64 memory keeps its own place, strides and dtype; in-place ops on
    # it are still recorded
    "view_after_its_base_got_other_memory": (
        'a = torch.arange(6., requires_grad=True)\n'
        'v = a[2:5]\n'
        'a.data = torch.arange(6., dtype=torch.float64) * 10\n'
        'y = v * 2\n'
        'y.sum().backward()\n'
        'print(a.grad, v, y)\n'
        'a = torch.arange(6.).requires_grad_()\n'
        'b = a * 1\n'
        'v = b[1:4]\n'
        'b.data = torch.zeros(6, dtype=torch.float64)\n'
        'v.mul_(2)\n'
        'print(v, b)\n'
        'v.sum().backward()\n'
        'print(a.grad)\n'
        'a = torch.arange(6.)\n'
        'b = a.clone().requires_grad_()\n'
        'c = b + 0\n'
        'v = c[1:]\n'
        'c.data = torch.ones(3, dtype=torch.float64)\n'
        'tries(lambda: v.add_(1), lambda: v.view(5), lambda: v[0].add_(1))\n'
        'print(v, c)\n'
        'b = torch.arange(8., requires_grad=True)\n'
        'c = b * 2\n'
        'v = c.view(2, 4)[:, 1:]\n'
        'c.data = torch.arange(8, dtype=torch.float64)\n'
        'v.mul_(3)\n'
        'print(v, c, v.grad_fn)\n'
        'v.sum().backward(); print(b.grad)'),
    # backward's gradient handed to a leaf as a contiguous view becomes its .grad, sharing memory (PyTorch's
    # AccumulateGrad steals it): zeroing .grad zeroes the gradient given to backward
    "handed_over_view_gradient_becomes_grad": (
        'x = torch.zeros(2, 2, requires_grad=True)\n'
        'v = torch.arange(4.)\n'
        'x.view(4).backward(v)\n'
        'print(x.grad)\n'
        'x.grad.zero_()\n'
        'print(v)\n'
        'w = torch.ones(3, requires_grad=True); c = torch.ones(3, requires_grad=True)\n'
        'torch.stack([w, c]).sum().backward()\n'
        'torch.stack([w, c]).sum().backward()\n'
        'print(w.grad, c.grad)'),
    # float64 optimizer steps: p + alpha * d rounded once (a fused multiply-add), as PyTorch's kernels
    "float64_optimizer_steps_fused": (
        "for opt in ['SGD', 'AdamW', 'RMSprop', 'Adagrad']:\n"
        '    p = torch.tensor([0.1, 0.3, 0.7], dtype=torch.float64, requires_grad=True)\n'
        "    kw = dict(lr=0.1, momentum=0.9) if opt == 'SGD' else dict(lr=0.1)\n"
        '    o = getattr(torch.optim, opt)([p], **kw)\n'
        '    for i in range(4):\n'
        '        o.zero_grad(); (p * p * 3 + p).sum().backward(); o.step()\n'
        '    print(opt, p.tolist())\n'
        'p = torch.tensor(0.1, dtype=torch.float64, requires_grad=True)\n'
        'o = torch.optim.SGD([p], lr=0.1)\n'
        '(p * 0.1).backward(); o.step(); print(p.item())'),
    # RReLU's slopes in training: 53 random bits for each, scaled into [lower, upper) in double
    "rrelu_training_noise": (
        'torch.manual_seed(0)\n'
        'x = torch.randn(20)\n'
        'print(torch.nn.functional.rrelu(x, training=True).tolist())\n'
        'print(torch.nn.RReLU(0.1, 0.3)(torch.randn(10, dtype=torch.float64)).tolist())'),
    # an RNN cell's gates: unsafe_chunk pieces are strided views, sigmoid_ goes through them row by row
    "unsafe_chunk_gates_in_place": (
        'torch.manual_seed(0)\n'
        'g = torch.randn(3, 120, requires_grad=True) * 3\n'
        'r, z, n = g.unsafe_chunk(3, 1)\n'
        'r = r.sigmoid_(); z = z.sigmoid_()\n'
        'print(r.tolist(), z.tolist(), r._version)\n'
        '(r * z).sum().backward()\n'
        'print(g.grad.tolist())'),
}


def test_files_move_between_the_engine_and_pytorch(tmp_path):
    """A state_dict, tensors sharing a storage, a Parameter and a whole module, saved by one and loaded by the other."""
    import io

    def saved(lib):
        m = lib.nn.Sequential(lib.nn.Linear(2, 3), lib.nn.ReLU(), lib.nn.BatchNorm1d(3))
        x = lib.arange(6.).reshape(2, 3)
        buf = io.BytesIO()
        lib.save({'sd': m.state_dict(), 'x': x, 'v': x[1], 'dt': lib.float64, 's': lib.Size([2]),
                  'p': lib.nn.Parameter(lib.ones(2)), 'h': lib.tensor([1.5], dtype=lib.float16)}, buf)
        whole = io.BytesIO()
        lib.save(m, whole)
        return m, buf.getvalue(), whole.getvalue()

    for src, dst in ((E, T), (T, E)):
        m, data, whole = saved(src)
        r = dst.load(io.BytesIO(data))
        assert r['sd']['0.weight'].tolist() == m.state_dict()['0.weight'].tolist()
        assert r['v'].tolist() == [3., 4., 5.] and r['v'].storage_offset() == 3
        assert r['v'].untyped_storage().data_ptr() == r['x'].untyped_storage().data_ptr()
        assert str(r['dt']) == 'torch.float64' and tuple(r['s']) == (2,) and type(r['p']).__name__ == 'Parameter'
        assert str(r['h']) == 'tensor([1.5000], dtype=torch.float16)'
        assert repr(dst.load(io.BytesIO(whole), weights_only=False)) == repr(m)


@pytest.mark.parametrize("name", SNIPPETS)
def test_snippet(name):
    code = SHOW + SNIPPETS[name]
    t, e = run_both(T, E, code)
    assert same(t, e), f"\n{code}\n--- torch\n{t.summary()}--- engine\n{e.summary()}"
