/**
 * The HTML filter against the vector list of test/fixtures/xss-vectors.ts, for the post rules and the
 * title and comment rules: what it keeps is safe when a browser reads it (checked here on the parsed
 * output, and by rendering in Chromium in test/kses.browser.test.ts), filtering again changes nothing,
 * and every difference from the previous filter's output (kses-before.json) is one the list explains.
 */
import before from '../../test/fixtures/kses-before.json';
import { VECTORS } from '../../test/fixtures/xss-vectors';
import { elementsOf, parseHtmlFragment } from '../html/parse';
import { kses, POST_TAGS, TITLE_TAGS, type AllowedTags } from './kses';
import { ALLOWED_PROTOCOLS, URI_ATTRIBUTES } from './kses-rules';

const RULES: Array<[string, AllowedTags]> = [
  ['post', POST_TAGS],
  ['title', TITLE_TAGS],
];
const recorded: Record<string, { post: string; title: string }> = before;

/** What a browser would find unsafe in the markup: elements, attributes and URLs outside the rules. */
function unsafeParts(html: string, allowed: AllowedTags): string[] {
  const found: string[] = [];
  for (const el of elementsOf(parseHtmlFragment(html))) {
    if (!allowed[el.tagName]) found.push(`element ${el.tagName}`);
    for (const { name, value } of el.attrs) {
      if (/^on/i.test(name)) found.push(`handler ${name}`);
      // eslint-disable-next-line no-control-regex -- the URL parser skips these before the scheme
      const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(value.replace(/^[\x00-\x20]+/, '').replace(/[\t\n\r]/g, ''))?.[1]?.toLowerCase();
      if (URI_ATTRIBUTES.includes(name) && scheme && !ALLOWED_PROTOCOLS.includes(scheme)) found.push(`${name} ${value}`);
      if (name === 'style' && /expression|javascript|behavior|binding|url\((?!\s*['"]?https?:)/i.test(value)) found.push(`style ${value}`);
    }
  }
  return found;
}

describe.each(RULES)('the %s rules on every vector', (rules, allowed) => {
  it.each(VECTORS.map((v) => [v.name, v] as const))('%s: nothing unsafe is kept, and filtering again changes nothing', (_, v) => {
    const out = kses(v.html, allowed);
    expect(unsafeParts(out, allowed)).toEqual([]);
    expect(kses(out, allowed)).toBe(out);
    if (rules === 'post' && !v.differs) expect(out).toBe(recorded[v.name].post);
    if (rules === 'title' && !v.differs) expect(out).toBe(recorded[v.name].title);
  });
});

describe('the differences from the previous filter', () => {
  it('are all explained, and each explained one still differs', () => {
    const unexplained: string[] = [];
    const stale: string[] = [];
    for (const v of VECTORS) {
      const now = { post: kses(v.html), title: kses(v.html, TITLE_TAGS) };
      const differs = now.post !== recorded[v.name].post || now.title !== recorded[v.name].title;
      if (differs && !v.differs) unexplained.push(v.name);
      if (!differs && v.differs) stale.push(v.name);
    }
    expect({ unexplained, stale }).toEqual({ unexplained: [], stale: [] });
  });
});
