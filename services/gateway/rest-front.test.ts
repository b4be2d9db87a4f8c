/**
 * The REST front on Node's request and response: how a request target is told apart (as Koa's parseurl
 * splits it, and through Koa for targets only it splits), the caller's address behind trusted proxies,
 * and the answer's framing as Koa wrote it (a HEAD answer's length, no body for 204 and 304, an empty
 * body's length, Vary), and what escapes the steps answered as the error envelope.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import type { Authenticator } from '#libs/auth/authenticate';
import { endpoint } from '#libs/rest/params';
import { RouteRegistry } from '#libs/rest/registry';
import { RestServer } from '#libs/rest/server';
import { ServiceApp } from '#libs/rest/service';
import { siteFrom } from '#libs/rest/site';
import { clientAddress } from './client-ip';
import { createGatewayApp } from './http';
import { restRoutePath, splitTarget } from './middleware/route';

const site = siteFrom({ SITE_URL: 'http://site.test', SITE_NAME: 'T', SITE_DESCRIPTION: '', SITE_TIMEZONE: 'UTC' });

describe('telling a REST request apart', () => {
  it('splits an origin-form target at its first ?, and leaves any other to Koa', () => {
    expect(splitTarget('/index.php/cms-json/a?b=1&c=?')).toEqual({ path: '/index.php/cms-json/a', querystring: 'b=1&c=?' });
    expect(splitTarget('/x')).toEqual({ path: '/x', querystring: '' });
    expect(splitTarget('http://site.test/index.php/cms-json/')).toBeUndefined();
    expect(splitTarget('/index.php/cms-json/a#frag')).toBeUndefined();
    expect(splitTarget('*')).toBeUndefined();
  });

  it('finds the route path under the REST root or in rest_route on / and /index.php', () => {
    expect(restRoutePath('/index.php/cms-json', {})).toBe('/');
    expect(restRoutePath('/index.php/cms-json/cms/v2/posts%2F1', {})).toBe('/cms/v2/posts/1');
    expect(restRoutePath('/index.php/cms-json/%E0%A4%A', {})).toBe('/%E0%A4%A');
    const query: Record<string, unknown> = { rest_route: '/cms/v2/posts', page: '2' };
    expect(restRoutePath('/index.php', query)).toBe('/cms/v2/posts');
    expect(query).toEqual({ page: '2' });
    expect(restRoutePath('/', { rest_route: '' })).toBe('/');
    expect(restRoutePath('/events/', { rest_route: '/x' })).toBeUndefined();
    expect(restRoutePath('/index.php/cms-jsonx', {})).toBeUndefined();
    expect(restRoutePath('/', { rest_route: ['/x'] })).toBeUndefined();
  });
});

describe('the caller address', () => {
  const req = (xff?: string): IncomingMessage =>
    ({ headers: xff === undefined ? {} : { 'x-forwarded-for': xff }, socket: { remoteAddress: '10.0.0.9' } }) as unknown as IncomingMessage;

  it('is the socket address without trusted proxies, whatever X-Forwarded-For says', () => {
    expect(clientAddress(req('1.2.3.4'), 0)).toBe('10.0.0.9');
  });

  it('is the first of the entries the trusted proxies added', () => {
    expect(clientAddress(req('6.6.6.6, 1.2.3.4'), 1)).toBe('1.2.3.4');
    expect(clientAddress(req('6.6.6.6, 1.2.3.4 , 5.5.5.5'), 2)).toBe('1.2.3.4');
    expect(clientAddress(req('1.2.3.4'), 3)).toBe('1.2.3.4');
    expect(clientAddress(req(''), 1)).toBe('10.0.0.9');
    expect(clientAddress(req(), 1)).toBe('10.0.0.9');
  });
});

describe('answers on the wire', () => {
  const registry = new RouteRegistry();
  const get = endpoint({ id: 'front.get', service: 'oembed', methods: ['GET'], args: { as: { type: 'string', default: 'json' } } });
  registry.add({ namespace: 'front/v1', pattern: '/front/v1/thing', endpoints: [get] });
  const app = new ServiceApp('oembed', registry);
  app.bind(get, {
    handle: async (ctx) => {
      switch (ctx.input.as) {
        case 'none':
          return { status: 204, body: null };
        case 'undefined':
          return { body: undefined };
        case 'vary':
          return { body: { ok: true }, headers: { Vary: 'Accept' } };
        default:
          return { body: { name: 'thïng' } };
      }
    },
  });
  const rest = new RestServer(registry, site, { oembed: app.verify().dispatch });
  let failLogin = false;
  const auth = {
    authenticate: async () => {
      if (failLogin) throw new Error('the credential store went away');
      return null;
    },
  } as unknown as Authenticator;
  let server: Server;
  let base: string;
  let port: number;

  beforeAll(async () => {
    const gateway = createGatewayApp({ rest, auth, site, maxBodyBytes: 65536, ready: async () => undefined });
    server = await new Promise((resolve) => {
      const s = createServer(gateway.callback()).listen(0, '127.0.0.1', () => resolve(s));
    });
    port = (server.address() as AddressInfo).port;
    base = `http://127.0.0.1:${port}/index.php/cms-json/front/v1/thing`;
  });
  afterAll(() => new Promise((resolve) => server.close(resolve)));

  it('a JSON answer has its length, and HEAD the same headers without the body', async () => {
    const res = await fetch(base);
    const text = await res.text();
    expect(text).toBe('{"name":"thïng"}');
    expect(res.headers.get('content-length')).toBe(String(Buffer.byteLength(text)));
    expect(res.headers.get('content-type')).toBe('application/json; charset=UTF-8');
    expect(res.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    const head = await fetch(base, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.headers.get('content-length')).toBe(res.headers.get('content-length'));
    expect(head.headers.get('content-type')).toBe('application/json; charset=UTF-8');
    expect(await head.text()).toBe('');
  });

  it('keeps the caller’s request id', async () => {
    const res = await fetch(base, { headers: { 'X-Request-Id': 'abc-123' } });
    expect(res.headers.get('x-request-id')).toBe('abc-123');
  });

  it('204 carries no body, type or length', async () => {
    const res = await fetch(`${base}?as=none`);
    expect(res.status).toBe(204);
    expect(res.headers.get('content-type')).toBeNull();
    expect(res.headers.get('content-length')).toBeNull();
    expect(res.headers.get('x-robots-tag')).toBe('noindex');
  });

  it('an answer without a body is empty, with a length of 0 and no type', async () => {
    const res = await fetch(`${base}?as=undefined`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-length')).toBe('0');
    expect(res.headers.get('content-type')).toBeNull();
    expect(await res.text()).toBe('');
  });

  it('a cross-origin answer adds Origin to the answer’s own Vary', async () => {
    const res = await fetch(`${base}?as=vary`, { headers: { Origin: 'http://app.test' } });
    expect(res.headers.get('vary')).toBe('Accept, Origin');
    expect(res.headers.get('access-control-allow-origin')).toBe('http://app.test');
    const plain = await fetch(base, { headers: { Origin: 'http://app.test' } });
    expect(plain.headers.get('vary')).toBe('Origin');
  });

  it('a target only Koa splits (absolute form) still reaches the REST front', async () => {
    const raw = await new Promise<string>((resolve, reject) => {
      const socket = connect(port, '127.0.0.1', () => {
        socket.write(`GET http://site.test/index.php/cms-json/front/v1/thing?as=vary HTTP/1.1\r\nHost: site.test\r\nConnection: close\r\n\r\n`);
      });
      let data = '';
      socket.on('data', (c) => (data += c.toString('utf8')));
      socket.on('end', () => resolve(data));
      socket.on('error', reject);
    });
    expect(raw).toMatch(/^HTTP\/1\.1 200 OK\r\n/);
    expect(raw).toMatch(/\r\nX-Robots-Tag: noindex\r\n/);
    expect(raw).toMatch(/\r\nVary: Accept\r\n/);
    expect(raw.endsWith('{"ok":true}')).toBe(true);
  });

  it('a site request does not meet the REST front', async () => {
    const res = await fetch(`http://127.0.0.1:${port}/nothing-here`);
    expect(res.status).toBe(404);
    expect(res.headers.get('x-robots-tag')).toBeNull();
    expect(res.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('what escapes a step is the error envelope, and the next request is served', async () => {
    failLogin = true;
    try {
      const res = await fetch(base, { headers: { 'X-Request-Id': 'fail-1' } });
      expect(res.status).toBe(500);
      expect(res.headers.get('x-request-id')).toBe('fail-1');
      expect(res.headers.get('content-type')).toBe('application/json; charset=UTF-8');
      const body = (await res.json()) as { code?: unknown };
      expect(body).toMatchObject({ data: { status: 500 } });
      expect(typeof body.code).toBe('string');
      expect(JSON.stringify(body)).not.toContain('credential store');
    } finally {
      failLogin = false;
    }
    expect((await fetch(base)).status).toBe(200);
  });
});
