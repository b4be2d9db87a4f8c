import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { EventEmitter } from 'node:events';
import { UnrecoverableError, type Job, type Queue, type QueueEvents } from 'bullmq';
import { WORKER_LOCK_DURATION_MS, WORKER_MAX_STALLED_COUNT, WORKER_STALLED_INTERVAL_MS, PRODUCER_WAIT_MS, createBullQueue, createBullWorker } from './bullmq';
import { WAIT_TIMED_OUT, untilFinished } from './waits';
import { JobFailedError, QueueTimeoutError, QueueUnavailableError, type JobContext, type JobWorker, type QueueName } from './types';
import { loose, typed, type LooseHandlers } from '../../test/support/loose-queue';
import { clearRedisPrefix, redisPrefix } from '../../test/support/redis-prefix';

const redisUrl = process.env.TEST_REDIS_URL as string;
// Unique per run (checked empty) and per test below, so tests share no keys with each other or with anything else in Redis.
let basePrefix: string;
let counter = 0;
const toClose: Array<() => Promise<void>> = [];
const children: ChildProcess[] = [];

function newPrefix(): string {
  counter += 1;
  return `${basePrefix}-${counter}`;
}

function open(handlers: LooseHandlers, queues: QueueName[] = ['batch'], prefix = newPrefix()) {
  const queue = loose(createBullQueue({ redisUrl, prefix }));
  const worker = createBullWorker({ redisUrl, prefix, queues, concurrency: 2, handlers: typed(handlers) });
  toClose.push(
    () => worker.close(30000),
    () => queue.close(),
  );
  return { prefix, queue, worker };
}

function gate() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { open, opened };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

afterEach(async () => {
  for (const child of children.splice(0)) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  // Workers first (they wait for their jobs), then producers.
  for (const close of toClose.splice(0)) await close();
});

beforeAll(async () => {
  basePrefix = await redisPrefix('bullmq');
});

afterAll(async () => {
  if (basePrefix) await clearRedisPrefix(basePrefix);
});

describe('BullMQ queue and worker', () => {
  test('run resolves with the handler result; the handler sees the job id, name and attempt', async () => {
    const { queue, worker } = open({ 'batch.run': async (data, job) => ({ data, job }) });
    await worker.start();

    const result = await queue.run<{ data: unknown; job: JobContext }>('batch.run', { a: 1 });
    expect(result.data).toEqual({ a: 1 });
    expect(result.job.name).toBe('batch.run');
    expect(result.job.attempt).toBe(1);
    expect(result.job.id).toMatch(/^[0-9a-f-]{36}$/);

    const named = await queue.run<{ job: JobContext }>('batch.run', {}, { jobId: 'batch-named-1' });
    expect(named.job.id).toBe('batch-named-1');
  });

  test('a job failing on every attempt rejects with its failed reason after the default 3 attempts', async () => {
    const attempts: number[] = [];
    const { queue, worker } = open({
      'batch.run': async (_data, job) => {
        attempts.push(job.attempt);
        throw new Error(`boom on attempt ${job.attempt}`);
      },
    });
    await worker.start();

    const failure = await queue.run('batch.run', {}).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(JobFailedError);
    expect(failure).toMatchObject({ message: 'boom on attempt 3', failedReason: 'boom on attempt 3', jobName: 'batch.run' });
    expect(attempts).toEqual([1, 2, 3]);
  });

  test('attempts can be lowered per job, and an UnrecoverableError is not retried', async () => {
    let calls = 0;
    const { queue, worker } = open({
      'batch.run': async (data: { unrecoverable?: boolean }) => {
        calls += 1;
        throw data.unrecoverable ? new UnrecoverableError('bad input') : new Error('once');
      },
    });
    await worker.start();

    await expect(queue.run('batch.run', {}, { attempts: 1 })).rejects.toThrow('once');
    expect(calls).toBe(1);
    await expect(queue.run('batch.run', { unrecoverable: true })).rejects.toThrow('bad input');
    expect(calls).toBe(2);
  });

  test('a job that fails and then succeeds keeps one job id across its attempts', async () => {
    const seen: JobContext[] = [];
    const { queue, worker } = open({
      'batch.run': async (data: { n: number }, job) => {
        seen.push(job);
        if (job.attempt < 3) throw new Error('not yet');
        return { n: data.n * 2 };
      },
    });
    await worker.start();

    await expect(queue.run('batch.run', { n: 21 })).resolves.toEqual({ n: 42 });
    expect(seen.map((j) => j.attempt)).toEqual([1, 2, 3]);
    expect(new Set(seen.map((j) => j.id)).size).toBe(1);
  });

  test('run rejects with QueueTimeoutError when the result does not come in time; the job still finishes', async () => {
    const release = gate();
    const { queue, worker } = open({
      'batch.run': async () => {
        await release.opened;
        return 'late';
      },
    });
    await worker.start();

    await expect(queue.run('batch.run', {}, { jobId: 'slow-job', timeoutMs: 200 })).rejects.toBeInstanceOf(QueueTimeoutError);
    release.open();
    // The same jobId is the same job: waiting on it again yields the result it finished with.
    await expect(queue.run('batch.run', {}, { jobId: 'slow-job', timeoutMs: 20000 })).resolves.toBe('late');
  });

  test('start fails, naming the job, when a consumed job has no handler', async () => {
    const worker = createBullWorker({
      redisUrl,
      prefix: newPrefix(),
      queues: ['batch', 'oembed'],
      concurrency: 1,
      handlers: typed({ 'batch.run': async () => null }),
    });
    await expect(worker.start()).rejects.toThrow('no handler for job "oembed.fetch"');
    await worker.close();
  });

  test('start fails, naming the job, when a handler is given for a queue the worker does not consume', async () => {
    const worker = createBullWorker({
      redisUrl,
      prefix: newPrefix(),
      queues: ['batch'],
      concurrency: 1,
      handlers: typed({ 'batch.run': async () => null, 'import.batch': async () => null }),
    });
    await expect(worker.start()).rejects.toThrow(/job "import\.batch" of queue "import", which this worker does not consume/);
    await worker.close();
  });

  test('start fails for an unknown queue', async () => {
    const worker = createBullWorker({
      redisUrl,
      prefix: newPrefix(),
      queues: ['batch', 'nope' as QueueName],
      concurrency: 1,
      handlers: typed({ 'batch.run': async () => null }),
    });
    await expect(worker.start()).rejects.toThrow('unknown queue(s) nope');
    await worker.close();
  });

  test('enqueuing the same jobId twice runs the job once', async () => {
    let calls = 0;
    const { queue, worker } = open({
      'batch.run': async (data: { v: number }) => {
        calls += 1;
        return data.v;
      },
    });

    expect(await queue.enqueue('batch.run', { v: 1 }, { jobId: 'dedup-1' })).toBe('dedup-1');
    expect(await queue.enqueue('batch.run', { v: 2 }, { jobId: 'dedup-1' })).toBe('dedup-1');
    expect((await queue.depths()).batch).toBe(1);

    await worker.start();
    await expect(queue.run('batch.run', { v: 3 }, { jobId: 'dedup-1' })).resolves.toBe(1);
    expect(calls).toBe(1);
  });

  test('jobIds that BullMQ cannot store are refused', async () => {
    const { queue } = open({ 'batch.run': async () => null });
    await expect(queue.enqueue('batch.run', {}, { jobId: '42' })).rejects.toThrow('must not be an integer');
    await expect(queue.enqueue('batch.run', {}, { jobId: 'a:b' })).rejects.toThrow('must not contain ":"');
  });

  test('depths counts the jobs not yet finished per queue; ping answers', async () => {
    const { queue } = open({ 'batch.run': async () => null });
    await queue.enqueue('batch.run', {});
    await queue.enqueue('batch.run', {});
    await queue.enqueue('oembed.fetch', {});
    await expect(queue.depths()).resolves.toEqual({ batch: 2, oembed: 1, import: 0, geocode: 0 });
    await expect(queue.ping()).resolves.toBeUndefined();
  });

  test('workers counts the workers connected to each queue', async () => {
    const { queue, worker } = open({ 'batch.run': async () => null });
    await expect(queue.workers()).resolves.toEqual({ batch: 0, oembed: 0, import: 0, geocode: 0 });
    await worker.start();
    await expect(queue.workers()).resolves.toEqual({ batch: 1, oembed: 0, import: 0, geocode: 0 });
  });

  test('close waits for the active job to finish and takes no new jobs', async () => {
    const release = gate();
    const started = gate();
    const { queue, worker } = open({
      'batch.run': async (data: { v: string }) => {
        started.open();
        await release.opened;
        return data.v;
      },
    });
    await worker.start();

    const result = queue.run('batch.run', { v: 'finished' }, { timeoutMs: 20000 });
    await started.opened;
    let closed = false;
    const closing = worker.close(20000).then(() => {
      closed = true;
    });
    await sleep(300);
    expect(closed).toBe(false);

    release.open();
    await closing;
    await expect(result).resolves.toBe('finished');

    await queue.enqueue('batch.run', { v: 'after close' });
    await sleep(300);
    expect((await queue.depths()).batch).toBe(1);
  });

  test('close stops waiting after its timeout; the running job still finishes in the background', async () => {
    const release = gate();
    const started = gate();
    const { queue, worker } = open({
      'batch.run': async () => {
        started.open();
        await release.opened;
        return 'done anyway';
      },
    });
    await worker.start();

    const jobId = await queue.enqueue('batch.run', {});
    await started.opened;
    await worker.close(200);
    expect((await queue.depths()).batch).toBe(1);

    release.open();
    await expect(queue.run('batch.run', {}, { jobId, timeoutMs: 20000 })).resolves.toBe('done anyway');
  });

  test('a job whose worker process is killed mid-job is finished by another worker', async () => {
    const prefix = newPrefix();
    const child = spawn(process.execPath, [path.join(__dirname, '../../test/support/bullmq-crash-worker.js')], {
      env: {
        ...process.env,
        REDIS_URL: redisUrl,
        PREFIX: prefix,
        QUEUE: 'batch',
        LOCK_DURATION_MS: String(WORKER_LOCK_DURATION_MS),
        STALLED_INTERVAL_MS: String(WORKER_STALLED_INTERVAL_MS),
        MAX_STALLED_COUNT: String(WORKER_MAX_STALLED_COUNT),
      },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    children.push(child);
    const lines = createInterface({ input: child.stdout! });
    const nextLine = (pattern: RegExp) =>
      new Promise<RegExpMatchArray>((resolve, reject) => {
        const onLine = (line: string) => {
          const m = line.match(pattern);
          if (m) {
            lines.off('line', onLine);
            resolve(m);
          }
        };
        lines.on('line', onLine);
        child.once('exit', (code, signal) => reject(new Error(`crash worker exited (${code ?? signal}) before printing ${pattern}`)));
      });

    await nextLine(/^ready$/);
    const queue = loose(createBullQueue({ redisUrl, prefix }));
    toClose.push(() => queue.close());
    const result = queue.run('batch.run', { v: 7 }, { timeoutMs: 100000 });
    result.catch(() => undefined);

    const [, activeId] = await nextLine(/^active (\S+)$/);
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGKILL');
    await exited;

    const survivor: JobWorker = createBullWorker({
      redisUrl,
      prefix,
      queues: ['batch'],
      concurrency: 1,
      handlers: typed({ 'batch.run': async (data: { v: number }, job) => ({ by: 'survivor', v: data.v, id: job.id }) }),
    });
    toClose.unshift(() => survivor.close(30000));
    await survivor.start();

    await expect(result).resolves.toEqual({ by: 'survivor', v: 7, id: activeId });
  }, 120000);
});

describe('a rated queue on BullMQ', () => {
  test('jobs on two workers pace their requests at least the interval apart, however long each job took to reach it', async () => {
    const prefix = newPrefix();
    const paced: number[] = [];
    const handler = async (data: never, job: JobContext) => {
      await sleep((data as { delay: number }).delay);
      await job.pace();
      paced.push(Date.now());
    };
    const rates = { geocode: { intervalMs: 400 } };
    const queue = loose(createBullQueue({ redisUrl, prefix }));
    toClose.push(() => queue.close());
    for (let w = 0; w < 2; w++) {
      const worker = createBullWorker({
        redisUrl,
        prefix,
        queues: ['geocode'],
        concurrency: 2,
        handlers: typed({ 'geocode.venue': handler, 'geocode.place': handler }),
        rates,
      });
      toClose.unshift(() => worker.close(30000));
      await worker.start();
    }
    // BullMQ's limiter spaces the starts 400 ms apart; a job that takes 300 ms to reach its request would otherwise send it 100 ms before the next.
    await Promise.all([300, 0, 300, 0].map((delay, i) => queue.run('geocode.venue', { delay }, { jobId: `paced-${i}` })));
    expect(paced).toHaveLength(4);
    paced.sort((a, b) => a - b);
    // Redis's clock decides; the local times are taken when each answer is read, which a loaded machine delays by tens of ms.
    for (let i = 1; i < paced.length; i++) expect(paced[i] - paced[i - 1]).toBeGreaterThanOrEqual(300);
  });
});

describe('BullMQ producer without Redis', () => {
  test('run and enqueue refuse with QueueUnavailableError within the bound instead of hanging', async () => {
    // A port where nothing listens: the producer never gets a connection.
    const net = await import('node:net');
    const port = await new Promise<number>((resolve) => {
      const srv = net.createServer().listen(0, '127.0.0.1', () => {
        const p = (srv.address() as import('node:net').AddressInfo).port;
        srv.close(() => resolve(p));
      });
    });
    const queue = loose(createBullQueue({ redisUrl: `redis://127.0.0.1:${port}`, prefix: newPrefix() }));
    toClose.push(() => queue.close());
    const started = Date.now();
    await expect(queue.run('batch.run', { n: 1 })).rejects.toBeInstanceOf(QueueUnavailableError);
    await expect(queue.enqueue('batch.run', { n: 2 })).rejects.toBeInstanceOf(QueueUnavailableError);
    expect(Date.now() - started).toBeLessThan(4 * PRODUCER_WAIT_MS);
    await expect(queue.ping()).rejects.toThrow();
  });
});

describe('waiting for a job', () => {
  // Stand-ins for BullMQ's objects: the wait uses their events and the job's state read only.
  const fakes = (getState: () => Promise<string>) => {
    const queueEvents = new EventEmitter();
    const queue = new EventEmitter();
    const job = { id: 'j1', getState };
    return { queueEvents, queue, job: job as unknown as Job };
  };
  const asQueue = (e: EventEmitter) => e as unknown as Queue;
  const asEvents = (e: EventEmitter) => e as unknown as QueueEvents;

  it('waits on for the events when the state read fails (Redis gone), with no unhandled rejection', async () => {
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', onUnhandled);
    try {
      const { queueEvents, queue, job } = fakes(() => Promise.reject(new Error('Reached the max retries per request limit (which is 1).')));
      const waiting = untilFinished(job, asQueue(queue), asEvents(queueEvents), 5000);
      await sleep(50);
      queueEvents.emit('completed:j1', { returnvalue: { done: 1 } });
      await expect(waiting).resolves.toEqual({ done: 1 });
      const timing = untilFinished(job, asQueue(queue), asEvents(queueEvents), 100);
      await expect(timing).rejects.toBe(WAIT_TIMED_OUT);
      await sleep(50);
      expect(unhandled).toEqual([]);
      expect(queueEvents.listenerCount('completed:j1') + queueEvents.listenerCount('failed:j1') + queue.listenerCount('closing')).toBe(0);
    } finally {
      process.off('unhandledRejection', onUnhandled);
    }
  });

  it('rejects with the failure reason, and when the queue closes', async () => {
    const { queueEvents, queue, job } = fakes(() => Promise.resolve('active'));
    const failing = untilFinished(job, asQueue(queue), asEvents(queueEvents), 5000);
    queueEvents.emit('failed:j1', { failedReason: 'boom' });
    await expect(failing).rejects.toThrow('boom');
    const closing = untilFinished(job, asQueue(queue), asEvents(queueEvents), 5000);
    queue.emit('closing');
    await expect(closing).rejects.toThrow('the queue is closing');
  });
});
