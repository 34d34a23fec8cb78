// Explanation cards: for each experiment and for every autograd error, in the learner's language.

import { ERROR_CARDS, getExperiment } from './experiments.js';
import { getLang, onLangChange, registerStrings, t } from './i18n.js';

registerStrings({
  en: {
    'explain.error': 'Error explained',
    'explain.experiment': 'Experiment',
    'explain.what': 'What happened',
    'explain.why': 'Why',
    'explain.fix': 'How to fix it',
    'explain.look': 'Look at the graph',
    'explain.show': 'Show in the graph',
  },
  'zh-CN': {
    'explain.error': '错误解读',
    'explain.experiment': '实验',
    'explain.what': '发生了什么',
    'explain.why': '为什么',
    'explain.fix': '怎么改',
    'explain.look': '看计算图',
    'explain.show': '在图中标出',
  },
});

const fill = (text, params) => text.replace(/\{(\w+)\}/g, (whole, name) => params[name] ?? whole);

/** A card in one language: {id, kind, lang, title, what, why, fix, fixCode, look, highlight, unsolved}. */
function localize(entry, kind, lang, params = {}) {
  const pick = (byLang) => byLang?.[lang] ?? byLang?.en;
  const explain = pick(entry.explain) ?? {};
  const text = (value) => (value == null ? null : fill(value, params));
  const highlight = entry.highlight
    .map((spot) => Object.fromEntries(Object.entries(spot).map(([k, v]) => [k, typeof v === 'string' ? fill(v, params) : v])))
    .filter((spot) => !Object.values(spot).some((v) => typeof v === 'string' && v.includes('{')));
  return {
    id: entry.id, kind, lang, unsolved: entry.unsolved ?? null,
    title: text(pick(entry.title)), what: text(explain.what), why: text(explain.why), fix: text(explain.fix),
    fixCode: explain.fix_code ?? null, look: text(pick(entry.look)), highlight,
  };
}

/** The card for an error as the runner reports it ({type, message}), or null when no card knows it. */
export function explainError(error, lang = getLang()) {
  if (!error?.message) return null;
  for (const card of ERROR_CARDS) {
    if (error.type && card.type !== error.type) continue;
    const match = card.regex.exec(error.message);
    if (match) return localize(card, 'error', lang, match.groups ?? {});
  }
  return null;
}

/** The card of a gallery experiment, or null for an unknown id. */
export function explainExperiment(id, lang = getLang()) {
  const experiment = getExperiment(id);
  return experiment ? localize(experiment, 'experiment', lang) : null;
}

/** A CSS selector for the graph nodes a highlight spot ({kind, label, stale, role}) points at. */
export function highlightSelector(spot) {
  const attr = (name, value) => `[data-${name}="${CSS.escape(String(value))}"]`;
  let selector = '[data-testid="graph-node"]';
  if (spot.kind) selector += attr('kind', spot.kind);
  if (spot.label) selector += attr('label', spot.label);
  if (spot.role) selector += attr('role', spot.role);
  if (spot.stale) selector += attr('stale', 'true');
  return selector;
}

/**
 * Mark the graph nodes a card points at with data-highlight="true" (clearing older marks); returns how many.
 * A spot with `names` (an error's spot marked on_line: the names on the line that raised) keeps to the nodes so
 * named, when the graph has any: `a += 2` points at `a`, not at every leaf.
 */
export function applyHighlight(root, highlight = []) {
  for (const el of root.querySelectorAll('[data-highlight]')) el.removeAttribute('data-highlight');
  let count = 0;
  for (const spot of highlight) {
    let found = [...root.querySelectorAll(highlightSelector(spot))];
    const named = spot.names ? found.filter((el) => spot.names.includes(el.dataset.label)) : [];
    if (named.length) found = named;
    for (const el of found) {
      el.setAttribute('data-highlight', 'true');
      count += 1;
    }
  }
  return count;
}

/** A paragraph where `backticked` pieces become <code>. */
function richText(tag, text) {
  const el = document.createElement(tag);
  text.split('`').forEach((piece, i) => {
    if (!piece) return;
    if (i % 2) {
      const code = document.createElement('code');
      code.textContent = piece;
      el.append(code);
    } else {
      el.append(piece);
    }
  });
  return el;
}

function section(headingKey, lang, ...children) {
  const el = document.createElement('section');
  const heading = document.createElement('h4');
  heading.textContent = t(headingKey, {}, lang);
  el.append(heading, ...children);
  return el;
}

/** One card as an <article data-testid="explanation" data-card=id data-kind=error|experiment>. */
function cardElement(card, onHighlight) {
  const article = document.createElement('article');
  article.className = `explain-card explain-${card.kind}`;
  article.setAttribute('data-testid', 'explanation');
  article.dataset.card = card.id;
  article.dataset.kind = card.kind;
  article.lang = card.lang;
  const badge = document.createElement('span');
  badge.className = 'explain-badge';
  badge.textContent = t(`explain.${card.kind}`, {}, card.lang);
  const title = richText('h3', card.title);
  title.prepend(badge);
  article.append(title);
  article.append(section('explain.what', card.lang, richText('p', card.what)));
  article.append(section('explain.why', card.lang, richText('p', card.why)));
  const fix = section('explain.fix', card.lang, richText('p', card.fix));
  if (card.fixCode) {
    const pre = document.createElement('pre');
    const code = document.createElement('code');
    code.textContent = card.fixCode;
    pre.append(code);
    fix.append(pre);
  }
  article.append(fix);
  if (card.look) article.append(section('explain.look', card.lang, richText('p', card.look)));
  if (card.highlight.length) {
    const button = document.createElement('button');
    button.type = 'button';
    button.className = 'explain-show';
    button.setAttribute('data-testid', 'show-in-graph');
    button.textContent = t('explain.show', {}, card.lang);
    button.addEventListener('click', () => onHighlight(card.highlight));
    article.append(button);
  }
  return article;
}

/** Replace container's content with the card (or cards); a null card just clears it. */
export function renderCard(container, card, { onHighlight = (spots) => applyHighlight(document, spots) } = {}) {
  const cards = (Array.isArray(card) ? card : [card]).filter(Boolean);
  container.replaceChildren(...cards.map((c) => cardElement(c, onHighlight)));
  container.hidden = cards.length === 0;
}

/**
 * The page's explanation pane: show({experimentId, error}) after a run's graph is on screen; it renders the cards,
 * highlights the graph nodes they point at, and re-renders when the language changes.
 */
export function createExplainPanel(container, { graphRoot = document, onHighlight } = {}) {
  let state = { experimentId: null, error: null, errorLine: '' };
  const highlight = onHighlight ?? ((spots) => applyHighlight(graphRoot, spots));
  /** The error's card, its on_line spots given the names on the line that raised. */
  const errorCard = () => {
    const card = state.error && explainError(state.error);
    if (!card) return null;
    const names = state.errorLine.match(/[A-Za-z_]\w*/g) ?? [];
    return { ...card, highlight: card.highlight.map((spot) => (spot.on_line ? { ...spot, names } : spot)) };
  };
  // The experiment's own card first: it answers the question the experiment asks, error included.
  const cards = () => [state.experimentId ? explainExperiment(state.experimentId) : null, errorCard()].filter(Boolean);
  const draw = () => renderCard(container, cards(), { onHighlight: highlight });
  onLangChange(draw);
  return {
    /** errorLine: the code of the line that raised error (spots marked on_line point at the names on it). */
    show({ experimentId = null, error = null, errorLine = '' } = {}) {
      state = { experimentId, error, errorLine };
      draw();
      const spots = cards().flatMap((c) => c.highlight);
      highlight(spots);
      return spots;
    },
    clear() {
      this.show();
    },
  };
}
