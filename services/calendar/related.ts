/**
 * Loads what a page of calendar records shows besides themselves (linked venues and organizers, their
 * images, featured images, categories and tags) for the whole page at once: one query for the linked
 * posts and images, one more only when linked posts have images not loaded yet, one for the terms.
 */
import type { PostDoc } from '#libs/posts/types';
import type { TermDoc } from '#libs/terms/repository';
import type { CalendarDeps } from './deps';

export interface Related {
  posts: Map<number, PostDoc>;
  terms: Map<number, TermDoc>;
}

export const EMPTY_RELATED: Related = { posts: new Map(), terms: new Map() };

export function loadRelated(deps: Pick<CalendarDeps, 'posts' | 'terms'>, records: PostDoc[], known?: Related): Promise<Related> {
  const postIds = new Set<number>();
  const termIds = new Set<number>();
  for (const r of records) {
    for (const id of r.venues ?? []) postIds.add(id);
    for (const id of r.organizers ?? []) postIds.add(id);
    if (r.featured_media) postIds.add(r.featured_media);
    for (const id of r.terms ?? []) termIds.add(id);
  }
  return loadRelatedIds(deps, postIds, termIds, known);
}

/**
 * The posts (with the images they show) and terms of the given ids: what a page embeds that is not kept
 * already. Those in `known` (what a write read or wrote inside its unit of work, so as current as a read
 * now) are taken from it instead of being read again.
 */
export async function loadRelatedIds(
  deps: Pick<CalendarDeps, 'posts' | 'terms'>,
  postIds: Set<number>,
  termIds: Set<number>,
  known: Related = EMPTY_RELATED,
): Promise<Related> {
  const unknown = <T>(ids: Set<number>, have: Map<number, T>) => (have.size ? [...ids].filter((id) => !have.has(id)) : ids);
  const [posts, terms] = await Promise.all([deps.posts.byIds(unknown(postIds, known.posts)), deps.terms.byIds(unknown(termIds, known.terms))]);
  if (known.posts.size) for (const id of postIds) if (known.posts.has(id)) posts.set(id, known.posts.get(id)!);
  if (known.terms.size) for (const id of termIds) if (known.terms.has(id)) terms.set(id, known.terms.get(id)!);
  const images = new Set<number>();
  for (const p of posts.values()) if (p.featured_media && !posts.has(p.featured_media)) images.add(p.featured_media);
  if (images.size) for (const [id, doc] of await deps.posts.byIds(images)) posts.set(id, doc);
  return { posts, terms };
}
