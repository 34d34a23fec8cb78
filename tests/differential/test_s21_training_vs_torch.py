"""Training loops of the Chinese course notes and blogs against real PyTorch (session 21, theme "training"): 刘二大人's
logistic regression (a few samples through F.sigmoid and BCELoss(size_average=False)), 莫烦's activation functions on a
linspace of 20 points. PyTorch's pointwise kernels run a tensor under 32 floats (and the tail of a longer row, and a
strided row throughout) through their scalar C++ loop, with the C library's exp and log1p, not Sleef's; its
binary_cross_entropy is a scalar loop with glibc's log1pf. Printed text, warnings and the final error must be the
same."""
import pytest

T = pytest.importorskip("torch", reason="differential tests need real PyTorch (pip install torch==2.13.0)")
from .harness import load_engine, run_both, same  # noqa: E402

E = load_engine()

SNIPPETS = {
    # sigmoid's kernel: Sleef's exp over whole blocks of 32 floats along a row in memory order, the C library's
    # (correctly rounded) exp for the rest of the row, and for every element of a strided row
    "sigmoid_of_a_few_samples_is_the_scalar_loop": (
        'import torch.nn.functional as F\n'
        'v = 0.45194023847579956\n'
        'print(torch.sigmoid(torch.tensor([v])).item(), torch.tensor([[v]]).sigmoid().item(), F.sigmoid(torch.tensor(v)).item())\n'
        'x = torch.full((40,), v)\n'
        'print(torch.sigmoid(x)[[0, 31, 32, 39]].tolist(), torch.nn.Sigmoid()(x.view(5, 8))[4].tolist())\n'
        'y = torch.full((4, 40), v)\n'
        'print(torch.sigmoid(y[:, ::2])[0, :2].tolist(), torch.sigmoid(y.t())[0].tolist(), torch.sigmoid(y[:, :33])[:, 32].tolist())\n'
        'z = y.clone(); z.sigmoid_(); print(z[0, 31:33].tolist())'),
    # 刘二大人, logistic regression: the predictions of 3 samples go through sigmoid's scalar loop
    "liu_logistic_regression_three_samples": (
        'import torch.nn.functional as F\n'
        'x_data = torch.Tensor([[1.0], [2.0], [3.0]])\n'
        'y_data = torch.Tensor([[0], [0], [1]])\n'
        'class LogisticRegressionModel(torch.nn.Module):\n'
        '    def __init__(self):\n'
        '        super(LogisticRegressionModel, self).__init__()\n'
        '        self.linear = torch.nn.Linear(1, 1)\n'
        '    def forward(self, x):\n'
        '        return F.sigmoid(self.linear(x))\n'
        'model = LogisticRegressionModel()\n'
        'with torch.no_grad():\n'
        '    model.linear.weight.fill_(-0.02234107442200184); model.linear.bias.fill_(0.5189634561538696)\n'
        'criterion = torch.nn.BCELoss(size_average=False)\n'
        'optimizer = torch.optim.SGD(model.parameters(), lr=0.01)\n'
        'for epoch in range(3):\n'
        '    y_pred = model(x_data)\n'
        '    loss = criterion(y_pred, y_data)\n'
        '    print(epoch, loss.item(), y_pred.view(-1).tolist())\n'
        '    optimizer.zero_grad()\n'
        '    loss.backward()\n'
        '    optimizer.step()\n'
        'print(model.linear.weight.item(), model.linear.bias.item(), model(torch.Tensor([[4.0]])).item())'),
    # binary_cross_entropy's kernel: (t - 1) max(log1p(-x), -100) - t max(log(x), -100), one element at a time with
    # glibc's log1pf (fdlibm's: an ulp off for 7% of the x in (0, 1))
    "bce_log1p_is_the_c_library_s": (
        'import torch.nn.functional as F\n'
        'p = torch.tensor([0.6111228466033936, 0.6369617, 0.60663575, 0.72949654, 0.88948786, 0.391619])\n'
        't = torch.zeros(6)\n'
        'print(F.binary_cross_entropy(p, t, reduction="none").tolist())\n'
        'print(F.binary_cross_entropy(p, t).item(), torch.nn.BCELoss(reduction="sum")(p, t).item())\n'
        'print(F.binary_cross_entropy(p[:1], t[:1]).item(), F.binary_cross_entropy(p[0], t[0]).item())\n'
        'print(F.binary_cross_entropy(torch.tensor([0., 1., 1e-30, 1 - 2 ** -24, 2 ** -30, 0.5]), torch.tensor([1., 0., 0., 0., 0., 0.]), reduction="none").tolist())\n'
        'w = torch.tensor([0.2, 0.5], requires_grad=True)\n'
        'l = F.binary_cross_entropy(torch.sigmoid(w), torch.tensor([0., 1.])); l.backward(); print(l.item(), w.grad.tolist())'),
    # silu's kernel, the same two loops: x / (1 + exp(-x))
    "silu_of_a_small_hidden_layer": (
        'torch.manual_seed(0)\n'
        'net = torch.nn.Sequential(torch.nn.Linear(2, 5), torch.nn.SiLU(), torch.nn.Linear(5, 1))\n'
        'x = torch.linspace(-3, 3, 8).reshape(4, 2)\n'
        'h = net[1](net[0](x)); print(h.tolist())\n'
        'print(torch.nn.functional.silu(torch.linspace(-6, 6, 45))[28:].tolist(), torch.nn.functional.silu(x.t()).tolist())'),
    # softplus's scalar loop: log1p(exp(x)) with the C library's exp and log1pf (莫烦's activation functions)
    "mofan_softplus_on_a_linspace": (
        'import torch.nn.functional as F\n'
        'x = torch.linspace(-5, 5, 20)\n'
        'print(F.softplus(x).data.numpy())\n'
        'print(F.softplus(x, beta=2).tolist(), F.softplus(torch.linspace(-5, 5, 40))[32:].tolist())\n'
        'print(torch.nn.Softplus()(x.view(4, 5)[:, ::2]).tolist())'),
}


@pytest.mark.parametrize("name", SNIPPETS)
def test_snippet(name):
    code = SNIPPETS[name]
    t, e = run_both(T, E, code)
    assert same(t, e), f"\n{code}\n--- torch\n{t.summary()}--- engine\n{e.summary()}"
