/**
 * HEAD over real HTTP (node's client, which shows the headers and body bytes as sent): for REST
 * routes of every namespace, error answers and the site's own paths, HEAD carries the headers GET
 * carries (Content-Length equal to the GET body's length, Content-Type, paging totals) and no body.
 */
import http from 'node:http';
import sharp from 'sharp';
import { ADMIN, basic, startTestApp, type TestApp } from '../../test/support/app';

let app: TestApp;

interface Raw {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

function send(method: string, url: string, headers: Record<string, string> = {}, body?: Buffer): Promise<Raw> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** Headers that differ between any two requests. */
const VOLATILE = new Set(['date', 'x-request-id', 'connection', 'keep-alive']);
const stable = (h: http.IncomingHttpHeaders) => Object.fromEntries(Object.entries(h).filter(([k]) => !VOLATILE.has(k)));

async function compare(url: string, headers: Record<string, string> = {}): Promise<{ get: Raw; head: Raw }> {
  const get = await send('GET', url, headers);
  const head = await send('HEAD', url, headers);
  expect(head.status).toBe(get.status);
  expect(head.body.length).toBe(0);
  expect(get.body.length).toBeGreaterThan(0);
  expect(get.headers['content-length']).toBe(String(get.body.length));
  expect(stable(head.headers)).toEqual(stable(get.headers));
  return { get, head };
}

const rest = (path: string) => `${app.restRoot}${path}`;
const auth = () => ({ Authorization: basic(ADMIN.login, ADMIN.appPassword) });

let postLink: string;
let uploadPath: string;

beforeAll(async () => {
  app = await startTestApp();
  const post = await app.admin('POST', '/cms/v2/posts', { body: { title: 'Head post', content: 'Body text', status: 'publish' } });
  await app.admin('POST', '/cms/v2/posts', { body: { title: 'Second', status: 'publish' } });
  postLink = post.body.link;
  await app.admin('POST', '/vendor/events/v1/events', { body: { title: 'An event', start_date: '2031-05-01 18:00:00', end_date: '2031-05-01 20:00:00' } });
  const png = await sharp({ create: { width: 20, height: 10, channels: 3, background: { r: 10, g: 20, b: 30 } } })
    .png()
    .toBuffer();
  const media = await app.admin('POST', '/cms/v2/media', {
    raw: png,
    contentType: 'image/png',
    headers: { 'Content-Disposition': 'attachment; filename="head.png"' },
  });
  uploadPath = new URL(media.body.source_url).pathname;
});
afterAll(async () => {
  await app?.close();
});

describe('HEAD answers as GET without the body', () => {
  it('the site index, anonymous (cached) and signed in', async () => {
    await compare(rest('/'));
    const { head } = await compare(rest('/'));
    expect(head.headers['content-type']).toBe('application/json; charset=UTF-8');
    await compare(rest('/'), auth());
    await compare(`${app.url}/?rest_route=/cms/v2`);
  });

  it('cms/v2 collections and items, with their totals', async () => {
    const { head } = await compare(rest('/cms/v2/posts?per_page=1'));
    expect(head.headers['x-wp-total']).toBe('2');
    expect(head.headers['x-wp-totalpages']).toBe('2');
    await compare(rest('/cms/v2/posts/1'));
    await compare(rest('/cms/v2/users/me'), auth());
    await compare(rest('/cms/v2/posts?_envelope'));
    await compare(rest('/cms/v2/posts?_fields=id,title&_embed'));
  });

  it('vendor/events/v1 and ec/v1', async () => {
    const { head } = await compare(rest('/vendor/events/v1/events'));
    expect(Number(head.headers['content-length'])).toBeGreaterThan(4);
    await compare(rest('/ec/v1/events'));
    await compare(rest('/ec/v1/docs'));
    await compare(rest('/vendor/events/v1/doc'));
  });

  it('oembed in JSON and in XML', async () => {
    await compare(rest(`/oembed/1.0/embed?url=${encodeURIComponent(postLink)}`));
    const { head } = await compare(rest(`/oembed/1.0/embed?url=${encodeURIComponent(postLink)}&format=xml`));
    expect(head.headers['content-type']).toMatch(/xml/);
  });

  it('the abilities list of a signed-in caller', async () => {
    await compare(rest('/cms-abilities/v1/abilities'), auth());
  });

  it('error answers: no route, an invalid parameter, a failed sign-in', async () => {
    expect((await compare(rest('/nope/v9'))).get.status).toBe(404);
    expect((await compare(rest('/cms/v2/posts?per_page=abc'))).get.status).toBe(400);
    expect((await compare(rest('/cms/v2/posts'), { Authorization: basic('admin', 'wrong') })).get.status).toBe(401);
  });

  it('site paths: uploads, the authorization page, health and the home page', async () => {
    const { head } = await compare(`${app.url}${uploadPath}`);
    expect(head.headers['content-type']).toBe('image/png');
    // The page's session (a new one per request without it) is carried, so both answers are alike.
    const session = { Cookie: `cms_authorize_session=${'ab'.repeat(16)}` };
    await compare(`${app.url}/cms-admin/authorize-application.php?app_name=Head`, session);
    await compare(`${app.url}/cms-admin/authorize-application.php?success_url=ftp://x`, session);
    await compare(`${app.url}/healthz`);
    await compare(`${app.url}/`);
  });
});
