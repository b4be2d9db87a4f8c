/**
 * What the calendar keeps between requests, besides list pages, totals and presented records (which
 * libs keeps for every service): guests' answers, and the presented forms of what an archive page embeds
 * (venues, organizers, terms, images) and the term filters it resolves. Counting the default event
 * window reads ~10,000 index entries and every page embeds the same few hundred linked records, while
 * the answers change only when calendar data does. Each is a Kept (libs/store/kept.ts): stamped by the
 * write generations of the collections calendar answers are made of and the settings revision, so a
 * write by any service of this process drops them at once and another process's write shows within
 * Kept's time-to-live. Kept values are shared between responses, so nobody may change one.
 */
import { listSkip } from '../../libs/rest/paging';
import type { Reply } from '../../libs/rest/service';
import type { Site } from '../../libs/rest/site';
import type { CountCache } from '../../libs/store/count-cache';
import { Kept } from '../../libs/store/kept';
import type { QueryCache } from '../../libs/store/query-cache';
import type { Doc, Filter, ReadableCollection, SortSpec, Store } from '../../libs/store/types';

/** A presented record, as embedded in another. */
export type Presented = Record<string, unknown>;

/**
 * A linked record as kept: its type (an id may name a record of the other kind), what read_post judges
 * it by, and its presented form (the same for everybody; who may see it is decided per caller).
 */
export interface KeptLinked {
  type: string;
  author: number;
  status: string;
  record: Presented;
}

export interface CalendarCaches {
  /** Guests' answers, the same for every guest asking the same query. */
  replies: Kept<Reply>;
  /** Linked venues and organizers as vendor/events/v1 embeds them (null: none, or trashed). */
  linked: Kept<KeptLinked | null>;
  /** Featured images as embedded (false: none readable). */
  images: Kept<Presented | false>;
  /** Terms as embedded (null: no such term). */
  terms: Kept<Presented | null>;
  /** Ids of the terms a category or tag filter names (null: one does not exist). */
  termFilters: Kept<number[] | null>;
  /** Venues and organizers as ec/v1 embeds them. */
  embedded: Kept<Presented>;
}

/** What calendar answers are made of: a write to any of these drops what the calendar keeps. */
const READ_FROM = ['posts', 'terms', 'users', 'comments'];

export function calendarCaches(store: Store, site: Site): CalendarCaches {
  const kept = <V>(maxEntries: number) => new Kept<V>(store, { collections: READ_FROM, also: () => site.revision, maxEntries });
  return {
    replies: kept<Reply>(500),
    linked: kept<KeptLinked | null>(2000),
    images: kept<Presented | false>(1000),
    terms: kept<Presented | null>(1000),
    termFilters: kept<number[] | null>(500),
    embedded: kept<Presented>(2000),
  };
}

/** One page of records and the total across pages; the total is counted only when the page cannot tell it, and then kept (CountCache). */
export async function pageWithTotal<T extends Doc>(
  collection: ReadableCollection<T>,
  counts: CountCache,
  filter: Filter,
  opts: { page: number; perPage: number; sort: SortSpec; pages?: QueryCache },
): Promise<{ items: T[]; total: number }> {
  const skip = listSkip(undefined, opts.page, opts.perPage);
  const window = { sort: opts.sort, skip, limit: opts.perPage };
  const items = opts.pages ? await opts.pages.find(collection, filter, window) : await collection.find(filter, window);
  // A short, non-empty page (or an empty first page) is the last one, so it fixes the total.
  if (items.length < opts.perPage && (items.length > 0 || opts.page === 1)) return { items, total: skip + items.length };
  return { items, total: await counts.count(collection, filter) };
}
