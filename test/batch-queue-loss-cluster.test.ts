/**
 * The job queue (a private Redis) killed in the middle of a batch, in cluster mode. A batch then either
 * answers with what happened or answers 503 having done nothing, and sending it again with its
 * Idempotency-Key is safe:
 * - killed while a worker runs the batch: the worker goes on, records the result in the store, and the
 *   gateway answers it (207, all 25 writes) without waiting for the queue; sent again, the same answer,
 *   nothing stored twice, also after Redis is back and the orphaned job is taken up again;
 * - killed while the batch waits in the queue with no worker: the gateway gives up at its deadline and
 *   cancels the batch (503, nothing stored); when Redis and a worker come back with the job, the job
 *   does nothing; sent again, the batch runs once.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MongoClient } from 'mongodb';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { ADMIN, makeRequester, type ApiResponse } from './support/app';
import { freePort, startCluster, type Cluster } from './support/cluster';
import { startPrivateRedis, type PrivateRedis } from './support/private-redis';
import { startSlowProxy, type SlowProxy } from './support/slow-proxy';

let cluster: Cluster;
let mongo: MongoClient;
let redis: PrivateRedis | undefined;
let redisDir: string;
let redisPort: number;
let proxy: SlowProxy | undefined;

beforeAll(async () => {
  redisDir = mkdtempSync(join(tmpdir(), 'ecs-batch-redis-'));
  redisPort = await freePort();
  redis = await startPrivateRedis(redisDir, redisPort);
  cluster = await startCluster({ redisUrl: redis.url });
  mongo = await MongoClient.connect(cluster.env.MONGO_URL);
}, 240000);

afterAll(async () => {
  proxy?.close();
  await mongo?.close();
  await cluster?.stop();
  await redis?.stop();
  rmSync(redisDir, { recursive: true, force: true });
}, 60000);

const batch = (prefix: string) => ({
  requests: Array.from({ length: 25 }, (_, i) => ({ method: 'POST', path: '/cms/v2/posts', body: { title: `${prefix} ${i}`, status: 'publish' } })),
});
const stored = (prefix: string) =>
  mongo
    .db(cluster.env.MONGO_DB)
    .collection('posts')
    .countDocuments({ type: 'post', title: { $regex: `^${prefix} ` } });
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
async function until(what: string, ok: () => Promise<boolean>, ms = 60000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await ok())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting until ${what}`);
    await sleep(50);
  }
}
const statuses = (res: ApiResponse) => res.body.responses.map((r: { status: number }) => r.status);

it('answers what a batch did when the queue dies under it, and a resend with its key stores nothing twice', async () => {
  // Only a worker that reaches the content service through a slow pass-through runs batches.
  await cluster.kill('worker', 'SIGTERM');
  proxy = await startSlowProxy(cluster.env.CONTENT_SERVICE_URL, 120);
  await cluster.startProcess('worker', 'slow-worker', { CONTENT_SERVICE_URL: proxy.url });
  const headers = { 'Idempotency-Key': 'queue-dies-while-running' };
  const answer = cluster.admin('POST', '/batch/v1', { body: batch('While running'), headers });

  await until('a few of the writes are stored', async () => (await stored('While running')) >= 3);
  await redis!.kill();
  const res = await answer;
  // Either the whole answer or nothing stored; here the worker had the batch, so it finished it.
  if (res.status === 503) expect(await stored('While running')).toBe(0);
  else {
    expect(res.status).toBe(207);
    expect(statuses(res)).toEqual(new Array(25).fill(201));
    expect(await stored('While running')).toBe(25);
  }
  expect(res.status).toBe(207);

  // Sent again while the queue is still down: the remembered answer, nothing stored twice.
  const again = await cluster.admin('POST', '/batch/v1', { body: batch('While running'), headers });
  expect(again.status).toBe(207);
  expect(again.headers.get('idempotent-replayed')).toBe('true');
  expect(again.body).toEqual(res.body);

  // Redis back with its data: the job left active when it died is taken up again, and does nothing new.
  redis = await startPrivateRedis(redisDir, redisPort);
  const probe = new Redis(redis.url, { maxRetriesPerRequest: null });
  const queue = new Queue('batch', { connection: probe, prefix: cluster.env.QUEUE_PREFIX });
  try {
    await until('the orphaned job has been run again', async () => (await queue.getActiveCount()) + (await queue.getWaitingCount()) === 0, 90000);
  } finally {
    await queue.close();
    probe.disconnect();
  }
  expect(await stored('While running')).toBe(25);
  const later = await cluster.admin('POST', '/batch/v1', { body: batch('While running'), headers });
  expect(later.body).toEqual(res.body);
  expect(await stored('While running')).toBe(25);
}, 240000);

it('answers 503 having done nothing when the queue dies before a worker took the batch, and runs it once when sent again', async () => {
  await cluster.kill('slow-worker', 'SIGTERM');
  // A gateway that waits 8 s for a batch, with no worker running.
  const gateway = await cluster.startProcess('gateway', 'gateway-short', { BATCH_TIMEOUT_MS: '8000' });
  const url = `http://127.0.0.1:${gateway.port}`;
  const request = makeRequester(url, `${url}/index.php/cms-json`);
  const send = () =>
    request('POST', '/batch/v1', {
      body: batch('While queued'),
      headers: { 'Idempotency-Key': 'queue-dies-while-queued' },
      auth: [ADMIN.login, ADMIN.appPassword],
    });

  const answer = send();
  const probe = new Redis(redis!.url, { maxRetriesPerRequest: null });
  const queue = new Queue('batch', { connection: probe, prefix: cluster.env.QUEUE_PREFIX });
  await until('the batch waits in the queue', async () => (await queue.getWaitingCount()) === 1, 30000);
  await queue.close();
  probe.disconnect();
  await redis!.kill();
  const res = await answer;
  expect(res.status).toBe(503);
  expect(res.body).toMatchObject({ code: 'rest_service_unavailable', data: { status: 503 } });
  expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
  expect(await stored('While queued')).toBe(0);

  // The queue comes back with the job in it, and a worker takes it: the cancelled batch does nothing.
  redis = await startPrivateRedis(redisDir, redisPort);
  await cluster.startProcess('worker', 'worker-back');
  const probe2 = new Redis(redis.url, { maxRetriesPerRequest: null });
  const queue2 = new Queue('batch', { connection: probe2, prefix: cluster.env.QUEUE_PREFIX });
  try {
    await until('the worker has taken the job up', async () => (await queue2.getFailedCount()) >= 1, 60000);
  } finally {
    await queue2.close();
    probe2.disconnect();
  }
  expect(await stored('While queued')).toBe(0);

  // Sent again with its key, the batch runs, once.
  let again: ApiResponse | undefined;
  for (let i = 0; i < 40 && again?.status !== 207; i++) {
    again = await send();
    if (again.status !== 207) await sleep(250);
  }
  expect(again?.status).toBe(207);
  expect(statuses(again!)).toEqual(new Array(25).fill(201));
  expect(await stored('While queued')).toBe(25);
}, 240000);
