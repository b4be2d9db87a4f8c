/**
 * What the single event, venue and organizer pages share: the page answer's shape, dates in an event's
 * own zone with the zone named, contact lines, the directions link and the list of a venue's or an
 * organizer's upcoming events. Every value printed is escaped here or arrives escaped (titles, costs
 * and image sources from the view cards).
 */
import type { DateTime } from 'luxon';
import { ORGANIZER_META, VENUE_META } from '#libs/calendar/meta';
import { decodeEntities, escapeHtml as esc } from '#libs/html/escape';
import { stripAllTags } from '#libs/posts/render';
import type { PostDoc } from '#libs/posts/types';
import { directionsLink } from '../ec/present';
export type { PageAnswer } from '#libs/routes/calendar-views';

/** A `redirect` answer: the record's pretty address, for an address that names it by id. */
export interface RedirectAnswer {
  redirect: string;
}

export const metaText = (meta: Record<string, unknown> | undefined, key: string): string => {
  const v = meta?.[key];
  return typeof v === 'string' ? v.trim() : typeof v === 'number' ? String(v) : '';
};

/** A stored title (HTML) as the text a reader sees: tags dropped, character references decoded. */
export const plainTitle = (title: string | undefined): string => decodeEntities(stripAllTags(title ?? '')).trim();
/** A stored title printed safely in HTML text or an attribute. */
export const titleHtml = (title: string | undefined): string => esc(plainTitle(title));

export const isWebUrl = (s: string): boolean => /^https?:\/\/[^\s]+$/i.test(s);

/** `Tuesday, December 15, 2026`. */
export const longDate = (dt: DateTime): string => dt.setLocale('en-US').toFormat('cccc, LLLL d, yyyy');
/** `7:00 pm`. */
export const clock = (dt: DateTime): string => dt.setLocale('en-US').toFormat('h:mm a').replace(/AM$/, 'am').replace(/PM$/, 'pm');

/** The zone's name as a reader knows it: its abbreviation and its IANA name (`EST, America/New_York`). */
export function zoneLabel(dt: DateTime, abbr: string): string {
  const name = dt.zoneName ?? '';
  const short = abbr || dt.offsetNameShort || '';
  return short && short !== name ? `${short}, ${name}` : name;
}

/** An event's dates and times in its own zone, the zone named (HTML, escaped). */
export function whenHtml(start: DateTime, end: DateTime, allDay: boolean, abbr: string): string {
  const time = (dt: DateTime, text: string) => `<time datetime="${esc(dt.toISO({ suppressMilliseconds: true }) ?? '')}">${esc(text)}</time>`;
  const sameDay = start.hasSame(end, 'day');
  if (allDay) {
    const range = sameDay ? time(start, longDate(start)) : `${time(start, longDate(start))} – ${time(end, longDate(end))}`;
    return `<span class="calendar-single__dates">${range}</span> <span class="calendar-single__all-day">All day</span>`;
  }
  const range = sameDay
    ? `${time(start, `${longDate(start)}, ${clock(start)}`)} – ${time(end, clock(end))}`
    : `${time(start, `${longDate(start)}, ${clock(start)}`)} – ${time(end, `${longDate(end)}, ${clock(end)}`)}`;
  return `<span class="calendar-single__dates">${range}</span> <span class="calendar-single__zone">(${esc(zoneLabel(start, abbr))})</span>`;
}

/** The venue's address as one line of plain text. */
export function venueAddress(venue: PostDoc): string {
  const m = venue.meta ?? {};
  const region = metaText(m, VENUE_META.stateprovince) || metaText(m, VENUE_META.state) || metaText(m, VENUE_META.province);
  return [metaText(m, VENUE_META.address), metaText(m, VENUE_META.city), region, metaText(m, VENUE_META.zip), metaText(m, VENUE_META.country)]
    .filter(Boolean)
    .join(', ');
}

/** The reference's directions link (a map search for the address), as a URL; '' without an address. */
export const directionsUrl = (venue: PostDoc): string => directionsLink(venue.meta ?? {}).replace(/&#038;/g, '&');

/** Phone, e-mail and website of a venue or organizer, as definition list rows. */
export function contactRows(doc: PostDoc, kind: 'venue' | 'organizer'): string {
  const m = doc.meta ?? {};
  const phone = metaText(m, kind === 'venue' ? VENUE_META.phone : ORGANIZER_META.phone);
  const email = kind === 'organizer' ? metaText(m, ORGANIZER_META.email) : '';
  const website = metaText(m, kind === 'venue' ? VENUE_META.website : ORGANIZER_META.website);
  const rows: string[] = [];
  if (phone) rows.push(`<dt>Phone</dt><dd><a href="tel:${esc(phone.replace(/[^\d+]/g, ''))}">${esc(phone)}</a></dd>`);
  if (email && /^[^\s@<>"]+@[^\s@<>"]+$/.test(email)) rows.push(`<dt>Email</dt><dd><a href="mailto:${esc(email)}">${esc(email)}</a></dd>`);
  if (website && isWebUrl(website)) rows.push(`<dt>Website</dt><dd><a href="${esc(website)}" rel="external">${esc(website)}</a></dd>`);
  return rows.join('');
}

/** Definition list rows as a list; '' without rows. */
export const metaList = (rows: string): string => (rows ? `<dl class="calendar-single__meta">${rows}</dl>` : '');

/** The record's featured image (an image in the media library with a web address), or ''. */
export function imageHtml(doc: PostDoc, posts: Map<number, PostDoc>, alt: string): string {
  const media = doc.featured_media ? posts.get(doc.featured_media) : undefined;
  if (!media || typeof media.mime_type !== 'string' || !media.mime_type.startsWith('image/') || !isWebUrl(media.guid ?? '')) return '';
  return `<figure class="calendar-single__image"><img src="${esc(media.guid)}" alt="${esc(alt)}" decoding="async"></figure>`;
}
