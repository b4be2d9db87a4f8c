/**
 * The markup of an untrusted provider (reference: wp_filter_oembed_result), read with a strict
 * allowlist: it is kept only when it holds exactly one iframe with an http(s) source, optionally after
 * a fallback blockquote of text and links. Everything is rebuilt from what was read (nothing of the
 * input is copied through), scripts and every other element are dropped, and the iframe is sandboxed
 * and tied to its blockquote by a secret. Anything else gives `false`, as the reference does.
 */
import { escapeHtml } from '#libs/html/escape';
import { embedSecret } from './embed';
import { TooDeepError, attributeOf, childrenOf, elementsOf, isElement, isText, parseHtmlFragment, type HtmlChild, type HtmlElement } from '#libs/html/parse';

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

/** Elements whose inside is never provider content: script and style text, what shows without scripts, templates. */
const INERT = new Set(['script', 'style', 'noscript', 'template']);

/** The inside of a blockquote as text and links only. */
function readBlockquote(quote: HtmlElement): string {
  let inner = '';
  const work: Array<HtmlChild | string> = [...quote.childNodes].reverse();
  for (let node = work.pop(); node !== undefined; node = work.pop()) {
    if (typeof node === 'string') inner += node;
    else if (isText(node)) inner += escapeHtml(node.value);
    else if (isElement(node) && !INERT.has(node.tagName)) {
      if (node.tagName === 'a') {
        const given = attributeOf(node, 'href');
        const href = given !== undefined ? httpUrl(given) : null;
        inner += href ? `<a href="${escapeHtml(href)}">` : '<a>';
        work.push('</a>');
      }
      const children = childrenOf(node);
      for (let i = children.length - 1; i >= 0; i--) work.push(children[i]);
    }
  }
  return inner;
}

export function sanitizeEmbedHtml(html: string, secret: string = embedSecret()): string | false {
  let fragment;
  try {
    fragment = parseHtmlFragment(html);
  } catch (e) {
    if (e instanceof TooDeepError) return false;
    throw e;
  }
  let blockquote: string | null = null;
  let iframe: HtmlElement | null = null;
  // Blockquotes are read as a whole (text and links), so nothing inside one counts as the frame.
  for (const el of elementsOf(fragment, new Set([...INERT, 'blockquote']))) {
    if (el.tagName === 'iframe') {
      if (iframe) return false;
      iframe = el;
    } else if (el.tagName === 'blockquote' && !iframe && blockquote === null) {
      blockquote = readBlockquote(el);
    }
  }
  if (!iframe) return false;
  const given = attributeOf(iframe, 'src');
  const src = given !== undefined ? httpUrl(given) : null;
  if (!src) return false;
  let attrs = `src="${escapeHtml(`${src}#?secret=${secret}`)}" data-secret="${secret}"`;
  for (const [name, ok] of Object.entries(IFRAME_ATTRS)) {
    const value = attributeOf(iframe, name);
    if (value !== undefined && ok(value)) attrs += ` ${name}="${escapeHtml(value)}"`;
  }
  // With a blockquote to fall back on, the frame stays hidden until it reports in (as the reference does).
  const hidden = blockquote !== null ? ' style="position: absolute; visibility: hidden;"' : '';
  const quote = blockquote !== null ? `<blockquote class="wp-embedded-content" data-secret="${secret}">${blockquote}</blockquote>` : '';
  return `${quote}<iframe class="wp-embedded-content" sandbox="allow-scripts" security="restricted"${hidden} ${attrs}></iframe>`;
}
