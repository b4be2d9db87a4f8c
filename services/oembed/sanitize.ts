/**
 * The markup of an untrusted provider (reference: wp_filter_oembed_result), read with a strict
 * allowlist: it is kept only when it holds exactly one iframe with an http(s) source, optionally after
 * a fallback blockquote of text and links. Everything is rebuilt from what was read (nothing of the
 * input is copied through), scripts and every other element are dropped, and the iframe is sandboxed
 * and tied to its blockquote by a secret. Anything else gives `false`, as the reference does.
 */
import { escapeHtml } from '../../libs/html/escape';
import { embedSecret } from './embed';
import { tokenize, type Token } from '../../libs/html/tokenize';

const NUMBER = /^\d{1,5}$/;
const SIZE = /^\d{1,5}%?$/;
const IFRAME_ATTRS: Record<string, (v: string) => boolean> = {
  width: (v) => SIZE.test(v),
  height: (v) => SIZE.test(v),
  frameborder: (v) => NUMBER.test(v),
  marginwidth: (v) => NUMBER.test(v),
  marginheight: (v) => NUMBER.test(v),
  scrolling: (v) => ['yes', 'no', 'auto'].includes(v.toLowerCase()),
  title: () => true,
};

/** An absolute http(s) URL, without its fragment; null for anything else (javascript:, data:, relative). */
export function httpUrl(value: string): string | null {
  try {
    const u = new URL(value.trim());
    if ((u.protocol !== 'http:' && u.protocol !== 'https:') || !u.hostname || u.username || u.password) return null;
    u.hash = '';
    return u.href;
  } catch {
    return null;
  }
}

/** Skips from an open tag to just after its matching close tag; returns the index after it. */
function skipElement(tokens: Token[], at: number, name: string): number {
  let depth = 0;
  for (let i = at; i < tokens.length; i++) {
    const t = tokens[i];
    if (t.kind === 'open' && t.name === name && !t.selfClosing) depth++;
    else if (t.kind === 'close' && t.name === name && --depth === 0) return i + 1;
  }
  return tokens.length;
}

/** The inside of a blockquote as text and links only; returns the markup and the index after it. */
function readBlockquote(tokens: Token[], at: number): { inner: string; next: number } {
  let inner = '';
  let openLinks = 0;
  let depth = 0;
  let i = at;
  for (; i < tokens.length; i++) {
    const t = tokens[i];
    if (t.kind === 'open' && t.name === 'blockquote') depth++;
    else if (t.kind === 'close' && t.name === 'blockquote') {
      if (--depth === 0) {
        i++;
        break;
      }
    } else if (t.kind === 'open' && (t.name === 'script' || t.name === 'style')) {
      i = skipElement(tokens, i, t.name) - 1;
    } else if (t.kind === 'open' && t.name === 'a' && !t.selfClosing) {
      const href = t.attrs.href !== undefined ? httpUrl(t.attrs.href) : null;
      inner += href ? `<a href="${escapeHtml(href)}">` : '<a>';
      openLinks++;
    } else if (t.kind === 'close' && t.name === 'a' && openLinks > 0) {
      inner += '</a>';
      openLinks--;
    } else if (t.kind === 'text') {
      inner += escapeHtml(t.text);
    }
  }
  inner += '</a>'.repeat(openLinks);
  return { inner, next: i };
}

export function sanitizeEmbedHtml(html: string, secret: string = embedSecret()): string | false {
  const tokens = tokenize(html);
  let blockquote: string | null = null;
  let iframe: Record<string, string> | null = null;
  for (let i = 0; i < tokens.length;) {
    const t = tokens[i];
    if (t.kind !== 'open') {
      i++;
      continue;
    }
    if (t.name === 'iframe') {
      if (iframe) return false;
      iframe = t.attrs;
      i = t.selfClosing ? i + 1 : skipElement(tokens, i, 'iframe');
    } else if (t.name === 'blockquote' && !iframe && blockquote === null && !t.selfClosing) {
      const read = readBlockquote(tokens, i);
      blockquote = read.inner;
      i = read.next;
    } else if (t.name === 'script' || t.name === 'style' || t.name === 'noscript' || t.name === 'template') {
      i = t.selfClosing ? i + 1 : skipElement(tokens, i, t.name);
    } else {
      i++;
    }
  }
  if (!iframe) return false;
  const src = iframe.src !== undefined ? httpUrl(iframe.src) : null;
  if (!src) return false;
  let attrs = `src="${escapeHtml(`${src}#?secret=${secret}`)}" data-secret="${secret}"`;
  for (const [name, ok] of Object.entries(IFRAME_ATTRS)) {
    const value = iframe[name];
    if (value !== undefined && ok(value)) attrs += ` ${name}="${escapeHtml(value)}"`;
  }
  // With a blockquote to fall back on, the frame stays hidden until it reports in (as the reference does).
  const hidden = blockquote !== null ? ' style="position: absolute; visibility: hidden;"' : '';
  const quote = blockquote !== null ? `<blockquote class="wp-embedded-content" data-secret="${secret}">${blockquote}</blockquote>` : '';
  return `${quote}<iframe class="wp-embedded-content" sandbox="allow-scripts" security="restricted"${hidden} ${attrs}></iframe>`;
}
