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

/** Options of either parser: iCalendar feeds need the import window, CSV files have none. */
export interface FeedOptions {
  defaultZone: string;
  window?: ICalendarOptions['window'];
  singles?: ICalendarOptions['singles'];
  maxOccurrences?: number;
  dateFormat?: CsvOptions['dateFormat'];
}

export function parseFeed(text: string, format: FeedFormat, opts: FeedOptions): FeedResult {
  switch (format) {
    case 'ical':
    case 'ics':
      if (!opts.window) throw new Error('An iCalendar feed is read over an import window: opts.window is missing');
      return parseICalendar(text, { defaultZone: opts.defaultZone, window: opts.window, singles: opts.singles, maxOccurrences: opts.maxOccurrences });
    case 'csv':
      return parseCsv(text, { defaultZone: opts.defaultZone, dateFormat: opts.dateFormat });
    default:
      throw new Error(`Unknown feed format: ${String(format)}`);
  }
}
