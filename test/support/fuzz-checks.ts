/**
 * What the fuzzer checks after a case (test/support/fuzz.ts makes the cases): that an answer carries no
 * internals, and that a refused request changed nothing in the store (digests, a write counter, keys no
 * document may hold).
 */
import { createHash } from 'node:crypto';
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { COLLECTIONS } from '#libs/data/collections';
import type { Store } from '#libs/store/types';

// ---------------------------------------------------------------------------------------------
// What an answer must not carry

/** Internals that must never reach a client: stack frames, driver and SQL errors, source paths. */
export const LEAK_PATTERNS: RegExp[] = [
  /\bat (Object\.|async |new |Module\.|process\.|[A-Za-z_$][\w$.]*\s\()/,
  /SQLITE_|SqliteError|better-sqlite3|no such (table|column)|syntax error near/i,
  /Mongo(Server|Network|Bulk)?Error|E11000|BSONError|MongoServerSelection/,
  /node_modules/,
  /SyntaxError: Unexpected token|Unexpected token .* in JSON at position/,
  /RangeError|TypeError: |ReferenceError|Maximum call stack/,
  /\/(work|home|root|usr|app|tmp)\/[\w.-]+\/[\w./-]*\.(ts|js|mjs|cjs)\b/,
  /\.(ts|js):\d+:\d+/,
  /root:x:0:0:/,
];

export function leakIn(text: string): string | null {
  for (const re of LEAK_PATTERNS) {
    const m = re.exec(text);
    if (m) return text.slice(Math.max(0, m.index - 80), m.index + 120);
  }
  return null;
}

// ---------------------------------------------------------------------------------------------
// Store digests

/** Collections whose changes are not content: the oEmbed proxy's cache fills on reads. */
const VOLATILE_COLLECTIONS = new Set(['oembed_cache']);

/** Fields a request may touch without changing content: when an application password was last used. */
function stable(collection: string, doc: Record<string, unknown>): unknown {
  if (collection === 'credentials' && Array.isArray(doc.app_passwords)) {
    return { ...doc, app_passwords: doc.app_passwords.map((p: Record<string, unknown>) => ({ ...p, last_used: null, last_ip: null })) };
  }
  return doc;
}

/** A digest of every stored document, per document, so a change can be named. */
export type Digest = Map<string, string>;

export async function digestStore(store: Store, dataDir?: string): Promise<Digest> {
  const out: Digest = new Map();
  const specs = COLLECTIONS.filter((spec) => !VOLATILE_COLLECTIONS.has(spec.name));
  const all = await Promise.all(specs.map((spec) => store.collection(spec.name).find({})));
  for (const [i, spec] of specs.entries()) {
    for (const doc of all[i]) {
      out.set(
        `${spec.name}:${String(doc.id)}`,
        createHash('sha1')
          .update(JSON.stringify(stable(spec.name, doc)))
          .digest('base64'),
      );
    }
  }
  if (dataDir) {
    // Uploaded files of the embedded store's file storage.
    const walk = (dir: string): void => {
      let names: string[];
      try {
        names = readdirSync(dir);
      } catch {
        return;
      }
      for (const n of names) {
        const p = join(dir, n);
        const st = statSync(p);
        if (st.isDirectory()) walk(p);
        else out.set(`file:${p.slice(dataDir.length)}`, `${st.size}`);
      }
    };
    walk(join(dataDir, 'uploads'));
  }
  return out;
}

/**
 * Counts the writes that changed something, through the store port of this process (the app under
 * test runs in it, so its adapter shares the prototype patched here). A refused request that moved the
 * counter is then checked with a full digest; one that did not needs none.
 */
export interface WriteCounter {
  readonly count: number;
}

const WATCHED = Symbol('fuzz write counter');

export function watchWrites(store: Store): WriteCounter {
  const proto = Object.getPrototypeOf(store.collection('posts')) as Record<string | symbol, unknown>;
  if (proto[WATCHED]) return proto[WATCHED] as WriteCounter;
  const counter = { count: 0 };
  const changed: Record<string, (result: unknown) => boolean> = {
    insertOne: () => true,
    insertMany: () => true,
    updateOne: (r) => (r as { modified: number }).modified > 0,
    updateMany: (r) => (r as { modified: number }).modified > 0,
    findOneAndUpdate: (r) => r !== null,
    deleteOne: (r) => (r as number) > 0,
    deleteMany: (r) => (r as number) > 0,
  };
  for (const [method, didChange] of Object.entries(changed)) {
    const original = proto[method] as (...args: unknown[]) => Promise<unknown>;
    proto[method] = async function (this: unknown, ...args: unknown[]) {
      const result = await original.apply(this, args);
      if (didChange(result)) counter.count++;
      return result;
    };
  }
  proto[WATCHED] = counter;
  return counter;
}

/**
 * Keys no stored document should have: operator-like (`$gt`), dotted (MongoDB reads them as paths) or
 * prototype keys. Lists each with its document and path.
 */
export async function suspiciousKeys(store: Store): Promise<string[]> {
  const found: string[] = [];
  for (const spec of COLLECTIONS) {
    for (const doc of await store.collection(spec.name).find({})) {
      const stack: Array<[unknown, string]> = [[doc, '']];
      while (stack.length) {
        const [v, at] = stack.pop()!;
        if (typeof v !== 'object' || v === null || v instanceof Date) continue;
        if (Array.isArray(v)) {
          v.forEach((x, i) => stack.push([x, `${at}[${i}]`]));
          continue;
        }
        if (Object.getPrototypeOf(v) !== Object.prototype && Object.getPrototypeOf(v) !== null)
          found.push(`${spec.name}:${String(doc.id)} ${at}: odd prototype`);
        for (const k of Object.keys(v)) {
          if (k.startsWith('$') || k.includes('.') || k === '__proto__' || k === 'constructor' || k === 'prototype')
            found.push(`${spec.name}:${String(doc.id)} ${at}.${k}`);
          stack.push([(v as Record<string, unknown>)[k], `${at}.${k}`]);
        }
      }
    }
  }
  return found;
}

/** What differs between two digests: keys added, removed or changed. */
export function digestDiff(before: Digest, after: Digest): string[] {
  const diff: string[] = [];
  for (const [k, v] of after)
    if (!before.has(k)) diff.push(`+${k}`);
    else if (before.get(k) !== v) diff.push(`~${k}`);
  for (const k of before.keys()) if (!after.has(k)) diff.push(`-${k}`);
  return diff;
}
