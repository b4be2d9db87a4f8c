/**
 * Calendar records are post records whose data lives in `meta` under the interface's keys, so
 * vendor/events/v1, ec/v1 and cms/v2 read and write the same thing. This module is the one place that
 * knows those keys and derives the indexed top-level fields the archives filter on (`event_start`,
 * `event_end`, `featured`, `hide_from_listings`, `venues`, `organizers`) from them: every writer of event
 * meta goes through `eventMetaChanges` so the index never drifts from the data.
 */
import { DateTime } from 'luxon';
import { mysqlOf } from '../dates/format';
import type { PostDoc } from '../posts/types';
import type { Filter, Update } from '../store/types';
import type { CostMeta } from './cost';
import { zoneAbbr, zoneOf } from './timezone';

export const EVENT_TYPE = 'vendor_events';
export const VENUE_TYPE = 'vendor_venue';
export const ORGANIZER_TYPE = 'vendor_organizer';
export const CATEGORY_TAXONOMY = 'vendor_events_cat';
export const TAG_TAXONOMY = 'post_tag';

export const EVENT_META = {
  start: '_EventStartDate',
  end: '_EventEndDate',
  startUtc: '_EventStartDateUTC',
  endUtc: '_EventEndDateUTC',
  timezone: '_EventTimezone',
  timezoneAbbr: '_EventTimezoneAbbr',
  allDay: '_EventAllDay',
  duration: '_EventDuration',
  cost: '_EventCost',
  costDescription: '_EventCostDescription',
  currencySymbol: '_EventCurrencySymbol',
  currencyCode: '_EventCurrencyCode',
  currencyPosition: '_EventCurrencyPosition',
  /** Separators the schedule is printed with (between date and time, between two times); the defaults when empty. */
  dateTimeSeparator: '_EventDateTimeSeparator',
  timeRangeSeparator: '_EventTimeRangeSeparator',
  url: '_EventURL',
  showMap: '_EventShowMap',
  showMapLink: '_EventShowMapLink',
  /** `yes` hides the event from listings (the reference's _EventHideFromUpcoming). */
  hideFromListings: '_EventHideFromUpcoming',
  /** Truthy marks a featured event (the reference's _tribe_featured, renamed). */
  featured: '_vendor_featured',
  venues: '_EventVenueID',
  organizers: '_EventOrganizerID',
} as const;

export const VENUE_META = {
  address: '_VenueAddress',
  city: '_VenueCity',
  country: '_VenueCountry',
  province: '_VenueProvince',
  state: '_VenueState',
  zip: '_VenueZip',
  phone: '_VenuePhone',
  website: '_VenueURL',
  stateprovince: '_VenueStateProvince',
  lat: '_VenueLat',
  lng: '_VenueLng',
  /** The address the coordinates were geocoded from (the reference's Pro geolocation). */
  geoAddress: '_VenueGeoAddress',
  /** True: the coordinates were given by a writer and are not replaced by geocoding (the reference's "use latitude + longitude"). */
  overwriteCoords: '_VenueOverwriteCoords',
  showMap: '_VenueShowMap',
  showMapLink: '_VenueShowMapLink',
} as const;

export const ORGANIZER_META = {
  email: '_OrganizerEmail',
  phone: '_OrganizerPhone',
  website: '_OrganizerWebsite',
} as const;

/** The cost an event's meta holds (text, currency symbol, code and position), as the cost formatter reads it. */
export function eventCostMeta(meta: Record<string, unknown>): CostMeta {
  return {
    cost: meta[EVENT_META.cost],
    currencySymbol: meta[EVENT_META.currencySymbol],
    currencyCode: meta[EVENT_META.currencyCode],
    currencyPosition: meta[EVENT_META.currencyPosition],
  };
}

/** The reference stores booleans as "1"/"yes"/true; anything else is false. */
export function truthyMeta(v: unknown): boolean {
  if (typeof v === 'boolean') return v;
  if (typeof v === 'number') return v !== 0;
  if (typeof v === 'string') return ['1', 'yes', 'true', 'on'].includes(v.trim().toLowerCase());
  return false;
}

/** Positive integer ids from a meta value that may be a list, one id, or numeric strings. */
export function idList(v: unknown): number[] {
  const list = Array.isArray(v) ? v : v === undefined || v === null || v === '' ? [] : [v];
  const out: number[] = [];
  for (const x of list) {
    const n = typeof x === 'number' ? x : typeof x === 'string' && /^\s*\d+\s*$/.test(x) ? Number(x) : NaN;
    if (Number.isInteger(n) && n > 0 && !out.includes(n)) out.push(n);
  }
  return out;
}

/** When an event happens: local wall times in its zone, whether it spans whole days. */
export interface EventTimes {
  start: DateTime;
  end: DateTime;
  /** The zone as the reference stores it (`America/New_York`, `UTC`, `UTC+2`). */
  timezone: string;
  allDay: boolean;
}

/**
 * The moments an event may start or end at: those the `Y-m-d H:i:s` meta strings (four-digit years)
 * name, both as wall time in the event's zone and in UTC. The reference keeps its event dates in the same
 * strings and in DATETIME columns, which end at 9999-12-31 23:59:59, so no event lasts past that.
 */
export const LATEST_EVENT_TIME = '9999-12-31 23:59:59';
const LATEST_MS = Date.parse('9999-12-31T23:59:59Z');
const EARLIEST_MS = Date.parse('0000-01-01T00:00:00Z');

/** Whether an event may start or end at a moment: a valid date whose wall time and UTC time lie within the years 0000 to 9999. */
export function storableEventTime(dt: DateTime): boolean {
  if (!dt.isValid) return false;
  const ms = dt.toMillis();
  return ms >= EARLIEST_MS && ms <= LATEST_MS && dt.year >= 0 && dt.year <= 9999;
}

/** Normalises times: all-day events run from 00:00:00 of the first day to 23:59:59 of the last; an end before the start becomes the start. */
export function normaliseTimes(t: EventTimes): EventTimes {
  const zone = zoneOf(t.timezone) ?? 'UTC';
  let start = t.start.setZone(zone);
  let end = t.end.setZone(zone);
  if (t.allDay) {
    start = start.startOf('day');
    end = end.set({ hour: 23, minute: 59, second: 59, millisecond: 0 });
  } else {
    // Only when needed: every new DateTime in a zone costs an offset lookup.
    if (start.millisecond) start = start.set({ millisecond: 0 });
    if (end.millisecond) end = end.set({ millisecond: 0 });
  }
  if (end < start) end = t.allDay ? start.set({ hour: 23, minute: 59, second: 59 }) : start;
  return { start, end, timezone: t.timezone, allDay: t.allDay };
}

/** `Y-m-d H:i:s` of an instant in UTC. */
function mysqlUtcOf(dt: DateTime): string {
  return new Date(dt.toMillis()).toISOString().slice(0, 19).replace('T', ' ');
}

/** The date meta of an event's times (local and UTC strings, zone, abbreviation, all-day flag, duration). */
export function timesToMeta(times: EventTimes): Record<string, unknown> {
  const t = normaliseTimes(times);
  return {
    [EVENT_META.start]: mysqlOf(t.start),
    [EVENT_META.end]: mysqlOf(t.end),
    [EVENT_META.startUtc]: mysqlUtcOf(t.start),
    [EVENT_META.endUtc]: mysqlUtcOf(t.end),
    [EVENT_META.timezone]: t.timezone,
    [EVENT_META.timezoneAbbr]: zoneAbbr(t.timezone, t.start),
    [EVENT_META.allDay]: t.allDay,
    [EVENT_META.duration]: Math.round((t.end.toMillis() - t.start.toMillis()) / 1000),
  };
}

const MYSQL_DATE = /^(\d{4})-(\d{2})-(\d{2})(?: (\d{2}):(\d{2}):(\d{2}))?$/;

/** A stored `Y-m-d H:i:s` (or `Y-m-d`) in a zone; read with a pattern, as luxon's format parser is slow for every record of an import. */
function mysqlIn(text: unknown, zone: string): DateTime | null {
  if (typeof text !== 'string' || !text) return null;
  const m = MYSQL_DATE.exec(text.trim());
  if (!m) return null;
  const dt = DateTime.fromObject(
    { year: +m[1], month: +m[2], day: +m[3], hour: m[4] ? +m[4] : 0, minute: m[5] ? +m[5] : 0, second: m[6] ? +m[6] : 0 },
    { zone },
  );
  return dt.isValid ? dt : null;
}

/**
 * The times stored in an event's meta. The local strings in the event's zone are the truth (the UTC
 * strings are derived); when only UTC strings exist they are read as UTC. `fallbackZone` is the site's.
 */
export function timesFromMeta(meta: Record<string, unknown>, fallbackZone: string): EventTimes | null {
  const storedZone = meta[EVENT_META.timezone];
  const stored = typeof storedZone === 'string' ? storedZone : '';
  const timezone = stored && zoneOf(stored) ? stored : fallbackZone;
  const zone = zoneOf(timezone) ?? 'UTC';
  let start = mysqlIn(meta[EVENT_META.start], zone);
  let end = mysqlIn(meta[EVENT_META.end], zone);
  if (!start) start = mysqlIn(meta[EVENT_META.startUtc], 'UTC')?.setZone(zone) ?? null;
  if (!end) end = mysqlIn(meta[EVENT_META.endUtc], 'UTC')?.setZone(zone) ?? null;
  if (!start) return null;
  return { start, end: end ?? start, timezone, allDay: truthyMeta(meta[EVENT_META.allDay]) };
}

/** A venue's coordinates when its meta holds both, each a finite number (stored as a number or numeric text). */
export function venueCoordinates(meta: Record<string, unknown>): { lat: number; lng: number } | null {
  const read = (v: unknown) => (typeof v === 'number' ? v : typeof v === 'string' && v.trim() !== '' ? Number(v) : NaN);
  const lat = read(meta[VENUE_META.lat]);
  const lng = read(meta[VENUE_META.lng]);
  return Number.isFinite(lat) && Number.isFinite(lng) ? { lat, lng } : null;
}

/**
 * The indexed fields of a venue record: its coordinates, null when it has none or they are out of range
 * (the geoloc filters find venues by them, libs/calendar/geo.ts).
 */
export interface VenueIndex {
  venue_lat: number | null;
  venue_lng: number | null;
}

export function venueIndex(meta: Record<string, unknown>): VenueIndex {
  const at = venueCoordinates(meta);
  const ok = at !== null && Math.abs(at.lat) <= 90 && Math.abs(at.lng) <= 180;
  return { venue_lat: ok ? at.lat : null, venue_lng: ok ? at.lng : null };
}

/** Whether a meta change touches what a venue's index fields are derived from. */
export const touchesVenueIndex = (changes: Record<string, unknown>): boolean => VENUE_META.lat in changes || VENUE_META.lng in changes;

/** The indexed fields of an event record, all derived from its meta. */
export interface EventIndex {
  event_start: Date | null;
  event_end: Date | null;
  featured: boolean;
  hide_from_listings: boolean;
  venues: number[];
  organizers: number[];
}

export function eventIndex(meta: Record<string, unknown>, fallbackZone: string, known?: EventTimes | null): EventIndex {
  const times = known !== undefined ? known : timesFromMeta(meta, fallbackZone);
  return {
    event_start: times ? times.start.toJSDate() : null,
    event_end: times ? times.end.toJSDate() : null,
    featured: truthyMeta(meta[EVENT_META.featured]),
    hide_from_listings: meta[EVENT_META.hideFromListings] === 'yes',
    venues: idList(meta[EVENT_META.venues]),
    organizers: idList(meta[EVENT_META.organizers]),
  };
}

/**
 * Applies meta changes to an event (an `undefined` value deletes the key) and returns the fields to
 * store: the whole new `meta` plus every derived index field. When the zone or dates change, the UTC
 * strings and abbreviation are recomputed from the local strings.
 */
export function eventMetaChanges(
  current: Pick<PostDoc, 'meta'> | null,
  changes: Record<string, unknown>,
  fallbackZone: string,
  /** The event's times when the caller has them already (an import): used instead of reading back the meta strings. */
  known?: EventTimes,
): Pick<PostDoc, 'meta'> & EventIndex {
  const meta: Record<string, unknown> = { ...(current?.meta ?? {}) };
  for (const [k, v] of Object.entries(changes)) {
    if (v === undefined) delete meta[k];
    else meta[k] = v;
  }
  // The local strings are the truth: a UTC string written without its local one moves the local one.
  const storedZone = meta[EVENT_META.timezone];
  const stored = typeof storedZone === 'string' ? zoneOf(storedZone) : null;
  for (const [local, utc] of [
    [EVENT_META.start, EVENT_META.startUtc],
    [EVENT_META.end, EVENT_META.endUtc],
  ] as const) {
    if (!(utc in changes) || local in changes) continue;
    const at = mysqlIn(changes[utc], 'UTC');
    if (at) meta[local] = mysqlOf(at.setZone(stored ?? zoneOf(fallbackZone) ?? 'UTC'));
  }
  const touchesTimes = [EVENT_META.start, EVENT_META.end, EVENT_META.startUtc, EVENT_META.endUtc, EVENT_META.timezone, EVENT_META.allDay].some(
    (k) => k in changes,
  );
  // The times read once: the index is derived from the same normalised times the meta strings are written from.
  let times: EventTimes | null | undefined;
  if (touchesTimes) {
    const read = known ?? timesFromMeta(meta, fallbackZone);
    times = read ? normaliseTimes(read) : null;
    if (times) Object.assign(meta, timesToMeta(times));
  }
  for (const key of [EVENT_META.venues, EVENT_META.organizers]) if (key in meta) meta[key] = idList(meta[key]);
  return { meta, ...eventIndex(meta, fallbackZone, times) };
}

/** Whether a meta key holds event data the index fields or the derived strings depend on. */
const isEventKey = (key: string) => key.startsWith('_Event') || key === EVENT_META.featured;

/**
 * Meta written through the generic content interface (cms/v2): `null` removes a key, so it reads as its
 * default again. A write that touches event keys goes through `eventMetaChanges`, as every calendar
 * writer's does, so the UTC strings, zone abbreviation and duration follow the local dates and the
 * index fields follow the meta; other keys are stored as given. Returns the fields to store.
 */
export function writtenMeta(
  current: Pick<PostDoc, 'meta'> | null,
  changes: Record<string, unknown>,
  fallbackZone: string,
  /** The record's type: an event's index fields always follow its meta, whatever keys the write touches. */
  type?: string,
): Pick<PostDoc, 'meta'> & Partial<EventIndex> & Partial<VenueIndex> {
  const normalised: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(changes)) normalised[k] = v === null ? undefined : v;
  if (type === EVENT_TYPE || Object.keys(normalised).some(isEventKey)) return eventMetaChanges(current, normalised, fallbackZone);
  const meta: Record<string, unknown> = { ...(current?.meta ?? {}) };
  for (const [k, v] of Object.entries(normalised)) {
    if (v === undefined) delete meta[k];
    else meta[k] = v;
  }
  return touchesVenueIndex(normalised) ? { meta, ...venueIndex(meta) } : { meta };
}

/**
 * The store write that unlinks a trashed venue or organizer from every event: the meta list and its
 * indexed copy lose the id together (one update, so they never disagree).
 */
export function unlinkFromEvents(kind: 'venue' | 'organizer', id: number): { filter: Filter; update: Update } {
  const [metaKey, field] = kind === 'venue' ? [EVENT_META.venues, 'venues'] : [EVENT_META.organizers, 'organizers'];
  return { filter: { type: EVENT_TYPE, [field]: id }, update: { $pull: { [`meta.${metaKey}`]: id, [field]: id } } };
}
