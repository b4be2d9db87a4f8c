/**
 * Queued work. Jobs are named in one table (JOBS); each names the queue it runs on. A worker process
 * registers one handler per job name of the queues it consumes, and start-up fails when a job of those
 * queues has no handler or two. Two implementations share this interface: BullMQ on Redis, and the
 * inline executor of the all-in-one process without Redis.
 */

export const QUEUES = ['batch', 'oembed', 'import'] as const;
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
} as const satisfies Record<string, { queue: QueueName }>;
export type JobName = keyof typeof JOBS;

export interface JobContext {
  /** Stable for the job across retries: the base of idempotency keys. */
  id: string;
  name: JobName;
  attempt: number;
}

export type JobHandler<I = unknown, O = unknown> = (data: I, job: JobContext) => Promise<O>;

/**
 * The handlers a worker or the inline queue is given, one per job name. Data is typed `any` here so a
 * handler may declare the shape it expects (job data arrives as parsed JSON; handlers check it).
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- until job payloads are typed per job name
export type JobHandlers = Partial<Record<JobName, JobHandler<any>>>;

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
  run<O = unknown>(name: JobName, data: unknown, options?: EnqueueOptions): Promise<O>;
  /** Enqueues a job without waiting; resolves with the job id. */
  enqueue(name: JobName, data: unknown, options?: EnqueueOptions): Promise<string>;
  /**
   * Runs `name` with `data` every `everyMs`, the first time one period from now, once per period
   * however many workers consume the queue. Declaring a key again replaces its schedule; with
   * `keepExisting`, a key already scheduled keeps its timing (a restart re-declaring it does not
   * postpone its next run).
   */
  schedule(key: string, everyMs: number, name: JobName, data: unknown, opts?: { keepExisting?: boolean }): Promise<void>;
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
