/**
 * JSON encoding of stored documents with Dates: a Date is written as `{"$date":"<ISO-8601 UTC, ms>"}`
 * (fixed width, so text order is time order) and read back as a Date.
 */
import type { Doc } from './types';

/** True for a valid Date from any realm (jest's vm, worker threads), not only this module's. */
export function isDate(v: unknown): v is Date {
  return isDateObject(v) && !Number.isNaN(v.getTime());
}

/** A Date object, valid or not, from any realm. */
function isDateObject(v: unknown): v is Date {
  return v instanceof Date || (typeof v === 'object' && v !== null && Object.prototype.toString.call(v) === '[object Date]');
}

/** Whether `v` has a toJSON method (own or inherited), which JSON.stringify calls. */
function hasToJSON(v: object): boolean {
  return 'toJSON' in v && typeof v.toJSON === 'function';
}

/** A plain object (a literal, JSON.parse's, or prototype-less): its own keys are all there is to it. */
function isPlainObject(v: object): v is Record<string, unknown> {
  const proto = Object.getPrototypeOf(v);
  return proto === Object.prototype || proto === null;
}

/** JSON.stringify calls the replacer with the holder of `key` as `this`. */
function dateReplacer(this: Record<string, unknown>, key: string, value: unknown): unknown {
  // JSON.stringify has already turned a Date into its ISO string (or null when invalid); the holder still
  // has the Date itself. Only strings and nulls can be converted Dates, which keeps this hot path short.
  if (typeof value === 'string') {
    const raw = this[key];
    if (typeof raw === 'object' && raw !== null && isDate(raw)) return { $date: value };
  } else if (value === null) {
    const raw = this[key];
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
    if (hasToJSON(v)) return REPLACER_ONLY;
    let out: unknown[] | null = null;
    for (let i = 0; i < v.length; i++) {
      const x = v[i];
      const y = withDates(x, String(i), depth + 1);
      if (y === REPLACER_ONLY) return REPLACER_ONLY;
      if (y !== x) (out ??= v.slice())[i] = y;
    }
    return out ?? v;
  }
  if (Object.getPrototypeOf(v) === Date.prototype && v instanceof Date) {
    const d = v;
    if (d.toJSON !== dateToJSON) return REPLACER_ONLY;
    if (Number.isNaN(d.getTime())) throw new Error(`invalid Date at ${key}`);
    return { $date: d.toISOString() };
  }
  if (!isPlainObject(v) || hasToJSON(v)) return REPLACER_ONLY;
  const o = v;
  const keys = Object.keys(o);
  let out: Record<string, unknown> | null = null;
  for (let i = 0; i < keys.length; i++) {
    const k = keys[i];
    const x = o[k];
    const y = withDates(x, k, depth + 1);
    if (y === REPLACER_ONLY) return REPLACER_ONLY;
    if (y !== x && out === null) {
      // A prototype-less copy, so an own "__proto__" key stays a key; the keys keep their order.
      const copy: Record<string, unknown> = Object.create(null);
      for (let j = 0; j < i; j++) copy[keys[j]] = o[keys[j]];
      out = copy;
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
  // JSON.parse makes only plain objects.
  if (!isPlainObject(v)) return v;
  const o = v;
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

/**
 * The document stored as `text`. The boundary of the embedded store's document types: what JSON.parse
 * made becomes the T its collection was asked for (nothing checks a document against T at run time;
 * MongoDB's driver is the same).
 */
export function decodeDoc<T = Doc>(text: string): T {
  const v = JSON.parse(text);
  // Walking the parsed tree only when a date is present keeps reads of date-free documents at JSON.parse speed.
  return (typeof v === 'object' && v !== null && text.includes('"$date"') ? revive(v) : v) as T;
}
