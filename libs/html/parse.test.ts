import { MAX_NESTING, TooDeepError, attributeOf, elementsOf, parseHtmlDocument, parseHtmlFragment, textOf } from './parse';
import { defaultTreeAdapter, html, parseFragment, serialize } from 'parse5';
import { decodeEntities } from './escape';
import { VECTORS } from '../../test/fixtures/xss-vectors';
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

describe('fragments', () => {
  const context = defaultTreeAdapter.createElement('div', html.NS.HTML, []);
  const TRICKY = [
    '<b>a<p>b</b>c</p>d',
    '<table><tr><td>x</td></tr>y</table>z',
    '<template><td>t</td></template><i>after',
    '<form><form>x</form></form>',
    '<a href=1><div>block</div></a>',
    '<p>1<p>2<li>3<li>4',
    '<svg><foreignObject><p>x</p></foreignObject><path/></svg><math><mi>y</mi></math>',
    '<!-- c --><select><option>o<option>p</select>',
    'text only &amp; entities &lt;',
    '',
  ];

  it('are the tree parse5 builds for the inside of a <div>, node for node', () => {
    for (const markup of [...TRICKY, ...VECTORS.map((v) => v.html)]) {
      const ours = parseHtmlFragment(markup);
      expect(serialize(ours)).toBe(serialize(parseFragment(context, markup, {})));
      for (const child of ours.childNodes) expect(child.parentNode).toBe(ours);
    }
  });

  it('cost what their length costs, however many nodes stand side by side', () => {
    expect(growth((n) => parseHtmlFragment('<i>x</i>'.repeat(n)), 40_000)).toBeLessThan(LINEAR);
    expect(growth((n) => parseHtmlFragment('<br>'.repeat(n)), 40_000)).toBeLessThan(LINEAR);
  });
});
