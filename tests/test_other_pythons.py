"""tests/engine under the newer CPythons the machine has: the engine runs unchanged on CPython 3.11 and later
(`./dev test` makes each a venv with numpy, networkx, pytest and hypothesis: .venv-py3.12, .venv-py3.13)."""

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.parametrize("version", ["3.12", "3.13"])
def test_engine_tests_pass_under(version):
    python = ROOT / f".venv-py{version}" / "bin" / "python"
    if sys.version_info[:2] == tuple(map(int, version.split("."))):
        pytest.skip(f"this is Python {version}: tests/engine runs here directly")
    if not python.exists():
        pytest.skip(f"no .venv-py{version}: the machine has no python{version} (./dev test makes it where there is)")
    run = subprocess.run([str(python), "-m", "pytest", "-q", "-p", "no:cacheprovider", "tests/engine"],
                         cwd=ROOT, capture_output=True, text=True)
    assert run.returncode == 0, run.stdout[-4000:] + run.stderr[-2000:]
    assert " passed" in run.stdout.splitlines()[-1], run.stdout[-2000:]
