"""The engine wheel carries bytecode precompiled for Pyodide's Python, and Pyodide imports the engine from it;
numpy's and networkx's bytecode ships beside their untouched wheels (static/vendor/pycache-*.zip) and is used too."""

import base64
import hashlib
import json
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from test_in_pyodide import load_build  # (build.py as a module)

ROOT = Path(__file__).resolve().parent.parent
SITE = ROOT / "static" / "pyodide"
LOCK = SITE / "pyodide-lock.json"
VENDOR = ROOT / "static" / "vendor"


@pytest.fixture(scope="module")
def build():
    return load_build()


@pytest.fixture(scope="module")
def python312(build):
    python = build.find_pyc_python()
    if not python:
        pytest.skip(f"no CPython {build.PYODIDE_PYTHON} here (or ${build.PYC_PYTHON_ENV}=none): "
                    "the engine wheel ships sources only")
    return python


def pyc_name(source):
    """engine/nn/utils.py -> engine/nn/__pycache__/utils.cpython-312.pyc (Pyodide's cache tag)."""
    path = Path(source)
    return (path.parent / "__pycache__" / f"{path.stem}.cpython-312.pyc").as_posix()


def shipped_wheel():
    if not LOCK.exists():
        pytest.skip("static/pyodide is not built: run `python build.py`")
    return SITE / json.loads(LOCK.read_text())["packages"]["engine"]["file_name"]


def test_shipped_wheel_has_a_current_unchecked_pyc_for_every_source(build, python312):
    with zipfile.ZipFile(shipped_wheel()) as z:
        files = {name: z.read(name) for name in z.namelist()}
    sources = sorted(n for n in files if n.endswith(".py"))
    assert "engine/_ops.py" in sources and "engine/nn/functional.py" in sources
    missing = [n for n in sources if pyc_name(n) not in files]
    assert not missing, (f"static/pyodide's engine wheel lacks bytecode for {missing[:5]} although {python312} "
                         "could compile it: run `python build.py`")
    for name in sources:
        header = files[pyc_name(name)][:8]
        assert header[:4].hex() == build.PYC_MAGIC, name
        assert int.from_bytes(header[4:8], "little") == 0b01, f"{name}: not an unchecked-hash pyc (PEP 552)"
    # The bytecode is what the wheel's own sources compile to: not stale, and reproducible.
    assert build.compile_pycs(files, python312) == {pyc_name(n): files[pyc_name(n)] for n in sources}
    record = files[next(n for n in files if n.endswith(".dist-info/RECORD"))].decode()
    assert all(f"{pyc_name(n)},sha256=" in record for n in sources)


def test_wheel_with_and_without_bytecode(build, python312, tmp_path):
    with_pyc = build.build_engine_wheel(tmp_path / "a", python312)
    again = build.build_engine_wheel(tmp_path / "b", python312)
    without = build.build_engine_wheel(tmp_path / "c", False)
    assert with_pyc.read_bytes() == again.read_bytes()
    assert with_pyc.name != without.name, "a wheel with bytecode must not share its name with one without"
    names = zipfile.ZipFile(without).namelist()
    assert "engine/_ops.py" in names and not any(n.endswith(".pyc") for n in names)
    assert with_pyc.name == build.engine_wheel_name(python312)


def test_pyc_python_setting(build, monkeypatch, tmp_path):
    build._pyc_pythons.clear()
    monkeypatch.setenv(build.PYC_PYTHON_ENV, "none")
    assert build.find_pyc_python() is None
    assert build.find_pyc_python("off") is None
    with pytest.raises(build.BuildError, match="not a runnable CPython"):
        build.find_pyc_python(str(tmp_path / "no-such-python"))
    if build.probe_python(sys.executable)[1] != build.PYC_MAGIC:
        with pytest.raises(build.BuildError, match="pyc magic number"):
            build.find_pyc_python(sys.executable)
    build._pyc_pythons.clear()


def test_build_without_python312_still_works(build, monkeypatch):
    """A machine with no CPython 3.12 (CI's image has 3.11): the search comes back empty, the wheel has sources only."""
    build._pyc_pythons.clear()
    monkeypatch.delenv(build.PYC_PYTHON_ENV, raising=False)
    monkeypatch.setattr(build, "pyc_python_candidates", lambda: iter(["/nonexistent/python3.12"]))
    try:
        assert build.find_pyc_python() is None
        assert build.engine_wheel_name().startswith("engine-")
    finally:
        build._pyc_pythons.clear()


# Inside Pyodide: note every module Python compiles from source (none should be, with the bytecode shipped).
RECORD_COMPILES = """from importlib import _bootstrap_external
compiled = []
source_to_code = _bootstrap_external.SourceLoader.source_to_code
def recording(self, data, path, **kwargs):
    compiled.append(path)
    return source_to_code(self, data, path, **kwargs)
_bootstrap_external.SourceLoader.source_to_code = recording
"""


PYODIDE_CHECK = """
import { pathToFileURL } from 'node:url';
const site = process.argv[1];
const { loadPyodide } = await import(pathToFileURL(site + '/pyodide.mjs').href);
const pyodide = await loadPyodide({ indexURL: site + '/' });
await pyodide.loadPackage('engine', { messageCallback: () => {} });
try {
  console.log(pyodide.runPython(`
import importlib.util, json, os, sys
#RECORD_COMPILES
import engine
# Modules from files (the engine also makes a few module objects in code, which have no spec).
modules = [m for m, module in list(sys.modules.items())
           if (m == "engine" or m.startswith("engine.")) and getattr(module.__spec__, "origin", None)]
json.dumps({"magic": importlib.util.MAGIC_NUMBER.hex(), "modules": modules,
            "compiled": [p for p in compiled if "/engine/" in p],
            "cached": [m for m in modules if os.path.exists(sys.modules[m].__spec__.cached)]})
`));
} catch (error) {
  console.error(error.message);
  process.exit(1);
}
""".replace("#RECORD_COMPILES\n", RECORD_COMPILES)


def test_pyodide_imports_the_engine_from_its_bytecode(build, python312):
    if not shutil.which("node"):
        pytest.skip("node is not installed")
    shipped_wheel()
    result = subprocess.run(["node", "--input-type=module", "-e", PYODIDE_CHECK, str(SITE)], cwd=ROOT,
                            capture_output=True, text=True, timeout=600)
    assert result.returncode == 0, result.stderr[-3000:]
    report = json.loads(result.stdout.strip().splitlines()[-1])
    assert report["magic"] == build.PYC_MAGIC, "Pyodide's pyc magic number is not build.PYC_MAGIC"
    assert len(report["modules"]) > 10
    assert report["compiled"] == [], "Pyodide compiled engine sources instead of using the wheel's bytecode"
    assert report["cached"] == report["modules"]


def shipped_pycache():
    """static/vendor/pycache.json, the manifest the worker reads."""
    shipped_wheel()
    manifest = VENDOR / "pycache.json"
    assert manifest.exists(), "static/vendor/pycache.json is missing (the worker expects it): run `python build.py`"
    return json.loads(manifest.read_text())


def test_shipped_third_party_wheels_are_the_official_ones(build):
    """The bytecode ships beside numpy's and networkx's wheels: the wheels stay byte-identical to the pinned ones."""
    shipped_wheel()
    lock = json.loads(LOCK.read_text())
    tarball = build.CACHE / f"pyodide-{build.PYODIDE_VERSION}.tgz"
    if not tarball.exists():
        pytest.skip(f"{tarball} is not cached")
    official = json.loads(build.read_members(build.fetch_pyodide(), ["pyodide-lock.json"])["pyodide-lock.json"])
    numpy = official["packages"]["numpy"]
    assert (lock["packages"]["numpy"]["file_name"], lock["packages"]["numpy"]["sha256"]) == \
        (numpy["file_name"], numpy["sha256"])
    assert build.sha256_of(SITE / numpy["file_name"]) == numpy["sha256"]
    _, networkx_name, networkx_sha256 = build.NETWORKX
    assert build.sha256_of(SITE / networkx_name) == networkx_sha256 == lock["packages"]["networkx"]["sha256"]


def test_shipped_pycache_is_complete_current_and_pinned(build, python312):
    manifest = shipped_pycache()
    lock = json.loads(LOCK.read_text())
    assert manifest["extract_dir"] == f"/lib/python{build.PYODIDE_PYTHON}/site-packages"
    assert set(manifest["archives"]) == set(build.PYCACHE_PACKAGES) == {"numpy", "networkx"}, \
        f"static/vendor has no numpy/networkx bytecode although {python312} could compile it: run `python build.py`"
    for package, entry in manifest["archives"].items():
        wheel = SITE / lock["packages"][package]["file_name"]
        assert entry["compiled_from"] == {wheel.name: build.sha256_of(wheel)}, f"{package}: compiled from another wheel"
        data = (VENDOR / entry["file"]).read_bytes()
        assert entry["integrity"] == "sha256-" + base64.b64encode(hashlib.sha256(data).digest()).decode()
        with zipfile.ZipFile(VENDOR / entry["file"]) as z:
            files = {name: z.read(name) for name in z.namelist()}
        sources = build.third_party_sources(wheel)
        assert f"{package}/__init__.py" in sources and not any("/tests/" in n for n in sources)
        assert sorted(files) == sorted(pyc_name(n) for n in sources), f"{entry['file']} lacks or adds bytecode"
        for name, pyc in files.items():
            assert pyc[:4].hex() == build.PYC_MAGIC, name
            assert int.from_bytes(pyc[4:8], "little") == 0b01, f"{name}: not an unchecked-hash pyc (PEP 552)"
        # What the wheel's sources compile to (current), byte for byte again (reproducible).
        assert build.compile_pycs(sources, python312) == files
        assert build.zip_bytes(files) == data
    assert {p.name for p in VENDOR.glob("pycache-*.zip")} == {e["file"] for e in manifest["archives"].values()}


def test_pycache_manifest_without_python312(build, tmp_path):
    """With no CPython 3.12 the build writes a manifest without archives, and the worker then skips the bytecode."""
    build.write_pycache_manifest(tmp_path, {})
    assert json.loads((tmp_path / "pycache.json").read_text())["archives"] == {}
    worker = (ROOT / "static" / "worker.js").read_text()
    assert "pycache.json" in worker and "manifest?.archives?.[name]" in worker


PYCACHE_CHECK = """
import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
const [site, vendor] = process.argv.slice(1);
const { loadPyodide } = await import(pathToFileURL(site + '/pyodide.mjs').href);
const pyodide = await loadPyodide({ indexURL: site + '/' });
await pyodide.loadPackage('engine', { messageCallback: () => {} });
const manifest = JSON.parse(readFileSync(vendor + '/pycache.json'));
for (const entry of Object.values(manifest.archives)) {  // as static/worker.js does, with an ArrayBuffer
  const data = readFileSync(vendor + '/' + entry.file);
  pyodide.unpackArchive(data.buffer.slice(data.byteOffset, data.byteOffset + data.byteLength), 'zip',
                        { extractDir: manifest.extract_dir });
}
try {
  console.log(pyodide.runPython(`
import json, os, sys
#RECORD_COMPILES
import engine                                          # the page's start-up
import engine._runner, engine.graph, numpy.random      # its warm-up
modules = [m for m, module in list(sys.modules.items()) if m.split(".")[0] in ("numpy", "networkx")
           and (getattr(module.__spec__, "origin", None) or "").endswith(".py")]
json.dumps({"modules": modules, "compiled": compiled,
            "cached": [m for m in modules if os.path.exists(sys.modules[m].__spec__.cached)]})
`));
} catch (error) {
  console.error(error.message);
  process.exit(1);
}
""".replace("#RECORD_COMPILES\n", RECORD_COMPILES)


def test_pyodide_imports_numpy_and_networkx_from_the_shipped_bytecode(build, python312):
    """Start-up and warm-up compile nothing: every numpy/networkx module they import has its pyc in the archives
    (a module newly imported from a subpackage in build.PYCACHE_SKIP fails this: take it off that list)."""
    if not shutil.which("node"):
        pytest.skip("node is not installed")
    shipped_pycache()
    result = subprocess.run(["node", "--input-type=module", "-e", PYCACHE_CHECK, str(SITE), str(VENDOR)], cwd=ROOT,
                            capture_output=True, text=True, timeout=600)
    assert result.returncode == 0, result.stderr[-3000:]
    report = json.loads(result.stdout.strip().splitlines()[-1])
    assert any(m.startswith("numpy.") for m in report["modules"])
    assert any(m.startswith("networkx.") for m in report["modules"])
    assert report["compiled"] == [], "Pyodide compiled sources instead of using the shipped bytecode"
    assert report["cached"] == report["modules"]
