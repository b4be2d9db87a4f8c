/**
 * Imports on BullMQ (real Redis): a batch split into slices that run as separate jobs, the reference's
 * processing cases, and one batch delivered twice at once storing its events exactly once.
 */
import { startTestApp, type TestApp } from '../../../test/support/app';
import { AppStore, batchBody, eaEvent } from '../../../test/support/imports';
import { clearRedisPrefix, redisPrefix } from '../../../test/support/redis-prefix';
import { EVENT_TYPE } from '#libs/calendar/meta';
import { DEFAULT_SLICE_SIZE } from '..';
import { RECORD_META } from '../storage/records';

let app: TestApp;
let db: AppStore;
let prefix: string;

beforeAll(async () => {
  prefix = await redisPrefix('aggregator-import');
  app = await startTestApp({ REDIS_URL: process.env.TEST_REDIS_URL, QUEUE_PREFIX: prefix });
  db = await AppStore.open(app);
}, 60000);

afterAll(async () => {
  await db?.close();
  await app?.close();
  if (prefix) await clearRedisPrefix(prefix);
});

const batch = (id: string, body: Record<string, unknown>) => app.request('POST', `/vendor/event-aggregator/v1/import/${id}/batch`, { body });

it('stores a batch of several slices once, through the import queue', async () => {
  const count = DEFAULT_SLICE_SIZE * 2 + 17;
  const record = await db.record('redis1', 'h-1');
  const events = Array.from({ length: count }, (_, i) => eaEvent(20000 + i));
  const res = await batch('redis1', batchBody(events, { batch_hash: 'h-1', status: { data: { total: count, done: 0 }, batch: { total: 2, done: 0 } } }));
  expect(res.status).toBe(200);
  const created: number[] = res.body.activity.vendor_events.created;
  expect(created).toHaveLength(count);
  expect(new Set(created).size).toBe(count);
  const stored = await db.posts.find({ type: EVENT_TYPE, ea_ids: { $in: events.map((e) => `g:${e.global_id}`) } }, { fields: ['id'] });
  expect(stored.map((d) => d.id).sort((a, b) => a - b)).toEqual([...created].sort((a, b) => a - b));
  const after = await db.reload(record);
  expect(after.status).toBe('vendor-ea-pending');
  expect(res.body.next_batch_hash).toBe(after.meta[RECORD_META.nextBatchHash]);

  // The last batch finishes the import.
  const last = await batch(
    'redis1',
    batchBody([eaEvent(30001)], { batch_hash: res.body.next_batch_hash, status: { data: { total: count + 1, done: count }, batch: { total: 2, done: 1 } } }),
  );
  expect(last.status).toBe(200);
  expect(last.body).not.toHaveProperty('next_batch_hash');
  expect((await db.reload(record)).status).toBe('vendor-ea-success');
}, 60000);

it('stores a batch delivered twice at once exactly once', async () => {
  await db.record('redis2', 'h-2');
  const events = Array.from({ length: 40 }, (_, i) => eaEvent(40000 + i));
  const body = batchBody(events, { batch_hash: 'h-2', status: { data: { total: 80, done: 0 }, batch: { total: 2, done: 0 } } });
  const [a, b] = await Promise.all([batch('redis2', body), batch('redis2', body)]);
  const statuses = [a.status, b.status].sort();
  // Both ran the same jobs; only one moved the import on, the other's hash was spent by then.
  expect(statuses[0]).toBe(200);
  expect([200, 400]).toContain(statuses[1]);
  const stored = await db.posts.count({ type: EVENT_TYPE, ea_ids: { $in: events.map((e) => `g:${e.global_id}`) } });
  expect(stored).toBe(40);
}, 60000);
