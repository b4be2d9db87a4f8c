/**
 * A term's archive address (the reference's get_term_link with pretty permalinks): `/category/<slug>/`,
 * `/tag/<slug>/`, `/events/category/<slug>/`; hierarchical taxonomies put the ancestors' slugs first.
 */
import { taxonomyObject } from '../posts/registered';
import type { Site } from '../rest/site';
import type { TermDoc, TermsRepository } from './repository';

export type TermParents = Map<number, { slug: string; parent: number }>;

export function termLink(site: Site, term: Pick<TermDoc, 'taxonomy' | 'slug' | 'parent'>, parents?: TermParents): string {
  const tax = taxonomyObject(term.taxonomy);
  const base = tax?.archiveBase ?? term.taxonomy;
  const path: string[] = [];
  if (tax?.hierarchical && parents) {
    const seen = new Set<number>();
    for (let at = term.parent; at > 0 && !seen.has(at);) {
      seen.add(at);
      const p = parents.get(at);
      if (!p) break;
      path.unshift(p.slug);
      at = p.parent;
    }
  }
  return `${site.home}/${base}/${[...path, term.slug].join('/')}/`;
}

/** Slug and parent of every ancestor of the terms, one query per level for all of them. */
export async function loadTermAncestors(terms: TermsRepository, docs: Array<Pick<TermDoc, 'parent'>>): Promise<TermParents> {
  const out: TermParents = new Map();
  let wanted = [...new Set(docs.map((d) => d.parent).filter((p) => p > 0))];
  while (wanted.length) {
    const found = await terms.find({ id: { $in: wanted } }, { fields: ['slug', 'parent'] });
    for (const f of found) out.set(f.id, { slug: f.slug, parent: f.parent });
    wanted = [...new Set(found.map((f) => f.parent).filter((p) => p > 0 && !out.has(p)))];
  }
  return out;
}
