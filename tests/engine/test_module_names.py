"""Names a module of the engine lacks: the error names it as PyTorch's module (the learner imported torch)."""
import traceback

import pytest

import engine as torch
import engine.nn.functional as F


@pytest.mark.parametrize("module, shown", [(torch, "torch"), (torch.nn, "torch.nn"), (F, "torch.nn.functional"),
                                           (torch.autograd, "torch.autograd"), (torch.optim, "torch.optim"),
                                           (torch.utils.data, "torch.utils.data"),
                                           (torch.distributions, "torch.distributions")])
def test_missing_attribute_names_the_torch_module(module, shown):
    with pytest.raises(AttributeError) as caught:
        module.nonexistent_name
    assert str(caught.value) == f"module '{shown}' has no attribute 'nonexistent_name'"
    assert getattr(module, "nonexistent_name", 7) == 7 and not hasattr(module, "nonexistent_name")


def test_suggestions_as_pythons_for_pytorch():
    """torch.nn.Linaer: "Did you mean: 'Linear'?" (where the traceback module offers them: Python 3.12+, Pyodide);
    torch.tensr: none, as for PyTorch (too many names to search)."""
    def last_line(f):
        try:
            f()
        except AttributeError as e:
            return traceback.format_exception_only(e)[-1].strip()
    assert last_line(lambda: torch.tensr) == "AttributeError: module 'torch' has no attribute 'tensr'"
    assert last_line(lambda: torch.nn.Linaer).startswith("AttributeError: module 'torch.nn' has no attribute 'Linaer'")
    assert "Did you mean: 'Linear'" in last_line(lambda: torch.nn.Linaer) or not hasattr(traceback, '_compute_suggestion_error')


def test_the_playgrounds_own_graph_module_keeps_its_name():
    from engine import graph
    with pytest.raises(AttributeError, match="module 'engine.graph' has no attribute"):
        graph.nonexistent_name


def test_node_methods_print_as_pytorchs_builtin_methods():
    """`print(y.grad_fn.name)` (the call forgotten): PyTorch's nodes are C++ objects, their methods built-ins."""
    x = torch.ones(1, requires_grad=True)
    y = x * 2
    acc = y.grad_fn.next_functions[0][0]
    assert repr(y.grad_fn.name) == '<built-in method name of MulBackward0 object at %#x>' % id(y.grad_fn)
    assert repr(acc.register_hook).startswith('<built-in method register_hook of AccumulateGrad object at 0x')
    assert repr(type(y.grad_fn).name) == "<method 'name' of 'MulBackward0' objects>"
    assert y.grad_fn.name() == 'MulBackward0' and type(y.grad_fn).name(y.grad_fn) == 'MulBackward0'
    assert acc.name() == 'torch::autograd::AccumulateGrad' and y.grad_fn.name.__self__ is y.grad_fn
    assert type(y.grad_fn.name).__name__ == 'builtin_function_or_method'
    assert repr(torch.nn.Parameter(torch.ones(1)).add).startswith('<built-in method add of Parameter object at 0x')
