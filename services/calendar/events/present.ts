/**
 * The vendor/events/v1 event record (the reference's Post_Repository::get_event_data), in its key
 * order. Dates are `Y-m-d H:i:s`; `venue` is one object when there is one venue, `organizer` always a
 * list; `json_ld` only on a single GET. A password-protected event listed without its password keeps
 * its identity, title and dates and has everything else blanked.
 */
import { costDetails, formatCost } from '#libs/calendar/cost';
import { copiedValue, eventCopies, eventRecordOrder } from '#libs/calendar/event-field-orders';
import { inNameOrder } from '#libs/terms/order';
import { EVENT_META, eventCostMeta, truthyMeta } from '#libs/calendar/meta';
import { eventTimes, storedTimezone, type EchoedTimes } from '#libs/calendar/times';
import { permalinkOf } from '#libs/posts/permalink';
import type { PostDoc } from '#libs/posts/types';
import type { Site } from '#libs/rest/site';
import { dateDetails } from '../dates';
import type { LinkedKindDef } from '../linked/kind';
import { recordHead } from '../linked/present';
import { eventRestUrl, globalId } from '../links';
import { ORGANIZER } from '../organizers/kind';
import { autop, stripTags, trimWords } from '../text';
import type { EventParts } from './parts';
import { VENUE } from '../venues/kind';
import { DateTime } from 'luxon';
import { zoneOf } from '#libs/calendar/timezone';

export interface EventPresentOptions {
  /** Single GET: adds `json_ld` (and the linked records' own). */
  single?: boolean;
  /** Listed without the right password: protected fields blanked. */
  blank?: boolean;
}

const V1_ORDER = eventRecordOrder('v1');
const V1_COPIES = new Map(eventCopies('v1').map((c) => [c.name, c]));

const EMPTY_COST = { currency_symbol: '', currency_position: '', currency_code: '', values: [] };

const termsOf = (doc: PostDoc, taxonomy: string, parts: EventParts) =>
  inNameOrder(
    (doc.tax?.[taxonomy] ?? []).map((id) => parts.term(id)).filter((t): t is Record<string, unknown> => !!t),
    (t) => String(t.name ?? ''),
  );

/** The event's four date strings, zone and abbreviation, echoed as stored (as the reference's Post_Repository does) or derived when one is missing. */
function timesOf(doc: PostDoc, site: Site): EchoedTimes {
  const m = doc.meta ?? {};
  return (
    eventTimes(m, site.timezone, { stored: 'echo' }) ?? { start: '', end: '', startUtc: '', endUtc: '', timezone: storedTimezone(m), abbr: '', allDay: false }
  );
}

function eventJsonLd(doc: PostDoc, site: Site, parts: EventParts, times: EchoedTimes, cost: ReturnType<typeof costDetails>): Record<string, unknown> {
  const zone = zoneOf(times.timezone) ?? site.timezone;
  // The UTC strings are fixed-width, so they read as ISO without a format parser.
  const iso = (utc: string) => (utc ? DateTime.fromMillis(Date.parse(`${utc.replace(' ', 'T')}Z`), { zone }).toISO({ suppressMilliseconds: true }) : '');
  const ld: Record<string, unknown> = {
    '@context': 'http://schema.org',
    '@type': 'Event',
    name: stripTags(doc.title),
    description: trimWords(stripTags(doc.excerpt || doc.content)),
    url: permalinkOf(site, doc),
    eventAttendanceMode: 'https://schema.org/OfflineEventAttendanceMode',
    eventStatus: 'https://schema.org/EventScheduled',
    startDate: iso(times.startUtc),
    endDate: iso(times.endUtc),
  };
  const image = doc.featured_media ? parts.image(doc.featured_media) : false;
  if (image) ld.image = image.url;
  // Linked records presented for a single GET carry their own JSON-LD.
  const venue = (doc.venues ?? []).map((id) => parts.linked(VENUE, id)).find(Boolean);
  if (venue?.json_ld) ld.location = venue.json_ld;
  const organizer = (doc.organizers ?? []).map((id) => parts.linked(ORGANIZER, id)).find(Boolean);
  if (organizer?.json_ld) ld.organizer = organizer.json_ld;
  if (cost.values.length) {
    ld.offers = { '@type': 'Offer', price: cost.values[0], priceCurrency: cost.currency_code || undefined, url: permalinkOf(site, doc) };
  }
  ld.performer = 'Organization';
  return ld;
}

export function presentEvent(doc: PostDoc, site: Site, parts: EventParts, opts: EventPresentOptions = {}): Record<string, unknown> {
  const m = doc.meta ?? {};
  const blank = !!opts.blank;
  const times = timesOf(doc, site);
  const costMeta = eventCostMeta(m);
  const cost = costDetails(costMeta);
  const url = permalinkOf(site, doc);
  const gid = globalId(site, doc.id);
  const linked = (ids: number[] | undefined, kind: LinkedKindDef) =>
    (ids ?? []).map((id) => parts.linked(kind, id)).filter((p): p is Record<string, unknown> => !!p);
  const venues = blank ? [] : linked(doc.venues, VENUE);
  const given = m[EVENT_META.url];
  const website = typeof given === 'string' && given !== '' ? given : url;
  const values: Record<string, unknown> = {
    id: doc.id,
    global_id: gid,
    global_id_lineage: [gid],
    ...recordHead(doc),
    url,
    rest_url: eventRestUrl(site, doc.id),
    title: (doc.title ?? '').trim(),
    description: blank ? '' : autop(doc.content),
    excerpt: blank ? '' : autop(doc.excerpt),
    slug: doc.slug,
    image: blank || !doc.featured_media ? false : parts.image(doc.featured_media),
    all_day: blank ? null : truthyMeta(m[EVENT_META.allDay]),
    start_date: times.start,
    start_date_details: dateDetails(times.start),
    end_date: times.end,
    end_date_details: dateDetails(times.end),
    utc_start_date: times.startUtc,
    utc_start_date_details: dateDetails(times.startUtc),
    utc_end_date: times.endUtc,
    utc_end_date_details: dateDetails(times.endUtc),
    timezone: times.timezone,
    timezone_abbr: times.abbr,
    cost: blank ? '' : formatCost(costMeta, cost),
    cost_details: blank ? EMPTY_COST : cost,
    website: blank ? '' : website,
    hide_from_listings: blank ? null : m[EVENT_META.hideFromListings] === 'yes',
    sticky: blank ? null : doc.menu_order === -1,
    categories: blank ? [] : termsOf(doc, 'vendor_events_cat', parts),
    tags: blank ? [] : termsOf(doc, 'post_tag', parts),
    venue: venues.length === 1 ? venues[0] : venues,
    organizer: blank ? [] : linked(doc.organizers, ORGANIZER),
    custom_fields: [],
  };
  if (opts.single) values.json_ld = eventJsonLd(doc, site, parts, times, cost);
  // The record in the field table's order: its plain copies read from the meta, the rest as computed above.
  const out: Record<string, unknown> = {};
  for (const [name] of V1_ORDER) {
    const copy = V1_COPIES.get(name);
    if (copy) out[name] = blank ? null : copiedValue(copy, m);
    else if (name in values) out[name] = values[name];
  }
  return out;
}
