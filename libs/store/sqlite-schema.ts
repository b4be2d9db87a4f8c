/**
 * How the SQLite store names and types what it lays out: the column type of each field type, the
 * `_fields` rows that record an earlier layout, the columns a document may not use, and index names.
 */
import type Database from 'better-sqlite3';
import { sqlRow, sqlText } from './sqlite-compile';
import type { FieldType } from './types';

export const SQL_TYPE: Record<FieldType, string> = {
  int: 'INTEGER',
  number: 'NUMERIC',
  text: 'TEXT',
  bool: 'INTEGER',
  date: 'INTEGER',
};
export const FIELD_TYPES = new Set<string>(Object.keys(SQL_TYPE));
export const isFieldType = (t: unknown): t is FieldType => typeof t === 'string' && FIELD_TYPES.has(t);

/** A row of `_fields`: how a path of a collection is stored, as recorded by an earlier ensure(). */
export function fieldRow(v: unknown): { collection: string; path: string; kind: string; type: FieldType } {
  const r = sqlRow(v);
  if (!isFieldType(r.type)) throw new Error(`_fields records an unknown field type ${String(r.type)}`);
  return { collection: sqlText(r.collection), path: sqlText(r.path), kind: sqlText(r.kind), type: r.type };
}
export const RESERVED_COLUMNS = new Set(['rid', 'doc']);

/** The name of a collection's index on `keys` with these options (a partial index names its condition: `:where:type=vendor_events`). */
export function indexName(collection: string, keys: string[], unique: boolean, sparse: boolean, partial?: Record<string, string | true>): string {
  const where = Object.entries(partial ?? {}).map(([f, v]) => `:where:${f}=${v}`);
  return `ix:${collection}:${keys.join('+')}${unique ? ':unique' : ''}${sparse ? ':sparse' : ''}${where.join('')}`;
}

/** A partial index's value: declared by the code, written into SQL as a literal, so only a plain word is accepted. */
export const PARTIAL_VALUE = /^[A-Za-z0-9_.-]{1,64}$/;

/** The names of a table's indexes. */
export function indexNames(db: Database.Database, table: string): string[] {
  return db.prepare(`SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = ?`).pluck().all(table).map(sqlText);
}

/**
 * The values partial indexes of a table are conditioned on, per field, read from the indexes' names
 * (`:where:field=value`): what the filter compiler writes as literals (sqlite-compile.ts).
 */
export function partialValues(db: Database.Database, table: string): Map<string, Set<string>> {
  const out = new Map<string, Set<string>>();
  for (const name of indexNames(db, table)) {
    for (const m of name.matchAll(/:where:([^=:]+)=([^:]+)/g)) {
      if (!PARTIAL_VALUE.test(m[2])) continue;
      const set = out.get(m[1]) ?? new Set<string>();
      set.add(m[2]);
      out.set(m[1], set);
    }
  }
  return out;
}
