/**
 * What the calendar keeps between requests: guest answers and the presented forms of records an
 * archive page embeds (venues, organizers, terms, images); list totals and pages are kept by the
 * store-level caches (libs/store/count-cache.ts, query-cache.ts). Every page embeds the same few
 * hundred linked records, while the answers change only when calendar data does. So an entry lives a
 * short time, and every write this process makes through the store, whichever service makes it (the
 * store's write generations), drops them all: a process always sees its own writes; a write by another
 * process shows within the time-to-live. Entries are shared between responses, so nobody may change one
 * after it is kept.
 */
import type { CountCache } from '../../libs/store/count-cache';
import type { QueryCache } from '../../libs/store/query-cache';
import type { WriteGenerations } from '../../libs/store/generations';
import type { Collection, Doc, Filter, SortSpec } from '../../libs/store/types';

const TTL_MS = 1000;
const MAX_ENTRIES = 5000;
export class ReadCache {
  private readonly entries = new Map<string, { value: unknown; at: number; mark: number }>();
  private generation = 0;

  /** @param writes the store's write generations: any write this process makes, by any service, drops what is kept */
  constructor(
    private readonly writes: WriteGenerations,
    private readonly ttlMs = TTL_MS,
  ) {}

  /** Forgets everything (the settings changed). */
  invalidate(): void {
    this.generation++;
    this.entries.clear();
  }

  peek<T>(key: string): T | undefined {
    const hit = this.entries.get(key);
    if (!hit) return undefined;
    if (hit.mark !== this.mark() || Date.now() - hit.at >= this.ttlMs) {
      this.entries.delete(key);
      return undefined;
    }
    return hit.value as T;
  }

  /** A mark to hand back to `keep`: values read before a write must not be kept after it. */
  mark(): number {
    // Both only grow, so their sum moves whenever either does.
    return this.generation + this.writes.any();
  }

  keep(key: string, value: unknown, mark: number): void {
    if (mark !== this.mark()) return;
    if (this.entries.size >= MAX_ENTRIES) this.entries.delete(this.entries.keys().next().value!);
    this.entries.set(key, { value, at: Date.now(), mark });
  }

  async get<T>(key: string, load: () => Promise<T>): Promise<T> {
    const hit = this.peek<T>(key);
    if (hit !== undefined) return hit;
    const mark = this.mark();
    const value = await load();
    this.keep(key, value, mark);
    return value;
  }
}

/** One page of records and the total across pages; the total is counted only when the page cannot tell it, and then kept (CountCache). */
export async function pageWithTotal<T extends Doc>(
  collection: Collection<T>,
  counts: CountCache,
  filter: Filter,
  opts: { page: number; perPage: number; sort: SortSpec; pages: QueryCache },
): Promise<{ items: T[]; total: number }> {
  const skip = (opts.page - 1) * opts.perPage;
  // A page beyond any store's reach is simply empty (the archives answer 404 for it).
  if (!Number.isSafeInteger(skip)) return { items: [], total: await counts.count(collection, filter) };
  const items = await opts.pages.find(collection, filter, { sort: opts.sort, skip, limit: opts.perPage });
  // A short, non-empty page (or an empty first page) is the last one, so it fixes the total.
  if (items.length < opts.perPage && (items.length > 0 || opts.page === 1)) return { items, total: skip + items.length };
  return { items, total: await counts.count(collection, filter) };
}
