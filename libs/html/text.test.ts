/** sanitize_text_field and the name-field chain, with cases from the reference's own tests of them. */
import { nameField, sanitizeTextField, specialChars, stripAllTags } from './text';

describe('sanitizeTextField (sanitize_text_field)', () => {
  it('strips tags, line breaks, tabs and runs of spaces', () => {
    expect(sanitizeTextField('оРангутанг')).toBe('оРангутанг');
    expect(sanitizeTextField('САПОГ')).toBe('САПОГ');
    expect(sanitizeTextField('baba &nbsp; ba')).toBe('baba &nbsp; ba');
    expect(sanitizeTextField('I am a\n\n\t text with \r\n line breaks')).toBe('I am a text with line breaks');
    expect(sanitizeTextField('I am a <b>bold</b> text')).toBe('I am a bold text');
    expect(sanitizeTextField('<script>alert(1)</script>text<style>x{}</style>')).toBe('text');
    expect(sanitizeTextField('  space  ')).toBe('space');
  });

  it('keeps a < that opens no tag as text', () => {
    expect(sanitizeTextField('1 < 2')).toBe('1 &lt; 2');
    expect(sanitizeTextField('a <b>c</b> <d')).toBe('a c &lt;d');
    expect(sanitizeTextField('5 > 3')).toBe('5 > 3');
  });

  it('removes percent-encoded octets, even nested ones', () => {
    expect(sanitizeTextField('%AB%BC%DE')).toBe('');
    expect(sanitizeTextField('x %2%41 y')).toBe('x %2 y');
    expect(sanitizeTextField('100% sure')).toBe('100% sure');
  });

  it('keeps line breaks for a textarea', () => {
    expect(sanitizeTextField('a\n<b>b</b>\n\tc', true)).toBe('a\nb\n\tc');
  });

  it('answers "" for what is not text', () => {
    expect(sanitizeTextField({ a: 1 })).toBe('');
    expect(sanitizeTextField(['a'])).toBe('');
    expect(sanitizeTextField(null)).toBe('');
    expect(sanitizeTextField('a\ud800b')).toBe('');
    expect(sanitizeTextField(12)).toBe('12');
  });
});

describe('stripAllTags, specialChars, nameField', () => {
  it('strips every tag and comment', () => {
    expect(stripAllTags('<p>a</p><!-- c --><img src=x onerror=alert(1)>b')).toBe('ab');
    expect(stripAllTags('<a href="x">l</a> <unclosed')).toBe('l');
  });

  it('escapes &, < and > without encoding twice', () => {
    expect(specialChars('Tom & Jerry <3 &amp; &#038; &lt;')).toBe('Tom &amp; Jerry &lt;3 &amp; &#038; &lt;');
  });

  it('saves a name as the reference saves a term or display name', () => {
    expect(nameField('<img src=x onerror=alert(1)>Jane <b>Doe</b>')).toBe('Jane Doe');
    expect(nameField('Tom & Jerry')).toBe('Tom &amp; Jerry');
    expect(nameField('a < b')).toBe('a &lt; b');
    expect(nameField('"quoted" \'name\'')).toBe('"quoted" \'name\'');
  });
});
