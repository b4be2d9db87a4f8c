/**
 * The request log line and the request metrics: every error answer's line carries the error `code`,
 * and requests refused before the handler (failed sign-in, throttled, body too large) are labelled with
 * their route pattern, in the log and in the metrics, never with the raw path.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { logTo } from '#libs/observability/logger';
import { ADMIN, basic, startTestApp, type TestApp } from '../../test/support/app';
import { createServiceHost } from '../host';

let app: TestApp;
let lines: Array<Record<string, any>>;
let restore: () => void;

beforeAll(async () => {
  app = await startTestApp({ AUTH_FAILURE_LIMIT: '3', MAX_BODY_BYTES: '4096' });
  lines = [];
  restore = logTo({ write: (line: string) => lines.push(JSON.parse(line)) });
});
afterAll(async () => {
  restore?.();
  await app?.close();
});

/** The request line of the answer carrying this X-Request-Id. */
async function logged(method: string, path: string, opts: Parameters<TestApp['request']>[2] = {}): Promise<Record<string, any>> {
  const id = `log-${Math.random().toString(36).slice(2)}`;
  await app.request(method, path, { ...opts, headers: { ...(opts.headers ?? {}), 'X-Request-Id': id } });
  const line = lines.find((l) => l.msg === 'request' && l.requestId === id);
  expect(line).toBeDefined();
  return line!;
}

/** The counter line of a series (label values escaped as the text format does). */
const series = async (route: string, method: string, status: number) => {
  const text = (await app.request('GET', '/metrics')).text;
  const label = route.replace(/\\/g, '\\\\');
  return text.split('\n').find((l) => l.startsWith(`http_requests_total{method="${method}",route="${label}",status="${status}"}`));
};

describe('request log lines', () => {
  it('a success has its route and no code', async () => {
    const line = await logged('GET', '/cms/v2/posts');
    expect(line).toMatchObject({ method: 'GET', path: '/index.php/cms-json/cms/v2/posts', route: '/cms/v2/posts', status: 200 });
    expect(line).not.toHaveProperty('code');
  });

  it('errors from validation, the handler and routing carry their code', async () => {
    expect(await logged('GET', '/cms/v2/posts?per_page=abc')).toMatchObject({ route: '/cms/v2/posts', status: 400, code: 'rest_invalid_param' });
    expect(await logged('GET', '/cms/v2/posts/987654')).toMatchObject({ route: '/cms/v2/posts/(?P<id>[\\d]+)', status: 404, code: 'rest_post_invalid_id' });
    expect(await logged('POST', '/cms/v2/posts', { body: { title: 'x' } })).toMatchObject({ route: '/cms/v2/posts', status: 401, code: 'rest_cannot_create' });
    expect(await logged('GET', '/nothing/here')).toMatchObject({ route: 'other', status: 404, code: 'rest_no_route' });
    expect(await logged('POST', '/cms/v2/posts', { raw: '{bad', contentType: 'application/json', auth: [ADMIN.login, ADMIN.appPassword] })).toMatchObject({
      status: 400,
      code: 'rest_invalid_json',
    });
  });

  it('a failed sign-in, a throttled caller and a body too large are labelled with their route', async () => {
    const failed = await logged('GET', '/cms/v2/posts/5', { headers: { Authorization: basic('admin', 'not-the-password') } });
    expect(failed).toMatchObject({ route: '/cms/v2/posts/(?P<id>[\\d]+)', status: 401, code: 'incorrect_password' });
    let throttled: Record<string, any> | undefined;
    for (let i = 0; i < 5 && !throttled; i++) {
      const line = await logged('GET', '/vendor/events/v1/events', { headers: { Authorization: basic('admin', `wrong-${i}`) } });
      if (line.status === 429) throttled = line;
    }
    expect(throttled).toMatchObject({ route: '/vendor/events/v1/events', code: expect.any(String) });
    const big = await logged('POST', '/cms/v2/posts', { body: { content: 'x'.repeat(8000) } });
    expect(big).toMatchObject({ route: '/cms/v2/posts', status: 413, code: 'rest_request_too_large' });
  });

  it('site paths have fixed labels', async () => {
    expect((await logged('GET', '/healthz')).route).toBe('/healthz');
    expect((await logged('GET', '/cms-content/uploads/2020/01/none.png')).route).toBe('/cms-content/uploads/*');
    expect((await logged('GET', `${app.url}/`)).route).toBe('home');
    expect((await logged('GET', `${app.url}/cms-admin/authorize-application.php?app_name=x`)).route).toBe('/cms-admin/*');
    expect((await logged('GET', `${app.url}/cms-admin/other-${Math.random()}.php`)).route).toBe('other');
    expect((await logged('GET', `${app.url}/no/such/page`)).route).toBe('other');
  });
});

describe('request metrics', () => {
  it('count a failed sign-in under its route pattern, never under the raw path', async () => {
    // 401, or 429 once the earlier failures from this address reached the limit: refused before routing either way.
    const refused = await app.request('GET', '/cms/v2/pages/4242', { headers: { Authorization: basic('nobody-here', 'x') } });
    expect([401, 429]).toContain(refused.status);
    expect(await series('/cms/v2/pages/(?P<id>[\\d]+)', 'GET', refused.status)).toMatch(/ [1-9]\d*$/);
    const text = (await app.request('GET', '/metrics')).text;
    // No label holds the raw path's id (a sample's value may happen to contain the digits).
    expect(text).not.toMatch(/\{[^}]*4242[^}]*\}/);
    expect(text).not.toContain('route="/index.php');
  });

  it('a service host labels requests by endpoint or a fixed name, not by the path asked for', async () => {
    const host = createServiceHost({ maxBodyBytes: 1024, ready: async () => undefined });
    const server = http.createServer(host.callback());
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    try {
      const port = (server.address() as AddressInfo).port;
      await fetch(`http://127.0.0.1:${port}/random-path-31337`);
    } finally {
      await new Promise((r) => server.close(r));
    }
    const text = (await app.request('GET', '/metrics')).text;
    expect(text).not.toContain('random-path-31337');
    expect(await series('other', 'GET', 404)).toBeDefined();
  });
});
