/**
 * The geocoding jobs' wiring: the `geocode.venue` handler for workers and the inline queue, the rate of
 * the `geocode` queue (GEOCODER_RATE_PER_SECOND: BullMQ's limiter over every worker, or the inline
 * queue's own spacing), and the calendar's hook that asks for a venue's job once it is stored.
 */
import type { Config } from '../config/env';
import { logger } from '../observability/logger';
import type { PostDoc } from '../posts/types';
import { UnrecoverableError } from 'bullmq';
import type { JobHandler, JobQueue, QueueName, QueueRate } from '../queue/types';
import type { Store } from '../store/types';
import { geocoderFrom, geocoderPolicy } from './provider';
import { geocodePlace, placeLookup, readPlaceJob, type PlaceJob, type PlacePoint } from './place';
import type { LatLng } from '../calendar/geo';
import { geocodeVenue, readVenueJob, requestVenueGeocode, type VenueGeocodeJob, type VenueGeocodeResult } from './venues';

declare module '../queue/types' {
  interface JobPayloads {
    'geocode.venue': { data: VenueGeocodeJob; result: VenueGeocodeResult };
    'geocode.place': { data: PlaceJob; result: LatLng | null };
  }
}

export type GeocodeConfig = Pick<
  Config,
  | 'EDITION'
  | 'GEOCODER_PROVIDER'
  | 'GEOCODER_URL'
  | 'GEOCODER_API_KEY'
  | 'GEOCODER_RATE_PER_SECOND'
  | 'GEOCODER_TIMEOUT_MS'
  | 'SITE_URL'
  | 'OUTBOUND_ALLOW_HOSTS'
>;

/** The provider when this process geocodes: the extended edition with one configured; else null. */
export function activeGeocoder(config: GeocodeConfig) {
  return config.EDITION === 'extended' ? geocoderFrom(config) : null;
}

/**
 * The rate of the `geocode` queue: one job start every 1/GEOCODER_RATE_PER_SECOND seconds, and the
 * provider requests as far apart (the jobs pace them, libs/geocode/venues.ts cachedGeocode).
 */
export function geocodeRates(config: Pick<Config, 'GEOCODER_RATE_PER_SECOND'>): Partial<Record<QueueName, QueueRate>> {
  return { geocode: { intervalMs: Math.ceil(1000 / config.GEOCODER_RATE_PER_SECOND) } };
}

export function geocodeJobHandlers(o: { store: Store; config: GeocodeConfig }): {
  'geocode.venue': JobHandler<unknown, VenueGeocodeResult>;
  'geocode.place': JobHandler<unknown, LatLng | null>;
} {
  const deps = { store: o.store, provider: activeGeocoder(o.config), policy: geocoderPolicy(o.config.OUTBOUND_ALLOW_HOSTS, o.config.GEOCODER_TIMEOUT_MS) };
  return {
    'geocode.venue': async (data, ctx) => {
      const job = readVenueJob(data);
      if (!job) throw new UnrecoverableError('geocode.venue: malformed job data');
      return geocodeVenue({ ...deps, pace: ctx.pace }, job);
    },
    'geocode.place': async (data, ctx) => {
      const job = readPlaceJob(data);
      if (!job) throw new UnrecoverableError('geocode.place: malformed job data');
      return geocodePlace({ ...deps, pace: ctx.pace }, job);
    },
  };
}

/** The calendar's place lookup of the "Near" field: present when this process geocodes, else undefined (a place alone finds nothing). */
export function placeLookupOf(config: GeocodeConfig, store: Store, queue: (() => JobQueue) | undefined): ((place: string) => Promise<PlacePoint>) | undefined {
  const provider = activeGeocoder(config);
  return provider && queue ? placeLookup(store, provider, queue) : undefined;
}

/** The calendar's `venueWritten` hook: present when this process geocodes, else undefined (nothing is asked). */
export function venueWrittenHook(config: GeocodeConfig, queue: (() => JobQueue) | undefined): ((venue: PostDoc) => void) | undefined {
  if (!queue || !activeGeocoder(config)) return undefined;
  return (venue) => {
    try {
      void requestVenueGeocode(queue(), venue);
    } catch (err) {
      logger.warn({ err, venue: venue.id }, 'the venue could not be queued for geocoding');
    }
  };
}
