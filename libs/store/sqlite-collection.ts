/**
 * A collection of the embedded store: finds, counts and distinct values through the filter compiler, and
 * inserts, updates and deletes that keep the typed columns and side tables in step with the JSON.
 */
import type Database from 'better-sqlite3';
import { assertPath, isScalar, normalizeWindow, validateUpdate } from './query';
import { decodeDoc, encodeDoc } from './sqlite-codec';
import {
  arrayValues,
  companionValues,
  docRow,
  getPath,
  jsonElements,
  jsonPath,
  q,
  sideInsertSql,
  Sql,
  sqlNumber,
  sqlRow,
  sqlText,
  toColumn,
  updateSql,
} from './sqlite-compile';
import type { ColValue, TableInfo } from './sqlite-compile';
import { applyUpdate } from './sqlite-update';
import type { Collection, Doc, FieldType, Filter, FindOptions, Scalar, Update, UpdateResult } from './types';

/** The most side-table values one INSERT statement carries (two parameters each); a power of two. */
const SIDE_CHUNK = 256;

/** What a collection needs of its store (SqliteStore), so this file does not import the store. */
export interface CollectionHost {
  table(name: string): TableInfo;
  compile(info: TableInfo, filter: Filter, b: Sql): string;
  orderBy(info: TableInfo, sort: FindOptions['sort'], b: Sql): string;
  stmt(sql: string, pluck?: boolean): Database.Statement;
  write<R>(collection: string, fn: () => R, insertOnly?: boolean, oneStatement?: boolean): R;
  /** Runs a synchronous operation once no unit of work of another caller holds the connection (sqlite-unit.ts). */
  when<R>(op: () => R): Promise<R>;
}

/**
 * The document with only `fields` (and `id`), in that order. A boundary: what stays is a partial T, which
 * the port types as T (the caller asked for those fields), as MongoDB's projection does.
 */
function project<T extends Doc>(doc: T, fields: string[] | undefined): T {
  if (!fields) return doc;
  const out: Doc = {};
  if ('id' in doc) out.id = doc.id;
  for (const f of fields) if (f in doc) out[f] = doc[f];
  return out as T;
}

/**
 * A projection on top-level fields is read from the JSON in SQLite (`->`, one small JSON text per field,
 * SQL NULL where the document has none) instead of parsing every matching document whole: a list of ids
 * and links over a few hundred records costs a fraction. Dotted fields keep the whole-document path.
 */
function projectedColumns(fields: string[] | undefined): string[] | null {
  if (!fields || fields.some((f) => f.includes('.'))) return null;
  const all = ['id', ...fields.filter((f) => f !== 'id')];
  for (const f of all) assertPath(f);
  return all;
}

/** Declared column types whose value is the document's own, unchanged, wherever the column is not NULL. */
const SAME_AS_JSON = new Set<FieldType>(['text', 'int', 'number']);

/**
 * What a projection selects, two expressions per field: the field's typed column where it holds the
 * document's value as it is (text and numbers), and the field's JSON only where that column is NULL (the
 * field missing, null, or of another type than declared). A list of ids or slugs is then read from the
 * columns, without the rows' documents (their overflow pages) or a JSON parse per value.
 */
function projectionSql(info: TableInfo, columns: string[]): string {
  return columns
    .map((f) => {
      const type = info.fields.get(f);
      if (!type || !SAME_AS_JSON.has(type)) return `NULL, t.doc -> ${jsonPath(f)}`;
      return `t.${q(f)}, CASE WHEN t.${q(f)} IS NULL THEN t.doc -> ${jsonPath(f)} END`;
    })
    .join(', ');
}

function projectedDoc<T extends Doc>(columns: string[], row: unknown[]): T {
  const out: Doc = {};
  for (let i = 0; i < columns.length; i++) {
    const column = row[2 * i];
    const json = row[2 * i + 1];
    if (column !== null) out[columns[i]] = column;
    else if (json !== null) out[columns[i]] = decodeDoc(sqlText(json));
  }
  // A boundary, as `project`: the caller asked for these fields.
  return out as T;
}

/** Whether inserting these rows is one statement: a single row with no side-table values. */
const oneStatement = (rows: ReadonlyArray<{ sides: ColValue[][] }>): boolean => rows.length === 1 && rows[0].sides.every((s) => s.length === 0);

export class SqliteCollection<T extends Doc> implements Collection<T> {
  constructor(
    private readonly store: CollectionHost,
    readonly name: string,
  ) {}

  private get info(): TableInfo {
    return this.store.table(this.name);
  }

  private select(filter: Filter, window: FindOptions, columns: string): { sql: string; params: unknown[] } {
    const options = normalizeWindow(window);
    const info = this.info;
    const b = new Sql();
    const where = this.store.compile(info, filter, b);
    let sql = `SELECT ${columns} FROM ${info.table} AS t WHERE ${where}${this.store.orderBy(info, options.sort, b)}`;
    // A limit of 0 means "no limit", as in MongoDB. One unsorted record (findOne) takes a literal LIMIT 1:
    // a bound LIMIT costs SQLite several µs a statement more (a by-id read takes twice as long), and with no
    // ORDER BY the constant cannot change the plan.
    if (options.limit === 1 && !options.skip && !options.sort) sql += ' LIMIT 1';
    else if (options.limit || options.skip) sql += ` LIMIT ${b.bind(options.limit || -1)} OFFSET ${b.bind(options.skip ?? 0)}`;
    return { sql, params: b.params };
  }

  find(filter: Filter, options: FindOptions = {}): Promise<T[]> {
    return this.store.when(() => {
      const columns = projectedColumns(options.fields);
      if (columns) {
        const { sql, params } = this.select(filter, options, projectionSql(this.info, columns));
        return (
          this.store
            .stmt(sql)
            .raw(true)
            .all(...params) as unknown[][]
        ).map((r) => projectedDoc<T>(columns, r));
      }
      const { sql, params } = this.select(filter, options, 't.doc');
      const rows = this.store.stmt(sql, true).all(...params);
      return rows.map((r) => project(decodeDoc<T>(sqlText(r)), options.fields));
    });
  }

  findOne(filter: Filter, options: Omit<FindOptions, 'limit'> = {}): Promise<T | null> {
    return this.store.when(() => {
      const { sql, params } = this.select(filter, { ...options, limit: 1 }, 't.doc');
      const row = this.store.stmt(sql, true).get(...params);
      return row === undefined ? null : project(decodeDoc<T>(sqlText(row)), options.fields);
    });
  }

  count(filter: Filter): Promise<number> {
    return this.store.when(() => {
      const info = this.info;
      const b = new Sql();
      const where = this.store.compile(info, filter, b);
      return sqlNumber(this.store.stmt(`SELECT COUNT(*) FROM ${info.table} AS t WHERE ${where}`, true).get(...b.params));
    });
  }

  distinct(p: string, filter: Filter): Promise<Scalar[]> {
    return this.store.when(() => this.distinctNow(p, filter));
  }

  private distinctNow(p: string, filter: Filter): Scalar[] {
    assertPath(p);
    const info = this.info;
    const b = new Sql();
    const where = this.store.compile(info, filter, b);
    const rows = this.store
      .stmt(
        `SELECT DISTINCT j.type AS type, j.value AS value FROM ${info.table} AS t, ${jsonElements(p)} AS j
         WHERE json_type(t.doc, ${jsonPath(p)}) IS NOT NULL AND ${where}`,
      )
      .all(...b.params)
      .map(sqlRow);
    return rows.map(({ type, value }): Scalar => {
      if (type === 'true') return true;
      if (type === 'false') return false;
      // Objects and arrays are not scalars, but distinct() returns them as MongoDB does (decoded).
      if (type === 'object' || type === 'array') return decodeDoc<Scalar>(sqlText(value));
      // json_each gives null, integers, reals and text as SQL values: scalars.
      if (!isScalar(value)) throw new Error(`SQLite returned ${typeof value} where a JSON scalar was expected`);
      return value;
    });
  }

  /**
   * The statement parameters of each document's row (JSON text, then the declared columns) and of its
   * side-table values. Worked out before the transaction, so the write lock is held only for the writes.
   */
  private rowsOf(info: TableInfo, docs: Doc[]): Array<{ values: unknown[]; sides: ColValue[][] }> {
    const arrays = [...info.arrays];
    return docs.map((doc) => {
      const values: unknown[] = [encodeDoc(doc)];
      for (const [p, type] of info.columns) values.push(toColumn(type, getPath(doc, p)) ?? null);
      return { values, sides: arrays.map(([p, arr]) => arrayValues(arr.type, getPath(doc, p))) };
    });
  }

  /**
   * Inserts prepared rows, then their side-table values several pairs per statement (a statement call
   * per value costs more than the B-tree insert it makes). The pairs go in chunks whose sizes are powers
   * of two up to SIDE_CHUNK, so a side table needs a handful of statements whatever the row count.
   */
  private insertRows(info: TableInfo, rows: Array<{ values: unknown[]; sides: ColValue[][] }>): void {
    const insert = this.store.stmt(info.insertSql);
    const arrays = [...info.arrays.values()];
    const pairs: unknown[][] = arrays.map(() => []);
    for (const row of rows) {
      const rid = insert.run(...row.values).lastInsertRowid;
      for (let i = 0; i < pairs.length; i++) {
        const companions = arrays[i].companions?.length ? companionValues(info, arrays[i], row.values) : [];
        for (const v of row.sides[i]) pairs[i].push(rid, v, ...companions);
      }
    }
    for (const [i, arr] of arrays.entries()) {
      const list = pairs[i];
      const width = 2 + (arr.companions?.length ?? 0);
      for (let at = 0; at < list.length;) {
        let count = SIDE_CHUNK;
        while (count * width > list.length - at) count /= 2;
        this.store.stmt(sideInsertSql(arr.table, count, arr.companions)).run(...list.slice(at, at + count * width));
        at += count * width;
      }
    }
  }

  async insertOne(doc: T): Promise<void> {
    const info = this.info;
    const rows = this.rowsOf(info, [doc]);
    await this.store.when(() => this.store.write(this.name, () => this.insertRows(info, rows), true, oneStatement(rows)));
  }

  async insertMany(docs: T[]): Promise<void> {
    if (docs.length === 0) return;
    const info = this.info;
    const rows = this.rowsOf(info, docs);
    await this.store.when(() => this.store.write(this.name, () => this.insertRows(info, rows), true, oneStatement(rows)));
  }

  private matchRows(filter: Filter, one: boolean): Array<{ rid: number; doc: string }> {
    const info = this.info;
    const b = new Sql();
    const where = this.store.compile(info, filter, b);
    const stmt = this.store.stmt(`SELECT t.rid AS rid, t.doc AS doc FROM ${info.table} AS t WHERE ${where}${one ? ' LIMIT 1' : ''}`);
    return stmt.all(...b.params).map(docRow);
  }

  /**
   * An update of many rows that only adds whole numbers to plain fields (a term count's `$inc`), as one
   * UPDATE that adds them in the JSON and in their columns, when every matching row holds a whole number
   * at each of those paths; null when the update is of another kind, or a matching row holds something
   * else there (the general path then creates the missing field or refuses the non-number, as MongoDB).
   */
  private incrementRows(filter: Filter, update: Update): UpdateResult | null {
    const inc = update.$inc;
    if (!inc || Object.keys(update).length !== 1) return null;
    const info = this.info;
    const fields = Object.entries(inc);
    const plain = fields.every(([p, by]) => {
      if (!Number.isSafeInteger(by) || by === 0) return false;
      // Not an array kept in a side table, nor copied into one (its copies would be left as they were).
      for (const [a, arr] of info.arrays) if (a === p || a.startsWith(`${p}.`) || p.startsWith(`${a}.`) || arr.companions?.includes(p)) return false;
      const type = info.fields.get(p);
      return type === undefined || type === 'int' || type === 'number';
    });
    if (!plain) return null;
    const b = new Sql();
    const where = this.store.compile(info, filter, b);
    // IS, not =: a missing field's json_type is NULL, which `=` would make neither true nor false.
    const whole = fields.map(([p]) => `json_type(t.doc, ${jsonPath(p)}) IS 'integer'`).join(' AND ');
    const other = this.store.stmt(`SELECT EXISTS (SELECT 1 FROM ${info.table} AS t WHERE (${where}) AND NOT (${whole}))`, true).get(...b.params);
    if (sqlNumber(other) !== 0) return null;
    const sums = fields.map(([p]) => `json_extract(t.doc, ${jsonPath(p)}) + CAST(? AS INTEGER)`);
    const set = [`doc = json_set(t.doc${fields.map(([p], i) => `, ${jsonPath(p)}, ${sums[i]}`).join('')})`];
    const params: unknown[] = fields.map(([, by]) => by);
    for (const [i, [p]] of fields.entries()) {
      if (!info.columns.some(([c]) => c === p)) continue;
      set.push(`${q(p)} = ${sums[i]}`);
      params.push(fields[i][1]);
    }
    const { changes } = this.store.stmt(`UPDATE ${info.table} AS t SET ${set.join(', ')} WHERE ${where}`).run(...params, ...b.params);
    // Every matching row had a whole number there and nothing adds zero: each one changed.
    return { matched: changes, modified: changes };
  }

  /** Applies `update` to the matching rows; returns counts and the last updated document. */
  private applyUpdates(filter: Filter, update: Update, one: boolean): UpdateResult & { doc: T | null } {
    validateUpdate(update);
    const info = this.info;
    if (!one && update.$inc && Object.keys(update).length === 1) {
      // A count's $inc: a read, then one UPDATE, atomic by itself (no savepoint of its own).
      const added = this.store.write(this.name, () => this.incrementRows(filter, update), false, true);
      if (added) return { ...added, doc: null };
    }
    return this.store.write(this.name, () => {
      const rows = this.matchRows(filter, one);
      let modified = 0;
      let last: T | null = null;
      const arrays = [...info.arrays];
      for (const row of rows) {
        const after = decodeDoc<T>(row.doc);
        // The side-table values before the update, read from the document once decoded (they are copies,
        // so applying the update does not change them).
        const oldLists = arrays.map(([p, arr]) => arrayValues(arr.type, getPath(after, p)));
        const oldCompanions = arrays.map(([, arr]) => (arr.companions ?? []).map((c) => toColumn(info.fields.get(c)!, getPath(after, c)) ?? null));
        const oldColumns = info.columns.map(([p, type]) => toColumn(type, getPath(after, p)) ?? null);
        applyUpdate(after, update);
        const text = encodeDoc(after);
        last = after;
        // Like MongoDB, an update that changes nothing is matched but not modified.
        if (text === row.doc) continue;
        modified++;
        const values: unknown[] = [text];
        for (const [p, type] of info.columns) values.push(toColumn(type, getPath(after, p)) ?? null);
        // Only the columns whose value moved are set, so SQLite rewrites only the indexes on them (a term
        // count's $inc touches the count index, not every index of the row).
        const changed = info.columns.flatMap((_, i) => (values[1 + i] === oldColumns[i] ? [] : [i]));
        this.store
          .stmt(
            updateSql(
              info,
              changed.map((i) => info.columns[i][0]),
            ),
          )
          .run(text, ...changed.map((i) => values[1 + i]), row.rid);
        for (const [i, [p, arr]] of arrays.entries()) {
          const oldList = oldLists[i];
          const newList = arrayValues(arr.type, getPath(after, p));
          const companions = companionValues(info, arr, values);
          if (oldList.length === newList.length && oldList.every((v, i) => v === newList[i])) {
            // The same values: only the companion copies may have changed.
            if (companions.length && companions.some((v, k) => v !== oldCompanions[i][k])) {
              this.store.stmt(`UPDATE ${q(arr.table)} SET ${arr.companions!.map((c) => `${q(c)} = ?`).join(', ')} WHERE doc = ?`).run(...companions, row.rid);
            }
            continue;
          }
          this.store.stmt(`DELETE FROM ${q(arr.table)} WHERE doc = ?`).run(row.rid);
          const ins = this.store.stmt(sideInsertSql(arr.table, 1, arr.companions));
          for (const v of newList) ins.run(row.rid, v, ...companions);
        }
      }
      return { matched: rows.length, modified, doc: last };
    });
  }

  async updateOne(filter: Filter, update: Update): Promise<UpdateResult> {
    const { matched, modified } = await this.store.when(() => this.applyUpdates(filter, update, true));
    return { matched, modified };
  }

  async updateMany(filter: Filter, update: Update): Promise<UpdateResult> {
    const { matched, modified } = await this.store.when(() => this.applyUpdates(filter, update, false));
    return { matched, modified };
  }

  async findOneAndUpdate(filter: Filter, update: Update): Promise<T | null> {
    return (await this.store.when(() => this.applyUpdates(filter, update, true))).doc;
  }

  private remove(filter: Filter, one: boolean): number {
    const info = this.info;
    return this.store.write(this.name, () => {
      const b = new Sql();
      const where = this.store.compile(info, filter, b);
      const rids = this.store
        .stmt(`SELECT t.rid FROM ${info.table} AS t WHERE ${where}${one ? ' LIMIT 1' : ''}`, true)
        .all(...b.params)
        .map(sqlNumber);
      const del = this.store.stmt(`DELETE FROM ${info.table} WHERE rid = ?`);
      const sides = [...info.arrays.values()].map((a) => this.store.stmt(`DELETE FROM ${q(a.table)} WHERE doc = ?`));
      for (const rid of rids) {
        del.run(rid);
        for (const s of sides) s.run(rid);
      }
      return rids.length;
    });
  }

  deleteOne(filter: Filter): Promise<number> {
    return this.store.when(() => this.remove(filter, true));
  }

  deleteMany(filter: Filter): Promise<number> {
    return this.store.when(() => this.remove(filter, false));
  }
}
