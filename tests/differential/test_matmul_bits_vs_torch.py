"""float32 matrix products against real PyTorch, to the last bit: MKL's sgemm (PyTorch 2.13 on AVX-512) adds each
output's products in k order with fused multiply-adds for tiles of >= 4 rows and >= 12 columns (k split in blocks
above 192), and without fused multiply-adds for one row, 2-4 or 8 columns and k <= 3, and in its matrix-vector
kernels (one row of any length: a weight's gradient; one column of a transposed matrix) (engine/_ops._mkl_gemm)."""
import pytest

T = pytest.importorskip("torch", reason="differential tests need real PyTorch (pip install torch==2.13.0)")
from .harness import load_engine, run_both, same, skip_unless_engine_cpu  # noqa: E402

E = load_engine()

# Exactly representable inputs (no random generator, no transcendental function): both libraries see the same bits.
DATA = ("def data(*shape, k=1):\n"
        "    n = 1\n"
        "    for s in shape:\n"
        "        n *= s\n"
        "    return ((torch.arange(n) * (37 + 2 * k) % 101 - 50).float() / 7).view(*shape)\n"
        "def forms(m, k, n, s=0):\n"
        "    a, b = data(m, k, k=s), data(k, n, k=s + 1)\n"
        "    at, bt = data(k, m, k=s).t(), data(n, k, k=s + 1).t()\n"
        "    return [a @ b, torch.mm(a, bt), at @ b, at.mm(bt)]\n")

SNIPPETS = {
    "fma_tiles": ("for s, (m, k, n) in enumerate([(4, 5, 12), (8, 30, 16), (12, 7, 20), (16, 60, 32), (13, 9, 17)]):\n"
                  "    for p in forms(m, k, n, s):\n        print(p.view(-1)[::5].tolist())"),
    "fma_k_blocks": ("for s, (m, k, n) in enumerate([(4, 200, 12), (8, 255, 16), (4, 400, 12)]):\n"
                     "    for p in forms(m, k, n, s):\n        print(p.view(-1)[::3].tolist())"),
    "in_order_without_fma": ("for s, (m, k, n) in enumerate([(1, 8, 5), (6, 10, 3), (5, 20, 8), (2, 9, 12),\n"
                             "                              (40, 13, 2), (3, 17, 4)]):\n"
                             "    a, b = data(m, k, k=s), data(k, n, k=s + 1)\n"
                             "    print((a @ b).tolist(), (data(k, m, k=s).t() @ b).tolist())\n"
                             "for s, (m, k, n) in enumerate([(5, 3, 6), (9, 2, 7), (2, 3, 10)]):\n"
                             "    for p in forms(m, k, n, s):\n        print(p.tolist())"),
    "addmm_bias": ("for s, (m, k, n) in enumerate([(8, 5, 16), (4, 300, 12), (6, 3, 3), (5, 2, 6)]):\n"
                   "    a, bias = data(m, k, k=s), data(n, k=s + 2)\n"
                   "    for w in (data(n, k, k=s + 1).t(), data(k, n, k=s + 1)):\n"
                   "        print(torch.addmm(bias, a, w).view(-1)[::2].tolist())\n"
                   "    print(torch.nn.functional.linear(a, data(n, k, k=s + 1), bias).view(-1)[::2].tolist())"),
    "matrix_vector_kernels": ("for s, (m, k, n) in enumerate([(1, 300, 3), (1, 2000, 5), (1, 50, 16)]):\n"
                              "    g, x = data(k, m, k=s), data(k, n, k=s + 1)\n"
                              "    print((g.t() @ x).tolist(), (data(m, k, k=s) @ x).tolist())\n"
                              "    print(torch.addmm(data(n, k=s + 2), g.t(), x).tolist())\n"
                              "for s, (m, k) in enumerate([(2000, 3), (16, 50), (5, 7), (64, 4)]):\n"
                              "    xt, w, bias = data(k, m, k=s).t(), data(1, k, k=s + 1), data(1, k=s + 2)\n"
                              "    print((xt @ w.t()).view(-1)[::7].tolist())\n"
                              "    print(torch.addmm(bias, xt, w.t()).view(-1)[::7].tolist())\n"
                              "    if k <= 4:\n"
                              "        x = data(m, k, k=s)\n"
                              "        print(torch.nn.functional.linear(x, w, bias).view(-1)[::7].tolist())"),
    "polynomial_tutorial_with_nn": ("import math\n"
                                    "x = torch.linspace(-math.pi, math.pi, 2000)\n"
                                    "y = 0.8 * x - 0.1 * x ** 3 + 0.3\n"
                                    "xx = x.unsqueeze(-1).pow(torch.tensor([1, 2, 3]))\n"
                                    "model = torch.nn.Sequential(torch.nn.Linear(3, 1), torch.nn.Flatten(0, 1))\n"
                                    "with torch.no_grad():\n"
                                    "    model[0].weight.copy_(torch.tensor([[0.1, -0.05, 0.02]]))\n"
                                    "    model[0].bias.fill_(0.03)\n"
                                    "loss_fn = torch.nn.MSELoss(reduction='sum')\n"
                                    "for t in range(300):\n"
                                    "    loss = loss_fn(model(xx), y)\n"
                                    "    if t % 100 == 99:\n"
                                    "        print(t, loss.item())\n"
                                    "    model.zero_grad()\n"
                                    "    loss.backward()\n"
                                    "    with torch.no_grad():\n"
                                    "        for param in model.parameters():\n"
                                    "            param -= 1e-6 * param.grad\n"
                                    "print(model[0].bias.item(), model[0].weight.tolist())"),
    "linear_training_loop": ("torch.manual_seed(0)\n"
                             "nn = torch.nn\n"
                             "net = nn.Sequential(nn.Linear(20, 24), nn.ReLU(), nn.Linear(24, 12))\n"
                             "with torch.no_grad():\n"
                             "    for i, p in enumerate(net.parameters()):\n"
                             "        p.copy_(data(*p.shape, k=i) / 13)\n"
                             "x, y = data(16, 20, k=7) / 3, data(16, 12, k=8)\n"
                             "opt = torch.optim.SGD(net.parameters(), lr=0.01)\n"
                             "for step in range(8):\n"
                             "    opt.zero_grad()\n"
                             "    loss = torch.nn.functional.mse_loss(net(x), y)\n"
                             "    loss.backward()\n"
                             "    opt.step()\n"
                             "    print(step, loss.item())\n"
                             "print(net[0].weight.view(-1)[::17].tolist(), net[2].bias.tolist())\n"
                             "w = (data(20, 8, k=3) / 11).requires_grad_()\n"
                             "for step in range(8):\n"
                             "    loss = ((x @ w - y[:, :8]) ** 2).mean()\n"
                             "    loss.backward()\n"
                             "    with torch.no_grad():\n"
                             "        w -= 0.05 * w.grad\n"
                             "    w.grad = None\n"
                             "    print(step, loss.item())"),
}


@pytest.mark.parametrize("name", SNIPPETS)
def test_snippet(name):
    """Printed values identical to PyTorch's, bit for bit."""
    if name == "fma_k_blocks":              # (long sums of products with cancellation: MKL's blocking shows)
        skip_unless_engine_cpu("products blocked along k")
    code = DATA + SNIPPETS[name]
    t, e = run_both(T, E, code)
    assert same(t, e), f"\n{code}\n--- torch\n{t.summary()}--- engine\n{e.summary()}"
