/**
 * How the gateway answers `POST /batch/v1`: the batch is recorded in the ledger (libs/rest/batch-ledger.ts),
 * queued, and its answer awaited from the job, or from the ledger when the queue cannot tell (its
 * connection died while the job ran: the worker records the result in the store before it answers). A
 * batch either answers with what happened (207), or answers 503 having done nothing (the queue could
 * not take it, or no worker started it in time: the gateway cancels the run, and a worker that gets it
 * later does nothing). Only a batch still running when the wait ends answers 504, saying so.
 *
 * `Idempotency-Key` makes a batch safe to send again: its result is remembered for a day per user and
 * key; the same key and body gets the first answer (`Idempotent-Replayed: true`), or waits for it while
 * the first request runs, or runs again when the first did nothing; the same key with another body is
 * refused with 422.
 */
import {
  BatchLedger,
  KEYED_BATCH_TTL_MS,
  UNKEYED_BATCH_TTL_MS,
  batchFingerprint,
  keyedBatchId,
  unkeyedBatchId,
  type BatchEntry,
} from '#libs/rest/batch-ledger';
import type { BatchJob, BatchResult } from '#libs/rest/batch';
import { RETRY_AFTER_SECONDS, RestError, unavailableFor } from '#libs/rest/errors';
import type { RestOutput } from '#libs/rest/server';
import { JobFailedError, QueueTimeoutError, type JobQueue } from '#libs/queue/types';
import { logger } from '#libs/observability/logger';

const log = logger.child({ component: 'batch' });

/** How often the gateway reads the ledger while it waits for a batch's job. */
export const BATCH_POLL_MS = 250;
/** The longest Idempotency-Key taken. */
const MAX_KEY_LENGTH = 255;

export interface BatchDeps {
  queue: JobQueue;
  ledger: BatchLedger;
  /** How long a request waits for its batch (BATCH_TIMEOUT_MS). */
  timeoutMs: number;
  pollMs?: number;
}

/**
 * The Idempotency-Key header's value: visible ASCII, at most 255 characters, taken as sent or as a
 * quoted string (the IETF draft writes it as a structured-field string). Undefined when absent.
 */
export function idempotencyKey(header: string | string[] | undefined): string | undefined {
  if (header === undefined) return undefined;
  const raw = (Array.isArray(header) ? header.join(',') : header).trim();
  const key = /^"[^"\\]*"$/.test(raw) ? raw.slice(1, -1) : raw;
  if (!key || key.length > MAX_KEY_LENGTH || !/^[\x21-\x7e]+$/.test(key.replace(/ /g, '!'))) {
    throw new RestError('rest_invalid_idempotency_key', `Idempotency-Key must be 1 to ${MAX_KEY_LENGTH} visible ASCII characters.`, 400);
  }
  return key;
}

const answered = (result: BatchResult, replayed = false): RestOutput => ({
  status: 207,
  headers: replayed ? { 'Idempotent-Replayed': 'true' } : {},
  body: result,
});

const refused = (e: RestError): RestOutput => ({ status: e.status, headers: {}, body: e.toJSON() });

/** The answer of a run that was cancelled before any of it ran. */
const notRun = () =>
  refused(
    new RestError('rest_service_unavailable', 'The batch could not be started in time, and nothing of it was done; send it again later.', 503, {
      retry_after: RETRY_AFTER_SECONDS,
    }),
  );

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms).unref());

export async function answerBatch(deps: BatchDeps, job: BatchJob, header: string | string[] | undefined): Promise<RestOutput> {
  const key = idempotencyKey(header);
  const user = job.user?.id ?? 0;
  const fresh = { id: key === undefined ? unkeyedBatchId() : keyedBatchId(user, key), user, hash: batchFingerprint(job) };
  const entry = await deps.ledger.open(fresh, key === undefined ? UNKEYED_BATCH_TTL_MS : KEYED_BATCH_TTL_MS);
  if (entry.state === 'done' && entry.result) return answered(entry.result, true);
  const out = await runAndWait(deps, { ...job, ledger: { id: entry.id, run: entry.run } }, entry);
  // Nobody asks for a batch without a key again: once it is over, its result need not be kept (a job of it
  // run again finds no entry and does nothing). One still running keeps its entry until it expires.
  if (key === undefined && out.status !== 504) await deps.ledger.remove(entry.id).catch(() => undefined);
  return out;
}

type QueueOutcome = { result: BatchResult } | { error: unknown };

async function runAndWait(deps: BatchDeps, job: BatchJob, entry: BatchEntry): Promise<RestOutput> {
  const { id, run } = entry;
  const pollMs = deps.pollMs ?? BATCH_POLL_MS;
  const deadline = Date.now() + deps.timeoutMs;
  let outcome: QueueOutcome | undefined;
  let queueFailureSeen = false;
  // The same job id for every request of this run: a second request with the key joins the first's job.
  const viaQueue = deps.queue.run('batch.run', job, { jobId: `${id}-${run}`, timeoutMs: deps.timeoutMs }).then(
    (result): QueueOutcome => (outcome = { result }),
    (error: unknown): QueueOutcome => (outcome = { error }),
  );
  for (;;) {
    const left = deadline - Date.now();
    if (!outcome && left > 0) await Promise.race([viaQueue, sleep(Math.min(pollMs, left))]);
    if (outcome && 'result' in outcome) return answered(outcome.result);
    if (outcome && !queueFailureSeen && !(outcome.error instanceof QueueTimeoutError)) {
      queueFailureSeen = true;
      const settled = await afterQueueError(deps, outcome.error, id, run);
      if (settled) return settled;
    }
    // The job's answer may not come (the queue's connection died after the job was taken): the ledger tells.
    const now = await deps.ledger.byId(id).catch(() => null);
    if (now?.run === run && now.state === 'done' && now.result) return answered(now.result);
    if (now?.run === run && now.state === 'cancelled') return notRun();
    if (Date.now() >= deadline) break;
    if (outcome) await sleep(Math.min(pollMs, Math.max(0, deadline - Date.now())));
  }
  // No answer in time: a run no worker has started is cancelled, so it never runs.
  if (await deps.ledger.cancel(id, run).catch(() => false)) return notRun();
  const last = await deps.ledger.byId(id).catch(() => null);
  if (last?.run === run && last.state === 'done' && last.result) return answered(last.result);
  return refused(
    new RestError(
      'rest_batch_timeout',
      'The batch is still running and did not finish in time. Send it again with the same Idempotency-Key to get its answer once it has finished.',
      504,
    ),
  );
}

/**
 * What to answer when the queue failed to run the job: the queue could not take it (a run no worker
 * has started is cancelled: 503, nothing done), or the job failed for good (500, the run recorded as
 * failed, so sending it again runs the rest). Undefined when a worker has the run all the same (another
 * request of the key queued it): then the ledger is awaited.
 */
async function afterQueueError(deps: BatchDeps, error: unknown, id: string, run: number): Promise<RestOutput | undefined> {
  if (error instanceof JobFailedError) {
    const now = await deps.ledger.byId(id);
    if (now?.run === run && now.state === 'done' && now.result) return answered(now.result);
    if (now?.run === run && now.state === 'cancelled') return notRun();
    log.error({ err: error, batch: id }, 'batch failed');
    await deps.ledger.fail(id, run);
    return refused(new RestError('rest_batch_failed', 'The batch could not be run. Send it again with the same Idempotency-Key to finish it.', 500));
  }
  const down = unavailableFor(error);
  if (!down) throw error;
  log.warn({ err: error, batch: id }, 'batch not queued');
  if (await deps.ledger.cancel(id, run).catch(() => false)) return refused(down);
  return undefined;
}
