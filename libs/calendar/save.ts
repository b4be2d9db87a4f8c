/**
 * The one write path of calendar records, for every writer: the calendar APIs' single writes (both
 * dialects, batch sub-requests and abilities map their input into services/calendar/events/write.ts,
 * which comes here) and the importer's bulk writes (services/aggregator/storage/insert.ts).
 *
 * A writer says what a write changes (`EventChange`: meta keys, post fields, the times when it read
 * them already); `nextEventRecord` builds the record after it, with the meta and index fields derived
 * the same way for everyone; `storeRecords` then stores a list of such records as one unit of work of
 * the store: new ones get a block of ids and free slugs in one go and are inserted together, changed
 * ones are saved with only what changed, and the published-record counts of the terms they touch are
 * moved by what the writes changed (or handed back to a writer that moves them later).
 */
import { mysqlLocal } from '../dates/format';
import { guidFor, newPostRecord, type NewPost } from '../posts/record';
import { flattenTax, type PostsRepository } from '../posts/repository';
import type { PostDoc } from '../posts/types';
import type { Store } from '../store/types';
import { countDeltas, type TermsRepository } from '../terms/repository';
import { EVENT_TYPE, VENUE_TYPE, eventMetaChanges, venueIndex, type EventTimes } from './meta';

/**
 * A complete new calendar record (event, venue, organizer): every post field with the value the reference
 * gives a fresh record of that type (events open to comments and pings, venues and organizers closed), so
 * every writer stores the same shape. Callers pass what they know; the rest is filled here.
 */
export function newCalendarRecord(site: { home: string; timezone: string }, now: Date, fields: NewPost): PostDoc {
  const open = fields.type === EVENT_TYPE ? 'open' : 'closed';
  return newPostRecord(site, now, { comment_status: open, ping_status: open, ...fields });
}

export interface RecordSaveDeps {
  store: Store;
  posts: PostsRepository;
  site: { home: string; timezone: string };
  now: () => Date;
}

/** What an event write changes. */
export interface EventChange {
  /** Meta keys to set (an undefined value removes the key); the event's derived meta and index fields follow from them. */
  meta: Record<string, unknown>;
  /** The event's times when the writer has read them already (an import): used instead of reading the meta strings back. */
  times?: EventTimes;
  /** Post fields to set (title, content, status, tax, ...). A new record gets the rest from `newCalendarRecord`. */
  fields: Partial<PostDoc>;
}

/**
 * The event after a change: a new record (current null; its id and slug are given by `storeRecords`)
 * or the current one (stored, or built earlier in the same bulk write) with the change applied.
 */
export function nextEventRecord(deps: Pick<RecordSaveDeps, 'site'>, now: Date, current: PostDoc | null, change: EventChange): PostDoc {
  const derived = eventMetaChanges(current, change.meta, deps.site.timezone, change.times);
  if (!current) return newCalendarRecord(deps.site, now, { id: 0, type: EVENT_TYPE, slug: '', status: 'draft', ...change.fields, ...derived });
  return { ...current, ...derived, ...change.fields, modified: mysqlLocal(now, deps.site.timezone), modified_gmt: now };
}

/** One record to store: a new one (`before` null, `after.id` 0) or a change of a stored one. */
export interface RecordWrite {
  before: PostDoc | null;
  after: PostDoc;
  /**
   * The slug wanted, already sanitised, when the write sets one (a new record always does; empty takes
   * the id): made unique among the records of its type, the record itself excepted.
   */
  slug?: string;
  /** What the term counts hold of this record before the write, when not `before` (null: nothing yet). */
  counted?: PostDoc | null;
}

export interface StoredRecords {
  /** The records after their writes, in the order of the writes; null for a changed record that is gone. */
  records: Array<PostDoc | null>;
  /** How the published-record count of each term moves. */
  counts: Map<number, number>;
}

export interface StoreOptions {
  /** Runs on each new record once it has its id and slug, before it is inserted (a featured image names its parent by id). */
  prepare?: (doc: PostDoc) => Promise<void>;
  /** Moves the term counts here (inside the unit); without it they are only handed back. */
  terms?: TermsRepository;
}

/** The fields of `after` that differ from `before`, as JSON. */
function changedFields(before: PostDoc, after: PostDoc): Partial<PostDoc> {
  const out: Partial<PostDoc> = {};
  for (const [k, v] of Object.entries(after)) if (k !== 'id' && JSON.stringify(v) !== JSON.stringify(before[k])) out[k] = v;
  return out;
}

/** New records get their ids as one block and their slugs in one pass per type; the records are changed in place. */
async function numberNew(deps: RecordSaveDeps, writes: RecordWrite[]): Promise<void> {
  const fresh = writes.filter((w) => !w.before);
  if (fresh.length === 0) return;
  const first = await deps.store.nextId('posts', fresh.length);
  fresh.forEach((w, i) => {
    w.after.id = first + i;
    w.after.guid = guidFor(deps.site.home, w.after.type, w.after.id);
    w.after.terms = flattenTax(w.after.tax);
  });
  for (const type of new Set(fresh.map((w) => w.after.type))) {
    const ofType = fresh.filter((w) => w.after.type === type);
    const slugs = await deps.posts.uniqueSlugs(
      ofType.map((w) => w.slug ?? w.after.slug),
      { type, hierarchical: false },
    );
    ofType.forEach((w, i) => (w.after.slug = slugs[i] || String(w.after.id)));
  }
}

/**
 * Stores the writes as one unit of work (Store.unit): after a failure at any moment none of them is
 * kept, also when the unit is part of a larger one (an event with its inline venues).
 */
export function storeRecords(deps: RecordSaveDeps, writes: RecordWrite[], options: StoreOptions = {}): Promise<StoredRecords> {
  // A venue's index fields (its coordinates) follow its meta, whoever writes it.
  for (const w of writes) if (w.after.type === VENUE_TYPE) Object.assign(w.after, venueIndex(w.after.meta ?? {}));
  return deps.store.unit(async () => {
    await numberNew(deps, writes);
    const fresh = writes.filter((w) => !w.before).map((w) => w.after);
    if (options.prepare) for (const doc of fresh) await options.prepare(doc);
    if (fresh.length) await deps.posts.createMany(fresh);
    const records: Array<PostDoc | null> = [];
    const counts = new Map<number, number>();
    for (const w of writes) {
      let stored: PostDoc | null = w.after;
      if (w.before) {
        if (w.slug !== undefined)
          w.after.slug =
            (await deps.posts.uniqueSlugs([w.slug], { type: w.after.type, hierarchical: false, selfId: w.before.id, currentSlug: w.before.slug }))[0] ||
            String(w.before.id);
        const changes = changedFields(w.before, w.after);
        stored = Object.keys(changes).length ? await deps.posts.save(w.before.id, changes) : w.before;
      }
      records.push(stored);
      if (stored) for (const [id, by] of countDeltas(w.counted !== undefined ? w.counted : w.before, stored)) counts.set(id, (counts.get(id) ?? 0) + by);
    }
    for (const [id, by] of counts) if (by === 0) counts.delete(id);
    if (options.terms) await options.terms.moveCounts(counts);
    return { records, counts };
  });
}
