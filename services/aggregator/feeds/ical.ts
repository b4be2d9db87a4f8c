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
import ICAL from 'ical.js';
import { zoneOf } from '../../../libs/calendar/timezone';
import { expand, overlaps, type Occurrence, type Window } from './recurrence';
import type { FeedError, FeedEvent, FeedResult } from './types';
import { isJcal, itemFields, readVevent, unescapeText, type Jcal, type Vevent } from './vevent';
import { addDays, basicDate, basicUtc, dateText, FeedZones, ianaOfTzid, wallIn, wallText } from './zones';
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

interface Block {
  text: string;
  line: number;
}

/** Lines that open or close an event or a calendar (folded lines start with a space or tab). */
const BOUNDARY = /^(BEGIN|END):(VEVENT|VCALENDAR)[ \t]*$/gim;

/** The VEVENT blocks of a feed (with their first line number) and the rest of it (calendar properties, VTIMEZONEs, other components). */
function split(text: string): { skeleton: string; blocks: Block[] } {
  const rest: string[] = [];
  const blocks: Block[] = [];
  let line = 1;
  let counted = 0;
  const lineAt = (index: number) => {
    for (let i = text.indexOf('\n', counted); i !== -1 && i < index; i = text.indexOf('\n', i + 1)) line++;
    counted = index;
    return line;
  };
  let kept = 0;
  let open = -1;
  let openLine = 0;
  const close = (endIndex: number) => {
    blocks.push({ text: text.slice(open, endIndex), line: openLine });
    open = -1;
    kept = endIndex;
  };
  BOUNDARY.lastIndex = 0;
  for (let m = BOUNDARY.exec(text); m; m = BOUNDARY.exec(text)) {
    const begin = m[1].toUpperCase() === 'BEGIN';
    const event = m[2].toUpperCase() === 'VEVENT';
    const after = m.index + m[0].length;
    if (open < 0) {
      if (begin && event) {
        rest.push(text.slice(kept, m.index));
        open = m.index;
        openLine = lineAt(m.index);
      }
    } else if (!begin && event) {
      close(after);
    } else if (event || !begin) {
      // An event left open by the next event or the calendar's end: reported on its own, reading on from here.
      close(m.index);
      if (begin) {
        open = m.index;
        openLine = lineAt(m.index);
      }
    }
  }
  if (open >= 0) close(text.length);
  rest.push(text.slice(kept));
  return { skeleton: rest.join('\r\n'), blocks };
}

const UID_LINE = /^UID[;:](?:[^:\r\n]*:)?(.*)$/im;
const rawUid = (block: string): string | undefined => UID_LINE.exec(block)?.[1]?.trim() || undefined;

/** A stable stand-in for a missing UID: the event's title, start and place. */
function derivedUid(comp: Jcal): string {
  const pick = (name: string) => JSON.stringify(comp[1].find((p) => p[0] === name)?.slice(3) ?? null);
  return `hash-${createHash('sha1')
    .update(`${pick('summary')}|${pick('dtstart')}|${pick('location')}`)
    .digest('hex')
    .slice(0, 20)}`;
}

/** The calendars of the feed's non-event part; throws when it cannot be read at all. */
function readCalendars(skeleton: string, hasEvents: boolean): Jcal[] {
  if (!/^BEGIN:VCALENDAR\s*$/im.test(skeleton)) throw new Error('Not an iCalendar feed: BEGIN:VCALENDAR is missing');
  let parsed: unknown;
  try {
    parsed = ICAL.parse(skeleton);
  } catch (e) {
    // A stray line without a property name outside the events (an editor's leftover) is dropped once.
    const kept = skeleton.split(/\r\n|\n|\r/).filter((l) => /^[ \t]/.test(l) || /^[A-Za-z0-9-]+[;:]/.test(l) || !l.trim());
    try {
      parsed = ICAL.parse(kept.filter((l) => l.trim()).join('\r\n'));
    } catch {
      throw new Error(`Unreadable iCalendar feed: ${errorText(e)}`);
    }
  }
  const list: unknown[] = Array.isArray(parsed) && Array.isArray(parsed[0]) ? parsed : [parsed];
  const calendars = list.filter(isJcal).filter((c) => c[0] === 'vcalendar');
  if (!calendars.length && !hasEvents) throw new Error('Not an iCalendar feed: no VCALENDAR component');
  return calendars;
}

function calendarZoneOf(calendars: Jcal[]): string | null {
  for (const c of calendars) {
    const v = c[1].find((p) => p[0] === 'x-wr-timezone')?.[3];
    if (typeof v === 'string' && v.trim()) return ianaOfTzid(unescapeText(v)) ?? zoneOf(v.trim());
  }
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

interface Group {
  master?: Vevent;
  overrides: Map<string, Vevent>;
}

/** The later of two VEVENTs with one identity: the higher SEQUENCE, else the later in the file. */
const newer = (a: Vevent | undefined, b: Vevent): boolean => !a || b.sequence >= a.sequence;

export function parseICalendar(text: string, opts: ICalendarOptions): FeedResult {
  if (typeof text !== 'string') throw new Error('Not an iCalendar feed: no text');
  const { skeleton, blocks } = split(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
  const calendars = readCalendars(skeleton, blocks.length > 0);
  const vtimezones = calendars.flatMap((c) => c[2].filter((s) => s[0] === 'vtimezone'));
  const zones = new FeedZones(opts.defaultZone, calendarZoneOf(calendars), vtimezones);
  const fromMs = opts.window.from.getTime();
  const toMs = opts.window.to.getTime();
  if (!Number.isFinite(fromMs) || !Number.isFinite(toMs)) throw new Error('The import window needs two valid dates');
  const reader = new FeedReader(zones, { fromMs, toMs }, Math.max(1, Math.floor(opts.maxOccurrences ?? 500)), opts.singles === 'all');

  const groups = new Map<string, Group>();
  for (const block of blocks) {
    let comp: Jcal;
    try {
      const parsed: unknown = ICAL.parse(block.text);
      if (!isJcal(parsed) || parsed[0] !== 'vevent') throw new Error('the event is not closed by END:VEVENT');
      comp = parsed;
    } catch (e) {
      reader.errors.push({ uid: rawUid(block.text), line: block.line, message: `Unreadable VEVENT: ${errorText(e)}` });
      continue;
    }
    const uidValue = comp[1].find((p) => p[0] === 'uid')?.[3];
    const uid = typeof uidValue === 'string' && uidValue.trim() ? uidValue.trim() : derivedUid(comp);
    let v: Vevent | string;
    try {
      v = readVevent(comp, uid, zones, block.line);
    } catch (e) {
      v = errorText(e);
    }
    if (typeof v === 'string') {
      reader.errors.push({ uid, line: block.line, message: v });
      continue;
    }
    let g = groups.get(uid);
    if (!g) groups.set(uid, (g = { overrides: new Map() }));
    if (v.recurrenceId) {
      if (newer(g.overrides.get(v.recurrenceId), v)) g.overrides.set(v.recurrenceId, v);
    } else if (newer(g.master, v)) g.master = v;
  }

  for (const g of groups.values()) {
    const m = g.master;
    if (!m) {
      for (const [key, o] of g.overrides) reader.single(o, `${o.uid}/${key}`);
    } else if (m.recurring) {
      reader.series(m, g.overrides);
    } else {
      // An event without a rule: an override of its only occurrence replaces it, under its UID.
      const own = m.allDay ? basicDate(m.start) : basicUtc(m.startMs);
      reader.single(g.overrides.get(own) ?? m, m.uid);
      for (const [key, o] of g.overrides) if (key !== own) reader.single(o, `${o.uid}/${key}`);
    }
  }
  const nameValue = calendars.map((c) => c[1].find((p) => p[0] === 'x-wr-calname' || p[0] === 'name')?.[3]).find((n) => typeof n === 'string');
  const result: FeedResult = { events: reader.events, errors: reader.errors };
  if (typeof nameValue === 'string' && nameValue.trim()) result.calendarName = unescapeText(nameValue).trim();
  return result;
}
