import { MAX_NESTING, TooDeepError, attributeOf, elementsOf, parseHtmlDocument, parseHtmlFragment, textOf } from './parse';
import { decodeEntities } from './escape';
import { growth, LINEAR } from '../../test/support/growth';

describe('reading HTML as browsers do', () => {
  it('reads quoted, unquoted and bare attributes, entities decoded, and keeps script text raw', () => {
    const [a, script] = elementsOf(parseHtmlFragment('<a href=x title="a &amp; b" hidden>t</a><script>if (a<b) "</a>"</script>'));
    expect([a.tagName, attributeOf(a, 'href'), attributeOf(a, 'title'), attributeOf(a, 'hidden'), textOf(a)]).toEqual(['a', 'x', 'a & b', '', 't']);
    expect([script.tagName, textOf(script)]).toEqual(['script', 'if (a<b) "</a>"']);
  });

  it('keeps the first of repeated attributes and ends comments where browsers do', () => {
    const els = [...elementsOf(parseHtmlFragment('<p id=one id=two>x</p><!-- a --!><img src=y><!--><b>z</b>'))];
    expect(els.map((e) => e.tagName)).toEqual(['p', 'img', 'b']);
    expect(attributeOf(els[0], 'id')).toBe('one');
  });

  it('walks the nesting browsers build without recursion, and not into what it is told to skip', () => {
    const deep = '<div>'.repeat(500) + '<i>x</i>';
    expect([...elementsOf(parseHtmlFragment(deep))].filter((e) => e.tagName === 'i')).toHaveLength(1);
    const doc = parseHtmlDocument('<title>T</title><meta name=d content=c><body><p>b</p><template><i>t</i></template>');
    const names = [...elementsOf(doc, new Set(['body']))].map((e) => e.tagName);
    expect(names).toEqual(['html', 'head', 'title', 'meta', 'body']);
  });

  it('refuses nesting past MAX_NESTING before its cost grows (the square of the depth)', () => {
    expect(() => parseHtmlFragment('<div>'.repeat(40_000))).toThrow(TooDeepError);
    expect(() => parseHtmlDocument('<b><i>'.repeat(MAX_NESTING))).toThrow(TooDeepError);
    // Refused at MAX_NESTING, whatever follows: the cost of a deeper input does not grow with its depth.
    const refuse = (n: number) => expect(() => parseHtmlFragment('<div>'.repeat(n))).toThrow(TooDeepError);
    expect(growth(refuse, 10_000)).toBeLessThan(LINEAR);
  });

  it('decodes character references as a browser does in text', () => {
    expect(decodeEntities('&amp; &copy &#x41; &#65; &nbsp; &bogus; &#0;')).toBe('& © A A \u00a0 &bogus; \ufffd');
  });
});
