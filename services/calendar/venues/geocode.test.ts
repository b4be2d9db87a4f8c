/**
 * Geocoding venues (extended edition) against a local fake provider, on the all-in-one process's inline
 * queue and the SQLite store: a venue's address found once (and from the cache for a second venue at
 * it), a place the provider does not know, a provider that asks to wait or is down, an address changed
 * again while its job waited, the coordinates override, and the free edition, which asks for nothing.
 */
import { geocodeVenue, storeVenueCoordinates } from '#libs/geocode/venues';
import { geocodeAddress, geocoderPolicy, GeocoderBusyError } from '#libs/geocode/provider';
import { openStore } from '#libs/store/index';
import type { Store } from '#libs/store/types';
import type { PostDoc } from '#libs/posts/types';
import { startTestApp, type TestApp } from '../../../test/support/app';
import { eventually, startFakeGeocoder, type FakeGeocoder } from '../../../test/support/fake-geocoder';
import { AppStore, batchBody, eaEvent } from '../../../test/support/imports';

const VENUES = '/vendor/events/v1/venues';
let geo: FakeGeocoder;
let app: TestApp;
let store: Store;

const stored = async (id: number) => (await store.collection<PostDoc>('posts').findOne({ id }))!;
const located = (id: number) => eventually(async () => (await stored(id)).meta?._VenueLat !== undefined && stored(id));

beforeAll(async () => {
  geo = await startFakeGeocoder();
  geo.place('Pariser Platz Berlin 10117 Germany', 52.516275, 13.377704);
  geo.place('1 Main St Springfield', 39.8, -89.65);
  geo.place('2 Side St Shelbyville', 39.4, -88.8);
  geo.place('3 Down St Capital City', 40.1, -88.2);
  geo.place('9 New Rd Ogdenville', 41.0, -87.0);
  app = await startTestApp({ EDITION: 'extended', GEOCODER_URL: geo.searchUrl, OUTBOUND_ALLOW_HOSTS: '127.0.0.1', GEOCODER_RATE_PER_SECOND: '20' });
  store = await openStore({ dataDir: app.config.DATA_DIR });
});
afterAll(async () => {
  await store?.close();
  await app?.close();
  await geo?.close();
});

describe('geocoding venues on workers', () => {
  it('finds a new venue’s coordinates and keeps the address they are of; the write does not wait for it', async () => {
    const res = await app.admin('POST', VENUES, { body: { venue: 'Gate', address: 'Pariser Platz', city: 'Berlin', zip: '10117', country: 'Germany' } });
    expect(res.status).toBe(201);
    expect(res.body).not.toHaveProperty('geo_lat');
    const doc = await located(res.body.id);
    expect(doc).toMatchObject({ venue_lat: 52.516275, venue_lng: 13.377704 });
    expect(doc.meta).toMatchObject({ _VenueLat: '52.516275', _VenueLng: '13.377704', _VenueGeoAddress: 'Pariser Platz Berlin 10117 Germany' });
    const read = await app.request('GET', `${VENUES}/${res.body.id}`);
    expect(read.body).toMatchObject({ geo_address: 'Pariser Platz Berlin 10117 Germany', geo_lat: 52.516275, geo_lng: 13.377704 });
    expect(read.body).not.toHaveProperty('overwrite_coords');
    expect(geo.asked('Pariser Platz Berlin 10117 Germany')).toBe(1);
    const [hit] = geo.hits;
    expect(hit.q).toBe('Pariser Platz Berlin 10117 Germany');
  });

  it('a second venue at the same address (spelt otherwise) is answered from the cache', async () => {
    const res = await app.admin('POST', VENUES, { body: { venue: 'Gate café', address: 'pariser platz,', city: 'BERLIN', zip: '10117', country: 'Germany' } });
    expect(await located(res.body.id)).toMatchObject({ venue_lat: 52.516275, venue_lng: 13.377704 });
    expect(geo.asked('Pariser Platz Berlin 10117 Germany')).toBe(1);
    // Saving it again without an address change asks for nothing.
    await app.admin('POST', `${VENUES}/${res.body.id}`, { body: { phone: '123' } });
    await new Promise((r) => setTimeout(r, 300));
    expect(geo.asked('Pariser Platz Berlin 10117 Germany')).toBe(1);
  });

  it('an address the provider does not know stores nothing and is not asked again', async () => {
    const res = await app.admin('POST', VENUES, { body: { venue: 'Nowhere', address: '0 Nowhere Lane', city: 'Atlantis' } });
    await eventually(async () => geo.asked('0 Nowhere Lane Atlantis') === 1);
    await new Promise((r) => setTimeout(r, 200));
    await app.admin('POST', `${VENUES}/${res.body.id}`, { body: { phone: '555' } });
    await new Promise((r) => setTimeout(r, 300));
    expect(geo.asked('0 Nowhere Lane Atlantis')).toBe(1);
    const doc = await stored(res.body.id);
    expect(doc.meta).not.toHaveProperty('_VenueLat');
    expect(doc.meta).not.toHaveProperty('_VenueGeoAddress');
    expect(doc.venue_lat).toBeNull();
  });

  it('a provider asking to wait (429 + Retry-After) is asked again after the wait', async () => {
    geo.script('1 Main St Springfield', { status: 429, retryAfter: '1' });
    const started = Date.now();
    const res = await app.admin('POST', VENUES, { body: { venue: 'Main', address: '1 Main St', city: 'Springfield' } });
    expect(await located(res.body.id)).toMatchObject({ venue_lat: 39.8, venue_lng: -89.65 });
    const asks = geo.hits.filter((h) => h.q === '1 Main St Springfield');
    expect(asks).toHaveLength(2);
    expect(asks[1].at - asks[0].at).toBeGreaterThanOrEqual(950);
    expect(Date.now() - started).toBeGreaterThanOrEqual(950);
  });

  it('a provider that is down (500) is retried with backoff', async () => {
    geo.script('2 Side St Shelbyville', { status: 500 }, { status: 503 });
    const res = await app.admin('POST', VENUES, { body: { venue: 'Side', address: '2 Side St', city: 'Shelbyville' } });
    expect(await located(res.body.id)).toMatchObject({ venue_lat: 39.4, venue_lng: -88.8 });
    expect(geo.asked('2 Side St Shelbyville')).toBe(3);
  });

  it('a provider that cannot be reached fails the attempt (so the queue retries it)', async () => {
    const provider = { kind: 'nominatim' as const, url: 'http://127.0.0.1:9/search', userAgent: 'test' };
    await expect(geocodeAddress(provider, 'x', geocoderPolicy(['127.0.0.1'], 2000))).rejects.toThrow();
    geo.script('busy', { status: 429, retryAfter: '7' });
    const busy = geocodeAddress({ ...provider, url: geo.searchUrl }, 'busy', geocoderPolicy(['127.0.0.1'], 2000));
    await expect(busy).rejects.toBeInstanceOf(GeocoderBusyError);
    await expect(busy).rejects.toMatchObject({ retryAfterMs: 7000 });
  });

  it('an address changed again while its job waited is not geocoded for the old address', async () => {
    const deps = { store, provider: { kind: 'nominatim' as const, url: geo.searchUrl, userAgent: 't' }, policy: geocoderPolicy(['127.0.0.1'], 2000) };
    const res = await app.admin('POST', VENUES, { body: { venue: 'Mover', address: '3 Down St', city: 'Capital City' } });
    const before = await stored(res.body.id);
    await app.admin('POST', `${VENUES}/${res.body.id}`, { body: { address: '9 New Rd', city: 'Ogdenville' } });
    // The first write's job, run now: the venue has another address.
    expect(await geocodeVenue(deps, { venue: res.body.id, address: '3 Down St Capital City' })).toEqual({ outcome: 'stale' });
    // A job that read the venue before the change cannot store its answer over it either.
    expect(await storeVenueCoordinates(store, before, '3 Down St Capital City', { lat: 40.1, lng: -88.2 })).toBe(false);
    expect(await located(res.body.id)).toMatchObject({ venue_lat: 41, venue_lng: -87 });
    expect((await stored(res.body.id)).meta?._VenueGeoAddress).toBe('9 New Rd Ogdenville');
  });
});

describe('the coordinates override', () => {
  it('giving both coordinates turns it on: the address is not geocoded; turning it off geocodes it', async () => {
    const res = await app.admin('POST', VENUES, {
      body: { venue: 'Pinned', address: 'Pariser Platz', city: 'Berlin', zip: '10117', country: 'Germany', geo_lat: 1, geo_lng: 2 },
    });
    expect(res.body).toMatchObject({ geo_lat: 1, geo_lng: 2, overwrite_coords: true });
    await new Promise((r) => setTimeout(r, 300));
    expect((await stored(res.body.id)).meta).toMatchObject({ _VenueLat: '1', _VenueLng: '2', _VenueOverwriteCoords: true });
    const off = await app.admin('POST', `${VENUES}/${res.body.id}`, { body: { overwrite_coords: false } });
    expect(off.body.overwrite_coords).toBe(false);
    expect(await eventually(async () => (await stored(res.body.id)).venue_lat === 52.516275 && stored(res.body.id))).toBeTruthy();
  });

  it('coordinates given with overwrite_coords=false are kept until the address is geocoded', async () => {
    const res = await app.admin('POST', VENUES, {
      body: { venue: 'Unpinned', address: '1 Main St', city: 'Springfield', geo_lat: 5, geo_lng: 6, overwrite_coords: 'no' },
    });
    expect(res.body).toMatchObject({ geo_lat: 5, geo_lng: 6, overwrite_coords: false });
    expect(await eventually(async () => (await stored(res.body.id)).venue_lat === 39.8)).toBe(true);
  });

  it('holds only with coordinates', async () => {
    const res = await app.admin('POST', VENUES, { body: { venue: 'Flag only', overwrite_coords: true } });
    expect(res.body.overwrite_coords).toBe(false);
  });
});

describe('imports', () => {
  it('geocodes the venues an import stores, and keeps the coordinates a feed gives', async () => {
    const db = await AppStore.open(app);
    try {
      await db.record('geoimport1', '2389');
      const venue = (uid: string, extra: Record<string, unknown>) => ({ uid, venue: uid, global_id: `ea.example.com?type=venue&id=${uid}`, ...extra });
      const events = [
        eaEvent(undefined, { venue: venue('imported-hall', { address: '9 New Rd', city: 'Ogdenville' }) }),
        eaEvent(undefined, { venue: venue('located-hall', { address: '7 Given Way', city: 'Capital City', geo_lat: 10.5, geo_lng: 20.25 }) }),
      ];
      const res = await app.request('POST', '/vendor/event-aggregator/v1/import/geoimport1/batch', { body: batchBody(events) });
      expect(res.status).toBe(200);
      const byTitle = async (title: string) => (await store.collection<PostDoc>('posts').findOne({ type: 'vendor_venue', title }))!;
      expect(await eventually(async () => (await byTitle('imported-hall')).venue_lat === 41)).toBe(true);
      await new Promise((r) => setTimeout(r, 300));
      expect(await byTitle('located-hall')).toMatchObject({ venue_lat: 10.5, venue_lng: 20.25, meta: { _VenueOverwriteCoords: true } });
      expect(geo.asked('7 Given Way Capital City')).toBe(0);
    } finally {
      await db.close();
    }
  });
});

describe('on MongoDB', () => {
  it('a venue is geocoded, and coordinates are stored only while the venue is as the job read it', async () => {
    const db = `geocode_${process.pid}_${Date.now()}`;
    const mongo = await startTestApp({
      EDITION: 'extended',
      GEOCODER_URL: geo.searchUrl,
      OUTBOUND_ALLOW_HOSTS: '127.0.0.1',
      GEOCODER_RATE_PER_SECOND: '20',
      MONGO_URL: process.env.TEST_MONGO_URL!,
      MONGO_DB: db,
    });
    const mstore = await openStore({ dataDir: mongo.config.DATA_DIR, mongoUrl: process.env.TEST_MONGO_URL!, mongoDb: db });
    try {
      const doc = async (id: number) => (await mstore.collection<PostDoc>('posts').findOne({ id }))!;
      const res = await mongo.admin('POST', VENUES, {
        body: { venue: 'Mongo Gate', address: 'Pariser Platz', city: 'Berlin', zip: '10117', country: 'Germany' },
      });
      expect(await eventually(async () => (await doc(res.body.id)).venue_lat === 52.516275)).toBe(true);
      expect((await doc(res.body.id)).meta).toMatchObject({ _VenueGeoAddress: 'Pariser Platz Berlin 10117 Germany' });
      const before = await doc(res.body.id);
      await mongo.admin('POST', `${VENUES}/${res.body.id}`, { body: { address: '9 New Rd', city: 'Ogdenville', zip: '', country: '' } });
      expect(await storeVenueCoordinates(mstore, before, 'Pariser Platz Berlin 10117 Germany', { lat: 1, lng: 2 })).toBe(false);
      expect(await eventually(async () => (await doc(res.body.id)).venue_lat === 41)).toBe(true);
      // With the override on, nothing is stored over the given coordinates.
      const given = await mongo.admin('POST', VENUES, { body: { venue: 'Given', address: '1 Main St', city: 'Springfield', geo_lat: 5, geo_lng: 6 } });
      const read = await doc(given.body.id);
      expect(await storeVenueCoordinates(mstore, read, '1 Main St Springfield', { lat: 39.8, lng: -89.65 })).toBe(false);
      expect(await doc(given.body.id)).toMatchObject({ venue_lat: 5, venue_lng: 6 });
    } finally {
      await mstore.close();
      await mongo.close();
    }
  });
});

describe('the free edition', () => {
  it('asks the provider nothing and publishes neither argument', async () => {
    const free = await startTestApp({ GEOCODER_URL: geo.searchUrl, OUTBOUND_ALLOW_HOSTS: '127.0.0.1' });
    try {
      const index = await free.request('GET', '/vendor/events/v1');
      const create = index.body.routes['/vendor/events/v1/venues'].endpoints.find((e: { methods: string[] }) => e.methods.includes('POST'));
      expect(Object.keys(create.args)).not.toContain('overwrite_coords');
      expect(Object.keys(create.args)).not.toContain('geo_address');
      const before = geo.hits.length;
      const res = await free.admin('POST', VENUES, { body: { venue: 'Free', address: '1 Main St', city: 'Springfield', overwrite_coords: true } });
      expect(res.status).toBe(201);
      await new Promise((r) => setTimeout(r, 400));
      expect(geo.hits.length).toBe(before);
      expect(res.body).not.toHaveProperty('overwrite_coords');
      expect(res.body).not.toHaveProperty('geo_address');
    } finally {
      await free.close();
    }
  });
});
