"""torch.distributions in the engine alone (these run inside Pyodide too): samples after torch.manual_seed, values,
gradients, graphs, reprs and errors, with the expected results written in from real PyTorch 2.13 (the same code run
there; tests/differential/test_distributions_vs_torch.py compares the two live). Also: `import torch.distributions`
finds the engine's package when torch is the engine, as in the browser."""
import math
import sys

import pytest

import engine as torch

D = torch.distributions


def chain(fn):
    names = []
    while fn is not None:
        names.append(type(fn).__name__)
        fn = fn.next_functions[0][0] if fn.next_functions else None
    return names


def normal_rsample():
    torch.manual_seed(0)
    loc = torch.tensor([0.5, -1.], requires_grad=True)
    scale = torch.tensor([1.5, 0.3], requires_grad=True)
    n = D.Normal(loc, scale)
    z = n.rsample((3,))
    lp = n.log_prob(z.detach())
    lp.sum().backward()
    return [z.tolist(), chain(z.grad_fn), type(z.grad_fn.next_functions[1][0]).__name__, lp.tolist(),
            chain(lp.grad_fn), loc.grad.tolist(), scale.grad.tolist(), n.entropy().tolist(), repr(n)]


def normal_sample_and_kl():
    torch.manual_seed(3)
    p, q = D.Normal(torch.tensor([0., 1.]), torch.tensor([1., 2.])), D.Normal(0.5, 1.5)
    kl = D.kl_divergence(p, q)
    return [p.sample().tolist(), p.sample((20,)).sum().item(), kl.tolist(), repr(q), q.batch_shape == torch.Size()]


def categorical_reinforce():
    torch.manual_seed(0)
    logits = torch.tensor([[1., 2., 0.5], [0.1, -1., 3.]], requires_grad=True)
    c = D.Categorical(logits=logits)
    a = c.sample()
    lp = c.log_prob(a)
    (-lp * torch.tensor([1., -2.])).sum().backward()
    return [a.tolist(), str(a.dtype), c.sample((4,)).tolist(), lp.tolist(), chain(lp.grad_fn), logits.grad.tolist(),
            c.entropy().tolist(), c.probs.tolist(), repr(c)]


def categorical_probs():
    torch.manual_seed(1)
    c = D.Categorical(probs=torch.tensor([2., 3., 5.]))
    q = D.Categorical(logits=torch.tensor([0., 1., 2.]))
    return [c.probs.tolist(), c.sample((6,)).tolist(), D.kl_divergence(c, q).item(), c.entropy().item(),
            c.enumerate_support().tolist()]


def bernoulli():
    torch.manual_seed(0)
    p = torch.tensor([0.2, 0.9, 0.5], requires_grad=True)
    b = D.Bernoulli(p)
    lp = b.log_prob(torch.tensor([1., 0., 1.]))
    lp.sum().backward()
    kl = D.kl_divergence(b, D.Bernoulli(logits=torch.tensor([0., 1., -2.])))
    return [b.sample().tolist(), b.sample((2,)).tolist(), lp.tolist(), type(lp.grad_fn.next_functions[0][0]).__name__,
            p.grad.tolist(), b.entropy().tolist(), kl.tolist(), b.logits.tolist(), repr(b),
            repr(D.Bernoulli(logits=torch.tensor(0.3)))]


def uniform_and_exponential():
    torch.manual_seed(1)
    r = torch.tensor([0.5, 2.], requires_grad=True)
    u = D.Uniform(torch.tensor([0., -1.]), torch.tensor([2., 3.]))
    x = u.rsample((2,))
    e = D.Exponential(r)
    s = e.rsample((2,))
    s.sum().backward()
    return [x.tolist(), u.log_prob(torch.tensor([1., 2.5])).tolist(), s.tolist(), chain(s.grad_fn), r.grad.tolist(),
            D.kl_divergence(u, D.Uniform(-1., 4.)).tolist(), D.kl_divergence(e, D.Exponential(1.)).tolist()]


def errors():
    out = []
    for f in (lambda: D.Normal(torch.tensor([0., 1.]), torch.tensor([1., -1.])),
              lambda: D.Normal(torch.zeros(2), 1.).log_prob(torch.ones(3)),
              lambda: D.Bernoulli(torch.tensor([0.5, 1.5])),
              lambda: D.Bernoulli(),
              lambda: D.Categorical(logits=torch.tensor([1., 2.])).log_prob(torch.tensor(2)),
              lambda: D.Categorical(torch.tensor(1.)),
              lambda: D.Uniform(1., 0.),
              lambda: D.kl_divergence(D.Categorical(torch.ones(2)), D.Normal(0., 1.))):
        try:
            f()
            out.append(None)
        except Exception as e:
            out.append(f'{type(e).__name__}: {e}')
    return out


CASES = [normal_rsample, normal_sample_and_kl, categorical_reinforce, categorical_probs, bernoulli,
         uniform_and_exponential, errors]


# PyTorch 2.13's results of the cases above (run with real torch).
EXPECTED = {
    'normal_rsample': [[[2.8114941120147705, -1.0880286693572998],
                        [-2.768184185028076, -0.8294706344604492],
                        [-1.1267836093902588, -1.4195786714553833]],
                       ['AddBackward0', 'AccumulateGrad'],
                       'MulBackward0',
                       [[-2.5117383003234863, 0.24198400974273682],
                        [-3.697965145111084, 0.12347733974456787],
                        [-1.912498116493225, -0.6930004954338074]],
                       ['SubBackward0', 'SubBackward0', 'DivBackward0', 'NegBackward0', 'PowBackward0', 'SubBackward0'],
                       [-1.1482105255126953, -3.7453105449676514],
                       [3.531987190246582, -2.115719795227051],
                       [1.8244036436080933, 0.21496570110321045],
                       'Normal(loc: torch.Size([2]), scale: torch.Size([2]))'],
    'normal_sample_and_kl': [[0.8032760620117188, 1.3496668338775635],
                             28.77882194519043,
                             [0.18324285745620728, 0.15676242113113403],
                             'Normal(loc: 0.5, scale: 1.5)',
                             True],
    'categorical_reinforce': [[1, 2],
                              'torch.int64',
                              [[0, 2], [1, 2], [1, 2], [1, 2]],
                              [-0.4643688201904297, -0.07077431678771973],
                              ['SqueezeBackward1', 'GatherBackward0', 'SubBackward0', 'AccumulateGrad'],
                              [[0.23122389614582062, -0.37146830558776855, 0.14024437963962555],
                               [-0.1025271937251091, -0.034128349274396896, 0.13665568828582764]],
                              [0.9059592485427856, 0.2876954674720764],
                              [[0.23122389614582062, 0.6285316944122314, 0.14024437963962555],
                               [0.05126360058784485, 0.017064176499843597, 0.931672215461731]],
                              'Categorical(probs: torch.Size([2, 3]), logits: torch.Size([2, 3]))'],
    'categorical_probs': [[0.20000000298023224, 0.30000001192092896, 0.5],
                          [0, 1, 1, 0, 2, 0],
                          0.07795286178588867,
                          1.0296530723571777,
                          [0, 1, 2]],
    'bernoulli': [[0.0, 1.0, 1.0],
                  [[1.0, 1.0, 0.0], [0.0, 1.0, 1.0]],
                  [-1.6094379425048828, -2.3025848865509033, -0.6931471824645996],
                  'BinaryCrossEntropyWithLogitsBackward0',
                  [5.0, -9.999998092651367, 2.0],
                  [0.5004024505615234, 0.32508301734924316, 0.6931471824645996],
                  [0.19274474680423737, 0.08817868679761887, 0.43378084897994995],
                  [-1.3862943649291992, 2.1972243785858154, 0.0],
                  'Bernoulli(probs: torch.Size([3]), logits: torch.Size([3]))',
                  'Bernoulli(logits: 0.30000001192092896)'],
    'uniform_and_exponential': [[[1.5152631998062134, 0.11724352836608887], [0.8061385154724121, 1.9387378692626953]],
                                [-0.6931471824645996, -1.3862943649291992],
                                [[0.5338056087493896, 0.0974598303437233], [1.624168038368225, 0.057954564690589905]],
                                ['DivBackward0'],
                                [-4.315947532653809, -0.0777072012424469],
                                [0.9162907600402832, 0.2231435477733612],
                                [0.3068528175354004, 0.1931471824645996]],
    'errors': ['ValueError: Expected parameter scale (Tensor of shape (2,)) of distribution Normal(loc: torch.Size([2]), '
               'scale: torch.Size([2])) to satisfy the constraint GreaterThan(lower_bound=0.0), but found invalid values:\n'
               'tensor([ 1., -1.])',
               'ValueError: Value is not broadcastable with batch_shape+event_shape: torch.Size([3]) vs torch.Size([2]).',
               'ValueError: Expected parameter probs (Tensor of shape (2,)) of distribution Bernoulli(probs: '
               'torch.Size([2])) to satisfy the constraint Interval(lower_bound=0.0, upper_bound=1.0), but found invalid '
               'values:\n'
               'tensor([0.5000, 1.5000])',
               'ValueError: Either `probs` or `logits` must be specified, but not both.',
               'ValueError: Expected value argument (Tensor of shape ()) to be within the support '
               '(IntegerInterval(lower_bound=0, upper_bound=1)) of the distribution Categorical(logits: torch.Size([2])), '
               'but found invalid values:\n'
               '2',
               'ValueError: `probs` parameter must be at least one-dimensional.',
               'ValueError: Expected parameter low (Tensor of shape ()) of distribution Uniform(low: 1.0, high: 0.0) to '
               'satisfy the constraint LessThan(upper_bound=0.0), but found invalid values:\n'
               '1.0',
               'NotImplementedError: No KL(p || q) is implemented for p type Categorical and q type Normal'],
}

# Values the engine's float32 kernels give an ulp or two away from PyTorch's (logsumexp; softplus): compared
# within 1e-5 relative (the KL sums cancel) until those kernels match.
APPROX = {('categorical_probs', 2), ('bernoulli', 6)}


def _same(got, want, approx):
    if approx:
        flat = lambda v: v if isinstance(v, list) else [v]   # noqa: E731
        return all(math.isclose(g, w, rel_tol=1e-5) for g, w in zip(flat(got), flat(want)))
    return got == want


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.__name__)
def test_case_as_pytorch(case):
    got, want = case(), EXPECTED[case.__name__]
    assert len(got) == len(want)
    for i, (g, w) in enumerate(zip(got, want)):
        assert _same(g, w, (case.__name__, i) in APPROX), (case.__name__, i, g, w)


def test_samples_follow_the_seed_and_have_no_graph():
    torch.manual_seed(0)
    n = D.Normal(torch.zeros(2, requires_grad=True), 1.)
    a = n.sample((2,))
    torch.manual_seed(0)
    b = n.rsample((2,))
    assert a.grad_fn is None and not a.requires_grad and b.grad_fn.name() == 'AddBackward0'
    assert a.tolist() == b.tolist()
    assert D.Categorical(logits=torch.zeros(3)).sample((5,)).dtype == torch.int64      # (int32 would do in Pyodide)


def test_import_forms_when_torch_is_the_engine():
    """As in the browser: sys.modules['torch'] is the engine, and the import hook finds its submodules."""
    saved = {k: v for k, v in sys.modules.items() if k == 'torch' or k.startswith('torch.')}
    try:
        for k in saved:
            del sys.modules[k]
        sys.modules['torch'] = torch
        import torch.distributions as d1
        from torch.distributions import Normal
        from torch.distributions.kl import kl_divergence
        from torch.distributions import constraints
        assert d1 is D and Normal is D.Normal and kl_divergence is D.kl_divergence
        assert constraints.positive is D.constraints.positive
    finally:
        for k in [k for k in sys.modules if k == 'torch' or k.startswith('torch.')]:
            del sys.modules[k]
        sys.modules.update(saved)


def test_repr_and_module_names():
    assert repr(D.Normal(torch.zeros(2), torch.ones(2))) == 'Normal(loc: torch.Size([2]), scale: torch.Size([2]))'
    assert repr(D.Normal(torch.tensor([0.]), 2.)) == 'Normal(loc: tensor([0.]), scale: tensor([2.]))'
    assert repr(D.Independent(D.Normal(torch.zeros(3), 1.), 1)) == \
        'Independent(Normal(loc: torch.Size([3]), scale: torch.Size([3])), 1)'
    assert str(type(D.Categorical(torch.ones(2)))) == "<class 'torch.distributions.categorical.Categorical'>"


@pytest.mark.skipif(sys.platform == 'emscripten', reason='no subprocesses in Pyodide')
def test_first_compile_turns_argument_validation_off_for_good():
    # (PyTorch 2.13: importing torch._dynamo, which the first compilation does, calls
    # Distribution.set_default_validate_args(False); a compile that compiles nothing loads nothing)
    import subprocess
    code = ('import engine as torch\n'
            'D = torch.distributions.Distribution\n'
            'print(D._validate_args)\n'
            'torch.compile(lambda x: x, disable=True); torch.compile(); print(D._validate_args)\n'
            'torch.compile(lambda x: x); print(D._validate_args)\n'
            'D.set_default_validate_args(True); torch.compile(torch.nn.Identity()); print(D._validate_args)\n')
    out = subprocess.run([sys.executable, '-c', code], capture_output=True, text=True, check=True).stdout.split()
    assert out == ['True', 'True', 'False', 'True']
