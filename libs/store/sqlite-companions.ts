/**
 * Companion columns of the SQLite store's side tables: declared fields of a record copied into each of
 * its array field's side-table rows, so an index (value, fields...) serves a filter on the array and a
 * range of those fields together (the category archive: term, then the event's start and end).
 */
import Database from 'better-sqlite3';
import { assertPath } from './query';
import { q, sqlText, type TableInfo } from './sqlite-compile';
import { SQL_TYPE } from './sqlite-schema';
import type { CollectionSpec } from './types';

type IndexSpec = NonNullable<CollectionSpec['indexes']>[number];

/** The columns a side table copies from its records (all but doc and value), as an earlier ensure() made them. */
export function sideCompanions(db: Database.Database, table: string): string[] {
  return db
    .prepare('SELECT name FROM pragma_table_info(?)')
    .pluck()
    .all(table)
    .map(sqlText)
    .filter((c) => c !== 'doc' && c !== 'value');
}

/**
 * An index whose keys start with an array field and go on with declared fields (`[terms, event_start,
 * event_end]`) is made on the array's side table: those fields are copied into it (companion columns,
 * filled from the records when first added, then written with every side-table row), and indexed after
 * the value. Returns the index's name, or null for any other index.
 */
export function createCompanionIndex(db: Database.Database, info: TableInfo, ix: IndexSpec): string | null {
  const [first, ...rest] = ix.keys;
  const arr = info.arrays.get(first);
  if (!arr || rest.length === 0) return null;
  if (ix.unique || ix.sparse || ix.partial)
    throw new Error(`${info.name}: an index on array field ${first} with other keys can be neither unique, sparse nor partial`);
  for (const k of rest) {
    assertPath(k);
    if (!info.fields.has(k)) throw new Error(`${info.name}: index key ${k} after array field ${first} must be declared in fields`);
  }
  const have = new Set(sideCompanions(db, arr.table));
  const added = rest.filter((k) => !have.has(k));
  for (const k of added) db.exec(`ALTER TABLE ${q(arr.table)} ADD COLUMN ${q(k)} ${SQL_TYPE[info.fields.get(k)!]}`);
  if (added.length) {
    const cols = added.map(q).join(', ');
    db.exec(`UPDATE ${q(arr.table)} AS s SET (${cols}) = (SELECT ${added.map((k) => `t.${q(k)}`).join(', ')} FROM ${info.table} AS t WHERE t.rid = s.doc)`);
  }
  arr.companions = [...have, ...added];
  const name = `ix:${info.name}:${ix.keys.join('+')}`;
  db.exec(`CREATE INDEX IF NOT EXISTS ${q(name)} ON ${q(arr.table)} (value, ${rest.map(q).join(', ')}, doc)`);
  return name;
}
