/** cms-block-editor/v1/url-details over HTTP, against pages served by a local server let through the outbound guard by name. */
import http, { type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { startTestApp, type TestApp } from '../../../test/support/app';
import { createRoleUsers, type RoleUsers } from '../../../test/support/roles';
import { UrlDetailsCache, findHeadInformation } from './url-details';

const PAGES: Record<string, { status?: number; type?: string; body: string; location?: string }> = {
  '/article': {
    body: `<!doctype html><html><head>
      <meta charset="utf-8">
      <title> Jazz &amp; Blues &#8211; <b>Night</b> </title>
      <link rel="stylesheet" href="/style.css">
      <link rel="shortcut icon" href="/favicon.ico?v=2">
      <meta name="description" content="An evening of &quot;live&quot; music &lt;b&gt;downtown&lt;/b&gt;">
      <meta property="og:image" content="images/poster.jpg">
      </head><body><title>Not this</title><meta name="description" content="nor this"></body></html>`,
  },
  '/og': {
    body: `<html><head><meta name="og:description" content="From Open Graph"><meta name="description" content="Second">
      <meta property="og:image:url" content="https://cdn.example.org/x.png"><link rel="icon" href="data:image/png;base64,AAAA"></head></html>`,
  },
  '/body-first': { body: '<html><body><title>Late</title></body></html>' },
  '/missing': { status: 404, body: '<title>Not found</title>' },
  '/empty': { body: '' },
  '/to-private': { status: 302, body: '', location: 'http://10.0.0.7/secret' },
};

describe('cms-block-editor/v1/url-details', () => {
  let app: TestApp;
  let users: RoleUsers;
  let server: Server;
  let base: string;
  const hits: string[] = [];

  beforeAll(async () => {
    server = http.createServer((req, res) => {
      hits.push(req.url ?? '');
      const page = PAGES[(req.url ?? '').split('?')[0]];
      if (!page) {
        res.writeHead(500).end();
        return;
      }
      res.writeHead(page.status ?? 200, { 'Content-Type': page.type ?? 'text/html; charset=utf-8', ...(page.location ? { Location: page.location } : {}) });
      res.end(page.body);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    // The page server is reached by a name the guard lets through; its address itself stays refused.
    base = `http://localhost:${(server.address() as AddressInfo).port}`;
    app = await startTestApp({ OUTBOUND_ALLOW_HOSTS: 'localhost' });
    users = await createRoleUsers(app, 'ud');
  });
  afterAll(async () => {
    await app.close();
    await new Promise((resolve) => server.close(resolve));
  });

  const details = (url: string, who: Parameters<RoleUsers['as']>[0] = 'contributor') =>
    users.as(who, 'GET', `/cms-block-editor/v1/url-details?url=${encodeURIComponent(url)}`);

  it('is listed with its schema; only url-details is declared', async () => {
    const res = await app.request('GET', '/cms-block-editor/v1');
    expect(Object.keys(res.body.routes)).toEqual(['/cms-block-editor/v1', '/cms-block-editor/v1/url-details']);
    const endpoint = res.body.routes['/cms-block-editor/v1/url-details'].endpoints[0];
    expect(endpoint.args.url).toEqual({ description: 'The URL to process.', type: 'string', format: 'uri', required: true });
    const opts = await app.request('OPTIONS', '/cms-block-editor/v1/url-details');
    expect(Object.keys(opts.body.schema.properties)).toEqual(['title', 'icon', 'description', 'image']);
  });

  it('needs a capability to edit posts: 401 for a guest, 403 for a subscriber, no request made', async () => {
    const before = hits.length;
    const guest = await details(`${base}/article`, 'guest');
    expect(guest.body).toEqual({ code: 'rest_cannot_view_url_details', message: 'Sorry, you are not allowed to process remote URLs.', data: { status: 401 } });
    const sub = await details(`${base}/article`, 'subscriber');
    expect([sub.status, sub.body.code]).toEqual([403, 'rest_cannot_view_url_details']);
    expect(hits.length).toBe(before);
    const missing = await users.as('contributor', 'GET', '/cms-block-editor/v1/url-details');
    expect([missing.status, missing.body.code]).toEqual([400, 'rest_missing_callback_param']);
  });

  it('reads title, icon, description and image from the head, decoded, stripped and made absolute, and keeps the answer', async () => {
    const res = await details(`${base}/article/`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      title: 'Jazz & Blues \u2013 Night',
      icon: `${base}/favicon.ico?v=2`,
      description: 'An evening of "live" music downtown',
      image: `${base}/images/poster.jpg`,
    });
    const count = hits.filter((h) => h === '/article').length;
    expect(count).toBe(1);
    const again = await details(`${base}/article`, 'author');
    expect(again.body.title).toBe('Jazz & Blues \u2013 Night');
    expect(hits.filter((h) => h === '/article').length).toBe(1);
  });

  it('takes the first description of either kind, og:image:url, data: icons, and stops at the body', async () => {
    const og = await details(`${base}/og`);
    expect(og.body).toEqual({ title: '', icon: 'data:image/png;base64,AAAA', description: 'From Open Graph', image: 'https://cdn.example.org/x.png' });
    const late = await details(`${base}/body-first`);
    expect(late.body).toEqual({ title: '', icon: '', description: '', image: '' });
  });

  it('answers 404 for a page that does not answer 200 or answers nothing', async () => {
    const missing = await details(`${base}/missing`);
    expect(missing.body).toEqual({
      code: 'no_response',
      message: 'URL not found. Response returned a non-200 status code for this URL.',
      data: { status: 404 },
    });
    const empty = await details(`${base}/empty`);
    expect([empty.status, empty.body.code]).toEqual([404, 'no_content']);
    const redirected = await details(`${base}/to-private`);
    expect([redirected.status, redirected.body.code]).toEqual([404, 'no_response']);
    // Failures are not kept: the next request asks again.
    await details(`${base}/missing`);
    expect(hits.filter((h) => h === '/missing').length).toBe(2);
  });

  it('refuses loopback, private and metadata addresses that are not allowed, before any request', async () => {
    const port = (server.address() as AddressInfo).port;
    const before = hits.length;
    for (const url of [
      `http://127.0.0.1:${port}/article`,
      'http://127.0.0.1/article',
      'http://10.1.2.3/',
      'http://169.254.169.254/latest/meta-data/',
      'http://[::1]/',
      'http://example.org:22/',
    ]) {
      const res = await details(url);
      expect([url, res.status, res.body.code, res.body.data.params]).toEqual([url, 400, 'rest_invalid_param', { url: 'Invalid parameter.' }]);
    }
    expect(hits.length).toBe(before);
  });
});

describe('url details parsing and cache', () => {
  it('makes links absolute against the site root and keeps absolute ones', () => {
    const d = findHeadInformation('<link rel="icon" href="//cdn.example.org/i.ico"><meta property="og:image" content="../p.png">', 'https://example.org/a/b/c');
    expect(d).toEqual({ title: '', icon: 'https://cdn.example.org/i.ico', description: '', image: 'https://example.org/p.png' });
    expect(findHeadInformation('<link rel="apple-touch-icon" href="/a.png"><title>x', 'https://example.org').icon).toBe('');
  });

  it('reads the head as a browser builds it, and a page nested past what browsers build as empty, quickly', () => {
    const page = '<title>A &amp;amp; B</title><meta name="description" content="D"><p>text</p><meta name="description" content="late">';
    expect(findHeadInformation(page, 'https://example.org')).toEqual({ title: 'A & B', icon: '', description: 'D', image: '' });
    expect(findHeadInformation('<title>T</title>' + '<div>'.repeat(40_000), 'https://example.org')).toEqual({
      title: '',
      icon: '',
      description: '',
      image: '',
    });
  });

  it('forgets answers after an hour and the oldest beyond its bound', () => {
    let now = 0;
    const cache = new UrlDetailsCache(2, () => now);
    const d = { title: 't', icon: '', description: '', image: '' };
    cache.set('a', d);
    cache.set('b', d);
    cache.set('c', d);
    expect([cache.get('a'), cache.get('b'), cache.get('c')]).toEqual([undefined, d, d]);
    now = 3600 * 1000;
    expect(cache.get('b')).toBeUndefined();
  });
});
