"""nn.RNN / nn.GRU / nn.LSTM and their cells on the engine (engine/_ops_rnn.py), against values PyTorch 2.13 printed
(pinned here as literals, so these run without PyTorch and inside Pyodide). tests/differential/test_rnn_vs_torch.py
compares the same against real PyTorch."""
import warnings

import numpy as np
import pytest

import engine as torch
from engine import nn

L = {'rnn_w': [[-0.005293981172144413, 0.37932288646698, -0.5819807648658752], [-0.5203874707221985, -0.27234524488449097, 0.1896158903837204]], 'x': [[[-0.7830641027703554, 1.0621710284337496, -0.2613142149611394]], [[1.0666997529231295, 0.4158911935781066, 0.8395664167966604]], [[-0.8264687054374333, -0.794936672223274, -0.9528351695699786]], [[0.3717213818479026, 0.40871574568577435, 1.4214179052819822]]], 'rnn_o': [[[-0.3186098846170255, -0.4919477090542095]], [[-0.9046196130345054, -0.8301191949887947]], [[-0.7948986337693132, -0.23544396450250138]], [[-0.9334131735531659, -0.5626464205273041]]], 'rnn_gw': [[-0.08677938202386622, -0.015614815302885146], [-0.7167869772133694, -0.32176979862922395]], 'gx': [[[2.11300776763472, -0.003989588171478706, 1.380010586161713], [-1.3505053093488246, 0.34547541859681014, 0.5045779705150497], [1.8213265740206674, -0.18142784025563352, -0.9514963868768966], [0.4057366735909967, -1.5164275677736454, 0.7321979764056306]]], 'gru_h': [[[0.11613661208812881, -0.764491514162054]]], 'lx': [[[0.4172337055206299, 1.0003632307052612, 0.600762128829956]], [[0.10979536175727844, -0.841132402420044, -0.29079723358154297]], [[-0.147980734705925, -0.9266477823257446, -1.325644612312317]], [[1.4205228090286255, -0.41900748014450073, 0.3576865792274475]]], 'lstm_c': [[[0.4009554386138916, 0.38134145736694336]]], 'lstm_gb': [0.19850248098373413, 0.2771378755569458, 0.17043282091617584, 0.1522713154554367, 1.0664231777191162, 0.3067193627357483, -0.00048062228597700596, 0.014795178547501564]}


def approx(t, expected, tol=1e-6):
    np.testing.assert_allclose(np.asarray(t.detach()._data, np.float64), expected, rtol=tol, atol=tol)


def names(fn, depth):
    """Node names of the graph below fn, breadth first, down to `depth` levels."""
    out, level = [], [fn]
    for _ in range(depth):
        out.append([type(f).__name__ for f in level])
        level = [n for f in level for n, _ in f.next_functions if n is not None]
    return out


def test_parameters_are_drawn_as_pytorch_draws_them():
    torch.manual_seed(0)
    m = nn.RNN(3, 2)
    assert [n for n, _ in m.named_parameters()] == ['weight_ih_l0', 'weight_hh_l0', 'bias_ih_l0', 'bias_hh_l0']
    approx(m.weight_ih_l0, L['rnn_w'], 0)
    m = nn.LSTM(3, 2, num_layers=2, bidirectional=True)
    assert [tuple(p.shape) for p in m.parameters()][4:9] == [(8, 3), (8, 2), (8,), (8,), (8, 4)]
    assert list(m.state_dict())[4] == 'weight_ih_l0_reverse'
    assert repr(nn.RNN(10, 20, num_layers=2)) == 'RNN(10, 20, num_layers=2)'
    assert repr(nn.GRU(3, 2, bias=False, batch_first=True, bidirectional=True)) == \
        'GRU(3, 2, bias=False, batch_first=True, bidirectional=True)'
    assert repr(nn.RNNCell(3, 2, nonlinearity='relu')) == 'RNNCell(3, 2, nonlinearity=relu)'


def test_rnn_values_gradient_and_graph():
    torch.manual_seed(0)
    m = nn.RNN(3, 2).double()
    o, h = m(torch.tensor(L['x'], dtype=torch.float64))
    approx(o, L['rnn_o'], 1e-12)
    h.sum().backward()
    approx(m.weight_hh_l0.grad, L['rnn_gw'], 1e-12)
    assert names(o.grad_fn, 4) == [['StackBackward0'], ['TanhBackward0'] * 4, ['AddBackward0'] * 4,
                                   ['AddmmBackward0', 'UnbindBackward0'] * 4]
    assert o.shape == (4, 1, 2) and h.shape == (1, 1, 2) and h.grad_fn.name() == 'StackBackward0'


def test_gru_batch_first_and_graph():
    torch.manual_seed(1)
    g = nn.GRU(3, 2, batch_first=True).double()
    o, h = g(torch.tensor(L['gx'], dtype=torch.float64))
    approx(h, L['gru_h'], 1e-12)
    assert o.grad_fn.name() == 'TransposeBackward1'
    assert names(h.grad_fn, 5)[1:] == [['AddBackward0'], ['MulBackward0', 'TanhBackward0'],
                                       ['SubBackward0', 'SigmoidBackward0', 'AddBackward0'],
                                       ['AddBackward0', 'TanhBackward0', 'AddBackward0', 'UnsafeSplitBackward0',
                                        'MulBackward0']]


def test_float32_lstm_is_one_onednn_node_per_layer():
    torch.manual_seed(2)
    m = nn.LSTM(3, 2)
    o, (h, c) = m(torch.tensor(L['lx']))
    approx(c, L['lstm_c'], 1e-6)
    fn = o.grad_fn
    assert fn.name() == 'MkldnnRnnLayerBackward0' and len(fn.next_functions) == 7
    assert [nr for _, nr in h.grad_fn.next_functions] == [1] and [nr for _, nr in c.grad_fn.next_functions] == [2]
    c.sum().backward()
    approx(m.bias_ih_l0.grad, L['lstm_gb'], 1e-5)


def test_float64_lstm_decomposes_and_unbatched_input():
    m = nn.LSTM(3, 2).double()
    o, (h, c) = m(torch.zeros(4, 3, dtype=torch.float64))
    assert o.shape == (4, 2) and h.shape == (1, 2) and o.grad_fn.name() == 'SqueezeBackward1'
    assert names(o.grad_fn, 4)[2:] == [['MulBackward0'] * 4, ['SigmoidBackward0', 'TanhBackward0'] * 4]


def test_cells():
    for cls, n in ((nn.RNNCell, 1), (nn.GRUCell, 3), (nn.LSTMCell, 4)):
        c = cls(3, 2)
        assert c.weight_ih.shape == (2 * n, 3)
        out = c(torch.randn(5, 3))
        h = out[0] if cls is nn.LSTMCell else out
        assert h.shape == (5, 2)
        assert c(torch.randn(3), None if cls is nn.LSTMCell else torch.zeros(2))[0].shape == ((2,) if cls is nn.LSTMCell else ())
    h = nn.RNNCell(3, 2)(torch.randn(1, 3))
    assert names(h.grad_fn, 3) == [['TanhBackward0'], ['AddBackward0'], ['AddmmBackward0', 'AddmmBackward0']]


def test_errors_and_warnings():
    r = nn.RNN(3, 2)
    with pytest.raises(RuntimeError, match=r'^input.size\(-1\) must be equal to input_size. Expected 3, got 5$'):
        r(torch.randn(2, 4, 5))
    with pytest.raises(RuntimeError, match=r'^Expected hidden size \(1, 4, 2\), got \[1, 5, 2\]$'):
        r(torch.randn(2, 4, 3), torch.randn(1, 5, 2))
    with pytest.raises(ValueError, match=r'^dropout should be a number in range \[0, 1\] representing'):
        nn.RNN(3, 2, dropout=1.5)
    with pytest.raises(RuntimeError, match='^input has inconsistent input_size: got 5 expected 3$'):
        nn.GRUCell(3, 2)(torch.randn(4, 5))
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter('always')
        nn.LSTM(3, 2, dropout=0.5)
    assert str(caught[0].message).endswith('but got dropout=0.5 and num_layers=1')
