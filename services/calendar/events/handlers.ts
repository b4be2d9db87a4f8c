/** vendor/events/v1 events: archive, create, and get/update/delete by id and by slug (reference: Archive_Event, Single_Event, Single_Event_Slug). */
import { can, canDeleteRecord, canEditRecord, canReadRecord, type Caller } from '#libs/auth/user';
import { versionOf, viewerKey } from '#libs/rest/presented';
import { mayWriteAs, writeState } from '../access';
import { EVENT_TYPE } from '#libs/calendar/meta';
import type { PostDoc } from '#libs/posts/types';
import { invalidParams } from '#libs/rest/errors';
import { totalPages } from '#libs/rest/paging';
import { shared, type InputOf, type ParamsOf } from '#libs/rest/params';
import type { KeptPresenter } from '#libs/rest/read-cache';
import type { HandlerContext, ServiceApp } from '#libs/rest/service';
import { VENDOR_EVENT_ENDPOINTS } from '#libs/routes/vendor-events/index';
import type { eventWriteArgs } from '#libs/routes/vendor-events/events';
import { EVENT_FIELDS as F } from '#libs/calendar/fields';
import type { CalendarDeps } from '../deps';
import { INVALID, calendarErrors } from '../errors';
import { archiveEnvelope, archiveHeaders, pathSlug, queryKey, through } from '../http';
import { V1 } from '../links';
import { trashRecord } from '#libs/calendar/lifecycle';
import { nonceHeaders } from '../nonces';
import { pageWithTotal } from '../list-page';
import { archiveQuery } from './archive';
import { nearestPage } from './geoloc';
import { loadEventParts } from './parts';
import type { Related } from '../related';
import { presentEvent } from './present';
import { checkEventWrite, saveEvent, type EventInput, type EventPlan, type EventWrite } from './write';

const E = VENDOR_EVENT_ENDPOINTS;

/**
 * The id a by-id route names (its capture); 0 on the by-slug routes (see pathSlug) and where a JSON null
 * in the body replaced the capture (the body's arguments win over the URL's), which names no event.
 */
const namedId = (ctx: HandlerContext): number => (through(ctx, E.get, E.update, E.delete) ? (ctx.input.id ?? 0) : 0);

/** The record a single-event route names (by id or by slug), loaded once per request; null when absent. */
function target(ctx: HandlerContext, deps: CalendarDeps): Promise<PostDoc | null> {
  return ctx.once('event', async () => {
    const slug = pathSlug(ctx);
    const id = namedId(ctx);
    return slug !== null ? await deps.posts.findOne({ type: EVENT_TYPE, slug }) : Number.isInteger(id) && id > 0 ? await ctx.record(deps.posts, id) : null;
  });
}

/** What the update and delete checks read besides the caller's capabilities (Handler.allowState): the target event's state and the `author` argument's. */
async function eventState(ctx: HandlerContext, deps: CalendarDeps): Promise<string> {
  const doc = await target(ctx, deps);
  return writeState(ctx.user, doc?.type === EVENT_TYPE ? doc : null, ctx.params.author);
}

/**
 * Events as vendor/events/v1 presents them (a single read, a write's answer, archive items), kept under
 * the event at its version, how it is shown and what the caller may see of its venues and organizers
 * (ctx.present). A write's answer is presented from what the write read and wrote (`known`).
 */
const eventPresenter = (
  deps: CalendarDeps,
  how: 'single' | 'written' | 'archive',
  user: Caller,
  known?: Related,
): KeptPresenter<PostDoc, Record<string, unknown>> => ({
  key: (doc) => `v1.event:${doc.id}:${versionOf(doc)}:${how}:${viewerKey(user)}`,
  async present(docs) {
    const parts = await loadEventParts(deps, docs, how === 'single', user, known);
    return docs.map((e) => presentEvent(e, deps.site, parts, how === 'archive' ? { blank: !!e.password } : { single: how === 'single' }));
  },
});

/** By slug, the slug must name an event (any status), else the parameter is invalid, before any permission check. */
async function slugMustResolve(ctx: HandlerContext, deps: CalendarDeps): Promise<void> {
  if (pathSlug(ctx) === null) return;
  if (!(await target(ctx, deps))) throw invalidParams([['slug', INVALID]]);
}

/** The event a route names, or the reference's 404 (missing) / 400 (not an event). */
async function existingEvent(ctx: HandlerContext, deps: CalendarDeps): Promise<PostDoc> {
  const doc = await target(ctx, deps);
  if (!doc) throw calendarErrors.eventNotFound(namedId(ctx));
  if (doc.type !== EVENT_TYPE) throw calendarErrors.invalidEventId();
  return doc;
}

/** vendor/events/v1's write arguments, as the gateway validated them (a by-slug update has no password). */
type V1WriteInput = ParamsOf<ReturnType<typeof eventWriteArgs<false>>> & { readonly password?: string | null };

/**
 * The event write of a vendor/events/v1 request, read by the fields' v1 names (libs/calendar/fields.ts):
 * the arguments it declares and the request gave (an argument v1 does not declare, such as ec/v1's
 * `duration`, was never validated and is not read: the reference's v1 ignores it). A JSON null empties
 * what may be emptied; an author of null names no user.
 */
function eventWrite(ctx: HandlerContext<V1WriteInput>): EventWrite {
  const a = ctx.input;
  const given = <K extends keyof V1WriteInput>(name: K): V1WriteInput[K] | undefined => (ctx.has(name) ? a[name] : undefined);
  const text = (name: 'title' | 'description' | 'excerpt' | 'slug' | 'status' | 'date' | 'date_utc' | 'start_date' | 'end_date' | 'password') => {
    const v = given(name);
    return typeof v === 'string' ? v : undefined;
  };
  const flag = (name: 'all_day' | 'show_map' | 'show_map_link' | 'hide_from_listings' | 'sticky' | 'featured') =>
    ctx.has(name) ? a[name] === true : undefined;
  const list = <T>(v: T[] | null | undefined): T[] | undefined => (v === undefined ? undefined : (v ?? []));
  const input: EventInput = {
    title: text(F.title.v1),
    description: text(F.description.v1),
    excerpt: text(F.excerpt.v1),
    slug: text(F.slug.v1),
    status: text(F.status.v1),
    author: ctx.has(F.author.v1) ? (a.author ?? 0) : undefined,
    password: text(F.password.v1),
    date: text(F.date.v1),
    dateUtc: text(F.dateUtc.v1),
    timezone: ctx.has(F.timezone.v1) ? (a.timezone ?? '') : undefined,
    allDay: flag(F.allDay.v1),
    start: text(F.start.v1),
    end: text(F.end.v1),
    image: given(F.image.v1),
    cost: given(F.cost.v1),
    website: ctx.has(F.website.v1) ? (typeof a.website === 'string' ? a.website : '') : undefined,
    showMap: flag(F.showMap.v1),
    showMapLink: flag(F.showMapLink.v1),
    hideFromListings: flag(F.hideFromListings.v1),
    sticky: flag(F.sticky.v1),
    featured: flag(F.featured.v1),
    venues: list(given(F.venues.v1)),
    organizers: list(given(F.organizers.v1)),
    categories: list(given(F.categories.v1)),
    tags: list(given(F.tags.v1)),
  };
  return { user: ctx.user, input, dialect: 'v1' };
}

const plan = (ctx: HandlerContext<V1WriteInput>, deps: CalendarDeps): Promise<EventPlan> => ctx.once('plan', () => checkEventWrite(deps, eventWrite(ctx)));

async function single(ctx: HandlerContext, deps: CalendarDeps, doc: PostDoc, status = 200, known?: Related) {
  const [body] = await ctx.present([doc], eventPresenter(deps, ctx.req.method === 'GET' ? 'single' : 'written', ctx.user, known));
  return { status, body };
}

export function bindEvents(app: ServiceApp, deps: CalendarDeps): void {
  const { site } = deps;

  /** One archive page: what every caller with the same rights and query gets. */
  async function archivePage(ctx: HandlerContext<InputOf<typeof E.list>>): Promise<{ body: unknown; headers: Record<string, string> }> {
    const q = await archiveQuery(deps, { params: ctx.input, given: (n) => ctx.has(n), user: ctx.user });
    if ('code' in q) throw q;
    const { items, total } = q.nearest
      ? await nearestPage(deps, q.filter, q.sort, q.nearest, q.page, q.perPage)
      : await pageWithTotal(deps, q.filter, { page: q.page, perPage: q.perPage, sort: q.sort });
    if (q.page > 1 && items.length === 0) throw calendarErrors.archivePageNotFound('event');
    const events = await ctx.present(items, eventPresenter(deps, 'archive', ctx.user));
    const pages = totalPages(total, q.perPage);
    return {
      body: archiveEnvelope(site, `${V1}/events/`, 'events', events, q.echo, q.page, pages, total),
      headers: archiveHeaders(total, q.perPage),
    };
  }

  app.bind(E.list, {
    // Callers with the same rights see the same page for the same query.
    keep: { answer: (ctx) => queryKey(ctx.req.query) },
    async handle(ctx) {
      const page = await archivePage(ctx);
      return { body: page.body, headers: { ...page.headers, ...nonceHeaders(deps.nonces, ctx.user) } };
    },
  });

  app.bind(E.create, {
    async validate(ctx) {
      await plan(ctx, deps);
      return true;
    },
    permission: async (ctx) => can(ctx.user, 'edit_vendor_events') && mayWriteAs(ctx.user, 'vendor_event', ctx.input.author),
    allowState: async (ctx) => writeState(ctx.user, null, ctx.input.author),
    async handle(ctx) {
      const saved = await saveEvent(deps, eventWrite(ctx), await plan(ctx, deps), null);
      return single(ctx, deps, saved.doc, 201, saved.related);
    },
  });

  // The by-id routes and the by-slug ones share their handlers; `target` finds the event either way.
  for (const eps of [E, E.slug]) {
    app.bind(shared(eps.get), {
      async handle(ctx) {
        await slugMustResolve(ctx, deps);
        const doc = await existingEvent(ctx, deps);
        if (doc.status === 'trash') throw calendarErrors.eventNoLongerAvailable();
        if (doc.status !== 'publish' && !canReadRecord(ctx.user, 'vendor_event', doc)) throw calendarErrors.eventNotAccessible();
        // Read from the request's arguments: the by-slug route does not declare a password, yet one given there unlocks the event too.
        if (doc.password && ctx.params.password !== doc.password) throw calendarErrors.eventPasswordProtected();
        return single(ctx, deps, doc);
      },
    });

    app.bind(shared(eps.update), {
      async validate(ctx) {
        await slugMustResolve(ctx, deps);
        await plan(ctx, deps);
        return true;
      },
      // An existing event needs edit rights on it; otherwise the general right, so the handler's 404 can be reached.
      permission: async (ctx) => {
        const doc = await target(ctx, deps);
        if (!mayWriteAs(ctx.user, 'vendor_event', ctx.input.author)) return false;
        return doc?.type === EVENT_TYPE ? canEditRecord(ctx.user, 'vendor_event', doc) : can(ctx.user, 'edit_vendor_events');
      },
      allowState: async (ctx) => eventState(ctx, deps),
      async handle(ctx) {
        const doc = await existingEvent(ctx, deps);
        const saved = await saveEvent(deps, eventWrite(ctx), await plan(ctx, deps), doc);
        return single(ctx, deps, saved.doc, 200, saved.related);
      },
    });

    app.bind(shared(eps.delete), {
      async validate(ctx) {
        await slugMustResolve(ctx, deps);
        return true;
      },
      permission: async (ctx) => {
        const doc = await target(ctx, deps);
        return doc?.type === EVENT_TYPE ? canDeleteRecord(ctx.user, 'vendor_event', doc) : can(ctx.user, 'delete_vendor_events');
      },
      allowState: async (ctx) => eventState(ctx, deps),
      async handle(ctx) {
        const doc = await existingEvent(ctx, deps);
        if (doc.status === 'trash') throw calendarErrors.inTrash('event');
        return single(ctx, deps, await trashRecord(deps, doc));
      },
    });
  }
}
