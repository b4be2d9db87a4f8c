/** What a feed parser gives: the events of a feed as the aggregator's items, and what it could not read. */
import type { EaEvent } from '../items/items';

/** An imported event: an aggregator item, with the URL of its image when the feed names one. */
export interface FeedEvent extends EaEvent {
  image?: string;
}

/** A part of a feed that was skipped: the event's UID (iCalendar) and its line (both formats) when known. */
export interface FeedError {
  uid?: string;
  line?: number;
  message: string;
}

export interface FeedResult {
  events: FeedEvent[];
  errors: FeedError[];
  calendarName?: string;
}
