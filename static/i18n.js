// Translations for the page: English and Simplified Chinese, chosen from storage or the browser.

export const LANGS = ['en', 'zh-CN'];
const LANG_NAMES = { en: 'English', 'zh-CN': '简体中文' };
const STORAGE_KEY = 'playground.lang';

const strings = { en: {}, 'zh-CN': {} };
const listeners = new Set();
let lang = initialLang();

/** Map any language tag onto one we have: any Chinese variant is zh-CN, English is en, else null. */
export function normalizeLang(tag) {
  const lower = String(tag || '').toLowerCase();
  if (lower.startsWith('zh')) return 'zh-CN';
  if (lower.startsWith('en')) return 'en';
  return null;
}

/** The language saved by the user, else the first one the browser prefers that we have, else English. */
function initialLang() {
  try {
    const saved = normalizeLang(globalThis.localStorage?.getItem(STORAGE_KEY));
    if (saved) return saved;
  } catch { /* storage can be blocked; fall through to the browser's choice */ }
  const prefs = globalThis.navigator?.languages?.length ? navigator.languages : [globalThis.navigator?.language];
  for (const tag of prefs) {
    const found = normalizeLang(tag);
    if (found) return found;
  }
  return 'en';
}

/** Add a module's strings: {en: {key: text}, 'zh-CN': {key: text}}. */
export function registerStrings(table) {
  for (const [code, entries] of Object.entries(table)) Object.assign(strings[code] ??= {}, entries);
}

/** The text for key in the current language (or in lang; English if missing), with {name} placeholders filled. */
export function t(key, params = {}, inLang = lang) {
  const text = strings[inLang]?.[key] ?? strings.en[key] ?? key;
  return text.replace(/\{(\w+)\}/g, (whole, name) => (name in params ? String(params[name]) : whole));
}

export function getLang() {
  return lang;
}

/** Switch language: remember it, set <html lang>, retranslate the page and tell the listeners. */
export function setLang(next) {
  const code = normalizeLang(next) ?? 'en';
  try { globalThis.localStorage?.setItem(STORAGE_KEY, code); } catch { /* not remembered, still switched */ }
  if (code === lang) return;
  lang = code;
  if (globalThis.document) {
    document.documentElement.lang = lang;
    applyI18n(document);
  }
  for (const cb of listeners) cb(lang);
}

const ATTRIBUTES = [
  ['data-i18n-title', 'title'],
  ['data-i18n-placeholder', 'placeholder'],
  ['data-i18n-aria-label', 'aria-label'],
];

/** Translate root and everything under it that carries data-i18n (text) or data-i18n-<attribute>. */
export function applyI18n(root = document) {
  const all = (selector) => [...(root.matches?.(selector) ? [root] : []), ...root.querySelectorAll(selector)];
  for (const el of all('[data-i18n]')) el.textContent = t(el.dataset.i18n);
  for (const [source, target] of ATTRIBUTES) {
    for (const el of all(`[${source}]`)) el.setAttribute(target, t(el.getAttribute(source)));
  }
}

/** Call cb(lang) after every language switch; returns a function that stops it. */
export function onLangChange(cb) {
  listeners.add(cb);
  return () => listeners.delete(cb);
}

/** Drive a <select> (values en, zh-CN) and keep it in step with setLang. */
export function bindLangSelect(select) {
  if (!select.options.length) {
    for (const code of LANGS) select.add(new Option(LANG_NAMES[code], code));
  }
  select.value = lang;
  select.setAttribute('data-i18n-aria-label', 'ui.language');
  select.setAttribute('aria-label', t('ui.language'));
  select.addEventListener('change', () => setLang(select.value));
  onLangChange((code) => { select.value = code; });
}

if (globalThis.document) document.documentElement.lang = lang;

// Strings every part of the page shares; modules register their own with registerStrings.
registerStrings({
  en: {
    'app.title': 'Autograd Playground',
    'ui.language': 'Language',
    'ui.run': 'Run',
    'ui.run.title': 'Run the code (Ctrl+Enter)',
    'ui.stop': 'Stop',
    'ui.stop.title': 'Stop the running code',
    'ui.share': 'Share',
    'ui.share.title': 'Copy a link that holds this code',
    'ui.share.copied': 'Link copied to the clipboard.',
    'ui.share.ready': 'Link ready: copy it from the address bar.',
    'ui.editor': 'Code editor',
    'ui.output': 'Output',
    'ui.output.empty': 'What your code prints appears here. Press Run (Ctrl+Enter).',
    'ui.graph': 'Graph',
    'ui.inspector': 'Inspector',
    'ui.experiments': 'Experiments',
    'ui.explanation': 'Explanation',
    'ui.close': 'Close',
    'ui.export': 'Export',
    'ui.fit': 'Fit',
    'ui.zoom_in': 'Zoom in',
    'ui.zoom_out': 'Zoom out',
    'engine.loading': 'Loading Python, numpy and the engine…',
    'engine.ready': 'Ready',
    'engine.running': 'Running…',
    'engine.error': 'The Python runtime failed to start.',
    'engine.progress': 'Loading {stage}… {percent}%',
  },
  'zh-CN': {
    'app.title': 'Autograd 演练场',
    'ui.language': '语言',
    'ui.run': '运行',
    'ui.run.title': '运行代码（Ctrl+Enter）',
    'ui.stop': '停止',
    'ui.stop.title': '停止正在运行的代码',
    'ui.share': '分享',
    'ui.share.title': '复制包含这段代码的链接',
    'ui.share.copied': '链接已复制到剪贴板。',
    'ui.share.ready': '链接已生成：请从地址栏复制。',
    'ui.editor': '代码编辑器',
    'ui.output': '输出',
    'ui.output.empty': '代码打印的内容会显示在这里。按“运行”（Ctrl+Enter）。',
    'ui.graph': '计算图',
    'ui.inspector': '检查器',
    'ui.experiments': '实验',
    'ui.explanation': '解释',
    'ui.close': '关闭',
    'ui.export': '导出',
    'ui.fit': '适应窗口',
    'ui.zoom_in': '放大',
    'ui.zoom_out': '缩小',
    'engine.loading': '正在加载 Python、numpy 和引擎……',
    'engine.ready': '就绪',
    'engine.running': '运行中……',
    'engine.error': 'Python 运行环境启动失败。',
    'engine.progress': '正在加载 {stage}…… {percent}%',
  },
});
