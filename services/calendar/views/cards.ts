/**
 * The events a view shows, as cards: what the markup and the search-engine data read of each record
 * (its link, escaped title, schedule, the days it occupies in the site zone, venue, organizers, cost,
 * excerpt and featured image), worked out once per record from it and its related posts.
 */
import type { DateTime } from 'luxon';
import { costDetails, formatCost } from '../../../libs/calendar/cost';
import { EVENT_META, ORGANIZER_META, VENUE_META, eventCostMeta } from '../../../libs/calendar/meta';
import { eventTimes } from '../../../libs/calendar/times';
import { permalinkOf } from '../../../libs/posts/permalink';
import { renderTitle, stripAllTags, trimWords } from '../../../libs/posts/render';
import type { PostDoc } from '../../../libs/posts/types';
import type { Site } from '../../../libs/rest/site';
import { eventDateFields } from '../ec/schedule';
import type { Related } from '../related';
import { escapeHtml as esc } from '../../../libs/html/escape';

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
export interface Card {
  doc: PostDoc;
  url: string;
  title: string;
  start: DateTime;
  end: DateTime;
  allDay: boolean;
  /** Whether the event spans more than one day. */
  multiDay: boolean;
  schedule: string;
  shortSchedule: string;
  /** Days (yyyy-LL-dd, site zone) the event shows on. */
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

export function cardsOf(site: Site, docs: PostDoc[], related: Related, now: Date): Card[] {
  const cards: Card[] = [];
  for (const doc of docs) {
    const meta = doc.meta ?? {};
    const times = eventTimes(meta, site.timezone, { stored: 'dates' });
    const t = times?.zoned();
    if (!times || !t) continue;
    const { schedule } = eventDateFields(meta, site.timezone, now, times);
    const title = titleHtml(doc.title);
    const costMeta = eventCostMeta(meta);
    const details = costDetails(costMeta);
    const text = stripAllTags(doc.password ? '' : doc.excerpt || doc.content || '');
    const days = occupiedDays(t.start.setZone(site.timezone), t.end.setZone(site.timezone), t.allDay);
    cards.push({
      doc,
      url: permalinkOf(site, doc),
      title,
      start: t.start,
      end: t.end,
      allDay: t.allDay,
      multiDay: days.length > 1,
      schedule: safeSchedule(String(schedule.schedule_details ?? '')),
      shortSchedule: safeSchedule(String(schedule.short_schedule_details ?? '')),
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
