"""More of Dive into Deep Learning (d2l.ai, 动手学深度学习) against real PyTorch: file I/O with torch.save /
torch.load through an in-memory io.BytesIO buffer (builders' guide), batch normalization concise and inside LeNet
(nn.BatchNorm1d / nn.BatchNorm2d, F.batch_norm: NativeBatchNormBackward0, running statistics, eval mode), and the
gradient clipping of the RNN chapters (torch.nn.utils.clip_grad_norm_, clip_grad_value_). Synthetic data after
torch.manual_seed, so the random values compare."""
import pytest

T = pytest.importorskip("torch", reason="differential tests need real PyTorch (pip install torch==2.13.0)")
from .harness import load_engine, run_both  # noqa: E402

E = load_engine()

SNIPPETS = {
    'file_io_save_load': (
        'import io\n'
        'nn = torch.nn; F = torch.nn.functional\n'
        'torch.manual_seed(1)\n'
        'x = torch.arange(4)\n'
        'buf = io.BytesIO(); torch.save(x, buf); buf.seek(0)\n'
        'print(torch.load(buf))\n'
        'y = torch.zeros(4)\n'
        'buf = io.BytesIO(); torch.save([x, y], buf); buf.seek(0)\n'
        'x2, y2 = torch.load(buf)\n'
        'print(x2, y2)\n'
        'buf = io.BytesIO(); torch.save({"x": x, "y": y}, buf); buf.seek(0)\n'
        'print(torch.load(buf))\n'
        'net = nn.Sequential(nn.Linear(20, 256), nn.ReLU(), nn.Linear(256, 10))\n'
        'X = torch.randn(size=(2, 20))\n'
        'Y = net(X)\n'
        'buf = io.BytesIO(); torch.save(net.state_dict(), buf); buf.seek(0)\n'
        'clone = nn.Sequential(nn.Linear(20, 256), nn.ReLU(), nn.Linear(256, 10))\n'
        'print(clone.load_state_dict(torch.load(buf)))\n'
        'print(clone.eval())\n'
        'print(clone(X) == Y)\n'
        'v = torch.arange(4.)\n'
        'buf = io.BytesIO()\n'
        'torch.save([v, v, v[1:], torch.tensor(3., requires_grad=True), nn.Parameter(torch.ones(1)),\n'
        '            {"a": 1.5, "b": torch.float32, "s": v.shape}], buf); buf.seek(0)\n'
        'l = torch.load(buf)\n'
        'print(l, l[0] is l[1], type(l[4]))\n'
        'buf = io.BytesIO(); torch.save(nn.Linear(2, 3), buf); buf.seek(0)\n'
        'try:\n'
        '    torch.load(buf)\n'
        'except Exception as e:\n'
        '    print(type(e).__name__, e)\n'
        'buf.seek(0)\n'
        'm = torch.load(buf, weights_only=False)\n'
        'print(m, m.weight.shape)\n'),
    'batch_norm_concise': (
        'nn = torch.nn; F = torch.nn.functional\n'
        'torch.manual_seed(0)\n'
        'bn = nn.BatchNorm1d(3)\n'
        'print(bn, nn.BatchNorm2d(6), nn.BatchNorm1d(4, affine=False, momentum=None))\n'
        'print(bn.state_dict())\n'
        'x = torch.randn(4, 3, requires_grad=True)\n'
        'y = bn(x)\n'
        'g = y.grad_fn\n'
        'print(y, g, len(g.next_functions))\n'
        'for n in sorted(a for a in dir(g) if a.startswith("_saved_")):\n'
        '    print(n, getattr(g, n))\n'
        'y.pow(3).sum().backward()\n'
        'print(x.grad, bn.weight.grad)\n'
        'print(bn.running_mean, bn.running_var, bn.num_batches_tracked)\n'
        'bn.eval()\n'
        'y = bn(x)\n'
        'g = y.grad_fn\n'
        'for n in sorted(a for a in dir(g) if a.startswith("_saved_")):\n'
        '    print(n, getattr(g, n))\n'
        'x.grad = None\n'
        'y.pow(3).sum().backward()\n'
        'print(x.grad, bn.weight.grad)\n'
        'print(nn.BatchNorm1d(3, momentum=None, affine=False)(x), F.batch_norm(x, None, None, training=True))\n'
        'print(nn.BatchNorm2d(2)(torch.randn(2, 2, 2, 2)))\n'
        'bn = nn.BatchNorm1d(2, momentum=None)\n'
        'for i in range(3):\n'
        '    bn(torch.randn(5, 2, 3))\n'
        'print(bn.running_mean, bn.running_var, bn.num_batches_tracked)\n'
        'for f in [lambda: nn.BatchNorm1d(3)(torch.ones(1, 3)), lambda: nn.BatchNorm2d(3)(torch.ones(2, 3)),\n'
        '          lambda: nn.BatchNorm1d(3)(torch.ones(2, 4)), lambda: nn.BatchNorm1d(3)(torch.ones(2, 3, 4, 5))]:\n'
        '    try:\n'
        '        print(f())\n'
        '    except Exception as e:\n'
        '        print(type(e).__name__, e)\n'),
    'batch_norm_lenet': (
        'nn = torch.nn\n'
        'torch.manual_seed(0)\n'
        'net = nn.Sequential(\n'
        '    nn.Conv2d(1, 6, kernel_size=5), nn.BatchNorm2d(6), nn.Sigmoid(),\n'
        '    nn.AvgPool2d(kernel_size=2, stride=2),\n'
        '    nn.Conv2d(6, 16, kernel_size=5), nn.BatchNorm2d(16), nn.Sigmoid(),\n'
        '    nn.AvgPool2d(kernel_size=2, stride=2), nn.Flatten(),\n'
        '    nn.Linear(256, 120), nn.BatchNorm1d(120), nn.Sigmoid(),\n'
        '    nn.Linear(120, 84), nn.BatchNorm1d(84), nn.Sigmoid(),\n'
        '    nn.Linear(84, 10))\n'
        'print(net)\n'
        'X = torch.rand(8, 1, 28, 28)\n'
        'y = torch.randint(0, 10, (8,))\n'
        'loss = nn.CrossEntropyLoss()\n'
        'trainer = torch.optim.SGD(net.parameters(), lr=1.0)\n'
        'for i in range(3):\n'
        '    l = loss(net(X), y)\n'
        '    trainer.zero_grad()\n'
        '    l.backward()\n'
        '    trainer.step()\n'
        '    print(l)\n'
        'print(net[1].weight, net[1].bias, net[1].running_mean, net[1].running_var, net[1].num_batches_tracked)\n'
        'print(net[1].weight.reshape((-1,)))\n'
        'print(list(net.state_dict())[:7])\n'
        'net.eval()\n'
        'print(net(X[:1]).argmax(1), net[10](torch.zeros(2, 120)))\n'),
    'gradient_clipping': (
        'nn = torch.nn\n'
        'torch.manual_seed(0)\n'
        'net = nn.Sequential(nn.Linear(5, 8), nn.Tanh(), nn.Linear(8, 3))\n'
        'X = torch.randn(4, 5)\n'
        'l = (net(X) ** 2).sum()\n'
        'l.backward()\n'
        'print(torch.nn.utils.clip_grad_norm_(net.parameters(), 1.0))\n'
        'print(net[2].weight.grad)\n'
        'print(torch.nn.utils.clip_grad_norm_(net.parameters(), 0.5, norm_type=1))\n'
        'torch.nn.utils.clip_grad_value_(net.parameters(), 0.01)\n'
        'print(net[2].bias.grad)\n'
        'print(torch.nn.utils.clip_grad_norm_((p for p in []), 1.0))\n'
        'print(nn.utils.parameters_to_vector(net.parameters()).shape)\n'
        'def grad_clipping(net, theta):\n'
        '    params = [p for p in net.parameters() if p.requires_grad]\n'
        '    norm = torch.sqrt(sum(torch.sum((p.grad ** 2)) for p in params))\n'
        '    if norm > theta:\n'
        '        for param in params:\n'
        '            param.grad[:] *= theta / norm\n'
        '    return norm\n'
        'print(grad_clipping(net, 0.02), net[0].bias.grad)\n'),
}


@pytest.mark.parametrize("name", SNIPPETS)
def test_snippet(name):
    t, e = run_both(T, E, SNIPPETS[name])
    assert e.summary() == t.summary()
    assert t.error is None
