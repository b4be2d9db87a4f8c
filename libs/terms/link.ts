/** A term's archive page as the reference's get_term_link builds it with pretty permalinks. */
import type { Site } from '../rest/site';
import type { TermDoc } from './repository';
import { TAXONOMIES } from './taxonomies';

/**
 * `<home>/<archive base>/<slug>/`; in a hierarchical taxonomy the ancestors' slugs come first
 * (`/category/parent/child/`) when `ancestors` (id → slug and parent) holds them.
 */
export function termLink(site: Site, term: Pick<TermDoc, 'taxonomy' | 'slug' | 'parent'>, ancestors?: Map<number, { slug: string; parent: number }>): string {
  const tax = TAXONOMIES[term.taxonomy];
  const path = [term.slug];
  if (tax?.hierarchical && ancestors) {
    const seen = new Set<number>();
    for (let at = term.parent; at > 0 && !seen.has(at); ) {
      const a = ancestors.get(at);
      if (!a) break;
      seen.add(at);
      path.unshift(a.slug);
      at = a.parent;
    }
  }
  return `${site.home}/${tax?.archive ?? term.taxonomy}/${path.join('/')}/`;
}
