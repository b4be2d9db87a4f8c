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
import { assertCollectionName, assertPath, COUNTERS, normalizeFilter, normalizeWindow, validateUpdate } from './query';
import type { Cond } from './query';
import {
  DuplicateKeyError,
  type Collection,
  type CollectionSpec,
  type Doc,
  type FieldType,
  type Filter,
  type FindOptions,
  type Scalar,
  type Store,
  type Update,
  type UpdateResult,
} from './types';

type DB = Database.Database;
type Statement = Database.Statement;
type ColValue = number | string;

const SQL_TYPE: Record<FieldType, string> = {
  int: 'INTEGER',
  number: 'NUMERIC',
  text: 'TEXT',
  bool: 'INTEGER',
  date: 'INTEGER',
};
const FIELD_TYPES = new Set<string>(Object.keys(SQL_TYPE));
const RESERVED_COLUMNS = new Set(['rid', 'doc']);
const STATEMENT_CACHE_SIZE = 500;
/** The most side-table values one INSERT statement carries (two parameters each); a power of two. */
const SIDE_CHUNK = 256;
/** Bytes of WAL file kept after a checkpoint reset it; a larger file is truncated to this. */
const WAL_SIZE_LIMIT_BYTES = 64 * 1024 * 1024;

// ---------------------------------------------------------------------------------------------------------
// JSON encoding with Dates

/** True for a valid Date from any realm (jest's vm, worker threads), not only this module's. */
export function isDate(v: unknown): v is Date {
  return (v instanceof Date || (typeof v === 'object' && v !== null && Object.prototype.toString.call(v) === '[object Date]')) &&
    !Number.isNaN((v as Date).getTime());
}

function dateReplacer(this: unknown, key: string, value: unknown): unknown {
  // JSON.stringify has already turned a Date into its ISO string (or null when invalid); the holder still
  // has the Date itself. Only strings and nulls can be converted Dates, which keeps this hot path short.
  if (typeof value === 'string') {
    const raw = (this as Record<string, unknown>)[key];
    if (typeof raw === 'object' && raw !== null && isDate(raw)) return { $date: value };
  } else if (value === null) {
    const raw = (this as Record<string, unknown>)[key];
    if (raw !== null && Object.prototype.toString.call(raw) === '[object Date]') throw new Error(`invalid Date at ${key}`);
  }
  return value;
}

/** What `withDates` answers for a value only the replacer encodes exactly (toJSON methods, class instances, other realms' Dates). */
const REPLACER_ONLY = Symbol('replacer only');
const dateToJSON = Date.prototype.toJSON;
/** Deeper than any stored document; a cycle ends here and JSON.stringify reports it. */
const MAX_DEPTH = 200;

/**
 * The value with every Date replaced by `{$date}`, copying only the objects and arrays on the way to a
 * Date (a document without Dates comes back as it is). JSON.stringify without a replacer then writes
 * exactly what it writes with `dateReplacer`, without a call into JS for every key.
 */
function withDates(v: unknown, key: string, depth: number): unknown {
  if (typeof v !== 'object' || v === null) return v;
  if (depth > MAX_DEPTH) return REPLACER_ONLY;
  if (Array.isArray(v)) {
    if (typeof (v as { toJSON?: unknown }).toJSON === 'function') return REPLACER_ONLY;
    let out: unknown[] | null = null;
    for (let i = 0; i < v.length; i++) {
      const x = v[i];
      const y = withDates(x, String(i), depth + 1);
      if (y === REPLACER_ONLY) return REPLACER_ONLY;
      if (y !== x) (out ??= v.slice())[i] = y;
    }
    return out ?? v;
  }
  const proto = Object.getPrototypeOf(v);
  if (proto === Date.prototype) {
    const d = v as Date;
    if (d.toJSON !== dateToJSON) return REPLACER_ONLY;
    if (Number.isNaN(d.getTime())) throw new Error(`invalid Date at ${key}`);
    return { $date: d.toISOString() };
  }
  if ((proto !== Object.prototype && proto !== null) || typeof (v as { toJSON?: unknown }).toJSON === 'function') return REPLACER_ONLY;
  const o = v as Record<string, unknown>;
  const keys = Object.keys(o);
  let out: Record<string, unknown> | null = null;
  for (let i = 0; i < keys.length; i++) {
    const k = keys[i];
    const x = o[k];
    const y = withDates(x, k, depth + 1);
    if (y === REPLACER_ONLY) return REPLACER_ONLY;
    if (y !== x && out === null) {
      // A prototype-less copy, so an own "__proto__" key stays a key; the keys keep their order.
      out = Object.create(null) as Record<string, unknown>;
      for (let j = 0; j < i; j++) out[keys[j]] = o[keys[j]];
    }
    if (out !== null) out[k] = y;
  }
  return out ?? v;
}

export function encodeDoc(doc: unknown): string {
  const prepared = withDates(doc, '', 0);
  return prepared === REPLACER_ONLY ? JSON.stringify(doc, dateReplacer) : JSON.stringify(prepared);
}

/** Turns `{$date}` objects back into Dates, in place; only objects and arrays are visited. */
function revive(v: object): unknown {
  if (Array.isArray(v)) {
    for (let i = 0; i < v.length; i++) {
      const x: unknown = v[i];
      if (typeof x === 'object' && x !== null) v[i] = revive(x);
    }
    return v;
  }
  const o = v as Record<string, unknown>;
  const date = o.$date;
  if (typeof date === 'string') {
    let keys = 0;
    // JSON.parse makes plain objects, so for-in sees exactly their own keys (without an array of them).
    for (const _ in o) if (++keys > 1) break;
    if (keys === 1) return new Date(date);
  }
  for (const k in o) {
    const x = o[k];
    if (typeof x === 'object' && x !== null) o[k] = revive(x);
  }
  return o;
}

export function decodeDoc<T = Doc>(text: string): T {
  const v = JSON.parse(text);
  // Walking the parsed tree only when a date is present keeps reads of date-free documents at JSON.parse speed.
  return (typeof v === 'object' && v !== null && text.includes('"$date"') ? revive(v) : v) as T;
}

// ---------------------------------------------------------------------------------------------------------
// Paths and typed values

function getPath(doc: unknown, p: string): unknown {
  if (!p.includes('.')) return (doc as Record<string, unknown>)[p];
  let cur: unknown = doc;
  for (const seg of p.split('.')) {
    if (cur === null || typeof cur !== 'object') return undefined;
    cur = (cur as Record<string, unknown>)[seg];
  }
  return cur;
}

/** The column value for a field of `type`, or undefined when `v` is not of that type. */
function toColumn(type: FieldType, v: unknown): ColValue | undefined {
  switch (type) {
    case 'int':
    case 'number':
      return typeof v === 'number' && Number.isFinite(v) ? v : undefined;
    case 'text':
      return typeof v === 'string' ? v : undefined;
    case 'bool':
      return typeof v === 'boolean' ? (v ? 1 : 0) : undefined;
    case 'date':
      return isDate(v) ? v.getTime() : undefined;
  }
}

function arrayValues(type: FieldType, v: unknown): ColValue[] {
  const list = Array.isArray(v) ? v : v === undefined || v === null ? [] : [v];
  const out: ColValue[] = [];
  for (const x of list) {
    const c = toColumn(type, x);
    if (c !== undefined && !out.includes(c)) out.push(c);
  }
  return out;
}

const q = (ident: string): string => `"${ident}"`;
/** JSON path literal; segments are validated by assertPath so they never contain quotes. */
const jsonPath = (p: string): string => `'$.${p.split('.').map((s) => `"${s}"`).join('.')}'`;
const LIKE_ESCAPE = (s: string): string => s.replace(/[\\%_]/g, (m) => `\\${m}`);
const ASCII = /^[\x00-\x7f]*$/;

// ---------------------------------------------------------------------------------------------------------
// Table metadata

interface ArrayField {
  type: FieldType;
  table: string;
}

interface TableInfo {
  name: string;
  table: string;
  fields: Map<string, FieldType>;
  arrays: Map<string, ArrayField>;
  insertSql: string;
  updateSql: string;
  columns: Array<[path: string, type: FieldType]>;
}

/** An INSERT of `count` (doc, value) pairs into a side table; existing pairs are left as they are. */
function sideInsertSql(table: string, count: number): string {
  return `INSERT OR IGNORE INTO ${q(table)} (doc, value) VALUES ${Array.from({ length: count }, () => '(?, ?)').join(', ')}`;
}

function buildTableInfo(name: string, fields: Map<string, FieldType>, arrays: Map<string, ArrayField>): TableInfo {
  const columns = [...fields.entries()];
  const cols = columns.map(([p]) => q(p));
  return {
    name,
    table: q(name),
    fields,
    arrays,
    columns,
    insertSql: `INSERT INTO ${q(name)} (doc${cols.map((c) => `, ${c}`).join('')}) VALUES (?${cols.map(() => ', ?').join('')})`,
    updateSql: `UPDATE ${q(name)} SET doc = ?${cols.map((c) => `, ${c} = ?`).join('')} WHERE rid = ?`,
  };
}

// ---------------------------------------------------------------------------------------------------------
// Filter compilation

class Sql {
  readonly params: unknown[] = [];
  bind(v: unknown): string {
    this.params.push(v);
    return '?';
  }
}

/** A condition that yields 1 where `s` is not 1 (false or NULL), so negation never meets SQL's NULL logic. */
const not = (s: string): string => `((${s}) IS NOT 1)`;
const or = (parts: string[]): string => (parts.length === 0 ? '0' : parts.length === 1 ? parts[0] : `(${parts.join(' OR ')})`);

/** Tests one json_each row (alias j) against a scalar with MongoDB's type bracketing. */
function jsonTest(b: Sql, op: string, v: Exclude<Scalar, null>): string {
  if (typeof v === 'string') return `(j.type = 'text' AND j.value ${op} ${b.bind(v)})`;
  if (typeof v === 'number') return `(j.type IN ('integer', 'real') AND j.value ${op} ${b.bind(v)})`;
  if (typeof v === 'boolean') return `(j.type IN ('true', 'false') AND j.value ${op} ${b.bind(v ? 1 : 0)})`;
  return `(j.type = 'object' AND json_extract(j.value, '$."$date"') ${op} ${b.bind(v.toISOString())})`;
}

/**
 * The values a path stands for in MongoDB's matching: the elements of an array, else the value itself
 * (wrapped in an array so a Date object is one value, not its members; a missing path yields one null).
 */
const jsonElements = (p: string): string => {
  const jp = jsonPath(p);
  return `json_each(CASE json_type(t.doc, ${jp}) WHEN 'array' THEN t.doc -> ${jp} ELSE json_array(t.doc -> ${jp}) END)`;
};

/** "The field, or any element of it when it is an array, passes `test`". */
const jsonAny = (p: string, test: string): string => `EXISTS (SELECT 1 FROM ${jsonElements(p)} AS j WHERE ${test})`;

/** Null, missing, or an array holding null. */
const jsonIsNull = (p: string): string => jsonAny(p, `j.type = 'null'`);

const SQL_OP: Record<string, string> = { eq: '=', gt: '>', gte: '>=', lt: '<', lte: '<=' };

/**
 * Side-table values held by at least this many records are "popular": a filter on one is checked per
 * record (an EXISTS probe of the side table's primary key) while an index of the main table drives the
 * query in its order, and a LIMIT stops it early. A rarer value drives the query itself: its few
 * records are looked up by rowid. (As `t.rid IN (...)`, a popular value made SQLite look up every one of
 * its records, and sort them, for a page of ten: 12 ms for a category of 3,000 events.)
 */
export const POPULAR_MEMBERS = 500;

class Compiler {
  constructor(
    private readonly info: TableInfo,
    private readonly b: Sql,
    private readonly icontains: string,
    /** Whether a side table holds a value for at least POPULAR_MEMBERS records. */
    private readonly popular: (table: string, value: ColValue) => boolean = () => false,
  ) {}

  /** Records whose array field holds `value` (one typed value of the side table). */
  private member(table: string, value: ColValue): string {
    if (this.popular(table, value)) return `EXISTS (SELECT 1 FROM ${q(table)} AS s WHERE s.doc = t.rid AND s.value = ${this.b.bind(value)})`;
    return `t.rid IN (SELECT s.doc FROM ${q(table)} AS s WHERE s.value = ${this.b.bind(value)})`;
  }

  cond(c: Cond): string {
    if (c.kind === 'and') return c.items.length === 0 ? '1' : `(${c.items.map((x) => this.cond(x)).join(' AND ')})`;
    if (c.kind === 'or') return or(c.items.map((x) => this.cond(x)));
    const { path: p, op, value } = c;
    switch (op) {
      case 'eq':
        return this.compare(p, 'eq', value as Scalar);
      case 'ne':
        return not(this.compare(p, 'eq', value as Scalar));
      case 'in':
        return this.in(p, value as Scalar[]);
      case 'nin':
        return not(this.in(p, value as Scalar[]));
      case 'gt':
      case 'lt':
        // Only null is "equal" to null in MongoDB's order, so strict comparisons with null match nothing.
        return value === null ? '0' : this.compare(p, op, value as Scalar);
      case 'gte':
      case 'lte':
        return this.compare(p, op, value as Scalar);
      case 'exists':
        return `(json_type(t.doc, ${jsonPath(p)}) IS ${value ? 'NOT ' : ''}NULL)`;
      case 'icontains':
        return this.icontainsSql(p, value as string);
    }
  }

  private nullSql(p: string): string {
    const col = this.info.fields.get(p);
    // The column is NULL for both null and missing (and wrong types); the index narrows, JSON decides.
    return col ? `(t.${q(p)} IS NULL AND ${jsonIsNull(p)})` : jsonIsNull(p);
  }

  private compare(p: string, op: string, v: Scalar): string {
    if (v === null) return this.nullSql(p);
    const sqlOp = SQL_OP[op];
    const colType = this.info.fields.get(p);
    if (colType) {
      const c = toColumn(colType, v);
      if (c !== undefined) return `t.${q(p)} ${sqlOp} ${this.b.bind(c)}`;
    }
    const arr = this.info.arrays.get(p);
    if (arr) {
      const c = toColumn(arr.type, v);
      if (c !== undefined && op === 'eq') return this.member(arr.table, c);
      if (c !== undefined) return `t.rid IN (SELECT s.doc FROM ${q(arr.table)} AS s WHERE s.value ${sqlOp} ${this.b.bind(c)})`;
    }
    return jsonAny(p, jsonTest(this.b, sqlOp, v));
  }

  private in(p: string, values: Scalar[]): string {
    const parts: string[] = [];
    const colType = this.info.fields.get(p);
    const arr = this.info.arrays.get(p);
    const typed: ColValue[] = [];
    const rest: Exclude<Scalar, null>[] = [];
    let hasNull = false;
    for (const v of values) {
      if (v === null) {
        hasNull = true;
        continue;
      }
      const c = colType ? toColumn(colType, v) : arr ? toColumn(arr.type, v) : undefined;
      if (c !== undefined) typed.push(c);
      else rest.push(v);
    }
    // One typed value is an equality: the planner can then use it as an index prefix (a status IN (...)
    // before a date range stops SQLite from walking the date index in order, and it sorts instead).
    if (typed.length === 1) {
      parts.push(colType ? `t.${q(p)} = ${this.b.bind(typed[0])}` : this.member(arr!.table, typed[0]));
    } else if (typed.length > 0) {
      // The list travels as one JSON parameter, so every longer list shares one prepared statement.
      const list = `(SELECT value FROM json_each(${this.b.bind(JSON.stringify(typed))}))`;
      parts.push(colType ? `t.${q(p)} IN ${list}` : `t.rid IN (SELECT s.doc FROM ${q(arr!.table)} AS s WHERE s.value IN ${list})`);
    }
    if (rest.length > 0) parts.push(jsonAny(p, or(rest.map((v) => jsonTest(this.b, '=', v)))));
    if (hasNull) parts.push(this.nullSql(p));
    return or(parts);
  }

  private textMatch(expr: string, needle: string): string {
    if (ASCII.test(needle)) {
      // SQLite's LIKE folds ASCII case natively and is far cheaper than a JS callback per row.
      return `${expr} LIKE ${this.b.bind(`%${LIKE_ESCAPE(needle)}%`)} ESCAPE '\\'`;
    }
    return `${this.icontains}(${expr}, ${this.b.bind(needle.toLowerCase())})`;
  }

  private icontainsSql(p: string, needle: string): string {
    if (this.info.fields.get(p) === 'text') return `(${this.textMatch(`t.${q(p)}`, needle)})`;
    const arr = this.info.arrays.get(p);
    if (arr && arr.type === 'text') {
      return `t.rid IN (SELECT s.doc FROM ${q(arr.table)} AS s WHERE ${this.textMatch('s.value', needle)})`;
    }
    return jsonAny(p, `(j.type = 'text' AND ${this.textMatch('j.value', needle)})`);
  }

  orderBy(sort: FindOptions['sort']): string {
    const keys: string[] = [];
    for (const [p, dir] of sort ?? []) {
      assertPath(p);
      if (dir !== 1 && dir !== -1) throw new Error(`sort direction for ${p} must be 1 or -1`);
      const d = dir === 1 ? 'ASC' : 'DESC';
      const arr = this.info.arrays.get(p);
      if (this.info.fields.has(p)) keys.push(`t.${q(p)} ${d}`);
      // MongoDB orders an array by its smallest element ascending and its largest descending.
      else if (arr) keys.push(`(SELECT ${dir === 1 ? 'min' : 'max'}(s.value) FROM ${q(arr.table)} AS s WHERE s.doc = t.rid) ${d}`);
      else keys.push(`json_extract(t.doc, ${jsonPath(p)}) ${d}`);
    }
    // Insertion order breaks ties, so pages never overlap or skip rows; it follows the last key's direction
    // so an index ending in that key (which SQLite orders by rowid last) satisfies the whole ORDER BY.
    if (keys.length > 0) keys.push(`t.rid ${sort![sort!.length - 1][1] === 1 ? 'ASC' : 'DESC'}`);
    return keys.length > 0 ? ` ORDER BY ${keys.join(', ')}` : '';
  }
}

// ---------------------------------------------------------------------------------------------------------
// Updates, applied in JS on the parsed document

function sameValue(a: unknown, b: unknown): boolean {
  if (isDate(a) && isDate(b)) return a.getTime() === b.getTime();
  return a === b;
}

function parentOf(doc: Doc, p: string, create: boolean): [Record<string, unknown> | unknown[], string] | null {
  const segs = p.split('.');
  let cur: unknown = doc;
  for (let i = 0; i < segs.length - 1; i++) {
    const container = cur as Record<string, unknown>;
    let next = container[segs[i]];
    if (next === undefined || next === null) {
      if (!create) return null;
      next = {};
      container[segs[i]] = next;
    } else if (typeof next !== 'object' || isDate(next)) {
      if (!create) return null;
      throw new Error(`cannot create field ${segs[i + 1]} in non-object ${segs.slice(0, i + 1).join('.')}`);
    }
    cur = next;
  }
  return [cur as Record<string, unknown>, segs[segs.length - 1]];
}

function setIn(container: Record<string, unknown> | unknown[], key: string, v: unknown): void {
  if (Array.isArray(container)) {
    if (!/^\d+$/.test(key)) throw new Error(`cannot set field ${key} on an array`);
    container[Number(key)] = v;
  } else container[key] = v;
}

/** A deep copy that keeps Dates, so stored documents share nothing with the caller's objects. */
function cloneValue(v: unknown): unknown {
  if (v === null || typeof v !== 'object') return v;
  if (isDate(v)) return new Date(v.getTime());
  if (Array.isArray(v)) return v.map(cloneValue);
  const out: Record<string, unknown> = {};
  for (const [k, x] of Object.entries(v)) out[k] = cloneValue(x);
  return out;
}

export function applyUpdate(doc: Doc, update: Update): void {
  for (const [p, v] of Object.entries(update.$set ?? {})) {
    const [c, k] = parentOf(doc, p, true)!;
    setIn(c, k, cloneValue(v));
  }
  for (const p of Object.keys(update.$unset ?? {})) {
    const at = parentOf(doc, p, false);
    if (!at) continue;
    const [c, k] = at;
    if (Array.isArray(c)) {
      // MongoDB leaves a null hole rather than shifting the array.
      if (/^\d+$/.test(k) && Number(k) < c.length) c[Number(k)] = null;
    } else delete c[k];
  }
  for (const [p, by] of Object.entries(update.$inc ?? {})) {
    const [c, k] = parentOf(doc, p, true)!;
    const cur = (c as Record<string, unknown>)[k];
    if (cur === undefined) setIn(c, k, by);
    else if (typeof cur === 'number') setIn(c, k, cur + by);
    else throw new Error(`cannot apply $inc to non-numeric field ${p}`);
  }
  for (const [p, v] of Object.entries(update.$push ?? {})) {
    const [c, k] = parentOf(doc, p, true)!;
    const cur = (c as Record<string, unknown>)[k];
    if (cur === undefined) setIn(c, k, [cloneValue(v)]);
    else if (Array.isArray(cur)) cur.push(cloneValue(v));
    else throw new Error(`cannot apply $push to non-array field ${p}`);
  }
  for (const [p, v] of Object.entries(update.$pull ?? {})) {
    const at = parentOf(doc, p, false);
    if (!at) continue;
    const [c, k] = at;
    const cur = (c as Record<string, unknown>)[k];
    if (cur === undefined) continue;
    if (!Array.isArray(cur)) throw new Error(`cannot apply $pull to non-array field ${p}`);
    setIn(
      c,
      k,
      cur.filter((x) => !sameValue(x, v)),
    );
  }
}

// ---------------------------------------------------------------------------------------------------------
// Errors

function isUniqueViolation(e: unknown): e is Error & { code: string } {
  const code = (e as { code?: unknown })?.code;
  return code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY';
}

function duplicateKey(e: Error, collection: string): DuplicateKeyError {
  // better-sqlite3 reports "UNIQUE constraint failed: posts.slug, posts.type".
  const list = e.message.split(':').slice(1).join(':');
  const keys = list
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)
    .map((s) => (s.startsWith(`${collection}.`) ? s.slice(collection.length + 1) : s));
  return new DuplicateKeyError(collection, keys);
}

// ---------------------------------------------------------------------------------------------------------
// The store

export interface SqliteStoreOptions {
  /** Folder for `store.sqlite`, or `:memory:` for a private in-memory database. */
  dataDir: string;
}

export class SqliteStore implements Store {
  readonly kind = 'sqlite' as const;
  /** The underlying connection, for diagnostics and SQLite-only tests; services go through the port. */
  readonly db: DB;
  readonly file: string;
  private readonly statements = new Map<string, Statement>();
  private readonly tables = new Map<string, TableInfo>();
  private readonly collections = new Map<string, SqliteCollection<Doc>>();
  private readonly icontainsFn = 'ecs_icontains';
  private closed = false;
  readonly generations = new WriteGenerations();
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
    this.checkpointer = BackgroundCheckpointer.start(this.file);
  }

  /** Cached prepared statement per SQL text; `pluck` statements return the first column only. */
  stmt(sql: string, pluck = false): Statement {
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
    const rows = this.db.prepare('SELECT collection, path, kind, type FROM _fields').all() as Array<{
      collection: string;
      path: string;
      kind: 'field' | 'array';
      type: FieldType;
    }>;
    const existing = new Set(
      (this.db.prepare(`SELECT name FROM sqlite_master WHERE type = 'table'`).pluck().all() as string[]),
    );
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
    for (const [name, t] of byName) this.tables.set(name, buildTableInfo(name, t.fields, t.arrays));
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
    return new Compiler(info, b, this.icontainsFn, (table, value) => this.isPopular(table, value)).cond(normalizeFilter(filter));
  }

  /** Whether at least POPULAR_MEMBERS records hold the value (an index range read, stopped at the threshold). */
  private isPopular(table: string, value: ColValue): boolean {
    const held = this.stmt(`SELECT COUNT(*) FROM (SELECT 1 FROM ${q(table)} WHERE value = ? LIMIT ${POPULAR_MEMBERS})`, true).get(value) as number;
    return held >= POPULAR_MEMBERS;
  }

  orderBy(info: TableInfo, sort: FindOptions['sort'], b: Sql): string {
    return new Compiler(info, b, this.icontainsFn).orderBy(sort);
  }

  collection<T extends Doc = Doc>(name: string): Collection<T> {
    let c = this.collections.get(name);
    if (!c) {
      this.table(name);
      c = new SqliteCollection<Doc>(this, name);
      this.collections.set(name, c);
    }
    return c as unknown as Collection<T>;
  }

  async nextId(counter: string, count = 1): Promise<number> {
    if (!Number.isInteger(count) || count < 1) throw new Error('nextId count must be a positive integer');
    // One statement, so concurrent callers (and processes sharing the file) always get disjoint blocks.
    const seq = this.stmt(
      `INSERT INTO ${q(COUNTERS)} (name, seq) VALUES (?, ?) ON CONFLICT(name) DO UPDATE SET seq = seq + excluded.seq RETURNING seq`,
      true,
    ).get(counter, count) as number;
    return seq - count + 1;
  }

  async ensure(specs: CollectionSpec[]): Promise<void> {
    for (const spec of specs) this.ensureOne(spec);
    this.db.pragma('optimize');
  }

  private ensureOne(spec: CollectionSpec): void {
    const name = assertCollectionName(spec.name);
    const declared: Array<[string, 'field' | 'array', FieldType]> = [
      ...Object.entries(spec.fields ?? {}).map(([p, t]) => [p, 'field', t] as [string, 'field', FieldType]),
      ...Object.entries(spec.arrays ?? {}).map(([p, t]) => [p, 'array', t] as [string, 'array', FieldType]),
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
        (this.db.prepare('SELECT path, kind, type FROM _fields WHERE collection = ?').all(name) as Array<{
          path: string;
          kind: string;
          type: string;
        }>).map((r) => [r.path, r]),
      );
      const columns = new Set(
        (this.db.prepare(`SELECT name FROM pragma_table_info(?)`).pluck().all(name) as string[]),
      );
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
        if (k.kind === 'field') fields.set(p, k.type as FieldType);
        else arrays.set(p, { type: k.type as FieldType, table: `${name}:${p}` });
      }
      const next = buildTableInfo(name, fields, arrays);
      if (fresh.length > 0) this.backfill(next, fresh);
      for (const ix of spec.indexes ?? []) this.createIndex(next, ix);
      return next;
    })();
    // Published only after the commit, so a failed ensure() leaves the in-memory layout as it was.
    this.tables.set(name, info);
  }

  /** Fills newly declared columns and side tables from the JSON of existing rows. */
  private backfill(info: TableInfo, fresh: Array<[string, 'field' | 'array', FieldType]>): void {
    const cols = fresh.filter(([, k]) => k === 'field');
    const arrays = fresh.filter(([, k]) => k === 'array');
    const set = cols.length
      ? this.db.prepare(`UPDATE ${info.table} SET ${cols.map(([p]) => `${q(p)} = ?`).join(', ')} WHERE rid = ?`)
      : null;
    const sides = arrays.map(([p, , type]) => ({
      p,
      type,
      ins: this.db.prepare(`INSERT OR IGNORE INTO ${q(`${info.name}:${p}`)} (doc, value) VALUES (?, ?)`),
    }));
    // In pages by rowid: better-sqlite3 allows no writes while a read cursor is open.
    const page = this.db.prepare(`SELECT rid, doc FROM ${info.table} WHERE rid > ? ORDER BY rid LIMIT 1000`);
    for (let last = -Infinity; ; ) {
      const rows = page.all(last) as Array<{ rid: number; doc: string }>;
      if (rows.length === 0) break;
      for (const row of rows) {
        const doc = decodeDoc(row.doc);
        if (set) set.run(...cols.map(([p, , type]) => toColumn(type, getPath(doc, p)) ?? null), row.rid);
        for (const s of sides) for (const v of arrayValues(s.type, getPath(doc, s.p))) s.ins.run(row.rid, v);
      }
      last = rows[rows.length - 1].rid;
    }
  }

  private createIndex(info: TableInfo, ix: NonNullable<CollectionSpec['indexes']>[number]): void {
    if (!Array.isArray(ix.keys) || ix.keys.length === 0) throw new Error(`${info.name}: an index needs keys`);
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
    if (keys.length === 0) return;
    const name = `ix:${info.name}:${keys.join('+')}${ix.unique ? ':unique' : ''}${ix.sparse ? ':sparse' : ''}`;
    // MongoDB's sparse index leaves out documents that have none of the keys.
    const where = ix.sparse ? ` WHERE ${keys.map((k) => `${q(k)} IS NOT NULL`).join(' OR ')}` : '';
    try {
      this.db.exec(
        `CREATE ${ix.unique ? 'UNIQUE ' : ''}INDEX IF NOT EXISTS ${q(name)} ON ${info.table} (${keys.map(q).join(', ')})${where}`,
      );
    } catch (e) {
      if (isUniqueViolation(e)) throw duplicateKey(e, info.name);
      throw e;
    }
  }

  /** EXPLAIN QUERY PLAN lines for a find, to check index use. */
  explain(collection: string, filter: Filter, options: FindOptions = {}): string[] {
    const info = this.table(collection);
    const b = new Sql();
    const where = this.compile(info, filter, b);
    const order = this.orderBy(info, options.sort, b);
    const rows = this.db
      .prepare(`EXPLAIN QUERY PLAN SELECT t.doc FROM ${info.table} AS t WHERE ${where}${order}`)
      .all(...b.params) as Array<{ detail: string }>;
    return rows.map((r) => r.detail);
  }

  /** Runs `fn` in a transaction (nested calls become savepoints) and maps unique violations. */
  write<R>(collection: string, fn: () => R): R {
    // A write runs to its end on this thread, so no reader comes between: one mark afterwards is enough.
    try {
      return this.db.transaction(fn)();
    } catch (e) {
      if (isUniqueViolation(e)) throw duplicateKey(e, collection);
      throw e;
    } finally {
      this.generations.bump(collection);
    }
  }

  async ping(): Promise<void> {
    this.stmt('SELECT 1', true).get();
  }

  foreignWrites(): number {
    // Moves on every commit by another connection; not on this connection's own writes, nor on checkpoints.
    return this.stmt('PRAGMA data_version', true).get() as number;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
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

// ---------------------------------------------------------------------------------------------------------
// Collections

function project<T extends Doc>(doc: T, fields: string[] | undefined): T {
  if (!fields) return doc;
  const out: Doc = {};
  if ('id' in doc) out.id = doc.id;
  for (const f of fields) if (f in doc) out[f] = doc[f];
  return out as T;
}

class SqliteCollection<T extends Doc> implements Collection<T> {
  constructor(private readonly store: SqliteStore, readonly name: string) {}

  private get info(): TableInfo {
    return this.store.table(this.name);
  }

  private select(filter: Filter, window: FindOptions, columns: string): { sql: string; params: unknown[] } {
    const options = normalizeWindow(window);
    const info = this.info;
    const b = new Sql();
    const where = this.store.compile(info, filter, b);
    let sql = `SELECT ${columns} FROM ${info.table} AS t WHERE ${where}${this.store.orderBy(info, options.sort, b)}`;
    // A limit of 0 means "no limit", as in MongoDB.
    if (options.limit || options.skip) sql += ` LIMIT ${b.bind(options.limit || -1)} OFFSET ${b.bind(options.skip ?? 0)}`;
    return { sql, params: b.params };
  }

  async find(filter: Filter, options: FindOptions = {}): Promise<T[]> {
    const { sql, params } = this.select(filter, options, 't.doc');
    const rows = this.store.stmt(sql, true).all(...params) as string[];
    return rows.map((r) => project(decodeDoc<T>(r), options.fields));
  }

  async findOne(filter: Filter, options: Omit<FindOptions, 'limit'> = {}): Promise<T | null> {
    const { sql, params } = this.select(filter, { ...options, limit: 1 }, 't.doc');
    const row = this.store.stmt(sql, true).get(...params) as string | undefined;
    return row === undefined ? null : project(decodeDoc<T>(row), options.fields);
  }

  async count(filter: Filter): Promise<number> {
    const info = this.info;
    const b = new Sql();
    const where = this.store.compile(info, filter, b);
    return this.store.stmt(`SELECT COUNT(*) FROM ${info.table} AS t WHERE ${where}`, true).get(...b.params) as number;
  }

  async distinct(p: string, filter: Filter): Promise<Scalar[]> {
    assertPath(p);
    const info = this.info;
    const b = new Sql();
    const where = this.store.compile(info, filter, b);
    const rows = this.store
      .stmt(
        `SELECT DISTINCT j.type AS type, j.value AS value FROM ${info.table} AS t, ${jsonElements(p)} AS j
         WHERE json_type(t.doc, ${jsonPath(p)}) IS NOT NULL AND ${where}`,
      )
      .all(...b.params) as Array<{ type: string; value: unknown }>;
    return rows.map(({ type, value }) => {
      if (type === 'true') return true;
      if (type === 'false') return false;
      if (type === 'object' || type === 'array') return decodeDoc(value as string) as unknown as Scalar;
      return value as Scalar;
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
    const pairs: unknown[][] = [...info.arrays].map(() => []);
    for (const row of rows) {
      const rid = insert.run(...row.values).lastInsertRowid;
      for (let i = 0; i < pairs.length; i++) for (const v of row.sides[i]) pairs[i].push(rid, v);
    }
    let i = 0;
    for (const arr of info.arrays.values()) {
      const list = pairs[i++];
      for (let at = 0; at < list.length; ) {
        let count = SIDE_CHUNK;
        while (count * 2 > list.length - at) count /= 2;
        this.store.stmt(sideInsertSql(arr.table, count)).run(...list.slice(at, at + count * 2));
        at += count * 2;
      }
    }
  }

  async insertOne(doc: T): Promise<void> {
    const info = this.info;
    const rows = this.rowsOf(info, [doc]);
    this.store.write(this.name, () => this.insertRows(info, rows));
  }

  async insertMany(docs: T[]): Promise<void> {
    if (docs.length === 0) return;
    const info = this.info;
    const rows = this.rowsOf(info, docs);
    this.store.write(this.name, () => this.insertRows(info, rows));
  }

  private matchRows(filter: Filter, one: boolean): Array<{ rid: number; doc: string }> {
    const info = this.info;
    const b = new Sql();
    const where = this.store.compile(info, filter, b);
    const stmt = this.store.stmt(`SELECT t.rid AS rid, t.doc AS doc FROM ${info.table} AS t WHERE ${where}${one ? ' LIMIT 1' : ''}`);
    return stmt.all(...b.params) as Array<{ rid: number; doc: string }>;
  }

  /** Applies `update` to the matching rows; returns counts and the last updated document. */
  private applyUpdates(filter: Filter, update: Update, one: boolean): UpdateResult & { doc: T | null } {
    validateUpdate(update);
    const info = this.info;
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
        applyUpdate(after, update);
        const text = encodeDoc(after);
        last = after;
        // Like MongoDB, an update that changes nothing is matched but not modified.
        if (text === row.doc) continue;
        modified++;
        const values: unknown[] = [text];
        for (const [p, type] of info.columns) values.push(toColumn(type, getPath(after, p)) ?? null);
        values.push(row.rid);
        this.store.stmt(info.updateSql).run(...values);
        for (const [i, [p, arr]] of arrays.entries()) {
          const oldList = oldLists[i];
          const newList = arrayValues(arr.type, getPath(after, p));
          if (oldList.length === newList.length && oldList.every((v, i) => v === newList[i])) continue;
          this.store.stmt(`DELETE FROM ${q(arr.table)} WHERE doc = ?`).run(row.rid);
          const ins = this.store.stmt(`INSERT OR IGNORE INTO ${q(arr.table)} (doc, value) VALUES (?, ?)`);
          for (const v of newList) ins.run(row.rid, v);
        }
      }
      return { matched: rows.length, modified, doc: last };
    });
  }

  async updateOne(filter: Filter, update: Update): Promise<UpdateResult> {
    const { matched, modified } = this.applyUpdates(filter, update, true);
    return { matched, modified };
  }

  async updateMany(filter: Filter, update: Update): Promise<UpdateResult> {
    const { matched, modified } = this.applyUpdates(filter, update, false);
    return { matched, modified };
  }

  async findOneAndUpdate(filter: Filter, update: Update): Promise<T | null> {
    return this.applyUpdates(filter, update, true).doc;
  }

  private remove(filter: Filter, one: boolean): number {
    const info = this.info;
    return this.store.write(this.name, () => {
      const b = new Sql();
      const where = this.store.compile(info, filter, b);
      const rids = this.store
        .stmt(`SELECT t.rid FROM ${info.table} AS t WHERE ${where}${one ? ' LIMIT 1' : ''}`, true)
        .all(...b.params) as number[];
      const del = this.store.stmt(`DELETE FROM ${info.table} WHERE rid = ?`);
      const sides = [...info.arrays.values()].map((a) => this.store.stmt(`DELETE FROM ${q(a.table)} WHERE doc = ?`));
      for (const rid of rids) {
        del.run(rid);
        for (const s of sides) s.run(rid);
      }
      return rids.length;
    });
  }

  async deleteOne(filter: Filter): Promise<number> {
    return this.remove(filter, true);
  }

  async deleteMany(filter: Filter): Promise<number> {
    return this.remove(filter, false);
  }
}
