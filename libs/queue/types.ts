/**
 * Queued work. Jobs are named in one table (JOBS); each names the queue it runs on. A worker process
 * registers one handler per job name of the queues it consumes, and start-up fails when a job of those
 * queues has no handler or two. Two implementations share this interface: BullMQ on Redis, and the
 * inline executor of the all-in-one process without Redis.
 */
import type { BatchJob, BatchResult } from '../rest/batch';

export const QUEUES = ['batch', 'oembed', 'import', 'geocode'] as const;
export type QueueName = (typeof QUEUES)[number];

export const JOBS = {
  /** Runs the sub-requests of one POST /batch/v1 and returns their responses. */
  'batch.run': { queue: 'batch' },
  /** Fetches and caches one oEmbed proxy lookup. */
  'oembed.fetch': { queue: 'oembed' },
  /** Stores one batch of events of an aggregator import. */
  'import.batch': { queue: 'import' },
  /** Runs one import source: fetches its feed, parses it and stores its events. */
  'import.source': { queue: 'import' },
  /** Geocodes one venue's address (extended edition, libs/geocode/jobs.ts). */
  'geocode.venue': { queue: 'geocode' },
  /** Geocodes a place typed into the calendar's "Near" field (extended edition, libs/geocode/place.ts). */
  'geocode.place': { queue: 'geocode' },
} as const satisfies Record<string, { queue: QueueName }>;
export type JobName = keyof typeof JOBS;

export interface JobContext {
  /** Stable for the job across retries: the base of idempotency keys. */
  id: string;
  name: JobName;
  attempt: number;
  /**
   * Waits until the queue's rate allows one more outside request, and takes that turn: the calls of
   * `pace` over every consumer of the queue are at least the rate's interval apart (by Redis's clock
   * on BullMQ). A job calls it right before the request its rate protects, since the time between a
   * job's start (which the rate also spaces) and its request varies. Resolves at once on a queue
   * without a rate.
   */
  pace(): Promise<void>;
}

export type JobHandler<I = unknown, O = unknown> = (data: I, job: JobContext) => Promise<O>;

/**
 * What each job is given and what it returns, by job name. The jobs of libs are declared here; a
 * service declares its own jobs' payloads next to their handlers by augmenting this interface, since
 * libs/ cannot see its types:
 *
 *     declare module '../../libs/queue/types' {
 *       interface JobPayloads {
 *         'oembed.fetch': { data: LookupParams; result: FetchResult };
 *       }
 *     }
 *
 * A job of JOBS without an entry has `never` data, so it cannot be enqueued until it is declared. The
 * types hold for the producer; the worker still receives parsed JSON (a Date arrives as a string), so
 * a handler whose data may be malformed checks it at run time.
 */
export interface JobPayloads {
  'batch.run': { data: BatchJob; result: BatchResult };
}

/** The data a job of name K is enqueued with. */
export type JobData<K extends JobName> = K extends keyof JobPayloads ? JobPayloads[K]['data'] : never;
/** What a job of name K resolves with. */
export type JobResult<K extends JobName> = K extends keyof JobPayloads ? JobPayloads[K]['result'] : never;

/** The handlers a worker or the inline queue is given, at most one per job name, each typed by its job's payloads. */
export type JobHandlers = { [K in JobName]?: JobHandler<JobData<K>, JobResult<K>> };

/**
 * A queue's rate: at most one job started every `intervalMs`, over every consumer of the queue (BullMQ's
 * worker limiter, kept in Redis; the inline executor spaces the starts itself), and the calls of a
 * job's `pace` at least `intervalMs` apart.
 */
export interface QueueRate {
  intervalMs: number;
}

export interface EnqueueOptions {
  /** A caller-chosen job id; enqueuing the same id twice runs the job once. */
  jobId?: string;
  attempts?: number;
  /** Milliseconds to wait for the result (only for `run`). */
  timeoutMs?: number;
}

export interface JobQueue {
  readonly kind: 'bullmq' | 'inline';
  /** Enqueues a job and resolves with its result (rejects on failure after retries, or on timeout). */
  run<K extends JobName>(name: K, data: JobData<K>, options?: EnqueueOptions): Promise<JobResult<K>>;
  /** Enqueues a job without waiting; resolves with the job id. */
  enqueue<K extends JobName>(name: K, data: JobData<K>, options?: EnqueueOptions): Promise<string>;
  /**
   * Runs `name` with `data` every `everyMs`, the first time one period from now, once per period
   * however many workers consume the queue. Declaring a key again replaces its schedule; with
   * `keepExisting`, a key already scheduled keeps its timing (a restart re-declaring it does not
   * postpone its next run).
   */
  schedule<K extends JobName>(key: string, everyMs: number, name: K, data: JobData<K>, opts?: { keepExisting?: boolean }): Promise<void>;
  /** Ends the schedule `key` of job `name` (nothing happens when there is none). */
  unschedule(key: string, name: JobName): Promise<void>;
  /** Waiting + active jobs per queue (for /metrics). */
  depths(): Promise<Record<QueueName, number>>;
  /**
   * Workers connected to each queue (for the site health check), or null for the inline executor,
   * which runs every job in this process and has no workers to count.
   */
  workers(): Promise<Record<QueueName, number> | null>;
  ping(): Promise<void>;
  close(): Promise<void>;
}

export interface JobWorker {
  /** Starts consuming the given queues with the handlers; fails when a job lacks a handler or has two. */
  start(): Promise<void>;
  /** Stops taking jobs and waits for running ones (up to the timeout). */
  close(timeoutMs?: number): Promise<void>;
}

export class QueueTimeoutError extends Error {
  constructor(name: string, ms: number) {
    super(`job ${name} did not finish within ${ms} ms`);
    this.name = 'QueueTimeoutError';
  }
}

/**
 * The queue cannot take the job now (Redis is down or does not answer); the job was not enqueued, so
 * the caller may answer 503 and the client may send the request again.
 */
export class QueueUnavailableError extends Error {
  constructor(reason: string) {
    super(`the job queue is not available: ${reason}`);
    this.name = 'QueueUnavailableError';
  }
}

/**
 * A job that failed for good (after its last attempt, or at once when the handler threw an
 * `UnrecoverableError`). `message` is the job's failed reason, the message of the handler's last error.
 */
export class JobFailedError extends Error {
  readonly jobId: string;
  readonly jobName: JobName;
  readonly failedReason: string;
  constructor(jobName: JobName, jobId: string, failedReason: string) {
    super(failedReason);
    this.name = 'JobFailedError';
    this.jobId = jobId;
    this.jobName = jobName;
    this.failedReason = failedReason;
  }
}

/**
 * Thrown by a handler whose resource asks it to wait (an HTTP 429 with Retry-After): the job's queue
 * starts no job for `ms`, over every consumer, and this job runs again after it without using an attempt.
 */
export class QueuePauseError extends Error {
  readonly ms: number;
  constructor(ms: number, reason: string) {
    super(`${reason}; the queue waits ${ms} ms`);
    this.name = 'QueuePauseError';
    this.ms = ms;
  }
}
