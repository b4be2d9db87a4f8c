/**
 * A large record's content is rendered for its `content` field and for the excerpt it generates: the
 * second rendering is the kept first, and both answers are what a fresh rendering gives.
 */
import { renderContent, renderExcerpt } from './render';

const large = (tag: string) => Array.from({ length: 4000 }, (_, i) => `Paragraph ${i} of ${tag} with "quotes" -- and words.\n\n`).join('');

it('answers large content and its generated excerpt as rendered, in either order, and follows a change', () => {
  const a = large('a');
  const content = renderContent(a);
  expect(content.startsWith('<p>Paragraph 0 of a with &#8220;quotes&#8221; &#8212; and words.</p>\n')).toBe(true);
  expect(content.split('<p>')).toHaveLength(4001);
  const excerpt = renderExcerpt('', a);
  expect(excerpt).toMatch(/^<p>Paragraph 0 of a with &#8220;quotes&#8221; &#8212; and words\. Paragraph 1 of a/);
  expect(excerpt.trim().endsWith('[&hellip;]</p>')).toBe(true);
  expect(renderContent(a)).toBe(content);
  const b = large('b');
  expect(renderExcerpt('', b)).toBe(excerpt.replace(/ of a /g, ' of b '));
  expect(renderContent(b)).toBe(content.replace(/ of a /g, ' of b '));
  expect(renderContent(a)).toBe(content);
});
