/**
 * Archive totals without counting on every request. Counting the default event window reads ~10,000
 * index entries, the largest cost of an archive page, while the answer changes only when calendar data
 * does. So a total is kept for a short time and dropped on every write this process makes through the
 * store (the store handed to the calendar's repositories reports them); a write made by another process
 * shows in the totals within the time-to-live.
 */
import type { Collection, Doc, Filter, SortSpec, Store } from '../../libs/store/types';

const TTL_MS = 1000;
const MAX_ENTRIES = 500;
const WRITES = ['insertOne', 'insertMany', 'updateOne', 'updateMany', 'findOneAndUpdate', 'deleteOne', 'deleteMany'] as const;

export class TotalsCache {
  private readonly entries = new Map<string, { total: number; at: number; generation: number }>();
  private generation = 0;

  constructor(private readonly ttlMs = TTL_MS) {}

  /** Forgets every total (a write happened). */
  invalidate(): void {
    this.generation++;
    this.entries.clear();
  }

  async get(key: string, count: () => Promise<number>): Promise<number> {
    const now = Date.now();
    const hit = this.entries.get(key);
    if (hit && hit.generation === this.generation && now - hit.at < this.ttlMs) return hit.total;
    const generation = this.generation;
    const total = await count();
    // A write while counting makes this total suspect: do not keep it.
    if (generation === this.generation) {
      if (this.entries.size >= MAX_ENTRIES) this.entries.delete(this.entries.keys().next().value!);
      this.entries.set(key, { total, at: now, generation });
    }
    return total;
  }
}

/** The store, with every write through its collections reported to `onWrite` first. */
export function watchWrites(store: Store, onWrite: () => void): Store {
  const wrapped = new Map<string, Collection>();
  const collection = <T extends Doc>(name: string): Collection<T> => {
    let c = wrapped.get(name);
    if (!c) {
      const inner = store.collection(name);
      const outer = Object.create(inner) as Collection;
      for (const m of WRITES) {
        (outer as unknown as Record<string, unknown>)[m] = async (...args: unknown[]) => {
          onWrite();
          try {
            return await (inner[m] as (...a: unknown[]) => Promise<unknown>).apply(inner, args);
          } finally {
            // Readers that counted while the write ran must not keep what they saw.
            onWrite();
          }
        };
      }
      wrapped.set(name, outer);
      c = outer;
    }
    return c as Collection<T>;
  };
  return Object.assign(Object.create(store) as Store, { collection });
}

/** One page of records and the total across pages; the total is counted only when the page cannot tell it, and then kept briefly. */
export async function pageWithTotal<T extends Doc>(
  collection: Collection<T>,
  totals: TotalsCache,
  filter: Filter,
  opts: { page: number; perPage: number; sort: SortSpec },
): Promise<{ items: T[]; total: number }> {
  const skip = (opts.page - 1) * opts.perPage;
  const items = await collection.find(filter, { sort: opts.sort, skip, limit: opts.perPage });
  // A short, non-empty page (or an empty first page) is the last one, so it fixes the total.
  if (items.length < opts.perPage && (items.length > 0 || opts.page === 1)) return { items, total: skip + items.length };
  return { items, total: await totals.get(`${collection.name}:${JSON.stringify(filter)}`, () => collection.count(filter)) };
}
