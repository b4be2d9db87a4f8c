/**
 * iCalendar feeds (Google Calendar, Outlook, Meetup and other .ics exports) as aggregator items: one
 * item per VEVENT occurrence that meets the import window. Each VEVENT is parsed on its own, so one
 * malformed event is reported (with its UID and line) and the rest of the feed is still imported.
 *
 * - uid: the VEVENT UID for a single event; `${UID}/${start in UTC basic form}` (or `/${YYYYMMDD}`
 *   for all-day series) for an occurrence of a recurring one, stable across imports. RECURRENCE-ID
 *   overrides replace the occurrence they name; cancelled ones (STATUS:CANCELLED) are dropped.
 * - times: `start_date`/`end_date` as `YYYY-MM-DD HH:mm:ss` wall times in `timezone` (an IANA zone);
 *   all-day events as dates with the inclusive last day (DTEND is exclusive in iCalendar).
 */
import { createHash } from 'node:crypto';
import { zoneOf } from '#libs/calendar/timezone';
import { expand, overlaps, type Occurrence, type Window } from './recurrence';
import type { FeedError, FeedEvent, FeedResult } from './types';
import { groupEvents } from './groups';
import { readLines, repairEvent, type ContentLine } from './lines';
import { readSkeleton } from './skeleton';
import { eventJcal } from './values';
import { itemFields, readVevent, unescapeText, type Jcal, type Vevent } from './vevent';
import { addDays, dateText, FeedZones, ianaOfTzid, wallIn, wallText } from './zones';
import { errorText } from '../error-text';

export interface ICalendarOptions {
  /** The zone of floating times and all-day events when the feed names none (the site's zone). */
  defaultZone: string;
  /** Occurrences whose span meets [from, to] are imported. */
  window: { from: Date; to: Date };
  /** 'all': single (non-recurring) events are imported wherever they lie; the window bounds series only. Default 'window'. */
  singles?: 'window' | 'all';
  /** Occurrences per recurring series at most (500 when not given). */
  maxOccurrences?: number;
}

/** A stable stand-in for a missing UID: the event's title, start and place, as written (DTSTART whole, parameters and all). */
function derivedUid(lines: ContentLine[]): string {
  const pick = (name: string) => {
    const l = lines.find((x) => x.name === name);
    return l ? `${l.params}:${l.value}` : '';
  };
  return `hash-${createHash('sha1')
    .update(`${pick('SUMMARY')}|${pick('DTSTART')}|${pick('LOCATION')}`)
    .digest('hex')
    .slice(0, 20)}`;
}

function calendarZoneOf(props: Map<string, string>): string | null {
  const v = props.get('X-WR-TIMEZONE');
  if (v && v.trim()) return ianaOfTzid(unescapeText(v)) ?? zoneOf(v.trim());
  return null;
}

/** One parse of a feed: its zones, window and the items found so far. */
class FeedReader {
  readonly events: FeedEvent[] = [];
  readonly errors: FeedError[] = [];
  private readonly fields = new WeakMap<Vevent, FeedEvent>();

  constructor(
    readonly zones: FeedZones,
    readonly window: Window,
    readonly cap: number,
    readonly allSingles = false,
  ) {}

  private base(v: Vevent): FeedEvent {
    let f = this.fields.get(v);
    if (!f) {
      f = itemFields(v.props);
      this.fields.set(v, f);
    }
    // Each item gets its own venue and organizer objects: the caller may name them per source.
    const item: FeedEvent = { ...f };
    if (f.venue && !Array.isArray(f.venue)) item.venue = { ...f.venue };
    if (f.organizer && !Array.isArray(f.organizer)) item.organizer = { ...f.organizer };
    if (f.categories) item.categories = [...f.categories];
    return item;
  }

  /** Adds the item of one occurrence of `v` (its own times when `at` is not given). */
  emit(v: Vevent, uid: string, at?: Occurrence): void {
    const item = this.base(v);
    item.uid = uid;
    const start = at ? at.start : v.start;
    const startMs = at ? at.startMs : v.startMs;
    if (v.allDay) {
      item.start_date = dateText(start);
      item.end_date = dateText(addDays(start, v.days - 1));
      item.all_day = true;
    } else {
      const zone = v.source.zone;
      const endMs = at ? at.endMs : startMs + v.durationMs;
      item.start_date = wallText(v.source.direct ? start : wallIn(zone, startMs));
      item.end_date = !at && v.endWall ? wallText(v.endWall) : endMs === startMs ? item.start_date : wallText(wallIn(zone, endMs));
    }
    item.timezone = v.source.zone;
    this.events.push(item);
  }

  /** A single event, or an override whose series is not in the feed. */
  single(v: Vevent, uid: string): void {
    if (!v.cancelled && (this.allSingles || overlaps(v.startMs, v.startMs + v.durationMs, this.window))) this.emit(v, uid);
  }

  series(master: Vevent, overrides: Map<string, Vevent>): void {
    const { occurrences, capped, error } = expand(master, this.zones, this.window, this.cap);
    if (error) this.errors.push({ uid: master.uid, line: master.line, message: error });
    const used = new Set<string>();
    let emitted = 0;
    for (const o of occurrences) {
      const uid = `${master.uid}/${o.key}`;
      const override = overrides.get(o.key);
      emitted++;
      if (override) {
        used.add(o.key);
        if (!override.cancelled && overlaps(override.startMs, override.startMs + override.durationMs, this.window)) this.emit(override, uid);
      } else if (!master.cancelled) this.emit(master, uid, o);
    }
    // Overrides moved into the window from an occurrence outside it (or naming one the rule lacks).
    const last = occurrences.length ? occurrences[occurrences.length - 1].startMs : -Infinity;
    for (const [key, override] of overrides) {
      if (used.has(key) || emitted >= this.cap || (capped && override.startMs > last)) continue;
      if (!override.cancelled && overlaps(override.startMs, override.startMs + override.durationMs, this.window)) {
        this.emit(override, `${master.uid}/${key}`);
        emitted++;
      }
    }
  }
}

export function parseICalendar(text: string, opts: ICalendarOptions): FeedResult {
  if (typeof text !== 'string') throw new Error('Not an iCalendar feed: no text');
  const read = readLines(text);
  const skeleton = readSkeleton(read.lines);
  const zones = new FeedZones(opts.defaultZone, calendarZoneOf(skeleton.props), skeleton.timezones);
  const fromMs = opts.window.from.getTime();
  const toMs = opts.window.to.getTime();
  if (!Number.isFinite(fromMs) || !Number.isFinite(toMs)) throw new Error('The import window needs two valid dates');
  const reader = new FeedReader(zones, { fromMs, toMs }, Math.max(1, Math.floor(opts.maxOccurrences ?? 500)), opts.singles === 'all');
  const notes = [...read.notes, ...skeleton.notes];
  // Nothing but unreadable parts: the feed itself is broken (an empty run would retire every event).
  if (!skeleton.events.length && notes.length) throw new Error(`Unreadable iCalendar feed: ${notes[0].message}`);
  for (const n of notes) {
    // A line skipped inside an event is reported with the event's UID.
    const block = skeleton.events.find((b) => n.line !== undefined && b.line <= n.line && n.line <= b.lines[b.lines.length - 1].line);
    const uid = block?.lines.find((l) => l.name === 'UID')?.value.trim();
    reader.errors.push(uid ? { uid, ...n } : n);
  }

  const vevents: Vevent[] = [];
  for (const block of skeleton.events) {
    const rawUid = block.lines.find((l) => l.name === 'UID')?.value.trim() || undefined;
    if (block.open) {
      reader.errors.push({ uid: rawUid, line: block.line, message: 'Unreadable VEVENT: the event is not closed by END:VEVENT' });
      continue;
    }
    const uid = rawUid ?? derivedUid(block.lines);
    const repaired = repairEvent(block.lines);
    for (const message of repaired.notes) reader.errors.push({ uid, line: block.line, message });
    let comp: Jcal;
    try {
      comp = eventJcal(repaired.lines);
    } catch (e) {
      reader.errors.push({ uid, line: block.line, message: `Unreadable VEVENT: ${errorText(e)}` });
      continue;
    }
    let v: Vevent | string;
    try {
      v = readVevent(comp, uid, zones, block.line);
    } catch (e) {
      v = errorText(e);
    }
    if (typeof v === 'string') reader.errors.push({ uid, line: block.line, message: v });
    else vevents.push(v);
  }

  const plan = groupEvents(vevents, reader.errors);
  for (const p of plan) {
    if ('series' in p) reader.series(p.series.master, p.series.overrides);
    else reader.single(p.single, p.uid);
  }
  const name = skeleton.props.get('X-WR-CALNAME') ?? skeleton.props.get('NAME');
  const result: FeedResult = { events: reader.events, errors: reader.errors };
  if (name && unescapeText(name).trim()) result.calendarName = unescapeText(name).trim();
  return result;
}
