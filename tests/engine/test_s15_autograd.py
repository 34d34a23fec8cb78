"""Autograd on the engine alone (session 15): warnings PyTorch's C++ gives once per process. Expected behaviour is
PyTorch 2.13's."""
import warnings

import engine as torch
import engine._tensor


def test_create_graph_backward_warns_once_per_process():
    # PyTorch's TORCH_WARN_ONCE: even under simplefilter('always') the second backward(create_graph=True) is quiet
    engine._tensor._warned.clear()           # (as the playground's runner does before each run)
    x = torch.tensor(2., requires_grad=True)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter('always')
        (x ** 3).backward(create_graph=True)
        (x ** 3).backward(create_graph=True)
    messages = [str(w.message) for w in caught]
    assert len(messages) == 1 and messages[0].startswith('Using backward() with create_graph=True will create a '
                                                         'reference cycle')
    assert x.grad.item() == 24.
