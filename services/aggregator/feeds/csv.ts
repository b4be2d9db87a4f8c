/**
 * CSV event files in the columns of the reference's CSV importer ("Event Name", "Event Start Date",
 * "Event Start Time", "All Day Event", "Timezone", "Event Venue Name", "Event Organizer Name",
 * "Event Cost", "Event Category", "Event Tags", "Event Website", "Event Featured Image", ...) as
 * aggregator items. Headers are matched case-insensitively, with or without the "Event " prefix; a
 * byte-order mark and `;` or tab separators (spreadsheet exports) are accepted.
 *
 * Dates: `YYYY-MM-DD` (also with `/`); `MM/DD/YYYY` with slashes and `DD-MM-YYYY` / `DD.MM.YYYY`
 * otherwise, as the reference reads them (`dateFormat: 'dmy'` reads slashes day first too); English
 * dates ("March 10, 2026") as strtotime reads them. Times: `9:00 AM`, `9am`, `21:00`, `21:00:00`.
 * A row with neither a start nor an end time is an all-day event. Rows that cannot be read are
 * reported with their line number; the others are imported.
 */
import { createHash } from 'node:crypto';
import { parse } from 'csv-parse/sync';
import { EVENT_ORDER } from '#libs/calendar/event-field-orders';
import { EVENT_FIELDS, eventFieldEntries, type EventField, type EventFieldRow, type ImportSpec } from '#libs/calendar/event-fields';
import { strtotime } from '#libs/calendar/strtotime';
import { zoneOf } from '#libs/calendar/timezone';
import { isRecord } from '#libs/rest/args';
import { truthy, type EaOrganizer, type EaVenue } from '../items/items';
import type { FeedError, FeedEvent, FeedResult } from './types';
import { dateText, ianaOfTzid, isWall, wallText, type Wall } from './zones';
import { errorText } from '../error-text';

export interface CsvOptions {
  /** The zone of rows without a Timezone column value (the site's zone). */
  defaultZone: string;
  /** How `a/b/YYYY` dates are read: month first (the reference's assumption, default) or day first. */
  dateFormat?: 'mdy' | 'dmy';
}

/** A column's field: one of the event's field table (libs/calendar/event-fields.ts), or one this importer reads itself. */
type Field =
  | EventField
  | 'startTime'
  | 'endTime'
  | 'venueAddress'
  | 'venueCity'
  | 'venueState'
  | 'venueZip'
  | 'venueCountry'
  | 'venuePhone'
  | 'venueWebsite'
  | 'venueLatitude'
  | 'venueLongitude'
  | 'organizerEmail'
  | 'organizerPhone'
  | 'organizerWebsite'
  | 'currencySymbol'
  | 'currencyPosition'
  | 'uid';

/** Header names (lower case, words only, without a leading "event ") and the field each fills: the field table's columns, then the importer's own. */
const HEADERS: Record<string, Field> = {
  ...Object.fromEntries(eventFieldEntries().flatMap(([field, row]) => (row.import?.columns ?? []).map((column) => [column, field]))),
  'start time': 'startTime',
  'end time': 'endTime',
  'venue address': 'venueAddress',
  'venue city': 'venueCity',
  'venue state province': 'venueState',
  'venue state': 'venueState',
  'venue province': 'venueState',
  'venue zip': 'venueZip',
  'venue country': 'venueCountry',
  'venue phone': 'venuePhone',
  'venue website': 'venueWebsite',
  'venue url': 'venueWebsite',
  'venue latitude': 'venueLatitude',
  'venue longitude': 'venueLongitude',
  'organizer email': 'organizerEmail',
  'organizer phone': 'organizerPhone',
  'organizer website': 'organizerWebsite',
  'currency symbol': 'currencySymbol',
  'currency position': 'currencyPosition',
  id: 'uid',
  uid: 'uid',
};

function fieldOf(header: string): Field | undefined {
  const words = header
    .replace(/^\uFEFF/, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, ' ')
    .trim();
  return HEADERS[words] ?? HEADERS[words.replace(/^event /, '')];
}

/** The separator of the header line: the most frequent of `,` `;` and tab outside quotes. */
function delimiterOf(text: string): string {
  const end = text.search(/\r|\n/);
  const head = (end < 0 ? text : text.slice(0, end)).replace(/"[^"]*"/g, '');
  const count = (c: string) => head.split(c).length - 1;
  return [';', '\t'].reduce((best, c) => (count(c) > count(best) ? c : best), ',');
}

interface Ymd {
  year: number;
  month: number;
  day: number;
  time?: Clock;
}
interface Clock {
  hour: number;
  minute: number;
  second: number;
}

const TIME_12 = /^(\d{1,2})(?::(\d{2}))?(?::(\d{2}))?\s*([ap])\.?\s*m?\.?$/i;
const TIME_24 = /^(\d{1,2})[:.](\d{2})(?::(\d{2}))?$/;

/** A clock time, null when blank, 'bad' when unreadable. */
export function readTime(text: string): Clock | null | 'bad' {
  const t = text.trim();
  if (!t) return null;
  if (/^noon$/i.test(t)) return { hour: 12, minute: 0, second: 0 };
  if (/^midnight$/i.test(t)) return { hour: 0, minute: 0, second: 0 };
  let m = TIME_12.exec(t);
  if (m) {
    const h = +m[1];
    if (h < 1 || h > 12) return 'bad';
    const c = { hour: (h % 12) + (m[4].toLowerCase() === 'p' ? 12 : 0), minute: m[2] ? +m[2] : 0, second: m[3] ? +m[3] : 0 };
    return c.minute < 60 && c.second < 60 ? c : 'bad';
  }
  m = TIME_24.exec(t);
  if (m) {
    const c = { hour: +m[1], minute: +m[2], second: m[3] ? +m[3] : 0 };
    return c.hour < 24 && c.minute < 60 && c.second < 60 ? c : 'bad';
  }
  return 'bad';
}

/** A date (and a time when the cell holds one), or null when unreadable. */
export function readDate(text: string, format: 'mdy' | 'dmy', zone: string): Ymd | null {
  const t = text.trim();
  const [datePart, ...rest] = t.split(/\s+|T(?=\d)/);
  let ymd: Ymd | null = null;
  let m = /^(\d{4})[-/.](\d{1,2})[-/.](\d{1,2})$/.exec(datePart);
  if (m) ymd = { year: +m[1], month: +m[2], day: +m[3] };
  else if ((m = /^(\d{1,2})([-/.])(\d{1,2})\2(\d{4})$/.exec(datePart))) {
    const dayFirst = m[2] !== '/' || format === 'dmy';
    ymd = { year: +m[4], month: +(dayFirst ? m[3] : m[1]), day: +(dayFirst ? m[1] : m[3]) };
  }
  if (ymd) {
    if (!isWall({ ...ymd, hour: 0, minute: 0, second: 0 })) return null;
    if (!rest.length) return ymd;
    const time = readTime(rest.join(' '));
    return time && time !== 'bad' ? { ...ymd, time } : null;
  }
  const dt = strtotime(t, { zone });
  if (!dt) return null;
  const timed = /\d:\d|\d\s*[ap]\.?m\b/i.test(t);
  return { year: dt.year, month: dt.month, day: dt.day, ...(timed ? { time: { hour: dt.hour, minute: dt.minute, second: dt.second } } : {}) };
}

const list = (v: string): string[] => {
  const out: string[] = [];
  for (const s of v.split(',')) if (s.trim() && !out.some((x) => x.toLowerCase() === s.trim().toLowerCase())) out.push(s.trim());
  return out;
};

const READ = { text: (v: string) => v, flag: truthy, list } satisfies Record<NonNullable<ImportSpec['read']>, (v: string) => unknown>;

const POSITIONS: Record<string, string> = { prefix: 'prefix', before: 'prefix', postfix: 'postfix', suffix: 'postfix', after: 'postfix' };

/** One row as an item, or why it cannot be imported. */
function readRow(cell: (f: Field) => string, opts: CsvOptions, zoneDefault: string): FeedEvent | string {
  const title = cell('title').trim();
  if (!title) return 'Event Name is empty';
  const tzText = cell('timezone').trim();
  const zone = tzText ? (ianaOfTzid(tzText) ?? zoneOf(tzText)) : zoneDefault;
  if (!zone) return `Timezone is not a time zone: ${tzText}`;
  const format = opts.dateFormat ?? 'mdy';
  if (!cell('start').trim()) return 'Event Start Date is empty';
  const start = readDate(cell('start'), format, zone);
  if (!start) return `Event Start Date is not a date: ${cell('start')}`;
  const end = cell('end').trim() ? readDate(cell('end'), format, zone) : { ...start };
  if (!end) return `Event End Date is not a date: ${cell('end')}`;
  const startTime = readTime(cell('startTime'));
  if (startTime === 'bad') return `Event Start Time is not a time: ${cell('startTime')}`;
  const endTime = readTime(cell('endTime'));
  if (endTime === 'bad') return `Event End Time is not a time: ${cell('endTime')}`;
  const startClock = startTime ?? start.time;
  const endClock = endTime ?? (cell('end').trim() ? end.time : undefined) ?? startClock;
  const allDay = truthy(cell('allDay').trim()) || (!startClock && !endTime && !end.time);

  const item: FeedEvent = { title };
  const day = (y: Ymd, c?: Clock | null): Wall => ({
    year: y.year,
    month: y.month,
    day: y.day,
    hour: c?.hour ?? 0,
    minute: c?.minute ?? 0,
    second: c?.second ?? 0,
  });
  const s = day(start, allDay ? null : startClock);
  const e = day(end, allDay ? null : endClock);
  if (wallText(e) < wallText(s)) return 'The event ends before it starts';
  item.start_date = allDay ? dateText(s) : wallText(s);
  item.end_date = allDay ? dateText(e) : wallText(e);
  if (allDay) item.all_day = true;
  item.timezone = zone;

  const put = <K extends keyof FeedEvent>(key: K, f: Field, map: (v: string) => FeedEvent[K]) => {
    const v = cell(f).trim();
    if (v) item[key] = map(v);
  };
  const same = (v: string) => v;
  put('description', 'description', (v) => v.replace(/\r\n?/g, '\n'));
  // The field table's plain columns, in its CSV order.
  for (const name of EVENT_ORDER.csv) {
    if (name === 'currency_symbol') put('currency_symbol', 'currencySymbol', same);
    else if (name === 'currency_position') put('currency_position', 'currencyPosition', (v) => POSITIONS[v.toLowerCase()] ?? v);
    else {
      const column: ImportSpec | undefined = (EVENT_FIELDS[name] as EventFieldRow).import;
      const v = cell(name).trim();
      if (column?.item && column.read && v) Object.assign(item, { [column.item]: READ[column.read](v) });
    }
  }
  if (cell('venues').trim()) {
    const venue: EaVenue = { venue: cell('venues').trim() };
    const add = (key: 'address' | 'city' | 'stateprovince' | 'zip' | 'country' | 'phone' | 'website', f: Field) =>
      cell(f).trim() && (venue[key] = cell(f).trim());
    add('address', 'venueAddress');
    add('city', 'venueCity');
    add('stateprovince', 'venueState');
    add('zip', 'venueZip');
    add('country', 'venueCountry');
    add('phone', 'venuePhone');
    add('website', 'venueWebsite');
    // Coordinates as given; the venue's write keeps only a pair of valid ones (services/aggregator/items/linked.ts).
    if (cell('venueLatitude').trim()) venue.geo_lat = cell('venueLatitude').trim();
    if (cell('venueLongitude').trim()) venue.geo_lng = cell('venueLongitude').trim();
    item.venue = venue;
  }
  if (cell('organizers').trim()) {
    const organizer: EaOrganizer = { organizer: cell('organizers').trim() };
    if (cell('organizerEmail').trim()) organizer.email = cell('organizerEmail').trim();
    if (cell('organizerPhone').trim()) organizer.phone = cell('organizerPhone').trim();
    if (cell('organizerWebsite').trim()) organizer.website = cell('organizerWebsite').trim();
    item.organizer = organizer;
  }
  return item;
}

/** A row as csv-parse gives it with the `info` and `raw` options. */
interface ParsedRow {
  record: string[];
  info: { lines: number };
  raw: string;
}

const isParsedRow = (r: unknown): r is ParsedRow =>
  isRecord(r) &&
  Array.isArray(r.record) &&
  r.record.every((c) => typeof c === 'string') &&
  isRecord(r.info) &&
  typeof r.info.lines === 'number' &&
  typeof r.raw === 'string';

/** A row's stable name without an id column: its title, start and venue. */
const rowHash = (item: FeedEvent): string =>
  `csv-${createHash('sha1')
    .update(
      `${item.title.toLowerCase()}|${item.start_date}|${item.timezone}|${(item.venue && !Array.isArray(item.venue) ? item.venue.venue : undefined)?.toLowerCase() ?? ''}`,
    )
    .digest('hex')
    .slice(0, 20)}`;

export function parseCsv(text: string, opts: CsvOptions): FeedResult {
  if (typeof text !== 'string' || !text.replace(/^\uFEFF/, '').trim()) throw new Error('Not an events CSV: the file is empty');
  const body = text.replace(/^\uFEFF/, '');
  const errors: FeedError[] = [];
  let records: ParsedRow[];
  try {
    // With `info` and `raw` each row comes as { record, info, raw } (csv-parse types rows as string arrays whatever the options).
    const rows: unknown[] = parse(body, {
      delimiter: delimiterOf(body),
      info: true,
      raw: true,
      relax_column_count: true,
      relax_quotes: true,
      skip_empty_lines: true,
      skip_records_with_error: true,
      on_skip: (err) => {
        if (err) errors.push({ line: typeof err.lines === 'number' ? err.lines : undefined, message: `Unreadable row: ${err.message}` });
        return undefined;
      },
    });
    records = rows.filter(isParsedRow);
  } catch (e) {
    throw new Error(`Unreadable CSV: ${errorText(e)}`, { cause: e });
  }
  if (!records.length) throw new Error('Not an events CSV: the file is empty');
  const columns = new Map<Field, number>();
  records[0].record.forEach((h, i) => {
    const f = fieldOf(h);
    if (f && !columns.has(f)) columns.set(f, i);
  });
  if (!columns.has('title') || !columns.has('start')) throw new Error('Not an events CSV: the columns "Event Name" and "Event Start Date" are needed');

  const zoneDefault = zoneOf(opts.defaultZone) ?? 'UTC';
  const events: FeedEvent[] = [];
  const seen = new Map<string, number>();
  for (const { record, info, raw } of records.slice(1)) {
    if (record.every((c) => !c.trim())) continue;
    // The line the row starts on: the parser counts to its end, quoted cells may span lines.
    const line =
      info.lines -
      (raw
        .replace(/^(?:\r?\n)+/, '')
        .replace(/\r?\n$/, '')
        .match(/\n/g)?.length ?? 0);
    const cell = (f: Field) => {
      const i = columns.get(f);
      return i === undefined ? '' : (record[i] ?? '');
    };
    const read = readRow(cell, opts, zoneDefault);
    if (typeof read === 'string') {
      errors.push({ line, message: read });
      continue;
    }
    const id = cell('uid').trim();
    let uid = id || rowHash(read);
    // Identical rows stay distinct, numbered in file order.
    const n = (seen.get(uid) ?? 0) + 1;
    seen.set(uid, n);
    if (n > 1) uid = `${uid}-${n}`;
    read.uid = uid;
    events.push(read);
  }
  errors.sort((a, b) => (a.line ?? 0) - (b.line ?? 0));
  return { events, errors };
}
