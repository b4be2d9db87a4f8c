import { UnrecoverableError } from 'bullmq';
import { openQueue } from './index';
import { createInlineQueue } from './inline';
import { JobFailedError, QueueTimeoutError, type JobContext, type JobHandlers } from './types';
import { loose, typed, type LooseHandlers, type LooseQueue } from '../../test/support/loose-queue';
import { redisPrefix } from '../../test/support/redis-prefix';

const toClose: LooseQueue[] = [];

function open(handlers: LooseHandlers): LooseQueue {
  const queue = loose(createInlineQueue(typed(handlers)));
  toClose.push(queue);
  return queue;
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
  for (const q of toClose.splice(0)) await q.close();
});

describe('inline queue', () => {
  test('run resolves with the handler result; data and result pass through JSON as on BullMQ', async () => {
    const queue = open({ 'batch.run': async (data, job) => ({ data, job, when: new Date(0), gone: undefined }) });
    expect(queue.kind).toBe('inline');

    const result = await queue.run<{ data: unknown; job: JobContext; when: unknown }>('batch.run', { a: 1, at: new Date(0) });
    expect(result).toEqual({ data: { a: 1, at: '1970-01-01T00:00:00.000Z' }, job: result.job, when: '1970-01-01T00:00:00.000Z' });
    expect(result.job).toEqual({ id: expect.stringMatching(/^[0-9a-f-]{36}$/), name: 'batch.run', attempt: 1 });

    const none = open({ 'batch.run': async () => undefined });
    await expect(none.run('batch.run', undefined)).resolves.toBeNull();
  });

  test('a job failing on every attempt rejects with its failed reason after the default 3 attempts', async () => {
    const attempts: number[] = [];
    const queue = open({
      'batch.run': async (_data, job) => {
        attempts.push(job.attempt);
        throw new Error(`boom on attempt ${job.attempt}`);
      },
    });

    const failure = await queue.run('batch.run', {}).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(JobFailedError);
    expect(failure).toMatchObject({ message: 'boom on attempt 3', failedReason: 'boom on attempt 3', jobName: 'batch.run' });
    expect(attempts).toEqual([1, 2, 3]);
  });

  test('attempts can be lowered per job, and an UnrecoverableError is not retried', async () => {
    let calls = 0;
    const queue = open({
      'batch.run': async (data: { unrecoverable?: boolean }) => {
        calls += 1;
        throw data.unrecoverable ? new UnrecoverableError('bad input') : new Error('once');
      },
    });

    await expect(queue.run('batch.run', {}, { attempts: 1 })).rejects.toThrow('once');
    expect(calls).toBe(1);
    await expect(queue.run('batch.run', { unrecoverable: true })).rejects.toThrow('bad input');
    expect(calls).toBe(2);
  });

  test('a job that fails and then succeeds keeps one job id, and each attempt gets fresh data', async () => {
    const seen: Array<Omit<JobContext, 'pace'>> = [];
    const queue = open({
      'batch.run': async (data: { n: number; touched?: boolean }, job) => {
        seen.push({ id: job.id, name: job.name, attempt: job.attempt });
        if (data.touched) throw new Error('data leaked between attempts');
        data.touched = true;
        if (job.attempt < 3) throw new Error('not yet');
        return { n: data.n * 2 };
      },
    });

    await expect(queue.run('batch.run', { n: 21 }, { jobId: 'retry-1' })).resolves.toEqual({ n: 42 });
    expect(seen).toEqual([
      { id: 'retry-1', name: 'batch.run', attempt: 1 },
      { id: 'retry-1', name: 'batch.run', attempt: 2 },
      { id: 'retry-1', name: 'batch.run', attempt: 3 },
    ]);
  });

  test('run rejects with QueueTimeoutError when the result does not come in time; the job still finishes', async () => {
    const release = gate();
    const queue = open({
      'batch.run': async () => {
        await release.opened;
        return 'late';
      },
    });

    await expect(queue.run('batch.run', {}, { jobId: 'slow-job', timeoutMs: 50 })).rejects.toBeInstanceOf(QueueTimeoutError);
    release.open();
    await expect(queue.run('batch.run', {}, { jobId: 'slow-job', timeoutMs: 20000 })).resolves.toBe('late');
  });

  test('a job without a handler is refused with its name; a handler for an unknown job fails at creation', async () => {
    const queue = open({ 'batch.run': async () => null });
    await expect(queue.run('oembed.fetch', {})).rejects.toThrow('no handler for job "oembed.fetch"');
    await expect(queue.enqueue('oembed.fetch', {})).rejects.toThrow('no handler for job "oembed.fetch"');
    expect(() => createInlineQueue({ 'batch.runn': async () => null } as JobHandlers)).toThrow('batch.runn');
  });

  test('enqueuing the same jobId twice runs the job once', async () => {
    let calls = 0;
    const queue = open({
      'batch.run': async (data: { v: number }) => {
        calls += 1;
        return data.v;
      },
    });

    expect(await queue.enqueue('batch.run', { v: 1 }, { jobId: 'dedup-1' })).toBe('dedup-1');
    expect(await queue.enqueue('batch.run', { v: 2 }, { jobId: 'dedup-1' })).toBe('dedup-1');
    await expect(queue.run('batch.run', { v: 3 }, { jobId: 'dedup-1' })).resolves.toBe(1);
    expect(calls).toBe(1);
    await expect(queue.enqueue('batch.run', {}, { jobId: '42' })).rejects.toThrow('must not be an integer');
  });

  test('depths counts unfinished jobs per queue', async () => {
    const release = gate();
    const queue = open({
      'batch.run': async () => {
        await release.opened;
      },
      'import.batch': async () => null,
    });

    await queue.enqueue('batch.run', {});
    await queue.enqueue('batch.run', {});
    await expect(queue.depths()).resolves.toEqual({ batch: 2, oembed: 0, import: 0, geocode: 0 });
    // Jobs run in this process: there are no workers to count.
    await expect(queue.workers()).resolves.toBeNull();
    release.open();
    await queue.close();
    await expect(queue.depths()).resolves.toEqual({ batch: 0, oembed: 0, import: 0, geocode: 0 });
    await expect(queue.ping()).rejects.toThrow('closed');
  });

  test('close waits for jobs running in the background, including their retries', async () => {
    const release = gate();
    const attempts: number[] = [];
    const queue = open({
      'batch.run': async (_data, job) => {
        attempts.push(job.attempt);
        if (job.attempt === 1) throw new Error('retry me');
        await release.opened;
      },
    });

    await queue.enqueue('batch.run', {});
    let closed = false;
    const closing = queue.close().then(() => {
      closed = true;
    });
    await sleep(300);
    expect(closed).toBe(false);
    release.open();
    await closing;
    expect(attempts).toEqual([1, 2]);
    await expect(queue.enqueue('batch.run', {})).rejects.toThrow('queue is closed');
  });

  test("a rated queue's jobs pace their requests at least the interval apart, however long each job took to reach it", async () => {
    const paced: number[] = [];
    const handler = async (data: never, job: JobContext) => {
      await sleep((data as { delay: number }).delay);
      await job.pace();
      paced.push(performance.now());
    };
    const queue = loose(createInlineQueue(typed({ 'geocode.venue': handler }), { rates: { geocode: { intervalMs: 400 } } }));
    toClose.push(queue);
    // The starts are spaced 400 ms apart; a job that takes 300 ms to reach its request would otherwise send it 100 ms before the next.
    await Promise.all([300, 0, 300, 0].map((delay, i) => queue.run('geocode.venue', { delay }, { jobId: `paced-${i}` })));
    expect(paced).toHaveLength(4);
    for (let i = 1; i < paced.length; i++) expect(paced[i] - paced[i - 1]).toBeGreaterThanOrEqual(300);

    // A queue without a rate does not wait: its pace settles before any timer could fire.
    const free = open({ 'batch.run': async (_data, job) => Promise.race([job.pace().then(() => 'paced'), sleep(0).then(() => 'timer')]) });
    expect(await free.run('batch.run', {})).toBe('paced');
  });
});

describe('openQueue', () => {
  test('runs jobs inline without REDIS_URL', async () => {
    const queue = loose(openQueue({ QUEUE_PREFIX: 'unused' }, typed({ 'oembed.fetch': async (data: { url: string }) => data.url })));
    toClose.push(queue);
    expect(queue.kind).toBe('inline');
    await expect(queue.run('oembed.fetch', { url: 'https://example.com/' })).resolves.toBe('https://example.com/');
  });

  test('opens BullMQ with REDIS_URL', async () => {
    const queue = loose(openQueue({ REDIS_URL: process.env.TEST_REDIS_URL, QUEUE_PREFIX: await redisPrefix('openqueue') }, {}));
    toClose.push(queue);
    expect(queue.kind).toBe('bullmq');
    await expect(queue.ping()).resolves.toBeUndefined();
  });
});
