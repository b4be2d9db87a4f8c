/**
 * Venue geolocation of the extended edition (the reference's Pro geolocation): the geofence, the
 * great-circle distance between two points, and the bounding box that an indexed query on the venues'
 * coordinates (`venue_lat`/`venue_lng`, libs/calendar/meta.ts venueIndex) narrows a geofence to before
 * the distance decides.
 */
import type { Filter } from '../store/types';
import { VENUE_TYPE } from './meta';

/** Mean Earth radius, in kilometres (the reference's). */
export const EARTH_RADIUS_KM = 6371;
export const KM_PER_MILE = 1.609344;

export type GeoUnit = 'miles' | 'kilometers';
export const GEO_UNITS: readonly GeoUnit[] = ['miles', 'kilometers'];

/** The reference's defaults: a geofence of 25 miles. */
export const DEFAULT_GEOFENCE = 25;
export const DEFAULT_GEO_UNIT: GeoUnit = 'miles';

export interface LatLng {
  lat: number;
  lng: number;
}

const rad = (deg: number) => (deg * Math.PI) / 180;
const deg = (r: number) => (r * 180) / Math.PI;

/** Great-circle (haversine) distance between two points, in kilometres. */
export function distanceKm(a: LatLng, b: LatLng): number {
  const dLat = rad(b.lat - a.lat);
  const dLng = rad(b.lng - a.lng);
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(rad(a.lat)) * Math.cos(rad(b.lat)) * Math.sin(dLng / 2) ** 2;
  return 2 * EARTH_RADIUS_KM * Math.asin(Math.min(1, Math.sqrt(h)));
}

/** A geofence radius in kilometres, from the settings' value and unit (a bad value reads as the default). */
export function geofenceKm(radius: unknown, unit: unknown): number {
  const r = typeof radius === 'number' ? radius : typeof radius === 'string' && radius.trim() !== '' ? Number(radius) : NaN;
  const value = Number.isFinite(r) && r > 0 ? r : DEFAULT_GEOFENCE;
  return unit === 'kilometers' ? value : value * KM_PER_MILE;
}

/**
 * The latitude and longitude ranges that hold every point within `km` of the centre: a query on them
 * finds a superset of the geofence. Near a pole, or when the fence spans it, every longitude; a
 * longitude range that crosses the antimeridian is given as two ranges.
 */
export function boundingBox(centre: LatLng, km: number): { lat: [number, number]; lng: Array<[number, number]> } {
  const dLat = deg(km / EARTH_RADIUS_KM);
  const lat: [number, number] = [Math.max(-90, centre.lat - dLat), Math.min(90, centre.lat + dLat)];
  if (lat[0] <= -90 || lat[1] >= 90 || km / EARTH_RADIUS_KM >= Math.PI / 2) return { lat, lng: [[-180, 180]] };
  // The widest longitude span of the fence's circle (at the latitude where it touches its meridians).
  const dLng = deg(Math.asin(Math.min(1, Math.sin(km / EARTH_RADIUS_KM) / Math.cos(rad(centre.lat)))));
  const west = centre.lng - dLng;
  const east = centre.lng + dLng;
  if (dLng >= 180) return { lat, lng: [[-180, 180]] };
  if (west < -180)
    return {
      lat,
      lng: [
        [west + 360, 180],
        [-180, east],
      ],
    };
  if (east > 180)
    return {
      lat,
      lng: [
        [west, 180],
        [-180, east - 360],
      ],
    };
  return { lat, lng: [[west, east]] };
}

/** The store filter of the venues inside a bounding box (served by the venues' coordinate index). */
export function venuesInBoxFilter(centre: LatLng, km: number): Filter {
  const box = boundingBox(centre, km);
  const lat = { $gte: box.lat[0], $lte: box.lat[1] };
  const ranges = box.lng.map(([w, e]): Filter => ({ type: VENUE_TYPE, venue_lat: lat, venue_lng: { $gte: w, $lte: e } }));
  return ranges.length === 1 ? ranges[0] : { $or: ranges };
}

/** The store filter of every venue with coordinates. */
export const locatedVenuesFilter = (): Filter => ({ type: VENUE_TYPE, venue_lat: { $gte: -90, $lte: 90 } });
