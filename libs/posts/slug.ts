/** Slugs as the reference makes them: sanitize_title, then unique per type (and parent when hierarchical). */
import type { Filter, ReadableCollection } from '../store/types';

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
export async function uniqueSlug(posts: ReadableCollection, slug: string, scope: { type: string; parent?: number; selfId?: number }): Promise<string> {
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

/** Slugs that collide with feed and embed endpoints. */
const FEEDS = new Set(['feed', 'rdf', 'rss', 'rss2', 'atom', 'embed']);

export interface SlugScope {
  type: string;
  hierarchical: boolean;
  parent?: number;
  selfId?: number;
  /** The record's slug before this write (a numeric slug it already has is kept). */
  currentSlug?: string;
}

function badBare(slug: string, scope: SlugScope): boolean {
  if (FEEDS.has(slug)) return true;
  if (scope.hierarchical) return /^(page)?\d+$/.test(slug);
  // With a /%postname%/ structure any number in the first position could be a year.
  return scope.type === 'post' && /^\d+$/.test(slug) && scope.currentSlug !== slug;
}

/**
 * The reference's wp_unique_post_slug, with its rules on top of `uniqueSlug`: feed names, `embed`,
 * and numeric slugs that would read as a date archive (posts) or a page number (hierarchical types)
 * are never handed out bare; a numeric slug a post already has is kept.
 */
export async function uniquePostSlug(posts: ReadableCollection, slug: string, scope: SlugScope): Promise<string> {
  if (!slug) return slug;
  const filter: Filter = { type: scope.type };
  if (scope.hierarchical) filter.parent = scope.parent ?? 0;
  // The slug and its `slug-N` candidates form one index range: slugs hold only [a-z0-9_-], and of
  // those only '-' sorts before '.'.
  const rows = await posts.find({ ...filter, slug: { $gte: slug, $lt: `${slug}.` } }, { fields: ['slug'] });
  const taken = new Set(rows.filter((r) => r.id !== scope.selfId).map((r) => String(r.slug)));
  if (!taken.has(slug) && !badBare(slug, scope)) return slug;
  // Leave room for the suffix within the reference's 200-character slug limit.
  for (let n = 2; ; n++) {
    const candidate = `${slug.slice(0, 200 - String(n).length - 1)}-${n}`;
    if (!taken.has(candidate)) return candidate;
  }
}
