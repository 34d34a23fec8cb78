"""Engine-only checks from the s17 notes probes (behaviour real PyTorch shows only once per process)."""
import warnings

import engine as torch
from engine import _tensor
from engine.autograd import _CREATE_GRAPH_WARNING


def test_create_graph_warning_comes_after_the_pass():
    """PyTorch's engine replays the warnings of a backward pass when it ends (or fails): after the hooks ran."""
    events = []
    _tensor._warned.discard(_CREATE_GRAPH_WARNING)
    x = torch.tensor([1., 2.], requires_grad=True)
    y = x * 2
    y.register_hook(lambda g: events.append('hook'))
    with warnings.catch_warnings():
        warnings.simplefilter('always')
        warnings.showwarning = lambda message, *args, **kwargs: events.append(str(message)[:24])
        (y * y).sum().backward(create_graph=True)
    assert events == ['hook', 'Using backward() with cr']
