// The output pane: what the code printed and its error, in order, as plain text with a style per kind.

/** Empty the pane. */
export function clearOutput(pane) {
  pane.replaceChildren();
  pane.dataset.state = 'empty';
}

function append(pane, className, text) {
  const span = document.createElement('span');
  span.className = className;
  span.textContent = text;
  pane.append(span);
  return span;
}

/** Show a runner result: stdout/stderr chunks in order, then the error (traceback trimmed to the user's code). */
export function showResult(pane, result, { internalNote = '' } = {}) {
  clearOutput(pane);
  for (const { stream, text, notice } of result.output ?? []) {
    append(pane, notice ? 'out-notice' : `out-${stream}`, text);
  }
  const error = result.error;
  if (error) {
    const text = error.traceback || `${error.type}: ${error.message}\n`;
    const block = append(pane, error.internal ? 'out-error out-internal' : 'out-error', text);
    block.dataset.errorType = error.type;
    if (error.internal && internalNote) append(pane, 'out-notice', `${internalNote}\n`);
  }
  pane.dataset.state = error ? 'error' : 'ok';
  pane.scrollTop = pane.scrollHeight;
}

/** Add a line from the page itself (stopped, time limit, restarted); kind is 'notice' or 'error'. */
export function showNotice(pane, text, kind = 'notice') {
  const last = pane.lastChild?.textContent ?? '';
  if (last && !last.endsWith('\n')) append(pane, 'out-notice', '\n');
  append(pane, `out-${kind}`, `${text}\n`);
  if (kind === 'error') pane.dataset.state = 'error';
  pane.scrollTop = pane.scrollHeight;
}
