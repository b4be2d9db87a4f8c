/**
 * Shared tables for the authorization tests: the expected answer of each role for an action (from the
 * reference's capability table), who owns the record a cell acts on, and a fingerprint of the store
 * to prove that a refused request changed nothing.
 */
import { openStore } from '#libs/store/index';
import type { Store } from '#libs/store/types';
import type { TestApp } from './app';
import { ROLES, type RoleName, type RoleUsers, type Who } from './roles';

export const WHO: Who[] = ['guest', ...ROLES];

/** An expected answer: the status, and for a refusal the error code. */
export interface Outcome {
  status: number;
  code?: string;
}

export type Expectations = Record<Who, Outcome>;

const RANK: Record<Who, number> = { guest: -1, subscriber: 0, contributor: 1, author: 2, editor: 3, administrator: 4 };

/**
 * The usual shape of a capability: roles from `min` up get `ok`; lower roles get 403 `code`, a guest
 * 401 `code` (the reference's rest_authorization_required_code). `overrides` set single cells.
 */
export function from(min: RoleName | 'nobody', ok: number, code: string, overrides: Partial<Record<Who, Outcome | number>> = {}): Expectations {
  const out = {} as Expectations;
  for (const who of WHO) {
    const allowed = min !== 'nobody' && RANK[who] >= RANK[min];
    out[who] = allowed ? { status: ok } : { status: who === 'guest' ? 401 : 403, code };
  }
  for (const [who, o] of Object.entries(overrides)) out[who as Who] = typeof o === 'number' ? { status: o } : o!;
  return out;
}

/** Everyone, guests included, gets the same answer (validation before permission, or no permission at all). */
export function everyone(status: number, code?: string): Expectations {
  return Object.fromEntries(WHO.map((w) => [w, { status, ...(code ? { code } : {}) }])) as Expectations;
}

export type Ownership = 'own' | 'others' | 'none';

/**
 * The user a record of a cell belongs to: the actor for `own` (a guest owns nothing, so an
 * administrator's record stands in), and for `others` an editor's record (an administrator's for an editor).
 */
export function ownerId(users: RoleUsers, adminId: number, who: Who, ownership: Ownership): number {
  if (ownership === 'own') return who === 'guest' ? adminId : users.ids[who];
  if (who === 'editor') return users.ids.administrator;
  return users.ids.editor;
}

/** A second connection to a test app's store (SQLite file or MongoDB database). */
export function openAppStore(app: TestApp): Promise<Store> {
  return openStore({ mongoUrl: app.config.MONGO_URL, mongoDb: app.config.MONGO_DB, dataDir: app.config.DATA_DIR });
}

/** Fields that a request changes by authenticating (not by what it asks), left out of fingerprints. */
const VOLATILE = new Set(['last_used', 'last_ip', '_id']);

function strip(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(strip);
  if (v instanceof Date) return v.toISOString();
  if (v && typeof v === 'object') {
    return Object.fromEntries(
      Object.entries(v as Record<string, unknown>)
        .filter(([k]) => !VOLATILE.has(k))
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([k, x]) => [k, strip(x)]),
    );
  }
  return v;
}

/**
 * What a refused request must leave as it was: every document of the small collections, and of the
 * posts collection (the big one) its size, its highest id and the records the request named.
 */
export async function fingerprint(store: Store, collections: string[], postIds: number[] = []): Promise<string> {
  const parts: unknown[] = [];
  for (const name of collections) {
    const c = store.collection(name);
    if (name === 'posts') {
      const [last] = await c.find({}, { sort: [['id', -1]], limit: 1, fields: ['id'] });
      const named = postIds.length ? await c.find({ id: { $in: postIds } }, { sort: [['id', 1]] }) : [];
      parts.push(name, await c.count({}), last?.id ?? 0, strip(named));
    } else parts.push(name, strip(await c.find({}, { sort: [['id', 1]] })));
  }
  return JSON.stringify(parts);
}

/** A small tally of the cells a matrix checked, printed at the end of its run. */
export class Tally {
  readonly rows: Array<{ area: string; cells: number; refused: number }> = [];
  add(area: string, refused: boolean): void {
    let row = this.rows.find((r) => r.area === area);
    if (!row) this.rows.push((row = { area, cells: 0, refused: 0 }));
    row.cells++;
    if (refused) row.refused++;
  }
  get cells(): number {
    return this.rows.reduce((n, r) => n + r.cells, 0);
  }
  print(title: string): void {
    const lines = this.rows.map(
      (r) => `  ${r.area.padEnd(32)} ${String(r.cells).padStart(4)} cells${r.refused ? `, ${String(r.refused).padStart(4)} refused (store unchanged)` : ''}`,
    );
    process.stdout.write(`\n${title}: ${this.cells} cells\n${lines.join('\n')}\n`);
  }
}
