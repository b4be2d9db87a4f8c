/**
 * Wall times and the zones of a feed: how an iCalendar TZID (an IANA name, a Windows name as Outlook
 * writes it, a display name such as "(UTC+01:00) Amsterdam, Berlin, ...", or only a VTIMEZONE block)
 * turns a wall time into an instant, and which IANA zone the imported event is stored in.
 */
import ICAL from 'ical.js';
import { DateTime } from 'luxon';
import { findIana } from 'windows-iana';
import { zoneFor, zoneOf } from '#libs/calendar/timezone';
import { daysInMonth, wallOfUtc, type Wall } from '#libs/dates/wall';

export type { Wall };

const pad = (n: number, w = 2) => (w === 2 && n >= 0 && n < 10 ? `0${n}` : w === 2 ? `${n}` : String(n).padStart(w, '0'));

/** `YYYY-MM-DD`. */
export const dateText = (w: Wall): string => `${pad(w.year, 4)}-${pad(w.month)}-${pad(w.day)}`;
/** `YYYY-MM-DD HH:mm:ss`, the local form eventTimes reads. */
export const wallText = (w: Wall): string => `${dateText(w)} ${pad(w.hour)}:${pad(w.minute)}:${pad(w.second)}`;
/** `YYYYMMDD`. */
export const basicDate = (w: Wall): string => `${pad(w.year, 4)}${pad(w.month)}${pad(w.day)}`;

/** An instant in UTC basic form: `20260105T090000Z`. */
export function basicUtc(ms: number): string {
  const d = new Date(ms);
  return `${pad(d.getUTCFullYear(), 4)}${pad(d.getUTCMonth() + 1)}${pad(d.getUTCDate())}T${pad(d.getUTCHours())}${pad(d.getUTCMinutes())}${pad(d.getUTCSeconds())}Z`;
}

export function isWall(w: Wall): boolean {
  return (
    w.year >= 1 &&
    w.month >= 1 &&
    w.month <= 12 &&
    w.day >= 1 &&
    w.day <= daysInMonth(w.year, w.month) &&
    w.hour >= 0 &&
    w.hour < 24 &&
    w.minute >= 0 &&
    w.minute < 60 &&
    w.second >= 0 &&
    w.second < 61
  );
}

/** The wall time a number of calendar days later (or earlier), keeping the clock. */
export function addDays(w: Wall, days: number): Wall {
  const d = new Date(Date.UTC(w.year, w.month - 1, w.day + days));
  return { year: d.getUTCFullYear(), month: d.getUTCMonth() + 1, day: d.getUTCDate(), hour: w.hour, minute: w.minute, second: w.second };
}

/**
 * Offsets remembered per zone by quarter hour (of local time for walls, of UTC for instants): a feed
 * has many events at the same hours, and building a luxon DateTime for each is the costliest step of
 * a parse. Offsets change on quarter hours in every zone an import meets (the tz database's
 * second-precise offsets are all from the 19th century), so the answer is luxon's.
 */
const QUARTER = 900000;
const OFFSETS_PER_ZONE = 20000;
const byWall = new Map<string, Map<number, number>>();
const byInstant = new Map<string, Map<number, number>>();

function remembered(table: Map<string, Map<number, number>>, zone: string): Map<number, number> {
  let m = table.get(zone);
  if (!m) table.set(zone, (m = new Map()));
  else if (m.size >= OFFSETS_PER_ZONE) m.clear();
  return m;
}

/** The instant of a wall time in an IANA zone (or `UTC`, `UTC+2`) as luxon resolves it. */
export function millisIn(zone: string, w: Wall): number {
  const local = Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute, w.second);
  if (zone === 'UTC') return local;
  const offsets = remembered(byWall, zone);
  const bucket = Math.floor(local / QUARTER);
  let offset = offsets.get(bucket);
  if (offset === undefined) {
    // Asked at the quarter's start, so every wall time of the quarter shares luxon's answer for it.
    const q = new Date(bucket * QUARTER);
    const dt = DateTime.fromObject(
      { year: q.getUTCFullYear(), month: q.getUTCMonth() + 1, day: q.getUTCDate(), hour: q.getUTCHours(), minute: q.getUTCMinutes() },
      { zone: zoneFor(zone) },
    );
    offset = bucket * QUARTER - dt.toMillis();
    offsets.set(bucket, offset);
  }
  return local - offset;
}

/** The wall time of an instant in a zone. */
export function wallIn(zone: string, ms: number): Wall {
  if (zone === 'UTC') return wallOfUtc(ms);
  const offsets = remembered(byInstant, zone);
  const bucket = Math.floor(ms / QUARTER);
  let offset = offsets.get(bucket);
  if (offset === undefined) {
    offset = DateTime.fromMillis(bucket * QUARTER, { zone: zoneFor(zone) }).offset * 60000;
    offsets.set(bucket, offset);
  }
  return wallOfUtc(ms + offset);
}

/**
 * Where the wall times of a feed's property are read: `millis` gives the instant of a wall time,
 * `zone` is the IANA zone the event is stored in, and `direct` says that zone is the one the walls
 * are written in (so they are kept as they are, without a round trip through the instant).
 */
export interface SourceZone {
  millis(w: Wall): number;
  wallAt(ms: number): Wall;
  zone: string;
  direct: boolean;
}

function ianaSource(zone: string): SourceZone {
  return { zone, direct: true, millis: (w) => millisIn(zone, w), wallAt: (ms) => wallIn(zone, ms) };
}

/** A zone known only by its VTIMEZONE rules: instants through ical.js, the event stored in `eventZone`. */
function vtimezoneSource(tz: InstanceType<typeof ICAL.Timezone>, eventZone: string): SourceZone {
  return {
    zone: eventZone,
    direct: false,
    millis: (w) => new ICAL.Time({ ...w, isDate: false }, tz).toUnixTime() * 1000,
    wallAt: (ms) => {
      const t = ICAL.Time.fromJSDate(new Date(ms), true).convertToZone(tz);
      return { year: t.year, month: t.month, day: t.day, hour: t.hour, minute: t.minute, second: t.second };
    },
  };
}

/** IANA zones by their city (`amsterdam` → Europe/Amsterdam), for Windows display names. */
let cities: Map<string, string> | null = null;
function zoneOfCity(city: string): string | null {
  if (!cities) {
    cities = new Map();
    for (const z of Intl.supportedValuesOf('timeZone'))
      cities.set(
        z
          .slice(z.lastIndexOf('/') + 1)
          .replace(/_/g, ' ')
          .toLowerCase(),
        z,
      );
  }
  return cities.get(city.trim().toLowerCase()) ?? null;
}

function windowsZone(name: string): string | null {
  try {
    const found = findIana(name);
    const z = found.find((x) => zoneOf(x) !== null);
    return z ?? null;
  } catch {
    return null;
  }
}

const canonical = new Map<string, string>();

/**
 * An IANA name as the tz database writes it: `Europe/lisbon` → `Europe/Lisbon`, links to their zone
 * (`US/Eastern` → `America/New_York`). Offsets (`UTC+2`) stay as they are.
 */
export function canonicalZone(zone: string): string {
  let c = canonical.get(zone);
  if (c === undefined) {
    try {
      c = zone.startsWith('UTC') && zone !== 'UTC' ? zone : new Intl.DateTimeFormat('en-US', { timeZone: zone }).resolvedOptions().timeZone;
    } catch {
      c = zone;
    }
    canonical.set(zone, c);
  }
  return c;
}

/**
 * The IANA zone a TZID names, or null: an IANA name (also behind a `/mozilla.org/...` style prefix),
 * a Windows zone name, or a Windows display name (`(UTC+01:00) Amsterdam, Berlin, ...`,
 * `(UTC-05:00) Eastern Time (US & Canada)`).
 */
export function ianaOfTzid(raw: string): string | null {
  const t = raw
    .trim()
    .replace(/^"(.*)"$/, '$1')
    .trim();
  if (!t) return null;
  const direct = zoneOf(t);
  if (direct) return canonicalZone(direct);
  const tail = /([A-Za-z]+\/[A-Za-z0-9_+-]+(?:\/[A-Za-z0-9_+-]+)?)$/.exec(t);
  if (tail && zoneOf(tail[1])) return canonicalZone(zoneOf(tail[1])!);
  const win = windowsZone(t);
  if (win) return win;
  const display = /^\((?:UTC|GMT)\s*([+-]\d{1,2}(?::?\d{2})?)?\)\s*(.*)$/i.exec(t);
  const rest = display ? display[2] : t;
  // "Eastern Time (US & Canada)" is the display name of "Eastern Standard Time".
  const standard = rest.replace(/\s*\([^)]*\)\s*$/, '').replace(/\bTime$/i, 'Standard Time');
  const win2 = windowsZone(standard) ?? windowsZone(rest);
  if (win2) return win2;
  for (const city of rest.split(',')) {
    const z = zoneOfCity(city);
    if (z) return z;
  }
  if (display && /^(coordinated universal time|utc)?$/i.test(rest.trim()) && !display[1]) return 'UTC';
  return null;
}

type Jcal = [string, Array<[string, Record<string, unknown>, string, ...unknown[]]>, unknown[]];

/**
 * The zones of one feed: TZIDs resolved once each. `calendarZone` is the X-WR-TIMEZONE (IANA) when
 * the feed names one: UTC and floating times are stored in it, as are times of zones known only by
 * their VTIMEZONE; otherwise those go to UTC, the default zone, and the default zone.
 */
export class FeedZones {
  private readonly cache = new Map<string, SourceZone>();
  private readonly vtimezones = new Map<string, Jcal>();
  readonly calendarZone: string | null;
  readonly defaultZone: string;
  /** Floating times and all-day dates. */
  readonly floating: SourceZone;
  readonly utc: SourceZone;

  constructor(defaultZone: string, calendarZone: string | null, vtimezones: Jcal[]) {
    this.defaultZone = zoneOf(defaultZone) ?? 'UTC';
    this.calendarZone = calendarZone;
    for (const v of vtimezones) {
      const tzid = v[1].find((p) => p[0] === 'tzid')?.[3];
      if (typeof tzid === 'string') this.vtimezones.set(tzid, v);
    }
    this.floating = ianaSource(calendarZone ?? this.defaultZone);
    const utcZone = calendarZone ?? 'UTC';
    // UTC walls, stored in the calendar's zone when it names one.
    this.utc = { zone: utcZone, direct: utcZone === 'UTC', millis: (w) => millisIn('UTC', w), wallAt: wallOfUtc };
  }

  /** The source of a property's wall times: its TZID, a `Z` (UTC), or neither (floating). */
  source(tzid: string | undefined, utc: boolean): SourceZone {
    if (utc) return this.utc;
    if (!tzid) return this.floating;
    let s = this.cache.get(tzid);
    if (!s) {
      s = this.resolve(tzid);
      this.cache.set(tzid, s);
    }
    return s;
  }

  private resolve(tzid: string): SourceZone {
    const iana = ianaOfTzid(tzid);
    if (iana) return ianaSource(iana);
    const block = this.vtimezones.get(tzid) ?? this.vtimezones.get(tzid.replace(/^"(.*)"$/, '$1'));
    if (block) {
      // Some producers name the IANA zone of a custom TZID inside the block.
      const location = block[1].find((p) => p[0] === 'x-lic-location')?.[3];
      const named = typeof location === 'string' ? ianaOfTzid(location) : null;
      if (named) return ianaSource(named);
      try {
        const tz = new ICAL.Timezone({ component: new ICAL.Component(block), tzid });
        return vtimezoneSource(tz, this.calendarZone ?? this.defaultZone);
      } catch {
        // An unreadable VTIMEZONE: the times are read as floating.
      }
    }
    return this.floating;
  }
}
