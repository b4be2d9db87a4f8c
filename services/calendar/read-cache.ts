/**
 * What the calendar keeps between requests: archive totals and the presented forms of records an
 * archive page embeds (venues, organizers, terms, images). Counting the default event window reads
 * ~10,000 index entries and every page embeds the same few hundred linked records, while the answers
 * change only when calendar data does. So an entry lives a short time and every write this process
 * makes through the store (the store handed to the calendar's repositories reports them) drops them
 * all: a process always sees its own writes; a write by another process shows within the time-to-live.
 * Entries are shared between responses, so nobody may change one after it is kept.
 */
import type { CountCache } from '../../libs/store/count-cache';
import type { QueryCache } from '../../libs/store/query-cache';
import type { Collection, Doc, Filter, SortSpec, Store } from '../../libs/store/types';

const TTL_MS = 1000;
const MAX_ENTRIES = 5000;
const WRITES = ['insertOne', 'insertMany', 'updateOne', 'updateMany', 'findOneAndUpdate', 'deleteOne', 'deleteMany'] as const;

export class ReadCache {
  private readonly entries = new Map<string, { value: unknown; at: number }>();
  private generation = 0;

  constructor(private readonly ttlMs = TTL_MS) {}

  /** Forgets everything (a write happened). */
  invalidate(): void {
    this.generation++;
    this.entries.clear();
  }

  peek<T>(key: string): T | undefined {
    const hit = this.entries.get(key);
    if (!hit) return undefined;
    if (Date.now() - hit.at >= this.ttlMs) {
      this.entries.delete(key);
      return undefined;
    }
    return hit.value as T;
  }

  /** A generation to hand back to `keep`: values read before a write must not be kept after it. */
  mark(): number {
    return this.generation;
  }

  keep(key: string, value: unknown, mark: number): void {
    if (mark !== this.generation) return;
    if (this.entries.size >= MAX_ENTRIES) this.entries.delete(this.entries.keys().next().value!);
    this.entries.set(key, { value, at: Date.now() });
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

/** The store, with every write through its collections reported to `onWrite` (before and after it runs). */
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
            // Readers that loaded while the write ran must not keep what they saw.
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

/** One page of records and the total across pages; the total is counted only when the page cannot tell it, and then kept (CountCache). */
export async function pageWithTotal<T extends Doc>(
  collection: Collection<T>,
  counts: CountCache,
  filter: Filter,
  opts: { page: number; perPage: number; sort: SortSpec; pages?: QueryCache },
): Promise<{ items: T[]; total: number }> {
  const skip = (opts.page - 1) * opts.perPage;
  // A page beyond any store's reach is simply empty (the archives answer 404 for it).
  if (!Number.isSafeInteger(skip)) return { items: [], total: await counts.count(collection, filter) };
  const window = { sort: opts.sort, skip, limit: opts.perPage };
  const items = opts.pages ? await opts.pages.find(collection, filter, window) : await collection.find(filter, window);
  // A short, non-empty page (or an empty first page) is the last one, so it fixes the total.
  if (items.length < opts.perPage && (items.length > 0 || opts.page === 1)) return { items, total: skip + items.length };
  return { items, total: await counts.count(collection, filter) };
}
