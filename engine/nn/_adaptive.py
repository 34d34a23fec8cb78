"""nn.AdaptiveLogSoftmaxWithLoss (Grave et al.'s efficient softmax for large vocabularies): a head over the frequent
classes and one slot per cluster of rarer classes, each cluster a small two-layer projection. Written with the same
sequence of tensor ops as PyTorch's module, so its outputs carry the same graph (IndexCopyBackward0, GatherBackward0,
LogSoftmaxBackward0, ...)."""
import itertools
from collections import namedtuple

from . import Linear, Module, ModuleList, Sequential
from . import functional as F

_ASMoutput = namedtuple('_ASMoutput', ['output', 'loss'])


class AdaptiveLogSoftmaxWithLoss(Module):
    __module__ = 'torch.nn.modules.adaptive'
    """Log-probabilities of targets under a head softmax over cutoffs[0] frequent classes plus one entry per tail
    cluster, and a softmax within each cluster; forward gives (output, loss) for the targets, log_prob every class's
    log-probability, predict the likeliest class."""

    def __init__(self, in_features, n_classes, cutoffs, div_value=4.0, head_bias=False, device=None, dtype=None):
        super().__init__()
        cutoffs = list(cutoffs)
        if len(cutoffs) == 0:
            raise ValueError('cutoffs should be a sequence of length larger than 0')
        if (cutoffs != sorted(cutoffs) or min(cutoffs) <= 0 or max(cutoffs) > n_classes - 1
                or len(set(cutoffs)) != len(cutoffs) or any(int(c) != c for c in cutoffs)):
            raise ValueError('cutoffs should be a sequence of unique, positive integers sorted in an increasing '
                             'order, where each value is between 1 and n_classes-1')
        self.in_features, self.n_classes = in_features, n_classes
        self.cutoffs, self.div_value, self.head_bias = cutoffs + [n_classes], div_value, head_bias
        self.shortlist_size = self.cutoffs[0]
        self.n_clusters = len(self.cutoffs) - 1
        self.head_size = self.shortlist_size + self.n_clusters
        self.head = Linear(self.in_features, self.head_size, bias=self.head_bias, device=device, dtype=dtype)
        self.tail = ModuleList()
        for i in range(self.n_clusters):
            hidden = int(self.in_features // (self.div_value ** (i + 1)))
            self.tail.append(Sequential(
                Linear(self.in_features, hidden, bias=False, device=device, dtype=dtype),
                Linear(hidden, self.cutoffs[i + 1] - self.cutoffs[i], bias=False, device=device, dtype=dtype)))

    def reset_parameters(self):
        self.head.reset_parameters()
        for first, second in self.tail:
            first.reset_parameters()
            second.reset_parameters()

    def forward(self, input_, target_):
        targ_dim = target_.dim()
        if targ_dim == 1:
            if input_.size(0) != target_.size(0):
                raise RuntimeError('Input and target should have the same size in the batch dimension.')
            if input_.dim() != 2:
                raise RuntimeError(f'1D target tensor expects 2D input tensors, but found inputs with size '
                                   f'{input_.size()}')
        elif targ_dim == 0:
            if input_.dim() != 1:
                raise RuntimeError(f'0D target tensor expects 1D input tensors, but found inputs with size '
                                   f'{input_.size()}')
        else:
            raise RuntimeError('0D or 1D target tensor expected, multi-target not supported')
        batched = targ_dim > 0
        input = input_ if batched else input_.unsqueeze(0)
        target = target_ if batched else target_.unsqueeze(0)
        rows_used, batch = 0, target.size(0)
        output = input.new_zeros(batch)
        head_index = target.new_empty(batch)            # (the head entry each row reads: its class or its cluster)
        bounds = [0] + self.cutoffs
        for i in range(len(bounds) - 1):
            low, high = bounds[i], bounds[i + 1]
            in_cluster = (target >= low) & (target < high)
            rows = in_cluster.nonzero().squeeze()
            if rows.numel() == 0:
                continue
            if i == 0:
                head_index.index_copy_(0, rows, target[in_cluster])
            else:
                within = target[in_cluster] - low
                cluster_logprob = F.log_softmax(self.tail[i - 1](input.index_select(0, rows)), dim=1)
                head_index.index_fill_(0, rows, self.shortlist_size + i - 1)
                output.index_copy_(0, rows, cluster_logprob.gather(1, within.unsqueeze(1)).squeeze(1))
            rows_used += rows.numel()
        if rows_used != batch:
            raise RuntimeError(f'Target values should be in [0, {self.n_classes - 1}], but values in range '
                               f'[{target.min().item()}, {target.max().item()}] were found. ')
        head_logprob = F.log_softmax(self.head(input), dim=1)
        output += head_logprob.gather(1, head_index.unsqueeze(1)).squeeze()
        loss = (-output).mean()
        if not batched:
            output = output.squeeze(0)
        return _ASMoutput(output, loss)

    def _get_full_log_prob(self, input, head_output):
        """Every class's log-probability: the head's for the shortlist, a cluster's own plus its head entry's."""
        out = input.new_empty((head_output.size(0), self.n_classes))
        head_logprob = F.log_softmax(head_output, dim=1)
        out[:, :self.shortlist_size] = head_logprob[:, :self.shortlist_size]
        for i, (start, stop) in enumerate(itertools.pairwise(self.cutoffs)):
            cluster_logprob = F.log_softmax(self.tail[i](input), dim=1)
            out[:, start:stop] = cluster_logprob + head_logprob[:, self.shortlist_size + i].unsqueeze(1)
        return out

    def log_prob(self, input):
        """(N, n_classes) log-probabilities."""
        return self._get_full_log_prob(input, self.head(input))

    def predict(self, input):
        """The likeliest class of each row (the head's, unless that is a cluster: then the full distribution's)."""
        from .. import argmax
        head_output = self.head(input)
        output = argmax(head_output, dim=1)
        outside = output >= self.shortlist_size
        if not outside.any():
            return output
        if outside.all():
            return argmax(self._get_full_log_prob(input, head_output), dim=1)
        output[outside] = argmax(self._get_full_log_prob(input[outside], head_output[outside]), dim=1)
        return output
