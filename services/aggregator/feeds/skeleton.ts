/**
 * The components of an iCalendar feed from its content lines (lines.ts): the VEVENTs (with their
 * first line), the VTIMEZONEs (read one by one: an unreadable one is skipped and reported), and the
 * calendar's own properties (X-WR-TIMEZONE, X-WR-CALNAME, NAME). Other components (VTODO, VJOURNAL,
 * VFREEBUSY, ...) are no events and are passed over; a line of theirs that cannot be read never
 * fails the feed.
 */
import ICAL from 'ical.js';
import { errorText } from '../error-text';
import { lineText, paramOf, type ContentLine } from './lines';
import type { FeedError } from './types';
import { isJcal, type Jcal } from './vevent';

export interface EventBlock {
  lines: ContentLine[];
  line: number;
  /** The event was not closed by END:VEVENT (the next component or the calendar's end came first). */
  open?: boolean;
}

export interface Skeleton {
  events: EventBlock[];
  timezones: Jcal[];
  /** Calendar properties by upper-case name: the first value of each. */
  props: Map<string, string>;
  notes: FeedError[];
}

const CALENDAR_PROPS = new Set(['X-WR-TIMEZONE', 'X-WR-CALNAME', 'NAME']);

export function readSkeleton(lines: ContentLine[]): Skeleton {
  if (!lines.some((l) => l.name === 'BEGIN' && /^VCALENDAR\s*$/i.test(l.value))) throw new Error('Not an iCalendar feed: BEGIN:VCALENDAR is missing');
  const events: EventBlock[] = [];
  const timezones: Jcal[] = [];
  const props = new Map<string, string>();
  const notes: FeedError[] = [];
  /** The components open around the current line, outermost first. */
  const stack: string[] = [];
  let event: EventBlock | null = null;
  let zone: ContentLine[] | null = null;

  const closeZone = () => {
    if (!zone) return;
    const tzid = zone.find((l) => l.name === 'TZID')?.value;
    try {
      const parsed: unknown = ICAL.parse([...zone, { name: 'END', params: '', value: 'VTIMEZONE', line: 0 }].map(lineText).join('\r\n'));
      if (!isJcal(parsed)) throw new Error('not a component');
      // A VTIMEZONE naming two TZIDs (a broken exporter) is known by its first.
      const seen = new Set<string>();
      parsed[1] = parsed[1].filter((p) => p[0] !== 'tzid' || (!seen.has('tzid') && seen.add('tzid')));
      timezones.push(parsed);
    } catch (e) {
      notes.push({ line: zone[0].line, message: `VTIMEZONE ${tzid ?? ''} skipped: ${errorText(e)}`.replace('  ', ' ') });
    }
    zone = null;
  };

  for (const l of lines) {
    const begin = l.name === 'BEGIN';
    const end = l.name === 'END';
    const comp = begin || end ? l.value.trim().toUpperCase() : '';
    if (event) {
      if (end && comp === 'VEVENT') {
        event.lines.push(l);
        events.push(event);
        event = null;
        stack.pop();
        continue;
      }
      if ((begin && comp === 'VEVENT') || (end && comp !== 'VALARM' && !event.lines.some((x) => x.name === 'BEGIN' && x.value.trim().toUpperCase() === comp))) {
        // An event left open by the next event or its calendar's end: reported on its own, reading on.
        events.push({ ...event, open: true });
        event = null;
        stack.pop();
      } else {
        event.lines.push(l);
        continue;
      }
    }
    if (zone) {
      if (end && comp !== 'VTIMEZONE' && !zone.some((x) => x.name === 'BEGIN' && x.value.trim().toUpperCase() === comp)) {
        notes.push({ line: zone[0].line, message: 'VTIMEZONE skipped: it is not closed by END:VTIMEZONE' });
        zone = null;
        stack.pop();
      } else {
        if (end && comp === 'VTIMEZONE') {
          closeZone();
          stack.pop();
        } else zone.push(l);
        continue;
      }
    }
    if (begin) {
      if (comp === 'VEVENT') {
        event = { lines: [l], line: l.line };
        stack.push(comp);
      } else if (comp === 'VTIMEZONE') {
        zone = [l];
        stack.push(comp);
      } else stack.push(comp);
      continue;
    }
    if (end) {
      const at = stack.lastIndexOf(comp);
      if (at >= 0) stack.length = at;
      continue;
    }
    if (stack.length === 1 && stack[0] === 'VCALENDAR' && CALENDAR_PROPS.has(l.name) && !props.has(l.name)) props.set(l.name, l.value);
  }
  if (event) events.push({ ...event, open: true });
  closeZone();
  return { events, timezones, props, notes };
}

export { paramOf };
