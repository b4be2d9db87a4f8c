/**
 * iCalendar exports over HTTP: the archive with its filters, one event, a venue's and an organizer's
 * events, and the front-end feed `/events/?ical=1`; every feed is read back with node-ical.
 */
import { openStore } from '#libs/store/index';
import type { Store } from '#libs/store/types';
import { startTestApp, type TestApp } from './support/app';

const nodeIcal = require('node-ical') as { sync: { parseICS(text: string): Record<string, any> } };

const V1 = '/vendor/events/v1';
/** Every test names its window, so the answers do not depend on today's date. */
const YEAR = 'start_date=2030-01-01&end_date=2030-12-31';

let app: TestApp;
let store: Store;
const ids: Record<string, number> = {};
const records: Record<string, any> = {};
let venueId: number;
let organizerId: number;

const vevents = (text: string) => Object.values(nodeIcal.sync.parseICS(text)).filter((c: any) => c.type === 'VEVENT') as any[];
const uids = (text: string) =>
  vevents(text)
    .map((e) => e.uid as string)
    .sort();
const uidOf = (key: string) => `event-${ids[key]}@example.test`;
const iso = (utc: string) => `${utc.replace(' ', 'T')}.000Z`;
const unfold = (text: string) => text.replace(/\r\n[ \t]/g, '');
/** A conditional GET as a calendar program sends it (fetch would add Cache-Control: no-cache, which asks for a full answer). */
const ifNoneMatch = (etag: string | null) => ({ 'If-None-Match': etag!, 'Cache-Control': 'max-age=0' });

async function event(key: string, body: Record<string, unknown>) {
  const res = await app.admin('POST', `${V1}/events`, { body: { title: `Event ${key}`, ...body } });
  expect(res.status).toBe(201);
  ids[key] = res.body.id;
  records[key] = res.body;
}

beforeAll(async () => {
  app = await startTestApp({ SITE_TIMEZONE: 'America/New_York', SITE_NAME: 'Calendar Site' });
  store = await openStore({ dataDir: app.config.DATA_DIR });
  const cat = await app.admin('POST', `${V1}/categories`, { body: { name: 'Concerts', slug: 'concerts' } });
  const other = await app.admin('POST', `${V1}/categories`, { body: { name: 'Talks', slug: 'talks' } });
  venueId = (
    await app.admin('POST', `${V1}/venues`, { body: { venue: 'Town Hall', address: '1 Main St', city: 'Springfield', zip: '62701', country: 'United States' } })
  ).body.id;
  organizerId = (await app.admin('POST', `${V1}/organizers`, { body: { organizer: 'Smith, Jane', email: 'jane@example.test' } })).body.id;

  await event('ny', {
    start_date: '2030-07-01 10:00:00',
    end_date: '2030-07-01 12:30:00',
    timezone: 'America/New_York',
    description: 'Summer, in New York; with \\ specials\nand a second line',
  });
  await event('berlin', { start_date: '2030-01-15 19:00:00', end_date: '2030-01-15 21:00:00', timezone: 'Europe/Berlin', categories: [other.body.id] });
  await event('day', { start_date: '2030-05-01 00:00:00', end_date: '2030-05-01 23:59:59', all_day: true });
  await event('days', { start_date: '2030-05-10', end_date: '2030-05-12', all_day: true });
  await event('linked', {
    start_date: '2030-06-01 09:00:00',
    end_date: '2030-06-01 10:00:00',
    timezone: 'Asia/Tokyo',
    venue: venueId,
    organizer: [organizerId],
    categories: [cat.body.id],
  });
  await event('draft', { start_date: '2030-06-02 09:00:00', end_date: '2030-06-02 10:00:00', status: 'draft' });
  await event('locked', { start_date: '2030-06-03 09:00:00', end_date: '2030-06-03 10:00:00', description: 'The secret plan' });
  expect((await app.admin('POST', `${V1}/events/${ids.locked}`, { body: { password: 'secret' } })).status).toBe(200);
});

afterAll(async () => {
  await store.close();
  await app.close();
});

describe('GET vendor/events/v1/events/ical', () => {
  it('answers text/calendar, inline with a file name, with validators', async () => {
    const res = await app.request('GET', `${V1}/events/ical?${YEAR}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/calendar; charset=utf-8');
    expect(res.headers.get('content-disposition')).toBe('inline; filename="calendar-site-events.ics"');
    expect(res.headers.get('etag')).toMatch(/^W\/".+"$/);
    expect(Date.parse(res.headers.get('last-modified')!)).not.toBeNaN();
    const text = unfold(res.text);
    for (const line of [
      'VERSION:2.0',
      'CALSCALE:GREGORIAN',
      'METHOD:PUBLISH',
      'X-WR-CALNAME:Calendar Site',
      'X-WR-TIMEZONE:America/New_York',
      'REFRESH-INTERVAL;VALUE=DURATION:PT1H',
      'X-PUBLISHED-TTL:PT1H',
    ]) {
      expect(text.split('\r\n')).toContain(line);
    }
  });

  it('shows guests the published events only, each instant as the API gives it', async () => {
    const res = await app.request('GET', `${V1}/events/ical?${YEAR}`);
    expect(uids(res.text)).toEqual(['ny', 'berlin', 'day', 'days', 'linked', 'locked'].map(uidOf).sort());
    const byUid = Object.fromEntries(vevents(res.text).map((e) => [e.uid, e]));
    for (const key of ['ny', 'berlin', 'linked', 'locked']) {
      expect(byUid[uidOf(key)].start.toISOString()).toBe(iso(records[key].utc_start_date));
      expect(byUid[uidOf(key)].end.toISOString()).toBe(iso(records[key].utc_end_date));
      expect(byUid[uidOf(key)].summary).toBe(`Event ${key}`);
    }
    const text = unfold(res.text);
    expect(text).toContain('DTSTART;TZID=America/New_York:20300701T100000');
    expect(text).toContain('DTSTART;TZID=Europe/Berlin:20300115T190000');
    expect(text).toContain('DTSTART;TZID=Asia/Tokyo:20300601T090000');
    expect(
      text
        .match(/BEGIN:VTIMEZONE\r\nTZID:[^\r]+/g)!
        .map((l) => l.split('TZID:')[1])
        .sort(),
    ).toEqual(['America/New_York', 'Asia/Tokyo', 'Europe/Berlin']);
    // All-day events are dates; the end is the day after the last day.
    expect(byUid[uidOf('day')].start.dateOnly).toBe(true);
    expect(text).toContain('DTSTART;VALUE=DATE:20300501\r\nDTEND;VALUE=DATE:20300502');
    expect(text).toContain('DTSTART;VALUE=DATE:20300510\r\nDTEND;VALUE=DATE:20300513');
  });

  it('writes the description as escaped plain text, the linked records and the links', async () => {
    const res = await app.request('GET', `${V1}/events/ical?${YEAR}`);
    const byUid = Object.fromEntries(vevents(res.text).map((e) => [e.uid, e]));
    expect(byUid[uidOf('ny')].description).toBe('Summer, in New York; with \\ specials\nand a second line');
    expect(unfold(res.text)).toContain('DESCRIPTION:Summer\\, in New York\\; with \\\\ specials\\nand a second line\r\n');
    const linked = byUid[uidOf('linked')];
    expect(linked.location).toBe('Town Hall, 1 Main St, Springfield, 62701, United States');
    expect(linked.organizer).toEqual({ params: { CN: 'Smith, Jane' }, val: 'mailto:jane@example.test' });
    expect(linked.categories).toEqual(['Concerts']);
    expect(linked.url).toBe(records.linked.url);
    expect(byUid[uidOf('berlin')].categories).toEqual(['Talks']);
    expect(linked.created.toISOString()).toBe(iso(records.linked.date_utc));
    expect(linked.lastmodified.toISOString()).toBe(iso(records.linked.modified_utc));
    for (const line of res.text.split('\r\n')) expect(Buffer.byteLength(line)).toBeLessThanOrEqual(75);
  });

  it('keeps a password-protected event to its title and times', async () => {
    const res = await app.request('GET', `${V1}/events/ical?${YEAR}`);
    const locked = vevents(res.text).find((e) => e.uid === uidOf('locked'));
    expect(locked.summary).toBe('Event locked');
    expect(locked.description).toBeUndefined();
    expect(res.text).not.toContain('secret plan');
  });

  it('keeps UIDs and the ETag from one export to the next, and answers a matching conditional GET with 304', async () => {
    const a = await app.request('GET', `${V1}/events/ical?${YEAR}`);
    // The next export is made in a later second of the wall clock (the feed's stamps have second resolution).
    const second = Math.floor(Date.now() / 1000);
    while (Math.floor(Date.now() / 1000) === second) await new Promise((r) => setTimeout(r, 20));
    const b = await app.request('GET', `${V1}/events/ical?${YEAR}`);
    expect(uids(b.text)).toEqual(uids(a.text));
    expect(b.headers.get('etag')).toBe(a.headers.get('etag'));
    const again = await app.request('GET', `${V1}/events/ical?${YEAR}`, { headers: ifNoneMatch(a.headers.get('etag')) });
    expect(again.status).toBe(304);
    expect(again.text).toBe('');
  });

  it('uses the UID an event was imported with', async () => {
    await store.collection('posts').updateOne({ id: ids.berlin }, { $set: { 'meta._uid': 'imported-42@feed.example' } });
    const res = await app.request('GET', `${V1}/events/ical?${YEAR}`);
    expect(uids(res.text)).toContain('imported-42@feed.example');
    expect(uids(res.text)).not.toContain(uidOf('berlin'));
    await store.collection('posts').updateOne({ id: ids.berlin }, { $unset: { 'meta._uid': '' } });
  });

  it('takes every event that overlaps the range, those straddling its edges too', async () => {
    const get = async (q: string) => uids((await app.request('GET', `${V1}/events/ical?${q}`)).text);
    // 'days' runs 10-12 May: a range of its middle day, or one overlapping either edge, holds it.
    expect(await get('start_date=2030-05-11&end_date=2030-05-11')).toEqual([uidOf('days')]);
    expect(await get('start_date=2030-05-12&end_date=2030-05-20')).toEqual([uidOf('days')]);
    expect(await get('start_date=2030-05-02&end_date=2030-05-10')).toEqual([uidOf('days')]);
    expect(await get('start_date=2030-05-13&end_date=2030-05-20')).toEqual([]);
  });

  it('filters as the archive does', async () => {
    const get = async (q: string) => uids((await app.request('GET', `${V1}/events/ical?${q}`)).text);
    expect(await get('start_date=2030-05-01&end_date=2030-05-20')).toEqual(['day', 'days'].map(uidOf).sort());
    // Dates are the site's (New York): 09:00 on 1 June in Tokyo is on 31 May there.
    expect(await get('start_date=2030-05-31&end_date=2030-05-31')).toEqual([uidOf('linked')]);
    expect(await get(`${YEAR}&categories[]=concerts`)).toEqual([uidOf('linked')]);
    expect(await get(`${YEAR}&categories=talks`)).toEqual([uidOf('berlin')]);
    expect(await get(`${YEAR}&venue=${venueId}`)).toEqual([uidOf('linked')]);
    expect(await get(`${YEAR}&organizer=${organizerId}`)).toEqual([uidOf('linked')]);
    expect(await get(`${YEAR}&search=Berlin`)).toEqual([uidOf('berlin')]);
    const bad = await app.request('GET', `${V1}/events/ical?categories=nope`);
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ code: 'rest_invalid_param', data: { status: 400, params: { categories: expect.any(String) } } });
    expect((await app.request('GET', `${V1}/events/ical?start_date=not-a-date`)).body.code).toBe('rest_invalid_param');
  });

  it('shows drafts to those who may see them', async () => {
    const res = await app.admin('GET', `${V1}/events/ical?${YEAR}&status=draft`);
    expect(uids(res.text)).toEqual([uidOf('draft')]);
    // A guest asking for drafts is refused as the archive refuses it.
    const guest = await app.request('GET', `${V1}/events/ical?${YEAR}&status=draft`);
    const list = await app.request('GET', `${V1}/events?${YEAR}&status=draft`);
    expect(guest.status).toBe(list.status);
    expect(guest.body).toEqual(list.body);
  });
});

describe('single, venue and organizer exports', () => {
  it('exports one event, without refresh hints', async () => {
    const res = await app.request('GET', `${V1}/events/${ids.ny}/ical`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-disposition')).toBe(`inline; filename="${records.ny.slug}.ics"`);
    expect(uids(res.text)).toEqual([uidOf('ny')]);
    expect(res.text).not.toContain('REFRESH-INTERVAL');
    expect(res.text.match(/BEGIN:VTIMEZONE/g)).toHaveLength(1);
  });

  it('refuses what the single GET refuses, and unlocks a protected event with its password', async () => {
    expect(await app.request('GET', `${V1}/events/${ids.draft}/ical`)).toMatchObject({ status: 403, body: { code: 'event-not-accessible' } });
    expect((await app.admin('GET', `${V1}/events/${ids.draft}/ical`)).status).toBe(200);
    expect(await app.request('GET', `${V1}/events/999999/ical`)).toMatchObject({ status: 404, body: { code: 'rest-event-not-found' } });
    expect(await app.request('GET', `${V1}/events/${venueId}/ical`)).toMatchObject({ status: 400, body: { code: 'rest-invalid-event-id' } });
    const locked = await app.request('GET', `${V1}/events/${ids.locked}/ical`);
    expect(vevents(locked.text)[0].description).toBeUndefined();
    const open = await app.request('GET', `${V1}/events/${ids.locked}/ical?password=secret`);
    expect(vevents(open.text)[0].description).toBe('The secret plan');
    // A protected all-day event is still a day.
    const day = await app.admin('POST', `${V1}/events`, { body: { title: 'Locked day', start_date: '2031-02-03', end_date: '2031-02-03', all_day: true } });
    await app.admin('POST', `${V1}/events/${day.body.id}`, { body: { password: 'secret' } });
    expect(unfold((await app.request('GET', `${V1}/events/${day.body.id}/ical`)).text)).toContain('DTSTART;VALUE=DATE:20310203\r\nDTEND;VALUE=DATE:20310204');
  });

  it("exports a venue's and an organizer's events", async () => {
    const venue = await app.request('GET', `${V1}/venues/${venueId}/ical?${YEAR}`);
    expect(venue.status).toBe(200);
    expect(venue.headers.get('content-disposition')).toMatch(/^inline; filename="venue-town-hall-events\.ics"$/);
    expect(uids(venue.text)).toEqual([uidOf('linked')]);
    const organizer = await app.request('GET', `${V1}/organizers/${organizerId}/ical?${YEAR}`);
    expect(uids(organizer.text)).toEqual([uidOf('linked')]);
    expect(uids((await app.request('GET', `${V1}/venues/${venueId}/ical?start_date=2030-07-01&end_date=2030-12-31`)).text)).toEqual([]);
    expect(await app.request('GET', `${V1}/venues/${organizerId}/ical`)).toMatchObject({ status: 400, body: { code: 'rest_invalid_param' } });
    expect(await app.request('GET', `${V1}/organizers/999999/ical`)).toMatchObject({ status: 400, body: { code: 'rest_invalid_param' } });
  });
});

describe('front-end feed /events/?ical=1', () => {
  it('serves the archive export with the query as filters', async () => {
    const res = await app.request('GET', `${app.url}/events/?ical=1&${YEAR}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/calendar; charset=utf-8');
    expect(res.headers.get('content-disposition')).toMatch(/^inline; filename=".+\.ics"$/);
    expect(uids(res.text)).toEqual(uids((await app.request('GET', `${V1}/events/ical?${YEAR}`)).text));
    const filtered = await app.request('GET', `${app.url}/events/?ical=1&${YEAR}&categories=concerts`);
    expect(uids(filtered.text)).toEqual([uidOf('linked')]);
    const again = await app.request('GET', `${app.url}/events/?ical=1&${YEAR}`, { headers: ifNoneMatch(res.headers.get('etag')) });
    expect(again.status).toBe(304);
    const head = await app.request('HEAD', `${app.url}/events/?ical=1&${YEAR}`);
    expect(head.status).toBe(200);
    expect(head.text).toBe('');
  });

  it('is public: credentials do not widen it', async () => {
    const res = await app.admin('GET', `${app.url}/events/?ical=1&${YEAR}&status=draft`);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'rest_invalid_param', data: { params: { status: expect.any(String) } } });
  });

  it('leaves every other /events/ request alone', async () => {
    expect((await app.request('GET', `${app.url}/events/`)).headers.get('content-type')).not.toMatch(/text\/calendar/);
    expect((await app.request('GET', `${app.url}/events/?ical=0`)).headers.get('content-type')).not.toMatch(/text\/calendar/);
    expect((await app.request('POST', `${app.url}/events/?ical=1`)).headers.get('content-type')).not.toMatch(/text\/calendar/);
  });

  it('answers a bad filter with the error envelope', async () => {
    const res = await app.request('GET', `${app.url}/events/?ical=1&categories=nope`);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'rest_invalid_param', data: { status: 400 } });
  });
});

describe('indexes', () => {
  it('leave the export routes out of the site index, the namespace index and the OpenAPI document', async () => {
    const site = await app.request('GET', '/');
    const ns = await app.request('GET', V1);
    const doc = await app.request('GET', `${V1}/doc`);
    for (const body of [site.body.routes, ns.body.routes]) expect(Object.keys(body).filter((r) => r.includes('ical'))).toEqual([]);
    expect(Object.keys(doc.body.paths).filter((p) => p.includes('ical'))).toEqual([]);
    expect(site.body.namespaces).not.toContain('vendor/events-ical/v1');
  });
});
