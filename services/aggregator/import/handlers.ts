/**
 * POST import/{import_id}/batch and import/{import_id}/state (the reference's Batch and State
 * endpoints). No authentication: the per-import batch hash is the shared secret. Both first check
 * what needs the record (it exists and is pending; batch_hash equals its stored hash, compared in
 * constant time, failing closed when none is stored) and report a failure as the gateway reports
 * argument failures: 400 `rest_invalid_param` naming the argument. A bad request changes nothing.
 *
 * A batch is checked whole, then stored by workers: one `linked` job for its venues, organizers and
 * terms, then its events in slices, one `events` job each, run at once. Job ids derive from the import,
 * the batch hash and the record's attempt counter, so a delivery of the same batch while it runs joins
 * the running jobs, and a resend after a failure runs fresh jobs whose work is idempotent.
 */
import { createHash } from 'node:crypto';
import { errors, invalidParams, type RestError } from '#libs/rest/errors';
import type { HandlerContext, Reply, ServiceApp } from '#libs/rest/service';
import type { InputOf } from '#libs/rest/params';
import { AGGREGATOR_IMPORT_ENDPOINTS as EPS, INVALID } from '#libs/routes/aggregator/import';
import { isRecord } from '#libs/rest/args';
import { logger } from '#libs/observability/logger';
import type { Update } from '#libs/store/types';
import type { AggregatorDeps } from '../deps';
import type { BatchContext } from '../storage/insert-job';
import { checkEvents } from '../items/check';
import { batchInterval } from './interval';
import { storeItems, type StoredEvents } from '../storage/store-items';
import {
  DEFAULT_POST_STATUS,
  ERROR_COMMENT_TYPE,
  ImportRecords,
  RECORD_META,
  RECORD_STATUS,
  hashMatches,
  newBatchHash,
  type ImportRecordDoc,
} from '../storage/records';

const log = logger.child({ component: 'aggregator' });

/** The pending record of the request's import whose stored hash is the one sent; else the 400 to answer with. */
async function expectedRecord(
  deps: AggregatorDeps,
  ctx: HandlerContext<{ readonly import_id: string; readonly batch_hash: string }>,
): Promise<ImportRecordDoc> {
  const record = await deps.records.byImportId(ctx.input.import_id, [RECORD_STATUS.pending]);
  const failures: Array<[string, string]> = [];
  if (!record) failures.push(['import_id', INVALID]);
  if (!record || !hashMatches(record.meta?.[RECORD_META.nextBatchHash], ctx.input.batch_hash)) failures.push(['batch_hash', INVALID]);
  if (failures.length) throw invalidParams(failures);
  return record!;
}

/** Another request moved the import on between our check and our write: its hash is no longer the expected one. */
const staleHash = (): RestError => invalidParams([['batch_hash', INVALID]]);

const int = (v: unknown): number => Math.trunc(Number(v));
const digest = (s: string): string => createHash('sha256').update(s).digest('hex').slice(0, 16);

async function storeBatch(deps: AggregatorDeps, ctx: HandlerContext<InputOf<typeof EPS.batch>>): Promise<Reply> {
  const record = await expectedRecord(deps, ctx);
  const p = ctx.input;
  const hash = p.batch_hash;
  // `events` is not a declared argument (the reference reads it from the request as sent).
  const checked = checkEvents(ctx.params.events, deps.site.timezone);
  if ('error' in checked) throw invalidParams([['events', checked.error]]);
  // The status information (validated: `data.total`, `batch.total` and `batch.done`).
  const status = p.status;
  const batch = isRecord(status.batch) ? status.batch : {};
  const data = isRecord(status.data) ? status.data : {};
  const isLastBatch = int(batch.total) === int(batch.done) + 1;

  const meta = record.meta ?? {};
  const origin = typeof meta[RECORD_META.origin] === 'string' && meta[RECORD_META.origin] ? String(meta[RECORD_META.origin]) : 'json';
  const storedStatus = typeof meta[RECORD_META.postStatus] === 'string' ? String(meta[RECORD_META.postStatus]) : '';
  const batchRef = `${record.import_id}:${digest(hash)}`;
  const attempt = int(meta[RECORD_META.batchAttempt] ?? 0) || 0;
  const base: BatchContext = {
    importId: record.import_id,
    recordId: record.id,
    batchRef,
    origin,
    postStatus: storedStatus && storedStatus !== 'do_not_override' ? storedStatus : DEFAULT_POST_STATUS,
    author: record.author,
  };

  const jobBase = `ea-${record.import_id}-${digest(hash)}-${attempt}`;
  let stored: StoredEvents;
  try {
    stored = await storeItems({
      base,
      events: checked.events,
      sliceSize: deps.sliceSize,
      place: { queue: deps.queue(), jobBase, timeoutMs: deps.timeoutMs },
    });
  } catch (e) {
    // Nothing moves on: the hash stays, so the remote service sends the batch again; the next
    // attempt runs under new job ids and finds whatever this one stored.
    log.warn({ err: e, importId: record.import_id, attempt }, 'import batch failed');
    await deps.records.advance(record, hash, { $inc: { [`meta.${RECORD_META.batchAttempt}`]: 1 } });
    throw errors.unavailable('Storing this import batch');
  }

  const now = deps.now();
  const set: Record<string, unknown> = {
    [`meta.${RECORD_META.activity}`]: ImportRecords.mergedActivity(record, stored.activity),
    [`meta.${RECORD_META.totalEvents}`]: int(data.total),
    [`meta.${RECORD_META.percentage}`]: p.percentage_complete,
    modified_gmt: now,
  };
  if (!storedStatus) set[`meta.${RECORD_META.postStatus}`] = DEFAULT_POST_STATUS;
  const unset: Record<string, true> = { [`meta.${RECORD_META.batchAttempt}`]: true };
  const nextHash = isLastBatch ? null : newBatchHash();
  if (nextHash) set[`meta.${RECORD_META.nextBatchHash}`] = nextHash;
  else {
    unset[`meta.${RECORD_META.nextBatchHash}`] = true;
    set.status = RECORD_STATUS.success;
  }
  if (!(await deps.records.advance(record, hash, { $set: set, $unset: unset }))) throw staleHash();
  // Term counts move by what the batch changed, once, by the request that moved the import on.
  await deps.terms.moveCounts(stored.counts);

  const body: Record<string, unknown> = { status: 'success', activity: stored.activity, interval: await batchInterval(deps.store) };
  if (nextHash) body.next_batch_hash = nextHash;
  return { status: 200, body };
}

async function setState(deps: AggregatorDeps, ctx: HandlerContext<InputOf<typeof EPS.state>>): Promise<Reply> {
  const record = await expectedRecord(deps, ctx);
  const p = ctx.input;
  // A required enum argument: the gateway let only its values through.
  const status = p.status;
  const update: Update = {
    $set: {
      status: RECORD_STATUS[status],
      [`meta.${RECORD_META.percentage}`]: p.percentage_complete,
      [`meta.${RECORD_META.message}`]: p.message,
      [`meta.${RECORD_META.messageSlug}`]: p.message_slug,
      modified_gmt: deps.now(),
    },
  };
  // With pending the import goes on and keeps expecting the same batch; otherwise it is over.
  if (status !== 'pending') update.$unset = { [`meta.${RECORD_META.nextBatchHash}`]: true, [`meta.${RECORD_META.batchAttempt}`]: true };
  if (status === 'failed') update.$push = { comments: { type: ERROR_COMMENT_TYPE, code: p.message_slug, message: p.message, date_gmt: deps.now() } };
  if (!(await deps.records.advance(record, p.batch_hash, update))) throw staleHash();
  return { status: 200, body: { status: 'success' } };
}

export function bindImport(app: ServiceApp, deps: AggregatorDeps): void {
  app.bind(EPS.batch, { handle: (ctx) => storeBatch(deps, ctx) });
  app.bind(EPS.state, { handle: (ctx) => setState(deps, ctx) });
}
