/**
 * The posts collection: every post-like record. Keeps the flattened `terms` index field in step with
 * `tax`, and implements the trash bookkeeping of the reference (previous status, time, desired slug).
 */
import { Repository } from '../store/repository';
import type { Filter, Store, Update } from '../store/types';
import type { PostDoc, TrashInfo } from './types';

export class PostsRepository extends Repository<PostDoc> {
  constructor(private readonly store: Store) {
    super(store.collection<PostDoc>('posts'));
  }

  nextId(): Promise<number> {
    return this.store.nextId('posts');
  }

  /** A record of one type by id (null for a missing id or another type). */
  async ofType(id: number, type: string | string[]): Promise<PostDoc | null> {
    if (!Number.isInteger(id) || id <= 0) return null;
    const doc = await this.byId(id);
    if (!doc) return null;
    return (Array.isArray(type) ? type.includes(doc.type) : doc.type === type) ? doc : null;
  }

  byBatchKey(key: string): Promise<PostDoc | null> {
    return this.collection.findOne({ batch_key: key });
  }

  /** Inserts a new record; `terms` is derived from `tax` (whatever the caller put there). */
  async create(doc: PostDoc): Promise<PostDoc> {
    const full: PostDoc = { ...doc, terms: flattenTax(doc.tax) };
    await this.collection.insertOne(full);
    return full;
  }

  /** Sets fields (and unsets the `undefined` ones); returns the record after the change. */
  async save(id: number, changes: Partial<PostDoc>): Promise<PostDoc | null> {
    const set: Record<string, unknown> = {};
    const unset: Record<string, true> = {};
    for (const [k, v] of Object.entries(changes)) {
      if (v === undefined) unset[k] = true;
      else set[k] = v;
    }
    if (changes.tax) set.terms = flattenTax(changes.tax);
    const update: Update = {};
    if (Object.keys(set).length) update.$set = set;
    if (Object.keys(unset).length) update.$unset = unset;
    if (!update.$set && !update.$unset) return this.byId(id);
    return this.update(id, update);
  }

  /** Moves a record to the trash as the reference does; returns it after the move. */
  async trash(doc: PostDoc, now = new Date()): Promise<PostDoc> {
    const trash: TrashInfo = { status: doc.status, time: now, desired_slug: doc.slug };
    const slug = doc.slug ? `${doc.slug}__trashed` : doc.slug;
    return (await this.save(doc.id, { status: 'trash', trash, slug }))!;
  }

  /** Restores a trashed record to `status` (default: its status before the trash) and its slug. */
  async untrash(doc: PostDoc, status?: string): Promise<PostDoc> {
    const info = doc.trash;
    return (await this.save(doc.id, {
      status: status ?? info?.status ?? 'draft',
      slug: info?.desired_slug ?? doc.slug.replace(/__trashed$/, ''),
      trash: undefined,
    }))!;
  }

  count(filter: Filter): Promise<number> {
    return this.collection.count(filter);
  }
}

export function flattenTax(tax: Record<string, number[]> | undefined): number[] {
  return [...new Set(Object.values(tax ?? {}).flat())];
}
