// The CodeMirror 6 pieces the page uses, bundled by build.py into static/vendor/codemirror.js.
export { basicSetup } from 'codemirror';
export { EditorView, keymap } from '@codemirror/view';
export { EditorState, Compartment } from '@codemirror/state';
export { indentWithTab } from '@codemirror/commands';
export { indentUnit } from '@codemirror/language';
export { python } from '@codemirror/lang-python';
export { linter, lintGutter, setDiagnostics } from '@codemirror/lint';
