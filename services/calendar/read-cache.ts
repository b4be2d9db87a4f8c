/**
 * What the calendar keeps between requests: one ReadCache (libs/rest/read-cache.ts: presented records,
 * callers' answers, list pages and totals), and the presented forms of what an archive page embeds
 * (venues, organizers, terms, images) and the term filters it resolves. Counting the default event
 * window reads ~10,000 index entries and every page embeds the same few hundred linked records, while
 * the answers change only when calendar data does. Each part is a Kept (libs/store/kept.ts): stamped by
 * the write generations of the collections calendar answers are made of and the settings revision, so a
 * write by any service of this process drops them at once and another process's write shows within
 * Kept's time-to-live. Kept values are shared between responses, so nobody may change one.
 */
import { ReadCache } from '#libs/rest/read-cache';
import type { Reply } from '#libs/rest/service';
import type { Site } from '#libs/rest/site';
import type { Store } from '#libs/store/types';

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

/** What calendar answers are made of: a write to any of these drops what the calendar keeps. */
const READ_FROM = ['posts', 'terms', 'users', 'comments'];

export class CalendarCache extends ReadCache<Reply> {
  // The embedded parts are kept by the id they name, so a new record leaves them current (byIdOnly).
  /** Linked venues and organizers as vendor/events/v1 embeds them (null: none, or trashed). */
  readonly linked = this.part<KeptLinked | null>(2000, true);
  /** Featured images as embedded (false: none readable). */
  readonly images = this.part<Presented | false>(1000, true);
  /** Terms as embedded (null: no such term). */
  readonly terms = this.part<Presented | null>(1000, true);
  /** Ids of the terms a category or tag filter names (null: one does not exist). */
  readonly termFilters = this.part<number[] | null>(500);
  /** Venues and organizers as ec/v1 embeds them. */
  readonly embedded = this.part<Presented>(2000, true);

  constructor(store: Pick<Store, 'generations' | 'foreignWrites'>, site: Site) {
    super(store, { records: ['posts', 'terms'], answers: READ_FROM, revision: site });
  }
}
