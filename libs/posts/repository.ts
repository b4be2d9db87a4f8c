/**
 * The posts collection: every post-like record. Keeps the flattened `terms` index field in step with
 * `tax`, and implements the trash bookkeeping of the reference (previous status, time, desired slug).
 */
import { Repository } from '../store/repository';
import type { FieldCondition, Filter, Store, Update } from '../store/types';
import { assignSlugs, needsCandidates, type SlugScope } from './slug';
import { unlinkFromEvents } from '../calendar/meta';
import type { PostDoc, TrashInfo } from './types';

export class PostsRepository extends Repository<PostDoc> {
  constructor(private readonly store: Store) {
    super(store.collection<PostDoc>('posts'));
  }

  nextId(): Promise<number> {
    return this.store.nextId('posts');
  }

  /** A free slug for a wanted one (see uniqueSlugs). */
  async uniqueSlug(wanted: string, scope: SlugScope): Promise<string> {
    return (await this.uniqueSlugs([wanted], scope))[0];
  }

  /**
   * Free slugs for wanted ones, in order, by the rule of assignSlugs (libs/posts/slug.ts), among the
   * records of the scope's type (and parent, for hierarchical types), the record itself excepted. One
   * query finds which wanted slugs are in use, then one index range per slug that needs its `slug-N`
   * candidates (a single slug goes straight to its range): slugs hold only [a-z0-9_-], and of those only
   * '-' sorts before '.', so a slug and its candidates are one range.
   */
  async uniqueSlugs(wanted: readonly string[], scope: SlugScope): Promise<string[]> {
    const bases = [...new Set(wanted.filter(Boolean))];
    const taken = new Set<string>();
    const filter: Filter = { type: scope.type };
    if (scope.hierarchical) filter.parent = scope.parent ?? 0;
    const load = async (slug: FieldCondition) => {
      for (const r of await this.collection.find({ ...filter, slug }, { fields: ['slug'] })) if (r.id !== scope.selfId) taken.add(String(r.slug));
    };
    const range = (base: string) => load({ $gte: base, $lt: `${base}.` });
    if (bases.length === 1) await range(bases[0]);
    else if (bases.length > 1) {
      await load({ $in: bases });
      const repeated = new Set(wanted.filter((w, i) => w && wanted.indexOf(w) !== i));
      for (const base of bases) if (needsCandidates(base, taken, scope, repeated.has(base))) await range(base);
    }
    return assignSlugs(wanted, taken, scope);
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

  /** Inserts many new records, all or none; `terms` is derived from `tax` (whatever the callers put there). */
  async createMany(docs: PostDoc[]): Promise<void> {
    await this.collection.insertMany(docs.map((doc) => ({ ...doc, terms: flattenTax(doc.tax) })));
  }

  /**
   * Sets fields (dotted paths allowed) in one write that returns nothing, for bookkeeping that needs no
   * record back (an import run's progress). Terms change only through save, which keeps `terms` in step.
   */
  async setFields(id: number, set: Record<string, unknown>): Promise<void> {
    if (Object.keys(set).some((k) => k === 'tax' || k === 'terms' || k.startsWith('tax.'))) throw new Error('terms change through save');
    await this.collection.updateOne({ id }, { $set: set });
  }

  /**
   * A compare-and-set: applies `update` to the record only while it still matches `condition`; returns
   * the record after the change, or null when it no longer matches (another writer moved it on first).
   */
  updateWhile(id: number, condition: Filter, update: Update): Promise<PostDoc | null> {
    return this.collection.findOneAndUpdate({ id, ...condition }, update);
  }

  /** Sets the status of many records in one write (their term counts are the caller's to move). */
  async setStatus(ids: number[], status: string): Promise<void> {
    await this.collection.updateMany({ id: { $in: ids } }, { $set: { status } });
  }

  /**
   * wp_delete_post's reparenting: a deleted page's child pages, and any deleted record's attachments,
   * move up to its parent (attachments of a post become unattached).
   */
  async reparentChildren(post: PostDoc): Promise<void> {
    if (post.type === 'page') await this.collection.updateMany({ parent: post.id, type: 'page' }, { $set: { parent: post.parent } });
    await this.collection.updateMany({ parent: post.id, type: 'attachment' }, { $set: { parent: post.parent } });
  }

  /** A record's revisions and autosaves go with it (a permanent delete). */
  async deleteRevisions(parentId: number): Promise<void> {
    await this.collection.deleteMany({ parent: parentId, type: 'revision' });
  }

  /** Records of one type under a parent go with it (an import source's runs). */
  async deleteChildren(type: string, parentId: number): Promise<void> {
    await this.collection.deleteMany({ type, parent: parentId });
  }

  /** wp_delete_attachment: no record keeps a deleted attachment as its featured image. */
  async clearFeaturedMedia(attachmentId: number): Promise<void> {
    await this.collection.updateMany({ featured_media: attachmentId }, { $set: { featured_media: 0 } });
  }

  /** A trashed or deleted venue or organizer: no event links to it any more (meta list and indexed copy in one write). */
  async unlinkFromEvents(kind: 'venue' | 'organizer', id: number): Promise<void> {
    const { filter, update } = unlinkFromEvents(kind, id);
    await this.collection.updateMany(filter, update);
  }

  /** wp_delete_user with reassignment: the user's records pass to another author. */
  async reassignAuthor(from: number, to: number): Promise<void> {
    await this.collection.updateMany({ author: from }, { $set: { author: to } });
  }

  /** wp_delete_user without reassignment: the user's records go with them. */
  async deleteByAuthor(author: number): Promise<void> {
    await this.collection.deleteMany({ author });
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

  /** Moves a record to the trash as the reference does (with any other fields the same write sets, `also`); returns it after the move. */
  async trash(doc: PostDoc, now = new Date(), also: Partial<PostDoc> = {}): Promise<PostDoc> {
    const trash: TrashInfo = { status: doc.status, time: now, desired_slug: doc.slug };
    const slug = doc.slug ? `${doc.slug}__trashed` : doc.slug;
    return (await this.save(doc.id, { status: 'trash', trash, slug, ...also }))!;
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
}

export function flattenTax(tax: Record<string, number[]> | undefined): number[] {
  return [...new Set(Object.values(tax ?? {}).flat())];
}
