"""Errors and warnings beginners trigger, against real PyTorch: narrow's range checks, bool masks of the wrong shape
in assignments, str indices, torch.tensor of strs and extra positional arguments, repeated dims in reductions, conv
and norm layers given another dtype, CPU-only device errors (an index, torch.cuda.*), `in` on tensors, missing
arguments of transpose / unsqueeze, .to with str dtypes, BCE range and weight checks, losses given lists, mean
with an integer dtype, clamp's tensor bounds; and a sample of common mistakes that already matched. Printed text, warnings and the final error must be the same."""
import pytest

T = pytest.importorskip("torch", reason="differential tests need real PyTorch (pip install torch==2.13.0)")
from .harness import load_engine, run_both, same  # noqa: E402

E = load_engine()


def _tries(*lines):
    """A snippet running each line in try/except, printing `type(e).__name__, e` as a learner would."""
    return ''.join('try:\n    %s\nexcept Exception as e:\n    print(type(e).__name__, e)\n' % line for line in lines)


SNIPPETS = {
    # ---------------------------------------------------------------- fixed
    "narrow_ranges": _tries(
        'torch.arange(6).narrow(0, 4, 3)', 'torch.arange(6).narrow(0, 7, 1)', 'torch.arange(6).narrow(0, -7, 1)',
        'torch.arange(6).narrow(0, 2, -1)', 'torch.arange(6).narrow(0, -2, 3)', 'torch.arange(6).narrow(0, 1.5, 2)',
        'torch.arange(6).narrow(0, 1, 2.0)',
        'print(torch.arange(6).narrow(0, -2, 2), torch.arange(6).narrow(-1, torch.tensor(1), 2), torch.arange(6).narrow(0, 6, 0))'),
    "mask_assign_wrong_shape": _tries(
        't = torch.arange(6.); t[torch.tensor([True, False])] = 1',
        't = torch.arange(6.).view(2, 3); t[0, torch.tensor([True, False])] = 1',
        't = torch.arange(6.).view(2, 3); t[torch.tensor([[True, False], [False, True]])] = 7',
        't = torch.arange(6.).view(2, 3); t[torch.tensor([True, False, True])] += 1',
        't = torch.arange(6.).view(2, 3); t[:, torch.tensor([True, False, True])] = 7; print(t)'),
    "str_index": _tries(
        "torch.arange(6)['a']", "torch.arange(6).view(2, 3)['ab']", "torch.arange(6)['']",
        "t = torch.arange(6); t['a'] = 1", "torch.arange(6)[['a']]", "torch.arange(6)[[0, 'a']]",
        "torch.arange(6)[('a',)]"),
    "tensor_of_strs_and_extra_args": _tries(
        "torch.tensor(['a', 'b'])", "torch.tensor('a')", "torch.tensor([1, 'a'])", "torch.tensor([['a']])",
        "torch.tensor([''])", "torch.tensor([[1, 2], ['ab', 3]])", "torch.as_tensor(['a'])",
        "torch.tensor(1, 2)", "torch.tensor(1, torch.float32)", "print(torch.tensor(data=[1]))"),
    "repeated_dims": _tries(
        'torch.arange(4.).sum(dim=(0, 0))', 'torch.arange(4.).mean(dim=[0, -1])', 'torch.arange(4.).std(dim=(0, 0))',
        'torch.arange(4.).var(dim=(0, 0))', 'torch.arange(4.).logsumexp(dim=(0, 0))', 'torch.arange(4.).norm(dim=(0, 0))',
        'torch.tensor(2.).sum(dim=(0, -1))', 'torch.tensor(True).all((0, -1))', 'torch.tensor(True).all(1)',
        'print(torch.tensor([[True, False], [True, True]]).all(dim=(0, 1)), torch.tensor(True).any(0))',
        'print(torch.tensor([[1, 0], [1, 1]], dtype=torch.uint8).all(0), torch.tensor(2.).mean(dim=[-1]))'),
    "conv_dtypes": (
        'import torch.nn as nn\nimport torch.nn.functional as F\n' + _tries(
            'nn.Conv2d(3, 4, 3)(torch.ones(1, 3, 5, 5, dtype=torch.float64))',
            'nn.Conv2d(3, 4, 3, bias=False)(torch.ones(1, 3, 5, 5, dtype=torch.float64))',
            'nn.Conv1d(3, 4, 3)(torch.ones(1, 3, 5, dtype=torch.long))',
            'nn.Conv2d(3, 4, 3)(torch.ones(1, 3, 5, 5, dtype=torch.uint8))',
            'F.conv2d(torch.ones(1, 3, 5, 5), torch.ones(4, 3, 3, 3), torch.ones(4, dtype=torch.float64))',
            'F.conv2d(torch.ones(1, 3, 5, 5, dtype=torch.float64), torch.ones(4, 3, 3, 3), torch.ones(4, dtype=torch.float64))')),
    "norm_mixed_dtypes": (
        'import torch.nn as nn\nimport torch.nn.functional as F\n' + _tries(
            'nn.BatchNorm1d(3)(torch.ones(2, 3, dtype=torch.float64))',
            'nn.BatchNorm1d(3).eval()(torch.ones(2, 3, dtype=torch.float64))',
            'F.batch_norm(torch.ones(2, 3), torch.zeros(3, dtype=torch.float64), torch.ones(3, dtype=torch.float64))',
            'F.batch_norm(torch.ones(2, 3), torch.zeros(3), torch.ones(3), None, torch.ones(3, dtype=torch.float64))',
            'F.layer_norm(torch.ones(2, 3), (3,), torch.ones(3, dtype=torch.float64))',
            'F.layer_norm(torch.ones(2, 3, dtype=torch.float64), (3,), torch.ones(3))',
            'F.group_norm(torch.ones(2, 3, 2), 1, torch.ones(3, dtype=torch.float64))',
            'print(F.instance_norm(torch.ones(2, 3, 2), torch.zeros(3, dtype=torch.float64), torch.ones(3, dtype=torch.float64)))',
            'F.instance_norm(torch.ones(2, 3, 2), None, None, torch.ones(3, dtype=torch.float64))',
            'print(nn.BatchNorm1d(3, affine=False, track_running_stats=False)(torch.arange(6, dtype=torch.float64).view(2, 3)))')),
    "cpu_only_devices": (
        'import torch.nn as nn\n' + _tries(
            'torch.ones(2).cuda(0)', 'torch.ones(2).to(0)', 'torch.ones(2).to(device=1)', 'nn.Linear(2, 2).cuda(0)',
            'torch.tensor([1.], device=0)', "torch.ones(2).to('cuda:0')", 'nn.Linear(2, 2).cuda()',
            "print(nn.ReLU().cuda(), nn.ReLU().to('cuda'), nn.ReLU().cuda(0))",
            'torch.cuda.current_device()', 'torch.cuda.get_device_name(0)', 'torch.cuda.synchronize()',
            'torch.cuda.get_device_properties(0)', 'torch.cuda.set_device(0)',
            'print(torch.cuda.empty_cache(), torch.cuda.is_initialized(), torch.cuda.memory_allocated())')),
    "contains": _tries(
        'print(torch.ones(2) in torch.ones(3))', "print('a' in torch.ones(2))",
        'print(1 in torch.ones(3), 2 in torch.ones(3), torch.tensor([1., 1.]) in torch.ones(3, 2))'),
    "missing_arguments": _tries(
        'torch.ones(2, 3).transpose(0)', 'torch.ones(2, 3).transpose()', 'torch.transpose(torch.ones(2, 3), 0)',
        'torch.ones(2, 3).unsqueeze()', 'torch.ones(2, 3).max(dim=0, keep_dim=True)'),
    "to_with_bad_dtypes": _tries(
        "torch.ones(2).to(dtype='float')", "torch.ones(2).to(device='cpu', dtype='float')",
        "torch.ones(2).to('cpu', 'float')", "torch.ones(2).to('cpu', dtype='float32')",
        "torch.ones(2).to(torch.float32, 'cpu')", "torch.ones(2).to('float32')",
        "print(torch.ones(2).to(dtype=float), torch.ones(2).to('cpu', torch.float64))"),
    "bce_ranges_and_weights": (
        'import torch.nn as nn\nimport torch.nn.functional as F\n' + _tries(
            'F.binary_cross_entropy(torch.tensor([0.5]), torch.tensor([2.]))',
            "F.binary_cross_entropy(torch.tensor([0.5, float('nan')]), torch.tensor([1., 1.]))",
            'F.binary_cross_entropy(torch.tensor([0.5, 2.]), torch.tensor([-1., 1.]))',
            'F.binary_cross_entropy(torch.tensor([0.5, 2.]), torch.tensor([1., -1.]))',
            'nn.BCELoss()(torch.tensor([0.2, 0.7]), torch.tensor([0., 2.]))',
            'F.binary_cross_entropy(torch.tensor([0.5]), torch.tensor([1.]), weight=torch.ones(2))',
            'F.binary_cross_entropy(torch.tensor([0.5, 0.5]), torch.tensor([1., 1.]), weight=torch.ones(3))',
            'F.binary_cross_entropy(torch.tensor([0.5, 0.5]), torch.tensor([1., 1.]), weight=torch.ones(2, 2))',
            'print(F.binary_cross_entropy(torch.tensor([[0.5, 0.5]]), torch.tensor([[1., 1.]]), weight=torch.ones(2)))',
            'F.binary_cross_entropy_with_logits(torch.tensor([0.5]), torch.tensor([1.]), weight=torch.ones(2))',
            'F.binary_cross_entropy_with_logits(torch.tensor([0.5, 0.5]), torch.tensor([1., 1.]), weight=torch.ones(3))',
            'torch.broadcast_shapes((2,), (3, 3))')),
    "losses_given_lists": (
        'import numpy as np\nimport torch.nn as nn\nimport torch.nn.functional as F\n' + _tries(
            'nn.CrossEntropyLoss()([1., 2.], torch.tensor(1))', 'F.cross_entropy(torch.ones(2, 3), [0, 1])',
            'F.cross_entropy(np.ones((2, 3)), torch.tensor([0, 1]))', 'F.nll_loss(torch.ones(2, 3), [0, 1])',
            'F.nll_loss([[1., 2.]], torch.tensor([0]))', 'F.binary_cross_entropy(torch.ones(2), [0., 1.])',
            'F.binary_cross_entropy([0.5], torch.ones(1))', 'nn.Linear(2, 3)(np.ones(2))')),
    "mean_int_dtype_and_clamp_bounds": _tries(
        'torch.ones(2, 3).mean(dtype=torch.long)', 'torch.arange(4).mean(dtype=torch.long)',
        'print(torch.arange(4).mean(dtype=torch.float64))',
        'torch.clamp(torch.ones(2), min=torch.ones(3))',
        'torch.clamp(torch.ones(2, 3), min=torch.zeros(2, 1), max=torch.ones(4))',
        'print(torch.clamp(torch.ones(2), max=torch.zeros(3, 1)).shape)'),
    "narrow_final_error": 'torch.arange(6).narrow(0, 4, 3)',
    "bce_target_final_error": 'import torch.nn as nn\nnn.BCELoss()(torch.tensor([0.2, 0.7]), torch.tensor([0., 2.]))',
    # ---------------------------------------------------------------- already matched (a sample)
    "shapes_in_arithmetic_and_matmul": _tries(
        'torch.ones(2) + torch.ones(3)', 'torch.ones(2, 3) * torch.ones(4)', 'a = torch.ones(2); a += torch.ones(2, 2)',
        'torch.add(torch.ones(2), torch.ones(2, 2), out=torch.empty(2))', 'torch.ones(2, 3) @ torch.ones(2, 3)',
        'torch.mm(torch.ones(3), torch.ones(3, 2))', 'torch.bmm(torch.ones(2, 2, 3), torch.ones(3, 3, 2))',
        'torch.mv(torch.ones(2, 3), torch.ones(2))', 'torch.dot(torch.ones(2), torch.ones(2, dtype=torch.long))',
        'torch.arange(4).reshape(2, 2) @ torch.ones(2, 2)', 'torch.ones(3, 2, 4) @ torch.ones(2, 4, 5)',
        'torch.nn.Linear(3, 2)(torch.ones(4, 5))', 'torch.nn.Linear(3, 2)(torch.arange(3))'),
    "views_and_dims": _tries(
        'torch.arange(6).view(4, 2)', 'torch.arange(6).view(-1, -1)', 'torch.arange(6).view(2, 3).t().view(6)',
        'torch.arange(6).view(2, 3).expand(3, 3)', 'torch.arange(6).view(2, 3).permute(0, 0)',
        'torch.arange(6).view(2, 3).squeeze(2)', 'torch.arange(6).view(2, 3).unsqueeze(-4)',
        'torch.cat([torch.ones(2, 3), torch.ones(3, 2)])', 'torch.stack([torch.ones(2), torch.ones(3)])',
        'torch.arange(6).split([2, 2])', 'torch.arange(6).chunk(0)', 'torch.arange(6).index_select(0, torch.tensor([1.]))',
        'torch.arange(6).view(2, 3).gather(1, torch.tensor([[0], [5]]))'),
    "indexing_and_conversions": _tries(
        'torch.arange(6)[6]', 'torch.arange(6).view(2, 3)[0, 3]', 'torch.arange(6)[torch.tensor([True, False])]',
        'torch.arange(6)[torch.tensor([1.0])]', 'torch.arange(6).item()', 'torch.ones(2, requires_grad=True).numpy()',
        'float(torch.ones(2))', 'bool(torch.ones(2))', 'bool(torch.tensor([]))', 'len(torch.tensor(1.))',
        'iter(torch.tensor(1.))', 'torch.ones(2)(1)'),
    "autograd_mistakes": _tries(
        'x = torch.arange(3); x.requires_grad = True', 'torch.tensor([1, 2], requires_grad=True)',
        'x = torch.ones(2, requires_grad=True); (x * 2).backward()',
        'x = torch.ones(2, requires_grad=True); y = (x * x).sum(); y.backward(); y.backward()',
        'x = torch.ones(2); x.sum().backward()',
        'x = torch.ones(2, requires_grad=True); z = torch.ones(2, requires_grad=True); torch.autograd.grad((x * 2).sum(), [x, z])',
        'x = torch.ones(2, requires_grad=True); x.add_(1)', 'x = torch.ones(2, requires_grad=True); x[:1].zero_()',
        'x = torch.ones(2, requires_grad=True); y = x.exp(); y.add_(1); y.sum().backward()',
        'x = torch.ones(2, 2, requires_grad=True) * 1; v = x[0]; v.detach_()',
        'x = torch.ones(2, requires_grad=True); x.grad = torch.ones(3)'),
    "optimizers_and_losses": (
        'import torch.nn as nn\n' + _tries(
            'x = torch.ones(2, requires_grad=True); torch.optim.SGD(x, lr=0.1)',
            'x = torch.ones(2, requires_grad=True) * 2; torch.optim.SGD([x], lr=0.1)',
            'x = torch.ones(2, requires_grad=True); torch.optim.Adam([x], lr=-0.1)',
            'torch.optim.SGD([], lr=0.1)',
            'nn.CrossEntropyLoss()(torch.ones(3, 4), torch.tensor([1., 2., 3.]))',
            'nn.CrossEntropyLoss()(torch.ones(3, 4), torch.tensor([1, 2, 4]))',
            'nn.NLLLoss()(torch.ones(3, 4), torch.tensor([1, 2]))',
            'nn.BCELoss()(torch.tensor([0.5, 1.5]), torch.tensor([0., 1.]))',
            'nn.BCELoss()(torch.tensor([0.5, 0.5]), torch.tensor([0., 1., 1.]))',
            'print(nn.MSELoss()(torch.ones(3, 1), torch.zeros(3)))')),
    "creation_mistakes": _tries(
        'torch.tensor([[1, 2], [3]])', 'torch.tensor(None)', "torch.tensor([1, 2], dtype='float32')",
        'torch.zeros(2, -3)', 'torch.arange(0, 10, 0)', 'torch.arange(10, 0, 1)', "torch.device('gpu')",
        'torch.ones(2).cuda()', "torch.ones(2, device='cuda')"),
    "moving_to_mps": _tries(
        "torch.ones(2).to('mps')", "torch.ones(2).to(torch.device('mps'))",
        "torch.nn.Linear(2, 2).to('mps')", "print(torch.backends.mps.is_available(), torch.ones(2).to('cpu'))",
        "device = 'mps' if torch.backends.mps.is_available() else 'cpu'; print(torch.ones(1).to(device).device)"),
}


@pytest.mark.parametrize("name", SNIPPETS)
def test_snippet(name):
    code = SNIPPETS[name]
    t, e = run_both(T, E, code)
    assert same(t, e), f"\n{code}\n--- torch\n{t.summary()}--- engine\n{e.summary()}"
