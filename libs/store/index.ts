/**
 * The store port's entry point: `openStore` picks MongoDB when a URL is configured, else the embedded
 * SQLite store under `dataDir`. Adapters load lazily, so a cluster pod never loads the native SQLite
 * module and the all-in-one process never loads the MongoDB driver.
 */
import type { Store } from './types';

export * from './types';
export { Repository } from './repository';
export type { ListOptions, ListResult, Id } from './repository';

export interface OpenStoreOptions {
  /** MongoDB connection string; when set, MongoDB is the store. */
  mongoUrl?: string;
  /** MongoDB database name (default: the URL's, else `ecs`). */
  mongoDb?: string;
  /** Folder of the embedded store's `store.sqlite`; `:memory:` for a throwaway in-memory store. */
  dataDir: string;
}

export async function openStore(opts: OpenStoreOptions): Promise<Store> {
  if (opts.mongoUrl) {
    const { MongoStore } = await import('./mongo');
    return MongoStore.connect({ url: opts.mongoUrl, db: opts.mongoDb });
  }
  const { SqliteStore } = await import('./sqlite');
  return new SqliteStore({ dataDir: opts.dataDir });
}
