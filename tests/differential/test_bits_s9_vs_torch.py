"""Last bits against real PyTorch 2.13 (CPU, MKL, 2 threads), session 9:
- a batch through nn.Linear (addmm with a transposed weight, F.linear, x @ w.t() + b, torch.addmm, mm) up to the
  32K multiply-add limit of the fused multiply-add emulation (engine/_ops._mkl_gemm, _fma_in_k_order, which now does
  the products of many k steps at once and checks for float32 midpoints once per chunk): MKL's sgemm adds each
  output's products in k order with fused multiply-adds for tiles of >= 4 rows (a multiple of 4 or >= 12) and >= 12
  columns (the rule held over m, n up to 128 and k up to 512; past 32K multiply-adds the engine keeps numpy's order,
  as emulating costs 2-3 ns a multiply-add);
- nn.BatchNorm1d on (N, C) rows (PyTorch's channels-last kernel, engine/_ops_nn.batch_norm): the rows in two halves
  each summed in a float32 buffer, the buffers added in double; squared deviations as float32 fused multiply-adds;
  the running statistics updated in float32 (the variance's fused); the output x * alpha + beta fused; in eval
  1 / sqrt(var + eps) in float32."""
import pytest

T = pytest.importorskip("torch", reason="differential tests need real PyTorch (pip install torch==2.13.0)")
from .harness import load_engine, run_both, same  # noqa: E402
from .test_matmul_bits_vs_torch import DATA  # noqa: E402  (exactly representable inputs: the same bits for both)

E = load_engine()

SNIPPETS = {
    "linear_batch_up_to_the_limit": (
        "F = torch.nn.functional\n"
        "for s, (m, k, n) in enumerate([(16, 64, 32), (12, 128, 16), (8, 256, 12), (32, 16, 64), (4, 500, 16)]):\n"
        "    x, w, b = data(m, k, k=s), data(n, k, k=s + 1) / 9, data(n, k=s + 2)\n"
        "    print(F.linear(x, w, b).view(-1)[::3].tolist())\n"
        "    print((x @ w.t() + b).view(-1)[::3].tolist())\n"
        "    print(torch.addmm(b, x, data(k, n, k=s + 1) / 9).view(-1)[::3].tolist())\n"
        "    print((data(k, m, k=s).t() @ data(k, n, k=s + 3)).view(-1)[::3].tolist())"),
    "batchnorm1d_training_running_stats": (
        "nn = torch.nn\n"
        "for s, (n, c) in enumerate([(2, 5), (3, 4), (16, 17), (33, 40), (64, 20)]):\n"
        "    bn = nn.BatchNorm1d(c)\n"
        "    with torch.no_grad():\n"
        "        bn.weight.copy_(data(c, k=s + 5) / 3)\n"
        "        bn.bias.copy_(data(c, k=s + 6))\n"
        "    for step in range(3):\n"
        "        y = bn(data(n, c, k=s + step) * (step + 1) + 0.25)\n"
        "        print(y.view(-1)[::3].tolist())\n"
        "    print(bn.running_mean.tolist(), bn.running_var.tolist())\n"
        "    bn.eval()\n"
        "    print(bn(data(n, c, k=s + 9)).view(-1)[::3].tolist())"),
    "batchnorm1d_in_a_training_loop": (
        "torch.manual_seed(0)\n"
        "nn = torch.nn\n"
        "net = nn.Sequential(nn.Linear(10, 16), nn.BatchNorm1d(16), nn.ReLU(), nn.Linear(16, 1))\n"
        "x, y = torch.randn(32, 10), torch.randn(32, 1)\n"
        "for step in range(3):\n"
        "    net.train()\n"
        "    out = net(x)\n"
        "    print(step, ((out - y) ** 2).mean().item())\n"
        "    with torch.no_grad():\n"
        "        for p in net.parameters():\n"
        "            p.mul_(0.99)\n"
        "print(net[1].running_mean.tolist())\n"
        "print(net[1].running_var.tolist())\n"
        "net.eval()\n"
        "print(net[:3](x[:8]).view(-1)[::5].tolist(), net[:3](x).view(-1)[::7].tolist())  # (Linear(16, 1): not modelled)"),
}


@pytest.mark.parametrize("name", SNIPPETS)
def test_snippet(name):
    """Printed values identical to PyTorch's, bit for bit."""
    code = DATA + SNIPPETS[name]
    t, e = run_both(T, E, code)
    assert same(t, e), f"\n{code}\n--- torch\n{t.summary()}--- engine\n{e.summary()}"
