"""The engine prints what PyTorch 2.13 printed for each recorded snippet (no torch needed: runs in Pyodide too)."""
import json
import os

import pytest

import engine
from snippets import run_snippet

HERE = os.path.dirname(os.path.abspath(__file__))
with open(os.path.join(HERE, 'goldens.json'), encoding='utf-8') as f:
    GOLDENS = json.load(f)


@pytest.mark.parametrize('case', GOLDENS, ids=[c['code'].split('\n')[0][:60] for c in GOLDENS])
def test_engine_prints_what_pytorch_printed(case):
    assert run_snippet(engine, case['code']) == case['torch']
