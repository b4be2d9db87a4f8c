import { startTestApp, type TestApp } from '../../test/support/app';

let app: TestApp;

beforeAll(async () => {
  app = await startTestApp({ AUTH_FAILURE_LIMIT: '5' });
});
afterAll(async () => {
  await app.close();
});

describe('site index', () => {
  it('lists every field, the namespaces, authentication and routes built from the registry', async () => {
    const res = await app.request('GET', '/');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/json; charset=UTF-8');
    for (const k of [
      'name',
      'description',
      'url',
      'home',
      'gmt_offset',
      'timezone_string',
      'page_for_posts',
      'page_on_front',
      'show_on_front',
      'namespaces',
      'authentication',
      'routes',
    ]) {
      expect(res.body).toHaveProperty(k);
    }
    expect(res.body.namespaces).toEqual(expect.arrayContaining(['cms/v2', 'cms-site-health/v1', 'cms-block-editor/v1', 'cms-abilities/v1']));
    expect(res.body.authentication['application-passwords'].endpoints.authorization).toBe('http://example.test/cms-admin/authorize-application.php');
    const users = res.body.routes['/cms/v2/users'];
    expect(users.namespace).toBe('cms/v2');
    expect(users.methods).toEqual(['GET', 'POST']);
    expect(users.endpoints[0].args.per_page).toEqual({
      description: expect.any(String),
      type: 'integer',
      default: 10,
      minimum: 1,
      maximum: 100,
      required: false,
    });
    expect(users.endpoints[1].args.username.required).toBe(true);
    expect(users._links.self[0].href).toBe('http://example.test/index.php/cms-json/cms/v2/users');
    expect(res.body.routes['/cms/v2/users/(?P<id>[\\d]+)']._links).toBeUndefined();
    expect(res.body.routes['/batch/v1'].namespace).toBe('');
    // The namespace route comes right before the namespace's first route.
    const keys = Object.keys(res.body.routes);
    expect(keys.indexOf('/cms/v2')).toBe(keys.findIndex((k) => k.startsWith('/cms/v2/')) - 1);
  });

  it('sends the discovery Link header and serves the same index through ?rest_route=', async () => {
    const a = await app.request('GET', '/');
    expect(a.headers.get('link')).toBe('<http://example.test/index.php/cms-json/>; rel="https://api.w.org/"');
    const b = await app.request('GET', `${app.url}/?rest_route=/`);
    expect(b.body).toEqual(a.body);
    const c = await app.request('GET', `${app.url}/index.php?rest_route=/cms/v2`);
    expect(c.body.namespace).toBe('cms/v2');
    const home = await app.request('GET', `${app.url}/`);
    expect(home.headers.get('content-type')).toMatch(/text\/html/);
    expect(home.headers.get('link')).toContain('rel="https://api.w.org/"');
  });

  it('gives a signed-in caller the same index but for the routes shown to managers (with no-cache headers), and every caller the renamed site after a settings change', async () => {
    const guest = await app.request('GET', '/');
    const signedIn = await app.admin('GET', '/');
    expect(signedIn.status).toBe(200);
    // The administrator also has the events post type's routes (shown in REST to managers).
    const managersOnly = (routes: Record<string, unknown>) => Object.keys(routes).filter((r) => !(r in guest.body.routes));
    expect(managersOnly(signedIn.body.routes).every((r) => r.startsWith('/cms/v2/vendor_events/') || r === '/cms/v2/vendor_events')).toBe(true);
    expect(managersOnly(signedIn.body.routes)).toContain('/cms/v2/vendor_events');
    const withoutThem = { ...signedIn.body, routes: Object.fromEntries(Object.entries(signedIn.body.routes).filter(([r]) => r in guest.body.routes)) };
    expect(withoutThem).toEqual(guest.body);
    expect(signedIn.headers.get('cache-control')).toContain('no-store');
    expect(guest.headers.get('cache-control')).toBeNull();
    // Any context but help answers view's index; help adds each route's schema.
    const edit = await app.admin('GET', '/?context=edit');
    expect(edit.body).toEqual(signedIn.body);
    const help = await app.admin('GET', '/?context=help');
    expect(help.body.routes['/cms/v2/posts'].schema).toBeDefined();
    expect(guest.body.routes['/cms/v2/posts'].schema).toBeUndefined();
    const again = await app.admin('GET', '/?context=help');
    expect(again.body).toEqual(help.body);

    const before = guest.body.name;
    try {
      const changed = await app.admin('POST', '/cms/v2/settings', { body: { title: 'Renamed for the index' } });
      expect(changed.status).toBe(200);
      expect((await app.admin('GET', '/')).body.name).toBe('Renamed for the index');
      expect((await app.request('GET', '/')).body.name).toBe('Renamed for the index');
      expect((await app.admin('GET', '/?context=help')).body.name).toBe('Renamed for the index');
    } finally {
      await app.admin('POST', '/cms/v2/settings', { body: { title: before } });
    }
  });

  it('answers a namespace index with only its routes, and 404 for an unknown one', async () => {
    const res = await app.request('GET', '/cms/v2');
    expect(res.status).toBe(200);
    expect(res.body.namespace).toBe('cms/v2');
    expect(Object.keys(res.body.routes).every((r) => r.startsWith('/cms/v2'))).toBe(true);
    expect(res.body._links.up[0].href).toBe('http://example.test/index.php/cms-json/');
    const none = await app.request('GET', '/nope/v9');
    expect(none.status).toBe(404);
    expect(none.body.code).toBe('rest_no_route');
  });
});

describe('request pipeline errors', () => {
  it('rest_no_route for unknown routes and for a wrong method (no 405)', async () => {
    const a = await app.request('GET', '/cms/v2/nothing');
    expect(a.status).toBe(404);
    expect(a.body).toEqual({ code: 'rest_no_route', message: 'No route was found matching the URL and request method.', data: { status: 404 } });
    const b = await app.request('PATCH', '/cms/v2/users');
    expect(b.status).toBe(404);
    expect(b.body.code).toBe('rest_no_route');
  });

  it('rest_invalid_json for a broken JSON body, before anything else', async () => {
    const res = await app.request('POST', '/cms/v2/users', { raw: '{"invalid": JSON}' });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      code: 'rest_invalid_json',
      message: 'Invalid JSON body passed.',
      data: { status: 400, json_error_code: 4, json_error_message: 'Syntax error' },
    });
    const empty = await app.request('POST', '/batch/v1', { raw: '', contentType: 'application/json' });
    expect(empty.status).toBe(400);
    expect(empty.body.code).toBe('rest_missing_callback_param');
  });

  it('rest_missing_callback_param lists every missing required argument', async () => {
    const res = await app.request('POST', '/cms/v2/users', { body: {} });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('rest_missing_callback_param');
    expect(res.body.message).toBe('Missing parameter(s): username, email, password');
    expect(res.body.data.params).toEqual(['username', 'email', 'password']);
  });

  it('rest_invalid_param reports every invalid argument together, before permissions', async () => {
    const res = await app.request('GET', '/cms/v2/users?page=0&per_page=101&context=banana');
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('rest_invalid_param');
    expect(res.body.message).toBe('Invalid parameter(s): page, per_page, context');
    expect(res.body.data.params.per_page).toBe('per_page must be between 1 (inclusive) and 100 (inclusive)');
    expect(res.body.data.details.page).toEqual({ code: 'rest_out_of_bounds', message: 'page must be greater than or equal to 1', data: null });
    expect(res.body.data.details.context.code).toBe('rest_not_in_enum');
  });

  it('validation comes before permission: an anonymous bad create is 400, a good one 401', async () => {
    const bad = await app.request('POST', '/cms/v2/users', { body: { username: 'x', email: 'not-an-email', password: 'p' } });
    expect(bad.status).toBe(400);
    const good = await app.request('POST', '/cms/v2/users', { body: { username: 'x', email: 'x@example.com', password: 'p' } });
    expect(good.status).toBe(401);
    expect(good.body.code).toBe('rest_cannot_create_user');
  });

  it('bounds the request body with 413', async () => {
    const small = await startTestApp({ MAX_BODY_BYTES: '2048' });
    try {
      const res = await small.request('POST', '/cms/v2/users', { raw: JSON.stringify({ username: 'x'.repeat(5000) }) });
      expect(res.status).toBe(413);
      expect(res.body.code).toBe('rest_request_too_large');
      expect(res.body.data.status).toBe(413);
    } finally {
      await small.close();
    }
  });
});

describe('global parameters and headers', () => {
  it('_envelope answers 200 with body, status and headers', async () => {
    const res = await app.request('GET', '/cms/v2/nothing?_envelope');
    expect(res.status).toBe(200);
    expect(res.body.status).toBe(404);
    expect(res.body.body.code).toBe('rest_no_route');
    expect(res.body.headers).toEqual(expect.any(Object));
  });

  it('_fields trims to the requested keys, with dot paths', async () => {
    const res = await app.admin('GET', '/cms/v2/users/me?_fields=id,name,avatar_urls.24');
    expect(res.status).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(['avatar_urls', 'id', 'name']);
    expect(Object.keys(res.body.avatar_urls)).toEqual(['24']);
    const idx = await app.request('GET', '/?_fields=name');
    expect(idx.body).toEqual({ name: 'Events Calendar' });
  });

  it('_method and X-HTTP-Method-Override change the method', async () => {
    const a = await app.request('POST', '/cms/v2/users/1?_method=DELETE');
    expect(a.status).toBe(400);
    expect(a.body.code).toBe('rest_missing_callback_param');
    expect(a.body.data.params).toEqual(['reassign']);
    const b = await app.request('POST', '/cms/v2/users/1', { headers: { 'X-HTTP-Method-Override': 'DELETE' } });
    expect(b.body.code).toBe('rest_missing_callback_param');
  });

  it('OPTIONS returns the route data with Allow; unknown routes give 200 []', async () => {
    const res = await app.request('OPTIONS', '/cms/v2/users');
    expect(res.status).toBe(200);
    expect(res.body.namespace).toBe('cms/v2');
    expect(res.body.endpoints).toHaveLength(2);
    expect(res.headers.get('allow')).toBe('GET');
    const admin = await app.admin('OPTIONS', '/cms/v2/users');
    expect(admin.headers.get('allow')).toBe('GET, POST');
    const none = await app.request('OPTIONS', '/nope');
    expect(none.status).toBe(200);
    expect(none.body).toEqual([]);
  });

  it('Allow lists the methods this caller may use', async () => {
    const admin = await app.admin('GET', '/cms/v2/users/me');
    expect(admin.headers.get('allow')).toBe('GET, POST, PUT, PATCH, DELETE');
  });

  it('HEAD sends headers and no body', async () => {
    const res = await app.request('HEAD', '/');
    expect(res.status).toBe(200);
    expect(res.text).toBe('');
  });

  it('sends the reference headers, CORS for an Origin, and no-cache for a signed-in caller', async () => {
    const res = await app.request('GET', '/cms/v2', { headers: { Origin: 'https://client.example' } });
    expect(res.headers.get('x-robots-tag')).toBe('noindex');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('access-control-expose-headers')).toContain('X-WP-Total');
    expect(res.headers.get('access-control-allow-origin')).toBe('https://client.example');
    expect(res.headers.get('access-control-allow-credentials')).toBe('true');
    expect(res.headers.get('vary')).toContain('Origin');
    const admin = await app.admin('GET', '/cms/v2/users/me');
    expect(admin.headers.get('cache-control')).toBe('no-cache, must-revalidate, max-age=0, no-store, private');
  });
});

describe('X-HTTP-Method-Override', () => {
  it('sends no-cache headers with a 4xx answer of an overridden method, and not otherwise', async () => {
    const refused = await app.request('POST', '/cms/v2/posts/999999', { headers: { 'X-HTTP-Method-Override': 'DELETE' } });
    expect(refused.status).toBe(404);
    expect(refused.headers.get('cache-control')).toBe('no-cache, must-revalidate, max-age=0, no-store, private');
    expect(refused.headers.get('expires')).toBe('Wed, 11 Jan 1984 05:00:00 GMT');
    const plain = await app.request('DELETE', '/cms/v2/posts/999999');
    expect(plain.status).toBe(404);
    expect(plain.headers.get('cache-control')).toBeNull();
  });
});

describe('_jsonp', () => {
  it('wraps the answer in the callback as JavaScript, errors included', async () => {
    const res = await app.request('GET', '/cms/v2/posts?per_page=1&_jsonp=my.callback_1');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/javascript; charset=UTF-8');
    expect(res.text.startsWith('/**/my.callback_1([')).toBe(true);
    expect(res.text.endsWith(')')).toBe(true);
    const missing = await app.request('GET', '/cms/v2/posts/999999?_jsonp=cb');
    expect(missing.status).toBe(404);
    expect(JSON.parse(missing.text.slice('/**/cb('.length, -1)).code).toBe('rest_post_invalid_id');
  });

  it('refuses a callback that is not a name with rest_callback_invalid (no data), before authenticating', async () => {
    const res = await app.request('GET', '/cms/v2/posts?_jsonp=alert(1)', { auth: ['admin', 'wrong password'] });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ code: 'rest_callback_invalid', message: 'Invalid JSONP callback function.' });
  });
});

describe('operations endpoints', () => {
  it('serves /healthz, /readyz and /metrics outside the REST root', async () => {
    expect((await app.request('GET', '/healthz')).body).toEqual({ status: 'ok' });
    expect((await app.request('GET', '/readyz')).body).toEqual({ status: 'ready' });
    const m = await app.request('GET', '/metrics');
    expect(m.status).toBe(200);
    expect(m.text).toContain('http_requests_total');
  });
});

describe('all-in-one store', () => {
  it('keeps its data in the embedded store across a restart', async () => {
    const { mkdtempSync, rmSync } = await import('node:fs');
    const { join } = await import('node:path');
    const { tmpdir } = await import('node:os');
    const dir = mkdtempSync(join(tmpdir(), 'ecs-restart-'));
    try {
      const first = await startTestApp({ DATA_DIR: dir });
      const created = await first.admin('POST', '/cms/v2/users', { body: { username: 'keeper', email: 'keeper@example.com', password: 'pw-keeper' } });
      expect(created.status).toBe(201);
      await first.close();
      const second = await startTestApp({ DATA_DIR: dir });
      const again = await second.admin('GET', `/cms/v2/users/${created.body.id}?context=edit`);
      expect(again.status).toBe(200);
      expect(again.body.username).toBe('keeper');
      await second.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
