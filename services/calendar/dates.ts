/** Post dates of calendar records as the reference prints them (`Y-m-d H:i:s`, local and UTC). */
import { MYSQL_ZERO, mysqlUtc } from '#libs/dates/format';
import type { PostDoc } from '#libs/posts/types';

export function postDates(doc: Pick<PostDoc, 'date' | 'date_gmt' | 'modified' | 'modified_gmt'>): {
  date: string;
  date_utc: string;
  modified: string;
  modified_utc: string;
} {
  return {
    date: doc.date || MYSQL_ZERO,
    date_utc: mysqlUtc(doc.date_gmt),
    modified: doc.modified || doc.date || MYSQL_ZERO,
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
