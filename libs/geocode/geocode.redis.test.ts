/**
 * Geocoding on BullMQ (real Redis): a venue's job run by the all-in-one process's worker, a 429 that
 * pauses the `geocode` queue for its Retry-After (in Redis, so for every worker) without using an
 * attempt, and the bulk run over venues stored without coordinates, its requests spaced by the rate.
 */
import { VENUE_TYPE } from '#libs/calendar/meta';
import type { PostDoc } from '#libs/posts/types';
import { createBullQueue } from '#libs/queue/bullmq';
import { openStore } from '#libs/store/index';
import type { Store } from '#libs/store/types';
import { startTestApp, type TestApp } from '../../test/support/app';
import { eventually, startFakeGeocoder, type FakeGeocoder } from '../../test/support/fake-geocoder';
import { clearRedisPrefix, redisPrefix } from '../../test/support/redis-prefix';
import { geocodeAllVenues, type BulkProgress } from './bulk';

let geo: FakeGeocoder;
let app: TestApp;
let store: Store;
let prefix: string;

const stored = async (id: number) => (await store.collection<PostDoc>('posts').findOne({ id }))!;

beforeAll(async () => {
  prefix = await redisPrefix('geocode');
  geo = await startFakeGeocoder();
  for (let i = 0; i < 5; i++) geo.place(`${i} Bulk St Springfield`, 40 + i / 10, -89 - i / 10);
  geo.place('7 Queue Rd Springfield', 39.7, -89.6);
  geo.place('8 Busy Rd Springfield', 39.6, -89.5);
  app = await startTestApp({
    REDIS_URL: process.env.TEST_REDIS_URL,
    QUEUE_PREFIX: prefix,
    EDITION: 'extended',
    GEOCODER_URL: geo.searchUrl,
    OUTBOUND_ALLOW_HOSTS: '127.0.0.1',
    GEOCODER_RATE_PER_SECOND: '2',
  });
  store = await openStore({ dataDir: app.config.DATA_DIR });
}, 60000);

afterAll(async () => {
  await store?.close();
  await app?.close();
  await geo?.close();
  if (prefix) await clearRedisPrefix(prefix);
});

it('a venue written is geocoded by a worker', async () => {
  const res = await app.admin('POST', '/vendor/events/v1/venues', { body: { venue: 'Queued', address: '7 Queue Rd', city: 'Springfield' } });
  expect(res.status).toBe(201);
  await eventually(async () => (await stored(res.body.id)).venue_lat === 39.7, 15000);
  expect((await stored(res.body.id)).meta?._VenueGeoAddress).toBe('7 Queue Rd Springfield');
}, 20000);

it('a 429 pauses the queue for its Retry-After and the job runs again', async () => {
  geo.script('8 Busy Rd Springfield', { status: 429, retryAfter: '2' });
  const res = await app.admin('POST', '/vendor/events/v1/venues', { body: { venue: 'Busy', address: '8 Busy Rd', city: 'Springfield' } });
  await eventually(async () => (await stored(res.body.id)).venue_lat === 39.6, 20000);
  const asks = geo.hits.filter((h) => h.q === '8 Busy Rd Springfield');
  expect(asks).toHaveLength(2);
  expect(asks[1].at - asks[0].at).toBeGreaterThanOrEqual(1900);
}, 25000);

it('the bulk run geocodes venues stored without coordinates, its requests spaced by the rate', async () => {
  const posts = store.collection<PostDoc>('posts');
  const ids = [900001, 900002, 900003, 900004, 900005];
  for (const [i, id] of ids.entries()) {
    await posts.insertOne({
      id,
      type: VENUE_TYPE,
      status: 'publish',
      title: `Old ${i}`,
      slug: `old-${i}`,
      meta: { _VenueAddress: `${i} Bulk St`, _VenueCity: 'Springfield' },
      venue_lat: null,
      venue_lng: null,
    } as unknown as PostDoc);
  }
  const producer = createBullQueue({ redisUrl: process.env.TEST_REDIS_URL!, prefix });
  const progress: BulkProgress[] = [];
  try {
    const done = await geocodeAllVenues(store, producer, { pageSize: 2, pollMs: 100, onProgress: (p) => progress.push(p) });
    expect(done).toMatchObject({ total: 5, scanned: 5, enqueued: 5, pending: 0, remaining: 0 });
  } finally {
    await producer.close();
  }
  expect(progress.length).toBeGreaterThanOrEqual(3);
  for (const [i, id] of ids.entries()) expect(await stored(id)).toMatchObject({ venue_lat: 40 + i / 10, venue_lng: -89 - i / 10 });
  const times = geo.hits.filter((h) => h.q.includes('Bulk St')).map((h) => h.at);
  expect(times).toHaveLength(5);
  // One request every 500 ms, as the geocoder sees them arrive: on a loaded machine the way from a job's turn to
  // the geocoder's reading of its request takes tens of ms more or less from one request to the next.
  for (let i = 1; i < times.length; i++) expect(times[i] - times[i - 1]).toBeGreaterThanOrEqual(400);
}, 30000);
