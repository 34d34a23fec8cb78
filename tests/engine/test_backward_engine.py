"""The one backward engine: a generator of steps in PyTorch's order, iterative, with what the stepper shows."""
import numpy as np
import pytest

import engine as torch
from engine._autograd import backward_steps, set_recorder


def _names(steps):
    return [type(s.node).__name__ for s in steps]


def test_steps_follow_pytorch_order_and_show_accumulation():
    # seed 2: out = mean(3 * (x + 2) ** 2); AccumulateGrad runs last, once every consumer has delivered
    x = torch.ones(2, 3, requires_grad=True)
    y = x + 2
    out = (y * y * 3).mean()
    steps = list(backward_steps([out], [torch.ones_like(out)]))
    assert _names(steps) == ['MeanBackward0', 'MulBackward0', 'MulBackward0', 'AddBackward0', 'AccumulateGrad']
    last = steps[-1]
    assert last.variable is x and last.grad_before is None
    assert last.grad_after.tolist() == [[3.0] * 3] * 2
    # a second backward accumulates: 3 + 1 = 4, and the step keeps both sides of the sum
    before = x.grad.clone()
    steps = list(backward_steps([x.sum()], [torch.tensor(1.)]))
    assert steps[-1].grad_before.tolist() == before.tolist() and before.tolist() == [[3.0] * 3] * 2
    assert x.grad.tolist() == [[4.0] * 3] * 2


def test_a_node_runs_only_after_all_its_consumers():
    x = torch.tensor(2., requires_grad=True)
    a = x * 3
    b = a + a           # a feeds b twice: a's node waits for both edges
    c = b * a
    names = _names(backward_steps([c], [torch.tensor(1.)]))
    assert names.index('AddBackward0') < names.index('MulBackward0', 1)
    assert names.count('AccumulateGrad') == 1


def test_steps_record_gradients_sent_along_each_edge():
    x = torch.tensor([1., 2.], requires_grad=True)
    y = (x * x).sum()
    steps = list(backward_steps([y], [torch.tensor(1.)]))
    mul = steps[1]
    assert type(mul.node).__name__ == 'MulBackward0'
    assert [g.tolist() for _, _, g in mul.grads_out] == [[1., 2.], [1., 2.]]   # y * y: two edges to x


def test_a_chain_of_100000_ops_backpropagates_without_recursion_error():
    x = torch.tensor([1.], requires_grad=True)
    y = x
    for _ in range(100_000):
        y = y * 1.0
    y.backward(torch.ones(1))
    assert x.grad.tolist() == [1.0]


def test_error_stops_the_generator_at_the_node_that_needed_the_stale_tensor():
    x = torch.tensor(0., requires_grad=True)
    y = x.sigmoid()
    y.detach().zero_()
    gen = backward_steps([y], [torch.tensor(1.)])
    with pytest.raises(RuntimeError, match='output 0 of Sigmoid, is at version 1') as info:
        list(gen)
    assert type(info.value.autograd_node).__name__ == 'SigmoidBackward0'
    assert info.value.autograd_saved == 'result'


def test_recorder_sees_every_backward_call_in_order():
    seen = []

    class Recorder:
        def begin(self, call, roots):
            seen.append(('begin', call))

        def step(self, step):
            seen.append(type(step.node).__name__)

        def end(self, error):
            seen.append(('end', error is None))

    x = torch.tensor([1., 2.], requires_grad=True)
    set_recorder(Recorder())
    try:
        (x * 2).sum().backward()
        torch.autograd.grad((x * x).sum(), x)
    finally:
        set_recorder(None)
    assert seen == [('begin', 'backward'), 'SumBackward0', 'MulBackward0', 'AccumulateGrad', ('end', True),
                    ('begin', 'grad'), 'SumBackward0', 'MulBackward0', 'AccumulateGrad', ('end', True)]


def test_autograd_grad_does_not_touch_dot_grad():
    x = torch.tensor([1., 2.], requires_grad=True)
    g, = torch.autograd.grad((x * x).sum(), x)
    assert g.tolist() == [2., 4.] and x.grad is None


def test_double_backward():
    x = torch.tensor(3., requires_grad=True)
    g, = torch.autograd.grad(x ** 3, x, create_graph=True)
    assert g.item() == 27.0 and g.grad_fn is not None
    g.backward()
    assert x.grad.item() == 18.0


def test_first_grad_takes_over_a_gradient_nobody_else_holds():
    """Like PyTorch's AccumulateGrad, .grad takes over the memory of a fresh gradient instead of copying it, and
    copies whenever anything else still refers to it (so two .grad never share memory with each other or the user)."""
    a = torch.randn(3, 3, requires_grad=True)
    b = torch.randn(3, 3, requires_grad=True)
    m = a @ b
    made = []
    m.grad_fn.register_hook(lambda grads_in, grads_out: made.extend(id(g._data) for g in grads_in))
    m.backward(torch.ones(3, 3))
    assert id(a.grad._data) in made and id(b.grad._data) in made          # taken over, not copied
    np.testing.assert_allclose(a.grad._data, np.ones((3, 3)) @ b._data.T, rtol=1e-6, atol=1e-6)   # (float32 sums)

    x = torch.ones(2, requires_grad=True)
    y = torch.ones(2, requires_grad=True)
    (x + y).backward(torch.ones(2))                    # AddBackward0 passes one gradient to both leaves
    assert not np.shares_memory(x.grad._data, y.grad._data)
    x.grad.add_(1)
    assert y.grad.tolist() == [1., 1.]

    x.grad = None
    g = torch.full((2,), 3.)
    x.clone().backward(g)                               # CloneBackward0 passes the user's own tensor on
    g.add_(1)
    assert x.grad.tolist() == [3., 3.]


def test_backward_with_create_graph_warns_about_the_reference_cycle():
    x = torch.tensor([1., 2.], requires_grad=True)
    with pytest.warns(UserWarning, match=r'^Using backward\(\) with create_graph=True will create a reference cycle'):
        (x * x).sum().backward(create_graph=True)
    assert x.grad.grad_fn is not None


def test_autograd_grad_with_create_graph_does_not_warn():
    import warnings
    x = torch.tensor([1., 2.], requires_grad=True)
    with warnings.catch_warnings():
        warnings.simplefilter('error')
        g, = torch.autograd.grad((x * x).sum(), x, create_graph=True)
    assert g.tolist() == [2., 4.]


def test_recorded_backward_takes_and_adds_gradients_as_a_plain_one():
    """The stepper's references to gradients do not change what .grad becomes: with a recorder, a first .grad is
    taken or copied, and two gradients summed in place, as without one (their versions tell), and a step shows the
    gradients as its node sent them, before the sum."""
    def versions():
        x = torch.tensor([1., 2.], requires_grad=True)
        (x * 2).sum().backward()
        y = torch.tensor([1., 2.], requires_grad=True)
        y.sum().backward()
        z = torch.tensor([1., 2.], requires_grad=True)
        (z * z).sum().backward()
        return x.grad._version, y.grad._version, z.grad._version, z.grad.tolist()

    sent = []

    class Recorder:
        def begin(self, call, roots):
            pass

        def step(self, step):
            sent.extend(g.tolist() for _, _, g in step.grads_out if type(step.node).__name__ == 'MulBackward0')

        def end(self, error):
            pass

    plain = versions()
    set_recorder(Recorder())
    try:
        recorded = versions()
    finally:
        set_recorder(None)
    assert plain == recorded == (0, 1, 1, [2., 4.])
    assert sent == [[2., 2.], [1., 2.], [1., 2.]]


def test_leaves_ready_together_run_in_the_order_of_pytorchs_heap():
    """PyTorch's ready queue is a std::priority_queue in which every AccumulateGrad has the same (highest)
    sequence number: leaves made ready by one node come out in libstdc++'s heap order, not first come first served
    (measured: hooks on torch.stack of 4 leaves run 0, 2, 1, 3; of 6 leaves 0, 2, 5, 4, 1, 3). The stepper shows
    that order, and a leaf's hooks run in it."""
    for n, expected in ((4, [0, 2, 1, 3]), (6, [0, 2, 5, 4, 1, 3])):
        leaves = [torch.tensor([float(i)], requires_grad=True) for i in range(n)]
        steps = list(backward_steps([torch.stack(leaves).sum()], [torch.tensor(1.)]))
        assert [leaves.index(s.variable) for s in steps if s.variable is not None] == expected
        seen = []
        for i, t in enumerate(leaves):
            t.register_hook(lambda g, i=i: seen.append(i))
        torch.stack(leaves).sum().backward()
        assert seen == expected
    # the nodes waiting in the heap take part: torch.cat([t0 * 2, t1, t2, t3.exp(), t4, t5]) runs 1, 2, 5, 4, 3, 0
    t = [torch.tensor([float(i)], requires_grad=True) for i in range(6)]
    seen = []
    for i, leaf in enumerate(t):
        leaf.register_hook(lambda g, i=i: seen.append(i))
    torch.cat([t[0] * 2, t[1], t[2], t[3].exp(), t[4], t[5]]).sum().backward()
    assert seen == [1, 2, 5, 4, 3, 0]
