"""Recurrent networks (nn.RNN, nn.LSTM, nn.GRU and their cells) as PyTorch runs them on the CPU.

PyTorch's CPU kernels (aten/src/ATen/native/RNN.cpp) are compositions of ordinary ops, so building the same
composition from the engine's ops gives the same autograd graph (StackBackward0, AddmmBackward0, UnbindBackward0,
UnsafeSplitBackward0, SigmoidBackward0, ...), gradients and double backward included:

- a layer applies the input weights to the whole sequence at once (linear -> view -> unbind into time steps), then
  runs the cell step by step on those rows;
- a cell adds linear(h, w_hh, b_hh) + the input rows, then applies its gates;
- the outputs of a layer are stacked; a bidirectional layer concatenates the two directions' stacked outputs;
  dropout (training only) goes between layers; the final hidden states are stacked into h_n.

One exception: a float32 LSTM goes through oneDNN (MKLDNN) in PyTorch, one opaque MkldnnRnnLayerBackward0 node per
layer and direction. That node is reproduced here (same name, edges and outputs), computing the same formulas with
the engine's ops inside; its numbers are oneDNN's only up to rounding.
"""
import numpy as np

from . import _autograd as ag
from ._autograd import Node, SavedTensor
from ._ops import _cat_grads, cat, stack, split, split_with_sizes, chunk, _split_sizes, _signed, _given
from ._ops_nn import linear
from ._tensor import Tensor, make, _wrap_dim


# ================================================================================================ unsafe_chunk

class UnsafeSplitBackward0(Node):
    def apply(self, *grads):
        s = self._saved
        shape = s['self_sym_sizes']
        sizes = _split_sizes(shape[_signed(s['dim']) % len(shape)], s['split_size'])
        return (_cat_grads(grads, shape, s['dim'], sizes),)


class UnsafeSplitWithSizesBackward0(Node):
    def apply(self, *grads):
        s = self._saved
        return (_cat_grads(grads, s['self_sym_sizes'], s['dim'], s['split_sizes']),)


def _unsafe(a, views, cls, saved):
    """PyTorch's unsafe_split and co.: split's pieces, the same memory, but tensors of their own rather than views
    (their versions apart from the input's: changing them in place goes unchecked), outputs of one `cls` node."""
    outs = tuple(make(v._data) for v in views)
    if ag.grad_enabled and a._requires_grad and a._data.dtype.kind == 'f':
        node = ag.record(None, cls, (a,), saved)
        node.num_outputs = len(outs)
        for i, t in enumerate(outs):
            t._grad_fn, t._requires_grad, t._output_nr = node, True, i
    return outs


def unsafe_split(a, split_size, dim=0):
    """split(split_size, dim) without views (see _unsafe)."""
    if not isinstance(split_size, (int, np.integer)) or isinstance(split_size, bool):
        raise TypeError("unsafe_split(): argument 'split_size' (position 1) must be int, not %s"
                        % type(split_size).__name__)
    with ag.no_grad():
        views = split(a, split_size, dim)
    return _unsafe(a, views, UnsafeSplitBackward0,
                   {'dim': _given(dim), 'self_sym_sizes': a._data.shape, 'split_size': split_size})


def unsafe_split_with_sizes(a, split_sizes, dim=0):
    """split_with_sizes(split_sizes, dim) without views (see _unsafe)."""
    with ag.no_grad():
        views = split_with_sizes(a, split_sizes, dim)
    return _unsafe(a, views, UnsafeSplitWithSizesBackward0,
                   {'dim': _given(dim), 'self_sym_sizes': a._data.shape,
                    'split_sizes': tuple(v._data.shape[_wrap_dim(dim, a._data.ndim)] for v in views)})


def unsafe_chunk_public(a, chunks, dim=0):
    """Tensor.unsafe_chunk / torch.unsafe_chunk: chunk's pieces without views (unsafe_split of ceil(size / chunks))."""
    if a._data.ndim and chunks <= 0:
        raise RuntimeError('chunk expects `chunks` to be greater than 0, got: %d' % chunks)
    size = a._data.shape[_wrap_dim(dim, a._data.ndim)] if a._data.ndim else 0
    if a._data.ndim and size == 0:
        return unsafe_split_with_sizes(a, [0] * chunks, dim)
    with ag.no_grad():
        views = chunk(a, chunks, dim)
    return _unsafe(a, views, UnsafeSplitBackward0,
                   {'dim': _given(dim), 'self_sym_sizes': a._data.shape, 'split_size': (size + chunks - 1) // chunks})


def unsafe_chunk(a, chunks, dim):
    """`chunks` equal pieces of `a` along dim, outputs of one UnsafeSplitBackward0 node. Unlike chunk's views,
    PyTorch lets these be modified in place (the gates are: sigmoid_, add_); here they are separate copies."""
    size = a._data.shape[dim]
    n = size // chunks
    pieces = [np.ascontiguousarray(a._data[(slice(None),) * dim + (slice(i * n, (i + 1) * n),)])
              for i in range(chunks)]
    outs = tuple(make(p) for p in pieces)
    if ag.grad_enabled and a._requires_grad:
        node = ag.record(None, UnsafeSplitBackward0, (a,),
                         {'dim': dim, 'self_sym_sizes': a._data.shape, 'split_size': n})
        node.num_outputs = chunks
        for i, t in enumerate(outs):
            t._grad_fn, t._requires_grad, t._output_nr = node, True, i
    return outs


# ================================================================================================ cells

def _ih(x, w_ih, b_ih, precomputed):
    """The input's contribution to the gates: linear(x, w_ih, b_ih), or x itself when the layer computed it."""
    return x if precomputed else linear(x, w_ih, b_ih)


def rnn_tanh_step(x, h, p, precomputed=False):
    """SimpleCell: tanh(linear(h, w_hh, b_hh) + linear(x, w_ih, b_ih)); p = (w_ih, w_hh, b_ih, b_hh)."""
    return (linear(h, p[1], p[3]) + _ih(x, p[0], p[2], precomputed)).tanh()


def rnn_relu_step(x, h, p, precomputed=False):
    return (linear(h, p[1], p[3]) + _ih(x, p[0], p[2], precomputed)).relu()


def lstm_step(x, hidden, p, precomputed=False):
    """LSTMCell: gates i, f, g, o from one linear each way; c' = f * c + i * g, h' = o * tanh(c'). hidden = (h, c)."""
    h, c = hidden
    gates = linear(h, p[1], p[3]) + _ih(x, p[0], p[2], precomputed)
    i, f, g, o = unsafe_chunk(gates, 4, 1)
    i, f, g, o = i.sigmoid(), f.sigmoid(), g.tanh(), o.sigmoid()
    cy = f * c + i * g
    return o * cy.tanh(), cy


def gru_step(x, h, p, precomputed=False):
    """GRUCell: r, z from the summed gates, n = tanh(x_n + r * h_n), h' = (h - n) * z + n."""
    xr, xz, xn = unsafe_chunk(_ih(x, p[0], p[2], precomputed), 3, 1)
    hr, hz, hn = unsafe_chunk(linear(h, p[1], p[3]), 3, 1)
    r = (hr + xr).sigmoid()
    z = (hz + xz).sigmoid()
    n = (xn + hn * r).tanh()
    return (h - n) * z + n


STEPS = {'RNN_TANH': rnn_tanh_step, 'RNN_RELU': rnn_relu_step, 'LSTM': lstm_step, 'GRU': gru_step}


def _output_of(hidden):
    return hidden[0] if isinstance(hidden, tuple) else hidden


# ================================================================================================ layers

def _layer(step, x, hidden, p, reverse=False):
    """One direction of one layer over the sequence x (seq, batch, features): (stacked outputs, final hidden)."""
    rows = list(linear(x, p[0], p[2]).unbind(0))
    if not rows:
        raise RuntimeError('Expected sequence length to be larger than 0 in RNN')
    outputs = []
    for r in (reversed(rows) if reverse else rows):
        hidden = step(r, hidden, p, True)
        outputs.append(_output_of(hidden))
    if reverse:
        outputs.reverse()
    return stack(outputs, 0), hidden


def _params(flat, has_biases, count):
    """The flat weight list cut into (w_ih, w_hh, b_ih, b_hh) per layer and direction (biases None without)."""
    per = 4 if has_biases else 2
    groups = [flat[k * per:(k + 1) * per] for k in range(count)]
    return [tuple(g) if has_biases else (g[0], g[1], None, None) for g in groups]


def _dropout(x, p):
    from .nn import functional as F
    return F.dropout(x, p, True)


def rnn(mode, input, hx, flat_weights, has_biases, num_layers, dropout, train, bidirectional, batch_first):
    """_VF.rnn_tanh / rnn_relu / gru / lstm: (output, h_n) or, for LSTM (hx a pair), (output, h_n, c_n)."""
    dirs = 2 if bidirectional else 1
    params = _params(flat_weights, has_biases, num_layers * dirs)
    if mode == 'LSTM' and _use_mkldnn(input):
        return _mkldnn_lstm(input, hx, params, has_biases, num_layers, dropout, train, bidirectional, batch_first)
    step = STEPS[mode]
    x = input.transpose(0, 1) if batch_first else input
    if mode == 'LSTM':
        hiddens = list(zip(hx[0].unbind(0), hx[1].unbind(0)))
    else:
        hiddens = list(hx.unbind(0))
    finals = []
    for layer in range(num_layers):
        k = layer * dirs
        out, last = _layer(step, x, hiddens[k], params[k])
        finals.append(last)
        if bidirectional:
            rev, last = _layer(step, x, hiddens[k + 1], params[k + 1], reverse=True)
            finals.append(last)
            out = cat([out, rev], out.dim() - 1)
        x = out
        if dropout != 0 and train and layer < num_layers - 1:
            x = _dropout(x, dropout)
    if mode == 'LSTM':
        output = x.transpose(0, 1) if batch_first else x
        return output, stack([h for h, _ in finals], 0), stack([c for _, c in finals], 0)
    if batch_first:
        x.transpose_(0, 1)                  # (PyTorch transposes its result in place: TransposeBackward1)
    return x, stack(finals, 0)


# ================================================================================================ oneDNN LSTM

def _use_mkldnn(input):
    """PyTorch runs an LSTM through oneDNN when its input is float32 and not empty."""
    return input._data.dtype == np.float32 and input._data.size != 0


class MkldnnRnnLayerBackward0(Node):
    """The gradient of one oneDNN LSTM layer (one direction): edges to input, w_ih, w_hh, b_ih, b_hh, hx, cx.

    The forward ran the layer's formulas on detached copies of those inputs, keeping that inner graph; backward
    asks it for the gradients."""

    def apply(self, *grads):
        from .autograd import grad
        inner = self._inner
        roots = [r for r, g in zip(inner['outputs'], grads) if g is not None]
        given = [g for g in grads[:3] if g is not None]
        wanted = [i for i, leaf in enumerate(inner['leaves']) if leaf is not None and self.needs(i)]
        if ag.grad_enabled:          # create_graph: the layer again on the inputs themselves, for a graph
            s = self.saved
            inputs = [s('input')] + [s('weight%d' % i) for i in range(4)] + [s('hx_'), s('cx_')]
            srcs = [None if t is None else t.view_as(t) for t in inputs]   # (a node each: partial derivatives)
            out, (hy, cy) = _layer(lstm_step, srcs[0], (srcs[5], srcs[6]), srcs[1:5], self._saved['reverse'])
            roots = [r for r, g in zip((out, hy, cy), grads) if g is not None]
            found = grad(roots, [srcs[i] for i in wanted], given, create_graph=True, allow_unused=True)
        else:
            found = grad(roots, [inner['leaves'][i] for i in wanted], given, retain_graph=True, allow_unused=True)
        out = [None] * len(self._fns)
        for i, g in zip(wanted, found):
            out[i] = g if g is not None else make(np.zeros_like(inner['leaves'][i]._data))
        return tuple(out)


def _mkldnn_layer(x, h0, c0, p, reverse, info):
    """One oneDNN layer: (output, hy, cy), outputs 0-2 of one MkldnnRnnLayerBackward0 node."""
    inputs = (x,) + tuple(p) + (h0, c0)
    leaves = [None if t is None else t.detach().requires_grad_(t.requires_grad) for t in inputs]
    with ag.enable_grad():
        out, (hy, cy) = _layer(lstm_step, leaves[0], (leaves[5], leaves[6]), leaves[1:5], reverse)
    results = [make(t._data) for t in (out, hy, cy)]
    if ag.grad_enabled and any(t is not None and t.requires_grad for t in inputs):
        saved = dict(info, reverse=reverse, input=SavedTensor(x), hx_=SavedTensor(h0), cx_=SavedTensor(c0))
        for i in range(4):
            saved['weight%d' % i] = None if p[i] is None else SavedTensor(p[i])
        node = ag.record(None, MkldnnRnnLayerBackward0, inputs, saved)
        node._inner = {'outputs': (out, hy, cy), 'leaves': leaves}
        node.num_outputs = 4
        for i, t in enumerate(results):
            t._grad_fn, t._requires_grad, t._output_nr = node, True, i
    return results


def _mkldnn_lstm(input, hx, params, has_biases, num_layers, dropout, train, bidirectional, batch_first):
    dirs = 2 if bidirectional else 1
    x = input.transpose(0, 1) if batch_first else input
    x = x.contiguous()                      # (PyTorch's layers read a contiguous input: a CloneBackward0 if not)
    hs, cs = hx[0].unbind(0), hx[1].unbind(0)
    info = {'mode': 2, 'hidden_size': hs[0].shape[-1], 'num_layers': num_layers, 'has_biases': has_biases,
            'bidirectional': bidirectional, 'batch_first': batch_first, 'batch_sizes': (), 'train': train}
    h_n, c_n = [], []
    for layer in range(num_layers):
        outs = []
        for d in range(dirs):
            k = layer * dirs + d
            out, hy, cy = _mkldnn_layer(x, hs[k], cs[k], params[k], d == 1, info)
            outs.append(out)
            h_n.append(hy)
            c_n.append(cy)
        x = cat(outs, -1) if bidirectional else outs[0]
        if dropout != 0 and train and layer < num_layers - 1:
            x = _dropout(x, dropout)
    output = x.transpose(0, 1) if batch_first else x
    return output, stack(h_n, 0), stack(c_n, 0)


# ================================================================================================ cells (functions)

def _check_cell(input, hx, input_size, hidden_size, k):
    if input.shape[1] != input_size:
        raise RuntimeError('input has inconsistent input_size: got %d expected %d' % (input.shape[1], input_size))
    if input.shape[0] != hx.shape[0]:
        raise RuntimeError('Input batch size %d doesn\'t match hidden%d batch size %d'
                           % (input.shape[0], k, hx.shape[0]))
    if hx.shape[1] != hidden_size:
        raise RuntimeError('hidden%d has inconsistent hidden_size: got %d, expected %d'
                           % (k, hx.shape[1], hidden_size))


def cell(mode, input, hx, w_ih, w_hh, b_ih, b_hh):
    """_VF.rnn_tanh_cell / rnn_relu_cell / lstm_cell / gru_cell on a batch (2-d input)."""
    p = (w_ih, w_hh, b_ih, b_hh)
    if mode == 'LSTM':
        _check_cell(input, hx[0], w_ih.shape[1], w_hh.shape[1], 0)
        _check_cell(input, hx[1], w_ih.shape[1], w_hh.shape[1], 1)
        return STEPS[mode](input, tuple(hx), p)
    _check_cell(input, hx, w_ih.shape[1], w_hh.shape[1], 0)
    return STEPS[mode](input, hx, p)
