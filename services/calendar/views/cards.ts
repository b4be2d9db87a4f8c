/**
 * The events a view shows, as cards: what the markup and the search-engine data read of each record
 * (its link, escaped title, schedule, the days it occupies, venue, organizers, cost, excerpt and
 * featured image), worked out once per record from it and its related posts.
 *
 * Which zone an event is shown in follows the reference's time-zone mode: `event` (its default) shows
 * each event at its own wall-clock time and on its own date, `site` converts every timed event to the
 * site's zone. All-day events keep their dates in both. Every view and the search-engine data read the
 * card's start, end, days and schedule, so they agree; a time shown in a zone other than the site's
 * says which zone it is in.
 */
import type { DateTime } from 'luxon';
import { KM_PER_MILE, type GeoUnit } from '#libs/calendar/geo';
import { costDetails, formatCost } from '#libs/calendar/cost';
import { EVENT_META, ORGANIZER_META, VENUE_META, eventCostMeta } from '#libs/calendar/meta';
import { eventTimes } from '#libs/calendar/times';
import { zoneAbbr, zoneOf } from '#libs/calendar/timezone';
import { mysqlOf } from '#libs/dates/format';
import { storedWall } from '#libs/dates/wall';
import { permalinkOf } from '#libs/posts/permalink';
import { renderTitle, stripAllTags, trimWords } from '#libs/posts/render';
import type { PostDoc } from '#libs/posts/types';
import type { Site } from '#libs/rest/site';
import { scheduleAt } from '../ec/schedule';
import { eventDistance } from '../events/geoloc';
import type { Related } from '../related';
import { escapeHtml as esc } from '#libs/html/escape';

const EXCERPT_WORDS = 30;

/** The title as get_the_title prints it, without markup: texturized quotes are entities, `<`/`>` escaped. */
function titleHtml(title: string): string {
  return renderTitle(stripAllTags(title ?? ''))
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;');
}

/** The schedule markup of the shared schedule helper, with everything but its own spans escaped. */
function safeSchedule(html: string): string {
  return html
    .split(/(<span class="tribe-event-(?:date-start|date-end|time)">|<\/span>)/)
    .map((part, i) => (i % 2 === 1 ? part : esc(part)))
    .join('');
}
/** The reference's time-zone mode: each event in its own zone, or every event in the site's. */
export type TimezoneMode = 'event' | 'site';

export interface Card {
  doc: PostDoc;
  url: string;
  title: string;
  /** The start and end in the zone the event is shown in. */
  start: DateTime;
  end: DateTime;
  /** The zone the times are shown in, when it is not the site's (all-day events have none). */
  zone?: { name: string; abbr: string };
  allDay: boolean;
  /** Whether the event spans more than one day. */
  multiDay: boolean;
  schedule: string;
  shortSchedule: string;
  /** Days (yyyy-LL-dd, in the zone it is shown in) the event shows on. */
  days: string[];
  /** Venue name as HTML, its plain text, its address as HTML and its address parts (plain text). */
  venue?: { name: string; plain: string; address: string; parts: Record<string, string> };
  organizers: Array<{ name: string; url: string }>;
  cost: string;
  /** The cost's lowest value and currency code, for search engines. */
  price?: { value: string; currency: string };
  excerpt: string;
  /** The plain-text description, untrimmed ('' for a protected event). */
  text: string;
  image?: { src: string; alt: string; url: string };
  /** Searched near a place: how far the event's nearest venue is, with its unit (`3.2 mi`). */
  distance?: string;
}

function occupiedDays(start: DateTime, end: DateTime, allDay: boolean): string[] {
  const first = start.startOf('day');
  let last = end.startOf('day');
  // An event that ends at midnight does not occupy the day that midnight begins.
  if (!allDay && end > start && end.equals(last)) last = last.minus({ days: 1 });
  const days: string[] = [];
  for (let d = first; d <= last && days.length < 366; d = d.plus({ days: 1 })) days.push(d.toFormat('yyyy-LL-dd'));
  return days.length ? days : [first.toFormat('yyyy-LL-dd')];
}

const metaText = (m: Record<string, unknown>, k: string) => {
  const v = m[k];
  return typeof v === 'string' ? v.trim() : '';
};

function venueOf(doc: PostDoc, related: Related): Card['venue'] {
  const venue = (doc.venues ?? []).map((id) => related.posts.get(id)).find((p) => p && p.status === 'publish');
  if (!venue) return undefined;
  const m = venue.meta ?? {};
  const s = (k: string) => metaText(m, k);
  const region = s(VENUE_META.stateprovince) || s(VENUE_META.state) || s(VENUE_META.province);
  const parts = {
    streetAddress: s(VENUE_META.address),
    addressLocality: s(VENUE_META.city),
    addressRegion: region,
    postalCode: s(VENUE_META.zip),
    addressCountry: s(VENUE_META.country),
  };
  const address = [parts.streetAddress, parts.addressLocality, region, parts.postalCode, parts.addressCountry].filter(Boolean).join(', ');
  return { name: titleHtml(venue.title), plain: stripAllTags(venue.title ?? ''), address: esc(address), parts };
}

function organizersOf(site: Site, doc: PostDoc, related: Related): Card['organizers'] {
  const out: Card['organizers'] = [];
  for (const id of doc.organizers ?? []) {
    const o = related.posts.get(id);
    if (!o || o.status !== 'publish') continue;
    const website = metaText(o.meta ?? {}, ORGANIZER_META.website);
    out.push({ name: stripAllTags(o.title ?? ''), url: /^https?:\/\//i.test(website) ? website : permalinkOf(site, o) });
  }
  return out;
}

function imageOf(doc: PostDoc, related: Related, title: string): Card['image'] {
  const media = doc.featured_media ? related.posts.get(doc.featured_media) : undefined;
  if (!media || typeof media.mime_type !== 'string' || !media.mime_type.startsWith('image/') || !/^https?:\/\//i.test(media.guid ?? '')) return undefined;
  return { src: esc(media.guid), alt: title, url: media.guid };
}

/** The zone a timed event is shown in, and its label when that is not the site's zone. */
function shownZone(site: Site, eventZone: string, mode: TimezoneMode, start: DateTime): { zone: string; label?: Card['zone'] } {
  const zone = zoneOf(mode === 'site' ? site.timezone : eventZone) ?? 'UTC';
  const siteZone = zoneOf(site.timezone) ?? 'UTC';
  const at = start.setZone(zone);
  if (zone === siteZone || at.offset === start.setZone(siteZone).offset) return { zone };
  return { zone, label: { name: zone, abbr: zoneAbbr(zone, at) || at.toFormat('ZZ') } };
}

const wallOf = (dt: DateTime) => storedWall(mysqlOf(dt));

/** The zone label printed after a time: the abbreviation, with the zone's name as its title. */
export function zoneLabel(card: Pick<Card, 'zone'>): string {
  return card.zone ? ` <abbr class="tribe-events-timezone" title="${esc(card.zone.name)}">${esc(card.zone.abbr)}</abbr>` : '';
}

export function cardsOf(site: Site, docs: PostDoc[], related: Related, now: Date, mode: TimezoneMode = 'event'): Card[] {
  const cards: Card[] = [];
  for (const doc of docs) {
    const meta = doc.meta ?? {};
    const times = eventTimes(meta, site.timezone, { stored: 'dates' });
    const t = times?.zoned();
    if (!times || !t) continue;
    // All-day events keep their own dates; a timed one is shown in the zone the mode names.
    const shown = t.allDay ? { zone: t.start.zoneName ?? 'UTC' } : shownZone(site, t.timezone, mode, t.start);
    const start = t.start.setZone(shown.zone);
    const end = t.end.setZone(shown.zone);
    const [startWall, endWall] = [wallOf(start), wallOf(end)];
    if (!startWall || !endWall) continue;
    const schedule = scheduleAt(meta, startWall, endWall, t.allDay, site.timezone, now);
    const title = titleHtml(doc.title);
    const costMeta = eventCostMeta(meta);
    const details = costDetails(costMeta);
    const text = stripAllTags(doc.password ? '' : doc.excerpt || doc.content || '');
    const days = occupiedDays(start, end, t.allDay);
    cards.push({
      doc,
      url: permalinkOf(site, doc),
      title,
      start,
      end,
      ...(shown.label ? { zone: shown.label } : {}),
      allDay: t.allDay,
      multiDay: days.length > 1,
      schedule: safeSchedule(schedule.full) + zoneLabel({ zone: shown.label }),
      shortSchedule: t.allDay ? safeSchedule(schedule.short) : safeSchedule(schedule.short) + zoneLabel({ zone: shown.label }),
      days,
      venue: venueOf(doc, related),
      organizers: organizersOf(site, doc, related),
      cost: esc(formatCost(costMeta, details)),
      ...(details.values.length ? { price: { value: details.values[0], currency: details.currency_code || metaText(meta, EVENT_META.currencyCode) } } : {}),
      excerpt: text ? esc(trimWords(text, EXCERPT_WORDS, '…')) : '',
      text,
      image: imageOf(doc, related, title),
    });
  }
  return cards;
}

/** The cards with the distance of each one's nearest kept venue (km in `nearest`), in the settings' unit. */
export function withDistances(cards: Card[], nearest: Map<number, number> | undefined, unit: GeoUnit): Card[] {
  if (!nearest) return cards;
  return cards.map((card) => {
    const km = eventDistance(card.doc.venues, nearest);
    if (!Number.isFinite(km)) return card;
    const value = unit === 'kilometers' ? km : km / KM_PER_MILE;
    return { ...card, distance: `${value < 10 ? value.toFixed(1) : Math.round(value)} ${unit === 'kilometers' ? 'km' : 'mi'}` };
  });
}
