"""Old and deprecated idioms, as older tutorials and blog posts still write them, against real PyTorch: the
deprecated overloads that take beta/alpha first (addmm, addmv, addr, baddbmm, addbmm, as methods, in place and as
torch.* functions; a 0-d tensor as the number), uint8 masks where PyTorch still takes them with a warning
(torch.where, masked_scatter), deprecated names and forms (nn.NLLLoss2d, nn.Container, torch.chain_matmul,
nn.utils.weight_norm, state_dict's positional arguments, set_default_tensor_type of CUDA types), and what multi-GPU
and older code reaches for (nn.DataParallel, torch.nn.modules.utils, torch.random, cudnn.version()): printed text,
warnings and the final error must be the same."""
import pytest

T = pytest.importorskip("torch", reason="differential tests need real PyTorch (pip install torch==2.13.0)")
from .harness import TRIES, load_engine, run_both, same  # noqa: E402

E = load_engine()

SNIPPETS = {
    # the deprecated overloads with the numbers first, beside the tensors: PyTorch's parser takes them (warning
    # once per process for all of them) and names the numbers beta and alpha; a 0-d tensor is a number there
    "beta_and_alpha_first_in_matrix_products": (
        'M = torch.ones(2, 2); a = torch.tensor([[1., 2.], [3., 4.]]); v = torch.tensor([1., 2.])\n'
        'w = torch.ones(2, requires_grad=True)\n'
        'tries(lambda: torch.addmm(0.5, M, 2, a, a), lambda: M.addmm(0.5, a, a), lambda: M.addmm(0.5, 2, a, a),\n'
        '      lambda: torch.addmv(0.5, v, a, v), lambda: v.addmv(0.5, 2, a, v), lambda: v.clone().addmv_(0.5, a, v),\n'
        '      lambda: torch.addr(0.5, M, 2, v, v), lambda: M.addr(0.5, v, v), lambda: M.clone().addr_(2, 3, v, v),\n'
        '      lambda: torch.baddbmm(0.5, M[None], a[None], a[None]), lambda: M[None].baddbmm(0.5, 2, a[None], a[None]),\n'
        '      lambda: M.addmm(torch.tensor(0.5), a, a), lambda: M.add(torch.tensor(2), a),\n'
        '      lambda: torch.addmm(0.5, M, 2, a, v), lambda: torch.addmm(0.5, M, 2, a, a.double()),\n'
        '      lambda: torch.addmm(0.5, M, 2, a, a, out=torch.empty(2, 2)), lambda: w.addmv_(0.5, a, v))\n'
        'y = torch.addmv(2, w, 3, a, v); y.sum().backward()\n'
        'print(y, w.grad, y.grad_fn._saved_alpha, y.grad_fn._saved_beta)'),
    # the number first given as a 0-d tensor (`p.add_(-lr, g)` with lr a tensor): a number to PyTorch's parser
    # when it does not require grad; a 1-element tensor is not one
    "a_0d_tensor_as_the_number_first": (
        'M = torch.tensor([[1., 2.], [3., 4.]]); a = torch.tensor([[0.5, -1.], [2., 1.5]]); B = torch.ones(1, 2, 2)\n'
        'W = torch.ones(2, 2, requires_grad=True); lr = torch.tensor(0.5)\n'
        'tries(lambda: torch.addcmul(M, lr, a, a), lambda: M.clone().add_(lr, W), lambda: M.clone().sub_(lr, a),\n'
        '      lambda: M.clone().addcdiv_(torch.tensor(2), a, a), lambda: M.long().addcmul_(lr, a, a),\n'
        '      lambda: W.add_(torch.tensor(2), a), lambda: B.clone().baddbmm_(lr, torch.tensor(2.), B, B),\n'
        '      lambda: B.clone().baddbmm_(torch.tensor([2.]), 0, B, B), lambda: M.clone().add_(W.sum(), a))'),
    # addbmm (and its deprecated overloads): beta * input + alpha * the sum of the batch's products, one addmm per
    # matrix as PyTorch's kernel adds them; beta 0 ignores input, nan too (addmm's too)
    "addbmm": (
        'M = torch.ones(2, 2, requires_grad=True); b1 = torch.arange(12.).view(3, 2, 2).requires_grad_()\n'
        'b2 = torch.linspace(-1, 1, 12).view(3, 2, 2).requires_grad_(); nan = torch.full((2, 2), float("nan"))\n'
        'y = torch.addbmm(M, b1, b2, beta=0.5, alpha=2); print(y, y.grad_fn.next_functions)\n'
        'for n in sorted(a for a in dir(y.grad_fn) if a.startswith("_saved")): print(n, getattr(y.grad_fn, n))\n'
        'y.sum().backward(); print(M.grad, b1.grad, b2.grad)\n'
        'tries(lambda: torch.addbmm(M, b1, b2[:, :1]), lambda: torch.addbmm(torch.ones(3), b1, b2),\n'
        '      lambda: torch.addbmm(M, b1[0], b2[0]), lambda: torch.addbmm(M, b1.double(), b2),\n'
        '      lambda: torch.addbmm(M, b1, b2[:2]), lambda: torch.addbmm(M, b1[:0], b2[:0], beta=3),\n'
        '      lambda: torch.addbmm(nan, b1, b2, beta=0), lambda: torch.addmm(nan, M, M, beta=0), lambda: M.addbmm_(b1, b2),\n'
        '      lambda: torch.addbmm(torch.ones(2), b1, b2.detach(), alpha=3).grad_fn._saved_batch2,\n'
        '      lambda: M.detach().clone().addbmm_(0.5, b1.detach(), b2.detach()), lambda: M.addbmm(0.5, 2, b1, b2))\n'
        'g = torch.autograd.grad(torch.addbmm(M, b1, b2).pow(2).sum(), [b1], create_graph=True)[0]\n'
        'g.sum().backward(); print(b2.grad)'),
    # torch.where of a ByteTensor mask (x > 0 was one before PyTorch had bool): warned once, read as bool, the
    # mask saved as given; other integer masks are refused
    "where_with_a_uint8_condition": (
        'x = torch.tensor([1., -2., 3.], requires_grad=True); m = (x > 0).byte()\n'
        'y = torch.where(m, x, 0.); print(y, y.grad_fn._saved_condition)\n'
        'y.sum().backward(); print(x.grad)\n'
        'print(torch.where(m, 1, 0), x.detach().where(m, torch.tensor(5.)), torch.where(m))\n'
        'tries(lambda: torch.where(m.int(), x, -x), lambda: torch.where(m, x, torch.ones(2)))'),
    # masked_scatter of a uint8 mask: PyTorch warns every time, then refuses it (after its dtype check)
    "masked_scatter_of_a_uint8_mask": (
        'x = torch.tensor([1., -2., 3.]); m = (x > 0).byte()\n'
        'tries(lambda: x.masked_scatter(m, torch.ones(3)), lambda: x.clone().masked_scatter_(m, torch.ones(3)),\n'
        '      lambda: x.masked_scatter(m.int(), torch.ones(3).double()), lambda: x.masked_scatter(m, torch.ones(3).double()),\n'
        '      lambda: x.masked_scatter(m.bool(), torch.ones(3)))'),
    # nn.NLLLoss2d: NLLLoss under its old name, a FutureWarning each time one is made
    "nllloss2d": (
        'import torch.nn as nn\n'
        'c = nn.NLLLoss2d(); print(c, isinstance(c, nn.NLLLoss), c.reduction)\n'
        'x = torch.log_softmax(torch.linspace(-1, 1, 12).view(1, 3, 2, 2), 1)\n'
        'print(nn.NLLLoss2d(size_average=False)(x, torch.tensor([[[0, 1], [2, 0]]])))'),
    # nn.Container, the Module of PyTorch's first releases (submodules by keyword): a FutureWarning when one is made
    # and when a subclass is defined, not when a subclass is made (typing_extensions' @deprecated on a class)
    "nn_container": (
        'import torch.nn as nn\n'
        'c = nn.Container(fc=nn.Linear(2, 1)); print(c, list(c.state_dict()))\n'
        'class Net(nn.Container):\n'
        '    def __init__(self):\n'
        '        super(Net, self).__init__(fc=nn.Linear(2, 1))\n'
        '    def forward(self, x):\n'
        '        return self.fc(x)\n'
        'n = Net(); print(n, n(torch.zeros(1, 2)).shape)\n'
        'class Loss(nn.NLLLoss2d):\n'
        '    pass\n'
        'print(Loss(), isinstance(Loss(), nn.NLLLoss))\n'
        'tries(lambda: nn.Container(1), lambda: nn.NLLLoss2d(foo=1))'),
    # nn.DataParallel(model) with no GPU: the module wrapped as it is ('module.' in the state_dict's keys) and called
    "data_parallel_without_gpus": (
        'import torch.nn as nn\n'
        'm = nn.Linear(2, 1)\n'
        'with torch.no_grad():\n'
        '    m.weight.fill_(0.5)\n'
        'dp = nn.DataParallel(m)\n'
        'print(dp, dp.module is m, dp.device_ids, list(dp.state_dict()), [n for n, _ in dp.named_parameters()])\n'
        'y = dp(torch.ones(3, 2)); print(y, y.grad_fn)\n'
        'tries(lambda: dp.dim, lambda: dp.weight, lambda: type(dp))'),
    # torch.nn.modules.utils, as custom layers import from it (_pair...), and the 'module.' prefix of a DataParallel
    # model's state_dict stripped for a plain model
    "nn_modules_utils": (
        'from torch.nn.modules.utils import _pair, _single, _triple, consume_prefix_in_state_dict_if_present\n'
        'import torch.nn as nn\n'
        'print(_pair(2), _pair((1, 2)), _single(1), _triple(2), _pair("ab"), _pair(None), _pair.__name__, _pair)\n'
        'sd = nn.DataParallel(nn.Sequential(nn.Linear(2, 1))).state_dict()\n'
        'consume_prefix_in_state_dict_if_present(sd, "module.")\n'
        'print(list(sd), dict(sd._metadata), nn.Sequential(nn.Linear(2, 1)).load_state_dict(sd))'),
    # state_dict(destination, prefix, keep_vars) by position, as old code calls it: taken, with a FutureWarning
    "state_dict_given_positional_arguments": (
        'import torch.nn as nn\n'
        'm = nn.Linear(2, 1); d = {}\n'
        'print(list(m.state_dict(d, "pre.").keys()), list(d.keys()))\n'
        'out = m.state_dict(None, "x.", True); print(list(out), out["x.weight"].requires_grad)\n'
        'print(list(m.state_dict(prefix="y.")))'),
    # nn.utils.weight_norm (deprecated, as TCN and WaveNet code calls it): weight_g / weight_v parameters, the weight
    # made again before each forward, by PyTorch's fused node over the first or last dim, else by norm_except_dim's
    # views and at::norm; remove_weight_norm undoes it
    "weight_norm": (
        'import torch.nn as nn\n'
        'def walk(f, d=0):\n'
        '    if f is None: return\n'
        '    print(" " * d, type(f).__name__, {a: getattr(f, a) for a in dir(f) if a.startswith("_saved")})\n'
        '    for n, _ in f.next_functions: walk(n, d + 1)\n'
        'm = nn.Linear(3, 2)\n'
        'with torch.no_grad():\n'
        '    m.weight.copy_(torch.tensor([[1., 2., 2.], [0., 3., -4.]])); m.bias.fill_(0.5)\n'
        'print(nn.utils.weight_norm(m) is m, m, [(n, p) for n, p in m.named_parameters()])\n'
        'walk(m.weight.grad_fn)\n'
        'm(torch.ones(1, 3)).sum().backward(); print(m.weight_g.grad, m.weight_v.grad, list(m.state_dict()))\n'
        'walk(nn.utils.weight_norm(nn.Conv1d(2, 3, 2), dim=1).weight.grad_fn)\n'
        'walk(nn.utils.weight_norm(nn.Conv2d(2, 3, 2), dim=None).weight.grad_fn)\n'
        'print(torch.autograd.grad(m.weight.sum(), [m.weight_v, m.weight_g], create_graph=True))\n'
        'tries(lambda: nn.utils.weight_norm(m))\n'
        'nn.utils.remove_weight_norm(m); print([n for n, _ in m.named_parameters()], m.weight)\n'
        'tries(lambda: nn.utils.remove_weight_norm(m))'),
    # torch.random, as older code seeds through it: torch's own seeding functions, and fork_rng
    "torch_random_module": (
        'import torch.random\n'
        'from torch.random import manual_seed\n'
        'print(manual_seed(1), torch.random.initial_seed(), torch.random.default_generator is torch.default_generator)\n'
        'a = torch.rand(2); torch.random.manual_seed(1); print(torch.equal(a, torch.rand(2)))\n'
        'with torch.random.fork_rng():\n'
        '    c = torch.rand(2)\n'
        'print(torch.equal(c, torch.rand(2)))\n'
        'tries(lambda: torch.random.foo, lambda: torch.random.get_rng_state().dtype)'),
    # set_default_tensor_type('torch.cuda.FloatTensor'), as GPU code calls it: the dotted name looked up as PyTorch
    # does, then a CUDA type is not available on a CPU build (the default stays float32)
    "set_default_tensor_type_of_cuda_and_other_names": (
        'for t in ["torch.cuda.FloatTensor", torch.cuda.DoubleTensor, "torch.FooTensor", "FloatTensor", "torch.cuda.Foo",\n'
        '          "torch.LongTensor", torch.float64, "torch.DoubleTensor", torch.FloatTensor]:\n'
        '    tries(lambda: torch.set_default_tensor_type(t), lambda: torch.ones(1).dtype)'),
    # what a notebook prints first: versions, and cuDNN's (None without CUDA)
    "notebook_header_versions": (
        'print(torch.__version__, torch.version.cuda, torch.backends.cudnn.version(), torch.cuda.is_available(),\n'
        '      torch.backends.cudnn.is_available(), torch.backends.cudnn.enabled)'),
    # torch.chain_matmul(A, B, C): warned once, multi_dot of two or more, a clone of one, each one a matrix
    "chain_matmul": (
        'a = torch.tensor([[1., 2.], [3., 4.]], requires_grad=True); b = torch.ones(2, 3); c = torch.ones(3, 1)\n'
        'for args in [(a,), (a, a), (a, b, c)]:\n'
        '    r = torch.chain_matmul(*args); print(r, r.grad_fn.next_functions)\n'
        'tries(lambda: torch.chain_matmul(a, c), lambda: torch.chain_matmul(a[0]), lambda: torch.chain_matmul(),\n'
        '      lambda: torch.chain_matmul(a, b.double()))'),
}


@pytest.mark.parametrize("name", SNIPPETS)
def test_snippet(name):
    code = TRIES + SNIPPETS[name]
    t, e = run_both(T, E, code)
    assert same(t, e), f"\n{code}\n--- torch\n{t.summary()}--- engine\n{e.summary()}"
