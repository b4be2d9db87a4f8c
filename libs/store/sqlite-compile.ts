/**
 * From the port's query language to SQL: paths and typed column values, the per-collection table
 * metadata (columns, side tables, prepared INSERT/UPDATE texts), and the filter and sort compiler.
 */
import { assertPath, isObject } from './query';
import type { Cond } from './query';
import { isDate } from './sqlite-codec';
import type { Doc, FieldType, FindOptions, Scalar } from './types';

export type ColValue = number | string;

// ---------------------------------------------------------------------------------------------------------
// Paths and typed values

export function getPath(doc: Doc, p: string): unknown {
  if (!p.includes('.')) return doc[p];
  let cur: unknown = doc;
  for (const seg of p.split('.')) {
    if (!isObject(cur)) return undefined;
    cur = cur[seg];
  }
  return cur;
}

// ---------------------------------------------------------------------------------------------------------
// Rows: better-sqlite3 types what it reads as `unknown`; these read it as what the SQL selects, and fail
// loudly should the schema ever disagree.

/** An INTEGER or REAL value (COUNT, rowid, data_version; no safeIntegers, so never a bigint). */
export function sqlNumber(v: unknown): number {
  if (typeof v !== 'number') throw new Error(`SQLite returned ${typeof v} where a number was expected`);
  return v;
}

/** A TEXT value. */
export function sqlText(v: unknown): string {
  if (typeof v !== 'string') throw new Error(`SQLite returned ${typeof v} where text was expected`);
  return v;
}

/** A row as an object of its columns. */
export function sqlRow(v: unknown): Record<string, unknown> {
  if (!isObject(v)) throw new Error(`SQLite returned ${typeof v} where a row was expected`);
  return v;
}

/** A row of `SELECT rid, doc`. */
export function docRow(v: unknown): { rid: number; doc: string } {
  const r = sqlRow(v);
  return { rid: sqlNumber(r.rid), doc: sqlText(r.doc) };
}

/** The column value for a field of `type`, or undefined when `v` is not of that type. */
export function toColumn(type: FieldType, v: unknown): ColValue | undefined {
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

export function arrayValues(type: FieldType, v: unknown): ColValue[] {
  const list = Array.isArray(v) ? v : v === undefined || v === null ? [] : [v];
  const out: ColValue[] = [];
  for (const x of list) {
    const c = toColumn(type, x);
    if (c !== undefined && !out.includes(c)) out.push(c);
  }
  return out;
}

export const q = (ident: string): string => `"${ident}"`;
/** JSON path literal; segments are validated by assertPath so they never contain quotes. */
export const jsonPath = (p: string): string =>
  `'$.${p
    .split('.')
    .map((s) => `"${s}"`)
    .join('.')}'`;
const LIKE_ESCAPE = (s: string): string => s.replace(/[\\%_]/g, (m) => `\\${m}`);
// eslint-disable-next-line no-control-regex -- the whole ASCII range, control characters included
const ASCII = /^[\x00-\x7f]*$/;

// ---------------------------------------------------------------------------------------------------------
// Table metadata

export interface ArrayField {
  type: FieldType;
  table: string;
  /**
   * Declared fields of the record copied into each of its side-table rows, for an index that starts
   * with the array field (CollectionSpec index keys `[array, field, ...]`): the category archive's
   * (term, event_start, event_end). A filter on the array and on these fields then reads only the
   * side-table entries in range.
   */
  companions?: string[];
}

export interface TableInfo {
  name: string;
  table: string;
  fields: Map<string, FieldType>;
  arrays: Map<string, ArrayField>;
  insertSql: string;
  columns: Array<[path: string, type: FieldType]>;
  /**
   * Per text field, the values its partial indexes are conditioned on (`type` -> vendor_events, ...);
   * `true` for a boolean field whose partial indexes hold the records where it is true.
   * An equality on the field is written with the value as a literal when it is one of them, so SQLite
   * sees it implies the index's condition, and as `+?` otherwise: a plain `?` compared with a partial
   * index's value would make SQLite prepare the statement again at every run.
   */
  partial: Map<string, Set<string>>;
}

/** An INSERT of `count` (doc, value, companions...) rows into a side table; existing pairs are left as they are. */
export function sideInsertSql(table: string, count: number, companions: string[] = []): string {
  const row = `(?, ?${companions.map(() => ', ?').join('')})`;
  return `INSERT OR IGNORE INTO ${q(table)} (doc, value${companions.map((c) => `, ${q(c)}`).join('')}) VALUES ${Array.from({ length: count }, () => row).join(', ')}`;
}

/** The typed column values of a record's companion fields in a side table (its `values` as rowsOf made them: JSON first, then the columns). */
export function companionValues(info: TableInfo, arr: ArrayField, values: unknown[]): unknown[] {
  return (arr.companions ?? []).map((c) => values[1 + info.columns.findIndex(([p]) => p === c)]);
}

/** The UPDATE of a row's JSON and of these columns only (the indexes on other columns are left as they are). */
export function updateSql(info: TableInfo, columns: string[]): string {
  return `UPDATE ${info.table} SET doc = ?${columns.map((c) => `, ${q(c)} = ?`).join('')} WHERE rid = ?`;
}

export function buildTableInfo(
  name: string,
  fields: Map<string, FieldType>,
  arrays: Map<string, ArrayField>,
  partial: Map<string, Set<string>> = new Map(),
): TableInfo {
  const columns = [...fields.entries()];
  const cols = columns.map(([p]) => q(p));
  return {
    name,
    table: q(name),
    fields,
    arrays,
    columns,
    partial,
    insertSql: `INSERT INTO ${q(name)} (doc${cols.map((c) => `, ${c}`).join('')}) VALUES (?${cols.map(() => ', ?').join('')})`,
  };
}

// ---------------------------------------------------------------------------------------------------------
// Filter compilation

export class Sql {
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
export const jsonElements = (p: string): string => {
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

/** A condition on a declared column that a side table's companion copy can also test. */
interface SideCond {
  path: string;
  op: string;
  value: ColValue;
}

export class Compiler {
  /** Conditions the enclosing AND puts on declared columns: pushed into side-table subqueries whose table copies them. */
  private sideConds: SideCond[] = [];

  constructor(
    private readonly info: TableInfo,
    private readonly b: Sql,
    private readonly icontains: string,
    /** Whether a side table holds a value for at least POPULAR_MEMBERS records. */
    private readonly popular: (table: string, value: ColValue) => boolean = () => false,
  ) {}

  /**
   * The enclosing AND's conditions on the side table's companion columns, as extra terms of its
   * subquery. A companion holds the record's own column value, so for a record the term is true exactly
   * when the AND's own condition is: the result is the same, and an index (value, companions...) reads
   * only the entries in range (the category archive's window instead of the whole category).
   */
  private companionSql(arr: ArrayField): string {
    const own = arr.companions;
    if (!own?.length) return '';
    return this.sideConds
      .filter((c) => own.includes(c.path))
      .map((c) => ` AND s.${q(c.path)} ${SQL_OP[c.op]} ${this.b.bind(c.value)}`)
      .join('');
  }

  /** Conditions of an AND's items (and of ANDs among them) a companion column can test: typed comparisons with a declared field. */
  private columnConds(items: Cond[], out: SideCond[] = []): SideCond[] {
    for (const c of items) {
      if (c.kind === 'and') this.columnConds(c.items, out);
      if (c.kind !== 'field' || c.value === null || !(c.op in SQL_OP)) continue;
      const type = this.info.fields.get(c.path);
      const v = type ? toColumn(type, c.value as Scalar) : undefined;
      if (v !== undefined) out.push({ path: c.path, op: c.op, value: v });
    }
    return out;
  }

  /** Records whose array field holds `value` (one typed value of the side table). */
  private member(arr: ArrayField, value: ColValue): string {
    const table = arr.table;
    // Parameters bind in the order of the text: the value, then the companions' bounds.
    if (this.popular(table, value)) {
      const v = this.b.bind(value);
      return `EXISTS (SELECT 1 FROM ${q(table)} AS s WHERE s.doc = t.rid AND s.value = ${v}${this.companionSql(arr)})`;
    }
    const v = this.b.bind(value);
    return `t.rid IN (SELECT s.doc FROM ${q(table)} AS s WHERE s.value = ${v}${this.companionSql(arr)})`;
  }

  cond(c: Cond): string {
    if (c.kind === 'and') {
      if (c.items.length === 0) return '1';
      const outer = this.sideConds;
      this.sideConds = [...outer, ...this.columnConds(c.items)];
      try {
        return `(${c.items.map((x) => this.cond(x)).join(' AND ')})`;
      } finally {
        this.sideConds = outer;
      }
    }
    if (c.kind === 'or') return or(c.items.map((x) => this.cond(x)));
    const p = c.path;
    switch (c.op) {
      case 'eq':
        return this.compare(p, 'eq', c.value);
      case 'ne':
        return not(this.compare(p, 'eq', c.value));
      case 'in':
        return this.in(p, c.value);
      case 'nin':
        return not(this.in(p, c.value));
      case 'gt':
      case 'lt':
        // Only null is "equal" to null in MongoDB's order, so strict comparisons with null match nothing.
        return c.value === null ? '0' : this.compare(p, c.op, c.value);
      case 'gte':
      case 'lte':
        return this.compare(p, c.op, c.value);
      case 'exists':
        return `(json_type(t.doc, ${jsonPath(p)}) IS ${c.value ? 'NOT ' : ''}NULL)`;
      case 'icontains':
        return this.icontainsSql(p, c.value);
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
      if (c !== undefined) return `t.${q(p)} ${sqlOp} ${op === 'eq' ? this.equal(p, c) : this.b.bind(c)}`;
    }
    const arr = this.info.arrays.get(p);
    if (arr) {
      const c = toColumn(arr.type, v);
      if (c !== undefined && op === 'eq') return this.member(arr, c);
      if (c !== undefined) return `t.rid IN (SELECT s.doc FROM ${q(arr.table)} AS s WHERE s.value ${sqlOp} ${this.b.bind(c)})`;
    }
    return jsonAny(p, jsonTest(this.b, sqlOp, v));
  }

  /** The right side of an equality on a declared column (TableInfo.partial: a partial index's value as a literal; `+?` for other values of its field). */
  private equal(p: string, c: ColValue): string {
    const values = this.info.partial.get(p);
    if (!values) return this.b.bind(c);
    // The value is one the code declared (PARTIAL_VALUE: a plain word), never the caller's text.
    if (typeof c === 'string' && values.has(c)) return `'${c}'`;
    // A boolean field's partial index holds the records where it is true (stored as 1).
    if (c === 1 && values.has('true') && this.info.fields.get(p) === 'bool') return '1';
    return `+${this.b.bind(c)}`;
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
      parts.push(colType ? `t.${q(p)} = ${this.equal(p, typed[0])}` : this.member(arr!, typed[0]));
    } else if (typed.length > 0) {
      // The list travels as one JSON parameter, so every longer list shares one prepared statement.
      const list = `(SELECT value FROM json_each(${this.b.bind(JSON.stringify(typed))}))`;
      parts.push(colType ? `t.${q(p)} IN ${list}` : `t.rid IN (SELECT s.doc FROM ${q(arr!.table)} AS s WHERE s.value IN ${list}${this.companionSql(arr!)})`);
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
