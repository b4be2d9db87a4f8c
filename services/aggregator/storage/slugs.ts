/**
 * Slugs for many new records of one type at once, with the rule of `uniqueSlug` (the wanted slug, else
 * `-2`, `-3`, ...) but one query for the whole list plus one per slug that is already taken, instead
 * of one per record.
 */
import type { ReadableCollection } from '../../../libs/store/types';

/** Names the reference never hands out as a bare post slug. */
const RESERVED = new Set(['embed', 'feed', 'rdf', 'rss', 'rss2', 'atom']);

/** A free slug for each wanted one, in order; an empty wanted slug stays empty (the caller uses the id). */
export async function bulkSlugs(posts: ReadableCollection, type: string, wanted: string[]): Promise<string[]> {
  const bases = [...new Set(wanted.filter(Boolean))];
  if (bases.length === 0) return wanted.map(() => '');
  const taken = new Set<string>();
  for (const r of await posts.find({ type, slug: { $in: bases } }, { fields: ['slug'] })) taken.add(String(r.slug));
  const suffixesLoaded = new Set<string>();
  const next = new Map<string, number>();
  const out: string[] = [];
  for (const base of wanted) {
    if (!base) {
      out.push('');
      continue;
    }
    if (!taken.has(base) && !RESERVED.has(base)) {
      taken.add(base);
      out.push(base);
      continue;
    }
    if (!suffixesLoaded.has(base)) {
      // Every `base-…` slug in use: an index range ('.' sorts right after '-').
      const rows = await posts.find({ type, slug: { $gte: `${base}-`, $lt: `${base}.` } }, { fields: ['slug'] });
      for (const r of rows) taken.add(String(r.slug));
      suffixesLoaded.add(base);
    }
    let n = next.get(base) ?? 2;
    while (taken.has(`${base}-${n}`)) n++;
    const slug = `${base}-${n}`;
    taken.add(slug);
    next.set(base, n + 1);
    out.push(slug);
  }
  return out;
}
