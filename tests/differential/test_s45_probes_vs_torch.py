"""Differences found by session 45's probes against real PyTorch. Printed text, warnings and the final error must be
the same."""
import pytest

T = pytest.importorskip("torch", reason="differential tests need real PyTorch (pip install torch==2.13.0)")
from .harness import SHOW, load_engine, run_both, same  # noqa: E402

E = load_engine()

SNIPPETS = {
    # the dtypes the engine names without modelling their tensors: printed, compared, promoted and described as
    # PyTorch's (nanoGPT picks one from a table of them)
    "unmodelled_dtypes_named": (
        'ptdtype = {"float32": torch.float32, "bfloat16": torch.bfloat16, "float16": torch.float16}["float32"]\n'
        'print(ptdtype, torch.bfloat16, torch.cfloat, torch.cdouble, torch.chalf, type(torch.bfloat16))\n'
        'print(torch.bfloat16.is_floating_point, torch.bfloat16.itemsize, torch.cfloat.is_complex,\n'
        '      torch.complex64.is_floating_point, torch.bfloat16 == torch.float16, torch.cfloat is torch.complex64)\n'
        'print(torch.finfo(torch.bfloat16), torch.finfo(torch.bfloat16).max)\n'
        'ds = [torch.bool, torch.uint8, torch.int32, torch.int64, torch.float16, torch.bfloat16, torch.float32,\n'
        '      torch.float64, torch.complex32, torch.complex64, torch.complex128]\n'
        'for a in ds:\n'
        '    print([str(torch.promote_types(a, b))[6:] for b in ds])'),
    # bernoulli's checks: p outside [0, 1]; probabilities of an integer or bool type
    "bernoulli_checks": (
        'torch.manual_seed(0)\n'
        'tries(lambda: torch.bernoulli(torch.tensor([0.5]), 2.), lambda: torch.bernoulli(torch.tensor([0.5]), -1.),\n'
        '      lambda: torch.bernoulli(torch.tensor([0.5]), 1.), lambda: torch.bernoulli(torch.tensor([1, 0])),\n'
        '      lambda: torch.bernoulli(torch.tensor([True])), lambda: torch.bernoulli(torch.tensor([1], dtype=torch.uint8)),\n'
        '      lambda: torch.bernoulli(torch.tensor([0.25, 1.])))'),
    # F.linear with a 1-d weight and a bias of one row goes to addmm, as a batch: its error
    "linear_of_a_one_dim_weight": (
        'import torch.nn.functional as F\n'
        'tries(lambda: F.linear(torch.ones(3), torch.ones(3), torch.ones(2)),\n'
        '      lambda: F.linear(torch.ones(3), torch.ones(3), torch.ones(1)),\n'
        '      lambda: F.linear(torch.ones(3), torch.ones(3), torch.ones(())),\n'
        '      lambda: F.linear(torch.ones(6)[::2], torch.ones(3), torch.ones(2)),\n'
        '      lambda: F.linear(torch.ones(3), torch.ones(3, 3)[:, 0], torch.ones(1)),\n'
        '      lambda: F.linear(torch.ones(3), torch.ones(2, 3, requires_grad=True), torch.ones(2)).grad_fn)'),
    # an LSTM's proj_size is checked before the engine says it does not model it
    "lstm_proj_size_checked": (
        'tries(lambda: torch.nn.LSTM(2, 3, proj_size=3), lambda: torch.nn.LSTM(2, 3, proj_size=-1),\n'
        '      lambda: torch.nn.LSTM(2, 3, proj_size=4))'),
    # vmap checks its chunk_size (after randomness)
    "vmap_chunk_size_checked": (
        'from torch.func import vmap\n'
        'tries(lambda: vmap(lambda x: x * 2, chunk_size=0)(torch.ones(3)), lambda: vmap(lambda x: x * 2, chunk_size=-2),\n'
        '      lambda: vmap(lambda x: x * 2, chunk_size=2)(torch.ones(3)),\n'
        '      lambda: vmap(lambda x: x, randomness="x", chunk_size=0))'),
    # printed inside the function of torch.func.grad / vjp / jacrev: PyTorch's GradTrackingTensor wrappers, one per
    # level, around the value as seen outside (its graph there if it has one)
    "printed_inside_func_transforms": (
        'from torch.func import grad, vjp, jacrev\n'
        'def f(x):\n'
        '    y = x ** 2\n'
        '    print(x, y, y.requires_grad, y.grad_fn, f"{x:.2f}", str(x) == repr(x))\n'
        '    return y.sum()\n'
        'grad(f)(torch.tensor(3.))\n'
        'grad(grad(f))(torch.tensor(3.))\n'
        'w = torch.tensor(2., requires_grad=True)\n'
        'grad(lambda x: f(x * w))(torch.tensor(3.))\n'
        'grad(f)(w)\n'
        'def g(x):\n'
        '    print(x, [x * 2], w)\n'
        '    return (x * x).sum()\n'
        'vjp(g, torch.tensor([1., 2.])); jacrev(g)(torch.tensor([1., 2.]))\n'
        'print(grad(g)(torch.tensor([1., 2.])), grad(f)(torch.tensor(1.)))'),
    # the layouts PyTorch names besides strided and sparse_coo (the engine names them too, and refuses them)
    "other_layouts_named": (
        'print(torch.sparse_csr, torch.sparse_csc, torch.sparse_bsr, torch.sparse_bsc, torch._mkldnn, torch.jagged,\n'
        '      type(torch.jagged), torch.sparse_csr == torch.sparse_csr, torch.zeros(2).layout == torch.sparse_csr)\n'
        'print(repr(torch.sparse_bsr), str(torch.sparse_bsr), f"{torch.sparse_bsr}")'),
    # backward() inside any torch.func transform is refused first, whatever it is called on (autograd.grad is not)
    "backward_inside_func_transforms": (
        'from torch.func import grad, jvp, vmap, jacfwd\n'
        'def f(x):\n'
        '    torch.ones(2).sum().backward()\n'
        '    return x.sum()\n'
        'def f2(x):\n'
        '    (x * 2).backward()\n'
        '    return x.sum()\n'
        'def f3(x):\n'
        '    (x * 2).sum().backward(inputs=[])\n'
        '    return x.sum()\n'
        'def f4(x):\n'
        '    w = torch.ones(2, requires_grad=True)\n'
        '    (w * 2).sum().backward()\n'
        '    return (x * w).sum()\n'
        'tries(lambda: grad(f)(torch.ones(2)), lambda: grad(f2)(torch.ones(2)), lambda: grad(f3)(torch.ones(2)),\n'
        '      lambda: jvp(f4, (torch.ones(2),), (torch.ones(2),)), lambda: vmap(f4)(torch.ones(3, 2)),\n'
        '      lambda: jacfwd(f4)(torch.ones(2)))'),
    # the constraints' classes print under torch.distributions.constraints
    "constraint_classes_named_as_torchs": (
        'from torch.distributions import constraints as c\n'
        'print(c.Constraint, type(c.positive), type(c.real), type(c.simplex), c._Dependent, c._DependentProperty, type(c.independent(c.real, 1)))\n'
        'print(type(c.unit_interval), type(c.nonnegative_integer), c.positive, c.independent(c.real, 1), type(c.dependent))'),
    # a generator's clone_state: a new generator in the same state
    "generator_clone_state": (
        'g = torch.Generator().manual_seed(0)\n'
        'torch.rand(3, generator=g)\n'
        'h = g.clone_state()\n'
        'print(type(h), h.initial_seed(), torch.rand(2, generator=g), torch.rand(2, generator=h), torch.randn(3, generator=g).tolist() == torch.randn(3, generator=h).tolist())'),
    # MultivariateNormal (Gaussian policies, mixture models, VAE priors): its three parameterisations, samples after
    # manual_seed, densities and their gradients, batches, KL, its argument errors
    "mvn_covariance": (
        'from torch.distributions import MultivariateNormal, kl_divergence\n'
        'cov = torch.tensor([[2., .5], [.5, 1.]])\n'
        'd = MultivariateNormal(torch.zeros(2), covariance_matrix=cov)\n'
        'print(d, d.batch_shape, d.event_shape)\n'
        'torch.manual_seed(0); print(d.sample((3,)), d.sample())\n'
        'print(d.log_prob(torch.tensor([0.5, -1.])), d.entropy(), d.mean, d.variance, d.scale_tril, d.precision_matrix)'),
    "mvn_scale_tril_grads": (
        'from torch.distributions import MultivariateNormal\n'
        'loc = torch.tensor([1., 2.], requires_grad=True)\n'
        'L = torch.tensor([[1., 0.], [0.5, 2.]], requires_grad=True)\n'
        'd = MultivariateNormal(loc, scale_tril=L)\n'
        'print(d, d.covariance_matrix)\n'
        'torch.manual_seed(1)\n'
        'x = d.rsample((4,))\n'
        'print(x, x.grad_fn)\n'
        'lp = d.log_prob(x.detach()).sum()\n'
        'lp.backward()\n'
        'print(lp, lp.grad_fn, loc.grad, L.grad)'),
    "mvn_precision_batches": (
        'from torch.distributions import MultivariateNormal\n'
        'P = torch.tensor([[2., -0.3], [-0.3, 0.5]])\n'
        'd = MultivariateNormal(torch.zeros(3, 2), precision_matrix=P)\n'
        'print(d, d.batch_shape, d.event_shape, d.covariance_matrix.shape)\n'
        'torch.manual_seed(2); print(d.rsample().shape, d.log_prob(torch.zeros(3, 2)), d.entropy())\n'
        'print(d.expand((4, 3)).batch_shape, d.expand((4, 3)).log_prob(torch.ones(2)).shape)'),
    "mvn_argument_errors": (
        'from torch.distributions import MultivariateNormal\n'
        'tries(lambda: MultivariateNormal(torch.tensor(0.), torch.eye(2)), lambda: MultivariateNormal(torch.zeros(2)),\n'
        '      lambda: MultivariateNormal(torch.zeros(2), torch.eye(2), scale_tril=torch.eye(2)),\n'
        '      lambda: MultivariateNormal(torch.zeros(2), torch.ones(2)),\n'
        '      lambda: MultivariateNormal(torch.zeros(2), scale_tril=torch.ones(2)),\n'
        '      lambda: MultivariateNormal(torch.zeros(2), torch.tensor([[1., 2.], [2., 1.]])),\n'
        '      lambda: MultivariateNormal(torch.zeros(2), torch.tensor([[1., 2.], [0., 1.]])),\n'
        '      lambda: MultivariateNormal(torch.zeros(2), scale_tril=torch.tensor([[1., 1.], [0., 1.]])),\n'
        '      lambda: MultivariateNormal(torch.zeros(2), torch.eye(2)).log_prob(torch.zeros(3)),\n'
        '      lambda: MultivariateNormal(torch.zeros(2), torch.eye(3)))'),
    "mvn_kl": (
        'from torch.distributions import MultivariateNormal, kl_divergence, Normal\n'
        'p = MultivariateNormal(torch.tensor([0., 1.]), torch.tensor([[2., .5], [.5, 1.]]))\n'
        'q = MultivariateNormal(torch.tensor([1., 0.]), scale_tril=torch.tensor([[1., 0.], [0.3, 0.8]]))\n'
        'print(kl_divergence(p, q), kl_divergence(q, p))\n'
        'r = MultivariateNormal(torch.zeros(3, 2), torch.eye(2))\n'
        'print(kl_divergence(p, r), kl_divergence(r, q).shape)\n'
        'tries(lambda: kl_divergence(p, MultivariateNormal(torch.zeros(3), torch.eye(3))), lambda: kl_divergence(p, Normal(0., 1.)))'),
    "mvn_fit_loop": (
        'from torch.distributions import MultivariateNormal\n'
        'mu = torch.zeros(2, requires_grad=True)\n'
        'A = torch.tensor([[1., 0.], [0.2, 0.5]], requires_grad=True)\n'
        'opt = torch.optim.SGD([mu, A], lr=0.1)\n'
        'data = torch.tensor([[1., 2.], [0.5, 1.5], [1.5, 2.5]])\n'
        'for step in range(3):\n'
        '    opt.zero_grad()\n'
        '    d = MultivariateNormal(mu, scale_tril=torch.tril(A))\n'
        '    loss = -d.log_prob(data).mean()\n'
        '    loss.backward()\n'
        '    opt.step()\n'
        '    print(step, round(loss.item(), 4), [round(v, 4) for v in mu.tolist()], A.grad)'),
    "mvn_batched_covariances": (
        'from torch.distributions import MultivariateNormal\n'
        'd = MultivariateNormal(torch.zeros(2, 3), covariance_matrix=torch.eye(3).expand(2, 3, 3) * torch.tensor([1., 2.]).view(2, 1, 1))\n'
        'torch.manual_seed(3)\n'
        'print(d, d.sample((2,)).shape, d.log_prob(torch.zeros(4, 2, 3)).shape, d.stddev, d.mode)'),
    # torch.nn.utils' submodules are its attributes after `import torch` (older code calls
    # torch.nn.utils.stateless.functional_call)
    "nn_utils_submodules_as_attributes": (
        'import torch.nn as nn\n'
        'm = nn.Linear(2, 1)\n'
        "for n in ['stateless', 'clip_grad', 'convert_parameters', 'init', 'rnn', 'parametrize', 'parametrizations']:\n"
        '    print(n, hasattr(torch.nn.utils, n), type(getattr(torch.nn.utils, n)).__name__)\n'
        "out = torch.nn.utils.stateless.functional_call(m, {'weight': torch.ones(1, 2), 'bias': torch.zeros(1)}, (torch.ones(1, 2),))\n"
        'print(out, torch.nn.utils.convert_parameters.parameters_to_vector(m.parameters()).shape)'),
    # copy.deepcopy of a lazy module before its first forward: new uninitialized parameters (a lazy buffer: the
    # error PyTorch's Tensor.__deepcopy__ meets)
    "deepcopy_of_a_lazy_module": (
        'import copy\n'
        'import torch.nn as nn\n'
        'm = nn.Sequential(nn.LazyLinear(3), nn.ReLU())\n'
        'm2 = copy.deepcopy(m)\n'
        'print(m2, m2[0].weight, type(m2[0].weight), m2[0].weight is m[0].weight, m2[0].weight.requires_grad)\n'
        'torch.manual_seed(0)\n'
        'print(m2(torch.ones(2, 4)).shape, m2[0].weight.shape, type(m[0].weight).__name__)\n'
        'tries(lambda: copy.deepcopy(nn.LazyBatchNorm1d()))'),
}


@pytest.mark.parametrize("name", SNIPPETS)
def test_snippet(name):
    code = SHOW + SNIPPETS[name]
    t, e = run_both(T, E, code)
    assert same(t, e), f"\n{code}\n--- torch\n{t.summary()}--- engine\n{e.summary()}"
