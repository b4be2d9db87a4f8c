/**
 * List totals kept between requests. Counting the records a filter matches reads every matching index
 * entry (a two-month window of a busy category at 100,000 events: 5.6 ms), and a total is asked for with
 * every page of its list. A total is kept while its collection is unwritten by this process (the store's
 * write generations) and no other process has committed (the store's foreignWrites, where it can tell:
 * the embedded store), for LONG_TTL_MS at most; where other processes' writes cannot be seen (MongoDB),
 * for SHORT_TTL_MS at most.
 */
import type { Collection, Doc, Filter, Store } from './types';
import { keyOf } from './query-cache';

const SHORT_TTL_MS = 1000;
const LONG_TTL_MS = 60_000;
const MAX_ENTRIES = 5000;

export class CountCache {
  private readonly entries = new Map<string, { value: number; stamp: string; at: number }>();

  constructor(
    private readonly store: Store,
    private readonly ttl: { exact: number; blind: number } = { exact: LONG_TTL_MS, blind: SHORT_TTL_MS },
  ) {}

  private stampOf(collection: string): { stamp: string; ttlMs: number } {
    const foreign = this.store.foreignWrites();
    return { stamp: `${this.store.generations.of(collection)}:${foreign ?? ''}`, ttlMs: foreign === null ? this.ttl.blind : this.ttl.exact };
  }

  /** The collection's count of the filter, from memory while it is still current. */
  async count<T extends Doc>(collection: Collection<T>, filter: Filter, now = Date.now()): Promise<number> {
    const key = `${collection.name}\u0000${keyOf(filter)}`;
    const { stamp, ttlMs } = this.stampOf(collection.name);
    const hit = this.entries.get(key);
    if (hit && hit.stamp === stamp && now - hit.at < ttlMs) return hit.value;
    const value = await collection.count(filter);
    // A write that landed while it counted leaves the total unkept.
    if (this.stampOf(collection.name).stamp === stamp) {
      if (this.entries.size >= MAX_ENTRIES) this.entries.clear();
      this.entries.set(key, { value, stamp, at: now });
    }
    return value;
  }
}
