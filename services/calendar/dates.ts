/** Post dates of calendar records as the reference prints them (`Y-m-d H:i:s`, local and UTC). */
import type { PostDoc } from '../../libs/posts/types';

const ZERO = '0000-00-00 00:00:00';

/** `2024-01-02 03:04:05` of a UTC instant. */
export function mysqlUtc(d: Date | null | undefined): string {
  if (!(d instanceof Date) || Number.isNaN(d.getTime())) return ZERO;
  return d.toISOString().slice(0, 19).replace('T', ' ');
}

export function postDates(doc: Pick<PostDoc, 'date' | 'date_gmt' | 'modified' | 'modified_gmt'>): {
  date: string;
  date_utc: string;
  modified: string;
  modified_utc: string;
} {
  return {
    date: doc.date || ZERO,
    date_utc: mysqlUtc(doc.date_gmt),
    modified: doc.modified || doc.date || ZERO,
    modified_utc: mysqlUtc(doc.modified_gmt),
  };
}

/** The reference's date details: every part a zero-padded string, read from a `Y-m-d H:i:s` string. */
export function dateDetails(mysql: string): Record<string, string> {
  return {
    year: mysql.slice(0, 4),
    month: mysql.slice(5, 7),
    day: mysql.slice(8, 10),
    hour: mysql.slice(11, 13),
    minutes: mysql.slice(14, 16),
    seconds: mysql.slice(17, 19),
  };
}
