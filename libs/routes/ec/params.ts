/**
 * ec/v1's parameter types (the reference's tec/v1 Parameter_Types): each argument is validated by its
 * type's own callback, on the value as sent and before any schema keyword, so its failure is the one a
 * client sees: `tec_rest_invalid_*_argument` errors carrying `{status, argument, details}`, or a plain
 * "Invalid parameter." (no detail entry) where the type's callback only answers false. The schema
 * keywords stay declared (the index publishes them) and still apply after the type's check passed.
 */
import { strtotime } from '../../calendar/strtotime';
import { ParamError } from '../../rest/errors';
import type { ArgDecl } from '../../rest/registry';
import { isUrl } from '../../rest/args';
import { isEmail } from '../../rest/validate';
import { INVALID } from '../vendor-events/args';

export type Check = NonNullable<ArgDecl['precheck']>;

/** InvalidRestArgumentException::to_wp_error: the code, message and `{status, argument, details}`. */
export function tecError(code: string, name: string, message: string, details: string): ParamError {
  return new ParamError(code, message, { status: 400, argument: name, details });
}

/** PHP is_numeric: decimal or exponent notation, surrounding whitespace allowed; numbers too (not booleans). */
export function isNumeric(v: unknown): boolean {
  if (typeof v === 'number') return Number.isFinite(v);
  return typeof v === 'string' && /^\s*[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?\s*$/.test(v);
}

/** WordPress is_serialized (strict): a PHP-serialized value, which a text argument must never carry. */
export function isSerialized(v: unknown): boolean {
  if (typeof v !== 'string') return false;
  const s = v.trim();
  if (s === 'N;') return true;
  if (s.length < 4 || s[1] !== ':') return false;
  const last = s[s.length - 1];
  if (last !== ';' && last !== '}') return false;
  switch (s[0]) {
    case 's':
      return s[s.length - 2] === '"' && /^s:\d+:"/.test(s);
    case 'a':
    case 'O':
    case 'E':
      return new RegExp(`^${s[0]}:\\d+:`).test(s);
    case 'b':
    case 'i':
    case 'd':
      return new RegExp(`^${s[0]}:[0-9.E+-]+;$`).test(s);
    default:
      return false;
  }
}

/** Positive_Integer: numeric, integral and above zero (a query string's "5" passes). */
export const positiveIntegerCheck =
  (name: string): Check =>
  (v) => {
    const n = isNumeric(v) ? Number(v) : NaN;
    if (!isNumeric(v) || Math.trunc(n) !== n || Math.trunc(n) <= 0) {
      return tecError(
        'tec_rest_invalid_positive_integer_argument',
        name,
        `Argument \`{${name}}\` must be a positive integer.`,
        `The argument \`{${name}}\` is not a positive integer.`,
      );
    }
    return true;
  };

/** Date_Time: the declared pattern first, then anything strtotime reads (or a number). */
export const dateTimeCheck =
  (name: string, pattern?: string): Check =>
  (v) => {
    const code = 'tec_rest_invalid_date_time_argument';
    if (pattern !== undefined && !new RegExp(pattern).test(typeof v === 'string' ? v : String(v))) {
      return tecError(code, name, `Argument \`{${name}}\` must match the pattern.`, `The argument \`{${name}}\` does not match the pattern \`${pattern}\`.`);
    }
    // A number is a timestamp, which must still name a moment a date can hold.
    if (!((isNumeric(v) || typeof v === 'string') && strtotime(v))) {
      return tecError(code, name, `Argument \`{${name}}\` must be a date-time.`, `We cannot parse the argument \`{${name}}\` as a date-time.`);
    }
    return true;
  };

/** Text: one of its enum values when it has one (strictly), else any string that is not PHP-serialized. */
export const textCheck =
  (allowed?: readonly unknown[]): Check =>
  (v) => {
    if (allowed) return allowed.includes(v) ? true : INVALID;
    return typeof v === 'string' && !isSerialized(v) ? true : INVALID;
  };

export const emailCheck =
  (name: string): Check =>
  (v) =>
    typeof v === 'string' && isEmail(v)
      ? true
      : tecError(
          'tec_rest_invalid_email_argument',
          name,
          `Argument \`{${name}}\` must be a valid email address.`,
          `The argument \`{${name}}\` is not a valid email address.`,
        );

export const uriCheck =
  (name: string): Check =>
  (v) =>
    isUrl(v)
      ? true
      : tecError('tec_rest_invalid_uri_argument', name, `Argument \`{${name}}\` must be a valid URL.`, `The argument \`{${name}}\` is not a valid URL.`);

/**
 * Array_Of_Type's own check: an array, or a string holding a comma (a lone value in a query string is
 * refused); each item through its type's check, which reports under the reference's placeholder name
 * `example` since the item type is built without one.
 */
export const arrayCheck =
  (item?: Check): Check =>
  (v, params) => {
    if (!(Array.isArray(v) || (typeof v === 'string' && v.includes(',')))) return INVALID;
    const list = typeof v === 'string' ? v.split(',') : v;
    if (!item) return true;
    for (const x of list) {
      const r = item(x, params);
      if (r !== true) return r;
    }
    return true;
  };

/** Tribe__Utils__Array::list_to_array of the linked-record filters: one id or a list, each a positive integer. */
export const idListCheck: Check = (v) => {
  const list = Array.isArray(v)
    ? v
    : typeof v === 'string' || typeof v === 'number'
      ? String(v)
          .split(',')
          .map((s) => s.trim())
      : null;
  if (!list || !list.length) return INVALID;
  return list.every((x) => isNumeric(x) && Number.isInteger(Number(x)) && Number(x) > 0) ? true : INVALID;
};

/** Post_Entity_Endpoint::validate_status: a status or a comma-separated list of them, all allowed. */
export const statusListCheck =
  (allowed: readonly string[]): Check =>
  (v) => {
    const list = Array.isArray(v) ? v : typeof v === 'string' ? v.split(',').map((s) => s.trim()) : null;
    if (!list || !list.length) return INVALID;
    return list.every((s) => typeof s === 'string' && allowed.includes(s)) ? true : INVALID;
  };

/** Declares an argument of a TEC parameter type: its check, and the keywords the check replaces. */
export function tecParam<D extends ArgDecl>(decl: D, precheck: Check, unchecked?: ArgDecl['unchecked']): D & { precheck: Check } {
  return { ...decl, precheck, ...(unchecked ? { unchecked } : {}) };
}
