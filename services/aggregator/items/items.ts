/**
 * The events of a batch as the remote import service sends them (the reference's EA event objects:
 * `{title, description, start_date 'Y-m-d', start_hour, start_minute, start_meridian, end_*, timezone,
 * url, global_id, uid, categories, tags, venue: {...}, organizer: [{...}], ...}`), the unique id field of
 * each origin, the meta keys imported records carry, and how a field's text and flags are read. How an
 * event is checked is check.ts, how it is named identity.ts, what it stores linked.ts.
 * Pure: no store here.
 */
import { IMPORT_RECORD_META } from '#libs/data/collections';

/** What the remote service sends for a venue and for an organizer alike: texts and the ids that name the record. */
interface EaLinked {
  phone?: string;
  website?: string;
  description?: string;
  excerpt?: string;
  global_id?: string;
  global_id_lineage?: string[];
  meetup_id?: string | number;
  eventbrite_id?: string | number;
}

export interface EaVenue extends EaLinked {
  venue?: string;
  address?: string;
  city?: string;
  country?: string;
  province?: string;
  state?: string;
  stateprovince?: string;
  zip?: string;
  url?: string;
  show_map?: unknown;
  show_map_link?: unknown;
  /** The venue's latitude and longitude (a number or numeric text; iCalendar GEO, CSV "Venue Latitude"/"Venue Longitude"). */
  geo_lat?: unknown;
  geo_lng?: unknown;
}

export interface EaOrganizer extends EaLinked {
  organizer?: string;
  email?: string;
}

export interface EaEvent {
  title: string;
  description?: string;
  excerpt?: string;
  start_date?: string;
  end_date?: string;
  start_hour?: string | number;
  start_minute?: string | number;
  start_meridian?: string;
  end_hour?: string | number;
  end_minute?: string | number;
  end_meridian?: string;
  start_date_utc?: string;
  end_date_utc?: string;
  timezone?: string;
  all_day?: unknown;
  url?: string;
  global_id?: string;
  global_id_lineage?: string[];
  uid?: string | number;
  id?: string | number;
  meetup_id?: string | number;
  eventbrite_id?: string | number;
  facebook_id?: string | number;
  categories?: string[] | string;
  tags?: string[] | string;
  cost?: unknown;
  currency_symbol?: string;
  currency_position?: string;
  show_map?: unknown;
  show_map_link?: unknown;
  hide_from_listings?: unknown;
  sticky?: unknown;
  featured?: unknown;
  feature_event?: unknown;
  /** The URL of the event's image, when the feed gives one (attached by the worker). */
  image?: unknown;
  venue?: EaVenue | null | [];
  organizer?: EaOrganizer | EaOrganizer[] | null;
}

/** The unique id field of each origin and the meta key it is stored under (the reference's unique_id_fields). */
export const UNIQUE_FIELDS: Record<string, { source: keyof EaEvent; target: string }> = {
  meetup: { source: 'meetup_id', target: 'EventMeetupID' },
  eventbrite: { source: 'eventbrite_id', target: 'EventBriteID' },
  facebook: { source: 'facebook_id', target: 'EventFacebookID' },
  ical: { source: 'uid', target: 'uid' },
  gcal: { source: 'uid', target: 'uid' },
  ics: { source: 'uid', target: 'uid' },
  json: { source: 'uid', target: 'uid' },
  csv: { source: 'uid', target: 'uid' },
  url: { source: 'id', target: 'EventOriginalID' },
};
/** The unique id field of each origin for venues and organizers, and the meta key suffix it is stored under. */
export const UNIQUE_LINKED_FIELDS: Record<string, { source: 'meetup_id' | 'eventbrite_id'; target: string }> = {
  meetup: { source: 'meetup_id', target: 'MeetupID' },
  eventbrite: { source: 'eventbrite_id', target: 'EventBriteID' },
};

/** Meta keys imported records carry (the reference's `_tribe_aggregator_*`, renamed). */
export const IMPORT_META = {
  origin: '_vendor_aggregator_origin',
  record: IMPORT_RECORD_META,
  globalId: '_vendor_aggregator_global_id',
  lineage: '_vendor_aggregator_global_id_lineage',
  /** The batch that created the record: a retried job recognises what it created itself. */
  createdBy: '_vendor_aggregator_batch',
  eventOrigin: '_EventOrigin',
} as const;
export const EVENT_ORIGIN = 'event-aggregator';

// ---------------------------------------------------------------------------------------------------------
// Reading fields

/** Reads a truthy flag the way the reference's tribe_is_truthy does. */
export function truthy(v: unknown): boolean {
  if (typeof v === 'boolean') return v;
  if (typeof v === 'number') return v !== 0;
  return typeof v === 'string' && ['1', 'true', 'yes', 'on'].includes(v.trim().toLowerCase());
}

/** A field's text: a string trimmed, a finite number as written, else empty. */
export const text = (v: unknown): string => (typeof v === 'string' ? v.trim() : typeof v === 'number' && Number.isFinite(v) ? String(v) : '');
