/**
 * A place typed into the calendar's "Near" field (extended edition), geocoded as venues are: the address
 * cache first, then the `geocode.place` job on the `geocode` queue, so a visitor's search takes a start
 * of the same per-provider rate limit as the venues' jobs, over every pod. A page never waits long for
 * it: when the queue is backed up or the job does not answer in time, the place is `busy` (the page
 * says to try again) rather than a held request. The same place asked within a minute is one job.
 */
import { createHash } from 'node:crypto';
import type { LatLng } from '../calendar/geo';
import { RefusedError } from '../net/outbound';
import { logger } from '../observability/logger';
import { isRecord } from '../rest/args';
import type { JobQueue } from '../queue/types';
import type { Store } from '../store/types';
import { normaliseAddress } from './address';
import { GeocodeCache } from './cache';
import type { GeocoderProvider } from './provider';
import { cachedGeocode, type GeocodeJobDeps } from './venues';

const log = logger.child({ component: 'geocode' });

/** Longest place a visitor may search near (the field's maxlength). */
export const MAX_PLACE_LENGTH = 200;
/** How long a page waits for the job's answer. */
export const PLACE_WAIT_MS = 6000;
/** Above this many geocode jobs waiting, a place is not queued (venues first; the page says busy). */
export const PLACE_QUEUE_LIMIT = 50;

/** What a place search finds: a point, `null` for a place the geocoder does not know, or `busy`. */
export type PlacePoint = LatLng | null | 'busy';

export interface PlaceJob {
  place: string;
}

/** Job data arrives as parsed JSON: a non-empty place of bounded length, or null. */
export function readPlaceJob(data: unknown): PlaceJob | null {
  if (!isRecord(data) || typeof data.place !== 'string') return null;
  const place = data.place.trim();
  return place && place.length <= MAX_PLACE_LENGTH ? { place } : null;
}

/** The `geocode.place` job: the place's point, or null when the geocoder finds none (or refuses the request). */
export async function geocodePlace(deps: GeocodeJobDeps, job: PlaceJob): Promise<LatLng | null> {
  if (!deps.provider) return null;
  try {
    return (await cachedGeocode({ ...deps, provider: deps.provider }, job.place)).at;
  } catch (err) {
    if (!(err instanceof RefusedError)) throw err;
    log.warn({ reason: err.message }, 'the geocoder request was refused');
    return null;
  }
}

/** The job id of a place: one job per normalised place and minute. */
function placeJobId(place: string, now: number): string {
  const digest = createHash('sha256').update(normaliseAddress(place)).digest('hex').slice(0, 16);
  return `geocode-place-${digest}-${Math.floor(now / 60_000)}`;
}

/** The calendar's place lookup for a provider: cache, then the queued job, bounded in time and backlog. */
export function placeLookup(store: Store, provider: GeocoderProvider, queue: () => JobQueue): (place: string) => Promise<PlacePoint> {
  const cache = new GeocodeCache(store, provider.kind);
  return async (text) => {
    const place = text.trim().slice(0, MAX_PLACE_LENGTH);
    if (!place) return null;
    const kept = await cache.get(place);
    if (kept !== undefined) return kept;
    try {
      const q = queue();
      if ((await q.depths()).geocode > PLACE_QUEUE_LIMIT) return 'busy';
      return await q.run('geocode.place', { place }, { jobId: placeJobId(place, Date.now()), attempts: 1, timeoutMs: PLACE_WAIT_MS });
    } catch (err) {
      log.warn({ err }, 'a place could not be geocoded now');
      return 'busy';
    }
  };
}
