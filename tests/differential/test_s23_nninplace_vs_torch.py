"""In-place ops, saved tensors and version counters inside nn.Module code and training loops, against real PyTorch:
layers that refuse arguments they do not take (nn.Sigmoid(inplace=True)), in-place activations given a non-tensor,
the node a version error names when an in-place activation (or a custom Function marking its input dirty) wrote
into a slice of a layer's output, writing into a leaf through a bad index, model.double() and the .grad and buffers
it converts, an LSTM's hidden state carried across batches. Printed text, warnings and the final error must be the
same."""
import pytest

T = pytest.importorskip("torch", reason="differential tests need real PyTorch (pip install torch==2.13.0)")
from .harness import TRIES, load_engine, run_both, same  # noqa: E402

E = load_engine()

SNIPPETS = {
    # Module.__init__ refuses arguments unless call_super_init: a layer without an __init__ of its own is named in
    # the TypeError, as are the in-place activations (ReLU, SiLU...)
    "layers_refuse_arguments_they_do_not_take": (
        'import torch.nn as nn\n'
        'class Net(nn.Module):\n'
        '    pass\n'
        'class Block(nn.Module):\n'
        '    def __init__(self):\n'
        '        super().__init__(4, inplace=True)\n'
        'tries(lambda: nn.Sigmoid(inplace=True), lambda: nn.Tanh(True), lambda: nn.Softsign(True), lambda: Net(3),\n'
        '      lambda: Net(inplace=True), lambda: Block(), lambda: nn.Module(1), lambda: nn.ReLU(True, 2),\n'
        '      lambda: nn.SiLU(inplace=True, x=1), lambda: nn.Hardswish(1, 2), lambda: nn.ReLU(inplace=True))'),
    # an in-place activation given what a forward without `return` gave: the TypeError names the in-place op
    "inplace_activations_given_none": (
        'import torch.nn as nn\n'
        'import torch.nn.functional as F\n'
        'class Block(nn.Module):\n'
        '    def __init__(self):\n'
        '        super().__init__()\n'
        '        self.fc = nn.Linear(2, 2)\n'
        '    def forward(self, x):\n'
        '        x = self.fc(x)\n'
        'for act in [nn.ELU(inplace=True), nn.Hardtanh(inplace=True), nn.ReLU6(inplace=True), nn.SiLU(inplace=True),\n'
        '            nn.SELU(inplace=True), nn.CELU(inplace=True), nn.Mish(inplace=True), nn.Hardswish(inplace=True),\n'
        '            nn.Hardsigmoid(inplace=True), nn.Threshold(0.1, 0., inplace=True), nn.ELU(), nn.ReLU(True)]:\n'
        '    m = nn.Sequential(Block(), act)\n'
        '    tries(lambda: m(torch.ones(1, 2)))\n'
        'tries(lambda: F.threshold_(None, 0.1, 0.), lambda: F.elu_(None), lambda: F.hardtanh_(None),\n'
        '      lambda: F.elu(input=None, inplace=True), lambda: F.celu_([1.]))'),
    # an in-place activation on a slice of a layer's output saves the slice; when the output changes in place after,
    # the version error names the slice's grad_fn (AsStridedBackward0) while PyTorch still holds that node: the
    # slice lives and its grad_fn was not read since (by printing it, an op taking the slice...; a later in-place op
    # on the slice, or backward running the CopySlices of one, lets it go too); else the node that saved it
    "inplace_activation_on_a_slice_then_the_output_changes": (
        'import torch.nn as nn\n'
        'import torch.nn.functional as F\n'
        'fc = nn.Linear(3, 4)\n'
        'with torch.no_grad():\n'
        '    fc.weight.copy_(torch.linspace(-1, 1, 12).view(4, 3)); fc.bias.fill_(0.1)\n'
        'x = torch.tensor([[0.5, -1.0, 2.0], [-0.3, 0.8, -1.5]])\n'
        'def forward(change, keep=True):\n'
        '    out = fc(x)\n'
        '    a = out[:, :2]\n'
        '    a.sigmoid_()\n'
        '    change(out, a)\n'
        '    return out, (a if keep else None)\n'
        'for change in [lambda out, a: out.mul_(2), lambda out, a: out[:, 2:].tanh_(), lambda out, a: a.mul_(2),\n'
        '               lambda out, a: (out.add_(1), print(a.grad_fn)), lambda out, a: (out.add_(1), print(a)),\n'
        '               lambda out, a: (out.add_(1), a.is_leaf), lambda out, a: (out.add_(1), out.add_(1)),\n'
        '               lambda out, a: (out.add_(1), a * 2), lambda out, a: (a * 2, out.add_(1)),\n'
        '               lambda out, a: (out.add_(1), a.retain_grad()), lambda out, a: (out.add_(1), a.detach()),\n'
        '               lambda out, a: (out.add_(1), tries(lambda: a.view(4))),\n'
        '               lambda out, a: (out.add_(1), tries(lambda: a.add_(out.detach()[:, 1:3])))]:\n'
        '    out, a = forward(change)\n'
        '    tries(lambda: out.sum().backward(retain_graph=True), lambda: out.sum().backward())\n'
        'out, a = forward(lambda out, a: out.mul_(2), keep=False)\n'
        'tries(lambda: out.sum().backward())\n'
        'out = fc(x)\n'
        'F.relu_(out[:, 1:])\n'
        'out += 1\n'
        'tries(lambda: out.sum().backward())\n'
        'out = fc(x)\n'
        'h = nn.ReLU(inplace=True)(out[0])\n'
        'out *= 2\n'
        'tries(lambda: out.sum().backward())'),
    # writing into a leaf that requires grad through a mask of another shape or an index of floats: autograd's error
    # comes first, as for a view made in no_grad mode
    "leaf_written_through_a_bad_index": (
        'w = torch.tensor([[0.5, -1.0, 2.0], [-0.3, 0.8, -1.5]], requires_grad=True)\n'
        'def write(i, v=0.):\n'
        '    def f():\n'
        '        w[i] = v\n'
        '    return f\n'
        'tries(write(w.view(6) > 0), write(w.t() > 0), write(w[0] > 0), write(torch.tensor([0.5])),\n'
        '      write((0, torch.tensor([True, False]))), write(w > 0, torch.ones(2)), write(w > 0))\n'
        'h = w * 1\n'
        'with torch.no_grad():\n'
        '    v = h[0]\n'
        'def write_v(i):\n'
        '    def f():\n'
        '        v[i] = 1.\n'
        '    return f\n'
        'tries(write_v(torch.tensor([True, False])), write_v(torch.tensor([0.5])), write_v(torch.tensor([2])))'),
    # model.double() / .float() / .to(dtype): a parameter keeps its identity and so does its .grad (its data is
    # replaced); a buffer is replaced by a new tensor, the old one keeps its dtype
    "module_conversion_keeps_grads_replaces_buffers": (
        'import torch.nn as nn\n'
        'm = nn.Sequential(nn.Linear(2, 2), nn.BatchNorm1d(2))\n'
        'with torch.no_grad():\n'
        '    m[0].weight.fill_(0.5); m[0].bias.zero_()\n'
        'm(torch.tensor([[1., 2.], [3., -1.]])).sum().backward()\n'
        'g, rm = m[0].weight.grad, m[1].running_mean\n'
        'm.double()\n'
        'print(g is m[0].weight.grad, g.dtype, g._version, rm is m[1].running_mean, rm.dtype, m[1].running_mean.dtype)\n'
        'm(torch.ones(3, 2, dtype=torch.float64)).sum().backward()\n'
        'print(g, rm, m[1].running_mean)\n'
        'm.to(torch.float32)\n'
        'print(g.dtype, m[1].num_batches_tracked, m[1].running_var.dtype)'),
    # an LSTM's hidden state carried to the next batch without detach(): backward reaches the layer's node that the
    # last backward freed (its error, even after optimizer.step()); a weight changed in place since the forward
    "lstm_hidden_state_carried_across_batches": (
        'import torch.nn as nn\n'
        'lstm = nn.LSTM(2, 3, batch_first=True)\n'
        'with torch.no_grad():\n'
        '    for p in lstm.parameters(): p.fill_(0.1)\n'
        'opt = torch.optim.SGD(lstm.parameters(), lr=0.1)\n'
        'h = None\n'
        'for i in range(2):\n'
        '    out, h = lstm(torch.ones(1, 2, 2) * (i + 1), h)\n'
        '    opt.zero_grad()\n'
        '    tries(lambda: out.sum().backward())\n'
        '    opt.step()\n'
        'out, (hn, cn) = lstm(torch.ones(1, 2, 2))\n'
        'out.sum().backward()\n'
        'tries(lambda: cn.sum().backward(), lambda: hn.sum().backward())\n'
        'out, (hn, cn) = lstm(torch.ones(1, 2, 2))\n'
        'with torch.no_grad():\n'
        '    lstm.weight_hh_l0.mul_(2)\n'
        'tries(lambda: out.sum().backward())'),
    # a custom in-place Function (mark_dirty) on a slice of a layer's output saves the slice as its output: the
    # version error names the Function's node, whatever holds the slice's AsStridedBackward0
    "custom_inplace_function_on_a_slice": (
        'import torch.nn as nn\n'
        'class InplaceReLU(torch.autograd.Function):\n'
        '    @staticmethod\n'
        '    def forward(ctx, x):\n'
        '        ctx.mark_dirty(x)\n'
        '        x.clamp_(min=0)\n'
        '        ctx.save_for_backward(x)\n'
        '        return x\n'
        '    @staticmethod\n'
        '    def backward(ctx, g):\n'
        '        y, = ctx.saved_tensors\n'
        '        return g * (y > 0).float()\n'
        'fc = nn.Linear(2, 2)\n'
        'with torch.no_grad():\n'
        '    fc.weight.copy_(torch.tensor([[0.5, -1.0], [1., 2.]])); fc.bias.zero_()\n'
        'for keep in [True, False]:\n'
        '    h = fc(torch.ones(2, 2))\n'
        '    y = InplaceReLU.apply(h[:, :1])\n'
        '    print(y.grad_fn, h.grad_fn)\n'
        '    if not keep:\n'
        '        del y\n'
        '    h.mul_(2)\n'
        '    tries(lambda: h.sum().backward())\n'
        'h = fc(torch.ones(2, 2))\n'
        'y = InplaceReLU.apply(h)\n'
        'h.mul_(2)\n'
        'tries(lambda: h.sum().backward())'),
}


@pytest.mark.parametrize("name", SNIPPETS)
def test_snippet(name):
    code = TRIES + SNIPPETS[name]
    t, e = run_both(T, E, code)
    assert same(t, e), f"\n{code}\n--- torch\n{t.summary()}--- engine\n{e.summary()}"
