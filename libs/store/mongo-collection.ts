/**
 * A collection of the MongoDB store: the port's filters, sorts and updates handed to the driver, and
 * duplicate-key failures turned into the port's DuplicateKeyError. Every operation made inside a unit of
 * work carries the unit's session (transaction mode) or records its inserts first (compensation mode):
 * mongo-unit.ts.
 */
import type { Db, Document, Filter as MongoFilter, Sort } from 'mongodb';
import type { WriteGenerations } from './generations';
import type { MongoUnits } from './mongo-unit';
import { assertPath, escapeRegExp, isObject, normalizeFilter, normalizeWindow, validateUpdate } from './query';
import type { Cond } from './query';
import { DuplicateKeyError, type Collection, type Doc, type Filter, type FindOptions, type Scalar, type Update, type UpdateResult } from './types';

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

export function isDuplicate(e: unknown): e is Record<string, unknown> {
  if (!isObject(e)) return false;
  const firstWrite = Array.isArray(e.writeErrors) ? e.writeErrors[0] : undefined;
  return e.code === 11000 || (isObject(firstWrite) && firstWrite.code === 11000);
}

/** Turns a duplicate-key failure into the port's DuplicateKeyError; other errors pass unchanged. */
export function mapError(e: unknown, collection: string): unknown {
  if (isDuplicate(e)) return new DuplicateKeyError(collection, duplicateKeys(e));
  return e;
}

export class MongoCollection<T extends Doc> implements Collection<T> {
  constructor(
    private readonly db: Db,
    readonly name: string,
    private readonly generations: WriteGenerations,
    private readonly units: MongoUnits,
  ) {}

  private get c() {
    return this.db.collection(this.name);
  }

  /** Runs a write, marking the collection's generation around it and noting it for the caller's unit of work; `insertOnly` for an insert. */
  private write<R>(op: () => Promise<R>, insertOnly = false): Promise<R> {
    this.units.touch(this.name, insertOnly);
    return this.generations.around(this.name, op, insertOnly);
  }

  /** Runs an update or delete as `write` does; in a compensated unit the first one commits the unit's inserts (mongo-unit.ts). */
  private change<R>(op: () => Promise<R>): Promise<R> {
    return this.write(() => this.units.change(op));
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
        ...this.units.options(),
      })
      .toArray();
  }

  async findOne(filter: Filter, window: Omit<FindOptions, 'limit'> = {}): Promise<T | null> {
    const options = normalizeWindow(window);
    return await this.c.findOne<T>(toMongoFilter(filter), {
      projection: projection(options.fields),
      sort: toSort(options.sort),
      skip: options.skip || undefined,
      ...this.units.options(),
    });
  }

  async count(filter: Filter): Promise<number> {
    return this.c.countDocuments(toMongoFilter(filter), this.units.options());
  }

  async distinct(path: string, filter: Filter): Promise<Scalar[]> {
    return await this.c.distinct(assertPath(path), toMongoFilter(filter), this.units.options());
  }

  insertOne(doc: T): Promise<void> {
    return this.write(() => this.insertOneNow(doc), true);
  }

  private async insertOneNow(doc: T): Promise<void> {
    try {
      // A copy, because the driver (or a compensated unit of work) writes the _id into the object it is given.
      const copy: Document = { ...doc };
      await this.units.beforeInsert(this.name, [copy]);
      await this.c.insertOne(copy, this.units.options());
    } catch (e) {
      throw mapError(e, this.name);
    }
  }

  insertMany(docs: T[]): Promise<void> {
    return this.write(() => this.insertManyNow(docs), true);
  }

  private async insertManyNow(docs: T[]): Promise<void> {
    if (docs.length === 0) return;
    const copies: Document[] = docs.map((d) => ({ ...d }));
    try {
      await this.units.beforeInsert(this.name, copies);
      await this.c.insertMany(copies, { ordered: true, ...this.units.options() });
    } catch (e) {
      // MongoDB has no multi-document atomicity without a replica-set transaction; undo the part that
      // landed so the port's "all or none" holds. The ids are ours, generated by the driver on the copies.
      const ids = copies.map((d) => d._id).filter((id) => id !== undefined);
      if (ids.length > 0) await this.c.deleteMany({ _id: { $in: ids } }, this.units.options()).catch(() => undefined);
      throw mapError(e, this.name);
    }
  }

  updateOne(filter: Filter, update: Update): Promise<UpdateResult> {
    return this.change(() => this.updateOneNow(filter, update));
  }

  private async updateOneNow(filter: Filter, update: Update): Promise<UpdateResult> {
    validateUpdate(update);
    try {
      const r = await this.c.updateOne(toMongoFilter(filter), toMongoUpdate(update), this.units.options());
      return { matched: r.matchedCount, modified: r.modifiedCount };
    } catch (e) {
      throw mapError(e, this.name);
    }
  }

  updateMany(filter: Filter, update: Update): Promise<UpdateResult> {
    return this.change(() => this.updateManyNow(filter, update));
  }

  private async updateManyNow(filter: Filter, update: Update): Promise<UpdateResult> {
    validateUpdate(update);
    try {
      const r = await this.c.updateMany(toMongoFilter(filter), toMongoUpdate(update), this.units.options());
      return { matched: r.matchedCount, modified: r.modifiedCount };
    } catch (e) {
      throw mapError(e, this.name);
    }
  }

  findOneAndUpdate(filter: Filter, update: Update): Promise<T | null> {
    return this.change(() => this.findOneAndUpdateNow(filter, update));
  }

  private async findOneAndUpdateNow(filter: Filter, update: Update): Promise<T | null> {
    validateUpdate(update);
    try {
      const doc = await this.c.findOneAndUpdate(toMongoFilter(filter), toMongoUpdate(update), {
        returnDocument: 'after',
        projection: { _id: 0 },
        includeResultMetadata: false,
        ...this.units.options(),
      });
      // The same boundary as find's (findOneAndUpdate has no generic result type): the stored document as T.
      return doc as T | null;
    } catch (e) {
      throw mapError(e, this.name);
    }
  }

  deleteOne(filter: Filter): Promise<number> {
    return this.change(() => this.deleteOneNow(filter));
  }

  private async deleteOneNow(filter: Filter): Promise<number> {
    return (await this.c.deleteOne(toMongoFilter(filter), this.units.options())).deletedCount;
  }

  deleteMany(filter: Filter): Promise<number> {
    return this.change(() => this.deleteManyNow(filter));
  }

  private async deleteManyNow(filter: Filter): Promise<number> {
    return (await this.c.deleteMany(toMongoFilter(filter), this.units.options())).deletedCount;
  }
}
