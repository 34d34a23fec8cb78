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
        ag.fw_outputs(node, (a,), outs)
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
    PyTorch lets these be modified in place (the gates are: sigmoid_, add_), in a's memory: laid out as there, so
    that each row's numbers go through PyTorch's vector and scalar loops as they do there."""
    size = a._data.shape[dim]
    n = size // chunks
    pieces = [a._data[(slice(None),) * dim + (slice(i * n, (i + 1) * n),)] for i in range(chunks)]
    outs = tuple(make(p) for p in pieces)
    if ag.grad_enabled and a._requires_grad:
        node = ag.record(None, UnsafeSplitBackward0, (a,),
                         {'dim': dim, 'self_sym_sizes': a._data.shape, 'split_size': n})
        node.num_outputs = chunks
        for i, t in enumerate(outs):
            t._grad_fn, t._requires_grad, t._output_nr = node, True, i
        ag.fw_outputs(node, (a,), outs)
    return outs


# ================================================================================================ cells

def _ih(x, w_ih, b_ih, precomputed):
    """The input's contribution to the gates: linear(x, w_ih, b_ih), or x itself when the layer computed it."""
    return x if precomputed else linear(x, w_ih, b_ih)


# (the in-place steps are ATen's: they show in the versions of the results, c' at 1 and GRU's h' at 2)

def rnn_tanh_step(x, h, p, precomputed=False):
    """SimpleCell: tanh(linear(h, w_hh, b_hh) + linear(x, w_ih, b_ih)); p = (w_ih, w_hh, b_ih, b_hh)."""
    return linear(h, p[1], p[3]).add_(_ih(x, p[0], p[2], precomputed)).tanh()


def rnn_relu_step(x, h, p, precomputed=False):
    return linear(h, p[1], p[3]).add_(_ih(x, p[0], p[2], precomputed)).relu()


def lstm_step(x, hidden, p, precomputed=False):
    """LSTMCell: gates i, f, g, o from one linear each way; c' = f * c + i * g, h' = o * tanh(c'). hidden = (h, c)."""
    h, c = hidden
    gates = linear(h, p[1], p[3]).add_(_ih(x, p[0], p[2], precomputed))
    i, f, g, o = unsafe_chunk(gates, 4, 1)
    i, f, g, o = i.sigmoid_(), f.sigmoid_(), g.tanh_(), o.sigmoid_()
    cy = (f * c).add_(i * g)
    return o * cy.tanh(), cy


def gru_step(x, h, p, precomputed=False):
    """GRUCell: r, z from the summed gates, n = tanh(x_n + r * h_n), h' = (h - n) * z + n."""
    xr, xz, xn = unsafe_chunk(_ih(x, p[0], p[2], precomputed), 3, 1)
    hr, hz, hn = unsafe_chunk(linear(h, p[1], p[3]), 3, 1)
    r = hr.add_(xr).sigmoid_()
    z = hz.add_(xz).sigmoid_()
    n = xn.add(hn.mul_(r)).tanh_()
    return (h - n).mul_(z).add_(n)


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


def _check_rnn_args(mode, args):
    """The argument parser of _VF.rnn_tanh / rnn_relu / gru / lstm, for a module whose num_layers or bidirectional
    is not an int / a bool (nn.GRU(3, 2, num_layers=True)): the TypeError listing both signatures. (A later
    call of it with correct ones runs.)"""
    from ._argparse import signature_parser
    name = mode.lower()
    hx = 'TensorList hx' if mode == 'LSTM' else 'Tensor hx'
    flags = 'TensorList params, bool has_biases, int64_t num_layers, double dropout, bool train, bool bidirectional'
    signature_parser('%s(Tensor data, Tensor batch_sizes, %s, %s)' % (name, hx, flags),
                     '%s(Tensor input, %s, %s, bool batch_first)' % (name, hx, flags)).check(args, {})


def rnn(mode, input, hx, flat_weights, has_biases, num_layers, dropout, train, bidirectional, batch_first):
    """_VF.rnn_tanh / rnn_relu / gru / lstm: (output, h_n) or, for LSTM (hx a pair), (output, h_n, c_n)."""
    if type(num_layers) is not int or type(bidirectional) is not bool:
        _check_rnn_args(mode, (input, hx, flat_weights, has_biases, num_layers, dropout, train, bidirectional,
                               batch_first))
    if mode == 'LSTM' and len(hx) != 2:
        raise RuntimeError('lstm expects two hidden states')
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
        self._unpack_all()      # (freed by an earlier backward, or a weight changed in place since: PyTorch's errors)
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
    hooks = ag.saved_hooks[:]       # (the inner graph is the engine's own: saved_tensors_hooks see none of it)
    ag.saved_hooks.clear()
    try:
        with ag.enable_grad():
            out, (hy, cy) = _layer(lstm_step, leaves[0], (leaves[5], leaves[6]), leaves[1:5], reverse)
    finally:
        ag.saved_hooks[:] = hooks
    results = [make(t._data) for t in (out, hy, cy)]
    if ag.grad_enabled and any(t is not None and t._requires_grad for t in inputs):
        saved = dict(info, reverse=reverse, input=SavedTensor(x), hx_=SavedTensor(h0), cx_=SavedTensor(c0))
        for i in range(4):
            saved['weight%d' % i] = None if p[i] is None else SavedTensor(p[i])
        # (PyTorch saves the outputs too; its result3, oneDNN's opaque workspace of bytes, is not reproduced)
        for i, t in enumerate(results):
            t._output_nr = i
            saved['result%d' % i] = SavedTensor(t, is_output=True)
        node = ag.record(None, MkldnnRnnLayerBackward0, inputs, saved)
        node._inner = {'outputs': (out, hy, cy), 'leaves': leaves}
        node.num_outputs = 3
        for t in results:
            t._grad_fn, t._requires_grad = node, True
        ag.fw_outputs(node, inputs, results)
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
    if mode == 'LSTM':                          # (the checks in ATen's order, which differs by cell)
        if not isinstance(hx, (tuple, list)):   # (its parser's: a hidden state without the cell state)
            raise TypeError("lstm_cell(): argument 'hx' (position 2) must be tuple of Tensors, not %s"
                            % type(hx).__name__)
        if len(hx) != 2:
            raise RuntimeError('lstm_cell expects two hidden states')
        if input.shape[1] != w_ih.shape[1]:
            _check_cell(input, hx[0], w_ih.shape[1], w_hh.shape[1], 0)
        _check_cell_weights(w_ih, w_hh, 4)
        _check_cell(input, hx[0], w_ih.shape[1], w_hh.shape[1], 0)
        _check_cell(input, hx[1], w_ih.shape[1], w_hh.shape[1], 1)
        return STEPS[mode](input, tuple(hx), p)
    if mode != 'GRU':
        _check_cell_weights(w_ih, w_hh, 1)
    _check_cell(input, hx, w_ih.shape[1], w_hh.shape[1], 0)
    if mode == 'GRU':
        _check_cell_weights(w_ih, w_hh, 3)
    return STEPS[mode](input, hx, p)


def _check_cell_weights(w_ih, w_hh, gates):
    size = gates * w_hh.shape[1]
    for name, w in (('weight_ih', w_ih), ('weight_hh', w_hh)):
        if w.shape[0] != size:
            raise RuntimeError('%s first dim must be %d * hidden_size = %d, but got %d'
                               % (name, gates, size, w.shape[0]))


# ================================================================================================ packed sequences

class PackPaddedSequenceBackward0(Node):
    """_pack_padded_sequence_backward: the packed gradient rows put back at their places in a zero padded tensor (a
    composite of ordinary ops, so that a graph of it can be made)."""

    def apply(self, g):
        from ._factories import zeros
        sizes = list(self._saved['input_sym_sizes'])
        first = self._saved['batch_first']
        if first:
            sizes[0], sizes[1] = sizes[1], sizes[0]
        grad_input = zeros(sizes, dtype=g.dtype)
        offset = 0
        for i, b in enumerate(self.saved('result1')._data.tolist()):
            grad_input.select(0, i).narrow(0, 0, b).copy_(g.narrow(0, offset, b))
            offset += b
        return (grad_input.transpose(0, 1) if first else grad_input,)


def pack_padded_sequence(input, lengths, batch_first):
    """_VF._pack_padded_sequence: (data, batch_sizes) of a padded (T, B, *) input (B, T, * with batch_first) whose
    sequences have the given int64 `lengths` (decreasing): the first elements of every sequence, then the second
    ones of those that have one, and so on; batch_sizes counts the sequences at each time step."""
    if input._data.size == 0:
        raise RuntimeError('Cannot pack empty tensors.')
    x = input._data.swapaxes(0, 1) if batch_first else input._data
    if lengths._data.ndim != 1:
        raise RuntimeError("'lengths' argument should be a 1D CPU int64 tensor, but got %dD cpu %s tensor"
                           % (lengths._data.ndim, lengths.dtype.legacy))
    lens = lengths._data.tolist()
    batch = x.shape[1]
    if len(lens) != batch:
        raise RuntimeError('Expected `len(lengths)` to be equal to batch_size, but got %d (batch_size=%d)'
                           % (len(lens), batch))
    if lens[-1] <= 0:
        raise RuntimeError("Length of all samples has to be greater than 0, but found an element in 'lengths' that "
                           "is <= 0")
    if any(a < b for a, b in zip(lens, lens[1:])):
        raise RuntimeError('`lengths` array must be sorted in decreasing order when `enforce_sorted` is True. You '
                           'can pass `enforce_sorted=False` to pack_padded_sequence and/or pack_sequence to sidestep '
                           'this requirement if you do not need ONNX exportability.')
    steps, sizes, prev = [], [], 0
    for i, n in enumerate(reversed(lens)):          # (from the shortest: a block each time the length grows)
        if n > prev:
            steps.append(x[prev:n, :batch - i].reshape((-1,) + x.shape[2:]))
            sizes += [batch - i] * (n - prev)
            prev = n
    data = make(np.concatenate(steps))
    batch_sizes = make(np.array(sizes, np.int64))
    if ag.grad_enabled and input._requires_grad:
        ag.record(data, PackPaddedSequenceBackward0, (input,),
                  {'batch_first': batch_first, 'input_sym_sizes': input._data.shape,
                   'result1': SavedTensor(batch_sizes)})
    return data, batch_sizes


def pad_packed_sequence(data, batch_sizes, batch_first, padding_value, total_length):
    """_VF._pad_packed_sequence: the padded (T, B, *) tensor of packed data (a composite: a full tensor, each block of
    time steps with the same batch size copied into it) and the int64 lengths of the sequences."""
    from ._factories import full
    sizes = batch_sizes._data.tolist()
    max_batch = sizes[0]
    output = full([max(total_length, len(sizes)), max_batch] + list(data.shape[1:]), padding_value, dtype=data.dtype)
    lengths = [0] * max_batch
    offset, prev_size, prev_i = 0, max_batch, 0
    for i in range(len(sizes) + 1):
        size = sizes[i] if i != len(sizes) else 0
        if size != prev_size:
            n = prev_size * (i - prev_i)
            block = data.narrow(0, offset, n).view([i - prev_i, prev_size] + list(data.shape[1:]))
            output.narrow(0, prev_i, i - prev_i).narrow(1, 0, prev_size).copy_(block)
            offset += n
            prev_i = i
        for j in range(size, prev_size):          # (the sequences that ended at step i)
            lengths[j] = i
        prev_size = size
    if batch_first:
        output = output.transpose(0, 1)
    return output, make(np.array(lengths, np.int64))


def _hidden_narrow(hidden, start, length):
    """hidden_slice: rows start:start + length of a hidden state (both of an LSTM's)."""
    if isinstance(hidden, tuple):
        return tuple(h.narrow(0, start, length) for h in hidden)
    return hidden.narrow(0, start, length)


def _hidden_cat(hiddens):
    """hidden_concat: the hidden states' rows one after another (an LSTM's h and c each)."""
    if isinstance(hiddens[0], tuple):
        return cat([h for h, _ in hiddens], 0), cat([c for _, c in hiddens], 0)
    return cat(hiddens, 0)


def _packed_layer(step, data, sizes, hidden, p):
    """PyTorch's PackedLayer: one direction of one layer over packed data. At each time step, the rows of the
    sequences that ended are cut off the hidden state and kept; the final hidden state is those pieces, the last
    first, concatenated."""
    x = linear(data, p[0], p[2])
    outputs, finished = [], []
    offset, last = 0, sizes[0]
    for size in sizes:
        step_input = x.narrow(0, offset, size)
        offset += size
        if last > size:
            finished.append(_hidden_narrow(hidden, size, last - size))
            hidden = _hidden_narrow(hidden, 0, size)
        last = size
        hidden = step(step_input, hidden, p, True)
        outputs.append(_output_of(hidden))
    finished.append(hidden)
    finished.reverse()
    return cat(outputs, 0), _hidden_cat(finished)


def _reversed_packed_layer(step, data, sizes, hidden0, p):
    """PyTorch's ReversedPackedLayer: from the last time step back, the hidden state growing by the rows of
    initial hidden state of the sequences that start there."""
    x = linear(data, p[0], p[2])
    outputs = []
    offset, last = data.shape[0], sizes[-1]
    hidden = _hidden_narrow(hidden0, 0, last)
    for size in reversed(sizes):
        if size > last:
            hidden = _hidden_cat([hidden, _hidden_narrow(hidden0, last, size - last)])
        step_input = x.narrow(0, offset - size, size)
        offset -= size
        last = size
        hidden = step(step_input, hidden, p, True)
        outputs.append(_output_of(hidden))
    outputs.reverse()
    return cat(outputs, 0), hidden


def rnn_packed(mode, data, batch_sizes, hx, flat_weights, has_biases, num_layers, dropout, train, bidirectional):
    """_VF.rnn_tanh / rnn_relu / gru / lstm on packed data (no oneDNN for an LSTM here): (output data, h_n) or, for
    LSTM, (output data, h_n, c_n)."""
    if type(num_layers) is not int or type(bidirectional) is not bool:
        _check_rnn_args(mode, (data, batch_sizes, hx, flat_weights, has_biases, num_layers, dropout, train,
                               bidirectional))
    if mode == 'LSTM' and len(hx) != 2:
        raise RuntimeError('lstm expects two hidden states')
    dirs = 2 if bidirectional else 1
    params = _params(flat_weights, has_biases, num_layers * dirs)
    step = STEPS[mode]
    sizes = batch_sizes._data.tolist()
    if mode == 'LSTM':
        hiddens = list(zip(hx[0].unbind(0), hx[1].unbind(0)))
    else:
        hiddens = list(hx.unbind(0))
    finals = []
    x = data
    for layer in range(num_layers):
        k = layer * dirs
        out, last = _packed_layer(step, x, sizes, hiddens[k], params[k])
        finals.append(last)
        if bidirectional:
            rev, last = _reversed_packed_layer(step, x, sizes, hiddens[k + 1], params[k + 1])
            finals.append(last)
            out = cat([out, rev], -1)
        x = out
        if dropout != 0 and train and layer < num_layers - 1:
            x = _dropout(x, dropout)
    if mode == 'LSTM':
        return x, stack([h for h, _ in finals], 0), stack([c for _, c in finals], 0)
    return x, stack(finals, 0)
