"""torch.optim.LBFGS in the engine: the closure calls, losses and parameters of PyTorch 2.13's algorithm (values
recorded from it), with and without the strong-Wolfe line search, its state, repr and errors."""
import pytest

import engine as torch

X = torch.linspace(-1, 1, 7).reshape(7, 1) * torch.tensor([[1., 2., -0.5]])
Y = torch.tensor([0.3, -1.2, 0.8, 2.0, -0.4, 1.1, 0.5])
# after each of two steps: (loss returned, w and b, closure calls so far); then every loss the closure saw
LEAST_SQUARES = {
    None: ([(1.1128571033477783, [0.0815587043762207, 0.1631174087524414, -0.04077935218811035, 0.4426190257072449], 4),
            (0.8351022005081177, [0.08163822442293167, 0.16327644884586334, -0.040819112211465836,
                                  0.4428577423095703], 6)],
           [1.1128571033477783, 0.9363288879394531, 0.8383051753044128, 0.8352783918380737, 0.8351022005081177,
            0.8351020812988281]),
    'strong_wolfe': (
        [(1.1128571033477783, [0.0815587043762207, 0.1631174087524414, -0.04077935218811035, 0.4426190257072449], 5),
         (0.8351022005081177, [0.08163822442293167, 0.16327644884586334, -0.040819112211465836,
                               0.4428577423095703], 7)],
        [1.1128571033477783, 0.9363288879394531, 0.8383051753044128, 0.8352783918380737, 0.8351022005081177,
         0.8351022005081177, 0.8351020812988281]),
}


def near(a, b):
    return all(abs(x - y) <= 1e-6 * max(1., abs(y)) for x, y in zip(a, b)) and len(a) == len(b)


@pytest.mark.parametrize('line_search', [None, 'strong_wolfe'])
def test_least_squares_matches_pytorch(line_search):
    w = torch.zeros(3, requires_grad=True)
    b = torch.zeros(1, requires_grad=True)
    opt = torch.optim.LBFGS([w, b], line_search_fn=line_search, history_size=5, max_iter=4)
    calls = []

    def closure():
        opt.zero_grad()
        loss = ((X @ w + b - Y) ** 2).mean()
        loss.backward()
        calls.append(loss.item())
        return loss
    steps, losses = LEAST_SQUARES[line_search]
    for loss, params, n_calls in steps:
        got = opt.step(closure)
        assert near([got.item()], [loss]) and near(w.tolist() + b.tolist(), params) and len(calls) == n_calls
    assert near(calls, losses)
    state = opt.state[w]
    assert list(state) == ['func_evals', 'n_iter', 'al', 'd', 't', 'old_dirs', 'old_stps', 'ro', 'H_diag',
                           'prev_flat_grad', 'prev_loss']
    assert (state['func_evals'], state['n_iter'], state['t']) == (len(losses), 6, 1)
    assert opt.state_dict()['state'][0]['prev_loss'] == state['prev_loss']


def test_rosenbrock_fixed_step_matches_pytorch():
    p = torch.tensor([-1.5, 2.0], requires_grad=True)
    opt = torch.optim.LBFGS([p], lr=0.5, history_size=4, max_iter=15)

    def rosen():
        opt.zero_grad()
        loss = (1 - p[0]) ** 2 + 100 * (p[1] - p[0] ** 2) ** 2
        loss.backward()
        return loss
    expected = [(12.5, [-1.3915985822677612, 1.9169539213180542]),
                (5.758131504058838, [-0.1207609698176384, -0.023535404354333878]),
                (1.4014079570770264, [0.7501932382583618, 0.5528558492660522])]
    for loss, params in expected:
        assert near([opt.step(rosen).item()], [loss]) and near(p.tolist(), params)
    assert opt.state[p]['func_evals'] == 45
    assert str(opt) == ('LBFGS (\nParameter Group 0\n    history_size: 4\n    line_search_fn: None\n    lr: 0.5\n'
                        '    max_eval: 18\n    max_iter: 15\n    tolerance_change: 1e-09\n    tolerance_grad: 1e-07\n)')
    assert type(opt).__module__ == 'torch.optim.lbfgs'


def test_stops_at_once_when_the_gradient_is_zero_and_errors():
    z = torch.ones(2, requires_grad=True)
    opt = torch.optim.LBFGS([z])

    def flat():
        opt.zero_grad()
        loss = (z * 0).sum()
        loss.backward()
        return loss
    assert opt.step(flat).item() == 0. and dict(opt.state[z]) == {'func_evals': 1, 'n_iter': 0}
    with pytest.raises(TypeError, match=r"^LBFGS.step\(\) missing 1 required positional argument: 'closure'$"):
        opt.step()
    with pytest.raises(ValueError, match='^Invalid learning rate: -1$'):
        torch.optim.LBFGS([z], lr=-1)
    with pytest.raises(ValueError, match=r"^LBFGS doesn't support per-parameter options \(parameter groups\)$"):
        torch.optim.LBFGS([{'params': [z]}, {'params': [torch.zeros(1, requires_grad=True)]}])
    q = torch.ones(1, requires_grad=True)
    armijo = torch.optim.LBFGS([q], line_search_fn='armijo')

    def square():
        armijo.zero_grad()
        loss = (q * q).sum()
        loss.backward()
        return loss
    with pytest.raises(RuntimeError, match="^only 'strong_wolfe' is supported$"):
        armijo.step(square)
