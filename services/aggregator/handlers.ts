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
import { sanitizeTitle } from '../../libs/posts/slug';
import { errors, invalidParams, type RestError } from '../../libs/rest/errors';
import type { HandlerContext, Reply, ServiceApp } from '../../libs/rest/service';
import { INVALID, type ImportStatus } from '../../libs/routes/aggregator/import';
import { logger } from '../../libs/observability/logger';
import type { Update } from '../../libs/store/types';
import { mergeActivity, type Activity } from './activity';
import type { AggregatorDeps } from './deps';
import type { BatchContext, EventSpec, EventsResult, LinkedResult } from './insert';
import { checkEvents, eventIdentity, organizersOf, termNames, venueOf, type EaEvent, type LinkedSpec } from './items';
import { batchInterval } from './interval';
import { DEFAULT_POST_STATUS, ERROR_COMMENT_TYPE, ImportRecords, RECORD_META, RECORD_STATUS, hashMatches, newBatchHash, type ImportRecordDoc } from './records';

const log = logger.child({ component: 'aggregator' });

/** The pending record of the request's import whose stored hash is the one sent; else the 400 to answer with. */
async function expectedRecord(deps: AggregatorDeps, ctx: HandlerContext): Promise<ImportRecordDoc> {
  const record = await deps.records.byImportId(String(ctx.params.import_id), [RECORD_STATUS.pending]);
  const failures: Array<[string, string]> = [];
  if (!record) failures.push(['import_id', INVALID]);
  if (!record || !hashMatches(record.meta?.[RECORD_META.nextBatchHash], ctx.params.batch_hash)) failures.push(['batch_hash', INVALID]);
  if (failures.length) throw invalidParams(failures);
  return record!;
}

/** Another request moved the import on between our check and our write: its hash is no longer the expected one. */
const staleHash = (): RestError => invalidParams([['batch_hash', INVALID]]);

const int = (v: unknown): number => Math.trunc(Number(v));
const digest = (s: string): string => createHash('sha256').update(s).digest('hex').slice(0, 16);

/** Fields of an event a worker is given as ids (EventSpec's venue, organizers, categories and tags), not as sent. */
const RESOLVED_FIELDS = new Set(['venue', 'organizer', 'categories', 'tags']);

/** An event as an `events` job carries it: without the objects its linked records and terms were read from. */
function jobItem(item: EaEvent): EaEvent {
  const from = item as unknown as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(from)) if (!RESOLVED_FIELDS.has(k)) out[k] = from[k];
  return out as unknown as EaEvent;
}

/**
 * Splits a batch's events into slices of about `size`. Events that share an identity or a slug go to
 * the same slice, so slices running at once never race for one record or one slug.
 */
export function slices(specs: EventSpec[], size: number): EventSpec[][] {
  const out: EventSpec[][] = [];
  const byKey = new Map<string, number>();
  const bySlug = new Map<string, number>();
  for (const spec of specs) {
    const slug = sanitizeTitle(spec.item.title);
    let k = spec.identity.keys.map((key) => byKey.get(key)).find((x) => x !== undefined) ?? bySlug.get(slug);
    if (k === undefined) {
      if (out.length === 0 || out[out.length - 1].length >= size) out.push([]);
      k = out.length - 1;
    }
    out[k].push(spec);
    for (const key of spec.identity.keys) if (!byKey.has(key)) byKey.set(key, k);
    if (!bySlug.has(slug)) bySlug.set(slug, k);
  }
  return out;
}

async function storeBatch(deps: AggregatorDeps, ctx: HandlerContext): Promise<Reply> {
  const record = await expectedRecord(deps, ctx);
  const p = ctx.params;
  const hash = String(p.batch_hash);
  const checked = checkEvents(p.events, deps.site.timezone);
  if ('error' in checked) throw invalidParams([['events', checked.error]]);
  const status = p.status as { data: { total: unknown }; batch: { total: unknown; done: unknown } };
  const isLastBatch = int(status.batch.total) === int(status.batch.done) + 1;

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

  // What the events link to, deduplicated for the whole batch.
  const venues = new Map<string, LinkedSpec>();
  const organizers = new Map<string, LinkedSpec>();
  const categories = new Map<string, string>();
  const tags = new Map<string, string>();
  const plan = checked.events.map((item, index) => {
    const identity = eventIdentity(item, origin);
    // An event without a global or unique id is named by its place in this batch, so a retry finds it.
    const primary = identity.primary ?? `b:${batchRef}:${index}`;
    const venue = venueOf(item, origin);
    if (venue && !venues.has(venue.ref)) venues.set(venue.ref, venue);
    const orgs = organizersOf(item, origin);
    for (const o of orgs) if (!organizers.has(o.ref)) organizers.set(o.ref, o);
    const cats = termNames(item.categories);
    const tagNames = termNames(item.tags);
    for (const n of cats) if (!categories.has(n.toLowerCase())) categories.set(n.toLowerCase(), n);
    for (const n of tagNames) if (!tags.has(n.toLowerCase())) tags.set(n.toLowerCase(), n);
    return { item, index, identity: { keys: identity.primary ? identity.keys : [...identity.keys, primary], primary }, venue, orgs, cats, tagNames };
  });

  const jobBase = `ea-${record.import_id}-${digest(hash)}-${attempt}`;
  const queue = deps.queue();
  let batchActivity: Activity;
  const counts = new Map<number, number>();
  try {
    const needsLinked = venues.size + organizers.size + categories.size + tags.size > 0;
    const linked: LinkedResult = needsLinked
      ? await queue.run<LinkedResult>(
          'import.batch',
          { step: 'linked', ...base, venues: [...venues.values()], organizers: [...organizers.values()], categories: [...categories.values()], tags: [...tags.values()] },
          { jobId: `${jobBase}-linked`, timeoutMs: deps.timeoutMs },
        )
      : { venues: {}, organizers: {}, categories: {}, tags: {}, activity: mergeActivity() };
    const termId = (byName: Record<string, number>, all: Map<string, string>, n: string) => byName[all.get(n.toLowerCase())!];
    const specs: EventSpec[] = plan.map((e) => ({
      index: e.index,
      item: jobItem(e.item),
      identity: e.identity,
      ...(e.venue ? { venue: linked.venues[e.venue.ref] } : {}),
      ...(e.orgs.length ? { organizers: e.orgs.map((o) => linked.organizers[o.ref]) } : {}),
      categories: e.cats.map((n) => termId(linked.categories, categories, n)),
      tags: e.tagNames.map((n) => termId(linked.tags, tags, n)),
    }));
    const parts = await Promise.all(
      slices(specs, deps.sliceSize).map((events, k) =>
        queue.run<EventsResult>('import.batch', { step: 'events', ...base, events }, { jobId: `${jobBase}-events-${k}`, timeoutMs: deps.timeoutMs }),
      ),
    );
    batchActivity = mergeActivity(linked.activity, ...parts.map((r) => r.activity));
    for (const part of parts) for (const [id, by] of part.counts) counts.set(id, (counts.get(id) ?? 0) + by);
  } catch (e) {
    // Nothing moves on: the hash stays, so the remote service sends the batch again; the next
    // attempt runs under new job ids and finds whatever this one stored.
    log.warn({ err: e, importId: record.import_id, attempt }, 'import batch failed');
    await deps.records.advance(record, hash, { $inc: { [`meta.${RECORD_META.batchAttempt}`]: 1 } });
    throw errors.unavailable('Storing this import batch');
  }

  const now = deps.now();
  const set: Record<string, unknown> = {
    [`meta.${RECORD_META.activity}`]: ImportRecords.mergedActivity(record, batchActivity),
    [`meta.${RECORD_META.totalEvents}`]: int(status.data.total),
    [`meta.${RECORD_META.percentage}`]: int(p.percentage_complete),
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
  // Term counts move by what the batch changed, once, by the request that moved the import on: one
  // update for all the terms that move by the same amount.
  const byAmount = new Map<number, number[]>();
  for (const [id, by] of counts) {
    if (!by) continue;
    const ids = byAmount.get(by);
    if (ids) ids.push(id);
    else byAmount.set(by, [id]);
  }
  for (const [by, ids] of byAmount) await deps.terms.collection.updateMany({ id: { $in: ids } }, { $inc: { count: by } });

  const body: Record<string, unknown> = { status: 'success', activity: batchActivity, interval: await batchInterval(deps.store) };
  if (nextHash) body.next_batch_hash = nextHash;
  return { status: 200, body };
}

async function setState(deps: AggregatorDeps, ctx: HandlerContext): Promise<Reply> {
  const record = await expectedRecord(deps, ctx);
  const p = ctx.params;
  const status = p.status as ImportStatus;
  const update: Update = {
    $set: {
      status: RECORD_STATUS[status],
      [`meta.${RECORD_META.percentage}`]: int(p.percentage_complete),
      [`meta.${RECORD_META.message}`]: String(p.message),
      [`meta.${RECORD_META.messageSlug}`]: String(p.message_slug),
      modified_gmt: deps.now(),
    },
  };
  // With pending the import goes on and keeps expecting the same batch; otherwise it is over.
  if (status !== 'pending') update.$unset = { [`meta.${RECORD_META.nextBatchHash}`]: true, [`meta.${RECORD_META.batchAttempt}`]: true };
  if (status === 'failed') update.$push = { comments: { type: ERROR_COMMENT_TYPE, code: String(p.message_slug), message: String(p.message), date_gmt: deps.now() } };
  if (!(await deps.records.advance(record, String(p.batch_hash), update))) throw staleHash();
  return { status: 200, body: { status: 'success' } };
}

export function bindImport(app: ServiceApp, deps: AggregatorDeps): void {
  app.bind('aggregator.import.batch', { handle: (ctx) => storeBatch(deps, ctx) });
  app.bind('aggregator.import.state', { handle: (ctx) => setState(deps, ctx) });
}
