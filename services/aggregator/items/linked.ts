/**
 * What the events of a batch store besides their times: the venues and organizers they name (as
 * deduplicated specs with their meta), their category and tag names, and their own event meta. Pure.
 */
import { costText } from '#libs/calendar/cost';
import { coordinateOf } from '#libs/calendar/fields';
import { EVENT_META, ORGANIZER_META, VENUE_META } from '#libs/calendar/meta';
import { identity, linkedUniqueIdOf, type Identity } from './identity';
import { text, truthy, type EaEvent, type EaOrganizer, type EaVenue } from './items';

/** A venue or organizer named by a batch, deduplicated: `ref` is how the batch's events point at it. */
export interface LinkedSpec {
  ref: string;
  name: string;
  identity: Identity;
  description?: string;
  excerpt?: string;
  /** Meta the record gets (keys of VENUE_META / ORGANIZER_META values plus the origin's unique id). */
  meta: Record<string, unknown>;
}

/** Sets `key` to the value's text when it has any. */
function putText(m: Record<string, unknown>, key: string, value: unknown): void {
  const t = text(value);
  if (t) m[key] = t;
}

function venueMeta(v: EaVenue): Record<string, unknown> {
  const m: Record<string, unknown> = {};
  const put = (key: string, value: unknown) => putText(m, key, value);
  put(VENUE_META.address, v.address);
  put(VENUE_META.city, v.city);
  put(VENUE_META.country, v.country);
  put(VENUE_META.province, v.province);
  put(VENUE_META.state, v.state);
  put(VENUE_META.stateprovince, v.stateprovince);
  put(VENUE_META.zip, v.zip);
  put(VENUE_META.phone, v.phone);
  put(VENUE_META.website, v.website ?? v.url);
  if (v.show_map !== undefined && v.show_map !== null) m[VENUE_META.showMap] = truthy(v.show_map);
  if (v.show_map_link !== undefined && v.show_map_link !== null) m[VENUE_META.showMapLink] = truthy(v.show_map_link);
  // Coordinates only as a valid pair: one without the other, or out of range, locates nothing.
  const lat = coordinateOf(v.geo_lat ?? '', 90);
  const lng = coordinateOf(v.geo_lng ?? '', 180);
  if (typeof lat === 'number' && typeof lng === 'number') {
    m[VENUE_META.lat] = String(lat);
    m[VENUE_META.lng] = String(lng);
    // Given coordinates are used as given (the reference's CSV importer sets the override with them): not geocoded over.
    m[VENUE_META.overwriteCoords] = true;
  }
  return m;
}

function organizerMeta(o: EaOrganizer): Record<string, unknown> {
  const m: Record<string, unknown> = {};
  putText(m, ORGANIZER_META.email, o.email);
  putText(m, ORGANIZER_META.phone, o.phone);
  putText(m, ORGANIZER_META.website, o.website);
  return m;
}

/** An address as venues are matched by it: lower case, spaces and commas collapsed. */
export function placeText(v: unknown): string {
  return text(v)
    .toLowerCase()
    .replace(/[\s,]+/g, ' ')
    .trim();
}

/** A venue or an organizer of an event, told apart by `kind`. */
type LinkedEntry = { kind: 'Venue'; entry: EaVenue } | { kind: 'Organizer'; entry: EaOrganizer };

function linkedSpec(linked: LinkedEntry, origin: string): LinkedSpec | null {
  const { kind, entry } = linked;
  const name = text(linked.kind === 'Venue' ? linked.entry.venue : linked.entry.organizer);
  // The reference creates no venue or organizer without a name.
  if (!name) return null;
  const u = linkedUniqueIdOf(entry, kind, origin);
  // A venue known by no id is the place of that name at that address (as the reference's importer matches them).
  const address = linked.kind === 'Venue' ? placeText(linked.entry.address) : '';
  const named = !u && !text(entry.global_id) && address ? `n:${name.toLowerCase()}|${address}` : null;
  const id = identity(entry.global_id, entry.global_id_lineage, u ? `u:${u.key}:${u.value}` : named);
  const meta = linked.kind === 'Venue' ? venueMeta(linked.entry) : organizerMeta(linked.entry);
  if (u) meta[u.key] = u.value;
  return {
    ref: id.primary ?? `t:${name.toLowerCase()}`,
    name,
    identity: id,
    ...(typeof entry.description === 'string' ? { description: entry.description } : {}),
    ...(typeof entry.excerpt === 'string' ? { excerpt: entry.excerpt } : {}),
    meta,
  };
}

export function venueOf(item: EaEvent, origin: string): LinkedSpec | null {
  return item.venue && !Array.isArray(item.venue) ? linkedSpec({ kind: 'Venue', entry: item.venue }, origin) : null;
}

export function organizersOf(item: EaEvent, origin: string): LinkedSpec[] {
  if (!item.organizer) return [];
  const list = Array.isArray(item.organizer) ? item.organizer : [item.organizer];
  const out: LinkedSpec[] = [];
  for (const o of list) {
    const s = linkedSpec({ kind: 'Organizer', entry: o }, origin);
    if (s && !out.some((x) => x.ref === s.ref)) out.push(s);
  }
  return out;
}

/** Term names of a list field (an array, or a comma-separated string), trimmed, empty ones dropped. */
export function termNames(v: unknown): string[] {
  const list = Array.isArray(v) ? v.map(text) : typeof v === 'string' ? v.split(',').map((s) => s.trim()) : [];
  const out: string[] = [];
  for (const n of list) if (n && !out.some((x) => x.toLowerCase() === n.toLowerCase())) out.push(n);
  return out;
}

// ---------------------------------------------------------------------------------------------------------
// Event meta

/** The event meta an item sets besides its times, venue and organizers (undefined removes a key). */
export function eventMeta(item: EaEvent): Record<string, unknown> {
  const m: Record<string, unknown> = {};
  if (item.url !== undefined && item.url !== null) m[EVENT_META.url] = text(item.url) || undefined;
  if (item.cost !== undefined && item.cost !== null) m[EVENT_META.cost] = costText(item.cost) || undefined;
  if (typeof item.currency_symbol === 'string') m[EVENT_META.currencySymbol] = item.currency_symbol || undefined;
  if (typeof item.currency_position === 'string') m[EVENT_META.currencyPosition] = item.currency_position || undefined;
  if (item.show_map !== undefined && item.show_map !== null) m[EVENT_META.showMap] = truthy(item.show_map);
  if (item.show_map_link !== undefined && item.show_map_link !== null) m[EVENT_META.showMapLink] = truthy(item.show_map_link);
  if (item.hide_from_listings !== undefined && item.hide_from_listings !== null)
    m[EVENT_META.hideFromListings] = truthy(item.hide_from_listings) ? 'yes' : undefined;
  const featured = item.featured ?? item.feature_event;
  if (featured !== undefined && featured !== null) m[EVENT_META.featured] = truthy(featured) ? true : undefined;
  return m;
}
