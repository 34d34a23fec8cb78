"""Differences found by session 39's learner-style probes against real PyTorch, each kept here with its variants.
Printed text, warnings and the final error must be the same."""
import pytest

T = pytest.importorskip("torch", reason="differential tests need real PyTorch (pip install torch==2.13.0)")
from .harness import SHOW, load_engine, run_both, same, skip_unless_engine_cpu  # noqa: E402

E = load_engine()

SNIPPETS = {
    # data without numbers: PyTorch sizes it by its first elements and stores nothing, so what follows an empty
    # list is never checked ([[], [1]] is a 2 x 0 tensor); an empty list counts as the default float in the dtype
    "tensor_of_no_numbers": (
        'import numpy as np\n'
        'for v in ("[[], [1]]", "[[], [1, 2]]", "[[[]], [[1]]]", "[[], [[1]]]", "[[], 1]", "[[], [1.5]]", "[[], [[]]]",\n'
        '          "[[1], []]", "[1, []]", "[[True], []]", "[[], [2**70]]", "[[], [np.int32(1)]]", "[np.array([]), [1]]",\n'
        '          "[[], [1]], dtype=torch.int32", "[[], [1]], requires_grad=True", "[[], [\'a\']]"):\n'
        '    tries(lambda: eval("torch.tensor(%s)" % v), lambda: eval("torch.tensor(%s)" % v).dtype)\n'
        'tries(lambda: torch.LongTensor([[], [1]]), lambda: torch.Tensor([[], [1]]), lambda: torch.as_tensor([[], [1]]),\n'
        '      lambda: torch.tensor([[1], []], device="cuda"))'),
    # a CPU-only PyTorch has no pinned memory: every factory refuses pin_memory=True (out= forms ignore it), after
    # the device and before the size is checked
    "pin_memory_refused": (
        'x = torch.ones(2)\n'
        'tries(lambda: torch.ones(2, pin_memory=True), lambda: torch.zeros(-1, pin_memory=True),\n'
        '      lambda: torch.empty(2, pin_memory=True), lambda: torch.rand(2, pin_memory=True), torch.rand(1),\n'
        '      lambda: torch.randn(2, pin_memory=True), lambda: torch.tensor([1.], pin_memory=True),\n'
        '      lambda: torch.tensor(3., pin_memory=True), lambda: torch.full((2,), 1., pin_memory=True),\n'
        '      lambda: torch.arange(3, pin_memory=True), lambda: torch.arange(3, out=torch.empty(3), pin_memory=True),\n'
        '      lambda: torch.ones(2, out=torch.empty(2), pin_memory=True), lambda: torch.zeros_like(x, pin_memory=True),\n'
        '      lambda: torch.full_like(x, 1, pin_memory=True), lambda: torch.randn_like(x, pin_memory=True),\n'
        '      lambda: torch.randint_like(x, 3, pin_memory=True), lambda: torch.eye(2, pin_memory=True),\n'
        '      lambda: torch.linspace(0, 1, 3, pin_memory=True), lambda: torch.logspace(0, 2, 3, pin_memory=True),\n'
        '      lambda: torch.randint(3, (2,), pin_memory=True), lambda: torch.randperm(3, pin_memory=True),\n'
        '      lambda: torch.normal(0., 1., (2,), pin_memory=True), lambda: torch.empty_strided((2,), (1,), pin_memory=True),\n'
        '      lambda: torch.scalar_tensor(1, pin_memory=True), lambda: torch.hann_window(3, pin_memory=True),\n'
        '      lambda: torch.tril_indices(3, 3, pin_memory=True), lambda: x.new_zeros(2, pin_memory=True),\n'
        '      lambda: x.new_full((2,), 1, pin_memory=True), lambda: x.new_empty_strided((2,), (1,), pin_memory=True),\n'
        '      lambda: torch.ones(2, pin_memory=False), lambda: torch.ones(2, device="cuda", pin_memory=True),\n'
        '      lambda: torch.ones(-1, device="cuda"), lambda: torch.rand(-1, device="cuda"),\n'
        '      lambda: torch.arange(-1, device="cuda"), lambda: torch.eye(-1, device="cuda"), lambda: x.is_pinned())'),
    # linalg.inv solves A X = I after an LU in the matrix's own dtype, MKL's (a column scaled by its pivot's
    # reciprocal, the last two of a matrix up to 4 x 4 divided by it): a float32 inverse is not exact (-24.0000),
    # and a matrix is singular when that LU meets a zero pivot, numbered as LAPACK numbers it
    "inverse_in_its_dtype": (
        'for dt in (torch.float32, torch.float64):\n'
        '    for m in ([[1., 2, 3], [0, 1, 4], [5, 6, 0]], [[1., 2, 3], [4, 5, 6], [7, 8, 9]], [[0.1, 0.2], [0.3, 0.6]],\n'
        '              [[4., 7], [2, 6]], [[1., 2], [2, 4]], [[2., 1, 0, 0], [1, 3, 1, 0], [0, 1, 4, 1], [0, 0, 1, 5]]):\n'
        '        A = torch.tensor(m, dtype=dt)\n'
        '        tries(lambda: torch.linalg.inv(A), lambda: A.inverse(), lambda: torch.linalg.inv_ex(A).info,\n'
        '              lambda: torch.linalg.det(A), lambda: torch.linalg.lu_factor_ex(A))\n'
        'torch.manual_seed(0)\n'
        'for n in (2, 3, 4, 5, 8, 11):\n'
        '    A = torch.randn(n, n)\n'
        '    print(torch.linalg.inv(A)[0], torch.linalg.lu_factor(A).LU.flatten().tolist()[-3:], torch.linalg.det(A).item())\n'
        'C = torch.eye(3).repeat(2, 1, 1); C[1, 2, 2] = 0\n'
        'B = torch.randn(2, 3, 3, requires_grad=True); Bi = torch.linalg.inv(B); show(Bi); Bi.sum().backward()\n'
        'tries(lambda: B.grad, lambda: torch.linalg.inv(C), lambda: torch.linalg.inv(torch.ones(2, 2)))'),
    # gradients through U and Vh of an SVD (PyTorch's svd_backward), for tall, wide, square and batched matrices,
    # full_matrices or not, by losses that the signs of the singular vectors (LAPACK's choice) leave alone
    "svd_vectors_backward": (
        'A = torch.tensor([[2.0, 0.5], [0.3, 1.5]], requires_grad=True)\n'
        'U, S, Vh = torch.linalg.svd(A); (U @ torch.diag(S) @ Vh).sum().backward(); print(A.grad, U.grad_fn)\n'
        'torch.manual_seed(0)\n'
        'for shape in ((4, 3), (3, 4), (3, 3), (2, 5, 3), (2, 3, 5)):\n'
        '    for fm in (False, True):\n'
        '        A = torch.randn(*shape, dtype=torch.float64, requires_grad=True)\n'
        '        U, S, Vh = torch.linalg.svd(A, full_matrices=fm)\n'
        '        k = S.shape[-1]; u, vh = U[..., :k], Vh[..., :k, :]\n'
        '        w = torch.arange(1., 6)[:, None] * torch.arange(1., 6)\n'
        '        for loss in ((u ** 2 * w[:u.shape[-2], :k]).sum, (vh ** 2 * w[:k, :vh.shape[-1]]).sum,\n'
        '                     (u @ vh).sum, (u @ torch.diag_embed(S) @ vh).pow(2).sum, (u * S.unsqueeze(-2) @ vh).exp().sum):\n'
        '            A.grad = None; loss().backward(retain_graph=True); print(shape, fm, (A.grad * 1e6).round().tolist())\n'
        'B = torch.randn(4, 3, requires_grad=True); U, S, V = torch.svd(B); (U @ V.T).sum().backward(); print(B.grad)'),
    # torch.cpu, torch.distributed and the CPU backends, as device-selection code asks them
    "cpu_modules": (
        'print(torch.cpu.is_available(), torch.cpu.device_count(), torch.cpu.current_device(), torch.cpu.synchronize())\n'
        'print(torch.distributed.is_available(), torch.backends.mkldnn.is_available(), torch.backends.mkldnn.enabled,\n'
        '      torch.backends.mkl.is_available(), torch.backends.openmp.is_available(), torch.backends.mps.is_built())\n'
        'import torch.distributed as dist\n'
        'import torch.backends.mkldnn\n'
        'print(dist.is_initialized(), "cuda" if torch.cuda.is_available() else "cpu")'),
    # linalg.cross: each component a fused multiply-add less a rounded product, as PyTorch's kernel
    "cross_fused": (
        'a = torch.tensor([0.3, 0.7, 0.2], requires_grad=True); b = torch.tensor([0.6, 0.2, 0.4])\n'
        'c = torch.linalg.cross(a, b); show(c); print(c.tolist(), c[1] != 0); c.sum().backward(); print(a.grad.tolist())\n'
        'torch.manual_seed(0)\n'
        'for dt in (torch.float32, torch.float64):\n'
        '    x, y = torch.randn(50, 3, dtype=dt), torch.randn(50, 3, dtype=dt)\n'
        '    print(torch.linalg.cross(x, y).sum(0).tolist(), torch.cross(x.T, y.T, dim=0)[:, :3].tolist())\n'
        'print(torch.linalg.cross(torch.tensor([1, 2, 3]), torch.tensor([4, 5, 6])), torch.linalg.cross(x[:1], y).shape)'),
    # a mask of two dims or more followed by other indices: the mask is one index for the dims it covers (saved so),
    # and an index out of range is numbered counting a mask once per dim
    "mask_then_index": (
        'x = torch.arange(24.).reshape(2, 3, 4); m = torch.tensor([[True, False, True], [False, True, True]])\n'
        'print(x[m, [0, 1, 2, 3]], x[m, [1]], x[m, torch.tensor([3, 2, 1, 0])], x[m, 1:3])\n'
        'x.requires_grad_(); y = x[m, [0, 1, 2, 3]]; show(y); y.sum().backward(); print(x.grad)\n'
        'z = torch.zeros(2, 3, 4); z[m, [0, 1, 2, 3]] = 1.; print(z.sum(), torch.zeros(2, 0, 4)[m[:, :0], [1]].shape)\n'
        'tries(lambda: torch.zeros(2, 3)[:, [5]], lambda: torch.zeros(2, 3, 4)[:, [1], [7]],\n'
        '      lambda: torch.zeros(2, 3, 4)[torch.ones(2, 3, dtype=torch.bool), [7]],\n'
        '      lambda: torch.zeros(4, 2)[torch.tensor([True, False, True, False]), torch.tensor([3])],\n'
        '      lambda: torch.zeros(2, 3, 4)[torch.ones(2, dtype=torch.bool), [7], [0]])\n'
        'for idx in [(torch.ones(2, 3, dtype=torch.bool), [7]), (torch.ones(2, dtype=torch.bool), [7], [0])]:\n'
        '    for v in (1., torch.ones(1)):\n'
        '        try:\n'
        '            torch.zeros(2, 3, 4)[idx] = v\n'
        '        except IndexError as e:\n'
        '            print(e)'),
    # Module.train calls each child's own train(), which a subclass may override (a frozen BatchNorm)
    "train_calls_children": (
        'from torch import nn\n'
        'class Backbone(nn.Module):\n'
        '    def __init__(s): super().__init__(); s.conv = nn.Conv2d(1, 2, 3); s.bn = nn.BatchNorm2d(2)\n'
        '    def forward(s, x): return s.bn(s.conv(x))\n'
        '    def train(s, mode=True): super().train(mode); s.bn.eval(); return s\n'
        'm = nn.Sequential(Backbone(), nn.Flatten(), nn.Linear(8, 2)); m.train()\n'
        'm(torch.randn(2, 1, 4, 4)); print([x.training for x in m.modules()], m[0].bn.num_batches_tracked)\n'
        'm.eval(); print([x.training for x in m.modules()])\n'
        'tries(lambda: m.train(1), lambda: nn.Linear(2, 2).train(False).training)'),
    # argument checks: F.hardtanh_'s int bounds, split's dim as given and its size before the dim, cummax's dim of a
    # 0-d tensor, repeat_interleave's output_size and repeats of two dims
    "argument_checks": (
        'import torch.nn.functional as F\n'
        'x = torch.randn(3, requires_grad=True); y = x * 2; F.hardtanh_(y); show(y)\n'
        'a = torch.arange(6.).view(2, 3)\n'
        'tries(lambda: a.split([1, 3], dim=-1), lambda: a.split_with_sizes([1, 3], dim=-2), lambda: a.split(-1, 5),\n'
        '      lambda: torch.tensor(3.).cummax(1), lambda: torch.tensor(3.).cummin(-2), lambda: torch.tensor(3.).cummax(-1),\n'
        '      lambda: a.repeat_interleave(2, dim=1, output_size=5), lambda: a.repeat_interleave(2, dim=1, output_size=6),\n'
        '      lambda: a.repeat_interleave(torch.tensor([[1, 2, 3]]), dim=1),\n'
        '      lambda: a.repeat_interleave(torch.tensor([1, 2, 3]), dim=1, output_size=5),\n'
        '      lambda: torch.repeat_interleave(torch.tensor([1, 2]), output_size=3))'),
    # optimizers' scalar state in float64 when that is the default dtype; AdamW's signature lists its keywords (nanoGPT
    # asks it for 'fused')
    "optimizer_scalars": (
        'import inspect\n'
        'print(list(inspect.signature(torch.optim.AdamW).parameters))\n'
        'torch.set_default_dtype(torch.float64)\n'
        'p = torch.nn.Parameter(torch.ones(2)); p.grad = torch.full((2,), 0.3)\n'
        'for cls in (torch.optim.Adam, torch.optim.NAdam, torch.optim.ASGD, torch.optim.Adagrad, torch.optim.RMSprop):\n'
        '    o = cls([p]); o.step(); o.step(); print(cls.__name__, o.state[p], p.tolist())\n'
        'torch.set_default_dtype(torch.float32)\n'
        'q = torch.nn.Parameter(torch.ones(2)); q.grad = torch.full((2,), 0.3); o = torch.optim.NAdam([q]); o.step()\n'
        'print(o.state[q]["mu_product"], q.tolist())'),
    # an always_call forward hook runs when a forward pre-hook raises too
    "always_call_hooks": (
        'm = torch.nn.Linear(2, 2)\n'
        'm.register_forward_hook(lambda *a: print("always"), always_call=True)\n'
        'm.register_forward_hook(lambda mod, a, k, o: print("kw", k), with_kwargs=True, always_call=True)\n'
        'h = m.register_forward_pre_hook(lambda mod, inp: 1 / 0)\n'
        'tries(lambda: m(torch.ones(1, 2)))\n'
        'h.remove(); print(m(torch.ones(1, 2)).shape)'),
    # argument handling: `input=` for the functions whose parameter the engine names otherwise; a 0-d tensor filled
    # into an integer or half tensor is converted with PyTorch's overflow check; normal's out= broadcast with mean
    # or resized with the warning; an index whose broadcast is empty reads no index
    "arguments_more": (
        'x = torch.tensor([[1., 0.], [2., 3.]]); m = torch.tensor([True, False, False])\n'
        'tries(*(lambda n=n: getattr(torch, n)(input=x) for n in ("argwhere", "ravel", "fliplr", "diagflat", "msort")),\n'
        '      lambda: torch.argwhere(x, input=x),\n'
        '      lambda: torch.tensor([5, 6, 7], dtype=torch.int8).masked_fill(m, torch.tensor(1000)),\n'
        '      lambda: torch.tensor([5, 6, 7], dtype=torch.int32).masked_fill(m, torch.tensor(2**40)),\n'
        '      lambda: torch.tensor([5., 6, 7], dtype=torch.float16).masked_fill(m, torch.tensor(1e6)),\n'
        '      lambda: torch.tensor([5, 6, 7], dtype=torch.int8).masked_fill(m, torch.tensor(1.5)),\n'
        '      lambda: torch.normal(torch.zeros(3), 1., out=torch.zeros(2)),\n'
        '      lambda: torch.normal(torch.zeros(3), 1., out=torch.zeros(2, 3)),\n'
        '      lambda: torch.normal(torch.zeros(3), torch.ones(3), out=torch.zeros(2)), torch.rand(2),\n'
        '      lambda: torch.zeros(2, 3)[[5], []].shape, lambda: torch.zeros(2, 3)[[], [7]].shape)'),
    # lu_unpack's P is no output of its node: L and U are outputs 0 and 1
    "lu_unpack_outputs": (
        'torch.manual_seed(0)\n'
        'for shape in ((3, 3), (2, 4), (4, 2)):\n'
        '    A = torch.randn(*shape, requires_grad=True)\n'
        '    P, L, U = torch.lu_unpack(*torch.linalg.lu_factor(A))\n'
        '    print(P.grad_fn, L.output_nr, U.output_nr); (L.sum() + U.pow(2).sum()).backward(); print(A.grad)'),
    # with deterministic algorithms on, uninitialised memory is filled: NaN, the largest integer, True
    "deterministic_empty": (
        'torch.use_deterministic_algorithms(True)\n'
        'print(torch.empty(3), torch.empty(2, dtype=torch.int64), torch.empty_like(torch.ones(2)), torch.ones(2).new_empty(2),\n'
        '      torch.empty(2, dtype=torch.bool), torch.empty_strided((2,), (1,)), torch.empty(2, dtype=torch.float16))\n'
        'torch.use_deterministic_algorithms(False)\n'
        'print(torch.ones(2).new_empty(2, 2, dtype=torch.int64).shape)'),
    # torch.linalg's out=: written into (resized with the warning), refused by autograd naming the op it runs, a
    # tuple for the functions returning several; the composite ones copy in, recorded (CopyBackwards)
    "linalg_out": (
        'A = torch.tensor([[4., 1.], [1., 3.]]); B = torch.tensor([[1.], [2.]]); v = torch.tensor([1., 2.])\n'
        'E = lambda n=5, d=torch.float32: torch.empty(n, dtype=d)\n'
        'calls = [lambda o: torch.linalg.inv(A, out=o), lambda o: torch.linalg.det(A, out=o),\n'
        '         lambda o: torch.linalg.solve(A, B, out=o), lambda o: torch.linalg.eigvalsh(A, out=o),\n'
        '         lambda o: torch.linalg.svdvals(A, out=o), lambda o: torch.linalg.cholesky(A, out=o),\n'
        '         lambda o: torch.linalg.pinv(A, out=o), lambda o: torch.linalg.multi_dot([A, A, B], out=o),\n'
        '         lambda o: torch.linalg.vecdot(v, v, out=o), lambda o: torch.linalg.matrix_power(A, 3, out=o),\n'
        '         lambda o: torch.linalg.matrix_norm(A, out=o), lambda o: torch.linalg.norm(A, dim=1, out=o),\n'
        '         lambda o: torch.linalg.tensorinv(A, ind=1, out=o), lambda o: torch.linalg.vector_norm(A, out=o),\n'
        '         lambda o: torch.linalg.solve_triangular(A.triu(), B, upper=True, out=o)]\n'
        'for f in calls:\n'
        '    o = E(); r = f(o); print(r, r is o)\n'
        'tries(lambda: torch.linalg.inv_ex(A, out=(E(), E(d=torch.int32))), lambda: torch.linalg.slogdet(A, out=(E(), E())),\n'
        '      lambda: torch.linalg.eigh(A, out=(E(), E())).eigenvalues, lambda: torch.linalg.qr(A, out=(E(), E())),\n'
        '      lambda: torch.linalg.lu_factor(A, out=(E(), E(d=torch.int32))), lambda: torch.linalg.svd(A, out=(E(), E(), E())).S,\n'
        '      lambda: torch.linalg.matrix_rank(A, out=E(d=torch.int64)))\n'
        'A.requires_grad_(); v.requires_grad_()\n'
        'for f in calls:\n'
        '    tries(lambda: f(E()))\n'
        'tries(lambda: torch.linalg.eigh(A, out=(E(), E())), lambda: torch.linalg.svd(A, out=(E(), E(), E())))'),
    # non-reentrant checkpoints as PyTorch 2.13's: nested ones, inputs saved (through the hooks around: modified in
    # place, they fail backward), kwargs and random state replayed, early stop, recomputations that save other
    # tensors refused in PyTorch's words
    "checkpoint_non_reentrant": (
        'from torch.utils.checkpoint import checkpoint, set_checkpoint_early_stop\n'
        'def inner(x): return x.sin() * 2\n'
        'def mid(x): return checkpoint(inner, x, use_reentrant=False).exp()\n'
        'def outer(x): return checkpoint(mid, x, use_reentrant=False).cos()\n'
        'x = torch.tensor([0.5, 1.0], requires_grad=True)\n'
        'y = checkpoint(outer, x, use_reentrant=False); y.sum().backward(retain_graph=True); print(x.grad)\n'
        'y.sum().backward(); print(x.grad, torch.autograd.grad(checkpoint(outer, x, use_reentrant=False).sum(), x))\n'
        'with torch.autograd.graph.saved_tensors_hooks(lambda t: print("pack", t.shape) or t, lambda t: print("unpack") or t):\n'
        '    out = checkpoint(torch.exp, x, use_reentrant=False)\n'
        'out.sum().backward()\n'
        'torch.manual_seed(0); d = torch.nn.Dropout(0.5)\n'
        'def f(x, scale, *, shift=0.): return d(x * scale) + shift\n'
        'z = torch.ones(6, requires_grad=True)\n'
        'y = checkpoint(f, z, 3., shift=torch.tensor(1.), use_reentrant=False); y.sum().backward(); print(z.grad, torch.rand(1))\n'
        'calls = []\n'
        'def g(x): calls.append(1); y = x.exp(); print("after exp"); return y.sin()\n'
        'with set_checkpoint_early_stop(False):\n'
        '    y = checkpoint(g, x, use_reentrant=False)\n'
        'y.sum().backward(); y = checkpoint(g, x, use_reentrant=False); y.sum().backward(); print(len(calls))\n'
        'a = x * 2; y = checkpoint(torch.exp, a, use_reentrant=False)\n'
        'with torch.no_grad(): a.mul_(2)\n'
        'tries(lambda: y.sum().backward())\n'
        'state = {"n": 0}\n'
        'def h(t):\n'
        '    state["n"] += 1\n'
        '    return t.sin() if state["n"] % 2 else t * 1\n'
        'def k(t):\n'
        '    state["n"] += 1\n'
        '    return t.exp() if state["n"] % 2 else t.double().exp()\n'
        'tries(lambda: checkpoint(h, x, use_reentrant=False).sum().backward(),\n'
        '      lambda: checkpoint(k, x, use_reentrant=False).sum().backward(),\n'
        '      lambda: checkpoint(k, x, use_reentrant=False, determinism_check="bogus"))'),
    # DataLoader workers (emulated in the engine): each seeded as PyTorch seeds its processes (torch, random and
    # numpy), with its worker info; batches handed out in turn; an IterableDataset iterated by every worker (the
    # duplicates PyTorch's documentation warns of), sharded by worker info; persistent workers keep their states
    "dataloader_workers": (
        'import random, numpy as np\n'
        'from torch.utils.data import DataLoader, Dataset, IterableDataset, get_worker_info\n'
        'class D(Dataset):\n'
        '    def __len__(self): return 8\n'
        '    def __getitem__(self, i):\n'
        '        info = get_worker_info()\n'
        '        return torch.tensor([i, -1 if info is None else info.id]), torch.rand(1), random.random(), np.random.rand()\n'
        'torch.manual_seed(0); random.seed(0); np.random.seed(0)\n'
        'for b in DataLoader(D(), batch_size=3, shuffle=True, num_workers=2): print(b)\n'
        'print(torch.rand(1), random.random(), np.random.rand(), get_worker_info())\n'
        'class R(IterableDataset):\n'
        '    def __init__(self, n, shard): self.n, self.shard = n, shard\n'
        '    def __iter__(self):\n'
        '        info = get_worker_info()\n'
        '        return iter(range(info.id, self.n, info.num_workers) if self.shard and info else range(self.n))\n'
        'for n, shard, w, drop in ((6, True, 2, False), (7, True, 3, False), (7, True, 3, True), (4, False, 2, False)):\n'
        '    print(list(DataLoader(R(n, shard), batch_size=2, num_workers=w, drop_last=drop)))\n'
        'print(list(DataLoader(R(4, False), batch_size=None, num_workers=2)))\n'
        'def init(worker_id): random.seed(worker_id)\n'
        'dl = DataLoader(D(), batch_size=4, num_workers=2, worker_init_fn=init, persistent_workers=True)\n'
        'torch.manual_seed(3)\n'
        'for epoch in range(2):\n'
        '    print(epoch, [b[2] for b in dl], [b[1] for b in dl])\n'
        'it = iter(DataLoader(D(), batch_size=2, num_workers=2)); print(type(it).__name__, len(it), torch.rand(1))\n'
        'del it, dl     # (PyTorch\'s worker processes end here, not at exit)'),
    # state_dict and load_state_dict as PyTorch's: each module saves and loads its own entries (overrides of
    # state_dict, _save_to_state_dict, _load_from_state_dict and _apply are called), with the four kinds of hooks;
    # a lazy module takes the checkpoint's shapes
    "state_dict_structure": (
        'from torch import nn\n'
        'class Child(nn.Module):\n'
        '    def __init__(s): super().__init__(); s.b = nn.Parameter(torch.ones(1))\n'
        '    def state_dict(s, *a, **k): print("child state_dict", k.get("prefix")); return super().state_dict(*a, **k)\n'
        '    def _save_to_state_dict(s, d, prefix, keep_vars): d[prefix + "b2"] = s.b.detach() * 2\n'
        '    def _load_from_state_dict(s, sd, prefix, *rest): print("custom load", prefix, sorted(sd))\n'
        '    def _apply(s, fn, recurse=True): print("apply", type(s).__name__); return super()._apply(fn, recurse)\n'
        'm = nn.Sequential(nn.Linear(2, 2), Child())\n'
        'm[0].register_state_dict_pre_hook(lambda mod, prefix, keep_vars: print("pre", prefix, keep_vars))\n'
        'm.register_state_dict_post_hook(lambda mod, sd, prefix, meta: print("post", list(sd), meta))\n'
        'm.register_load_state_dict_pre_hook(lambda mod, sd, prefix, *rest: print("load pre", repr(prefix), len(sd)))\n'
        'm.register_load_state_dict_post_hook(lambda mod, keys: print("load post", keys))\n'
        'sd = m.state_dict(); print(sd, sd._metadata)\n'
        'tries(lambda: m.load_state_dict(sd), lambda: m.load_state_dict({"0.weight": torch.ones(2, 2), "x.y": 1}),\n'
        '      lambda: m.load_state_dict({"0.weight": torch.ones(2, 2)}, strict=False), lambda: m.double(),\n'
        '      lambda: m[0].weight.dtype)\n'
        'h = m._register_state_dict_hook(lambda mod, sd, prefix, meta: {"replaced": 1}); print(m.state_dict()); h.remove()\n'
        'bn = nn.BatchNorm1d(2); old = bn.state_dict(); del old["num_batches_tracked"]; old._metadata[""]["version"] = 1\n'
        'print(bn.load_state_dict(old), bn.num_batches_tracked)\n'
        'lazy = nn.LazyLinear(3); print(lazy.load_state_dict(nn.Linear(4, 3).state_dict()), lazy.weight.shape)\n'
        'print(sorted(nn.Linear(2, 2)._non_persistent_buffers_set), nn.Linear(2, 2).to_empty(device="cpu").weight.shape)'),
    # the global module hooks of torch.nn.modules.module: forward (pre-)hooks, full backward (pre-)hooks and
    # registration hooks of every module, run before each module's own
    "global_module_hooks": (
        'import torch.nn.modules.module as M\n'
        'from torch import nn\n'
        'hs = [M.register_module_forward_hook(lambda m, i, o: print("fwd", type(m).__name__)),\n'
        '      M.register_module_forward_pre_hook(lambda m, i: print("pre", type(m).__name__)),\n'
        '      M.register_module_full_backward_hook(lambda m, gi, go: print("bw", type(m).__name__, len(go))),\n'
        '      M.register_module_full_backward_pre_hook(lambda m, go: print("bwpre", type(m).__name__))]\n'
        'm = nn.Sequential(nn.Linear(2, 3), nn.ReLU(), nn.Linear(3, 1))\n'
        'm[0].register_forward_hook(lambda mod, i, o: print("own fwd"))\n'
        'm(torch.ones(4, 2)).sum().backward()\n'
        'for h in hs: h.remove()\n'
        'print(m(torch.ones(1, 2)).shape)\n'
        'h = M.register_module_forward_hook(lambda m, i, k, o: print("kw", k), with_kwargs=True, always_call=True)\n'
        'tries(lambda: nn.Linear(2, 2)(torch.ones(1, 3))); h.remove()\n'
        'hs = [M.register_module_parameter_registration_hook(lambda mod, name, p: print("param", name, tuple(p.shape))),\n'
        '      M.register_module_buffer_registration_hook(lambda mod, name, b: print("buf", name)),\n'
        '      M.register_module_module_registration_hook(lambda mod, name, sub: print("mod", name, type(sub).__name__))]\n'
        'nn.Sequential(nn.Linear(2, 2), nn.BatchNorm1d(2))\n'
        'for h in hs: h.remove()\n'
        'h = M.register_module_backward_hook(lambda m, gi, go: None)\n'
        'tries(lambda: M.register_module_full_backward_hook(lambda m, gi, go: None)); h.remove()'),
    # backward(inputs=) takes GradientEdges (one alone too); nn.utils.skip_init draws no random numbers;
    # Module._named_members
    "edges_skip_init_members": (
        'from torch.autograd.graph import get_gradient_edge\n'
        'from torch import nn\n'
        'x = torch.ones(2, requires_grad=True); y = x * 2; z = (y * 3).sum()\n'
        'z.backward(inputs=[get_gradient_edge(y)], retain_graph=True); print(x.grad, y.grad)\n'
        'z.backward(inputs=get_gradient_edge(x), retain_graph=True); print(x.grad)\n'
        'z.backward(inputs=[get_gradient_edge(y), x]); print(x.grad)\n'
        'torch.manual_seed(0)\n'
        'm = nn.utils.skip_init(nn.Linear, 3, 2); print(m.weight.shape, m.bias.shape, torch.rand(1))\n'
        'tries(lambda: nn.utils.skip_init(nn.ReLU), lambda: nn.utils.skip_init(nn.Linear, 6, 1, bias=False).bias)\n'
        's = nn.Sequential(nn.Linear(2, 2), nn.BatchNorm1d(2))\n'
        'print([n for n, _ in s._named_members(lambda mod: mod._buffers.items(), prefix="x")])'),
    # scatter_reduce / index_reduce without self: positions start from the dtype's lowest or highest value (ints,
    # bools too); a tie of zeros of both signs keeps what the position holds; a bool mean is refused
    "reduce_without_self": (
        'i = torch.tensor([0, 0])\n'
        'for dt in (torch.int64, torch.int8, torch.uint8, torch.float32, torch.bool):\n'
        '    for red in ("amax", "amin", "prod", "mean"):\n'
        '        x = torch.tensor([5, 6, 7]).to(dt); s = torch.tensor([1, 2]).to(dt)\n'
        '        tries(lambda: x.index_reduce(0, i, s, red, include_self=False),\n'
        '              lambda: x.scatter_reduce(0, torch.tensor([0, 2]), s, red, include_self=False),\n'
        '              lambda: x.scatter_reduce(0, i, s, red))\n'
        'z = torch.tensor([0., -0.])\n'
        'print(1 / torch.tensor([-0., 0.]).scatter_reduce(0, torch.tensor([0, 1]), z, "amax"),\n'
        '      1 / torch.tensor([5., 5.]).scatter_reduce(0, torch.tensor([0, 0, 1, 1]), torch.cat([z, z.flip(0)]), "amax",\n'
        '                                                include_self=False),\n'
        '      torch.tensor([1., 2.]).scatter_reduce(0, i, torch.tensor([float("nan"), 3.]), "amax"),\n'
        '      1 / torch.tensor([-0., 0.]).index_reduce(0, torch.tensor([0, 1]), z, "amax"))'),
    # sums to several numbers of more than 32,768 numbers add in PyTorch's order (each result summed whole by one
    # thread); a transposed (column-major) tensor is summed as its memory runs
    "big_sums": (
        'torch.manual_seed(0)\n'
        'for dt in (torch.float32, torch.float64):\n'
        '    x = torch.rand(1000, 100, dtype=dt)\n'
        '    print(x.sum(0)[:3].tolist(), x.sum(1)[:3].tolist(), x.mean(0)[:3].tolist(), x.t().sum(1)[:3].tolist())\n'
        '    y = torch.rand(8, 3, 40, 40, dtype=dt); print(y.sum((0, 2, 3)).tolist(), y.mean((0, 2, 3)).tolist())\n'
        '    z = torch.rand(3, 50000, dtype=dt); print(z.sum(1).tolist(), z.t().sum(0).tolist())\n'
        'print(torch.rand(1000, 100).sum(0)[:3], torch.rand(2000, 17).sum(0)[:3], torch.rand(50, 3).t().sum(1))\n'
        'bn = torch.nn.BatchNorm2d(3); bn(torch.randn(16, 3, 32, 32)); print(bn.running_mean, bn.running_var)'),
    # graph introspection: every op node's _input_metadata has its output's shape and dtype; vdot saves only what a
    # gradient needs; slice_scatter's None bounds have no _raw_saved_; the nodes of ops without derivative are
    # named torch::autograd::NotImplemented
    "graph_introspection": (
        'x = torch.randn(3, 4, requires_grad=True); y = x\n'
        'for i in range(3): y = y * 2 + 1\n'
        'for t in (y, x.sum(), x.double().exp(), x[0], x.t(), x @ x.t(), torch.relu(x), x.clone().mul_(2), x.max(0)[0] * 3):\n'
        '    print(t.grad_fn.name(), [(list(i.shape), i.dtype) for i in t.grad_fn._input_metadata])\n'
        'u, v = torch.randn(3), torch.randn(3, requires_grad=True)\n'
        'for g in (torch.vdot(u, v).grad_fn, torch.vdot(v, u).grad_fn): print(g._saved_other, g._saved_self)\n'
        'for args in ((torch.zeros(6, 2), 1, 2), (torch.zeros(6, 1), 1, 1, 2)):\n'
        '    s = torch.zeros(6, 4, requires_grad=True).slice_scatter(*args)\n'
        '    print(sorted(a for a in dir(s.grad_fn) if "saved" in a), s.grad_fn._saved_start, s.grad_fn._saved_end)\n'
        'print(torch.histogram(x.detach().requires_grad_(), 3)[0].grad_fn.name(),\n'
        '      torch.binomial(torch.ones(2, requires_grad=True) * 5, torch.full((2,), 0.5)).grad_fn.name())'),
    # the nodes of first-order gradients (conv, norms, pools) are freed by a backward through them like any other:
    # a second one fails with PyTorch's error
    "second_order_freed": (
        'import torch.nn.functional as F\n'
        'x = torch.randn(2, 3, 5, requires_grad=True); w = torch.randn(4, 3, 2, requires_grad=True)\n'
        'for f in (lambda: F.conv1d(x, w), lambda: F.layer_norm(x, (5,)), lambda: F.max_pool1d(x, 2),\n'
        '          lambda: F.batch_norm(x, None, None, training=True), lambda: F.group_norm(x, 3),\n'
        '          lambda: F.instance_norm(x)):\n'
        '    gx, = torch.autograd.grad(f().sum(), x, create_graph=True)\n'
        '    gx.pow(2).sum().backward(retain_graph=True); gx.pow(2).sum().backward()\n'
        '    tries(lambda: gx.pow(2).sum().backward())'),
    # torch.distributions.Multinomial (Dive into Deep Learning's dice), on Categorical's draws
    "multinomial_distribution": (
        'from torch.distributions import multinomial\n'
        'torch.manual_seed(0)\n'
        'fair_probs = torch.ones([6]) / 6\n'
        'print(multinomial.Multinomial(1, fair_probs).sample(), multinomial.Multinomial(10, fair_probs).sample())\n'
        'counts = multinomial.Multinomial(10, fair_probs).sample((500,)); cum = counts.cumsum(dim=0)\n'
        'print((cum / cum.sum(dim=1, keepdims=True))[-1], multinomial.Multinomial(1000, fair_probs).sample() / 1000)\n'
        'm = torch.distributions.Multinomial(5, probs=torch.tensor([[0.2, 0.8], [0.5, 0.5]]))\n'
        'print(m, m.mean, m.variance, m.batch_shape, m.event_shape, m.support, m.sample(), m.sample((2,)).shape)\n'
        'print(m.log_prob(torch.tensor([[1., 4.], [5., 0.]])), m.entropy())\n'
        'l = torch.tensor([0.1, -0.3, 1.2], requires_grad=True); m2 = torch.distributions.Multinomial(4, logits=l)\n'
        'lp = m2.log_prob(torch.tensor([1., 0., 3.])); show(lp); lp.backward(); print(l.grad, m2.expand((2,)).sample())\n'
        'tries(lambda: torch.distributions.Multinomial(2.5, fair_probs),\n'
        '      lambda: torch.distributions.Multinomial(3, torch.tensor([0., 1.])).log_prob(torch.tensor([0., 3.])),\n'
        '      lambda: torch.distributions.Multinomial(3, fair_probs, validate_args=True).log_prob(torch.ones(6)))'),
    # weights_only loading of other classes: torch.serialization.add_safe_globals / safe_globals; functional_call's
    # strict error lists the keys sorted
    "safe_globals_and_functional_call": (
        'import io, argparse\n'
        'buf = io.BytesIO(); torch.save({"args": argparse.Namespace(lr=.1), "w": torch.ones(2)}, buf)\n'
        'buf.seek(0); tries(lambda: torch.load(buf))\n'
        'torch.serialization.add_safe_globals([argparse.Namespace]); buf.seek(0); print(torch.load(buf)["args"])\n'
        'torch.serialization.clear_safe_globals(); buf.seek(0)\n'
        'with torch.serialization.safe_globals([argparse.Namespace]):\n'
        '    print(torch.load(buf)["w"])\n'
        'buf.seek(0); tries(lambda: type(torch.load(buf)))\n'
        'from torch.func import functional_call\n'
        'class M(torch.nn.Module):\n'
        '    def __init__(self):\n'
        '        super().__init__()\n'
        '        for n in ("zeta", "alpha", "mid"): setattr(self, n, torch.nn.Parameter(torch.ones(1)))\n'
        '    def forward(self, x): return x * self.zeta\n'
        'tries(lambda: functional_call(M(), {"zz": torch.ones(1), "aa": torch.ones(1)}, (torch.ones(1),), strict=True))'),
    # a number where a tensor must go gets the parser's TypeError (position counted as PyTorch counts it), not an
    # AttributeError from inside the engine; sum_to_size needs a size
    "tensor_arguments": (
        'import torch.nn.functional as F\n'
        'x = torch.zeros(3, 4)\n'
        'tries(lambda: x.slice_scatter(1), lambda: x.diagonal_scatter(1), lambda: torch.prelu(x, 1), lambda: F.prelu(x, 1),\n'
        '      lambda: torch.select_scatter(x, 1, 0, 0), lambda: torch.slice_scatter(x, src=1), lambda: x.prelu(1),\n'
        '      lambda: x.sum_to_size(), lambda: x.sum_to_size(1, 4), lambda: x.sum_to_size((1, 4)))'),
}


def test_big_sums_bit_for_bit():
    """Sums to several numbers of more than 32,768 numbers, and sums over middle dims: the same bits as PyTorch's
    (its sum kernel adds in the same order on this machine's vector width too), whatever its number of threads."""
    import numpy as np
    rng = np.random.default_rng(0)
    cases = [((1000, 100), 0), ((2000, 17), 0), ((3, 50000), 1), ((8, 3, 40, 40), (0, 2, 3)), ((300, 200), 1),
             ((4, 100, 30), 1), ((10, 1000, 30), 1), ((2, 3, 50, 17), (1, 2)), ((3, 7, 5), 1)]
    threads = T.get_num_threads()
    try:
        for shape, dims in cases:
            for dtype in (np.float32, np.float64):
                arrays = [rng.random(shape).astype(dtype)]
                if len(shape) == 2 or dims == (0, 2, 3):     # (column-major ones PyTorch goes through in memory order)
                    arrays.append(np.asfortranarray(rng.random(shape).astype(dtype)))
                for a in arrays:
                    want = E.from_numpy(a).sum(dims).numpy()
                    for n in (1, 2):
                        T.set_num_threads(n)
                        got = T.from_numpy(a).sum(dims).numpy()
                        assert got.tobytes() == want.tobytes(), (shape, dims, dtype, a.flags.f_contiguous, n)
    finally:
        T.set_num_threads(threads)


def test_numpy_seed_of_workers():
    """The words a worker seeds numpy with are those of PyTorch's worker (`_generate_state`)."""
    from torch.utils.data._utils.worker import _generate_state
    from engine.utils.data import _numpy_seed
    for base_seed in (0, 1, 2**31 - 1, 2**32 + 5, 2**63 - 1, 123456789012345):
        for worker_id in range(4):
            assert _numpy_seed(base_seed, worker_id) == _generate_state(base_seed, worker_id)


@pytest.mark.parametrize("name", SNIPPETS)
def test_snippet(name):
    if name == "inverse_in_its_dtype":      # (singular matrices in float32: LAPACK's last bits decide)
        skip_unless_engine_cpu("inverses of singular matrices")
    code = SHOW + SNIPPETS[name]
    t, e = run_both(T, E, code)
    assert same(t, e), f"\n{code}\n--- torch\n{t.summary()}--- engine\n{e.summary()}"
