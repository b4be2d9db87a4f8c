/**
 * One VEVENT, read from its jCal form (ICAL.parse output, values already unescaped): its times as
 * wall times in a source zone plus instants, its recurrence keys, and the item fields it gives
 * (title, description, URL, categories, venue from LOCATION, organizer, image).
 */
import ICAL from 'ical.js';
import type { EaOrganizer, EaVenue } from '../items/items';
import type { FeedEvent } from './types';
import { addDays, basicDate, basicUtc, isWall, type FeedZones, type SourceZone, type Wall } from './zones';

export type Prop = [string, Record<string, unknown>, string, ...unknown[]];
export type Jcal = [string, Prop[], Jcal[]];

/** A jCal component as ical.js parses one: its name, its properties and its subcomponents. */
export const isJcal = (v: unknown): v is Jcal => Array.isArray(v) && typeof v[0] === 'string' && Array.isArray(v[1]) && Array.isArray(v[2]);

/** A date or date-time value: its wall time, whether it is a date, and whether it is UTC (`Z`). */
export interface Moment {
  wall: Wall;
  date: boolean;
  utc: boolean;
}

const MOMENT = /^(\d{4})-(\d{2})-(\d{2})(?:T(?:(\d{2}):(\d{2}):(\d{2})(Z)?|::))?$/;

export function readMoment(value: unknown): Moment | null {
  if (typeof value !== 'string') return null;
  const m = MOMENT.exec(value.trim());
  if (!m) return null;
  // `2026-01-05T::` is how ical.js reads a bare date given without VALUE=DATE.
  const date = m[4] === undefined;
  const wall = { year: +m[1], month: +m[2], day: +m[3], hour: date ? 0 : +m[4], minute: date ? 0 : +m[5], second: date ? 0 : +m[6] };
  return isWall(wall) ? { wall, date, utc: m[7] === 'Z' } : null;
}

const param = (p: Prop, name: string): string | undefined => {
  const v = p[1][name];
  return typeof v === 'string' ? v : Array.isArray(v) && typeof v[0] === 'string' ? v[0] : undefined;
};

/** The properties of a component by name. */
export function propsOf(comp: Jcal): Map<string, Prop[]> {
  const m = new Map<string, Prop[]>();
  for (const p of comp[1]) {
    const list = m.get(p[0]);
    if (list) list.push(p);
    else m.set(p[0], [p]);
  }
  return m;
}

const first = (props: Map<string, Prop[]>, name: string): Prop | undefined => props.get(name)?.[0];
const firstText = (props: Map<string, Prop[]>, name: string): string | undefined => {
  const v = first(props, name)?.[3];
  return typeof v === 'string' ? v : typeof v === 'number' ? String(v) : undefined;
};

/** Unescapes a value ical.js keeps raw (X- properties): `\,` `\;` `\n` `\\`. */
export function unescapeText(v: string): string {
  return v.replace(/\\([\\;,nN])/g, (_, c: string) => (c === 'n' || c === 'N' ? '\n' : c));
}

/** A VEVENT read for expansion and output. */
export interface Vevent {
  uid: string;
  line?: number;
  props: Map<string, Prop[]>;
  allDay: boolean;
  /** The start wall time (a date for all-day events) in `source`, and its instant. */
  start: Wall;
  source: SourceZone;
  startMs: number;
  /** Timed events: the exact length. All-day events: the number of days (at least one). */
  durationMs: number;
  days: number;
  /** The end wall time when it is written in the event's own zone (kept as written). */
  endWall?: Wall;
  recurring: boolean;
  /** The occurrence an override replaces (see occurrenceKey). */
  recurrenceId?: string;
  /** RECURRENCE-ID's date as written in its own zone (an all-day series' overrides are matched by it). */
  recurrenceDate?: string;
  cancelled: boolean;
  sequence: number;
  /** DTSTAMP's instant, or null. */
  stamp: number | null;
  title: string;
}

/** How an occurrence is named: its start as a UTC basic date-time, or its date for all-day events. */
export function occurrenceKey(m: Moment, tzid: string | undefined, zones: FeedZones): string {
  return m.date ? basicDate(m.wall) : basicUtc(zones.source(tzid, m.utc).millis(m.wall));
}

const DAY_MS = 86400000;

function stampOf(p: Prop | undefined): number | null {
  const m = p ? readMoment(p[3]) : null;
  return m ? Date.UTC(m.wall.year, m.wall.month - 1, m.wall.day, m.wall.hour, m.wall.minute, m.wall.second) : null;
}
const dayNumber = (w: Wall) => Math.round(Date.UTC(w.year, w.month - 1, w.day) / DAY_MS);

/** Reads the times and recurrence facts of a VEVENT; a string says why it cannot be imported. */
export function readVevent(comp: Jcal, uid: string, zones: FeedZones, line?: number): Vevent | string {
  const props = propsOf(comp);
  const dtstart = first(props, 'dtstart');
  if (!dtstart) return 'DTSTART is missing';
  // RFC 5545 allows one DTSTART and one DTEND: with two, which one the exporter meant is unknown.
  for (const once of ['dtstart', 'dtend']) if ((props.get(once)?.length ?? 0) > 1) return `${once.toUpperCase()} appears more than once`;
  const start = readMoment(dtstart[3]);
  if (!start) return `DTSTART is not a date: ${String(dtstart[3])}`;
  const tzid = param(dtstart, 'tzid');
  const source = start.date ? zones.source(tzid, false) : zones.source(tzid, start.utc);
  const dtend = first(props, 'dtend');
  const end = dtend ? readMoment(dtend[3]) : null;
  if (dtend && !end) return `DTEND is not a date: ${String(dtend[3])}`;
  const durationText = first(props, 'duration')?.[3];
  let duration: InstanceType<typeof ICAL.Duration> | null = null;
  if (!end && typeof durationText === 'string') {
    try {
      duration = ICAL.Duration.fromString(durationText);
    } catch {
      return `DURATION is not a duration: ${durationText}`;
    }
  }
  const msAllDay = /^true$/i.test(firstText(props, 'x-microsoft-cdo-alldayevent') ?? '');
  const midnight = (w: Wall) => w.hour === 0 && w.minute === 0 && w.second === 0;
  const allDay = start.date || (msAllDay && midnight(start.wall) && (!end || midnight(end.wall)));

  const v: Vevent = {
    uid,
    line,
    props,
    allDay,
    start: start.wall,
    // An all-day event keeps the zone its DTSTART names (else the feed's).
    source: allDay ? (tzid ? zones.source(tzid, false) : zones.floating) : source,
    startMs: 0,
    durationMs: 0,
    days: 1,
    recurring: props.has('rrule') || props.has('rdate'),
    cancelled: /^cancelled$/i.test(firstText(props, 'status') ?? ''),
    sequence: Number(firstText(props, 'sequence')) || 0,
    stamp: stampOf(first(props, 'dtstamp')),
    title: (firstText(props, 'summary') ?? '').trim(),
  };
  if (allDay) {
    v.start = { ...start.wall, hour: 0, minute: 0, second: 0 };
    if (end) v.days = dayNumber(end.wall) - dayNumber(start.wall) + (end.date || midnight(end.wall) ? 0 : 1);
    else if (duration) v.days = duration.isNegative ? 0 : duration.weeks * 7 + duration.days;
    v.days = Math.max(1, v.days);
    v.startMs = v.source.millis(v.start);
    v.durationMs = v.source.millis(addDays(v.start, v.days)) - v.startMs;
  } else {
    v.startMs = source.millis(start.wall);
    if (end) {
      // A date-valued end of a timed event is midnight in the event's own zone.
      const endSource = end.date ? source : zones.source(param(dtend!, 'tzid'), end.utc);
      const endMs = endSource.millis(end.wall);
      v.durationMs = Math.max(0, endMs - v.startMs);
      if (endSource === source && source.direct && endMs >= v.startMs) v.endWall = end.wall;
    } else if (duration && !duration.isNegative) {
      // Days are calendar days (the clock is kept across a DST change), hours and less are exact.
      const days = duration.weeks * 7 + duration.days;
      const exact = ((duration.hours * 60 + duration.minutes) * 60 + duration.seconds) * 1000;
      v.durationMs = (days ? source.millis(addDays(start.wall, days)) - v.startMs : 0) + exact;
    }
  }
  if (!Number.isFinite(v.startMs) || !Number.isFinite(v.durationMs)) return 'DTSTART is not a time of its zone';
  const rid = first(props, 'recurrence-id');
  if (rid) {
    const m = readMoment(rid[3]);
    if (!m) return `RECURRENCE-ID is not a date: ${String(rid[3])}`;
    v.recurrenceId = occurrenceKey(m, param(rid, 'tzid'), zones);
    v.recurrenceDate = m.utc ? basicDate(zones.floating.wallAt(zones.utc.millis(m.wall))) : basicDate(m.wall);
  }
  return v;
}

// ---------------------------------------------------------------------------------------------------------
// Item fields

/** Plain text kept readable: the service renders content through wpautop (blank line → paragraph, newline → <br>). */
const plain = (v: string): string => v.replace(/\r\n?/g, '\n').trim();

/** The body of an HTML description (Outlook's X-ALT-DESC is a whole document). */
function htmlBody(html: string): string {
  const body = /<body[^>]*>([\s\S]*?)<\/body>/i.exec(html);
  return (body ? body[1] : html).replace(/<!--[\s\S]*?-->/g, '').trim();
}

/**
 * LOCATION as a venue: "Name, street, city, ..." (Google, Outlook) or "Name (street, city, ...)"
 * (Meetup) → the name and the rest as its address; a URL is no venue.
 */
export function venueOfLocation(location: string): EaVenue | null {
  const text = location.replace(/\r\n?/g, '\n').trim();
  if (!text || /^[a-z][a-z0-9+.-]*:\/\/\S+$/i.test(text)) return null;
  const paren = /^([^(\n]+?)\s*\(([^()]+)\)$/.exec(text);
  if (paren && paren[2].includes(',')) return { venue: paren[1].trim(), address: paren[2].trim() };
  const parts = text.split(/\s*[,\n]\s*/).filter(Boolean);
  const venue: EaVenue = { venue: parts[0] };
  if (parts.length > 1) venue.address = parts.slice(1).join(', ');
  return venue;
}

function organizerOf(p: Prop): EaOrganizer | null {
  const value = typeof p[3] === 'string' ? p[3].trim() : '';
  const email = /^mailto:/i.test(value) ? value.slice(7).trim() : /^[^\s@]+@[^\s@]+$/.test(value) ? value : '';
  const name = (param(p, 'cn') ?? '').replace(/^"(.*)"$/, '$1').trim() || email;
  if (!name) return null;
  return email ? { organizer: name, email } : { organizer: name };
}

/** The fields of an item besides its times and uid. */
export function itemFields(props: Map<string, Prop[]>): FeedEvent {
  const item: FeedEvent = { title: (firstText(props, 'summary') ?? '').trim() };
  const description = firstText(props, 'description');
  const alt = props.get('x-alt-desc')?.find((p) => /html/i.test(param(p, 'fmttype') ?? ''));
  if (description && description.trim()) item.description = plain(description);
  else if (alt && typeof alt[3] === 'string') item.description = htmlBody(unescapeText(alt[3]));
  const url = firstText(props, 'url')?.trim();
  if (url) item.url = url;
  const categories: string[] = [];
  for (const p of props.get('categories') ?? []) {
    // ical.js splits the list at unescaped commas: an escaped one stays in its name.
    for (const v of p.slice(3)) {
      const name = String(v).trim();
      if (name && !categories.some((x) => x.toLowerCase() === name.toLowerCase())) categories.push(name);
    }
  }
  if (categories.length) item.categories = categories;
  const location = firstText(props, 'location');
  const venue = location ? venueOfLocation(location) : null;
  // GEO (`lat;lng`) locates the event's venue; without a LOCATION there is no venue to carry it.
  const geo = props.get('geo')?.[0]?.[3];
  if (venue && Array.isArray(geo) && geo.length === 2) {
    venue.geo_lat = Number(geo[0]);
    venue.geo_lng = Number(geo[1]);
  }
  if (venue) item.venue = venue;
  else if (location && !item.url && /^https?:\/\//i.test(location.trim())) item.url = location.trim();
  const organizer = props
    .get('organizer')
    ?.map(organizerOf)
    .find((o) => o);
  if (organizer) item.organizer = organizer;
  const image =
    props.get('image')?.find((p) => typeof p[3] === 'string' && /^https?:/i.test(p[3])) ??
    props.get('attach')?.find((p) => /^image\//i.test(param(p, 'fmttype') ?? '') && typeof p[3] === 'string' && /^https?:/i.test(p[3]));
  if (image) item.image = String(image[3]).trim();
  return item;
}
