/** Slugs from titles (sanitizeTitle): the reference's sanitize_title, with a quick way through for plain titles. */
import { sanitizeTitle } from './slug';

describe('sanitizeTitle', () => {
  it.each([
    ['Limit created 1234-56', 'limit-created-1234-56'],
    ['  Spaces\tand_underscores\r\nand -- hyphens  ', 'spaces-and-underscores-and-hyphens'],
    ['-Leading and trailing-', 'leading-and-trailing'],
    ['Crème brûlée <b>night</b> &amp; more', 'creme-brulee-night-more'],
    ['Æsir Straße øl œuvre', 'aesir-strasse-ol-oeuvre'],
    ['Ｆｕｌｌｗｉｄｔｈ ｔｉｔｌｅ', 'fullwidth-title'],
    ['a\u00a0b\u000bc', 'a-b-c'],
    ['What? Yes! 100% (sure)', 'what-yes-100-sure'],
    ['', ''],
  ])('%j becomes %j', (title, slug) => {
    expect(sanitizeTitle(title)).toBe(slug);
  });

  it('cuts slugs to 200 characters', () => {
    expect(sanitizeTitle('x'.repeat(300))).toHaveLength(200);
    expect(sanitizeTitle('é'.repeat(300))).toBe('e'.repeat(200));
  });
});
