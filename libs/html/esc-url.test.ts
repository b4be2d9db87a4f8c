/**
 * esc_url_raw's rules, with the cases of the reference's own esc_url tests (the raw form: no `&#038;`
 * and no `&#039;`, which only the display form writes), and wp_kses_bad_protocol's.
 */
import { ALLOWED_PROTOCOLS as PROTOCOL_LIST } from '../posts/kses';
import { ksesBadProtocol } from './bad-protocol';

const ALLOWED_PROTOCOLS: ReadonlySet<string> = new Set(PROTOCOL_LIST);
import { escUrlRaw } from './esc-url';

describe('escUrlRaw (esc_url_raw)', () => {
  it('encodes spaces and trims the start', () => {
    expect(escUrlRaw('http://example.com/Mr WordPress')).toBe('http://example.com/Mr%20WordPress');
    expect(escUrlRaw('http://example.com/Mr%20WordPress')).toBe('http://example.com/Mr%20WordPress');
    expect(escUrlRaw('http://example.com/Mr%20%20WordPress')).toBe('http://example.com/Mr%20%20WordPress');
    expect(escUrlRaw('http://example.com/Mr+WordPress')).toBe('http://example.com/Mr+WordPress');
    expect(escUrlRaw(' http://example.com/Mr+WordPress')).toBe('http://example.com/Mr+WordPress');
    expect(escUrlRaw('http://example.com/?foo=one two three&bar=four')).toBe('http://example.com/?foo=one%20two%20three&bar=four');
  });

  it('removes encoded line feeds and carriage returns, nested ones too', () => {
    expect(escUrlRaw('http://example.com/watchthelinefeed%0Ago')).toBe('http://example.com/watchthelinefeedgo');
    expect(escUrlRaw('http://example.com/watchthelinefeed%0ago')).toBe('http://example.com/watchthelinefeedgo');
    expect(escUrlRaw('http://example.com/watchthecarriagereturn%0Dgo')).toBe('http://example.com/watchthecarriagereturngo');
    expect(escUrlRaw('http://example.com/watchthecarriagereturn%0%0ddgo')).toBe('http://example.com/watchthecarriagereturngo');
    expect(escUrlRaw('http://example.com/watchthecarriagereturn%0%0DDgo')).toBe('http://example.com/watchthecarriagereturngo');
    for (const tail of ['%0%0%0DAD', '%0%0%0ADA', '%0%0%0DAd', '%0%0%0ADa']) expect(escUrlRaw(`http://example.com/${tail}`)).toBe('http://example.com/');
  });

  it('keeps relative URLs and completes bare hosts', () => {
    expect(escUrlRaw('/example.php')).toBe('/example.php');
    expect(escUrlRaw('example.php')).toBe('example.php');
    expect(escUrlRaw('#fragment')).toBe('#fragment');
    expect(escUrlRaw('?foo=bar')).toBe('?foo=bar');
    expect(escUrlRaw('example.com?foo')).toBe('http://example.com?foo');
    expect(escUrlRaw('example.com')).toBe('http://example.com');
    expect(escUrlRaw('localhost')).toBe('http://localhost');
    expect(escUrlRaw('example.com/foo')).toBe('http://example.com/foo');
    expect(escUrlRaw('баба.org/баба')).toBe('http://баба.org/баба');
    expect(escUrlRaw('//example.com/foo?foo=abc:def')).toBe('//example.com/foo?foo=abc:def');
  });

  it('encodes square brackets after the host, never in it', () => {
    expect(escUrlRaw('https://user:pass@host.example.com:1234/path;p=1?query=2&r[]=3#fragment')).toBe(
      'https://user:pass@host.example.com:1234/path;p=1?query=2&r%5B%5D=3#fragment',
    );
    expect(escUrlRaw('/example.php?one[]=two')).toBe('/example.php?one%5B%5D=two');
    expect(escUrlRaw('?foo[bar]=baz')).toBe('?foo%5Bbar%5D=baz');
    expect(escUrlRaw('//example.com/?foo[bar]=baz')).toBe('//example.com/?foo%5Bbar%5D=baz');
    expect(escUrlRaw('example.com/?foo[bar]=baz')).toBe('http://example.com/?foo%5Bbar%5D=baz');
    expect(escUrlRaw('localhost?foo[bar]=baz')).toBe('http://localhost?foo%5Bbar%5D=baz');
    expect(escUrlRaw('http://example.com/?baz=bar&foo[bar]=baz')).toBe('http://example.com/?baz=bar&foo%5Bbar%5D=baz');
    expect(escUrlRaw('//[::127.0.0.1]')).toBe('//[::127.0.0.1]');
    expect(escUrlRaw('http://[::FFFF::127.0.0.1]')).toBe('http://[::FFFF::127.0.0.1]');
    expect(escUrlRaw('//[::FFFF::127.0.0.1]/?foo[bar]=baz')).toBe('//[::FFFF::127.0.0.1]/?foo%5Bbar%5D=baz');
    expect(escUrlRaw('http://[::FFFF::127.0.0.1]/?foo[bar]=baz')).toBe('http://[::FFFF::127.0.0.1]/?foo%5Bbar%5D=baz');
  });

  it('leaves entities and encoded parameters as they are', () => {
    expect(escUrlRaw('http://example.com?foo=1&bar=2')).toBe('http://example.com?foo=1&bar=2');
    expect(escUrlRaw('http://example.com?foo=1&amp;bar=2')).toBe('http://example.com?foo=1&amp;bar=2');
    expect(escUrlRaw('http://example.com?foo=1&#038;bar=2')).toBe('http://example.com?foo=1&#038;bar=2');
    const param = encodeURIComponent('http://example.com/?one=1&two=2');
    expect(escUrlRaw(`http://example.com?url=${param}`)).toBe(`http://example.com?url=${param}`);
    const reserved = "http://example.com/:@-._~!$&'()*+,=;:@-._~!$&'()*+,=:@-._~!$&'()*+,==?/?:@-._~!$%27()*+,;=/?:@-._~!$%27()*+,;==#/?:@-._~!$&'()*+,;=";
    expect(escUrlRaw(reserved)).toBe(reserved);
    expect(escUrlRaw("http://example.com/'quoted'")).toBe("http://example.com/'quoted'");
  });

  it('keeps only the allowed protocols, lower-casing the scheme', () => {
    expect(escUrlRaw('http://example.com')).toBe('http://example.com');
    expect(escUrlRaw('nasty://example.com/')).toBe('');
    expect(escUrlRaw('example.com', new Set(['https']))).toBe('');
    expect(escUrlRaw('http://example.com', new Set(['https']))).toBe('');
    expect(escUrlRaw('https://example.com', new Set(['http', 'https']))).toBe('https://example.com');
    for (const scheme of ALLOWED_PROTOCOLS) {
      expect(escUrlRaw(`${scheme}://example.com`)).toBe(`${scheme}://example.com`);
      expect(escUrlRaw(`${scheme}://example.com`, new Set([scheme]))).toBe(`${scheme}://example.com`);
    }
    expect(ALLOWED_PROTOCOLS.has('data')).toBe(false);
    expect(escUrlRaw('data:text/plain;base64,SGVsbG8sIFdvcmxkIQ%3D%3D')).toBe('');
    expect(escUrlRaw('foo://example.com', new Set(['foo']))).toBe('foo://example.com');
    expect(escUrlRaw('HTTP://example.com')).toBe('http://example.com');
    expect(escUrlRaw('Http://example.com')).toBe('http://example.com');
  });

  it('refuses feed: wrapping a script', () => {
    expect(escUrlRaw('feed:javascript:alert(1)')).toBe('');
    expect(escUrlRaw('feed:javascript:feed:alert(1)')).toBe('');
    expect(escUrlRaw('feed:feed:javascript:alert(1)')).toBe('');
    expect(escUrlRaw('feed:feed:alert(1)')).toBe('feed:feed:alert(1)');
    expect(escUrlRaw('feed:http://wordpress.org/feed/')).toBe('feed:http://wordpress.org/feed/');
  });

  it('keeps non-ASCII text and mailto line breaks', () => {
    expect(escUrlRaw('http://example.org/баба')).toBe('http://example.org/баба');
    expect(escUrlRaw('http://müller.com/')).toBe('http://müller.com/');
    const body = encodeURIComponent('Hi there,\n\nI thought you might want to sign up for this newsletter');
    expect(escUrlRaw(`mailto:?body=${body}`)).toBe(`mailto:?body=${body}`);
    expect(escUrlRaw(`http://example.com/mailto:?body=${body}`)).toBe(
      'http://example.com/mailto:?body=Hi%20there%2CI%20thought%20you%20might%20want%20to%20sign%20up%20for%20this%20newsletter',
    );
    expect(escUrlRaw('mailto:?body=Hi there, I thought')).toBe('mailto:?body=Hi%20there,%20I%20thought');
  });

  it('drops the characters that could close an attribute or open a tag', () => {
    expect(escUrlRaw('"^<>{}`')).toBe('');
    expect(escUrlRaw('http://example.com/"><script>alert(1)</script>')).toBe('http://example.com/scriptalert(1)/script');
    expect(escUrlRaw('http://example.com/\u0000\u0007x')).toBe('http://example.com/x');
  });

  it('empties script URLs in every spelling a browser reads', () => {
    for (const url of [
      'javascript:alert(1)',
      'JavaScript:alert(1)',
      ' javascript:alert(1)',
      'java\tscript:alert(1)',
      'java\u0000script:alert(1)',
      '&#106;avascript:alert(1)',
      '&#x6A;avascript:alert(1)',
      'vbscript:msgbox(1)',
      'data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==',
      'javascript:javascript:alert(1)',
    ])
      expect([url, escUrlRaw(url)]).toEqual([url, '']);
    // Without a colon a value reads as a host name, as the reference reads it: no script runs from it.
    for (const url of ['javascript&#58;alert(1)', 'javascript&#0058;alert(1)', 'javascript&#x3A;alert(1)', 'javascript&colon;alert(1)'])
      expect(escUrlRaw(url)).toBe(`http://${url}`);
  });
});

describe('ksesBadProtocol (wp_kses_bad_protocol)', () => {
  const bad = (v: string) => ksesBadProtocol(v, ALLOWED_PROTOCOLS);

  it('keeps allowed schemes and scheme-less values', () => {
    expect(bad('http://example.com/a:b')).toBe('http://example.com/a:b');
    expect(bad('mailto:a@example.com')).toBe('mailto:a@example.com');
    expect(bad('/?x=a:b')).toBe('/?x=a:b');
    expect(bad('plain text')).toBe('plain text');
  });

  it('cuts schemes that are not allowed, however they are spelled', () => {
    expect(bad('javascript:alert(1)')).toBe('alert(1)');
    expect(bad('javascript&#58;alert(1)')).toBe('alert(1)');
    expect(bad('javascript&#58alert(1)')).toBe('alert(1)');
    expect(bad('javascript&colon;alert(1)')).toBe('alert(1)');
    expect(bad('&#106;avascript:alert(1)')).toBe('alert(1)');
    expect(bad('java\nscript:alert(1)')).toBe('alert(1)');
    expect(bad('javascript:javascript:alert(1)')).toBe('alert(1)');
    expect(bad('data:text/html,<b>')).toBe('text/html,<b>');
  });
});
