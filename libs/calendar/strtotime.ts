/**
 * Reads a date the way the reference reads one (PHP's strtotime, with TEC's rule that a numeric value is
 * a unix timestamp), in a given time zone:
 * - timestamps: `1514764800`, `@1514764800`;
 * - absolute forms: `2031-05-01 18:00:00`, `2031-05-01T18:00:00+02:00`, `2031/05/01`, `05/01/2031` (US),
 *   `01-05-2031`, `01.05.2031`, `May 1 2031 6pm`, `1 May 2031`;
 * - keywords and relative English: `now`, `today`, `midnight`, `noon`, `tomorrow 9am`, `yesterday 23:59`,
 *   `next wednesday 4pm`, `last friday`, `+1 week 2 days`, `3 days ago`, `next month`,
 *   `first day of next month`.
 * The grammar is PHP's (`next wednesday` is the first Wednesday after today, a bare date starts at
 * midnight, relative units keep the clock time); English that the grammar does not cover goes to
 * chrono-node, which must account for the whole text, so prose such as "before my birthday" is refused.
 */
import * as chrono from 'chrono-node';
import { DateTime } from 'luxon';
import { zoneOf } from './timezone';

const MONTHS: Record<string, number> = {
  jan: 1,
  january: 1,
  feb: 2,
  february: 2,
  mar: 3,
  march: 3,
  apr: 4,
  april: 4,
  may: 5,
  jun: 6,
  june: 6,
  jul: 7,
  july: 7,
  aug: 8,
  august: 8,
  sep: 9,
  sept: 9,
  september: 9,
  oct: 10,
  october: 10,
  nov: 11,
  november: 11,
  dec: 12,
  december: 12,
};
const WEEKDAYS: Record<string, number> = {
  mon: 1,
  monday: 1,
  tue: 2,
  tues: 2,
  tuesday: 2,
  wed: 3,
  wednesday: 3,
  thu: 4,
  thur: 4,
  thurs: 4,
  thursday: 4,
  fri: 5,
  friday: 5,
  sat: 6,
  saturday: 6,
  sun: 7,
  sunday: 7,
};
const UNITS: Record<string, 'seconds' | 'minutes' | 'hours' | 'days' | 'weeks' | 'months' | 'years'> = {
  sec: 'seconds',
  secs: 'seconds',
  second: 'seconds',
  seconds: 'seconds',
  min: 'minutes',
  mins: 'minutes',
  minute: 'minutes',
  minutes: 'minutes',
  hour: 'hours',
  hours: 'hours',
  day: 'days',
  days: 'days',
  week: 'weeks',
  weeks: 'weeks',
  fortnight: 'weeks',
  fortnights: 'weeks',
  month: 'months',
  months: 'months',
  year: 'years',
  years: 'years',
};
const RELATIVE_WORDS: Record<string, -1 | 0 | 1> = { next: 1, last: -1, previous: -1, this: 0 };

const MONTH_RE = Object.keys(MONTHS)
  .sort((a, b) => b.length - a.length)
  .join('|');
const WEEKDAY_RE = Object.keys(WEEKDAYS)
  .sort((a, b) => b.length - a.length)
  .join('|');
const UNIT_RE = Object.keys(UNITS)
  .sort((a, b) => b.length - a.length)
  .join('|');

interface State {
  date?: { y: number; m: number; d: number };
  time?: { h: number; i: number; s: number };
  /** Offset in minutes given in the text (`Z`, `+02:00`), overriding the zone. */
  offset?: number;
  /** A keyword (`today`, a weekday) that resets the clock to midnight. */
  midnight?: boolean;
  rel: Partial<Record<'seconds' | 'minutes' | 'hours' | 'days' | 'weeks' | 'months' | 'years', number>>;
  weekday?: { day: number; mode: -1 | 0 | 1 };
  dayOf?: 'first' | 'last';
}

type Rule = [RegExp, (m: RegExpExecArray, st: State) => boolean];

const to24 = (h: number, meridian: string): number => {
  const pm = meridian.startsWith('p');
  if (h < 1 || h > 12) return -1;
  return (h % 12) + (pm ? 12 : 0);
};

function setDate(st: State, y: number, m: number, d: number): boolean {
  if (st.date || m < 1 || m > 12 || d < 1 || d > 31) return false;
  st.date = { y, m, d };
  return true;
}

function setTime(st: State, h: number, i: number, s: number): boolean {
  if (st.time || h < 0 || h > 23 || i > 59 || s > 59) return false;
  st.time = { h, i, s };
  return true;
}

function setOffset(st: State, text: string): boolean {
  if (st.offset !== undefined) return false;
  const t = text.toLowerCase();
  if (t === 'z' || t === 'utc' || t === 'gmt') {
    st.offset = 0;
    return true;
  }
  const m = /^([+-])(\d{2}):?(\d{2})?$/.exec(t);
  if (!m) return false;
  st.offset = (m[1] === '-' ? -1 : 1) * (Number(m[2]) * 60 + Number(m[3] ?? 0));
  return true;
}

const fullYear = (y: string): number => (y.length === 2 ? (Number(y) < 70 ? 2000 : 1900) + Number(y) : Number(y));

/** Tokens tried in order at the current position; each consumes its match and records what it means. */
const RULES: Rule[] = [
  [/^now\b/, () => true],
  [/^(today|midnight)\b/, (_m, st) => ((st.midnight = true), true)],
  [/^noon\b/, (_m, st) => setTime(st, 12, 0, 0)],
  [/^tomorrow\b/, (_m, st) => ((st.rel.days = (st.rel.days ?? 0) + 1), (st.midnight = true), true)],
  [/^yesterday\b/, (_m, st) => ((st.rel.days = (st.rel.days ?? 0) - 1), (st.midnight = true), true)],
  // 2031-05-01, 2031-05-01T18:00:00.000+02:00 (the time part is its own token)
  [/^(\d{4})-(\d{1,2})-(\d{1,2})(?=$|[\st,])t?/, (m, st) => setDate(st, +m[1], +m[2], +m[3])],
  [/^(\d{4})\/(\d{1,2})\/(\d{1,2})\b/, (m, st) => setDate(st, +m[1], +m[2], +m[3])],
  [/^(\d{1,2})\/(\d{1,2})\/(\d{4}|\d{2})\b/, (m, st) => setDate(st, fullYear(m[3]), +m[1], +m[2])],
  [/^(\d{1,2})[-.](\d{1,2})[-.](\d{4})\b/, (m, st) => setDate(st, +m[3], +m[2], +m[1])],
  // May 1st, 2031 / May 1 / May 2031
  [new RegExp(`^(${MONTH_RE})\\.?\\s+(\\d{1,2})(?:st|nd|rd|th)?(?:,?\\s+(\\d{4}))?\\b`), (m, st) => setDate(st, m[3] ? +m[3] : NaN, MONTHS[m[1]], +m[2])],
  [new RegExp(`^(${MONTH_RE})\\.?,?\\s+(\\d{4})\\b`), (m, st) => setDate(st, +m[2], MONTHS[m[1]], 1)],
  // 1 May 2031 / 1st of May
  [
    new RegExp(`^(\\d{1,2})(?:st|nd|rd|th)?\\s+(?:of\\s+)?(${MONTH_RE})\\.?(?:,?\\s+(\\d{4}))?\\b`),
    (m, st) => setDate(st, m[3] ? +m[3] : NaN, MONTHS[m[2]], +m[1]),
  ],
  [/^(first|last)\s+day\s+of\b/, (m, st) => ((st.dayOf = m[1] === 'first' ? 'first' : 'last'), (st.midnight = true), true)],
  // 4pm, 4:30 p.m., 9am
  [/^(\d{1,2})(?::(\d{2}))?(?::(\d{2}))?\s*([ap])\.?m\.?(?=$|[^a-z])/, (m, st) => setTime(st, to24(+m[1], m[4]), +(m[2] ?? 0), +(m[3] ?? 0))],
  // 18:00, 18:00:00, 18:00:00.123456
  [/^(\d{1,2}):(\d{2})(?::(\d{2})(?:[.,]\d+)?)?(?!\d)/, (m, st) => setTime(st, +m[1], +m[2], +(m[3] ?? 0))],
  [/^(z|utc|gmt)\b|^(z)(?=$|\s)/, (m, st) => setOffset(st, m[1] ?? m[2])],
  [/^[+-]\d{2}:?\d{2}\b(?!\s*(?:[a-z]))/, (m, st) => setOffset(st, m[0])],
  // +1 week, -2 days, 3 days ago
  [
    new RegExp(`^([+-]?)\\s*(\\d+)\\s*(${UNIT_RE})\\b(\\s+ago\\b)?`),
    (m, st) => {
      const unit = UNITS[m[3]];
      let n = Number(m[2]) * (m[1] === '-' ? -1 : 1) * (m[3].startsWith('fortnight') ? 2 : 1);
      if (m[4]) n = -n;
      st.rel[unit] = (st.rel[unit] ?? 0) + n;
      return true;
    },
  ],
  [
    new RegExp(`^(next|last|previous|this)\\s+(${UNIT_RE})\\b`),
    (m, st) => {
      const unit = UNITS[m[2]];
      st.rel[unit] = (st.rel[unit] ?? 0) + RELATIVE_WORDS[m[1]] * (m[2].startsWith('fortnight') ? 2 : 1);
      return true;
    },
  ],
  [
    new RegExp(`^(?:(next|last|previous|this)\\s+)?(${WEEKDAY_RE})\\b`),
    (m, st) => {
      if (st.weekday) return false;
      st.weekday = { day: WEEKDAYS[m[2]], mode: m[1] ? RELATIVE_WORDS[m[1]] : 0 };
      st.midnight = true;
      return true;
    },
  ],
  // Noise words PHP skips.
  [/^(at|on|of|the|t)\b/, () => true],
];

/** The meaning of the text, 'invalid' when a part is impossible (month 13), 'unknown' when no rule reads it. */
function tokenize(text: string): State | 'invalid' | 'unknown' {
  const st: State = { rel: {} };
  let rest = text.toLowerCase().trim();
  while (rest) {
    rest = rest.replace(/^[\s,]+/, '');
    if (!rest) break;
    let hit = false;
    for (const [re, apply] of RULES) {
      const m = re.exec(rest);
      if (!m || m[0].length === 0) continue;
      if (!apply(m, st)) return 'invalid';
      rest = rest.slice(m[0].length);
      hit = true;
      break;
    }
    if (!hit) return 'unknown';
  }
  return st;
}

function build(st: State, zone: string, now: DateTime): DateTime | null {
  const z =
    st.offset !== undefined
      ? `UTC${st.offset >= 0 ? '+' : '-'}${Math.floor(Math.abs(st.offset) / 60)}:${String(Math.abs(st.offset) % 60).padStart(2, '0')}`
      : zone;
  let dt = now.setZone(z);
  if (st.date) {
    const y = Number.isNaN(st.date.y) ? dt.year : st.date.y;
    const candidate = DateTime.fromObject({ year: y, month: st.date.m, day: st.date.d }, { zone: z });
    if (!candidate.isValid || candidate.day !== st.date.d) return null;
    dt = candidate;
  } else if (st.midnight) dt = dt.startOf('day');
  if (st.time) dt = dt.set({ hour: st.time.h, minute: st.time.i, second: st.time.s, millisecond: 0 });
  else if (st.date || st.midnight) dt = dt.startOf('day');
  else dt = dt.set({ millisecond: 0 });
  if (Object.keys(st.rel).length) dt = dt.plus(st.rel);
  if (st.dayOf) dt = st.dayOf === 'first' ? dt.startOf('month') : dt.endOf('month').startOf('day');
  if (st.dayOf && st.time) dt = dt.set({ hour: st.time.h, minute: st.time.i, second: st.time.s });
  if (st.weekday) {
    const { day, mode } = st.weekday;
    const diff = (day - dt.weekday + 7) % 7;
    if (mode === 0) dt = dt.plus({ days: diff });
    else if (mode === 1) dt = dt.plus({ days: diff === 0 ? 7 : diff });
    else dt = dt.minus({ days: diff === 0 ? 7 : 7 - diff });
  }
  return dt.isValid ? dt.setZone(zone) : null;
}

/** English the grammar above does not cover, read by chrono-node; it must account for all of the text. */
function viaChrono(text: string, zone: string, now: DateTime): DateTime | null {
  const ref = now.setZone(zone);
  const results = chrono.parse(text, { instant: ref.toJSDate(), timezone: ref.offset }, { forwardDate: false });
  if (results.length !== 1 || results[0].index !== 0 || results[0].text.trim().length !== text.trim().length) return null;
  const c = results[0].start;
  const timeKnown = c.isCertain('hour');
  const dateKnown = c.isCertain('day') || c.isCertain('weekday') || c.isCertain('month');
  const dt = DateTime.fromObject(
    {
      year: c.get('year') ?? ref.year,
      month: c.get('month') ?? ref.month,
      day: c.get('day') ?? ref.day,
      // A date without a time starts at midnight, as in the reference.
      hour: timeKnown || !dateKnown ? (c.get('hour') ?? 0) : 0,
      minute: timeKnown || !dateKnown ? (c.get('minute') ?? 0) : 0,
      second: timeKnown || !dateKnown ? (c.get('second') ?? 0) : 0,
    },
    { zone: c.get('timezoneOffset') !== null && c.isCertain('timezoneOffset') ? `UTC${offsetText(c.get('timezoneOffset')!)}` : zone },
  );
  return dt.isValid ? dt.setZone(zone) : null;
}

function offsetText(minutes: number): string {
  const sign = minutes < 0 ? '-' : '+';
  const abs = Math.abs(minutes);
  return `${sign}${Math.floor(abs / 60)}:${String(abs % 60).padStart(2, '0')}`;
}

export interface ParseOptions {
  /** Zone the text is read in when it carries no offset (IANA name or `UTC+2`); default UTC. */
  zone?: string;
  /** The present moment relative forms count from; default now. */
  now?: Date;
}

/** The moment a date text names, in `zone`, or null when the reference would refuse it. */
/** Readings of absolute texts by zone and text (archive filters repeat the same few dates); DateTimes are immutable. */
const absolute = new Map<string, DateTime | null>();
const ABSOLUTE_CACHE_SIZE = 2000;

export function strtotime(input: unknown, opts: ParseOptions = {}): DateTime | null {
  const dt = read(input, opts);
  // A moment outside what a date can hold (a timestamp of 1e21, "+99999999 years") is no date.
  return dt && dt.isValid ? dt : null;
}

/** PHP is_numeric: decimal or exponent notation; TEC reads such a value as a unix timestamp. */
const NUMERIC = /^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/;

function read(input: unknown, opts: ParseOptions): DateTime | null {
  const zone = zoneOf(opts.zone ?? 'UTC') ?? 'UTC';
  // Made only where a relative text needs it (a DateTime costs more than a remembered absolute date).
  const nowOf = () => (opts.now ? DateTime.fromJSDate(opts.now) : DateTime.now());
  if (typeof input === 'number') return Number.isFinite(input) ? DateTime.fromSeconds(Math.trunc(input), { zone }) : null;
  if (typeof input !== 'string') return null;
  const text = input.trim();
  if (!text || text.length > 200) return null;
  const ts = /^@?(-?\d+)(?:\.\d+)?$/.exec(text);
  if (ts) return DateTime.fromSeconds(Number(ts[1]), { zone });
  if (NUMERIC.test(text)) {
    const n = Number(text);
    return Number.isFinite(n) ? DateTime.fromSeconds(Math.trunc(n), { zone }) : null;
  }
  const key = `${zone}\u0000${text}`;
  const known = absolute.get(key);
  if (known !== undefined) return known;
  const st = tokenize(text);
  if (st === 'invalid') return null;
  if (st !== 'unknown') {
    const dt = build(st, zone, nowOf());
    // A full date with nothing relative means the same moment whenever it is read.
    if (st.date && !Number.isNaN(st.date.y) && !st.midnight && !st.weekday && !st.dayOf && Object.keys(st.rel).length === 0) {
      if (absolute.size >= ABSOLUTE_CACHE_SIZE) absolute.delete(absolute.keys().next().value!);
      absolute.set(key, dt);
    }
    return dt;
  }
  // Only words (month names, phrases) are worth a second reader; digits alone were already judged.
  return /[a-z]/i.test(text) ? viaChrono(text, zone, nowOf()) : null;
}

/** Whether the reference would accept the text as a date (checked without a zone: any zone reads the same texts). */
export function isDateText(input: unknown): boolean {
  return strtotime(input) !== null;
}
