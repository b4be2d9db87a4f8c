/**
 * Terms of every taxonomy (`category`, `post_tag`, `vendor_events_cat`) in one collection; ids come
 * from their own counter. Counts are the number of published records carrying the term: every record
 * write moves them by what it changed (countWrite, countWrites, moveCounts), so no write scans records. Term writes follow the reference's wp_insert_term, wp_update_term and
 * wp_delete_term, and lists its get_terms, for every route that writes or lists terms.
 */
import { nameField } from '../html/text';
import { sanitizeTitle } from '../posts/slug';
import type { PostDoc } from '../posts/types';
import { Repository } from '../store/repository';
import type { Filter, Store } from '../store/types';
import { termErrors } from './errors';
import type { TaxonomyInfo } from './taxonomies';

export interface TermDoc extends Record<string, unknown> {
  id: number;
  taxonomy: string;
  name: string;
  slug: string;
  description: string;
  parent: number;
  count: number;
  /** Idempotency key of the batch sub-request that created the term. */
  batch_key?: string;
}

/** What a term write may carry; absent fields keep their value (update) or default (insert). */
export interface TermInput {
  name?: string;
  slug?: string;
  description?: string;
  parent?: number;
}

/** A terms list as get_terms takes it (every filter optional). */
export interface TermQuery {
  include?: number[];
  exclude?: number[];
  /** Only children of this term (0: top level). */
  parent?: number;
  /** Only these ids (the terms of one record). */
  within?: number[];
  slugs?: string[];
  search?: string;
  hideEmpty?: boolean;
  orderby?: string;
  order?: 'asc' | 'desc';
  offset?: number;
  limit?: number;
}

/** A term's own fields, which only the term methods change. */
const TERM_OWN_FIELDS = new Set(['id', 'taxonomy', 'name', 'slug', 'description', 'parent', 'count', 'batch_key']);

const collator = new Intl.Collator('en', { sensitivity: 'base', numeric: true });

/**
 * Sorts terms as get_terms orders them: names and slugs compare without regard to case (the reference
 * database's collation), `include` and `include_slugs` follow the requested lists when there are any
 * and fall back to the name otherwise.
 */
export function sortTerms(terms: TermDoc[], orderby: string, order: 'asc' | 'desc', include: number[] = [], slugs: string[] = []): TermDoc[] {
  const byName = (a: TermDoc, b: TermDoc) => collator.compare(a.name, b.name) || a.id - b.id;
  const by: Record<string, (a: TermDoc, b: TermDoc) => number> = {
    id: (a, b) => a.id - b.id,
    name: byName,
    slug: (a, b) => collator.compare(a.slug, b.slug) || a.id - b.id,
    description: (a, b) => collator.compare(a.description, b.description) || a.id - b.id,
    count: (a, b) => a.count - b.count || a.id - b.id,
    term_group: (a, b) => a.id - b.id,
    include: include.length ? (a, b) => include.indexOf(a.id) - include.indexOf(b.id) : byName,
    include_slugs: slugs.length ? (a, b) => slugs.indexOf(a.slug) - slugs.indexOf(b.slug) : byName,
  };
  const sorted = [...terms].sort(by[orderby] ?? byName);
  return order === 'desc' ? sorted.reverse() : sorted;
}

/**
 * A term name as the reference stores it (pre_term_name: sanitize_text_field, then special characters
 * escaped): tags stripped, whitespace collapsed, percent-encoded octets removed, `&`, `<`, `>` as entities.
 */
export const sanitizeTermName = (raw: string): string => nameField(raw);

/** What a record write shows of its terms: its status and its terms by taxonomy. */
/**
 * What a record write shows of its terms: its status and its terms, by taxonomy (`tax`) or, where a
 * record was read with only some fields, as the flat `terms` list the repository derives from `tax`.
 */
export type Counted = { status: string; tax?: Record<string, number[]>; terms?: number[] };

/**
 * How a record write moves the published-record count of each term: +1 where a published record gained
 * the term (or was published with it), -1 where it lost it (or left `publish`).
 */
export function countDeltas(before: Counted | null, after: Counted | null): Map<number, number> {
  const termsOf = (d: Counted) => (d.tax ? Object.values(d.tax).flat() : (d.terms ?? []));
  const published = (d: Counted | null) => new Set(d && d.status === 'publish' ? termsOf(d) : []);
  const was = published(before);
  const now = published(after);
  const out = new Map<number, number>();
  for (const id of now) if (!was.has(id)) out.set(id, 1);
  for (const id of was) if (!now.has(id)) out.set(id, -1);
  return out;
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

  /**
   * A slug free in the taxonomy (wp_unique_term_slug): the wanted one; for a child term, the wanted one
   * followed by its ancestors' slugs, one more at a time; then with -2, -3, ...
   */
  async uniqueSlug(taxonomy: string, wanted: string, selfId?: number, parent = 0): Promise<string> {
    const base = sanitizeTitle(wanted) || 'term';
    const takenBy = async (slug: string) => (await this.collection.find({ taxonomy, slug }, { fields: ['slug'] })).some((r) => r.id !== selfId);
    if (!(await takenBy(base))) return base;
    let slug = base;
    for (let at = parent; at > 0;) {
      const p = await this.ofTaxonomy(at, taxonomy);
      if (!p) break;
      slug = `${slug}-${p.slug}`;
      if (!(await takenBy(slug))) return slug;
      at = p.parent;
    }
    const rows = await this.collection.find({ taxonomy, slug: { $icontains: `${slug}-` } }, { fields: ['slug'] });
    const taken = new Set(rows.filter((r) => r.id !== selfId).map((r) => r.slug));
    for (let n = 2; ; n++) if (!taken.has(`${slug}-${n}`)) return `${slug}-${n}`;
  }

  async create(fields: { taxonomy: string; name: string; slug?: string; description?: string; parent?: number; batchKey?: string }): Promise<TermDoc> {
    const id = await this.store.nextId('terms');
    const doc: TermDoc = {
      id,
      taxonomy: fields.taxonomy,
      name: fields.name,
      slug: await this.uniqueSlug(fields.taxonomy, fields.slug || fields.name, undefined, fields.parent ?? 0),
      description: fields.description ?? '',
      parent: fields.parent ?? 0,
      count: 0,
    };
    if (fields.batchKey) doc.batch_key = fields.batchKey;
    await this.insert(doc);
    return doc;
  }

  /**
   * wp_insert_term: a name is required; a name already used at the same level (ignoring case) is
   * `term_exists` unless a different, free slug was asked for; the slug is then made unique.
   */
  async insertTerm(tax: TaxonomyInfo, input: TermInput & { name: string }, batchKey?: string): Promise<TermDoc> {
    const name = sanitizeTermName(input.name);
    if (!name) throw termErrors.emptyName();
    const parent = tax.hierarchical ? (input.parent ?? 0) : 0;
    const wantedSlug = input.slug ? sanitizeTitle(input.slug) : '';
    const slugGiven = wantedSlug !== '';
    const slug = slugGiven ? wantedSlug : sanitizeTitle(name);
    // Same-level terms whose name contains this one: the case-insensitive match and any exact one are among them.
    const similar = await this.collection.find({ taxonomy: tax.name, parent, name: { $icontains: name } });
    const nameMatch = similar.find((t) => t.name.toLowerCase() === name.toLowerCase());
    if (nameMatch) {
      const slugMatch = slug ? await this.collection.findOne({ taxonomy: tax.name, slug }) : null;
      if (!slugGiven || nameMatch.slug === slug || slugMatch) {
        if (!tax.hierarchical) throw termErrors.exists(tax, nameMatch.id);
        if ((!slugGiven || nameMatch.slug === slug) && similar.some((t) => t.name === name)) throw termErrors.exists(tax, nameMatch.id);
        if (slugMatch && slugMatch.parent === parent) throw termErrors.exists(tax, slugMatch.id);
      }
    }
    return this.create({ taxonomy: tax.name, name, slug: slug || name, description: input.description ?? '', parent, batchKey });
  }

  /**
   * wp_update_term: given fields replace the stored ones; a parent that would make the term its own
   * ancestor becomes 0; a slug in use by another term is an error unless none was given or the parent
   * changed (then a free one is made).
   */
  async updateTerm(tax: TaxonomyInfo, term: TermDoc, input: TermInput): Promise<TermDoc> {
    const name = input.name !== undefined ? sanitizeTermName(input.name) : term.name;
    if (!name) throw termErrors.emptyName();
    let parent = tax.hierarchical && input.parent !== undefined ? input.parent : term.parent;
    if (parent !== term.parent && (await this.wouldLoop(tax, term.id, parent))) parent = 0;
    const emptySlug = input.slug !== undefined && sanitizeTitle(input.slug) === '';
    let slug = input.slug === undefined ? term.slug : emptySlug ? sanitizeTitle(name) : sanitizeTitle(input.slug);
    const duplicate = await this.collection.findOne({ taxonomy: tax.name, slug, id: { $ne: term.id } });
    if (duplicate) {
      if (emptySlug || parent !== term.parent) slug = await this.uniqueSlug(tax.name, slug, term.id, parent);
      else throw termErrors.duplicateSlug(slug);
    }
    const set: Partial<TermDoc> = { name, slug, parent, description: input.description ?? term.description };
    return (await this.update(term.id, { $set: set })) ?? { ...term, ...set };
  }

  /** Whether making `parent` the parent of term `id` puts the term among its own ancestors. */
  private async wouldLoop(tax: TaxonomyInfo, id: number, parent: number): Promise<boolean> {
    const seen = new Set<number>();
    for (let at = parent; at > 0 && !seen.has(at);) {
      if (at === id) return true;
      seen.add(at);
      const p = await this.ofTaxonomy(at, tax.name);
      at = p ? p.parent : 0;
    }
    return false;
  }

  /**
   * wp_delete_term: records lose the term (a post left without a category gets the default one),
   * children move up to the term's parent, then the term goes.
   */
  async deleteTerm(tax: TaxonomyInfo, term: TermDoc, defaultTerm?: number): Promise<void> {
    const posts = this.store.collection<PostDoc>('posts');
    const field = `tax.${tax.name}`;
    const carriers = defaultTerm ? await posts.find({ terms: term.id }, { fields: ['tax', 'status'] }) : [];
    await posts.updateMany({ terms: term.id }, { $pull: { terms: term.id, [field]: term.id } });
    if (defaultTerm) {
      const orphans = carriers.filter((p) => {
        // Only tax and status were read (and id).
        const ids = (p.tax?.[tax.name] ?? []).filter((i) => i !== term.id);
        return ids.length === 0;
      });
      if (orphans.length) {
        await posts.updateMany({ id: { $in: orphans.map((p) => p.id) } }, { $set: { [field]: [defaultTerm] }, $push: { terms: defaultTerm } });
        const published = orphans.filter((p) => p.status === 'publish').length;
        if (published) await this.collection.updateOne({ id: defaultTerm }, { $inc: { count: published } });
      }
    }
    if (tax.hierarchical) await this.collection.updateMany({ taxonomy: tax.name, parent: term.id }, { $set: { parent: term.parent } });
    await this.remove(term.id);
  }

  /**
   * get_terms: the matching terms of a taxonomy in the requested order, one window of them and the
   * total. Names sort without regard to case, which the stores cannot do, so the (small) matching set
   * is sorted here. With hide_empty, a hierarchical list keeps an empty term that has a non-empty
   * descendant, unless it is limited to one parent.
   */
  async query(tax: TaxonomyInfo, q: TermQuery): Promise<{ items: TermDoc[]; total: number }> {
    const and: Filter[] = [];
    if (q.include?.length) and.push({ id: { $in: q.include } });
    // As get_terms does, an include list makes the exclude list moot.
    if (q.exclude?.length && !q.include?.length) and.push({ id: { $nin: q.exclude } });
    if (q.within) and.push({ id: { $in: q.within } });
    if (q.parent !== undefined) and.push({ parent: q.parent });
    if (q.slugs) and.push({ slug: { $in: q.slugs } });
    if (q.search) and.push({ $or: [{ name: { $icontains: q.search } }, { slug: { $icontains: q.search } }] });
    const padEmpty = q.hideEmpty && tax.hierarchical && q.parent === undefined;
    if (q.hideEmpty && !padEmpty) and.push({ count: { $gt: 0 } });
    let all = await this.collection.find(and.length ? { taxonomy: tax.name, $and: and } : { taxonomy: tax.name });
    if (padEmpty && all.some((t) => !t.count)) {
      const kept = await this.withNonEmptyDescendants(tax);
      all = all.filter((t) => t.count > 0 || kept.has(t.id));
    }
    const sorted = sortTerms(all, q.orderby ?? 'name', q.order ?? 'asc', q.include, q.slugs);
    const offset = Math.max(0, q.offset ?? 0);
    return { items: q.limit === undefined ? sorted.slice(offset) : sorted.slice(offset, offset + q.limit), total: sorted.length };
  }

  /** Ids of the terms that are ancestors of a non-empty term (one query per level of the tree). */
  private async withNonEmptyDescendants(tax: TaxonomyInfo): Promise<Set<number>> {
    const out = new Set<number>();
    let frontier = [
      ...new Set((await this.collection.find({ taxonomy: tax.name, count: { $gt: 0 } }, { fields: ['parent'] })).map((t) => Number(t.parent))),
    ].filter((p) => p > 0);
    while (frontier.length) {
      for (const id of frontier) out.add(id);
      const rows = await this.collection.find({ id: { $in: frontier } }, { fields: ['parent'] });
      frontier = [...new Set(rows.map((r) => Number(r.parent)))].filter((p) => p > 0 && !out.has(p));
    }
    return out;
  }

  /** Every ancestor of the given terms, id → slug and parent (one query per level), for archive links. */
  async ancestors(terms: TermDoc[]): Promise<Map<number, { slug: string; parent: number }>> {
    const out = new Map<number, { slug: string; parent: number }>();
    for (const t of terms) out.set(t.id, { slug: t.slug, parent: t.parent });
    let wanted = [...new Set(terms.map((t) => t.parent))].filter((p) => p > 0 && !out.has(p));
    while (wanted.length) {
      const rows = await this.collection.find({ id: { $in: wanted } }, { fields: ['slug', 'parent'] });
      for (const r of rows) out.set(r.id, { slug: String(r.slug), parent: Number(r.parent) });
      wanted = [...new Set(rows.map((r) => Number(r.parent)))].filter((p) => p > 0 && !out.has(p));
    }
    return out;
  }

  /**
   * Sets a field that is not the term's own (an importer's mark of the batch that created it); name,
   * slug, parent, taxonomy and count change only through the methods that keep them consistent.
   */
  async setMark(id: number, field: string, value: unknown): Promise<void> {
    if (TERM_OWN_FIELDS.has(field.split('.')[0])) throw new Error(`a term's ${field} is not a mark`);
    await this.collection.updateOne({ id }, { $set: { [field]: value } });
  }

  /**
   * Moves term counts by the given amounts, one `$inc` per distinct amount (an import moves many terms by
   * the same few amounts), so a write costs the same however many records a term has.
   */
  async moveCounts(deltas: Map<number, number>): Promise<void> {
    const byAmount = new Map<number, number[]>();
    for (const [id, by] of deltas) {
      if (!by) continue;
      const ids = byAmount.get(by);
      if (ids) ids.push(id);
      else byAmount.set(by, [id]);
    }
    for (const [by, ids] of byAmount) await this.collection.updateMany({ id: { $in: ids } }, { $inc: { count: by } });
  }

  /** Keeps the counts of the terms a record write touched (see countDeltas). */
  countWrite(before: Counted | null, after: Counted | null): Promise<void> {
    return this.countWrites([[before, after]]);
  }

  /** Keeps the counts of the terms several record writes touched, in one move per amount. */
  countWrites(writes: Iterable<[before: Counted | null, after: Counted | null]>): Promise<void> {
    const total = new Map<number, number>();
    for (const [before, after] of writes) for (const [id, by] of countDeltas(before, after)) total.set(id, (total.get(id) ?? 0) + by);
    return this.moveCounts(total);
  }
}
