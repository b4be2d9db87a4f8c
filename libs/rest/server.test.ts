import { endpoint } from './params';
import { RouteRegistry } from './registry';
import { RestServer, type RestInput } from './server';
import { ServiceApp } from './service';
import { siteFrom } from './site';
import { RestError } from './errors';

const site = siteFrom({ SITE_URL: 'http://site.test', SITE_NAME: 'T', SITE_DESCRIPTION: '', SITE_TIMEZONE: 'UTC' });

const T = {
  list: endpoint({ id: 't.list', service: 'content', methods: ['GET'], args: { foo: { type: 'string', default: 'bar' }, n: { type: 'integer' } } }),
  create: endpoint({ id: 't.create', service: 'content', methods: ['POST'], args: { name: { type: 'string', required: true } }, allowBatch: true }),
  get: endpoint({ id: 't.get', service: 'content', methods: ['GET'], args: { id: { type: 'integer' } }, captures: ['id'] }),
  delete: endpoint({ id: 't.delete', service: 'content', methods: ['DELETE'], args: { id: { type: 'integer' } }, captures: ['id'] }),
};

function setup() {
  const registry = new RouteRegistry();
  registry.add({ namespace: 'test/v1', pattern: '/test/v1/things', endpoints: [T.list, T.create] });
  registry.add({ namespace: 'test/v1', pattern: '/test/v1/things/(?P<id>[\\d]+)', endpoints: [T.get, T.delete] });
  const app = new ServiceApp('content', registry);
  const seen: Record<string, unknown>[] = [];
  app.bind(T.list, {
    handle: async (ctx) => (
      seen.push(ctx.params),
      {
        body: [
          { id: 1, name: 'a', _links: { author: [{ embeddable: true, href: `${site.restRoot}test/v1/things/7` }, { href: 'https://elsewhere.test/x' }] } },
        ],
      }
    ),
  });
  app.bind(T.create, {
    permission: async (ctx) => (ctx.user ? true : new RestError('nope', 'no', 401)),
    handle: async (ctx) => (seen.push(ctx.params), { status: 201, body: { name: ctx.params.name } }),
  });
  app.bind(T.get, {
    handle: async (ctx) => (seen.push(ctx.params), { body: { id: ctx.params.id, nested: { a: 1, b: 2 }, context: ctx.params.context ?? null } }),
  });
  app.bind(T.delete, { permission: async () => false, handle: async () => ({ body: null }) });
  app.verify();
  const server = new RestServer(registry, site, { content: app.dispatch });
  return { server, seen };
}

const base = (over: Partial<RestInput>): RestInput => ({ method: 'GET', path: '/', query: {}, bodyType: 'none', headers: {}, user: null, ...over });

describe('RestServer pipeline', () => {
  it('matches case-insensitively, strips a trailing slash and applies defaults', async () => {
    const { server, seen } = setup();
    const out = await server.handle(base({ path: '/TEST/v1/things/' }));
    expect(out.status).toBe(200);
    expect(seen[0].foo).toBe('bar');
  });

  it('takes the body over the query over URL captures', async () => {
    const { server, seen } = setup();
    await server.handle(
      base({
        method: 'POST',
        path: '/test/v1/things',
        query: { name: 'q' },
        body: { name: 'b' },
        bodyType: 'json',
        user: { id: 1, login: 'x', roles: [], caps: [] },
      }),
    );
    expect(seen[0].name).toBe('b');
    await server.handle(base({ path: '/test/v1/things/5', query: { id: '9' } }));
    expect(seen[1].id).toBe(9);
  });

  it('reads a JSON null as unset: the next source with a value gives the argument', async () => {
    const { server, seen } = setup();
    const user = { id: 1, login: 'x', roles: [], caps: [] };
    const post = (query: Record<string, unknown>) =>
      server.handle(base({ method: 'POST', path: '/test/v1/things', query, body: { name: null }, bodyType: 'json', user }));
    expect((await post({ name: 'q' })).status).toBe(201);
    expect(seen[0].name).toBe('q');
    const missing = await post({});
    expect(missing.status).toBe(400);
    expect(missing.body).toMatchObject({ code: 'rest_missing_callback_param' });
  });

  it('falls back from HEAD to GET and reports Allow from permission checks', async () => {
    const { server } = setup();
    const head = await server.handle(base({ method: 'HEAD', path: '/test/v1/things' }));
    expect(head.status).toBe(200);
    expect(head.headers.Allow).toBe('GET');
    const asUser = await server.handle(base({ path: '/test/v1/things', user: { id: 1, login: 'x', roles: [], caps: [] } }));
    expect(asUser.headers.Allow).toBe('GET, POST');
  });

  it('answers rest_forbidden with 401 for a guest when a permission check says false', async () => {
    const { server } = setup();
    const out = await server.handle(base({ method: 'DELETE', path: '/test/v1/things/3' }));
    expect(out.status).toBe(401);
    expect((out.body as { code: string }).code).toBe('rest_forbidden');
  });

  it('embeds only embeddable links, in embed context, with placeholders for the others', async () => {
    const { server } = setup();
    const out = await server.handle(base({ path: '/test/v1/things', query: { _embed: '1' } }));
    const item = (out.body as Array<Record<string, any>>)[0];
    expect(item._embedded.author).toEqual([{ id: 7, nested: { a: 1, b: 2 }, context: 'embed' }, {}]);
  });

  it('applies _fields with dot paths to items and lists', async () => {
    const { server } = setup();
    const out = await server.handle(base({ path: '/test/v1/things/4', query: { _fields: 'id,nested.b' } }));
    expect(out.body).toEqual({ id: 4, nested: { b: 2 } });
  });

  it('does not filter error bodies with _fields', async () => {
    const { server } = setup();
    const out = await server.handle(base({ path: '/test/v1/nothing', query: { _fields: 'id' } }));
    expect(out.body).toEqual({ code: 'rest_no_route', message: 'No route was found matching the URL and request method.', data: { status: 404 } });
  });
});

describe('RouteRegistry', () => {
  it('registers a namespace root before the first route and refuses duplicates', () => {
    const r = new RouteRegistry();
    r.add({ namespace: 'a/v1', pattern: '/a/v1/x', endpoints: [{ id: 'x', service: 'content', methods: ['GET'], args: {} }] });
    expect(r.all().map((x) => x.pattern)).toEqual(['/a/v1', '/a/v1/x']);
    expect(() => r.add({ namespace: 'a/v1', pattern: '/a/v1/x', endpoints: [] })).toThrow(/declared twice/);
    expect(() => r.add({ namespace: 'a/v1', pattern: '/a/v1/y', endpoints: [{ id: 'x', service: 'content', methods: ['GET'], args: {} }] })).toThrow(
      /declared twice/,
    );
  });

  it('turns (?P<name>) groups into parameters and only tries routes of a matching namespace', () => {
    const r = new RouteRegistry();
    r.add({ namespace: 'a/v1', pattern: '/a/v1/x/(?P<id>[\\d]+)', endpoints: [{ id: 'x', service: 'content', methods: ['GET'], args: {} }] });
    r.add({ namespace: 'b/v1', pattern: '/b/v1/(?P<any>.+)', endpoints: [{ id: 'y', service: 'content', methods: ['GET'], args: {} }] });
    expect(r.match('/a/v1/x/12', null)).toMatchObject({ params: { id: '12' } });
    expect(r.match('/a/v1/x/abc', null)).toBeNull();
  });

  it('tries the routes of every namespace that prefixes the path, in the order they were added, and all routes when none does', () => {
    const ep = (id: string) => [{ id, service: 'content' as const, methods: ['GET' as const], args: {} }];
    const outer = new RouteRegistry();
    outer.add({ namespace: 'n', pattern: '/n/(?P<rest>.+)', endpoints: ep('outer') });
    outer.add({ namespace: 'n/v2', pattern: '/n/v2/thing', endpoints: ep('inner') });
    outer.add({ namespace: 'd', pattern: '/(?P<slug>[a-z]+)', endpoints: ep('anywhere') });
    expect(outer.match('/n/v2/thing', null)?.route.pattern).toBe('/n/(?P<rest>.+)');
    expect(outer.match('/n/v2', null)?.route.pattern).toBe('/n/(?P<rest>.+)');
    expect(outer.match('/n', null)?.route.pattern).toBe('/n');
    // No namespace prefixes these paths ("n" is not a prefix of "/nx"): every route is tried.
    expect(outer.match('/nx', null)).toMatchObject({ route: { pattern: '/(?P<slug>[a-z]+)' }, params: { slug: 'nx' } });
    expect(outer.match('/zzz/1', null)).toBeNull();

    const inner = new RouteRegistry();
    inner.add({ namespace: 'n/v2', pattern: '/n/v2/thing', endpoints: ep('inner') });
    inner.add({ namespace: 'n', pattern: '/n/(?P<rest>.+)', endpoints: ep('outer') });
    expect(inner.match('/n/v2/thing', null)?.route.pattern).toBe('/n/v2/thing');
    expect(inner.match('/n/v2/other', null)).toMatchObject({ params: { rest: 'v2/other' } });
  });

  it('finds, for a path no namespace prefixes, what a scan of every route finds: case aside, and a namespace with a regex metacharacter', () => {
    const ep = (id: string) => [{ id, service: 'content' as const, methods: ['GET' as const], args: {} }];
    const r = new RouteRegistry();
    r.add({ namespace: '', pattern: '/', endpoints: ep('root') });
    r.add({ namespace: 'a/v1', pattern: '/a/v1/x/(?P<id>[\\d]+)', endpoints: ep('x') });
    r.add({ namespace: 'o/1.0', pattern: '/o/1.0/embed', endpoints: ep('embed') });
    r.add({ namespace: 'loose', pattern: '/elsewhere/(?P<slug>[a-z]+)', endpoints: ep('loose') });
    const scan = (path: string) => r.all().find((route) => route.regex.test(path))?.pattern ?? null;
    for (const path of ['/', '/A/V1/X/7', '/a/v1/x/7', '/o/1x0/embed', '/O/1.0/EMBED', '/elsewhere/abc', '/no/such/route', '/a/v1x', '/a']) {
      expect(r.match(path, 'anyone')?.route.pattern ?? null).toBe(scan(path));
    }
    expect(r.match('/A/V1/X/7', 'anyone')).toMatchObject({ params: { id: '7' } });
  });

  it('a service must bind every endpoint it owns', () => {
    const r = new RouteRegistry();
    const x = endpoint({ id: 'x', service: 'content', methods: ['GET'], args: {} });
    r.add({ namespace: 'a/v1', pattern: '/a/v1/x', endpoints: [x] });
    expect(() => new ServiceApp('content', r).verify()).toThrow(/no handler for x/);
    expect(() => new ServiceApp('calendar', r).bind(x, { handle: async () => ({ body: null }) })).toThrow(/belongs to content/);
    // A constant of the same id that the route does not list is refused.
    const twin = endpoint({ id: 'x', service: 'content', methods: ['GET'], args: {} });
    expect(() => new ServiceApp('content', r).bind(twin, { handle: async () => ({ body: null }) })).toThrow(/not the constant the route declares/);
  });

  it('refuses captures a route does not have, or that its endpoints declare differently', () => {
    const r = new RouteRegistry();
    const bad = endpoint({ id: 'c', service: 'content', methods: ['GET'], args: { id: { type: 'integer' } }, captures: ['id'] });
    expect(() => r.add({ namespace: 'c/v1', pattern: '/c/v1/x', endpoints: [bad] })).toThrow(/does not have/);
    const get = endpoint({ id: 'g', service: 'content', methods: ['GET'], args: { id: { type: 'integer' } }, captures: ['id'] });
    const put = endpoint({ id: 'p', service: 'content', methods: ['PUT'], args: { id: { type: 'string' } } });
    expect(() => r.add({ namespace: 'c/v1', pattern: '/c/v1/x/(?P<id>\\d+)', endpoints: [get, put] })).toThrow(/p declares otherwise/);
  });
});

describe('unexpected failures', () => {
  it('answer 500 with a generic message and no internals', async () => {
    const registry = new RouteRegistry();
    const boom = endpoint({ id: 'boom', service: 'content', methods: ['GET'], args: {} });
    registry.add({ namespace: 'x/v1', pattern: '/x/v1/boom', endpoints: [boom] });
    const app = new ServiceApp('content', registry);
    app.bind(boom, {
      handle: async () => {
        throw new Error('SQLITE_CORRUPT: database disk image is malformed at /var/data');
      },
    });
    const server = new RestServer(registry, site, { content: app.dispatch });
    const out = await server.handle(base({ path: '/x/v1/boom' }));
    expect(out.status).toBe(500);
    expect(out.body).toEqual({ code: 'rest_internal_error', message: 'The server could not complete the request.', data: { status: 500 } });
    expect(JSON.stringify(out.body)).not.toMatch(/SQLITE|var\/data/);
  });

  it('answer 503 when the owning service cannot be reached', async () => {
    const registry = new RouteRegistry();
    registry.add({ namespace: 'x/v1', pattern: '/x/v1/far', endpoints: [{ id: 'far', service: 'calendar', methods: ['GET'], args: {} }] });
    const server = new RestServer(registry, site, {
      calendar: async () => {
        throw new Error('connect ECONNREFUSED 10.0.0.7:8080');
      },
    });
    const out = await server.handle(base({ path: '/x/v1/far' }));
    expect(out.status).toBe(503);
    expect(JSON.stringify(out.body)).not.toMatch(/ECONNREFUSED/);
  });
});
