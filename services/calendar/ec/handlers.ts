/**
 * ec/v1 events, organizers and venues (the reference's tec/v1 entity endpoints): list, create, get,
 * update (PUT/PATCH) and delete, over the same records vendor/events/v1 serves. Permissions as the
 * reference's post-entity endpoints: lists are public, a single read needs an entity of the type the
 * caller may read (else rest_forbidden, 401/403), create needs the type's edit capability, update and
 * delete edit_post/delete_post on the id. Failures inside an allowed write answer `{"error": "..."}`.
 */
import { can, canDeleteRecord, canEditRecord, canReadRecord, type Caller } from '../../../libs/auth/user';
import { versionOf, viewerKey } from '../../../libs/rest/presented';
import { mayWriteAs } from '../access';
import { EVENT_TYPE } from '../../../libs/calendar/meta';
import type { PostDoc } from '../../../libs/posts/types';
import { pagingHeaders } from '../../../libs/rest/paging';
import type { HandlerContext, Reply, ServiceApp } from '../../../libs/rest/service';
import type { CalendarDeps } from '../deps';
import { bindOpenApi } from '../doc/handlers';
import { EC_DOCS_ENDPOINT, EC_ENDPOINTS } from '../../../libs/routes/ec';
import { shared, type InputOf, type Shared } from '../../../libs/rest/params';
import { queryKey, through } from '../http';
import { deleteRecord, trashRecord } from '../../../libs/calendar/lifecycle';
import { pageWithTotal } from '../read-cache';
import { loadRelated } from '../related';
import { EC_DOC } from './docs';
import { EC_EVENT, EC_KINDS, capTypeOf, type EcKind } from './kinds';
import { presentEntity, type EcView } from './present';
import { eventListQuery, linkedListQuery, type ListQuery } from './query';
import { writeEvent, writeLinked } from './write';

/** The reference answers a page past the end with this body (its code names organizers for every type). */
const PAGE_NOT_FOUND = { code: 'tec_rest_organizers_page_not_found', message: 'The requested page was not found.' };

const entityError = (status: number, error: string): Reply => ({ status, body: { error } });

/** A record's version in a presented-record key. */

/**
 * Linked records and terms of a page of records, in a few queries for all of them. Embedded venues and
 * organizers, presented alike for every caller, are kept in the read cache (dropped on every local write).
 */
export async function viewOf(deps: CalendarDeps, user: Caller, docs: PostDoc[], password?: string): Promise<EcView> {
  const mark = deps.cache.embedded.stamp();
  const related = await loadRelated(deps, docs);
  const missing = new Set<number>();
  for (const d of docs) {
    for (const id of [...(d.venues ?? []), ...(d.organizers ?? [])]) {
      for (const t of related.posts.get(id)?.terms ?? []) if (!related.terms.has(t)) missing.add(t);
    }
  }
  if (missing.size) for (const [id, term] of await deps.terms.byIds(missing)) related.terms.set(id, term);
  const remember = (key: string, make: () => Record<string, unknown>): Record<string, unknown> =>
    deps.cache.embedded.peek(key, mark) ?? deps.cache.embedded.keep(key, make(), mark);
  return { site: deps.site, user, now: deps.now(), posts: related.posts, terms: related.terms, password, remember };
}

/** The record an item route names (any type), loaded once per request. */
function target(ctx: HandlerContext, deps: CalendarDeps): Promise<PostDoc | null> {
  return ctx.cached('ec.target', async () => {
    const id = Number(ctx.params.id);
    const stamp = deps.presented.stamp();
    const doc = Number.isInteger(id) && id > 0 ? await deps.posts.byId(id) : null;
    if (doc) readAt.set(doc, stamp);
    return doc;
  });
}

/** The presented-cache stamp taken right before each record was read (a presentation of it holds for that stamp only). */
const readAt = new WeakMap<PostDoc, string>();

/** A presented entity's key: the record at its version, the caller's rights, the password given, and the second (event fields read the clock: is_now, is_past). */
function presentedKey(deps: CalendarDeps, kind: EcKind, d: PostDoc, user: Caller, password?: string): string {
  return `ec.${kind.type}:${d.id}:${versionOf(d)}:${viewerKey(user)}:${Math.floor(deps.now().getTime() / 1000)}:${JSON.stringify(password ?? null)}`;
}

async function present(deps: CalendarDeps, ctx: HandlerContext, kind: EcKind, doc: PostDoc, status = 200): Promise<Reply> {
  return { status, body: await presentBody(deps, ctx, kind, doc) };
}

/** The entity as `present` answers it. */
async function presentBody(deps: CalendarDeps, ctx: HandlerContext, kind: EcKind, doc: PostDoc) {
  const password = typeof ctx.params.password === 'string' ? ctx.params.password : undefined;
  return presentEntity(kind, doc, await viewOf(deps, ctx.user, [doc], password));
}

function bindKind(app: ServiceApp, deps: CalendarDeps, kind: EcKind): void {
  const p = `ec.${kind.plural}`;
  const eps = EC_ENDPOINTS[kind.plural];
  const base = `/ec/v1/${kind.plural}`;

  async function listPage(ctx: HandlerContext<InputOf<Shared<(typeof eps)['list']>>>): Promise<Reply> {
    const has = (n: string) => ctx.has(n);
    const stamp = deps.presented.stamp();
    let query: ListQuery;
    if (through(ctx, EC_ENDPOINTS.events.list)) query = await eventListQuery(deps, kind, { params: ctx.input, has, user: ctx.user });
    else if (through(ctx, EC_ENDPOINTS.venues.list, EC_ENDPOINTS.organizers.list))
      query = await linkedListQuery(deps, kind, { params: ctx.input, has, user: ctx.user });
    else throw new Error(`ec/v1 list bound to ${ctx.req.endpoint}`);
    const page = ctx.input.page;
    // An event list without per_page shows the site's posts-per-page setting.
    const perPage = kind.type === EVENT_TYPE && !ctx.has('per_page') && deps.postsPerPage ? Math.min(deps.postsPerPage(), 100) : ctx.input.per_page;
    const { items, total }: { items: PostDoc[]; total: number } = query
      ? await pageWithTotal(deps.posts, deps.counts, query.filter, { page, perPage, sort: query.sort, pages: deps.pages })
      : { items: [], total: 0 };
    if (page > 1 && items.length === 0) return { status: 404, body: PAGE_NOT_FOUND };
    const readable = items.filter((d) => canReadRecord(ctx.user, kind.cap, d));
    const keys = readable.map((d) => presentedKey(deps, kind, d, ctx.user));
    const kept = readable.map((_, i) => deps.presented.peek<Record<string, unknown>>(keys[i], stamp));
    const missing = readable.filter((_, i) => !kept[i]);
    const view = missing.length ? await viewOf(deps, ctx.user, missing) : null;
    const body = readable.map((d, i) => kept[i] ?? deps.presented.keep(keys[i], presentEntity(kind, d, view!), stamp));
    return { body, headers: pagingHeaders(deps.site, base, ctx.req.query, page, perPage, total) };
  }

  app.bind(shared(eps.list), {
    // Guests all get the same page for the same query: kept briefly in the read cache, dropped on every local write.
    handle: (ctx) => (ctx.user ? listPage(ctx) : deps.cache.replies.get(`${p}.list:${queryKey(ctx.req.query)}`, () => listPage(ctx))),
  });

  app.bind(shared(eps.create), {
    permission: async (ctx) => can(ctx.user, `edit_${kind.cap}s`) && mayWriteAs(ctx.user, kind.cap, ctx.input.author),
    async handle(ctx) {
      const doc = kind === EC_EVENT ? await writeEvent(deps, ctx, null) : await writeLinked(deps, ctx, kind, null);
      return present(deps, ctx, kind, doc, 201);
    },
  });

  app.bind(shared(eps.get), {
    async permission(ctx) {
      const doc = await target(ctx, deps);
      return !!doc && doc.type === kind.type && canReadRecord(ctx.user, kind.cap, doc);
    },
    async handle(ctx) {
      const doc = (await target(ctx, deps))!;
      if (ctx.user) {
        const password = ctx.input.password ?? undefined;
        const key = presentedKey(deps, kind, doc, ctx.user, password);
        const stamp = readAt.get(doc) ?? '';
        return {
          body: deps.presented.peek<Record<string, unknown>>(key, stamp) ?? deps.presented.keep(key, await presentBody(deps, ctx, kind, doc), stamp),
        };
      }
      // A guest reads a published entity as every guest does (kept like the lists).
      if (doc.status !== 'publish') return present(deps, ctx, kind, doc);
      return deps.cache.replies.get(`${p}.get:${doc.id}:${JSON.stringify(ctx.input.password ?? null)}`, () => present(deps, ctx, kind, doc));
    },
  });

  app.bind(shared(eps.update), {
    async permission(ctx) {
      const doc = await target(ctx, deps);
      return !!doc && canEditRecord(ctx.user, capTypeOf(doc.type), doc) && mayWriteAs(ctx.user, capTypeOf(doc.type), ctx.input.author);
    },
    async handle(ctx) {
      const doc = (await target(ctx, deps))!;
      if (doc.type !== kind.type) return entityError(404, 'The entity could not be updated.');
      const saved = kind === EC_EVENT ? await writeEvent(deps, ctx, doc) : await writeLinked(deps, ctx, kind, doc);
      return present(deps, ctx, kind, saved);
    },
  });

  app.bind(shared(eps.delete), {
    async permission(ctx) {
      const doc = await target(ctx, deps);
      return !!doc && canDeleteRecord(ctx.user, capTypeOf(doc.type), doc);
    },
    async handle(ctx) {
      const doc = (await target(ctx, deps))!;
      if (doc.type !== kind.type) return entityError(404, 'The entity could not be deleted.');
      if (ctx.input.force) await deleteRecord(deps, doc, kind.linked?.key);
      else if (doc.status === 'trash') return entityError(410, 'The entity has already been trashed.');
      else await trashRecord(deps, doc, kind.linked?.key);
      return { body: [] };
    },
  });
}

export function bindEc(app: ServiceApp, deps: CalendarDeps): void {
  for (const kind of EC_KINDS) bindKind(app, deps, kind);
  bindOpenApi(app, deps, EC_DOCS_ENDPOINT, EC_DOC);
}
