/**
 * The oEmbed proxy's cache (the reference's `oembed_<md5>` transients): a provider's answer is kept
 * for a day under a key made from the lookup's parameters, so the same lookup by anyone within the day
 * makes no request to the provider. The format is not part of the key: it only changes how the same
 * data is written out. Expired entries are ignored when read and removed when the next entry is written.
 */
import { createHash } from 'node:crypto';
import { DuplicateKeyError, type Collection, type Store } from '#libs/store/types';
import type { OembedData } from './embed';

/** The reference's rest_oembed_ttl. */
export const OEMBED_TTL_SECONDS = 24 * 3600;
export const OEMBED_CACHE_COLLECTION = 'oembed_cache';

export interface LookupParams {
  url: string;
  maxwidth: number;
  maxheight?: number;
  discover: boolean;
}

interface CacheDoc extends Record<string, unknown> {
  id: string;
  expires: Date;
  data: OembedData;
}

export function cacheKey(p: LookupParams): string {
  const canonical = JSON.stringify([p.url, p.maxwidth, p.maxheight ?? null, p.discover]);
  return `oembed_${createHash('md5').update(canonical).digest('hex')}`;
}

export class OembedCache {
  private readonly entries: Collection<CacheDoc>;

  constructor(
    store: Store,
    private readonly now: () => Date = () => new Date(),
  ) {
    this.entries = store.collection<CacheDoc>(OEMBED_CACHE_COLLECTION);
  }

  async get(key: string): Promise<OembedData | null> {
    const doc = await this.entries.findOne({ id: key, expires: { $gt: this.now() } });
    return doc ? doc.data : null;
  }

  async put(key: string, data: OembedData, ttlSeconds = OEMBED_TTL_SECONDS): Promise<void> {
    const now = this.now();
    await this.entries.deleteMany({ expires: { $lte: now } });
    const expires = new Date(now.getTime() + ttlSeconds * 1000);
    const { matched } = await this.entries.updateOne({ id: key }, { $set: { data, expires } });
    if (matched) return;
    try {
      await this.entries.insertOne({ id: key, expires, data });
    } catch (e) {
      // The same lookup finished at the same moment elsewhere; its entry is as good as this one.
      if (!(e instanceof DuplicateKeyError)) throw e;
    }
  }
}
