// The code editor: CodeMirror 6 in Python mode, Ctrl/Cmd+Enter runs, the failing line is marked.

import {
  EditorView, basicSetup, EditorState, keymap, python, indentWithTab, lintGutter, setDiagnostics,
} from './vendor/codemirror.js';

/** Create an editor in parent; onRun() on Ctrl/Cmd+Enter, onChange(code) after each edit. */
export function createEditor(parent, { doc = '', onRun = () => {}, onChange = () => {}, label = '' } = {}) {
  let marked = false;
  const runKey = keymap.of([{ key: 'Mod-Enter', run: () => { onRun(); return true; } }]);
  const view = new EditorView({
    parent,
    state: EditorState.create({
      doc,
      // runKey comes first so it wins over basicSetup's own Mod-Enter binding.
      extensions: [
        runKey, basicSetup, keymap.of([indentWithTab]), python(), lintGutter(),
        EditorView.contentAttributes.of({ 'aria-label': label }),
        EditorView.updateListener.of((update) => {
          if (!update.docChanged) return;
          // The mark belongs to the code that failed; an edit retires it (after this update completes).
          if (marked) queueMicrotask(() => editor.clearError());
          onChange(update.state.doc.toString());
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
  };
  return editor;
}
