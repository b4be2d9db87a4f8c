/**
 * Pages of records kept between requests. A busy list (an archive page, a category's events in a date
 * window) is asked for again and again with the same filter, and its query costs more than the rest of
 * the answer once records are presented from memory. A page is a Kept value (./kept.ts): returned while
 * its collection has not been written by this process (the store's write generations) nor, on the
 * embedded store, by another, and for LONG_TTL_MS at most there (the stamp then tells every write), or
 * SHORT_TTL_MS where other processes' writes cannot be seen (MongoDB). Only list pages and the target record
 * of a single read (`byId`, through HandlerContext.record) use it; everything that reads to decide a write
 * (uniqueness, counts, permissions) reads the store itself. A kept page and its records are frozen, so
 * no caller can change what the next one gets.
 */
import { KeptPerCollection } from './kept';
import type { ReadableCollection, Doc, Filter, FindOptions, Store } from './types';

/** Where other processes' writes cannot be seen (MongoDB). */
const SHORT_TTL_MS = 1000;
/** Where they can (the embedded store tells of every commit): a page is exact while its stamp holds. */
const LONG_TTL_MS = 60_000;
/** Records held over all kept pages (a few kilobytes each once decoded), so memory stays bounded however large pages are. */
const MAX_RECORDS = 2000;

/** keyOf as JSON.stringify with a replacer writes it (for values keyText leaves to it). */
function replacedKey(value: unknown): string {
  return JSON.stringify(value, function (this: Record<string, unknown>, k: string, v: unknown) {
    const raw = this[k];
    return raw instanceof Date ? { $date: raw.getTime() } : v;
  });
}

/**
 * keyOf's text of one value, undefined where JSON leaves it out. Written by hand because JSON.stringify
 * with a replacer calls back into JavaScript for every key, which made the key of a category window's
 * query cost more than the rest of its cached read.
 */
function keyText(v: unknown): string | undefined {
  if (typeof v !== 'object' || v === null) return JSON.stringify(v);
  if (v instanceof Date) return `{"$date":${JSON.stringify(v.getTime())}}`;
  if (Array.isArray(v)) {
    let out = '[';
    for (let i = 0; i < v.length; i++) out += `${i ? ',' : ''}${keyText(v[i]) ?? 'null'}`;
    return `${out}]`;
  }
  // Anything with its own JSON form (toJSON) is written as before.
  if (typeof (v as { toJSON?: unknown }).toJSON === 'function') return replacedKey(v);
  let out = '{';
  let first = true;
  for (const k of Object.keys(v)) {
    const text = keyText((v as Record<string, unknown>)[k]);
    if (text === undefined) continue;
    out += `${first ? '' : ','}${JSON.stringify(k)}:${text}`;
    first = false;
  }
  return `${out}}`;
}

/** A filter or options as a key: Dates apart from strings that read the same (the text JSON.stringify would write with Dates as `{"$date":ms}`). */
export function keyOf(value: unknown): string {
  return keyText(value) as string;
}

export class QueryCache {
  private readonly kept: KeptPerCollection<readonly Doc[]>;

  constructor(
    store: Pick<Store, 'generations' | 'foreignWrites'>,
    ttl: { exact: number; blind: number } = { exact: LONG_TTL_MS, blind: SHORT_TTL_MS },
    maxRecords = MAX_RECORDS,
  ) {
    this.kept = new KeptPerCollection<readonly Doc[]>(store, {
      maxEntries: maxRecords,
      weigh: (page) => (Array.isArray(page) ? page.length : 1),
      blindTtlMs: ttl.blind,
      seenTtlMs: ttl.exact,
      freeze: true,
    });
  }

  /** The collection's `find`, answered from memory while the same query's answer is still current. */
  async find<T extends Doc>(collection: ReadableCollection<T>, filter: Filter, options: FindOptions = {}): Promise<T[]> {
    const kept = this.kept.of(collection.name);
    const key = `${keyOf(filter)}\u0000${keyOf(options)}`;
    const stamp = kept.stamp();
    const now = Date.now();
    const hit = kept.peek(key, stamp, now);
    // A boundary: pages are kept by collection name, so a hit is typed as the caller's collection is,
    // as its own find would be (the documents came from that collection, frozen).
    if (hit) return hit as T[];
    const value = await collection.find(filter, options);
    // A write that lands while the query runs leaves the answer unkept.
    kept.keep(key, value, stamp, now);
    return value;
  }

  /**
   * A record by id, answered from memory as a page of at most one while its collection is unwritten: a
   * single read of a busy record then costs no query, with what a list page is kept under.
   */
  async byId<T extends Doc>(collection: ReadableCollection<T>, id: number): Promise<T | null> {
    return (await this.find(collection, { id }, { limit: 1 }))[0] ?? null;
  }
}
