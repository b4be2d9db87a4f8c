/**
 * Updates ($set, $unset, $inc, $push, $pull) applied in JS to a parsed document, as MongoDB applies them.
 */
import { isObject } from './query';
import { isDate } from './sqlite-codec';
import type { Doc, Update } from './types';

function sameValue(a: unknown, b: unknown): boolean {
  if (isDate(a) && isDate(b)) return a.getTime() === b.getTime();
  return a === b;
}

/** The object or array holding the last segment of `p`, and that segment (an array's index is a key too). */
function parentOf(doc: Doc, p: string, create: boolean): [Record<string, unknown>, string] | null {
  const segs = p.split('.');
  let cur: Record<string, unknown> = doc;
  for (let i = 0; i < segs.length - 1; i++) {
    const container = cur;
    const next = container[segs[i]];
    if (next === undefined || next === null) {
      if (!create) return null;
      const created: Record<string, unknown> = {};
      container[segs[i]] = created;
      cur = created;
    } else if (!isObject(next) || isDate(next)) {
      if (!create) return null;
      throw new Error(`cannot create field ${segs[i + 1]} in non-object ${segs.slice(0, i + 1).join('.')}`);
    } else cur = next;
  }
  return [cur, segs[segs.length - 1]];
}

function setIn(container: Record<string, unknown>, key: string, v: unknown): void {
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
    const cur = c[k];
    if (cur === undefined) setIn(c, k, by);
    else if (typeof cur === 'number') setIn(c, k, cur + by);
    else throw new Error(`cannot apply $inc to non-numeric field ${p}`);
  }
  for (const [p, v] of Object.entries(update.$push ?? {})) {
    const [c, k] = parentOf(doc, p, true)!;
    const cur = c[k];
    if (cur === undefined) setIn(c, k, [cloneValue(v)]);
    else if (Array.isArray(cur)) cur.push(cloneValue(v));
    else throw new Error(`cannot apply $push to non-array field ${p}`);
  }
  for (const [p, v] of Object.entries(update.$pull ?? {})) {
    const at = parentOf(doc, p, false);
    if (!at) continue;
    const [c, k] = at;
    const cur = c[k];
    if (cur === undefined) continue;
    if (!Array.isArray(cur)) throw new Error(`cannot apply $pull to non-array field ${p}`);
    setIn(
      c,
      k,
      cur.filter((x) => !sameValue(x, v)),
    );
  }
}
