"""torch.nn's padding layers beyond ConstantPad1d / 2d and ZeroPad2d (ReflectionPad, ReplicationPad, CircularPad,
ConstantPad3d, ZeroPad1d / 3d), and AdaptiveAvgPool1d, as PyTorch 2.13 defines them (arguments, reprs)."""
from . import Module, _AdaptiveAvgPoolNd, _ConstantPadNd, _ntuple
from . import functional as F


class _PadNd(Module):
    """F.pad with a fixed padding in this class's mode; its repr shows the padding."""
    mode, _n = None, 1

    def __init__(self, padding):
        super().__init__()
        self.padding = _ntuple(padding, 2 * self._n)

    def forward(self, input):
        self._check_input_dim(input)
        return F.pad(input, self.padding, self.mode)

    def _check_input_dim(self, input):
        pass

    def extra_repr(self):
        return '%s' % (self.padding,)


class _CircularPadNd(_PadNd):
    mode = 'circular'

    def _check_input_dim(self, input):             # (only the circular layers check the input in Python)
        if input.dim() not in (self._n + 1, self._n + 2):
            raise ValueError('expected %dD or %dD input (got %dD input)' % (self._n + 1, self._n + 2, input.dim()))


def _layers(base, mode, name):
    return [type('%s%dd' % (name, n), (base,), {'mode': mode, '_n': n}) for n in (1, 2, 3)]


ReflectionPad1d, ReflectionPad2d, ReflectionPad3d = _layers(_PadNd, 'reflect', 'ReflectionPad')
ReplicationPad1d, ReplicationPad2d, ReplicationPad3d = _layers(_PadNd, 'replicate', 'ReplicationPad')
CircularPad1d, CircularPad2d, CircularPad3d = _layers(_CircularPadNd, 'circular', 'CircularPad')


class ConstantPad3d(_ConstantPadNd):
    _n = 3


class _ZeroPad:
    """ZeroPad1d / 3d: a constant pad of zeros, shown by its padding alone."""

    def __init__(self, padding):
        super().__init__(padding, 0.0)

    def extra_repr(self):
        return '%s' % (self.padding,)


class ZeroPad1d(_ZeroPad, _ConstantPadNd):
    _n = 1


class ZeroPad3d(_ZeroPad, ConstantPad3d):
    pass


for _cls in (ReflectionPad1d, ReflectionPad2d, ReflectionPad3d, ReplicationPad1d, ReplicationPad2d,
             ReplicationPad3d, CircularPad1d, CircularPad2d, CircularPad3d, ConstantPad3d, ZeroPad1d, ZeroPad3d):
    _cls.__module__ = 'torch.nn.modules.padding'


class AdaptiveAvgPool1d(_AdaptiveAvgPoolNd):
    """The mean of each of output_size windows tiling the last dim."""

    def forward(self, input):
        return F.adaptive_avg_pool1d(input, self.output_size)


AdaptiveAvgPool1d.__module__ = 'torch.nn.modules.pooling'
