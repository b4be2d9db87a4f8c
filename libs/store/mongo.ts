/**
 * The cluster store: the port's query language handed to MongoDB through the official driver.
 *
 * Filters are validated with the same rules as the SQLite adapter (query.ts) and rebuilt from the
 * validated tree, so nothing outside the port's language (`$where`, `$regex`, `$expr`, ...) reaches the
 * server. `_id` stays inside: documents get driver-generated ObjectIds and every read projects it out.
 */
import {
  MongoClient,
  type Collection as MongoDriverCollection,
  type CreateIndexesOptions,
  type Db,
  type Document,
  type Filter as MongoFilter,
  type Sort,
} from 'mongodb';
import { WriteGenerations } from './generations';
import { assertCollectionName, assertPath, COUNTERS, escapeRegExp, isObject, normalizeFilter, normalizeWindow, validateUpdate } from './query';
import type { Cond } from './query';
import {
  DuplicateKeyError,
  type Collection,
  type CollectionSpec,
  type Doc,
  type Filter,
  type FindOptions,
  type Scalar,
  type Store,
  type Update,
  type UpdateResult,
} from './types';

const MONGO_OP: Record<string, string> = {
  eq: '$eq',
  ne: '$ne',
  in: '$in',
  nin: '$nin',
  gt: '$gt',
  gte: '$gte',
  lt: '$lt',
  lte: '$lte',
  exists: '$exists',
};

function toMongo(c: Cond): Document {
  if (c.kind === 'and') {
    if (c.items.length === 0) return {};
    return c.items.length === 1 ? toMongo(c.items[0]) : { $and: c.items.map(toMongo) };
  }
  if (c.kind === 'or') return { $or: c.items.map(toMongo) };
  if (c.op === 'icontains') return { [c.path]: { $regex: escapeRegExp(c.value), $options: 'i' } };
  return { [c.path]: { [MONGO_OP[c.op]]: c.value } };
}

/** A port update as the driver takes it (its own update type has no null operand for $pull). */
function toMongoUpdate(update: Update): Document {
  return update;
}

/** Validates a port filter and returns the equivalent MongoDB filter. */
export function toMongoFilter(filter: Filter): MongoFilter<Document> {
  return toMongo(normalizeFilter(filter));
}

function toSort(sort: FindOptions['sort']): Sort | undefined {
  if (!sort || sort.length === 0) return undefined;
  const out: Array<[string, 1 | -1]> = [];
  for (const [p, dir] of sort) {
    assertPath(p);
    if (dir !== 1 && dir !== -1) throw new Error(`sort direction for ${p} must be 1 or -1`);
    out.push([p, dir]);
  }
  // _id (insertion order) breaks ties, so paging is stable; same rule as the SQLite adapter.
  out.push(['_id', sort[sort.length - 1][1]]);
  return out;
}

function projection(fields: string[] | undefined): Document {
  if (!fields) return { _id: 0 };
  const p: Document = { _id: 0, id: 1 };
  for (const f of fields) p[assertPath(f)] = 1;
  return p;
}

/** The key names of the index a duplicate-key error names, from whatever detail the server gave. */
function duplicateKeys(e: Record<string, unknown>): string[] {
  const keyPattern = (holder: unknown) => (isObject(holder) && isObject(holder.keyPattern) ? holder.keyPattern : undefined);
  const firstWrite = Array.isArray(e.writeErrors) ? e.writeErrors[0] : undefined;
  const pattern = keyPattern(e) ?? keyPattern(e.errorResponse) ?? keyPattern(isObject(firstWrite) ? firstWrite.err : undefined);
  if (pattern) return Object.keys(pattern);
  const msg = String(e.errmsg ?? e.message ?? '');
  const m = /index: (\S+) dup key/.exec(msg);
  // Default index names are "<key>_<dir>" joined by "_": "slug_1_type_1".
  return m ? m[1].split(/_-?1(?:_|$)/).filter(Boolean) : [];
}

function isDuplicate(e: unknown): e is Record<string, unknown> {
  if (!isObject(e)) return false;
  const firstWrite = Array.isArray(e.writeErrors) ? e.writeErrors[0] : undefined;
  return e.code === 11000 || (isObject(firstWrite) && firstWrite.code === 11000);
}

/** Turns a duplicate-key failure into the port's DuplicateKeyError; other errors pass unchanged. */
export function mapError(e: unknown, collection: string): unknown {
  if (isDuplicate(e)) return new DuplicateKeyError(collection, duplicateKeys(e));
  return e;
}

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

class MongoCollection<T extends Doc> implements Collection<T> {
  constructor(
    private readonly db: Db,
    readonly name: string,
    private readonly generations: WriteGenerations,
  ) {}

  private get c() {
    return this.db.collection(this.name);
  }

  async find(filter: Filter, window: FindOptions = {}): Promise<T[]> {
    const options = normalizeWindow(window);
    // The driver's generic result type is the boundary of this store's document types: a stored document
    // becomes the T its collection was asked for (nothing checks it against T at run time).
    return await this.c
      .find<T>(toMongoFilter(filter), {
        projection: projection(options.fields),
        sort: toSort(options.sort),
        skip: options.skip || undefined,
        limit: options.limit || undefined,
      })
      .toArray();
  }

  async findOne(filter: Filter, window: Omit<FindOptions, 'limit'> = {}): Promise<T | null> {
    const options = normalizeWindow(window);
    return await this.c.findOne<T>(toMongoFilter(filter), {
      projection: projection(options.fields),
      sort: toSort(options.sort),
      skip: options.skip || undefined,
    });
  }

  async count(filter: Filter): Promise<number> {
    return this.c.countDocuments(toMongoFilter(filter));
  }

  async distinct(path: string, filter: Filter): Promise<Scalar[]> {
    return await this.c.distinct(assertPath(path), toMongoFilter(filter));
  }

  insertOne(doc: T): Promise<void> {
    return this.generations.around(this.name, () => this.insertOneNow(doc));
  }

  private async insertOneNow(doc: T): Promise<void> {
    try {
      // A copy, because the driver writes the generated _id into the object it is given.
      await this.c.insertOne({ ...doc });
    } catch (e) {
      throw mapError(e, this.name);
    }
  }

  insertMany(docs: T[]): Promise<void> {
    return this.generations.around(this.name, () => this.insertManyNow(docs));
  }

  private async insertManyNow(docs: T[]): Promise<void> {
    if (docs.length === 0) return;
    const copies: Document[] = docs.map((d) => ({ ...d }));
    try {
      await this.c.insertMany(copies, { ordered: true });
    } catch (e) {
      // MongoDB has no multi-document atomicity without a replica-set transaction; undo the part that
      // landed so the port's "all or none" holds. The ids are ours, generated by the driver on the copies.
      const ids = copies.map((d) => d._id).filter((id) => id !== undefined);
      if (ids.length > 0) await this.c.deleteMany({ _id: { $in: ids } }).catch(() => undefined);
      throw mapError(e, this.name);
    }
  }

  updateOne(filter: Filter, update: Update): Promise<UpdateResult> {
    return this.generations.around(this.name, () => this.updateOneNow(filter, update));
  }

  private async updateOneNow(filter: Filter, update: Update): Promise<UpdateResult> {
    validateUpdate(update);
    try {
      const r = await this.c.updateOne(toMongoFilter(filter), toMongoUpdate(update));
      return { matched: r.matchedCount, modified: r.modifiedCount };
    } catch (e) {
      throw mapError(e, this.name);
    }
  }

  updateMany(filter: Filter, update: Update): Promise<UpdateResult> {
    return this.generations.around(this.name, () => this.updateManyNow(filter, update));
  }

  private async updateManyNow(filter: Filter, update: Update): Promise<UpdateResult> {
    validateUpdate(update);
    try {
      const r = await this.c.updateMany(toMongoFilter(filter), toMongoUpdate(update));
      return { matched: r.matchedCount, modified: r.modifiedCount };
    } catch (e) {
      throw mapError(e, this.name);
    }
  }

  findOneAndUpdate(filter: Filter, update: Update): Promise<T | null> {
    return this.generations.around(this.name, () => this.findOneAndUpdateNow(filter, update));
  }

  private async findOneAndUpdateNow(filter: Filter, update: Update): Promise<T | null> {
    validateUpdate(update);
    try {
      const doc = await this.c.findOneAndUpdate(toMongoFilter(filter), toMongoUpdate(update), {
        returnDocument: 'after',
        projection: { _id: 0 },
        includeResultMetadata: false,
      });
      // The same boundary as find's (findOneAndUpdate has no generic result type): the stored document as T.
      return doc as T | null;
    } catch (e) {
      throw mapError(e, this.name);
    }
  }

  deleteOne(filter: Filter): Promise<number> {
    return this.generations.around(this.name, () => this.deleteOneNow(filter));
  }

  private async deleteOneNow(filter: Filter): Promise<number> {
    return (await this.c.deleteOne(toMongoFilter(filter))).deletedCount;
  }

  deleteMany(filter: Filter): Promise<number> {
    return this.generations.around(this.name, () => this.deleteManyNow(filter));
  }

  private async deleteManyNow(filter: Filter): Promise<number> {
    return (await this.c.deleteMany(toMongoFilter(filter))).deletedCount;
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

  /** MongoDB tells a client nothing of other clients' writes without a change stream. */
  foreignWrites(): null {
    return null;
  }

  constructor(
    readonly client: MongoClient,
    readonly db: Db,
  ) {}

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
    return new MongoStore(client, client.db(name));
  }

  collection<T extends Doc = Doc>(name: string): Collection<T> {
    // A collection is its name and this store's handles (no state of its own), so each call makes one, typed as asked.
    return new MongoCollection<T>(this.db, assertCollectionName(name), this.generations);
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
        await createOrReplaceIndex(c, spec.name, keys, { ...(ix.unique ? { unique: true } : {}), ...(ix.sparse ? { sparse: true } : {}) });
      }
      // Array fields get an ordinary (multikey) index unless a declared index already starts with them.
      for (const f of Object.keys(spec.arrays ?? {})) {
        if (!leading.has(f)) await c.createIndex({ [assertPath(f)]: 1 });
      }
    }
  }

  async ping(): Promise<void> {
    await this.db.command({ ping: 1 });
  }

  async close(): Promise<void> {
    await this.client.close();
  }
}

export function openMongoStore(opts: MongoStoreOptions): Promise<MongoStore> {
  return MongoStore.connect(opts);
}
