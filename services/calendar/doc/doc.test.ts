import { ADMIN, startTestApp, type TestApp } from '../../../test/support/app';
import { toOpenApi } from './openapi';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(async () => {
  await app.close();
});

it('serves an OpenAPI 3 document generated from the registry and the record schemas', async () => {
  const res = await app.request('GET', '/vendor/events/v1/doc');
  expect(res.status).toBe(200);
  const doc = res.body;
  expect(doc.openapi).toBe('3.0.0');
  expect(doc.info).toMatchObject({ version: '1.0.0', title: 'The Events Calendar REST API' });
  // The reference's keys, and its server named by host and path.
  expect(Object.keys(doc).sort()).toEqual(['components', 'info', 'openapi', 'paths', 'servers']);
  expect(Object.keys(doc.info).sort()).toEqual(['description', 'title', 'version']);
  expect(Object.keys(doc.components)).toEqual(['schemas', 'securitySchemes']);
  expect(doc.servers).toEqual([{ url: 'example.test/index.php/cms-json/vendor/events/v1/' }]);
  expect(Object.keys(doc.components.schemas)).toEqual(
    expect.arrayContaining(['Event', 'Venue', 'Organizer', 'Term', 'Image', 'DateDetails', 'CostDetails', 'ImageSize']),
  );
  expect(Object.keys(doc.paths)).toEqual([
    '/doc',
    '/events',
    '/events/{id}',
    '/events/by-slug/{slug}',
    '/venues',
    '/venues/{id}',
    '/venues/by-slug/{slug}',
    '/organizers',
    '/organizers/{id}',
    '/organizers/by-slug/{slug}',
    '/categories',
    '/categories/{id}',
    '/tags',
    '/tags/{id}',
  ]);
  expect(Object.keys(doc.paths['/events/{id}'])).toEqual(['get', 'post', 'put', 'patch', 'delete']);
  const list = doc.paths['/events'].get;
  expect(list.parameters.map((p: { name: string }) => p.name)).toEqual(expect.arrayContaining(['page', 'per_page', 'start_date', 'categories', 'ticketed']));
  expect(list.responses['200'].content['application/json'].schema.properties.events.items).toEqual({ $ref: '#/components/schemas/Event' });
  const create = doc.paths['/events'].post;
  expect(create.requestBody.content['application/json'].schema.required).toEqual(['title', 'start_date', 'end_date']);
  expect(create.responses['201'].content['application/json'].schema).toEqual({ $ref: '#/components/schemas/Event' });
  expect(doc.paths['/events/{id}'].get.parameters[0]).toMatchObject({ name: 'id', in: 'path', required: true, schema: { type: 'integer' } });
  expect(doc.components.schemas.Event.properties.start_date_details).toEqual({ $ref: '#/components/schemas/DateDetails' });
  // No JSON Schema type lists survive: OpenAPI 3.0 does not have them.
  expect(JSON.stringify(doc)).not.toMatch(/"type":\[/);
});

it('declares HTTP Basic with an application password; writes require it, reads take it optionally', async () => {
  for (const path of ['/vendor/events/v1/doc', '/ec/v1/docs']) {
    const doc = (await app.request('GET', path)).body;
    expect(doc.components.securitySchemes).toEqual({
      BasicAuth: { type: 'http', scheme: 'basic', description: expect.stringContaining('application password') },
    });
    const ops = Object.values(doc.paths as Record<string, Record<string, { security?: unknown }>>).flatMap((item) => Object.entries(item));
    expect(ops.length).toBeGreaterThan(5);
    for (const [method, op] of ops) expect([method, op.security]).toEqual([method, method === 'get' ? [{}, { BasicAuth: [] }] : [{ BasicAuth: [] }]]);
  }
});

it('a write called as the document describes: refused without the scheme, done with login and application password', async () => {
  const doc = (await app.request('GET', '/vendor/events/v1/doc')).body;
  expect(doc.paths['/venues'].post.security).toEqual([{ BasicAuth: [] }]);
  const body = { venue: 'Documented hall' };
  expect((await app.request('POST', '/vendor/events/v1/venues', { body })).status).toBe(401);
  const done = await app.request('POST', '/vendor/events/v1/venues', { body, auth: [ADMIN.login, ADMIN.appPassword] });
  expect(done.status).toBe(201);
});

it('turns type lists into anyOf branches carrying their own keywords', () => {
  expect(toOpenApi({ type: ['array', 'integer'], items: { type: 'integer' }, description: 'd' })).toEqual({
    description: 'd',
    anyOf: [{ type: 'array', items: { type: 'integer' } }, { type: 'integer' }],
  });
  expect(toOpenApi({ type: ['string', 'null'], format: 'uri' })).toEqual({ type: 'string', format: 'uri', nullable: true });
});

it('the namespace index lists every route with its arguments, and OPTIONS shows the record schema', async () => {
  const ns = await app.request('GET', '/vendor/events/v1');
  expect(ns.status).toBe(200);
  expect(ns.body.namespace).toBe('vendor/events/v1');
  expect(Object.keys(ns.body.routes)).toEqual(
    expect.arrayContaining([
      '/vendor/events/v1/events',
      '/vendor/events/v1/events/(?P<id>\\d+)',
      '/vendor/events/v1/events/by-slug/(?P<slug>[^/]+)',
      '/vendor/events/v1/categories',
    ]),
  );
  const create = ns.body.routes['/vendor/events/v1/events'].endpoints.find((e: { methods: string[] }) => e.methods.includes('POST'));
  expect(create.args.title).toMatchObject({ type: 'string', required: true });
  expect(create.args.venue).toMatchObject({ required: false, default: null });
  const options = await app.request('OPTIONS', '/vendor/events/v1/events/1');
  expect(options.body.schema).toMatchObject({ title: 'event', type: 'object' });
  expect(options.body.schema.properties.start_date_details.properties).toHaveProperty('year');
});
