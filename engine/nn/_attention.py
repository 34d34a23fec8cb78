"""torch.nn's attention modules: MultiheadAttention (with its NonDynamicallyQuantizableLinear out_proj),
TransformerEncoderLayer and TransformerEncoder, TransformerDecoderLayer, TransformerDecoder and Transformer, built as
PyTorch builds them (parameter names, shapes, init order, repr) and run through PyTorch's Python path
(F.multi_head_attention_forward). PyTorch's inference fast paths
(_native_multi_head_attention, _transformer_encoder_layer_fwd: eval mode under no_grad) are not taken: the slow
path gives the same values up to rounding."""
import copy
import warnings

from . import Module, Linear, Dropout, LayerNorm, ModuleList, ReLU, init
from . import functional as F
from .parameter import Parameter
from .._factories import empty, full
from .._ops import triu
from .._ops_attention import _canonical_mask, _none_or_dtype
from .._autograd import is_grad_enabled
from .._tensor import user_stacklevel, warn_once

__all__ = ['MultiheadAttention', 'TransformerEncoderLayer', 'TransformerEncoder', 'TransformerDecoderLayer',
           'TransformerDecoder', 'Transformer']


class NonDynamicallyQuantizableLinear(Linear):
    """A Linear under another name (PyTorch's marker for its quantization tools): MultiheadAttention's out_proj."""


class MultiheadAttention(Module):
    """Attention over num_heads heads of embed_dim // num_heads: in-projection of query / key / value (packed as
    in_proj_weight (3E, E) unless kdim / vdim differ), scaled dot-product attention, out_proj."""

    def __init__(self, embed_dim, num_heads, dropout=0.0, bias=True, add_bias_kv=False, add_zero_attn=False,
                 kdim=None, vdim=None, batch_first=False, device=None, dtype=None):
        if embed_dim <= 0 or num_heads <= 0:
            raise ValueError('embed_dim and num_heads must be greater than 0, got embed_dim=%s and num_heads=%s '
                             'instead' % (embed_dim, num_heads))
        super().__init__()
        self.embed_dim = embed_dim
        self.kdim = kdim if kdim is not None else embed_dim
        self.vdim = vdim if vdim is not None else embed_dim
        self._qkv_same_embed_dim = self.kdim == embed_dim and self.vdim == embed_dim
        self.num_heads, self.dropout, self.batch_first = num_heads, dropout, batch_first
        self.head_dim = embed_dim // num_heads
        if self.head_dim * num_heads != self.embed_dim:
            raise AssertionError('embed_dim must be divisible by num_heads')
        kw = {'device': device, 'dtype': dtype}
        if not self._qkv_same_embed_dim:
            self.q_proj_weight = Parameter(empty((embed_dim, embed_dim), **kw))
            self.k_proj_weight = Parameter(empty((embed_dim, self.kdim), **kw))
            self.v_proj_weight = Parameter(empty((embed_dim, self.vdim), **kw))
            self.register_parameter('in_proj_weight', None)
        else:
            self.in_proj_weight = Parameter(empty((3 * embed_dim, embed_dim), **kw))
            self.register_parameter('q_proj_weight', None)
            self.register_parameter('k_proj_weight', None)
            self.register_parameter('v_proj_weight', None)
        if bias:
            self.in_proj_bias = Parameter(empty(3 * embed_dim, **kw))
        else:
            self.register_parameter('in_proj_bias', None)
        self.out_proj = NonDynamicallyQuantizableLinear(embed_dim, embed_dim, bias=bias, **kw)
        if add_bias_kv:
            self.bias_k = Parameter(empty((1, 1, embed_dim), **kw))
            self.bias_v = Parameter(empty((1, 1, embed_dim), **kw))
        else:
            self.bias_k = self.bias_v = None
        self.add_zero_attn = add_zero_attn
        self._reset_parameters()

    def _reset_parameters(self):
        """PyTorch's order of draws: xavier_uniform_ projections, zero biases, xavier_normal_ bias_k / bias_v."""
        if self._qkv_same_embed_dim:
            init.xavier_uniform_(self.in_proj_weight)
        else:
            for w in (self.q_proj_weight, self.k_proj_weight, self.v_proj_weight):
                init.xavier_uniform_(w)
        if self.in_proj_bias is not None:
            init.constant_(self.in_proj_bias, 0.0)
            init.constant_(self.out_proj.bias, 0.0)
        if self.bias_k is not None:
            init.xavier_normal_(self.bias_k)
        if self.bias_v is not None:
            init.xavier_normal_(self.bias_v)

    def forward(self, query, key, value, key_padding_mask=None, need_weights=True, attn_mask=None,
                average_attn_weights=True, is_causal=False):
        batched = query.dim() == 3
        key_padding_mask = _canonical_mask(key_padding_mask, 'key_padding_mask', _none_or_dtype(attn_mask),
                                           'attn_mask', query.dtype)
        attn_mask = _canonical_mask(attn_mask, 'attn_mask', None, '', query.dtype, check_other=False)
        if self.batch_first and batched:           # (keeping `query is key is value`, which the projection tests)
            if key is value:
                if query is key:
                    query = key = value = query.transpose(1, 0)
                else:
                    query, key = (x.transpose(1, 0) for x in (query, key))
                    value = key
            else:
                query, key, value = (x.transpose(1, 0) for x in (query, key, value))
        separate = not self._qkv_same_embed_dim
        out, weights = F.multi_head_attention_forward(
            query, key, value, self.embed_dim, self.num_heads, self.in_proj_weight, self.in_proj_bias, self.bias_k,
            self.bias_v, self.add_zero_attn, self.dropout, self.out_proj.weight, self.out_proj.bias,
            training=self.training, key_padding_mask=key_padding_mask, need_weights=need_weights,
            attn_mask=attn_mask, use_separate_proj_weight=separate, q_proj_weight=self.q_proj_weight,
            k_proj_weight=self.k_proj_weight, v_proj_weight=self.v_proj_weight,
            average_attn_weights=average_attn_weights, is_causal=is_causal)
        if self.batch_first and batched:
            return out.transpose(1, 0), weights
        return out, weights


def _activation(name):
    if name == 'relu':
        return F.relu
    if name == 'gelu':
        return F.gelu
    raise RuntimeError('activation should be relu/gelu, not %s' % name)


class TransformerEncoderLayer(Module):
    """Self-attention then a feed-forward block (linear1, activation, dropout, linear2), each with dropout, a
    residual and a LayerNorm (after the residual, or before the block with norm_first)."""

    def __init__(self, d_model, nhead, dim_feedforward=2048, dropout=0.1, activation=F.relu, layer_norm_eps=1e-5,
                 batch_first=False, norm_first=False, bias=True, device=None, dtype=None):
        super().__init__()
        kw = {'device': device, 'dtype': dtype}
        self.self_attn = MultiheadAttention(d_model, nhead, dropout=dropout, bias=bias, batch_first=batch_first, **kw)
        self.linear1 = Linear(d_model, dim_feedforward, bias=bias, **kw)
        self.dropout = Dropout(dropout)
        self.linear2 = Linear(dim_feedforward, d_model, bias=bias, **kw)
        self.norm_first = norm_first
        self.norm1 = LayerNorm(d_model, eps=layer_norm_eps, bias=bias, **kw)
        self.norm2 = LayerNorm(d_model, eps=layer_norm_eps, bias=bias, **kw)
        self.dropout1 = Dropout(dropout)
        self.dropout2 = Dropout(dropout)
        if isinstance(activation, str):
            activation = _activation(activation)
        if activation is F.relu or isinstance(activation, ReLU):
            self.activation_relu_or_gelu = 1
        elif activation is F.gelu or type(activation).__name__ == 'GELU':
            self.activation_relu_or_gelu = 2
        else:
            self.activation_relu_or_gelu = 0
        self.activation = activation

    def forward(self, src, src_mask=None, src_key_padding_mask=None, is_causal=False):
        src_key_padding_mask = _canonical_mask(src_key_padding_mask, 'src_key_padding_mask', _none_or_dtype(src_mask),
                                               'src_mask', src.dtype)
        src_mask = _canonical_mask(src_mask, 'src_mask', None, '', src.dtype, check_other=False)
        x = src
        if self.norm_first:
            x = x + self._sa_block(self.norm1(x), src_mask, src_key_padding_mask, is_causal=is_causal)
            x = x + self._ff_block(self.norm2(x))
        else:
            x = self.norm1(x + self._sa_block(x, src_mask, src_key_padding_mask, is_causal=is_causal))
            x = self.norm2(x + self._ff_block(x))
        return x

    def _sa_block(self, x, attn_mask, key_padding_mask, is_causal=False):
        x = self.self_attn(x, x, x, attn_mask=attn_mask, key_padding_mask=key_padding_mask, need_weights=False,
                           is_causal=is_causal)[0]
        return self.dropout1(x)

    def _ff_block(self, x):
        return self.dropout2(self.linear2(self.dropout(self.activation(self.linear1(x)))))


def _why_not_nested(layer):
    """Why TransformerEncoder cannot use nested tensors for this layer (PyTorch warns with it), or ''."""
    name = 'encoder_layer'
    if not isinstance(layer, TransformerEncoderLayer):
        return '%s was not TransformerEncoderLayer' % name
    attn = layer.self_attn
    checks = [(layer.norm_first, '%s.norm_first was True' % name),
              (not attn.batch_first, '%s.self_attn.batch_first was not True(use batch_first for better inference '
                                     'performance)' % name),
              (not attn._qkv_same_embed_dim, '%s.self_attn._qkv_same_embed_dim was not True' % name),
              (attn.in_proj_bias is None, '%s.self_attn was passed bias=False' % name),
              (not layer.activation_relu_or_gelu, '%s.activation_relu_or_gelu was not True' % name),
              (layer.norm1.eps != layer.norm2.eps, '%s.norm1.eps was not equal to %s.norm2.eps' % (name, name)),
              (attn.num_heads % 2 == 1, '%s.self_attn.num_heads is odd' % name)]
    return next((why for bad, why in checks if bad), '')


def _square_subsequent_mask(sz, dtype):
    """0 on and below the diagonal, -inf above: the causal mask nn.Transformer makes."""
    return triu(full((sz, sz), float('-inf'), dtype=dtype), diagonal=1)


class TransformerEncoder(Module):
    """num_layers deep copies of encoder_layer, applied in turn, then an optional norm."""

    def __init__(self, encoder_layer, num_layers, norm=None, enable_nested_tensor=True, mask_check=True):
        super().__init__()
        self.layers = ModuleList([copy.deepcopy(encoder_layer) for _ in range(num_layers)])
        self.num_layers, self.norm = num_layers, norm
        self.enable_nested_tensor = self.use_nested_tensor = enable_nested_tensor
        self.mask_check = mask_check
        why = _why_not_nested(encoder_layer)
        if enable_nested_tensor and why:
            warnings.warn('enable_nested_tensor is True, but self.use_nested_tensor is False because ' + why,
                          stacklevel=user_stacklevel())
            self.use_nested_tensor = False

    def forward(self, src, mask=None, src_key_padding_mask=None, is_causal=None):
        src_key_padding_mask = _canonical_mask(src_key_padding_mask, 'src_key_padding_mask', _none_or_dtype(mask),
                                               'mask', src.dtype)
        mask = _canonical_mask(mask, 'mask', None, '', src.dtype, check_other=False)
        batch_first = self.layers[0].self_attn.batch_first
        seq_len = src.size(0) if src.dim() == 2 else src.size(1 if batch_first else 0)
        if is_causal is None and mask is not None:           # PyTorch's _detect_is_causal_mask
            causal = _square_subsequent_mask(seq_len, mask.dtype)
            is_causal = mask.size() == causal.size() and bool((mask == causal).all())
        nested = self._takes_nested_path(src, mask, src_key_padding_mask)
        output = src
        for mod in self.layers:
            output = mod(output, src_mask=mask, is_causal=bool(is_causal), src_key_padding_mask=src_key_padding_mask)
        if nested:                      # (PyTorch ran the layers on a nested tensor, padded back with zeros)
            output = output.masked_fill(src_key_padding_mask.bool()[..., None], 0.0)
        if self.norm is not None:
            output = self.norm(output)
        return output

    def _takes_nested_path(self, src, mask, padding):
        """Whether PyTorch would run the layers on a nested tensor (inference with a left-aligned padding mask and
        nothing needing grad); it warns that nested tensors are a prototype, once per process."""
        first = self.layers[0]
        if not self.use_nested_tensor or first.training or src.dim() != 3 or padding is None or mask is not None:
            return False
        keep = padding.logical_not()._data
        if self.mask_check and not (keep[:, :-1] | ~keep[:, 1:]).all():   # (a kept position after a padded one)
            return False
        params = [first.self_attn.in_proj_weight, first.self_attn.in_proj_bias, first.self_attn.out_proj.weight,
                  first.self_attn.out_proj.bias, first.norm1.weight, first.norm1.bias, first.norm2.weight,
                  first.norm2.bias, first.linear1.weight, first.linear1.bias, first.linear2.weight, first.linear2.bias]
        if is_grad_enabled() and any(t.requires_grad for t in [src] + params):
            return False
        warn_once('The PyTorch API of nested tensors is in prototype stage and will change in the near future. We '
                  'recommend specifying layout=torch.jagged when constructing a nested tensor, as this layout receives '
                  'active development, has better operator coverage, and works with torch.compile.',
                  'aten/src/ATen/NestedTensorImpl.cpp:177')
        return True


class TransformerDecoderLayer(Module):
    """Self-attention over the target, attention from it to the encoder's output (memory), then a feed-forward
    block, each with dropout, a residual and a LayerNorm (after the residual, or before the block with
    norm_first)."""

    def __init__(self, d_model, nhead, dim_feedforward=2048, dropout=0.1, activation=F.relu, layer_norm_eps=1e-5,
                 batch_first=False, norm_first=False, bias=True, device=None, dtype=None):
        super().__init__()
        kw = {'device': device, 'dtype': dtype}
        self.self_attn = MultiheadAttention(d_model, nhead, dropout=dropout, batch_first=batch_first, bias=bias, **kw)
        self.multihead_attn = MultiheadAttention(d_model, nhead, dropout=dropout, batch_first=batch_first, bias=bias,
                                                 **kw)
        self.linear1 = Linear(d_model, dim_feedforward, bias=bias, **kw)
        self.dropout = Dropout(dropout)
        self.linear2 = Linear(dim_feedforward, d_model, bias=bias, **kw)
        self.norm_first = norm_first
        self.norm1 = LayerNorm(d_model, eps=layer_norm_eps, bias=bias, **kw)
        self.norm2 = LayerNorm(d_model, eps=layer_norm_eps, bias=bias, **kw)
        self.norm3 = LayerNorm(d_model, eps=layer_norm_eps, bias=bias, **kw)
        self.dropout1 = Dropout(dropout)
        self.dropout2 = Dropout(dropout)
        self.dropout3 = Dropout(dropout)
        self.activation = _activation(activation) if isinstance(activation, str) else activation

    def forward(self, tgt, memory, tgt_mask=None, memory_mask=None, tgt_key_padding_mask=None,
                memory_key_padding_mask=None, tgt_is_causal=False, memory_is_causal=False):
        x = tgt
        if self.norm_first:
            x = x + self._sa_block(self.norm1(x), tgt_mask, tgt_key_padding_mask, tgt_is_causal)
            x = x + self._mha_block(self.norm2(x), memory, memory_mask, memory_key_padding_mask, memory_is_causal)
            x = x + self._ff_block(self.norm3(x))
        else:
            x = self.norm1(x + self._sa_block(x, tgt_mask, tgt_key_padding_mask, tgt_is_causal))
            x = self.norm2(x + self._mha_block(x, memory, memory_mask, memory_key_padding_mask, memory_is_causal))
            x = self.norm3(x + self._ff_block(x))
        return x

    _sa_block = TransformerEncoderLayer._sa_block      # (self-attention, then dropout1: the encoder's block)

    def _mha_block(self, x, mem, attn_mask, key_padding_mask, is_causal=False):
        x = self.multihead_attn(x, mem, mem, attn_mask=attn_mask, key_padding_mask=key_padding_mask,
                                is_causal=is_causal, need_weights=False)[0]
        return self.dropout2(x)

    def _ff_block(self, x):
        return self.dropout3(self.linear2(self.dropout(self.activation(self.linear1(x)))))


class TransformerDecoder(Module):
    """num_layers deep copies of decoder_layer, applied in turn (each attending to the same memory), then an
    optional norm."""

    def __init__(self, decoder_layer, num_layers, norm=None):
        super().__init__()
        self.layers = ModuleList([copy.deepcopy(decoder_layer) for _ in range(num_layers)])
        self.num_layers, self.norm = num_layers, norm

    def forward(self, tgt, memory, tgt_mask=None, memory_mask=None, tgt_key_padding_mask=None,
                memory_key_padding_mask=None, tgt_is_causal=None, memory_is_causal=False):
        batch_first = self.layers[0].self_attn.batch_first
        seq_len = tgt.size(0) if tgt.dim() == 2 else tgt.size(1 if batch_first else 0)
        causal = tgt_is_causal is True
        if tgt_is_causal is None and tgt_mask is not None:           # PyTorch's _detect_is_causal_mask
            square = _square_subsequent_mask(seq_len, tgt_mask.dtype)
            causal = tgt_mask.size() == square.size() and bool((tgt_mask == square).all())
        output = tgt
        for mod in self.layers:
            output = mod(output, memory, tgt_mask=tgt_mask, memory_mask=memory_mask,
                         tgt_key_padding_mask=tgt_key_padding_mask, memory_key_padding_mask=memory_key_padding_mask,
                         tgt_is_causal=causal, memory_is_causal=memory_is_causal)
        if self.norm is not None:
            output = self.norm(output)
        return output


class Transformer(Module):
    """An encoder (num_encoder_layers TransformerEncoderLayers and a LayerNorm) over src and a decoder (as many
    TransformerDecoderLayers and a LayerNorm) over tgt attending to the encoder's output; every weight matrix
    then re-initialised with xavier_uniform_."""

    def __init__(self, d_model=512, nhead=8, num_encoder_layers=6, num_decoder_layers=6, dim_feedforward=2048,
                 dropout=0.1, activation=F.relu, custom_encoder=None, custom_decoder=None, layer_norm_eps=1e-5,
                 batch_first=False, norm_first=False, bias=True, device=None, dtype=None):
        super().__init__()
        kw = {'device': device, 'dtype': dtype}
        layer_args = (d_model, nhead, dim_feedforward, dropout, activation, layer_norm_eps, batch_first, norm_first,
                      bias)
        if custom_encoder is not None:
            self.encoder = custom_encoder
        else:
            self.encoder = TransformerEncoder(TransformerEncoderLayer(*layer_args, **kw), num_encoder_layers,
                                              LayerNorm(d_model, eps=layer_norm_eps, bias=bias, **kw))
        if custom_decoder is not None:
            self.decoder = custom_decoder
        else:
            self.decoder = TransformerDecoder(TransformerDecoderLayer(*layer_args, **kw), num_decoder_layers,
                                              LayerNorm(d_model, eps=layer_norm_eps, bias=bias, **kw))
        for p in self.parameters():
            if p.dim() > 1:
                init.xavier_uniform_(p)
        self.d_model, self.nhead, self.batch_first = d_model, nhead, batch_first

    def forward(self, src, tgt, src_mask=None, tgt_mask=None, memory_mask=None, src_key_padding_mask=None,
                tgt_key_padding_mask=None, memory_key_padding_mask=None, src_is_causal=None, tgt_is_causal=None,
                memory_is_causal=False):
        if src.dim() == 3 and src.size(0 if self.batch_first else 1) != tgt.size(0 if self.batch_first else 1):
            raise RuntimeError('the batch number of src and tgt must be equal')
        if src.size(-1) != self.d_model or tgt.size(-1) != self.d_model:
            raise RuntimeError('the feature number of src and tgt must be equal to d_model')
        memory = self.encoder(src, mask=src_mask, src_key_padding_mask=src_key_padding_mask, is_causal=src_is_causal)
        return self.decoder(tgt, memory, tgt_mask=tgt_mask, memory_mask=memory_mask,
                            tgt_key_padding_mask=tgt_key_padding_mask,
                            memory_key_padding_mask=memory_key_padding_mask, tgt_is_causal=tgt_is_causal,
                            memory_is_causal=memory_is_causal)

    @staticmethod
    def generate_square_subsequent_mask(sz, device=None, dtype=None):
        """0 on and below the diagonal, -inf above (a causal mask), in the default dtype unless given."""
        from .._dtypes import default_float
        return _square_subsequent_mask(sz, dtype or default_float)


MultiheadAttention.__module__ = 'torch.nn.modules.activation'
NonDynamicallyQuantizableLinear.__module__ = 'torch.nn.modules.linear'
for _cls in (TransformerEncoderLayer, TransformerEncoder, TransformerDecoderLayer, TransformerDecoder, Transformer):
    _cls.__module__ = 'torch.nn.modules.transformer'
