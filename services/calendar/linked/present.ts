/**
 * Venue and organizer records (the reference's get_venue_data / get_organizer_data): the post fields
 * and the kind's meta, every empty value dropped; venues then add show_map and show_map_link, and both
 * add their global ids. `json_ld` only on a single GET.
 */
import { fieldEntries } from '#libs/calendar/fields';
import { VENUE_META, ORGANIZER_META, truthyMeta, venueCoordinates } from '#libs/calendar/meta';
import { permalinkOf } from '#libs/posts/permalink';
import type { PostDoc } from '#libs/posts/types';
import type { Site } from '#libs/rest/site';
import { presentImage } from '../images';
import { globalId } from '../links';
import type { Related } from '../related';
import { autop, stripTags } from '../text';
import { postDates } from '../dates';
import type { LinkedKindDef } from './kind';

const isEmpty = (v: unknown) => v === undefined || v === null || v === '' || v === false || v === 0 || (Array.isArray(v) && v.length === 0);
const text = (v: unknown): string => (typeof v === 'string' ? v : typeof v === 'number' ? String(v) : '');

export interface LinkedPresentOptions {
  single?: boolean;
  /** Password-protected and not unlocked: the protected fields are blanked (and so dropped). */
  blank?: boolean;
}

/** The kind's text fields (libs/calendar/fields.ts) as stored, trimmed; a venue's coordinates when it has both. */
function ownFields(kind: LinkedKindDef, doc: PostDoc, blank: boolean): Record<string, unknown> {
  const m = doc.meta ?? {};
  const out: Record<string, unknown> = {};
  for (const [name, field] of fieldEntries(kind.fields))
    if (field.type !== 'flag' && field.type !== 'coordinate') out[name] = blank ? '' : text(m[field.meta]).trim();
  if (kind.key !== 'venue') return out;
  const at = venueCoordinates(m);
  if (at) {
    out.geo_lat = blank ? 0 : at.lat;
    out.geo_lng = blank ? 0 : at.lng;
  }
  return out;
}

export function venueJsonLd(doc: PostDoc, site: Site): Record<string, unknown> {
  const m = doc.meta ?? {};
  const ld: Record<string, unknown> = {
    '@context': 'http://schema.org',
    '@type': 'Place',
    name: doc.title,
    description: stripTags(doc.excerpt || doc.content),
    url: permalinkOf(site, doc),
    address: {
      '@type': 'PostalAddress',
      streetAddress: text(m[VENUE_META.address]),
      addressLocality: text(m[VENUE_META.city]),
      addressRegion: text(m[VENUE_META.stateprovince]) || text(m[VENUE_META.state]) || text(m[VENUE_META.province]),
      postalCode: text(m[VENUE_META.zip]),
      addressCountry: text(m[VENUE_META.country]),
    },
    telephone: text(m[VENUE_META.phone]),
    sameAs: text(m[VENUE_META.website]),
  };
  const at = venueCoordinates(m);
  if (at) ld.geo = { '@type': 'GeoCoordinates', latitude: at.lat, longitude: at.lng };
  return ld;
}

export function organizerJsonLd(doc: PostDoc, site: Site): Record<string, unknown> {
  const m = doc.meta ?? {};
  return {
    '@context': 'http://schema.org',
    '@type': 'Person',
    name: doc.title,
    description: stripTags(doc.excerpt || doc.content),
    url: permalinkOf(site, doc),
    telephone: text(m[ORGANIZER_META.phone]),
    email: text(m[ORGANIZER_META.email]),
    sameAs: text(m[ORGANIZER_META.website]),
  };
}

/** The author, status and post dates an event, venue or organizer answer carries after its ids, in the reference's order. */
export function recordHead(doc: PostDoc): Record<string, unknown> {
  return { author: String(doc.author ?? 0), status: doc.status, ...postDates(doc) };
}

export function presentLinked(kind: LinkedKindDef, doc: PostDoc, site: Site, related: Related, opts: LinkedPresentOptions = {}): Record<string, unknown> {
  const blank = !!opts.blank;
  const fields: Record<string, unknown> = {
    id: doc.id,
    ...recordHead(doc),
    url: permalinkOf(site, doc),
    [kind.key]: (doc.title ?? '').trim(),
    description: blank ? '' : autop(doc.content),
    excerpt: blank ? '' : autop(doc.excerpt),
    slug: doc.slug,
    image: blank ? false : presentImage(doc.featured_media ? related.posts.get(doc.featured_media) : undefined),
    ...ownFields(kind, doc, blank),
    json_ld: opts.single ? (kind.key === 'venue' ? venueJsonLd(doc, site) : organizerJsonLd(doc, site)) : undefined,
  };
  // Copied rather than deleted from, so the record keeps a fast shape for serialising.
  const out: Record<string, unknown> = {};
  for (const k in fields) if (!isEmpty(fields[k])) out[k] = fields[k];
  const m = doc.meta ?? {};
  for (const [name, field] of fieldEntries(kind.fields)) {
    if (field.type !== 'flag') continue;
    // Flags are never left out: one never written reads as on (the extended edition's override is shown once stored).
    if (field.meta in m) out[name] = truthyMeta(m[field.meta]);
    else if (!field.optional) out[name] = true;
  }
  const gid = globalId(site, doc.id);
  out.global_id = gid;
  out.global_id_lineage = [gid];
  return out;
}
