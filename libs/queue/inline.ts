/**
 * The JobQueue of the all-in-one process without Redis: jobs run in this process, with BullMQ's
 * semantics so code behaves the same on both: data and results pass through JSON (a Date arrives as
 * a string, `undefined` data as `{}`, an `undefined` result as `null`), each attempt gets a fresh copy
 * of the data, failed attempts are retried with exponential backoff, the job id is stable across
 * attempts, an `UnrecoverableError` is not retried, and a jobId already known runs nothing new.
 * A queue with a rate starts its jobs spaced by it; a QueuePauseError holds the queue's starts for its
 * time and runs the job again without using an attempt, as on BullMQ.
 * Jobs live in memory only: a restart loses those not yet finished.
 */
import { observeJob } from '../observability/metrics';
import {
  KEEP_COMPLETED,
  KEEP_FAILED,
  attemptsFor,
  backoffDelay,
  handlerOf,
  isJobName,
  isUnrecoverable,
  jobIdFor,
  paceWith,
  pauseOf,
  queueOf,
  reasonOf,
  zeroPerQueue,
  DEFAULT_RUN_TIMEOUT_MS,
} from './options';
import {
  JobFailedError,
  QueueTimeoutError,
  type EnqueueOptions,
  type JobContext,
  type JobData,
  type JobHandlers,
  type JobName,
  type JobResult,
  type JobQueue,
  type QueueName,
  type QueueRate,
} from './types';

type Outcome = { ok: true; value: unknown } | { ok: false; reason: string };

interface Entry {
  id: string;
  name: JobName;
  queue: QueueName;
  state: 'waiting' | 'active' | 'delayed' | 'completed' | 'failed';
  finishedAt?: number;
  /** Settles with the outcome; never rejects, so a job nobody waits for is no unhandled rejection. */
  done: Promise<Outcome>;
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export function createInlineQueue(handlers: JobHandlers, opts: { rates?: Partial<Record<QueueName, QueueRate>> } = {}): JobQueue {
  const unknown = Object.keys(handlers).filter((name) => !isJobName(name));
  if (unknown.length) throw new Error(`inline queue: handler given for unknown job(s) ${unknown.join(', ')}`);

  /** Jobs by `${queue}/${id}`, in insertion order (BullMQ ids are unique per queue). */
  const jobs = new Map<string, Entry>();
  const running = new Set<Promise<Outcome>>();
  /** Schedules by key: this process is the only consumer, so a timer per schedule runs each period once. */
  const timers = new Map<string, NodeJS.Timeout>();
  let closed = false;
  /** Per queue: when its next job may start (its rate), and until when it is paused (QueuePauseError). */
  const nextStart = new Map<QueueName, number>();
  const pausedUntil = new Map<QueueName, number>();
  /** Per queue with a rate: when a job last took a turn with `pace`. */
  const lastPaced = new Map<QueueName, number>();

  function pace(queue: QueueName): Promise<void> {
    const rate = opts.rates?.[queue];
    if (!rate) return Promise.resolve();
    return paceWith(() => {
      const now = performance.now();
      const wait = (lastPaced.get(queue) ?? -Infinity) + rate.intervalMs - now;
      if (wait <= 0) lastPaced.set(queue, now);
      return Math.ceil(wait);
    });
  }

  /** Waits for the queue's next start, when it has a rate or is paused, and takes it. */
  async function startSlot(queue: QueueName): Promise<void> {
    const rate = opts.rates?.[queue];
    for (;;) {
      const now = Date.now();
      const at = Math.max(nextStart.get(queue) ?? 0, pausedUntil.get(queue) ?? 0);
      if (at <= now) {
        if (rate) nextStart.set(queue, now + rate.intervalMs);
        return;
      }
      await sleep(at - now);
    }
  }

  /** Forgets finished jobs past the retention BullMQ applies (age and count), which ends their deduplication. */
  function prune(now: number): void {
    let completed = 0;
    let failed = 0;
    for (const e of jobs.values()) {
      if (e.state === 'completed') completed++;
      else if (e.state === 'failed') failed++;
    }
    for (const [key, e] of jobs) {
      if (e.finishedAt === undefined) continue;
      const keep = e.state === 'completed' ? KEEP_COMPLETED : KEEP_FAILED;
      const over = e.state === 'completed' ? completed > keep.count : failed > keep.count;
      if (over || now - e.finishedAt > keep.age * 1000) {
        jobs.delete(key);
        if (e.state === 'completed') completed--;
        else failed--;
      }
    }
  }

  /** Runs `attempt` (the handler on a fresh copy of the job's data) until it succeeds or its attempts are used up. */
  async function execute(entry: Entry, runAttempt: (job: JobContext) => Promise<unknown>, attempts: number): Promise<Outcome> {
    // Start on a later turn, as a queue would: the caller's enqueue returns before the handler runs.
    await new Promise<void>((resolve) => setImmediate(resolve));
    for (let attempt = 1; ; attempt++) {
      await startSlot(entry.queue);
      entry.state = 'active';
      const started = performance.now();
      try {
        const result = await runAttempt({ id: entry.id, name: entry.name, attempt, pace: () => pace(entry.queue) });
        const value = result === undefined ? null : JSON.parse(JSON.stringify(result));
        observeJob(entry.name, 'completed', (performance.now() - started) / 1000);
        entry.state = 'completed';
        entry.finishedAt = Date.now();
        return { ok: true, value };
      } catch (err) {
        const pause = pauseOf(err);
        if (pause !== null) {
          observeJob(entry.name, 'retry', (performance.now() - started) / 1000);
          pausedUntil.set(entry.queue, Math.max(pausedUntil.get(entry.queue) ?? 0, Date.now() + pause));
          entry.state = 'waiting';
          attempt--;
          continue;
        }
        const final = isUnrecoverable(err) || attempt >= attempts;
        observeJob(entry.name, final ? 'failed' : 'retry', (performance.now() - started) / 1000);
        if (final) {
          entry.state = 'failed';
          entry.finishedAt = Date.now();
          return { ok: false, reason: reasonOf(err) };
        }
        entry.state = 'delayed';
        await sleep(backoffDelay(attempt));
      }
    }
  }

  function add(name: JobName, data: unknown, options: EnqueueOptions): Entry {
    if (closed) throw new Error('queue is closed');
    const queue = queueOf(name);
    const handler = handlerOf(handlers, name);
    if (!handler) throw new Error(`no handler for job "${name}" in the inline queue`);
    const id = jobIdFor(options.jobId);
    const attempts = attemptsFor(options.attempts);
    prune(Date.now());
    const key = `${queue}/${id}`;
    const existing = jobs.get(key);
    if (existing) return existing;
    const payload = JSON.stringify(data === undefined ? {} : data);
    const entry: Entry = { id, name, queue, state: 'waiting', done: Promise.resolve({ ok: false, reason: 'not started' }) };
    entry.done = execute(entry, (job) => handler(JSON.parse(payload), job), attempts);
    running.add(entry.done);
    void entry.done.then(() => running.delete(entry.done));
    jobs.set(key, entry);
    return entry;
  }

  return {
    kind: 'inline',

    async run<K extends JobName>(name: K, data: JobData<K>, options: EnqueueOptions = {}): Promise<JobResult<K>> {
      const timeoutMs = options.timeoutMs ?? DEFAULT_RUN_TIMEOUT_MS;
      if (!Number.isFinite(timeoutMs) || timeoutMs <= 0) throw new Error(`timeoutMs must be a positive number, got ${options.timeoutMs}`);
      const entry = add(name, data, options);
      let timer: NodeJS.Timeout | undefined;
      const timedOut = new Promise<'timeout'>((resolve) => {
        timer = setTimeout(() => resolve('timeout'), timeoutMs);
      });
      try {
        // The job goes on after a timeout, as on BullMQ; close() still waits for it.
        const outcome = await Promise.race([entry.done, timedOut]);
        if (outcome === 'timeout') throw new QueueTimeoutError(name, timeoutMs);
        if (!outcome.ok) throw new JobFailedError(entry.name, entry.id, outcome.reason);
        // The boundary of the inline queue: the value is the JSON copy of what the handler of `name`
        // returned (as BullMQ's result is, untyped), under the job id the caller chose.
        return outcome.value as JobResult<K>;
      } finally {
        clearTimeout(timer);
      }
    },

    async enqueue<K extends JobName>(name: K, data: JobData<K>, options: EnqueueOptions = {}): Promise<string> {
      return add(name, data, options).id;
    },

    async schedule<K extends JobName>(key: string, everyMs: number, name: K, data: JobData<K>, opts: { keepExisting?: boolean } = {}): Promise<void> {
      if (closed) throw new Error('queue is closed');
      if (opts.keepExisting && timers.has(key)) return;
      clearInterval(timers.get(key));
      const timer = setInterval(() => {
        if (!closed) add(name, data, { jobId: `repeat-${key}-${Math.floor(Date.now() / everyMs)}` });
      }, everyMs);
      timer.unref();
      timers.set(key, timer);
    },

    async unschedule(key: string, _name: JobName): Promise<void> {
      clearInterval(timers.get(key));
      timers.delete(key);
    },

    async depths(): Promise<Record<QueueName, number>> {
      const out = zeroPerQueue();
      for (const e of jobs.values()) {
        if (e.state !== 'completed' && e.state !== 'failed') out[e.queue]++;
      }
      return out;
    },

    async workers(): Promise<null> {
      return null;
    },

    async ping(): Promise<void> {
      if (closed) throw new Error('queue is closed');
    },

    async close(): Promise<void> {
      closed = true;
      for (const timer of timers.values()) clearInterval(timer);
      timers.clear();
      // Jobs still running, retrying or waiting for their backoff finish first: they exist nowhere else.
      while (running.size) await Promise.all([...running]);
    },
  };
}
