/**
 * ec/v1 events, organizers and venues (the reference's tec/v1 entity endpoints): list, create, get,
 * update (PUT/PATCH) and delete, over the same records vendor/events/v1 serves. Permissions as the
 * reference's post-entity endpoints: lists are public, a single read needs an entity of the type the
 * caller may read (else rest_forbidden, 401/403), create needs the type's edit capability, update and
 * delete edit_post/delete_post on the id. Failures inside an allowed write answer `{"error": "..."}`.
 */
import { can, canDeleteRecord, canEditRecord, canReadRecord } from '#libs/auth/user';
import { mayWriteAs } from '../access';
import { EVENT_TYPE } from '#libs/calendar/meta';
import type { PostDoc } from '#libs/posts/types';
import { pagingHeaders } from '#libs/rest/paging';
import type { HandlerContext, Reply, ServiceApp } from '#libs/rest/service';
import type { CalendarDeps } from '../deps';
import type { Related } from '../related';
import { bindOpenApi } from '../doc/handlers';
import { EC_DOCS_ENDPOINT, EC_ENDPOINTS } from '#libs/routes/ec/index';
import { shared, type InputOf, type Shared } from '#libs/rest/params';
import { queryKey, through } from '../http';
import { deleteRecord, trashRecord } from '#libs/calendar/lifecycle';
import { pageWithTotal } from '../list-page';
import { EC_DOC } from './docs';
import { EC_EVENT, EC_KINDS, capTypeOf, type EcKind } from './kinds';
import { eventListQuery, linkedListQuery, type ListQuery } from './query';
import { entityPresenter } from './view';
import { writeEvent, writeLinked } from './write';

/** The reference answers a page past the end with this body (its code names organizers for every type). */
const PAGE_NOT_FOUND = { code: 'tec_rest_organizers_page_not_found', message: 'The requested page was not found.' };

const entityError = (status: number, error: string): Reply => ({ status, body: { error } });

/** The record an item route names (any type), loaded once per request. */
function target(ctx: HandlerContext, deps: CalendarDeps): Promise<PostDoc | null> {
  return ctx.once('ec.target', async () => {
    const id = Number(ctx.params.id);
    return Number.isInteger(id) && id > 0 ? await ctx.record(deps.posts, id) : null;
  });
}

/** The entity a single route answers with, given the request's password. */
async function present(deps: CalendarDeps, ctx: HandlerContext, kind: EcKind, doc: PostDoc, status = 200, known?: Related): Promise<Reply> {
  const password = typeof ctx.params.password === 'string' ? ctx.params.password : undefined;
  const [body] = await ctx.present([doc], entityPresenter(deps, kind, ctx.user, password, known));
  return { status, body };
}

function bindKind(app: ServiceApp, deps: CalendarDeps, kind: EcKind): void {
  const eps = EC_ENDPOINTS[kind.plural];
  const base = `/ec/v1/${kind.plural}`;

  async function listPage(ctx: HandlerContext<InputOf<Shared<(typeof eps)['list']>>>): Promise<Reply> {
    const has = (n: string) => ctx.has(n);
    let query: ListQuery;
    if (through(ctx, EC_ENDPOINTS.events.list)) query = await eventListQuery(deps, kind, { params: ctx.input, has, user: ctx.user });
    else if (through(ctx, EC_ENDPOINTS.venues.list, EC_ENDPOINTS.organizers.list))
      query = await linkedListQuery(deps, kind, { params: ctx.input, has, user: ctx.user });
    else throw new Error(`ec/v1 list bound to ${ctx.req.endpoint}`);
    const page = ctx.input.page;
    // An event list without per_page shows the site's posts-per-page setting.
    const perPage = kind.type === EVENT_TYPE && !ctx.has('per_page') && deps.postsPerPage ? Math.min(deps.postsPerPage(), 100) : ctx.input.per_page;
    const { items, total }: { items: PostDoc[]; total: number } = query
      ? await pageWithTotal(deps, query.filter, { page, perPage, sort: query.sort })
      : { items: [], total: 0 };
    if (page > 1 && items.length === 0) return { status: 404, body: PAGE_NOT_FOUND };
    const readable = items.filter((d) => canReadRecord(ctx.user, kind.cap, d));
    const body = await ctx.present(readable, entityPresenter(deps, kind, ctx.user));
    return { body, headers: pagingHeaders(deps.site, base, ctx.req.query, page, perPage, total) };
  }

  app.bind(shared(eps.list), {
    // Callers with the same rights get the same page for the same query.
    keep: { answer: (ctx) => queryKey(ctx.req.query) },
    handle: (ctx) => listPage(ctx),
  });

  app.bind(shared(eps.create), {
    permission: async (ctx) => can(ctx.user, `edit_${kind.cap}s`) && mayWriteAs(ctx.user, kind.cap, ctx.input.author),
    async handle(ctx) {
      const saved = kind === EC_EVENT ? await writeEvent(deps, ctx, null) : { doc: await writeLinked(deps, ctx, kind, null) };
      return present(deps, ctx, kind, saved.doc, 201, 'related' in saved ? saved.related : undefined);
    },
  });

  app.bind(shared(eps.get), {
    // A published entity reads the same for every caller with the same rights.
    keep: {
      answer: async (ctx) => {
        const doc = await target(ctx, deps);
        return doc?.status === 'publish' ? `${doc.id}:${JSON.stringify(ctx.input.password ?? null)}` : undefined;
      },
    },
    async permission(ctx) {
      const doc = await target(ctx, deps);
      return !!doc && doc.type === kind.type && canReadRecord(ctx.user, kind.cap, doc);
    },
    async handle(ctx) {
      return present(deps, ctx, kind, (await target(ctx, deps))!);
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
      const saved = kind === EC_EVENT ? await writeEvent(deps, ctx, doc) : { doc: await writeLinked(deps, ctx, kind, doc) };
      return present(deps, ctx, kind, saved.doc, 200, 'related' in saved ? saved.related : undefined);
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
