import { openStore } from '#libs/store/index';
import type { Store } from '#libs/store/types';
import { startTestApp, type TestApp } from '../../../test/support/app';

const ORGANIZERS = '/vendor/events/v1/organizers';
let app: TestApp;
let store: Store;

const organizer = async (body: Record<string, unknown>) => {
  const res = await app.admin('POST', ORGANIZERS, { body });
  if (res.status !== 201) throw new Error(res.text);
  return res.body;
};

beforeAll(async () => {
  app = await startTestApp();
  store = await openStore({ dataDir: app.config.DATA_DIR });
});
afterAll(async () => {
  await store.close();
  await app.close();
});
beforeEach(async () => {
  await store.collection('posts').deleteMany({ type: { $in: ['vendor_organizer', 'vendor_events'] } });
});

it('creates an organizer whose record drops empty values', async () => {
  const res = await app.admin('POST', ORGANIZERS, { body: { organizer: 'An organizer', email: 'org@example.test', phone: '123', website: 'http://org.test' } });
  expect(res.status).toBe(201);
  expect(Object.keys(res.body)).toEqual([
    'id',
    'author',
    'status',
    'date',
    'date_utc',
    'modified',
    'modified_utc',
    'url',
    'organizer',
    'slug',
    'phone',
    'website',
    'email',
    'global_id',
    'global_id_lineage',
  ]);
  expect(res.body).toMatchObject({
    organizer: 'An organizer',
    email: 'org@example.test',
    phone: '123',
    website: 'http://org.test',
    url: 'http://example.test/organizer/an-organizer/',
  });
  const single = await app.request('GET', `${ORGANIZERS}/${res.body.id}`);
  expect(single.body.json_ld).toMatchObject({ '@type': 'Person', name: 'An organizer', email: 'org@example.test' });
  expect((await app.admin('POST', ORGANIZERS, { body: { organizer: 'x', email: 'not-an-email' } })).status).toBe(400);
  expect((await app.admin('POST', ORGANIZERS, { body: {} })).body.code).toBe('rest_missing_callback_param');
});

it('dedupes creates by name (and description) and keeps meta on a name-only update; empties remove it', async () => {
  const first = await organizer({ organizer: 'Organizer', description: 'Desc', email: 'one@example.test' });
  expect((await organizer({ organizer: 'ORGANIZER', description: 'desc' })).id).toBe(first.id);
  const renamed = await app.admin('POST', `${ORGANIZERS}/${first.id}`, { body: { organizer: 'Renamed' } });
  expect(renamed.body).toMatchObject({ organizer: 'Renamed', email: 'one@example.test' });
  const emptied = await app.admin('PUT', `${ORGANIZERS}/${first.id}`, { body: { email: '', phone: '', website: '' } });
  expect(emptied.body).not.toHaveProperty('email');
  expect(emptied.body).not.toHaveProperty('phone');
  expect(emptied.body).not.toHaveProperty('website');
});

it('searches title, description and contact fields', async () => {
  await organizer({ organizer: 'One', phone: '111111111', email: 'one@common.com', website: 'http://one.com' });
  await organizer({ organizer: 'Two', phone: '111112222', email: 'two@common.com', website: 'http://two.com' });
  await organizer({ organizer: 'Three', phone: '333', email: 'three@three.com' });
  const count = async (q: string) => (await app.request('GET', `${ORGANIZERS}?search=${encodeURIComponent(q)}`)).body.total;
  expect(await count('1111')).toBe(2);
  expect(await count('111111111')).toBe(1);
  expect(await count('three@three.com')).toBe(1);
  expect(await count('common.com')).toBe(2);
  expect(await count('http://one.com')).toBe(1);
  expect(await count('@common.com')).toBe(2);
});

it('lists the organizers of an event and unlinks a trashed organizer from its events', async () => {
  const a = await organizer({ organizer: 'Org A' });
  const b = await organizer({ organizer: 'Org B' });
  const e = (
    await app.admin('POST', '/vendor/events/v1/events', {
      body: { title: 'Two orgs', start_date: 'tomorrow 8am', end_date: 'tomorrow 9am', organizer: [a.id, b.id] },
    })
  ).body;
  const listed = await app.request('GET', `${ORGANIZERS}?event=${e.id}`);
  expect(listed.body.organizers.map((o: { id: number }) => o.id).sort()).toEqual([a.id, b.id].sort());
  expect((await app.admin('DELETE', `${ORGANIZERS}/${a.id}`)).body.status).toBe('trash');
  expect((await app.request('GET', `/vendor/events/v1/events/${e.id}`)).body.organizer.map((o: { id: number }) => o.id)).toEqual([b.id]);
  expect((await store.collection('posts').findOne({ id: e.id }))!.meta).toMatchObject({ _EventOrganizerID: [b.id] });
  expect((await app.admin('DELETE', `${ORGANIZERS}/${a.id}`)).body.code).toBe('organizer-is-in-trash');
  expect((await app.request('GET', `${ORGANIZERS}?page=2`)).body.code).toBe('organizer-archive-page-not-found');
});
