/**
 * Imports in cluster mode: the gateway routes the batches to the aggregator service process, which
 * hands their slices to two worker processes through BullMQ; every event of the feed arrives exactly
 * once and both workers take part.
 */
import { PostsRepository } from '../libs/posts/repository';
import { siteFrom } from '../libs/rest/site';
import { openStore } from '../libs/store';
import type { Store } from '../libs/store/types';
import { EVENT_TYPE, VENUE_TYPE } from '../libs/calendar/meta';
import { DEFAULT_SLICE_SIZE } from '../services/aggregator';
import { ImportRecords } from '../services/aggregator/records';
import { eaEvent } from './support/imports';
import { startCluster, type Cluster } from './support/cluster';

let cluster: Cluster;
let store: Store;

beforeAll(async () => {
  cluster = await startCluster();
  await cluster.startProcess('worker', 'worker-2');
  store = await openStore({ mongoUrl: cluster.env.MONGO_URL, mongoDb: cluster.env.MONGO_DB, dataDir: ':memory:' });
}, 180000);

afterAll(async () => {
  await store?.close();
  await cluster?.stop();
}, 60000);

async function importJobsDone(port: number): Promise<number> {
  const text = await (await fetch(`http://127.0.0.1:${port}/metrics`)).text();
  const line = text.split('\n').find((l) => l.startsWith('jobs_total{') && l.includes('import.batch') && l.includes('completed'));
  return line ? Number(line.split(' ').pop()) : 0;
}

it('imports a feed with two workers, every event exactly once', async () => {
  const records = new ImportRecords(new PostsRepository(store), siteFrom({ SITE_URL: cluster.gatewayUrl, SITE_NAME: 'x', SITE_DESCRIPTION: '', SITE_TIMEZONE: 'UTC' }));
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
