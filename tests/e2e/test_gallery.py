"""The experiments gallery in the page: every experiment, in both languages, loads, runs and explains itself."""
import json
import re
from pathlib import Path

import pytest
from playwright.sync_api import expect

DATA = json.loads((Path(__file__).parents[2] / 'static' / 'experiments.json').read_text(encoding='utf-8'))
EXPERIMENTS = DATA['experiments']
CJK = re.compile(r'[\u4e00-\u9fff]')
RUN_TIMEOUT_MS = 30_000


def open_gallery(page):
    """The gallery may sit behind a toggle; open it when its entries are hidden."""
    entry = page.locator('[data-testid=experiment]').first
    toggle = page.locator('[data-testid=gallery-toggle]')
    if not entry.is_visible() and toggle.count():
        toggle.click()
    expect(entry).to_be_visible()


def choose(page, experiment):
    """Click an experiment and wait until its run and its card are on screen."""
    open_gallery(page)
    page.locator(f'[data-testid=experiment][data-id="{experiment["id"]}"]').click()
    card = page.locator(f'[data-testid=explanation][data-kind=experiment][data-card="{experiment["id"]}"]')
    card.wait_for(timeout=RUN_TIMEOUT_MS)
    page.wait_for_selector('body[data-engine=ready]', state='attached', timeout=RUN_TIMEOUT_MS)
    return card


def test_gallery_lists_every_experiment_once_with_stable_ids(playground):
    ids = playground.locator('[data-testid=experiment]').evaluate_all('els => els.map(e => e.dataset.id)')
    assert sorted(ids) == sorted(e['id'] for e in EXPERIMENTS)


@pytest.mark.parametrize('lang', ['en', 'zh-CN'])
def test_every_experiment_loads_runs_and_explains_itself(playground, lang):
    playground.locator('[data-testid=lang]').select_option(lang)
    output = playground.locator('[data-testid=output]')
    for experiment in EXPERIMENTS:
        card = choose(playground, experiment)
        code = '\n'.join(experiment['code']) + '\n'
        assert playground.evaluate('window.playground.getCode()') == code, experiment['id']
        expected = list(experiment['expect']['output'])
        if experiment['expect']['error']:
            expected.append(experiment['expect']['error']['message'])
        for piece in expected:
            expect(output).to_contain_text(piece)
        assert card.get_attribute('lang') == lang
        title = experiment['title'][lang]
        expect(card).to_contain_text(title)
        if lang == 'zh-CN':
            assert CJK.search(card.inner_text())
        errors = playground.locator('[data-testid=explanation][data-kind=error]')
        if experiment['expect']['error']:
            expect(errors).to_have_count(1)
            assert errors.get_attribute('lang') == lang
        else:
            expect(errors).to_have_count(0)
        if experiment['highlight']:
            assert playground.locator('[data-testid=graph-node][data-highlight=true]').count() > 0, experiment['id']


def test_open_questions_come_first_and_answer_plainly(playground):
    """The notes' three unsolved questions: one click each, the card names the mechanism."""
    open_gallery(playground)
    first_three = playground.locator('[data-testid=experiment]').evaluate_all(
        'els => els.slice(0, 3).map(e => e.dataset.id)')
    by_question = {e['unsolved']: e for e in EXPERIMENTS if 'unsolved' in e}
    assert first_three == [by_question[n]['id'] for n in (1, 2, 3)]
    answers = {1: ['new tensor', 'non-leaf'], 2: ['property', 'method'], 3: ['saved', 'version']}
    for n, words in answers.items():
        text = choose(playground, by_question[n]).inner_text()
        for word in words:
            assert word in text, (n, word)


def test_stale_saved_tensor_is_pointed_at_in_the_graph(playground):
    experiment = next(e for e in EXPERIMENTS if e['id'] == 'detach-zero-sigmoid-vs-pow')
    choose(playground, experiment)
    stale = playground.locator('[data-testid=graph-node][data-kind=saved][data-stale=true]')
    expect(stale.first).to_have_attribute('data-highlight', 'true')
    sigmoid = playground.locator('[data-testid=graph-node][data-label=SigmoidBackward0]')
    expect(sigmoid.first).to_have_attribute('data-highlight', 'true')
