/**
 * Venues and organizers: archive, create, and get/update/delete by id and by slug (reference:
 * Archive_Venue/Organizer, Single_Venue/Organizer(+_Slug), Linked_Post_Base). Both kinds share this code;
 * what differs is in their LinkedKindDef.
 */
import { can, canDeleteRecord, canEditRecord, canReadRecord, type Caller } from '#libs/auth/user';
import { fieldEntries } from '#libs/calendar/fields';
import { EVENT_TYPE } from '#libs/calendar/meta';
import { searchPrivacy } from '#libs/posts/search';
import type { PostDoc } from '#libs/posts/types';
import { invalidParams, type ParamError } from '#libs/rest/errors';
import { totalPages } from '#libs/rest/paging';
import { shared } from '#libs/rest/params';
import type { HandlerContext, ServiceApp } from '#libs/rest/service';
import { VENDOR_LINKED_ENDPOINTS } from '#libs/routes/vendor-events/index';
import type { Filter } from '#libs/store/types';
import { listStatuses, mayWriteAs, readableFilter, writeState } from '../access';
import type { CalendarDeps } from '../deps';
import { INVALID, calendarErrors, paramFailure } from '../errors';
import { archiveEnvelope, archiveHeaders, pathSlug, through } from '../http';
import { trashRecord } from '#libs/calendar/lifecycle';
import { V1 } from '../links';
import { loadRelated } from '../related';
import { pageWithTotal } from '../list-page';
import type { LinkedKindDef } from './kind';
import { presentLinked } from './present';
import { checkLinkedInput, metaAsFields, saveLinked, v1LinkedInput, type LinkedInput } from './write';

/** Statuses whose events make a venue "have events" (has_events). */
const NOT_COUNTED = ['draft', 'pending', 'trash', 'auto-draft', 'inherit'];

/** The search's fragments: runs of letters, digits, dashes and underscores. */
export function searchFragments(search: string): string[] {
  return search.split(/[^\p{L}\p{N}_-]+/u).filter(Boolean);
}

/** Ids of the kind that events link to, counting only events in a status that counts (has_events). */
export async function idsWithEvents(deps: CalendarDeps, kind: LinkedKindDef): Promise<number[]> {
  return (await deps.posts.distinct(kind.eventField, { type: EVENT_TYPE, status: { $nin: NOT_COUNTED } })).map(Number);
}

/** Ids of the kind linked to upcoming events the caller could see: published, and private ones the caller may read. */
export async function idsWithUpcoming(deps: CalendarDeps, kind: LinkedKindDef, user: Caller): Promise<number[]> {
  const visible = readableFilter(user, 'vendor_event', ['publish', 'private']);
  return (await deps.posts.distinct(kind.eventField, { $and: [{ type: EVENT_TYPE }, visible, { event_start: { $gt: deps.now() } }] })).map(Number);
}

/**
 * The id a by-id route names (its capture); 0 on the by-slug routes (see pathSlug) and where a JSON null
 * in the body replaced the capture (the body's arguments win over the URL's), which names no record.
 */
function namedId(ctx: HandlerContext, kind: LinkedKindDef): number {
  const eps = VENDOR_LINKED_ENDPOINTS[kind.plural];
  return through(ctx, eps.get, eps.update, eps.delete) ? (ctx.input.id ?? 0) : 0;
}

function target(ctx: HandlerContext, deps: CalendarDeps, kind: LinkedKindDef): Promise<PostDoc | null> {
  return ctx.once(kind.key, async () => {
    const slug = pathSlug(ctx);
    const id = namedId(ctx, kind);
    const doc = slug !== null ? await deps.posts.findOne({ type: kind.type, slug }) : id > 0 ? await ctx.record(deps.posts, id) : null;
    return doc && doc.type === kind.type ? doc : null;
  });
}

/** The id or slug must name a record of the kind: a 400 before any permission check (even for guests). */
async function mustExist(ctx: HandlerContext, deps: CalendarDeps, kind: LinkedKindDef): Promise<PostDoc> {
  const doc = await target(ctx, deps, kind);
  if (!doc) throw invalidParams([[pathSlug(ctx) !== null ? 'slug' : 'id', INVALID]]);
  return doc;
}

/** The write: the kind's arguments the request gave (a null is not given), as the gateway validated them. */
function inputOf(ctx: HandlerContext, kind: LinkedKindDef): LinkedInput {
  const names = [kind.key, 'author', 'date', 'date_utc', 'description', 'status', 'image', ...Object.keys(kind.fields.fields)];
  const given: Record<string, unknown> = {};
  for (const n of names) if (ctx.has(n) && ctx.params[n] !== null) given[n] = ctx.params[n];
  return v1LinkedInput(kind, given);
}

/** Author and image checks, once per request. */
function checked(ctx: HandlerContext, deps: CalendarDeps, kind: LinkedKindDef) {
  return ctx.once('checked', async () => {
    const r = await checkLinkedInput(deps, ctx.user, inputOf(ctx, kind));
    const failure = paramFailure(r.failures);
    if (failure) throw failure;
    return r;
  });
}

async function present(ctx: HandlerContext, deps: CalendarDeps, kind: LinkedKindDef, doc: PostDoc, status = 200, single = false) {
  const related = await loadRelated(deps, [doc]);
  // The routes declare no password, yet a request's password unlocks a protected record's fields.
  const blank = !!doc.password && ctx.params.password !== doc.password;
  return { status, body: presentLinked(kind, doc, deps.site, related, { single, blank }) };
}

export function bindLinked(app: ServiceApp, deps: CalendarDeps, kind: LinkedKindDef): void {
  const { site } = deps;
  const eps = VENDOR_LINKED_ENDPOINTS[kind.plural];
  const editCap = `edit_${kind.cap}s`;

  app.bind(shared(eps.list), {
    async handle(ctx) {
      // A list is a GET: its arguments come from the query string, so one without a default has a value
      // exactly when the request carried it.
      const { page, per_page: perPage, search, event: eventId, has_events: hasEvents } = ctx.input;
      const failures: Array<[string, ParamError | string]> = [];
      const and: Filter[] = [{ type: kind.type }];
      const echo: Record<string, unknown> = { page, per_page: perPage };
      const status = listStatuses(ctx.user, kind.cap, ctx.input.status ?? undefined);
      if (typeof status === 'string') failures.push(['status', status]);
      else and.push(status.filter);
      if (eventId != null) {
        const event = await deps.posts.byId(eventId);
        if (event?.type !== EVENT_TYPE) failures.push(['event', INVALID]);
        else and.push({ id: { $in: event[kind.eventField] ?? [] } });
        echo.event = eventId;
      }
      const failure = paramFailure(failures);
      if (failure) throw failure;

      if (search != null) {
        const fragments = searchFragments(search);
        const searched = fieldEntries(kind.fields).filter(([, f]) => f.search);
        const fields = ['title', 'content', 'excerpt', ...searched.map(([, f]) => `meta.${f.meta}`)];
        // A record matches when one of its fields holds every fragment.
        if (fragments.length) and.push({ $or: fields.map((f) => ({ $and: fragments.map((w) => ({ [f]: { $icontains: w } })) })) });
        const privacy = searchPrivacy(ctx.user);
        if (privacy) and.push(privacy);
        echo.search = search;
      }
      if (hasEvents != null) {
        const linked = await idsWithEvents(deps, kind);
        and.push({ id: hasEvents ? { $in: linked } : { $nin: linked } });
        echo.has_events = hasEvents ? 'true' : 'false';
      }
      if (ctx.input.only_with_upcoming) {
        const linked = await idsWithUpcoming(deps, kind, ctx.user);
        and.push({ id: { $in: linked } });
        echo.only_with_upcoming = 'true';
      }
      if (typeof status !== 'string') echo.status = status.echo;

      const { items, total } = await pageWithTotal(deps, { $and: and }, { page, perPage, sort: [['date', -1]] });
      if (page > 1 && items.length === 0) throw calendarErrors.archivePageNotFound(kind.key);
      const related = await loadRelated(deps, items);
      const records = items.map((d) => presentLinked(kind, d, site, related, { blank: !!d.password }));
      const pages = totalPages(total, perPage);
      return {
        body: archiveEnvelope(site, `${V1}/${kind.plural}/`, kind.plural, records, echo, page, pages, total),
        headers: archiveHeaders(total, perPage),
      };
    },
  });

  app.bind(shared(eps.create), {
    async validate(ctx) {
      await checked(ctx, deps, kind);
      return true;
    },
    permission: async (ctx) => can(ctx.user, editCap) && mayWriteAs(ctx.user, kind.cap, ctx.input.author),
    allowState: async (ctx) => writeState(ctx.user, null, ctx.input.author),
    async handle(ctx) {
      const { image } = await checked(ctx, deps, kind);
      const { doc, existing } = await saveLinked(deps, ctx.user, kind, inputOf(ctx, kind), image, null);
      // A duplicate answers like a creation, with the record that already existed; a new one shows the
      // fields its save derives from what was stored.
      const derived = existing ? {} : (kind.derivedMeta?.(metaAsFields(kind, doc)) ?? {});
      return present(ctx, deps, kind, { ...doc, meta: { ...derived, ...doc.meta } }, 201);
    },
  });

  // The by-id routes and the by-slug ones share their handlers; `target` finds the record either way.
  for (const one of [eps, eps.slug]) {
    app.bind(shared(one.get), {
      async handle(ctx) {
        const doc = await mustExist(ctx, deps, kind);
        if (doc.status !== 'publish' && !canReadRecord(ctx.user, kind.cap, doc)) throw calendarErrors.notAccessible(kind.key);
        return present(ctx, deps, kind, doc, 200, true);
      },
    });

    app.bind(shared(one.update), {
      async validate(ctx) {
        await mustExist(ctx, deps, kind);
        await checked(ctx, deps, kind);
        return true;
      },
      permission: async (ctx) => {
        const doc = await target(ctx, deps, kind);
        if (!mayWriteAs(ctx.user, kind.cap, ctx.input.author)) return false;
        return doc ? canEditRecord(ctx.user, kind.cap, doc) : can(ctx.user, editCap);
      },
      allowState: async (ctx) => writeState(ctx.user, await target(ctx, deps, kind), ctx.input.author),
      async handle(ctx) {
        const doc = await mustExist(ctx, deps, kind);
        const { image } = await checked(ctx, deps, kind);
        const { doc: saved } = await saveLinked(deps, ctx.user, kind, inputOf(ctx, kind), image, doc);
        return present(ctx, deps, kind, saved);
      },
    });

    app.bind(shared(one.delete), {
      async validate(ctx) {
        await mustExist(ctx, deps, kind);
        return true;
      },
      permission: async (ctx) => {
        const doc = await target(ctx, deps, kind);
        return doc ? canDeleteRecord(ctx.user, kind.cap, doc) : can(ctx.user, `delete_${kind.cap}s`);
      },
      allowState: async (ctx) => writeState(ctx.user, await target(ctx, deps, kind), undefined),
      async handle(ctx) {
        const doc = await mustExist(ctx, deps, kind);
        if (doc.status === 'trash') throw calendarErrors.inTrash(kind.key);
        return present(ctx, deps, kind, await trashRecord(deps, doc, kind.key));
      },
    });
  }
}
