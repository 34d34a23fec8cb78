"""Small corners of the twelfth session on the engine alone (also run in Pyodide). Expected behaviour is PyTorch
2.13's."""
import warnings

import engine as torch
from engine import _tensor


def scalar_warnings(fn):
    _tensor._warned.clear()                 # (PyTorch shows this warning once per process)
    with warnings.catch_warnings(record=True) as ws:
        warnings.simplefilter('always')
        fn()
    return [str(w.message) for w in ws if 'to a scalar' in str(w.message)]


def test_a_tensor_requiring_grad_made_a_number_warns_only_in_grad_mode():
    x = torch.tensor(2.5, requires_grad=True)

    def in_no_grad():
        with torch.no_grad():
            assert (float(x), complex(x)) == (2.5, 2.5 + 0j)
    assert scalar_warnings(in_no_grad) == []
    assert len(scalar_warnings(lambda: float(x))) == 1
    assert scalar_warnings(lambda: float(x.detach())) == []


def test_torch_functions_refuse_a_number_as_pytorch_does():
    for call, text in ((lambda: torch.sqrt(2), "sqrt(): argument 'input' (position 1) must be Tensor, not int"),
                       (lambda: torch.sum([1, 2]), "sum(): argument 'input' (position 1) must be Tensor, not list"),
                       (lambda: torch.exp(input=1.), "exp(): argument 'input' must be Tensor, not float")):
        try:
            call()
        except TypeError as e:
            assert str(e) == text
        else:
            raise AssertionError('no TypeError')
    assert torch.sqrt(torch.tensor(4.)).item() == 2.0


def test_squeeze_takes_several_dims():
    x = torch.ones(1, 2, 1, requires_grad=True)
    y = x.squeeze(0, 2)
    assert y.shape == (2,) and type(y.grad_fn).__name__ == 'SqueezeBackward2'
    assert x.squeeze(-1, 0).shape == (2,)
