"""Engine-only behaviour from session 19's tutorial programs: where the deprecation warning of a loss built with
size_average / reduce points (PyTorch's points into its own sources, which the engine cannot name: the engine's
convention is the user's line, for every loss module and function alike)."""
import warnings

import engine as torch


def test_size_average_warning_points_at_the_users_line():
    makers = [lambda: torch.nn.BCELoss(size_average=False), lambda: torch.nn.MSELoss(size_average=False),
              lambda: torch.nn.CrossEntropyLoss(reduce=False),
              lambda: torch.nn.functional.mse_loss(torch.ones(1), torch.ones(1), size_average=False)]
    for make in makers:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter('always')
            make()
        assert [w.filename for w in caught] == [__file__], [(w.filename, w.lineno) for w in caught]
