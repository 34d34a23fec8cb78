// The inspector: everything the engine knows about one graph node, as PyTorch would show it.
import { tr, onLangChange, tensorName } from './graph.js';

const i18n = await import('./i18n.js').catch(() => null);
i18n?.registerStrings({
  en: {
    'inspector.tensor': 'tensor', 'inspector.function': 'grad_fn node', 'inspector.saved': 'saved tensor',
    'inspector.value': 'value', 'inspector.grad': '.grad', 'inspector.names': 'names', 'inspector.shape': 'shape',
    'inspector.dtype': 'dtype', 'inspector.storage': 'shares storage with', 'inspector.none': 'nothing else',
    'inspector.view': 'is a view', 'inspector.savedTensors': 'saved tensors', 'inspector.savedValues': 'saved values',
    'inspector.next': 'next_functions', 'inspector.produces': 'produces', 'inspector.variable': 'variable',
    'inspector.owner': 'saved by', 'inspector.savedVersion': 'version when saved', 'inspector.versionNow': 'version now',
    'inspector.stale': 'stale: modified in place after it was saved; backward through {owner} will fail',
    'inspector.freed': 'freed (the graph was released by a backward without retain_graph=True)',
    'inspector.isOutput': 'is an output of its node', 'inspector.hidden': '{n} more inputs not drawn',
    'inspector.unnamed': '(unnamed tensor)', 'inspector.empty': 'Click a node of the graph to inspect it.',
    'inspector.sameAs': 'the same tensor as', 'inspector.close': 'Close',
  },
  'zh-CN': {
    'inspector.tensor': '张量', 'inspector.function': 'grad_fn 节点', 'inspector.saved': '保存的张量',
    'inspector.value': '值', 'inspector.grad': '.grad', 'inspector.names': '变量名', 'inspector.shape': '形状',
    'inspector.dtype': '数据类型', 'inspector.storage': '共享存储', 'inspector.none': '无',
    'inspector.view': '是视图', 'inspector.savedTensors': '保存的张量', 'inspector.savedValues': '保存的值',
    'inspector.next': 'next_functions', 'inspector.produces': '产生', 'inspector.variable': 'variable',
    'inspector.owner': '保存者', 'inspector.savedVersion': '保存时的版本', 'inspector.versionNow': '现在的版本',
    'inspector.stale': '已过期：保存后被原地修改，经过 {owner} 的反向传播会报错',
    'inspector.freed': '已释放（没有 retain_graph=True 的 backward 释放了计算图）',
    'inspector.isOutput': '是该节点的输出', 'inspector.hidden': '另有 {n} 个输入未画出',
    'inspector.unnamed': '（未命名张量）', 'inspector.empty': '点击计算图中的节点查看详情。',
    'inspector.sameAs': '与此张量相同', 'inspector.close': '关闭',
  },
});

function el(tag, props = {}, ...children) {
  const e = document.createElement(tag);
  Object.assign(e, props);
  e.append(...children.filter((c) => c != null));
  return e;
}

const shapeText = (shape) => (shape ? `torch.Size([${shape.join(', ')}])` : '—');
const py = (text) => el('code', { textContent: text });  // a Python value, the same in every language
const pyBool = (b) => py(b ? 'True' : 'False');

/**
 * The node inspector in container: `[data-testid=inspector]` with the details of one node.
 * Links to other nodes call onNavigate(id) (default: inspect that node here); onChange(open) follows what it shows
 * (open: true) and its closing (false).
 */
export function createInspector(container, { onNavigate, onChange } = {}) {
  const root = el('div', { className: 'gi-inspector' });
  root.dataset.testid = 'inspector';
  root.hidden = true;
  container.append(root);
  let shown = null;

  const nodeName = (n) => {
    if (!n) return 'None';
    if (n.kind === 'tensor') return n.label || (n.was ? tensorName(n) : tr('inspector.unnamed'));
    return n.label;
  };

  function link(id, graph) {
    const n = graph.nodes.find((m) => m.id === id);
    if (!n) return id == null ? py('None') : document.createTextNode(id);
    const a = el('a', { textContent: nodeName(n), tabIndex: 0 });
    a.dataset.id = id;
    const go = () => (onNavigate ? onNavigate(id) : api.show(n, graph));
    a.addEventListener('click', go);
    a.addEventListener('keydown', (e) => e.key === 'Enter' && go());
    return a;
  }

  const links = (ids, graph) => {
    const span = el('span');
    ids.forEach((id, i) => span.append(...(i ? [', '] : []), link(id, graph)));
    return ids.length ? span : tr('inspector.none');
  };

  function rows(pairs) {
    const dl = el('dl');
    for (const [term, value] of pairs) {
      if (value === undefined) continue;
      dl.append(el('dt', { textContent: term }), el('dd', {}, value));
    }
    return dl;
  }

  const pre = (text) => el('pre', { textContent: text ?? 'None' });

  function sharing(node, graph) {
    if (!node.storage) return [];
    return graph.nodes.filter((m) => m.id !== node.id && m.storage === node.storage).map((m) => m.id);
  }

  function tensorRows(n, graph) {
    const produced = graph.nodes.find((m) => m.id === n.grad_fn);
    return [
      [tr('inspector.names'), n.names?.length ? n.names.join(', ') : tr('inspector.unnamed')],
      [tr('inspector.value'), pre(n.value)],
      [tr('inspector.grad'), pre(n.grad)],
      ['grad_fn', produced ? link(produced.id, graph) : py('None')],
      ['is_leaf', pyBool(n.is_leaf)],
      ['requires_grad', pyBool(n.requires_grad)],
      ['retains_grad', n.retains_grad ? py('True') : undefined],
      ['_version', String(n.version)],
      [tr('inspector.shape'), shapeText(n.shape)],
      [tr('inspector.dtype'), `torch.${n.dtype}`],
      [tr('inspector.view'), n.is_view ? py('True') : undefined],
      [tr('inspector.storage'), links(sharing(n, graph), graph)],
    ];
  }

  function functionRows(n, graph) {
    const produces = graph.nodes.filter((m) => m.kind === 'tensor' && m.grad_fn === n.id).map((m) => m.id);
    const variable = graph.links.find((l) => l.target === n.id && l.kind === 'variable')?.source;
    const savedList = el('ul');
    for (const sid of n.saved ?? []) {
      const s = graph.nodes.find((m) => m.id === sid);
      const versions = s.freed || n.freed ? tr('graph.freed')     // (n.freed: released at the step shown)
        : `v${s.saved_version}${s.stale ? ` → v${s.version}` : ''}`;
      savedList.append(el('li', {}, link(sid, graph), ` ${shapeText(s.shape)} ${versions}`,
        s.stale ? el('span', { className: 'gi-stale', textContent: ` ${tr('graph.stale')}` }) : null));
    }
    const values = Object.entries(n.saved_values ?? {});
    const nextList = el('ul');
    for (const [fid, nr] of n.next ?? []) {
      nextList.append(el('li', {}, '(', fid ? link(fid, graph) : py('None'), `, ${nr})`));
    }
    return [
      [tr('inspector.variable'), variable ? link(variable, graph) : undefined],
      [tr('inspector.produces'), produces.length ? links(produces, graph) : undefined],
      [tr('inspector.savedTensors'), n.saved?.length ? savedList : undefined],
      [tr('inspector.savedValues'), values.length ? pre(values.map(([k, v]) => `${k} = ${v}`).join('\n')) : undefined],
      [tr('inspector.next'), n.next?.length ? nextList : '()'],
      ['', n.hidden_inputs ? tr('inspector.hidden', { n: n.hidden_inputs }) : undefined],
      ['', n.freed ? tr('inspector.freed') : undefined],
    ];
  }

  function savedRows(n, graph) {
    const owner = graph.nodes.find((m) => m.id === n.owner);
    return [
      [tr('inspector.owner'), link(n.owner, graph)],
      [tr('inspector.value'), n.freed ? tr('inspector.freed') : pre(n.value)],
      [tr('inspector.shape'), shapeText(n.shape)],
      [tr('inspector.dtype'), n.dtype ? `torch.${n.dtype}` : undefined],
      [tr('inspector.savedVersion'), String(n.saved_version)],
      [tr('inspector.versionNow'), n.version == null ? undefined : String(n.version)],
      ['', n.stale ? el('span', { className: 'gi-stale', textContent: tr('inspector.stale', { owner: owner?.label ?? '' }) }) : undefined],
      ['', n.is_output ? tr('inspector.isOutput') : undefined],
      [tr('inspector.sameAs'), n.tensor ? link(n.tensor, graph) : undefined],
      [tr('inspector.storage'), links(sharing(n, graph), graph)],
    ];
  }

  const api = {
    /** Show the details of node (a node of the node-link graph). */
    show(node, graph) {
      shown = { node, graph };
      if (!node) return api.clear();
      const kind = tr(`inspector.${node.kind}`);
      const body = node.kind === 'tensor' ? tensorRows(node, graph)
        : node.kind === 'function' ? functionRows(node, graph) : savedRows(node, graph);
      const close = el('button', { type: 'button', className: 'gi-close', textContent: '×', title: tr('inspector.close') });
      close.dataset.testid = 'inspector-close';
      close.addEventListener('click', () => api.clear());
      root.replaceChildren(close, el('h3', { textContent: `${nodeName(node)} · ${kind}` }), rows(body));
      root.dataset.id = node.id;
      root.dataset.kind = node.kind;
      root.hidden = false;
      onChange?.(true);
    },
    /** The id of the node shown, or null while closed. */
    get shownId() {
      return shown?.node?.id ?? null;
    },
    /** Hide the inspector. */
    clear() {
      shown = null;
      root.replaceChildren();
      const closing = !root.hidden;
      root.hidden = true;
      delete root.dataset.id;
      if (closing) onChange?.(false);
    },
  };
  onLangChange(() => shown && api.show(shown.node, shown.graph));
  // Escape closes it, unless something else wanted the key (the editor's search panel, an autocompletion).
  document.addEventListener('keydown', (e) => {
    if (e.key === 'Escape' && !root.hidden && !e.defaultPrevented && !e.target.closest?.('.cm-editor')) api.clear();
  });
  return api;
}
