/**
 * A reply with a raw (non-JSON) body: the pipeline hands it on untouched by `_fields`, `_embed` and
 * `_envelope`, the cluster transport keeps it, and the gateway writes it with its own content type.
 */
import type { AddressInfo } from 'node:net';
import { createServer, type Server } from 'node:http';
import type { Authenticator } from '../auth/authenticate';
import { createGatewayApp } from '../../services/gateway/http';
import { createServiceHost } from '../../services/host';
import { endpoint } from './params';
import { RouteRegistry } from './registry';
import { remoteDispatch } from './remote';
import { RestServer, type RestInput } from './server';
import { ServiceApp } from './service';
import { siteFrom } from './site';

const site = siteFrom({ SITE_URL: 'http://site.test', SITE_NAME: 'T', SITE_DESCRIPTION: '', SITE_TIMEZONE: 'UTC' });
const XML = '<?xml version="1.0"?>\n<thing><id>1</id></thing>\n';

function service(): { app: ServiceApp; registry: RouteRegistry } {
  const registry = new RouteRegistry();
  const get = endpoint({ id: 'raw.get', service: 'oembed', methods: ['GET'], args: { format: { type: 'string', default: 'json' } } });
  registry.add({ namespace: 'raw/v1', pattern: '/raw/v1/thing', endpoints: [get] });
  const app = new ServiceApp('oembed', registry);
  app.bind(get, {
    handle: async (ctx) => {
      const body = { id: 1, name: 'thing', _links: { self: [{ embeddable: true, href: `${site.restRoot}raw/v1/thing` }] } };
      return ctx.input.format === 'xml' ? { body, raw: { contentType: 'text/xml; charset=UTF-8', text: XML } } : { body };
    },
  });
  return { app: app.verify(), registry };
}

const input = (query: Record<string, unknown>): RestInput => ({ method: 'GET', path: '/raw/v1/thing', query, bodyType: 'none', headers: {}, user: null });

describe('raw bodies in the pipeline', () => {
  const { app, registry } = service();
  const server = new RestServer(registry, site, { oembed: app.dispatch });

  it('JSON replies still get the global parameters', async () => {
    const out = await server.handle(input({ _fields: 'id' }));
    expect(out.raw).toBeUndefined();
    expect(out.body).toEqual({ id: 1 });
  });

  it('a raw reply passes _fields, _embed and _envelope untouched', async () => {
    const out = await server.handle(input({ format: 'xml', _fields: 'id', _embed: '1', _envelope: '1' }));
    expect(out.status).toBe(200);
    expect(out.raw).toEqual({ contentType: 'text/xml; charset=UTF-8', text: XML });
    expect(out.body).toMatchObject({ id: 1, name: 'thing' });
    expect(out.body).not.toHaveProperty('_embedded');
  });

  it('the cluster transport keeps the raw body', async () => {
    const secret = 'raw-body-test-secret-0123456789abcdef';
    const host = createServiceHost({ service: app, secret, maxBodyBytes: 65536, ready: async () => undefined });
    const listening: Server = await new Promise((resolve) => {
      const s = host.listen(0, '127.0.0.1', () => resolve(s));
    });
    try {
      const remote = new RestServer(registry, site, { oembed: remoteDispatch(`http://127.0.0.1:${(listening.address() as AddressInfo).port}`, secret) });
      const out = await remote.handle(input({ format: 'xml' }));
      expect(out.raw).toEqual({ contentType: 'text/xml; charset=UTF-8', text: XML });
    } finally {
      await new Promise((resolve) => listening.close(resolve));
    }
  });
});

describe('raw bodies at the gateway', () => {
  const { app, registry } = service();
  const rest = new RestServer(registry, site, { oembed: app.dispatch });
  const auth = { authenticate: async () => null } as unknown as Authenticator;
  let server: Server;
  let base: string;

  beforeAll(async () => {
    const gateway = createGatewayApp({ rest, auth, site, maxBodyBytes: 65536, ready: async () => undefined });
    server = await new Promise((resolve) => {
      const s = createServer(gateway.callback()).listen(0, '127.0.0.1', () => resolve(s));
    });
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/index.php/cms-json`;
  });
  afterAll(() => new Promise((resolve) => server.close(resolve)));

  it('writes the text with its content type, keeping the reference headers', async () => {
    const res = await fetch(`${base}/raw/v1/thing?format=xml&_pretty=1`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/xml; charset=UTF-8');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('link')).toContain('rel="https://api.w.org/"');
    expect(await res.text()).toBe(XML);
  });

  it('HEAD answers without a body, as for JSON', async () => {
    const res = await fetch(`${base}/raw/v1/thing?format=xml`, { method: 'HEAD' });
    expect(res.status).toBe(200);
    expect(await res.text()).toBe('');
  });

  it('a JSON reply is JSON as before', async () => {
    const res = await fetch(`${base}/raw/v1/thing`);
    expect(res.headers.get('content-type')).toBe('application/json; charset=UTF-8');
    expect(((await res.json()) as { name: string }).name).toBe('thing');
  });
});
