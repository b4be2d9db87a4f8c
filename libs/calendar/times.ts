/**
 * An event's times as the calendar interfaces present them: its local and UTC `Y-m-d H:i:s` strings,
 * zone, zone abbreviation and all-day flag, worked out from the record's meta in one place for
 * vendor/events/v1, ec/v1 and the calendar views.
 *
 * Every writer stores the four date strings together (libs/calendar/meta `eventMetaChanges`), so a
 * record normally answers with its stored strings and nothing is computed. A record that lacks one, or
 * holds one the interface cannot use, has all four derived again from its meta by `timesFromMeta` (the
 * local strings in the event's zone are the truth, the UTC strings the fallback).
 *
 * What "cannot use" means is the one place the interfaces legitimately differ, as the reference's do,
 * and it is the `stored` option:
 * - `'echo'` (vendor/events/v1): the reference's Post_Repository echoes the meta as it is stored, so
 *   four non-empty strings are answered as they are, whatever their text, with the stored zone and
 *   abbreviation as they are too.
 * - `'dates'` (ec/v1 and the views): the reference's event model builds a date from each string, so
 *   the stored strings are used only when each reads as a `Y-m-d H:i:s` date (libs/dates `storedWall`),
 *   and the zone is the stored one when it names a zone, else the site's.
 * With either option, an event whose meta yields no start has no times (`null`).
 */
import type { DateTime } from 'luxon';
import { mysqlOf } from '../dates/format';
import { storedWall, type StoredWall } from '../dates/wall';
import { EVENT_META, timesFromMeta, truthyMeta, type EventTimes } from './meta';
import { zoneOf } from './timezone';

/** Which stored date strings an interface answers with as they are (see the module comment). */
export type StoredTimes = 'echo' | 'dates';

interface TimesCommon {
  /** The zone: with `'echo'` and stored strings, the stored text as it is; otherwise the stored zone when it names one, else the site's. */
  timezone: string;
  /** The stored abbreviation; when the times are derived and none is stored, the zone's at the start. */
  abbr: string;
  allDay: boolean;
}

/** The four strings as text (`'echo'`): stored text is answered even when it is not a date. */
export interface EchoedTimes extends TimesCommon {
  start: string;
  end: string;
  startUtc: string;
  endUtc: string;
}

/** The four strings as wall clocks (`'dates'`), for the day and offset arithmetic of ec/v1 and the views. */
export interface DatedTimes extends TimesCommon {
  start: StoredWall;
  end: StoredWall;
  startUtc: StoredWall;
  endUtc: StoredWall;
  /**
   * The start and end as zoned DateTimes, read from the local strings in the event's zone (the truth,
   * as `timesFromMeta` reads them): what the views place on days and print. Null when they do not read.
   */
  zoned(): EventTimes | null;
}

const KEYS: string[] = [EVENT_META.start, EVENT_META.end, EVENT_META.startUtc, EVENT_META.endUtc];

const textOf = (v: unknown): string => (typeof v === 'string' ? v : '');

/** The zone text an event's meta stores ('' when none): what an event without times reports as its zone. */
export function storedTimezone(meta: Record<string, unknown>): string {
  return textOf(meta[EVENT_META.timezone]);
}

/** The four `Y-m-d H:i:s` strings of derived times. */
const derivedTexts = (t: EventTimes): string[] => [t.start, t.end, t.start.toUTC(), t.end.toUTC()].map((dt: DateTime) => mysqlOf(dt));

/**
 * An event's times from its meta; `siteZone` is the site's time zone (the zone of an event whose own
 * does not name one). `stored` says which stored strings are answered as they are (see the module comment).
 */
export function eventTimes(meta: Record<string, unknown>, siteZone: string, opts: { stored: 'echo' }): EchoedTimes | null;
export function eventTimes(meta: Record<string, unknown>, siteZone: string, opts: { stored: 'dates' }): DatedTimes | null;
export function eventTimes(meta: Record<string, unknown>, siteZone: string, opts: { stored: StoredTimes }): EchoedTimes | DatedTimes | null;
export function eventTimes(meta: Record<string, unknown>, siteZone: string, opts: { stored: StoredTimes }): EchoedTimes | DatedTimes | null {
  const allDay = truthyMeta(meta[EVENT_META.allDay]);
  const storedZone = storedTimezone(meta);
  const storedAbbr = textOf(meta[EVENT_META.timezoneAbbr]);
  if (opts.stored === 'echo') {
    const [start, end, startUtc, endUtc] = KEYS.map((k) => textOf(meta[k]));
    if (start && end && startUtc && endUtc) return { start, end, startUtc, endUtc, timezone: storedZone, abbr: storedAbbr, allDay };
  } else {
    const [start, end, startUtc, endUtc] = KEYS.map((k) => storedWall(meta[k]));
    if (start && end && startUtc && endUtc) {
      const timezone = storedZone && zoneOf(storedZone) ? storedZone : siteZone;
      let local: EventTimes | null | undefined;
      const zoned = () => (local === undefined ? (local = timesFromMeta(meta, siteZone)) : local);
      return { start, end, startUtc, endUtc, timezone, abbr: storedAbbr, allDay, zoned };
    }
  }
  const t = timesFromMeta(meta, siteZone);
  if (!t) return null;
  const abbr = storedAbbr || t.start.offsetNameShort || '';
  const texts = derivedTexts(t);
  if (opts.stored === 'echo') {
    const [start, end, startUtc, endUtc] = texts;
    return { start, end, startUtc, endUtc, timezone: t.timezone, abbr, allDay };
  }
  // A year outside 0000-9999 does not print as a stored date: such an event has no times to show.
  const [start, end, startUtc, endUtc] = texts.map(storedWall);
  if (!start || !end || !startUtc || !endUtc) return null;
  return { start, end, startUtc, endUtc, timezone: t.timezone, abbr, allDay, zoned: () => t };
}
