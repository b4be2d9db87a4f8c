/**
 * The JobQueue and JobWorker on BullMQ (Redis). Each queue of QUEUES is a BullMQ queue of that name
 * under `prefix`; a job's BullMQ name is its JobName. Producers (`createBullQueue`) and consumers
 * (`createBullWorker`) are separate, so gateways enqueue and worker pods consume.
 */
import { Queue, QueueEvents, UnrecoverableError, Worker, type Job, type JobsOptions } from 'bullmq';
import { Redis } from 'ioredis';
import { logger } from '../observability/logger';
import { observeJob } from '../observability/metrics';
import {
  BACKOFF_BASE_MS,
  DEFAULT_ATTEMPTS,
  DEFAULT_RUN_TIMEOUT_MS,
  KEEP_COMPLETED,
  KEEP_FAILED,
  attemptsFor,
  checkHandlers,
  handlerOf,
  isJobName,
  isQueueName,
  isUnrecoverable,
  jobIdFor,
  paceWith,
  pauseOf,
  queueOf,
  reasonOf,
  zeroPerQueue,
} from './options';
import { WAIT_TIMED_OUT, isConnectionError, settlesWithin, untilFinished } from './waits';
import {
  JobFailedError,
  QUEUES,
  QueueTimeoutError,
  QueueUnavailableError,
  type EnqueueOptions,
  type JobData,
  type JobHandlers,
  type JobName,
  type JobResult,
  type JobQueue,
  type JobWorker,
  type QueueName,
  type QueueRate,
} from './types';

const log = logger.child({ component: 'queue' });

/**
 * Recovery of jobs whose worker died (SIGKILL, OOM, lost node). A worker holds a lock per active job
 * for WORKER_LOCK_DURATION_MS and renews it every half of that; a dead worker's lock lapses. Every
 * WORKER_STALLED_INTERVAL_MS one live worker (BullMQ coordinates this through Redis) marks the active
 * jobs and, at the next check, moves those still without a lock back to waiting. So a killed worker's
 * job runs again on another worker within lockDuration + stalledInterval = 25 s at worst (usually less).
 * The lock is not shorter because a worker whose event loop is blocked for more than half the lock
 * (7.5 s) would lose its job to another worker while still running it; BullMQ's default 30 s would
 * delay recovery to a minute.
 */
export const WORKER_LOCK_DURATION_MS = 15_000;
export const WORKER_STALLED_INTERVAL_MS = 10_000;
/** A job may lose its worker once and run again; a second loss fails it (a job that kills its worker). */
export const WORKER_MAX_STALLED_COUNT = 1;
/** Grace period of `JobWorker.close()` when the caller gives none. */
export const DEFAULT_CLOSE_TIMEOUT_MS = 10_000;
/**
 * How long a producer waits for Redis before it gives up on enqueuing (QueueUnavailableError, a 503 for
 * the client): the bound of every producer command and of the wait for a connection. The producer
 * connection keeps no offline queue, so a job is either in Redis or refused, never sent later on its own.
 */
export const PRODUCER_WAIT_MS = 3_000;
const PING_TIMEOUT_MS = 2_000;
/** Bound of each step of closing a producer. */
const CLOSE_STEP_MS = 2_000;

const DEFAULT_JOB_OPTIONS: JobsOptions = {
  attempts: DEFAULT_ATTEMPTS,
  backoff: { type: 'exponential', delay: BACKOFF_BASE_MS },
  removeOnComplete: { ...KEEP_COMPLETED },
  removeOnFail: { ...KEEP_FAILED },
};

export interface BullQueueOptions {
  redisUrl: string;
  /** Key prefix of every queue in Redis. */
  prefix: string;
}

export interface BullWorkerOptions extends BullQueueOptions {
  queues: QueueName[];
  /** Jobs run at once per consumed queue. */
  concurrency: number;
  handlers: JobHandlers;
  /** Queues whose job starts are spaced over every worker (BullMQ's limiter, kept in Redis). */
  rates?: Partial<Record<QueueName, QueueRate>>;
}

/** `p`, or QueueUnavailableError when Redis is down or `p` takes longer than PRODUCER_WAIT_MS. */
async function available<T>(p: Promise<T>, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new QueueUnavailableError(`${what} within ${PRODUCER_WAIT_MS} ms`)), PRODUCER_WAIT_MS);
  });
  try {
    return await Promise.race([p, timeout]);
  } catch (err) {
    throw isConnectionError(err) ? new QueueUnavailableError(reasonOf(err)) : err;
  } finally {
    clearTimeout(timer);
  }
}

function checkTimeout(timeoutMs: number | undefined): number {
  const ms = timeoutMs ?? DEFAULT_RUN_TIMEOUT_MS;
  if (!Number.isFinite(ms) || ms <= 0) throw new Error(`timeoutMs must be a positive number, got ${timeoutMs}`);
  return ms;
}

export function createBullQueue(opts: BullQueueOptions): JobQueue {
  const { prefix } = opts;
  const connection = new Redis(opts.redisUrl, { maxRetriesPerRequest: 1, enableOfflineQueue: false, commandTimeout: PRODUCER_WAIT_MS });
  connection.on('error', (err) => log.warn({ err }, 'redis connection error (producer)'));
  // QueueEvents reads with blocking XREAD on a connection of its own, which it duplicates from this
  // one; lazyConnect keeps the template itself from ever connecting.
  const blockingTemplate = new Redis(opts.redisUrl, { maxRetriesPerRequest: null, lazyConnect: true });

  /** Resolves when the producer connection is ready; one shared wait while it is (re)connecting. */
  let whenReady: Promise<void> | undefined;
  function connectionReady(): Promise<void> {
    if (connection.status === 'ready') return Promise.resolve();
    whenReady ??= new Promise<void>((resolve) =>
      connection.once('ready', () => {
        whenReady = undefined;
        resolve();
      }),
    );
    return whenReady;
  }

  const queues = new Map<QueueName, Queue>();
  const events = new Map<QueueName, Promise<QueueEvents>>();
  let closing: Promise<void> | undefined;

  function queueFor(q: QueueName): Queue {
    if (closing) throw new Error('queue is closed');
    let queue = queues.get(q);
    if (!queue) {
      queue = new Queue(q, { connection, prefix, defaultJobOptions: DEFAULT_JOB_OPTIONS });
      queue.on('error', (err) => log.warn({ err, queue: q }, 'queue error'));
      queues.set(q, queue);
    }
    return queue;
  }

  /** The event listener `run` waits on, one per queue, created at the first `run` of that queue. */
  function eventsFor(q: QueueName): Promise<QueueEvents> {
    let pending = events.get(q);
    if (!pending) {
      pending = (async () => {
        // Read the event stream from Redis' current time rather than from '$' ("new events"): '$' is
        // fixed only when the first XREAD reaches Redis, and a job finishing before that would be missed.
        await connectionReady();
        const [sec, usec] = await connection.time();
        const nowMs = Number(sec) * 1000 + Math.floor(Number(usec) / 1000);
        const queueEvents = new QueueEvents(q, { connection: blockingTemplate, prefix, lastEventId: `${nowMs - 1}-0` });
        queueEvents.on('error', (err) => log.warn({ err, queue: q }, 'queue events error'));
        await queueEvents.waitUntilReady();
        return queueEvents;
      })();
      // A failed start (Redis down) is retried by the next `run`.
      pending.catch(() => events.delete(q));
      events.set(q, pending);
    }
    return pending;
  }

  /** Adds the job; resolves with its id (BullMQ's job id is the one given). */
  async function add(name: JobName, data: unknown, options: EnqueueOptions): Promise<{ job: Job; jobId: string }> {
    const queue = queueFor(queueOf(name));
    const jobId = jobIdFor(options.jobId);
    const attempts = attemptsFor(options.attempts);
    // The connection is awaited here, bounded, so a job is never added after its caller gave up.
    await available(Promise.all([queue.waitUntilReady(), connectionReady()]), 'no connection to Redis');
    try {
      // Adding an id that is already stored returns that job and runs nothing: the deduplication.
      return { job: await queue.add(name, data, { jobId, attempts }), jobId };
    } catch (err) {
      throw isConnectionError(err) ? new QueueUnavailableError(reasonOf(err)) : err;
    }
  }

  return {
    kind: 'bullmq',

    async run<K extends JobName>(name: K, data: JobData<K>, options: EnqueueOptions = {}): Promise<JobResult<K>> {
      const timeoutMs = checkTimeout(options.timeoutMs);
      const queueEvents = await available(eventsFor(queueOf(name)), 'the job events cannot be read');
      const { job, jobId } = await add(name, data, options);
      try {
        // The result comes back from Redis as parsed JSON (BullMQ types it `any`): what the handler returned.
        return (await untilFinished(job, queueFor(queueOf(name)), queueEvents, timeoutMs)) as JobResult<K>;
      } catch (err) {
        if (err === WAIT_TIMED_OUT) throw new QueueTimeoutError(name, timeoutMs);
        throw new JobFailedError(name, jobId, reasonOf(err));
      }
    },

    async enqueue<K extends JobName>(name: K, data: JobData<K>, options: EnqueueOptions = {}): Promise<string> {
      return (await add(name, data, options)).jobId;
    },

    async schedule<K extends JobName>(key: string, everyMs: number, name: K, data: JobData<K>, opts: { keepExisting?: boolean } = {}): Promise<void> {
      const queue = queueFor(queueOf(name));
      if (opts.keepExisting && (await queue.getJobScheduler(key))) return;
      // BullMQ's scheduler makes one job per period, with an id derived from the period: however many
      // producers declare it and workers consume the queue, each period runs once.
      await queue.upsertJobScheduler(key, { every: everyMs, startDate: Date.now() + everyMs }, { name, data, opts: { attempts: attemptsFor(undefined) } });
    },

    async unschedule(key: string, name: JobName): Promise<void> {
      await queueFor(queueOf(name)).removeJobScheduler(key);
    },

    async depths(): Promise<Record<QueueName, number>> {
      const out = zeroPerQueue();
      await Promise.all(
        QUEUES.map(async (q) => {
          const counts = await queueFor(q).getJobCounts('waiting', 'prioritized', 'active', 'delayed');
          out[q] = Object.values(counts).reduce((a, b) => a + b, 0);
        }),
      );
      return out;
    },

    async workers(): Promise<Record<QueueName, number>> {
      const out = zeroPerQueue();
      await Promise.all(
        QUEUES.map(async (q) => {
          out[q] = await queueFor(q).getWorkersCount();
        }),
      );
      return out;
    },

    async ping(): Promise<void> {
      if (closing) throw new Error('queue is closed');
      const answered = connectionReady().then(() => connection.ping());
      answered.catch(() => undefined);
      if (!(await settlesWithin(answered, PING_TIMEOUT_MS))) throw new Error(`redis did not answer PING within ${PING_TIMEOUT_MS} ms`);
      await answered;
    },

    close(): Promise<void> {
      if (!closing) {
        closing = (async () => {
          // With Redis down, the listeners and queues would wait for a connection for ever; each step is
          // bounded, and a connection that is not up has nothing to flush.
          if (connection.status !== 'ready') connection.disconnect();
          const listeners: QueueEvents[] = [];
          const pending = [...events.values()].map((p) =>
            p.then(
              (l) => void listeners.push(l),
              () => undefined,
            ),
          );
          await settlesWithin(Promise.all(pending), CLOSE_STEP_MS);
          await settlesWithin(Promise.allSettled(listeners.map((l) => l.close())), CLOSE_STEP_MS);
          await settlesWithin(Promise.allSettled([...queues.values()].map((q) => q.close())), CLOSE_STEP_MS);
          await connection.quit().catch(() => connection.disconnect());
          blockingTemplate.disconnect();
        })();
      }
      return closing;
    },
  };
}

/**
 * A job's `pace` in Redis: KEYS[1] holds when (Redis's clock, µs) the queue's turn was last taken, and
 * lives one interval (plus a margin). Returns 0 when this call takes the turn, else the ms to wait.
 */
const PACE_SCRIPT = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000000 + tonumber(t[2])
local interval = tonumber(ARGV[1]) * 1000
local last = tonumber(redis.call('GET', KEYS[1]))
if last and now < last + interval then return math.ceil((last + interval - now) / 1000) end
redis.call('SET', KEYS[1], tostring(now), 'PX', tonumber(ARGV[1]) + 1000)
return 0
`;

export function createBullWorker(opts: BullWorkerOptions): JobWorker {
  let workers: Worker[] = [];
  let connection: Redis | undefined;
  let state: 'new' | 'starting' | 'started' | 'closed' = 'new';
  let closing: Promise<void> | undefined;

  function pace(queue: string): Promise<void> {
    const rate = isQueueName(queue) ? opts.rates?.[queue] : undefined;
    const conn = connection;
    if (!rate || !conn) return Promise.resolve();
    const key = `${opts.prefix}:${queue}:pace`;
    return paceWith(async () => Number(await conn.eval(PACE_SCRIPT, 1, key, String(rate.intervalMs))));
  }

  async function processJob(job: Job): Promise<unknown> {
    const name = job.name;
    const handler = isJobName(name) ? handlerOf(opts.handlers, name) : undefined;
    if (!isJobName(name) || !handler) throw new UnrecoverableError(`no handler for job "${name}" in this worker`);
    // Jobs fetched by a worker always have an id (BullMQ types it optional for jobs not yet added).
    const id = job.id;
    if (id === undefined) throw new UnrecoverableError(`job "${name}" has no id`);
    const attempt = job.attemptsMade + 1;
    const started = performance.now();
    try {
      const result = await handler(job.data, { id, name, attempt, pace: () => pace(job.queueName) });
      observeJob(name, 'completed', (performance.now() - started) / 1000);
      return result;
    } catch (err) {
      const pause = pauseOf(err);
      const worker = pause === null ? undefined : workers.find((w) => w.name === job.queueName);
      if (pause !== null && worker) {
        // The queue starts nothing for `pause` ms (in Redis, so on every worker); the job waits again without using an attempt.
        observeJob(name, 'retry', (performance.now() - started) / 1000);
        await worker.rateLimit(pause);
        throw Worker.RateLimitError();
      }
      const final = isUnrecoverable(err) || attempt >= (job.opts.attempts ?? 1);
      observeJob(name, final ? 'failed' : 'retry', (performance.now() - started) / 1000);
      // BullMQ records err.message as the failed reason; keep it meaningful for non-Error throws.
      throw err instanceof Error ? err : new Error(String(err));
    }
  }

  return {
    async start(): Promise<void> {
      if (state !== 'new') throw new Error(`worker cannot start: it is ${state}`);
      const queues = [...new Set(opts.queues)];
      const unknown = queues.filter((q) => !isQueueName(q));
      if (queues.length === 0) throw new Error('Invalid queue worker setup: no queue to consume');
      if (unknown.length) throw new Error(`Invalid queue worker setup: unknown queue(s) ${unknown.join(', ')}; known: ${QUEUES.join(', ')}`);
      if (!Number.isInteger(opts.concurrency) || opts.concurrency < 1) {
        throw new Error(`Invalid queue worker setup: concurrency must be a whole number >= 1, got ${opts.concurrency}`);
      }
      checkHandlers(queues, opts.handlers);
      state = 'starting';

      const conn = new Redis(opts.redisUrl, { maxRetriesPerRequest: null });
      connection = conn;
      conn.on('error', (err) => log.warn({ err }, 'redis connection error (worker)'));
      workers = queues.map((q) => {
        const worker = new Worker(q, processJob, {
          connection: conn,
          prefix: opts.prefix,
          concurrency: opts.concurrency,
          autorun: false,
          lockDuration: WORKER_LOCK_DURATION_MS,
          stalledInterval: WORKER_STALLED_INTERVAL_MS,
          maxStalledCount: WORKER_MAX_STALLED_COUNT,
          ...(opts.rates?.[q] ? { limiter: { max: 1, duration: opts.rates[q].intervalMs } } : {}),
        });
        worker.on('error', (err) => log.warn({ err, queue: q }, 'worker error'));
        worker.on('failed', (job, err) =>
          log.warn({ queue: q, job: job?.name, jobId: job?.id, attempt: job?.attemptsMade, err: err.message }, 'job attempt failed'),
        );
        return worker;
      });
      try {
        await Promise.all(workers.map((w) => w.waitUntilReady()));
      } catch (err) {
        await Promise.allSettled(workers.map((w) => w.close(true)));
        conn.disconnect();
        state = 'closed';
        throw err;
      }
      // close() may have been called while connecting; then nothing is started.
      if (state !== 'starting') return;
      for (const w of workers) w.run().catch((err) => log.error({ err, queue: w.name }, 'worker stopped'));
      state = 'started';
      log.info({ queues, concurrency: opts.concurrency }, 'queue worker started');
    },

    close(timeoutMs: number = DEFAULT_CLOSE_TIMEOUT_MS): Promise<void> {
      if (!closing) {
        closing = (async () => {
          state = 'closed';
          if (!connection) return;
          const conn = connection;
          // Worker.close() stops fetching at once and resolves when its active jobs have finished; the
          // shared connection is closed after it, whether or not the caller waited that long.
          const workersClosed = Promise.allSettled(workers.map((w) => w.close()));
          const connectionClosed = workersClosed.then(() => conn.quit().catch(() => conn.disconnect()));
          if (!(await settlesWithin(connectionClosed, timeoutMs))) {
            // The jobs go on (their locks are still renewed) rather than being cut off: closing the
            // connection under BullMQ makes it retry the job's completion in a tight loop. If the process
            // exits now, the locks lapse and another worker runs the jobs again (WORKER_LOCK_DURATION_MS).
            log.warn({ timeoutMs }, 'jobs still running at the end of the shutdown grace period');
          }
        })();
      }
      return closing;
    },
  };
}
