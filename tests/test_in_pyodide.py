"""The built Pyodide site (lock, wheels, compressed siblings) and tests/engine run under pytest inside Pyodide."""

import gzip
import hashlib
import importlib.util
import json
import subprocess
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SITE = ROOT / "static" / "pyodide"
LOCK = SITE / "pyodide-lock.json"
RUNNER = ROOT / "tests" / "pyodide" / "run.mjs"

pytestmark = pytest.mark.skipif(not LOCK.exists(), reason="static/pyodide is not built: run `python build.py`")


def load_build():
    """build.py as a module (it is a script at the repository root, not a package)."""
    spec = importlib.util.spec_from_file_location("playground_build", ROOT / "build.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def lock():
    return json.loads(LOCK.read_text())


def test_lock_ships_the_engine_with_its_dependencies(lock):
    assert lock["info"]["version"] == "0.27.7"
    assert set(lock["packages"]) == {"engine", "numpy", "networkx"}
    assert set(lock["packages"]["engine"]["depends"]) == {"numpy", "networkx"}
    assert lock["packages"]["engine"]["imports"] == ["engine"]
    assert lock["packages"]["numpy"]["sha256"] == "ebb61241d962b98b21597d7ce43b67668a6d5bab3acec4fbe958657320d7cd08"


def test_every_package_matches_its_sha256(lock):
    for name, package in lock["packages"].items():
        data = (SITE / package["file_name"]).read_bytes()
        assert hashlib.sha256(data).hexdigest() == package["sha256"], name


def test_site_holds_only_what_it_ships(lock):
    build = load_build()
    shipped = set(build.PYODIDE_CORE) | {p["file_name"] for p in lock["packages"].values()} | {LOCK.name}
    present = {p.name for p in SITE.iterdir()}
    assert {n for n in present if not n.endswith(".gz")} == shipped
    assert {n[:-3] for n in present if n.endswith(".gz")} <= shipped


def test_gz_siblings_hold_their_files():
    siblings = sorted(SITE.glob("*.gz")) + sorted((ROOT / "static" / "vendor").glob("*.gz"))
    assert any(p.name == "pyodide.asm.wasm.gz" for p in siblings)
    for gz in siblings:
        assert gzip.decompress(gz.read_bytes()) == gz.with_suffix("").read_bytes(), gz.name


def test_engine_wheel_is_built_from_the_current_sources(lock):
    assert lock["packages"]["engine"]["file_name"] == load_build().engine_wheel_name(), \
        "static/pyodide holds an engine wheel of older sources: run `python build.py`"


def test_engine_wheel_holds_only_the_engine_and_is_reproducible(tmp_path):
    build = load_build()
    first = build.build_engine_wheel(tmp_path / "a")
    second = build.build_engine_wheel(tmp_path / "b")
    assert first.read_bytes() == second.read_bytes()
    names = zipfile.ZipFile(first).namelist()
    assert "engine/__init__.py" in names
    assert all(n.startswith(("engine/", "engine-")) for n in names), names


def test_numpy_with_a_wrong_hash_fails_loudly(tmp_path):
    build = load_build()
    source = tmp_path / "mirror"
    source.mkdir()
    (source / "numpy-fake.whl").write_bytes(b"not numpy")
    with pytest.raises(build.BuildError, match="sha256 mismatch"):
        build.fetch_numpy(str(source), "numpy-fake.whl", "0" * 64, cache=tmp_path / "cache")
    with pytest.raises(build.BuildError, match="has no"):
        build.fetch_numpy(str(source), "numpy-missing.whl", "0" * 64, cache=tmp_path / "cache")


def test_engine_tests_pass_inside_pyodide():
    result = subprocess.run(["node", str(RUNNER), "-q"], cwd=ROOT, capture_output=True,
                            text=True, timeout=1800)
    output = result.stdout + result.stderr
    assert "engine " in output and "site-packages/engine" in output, output[-3000:]
    assert result.returncode == 0, output[-6000:]
