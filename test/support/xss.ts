/**
 * Stored cross-site scripting: the probes a writer sends, and a detector of markup a browser would run
 * (a script, an event handler attribute, a `javascript:`/`data:`/`vbscript:` URL in an attribute or as
 * a URL field's value, in any spelling a browser decodes). Probes carry a marker naming who sent them
 * (`xss_author`), so a scan of the store can tell a writer's raw markup (administrators and editors keep
 * theirs, as in the reference) from markup that should have been filtered.
 */

/** The markup probe: every way in the issue (script, onerror, javascript:, entity-encoded schemes, data:, svg). */
export function markupProbe(marker: string): string {
  return (
    `<b>Bold</b><script>${marker}(1)</script><img src=x onerror=${marker}(2)>` +
    `<a href="javascript:${marker}(3)">a</a><a href="&#106;avascript:${marker}(4)">b</a>` +
    `<a href="javascript&#58;${marker}(5)">c</a><a href="data:text/html,${marker}">d</a><svg onload=${marker}(6)>`
  );
}

/** URLs that must never be stored as sent. */
export const BAD_URLS = [
  'javascript:alert(1)',
  'JaVaScRiPt:alert(1)',
  ' javascript:alert(1)',
  'data:text/html,<script>alert(1)</script>',
  'vbscript:msgbox(1)',
];

/** A URL that is an http URL but carries characters that would close an attribute and open a tag. */
export const QUOTED_URL = 'https://e.test/p?q="><script>alert(7)</script>';
/** It as esc_url_raw stores it. */
export const QUOTED_URL_STORED = 'https://e.test/p?q=scriptalert(7)/script';

/** What the probe becomes through each filter of a writer without unfiltered_html. */
export function filtered(marker: string): { title: string; html: string; text: string } {
  const links = `<a href="${marker}(3)">a</a><a href="${marker}(4)">b</a><a href="${marker}(5)">c</a><a href="text/html,${marker}">d</a>`;
  return {
    // $allowedtags: <b> and <a href> stay, <img> and <svg> go; every script scheme is cut.
    title: `<b>Bold</b>${marker}(1)${links}`,
    // The post tag set keeps <img src>, without its handler.
    html: `<b>Bold</b>${marker}(1)<img src="x">${links}`,
    // Plain text: no tag, and no script text.
    text: 'Boldabcd',
  };
}

/** Numeric and named character references a browser decodes in an attribute (with or without `;`). */
function decode(v: string): string {
  return v
    .replace(/&#x([0-9a-f]+);?/gi, (_, h: string) => String.fromCodePoint(parseInt(h, 16)))
    .replace(/&#(\d+);?/g, (_, d: string) => String.fromCodePoint(Number(d)))
    .replace(/&colon;/gi, ':')
    .replace(/&tab;/gi, '\t')
    .replace(/&newline;/gi, '\n');
}

/** Whether a URL (an attribute's value or a URL field) runs script when followed. */
export function scriptUrl(url: string): boolean {
  // eslint-disable-next-line no-control-regex -- browsers ignore control characters and white space in a scheme
  return /^(javascript|vbscript|data|livescript):/i.test(decode(url).replace(/[\s\u0000-\u001f]/g, ''));
}

const RUNNING_TAGS = /<\s*(script|iframe|frame|embed|svg|math|base|meta|link|style)\b[^>]*>?[^<]{0,60}/gi;
const TAG = /<[a-z][^>]*>/gi;
const HANDLER = /[\s/"']on[a-z]+\s*=/i;
const URL_ATTR = /[\s/"'](href|src|action|formaction|data|poster|srcdoc|xlink:href|background|cite|longdesc|usemap)\s*=\s*("([^"]*)"|'([^']*)'|([^\s>]+))/gi;

/** The fragments of an HTML text a browser would run: each with a little context. */
export function runnable(html: string): string[] {
  const out: string[] = [];
  for (const m of html.matchAll(RUNNING_TAGS)) out.push(m[0]);
  for (const m of html.matchAll(TAG)) {
    const tag = m[0];
    if (HANDLER.test(tag)) out.push(tag);
    for (const a of tag.matchAll(URL_ATTR)) if (scriptUrl(a[3] ?? a[4] ?? a[5] ?? '')) out.push(tag);
  }
  return out;
}

/** Keys whose value is a URL a client follows or embeds. */
const URL_KEYS = new Set(['website', 'url', 'source_url', 'link', 'image', 'avatar_urls']);

/**
 * Every runnable fragment in a value (an answer's JSON or a stored document), with where it is:
 * markup in any string, and a script URL as the value of a URL field.
 */
export function xssIn(value: unknown, at = ''): string[] {
  if (typeof value === 'string') return runnable(value).map((f) => `${at}: ${f.slice(0, 120)}`);
  if (Array.isArray(value)) return value.flatMap((v, i) => xssIn(v, `${at}[${i}]`));
  if (value && typeof value === 'object' && !(value instanceof Date)) {
    return Object.entries(value).flatMap(([k, v]) => [
      ...(URL_KEYS.has(k) && typeof v === 'string' && scriptUrl(v) ? [`${at}.${k}: ${v.slice(0, 120)}`] : []),
      ...xssIn(v, `${at}.${k}`),
    ]);
  }
  return [];
}
