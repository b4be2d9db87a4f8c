/** Date formatting shared by presenters: the reference prints local and GMT times without an offset. */
import { DateTime } from 'luxon';

/** `2024-01-02T03:04:05` in the given zone. */
export function rfc3339Local(date: Date, zone: string): string {
  return DateTime.fromJSDate(date, { zone }).toFormat("yyyy-LL-dd'T'HH:mm:ss");
}

/** `2024-01-02T03:04:05` in UTC. */
export function rfc3339Gmt(date: Date): string {
  return date.toISOString().slice(0, 19);
}

/** `2024-01-02 03:04:05` in the given zone. */
export function mysqlLocal(date: Date, zone: string): string {
  return DateTime.fromJSDate(date, { zone }).toFormat('yyyy-LL-dd HH:mm:ss');
}
