"""torch.nn's vision layers: Upsample (and its deprecated 2-d forms), Unfold / Fold, ConvTranspose1d / 2d,
AdaptiveMaxPool1d / 2d, PixelShuffle / PixelUnshuffle, as PyTorch 2.13 defines them (arguments, reprs, init)."""
from . import Module, Parameter, UninitializedParameter, _ConvNd, _LazyConvNd, _ntuple
from . import functional as F
from .._factories import empty


class Upsample(Module):
    """Resizes its input with F.interpolate (U-Net decoders, autoencoders)."""

    def __init__(self, size=None, scale_factor=None, mode='nearest', align_corners=None, recompute_scale_factor=None):
        super().__init__()
        self.name = type(self).__name__
        self.size = size
        if isinstance(scale_factor, tuple):
            self.scale_factor = tuple(float(f) for f in scale_factor)
        else:
            self.scale_factor = float(scale_factor) if scale_factor else None
        self.mode, self.align_corners = mode, align_corners
        self.recompute_scale_factor = recompute_scale_factor

    def forward(self, input):
        return F.interpolate(input, self.size, self.scale_factor, self.mode, self.align_corners,
                             recompute_scale_factor=self.recompute_scale_factor)

    def extra_repr(self):
        info = 'scale_factor=%r' % (self.scale_factor,) if self.scale_factor is not None else 'size=%r' % (self.size,)
        return info + ', mode=%r' % (self.mode,)


class UpsamplingNearest2d(Upsample):
    """Upsample(mode='nearest'), PyTorch's older name."""

    def __init__(self, size=None, scale_factor=None):
        super().__init__(size, scale_factor, mode='nearest')


class UpsamplingBilinear2d(Upsample):
    """Upsample(mode='bilinear', align_corners=True), PyTorch's older name."""

    def __init__(self, size=None, scale_factor=None):
        super().__init__(size, scale_factor, mode='bilinear', align_corners=True)


class _Blocks(Module):
    def extra_repr(self):
        head = 'output_size={output_size}, ' if hasattr(self, 'output_size') else ''
        return (head + 'kernel_size={kernel_size}, dilation={dilation}, padding={padding}, stride={stride}').format(
            **self.__dict__)


class Unfold(_Blocks):
    """Every kernel_size block of the input as a column (F.unfold, im2col)."""

    def __init__(self, kernel_size, dilation=1, padding=0, stride=1):
        super().__init__()
        self.kernel_size, self.dilation, self.padding, self.stride = kernel_size, dilation, padding, stride

    def forward(self, input):
        return F.unfold(input, self.kernel_size, self.dilation, self.padding, self.stride)


class Fold(_Blocks):
    """Columns of blocks added back into an image (F.fold, col2im)."""

    def __init__(self, output_size, kernel_size, dilation=1, padding=0, stride=1):
        super().__init__()
        self.output_size, self.kernel_size = output_size, kernel_size
        self.dilation, self.padding, self.stride = dilation, padding, stride

    def forward(self, input):
        return F.fold(input, self.output_size, self.kernel_size, self.dilation, self.padding, self.stride)


class _ConvTransposeNd(_ConvNd):
    """What ConvTranspose1d and 2d share: a (in, out / groups, *kernel) weight, an out-sized bias, Conv's init and
    repr, and the output_size argument of forward."""
    _forward_per_class = _init_per_class = True

    def __init__(self, in_channels, out_channels, kernel_size, stride=1, padding=0, output_padding=0, groups=1,
                 bias=True, dilation=1, padding_mode='zeros', device=None, dtype=None):
        if padding_mode != 'zeros':
            raise ValueError('Only "zeros" padding mode is supported for %s' % type(self).__name__)
        Module.__init__(self)
        n = self._nd
        if groups <= 0:
            raise ValueError('groups must be a positive integer')
        if in_channels % groups != 0:
            raise ValueError('in_channels must be divisible by groups')
        if out_channels % groups != 0:
            raise ValueError('out_channels must be divisible by groups')
        self.in_channels, self.out_channels, self.kernel_size = in_channels, out_channels, _ntuple(kernel_size, n)
        self.stride, self.padding, self.dilation = _ntuple(stride, n), _ntuple(padding, n), _ntuple(dilation, n)
        self.transposed, self.output_padding, self.groups = True, _ntuple(output_padding, n), groups
        self.padding_mode = padding_mode
        self.weight = Parameter(empty((in_channels, out_channels // groups) + self.kernel_size, device=device,
                                      dtype=dtype))
        if bias:
            self.bias = Parameter(empty(out_channels, device=device, dtype=dtype))
        else:
            self.register_parameter('bias', None)
        self.reset_parameters()

    def _output_padding(self, input, output_size):
        """output_padding, or what makes the output output_size (PyTorch's checks and messages)."""
        if output_size is None:
            return self.output_padding
        n = self._nd
        lead = 2 if input.dim() == n + 2 else 1
        output_size = list(output_size) if not isinstance(output_size, tuple) else output_size
        if len(output_size) == lead + n:
            output_size = output_size[lead:]
        if len(output_size) != n:
            raise ValueError('ConvTranspose%dD: for %dD input, output_size must have %d or %d elements (got %d)'
                             % (n, input.dim(), n, lead + n, len(output_size)))
        low = [(input.size(d + lead) - 1) * self.stride[d] - 2 * self.padding[d] +
               self.dilation[d] * (self.kernel_size[d] - 1) + 1 for d in range(n)]
        high = [m + s - 1 for m, s in zip(low, self.stride)]
        for size, a, b in zip(output_size, low, high):
            if size < a or size > b:
                raise ValueError('requested an output size of %s, but valid sizes range from %s to %s (for an input '
                                 'of %s)' % (output_size, low, high, input.size()[2:]))
        return [s - m for s, m in zip(output_size, low)]

    def forward(self, input, output_size=None):
        if self.padding_mode != 'zeros':
            raise ValueError('Only `zeros` padding mode is supported for %s' % type(self).__name__)
        return type(self)._fn(input, self.weight, self.bias, self.stride, self.padding,
                              self._output_padding(input, output_size), self.groups, self.dilation)


class ConvTranspose1d(_ConvTransposeNd):
    """Transposed 1-d convolution (a learned upsampling of (N, C, L) inputs)."""
    _nd = 1
    _fn = staticmethod(F.conv_transpose1d)


class ConvTranspose2d(_ConvTransposeNd):
    """Transposed 2-d convolution (a learned upsampling: DCGAN generators, U-Net decoders)."""
    _fn = staticmethod(F.conv_transpose2d)


class ConvTranspose3d(_ConvTransposeNd):
    """Transposed 3-d convolution (a learned upsampling of (N, C, D, H, W) inputs)."""
    _nd = 3
    _fn = staticmethod(F.conv_transpose3d)


class _LazyConvTransposeNd(_LazyConvNd):
    """A transposed convolution whose in_channels is its first input's channel count (see _LazyConvNd)."""

    def __init__(self, out_channels, kernel_size, stride=1, padding=0, output_padding=0, groups=1, bias=True,
                 dilation=1, padding_mode='zeros', device=None, dtype=None):
        self._becomes().__init__(self, 0, 0, kernel_size, stride, padding, output_padding, groups, False,
                                       dilation, padding_mode, device, dtype)
        self.weight, self.out_channels = UninitializedParameter(dtype=dtype), out_channels
        if bias:
            self.bias = UninitializedParameter(dtype=dtype)


class LazyConvTranspose1d(_LazyConvTransposeNd, ConvTranspose1d):
    """ConvTranspose1d with in_channels taken from the first input."""


class LazyConvTranspose2d(_LazyConvTransposeNd, ConvTranspose2d):
    """ConvTranspose2d with in_channels taken from the first input."""


class LazyConvTranspose3d(_LazyConvTransposeNd, ConvTranspose3d):
    """ConvTranspose3d with in_channels taken from the first input."""


class _AdaptiveMaxPoolNd(Module):
    _forward_per_class = True
    def __init__(self, output_size, return_indices=False):
        super().__init__()
        self.output_size, self.return_indices = output_size, return_indices

    def forward(self, input):
        return type(self)._fn(input, self.output_size, self.return_indices)

    def extra_repr(self):
        return f'output_size={self.output_size}'


class AdaptiveMaxPool1d(_AdaptiveMaxPoolNd):
    """The largest element of each of output_size windows tiling the last dim."""
    _fn = staticmethod(F.adaptive_max_pool1d)


class AdaptiveMaxPool2d(_AdaptiveMaxPoolNd):
    """The largest element of each of output_size windows tiling the last two dims."""
    _fn = staticmethod(F.adaptive_max_pool2d)


class AdaptiveMaxPool3d(_AdaptiveMaxPoolNd):
    """The largest element of each of output_size windows tiling the last three dims."""
    _fn = staticmethod(F.adaptive_max_pool3d)


class PixelShuffle(Module):
    """(*, C * r * r, H, W) -> (*, C, H * r, W * r) (sub-pixel convolution upsampling)."""

    def __init__(self, upscale_factor):
        super().__init__()
        self.upscale_factor = upscale_factor

    def forward(self, input):
        return F.pixel_shuffle(input, self.upscale_factor)

    def extra_repr(self):
        return f'upscale_factor={self.upscale_factor}'


class PixelUnshuffle(Module):
    """PixelShuffle's inverse: (*, C, H * r, W * r) -> (*, C * r * r, H, W)."""

    def __init__(self, downscale_factor):
        super().__init__()
        self.downscale_factor = downscale_factor

    def forward(self, input):
        return F.pixel_unshuffle(input, self.downscale_factor)

    def extra_repr(self):
        return f'downscale_factor={self.downscale_factor}'


for _where, _names in [('upsampling', 'Upsample UpsamplingNearest2d UpsamplingBilinear2d'), ('fold', 'Unfold Fold'),
                       ('conv', 'ConvTranspose1d ConvTranspose2d ConvTranspose3d LazyConvTranspose1d '
                                'LazyConvTranspose2d LazyConvTranspose3d'),
                       ('pooling', '_AdaptiveMaxPoolNd AdaptiveMaxPool1d AdaptiveMaxPool2d AdaptiveMaxPool3d'),
                       ('pixelshuffle', 'PixelShuffle PixelUnshuffle')]:
    for _name in _names.split():
        globals()[_name].__module__ = 'torch.nn.modules.' + _where
