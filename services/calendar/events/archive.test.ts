import { DateTime } from 'luxon';
import { openStore } from '#libs/store/index';
import type { Store } from '#libs/store/types';
import { startTestApp, type TestApp } from '../../../test/support/app';
import { createRoleUsers, type RoleUsers } from '../../../test/support/roles';

const ARCHIVE = '/vendor/events/v1/events';
let app: TestApp;
let store: Store;
let users: RoleUsers;

const fmt = (dt: DateTime) => dt.toFormat('yyyy-LL-dd HH:mm:ss');
const now = () => DateTime.now().setZone('UTC');

async function event(body: Record<string, unknown>): Promise<any> {
  const res = await app.admin('POST', ARCHIVE, { body: { title: 'Event', ...body } });
  if (res.status !== 201) throw new Error(`event not created: ${res.text}`);
  return res.body;
}

/** An event starting `hours` from now, lasting `length` hours. */
const upcoming = (hours: number, extra: Record<string, unknown> = {}, length = 2) =>
  event({ start_date: fmt(now().plus({ hours })), end_date: fmt(now().plus({ hours: hours + length })), ...extra });

const ids = (res: { body: any }) => (res.body.events as Array<{ id: number }>).map((e) => e.id);

/** Moves every event out of the way, so each test sees only its own. */
async function clearEvents(): Promise<void> {
  await store.collection('posts').updateMany({ type: 'vendor_events' }, { $set: { status: 'trash' } });
}

beforeAll(async () => {
  app = await startTestApp();
  store = await openStore({ dataDir: app.config.DATA_DIR });
  users = await createRoleUsers(app, 'archive');
});
afterAll(async () => {
  await store.close();
  await app.close();
});
beforeEach(clearEvents);

describe('envelope and paging', () => {
  it('an empty archive is 200 with zeros, no links, and zero totals in the X-TEC headers only', async () => {
    const res = await app.request('GET', ARCHIVE);
    expect(res.status).toBe(200);
    expect(res.body.events).toEqual([]);
    expect(res.body.total).toBe(0);
    expect(res.body.total_pages).toBe(0);
    expect(res.body).not.toHaveProperty('next_rest_url');
    expect(res.body).not.toHaveProperty('previous_rest_url');
    expect(res.headers.get('x-tec-total')).toBe('0');
    expect(res.headers.get('x-tec-totalpages')).toBe('0');
    expect(res.headers.get('x-wp-total')).toBeNull();
    expect(res.headers.get('link')).not.toMatch(/rel="(next|prev)"/);
  });

  it('pages with next and previous links; page 1 has no page in the previous link; past the end is 404', async () => {
    for (let i = 1; i <= 7; i++) await upcoming(24 * i);
    const first = await app.request('GET', `${ARCHIVE}?per_page=5`);
    expect(first.body.events).toHaveLength(5);
    expect(first.body.total).toBe(7);
    expect(first.body.total_pages).toBe(2);
    expect(first.headers.get('x-tec-totalpages')).toBe('2');
    expect(Object.keys(first.body)).toEqual(['events', 'rest_url', 'next_rest_url', 'total', 'total_pages']);
    expect(first.body.rest_url).toMatch(/\/vendor\/events\/v1\/events\/\?page=1&per_page=5&start_date=/);
    expect(first.body.next_rest_url).toMatch(/\/events\/\?page=2&per_page=5&/);
    const second = await app.request('GET', `${ARCHIVE}?per_page=5&page=2`);
    expect(second.body.events).toHaveLength(2);
    expect(second.body.previous_rest_url).toMatch(/\/events\/\?per_page=5&start_date=/);
    expect(second.body).not.toHaveProperty('next_rest_url');
    const third = await app.request('GET', `${ARCHIVE}?per_page=3&page=3`);
    expect(third.body.previous_rest_url).toMatch(/\/events\/\?page=2&per_page=3/);
    const beyond = await app.request('GET', `${ARCHIVE}?per_page=5&page=3`);
    expect(beyond.status).toBe(404);
    expect(beyond.body).toEqual({ code: 'event-archive-page-not-found', message: 'The requested event archive page does not exist', data: { status: 404 } });
  });

  it('defaults to 10 per page and clamps per_page to 50', async () => {
    const docs = Array.from({ length: 51 }, (_, i) => i);
    for (const i of docs) await upcoming(24 + i);
    expect((await app.request('GET', ARCHIVE)).body.events).toHaveLength(10);
    const res = await app.request('GET', `${ARCHIVE}?per_page=100`);
    expect(res.body.events).toHaveLength(50);
    expect(res.body.total).toBe(51);
    expect(res.body.total_pages).toBe(2);
  });

  it('refuses bad page and per_page values', async () => {
    for (const bad of ['foo', '-1', '0', 'foo%20bar']) {
      for (const arg of ['page', 'per_page']) {
        const res = await app.request('GET', `${ARCHIVE}?${arg}=${bad}`);
        expect(res.status).toBe(400);
        expect(res.body.code).toBe('rest_invalid_param');
        expect(Object.keys(res.body.data.params)).toEqual([arg]);
      }
    }
  });
});

describe('dates', () => {
  it('the §2.7 examples: inclusive days by default, exact times with strict_dates, relative-only windows', async () => {
    const e1 = await event({ start_date: '2018-01-01 16:00:00', end_date: '2018-01-01 16:30:00' });
    const e2 = await event({ start_date: '2018-01-01 20:00:00', end_date: '2018-01-01 20:30:00' });
    await upcoming(48);
    const window = 'start_date=2018-01-01%2015:00:00&end_date=2018-01-01%2018:00:00';
    const inclusive = await app.request('GET', `${ARCHIVE}?${window}`);
    expect(ids(inclusive)).toEqual([e1.id, e2.id]);
    expect(inclusive.body.rest_url).toContain('start_date=2018-01-01%2000%3A00%3A00&end_date=2018-01-01%2023%3A59%3A59');
    const strict = await app.request('GET', `${ARCHIVE}?${window}&strict_dates=true`);
    expect(ids(strict)).toEqual([e1.id]);
    const relative = await app.request('GET', `${ARCHIVE}?ends_after=2017-12-31&starts_before=2018-01-02`);
    expect(ids(relative)).toEqual([e1.id, e2.id]);
    expect(relative.body.rest_url).not.toContain('start_date=');
    expect(relative.body.rest_url).toContain('starts_before=2018-01-02%2023%3A59%3A59');
  });

  it('the default window runs from yesterday 00:00 to the end of the day 24 months ahead, ordered by start', async () => {
    const today = now().startOf('day');
    const yesterday = await event({
      start_date: fmt(today.minus({ days: 1 }).plus({ minutes: 1 })),
      end_date: fmt(today.minus({ days: 1 }).plus({ hours: 1 })),
    });
    await event({ start_date: fmt(today.minus({ days: 2 }).plus({ hours: 23 })), end_date: fmt(today.plus({ hours: 1 })) });
    const later = await upcoming(24 * 30);
    const soon = await upcoming(24);
    const last = await event({
      start_date: fmt(today.plus({ months: 24 }).plus({ hours: 20 })),
      end_date: fmt(today.plus({ months: 24 }).plus({ hours: 23, minutes: 59 })),
    });
    await event({ start_date: fmt(today.plus({ months: 24, days: 1 })), end_date: fmt(today.plus({ months: 24, days: 1, hours: 1 })) });
    const res = await app.request('GET', ARCHIVE);
    expect(ids(res)).toEqual([yesterday.id, soon.id, later.id, last.id]);
    expect(res.body.rest_url).toContain(`start_date=${encodeURIComponent(fmt(today.minus({ days: 1 })))}`);
  });

  it('start_date is "starts on or after", end_date "ends on or before", with timestamps too (weekly events)', async () => {
    const base = now().startOf('hour');
    const weekly = [];
    for (let k = 1; k <= 10; k++) weekly.push(await event({ start_date: fmt(base.plus({ weeks: k })), end_date: fmt(base.plus({ weeks: k, hours: 2 })) }));
    const ts = (dt: DateTime) => Math.floor(dt.toSeconds());
    expect((await app.request('GET', `${ARCHIVE}?start_date=${ts(base.plus({ weeks: 5 }))}`)).body.total).toBe(6);
    expect((await app.request('GET', `${ARCHIVE}?end_date=${ts(base.plus({ weeks: 5, hours: 2 }))}`)).body.total).toBe(5);
    expect(ids(await app.request('GET', `${ARCHIVE}?start_date=${ts(base.plus({ days: 10 }))}&end_date=${ts(base.plus({ days: 30 }))}`))).toEqual([
      weekly[1].id,
      weekly[2].id,
      weekly[3].id,
    ]);
    expect((await app.request('GET', `${ARCHIVE}?start_date=tomorrow&end_date=%2B3%20weeks`)).body.total).toBeGreaterThanOrEqual(2);
  });

  it('refuses dates it cannot read', async () => {
    for (const arg of ['start_date', 'end_date', 'starts_before', 'ends_after']) {
      const res = await app.request('GET', `${ARCHIVE}?${arg}=before%20my%20birthday`);
      expect(res.status).toBe(400);
      expect(res.body.data.params).toHaveProperty(arg);
    }
  });

  it('reads the window in the site time zone', async () => {
    const ny = await startTestApp({ SITE_TIMEZONE: 'America/New_York' });
    try {
      const late = await ny.admin('POST', ARCHIVE, { body: { title: 'Late', start_date: '2030-06-01 22:00:00', end_date: '2030-06-01 23:00:00' } });
      expect(late.body.utc_start_date).toBe('2030-06-02 02:00:00');
      const res = await ny.request('GET', `${ARCHIVE}?start_date=2030-06-01&end_date=2030-06-01`);
      expect(res.body.events.map((e: { id: number }) => e.id)).toEqual([late.body.id]);
      expect((await ny.request('GET', `${ARCHIVE}?start_date=2030-06-02&end_date=2030-06-02`)).body.total).toBe(0);
    } finally {
      await ny.close();
    }
  });
});

describe('filters', () => {
  it('search matches every word in the title or description', async () => {
    for (let i = 0; i < 2; i++) {
      await upcoming(24, { title: 'foo' });
      await upcoming(24, { title: 'foo bar' });
      await upcoming(24, { title: 'Other', description: 'only bar here' });
    }
    expect((await app.request('GET', `${ARCHIVE}?search=foo`)).body.total).toBe(4);
    expect((await app.request('GET', `${ARCHIVE}?search=bar`)).body.total).toBe(4);
    expect((await app.request('GET', `${ARCHIVE}?search=foo%20bar`)).body.total).toBe(2);
    expect((await app.request('GET', `${ARCHIVE}?search=`)).status).toBe(400);
  });

  it('categories and tags by slug or id, OR within a list; unknown terms are 400', async () => {
    const a = await upcoming(24, { categories: ['cat-a'], tags: ['tag-a'] });
    const b = await upcoming(25, { categories: ['cat-b'] });
    await upcoming(26, { categories: ['cat-c'] });
    const catB = b.categories[0].id;
    expect(ids(await app.request('GET', `${ARCHIVE}?categories=cat-a`))).toEqual([a.id]);
    expect(ids(await app.request('GET', `${ARCHIVE}?categories[]=cat-a&categories[]=cat-b`))).toEqual([a.id, b.id]);
    expect(ids(await app.request('GET', `${ARCHIVE}?categories=${a.categories[0].id},${catB}`))).toEqual([a.id, b.id]);
    expect(ids(await app.request('GET', `${ARCHIVE}?tags=tag-a`))).toEqual([a.id]);
    const unknown = await app.request('GET', `${ARCHIVE}?categories[]=no-such-cat`);
    expect(unknown.status).toBe(400);
    expect(unknown.body.data.params).toHaveProperty('categories');
    // A tag id is not a category.
    expect((await app.request('GET', `${ARCHIVE}?categories=${a.tags[0].id}`)).status).toBe(400);
    const empty = await app.admin('POST', '/vendor/events/v1/categories', { body: { name: 'Empty one' } });
    const none = await app.request('GET', `${ARCHIVE}?categories=${empty.body.slug}`);
    expect(none.status).toBe(200);
    expect(none.body.total).toBe(0);
  });

  it('featured true, false, or both', async () => {
    const f = await upcoming(24, { featured: true });
    const n = await upcoming(25);
    expect(ids(await app.request('GET', `${ARCHIVE}?featured=true`))).toEqual([f.id]);
    expect(ids(await app.request('GET', `${ARCHIVE}?featured=false`))).toEqual([n.id]);
    expect(ids(await app.request('GET', ARCHIVE))).toEqual([f.id, n.id]);
    expect((await app.request('GET', `${ARCHIVE}?featured=1`)).body.rest_url).toContain('featured=1');
  });

  it('venue and organizer: existing ids only, OR between them', async () => {
    const v1 = (await app.admin('POST', '/vendor/events/v1/venues', { body: { venue: 'V one' } })).body.id;
    const v2 = (await app.admin('POST', '/vendor/events/v1/venues', { body: { venue: 'V two' } })).body.id;
    const o1 = (await app.admin('POST', '/vendor/events/v1/organizers', { body: { organizer: 'O one' } })).body.id;
    const a = await upcoming(24, { venue: v1, organizer: [o1] });
    const b = await upcoming(25, { venue: v2 });
    expect(ids(await app.request('GET', `${ARCHIVE}?venue=${v1}`))).toEqual([a.id]);
    expect(ids(await app.request('GET', `${ARCHIVE}?venue[]=${v1}&venue[]=${v2}`))).toEqual([a.id, b.id]);
    const csv = await app.request('GET', `${ARCHIVE}?venue=${v1},${v2}`);
    expect(ids(csv)).toEqual([a.id, b.id]);
    expect(csv.body.rest_url).toContain(`venue=${v1}%2C${v2}`);
    expect(ids(await app.request('GET', `${ARCHIVE}?organizer=${o1}`))).toEqual([a.id]);
    for (const bad of ['foo', '999999', String(o1)]) expect((await app.request('GET', `${ARCHIVE}?venue=${bad}`)).status).toBe(400);
    expect((await app.request('GET', `${ARCHIVE}?organizer=${v1}`)).status).toBe(400);
  });

  it('status: guests only publish; editors any registered status, default any', async () => {
    const pub = await upcoming(24);
    const draft = await upcoming(25, { status: 'draft' });
    const pending = await upcoming(26, { status: 'pending' });
    expect(ids(await app.request('GET', ARCHIVE))).toEqual([pub.id]);
    expect(ids(await app.request('GET', `${ARCHIVE}?status=publish`))).toEqual([pub.id]);
    const guestDraft = await app.request('GET', `${ARCHIVE}?status=publish,%20draft`);
    expect(guestDraft.status).toBe(400);
    expect(guestDraft.body.data.params).toHaveProperty('status');
    expect(ids(await users.as('editor', 'GET', ARCHIVE))).toEqual([pub.id, draft.id, pending.id]);
    expect(ids(await users.as('editor', 'GET', `${ARCHIVE}?status=publish,%20draft`))).toEqual([pub.id, draft.id]);
    expect(ids(await users.as('editor', 'GET', `${ARCHIVE}?status[]=publish&status[]=draft&status[]=pending`))).toEqual([pub.id, draft.id, pending.id]);
    for (const bad of ['foo', 'foo,%20bar', 'foo,%20bar,%20publish']) expect((await users.as('editor', 'GET', `${ARCHIVE}?status=${bad}`)).status).toBe(400);
  });

  it('leaves out events hidden from listings', async () => {
    const shown = await upcoming(24);
    await upcoming(25, { hide_from_listings: true });
    expect(ids(await app.request('GET', ARCHIVE))).toEqual([shown.id]);
  });

  it('include lists only those ids and drops the date window; bad ids are 400', async () => {
    const past = await event({ start_date: '2015-05-05 10:00:00', end_date: '2015-05-05 11:00:00' });
    const next = await upcoming(24);
    await upcoming(25);
    expect(ids(await app.request('GET', `${ARCHIVE}?include=${past.id},${next.id}`))).toEqual([past.id, next.id]);
    expect(ids(await app.request('GET', `${ARCHIVE}?include[]=${next.id}&include[]=${past.id}`))).toEqual([past.id, next.id]);
    expect((await app.request('GET', `${ARCHIVE}?include=foo-bar,23,89`)).status).toBe(400);
  });

  it('post_parent must be an existing event', async () => {
    const parent = await upcoming(24);
    const c1 = await upcoming(25);
    const c2 = await upcoming(26);
    await store.collection('posts').updateMany({ id: { $in: [c1.id, c2.id] } }, { $set: { parent: parent.id } });
    const res = await app.request('GET', `${ARCHIVE}?post_parent=${parent.id}`);
    expect(res.body.total).toBe(2);
    expect(ids(res)).toEqual([c1.id, c2.id]);
    expect((await app.request('GET', `${ARCHIVE}?post_parent=foo-bar`)).status).toBe(400);
    const missing = await app.request('GET', `${ARCHIVE}?post_parent=999999`);
    expect(missing.status).toBe(400);
    expect(missing.body.data.params).toEqual({ post_parent: 'Invalid parameter.' });
    expect(missing.body.data.details).toEqual({});
    const post = await app.admin('POST', '/cms/v2/posts', { body: { title: 'Not an event', status: 'publish' } });
    const notEvent = await app.request('GET', `${ARCHIVE}?post_parent=${post.body.id}`);
    expect(notEvent.status).toBe(400);
    expect(notEvent.body.data.details).toEqual({});
  });

  it('as the free reference: ticketed=true is refused, ticketed=false and the geolocation filters are accepted and ignored', async () => {
    const a = await upcoming(24);
    const b = await upcoming(48);
    const ticketed = await app.request('GET', `${ARCHIVE}?ticketed=true`);
    expect(ticketed.status).toBe(400);
    expect(ticketed.body.code).toBe('rest_invalid_param');
    expect(ticketed.body.data.details.ticketed.code).toBe('event-tickets-not-active');
    for (const q of ['ticketed=false', 'geoloc=true', 'geoloc_lat=45.1&geoloc_lng=7.6', 'geoloc=false&ticketed=0']) {
      const res = await app.request('GET', `${ARCHIVE}?${q}`);
      expect(res.status).toBe(200);
      expect(res.body.events.map((e: { id: number }) => e.id)).toEqual([a.id, b.id]);
    }
    // Still typed: a value that is not a number or a boolean is a 400.
    expect((await app.request('GET', `${ARCHIVE}?geoloc_lat=north`)).status).toBe(400);
    expect((await app.request('GET', `${ARCHIVE}?geoloc=maybe`)).status).toBe(400);
  });

  it('lists a password-protected event with its protected fields blanked', async () => {
    const e = await upcoming(24, { cost: '$5', featured: true, categories: ['secret'] });
    await app.admin('POST', `${ARCHIVE}/${e.id}`, { body: { password: 'pw' } });
    const [listed] = (await app.request('GET', ARCHIVE)).body.events;
    expect(listed).toMatchObject({
      id: e.id,
      title: 'Event',
      description: '',
      excerpt: '',
      image: false,
      all_day: null,
      cost: '',
      website: '',
      show_map: null,
      featured: null,
      categories: [],
      venue: [],
      organizer: [],
    });
    expect(listed.cost_details).toEqual({ currency_symbol: '', currency_position: '', currency_code: '', values: [] });
    expect(listed.start_date).toBe(e.start_date);
  });
});
