/**
 * The reference's wp_kses_bad_protocol: a URL keeps its scheme only when the scheme is an allowed
 * protocol. The scheme is read the way a browser would read it: entity-encoded colons (`&#58;`,
 * `&#x3a;`, `&colon;`, with or without their semicolon), entity-encoded letters (`&#106;avascript`),
 * white space and control characters inside it all count. A scheme that is not allowed is cut off,
 * again and again (`javascript:javascript:`), and a value that still changes after six rounds is
 * emptied. `feed:` may wrap one other allowed URL (at most twice).
 */

// eslint-disable-next-line no-control-regex -- the control characters are what is removed
const CONTROL = /[\x00-\x08\x0B\x0C\x0E-\x1F]/;
// eslint-disable-next-line no-control-regex -- the control characters are what is removed
const CONTROLS = /[\x00-\x08\x0B\x0C\x0E-\x1F]/g;

/**
 * wp_kses_no_null: control characters (bar tab, line feed and carriage return) go, and `\0` sequences
 * too unless `slashZero` is 'keep' (as wp_kses keeps them in a whole text).
 */
export function ksesNoNull(text: string, slashZero: 'keep' | 'remove' = 'remove'): string {
  const out = CONTROL.test(text) ? text.replace(CONTROLS, '') : text;
  return slashZero === 'keep' ? out : out.replace(/\\+0+/g, '');
}

/** wp_kses_decode_entities: numeric character references to the characters they name (as PHP's chr, modulo 256). */
function decodeNumericEntities(text: string): string {
  return text
    .replace(/&#(\d+);/g, (_, n: string) => String.fromCharCode(Number(n) % 256))
    .replace(/&#[Xx]([0-9A-Fa-f]+);/g, (_, h: string) => String.fromCharCode(parseInt(h, 16) % 256));
}

/** PHP's trim: only spaces, tabs, line breaks, NUL and vertical tabs. */
// eslint-disable-next-line no-control-regex -- PHP's trim removes NUL and vertical tabs too
export const phpTrim = (s: string): string => s.replace(/^[ \t\n\r\0\x0B]+|[ \t\n\r\0\x0B]+$/g, '');
/** PHP's ltrim. */
// eslint-disable-next-line no-control-regex -- PHP's ltrim removes NUL and vertical tabs too
export const phpTrimStart = (s: string): string => s.replace(/^[ \t\n\r\0\x0B]+/, '');

/** wp_kses_bad_protocol_once2: the scheme with its colon when allowed, else nothing. */
function schemeOf(scheme: string, allowed: ReadonlySet<string>): string {
  const s = ksesNoNull(decodeNumericEntities(scheme).replace(/\s/g, '')).toLowerCase();
  return allowed.has(s) ? `${s}:` : '';
}

/** wp_kses_bad_protocol_once: one round of cutting a scheme that is not allowed. */
function badProtocolOnce(content: string, allowed: ReadonlySet<string>, count = 1): string {
  // A colon entity without its semicolon still reads as a colon.
  const text = content.replace(/(&#0*58(?![;0-9])|&#x0*3a(?![;a-f0-9]))/gi, '$1;');
  const m = /:|&#0*58;|&#x0*3a;|&colon;/i.exec(text);
  if (!m) return text;
  const head = text.slice(0, m.index);
  if (head.includes('/?')) return text;
  let rest = phpTrim(text.slice(m.index + m[0].length));
  const protocol = schemeOf(head, allowed);
  if (protocol === 'feed:') {
    if (count > 2) return '';
    rest = badProtocolOnce(rest, allowed, count + 1);
    if (rest === '') return rest;
  }
  return protocol + rest;
}

/** wp_kses_bad_protocol: the value with every scheme that is not in `allowed` removed ('' when that does not settle). */
export function ksesBadProtocol(content: string, allowed: ReadonlySet<string>): string {
  let text = ksesNoNull(content);
  if ((text.startsWith('https://') && allowed.has('https')) || (text.startsWith('http://') && allowed.has('http'))) return text;
  let before: string;
  let rounds = 0;
  do {
    before = text;
    text = badProtocolOnce(text, allowed);
  } while (before !== text && ++rounds < 6);
  return before !== text ? '' : text;
}
