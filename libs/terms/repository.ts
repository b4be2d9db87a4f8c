/**
 * Terms of every taxonomy (`category`, `post_tag`, `vendor_events_cat`) in one collection; ids come
 * from their own counter. Counts are the number of published records carrying the term, recomputed
 * for the terms a write touched.
 */
import { sanitizeTitle } from '../posts/slug';
import { Repository } from '../store/repository';
import type { Store } from '../store/types';

export interface TermDoc extends Record<string, unknown> {
  id: number;
  taxonomy: string;
  name: string;
  slug: string;
  description: string;
  parent: number;
  count: number;
}

export class TermsRepository extends Repository<TermDoc> {
  constructor(private readonly store: Store) {
    super(store.collection<TermDoc>('terms'));
  }

  async ofTaxonomy(id: number, taxonomy: string): Promise<TermDoc | null> {
    const t = Number.isInteger(id) && id > 0 ? await this.byId(id) : null;
    return t && t.taxonomy === taxonomy ? t : null;
  }

  bySlugs(taxonomy: string, slugs: string[]): Promise<TermDoc[]> {
    return slugs.length ? this.collection.find({ taxonomy, slug: { $in: slugs } }) : Promise.resolve([]);
  }

  byName(taxonomy: string, name: string): Promise<TermDoc | null> {
    return this.collection.findOne({ taxonomy, name });
  }

  /** A slug free in the taxonomy: the wanted one, or with -2, -3, ... */
  async uniqueSlug(taxonomy: string, wanted: string, selfId?: number): Promise<string> {
    const base = sanitizeTitle(wanted) || 'term';
    const rows = await this.collection.find({ taxonomy, $or: [{ slug: base }, { slug: { $icontains: `${base}-` } }] }, { fields: ['slug'] });
    const taken = new Set(rows.filter((r) => r.id !== selfId).map((r) => r.slug));
    if (!taken.has(base)) return base;
    for (let n = 2; ; n++) if (!taken.has(`${base}-${n}`)) return `${base}-${n}`;
  }

  async create(fields: { taxonomy: string; name: string; slug?: string; description?: string; parent?: number }): Promise<TermDoc> {
    const id = await this.store.nextId('terms');
    const doc: TermDoc = {
      id,
      taxonomy: fields.taxonomy,
      name: fields.name,
      slug: await this.uniqueSlug(fields.taxonomy, fields.slug || fields.name),
      description: fields.description ?? '',
      parent: fields.parent ?? 0,
      count: 0,
    };
    await this.insert(doc);
    return doc;
  }

  /** Recomputes the published-record counts of the given terms (one count query per term). */
  async recount(ids: Iterable<number>): Promise<void> {
    const posts = this.store.collection('posts');
    for (const id of new Set(ids)) {
      const count = await posts.count({ terms: id, status: 'publish' });
      await this.collection.updateOne({ id }, { $set: { count } });
    }
  }
}
