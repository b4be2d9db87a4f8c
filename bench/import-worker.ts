/**
 * A worker process for the import benchmarks: consumes the `import` queue (BullMQ) with the same
 * `import.batch` and `import.source` handlers the `worker` role runs, over the embedded store the benchmark's service uses
 * (the `worker` role itself requires MongoDB, which cannot run on these machines). Times every job
 * from the handler's start to its return (after the store's commit) and, when stopped with SIGTERM,
 * prints as JSON its peak RSS, the jobs it ran, the events its `events` steps stored and the time
 * spent inside the handler (all steps, and the `events` steps alone), with the CPU time the process
 * used meanwhile (near the wall time on an idle machine; below it when other processes take the cores).
 */
import { loadConfig } from '#libs/config/env';
import { COLLECTIONS } from '#libs/data/collections';
import { createBullWorker } from '#libs/queue/index';
import type { JobHandler, JobHandlers } from '#libs/queue/types';
import { siteFrom } from '#libs/rest/site';
import { openStore } from '#libs/store/index';
import { importJobHandlers } from '../services/aggregator/import/jobs';

/** What this process did, summed over its jobs. */
const done = { jobs: 0, events: 0, busyMs: 0, eventsMs: 0, cpuMs: 0 };

async function main(): Promise<void> {
  const config = loadConfig();
  if (!config.REDIS_URL) throw new Error('REDIS_URL is required');
  const store = await openStore({ dataDir: config.DATA_DIR });
  await store.ensure(COLLECTIONS);
  const worker = createBullWorker({
    redisUrl: config.REDIS_URL,
    prefix: config.QUEUE_PREFIX,
    queues: ['import'],
    concurrency: config.WORKER_CONCURRENCY,
    handlers: timedAll(importJobHandlers({ store, site: siteFrom(config), config })),
  });
  await worker.start();
  process.stdout.write('ready\n');
  process.on('SIGTERM', async () => {
    await worker.close(10_000);
    await store.close();
    process.stdout.write(`${JSON.stringify({ maxRssBytes: process.resourceUsage().maxRSS * 1024, ...done })}\n`);
    process.exit(0);
  });
}

function timedAll(handlers: ReturnType<typeof importJobHandlers>): JobHandlers {
  return {
    // Only `events` steps count events.
    'import.batch': timed(handlers['import.batch'], (step) => (step.step === 'events' ? step.events.length : undefined)),
    // A whole feed in one job: its events are stored in the same process, step after step.
    'import.source': timed(handlers['import.source'], (_data, result) => result?.events ?? 0),
  };
}

/** The handler, timed; `eventsOf` tells how many events the job stored, or undefined when it stores none by itself. */
function timed<I, O>(handler: JobHandler<I, O>, eventsOf: (data: I, result: O) => number | undefined): JobHandler<I, O> {
  return async (data, job) => {
    const started = performance.now();
    const cpu = process.cpuUsage();
    const result = await handler(data, job);
    const ms = performance.now() - started;
    const used = process.cpuUsage(cpu);
    done.cpuMs += (used.user + used.system) / 1000;
    done.jobs++;
    done.busyMs += ms;
    const events = eventsOf(data, result);
    if (events !== undefined) {
      done.events += events;
      done.eventsMs += ms;
    }
    return result;
  };
}

main().catch((e) => {
  process.stderr.write(`import worker failed: ${(e as Error).message}\n`);
  process.exit(1);
});
