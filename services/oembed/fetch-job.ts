/**
 * The `oembed.fetch` job, run by workers: one proxy lookup of another site. It finds the provider by
 * discovery (when allowed), asks it with the frame limits, rebuilds and sanitises the html, keeps the
 * answer in the cache for a day and returns it. A lookup that cannot succeed (no provider, a refused
 * address, an unusable answer) completes with `data: null`; a provider that is down or slow throws, so
 * the queue tries once more.
 */
import type { Config } from '#libs/config/env';
import { logger } from '#libs/observability/logger';
import { UnrecoverableError } from '#libs/queue/index';
import type { JobHandler } from '#libs/queue/types';
import type { Store } from '#libs/store/types';
import { cacheKey, OembedCache, type LookupParams } from './cache';
import type { OembedData } from './embed';
import { discoverEndpoint, fetchFromProvider, fetchPolicy, proxyAnswer } from './provider';
import { RefusedError } from '#libs/net/outbound';
import { isRecord } from '#libs/rest/args';

export interface FetchResult {
  data: OembedData | null;
  /** Why there is no data, for the logs. */
  reason?: string;
}

/** Job data arrives as parsed JSON; take only a well-formed lookup. */
export function readLookup(data: unknown): LookupParams {
  const d = isRecord(data) ? data : {};
  const int = (v: unknown): v is number => typeof v === 'number' && Number.isInteger(v) && v >= 0;
  if (
    typeof d.url !== 'string' ||
    !int(d.maxwidth) ||
    (d.maxheight !== undefined && d.maxheight !== null && !int(d.maxheight)) ||
    typeof d.discover !== 'boolean'
  ) {
    throw new UnrecoverableError('oembed.fetch: malformed job data');
  }
  return { url: d.url, maxwidth: d.maxwidth, ...(typeof d.maxheight === 'number' ? { maxheight: d.maxheight } : {}), discover: d.discover };
}

export function oembedFetchHandler(deps: { store: Store; config: Pick<Config, 'OUTBOUND_ALLOW_HOSTS'> }): JobHandler<unknown, FetchResult> {
  const cache = new OembedCache(deps.store);
  const policy = fetchPolicy(deps.config.OUTBOUND_ALLOW_HOSTS);
  const log = logger.child({ component: 'oembed' });
  return async (data) => {
    const lookup = readLookup(data);
    const key = cacheKey(lookup);
    // The same lookup may have finished while this job waited.
    const cached = await cache.get(key);
    if (cached) return { data: cached };
    try {
      // Without a list of sanctioned providers, discovery is the only way to find one.
      const endpoint = lookup.discover ? await discoverEndpoint(lookup.url, policy) : null;
      if (!endpoint) return { data: null, reason: lookup.discover ? 'the page announces no oEmbed endpoint' : 'no sanctioned provider and discovery is off' };
      const answer = proxyAnswer(await fetchFromProvider(endpoint, lookup, policy), lookup.url);
      await cache.put(key, answer);
      return { data: answer };
    } catch (e) {
      if (e instanceof RefusedError) {
        log.info({ url: lookup.url, reason: e.message }, 'oEmbed lookup refused');
        return { data: null, reason: e.message };
      }
      throw e;
    }
  };
}
