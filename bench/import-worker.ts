/**
 * A worker process for the import benchmark: consumes the `import` queue (BullMQ) with the same
 * `import.batch` handler the `worker` role runs, over the embedded store the benchmark's service uses
 * (the `worker` role itself requires MongoDB, which cannot run on these machines). Prints its peak
 * RSS as JSON when stopped with SIGTERM.
 */
import { loadConfig } from '../libs/config/env';
import { COLLECTIONS } from '../libs/data/collections';
import { createBullWorker } from '../libs/queue';
import { siteFrom } from '../libs/rest/site';
import { openStore } from '../libs/store';
import { importJobHandlers } from '../services/aggregator/jobs';

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
    handlers: importJobHandlers({ store, site: siteFrom(config) }),
  });
  await worker.start();
  process.stdout.write('ready\n');
  process.on('SIGTERM', async () => {
    await worker.close(10_000);
    await store.close();
    process.stdout.write(`${JSON.stringify({ maxRssBytes: process.resourceUsage().maxRSS * 1024 })}\n`);
    process.exit(0);
  });
}

main().catch((e) => {
  process.stderr.write(`import worker failed: ${(e as Error).message}\n`);
  process.exit(1);
});
