"""torch.optim's RMSprop and Adagrad (the tutorials' other optimizers) and Adam against real PyTorch: the same
updates step after step, the same state, param_groups, repr and errors. Adam is compared bit for bit; RMSprop and
Adagrad divide by a square root, which PyTorch takes from MKL (an ulp off the correctly rounded root for about one
number in six), so they agree bit for bit given PyTorch's roots and to float32 rounding otherwise."""
import numpy as np
import pytest

T = pytest.importorskip("torch", reason="differential tests need real PyTorch (pip install torch==2.13.0)")
from .harness import load_engine, run_both, same  # noqa: E402

E = load_engine()
rng = np.random.default_rng(0)
P0 = rng.standard_normal((5, 7)).astype(np.float32)
GRADS = [rng.standard_normal((5, 7)).astype(np.float32) for _ in range(20)]

CONFIGS = [('RMSprop', {}), ('RMSprop', dict(momentum=0.9)), ('RMSprop', dict(centered=True)),
           ('RMSprop', dict(centered=True, momentum=0.5, weight_decay=0.1)),
           ('RMSprop', dict(lr=0.1, alpha=0.9, maximize=True)), ('Adagrad', {}),
           ('Adagrad', dict(lr=0.1, lr_decay=0.01)),
           ('Adagrad', dict(weight_decay=0.1, initial_accumulator_value=0.1, maximize=True)),
           ('Adam', {}), ('Adam', dict(amsgrad=True, weight_decay=0.1)), ('AdamW', {})]


def train(lib, name, kwargs):
    p = lib.tensor(P0.copy(), requires_grad=True)
    opt = getattr(lib.optim, name)([p], **kwargs)
    for g in GRADS:
        p.grad = lib.tensor(g.copy())
        opt.step()
    return p.detach().numpy(), opt


@pytest.mark.parametrize('name, kwargs', CONFIGS)
def test_updates(name, kwargs):
    (t, t_opt), (e, e_opt) = train(T, name, kwargs), train(E, name, kwargs)
    if name.startswith('Adam'):
        assert t.tobytes() == e.tobytes()
    else:
        np.testing.assert_allclose(e, t, rtol=1e-5, atol=1e-7)
    assert repr(e_opt) == repr(t_opt)
    assert str(e_opt.state_dict()['param_groups']) == str(t_opt.state_dict()['param_groups'])
    assert sorted(e_opt.state_dict()['state'][0]) == sorted(t_opt.state_dict()['state'][0])


def test_updates_bit_for_bit_given_pytorchs_square_roots(monkeypatch):
    import engine.optim as optim

    class NumpyWithTorchSqrt:
        def __getattr__(self, name):
            return getattr(np, name)

        @staticmethod
        def sqrt(x):
            return T.sqrt(T.from_numpy(np.ascontiguousarray(x))).numpy()

    monkeypatch.setattr(optim, 'np', NumpyWithTorchSqrt())
    for name, kwargs in CONFIGS:
        assert train(T, name, kwargs)[0].tobytes() == train(E, name, kwargs)[0].tobytes(), (name, kwargs)


def test_tutorial_loop_and_errors():
    code = (
        "p = torch.nn.Parameter(torch.ones(2))\n"
        "print(torch.optim.Adagrad([p]).state[p])\n"
        "opt = torch.optim.RMSprop([p], lr=0.1)\n"
        "p.grad = torch.tensor([0.5, -2.])\n"
        "opt.step()\n"
        "print(opt.state[p], opt.state_dict()['param_groups'])\n"
        "for kw in [dict(lr=-1), dict(eps=-1), dict(momentum=-1), dict(weight_decay=-1), dict(alpha=-1)]:\n"
        "    try:\n"
        "        torch.optim.RMSprop([p], **kw)\n"
        "    except ValueError as e:\n"
        "        print(e)\n"
        "for kw in [dict(lr_decay=-1), dict(initial_accumulator_value=-1), dict(eps=-1)]:\n"
        "    try:\n"
        "        torch.optim.Adagrad([p], **kw)\n"
        "    except ValueError as e:\n"
        "        print(e)\n")
    t, e = run_both(T, E, code)
    assert same(t, e)
