/**
 * The batch ledger: one record per `POST /batch/v1` request (or per Idempotency-Key of a user), in the
 * store that both the gateway and the workers reach, so what became of a batch never depends on the job
 * queue alone. Its state moves one way per run, each move a single conditional write:
 *
 *   queued ──claim (a worker, before any sub-request)──▶ running ──finish──▶ done (with the result)
 *     └──cancel (the gateway, giving up)──▶ cancelled          └──fail (the job failed for good)──▶ failed
 *
 * A run the gateway cancelled was never claimed, so nothing of it was done, and a worker that gets its
 * job later (a queue that took the job after all, a retry) finds it cancelled and does nothing. A
 * request with the same key and body reopens a cancelled or failed batch as a new run; its sub-requests
 * keep their idempotency keys (the ledger id), so a failed run's done part is found, not repeated.
 */
import { createHash, randomUUID } from 'node:crypto';
import { UnrecoverableError } from '../queue';
import { Repository } from '../store/repository';
import { DuplicateKeyError, type Doc, type Store } from '../store/types';
import { RestError } from './errors';
import { runBatch, type BatchJob, type BatchResult } from './batch';
import type { RestServer } from './server';

export type BatchState = 'queued' | 'running' | 'done' | 'cancelled' | 'failed';

export interface BatchEntry extends Doc {
  id: string;
  /** The user who sent it (0 for a guest): keys are per user. */
  user: number;
  /** The fingerprint of the batch's requests: a key is bound to one body. */
  hash: string;
  state: BatchState;
  /** The run: a cancelled or failed batch sent again runs again under the next number (and job id). */
  run: number;
  result?: BatchResult;
  created: Date;
  expires: Date;
}

/** How long a batch sent with an Idempotency-Key is remembered with its answer. */
export const KEYED_BATCH_TTL_MS = 24 * 3600_000;
/** How long a batch sent without one is kept at most: the gateway drops it once answered, unless it is still running then. */
export const UNKEYED_BATCH_TTL_MS = 3600_000;
const SWEEP_EVERY_MS = 60_000;

/** The JSON text of a value with object keys sorted, so equal bodies give equal fingerprints. */
function canonical(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonical).join(',')}]`;
  if (v && typeof v === 'object' && !(v instanceof Date)) {
    const entries = Object.entries(v).filter(([, x]) => x !== undefined);
    return `{${entries
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([k, x]) => `${JSON.stringify(k)}:${canonical(x)}`)
      .join(',')}}`;
  }
  return JSON.stringify(v) ?? 'null';
}

const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');

/** What a batch asks for: its validation mode and its requests. */
export const batchFingerprint = (job: Pick<BatchJob, 'validation' | 'requests'>): string =>
  sha256(canonical({ validation: job.validation, requests: job.requests }));

/** The ledger id of a user's Idempotency-Key (`b` and hex: a valid job id, never an integer). */
export const keyedBatchId = (user: number, key: string): string => `b${sha256(`${user}\n${key}`).slice(0, 40)}`;
export const unkeyedBatchId = (): string => `b${randomUUID().replace(/-/g, '')}`;

export class BatchLedger extends Repository<BatchEntry> {
  private lastSweep = 0;

  constructor(
    store: Store,
    private readonly now: () => Date = () => new Date(),
  ) {
    super(store.collection<BatchEntry>('batches'));
  }

  /**
   * The entry a request works with: a new one; or the one an earlier request with the same key made,
   * as it is (queued, running or done), or reopened as a new run when it was cancelled or failed.
   * Throws 422 when the key was used with another body.
   */
  async open(fresh: Pick<BatchEntry, 'id' | 'user' | 'hash'>, ttlMs: number): Promise<BatchEntry> {
    await this.sweep();
    for (let attempt = 0; attempt < 5; attempt++) {
      const now = this.now();
      const entry: BatchEntry = { ...fresh, state: 'queued', run: 1, created: now, expires: new Date(now.getTime() + ttlMs) };
      const existing = await this.byId(fresh.id);
      try {
        if (!existing) {
          await this.collection.insertOne(entry);
          return entry;
        }
        if (existing.expires < now) {
          const replaced = await this.collection.findOneAndUpdate({ id: fresh.id, expires: existing.expires }, { $set: entry, $unset: { result: true } });
          if (replaced) return replaced;
          continue;
        }
      } catch (e) {
        // A request with the same key inserted it first: read it again.
        if (e instanceof DuplicateKeyError) continue;
        throw e;
      }
      if (existing.user !== fresh.user || existing.hash !== fresh.hash) {
        throw new RestError('rest_idempotency_key_reused', 'This Idempotency-Key was sent before with another batch of requests.', 422);
      }
      if (existing.state !== 'cancelled' && existing.state !== 'failed') return existing;
      const reopened = await this.collection.findOneAndUpdate(
        { id: fresh.id, run: existing.run, state: existing.state },
        { $set: { state: 'queued', expires: entry.expires }, $inc: { run: 1 } },
      );
      if (reopened) return reopened;
    }
    throw new Error(`batch ${fresh.id}: its ledger entry kept changing`);
  }

  /** A worker starts the run: null when the run was cancelled, replaced by a later one, or is gone. */
  claim(id: string, run: number): Promise<BatchEntry | null> {
    return this.collection.findOneAndUpdate({ id, run, state: { $in: ['queued', 'running'] } }, { $set: { state: 'running' } });
  }

  async finish(id: string, run: number, result: BatchResult): Promise<void> {
    await this.collection.updateOne({ id, run, state: 'running' }, { $set: { state: 'done', result } });
  }

  /** The gateway gives up on a run no worker has started; false when one has (or it ended). */
  async cancel(id: string, run: number): Promise<boolean> {
    return (await this.collection.findOneAndUpdate({ id, run, state: 'queued' }, { $set: { state: 'cancelled' } })) !== null;
  }

  /** A run's job failed for good part-way: sending the batch again runs it again (done sub-requests are found, not repeated). */
  async fail(id: string, run: number): Promise<void> {
    await this.collection.updateOne({ id, run, state: 'running' }, { $set: { state: 'failed' } });
  }

  /** Drops expired entries, at most once a minute per process. */
  private async sweep(): Promise<void> {
    const now = this.now();
    if (now.getTime() - this.lastSweep < SWEEP_EVERY_MS) return;
    this.lastSweep = now.getTime();
    await this.collection.deleteMany({ expires: { $lt: now } });
  }
}

/**
 * The `batch.run` job: claims the batch's run in the ledger before running any sub-request, runs it
 * with idempotency keys derived from the ledger id, and records the result before answering. A job of
 * a run that was cancelled does nothing; one of a run already done (a stalled job run again) answers
 * the recorded result.
 */
export async function runLedgeredBatch(server: RestServer, ledger: BatchLedger, job: BatchJob, jobId: string): Promise<BatchResult> {
  if (!job.ledger) return runBatch(server, job, jobId);
  const { id, run } = job.ledger;
  if (!(await ledger.claim(id, run))) {
    const entry = await ledger.byId(id);
    if (entry?.state === 'done' && entry.run === run && entry.result) return entry.result;
    throw new UnrecoverableError(`batch ${id} run ${run} was ${entry ? entry.state : 'dropped'} before it started; nothing was done`);
  }
  const result = await runBatch(server, job, id);
  await ledger.finish(id, run, result);
  return result;
}
