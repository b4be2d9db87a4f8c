/**
 * iCalendar (RFC 5545, `text/calendar`) export of events. The input is the vendor/events/v1 event record
 * as the API presents it (so a client's records, or the archive's own, export the same way); ical.js
 * builds the components and writes them, escaping and folding included. Timed events carry the TZID of
 * their own zone with a VTIMEZONE built from the IANA data for the years the feed spans; all-day events
 * are dates with the exclusive end RFC 5545 wants.
 *
 * `ICalendarWriter` takes events in batches and keeps only the text of the events already written, so an
 * export of many events never holds their records at once; `eventsToICalendar` is the one-call form.
 */
import ICAL from 'ical.js';
import { decodeEntities } from '../../html/escape';
import { exportZone, vtimezone, type ExportZone } from './vtimezone';

/** A venue as the event record embeds it. */
export interface ICalVenue {
  venue?: string;
  address?: string;
  city?: string;
  stateprovince?: string;
  state?: string;
  province?: string;
  zip?: string;
  country?: string;
  geo_lat?: number;
  geo_lng?: number;
}

/** An organizer as the event record embeds it. */
export interface ICalOrganizer {
  organizer?: string;
  email?: string;
}

/** The fields of a vendor/events/v1 event record the export reads. */
export interface ICalEvent {
  id: number;
  /** The unique id the event was imported with from a calendar feed; the export's own UID otherwise. */
  uid?: string;
  title: string;
  /** HTML, as the record carries it (empty for a password-protected event listed without its password). */
  description?: string;
  url: string;
  all_day: boolean | null;
  /** Local wall times in the event's zone, `Y-m-d H:i:s`. */
  start_date: string;
  end_date: string;
  utc_start_date: string;
  utc_end_date: string;
  timezone: string;
  /** Publication and modification instants, `Y-m-d H:i:s` in UTC. */
  date_utc?: string;
  modified_utc?: string;
  categories?: Array<{ name?: string }>;
  venue?: ICalVenue | ICalVenue[];
  organizer?: ICalOrganizer[];
  image?: false | { url?: string; extension?: string };
}

/** What the export needs to know of the site. */
export interface ICalSite {
  name: string;
  /** Home URL: its host names the UIDs. */
  home: string;
  /** The site's time zone (X-WR-TIMEZONE, and the zone of events stored without one). */
  timezone: string;
}

export interface ICalOptions {
  /** The export's DTSTAMP (default: now). */
  now?: Date;
  /** A subscribable feed: adds REFRESH-INTERVAL and X-PUBLISHED-TTL. */
  refreshMinutes?: number;
  /** X-WR-CALNAME (default: the site name). */
  calendarName?: string;
}

export const ICAL_CONTENT_TYPE = 'text/calendar; charset=utf-8';

const CRLF = '\r\n';

// The calendar-level extension properties calendar programs read are text values (escaped like SUMMARY);
// ical.js writes unknown properties unescaped unless its design knows their type.
for (const name of ['x-wr-calname', 'x-wr-caldesc', 'x-wr-timezone', 'x-published-ttl']) {
  ICAL.design.icalendar.property[name] ??= { defaultType: 'text' };
}
const MYSQL = /^(\d{4})-(\d{2})-(\d{2})(?:[ T](\d{2}):(\d{2}):(\d{2}))?/;

/**
 * Runs a serialisation with content lines of at most 75 octets. ical.js counts the first line's 75
 * octets without the continuation's leading space; one octet less keeps every line within the limit.
 */
function folded<T>(write: () => T): T {
  const saved = ICAL.foldLength;
  ICAL.foldLength = 74;
  try {
    return write();
  } finally {
    ICAL.foldLength = saved;
  }
}

/** The numbers of a `Y-m-d H:i:s` text; null for none or the zero date (`0000-00-00 ...`). */
function parts(text: string | undefined): number[] | null {
  const m = MYSQL.exec((text ?? '').trim());
  const p = m ? m.slice(1).map((v) => (v === undefined ? 0 : Number(v))) : null;
  return p && p[0] > 0 && p[1] > 0 && p[2] > 0 ? p : null;
}

function dateTime(text: string | undefined, utc: boolean): ICAL.Time | null {
  const p = parts(text);
  if (!p) return null;
  const t = ICAL.Time.fromData({ year: p[0], month: p[1], day: p[2], hour: p[3], minute: p[4], second: p[5], isDate: false });
  if (utc) t.zone = ICAL.Timezone.utcTimezone;
  return t;
}

function date(text: string | undefined, plusDays = 0): ICAL.Time | null {
  const p = parts(text);
  if (!p) return null;
  const d = new Date(Date.UTC(p[0], p[1] - 1, p[2] + plusDays));
  return ICAL.Time.fromData({ year: d.getUTCFullYear(), month: d.getUTCMonth() + 1, day: d.getUTCDate(), isDate: true });
}

/** Plain text of the record's HTML: paragraphs and line breaks kept as newlines, tags dropped, entities decoded. */
export function plainText(html: string | undefined): string {
  const text = (html ?? '')
    .replace(/\r\n?/g, '\n')
    .replace(/<(script|style)[^>]*>[\s\S]*?<\/\1>/gi, '')
    .replace(/\n?<br\s*\/?>\n?/gi, '\n')
    .replace(/<\/(p|div|h[1-6]|li|blockquote|pre|tr|table|ul|ol)>\s*/gi, '\n\n')
    .replace(/<[^>]*>/g, '');
  return decodeEntities(text)
    .split('\n')
    .map((l) => l.replace(/[ \t\u00a0]+/g, ' ').trim())
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

const inline = (html: string | undefined) => plainText(html).replace(/\s+/g, ' ');

function hostOf(home: string): string {
  try {
    return new URL(home).hostname || 'localhost';
  } catch {
    return 'localhost';
  }
}

/** The event's UID: its imported one, else `event-<id>@<host>`, the same in every export. */
export function eventUid(event: Pick<ICalEvent, 'id' | 'uid'>, site: Pick<ICalSite, 'home'>): string {
  return event.uid?.trim() || `event-${event.id}@${hostOf(site.home)}`;
}

function venueOf(event: ICalEvent): ICalVenue | undefined {
  return Array.isArray(event.venue) ? event.venue[0] : event.venue;
}

/** Venue name and address, the way an address reads: "Hall, 1 Main St, Springfield, IL, 62701, US". */
function location(v: ICalVenue): string {
  const region = v.stateprovince || v.state || v.province;
  return [v.venue, v.address, v.city, region, v.zip, v.country]
    .map((s) => inline(typeof s === 'string' ? s : ''))
    .filter(Boolean)
    .join(', ');
}

const IMAGE_TYPES: Record<string, string> = {
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  png: 'image/png',
  gif: 'image/gif',
  webp: 'image/webp',
  avif: 'image/avif',
  svg: 'image/svg+xml',
};

/** Builds the VEVENT of an event; returns it with the zone and years its times need a VTIMEZONE for. */
export function eventComponent(event: ICalEvent, site: ICalSite, stamp: ICAL.Time): { vevent: ICAL.Component; zone: ExportZone | null; years: number[] } {
  const ev = new ICAL.Component('vevent');
  ev.addPropertyWithValue('uid', eventUid(event, site));
  ev.addPropertyWithValue('dtstamp', stamp);
  const created = dateTime(event.date_utc, true);
  if (created) ev.addPropertyWithValue('created', created);
  const modified = dateTime(event.modified_utc, true);
  if (modified) ev.addPropertyWithValue('last-modified', modified);
  ev.addPropertyWithValue('summary', inline(event.title));
  const description = plainText(event.description);
  if (description) ev.addPropertyWithValue('description', description);

  let zone: ExportZone | null = null;
  const years: number[] = [];
  if (event.all_day) {
    const start = date(event.start_date);
    // The end is exclusive: the day after the last day.
    const end = date(event.end_date, 1);
    if (start) ev.addPropertyWithValue('dtstart', start);
    if (end) ev.addPropertyWithValue('dtend', end);
  } else {
    zone = exportZone(event.timezone ?? '', site.timezone);
    for (const [name, local, utc] of [
      ['dtstart', event.start_date, event.utc_start_date],
      ['dtend', event.end_date, event.utc_end_date],
    ] as const) {
      const t = zone ? dateTime(local, false) : dateTime(utc, true);
      if (!t) continue;
      const prop = ev.addPropertyWithValue(name, t);
      if (zone) {
        prop.setParameter('tzid', zone.tzid);
        years.push(t.year);
      }
    }
  }

  const venue = venueOf(event);
  if (venue) {
    const where = location(venue);
    if (where) ev.addPropertyWithValue('location', where);
    const lat = Number(venue.geo_lat);
    const lng = Number(venue.geo_lng);
    if (venue.geo_lat !== undefined && venue.geo_lng !== undefined && Number.isFinite(lat) && Number.isFinite(lng) && !(lat === 0 && lng === 0)) {
      const geo = new ICAL.Property('geo');
      geo.setValue([lat, lng]);
      ev.addProperty(geo);
    }
  }
  // RFC 5545 allows one ORGANIZER, a calendar address: the first organizer that has an e-mail address.
  const organizer = (event.organizer ?? []).find((o) => o.email?.trim());
  if (organizer) {
    const prop = ev.addPropertyWithValue('organizer', `mailto:${organizer.email!.trim()}`);
    const name = inline(organizer.organizer);
    if (name) prop.setParameter('cn', name);
  }
  const categories = (event.categories ?? []).map((c) => inline(c.name)).filter(Boolean);
  if (categories.length) {
    const prop = new ICAL.Property('categories');
    prop.setValues(categories);
    ev.addProperty(prop);
  }
  if (event.url) ev.addPropertyWithValue('url', event.url);
  if (event.image && event.image.url) {
    const attach = ev.addPropertyWithValue('attach', event.image.url);
    const ext = (event.image.extension ?? /\.([a-z0-9]+)(?:$|\?)/i.exec(event.image.url)?.[1] ?? '').toLowerCase();
    if (IMAGE_TYPES[ext]) attach.setParameter('fmttype', IMAGE_TYPES[ext]);
  }
  return { vevent: ev, zone, years };
}

/**
 * Writes a VCALENDAR in pieces: `add` serialises a batch of events at once and keeps their text, `finish`
 * puts the calendar's properties and the VTIMEZONEs the events need in front.
 */
export class ICalendarWriter {
  private readonly events: string[] = [];
  private readonly zones = new Map<string, { zone: ExportZone; years: Set<number> }>();
  private readonly stamp: ICAL.Time;
  private count = 0;
  /** The DTSTAMP line every event carries (the one part of the text that changes from export to export). */
  readonly stampLine: string;
  /** The latest LAST-MODIFIED of the events written (UTC `Y-m-d H:i:s`), for an HTTP Last-Modified. */
  lastModified = '';

  constructor(
    private readonly site: ICalSite,
    private readonly opts: ICalOptions = {},
  ) {
    const now = new Date(Math.floor((opts.now ?? new Date()).getTime() / 1000) * 1000);
    this.stamp = ICAL.Time.fromJSDate(now, true);
    this.stampLine = `DTSTAMP:${this.stamp.toICALString()}`;
  }

  get size(): number {
    return this.count;
  }

  add(events: Iterable<ICalEvent>): this {
    const chunk: string[] = [];
    folded(() => {
      for (const event of events) {
        const { vevent, zone, years } = eventComponent(event, this.site, this.stamp);
        if (zone) {
          const known = this.zones.get(zone.tzid) ?? { zone, years: new Set<number>() };
          for (const y of years) known.years.add(y);
          this.zones.set(zone.tzid, known);
        }
        if (event.modified_utc && event.modified_utc > this.lastModified) this.lastModified = event.modified_utc;
        chunk.push(vevent.toString());
        this.count++;
      }
    });
    if (chunk.length) this.events.push(chunk.join(CRLF));
    return this;
  }

  /** The whole calendar, lines ending in CRLF. */
  finish(): string {
    const cal = new ICAL.Component('vcalendar');
    cal.addPropertyWithValue('prodid', '-//Events Calendar Content Service//iCalendar export//EN');
    cal.addPropertyWithValue('version', '2.0');
    cal.addPropertyWithValue('calscale', 'GREGORIAN');
    cal.addPropertyWithValue('method', 'PUBLISH');
    cal.addPropertyWithValue('x-wr-calname', inline(this.opts.calendarName ?? this.site.name));
    if (this.site.timezone) cal.addPropertyWithValue('x-wr-timezone', this.site.timezone);
    if (this.opts.refreshMinutes) {
      const ttl = ICAL.Duration.fromSeconds(this.opts.refreshMinutes * 60);
      // ical.js writes the VALUE=DURATION parameter itself (a duration is not the property's default type).
      cal.addPropertyWithValue('refresh-interval', ttl);
      cal.addPropertyWithValue('x-published-ttl', ttl.toString());
    }
    for (const { zone, years } of [...this.zones.values()].sort((a, b) => a.zone.tzid.localeCompare(b.zone.tzid))) {
      cal.addSubcomponent(vtimezone(zone, years));
    }
    const text = folded(() => cal.toString());
    // The events go between the calendar's own lines and its END line.
    const end = `END:VCALENDAR`;
    const head = text.slice(0, text.length - end.length);
    return `${head}${this.events.map((e) => e + CRLF).join('')}${end}${CRLF}`;
  }
}

/** The iCalendar text of the events (one VEVENT each, in the given order). */
export function eventsToICalendar(events: Iterable<ICalEvent>, site: ICalSite, opts: ICalOptions = {}): string {
  return new ICalendarWriter(site, opts).add(events).finish();
}
