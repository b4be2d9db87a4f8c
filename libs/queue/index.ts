/**
 * The queue layer: BullMQ when Redis is configured, else the in-process executor (all-in-one only).
 * Handlers throw `UnrecoverableError` for a failure that no retry can fix.
 */
import { createBullQueue } from './bullmq';
import { createInlineQueue } from './inline';
import type { JobHandlers, JobQueue, QueueName, QueueRate } from './types';

export * from './types';
export { UnrecoverableError } from 'bullmq';
export {
  createBullQueue,
  createBullWorker,
  DEFAULT_CLOSE_TIMEOUT_MS,
  WORKER_LOCK_DURATION_MS,
  WORKER_MAX_STALLED_COUNT,
  WORKER_STALLED_INTERVAL_MS,
  type BullQueueOptions,
  type BullWorkerOptions,
} from './bullmq';
export { createInlineQueue } from './inline';
export {
  BACKOFF_BASE_MS,
  DEFAULT_ATTEMPTS,
  DEFAULT_RUN_TIMEOUT_MS,
  JOB_NAMES,
  KEEP_COMPLETED,
  KEEP_FAILED,
  checkHandlers,
  handlerOf,
  isJobName,
  isQueueName,
} from './options';

/**
 * The producer side for a process. With REDIS_URL it is BullMQ, and `handlers` are not used here: jobs
 * run wherever a worker (`createBullWorker`) consumes them, possibly in this same process. Without
 * REDIS_URL the handlers run in-process.
 */
export function openQueue(
  config: { REDIS_URL?: string; QUEUE_PREFIX: string },
  handlers: JobHandlers,
  rates?: Partial<Record<QueueName, QueueRate>>,
): JobQueue {
  if (config.REDIS_URL) return createBullQueue({ redisUrl: config.REDIS_URL, prefix: config.QUEUE_PREFIX });
  return createInlineQueue(handlers, { rates });
}
