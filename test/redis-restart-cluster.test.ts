/**
 * Redis stopped and started again under load, in cluster mode, on a private redis-server that keeps its
 * data in an append-only file. While it is down, requests that need the queue (batches, import batches)
 * get 503 with Retry-After in the error envelope at once, and reads keep working; jobs queued before it
 * stopped survive the restart and run exactly once; after it is back the service takes jobs again
 * without being restarted.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { EVENT_TYPE } from '#libs/calendar/meta';
import { PostsRepository } from '#libs/posts/repository';
import { siteFrom } from '#libs/rest/site';
import { openStore } from '#libs/store/index';
import type { Store } from '#libs/store/types';
import { ImportRecords } from '../services/aggregator/storage/records';
import { eaEvent } from './support/imports';
import { freePort, startCluster, type Cluster } from './support/cluster';
import type { ApiResponse } from './support/app';
import { startPrivateRedis, type PrivateRedis } from './support/private-redis';

/** A request that needs a backing service that is down is answered within this (no hang). */
const NO_HANG_MS = 8000;

let cluster: Cluster;
let store: Store;
let redisDir: string;
let redisPort: number;
let redis: PrivateRedis | undefined;

beforeAll(async () => {
  redisDir = mkdtempSync(join(tmpdir(), 'ecs-redis-'));
  redisPort = await freePort();
  redis = await startPrivateRedis(redisDir, redisPort);
  cluster = await startCluster({ redisUrl: redis.url });
  store = await openStore({ mongoUrl: cluster.env.MONGO_URL, mongoDb: cluster.env.MONGO_DB, dataDir: ':memory:' });
}, 180000);

afterAll(async () => {
  await store?.close();
  await cluster?.stop();
  await redis?.stop();
  rmSync(redisDir, { recursive: true, force: true });
}, 60000);

const batchOf = (prefix: string, n: number) => ({
  requests: Array.from({ length: n }, (_, i) => ({ method: 'POST', path: '/cms/v2/posts', body: { title: `${prefix} ${i}`, status: 'publish' } })),
});

/** Posts whose title starts with `prefix`, counted in the store. */
async function postsTitled(prefix: string): Promise<string[]> {
  const docs = await store.collection('posts').find({ type: 'post' }, { fields: ['title'] });
  return docs.map((d) => String(d.title)).filter((t) => t.startsWith(prefix));
}

async function timed<T>(p: Promise<T>): Promise<{ res: T; ms: number }> {
  const started = Date.now();
  const res = await p;
  return { res, ms: Date.now() - started };
}

function expectUnavailable(r: { res: ApiResponse; ms: number }): void {
  expect(r.res.status).toBe(503);
  expect(Number(r.res.headers.get('retry-after'))).toBeGreaterThan(0);
  expect(r.res.body.code).toBe('rest_service_unavailable');
  expect(r.res.body.data.status).toBe(503);
  expect(r.res.body.data.retry_after).toBe(Number(r.res.headers.get('retry-after')));
  expect(r.ms).toBeLessThan(NO_HANG_MS);
}

it('answers 503 while Redis is down, keeps serving reads, and loses or repeats no job across the restart', async () => {
  const records = new ImportRecords(
    new PostsRepository(store),
    siteFrom({ SITE_URL: cluster.gatewayUrl, SITE_NAME: 'x', SITE_DESCRIPTION: '', SITE_TIMEZONE: 'UTC' }),
  );
  const record = await records.create({ origin: 'ical' });
  const importBody = {
    batch_hash: record.meta._vendor_aggregator_next_batch_hash as string,
    events: [eaEvent(700001), eaEvent(700002)],
    status: { data: { total: 2, done: 0 }, batch: { per_batch: 2, total: 1, done: 0 } },
    percentage_complete: 100,
  };
  const importPath = `/vendor/event-aggregator/v1/import/${record.import_id}/batch`;

  // Jobs queued with no worker to run them: they wait in Redis while it is stopped and started again.
  await cluster.kill('worker', 'SIGTERM');
  const queued = [cluster.admin('POST', '/batch/v1', { body: batchOf('Queued A', 5) }), cluster.admin('POST', '/batch/v1', { body: batchOf('Queued B', 5) })];
  const probe = new Redis(`redis://127.0.0.1:${redisPort}`, { maxRetriesPerRequest: null });
  const batchQueue = new Queue('batch', { connection: probe, prefix: cluster.env.QUEUE_PREFIX });
  const deadline = Date.now() + 20000;
  while (Date.now() < deadline && (await batchQueue.getWaitingCount()) < 2) await new Promise((r) => setTimeout(r, 50));
  expect(await batchQueue.getWaitingCount()).toBe(2);
  await batchQueue.close();
  probe.disconnect();

  // SIGTERM is Redis' orderly shutdown: the append-only file is complete on disk when it exits.
  await redis!.stop();

  // Requests that need the queue are refused at once; reads go on.
  const down = await Promise.all([
    timed(cluster.admin('POST', '/batch/v1', { body: batchOf('While down', 3) })),
    timed(cluster.admin('POST', '/batch/v1', { body: batchOf('While down', 3) })),
    timed(cluster.request('POST', importPath, { body: importBody })),
  ]);
  for (const r of down) expectUnavailable(r);
  const reads = await Promise.all([
    timed(cluster.request('GET', '/cms/v2/posts?per_page=5')),
    timed(cluster.request('GET', '/vendor/events/v1/events')),
    timed(cluster.request('GET', '/')),
  ]);
  for (const r of reads) {
    expect(r.res.status).toBe(200);
    expect(r.ms).toBeLessThan(NO_HANG_MS);
  }

  // Redis back on the same port with its data; a worker again; the waiting requests get their answers.
  redis = await startPrivateRedis(redisDir, redisPort);
  await cluster.startProcess('worker', 'worker-2');
  const answers = await Promise.all(queued);
  for (const a of answers) {
    expect(a.status).toBe(207);
    expect(a.body.responses.map((r: { status: number }) => r.status)).toEqual(new Array(5).fill(201));
  }

  // The service takes jobs again without a restart (a refused request is safe to send again).
  let after: ApiResponse | undefined;
  for (let i = 0; i < 40 && after?.status !== 207; i++) {
    after = await cluster.admin('POST', '/batch/v1', { body: batchOf('After', 4) });
    if (after.status !== 207) {
      expect(after.status).toBe(503);
      await new Promise((r) => setTimeout(r, 250));
    }
  }
  expect(after?.status).toBe(207);
  let imported: ApiResponse | undefined;
  for (let i = 0; i < 40 && imported?.status !== 200; i++) {
    imported = await cluster.request('POST', importPath, { body: importBody });
    if (imported.status !== 200) await new Promise((r) => setTimeout(r, 250));
  }
  expect(imported?.status).toBe(200);
  expect(imported?.body.activity.vendor_events.created).toHaveLength(2);

  // Every job ran once; none of the refused ones ran.
  expect((await postsTitled('Queued A')).sort()).toEqual(['Queued A 0', 'Queued A 1', 'Queued A 2', 'Queued A 3', 'Queued A 4']);
  expect(await postsTitled('Queued B')).toHaveLength(5);
  expect(new Set(await postsTitled('Queued B')).size).toBe(5);
  expect(await postsTitled('While down')).toEqual([]);
  expect(await postsTitled('After')).toHaveLength(4);
  expect(await store.collection('posts').count({ type: EVENT_TYPE })).toBe(2);
}, 120000);
