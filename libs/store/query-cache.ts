/**
 * Pages of records kept between requests. A busy list (an archive page, a category's events in a date
 * window) is asked for again and again with the same filter, and its query costs more than the rest of
 * the answer once records are presented from memory. A page kept here is returned while its collection
 * has not been written by this process (the store's write generations) and for TTL_MS at most (writes by
 * another process). Only list pages use it, through `find`; everything that reads to decide a write
 * (uniqueness, counts, permissions) reads the store itself. A kept page and its records are frozen, so
 * no caller can change what the next one gets.
 */
import { deepFreeze } from './frozen';
import type { Collection, Doc, Filter, FindOptions } from './types';
import type { WriteGenerations } from './generations';

const TTL_MS = 1000;
/** Records held over all kept pages (a few kilobytes each once decoded), so memory stays bounded however large pages are. */
const MAX_RECORDS = 2000;

/** A filter or options as a key: Dates apart from strings that read the same. */
export function keyOf(value: unknown): string {
  return JSON.stringify(value, function (this: Record<string, unknown>, k: string, v: unknown) {
    const raw = this[k];
    return raw instanceof Date ? { $date: raw.getTime() } : v;
  });
}

export class QueryCache {
  private readonly entries = new Map<string, { value: readonly Doc[]; generation: number; at: number }>();
  private held = 0;

  constructor(
    private readonly generations: WriteGenerations,
    private readonly ttlMs = TTL_MS,
    private readonly maxRecords = MAX_RECORDS,
  ) {}

  /** The collection's `find`, answered from memory while the same query's answer is still current. */
  async find<T extends Doc>(collection: Collection<T>, filter: Filter, options: FindOptions = {}): Promise<T[]> {
    const key = `${collection.name}\u0000${keyOf(filter)}\u0000${keyOf(options)}`;
    const generation = this.generations.of(collection.name);
    const now = Date.now();
    const hit = this.entries.get(key);
    // A boundary: pages are kept by collection name, so a hit is typed as the caller's collection is,
    // as its own find would be (the documents came from that collection, frozen).
    if (hit && hit.generation === generation && now - hit.at < this.ttlMs) return hit.value as T[];
    const value = deepFreeze(await collection.find(filter, options));
    // A write that landed while the query ran leaves the answer unkept.
    if (this.generations.of(collection.name) === generation) {
      if (this.held + value.length > this.maxRecords) {
        this.entries.clear();
        this.held = 0;
      }
      const replaced = this.entries.get(key);
      if (replaced) this.held -= replaced.value.length;
      this.entries.set(key, { value, generation, at: now });
      this.held += value.length;
    }
    return value;
  }
}
