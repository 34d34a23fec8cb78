// The Python worker: boots Pyodide with the site's own lock file, loads the engine, runs code through engine._runner.
// Protocol (docs/DESIGN.md): in {init, interruptBuffer?} and {run, id, code, limits};
// out progress, ready, started (a run began: its time limit starts now), result, fatal.

import { loadPyodide } from './pyodide/pyodide.mjs';

const INDEX_URL = new URL('./pyodide/', import.meta.url).href;
const STAGES = ['runtime', 'packages', 'engine'];

let pyodide = null;
let runJson = null;
let fatal = null;   // set once the runtime is unusable; every later run reports it

function progress(stage) {
  postMessage({ type: 'progress', stage, loaded: STAGES.indexOf(stage), total: STAGES.length });
}

async function boot(interruptBuffer) {
  progress('runtime');
  pyodide = await loadPyodide({ indexURL: INDEX_URL, fullStdLib: false });
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
  progress('engine');
  const version = pyodide.runPython(`
import sys, engine
sys.modules['torch'] = engine
engine.__version__`);
  postMessage({ type: 'ready', version: `engine ${version}, Pyodide ${pyodide.version}` });
  // Off the critical path: the runner and the graph export (networkx) are imported after `ready` is out.
  // A Stop landing here only cancels the warm-up; the first run imports whatever is missing.
  await new Promise((resolve) => setTimeout(resolve));
  try {
    pyodide.runPython('import engine._runner, engine.graph');
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
      const text = runner()(data.code, data.limits?.maxOutputLines ?? 2000);
      postMessage({ type: 'result', id: data.id, result: JSON.parse(text) });
    } catch (err) {
      if (err instanceof pyodide.ffi.PythonError) {
        // Only an interrupt landing outside the user's code gets here: the runner catches everything else.
        const type = err.type ?? 'Error';
        postMessage({ type: 'result', id: data.id, result: {
          output: [], graph: null, chapters: [],
          error: { type, message: '', line: null, traceback: err.message, internal: type !== 'KeyboardInterrupt' },
        } });
      } else {
        // A wasm abort (out of memory, stack overflow): this runtime cannot be used again.
        fatal = String(err?.message ?? err);
        postMessage({ type: 'fatal', message: fatal });
      }
    }
  }
};
