/**
 * Checking the events of a batch before anything is stored: the kind of every field of an event, its
 * venue and organizers, and its dates and clock fields, read as eventTimes reads them when it builds
 * an event's start and end in its zone. Pure.
 */
import { DateTime } from 'luxon';
import type { EventTimes } from '#libs/calendar/meta';
import { zoneFor, zoneOf } from '#libs/calendar/timezone';
import { readWall } from '#libs/dates/wall';
import { ParamError } from '#libs/rest/errors';
import { truthy, type EaEvent } from './items';

type Kind = 'string' | 'scalar' | 'flag' | 'list' | 'strings';
const EVENT_FIELDS: Record<string, Kind> = {
  title: 'string',
  description: 'string',
  excerpt: 'string',
  start_date: 'string',
  end_date: 'string',
  start_hour: 'scalar',
  start_minute: 'scalar',
  start_meridian: 'string',
  end_hour: 'scalar',
  end_minute: 'scalar',
  end_meridian: 'string',
  start_date_utc: 'string',
  end_date_utc: 'string',
  timezone: 'string',
  all_day: 'flag',
  url: 'string',
  global_id: 'string',
  global_id_lineage: 'strings',
  uid: 'scalar',
  id: 'scalar',
  meetup_id: 'scalar',
  eventbrite_id: 'scalar',
  facebook_id: 'scalar',
  categories: 'list',
  tags: 'list',
  currency_symbol: 'string',
  currency_position: 'string',
  show_map: 'flag',
  show_map_link: 'flag',
  hide_from_listings: 'flag',
  sticky: 'flag',
  featured: 'flag',
  feature_event: 'flag',
};
/** Fields the remote service sends for venues and organizers alike (see EaLinked). */
const LINKED_FIELDS: Record<string, Kind> = {
  description: 'string',
  excerpt: 'string',
  global_id: 'string',
  global_id_lineage: 'strings',
  meetup_id: 'scalar',
  eventbrite_id: 'scalar',
};
const VENUE_FIELDS: Record<string, Kind> = {
  venue: 'string',
  address: 'string',
  city: 'string',
  country: 'string',
  province: 'string',
  state: 'string',
  stateprovince: 'string',
  zip: 'scalar',
  phone: 'scalar',
  website: 'string',
  url: 'string',
  ...LINKED_FIELDS,
  show_map: 'flag',
  show_map_link: 'flag',
  geo_lat: 'scalar',
  geo_lng: 'scalar',
};
const ORGANIZER_FIELDS: Record<string, Kind> = {
  organizer: 'string',
  phone: 'scalar',
  email: 'string',
  website: 'string',
  ...LINKED_FIELDS,
};

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const FLAG_STRINGS = new Set(['', '0', '1', 'true', 'false', 'yes', 'no', 'on', 'off']);

function kindOk(kind: Kind, v: unknown): boolean {
  switch (kind) {
    case 'string':
      return typeof v === 'string';
    case 'scalar':
      return typeof v === 'string' || (typeof v === 'number' && Number.isFinite(v));
    case 'flag':
      return typeof v === 'boolean' || v === 0 || v === 1 || (typeof v === 'string' && FLAG_STRINGS.has(v.trim().toLowerCase()));
    case 'list':
      return typeof v === 'string' || (Array.isArray(v) && v.every((x) => typeof x === 'string' || typeof x === 'number'));
    case 'strings':
      return Array.isArray(v) && v.every((x) => typeof x === 'string');
  }
}

const KIND_WORD: Record<Kind, string> = { string: 'string', scalar: 'string,number', flag: 'boolean', list: 'array', strings: 'array' };

/** The field tables as lists, made once: every event of a batch is checked against them. */
const FIELD_LISTS = new Map<Record<string, Kind>, Array<[string, Kind]>>([EVENT_FIELDS, VENUE_FIELDS, ORGANIZER_FIELDS].map((f) => [f, Object.entries(f)]));

function checkFields(at: string, obj: Record<string, unknown>, fields: Record<string, Kind>): ParamError | null {
  for (const [name, kind] of FIELD_LISTS.get(fields) ?? Object.entries(fields)) {
    const v = obj[name];
    if (v === undefined || v === null) continue;
    if (!kindOk(kind, v)) return new ParamError('rest_invalid_type', `${at}.${name} is not of type ${KIND_WORD[kind]}.`, { param: `${at}.${name}` });
  }
  return null;
}

/** Hour and minute fields: 1–12 with a meridian, else 0–23; minutes 0–59. Null when absent. */
function clock(hour: unknown, minute: unknown, meridian: unknown): { hour: number; minute: number } | null | 'bad' {
  if ((hour === undefined || hour === null || hour === '') && (minute === undefined || minute === null || minute === '')) return null;
  const h = hour === undefined || hour === null || hour === '' ? 0 : Number(hour);
  const mi = minute === undefined || minute === null || minute === '' ? 0 : Number(minute);
  if (!Number.isInteger(h) || !Number.isInteger(mi) || mi < 0 || mi > 59) return 'bad';
  const mer = typeof meridian === 'string' ? meridian.trim().toLowerCase() : '';
  if (mer === 'am' || mer === 'pm') {
    if (h < 1 || h > 12) return 'bad';
    return { hour: (h % 12) + (mer === 'pm' ? 12 : 0), minute: mi };
  }
  if (mer !== '') return 'bad';
  if (h < 0 || h > 23) return 'bad';
  return { hour: h, minute: mi };
}

/** The zone of an event: its own when valid, else the site's (as luxon names it). */
export function eventZone(item: { timezone?: unknown }, siteZone: string): { name: string; zone: string } {
  const tz = typeof item.timezone === 'string' ? item.timezone.trim() : '';
  const z = tz ? zoneOf(tz) : null;
  return z ? { name: tz, zone: z } : { name: siteZone, zone: zoneOf(siteZone) ?? 'UTC' };
}

function utcWall(text: unknown, zone: string): DateTime | null {
  if (typeof text !== 'string' || !text.trim()) return null;
  const w = readWall(text, 'UTC');
  if (!w) return null;
  const dt = DateTime.fromObject({ year: w.year, month: w.month, day: w.day, hour: w.hour, minute: w.minute, second: w.second }, { zone: 'UTC' });
  return dt.isValid ? dt.setZone(zoneFor(zone)) : null;
}

function localMoment(date: unknown, hour: unknown, minute: unknown, meridian: unknown, zone: string): DateTime | null | 'bad' {
  if (typeof date !== 'string' || !date.trim()) return null;
  const w = readWall(date, zone);
  if (!w) return 'bad';
  const c = clock(hour, minute, meridian);
  if (c === 'bad') return 'bad';
  const t = c ?? { hour: w.hour, minute: w.minute };
  // A remembering zone: every event of a feed builds its times in one of a few zones (timezone.ts).
  const dt = DateTime.fromObject(
    { year: w.year, month: w.month, day: w.day, hour: t.hour, minute: t.minute, second: c ? 0 : w.second },
    { zone: zoneFor(zone) },
  );
  return dt.isValid ? dt : 'bad';
}

/**
 * When an event happens: the local date with its hour, minute and meridian fields in the event's zone,
 * else the UTC date; the end defaults to the start. A string naming why when the dates cannot be read.
 */
export function eventTimes(item: EaEvent, siteZone: string): EventTimes | string {
  const { name, zone } = eventZone(item, siteZone);
  const start = localMoment(item.start_date, item.start_hour, item.start_minute, item.start_meridian, zone);
  if (start === 'bad') return 'start_date';
  const startAt = start ?? utcWall(item.start_date_utc, zone);
  if (!startAt) return typeof item.start_date_utc === 'string' && item.start_date_utc.trim() ? 'start_date_utc' : 'start_date';
  let end = localMoment(item.end_date, item.end_hour, item.end_minute, item.end_meridian, zone);
  if (end === 'bad') return 'end_date';
  if (!end && (item.end_hour !== undefined || item.end_minute !== undefined)) {
    // A time without a date: the end is on the start's day.
    end = localMoment(startAt.toFormat('yyyy-LL-dd'), item.end_hour, item.end_minute, item.end_meridian, zone);
    if (end === 'bad') return 'end_hour';
  }
  const endAt = end ?? utcWall(item.end_date_utc, zone) ?? startAt;
  return { start: startAt, end: endAt, timezone: name, allDay: truthy(item.all_day) };
}

const given = (v: unknown): v is string => typeof v === 'string' && v.trim() !== '';

/**
 * The field eventTimes would fail on, or null: the same reading of the date texts and clock fields,
 * without building the times in the event's zone (that is the worker's job, and costly).
 */
function unreadableDate(item: Record<string, unknown>, siteZone: string): string | null {
  const { zone } = eventZone(item, siteZone);
  if (given(item.start_date)) {
    if (!readWall(item.start_date, zone) || clock(item.start_hour, item.start_minute, item.start_meridian) === 'bad') return 'start_date';
  } else if (!given(item.start_date_utc) || !readWall(item.start_date_utc, 'UTC')) return given(item.start_date_utc) ? 'start_date_utc' : 'start_date';
  if (given(item.end_date)) {
    if (!readWall(item.end_date, zone) || clock(item.end_hour, item.end_minute, item.end_meridian) === 'bad') return 'end_date';
  } else if (item.end_hour !== undefined || item.end_minute !== undefined) {
    if (clock(item.end_hour, item.end_minute, item.end_meridian) === 'bad') return 'end_hour';
  }
  return null;
}

/** Checks the `events` of a batch; the failure names the first bad item and field. */
export function checkEvents(raw: unknown, siteZone: string): { events: EaEvent[] } | { error: ParamError } {
  if (raw === undefined || raw === null) return { events: [] };
  if (!Array.isArray(raw)) return { error: new ParamError('rest_invalid_type', 'events is not of type array.', { param: 'events' }) };
  for (let i = 0; i < raw.length; i++) {
    const at = `events[${i}]`;
    const e = raw[i];
    if (!isObject(e)) return { error: new ParamError('rest_invalid_type', `${at} is not of type object.`, { param: at }) };
    if (typeof e.title !== 'string')
      return { error: new ParamError('rest_property_required', `title is a required property of ${at}.`, { param: `${at}.title` }) };
    const bad = checkFields(at, e, EVENT_FIELDS);
    if (bad) return { error: bad };
    if (e.venue !== undefined && e.venue !== null && !(Array.isArray(e.venue) && e.venue.length === 0)) {
      if (!isObject(e.venue)) return { error: new ParamError('rest_invalid_type', `${at}.venue is not of type object.`, { param: `${at}.venue` }) };
      const v = checkFields(`${at}.venue`, e.venue, VENUE_FIELDS);
      if (v) return { error: v };
    }
    if (e.organizer !== undefined && e.organizer !== null) {
      const list = Array.isArray(e.organizer) ? e.organizer : [e.organizer];
      for (let k = 0; k < list.length; k++) {
        const o = list[k];
        const oat = Array.isArray(e.organizer) ? `${at}.organizer[${k}]` : `${at}.organizer`;
        if (!isObject(o)) return { error: new ParamError('rest_invalid_type', `${oat} is not of type object.`, { param: oat }) };
        const v = checkFields(oat, o, ORGANIZER_FIELDS);
        if (v) return { error: v };
      }
    }
    const date = unreadableDate(e, siteZone);
    if (date) return { error: new ParamError('rest_invalid_date', `${at}.${date} is not a valid date.`, { param: `${at}.${date}` }) };
  }
  return { events: raw as EaEvent[] };
}
