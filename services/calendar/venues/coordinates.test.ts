/**
 * Venue coordinates (the reference's _VenueLat/_VenueLng): written through vendor/events/v1's venue
 * routes and inline venues, validated, read back as geo_lat/geo_lng, and copied to the venue's indexed
 * fields the geoloc filters look venues up by; in the extended edition only (the free one, as the free
 * reference, neither publishes nor reads them as arguments).
 */
import { DateTime } from 'luxon';
import { openStore } from '#libs/store/index';
import type { Store } from '#libs/store/types';
import { startTestApp, type TestApp } from '../../../test/support/app';

const VENUES = '/vendor/events/v1/venues';
let app: TestApp;
let store: Store;

const stored = (id: number) => store.collection('posts').findOne({ id });

beforeAll(async () => {
  app = await startTestApp({ EDITION: 'extended' });
  store = await openStore({ dataDir: app.config.DATA_DIR });
});
afterAll(async () => {
  await store.close();
  await app.close();
});

describe('venue coordinates', () => {
  it('are written as numbers or numeric text, read back as numbers and kept on the venue index fields', async () => {
    const res = await app.admin('POST', VENUES, { body: { venue: 'Brandenburg Gate', city: 'Berlin', geo_lat: 52.516275, geo_lng: '13.377704' } });
    expect(res.status).toBe(201);
    expect(res.body.geo_lat).toBe(52.516275);
    expect(res.body.geo_lng).toBe(13.377704);
    // The record's order: the address fields, then the coordinates, then the map flags.
    const keys = Object.keys(res.body);
    expect(keys.indexOf('city')).toBeLessThan(keys.indexOf('geo_lat'));
    expect(keys.indexOf('geo_lng')).toBeLessThan(keys.indexOf('show_map'));
    const doc = await stored(res.body.id);
    expect(doc).toMatchObject({ venue_lat: 52.516275, venue_lng: 13.377704, meta: { _VenueLat: '52.516275', _VenueLng: '13.377704' } });

    const read = await app.request('GET', `${VENUES}/${res.body.id}`);
    expect(read.body).toMatchObject({ geo_lat: 52.516275, geo_lng: 13.377704 });
    expect(read.body.json_ld.geo).toEqual({ '@type': 'GeoCoordinates', latitude: 52.516275, longitude: 13.377704 });
  });

  it('an update moves them; an empty value removes them, and the venue no longer has a position', async () => {
    const { body: v } = await app.admin('POST', VENUES, { body: { venue: 'Moving venue', geo_lat: 10, geo_lng: 20 } });
    const moved = await app.admin('POST', `${VENUES}/${v.id}`, { body: { geo_lat: -33.8568, geo_lng: 151.2153 } });
    expect(moved.status).toBe(200);
    expect(moved.body).toMatchObject({ geo_lat: -33.8568, geo_lng: 151.2153 });
    expect(await stored(v.id)).toMatchObject({ venue_lat: -33.8568, venue_lng: 151.2153 });

    const cleared = await app.admin('POST', `${VENUES}/${v.id}`, { body: { geo_lat: '', geo_lng: '' } });
    expect(cleared.status).toBe(200);
    expect(cleared.body).not.toHaveProperty('geo_lat');
    expect(cleared.body).not.toHaveProperty('geo_lng');
    expect(await stored(v.id)).toMatchObject({ venue_lat: null, venue_lng: null });
  });

  it.each([
    ['geo_lat', 90.5],
    ['geo_lat', '-91'],
    ['geo_lng', 180.01],
    ['geo_lng', 'east'],
    ['geo_lat', '1e999'],
    ['geo_lat', '12,5'],
  ])('%s=%p is refused with 400 rest_invalid_param naming it', async (name, value) => {
    const res = await app.admin('POST', VENUES, { body: { venue: 'Nowhere', geo_lat: 1, geo_lng: 1, [name]: value } });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('rest_invalid_param');
    expect(Object.keys(res.body.data.params)).toEqual([name]);
  });

  it('the bounds themselves are coordinates', async () => {
    const res = await app.admin('POST', VENUES, { body: { venue: 'Pole and date line', geo_lat: -90, geo_lng: 180 } });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ geo_lat: -90, geo_lng: 180 });
  });

  it('an event may give them on an inline venue', async () => {
    const at = DateTime.now().plus({ days: 3 });
    const res = await app.admin('POST', '/vendor/events/v1/events', {
      body: {
        title: 'Picnic',
        start_date: at.toFormat('yyyy-LL-dd HH:mm:ss'),
        end_date: at.plus({ hours: 2 }).toFormat('yyyy-LL-dd HH:mm:ss'),
        venue: { venue: 'Tiergarten lawn', geo_lat: 52.5145, geo_lng: 13.3501 },
      },
    });
    expect(res.status).toBe(201);
    expect(res.body.venue).toMatchObject({ venue: 'Tiergarten lawn', geo_lat: 52.5145, geo_lng: 13.3501 });
    expect(await stored(res.body.venue.id)).toMatchObject({ venue_lat: 52.5145, venue_lng: 13.3501 });
    // The iCalendar export writes them as the event's GEO.
    const ics = await app.request('GET', `/vendor/events/v1/events/${res.body.id}/ical`);
    expect(ics.status).toBe(200);
    expect(ics.text).toMatch(/^GEO:52\.5145;13\.3501\r?$/m);
  });
});

describe('venue coordinates in the free edition', () => {
  let free: TestApp;
  beforeAll(async () => {
    free = await startTestApp();
  });
  afterAll(() => free.close());

  it('are neither published nor read as arguments, and a stored pair is still shown', async () => {
    const index = await free.request('GET', '/vendor/events/v1');
    const create = index.body.routes['/vendor/events/v1/venues'].endpoints.find((e: { methods: string[] }) => e.methods.includes('POST'));
    expect(Object.keys(create.args)).not.toContain('geo_lat');
    const res = await free.admin('POST', VENUES, { body: { venue: 'Free venue', geo_lat: 'east', geo_lng: 20 } });
    expect(res.status).toBe(201);
    expect(res.body).not.toHaveProperty('geo_lat');
    const freeStore = await openStore({ dataDir: free.config.DATA_DIR });
    try {
      expect((await freeStore.collection('posts').findOne({ id: res.body.id }))?.meta).not.toHaveProperty('_VenueLat');
    } finally {
      await freeStore.close();
    }
  });
});
