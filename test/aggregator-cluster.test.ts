/**
 * Imports in cluster mode: the gateway routes the batches to the aggregator service process, which
 * hands their slices to two worker processes through BullMQ; every event of the feed arrives exactly
 * once and both workers take part.
 */
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { PostsRepository } from '#libs/posts/repository';
import { siteFrom } from '#libs/rest/site';
import { openStore } from '#libs/store/index';
import type { Store } from '#libs/store/types';
import { EVENT_TYPE, VENUE_TYPE } from '#libs/calendar/meta';
import { DEFAULT_SLICE_SIZE } from '../services/aggregator';
import { ImportRecords } from '../services/aggregator/storage/records';
import { eaEvent } from './support/imports';
import { startCluster, type Cluster } from './support/cluster';
import { hostPort, startTcpProxy, type TcpProxy } from './support/tcp-proxy';

let cluster: Cluster;
let store: Store;
let slowStore: TcpProxy | undefined;
let redis: Redis | undefined;
/** How long each answer of the store is held on its way to the slow workers. */
const SLOW_STORE_MS = 5;
/**
 * The same during the interrupted batch: slow enough that the test sees a slice's events in the store
 * and stops the answers while the worker that stored them still waits for the store's reply.
 */
const SLOWER_STORE_MS = 300;

beforeAll(async () => {
  cluster = await startCluster();
  await cluster.startProcess('worker', 'worker-2');
  store = await openStore({ mongoUrl: cluster.env.MONGO_URL, mongoDb: cluster.env.MONGO_DB, dataDir: ':memory:' });
}, 180000);

afterAll(async () => {
  await store?.close();
  await cluster?.stop();
  redis?.disconnect();
  await slowStore?.close();
}, 60000);

async function importJobsDone(port: number): Promise<number> {
  const text = await (await fetch(`http://127.0.0.1:${port}/metrics`)).text();
  const line = text.split('\n').find((l) => l.startsWith('jobs_total{') && l.includes('import.batch') && l.includes('completed'));
  return line ? Number(line.split(' ').pop()) : 0;
}

it('imports a feed with two workers, every event exactly once', async () => {
  const records = new ImportRecords(
    new PostsRepository(store),
    siteFrom({ SITE_URL: cluster.gatewayUrl, SITE_NAME: 'x', SITE_DESCRIPTION: '', SITE_TIMEZONE: 'UTC' }),
  );
  const record = await records.create({ origin: 'ical' });
  let hash = record.meta._vendor_aggregator_next_batch_hash as string;
  const perBatch = DEFAULT_SLICE_SIZE * 2;
  const batches = 3;
  const total = perBatch * batches;
  const events = Array.from({ length: total }, (_, i) => eaEvent(90000 + i));
  const created: number[] = [];
  for (let b = 0; b < batches; b++) {
    const res = await cluster.request('POST', `/vendor/event-aggregator/v1/import/${record.import_id}/batch`, {
      body: {
        batch_hash: hash,
        events: events.slice(b * perBatch, (b + 1) * perBatch),
        status: { data: { total, done: b * perBatch }, batch: { per_batch: perBatch, total: batches, done: b } },
        percentage_complete: Math.floor(((b + 1) / batches) * 100),
      },
    });
    expect(res.status).toBe(200);
    created.push(...res.body.activity.vendor_events.created);
    if (b < batches - 1) hash = res.body.next_batch_hash;
    else expect(res.body.next_batch_hash).toBeUndefined();
  }
  expect(created).toHaveLength(total);
  expect(new Set(created).size).toBe(total);

  const posts = store.collection('posts');
  const stored = await posts.find({ type: EVENT_TYPE }, { fields: ['id', 'ea_key'] });
  expect(stored).toHaveLength(total);
  expect(new Set(stored.map((d) => d.ea_key)).size).toBe(total);
  expect(stored.map((d) => d.id).sort((a, b) => Number(a) - Number(b))).toEqual([...created].sort((a, b) => a - b));
  // Five venues in the feed (n % 5), stored once each across batches and workers.
  expect(await posts.count({ type: VENUE_TYPE })).toBe(5);
  expect((await posts.findOne({ id: record.id }))?.status).toBe('vendor-ea-success');

  // Both workers stored slices.
  const workers = [cluster.procs.get('worker')!, cluster.procs.get('worker-2')!];
  const done = await Promise.all(workers.map((w) => importJobsDone(w.port)));
  expect(done.every((n) => n > 0)).toBe(true);

  // The calendar service serves an imported event.
  const one = await cluster.request('GET', `/vendor/events/v1/events/${created[0]}`);
  expect(one.status).toBe(200);
  expect(one.body.title).toBe('Imported event 90000');
}, 180000);

it('finishes an import exactly once when its workers are killed mid-batch and a new one takes over', async () => {
  const records = new ImportRecords(
    new PostsRepository(store),
    siteFrom({ SITE_URL: cluster.gatewayUrl, SITE_NAME: 'x', SITE_DESCRIPTION: '', SITE_TIMEZONE: 'UTC' }),
  );
  const record = await records.create({ origin: 'ical' });
  let hash = record.meta._vendor_aggregator_next_batch_hash as string;
  const perBatch = DEFAULT_SLICE_SIZE * 2;
  const batches = 3;
  const total = perBatch * batches;
  const first = 300000;
  const events = Array.from({ length: total }, (_, i) => eaEvent(first + i));
  const posts = store.collection('posts');
  const ours = async () =>
    (await posts.find({ type: EVENT_TYPE }, { fields: ['id', 'ea_key', 'title'] })).filter((d) => {
      const n = Number(/^Imported event (\d+)$/.exec(String(d.title))?.[1]);
      return n >= first && n < first + total;
    });

  // Workers whose store answers slowly, and not at all once held, so a slice is still being stored when they are killed.
  const mongo = hostPort(cluster.env.MONGO_URL);
  slowStore = await startTcpProxy(mongo.host, mongo.port, { delayMs: SLOW_STORE_MS });
  const slowUrl = cluster.env.MONGO_URL.replace(`${mongo.host}:${mongo.port}`, `127.0.0.1:${slowStore.port}`);
  await Promise.all(['worker', 'worker-2'].map((w) => cluster.kill(w, 'SIGTERM')));
  await Promise.all(['slow-1', 'slow-2'].map((w) => cluster.startProcess('worker', w, { MONGO_URL: slowUrl })));
  redis = new Redis(cluster.env.REDIS_URL, { maxRetriesPerRequest: null });
  const importQueue = new Queue('import', { connection: redis, prefix: cluster.env.QUEUE_PREFIX });

  let orphaned = 0;
  for (let b = 0; b < batches; b++) {
    const body = {
      batch_hash: hash,
      events: events.slice(b * perBatch, (b + 1) * perBatch),
      status: { data: { total, done: b * perBatch }, batch: { per_batch: perBatch, total: batches, done: b } },
      percentage_complete: Math.floor(((b + 1) / batches) * 100),
    };
    if (b === 1) slowStore.delayMs = SLOWER_STORE_MS;
    const sent = cluster.request('POST', `/vendor/event-aggregator/v1/import/${record.import_id}/batch`, { body });
    if (b === 1) {
      // The second batch is being stored: once some of its events are in the store, no answer of the
      // store reaches the workers any more (the reply to that very write included), so every job of
      // the batch is stuck where it is; then every worker is killed (no chance to finish or give back
      // its jobs) and a new one started, which picks the interrupted jobs up once their locks lapse.
      const deadline = Date.now() + 60000;
      while (Date.now() < deadline && (await ours()).length <= perBatch) await new Promise((r) => setTimeout(r, 20));
      slowStore.hold();
      expect((await ours()).length).toBeGreaterThan(perBatch);
      await Promise.all(['slow-1', 'slow-2'].map((w) => cluster.kill(w, 'SIGKILL')));
      // Jobs left active by a dead worker: the kill interrupted them.
      orphaned = await importQueue.getActiveCount();
      await cluster.startProcess('worker', 'worker-3');
    }
    let res = await sent;
    // A batch the service could not store in time is sent again with the same hash, as the remote
    // import service does; what the interrupted attempt stored is found, not stored twice.
    for (let retry = 0; res.status === 503 && retry < 3; retry++) {
      res = await cluster.request('POST', `/vendor/event-aggregator/v1/import/${record.import_id}/batch`, { body });
    }
    expect(res.status).toBe(200);
    if (b < batches - 1) hash = res.body.next_batch_hash;
  }
  expect(orphaned).toBeGreaterThan(0);
  await importQueue.close();

  const stored = await ours();
  expect(stored).toHaveLength(total);
  expect(new Set(stored.map((d) => d.ea_key)).size).toBe(total);
  const done = await posts.findOne({ id: record.id });
  expect(done?.status).toBe('vendor-ea-success');
  expect(Number((done?.meta as Record<string, unknown>)._vendor_aggregator_percentage_complete)).toBe(100);
}, 120000);
