/**
 * Presented records kept between requests, and their JSON written once.
 *
 * Presenting a record (dates, rendered content, links, embedded venues) and serialising it cost more
 * than reading it, and a record reads the same for every caller with the same rights until it is
 * written. So a service keeps each presented record under a key naming the record, its version and
 * the caller's view of it (context, user and roles, password), a Kept value (libs/store/kept.ts): valid
 * while none of the collections it was built from has been written by this process (the store's write
 * generations) or, on the embedded store, another, and the site settings are unchanged, and for TTL_MS
 * at most. A kept record is frozen,
 * so that nothing can change it for the next caller, and its JSON text is made once, as UTF-8 bytes, the
 * first time an answer holding it is written: `jsonBytes` writes a list of kept records by joining their
 * bytes, which go to the socket as they are (no string is joined, measured or encoded again per answer).
 */
import { Kept } from '../store/kept';
import type { Store } from '../store/types';
import type { AuthUser } from '../auth/user';

const TTL_MS = 1000;
/** Records kept at most (each a few kilobytes with its JSON text): about 12 MB at worst. */
const MAX_ENTRIES = 1500;

/** Records that were kept, with their JSON text (UTF-8) once it has been made. */
const texts = new WeakMap<object, Buffer | null>();

function textOf(value: object): Buffer {
  let text = texts.get(value);
  if (text == null) {
    // Its own memory, of its size: a slice of Node's shared pool would hold the whole pool slab for as long as the record is kept.
    const json = JSON.stringify(value);
    text = Buffer.allocUnsafeSlow(Buffer.byteLength(json));
    text.write(json);
    texts.set(value, text);
  }
  return text;
}

const isObject = (v: unknown): v is object => typeof v === 'object' && v !== null;

/**
 * Marks a kept (frozen) value whose JSON text is to be made once, the first time an answer holding it is
 * written, and then reused: a presented record, or the body of a kept answer.
 */
export function keepsText(value: unknown): void {
  if (isObject(value) && !texts.has(value)) texts.set(value, null);
}

/** Whether a value is a kept record, or an array or plain object holding one within `depth` levels. */
function holdsKept(value: unknown, depth: number): boolean {
  if (!isObject(value)) return false;
  if (texts.has(value)) return true;
  if (depth === 0 || ('toJSON' in value && typeof value.toJSON === 'function')) return false;
  const children = Array.isArray(value) ? value : Object.values(value);
  return children.some((v) => holdsKept(v, depth - 1));
}

/**
 * Writes a value's JSON text into `out`, piece by piece (text, or a kept record's bytes), and tells whether
 * it wrote any (JSON leaves out undefined, functions and symbols). A part holding no kept record is
 * written by JSON.stringify whole.
 */
function compose(value: unknown, depth: number, out: Array<string | Buffer>): boolean {
  if (!isObject(value) || !holdsKept(value, depth)) {
    const text = JSON.stringify(value);
    if (text === undefined) return false;
    out.push(text);
    return true;
  }
  if (texts.has(value)) {
    out.push(textOf(value));
    return true;
  }
  if (Array.isArray(value)) {
    out.push('[');
    for (let i = 0; i < value.length; i++) {
      if (i) out.push(',');
      if (!compose(value[i], depth - 1, out)) out.push('null');
    }
    out.push(']');
    return true;
  }
  out.push('{');
  let first = true;
  for (const [k, v] of Object.entries(value)) {
    const mark = out.length;
    out.push(first ? '' : ',', JSON.stringify(k), ':');
    if (compose(v, depth - 1, out)) first = false;
    else out.length = mark;
  }
  out.push('}');
  return true;
}

/**
 * The JSON text of an answer body as UTF-8, exactly as JSON.stringify writes it: kept records (the body
 * itself, the items of a list, or a list inside an envelope such as an archive's `events`) are written
 * from the bytes they were given the first time, and the pieces joined once (an archive page's text is
 * not copied again for each level it is nested in).
 */
export function jsonBytes(body: unknown): Buffer {
  const out: Array<string | Buffer> = [];
  if (!compose(body, 2, out)) return Buffer.from('null');
  if (out.length === 1) return typeof out[0] === 'string' ? Buffer.from(out[0]) : out[0];
  // Runs of text between kept records are encoded together.
  const pieces: Buffer[] = [];
  let text = '';
  for (const part of out) {
    if (typeof part === 'string') text += part;
    else {
      if (text) pieces.push(Buffer.from(text));
      text = '';
      pieces.push(part);
    }
  }
  if (text) pieces.push(Buffer.from(text));
  return Buffer.concat(pieces);
}

/** The part of a key that names a record's version: its modification time. */
export function versionOf(doc: { modified_gmt?: unknown }): string {
  return doc.modified_gmt instanceof Date ? String(doc.modified_gmt.getTime()) : String(doc.modified_gmt);
}

/** The part of a key that names the caller's rights: the same for every guest, per user otherwise (ownership counts). */
export function viewerKey(user: AuthUser | null | undefined): string {
  return user ? `${user.id}/${user.roles.join(',')}` : '-';
}

export class PresentedCache {
  private readonly kept: Kept<object>;

  /**
   * @param store whose write generations (and, on the embedded store, other processes' commits) tell when an entry is stale
   * @param collections the collections a presented record is built from
   * @param revision what carries the site settings' revision (the site) (a changed time zone or title changes records)
   *
   * A presented record names what it shows by id (its own version, the terms, linked records and images
   * it embeds), so an insert of other records leaves it current: only changes and deletes of its
   * collections drop it (`byIdOnly`, libs/store/kept.ts). A presenter whose output depends on which
   * other records exist keys that part apart (a draft's suggested slug: services/content/posts/handlers.ts).
   */
  constructor(store: Pick<Store, 'generations' | 'foreignWrites'>, collections: string[], revision: { readonly revision?: number }, ttlMs = TTL_MS) {
    this.kept = new Kept<object>(store, {
      collections,
      byIdOnly: true,
      also: revision,
      maxEntries: MAX_ENTRIES,
      blindTtlMs: ttlMs,
      seenTtlMs: ttlMs,
      freeze: true,
      // A kept record's JSON text is made once, the first time an answer holding it is written.
      onKeep: keepsText,
    });
  }

  /** What entries made now are valid for; read before the record is loaded, so a write that lands meanwhile leaves them stale. */
  stamp(): string {
    return this.kept.stamp();
  }

  /** A kept record, or undefined. */
  peek<T extends object>(key: string, stamp: string, now = Date.now()): T | undefined {
    // A boundary: records are kept by key, and the key names what was presented, so a hit is of the caller's type.
    return this.kept.peek(key, stamp, now) as T | undefined;
  }

  /** Keeps a presented record (frozen from now on) and returns it. */
  keep<T extends object>(key: string, value: T, stamp: string, at = Date.now()): T {
    this.kept.keep(key, value, stamp, at);
    return value;
  }

  get<T extends object>(key: string, stamp: string, make: () => T): T {
    return this.peek<T>(key, stamp) ?? this.keep(key, make(), stamp);
  }
}
