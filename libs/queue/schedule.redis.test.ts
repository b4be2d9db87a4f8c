/**
 * Schedules on BullMQ (real Redis): one job per period however many workers consume the queue and
 * however often the schedule is declared; a re-declaration with keepExisting keeps the timing;
 * unschedule ends it. The inline queue's schedules run in its own process the same way.
 */
import { Redis } from 'ioredis';
import { createBullQueue, createBullWorker } from './bullmq';
import { createInlineQueue } from './inline';
import type { JobContext, JobHandlers } from './types';
import { loose, typed } from '../../test/support/loose-queue';

const redisUrl = process.env.TEST_REDIS_URL as string;
const prefix = `test-schedule-${process.pid}-${Date.now().toString(36)}`;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

afterAll(async () => {
  const redis = new Redis(redisUrl);
  const stream = redis.scanStream({ match: `${prefix}*`, count: 500 });
  for await (const keys of stream as AsyncIterable<string[]>) if (keys.length) await redis.unlink(...keys);
  await redis.quit();
});

test('BullMQ: two workers and two producers run each period of a schedule once', async () => {
  const runs: Array<{ id: string; at: number; by: string }> = [];
  const handler = (by: string): JobHandlers =>
    typed({
      'import.batch': async () => null,
      'import.source': async (_data: unknown, job: JobContext) => {
        runs.push({ id: job.id, at: Date.now(), by });
        await sleep(50);
        return null;
      },
    });
  const producers = [createBullQueue({ redisUrl, prefix }), createBullQueue({ redisUrl, prefix })];
  const workers = ['a', 'b'].map((by) => createBullWorker({ redisUrl, prefix, queues: ['import'], concurrency: 2, handlers: handler(by) }));
  try {
    await Promise.all(workers.map((w) => w.start()));
    const every = 700;
    // Both producers declare it (as every aggregator pod does at start-up): still one schedule.
    await producers[0].schedule('source-7', every, 'import.source', { source: 7 });
    await producers[1].schedule('source-7', every, 'import.source', { source: 7 }, { keepExisting: true });
    await sleep(every * 4 + 300);
    await producers[0].unschedule('source-7', 'import.source');
    const count = runs.length;
    await sleep(every * 2);
    expect(runs.length).toBe(count);
    // About one run per period, none twice.
    expect(new Set(runs.map((r) => r.id)).size).toBe(runs.length);
    expect(runs.length).toBeGreaterThanOrEqual(3);
    expect(runs.length).toBeLessThanOrEqual(5);
    const sorted = runs.map((r) => r.at).sort((x, y) => x - y);
    for (let i = 1; i < sorted.length; i++) expect(sorted[i] - sorted[i - 1]).toBeGreaterThan(every / 2);
  } finally {
    await Promise.all(workers.map((w) => w.close(10_000)));
    await Promise.all(producers.map((p) => p.close()));
  }
});

test('inline: a schedule runs each period in this process until unscheduled', async () => {
  const seen: string[] = [];
  const queue = loose(createInlineQueue(typed({ 'import.source': async (_d: unknown, job: JobContext) => void seen.push(job.id) })));
  try {
    await queue.schedule('s1', 100, 'import.source', {});
    await queue.schedule('s1', 100, 'import.source', {}, { keepExisting: true });
    await sleep(470);
    await queue.unschedule('s1', 'import.source');
    const count = seen.length;
    expect(count).toBeGreaterThanOrEqual(3);
    expect(count).toBeLessThanOrEqual(5);
    expect(new Set(seen).size).toBe(count);
    await sleep(250);
    expect(seen.length).toBe(count);
  } finally {
    await queue.close();
  }
});
