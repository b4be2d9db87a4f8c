/**
 * The base of every domain repository: the one place services touch the store. It wraps one
 * collection and adds the few shapes every resource needs (by id, by ids, a counted page); domain
 * repositories extend it with their own queries and writes through `collection`, which only they can
 * reach. Anyone may read with their own filters (find, findOne, count, distinct); every write goes
 * through a method of the repository that says what it keeps true.
 */
import type { Collection, Doc, Filter, FindOptions, ReadableCollection, Scalar, SortSpec, Update } from './types';
import { windowSkip } from './query';

export type Id = string | number;

export interface ListOptions {
  /** 1-based page number (default 1). */
  page?: number;
  /** Page size (default 10). */
  perPage?: number;
  sort?: SortSpec;
  /** Top-level fields to return (plus `id`). */
  fields?: string[];
}

export interface ListResult<T> {
  items: T[];
  /** Number of documents matching the filter, across all pages. */
  total: number;
}

export class Repository<T extends Doc & { id: Id }> implements ReadableCollection<T> {
  constructor(protected readonly collection: Collection<T>) {}

  /** The collection's name (what the store's write generations and the read caches key on). */
  get name(): string {
    return this.collection.name;
  }

  find(filter: Filter, options?: FindOptions): Promise<T[]> {
    return this.collection.find(filter, options);
  }

  findOne(filter: Filter, options?: Omit<FindOptions, 'limit'>): Promise<T | null> {
    return this.collection.findOne(filter, options);
  }

  count(filter: Filter): Promise<number> {
    return this.collection.count(filter);
  }

  /** Distinct values of one field among matching documents (array fields contribute each element). */
  distinct(path: string, filter: Filter): Promise<Scalar[]> {
    return this.collection.distinct(path, filter);
  }

  byId(id: T['id']): Promise<T | null> {
    return this.collection.findOne({ id });
  }

  /** Loads many documents in one query; the map holds only the ids that exist. */
  async byIds(ids: Iterable<T['id']>): Promise<Map<T['id'], T>> {
    const unique = [...new Set(ids)];
    const map = new Map<T['id'], T>();
    if (unique.length === 0) return map;
    for (const doc of await this.collection.find({ id: { $in: unique } })) map.set(doc.id, doc);
    return map;
  }

  /** One page plus the total; the count query runs only when the page alone cannot tell the total. */
  async list(filter: Filter, options: ListOptions = {}): Promise<ListResult<T>> {
    const page = Math.max(1, Math.floor(options.page ?? 1));
    const perPage = Math.max(1, Math.floor(options.perPage ?? 10));
    const skip = windowSkip((page - 1) * perPage);
    const items = await this.collection.find(filter, { sort: options.sort, skip, limit: perPage, fields: options.fields });
    // A short, non-empty page (or an empty first page) is the last one, so it fixes the total.
    if (items.length < perPage && (items.length > 0 || page === 1)) return { items, total: skip + items.length };
    return { items, total: await this.collection.count(filter) };
  }

  async insert(doc: T): Promise<T> {
    await this.collection.insertOne(doc);
    return doc;
  }

  /** Applies `update` and returns the document after it, or null when no document has this id. */
  update(id: T['id'], update: Update): Promise<T | null> {
    return this.collection.findOneAndUpdate({ id }, update);
  }

  /** Deletes the document; true when it existed. */
  async remove(id: T['id']): Promise<boolean> {
    return (await this.collection.deleteOne({ id })) > 0;
  }
}
