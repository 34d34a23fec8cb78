// The Python worker: boots Pyodide with the site's own lock file, loads the engine, runs code through engine._runner.
// Protocol (docs/DESIGN.md): in {init, interruptBuffer?} and {run, id, code, limits};
// out progress, ready, started (a run began: its time limit starts now), output (printed text, live), result,
// fatal (with exitStatus when the code made Python exit).

import { loadPyodide } from './pyodide/pyodide.mjs';

const INDEX_URL = new URL('./pyodide/', import.meta.url).href;
const STAGES = ['runtime', 'packages', 'engine'];

let pyodide = null;
let runJson = null;
let fatal = null;   // set once the runtime is unusable; every later run reports it

// Bytecode that build.py precompiled for numpy's and networkx's modules (their wheels ship sources only), one zip
// per package, pinned by its sha256 in vendor/pycache.json and unpacked into site-packages before the package's
// first import. Optional: with no manifest entry (no CPython 3.12 at build time) or a failed fetch, Python compiles
// the sources as it always could.
const PYCACHE_URL = new URL('./vendor/', import.meta.url).href;

async function pycacheManifest() {
  try {
    const response = await fetch(PYCACHE_URL + 'pycache.json', { cache: 'no-cache' });
    return response.ok ? await response.json() : null;
  } catch {
    return null;
  }
}

async function fetchPycache(manifest, name) {
  const entry = manifest?.archives?.[name];
  if (!entry) return null;
  try {
    const response = await fetch(PYCACHE_URL + entry.file, { integrity: entry.integrity });
    if (!response.ok) throw new Error(`HTTP ${response.status}`);
    return { data: await response.arrayBuffer(), extractDir: manifest.extract_dir };
  } catch (err) {
    console.warn(`${entry.file} not used (${err}): ${name} compiles from source`);
    return null;
  }
}

function unpackPycache(archive) {
  try {
    if (archive) pyodide.unpackArchive(archive.data, 'zip', { extractDir: archive.extractDir });
  } catch (err) {
    console.warn(`precompiled bytecode not unpacked (${err})`);
  }
}

function progress(stage) {
  postMessage({ type: 'progress', stage, loaded: STAGES.indexOf(stage), total: STAGES.length });
}

async function boot(interruptBuffer) {
  progress('runtime');
  const manifest = pycacheManifest();
  pyodide = await loadPyodide({ indexURL: INDEX_URL, fullStdLib: false });
  const numpyPycache = manifest.then((m) => fetchPycache(m, 'numpy'));  // downloads beside the packages
  if (interruptBuffer) pyodide.setInterruptBuffer(new Int32Array(interruptBuffer));
  progress('packages');
  const failures = [];
  // loadPackage does not reject when a wheel fails: the errors come through errorCallback.
  // The site's lock file lists the engine with its dependencies, so this one call brings numpy and networkx too.
  await pyodide.loadPackage('engine', {
    messageCallback: () => {},
    errorCallback: (message) => failures.push(message),
  });
  if (failures.length) throw new Error(failures.join('\n'));
  unpackPycache(await numpyPycache);
  progress('engine');
  const version = pyodide.runPython(`
import sys, engine
sys.modules['torch'] = engine
engine.__version__`);
  postMessage({ type: 'ready', version: `engine ${version}, Pyodide ${pyodide.version}` });
  // Off the critical path: the runner, the graph export (networkx) and numpy.random (the engine's generator makes
  // its state at the first draw) are imported after `ready` is out.
  // A Stop landing here only cancels the warm-up; the first run imports whatever is missing.
  const networkxPycache = fetchPycache(await manifest, 'networkx');
  await new Promise((resolve) => setTimeout(resolve));
  try {
    unpackPycache(await networkxPycache);
    pyodide.runPython('import engine._runner, engine.graph, numpy.random');  // (random: first drawn number)
  } catch { /* interrupted or no graph module: run() copes */ }
}

/** engine._runner.run_json, imported on first use (normally the warm-up has done it). */
function runner() {
  runJson ??= pyodide.pyimport('engine._runner').run_json;
  return runJson;
}

let booted = null;

self.onmessage = async ({ data }) => {
  if (data.type === 'init') {
    booted = boot(data.interruptBuffer).catch((err) => {
      fatal = String(err?.message ?? err);
      postMessage({ type: 'fatal', message: fatal });
    });
  } else if (data.type === 'run') {
    await booted;
    if (fatal) {
      postMessage({ type: 'fatal', message: fatal });
      return;
    }
    postMessage({ type: 'started', id: data.id });
    try {
      // What the code prints goes to the page as it comes (a Stop or a time limit then keeps it on screen).
      const live = (stream, text) => postMessage({ type: 'output', id: data.id, stream, text });
      const { maxOutputLines = 2000, tailOutputLines = 0 } = data.limits ?? {};
      const text = runner()(data.code, maxOutputLines, live, tailOutputLines);
      postMessage({ type: 'result', id: data.id, result: JSON.parse(text) });
    } catch (err) {
      // os._exit() ends the runtime itself (Emscripten's Exit): past it even pyodide.ffi throws.
      const exited = err?.name === 'Exit';
      if (!exited && err instanceof pyodide.ffi.PythonError) {
        // Only an interrupt landing outside the user's code gets here: the runner catches everything else.
        const type = err.type ?? 'Error';
        postMessage({ type: 'result', id: data.id, result: {
          output: [], graph: null, chapters: [],
          error: { type, message: '', line: null, traceback: err.message, internal: type !== 'KeyboardInterrupt' },
        } });
      } else {
        // A wasm abort (out of memory, stack overflow) or an exit: this runtime cannot be used again.
        fatal = String(err?.message ?? err);
        postMessage({ type: 'fatal', message: fatal, exitStatus: exited ? err.status : undefined });
      }
    }
  }
};
