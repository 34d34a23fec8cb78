"""engine._runner: what the browser worker calls, run here on CPython."""
import json
import sys

import pytest

from engine import _runner, graph
from engine._runner import run


def text_of(result):
    return ''.join(chunk['text'] for chunk in result['output'])


def test_stdout_stderr_and_warnings_keep_their_order():
    result = run('import sys, warnings\nprint("a")\nprint("b", file=sys.stderr)\nwarnings.warn("c")\nprint("d")\n')
    assert result['output'] == [
        {'stream': 'stdout', 'text': 'a\n'},
        {'stream': 'stderr', 'text': 'b\nmain.py:4: UserWarning: c\n  warnings.warn("c")\n'},
        {'stream': 'stdout', 'text': 'd\n'},
    ]
    assert result['error'] is None


def test_a_warning_from_the_same_line_shows_once_per_run():
    code = 'import warnings\nfor _ in range(3):\n    warnings.warn("again")\n'
    assert text_of(run(code)).count('UserWarning: again') == 1
    assert text_of(run(code)).count('UserWarning: again') == 1


def test_output_is_capped_with_a_notice():
    result = run('for i in range(10):\n    print(i)\n', max_output_lines=4)
    assert text_of(result) == '0\n1\n2\n3\n... 6 more lines\n'
    assert result['output'][-1]['notice'] is True


def test_a_partial_last_line_counts_as_a_line():
    result = run('print("1\\n2\\n3", end="")', max_output_lines=1)
    assert text_of(result) == '1\n... 2 more lines\n'


def test_one_giant_line_is_capped_by_characters():
    result = run('print("x" * 100)\nprint("y")', max_output_chars=10)
    assert text_of(result) == 'x' * 10 + '\n... 2 more lines\n'


def test_output_goes_live_as_it_is_printed_within_the_cap(monkeypatch):
    import builtins
    pieces, seen_at_line_3 = [], []
    monkeypatch.setattr(builtins, 'peek', lambda: seen_at_line_3.extend(pieces), raising=False)
    code = 'import sys\nprint("a")\npeek()\nprint("b", file=sys.stderr)\nfor i in range(5):\n    print(i)\n'
    result = run(code, max_output_lines=4, live=lambda *piece: pieces.append(piece))
    assert seen_at_line_3 == [('stdout', 'a\n')]                # (as it is printed, not at the end: a line a piece)
    assert pieces == [('stdout', 'a\n'), ('stderr', 'b\n'), ('stdout', '0\n'), ('stdout', '1\n')]  # (as capped)
    assert text_of(result) == 'a\nb\n0\n1\n... 3 more lines\n'


def test_live_output_gives_a_line_at_a_time_and_a_partial_line_with_what_follows():
    pieces = []
    run('import sys\nprint("a", end="")\nprint("b", end="")\nprint(file=sys.stderr, end="!")\nprint("c\\nd")\n'
        'print("e", end="")\n', live=lambda *piece: pieces.append(piece))
    assert pieces == [('stdout', 'ab'), ('stderr', '!'), ('stdout', 'c\nd\n')]     # ('e' waits for a next write)


def test_a_failing_live_callback_never_breaks_the_users_code():
    def live(stream, text):
        raise ValueError('the page went away')
    result = run('print("a")\nprint("b")\n', live=live)
    assert result['error'] is None and text_of(result) == 'a\nb\n'


def test_syntax_error_names_the_line():
    error = run('x = 1\ny = (\n')['error']
    assert error['type'] == 'SyntaxError' and error['line'] == 2 and not error['internal']
    assert error['traceback'].startswith('  File "main.py", line 2\n')
    assert error['traceback'].endswith(f"SyntaxError: {error['message']}\n")


def test_indentation_error_is_a_syntax_error_with_its_own_name():
    error = run('if True:\nprint(1)\n')['error']
    assert error['type'] == 'IndentationError' and error['line'] == 2


def test_runtime_error_trimmed_to_the_users_frames():
    error = run('def f():\n    raise ValueError("bad value")\n\nf()\n')['error']
    assert (error['type'], error['message'], error['line'], error['internal']) == ('ValueError', 'bad value', 2, False)
    assert error['traceback'].startswith('Traceback (most recent call last):\n  File "main.py", line 4, in <module>\n')
    assert '_runner.py' not in error['traceback']
    assert error['traceback'].endswith('ValueError: bad value\n')


@pytest.mark.parametrize('code', [
    'a = torch.tensor([1., 2.], requires_grad=True)\nb = a.sigmoid()\nb.detach().zero_()\nb.sum().backward()\n',
    'p = torch.ones(2, requires_grad=True)\nr = p.exp()\nr.mul_(2)\nr.sum().backward()\n',
    'a = torch.ones(2, requires_grad=True)\nb = a * a\nc = b * b\nb.add_(1)\nc.sum().backward()\n'])
def test_a_modified_saved_tensor_is_one_error_not_two(code):
    """The error of the study notes shows once, as PyTorch's does (it was raised while the engine was handling
    the same error of another saved tensor: 'During handling of the above exception, another exception ...')."""
    err = run('import torch\n' + code)['error']
    assert err['type'] == 'RuntimeError' and err['message'].startswith('one of the variables needed for gradient')
    assert err['traceback'].count('one of the variables needed') == 1 and 'During handling' not in err['traceback']
    assert err['traceback'].startswith('Traceback (most recent call last):\n  File "main.py", line ')


def test_output_before_an_error_is_kept():
    result = run('print("first")\n1 / 0\n')
    assert text_of(result) == 'first\n'
    assert result['error']['type'] == 'ZeroDivisionError'


def engine_file_code(source):
    """User code that runs source under an engine file's name: stands in for code inside the engine."""
    return f'import engine\nexec(compile({source!r}, engine.__file__, "exec"))\n'


def test_an_error_pytorch_would_never_raise_from_engine_code_is_internal():
    error = run(engine_file_code('{}["missing"]'))['error']
    assert error['type'] == 'KeyError' and error['internal'] is True
    assert '__init__.py' in error['traceback'], 'an internal bug keeps the engine frames for the report'
    assert error['line'] == 2


def test_a_pytorch_error_from_engine_code_is_not_internal():
    error = run(engine_file_code('raise RuntimeError("PyTorch words")'))['error']
    assert error['internal'] is False
    assert '__init__.py' not in error['traceback']


def test_errors_the_engine_raises_on_purpose_are_not_internal():
    """torch.testing's AssertionError and a node's read-only attribute are PyTorch's errors, whatever their type."""
    failed = run('import torch\ntorch.testing.assert_close(torch.ones(2), torch.zeros(2))\n')['error']
    assert (failed['type'], failed['internal'], failed['line']) == ('AssertionError', False, 2)
    assert 'testing.py' not in failed['traceback']
    read_only = run('import torch\ny = torch.ones(1, requires_grad=True) * 2\ny.grad_fn.next_functions = ()\n')
    assert (read_only['error']['type'], read_only['error']['internal']) == ('AttributeError', False)


def test_the_users_own_key_error_is_not_internal():
    assert run('{}[1]')['error']['internal'] is False


def test_memory_errors_are_named_plainly():
    error = run('import numpy as np\nnp.ones((10**10, 10**10))\n')['error']
    assert error['type'] == 'MemoryError' and error['traceback'].endswith(f"MemoryError: {error['message']}\n")


def test_torch_is_the_engine_only_during_the_run():
    before = sys.modules.get('torch')
    result = run('import torch, engine\nprint(torch is engine)\n')
    assert text_of(result) == 'True\n'
    assert sys.modules.get('torch') is before


def test_the_runs_torch_submodules_are_gone_after_it(monkeypatch):
    # (left behind, they made a later `import torch` of real PyTorch load the engine's torch.nn.functional)
    monkeypatch.delitem(sys.modules, 'torch.nn.functional', raising=False)
    result = run('import torch\nimport torch.nn.functional as F\nprint(F.relu(torch.tensor(-1.)))\n')
    assert text_of(result) == 'tensor(0.)\n'
    assert 'torch.nn.functional' not in sys.modules


def test_each_run_gets_a_fresh_main_namespace():
    assert text_of(run('secret = 1\nprint(__name__)\n')) == '__main__\n'
    assert run('print(secret)')['error']['type'] == 'NameError'


def test_each_run_starts_from_the_default_settings():
    """What a program switches for the rest of its process stays in its run, as if each run were a new process."""
    first = run('import torch\ntorch.set_grad_enabled(False)\ntorch.set_default_dtype(torch.float64)\n'
                'torch.set_printoptions(precision=2)\ntorch.autograd.set_detect_anomaly(True, check_nan=False)\n'
                'torch.set_num_threads(1)\n'
                'torch.autograd.graph.saved_tensors_hooks(lambda t: t, lambda t: t).__enter__()\n'
                'print(torch.tensor([1 / 3]), torch.is_grad_enabled())\n')
    assert text_of(first) == 'tensor([0.33]) False\n'
    second = run('import torch\nx = torch.ones(1, requires_grad=True)\nprint(torch.tensor([1 / 3]).dtype, (x * 2).grad_fn,'
                 ' torch.is_anomaly_enabled(), torch.is_anomaly_check_nan_enabled(), torch.get_num_threads() > 0,'
                 ' (x * x).grad_fn._saved_self is x)\n')
    assert text_of(second).replace(text_of(second).split('<MulBackward0 object at ')[1].split('>')[0], '?') == \
        'torch.float32 <MulBackward0 object at ?> False True True True\n'
    assert second['error'] is None


def test_deterministic_and_matmul_precision_settings_stay_in_their_run():
    show = ('import torch\nprint(torch.are_deterministic_algorithms_enabled(),'
            ' torch.is_deterministic_algorithms_warn_only_enabled(), torch.get_float32_matmul_precision(),'
            ' (torch.ones(1, requires_grad=True) * 2).requires_grad)\n')
    before = text_of(run(show))
    changed = run('import torch\ntorch.use_deterministic_algorithms(True, warn_only=True)\n'
                  'torch.set_float32_matmul_precision("medium")\ntorch.set_grad_enabled(False)\n'
                  + show.split('\n', 1)[1])
    assert text_of(changed) == 'True True medium False\n'
    assert text_of(run(show)) == before and before.endswith(' True\n')


def test_settings_come_back_after_an_error_too():
    run('import torch\ntorch.set_grad_enabled(False)\nraise ValueError("stop")\n')
    assert text_of(run('import torch\nprint(torch.is_grad_enabled())\n')) == 'True\n'


def test_anomaly_detection_shows_where_the_failing_node_came_from():
    result = run('import torch\ntorch.autograd.set_detect_anomaly(True)\nx = torch.ones(2, requires_grad=True)\n'
                 'def f(x):\n    return x.sigmoid()\ny = f(x)\ny.mul_(2)\ny.sum().backward()\n')
    assert text_of(result) == (
        'main.py:8: UserWarning: Error detected in SigmoidBackward0. Traceback of forward call that caused the error:\n'
        '  File "main.py", line 6, in <module>\n    y = f(x)\n  File "main.py", line 5, in f\n    return x.sigmoid()\n'
        ' (Triggered internally at /__w/pytorch/pytorch/torch/csrc/autograd/python_anomaly_mode.cpp:122.)\n'
        '  y.sum().backward()\n')
    assert result['error']['message'].endswith('Hint: the backtrace further above shows the operation that failed to '
                                               'compute its gradient. The variable in question was changed in there '
                                               'or anywhere later. Good luck!')


def test_exit_ends_quietly_and_input_does_not_block():
    assert run('import sys\nprint(1)\nsys.exit()\nprint(2)')['error'] is None
    assert run('import sys\nsys.exit(3)')['error']['type'] == 'SystemExit'
    assert run('input()')['error']['type'] == 'EOFError'


@pytest.mark.parametrize('code, missing', [
    ('import torch\ntorch.xpu.is_available()', 'torch.xpu'),              # (names the engine will not gain)
    ('import torch.xpu', 'torch.xpu'),
    ('from torch import quantize_per_tensor', 'torch.quantize_per_tensor'),
    ('import torch\ntorch.ones(2).to_mkldnn()', 'torch.Tensor.to_mkldnn'),
    ('import torch\ntorch.nn.Parameter(torch.ones(2)).q_scale()', 'torch.Tensor.q_scale'),
    ('import torch\ntorch.nn.SyncBatchNorm(3)', 'torch.nn.SyncBatchNorm'),
    ('from torch.nn import SyncBatchNorm', 'torch.nn.SyncBatchNorm'),
    ('from torch.utils.tensorboard import SummaryWriter', 'torch.utils.tensorboard'),   # (a submodule)
    ('import torch\ntorch.distributions.Wishart', 'torch.distributions.Wishart'),
    ('import torch\ntorch.tensr(1)', None),                                 # typos are the learner's
    ('import torch.xpuu', None),
    ('from torch.nn import Linaer', None),
    ('import torch\ntorch.ones(2).foo', None),
    ('import numpy\nnumpy.xpu', None),
    ('raise AttributeError("xpu")', None),
])
def test_an_error_for_a_name_pytorch_has_and_the_engine_lacks_says_which(code, missing):
    assert run(code)['error']['missing'] == missing


def test_the_code_imports_the_engines_submodules_even_where_real_pytorchs_were_imported(monkeypatch):
    import types
    real = types.ModuleType('torch.nn')                 # (as a test process that imported PyTorch has it)
    monkeypatch.setitem(sys.modules, 'torch.nn', real)
    assert text_of(run('import torch.nn as nn\nprint(hasattr(nn, "Linear"))')) == 'True\n'
    assert sys.modules['torch.nn'] is real


def test_streams_are_restored():
    out, err = sys.stdout, sys.stderr
    run('print("x")\nraise KeyboardInterrupt\n')
    assert (sys.stdout, sys.stderr) == (out, err)


def test_run_json_is_json():
    assert json.loads(_runner.run_json('print(1)'))['output'] == [{'stream': 'stdout', 'text': '1\n'}]


SNIPPET = '''import torch
x = torch.ones(2, 2, requires_grad=True)
y = x * 3
out = y.sum()
out.backward()
'''


def labels(node_link, kind):
    return sorted(n['label'] for n in node_link['nodes'] if n['kind'] == kind)


def test_the_graph_of_the_named_tensors():
    result = run(SNIPPET)
    assert result['error'] is None and result['problems'] == []
    assert {'x', 'y', 'out'} <= set(labels(result['graph'], 'tensor'))
    assert labels(result['graph'], 'function') == ['AccumulateGrad', 'MulBackward0', 'SumBackward0']
    assert result['dot'].startswith('digraph {')


def test_a_models_parameters_are_labelled_by_their_names():
    code = ('import torch\nnet = torch.nn.Sequential(torch.nn.Linear(2, 3), torch.nn.ReLU(), torch.nn.Linear(3, 1))\n'
            'unused = torch.nn.Linear(4, 4)\nloss = net(torch.ones(1, 2)).sum()\nloss.backward()\n')
    result = run(code)
    assert result['error'] is None
    names = set(labels(result['graph'], 'tensor'))
    assert {'net.0.weight', 'net.0.bias', 'net.2.weight', 'net.2.bias', 'loss'} <= names
    assert not any(n.startswith('unused') for n in names)          # (drawn only where the graph reaches them)
    [chapter] = result['chapters']
    assert {'net.0.weight', 'net.2.bias'} <= set(labels(chapter['graph'], 'tensor'))


def test_each_backward_call_is_a_chapter_with_its_steps():
    result = run(SNIPPET)
    [chapter] = result['chapters']
    assert chapter['call'] == 'backward' and chapter['error'] is None
    assert [s['name'] for s in chapter['steps']] == ['SumBackward0', 'MulBackward0', 'AccumulateGrad']
    ids = {n['id'] for n in chapter['graph']['nodes']}
    assert all(step['node'] in ids for step in chapter['steps'])
    # one id map per run: the final graph names the leaf as the chapter does
    leaf = chapter['steps'][-1]['accumulate']['tensor']
    assert any(n['id'] == leaf and n['label'] == 'x' for n in result['graph']['nodes'])


def test_a_failing_backward_ends_its_chapter_with_the_error():
    result = run(SNIPPET + 'out.backward()\n')
    assert result['error']['type'] == 'RuntimeError'
    assert [c['error'] for c in result['chapters']][0] is None
    assert result['chapters'][1]['error']['type'] == 'RuntimeError'


def test_a_training_loop_records_its_first_chapters_and_counts_them_all():
    code = ('import torch\nw = torch.ones(2, requires_grad=True)\nfor i in range(25):\n'
            '    (w * i).sum().backward()\nprint(w.grad)\n')
    result = run(code)
    assert result['error'] is None and text_of(result) == 'tensor([300., 300.])\n'
    assert len(result['chapters']) == 10 and result['calls'] == 25
    assert result['chapters'][-1]['steps'][-1]['accumulate']['after'] == 'tensor([45., 45.])'   # (0 + 1 + ... + 9)
    assert run(SNIPPET)['calls'] == 1


def test_values_shown_are_those_of_the_moment_even_when_data_changed_without_a_version_bump():
    # .data writes bump no version counter: each chapter must still show the values its backward() saw
    code = ('import torch\nw = torch.tensor([1., 2.], requires_grad=True)\nfor i in range(3):\n'
            '    (w * 2).sum().backward()\n    w.data.mul_(3)\n')
    result = run(code)
    shown = [next(n['value'] for n in c['graph']['nodes'] if n['label'] == 'w') for c in result['chapters']]
    assert shown == ['tensor([1., 2.])', 'tensor([3., 6.])', 'tensor([ 9., 18.])']
    before = [c['steps'][-1]['accumulate']['before'] for c in result['chapters']]
    assert before == [None, 'tensor([2., 2.])', 'tensor([4., 4.])']


def test_values_shown_follow_the_print_options_of_the_moment():
    code = ('import torch\nw = torch.tensor([1/3, 2.], requires_grad=True)\n(w * 2).sum().backward()\n'
            'torch.set_printoptions(precision=2)\n(w * 2).sum().backward()\n')
    shown = [next(n['value'] for n in c['graph']['nodes'] if n['label'] == 'w') for c in run(code)['chapters']]
    assert shown == ['tensor([0.3333, 2.0000])', 'tensor([0.33, 2.00])']


def test_a_broken_recorder_never_breaks_the_users_code(monkeypatch):
    def broken(*args):
        raise KeyError('recorder bug')
    monkeypatch.setattr(graph, 'step_to_json', broken)
    result = run(SNIPPET + 'print(x.grad)\n')
    assert result['error'] is None and 'tensor([[3., 3.],' in text_of(result)
    assert result['problems'] == ["KeyError: 'recorder bug'"]


def test_no_graph_when_the_graph_module_is_missing(monkeypatch):
    monkeypatch.setitem(sys.modules, 'engine.graph', None)  # import engine.graph now raises ImportError
    result = run(SNIPPET)
    assert result['graph']['nodes'] == [] and result['chapters'] == [] and result['error'] is None


def test_graph_of_tensors_saved_through_hooks():
    """Tensors saved under saved_tensors_hooks (a non-reentrant checkpoint's holders, nested ones) are drawn as
    saved tensors whose values the page does not read; the graph is still drawn (it was empty, its export failing
    on a hooked saved output)."""
    code = ('import torch\n'
            'from torch.utils.checkpoint import checkpoint\n'
            'x = torch.tensor([0.5, 1.0], requires_grad=True)\n'
            'def inner(t): return t.sin() * 2\n'
            'y = checkpoint(lambda t: checkpoint(inner, t, use_reentrant=False).exp(), x, use_reentrant=False)\n'
            'with torch.autograd.graph.saved_tensors_hooks(lambda t: ("p", t), lambda p: p[1]):\n'
            '    z = (x * x).sigmoid()\n')
    result = run(code)
    assert not result['problems']
    labels = {n['label'] for n in result['graph']['nodes']}
    assert {'x', 'y', 'z', 'ExpBackward0', 'SigmoidBackward0', '_saved_result'} <= labels


@pytest.mark.parametrize('code', [
    # an inference tensor has no version counter to read
    'import torch\nwith torch.inference_mode():\n    x = torch.ones(2)\ny = x * 2\n',
    # a lazy module's parameter has no shape yet
    'import torch\nm = torch.nn.LazyLinear(3)\nw = m.weight\n',
    # a module whose __init__ forgot Module.__init__
    'import torch\nclass N(torch.nn.Module):\n    def __init__(self): pass\nn = N()\nx = torch.ones(2, requires_grad=True) * 2\n',
    # a checkpoint input modified in place: the error names no node of the graph
    'import torch\nfrom torch.utils.checkpoint import checkpoint\nx = torch.ones(2, requires_grad=True)\na = x * 2\n'
    'y = checkpoint(torch.exp, a, use_reentrant=False)\nwith torch.no_grad():\n    a.mul_(2)\ny.sum().backward()\n',
])
def test_graph_export_of_unusual_tensors(code):
    """The graph is exported (no problem reported) for tensors and modules the graph builder once failed on."""
    result = run(code)
    assert not result['problems'], result['problems']
    assert result['graph']['nodes']


def test_recording_backward_does_not_show_a_warning_again():
    """The graph of each backward() call is built without touching the warning filters (which would make Python
    forget the warnings it showed): a warning in a training loop shows once, as in a plain run."""
    code = ('import torch\nx = torch.ones(2, requires_grad=True)\nfor i in range(3):\n'
            '    torch.nn.functional.kl_div(x, torch.ones(2)).backward()\n    print(i)\n')
    out = text_of(run(code))
    assert out.count('UserWarning') == 1 and out.endswith('0\n1\n2\n'), out


def test_every_step_and_error_names_a_node_of_its_chapter():
    """A leaf as the root of backward: its AccumulateGrad is drawn; an error in the op of an in-place write into
    a view: the CopySlices the graph draws (not the op's own node inside it)."""
    for code in ('import torch\ny = torch.tensor([1., 2.], requires_grad=True)\ny.backward(torch.ones(2))\n',
                 'import torch\na = torch.ones(2, requires_grad=True).clone()\nb = a[:1]\nb.mul_(b)\n'
                 'a.sum().backward()\n'):
        chapter = run(code)['chapters'][0]
        ids = {n['id'] for n in chapter['graph']['nodes']}
        assert chapter['steps'] or chapter['error']
        assert all(step['node'] in ids for step in chapter['steps'])
        if chapter['error']:
            assert chapter['error']['node'] in ids, chapter['error']


def test_hook_handles_are_numbered_from_0_in_every_run():
    code = 'import torch\nh = torch.tensor(1., requires_grad=True).register_hook(lambda g: g)\nprint(h.id)\n'
    assert text_of(run(code)) == '0\n' and text_of(run(code)) == '0\n'


def test_the_leaf_a_name_held_before_it_was_rebound_is_marked():
    """`a = a + 2` leaves the old leaf in the graph without a name: the graph (and each backward's chapter) tells it
    was `a`; a leaf that never had a rebound name stays unmarked."""
    result = run('import torch\na = torch.tensor([1., 2.], requires_grad=True)\na = a + 2\nb = torch.ones(2, '
                 'requires_grad=True)\nc = (a * b).sum()\nc.backward()\nw = torch.ones(1, requires_grad=True) * 3\n')
    for g in (result['graph'], result['chapters'][0]['graph']):
        tensors = {n['id']: n for n in g['nodes'] if n['kind'] == 'tensor'}
        unnamed = sorted((n['value'], n.get('was')) for n in tensors.values() if not n['label'])
        assert ('tensor([1., 2.])', 'a') in unnamed
        assert ('tensor([1.])', 'a') not in unnamed                     # (w's leaf: never held by a rebound name)
    assert ('tensor([1.])', None) in [(n.get('value'), n.get('was')) for n in result['graph']['nodes']]
    assert _runner._rebound_names('x = 1\nx = x + 1\ny = x\nfor i in range(3):\n    z = z * 2\n(p, q) = (q, p)\n') \
        == {'x', 'z'}
    assert _runner._rebound_names('def (') == set()


def test_each_step_says_whether_its_node_released_its_saved_tensors():
    """A backward without retain_graph frees a node's saved tensors once it has run (the stepper shows it)."""
    code = ('import torch\nx = torch.tensor([1., 2.], requires_grad=True)\ny = (x * x).sum()\n'
            'y.backward(retain_graph=True)\ny.backward()\n')
    kept, freed = ({s['name']: s['frees'] for s in c['steps']} for c in run(code)['chapters'])
    assert kept == {'SumBackward0': False, 'MulBackward0': False, 'AccumulateGrad': False}
    assert freed == {'SumBackward0': True, 'MulBackward0': True, 'AccumulateGrad': False}   # (it saves nothing)


def test_forward_mode_ad_makes_no_backward_chapters():
    """Forward AD computes each tangent with the engine's autograd: those passes are not the user's backward calls."""
    result = run('import torch\nimport torch.autograd.forward_ad as fwAD\nwith fwAD.dual_level():\n'
                 '    d = fwAD.make_dual(torch.ones(3), torch.ones(3))\n    out = torch.sin(d) * d\n'
                 '    print(fwAD.unpack_dual(out).tangent)\n')
    assert result['error'] is None and result['chapters'] == [] and result['calls'] == 0
