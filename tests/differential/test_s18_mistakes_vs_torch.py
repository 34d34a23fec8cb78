"""Learners' mistakes against real PyTorch, and what PyTorch says back: mistyped attributes (Python's "Did you
mean: '...'?" searches dir(), so the engine's dir() of tensors, modules, models and optimizers offers PyTorch's
names), torch.* functions used as values (builtins in PyTorch: `torch.tensor[[1., 1.]]`), PyTorch's C types as
Python's own messages name them ('torch.Size', 'torch.dtype', ...), wrong calls of torch.Size, torch.device,
max/min, as_tensor and layers' constructors, methods and functions PyTorch's argument parser checks (narrow, eq,
clamp, addmm, F.pad, F.one_hot...), grad modes called on a tensor, torch.cuda and torch.backends as modules, and
torch.optim's file modules. Printed text and the final error must be the same."""
import pytest

T = pytest.importorskip("torch", reason="differential tests need real PyTorch (pip install torch==2.13.0)")
from .harness import TRIES, load_engine, run_both, same  # noqa: E402

E = load_engine()

# suggest(f): the last line Python prints for f's uncaught AttributeError, with its "Did you mean" suggestion
SUGGEST = ("import sys, io, contextlib\n"
           "def suggest(*fs):\n"
           "    for f in fs:\n"
           "        try:\n"
           "            f()\n"
           "        except AttributeError as e:\n"
           "            b = io.StringIO()\n"
           "            with contextlib.redirect_stderr(b):\n"
           "                sys.__excepthook__(type(e), e, None)\n"
           "            print(b.getvalue().splitlines()[-1])\n") + TRIES

SNIPPETS = {
    # (which names: PyTorch's tensors list 749 in a fresh process, Python suggests none past 750, and some of
    # PyTorch's modules add more when imported)
    "mistyped_tensor_attributes": SUGGEST + (
        "x = torch.ones(2, requires_grad=True)\n"
        "print([n in dir(x) for n in ['angle', 'cholesky', 'cfloat', 'addbmm', 'indices', 'qr', 'gcd', 'backward',\n"
        "                             'bfloat16', '_data', '_version_counter', 'volatile', '__copy__', '__slots__']])\n"
        "y = x * 2; y.retain_grad(); y.sum().backward(); x.foo = 1\n"
        "for t in [x, y, x[:1], torch.nn.Parameter(torch.ones(1)), x.grad]:\n"
        "    print(sorted(set(dir(t)) ^ set(dir(torch.ones(1)))))"),
    "c_types_named_as_pytorch_names_them": SUGGEST + (
        "x = torch.ones(2, 3)\n"
        "objs = [x.shape, x.dtype, x.device, x.layout, torch.contiguous_format, torch.finfo(torch.float32),\n"
        "        torch.iinfo(torch.int32), torch.Generator()]\n"
        "for o in objs:\n"
        "    tries(lambda: o.foo, lambda: o(), lambda: len(o), lambda: o + 1, lambda: iter(o), lambda: o[0])\n"
        "    suggest(lambda: o.Numel, lambda: o.is_float, lambda: o.typ)\n"
        "    print(type(o), type(o).__name__)\n"
        "print(type(torch.Size), type(torch.dtype), type(torch.device))\n"
        "tries(lambda: setattr(x.shape, 'foo', 1), lambda: setattr(x.dtype, 'is_signed', 1),\n"
        "      lambda: setattr(x.dtype, 'foo', 1), lambda: x.shape.T, lambda: x.shape.size)\n"
        "print(sorted(dir(x.shape)), sorted(set(dir(x.dtype)) - {'to_complex'}), torch.bool.abbr, x.dtype.abbr)"),
    "size_and_device_called_wrongly": TRIES + (
        "tries(lambda: torch.Size(2, 3), lambda: torch.Size(sizes=(2,)), lambda: torch.Size(), lambda: torch.Size(2),\n"
        "      lambda: torch.device(), lambda: torch.device(foo=1), lambda: torch.device('cpu', 0, 1),\n"
        "      lambda: torch.device(type='cpu'), lambda: torch.device('cpu', index=0))"),
    "functions_used_as_values": TRIES + (
        "print(torch.tensor, torch.sum, torch.is_grad_enabled, torch.nn.functional.linear,\n"
        "      torch.nn.functional.conv2d, torch.nn.functional.logsigmoid, torch.linalg.norm, torch.manual_seed)\n"
        "print(type(torch.zeros), torch.tensor.__name__, torch.tensor.__qualname__, torch.tensor.__module__)\n"
        "tries(lambda: torch.tensor[[1., 1.]], lambda: 100 * torch.rand, lambda: torch.ones(2) + torch.sum,\n"
        "      lambda: torch.randn.shape, lambda: len(torch.zeros), lambda: torch.tensor(torch.ones),\n"
        "      lambda: torch.max[0], lambda: torch.tensor < torch.tensor)\n"
        "import copy\n"
        "print(copy.deepcopy([torch.tanh])[0] is torch.tanh, torch.relu(torch.tensor([-1., 2.])))"),
    "methods_given_wrong_arguments_get_the_parsers_error": TRIES + (
        "x = torch.ones(2, 3)\n"
        "tries(lambda: x.narrow(0, 0), lambda: x.eq(), lambda: x.eq([1, 1, 1]), lambda: x.lt(0, 1),\n"
        "      lambda: x.clamp(0, 1, 2),\n"
        "      lambda: x.clamp(foo=1), lambda: x.movedim(0), lambda: x.swapaxes(0), lambda: x.lerp(x),\n"
        "      lambda: x.addmm(x), lambda: x.addmm('a'), lambda: x.addcmul(x), lambda: x.baddbmm(x),\n"
        "      lambda: torch.ones(3).scatter(0, torch.tensor([0])), lambda: x.index_copy(0, torch.tensor([0])),\n"
        "      lambda: x.type('foo'), lambda: x.type(0, 1, 2, 3, 4), lambda: x.type(foo=1), lambda: x.split(),\n"
        "      lambda: x.norm(foo=1), lambda: x.unique(foo=1), lambda: x.mode(0, 1, 2), lambda: x.fmax(),\n"
        "      lambda: x.normal_(0, 1, 2), lambda: x.uniform_(foo=3), lambda: x.random_(1, 2, 3),\n"
        "      lambda: x.bernoulli_(2, 3), lambda: x.exponential_(1, 2), lambda: x.allclose(),\n"
        "      lambda: x.clip(min=0).shape, lambda: x.lt(2.5).sum(), lambda: x.movedim(0, 1).shape,\n"
        "      lambda: x.addcmul(x, x, value=2)[0], lambda: x.type(torch.int64).dtype, lambda: x.split(1))\n"
        "print(torch.Tensor.split, x.norm)"),
    "functions_given_wrong_arguments_get_the_parsers_error": TRIES + (
        "import torch.nn.functional as F\n"
        "x = torch.ones(2, 3)\n"
        "tries(lambda: F.pad(x, 1.5), lambda: F.pad(2, 3), lambda: F.pad(x, (1, 1), value=2.)[0],\n"
        "      lambda: F.one_hot([1, 2]),\n"
        "      lambda: F.one_hot(torch.tensor([0, 2]), 1.5), lambda: F.one_hot(torch.tensor([0, 2]), num_classes=4),\n"
        "      lambda: F.linear(x), lambda: F.linear([1., 2.], torch.ones(2, 2)), lambda: F.gelu(),\n"
        "      lambda: torch.numel(), lambda: torch.numel([1, 2]), lambda: torch.erf(), lambda: torch.equal(x),\n"
        "      lambda: torch.allclose(x), lambda: torch.reshape(), lambda: torch.reshape(x),\n"
        "      lambda: torch.permute(x),\n"
        "      lambda: torch.multinomial(), lambda: torch.log2(), lambda: torch.reshape(x, (4, -1)))"),
    "mistyped_names_of_cuda_and_backends": SUGGEST + (
        "suggest(lambda: torch.cuda.is_availble, lambda: torch.backends.mps.is_availble, lambda: torch.backends.mpss,\n"
        "        lambda: torch.backends.cudnn.benchmarks, lambda: torch.accelerator.is_availble)\n"
        "torch.backends.cudnn.benchmark = True\n"
        "print(torch.backends.cudnn.benchmark, torch.backends.mps.is_available(), torch.cuda.is_available())"),
    "tensor_attributes_deleted_or_given_the_tensor_itself": TRIES + (
        "for n in ['shape', 'dtype', 'grad', 'requires_grad', 'data', 'grad_fn', 'is_leaf', 'T', 'ndim', '_version',\n"
        "          'retains_grad']:\n"
        "    y = torch.ones(2, requires_grad=True)\n"
        "    tries(lambda: delattr(y, n), lambda: getattr(y, n))\n"
        "x = torch.ones(2, requires_grad=True)\n"
        "tries(lambda: setattr(x, 'grad', x), lambda: x.grad)"),
    "grad_modes_called_on_a_tensor": TRIES + (
        "x = torch.ones(2, requires_grad=True)\n"
        "tries(lambda: torch.no_grad()(x * 2), lambda: torch.no_grad(x), lambda: torch.enable_grad(False),\n"
        "      lambda: torch.set_grad_enabled(False)(lambda: x * 2)().requires_grad)"),
    "max_and_min_given_a_tensor_and_more": TRIES + (
        "x = torch.tensor([[1., 5.], [3., 2.]])\n"
        "tries(lambda: x.max(x, 1), lambda: x.min(x, True), lambda: torch.max(x, x, True), lambda: x.max(1, x),\n"
        "      lambda: x.max(x), lambda: x.max(0, True), lambda: x.max(dim=1).values.grad_fn)"),
    "as_tensor_given_a_str_dtype": TRIES + (
        "tries(lambda: torch.as_tensor([1, 2], dtype='float'), lambda: torch.as_tensor([1, 2], dtype=float))"),
    "layers_constructed_without_their_arguments": TRIES + (
        "import torch.nn as nn\n"
        "tries(lambda: nn.Conv2d(3, 8), lambda: nn.Conv1d(), lambda: nn.ConvTranspose2d(1, 2),\n"
        "      lambda: nn.BatchNorm1d(), lambda: nn.BatchNorm2d(), lambda: nn.Conv2d(1, 2, 3))"),
    "optim_file_modules_and_init_old_names": SUGGEST + (
        "suggest(lambda: torch.optim.rprop, lambda: torch.optim.asgd, lambda: torch.nn.BatchNorm)\n"
        "from torch.optim.adam import Adam\n"
        "print(Adam, torch.nn.init.normal.__qualname__)"),
    "mistyped_module_attributes": SUGGEST + (
        "import torch.nn as nn, torch.nn.functional as F\n"
        "suggest(lambda: nn.Bilinea, lambda: nn.AVGPOOL3D, lambda: nn.Container_, lambda: F.conv3, lambda: F.pdsit,\n"
        "        lambda: torch.autograd.forward_a, lambda: torch.optim.Adafacto, lambda: nn.init.normal,\n"
        "        lambda: torch.linalg.eigvalh, lambda: nn.Linaer)\n"
        "for m in [nn, F, torch.autograd, torch.optim, nn.init, torch.linalg, torch.optim.lr_scheduler,\n"
        "          torch.utils.data, nn.utils]:\n"
        "    print([n in dir(m) for n in ['Tensor', 'np', '__getattr__', '__dir__', 'Bilinear', 'conv3d',\n"
        "                                 '_BatchNorm', 'forward_ad', 'Adafactor', '_make_deprecate', 'eigvalsh']])"),
    "mistyped_model_and_optimizer_attributes": SUGGEST + (
        "import torch.nn as nn\n"
        "class Net(nn.Module):\n"
        "    def __init__(self):\n"
        "        super().__init__(); self.fc = nn.Linear(2, 2); self.fn = 3\n"
        "    def forward(self, x): return self.fc(x)\n"
        "m = Net(); opt = torch.optim.SGD(m.parameters(), lr=0.1)\n"
        "suggest(lambda: m.Compile, lambda: m.share_memor, lambda: m.dump_patche, lambda: m.paramters,\n"
        "        lambda: opt.register_step_hook, lambda: opt.zero_grads)\n"
        "for o in [m, nn.Tanh(), nn.Identity(), nn.ModuleDict({'a': nn.ReLU()}), nn.Linear(2, 3), nn.ReLU()]:\n"
        "    print(sorted(set(dir(o)) - set(dir(nn.Module())) - {'__constants__'}), '_non_persistent' in dir(o))\n"
        "print(len(dir(opt)), len(dir(torch.optim.Adam(m.parameters()))))"),
}


@pytest.mark.parametrize("name", SNIPPETS)
def test_snippet(name):
    code = SNIPPETS[name]
    t, e = run_both(T, E, code)
    assert same(t, e), f"\n{code}\n--- torch\n{t.summary()}--- engine\n{e.summary()}"
