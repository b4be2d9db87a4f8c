/**
 * Schedules on BullMQ (real Redis): one job per period however many workers consume the queue and
 * however often the schedule is declared; a re-declaration with keepExisting keeps the timing;
 * unschedule ends it. The inline queue's schedules run in its own process the same way.
 */
import { createBullQueue, createBullWorker } from './bullmq';
import { createInlineQueue } from './inline';
import type { JobContext, JobHandlers } from './types';
import { loose, typed } from '../../test/support/loose-queue';
import { clearRedisPrefix, redisPrefix } from '../../test/support/redis-prefix';

const redisUrl = process.env.TEST_REDIS_URL as string;
let prefix: string;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

beforeAll(async () => {
  prefix = await redisPrefix('schedule');
});

afterAll(async () => {
  if (prefix) await clearRedisPrefix(prefix);
});

/** Waits until `done()` holds, checking every 20 ms; fails after `ms` (a bound for a stuck run, not a timing window). */
async function until(done: () => boolean, ms: number, what: string): Promise<void> {
  const deadline = Date.now() + ms;
  while (!done()) {
    if (Date.now() > deadline) throw new Error(`${what}: not reached within ${ms} ms`);
    await sleep(20);
  }
}

/**
 * Runs of a schedule of period `every`, seen between its start and its end: never two in one period (a
 * loaded machine only delays timers, so a count above the periods that passed, or two runs closer than
 * half a period, is a duplicate), and none after it ended.
 */
function expectOnePerPeriod(at: number[], every: number, elapsed: number): void {
  expect(at.length).toBeLessThanOrEqual(Math.floor(elapsed / every) + 1);
  const sorted = [...at].sort((x, y) => x - y);
  for (let i = 1; i < sorted.length; i++) expect(sorted[i] - sorted[i - 1]).toBeGreaterThan(every / 2);
}

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
    const started = Date.now();
    // Both producers declare it (as every aggregator pod does at start-up): still one schedule.
    await producers[0].schedule('source-7', every, 'import.source', { source: 7 });
    await producers[1].schedule('source-7', every, 'import.source', { source: 7 }, { keepExisting: true });
    await until(() => runs.length >= 3, every * 30, 'three runs of the schedule');
    await producers[0].unschedule('source-7', 'import.source');
    const elapsed = Date.now() - started;
    const count = runs.length;
    // A run already taken when it ended may still finish; none starts after two more periods.
    await sleep(every * 2);
    expect(runs.length).toBe(count);
    expect(new Set(runs.map((r) => r.id)).size).toBe(runs.length);
    expectOnePerPeriod(
      runs.map((r) => r.at),
      every,
      elapsed,
    );
  } finally {
    await Promise.all(workers.map((w) => w.close(10_000)));
    await Promise.all(producers.map((p) => p.close()));
  }
});

test('inline: a schedule runs each period in this process until unscheduled', async () => {
  const seen: Array<{ id: string; at: number }> = [];
  const queue = loose(createInlineQueue(typed({ 'import.source': async (_d: unknown, job: JobContext) => void seen.push({ id: job.id, at: Date.now() }) })));
  try {
    const every = 100;
    const started = Date.now();
    await queue.schedule('s1', every, 'import.source', {});
    await queue.schedule('s1', every, 'import.source', {}, { keepExisting: true });
    await until(() => seen.length >= 3, every * 50, 'three runs of the schedule');
    await queue.unschedule('s1', 'import.source');
    const elapsed = Date.now() - started;
    const count = seen.length;
    expect(new Set(seen.map((s) => s.id)).size).toBe(count);
    expectOnePerPeriod(
      seen.map((s) => s.at),
      every,
      elapsed,
    );
    await sleep(every * 3);
    expect(seen.length).toBe(count);
  } finally {
    await queue.close();
  }
});
