// Run tests/engine under pytest inside Pyodide on Node.js, with the engine installed the way the page installs it.
//
// usage: node tests/pyodide/run.mjs [pytest args...]
// Boots the runtime from the built static/pyodide/ (its trimmed lock), loadPackage('engine') pulls numpy and
// networkx, pytest's wheels come from .cache/pyodide-test-wheels/ (fetched by build.py), and a copy of tests/engine/
// (with static/*.json, which tests may read) runs from Pyodide's in-memory file system, so `import engine` can only
// resolve to the installed wheel.
// Exits with pytest's status.

import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const SITE = join(ROOT, 'static', 'pyodide');
const WHEELS = join(ROOT, '.cache', 'pyodide-test-wheels');
const TESTS = join(ROOT, 'tests', 'engine');
const WORKDIR = '/home/pyodide';

function fail(message) {
  console.error(`tests/pyodide/run.mjs: ${message}`);
  process.exit(2);
}

/** Copy a host directory tree into Pyodide's file system, leaving out caches. */
function copyTree(FS, from, to) {
  FS.mkdirTree(to);
  for (const name of readdirSync(from)) {
    if (name === '__pycache__' || name.startsWith('.')) continue;
    const path = join(from, name);
    if (statSync(path).isDirectory()) copyTree(FS, path, `${to}/${name}`);
    else FS.writeFile(`${to}/${name}`, readFileSync(path));
  }
}

if (!existsSync(join(SITE, 'pyodide-lock.json'))) fail('static/pyodide is not built: run `python build.py`');
if (!existsSync(WHEELS)) fail('.cache/pyodide-test-wheels is missing: run `python build.py`');

const { loadPyodide } = await import(pathToFileURL(join(SITE, 'pyodide.mjs')).href);
const pyodide = await loadPyodide({ indexURL: SITE + '/' });
pyodide.setStdout({ write: (bytes) => { process.stdout.write(bytes); return bytes.length; } });
pyodide.setStderr({ write: (bytes) => { process.stderr.write(bytes); return bytes.length; } });
await pyodide.loadPackage('engine', { messageCallback: () => {} });

const wheels = readdirSync(WHEELS).filter((name) => name.endsWith('.whl'));
for (const name of wheels) pyodide.FS.writeFile(`/tmp/${name}`, readFileSync(join(WHEELS, name)));
copyTree(pyodide.FS, TESTS, `${WORKDIR}/tests/engine`);
// Tests may read the front end's data files (static/*.json) by their repository path.
for (const name of readdirSync(join(ROOT, 'static')).filter((n) => n.endsWith('.json'))) {
  pyodide.FS.mkdirTree(`${WORKDIR}/static`);
  pyodide.FS.writeFile(`${WORKDIR}/static/${name}`, readFileSync(join(ROOT, 'static', name)));
}

pyodide.globals.set('wheels', pyodide.toPy(wheels.map((name) => `/tmp/${name}`)));
pyodide.globals.set('pytest_args', pyodide.toPy(['tests/engine', '-p', 'no:cacheprovider', ...process.argv.slice(2)]));
let status;
try {
  status = pyodide.runPython(`
import importlib.metadata, os, sys, sysconfig, zipfile

for wheel in wheels:
    zipfile.ZipFile(wheel).extractall(sysconfig.get_paths()["purelib"])

import engine
installed = importlib.metadata.distribution("engine")
if not os.path.samefile(installed.locate_file("engine/__init__.py"), engine.__file__):
    raise ImportError(f"engine imported from {engine.__file__}, not from the installed wheel")
print(f"engine {installed.version} from {os.path.dirname(engine.__file__)}")

class NoDeadlines:
    """wasm is slower than CPython: no hypothesis deadlines in here."""

    def pytest_configure(self, config):
        from hypothesis import settings
        settings.register_profile("pyodide", deadline=None)
        settings.load_profile("pyodide")

import pytest
os.chdir("${WORKDIR}")
sys.dont_write_bytecode = True
int(pytest.main(list(pytest_args), plugins=[NoDeadlines()]))
`);
} catch (error) {
  fail(error.message);
}
process.exit(status);
