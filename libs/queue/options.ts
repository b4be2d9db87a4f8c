/**
 * What the BullMQ queue and the inline executor share, so both run a job the same way: attempts,
 * backoff, the default wait of `run`, job ids, the start-up check of handlers, and the wait of `pace`.
 */
import { randomUUID } from 'node:crypto';
import { JOBS, QUEUES, type JobData, type JobHandler, type JobHandlers, type JobName, type JobResult, type QueueName } from './types';

/** Attempts of a job when the caller gives none (the first run plus two retries). */
export const DEFAULT_ATTEMPTS = 3;
/** Exponential backoff: the n-th retry waits BACKOFF_BASE_MS * 2^(n-1) (500 ms, 1 s, 2 s, ...). */
export const BACKOFF_BASE_MS = 500;
/** How long `run` waits for a result when the caller gives no `timeoutMs`. */
export const DEFAULT_RUN_TIMEOUT_MS = 60_000;
/** Finished jobs are kept this long (and at most this many per queue) so a repeated jobId is deduplicated. */
export const KEEP_COMPLETED = { age: 3600, count: 1000 } as const;
/** Failed jobs are kept longer, for inspection. */
export const KEEP_FAILED = { age: 24 * 3600, count: 5000 } as const;

/**
 * A job's `pace` on a queue with a rate: `take` takes the queue's turn when the interval since the last
 * one taken has passed (returning 0), else returns the milliseconds left, which are waited before it
 * is asked again (another consumer may take the turn first).
 */
export async function paceWith(take: () => Promise<number> | number): Promise<void> {
  for (;;) {
    const wait = await take();
    if (!(wait > 0)) return;
    await new Promise<void>((resolve) => setTimeout(resolve, wait));
  }
}

export function backoffDelay(failedAttempts: number): number {
  return BACKOFF_BASE_MS * 2 ** (failedAttempts - 1);
}

export function isJobName(name: string): name is JobName {
  return Object.prototype.hasOwnProperty.call(JOBS, name);
}

/**
 * The handler of job `name`. Through the generic K its type follows the name; with a name of type
 * JobName it takes the data of any job (what a worker has: parsed JSON, which the handler checks).
 */
export function handlerOf<K extends JobName>(handlers: JobHandlers, name: K): JobHandler<JobData<K>, JobResult<K>> | undefined {
  return handlers[name];
}

/** Every job name, in the order of JOBS. */
export const JOB_NAMES: readonly JobName[] = Object.keys(JOBS).filter(isJobName);

export function isQueueName(name: string): name is QueueName {
  return QUEUES.some((q) => q === name);
}

/** A count per queue, each 0 (a queue added to QUEUES must be added here). */
export function zeroPerQueue(): Record<QueueName, number> {
  return { batch: 0, oembed: 0, import: 0, geocode: 0 };
}

export function queueOf(name: JobName): QueueName {
  if (!isJobName(name)) throw new Error(`unknown job "${String(name)}"; known jobs: ${Object.keys(JOBS).join(', ')}`);
  return JOBS[name].queue;
}

/**
 * A caller's jobId, checked by BullMQ's rules (so both executors accept the same ids), or a fresh UUID.
 * Random ids rather than BullMQ's per-queue counter: job ids are the base of idempotency keys, and a
 * counter starts again at 1 when Redis loses its data.
 */
export function jobIdFor(jobId: string | undefined): string {
  if (jobId === undefined) return randomUUID();
  if (typeof jobId !== 'string' || jobId === '') throw new Error('jobId must be a non-empty string');
  if (`${parseInt(jobId, 10)}` === jobId) throw new Error(`jobId "${jobId}" must not be an integer`);
  if (jobId.includes(':')) throw new Error(`jobId "${jobId}" must not contain ":"`);
  return jobId;
}

export function attemptsFor(attempts: number | undefined): number {
  if (attempts === undefined) return DEFAULT_ATTEMPTS;
  if (!Number.isInteger(attempts) || attempts < 1) throw new Error(`attempts must be a whole number >= 1, got ${attempts}`);
  return attempts;
}

/**
 * The start-up check of a worker: every job of a consumed queue has exactly one handler, and no handler
 * is given for a job of a queue the worker does not consume (that job would never run here, which is
 * almost always a wiring mistake). A record cannot hold two handlers for one name, so "exactly one"
 * means "present".
 */
export function checkHandlers(queues: readonly QueueName[], handlers: Partial<Record<string, unknown>>): void {
  const problems: string[] = [];
  for (const name of Object.keys(handlers)) {
    if (!isJobName(name)) problems.push(`handler given for unknown job "${name}"`);
    else if (!queues.includes(JOBS[name].queue)) {
      problems.push(`handler given for job "${name}" of queue "${JOBS[name].queue}", which this worker does not consume`);
    } else if (typeof handlers[name] !== 'function') problems.push(`handler for job "${name}" is not a function`);
  }
  for (const [name, spec] of Object.entries(JOBS)) {
    if (queues.includes(spec.queue) && handlers[name] === undefined) {
      problems.push(`no handler for job "${name}" of consumed queue "${spec.queue}"`);
    }
  }
  if (problems.length) throw new Error(`Invalid queue worker setup:\n  - ${problems.join('\n  - ')}`);
}

/** The rejection reason of a failed attempt, as BullMQ records it (the error's message). */
export function reasonOf(err: unknown): string {
  if (err instanceof Error) return err.message;
  return String(err);
}

/** A QueuePauseError (by name, as a worker's jobs may come from another copy of the module): how long the queue waits. */
export function pauseOf(err: unknown): number | null {
  if (!(err instanceof Error) || err.name !== 'QueuePauseError') return null;
  const ms = (err as { ms?: unknown }).ms;
  return typeof ms === 'number' && Number.isFinite(ms) && ms >= 0 ? ms : null;
}

/** BullMQ retries no more when a handler throws an error named UnrecoverableError; the inline executor agrees. */
export function isUnrecoverable(err: unknown): boolean {
  return err instanceof Error && err.name === 'UnrecoverableError';
}
