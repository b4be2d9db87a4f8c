/**
 * Presented records kept between requests, and their JSON written once.
 *
 * Presenting a record (dates, rendered content, links, embedded venues) and serialising it cost more
 * than reading it, and a record reads the same for every caller with the same rights until it is
 * written. So a service keeps each presented record under a key naming the record, its version and
 * the caller's view of it (context, user and roles, password), valid while none of the collections it
 * was built from has been written by this process (the store's write generations) and the site
 * settings are unchanged, and for TTL_MS at most (writes by another process). A kept record is frozen,
 * so that nothing can change it for the next caller, and its JSON text is made once, the first time an
 * answer holding it is written: `toJson` writes a list of kept records by joining their texts.
 */
import { deepFreeze } from '../store/frozen';
import type { Store } from '../store/types';
import type { AuthUser } from '../auth/user';

const TTL_MS = 1000;
/** Records kept at most (each a few kilobytes with its JSON text): about 12 MB at worst. */
const MAX_ENTRIES = 1500;

/** Records that were kept, with their JSON text once it has been made. */
const texts = new WeakMap<object, string | null>();

function textOf(value: object): string {
  let text = texts.get(value);
  if (text == null) {
    text = JSON.stringify(value);
    texts.set(value, text);
  }
  return text;
}

const isObject = (v: unknown): v is object => typeof v === 'object' && v !== null;

/** Whether a value is a kept record, or an array or plain object holding one within `depth` levels. */
function holdsKept(value: unknown, depth: number): boolean {
  if (!isObject(value)) return false;
  if (texts.has(value)) return true;
  if (depth === 0 || ('toJSON' in value && typeof value.toJSON === 'function')) return false;
  const children = Array.isArray(value) ? value : Object.values(value);
  return children.some((v) => holdsKept(v, depth - 1));
}

function compose(value: unknown, depth: number): string | undefined {
  if (!isObject(value) || !holdsKept(value, depth)) return JSON.stringify(value);
  if (texts.has(value)) return textOf(value);
  if (Array.isArray(value)) return `[${value.map((v) => compose(v, depth - 1) ?? 'null').join(',')}]`;
  const parts: string[] = [];
  for (const [k, v] of Object.entries(value)) {
    const text = compose(v, depth - 1);
    if (text !== undefined) parts.push(`${JSON.stringify(k)}:${text}`);
  }
  return `{${parts.join(',')}}`;
}

/**
 * The JSON text of an answer body, exactly as JSON.stringify writes it: kept records (the body itself,
 * the items of a list, or a list inside an envelope such as an archive's `events`) are written from
 * the text they were given the first time.
 */
export function toJson(body: unknown): string {
  return compose(body, 2) ?? 'null';
}

/** The part of a key that names the caller's rights: the same for every guest, per user otherwise (ownership counts). */
export function viewerKey(user: AuthUser | null | undefined): string {
  return user ? `${user.id}/${user.roles.join(',')}` : '-';
}

export class PresentedCache {
  private readonly entries = new Map<string, { value: object; stamp: string; at: number }>();

  /**
   * @param store whose write generations tell when an entry is stale
   * @param collections the collections a presented record is built from
   * @param revision the site settings' revision (a changed time zone or title changes records)
   */
  constructor(
    private readonly store: Store,
    private readonly collections: string[],
    private readonly revision: () => number | undefined,
    private readonly ttlMs = TTL_MS,
  ) {}

  /** What entries made now are valid for; read before the record is loaded, so a write that lands meanwhile leaves them stale. */
  stamp(): string {
    return `${this.revision() ?? ''}|${this.collections.map((c) => this.store.generations.of(c)).join(',')}`;
  }

  /** A kept record, or undefined. */
  peek<T extends object>(key: string, stamp: string, now = Date.now()): T | undefined {
    const hit = this.entries.get(key);
    if (!hit) return undefined;
    if (hit.stamp !== stamp || now - hit.at >= this.ttlMs) {
      this.entries.delete(key);
      return undefined;
    }
    return hit.value as T;
  }

  /** Keeps a presented record (frozen from now on) and returns it. */
  keep<T extends object>(key: string, value: T, stamp: string, at = Date.now()): T {
    if (stamp !== this.stamp()) return value;
    deepFreeze(value);
    if (!texts.has(value)) texts.set(value, null);
    if (this.entries.size >= MAX_ENTRIES) this.entries.clear();
    this.entries.set(key, { value, stamp, at });
    return value;
  }

  get<T extends object>(key: string, stamp: string, make: () => T): T {
    return this.peek<T>(key, stamp) ?? this.keep(key, make(), stamp);
  }
}
