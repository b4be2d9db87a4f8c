import { DateTime } from 'luxon';
import { openStore } from '#libs/store/index';
import type { Store } from '#libs/store/types';
import { startTestApp, type TestApp } from '../../../test/support/app';
import { createRoleUsers, type RoleUsers } from '../../../test/support/roles';

const VENUES = '/vendor/events/v1/venues';
let app: TestApp;
let store: Store;
let users: RoleUsers;

const venue = async (body: Record<string, unknown>) => {
  const res = await app.admin('POST', VENUES, { body });
  if (res.status !== 201) throw new Error(res.text);
  return res.body;
};
const eventAt = (hours: number, extra: Record<string, unknown>) => {
  const at = DateTime.now().plus({ hours });
  return app.admin('POST', '/vendor/events/v1/events', {
    body: { title: 'At venue', start_date: at.toFormat('yyyy-LL-dd HH:mm:ss'), end_date: at.plus({ hours: 1 }).toFormat('yyyy-LL-dd HH:mm:ss'), ...extra },
  });
};
const names = (res: { body: any }) => (res.body.venues as Array<{ venue: string }>).map((v) => v.venue).sort();

beforeAll(async () => {
  app = await startTestApp();
  store = await openStore({ dataDir: app.config.DATA_DIR });
  users = await createRoleUsers(app, 'venues');
});
afterAll(async () => {
  await store.close();
  await app.close();
});
beforeEach(async () => {
  await store.collection('posts').deleteMany({ type: { $in: ['vendor_venue', 'vendor_events'] } });
});

describe('create, get, update', () => {
  it('creates a venue (201); the record drops empty fields and ends with show_map flags and global ids', async () => {
    const res = await app.admin('POST', VENUES, {
      body: {
        venue: 'A venue',
        description: 'A venue description',
        address: '10 Downing St',
        city: 'London',
        country: 'UK',
        zip: 'SW1A',
        phone: '+44 20',
        website: 'http://venue.test',
        stateprovince: 'Greater London',
        show_map: 'false',
      },
    });
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
      'venue',
      'description',
      'slug',
      'address',
      'city',
      'country',
      'zip',
      'phone',
      'website',
      'stateprovince',
      'show_map',
      'show_map_link',
      'global_id',
      'global_id_lineage',
    ]);
    expect(res.body).toMatchObject({
      author: '1',
      status: 'publish',
      url: 'http://example.test/venue/a-venue/',
      venue: 'A venue',
      description: '<p>A venue description</p>',
      show_map: false,
      show_map_link: true,
    });
    expect(res.body).not.toHaveProperty('rest_url');
    const single = await app.request('GET', `${VENUES}/${res.body.id}`);
    expect(single.status).toBe(200);
    expect(single.body.json_ld).toMatchObject({ '@type': 'Place', name: 'A venue', address: { addressLocality: 'London' } });
    expect((await app.request('GET', `${VENUES}/by-slug/a-venue`)).body.id).toBe(res.body.id);
  });

  it('answers a create with stateprovince from the state in the United States (or with no country), else from the province', async () => {
    const us = await venue({ venue: 'Springfield Hall', state: 'IL', country: 'United States' });
    expect(us).toMatchObject({ state: 'IL', stateprovince: 'IL' });
    expect((await venue({ venue: 'Nowhere Hall', state: 'TX' })).stateprovince).toBe('TX');
    const ca = await venue({ venue: 'Toronto Hall', state: 'ON?', province: 'Ontario', country: 'Canada' });
    expect(ca).toMatchObject({ province: 'Ontario', stateprovince: 'Ontario' });
    expect((await venue({ venue: 'Given Hall', state: 'IL', stateprovince: 'Own' })).stateprovince).toBe('Own');
    expect(await venue({ venue: 'Bare Hall', country: 'France' })).not.toHaveProperty('stateprovince');
    // As in the reference, the venue read back does not carry the derived value; a written one stays.
    expect((await app.request('GET', `${VENUES}/${us.id}`)).body).not.toHaveProperty('stateprovince');
    const own = await venue({ venue: 'Own Hall 2', stateprovince: 'Kept' });
    expect((await app.request('GET', `${VENUES}/${own.id}`)).body.stateprovince).toBe('Kept');
  });

  it('finds duplicates on create: same name ignoring case, and the same description when one is given', async () => {
    const first = await venue({ venue: 'A venue', description: 'A venue description' });
    const again = await app.admin('POST', VENUES, { body: { venue: 'A venue', description: 'A venue description', address: 'Somewhere' } });
    expect(again.status).toBe(201);
    expect(again.body.id).toBe(first.id);
    expect((await venue({ venue: 'A venue' })).id).toBe(first.id);
    expect((await venue({ venue: 'a venue', description: 'a venue description' })).id).toBe(first.id);
    expect((await venue({ venue: 'A venue', description: 'Another description' })).id).not.toBe(first.id);
    expect(await store.collection('posts').count({ type: 'vendor_venue' })).toBe(2);
  });

  it('validates fields; updates keep what is not sent and drop what is emptied; renaming does not dedupe', async () => {
    for (const bad of [
      { venue: '' },
      { venue: 'x', author: 23 },
      { venue: 'x', author: 'foo' },
      { venue: 'x', date: 'foo' },
      { venue: 'x', date_utc: 'foo' },
      { venue: 'x', status: 'bogus' },
      { venue: 'x', website: 'foo' },
    ]) {
      expect((await app.admin('POST', VENUES, { body: bad })).status).toBe(400);
    }
    const stamped = await venue({ venue: 'Stamped', date: '1514764800', author: users.ids.editor, status: 'draft' });
    expect(stamped).toMatchObject({ date: '2018-01-01 00:00:00', author: String(users.ids.editor), status: 'draft' });
    const v = await venue({ venue: 'Venue 1', address: 'A', city: 'B', phone: '1' });
    const other = await venue({ venue: 'Venue 2' });
    const updated = await app.admin('POST', `${VENUES}/${v.id}`, { body: { address: '', city: '', show_map: false, show_map_link: false } });
    expect(updated.status).toBe(200);
    expect(updated.body).not.toHaveProperty('address');
    expect(updated.body).not.toHaveProperty('city');
    expect(updated.body).toMatchObject({ phone: '1', show_map: false, show_map_link: false });
    expect((await app.admin('POST', `${VENUES}/${v.id}`, { body: { venue: '' } })).status).toBe(400);
    const renamed = await app.admin('PATCH', `${VENUES}/${other.id}`, { body: { venue: 'Venue 1' } });
    expect(renamed.body).toMatchObject({ id: other.id, venue: 'Venue 1' });
    expect((await app.admin('POST', `${VENUES}/2389999`, { body: { city: 'x' } })).status).toBe(400);
  });

  it('single: 400 for ids and slugs that are not venues, 404 for non-numeric paths, 403 for a guest on a draft', async () => {
    const draft = await venue({ venue: 'Draft venue', status: 'draft' });
    expect((await app.request('GET', `${VENUES}/2389999`)).status).toBe(400);
    for (const path of ['foo', 'foo-bar', 'foo%20bar']) expect((await app.request('GET', `${VENUES}/${path}`)).status).toBe(404);
    expect((await app.request('GET', `${VENUES}/by-slug/no-such-venue`)).status).toBe(400);
    expect(await app.request('GET', `${VENUES}/${draft.id}`)).toMatchObject({ status: 403, body: { code: 'venue-not-accessible' } });
    expect((await app.request('GET', `${VENUES}/by-slug/${draft.slug}`)).status).toBe(403);
    expect((await users.as('editor', 'GET', `${VENUES}/${draft.id}`)).status).toBe(200);
  });

  it('delete: trash, unlink from events, 410 on repeat; a missing id is 400 even for a guest', async () => {
    const v = await venue({ venue: 'Doomed' });
    const e = (await eventAt(24, { venue: v.id })).body;
    const res = await app.admin('DELETE', `${VENUES}/${v.id}`);
    expect(res).toMatchObject({ status: 200, body: { id: v.id, status: 'trash' } });
    const stored = await store.collection('posts').findOne({ id: e.id });
    expect(stored).toMatchObject({ venues: [], meta: expect.objectContaining({ _EventVenueID: [] }) });
    expect((await app.request('GET', `/vendor/events/v1/events/${e.id}`)).body.venue).toEqual([]);
    expect(await app.admin('DELETE', `${VENUES}/${v.id}`)).toMatchObject({ status: 410, body: { code: 'venue-is-in-trash' } });
    expect((await app.request('DELETE', `${VENUES}/23`)).status).toBe(400);
  });
});

describe('archive', () => {
  it('pages like the event archive, 404 past the end, and 400 for bad paging', async () => {
    for (let i = 0; i < 10; i++) await venue({ venue: `Venue ${i}` });
    const first = await app.request('GET', `${VENUES}?per_page=4`);
    expect(first.body).toMatchObject({ total: 10, total_pages: 3 });
    expect(first.body.venues).toHaveLength(4);
    expect(first.headers.get('x-tec-total')).toBe('10');
    expect(first.body.next_rest_url).toContain('/venues/?page=2&per_page=4');
    const third = await app.request('GET', `${VENUES}?per_page=4&page=3`);
    expect(third.body.venues).toHaveLength(2);
    expect((await app.request('GET', `${VENUES}?per_page=4&page=4`)).body.code).toBe('venue-archive-page-not-found');
    expect((await app.request('GET', `${VENUES}?page=0`)).status).toBe(400);
    expect((await app.request('GET', `${VENUES}?per_page=100`)).body.venues).toHaveLength(10);
  });

  it('status: drafts hidden from guests and shown to editors; guests may ask only for publish', async () => {
    await venue({ venue: 'Public' });
    await venue({ venue: 'Drafty', status: 'draft' });
    expect(names(await app.request('GET', VENUES))).toEqual(['Public']);
    expect(names(await users.as('editor', 'GET', VENUES))).toEqual(['Drafty', 'Public']);
    expect(names(await users.as('editor', 'GET', `${VENUES}?status=draft`))).toEqual(['Drafty']);
    expect((await app.request('GET', `${VENUES}?status=publish,draft`)).status).toBe(400);
    expect((await users.as('editor', 'GET', `${VENUES}?status=foo`)).status).toBe(400);
  });

  it('search: one field must hold every fragment; title, description and address fields count', async () => {
    await venue({ venue: 'Venue foo', description: 'In London', city: 'London', stateprovince: 'Greater London', zip: '223345', phone: '3333333' });
    await venue({ venue: 'Venue bar', address: '100, Avenue du Temple', city: 'Paris', country: 'France', province: 'Ile de France', zip: '223345' });
    await venue({ venue: 'Venue baz', city: 'London', stateprovince: 'Greater London' });
    const count = async (q: string) => (await app.request('GET', `${VENUES}?search=${encodeURIComponent(q)}`)).body.total;
    expect(await count('Venue')).toBe(3);
    expect(await count('Venue foo')).toBe(1);
    expect(await count('london')).toBe(2);
    expect(await count('3333333')).toBe(1);
    expect(await count('temple avenue')).toBe(1);
    expect(await count('greater london')).toBe(2);
    expect(await count('france, ile de')).toBe(1);
    expect(await count('223345')).toBe(2);
    expect((await app.request('GET', `${VENUES}?search=`)).status).toBe(400);
  });

  it('event, has_events and only_with_upcoming', async () => {
    const v1 = await venue({ venue: 'V1' });
    const v2 = await venue({ venue: 'V2' });
    const v3 = await venue({ venue: 'V3' });
    const v4 = await venue({ venue: 'V4' });
    const past = (await eventAt(-24 * 40, { venue: v1.id })).body;
    await eventAt(24 * 30, { venue: v2.id });
    await eventAt(24 * 30, { venue: v3.id, status: 'draft' });
    await eventAt(24 * 30, { venue: v4.id, status: 'private' });
    expect(names(await app.request('GET', `${VENUES}?event=${past.id}`))).toEqual(['V1']);
    expect((await app.request('GET', `${VENUES}?event=2389999`)).status).toBe(400);
    expect(names(await app.request('GET', `${VENUES}?has_events=true`))).toEqual(['V1', 'V2', 'V4']);
    expect(names(await app.request('GET', `${VENUES}?has_events=false`))).toEqual(['V3']);
    expect(names(await app.request('GET', `${VENUES}?only_with_upcoming=true`))).toEqual(['V2']);
    expect(names(await users.as('editor', 'GET', `${VENUES}?only_with_upcoming=true`))).toEqual(['V2', 'V4']);
    expect(names(await app.request('GET', `${VENUES}?only_with_upcoming=false`))).toEqual(['V1', 'V2', 'V3', 'V4']);
  });
});
