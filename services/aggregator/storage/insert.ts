/**
 * What a worker does with a batch (the reference's Record::insert_posts), in two steps the aggregator
 * service enqueues as `import.batch` jobs:
 * - `linked`: the batch's venues, organizers, categories and tags, deduplicated by the service, are
 *   matched against the store with one query (venues and organizers) and one per taxonomy, updated or
 *   created in bulk; the answer maps each to its id.
 * - `events`: a slice of the batch's events, matched against the store with one query by their
 *   identities (global id, lineage, the origin's unique id), created with one bulk insert (ids reserved
 *   as a block) or updated; several slices of one batch run at once on different workers.
 * Every event gets the meta and index fields the calendar API gives one (libs/calendar), so imported
 * events are indistinguishable from created ones. Both steps are idempotent: a record remembers the
 * batch that created it, so a retried job finds what an earlier attempt stored and reports it as
 * created again instead of storing it twice; a concurrent import racing for the same identity hits
 * the unique `ea_key` index and is retried, then finds the winner's record.
 */
import { CATEGORY_TAXONOMY, EVENT_META, EVENT_TYPE, TAG_TAXONOMY } from '#libs/calendar/meta';
import { nextEventRecord, storeRecords, type RecordWrite } from '#libs/calendar/save';
import { sanitizeTitle } from '#libs/posts/slug';
import type { PostDoc } from '#libs/posts/types';
import { addActivity, emptyActivity } from './activity';
import { attachImages } from './insert-images';
import {
  ORIGIN_META,
  eaIdsOf,
  identityMeta,
  union,
  type EventsResult,
  type EventsStep,
  type ImportJob,
  type InsertDeps,
  type LinkedResult,
} from './insert-job';
import { storeLinked } from './insert-linked';
import { eventTimes } from '../items/check';
import { uniqueIdOf } from '../items/identity';
import { eventMeta } from '../items/linked';
import { IMPORT_META, truthy } from '../items/items';

/** The `events` step: a slice's events matched by identity, created in bulk or updated, their images attached. */
async function writeEvents(deps: InsertDeps, job: EventsStep): Promise<EventsResult> {
  const activity = emptyActivity();
  const now = deps.now();
  const zone = deps.site.timezone;
  const keys = [...new Set(job.events.flatMap((e) => e.identity.keys))];
  // One query for every event of the slice that an earlier import (or attempt) stored: by identity
  // alone, an index lookup; the type is checked here (with it the store would walk every event).
  const existing = (keys.length ? await deps.posts.find({ ea_ids: { $in: keys } }, { sort: [['id', 1]] }) : []).filter((d) => d.type === EVENT_TYPE);
  const byKey = new Map<string, PostDoc>();
  for (const doc of existing) for (const k of eaIdsOf(doc) ?? []) if (!byKey.has(k)) byKey.set(k, doc);

  /** The slice's writes, one per record (a second item of a record changes its write); by the record after them. */
  const writes: RecordWrite[] = [];
  const writeOf = new Map<PostDoc, RecordWrite>();
  /** Records this slice writes, by every key they answer to (a second item with a known key updates the first). */
  const written = new Map<string, PostDoc>();

  for (const spec of job.events) {
    const item = spec.item;
    const times = eventTimes(item, zone);
    // The service checked the dates; a job that still cannot read them was not sent by it.
    if (typeof times === 'string') throw new Error(`event ${spec.index}: ${times} is not a valid date`);
    // The times go in as read (eventMetaChanges writes every date key from them, without reading strings back).
    const meta: Record<string, unknown> = { [EVENT_META.timezone]: times.timezone, ...eventMeta(item), ...identityMeta(spec.identity) };
    const unique = uniqueIdOf(item, job.origin);
    if (unique) meta[unique.key] = unique.value;
    if (spec.venue !== undefined) meta[EVENT_META.venues] = [spec.venue];
    if (spec.organizers !== undefined) meta[EVENT_META.organizers] = spec.organizers;

    const pick = (m: Map<string, PostDoc>) => spec.identity.keys.map((k) => m.get(k)).find(Boolean);
    const current = pick(written) ?? pick(byKey) ?? null;
    const fields: Partial<PostDoc> = { title: item.title.trim(), ea_record: job.recordId };
    if (item.sticky !== undefined && item.sticky !== null) fields.menu_order = truthy(item.sticky) ? -1 : 0;
    if (spec.fingerprint) fields.ea_fp = spec.fingerprint;
    if (!current) {
      Object.assign(meta, ORIGIN_META(job), { [IMPORT_META.createdBy]: job.batchRef });
      Object.assign(fields, {
        status: job.postStatus,
        content: item.description ?? '',
        excerpt: item.excerpt ?? '',
        author: job.author,
        tax: { [CATEGORY_TAXONOMY]: spec.categories, [TAG_TAXONOMY]: spec.tags },
        ea_ids: spec.identity.keys,
        ea_key: `${EVENT_TYPE}|${spec.identity.primary}`,
      });
    } else {
      // An update: of a record stored before, or of one this slice is about to write.
      if (item.description !== undefined) fields.content = item.description;
      if (item.excerpt !== undefined) fields.excerpt = item.excerpt;
      fields.tax = { ...(current.tax ?? {}), [CATEGORY_TAXONOMY]: union(current.tax?.[CATEGORY_TAXONOMY], spec.categories), [TAG_TAXONOMY]: spec.tags };
      fields.ea_ids = union(eaIdsOf(current), spec.identity.keys);
    }
    const next = nextEventRecord(deps, now, current, { meta, times, fields });
    let write = current ? writeOf.get(current) : undefined;
    if (write) {
      writeOf.delete(current!);
      write.after = next;
    } else {
      // A record this batch created (in an earlier attempt whose answer was lost) counts as new: no term count included it yet.
      const counted = current?.meta?.[IMPORT_META.createdBy] === job.batchRef ? null : current;
      write = { before: current, after: next, ...(current ? { counted } : { slug: sanitizeTitle(item.title) }) };
      writes.push(write);
    }
    writeOf.set(next, write);
    for (const k of eaIdsOf(next) ?? []) written.set(k, next);
  }

  const { counts } = await storeRecords(deps, writes);
  if (deps.images) await attachImages(deps, deps.images, job, written, activity);

  // The activity in the order of the slice's events.
  const reported = new Set<number>();
  for (const spec of job.events) {
    const doc = spec.identity.keys.map((k) => written.get(k)).find(Boolean)!;
    if (reported.has(doc.id)) {
      addActivity(activity, EVENT_TYPE, 'updated', doc.id);
      continue;
    }
    reported.add(doc.id);
    const created = !writeOf.get(doc)?.before || doc.meta?.[IMPORT_META.createdBy] === job.batchRef;
    addActivity(activity, EVENT_TYPE, created ? 'created' : 'updated', doc.id);
  }
  // Term counts are handed back: the service moves them once the whole batch is stored.
  return { activity, counts: [...counts] };
}

/** Runs one step of an import job. */
export function runImportJob(deps: InsertDeps, job: ImportJob): Promise<LinkedResult | EventsResult> {
  return job.step === 'linked' ? storeLinked(deps, job) : writeEvents(deps, job);
}
