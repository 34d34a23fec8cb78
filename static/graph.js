// The live autograd graph: Graphviz (viz-js, wasm) lays it out in a Worker, we draw it as our own SVG.
// This module is also that Worker's script: loaded without a document it only answers layout requests.

const IN_WORKER = typeof document === 'undefined';
const SVG_NS = 'http://www.w3.org/2000/svg';
const VIZ_URL = new URL('./vendor/viz.js', import.meta.url).href;

let vizPromise = null;
/** The one viz-js instance of this thread, loaded on first use. */
function viz() {
  vizPromise ??= import(VIZ_URL).then((m) => m.instance());
  return vizPromise;
}

if (IN_WORKER) {
  self.onmessage = async ({ data }) => {
    try {
      const v = await viz();
      const t0 = performance.now();
      const plain = v.renderString(data.dot, { format: 'plain' });
      self.postMessage({ id: data.id, plain, ms: performance.now() - t0 });
    } catch (e) {
      self.postMessage({ id: data.id, error: String(e?.message ?? e) });
    }
  };
}

const i18n = IN_WORKER ? null : await import('./i18n.js').catch(() => null);
const STRINGS = {
  en: {
    'graph.unnamed': '(unnamed)', 'graph.was': '(was {name})', 'graph.all': 'all', 'graph.grad': 'grad', 'graph.stale': 'stale', 'graph.freed': 'freed',
    'graph.hidden': '+{n} inputs not drawn', 'graph.empty': 'No tensors yet: run some code to see its graph.',
    'graph.truncated': 'Large graph: {shown} of {total} grad_fn nodes drawn (the ones nearest your variables).',
    'graph.fit': 'Fit', 'graph.zoomIn': 'Zoom in', 'graph.zoomOut': 'Zoom out', 'graph.export': 'Export',
    'graph.layoutFailed': 'The graph could not be laid out: {error}',
  },
  'zh-CN': {
    'graph.unnamed': '（未命名）', 'graph.was': '（原来的 {name}）', 'graph.all': '全部', 'graph.grad': '梯度', 'graph.stale': '已过期', 'graph.freed': '已释放',
    'graph.hidden': '另有 {n} 个输入未画出', 'graph.empty': '还没有张量：运行代码后这里会画出计算图。',
    'graph.truncated': '图太大：只画出 {total} 个 grad_fn 节点中离你的变量最近的 {shown} 个。',
    'graph.fit': '适应窗口', 'graph.zoomIn': '放大', 'graph.zoomOut': '缩小', 'graph.export': '导出',
    'graph.layoutFailed': '无法排布计算图：{error}',
  },
};
i18n?.registerStrings(STRINGS);

/** Translated text for key, with {name} placeholders filled; English when i18n.js is absent. */
export function tr(key, params = {}) {
  if (i18n) return i18n.t(key, params);
  return (STRINGS.en[key] ?? key).replace(/\{(\w+)\}/g, (whole, name) => (name in params ? String(params[name]) : whole));
}

/** A tensor node's name: its variable's, else the name that held it before the code rebound it, else none. */
export function tensorName(n) {
  return n.label || (n.was ? tr('graph.was', { name: n.was }) : tr('graph.unnamed'));
}

/** Call cb after a language switch (no-op without i18n.js). */
export function onLangChange(cb) {
  return i18n?.onLangChange?.(cb) ?? (() => {});
}

// ---- Values as text ------------------------------------------------------------------------------------------

/** The lines inside PyTorch's `tensor(...)` text, continuation indent removed. */
export function bodyLines(text) {
  if (text == null) return [];
  const inner = text.startsWith('tensor(') && text.endsWith(')') ? text.slice(7, -1) : text;
  return inner.split('\n').map((line, i) => (i ? line.replace(/^ {7}/, '') : line));
}

/** A short form of a tensor's text: the number when every element is the same, else the body on one line. */
export function compactValue(text, maxChars = 40) {
  if (text == null) return 'None';
  const body = bodyLines(text).map((l) => l.trim()).join(' ');
  const numbers = body.match(/-?(?:\d+\.?\d*(?:e[+-]?\d+)?|inf|nan)/g) ?? [];
  if (numbers.length && !body.includes('...') && numbers.every((n) => n === numbers[0])) {
    return numbers[0].replace(/\.$/, '') + (numbers.length > 1 ? ` (${tr('graph.all')})` : '');
  }
  return body.length > maxChars ? body.slice(0, maxChars - 1) + '…' : body;
}

const esc = (s) => String(s).replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' }[c]));
const shapeText = (shape) => (shape ? `(${shape.join(', ')})` : '');

// ---- Node content and size -----------------------------------------------------------------------------------

const FONT_PX = 11;
const MIN_AUTO_SCALE = 0.5;  // the smallest zoom a graph is drawn at on its own: node text still legible
const LINE_H = 14;
const PAD = 6;
const MAX_CHARS = 56;
const SPARK_H = 16;
let charWidth = 0;
let measurer = null;  // a canvas context with the node font

/** Width of one monospace character at the node font, measured once. */
function charW() {
  if (!charWidth) {
    measurer = document.createElement('canvas').getContext('2d');
    if (measurer) measurer.font = `${FONT_PX}px ${getComputedStyle(document.documentElement).getPropertyValue('--gv-font') || 'monospace'}`;
    charWidth = measurer ? measurer.measureText('0123456789').width / 10 : 6.6;
  }
  return charWidth || 6.6;
}

/** Width of a line of text at the node font: so many monospace columns, or measured when it holds characters
 * outside Latin (a Chinese label is about two columns a character). */
function textW(text) {
  const columns = text.length * charW();
  return measurer && /[^\u0000-\u024f]/.test(text) ? Math.max(columns, measurer.measureText(text).width) : columns;
}

const clip = (line) => (line.length > MAX_CHARS ? line.slice(0, MAX_CHARS - 1) + '…' : line);

/** What a node shows: [{text, cls}] lines, plus a sparkline (list of numbers) or null. */
function nodeContent(n) {
  const lines = [];
  let spark = null;
  const values = (text, summary, sparkPoints, cls) => {
    if (summary != null || bodyLines(text).length > 4) {
      lines.push({ text: summary ?? '', cls });
      spark = sparkPoints?.length > 1 ? sparkPoints : spark;
    } else {
      for (const l of bodyLines(text)) lines.push({ text: l, cls });
    }
  };
  if (n.kind === 'tensor') {
    lines.push({ text: tensorName(n), cls: 'gv-title' });
    lines.push({ text: `${n.dtype} ${shapeText(n.shape)}${n.version ? `  v${n.version}` : ''}`, cls: 'gv-meta' });
    values(n.value, n.summary, n.spark, 'gv-value');
    if (n.grad != null) {
      const grad = bodyLines(n.grad);
      const short = compactValue(n.grad);
      if (n.grad_summary != null) lines.push({ text: `${tr('graph.grad')}: ${n.grad_summary}`, cls: 'gv-grad' });
      else if (grad.length === 1 || short.endsWith(`(${tr('graph.all')})`) || grad.length > 4) {
        lines.push({ text: `${tr('graph.grad')}: ${grad.length === 1 ? grad[0] : short}`, cls: 'gv-grad' });
      } else {
        const prefix = `${tr('graph.grad')}: `;
        grad.forEach((l, i) => lines.push({ text: `${i ? ' '.repeat(prefix.length) : prefix}${l}`, cls: 'gv-grad' }));
      }
    }
  } else if (n.kind === 'function') {
    lines.push({ text: n.label, cls: 'gv-title' });
    if (n.freed) lines.push({ text: `(${tr('graph.freed')})`, cls: 'gv-meta' });
    if (n.hidden_inputs) lines.push({ text: tr('graph.hidden', { n: n.hidden_inputs }), cls: 'gv-meta' });
  } else {
    lines.push({ text: n.label, cls: 'gv-title' });
    const versions = n.freed ? tr('graph.freed')
      : `v${n.saved_version}${n.version !== n.saved_version ? ` → v${n.version}  ${tr('graph.stale')}` : ''}`;
    lines.push({ text: `${shapeText(n.shape)} ${versions}`.trim(), cls: n.stale ? 'gv-meta gv-warn' : 'gv-meta' });
    if (n.value != null) values(n.value, n.summary, n.spark, 'gv-value');
  }
  return { lines: lines.map((l) => ({ ...l, text: clip(l.text) })), spark };
}

function nodeSize(content) {
  const w = Math.max(6 * charW(), ...content.lines.map((l) => textW(l.text))) + 2 * PAD;
  const h = content.lines.length * LINE_H + (content.spark ? SPARK_H + 2 : 0) + 2 * PAD - 2;
  return { w, h };
}

// ---- Layout --------------------------------------------------------------------------------------------------

const EDGE_WEIGHT = { next: 8, grad_fn: 2, variable: 2, saved: 1 };

/**
 * The DOT we hand Graphviz: fixed-size empty boxes (we draw the content), edges in node-link order.
 * grad_fn nodes share a group so chains of ops stay straight instead of drifting into a long diagonal.
 */
function layoutDot(graph, sizes) {
  const big = graph.nodes.length > 300;
  const out = ['digraph G {',
    `graph [rankdir=TB nodesep=0.2 ranksep=0.3${big ? ' nslimit=2 nslimit1=2 mclimit=0.3 searchsize=20' : ''}]`,
    'node [shape=box fixedsize=true label=""]', 'edge [arrowhead=none]'];
  for (const n of graph.nodes) {
    const { w, h } = sizes.get(n.id);
    const group = n.kind === 'function' && n.label !== 'AccumulateGrad' ? ' group=f' : '';
    out.push(`"${n.id}" [width=${(w / 72).toFixed(3)} height=${(h / 72).toFixed(3)}${group}]`);
  }
  for (const l of graph.links) out.push(`"${l.source}" -> "${l.target}" [weight=${EDGE_WEIGHT[l.kind] ?? 1}]`);
  out.push('}');
  return out.join('\n');
}

/** Parse Graphviz's `plain` output into {width, height, nodes: Map id -> {x, y}, edges: [{tail, head, points}]}. */
function parsePlain(text) {
  const nodes = new Map();
  const edges = [];
  let height = 0;
  let width = 0;
  const unquote = (s) => s.replace(/^"|"$/g, '');
  for (const line of text.split('\n')) {
    const f = line.split(' ');
    if (f[0] === 'graph') {
      width = +f[2] * 72;
      height = +f[3] * 72;
    } else if (f[0] === 'node') {
      nodes.set(unquote(f[1]), { x: +f[2] * 72, y: height - +f[3] * 72 });
    } else if (f[0] === 'edge') {
      const n = +f[3];
      const points = [];
      for (let i = 0; i < n; i++) points.push([+f[4 + 2 * i] * 72, height - +f[5 + 2 * i] * 72]);
      edges.push({ tail: unquote(f[1]), head: unquote(f[2]), points });
    }
  }
  return { width, height, nodes, edges };
}

let worker = null;
let workerBroken = false;
let requestId = 0;
let lastLayoutMs = null;  // Graphviz's own time for the last layout in the Worker (for the bench)
const pending = new Map();

/** Lay out dot off the main thread (falls back to this thread if the Worker cannot start). */
function runLayout(dot) {
  if (!worker && !workerBroken) {
    try {
      worker = new Worker(import.meta.url, { type: 'module' });
      worker.onmessage = ({ data }) => {
        const p = pending.get(data.id);
        pending.delete(data.id);
        if (data.error) p?.reject(new Error(data.error));
        else p?.resolve(data.plain);
        lastLayoutMs = data.ms;
      };
      worker.onerror = (e) => {
        e.preventDefault?.();
        workerBroken = true;
        worker = null;
        for (const [, p] of pending) p.retry();
        pending.clear();
      };
    } catch {
      workerBroken = true;
    }
  }
  if (!worker) return viz().then((v) => v.renderString(dot, { format: 'plain' }));
  return new Promise((resolve, reject) => {
    const id = ++requestId;
    const retry = () => viz().then((v) => v.renderString(dot, { format: 'plain' })).then(resolve, reject);
    pending.set(id, { resolve, reject, retry });
    worker.postMessage({ id, dot });
  });
}

/** Start the layout engine early so the first graph does not pay for loading it. */
export function warmUp() {
  return runLayout('digraph { a }').catch(() => {});
}

// ---- Drawing -------------------------------------------------------------------------------------------------

function pathOf(points) {
  const [first, ...rest] = points;
  let d = `M${first[0].toFixed(1)},${first[1].toFixed(1)}`;
  for (let i = 0; i + 2 < rest.length; i += 3) {
    d += `C${rest.slice(i, i + 3).map((p) => `${p[0].toFixed(1)},${p[1].toFixed(1)}`).join(' ')}`;
  }
  return d;
}

const LABEL_H = 16;  // height of a gradient label on an edge or beside a node

/** The area two boxes {x, y, w, h} share, each grown by margin. */
const shared = (a, b, margin = 0) => Math.max(0, Math.min(a.x + a.w, b.x + b.w) - Math.max(a.x, b.x) + margin)
  * Math.max(0, Math.min(a.y + a.h, b.y + b.h) - Math.max(a.y, b.y) + margin);

/**
 * The first candidate box clear of the boxes in taken (by 2 px) and inside bounds, else the least bad one, where
 * covering text is worse than sticking out of the view (panning brings it back); it joins taken. Graphviz leaves only
 * ~15 px between nodes, so a label put at one fixed spot often covered a neighbour's text.
 */
function placeLabel(candidates, taken, bounds) {
  let best = null;
  let bestCost = Infinity;
  for (const c of candidates) {
    const cost = c.w * c.h - shared(c, bounds) + 4 * taken.reduce((sum, t) => sum + shared(c, t, 2), 0);
    if (cost < bestCost) [best, bestCost] = [c, cost];
    if (!cost) break;
  }
  taken.push(best);
  return best;
}

/** The point at fraction t of a Graphviz spline (cubic Bézier pieces), by piece then by Bézier parameter. */
function pointOnPath(points, t) {
  const pieces = Math.max(1, Math.floor((points.length - 1) / 3));
  const at = Math.min(pieces - 1e-9, t * pieces);
  const i = Math.floor(at) * 3;
  const u = at - Math.floor(at);
  const [p0, p1, p2, p3] = [0, 1, 2, 3].map((j) => points[Math.min(i + j, points.length - 1)]);
  const c = [(1 - u) ** 3, 3 * (1 - u) ** 2 * u, 3 * (1 - u) * u ** 2, u ** 3];
  return [0, 1].map((d) => c[0] * p0[d] + c[1] * p1[d] + c[2] * p2[d] + c[3] * p3[d]);
}

function sparkPath(points, w, h) {
  const finite = points.filter((v) => v != null);
  const lo = Math.min(...finite);
  const span = Math.max(...finite) - lo || 1;
  const step = w / (points.length - 1);
  let d = '';
  let pen = 'M';
  points.forEach((v, i) => {
    if (v == null) { pen = 'M'; return; }
    d += `${pen}${(i * step).toFixed(1)},${(h - ((v - lo) / span) * h).toFixed(1)}`;
    pen = 'L';
  });
  return d;
}

function nodeClasses(n) {
  const cls = ['gv-node', `gv-${n.kind}`];
  if (n.role) cls.push(`gv-role-${n.role}`);
  if (n.kind === 'tensor' && n.requires_grad) cls.push('gv-requires-grad');
  if (n.label === 'AccumulateGrad') cls.push('gv-accumulate');
  if (n.freed) cls.push('gv-freed');
  return cls.join(' ');
}

/** The SVG text of one node, centred at (x, y). */
function nodeSvg(n, content, size, pos) {
  const x0 = pos.x - size.w / 2;
  const y0 = pos.y - size.h / 2;
  const label = n.kind === 'function' ? n.label : (n.label ?? '');
  let s = `<g class="${nodeClasses(n)}" data-testid="graph-node" data-kind="${n.kind}" data-label="${esc(label)}"`
    + ` data-id="${esc(n.id)}"${n.role ? ` data-role="${n.role}"` : ''}${n.stale ? ' data-stale="true"' : ''} transform="translate(${x0.toFixed(1)},${y0.toFixed(1)})">`
    + `<rect class="gv-box" width="${size.w.toFixed(1)}" height="${size.h.toFixed(1)}" rx="${n.kind === 'tensor' ? 6 : 2}"/>`;
  content.lines.forEach((l, i) => {
    s += `<text class="${l.cls}" x="${PAD}" y="${PAD + i * LINE_H + FONT_PX - 1}" xml:space="preserve">${esc(l.text)}</text>`;
  });
  if (content.spark) {
    const y = PAD + content.lines.length * LINE_H;
    s += `<path class="gv-spark" transform="translate(${PAD},${y})" d="${sparkPath(content.spark, size.w - 2 * PAD, SPARK_H)}"/>`;
  }
  return s + '</g>';
}

/** The torchviz-style DOT of a node-link graph (what engine.graph.to_dot writes), built here when JSON lacks it. */
export function toTorchvizDot(graph) {
  const q = (s) => `"${String(s).replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n')}"`;
  const style = {
    leaf: 'fillcolor=lightblue', output: 'fillcolor=darkolivegreen1', nonleaf: 'fillcolor=white',
    detached: 'fillcolor=white style="filled,dashed"', constant: 'fillcolor=white style="filled,dotted"',
  };
  const lines = ['digraph {', '\tgraph [size="12,12"]',
    '\tnode [align=left fontname=monospace fontsize=10 height=0.2 ranksep=0.1 shape=box style=filled]'];
  for (const n of graph.nodes) {
    if (n.kind === 'tensor') lines.push(`\t${n.id} [label=${q(`${n.label}\n ${shapeText(n.shape)}`)} ${style[n.role] ?? ''}]`);
    else if (n.kind === 'saved') {
      const label = n.shape ? `${n.label}\n ${shapeText(n.shape)}` : n.label;
      lines.push(`\t${n.id} [label=${q(label)} fillcolor=orange${n.stale ? ' color=red penwidth=2' : ''}]`);
    } else lines.push(`\t${n.id} [label=${q(n.label)}]`);
  }
  for (const l of graph.links) lines.push(`\t${l.source} -> ${l.target}${l.kind === 'saved' ? ' [dir=none]' : ''}`);
  lines.push('}');
  return lines.join('\n') + '\n';
}

function button(key, onClick, testid) {
  const b = document.createElement('button');
  b.type = 'button';
  if (key) b.dataset.key = key;
  if (testid) b.dataset.testid = testid;
  b.addEventListener('click', onClick);
  return b;
}

/** Download a Blob under a file name. */
function download(blob, name) {
  const a = document.createElement('a');
  a.href = URL.createObjectURL(blob);
  a.download = name;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(a.href), 10_000);
}

/** The graph.css rules, so an exported SVG looks like the page. */
function graphCss() {
  const rules = [];
  for (const sheet of document.styleSheets) {
    try {
      for (const rule of sheet.cssRules) if (rule.cssText.includes('.gv-')) rules.push(rule.cssText);
    } catch { /* a sheet we may not read */ }
  }
  return rules.join('\n');
}

/**
 * Draw autograd graphs (node-link JSON of engine.graph) into container.
 * Returns {render, prepare, setActive, showEdgeGrads, showNodeGrads, clearHighlights, markStale, markError, fit, export}.
 */
export function createGraphView(container, { onSelect } = {}) {
  container.classList.add('gv-view');
  container.innerHTML = '';
  const toolbar = document.createElement('div');
  toolbar.className = 'gv-toolbar';
  const banner = document.createElement('div');
  banner.className = 'gv-banner';
  banner.hidden = true;
  const svg = document.createElementNS(SVG_NS, 'svg');
  svg.classList.add('gv-graph');
  svg.setAttribute('xmlns', SVG_NS);
  svg.innerHTML = '<defs><marker id="gv-arrow" viewBox="0 0 10 10" refX="10" refY="5" markerWidth="8" markerHeight="8"'
    + ' markerUnits="userSpaceOnUse" orient="auto"><path class="gv-arrowhead" d="M0,0L10,5L0,10z"/></marker></defs>'
    + '<g class="gv-scene"><g class="gv-edges"></g><g class="gv-nodes"></g><g class="gv-overlay"></g></g>';
  const scene = svg.querySelector('.gv-scene');
  const edgeLayer = svg.querySelector('.gv-edges');
  const nodeLayer = svg.querySelector('.gv-nodes');
  const overlay = svg.querySelector('.gv-overlay');
  const empty = document.createElement('div');
  empty.className = 'gv-empty';
  empty.textContent = tr('graph.empty');  // (before the first run too)
  container.append(toolbar, banner, svg, empty);

  let current = null;  // {graph, layout, byId: Map id -> node json, pos, sizes, edges: Map "s->t" -> [{key, el, points}]}
  let renderSeq = 0;
  const view = { k: 1, x: 0, y: 0 };
  let active = null;
  let selected = null;
  let userMoved = false;  // once the user pans or zooms, resizes stop refitting
  let flowing = [];       // edge paths marked with data-flow by showEdgeGrads
  let edgeLabelBoxes = [];  // where showEdgeGrads put its labels, for showNodeGrads to keep clear of

  const applyView = () => scene.setAttribute('transform', `translate(${view.x},${view.y}) scale(${view.k})`);
  let covering = null;    // () => the client rect of a panel over the graph (the open inspector), or null

  /**
   * The bands of the graph's area that a panel over it (the open inspector) leaves free, {x, y, width, height} from
   * the area's top left: beside the panel, and above or below it. None while no panel covers the area.
   */
  function freeBands(box) {
    const over = covering?.();
    if (!over?.width || !over.height || over.bottom <= box.top || over.top >= box.bottom || over.right <= box.left
        || over.left >= box.right) return [];
    const left = over.left - box.left;
    const top = over.top - box.top;
    const bottom = box.bottom - over.bottom;
    return [
      { x: 0, y: 0, width: left - 8, height: box.height },                      // beside it
      top > bottom ? { x: 0, y: 0, width: box.width, height: top - 8 }          // above it
        : { x: 0, y: box.height - bottom + 8, width: box.width, height: bottom - 8 },  // below it
    ].filter((b) => b.width > 40 && b.height > 40);
  }

  /** Where a node should be to be seen: the largest free band (the whole area while no panel covers it). */
  function freeBox() {
    const box = svg.getBoundingClientRect();
    const bands = freeBands(box);
    if (!bands.length) return { x: 0, y: 0, width: box.width, height: box.height };
    return bands.reduce((best, b) => (b.width * b.height > best.width * best.height ? b : best));
  }

  /** Pan (never zoom) a node that is out of view or under the panel into the middle of the free part of the view. */
  function reveal(id) {
    const pos = current?.layout.nodes.get(id);
    if (!pos) return;
    const area = svg.getBoundingClientRect();
    const [sx, sy] = [pos.x * view.k + view.x, pos.y * view.k + view.y];
    const over = covering?.();
    const covered = over?.width && sx + area.left > over.left && sx + area.left < over.right
      && sy + area.top > over.top && sy + area.top < over.bottom;
    if (!covered && sx >= 0 && sy >= 0 && sx <= area.width && sy <= area.height) return;
    const box = freeBox();
    view.x = box.x + box.width / 2 - pos.x * view.k;
    view.y = box.y + box.height / 2 - pos.y * view.k;
    applyView();
  }

  /**
   * Show the whole graph (the Fit button). With readable (a new graph, a resize), never zoom out below
   * MIN_AUTO_SCALE: a graph too big for that shows its output end, where backward starts, rather than specks.
   * The scale comes from the whole area: the open inspector floats over the graph and moves it (into the band
   * beside the panel when it fits there, else just far enough to keep the selected node in view), never shrinks it.
   */
  function fit({ readable = false } = {}) {
    userMoved = false;
    if (!current) return;
    const { width, height } = current.layout;
    const box = svg.getBoundingClientRect();
    if (!box.width || !box.height || !width) return;
    const whole = Math.min(box.width / (width + 20), box.height / (height + 20), 1.5);
    view.k = readable ? Math.max(whole, MIN_AUTO_SCALE) : whole;
    const [w, h] = [width * view.k, height * view.k];
    const free = freeBands(box).find((b) => w + 20 <= b.width && h + 20 <= b.height);
    const area = free ?? { x: 0, y: 0, width: box.width, height: box.height };
    // A graph bigger than the area: its output end, where backward starts, in view (a long chain whose saved
    // tensors push it sideways leans; centring the whole would show none of it).
    const end = w + 20 > area.width || h + 20 > area.height ? outputEnd() : null;
    view.x = w + 20 <= area.width ? area.x + (area.width - w) / 2
      : clamp(area.x + area.width / 2 - end.x * view.k, area.x + area.width - (width + 10) * view.k, area.x + 10);
    view.y = h + 20 <= area.height ? area.y + (area.height - h) / 2
      : clamp(area.y + area.height * 0.7 - end.y * view.k, area.y + area.height - (height + 10) * view.k, area.y + 10);
    applyView();
    if (!free && selected) reveal(selected);
  }

  /** Where backward starts: the middle of the output tensors (else of the lowest node), in layout units. */
  function outputEnd() {
    const at = (list) => list.map((n) => current.layout.nodes.get(n.id)).filter(Boolean);
    let points = at([...current.byId.values()].filter((n) => n.role === 'output'));
    if (!points.length) points = [[...current.layout.nodes.values()].reduce((a, b) => (b.y > a.y ? b : a))];
    return { x: points.reduce((sum, p) => sum + p.x, 0) / points.length, y: Math.max(...points.map((p) => p.y)) };
  }

  const clamp = (v, lo, hi) => Math.min(hi, Math.max(lo, v));

  function zoomBy(factor, cx, cy) {
    const box = svg.getBoundingClientRect();
    cx ??= box.width / 2;
    cy ??= box.height / 2;
    const k = Math.min(8, Math.max(0.02, view.k * factor));
    view.x = cx - ((cx - view.x) * k) / view.k;
    view.y = cy - ((cy - view.y) * k) / view.k;
    view.k = k;
    userMoved = true;
    applyView();
  }

  svg.addEventListener('wheel', (e) => {
    e.preventDefault();
    const box = svg.getBoundingClientRect();
    zoomBy(Math.exp(-e.deltaY * 0.0015), e.clientX - box.left, e.clientY - box.top);
  }, { passive: false });

  let drag = null;
  svg.addEventListener('pointerdown', (e) => {
    drag = { x: e.clientX, y: e.clientY, vx: view.x, vy: view.y, moved: false };
  });
  svg.addEventListener('pointermove', (e) => {
    if (!drag) return;
    const dx = e.clientX - drag.x;
    const dy = e.clientY - drag.y;
    if (!drag.moved && Math.hypot(dx, dy) < 4) return;
    if (!drag.moved) svg.setPointerCapture?.(e.pointerId);
    drag.moved = true;
    userMoved = true;
    view.x = drag.vx + dx;
    view.y = drag.vy + dy;
    applyView();
  });
  svg.addEventListener('pointerup', () => { setTimeout(() => { drag = null; }); });
  svg.addEventListener('click', (e) => {
    if (drag?.moved) return;
    const el = e.target.closest('[data-testid="graph-node"]');
    if (!el || !current) return;
    select(el.dataset.id);
  });

  function select(id) {
    nodeLayer.querySelector('[data-selected]')?.removeAttribute('data-selected');
    const el = nodeEl(id);
    el?.setAttribute('data-selected', 'true');
    selected = id;
    onSelect?.(current.byId.get(id), current.graph);
  }

  const nodeEl = (id) => (current ? current.elements.get(id) : null);

  /** The part of the layout on screen, in layout units: where labels should stay (beyond it they need panning). */
  const viewBounds = () => {
    const box = svg.getBoundingClientRect();
    return { x: -view.x / view.k, y: -view.y / view.k, w: box.width / view.k, h: box.height / view.k };
  };

  /** The drawn nodes' boxes {x, y, w, h} in layout units, for labels to keep clear of. */
  const nodeBoxes = () => [...current.layout.nodes].flatMap(([id, pos]) => {
    const size = current.sizes.get(id);
    return size ? [{ x: pos.x - size.w / 2, y: pos.y - size.h / 2, w: size.w, h: size.h }] : [];
  });

  const exporters = {
    svg: () => new Blob([svgText()], { type: 'image/svg+xml' }),
    dot: () => new Blob([current?.graph.dot ?? toTorchvizDot(current?.graph ?? { nodes: [], links: [] })], { type: 'text/vnd.graphviz' }),
    json: () => {
      const { dot, ...graph } = current?.graph ?? { nodes: [], links: [] };
      return new Blob([JSON.stringify(graph, null, 1)], { type: 'application/json' });
    },
    png: () => svgToPng(svgText()),
  };

  function svgText() {
    const clone = svg.cloneNode(true);
    const { width = 0, height = 0 } = current?.layout ?? {};
    clone.setAttribute('viewBox', `-10 -10 ${width + 20} ${height + 20}`);
    clone.setAttribute('width', width + 20);
    clone.setAttribute('height', height + 20);
    clone.querySelector('.gv-scene').removeAttribute('transform');
    const style = document.createElementNS(SVG_NS, 'style');
    style.textContent = graphCss();
    clone.prepend(style);
    return new XMLSerializer().serializeToString(clone);
  }

  async function svgToPng(text) {
    const img = new Image();
    const url = URL.createObjectURL(new Blob([text], { type: 'image/svg+xml' }));
    try {
      img.src = url;
      await img.decode();
      const scale = Math.min(2, 16000 / Math.max(img.width, img.height, 1));
      const canvas = document.createElement('canvas');
      canvas.width = Math.ceil(img.width * scale);
      canvas.height = Math.ceil(img.height * scale);
      const ctx = canvas.getContext('2d');
      ctx.fillStyle = '#fff';
      ctx.fillRect(0, 0, canvas.width, canvas.height);
      ctx.drawImage(img, 0, 0, canvas.width, canvas.height);
      return await new Promise((resolve) => canvas.toBlob(resolve, 'image/png'));
    } finally {
      URL.revokeObjectURL(url);
    }
  }

  const exportMenu = document.createElement('span');
  exportMenu.className = 'gv-export';
  const toolButtons = [
    button('graph.fit', () => fit(), 'graph-fit'),
    button('graph.zoomIn', () => zoomBy(1.25)),
    button('graph.zoomOut', () => zoomBy(0.8)),
  ];
  const label = document.createElement('span');
  label.dataset.key = 'graph.export';
  exportMenu.append(label);
  for (const [format, ext] of [['svg', 'svg'], ['png', 'png'], ['dot', 'gv'], ['json', 'json']]) {
    const b = button(null, async () => download(await api.export(format), `autograd-graph.${ext}`), `graph-export-${format}`);
    b.textContent = format.toUpperCase();
    exportMenu.append(b);
  }
  toolbar.append(...toolButtons, exportMenu);
  const translate = () => {
    for (const el of toolbar.querySelectorAll('[data-key]')) el.textContent = tr(el.dataset.key);
    empty.textContent = tr('graph.empty');
    toolButtons[1].textContent = '+';
    toolButtons[2].textContent = '−';
    toolButtons[1].title = tr('graph.zoomIn');
    toolButtons[2].title = tr('graph.zoomOut');
  };
  translate();

  /** Draw a laid-out graph: all nodes and edges as one SVG string (fast for 1,000 nodes). */
  function draw(graph, layout, contents, sizes) {
    const byId = new Map(graph.nodes.map((n) => [n.id, n]));
    const queues = new Map();  // "tail->head" -> links in node-link order, to match Graphviz's multi-edges
    for (const l of graph.links) {
      const k = `${l.source}->${l.target}`;
      if (!queues.has(k)) queues.set(k, []);
      queues.get(k).push(l);
    }
    const edges = new Map();
    const ordered = [];  // in the order their paths are written
    let edgeSvg = '';
    for (const e of layout.edges) {
      const k = `${e.tail}->${e.head}`;
      const link = queues.get(k)?.shift();
      if (!link) continue;
      if (!edges.has(k)) edges.set(k, []);
      const entry = { link, points: e.points, el: null };
      edges.get(k).push(entry);
      ordered.push(entry);
      edgeSvg += `<path class="gv-edge gv-edge-${link.kind}" data-source="${esc(link.source)}" data-target="${esc(link.target)}"`
        + ` data-key="${link.key ?? 0}" d="${pathOf(e.points)}"${link.kind === 'saved' ? '' : ' marker-end="url(#gv-arrow)"'}/>`;
    }
    let nodeSvgText = '';
    for (const n of graph.nodes) {
      const pos = layout.nodes.get(n.id);
      if (pos) nodeSvgText += nodeSvg(n, contents.get(n.id), sizes.get(n.id), pos);
    }
    edgeLayer.innerHTML = edgeSvg;
    nodeLayer.innerHTML = nodeSvgText;
    ordered.forEach((entry, i) => { entry.el = edgeLayer.children[i]; });
    overlay.innerHTML = '';
    flowing = [];
    const elements = new Map();
    for (const el of nodeLayer.children) elements.set(el.dataset.id, el);
    current = { graph, layout, byId, sizes, edges, elements };
    active = null;
    selected = elements.has(selected) ? selected : null;  // (a step draws its call's graph: the selection stays)
    nodeEl(selected)?.setAttribute('data-selected', 'true');
    const meta = graph.graph ?? {};
    banner.hidden = !meta.truncated;
    banner.textContent = meta.truncated ? tr('graph.truncated', { shown: meta.functions - meta.hidden, total: meta.functions }) : '';
    empty.hidden = graph.nodes.length > 0;
    empty.textContent = tr('graph.empty');
    fit({ readable: true });
  }

  const layoutCache = new WeakMap();  // graph -> its layout, or the promise of it while Graphviz works

  /** A graph's layout, computed once per graph object: the layout itself, or a promise while it is computed. */
  function layoutOf(graph, sizes) {
    let layout = layoutCache.get(graph);
    if (layout) return layout;
    if (!graph.nodes.length) {
      layout = { width: 0, height: 0, nodes: new Map(), edges: [] };
    } else {
      const t0 = performance.now();
      layout = runLayout(layoutDot(graph, sizes)).then((plain) => {
        const done = parsePlain(plain);
        api.timings = { layout: performance.now() - t0, graphviz: lastLayoutMs };
        layoutCache.set(graph, done);
        return done;
      }, (e) => {
        layoutCache.delete(graph);
        throw e;
      });
    }
    layoutCache.set(graph, layout);
    return layout;
  }

  const measure = (graph) => {
    const contents = new Map(graph.nodes.map((n) => [n.id, nodeContent(n)]));
    const sizes = new Map(graph.nodes.map((n) => [n.id, nodeSize(contents.get(n.id))]));
    return { contents, sizes };
  };

  const api = {
    /**
     * Lay out and draw a node-link graph; resolves once it is on screen (a newer render supersedes it).
     * A graph laid out before (render or prepare) is drawn at once, without waiting for anything.
     */
    async render(graph) {
      const seq = ++renderSeq;
      graph = graph ?? { nodes: [], links: [] };
      const { contents, sizes } = measure(graph);
      let layout = layoutOf(graph, sizes);
      if (layout instanceof Promise) {
        try {
          layout = await layout;
        } catch (e) {
          if (seq !== renderSeq) return;
          banner.hidden = false;
          banner.textContent = tr('graph.layoutFailed', { error: e.message });
          throw e;
        }
      }
      if (seq !== renderSeq) return;
      const t1 = performance.now();
      draw(graph, layout, contents, sizes);
      if (api.timings) api.timings.draw = performance.now() - t1;
    },
    /** Lay a graph out without drawing it, so that a later render(graph) draws at once; resolves when done. */
    async prepare(graph) {
      await layoutOf(graph, measure(graph).sizes);
    },
    /** The graph JSON on screen (or null). */
    get graph() {
      return current?.graph ?? null;
    },
    /** Mark the node being executed (data-active="true"); null clears it. Scrolls it into view. */
    setActive(id) {
      if (active) nodeEl(active)?.removeAttribute('data-active');
      active = id;
      const el = id == null ? null : nodeEl(id);
      if (!el) return;
      el.setAttribute('data-active', 'true');
      reveal(id);
    },
    /** Label edges with gradients: [{source, target, key?, text, current?}] (replaces the previous labels). */
    showEdgeGrads(list) {
      overlay.querySelectorAll('.gv-edge-grad').forEach((el) => el.remove());
      for (const el of flowing) el.removeAttribute('data-flow');
      flowing = [];
      edgeLabelBoxes = [];
      if (!current) return;
      let s = '';
      const nodes = nodeBoxes();
      const taken = nodes.slice();
      const bounds = viewBounds();
      for (const g of list) {
        const candidates = current.edges.get(`${g.source}->${g.target}`) ?? [];
        const edge = candidates.find((c) => g.key == null || String(c.link.key ?? 0) === String(g.key)) ?? candidates[0];
        if (!edge) continue;
        const at = (candidates.indexOf(edge) + 1) / (candidates.length + 1);
        const text = compactValue(g.text, 20);
        const w = textW(text) + 8;
        // Beside the edge's middle (parallel edges: its share of the way), else further along it, on either side.
        const spots = [at, at - 0.2, at + 0.2, at - 0.35, at + 0.35].filter((t) => t > 0 && t < 1).flatMap((t) => {
          const [x, y] = pointOnPath(edge.points, t);
          return [{ x: x + 4, y: y - 8, w, h: LABEL_H }, { x: x - 4 - w, y: y - 8, w, h: LABEL_H }];
        });
        const box = placeLabel(spots, taken, bounds);
        s += `<g class="gv-edge-grad${g.current ? ' gv-current' : ''}" data-source="${esc(g.source)}" data-target="${esc(g.target)}"`
          + ` transform="translate(${box.x.toFixed(1)},${box.y.toFixed(1)})"><rect width="${w.toFixed(1)}" height="${LABEL_H}" rx="3"/>`
          + `<text x="4" y="12">${esc(text)}</text></g>`;
        edge.el.setAttribute('data-flow', g.current ? 'current' : 'done');
        flowing.push(edge.el);
      }
      edgeLabelBoxes = taken.slice(nodes.length);
      overlay.insertAdjacentHTML('beforeend', s);
    },
    /** Show grads under tensor nodes while stepping: {tensorId: text} (replaces the previous ones). */
    showNodeGrads(map) {
      overlay.querySelectorAll('.gv-node-grad').forEach((el) => el.remove());
      if (!current) return;
      let s = '';
      const taken = [...nodeBoxes(), ...edgeLabelBoxes];
      const bounds = viewBounds();
      for (const [id, text] of Object.entries(map)) {
        const pos = current.layout.nodes.get(id);
        const size = current.sizes.get(id);
        if (!pos) continue;
        const label = `${tr('graph.grad')}: ${compactValue(text, 34)}`;
        const w = textW(label) + 8;
        const [left, right, top, bottom] = [pos.x - size.w / 2, pos.x + size.w / 2, pos.y - size.h / 2, pos.y + size.h / 2];
        // Right of the node, else left of it, else in the gap above or below it (3 px off: ranks are ~22 px apart).
        const spots = [[right + 4, pos.y - 8], [left - 4 - w, pos.y - 8], [right - w, top - 3 - LABEL_H],
          [right - w, bottom + 3], [left, top - 3 - LABEL_H], [left, bottom + 3]];
        const box = placeLabel(spots.map(([x, y]) => ({ x, y, w, h: LABEL_H })), taken, bounds);
        s += `<g class="gv-node-grad" data-id="${esc(id)}" transform="translate(${box.x.toFixed(1)},${box.y.toFixed(1)})">`
          + `<rect width="${w.toFixed(1)}" height="${LABEL_H}" rx="3"/><text x="4" y="12">${esc(label)}</text></g>`;
      }
      overlay.insertAdjacentHTML('beforeend', s);
    },
    /** Flag saved tensors as the stale (or freed) ones an error is about: data-stale="true" and a red ring. */
    markStale(ids) {
      for (const id of [].concat(ids ?? [])) {
        const el = nodeEl(id);
        el?.setAttribute('data-stale', 'true');
        el?.setAttribute('data-flagged', 'true');
      }
    },
    /**
     * Show as released the saved tensors of the function nodes `fids` (a backward without retain_graph frees them
     * as soon as each node has run): data-released="true" on the node and its saved tensors, "freed" in their text.
     */
    markFreed(fids) {
      const owners = new Set([].concat(fids ?? []));
      for (const el of nodeLayer.querySelectorAll('[data-testid="graph-node"]')) {
        const n = current.byId.get(el.dataset.id);
        if (!n || n.freed || !(owners.has(n.id) || (n.kind === 'saved' && owners.has(n.owner)))) continue;
        el.setAttribute('data-released', 'true');
        const meta = n.kind === 'saved' ? el.querySelectorAll('text')[1] : null;
        if (meta) {
          meta.dataset.was = meta.textContent;
          meta.textContent = `${shapeText(n.shape)} ${tr('graph.freed')}`.trim();
        }
      }
    },
    /** Mark nodes where an error happened (data-error="true"). */
    markError(ids) {
      for (const id of [].concat(ids ?? [])) nodeEl(id)?.setAttribute('data-error', 'true');
    },
    /** Remove what the stepper drew: active node, edge/node grads, error flags (stale data from JSON stays). */
    clearHighlights() {
      api.setActive(null);
      overlay.innerHTML = '';
      for (const el of flowing) el.removeAttribute('data-flow');
      flowing = [];
      for (const el of nodeLayer.querySelectorAll('[data-released]')) {
        el.removeAttribute('data-released');
        const meta = el.querySelector('text[data-was]');
        if (meta) { meta.textContent = meta.dataset.was; delete meta.dataset.was; }
      }
      for (const el of nodeLayer.querySelectorAll('[data-error],[data-flagged]')) {
        el.removeAttribute('data-error');
        if (el.dataset.flagged) {
          el.removeAttribute('data-flagged');
          if (!current.byId.get(el.dataset.id)?.stale) el.removeAttribute('data-stale');
        }
      }
    },
    select,
    fit,
    /**
     * Keep the graph clear of a panel over it: rect() gives the panel's client rect, or null while it is closed.
     * Call refit() when it opens or closes.
     */
    keepClearOf(rect) {
      covering = rect;
    },
    /** Fit again after the free area changed, unless the user has panned or zoomed since the last fit. */
    refit() {
      if (current && !userMoved) fit({ readable: true });
    },
    /** The graph as a Blob: 'svg', 'png', 'dot' (torchviz style) or 'json' (node-link). */
    async export(format) {
      const make = exporters[format];
      if (!make) throw new Error(`unknown export format: ${format}`);
      return make();
    },
  };

  onLangChange(() => {
    translate();
    if (current) {
      const { graph } = current;
      const keepActive = active;
      api.render(graph).then(() => keepActive && api.setActive(keepActive));
    }
  });
  new ResizeObserver(() => { if (current && !userMoved) fit({ readable: true }); }).observe(container);
  return api;
}
