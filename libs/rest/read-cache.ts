/**
 * What a service keeps between requests, as one object: presented records, callers' answers, list
 * pages and totals, and any further part the service names. Every part is a Kept value
 * (libs/store/kept.ts); what invalidates each is declared here once, by the collections it is read
 * from and the settings revision:
 *
 * - presented records: the collections records are presented from (`records`), and the settings;
 * - callers' answers (per caller, frozen, the body's JSON made once) and the service's own parts: everything an answer shows (`answers`), and the settings;
 * - list pages and totals: the listed collection alone (libs/store/query-cache.ts, count-cache.ts).
 *
 * Handlers do not use it: an endpoint's binding declares which answers are kept
 * (`Handler.keep`), and a presenter declares the key of a presented record (`KeptPresenter`); the
 * service's ServiceApp applies both (libs/rest/service.ts), with the stamp taken when the request
 * began, before anything it shows was read.
 */
import { Kept } from '../store/kept';
import { CountCache } from '../store/count-cache';
import { QueryCache } from '../store/query-cache';
import type { Store } from '../store/types';
import { PresentedCache, keepsText } from './presented';

export interface ReadCacheOptions {
  /** The collections a presented record is built from (an insert into them leaves it current: libs/rest/presented.ts). */
  records: string[];
  /** The collections an answer shows (a guest's answer, a part): a write to any of them drops it. */
  answers: string[];
  /** What carries the site settings' revision, read at each use (the site: a changed time zone or title changes what is shown). */
  revision: { readonly revision?: number };
  /** Records held at most over all kept answers (an answer weighs the records it lists, at least 1). */
  maxReplies?: number;
}

/** What a request reads under: the stamps of the caches, taken when it began. */
export interface ReadStamp {
  records: string;
  answers: string;
}

/**
 * How a presenter keeps what it presents: the key of a record's presentation for this request (the
 * record at its version and what the caller may see of it), and how to present the records that are
 * not kept, together, so that what they embed is loaded once for all of them.
 */
export interface KeptPresenter<D, V extends object> {
  key(doc: D): string;
  present(docs: D[]): Promise<V[]>;
}

/**
 * Records held at most over all kept answers: with a kept answer's JSON (a few kilobytes per record) and
 * the answers that hold no list, some megabytes at worst, however many callers and queries there are.
 */
const MAX_REPLY_RECORDS = 2000;

/** The records an answer body lists (a list, or an envelope's lists such as an archive's `events`), at least 1. */
export function recordsIn(body: unknown): number {
  if (Array.isArray(body)) return Math.max(1, body.length);
  if (typeof body !== 'object' || body === null) return 1;
  let n = 0;
  for (const v of Object.values(body)) if (Array.isArray(v)) n += v.length;
  return Math.max(1, n);
}

/** The body of a service's answer (libs/rest/service.ts Reply). */
const bodyOf = (reply: unknown): unknown => (typeof reply === 'object' && reply !== null ? (reply as { body?: unknown }).body : undefined);

/** `A`: the answers a service gives (its handlers' replies, libs/rest/service.ts). */
export class ReadCache<A = unknown> {
  /** List pages (libs/store/query-cache.ts). */
  readonly pages: QueryCache;
  /** List totals (libs/store/count-cache.ts). */
  readonly counts: CountCache;
  private readonly presented: PresentedCache;
  private readonly replies: Kept<A>;

  constructor(
    private readonly store: Pick<Store, 'generations' | 'foreignWrites'>,
    private readonly opts: ReadCacheOptions,
  ) {
    this.pages = new QueryCache(store);
    this.counts = new CountCache(store);
    this.presented = new PresentedCache(store, opts.records, opts.revision);
    // A kept answer is frozen and its body's JSON text made once: a hit is written as the bytes it was.
    this.replies = new Kept<A>(store, {
      collections: opts.answers,
      also: opts.revision,
      maxEntries: opts.maxReplies ?? MAX_REPLY_RECORDS,
      weigh: (reply) => recordsIn(bodyOf(reply)),
      freeze: true,
      onKeep: (reply) => keepsText(bodyOf(reply)),
    });
  }

  /**
   * A further part: values read from what answers show, dropped as kept answers are, or, `byIdOnly`, only
   * by changes and deletes (values that depend only on records they name by id: libs/store/kept.ts).
   */
  part<V>(maxEntries: number, byIdOnly = false): Kept<V> {
    return new Kept<V>(this.store, { collections: this.opts.answers, also: this.opts.revision, maxEntries, byIdOnly });
  }

  /**
   * The collection's write generation now, moved by every write, inserts included: a key part for a
   * presentation that depends on which records exist (a draft's suggested slug), since presented
   * records are kept across inserts (libs/rest/presented.ts).
   */
  written(collection: string): number {
    return this.store.generations.of(collection);
  }

  /** What a request that begins now reads under. */
  begin(): ReadStamp {
    return { records: this.presented.stamp(), answers: this.replies.stamp() };
  }

  /** An answer kept under `key` (which names the caller), else the one `load` makes now (kept unless a write landed since `at`). */
  async reply(key: string, at: ReadStamp, load: () => Promise<A>): Promise<A> {
    const hit = this.replies.peek(key, at.answers);
    if (hit !== undefined) return hit;
    return this.replies.keep(key, await load(), at.answers);
  }

  /** Records as `presenter` presents them: those kept for `at` from memory, the others presented together and kept. */
  async present<D, V extends object>(docs: D[], presenter: KeptPresenter<D, V>, at: ReadStamp): Promise<V[]> {
    const keys = docs.map((d) => presenter.key(d));
    const kept = keys.map((k) => this.presented.peek<V>(k, at.records));
    const missing = docs.filter((_, i) => !kept[i]);
    const made = missing.length ? await presenter.present(missing) : [];
    let next = 0;
    return docs.map((_, i) => kept[i] ?? this.presented.keep(keys[i], made[next++], at.records));
  }
}
