"""What nodes expose and how sums and relu come out, against real PyTorch (the ninth session's fixes): a node's
`_saved_*` attributes are PyTorch's and no others (the inspector lists them); sums of every layout agree to the last
bit after their plans were made once per shape; relu keeps -0 and nan."""
import pytest

T = pytest.importorskip("torch", reason="differential tests need real PyTorch (pip install torch==2.13.0)")
from .harness import SHOW, load_engine, run_both, same  # noqa: E402

E = load_engine()

SNIPPETS = {
    # cat kept its inputs' sizes as a saved attribute PyTorch does not have (CatBackward0 saves only dim)
    "cat_saves_only_dim": (
        "a = torch.ones(2, 3, requires_grad=True)\n"
        "b = torch.zeros(0)\n"
        "for y in (torch.cat([a, a * 2]), torch.cat([a, b, a], 0), torch.cat((a, a), dim=-1)):\n"
        "    show(y)\n"
        "    y.sum().backward()\n"
        "print(a.grad)\n"),
    # sums over the shapes an MLP step sums (loss, softmax rows, bias gradients), whole, per row, per column
    "sums_of_an_mlp_step": (
        "torch.manual_seed(0)\n"
        "for shape in [(64, 10), (64, 128), (640,), (3, 17), (2, 100), (257, 33), (513, 9), (4096, 3)]:\n"
        "    x = torch.randn(shape)\n"
        "    print(shape, x.sum().item(), x.sum(0)[:3].tolist(), x.sum(-1)[:3].tolist(),\n"
        "          x.t().sum().item(), x.double().sum(0, keepdim=True)[..., :2].tolist())\n"
        "x = torch.randn(64, 10, requires_grad=True)\n"
        "b = torch.randn(10, requires_grad=True)\n"
        "y = (x + b).relu()\n"
        "(y / y.sum(1, keepdim=True)).sum().backward()\n"
        "print(x.grad.sum().item(), b.grad.tolist())\n"),
    # a float constant kept by value made an equal int out of PyTorch's range skip its check (2.0 ** 70 == 2 ** 70)
    "int_out_of_range_after_an_equal_float": (
        "x = torch.tensor([1.0], requires_grad=True)\n"
        "print(x * float(2 ** 70), x + float(2 ** 64), x * float(-2 ** 63), x + 2.0 ** 63)\n"
        "tries(lambda: x * 2 ** 70, lambda: x + 2 ** 64, lambda: x - 2 ** 70, lambda: torch.mul(x, 2 ** 70),\n"
        "      lambda: x * (-2 ** 63), lambda: x * -2 ** 63 - 1)\n"),
    "relu_signed_zero_and_nan": (
        "x = torch.tensor([[-0., 0., -1.5, float('nan')], [2., -float('inf'), float('inf'), -0.]])\n"
        "for y in (x.relu(), torch.relu(x.t()), x.expand(3, 2, 4).relu(), x.repeat(100, 100).relu()[:2, :4]):\n"
        "    print(y, torch.signbit(y))\n"),
}


@pytest.mark.parametrize("name", sorted(SNIPPETS))
def test_snippet_as_pytorch(name):
    t, e = run_both(T, E, SHOW + SNIPPETS[name])
    assert same(t, e), f"\n--- torch\n{t.summary()}--- engine\n{e.summary()}"
