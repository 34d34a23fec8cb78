// Share links: the editor's code, deflated and base64url-encoded, in the URL fragment (#code=...).

import { registerStrings, t } from './i18n.js';

registerStrings({
  en: {
    'share.loaded': 'Code loaded from the link. Press Run to run it.',
    'share.dismiss': 'Click to close',
    'share.error.too_long': 'The link is too long to be a shared snippet; it was ignored.',
    'share.error.bad_encoding': 'The link is damaged (not valid base64url); it was ignored.',
    'share.error.bad_deflate': 'The link is damaged (its data does not decompress); it was ignored.',
    'share.error.too_large': 'The code in the link is too large; it was ignored.',
    'share.error.not_text': 'The link does not hold text code; it was ignored.',
  },
  'zh-CN': {
    'share.loaded': '已从链接载入代码。按“运行”来执行它。',
    'share.dismiss': '点击关闭',
    'share.error.too_long': '链接太长，不像是分享的代码片段，已忽略。',
    'share.error.bad_encoding': '链接已损坏（不是合法的 base64url 编码），已忽略。',
    'share.error.bad_deflate': '链接已损坏（数据无法解压），已忽略。',
    'share.error.too_large': '链接中的代码太大，已忽略。',
    'share.error.not_text': '链接中不是文本代码，已忽略。',
  },
});

export const MAX_FRAGMENT_CHARS = 64 * 1024;
export const MAX_CODE_BYTES = 256 * 1024;
const KEY = 'code';

function toBase64Url(bytes) {
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

function fromBase64Url(text) {
  const binary = atob(text.replace(/-/g, '+').replace(/_/g, '/'));
  return Uint8Array.from(binary, (c) => c.charCodeAt(0));
}

/** The fragment for code: '#code=' + base64url(deflate-raw(UTF-8)). */
export async function encodeCode(code) {
  const stream = new Blob([new TextEncoder().encode(code)]).stream().pipeThrough(new CompressionStream('deflate-raw'));
  const bytes = new Uint8Array(await new Response(stream).arrayBuffer());
  return `#${KEY}=${toBase64Url(bytes)}`;
}

/** Inflate at most limit bytes: a small hostile fragment must not expand into gigabytes. */
async function inflate(bytes, limit) {
  const reader = new Blob([bytes]).stream().pipeThrough(new DecompressionStream('deflate-raw')).getReader();
  const chunks = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.length;
    if (size > limit) {
      reader.cancel().catch(() => {});
      return null;
    }
    chunks.push(value);
  }
  const out = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    out.set(chunk, offset);
    offset += chunk.length;
  }
  return out;
}

const rejected = (reason) => ({ error: t(`share.error.${reason}`), reason });

/**
 * Read a location hash: null when it holds no shared code, {code} when it does, {error, reason} when it is broken
 * or hostile (the page shows the error as a notice and runs nothing).
 */
export async function decodeFragment(hash) {
  const fragment = String(hash ?? '').replace(/^#/, '');
  if (!fragment.startsWith(`${KEY}=`)) return null;
  if (fragment.length > MAX_FRAGMENT_CHARS) return rejected('too_long');
  const encoded = fragment.slice(KEY.length + 1);
  if (!/^[A-Za-z0-9_-]+$/.test(encoded) || encoded.length % 4 === 1) return rejected('bad_encoding');
  let compressed;
  try {
    compressed = fromBase64Url(encoded);
  } catch {
    return rejected('bad_encoding');
  }
  let bytes;
  try {
    bytes = await inflate(compressed, MAX_CODE_BYTES);
  } catch {
    return rejected('bad_deflate');
  }
  if (!bytes) return rejected('too_large');
  let code;
  try {
    code = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return rejected('not_text');
  }
  // Control characters other than tab and newlines mean binary data, not code someone typed.
  if (/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/.test(code)) return rejected('not_text');
  return { code };
}

/** The full URL that reproduces code: this page's address without its fragment, plus the code fragment. */
export async function shareLink(code, href = location.href) {
  return href.split('#')[0] + (await encodeCode(code));
}

/** A short-lived notice at the top of the page ([data-testid=notice]), used when the page gives no notify. */
export function showNotice(text, kind = 'info') {
  let box = document.querySelector('[data-testid="notice"]');
  if (!box) {
    box = document.createElement('div');
    box.setAttribute('data-testid', 'notice');
    box.setAttribute('role', 'status');
    document.body.prepend(box);
  }
  box.className = `notice notice-${kind}`;
  box.textContent = text;
  box.hidden = false;
  box.title = t('share.dismiss');
  box.onclick = () => { box.hidden = true; };      // it stays until clicked or the next run: no timer to miss it
  return box;
}

/**
 * On page load: put the code of a shared link into the editor (never run it) and tell the user; a broken link is
 * ignored with a warning. Returns what decodeFragment returned.
 */
export async function restoreSharedCode({ setCode, notify = showNotice, hash = location.hash }) {
  const result = await decodeFragment(hash);
  if (result?.code != null) {
    setCode(result.code);
    notify(t('share.loaded'), 'info');
  } else if (result?.error) {
    notify(result.error, 'warning');
  }
  return result;
}

/** Wire a Share button: put the link in the address bar and copy it to the clipboard when allowed. */
export function bindShareButton(button, { getCode, notify = showNotice }) {
  button.addEventListener('click', async () => {
    const url = await shareLink(getCode());
    history.replaceState(null, '', url);
    try {
      await navigator.clipboard.writeText(url);
      notify(t('ui.share.copied'), 'info');
    } catch {
      notify(t('ui.share.ready'), 'info');
    }
  });
}
