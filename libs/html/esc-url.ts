/**
 * The reference's esc_url_raw (sanitize_url): the form a URL is stored in. Characters a URL cannot hold
 * are dropped (quotes, angle brackets, braces, back-ticks, control characters; spaces become `%20`),
 * encoded line breaks are removed outside `mailto:` links, a bare host gets `http://`, square brackets
 * after the host are percent-encoded, and a URL whose scheme is not an allowed protocol (`javascript:`,
 * `data:`, `vbscript:`, in any spelling a browser would read) becomes ''. Relative URLs stay relative.
 */
import { ALLOWED_PROTOCOLS } from '../posts/kses';
import { ksesBadProtocol, phpTrimStart } from './bad-protocol';

const PROTOCOLS: ReadonlySet<string> = new Set(ALLOWED_PROTOCOLS);

/** _deep_replace: removes every `search` string until none is left (`%0%0dd` loses both). */
function deepRemove(text: string, search: RegExp): string {
  let out = text;
  while (search.test(out)) out = out.replace(search, '');
  return out;
}

/** The scheme, user, password, host and port of a URL (what the reference's bracket encoding leaves alone). */
const FRONT = /^(?:[a-z][a-z0-9+.-]*:)?(?:\/\/[^/?#]*)?/i;

/** esc_url_raw / sanitize_url. */
export function escUrlRaw(url: string, protocols: ReadonlySet<string> = PROTOCOLS): string {
  if (url === '') return url;
  let u = phpTrimStart(url)
    .replace(/ /g, '%20')
    .replace(/[^a-z0-9\-~+_.?#=!&;,/:%@$|*'()[\]\u0080-\uffff]/gi, '');
  if (u === '') return u;
  if (!/^mailto:/i.test(u)) u = deepRemove(u, /%0[da]/gi);
  u = u.replace(/;\/\//g, '://');
  if (!u.includes(':') && !['/', '#', '?'].includes(u[0]) && !/^[a-z0-9-]+?\.php/i.test(u)) u = `http://${u}`;
  if (/[[\]]/.test(u)) {
    const front = FRONT.exec(u)?.[0] ?? '';
    u = front + u.slice(front.length).replace(/\[/g, '%5B').replace(/\]/g, '%5D');
  }
  if (u[0] === '/') return u;
  const good = ksesBadProtocol(u, protocols);
  return good.toLowerCase() === u.toLowerCase() ? good : '';
}
