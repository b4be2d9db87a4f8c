/**
 * Waiting on Redis: a bounded wait that never rejects, and which ioredis errors mean Redis cannot be
 * reached now (the producer answers 503 for those, the worker retries), and the wait for a job's end.
 */
import type { EventEmitter } from 'node:events';
import { Job, type Queue, type QueueEvents } from 'bullmq';

/** Resolves true when `p` settles within `ms`, false otherwise; never rejects. */
export async function settlesWithin(p: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), ms);
  });
  try {
    return await Promise.race([
      p.then(
        () => true,
        () => true,
      ),
      timeout,
    ]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Errors of ioredis that mean Redis is not reachable now: the connection is down or closed, a command
 * timed out, or its retries ran out. A command refused this way did not reach Redis, except a timed-out
 * one, which Redis may still run (only a Redis that stops answering without closing the connection).
 */
export function isConnectionError(err: unknown): boolean {
  if (!(err instanceof Error)) return false;
  if (err.name === 'MaxRetriesPerRequestError') return true;
  const m = err.message;
  return (
    m.includes("Stream isn't writeable") ||
    m === 'Connection is closed.' ||
    m === 'Command timed out' ||
    /\bECONNREFUSED\b|\bECONNRESET\b|\bEPIPE\b|\bETIMEDOUT\b/.test(m)
  );
}

export const WAIT_TIMED_OUT = new Error('job wait timed out');

/**
 * What the job returned, from its completed event; its failure reason, from its failed event; or
 * WAIT_TIMED_OUT after `ttlMs`. The job's state is read once after the listeners are set, for a job that
 * finished before them. BullMQ's own `waitUntilFinished` reads that state inside a promise executor, so
 * when Redis goes away at that moment its rejection is unhandled and ends the process; here a failed
 * read only means waiting on for the events or the time-out.
 */
export function untilFinished(job: Job, queue: Queue, queueEvents: QueueEvents, ttlMs: number): Promise<unknown> {
  const id = job.id!;
  // BullMQ emits per-job events (`completed:<id>`) and 'closing' without declaring them in its types.
  const events = queueEvents as unknown as EventEmitter;
  const closing = queue as unknown as EventEmitter;
  return new Promise((resolve, reject) => {
    let settled = false;
    const finish = (settle: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      events.off(`completed:${id}`, onCompleted);
      events.off(`failed:${id}`, onFailed);
      closing.off('closing', onClosing);
      settle();
    };
    const onCompleted = (args: { returnvalue: unknown }) => finish(() => resolve(args.returnvalue));
    const onFailed = (args: { failedReason: string }) => finish(() => reject(new Error(args.failedReason)));
    const onClosing = () => finish(() => reject(new Error('the queue is closing')));
    const timer = setTimeout(() => finish(() => reject(WAIT_TIMED_OUT)), ttlMs);
    events.on(`completed:${id}`, onCompleted);
    events.on(`failed:${id}`, onFailed);
    closing.on('closing', onClosing);
    (async () => {
      const state = await job.getState();
      if (state !== 'completed' && state !== 'failed') return;
      const stored = await Job.fromId(queue, id);
      if (!stored) return;
      if (state === 'completed') onCompleted({ returnvalue: stored.returnvalue });
      else onFailed({ failedReason: stored.failedReason });
    })().catch(() => undefined);
  });
}
