"""Code as Chinese autograd tutorials (CSDN / 知乎 / 莫烦Python) write it, against real PyTorch: the legacy
Variable wrapper (a detached alias, isinstance of every tensor, its errors), nn.Module backward hooks (full, legacy,
pre-hooks: grad_fn BackwardHookFunctionBackward, what the hooks see, their warnings and errors), node post-hooks
seeing the gradients fitted to the inputs, custom Functions returning a non-differentiable input, and a few
tutorial classics. Printed text, warnings and the final error must be the same."""
import pytest

T = pytest.importorskip("torch", reason="differential tests need real PyTorch (pip install torch==2.13.0)")
from .harness import TRIES, load_engine, run_both, same  # noqa: E402

E = load_engine()

SNIPPETS = {
    "variable_is_a_detached_alias": (
        'from torch.autograd import Variable\n'
        'tensor = torch.FloatTensor([[1, 2], [3, 4]])\n'
        'variable = Variable(tensor, requires_grad=True)\n'
        'print(tensor); print(variable)\n'
        'print(torch.mean(tensor * tensor), torch.mean(variable * variable))\n'
        'v_out = torch.mean(variable * variable); v_out.backward()\n'
        'print(variable.grad, variable.data, variable.data.numpy(), tensor.grad)\n'
        't = torch.tensor([1., 2.]); v = Variable(t, requires_grad=True)\n'
        'print(v is t, t.requires_grad, v.is_leaf, t._version, v._version)\n'
        'with torch.no_grad():\n'
        '    v[1] = 7\n'
        'print(t, t._version, v._version)\n'
        'print(isinstance(t, Variable), isinstance(3, Variable), issubclass(Variable, torch.Tensor), type(v))\n'
        'print(Variable, Variable.__name__, Variable.__module__)\n'
        'x = torch.tensor([1., 2.], requires_grad=True); y = x * 2\n'
        'z = Variable(y); print(z, z.grad_fn, z.is_leaf, z.requires_grad)\n'
        'w = Variable(y, requires_grad=True); print(w, w.grad_fn, w.is_leaf)\n'
        'print(Variable(), Variable(torch.ones(1), True), Variable(data=torch.ones(1)))\n'
        'from torch.autograd.variable import Variable as V2\n'
        'print(V2 is Variable, torch.autograd.Variable is Variable)\n'
        'import torch.autograd.variable\n'
        'print(torch.autograd.variable)'),
    "variable_errors": TRIES + (
        'import numpy as np\n'
        'from torch.autograd import Variable\n'
        'tries(lambda: Variable([1., 2.]), lambda: Variable(np.array([1.])), lambda: Variable(3.0),\n'
        '      lambda: Variable(torch.tensor([1, 2]), requires_grad=True),\n'
        '      lambda: Variable(torch.ones(1), requires_grad=True, volatile=True),\n'
        '      lambda: Variable(torch.ones(1), _grad_fn=3), lambda: torch.autograd.variable(1))\n'
        'v = Variable(torch.ones(2), volatile=True); print(v, v.requires_grad, v.volatile)'),
    "module_full_backward_hooks": (
        'import torch.nn as nn\n'
        'class Net(nn.Module):\n'
        '    def __init__(self):\n'
        '        super().__init__()\n'
        '        self.fc1 = nn.Linear(2, 3); self.relu = nn.ReLU(); self.fc2 = nn.Linear(3, 1)\n'
        '    def forward(self, x):\n'
        '        return self.fc2(self.relu(self.fc1(x)))\n'
        'net = Net()\n'
        'with torch.no_grad():\n'
        '    net.fc1.weight.copy_(torch.arange(6.).view(3, 2) / 10 - 0.2); net.fc1.bias.fill_(0.1)\n'
        '    net.fc2.weight.copy_(torch.tensor([[1., -1., 0.5]])); net.fc2.bias.fill_(0.)\n'
        'def fh(m, i, o):\n'
        "    print('fwd', m, i, o)\n"
        'def bh(m, gi, go):\n'
        "    print('bwd', m, gi, go)\n"
        'for name, m in net.named_children():\n'
        '    m.register_forward_hook(fh); m.register_full_backward_hook(bh)\n'
        'net.register_full_backward_hook(bh)\n'
        'x = torch.tensor([[1., 2.]], requires_grad=True)\n'
        'out = net(x); print(out.grad_fn, out.grad_fn.next_functions)\n'
        'out.backward(); print(x.grad)\n'
        'm = nn.Linear(2, 1)\n'
        'm.register_full_backward_hook(bh)\n'
        'm(torch.ones(3, 2)).sum().backward()'),
    "module_full_backward_hook_changes_grad_input": (
        'import torch.nn as nn\n'
        'm = nn.ReLU()\n'
        'h = m.register_full_backward_hook(lambda mod, gi, go: (gi[0] * 10,))\n'
        'x = torch.tensor([-1., 2.], requires_grad=True)\n'
        'y = m(x); print(y); y.sum().backward(); print(x.grad)\n'
        'h.remove(); x.grad = None\n'
        'm(x).sum().backward(); print(x.grad)\n'
        'class Two(nn.Module):\n'
        '    def forward(self, a, k, b):\n'
        '        return a * k + b, a - b\n'
        't = Two()\n'
        "t.register_full_backward_hook(lambda mod, gi, go: print('hook', gi, go))\n"
        "t.register_full_backward_pre_hook(lambda mod, go: print('pre', go))\n"
        'a = torch.tensor([1., 2.], requires_grad=True)\n'
        'y, z = t(a, 2.0, torch.tensor([3., 4.])); print(y, z)\n'
        '(y.sum() + 3 * z.sum()).backward(); print(a.grad)'),
    "module_full_backward_hook_wrong_count": (
        'm = torch.nn.Linear(2, 1)\n'
        'm.register_full_backward_hook(lambda mod, gi, go: (gi[0], gi[0]))\n'
        'm(torch.ones(1, 2, requires_grad=True)).sum().backward()'),
    "module_full_backward_hook_inplace_output": (
        'm = torch.nn.ReLU(inplace=True)\n'
        'm.register_full_backward_hook(lambda *a: None)\n'
        'm(torch.tensor([-1., 2.], requires_grad=True) * 1)'),
    "module_both_kinds_of_backward_hook": (
        'm = torch.nn.Linear(2, 2)\n'
        'm.register_backward_hook(lambda *a: None)\n'
        'm.register_full_backward_hook(lambda *a: None)'),
    "module_legacy_backward_hook": (
        'import torch.nn as nn\n'
        'class Model(nn.Module):\n'
        '    def __init__(self):\n'
        '        super(Model, self).__init__()\n'
        '        self.fc1 = nn.Linear(3, 4); self.relu1 = nn.ReLU(); self.fc2 = nn.Linear(4, 1)\n'
        '        self.fc1.weight = torch.nn.Parameter(torch.Tensor([[1., 2., 3.], [-4., -5., -6.], [7., 8., 9.], [-10., -11., -12.]]))\n'
        '        self.fc1.bias = torch.nn.Parameter(torch.Tensor([1.0, 2.0, 3.0, 4.0]))\n'
        '        self.fc2.weight = torch.nn.Parameter(torch.Tensor([[1.0, 2.0, 3.0, 4.0]]))\n'
        '        self.fc2.bias = torch.nn.Parameter(torch.Tensor([1.0]))\n'
        '    def forward(self, x):\n'
        '        return self.fc2(self.relu1(self.fc1(x)))\n'
        'def hook_fn_backward(module, grad_input, grad_output):\n'
        "    print(module); print('grad_output', grad_output); print('grad_input', grad_input)\n"
        'model = Model()\n'
        'for name, module in model.named_children():\n'
        '    module.register_backward_hook(hook_fn_backward)\n'
        'x = torch.Tensor([[1.0, 1.0, 1.0]]).requires_grad_()\n'
        'o = model(x); o.backward(); print(x.grad)\n'
        'm = nn.Linear(2, 1)\n'
        "m.register_backward_hook(lambda mod, gi, go: print('bwd', [None if g is None else g.shape for g in gi], [g.shape for g in go]))\n"
        'm(torch.ones(3, 2)).sum().backward()'),
    "node_post_hook_sees_reduced_grads": (
        'b = torch.tensor([1.], requires_grad=True); w = torch.ones(2, 1, requires_grad=True)\n'
        'y = torch.addmm(b, torch.ones(3, 2), w)\n'
        "y.grad_fn.register_hook(lambda gi, go: print('post', gi, go))\n"
        'y.sum().backward(); print(b.grad)\n'
        'a = torch.ones(2, 3, requires_grad=True); c = torch.ones(3, requires_grad=True)\n'
        'z = a * c\n'
        "z.grad_fn.register_hook(lambda gi, go: print('mul', gi))\n"
        'z.sum().backward()'),
    "function_returns_non_differentiable_input": (
        'class F(torch.autograd.Function):\n'
        '    @staticmethod\n'
        '    def forward(ctx, a, b):\n'
        '        ctx.mark_non_differentiable(b)\n'
        '        return a, b\n'
        '    @staticmethod\n'
        '    def backward(ctx, ga, gb):\n'
        "        print('bw', ga, gb)\n"
        '        return ga, gb\n'
        'a = torch.tensor([1., 2.], requires_grad=True)\n'
        'for b in (torch.tensor([3., 4.], requires_grad=True), torch.tensor([3., 4.])):\n'
        '    x, y = F.apply(a, b)\n'
        '    print(x, y, x._base is a, y._base is b, y.requires_grad, y.grad_fn)\n'
        "    x.grad_fn.register_hook(lambda gi, go: print('post', gi, go))\n"
        '    (x * 2 + y).sum().backward(); print(a.grad, b.grad)\n'
        'class G(torch.autograd.Function):\n'
        '    @staticmethod\n'
        '    def forward(ctx, a):\n'
        '        return a\n'
        '    @staticmethod\n'
        '    def backward(ctx, g):\n'
        '        return g\n'
        'with torch.no_grad():\n'
        '    y = G.apply(a)\n'
        'print(y, y._base is a, y.requires_grad)\n'
        'y3 = G.apply(a); print(y3, y3._base is a, y3.grad_fn)'),
    "tutorial_basics": (
        'x = torch.ones(2, 2, requires_grad=True)\n'
        'y = x + 2; z = y * y * 3; out = z.mean()\n'
        'print(y, y.grad_fn, z, out)\n'
        'out.backward(); print(x.grad, x.is_leaf, y.is_leaf)\n'
        'x = torch.tensor([1., 2., 3.], requires_grad=True)\n'
        'y = x * 2\n'
        'while y.data.norm() < 1000:\n'
        '    y = y * 2\n'
        'y.backward(torch.tensor([0.1, 1.0, 0.0001])); print(y, x.grad)\n'
        'x = torch.tensor(2.0, requires_grad=True); y = x ** 2\n'
        'y.backward(retain_graph=True); y.backward(); print(x.grad); x.grad.zero_(); print(x.grad)\n'
        'x = torch.tensor(3.0, requires_grad=True); y = x * x; y.retain_grad(); z = y * 2; z.backward()\n'
        'print(x.grad, y.grad, z.grad)\n'
        'x = torch.tensor([1., 2., 3.], requires_grad=True)\n'
        'dy, = torch.autograd.grad((x ** 3).sum(), x, create_graph=True)\n'
        'print(dy, torch.autograd.grad(dy.sum(), x))'),
    "tutorial_backward_twice": (
        'x = torch.tensor(2.0, requires_grad=True); y = x ** 2\n'
        'y.backward(); print(x.grad); y.backward()'),
    "morvan_regression": (
        'import torch.nn.functional as F\n'
        'class Net(torch.nn.Module):\n'
        '    def __init__(self, n_feature, n_hidden, n_output):\n'
        '        super(Net, self).__init__()\n'
        '        self.hidden = torch.nn.Linear(n_feature, n_hidden)\n'
        '        self.predict = torch.nn.Linear(n_hidden, n_output)\n'
        '    def forward(self, x):\n'
        '        return self.predict(F.relu(self.hidden(x)))\n'
        'net = Net(n_feature=1, n_hidden=10, n_output=1); print(net)\n'
        'with torch.no_grad():\n'
        '    net.hidden.weight.copy_(torch.linspace(-1, 1, 10).unsqueeze(1)); net.hidden.bias.fill_(0.1)\n'
        '    net.predict.weight.copy_(torch.linspace(0.5, -0.5, 10).unsqueeze(0)); net.predict.bias.fill_(0.0)\n'
        'x = torch.unsqueeze(torch.linspace(-1, 1, 100), dim=1); y = x.pow(2)\n'
        'optimizer = torch.optim.SGD(net.parameters(), lr=0.2); loss_func = torch.nn.MSELoss()\n'
        'for t in range(30):\n'
        '    prediction = net(x); loss = loss_func(prediction, y)\n'
        '    optimizer.zero_grad(); loss.backward(); optimizer.step()\n'
        '    if t % 10 == 0:\n'
        "        print(t, 'Loss=%.4f' % loss.data.numpy(), loss)\n"
        'print(prediction[:3])'),
}


@pytest.mark.parametrize("name", SNIPPETS)
def test_snippet(name):
    code = SNIPPETS[name]
    t, e = run_both(T, E, code)
    assert same(t, e), f"\n{code}\n--- torch\n{t.summary()}--- engine\n{e.summary()}"
