/**
 * Makes the store's collections and indexes (libs/data/collections.ts), with the data repairs a new
 * unique index needs on a store written before it: user slugs were not unique before, so duplicates
 * are renamed by the reference's rule (libs/auth/nicename.ts) and the index made again.
 */
import { renameDuplicateSlugs } from '../auth/nicename';
import { logger } from '../observability/logger';
import { DuplicateKeyError, type Store } from '../store/types';
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
}
