/**
 * The address a venue is geocoded by, as the reference's Pro geolocation builds it
 * (Tribe__Events__Pro__Geo_Loc::save_venue_geodata): the street address, province, city, state, zip and
 * country, each trimmed, the empty ones left out, joined by spaces, with anything in parentheses
 * removed. It is what `_VenueGeoAddress` holds once geocoded. The cache's key is its normalised form.
 */
import { VENUE_META } from '../calendar/meta';

const PARTS = [VENUE_META.address, VENUE_META.province, VENUE_META.city, VENUE_META.state, VENUE_META.zip, VENUE_META.country] as const;

/** The meta keys the address is made of (a change to one of them may need a new geocoding). */
export const ADDRESS_META: readonly string[] = [...PARTS, VENUE_META.stateprovince];

const text = (v: unknown): string => (typeof v === 'string' ? v.trim() : typeof v === 'number' ? String(v) : '');

/** The address of a venue's meta; '' when it has none. */
export function venueAddress(meta: Record<string, unknown> | undefined): string {
  const m = meta ?? {};
  // vendor/events/v1 writes the region as one `stateprovince` (`_VenueStateProvince`): it stands in the
  // state's place when the venue has neither a state nor a province of its own.
  const region = !text(m[VENUE_META.state]) && !text(m[VENUE_META.province]) ? text(m[VENUE_META.stateprovince]) : '';
  const joined = PARTS.map((k) => (k === VENUE_META.state && region ? region : text(m[k])))
    .filter(Boolean)
    .join(' ');
  // The reference removes `(...)` greedily; a lone parenthesis stays.
  return joined
    .replace(/\(.*\)/g, '')
    .replace(/\s+/g, ' ')
    .trim();
}

/** An address in the form two spellings of the same place share: Unicode-normalised, lower case, punctuation as spaces, spaces collapsed. */
export function normaliseAddress(address: string): string {
  return address
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[\s,;.·、，]+/gu, ' ')
    .trim();
}
