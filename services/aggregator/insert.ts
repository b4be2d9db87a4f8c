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
import { CATEGORY_TAXONOMY, EVENT_META, EVENT_TYPE, ORGANIZER_TYPE, TAG_TAXONOMY, VENUE_TYPE, eventMetaChanges } from '../../libs/calendar/meta';
import { newCalendarRecord } from '../../libs/calendar/records';
import { flattenTax, type PostsRepository } from '../../libs/posts/repository';
import { sanitizeTitle } from '../../libs/posts/slug';
import type { PostDoc } from '../../libs/posts/types';
import type { MediaLibrary } from '../../libs/media/library';
import { fetchImage } from '../../libs/media/sideload';
import type { FetchPolicy } from '../../libs/net/outbound';
import { RestError } from '../../libs/rest/errors';
import { mysqlLocal } from '../../libs/rest/dates';
import type { Site } from '../../libs/rest/site';
import type { Filter, Store } from '../../libs/store/types';
import { DuplicateKeyError } from '../../libs/store/types';
import type { TermDoc, TermsRepository } from '../../libs/terms/repository';
import { addActivity, emptyActivity, type Activity, type ActivityKind } from './activity';
import { EVENT_ORIGIN, IMPORT_META, eventMeta, eventTimes, truthy, uniqueIdOf, type EaEvent, type Identity, type LinkedSpec } from './items';
import { bulkSlugs } from './slugs';

export interface InsertDeps {
  store: Store;
  posts: PostsRepository;
  terms: TermsRepository;
  site: Site;
  now: () => Date;
  /** Where events' image URLs are copied to, and the outbound policy of those fetches. */
  images?: { library: MediaLibrary; policy: FetchPolicy };
}

/** What both steps know about the batch. */
export interface BatchContext {
  importId: string;
  recordId: number;
  /** `<import id>:<hash>`: the batch's identity, stored on what it creates. */
  batchRef: string;
  origin: string;
  /** Status of new records (the record's post_status). */
  postStatus: string;
  author: number;
}

export interface LinkedStep extends BatchContext {
  step: 'linked';
  venues: LinkedSpec[];
  organizers: LinkedSpec[];
  categories: string[];
  tags: string[];
}

export interface LinkedResult {
  /** Venue and organizer ids by the `ref` the batch's events use. */
  venues: Record<string, number>;
  organizers: Record<string, number>;
  /** Term ids by name as sent. */
  categories: Record<string, number>;
  tags: Record<string, number>;
  activity: Activity;
}

/** One event of a slice, with its linked records and terms already resolved to ids. */
export interface EventSpec {
  index: number;
  /** The event as sent, less its venue, organizer, categories and tags (the service resolved them to the ids below). */
  item: EaEvent;
  identity: Identity & { primary: string };
  /** Venue id; absent when the item names none (an update then keeps the stored one). */
  venue?: number;
  /** Organizer ids; absent when the item names none. */
  organizers?: number[];
  categories: number[];
  tags: number[];
}

export interface EventsStep extends BatchContext {
  step: 'events';
  events: EventSpec[];
}

export interface EventsResult {
  /** Created, updated ids in the order of the slice's events. */
  activity: Activity;
  /**
   * How the published-record count of each term changes, as [term id, change] pairs: the service adds
   * them once the whole batch is stored (counting again would read every record of each term, for every batch).
   */
  counts: Array<[number, number]>;
}

export type ImportJob = LinkedStep | EventsStep;

const ORIGIN_META = (ctx: BatchContext) => ({ [IMPORT_META.eventOrigin]: EVENT_ORIGIN, [IMPORT_META.origin]: ctx.origin, [IMPORT_META.record]: ctx.recordId });

/** Global id and lineage meta of an identity. */
function identityMeta(identity: Identity): Record<string, unknown> {
  const globals = identity.keys.filter((k) => k.startsWith('g:')).map((k) => k.slice(2));
  const m: Record<string, unknown> = {};
  if (identity.primary?.startsWith('g:')) m[IMPORT_META.globalId] = identity.primary.slice(2);
  if (globals.length > 1) m[IMPORT_META.lineage] = globals.slice(1);
  return m;
}

const union = <T>(a: T[] | undefined, b: T[]): T[] => [...new Set([...(a ?? []), ...b])];
const sameJson = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

// ---------------------------------------------------------------------------------------------------------
// Linked records and terms

async function storeLinked(deps: InsertDeps, job: LinkedStep): Promise<LinkedResult> {
  const activity = emptyActivity();
  const now = deps.now();
  const specs = [...job.venues.map((s) => ({ type: VENUE_TYPE, s })), ...job.organizers.map((s) => ({ type: ORGANIZER_TYPE, s }))];
  const keys = [...new Set(specs.flatMap((x) => x.s.identity.keys))];
  const slugs = [...new Set(specs.map((x) => sanitizeTitle(x.s.name)).filter(Boolean))];
  const or: Filter[] = [];
  if (keys.length) or.push({ ea_ids: { $in: keys } });
  if (slugs.length) or.push({ type: { $in: [VENUE_TYPE, ORGANIZER_TYPE] }, slug: { $in: slugs } });
  // One query for every venue and organizer of the batch, each branch an index lookup (a condition on
  // type around the identity branch would make the store walk every record of the type instead).
  const found = (or.length ? await deps.posts.collection.find({ $or: or }, { sort: [['id', 1]] }) : []).filter(
    (d) => (d.type === VENUE_TYPE || d.type === ORGANIZER_TYPE) && d.status !== 'trash',
  );

  // Where the first record of each type (in id order) answering to a key, or bearing a title, sits in
  // `found`: a venue or organizer matches the first record that has one of its keys, else its name.
  const positions = new Map<string, { byKey: Map<string, number>; byTitle: Map<string, number> }>();
  for (const type of [VENUE_TYPE, ORGANIZER_TYPE]) positions.set(type, { byKey: new Map(), byTitle: new Map() });
  found.forEach((d, i) => {
    const at = positions.get(d.type)!;
    for (const k of Array.isArray(d.ea_ids) ? (d.ea_ids as string[]) : []) if (!at.byKey.has(k)) at.byKey.set(k, i);
    const title = d.title.trim().toLowerCase();
    if (!at.byTitle.has(title)) at.byTitle.set(title, i);
  });

  const ids: Record<string, Record<string, number>> = { [VENUE_TYPE]: {}, [ORGANIZER_TYPE]: {} };
  const fresh: Array<{ type: string; s: LinkedSpec }> = [];
  for (const { type, s } of specs) {
    const at = positions.get(type)!;
    let first: number | undefined;
    for (const k of s.identity.keys) {
      const p = at.byKey.get(k);
      if (p !== undefined && (first === undefined || p < first)) first = p;
    }
    const pos = first ?? at.byTitle.get(s.name.toLowerCase());
    const match = pos === undefined ? undefined : found[pos];
    if (!match) {
      fresh.push({ type, s });
      continue;
    }
    ids[type][s.ref] = match.id;
    const kind = type as ActivityKind;
    addActivity(activity, kind, match.meta?.[IMPORT_META.createdBy] === job.batchRef ? 'created' : 'updated', match.id);
    const changes: Partial<PostDoc> = {
      title: s.name,
      meta: { ...(match.meta ?? {}), ...s.meta, ...identityMeta(s.identity), ...(match.meta?.[IMPORT_META.globalId] ? { [IMPORT_META.globalId]: match.meta[IMPORT_META.globalId] } : {}) },
      ea_ids: union(match.ea_ids as string[] | undefined, s.identity.keys),
    };
    if (s.description !== undefined) changes.content = s.description;
    if (s.excerpt !== undefined) changes.excerpt = s.excerpt;
    const differs = Object.entries(changes).some(([k, v]) => !sameJson(v, match[k]));
    if (differs) await deps.posts.save(match.id, { ...changes, modified: mysqlLocal(now, deps.site.timezone), modified_gmt: now });
  }

  if (fresh.length) {
    const first = await deps.store.nextId('posts', fresh.length);
    const slugsOf: Record<string, string[]> = {};
    for (const type of [VENUE_TYPE, ORGANIZER_TYPE]) {
      const ofType = fresh.filter((f) => f.type === type);
      slugsOf[type] = await bulkSlugs(deps.posts.collection, type, ofType.map((f) => sanitizeTitle(f.s.name)));
    }
    const cursor: Record<string, number> = { [VENUE_TYPE]: 0, [ORGANIZER_TYPE]: 0 };
    const docs = fresh.map(({ type, s }, i) => {
      const id = first + i;
      const slug = slugsOf[type][cursor[type]++] || String(id);
      ids[type][s.ref] = id;
      addActivity(activity, type as ActivityKind, 'created', id);
      return newCalendarRecord(deps.site, now, {
        id,
        type,
        status: job.postStatus,
        slug,
        title: s.name,
        content: s.description ?? '',
        excerpt: s.excerpt ?? '',
        author: job.author,
        meta: { ...s.meta, ...identityMeta(s.identity), ...ORIGIN_META(job), [IMPORT_META.createdBy]: job.batchRef },
        ...(s.identity.keys.length ? { ea_ids: s.identity.keys } : {}),
        ...(s.identity.primary ? { ea_key: `${type}|${s.identity.primary}` } : {}),
      });
    });
    await deps.posts.collection.insertMany(docs);
  }

  const categories = await storeTerms(deps, CATEGORY_TAXONOMY, job.categories, job.batchRef, activity);
  const tags = await storeTerms(deps, TAG_TAXONOMY, job.tags, job.batchRef, activity);
  return { venues: ids[VENUE_TYPE], organizers: ids[ORGANIZER_TYPE], categories, tags, activity };
}

/** Term ids by name: found by slug or name (the reference's term_exists), else created (and marked with the batch that did). */
async function storeTerms(deps: InsertDeps, taxonomy: string, names: string[], batchRef: string, activity: Activity): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  if (names.length === 0) return out;
  const slugs = names.map((n) => sanitizeTitle(n)).filter(Boolean);
  const find = () => deps.terms.collection.find({ taxonomy, $or: [{ slug: { $in: slugs } }, { name: { $in: names } }] }, { sort: [['id', 1]] });
  const match = (found: TermDoc[], name: string) =>
    found.find((t) => t.slug === sanitizeTitle(name)) ?? found.find((t) => t.name.toLowerCase() === name.toLowerCase());
  let found = await find();
  for (const name of names) {
    let term = match(found, name);
    if (term?.[IMPORT_META.createdBy] === batchRef) addActivity(activity, taxonomy as ActivityKind, 'created', term.id);
    if (!term) {
      try {
        term = await deps.terms.create({ taxonomy, name });
        await deps.terms.collection.updateOne({ id: term.id }, { $set: { [IMPORT_META.createdBy]: batchRef } });
        addActivity(activity, taxonomy as ActivityKind, 'created', term.id);
      } catch (e) {
        // Another worker created it first.
        if (!(e instanceof DuplicateKeyError)) throw e;
        found = await find();
        term = match(found, name);
        if (!term) throw e;
      }
      found.push(term);
    }
    out[name] = term.id;
  }
  return out;
}

// ---------------------------------------------------------------------------------------------------------
// Events

async function storeEvents(deps: InsertDeps, job: EventsStep): Promise<EventsResult> {
  const activity = emptyActivity();
  const now = deps.now();
  const zone = deps.site.timezone;
  const keys = [...new Set(job.events.flatMap((e) => e.identity.keys))];
  // One query for every event of the slice that an earlier import (or attempt) stored: by identity
  // alone, an index lookup; the type is checked here (with it the store would walk every event).
  const existing = (keys.length ? await deps.posts.collection.find({ ea_ids: { $in: keys } }, { sort: [['id', 1]] }) : []).filter((d) => d.type === EVENT_TYPE);
  const byKey = new Map<string, PostDoc>();
  for (const doc of existing) for (const k of (doc.ea_ids as string[] | undefined) ?? []) if (!byKey.has(k)) byKey.set(k, doc);

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
      });
      creates.push(doc);
      for (const k of spec.identity.keys) written.set(k, doc);
      continue;
    }

    // An update: of a record stored before, or of one this slice is about to write.
    const categories = union(current.tax?.[CATEGORY_TAXONOMY], spec.categories);
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
      ea_ids: union(current.ea_ids as string[] | undefined, spec.identity.keys),
      modified: (modified ??= mysqlLocal(now, zone)),
      modified_gmt: now,
    };
    for (const k of next.ea_ids as string[]) written.set(k, next);
    const pending = creates.indexOf(current);
    if (pending >= 0) creates[pending] = next;
    else updates.set(current.id, { before: updates.get(current.id)?.before ?? current, after: next });
  }

  if (creates.length) {
    const first = await deps.store.nextId('posts', creates.length);
    const slugs = await bulkSlugs(deps.posts.collection, EVENT_TYPE, creates.map((d) => d.slug));
    creates.forEach((d, i) => {
      d.id = first + i;
      d.slug = slugs[i] || String(d.id);
      d.guid = `${deps.site.home}/?post_type=${EVENT_TYPE}&p=${d.id}`;
    });
    await deps.posts.collection.insertMany(creates);
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

/**
 * Events' `image` URLs, copied into the media library as the reference's importer does
 * (tribe_upload_image), through the outbound guard: a URL fetched before gives its attachment again,
 * one that is refused or fails leaves the event without an image (the import goes on).
 */
async function attachImages(deps: InsertDeps, images: NonNullable<InsertDeps['images']>, job: EventsStep, written: Map<string, PostDoc>, activity: Activity): Promise<void> {
  const uploader = { id: job.author, login: '', roles: [], caps: [] };
  for (const spec of job.events) {
    const url = (spec.item as { image?: unknown }).image;
    if (typeof url !== 'string' || !/^https?:\/\//i.test(url.trim())) continue;
    const doc = spec.identity.keys.map((k) => written.get(k)).find(Boolean);
    if (!doc) continue;
    let attachment = await images.library.bySourceUrl(url.trim());
    if (!attachment) {
      try {
        const got = await fetchImage(url.trim(), images.policy, () => images.library.tooBig());
        attachment = await images.library.add({ bytes: got.bytes, name: got.name, user: uploader, parent: doc.id, sourceUrl: got.url });
        addActivity(activity, 'attachment', 'created', attachment.id);
      } catch (e) {
        if (!(e instanceof RestError)) throw e;
        continue;
      }
    }
    if (doc.featured_media !== attachment.id) {
      await deps.posts.save(doc.id, { featured_media: attachment.id });
      doc.featured_media = attachment.id;
    }
  }
}

export function runImportJob(deps: InsertDeps, job: ImportJob): Promise<LinkedResult | EventsResult> {
  return job.step === 'linked' ? storeLinked(deps, job) : storeEvents(deps, job);
}
