"""Selection and indexing ops as training code and learners' exercises use them, against real PyTorch: gather and
the scatter family (an empty index, a 0-d src, a number where a Tensor goes), put_ / masked_scatter_ and their
checks' order, take / take_along_dim (0-d index, empty input, broadcasting), topk on bool, nonzero's layout,
unique along a dim of a 0-d tensor, searchsorted / bucketize (check order, parser, out=), F.embedding's max_norm
renorm (its checks and errors), F.one_hot of nothing, nn.Embedding's _weight, torch.embedding, embedding_bag's
dtype checks, which of tied values sort and unique report. Printed text, warnings and the final error must be
the same."""
import pytest

T = pytest.importorskip("torch", reason="differential tests need real PyTorch (pip install torch==2.13.0)")
from .harness import SHOW, load_engine, run_both, same  # noqa: E402

E = load_engine()

SNIPPETS = {
    # gather / scatter skip their dims check for an empty index, which may have fewer dims than the input (even with
    # dim naming a dim the index does not have); the result is empty, its gradient zeros
    "gather_scatter_empty_index_of_fewer_dims": (
        'x = torch.arange(24.).reshape(2, 3, 4).requires_grad_()\n'
        'i = torch.zeros(0, 3, dtype=torch.long)\n'
        'for d in [2, -1, 0]:\n'
        '    y = torch.gather(x, d, i)\n'
        '    show(y)\n'
        '    y.sum().backward()\n'
        '    print(x.grad.sum())\n'
        '    tries(lambda: x.detach().scatter(d, i, 1.).shape,'
        ' lambda: x.detach().scatter_add(d, i, x.detach()).shape,\n'
        '          lambda: torch.take_along_dim(x, i.reshape(0, 3, 1), d))'),
    # a 0-d src reads as size 1 in every dim in scatter's shape check (no IndexError), then fails its own check:
    # "Index tensor must have the same number of dimensions as src tensor"
    "scatter_0d_src": (
        'x = torch.zeros(3, 4, requires_grad=True)\n'
        's = torch.tensor(3.)\n'
        'for i in [torch.tensor([[4, 0]]), torch.tensor([[1, 0]]), torch.tensor([[1]]), torch.tensor([1])]:\n'
        '    for d in [0, 1]:\n'
        '        tries(lambda: torch.scatter(x, d, i, s), lambda: torch.scatter_add(x, d, i, s),\n'
        '              lambda: torch.scatter_reduce(x, d, i, s, "sum"), lambda: x.detach().scatter_(d, i, s))\n'
        'tries(lambda: torch.zeros(3).scatter(0, torch.tensor([1]), s),'
        ' lambda: torch.zeros(3).scatter_add(0, torch.tensor(1), s))'),
    # scatter_reduce's parser: src must be a Tensor (a number is refused, position 4 for torch., 3 for the method),
    # reduce a str, and it is required
    "scatter_reduce_parser": (
        'x = torch.zeros(3, 4)\n'
        'i = torch.tensor([[0, 1]])\n'
        'for s in [2.5, 7, True]:\n'
        '    tries(lambda: torch.scatter_reduce(x, 0, i, s, "sum"), lambda: x.scatter_reduce(0, i, s, "amax"),\n'
        '          lambda: x.scatter_reduce_(0, i, s, "prod"),'
        ' lambda: x.scatter_reduce(0, i, s, "mean", include_self=False),\n'
        '          lambda: torch.scatter_add(x, 0, i, s))\n'
        'tries(lambda: torch.scatter_reduce(x, 0, i, x), lambda: torch.scatter_reduce(x, 0, i, x, reduce=3),\n'
        '      lambda: torch.scatter_reduce(x, 0, i, x, "sum", include_self=None),'
        ' lambda: x.scatter_reduce(0, i, x, "sum", True),\n'
        '      lambda: torch.scatter_reduce(x, 0, i, x, "max"), lambda: x.scatter_reduce(0, i, x, "avg"))'),
    # put_ / put / torch.put and masked_scatter_ / torch.masked_scatter: the parser's TypeErrors for a number source,
    # a list index, an int or None accumulate
    "put_masked_scatter_parser": (
        'x = torch.zeros(3)\n'
        'i = torch.tensor([0])\n'
        'm = torch.tensor([True, False, True])\n'
        'tries(lambda: x.put_(i, 5.), lambda: x.put(i, 5.), lambda: torch.put(x, i, 5.),'
        ' lambda: x.put_([0], torch.ones(1)),\n'
        '      lambda: torch.put(x, [0], torch.ones(1)), lambda: x.put_(i, torch.ones(1), 1),\n'
        '      lambda: x.put_(i, torch.ones(1), accumulate=1.), lambda: x.put(i, torch.ones(1), accumulate=None),\n'
        '      lambda: x.masked_scatter_(m, 2.), lambda: x.masked_scatter(m, 2.),'
        ' lambda: torch.masked_scatter(x, m, 2.),\n'
        '      lambda: x.masked_scatter([True], torch.ones(3)))\n'
        'print(x, x._version)'),
    # masked_scatter_ checks self's and source's dtypes first, then expands the mask to self (expand's own error, for
    # any mask dtype), then wants a bool mask; masked_scatter broadcasts mask and self first
    "masked_scatter_check_order": (
        'x = torch.zeros(3)\n'
        'for m in [torch.ones(2, 3, dtype=torch.bool), torch.ones(4, dtype=torch.bool), torch.ones(4,'
        ' dtype=torch.long),\n'
        '          torch.ones(3, dtype=torch.long), torch.ones(2, 3, dtype=torch.long), torch.tensor(True)]:\n'
        '    for s in [torch.ones(5).double(), torch.ones(5)]:\n'
        '        tries(lambda: x.clone().masked_scatter_(m, s), lambda: x.masked_scatter(m, s),\n'
        '              lambda: torch.zeros(2, 3).masked_scatter_(m, s))'),
    # take with a 0-d index gives a 0-d result (and a 0-d gradient path); take from an empty tensor has its own error
    "take_0d_index_and_empty_input": (
        'for x in [torch.arange(12.).reshape(2, 3, 2).requires_grad_(), torch.tensor(2., requires_grad=True)]:\n'
        '    y = torch.take(x, torch.tensor(0))\n'
        '    show(y)\n'
        '    y.backward()\n'
        '    print(x.grad)\n'
        'tries(lambda: torch.arange(6, dtype=torch.int32).take(torch.tensor(-1)),'
        ' lambda: torch.tensor([True]).take(torch.tensor(0)),\n'
        '      lambda: torch.take(torch.zeros(0, 3), torch.tensor([1])),'
        ' lambda: torch.take(torch.zeros(0), torch.tensor(0)),\n'
        '      lambda: torch.take(torch.zeros(0), torch.tensor([], dtype=torch.long)),\n'
        '      lambda: torch.take(torch.zeros(2), torch.tensor([5])),'
        ' lambda: torch.take(torch.zeros(2), torch.tensor([-5])))'),
    # take_along_dim broadcasts with infer_size ("The size of tensor a (3) must match the size of tensor b (2) ..."),
    # and a 0-d input with a dim fails reading indices.size(dim) (the wrapped dim in the message)
    "take_along_dim_broadcast_and_0d": (
        'y = torch.arange(12.).reshape(3, 4)\n'
        'for i in [torch.tensor([[0], [1]]), torch.tensor([[0, 1, 2]]), torch.tensor([[1], [2], [0]])]:\n'
        '    for d in [0, 1, -1]:\n'
        '        tries(lambda: torch.take_along_dim(y, i, d), lambda: y.take_along_dim(i, dim=d))\n'
        'x = torch.tensor(1.)\n'
        'for d in [0, -1, 1, -2, None]:\n'
        '    tries(lambda: torch.take_along_dim(x, torch.tensor(0), d))'),
    # topk checks k against the dim's size before refusing bool
    "topk_k_before_bool": (
        'x = torch.tensor([True, False, True])\n'
        'for k in [0, 2, 3, 4, -1]:\n'
        '    tries(lambda: torch.topk(x, k), lambda: x.topk(k, largest=False), lambda: x.int().topk(k))'),
    # nonzero / argwhere give a column-major result: strides (1, n), not contiguous for 2 dims or more (view fails)
    "nonzero_layout": (
        'for x in [torch.tensor([[0, 1], [2, 3]]), torch.tensor([0., 1., 0., 2.]), torch.ones(2, 2, 2),'
        ' torch.tensor(3),\n'
        '          torch.tensor([[0, 1], [0, 0]])]:\n'
        '    n = torch.nonzero(x)\n'
        '    tries(lambda: n.stride(), lambda: n.is_contiguous(), lambda: torch.argwhere(x).stride(),'
        ' lambda: n.view(-1),\n'
        '          lambda: n.reshape(-1).stride(), lambda: n.t().is_contiguous(), lambda: (n + 1).is_contiguous(),\n'
        '          lambda: n.contiguous().stride(), lambda: [t.stride() for t in x.nonzero(as_tuple=True)])'),
    # unique along a dim of a 0-d tensor: "Dimension specified as d but tensor has no dimensions", d as given
    "unique_dim_of_0d": (
        'x = torch.tensor(3)\n'
        'for d in [0, -1, 1, -2]:\n'
        '    tries(lambda: torch.unique(x, dim=d), lambda: x.unique(dim=d, return_counts=True),\n'
        '          lambda: torch.unique_consecutive(x, dim=d))'),
    # searchsorted's checks in order: the sorter (its range check reads the last of a 0-d boundaries' sizes: an
    # ArrayRef error), a 0-d value (number or tensor) with boundaries not 1-d, then 0-d boundaries; the parser refuses
    # lists and an int right=; out= of the wrong dtype has searchsorted's own words, and out= is allowed with inputs
    # requiring grad (no derivative)
    "searchsorted_checks_parser_and_out": (
        'for s in [torch.tensor(3.), torch.tensor([[1, 3, 5], [2, 4, 6]])]:\n'
        '    for v in [3, torch.tensor(2.), torch.tensor(5), torch.tensor([1., 4.]), torch.tensor([[1.]])]:\n'
        '        tries(lambda: torch.searchsorted(s, v), lambda: torch.bucketize(v, s),\n'
        '              lambda: torch.searchsorted(s, v, sorter=torch.zeros(s.shape, dtype=torch.long)))\n'
        'x = torch.tensor([1., 0., 2.], requires_grad=True)\n'
        'tries(lambda: torch.searchsorted([1, 2], 1), lambda: torch.searchsorted(torch.tensor([1., 2.]), [1]),\n'
        '      lambda: torch.searchsorted(torch.tensor([1., 2.]), 1, right=1), lambda: torch.bucketize(1, [1, 2]),\n'
        '      lambda: torch.bucketize([1], torch.tensor([1, 2])),'
        ' lambda: torch.bucketize(x, x.detach(), out_int32=1),\n'
        '      lambda: torch.searchsorted(x.detach(), x, out=torch.zeros(0, dtype=torch.long)),\n'
        '      lambda: torch.bucketize(x, x.detach(), out=torch.zeros(0, dtype=torch.int32)),\n'
        '      lambda: torch.bucketize(x, x.detach(), out_int32=True, out=torch.zeros(0)),\n'
        '      lambda: torch.searchsorted(x.detach(), 1., out=torch.zeros(0, dtype=torch.int32)),\n'
        '      lambda: torch.nonzero(x, out=torch.zeros(0, dtype=torch.long)),'
        ' lambda: torch.nonzero(x, out=torch.zeros(0)),\n'
        '      lambda: torch.argmax(x, out=torch.zeros(0, dtype=torch.long)),'
        ' lambda: torch.eq(x, 1, out=torch.zeros(3)),\n'
        '      lambda: torch.nonzero(x, as_tuple=1), lambda: torch.nonzero(x, as_tuple=None),\n'
        '      lambda: torch.argsort(x, stable=True, out=torch.zeros(0, dtype=torch.long)))'),
    # F.embedding with max_norm renorms the rows first (torch.embedding_renorm_): a list input fails at .contiguous(),
    # the weight must be 2-d and the indices Long or Int (its words), a row out of range fails as self[i] does
    # (after the rows before it were renormed), an integer weight fails computing the first row's norm; an empty
    # input backpropagates zeros
    "embedding_max_norm_checks": (
        'import torch.nn.functional as F\n'
        'w = torch.arange(12.).reshape(4, 3).requires_grad_()\n'
        'tries(lambda: F.embedding(torch.tensor([1, 4]), w, max_norm=1.), lambda: w,\n'
        '      lambda: F.embedding(torch.tensor([-1, 2]), w, max_norm=1.), lambda: w._version,\n'
        '      lambda: F.embedding(torch.tensor([-5, 7]), w, max_norm=1.),'
        ' lambda: F.embedding(torch.tensor([1.]), w, max_norm=1.),\n'
        '      lambda: F.embedding(torch.tensor([True]), w, max_norm=1.),\n'
        '      lambda: F.embedding(torch.tensor([1]), w[0], max_norm=1.),'
        ' lambda: F.embedding(torch.tensor([1]), torch.ones(2, 2, 2), max_norm=1.),\n'
        '      lambda: F.embedding(torch.tensor([1]), torch.ones(2, 2, dtype=torch.long), max_norm=1.),\n'
        '      lambda: F.embedding(torch.tensor([5]), torch.ones(2, 2, dtype=torch.long), max_norm=1.),\n'
        '      lambda: F.embedding(torch.zeros(0, dtype=torch.long), torch.ones(2, 2, dtype=torch.long),'
        ' max_norm=1.),\n'
        '      lambda: F.embedding([1], w, max_norm=1.))\n'
        'for i in [torch.zeros(0, dtype=torch.long), torch.zeros(2, 0, dtype=torch.long)]:\n'
        '    for kw in [{}, {"max_norm": 2.}, {"padding_idx": 0, "scale_grad_by_freq": True}]:\n'
        '        y = F.embedding(i, w, **kw)\n'
        '        show(y)\n'
        '        y.sum().backward()\n'
        '        print(w.grad.sum(), w._version)'),
    # one_hot of an empty tensor needs num_classes > 0 ("Can not infer total number of classes from empty tensor."
    # for 0 and negatives); nn.Embedding asserts a given _weight's shape; torch.embedding(weight, indices, ...) exists;
    # index_add takes a 0-d tensor alpha (saved as a number)
    "one_hot_empty_embedding_weight_index_add_alpha": (
        'import torch.nn.functional as F\n'
        'for n in [-1, 0, -2, 3]:\n'
        '    tries(lambda: F.one_hot(torch.zeros(0, dtype=torch.long), n),'
        ' lambda: F.one_hot(torch.zeros(2, 0, dtype=torch.long), n).shape)\n'
        'tries(lambda: torch.nn.Embedding(5, 2, _weight=torch.ones(3, 2)),'
        ' lambda: torch.nn.Embedding(5, 2, _weight=torch.ones(5, 3)),\n'
        '      lambda: torch.nn.Embedding(5, 2, _weight=torch.ones(5, 2), _freeze=True).weight)\n'
        'w = torch.arange(6.).reshape(3, 2).requires_grad_()\n'
        'tries(lambda: torch.embedding(w, torch.tensor([1, 0])), lambda: torch.embedding(w, [1]),'
        ' lambda: torch.embedding(w, torch.tensor([1]), 1.5),\n'
        '      lambda: torch.embedding(w, torch.tensor([5])), lambda: torch.embedding(torch.tensor([1]), w))\n'
        'y = torch.embedding(w, torch.tensor([[1, 0], [1, 2]]), 1, True)\n'
        'show(y)\n'
        'y.sum().backward()\n'
        'print(w.grad)\n'
        'x = torch.zeros(2, 3, requires_grad=True)\n'
        's = torch.ones(1, 3, requires_grad=True)\n'
        'for a in [torch.tensor(2.), torch.tensor(2), torch.tensor([2.]), torch.tensor(True), 0.5]:\n'
        '    try:\n'
        '        y = torch.index_add(x, 0, torch.tensor([0]), s, alpha=a)\n'
        '        show(y)\n'
        '        y.sum().backward()\n'
        '        print(x.grad, s.grad)\n'
        '    except Exception as e:\n'
        '        print(type(e).__name__, e)'),
    # sort (unless stable=True) is std::sort of (value, index) pairs for rows longer than 16 (fbgemm's radix sort
    # only for 1-d int64 ascending of 32768 or more): which of equal values (0. and -0., NaNs, equal ints) comes first
    # is its choice, in the values, indices and the gradient; unique takes each run's first copy of that sort
    "sort_ties_std_sort_and_unique": (
        'g = torch.Generator().manual_seed(0)\n'
        'for shape in [(20,), (3, 40), (2, 3, 17)]:\n'
        '    x = torch.randint(0, 6, shape, generator=g).float()\n'
        '    x[x == 5] = float("nan")\n'
        '    x[x == 4] = -0.\n'
        '    tries(lambda: x.sort(), lambda: x.sort(descending=True).indices, lambda: x.argsort(dim=0),'
        ' lambda: x.argsort(stable=True),\n'
        '          lambda: torch.sort(x, stable=False, descending=True), lambda: x.msort(),'
        ' lambda: x.long().sort(descending=True).indices,\n'
        '          lambda: x.long().sort().indices, lambda: x.long().argsort(dim=0),'
        ' lambda: x.expand(2, *shape).sort(0).indices,\n'
        '          lambda: torch.unique(x, return_inverse=True, return_counts=True),'
        ' lambda: x.unique(sorted=True, return_inverse=True))\n'
        '    y = x.nan_to_num(7.).requires_grad_()\n'
        '    v = y.sort(descending=True).values\n'
        '    (v * torch.arange(float(v.shape[-1]))).sum().backward()\n'
        '    print(y.grad)'),
    # embedding_bag wants a floating weight and per_sample_weights of the weight's type (its words); indices and
    # offsets of different integer types are promoted
    "embedding_bag_dtype_checks": (
        'import torch.nn.functional as F\n'
        'for w in [torch.arange(12.).reshape(4, 3).requires_grad_(), torch.arange(12).reshape(4, 3),'
        ' torch.arange(12.).double().reshape(4, 3)]:\n'
        '    for i, o in [(torch.tensor([0, 2, 1, 3]), torch.tensor([0, 2])), (torch.tensor([0, 1],'
        ' dtype=torch.int32), torch.tensor([0])),\n'
        '                 (torch.tensor([[0, 2], [1, 3]]), None)]:\n'
        '        for kw in [{}, {"mode": "max"}, {"mode": "sum", "per_sample_weights": torch.ones(i.shape)}]:\n'
        '            try:\n'
        '                y = F.embedding_bag(i, w, o, **kw)\n'
        '                show(y)\n'
        '                y.sum().backward() if y.requires_grad else None\n'
        '                print(w.grad)\n'
        '            except Exception as e:\n'
        '                print(type(e).__name__, e)'),
}


@pytest.mark.parametrize("name", SNIPPETS)
def test_snippet(name):
    code = SHOW + SNIPPETS[name]
    t, e = run_both(T, E, code)
    assert same(t, e), f"\n{code}\n--- torch\n{t.summary()}--- engine\n{e.summary()}"
