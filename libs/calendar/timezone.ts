/**
 * Time zones as the reference accepts them: IANA names (`America/New_York`), `UTC`, and the manual
 * offsets WordPress offers (`UTC+2`, `UTC-4:30`, `UTC+5.5`). Offsets and abbreviations come from the
 * ICU time-zone database Node ships, through luxon.
 */
import { DateTime, IANAZone, type Zone } from 'luxon';

const MANUAL = /^UTC([+-])(\d{1,2})(?:(?::(\d{2}))|(?:\.(\d+)))?$/i;

/** Answers of zoneOf by input: checking an IANA name builds an Intl formatter, far too slow to repeat per event. */
const zoneCache = new Map<string, string | null>();
const ZONE_CACHE_SIZE = 2000;

/** The luxon zone name for a reference time-zone string, or null when it is not one. */
export function zoneOf(tz: string): string | null {
  const hit = zoneCache.get(tz);
  if (hit !== undefined) return hit;
  const zone = readZone(tz);
  if (zoneCache.size >= ZONE_CACHE_SIZE) zoneCache.delete(zoneCache.keys().next().value!);
  zoneCache.set(tz, zone);
  return zone;
}

/** Whether a zone has one offset all year (UTC or a manual offset such as UTC+2: zoneOf names them `UTC...`), so a wall time in it names one instant. */
export function isFixedOffsetZone(tz: string): boolean {
  return zoneOf(tz)?.startsWith('UTC') ?? false;
}

function readZone(tz: string): string | null {
  const t = tz.trim();
  if (!t) return null;
  if (/^(utc|gmt|z)$/i.test(t)) return 'UTC';
  const m = MANUAL.exec(t);
  if (m) {
    const hours = Number(m[2]);
    const minutes = m[3] !== undefined ? Number(m[3]) : m[4] !== undefined ? Math.round(Number(`0.${m[4]}`) * 60) : 0;
    if (hours > 14 || minutes > 59) return null;
    return `UTC${m[1]}${hours}${minutes ? `:${String(minutes).padStart(2, '0')}` : ''}`;
  }
  return IANAZone.isValidZone(t) ? t : null;
}

/**
 * An IANA zone that remembers its offsets by the second they were asked for. Luxon reads an offset
 * through Intl (formatToParts) several times for every DateTime it builds in a zone (the offset "now"
 * as a first guess, then one or two checks), the costliest step of reading an imported event's dates.
 * IANAZone.offset depends only on the whole second of its timestamp, so a remembered answer is the one
 * luxon would compute, including its choice in repeated and skipped local hours.
 */
class RememberingZone extends IANAZone {
  private readonly offsets = new Map<number, number>();

  override offset(ts: number): number {
    // As `new Date(ts)` reads it: milliseconds truncated, then the second that contains them.
    const ms = Math.trunc(ts);
    if (!Number.isFinite(ms)) return super.offset(ts);
    const second = Math.floor(ms / 1000);
    let o = this.offsets.get(second);
    if (o === undefined) {
      o = super.offset(ts);
      if (this.offsets.size >= OFFSETS_PER_ZONE) this.offsets.clear();
      this.offsets.set(second, o);
    }
    return o;
  }
}

/** Seconds remembered per zone (an entry is a few dozen bytes), and zones remembered at once. */
const OFFSETS_PER_ZONE = 32768;
const REMEMBERING_ZONES = 16;
const rememberingZones = new Map<string, RememberingZone>();

/**
 * The zone to build many DateTimes in: for an IANA name (as zoneOf answers), a zone that remembers
 * offsets; UTC and fixed offsets (`UTC+2`) need no Intl and are returned as they are.
 */
export function zoneFor(zone: string): Zone | string {
  if (zone === 'UTC' || zone.startsWith('UTC+') || zone.startsWith('UTC-')) return zone;
  let z = rememberingZones.get(zone);
  if (!z) {
    const made = new RememberingZone(zone);
    if (!made.isValid) return zone;
    if (rememberingZones.size >= REMEMBERING_ZONES) rememberingZones.delete(rememberingZones.keys().next().value!);
    rememberingZones.set(zone, made);
    z = made;
  }
  return z;
}

export function isTimezone(tz: unknown): boolean {
  return typeof tz === 'string' && zoneOf(tz) !== null;
}

/**
 * Locales whose CLDR names give the zone abbreviations of each region (EST, CET, AEDT, IST, SAST); a zone
 * with no abbreviation in its region is written as its offset (`+04`), as the tz database does.
 */
const REGION_LOCALES: Array<[RegExp, string[]]> = [
  [/^(America|US|Canada|Pacific\/Honolulu)/, ['en-US', 'en-CA']],
  [/^(Europe|Atlantic\/(Reykjavik|Canary|Faroe|Madeira))/, ['en-GB', 'en-IE']],
  [/^(Australia|Antarctica\/Macquarie)/, ['en-AU']],
  [/^(Pacific\/(Auckland|Chatham)|NZ)/, ['en-NZ']],
  [/^Asia\/(Kolkata|Calcutta)/, ['en-IN']],
  [/^Africa/, ['en-ZA', 'en-NG', 'en-KE']],
  [/^Asia\/Tokyo/, ['ja-JP']],
];
const abbrCache = new Map<string, string>();

function offsetAbbr(minutes: number): string {
  const sign = minutes < 0 ? '-' : '+';
  const abs = Math.abs(minutes);
  const h = String(Math.floor(abs / 60)).padStart(2, '0');
  const m = abs % 60;
  return `${sign}${h}${m ? String(m).padStart(2, '0') : ''}`;
}

/**
 * The zone's abbreviation at a moment: `EST`/`EDT`, `CET`, `UTC`, or `+04` where none exists. The moment
 * may be a DateTime already in the zone (no new one is built: imports call this for every event).
 */
export function zoneAbbr(zone: string, at: Date | DateTime): string {
  const z = zoneOf(zone) ?? 'UTC';
  if (z === 'UTC') return 'UTC';
  const dt = at instanceof DateTime && at.zoneName === z ? at : DateTime.fromJSDate(at instanceof DateTime ? at.toJSDate() : at, { zone: z });
  if (z.startsWith('UTC')) return offsetAbbr(dt.offset);
  // Within one zone the offset tells standard from daylight time.
  const key = `${z}\u0000${dt.offset}`;
  const hit = abbrCache.get(key);
  if (hit) return hit;
  const when = dt.toJSDate();
  let abbr: string | undefined;
  const locales = REGION_LOCALES.find(([re]) => re.test(z))?.[1] ?? [];
  for (const locale of locales) {
    const name = new Intl.DateTimeFormat(locale, { timeZone: z, timeZoneName: 'short' }).formatToParts(when).find((p) => p.type === 'timeZoneName')?.value;
    if (name && !/^(GMT|UTC)[+-]/.test(name)) {
      abbr = name;
      break;
    }
  }
  abbr ??= dt.offset === 0 ? 'GMT' : offsetAbbr(dt.offset);
  abbrCache.set(key, abbr);
  return abbr;
}
