/**
 * Geocoding venues (extended edition): which venues need it, asking the workers for it after a venue
 * is stored (never failing nor holding up the write), and the `geocode.venue` job that finds the
 * coordinates (cache first, then the provider) and stores them with `_VenueGeoAddress` only while the
 * venue still has the address the job was asked for and no override.
 */
import { createHash } from 'node:crypto';
import type { LatLng } from '../calendar/geo';
import { VENUE_META, VENUE_TYPE, truthyMeta, venueCoordinates, venueIndex } from '../calendar/meta';
import type { FetchPolicy } from '../net/outbound';
import { RefusedError } from '../net/outbound';
import { logger } from '../observability/logger';
import type { PostDoc } from '../posts/types';
import { isRecord } from '../rest/args';
import { QueuePauseError, type JobQueue } from '../queue/types';
import type { Filter, Store } from '../store/types';
import { ADDRESS_META, venueAddress } from './address';
import { GeocodeCache } from './cache';
import { GeocoderBusyError, geocodeAddress, type GeocoderProvider } from './provider';

const log = logger.child({ component: 'geocode' });

/** Attempts of a venue's job when the provider is down or answers 5xx (a 429 waits without using one). */
export const GEOCODE_ATTEMPTS = 5;

export interface VenueGeocodeJob {
  venue: number;
  /** The address the venue had when the job was asked for (libs/geocode/address.ts venueAddress). */
  address: string;
}

export interface VenueGeocodeResult {
  outcome: 'geocoded' | 'cached' | 'no-result' | 'stale' | 'not-needed' | 'gone' | 'refused' | 'no-provider';
  lat?: number;
  lng?: number;
}

/**
 * The address a venue should be geocoded from, or null: it is no venue (or trashed), its coordinates
 * are given (the override), it has no address, or its coordinates were geocoded from this address already.
 */
export function geocodeWanted(doc: PostDoc): string | null {
  if (doc.type !== VENUE_TYPE || doc.status === 'trash') return null;
  const m = doc.meta ?? {};
  if (truthyMeta(m[VENUE_META.overwriteCoords])) return null;
  const address = venueAddress(m);
  if (!address) return null;
  if (m[VENUE_META.geoAddress] === address && venueCoordinates(m)) return null;
  return address;
}

/** The job id of a venue's write: the same write asked twice runs once; a later write of the venue is a new job. */
export function venueJobId(doc: PostDoc, address: string): string {
  const digest = createHash('sha256').update(address).digest('hex').slice(0, 16);
  return `geocode-venue-${doc.id}-${digest}-${new Date(doc.modified_gmt ?? 0).getTime() || 0}`;
}

/**
 * Asks the workers to geocode a stored venue when it needs it. Never throws: a queue that cannot take
 * the job (Redis down) is logged, and the venue is geocoded by its next write or the bulk run.
 */
export async function requestVenueGeocode(queue: JobQueue, doc: PostDoc, opts: { jobId?: string } = {}): Promise<boolean> {
  const address = geocodeWanted(doc);
  if (address === null) return false;
  try {
    await queue.enqueue('geocode.venue', { venue: doc.id, address }, { jobId: opts.jobId ?? venueJobId(doc, address), attempts: GEOCODE_ATTEMPTS });
    return true;
  } catch (err) {
    log.warn({ err, venue: doc.id }, 'the venue could not be queued for geocoding');
    return false;
  }
}

/** Job data arrives as parsed JSON: a venue id and an address, or null. */
export function readVenueJob(data: unknown): VenueGeocodeJob | null {
  if (!isRecord(data) || typeof data.venue !== 'number' || !Number.isInteger(data.venue) || data.venue < 1 || typeof data.address !== 'string') return null;
  return { venue: data.venue, address: data.address };
}

/**
 * The store condition that the venue is as the job read it: the same address parts (each equal, or
 * still absent) and no override. A write of coordinates under it cannot land on a changed address.
 */
function unchangedFilter(doc: PostDoc): Filter | null {
  const m = doc.meta ?? {};
  const filter: Filter = { id: doc.id, type: VENUE_TYPE, [`meta.${VENUE_META.overwriteCoords}`]: { $ne: true } };
  for (const key of ADDRESS_META) {
    const v = m[key];
    if (v === undefined) filter[`meta.${key}`] = { $exists: false };
    else if (typeof v === 'string' || typeof v === 'number') filter[`meta.${key}`] = v;
    else return null;
  }
  return filter;
}

/** Stores a venue's coordinates and the address they are of, only while it is as read; false when it changed since. */
export async function storeVenueCoordinates(store: Store, doc: PostDoc, address: string, at: LatLng): Promise<boolean> {
  const filter = unchangedFilter(doc);
  if (!filter) return false;
  const meta = { [VENUE_META.lat]: String(at.lat), [VENUE_META.lng]: String(at.lng) };
  const set: Record<string, unknown> = { ...venueIndex(meta), [`meta.${VENUE_META.geoAddress}`]: address };
  for (const [k, v] of Object.entries(meta)) set[`meta.${k}`] = v;
  const { matched } = await store.collection('posts').updateOne(filter, { $set: set });
  return matched > 0;
}

/** What the geocoding jobs (a venue's, a place's) work with. */
export interface GeocodeJobDeps {
  store: Store;
  provider: GeocoderProvider | null;
  policy: FetchPolicy;
  /** The job's `pace` (libs/queue/types.ts): waited right before each provider request, so the requests themselves keep the rate. */
  pace?: () => Promise<void>;
}

/**
 * An address's coordinates from the cache, else from the provider (a miss is kept too, so it is not
 * asked again until the entry expires). A provider asking to wait pauses the job's queue.
 */
export async function cachedGeocode(
  deps: Pick<GeocodeJobDeps, 'store' | 'policy' | 'pace'> & { provider: GeocoderProvider },
  address: string,
): Promise<{ at: LatLng | null; cached: boolean }> {
  const { store, provider, policy } = deps;
  const cache = new GeocodeCache(store, provider.kind);
  const kept = await cache.get(address);
  if (kept !== undefined) return { at: kept, cached: true };
  let at: LatLng | null;
  try {
    await deps.pace?.();
    at = await geocodeAddress(provider, address, policy);
  } catch (err) {
    if (err instanceof GeocoderBusyError) throw new QueuePauseError(err.retryAfterMs, 'the geocoder asks to wait');
    throw err;
  }
  await cache.put(address, at);
  return { at, cached: false };
}

/** The `geocode.venue` job. */
export async function geocodeVenue(deps: GeocodeJobDeps, job: VenueGeocodeJob): Promise<VenueGeocodeResult> {
  if (!deps.provider) return { outcome: 'no-provider' };
  const doc = await deps.store.collection<PostDoc>('posts').findOne({ id: job.venue, type: VENUE_TYPE });
  if (!doc) return { outcome: 'gone' };
  const wanted = geocodeWanted(doc);
  if (wanted === null) return { outcome: 'not-needed' };
  // The address changed again while the job waited: the write that changed it asked for its own job.
  if (wanted !== job.address) return { outcome: 'stale' };
  let found: Awaited<ReturnType<typeof cachedGeocode>>;
  try {
    found = await cachedGeocode({ ...deps, provider: deps.provider }, wanted);
  } catch (err) {
    if (err instanceof RefusedError) {
      log.warn({ venue: doc.id, reason: err.message }, 'the geocoder request was refused');
      return { outcome: 'refused' };
    }
    throw err;
  }
  const { at, cached } = found;
  if (at === null) return { outcome: 'no-result' };
  if (!(await storeVenueCoordinates(deps.store, doc, wanted, at))) return { outcome: 'stale' };
  return { outcome: cached ? 'cached' : 'geocoded', lat: at.lat, lng: at.lng };
}
