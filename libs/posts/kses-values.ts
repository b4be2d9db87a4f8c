/**
 * The reference's checks of single attribute values, on values already decoded by the HTML parser (as a
 * browser reads them): wp_kses_bad_protocol (URL schemes), safecss_filter_attr (inline styles) and the
 * per-attribute rules of the allow lists. The lists themselves are in kses-rules.ts.
 */
import {
  ALLOWED_PROTOCOLS,
  CSS_GRADIENT_PROPERTIES,
  CSS_URL_PROPERTIES,
  CSS_URL_PROTOCOLS,
  CSS_VALUE_FUNCTIONS,
  SAFE_STYLE_PROPERTIES,
  type AttrRule,
} from './kses-rules';
import { ksesBadProtocol, ksesNoNull } from '../html/bad-protocol';

export const noNull = (s: string): string => ksesNoNull(s, 'keep');

const PROTOCOL_SETS = new Map<readonly string[], ReadonlySet<string>>();

/**
 * wp_kses_bad_protocol (libs/html/bad-protocol.ts, the one implementation, which esc_url_raw uses too): a
 * scheme that is not allowed is taken off, repeatedly (`javascript:javascript:alert(1)` → `alert(1)`); a
 * URL still changing after six rounds becomes empty. `feed:` wraps another URL, whose scheme is checked
 * as well. The value here is already decoded by the parser; references it still spells are read again,
 * which can only remove more.
 */
export function badProtocol(value: string, protocols: readonly string[] = ALLOWED_PROTOCOLS): string {
  let allowed = PROTOCOL_SETS.get(protocols);
  if (!allowed) PROTOCOL_SETS.set(protocols, (allowed = new Set(protocols)));
  return ksesBadProtocol(value, allowed);
}

const FUNCTION_START = new RegExp(`\\b(?:${CSS_VALUE_FUNCTIONS.join('|')})\\(`, 'g');

/**
 * The text with every `name(...)` of the value functions removed, parentheses balanced, nested ones
 * too. The pairs of parentheses are found in one pass, so any text costs linear time.
 */
function withoutFunctions(css: string): string {
  if (!css.includes('(')) return css;
  const closing = new Map<number, number>();
  const open: number[] = [];
  for (let i = 0; i < css.length; i++) {
    if (css[i] === '(') open.push(i);
    else if (css[i] === ')') {
      const start = open.pop();
      if (start !== undefined) closing.set(start, i);
    }
  }
  let out = '';
  let at = 0;
  for (const m of css.matchAll(FUNCTION_START)) {
    const end = closing.get(m.index + m[0].length - 1);
    if (m.index < at || end === undefined) continue;
    out += css.slice(at, m.index);
    at = end + 1;
  }
  return out + css.slice(at);
}

/**
 * What no declaration may hold anywhere, inside functions too (a rule beyond the reference's, which
 * does not look inside var() or calc()): escapes, comments, IE expressions and behaviours, bindings,
 * imports, and a URL scheme other than http(s).
 */
function unsafeAnywhere(value: string): boolean {
  const v = value.toLowerCase();
  if (/\\|\/\*|expression\s*\(|behavior|-moz-binding|@import/.test(v)) return true;
  for (const m of v.matchAll(/(?:^|[^a-z0-9+.-])([a-z][a-z0-9+.-]*)\s*:/g)) if (!CSS_URL_PROTOCOLS.includes(m[1])) return true;
  return false;
}

/** The URLs of `url(...)` in a declaration's value are web URLs; returns the value without them, or null. */
function withoutUrls(value: string, test: string): string | null {
  let out = test;
  for (const match of value.match(/url\([^)]+\)/g) ?? []) {
    const url = /^url\(\s*(['"]?)(.*)\1\s*\)$/.exec(match)?.[2]?.trim();
    if (!url || badProtocol(url, CSS_URL_PROTOCOLS) !== url) return null;
    out = out.split(match).join('');
  }
  return out;
}

const GRADIENT = /^(repeating-)?(linear|radial|conic)-gradient\(([^()]|rgba?\([^()]*\))*\)$/;

/** One declaration (`color: red`), kept or not, as safecss_filter_attr decides. */
function safeDeclaration(item: string): boolean {
  const colon = item.indexOf(':');
  if (colon < 0) return !/[\\(&=}]|\/\*/.test(item);
  const property = item.slice(0, colon).trim();
  const value = item.slice(colon + 1);
  const custom = SAFE_STYLE_PROPERTIES.has('--*') && /^--[a-zA-Z0-9-_]+$/.test(property);
  if (!custom && !SAFE_STYLE_PROPERTIES.has(property)) return false;
  const trimmed = value.trim();
  const urls = custom ? trimmed.startsWith('url(') : CSS_URL_PROPERTIES.has(property);
  const gradient = custom ? trimmed.includes('-gradient(') : CSS_GRADIENT_PROPERTIES.has(property);
  let test: string | null = item;
  if (urls) test = withoutUrls(value, test);
  if (test === null) return false;
  if (gradient && GRADIENT.test(trimmed)) test = test.split(trimmed).join('');
  test = withoutFunctions(test);
  return !/[\\(&=}]|\/\*/.test(test) && !unsafeAnywhere(value);
}

/** safecss_filter_attr: the declarations of an inline style that are allowed, joined by `;`. */
export function safecssFilterAttr(css: string): string {
  const kept: string[] = [];
  for (const raw of noNull(css)
    .replace(/[\n\r\t]/g, '')
    .trim()
    .split(';')) {
    const item = raw.trim();
    if (item !== '' && safeDeclaration(item)) kept.push(item);
  }
  return kept.join(';');
}

/** _wp_kses_allow_pdf_objects: a web URL of a PDF, without query or fragment. */
function pdfUrl(url: string): boolean {
  return !url.includes('?') && !url.includes('#') && url.endsWith('.pdf') && /^https?:\/\/[^/]+\//i.test(url);
}

/** wp_kses_check_attr_val for the rules an allow list gives one attribute. */
export function passesRule(rule: AttrRule, value: string): boolean {
  if (rule.valueless === 'y' && value !== '') return false;
  if (rule.valueless === 'n' && value === '') return false;
  if (rule.values && !rule.values.includes(value.toLowerCase())) return false;
  if (rule.check === 'pdf' && !pdfUrl(value)) return false;
  return true;
}
