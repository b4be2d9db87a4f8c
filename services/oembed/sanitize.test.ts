import { answerHtml, proxyAnswer } from './provider';
import { sanitizeEmbedHtml } from './sanitize';
import { oembedXml } from './xml';

const S = 'AbCdE12345';

describe('sanitizeEmbedHtml', () => {
  it('keeps a single iframe, rebuilt, sandboxed and tied to its secret', () => {
    expect(
      sanitizeEmbedHtml(
        '<iframe width="560" height="315" src="https://player.example/embed/1?a=1&amp;b=2" frameborder="0" allowfullscreen onload="alert(1)"></iframe>',
        S,
      ),
    ).toBe(
      `<iframe class="wp-embedded-content" sandbox="allow-scripts" security="restricted" src="https://player.example/embed/1?a=1&amp;b=2#?secret=${S}" data-secret="${S}" width="560" height="315" frameborder="0"></iframe>`,
    );
  });

  it('keeps the fallback blockquote of a site embed as text and links, drops the script, hides the frame', () => {
    const html =
      '<blockquote class="wp-embedded-content" data-secret="x"><a href="https://blog.example/post/">A &amp; B</a><img src=x onerror=alert(1)><script>document.write("<iframe src=https://evil.example/>")</script></blockquote>' +
      '<iframe sandbox="allow-scripts allow-same-origin" src="https://blog.example/post/embed/#?secret=x" title="&#8220;A&#8221;" scrolling="no"></iframe>' +
      '<script>window.alert("</iframe><iframe src=javascript:alert(1)>")</script>';
    expect(sanitizeEmbedHtml(html, S)).toBe(
      `<blockquote class="wp-embedded-content" data-secret="${S}"><a href="https://blog.example/post/">A &amp; B</a></blockquote>` +
        `<iframe class="wp-embedded-content" sandbox="allow-scripts" security="restricted" style="position: absolute; visibility: hidden;" src="https://blog.example/post/embed/#?secret=${S}" data-secret="${S}" scrolling="no" title="“A”"></iframe>`,
    );
  });

  it('refuses markup without exactly one safe iframe', () => {
    for (const html of [
      '',
      '<p>No frame here</p>',
      '<script src="https://evil.example/x.js"></script>',
      '<iframe src="javascript:alert(1)"></iframe>',
      '<iframe src="data:text/html,<script>alert(1)</script>"></iframe>',
      '<iframe src="/relative/path"></iframe>',
      '<iframe srcdoc="<script>alert(1)</script>"></iframe>',
      '<iframe src="https://a.example/"></iframe><iframe src="https://b.example/"></iframe>',
    ]) {
      expect(sanitizeEmbedHtml(html, S)).toBe(false);
    }
  });

  it('escapes what it copies: attribute values cannot break out', () => {
    const out = sanitizeEmbedHtml(`<iframe src='https://p.example/?q="><script>alert(1)</script>' title='"><b>x' width="100%"></iframe>`, S) as string;
    expect(out).not.toContain('<script');
    expect(out).not.toContain('<b>');
    expect(out).toContain('title="&quot;&gt;&lt;b&gt;x"');
    expect(out).toContain('width="100%"');
  });
});

describe('the html of a provider answer', () => {
  it('writes photos and links from their fields, escaped', () => {
    expect(answerHtml({ type: 'photo', url: 'https://img.example/a.png', width: 300, height: 200, title: 'A "pic"' }, 'https://site.example/p')).toBe(
      '<a href="https://site.example/p"><img src="https://img.example/a.png" alt="A &quot;pic&quot;" width="300" height="200" /></a>',
    );
    expect(answerHtml({ type: 'photo', url: 'javascript:alert(1)', width: 300, height: 200 }, 'https://site.example/p')).toBe(false);
    expect(answerHtml({ type: 'link', title: '<b>Hi</b>' }, 'https://site.example/p')).toBe('<a href="https://site.example/p">&lt;b&gt;Hi&lt;/b&gt;</a>');
    expect(answerHtml({ type: 'rich', html: 42 }, 'https://site.example/p')).toBe(false);
    expect(answerHtml({ type: 'other' }, 'https://site.example/p')).toBe(false);
  });

  it('keeps scalar fields only and replaces html', () => {
    const out = proxyAnswer(
      { type: 'rich', version: '1.0', width: 500, nested: { a: 1 }, list: [1], 'bad key': 'x', html: '<b>no frame</b>' },
      'https://site.example/p',
    );
    expect(out).toEqual({ type: 'rich', version: '1.0', width: 500, html: false });
  });
});

describe('the XML form', () => {
  it('writes one element per field with esc_html escaping', () => {
    expect(oembedXml({ version: '1.0', title: 'A & B &#8220;q&#8221;', width: 600, html: '<a href="x">y</a>', thumbnail: false })).toBe(
      '<?xml version="1.0"?>\n<oembed><version>1.0</version><title>A &amp; B &#8220;q&#8221;</title><width>600</width><html>&lt;a href=&quot;x&quot;&gt;y&lt;/a&gt;</html><thumbnail/></oembed>\n',
    );
    expect(oembedXml({ scripts: ['a.js'], 'bad key': 1 })).toBe('<?xml version="1.0"?>\n<oembed><scripts><oembed>a.js</oembed></scripts></oembed>\n');
  });
});

describe('markup nested past what browsers build', () => {
  it('is refused quickly, as no embed', () => {
    expect(sanitizeEmbedHtml('<div>'.repeat(40_000) + '<iframe src="https://p.example/"></iframe>', S)).toBe(false);
  });
});
