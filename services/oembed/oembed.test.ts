/**
 * oembed/1.0 against the running service (reference: tests/phpunit/tests/oembed/controller.php, §9
 * items 55 and 56): embed of this site's records, and the proxy with a provider on 127.0.0.1 that the
 * configuration allows, run inline and on BullMQ.
 */
import { startTestApp, type TestApp } from '../../test/support/app';
import { startProvider, type Provider } from '../../test/support/oembed-provider';
import { createRoleUsers, type RoleUsers } from '../../test/support/roles';
import { redisPrefix } from '../../test/support/redis-prefix';

const ITEM_55_FIELDS = ['version', 'provider_name', 'provider_url', 'author_name', 'author_url', 'title', 'type', 'width', 'height', 'html'];

describe('oembed/1.0 embed', () => {
  let app: TestApp;
  let post: { id: number; link: string };

  beforeAll(async () => {
    app = await startTestApp({ SITE_NAME: 'Calendar & Co' });
    const res = await app.admin('POST', '/cms/v2/posts', { body: { title: 'Hello "World"', content: 'Body', status: 'publish' } });
    post = res.body;
  });
  afterAll(() => app.close());

  it('has no POST (rest_no_route) and requires url', async () => {
    const posted = await app.request('POST', '/oembed/1.0/embed', { body: { url: post.link } });
    expect([posted.status, posted.body.code]).toEqual([404, 'rest_no_route']);
    const missing = await app.request('GET', '/oembed/1.0/embed');
    expect(missing.status).toBe(400);
    expect(missing.body).toMatchObject({ code: 'rest_missing_callback_param', data: { status: 400, params: ['url'] } });
  });

  it('answers a local post with the reference fields, rich type and the frame markup', async () => {
    const res = await app.request('GET', `/oembed/1.0/embed?url=${encodeURIComponent(post.link)}`);
    expect(res.status).toBe(200);
    expect(Object.keys(res.body)).toEqual(ITEM_55_FIELDS);
    expect(res.body).toMatchObject({
      version: '1.0',
      provider_name: 'Calendar & Co',
      provider_url: 'http://example.test',
      author_name: 'admin',
      author_url: 'http://example.test/author/admin/',
      title: 'Hello &#8220;World&#8221;',
      type: 'rich',
      width: 600,
      height: 338,
    });
    const html: string = res.body.html;
    const secret = /data-secret="([A-Za-z0-9]{10})"/.exec(html)![1];
    expect(html).toContain(`<blockquote class="wp-embedded-content" data-secret="${secret}"><a href="${post.link}">Hello &#8220;World&#8221;</a></blockquote>`);
    expect(html).toContain(
      `<iframe sandbox="allow-scripts" security="restricted" src="${post.link}embed/#?secret=${secret}" width="600" height="338" title="&#8220;Hello &#8220;World&#8221;&#8221; &#8212; Calendar &amp; Co"`,
    );
    expect(html).toMatch(/<\/iframe><script>.*<\/script>$/);
  });

  it('sizes the frame from maxwidth: W = clamp(maxwidth, 200, 600), H = max(ceil(W*9/16), 200)', async () => {
    for (const [maxwidth, w, h] of [
      ['400', 400, 225],
      ['100', 200, 200],
      ['2000', 600, 338],
      ['-400', 400, 225],
      ['abc', 200, 200],
    ] as const) {
      const res = await app.request('GET', `/oembed/1.0/embed?url=${encodeURIComponent(post.link)}&maxwidth=${maxwidth}`);
      expect([maxwidth, res.body.width, res.body.height]).toEqual([maxwidth, w, h]);
    }
  });

  it('treats any format but xml as json, and writes xml with its content type', async () => {
    const random = await app.request('GET', `/oembed/1.0/embed?url=${encodeURIComponent(post.link)}&format=random`);
    expect(random.headers.get('content-type')).toBe('application/json; charset=UTF-8');
    expect(random.body.type).toBe('rich');
    const xml = await app.request('GET', `/oembed/1.0/embed?url=${encodeURIComponent(post.link)}&format=xml&_fields=title`);
    expect(xml.status).toBe(200);
    expect(xml.headers.get('content-type')).toBe('text/xml; charset=UTF-8');
    expect(xml.text.startsWith('<?xml version="1.0"?>\n<oembed><version>1.0</version><provider_name>Calendar &amp; Co</provider_name>')).toBe(true);
    expect(xml.text).toContain('<title>Hello &#8220;World&#8221;</title><type>rich</type><width>600</width><height>338</height><html>&lt;blockquote');
  });

  it('answers pages, nested pages and events by their permalinks and ?p= addresses', async () => {
    const parent = (await app.admin('POST', '/cms/v2/pages', { body: { title: 'About', status: 'publish' } })).body;
    const child = (await app.admin('POST', '/cms/v2/pages', { body: { title: 'Team', status: 'publish', parent: parent.id } })).body;
    expect(child.link).toBe('http://example.test/about/team/');
    const byLink = await app.request('GET', `/oembed/1.0/embed?url=${encodeURIComponent(child.link)}`);
    expect([byLink.status, byLink.body.title]).toEqual([200, 'Team']);
    expect(byLink.body.html).toContain('src="http://example.test/about/team/embed/#?secret=');
    const byId = await app.request('GET', `/oembed/1.0/embed?url=${encodeURIComponent(`http://example.test/?p=${post.id}`)}`);
    expect(byId.body.title).toBe('Hello &#8220;World&#8221;');
    const event = (
      await app.admin('POST', '/vendor/events/v1/events', { body: { title: 'Gig', start_date: '2030-01-01 20:00:00', end_date: '2030-01-01 22:00:00' } })
    ).body;
    const ev = await app.request('GET', `/oembed/1.0/embed?url=${encodeURIComponent(event.url)}&maxwidth=300`);
    expect(ev.status).toBe(200);
    expect(ev.body).toMatchObject({ title: 'Gig', width: 300, height: 200 });
  });

  it('gives 404 oembed_invalid_url "Not Found" for foreign, unknown and unpublished URLs', async () => {
    const draft = (await app.admin('POST', '/cms/v2/posts', { body: { title: 'Draft', status: 'draft', slug: 'a-draft' } })).body;
    const priv = (await app.admin('POST', '/cms/v2/posts', { body: { title: 'Private', status: 'private' } })).body;
    for (const url of [
      'https://www.youtube.com/watch?v=x',
      'http://example.test/nothing-here/',
      draft.link,
      priv.link,
      'http://example.test/a-draft/',
      'not a url',
      '',
    ]) {
      const res = await app.request('GET', `/oembed/1.0/embed?url=${encodeURIComponent(url)}`);
      expect([url, res.status, res.body]).toEqual([url, 404, { code: 'oembed_invalid_url', message: 'Not Found', data: { status: 404 } }]);
    }
  });

  it('keeps errors in JSON even when xml was asked for', async () => {
    const res = await app.request('GET', '/oembed/1.0/embed?url=http%3A%2F%2Fexample.test%2Fnope%2F&format=xml');
    expect(res.headers.get('content-type')).toBe('application/json; charset=UTF-8');
    expect(res.body.code).toBe('oembed_invalid_url');
  });

  it('prefixes a password-protected post and still embeds it', async () => {
    const p = (await app.admin('POST', '/cms/v2/posts', { body: { title: 'Locked', status: 'publish', password: 'pw' } })).body;
    const res = await app.request('GET', `/oembed/1.0/embed?url=${encodeURIComponent(p.link)}`);
    expect(res.body.title).toBe('Protected: Locked');
  });
});

function proxySuite(label: string, env: () => Promise<Record<string, string | undefined>>): void {
  describe(`oembed/1.0 proxy (${label})`, () => {
    let app: TestApp;
    let users: RoleUsers;
    let provider: Provider;
    const proxy = (query: Record<string, string>) => `/oembed/1.0/proxy?${new URLSearchParams(query).toString()}`;

    beforeAll(async () => {
      provider = await startProvider();
      app = await startTestApp({ OUTBOUND_ALLOW_HOSTS: '127.0.0.1', ...(await env()) });
      users = await createRoleUsers(app, 'ox');
    });
    afterAll(async () => {
      await app.close();
      await provider.close();
    });

    it('validates before it checks permission: no url gives 400 even for a guest', async () => {
      const res = await users.as('guest', 'GET', '/oembed/1.0/proxy');
      expect([res.status, res.body.code]).toEqual([400, 'rest_missing_callback_param']);
      const bad = await users.as('guest', 'GET', proxy({ url: `${provider.base}/video`, format: 'yaml' }));
      expect([bad.status, bad.body.code]).toEqual([400, 'rest_invalid_param']);
      const discover = await users.as('guest', 'GET', proxy({ url: `${provider.base}/video`, discover: 'maybe' }));
      expect([discover.status, discover.body.code]).toEqual([400, 'rest_invalid_param']);
    });

    it('needs edit_posts: 401 for a guest, 403 for a subscriber', async () => {
      const guest = await users.as('guest', 'GET', proxy({ url: `${provider.base}/video` }));
      expect(guest.status).toBe(401);
      const sub = await users.as('subscriber', 'GET', proxy({ url: `${provider.base}/video` }));
      expect(sub.status).toBe(403);
      expect(sub.body).toEqual({ code: 'rest_forbidden', message: 'Sorry, you are not allowed to make proxied oEmbed requests.', data: { status: 403 } });
      expect(provider.hits).toEqual([]);
    });

    it('fetches a discovered provider with the frame limits, sanitises its html, and caches for everyone', async () => {
      const res = await users.as('editor', 'GET', proxy({ url: `${provider.base}/video`, maxwidth: '500', maxheight: '300' }));
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ version: '1.0', type: 'video', title: 'A "clip" & more', provider_name: 'Tube', maxwidth: '500', maxheight: '300' });
      expect(res.body.html).toMatch(
        /^<iframe class="wp-embedded-content" sandbox="allow-scripts" security="restricted" src="https:\/\/player\.example\/v\/1#\?secret=[A-Za-z0-9]{10}" data-secret="[A-Za-z0-9]{10}" width="480" height="270" frameborder="0"><\/iframe>$/,
      );
      expect(provider.hits).toEqual([
        '/video',
        `/oembed?kind=video&url=${encodeURIComponent(`${provider.base}/video`)}&format=json&maxwidth=500&maxheight=300&dnt=1`,
      ]);

      const again = await users.as('contributor', 'GET', proxy({ url: `${provider.base}/video`, maxwidth: '500', maxheight: '300', format: 'xml' }));
      expect(again.status).toBe(200);
      expect(again.headers.get('content-type')).toBe('text/xml; charset=UTF-8');
      expect(again.text).toContain('<title>A &quot;clip&quot; &amp; more</title>');
      expect(provider.hits).toHaveLength(2);

      // Other parameters are another lookup.
      await users.as('editor', 'GET', proxy({ url: `${provider.base}/video` }));
      expect(provider.hits).toHaveLength(4);
      expect(provider.hits[3]).toContain('maxwidth=600');
      expect(provider.hits[3]).not.toContain('maxheight');
    });

    it('writes photo html itself and gives untrusted markup without a single safe iframe html false', async () => {
      const photo = await users.as('editor', 'GET', proxy({ url: `${provider.base}/photo` }));
      expect(photo.body.html).toBe(
        `<a href="${provider.base}/photo"><img src="https://img.example/p.jpg" alt="A &quot;clip&quot; &amp; more" width="300" height="200" /></a>`,
      );
      const evil = await users.as('editor', 'GET', proxy({ url: `${provider.base}/evil` }));
      expect(evil.status).toBe(200);
      expect(evil.body.html).toBe(false);
    });

    it('gives 404 oembed_invalid_url when there is no provider, discovery is off, or the provider fails', async () => {
      const queries: Array<Record<string, string>> = [
        { url: `${provider.base}/plain` },
        { url: `${provider.base}/video`, discover: 'false' },
        { url: `${provider.base}/broken` },
        { url: `${provider.base}/missing` },
      ];
      for (const query of queries) {
        const res = await users.as('editor', 'GET', proxy(query));
        expect([query, res.status, res.body.code, res.body.message]).toEqual([query, 404, 'oembed_invalid_url', 'Not Found']);
      }
    });

    it('refuses addresses outside the allowlist that are not public', async () => {
      const port = new URL(provider.base).port;
      const before = provider.hits.length;
      for (const url of [`http://localhost:${port}/video`, `http://[::1]:${port}/video`, 'http://169.254.169.254/latest/meta-data/', 'file:///etc/passwd']) {
        const res = await users.as('editor', 'GET', proxy({ url }));
        expect([url, res.status, res.body.code]).toEqual([url, 404, 'oembed_invalid_url']);
      }
      expect(provider.hits.length).toBe(before);
    });

    it('answers addresses of this site from its own records', async () => {
      const post = (await app.admin('POST', '/cms/v2/posts', { body: { title: 'Local', status: 'publish' } })).body;
      const before = provider.hits.length;
      const res = await users.as('author', 'GET', proxy({ url: post.link, maxwidth: '400' }));
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ provider_name: 'Events Calendar', title: 'Local', type: 'rich', width: 400, height: 225 });
      const missing = await users.as('author', 'GET', proxy({ url: 'http://example.test/no-such-post/' }));
      expect(missing.status).toBe(404);
      expect(provider.hits.length).toBe(before);
    });
  });
}

proxySuite('inline queue', async () => ({}));
proxySuite('BullMQ', async () => ({ REDIS_URL: process.env.TEST_REDIS_URL, QUEUE_PREFIX: await redisPrefix('oembed') }));
