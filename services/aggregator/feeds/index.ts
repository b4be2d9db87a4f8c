/**
 * Calendar feeds read into aggregator items: iCalendar (`ical`, `ics`: Google Calendar, Outlook,
 * Meetup and other exports) and CSV files in the reference importer's columns. Pure: the text in,
 * the items and the parts that could not be read out.
 */
import { parseCsv, type CsvOptions } from './csv';
import { parseICalendar, type ICalendarOptions } from './ical';
import type { FeedResult } from './types';

export type { FeedError, FeedEvent, FeedResult } from './types';
export type { CsvOptions } from './csv';
export type { ICalendarOptions } from './ical';
export { parseCsv, parseICalendar };

export type FeedFormat = 'ical' | 'ics' | 'csv';

/** Options of either parser: iCalendar feeds need the import window, CSV files ignore it. */
export type FeedOptions = ICalendarOptions & Partial<Pick<CsvOptions, 'dateFormat'>>;

export function parseFeed(text: string, format: FeedFormat, opts: FeedOptions): FeedResult {
  switch (format) {
    case 'ical':
    case 'ics':
      return parseICalendar(text, opts);
    case 'csv':
      return parseCsv(text, { defaultZone: opts.defaultZone, dateFormat: opts.dateFormat });
    default:
      throw new Error(`Unknown feed format: ${String(format)}`);
  }
}
