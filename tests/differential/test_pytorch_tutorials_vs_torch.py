"""Snippets from pytorch.org's tutorials and docs pages that learners paste (Learn the Basics, What is torch.nn
really?, Introduction to PyTorch Tensors, The Fundamentals of Autograd) against real PyTorch: the printed text must
be the same, random numbers included (the engine draws PyTorch's)."""
import pytest

T = pytest.importorskip("torch", reason="differential tests need real PyTorch (pip install torch==2.13.0)")
from .harness import TRIES, load_engine, run_both, same  # noqa: E402

E = load_engine()


SNIPPETS = {
    # Learn the Basics / What is torch.nn really?: a DataLoader with shuffle=True draws its order as PyTorch's
    # RandomSampler does (a seed from the default generator, then a permutation), and every iterator draws a base
    # seed, shuffled or not; so the losses of a training loop and the numbers drawn after it are PyTorch's.
    'dataloader_shuffle_order': (
        'TensorDataset, DataLoader = torch.utils.data.TensorDataset, torch.utils.data.DataLoader\n'
        'torch.manual_seed(0)\n'
        'dl = DataLoader(TensorDataset(torch.arange(10)), batch_size=4, shuffle=True)\n'
        'print([b[0].tolist() for b in dl], [b[0].tolist() for b in dl], torch.rand(1))\n'
        'dl = DataLoader(TensorDataset(torch.arange(10)), batch_size=4)\n'
        'print([b[0].tolist() for b in dl], torch.rand(1))\n'
        'g = torch.Generator().manual_seed(3)\n'
        'dl = DataLoader(TensorDataset(torch.arange(10)), batch_size=3, shuffle=True, generator=g, drop_last=True)\n'
        'print([b[0].tolist() for b in dl], [b[0].tolist() for b in dl], torch.rand(1), torch.rand(1, generator=g))\n'
        'print(list(DataLoader(list(range(5)), batch_size=None, shuffle=True)), torch.rand(1))\n'
        'it = iter(DataLoader(list(range(5)), batch_size=2, shuffle=True))\n'
        'print(torch.rand(1), next(it))\n'),
    'learn_the_basics_train_loop': (
        'nn = torch.nn\n'
        'Dataset, DataLoader = torch.utils.data.Dataset, torch.utils.data.DataLoader\n'
        'torch.manual_seed(0)\n'
        'class CustomDataset(Dataset):\n'
        '    def __init__(self, n):\n'
        '        self.x = torch.rand(n, 1, 8, 8)\n'
        '        self.y = torch.randint(0, 10, (n,))\n'
        '    def __len__(self):\n'
        '        return len(self.y)\n'
        '    def __getitem__(self, idx):\n'
        '        return self.x[idx], self.y[idx]\n'
        'train_dataloader = DataLoader(CustomDataset(96), batch_size=16, shuffle=True)\n'
        'test_dataloader = DataLoader(CustomDataset(32), batch_size=16, shuffle=True)\n'
        'model = nn.Sequential(nn.Flatten(), nn.Linear(64, 32), nn.ReLU(), nn.Linear(32, 10))\n'
        'loss_fn = nn.CrossEntropyLoss()\n'
        'optimizer = torch.optim.SGD(model.parameters(), lr=0.1)\n'
        'def train_loop(dataloader, model, loss_fn, optimizer):\n'
        '    size = len(dataloader.dataset)\n'
        '    model.train()\n'
        '    for batch, (X, y) in enumerate(dataloader):\n'
        '        loss = loss_fn(model(X), y)\n'
        '        loss.backward()\n'
        '        optimizer.step()\n'
        '        optimizer.zero_grad()\n'
        '        if batch % 2 == 0:\n'
        '            loss, current = loss.item(), batch * 16 + len(X)\n'
        '            print(f"loss: {loss:>7f}  [{current:>5d}/{size:>5d}]")\n'
        'def test_loop(dataloader, model, loss_fn):\n'
        '    model.eval()\n'
        '    test_loss, correct = 0, 0\n'
        '    with torch.no_grad():\n'
        '        for X, y in dataloader:\n'
        '            pred = model(X)\n'
        '            test_loss += loss_fn(pred, y).item()\n'
        '            correct += (pred.argmax(1) == y).type(torch.float).sum().item()\n'
        '    print(f"Accuracy: {(100 * correct / len(dataloader.dataset)):>0.1f}%, '
        'Avg loss: {test_loss / len(dataloader):>8f}")\n'
        'for t in range(2):\n'
        '    train_loop(train_dataloader, model, loss_fn, optimizer)\n'
        '    test_loop(test_dataloader, model, loss_fn)\n'),
    # Introduction to PyTorch Tensors: torch.bitwise_xor, torch.unique, torch.linalg.cross / matmul / svd.
    'intro_tensors_math_ops': (
        'torch.manual_seed(1729)\n'
        'b = torch.tensor([1, 5, 11])\n'
        'c = torch.tensor([2, 7, 10])\n'
        'print(torch.bitwise_xor(b, c))\n'
        'print(torch.unique(torch.tensor([1, 2, 1, 2, 1, 2])))\n'
        'v1 = torch.tensor([1., 0., 0.])\n'
        'v2 = torch.tensor([0., 1., 0.])\n'
        'm1 = torch.rand(2, 2)\n'
        'm2 = torch.tensor([[3., 0.], [0., 3.]])\n'
        'print(torch.linalg.cross(v2, v1))\n'
        'print(m1)\n'
        'm3 = torch.linalg.matmul(m1, m2)\n'
        'print(m3)\n'
        'print(torch.linalg.svd(m3))\n'),
    'bitwise_ops': TRIES + (
        'b = torch.tensor([1, 5, 11]); c = torch.tensor([2, 7, 10])\n'
        'tries(lambda: torch.bitwise_and(b, 3), lambda: torch.bitwise_or(b, c), lambda: torch.bitwise_not(b),\n'
        '      lambda: b.bitwise_xor(c), lambda: 3 ^ b, lambda: 6 & b, lambda: 6 | b, lambda: b ^ 1.5,\n'
        '      lambda: torch.tensor([True, False]) ^ torch.tensor([True, True]), lambda: torch.bitwise_xor(3, b),\n'
        '      lambda: torch.bitwise_not(torch.tensor([1.])), lambda: ~torch.tensor([1.]),\n'
        '      lambda: b.bitwise_or(None), lambda: torch.bitwise_or(b, None),\n'
        '      lambda: torch.bitwise_xor(torch.tensor([1.], dtype=torch.float64), 1))\n'
        'b.bitwise_xor_(3); print(b)\n'
        'b ^= c; print(b)\n'
        'b |= 16; print(b)\n'
        'b &= torch.tensor([True, False, True]); print(b)\n'),
    'unique': TRIES + (
        'x = torch.tensor([1, 3, 2, 3, 1, 1])\n'
        'print(x.unique(), torch.unique(x, return_counts=True), torch.unique(x, sorted=False))\n'
        'print(torch.unique(x, return_inverse=True, return_counts=True))\n'
        'print(torch.unique(torch.tensor([[1, 2], [1, 2], [3, 0]]), dim=0, return_inverse=True))\n'
        'print(torch.unique(torch.tensor([[3, 1], [1, 2]]), return_inverse=True), torch.unique(torch.tensor([True])))\n'
        'u = torch.unique(torch.tensor([2., 1., 2.], requires_grad=True))\n'
        'v = torch.unique(torch.tensor([[2., 1.]], requires_grad=True), dim=1)\n'
        'print(u, v)\n'
        'tries(lambda: u.sum().backward(), lambda: v.sum().backward())\n'),
    'cross_and_svd': TRIES + (
        'torch.manual_seed(0)\n'
        'a = torch.rand(2, 3, requires_grad=True); b = torch.rand(3, requires_grad=True)\n'
        'c = torch.linalg.cross(a, b.expand(2, 3))\n'
        'print(c, c.grad_fn._saved_dim, c.grad_fn._saved_self is a)\n'
        'print(torch.autograd.grad(c, (a, b), torch.rand(2, 3)))\n'
        'c = torch.cross(a.detach(), b.expand(2, 3), dim=1)\n'
        'print(c.grad_fn._saved_dim, c.grad_fn._saved_self, c.grad_fn._saved_other)\n'
        'print(a.cross(torch.ones(2, 3)))\n'
        'tries(lambda: torch.linalg.cross(torch.tensor([1, 0, 0]), torch.tensor([0, 1, 0])),\n'
        '      lambda: torch.cross(torch.rand(2, 2), torch.rand(2, 2)),\n'
        '      lambda: torch.linalg.cross(torch.rand(3), torch.rand(2, 3)),\n'
        '      lambda: torch.linalg.cross(torch.rand(3), torch.rand(2)),\n'
        '      lambda: torch.linalg.cross(torch.rand(3), torch.rand(3, dtype=torch.float64)),\n'
        '      lambda: torch.linalg.svd(torch.tensor([[1, 2], [3, 4]])), lambda: torch.linalg.svd(torch.rand(3)))\n'
        'print(torch.linalg.svd(torch.rand(3, 4), full_matrices=False).S)\n'
        'U, S, Vh = torch.linalg.svd(torch.rand(3, 2, requires_grad=True))\n'
        'print(S.grad_fn, U.grad_fn is Vh.grad_fn)\n'
        'x = torch.tensor([3., 4.], requires_grad=True)\n'
        'print(torch.linalg.vector_norm(x), torch.linalg.vector_norm(x, ord=1))\n'),
    # The Fundamentals of Autograd: torch.sin_ on a leaf that requires grad.
    'autograd_inplace_function': TRIES + (
        'import math\n'
        'a = torch.linspace(0., 2. * math.pi, steps=25, requires_grad=True)\n'
        'tries(lambda: torch.sin_(a), lambda: torch.sin_(a.detach().clone()),\n'
        '      lambda: torch.relu_(torch.tensor([-1., 2.])), lambda: torch.clamp_(torch.tensor([-1., 2.]), min=0.5),\n'
        '      lambda: torch.zero_(torch.ones(2)), lambda: torch.exp_(torch.zeros(2)))\n'),
    'factory_without_size': TRIES + (
        'tries(lambda: torch.rand(), lambda: torch.randn(), lambda: torch.zeros(), lambda: torch.ones(),\n'
        '      lambda: torch.empty(), lambda: torch.rand(dtype=torch.float64), lambda: torch.zeros(size=(2,)))\n'),
}


@pytest.mark.parametrize("name", SNIPPETS)
def test_snippet(name):
    t, e = run_both(T, E, SNIPPETS[name])
    assert same(t, e)
    assert t.error is None
