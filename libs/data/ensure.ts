/**
 * Makes the store's collections and indexes (libs/data/collections.ts), with the data repairs a new
 * unique index needs on a store written before it: user slugs were not unique before, so duplicates
 * are renamed by the reference's rule (libs/auth/nicename.ts) and the index made again. Venues stored
 * with coordinates before their index fields existed get them (libs/calendar/meta.ts venueIndex).
 */
import { renameDuplicateSlugs } from '../auth/nicename';
import { logger } from '../observability/logger';
import { DuplicateKeyError, type Store } from '../store/types';
import { VENUE_META, VENUE_TYPE, venueIndex } from '../calendar/meta';
import { COLLECTIONS } from './collections';

export async function ensureCollections(store: Store): Promise<void> {
  try {
    await store.ensure(COLLECTIONS);
  } catch (e) {
    if (!(e instanceof DuplicateKeyError && e.collection === 'users' && e.keys.includes('slug'))) throw e;
    const renamed = await renameDuplicateSlugs(store.collection('users'));
    logger.warn({ renamed }, 'users sharing a slug were given unique slugs');
    await store.ensure(COLLECTIONS);
  }
  await indexVenueCoordinates(store);
}

/**
 * Gives the venues whose meta holds coordinates but whose index fields were never derived (stored
 * before them) their `venue_lat`/`venue_lng`. Once done the query finds nothing, so later starts pay one
 * indexed read.
 */
export async function indexVenueCoordinates(store: Store): Promise<number> {
  const posts = store.collection('posts');
  const pending = await posts.find(
    { type: VENUE_TYPE, venue_lat: { $exists: false }, [`meta.${VENUE_META.lat}`]: { $exists: true } },
    { fields: ['id', 'meta'] },
  );
  let done = 0;
  for (const v of pending) {
    const index = venueIndex((v.meta ?? {}) as Record<string, unknown>);
    // Out-of-range coordinates index as null, which also marks the venue as seen.
    await posts.updateOne({ id: Number(v.id) }, { $set: { ...index } });
    done++;
  }
  if (done) logger.info({ venues: done }, 'venue coordinates indexed');
  return done;
}
