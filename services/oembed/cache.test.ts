import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { COLLECTIONS } from '#libs/data/collections';
import { openStore } from '#libs/store/index';
import type { Store } from '#libs/store/types';
import { cacheKey, OEMBED_CACHE_COLLECTION, OembedCache } from './cache';

describe('the oEmbed cache', () => {
  let dir: string;
  let store: Store;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'oembed-cache-'));
    store = await openStore({ dataDir: dir });
    await store.ensure(COLLECTIONS);
  });
  afterAll(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('keys a lookup by its parameters, not by its format', () => {
    const base = { url: 'https://a.example/v', maxwidth: 600, discover: true };
    expect(cacheKey(base)).toMatch(/^oembed_[0-9a-f]{32}$/);
    expect(cacheKey(base)).toBe(cacheKey({ ...base }));
    expect(cacheKey(base)).not.toBe(cacheKey({ ...base, maxwidth: 500 }));
    expect(cacheKey(base)).not.toBe(cacheKey({ ...base, maxheight: 300 }));
    expect(cacheKey(base)).not.toBe(cacheKey({ ...base, discover: false }));
  });

  it('keeps an answer for a day, then forgets it and clears it out on the next write', async () => {
    let now = new Date('2030-01-01T00:00:00Z');
    const cache = new OembedCache(store, () => now);
    await cache.put('k1', { type: 'video', html: false });
    await cache.put('k1', { type: 'video', html: '<iframe></iframe>' });
    now = new Date('2030-01-01T23:59:59Z');
    expect(await cache.get('k1')).toEqual({ type: 'video', html: '<iframe></iframe>' });
    now = new Date('2030-01-02T00:00:01Z');
    expect(await cache.get('k1')).toBeNull();
    await cache.put('k2', { type: 'link' });
    expect(await store.collection(OEMBED_CACHE_COLLECTION).count({})).toBe(1);
  });
});
