/**
 * The content lines of an iCalendar text, read as calendar apps read them: folded lines unfolded, a
 * line that is no `NAME[;PARAM=...]:value` skipped and reported (never failing the feed), text after
 * the last END:VCALENDAR ignored. And the repairs of an event's lines that real exporters need, each
 * reported: a date-time under VALUE=DATE is read as the date-time it is, spaces inside a rule's parts
 * are trimmed, an empty or unreadable RRULE is dropped (the event stays, as a single event).
 */
import type { FeedError } from './types';

export interface ContentLine {
  /** The property name in upper case. */
  name: string;
  /** The parameters as written, each with its leading `;` (empty when none). */
  params: string;
  value: string;
  /** Line number of the line's start in the text (1-based). */
  line: number;
}

/** name, then parameters (quoted values may hold `:` `;` `,`), then `:` and the value. */
const CONTENT = /^([A-Za-z0-9-]+)((?:;[A-Za-z0-9-]+=(?:"[^"]*"|[^";:,]*)(?:,(?:"[^"]*"|[^";:,]*))*)*):(.*)$/s;

const shown = (s: string) => JSON.stringify(s.length > 60 ? `${s.slice(0, 57)}...` : s);

/** A-Z, a-z, 0-9 and '-', by character code. */
const isNameChar = (c: number) => (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || (c >= 48 && c <= 57) || c === 45;

/**
 * A line as name, parameters and value, or null when it is none (CONTENT, by hand: most lines have
 * no parameters, and a feed has tens of thousands of lines).
 */
function splitLine(l: string, line: number): ContentLine | null {
  let i = 0;
  while (i < l.length && isNameChar(l.charCodeAt(i))) i++;
  if (i === 0 || i >= l.length) return null;
  const name = l.slice(0, i).toUpperCase();
  if (l[i] === ':') return { name, params: '', value: l.slice(i + 1), line };
  if (l[i] !== ';') return null;
  // Parameters: up to the first colon outside quotes.
  let quoted = false;
  let j = i;
  for (; j < l.length; j++) {
    const ch = l.charCodeAt(j);
    if (ch === 34) quoted = !quoted;
    else if (ch === 58 && !quoted) break;
  }
  if (j >= l.length) return null;
  const params = l.slice(i, j);
  if (!CONTENT.test(`X${params}:`)) return null;
  return { name, params, value: l.slice(j + 1), line };
}

/** The content lines of a text and what was skipped. */
export function readLines(text: string): { lines: ContentLine[]; notes: FeedError[] } {
  const raw = (text.charCodeAt(0) === 0xfeff ? text.slice(1) : text).split(/\r\n|\n|\r/);
  const lines: ContentLine[] = [];
  const notes: FeedError[] = [];
  let depth = 0;
  let trailing = 0;
  let trailingLine = 0;
  for (let i = 0; i < raw.length; i++) {
    const start = i;
    let l = raw[i];
    while (i + 1 < raw.length && (raw[i + 1].startsWith(' ') || raw[i + 1].startsWith('\t'))) l += raw[++i].slice(1);
    if (!l.trim()) continue;
    if (depth === 0 && lines.length > 0 && !/^BEGIN:VCALENDAR\s*$/i.test(l)) {
      // Outside every calendar, after one ended: not part of the feed.
      if (!trailing) trailingLine = start + 1;
      trailing++;
      continue;
    }
    const c = splitLine(l, start + 1);
    if (!c) {
      notes.push({ line: start + 1, message: `Unreadable line skipped: ${shown(l)}` });
      continue;
    }
    if (c.name === 'BEGIN' && /^VCALENDAR\s*$/i.test(c.value)) depth++;
    else if (c.name === 'END' && /^VCALENDAR\s*$/i.test(c.value)) depth = Math.max(0, depth - 1);
    lines.push(c);
  }
  if (trailing) notes.push({ line: trailingLine, message: `${trailing} line${trailing > 1 ? 's' : ''} after END:VCALENDAR ignored` });
  return { lines, notes };
}

/** A parameter's value (unquoted), or undefined. */
export function paramOf(l: ContentLine, name: string): string | undefined {
  const re = new RegExp(`;${name}=("[^"]*"|[^;:]*)`, 'i');
  const m = re.exec(l.params);
  return m ? m[1].replace(/^"(.*)"$/, '$1') : undefined;
}

/** The line as iCalendar text. */
export const lineText = (l: ContentLine): string => `${l.name}${l.params}:${l.value}`;

const FREQS = new Set(['SECONDLY', 'MINUTELY', 'HOURLY', 'DAILY', 'WEEKLY', 'MONTHLY', 'YEARLY']);
const DATE_VALUED = new Set(['DTSTART', 'DTEND', 'DUE', 'RECURRENCE-ID', 'EXDATE', 'RDATE']);

/** Why a recurrence rule cannot be read, or null when it can: every part NAME=VALUE, one known FREQ. */
export function ruleProblem(value: string): string | null {
  if (!value) return 'is empty';
  const parts = value.split(';');
  const bad = parts.find((p) => !/^[A-Za-z-]+=[^=]*$/.test(p));
  if (bad !== undefined) return `has a part that is no NAME=VALUE (${shown(bad)})`;
  const freq = parts.find((p) => /^FREQ=/i.test(p));
  if (!freq) return 'has no FREQ';
  if (!FREQS.has(freq.slice(5).toUpperCase())) return `has an unknown FREQ (${shown(freq.slice(5))})`;
  return null;
}

/**
 * An event's lines as they are read, and what was changed or dropped (messages for the run):
 * - `DTSTART;VALUE=DATE:20110804T120000`: a date-time despite the parameter (Outlook, old exporters);
 * - `RRULE:FREQ=WEEKLY;BYDAY=MO, TU`: spaces inside the rule trimmed (Microsoft CDO);
 * - `RRULE:` or a rule that cannot be read: dropped, the event is a single event.
 */
export function repairEvent(lines: ContentLine[]): { lines: ContentLine[]; notes: string[] } {
  const out: ContentLine[] = [];
  const notes: string[] = [];
  for (const l of lines) {
    if (DATE_VALUED.has(l.name) && /;VALUE=DATE(?=;|$)/i.test(l.params) && /\d{8}T\d{6}/.test(l.value)) {
      notes.push(`${l.name};VALUE=DATE holds a date-time (${l.value.trim()}): read as a date-time`);
      out.push({ ...l, params: l.params.replace(/;VALUE=DATE(?=;|$)/i, '') });
      continue;
    }
    if (l.name === 'RRULE' || l.name === 'EXRULE') {
      const value = l.value.replace(/\s+/g, '');
      const problem = ruleProblem(value);
      if (problem) {
        notes.push(`${l.name} ${problem}: ${l.name === 'RRULE' ? 'the rule is left out' : 'ignored'}`);
        continue;
      }
      out.push({ ...l, value });
      continue;
    }
    out.push(l);
  }
  return { lines: out, notes };
}
