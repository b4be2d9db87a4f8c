/**
 * VTIMEZONE components for an iCalendar export, built from the IANA data Node ships (through luxon):
 * the offsets in effect and every transition within the years the exported events span. Each
 * observance is written with an explicit DTSTART and no recurrence rule, so a reader needs no rule
 * arithmetic and historic or irregular changes come out exactly as the tz database has them.
 */
import ICAL from 'ical.js';
import { DateTime, Info, type Zone } from 'luxon';
import { wallOfUtc } from '../../dates/wall';
import { zoneAbbr, zoneOf } from '../timezone';

const DAY = 86_400_000;
const MINUTE = 60_000;

/** A zone as the export names it: its TZID, and the luxon zone its offsets come from. */
export interface ExportZone {
  tzid: string;
  /** The luxon zone name (`Europe/Berlin`, `UTC+5:30`). */
  zone: string;
}

/**
 * The TZID an event's stored zone is exported under: the IANA name as it is; a whole-hour manual
 * offset as the tz database's `Etc/GMT` zone (its sign inverted, as that database writes it); any
 * other offset as `UTC+HHMM`. UTC events are written in UTC (`Z`) and have no TZID: null.
 */
export function exportZone(stored: string, fallback: string): ExportZone | null {
  const zone = zoneOf(stored) ?? zoneOf(fallback) ?? 'UTC';
  if (zone === 'UTC') return null;
  if (!zone.startsWith('UTC+') && !zone.startsWith('UTC-')) return { tzid: zone, zone };
  const minutes = Info.normalizeZone(zone).offset(0);
  if (minutes === 0) return null;
  if (minutes % 60 === 0 && minutes >= -12 * 60 && minutes <= 14 * 60) {
    const hours = -minutes / 60;
    return { tzid: `Etc/GMT${hours > 0 ? '+' : '-'}${Math.abs(hours)}`, zone };
  }
  const abs = Math.abs(minutes);
  const hhmm = `${String(Math.floor(abs / 60)).padStart(2, '0')}${String(abs % 60).padStart(2, '0')}`;
  return { tzid: `UTC${minutes < 0 ? '-' : '+'}${hhmm}`, zone };
}

/** One observance: from `at` (UTC ms) on, the zone is `to` minutes from UTC (it was `from` before). */
interface Observance {
  at: number;
  from: number;
  to: number;
}

/** Year ranges to describe: every year with an event and the one before it (its last transition is in force on 1 January). */
function yearRanges(years: Iterable<number>): Array<[number, number]> {
  const all = new Set<number>();
  for (const y of years) if (Number.isInteger(y)) all.add(y).add(y - 1);
  const sorted = [...all].sort((a, b) => a - b);
  const ranges: Array<[number, number]> = [];
  for (const y of sorted) {
    const last = ranges[ranges.length - 1];
    if (last && last[1] === y - 1) last[1] = y;
    else ranges.push([y, y]);
  }
  return ranges;
}

/** The first minute in (lo, hi] whose offset differs from the offset at lo (the offsets at lo and hi differ). */
function transitionWithin(z: Zone, lo: number, hi: number): number {
  const before = z.offset(lo);
  let a = lo;
  let b = hi;
  while (b - a > MINUTE) {
    const mid = a + Math.floor((b - a) / 2 / MINUTE) * MINUTE || a + MINUTE;
    if (z.offset(mid) === before) a = mid;
    else b = mid;
  }
  return b;
}

function observances(zone: string, years: Iterable<number>): Observance[] {
  const z = Info.normalizeZone(zone);
  const out: Observance[] = [];
  for (const [first, last] of yearRanges(years)) {
    // From local midnight of 1 January (the offset there is the one in force then, not a transition's).
    const start = Date.UTC(first, 0, 1) - z.offset(Date.UTC(first, 0, 1)) * MINUTE;
    const end = Date.UTC(last + 1, 0, 1);
    // The offset in force when the range begins, as an observance of its own (ranges are not contiguous).
    out.push({ at: start, from: z.offset(start - MINUTE), to: z.offset(start) });
    for (let t = start; t < end; t += DAY) {
      const next = Math.min(t + DAY, end);
      const a = z.offset(t);
      const b = z.offset(next);
      if (a === b) continue;
      const at = transitionWithin(z, t, next);
      out.push({ at, from: a, to: z.offset(at) });
    }
  }
  return out;
}

/** An iCalendar local date-time (no zone) from UTC milliseconds shifted by an offset in minutes. */
function localTime(ms: number): ICAL.Time {
  return ICAL.Time.fromData({ ...wallOfUtc(ms), isDate: false });
}

/**
 * The VTIMEZONE of an exported zone for the given years: a STANDARD or DAYLIGHT observance for the offset
 * in force at the start of each run of years and for every transition inside it. An observance's DTSTART
 * is its onset in the local time before it (RFC 5545, 3.6.5), TZNAME the zone's abbreviation then.
 */
export function vtimezone(ez: ExportZone, years: Iterable<number>): ICAL.Component {
  const comp = new ICAL.Component('vtimezone');
  comp.addPropertyWithValue('tzid', ez.tzid);
  for (const o of observances(ez.zone, years)) {
    const dt = DateTime.fromMillis(o.at, { zone: ez.zone });
    const sub = new ICAL.Component(dt.isInDST ? 'daylight' : 'standard');
    sub.addPropertyWithValue('dtstart', localTime(o.at + o.from * MINUTE));
    sub.addPropertyWithValue('tzoffsetfrom', ICAL.UtcOffset.fromSeconds(o.from * 60));
    sub.addPropertyWithValue('tzoffsetto', ICAL.UtcOffset.fromSeconds(o.to * 60));
    sub.addPropertyWithValue('tzname', zoneAbbr(ez.zone, dt));
    comp.addSubcomponent(sub);
  }
  return comp;
}
