"""Anomaly detection on the engine alone (also run in Pyodide): the forward stacks nodes keep, the warnings naming
a failing node and where it came from (and, for a node made by a backward with create_graph, where that backward's
node came from), the nan check, the switches. Texts are PyTorch 2.13's."""
import os
import warnings

import pytest

import engine as torch

pytestmark = pytest.mark.filterwarnings("ignore:Anomaly Detection has been enabled")
TRIGGERED = ' (Triggered internally at /__w/pytorch/pytorch/torch/csrc/autograd/python_anomaly_mode.cpp:%d.)'


def caught(fn):
    """The messages of the warnings fn gives, and the error it raises (or None)."""
    with warnings.catch_warnings(record=True) as ws:
        warnings.simplefilter('always')
        try:
            fn()
            error = None
        except Exception as e:
            error = e
    return [str(w.message) for w in ws], error


@pytest.fixture(autouse=True)
def anomaly_off_after():
    yield
    torch.set_anomaly_enabled(False)


def test_nodes_keep_the_stack_of_their_forward_call_only_in_anomaly_mode():
    x = torch.ones(2, requires_grad=True)
    assert (x * 2.0).grad_fn.metadata == {}
    with torch.autograd.set_detect_anomaly(True):
        y = x * 2.0                                   # (the inlined fast path of tensor * number)
        z = y.exp()
    assert not torch.is_anomaly_enabled()
    for node in (y.grad_fn, z.grad_fn, y.grad_fn.next_functions[0][0]):
        stack = node.metadata['traceback_']
        assert stack[-1].startswith('  File "%s", line ' % __file__)
        assert os.path.dirname(torch.__file__) not in ''.join(stack)     # (no frame of the engine's own)
    assert 'parent_' not in z.grad_fn.metadata


def test_a_node_made_by_a_backward_names_its_parent():
    x = torch.tensor([0., 1.], requires_grad=True)
    with torch.autograd.set_detect_anomaly(True):
        y = x.sqrt()
        g, = torch.autograd.grad(y.sum(), x, create_graph=True)
        assert g.grad_fn.metadata['parent_'] is y.grad_fn
        messages, error = caught(lambda: (g * 0).sum().backward())
    assert str(error) == "Function 'DivBackward0' returned nan values in its 1th output."
    assert len(messages) == 2
    assert messages[0].startswith('Error detected in DivBackward0. Traceback of forward call that caused the error:\n')
    assert messages[0].endswith(TRIGGERED % 122)
    assert messages[1].startswith('\n\nPrevious calculation was induced by SqrtBackward0. Traceback of forward call '
                                  'that induced the previous calculation:\n')
    assert messages[1].endswith('    y = x.sqrt()\n' + TRIGGERED % 129)


def test_no_forward_information_when_the_forward_ran_outside_anomaly_mode():
    x = torch.tensor([1.], requires_grad=True)
    y = x.sigmoid()
    y.mul_(2)
    with torch.autograd.detect_anomaly():
        messages, error = caught(y.backward)
    assert messages == ['Error detected in SigmoidBackward0. No forward pass information available. Enable detect '
                        'anomaly during forward pass for more information.' + TRIGGERED % 100]
    assert str(error).endswith('Hint: the backtrace further above shows the operation that failed to compute its '
                               'gradient. The variable in question was changed in there or anywhere later. Good luck!')
    y = x.sigmoid()
    y.mul_(2)
    messages, error = caught(y.backward)                      # (anomaly mode off again: the usual hint, no warning)
    assert messages == [] and str(error).endswith('Hint: enable anomaly detection to find the operation that failed '
                                                  'to compute its gradient, with torch.autograd.set_detect_anomaly('
                                                  'True, check_nan=False).')


def test_a_custom_functions_error_is_shown_with_its_forward_call():
    class Bad(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x.clone()

        @staticmethod
        def backward(ctx, g):
            raise ValueError('boom')

    x = torch.ones(1, requires_grad=True)
    with torch.autograd.set_detect_anomaly(True):
        out = Bad.apply(x).sum()
        messages, error = caught(out.backward)
    assert isinstance(error, ValueError) and len(messages) == 1
    assert messages[0].startswith('Error detected in BadBackward. Traceback of forward call that caused the error:\n')
    assert '    out = Bad.apply(x).sum()\n' in messages[0]


def test_the_nan_check_names_the_output_and_can_be_switched_off():
    x = torch.tensor([0., 2.], requires_grad=True)
    w = torch.tensor([1.], requires_grad=True)
    with torch.autograd.detect_anomaly():
        messages, error = caught(lambda: (x / w).sum().backward())
        assert (messages, error) == ([], None)
        messages, error = caught(lambda: (x / x).sum().backward())       # (d/dx of 0 / x: -0 / 0)
    assert str(error) == "Function 'DivBackward0' returned nan values in its 1th output."
    assert messages[0].startswith('Error detected in DivBackward0.')
    x.grad = None
    with torch.autograd.set_detect_anomaly(True, check_nan=False):
        (x / x).sum().backward()
        assert torch.is_anomaly_check_nan_enabled() is False
    assert x.grad.isnan().tolist() == [True, False]
    assert torch.is_anomaly_check_nan_enabled() is True


def test_the_switches_nest_and_restore():
    d = torch.autograd.detect_anomaly(check_nan=False)        # (switches on when entered, not when made)
    assert not torch.is_anomaly_enabled()
    with d:
        assert (torch.is_anomaly_enabled(), torch.is_anomaly_check_nan_enabled()) == (True, False)
        with torch.autograd.set_detect_anomaly(False):
            assert not torch.is_anomaly_enabled()
        assert (torch.is_anomaly_enabled(), torch.is_anomaly_check_nan_enabled()) == (True, False)
    assert (torch.is_anomaly_enabled(), torch.is_anomaly_check_nan_enabled()) == (False, True)
    torch.autograd.set_detect_anomaly(True)                   # (a call: on at once, and stays on)
    assert torch.is_anomaly_enabled()
    assert type(d).__module__ == 'torch.autograd.anomaly_mode'
    assert torch.autograd.anomaly_mode.set_detect_anomaly is torch.autograd.set_detect_anomaly
