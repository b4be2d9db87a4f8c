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
import { CATEGORY_TAXONOMY, EVENT_META, EVENT_TYPE, TAG_TAXONOMY, eventMetaChanges } from '../../libs/calendar/meta';
import { newCalendarRecord } from '../../libs/calendar/records';
import { flattenTax } from '../../libs/posts/repository';
import { sanitizeTitle } from '../../libs/posts/slug';
import type { PostDoc } from '../../libs/posts/types';
import { mysqlLocal } from '../../libs/dates/format';
import { addActivity, emptyActivity } from './activity';
import { attachImages } from './insert-images';
import {
  ORIGIN_META,
  eaIdsOf,
  identityMeta,
  sameJson,
  union,
  type EventsResult,
  type EventsStep,
  type ImportJob,
  type InsertDeps,
  type LinkedResult,
} from './insert-job';
import { storeLinked } from './insert-linked';
import { eventTimes } from './item-check';
import { uniqueIdOf } from './item-identity';
import { eventMeta } from './item-linked';
import { IMPORT_META, truthy } from './items';
import { bulkSlugs } from './slugs';

/** The `events` step: a slice's events matched by identity, created in bulk or updated, their images attached. */
async function storeEvents(deps: InsertDeps, job: EventsStep): Promise<EventsResult> {
  const activity = emptyActivity();
  const now = deps.now();
  const zone = deps.site.timezone;
  const keys = [...new Set(job.events.flatMap((e) => e.identity.keys))];
  // One query for every event of the slice that an earlier import (or attempt) stored: by identity
  // alone, an index lookup; the type is checked here (with it the store would walk every event).
  const existing = (keys.length ? await deps.posts.find({ ea_ids: { $in: keys } }, { sort: [['id', 1]] }) : []).filter((d) => d.type === EVENT_TYPE);
  const byKey = new Map<string, PostDoc>();
  for (const doc of existing) for (const k of eaIdsOf(doc) ?? []) if (!byKey.has(k)) byKey.set(k, doc);

  const creates: PostDoc[] = [];
  const updates = new Map<number, { before: PostDoc; after: PostDoc }>();
  let modified: string | undefined;
  /** Records this slice writes, by every key they answer to (a second item with a known key updates the first). */
  const written = new Map<string, PostDoc>();

  for (const spec of job.events) {
    const item = spec.item;
    const times = eventTimes(item, zone);
    // The service checked the dates; a job that still cannot read them was not sent by it.
    if (typeof times === 'string') throw new Error(`event ${spec.index}: ${times} is not a valid date`);
    // The times go in as read (eventMetaChanges writes every date key from them, without reading strings back).
    const changes: Record<string, unknown> = { [EVENT_META.timezone]: times.timezone, ...eventMeta(item), ...identityMeta(spec.identity) };
    const unique = uniqueIdOf(item, job.origin);
    if (unique) changes[unique.key] = unique.value;
    if (spec.venue !== undefined) changes[EVENT_META.venues] = [spec.venue];
    if (spec.organizers !== undefined) changes[EVENT_META.organizers] = spec.organizers;

    const pick = (m: Map<string, PostDoc>) => spec.identity.keys.map((k) => m.get(k)).find(Boolean);
    const current = pick(written) ?? pick(byKey);
    const menuOrder = item.sticky !== undefined && item.sticky !== null ? (truthy(item.sticky) ? -1 : 0) : undefined;

    if (!current) {
      const tax = { [CATEGORY_TAXONOMY]: spec.categories, [TAG_TAXONOMY]: spec.tags };
      const doc = newCalendarRecord(deps.site, now, {
        id: 0,
        type: EVENT_TYPE,
        status: job.postStatus,
        slug: sanitizeTitle(item.title),
        title: item.title.trim(),
        content: item.description ?? '',
        excerpt: item.excerpt ?? '',
        author: job.author,
        ...(menuOrder !== undefined ? { menu_order: menuOrder } : {}),
        ...eventMetaChanges(null, { ...changes, ...ORIGIN_META(job), [IMPORT_META.createdBy]: job.batchRef }, zone, times),
        tax,
        terms: flattenTax(tax),
        ea_ids: spec.identity.keys,
        ea_key: `${EVENT_TYPE}|${spec.identity.primary}`,
        ea_record: job.recordId,
        ...(spec.fingerprint ? { ea_fp: spec.fingerprint } : {}),
      });
      creates.push(doc);
      for (const k of spec.identity.keys) written.set(k, doc);
      continue;
    }

    // An update: of a record stored before, or of one this slice is about to write.
    const categories = union(current.tax?.[CATEGORY_TAXONOMY], spec.categories);
    const eaIds = union(eaIdsOf(current), spec.identity.keys);
    const tax = { ...(current.tax ?? {}), [CATEGORY_TAXONOMY]: categories, [TAG_TAXONOMY]: spec.tags };
    const next: PostDoc = {
      ...current,
      ...eventMetaChanges(current, changes, zone, times),
      title: item.title.trim(),
      ...(item.description !== undefined ? { content: item.description } : {}),
      ...(item.excerpt !== undefined ? { excerpt: item.excerpt } : {}),
      ...(menuOrder !== undefined ? { menu_order: menuOrder } : {}),
      tax,
      terms: flattenTax(tax),
      ea_ids: eaIds,
      ea_record: job.recordId,
      ...(spec.fingerprint ? { ea_fp: spec.fingerprint } : {}),
      modified: (modified ??= mysqlLocal(now, zone)),
      modified_gmt: now,
    };
    for (const k of eaIds) written.set(k, next);
    const pending = creates.indexOf(current);
    if (pending >= 0) creates[pending] = next;
    else updates.set(current.id, { before: updates.get(current.id)?.before ?? current, after: next });
  }

  if (creates.length) {
    const first = await deps.store.nextId('posts', creates.length);
    const slugs = await bulkSlugs(
      deps.posts,
      EVENT_TYPE,
      creates.map((d) => d.slug),
    );
    creates.forEach((d, i) => {
      d.id = first + i;
      d.slug = slugs[i] || String(d.id);
      d.guid = `${deps.site.home}/?post_type=${EVENT_TYPE}&p=${d.id}`;
    });
    await deps.posts.createMany(creates);
  }
  for (const { before, after } of updates.values()) {
    const changes: Partial<PostDoc> = {};
    for (const [k, v] of Object.entries(after)) if (k !== 'id' && !sameJson(v, before[k])) changes[k] = v;
    if (Object.keys(changes).length) await deps.posts.save(before.id, changes);
  }

  if (deps.images) await attachImages(deps, deps.images, job, written, activity);

  // The activity in the order of the slice's events.
  const reported = new Set<number>();
  const createdHere = new Set(creates);
  for (const spec of job.events) {
    const doc = spec.identity.keys.map((k) => written.get(k)).find(Boolean)!;
    if (reported.has(doc.id)) {
      addActivity(activity, EVENT_TYPE, 'updated', doc.id);
      continue;
    }
    reported.add(doc.id);
    const created = createdHere.has(doc) || doc.meta?.[IMPORT_META.createdBy] === job.batchRef;
    addActivity(activity, EVENT_TYPE, created ? 'created' : 'updated', doc.id);
  }
  // Term counts: what each written event adds or takes away. A record this batch created (in an earlier
  // attempt whose answer was lost) counts as new, since no count included it yet.
  const counts = new Map<number, number>();
  const tally = (doc: PostDoc | null, by: number) => {
    if (doc?.status !== 'publish') return;
    for (const t of doc.terms ?? []) counts.set(t, (counts.get(t) ?? 0) + by);
  };
  for (const doc of creates) tally(doc, 1);
  for (const { before, after } of updates.values()) {
    tally(before.meta?.[IMPORT_META.createdBy] === job.batchRef ? null : before, -1);
    tally(after, 1);
  }
  return { activity, counts: [...counts].filter(([, by]) => by !== 0) };
}

/** Runs one step of an import job. */
export function runImportJob(deps: InsertDeps, job: ImportJob): Promise<LinkedResult | EventsResult> {
  return job.step === 'linked' ? storeLinked(deps, job) : storeEvents(deps, job);
}
