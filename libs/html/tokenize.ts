/**
 * A small HTML tokenizer for provider markup: tags with their attributes (quoted or not, entities
 * decoded), text, and comments; the contents of script and style are raw text, so markup inside a
 * script never reads as tags. It reads what the sanitiser and oEmbed discovery need and builds no tree.
 */

export type Token =
  | { kind: 'text'; text: string }
  | { kind: 'open'; name: string; attrs: Record<string, string>; selfClosing: boolean }
  | { kind: 'close'; name: string }
  | { kind: 'comment' };

const RAW_TEXT = new Set(['script', 'style']);
const NAMED: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: '\u00a0' };

export function decodeEntities(text: string): string {
  return text.replace(/&(#\d{1,7}|#x[0-9a-f]{1,6}|[a-z]+);/gi, (m, ref: string) => {
    if (ref[0] === '#') {
      const code = ref[1] === 'x' || ref[1] === 'X' ? parseInt(ref.slice(2), 16) : parseInt(ref.slice(1), 10);
      return code > 0 && code <= 0x10ffff && !(code >= 0xd800 && code <= 0xdfff) ? String.fromCodePoint(code) : '\ufffd';
    }
    return NAMED[ref.toLowerCase()] ?? m;
  });
}

const isSpace = (c: string) => c === ' ' || c === '\t' || c === '\n' || c === '\r' || c === '\f';

/** Reads the attributes from `i` up to the end of the tag; returns them and the index after `>`. */
function readAttributes(html: string, start: number): { attrs: Record<string, string>; end: number; selfClosing: boolean } {
  const attrs: Record<string, string> = {};
  let i = start;
  let selfClosing = false;
  while (i < html.length) {
    while (i < html.length && (isSpace(html[i]) || html[i] === '/')) {
      selfClosing = html[i] === '/';
      i++;
    }
    if (i >= html.length) break;
    if (html[i] === '>') return { attrs, end: i + 1, selfClosing };
    selfClosing = false;
    let name = '';
    while (i < html.length && !isSpace(html[i]) && html[i] !== '/' && html[i] !== '>' && !(html[i] === '=' && name !== '')) name += html[i++];
    while (i < html.length && isSpace(html[i])) i++;
    let value = '';
    if (html[i] === '=') {
      i++;
      while (i < html.length && isSpace(html[i])) i++;
      const quote = html[i];
      if (quote === '"' || quote === "'") {
        const close = html.indexOf(quote, i + 1);
        const stop = close < 0 ? html.length : close;
        value = html.slice(i + 1, stop);
        i = stop + 1;
      } else {
        while (i < html.length && !isSpace(html[i]) && html[i] !== '>') value += html[i++];
      }
    }
    const key = name.toLowerCase();
    // The first of repeated attributes wins, as in browsers.
    if (key && !(key in attrs)) attrs[key] = decodeEntities(value);
  }
  return { attrs, end: html.length, selfClosing };
}

export function tokenize(html: string): Token[] {
  const out: Token[] = [];
  let i = 0;
  let text = '';
  const flush = () => {
    if (text) out.push({ kind: 'text', text: decodeEntities(text) });
    text = '';
  };
  while (i < html.length) {
    const c = html[i];
    if (c !== '<') {
      text += c;
      i++;
      continue;
    }
    if (html.startsWith('<!--', i)) {
      flush();
      const end = html.indexOf('-->', i + 4);
      i = end < 0 ? html.length : end + 3;
      out.push({ kind: 'comment' });
      continue;
    }
    const close = /^<\/([A-Za-z][A-Za-z0-9-]*)/.exec(html.slice(i, i + 64));
    if (close) {
      flush();
      const end = html.indexOf('>', i);
      i = end < 0 ? html.length : end + 1;
      out.push({ kind: 'close', name: close[1].toLowerCase() });
      continue;
    }
    const open = /^<([A-Za-z][A-Za-z0-9-]*)/.exec(html.slice(i, i + 64));
    if (open) {
      flush();
      const name = open[1].toLowerCase();
      const { attrs, end, selfClosing } = readAttributes(html, i + open[0].length);
      out.push({ kind: 'open', name, attrs, selfClosing });
      i = end;
      if (RAW_TEXT.has(name) && !selfClosing) {
        const stop = html.toLowerCase().indexOf(`</${name}`, i);
        const raw = html.slice(i, stop < 0 ? html.length : stop);
        if (raw) out.push({ kind: 'text', text: raw });
        i = stop < 0 ? html.length : stop;
      }
      continue;
    }
    if (html.startsWith('<!', i) || html.startsWith('<?', i)) {
      flush();
      const end = html.indexOf('>', i);
      i = end < 0 ? html.length : end + 1;
      out.push({ kind: 'comment' });
      continue;
    }
    text += c;
    i++;
  }
  flush();
  return out;
}
