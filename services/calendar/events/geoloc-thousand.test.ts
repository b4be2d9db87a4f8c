/**
 * The geofence filter against 1,000 venues around Berlin, Paris and New York, in both stores. Each venue
 * is placed at a chosen distance and bearing from its city's centre with the spherical destination-point
 * formula (Earth radius 6371 km), so the expected answer is known without the service's own distance
 * code: the events of the venues placed within 25 miles (40.2336 km), nearest first. No venue is placed
 * within 0.5 km of the fence, so rounding cannot move one across it. The records are written straight
 * to the store (as the bench seeds them), then read through vendor/events/v1.
 */
import { DateTime } from 'luxon';
import { EVENT_TYPE, VENUE_TYPE, eventMetaChanges, timesToMeta, venueIndex } from '#libs/calendar/meta';
import { newCalendarRecord } from '#libs/calendar/save';
import type { PostDoc } from '#libs/posts/types';
import { openStore } from '#libs/store/index';
import { startTestApp, type TestApp } from '../../../test/support/app';

const R = 6371;
const FENCE_KM = 25 * 1.609344;
const CITIES = [
  { name: 'Berlin', lat: 52.52, lng: 13.405 },
  { name: 'Paris', lat: 48.8566, lng: 2.3522 },
  { name: 'New York', lat: 40.7128, lng: -74.006 },
];
const PER_CITY = [334, 333, 333];

/** The point `km` from `from` along the initial bearing `deg` (great circle). */
function destination(from: { lat: number; lng: number }, km: number, deg: number): { lat: number; lng: number } {
  const rad = Math.PI / 180;
  const d = km / R;
  const [φ1, λ1, θ] = [from.lat * rad, from.lng * rad, deg * rad];
  const φ2 = Math.asin(Math.sin(φ1) * Math.cos(d) + Math.cos(φ1) * Math.sin(d) * Math.cos(θ));
  const λ2 = λ1 + Math.atan2(Math.sin(θ) * Math.sin(d) * Math.cos(φ1), Math.cos(d) - Math.sin(φ1) * Math.sin(φ2));
  return { lat: Number((φ2 / rad).toFixed(7)), lng: Number((λ2 / rad).toFixed(7)) };
}

interface Placed {
  city: number;
  km: number;
  title: string;
}

/** Distances from 0.25 to 70 km, never within 0.5 km of the fence; bearings all round. */
function placements(): Placed[] {
  const out: Placed[] = [];
  CITIES.forEach((_, c) => {
    for (let i = 0; i < PER_CITY[c]; i++) {
      let km = 0.25 + ((i * 0.6180339887) % 1) * 70;
      if (Math.abs(km - FENCE_KM) < 0.5) km += 1;
      out.push({ city: c, km: Number(km.toFixed(4)), title: `c${c}-v${i}` });
    }
  });
  return out;
}

const STORES: Array<[string, () => Record<string, string | undefined>]> = [
  ['SQLite', () => ({})],
  ['MongoDB', () => ({ MONGO_URL: process.env.TEST_MONGO_URL, MONGO_DB: `geo1000_${process.pid}_${Date.now()}` })],
];

describe.each(STORES)('1,000 venues around three cities, %s', (_kind, storeEnv) => {
  let app: TestApp;
  const placed = placements();

  beforeAll(async () => {
    const env = storeEnv();
    app = await startTestApp({ EDITION: 'extended', ...env });
    const store = await openStore({ dataDir: app.config.DATA_DIR, ...(env.MONGO_URL ? { mongoUrl: env.MONGO_URL, mongoDb: env.MONGO_DB } : {}) });
    try {
      const site = { home: 'http://example.test', timezone: 'UTC' };
      const at = new Date(Date.UTC(2026, 0, 1));
      const first = await store.nextId('posts', placed.length * 2);
      const start = DateTime.utc().plus({ days: 3 }).startOf('hour');
      const docs: PostDoc[] = [];
      placed.forEach((p, i) => {
        const point = destination(CITIES[p.city], p.km, (i * 137.508) % 360);
        const meta = { _VenueCity: CITIES[p.city].name, _VenueLat: String(point.lat), _VenueLng: String(point.lng) };
        docs.push(
          newCalendarRecord(site, at, {
            id: first + i,
            type: VENUE_TYPE,
            status: 'publish',
            slug: `v-${p.title}`,
            title: `V ${p.title}`,
            author: 1,
            meta,
            ...venueIndex(meta),
          }),
        );
        const times = timesToMeta({ start: start.plus({ minutes: i }), end: start.plus({ minutes: i + 60 }), timezone: 'UTC', allDay: false });
        docs.push(
          newCalendarRecord(site, at, {
            id: first + placed.length + i,
            type: EVENT_TYPE,
            status: 'publish',
            slug: `e-${p.title}`,
            title: p.title,
            author: 1,
            ...eventMetaChanges(null, { ...times, _EventVenueID: [first + i] }, 'UTC'),
          }),
        );
      });
      await store.collection('posts').insertMany(docs);
    } finally {
      await store.close();
    }
  }, 120_000);
  afterAll(async () => {
    await app?.close();
  });

  it.each(CITIES.map((c, i) => [c.name, i] as const))('around %s: the venues placed inside the fence, nearest first, page after page', async (_name, c) => {
    const expected = placed
      .filter((p) => p.city === c && p.km < FENCE_KM)
      .sort((a, b) => a.km - b.km)
      .map((p) => p.title);
    expect(expected.length).toBeGreaterThan(100);
    const got: string[] = [];
    for (let page = 1; page <= 5; page++) {
      const res = await app.request('GET', `/vendor/events/v1/events?per_page=50&page=${page}&geoloc_lat=${CITIES[c].lat}&geoloc_lng=${CITIES[c].lng}`);
      if (res.status === 400 && res.body.code === 'rest_event_archive_page_out_of_range') break;
      expect(res.status).toBe(200);
      expect(res.headers.get('x-tec-total')).toBe(String(expected.length));
      got.push(...(res.body.events as Array<{ title: string }>).map((e) => e.title));
      if (!res.body.next_rest_url) break;
    }
    expect(got).toEqual(expected);
  });
});
