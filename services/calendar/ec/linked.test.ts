import { DateTime } from 'luxon';
import { openStore } from '#libs/store/index';
import type { Store } from '#libs/store/types';
import { startTestApp, type TestApp } from '../../../test/support/app';

let app: TestApp;
let store: Store;

async function create(path: string, body: Record<string, unknown>): Promise<any> {
  const res = await app.admin('POST', path, { body });
  if (res.status !== 201) throw new Error(`not created: ${res.status} ${res.text}`);
  return res.body;
}

const ids = (res: { body: any }) => (res.body as Array<{ id: number }>).map((e) => e.id);
const soon = (days: number) => DateTime.now().setZone('UTC').plus({ days }).toFormat('yyyy-LL-dd HH:mm:ss');

beforeAll(async () => {
  app = await startTestApp();
  store = await openStore({ dataDir: app.config.DATA_DIR });
});
afterAll(async () => {
  await store.close();
  await app.close();
});
beforeEach(async () => {
  await store.collection('posts').updateMany({ type: { $in: ['vendor_venue', 'vendor_organizer', 'vendor_events'] } }, { $set: { status: 'trash' } });
});

describe('venues', () => {
  it('create, read, update with PATCH; the entity has the venue fields in order', async () => {
    const v = await create('/ec/v1/venues', {
      title: 'Downtown Convention Center',
      content: 'A modern convention center.',
      address: '123 Main St',
      city: 'New York',
      state_province: 'NY',
      zip: '10001',
      country: 'United States',
      phone: '+1-212-555-0123',
      website: 'https://downtowncc.example.com',
    });
    expect(Object.keys(v)).toEqual([
      'id',
      'date',
      'date_gmt',
      'guid',
      'modified',
      'modified_gmt',
      'slug',
      'status',
      'type',
      'link',
      'title',
      'content',
      'excerpt',
      'author',
      'featured_media',
      'template',
      'address',
      'country',
      'city',
      'state_province',
      'state',
      'province',
      'zip',
      'phone',
      'directions_link',
      'website',
    ]);
    expect(v).toMatchObject({
      slug: 'downtown-convention-center',
      type: 'vendor_venue',
      status: 'publish',
      link: 'http://example.test/venue/downtown-convention-center/',
      content: { rendered: '<p>A modern convention center.</p>\n', protected: false },
      state_province: 'NY',
      directions_link: 'https://maps.google.com/maps?f=q&#038;source=s_q&#038;hl=en&#038;geocode=&#038;q=123+Main+St+New+York+NY+10001+United+States',
    });
    const patch = await app.admin('PATCH', `/ec/v1/venues/${v.id}`, { body: { city: 'Boston', phone: '' } });
    expect(patch.status).toBe(200);
    expect(patch.body).toMatchObject({ city: 'Boston', phone: '', address: '123 Main St', title: { rendered: 'Downtown Convention Center' } });
    // The same record through vendor/events/v1.
    const v1 = await app.request('GET', `/vendor/events/v1/venues/${v.id}`);
    expect(v1.body).toMatchObject({ venue: 'Downtown Convention Center', city: 'Boston', stateprovince: 'NY', website: 'https://downtowncc.example.com' });
  });

  it('does not merge a create into an existing venue of the same name, as vendor/events/v1 does', async () => {
    const a = await create('/ec/v1/venues', { title: 'Twin' });
    const b = await create('/ec/v1/venues', { title: 'Twin' });
    expect(b.id).not.toBe(a.id);
    expect(b.slug).toBe('twin-2');
  });

  it('validates website as a URL', async () => {
    const res = await app.admin('POST', '/ec/v1/venues', { body: { title: 'Bad', website: 'not a url' } });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('rest_invalid_param');
    expect(res.body.data.details.website).toMatchObject({ code: 'tec_rest_invalid_uri_argument', message: 'Argument `{website}` must be a valid URL.' });
  });

  it('lists with search, event, has_events and only_with_upcoming filters', async () => {
    const hall = await create('/ec/v1/venues', { title: 'Grand Hall' });
    const park = await create('/ec/v1/venues', { title: 'City Park', content: 'green and grand' });
    const barn = await create('/ec/v1/venues', { title: 'Old Barn' });
    const past = await create('/ec/v1/events', { title: 'Past', start_date: '2020-01-01 10:00:00', end_date: '2020-01-01 12:00:00', venues: [barn.id] });
    const next = await create('/ec/v1/events', { title: 'Next', start_date: soon(3), end_date: soon(4), venues: [hall.id] });
    const q = async (query: string) => ids(await app.request('GET', `/ec/v1/venues?${query}`));
    expect(await q('')).toEqual([barn.id, park.id, hall.id]);
    expect(await q('search=grand')).toEqual([park.id, hall.id]);
    expect(await q(`event=${next.id}`)).toEqual([hall.id]);
    expect(await q('has_events=true')).toEqual([barn.id, hall.id]);
    expect(await q('has_events=false')).toEqual([park.id]);
    expect(await q('only_with_upcoming=true')).toEqual([hall.id]);
    const notEvent = await app.request('GET', `/ec/v1/venues?event=${hall.id}`);
    expect(notEvent.status).toBe(400);
    expect(notEvent.body.data.params).toEqual({ event: 'Invalid parameter.' });
    const paged = await app.request('GET', '/ec/v1/venues?per_page=2&page=2');
    expect(ids(paged)).toEqual([hall.id]);
    expect(paged.headers.get('x-wp-total')).toBe('3');
    expect(paged.headers.get('x-wp-totalpages')).toBe('2');
    const beyond = await app.request('GET', '/ec/v1/venues?per_page=2&page=3');
    expect(beyond.status).toBe(404);
    expect(beyond.body.code).toBe('tec_rest_organizers_page_not_found');
    expect(past.venues[0].id).toBe(barn.id);
  });

  it('deleting a venue unlinks it from its events; force removes it', async () => {
    const v = await create('/ec/v1/venues', { title: 'Gone Soon' });
    const e = await create('/ec/v1/events', { title: 'At Gone Soon', start_date: soon(2), end_date: soon(2), venues: [v.id] });
    expect((await app.admin('DELETE', `/ec/v1/venues/${v.id}`)).body).toEqual([]);
    const after = await app.request('GET', `/ec/v1/events/${e.id}`);
    expect(after.body.venues).toEqual([]);
    expect((await store.collection('posts').findOne({ id: e.id }))!.venues).toEqual([]);
    expect((await app.admin('DELETE', `/ec/v1/venues/${v.id}`)).status).toBe(410);
    expect((await app.admin('DELETE', `/ec/v1/venues/${v.id}?force=1`)).status).toBe(200);
    expect(await store.collection('posts').findOne({ id: v.id })).toBeNull();
  });
});

describe('organizers', () => {
  it('create and update with the organizer fields; email and website are validated', async () => {
    const o = await create('/ec/v1/organizers', {
      title: 'Professional Events Company',
      phone: '+1-555-123-4567',
      website: 'https://proevents.example.com',
      email: 'info@proevents.example.com',
      tags: [],
    });
    expect(Object.keys(o).slice(-3)).toEqual(['phone', 'website', 'email']);
    expect(o).toMatchObject({
      type: 'vendor_organizer',
      link: 'http://example.test/organizer/professional-events-company/',
      phone: '+1-555-123-4567',
      email: 'info@proevents.example.com',
    });
    const bad = await app.admin('PUT', `/ec/v1/organizers/${o.id}`, { body: { email: 'not-an-email' } });
    expect(bad.status).toBe(400);
    expect(bad.body.data.details.email.code).toBe('tec_rest_invalid_email_argument');
    const badUrl = await app.admin('PUT', `/ec/v1/organizers/${o.id}`, { body: { website: 'ftp:/x' } });
    expect(badUrl.status).toBe(400);
    const ok = await app.admin('PUT', `/ec/v1/organizers/${o.id}`, { body: { email: 'new@example.com', status: 'draft' } });
    expect(ok.body).toMatchObject({ email: 'new@example.com', status: 'draft', link: `http://example.test/?post_type=vendor_organizer&p=${o.id}` });
    const v1 = await app.admin('GET', `/vendor/events/v1/organizers/${o.id}`);
    expect(v1.body).toMatchObject({ organizer: 'Professional Events Company', email: 'new@example.com', status: 'draft' });
  });

  it('does not take the event-only fields', async () => {
    const o = await create('/ec/v1/organizers', { title: 'Plain', vendor_events_cat: [1], start_date: 'whatever' });
    expect(o).not.toHaveProperty('vendor_events_cat');
    expect(o).not.toHaveProperty('start_date');
  });

  it('lists drafts only for those who may read them; tags are assigned by id and must exist', async () => {
    const tag = await app.admin('POST', '/vendor/events/v1/tags', { body: { name: 'Local' } });
    const pub = await create('/ec/v1/organizers', { title: 'Public', tags: [tag.body.id] });
    const draft = await create('/ec/v1/organizers', { title: 'Hidden', status: 'draft' });
    // Stored, though the reference shows no term list or class_list on venues and organizers.
    expect(pub).not.toHaveProperty('tags');
    expect(pub).not.toHaveProperty('class_list');
    expect(ids(await app.request('GET', '/ec/v1/organizers?status=draft'))).toEqual([pub.id]);
    expect(ids(await app.admin('GET', '/ec/v1/organizers?status=draft'))).toEqual([draft.id]);
    const unknown = await app.admin('POST', '/ec/v1/organizers', { body: { title: 'x', tags: [999999] } });
    expect(unknown.status).toBe(400);
    expect(unknown.body.data.params).toEqual({ tags: 'Invalid parameter.' });
    expect((await app.request('GET', `/ec/v1/organizers/${draft.id}`)).status).toBe(401);
  });

  it("counts an organizer in its tags' counts while it is published, whatever the write changed", async () => {
    const tag = (await app.admin('POST', '/vendor/events/v1/tags', { body: { name: 'Counted' } })).body;
    const count = async () => (await app.admin('GET', `/vendor/events/v1/tags/${tag.id}`)).body.count;
    const org = await create('/ec/v1/organizers', { title: 'Counted organizer', tags: [tag.id] });
    expect(await count()).toBe(1);
    // A status change alone moves the count.
    await app.admin('PATCH', `/ec/v1/organizers/${org.id}`, { body: { status: 'draft' } });
    expect(await count()).toBe(0);
    await app.admin('PATCH', `/ec/v1/organizers/${org.id}`, { body: { status: 'publish' } });
    expect(await count()).toBe(1);
    // Through vendor/events/v1 too, which writes no tags: the write command is the same.
    await app.admin('POST', `/vendor/events/v1/organizers/${org.id}`, { body: { status: 'draft' } });
    expect(await count()).toBe(0);
    await app.admin('POST', `/vendor/events/v1/organizers/${org.id}`, { body: { status: 'publish' } });
    expect(await count()).toBe(1);
    await app.admin('DELETE', `/ec/v1/organizers/${org.id}`);
    expect(await count()).toBe(0);
  });
});
