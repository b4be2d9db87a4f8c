import { eventWriteArgs, venueWriteArgs } from '#libs/routes/ec/args';
import { startTestApp, type TestApp } from '../../../test/support/app';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(async () => {
  await app.close();
});

it('GET ec/v1/docs is an OpenAPI 3 document generated from the registry, with entity and request-body schemas', async () => {
  const res = await app.request('GET', '/ec/v1/docs');
  expect(res.status).toBe(200);
  const doc = res.body;
  expect(doc.openapi).toBe('3.0.4');
  expect(doc.servers[0].url).toBe('http://example.test/index.php/cms-json/ec/v1');
  // The reference's keys: tags per group of operations, a contact, and the authentication scheme.
  expect(Object.keys(doc).sort()).toEqual(['components', 'info', 'openapi', 'paths', 'servers', 'tags']);
  expect(Object.keys(doc.info).sort()).toEqual(['contact', 'description', 'title', 'version']);
  expect(doc.info.contact).toEqual({ name: 'The Events Calendar', email: 'support@theeventscalendar.com' });
  expect(doc.tags.map((t: { name: string; description: string }) => t.name)).toEqual(['Events', 'Common']);
  expect(doc.components.securitySchemes).toEqual({ BasicAuth: expect.objectContaining({ type: 'http', scheme: 'basic' }) });
  expect(doc.paths['/events'].post.security).toEqual([{ BasicAuth: [] }]);
  expect(doc.paths['/events'].get.security).toEqual([{}, { BasicAuth: [] }]);
  expect(doc.paths['/events'].get).toMatchObject({ operationId: 'getEvents', tags: ['Events'] });
  expect(doc.paths['/venues'].post.operationId).toBe('createVenue');
  expect(doc.paths['/organizers/{id}'].delete.operationId).toBe('deleteOrganizer');
  expect(doc.paths['/events/{id}'].patch.operationId).toBe('updateEvent');
  expect(doc.paths['/docs'].get).toMatchObject({ operationId: 'getOpenApiDocs', tags: ['Common'] });
  expect(Object.keys(doc.paths)).toEqual(['/events', '/events/{id}', '/organizers', '/organizers/{id}', '/venues', '/venues/{id}', '/docs']);
  // Updates are PUT and PATCH only.
  expect(Object.keys(doc.paths['/events/{id}'])).toEqual(['get', 'put', 'patch', 'delete']);
  expect(Object.keys(doc.paths['/events'])).toEqual(['get', 'post']);

  const schemas = doc.components.schemas;
  expect(Object.keys(schemas)).toEqual(
    expect.arrayContaining([
      'TEC_Post_Entity',
      'Event',
      'Organizer',
      'Venue',
      'Date_Details',
      'TEC_Post_Entity_Request_Body',
      'Event_Request_Body',
      'Organizer_Request_Body',
      'Venue_Request_Body',
    ]),
  );
  expect(schemas.Event.allOf[0]).toEqual({ $ref: '#/components/schemas/TEC_Post_Entity' });
  expect(schemas.Event.allOf[1].properties.organizers.items).toEqual({ $ref: '#/components/schemas/Organizer' });
  expect(schemas.Event.allOf[1].properties.dates).toEqual({ $ref: '#/components/schemas/Date_Details' });
  expect(Object.keys(schemas.TEC_Post_Entity.properties)).toEqual(expect.arrayContaining(['id', 'date', 'guid', 'title', 'content', 'class_list']));

  // Request bodies carry the declared constraints of the write arguments.
  const common = schemas.TEC_Post_Entity_Request_Body.properties;
  expect(common.status).toMatchObject({ type: 'string', enum: ['publish', 'pending', 'draft', 'future', 'private'], default: 'publish' });
  expect(common.tags).toMatchObject({ type: 'array', items: { type: 'integer' }, uniqueItems: true });
  const event = schemas.Event_Request_Body.allOf[1].properties;
  expect(event.start_date).toMatchObject({ type: 'string', pattern: '^[0-9]{4}-[0-9]{2}-[0-9]{2} [0-9]{2}:[0-9]{2}:[0-9]{2}$' });
  expect(Object.keys(event)).toEqual(Object.keys(eventWriteArgs()).filter((k) => !(k in common)));
  expect(schemas.Organizer_Request_Body.allOf[1].properties).toMatchObject({
    phone: { format: 'tel' },
    website: { format: 'uri' },
    email: { format: 'email' },
  });
  // The body lists the write arguments, as the event's does (the reference's order of a venue's fields is pinned by ec/linked.test.ts).
  expect(Object.keys(schemas.Venue_Request_Body.allOf[1].properties)).toEqual(Object.keys(venueWriteArgs()).filter((k) => !(k in common)));
  expect(Object.keys(schemas.Venue_Request_Body.allOf[1].properties)).toEqual(expect.arrayContaining(['address', 'state_province', 'zip', 'phone', 'website']));

  const create = doc.paths['/events'].post;
  expect(create.requestBody.content['application/json'].schema).toEqual({ $ref: '#/components/schemas/Event_Request_Body' });
  expect(create.responses['201'].content['application/json'].schema).toEqual({ $ref: '#/components/schemas/Event' });
  const list = doc.paths['/events'].get;
  expect(list.parameters.map((p: { name: string }) => p.name)).toEqual([
    'page',
    'per_page',
    'start_date',
    'end_date',
    'search',
    'categories',
    'tags',
    'venue',
    'organizer',
    'featured',
    'status',
    'post_parent',
    'starts_before',
    'starts_after',
    'ends_before',
    'ends_after',
    'ticketed',
    'orderby',
    'order',
  ]);
  expect(list.parameters.find((p: { name: string }) => p.name === 'per_page').schema).toMatchObject({ type: 'integer', minimum: 1, maximum: 100, default: 10 });
  expect(list.responses['200'].content['application/json'].schema).toEqual({ type: 'array', items: { $ref: '#/components/schemas/Event' } });
  expect(Object.keys(list.responses['200'].headers)).toEqual(['X-WP-Total', 'X-WP-TotalPages', 'Link']);
  const del = doc.paths['/venues/{id}'].delete;
  expect(del.parameters.map((p: { name: string }) => p.name)).toEqual(['id', 'force']);
  expect(Object.keys(del.responses)).toEqual(['200', '400', '401', '403', '404', '410']);
  // The password of a protected entity is not published.
  expect(doc.paths['/events/{id}'].get.parameters.map((p: { name: string }) => p.name)).toEqual(['id']);
  expect(JSON.stringify(doc)).not.toMatch(/"type":\[/);
});

it('the ec/v1 namespace index lists its routes; OPTIONS shows the entity schema inline', async () => {
  const ns = await app.request('GET', '/ec/v1');
  expect(Object.keys(ns.body.routes)).toEqual([
    '/ec/v1',
    '/ec/v1/events',
    '/ec/v1/events/(?P<id>\\d+)',
    '/ec/v1/organizers',
    '/ec/v1/organizers/(?P<id>\\d+)',
    '/ec/v1/venues',
    '/ec/v1/venues/(?P<id>\\d+)',
    '/ec/v1/docs',
  ]);
  expect(ns.body.routes['/ec/v1/events/(?P<id>\\d+)'].methods).toEqual(['GET', 'PUT', 'PATCH', 'DELETE']);
  const options = await app.request('OPTIONS', '/ec/v1/events');
  expect(options.body.schema.title).toBe('event');
  expect(options.body.schema.properties).toHaveProperty('schedule_details');
  expect(options.body.schema.properties).toHaveProperty('class_list');
  expect(options.body.schema.properties.venues.items.properties).toHaveProperty('directions_link');
});
