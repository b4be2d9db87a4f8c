/**
 * The geocoder of the extended edition: one address in, its coordinates out, from a Nominatim-compatible
 * search URL or Google's Geocoding API, through the outbound guard (libs/net/outbound.ts) with a bounded
 * time and size. `geocodeAddress` is the one function every caller uses (venues on workers, and a place
 * typed into the calendar's "Near" field); ./cache.ts keeps its answers by normalised address.
 *
 * The outcomes: coordinates; null when the provider knows no such place (no retry changes that); a
 * GeocoderBusyError when it asks to wait (HTTP 429, Google's OVER_QUERY_LIMIT), with the wait it named;
 * any other error (down, 5xx, a timeout, an unreadable answer) when a later try may succeed; a
 * RefusedError (the guard's, or a denied key) when none will.
 */
import type { Config } from '../config/env';
import type { LatLng } from '../calendar/geo';
import { guardedGet, outboundPolicy, RefusedError, type FetchPolicy } from '../net/outbound';

export type { LatLng } from '../calendar/geo';

export const GOOGLE_GEOCODE_URL = 'https://maps.googleapis.com/maps/api/geocode/json';

export interface GeocoderProvider {
  kind: 'nominatim' | 'google';
  /** The search URL the address is added to. */
  url: string;
  apiKey?: string;
  /** Sent as User-Agent (Nominatim's usage policy asks for one naming the application). */
  userAgent: string;
}

/** A geocoder answer is a few kilobytes; a larger one is refused. */
const MAX_ANSWER_BYTES = 256 * 1024;
/** Retry-After of a 429 without one (or one past this bound is cut to it). */
export const DEFAULT_RETRY_AFTER_MS = 5_000;
export const MAX_RETRY_AFTER_MS = 10 * 60_000;

/** The provider asks to wait (HTTP 429 or a quota answer) for `retryAfterMs`. */
export class GeocoderBusyError extends Error {
  constructor(readonly retryAfterMs: number) {
    super(`the geocoder asks to wait ${retryAfterMs} ms`);
    this.name = 'GeocoderBusyError';
  }
}

/** The configured provider, or null when none is (GEOCODER_PROVIDER none): then nothing is geocoded. */
export function geocoderFrom(config: Pick<Config, 'GEOCODER_PROVIDER' | 'GEOCODER_URL' | 'GEOCODER_API_KEY' | 'SITE_URL'>): GeocoderProvider | null {
  const userAgent = `EventsCalendarContentService (${config.SITE_URL})`;
  if (config.GEOCODER_PROVIDER === 'nominatim' && config.GEOCODER_URL) return { kind: 'nominatim', url: config.GEOCODER_URL, userAgent };
  if (config.GEOCODER_PROVIDER === 'google' && config.GEOCODER_API_KEY) {
    return { kind: 'google', url: config.GEOCODER_URL ?? GOOGLE_GEOCODE_URL, apiKey: config.GEOCODER_API_KEY, userAgent };
  }
  return null;
}

/** The outbound policy of geocoder requests: the guard's address rules, the configured deadline, no redirects beyond two. */
export function geocoderPolicy(allowHosts: readonly string[], timeoutMs: number): FetchPolicy {
  return outboundPolicy(allowHosts, { timeoutMs, maxBytes: MAX_ANSWER_BYTES, maxRedirects: 2 });
}

/** The request URL of an address. */
export function searchUrl(provider: GeocoderProvider, address: string): string {
  const url = new URL(provider.url);
  if (provider.kind === 'nominatim') {
    url.searchParams.set('format', 'jsonv2');
    url.searchParams.set('limit', '1');
    url.searchParams.set('q', address);
  } else {
    url.searchParams.set('address', address);
    url.searchParams.set('key', provider.apiKey ?? '');
  }
  return url.href;
}

/** Retry-After as seconds or an HTTP date, in milliseconds, bounded. */
export function retryAfterMs(header: string | undefined, now = Date.now()): number {
  const text = (header ?? '').trim();
  let ms = NaN;
  if (/^\d+$/.test(text)) ms = Number(text) * 1000;
  else if (text) ms = Date.parse(text) - now;
  if (!Number.isFinite(ms)) return DEFAULT_RETRY_AFTER_MS;
  return Math.min(MAX_RETRY_AFTER_MS, Math.max(0, ms));
}

/** A finite coordinate pair within range, or null. */
function point(lat: unknown, lng: unknown): LatLng | null {
  const a = typeof lat === 'string' ? Number(lat) : lat;
  const b = typeof lng === 'string' ? Number(lng) : lng;
  if (typeof a !== 'number' || typeof b !== 'number' || !Number.isFinite(a) || !Number.isFinite(b)) return null;
  return Math.abs(a) <= 90 && Math.abs(b) <= 180 ? { lat: a, lng: b } : null;
}

function parseJson(body: string): unknown {
  try {
    return JSON.parse(body);
  } catch {
    throw new Error('the geocoder answered with something that is not JSON');
  }
}

/**
 * The coordinates of `address` from the provider, or null when it finds none. Throws GeocoderBusyError
 * when it asks to wait, RefusedError when no retry can help, another error when a retry may.
 */
export async function geocodeAddress(provider: GeocoderProvider, address: string, policy: FetchPolicy): Promise<LatLng | null> {
  if (address.trim() === '') return null;
  const res = await guardedGet(searchUrl(provider, address), policy, { accept: 'application/json', truncate: false, userAgent: provider.userAgent });
  if (res.status === 429) throw new GeocoderBusyError(retryAfterMs(res.headers['retry-after']));
  if (res.status >= 500) throw new Error(`the geocoder answered ${res.status}`);
  if (res.status >= 400) throw new RefusedError(`the geocoder refused the request (${res.status})`);
  if (res.status !== 200) throw new Error(`the geocoder answered ${res.status}`);
  const body = parseJson(res.body);
  if (provider.kind === 'nominatim') {
    if (!Array.isArray(body)) throw new Error('the geocoder answered with something that is not a result list');
    const first: unknown = body[0];
    if (first === undefined) return null;
    const hit = first as { lat?: unknown; lon?: unknown };
    return point(hit.lat, hit.lon);
  }
  const answer = (body ?? {}) as { status?: unknown; results?: Array<{ geometry?: { location?: { lat?: unknown; lng?: unknown } } }> };
  switch (answer.status) {
    case 'OK': {
      const at = answer.results?.[0]?.geometry?.location;
      return at ? point(at.lat, at.lng) : null;
    }
    case 'ZERO_RESULTS':
      return null;
    case 'OVER_QUERY_LIMIT':
      throw new GeocoderBusyError(retryAfterMs(res.headers['retry-after']));
    case 'REQUEST_DENIED':
    case 'INVALID_REQUEST':
      throw new RefusedError(`the geocoder answered ${String(answer.status)}`);
    default:
      throw new Error(`the geocoder answered ${String(answer.status)}`);
  }
}
