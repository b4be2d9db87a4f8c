/**
 * The geoloc filters of the event archive in the extended edition (the reference's Pro geolocation):
 * `geoloc=true` keeps the events whose venue has coordinates; `geoloc_lat` with `geoloc_lng` keep the
 * events whose venue lies within the geofence (the settings' radius and unit) around that point, the
 * nearest first. Venues are found by one indexed query on their coordinates (the fence's bounding box,
 * libs/calendar/geo.ts), the distance (haversine) decides in code, and the events are those linked to
 * the venues kept. The free edition (no `deps.geofenceKm`) accepts the arguments and ignores them.
 */
import { distanceKm, locatedVenuesFilter, venuesInBoxFilter, type LatLng } from '#libs/calendar/geo';
import { errors, invalidParams, ParamError, type RestError } from '#libs/rest/errors';
import type { PostDoc } from '#libs/posts/types';
import type { Filter, SortSpec } from '#libs/store/types';
import type { CalendarDeps } from '../deps';
import type { ArchiveParams } from './archive';

export interface GeoFilter {
  /** The venues an event must be linked to (one of them). */
  venues: number[];
  /** With a point: each kept venue's distance from it, in kilometres; the archive lists the nearest first. */
  nearest?: Map<number, number>;
}

const coordinate = (name: string, v: number, range: number): ParamError | null =>
  Number.isFinite(v) && Math.abs(v) <= range ? null : new ParamError('rest_invalid_param', `${name} must be a number from -${range} to ${range}.`);

/** The venues the geoloc arguments keep, null when they ask for nothing (or the edition has no geolocation), or the request's error. */
export async function geolocFilter(deps: CalendarDeps, p: ArchiveParams, given: (name: string) => boolean): Promise<GeoFilter | null | RestError> {
  if (!deps.geofenceKm) return null;
  const lat = given('geoloc_lat') && typeof p.geoloc_lat === 'number' ? p.geoloc_lat : null;
  const lng = given('geoloc_lng') && typeof p.geoloc_lng === 'number' ? p.geoloc_lng : null;
  // Each needs the other: the missing one is reported as a missing required argument.
  if ((lat === null) !== (lng === null)) return errors.missingParams([lat === null ? 'geoloc_lat' : 'geoloc_lng']);
  if (lat !== null && lng !== null) {
    const bad = (
      [
        ['geoloc_lat', coordinate('geoloc_lat', lat, 90)],
        ['geoloc_lng', coordinate('geoloc_lng', lng, 180)],
      ] as const
    ).filter((entry): entry is readonly ['geoloc_lat' | 'geoloc_lng', ParamError] => entry[1] !== null);
    if (bad.length) return invalidParams(bad.map(([name, e]) => [name, e]));
    const centre: LatLng = { lat, lng };
    const km = deps.geofenceKm();
    const boxed = await deps.posts.find(venuesInBoxFilter(centre, km), { fields: ['id', 'venue_lat', 'venue_lng'] });
    const nearest = new Map<number, number>();
    for (const v of boxed) {
      const d = distanceKm(centre, { lat: Number(v.venue_lat), lng: Number(v.venue_lng) });
      if (d <= km) nearest.set(v.id, d);
    }
    return { venues: [...nearest.keys()], nearest };
  }
  if (given('geoloc') && p.geoloc === true) {
    const located = await deps.posts.find(locatedVenuesFilter(), { fields: ['id'] });
    return { venues: located.map((v) => v.id) };
  }
  return null;
}

/** An event's distance: that of its nearest kept venue (Infinity when none is kept). */
export function eventDistance(venues: unknown, nearest: Map<number, number>): number {
  let best = Infinity;
  for (const id of Array.isArray(venues) ? venues : []) {
    const d = nearest.get(Number(id));
    if (d !== undefined && d < best) best = d;
  }
  return best;
}

/**
 * A page of the archive in distance order: the matching events' ids and venues (one query, no bodies),
 * ordered by distance, then as the archive orders them; then the page's records.
 */
export async function nearestPage(
  deps: CalendarDeps,
  filter: Filter,
  sort: SortSpec,
  nearest: Map<number, number>,
  page: number,
  perPage: number,
): Promise<{ items: PostDoc[]; total: number }> {
  const matching = await deps.posts.find(filter, { sort, fields: ['id', 'venues'] });
  // Array.prototype.sort is stable: equal distances keep the archive's order.
  const ordered = matching.map((e, at) => ({ id: e.id, at, d: eventDistance(e.venues, nearest) })).sort((a, b) => a.d - b.d || a.at - b.at);
  const ids = ordered.slice((page - 1) * perPage, page * perPage).map((e) => e.id);
  const docs = await deps.posts.byIds(ids);
  return { items: ids.flatMap((id) => docs.get(id) ?? []), total: ordered.length };
}
