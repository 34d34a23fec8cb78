"""Code of popular Chinese PyTorch courses (刘二大人《PyTorch深度学习实践》, 莫烦 PyTorch, 小土堆,
《动手学深度学习》) as learners write and vary it, against real PyTorch: the lecture loops with .data updates
and printed grads, old Variable / size_average APIs, typos, and BatchNorm's gradients to the last bit (its
channels-last, contiguous and generic backward paths) and the means of batch norm by hand. Printed text,
warnings and the final error must be the same."""
import pytest

T = pytest.importorskip("torch", reason="differential tests need real PyTorch (pip install torch==2.13.0)")
from .harness import TRIES, load_engine, run_both, same  # noqa: E402

E = load_engine()

SNIPPETS = {
    # BatchNorm1d on (N, C) rows (mofan's batch-normalisation lesson): the gradient of whatever comes before it sums
    # to zero per channel only up to rounding, so which sums come out exactly 0 depends on the last bits of the
    # channels-last kernel's grad_input: (dy - sum / n) - (x - mean) * k fused for the columns in whole blocks of 8,
    # the rest not
    'bn_grad_of_a_bias_before_batchnorm1d': (
        'torch.manual_seed(0)\n'
        'x = torch.randn(8, 10, requires_grad=True)\n'
        'bn = torch.nn.BatchNorm1d(10, momentum=0.5)\n'
        'y = bn(x)\n'
        'loss = (torch.tanh(y) * torch.arange(10.)).pow(2).sum()\n'
        'loss.backward()\n'
        'print(x.grad.sum(0) == 0)\n'
        'print(bn.running_mean, bn.running_var)'),
    # a batch of two rows: the channels-last kernel's variance sums the two rows' squares in one part (fused) for up
    # to 16 channels, in two parts (added in double) for more; visible in which gradients sum to exactly 0
    'bn_two_rows_and_wide_batches': (
        'torch.manual_seed(0)\n'
        'for shape in [(2, 20), (2, 12), (2, 40), (2, 64), (2, 17)]:\n'
        '    x = torch.randn(*shape, requires_grad=True)\n'
        '    bn = torch.nn.BatchNorm1d(shape[1])\n'
        '    y = bn(x)\n'
        '    (y * torch.randn(shape)).sum().backward()\n'
        '    print(shape, (x.grad.sum(0) == 0).sum().item(), (bn.weight.grad == 0).sum().item(), (y.sum(0) == 0).sum().item(), (x.grad == 0).sum().item())'),
    # y.sum().backward() through BatchNorm: the gradient arrives expanded (not contiguous), so PyTorch runs its
    # generic loops (k in float32, every step rounded), not its kernels; a contiguous (N, C, L) gradient takes the
    # contiguous kernel
    'bn_backward_of_y_sum_and_other_layouts': (
        'torch.manual_seed(0)\n'
        'x = torch.randn(4, 3, 5, requires_grad=True)\n'
        'bn = torch.nn.BatchNorm1d(3)\n'
        'y = bn(x)\n'
        'y.sum().backward()\n'
        'print(x.grad.abs().max() < 1e-6, bn.weight.grad, bn.bias.grad, (x.grad == 0).sum())\n'
        'x2 = torch.randn(6, 4, requires_grad=True)\n'
        'bn2 = torch.nn.BatchNorm1d(4)\n'
        '(bn2(x2) * torch.arange(4.)).sum().backward()\n'
        'print((x2.grad == 0).sum(), x2.grad.sum(0) == 0, bn2.weight.grad)'),
    # BatchNorm2d's contiguous kernel (its AVX2 build): per plane sums in 8 lanes, added in double per channel, (x -
    # mean) * k fused; in eval dy * invstd * w in that order
    'bn2d_gradient_per_channel_sums': (
        'torch.manual_seed(0)\n'
        'x = torch.randn(2, 3, 5, 5, requires_grad=True)\n'
        'bn = torch.nn.BatchNorm2d(3)\n'
        'y = bn(x)\n'
        'loss = (y * torch.randn(2, 3, 5, 5)).sum()\n'
        'loss.backward()\n'
        'per_channel = x.grad.transpose(0, 1).reshape(3, -1).sum(1)\n'
        'print(per_channel == 0, per_channel.abs().max() < 1e-5, x.grad.sum() == 0)\n'
        'print(bn.weight.grad, bn.bias.grad)\n'
        'bn.eval()\n'
        'x.grad = None\n'
        '(bn(x) * 2).sum().backward()\n'
        'print(x.grad[0, :, 0, 0], x.grad[0, :, 0, 0] == 2 * bn.weight / torch.sqrt(bn.running_var + bn.eps))'),
    # BatchNorm1d / 2d on (N, C), (N, C, L) and (N, C, H, W) batches, trained then in eval: .item() and .tolist()
    # print 17 digits of the sums, gradients and running variance (on a CPU of other vector paths: compared within
    # float32 rounding)
    'bn_training_and_eval_items_in_every_layout': (
        'torch.manual_seed(0)\n'
        'for shape in [(8, 10), (16, 4), (4, 3, 6), (2, 5, 3, 3), (5, 16), (3, 33)]:\n'
        '    x = torch.randn(*shape, requires_grad=True)\n'
        '    bn = torch.nn.BatchNorm1d(shape[1]) if len(shape) < 4 else torch.nn.BatchNorm2d(shape[1])\n'
        '    y = bn(x)\n'
        '    (y * torch.randn(*shape)).sum().backward()\n'
        '    print(y.sum().item(), x.grad.sum().item(), bn.weight.grad.tolist()[:3], bn.bias.grad.tolist()[:3], bn.running_var.tolist()[:3])\n'
        '    bn.eval(); x.grad = None\n'
        '    (bn(x) ** 2).sum().backward()\n'
        '    print(x.grad.sum().item(), bn.weight.grad.tolist()[:3])'),
    # 《动手学深度学习》's batch_norm from scratch: X.mean(dim=(0, 2, 3)) sums each (sample, channel) plane as a row, then the
    # planes of a channel in order (a leading and a trailing block of dims); the sign of the centred sums shows it
    'd2l_batch_norm_from_scratch_means': (
        'torch.manual_seed(0)\n'
        'X = torch.randn(4, 3, 5, 5)\n'
        'mean = X.mean(dim=(0, 2, 3), keepdim=True)\n'
        'var = ((X - mean) ** 2).mean(dim=(0, 2, 3), keepdim=True)\n'
        'print(mean.shape, var.shape)\n'
        'print(mean.flatten(), var.flatten())\n'
        'X_hat = (X - mean) / torch.sqrt(var + 1e-5)\n'
        'print(X_hat.mean(dim=(0, 2, 3)).abs() < 1e-6, torch.sign((X - mean).sum(dim=(0, 2, 3))))\n'
        'signs = 0\n'
        'for i in range(10):\n'
        '    X = torch.randn(4, 8, 6, 6) * 10\n'
        '    signs += torch.sign((X - X.mean(dim=(0, 2, 3), keepdim=True)).sum(dim=(0, 2, 3))).sum().item()\n'
        '    signs += torch.sign(X.sum(dim=(0, 2, 3)) - X.transpose(0, 1).reshape(8, -1).sum(1)).sum().item()\n'
        'print(signs)'),
    # 刘二大人 lecture 4: w = torch.Tensor([1.0]); w.requires_grad = True, the .data update and grad.data.zero_() loop,
    # printed
    'liuer_lecture4_backprop_loop': (
        'x_data = [1.0, 2.0, 3.0]\n'
        'y_data = [2.0, 4.0, 6.0]\n'
        'w = torch.Tensor([1.0])\n'
        'w.requires_grad = True\n'
        'def forward(x):\n'
        '    return x * w\n'
        'def loss(x, y):\n'
        '    y_pred = forward(x)\n'
        '    return (y_pred - y) ** 2\n'
        'print("predict (before training)", 4, forward(4).item())\n'
        'for epoch in range(10):\n'
        '    for x, y in zip(x_data, y_data):\n'
        '        l = loss(x, y)\n'
        '        l.backward()\n'
        "        print('\\tgrad:', x, y, w.grad.item())\n"
        '        w.data = w.data - 0.01 * w.grad.data\n'
        '        w.grad.data.zero_()\n'
        '    print("progress:", epoch, l.item())\n'
        'print("predict (after training)", 4, forward(4).item())\n'
        'print(w, w.grad, l, forward(4))'),
    # the same loop without w.grad.data.zero_(): gradients accumulate across samples and epochs
    'liuer_lecture4_forgetting_zero': (
        'x_data = [1.0, 2.0, 3.0]\n'
        'y_data = [2.0, 4.0, 6.0]\n'
        'w = torch.Tensor([1.0])\n'
        'w.requires_grad = True\n'
        'def forward(x):\n'
        '    return x * w\n'
        'def loss(x, y):\n'
        '    return (forward(x) - y) ** 2\n'
        'for epoch in range(5):\n'
        '    for x, y in zip(x_data, y_data):\n'
        '        l = loss(x, y)\n'
        '        l.backward()\n'
        "        print('\\tgrad:', x, y, w.grad.item(), w.grad)\n"
        '        w.data = w.data - 0.01 * w.grad.data\n'
        '    print("progress:", epoch, l.item(), l)\n'
        'print(w.data, w.grad.data, l.data, type(w.data), w.is_leaf, w.grad_fn, l.grad_fn)'),
    # lecture 5's LinearModel with MSELoss(size_average=False) (its deprecation warning, reduction 'sum'), SGD's repr,
    # y_test.data
    'liuer_lecture5_linear_model_size_average': (
        'x_data = torch.Tensor([[1.0], [2.0], [3.0]])\n'
        'y_data = torch.Tensor([[2.0], [4.0], [6.0]])\n'
        'class LinearModel(torch.nn.Module):\n'
        '    def __init__(self):\n'
        '        super(LinearModel, self).__init__()\n'
        '        self.linear = torch.nn.Linear(1, 1)\n'
        '    def forward(self, x):\n'
        '        y_pred = self.linear(x)\n'
        '        return y_pred\n'
        'model = LinearModel()\n'
        'print(model)\n'
        'criterion = torch.nn.MSELoss(size_average=False)\n'
        'print(criterion, criterion.reduction)\n'
        'optimizer = torch.optim.SGD(model.parameters(), lr=0.01)\n'
        'print(optimizer)\n'
        'for epoch in range(10):\n'
        '    y_pred = model(x_data)\n'
        '    loss = criterion(y_pred, y_data)\n'
        '    print(epoch, loss.item(), loss)\n'
        '    optimizer.zero_grad()\n'
        '    loss.backward()\n'
        '    optimizer.step()\n'
        "print('w = ', model.linear.weight.item())\n"
        "print('b = ', model.linear.bias.item())\n"
        'x_test = torch.Tensor([[4.0]])\n'
        'y_test = model(x_test)\n'
        "print('y_pred = ', y_test.data)\n"
        'print(y_test)'),
    # lecture 6: F.sigmoid, BCELoss(size_average=False), y_t.data.numpy() of a linspace batch
    'liuer_lecture6_logistic_bce': (
        'import torch.nn.functional as F\n'
        'x_data = torch.Tensor([[1.0], [2.0], [3.0]])\n'
        'y_data = torch.Tensor([[0], [0], [1]])\n'
        'class LogisticRegressionModel(torch.nn.Module):\n'
        '    def __init__(self):\n'
        '        super(LogisticRegressionModel, self).__init__()\n'
        '        self.linear = torch.nn.Linear(1, 1)\n'
        '    def forward(self, x):\n'
        '        y_pred = F.sigmoid(self.linear(x))\n'
        '        return y_pred\n'
        'model = LogisticRegressionModel()\n'
        'criterion = torch.nn.BCELoss(size_average=False)\n'
        'optimizer = torch.optim.SGD(model.parameters(), lr=0.01)\n'
        'for epoch in range(10):\n'
        '    y_pred = model(x_data)\n'
        '    loss = criterion(y_pred, y_data)\n'
        '    print(epoch, loss.item())\n'
        '    optimizer.zero_grad()\n'
        '    loss.backward()\n'
        '    optimizer.step()\n'
        'print(y_pred)\n'
        'import numpy as np\n'
        'x = np.linspace(0, 10, 5)\n'
        'x_t = torch.Tensor(x).view((5, 1))\n'
        'y_t = model(x_t)\n'
        'y = y_t.data.numpy()\n'
        'print(y, y_t)'),
    # lecture 9's CrossEntropyLoss given float, 0-d, out-of-range, one-hot, int and mismatched targets
    'liuer_lecture9_cross_entropy_mistakes': (
        'z = torch.Tensor([[0.2, 0.1, -0.1]])\n'
        'c = torch.nn.CrossEntropyLoss()\n'
        'tries(lambda: c(z, torch.Tensor([0])), lambda: c(z, torch.LongTensor(0)), lambda: c(z, torch.tensor(0)),\n'
        '      lambda: c(z, torch.LongTensor([3])), lambda: c(z, torch.LongTensor([[0]])), lambda: c(z[0], torch.tensor(0)),\n'
        '      lambda: c(z, torch.tensor([[1., 0., 0.]])), lambda: c(z, torch.IntTensor([0])), lambda: torch.nn.NLLLoss()(z, torch.LongTensor([-1])),\n'
        '      lambda: c(torch.tensor([[1, 2]]), torch.LongTensor([0])), lambda: c(z, torch.LongTensor([0, 1])))'),
    # 莫烦: Variable(tensor, requires_grad=True), v_out.backward(), variable.data.numpy(), volatile=True
    'mofan_variable_api': (
        'from torch.autograd import Variable\n'
        'import numpy as np\n'
        'tensor = torch.FloatTensor([[1,2],[3,4]])\n'
        'variable = Variable(tensor, requires_grad=True)\n'
        'print(tensor)\n'
        'print(variable)\n'
        't_out = torch.mean(tensor*tensor)\n'
        'v_out = torch.mean(variable*variable)\n'
        'print(t_out)\n'
        'print(v_out)\n'
        'v_out.backward()\n'
        'print(variable.grad)\n'
        'print(variable)\n'
        'print(variable.data)\n'
        'print(variable.data.numpy())\n'
        'tries(lambda: variable.numpy())\n'
        'print(type(variable), type(variable.data), isinstance(variable, Variable), Variable)\n'
        'v2 = torch.autograd.Variable(tensor)\n'
        'print(v2.requires_grad, v2 is tensor, v2.is_leaf, v2.grad)\n'
        'v3 = Variable(torch.ones(2), volatile=True)\n'
        'print(v3, v3.requires_grad)'),
    # 莫烦's classification: torch.normal clusters, .type(torch.LongTensor), F.softmax without dim, torch.max(out, 1)
    'mofan_classification_net': (
        'import torch.nn.functional as F\n'
        'torch.manual_seed(1)\n'
        'n_data = torch.ones(10, 2)\n'
        'x0 = torch.normal(2*n_data, 1)\n'
        'y0 = torch.zeros(10)\n'
        'x1 = torch.normal(-2*n_data, 1)\n'
        'y1 = torch.ones(10)\n'
        'x = torch.cat((x0, x1), 0).type(torch.FloatTensor)\n'
        'y = torch.cat((y0, y1), ).type(torch.LongTensor)\n'
        'print(x[:3], y)\n'
        'net2 = torch.nn.Sequential(\n'
        '    torch.nn.Linear(2, 10),\n'
        '    torch.nn.ReLU(),\n'
        '    torch.nn.Linear(10, 2)\n'
        ')\n'
        'print(net2)\n'
        'optimizer = torch.optim.SGD(net2.parameters(), lr=0.02)\n'
        'loss_func = torch.nn.CrossEntropyLoss()\n'
        'for t in range(10):\n'
        '    out = net2(x)\n'
        '    loss = loss_func(out, y)\n'
        '    optimizer.zero_grad()\n'
        '    loss.backward()\n'
        '    optimizer.step()\n'
        '    if t % 2 == 0:\n'
        '        prediction = torch.max(F.softmax(out), 1)[1]\n'
        '        pred_y = prediction.data.numpy().squeeze()\n'
        '        target_y = y.data.numpy()\n'
        '        accuracy = sum(pred_y == target_y)/200.\n'
        '        print(t, loss.item(), accuracy, torch.max(out, 1))'),
    # 莫烦's old GAN order: opt_D.step() between D_loss.backward(retain_graph=True) and G_loss.backward() -> the version
    # error
    'mofan_gan_step_order_inplace_error': (
        'import numpy as np\n'
        'torch.manual_seed(1)\n'
        'np.random.seed(1)\n'
        'G = torch.nn.Sequential(torch.nn.Linear(5, 16), torch.nn.ReLU(), torch.nn.Linear(16, 6))\n'
        'D = torch.nn.Sequential(torch.nn.Linear(6, 16), torch.nn.ReLU(), torch.nn.Linear(16, 1), torch.nn.Sigmoid())\n'
        'opt_D = torch.optim.Adam(D.parameters(), lr=0.0001)\n'
        'opt_G = torch.optim.Adam(G.parameters(), lr=0.0001)\n'
        'artist_paintings = torch.rand(8, 6)\n'
        'G_ideas = torch.randn(8, 5)\n'
        'G_paintings = G(G_ideas)\n'
        'prob_artist0 = D(artist_paintings)\n'
        'prob_artist1 = D(G_paintings)\n'
        'D_loss = - torch.mean(torch.log(prob_artist0) + torch.log(1. - prob_artist1))\n'
        'G_loss = torch.mean(torch.log(1. - prob_artist1))\n'
        'opt_D.zero_grad()\n'
        'D_loss.backward(retain_graph=True)\n'
        'opt_D.step()\n'
        'opt_G.zero_grad()\n'
        'try:\n'
        '    G_loss.backward()\n'
        'except RuntimeError as e:\n'
        '    print(e)\n'
        'opt_G.step()\n'
        'print(D[2].weight._version, D[0].weight._version, G[0].weight.grad)'),
    # 小土堆: L1Loss(reduction='sum') / MSELoss on reshaped (1, 1, 1, 3) tensors, CrossEntropyLoss, int inputs, a bad
    # reduction
    'xiaotudui_losses_with_reshape': (
        'from torch.nn import L1Loss, MSELoss, CrossEntropyLoss\n'
        'from torch import nn\n'
        'inputs = torch.tensor([1, 2, 3], dtype=torch.float32)\n'
        'targets = torch.tensor([1, 2, 5], dtype=torch.float32)\n'
        'inputs = torch.reshape(inputs, (1, 1, 1, 3))\n'
        'targets = torch.reshape(targets, (1, 1, 1, 3))\n'
        "loss = L1Loss(reduction='sum')\n"
        'result = loss(inputs, targets)\n'
        'loss_mse = nn.MSELoss()\n'
        'result_mse = loss_mse(inputs, targets)\n'
        'print(result)\n'
        'print(result_mse)\n'
        'x = torch.tensor([0.1, 0.2, 0.3])\n'
        'y = torch.tensor([1])\n'
        'x = torch.reshape(x, (1, 3))\n'
        'loss_cross = nn.CrossEntropyLoss()\n'
        'result_cross = loss_cross(x, y)\n'
        'print(result_cross)\n'
        'print(loss, loss_mse, loss_cross)\n'
        'inputs2 = torch.tensor([1, 2, 3])\n'
        'targets2 = torch.tensor([1, 2, 5])\n'
        'tries(lambda: L1Loss()(inputs2, targets2), lambda: MSELoss()(inputs2, targets2), lambda: L1Loss()(inputs2.float(), targets2),\n'
        "      lambda: loss_cross(torch.tensor([0.1, 0.2, 0.3]), y), lambda: L1Loss(reduction='summ')(inputs, targets))"),
    # 小土堆's MaxPool2d(ceil_mode=True) on an int64 input (not implemented for 'Long'), then on float32
    'xiaotudui_maxpool_ceil_mode_on_ints': (
        'from torch import nn\n'
        'from torch.nn import MaxPool2d\n'
        'input = torch.tensor([[1, 2, 0, 3, 1],\n'
        '                      [0, 1, 2, 3, 1],\n'
        '                      [1, 2, 1, 0, 0],\n'
        '                      [5, 2, 3, 1, 1],\n'
        '                      [2, 1, 0, 1, 1]])\n'
        'input = torch.reshape(input, (-1, 1, 5, 5))\n'
        'print(input.shape)\n'
        'class Tudui(nn.Module):\n'
        '    def __init__(self):\n'
        '        super(Tudui, self).__init__()\n'
        '        self.maxpool1 = MaxPool2d(kernel_size=3, ceil_mode=True)\n'
        '    def forward(self, input):\n'
        '        output = self.maxpool1(input)\n'
        '        return output\n'
        'tudui = Tudui()\n'
        'print(tudui)\n'
        'tries(lambda: tudui(input))\n'
        'input = torch.tensor(input.tolist(), dtype=torch.float32)\n'
        'print(tudui(input))\n'
        'tudui.maxpool1.ceil_mode = False\n'
        'print(tudui(input))'),
    # 《动手学深度学习》 autograd: backward of a non-scalar, arange ints with requires_grad, a second backward, f(a) of a
    # vector
    'd2l_autograd_chapter_mistakes': (
        'x = torch.arange(4.0, requires_grad=True)\n'
        'y = x * x\n'
        'tries(lambda: y.backward())\n'
        'tries(lambda: torch.arange(4, requires_grad=True))\n'
        'y.backward(torch.ones(len(x)))\n'
        'print(x.grad)\n'
        'y = 2 * torch.dot(x, x)\n'
        'y.backward()\n'
        'print(x.grad)\n'
        'tries(lambda: y.backward())\n'
        'tries(lambda: x.grad.zero_(), lambda: x.zero_())\n'
        'x2 = torch.arange(4.0)\n'
        'y2 = 2 * torch.dot(x2, x2)\n'
        'tries(lambda: y2.backward(), lambda: x2.grad.zero_())\n'
        'a = torch.randn(size=(3,), requires_grad=True)\n'
        'def f(a):\n'
        '    b = a * 2\n'
        '    while b.norm() < 1000:\n'
        '        b = b * 2\n'
        '    if b.sum() > 0:\n'
        '        c = b\n'
        '    else:\n'
        '        c = 100 * b\n'
        '    return c\n'
        'd = f(a)\n'
        'tries(lambda: d.backward())\n'
        'd.sum().backward()\n'
        'print(a.grad / (d / a))\n'
        'tries(lambda: torch.dot(x, x.reshape(2, 2)), lambda: torch.dot(x, torch.arange(4)))'),
    # typos: l.backword(), w.require_grad, grad.zero(), torch.nn.MSEloss: the AttributeErrors and their suggestions
    'liuer_typos_and_misspelt_names': (
        'x_data = [1.0, 2.0, 3.0]\n'
        'y_data = [2.0, 4.0, 6.0]\n'
        'w = torch.Tensor([1.0])\n'
        'w.requires_grad = True\n'
        'def forward(x):\n'
        '    return x * w\n'
        'def loss(x, y):\n'
        '    return (forward(x) - y) ** 2\n'
        'tries(lambda: w.grad.data.zero_(), lambda: w.grad.item())\n'
        'l = loss(1.0, 2.0)\n'
        'tries(lambda: l.backword(), lambda: l.backward, lambda: w.grad, lambda: l.item, lambda: w.requires_grad_(True), lambda: w.require_grad)\n'
        'w.require_grad = True\n'
        'print(w.require_grad)\n'
        'l.backward()\n'
        'tries(lambda: w.grad.data.zero(), lambda: w.grad.zero(), lambda: w.grad.data.zeros_(), lambda: w.data.grad, lambda: w.Grad)\n'
        'tries(lambda: torch.Tensor([1.0], requires_grad=True), lambda: torch.tensor(1, requires_grad=True), lambda: torch.tensor([1.0], require_grad=True))\n'
        'tries(lambda: torch.nn.MSEloss(), lambda: torch.nn.Mseloss(), lambda: torch.optim.sgd, lambda: torch.nn.linear(1, 1), lambda: torch.nn.CrossEntropyloss())'),
}


@pytest.mark.parametrize("name", SNIPPETS)
def test_snippet(name):
    code = TRIES + SNIPPETS[name]
    t, e = run_both(T, E, code)
    assert same(t, e), f"\n{code}\n--- torch\n{t.summary()}--- engine\n{e.summary()}"
