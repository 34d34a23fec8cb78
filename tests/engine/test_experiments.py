"""Every gallery experiment and error card claims facts about the engine: run them and check each claim."""
import contextlib
import importlib
import io
import json
import re
import sys
import warnings
from pathlib import Path

import pytest

DATA = json.loads((Path(__file__).parents[2] / 'static' / 'experiments.json').read_text(encoding='utf-8'))
EXPERIMENTS = DATA['experiments']
ERRORS = DATA['errors']
LANGS = ('en', 'zh-CN')
TOPICS = {'basics', 'leaf', 'backward', 'detach', 'more'}
CJK = re.compile(r'[\u4e00-\u9fff]')


@pytest.fixture(params=['engine', 'torch'])
def torch_like(request, monkeypatch):
    """The engine, and real PyTorch as the oracle that the cards tell the truth about PyTorch too."""
    if request.param == 'torch':
        module = pytest.importorskip('torch', reason='real PyTorch (the oracle) is not installed')
    else:
        module = importlib.import_module('engine')
    monkeypatch.setitem(sys.modules, 'torch', module)
    return module


def run(code):
    """Execute a snippet as the page would: stdout, the uncaught exception, warnings and the final namespace."""
    namespace = {'__name__': '__main__'}
    out = io.StringIO()
    with contextlib.redirect_stdout(out), warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter('always')
        try:
            exec(compile(code, '<experiment>', 'exec'), namespace)
            error = None
        except Exception as exc:  # the snippet's own error is what we inspect
            error = exc
    return out.getvalue(), error, [str(w.message) for w in caught], namespace


def python_pattern(card):
    """The cards hold JavaScript regular expressions; named groups are spelled (?P<name>...) in Python."""
    return re.compile(card['pattern'].replace('(?<', '(?P<'))


def card_for(error):
    """The first card whose type and pattern match, as explain.js picks it."""
    for card in ERRORS:
        if card['type'] == type(error).__name__ and python_pattern(card).search(str(error)):
            return card
    return None


def graph_labels(namespace):
    """Variable names of the snippet's tensors and the grad_fn names reachable from them."""
    tensors = {name: value for name, value in namespace.items() if hasattr(value, 'grad_fn') and hasattr(value, 'is_leaf')}
    functions, todo = set(), [t.grad_fn for t in tensors.values() if t.grad_fn is not None]
    todo += [fn for t in tensors.values() for fn, _ in getattr(t.grad_fn, 'next_functions', ())]
    seen = set()
    while todo:
        fn = todo.pop()
        if fn is None or id(fn) in seen:
            continue
        seen.add(id(fn))
        functions.add(type(fn).__name__)
        todo.extend(next_fn for next_fn, _ in fn.next_functions)
    return set(tensors), functions


def assert_in_order(text, pieces):
    position = 0
    for piece in pieces:
        found = text.find(piece, position)
        assert found >= 0, f'{piece!r} not found in order in output:\n{text}'
        position = found + len(piece)


@pytest.mark.parametrize('experiment', EXPERIMENTS, ids=[e['id'] for e in EXPERIMENTS])
def test_experiment_does_what_its_card_says(experiment, torch_like):
    output, error, warned, namespace = run('\n'.join(experiment['code']))
    expect = experiment['expect']
    assert_in_order(output, expect['output'])
    if expect['error'] is None:
        assert error is None, f'unexpected {type(error).__name__}: {error}'
    else:
        assert type(error).__name__ == expect['error']['type'], f'expected {expect["error"]}, got {error!r}'
        assert expect['error']['message'] in str(error)
        assert card_for(error) is not None, f'no explanation card matches {error!r}'
    if 'warning' in expect:
        assert any(expect['warning'] in message for message in warned), warned
    for name, values in expect.get('grad', {}).items():
        assert namespace[name].grad.tolist() == pytest.approx(values)
    tensors, functions = graph_labels(namespace)
    for spot in experiment['highlight']:
        if spot.get('kind') == 'tensor' and 'label' in spot:
            assert spot['label'] in tensors
        if spot.get('kind') == 'function':
            assert spot['label'] in functions


@pytest.mark.parametrize('card', ERRORS, ids=[c['id'] for c in ERRORS])
def test_error_card_matches_the_error_its_example_raises(card, torch_like):
    if card.get('engine_only') and torch_like.__name__ == 'torch':
        pytest.skip('this error is the engine\'s own: PyTorch supports what the example asks for')
    _, error, _, _ = run('\n'.join(card['example']))
    assert error is not None, 'the example raised nothing'
    assert card_for(error) is card, f'{type(error).__name__}: {error} was explained by {card_for(error)}'


@pytest.mark.parametrize('card', ERRORS, ids=[c['id'] for c in ERRORS])
def test_error_card_placeholders_are_pattern_groups(card):
    groups = set(python_pattern(card).groupindex)
    for lang in LANGS:
        for text in card['explain'][lang].values():
            assert set(re.findall(r'\{(\w+)\}', text)) <= groups, text


@pytest.mark.parametrize('entry', EXPERIMENTS + ERRORS, ids=[e['id'] for e in EXPERIMENTS + ERRORS])
def test_every_text_exists_in_both_languages(entry):
    texts = [entry['title']] + ([entry['look']] if 'look' in entry else [])
    for text in texts:
        assert text['en'].strip() and CJK.search(text['zh-CN']), text
    for lang in LANGS:
        card = entry['explain'][lang]
        assert all(card[part].strip() for part in ('what', 'why', 'fix'))
    assert all(CJK.search(entry['explain']['zh-CN'][part]) for part in ('what', 'why', 'fix'))


def test_ids_unique_and_topics_known():
    ids = [e['id'] for e in EXPERIMENTS]
    assert len(ids) == len(set(ids))
    assert len({c['id'] for c in ERRORS}) == len(ERRORS)
    assert {e['topic'] for e in EXPERIMENTS} <= TOPICS


def test_the_three_open_questions_of_the_notes_each_have_one_experiment():
    assert sorted(e['unsolved'] for e in EXPERIMENTS if 'unsolved' in e) == [1, 2, 3]
