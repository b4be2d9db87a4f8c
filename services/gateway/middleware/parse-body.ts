/**
 * A REST request's body decoded as the reference decodes it: JSON (only for a JSON content type, as
 * PHP's json_decode) or urlencoded form fields. The REST front (../rest-front) adds multipart fields and
 * files, and raw uploads.
 */
import type { RestInput } from '#libs/rest/server';
import { parseQuery } from './route';

function isJsonType(ct: string): boolean {
  return /^application\/([\w.+-]*\+)?json\b/i.test(ct);
}

/** PHP json_decode's default depth: arrays and objects nested deeper are refused. */
export const JSON_MAX_DEPTH = 512;
const UTF8 = new TextDecoder('utf-8', { fatal: true });

/** How deeply arrays and objects nest in JSON text (brackets inside strings do not count). */
export function jsonDepth(text: string): number {
  let depth = 0;
  let max = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++;
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) max = Math.max(max, ++depth);
    else if (c === 0x5d || c === 0x7d) depth--;
  }
  return max;
}

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Whether every string (and key) of a parsed JSON value is well-formed UTF-16 (no lone surrogate). */
function wellFormed(value: unknown): boolean {
  const stack: unknown[] = [value];
  while (stack.length) {
    const v = stack.pop();
    if (typeof v === 'string') {
      if (LONE_SURROGATE.test(v)) return false;
    } else if (Array.isArray(v)) {
      for (const x of v) if (typeof x === 'object' || typeof x === 'string') stack.push(x);
    } else if (typeof v === 'object' && v !== null) {
      for (const [k, x] of Object.entries(v)) {
        if (LONE_SURROGATE.test(k)) return false;
        if (typeof x === 'object' || typeof x === 'string') stack.push(x);
      }
    }
  }
  return true;
}

/**
 * Decodes a JSON body as PHP's json_decode does for the reference: invalid UTF-8, nesting deeper than
 * 512 and unpaired surrogate escapes (`"\ud800"`) are refused with its error, never handed on.
 */
export function parseJsonBody(raw: Buffer): Pick<RestInput, 'body' | 'bodyType' | 'jsonError'> {
  let text: string;
  try {
    text = UTF8.decode(raw);
  } catch {
    return { bodyType: 'none', jsonError: 'Malformed UTF-8 characters, possibly incorrectly encoded' };
  }
  if (jsonDepth(text) > JSON_MAX_DEPTH) return { bodyType: 'none', jsonError: 'Maximum stack depth exceeded' };
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return { bodyType: 'none', jsonError: 'Syntax error' };
  }
  if (!wellFormed(body)) return { bodyType: 'none', jsonError: 'Single unpaired UTF-16 surrogate in unicode escape' };
  return { bodyType: 'json', body };
}

/** Splits a raw body into the reference's buckets: JSON (only for a JSON content type) or form fields. */
export function parseBody(raw: Buffer, contentType: string): Pick<RestInput, 'body' | 'bodyType' | 'jsonError'> {
  if (!raw.length) return { bodyType: 'none' };
  if (isJsonType(contentType)) return parseJsonBody(raw);
  const text = raw.toString('utf8');
  if (!contentType || /^application\/x-www-form-urlencoded\b/i.test(contentType)) {
    return { bodyType: 'form', body: parseQuery(text) };
  }
  return { bodyType: 'none' };
}
