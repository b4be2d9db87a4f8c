/**
 * An event's content lines (lines.ts) in the jCal form vevent.ts reads, the form ICAL.parse gives
 * (RFC 7265: lower-case names and parameters, dates as `2026-01-05T09:00:00Z`), built directly from
 * the lines already split: a feed of thousands of events is read without parsing its text twice.
 * Only the event's own properties are kept (an alarm's are not the event's). A start, end or
 * recurrence date that is no iCalendar date throws, and the event is reported.
 */
import { paramOf, type ContentLine } from './lines';
import type { Jcal, Prop } from './vevent';

/** Text values: unescaped (`\,` `\;` `\\` `\n`). */
const TEXT = new Set(['SUMMARY', 'DESCRIPTION', 'LOCATION', 'COMMENT', 'STATUS', 'UID', 'CONTACT', 'CLASS', 'TRANSP']);
/** Text lists: split at unescaped commas, each unescaped. */
const TEXT_LIST = new Set(['CATEGORIES', 'RESOURCES']);
/** Date or date-time values (lists for EXDATE and RDATE). */
const DATES = new Set(['DTSTART', 'DTEND', 'DUE', 'RECURRENCE-ID', 'DTSTAMP', 'CREATED', 'LAST-MODIFIED', 'EXDATE', 'RDATE']);
const INTEGER = new Set(['SEQUENCE', 'PRIORITY']);
/** Bookkeeping dates: one that cannot be read is kept as written (and read as no date), the event is not refused for it. */
const STAMPS = new Set(['DTSTAMP', 'CREATED', 'LAST-MODIFIED']);

export function unescapeValue(v: string): string {
  return v.indexOf('\\') < 0 ? v : v.replace(/\\([\\;,nN])/g, (_, c: string) => (c === 'n' || c === 'N' ? '\n' : c));
}

/** `20260105T090000Z` → `2026-01-05T09:00:00Z`, `20260105` → `2026-01-05`; null for anything else. */
export function dateValue(v: string): string | null {
  const m = /^(\d{4})(\d{2})(\d{2})(?:T(\d{2})(\d{2})(\d{2})(Z?))?$/.exec(v.trim());
  if (!m) return null;
  return m[4] === undefined ? `${m[1]}-${m[2]}-${m[3]}` : `${m[1]}-${m[2]}-${m[3]}T${m[4]}:${m[5]}:${m[6]}${m[7]}`;
}

function splitList(v: string): string[] {
  const out: string[] = [];
  let cur = '';
  for (let i = 0; i < v.length; i++) {
    const c = v[i];
    if (c === '\\' && i + 1 < v.length) {
      cur += c + v[++i];
    } else if (c === ',') {
      out.push(cur);
      cur = '';
    } else cur += c;
  }
  out.push(cur);
  return out;
}

/** Parameters as ical.js gives them: lower-case names, unquoted values. */
function paramsOf(l: ContentLine): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (!l.params) return out;
  const re = /;([A-Za-z0-9-]+)=("[^"]*"|[^;]*)/g;
  for (let m = re.exec(l.params); m; m = re.exec(l.params)) out[m[1].toLowerCase()] = m[2].replace(/^"(.*)"$/, '$1');
  return out;
}

function prop(l: ContentLine): Prop {
  const name = l.name.toLowerCase();
  const params = paramsOf(l);
  if (DATES.has(l.name)) {
    const values = l.value.split(',').map((part) => {
      const period = part.indexOf('/');
      if (period > 0) {
        const start = dateValue(part.slice(0, period));
        const end = part.slice(period + 1);
        if (start) return [start, dateValue(end) ?? end.trim()];
      }
      const d = dateValue(part);
      if (!d && STAMPS.has(l.name)) return part;
      if (!d) throw new Error(`${l.name} is not a date: ${l.value.trim()}`);
      return d;
    });
    return [name, params, 'date-time', ...values];
  }
  if (TEXT.has(l.name)) return [name, params, 'text', unescapeValue(l.value)];
  if (TEXT_LIST.has(l.name)) return [name, params, 'text', ...splitList(l.value).map(unescapeValue)];
  if (l.name === 'GEO') {
    // `lat;lng`, two floats (RFC 5545 3.8.1.6), as ical.js gives them: one value, a pair.
    const pair = l.value.split(';').map((part) => (/^\s*[-+]?(\d+\.?\d*|\.\d+)\s*$/.test(part) ? Number(part) : NaN));
    return [name, params, 'float', pair.length === 2 && pair.every(Number.isFinite) ? pair : l.value];
  }
  if (INTEGER.has(l.name)) {
    const n = Number(l.value.trim());
    return [name, params, 'integer', Number.isFinite(n) ? n : l.value];
  }
  return [name, params, 'unknown', l.value];
}

/** The properties the reader uses (vevent.ts, recurrence.ts): the rest of an event (attendees, alarms, X- data) is not converted. */
const READ = new Set([
  'UID',
  'DTSTART',
  'DTEND',
  'DURATION',
  'RRULE',
  'RDATE',
  'EXDATE',
  'RECURRENCE-ID',
  'STATUS',
  'SEQUENCE',
  'DTSTAMP',
  'SUMMARY',
  'DESCRIPTION',
  'X-ALT-DESC',
  'URL',
  'CATEGORIES',
  'LOCATION',
  'GEO',
  'ORGANIZER',
  'IMAGE',
  'ATTACH',
  'X-MICROSOFT-CDO-ALLDAYEVENT',
]);

/** The jCal VEVENT of an event's lines (its first line is BEGIN:VEVENT, its last END:VEVENT), with the properties the reader uses. */
export function eventJcal(lines: ContentLine[]): Jcal {
  const props: Prop[] = [];
  let depth = 0;
  for (const l of lines) {
    if (l.name === 'BEGIN') depth++;
    else if (l.name === 'END') depth--;
    else if (depth === 1 && READ.has(l.name)) props.push(prop(l));
  }
  return ['vevent', props, []];
}

export { paramOf };
