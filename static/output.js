// The output pane: what the code printed and its error, in order, as plain text with a style per kind.

import { registerStrings, t } from './i18n.js';

registerStrings({
  en: { 'output.omitted': '... {n} more lines ...', 'output.omitted.one': '... 1 more line ...' },
  'zh-CN': { 'output.omitted': '……中间省略了 {n} 行……', 'output.omitted.one': '……中间省略了 1 行……' },
});

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

const LIVE_MS = 100;  // how often printed text is drawn while the code runs

/**
 * Output of a run in progress, shown as it is printed: pieces are queued and drawn every LIVE_MS, each stream's run
 * of pieces as one text node (a loop printing thousands of lines costs a few layouts; a run shorter than that draws
 * only its result). The first piece drawn replaces the previous run's output. `flush()` draws what is queued at once,
 * `cancel()` drops it (the result replaces it all); `shown` says whether anything of this run is on screen.
 */
export function liveOutput(pane) {
  let queued = [];
  let timer = 0;
  const live = {
    shown: false,
    add(stream, text) {
      const last = queued.at(-1);
      if (last?.stream === stream) last.text += text;
      else queued.push({ stream, text });
      timer ||= setTimeout(live.flush, LIVE_MS);
    },
    flush() {
      live.cancel(queued);
      if (!queued.length) return;
      if (!live.shown) {
        pane.replaceChildren();
        pane.dataset.state = 'running';
        live.shown = true;
      }
      for (const { stream, text } of queued) {
        const last = pane.lastChild;
        if (last?.className === `out-${stream}`) last.append(text);  // (a text node: no copy of what is there)
        else append(pane, `out-${stream}`, text);
      }
      queued = [];
      pane.scrollTop = pane.scrollHeight;
    },
    cancel(keep = []) {
      clearTimeout(timer);
      timer = 0;
      queued = keep;
    },
  };
  return live;
}

/** Show a runner result: stdout/stderr chunks in order, then the error (traceback trimmed to the user's code). */
export function showResult(pane, result, { internalNote = '' } = {}) {
  clearOutput(pane);
  for (const { stream, text, notice, omitted } of result.output ?? []) {
    // (the runner's count of lines dropped from the middle, in the page's language)
    const shown = omitted ? `${t(omitted === 1 ? 'output.omitted.one' : 'output.omitted', { n: omitted })}\n` : text;
    append(pane, notice ? 'out-notice' : `out-${stream}`, shown);
  }
  const error = result.error;
  if (error) {
    const text = error.traceback || `${error.type}: ${error.message}\n`;
    const block = append(pane, error.internal ? 'out-error out-internal' : 'out-error', text);
    block.dataset.errorType = error.type;
    if (error.internal && internalNote) append(pane, 'out-notice', `${internalNote}\n`);
  }
  pane.dataset.state = error ? 'error' : 'ok';
  scrollToEnd(pane);
}

/**
 * Scroll to the end, unless that hides the start of an error that fits in the pane (Traceback, the line): then to
 * where it starts. An error taller than the pane is shown from its last line's start: `RuntimeError: ...`.
 */
export function scrollToEnd(pane) {
  pane.scrollTop = pane.scrollHeight;
  const error = pane.querySelector('.out-error');
  if (!error) return;
  const top = pane.getBoundingClientRect().top + 4;
  const box = error.getBoundingClientRect();
  if (box.top >= top) return;
  if (box.height + 8 <= pane.clientHeight) {
    pane.scrollTop += box.top - top;
    return;
  }
  const text = error.firstChild;
  const at = text?.nodeType === Node.TEXT_NODE ? text.data.lastIndexOf(`\n${error.dataset.errorType}`) : -1;
  if (at < 0) return;
  const range = document.createRange();
  range.setStart(text, at + 1);
  range.setEnd(text, at + 2);
  const line = range.getBoundingClientRect().top;
  if (line < top) pane.scrollTop += line - top;
}

/** Add a line from the page itself (stopped, time limit, restarted); kind is 'notice' or 'error'. */
export function showNotice(pane, text, kind = 'notice') {
  const last = pane.lastChild?.textContent ?? '';
  if (last && !last.endsWith('\n')) append(pane, 'out-notice', '\n');
  append(pane, `out-${kind}`, `${text}\n`);
  if (kind === 'error') pane.dataset.state = 'error';
  pane.scrollTop = pane.scrollHeight;
}
