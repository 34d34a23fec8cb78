// The backward stepper: replays the engine's recorded backward steps on the graph, one node at a time.
import { tr, onLangChange, compactValue, bodyLines, tensorName } from './graph.js';

const i18n = await import('./i18n.js').catch(() => null);
i18n?.registerStrings({
  en: {
    'stepper.step': 'Step ▶', 'stepper.back': '◀ Back', 'stepper.reset': '↺ Reset', 'stepper.play': 'Play',
    'stepper.pause': 'Pause', 'stepper.speed': 'Speed', 'stepper.chapter': '{call}() #{n}',
    'stepper.none': 'No backward() call in this run: call .backward() or torch.autograd.grad() to step through it.',
    'stepper.idle': 'Run code that calls .backward() or torch.autograd.grad() to step through it here.',
    'stepper.failedCall': 'backward() raised before its first step: {type}: {message}',
    'stepper.end': 'The graph as the run left it, after its backward() calls. Step ▶ replays {call}() #{n} from its start.',
    'stepper.statusEnd': 'end of run · {steps} steps',
    'stepper.captured': 'AccumulateGrad does not run: torch.autograd.grad() captures the gradient for {name} and returns it ({name}.grad is left as it was)',
    'stepper.capturedValue': 'returned',
    'stepper.start': 'Before the first step of {call}() #{n}. Step to run the graph backwards one node at a time.',
    'stepper.status': 'step {step} / {steps}', 'stepper.runs': '{name} runs',
    'stepper.receives': 'receives', 'stepper.sends': 'sends to {to} (input {nr})', 'stepper.sendsNone': 'input {nr} needs no gradient',
    'stepper.accumulate': '{name}.grad: {before} → {before} + {incoming} = {after}',
    'stepper.firstGrad': '{name}.grad: None → {after} (first gradient, stored as is)',
    'stepper.elementwise': '(every element)',
    'stepper.error': 'stops here: {type}: {message}',
    'stepper.staleNote': '{saved} of {node} was saved at version {saved_version} but the tensor is now at version {version}: it was changed in place after being saved, so its gradient cannot be computed.',
    'stepper.freedNote': '{node} already released its saved tensors in an earlier backward(); pass retain_graph=True to the first backward() to go through the graph twice.',
    'stepper.weighted': 'The root is not a scalar, so backward(gradient) starts from the weights you passed: it computes the gradient of l = sum(root * gradient), the weighted sum of the root\'s elements.',
    'stepper.implicit': 'backward() without gradient only works on a scalar. For a non-scalar y, pass gradient=w (same shape as y): backward then differentiates the weighted sum l = sum(y * w). y.sum().backward() is the case w = ones.',
    'stepper.keys': 'Keys: . or → step, , or ← back',
    'stepper.unrecorded': '+{n} more calls, not recorded: the stepper keeps the first {kept}',
  },
  'zh-CN': {
    'stepper.step': '单步 ▶', 'stepper.back': '◀ 后退', 'stepper.reset': '↺ 重置', 'stepper.play': '播放',
    'stepper.pause': '暂停', 'stepper.speed': '速度', 'stepper.chapter': '第 {n} 次 {call}()',
    'stepper.none': '这次运行没有调用 backward()：调用 .backward() 或 torch.autograd.grad() 后即可逐步查看。',
    'stepper.idle': '运行调用了 .backward() 或 torch.autograd.grad() 的代码后，可以在这里逐步查看。',
    'stepper.failedCall': 'backward() 在第一步之前就报错了：{type}: {message}',
    'stepper.end': '这是运行结束时（所有 backward() 调用之后）的计算图。单步 ▶ 会从头重放第 {n} 次 {call}()。',
    'stepper.statusEnd': '运行结束 · 共 {steps} 步',
    'stepper.captured': 'AccumulateGrad 不会执行：torch.autograd.grad() 截获 {name} 的梯度并把它返回（{name}.grad 保持不变）',
    'stepper.capturedValue': '返回',
    'stepper.start': '第 {n} 次 {call}() 的第一步之前。单步执行可以一个节点一个节点地反向运行计算图。',
    'stepper.status': '第 {step} / {steps} 步', 'stepper.runs': '执行 {name}',
    'stepper.receives': '收到', 'stepper.sends': '传给 {to}（输入 {nr}）', 'stepper.sendsNone': '输入 {nr} 不需要梯度',
    'stepper.accumulate': '{name}.grad：{before} → {before} + {incoming} = {after}',
    'stepper.firstGrad': '{name}.grad：None → {after}（第一次得到梯度，直接保存）',
    'stepper.elementwise': '（每个元素）',
    'stepper.error': '在这里停止：{type}: {message}',
    'stepper.staleNote': '{node} 的 {saved} 保存时版本为 {saved_version}，现在是 {version}：它在保存后被原地修改了，所以无法计算梯度。',
    'stepper.freedNote': '{node} 的保存张量已在之前的 backward() 中释放；第一次调用 backward(retain_graph=True) 才能第二次反向传播。',
    'stepper.weighted': '根节点不是标量，所以 backward(gradient) 从你传入的权重开始：它计算的是加权和 l = sum(root * gradient) 的梯度。',
    'stepper.implicit': '不带 gradient 的 backward() 只能用于标量。对非标量 y，传入与 y 同形状的 gradient=w：backward 会对加权和 l = sum(y * w) 求导。y.sum().backward() 就是 w 全为 1 的情况。',
    'stepper.keys': '快捷键：. 或 → 单步，, 或 ← 后退',
    'stepper.unrecorded': '另有 {n} 次调用未记录：单步只保留前 {kept} 次',
  },
});

const SPEEDS = [['0.5×', 1600], ['1×', 800], ['2×', 400], ['4×', 200]];

function el(tag, props = {}, ...children) {
  const e = document.createElement(tag);
  Object.assign(e, props);
  e.append(...children.filter((c) => c != null));
  return e;
}

/** True when the keyboard focus is somewhere that wants keys for itself (the editor, a form field). */
function typingTarget(target) {
  return target instanceof Element
    && (target.closest('input, textarea, select, [contenteditable=""], [contenteditable="true"], .cm-editor') != null);
}

/** A number or text without the trailing dot PyTorch prints after integral floats. */
const plainNumber = (text) => text.replace(/ \(.*\)$/, '');

/** True when every element of the tensor text is the same value (so one number tells the story). */
const uniform = (text) => text != null && /^-?(?:[\d.]+(?:e[+-]?\d+)?|inf|nan)(?: \(.*\))?$/.test(compactValue(text));

const PREPARED_NODES = 1000;  // how much of the chapters' graphs load() lays out ahead of stepping, in nodes

/** True when a line of code calls backward() or autograd.grad(): an error raised there is backward's own. */
const callsBackward = (line) => /\.backward\(|autograd\.(?:grad|backward)\(/.test(line ?? '');

/**
 * The backward stepper in container, drawing on graphView (from createGraphView).
 * load(chapters) takes the runner's recorded chapters; step/back/reset/goTo move through one timeline.
 * onMove() follows every move once the graph shows it (the page refreshes the open inspector).
 */
export function createStepper(container, graphView, { onError, onMove } = {}) {
  let loaded = false;   // a run has been loaded (before the first run there is nothing to step)
  let chapters = [];
  let calls = 0;        // the run's backward()/grad() calls, the recorded chapters and those past the runner's limit
  let timeline = [];    // [{chapter, step} | {chapter, error: true}]
  let position = 0;     // how many entries of the timeline have run
  let touched = false;  // the graph view shows our chapter graphs only once the user starts stepping
  let timer = null;
  let speed = 1;
  let queue = Promise.resolve();
  let implicitError = false;  // the run's backward() failed for want of a gradient, before any step
  let failedCall = null;       // the run's error, when a backward() call raised it before its first step
  const produced = [];  // per chapter: Map function id -> tensor ids it produced

  const root = el('div', { className: 'gs-stepper' });
  const b = (key, testid, onClick) => {
    const button = el('button', { type: 'button' });
    button.dataset.key = key;
    if (testid) button.dataset.testid = testid;
    button.addEventListener('click', onClick);
    return button;
  };
  const resetBtn = b('stepper.reset', 'backward-reset', () => api.reset());
  const backBtn = b('stepper.back', 'backward-back', () => api.back());
  const playBtn = b('stepper.play', 'backward-play', () => (timer ? api.pause() : api.play()));
  const stepBtn = b('stepper.step', 'backward-step', () => api.step());
  const speedSel = el('select', { title: '' });
  speedSel.dataset.testid = 'backward-speed';
  SPEEDS.forEach(([label], i) => speedSel.append(el('option', { value: String(i), textContent: label })));
  speedSel.value = String(speed);
  speedSel.addEventListener('change', () => {
    speed = +speedSel.value;
    if (timer) { api.pause(); api.play(); }
  });
  const scrubber = el('input', { type: 'range', className: 'gs-scrubber', min: 0, max: 0, value: 0 });
  scrubber.dataset.testid = 'backward-scrubber';
  scrubber.addEventListener('input', () => api.goTo(+scrubber.value));
  const status = el('span', { className: 'gs-status' });
  status.dataset.testid = 'step-status';
  const chapterBar = el('div', { className: 'gs-chapters' });
  const detail = el('div', { className: 'gs-detail' });
  detail.dataset.testid = 'step-detail';
  const note = el('div', { className: 'gs-note' });  // lives inside detail, after the step's lines
  note.dataset.testid = 'step-note';
  note.hidden = true;
  const keys = el('div', { className: 'gs-keys' });
  root.append(el('div', { className: 'gs-controls' }, resetBtn, backBtn, playBtn, stepBtn, speedSel, scrubber, status),
    chapterBar, detail, keys);
  container.append(root);

  function translate() {
    for (const button of root.querySelectorAll('button[data-key]')) button.textContent = tr(button.dataset.key);
    playBtn.textContent = tr(timer ? 'stepper.pause' : 'stepper.play');
    speedSel.title = tr('stepper.speed');
    keys.textContent = tr('stepper.keys');
    drawChapters();
    showPosition();
  }

  function drawChapters() {
    const unrecorded = calls - chapters.length;
    const items = chapters.map((c, i) => {
      const button = el('button', { type: 'button', textContent: tr('stepper.chapter', { call: c.call, n: i + 1 }) });
      button.dataset.testid = 'backward-chapter';
      if (c.error) button.classList.add('gs-has-error');
      // (to the call's first step: a position counts the entries that ran, so its first entry's index + 1)
      const first = timeline.findIndex((e) => e.chapter === i);
      button.addEventListener('click', () => first >= 0 && api.goTo(first + 1));
      return button;
    });
    if (unrecorded > 0) {
      items.push(el('span', { className: 'gs-unrecorded',
        textContent: tr('stepper.unrecorded', { n: unrecorded, kept: chapters.length }) }));
    }
    chapterBar.replaceChildren(...items);
  }

  const nodeOf = (ci, id) => chapters[ci]?.graph?.nodes?.find((n) => n.id === id);
  const nameOf = (ci, id) => {
    const n = nodeOf(ci, id);
    return n ? (n.kind === 'tensor' ? tensorName(n) : n.label) : String(id);
  };

  /**
   * Edge gradients, tensor grads and the nodes that released their saved tensors, after the entries of chapter ci
   * up to index `last` (inclusive).
   */
  function flowState(ci, last) {
    const edges = [];
    const grads = {};
    const freed = [];
    timeline.slice(0, last + 1).forEach((entry, i) => {
      if (entry.chapter !== ci || entry.error) return;
      const s = entry.step;
      const current = i === last;
      if (s.frees) freed.push(s.node);
      s.grads_out.forEach((g, slot) => {
        if (g.to != null && g.grad != null) edges.push({ source: g.to, target: s.node, key: slot, text: g.grad, current });
      });
      for (const [tid, nr] of produced[ci].get(s.node) ?? []) {
        if (s.grads_in[nr] != null) edges.push({ source: s.node, target: tid, text: s.grads_in[nr], current });
      }
      if (s.accumulate) {
        edges.push({ source: s.accumulate.tensor, target: s.node, text: s.grads_in[0], current });
        grads[s.accumulate.tensor] = s.accumulate.after;
      }
    });
    return { edges, grads, freed };
  }

  function arithmetic(ci, s) {
    const a = s.accumulate;
    const name = nameOf(ci, a.tensor);
    if (a.before == null) return tr('stepper.firstGrad', { name, after: compactValue(a.after, 60) });
    const parts = [a.before, s.grads_in[0], a.after];
    if (parts.every(uniform)) {
      const [before, incoming, after] = parts.map((p) => plainNumber(compactValue(p)));
      const every = compactValue(a.after).includes('(') ? ` ${tr('stepper.elementwise')}` : '';
      return tr('stepper.accumulate', { name, before, incoming, after }) + every;
    }
    const [before, incoming, after] = parts.map((p) => bodyLines(p).map((l) => l.trim()).join(' '));
    return tr('stepper.accumulate', { name, before, incoming, after });
  }

  /** The tensor an AccumulateGrad node accumulates into (its `variable`), by name. */
  const variableOf = (ci, fid) => {
    const link = chapters[ci].graph?.links?.find((l) => l.target === fid && l.kind === 'variable');
    return link ? nameOf(ci, link.source) : '?';
  };

  function stepDetail(ci, s) {
    // autograd.grad() stops at AccumulateGrad: the engine captures what it receives, .grad stays as it was.
    if (s.name === 'AccumulateGrad' && !s.accumulate) {
      return [el('div', { textContent: tr('stepper.captured', { name: variableOf(ci, s.node) }) }),
        el('div', { className: 'gs-arith', textContent: `${tr('stepper.capturedValue')}: ${compactValue(s.grads_in[0], 70)}` })];
    }
    const lines = [el('div', { textContent: tr('stepper.runs', { name: s.name }) })];
    s.grads_in.forEach((g, i) => lines.push(el('div', {
      textContent: `${tr('stepper.receives')}${s.grads_in.length > 1 ? ` [${i}]` : ''}: ${compactValue(g, 70)}`,
    })));
    s.grads_out.forEach((g, slot) => lines.push(el('div', {
      textContent: g.to == null ? `  ${tr('stepper.sendsNone', { nr: slot })}`
        : `  ${tr('stepper.sends', { to: nodeOf(ci, g.to)?.label ?? g.to, nr: slot })}: ${compactValue(g.grad, 60)}`,
    })));
    if (s.accumulate) lines.push(el('div', { className: 'gs-arith', textContent: arithmetic(ci, s) }));
    return lines;
  }

  function errorNote(ci, error) {
    const graph = chapters[ci].graph;
    const saved = graph?.nodes?.find((n) => n.id === error.saved);
    const node = graph?.nodes?.find((n) => n.id === error.node);
    if (/implicitly created only for scalar outputs/.test(error.message)) return tr('stepper.implicit');
    if (saved?.stale) {
      return tr('stepper.staleNote', { saved: saved.label, node: node?.label ?? '', saved_version: saved.saved_version, version: saved.version });
    }
    if (/backward through the graph a second time/.test(error.message)) return tr('stepper.freedNote', { node: node?.label ?? '' });
    return null;
  }

  /** True when the first step of a chapter got a non-scalar gradient: backward(gradient) on a non-scalar root. */
  function weighted(ci) {
    const first = timeline.find((e) => e.chapter === ci && !e.error);
    const g = first?.step.grads_in[0];
    return g != null && g.startsWith('tensor([') && g !== 'tensor([])';
  }

  function showPosition() {
    const steps = timeline.length;
    status.dataset.step = String(position);
    status.dataset.steps = String(steps);
    // Untouched, the graph is the one the run ended with, not the start of a call: say so (step 0 is the start).
    status.textContent = tr(touched || !steps ? 'stepper.status' : 'stepper.statusEnd', { step: position, steps });
    scrubber.max = String(steps);
    scrubber.value = String(position);
    stepBtn.disabled = position >= steps;
    backBtn.disabled = position === 0;
    playBtn.disabled = resetBtn.disabled = steps === 0;
    const entry = position ? timeline[position - 1] : null;
    const ci = entry ? entry.chapter : 0;
    chapterBar.querySelectorAll('button').forEach((button, i) => button.setAttribute('aria-current', String(i === ci)));
    detail.classList.remove('gs-error');
    note.hidden = true;
    if (!chapters.length) {
      const text = !loaded ? tr('stepper.idle')
        : failedCall ? tr('stepper.failedCall', { type: failedCall.type, message: failedCall.message }) : tr('stepper.none');
      detail.classList.toggle('gs-error', failedCall != null);
      detail.replaceChildren(text, note);
      if (implicitError) { note.textContent = tr('stepper.implicit'); note.hidden = false; }
      return;
    }
    if (!entry) {
      detail.replaceChildren(tr(touched ? 'stepper.start' : 'stepper.end', { call: chapters[0].call, n: 1 }), note);
    } else if (entry.error) {
      const error = chapters[ci].error;
      detail.classList.add('gs-error');
      detail.replaceChildren(tr('stepper.error', { type: error.type, message: error.message }), note);
      const text = errorNote(ci, error);
      if (text) { note.textContent = text; note.hidden = false; }
    } else {
      detail.replaceChildren(...stepDetail(ci, entry.step), note);
      if (weighted(ci)) { note.textContent = tr('stepper.weighted'); note.hidden = false; }
    }
  }

  /** Put the graph of the current chapter on screen with the state after `position` entries. */
  async function drawPosition() {
    const entry = position ? timeline[position - 1] : null;
    const ci = entry ? entry.chapter : 0;
    const graph = chapters[ci]?.graph;
    if (graph && graphView.graph !== graph) await graphView.render(graph);
    graphView.clearHighlights();
    if (!entry) return;
    const { edges, grads, freed } = flowState(ci, position - 1);
    graphView.showEdgeGrads(edges);
    graphView.showNodeGrads(grads);
    graphView.markFreed(freed);
    if (entry.error) {
      const error = chapters[ci].error;
      graphView.setActive(error.node ?? null);
      graphView.markError(error.node ?? []);
      graphView.markStale(error.saved ?? []);
      onError?.(error, chapters[ci]);
    } else {
      graphView.setActive(entry.step.node);
    }
  }

  /** Move to position n (clamped); resolves once the graph shows it. */
  function goTo(n) {
    position = Math.max(0, Math.min(timeline.length, n | 0));
    touched = true;
    showPosition();
    queue = queue.then(drawPosition, drawPosition).then(() => onMove?.());
    return queue;
  }

  const api = {
    /**
     * Take a run's chapters ([{call, graph, steps, error}]) and go back to step 0 without touching the graph.
     * error (the run's error, if any) and errorLine (the code of the line that raised it) let the stepper explain
     * a backward that failed before its first step; calls (the run's backward()/grad() calls) says how many more
     * there were than chapters recorded.
     * Resolves once the chapters' graphs are laid out (up to PREPARED_NODES nodes in all, the first one always):
     * from then on a step draws its node at once, as the click happens.
     */
    load(list, { error = null, errorLine = '', calls: callCount = 0 } = {}) {
      api.pause();
      loaded = true;
      chapters = list ?? [];
      calls = Math.max(callCount, chapters.length);
      implicitError = /implicitly created only for scalar outputs/.test(error?.message ?? '');
      failedCall = error && callsBackward(errorLine) ? error : null;
      timeline = [];
      produced.length = 0;
      chapters.forEach((c, ci) => {
        const map = new Map();
        for (const n of c.graph?.nodes ?? []) {
          if (n.kind === 'tensor' && n.grad_fn) map.set(n.grad_fn, [...(map.get(n.grad_fn) ?? []), [n.id, 0]]);
        }
        produced.push(map);
        for (const step of c.steps ?? []) timeline.push({ chapter: ci, step });
        if (c.error) timeline.push({ chapter: ci, error: true });
      });
      position = 0;
      touched = false;
      drawChapters();
      showPosition();
      let budget = PREPARED_NODES;
      const graphs = chapters.map((c) => c.graph).filter((g, i) => g && ((budget -= g.nodes.length) >= 0 || i === 0));
      return Promise.all(graphs.map((g) => graphView.prepare(g).catch(() => {})));  // render reports a failure
    },
    /** Back to before the first step (from the end-of-run view too: Reset means the start of backward). */
    reset() {
      api.pause();
      return goTo(0);
    },
    /** One step forward; resolves once the graph shows it. */
    step() {
      return position < timeline.length ? goTo(position + 1) : queue;
    },
    /** One step back. */
    back() {
      return goTo(position - 1);
    },
    goTo,
    /** Step on its own at the chosen speed until the end or an error; from the last step, from the start again. */
    play() {
      if (timer || !timeline.length) return;
      if (position >= timeline.length) goTo(0);
      timer = setInterval(() => {
        api.step();
        if (position >= timeline.length || timeline[position - 1].error) api.pause();  // stop where it fails
      }, SPEEDS[speed][1]);
      playBtn.textContent = tr('stepper.pause');
    },
    pause() {
      clearInterval(timer);
      timer = null;
      playBtn.textContent = tr('stepper.play');
    },
    /**
     * node as the graph shows it at this step: a tensor's .grad as far as the steps so far have filled it in, a
     * node's saved tensors released once it has run.
     */
    present(node) {
      if (!touched || !position || !node) return node;
      const { grads, freed } = flowState(timeline[position - 1].chapter, position - 1);
      if (node.kind === 'tensor') return node.id in grads ? { ...node, grad: grads[node.id] } : node;
      return !node.freed && freed.includes(node.kind === 'saved' ? node.owner : node.id) ? { ...node, freed: true } : node;
    },
    /** Where the stepper is: {step, steps}. */
    get position() {
      return { step: position, steps: timeline.length };
    },
  };

  document.addEventListener('keydown', (e) => {
    if (!chapters.length || e.ctrlKey || e.metaKey || e.altKey || typingTarget(e.target)) return;
    if (e.key === '.' || e.key === 'ArrowRight') api.step();
    else if (e.key === ',' || e.key === 'ArrowLeft') api.back();
    else return;
    e.preventDefault();
  });
  onLangChange(() => {
    translate();
    if (touched) queue = queue.then(drawPosition, drawPosition).then(() => onMove?.());  // (the graph view redrew itself)
  });
  translate();
  return api;
}
