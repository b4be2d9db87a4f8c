/** Descriptions as the reference's REST answers print them: wpautop, trimmed. */
import { autop } from './text';

describe('autop', () => {
  it('wraps text in paragraphs and leaves block elements unwrapped, never nesting a paragraph in another', () => {
    expect(autop('Event 01 description')).toBe('<p>Event 01 description</p>');
    expect(autop('<p>Body</p>after')).toBe('<p>Body</p>\n<p>after</p>');
    expect(autop('one\ntwo\n\nthree')).toBe('<p>one<br />\ntwo</p>\n<p>three</p>');
    expect(autop('')).toBe('');
  });
});
