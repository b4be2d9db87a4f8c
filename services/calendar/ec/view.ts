/**
 * What ec/v1 presents a page of records with, and how it keeps them: the linked records and terms of
 * the page, loaded in a few queries for all of them, and embedded venues and organizers, presented
 * alike for every caller, kept in the calendar's cache (dropped on every local write). Records are kept
 * under the record at its version, the caller's rights, the password given and the second (event
 * fields read the clock: is_now, is_past).
 */
import type { Caller } from '#libs/auth/user';
import type { PostDoc } from '#libs/posts/types';
import { versionOf, viewerKey } from '#libs/rest/presented';
import type { KeptPresenter } from '#libs/rest/read-cache';
import type { CalendarDeps } from '../deps';
import { loadRelated, type Related } from '../related';
import type { EcKind } from './kinds';
import { presentEntity, type EcView } from './present';

/**
 * What a page is presented with. What `known` holds (what a write read or wrote inside its unit) is not
 * read again; embedded records are then presented afresh and not kept, as they were read before the stamp.
 */
export async function viewOf(deps: CalendarDeps, user: Caller, docs: PostDoc[], password?: string, known?: Related): Promise<EcView> {
  const mark = deps.cache.embedded.stamp();
  const related = await loadRelated(deps, docs, known);
  const missing = new Set<number>();
  for (const d of docs) {
    for (const id of [...(d.venues ?? []), ...(d.organizers ?? [])]) {
      for (const t of related.posts.get(id)?.terms ?? []) if (!related.terms.has(t)) missing.add(t);
    }
  }
  if (missing.size) for (const [id, term] of await deps.terms.byIds(missing)) related.terms.set(id, term);
  const remember = (key: string, make: () => Record<string, unknown>): Record<string, unknown> =>
    deps.cache.embedded.peek(key, mark) ?? deps.cache.embedded.keep(key, make(), mark);
  return { site: deps.site, user, now: deps.now(), posts: related.posts, terms: related.terms, password, remember: known ? undefined : remember };
}

/** Records of one kind as ec/v1 presents them to `user`, given `password` (ctx.present keeps them). */
export const entityPresenter = (
  deps: CalendarDeps,
  kind: EcKind,
  user: Caller,
  password?: string,
  known?: Related,
): KeptPresenter<PostDoc, Record<string, unknown>> => ({
  key: (d) => `ec.${kind.type}:${d.id}:${versionOf(d)}:${viewerKey(user)}:${Math.floor(deps.now().getTime() / 1000)}:${JSON.stringify(password ?? null)}`,
  async present(docs) {
    const view = await viewOf(deps, user, docs, password, known);
    return docs.map((d) => presentEntity(kind, d, view));
  },
});
