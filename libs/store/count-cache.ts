/**
 * List totals kept between requests. Counting the records a filter matches reads every matching index
 * entry (a two-month window of a busy category at 100,000 events: 5.6 ms), and a total is asked for with
 * every page of its list. A total is kept while its collection is unwritten by this process (the store's
 * write generations) and no other process has committed (the store's foreignWrites, where it can tell:
 * the embedded store), for LONG_TTL_MS at most; where other processes' writes cannot be seen (MongoDB),
 * for SHORT_TTL_MS at most. Totals are Kept values (./kept.ts), one keeper per collection.
 */
import { KeptPerCollection } from './kept';
import { keyOf } from './query-cache';
import type { ReadableCollection, Doc, Filter, Store } from './types';

const SHORT_TTL_MS = 1000;
const LONG_TTL_MS = 60_000;
const MAX_ENTRIES = 5000;

export class CountCache {
  private readonly kept: KeptPerCollection<number>;

  constructor(store: Pick<Store, 'generations' | 'foreignWrites'>, ttl: { exact: number; blind: number } = { exact: LONG_TTL_MS, blind: SHORT_TTL_MS }) {
    this.kept = new KeptPerCollection<number>(store, { maxEntries: MAX_ENTRIES, blindTtlMs: ttl.blind, seenTtlMs: ttl.exact });
  }

  /** The collection's count of the filter, from memory while it is still current. */
  async count<T extends Doc>(collection: ReadableCollection<T>, filter: Filter, now = Date.now()): Promise<number> {
    const kept = this.kept.of(collection.name);
    const key = keyOf(filter);
    const stamp = kept.stamp();
    const hit = kept.peek(key, stamp, now);
    if (hit !== undefined) return hit;
    // A write that lands while it counts leaves the total unkept.
    return kept.keep(key, await collection.count(filter), stamp, now);
  }
}
