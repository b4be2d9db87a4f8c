/**
 * A BullMQ worker in a child process for the killed-worker test (libs/queue/bullmq.test.ts). Plain JS
 * on bullmq itself, because a child process cannot load TypeScript here; the test passes the lock
 * and stalled-check settings of libs/queue/bullmq.ts so this worker holds its jobs as a real one does.
 * It reports "ready" and "active <jobId>" on stdout and never finishes a job: the test kills it.
 */
const { Worker } = require('bullmq');
const { Redis } = require('ioredis');

const env = (name) => {
  const v = process.env[name];
  if (!v) throw new Error(`${name} is required`);
  return v;
};

const connection = new Redis(env('REDIS_URL'), { maxRetriesPerRequest: null });
const worker = new Worker(
  env('QUEUE'),
  async (job) => {
    process.stdout.write(`active ${job.id}\n`);
    await new Promise(() => {});
  },
  {
    connection,
    prefix: env('PREFIX'),
    lockDuration: Number(env('LOCK_DURATION_MS')),
    stalledInterval: Number(env('STALLED_INTERVAL_MS')),
    maxStalledCount: Number(env('MAX_STALLED_COUNT')),
  },
);
worker.on('error', (err) => process.stderr.write(`worker error: ${err.message}\n`));
worker.waitUntilReady().then(() => process.stdout.write('ready\n'));
