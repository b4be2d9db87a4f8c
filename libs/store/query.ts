/**
 * Validation and normalisation of the store port's query language, shared by both adapters so that a
 * filter rejected by one is rejected by the other. A filter becomes a small tree of conditions that
 * the SQLite adapter compiles to SQL and the MongoDB adapter turns back into a driver filter.
 */
import type { Filter, FindOptions, Scalar, Update } from './types';

/** Field paths come from code, but they end up inside SQL text and MongoDB keys, so only this shape passes. */
export const PATH_RE = /^[A-Za-z0-9_]+(\.[A-Za-z0-9_]+)*$/;

export function assertPath(path: string): string {
  if (typeof path !== 'string' || !PATH_RE.test(path)) {
    throw new Error(`invalid field path ${JSON.stringify(path)}`);
  }
  return path;
}

export type FieldOp = 'eq' | 'ne' | 'in' | 'nin' | 'gt' | 'gte' | 'lt' | 'lte' | 'exists' | 'icontains';

/** A condition on one field; its operand's type follows the operator. */
export type FieldCond =
  | { kind: 'field'; path: string; op: 'eq' | 'ne' | 'gt' | 'gte' | 'lt' | 'lte'; value: Scalar }
  | { kind: 'field'; path: string; op: 'in' | 'nin'; value: Scalar[] }
  | { kind: 'field'; path: string; op: 'exists'; value: boolean }
  | { kind: 'field'; path: string; op: 'icontains'; value: string };

export type Cond = { kind: 'and'; items: Cond[] } | { kind: 'or'; items: Cond[] } | FieldCond;

const FIELD_OPS: Record<string, FieldOp> = {
  $eq: 'eq',
  $ne: 'ne',
  $in: 'in',
  $nin: 'nin',
  $gt: 'gt',
  $gte: 'gte',
  $lt: 'lt',
  $lte: 'lte',
  $exists: 'exists',
  $icontains: 'icontains',
};

/** A non-null object, arrays included, read as string-keyed properties (an array's indexes are such keys). */
export function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null;
}

/** A Date object, from any realm. */
function isDateObject(v: unknown): v is Date {
  return Object.prototype.toString.call(v) === '[object Date]';
}

export function isScalar(v: unknown): v is Scalar {
  return v === null || typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean' || (isDateObject(v) && !Number.isNaN(v.getTime()));
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v) && Object.prototype.toString.call(v) !== '[object Date]';
}

function assertScalar(path: string, op: string, v: unknown): Scalar {
  if (!isScalar(v)) throw new Error(`filter ${path}.${op}: expected a string, number, boolean, Date or null`);
  return v;
}

/** Validates a filter and returns its condition tree; throws on anything outside the port's language. */
export function normalizeFilter(filter: Filter): Cond {
  if (!isPlainObject(filter)) throw new Error('filter must be an object');
  const items: Cond[] = [];
  for (const key of Object.keys(filter)) {
    const value = filter[key];
    if (key === '$and' || key === '$or') {
      if (!Array.isArray(value) || value.length === 0) throw new Error(`${key} needs a non-empty array of filters`);
      items.push({ kind: key === '$and' ? 'and' : 'or', items: value.map((f) => normalizeFilter(f)) });
      continue;
    }
    if (key.startsWith('$')) throw new Error(`unsupported filter operator ${key}`);
    assertPath(key);
    // An undefined value would silently widen the query (a missing user id matching everyone), so refuse it.
    if (value === undefined) throw new Error(`filter value for ${key} is undefined`);
    if (isPlainObject(value)) {
      const ops = Object.keys(value);
      if (ops.length === 0) throw new Error(`filter ${key}: empty operator object`);
      for (const opKey of ops) {
        const op = FIELD_OPS[opKey];
        if (!op) throw new Error(`unsupported filter operator ${opKey} on ${key}`);
        items.push(checkOperand(key, opKey, op, value[opKey]));
      }
      continue;
    }
    items.push({ kind: 'field', path: key, op: 'eq', value: assertScalar(key, '$eq', value) });
  }
  return items.length === 1 ? items[0] : { kind: 'and', items };
}

/** The condition `op` with its operand checked. */
function checkOperand(path: string, opKey: string, op: FieldOp, v: unknown): FieldCond {
  switch (op) {
    case 'in':
    case 'nin':
      if (!Array.isArray(v)) throw new Error(`filter ${path}.${opKey}: expected an array`);
      return { kind: 'field', path, op, value: v.map((x) => assertScalar(path, opKey, x)) };
    case 'exists':
      if (typeof v !== 'boolean') throw new Error(`filter ${path}.${opKey}: expected a boolean`);
      return { kind: 'field', path, op, value: v };
    case 'icontains':
      if (typeof v !== 'string') throw new Error(`filter ${path}.${opKey}: expected a string`);
      return { kind: 'field', path, op, value: needleOf(v) };
    default:
      return { kind: 'field', path, op, value: assertScalar(path, opKey, v) };
  }
}

/** The largest skip or limit handed to an adapter: beyond any collection, and an int32 for every driver. */
export const MAX_WINDOW = 2 ** 31 - 1;

/**
 * A number of rows to skip as every adapter takes it: a non-negative integer no larger than MAX_WINDOW.
 * A window starting past MAX_WINDOW starts past the end of every collection, so clamping it changes no
 * answer; NaN and negative counts skip nothing, and Infinity (page 1e308 of 10 rows) skips MAX_WINDOW.
 */
export function windowSkip(rows: number): number {
  if (!(rows > 0)) return 0;
  return Math.min(Math.floor(rows), MAX_WINDOW);
}

/**
 * Checks a find window and returns it with skip and limit clamped to MAX_WINDOW: a page number far past
 * the end (page=99999999999999999999) still asks for no rows, rather than a number SQLite cannot bind as
 * an integer or MongoDB cannot take as a skip.
 */
export function normalizeWindow<T extends FindOptions>(options: T): T {
  const out = { ...options };
  for (const k of ['skip', 'limit'] as const) {
    const v = options[k];
    if (v === undefined) continue;
    if (!Number.isInteger(v) || v < 0) throw new Error(`${k} must be a non-negative integer`);
    out[k] = Math.min(v, MAX_WINDOW);
  }
  for (const f of options.fields ?? []) assertPath(f);
  return out;
}

/**
 * The longest `$icontains` needle an adapter is given. MongoDB refuses regular expressions past 16 KiB
 * (and the test server's engine past less), SQLite LIKE patterns past 50,000 bytes; a needle of this
 * many UTF-16 units stays under both once escaped. A longer needle is matched by its first MAX_NEEDLE
 * units, the same way on both adapters: it still finds every document that contains it.
 */
export const MAX_NEEDLE = 4096;

function needleOf(v: string): string {
  if (v.length <= MAX_NEEDLE) return v;
  // Never split a surrogate pair.
  const end = /[\uD800-\uDBFF]/.test(v[MAX_NEEDLE - 1]) ? MAX_NEEDLE - 1 : MAX_NEEDLE;
  return v.slice(0, end);
}

export type UpdateOp = '$set' | '$unset' | '$inc' | '$push' | '$pull';
const UPDATE_OPS = new Set<string>(['$set', '$unset', '$inc', '$push', '$pull']);
const isUpdateOp = (op: string): op is UpdateOp => UPDATE_OPS.has(op);

/** Validates an update document: known operators only, valid paths, operands of the right kind. */
export function validateUpdate(update: Update): void {
  if (!isPlainObject(update)) throw new Error('update must be an object');
  const keys = Object.keys(update);
  if (keys.length === 0) throw new Error('update needs at least one operator');
  for (const op of keys) {
    if (!isUpdateOp(op)) throw new Error(`unsupported update operator ${op}`);
    const body = update[op];
    if (!isPlainObject(body)) throw new Error(`${op} needs an object`);
    for (const [path, v] of Object.entries(body)) {
      assertPath(path);
      if (v === undefined) throw new Error(`${op}.${path} is undefined`);
      if (op === '$inc' && (typeof v !== 'number' || !Number.isFinite(v))) throw new Error(`$inc.${path} needs a number`);
      if (op === '$pull') assertScalar(path, op, v);
    }
  }
}

/** Escapes text for use as a literal inside a regular expression. */
export function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&');
}

/** Collection names become SQLite table names and MongoDB collection names. */
export const COLLECTION_RE = /^[A-Za-z][A-Za-z0-9_]*$/;

/** Reserved for the id counters in both stores. */
export const COUNTERS = 'counters';

export function assertCollectionName(name: string): string {
  if (typeof name !== 'string' || !COLLECTION_RE.test(name)) throw new Error(`invalid collection name ${JSON.stringify(name)}`);
  if (name === COUNTERS) throw new Error(`collection name ${name} is reserved`);
  return name;
}
