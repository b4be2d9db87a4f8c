/**
 * JSON encoding of stored documents with Dates: a Date is written as `{"$date":"<ISO-8601 UTC, ms>"}`
 * (fixed width, so text order is time order) and read back as a Date.
 */
import type { Doc } from './types';

/** True for a valid Date from any realm (jest's vm, worker threads), not only this module's. */
export function isDate(v: unknown): v is Date {
  return (
    (v instanceof Date || (typeof v === 'object' && v !== null && Object.prototype.toString.call(v) === '[object Date]')) &&
    !Number.isNaN((v as Date).getTime())
  );
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
