"""torch.autograd.functional (jacobian, hessian, vjp, jvp, vhp, hvp) against real PyTorch: printed results, shapes,
detached or connected results, and errors word for word."""
import pytest

T = pytest.importorskip("torch", reason="differential tests need real PyTorch (pip install torch==2.13.0)")
from .harness import load_engine, run_both, same  # noqa: E402

E = load_engine()

CODE = """\
AF = torch.autograd.functional
jacobian, hessian, vjp, jvp, hvp, vhp = AF.jacobian, AF.hessian, AF.vjp, AF.jvp, AF.hvp, AF.vhp
def f(x): return x ** 2
x = torch.tensor([1., 2.])
J = jacobian(f, x); print(J, J.requires_grad, J.grad_fn)
print(jacobian(lambda a, b: a * b, (x, torch.tensor([3., 4.]))))
print(jacobian(lambda a: (a * 2, a.sum()), x))
print(jacobian(lambda a, b: (a * b, (a + b).sum()), (x, torch.tensor([3., 4.]))))
H = hessian(lambda a: (a ** 3).sum(), x); print(H)
print(hessian(lambda a, b: (a * b).sum(), (x, torch.tensor([3., 4.]))))
print(hessian(lambda a: (a ** 2).sum(), torch.tensor([[1., 2.], [3., 4.]])).shape)
print(vjp(f, x, torch.ones(2)))
print(jacobian(f, x, create_graph=True))
print(jacobian(lambda a: torch.ones(2), x))
print(jacobian(lambda a: a.exp().sum(), torch.tensor(0.5)))
w = torch.tensor([1., 2.], requires_grad=True)
Jc = jacobian(lambda a: a * a, w, create_graph=True); print(Jc, Jc.requires_grad)
print(w.grad, x.requires_grad)
for fn in (lambda: jacobian(f, [x]), lambda: jacobian(f, (x, 3)), lambda: hessian(f, x),
           lambda: vjp(f, x),
           lambda: vjp(f, x, torch.ones(3)), lambda: vjp(f, x, (torch.ones(2), torch.ones(2))), lambda: jvp(f, x),
           lambda: hessian(lambda a: (a, a), x), lambda: jacobian(lambda a: 3, x)):
    try: print(fn())
    except Exception as e: print(type(e).__name__, e)
print(jvp(f, x, torch.ones(2)), hvp(lambda a: (a**3).sum(), x, torch.ones(2)),
      vhp(lambda a: (a**3).sum(), x, torch.ones(2)))
print(vjp(lambda a, b: (a * b).sum(), (x, x * 3)))
print(jvp(lambda a: a.sum(), torch.tensor(2.)))
"""


def test_functional_api_prints_as_pytorch():
    t, e = run_both(T, E, CODE)
    assert same(t, e), f"\n--- torch\n{t.summary()}--- engine\n{e.summary()}"
