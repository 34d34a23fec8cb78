// Page wiring: the editor, Run/Stop, the Python worker (with a warm spare), the output, the graph panes,
// window.playground and body[data-engine] (docs/CONTRACT.md).

import { t, registerStrings, applyI18n, bindLangSelect, onLangChange, getLang } from './i18n.js';
import { createEditor } from './editor.js';
import { clearOutput, liveOutput, showResult, showNotice, scrollToEnd } from './output.js';
import { createGraphView, warmUp as warmUpLayout } from './graph.js';
import { createStepper } from './stepper.js';
import { createInspector } from './inspector.js';
import { createExplainPanel } from './explain.js';
import { renderGallery } from './gallery.js';
import { restoreSharedCode, bindShareButton, encodeCode } from './share.js';

const CODE_KEY = 'playground.code';
const FRAGMENT_KEY = 'playground.fragment';  // the fragment this browser last wrote
const STOP_GRACE_MS = 1500;  // how long an interrupted run may take to unwind before its worker is replaced
const START_TIMEOUT_MS = 10_000;  // a worker that does not start a run within this is taken for dead
const SPARE_DELAY_MS = 1000; // the spare worker boots this long after the first is ready, off the critical path
const DEFAULT_CODE = `import torch

x = torch.ones(2, 2, requires_grad=True)
y = x + 2
z = y * y * 3
out = z.mean()
print(z)
print(out)

out.backward()
print(x.grad)
`;

registerStrings({
  en: {
    'ui.run.hint': 'Ctrl+Enter',
    'ui.stage.runtime': 'Python',
    'ui.stage.packages': 'numpy and the engine',
    'ui.stage.engine': 'the engine',
    'run.stopped': 'Stopped: Python was restarted. Your code is still in the editor.',
    'run.interrupted': 'Stopped: you pressed Stop, so Python raised KeyboardInterrupt where your code was.',
    'run.time_limit': 'Time limit reached: the run was stopped after {seconds} s.',
    'run.longer': 'Run again with a {seconds} s limit',
    'run.crashed': 'The Python worker crashed ({message}). It was restarted; your code is still in the editor.',
    'run.no_answer': 'it stopped answering',
    'run.exited': 'Python exited (status {status}): os._exit() ends the Python process itself, here the page\'s Python worker. It was restarted; your code is still in the editor.',
    'run.memory': 'Out of memory: this browser tab gives Python only a few GB. Try smaller tensors.',
    'run.no_input': 'input() has nothing to read here: the playground runs your code in one go, with no keyboard input. Write the value into the code instead, e.g. name = "Ada".',
    'run.internal': 'This is a bug in the playground\'s engine, not in your code. Please report it with the code above.',
    'run.missing': 'PyTorch has {name}, but this playground\'s engine does not (yet): the error above is a gap in the playground, not a mistake in your code.',
    'run.no_module': 'The playground\'s Python has its standard library, numpy and the PyTorch engine, but not {name}: remove the lines that use it (plots, for example) or print the values instead.',
    'run.restarting': 'Restarting Python…',
  },
  'zh-CN': {
    'ui.run.hint': 'Ctrl+Enter',
    'ui.stage.runtime': 'Python',
    'ui.stage.packages': 'numpy 和引擎',
    'ui.stage.engine': '引擎',
    'run.stopped': '已停止：Python 已重新启动。你的代码仍在编辑器中。',
    'run.interrupted': '已停止：你按下了“停止”，Python 在代码运行到的位置抛出了 KeyboardInterrupt。',
    'run.time_limit': '已达到时间上限：运行在 {seconds} 秒后被停止。',
    'run.longer': '以 {seconds} 秒的上限重新运行',
    'run.crashed': 'Python 工作线程崩溃了（{message}）。它已重新启动；你的代码仍在编辑器中。',
    'run.no_answer': '它不再响应',
    'run.exited': 'Python 已退出（状态 {status}）：os._exit() 会结束 Python 进程本身，在这里就是页面的 Python 工作线程。它已重新启动；你的代码仍在编辑器中。',
    'run.memory': '内存不足：浏览器标签页只给 Python 几 GB 内存。请试试更小的张量。',
    'run.no_input': 'input() 在这里读不到任何内容：演练场一次性运行你的代码，没有键盘输入。请直接把值写进代码，例如 name = "Ada"。',
    'run.internal': '这是演练场引擎的缺陷，不是你的代码的问题。请连同上面的代码一起报告。',
    'run.missing': 'PyTorch 有 {name}，但本演练场的引擎（暂时）还没有实现它：上面的错误是演练场的缺口，不是你代码的错误。',
    'run.no_module': '演练场的 Python 只有标准库、numpy 和 PyTorch 引擎，没有 {name}：请删掉用到它的代码行（例如画图），或者改为打印数值。',
    'run.restarting': '正在重新启动 Python……',
  },
});

const $ = (selector) => document.querySelector(selector);
const panes = {
  output: $('[data-testid=output]'),
  explain: $('#explain-card'),
  graph: $('#graph'),
  stepper: $('#stepper'),
  inspector: $('#inspector'),
  gallery: $('#gallery'),
  status: $('#engine-status'),
  progress: $('#engine-progress'),
};
const runButton = $('[data-testid=run]');
const stopButton = $('[data-testid=stop]');
const runLonger = $('[data-testid=run-longer]');  // under the output after a time limit: run again with a longer one

/** body[data-engine] and the status line in the header. */
function setEngine(state, text = t(`engine.${state}`)) {
  document.body.dataset.engine = state;
  panes.status.textContent = text;
  runButton.disabled = state === 'running';
  stopButton.disabled = state !== 'running';
}

// ---- Python workers: one in use, one spare kept warm so Stop and crashes recover quickly ----

/** Start a worker; its `ready` promise settles once Python, numpy and the engine are loaded. */
function spawnWorker() {
  const worker = new Worker(new URL('./worker.js', import.meta.url), { type: 'module' });
  const interrupt = globalThis.crossOriginIsolated ? new Int32Array(new SharedArrayBuffer(4)) : null;
  const handle = { worker, interrupt, pending: null, stop: null, dead: false };
  handle.ready = new Promise((resolve, reject) => {
    const die = (message, exitStatus) => {
      if (handle.dead) return;
      handle.dead = true;
      worker.terminate();
      reject(new Error(message));
      if (handle === spare) {
        spare = null;
        document.body.dataset.spare = 'none';
      }
      if (handle.pending) handle.pending.resolve({ kind: 'crashed', message, exitStatus });
      else if (handle === current && document.body.dataset.engine === 'ready') replaceCurrent();
    };
    worker.onmessage = ({ data }) => {
      if (data.type === 'progress' && handle === current) showProgress(data);
      else if (data.type === 'ready') resolve(data.version);
      else if (data.type === 'started' && handle.pending?.id === data.id) handle.pending.started();
      else if (data.type === 'output' && handle.pending?.id === data.id) handle.pending.live.add(data.stream, data.text);
      else if (data.type === 'result' && handle.pending?.id === data.id) {
        handle.pending.resolve({ kind: 'result', result: data.result });
      } else if (data.type === 'fatal') die(data.message, data.exitStatus);
    };
    worker.onerror = (event) => { event.preventDefault(); die(event.message || 'worker error'); };
  });
  handle.ready.catch(() => {});
  worker.postMessage({ type: 'init', interruptBuffer: interrupt?.buffer });
  return handle;
}

let current = null;  // the worker runs go to
let spare = null;    // booted in the background once current is ready

function showProgress({ stage, loaded, total }) {
  panes.progress.max = total;
  panes.progress.value = loaded;
  if (document.body.dataset.engine === 'loading') {
    panes.status.textContent = t('engine.progress', { stage: t(`ui.stage.${stage}`), percent: Math.round((100 * loaded) / total) });
  }
}

/** Make handle the worker runs go to; once it is ready, boot a spare behind it. */
function adopt(handle, status) {
  current = handle;
  setEngine('loading', status);
  panes.progress.hidden = false;
  handle.ready.then(() => {
    if (handle !== current) return;
    setEngine('ready');
    panes.progress.hidden = true;
    warmUpLayout();  // Graphviz's wasm compiles after Python is ready, so it never slows the start
    setTimeout(() => { if (handle === current && !spare) startSpare(); }, SPARE_DELAY_MS);
  }, (err) => {
    if (handle !== current) return;
    setEngine('error');
    showNotice(panes.output, `${t('engine.error')} ${err.message}`, 'error');
  });
}

/** Boot a spare worker in the background; body[data-spare] says whether one is warm (tests wait on it). */
function startSpare() {
  const handle = spawnWorker();
  spare = handle;
  document.body.dataset.spare = 'loading';
  const settle = (state) => () => { if (spare === handle) document.body.dataset.spare = state; };
  handle.ready.then(settle('ready'), settle('none'));
}

/** Retire the current worker for the warm spare (or a fresh one). */
function replaceCurrent() {
  const old = current;
  old.dead = true;
  old.worker.terminate();
  const next = spare && !spare.dead ? spare : spawnWorker();
  spare = null;
  document.body.dataset.spare = 'none';
  adopt(next, t('run.restarting'));
}

// ---- running code ----

// Output keeps maxOutputLines lines: the first ones and, of those, the last tailOutputLines are the output's end.
const limits = { timeLimitMs: 10_000, longTimeLimitMs: 60_000, maxOutputLines: 2000, tailOutputLines: 1000 };
let runId = 0;
let queue = Promise.resolve();
let stopRequest = null;  // what ends the run in progress: 'stop' or 'time_limit'

/** Run code in the current worker; resolves to {kind: 'result', result} | {kind: 'stopped'|'time_limit'|'crashed'}. */
async function execute(code, timeLimitMs) {
  const handle = current;
  await handle.ready.catch(() => {});
  if (handle !== current) return execute(code, timeLimitMs);  // replaced while we waited
  if (handle.dead) return { kind: 'crashed', message: t('engine.error') };
  const id = ++runId;
  if (handle.interrupt) Atomics.store(handle.interrupt, 0, 0);
  stopRequest = null;
  setEngine('running');
  const live = liveOutput(panes.output);
  const outcome = await new Promise((resolve) => {
    let running = false;
    let interruptOnStart = false;
    // SIGINT makes Python raise KeyboardInterrupt at its next bytecode; code stuck in C gets its worker replaced.
    const interrupt = () => {
      Atomics.store(handle.interrupt, 0, 2);
      setTimeout(() => resolve({ kind: stopRequest }), STOP_GRACE_MS);
    };
    handle.stop = (reason) => {
      stopRequest ??= reason;
      if (!handle.interrupt) resolve({ kind: stopRequest });
      else if (running) interrupt();
      else interruptOnStart = true;  // an interrupt now would only hit the worker's warm-up
    };
    const silent = setTimeout(() => resolve({ kind: 'crashed', message: t('run.no_answer') }), START_TIMEOUT_MS);
    // The time limit counts from the moment the worker starts the code, not from a queue or a warm-up.
    const started = () => {
      running = true;
      clearTimeout(silent);
      if (interruptOnStart) interrupt();
      setTimeout(() => handle.pending?.id === id && handle.stop('time_limit'), timeLimitMs);
    };
    handle.pending = { id, resolve, started, live };
    const { maxOutputLines, tailOutputLines } = limits;
    handle.worker.postMessage({ type: 'run', id, code, limits: { maxOutputLines, tailOutputLines } });
  });
  handle.pending = null;
  handle.stop = null;
  if (outcome.kind !== 'result' && handle === current) replaceCurrent();
  return { ...outcome, stopRequest, live, timeLimitMs };
}

function stop() {
  current?.stop?.('stop');
}

/** Show a finished run: output and error first, then the error line, explanation, graph and stepper. */
async function present(code, outcome) {
  const { kind, result, live } = outcome;
  editor.clearError();
  if (kind !== 'result') {
    live?.flush();                                // (what it printed before it was stopped stays, the notice below)
    if (!live?.shown) clearOutput(panes.output);
    if (kind === 'time_limit') timeLimitNotice(outcome.timeLimitMs);
    else if (outcome.exitStatus != null) showNotice(panes.output, t('run.exited', { status: outcome.exitStatus }), 'error');
    else showNotice(panes.output, kind === 'crashed' ? t('run.crashed', { message: outcome.message }) : t('run.stopped'), 'error');
    return;
  }
  live?.cancel();
  showResult(panes.output, result, { internalNote: t('run.internal') });
  if (outcome.stopRequest === 'time_limit') {
    timeLimitNotice(outcome.timeLimitMs);
  } else if (outcome.stopRequest === 'stop' && result.error?.type === 'KeyboardInterrupt') {
    showNotice(panes.output, t('run.interrupted'));
  }
  const { error } = result;
  if (error?.type === 'MemoryError' || /not enough memory|can't allocate memory/.test(error?.message)) showNotice(panes.output, t('run.memory'));
  // What input() raises when stdin is empty, as the runner's is: a learner expects a prompt instead.
  if (error?.type === 'EOFError' && error.message === 'EOF when reading a line') showNotice(panes.output, t('run.no_input'));
  if (error?.missing) showNotice(panes.output, t('run.missing', { name: error.missing }));
  // A package the page does not have (matplotlib, pandas, torchvision): not the learner's mistake either.
  const absent = error?.type === 'ModuleNotFoundError' && /^No module named '([^'.]+)/.exec(error.message ?? '');
  if (absent && absent[1] !== 'torch' && !error.missing) showNotice(panes.output, t('run.no_module', { name: absent[1] }));
  for (const problem of result.problems ?? []) console.warn('playground:', problem);
  if (error?.line) editor.markError(error.line, `${error.type}: ${error.message}`);
  await views.show(result, code);
  // The explanation card may have shrunk the output pane since showResult scrolled it: scroll it again.
  scrollToEnd(panes.output);
}

/** The time limit's notice; below the longer limit, the button that runs the code again under the longer one. */
function timeLimitNotice(timeLimitMs) {
  showNotice(panes.output, t('run.time_limit', { seconds: timeLimitMs / 1000 }), 'error');
  labelRunLonger();
  runLonger.hidden = !(limits.longTimeLimitMs > timeLimitMs);
}

function labelRunLonger() {
  runLonger.textContent = `↻ ${t('run.longer', { seconds: limits.longTimeLimitMs / 1000 })}`;
}

/**
 * Run the editor's code (queued behind a run in progress); resolves once output and graph are on screen.
 * `timeLimitMs` lifts the time limit for this run only (the time-limit notice's "run again" button).
 */
function run({ timeLimitMs = limits.timeLimitMs } = {}) {
  const code = editor.getCode();
  saveCode(code);
  syncFragment(code);
  const notice = document.querySelector('[data-testid=notice]');
  if (notice) notice.hidden = true;
  runLonger.hidden = true;
  // data-engine goes back to "ready" once the run is on screen (output, graph, stepper), not when Python is done.
  const done = queue.then(() => execute(code, timeLimitMs)).then((outcome) => present(code, outcome).finally(() => {
    if (document.body.dataset.engine === 'running') setEngine('ready');
  }));
  queue = done.catch((err) => console.error(err));
  return done;
}

// ---- the code lives in the URL fragment (a link reproduces it) and in local storage (it survives a reload) ----

let saveTimer = null;
function saveCode(code) {
  clearTimeout(saveTimer);
  try { localStorage.setItem(CODE_KEY, code); } catch { /* storage blocked: the editor still holds it */ }
}

function stored(key) {
  try { return localStorage.getItem(key); } catch { return null; }
}

/** Put the code into the address bar's fragment (no history entry), so the address is always a share link. */
async function syncFragment(code) {
  const fragment = await encodeCode(code);
  if (editor.getCode() !== code) return;            // an older edit finishing late
  history.replaceState(null, '', location.pathname + location.search + fragment);
  try { localStorage.setItem(FRAGMENT_KEY, fragment); } catch { /* storage blocked */ }
}

// ---- the panes other modules draw: graph, inspector, backward stepper, explanation cards, gallery ----

const inspector = createInspector(panes.inspector, {
  onChange: () => graphView.refit(),
  onNavigate: (id) => graphView.select(id),  // a link in the inspector selects its node in the graph too
});
const graphView = createGraphView(panes.graph, { onSelect: (node) => inspect(node.id) });
// the open inspector floats over the graph's right side (the bottom on narrow screens): the graph moves clear of it
graphView.keepClearOf(() => panes.inspector.querySelector('[data-testid=inspector]:not([hidden])')?.getBoundingClientRect());
const stepper = createStepper(panes.stepper, graphView, { onMove: () => inspector.shownId && inspect(inspector.shownId) });

/** Inspect a node as the graph shows it now: at a backward step, with .grad as that step left it. */
function inspect(id) {
  const graph = graphView.graph;
  const node = graph?.nodes.find((n) => n.id === id);
  if (node) inspector.show(stepper.present(node), graph);
  else inspector.clear();
}
const explain = createExplainPanel(panes.explain, { graphRoot: panes.graph });
let experiment = null;  // the gallery entry whose code is in the editor, while it is unedited

const views = {
  /** Draw what a run produced; resolves once the graph is on screen and the stepper is ready to step. */
  async show(result, code) {
    inspector.clear();
    await graphView.render({ ...(result.graph ?? { nodes: [], links: [] }), dot: result.dot });
    const errorLine = result.error?.line ? code.split('\n')[result.error.line - 1] : '';
    const stepping = stepper.load(result.chapters, { error: result.error, errorLine, calls: result.calls });
    explain.show({ experimentId: experiment?.code === code ? experiment.id : null, error: result.error, errorLine });
    await stepping;
  },
};

const galleryToggle = $('#gallery-toggle');
function showGallery(open) {
  panes.gallery.hidden = !open;
  galleryToggle.setAttribute('aria-expanded', String(open));
}
galleryToggle.addEventListener('click', () => showGallery(panes.gallery.hidden));
showGallery(matchMedia('(min-width: 1100px)').matches);
renderGallery(panes.gallery, {
  onSelect(chosen) {
    experiment = chosen;
    editor.setCode(chosen.code);
    if (matchMedia('(max-width: 1099px)').matches) showGallery(false);
    run();
  },
});

// ---- start ----

adopt(spawnWorker(), t('engine.loading'));

// A fragment this browser wrote itself is a reload: local storage holds the same code or a newer edit of it.
const ownReload = location.hash && location.hash === stored(FRAGMENT_KEY);
const editor = createEditor($('#editor'), {
  doc: stored(CODE_KEY) ?? DEFAULT_CODE,
  label: t('ui.editor'),
  lang: getLang(),
  onRun: () => { if (document.body.dataset.engine !== 'running') run(); },
  onChange(code) {
    clearTimeout(saveTimer);
    saveTimer = setTimeout(() => { saveCode(code); syncFragment(code); }, 300);
  },
});
if (location.hash && !ownReload) {
  restoreSharedCode({ setCode: (code) => editor.setCode(code) });  // a link from elsewhere: load it, never run it
}
// A share link opened in this tab while the page is open changes only the fragment: load it as on a fresh load.
// (The page's own fragment updates use replaceState, which fires no hashchange; the code it replaces stays in the
// editor's undo history.)
addEventListener('hashchange', () => {
  if (location.hash !== stored(FRAGMENT_KEY)) restoreSharedCode({ setCode: (code) => editor.setCode(code) });
});

runButton.addEventListener('click', () => run());
runLonger.addEventListener('click', () => run({ timeLimitMs: limits.longTimeLimitMs }));
stopButton.addEventListener('click', stop);
const shareButton = $('#share');
bindShareButton(shareButton, { getCode: () => editor.getCode() });
document.addEventListener('keydown', (event) => {
  if (event.key === 'Enter' && (event.ctrlKey || event.metaKey) && !event.defaultPrevented
      && document.body.dataset.engine !== 'running') {
    event.preventDefault();
    run();
  }
});
addEventListener('pagehide', () => saveCode(editor.getCode()));

bindLangSelect($('[data-testid=lang]'));
applyI18n(document);
document.title = t('app.title');
labelRunLonger();
onLangChange((lang) => {
  document.title = t('app.title');
  labelRunLonger();
  editor.localize(t('ui.editor'), lang);
  const state = document.body.dataset.engine;
  if (state !== 'loading') setEngine(state);
});

window.playground = {
  setCode: (code) => { editor.setCode(code); return syncFragment(code); },
  getCode: () => editor.getCode(),
  run,
  stop,
  limits,
};
