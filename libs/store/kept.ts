/**
 * Values kept between requests: the one mechanism behind every cache of the service (list totals, list
 * pages, presented records, the calendar's embedded records, guests' list answers). An entry is stamped
 * with what it was read at, taken before the read: the store's write generations of the collections it
 * depends on, the embedded store's count of other processes' commits where the store can tell it, and
 * any further part a keeper names (the site settings' revision). It is returned while that stamp still
 * holds and for a bounded time, so
 *
 * - a process sees its own writes at once, whichever service or repository made them;
 * - with the embedded store, a write by another process is seen at the next request as well;
 * - with MongoDB, whose other clients' writes a process cannot observe, a write by another pod is seen
 *   within the short time-to-live (`blindTtlMs`), the bound README's "Caches" table documents.
 *
 * A value read while a write ran is not kept (its stamp moved). Kept values are shared between
 * responses: nobody may change one once kept (`freeze` makes that certain).
 */
import { deepFreeze } from './frozen';
import type { Store } from './types';

/** How long an entry lives when other processes' writes cannot be seen (MongoDB). */
export const BLIND_TTL_MS = 1000;

export interface KeptOptions {
  /** The collections a kept value is read from: a write to any of them makes it stale. */
  collections: readonly string[];
  /**
   * Whether the value depends only on documents it names by id (a presented record and what it embeds):
   * then an insert of new documents leaves it current, and only the writes that may change or remove
   * stored ones make it stale (generations.ts). Lists and totals, which an insert changes, leave it off.
   */
  byIdOnly?: boolean;
  /**
   * A further part of the stamp: an object whose `revision` is read at each use (the site, whose settings
   * revision changes what is shown). A value read, not a function called, so no caller's code runs here.
   */
  also?: { readonly revision?: string | number };
  /** Time-to-live where other processes' writes cannot be seen. */
  blindTtlMs?: number;
  /** Time-to-live where they can (the embedded store tells of every commit). */
  seenTtlMs?: number;
  /** Entries held at most; when full, everything kept is dropped (cheaper than tracking age). */
  maxEntries: number;
  /** The weight of a value against maxEntries (e.g. the records of a list page); 1 by default. */
  weigh?: (value: unknown) => number;
  /** Freeze values as they are kept, so no reader can change what the next one gets. */
  freeze?: boolean;
  /** Told of each value as it is kept (not of one a write made stale before it could be). */
  onKeep?: (value: unknown) => void;
}

interface Entry<V> {
  value: V;
  stamp: string;
  at: number;
  weight: number;
}

export class Kept<V> {
  private readonly entries = new Map<string, Entry<V>>();
  private held = 0;
  private readonly ttlMs: number;

  constructor(
    private readonly store: Pick<Store, 'generations' | 'foreignWrites'>,
    private readonly opts: KeptOptions,
  ) {
    // Whether the store tells of other processes' commits is a property of its kind.
    const blind = store.foreignWrites() === null;
    this.ttlMs = blind ? (opts.blindTtlMs ?? BLIND_TTL_MS) : (opts.seenTtlMs ?? opts.blindTtlMs ?? BLIND_TTL_MS);
  }

  /** What values read from now on are valid for. */
  stamp(): string {
    const foreign = this.store.foreignWrites();
    const { generations: g } = this.store;
    const generations = this.opts.collections.map((c) => (this.opts.byIdOnly ? g.changesOf(c) : g.of(c))).join(',');
    return `${this.opts.also?.revision ?? ''}|${foreign ?? ''}|${generations}`;
  }

  /** A kept value still current for `stamp`, else undefined. */
  peek(key: string, stamp = this.stamp(), now = Date.now()): V | undefined {
    const hit = this.entries.get(key);
    if (!hit) return undefined;
    if (hit.stamp !== stamp || now - hit.at >= this.ttlMs) {
      this.drop(key, hit);
      return undefined;
    }
    return hit.value;
  }

  /** Keeps `value`, read after `stamp` was taken, unless a write has landed since; returns it. */
  keep(key: string, value: V, stamp: string, at = Date.now()): V {
    if (stamp !== this.stamp()) return value;
    if (this.opts.freeze) deepFreeze(value);
    this.opts.onKeep?.(value);
    const weight = this.opts.weigh?.(value) ?? 1;
    const replaced = this.entries.get(key);
    if (replaced) this.drop(key, replaced);
    if (this.held + weight > this.opts.maxEntries) this.clear();
    this.entries.set(key, { value, stamp, at, weight });
    this.held += weight;
    return value;
  }

  /** The kept value, or the one `load` reads now (and keeps). */
  async get(key: string, load: () => Promise<V>): Promise<V> {
    const stamp = this.stamp();
    const at = Date.now();
    const hit = this.peek(key, stamp, at);
    if (hit !== undefined) return hit;
    return this.keep(key, await load(), stamp, at);
  }

  /** Forgets everything. */
  clear(): void {
    this.entries.clear();
    this.held = 0;
  }

  private drop(key: string, entry: Entry<V>): void {
    this.entries.delete(key);
    this.held -= entry.weight;
  }
}

/** One Kept per collection, made when first asked for: for keepers whose every value comes from one collection (list pages, totals). */
export class KeptPerCollection<V> {
  private readonly kept = new Map<string, Kept<V>>();

  constructor(
    private readonly store: Pick<Store, 'generations' | 'foreignWrites'>,
    private readonly opts: Omit<KeptOptions, 'collections'>,
  ) {}

  of(collection: string): Kept<V> {
    let kept = this.kept.get(collection);
    if (!kept) {
      kept = new Kept<V>(this.store, { ...this.opts, collections: [collection] });
      this.kept.set(collection, kept);
    }
    return kept;
  }
}
