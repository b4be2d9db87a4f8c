/**
 * Geocoder answers kept by normalised address (collection `geocode_cache`, unique on `id`), so that two
 * venues at one address cost one request, and an address the provider knows nothing of is not asked
 * again (a miss is kept as `found: false`). Entries are kept per provider: another provider may know
 * better. A found place is kept for GEOCODE_CACHE_DAYS, a miss for GEOCODE_MISS_DAYS; expired entries are
 * ignored when read and removed when the next one is written.
 */
import { createHash } from 'node:crypto';
import { DuplicateKeyError, type Collection, type Store } from '../store/types';
import type { LatLng } from '../calendar/geo';
import { normaliseAddress } from './address';

export const GEOCODE_CACHE_COLLECTION = 'geocode_cache';
export const GEOCODE_CACHE_DAYS = 90;
export const GEOCODE_MISS_DAYS = 30;

interface CacheDoc extends Record<string, unknown> {
  id: string;
  address: string;
  found: boolean;
  lat?: number;
  lng?: number;
  expires: Date;
}

/** What the cache holds for an address: a place, a miss (`null`), or nothing (`undefined`). */
export type Cached = LatLng | null | undefined;

export function geocodeCacheKey(provider: string, address: string): string {
  return `${provider}:${createHash('sha256').update(normaliseAddress(address)).digest('hex')}`;
}

export class GeocodeCache {
  private readonly entries: Collection<CacheDoc>;

  constructor(
    store: Store,
    private readonly provider: string,
    private readonly now: () => Date = () => new Date(),
  ) {
    this.entries = store.collection<CacheDoc>(GEOCODE_CACHE_COLLECTION);
  }

  async get(address: string): Promise<Cached> {
    const doc = await this.entries.findOne({ id: geocodeCacheKey(this.provider, address), expires: { $gt: this.now() } });
    if (!doc) return undefined;
    return doc.found && typeof doc.lat === 'number' && typeof doc.lng === 'number' ? { lat: doc.lat, lng: doc.lng } : null;
  }

  /** Keeps a place, or a miss (`null`). */
  async put(address: string, at: LatLng | null): Promise<void> {
    const now = this.now();
    await this.entries.deleteMany({ expires: { $lte: now } });
    const days = at ? GEOCODE_CACHE_DAYS : GEOCODE_MISS_DAYS;
    const id = geocodeCacheKey(this.provider, address);
    const fields = {
      address: normaliseAddress(address),
      found: at !== null,
      ...(at ? { lat: at.lat, lng: at.lng } : {}),
      expires: new Date(now.getTime() + days * 86_400_000),
    };
    const { matched } = await this.entries.updateOne({ id }, { $set: fields, ...(at ? {} : { $unset: { lat: true, lng: true } }) });
    if (matched) return;
    try {
      await this.entries.insertOne({ id, ...fields });
    } catch (e) {
      // The same address was answered at the same moment elsewhere; that entry is as good.
      if (!(e instanceof DuplicateKeyError)) throw e;
    }
  }
}
