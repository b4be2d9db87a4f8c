/** Slugs as the reference makes them: sanitize_title, then unique per type (and parent when hierarchical). */
import type { Collection, Filter } from '../store/types';

/** Lower-case, accents folded (æ → ae, ß → ss), anything else non-alphanumeric becomes a hyphen. */
export function sanitizeTitle(title: string): string {
  return title
    .replace(/<[^>]*>/g, '')
    .replace(/æ/g, 'ae')
    .replace(/Æ/g, 'AE')
    .replace(/ß/g, 'ss')
    .replace(/ø/g, 'o')
    .replace(/œ/g, 'oe')
    .replace(/&[a-z0-9#]+;/gi, '')
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9_\s-]/g, '')
    .trim()
    .replace(/[\s_]+/g, '-')
    .replace(/-+/g, '-')
    .replace(/^-|-$/g, '')
    .slice(0, 200);
}

/** Names the reference never hands out as a post slug without a suffix. */
const RESERVED = new Set(['embed', 'feed', 'rdf', 'rss', 'rss2', 'atom']);

/**
 * `slug`, or `slug-2`, `slug-3`, ... whichever is free among records of the same type (and parent,
 * for hierarchical types), ignoring the record itself. One query fetches every candidate in use.
 */
export async function uniqueSlug(posts: Collection, slug: string, scope: { type: string; parent?: number; selfId?: number }): Promise<string> {
  if (!slug) return slug;
  const filter: Filter = { type: scope.type };
  if (scope.parent !== undefined) filter.parent = scope.parent;
  const taken = new Set<string>();
  const rows = await posts.find({ ...filter, $or: [{ slug }, { slug: { $icontains: `${slug}-` } }] }, { fields: ['slug'] });
  for (const r of rows) if (r.id !== scope.selfId) taken.add(String(r.slug));
  const reserved = RESERVED.has(slug);
  if (!taken.has(slug) && !reserved) return slug;
  for (let n = 2; ; n++) {
    const candidate = `${slug}-${n}`;
    if (!taken.has(candidate)) return candidate;
  }
}
