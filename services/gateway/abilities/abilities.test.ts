/** cms-abilities/v1 over HTTP: the catalog, its filters and permissions, and running abilities as different callers. */
import { startTestApp, type TestApp } from '../../../test/support/app';
import { createRoleUsers, type RoleUsers } from '../../../test/support/roles';
import { ABILITIES, type Ability } from './catalog';
import { checkInput, checkOutput, expectedMethod } from './handlers';

const NS = '/cms-abilities/v1';
const run = (name: string, query = '') => `${NS}/abilities/${name}/run${query}`;

describe('cms-abilities/v1', () => {
  let app: TestApp;
  let users: RoleUsers;

  beforeAll(async () => {
    app = await startTestApp();
    users = await createRoleUsers(app, 'ab');
  });
  afterAll(() => app.close());

  it('lists its routes in the namespace index, run before the single ability', async () => {
    const res = await app.request('GET', NS);
    expect(res.status).toBe(200);
    expect(Object.keys(res.body.routes)).toEqual([
      `/${'cms-abilities/v1'}`,
      '/cms-abilities/v1/categories',
      '/cms-abilities/v1/categories/(?P<slug>[a-z0-9-]+)',
      '/cms-abilities/v1/abilities/(?P<name>[a-zA-Z0-9\\-\\/]+?)/run',
      '/cms-abilities/v1/abilities',
      '/cms-abilities/v1/abilities/(?P<name>[a-zA-Z0-9\\-\\/]+)',
    ]);
    expect(res.body.routes['/cms-abilities/v1/abilities/(?P<name>[a-zA-Z0-9\\-\\/]+?)/run'].methods).toEqual(['GET', 'POST', 'PUT', 'PATCH', 'DELETE']);
  });

  it('needs the read capability to see the catalog: 401 for a guest', async () => {
    for (const path of [`${NS}/categories`, `${NS}/categories/site`, `${NS}/abilities`, `${NS}/abilities/core/get-site-info`]) {
      const res = await users.as('guest', 'GET', path);
      expect([path, res.status, res.body.code]).toEqual([path, 401, 'rest_forbidden']);
      expect((await users.as('subscriber', 'GET', path)).status).toBe(200);
    }
  });

  it('lists categories with links and answers one by slug', async () => {
    const res = await users.as('subscriber', 'GET', `${NS}/categories`);
    expect(res.headers.get('x-wp-total')).toBe('2');
    expect(res.body.map((c: any) => c.slug)).toEqual(['site', 'events-calendar']);
    const cal = res.body[1];
    expect(cal).toMatchObject({ slug: 'events-calendar', label: 'Events calendar', meta: {} });
    expect(cal._links.abilities[0].href).toBe(`${app.config.SITE_URL}/index.php/cms-json/cms-abilities/v1/abilities?category=events-calendar`);
    const one = await users.as('subscriber', 'GET', `${NS}/categories/events-calendar`);
    expect(one.body.slug).toBe('events-calendar');
    const missing = await users.as('subscriber', 'GET', `${NS}/categories/nope`);
    expect([missing.status, missing.body.code]).toEqual([404, 'rest_ability_category_not_found']);
    const badSlug = await users.as('subscriber', 'GET', `${NS}/categories/-site-`);
    expect([badSlug.status, badSlug.body.code]).toEqual([400, 'rest_invalid_param']);
    const embed = await users.as('subscriber', 'GET', `${NS}/categories?context=embed`);
    expect(Object.keys(embed.body[0]).sort()).toEqual(['_links', 'label', 'slug']);
  });

  it('lists abilities with paging headers and filters by category, namespace and annotations', async () => {
    const all = await users.as('subscriber', 'GET', `${NS}/abilities`);
    expect(all.status).toBe(200);
    expect(all.headers.get('x-wp-total')).toBe('8');
    expect(all.body.map((a: any) => a.name)).toContain('events-calendar/find-events');
    const paged = await users.as('subscriber', 'GET', `${NS}/abilities?per_page=3&page=2`);
    expect(paged.body).toHaveLength(3);
    expect(paged.headers.get('x-wp-totalpages')).toBe('3');
    expect(paged.headers.get('link')).toContain('rel="prev"');
    expect(paged.headers.get('link')).toContain('rel="next"');

    const site = await users.as('subscriber', 'GET', `${NS}/abilities?category=site`);
    expect(site.body.map((a: any) => a.name)).toEqual(['core/get-site-info']);
    const core = await users.as('subscriber', 'GET', `${NS}/abilities?namespace=CORE`);
    expect(core.body.map((a: any) => a.name)).toEqual(['core/get-site-info']);
    const writes = await users.as('subscriber', 'GET', `${NS}/abilities?meta[annotations][readonly]=false`);
    expect(writes.body.map((a: any) => a.name)).toEqual(['events-calendar/create-event', 'events-calendar/create-venue']);
    const bad = await users.as('subscriber', 'GET', `${NS}/abilities?per_page=101`);
    expect([bad.status, bad.body.code]).toEqual([400, 'rest_invalid_param']);
  });

  it('answers one ability in the reference record shape', async () => {
    const res = await users.as('subscriber', 'GET', `${NS}/abilities/events-calendar/create-event`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      name: 'events-calendar/create-event',
      label: 'Create an event',
      category: 'events-calendar',
      meta: { annotations: { readonly: false, destructive: false, idempotent: false }, show_in_rest: true },
    });
    expect(res.body.input_schema.required).toEqual(['title', 'start_date', 'end_date']);
    expect(res.body.output_schema.type).toBe('object');
    expect(res.body._links['wp:action-run'][0].href).toMatch(/\/cms-abilities\/v1\/abilities\/events-calendar\/create-event\/run$/);
    const missing = await users.as('subscriber', 'GET', `${NS}/abilities/events-calendar/nothing`);
    expect([missing.status, missing.body.code]).toEqual([404, 'rest_ability_not_found']);
  });

  it('runs abilities only with the method their annotations call for', async () => {
    const post = await app.admin('POST', run('events-calendar/find-events'), { body: { input: {} } });
    expect([post.status, post.body.code, post.body.message]).toEqual([405, 'rest_ability_invalid_method', 'Read-only abilities require GET method.']);
    const get = await app.admin('GET', run('events-calendar/create-event'));
    expect([get.status, get.body.code, get.body.message]).toEqual([405, 'rest_ability_invalid_method', 'Abilities that perform updates require POST method.']);
    const missing = await app.admin('GET', run('events-calendar/nothing'));
    expect([missing.status, missing.body.code]).toEqual([404, 'rest_ability_not_found']);
  });

  it('validates input against the input schema before anything runs', async () => {
    const noTitle = await app.admin('POST', run('events-calendar/create-event'), {
      body: { input: { start_date: '2030-01-01 10:00:00', end_date: '2030-01-01 11:00:00' } },
    });
    expect(noTitle.status).toBe(400);
    expect(noTitle.body).toEqual({
      code: 'ability_invalid_input',
      message: 'Ability "events-calendar/create-event" has invalid input. Reason: title is a required property of input.',
      data: { status: 400 },
    });
    const extra = await app.admin('POST', run('events-calendar/create-event'), {
      body: { input: { title: 'x', start_date: 'a', end_date: 'b', color: 'red' } },
    });
    expect([extra.status, extra.body.code]).toEqual([400, 'ability_invalid_input']);
    const wrongType = await app.admin('GET', run('events-calendar/find-events', '?input[per_page]=lots'));
    expect([wrongType.status, wrongType.body.code]).toEqual([400, 'ability_invalid_input']);
    expect(wrongType.body.message).toContain('input[per_page] is not of type integer.');
    const noInput = await app.admin('GET', run('events-calendar/get-event'));
    expect([noInput.status, noInput.body.code]).toEqual([400, 'ability_invalid_input']);
    // Input is checked before permission: a guest learns the input is wrong, not that it is refused.
    const guest = await users.as('guest', 'POST', run('events-calendar/create-event'), { body: { input: {} } });
    expect([guest.status, guest.body.code]).toEqual([400, 'ability_invalid_input']);
  });

  it('creates an event as an administrator and refuses guests and subscribers', async () => {
    const input = {
      title: 'Ability launch',
      start_date: '2027-03-01 18:00:00',
      end_date: '2027-03-01 20:00:00',
      status: 'publish',
      description: 'Made by an ability',
    };
    const guest = await users.as('guest', 'POST', run('events-calendar/create-event'), { body: { input } });
    expect(guest.body).toEqual({ code: 'rest_ability_cannot_execute', message: 'Sorry, you are not allowed to execute this ability.', data: { status: 401 } });
    const sub = await users.as('subscriber', 'POST', run('events-calendar/create-event'), { body: { input } });
    expect([sub.status, sub.body.code]).toEqual([403, 'rest_ability_cannot_execute']);

    const made = await app.admin('POST', run('events-calendar/create-event'), { body: { input } });
    expect(made.status).toBe(200);
    expect(made.body).toMatchObject({ title: 'Ability launch', start_date: '2027-03-01 18:00:00' });
    const id = made.body.id;
    expect(id).toBeGreaterThan(0);
    // The same record the route gives.
    const direct = await app.request('GET', `/vendor/events/v1/events/${id}`);
    expect(direct.body.title).toBe('Ability launch');

    const got = await users.as('guest', 'GET', run('events-calendar/get-event', `?input[id]=${id}`));
    expect([got.status, got.body.id, got.body.title]).toEqual([200, id, 'Ability launch']);

    const found = await users.as('guest', 'GET', run('events-calendar/find-events', '?input[search]=launch'));
    expect(found.status).toBe(200);
    expect(found.body.total).toBe(1);
    expect(found.body.events.map((e: any) => e.id)).toEqual([id]);
    const none = await users.as('guest', 'GET', run('events-calendar/find-events', '?input[search]=nothing-like-this'));
    expect(none.body).toEqual({ events: [], total: 0, total_pages: 0 });
  });

  it("passes the route's own errors through: validation, missing records and read permission", async () => {
    const badDate = await app.admin('POST', run('events-calendar/create-event'), {
      body: { input: { title: 'x', start_date: 'not a date at all', end_date: 'neither' } },
    });
    expect(badDate.status).toBe(400);
    expect(badDate.body.code).toBe('rest_invalid_param');
    const missing = await users.as('guest', 'GET', run('events-calendar/get-event', '?input[id]=999999'));
    expect(missing.status).toBe(404);
    const draft = await app.admin('POST', run('events-calendar/create-event'), {
      body: { input: { title: 'Hidden', start_date: '2030-04-01 10:00:00', end_date: '2030-04-01 11:00:00', status: 'draft' } },
    });
    expect(draft.status).toBe(200);
    const guest = await users.as('guest', 'GET', run('events-calendar/get-event', `?input[id]=${draft.body.id}`));
    const direct = await users.as('guest', 'GET', `/vendor/events/v1/events/${draft.body.id}`);
    expect(direct.status).toBeGreaterThanOrEqual(401);
    expect([guest.status, guest.body.code]).toEqual([direct.status, direct.body.code]);
    const admin = await app.admin('GET', run('events-calendar/get-event', `?input[id]=${draft.body.id}`));
    expect([admin.status, admin.body.status]).toEqual([200, 'draft']);
  });

  it('creates and lists venues, lists organizers and categories', async () => {
    const editorVenue = await users.as('editor', 'POST', run('events-calendar/create-venue'), { body: { input: { venue: 'Ability Hall', city: 'Lisbon' } } });
    expect(editorVenue.status).toBe(200);
    expect(editorVenue.body).toMatchObject({ venue: 'Ability Hall', city: 'Lisbon' });
    const sub = await users.as('subscriber', 'POST', run('events-calendar/create-venue'), { body: { input: { venue: 'Nope' } } });
    expect(sub.status).toBe(403);
    const venues = await users.as('guest', 'GET', run('events-calendar/list-venues', '?input[search]=Ability'));
    expect(venues.status).toBe(200);
    expect(venues.body.venues.map((v: any) => v.venue)).toEqual(['Ability Hall']);
    const organizers = await users.as('guest', 'GET', run('events-calendar/list-organizers'));
    expect(organizers.status).toBe(200);
    expect(organizers.body).toMatchObject({ organizers: [], total: 0 });
    await app.admin('POST', '/vendor/events/v1/categories', { body: { name: 'Ability Jazz' } });
    const cats = await users.as('guest', 'GET', run('events-calendar/list-categories', '?input[search]=Jazz&input[hide_empty]=false'));
    expect(cats.status).toBe(200);
    expect(cats.body.categories.map((c: any) => c.name)).toEqual(['Ability Jazz']);
  });

  it('core/get-site-info needs manage_options and returns the asked fields', async () => {
    const all = await app.admin('GET', run('core/get-site-info'));
    expect(all.status).toBe(200);
    expect(all.body).toMatchObject({ name: app.config.SITE_NAME, url: 'http://example.test', timezone: 'UTC', charset: 'UTF-8' });
    const some = await app.admin('GET', run('core/get-site-info', '?input[fields]=name,url'));
    expect(some.body).toEqual({ name: app.config.SITE_NAME, url: 'http://example.test' });
    const bad = await app.admin('GET', run('core/get-site-info', '?input[fields]=password'));
    expect([bad.status, bad.body.code]).toEqual([400, 'ability_invalid_input']);
    const editor = await users.as('editor', 'GET', run('core/get-site-info'));
    expect([editor.status, editor.body.code]).toEqual([403, 'rest_ability_cannot_execute']);
  });
});

describe('ability checks', () => {
  const base: Ability = { ...ABILITIES[0], name: 'test/thing', input_schema: undefined, output_schema: undefined };

  it('an ability without an input schema takes no input', () => {
    expect(checkInput(base, null)).toEqual({ value: null });
    const err = checkInput(base, { a: 1 });
    expect(err).toMatchObject({ code: 'ability_missing_input_schema', status: 400 });
  });

  it('uses the schema default for no input and coerces query strings', () => {
    const a: Ability = { ...base, input_schema: { type: 'object', properties: { n: { type: 'integer' } }, default: { n: 3 } } };
    expect(checkInput(a, null)).toEqual({ value: { n: 3 } });
    expect(checkInput(a, { n: '7' })).toEqual({ value: { n: 7 } });
  });

  it('refuses output that does not match the output schema with a 500', () => {
    const a: Ability = { ...base, output_schema: { type: 'object', properties: { id: { type: 'integer' } }, required: ['id'] } };
    expect(checkOutput(a, { id: 4 })).toBeNull();
    const err = checkOutput(a, { name: 'x' });
    expect(err?.toJSON()).toEqual({
      code: 'ability_invalid_output',
      message: 'Ability "test/thing" has invalid output. Reason: id is a required property of output.',
      data: { status: 500 },
    });
    expect(checkOutput(base, 'anything')).toBeNull();
  });

  it('expects DELETE for destructive idempotent abilities', () => {
    expect(expectedMethod({ readonly: false, destructive: true, idempotent: true }).method).toBe('DELETE');
    expect(expectedMethod({ readonly: null, destructive: true, idempotent: false }).method).toBe('POST');
    expect(expectedMethod({ readonly: true, destructive: null, idempotent: null }).method).toBe('GET');
  });
});
