/** Slugs as the reference makes them: sanitize_title, then unique per type (and parent when hierarchical). */

/** Text of ASCII letters, digits, spaces, tabs, line breaks, underscores and hyphens: no tag, entity or accent for the first steps of sanitizeTitle to take out. */
const PLAIN_TITLE = /^[A-Za-z0-9_ \t\n\r-]*$/;

/** Lower-case, accents folded (æ → ae, ß → ss), anything else non-alphanumeric becomes a hyphen. */
export function sanitizeTitle(title: string): string {
  // Most titles are plain: the folding steps would leave them as they are.
  const folded = PLAIN_TITLE.test(title) ? title.toLowerCase() : foldTitle(title);
  return folded
    .trim()
    .replace(/[\s_]+/g, '-')
    .replace(/-+/g, '-')
    .replace(/^-|-$/g, '')
    .slice(0, 200);
}

/** Tags and entities removed, accents folded, lower-cased, and what is not a letter, digit, space, underscore or hyphen removed. */
function foldTitle(title: string): string {
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
    .replace(/[^a-z0-9_\s-]/g, '');
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

/** `base-n`, kept within the reference's 200-character slug limit (the base is cut to leave room for the suffix). */
const suffixed = (base: string, n: number) => `${base.slice(0, 200 - String(n).length - 1)}-${n}`;

/** Whether a wanted slug needs its `slug-N` candidates looked up: taken, never handed out bare, or wanted again in the same list. */
export const needsCandidates = (slug: string, taken: ReadonlySet<string>, scope: SlugScope, repeated: boolean): boolean =>
  repeated || taken.has(slug) || badBare(slug, scope);

/**
 * The reference's wp_unique_post_slug for a list of wanted slugs (already sanitised), given the slugs in
 * use (`taken`: each wanted one and, where it is taken, its `slug-N` candidates): each wanted slug, or
 * `slug-2`, `slug-3`, ... whichever is free, free also of those handed out before it in the list. Feed
 * names, `embed`, and numeric slugs that would read as a date archive (posts) or a page number
 * (hierarchical types) are never handed out bare; a numeric slug a post already has is kept. An empty
 * wanted slug stays empty (the caller uses the id). The queries are PostsRepository.uniqueSlugs'.
 */
export function assignSlugs(wanted: readonly string[], taken: Set<string>, scope: SlugScope): string[] {
  const next = new Map<string, number>();
  return wanted.map((base) => {
    if (!base) return '';
    if (!taken.has(base) && !badBare(base, scope)) {
      taken.add(base);
      return base;
    }
    let n = next.get(base) ?? 2;
    while (taken.has(suffixed(base, n))) n++;
    const slug = suffixed(base, n);
    taken.add(slug);
    next.set(base, n + 1);
    return slug;
  });
}
