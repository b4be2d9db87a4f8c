/**
 * How the SQLite store names and types what it lays out: the column type of each field type, the
 * `_fields` rows that record an earlier layout, the columns a document may not use, and index names.
 */
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

/** The name of a collection's index on `keys` with these options. */
export function indexName(collection: string, keys: string[], unique: boolean, sparse: boolean): string {
  return `ix:${collection}:${keys.join('+')}${unique ? ':unique' : ''}${sparse ? ':sparse' : ''}`;
}
