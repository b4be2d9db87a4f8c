/**
 * The cluster store: the port's query language handed to MongoDB through the official driver.
 *
 * Filters are validated with the same rules as the SQLite adapter (query.ts) and rebuilt from the
 * validated tree, so nothing outside the port's language (`$where`, `$regex`, `$expr`, ...) reaches the
 * server. `_id` stays inside: documents get driver-generated ObjectIds and every read projects it out.
 */
import { MongoClient, type Collection as MongoDriverCollection, type CreateIndexesOptions, type Db, type Document } from 'mongodb';
import { WriteGenerations } from './generations';
import { isDuplicate, mapError, MongoCollection } from './mongo-collection';
import { MongoUnits, unitModeOf, type UnitMode } from './mongo-unit';
import { assertCollectionName, assertPath, COUNTERS, isObject } from './query';
import type { Collection, CollectionSpec, Doc, Store } from './types';

export { mapError, toMongoFilter } from './mongo-collection';

/** The server's codes for an index that exists on the same keys or name with other options. */
const INDEX_CONFLICTS = new Set([85, 86]);

/**
 * Creates an index; one declared earlier on the same keys with other options (an index made unique
 * replaces the plain one) is dropped and made again. Existing duplicates of a unique index's keys are
 * reported as the port's DuplicateKeyError.
 */
async function createOrReplaceIndex(c: MongoDriverCollection, collection: string, keys: Document, options: CreateIndexesOptions): Promise<void> {
  try {
    await c.createIndex(keys, options);
  } catch (e) {
    if (!(isObject(e) && INDEX_CONFLICTS.has(Number(e.code)))) throw mapError(e, collection);
    const wanted = JSON.stringify(keys);
    for (const existing of await c.listIndexes().toArray()) {
      if (JSON.stringify(existing.key) === wanted && typeof existing.name === 'string') await c.dropIndex(existing.name);
    }
    try {
      await c.createIndex(keys, options);
    } catch (again) {
      throw mapError(again, collection);
    }
  }
}

/** Drops the indexes on a retired declaration's keys (CollectionSpec.retired), under any options, unless a declared index has the same keys. */
async function dropRetired(c: MongoDriverCollection, spec: CollectionSpec): Promise<void> {
  if (!spec.retired?.length) return;
  const keyText = (keys: string[]) => JSON.stringify(Object.fromEntries(keys.map((k) => [assertPath(k), 1])));
  const declared = new Set((spec.indexes ?? []).map((ix) => keyText(ix.keys)));
  const retired = new Set(spec.retired.map((ix) => keyText(ix.keys)).filter((k) => !declared.has(k)));
  for (const existing of await c.listIndexes().toArray()) {
    if (typeof existing.name === 'string' && retired.has(JSON.stringify(existing.key))) await c.dropIndex(existing.name);
  }
}

export interface MongoStoreOptions {
  url: string;
  /** Database name; defaults to the one in the URL, else `ecs`. */
  db?: string;
}

/**
 * How long an operation waits for a reachable server before it fails with MongoServerSelectionError,
 * which the REST layer answers with 503 and Retry-After: while the store is down, requests fail within
 * this bound instead of hanging; once it is back, the driver reconnects by itself.
 */
export const STORE_WAIT_MS = 3_000;
/** How long start-up keeps trying to reach the server. */
const STARTUP_WAIT_MS = 30_000;

export class MongoStore implements Store {
  readonly kind = 'mongo' as const;
  private countersReady: Promise<void> | null = null;

  readonly generations = new WriteGenerations();
  /** Units of work: transactions on a replica set or sharded cluster, compensation on a standalone server (mongo-unit.ts). */
  readonly units: MongoUnits;

  /** MongoDB tells a client nothing of other clients' writes without a change stream. */
  foreignWrites(): null {
    return null;
  }

  constructor(
    readonly client: MongoClient,
    readonly db: Db,
    unitMode: UnitMode,
  ) {
    this.units = new MongoUnits(client, db, unitMode, this.generations);
  }

  get unitMode(): UnitMode {
    return this.units.mode;
  }

  unit<R>(work: () => Promise<R>): Promise<R> {
    return this.units.run(work);
  }

  static async connect(opts: MongoStoreOptions): Promise<MongoStore> {
    // undefined values are dropped, as JSON.stringify drops them in the SQLite store.
    const client = new MongoClient(opts.url, { ignoreUndefined: true, serverSelectionTimeoutMS: STORE_WAIT_MS });
    // At start-up the server may still be coming up: keep trying for a while before giving up.
    const deadline = Date.now() + STARTUP_WAIT_MS;
    for (;;) {
      try {
        await client.connect();
        break;
      } catch (e) {
        if (Date.now() + STORE_WAIT_MS > deadline || (isObject(e) ? e.name : undefined) !== 'MongoServerSelectionError') {
          await client.close().catch(() => undefined);
          throw e;
        }
      }
    }
    const fromUrl = client.options.dbName;
    const name = opts.db ?? (fromUrl && fromUrl !== 'test' ? fromUrl : 'ecs');
    const db = client.db(name);
    const store = new MongoStore(client, db, await unitModeOf(db));
    await store.units.start();
    return store;
  }

  collection<T extends Doc = Doc>(name: string): Collection<T> {
    // A collection is its name and this store's handles (no state of its own), so each call makes one, typed as asked.
    return new MongoCollection<T>(this.db, assertCollectionName(name), this.generations, this.units);
  }

  private ensureCounters(): Promise<void> {
    // Counters are keyed by a `name` field, not _id: some MongoDB-compatible test servers insist on ObjectId ids.
    this.countersReady ??= this.db
      .collection(COUNTERS)
      .createIndex({ name: 1 }, { unique: true })
      .then(() => undefined)
      .catch((e) => {
        this.countersReady = null;
        throw e;
      });
    return this.countersReady;
  }

  async nextId(counter: string, count = 1): Promise<number> {
    if (!Number.isInteger(count) || count < 1) throw new Error('nextId count must be a positive integer');
    await this.ensureCounters();
    for (let attempt = 0; ; attempt++) {
      try {
        const doc = await this.db
          .collection<{ name: string; seq: number }>(COUNTERS)
          .findOneAndUpdate(
            { name: counter },
            { $inc: { seq: count } },
            { upsert: true, returnDocument: 'after', projection: { _id: 0, seq: 1 }, includeResultMetadata: false },
          );
        return doc!.seq - count + 1;
      } catch (e) {
        // Two first-ever upserts of one counter can race; the unique index rejects one, which then retries.
        if (!isDuplicate(e) || attempt >= 3) throw e;
      }
    }
  }

  async ensure(specs: CollectionSpec[]): Promise<void> {
    await this.ensureCounters();
    for (const spec of specs) {
      const c = this.db.collection(assertCollectionName(spec.name));
      const leading = new Set<string>();
      for (const ix of spec.indexes ?? []) {
        if (!Array.isArray(ix.keys) || ix.keys.length === 0) throw new Error(`${spec.name}: an index needs keys`);
        const keys: Document = {};
        for (const k of ix.keys) keys[assertPath(k)] = 1;
        leading.add(ix.keys[0]);
        // Options only when set, so re-running ensure() matches the existing index exactly.
        await createOrReplaceIndex(c, spec.name, keys, {
          ...(ix.unique ? { unique: true } : {}),
          ...(ix.sparse ? { sparse: true } : {}),
          ...(ix.partial ? { partialFilterExpression: { ...ix.partial } } : {}),
        });
      }
      // Array fields get an ordinary (multikey) index unless a declared index already starts with them.
      for (const f of Object.keys(spec.arrays ?? {})) {
        if (!leading.has(f)) await c.createIndex({ [assertPath(f)]: 1 });
      }
      await dropRetired(c, spec);
    }
  }

  async ping(): Promise<void> {
    await this.db.command({ ping: 1 });
  }

  async close(): Promise<void> {
    this.units.stop();
    await this.client.close();
  }
}

export function openMongoStore(opts: MongoStoreOptions): Promise<MongoStore> {
  return MongoStore.connect(opts);
}
