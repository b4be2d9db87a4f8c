import { DateTime } from 'luxon';
import { openStore } from '../../../libs/store';
import type { Store } from '../../../libs/store/types';
import { startTestApp, type TestApp } from '../../../test/support/app';

const EVENTS = '/ec/v1/events';
let app: TestApp;
let store: Store;

const fmt = (dt: DateTime) => dt.toFormat('yyyy-LL-dd HH:mm:ss');
const utcNow = () => DateTime.now().setZone('UTC').startOf('second');

async function create(body: Record<string, unknown>, path = EVENTS): Promise<any> {
  const res = await app.admin('POST', path, { body });
  if (res.status !== 201) throw new Error(`not created: ${res.status} ${res.text}`);
  return res.body;
}

/** An event `days` from now, lasting `hours` hours. */
const event = (days: number, extra: Record<string, unknown> = {}, hours = 2) =>
  create({ title: `Event in ${days} days`, start_date: fmt(utcNow().plus({ days })), end_date: fmt(utcNow().plus({ days, hours })), ...extra });

/** Trashes every event so each test sees only its own. */
async function clearEvents(): Promise<void> {
  await store.collection('posts').updateMany({ type: 'vendor_events' }, { $set: { status: 'trash' } });
}

const ids = (res: { body: any }) => (res.body as Array<{ id: number }>).map((e) => e.id);

beforeAll(async () => {
  app = await startTestApp();
  store = await openStore({ dataDir: app.config.DATA_DIR });
});
afterAll(async () => {
  await store.close();
  await app.close();
});
beforeEach(clearEvents);

describe('entity', () => {
  it('has the post fields, then the event fields, in the reference order', async () => {
    const venue = await create({ title: 'Main Hall', address: '123 Main St, Anytown, USA' }, '/ec/v1/venues');
    const organizer = await create({ title: 'Test Organizer 1', email: 'test@example.com' }, '/ec/v1/organizers');
    const e = await create({
      title: 'Past Conference 2023',
      content: 'A past conference that already happened.',
      start_date: '2023-01-15 09:00:00',
      end_date: '2023-01-15 17:00:00',
      timezone: 'UTC',
      cost: '$99.00',
      venues: [venue.id],
      organizers: [organizer.id],
    });
    const res = await app.request('GET', `${EVENTS}/${e.id}`);
    expect(res.status).toBe(200);
    const b = res.body;
    expect(Object.keys(b)).toEqual([
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
      'tags',
      'vendor_events_cat',
      'class_list',
      'start_date',
      'start_date_utc',
      'end_date',
      'end_date_utc',
      'dates',
      'timezone',
      'duration',
      'multiday',
      'is_past',
      'is_now',
      'all_day',
      'starts_this_week',
      'ends_this_week',
      'this_week_duration',
      'happens_this_week',
      'displays_on',
      'featured',
      'sticky',
      'cost',
      'organizer_names',
      'organizers',
      'venues',
      'schedule_details',
      'short_schedule_details',
    ]);
    expect(b).toMatchObject({
      slug: 'past-conference-2023',
      status: 'publish',
      type: 'vendor_events',
      link: 'http://example.test/event/past-conference-2023/',
      title: { rendered: 'Past Conference 2023' },
      content: { rendered: '<p>A past conference that already happened.</p>\n', protected: false },
      excerpt: { rendered: '<p>A past conference that already happened.</p>\n', protected: false },
      author: 1,
      featured_media: 0,
      template: '',
      tags: [],
      vendor_events_cat: [],
      class_list: [`post-${e.id}`, 'vendor_events', 'type-vendor_events', 'status-publish', 'hentry'],
      start_date: '2023-01-15 09:00:00',
      start_date_utc: '2023-01-15 09:00:00',
      end_date: '2023-01-15 17:00:00',
      end_date_utc: '2023-01-15 17:00:00',
      timezone: 'UTC',
      duration: '28800',
      multiday: false,
      is_past: true,
      is_now: false,
      all_day: false,
      starts_this_week: false,
      happens_this_week: false,
      this_week_duration: null,
      displays_on: [],
      featured: false,
      sticky: false,
      cost: '$99.00',
      organizer_names: ['Test Organizer 1'],
      schedule_details: '<span class="tribe-event-date-start">January 15, 2023 @ 9:00 am</span> - <span class="tribe-event-time">5:00 pm</span>',
      short_schedule_details: '<span class="tribe-event-date-start">9:00 am</span> - <span class="tribe-event-time">5:00 pm</span>',
    });
    expect(b.dates.start).toEqual({ date: '2023-01-15 09:00:00.000000', timezone_type: 3, timezone: 'UTC' });
    expect(Object.keys(b.dates)).toEqual(['start', 'start_utc', 'start_site', 'start_display', 'end', 'end_utc', 'end_site', 'end_display']);
    expect(b.organizers).toHaveLength(1);
    expect(b.organizers[0]).toMatchObject({
      id: organizer.id,
      type: 'vendor_organizer',
      title: { rendered: 'Test Organizer 1' },
      email: 'test@example.com',
      phone: '',
      website: '',
    });
    expect(b.venues[0]).toMatchObject({
      id: venue.id,
      type: 'vendor_venue',
      address: '123 Main St, Anytown, USA',
      directions_link: 'https://maps.google.com/maps?f=q&#038;source=s_q&#038;hl=en&#038;geocode=&#038;q=123+Main+St%2C+Anytown%2C+USA',
    });
    expect(b).not.toHaveProperty('meta');
    expect(b).not.toHaveProperty('_links');
  });

  it('computes dates in the event zone, UTC and the site zone, with the zone abbreviation-free names', async () => {
    const e = await create({ title: 'New York', start_date: '2031-03-10 09:00:00', end_date: '2031-03-10 11:30:00', timezone: 'America/New_York' });
    expect(e).toMatchObject({
      start_date: '2031-03-10 09:00:00',
      start_date_utc: '2031-03-10 13:00:00',
      end_date_utc: '2031-03-10 15:30:00',
      timezone: 'America/New_York',
      duration: '9000',
    });
    expect(e.dates.start).toEqual({ date: '2031-03-10 09:00:00.000000', timezone_type: 3, timezone: 'America/New_York' });
    expect(e.dates.start_utc).toEqual({ date: '2031-03-10 13:00:00.000000', timezone_type: 3, timezone: 'UTC' });
    expect(e.dates.start_site.date).toBe('2031-03-10 13:00:00.000000');
    expect(e.dates.end_display.timezone).toBe('America/New_York');
    const offset = await create({ title: 'Offset', start_date: '2031-03-10 09:00:00', end_date: '2031-03-10 10:00:00', timezone: 'UTC+2' });
    expect(offset.dates.start).toEqual({ date: '2031-03-10 09:00:00.000000', timezone_type: 1, timezone: '+02:00' });
    expect(offset.start_date_utc).toBe('2031-03-10 07:00:00');
  });

  it('multi-day, all-day and happening-now events', async () => {
    const multi = await create({ title: 'Festival', start_date: '2031-08-13 12:00:00', end_date: '2031-08-16 23:00:00' });
    expect(multi.multiday).toBe(4);
    expect(multi.duration).toBe('298800');
    expect(multi.schedule_details).toBe(
      '<span class="tribe-event-date-start">August 13, 2031 @ 12:00 pm</span> - <span class="tribe-event-date-end">August 16, 2031 @ 11:00 pm</span>',
    );
    expect(multi.short_schedule_details).toBe(multi.schedule_details);
    const allDay = await create({ title: 'Cleanup', start_date: '2031-06-27 10:00:00', end_date: '2031-06-27 12:00:00', all_day: true });
    expect(allDay).toMatchObject({
      all_day: true,
      multiday: false,
      start_date: '2031-06-27 00:00:00',
      end_date: '2031-06-27 23:59:59',
      duration: '86399',
      short_schedule_details: 'All day',
    });
    expect(allDay.schedule_details).toBe('<span class="tribe-event-date-start">June 27, 2031</span>');
    const now = await event(0, {}, 3);
    expect(now).toMatchObject({ is_now: true, is_past: false, happens_this_week: true, starts_this_week: true });
    expect(now.this_week_duration).toBeGreaterThanOrEqual(1);
    expect(now.displays_on.length).toBe(now.this_week_duration);
  });

  it('a password-protected event is masked unless its password is given', async () => {
    const e = await event(5, { cost: '10' });
    await store.collection('posts').updateOne({ id: e.id }, { $set: { password: 'secret' } });
    const masked = (await app.request('GET', `${EVENTS}/${e.id}`)).body;
    expect(masked).toMatchObject({ id: e.id, slug: e.slug, status: 'publish', type: 'vendor_events', title: e.title, author: 1, link: e.link });
    expect(masked.content).toEqual({ rendered: 'Password protected', protected: null });
    expect(masked).toMatchObject({
      featured_media: 0,
      template: 'Password protected',
      start_date: 'Password protected',
      duration: 'Password protected',
      multiday: null,
      featured: null,
      cost: 'Password protected',
    });
    expect(masked.dates.start).toEqual({ date: '1970-01-01 00:00:00.000000', timezone_type: 3, timezone: 'UTC' });
    expect(masked.class_list).toContain('post-password-required');
    const open = (await app.request('GET', `${EVENTS}/${e.id}?password=secret`)).body;
    expect(open.content.protected).toBe(true);
    expect(open.cost).toBe('$10');
    expect(open.class_list).toContain('post-password-protected');
    const listed = (await app.request('GET', EVENTS)).body.find((x: { id: number }) => x.id === e.id);
    expect(listed.cost).toBe('Password protected');
  });
});

describe("guests' answers", () => {
  it('each read of a published entity, one after the other, answers with that entity, and a write shows at once', async () => {
    const a = await event(3, { title: 'First' });
    const b = await event(4, { title: 'Second' });
    for (let round = 0; round < 2; round++) {
      expect((await app.request('GET', `${EVENTS}/${a.id}`)).body.title.rendered).toBe('First');
      expect((await app.request('GET', `${EVENTS}/${b.id}`)).body.title.rendered).toBe('Second');
    }
    expect((await app.admin('PUT', `${EVENTS}/${a.id}`, { body: { title: 'First, renamed' } })).status).toBe(200);
    expect((await app.request('GET', `${EVENTS}/${a.id}`)).body.title.rendered).toBe('First, renamed');
  });
});

describe('list', () => {
  it('is a bare array ordered by start date, with paging headers and links', async () => {
    const made = [];
    for (const d of [3, 1, 2, 5, 4]) made.push(await event(d));
    const res = await app.request('GET', `${EVENTS}?per_page=2`);
    expect(res.status).toBe(200);
    expect(Array.isArray(res.body)).toBe(true);
    expect(res.body.map((e: any) => e.title.rendered)).toEqual(['Event in 1 days', 'Event in 2 days']);
    expect(res.headers.get('x-wp-total')).toBe('5');
    expect(res.headers.get('x-wp-totalpages')).toBe('3');
    expect(res.headers.get('link')).toContain('<http://example.test/index.php/cms-json/ec/v1/events?per_page=2&page=2>; rel="next"');
    expect(res.headers.get('link')).not.toContain('rel="prev"');
    const mid = await app.request('GET', `${EVENTS}?per_page=2&page=2`);
    expect(mid.headers.get('link')).toContain(
      '<http://example.test/index.php/cms-json/ec/v1/events?per_page=2&page=1>; rel="prev", <http://example.test/index.php/cms-json/ec/v1/events?per_page=2&page=3>; rel="next"',
    );
    const last = await app.request('GET', `${EVENTS}?per_page=2&page=3`);
    expect(ids(last)).toHaveLength(1);
    expect(last.headers.get('link')).toContain('rel="prev"');
    expect(last.headers.get('link')).not.toContain('rel="next"');
    const desc = await app.request('GET', `${EVENTS}?order=DESC&per_page=1`);
    expect(desc.body[0].title.rendered).toBe('Event in 5 days');
    const byTitle = await app.request('GET', `${EVENTS}?orderby=title&order=DESC`);
    expect(byTitle.body[0].title.rendered).toBe('Event in 5 days');
    expect(made).toHaveLength(5);
  });

  it('past the last page is 404 with the reference code; an empty first page is 200 with zeros', async () => {
    const empty = await app.request('GET', EVENTS);
    expect(empty.status).toBe(200);
    expect(empty.body).toEqual([]);
    expect(empty.headers.get('x-wp-total')).toBe('0');
    expect(empty.headers.get('x-wp-totalpages')).toBe('0');
    expect(empty.headers.get('link')).not.toContain('rel="next"');
    await event(1);
    const beyond = await app.request('GET', `${EVENTS}?page=2`);
    expect(beyond.status).toBe(404);
    expect(beyond.body).toEqual({ code: 'tec_rest_organizers_page_not_found', message: 'The requested page was not found.' });
  });

  it('validates every parameter: per_page 1..100, page ≥ 1, enums, booleans, dates', async () => {
    const cases: Array<[string, string]> = [
      ['per_page=101', 'per_page'],
      ['per_page=0', 'per_page'],
      ['page=0', 'page'],
      ['orderby=price', 'orderby'],
      ['order=up', 'order'],
      ['status=trash', 'status'],
      ['status=publish,any', 'status'],
      ['status=inherit', 'status'],
      ['status=publish,publish', 'status'],
      ['featured=maybe', 'featured'],
      ['start_date=not-a-date', 'start_date'],
      ['categories=a', 'categories'],
    ];
    for (const [query, param] of cases) {
      const res = await app.request('GET', `${EVENTS}?${query}`);
      expect([query, res.status, res.body.code]).toEqual([query, 400, 'rest_invalid_param']);
      expect(Object.keys(res.body.data.params)).toEqual([param]);
    }
    const bounds = await app.request('GET', `${EVENTS}?per_page=101`);
    expect(bounds.body.data.params.per_page).toBe('per_page must be between 1 (inclusive) and 100 (inclusive)');
    const ok = await app.request('GET', `${EVENTS}?per_page=100&status=publish,draft,pending,future,private`);
    expect(ok.status).toBe(200);
  });

  it('filters on dates, search, categories, tags, venues, organizers, featured and parent', async () => {
    const cat = await app.admin('POST', '/vendor/events/v1/categories', { body: { name: 'Music' } });
    const tag = await app.admin('POST', '/vendor/events/v1/tags', { body: { name: 'Outdoor' } });
    const venue = await create({ title: 'Park' }, '/ec/v1/venues');
    const organizer = await create({ title: 'Band' }, '/ec/v1/organizers');
    const a = await event(2, { title: 'Jazz night', vendor_events_cat: [cat.body.id], featured: true });
    const b = await event(10, { title: 'Picnic', tags: [tag.body.id], venues: [venue.id] });
    const c = await event(20, { title: 'Concert', organizers: [organizer.id], content: 'Loud jazz music' });
    const day = (d: number) => utcNow().plus({ days: d }).toFormat('yyyy-LL-dd');
    const q = async (query: string) => ids(await app.request('GET', `${EVENTS}?${query}`));
    expect(await q(`start_date=${day(5)}T00:00:00`)).toEqual([b.id, c.id]);
    expect(await q(`end_date=${day(10)}T00:00:00`)).toEqual([a.id, b.id]);
    expect(await q(`starts_after=${day(5)}T00:00:00&starts_before=${day(15)}T00:00:00`)).toEqual([b.id]);
    expect(await q(`ends_before=${day(5)}T00:00:00`)).toEqual([a.id]);
    expect(await q(`ends_after=${day(15)}T00:00:00`)).toEqual([c.id]);
    expect(await q('search=jazz')).toEqual([a.id, c.id]);
    expect(await q(`categories[]=${cat.body.id}`)).toEqual([a.id]);
    expect(await q(`categories=${cat.body.id},${cat.body.id + 1000}`)).toEqual([a.id]);
    expect(await q(`tags[]=${tag.body.id}`)).toEqual([b.id]);
    expect(await q(`venue=${venue.id}`)).toEqual([b.id]);
    expect(await q(`organizer=${organizer.id}`)).toEqual([c.id]);
    expect(await q('featured=true')).toEqual([a.id]);
    expect(await q('featured=false')).toEqual([b.id, c.id]);
    expect(await q('ticketed=true')).toEqual([]);
    expect(await q('ticketed=false')).toEqual([a.id, b.id, c.id]);
    await store.collection('posts').updateOne({ id: c.id }, { $set: { parent: a.id } });
    expect(await q(`post_parent=${a.id}`)).toEqual([c.id]);
    const notVenue = await app.request('GET', `${EVENTS}?venue=${organizer.id}`);
    expect(notVenue.status).toBe(400);
    expect(notVenue.body.data.params).toEqual({ venue: 'Invalid parameter.' });
  });

  it('statuses: default [publish], guests always publish, editors any of the five', async () => {
    const pub = await event(1);
    const draft = await event(2, { status: 'draft' });
    const priv = await event(3, { status: 'private' });
    expect(ids(await app.request('GET', EVENTS))).toEqual([pub.id]);
    expect(ids(await app.request('GET', `${EVENTS}?status=draft,private`))).toEqual([pub.id]);
    expect(ids(await app.admin('GET', `${EVENTS}?status=draft,private`))).toEqual([draft.id, priv.id]);
    expect(ids(await app.admin('GET', `${EVENTS}?status[]=draft&status[]=publish`))).toEqual([pub.id, draft.id]);
  });
});

describe('writes', () => {
  it('creates (201), reads, updates with PUT and PATCH, and has no POST on an item', async () => {
    const e = await event(4, { content: 'Body', excerpt: 'Short', slug: 'my-event', sticky: true, comment_status: 'closed' });
    expect(e).toMatchObject({ slug: 'my-event', sticky: true, excerpt: { rendered: '<p>Short</p>\n' } });
    const put = await app.admin('PUT', `${EVENTS}/${e.id}`, { body: { title: 'Renamed', cost: '25', featured: true } });
    expect(put.status).toBe(200);
    expect(put.body).toMatchObject({ title: { rendered: 'Renamed' }, cost: '$25', featured: true, slug: 'my-event', status: 'publish' });
    const patch = await app.admin('PATCH', `${EVENTS}/${e.id}`, { body: { start_date_utc: '2032-05-01 10:00:00', duration: 5400 } });
    expect(patch.body).toMatchObject({
      start_date_utc: '2032-05-01 10:00:00',
      end_date_utc: '2032-05-01 11:30:00',
      duration: '5400',
      title: { rendered: 'Renamed' },
    });
    const post = await app.admin('POST', `${EVENTS}/${e.id}`, { body: { title: 'Nope' } });
    expect(post.status).toBe(404);
    expect(post.body.code).toBe('rest_no_route');
    const stored = await store.collection('posts').findOne({ id: e.id });
    expect(stored).toMatchObject({ comment_status: 'closed', menu_order: -1 });
  });

  it('validates write fields by their declared types, formats and patterns', async () => {
    const bad: Array<[Record<string, unknown>, string]> = [
      [{ start_date: '2030-01-01' }, 'start_date'],
      [{ end_date_utc: '2030-01-01T10:00:00' }, 'end_date_utc'],
      [{ date: 'yesterday' }, 'date'],
      [{ status: 'trash' }, 'status'],
      [{ venues: [1, 1] }, 'venues'],
      [{ organizers: ['x'] }, 'organizers'],
      [{ all_day: 'sometimes' }, 'all_day'],
      [{ duration: -5 }, 'duration'],
      [{ format: 'poem' }, 'format'],
      [{ title: 5 }, 'title'],
    ];
    for (const [body, param] of bad) {
      const res = await app.admin('POST', EVENTS, { body: { title: 'x', ...body } });
      expect([param, res.status, res.body.code]).toEqual([param, 400, 'rest_invalid_param']);
      expect(Object.keys(res.body.data.params)).toEqual([param]);
    }
    const pattern = await app.admin('POST', EVENTS, { body: { start_date: 'soon' } });
    expect(pattern.body.data.details.start_date).toEqual({
      code: 'tec_rest_invalid_date_time_argument',
      message: 'Argument `{start_date}` must match the pattern.',
      data: {
        status: 400,
        argument: 'start_date',
        details: 'The argument `{start_date}` does not match the pattern `^[0-9]{4}-[0-9]{2}-[0-9]{2} [0-9]{2}:[0-9]{2}:[0-9]{2}$`.',
      },
    });
    const unknownVenue = await app.admin('POST', EVENTS, { body: { title: 'x', venues: [999999] } });
    expect(unknownVenue.status).toBe(400);
    expect(unknownVenue.body.data.params).toEqual({ venues: 'Invalid parameter.' });
    const unknownCat = await app.admin('POST', EVENTS, { body: { title: 'x', vendor_events_cat: [999999] } });
    expect(unknownCat.body.data.params).toEqual({ vendor_events_cat: 'Invalid parameter.' });
    const unknownMedia = await app.admin('POST', EVENTS, { body: { title: 'x', featured_media: 999999 } });
    expect(unknownMedia.body.data.params).toEqual({ featured_media: 'Invalid parameter.' });
    const count = await store.collection('posts').count({ type: 'vendor_events', title: 'x' });
    expect(count).toBe(0);
  });

  it('deletes: trash then 410, force removes for good with 200 []', async () => {
    const e = await event(3);
    const trash = await app.admin('DELETE', `${EVENTS}/${e.id}`);
    expect(trash.status).toBe(200);
    expect(trash.body).toEqual([]);
    expect((await store.collection('posts').findOne({ id: e.id }))!.status).toBe('trash');
    const again = await app.admin('DELETE', `${EVENTS}/${e.id}`);
    expect(again.status).toBe(410);
    expect(again.body).toEqual({ error: 'The entity has already been trashed.' });
    const force = await app.admin('DELETE', `${EVENTS}/${e.id}?force=true`);
    expect(force.status).toBe(200);
    expect(force.body).toEqual([]);
    expect(await store.collection('posts').findOne({ id: e.id })).toBeNull();
    const gone = await app.admin('GET', `${EVENTS}/${e.id}`);
    expect(gone.status).toBe(403);
    expect(gone.body.code).toBe('rest_forbidden');
  });

  it('an id of another type: reads are forbidden, writes by those allowed are 404 with the reference body', async () => {
    const venue = await create({ title: 'Not an event' }, '/ec/v1/venues');
    const read = await app.request('GET', `${EVENTS}/${venue.id}`);
    expect(read.status).toBe(401);
    expect(read.body.code).toBe('rest_forbidden');
    const update = await app.admin('PUT', `${EVENTS}/${venue.id}`, { body: { title: 'x' } });
    expect(update.status).toBe(404);
    expect(update.body).toEqual({ error: 'The entity could not be updated.' });
    const del = await app.admin('DELETE', `${EVENTS}/${venue.id}`);
    expect(del.status).toBe(404);
    expect(del.body).toEqual({ error: 'The entity could not be deleted.' });
    const missing = await app.admin('PUT', `${EVENTS}/99999999`, { body: { title: 'x' } });
    expect(missing.status).toBe(403);
    expect(missing.body.code).toBe('rest_forbidden');
  });
});
