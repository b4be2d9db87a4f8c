/**
 * The embedded store: the port's document-query language compiled to SQL over better-sqlite3.
 *
 * Layout, per collection:
 * - a table named after the collection: `rid INTEGER PRIMARY KEY`, `doc TEXT` (the JSON document), and one
 *   typed column per declared field, named after its path (`"id"`, `"meta.start"`), written from JS on every
 *   write so it always mirrors the JSON;
 * - one side table per declared array field, `"<collection>:<field>"(doc, value)`, primary key (doc, value)
 *   for maintenance and an index on (value, doc) so "array contains" filters are index lookups;
 * - `_fields` remembers every field ever declared, so a column is never left stale by a later spec;
 * - `counters` holds the id sequences.
 *
 * Dates: stored in the JSON as `{"$date":"<ISO-8601 UTC, ms>"}` (fixed width, so text order is time order)
 * and in typed columns as epoch milliseconds (INTEGER). Declared columns serve a condition only when the
 * value has the declared type; any other value falls back to JSON so results match MongoDB's type rules.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import Database from 'better-sqlite3';
import { BACKSTOP_AUTOCHECKPOINT_PAGES, BackgroundCheckpointer } from './sqlite-checkpoint';
import { WriteGenerations } from './generations';
import { assertCollectionName, assertPath, COUNTERS, normalizeFilter } from './query';
import { decodeDoc } from './sqlite-codec';
import { SqliteCollection } from './sqlite-collection';
import { arrayValues, buildTableInfo, Compiler, docRow, getPath, q, Sql, sqlNumber, sqlRow, sqlText, toColumn } from './sqlite-compile';
import type { ArrayField, TableInfo } from './sqlite-compile';
import { duplicateKey, isUniqueViolation } from './sqlite-errors';
import { FIELD_TYPES, PARTIAL_VALUE, RESERVED_COLUMNS, SQL_TYPE, fieldRow, indexName, indexNames, isFieldType, partialValues } from './sqlite-schema';
import { SqliteUnits } from './sqlite-unit';
import { PopularValues } from './sqlite-popular';
import { createCompanionIndex, sideCompanions } from './sqlite-companions';
import { sqlCount } from './sql-count';
import type { Collection, CollectionSpec, Doc, FieldType, Filter, FindOptions, Store } from './types';

export { decodeDoc, encodeDoc, isDate } from './sqlite-codec';
export { POPULAR_MEMBERS } from './sqlite-compile';
export { applyUpdate } from './sqlite-update';

type DB = Database.Database;
type Statement = Database.Statement;

const STATEMENT_CACHE_SIZE = 500;
/** Bytes of WAL file kept after a checkpoint reset it; a larger file is truncated to this. */
const WAL_SIZE_LIMIT_BYTES = 64 * 1024 * 1024;

export interface SqliteStoreOptions {
  /** Folder for `store.sqlite`, or `:memory:` for a private in-memory database. */
  dataDir: string;
}

export class SqliteStore implements Store {
  /** PRAGMA data_version as last read, until the event loop's current phase ends (see foreignWrites). */
  private dataVersion: number | undefined;
  readonly kind = 'sqlite' as const;
  /** The underlying connection, for diagnostics and SQLite-only tests; services go through the port. */
  readonly db: DB;
  readonly file: string;
  private readonly statements = new Map<string, Statement>();
  private readonly popular = new PopularValues(this, (sql) => this.stmt(sql, true));
  private readonly tables = new Map<string, TableInfo>();
  private readonly icontainsFn = 'ecs_icontains';
  private closed = false;
  readonly generations = new WriteGenerations();
  readonly unitMode = 'transaction' as const;
  private readonly units: SqliteUnits;
  private readonly checkpointer: BackgroundCheckpointer | null;

  constructor(opts: SqliteStoreOptions) {
    if (opts.dataDir === ':memory:') this.file = ':memory:';
    else {
      fs.mkdirSync(opts.dataDir, { recursive: true });
      this.file = path.join(opts.dataDir, 'store.sqlite');
    }
    this.db = new Database(this.file, { timeout: 5000 });
    this.db.pragma('journal_mode = WAL');
    // NORMAL in WAL mode: a commit is in the WAL (the OS has it) before it returns, so it survives a
    // crash of the process; only a power loss or OS crash may roll back the last commits (README).
    this.db.pragma('synchronous = NORMAL');
    // Checkpoints run on a worker thread (sqlite-checkpoint.ts), so no request waits for one; a commit
    // checkpoints by itself only past the backstop, should that worker be gone. Every connection sets the
    // same threshold, so a small write in another process does not run the checkpoint early.
    this.db.pragma(`wal_autocheckpoint = ${BACKSTOP_AUTOCHECKPOINT_PAGES}`);
    this.db.pragma(`journal_size_limit = ${WAL_SIZE_LIMIT_BYTES}`);
    this.db.pragma('temp_store = MEMORY');
    this.db.pragma('cache_size = -32768');
    this.db.function(this.icontainsFn, { deterministic: true }, (hay: unknown, needle: unknown) =>
      typeof hay === 'string' && typeof needle === 'string' && hay.toLowerCase().includes(needle) ? 1 : 0,
    );
    this.db.exec(`
      CREATE TABLE IF NOT EXISTS ${q(COUNTERS)} (name TEXT PRIMARY KEY, seq INTEGER NOT NULL) WITHOUT ROWID;
      CREATE TABLE IF NOT EXISTS _fields (
        collection TEXT NOT NULL, path TEXT NOT NULL, kind TEXT NOT NULL, type TEXT NOT NULL,
        PRIMARY KEY (collection, path)) WITHOUT ROWID;
    `);
    this.loadTables();
    this.units = new SqliteUnits(this.db, this.generations);
    this.checkpointer = BackgroundCheckpointer.start(this.file);
  }

  /** Cached prepared statement per SQL text; `pluck` statements return the first column only. */
  stmt(sql: string, pluck = false): Statement {
    if (sqlCount.on) sqlCount.statements++;
    const key = pluck ? `P\u0000${sql}` : sql;
    let s = this.statements.get(key);
    if (s) {
      // Re-inserting keeps the Map in least-recently-used order for eviction.
      this.statements.delete(key);
      this.statements.set(key, s);
      return s;
    }
    s = this.db.prepare(sql);
    if (pluck) s.pluck(true);
    this.statements.set(key, s);
    if (this.statements.size > STATEMENT_CACHE_SIZE) this.statements.delete(this.statements.keys().next().value!);
    return s;
  }

  private loadTables(): void {
    const rows = this.db.prepare('SELECT collection, path, kind, type FROM _fields').all().map(fieldRow);
    const existing = new Set(this.db.prepare(`SELECT name FROM sqlite_master WHERE type = 'table'`).pluck().all().map(sqlText));
    const byName = new Map<string, { fields: Map<string, FieldType>; arrays: Map<string, ArrayField> }>();
    for (const name of existing) {
      if (name === COUNTERS || name === '_fields' || name.includes(':') || name.startsWith('sqlite_')) continue;
      byName.set(name, { fields: new Map(), arrays: new Map() });
    }
    for (const r of rows) {
      const t = byName.get(r.collection);
      if (!t) continue;
      if (r.kind === 'field') t.fields.set(r.path, r.type);
      else t.arrays.set(r.path, { type: r.type, table: `${r.collection}:${r.path}` });
    }
    for (const t of byName.values()) for (const arr of t.arrays.values()) arr.companions = sideCompanions(this.db, arr.table);
    for (const [name, t] of byName) this.tables.set(name, buildTableInfo(name, t.fields, t.arrays, partialValues(this.db, name)));
  }

  /** Table metadata; a collection used before ensure() gets a bare table (JSON only), as MongoDB would. */
  table(name: string): TableInfo {
    let info = this.tables.get(name);
    if (!info) {
      assertCollectionName(name);
      this.db.exec(`CREATE TABLE IF NOT EXISTS ${q(name)} (rid INTEGER PRIMARY KEY, doc TEXT NOT NULL)`);
      info = buildTableInfo(name, new Map(), new Map());
      this.tables.set(name, info);
    }
    return info;
  }

  compile(info: TableInfo, filter: Filter, b: Sql): string {
    return new Compiler(info, b, this.icontainsFn, (table, value) => this.popular.is(table, value)).cond(normalizeFilter(filter));
  }

  orderBy(info: TableInfo, sort: FindOptions['sort'], b: Sql): string {
    return new Compiler(info, b, this.icontainsFn).orderBy(sort);
  }

  collection<T extends Doc = Doc>(name: string): Collection<T> {
    // A collection is its name and this store (no state of its own), so each call makes one, typed as asked.
    this.table(name);
    return new SqliteCollection<T>(this, name);
  }

  async nextId(counter: string, count = 1): Promise<number> {
    if (!Number.isInteger(count) || count < 1) throw new Error('nextId count must be a positive integer');
    // One statement, so concurrent callers (and processes sharing the file) always get disjoint blocks.
    const take = (by: number) =>
      sqlNumber(
        this.stmt(`INSERT INTO ${q(COUNTERS)} (name, seq) VALUES (?, ?) ON CONFLICT(name) DO UPDATE SET seq = seq + excluded.seq RETURNING seq`, true).get(
          counter,
          by,
        ),
      );
    const seq = await this.when(() => {
      // Inside a unit the group's copy of the counter serves (sqlite-unit.ts `reserve`).
      const held = this.units.reserve(counter, count, take);
      if (held !== null) return held;
      // Outside a unit of work the upsert is a commit of its own.
      if (sqlCount.on && !this.db.inTransaction) sqlCount.commits++;
      return take(count);
    });
    return seq - count + 1;
  }

  unit<R>(work: () => Promise<R>): Promise<R> {
    return this.units.run(work);
  }

  /** Runs a synchronous operation once no other caller's unit of work holds the connection (sqlite-unit.ts). */
  when<R>(op: () => R): Promise<R> {
    return this.units.when(op);
  }

  async ensure(specs: CollectionSpec[]): Promise<void> {
    for (const spec of specs) this.ensureOne(spec);
    this.db.pragma('optimize');
  }

  private ensureOne(spec: CollectionSpec): void {
    const name = assertCollectionName(spec.name);
    const declared: Array<[string, 'field' | 'array', FieldType]> = [
      ...Object.entries(spec.fields ?? {}).map(([p, t]): [string, 'field', FieldType] => [p, 'field', t]),
      ...Object.entries(spec.arrays ?? {}).map(([p, t]): [string, 'array', FieldType] => [p, 'array', t]),
    ];
    for (const [p, , t] of declared) {
      assertPath(p);
      if (RESERVED_COLUMNS.has(p)) throw new Error(`${name}: field name ${p} is reserved by the SQLite store`);
      if (!FIELD_TYPES.has(t)) throw new Error(`${name}.${p}: unknown field type ${t}`);
      if (spec.fields?.[p] && spec.arrays?.[p]) throw new Error(`${name}.${p} is declared both as a field and as an array`);
    }
    const info = this.db.transaction((): TableInfo => {
      this.db.exec(`CREATE TABLE IF NOT EXISTS ${q(name)} (rid INTEGER PRIMARY KEY, doc TEXT NOT NULL)`);
      const known = new Map(
        this.db
          .prepare('SELECT path, kind, type FROM _fields WHERE collection = ?')
          .all(name)
          .map(sqlRow)
          .map((r) => [sqlText(r.path), { kind: sqlText(r.kind), type: sqlText(r.type) }]),
      );
      const columns = new Set(this.db.prepare(`SELECT name FROM pragma_table_info(?)`).pluck().all(name).map(sqlText));
      const fresh: Array<[string, 'field' | 'array', FieldType]> = [];
      for (const [p, kind, type] of declared) {
        const k = known.get(p);
        if (k) {
          if (k.kind !== kind || k.type !== type) {
            throw new Error(`${name}.${p} was declared as ${k.kind} ${k.type}; changing it to ${kind} ${type} needs a migration`);
          }
          continue;
        }
        if (kind === 'field') {
          if (!columns.has(p)) this.db.exec(`ALTER TABLE ${q(name)} ADD COLUMN ${q(p)} ${SQL_TYPE[type]}`);
        } else {
          const side = q(`${name}:${p}`);
          this.db.exec(`CREATE TABLE IF NOT EXISTS ${side} (doc INTEGER NOT NULL, value ${SQL_TYPE[type]} NOT NULL, PRIMARY KEY (doc, value)) WITHOUT ROWID`);
          this.db.exec(`CREATE INDEX IF NOT EXISTS ${q(`ix:${name}:${p}:value`)} ON ${side} (value, doc)`);
          this.db.prepare(`DELETE FROM ${side}`).run();
        }
        this.db.prepare('INSERT INTO _fields (collection, path, kind, type) VALUES (?, ?, ?, ?)').run(name, p, kind, type);
        fresh.push([p, kind, type]);
      }
      const prev = this.tables.get(name);
      const fields = new Map(prev?.fields ?? []);
      const arrays = new Map(prev?.arrays ?? []);
      for (const [p, kind, type] of fresh) {
        if (kind === 'field') fields.set(p, type);
        else arrays.set(p, { type, table: `${name}:${p}` });
      }
      // Reload what earlier runs recorded, in case this process has not seen the table yet.
      for (const [p, k] of known) {
        if (!isFieldType(k.type)) throw new Error(`${name}.${p}: _fields records an unknown field type ${k.type}`);
        if (k.kind === 'field') fields.set(p, k.type);
        else arrays.set(p, { type: k.type, table: `${name}:${p}` });
      }
      for (const [p, arr] of arrays) arrays.set(p, { ...arr, companions: sideCompanions(this.db, arr.table) });
      const next = buildTableInfo(name, fields, arrays);
      if (fresh.length > 0) this.backfill(next, fresh);
      const made = new Set((spec.indexes ?? []).map((ix) => this.createIndex(next, ix)));
      this.dropReplacedIndexes(next, spec, made);
      next.partial = partialValues(this.db, name);
      return next;
    })();
    // Published only after the commit, so a failed ensure() leaves the in-memory layout as it was.
    this.tables.set(name, info);
  }

  /** Fills newly declared columns and side tables from the JSON of existing rows. */
  private backfill(info: TableInfo, fresh: Array<[string, 'field' | 'array', FieldType]>): void {
    const cols = fresh.filter(([, k]) => k === 'field');
    const arrays = fresh.filter(([, k]) => k === 'array');
    const set = cols.length ? this.db.prepare(`UPDATE ${info.table} SET ${cols.map(([p]) => `${q(p)} = ?`).join(', ')} WHERE rid = ?`) : null;
    const sides = arrays.map(([p, , type]) => ({
      p,
      type,
      ins: this.db.prepare(`INSERT OR IGNORE INTO ${q(`${info.name}:${p}`)} (doc, value) VALUES (?, ?)`),
    }));
    // In pages by rowid: better-sqlite3 allows no writes while a read cursor is open.
    const page = this.db.prepare(`SELECT rid, doc FROM ${info.table} WHERE rid > ? ORDER BY rid LIMIT 1000`);
    for (let last = -Infinity; ;) {
      const rows = page.all(last).map(docRow);
      if (rows.length === 0) break;
      for (const row of rows) {
        const doc = decodeDoc(row.doc);
        if (set) set.run(...cols.map(([p, , type]) => toColumn(type, getPath(doc, p)) ?? null), row.rid);
        for (const s of sides) for (const v of arrayValues(s.type, getPath(doc, s.p))) s.ins.run(row.rid, v);
      }
      last = rows[rows.length - 1].rid;
    }
  }

  /**
   * Drops the indexes an earlier declaration made on the same keys with other options (an index made
   * unique replaces the plain one), and the retired ones, so a changed declaration takes effect on an
   * existing store.
   */
  private dropReplacedIndexes(info: TableInfo, spec: CollectionSpec, made: Set<string | null>): void {
    const existing = indexNames(this.db, info.name);
    for (const ix of spec.indexes ?? []) {
      const keys = this.indexKeys(info, ix);
      if (keys.length === 0) continue;
      this.dropVariants(info, keys, existing, made);
    }
    // Retired indexes, under any options (the field names of their keys are checked as paths).
    for (const ix of spec.retired ?? []) this.dropVariants(info, ix.keys.map(assertPath), existing, made);
  }

  /** Drops the indexes on exactly these keys, under any options, except those just made. */
  private dropVariants(info: TableInfo, keys: string[], existing: Iterable<string>, made: Set<string | null>): void {
    // The same keys under other options (unique, sparse, a partial condition: `:...` after the keys).
    const base = indexName(info.name, keys, false, false);
    for (const variant of existing) {
      if ((variant === base || variant.startsWith(`${base}:`)) && !made.has(variant)) this.db.exec(`DROP INDEX IF EXISTS ${q(variant)}`);
    }
  }

  /** The keys of a declared index that get a column index (array fields are served by their side table). */
  private indexKeys(info: TableInfo, ix: NonNullable<CollectionSpec['indexes']>[number]): string[] {
    if (!Array.isArray(ix.keys) || ix.keys.length === 0) throw new Error(`${info.name}: an index needs keys`);
    for (const [f, v] of Object.entries(ix.partial ?? {})) {
      const type = info.fields.get(assertPath(f));
      if (type === 'bool' && v === true) continue;
      if (type !== 'text') throw new Error(`${info.name}: a partial index's field ${f} must be a declared text field, or a boolean one conditioned on true`);
      if (typeof v !== 'string' || !PARTIAL_VALUE.test(v)) throw new Error(`${info.name}: a partial index's value must be a plain word, not ${String(v)}`);
    }
    const keys: string[] = [];
    for (const k of ix.keys) {
      assertPath(k);
      if (info.arrays.has(k)) {
        // The side table's (value, doc) index already serves array fields; SQLite has no multikey unique index.
        if (ix.unique) throw new Error(`${info.name}: unique index on array field ${k} is not supported`);
        continue;
      }
      if (!info.fields.has(k)) throw new Error(`${info.name}: index key ${k} must be declared in fields`);
      keys.push(k);
    }
    return keys;
  }

  /** Creates a declared index and returns its name (null when the side tables serve it). */
  private createIndex(info: TableInfo, ix: NonNullable<CollectionSpec['indexes']>[number]): string | null {
    const companion = createCompanionIndex(this.db, info, ix);
    if (companion) return companion;
    const keys = this.indexKeys(info, ix);
    if (keys.length === 0) return null;
    const name = indexName(info.name, keys, ix.unique === true, ix.sparse === true, ix.partial);
    // MongoDB's sparse index leaves out documents that have none of the keys; a partial one those without its values.
    const conditions = [
      ...(ix.sparse ? [`(${keys.map((k) => `${q(k)} IS NOT NULL`).join(' OR ')})`] : []),
      ...Object.entries(ix.partial ?? {}).map(([f, v]) => `${q(f)} = ${v === true ? 1 : `'${v}'`}`),
    ];
    const where = conditions.length ? ` WHERE ${conditions.join(' AND ')}` : '';
    try {
      this.db.exec(`CREATE ${ix.unique ? 'UNIQUE ' : ''}INDEX IF NOT EXISTS ${q(name)} ON ${info.table} (${keys.map(q).join(', ')})${where}`);
    } catch (e) {
      if (isUniqueViolation(e)) throw duplicateKey(e, info.name);
      throw e;
    }
    return name;
  }

  /** EXPLAIN QUERY PLAN lines for a find, to check index use. */
  explain(collection: string, filter: Filter, options: FindOptions = {}): string[] {
    const info = this.table(collection);
    const b = new Sql();
    const where = this.compile(info, filter, b);
    const order = this.orderBy(info, options.sort, b);
    const rows = this.db
      .prepare(`EXPLAIN QUERY PLAN SELECT t.doc FROM ${info.table} AS t WHERE ${where}${order}`)
      .all(...b.params)
      .map(sqlRow);
    return rows.map((r) => sqlText(r.detail));
  }

  /**
   * Runs `fn` in a transaction (nested calls become savepoints, also inside a unit of work) and maps
   * unique violations; `insertOnly` when it only adds new documents (generations.ts); `oneStatement` when
   * it runs a single statement, which SQLite makes atomic by itself, so no transaction or savepoint of
   * its own is opened (two statements fewer, and no page journalled for it).
   */
  write<R>(collection: string, fn: () => R, insertOnly = false, oneStatement = false): R {
    // A write runs to its end on this thread, so no reader comes between: one mark afterwards is enough.
    this.units.touch(collection, insertOnly);
    if (sqlCount.on && !this.db.inTransaction) sqlCount.commits++;
    try {
      // A single statement is atomic by itself; more are made one in a transaction (a savepoint inside a unit).
      return oneStatement ? fn() : this.db.transaction(fn)();
    } catch (e) {
      if (isUniqueViolation(e)) throw duplicateKey(e, collection);
      throw e;
    } finally {
      this.generations.bump(collection, insertOnly);
    }
  }

  async ping(): Promise<void> {
    this.stmt('SELECT 1', true).get();
  }

  foreignWrites(): number {
    // Moves on every commit by another connection; not on this connection's own writes, nor on checkpoints.
    // Every keeper asks before each read and keep (a few times per request), so the answer is reused
    // until the event loop's current phase ends: a commit is then seen by the next request, and a stamp
    // read a moment early only ever makes a kept value look older than it is (a miss, never a stale hit
    // beyond that phase).
    if (this.dataVersion === undefined) {
      this.dataVersion = sqlNumber(this.stmt('PRAGMA data_version', true).get());
      setImmediate(() => (this.dataVersion = undefined));
    }
    return this.dataVersion;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    // A group of units whose commit is still to come commits now (sqlite-unit.ts).
    this.units.flush();
    this.statements.clear();
    await this.checkpointer?.close();
    // SQLite's advice: refresh planner statistics where they went stale, right before closing.
    if (this.db.open && !this.db.readonly) this.db.pragma('optimize');
    this.db.close();
  }
}

export function openSqliteStore(dataDir: string): SqliteStore {
  return new SqliteStore({ dataDir });
}
