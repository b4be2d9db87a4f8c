/**
 * Public addresses of post records, both ways: the reference's get_permalink with a `/%postname%/`
 * structure (pages nest under their parents, calendar records live under `/event/`, `/venue/` and
 * `/organizer/`) and its url_to_postid, which reads such an address back to the record. Services that
 * print links and the oEmbed service that resolves them share these rules, so an address one prints
 * is one the other reads.
 */
import { EVENT_TYPE, ORGANIZER_TYPE, VENUE_TYPE } from '../calendar/meta';
import type { Site } from '../rest/site';
import type { PostsRepository } from './repository';
import type { PostDoc } from './types';

/** Calendar post types and the path their single pages live under. */
export const CALENDAR_BASES: Readonly<Record<string, string>> = { [EVENT_TYPE]: 'event', [VENUE_TYPE]: 'venue', [ORGANIZER_TYPE]: 'organizer' };

/** Statuses whose posts and pages have no pretty address yet (the reference's floating drafts). */
const PLAIN_STATUSES = new Set(['draft', 'pending', 'auto-draft', 'future']);

/** Page id → its slug and parent, for hierarchical page addresses. */
export type PageParents = Map<number, { slug: string; parent: number }>;

export type Linkable = Pick<PostDoc, 'id' | 'type' | 'slug'> & Partial<Pick<PostDoc, 'status' | 'parent'>>;

/** Slug and parent of every ancestor of the records, one query per level of the tree for all of them. */
export async function loadAncestors(posts: PostsRepository, docs: Array<{ parent?: number }>, into: PageParents = new Map()): Promise<PageParents> {
  let wanted = [...new Set(docs.map((d) => Number(d.parent ?? 0)).filter((p) => p > 0 && !into.has(p)))];
  while (wanted.length) {
    const found = await posts.find({ id: { $in: wanted } }, { fields: ['slug', 'parent'] });
    for (const f of found) into.set(f.id, { slug: String(f.slug ?? ''), parent: Number(f.parent ?? 0) });
    wanted = [...new Set(found.map((f) => Number(f.parent ?? 0)).filter((p) => p > 0 && !into.has(p)))];
  }
  return into;
}

/** The slugs of a page's ancestors as a path (`grand/parent/`), stopping at a loop or a missing parent. */
export function ancestorsPath(parent: number, parents: PageParents | undefined): string {
  const parts: string[] = [];
  let at = parent;
  const seen = new Set<number>();
  while (at > 0 && parents && !seen.has(at)) {
    seen.add(at);
    const p = parents.get(at);
    if (!p) break;
    if (p.slug) parts.unshift(p.slug);
    at = p.parent;
  }
  return parts.map((s) => `${s}/`).join('');
}

/**
 * The permalink of a record. Posts and pages without a pretty address (drafts, scheduled ones, no slug)
 * get `?p=` / `?page_id=`; a calendar record without a slug gets `?post_type=<type>&p=`.
 */
export function permalinkOf(site: Site, post: Linkable, parents?: PageParents): string {
  const home = site.home;
  const base = CALENDAR_BASES[post.type];
  if (base) return post.slug ? `${home}/${base}/${post.slug}/` : `${home}/?post_type=${post.type}&p=${post.id}`;
  const plain = post.type === 'page' ? `${home}/?page_id=${post.id}` : `${home}/?p=${post.id}`;
  if ((post.status && PLAIN_STATUSES.has(post.status)) || !post.slug) return plain;
  const path = post.type === 'page' ? ancestorsPath(post.parent ?? 0, parents) : '';
  return `${home}/${path}${post.slug}/`;
}

/** What an address names, before any lookup: an id (of any or one type), or a slug path. */
export type PermalinkTarget = { id: number; type?: string } | { type: string; slug: string } | { path: string[] };

/** The host (with a port other than the scheme's default) an address belongs to, `www.` aside. */
const hostOf = (u: URL) => `${u.hostname.toLowerCase().replace(/^www\./, '')}${u.port ? `:${u.port}` : ''}`;

/** Whether a URL is an http(s) address on this site's host and port (with or without `www.`). */
export function onSite(site: Site, raw: string): boolean {
  try {
    const url = new URL(raw.trim());
    return (url.protocol === 'http:' || url.protocol === 'https:') && hostOf(url) === hostOf(new URL(site.home));
  } catch {
    return false;
  }
}

/**
 * Reads an address of this site (url_to_postid): the host must be the site's (with or without `www.`),
 * the path below the home path. Null for foreign or unreadable addresses and for the home page.
 */
export function parsePermalink(site: Site, raw: string): PermalinkTarget | null {
  let url: URL;
  let home: URL;
  try {
    url = new URL(raw.trim());
    home = new URL(site.home);
  } catch {
    return null;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
  if (hostOf(url) !== hostOf(home)) return null;
  const homePath = home.pathname.replace(/\/+$/, '');
  if (url.pathname !== homePath && !url.pathname.startsWith(`${homePath}/`)) return null;
  const q = url.searchParams;
  const id = (name: string) => (/^\d+$/.test(q.get(name) ?? '') ? Number(q.get(name)) : 0);
  if (id('page_id')) return { id: id('page_id'), type: 'page' };
  if (id('p')) return q.get('post_type') ? { id: id('p'), type: q.get('post_type')! } : { id: id('p') };
  let segments: string[];
  try {
    segments = url.pathname.slice(homePath.length).split('/').filter(Boolean).map(decodeURIComponent);
  } catch {
    return null;
  }
  if (segments[0] === 'index.php') segments = segments.slice(1);
  if (!segments.length) return null;
  const calendarType = Object.keys(CALENDAR_BASES).find((t) => CALENDAR_BASES[t] === segments[0]);
  if (calendarType && segments.length === 2) return { type: calendarType, slug: segments[1] };
  return { path: segments };
}

/** The record an address of this site names (any status: whether it may be shown is the caller's question), or null. */
export async function resolvePermalink(posts: PostsRepository, site: Site, raw: string): Promise<PostDoc | null> {
  const target = parsePermalink(site, raw);
  if (!target) return null;
  if ('id' in target) {
    const doc = await posts.byId(target.id);
    if (!doc || (target.type !== undefined && doc.type !== target.type)) return null;
    return doc;
  }
  if ('slug' in target) return posts.findOne({ type: target.type, slug: target.slug });
  const slug = target.path[target.path.length - 1];
  // Pages first, as the reference's page rules come before the post rule; a post has a one-segment path.
  for (const page of await posts.find({ type: 'page', slug }, { sort: [['id', 1]] })) {
    if (await ancestorsMatch(posts, page, target.path.slice(0, -1))) return page;
  }
  if (target.path.length === 1) return posts.findOne({ type: 'post', slug }, { sort: [['id', 1]] });
  return null;
}

/** Whether a page's parents, from the top, have exactly these slugs. */
async function ancestorsMatch(posts: PostsRepository, page: PostDoc, slugs: string[]): Promise<boolean> {
  let at = page.parent;
  for (let i = slugs.length - 1; i >= 0; i--) {
    if (!at) return false;
    const parent = await posts.byId(at);
    if (!parent || parent.type !== 'page' || parent.slug !== slugs[i]) return false;
    at = parent.parent;
  }
  return !at;
}
