"""Convolution and pooling against real PyTorch: the 60-minute blitz's LeNet (print(net), its parameters, forward,
backward, MSELoss's grad_fn chain, SGD), Dive into Deep Learning's convolution chapter (learning an edge kernel,
padding and stride, multiple channels, pooling, LeNet's shapes), what ConvolutionBackward0 and the pools' nodes save,
the modules' reprs, the shape errors, and gradients (allclose: float32 convolutions differ from oneDNN's in the last
bits, so snippets print at PyTorch's 4 decimals). Weights are set with copy_ where values print: the engine's random
numbers are not PyTorch's."""
import numpy as np
import pytest

T = pytest.importorskip("torch", reason="differential tests need real PyTorch (pip install torch==2.13.0)")
from .harness import SHOW, load_engine, run_both, same  # noqa: E402

E = load_engine()

PRELUDE = "import warnings\nnn = torch.nn\nF = torch.nn.functional\n" + SHOW

LENET = (
    "class Net(nn.Module):\n"
    "    def __init__(self):\n"
    "        super(Net, self).__init__()\n"
    "        self.conv1 = nn.Conv2d(1, 6, 5)\n"
    "        self.conv2 = nn.Conv2d(6, 16, 5)\n"
    "        self.fc1 = nn.Linear(16 * 5 * 5, 120)\n"
    "        self.fc2 = nn.Linear(120, 84)\n"
    "        self.fc3 = nn.Linear(84, 10)\n"
    "    def forward(self, x):\n"
    "        x = F.max_pool2d(F.relu(self.conv1(x)), (2, 2))\n"
    "        x = F.max_pool2d(F.relu(self.conv2(x)), 2)\n"
    "        x = torch.flatten(x, 1)\n"
    "        x = F.relu(self.fc1(x))\n"
    "        x = F.relu(self.fc2(x))\n"
    "        x = self.fc3(x)\n"
    "        return x\n"
    "net = Net()\n"
    "with torch.no_grad():\n"
    "    for i, p in enumerate(net.parameters()):\n"
    "        fan_in = p[0].numel() if p.dim() > 1 else p.numel()\n"
    "        p.copy_(((torch.arange(p.numel()) * 0.7548776662 + i / 7) % 1 - 0.5).view(p.shape) * 2 / fan_in ** 0.5)\n"
    "input = ((torch.arange(1024.) * 7 % 23) / 23 - 0.4).view(1, 1, 32, 32)\n"
    "target = torch.linspace(-1, 1, 10).view(1, -1)\n"
    "criterion = nn.MSELoss()\n")

CORR2D = (
    "def corr2d(X, K):\n"
    "    h, w = K.shape\n"
    "    Y = torch.zeros((X.shape[0] - h + 1, X.shape[1] - w + 1))\n"
    "    for i in range(Y.shape[0]):\n"
    "        for j in range(Y.shape[1]):\n"
    "            Y[i, j] = (X[i:i + h, j:j + w] * K).sum()\n"
    "    return Y\n")

SNIPPETS = {
    # ---- the blitz: define the network, its parameters
    "blitz_define": (
        LENET +
        "print(net)\n"
        "params = list(net.parameters())\n"
        "print(len(params))\n"
        "print(params[0].size())\n"
        "print([tuple(p.shape) for p in params])\n"
        "print([n for n, _ in net.named_parameters()])\n"
        "torch.manual_seed(0)\n"
        "out = net(torch.randn(1, 1, 32, 32))\n"
        "print(out.shape, out.grad_fn)\n"),
    "blitz_forward_backward": (
        LENET +
        "out = net(input)\n"
        "print(out)\n"
        "net.zero_grad()\n"
        "out.backward(torch.arange(1., 11.).view(1, 10) / 10)\n"
        "print(net.conv1.bias.grad)\n"
        "print(net.conv2.bias.grad)\n"
        "print(net.conv1.weight.grad[0])\n"),
    "blitz_loss": (
        LENET +
        "output = net(input)\n"
        "loss = criterion(output, target)\n"
        "print(loss)\n"
        "print(loss.grad_fn)  # MSELoss\n"
        "print(loss.grad_fn.next_functions[0][0])  # Linear\n"
        "print(loss.grad_fn.next_functions[0][0].next_functions[0][0])  # ReLU\n"
        "net.zero_grad()\n"
        "print('conv1.bias.grad before backward')\n"
        "print(net.conv1.bias.grad)\n"
        "loss.backward()\n"
        "print('conv1.bias.grad after backward')\n"
        "print(net.conv1.bias.grad)\n"
        "learning_rate = 0.01\n"
        "for f in net.parameters():\n"
        "    f.data.sub_(f.grad.data * learning_rate)\n"
        "print(criterion(net(input), target))\n"),
    "blitz_sgd": (
        LENET +
        "optimizer = torch.optim.SGD(net.parameters(), lr=0.01)\n"
        "for i in range(4):\n"
        "    optimizer.zero_grad()\n"
        "    output = net(input)\n"
        "    loss = criterion(output, target)\n"
        "    loss.backward()\n"
        "    optimizer.step()\n"
        "    print(i, loss)\n"
        "print(net.conv1.bias)\n"),
    # ---- d2l 6.2: cross-correlation, an edge detector, learning the kernel
    "d2l_learn_edge_kernel": (
        CORR2D +
        "X = torch.tensor([[0.0, 1.0, 2.0], [3.0, 4.0, 5.0], [6.0, 7.0, 8.0]])\n"
        "K = torch.tensor([[0.0, 1.0], [2.0, 3.0]])\n"
        "print(corr2d(X, K), F.conv2d(X.reshape(1, 1, 3, 3), K.reshape(1, 1, 2, 2)))\n"
        "X = torch.ones((6, 8))\nX[:, 2:6] = 0\nprint(X)\n"
        "K = torch.tensor([[1.0, -1.0]])\n"
        "Y = corr2d(X, K)\nprint(Y)\nprint(corr2d(X.t(), K))\n"
        "conv2d = nn.Conv2d(1, 1, kernel_size=(1, 2), bias=False)\n"
        "print(conv2d, conv2d.weight.shape)\n"
        "with torch.no_grad():\n    conv2d.weight.copy_(torch.tensor([[[[0.3, -0.7]]]]))\n"
        "X = X.reshape((1, 1, 6, 8))\n"
        "Y = Y.reshape((1, 1, 6, 7))\n"
        "lr = 3e-2\n"
        "for i in range(10):\n"
        "    Y_hat = conv2d(X)\n"
        "    l = (Y_hat - Y) ** 2\n"
        "    conv2d.zero_grad()\n"
        "    l.sum().backward()\n"
        "    conv2d.weight.data[:] -= lr * conv2d.weight.grad\n"
        "    if (i + 1) % 2 == 0:\n"
        "        print(f'epoch {i + 1}, loss {l.sum():.3f}')\n"
        "print(conv2d.weight.data.reshape((1, 2)))\n"
        "print(Y_hat.grad_fn, conv2d.weight.grad)\n"),
    # ---- d2l 6.3: padding and stride (shapes)
    "d2l_padding_stride": (
        "def comp_conv2d(conv2d, X):\n"
        "    X = X.reshape((1, 1) + X.shape)\n"
        "    Y = conv2d(X)\n"
        "    return Y.reshape(Y.shape[2:])\n"
        "X = torch.rand(size=(8, 8))\n"
        "for conv2d in [nn.Conv2d(1, 1, kernel_size=3, padding=1), nn.Conv2d(1, 1, kernel_size=(5, 3), padding=(2, 1)),\n"
        "               nn.Conv2d(1, 1, kernel_size=3, padding=1, stride=2),\n"
        "               nn.Conv2d(1, 1, kernel_size=(3, 5), padding=(0, 1), stride=(3, 4)),\n"
        "               nn.Conv2d(1, 1, 3, padding='same'), nn.Conv2d(1, 1, 4, padding='same'),\n"
        "               nn.Conv2d(1, 1, 3, padding='valid', dilation=2)]:\n"
        "    with warnings.catch_warnings():\n"
        "        warnings.simplefilter('ignore')  # (PyTorch warns of an even kernel with 'same' once per process)\n"
        "        print(conv2d, comp_conv2d(conv2d, X).shape)\n"
        "x = torch.arange(25.).view(1, 1, 5, 5)\n"
        "w = torch.tensor([[[[1., 0., -1.], [2., 0., -2.], [1., 0., -1.]]]])\n"
        "for kw in [{}, {'padding': 1}, {'stride': 2}, {'padding': (1, 2), 'stride': (2, 3)}, {'dilation': 2},\n"
        "           {'padding': 'same'}, {'padding': 'valid'}, {'padding': 2, 'dilation': (2, 1), 'stride': (1, 2)}]:\n"
        "    print(kw, F.conv2d(x, w, torch.tensor([0.5]), **kw))\n"
        "with warnings.catch_warnings():\n"
        "    warnings.simplefilter('ignore')\n"
        "    print(F.conv2d(x, w[:, :, :2, :2], padding='same'))\n"),
    # ---- d2l 6.4: multiple input and output channels
    "d2l_multi_channel": (
        CORR2D +
        "def corr2d_multi_in(X, K):\n"
        "    return sum(corr2d(x, k) for x, k in zip(X, K))\n"
        "def corr2d_multi_in_out(X, K):\n"
        "    return torch.stack([corr2d_multi_in(X, k) for k in K], 0)\n"
        "def corr2d_multi_in_out_1x1(X, K):\n"
        "    c_i, h, w = X.shape\n"
        "    c_o = K.shape[0]\n"
        "    X = X.reshape((c_i, h * w))\n"
        "    K = K.reshape((c_o, c_i))\n"
        "    Y = torch.matmul(K, X)\n"
        "    return Y.reshape((c_o, h, w))\n"
        "X = torch.tensor([[[0.0, 1.0, 2.0], [3.0, 4.0, 5.0], [6.0, 7.0, 8.0]],\n"
        "                  [[1.0, 2.0, 3.0], [4.0, 5.0, 6.0], [7.0, 8.0, 9.0]]])\n"
        "K = torch.tensor([[[0.0, 1.0], [2.0, 3.0]], [[1.0, 2.0], [3.0, 4.0]]])\n"
        "print(corr2d_multi_in(X, K))\n"
        "K = torch.stack((K, K + 1, K + 2), 0)\nprint(K.shape)\n"
        "print(corr2d_multi_in_out(X, K))\n"
        "print(F.conv2d(X, K), F.conv2d(X.unsqueeze(0), K).shape)\n"
        "X = (torch.arange(27.) % 5 / 5).reshape(3, 3, 3)\nK = (torch.arange(6.) / 7).reshape(2, 3, 1, 1)\n"
        "print(corr2d_multi_in_out_1x1(X, K), F.conv2d(X, K))\n"
        "print(F.conv2d(torch.arange(32.).view(1, 4, 2, 4), torch.arange(18.).view(6, 2, 1, 3) / 9, groups=2))\n"),
    # ---- d2l 6.5: pooling
    "d2l_pooling": (
        "def pool2d(X, pool_size, mode='max'):\n"
        "    p_h, p_w = pool_size\n"
        "    Y = torch.zeros((X.shape[0] - p_h + 1, X.shape[1] - p_w + 1))\n"
        "    for i in range(Y.shape[0]):\n"
        "        for j in range(Y.shape[1]):\n"
        "            if mode == 'max':\n"
        "                Y[i, j] = X[i: i + p_h, j: j + p_w].max()\n"
        "            elif mode == 'avg':\n"
        "                Y[i, j] = X[i: i + p_h, j: j + p_w].mean()\n"
        "    return Y\n"
        "X = torch.tensor([[0.0, 1.0, 2.0], [3.0, 4.0, 5.0], [6.0, 7.0, 8.0]])\n"
        "print(pool2d(X, (2, 2)), pool2d(X, (2, 2), 'avg'))\n"
        "print(F.max_pool2d(X[None], 2, 1), F.avg_pool2d(X[None], 2, 1))\n"
        "X = torch.arange(16, dtype=torch.float32).reshape((1, 1, 4, 4))\n"
        "print(X)\n"
        "pool2d = nn.MaxPool2d(3)\nprint(pool2d, pool2d(X))\n"
        "pool2d = nn.MaxPool2d(3, padding=1, stride=2)\nprint(pool2d, pool2d(X))\n"
        "pool2d = nn.MaxPool2d((2, 3), stride=(2, 3), padding=(0, 1))\nprint(pool2d, pool2d(X))\n"
        "X = torch.cat((X, X + 1), 1)\nprint(X)\n"
        "pool2d = nn.MaxPool2d(3, padding=1, stride=2)\nprint(pool2d(X))\n"
        "for p in [nn.AvgPool2d(2), nn.AvgPool2d(3, padding=1, stride=2), nn.AvgPool2d(3, 2, 1, count_include_pad=False),\n"
        "          nn.AvgPool2d(3, 2, 1, ceil_mode=True), nn.AvgPool2d((2, 3), divisor_override=2),\n"
        "          nn.MaxPool2d(3, 2, ceil_mode=True), nn.MaxPool2d(2, 1, dilation=2),\n"
        "          nn.MaxPool1d(2), nn.MaxPool1d(3, 2, 1), nn.AvgPool1d(3), nn.AvgPool1d(2, 1, 1, True, False)]:\n"
        "    print(p, p(X if '2d' in repr(p) else X[0]))\n"
        "print(nn.MaxPool2d(2, return_indices=True)(X))\n"
        "print(F.max_pool1d(torch.tensor([[1., 5., 2., 4., 3.]]), 2, return_indices=True))\n"
        "print(F.avg_pool2d(torch.tensor([[[1, 2], [4, 7]]]), 2), F.max_pool2d(torch.tensor([[[1, 2], [4, 7]]]), 2))\n"
        "nan = float('nan')\n"
        "print(F.max_pool2d(torch.tensor([[[1., nan, 3.], [nan, 5., 6.], [7., 8., 9.]]]), 2, 1, return_indices=True))\n"
        "print(F.max_pool2d(torch.full((1, 2, 2), -float('inf')), 2, 1, 1, return_indices=True))\n"),
    # ---- d2l 6.6: LeNet as a Sequential, its shapes
    "d2l_lenet_shapes": (
        "net = nn.Sequential(\n"
        "    nn.Conv2d(1, 6, kernel_size=5, padding=2), nn.Sigmoid(),\n"
        "    nn.AvgPool2d(kernel_size=2, stride=2),\n"
        "    nn.Conv2d(6, 16, kernel_size=5), nn.Sigmoid(),\n"
        "    nn.AvgPool2d(kernel_size=2, stride=2),\n"
        "    nn.Flatten(),\n"
        "    nn.Linear(16 * 5 * 5, 120), nn.Sigmoid(),\n"
        "    nn.Linear(120, 84), nn.Sigmoid(),\n"
        "    nn.Linear(84, 10))\n"
        "print(net)\n"
        "X = torch.rand(size=(1, 1, 28, 28), dtype=torch.float32)\n"
        "for layer in net:\n"
        "    X = layer(X)\n"
        "    print(layer.__class__.__name__, 'output shape: \\t', X.shape)\n"
        "def init_weights(m):\n"
        "    if type(m) == nn.Linear or type(m) == nn.Conv2d:\n"
        "        nn.init.xavier_uniform_(m.weight)\n"
        "net.apply(init_weights)\n"
        "print(type(net[0]), isinstance(net[0], nn.Module), net[0].weight.shape, net[0].bias.shape)\n"
        "print(net[0].kernel_size, net[0].stride, net[0].padding, net[0].dilation, net[0].groups, net[0].in_channels,\n"
        "      net[0].out_channels, net[0].padding_mode, net[2].kernel_size, net[2].stride)\n"
        "print(list(net[0].state_dict()), list(net[2].state_dict()))\n"),
    # ---- what the nodes save
    "saved_attributes": (
        "x = (torch.arange(64.) / 10).view(1, 1, 8, 8).requires_grad_()\n"
        "w = (torch.arange(18.) / 9 - 1).view(2, 1, 3, 3).requires_grad_()\n"
        "b = torch.tensor([0.5, -0.5], requires_grad=True)\n"
        "show(F.conv2d(x, w, b))\n"
        "show(F.conv2d(x, w, stride=2, padding=(1, 2), dilation=2))\n"
        "show(F.conv2d(x, w, b, stride=(2,), padding=[1]))\n"
        "show(F.conv2d(x, w, padding='same'))\n"
        "show(F.conv2d(x, w, padding='valid'))\n"
        "show(F.conv2d(x[0], w, b))\n"
        "x1 = (torch.arange(16.) / 4).view(1, 2, 8).requires_grad_()\n"
        "w1 = (torch.arange(12.) / 6 - 1).view(2, 2, 3).requires_grad_()\n"
        "with warnings.catch_warnings():\n"
        "    warnings.simplefilter('ignore')\n"
        "    show(F.conv2d(x, w[:, :, :2, :], padding='same'))\n"
        "    show(F.conv1d(x1, w1[:, :, :2], padding='same'))\n"
        "show(F.conv1d(x1, w1, b))\n"
        "show(F.conv1d(x1[0], w1, None, stride=2, padding=1))\n"
        "show(F.max_pool2d(x, 2))\n"
        "show(F.max_pool2d(x, (3,), stride=(2,), padding=1, dilation=2))\n"
        "show(F.max_pool2d(x, 3, stride=2, padding=1, ceil_mode=True))\n"
        "show(F.max_pool2d(x[0], [2, 2]))\n"
        "show(F.avg_pool2d(x, 2))\n"
        "show(F.avg_pool2d(x, 3, 2, 1, True, False, 2))\n"
        "show(F.max_pool1d(x1, 2))\n"
        "show(F.max_pool1d(x1[0], 3, 2, 1, ceil_mode=True))\n"
        "show(F.avg_pool1d(x1, 2))\n"
        "show(torch.max_pool1d(x1, 2))\n"
        "show(torch.conv2d(x, w))\n"
        "y, i = torch.max_pool1d_with_indices(x1, 2)\nshow(y)\nprint(i)\n"
        "y, i = F.max_pool2d(x, 2, return_indices=True)\nprint(y.grad_fn._saved_result1, i.dtype)\n"
        "def walk(f, d=0):\n"
        "    if f is not None:\n"
        "        print(' ' * d + f.name())\n"
        "        for n, _ in f.next_functions:\n            walk(n, d + 1)\n"
        "walk(F.conv2d(x[0], w, b).grad_fn)\nwalk(F.avg_pool1d(x1[0], 2).grad_fn)\n"),
    # ---- gradients with printed values (exact arithmetic: small integers)
    "gradients_printed": (
        "x = torch.arange(25.).view(1, 1, 5, 5).requires_grad_()\n"
        "w = torch.tensor([[[[1., 0., -1.], [2., 0., -2.], [1., 0., -1.]]], [[[0., 1., 0.], [1., -4., 1.], [0., 1., 0.]]]],\n"
        "                 requires_grad=True)\n"
        "b = torch.tensor([1., -1.], requires_grad=True)\n"
        "for kw in [{}, {'padding': 1}, {'stride': 2, 'padding': 1}, {'dilation': 2}, {'padding': 'same'}]:\n"
        "    for t in (x, w, b):\n        t.grad = None\n"
        "    y = F.conv2d(x, w, b, **kw)\n"
        "    y.backward(torch.arange(float(y.numel())).view(y.shape) % 3)\n"
        "    print(kw, y, x.grad, w.grad, b.grad)\n"
        "x.grad = None\n"
        "F.conv2d(x, w[:1], groups=1, stride=(2, 1)).sum().backward()\nprint(x.grad)\n"
        "x2 = torch.arange(32.).view(1, 2, 4, 4).requires_grad_()\n"
        "w2 = torch.tensor([[[[1., 2.], [3., 4.]]], [[[-1., 0.], [0., 1.]]]], requires_grad=True)\n"
        "F.conv2d(x2, w2, groups=2).sum().backward()\nprint(x2.grad, w2.grad)\n"
        "for f in [lambda t: F.max_pool2d(t, 2), lambda t: F.max_pool2d(t, 3, 1, 1), lambda t: F.avg_pool2d(t, 2),\n"
        "          lambda t: F.avg_pool2d(t, 3, 2, 1), lambda t: F.avg_pool2d(t, 3, 2, 1, True, False),\n"
        "          lambda t: F.max_pool1d(t.view(1, 5, 5), 2, 1), lambda t: F.avg_pool1d(t.view(5, 5), 2, ceil_mode=True)]:\n"
        "    x.grad = None\n"
        "    y = f(x)\n"
        "    y.backward(torch.ones_like(y))\n"
        "    print(y, x.grad)\n"
        "k = torch.ones(1, 1, 2, 2, requires_grad=True)\n"
        "y = F.max_pool2d(F.conv2d(torch.ones(1, 1, 4, 4), k), 3)\n"
        "print(torch.autograd.grad(y.sum(), k))\n"),
    # ---- reprs and attributes of the modules
    "module_reprs": (
        "for m in [nn.Conv2d(1, 6, 5), nn.Conv2d(1, 1, kernel_size=(1, 2), bias=False),\n"
        "          nn.Conv2d(2, 4, 3, padding=1, stride=2, dilation=2, groups=2), nn.Conv2d(2, 2, 3, padding='same'),\n"
        "          nn.Conv2d(2, 2, 3, padding='valid'), nn.Conv2d(1, 1, (3, 5), stride=(1, 2), padding=(1, 0)),\n"
        "          nn.Conv1d(2, 3, 4), nn.Conv1d(4, 2, 3, stride=2, padding=1, groups=2, bias=False),\n"
        "          nn.Conv2d(1, 1, 3, padding_mode='reflect'),\n"
        "          nn.MaxPool2d(2), nn.MaxPool2d(3, padding=1, stride=2), nn.MaxPool2d((2, 2)), nn.MaxPool2d(2, 1),\n"
        "          nn.MaxPool2d(2, return_indices=True, ceil_mode=True), nn.AvgPool2d(2), nn.AvgPool2d(3, padding=1, stride=2),\n"
        "          nn.AvgPool2d((2, 3), count_include_pad=False), nn.MaxPool1d(2), nn.MaxPool1d(3, 1, 1, 2),\n"
        "          nn.AvgPool1d(2), nn.AvgPool1d(3, 2, 1)]:\n"
        "    print(m, type(m))\n"
        "print(nn.Sequential(nn.Conv2d(3, 8, 3), nn.ReLU(), nn.MaxPool2d(2)))\n"
        "c = nn.Conv2d(2, 4, 3, groups=2)\n"
        "print(c.weight.shape, c.bias.shape, c.weight.requires_grad, type(c.weight), c.output_padding, c.transposed)\n"
        "c = nn.Conv1d(3, 6, 5)\nprint(c.weight.shape, c.kernel_size, c.stride, c.padding, c.dilation)\n"
        "print(nn.MaxPool1d(2).stride, nn.AvgPool1d(2).stride, nn.AvgPool2d(2).stride, nn.MaxPool2d(2, 3).stride)\n"
        "torch.manual_seed(0)\n"
        "c = nn.Conv2d(1, 6, 5)\n"
        "print(c.weight.abs().max() <= 0.2, c.bias.abs().max() <= 0.2, c.weight.std() > 0.05)\n"),
    # ---- errors
    "errors": (
        "c = nn.Conv2d(1, 6, 5)\n"
        "tries(lambda: c(torch.randn(1, 3, 32, 32)), lambda: c(torch.randn(1, 1, 4, 4)), lambda: c(torch.randn(3, 32, 32)),\n"
        "      lambda: c(torch.randn(32, 32)), lambda: c(torch.randn(1, 1, 1, 32, 32)),\n"
        "      lambda: F.conv2d(torch.ones(1, 1, 5, 5), torch.ones(1, 1, 3, 3), stride=0),\n"
        "      lambda: F.conv2d(torch.ones(1, 1, 5, 5), torch.ones(1, 1, 3, 3), padding=-1),\n"
        "      lambda: F.conv2d(torch.ones(1, 1, 5, 5), torch.ones(1, 1, 3, 3), padding='same', stride=2),\n"
        "      lambda: F.conv2d(torch.ones(1, 1, 5, 5), torch.ones(1, 1, 3, 3), padding='foo'),\n"
        "      lambda: F.conv2d(torch.ones(1, 1, 5, 5), torch.ones(1, 1, 3, 3), torch.ones(2)),\n"
        "      lambda: F.conv2d(torch.ones(1, 4, 5, 5), torch.ones(2, 2, 3, 3), groups=3),\n"
        "      lambda: F.conv2d(torch.ones(1, 4, 5, 5), torch.ones(3, 2, 3, 3), groups=2),\n"
        "      lambda: F.conv2d(torch.ones(1, 4, 5, 5), torch.ones(2, 3, 3, 3), groups=2),\n"
        "      lambda: F.conv2d(torch.ones(1, 1, 5, 5), torch.ones(1, 1, 3)),\n"
        "      lambda: F.conv2d(torch.ones(1, 1, 5, 5), torch.ones(1, 1, 3, 3, dtype=torch.float64)),\n"
        "      lambda: F.conv2d(torch.ones(1, 1, 5, 5, dtype=torch.float64), torch.ones(1, 1, 3, 3)),\n"
        "      lambda: F.conv2d(torch.ones(1, 1, 5, 5), torch.ones(1, 1, 3, 3), torch.ones(1, dtype=torch.float64)),\n"
        "      lambda: F.conv2d(torch.ones(1, 1, 5, 5, dtype=torch.int64), torch.ones(1, 1, 3, 3, dtype=torch.int64)),\n"
        "      lambda: F.conv2d(torch.ones(1, 1, 5, 5), torch.ones(1, 1, 3, 3), stride=(1, 1, 1)),\n"
        "      lambda: F.conv2d(torch.ones(1, 1, 5, 5), torch.ones(1, 1, 3, 3), padding=(1, 2, 3)),\n"
        "      lambda: F.conv1d(torch.ones(1, 1, 5, 5), torch.ones(1, 1, 3)),\n"
        "      lambda: F.conv1d(torch.ones(1, 2, 5), torch.ones(1, 1, 3)),\n"
        "      lambda: F.conv2d(torch.ones(1, 1, 5, 5), torch.ones(1, 1, 3, 3), dilation=0),\n"
        "      lambda: F.conv2d(torch.ones(0, 1, 5, 5), torch.ones(1, 1, 3, 3)).shape,\n"
        "      lambda: F.conv2d(torch.ones(1, 1, 5, 5), torch.ones(1, 1, 3, 3), groups=0),\n"
        "      lambda: F.conv2d([1.], torch.ones(1, 1, 3, 3)), lambda: F.conv2d(torch.ones(1, 1, 4, 4), [1.]),\n"
        "      lambda: F.conv2d(torch.ones(1, 1, 4, 4), torch.ones(1, 1, 3, 3), stride='a'),\n"
        "      lambda: F.conv2d(torch.ones(1, 1, 4, 4), torch.ones(1, 1, 3, 3), padding=1.5),\n"
        "      lambda: nn.Conv2d(1, 6, 5, padding='same', stride=2), lambda: nn.Conv2d(4, 6, 5, groups=3),\n"
        "      lambda: nn.Conv2d(3, 4, 5, groups=3), lambda: nn.Conv2d(3, 6, 5, groups=0),\n"
        "      lambda: nn.Conv2d(1, 6, 5, padding='foo'))\n"
        "x = torch.ones(1, 1, 4, 4)\n"
        "tries(lambda: F.max_pool2d(x, 5), lambda: F.max_pool2d(x, 3, padding=2), lambda: F.max_pool2d(torch.ones(4, 4), 2),\n"
        "      lambda: F.max_pool2d(torch.ones(4), 2), lambda: F.max_pool2d(x, 0), lambda: F.max_pool2d(x, 2, stride=0),\n"
        "      lambda: F.max_pool2d(x, 2, dilation=0), lambda: F.max_pool2d(x, 2, 1, -1), lambda: F.max_pool2d(x, 2.5),\n"
        "      lambda: F.max_pool2d([1.], 2), lambda: F.max_pool2d(x, (2, 2, 2)), lambda: F.max_pool2d(x, 2, 2, (1, 1, 1)),\n"
        "      lambda: F.max_pool2d(torch.ones(1, 1, 0, 4), 2), lambda: F.max_pool2d(x, 2, 1, 0, 3),\n"
        "      lambda: F.avg_pool2d(x, 5), lambda: F.avg_pool2d(x, 3, padding=2), lambda: F.avg_pool2d(torch.ones(4, 4), 2),\n"
        "      lambda: F.avg_pool2d(x, 0), lambda: F.avg_pool2d(x, 2, stride=0), lambda: F.avg_pool2d(x, 2, divisor_override=0),\n"
        "      lambda: F.avg_pool2d(x, 2.5), lambda: F.avg_pool2d(x, (1, 2, 3)),\n"
        "      lambda: F.max_pool1d(torch.ones(1, 1, 4), 5), lambda: F.max_pool1d(torch.ones(4), 2),\n"
        "      lambda: F.max_pool1d(torch.ones(1, 1, 4, requires_grad=True), 5),\n"
        "      lambda: F.max_pool1d(torch.ones(1, 1, 4), 5, return_indices=True),\n"
        "      lambda: F.max_pool1d(torch.ones(4), 2, return_indices=True), lambda: F.max_pool1d(torch.ones(1, 4), 3, padding=2),\n"
        "      lambda: F.max_pool1d(torch.ones(1, 4), 0), lambda: F.max_pool1d(torch.ones(1, 4), (2, 2)),\n"
        "      lambda: F.avg_pool1d(torch.ones(1, 1, 4), 5), lambda: F.avg_pool1d(torch.ones(4), 2),\n"
        "      lambda: F.avg_pool1d(torch.ones(1, 4), (2, 2)))\n"),
}


@pytest.mark.parametrize("name", SNIPPETS)
def test_snippet(name):
    """Printed text, warnings and the final error are identical (addresses and C++ locations blanked)."""
    code = PRELUDE + SNIPPETS[name]
    t, e = run_both(T, E, code)
    assert same(t, e), f"\n{code}\n--- torch\n{t.summary()}--- engine\n{e.summary()}"


def _run(lib, name, arrays, kw):
    """`name`'s result and the gradients of (result * fixed weights).sum() with respect to every float input."""
    ts = [None if a is None else lib.tensor(a, requires_grad=True) for a in arrays]
    y = getattr(lib.nn.functional, name)(*ts, **kw)
    y = y[0] if isinstance(y, tuple) else y
    g = np.cos(np.arange(y.numel())).reshape(tuple(y.shape)).astype(arrays[0].dtype)
    y.backward(lib.tensor(g))
    return [y.detach().numpy()] + [t.grad.numpy() for t in ts if t is not None]


CASES = [
    ("conv2d", [(2, 4, 7, 9), (6, 2, 3, 2), (6,)], dict(stride=(2, 1), padding=(1, 2), dilation=(1, 2), groups=2)),
    ("conv2d", [(1, 3, 8, 8), (4, 3, 3, 3), (4,)], dict(padding='same')),
    ("conv2d", [(1, 3, 8, 8), (4, 3, 2, 4), None], dict(padding='same', dilation=(1, 1))),
    ("conv2d", [(3, 8, 8), (2, 3, 5, 5), (2,)], dict(stride=3, padding=2)),
    ("conv2d", [(1, 1, 32, 32), (6, 1, 5, 5), (6,)], {}),
    ("conv1d", [(2, 4, 11), (2, 4, 3), (2,)], dict(stride=2, padding=1, dilation=2)),
    ("conv1d", [(4, 11), (4, 2, 4), None], dict(groups=2, padding='same')),
    ("max_pool2d", [(2, 3, 9, 8)], dict(kernel_size=3, stride=2, padding=1, ceil_mode=True)),
    ("max_pool2d", [(3, 9, 8)], dict(kernel_size=(2, 3), dilation=2, padding=1)),
    ("avg_pool2d", [(2, 3, 9, 8)], dict(kernel_size=3, stride=2, padding=1, ceil_mode=True, count_include_pad=False)),
    ("avg_pool2d", [(2, 3, 9, 8)], dict(kernel_size=(2, 3), stride=(1, 2), divisor_override=5)),
    ("max_pool1d", [(2, 3, 10)], dict(kernel_size=3, stride=2, padding=1, dilation=2)),
    ("avg_pool1d", [(3, 10)], dict(kernel_size=4, stride=3, padding=2, ceil_mode=True)),
]


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("case", range(len(CASES)))
def test_values_and_gradients_close(case, dtype):
    """Forward values and every gradient agree with PyTorch to float rounding (float32 sums differ in order)."""
    name, shapes, kw = CASES[case]
    rng = np.random.default_rng(case)
    arrays = [None if s is None else rng.standard_normal(s).astype(dtype) for s in shapes]
    for t, e in zip(_run(T, name, arrays, kw), _run(E, name, arrays, kw)):
        assert e.dtype == t.dtype and e.shape == t.shape
        np.testing.assert_allclose(e, t, rtol=1e-5 if dtype == np.float32 else 1e-12, atol=1e-5 if dtype == np.float32
                                   else 1e-12)
