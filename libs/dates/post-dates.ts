/**
 * Post dates as the reference keeps them: a local date string in the site time zone
 * (`YYYY-MM-DD HH:MM:SS`, what lists sort by) beside the UTC instant, which is absent while a draft's
 * date floats. Input dates without an offset are read in the site zone (or UTC for `*_gmt` fields).
 * The local string of an instant is format.ts's mysqlLocal.
 */
import { DateTime } from 'luxon';
import { MYSQL_FORMAT, mysqlLocal } from './format';

export interface PostDate {
  /** `YYYY-MM-DD HH:MM:SS` in the site zone. */
  local: string;
  gmt: Date;
}

/** The instant of a local date string (the reference's get_gmt_from_date). */
export function fromLocal(local: string, zone: string): Date {
  return DateTime.fromFormat(local, MYSQL_FORMAT, { zone }).toJSDate();
}

/** Now, to the millisecond: the clock services hand their handlers (tests hand them a fixed one). */
export const systemNow = (): Date => new Date();

/** Now, to the second, as the reference's current_time() reads it. */
export function now(): Date {
  return new Date(Math.floor(Date.now() / 1000) * 1000);
}

const HAS_OFFSET = /(Z|[+-]\d{2}(:\d{2})?)$/i;

/**
 * The reference's rest_get_date_with_gmt: a date-time string to its local and UTC forms. Without an
 * offset the value is local time (or UTC when `isUtc`). Null when it does not parse.
 */
export function parseDateInput(value: string, zone: string, isUtc = false): PostDate | null {
  const iso = value
    .trim()
    .replace(/^(\d{4}-\d{2}-\d{2})[ t]/, '$1T')
    .replace(/z$/, 'Z');
  const readZone = HAS_OFFSET.test(iso) || isUtc ? 'utc' : zone;
  const dt = DateTime.fromISO(iso, { zone: readZone });
  if (!dt.isValid) return null;
  const gmt = new Date(Math.floor(dt.toMillis() / 1000) * 1000);
  return { local: mysqlLocal(gmt, zone), gmt };
}

/**
 * A list filter date (after, before, ...) as a local date string: an offset is honoured and converted
 * to the site zone, a date without one is already local.
 */
export function filterDate(value: string, zone: string): string | null {
  return parseDateInput(value, zone)?.local ?? null;
}
