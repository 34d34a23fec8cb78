// The code editor: CodeMirror 6 in Python mode, Ctrl/Cmd+Enter runs, the failing line is marked.

import {
  EditorView, basicSetup, EditorState, Compartment, keymap, python, indentWithTab, indentUnit, lintGutter, setDiagnostics,
} from './vendor/codemirror.js';

/** CodeMirror's own UI text (fold markers, search and go-to-line panels, lint panel) in Simplified Chinese. */
const PHRASES = {
  en: {},
  'zh-CN': {
    'Fold line': '折叠此行', 'Unfold line': '展开此行', 'Folded lines': '已折叠', 'Unfolded lines': '已展开',
    'folded code': '折叠的代码', unfold: '展开', 'Control character': '控制字符', 'Selection deleted': '已删除选中内容',
    'Go to line': '跳到行', go: '跳转', to: '到', close: '关闭', Completions: '补全', Diagnostics: '诊断',
    'No diagnostics': '没有诊断信息', Find: '查找', Replace: '替换', next: '下一个', previous: '上一个', all: '全部',
    'match case': '区分大小写', regexp: '正则表达式', 'by word': '全词匹配', replace: '替换', 'replace all': '全部替换',
    'current match': '当前匹配', 'on line': '位于行', 'replaced $ matches': '已替换 $ 处',
    'replaced match on line $': '已替换第 $ 行的匹配',
  },
};

/** The extensions that follow the page's language: the editor's accessible name and CodeMirror's phrases. */
const localized = (label, lang) => [
  EditorView.contentAttributes.of({ 'aria-label': label }),
  EditorState.phrases.of(PHRASES[lang] ?? {}),
];

/**
 * The indentation the code already uses, for Enter and Tab to continue it: the steps by which its lines indent
 * (two spaces, as much Colab code, or a tab), else Python's four spaces.
 */
export function indentOf(code) {
  let tabs = 0;
  let two = 0;
  let four = 0;
  let prev = 0;
  for (const line of code.split('\n')) {
    if (!line.trim()) continue;
    const lead = /^[ \t]*/.exec(line)[0];
    if (lead.includes('\t')) {
      tabs += 1;
      continue;
    }
    if (lead.length - prev === 2) two += 1;
    else if (lead.length - prev === 4) four += 1;
    prev = lead.length;
  }
  if (tabs > two + four) return '\t';
  return two > four ? '  ' : '    ';
}

/** Create an editor in parent; onRun() on Ctrl/Cmd+Enter, onChange(code) after each edit. */
export function createEditor(parent, { doc = '', onRun = () => {}, onChange = () => {}, label = '', lang = 'en' } = {}) {
  let marked = false;
  const language = new Compartment();
  const indent = new Compartment();
  let unit = indentOf(doc);
  const runKey = keymap.of([{ key: 'Mod-Enter', run: () => { onRun(); return true; } }]);
  const view = new EditorView({
    parent,
    state: EditorState.create({
      doc,
      // runKey comes first so it wins over basicSetup's own Mod-Enter binding.
      extensions: [
        runKey, basicSetup, keymap.of([indentWithTab]), python(), lintGutter(),
        indent.of(indentUnit.of(unit)),
        language.of(localized(label, lang)),
        EditorView.updateListener.of((update) => {
          if (!update.docChanged) return;
          // The mark belongs to the code that failed; an edit retires it (after this update completes).
          if (marked) queueMicrotask(() => editor.clearError());
          const code = update.state.doc.toString();
          const now = indentOf(code);
          if (now !== unit) {       // (pasted code with another indentation: Enter and Tab follow it)
            unit = now;
            queueMicrotask(() => view.dispatch({ effects: indent.reconfigure(indentUnit.of(unit)) }));
          }
          onChange(code);
        }),
      ],
    }),
  });

  const editor = {
    view,
    getCode: () => view.state.doc.toString(),
    setCode(code) {
      view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: code } });
    },
    /** Underline line (1-based) as an error with message; out-of-range lines are ignored. */
    markError(line, message) {
      const { doc: text } = view.state;
      if (!line || line < 1 || line > text.lines) return;
      const { from, to } = text.line(line);
      view.dispatch(setDiagnostics(view.state, [{ from, to, severity: 'error', message }]));
      marked = true;
      view.dispatch({ effects: EditorView.scrollIntoView(from, { y: 'center' }) });
    },
    clearError() {
      if (marked) view.dispatch(setDiagnostics(view.state, []));
      marked = false;
    },
    focus: () => view.focus(),
    /** Switch the editor's accessible name and CodeMirror's own UI text to another language. */
    localize(nextLabel, nextLang) {
      view.dispatch({ effects: language.reconfigure(localized(nextLabel, nextLang)) });
    },
  };
  return editor;
}
