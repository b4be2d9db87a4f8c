/**
 * Argument declarations and validators shared by the vendor/events/v1 routes (the reference's
 * Validator/Base.php). Validators here see only the value, so they check shape; checks that need the
 * store (an id names an existing venue, a user exists) run in the calendar service before permissions.
 */
import { strtotime } from '../../calendar/strtotime';
import { isTimezone } from '../../calendar/timezone';
import { isRecord } from '../../rest/args';
import type { ArgDecl } from '../../rest/registry';
import { isEmail } from '../../rest/validate';

export const NS = 'vendor/events/v1';
export const BASE = `/${NS}`;
export const ID = '(?P<id>\\d+)';
export const SLUG = '(?P<slug>[^/]+)';

/** The reference's validate_callback returning false. */
export const INVALID = 'Invalid parameter.';

/** Largest page the v1 archives serve; larger per_page values are clamped, not refused. */
export const MAX_PER_PAGE = 50;

/** Statuses a record can be written with. */
export const WRITE_STATUSES = ['publish', 'future', 'draft', 'pending', 'private'];
/** Registered statuses a list may filter on (with `any`). */
export const FILTER_STATUSES = ['publish', 'future', 'draft', 'pending', 'private', 'trash', 'auto-draft', 'inherit', 'any'];

export const isPositiveInt = (v: unknown): boolean =>
  (typeof v === 'number' && Number.isInteger(v) && v > 0) || (typeof v === 'string' && /^\s*\d+\s*$/.test(v) && Number(v) > 0);

export const positive = (v: unknown): true | string => (isPositiveInt(v) ? true : INVALID);
export const nonEmptyString = (v: unknown): true | string => (typeof v === 'string' && v.trim() !== '' ? true : INVALID);
export const dateText = (v: unknown): true | string => (strtotime(v) ? true : INVALID);
export const timezoneOrEmpty = (v: unknown): true | string => (v === '' || isTimezone(v) ? true : INVALID);

export function isUrl(v: unknown): boolean {
  if (typeof v !== 'string') return false;
  try {
    const u = new URL(v.trim());
    return (u.protocol === 'http:' || u.protocol === 'https:') && u.hostname !== '';
  } catch {
    return false;
  }
}
export const urlOrEmpty = (v: unknown): true | string => (v === '' || isUrl(v) ? true : INVALID);
export const emailOrEmpty = (v: unknown): true | string => (v === '' || (typeof v === 'string' && isEmail(v.trim())) ? true : INVALID);

/** A status list: a string (CSV allowed, spaces around commas trimmed) or an array of strings. */
export function statusList(v: unknown): string[] | null {
  const items = typeof v === 'string' ? v.split(',') : Array.isArray(v) ? v : null;
  if (!items || !items.every((s): s is string => typeof s === 'string')) return null;
  const list = items.map((s) => s.trim()).filter(Boolean);
  return list.length ? list : null;
}

/** An image: an attachment id, an image URL, or empty to remove it. */
export const imageRef = (v: unknown): true | string => (v === '' || v === 0 || v === false || isPositiveInt(v) || isUrl(v) ? true : INVALID);

/** `page` and `per_page` of the v1 archives: positive integers; per_page beyond 50 is clamped. */
export const pageArgs = () =>
  ({
    page: { description: 'The archive page to return', type: 'integer', default: 1, validate: positive },
    per_page: {
      description: 'The number of items to return per page',
      type: 'integer',
      default: 10,
      validate: positive,
      sanitize: (v) => Math.min(Number(v), MAX_PER_PAGE),
    },
  }) satisfies Record<string, ArgDecl>;

/**
 * `default: null`, typed so that the parameter derived from the declaration keeps its null: the gateway
 * fills a null default, but a null reaches neither the type check nor `sanitize`, so a request without
 * the argument gives the handler null. (libs/rest/params.ts takes any default but `undefined` as making
 * an argument present with a value of its type; this widened type is how a declaration says otherwise.)
 */
export const NULL_DEFAULT: { readonly default: null | undefined } = { default: null };

/**
 * `required: true` where `create`, nothing otherwise: a write argument a create needs and an update
 * does not. Typed by the flag, so a create's parameter derives as always present.
 */
export function requiredOn<C extends boolean>(create: C): C extends true ? { readonly required: true } : Record<never, never>;
export function requiredOn(create: boolean): object {
  return create ? { required: true } : {};
}

/** A linked venue or organizer entry as the reference accepts it: an id, `{id}`, or the record's fields. */
function linkedEntry(v: unknown, nameKey: string): boolean {
  if (isPositiveInt(v) || v === 0 || v === '0') return true;
  if (isRecord(v)) {
    const o = v;
    if (o.id !== undefined) return isPositiveInt(o.id);
    return nameKey in o;
  }
  return false;
}

/**
 * Venue or organizer input of an event: empty (unlink), an id, a CSV of ids, `{id}`, an inline record,
 * or a list of those. Turned into a list of entries for the service.
 */
export function linkedArg(kind: 'venue' | 'organizer', description: string) {
  const toList = (v: unknown): unknown[] => {
    if (v === '' || v === null || v === false) return [];
    if (typeof v === 'string')
      return v
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean);
    if (Array.isArray(v)) return v;
    return [v];
  };
  return {
    description,
    ...NULL_DEFAULT,
    items: { type: ['integer', 'object', 'string'] },
    validate: (v) => (toList(v).every((e) => linkedEntry(e, kind)) ? true : INVALID),
    sanitize: (v) =>
      toList(v)
        .map((e) => (typeof e === 'object' && e !== null ? e : Number(e)))
        .filter((e) => e !== 0),
  } satisfies ArgDecl;
}

/** Categories or tags of an event: ids, slugs or names (unknown names are created), as a list or CSV; empty clears. */
export function termsArg(description: string) {
  return {
    description,
    ...NULL_DEFAULT,
    items: { type: ['integer', 'string'] },
    validate: (v) => {
      if (v === '' || typeof v === 'number' || typeof v === 'string') return true;
      return Array.isArray(v) && v.every((x) => typeof x === 'number' || typeof x === 'string') ? true : INVALID;
    },
    sanitize: (v): Array<number | string> => {
      const list: unknown[] = typeof v === 'string' ? v.split(',') : Array.isArray(v) ? v : [v];
      return list
        .map((x) => (typeof x === 'string' ? x.trim() : x))
        .filter((x): x is number | string => (typeof x === 'number' || typeof x === 'string') && x !== '' && x !== 0);
    },
  } satisfies ArgDecl;
}

/** A status to write: one of the statuses a record can hold. */
export const writeStatus = {
  description: 'The post status',
  type: 'string',
  validate: (v) => (typeof v === 'string' && WRITE_STATUSES.includes(v) ? true : INVALID),
} satisfies ArgDecl;
