/**
 * The geoloc filters of vendor/events/v1's archive in the extended edition, in both stores, against
 * venues around Berlin, Paris and New York whose distances from each city's centre were computed by
 * hand (haversine, Earth radius 6371 km), written next to each venue. The default geofence is 25 miles
 * (40.23 km).
 */
import { DateTime } from 'luxon';
import { startTestApp, type TestApp } from '../../../test/support/app';

const EVENTS = '/vendor/events/v1/events';
const VENUES = '/vendor/events/v1/venues';

const BERLIN = { lat: 52.52, lng: 13.405 };
const PARIS = { lat: 48.8566, lng: 2.3522 };
const NEW_YORK = { lat: 40.7128, lng: -74.006 };

/** Name, coordinates, and the distance from its city's centre in km. */
const PLACES: Array<[string, number | null, number | null]> = [
  ['B0', 52.52, 13.405], // Berlin 0
  ['B1', 52.6, 13.405], // Berlin 8.90
  ['B2', 52.52, 13.9], // Berlin 33.49
  ['B3', 52.9, 13.405], // Berlin 42.25: outside, and outside the bounding box
  ['B4', 52.8, 13.8], // Berlin 40.98: inside the bounding box, outside the fence
  ['P1', 48.86, 2.35], // Paris 0.41
  ['P2', 48.9, 2.5], // Paris 11.84
  ['P3', 49.1, 2.35], // Paris 27.07
  ['N1', 40.75, -73.99], // New York 4.35
  ['N2', 40.65, -74.1], // New York 10.56
  ['N3', 41.1, -74.0], // New York 43.06: outside
  ['X', null, null], // no coordinates
];

/** Events in start order: title, venue (or none), featured. B0 has two, so equal distances show the archive's order. */
const EVENT_LIST: Array<[string, string | null, boolean?]> = [
  ['e-B2', 'B2'],
  ['e-B0-late', 'B0'],
  ['e-N1', 'N1', true],
  ['e-P3', 'P3'],
  ['e-B1', 'B1', true],
  ['e-B3', 'B3'],
  ['e-B4', 'B4'],
  ['e-P1', 'P1'],
  ['e-X', 'X'],
  ['e-none', null],
  ['e-N2', 'N2'],
  ['e-N3', 'N3'],
  ['e-P2', 'P2'],
];
// B0's second event starts first of all.
const FIRST: [string, string] = ['e-B0-early', 'B0'];

async function seed(app: TestApp): Promise<void> {
  const ids = new Map<string, number>();
  for (const [name, lat, lng] of PLACES) {
    const res = await app.admin('POST', VENUES, { body: { venue: `Venue ${name}`, ...(lat === null ? {} : { geo_lat: lat, geo_lng: lng }) } });
    if (res.status !== 201) throw new Error(res.text);
    ids.set(name, res.body.id);
  }
  const base = DateTime.now().plus({ days: 2 }).startOf('hour');
  const list: Array<[string, string | null, boolean?]> = [FIRST, ...EVENT_LIST];
  for (const [i, [title, venue, featured]] of list.entries()) {
    const at = base.plus({ hours: i });
    const res = await app.admin('POST', EVENTS, {
      body: {
        title,
        start_date: at.toFormat('yyyy-LL-dd HH:mm:ss'),
        end_date: at.plus({ minutes: 30 }).toFormat('yyyy-LL-dd HH:mm:ss'),
        ...(venue ? { venue: ids.get(venue) } : {}),
        ...(featured ? { featured: true } : {}),
      },
    });
    if (res.status !== 201) throw new Error(res.text);
  }
}

const titles = (res: { body: any }) => (res.body.events as Array<{ title: string }>).map((e) => e.title);
const near = (p: { lat: number; lng: number }, extra = '') => `${EVENTS}?per_page=50&geoloc_lat=${p.lat}&geoloc_lng=${p.lng}${extra}`;

const STORES: Array<[string, () => Record<string, string | undefined>]> = [
  ['SQLite', () => ({})],
  ['MongoDB', () => ({ MONGO_URL: process.env.TEST_MONGO_URL, MONGO_DB: `geoloc_${process.pid}_${Date.now()}` })],
];

describe.each(STORES)('extended edition, %s', (_kind, storeEnv) => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp({ EDITION: 'extended', ...storeEnv() });
    await seed(app);
  });
  afterAll(async () => {
    await app.close();
  });

  it('geoloc=true keeps the events whose venue has coordinates, in start order', async () => {
    const res = await app.request('GET', `${EVENTS}?per_page=50&geoloc=true`);
    expect(res.status).toBe(200);
    expect(titles(res)).toEqual(['e-B0-early', 'e-B2', 'e-B0-late', 'e-N1', 'e-P3', 'e-B1', 'e-B3', 'e-B4', 'e-P1', 'e-N2', 'e-N3', 'e-P2']);
    expect(titles(await app.request('GET', `${EVENTS}?per_page=50&geoloc=false`))).toHaveLength(14);
  });

  it('geoloc_lat/lng keep the events within 25 miles, nearest first, equal distances in start order', async () => {
    expect(titles(await app.request('GET', near(BERLIN)))).toEqual(['e-B0-early', 'e-B0-late', 'e-B1', 'e-B2']);
    expect(titles(await app.request('GET', near(PARIS)))).toEqual(['e-P1', 'e-P2', 'e-P3']);
    expect(titles(await app.request('GET', near(NEW_YORK)))).toEqual(['e-N1', 'e-N2']);
    // Nothing within reach of the Atlantic.
    const ocean = await app.request('GET', near({ lat: 45, lng: -30 }));
    expect(ocean.status).toBe(200);
    expect(ocean.body).toMatchObject({ events: [], total: 0, total_pages: 0 });
  });

  it('combine with the other filters and with paging, the totals counting every kept event', async () => {
    expect(titles(await app.request('GET', near(BERLIN, '&featured=true')))).toEqual(['e-B1']);
    expect(titles(await app.request('GET', near(NEW_YORK, '&featured=true')))).toEqual(['e-N1']);
    expect(titles(await app.request('GET', near(BERLIN, '&search=late')))).toEqual(['e-B0-late']);
    const page2 = await app.request('GET', `${EVENTS}?per_page=3&page=2&geoloc_lat=${BERLIN.lat}&geoloc_lng=${BERLIN.lng}`);
    expect(titles(page2)).toEqual(['e-B2']);
    expect(page2.headers.get('x-tec-total')).toBe('4');
    expect(page2.headers.get('x-tec-totalpages')).toBe('2');
    expect(page2.body.previous_rest_url).toBeDefined();
    const page1 = await app.request('GET', `${EVENTS}?per_page=3&geoloc_lat=${BERLIN.lat}&geoloc_lng=${BERLIN.lng}`);
    expect(titles(page1)).toEqual(['e-B0-early', 'e-B0-late', 'e-B1']);
    expect(page1.body.next_rest_url).toBeDefined();
  });

  it('each of geoloc_lat and geoloc_lng needs the other; out-of-range points are refused', async () => {
    const lat = await app.request('GET', `${EVENTS}?geoloc_lat=52.5`);
    expect(lat.status).toBe(400);
    expect(lat.body).toMatchObject({
      code: 'rest_missing_callback_param',
      message: 'Missing parameter(s): geoloc_lng',
      data: { status: 400, params: ['geoloc_lng'] },
    });
    const lng = await app.request('GET', `${EVENTS}?geoloc_lng=13.4&geoloc=true`);
    expect(lng.status).toBe(400);
    expect(lng.body.data.params).toEqual(['geoloc_lat']);
    const far = await app.request('GET', `${EVENTS}?geoloc_lat=95&geoloc_lng=13.4`);
    expect(far.status).toBe(400);
    expect(far.body.code).toBe('rest_invalid_param');
    expect(Object.keys(far.body.data.params)).toEqual(['geoloc_lat']);
  });

  it('the geofence and its unit are settings (cms/v2/settings), defaulting to 25 miles', async () => {
    const read = await app.admin('GET', '/cms/v2/settings');
    expect(read.body).toMatchObject({ geoloc_default_geofence: 25, geoloc_default_unit: 'miles' });
    const set = await app.admin('POST', '/cms/v2/settings', { body: { geoloc_default_geofence: 10, geoloc_default_unit: 'kilometers' } });
    expect(set.status).toBe(200);
    expect(set.body).toMatchObject({ geoloc_default_geofence: 10, geoloc_default_unit: 'kilometers' });
    try {
      // 10 km: B1 (8.90) stays, B2 (33.49) goes; P2 (11.84) and N2 (10.56) go.
      expect(titles(await app.request('GET', near(BERLIN)))).toEqual(['e-B0-early', 'e-B0-late', 'e-B1']);
      expect(titles(await app.request('GET', near(PARIS)))).toEqual(['e-P1']);
      expect(titles(await app.request('GET', near(NEW_YORK)))).toEqual(['e-N1']);
      // 30 miles (48.28 km) takes Berlin's B3 (42.25) and B4 (40.98) too.
      await app.admin('POST', '/cms/v2/settings', { body: { geoloc_default_geofence: 30, geoloc_default_unit: 'miles' } });
      expect(titles(await app.request('GET', near(BERLIN)))).toEqual(['e-B0-early', 'e-B0-late', 'e-B1', 'e-B2', 'e-B4', 'e-B3']);
    } finally {
      await app.admin('POST', '/cms/v2/settings', { body: { geoloc_default_geofence: null, geoloc_default_unit: null } });
    }
    for (const body of [{ geoloc_default_geofence: 0 }, { geoloc_default_geofence: 'far' }, { geoloc_default_unit: 'leagues' }]) {
      expect((await app.admin('POST', '/cms/v2/settings', { body })).status).toBe(400);
    }
  });

  it('a venue that moves into the fence brings its events', async () => {
    const list = await app.request('GET', `${VENUES}?per_page=50&search=Venue X`);
    const x = (list.body.venues as Array<{ id: number; venue: string }>).find((v) => v.venue === 'Venue X')!;
    await app.admin('POST', `${VENUES}/${x.id}`, { body: { geo_lat: 52.53, geo_lng: 13.405 } });
    try {
      // X at 1.11 km from Berlin's centre.
      expect(titles(await app.request('GET', near(BERLIN)))).toEqual(['e-B0-early', 'e-B0-late', 'e-X', 'e-B1', 'e-B2']);
    } finally {
      await app.admin('POST', `${VENUES}/${x.id}`, { body: { geo_lat: '', geo_lng: '' } });
    }
    expect(titles(await app.request('GET', near(BERLIN)))).toEqual(['e-B0-early', 'e-B0-late', 'e-B1', 'e-B2']);
  });
});

describe('free edition', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp();
    await seed(app);
  });
  afterAll(async () => {
    await app.close();
  });

  it('accepts the geoloc arguments and ignores them', async () => {
    const all = titles(await app.request('GET', `${EVENTS}?per_page=50`));
    expect(all).toHaveLength(14);
    expect(titles(await app.request('GET', near(BERLIN)))).toEqual(all);
    expect(titles(await app.request('GET', `${EVENTS}?per_page=50&geoloc=true`))).toEqual(all);
    const lone = await app.request('GET', `${EVENTS}?per_page=50&geoloc_lat=52.5`);
    expect(lone.status).toBe(200);
    expect(titles(lone)).toEqual(all);
  });

  it('keeps no geofence settings', async () => {
    const read = await app.admin('GET', '/cms/v2/settings');
    expect(read.status).toBe(200);
    expect(read.body).not.toHaveProperty('geoloc_default_geofence');
    expect(read.body).not.toHaveProperty('geoloc_default_unit');
    const set = await app.admin('POST', '/cms/v2/settings', { body: { geoloc_default_geofence: 10 } });
    expect(set.status).toBe(200);
    expect(set.body).not.toHaveProperty('geoloc_default_geofence');
  });
});
